/* VkScript parser: google/amber's older script format (a clone of
 * VkRunner's), compute subset, into the same cvm_amber_script the
 * AmberScript parser makes (amber.h describes the forms).  Reads no file.
 *
 * A script is a sequence of sections, each opened by a line that starts
 * with `[`: [require], [compute shader] (GLSL), [compute shader spirv]
 * (SPIR-V assembly), [compute shader spirv hex], [test], [comment].  Lines
 * before the first section may only be blank or `#` comments.  Shader
 * sections are taken verbatim; in the others `#` starts a comment and a `\`
 * at the end of a line joins the next one to it.
 *
 * How VkScript maps onto the script record:
 *   - every binding the [test] names gets a buffer of its own, named
 *     "ssbo S:B" or "ubo S:B", zero-filled, of the size google/amber gives
 *     it: the largest of `ssbo B SIZE` elements of the buffer's format (the
 *     type of the first subdata, ubo write or probe naming it; bytes until
 *     then) and the extent of every write;
 *   - push constants (`uniform TYPE OFFSET v...`) live in a buffer "push";
 *   - `ssbo subdata`, `uniform ubo` and `uniform` are WRITE commands, run
 *     in their place among the dispatches;
 *   - one pipeline per entry point the [test] selects (`compute entrypoint
 *     NAME`, "main" until then), all binding every buffer;
 *   - `probe ssbo` is an EXPECT IDX reading its own type at its offset;
 *     `~=` uses the tolerances of the last `tolerance` command. */
#include <stdio.h> /* snprintf only: this layer never prints */
#include <stdlib.h>
#include <string.h>

#include "amber/amber_internal.h"
#include "cvm_common.h"

/* Lines and tokens ------------------------------------------------------- */

typedef struct vk_tok {
    const char *s;
    size_t n;
    uint32_t col; /* 1-based, in its line */
} vk_tok;

#define VK_MAX_TOKENS 512

/* One logical line of a non-shader section: continuation lines joined,
 * comment stripped, split at blanks (and at commas, which VkScript's
 * tolerance command allows between numbers). */
typedef struct vk_line {
    uint32_t line; /* script line of its first physical line */
    vk_tok toks[VK_MAX_TOKENS];
    uint32_t ntoks;
    const char *text; /* where the line starts, for the statement text */
    size_t text_len;
} vk_line;

typedef struct vk_buffer_info {
    uint32_t set, binding;
    int ubo;                   /* made by `uniform ubo` (else `ssbo`) */
    uint32_t buffer;           /* index into script->buffers */
    uint64_t count;            /* `ssbo B N` elements, 0 if none */
    int has_format;
    cvm_amber_type format;     /* the buffer's format, once set */
    uint64_t extent;           /* largest byte written */
} vk_buffer_info;

typedef struct vk_parser {
    cvm_amber_script *script;
    cvm_diagnostic *diag;
    vk_buffer_info *bufs;
    uint32_t nbufs;
    uint32_t push;             /* buffer index of "push", UINT32_MAX until used */
    uint64_t push_extent;
    uint32_t shader;           /* the compute shader, UINT32_MAX until one */
    uint32_t pipeline;         /* the current pipeline, UINT32_MAX until a compute */
    char entry[256];           /* the entry point subsequent computes use */
    double tolerances[4];
    int tolerance_percent[4];
    uint32_t tolerance_count;
} vk_parser;

static cvm_result vk_error(vk_parser *P, cvm_result r, uint32_t line, uint32_t col,
                           const char *fmt, ...) CVM_PRINTF(5, 6);
static cvm_result vk_error(vk_parser *P, cvm_result r, uint32_t line, uint32_t col,
                           const char *fmt, ...)
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

static cvm_result vk_oom(vk_parser *P, uint32_t line)
{
    return vk_error(P, CVM_ERROR_OUT_OF_MEMORY, line, 1, "out of memory");
}

static int tok_is(const vk_tok *t, const char *w)
{
    return strlen(w) == t->n && !memcmp(t->s, w, t->n);
}

static int tok_u64(const vk_tok *t, uint64_t *o)
{
    char buf[32];
    if (t->n == 0 || t->n >= sizeof(buf) || t->s[0] == '-' || t->s[0] == '+')
        return 0;
    memcpy(buf, t->s, t->n);
    buf[t->n] = 0;
    char *e;
    unsigned long long v = strtoull(buf, &e, 0);
    if (*e)
        return 0;
    *o = v;
    return 1;
}

/* Reads the logical line starting at *p (inside [p, end)), advancing *p
 * and *line past it.  Returns 0 at the end of the text. */
static int next_line(vk_parser *P, const char **p, const char *end, uint32_t *line, vk_line *o)
{
    if (*p >= end)
        return 0;
    o->line = *line;
    o->ntoks = 0;
    o->text = *p;
    o->text_len = 0;
    uint32_t col_base = 0; /* columns restart on each physical line */
    const char *line_start = *p;
    for (;;) {
        const char *le = memchr(*p, '\n', (size_t)(end - *p));
        if (!le)
            le = end;
        const char *q = *p, *stop = le;
        const char *hash = memchr(q, '#', (size_t)(stop - q));
        if (hash)
            stop = hash;
        /* a `\` as the last non-blank of the line (before any comment) joins the next */
        const char *last = stop;
        while (last > q && cvm_amber_in_set(last[-1], " \t\r"))
            last--;
        int cont = !hash && last > q && last[-1] == '\\';
        if (cont)
            stop = last - 1;
        while (q < stop) {
            while (q < stop && cvm_amber_in_set(*q, " \t\r\f\v,"))
                q++;
            if (q >= stop)
                break;
            const char *ts = q;
            while (q < stop && !cvm_amber_in_set(*q, " \t\r\f\v,"))
                q++;
            if (o->ntoks < VK_MAX_TOKENS) {
                vk_tok *t = &o->toks[o->ntoks++];
                t->s = ts;
                t->n = (size_t)(q - ts);
                t->col = (uint32_t)(ts - line_start) + 1 + col_base;
            }
        }
        if (o->ntoks && o->text_len == 0)
            o->text = o->toks[0].s;
        *p = le < end ? le + 1 : le;
        (*line)++;
        if (!cont || *p >= end) {
            if (o->ntoks) {
                const vk_tok *lt = &o->toks[o->ntoks - 1];
                o->text_len = (size_t)(lt->s + lt->n - o->text);
            }
            break;
        }
        line_start = *p;
        col_base = 0;
    }
    (void)P;
    return 1;
}

/* Data types ------------------------------------------------------------- */

/* google/amber's VkScript type names: int, uint, int8_t..uint64_t, float,
 * double, [i|u|d|i8|u8|i16|u16|i64|u64|f16]vec[2-4] (vec alone: 4),
 * [d]matC[xR] (matC: CxC). */
static int datum_type(const vk_tok *t, cvm_amber_type *o)
{
    static const struct {
        const char *name;
        cvm_amber_scalar s;
    } scalars[] = {
        {"int", CVM_AMBER_INT32},      {"uint", CVM_AMBER_UINT32},
        {"int8_t", CVM_AMBER_INT8},    {"uint8_t", CVM_AMBER_UINT8},
        {"int16_t", CVM_AMBER_INT16},  {"uint16_t", CVM_AMBER_UINT16},
        {"int64_t", CVM_AMBER_INT64},  {"uint64_t", CVM_AMBER_UINT64},
        {"float", CVM_AMBER_FLOAT32},  {"double", CVM_AMBER_FLOAT64},
        {"float16_t", CVM_AMBER_FLOAT16},
    };
    static const struct {
        const char *prefix;
        cvm_amber_scalar s;
    } prefixes[] = {
        {"", CVM_AMBER_FLOAT32},    {"d", CVM_AMBER_FLOAT64},  {"f16", CVM_AMBER_FLOAT16},
        {"i", CVM_AMBER_INT32},     {"u", CVM_AMBER_UINT32},   {"i8", CVM_AMBER_INT8},
        {"u8", CVM_AMBER_UINT8},    {"i16", CVM_AMBER_INT16},  {"u16", CVM_AMBER_UINT16},
        {"i64", CVM_AMBER_INT64},   {"u64", CVM_AMBER_UINT64},
    };
    cvm_amber_type ty = {CVM_AMBER_INT32, 1, 1, 0, 0};
    char w[32];
    if (t->n >= sizeof(w))
        return 0;
    memcpy(w, t->s, t->n);
    w[t->n] = 0;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(scalars); i++)
        if (!strcmp(w, scalars[i].name)) {
            ty.scalar = scalars[i].s;
            *o = ty;
            return 1;
        }
    const char *v = strstr(w, "vec");
    if (v) {
        size_t pl = (size_t)(v - w);
        const char *tail = v + 3;
        for (size_t i = 0; i < CVM_ARRAY_SIZE(prefixes); i++) {
            if (strlen(prefixes[i].prefix) != pl || memcmp(w, prefixes[i].prefix, pl))
                continue;
            ty.scalar = prefixes[i].s;
            ty.rows = 4;
            if (*tail) {
                if (tail[1] || tail[0] < '2' || tail[0] > '4')
                    return 0;
                ty.rows = (uint32_t)(tail[0] - '0');
            }
            *o = ty;
            return 1;
        }
        return 0;
    }
    const char *m = strstr(w, "mat");
    if (m && (m == w || (m == w + 1 && w[0] == 'd'))) {
        const char *tail = m + 3;
        ty.scalar = m == w ? CVM_AMBER_FLOAT32 : CVM_AMBER_FLOAT64;
        if (tail[0] < '2' || tail[0] > '4')
            return 0;
        ty.columns = ty.rows = (uint32_t)(tail[0] - '0');
        if (tail[1]) {
            if (tail[1] != 'x' || tail[2] < '2' || tail[2] > '4' || tail[3])
                return 0;
            ty.rows = (uint32_t)(tail[2] - '0');
        }
        *o = ty;
        return 1;
    }
    return 0;
}

/* Values `first..ntoks` of line L as type `ty`, laid out from byte 0 of
 * `*o_data` (`*o_size` bytes: whole elements); also as numbers for EXPECTs
 * when `o_values` is given. */
static cvm_result parse_values(vk_parser *P, const vk_line *L, uint32_t first, cvm_amber_type ty,
                               unsigned char **o_data, size_t *o_size, double **o_values,
                               int64_t **o_ivalues, uint32_t *o_count)
{
    uint32_t n = first < L->ntoks ? L->ntoks - first : 0, per = ty.rows * ty.columns;
    if (n == 0 || n % per)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, n ? L->toks[first].col : 1,
                        "expected values, a non-zero multiple of the %u of one %s element "
                        "(got %u)",
                        per, cvm_amber_scalar_name(ty.scalar), n);
    size_t size = (size_t)(n / per) * cvm_amber_type_stride(ty);
    unsigned char *data = cvm_calloc(size ? size : 1, 1);
    double *d = o_values ? cvm_malloc(n * sizeof(double)) : NULL;
    int64_t *iv = o_values ? cvm_malloc(n * sizeof(int64_t)) : NULL;
    if (!data || (o_values && (!d || !iv))) {
        cvm_mem_free(data);
        cvm_mem_free(d);
        cvm_mem_free(iv);
        return vk_oom(P, L->line);
    }
    for (uint32_t k = 0; k < n; k++) {
        const vk_tok *t = &L->toks[first + k];
        double dv;
        int64_t ivv;
        if (!cvm_amber_number(t->s, t->n, ty.scalar, o_values != NULL,
                              data + cvm_amber_value_offset(ty, k), &dv, &ivv)) {
            char what[64];
            cvm_mem_free(data);
            cvm_mem_free(d);
            cvm_mem_free(iv);
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col, "expected %s, got '%.*s'",
                            cvm_amber_number_expectation(ty.scalar, what, sizeof(what)),
                            (int)CVM_MIN(t->n, (size_t)60), t->s);
        }
        if (d) {
            d[k] = dv;
            iv[k] = ivv;
        }
    }
    *o_data = data;
    *o_size = size;
    if (o_values) {
        *o_values = d;
        *o_ivalues = iv;
        *o_count = n;
    }
    return CVM_SUCCESS;
}

/* Buffers ---------------------------------------------------------------- */

/* `B` or `S:B` at token i (`S` `:B` may also be two tokens, as google/amber's
 * tokenizer splits them); advances *i past it. */
static cvm_result parse_binding(vk_parser *P, const vk_line *L, uint32_t *i, uint32_t *o_set,
                                uint32_t *o_binding)
{
    if (*i >= L->ntoks)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, 1,
                        "expected a binding (B or SET:BINDING) at the end of the line");
    const vk_tok *t = &L->toks[*i];
    char buf[48];
    if (t->n >= sizeof(buf))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col, "expected a binding");
    memcpy(buf, t->s, t->n);
    buf[t->n] = 0;
    (*i)++;
    char *colon = strchr(buf, ':');
    if (!colon && *i < L->ntoks && L->toks[*i].s[0] == ':' &&
        strlen(buf) + L->toks[*i].n < sizeof(buf)) {
        /* "0 :1" */
        size_t l = strlen(buf);
        memcpy(buf + l, L->toks[*i].s, L->toks[*i].n);
        buf[l + L->toks[*i].n] = 0;
        colon = strchr(buf, ':');
        (*i)++;
    }
    vk_tok a = {buf, colon ? (size_t)(colon - buf) : strlen(buf), t->col};
    uint64_t set = 0, binding;
    if (colon) {
        vk_tok b = {colon + 1, strlen(colon + 1), t->col};
        if (!tok_u64(&a, &set) || !tok_u64(&b, &binding) || set > UINT32_MAX ||
            binding > UINT32_MAX)
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col,
                            "expected a binding (B or SET:BINDING), got '%s'", buf);
    } else if (!tok_u64(&a, &binding) || binding > UINT32_MAX) {
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col,
                        "expected a binding (B or SET:BINDING), got '%s'", buf);
    }
    *o_set = (uint32_t)set;
    *o_binding = (uint32_t)binding;
    return CVM_SUCCESS;
}

static cvm_result new_buffer(vk_parser *P, const char *name, uint32_t line, uint32_t *o_index)
{
    cvm_amber_script *S = P->script;
    cvm_amber_buffer *b = cvm_amber_grow(&S->buffers, &S->buffer_count, sizeof(*b));
    if (!b || !(b->name = cvm_strdup(name)))
        return vk_oom(P, line);
    b->type = (cvm_amber_type){CVM_AMBER_UINT8, 1, 1, 0, 0};
    b->init = CVM_AMBER_INIT_DATA;
    b->line = line;
    *o_index = S->buffer_count - 1;
    return CVM_SUCCESS;
}

/* The buffer of (set, binding); made when `create` (by ssbo / uniform ubo). */
static cvm_result find_binding(vk_parser *P, const vk_line *L, uint32_t set, uint32_t binding,
                               int create, int ubo, vk_buffer_info **o)
{
    for (uint32_t i = 0; i < P->nbufs; i++)
        if (P->bufs[i].set == set && P->bufs[i].binding == binding) {
            *o = &P->bufs[i];
            return CVM_SUCCESS;
        }
    if (!create)
        return vk_error(P, CVM_ERROR_NOT_FOUND, L->line, L->toks[0].col,
                        "no buffer at descriptor set %u, binding %u (an ssbo or uniform ubo "
                        "command makes one)",
                        set, binding);
    vk_buffer_info *nb = cvm_realloc(P->bufs, (P->nbufs + 1) * sizeof(*nb));
    if (!nb)
        return vk_oom(P, L->line);
    P->bufs = nb;
    vk_buffer_info *bi = &P->bufs[P->nbufs++];
    memset(bi, 0, sizeof(*bi));
    bi->set = set;
    bi->binding = binding;
    bi->ubo = ubo;
    char name[64];
    snprintf(name, sizeof(name), "%s %u:%u", ubo ? "ubo" : "ssbo", set, binding);
    CVM_TRY(new_buffer(P, name, L->line, &bi->buffer));
    *o = bi;
    return CVM_SUCCESS;
}

static cvm_result new_command(vk_parser *P, const vk_line *L, cvm_amber_command_kind kind,
                              cvm_amber_command **o)
{
    cvm_amber_script *S = P->script;
    cvm_amber_command *c = cvm_amber_grow(&S->commands, &S->command_count, sizeof(*c));
    if (!c)
        return vk_oom(P, L->line);
    c->kind = kind;
    c->line = L->line;
    c->text = cvm_malloc(L->text_len + 1);
    if (!c->text)
        return vk_oom(P, L->line);
    /* the words, one space apart (continued lines joined) */
    size_t n = 0;
    for (uint32_t i = 0; i < L->ntoks; i++) {
        if (i)
            c->text[n++] = ' ';
        memcpy(c->text + n, L->toks[i].s, L->toks[i].n);
        n += L->toks[i].n;
    }
    c->text[n] = 0;
    *o = c;
    return CVM_SUCCESS;
}

/* A WRITE of values toks[first..] of type `ty` at `offset` into buffer `b`. */
static cvm_result add_write(vk_parser *P, const vk_line *L, uint32_t first, cvm_amber_type ty,
                            uint64_t offset, uint32_t buffer, uint64_t *io_extent)
{
    unsigned char *data = NULL;
    size_t size = 0;
    CVM_TRY(parse_values(P, L, first, ty, &data, &size, NULL, NULL, NULL));
    cvm_amber_command *c = NULL;
    cvm_result r = new_command(P, L, CVM_AMBER_CMD_WRITE, &c);
    if (r != CVM_SUCCESS) {
        cvm_mem_free(data);
        return r;
    }
    c->buffer = buffer;
    c->offset = offset;
    c->data = data;
    c->data_size = size;
    if (offset + size > *io_extent)
        *io_extent = offset + size;
    return CVM_SUCCESS;
}

/* The type at token i, with its offset at i + 1 (a multiple of the type's
 * element size, as google/amber requires). */
static cvm_result type_and_offset(vk_parser *P, const vk_line *L, uint32_t i, int std140,
                                  cvm_amber_type *o_ty, uint64_t *o_offset)
{
    if (i + 1 >= L->ntoks)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[L->ntoks - 1].col,
                        "expected a type and a byte offset");
    if (!datum_type(&L->toks[i], o_ty))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[i].col,
                        "expected a data type (int, uint, float, double, int8_t.. uint64_t, "
                        "vecN, ivecN, uvecN, dvecN, matCxR...), got '%.*s'",
                        (int)CVM_MIN(L->toks[i].n, (size_t)60), L->toks[i].s);
    o_ty->std140 = (uint8_t)std140;
    if (!tok_u64(&L->toks[i + 1], o_offset) || *o_offset > ((uint64_t)1 << 40))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[i + 1].col,
                        "expected a byte offset, got '%.*s'",
                        (int)CVM_MIN(L->toks[i + 1].n, (size_t)60), L->toks[i + 1].s);
    if (*o_offset % cvm_amber_type_stride(*o_ty))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[i + 1].col,
                        "offset %llu is not a multiple of %u, the size of the data type",
                        (unsigned long long)*o_offset, cvm_amber_type_stride(*o_ty));
    return CVM_SUCCESS;
}

static void set_format(vk_buffer_info *bi, cvm_amber_type ty)
{
    if (!bi->has_format) {
        bi->format = ty;
        bi->has_format = 1;
    }
}

/* [test] commands ---------------------------------------------------------- */

static cvm_result cmd_ssbo(vk_parser *P, const vk_line *L)
{
    uint32_t i = 1, set, binding;
    vk_buffer_info *bi = NULL;
    CVM_TRY(parse_binding(P, L, &i, &set, &binding));
    CVM_TRY(find_binding(P, L, set, binding, 1, 0, &bi));
    if (i < L->ntoks && tok_is(&L->toks[i], "subdata")) {
        cvm_amber_type ty;
        uint64_t offset;
        CVM_TRY(type_and_offset(P, L, i + 1, 0, &ty, &offset));
        set_format(bi, ty);
        return add_write(P, L, i + 3, ty, offset, bi->buffer, &bi->extent);
    }
    uint64_t n;
    if (i >= L->ntoks || !tok_u64(&L->toks[i], &n) || n > ((uint64_t)1 << 32))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, i < L->ntoks ? L->toks[i].col : 1,
                        "expected a size in elements or 'subdata' after the binding");
    if (i + 1 < L->ntoks)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[i + 1].col,
                        "expected end of line after the size");
    bi->count = n;
    return CVM_SUCCESS;
}

static cvm_result cmd_uniform(vk_parser *P, const vk_line *L)
{
    if (L->ntoks >= 2 && tok_is(&L->toks[1], "ubo")) {
        uint32_t i = 2, set, binding;
        vk_buffer_info *bi = NULL;
        CVM_TRY(parse_binding(P, L, &i, &set, &binding));
        CVM_TRY(find_binding(P, L, set, binding, 1, 1, &bi));
        cvm_amber_type ty;
        uint64_t offset;
        CVM_TRY(type_and_offset(P, L, i, 1, &ty, &offset)); /* uniform is std140 */
        set_format(bi, ty);
        return add_write(P, L, i + 2, ty, offset, bi->buffer, &bi->extent);
    }
    /* push constants */
    cvm_amber_type ty;
    uint64_t offset;
    CVM_TRY(type_and_offset(P, L, 1, 0, &ty, &offset));
    if (P->push == UINT32_MAX)
        CVM_TRY(new_buffer(P, "push", L->line, &P->push));
    return add_write(P, L, 3, ty, offset, P->push, &P->push_extent);
}

static cvm_result use_pipeline(vk_parser *P, const vk_line *L)
{
    cvm_amber_script *S = P->script;
    for (uint32_t i = 0; i < S->pipeline_count; i++)
        if (!strcmp(S->pipelines[i].entry_point, P->entry)) {
            P->pipeline = i;
            return CVM_SUCCESS;
        }
    if (P->shader == UINT32_MAX)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[0].col,
                        "compute before any [compute shader] section");
    cvm_amber_pipeline *pl = cvm_amber_grow(&S->pipelines, &S->pipeline_count, sizeof(*pl));
    if (!pl)
        return vk_oom(P, L->line);
    char name[300];
    snprintf(name, sizeof(name), "compute %s", P->entry);
    pl->name = cvm_strdup(name);
    pl->entry_point = cvm_strdup(P->entry);
    if (!pl->name || !pl->entry_point)
        return vk_oom(P, L->line);
    pl->shader = P->shader;
    pl->line = L->line;
    P->pipeline = S->pipeline_count - 1;
    return CVM_SUCCESS;
}

static cvm_result cmd_compute(vk_parser *P, const vk_line *L)
{
    if (L->ntoks >= 2 && tok_is(&L->toks[1], "entrypoint")) {
        if (L->ntoks != 3)
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[1].col,
                            "expected: compute entrypoint NAME");
        const vk_tok *e = &L->toks[2];
        if (e->n >= sizeof(P->entry))
            return vk_error(P, CVM_ERROR_LIMIT, L->line, e->col, "entry point name too long");
        memcpy(P->entry, e->s, e->n);
        P->entry[e->n] = 0;
        return CVM_SUCCESS;
    }
    uint32_t g[3];
    if (L->ntoks != 4)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[0].col,
                        "expected: compute X Y Z (or compute entrypoint NAME)");
    for (int k = 0; k < 3; k++) {
        uint64_t v;
        if (!tok_u64(&L->toks[1 + k], &v) || v == 0 || v > UINT32_MAX)
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[1 + k].col,
                            "expected a workgroup count (a positive number)");
        g[k] = (uint32_t)v;
    }
    CVM_TRY(use_pipeline(P, L));
    cvm_amber_command *c = NULL;
    CVM_TRY(new_command(P, L, CVM_AMBER_CMD_RUN, &c));
    c->pipeline = P->pipeline;
    memcpy(c->groups, g, sizeof(g));
    P->script->run_count++;
    return CVM_SUCCESS;
}

static cvm_result cmd_tolerance(vk_parser *P, const vk_line *L)
{
    uint32_t n = 0;
    double t[4];
    int pct[4];
    for (uint32_t i = 1; i < L->ntoks; i++) {
        const vk_tok *tk = &L->toks[i];
        if (tok_is(tk, "%") && n > 0 && !pct[n - 1]) {
            pct[n - 1] = 1;
            continue;
        }
        char buf[64];
        size_t len = tk->n;
        int p = len > 1 && tk->s[len - 1] == '%';
        if (p)
            len--;
        char *e;
        if (n == 4 || len == 0 || len >= sizeof(buf))
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, tk->col,
                            "expected 1 or 4 tolerances (numbers, optionally with %%)");
        memcpy(buf, tk->s, len);
        buf[len] = 0;
        double v = strtod(buf, &e);
        if (*e || !(v >= 0))
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, tk->col,
                            "expected a tolerance (a number >= 0, optionally with %%), got "
                            "'%.*s'",
                            (int)CVM_MIN(tk->n, (size_t)60), tk->s);
        t[n] = v;
        pct[n] = p;
        n++;
    }
    if (n != 1 && n != 4)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[0].col,
                        "tolerance takes 1 or 4 values, got %u", n);
    memcpy(P->tolerances, t, sizeof(double) * n);
    memcpy(P->tolerance_percent, pct, sizeof(int) * n);
    P->tolerance_count = n;
    return CVM_SUCCESS;
}

static cvm_result cmd_probe(vk_parser *P, const vk_line *L)
{
    if (L->ntoks < 2 || !tok_is(&L->toks[1], "ssbo"))
        return vk_error(P, CVM_ERROR_UNSUPPORTED, L->line, L->toks[0].col,
                        "probes of the framebuffer are for graphics pipelines: coopvm runs "
                        "compute only (probe ssbo is supported)");
    cvm_amber_type ty;
    if (L->ntoks < 3 || !datum_type(&L->toks[2], &ty))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->ntoks < 3 ? 1 : L->toks[2].col,
                        "expected a data type after probe ssbo");
    uint32_t i = 3, set, binding;
    vk_buffer_info *bi = NULL;
    CVM_TRY(parse_binding(P, L, &i, &set, &binding));
    CVM_TRY(find_binding(P, L, set, binding, 0, 0, &bi));
    if (bi->ubo)
        ty.std140 = 1;
    uint64_t offset;
    if (i >= L->ntoks || !tok_u64(&L->toks[i], &offset) || offset > ((uint64_t)1 << 40))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, i < L->ntoks ? L->toks[i].col : 1,
                        "expected a byte offset");
    if (offset % cvm_amber_scalar_size(ty.scalar))
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[i].col,
                        "offset %llu is not a multiple of %u, the size of %s",
                        (unsigned long long)offset, cvm_amber_scalar_size(ty.scalar),
                        cvm_amber_scalar_name(ty.scalar));
    i++;
    static const struct {
        const char *op;
        cvm_amber_compare c;
        int fuzzy;
    } ops[] = {{"==", CVM_AMBER_EQ, 0}, {"!=", CVM_AMBER_NE, 0}, {"<", CVM_AMBER_LT, 0},
               {"<=", CVM_AMBER_LE, 0}, {">", CVM_AMBER_GT, 0},  {">=", CVM_AMBER_GE, 0},
               {"~=", CVM_AMBER_EQ, 1}};
    int found = -1;
    for (size_t k = 0; i < L->ntoks && k < CVM_ARRAY_SIZE(ops); k++)
        if (tok_is(&L->toks[i], ops[k].op))
            found = (int)k;
    if (found < 0)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, i < L->ntoks ? L->toks[i].col : 1,
                        "expected a comparator (==, !=, <, <=, >, >=, ~=)");
    i++;
    unsigned char *bytes = NULL;
    size_t size = 0;
    double *values = NULL;
    int64_t *ivalues = NULL;
    uint32_t count = 0;
    CVM_TRY(parse_values(P, L, i, ty, &bytes, &size, &values, &ivalues, &count));
    cvm_mem_free(bytes);
    cvm_amber_command *c = NULL;
    cvm_result r = new_command(P, L, CVM_AMBER_CMD_EXPECT, &c);
    if (r != CVM_SUCCESS) {
        cvm_mem_free(values);
        cvm_mem_free(ivalues);
        return r;
    }
    set_format(bi, ty);
    c->expect = CVM_AMBER_EXPECT_IDX;
    c->buffer = bi->buffer;
    c->offset = offset;
    c->value_type = ty;
    c->compare = ops[found].c;
    c->values = values;
    c->ivalues = ivalues;
    c->value_count = count;
    if (ops[found].fuzzy && P->tolerance_count) {
        memcpy(c->tolerances, P->tolerances, sizeof(c->tolerances));
        memcpy(c->tolerance_percent, P->tolerance_percent, sizeof(c->tolerance_percent));
        c->tolerance_count = P->tolerance_count;
    }
    P->script->expect_count++;
    return CVM_SUCCESS;
}

static cvm_result parse_test_line(vk_parser *P, const vk_line *L)
{
    const vk_tok *t = &L->toks[0];
    if (tok_is(t, "ssbo"))
        return cmd_ssbo(P, L);
    if (tok_is(t, "uniform"))
        return cmd_uniform(P, L);
    if (tok_is(t, "compute"))
        return cmd_compute(P, L);
    if (tok_is(t, "probe"))
        return cmd_probe(P, L);
    if (tok_is(t, "tolerance"))
        return cmd_tolerance(P, L);
    static const char *const graphics[] = {
        "clear", "draw", "relative", "patch", "vertex", "fragment", "geometry",
        "tessellation", "primitiveRestartEnable", "depthClampEnable", "rasterizerDiscardEnable",
        "depthBiasEnable", "logicOpEnable", "blendEnable", "depthTestEnable",
        "depthWriteEnable", "depthBoundsTestEnable", "stencilTestEnable", "topology",
        "polygonMode", "logicOp", "frontFace", "cullMode", "depthBiasConstantFactor",
        "depthBiasClamp", "depthBiasSlopeFactor", "lineWidth", "minDepthBounds",
        "maxDepthBounds", "srcColorBlendFactor", "dstColorBlendFactor", "srcAlphaBlendFactor",
        "dstAlphaBlendFactor", "colorBlendOp", "alphaBlendOp", "depthCompareOp",
        "front.compareOp", "back.compareOp", "front.failOp", "front.passOp",
        "front.depthFailOp", "back.failOp", "back.passOp", "back.depthFailOp",
        "front.reference", "back.reference", "colorWriteMask"};
    for (size_t i = 0; i < CVM_ARRAY_SIZE(graphics); i++)
        if (tok_is(t, graphics[i]))
            return vk_error(P, CVM_ERROR_UNSUPPORTED, L->line, t->col,
                            "'%s' is a graphics command: coopvm runs compute only", graphics[i]);
    return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col,
                    "expected a command (ssbo, uniform, compute, probe ssbo, tolerance), got "
                    "'%.*s'",
                    (int)CVM_MIN(t->n, (size_t)60), t->s);
}

/* [require] ---------------------------------------------------------------- */

static cvm_result add_requirement(vk_parser *P, cvm_amber_requirement **arr, uint32_t *count,
                                  const vk_tok *t, uint32_t line)
{
    cvm_amber_requirement *r = cvm_amber_grow(arr, count, sizeof(**arr));
    if (!r || !(r->name = cvm_malloc(t->n + 1)))
        return vk_oom(P, line);
    memcpy(r->name, t->s, t->n);
    r->name[t->n] = 0;
    r->line = line;
    return CVM_SUCCESS;
}

/* google/amber takes a name with a '.' (Struct.member) or one of
 * VkPhysicalDeviceFeatures' members as a feature, any other name of
 * letters, digits and '_' as an extension. */
static int is_core_feature(const vk_tok *t)
{
    static const char *const core[] = {
        "robustBufferAccess", "fullDrawIndexUint32", "imageCubeArray", "independentBlend",
        "geometryShader", "tessellationShader", "sampleRateShading", "dualSrcBlend", "logicOp",
        "multiDrawIndirect", "drawIndirectFirstInstance", "depthClamp", "depthBiasClamp",
        "fillModeNonSolid", "depthBounds", "wideLines", "largePoints", "alphaToOne",
        "multiViewport", "samplerAnisotropy", "textureCompressionETC2",
        "textureCompressionASTC_LDR", "textureCompressionBC", "occlusionQueryPrecise",
        "pipelineStatisticsQuery", "vertexPipelineStoresAndAtomics",
        "fragmentStoresAndAtomics", "shaderTessellationAndGeometryPointSize",
        "shaderImageGatherExtended", "shaderStorageImageExtendedFormats",
        "shaderStorageImageMultisample", "shaderStorageImageReadWithoutFormat",
        "shaderStorageImageWriteWithoutFormat", "shaderUniformBufferArrayDynamicIndexing",
        "shaderSampledImageArrayDynamicIndexing", "shaderStorageBufferArrayDynamicIndexing",
        "shaderStorageImageArrayDynamicIndexing", "shaderClipDistance", "shaderCullDistance",
        "shaderFloat64", "shaderInt64", "shaderInt16", "shaderResourceResidency",
        "shaderResourceMinLod", "sparseBinding", "sparseResidencyBuffer",
        "sparseResidencyImage2D", "sparseResidencyImage3D", "sparseResidency2Samples",
        "sparseResidency4Samples", "sparseResidency8Samples", "sparseResidency16Samples",
        "sparseResidencyAliased", "variableMultisampleRate", "inheritedQueries"};
    for (size_t i = 0; i < CVM_ARRAY_SIZE(core); i++)
        if (tok_is(t, core[i]))
            return 1;
    return memchr(t->s, '.', t->n) != NULL;
}

static cvm_result parse_require_line(vk_parser *P, const vk_line *L)
{
    cvm_amber_script *S = P->script;
    const vk_tok *t = &L->toks[0];
    if (tok_is(t, "fence_timeout")) {
        uint64_t v;
        if (L->ntoks != 2 || !tok_u64(&L->toks[1], &v))
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col,
                            "expected: fence_timeout MILLISECONDS");
        return CVM_SUCCESS;
    }
    if (tok_is(t, "framebuffer") || tok_is(t, "depthstencil") || tok_is(t, "fbsize"))
        return vk_error(P, CVM_ERROR_UNSUPPORTED, L->line, t->col,
                        "'%.*s' sets up a graphics framebuffer: coopvm runs compute only",
                        (int)t->n, t->s);
    if (L->ntoks != 1)
        return vk_error(P, CVM_ERROR_SYNTAX, L->line, L->toks[1].col,
                        "expected one feature or extension name on the line");
    if (is_core_feature(t))
        return add_requirement(P, &S->features, &S->feature_count, t, L->line);
    for (size_t k = 0; k < t->n; k++)
        if (!((t->s[k] >= 'a' && t->s[k] <= 'z') || (t->s[k] >= 'A' && t->s[k] <= 'Z') ||
              (t->s[k] >= '0' && t->s[k] <= '9') || t->s[k] == '_'))
            return vk_error(P, CVM_ERROR_SYNTAX, L->line, t->col,
                            "unknown feature or extension: '%.*s'",
                            (int)CVM_MIN(t->n, (size_t)60), t->s);
    return add_requirement(P, &S->extensions, &S->extension_count, t, L->line);
}

/* Sections ------------------------------------------------------------------ */

typedef enum vk_section {
    VK_NONE, VK_REQUIRE, VK_TEST, VK_COMMENT, VK_COMPUTE_SHADER
} vk_section;

/* Classifies a section header's name (between `[` and `]`). */
static cvm_result section_kind(vk_parser *P, const char *name, size_t n, uint32_t line,
                               vk_section *o_kind, cvm_amber_shader_format *o_fmt)
{
    char buf[96];
    if (n >= sizeof(buf))
        n = sizeof(buf) - 1;
    memcpy(buf, name, n);
    buf[n] = 0;
    *o_fmt = CVM_AMBER_GLSL;
    size_t l = strlen(buf);
    if (l > 10 && !strcmp(buf + l - 10, " spirv hex")) {
        *o_fmt = CVM_AMBER_SPIRV_HEX;
        buf[l - 10] = 0;
    } else if (l > 6 && !strcmp(buf + l - 6, " spirv")) {
        *o_fmt = CVM_AMBER_SPIRV_ASM;
        buf[l - 6] = 0;
    } else if (l > 12 && !strcmp(buf + l - 12, " passthrough")) {
        buf[l - 12] = 0;
    }
    if (!strcmp(buf, "require"))
        *o_kind = VK_REQUIRE;
    else if (!strcmp(buf, "test"))
        *o_kind = VK_TEST;
    else if (!strcmp(buf, "comment"))
        *o_kind = VK_COMMENT;
    else if (!strcmp(buf, "compute shader"))
        *o_kind = VK_COMPUTE_SHADER;
    else if (!strcmp(buf, "vertex shader") || !strcmp(buf, "fragment shader") ||
             !strcmp(buf, "geometry shader") || !strcmp(buf, "tessellation control shader") ||
             !strcmp(buf, "tessellation evaluation shader") || !strcmp(buf, "vertex data") ||
             !strcmp(buf, "indices"))
        return vk_error(P, CVM_ERROR_UNSUPPORTED, line, 2,
                        "[%s] belongs to a graphics pipeline: coopvm runs compute only", buf);
    else
        return vk_error(P, CVM_ERROR_SYNTAX, line, 2, "unknown section [%s]", buf);
    return CVM_SUCCESS;
}

static cvm_result add_shader(vk_parser *P, cvm_amber_shader_format fmt, const char *body,
                             size_t n, uint32_t header_line)
{
    cvm_amber_script *S = P->script;
    if (P->shader != UINT32_MAX)
        return vk_error(P, CVM_ERROR_SYNTAX, header_line, 1,
                        "a second [compute shader] section (the first is at line %u)",
                        S->shaders[P->shader].line);
    cvm_amber_shader *sh = cvm_amber_grow(&S->shaders, &S->shader_count, sizeof(*sh));
    if (!sh || !(sh->name = cvm_strdup("compute shader")) || !(sh->text = cvm_malloc(n + 1)))
        return vk_oom(P, header_line);
    memcpy(sh->text, body, n);
    sh->text[n] = 0;
    sh->text_length = n;
    sh->text_line = header_line + 1;
    sh->format = fmt;
    sh->line = header_line;
    P->shader = S->shader_count - 1;
    return CVM_SUCCESS;
}

/* Runs `fn` over the logical lines of [begin, end). */
static cvm_result each_line(vk_parser *P, const char *begin, const char *end, uint32_t line,
                            cvm_result (*fn)(vk_parser *, const vk_line *))
{
    vk_line *lp = cvm_malloc(sizeof(*lp)); /* 12 KiB of tokens: off the stack */
    if (!lp)
        return vk_oom(P, line);
    const char *p = begin;
    cvm_result r = CVM_SUCCESS;
    while (r == CVM_SUCCESS && next_line(P, &p, end, &line, lp)) {
        if (lp->ntoks == 0)
            continue;
        if (lp->ntoks == VK_MAX_TOKENS)
            r = vk_error(P, CVM_ERROR_LIMIT, lp->line, 1, "more than %d words on one line",
                         VK_MAX_TOKENS - 1);
        else
            r = fn(P, lp);
    }
    cvm_mem_free(lp);
    return r;
}

/* Sizes the buffers and binds every one to every pipeline (google/amber's
 * single VkScript pipeline has them all). */
/* A script's buffers and push constants hold CVM_AMBER_MAX_BUFFER_BYTES in
 * all, as AmberScript's SIZE buffers do: each is allocated whole here, and
 * an ssbo's count or a write's offset (up to 2^40) would otherwise ask for
 * gigabytes (three `ssbo 0:N 4000000000` lines took 23 GB and a minute). */
static cvm_result within_total(vk_parser *P, const cvm_amber_buffer *b, uint64_t size,
                               uint64_t *io_total)
{
    if (size > CVM_AMBER_MAX_BUFFER_BYTES - *io_total)
        return vk_error(P, CVM_ERROR_UNSUPPORTED, b->line, 1,
                        "buffer %s: %llu bytes, with the %llu before it more than the %llu bytes "
                        "coopvm gives a script's buffers in all",
                        b->name, (unsigned long long)size, (unsigned long long)*io_total,
                        (unsigned long long)CVM_AMBER_MAX_BUFFER_BYTES);
    *io_total += size;
    return CVM_SUCCESS;
}

static cvm_result finish(vk_parser *P)
{
    cvm_amber_script *S = P->script;
    uint64_t total = 0;
    for (uint32_t i = 0; i < P->nbufs; i++) {
        vk_buffer_info *bi = &P->bufs[i];
        cvm_amber_buffer *b = &S->buffers[bi->buffer];
        uint64_t elem = bi->has_format ? cvm_amber_type_stride(bi->format) : 1;
        uint64_t size = CVM_MAX(bi->count * elem, bi->extent);
        if (size > ((uint64_t)1 << 32))
            return vk_error(P, CVM_ERROR_LIMIT, b->line, 1, "buffer %s of %llu bytes", b->name,
                            (unsigned long long)size);
        CVM_TRY(within_total(P, b, size, &total));
        b->elements = size;
        b->size = (size_t)size;
        if (!(b->data = cvm_calloc(size ? size : 1, 1)))
            return vk_oom(P, b->line);
    }
    if (P->push != UINT32_MAX) {
        cvm_amber_buffer *b = &S->buffers[P->push];
        CVM_TRY(within_total(P, b, P->push_extent, &total));
        b->elements = P->push_extent;
        b->size = (size_t)P->push_extent;
        if (!(b->data = cvm_calloc(b->size ? b->size : 1, 1)))
            return vk_oom(P, b->line);
    }
    for (uint32_t k = 0; k < S->pipeline_count; k++) {
        cvm_amber_pipeline *pl = &S->pipelines[k];
        uint32_t n = P->nbufs + (P->push != UINT32_MAX);
        pl->bindings = cvm_calloc(n ? n : 1, sizeof(*pl->bindings));
        if (!pl->bindings)
            return vk_oom(P, pl->line);
        for (uint32_t i = 0; i < P->nbufs; i++) {
            cvm_amber_binding *bd = &pl->bindings[pl->binding_count++];
            bd->buffer = P->bufs[i].buffer;
            bd->kind = P->bufs[i].ubo ? CVM_AMBER_BIND_UNIFORM : CVM_AMBER_BIND_STORAGE;
            bd->set = P->bufs[i].set;
            bd->binding = P->bufs[i].binding;
            bd->descriptor_range = UINT64_MAX;
            bd->line = S->buffers[bd->buffer].line;
        }
        if (P->push != UINT32_MAX) {
            cvm_amber_binding *bd = &pl->bindings[pl->binding_count++];
            bd->buffer = P->push;
            bd->kind = CVM_AMBER_BIND_PUSH_CONSTANT;
            bd->descriptor_range = UINT64_MAX;
            bd->line = S->buffers[P->push].line;
        }
    }
    return CVM_SUCCESS;
}

cvm_result cvm_amber_parse_vkscript(const char *text, size_t length, cvm_amber_script *S,
                                    cvm_diagnostic *o_diag)
{
    vk_parser P;
    memset(&P, 0, sizeof(P));
    P.script = S;
    P.diag = o_diag;
    P.push = P.shader = P.pipeline = UINT32_MAX;
    strcpy(P.entry, "main");
    const char *p = text, *end = text + length;
    uint32_t line = 1;
    vk_section cur = VK_NONE;
    cvm_amber_shader_format fmt = CVM_AMBER_GLSL;
    const char *body = NULL;
    uint32_t body_line = 0, header_line = 0;
    cvm_result r = CVM_SUCCESS;
    /* the sections, one header line at a time */
    for (;;) {
        const char *ls = p;
        int at_end = p >= end;
        const char *le = at_end ? end : memchr(p, '\n', (size_t)(end - p));
        if (!le)
            le = end;
        int header = !at_end && *ls == '[';
        if (at_end || header) {
            /* close the open section */
            if (cur == VK_REQUIRE)
                r = each_line(&P, body, ls, body_line, parse_require_line);
            else if (cur == VK_TEST)
                r = each_line(&P, body, ls, body_line, parse_test_line);
            else if (cur == VK_COMPUTE_SHADER)
                r = add_shader(&P, fmt, body, (size_t)(ls - body), header_line);
            if (r != CVM_SUCCESS)
                goto done;
            if (at_end)
                break;
            const char *close = memchr(ls, ']', (size_t)(le - ls));
            if (!close) {
                r = vk_error(&P, CVM_ERROR_SYNTAX, line, (uint32_t)(le - ls) + 1,
                             "expected ']' closing the section header");
                goto done;
            }
            r = section_kind(&P, ls + 1, (size_t)(close - ls - 1), line, &cur, &fmt);
            if (r != CVM_SUCCESS)
                goto done;
            header_line = line;
            body = le < end ? le + 1 : le;
            body_line = line + 1;
        } else if (cur == VK_NONE) {
            const char *q = ls;
            while (q < le && cvm_amber_in_set(*q, " \t\r"))
                q++;
            if (q < le && *q != '#') {
                r = vk_error(&P, CVM_ERROR_SYNTAX, line, (uint32_t)(q - ls) + 1,
                             "expected a section header such as [require], [compute shader "
                             "spirv] or [test] (or '#!amber' on the first line of an "
                             "AmberScript)");
                goto done;
            }
        }
        p = le < end ? le + 1 : le;
        line++;
    }
    if (P.shader == UINT32_MAX) {
        r = vk_error(&P, CVM_ERROR_SYNTAX, 1, 1,
                     "no [compute shader] section (and no '#!amber' line: VkScript assumed)");
        goto done;
    }
    r = finish(&P);
done:
    cvm_mem_free(P.bufs);
    return r;
}
