/* The trace of one invocation or one workgroup (cvm_debug_desc.trace_*):
 * a line per executed block and per executed instruction, for shaders that
 * go wrong without an error.
 *
 *   -- block %merge (label 31) of %main: lanes 0-15 of 64 active
 *     t.comp:14  w212 OpIAdd %sum = 7
 *     t.comp:15  w230 OpGroupNonUniformIAdd %s = 120  [active: subgroup 0 0x0000ffff]
 *     t.comp:16  w245 OpCooperativeMatrixMulAddKHR %acc = 16x16 f32 Accumulator (subgroup 0):
 *                     [0,0..3] 1 2 3 4 | [1,0..3] 5 6 7 8 ...
 *
 * A workgroup trace prints a value per lane, equal values of consecutive
 * lanes once ("lanes 0-31: 3"); an invocation trace the traced lane's.
 * Cooperative-matrix callbacks are traced as the calls made for the traced
 * invocation (every call for a workgroup trace), each value labelled with
 * its matrix element.  Values are printed after the instruction ran;
 * control flow before it transfers. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exec/debug.h"

#define TRACE_LINE_CAP 8192

cvm_result cvm_trace_init(cvm_trace *t, cvm_trace_fn fn, void *user, uint32_t lane,
                          uint64_t limit)
{
    memset(t, 0, sizeof(*t));
    t->fn = fn;
    t->user = user;
    t->lane = lane;
    t->limit = limit;
    t->cap = TRACE_LINE_CAP;
    t->buf = cvm_malloc(t->cap + 8);
    return t->buf ? CVM_SUCCESS : CVM_ERROR_OUT_OF_MEMORY;
}

void cvm_trace_free(cvm_trace *t)
{
    if (!t)
        return;
    cvm_mem_free(t->buf);
    cvm_mem_free(t->names);
}

/* The OpName of every id, in one pass over the debug section. */
static void make_names(cvm_trace *t, const spv_module *mod)
{
    if (t->names || !mod->bound)
        return;
    t->names = cvm_calloc(mod->bound, sizeof(const char *));
    if (!t->names)
        return; /* ids are printed as numbers */
    t->nnames = mod->bound;
    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    while (off < mod->globals_end && spv_next_inst(&mod->bin, &off, &in, NULL) == 1) {
        const char *s;
        if (in.opcode == SpvOpName && in.word_count >= 3 && in.words[1] < mod->bound &&
            !t->names[in.words[1]] && spv_inst_string(&in, 2, &s) && s[0])
            t->names[in.words[1]] = s;
    }
}

static void emit(cvm_trace *t, const char *s, size_t n)
{
    if (t->full)
        return;
    if (t->lines >= t->limit) {
        char note[128];
        int k = snprintf(note, sizeof(note),
                         "trace: the limit of %" PRIu64 " lines was reached; the rest is not shown",
                         t->limit);
        t->fn(t->user, note, (size_t)k);
        t->full = 1;
        return;
    }
    t->lines++;
    t->fn(t->user, s, n);
}

/* ---- a line being built --------------------------------------------------------- */

typedef struct sb {
    char *p;
    size_t len, cap;
} sb;

static void sb_add(sb *b, const char *fmt, ...) CVM_PRINTF(2, 3);
static void sb_add(sb *b, const char *fmt, ...)
{
    if (b->len >= b->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len + 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    b->len += (size_t)n;
    if (b->len >= b->cap) { /* cut: mark it */
        b->len = b->cap;
        memcpy(b->p + b->cap - 3, "...", 3);
        b->p[b->len] = 0;
    }
}

void cvm_trace_text(cvm_trace *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf, t->cap + 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    emit(t, t->buf, (size_t)n < t->cap ? (size_t)n : t->cap);
}

/* ---- values ------------------------------------------------------------------------- */

static void fmt_name(sb *b, const cvm_trace *t, uint32_t id)
{
    const char *n = t->names && id < t->nnames ? t->names[id] : NULL;
    if (n && n[0])
        sb_add(b, "%%%s", n);
    else
        sb_add(b, "%%%u", id);
}

static void fmt_scalar(sb *b, cvm_scalar_kind k, const uint8_t *p)
{
    switch (k) {
    case CVM_SK_BOOL:
        sb_add(b, "%s", *p ? "true" : "false");
        return;
    case CVM_SK_F32:
        sb_add(b, "%.9g", cvm_load_as_f64(k, p));
        return;
    case CVM_SK_F64:
        sb_add(b, "%.17g", cvm_load_as_f64(k, p));
        return;
    case CVM_SK_F16: case CVM_SK_BF16: case CVM_SK_E4M3: case CVM_SK_E5M2: case CVM_SK_E2M1:
    case CVM_SK_E2M3: case CVM_SK_E3M2: case CVM_SK_E8M0: case CVM_SK_MXINT8:
        sb_add(b, "%.6g", cvm_load_as_f64(k, p));
        return;
    default:
        if (cvm_sk_is_signed_int(k))
            sb_add(b, "%" PRId64, cvm_load_as_s64(k, p));
        else
            sb_add(b, "%" PRIu64, cvm_load_as_u64(k, p));
        return;
    }
}

/* A value of type `tid` in register layout at p (not a cooperative matrix:
 * those are per scope instance, see fmt_matrix). */
static void fmt_value(sb *b, const cvm_program *prog, uint32_t tid, const uint8_t *p, int depth)
{
    const cvm_type *t = &prog->types[tid];
    switch (t->tclass) {
    case CVM_TC_BOOL:
    case CVM_TC_INT:
    case CVM_TC_FLOAT:
        fmt_scalar(b, (cvm_scalar_kind)t->sk, p);
        return;
    case CVM_TC_VECTOR: { /* cooperative vectors too (cvm_type.coopvec) */
        const cvm_type *e = &prog->types[t->elem];
        uint32_t show = CVM_MIN(t->count, 8u);
        sb_add(b, "(");
        for (uint32_t i = 0; i < show; i++) {
            if (i)
                sb_add(b, ", ");
            fmt_scalar(b, (cvm_scalar_kind)e->sk, p + (size_t)i * e->size);
        }
        if (show < t->count)
            sb_add(b, ", ... %u components", t->count);
        sb_add(b, ")");
        return;
    }
    case CVM_TC_POINTER: {
        uint64_t a;
        memcpy(&a, p, 8);
        sb_add(b, "0x%" PRIx64 " (region %u, byte %" PRIu64 ")", a, CVM_ADDR_REGION(a),
               (uint64_t)CVM_ADDR_OFFSET(a));
        return;
    }
    case CVM_TC_MATRIX:
    case CVM_TC_ARRAY: {
        if (depth > 2) {
            sb_add(b, "[...]");
            return;
        }
        const cvm_type *e = &prog->types[t->elem];
        uint32_t a = t->align ? t->align : 1;
        uint32_t es = t->tclass == CVM_TC_MATRIX ? e->size : (e->size + a - 1) / a * a;
        uint32_t show = CVM_MIN(t->count, 4u);
        sb_add(b, "[");
        for (uint32_t i = 0; i < show; i++) {
            if (i)
                sb_add(b, ", ");
            fmt_value(b, prog, t->elem, p + (size_t)i * es, depth + 1);
        }
        if (show < t->count)
            sb_add(b, ", ... %u elements", t->count);
        sb_add(b, "]");
        return;
    }
    case CVM_TC_STRUCT: {
        if (depth > 2) {
            sb_add(b, "{...}");
            return;
        }
        uint32_t show = CVM_MIN(t->nmembers, 6u);
        sb_add(b, "{");
        for (uint32_t i = 0; i < show; i++) {
            if (i)
                sb_add(b, ", ");
            fmt_value(b, prog, t->member_types[i], p + t->member_offsets[i], depth + 1);
        }
        if (show < t->nmembers)
            sb_add(b, ", ... %u members", t->nmembers);
        sb_add(b, "}");
        return;
    }
    case CVM_TC_TENSOR_LAYOUT:
        sb_add(b, "(tensor layout)");
        return;
    case CVM_TC_TENSOR_VIEW:
        sb_add(b, "(tensor view)");
        return;
    default:
        sb_add(b, "(no value)");
        return;
    }
}

static const char *use_name(uint32_t use)
{
    return use == CVM_USE_A ? "MatrixA" : use == CVM_USE_B ? "MatrixB"
           : use == CVM_USE_NONE ? "NV" : "Accumulator";
}

/* Shape and the first rows and columns of scope instance `inst` of the
 * cooperative matrix at p. */
static void fmt_matrix(sb *b, const cvm_program *prog, const cvm_type *t, const uint8_t *p,
                       uint32_t inst)
{
    const cvm_type *e = &prog->types[t->elem];
    sb_add(b, "%ux%u %s %s (%s %u):", t->rows, t->cols, cvm_sk_name((cvm_scalar_kind)e->sk),
           use_name(t->use), t->scope == SpvScopeWorkgroup ? "workgroup" : "subgroup", inst);
    uint32_t rows = CVM_MIN(t->rows, 2u), cols = CVM_MIN(t->cols, 4u);
    for (uint32_t r = 0; r < rows; r++) {
        sb_add(b, "%s [%u,0..%u]", r ? " |" : "", r, cols - 1);
        for (uint32_t c = 0; c < cols; c++) {
            sb_add(b, " ");
            fmt_scalar(b, (cvm_scalar_kind)e->sk, p + ((size_t)r * t->cols + c) * e->size);
        }
    }
    if (t->rows > rows || t->cols > cols)
        sb_add(b, " ...");
}

/* ---- lanes ----------------------------------------------------------------------- */

int cvm_trace_selects(const cvm_exec *ex, uint32_t lane)
{
    const cvm_trace *t = ex->trace;
    if (t->lane == CVM_TRACE_WORKGROUP)
        return 1;
    return (ex->cb_inv ? ex->cb_inv[lane] : lane) == t->lane;
}

static int any_selected(const cvm_exec *ex)
{
    CVM_FOR_ACTIVE(ex, l)
        if (cvm_trace_selects(ex, l))
            return 1;
    return 0;
}

/* "lane 5" or, in a callback batch, "element (2,3)" (the call's). */
static void fmt_lane(sb *b, const cvm_exec *ex, uint32_t l)
{
    if (ex->cb_inv && ex->cb_row[l] != UINT32_MAX)
        sb_add(b, "element (%u,%u)", ex->cb_row[l], ex->cb_col[l]);
    else if (ex->cb_inv)
        sb_add(b, "call of invocation %u", ex->cb_inv[l]);
    else
        sb_add(b, "lane %u", l);
}

/* The value of id `v` (type tid) for the selected active lanes: one value
 * when one lane is traced, else runs of consecutive lanes with equal text. */
static void fmt_lanes(sb *b, const cvm_exec *ex, uint32_t v, uint32_t tid)
{
    const cvm_program *prog = ex->prog;
    const cvm_type *t = &prog->types[tid];
    cvm_val val = ex->vals[v];
    if (!val.p) {
        sb_add(b, "(no value)");
        return;
    }
    if (t->tclass == CVM_TC_COOPMAT) {
        /* per scope instance: the instances of the selected lanes */
        uint32_t last = UINT32_MAX;
        int first = 1;
        CVM_FOR_ACTIVE(ex, l) {
            if (!cvm_trace_selects(ex, l))
                continue;
            uint32_t inst = t->scope == SpvScopeWorkgroup ? 0 : l / ex->sg_size;
            if (inst == last)
                continue;
            last = inst;
            if (!first)
                sb_add(b, " ;; ");
            first = 0;
            fmt_matrix(b, prog, t, val.p + (size_t)inst * val.stride, inst);
        }
        return;
    }
    int single = ex->trace->lane != CVM_TRACE_WORKGROUP && !ex->cb_inv;
    char prev[256], cur[256];
    uint32_t run_first = UINT32_MAX, run_last = 0;
    int nruns = 0;
    prev[0] = 0;
    for (uint32_t l = 0; l <= ex->nlanes; l++) {
        int take = l < ex->nlanes && ex->active[l] && cvm_trace_selects(ex, l);
        if (take) {
            sb vb = {cur, 0, sizeof(cur) - 1};
            cur[0] = 0;
            fmt_value(&vb, prog, tid, CVM_LANE(val, l), 0);
            if (single) {
                sb_add(b, "%s", cur);
                return;
            }
            if (run_first != UINT32_MAX && run_last + 1 == l && !strcmp(cur, prev)) {
                run_last = l;
                continue;
            }
        }
        if (run_first != UINT32_MAX) { /* close the run */
            sb_add(b, "%s", nruns++ ? "; " : "");
            if (run_first == run_last) {
                fmt_lane(b, ex, run_first);
            } else if (ex->cb_inv) {
                fmt_lane(b, ex, run_first);
                sb_add(b, " to ");
                fmt_lane(b, ex, run_last);
            } else {
                sb_add(b, "lanes %u-%u", run_first, run_last);
            }
            sb_add(b, ": %s", prev);
            run_first = UINT32_MAX;
        }
        if (take) {
            run_first = run_last = l;
            memcpy(prev, cur, sizeof(cur));
        }
    }
}

/* Active lanes as ranges: "0-15,32-47". */
static void fmt_active(sb *b, const cvm_exec *ex)
{
    int any = 0;
    for (uint32_t l = 0; l < ex->nlanes; l++) {
        if (!ex->active[l])
            continue;
        uint32_t e = l;
        while (e + 1 < ex->nlanes && ex->active[e + 1])
            e++;
        sb_add(b, "%s%u", any++ ? "," : "", l);
        if (e > l)
            sb_add(b, "-%u", e);
        l = e;
    }
    if (!any)
        sb_add(b, "none");
}

/* The active-lane mask of each subgroup the traced lanes are in. */
static void fmt_subgroup_masks(sb *b, const cvm_exec *ex)
{
    sb_add(b, "  [active:");
    for (uint32_t s = 0; s < ex->nsub; s++) {
        uint32_t first = s * ex->sg_size, n = CVM_MIN(ex->sg_size, ex->nlanes - first);
        int sel = 0;
        for (uint32_t l = first; l < first + n && !sel; l++)
            sel = ex->active[l] && cvm_trace_selects(ex, l);
        if (!sel)
            continue;
        sb_add(b, " subgroup %u ", s);
        for (int w = (int)((n + 31) / 32) - 1; w >= 0; w--) {
            uint32_t m = 0;
            for (uint32_t k = 0; k < 32 && (uint32_t)w * 32 + k < n; k++)
                m |= (uint32_t)(ex->active[first + (uint32_t)w * 32 + k] != 0) << k;
            sb_add(b, "%s%08x", w == (int)((n + 31) / 32) - 1 ? "0x" : "", m);
        }
        uint32_t cnt = 0;
        for (uint32_t l = first; l < first + n; l++)
            cnt += ex->active[l] != 0;
        sb_add(b, " (%u of %u)", cnt, n);
    }
    sb_add(b, "]");
}

/* Instructions whose result depends on other lanes: the active-lane state
 * matters to them. */
static int is_collective(const cvm_insn *in)
{
    if (in->flags & CVM_INSN_PER_INSTANCE)
        return 1;
    const spv_instruction_desc *d = spv_grammar_instruction(in->spv_op);
    if (!d || !d->op_class)
        return 0;
    return !strcmp(d->op_class, "Non-Uniform") || !strcmp(d->op_class, "Barrier") ||
           in->spv_op == SpvOpSubgroupBallotKHR || in->spv_op == SpvOpSubgroupFirstInvocationKHR ||
           in->spv_op == SpvOpSubgroupAllKHR || in->spv_op == SpvOpSubgroupAnyKHR ||
           in->spv_op == SpvOpSubgroupAllEqualKHR || in->spv_op == SpvOpSubgroupReadInvocationKHR;
}

/* ---- blocks and instructions ------------------------------------------------------ */

static void line_start(sb *b, cvm_exec *ex, const cvm_insn *in)
{
    cvm_trace *t = ex->trace;
    const char *file;
    uint32_t line, col;
    sb_add(b, "%s", ex->cb_inv ? "    | " : "  ");
    if (spv_module_source_line(ex->prog->mod, in->word_off, &file, &line, &col)) {
        const char *base = strrchr(file, '/');
        sb_add(b, "%s:%u  ", base ? base + 1 : file, line);
        t->last_file = file;
        t->last_line = line;
    }
    sb_add(b, "w%u ", in->word_off);
}

void cvm_trace_block(cvm_exec *ex, const cvm_function *f, uint32_t bi)
{
    cvm_trace *t = ex->trace;
    if (t->full || !any_selected(ex))
        return;
    const spv_module *mod = ex->prog->mod;
    make_names(t, mod);
    sb b = {t->buf, 0, t->cap};
    t->buf[0] = 0;
    sb_add(&b, "%s-- block %u (", ex->cb_inv ? "  | " : "", bi);
    fmt_name(&b, t, f->blocks[bi].label);
    sb_add(&b, ") of ");
    fmt_name(&b, t, f->id);
    if (ex->cb_inv) {
        sb_add(&b, " (callback of %s): ", spv_grammar_instruction(ex->cb_op)
                                              ? spv_grammar_instruction(ex->cb_op)->name
                                              : "an instruction");
        uint32_t n = 0;
        CVM_FOR_ACTIVE(ex, l)
            n += cvm_trace_selects(ex, l);
        sb_add(&b, "%u call%s", n, n == 1 ? "" : "s");
    } else {
        sb_add(&b, ": lanes ");
        fmt_active(&b, ex);
        sb_add(&b, " of %u active", ex->nlanes);
    }
    emit(t, b.p, b.len);
}

void cvm_trace_insn(cvm_exec *ex, const cvm_insn *in)
{
    cvm_trace *t = ex->trace;
    if (t->full || !any_selected(ex))
        return;
    const cvm_program *prog = ex->prog;
    const spv_module *mod = prog->mod;
    make_names(t, mod);
    sb b = {t->buf, 0, t->cap};
    t->buf[0] = 0;
    line_start(&b, ex, in);
    const spv_instruction_desc *d = spv_grammar_instruction(in->spv_op);
    sb_add(&b, "%s", d ? d->name : "Op?");
    spv_inst si;
    int have = spv_module_inst_at(mod, in->word_off, &si);
    if (in->spv_op == SpvOpExtInst && have && si.word_count >= 5) {
        if (si.words[3] == mod->glsl_ext) {
            const spv_extinst_desc *g = spv_grammar_glsl_std450(si.words[4]);
            sb_add(&b, " %s", g ? g->name : "?");
        } else if (si.words[3] == mod->printf_ext) {
            sb_add(&b, " DebugPrintf");
            if (in->fn && t->lane != CVM_TRACE_WORKGROUP && !ex->cb_inv) {
                /* an invocation trace: the message it prints, escaped */
                char msg[512];
                size_t n = cvm_printf_format(ex, in, t->lane, msg, sizeof(msg));
                sb_add(&b, " \"");
                for (size_t k = 0; k < n; k++) {
                    unsigned char ch = (unsigned char)msg[k];
                    if (ch == '\n')
                        sb_add(&b, "\\n");
                    else if (ch == '"' || ch == '\\')
                        sb_add(&b, "\\%c", ch);
                    else if (ch < 32 || ch == 127)
                        sb_add(&b, "\\x%02x", ch);
                    else
                        sb_add(&b, "%c", ch);
                }
                sb_add(&b, "\"");
            }
        }
    }
    switch (in->cf) {
    case CVM_CF_BRANCH:
        sb_add(&b, " to block %u", in->a);
        break;
    case CVM_CF_BRANCH_COND:
        sb_add(&b, " ");
        fmt_name(&b, t, in->a);
        sb_add(&b, " = ");
        fmt_lanes(&b, ex, in->a, mod->defs[in->a].type);
        sb_add(&b, " (true: block %u, false: block %u)", in->b, in->c);
        break;
    case CVM_CF_SWITCH:
        sb_add(&b, " ");
        fmt_name(&b, t, in->a);
        sb_add(&b, " = ");
        fmt_lanes(&b, ex, in->a, mod->defs[in->a].type);
        break;
    case CVM_CF_RETURN_VALUE:
        sb_add(&b, " ");
        fmt_name(&b, t, in->a);
        sb_add(&b, " = ");
        fmt_lanes(&b, ex, in->a, mod->defs[in->a].type);
        break;
    default:
        if (in->result && in->type && prog->types[in->type].tclass != CVM_TC_NONE) {
            sb_add(&b, " ");
            fmt_name(&b, t, in->result);
            sb_add(&b, " = ");
            fmt_lanes(&b, ex, in->result, in->type);
            if (in->spv_op == SpvOpLoad && have && si.word_count >= 4) {
                sb_add(&b, "  (from ");
                fmt_name(&b, t, si.words[3]);
                sb_add(&b, ")");
            }
        } else if (have && si.word_count >= 3 &&
                   (in->spv_op == SpvOpStore || in->spv_op == SpvOpCooperativeMatrixStoreKHR ||
                    in->spv_op == SpvOpCooperativeMatrixStoreNV ||
                    in->spv_op == SpvOpCooperativeMatrixStoreTensorNV)) {
            /* stores: the pointer and the object */
            uint32_t ptr = si.words[1], obj = si.words[2];
            sb_add(&b, " ");
            fmt_name(&b, t, ptr);
            if (mod->defs[ptr].opcode != SpvOpVariable) { /* a computed address */
                sb_add(&b, " = ");
                fmt_lanes(&b, ex, ptr, mod->defs[ptr].type);
            }
            sb_add(&b, " <- ");
            fmt_name(&b, t, obj);
            sb_add(&b, " = ");
            fmt_lanes(&b, ex, obj, mod->defs[obj].type);
        }
        break;
    }
    if (is_collective(in))
        fmt_subgroup_masks(&b, ex);
    emit(t, b.p, b.len);
}
