/* AmberScript parser: text -> cvm_amber_script.  Reads no file.
 *
 * The script is a stream of tokens (runs of non-blank characters) and ends
 * of line; `#` at the start of a token comments out the rest of the line.
 * Each statement is one line, except the blocks PIPELINE ... END,
 * SUBGROUP ... END, DATA ... END (values may span lines) and inline shader
 * bodies, which are taken verbatim up to a line that is just END. */
#include "amber/amber.h"
#include "amber/amber_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h> /* snprintf only: this layer never prints */
#include <stdlib.h>
#include <string.h>

#include "cvm_common.h"
#include "cvm_config.h"

/* Types and layout ------------------------------------------------------ */

static const struct {
    const char *name;
    cvm_amber_scalar scalar;
    uint32_t size;
} scalar_table[] = {
    {"int8", CVM_AMBER_INT8, 1},       {"int16", CVM_AMBER_INT16, 2},
    {"int32", CVM_AMBER_INT32, 4},     {"int64", CVM_AMBER_INT64, 8},
    {"uint8", CVM_AMBER_UINT8, 1},     {"uint16", CVM_AMBER_UINT16, 2},
    {"uint32", CVM_AMBER_UINT32, 4},   {"uint64", CVM_AMBER_UINT64, 8},
    {"float16", CVM_AMBER_FLOAT16, 2}, {"float", CVM_AMBER_FLOAT32, 4},
    {"double", CVM_AMBER_FLOAT64, 8},
};

uint32_t cvm_amber_scalar_size(cvm_amber_scalar s)
{
    return scalar_table[s].size;
}

const char *cvm_amber_scalar_name(cvm_amber_scalar s)
{
    return scalar_table[s].name;
}

static uint32_t column_stride(cvm_amber_type t)
{
    /* std430: a vec3 takes the room of a vec4; vec2 and vec4 are tight.
     * std140: google/amber pads every column of a matrix to 4 components
     * (Format::NeedsPadding), so a column is 4 scalars. */
    uint32_t rows = t.rows == 3 || (t.std140 && t.columns > 1) ? 4 : t.rows;
    return rows * cvm_amber_scalar_size(t.scalar);
}

uint32_t cvm_amber_type_stride(cvm_amber_type t)
{
    uint32_t size = t.columns * column_stride(t);
    /* std140 arrays: each element starts on a 16-byte boundary */
    if (t.std140 && t.array)
        size = (size + 15u) / 16u * 16u;
    return size;
}

int cvm_amber_type_equal(cvm_amber_type a, cvm_amber_type b)
{
    return a.scalar == b.scalar && a.rows == b.rows && a.columns == b.columns &&
           a.std140 == b.std140 && a.array == b.array;
}

uint64_t cvm_amber_value_offset(cvm_amber_type t, uint64_t value_index)
{
    uint64_t per = (uint64_t)t.rows * t.columns;
    uint64_t element = value_index / per, in = value_index % per;
    return element * cvm_amber_type_stride(t) + (in / t.rows) * column_stride(t) +
           (in % t.rows) * cvm_amber_scalar_size(t.scalar);
}

static int scalar_is_float(cvm_amber_scalar s)
{
    return s >= CVM_AMBER_FLOAT16;
}

static int scalar_is_signed(cvm_amber_scalar s)
{
    return s <= CVM_AMBER_INT64;
}

/* binary16 ------------------------------------------------------------- */

float cvm_amber_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13) | (man ? 0x00400000u : 0);
    } else if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in float */
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    } else {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* Rounds once from double (so literals are not rounded twice). */
uint16_t cvm_amber_half_from_double(double d)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    if (isnan(d))
        return (uint16_t)(sign | 0x7e00);
    if (a >= 65520.0) /* halfway between 65504 and 2^16 rounds up to infinity */
        return (uint16_t)(sign | 0x7c00);
    if (a < 0x1p-14) {
        /* subnormal: units of 2^-24; nearbyint rounds to even; 1024 is the
         * smallest normal and encodes as such */
        return (uint16_t)(sign | (uint16_t)nearbyint(a * 0x1p24));
    }
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;
    double m = nearbyint((f * 2.0 - 1.0) * 1024.0);
    if (m >= 1024.0) {
        m = 0;
        exp++;
    }
    if (exp > 15)
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | (uint16_t)((exp + 15) << 10) | (uint16_t)m);
}

uint16_t cvm_amber_float_to_half(float f)
{
    return cvm_amber_half_from_double((double)f);
}

#define half_from_double cvm_amber_half_from_script

uint16_t cvm_amber_half_from_script(double d)
{
    /* google/amber (float16_helper.cc): the value becomes a float, rounded
     * to nearest, whose mantissa is then cut to 10 bits (toward zero), the
     * exponent rebased.  Its code leaves values outside the normal half
     * range to chance; here they become zero (below 2^-14, what its "flush
     * denormals" comment intends) or infinity (65536 and above); NaN stays
     * NaN. */
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    uint16_t sign = (uint16_t)((b >> 31) << 15);
    uint32_t e = (b >> 23) & 0xff, m = b & 0x7fffff;
    if (e == 255)
        return (uint16_t)(sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
    if (e < 113)
        return sign;
    if (e > 142)
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | ((e - 112) << 10) | (m >> 13));
}

/* Script memory --------------------------------------------------------- */

static void pipeline_free(cvm_amber_pipeline *pl)
{
    cvm_mem_free(pl->name);
    cvm_mem_free(pl->entry_point);
    cvm_mem_free(pl->specs);
    cvm_mem_free(pl->bindings);
}

void cvm_amber_script_destroy(cvm_amber_script *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->extension_count; i++)
        cvm_mem_free(s->extensions[i].name);
    for (uint32_t i = 0; i < s->feature_count; i++)
        cvm_mem_free(s->features[i].name);
    for (uint32_t i = 0; i < s->property_count; i++)
        cvm_mem_free(s->properties[i].name);
    for (uint32_t i = 0; i < s->shader_count; i++) {
        cvm_mem_free(s->shaders[i].name);
        cvm_mem_free(s->shaders[i].path);
        cvm_mem_free(s->shaders[i].text);
        cvm_mem_free(s->shaders[i].target_env);
    }
    for (uint32_t i = 0; i < s->buffer_count; i++) {
        cvm_mem_free(s->buffers[i].name);
        cvm_mem_free(s->buffers[i].data);
        cvm_mem_free(s->buffers[i].path);
    }
    for (uint32_t i = 0; i < s->pipeline_count; i++)
        pipeline_free(&s->pipelines[i]);
    for (uint32_t i = 0; i < s->command_count; i++) {
        cvm_mem_free(s->commands[i].text);
        cvm_mem_free(s->commands[i].values);
        cvm_mem_free(s->commands[i].ivalues);
        cvm_mem_free(s->commands[i].data);
    }
    cvm_mem_free(s->extensions);
    cvm_mem_free(s->features);
    cvm_mem_free(s->properties);
    cvm_mem_free(s->shaders);
    cvm_mem_free(s->buffers);
    cvm_mem_free(s->pipelines);
    cvm_mem_free(s->commands);
    cvm_mem_free(s->path);
    cvm_mem_free(s->dir);
    cvm_mem_free(s);
}

uint32_t cvm_amber_find_buffer(const cvm_amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->buffer_count; i++)
        if (!strcmp(s->buffers[i].name, name))
            return i;
    return UINT32_MAX;
}

uint32_t cvm_amber_find_pipeline(const cvm_amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->pipeline_count; i++)
        if (!strcmp(s->pipelines[i].name, name))
            return i;
    return UINT32_MAX;
}

static uint32_t find_shader(const cvm_amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->shader_count; i++)
        if (!strcmp(s->shaders[i].name, name))
            return i;
    return UINT32_MAX;
}

void *cvm_amber_grow(void *arr_ptr, uint32_t *count, size_t size)
{
    void **arr = arr_ptr;
    void *n = cvm_realloc(*arr, (*count + 1) * size);
    if (!n)
        return NULL;
    *arr = n;
    void *item = (char *)n + *count * size;
    memset(item, 0, size);
    (*count)++;
    return item;
}

#define grow cvm_amber_grow

/* Lexer ------------------------------------------------------------------ */

typedef enum { TOK_WORD, TOK_EOL, TOK_EOF } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *s;
    size_t n;
    uint32_t line, col;
} tok;

typedef struct parser {
    const char *text, *end, *p;
    const char *line_start;
    uint32_t line;
    tok la;
    int has_la;
    const char *last_end; /* end of the last word consumed */
    cvm_amber_script *script;
    cvm_diagnostic *diag;
    uint64_t buffer_bytes; /* allocated by SIZE so far (alloc_sized) */
} parser;

static tok lex(parser *P)
{
    tok t;
    memset(&t, 0, sizeof(t));
    for (;;) {
        while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\r' ||
                                 *P->p == '\f' || *P->p == '\v'))
            P->p++;
        if (P->p < P->end && *P->p == '#') {
            while (P->p < P->end && *P->p != '\n')
                P->p++;
            continue;
        }
        break;
    }
    t.line = P->line;
    t.col = (uint32_t)(P->p - P->line_start) + 1;
    if (P->p >= P->end) {
        t.kind = TOK_EOF;
        return t;
    }
    if (*P->p == '\n') {
        t.kind = TOK_EOL;
        P->p++;
        P->line++;
        P->line_start = P->p;
        return t;
    }
    t.kind = TOK_WORD;
    t.s = P->p;
    while (P->p < P->end && !cvm_amber_in_set(*P->p, " \t\r\n\f\v"))
        P->p++;
    t.n = (size_t)(P->p - t.s);
    return t;
}

static tok next(parser *P)
{
    tok t;
    if (P->has_la) {
        P->has_la = 0;
        t = P->la;
    } else {
        t = lex(P);
    }
    if (t.kind == TOK_WORD)
        P->last_end = t.s + t.n;
    return t;
}

static tok peek(parser *P)
{
    if (!P->has_la) {
        P->la = lex(P);
        P->has_la = 1;
    }
    return P->la;
}

static int is(tok t, const char *w)
{
    return t.kind == TOK_WORD && strlen(w) == t.n && !memcmp(t.s, w, t.n);
}

/* A short printable form of a token for messages. */
static const char *show(tok t, char *buf, size_t cap)
{
    if (t.kind == TOK_EOL)
        return "end of line";
    if (t.kind == TOK_EOF)
        return "end of file";
    snprintf(buf, cap, "'%.*s'", (int)CVM_MIN(t.n, (size_t)60), t.s);
    return buf;
}

static cvm_result error_at(parser *P, cvm_result r, uint32_t line, uint32_t col, const char *fmt,
                           ...) CVM_PRINTF(5, 6);
static cvm_result error_at(parser *P, cvm_result r, uint32_t line, uint32_t col, const char *fmt,
                           ...)
{
    if (P->diag) {
        va_list ap;
        va_start(ap, fmt);
        cvm_diag_vset(P->diag, r, fmt, ap);
        va_end(ap);
        P->diag->line = line;
        P->diag->column = col;
        snprintf(P->diag->file, sizeof(P->diag->file), "%s", P->script->path);
    }
    return r;
}

/* "expected X, got Y" at token t. */
static cvm_result expected(parser *P, tok t, const char *what)
{
    char b[80];
    return error_at(P, CVM_ERROR_SYNTAX, t.line, t.col, "expected %s, got %s", what,
                    show(t, b, sizeof(b)));
}

static cvm_result oom(parser *P)
{
    return error_at(P, CVM_ERROR_OUT_OF_MEMORY, P->line, 1, "out of memory");
}

static char *tok_dup(tok t)
{
    char *s = cvm_malloc(t.n + 1);
    if (s) {
        memcpy(s, t.s, t.n);
        s[t.n] = 0;
    }
    return s;
}

static cvm_result word(parser *P, const char *what, tok *o)
{
    *o = next(P);
    if (o->kind != TOK_WORD)
        return expected(P, *o, what);
    return CVM_SUCCESS;
}

static cvm_result keyword(parser *P, const char *kw)
{
    tok t = next(P);
    if (!is(t, kw)) {
        char what[64];
        snprintf(what, sizeof(what), "'%s'", kw);
        return expected(P, t, what);
    }
    return CVM_SUCCESS;
}

static cvm_result end_of_line(parser *P, const char *after)
{
    tok t = next(P);
    if (t.kind == TOK_EOL || t.kind == TOK_EOF)
        return CVM_SUCCESS;
    char what[96];
    snprintf(what, sizeof(what), "end of line after %s", after);
    return expected(P, t, what);
}

/* Numbers ----------------------------------------------------------------- */

static int tok_u64(tok t, uint64_t *o)
{
    char buf[64];
    if (t.kind != TOK_WORD || t.n == 0 || t.n >= sizeof(buf) || t.s[0] == '-' || t.s[0] == '+')
        return 0;
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    char *e;
    errno = 0;
    unsigned long long v = strtoull(buf, &e, 0);
    if (*e || errno)
        return 0;
    *o = v;
    return 1;
}

static cvm_result parse_u32(parser *P, const char *what, uint32_t *o)
{
    tok t = next(P);
    uint64_t v;
    if (!tok_u64(t, &v) || v > UINT32_MAX)
        return expected(P, t, what);
    *o = (uint32_t)v;
    return CVM_SUCCESS;
}

static int tok_double(tok t, double *o)
{
    char buf[128];
    if (t.kind != TOK_WORD || t.n == 0 || t.n >= sizeof(buf))
        return 0;
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    char *e;
    double v = strtod(buf, &e);
    if (*e || e == buf)
        return 0;
    *o = v;
    return 1;
}

static int scalar_is_signed_int(cvm_amber_scalar s)
{
    return s <= CVM_AMBER_INT64;
}

int cvm_amber_number(const char *s, size_t n, cvm_amber_scalar t, int expectation, void *dst,
                     double *o_d, int64_t *o_i)
{
    char buf[128];
    if (n == 0 || n >= sizeof(buf))
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    uint32_t size = cvm_amber_scalar_size(t);
    double d = 0;
    int64_t i = 0;
    char *e;
    if (t >= CVM_AMBER_FLOAT16) {
        d = strtod(buf, &e);
        if (*e || e == buf)
            return 0;
        if (t == CVM_AMBER_FLOAT16) {
            uint16_t h = cvm_amber_half_from_script(d);
            /* google/amber compares a float16 value with the expected one
             * as a float: the expectation keeps float precision */
            d = expectation ? (double)(float)d : (double)cvm_amber_half_to_float(h);
            i = h;
            if (dst)
                memcpy(dst, &h, 2);
        } else if (t == CVM_AMBER_FLOAT32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            d = (double)f;
            i = b;
            if (dst)
                memcpy(dst, &f, 4);
        } else {
            memcpy(&i, &d, 8);
            if (dst)
                memcpy(dst, &d, 8);
        }
    } else {
        int neg = buf[0] == '-';
        errno = 0;
        uint64_t mag;
        const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
        if (*digits == '-' || *digits == '+' || *digits == 0)
            return 0;
        unsigned long long u = strtoull(digits, &e, 0);
        if (*e || errno) {
            /* a float literal with an integral value: "0.0", "-3.0", "1e3" */
            errno = 0;
            double f = strtod(digits, &e);
            if (*e || e == digits || errno || !(f == nearbyint(f)) || f >= 0x1p64)
                return 0;
            u = (unsigned long long)f;
        }
        mag = u;
        /* Like google/amber, which keeps an integer literal's 64 bits and
         * narrows them to the type, a value is taken as the bit pattern of
         * its width: an int16 accepts 40206 (= -25330) and a uint8 -1
         * (= 255).  Values whose bits do not fit the width are refused
         * (amber would silently cut them). */
        uint64_t lim = (uint64_t)1 << (size * 8 - 1); /* |min| of the signed type */
        uint64_t bits_max = size == 8 ? UINT64_MAX : (lim << 1) - 1;
        if (neg ? mag > lim : mag > bits_max)
            return 0;
        uint64_t bits = (neg ? 0 - mag : mag) & bits_max;
        if (scalar_is_signed_int(t)) {
            i = (int64_t)((bits ^ lim) - lim); /* sign-extend */
            d = (double)i;
        } else {
            i = (int64_t)bits;
            d = (double)bits;
        }
        if (dst)
            memcpy(dst, &i, size); /* little-endian hosts: the low bytes */
    }
    if (o_d)
        *o_d = d;
    if (o_i)
        *o_i = i;
    return 1;
}

const char *cvm_amber_number_expectation(cvm_amber_scalar t, char *buf, size_t cap)
{
    if (t >= CVM_AMBER_FLOAT16)
        snprintf(buf, cap, "a %s value", cvm_amber_scalar_name(t));
    else if (scalar_is_signed_int(t))
        snprintf(buf, cap, "an integer in the range of %s", cvm_amber_scalar_name(t));
    else
        snprintf(buf, cap, "an unsigned integer in the range of %s", cvm_amber_scalar_name(t));
    return buf;
}

/* A value of scalar type `s` as written in token t, stored at `dst` (may be
 * NULL) and returned as a double and an integer (signed types as int64,
 * unsigned as uint64 bits). */
typedef struct value {
    double d;
    int64_t i;
} value;

static cvm_result parse_value_as(parser *P, tok t, cvm_amber_scalar s, int expectation,
                                 void *dst, value *o)
{
    char what[64];
    value v = {0, 0};
    if (t.kind != TOK_WORD || !cvm_amber_number(t.s, t.n, s, expectation, dst, &v.d, &v.i))
        return expected(P, t, cvm_amber_number_expectation(s, what, sizeof(what)));
    if (o)
        *o = v;
    return CVM_SUCCESS;
}

/* A value of a buffer's data (DATA, FILL, SERIES_FROM, SPECIALIZE). */
static cvm_result parse_value(parser *P, tok t, cvm_amber_scalar s, void *dst, value *o)
{
    return parse_value_as(P, t, s, 0, dst, o);
}

/* Types ------------------------------------------------------------------ */

static int lookup_scalar(const char *s, size_t n, cvm_amber_scalar *o)
{
    for (size_t i = 0; i < CVM_ARRAY_SIZE(scalar_table); i++)
        if (strlen(scalar_table[i].name) == n && !memcmp(scalar_table[i].name, s, n)) {
            *o = scalar_table[i].scalar;
            return 1;
        }
    return 0;
}

static int parse_format_word(tok t, cvm_amber_type *o);

static int parse_type_word(tok t, cvm_amber_type *o)
{
    cvm_amber_type ty = {CVM_AMBER_INT8, 1, 1, 0, 0};
    const char *s = t.s;
    size_t n = t.n;
    if (n > 2 && s[n - 2] == '[' && s[n - 1] == ']') {
        /* `type[]`: the data as an array (matters in STD140) */
        tok inner = t;
        inner.n -= 2;
        if (!parse_type_word(inner, o))
            return 0;
        o->array = 1;
        return 1;
    }
    if (lookup_scalar(s, n, &ty.scalar)) {
        *o = ty;
        return 1;
    }
    /* vecN<t>, matCxR<t> */
    if (n > 7 && !memcmp(s, "vec", 3) && s[3] >= '2' && s[3] <= '4' && s[4] == '<' &&
        s[n - 1] == '>') {
        ty.rows = (uint32_t)(s[3] - '0');
        if (!lookup_scalar(s + 5, n - 6, &ty.scalar))
            return 0;
        *o = ty;
        return 1;
    }
    if (n > 9 && !memcmp(s, "mat", 3) && s[3] >= '2' && s[3] <= '4' && s[4] == 'x' &&
        s[5] >= '2' && s[5] <= '4' && s[6] == '<' && s[n - 1] == '>') {
        ty.columns = (uint32_t)(s[3] - '0');
        ty.rows = (uint32_t)(s[5] - '0');
        if (!lookup_scalar(s + 7, n - 8, &ty.scalar))
            return 0;
        *o = ty;
        return 1;
    }
    /* a Vulkan format name of the plain kinds */
    return parse_format_word(t, o);
}

/* Vulkan format names of plain buffers: R<bits>[G<bits>[B<bits>[A<bits>]]]
 * _UINT|_SINT|_SFLOAT, every component the same width. */
static int parse_format_word(tok t, cvm_amber_type *o)
{
    char buf[64];
    if (t.n >= sizeof(buf))
        return 0;
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    char *us = strchr(buf, '_');
    if (!us)
        return 0;
    *us = 0;
    const char *kind = us + 1;
    static const char comps[] = "RGBA";
    unsigned bits = 0, count = 0;
    const char *p = buf;
    while (*p) {
        if (count >= 4 || *p != comps[count])
            return 0;
        p++;
        char *e;
        unsigned long b = strtoul(p, &e, 10);
        if (e == p || (count && b != bits))
            return 0;
        bits = (unsigned)b;
        count++;
        p = e;
    }
    cvm_amber_type ty = {CVM_AMBER_INT8, count, 1, 0, 0};
    int ok = 0;
    if (!strcmp(kind, "UINT") || !strcmp(kind, "SINT")) {
        int u = kind[0] == 'U';
        ok = 1;
        switch (bits) {
        case 8: ty.scalar = u ? CVM_AMBER_UINT8 : CVM_AMBER_INT8; break;
        case 16: ty.scalar = u ? CVM_AMBER_UINT16 : CVM_AMBER_INT16; break;
        case 32: ty.scalar = u ? CVM_AMBER_UINT32 : CVM_AMBER_INT32; break;
        case 64: ty.scalar = u ? CVM_AMBER_UINT64 : CVM_AMBER_INT64; break;
        default: ok = 0;
        }
    } else if (!strcmp(kind, "SFLOAT")) {
        ok = 1;
        switch (bits) {
        case 16: ty.scalar = CVM_AMBER_FLOAT16; break;
        case 32: ty.scalar = CVM_AMBER_FLOAT32; break;
        case 64: ty.scalar = CVM_AMBER_FLOAT64; break;
        default: ok = 0;
        }
    }
    if (ok && count >= 1) {
        *o = ty;
        return 1;
    }
    return 0;
}

/* A Vulkan format name coopvm knows and does not hold in buffers: the
 * normalized, scaled, sRGB, packed, unsigned-float and depth/stencil ones. */
static int is_image_format(tok t)
{
    static const char *const kinds[] = {"_UNORM", "_SNORM", "_USCALED", "_SSCALED", "_SRGB",
                                        "_UFLOAT", "_PACK", "D16_", "D24_", "D32_", "S8_",
                                        "X8_"};
    char buf[64];
    if (t.n >= sizeof(buf))
        return 0;
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(kinds); i++)
        if (strstr(buf, kinds[i]))
            return 1;
    return 0;
}

/* Paths ------------------------------------------------------------------ */

static char *resolve_path(const cvm_amber_script *s, tok t)
{
    size_t dl = strlen(s->dir);
    int absolute = t.n > 0 && t.s[0] == '/';
    size_t n = (absolute ? 0 : dl + 1) + t.n + 1;
    char *r = cvm_malloc(n);
    if (!r)
        return NULL;
    if (absolute)
        snprintf(r, n, "%.*s", (int)t.n, t.s);
    else
        snprintf(r, n, "%s/%.*s", s->dir, (int)t.n, t.s);
    return r;
}

/* Statements ------------------------------------------------------------- */

static cvm_result check_new_name(parser *P, tok t, const char *what, uint32_t existing_line)
{
    if (existing_line)
        return error_at(P, CVM_ERROR_SYNTAX, t.line, t.col,
                        "%s '%.*s' is already declared (line %u)", what, (int)t.n, t.s,
                        existing_line);
    return CVM_SUCCESS;
}

static cvm_result parse_requirement(parser *P, cvm_amber_requirement **arr, uint32_t *count,
                                    const char *kw)
{
    tok t;
    CVM_TRY(word(P,
                 kw[7] == 'E'   ? "an extension name"
                 : kw[7] == 'F' ? "a feature name"
                                : "a property name",
                 &t));
    cvm_amber_requirement *r = grow(arr, count, sizeof(**arr));
    if (!r || !(r->name = tok_dup(t)))
        return oom(P);
    r->line = t.line;
    return end_of_line(P, kw);
}

static cvm_result parse_shader(parser *P, tok kw)
{
    cvm_amber_script *S = P->script;
    tok t, name, fmt;
    CVM_TRY(word(P, "a shader type (compute)", &t));
    if (!is(t, "compute")) {
        static const char *graphics[] = {"vertex", "fragment", "geometry", "tessellation_evaluation",
                                         "tessellation_control", "multi", "ray_generation",
                                         "any_hit", "closest_hit", "miss", "intersection",
                                         "callable"};
        for (size_t i = 0; i < CVM_ARRAY_SIZE(graphics); i++)
            if (is(t, graphics[i]))
                return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                                "%s shaders are not supported: coopvm runs compute only",
                                graphics[i]);
        return expected(P, t, "shader type 'compute'");
    }
    CVM_TRY(word(P, "a shader name", &name));
    {
        char nm[256];
        snprintf(nm, sizeof(nm), "%.*s", (int)name.n, name.s);
        uint32_t prev = find_shader(S, nm);
        CVM_TRY(check_new_name(P, name, "shader", prev == UINT32_MAX ? 0 : S->shaders[prev].line));
    }
    CVM_TRY(word(P, "a shader format (SPIRV-BIN, SPIRV-ASM, SPIRV-HEX, GLSL)", &fmt));
    cvm_amber_shader_format format;
    if (is(fmt, "SPIRV-BIN"))
        format = CVM_AMBER_SPIRV_BIN;
    else if (is(fmt, "SPIRV-ASM"))
        format = CVM_AMBER_SPIRV_ASM;
    else if (is(fmt, "SPIRV-HEX"))
        format = CVM_AMBER_SPIRV_HEX;
    else if (is(fmt, "GLSL"))
        format = CVM_AMBER_GLSL; /* compiled when the session loads it (amber_glsl.c) */
    else if (is(fmt, "HLSL") || is(fmt, "OPENCL-C"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, fmt.line, fmt.col,
                        "%.*s shaders need a compiler coopvm does not use (dxc, clspv): give "
                        "GLSL, SPIRV-ASM or SPIRV-BIN",
                        (int)fmt.n, fmt.s);
    else if (is(fmt, "PASSTHROUGH"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, fmt.line, fmt.col,
                        "PASSTHROUGH is a vertex shader: coopvm runs compute only");
    else
        return expected(P, fmt, "a shader format (SPIRV-BIN, SPIRV-ASM, SPIRV-HEX, GLSL)");

    cvm_amber_shader *sh = grow(&S->shaders, &S->shader_count, sizeof(*sh));
    if (!sh || !(sh->name = tok_dup(name)))
        return oom(P);
    sh->format = format;
    sh->line = kw.line;

    t = next(P);
    if (is(t, "TARGET_ENV")) {
        tok env;
        CVM_TRY(word(P, "a target environment (e.g. vulkan1.3)", &env));
        if (!(sh->target_env = tok_dup(env)))
            return oom(P);
        t = next(P);
    }
    if (is(t, "VIRTUAL_FILE"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "VIRTUAL_FILE shader sources are not supported");
    if (is(t, "FILE")) {
        tok path;
        CVM_TRY(word(P, "a file path", &path));
        if (is(path, "BINARY") || is(path, "TEXT"))
            CVM_TRY(word(P, "a file path", &path));
        if (!(sh->path = resolve_path(S, path)))
            return oom(P);
        return end_of_line(P, "the shader file");
    }
    if (format == CVM_AMBER_SPIRV_BIN)
        return expected(P, t, "FILE (a SPIRV-BIN shader is read from a file)");
    if (t.kind != TOK_EOL)
        return expected(P, t, "FILE, TARGET_ENV or end of line (then the shader text and END)");
    /* Inline body: raw lines up to a line that is just END. */
    const char *body = P->p;
    uint32_t body_line = P->line;
    for (;;) {
        if (P->p >= P->end)
            return error_at(P, CVM_ERROR_SYNTAX, P->line, 1,
                            "expected END closing the shader '%s' started at line %u, got end "
                            "of file",
                            sh->name, kw.line);
        const char *ls = P->p, *le = memchr(ls, '\n', (size_t)(P->end - ls));
        if (!le)
            le = P->end;
        const char *a = ls, *b = le;
        while (a < b && cvm_amber_in_set(*a, " \t\r"))
            a++;
        while (b > a && cvm_amber_in_set(b[-1], " \t\r"))
            b--;
        if (b - a == 3 && !memcmp(a, "END", 3)) {
            sh->text_length = (size_t)(ls - body);
            sh->text = cvm_malloc(sh->text_length + 1);
            if (!sh->text)
                return oom(P);
            memcpy(sh->text, body, sh->text_length);
            sh->text[sh->text_length] = 0;
            sh->text_line = body_line;
            P->p = le < P->end ? le + 1 : le;
            P->line++;
            P->line_start = P->p;
            return CVM_SUCCESS;
        }
        P->p = le < P->end ? le + 1 : le;
        P->line++;
        P->line_start = P->p;
    }
}

/* Fills `count` value slots of buffer `b` from tokens until END (DATA). */
static cvm_result parse_data_values(parser *P, cvm_amber_buffer *b, tok start)
{
    uint32_t scalar = cvm_amber_scalar_size(b->type.scalar);
    uint32_t per = b->type.rows * b->type.columns;
    size_t cap = 0, nvalues = 0;
    unsigned char *vals = NULL; /* packed scalars, converted to layout at the end */
    cvm_result r = CVM_SUCCESS;
    for (;;) {
        tok t = next(P);
        if (t.kind == TOK_EOL)
            continue;
        if (t.kind == TOK_EOF) {
            r = error_at(P, CVM_ERROR_SYNTAX, t.line, t.col,
                         "expected END closing the DATA of line %u, got end of file", start.line);
            goto fail;
        }
        if (is(t, "END"))
            break;
        if (nvalues == cap) {
            cap = cap ? cap * 2 : 64;
            unsigned char *n = cvm_realloc(vals, cap * scalar);
            if (!n) {
                r = oom(P);
                goto fail;
            }
            vals = n;
        }
        r = parse_value(P, t, b->type.scalar, vals + nvalues * scalar, NULL);
        if (r)
            goto fail;
        nvalues++;
    }
    if (nvalues % per) {
        r = error_at(P, CVM_ERROR_SYNTAX, start.line, start.col,
                     "DATA has %zu values, not a multiple of the %u of one element", nvalues,
                     per);
        goto fail;
    }
    if (b->elements && b->elements * per != nvalues) {
        r = error_at(P, CVM_ERROR_SYNTAX, start.line, start.col,
                     "DATA has %zu values but SIZE %llu needs %llu", nvalues,
                     (unsigned long long)b->elements,
                     (unsigned long long)(b->elements * per));
        goto fail;
    }
    b->elements = nvalues / per;
    b->size = (size_t)b->elements * cvm_amber_type_stride(b->type);
    b->data = cvm_calloc(b->size ? b->size : 1, 1);
    if (!b->data) {
        r = oom(P);
        goto fail;
    }
    for (size_t i = 0; i < nvalues; i++)
        memcpy(b->data + cvm_amber_value_offset(b->type, i), vals + i * scalar, scalar);
fail:
    cvm_mem_free(vals);
    return r;
}

/* A BUFFER of SIZE elements, zeroed.  The parser allocates every buffer
 * whole, so the buffers of SIZE hold CVM_AMBER_MAX_BUFFER_BYTES in all at
 * most (a fuzzed SIZE of 2^40 mat4 elements asked calloc for 2 TiB). */
static cvm_result alloc_sized(parser *P, cvm_amber_buffer *b)
{
    uint64_t stride = cvm_amber_type_stride(b->type), left = CVM_AMBER_MAX_BUFFER_BYTES - P->buffer_bytes;
    if (stride && b->elements > left / stride)
        return error_at(P, CVM_ERROR_UNSUPPORTED, b->line, 1,
                        "BUFFER %s: %llu elements of %llu bytes: more than the %llu bytes "
                        "coopvm gives a script's buffers in all",
                        b->name ? b->name : "", (unsigned long long)b->elements,
                        (unsigned long long)stride, (unsigned long long)CVM_AMBER_MAX_BUFFER_BYTES);
    P->buffer_bytes += b->elements * stride;
    b->size = (size_t)b->elements * cvm_amber_type_stride(b->type);
    b->data = cvm_calloc(b->size ? b->size : 1, 1);
    return b->data ? CVM_SUCCESS : oom(P);
}

static cvm_result parse_buffer(parser *P, tok kw)
{
    cvm_amber_script *S = P->script;
    tok name, t;
    CVM_TRY(word(P, "a buffer name", &name));
    {
        char nm[256];
        snprintf(nm, sizeof(nm), "%.*s", (int)name.n, name.s);
        uint32_t prev = cvm_amber_find_buffer(S, nm);
        CVM_TRY(check_new_name(P, name, "buffer", prev == UINT32_MAX ? 0 : S->buffers[prev].line));
    }
    cvm_amber_buffer *b = grow(&S->buffers, &S->buffer_count, sizeof(*b));
    if (!b || !(b->name = tok_dup(name)))
        return oom(P);
    b->line = kw.line;
    int format_form = 0;
    t = next(P);
    if (is(t, "DATA_TYPE")) {
        tok ty;
        CVM_TRY(word(P, "a data type", &ty));
        if (!parse_type_word(ty, &b->type))
            return expected(P, ty, "a data type (int8..int64, uint8..uint64, float16, float, "
                                   "double, vecN<type>, matCxR<type>)");
    } else if (is(t, "FORMAT")) {
        tok f;
        format_form = 1;
        CVM_TRY(word(P, "a format", &f));
        if (!parse_format_word(f, &b->type)) {
            if (is_image_format(f))
                return error_at(P, CVM_ERROR_UNSUPPORTED, f.line, f.col,
                                "buffer format %.*s is not supported: coopvm's buffers hold "
                                "UINT, SINT and SFLOAT components (no normalized, sRGB, "
                                "packed or depth/stencil formats)",
                                (int)f.n, f.s);
            return expected(P, f, "a buffer format such as R32_SFLOAT or R32G32B32A32_UINT");
        }
    } else {
        return expected(P, t, "DATA_TYPE or FORMAT");
    }
    t = next(P);
    if (is(t, "STD430")) {
        t = next(P);
    } else if (is(t, "STD140")) {
        b->type.std140 = 1;
        t = next(P);
    }
    if (is(t, "MIP_LEVELS") || is(t, "SAMPLES") || is(t, "WIDTH") || is(t, "HEIGHT"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "%.*s is an image setting: image buffers are not supported", (int)t.n,
                        t.s);
    if (format_form && (t.kind == TOK_EOL || t.kind == TOK_EOF))
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "a BUFFER without SIZE or DATA is an attachment of a graphics "
                        "pipeline, which coopvm does not run");
    if (is(t, "DATA"))
        return parse_data_values(P, b, t);
    if (!is(t, "SIZE"))
        return expected(P, t, "SIZE or DATA");
    {
        tok n = next(P);
        uint64_t v;
        if (!tok_u64(n, &v) || v > ((uint64_t)1 << 40))
            return expected(P, n, "a size in elements");
        b->elements = v;
    }
    t = next(P);
    if (is(t, "FILL")) {
        tok v;
        CVM_TRY(word(P, "a fill value", &v));
        CVM_TRY(alloc_sized(P, b));
        uint64_t count = b->elements * b->type.rows * b->type.columns;
        unsigned char one[8];
        CVM_TRY(parse_value(P, v, b->type.scalar, one, NULL));
        uint32_t sz = cvm_amber_scalar_size(b->type.scalar);
        for (uint64_t i = 0; i < count; i++)
            memcpy(b->data + cvm_amber_value_offset(b->type, i), one, sz);
        return end_of_line(P, "FILL");
    }
    if (is(t, "SERIES_FROM")) {
        tok a, inc;
        value va, vi;
        CVM_TRY(word(P, "a start value", &a));
        CVM_TRY(parse_value(P, a, b->type.scalar, NULL, &va));
        CVM_TRY(keyword(P, "INC_BY"));
        CVM_TRY(word(P, "an increment", &inc));
        /* the increment may be negative for unsigned buffers' sake only as a
         * signed number; parse it in the signed or float type of the width */
        cvm_amber_scalar inc_type = b->type.scalar;
        if (!scalar_is_float(inc_type) && !scalar_is_signed(inc_type))
            inc_type = CVM_AMBER_INT64;
        CVM_TRY(parse_value(P, inc, inc_type, NULL, &vi));
        CVM_TRY(alloc_sized(P, b));
        uint64_t count = b->elements * b->type.rows * b->type.columns;
        uint32_t sz = cvm_amber_scalar_size(b->type.scalar);
        for (uint64_t i = 0; i < count; i++) {
            unsigned char *dst = b->data + cvm_amber_value_offset(b->type, i);
            if (scalar_is_float(b->type.scalar)) {
                double d = va.d + (double)i * vi.d;
                if (b->type.scalar == CVM_AMBER_FLOAT16) {
                    uint16_t h = half_from_double(d);
                    memcpy(dst, &h, 2);
                } else if (b->type.scalar == CVM_AMBER_FLOAT32) {
                    float f = (float)d;
                    memcpy(dst, &f, 4);
                } else {
                    memcpy(dst, &d, 8);
                }
            } else {
                /* integers wrap in their width, as amber's series does */
                uint64_t x = (uint64_t)va.i + (uint64_t)i * (uint64_t)vi.i;
                memcpy(dst, &x, sz);
            }
        }
        return end_of_line(P, "SERIES_FROM");
    }
    if (is(t, "FILE")) {
        tok path;
        b->init = CVM_AMBER_INIT_FILE_BINARY;
        CVM_TRY(word(P, "a file path", &path));
        if (is(path, "BINARY")) {
            CVM_TRY(word(P, "a file path", &path));
        } else if (is(path, "TEXT")) {
            b->init = CVM_AMBER_INIT_FILE_TEXT;
            CVM_TRY(word(P, "a file path", &path));
        } else if (is(path, "PNG")) {
            return error_at(P, CVM_ERROR_UNSUPPORTED, path.line, path.col,
                            "PNG buffer files are not supported");
        }
        if (!(b->path = resolve_path(S, path)))
            return oom(P);
        b->size = (size_t)b->elements * cvm_amber_type_stride(b->type);
        return end_of_line(P, "the buffer file");
    }
    return expected(P, t, "FILL, SERIES_FROM or FILE after SIZE");
}

static cvm_result lookup_buffer(parser *P, tok t, uint32_t *o)
{
    char nm[256];
    snprintf(nm, sizeof(nm), "%.*s", (int)t.n, t.s);
    *o = cvm_amber_find_buffer(P->script, nm);
    if (*o == UINT32_MAX)
        return error_at(P, CVM_ERROR_NOT_FOUND, t.line, t.col, "no buffer named '%s'", nm);
    return CVM_SUCCESS;
}

static cvm_result parse_attach(parser *P, cvm_amber_pipeline *pl)
{
    cvm_amber_script *S = P->script;
    tok name = next(P);
    if (name.kind != TOK_WORD)
        return expected(P, name, "a shader name");
    char nm[256];
    snprintf(nm, sizeof(nm), "%.*s", (int)name.n, name.s);
    uint32_t sh = find_shader(S, nm);
    if (sh == UINT32_MAX)
        return error_at(P, CVM_ERROR_NOT_FOUND, name.line, name.col, "no shader named '%s'", nm);
    if (pl->shader != UINT32_MAX && pl->shader != sh)
        return error_at(P, CVM_ERROR_SYNTAX, name.line, name.col,
                        "a compute pipeline has one shader: '%s' is already attached",
                        S->shaders[pl->shader].name);
    pl->shader = sh;
    for (;;) {
        tok t = next(P);
        if (t.kind == TOK_EOL || t.kind == TOK_EOF)
            return CVM_SUCCESS;
        if (is(t, "TYPE")) {
            tok ty;
            CVM_TRY(word(P, "a shader type", &ty));
            if (!is(ty, "compute"))
                return expected(P, ty, "'compute'");
        } else if (is(t, "ENTRY_POINT")) {
            tok e;
            CVM_TRY(word(P, "an entry point name", &e));
            cvm_mem_free(pl->entry_point);
            if (!(pl->entry_point = tok_dup(e)))
                return oom(P);
        } else if (is(t, "SPECIALIZE")) {
            uint32_t id = 0;
            tok ty, v;
            CVM_TRY(parse_u32(P, "a specialization constant id", &id));
            CVM_TRY(keyword(P, "AS"));
            CVM_TRY(word(P, "a type", &ty));
            cvm_amber_type at;
            if (!parse_type_word(ty, &at) || at.rows != 1 || at.columns != 1)
                return expected(P, ty, "a scalar type (uint32, int32, float, ...)");
            CVM_TRY(word(P, "a value", &v));
            unsigned char bytes[8] = {0};
            CVM_TRY(parse_value(P, v, at.scalar, bytes, NULL));
            cvm_amber_spec *sp = NULL;
            for (uint32_t i = 0; i < pl->spec_count; i++)
                if (pl->specs[i].constant_id == id)
                    sp = &pl->specs[i];
            if (!sp && !(sp = grow(&pl->specs, &pl->spec_count, sizeof(*sp))))
                return oom(P);
            sp->constant_id = id;
            sp->type = at.scalar;
            sp->size = cvm_amber_scalar_size(at.scalar) == 8 ? 8 : 4;
            uint64_t bits = 0;
            memcpy(&bits, bytes, 8);
            /* narrower integers travel in 4 bytes: sign-extend the signed ones
             * as a 32-bit value would hold them */
            if (scalar_is_signed(at.scalar) && cvm_amber_scalar_size(at.scalar) < 4) {
                int64_t x;
                value vv;
                CVM_TRY(parse_value(P, v, at.scalar, NULL, &vv));
                x = vv.i;
                bits = (uint32_t)(int32_t)x;
            }
            sp->bits = bits;
        } else {
            return expected(P, t, "TYPE, ENTRY_POINT, SPECIALIZE or end of line");
        }
    }
}

static cvm_result parse_subgroup(parser *P, cvm_amber_pipeline *pl, tok kw)
{
    tok name;
    CVM_TRY(word(P, "a shader name", &name));
    if (pl->shader == UINT32_MAX || !is(name, P->script->shaders[pl->shader].name))
        return error_at(P, CVM_ERROR_NOT_FOUND, name.line, name.col,
                        "SUBGROUP names '%.*s', which is not the attached shader", (int)name.n,
                        name.s);
    CVM_TRY(end_of_line(P, "SUBGROUP shader"));
    for (;;) {
        tok t = next(P);
        if (t.kind == TOK_EOL)
            continue;
        if (is(t, "END"))
            return end_of_line(P, "END");
        if (is(t, "REQUIRED_SIZE")) {
            tok v = next(P);
            if (is(v, "MIN") || is(v, "MAX"))
                return error_at(P, CVM_ERROR_UNSUPPORTED, v.line, v.col,
                                "REQUIRED_SIZE %.*s: give the size as a number", (int)v.n, v.s);
            uint64_t n;
            if (!tok_u64(v, &n) || n == 0 || n > 128 || (n & (n - 1)))
                return expected(P, v, "a subgroup size (a power of two, 1..128)");
            pl->subgroup_size = (uint32_t)n;
            pl->subgroup_line = v.line;
            CVM_TRY(end_of_line(P, "REQUIRED_SIZE"));
        } else if (is(t, "FULLY_POPULATED") || is(t, "VARYING_SIZE")) {
            /* coopvm's subgroups are always full and of one size: both
             * settings are already satisfied */
            tok v = next(P);
            if (!is(v, "on") && !is(v, "off") && !is(v, "true") && !is(v, "false"))
                return expected(P, v, "on, off, true or false");
            CVM_TRY(end_of_line(P, "the setting"));
        } else if (t.kind == TOK_EOF) {
            return error_at(P, CVM_ERROR_SYNTAX, t.line, t.col,
                            "expected END closing SUBGROUP of line %u, got end of file",
                            kw.line);
        } else {
            return expected(P, t, "REQUIRED_SIZE, FULLY_POPULATED, VARYING_SIZE or END");
        }
    }
}

/* Adds a binding, or replaces the one at the same place; `*o_b` (may be
 * NULL) is the record. */
static cvm_result add_binding(parser *P, cvm_amber_pipeline *pl, tok at, uint32_t buffer,
                              cvm_amber_bind_kind kind, uint32_t set, uint32_t binding,
                              uint32_t element, cvm_amber_binding **o_b)
{
    for (uint32_t i = 0; i < pl->binding_count && kind != CVM_AMBER_BIND_DEVICE_ADDRESS; i++) {
        cvm_amber_binding *o = &pl->bindings[i];
        if (kind == CVM_AMBER_BIND_PUSH_CONSTANT && o->kind == kind)
            return error_at(P, CVM_ERROR_SYNTAX, at.line, at.col,
                            "the pipeline already has a push_constant buffer (line %u)",
                            o->line);
        if (kind != CVM_AMBER_BIND_PUSH_CONSTANT && o->kind != CVM_AMBER_BIND_PUSH_CONSTANT &&
            o->kind != CVM_AMBER_BIND_DEVICE_ADDRESS && o->set == set && o->binding == binding && o->array_element == element) {
            /* a later BIND replaces the earlier (DERIVE_PIPELINE relies on it) */
            o->buffer = buffer;
            o->kind = kind;
            o->offset = 0;
            o->descriptor_offset = 0;
            o->descriptor_range = UINT64_MAX;
            o->line = at.line;
            if (o_b)
                *o_b = o;
            return CVM_SUCCESS;
        }
    }
    cvm_amber_binding *b = grow(&pl->bindings, &pl->binding_count, sizeof(*b));
    if (!b)
        return oom(P);
    b->buffer = buffer;
    b->kind = kind;
    b->set = set;
    b->binding = binding;
    b->array_element = element;
    b->descriptor_range = UINT64_MAX;
    b->line = at.line;
    if (o_b)
        *o_b = b;
    return CVM_SUCCESS;
}

/* `n` unsigned numbers after a keyword (OFFSET, DESCRIPTOR_OFFSET,
 * DESCRIPTOR_RANGE): one per buffer of the BIND.  A DESCRIPTOR_RANGE of -1
 * is VK_WHOLE_SIZE (UINT64_MAX). */
static cvm_result parse_bind_numbers(parser *P, tok kw, uint32_t n, int allow_whole,
                                     uint64_t *o)
{
    for (uint32_t i = 0; i < n; i++) {
        tok v = next(P);
        uint64_t x;
        if (allow_whole && is(v, "-1")) {
            o[i] = UINT64_MAX;
            continue;
        }
        if (!tok_u64(v, &x)) {
            char what[96];
            snprintf(what, sizeof(what), "%u values after %.*s (one per buffer)", n,
                     (int)kw.n, kw.s);
            return expected(P, v, what);
        }
        o[i] = x;
    }
    return CVM_SUCCESS;
}

static cvm_result parse_bind(parser *P, cvm_amber_pipeline *pl, tok kw)
{
    tok t = next(P);
    uint32_t bufs[64];
    uint32_t nbufs = 0;
    if (is(t, "BUFFER")) {
        tok n;
        CVM_TRY(word(P, "a buffer name", &n));
        CVM_TRY(lookup_buffer(P, n, &bufs[nbufs++]));
    } else if (is(t, "BUFFER_ARRAY")) {
        for (;;) {
            tok n = peek(P);
            if (n.kind != TOK_WORD || is(n, "AS"))
                break;
            next(P);
            if (nbufs == CVM_ARRAY_SIZE(bufs))
                return error_at(P, CVM_ERROR_LIMIT, n.line, n.col, "more than %zu buffers",
                                CVM_ARRAY_SIZE(bufs));
            CVM_TRY(lookup_buffer(P, n, &bufs[nbufs++]));
        }
        if (nbufs == 0)
            return expected(P, peek(P), "buffer names");
    } else if (is(t, "SAMPLER") || is(t, "SAMPLER_ARRAY")) {
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col, "samplers are not supported");
    } else if (is(t, "ACCELERATION_STRUCTURE")) {
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "acceleration structures are not supported");
    } else {
        return expected(P, t, "BUFFER or BUFFER_ARRAY");
    }
    t = next(P);
    if (is(t, "KERNEL"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "KERNEL arguments are for OpenCL C shaders, which coopvm does not "
                        "compile");
    if (!is(t, "AS"))
        return expected(P, t, "'AS'");
    tok kind;
    CVM_TRY(word(P, "a buffer type (storage, uniform, push_constant)", &kind));
    cvm_amber_bind_kind k;
    int dynamic = 0;
    if (is(kind, "storage"))
        k = CVM_AMBER_BIND_STORAGE;
    else if (is(kind, "uniform"))
        k = CVM_AMBER_BIND_UNIFORM;
    else if (is(kind, "storage_dynamic"))
        k = CVM_AMBER_BIND_STORAGE, dynamic = 1;
    else if (is(kind, "uniform_dynamic"))
        k = CVM_AMBER_BIND_UNIFORM, dynamic = 1;
    else if (is(kind, "push_constant"))
        k = CVM_AMBER_BIND_PUSH_CONSTANT;
    else if (is(kind, "device_address"))
        k = CVM_AMBER_BIND_DEVICE_ADDRESS;
    else if (is(kind, "storage_image") || is(kind, "sampled_image") ||
             is(kind, "combined_image_sampler") || is(kind, "uniform_texel_buffer") ||
             is(kind, "storage_texel_buffer"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, kind.line, kind.col,
                        "descriptor type %.*s is not supported: coopvm has no images or texel "
                        "buffers",
                        (int)kind.n, kind.s);
    else if (is(kind, "color") || is(kind, "depth_stencil") || is(kind, "resolve"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, kind.line, kind.col,
                        "%.*s attachments belong to graphics pipelines: coopvm runs compute "
                        "only",
                        (int)kind.n, kind.s);
    else
        return expected(P, kind, "storage, uniform, storage_dynamic, uniform_dynamic, "
                                 "push_constant or device_address");
    if (k == CVM_AMBER_BIND_DEVICE_ADDRESS) {
        tok n;
        uint32_t target;
        uint64_t offset;
        if (nbufs != 1)
            return error_at(P, CVM_ERROR_SYNTAX, kind.line, kind.col,
                            "device_address takes one buffer");
        CVM_TRY(keyword(P, "IN"));
        CVM_TRY(word(P, "the name of the buffer the address goes into", &n));
        CVM_TRY(lookup_buffer(P, n, &target));
        CVM_TRY(keyword(P, "OFFSET"));
        tok ot = next(P);
        if (!tok_u64(ot, &offset))
            return expected(P, ot, "a byte offset");
        cvm_amber_binding *b = NULL;
        CVM_TRY(add_binding(P, pl, kw, bufs[0], k, 0, 0, 0, &b));
        b->target = target;
        b->offset = offset;
        return end_of_line(P, "OFFSET");
    }
    if (k == CVM_AMBER_BIND_PUSH_CONSTANT) {
        if (nbufs != 1)
            return error_at(P, CVM_ERROR_SYNTAX, kind.line, kind.col,
                            "push_constant takes one buffer");
        CVM_TRY(add_binding(P, pl, kw, bufs[0], k, 0, 0, 0, NULL));
        return end_of_line(P, "push_constant");
    }
    uint32_t set, binding;
    CVM_TRY(keyword(P, "DESCRIPTOR_SET"));
    CVM_TRY(parse_u32(P, "a descriptor set number", &set));
    CVM_TRY(keyword(P, "BINDING"));
    CVM_TRY(parse_u32(P, "a binding number", &binding));
    uint64_t dyn[64] = {0}, doff[64] = {0}, drange[64];
    for (uint32_t i = 0; i < nbufs; i++)
        drange[i] = UINT64_MAX;
    int have_dyn = 0;
    for (;;) {
        tok o = next(P);
        if (o.kind == TOK_EOL || o.kind == TOK_EOF)
            break;
        if (is(o, "OFFSET") && dynamic) {
            CVM_TRY(parse_bind_numbers(P, o, nbufs, 0, dyn));
            have_dyn = 1;
        } else if (is(o, "DESCRIPTOR_OFFSET")) {
            CVM_TRY(parse_bind_numbers(P, o, nbufs, 0, doff));
        } else if (is(o, "DESCRIPTOR_RANGE")) {
            CVM_TRY(parse_bind_numbers(P, o, nbufs, 1, drange));
        } else if (is(o, "BASE_MIP_LEVEL")) {
            return error_at(P, CVM_ERROR_UNSUPPORTED, o.line, o.col,
                            "BASE_MIP_LEVEL is an image setting: images are not supported");
        } else {
            return expected(P, o, dynamic ? "OFFSET, DESCRIPTOR_OFFSET, DESCRIPTOR_RANGE or "
                                            "end of line"
                                          : "DESCRIPTOR_OFFSET, DESCRIPTOR_RANGE or end of "
                                            "line");
        }
    }
    if (dynamic && !have_dyn)
        return error_at(P, CVM_ERROR_SYNTAX, kind.line, kind.col,
                        "%.*s needs OFFSET (the dynamic offset)", (int)kind.n, kind.s);
    for (uint32_t i = 0; i < nbufs; i++) {
        cvm_amber_binding *b = NULL;
        CVM_TRY(add_binding(P, pl, kw, bufs[i], k, set, binding, i, &b));
        b->offset = dyn[i];
        b->descriptor_offset = doff[i];
        b->descriptor_range = drange[i];
    }
    return CVM_SUCCESS;
}

static cvm_result skip_block(parser *P, tok kw)
{
    /* COMPILE_OPTIONS / SHADER_OPTIMIZATION: options for a compiler or
     * optimiser coopvm does not run; the module's meaning is unchanged. */
    for (;;) {
        tok t = next(P);
        if (is(t, "END"))
            return end_of_line(P, "END");
        if (t.kind == TOK_EOF)
            return error_at(P, CVM_ERROR_SYNTAX, t.line, t.col,
                            "expected END closing %.*s of line %u, got end of file", (int)kw.n,
                            kw.s, kw.line);
    }
}

static cvm_result parse_pipeline_body(parser *P, cvm_amber_pipeline *pl, tok start)
{
    for (;;) {
        tok t = next(P);
        if (t.kind == TOK_EOL)
            continue;
        if (t.kind == TOK_EOF)
            return error_at(P, CVM_ERROR_SYNTAX, t.line, t.col,
                            "expected END closing PIPELINE '%s' of line %u, got end of file",
                            pl->name, start.line);
        if (is(t, "END")) {
            if (pl->shader == UINT32_MAX)
                return error_at(P, CVM_ERROR_SYNTAX, t.line, t.col,
                                "expected ATTACH before END: pipeline '%s' has no shader",
                                pl->name);
            return end_of_line(P, "END");
        }
        if (is(t, "ATTACH"))
            CVM_TRY(parse_attach(P, pl));
        else if (is(t, "SUBGROUP"))
            CVM_TRY(parse_subgroup(P, pl, t));
        else if (is(t, "BIND"))
            CVM_TRY(parse_bind(P, pl, t));
        else if (is(t, "COMPILE_OPTIONS") || is(t, "SHADER_OPTIMIZATION"))
            CVM_TRY(skip_block(P, t));
        else if (is(t, "FRAMEBUFFER_SIZE") || is(t, "VERTEX_DATA") || is(t, "INDEX_DATA") ||
                 is(t, "POLYGON_MODE") || is(t, "VIEWPORT") || is(t, "PATCH_CONTROL_POINTS") ||
                 is(t, "DEPTH") || is(t, "STENCIL") || is(t, "BLEND") ||
                 is(t, "SHADER_GROUP") || is(t, "SHADER_BINDING_TABLE") || is(t, "FLAGS") ||
                 is(t, "USE_LIBRARY") || is(t, "MAX_RAY_PAYLOAD_SIZE") ||
                 is(t, "MAX_RAY_HIT_ATTRIBUTE_SIZE") || is(t, "MAX_RAY_RECURSION_DEPTH"))
            return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                            "%.*s is a graphics or ray tracing setting: coopvm runs compute "
                            "only",
                            (int)t.n, t.s);
        else if (is(t, "SET"))
            return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                            "SET KERNEL arguments are for OpenCL C shaders, which coopvm does "
                            "not compile");
        else
            return expected(P, t, "ATTACH, SUBGROUP, BIND, COMPILE_OPTIONS or END");
    }
}

static cvm_result new_pipeline(parser *P, tok name, cvm_amber_pipeline **o)
{
    cvm_amber_script *S = P->script;
    char nm[256];
    snprintf(nm, sizeof(nm), "%.*s", (int)name.n, name.s);
    uint32_t prev = cvm_amber_find_pipeline(S, nm);
    CVM_TRY(check_new_name(P, name, "pipeline", prev == UINT32_MAX ? 0 : S->pipelines[prev].line));
    cvm_amber_pipeline *pl = grow(&S->pipelines, &S->pipeline_count, sizeof(*pl));
    if (!pl || !(pl->name = tok_dup(name)))
        return oom(P);
    pl->shader = UINT32_MAX;
    pl->line = name.line;
    *o = pl;
    return CVM_SUCCESS;
}

static cvm_result parse_pipeline(parser *P, tok kw)
{
    tok t, name;
    CVM_TRY(word(P, "a pipeline type (compute)", &t));
    if (is(t, "graphics"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "graphics pipelines are not supported: coopvm runs compute only");
    if (!is(t, "compute"))
        return expected(P, t, "pipeline type 'compute'");
    CVM_TRY(word(P, "a pipeline name", &name));
    CVM_TRY(end_of_line(P, "the pipeline name"));
    cvm_amber_pipeline *pl = NULL;
    CVM_TRY(new_pipeline(P, name, &pl));
    return parse_pipeline_body(P, pl, kw);
}

static cvm_result parse_derive(parser *P, tok kw)
{
    cvm_amber_script *S = P->script;
    tok name, from;
    CVM_TRY(word(P, "a pipeline name", &name));
    CVM_TRY(keyword(P, "FROM"));
    CVM_TRY(word(P, "the pipeline to derive from", &from));
    char nm[256];
    snprintf(nm, sizeof(nm), "%.*s", (int)from.n, from.s);
    uint32_t src = cvm_amber_find_pipeline(S, nm);
    if (src == UINT32_MAX)
        return error_at(P, CVM_ERROR_NOT_FOUND, from.line, from.col, "no pipeline named '%s'",
                        nm);
    CVM_TRY(end_of_line(P, "DERIVE_PIPELINE"));
    cvm_amber_pipeline *pl = NULL;
    CVM_TRY(new_pipeline(P, name, &pl)); /* may move S->pipelines */
    const cvm_amber_pipeline *base = &S->pipelines[src];
    pl->shader = base->shader;
    pl->subgroup_size = base->subgroup_size;
    pl->subgroup_line = base->subgroup_line;
    if (base->entry_point && !(pl->entry_point = cvm_strdup(base->entry_point)))
        return oom(P);
    if (base->spec_count) {
        if (!(pl->specs = cvm_malloc(base->spec_count * sizeof(*pl->specs))))
            return oom(P);
        memcpy(pl->specs, base->specs, base->spec_count * sizeof(*pl->specs));
        pl->spec_count = base->spec_count;
    }
    if (base->binding_count) {
        if (!(pl->bindings = cvm_malloc(base->binding_count * sizeof(*pl->bindings))))
            return oom(P);
        memcpy(pl->bindings, base->bindings, base->binding_count * sizeof(*pl->bindings));
        pl->binding_count = base->binding_count;
    }
    return parse_pipeline_body(P, pl, kw);
}

static cvm_result new_command(parser *P, cvm_amber_command_kind kind, tok kw,
                              cvm_amber_command **o)
{
    cvm_amber_script *S = P->script;
    cvm_amber_command *c = grow(&S->commands, &S->command_count, sizeof(*c));
    if (!c)
        return oom(P);
    c->kind = kind;
    c->line = kw.line;
    *o = c;
    return CVM_SUCCESS;
}

/* The statement text: from its keyword to the end of its last word. */
static cvm_result set_text(parser *P, cvm_amber_command *c, tok kw)
{
    size_t n = (size_t)(P->last_end - kw.s);
    if (!(c->text = cvm_malloc(n + 1)))
        return oom(P);
    memcpy(c->text, kw.s, n);
    c->text[n] = 0;
    return CVM_SUCCESS;
}

static cvm_result parse_run(parser *P, tok kw)
{
    tok name;
    CVM_TRY(word(P, "a pipeline name", &name));
    if (is(name, "TIMED_EXECUTION"))
        CVM_TRY(word(P, "a pipeline name", &name));
    char nm[256];
    snprintf(nm, sizeof(nm), "%.*s", (int)name.n, name.s);
    uint32_t pl = cvm_amber_find_pipeline(P->script, nm);
    if (pl == UINT32_MAX)
        return error_at(P, CVM_ERROR_NOT_FOUND, name.line, name.col, "no pipeline named '%s'",
                        nm);
    uint32_t g[3];
    for (int i = 0; i < 3; i++) {
        tok t = peek(P);
        uint64_t v;
        if (!tok_u64(t, &v) || v == 0 || v > UINT32_MAX)
            return expected(P, t, i == 0 ? "the workgroup count X (RUN pipeline X Y Z)"
                                  : i == 1 ? "the workgroup count Y"
                                           : "the workgroup count Z");
        next(P);
        g[i] = (uint32_t)v;
    }
    cvm_amber_command *c = NULL;
    CVM_TRY(new_command(P, CVM_AMBER_CMD_RUN, kw, &c));
    c->pipeline = pl;
    memcpy(c->groups, g, sizeof(g));
    CVM_TRY(set_text(P, c, kw));
    P->script->run_count++;
    return end_of_line(P, "RUN");
}

static cvm_result parse_copy(parser *P, tok kw)
{
    tok a, b;
    uint32_t ia, ib;
    CVM_TRY(word(P, "a buffer name", &a));
    CVM_TRY(lookup_buffer(P, a, &ia));
    CVM_TRY(keyword(P, "TO"));
    CVM_TRY(word(P, "a buffer name", &b));
    CVM_TRY(lookup_buffer(P, b, &ib));
    cvm_amber_command *c = NULL;
    CVM_TRY(new_command(P, CVM_AMBER_CMD_COPY, kw, &c));
    c->buffer = ia;
    c->other = ib;
    CVM_TRY(set_text(P, c, kw));
    return end_of_line(P, "COPY");
}

static int compare_word(tok t, cvm_amber_compare *o)
{
    static const char *names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    for (int i = 0; i < 6; i++)
        if (is(t, names[i])) {
            *o = (cvm_amber_compare)i;
            return 1;
        }
    return 0;
}

static cvm_result parse_expect(parser *P, tok kw)
{
    tok name, t;
    uint32_t buf;
    CVM_TRY(word(P, "a buffer name", &name));
    CVM_TRY(lookup_buffer(P, name, &buf));
    cvm_amber_command *c = NULL;
    CVM_TRY(new_command(P, CVM_AMBER_CMD_EXPECT, kw, &c));
    c->buffer = buf;
    P->script->expect_count++;
    t = next(P);
    if (is(t, "EQ_BUFFER") || is(t, "RMSE_BUFFER")) {
        int rmse = is(t, "RMSE_BUFFER");
        tok o;
        CVM_TRY(word(P, "the buffer to compare with", &o));
        CVM_TRY(lookup_buffer(P, o, &c->other));
        c->expect = rmse ? CVM_AMBER_EXPECT_RMSE_BUFFER : CVM_AMBER_EXPECT_EQ_BUFFER;
        if (rmse) {
            tok v;
            double d;
            CVM_TRY(keyword(P, "TOLERANCE"));
            v = next(P);
            if (!tok_double(v, &d) || !(d >= 0))
                return expected(P, v, "a tolerance (a number >= 0)");
            c->tolerance = (float)d;
        }
        CVM_TRY(set_text(P, c, kw));
        return end_of_line(P, rmse ? "the tolerance" : "EQ_BUFFER");
    }
    if (is(t, "EQ_HISTOGRAM_EMD_BUFFER"))
        return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                        "EQ_HISTOGRAM_EMD_BUFFER is not supported");
    if (!is(t, "IDX"))
        return expected(P, t, "IDX, EQ_BUFFER or RMSE_BUFFER");
    c->expect = CVM_AMBER_EXPECT_IDX;
    const cvm_amber_buffer *b = &P->script->buffers[buf];
    c->value_type = b->type;
    {
        tok o = next(P);
        uint64_t off;
        if (!tok_u64(o, &off))
            return expected(P, o, "a byte offset");
        uint64_t y;
        if (tok_u64(peek(P), &y))
            return error_at(P, CVM_ERROR_UNSUPPORTED, o.line, o.col,
                            "EXPECT IDX x y SIZE w h probes an image: images are not "
                            "supported");
        if (off % cvm_amber_scalar_size(b->type.scalar))
            return error_at(P, CVM_ERROR_SYNTAX, o.line, o.col,
                            "IDX %llu is a byte offset and must be a multiple of %u, the size of "
                            "%s",
                            (unsigned long long)off, cvm_amber_scalar_size(b->type.scalar),
                            cvm_amber_scalar_name(b->type.scalar));
        c->offset = off;
    }
    t = next(P);
    if (is(t, "TOLERANCE")) {
        for (;;) {
            tok v = peek(P);
            if (v.kind != TOK_WORD || compare_word(v, &c->compare))
                break;
            next(P);
            if (c->tolerance_count == 4)
                return expected(P, v, "EQ after at most 4 tolerances");
            int pct = v.n > 1 && v.s[v.n - 1] == '%';
            tok num = v;
            if (pct)
                num.n--;
            double d;
            if (!tok_double(num, &d) || !(d >= 0))
                return expected(P, v, "a tolerance (a number >= 0, optionally with %)");
            c->tolerances[c->tolerance_count] = d;
            c->tolerance_percent[c->tolerance_count] = pct;
            c->tolerance_count++;
        }
        if (c->tolerance_count == 0)
            return expected(P, peek(P), "a tolerance");
        t = next(P);
        if (!is(t, "EQ"))
            return expected(P, t, "EQ (a TOLERANCE only goes with EQ)");
    }
    if (!compare_word(t, &c->compare))
        return expected(P, t, "a comparator (EQ, NE, LT, LE, GT, GE) or TOLERANCE");
    uint32_t cap = 0;
    for (;;) {
        tok v = peek(P);
        if (v.kind != TOK_WORD)
            break;
        next(P);
        if (c->value_count == cap) {
            cap = cap ? cap * 2 : 16;
            double *nd = cvm_realloc(c->values, cap * sizeof(double));
            if (!nd)
                return oom(P);
            c->values = nd;
            int64_t *ni = cvm_realloc(c->ivalues, cap * sizeof(int64_t));
            if (!ni)
                return oom(P);
            c->ivalues = ni;
        }
        value val;
        CVM_TRY(parse_value_as(P, v, b->type.scalar, 1, NULL, &val));
        c->values[c->value_count] = val.d;
        c->ivalues[c->value_count] = val.i;
        c->value_count++;
    }
    if (c->value_count == 0)
        return expected(P, peek(P), "values to compare");
    CVM_TRY(set_text(P, c, kw));
    return end_of_line(P, "the values");
}

static cvm_result parse_set(parser *P, tok kw)
{
    tok t, n;
    CVM_TRY(keyword(P, "ENGINE_DATA"));
    CVM_TRY(word(P, "an engine setting", &t));
    if (!is(t, "fence_timeout_ms"))
        return expected(P, t, "fence_timeout_ms");
    CVM_TRY(word(P, "a number", &n));
    uint64_t v;
    if (!tok_u64(n, &v))
        return expected(P, n, "a number of milliseconds");
    (void)kw;
    return end_of_line(P, "fence_timeout_ms");
}

static cvm_result parse_statements(parser *P)
{
    for (;;) {
        tok t = next(P);
        if (t.kind == TOK_EOF)
            return CVM_SUCCESS;
        if (t.kind == TOK_EOL)
            continue;
        if (is(t, "DEVICE_EXTENSION"))
            CVM_TRY(parse_requirement(P, &P->script->extensions, &P->script->extension_count,
                                      "DEVICE_EXTENSION"));
        else if (is(t, "DEVICE_FEATURE"))
            CVM_TRY(parse_requirement(P, &P->script->features, &P->script->feature_count,
                                      "DEVICE_FEATURE"));
        else if (is(t, "DEVICE_PROPERTY"))
            CVM_TRY(parse_requirement(P, &P->script->properties, &P->script->property_count,
                                      "DEVICE_PROPERTY"));
        else if (is(t, "INSTANCE_EXTENSION")) {
            tok n;
            CVM_TRY(word(P, "an extension name", &n));
            CVM_TRY(end_of_line(P, "INSTANCE_EXTENSION"));
        } else if (is(t, "SET"))
            CVM_TRY(parse_set(P, t));
        else if (is(t, "SHADER"))
            CVM_TRY(parse_shader(P, t));
        else if (is(t, "BUFFER"))
            CVM_TRY(parse_buffer(P, t));
        else if (is(t, "PIPELINE"))
            CVM_TRY(parse_pipeline(P, t));
        else if (is(t, "DERIVE_PIPELINE"))
            CVM_TRY(parse_derive(P, t));
        else if (is(t, "RUN"))
            CVM_TRY(parse_run(P, t));
        else if (is(t, "EXPECT"))
            CVM_TRY(parse_expect(P, t));
        else if (is(t, "COPY"))
            CVM_TRY(parse_copy(P, t));
        else if (is(t, "IMAGE") || is(t, "SAMPLER") || is(t, "CLEAR") || is(t, "CLEAR_COLOR") ||
                 is(t, "CLEAR_DEPTH") || is(t, "CLEAR_STENCIL") || is(t, "VIRTUAL_FILE") ||
                 is(t, "REPEAT") || is(t, "DEBUG") || is(t, "STRUCT") ||
                 is(t, "ACCELERATION_STRUCTURE"))
            return error_at(P, CVM_ERROR_UNSUPPORTED, t.line, t.col,
                            "%.*s is not supported by coopvm's AmberScript subset", (int)t.n,
                            t.s);
        else
            return expected(P, t,
                            "a command (SHADER, BUFFER, PIPELINE, RUN, EXPECT, COPY, "
                            "DEVICE_EXTENSION, DEVICE_FEATURE)");
    }
}

cvm_result cvm_amber_parse(const char *text, size_t length, const char *path,
                           cvm_amber_script **o_script, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!text || !o_script)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL text or output");
    *o_script = NULL;
    cvm_amber_script *S = cvm_calloc(1, sizeof(*S));
    if (!S)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    S->path = cvm_strdup(path ? path : "<script>");
    if (path && strrchr(path, '/')) {
        size_t n = (size_t)(strrchr(path, '/') - path);
        S->dir = cvm_malloc(n + 2);
        if (S->dir)
            snprintf(S->dir, n + 2, "%.*s", (int)(n ? n : 1), n ? path : "/");
    } else {
        S->dir = cvm_strdup(".");
    }
    if (!S->path || !S->dir) {
        cvm_amber_script_destroy(S);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    parser P;
    memset(&P, 0, sizeof(P));
    P.text = P.p = P.line_start = text;
    P.end = text + length;
    P.line = 1;
    P.script = S;
    P.diag = o_diag;
    cvm_result r;
    if (length < 7 || memcmp(text, "#!amber", 7) ||
        (length > 7 && !cvm_amber_in_set(text[7], " \t\r\n"))) {
        /* google/amber: what is not AmberScript is VkScript */
        S->vkscript = 1;
        r = cvm_amber_parse_vkscript(text, length, S, o_diag);
    } else {
        r = parse_statements(&P);
    }
    if (r != CVM_SUCCESS) {
        cvm_amber_script_destroy(S);
        return r;
    }
    *o_script = S;
    return CVM_SUCCESS;
}

cvm_result cvm_amber_parse_file(const char *path, cvm_amber_script **o_script,
                                cvm_diagnostic *o_diag)
{
    void *data;
    size_t size;
    cvm_diag_clear(o_diag);
    if (!path || !o_script)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL path or output");
    cvm_result r = cvm_read_file(path, &data, &size, o_diag);
    if (r != CVM_SUCCESS) {
        if (o_diag)
            snprintf(o_diag->file, sizeof(o_diag->file), "%s", path);
        return r;
    }
    r = cvm_amber_parse(data, size, path, o_script, o_diag);
    cvm_mem_free(data);
    return r;
}
