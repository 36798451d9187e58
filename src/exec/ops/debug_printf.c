/* NonSemantic.DebugPrintf: instruction 1, DebugPrintf (Format, arguments...),
 * what GLSL's debugPrintfEXT (GL_EXT_debug_printf) compiles to.
 *
 * The set's text leaves the output stream and the format to the client API.
 * coopvm follows the Khronos validation layer's DebugPrintf, the client-API
 * implementation shader authors use on GPUs: the conversions of C's printf
 * that the layer takes (d i o u x X a A e E f F g G, with the layer's %ul,
 * %lu, %lx for 64 bits), its vector form %vN<conversion> printed as a list
 * separated by ", ", %p for pointers; plus %c, %s with a string-literal
 * argument (glslang passes it as an OpString id), %lX %lo %ld %li, and C's
 * flags, width and precision, which the layer hands to snprintf as written.
 * Arguments are flattened into their scalar components first, as the layer
 * does; the reading of each value (sign extension, 32 bits unless `l`,
 * integers given to a float conversion reinterpreted as floats) is the
 * layer's and is spelled out in include/coopvm.h (cvm_printf_message).
 *
 * A message belongs to the invocation that printed it, or, inside a
 * cooperative-matrix callback, to the invocation whose context the call ran
 * in, with the matrix element the call was for (cvm_exec.cb_*).  Any other
 * instruction of the set, and every other NonSemantic.* set, does nothing
 * (NonSemantic sets "can be removed from a module without changing its
 * semantics", SPV_KHR_non_semantic_info). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/debug.h"

enum { PRINTF_INST_DEBUGPRINTF = 1 };

/* ---- the message buffer ------------------------------------------------------- */

cvm_result cvm_printf_buf_init(cvm_printf_buf *b, uint64_t limit)
{
    memset(b, 0, sizeof(*b));
    b->limit = limit;
    b->scratch = cvm_malloc(CVM_PRINTF_MAX_MESSAGE + 1);
    return b->scratch ? CVM_SUCCESS : CVM_ERROR_OUT_OF_MEMORY;
}

void cvm_printf_buf_free(cvm_printf_buf *b)
{
    if (!b)
        return;
    cvm_mem_free(b->recs);
    cvm_mem_free(b->text);
    cvm_mem_free(b->scratch);
    memset(b, 0, sizeof(*b));
}

void cvm_printf_buf_reset(cvm_printf_buf *b)
{
    b->n = 0;
    b->used = 0;
    b->dropped = 0;
    b->seq = 0;
}

static int rec_before(const cvm_printf_rec *a, const cvm_printf_rec *b)
{
    return a->inv != b->inv ? a->inv < b->inv : a->seq < b->seq;
}

void cvm_printf_buf_sort(cvm_printf_buf *b)
{
    /* insertion sort on runs: records arrive mostly ordered by seq; a
     * workgroup's invocations interleave, so sort properly when needed */
    uint32_t n = b->n;
    if (n < 2)
        return;
    int sorted = 1;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = !rec_before(&b->recs[i], &b->recs[i - 1]);
    if (sorted)
        return;
    /* merge sort through a temporary array (keys are unique: seq) */
    cvm_printf_rec *tmp = cvm_malloc((size_t)n * sizeof(*tmp));
    if (!tmp) {
        for (uint32_t i = 1; i < n; i++) { /* no memory: quadratic, in place */
            cvm_printf_rec r = b->recs[i];
            uint32_t j = i;
            while (j > 0 && rec_before(&r, &b->recs[j - 1])) {
                b->recs[j] = b->recs[j - 1];
                j--;
            }
            b->recs[j] = r;
        }
        return;
    }
    cvm_printf_rec *src = b->recs, *dst = tmp;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = CVM_MIN(lo + width, n), hi = CVM_MIN(lo + 2 * width, n);
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = rec_before(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        cvm_printf_rec *t = src;
        src = dst;
        dst = t;
    }
    if (src != b->recs)
        memcpy(b->recs, src, (size_t)n * sizeof(*tmp));
    cvm_mem_free(tmp);
}

/* Keeps the first `limit` messages in delivery order and drops the rest:
 * a message added later can only push the dropped ones further back, so
 * they would never be delivered.  Returns 0 when out of memory. */
static int buf_trim(cvm_printf_buf *b)
{
    cvm_printf_buf_sort(b);
    if (b->n <= b->limit)
        return 1;
    b->dropped += b->n - b->limit;
    b->n = (uint32_t)b->limit;
    char *t = cvm_malloc(b->text_cap ? b->text_cap : 1);
    if (!t)
        return 0;
    size_t at = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        memcpy(t + at, b->text + b->recs[i].text_off, b->recs[i].text_len);
        b->recs[i].text_off = at;
        at += b->recs[i].text_len;
    }
    cvm_mem_free(b->text);
    b->text = t;
    b->used = at;
    return 1;
}

static int buf_add(cvm_printf_buf *b, const cvm_printf_rec *r, const char *text)
{
    if (b->n >= 2 * b->limit + 1024 && !buf_trim(b))
        return 0;
    if (b->n == b->cap) {
        uint32_t nc = b->cap ? b->cap * 2 : 64;
        cvm_printf_rec *nr = cvm_realloc(b->recs, (size_t)nc * sizeof(*nr));
        if (!nr)
            return 0;
        b->recs = nr;
        b->cap = nc;
    }
    if (b->used + r->text_len > b->text_cap) {
        size_t nc = b->text_cap ? b->text_cap * 2 : 4096;
        while (nc < b->used + r->text_len)
            nc *= 2;
        char *nt = cvm_realloc(b->text, nc);
        if (!nt)
            return 0;
        b->text = nt;
        b->text_cap = nc;
    }
    cvm_printf_rec *d = &b->recs[b->n++];
    *d = *r;
    d->text_off = b->used;
    memcpy(b->text + b->used, text, r->text_len);
    b->used += r->text_len;
    return 1;
}

/* ---- formatting ------------------------------------------------------------------ */

/* An argument after flattening: one scalar component, a string or a pointer. */
typedef enum { ARG_NONE, ARG_INT, ARG_FLOAT, ARG_BOOL, ARG_POINTER, ARG_STRING } arg_kind;

typedef struct pf_arg {
    arg_kind kind;
    cvm_scalar_kind sk;
    const uint8_t *p;
    const char *str;
} pf_arg;

/* Walks the flattened arguments of one lane. */
typedef struct arg_iter {
    const cvm_exec *ex;
    const uint32_t *ids;
    uint32_t nids, lane;
    uint32_t k, comp; /* next: argument k, component comp */
} arg_iter;

static const char *string_of(const spv_module *mod, uint32_t id)
{
    spv_inst s;
    const char *text;
    if (!spv_module_def_inst(mod, id, &s) || s.opcode != SpvOpString || !spv_inst_string(&s, 2, &text))
        return NULL;
    return text;
}

static pf_arg next_arg(arg_iter *it)
{
    pf_arg a = {ARG_NONE, CVM_SK_U32, NULL, NULL};
    const cvm_program *p = it->ex->prog;
    while (it->k < it->nids) {
        uint32_t id = it->ids[it->k];
        const spv_def *d = &p->mod->defs[id];
        if (d->opcode == SpvOpString) {
            it->k++;
            a.kind = ARG_STRING;
            a.str = string_of(p->mod, id);
            if (!a.str)
                a.str = "";
            return a;
        }
        const cvm_type *t = &p->types[d->type];
        const uint8_t *v = CVM_LANE(it->ex->vals[id], it->lane);
        uint32_t n = t->tclass == CVM_TC_VECTOR ? t->count : 1;
        if (it->comp >= n) {
            it->k++;
            it->comp = 0;
            continue;
        }
        const cvm_type *st = t->tclass == CVM_TC_VECTOR ? &p->types[t->elem] : t;
        a.p = v + (size_t)it->comp * st->size;
        a.sk = (cvm_scalar_kind)st->sk;
        a.kind = st->tclass == CVM_TC_POINTER ? ARG_POINTER
                 : st->tclass == CVM_TC_BOOL  ? ARG_BOOL
                 : st->tclass == CVM_TC_FLOAT ? ARG_FLOAT
                                              : ARG_INT;
        it->comp++;
        return a;
    }
    return a;
}

/* The bits an integer conversion reads.  The layer passes every integer
 * zero-extended to 32 bits (OpBitcast to unsigned, OpUConvert), and a signed
 * conversion (d, i) of a signed 8- or 16-bit value sign-extends it again
 * (its signed_8/16 masks): so signed types sign-extend for d and i only.
 * Floats narrower than 64 bits give the bits of their value as an f32 (the
 * layer converts f16 to f32 first). */
static uint64_t int_bits(const pf_arg *a, int signed_conv)
{
    switch (a->kind) {
    case ARG_INT: {
        if (signed_conv && cvm_sk_is_signed_int(a->sk))
            return (uint64_t)cvm_load_as_s64(a->sk, a->p);
        uint64_t v = 0;
        memcpy(&v, a->p, cvm_sk_size(a->sk)); /* little-endian host: the low bytes */
        return v;
    }
    case ARG_BOOL:
        return *a->p ? 1 : 0;
    case ARG_POINTER: {
        uint64_t v;
        memcpy(&v, a->p, 8);
        return v;
    }
    case ARG_FLOAT: {
        if (a->sk == CVM_SK_F64) {
            uint64_t v;
            memcpy(&v, a->p, 8);
            return v;
        }
        float f = (float)cvm_load_as_f64(a->sk, a->p);
        uint32_t v;
        memcpy(&v, &f, 4);
        return v;
    }
    default:
        return 0;
    }
}

/* The value a float conversion prints: floats as they are; integers (and
 * bools, pointers) reinterpreted as a float of their width: 64 bits as a
 * double, anything narrower as an f32 of its zero-extended bits. */
static double float_value(const pf_arg *a)
{
    if (a->kind == ARG_FLOAT)
        return cvm_load_as_f64(a->sk, a->p);
    uint64_t bits = int_bits(a, 0);
    int wide = a->kind == ARG_POINTER || (a->kind == ARG_INT && cvm_sk_size(a->sk) == 8);
    if (wide) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, 4);
    return (double)f;
}

/* Appends to out[*len..cap). */
static void put(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len >= cap)
        return;
    size_t room = cap - *len;
    if (n > room)
        n = room;
    memcpy(out + *len, s, n);
    *len += n;
}

/* A parsed specification: %[flags][width][.precision][vN][l]conv[l]. */
typedef struct pf_spec {
    char flags[8];
    int width, precision; /* -1 when absent */
    uint32_t vec;         /* 0, or N of %vN */
    int wide;             /* l: 64-bit integer */
    int ul_hex;           /* the layer's %ul: 64 bits in hex */
    char conv;
} pf_spec;

/* Parses after the '%' at f[0]; returns the characters used, 0 if it is
 * not a specification coopvm reads. */
static size_t parse_spec(const char *f, pf_spec *s)
{
    size_t i = 0, nf = 0;
    memset(s, 0, sizeof(*s));
    s->width = s->precision = -1;
    while (f[i] && strchr("-+ #0", f[i]) && nf < sizeof(s->flags) - 1)
        s->flags[nf++] = f[i++];
    for (int digits = 0; f[i] >= '0' && f[i] <= '9'; i++, digits++) {
        if (digits == 4)
            return 0; /* widths past 9999: not read */
        s->width = (s->width < 0 ? 0 : s->width * 10) + (f[i] - '0');
    }
    if (f[i] == '.') {
        i++;
        s->precision = 0;
        for (int digits = 0; f[i] >= '0' && f[i] <= '9'; i++, digits++) {
            if (digits == 4)
                return 0;
            s->precision = s->precision * 10 + (f[i] - '0');
        }
    }
    if (f[i] == 'v') {
        i++;
        if (f[i] < '2' || f[i] > '9')
            return 0;
        s->vec = (uint32_t)(f[i++] - '0');
        if (f[i] >= '0' && f[i] <= '9') { /* long vectors: %v16f */
            s->vec = s->vec * 10 + (uint32_t)(f[i++] - '0');
            if (s->vec > 64)
                return 0;
        }
    }
    if (f[i] == 'l') {
        s->wide = 1;
        i++;
    }
    if (!f[i] || !strchr("diouxXcaAeEfFgGsp", f[i]))
        return 0;
    s->conv = f[i++];
    /* the layer's %ul (an unsigned 64-bit value it prints in hex) */
    if (!s->wide && s->conv == 'u' && f[i] == 'l') {
        s->wide = 1;
        s->ul_hex = 1;
        i++;
    }
    return i;
}

/* The C format for one value of `s`, with the length modifier `len`. */
static void c_format(const pf_spec *s, const char *len, char conv, char *o, size_t cap)
{
    char w[16] = "", pr[16] = "";
    if (s->width >= 0)
        snprintf(w, sizeof(w), "%d", s->width);
    if (s->precision >= 0)
        snprintf(pr, sizeof(pr), ".%d", s->precision);
    snprintf(o, cap, "%%%s%s%s%s%c", s->flags, w, pr, len, conv);
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif

/* One value with specification s. */
static void format_one(const pf_spec *s, const pf_arg *a, char *out, size_t cap, size_t *len)
{
    char cf[48], tmp[640];
    int n = 0;
    if (a->kind == ARG_NONE) {
        put(out, cap, len, "(missing)", 9);
        return;
    }
    switch (s->conv) {
    case 'd':
    case 'i': {
        uint64_t b = int_bits(a, 1);
        long long v = s->wide ? (long long)(int64_t)b : (long long)(int32_t)(uint32_t)b;
        c_format(s, "ll", s->conv, cf, sizeof(cf));
        n = snprintf(tmp, sizeof(tmp), cf, v);
        break;
    }
    case 'o':
    case 'u':
    case 'x':
    case 'X': {
        uint64_t b = int_bits(a, 0);
        unsigned long long v = s->wide ? (unsigned long long)b : (unsigned long long)(uint32_t)b;
        c_format(s, "ll", s->ul_hex ? 'x' : s->conv, cf, sizeof(cf));
        n = snprintf(tmp, sizeof(tmp), cf, v);
        break;
    }
    case 'c':
        c_format(s, "", 'c', cf, sizeof(cf));
        n = snprintf(tmp, sizeof(tmp), cf, (int)(unsigned char)int_bits(a, 0));
        break;
    case 's': {
        const char *str = a->kind == ARG_STRING ? a->str : "(not a string)";
        c_format(s, "", 's', cf, sizeof(cf));
        /* the string is the module's: print it through %s, so its length
         * is bounded by the message size, not by tmp */
        int need = snprintf(NULL, 0, cf, str);
        if (need > 0 && (size_t)need < sizeof(tmp)) {
            n = snprintf(tmp, sizeof(tmp), cf, str);
        } else {
            put(out, cap, len, str, strlen(str));
            return;
        }
        break;
    }
    case 'p': {
        /* as glibc prints a pointer: 0x and hex digits, (nil) for 0 */
        uint64_t b = int_bits(a, 0);
        char hex[32];
        if (b)
            snprintf(hex, sizeof(hex), "0x%" PRIx64, b);
        else
            snprintf(hex, sizeof(hex), "(nil)");
        pf_spec ps = *s;
        ps.precision = -1;
        c_format(&ps, "", 's', cf, sizeof(cf));
        n = snprintf(tmp, sizeof(tmp), cf, hex);
        break;
    }
    default: /* floats */
        c_format(s, "", s->conv, cf, sizeof(cf));
        n = snprintf(tmp, sizeof(tmp), cf, float_value(a));
        break;
    }
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(tmp)) /* widths and precisions that long: cut */
        n = (int)sizeof(tmp) - 1;
    put(out, cap, len, tmp, (size_t)n);
}

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static size_t format_message(const cvm_exec *ex, const char *fmt, const uint32_t *ids,
                             uint32_t nids, uint32_t lane, char *out, size_t cap)
{
    arg_iter it = {ex, ids, nids, lane, 0, 0};
    size_t len = 0;
    const char *f = fmt;
    while (*f) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            put(out, cap, &len, f, strlen(f));
            break;
        }
        put(out, cap, &len, f, (size_t)(pct - f));
        if (pct[1] == '%') {
            put(out, cap, &len, "%", 1);
            f = pct + 2;
            continue;
        }
        pf_spec s;
        size_t used = parse_spec(pct + 1, &s);
        if (!used) { /* not a specification: the '%' as written */
            put(out, cap, &len, "%", 1);
            f = pct + 1;
            continue;
        }
        uint32_t count = s.vec ? s.vec : 1;
        for (uint32_t c = 0; c < count; c++) {
            if (c)
                put(out, cap, &len, ", ", 2);
            pf_arg a = next_arg(&it);
            format_one(&s, &a, out, cap, &len);
        }
        f = pct + 1 + used;
    }
    out[len] = 0;
    return len;
}

size_t cvm_printf_format(const cvm_exec *ex, const cvm_insn *in, uint32_t lane, char *out,
                         size_t cap)
{
    const char *fmt = string_of(ex->prog->mod, in->a);
    if (!cap)
        return 0;
    return format_message(ex, fmt ? fmt : "", ex->prog->extra + in->extra, in->nextra, lane, out,
                          cap - 1);
}

/* ---- the instruction ------------------------------------------------------------- */

/* a = Format (OpString id); extra/nextra = the argument ids. */
static cvm_result h_debug_printf(cvm_exec *ex, const cvm_insn *in)
{
    cvm_printf_buf *b = ex->printf;
    if (!b)
        return CVM_SUCCESS;
    CVM_FOR_ACTIVE(ex, l) {
        size_t len = cvm_printf_format(ex, in, l, b->scratch, CVM_PRINTF_MAX_MESSAGE + 1);
        cvm_printf_rec r;
        r.inv = ex->cb_inv ? ex->cb_inv[l] : l;
        r.seq = b->seq++;
        r.row = ex->cb_row ? ex->cb_row[l] : UINT32_MAX;
        r.col = ex->cb_col ? ex->cb_col[l] : UINT32_MAX;
        r.caller_op = ex->cb_inv ? ex->cb_op : 0;
        r.word_off = in->word_off;
        r.text_off = 0;
        r.text_len = (uint32_t)len;
        if (!buf_add(b, &r, b->scratch))
            return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY,
                                 "out of memory for DebugPrintf messages");
    }
    return CVM_SUCCESS;
}

cvm_result cvm_lower_debug_printf(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    const cvm_program *p = cvm_lower_program(lw);
    const spv_module *mod = p->mod;
    const uint32_t *w = inst->words;
    uint32_t n = inst->word_count;
    if (inst->opcode != SpvOpExtInst || n < 5 || !mod->printf_ext || w[3] != mod->printf_ext)
        return CVM_ERROR_NOT_FOUND;
    out->spv_op = SpvOpExtInst;
    if (w[4] != PRINTF_INST_DEBUGPRINTF)
        return CVM_SUCCESS; /* not an instruction of the set's text: no effect */
    if (n < 6)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE, "DebugPrintf has no Format operand");
    /* the set's operands were not checked as ids at parse (module.c) */
    for (uint32_t i = 5; i < n; i++)
        if (w[i] == 0 || w[i] >= p->bound || !mod->defs[w[i]].off)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "DebugPrintf operand %u is not a defined id (%u)", i - 4, w[i]);
    if (mod->defs[w[5]].opcode != SpvOpString)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "DebugPrintf's Format (id %u) is not an OpString", w[5]);
    for (uint32_t i = 6; i < n; i++) {
        uint32_t id = w[i];
        if (mod->defs[id].opcode == SpvOpString)
            continue;
        const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
        const cvm_type *st = t && t->tclass == CVM_TC_VECTOR ? cvm_lower_type(lw, t->elem) : t;
        int ok = st && (st->tclass == CVM_TC_BOOL || st->tclass == CVM_TC_INT ||
                        st->tclass == CVM_TC_FLOAT ||
                        (st->tclass == CVM_TC_POINTER && t == st && st->size == 8));
        if (!ok)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "DebugPrintf argument %u (id %u) is not a scalar, a vector, a "
                                  "physical pointer or a string literal, which is what the client "
                                  "API prints",
                                  i - 5, id);
    }
    out->fn = h_debug_printf;
    out->a = w[5];
    out->nextra = n - 6;
    out->extra = cvm_lower_extra(lw, w + 6, out->nextra);
    if (out->extra == UINT32_MAX)
        return cvm_lower_fail(lw, inst, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    return CVM_SUCCESS;
}
