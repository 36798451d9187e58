/* SPV_NV_cooperative_matrix2, the instructions other than tensor addressing:
 * OpCooperativeMatrixReduceNV (ReduceEXT), OpCooperativeMatrixPerElementOpNV
 * (PerElementOpEXT), OpCooperativeMatrixConvertNV (ConvertUseEXT) and
 * OpCooperativeMatrixTransposeNV.  (Op{F,S,U}Convert changing component type
 * and Use together live in convert.c.)
 *
 * Like the KHR instructions (coopmat.c) each runs once per scope instance
 * (subgroup, or the workgroup) after checking that every live invocation of
 * the instance is active; non-matrix operands of a per-element operation come
 * from the instance's first active invocation.
 *
 * Callbacks (CombineFunc, Func) run through cvm_callback_run, in batches over
 * all participating scope instances.  The texts leave the order of the calls
 * open ("may be called in any order", the reduction tree unspecified); this
 * file fixes it:
 *
 *   default   each reduced sequence is folded left to right:
 *             acc = e0; acc = f(acc, e1); acc = f(acc, e2); ...
 *             A sequence is a row (Row, left to right), a column (Column, top
 *             to bottom), a 2x2 neighbourhood in the order the text lists it:
 *             (2r,2c), (2r+1,2c), (2r,2c+1), (2r+1,2c+1).  Row|Column folds
 *             every row left to right, then the row results pairwise, level
 *             by level: f(r0, r1), f(r2, r3), ..., then those results the
 *             same way (an odd last one moves up unchanged).  The row
 *             results grow with the row count, and a left-to-right fold of
 *             them rounds a low-precision sum M-1 times at its largest
 *             magnitude: the Vulkan CTS's bf16 reduce_sum_rowcol of a 32x32
 *             matrix ended 4 units of the 8-bit significand away from the
 *             exact sum, past its tolerance; the tree rounds log2(M) times.
 *             Each combine runs exactly once: L-1 calls for L elements.
 *   checking  (CVM_FLAG_CHECK_CALLBACKS) a pairwise tree with swapped
 *             arguments: level by level, element pairs (x[2j], x[2j+1])
 *             become f(x[2j+1], x[2j]) and an odd last element moves up
 *             unchanged; Row|Column does this per row, then over the row
 *             results.  Every level goes through the runner's shuffled,
 *             repeated calls.  For integer components the default fold also
 *             runs and a difference is CVM_ERROR_CALLBACK_MISMATCH (integer
 *             combines are exact, so a difference means the combine is not
 *             commutative and associative); floating-point results may differ
 *             by rounding between trees, which the text allows, so they are
 *             not compared and the tree's result stands.
 *
 * Per-element Func is called once per element in row-major order (each
 * instance in turn); the runner shuffles and repeats the calls in checking
 * mode. */
#include <string.h>

#include "exec/program.h"

static uint8_t scope_flags(const cvm_type *t)
{
    return CVM_INSN_PER_INSTANCE | (t->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
}

static const cvm_type *type_of_value(const cvm_exec *ex, uint32_t id)
{
    const cvm_program *p = ex->prog;
    return &p->types[p->mod->defs[id].type];
}

static uint32_t elem_size(const cvm_program *p, const cvm_type *mt)
{
    return p->types[mt->elem].size;
}

/* Same scalar type (class, kind and width): types of one shape may have
 * different ids. */
static int same_scalar(const cvm_type *a, const cvm_type *b)
{
    return a->tclass == b->tclass && a->sk == b->sk && a->size == b->size;
}

/* Collects the scope instances that execute `in` into o_inst (room for
 * cvm_scope_instances entries); fails on a divergent collective. */
static cvm_result participants(cvm_exec *ex, const cvm_insn *in, uint32_t *o_inst, uint32_t *o_n)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk > 0)
            o_inst[n++] = i;
    }
    *o_n = n;
    return CVM_SUCCESS;
}

/* ---- reductions ------------------------------------------------------------ */

/* One element of `es` bytes: the common sizes as fixed-size copies (a call
 * of memcpy per element otherwise dominated the reductions' gathers). */
static inline void elem_copy(uint8_t *dst, const uint8_t *src, uint32_t es)
{
    switch (es) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, es); break;
    }
}

/* Folds `nseq` sequences of `len` elements (sequence s at x + s*len*es) left
 * to right into out[s]; x is left as it was. */
static cvm_result fold_sequential(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t es,
                                  uint32_t nseq, uint32_t len, const uint8_t *x, uint8_t *out,
                                  const uint32_t *seq_lanes, const uint32_t *seq_elems,
                                  uint32_t cols)
{
    for (uint32_t s = 0; s < nseq; s++)
        elem_copy(out + (size_t)s * es, x + (size_t)s * len * es, es);
    if (len < 2 || nseq == 0)
        return CVM_SUCCESS;
    /* Step k combines the accumulators with element k of every sequence,
     * read where it lies (stride len * es), into the other of two buffers:
     * the accumulators a call reads are never the ones it writes (the
     * checking mode reads the arguments again after a first pass wrote
     * results). */
    uint8_t *buf = cvm_malloc((size_t)nseq * es);
    if (!buf)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    uint8_t *acc = out;
    cvm_result r = cvm_callback_fold(ex, in, func, es, nseq, len, x, out, buf, seq_lanes,
                                     seq_elems, cols, &acc);
    if (r == CVM_SUCCESS && acc != out)
        memcpy(out, acc, (size_t)nseq * es);
    cvm_mem_free(buf);
    return r;
}

/* A pairwise tree: level by level f(x[2j], x[2j+1]), or with `swap`
 * f(x[2j+1], x[2j]) (the checking mode's order); an odd last element moves
 * up unchanged. */
static cvm_result fold_tree(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t es,
                            uint32_t nseq, uint32_t len, const uint8_t *x, uint8_t *out,
                            const uint32_t *seq_lanes, const uint32_t *seq_elems, uint32_t cols,
                            int swap)
{
    size_t all = (size_t)nseq * len * es;
    size_t half_max = (size_t)nseq * (len / 2) * es;
    uint8_t *w = cvm_malloc(all + 3 * half_max + (size_t)nseq * (len / 2) * 8 + 1);
    if (!w)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    uint8_t *lhs = w + all, *rhs = lhs + half_max, *res = rhs + half_max;
    uint32_t *call_lanes = (uint32_t *)(void *)(res + half_max);
    uint32_t *call_elems = call_lanes + (size_t)nseq * (len / 2);
    memcpy(w, x, all);
    cvm_result r = CVM_SUCCESS;
    for (uint32_t n = len; n > 1 && r == CVM_SUCCESS; n = n / 2 + (n & 1)) {
        uint32_t half = n / 2;
        for (uint32_t s = 0; s < nseq; s++) {
            const uint8_t *seq = w + (size_t)s * len * es;
            for (uint32_t j = 0; j < half; j++) {
                size_t c = ((size_t)s * half + j) * es;
                elem_copy(lhs + c, seq + (size_t)(2 * j + (swap ? 1 : 0)) * es, es);
                elem_copy(rhs + c, seq + (size_t)(2 * j + (swap ? 0 : 1)) * es, es);
                call_lanes[(size_t)s * half + j] = seq_lanes[s];
                call_elems[(size_t)s * half + j] = seq_elems[s];
            }
        }
        cvm_val args[2] = {{lhs, es}, {rhs, es}};
        r = cvm_callback_run_elements(ex, in, func, nseq * half, args, 2, res, call_lanes,
                                      call_elems, cols);
        if (r != CVM_SUCCESS)
            break;
        for (uint32_t s = 0; s < nseq; s++) {
            uint8_t *seq = w + (size_t)s * len * es;
            if (n & 1)
                memmove(seq + (size_t)half * es, seq + (size_t)(n - 1) * es, es);
            memcpy(seq, res + (size_t)s * half * es, (size_t)half * es);
        }
    }
    if (r == CVM_SUCCESS)
        for (uint32_t s = 0; s < nseq; s++)
            elem_copy(out + (size_t)s * es, w + (size_t)s * len * es, es);
    cvm_mem_free(w);
    return r;
}

/* Row|Column folds rows first, then the row results: two levels of
 * sequences; the others are one level. */
static cvm_result reduce_sequences(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t es,
                                   int tree, int two_level, uint32_t nseq, uint32_t len,
                                   uint32_t len2, const uint8_t *x, uint8_t *tmp, uint8_t *out,
                                   const uint32_t *lanes1, const uint32_t *lanes2,
                                   const uint32_t *elems1, const uint32_t *elems2, uint32_t cols)
{
    if (tree) {
        if (!two_level)
            return fold_tree(ex, in, func, es, nseq, len, x, out, lanes1, elems1, cols, 1);
        CVM_TRY(fold_tree(ex, in, func, es, nseq * len2, len, x, tmp, lanes1, elems1, cols, 1));
        return fold_tree(ex, in, func, es, nseq, len2, tmp, out, lanes2, elems2, cols, 1);
    }
    if (!two_level)
        return fold_sequential(ex, in, func, es, nseq, len, x, out, lanes1, elems1, cols);
    CVM_TRY(fold_sequential(ex, in, func, es, nseq * len2, len, x, tmp, lanes1, elems1, cols));
    return fold_tree(ex, in, func, es, nseq, len2, tmp, out, lanes2, elems2, cols, 0);
}

/* Reduce: a = Matrix, b = Reduce mask, c = CombineFunc (function index). */
static cvm_result h_reduce(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *tm = type_of_value(ex, in->a);
    const cvm_type *tr = &p->types[in->type];
    uint32_t es = elem_size(p, tm);
    uint32_t M = tm->rows, N = tm->cols, mode = in->b;
    cvm_val vm = ex->vals[in->a], vr = ex->vals[in->result];

    /* Sequences per instance: G of L elements each (Row|Column: M rows of N,
     * then one of M). */
    uint32_t G, L, L2 = 0;
    int two_level = 0;
    if (mode == SpvCooperativeMatrixReduce2x2Mask) {
        G = (M / 2) * (N / 2);
        L = 4;
    } else if (mode == SpvCooperativeMatrixReduceRowMask) {
        G = M;
        L = N;
    } else if (mode == SpvCooperativeMatrixReduceColumnMask) {
        G = N;
        L = M;
    } else {
        G = 1;
        L = N;
        L2 = M;
        two_level = 1;
    }

    uint32_t *inst = cvm_malloc((size_t)cvm_scope_instances(ex, in) * sizeof(uint32_t));
    if (!inst)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t ninst = 0;
    cvm_result r = participants(ex, in, inst, &ninst);
    if (r != CVM_SUCCESS || ninst == 0) {
        cvm_mem_free(inst);
        return r;
    }

    /* Gather every instance's sequences, in fold order, into x. */
    size_t per_inst = (size_t)M * N;
    uint32_t nseq = ninst * G;
    size_t xsize = (size_t)ninst * per_inst * es;
    size_t tsize = two_level ? (size_t)ninst * M * es : 0;
    size_t osize = (size_t)nseq * es;
    uint8_t *x = cvm_malloc(2 * xsize + 2 * tsize + 2 * osize + 1);
    if (!x) {
        cvm_mem_free(inst);
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint8_t *tmp = x + xsize, *out = tmp + tsize, *out2 = out + osize, *tmp2 = out2 + osize;
    /* Each combine runs in the context of the invocation that owns the
     * first source element of the sequence it folds (cvm_callback_run):
     * lanes1 for the sequences (rows first under Row|Column), lanes2 for
     * Row|Column's sequence of row results. */
    uint32_t nl1 = two_level ? ninst * M : nseq;
    uint32_t *lanes1 = cvm_malloc(((size_t)nl1 + ninst) * 2 * sizeof(uint32_t));
    if (!lanes1) {
        cvm_mem_free(x);
        cvm_mem_free(inst);
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint32_t *lanes2 = lanes1 + nl1;
    /* and the element each names in DebugPrintf messages: the sequence's first */
    uint32_t *elems1 = lanes2 + ninst, *elems2 = elems1 + nl1;
    for (uint32_t k = 0; k < ninst; k++) {
        lanes2[k] = cvm_element_owner(ex, in, inst[k], M * N, 0);
        elems2[k] = 0;
        uint32_t per = two_level ? M : G;
        for (uint32_t g = 0; g < per; g++) {
            uint32_t e = two_level || mode == SpvCooperativeMatrixReduceRowMask ? g * N
                         : mode == SpvCooperativeMatrixReduceColumnMask      ? g
                                                                             : (g / (N / 2)) * 2 * N + (g % (N / 2)) * 2;
            lanes1[(size_t)k * per + g] = cvm_element_owner(ex, in, inst[k], M * N, e);
            elems1[(size_t)k * per + g] = e;
        }
    }
    for (uint32_t k = 0; k < ninst; k++) {
        const uint8_t *src = vm.p + (size_t)inst[k] * vm.stride;
        uint8_t *dst = x + (size_t)k * per_inst * es;
        if (mode == SpvCooperativeMatrixReduceColumnMask) {
            for (uint32_t c = 0; c < N; c++)
                for (uint32_t rr = 0; rr < M; rr++)
                    elem_copy(dst + ((size_t)c * M + rr) * es, src + ((size_t)rr * N + c) * es, es);
        } else if (mode == SpvCooperativeMatrixReduce2x2Mask) {
            size_t o = 0;
            for (uint32_t rr = 0; rr < M / 2; rr++)
                for (uint32_t c = 0; c < N / 2; c++) {
                    static const uint8_t dr[4] = {0, 1, 0, 1}, dc[4] = {0, 0, 1, 1};
                    for (uint32_t q = 0; q < 4; q++)
                        elem_copy(dst + (o++) * es,
                                  src + ((size_t)(2 * rr + dr[q]) * N + 2 * c + dc[q]) * es, es);
                }
        } else {
            memcpy(dst, src, per_inst * es); /* rows, left to right */
        }
    }

    int check = (ex->flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    r = reduce_sequences(ex, in, in->c, es, check, two_level, nseq, L, L2, x, tmp, out, lanes1,
                         lanes2, elems1, elems2, N);
    if (r == CVM_SUCCESS && check && p->types[tm->elem].tclass == CVM_TC_INT) {
        /* a comparison only: its calls print and trace nothing */
        struct cvm_printf_buf *pb = ex->printf;
        struct cvm_trace *trace = ex->trace;
        ex->printf = NULL;
        ex->trace = NULL;
        r = reduce_sequences(ex, in, in->c, es, 0, two_level, nseq, L, L2, x, tmp2, out2, lanes1,
                             lanes2, elems1, elems2, N);
        ex->printf = pb;
        ex->trace = trace;
        if (r == CVM_SUCCESS) {
            for (uint32_t s = 0; s < nseq; s++) {
                if (memcmp(out + (size_t)s * es, out2 + (size_t)s * es, es)) {
                    r = cvm_exec_fail(ex, in, CVM_ERROR_CALLBACK_MISMATCH,
                                      "CombineFunc %u gave different results for reduction %u "
                                      "of scope instance %u when combining in another order",
                                      p->funcs[in->c].id, s % G, inst[s / G]);
                    break;
                }
            }
        }
    }

    /* Spread the reductions over the result. */
    if (r == CVM_SUCCESS) {
        for (uint32_t k = 0; k < ninst; k++) {
            uint8_t *dst = vr.p + (size_t)inst[k] * vr.stride;
            const uint8_t *red = out + (size_t)k * G * es;
            /* element (rr, c) takes reduction g: rr (Row), c (Column),
             * rr * N/2 + c (2x2), 0 (Row|Column) */
            uint32_t g_row = mode == SpvCooperativeMatrixReduceRowMask      ? 1
                             : mode == SpvCooperativeMatrixReduce2x2Mask    ? N / 2
                                                                            : 0;
            uint32_t g_col = mode == SpvCooperativeMatrixReduceColumnMask ||
                             mode == SpvCooperativeMatrixReduce2x2Mask;
            for (uint32_t rr = 0; rr < tr->rows; rr++) {
                uint8_t *d = dst + (size_t)rr * tr->cols * es;
                const uint8_t *rg = red + (size_t)rr * g_row * es;
                if (!g_col && es == 4) { /* one value along the row */
                    uint32_t v;
                    memcpy(&v, rg, 4);
                    for (uint32_t c = 0; c < tr->cols; c++)
                        memcpy(d + (size_t)c * 4, &v, 4);
                    continue;
                }
                for (uint32_t c = 0; c < tr->cols; c++)
                    elem_copy(d + (size_t)c * es, rg + (size_t)c * g_col * es, es);
            }
        }
    }
    cvm_mem_free(lanes1);
    cvm_mem_free(x);
    cvm_mem_free(inst);
    return r;
}

/* ---- per-element operations ------------------------------------------------ */

/* The row, then the column, of each of matrix type tm's elements in
 * row-major order (2 x rows x cols entries): made at the instruction's
 * first call and kept in ex->pe_coords; NULL when out of memory. */
static uint32_t *element_coords(cvm_exec *ex, const cvm_insn *in, const cvm_type *tm)
{
    const cvm_program *p = ex->prog;
    size_t ii = (size_t)(in - p->insns);
    if (!ex->pe_coords && !(ex->pe_coords = cvm_calloc(p->ninsns, sizeof(*ex->pe_coords))))
        return NULL;
    if (ex->pe_coords[ii])
        return ex->pe_coords[ii];
    uint32_t count = tm->rows * tm->cols;
    uint32_t *rows = cvm_malloc((size_t)count * 8 + 1);
    if (!rows)
        return NULL;
    uint32_t *cols = rows + count;
    for (uint32_t rw = 0, e = 0; rw < tm->rows; rw++)
        for (uint32_t c = 0; c < tm->cols; c++, e++) {
            rows[e] = rw;
            cols[e] = c;
        }
    return ex->pe_coords[ii] = rows;
}

/* PerElementOp: a = Matrix, c = Func (function index), extra/nextra = the
 * optional operands. */
static cvm_result h_per_element(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *tm = type_of_value(ex, in->a);
    uint32_t es = elem_size(p, tm);
    uint32_t count = tm->rows * tm->cols;
    cvm_val vm = ex->vals[in->a], vr = ex->vals[in->result];
    uint32_t nargs = 3 + in->nextra;
    const uint32_t *ops = p->extra + in->extra;
    uint32_t *rows = element_coords(ex, in, tm), *cols = rows ? rows + count : NULL;
    cvm_val *args = rows ? cvm_malloc(nargs * sizeof(cvm_val) + (size_t)count * 4) : NULL;
    if (!args)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t *lanes = (uint32_t *)(args + nargs);
    args[0] = (cvm_val){(uint8_t *)rows, 4};
    args[1] = (cvm_val){(uint8_t *)cols, 4};
    cvm_result r = CVM_SUCCESS;
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in) && r == CVM_SUCCESS; i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0) {
            r = CVM_ERROR_DIVERGENT_COLLECTIVE;
            break;
        }
        if (chk == 0)
            continue;
        uint32_t fl = cvm_scope_first_active(ex, in, i);
        /* each element's call runs in its owner's context: cvm_element_owner
         * of every element, a run of L elements per lane (the reference
         * paths call it element by element) */
        if (ex->flags & CVM_FLAG_REFERENCE_PATHS) {
            for (uint32_t e = 0; e < count; e++)
                lanes[e] = cvm_element_owner(ex, in, i, count, e);
        } else {
            uint32_t first = cvm_scope_first_lane(ex, in, i), nl = cvm_scope_lane_count(ex, in, i);
            uint32_t L = count ? (count + nl - 1) / nl : 1;
            for (uint32_t e = 0, k = 0; e < count; k++) {
                uint32_t lane = first + (k < nl ? k : nl - 1);
                if (!ex->active[lane] && fl != UINT32_MAX)
                    lane = fl;
                uint32_t end = CVM_MIN(count, e + L);
                while (e < end)
                    lanes[e++] = lane;
            }
        }
        args[2] = (cvm_val){vm.p + (size_t)i * vm.stride, es};
        for (uint32_t k = 0; k < in->nextra; k++) {
            cvm_val v = ex->vals[ops[k]];
            const cvm_type *t = type_of_value(ex, ops[k]);
            if (t->tclass == CVM_TC_COOPMAT)
                args[3 + k] = (cvm_val){v.p + (size_t)i * v.stride, elem_size(p, t)};
            else
                args[3 + k] = (cvm_val){CVM_LANE(v, fl), 0};
        }
        r = cvm_callback_run_elements(ex, in, in->c, count, args, nargs,
                                      vr.p + (size_t)i * vr.stride, lanes, NULL, tm->cols);
    }
    cvm_mem_free(args);
    return r;
}

/* ---- Use conversion and transpose ------------------------------------------ */

/* ConvertUse: a = Matrix; the elements are the same, only Use differs. */
static cvm_result h_convert_use(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *tr = &ex->prog->types[in->type];
    cvm_val vm = ex->vals[in->a], vr = ex->vals[in->result];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk > 0)
            memcpy(vr.p + (size_t)i * vr.stride, vm.p + (size_t)i * vm.stride, tr->size);
    }
    return CVM_SUCCESS;
}

/* Transpose: a = Matrix (rows x cols), result cols x rows. */
static cvm_result h_transpose(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *tr = &p->types[in->type];
    uint32_t es = elem_size(p, tr);
    cvm_val vm = ex->vals[in->a], vr = ex->vals[in->result];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        const uint8_t *src = vm.p + (size_t)i * vm.stride; /* tr->cols x tr->rows */
        uint8_t *dst = vr.p + (size_t)i * vr.stride;
        for (uint32_t r = 0; r < tr->rows; r++)
            for (uint32_t c = 0; c < tr->cols; c++)
                memcpy(dst + ((size_t)r * tr->cols + c) * es, src + ((size_t)c * tr->rows + r) * es,
                       es);
    }
    return CVM_SUCCESS;
}

/* ---- lowering -------------------------------------------------------------- */

static const char *use_name(uint32_t use)
{
    return use == CVM_USE_A ? "MatrixAKHR" : use == CVM_USE_B ? "MatrixBKHR" : "MatrixAccumulatorKHR";
}

/* The callback `func_id`: its index, return type and parameter types (from
 * its OpTypeFunction; the function itself may be lowered later). */
static cvm_result callback_sig(cvm_lower *lw, const spv_inst *in, uint32_t func_id,
                               const char *what, uint32_t *o_index, spv_inst *o_ftype)
{
    const cvm_program *p = cvm_lower_program(lw);
    uint32_t fi = func_id < p->bound ? p->func_index[func_id] : UINT32_MAX;
    if (fi == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s %u is not an OpFunction", what,
                              func_id);
    if (!spv_module_def_inst(p->mod, p->mod->functions[fi].fn_type, o_ftype) ||
        o_ftype->opcode != SpvOpTypeFunction || o_ftype->word_count < 3)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s %u has no function type", what,
                              func_id);
    *o_index = fi;
    return CVM_SUCCESS;
}

static cvm_result lower_reduce(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    if (in->word_count != 6)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
    const cvm_type *tr = cvm_lower_type(lw, w[1]);
    const cvm_type *tm = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
    if (tr->tclass != CVM_TC_COOPMAT || tm->tclass != CVM_TC_COOPMAT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Result Type and Matrix must be cooperative matrices");
    const cvm_type *et = cvm_lower_type(lw, tm->elem);
    if (!same_scalar(cvm_lower_type(lw, tr->elem), et))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Matrix and Result Type have different component types");
    if (tr->use != CVM_USE_ACC || tm->use != CVM_USE_ACC)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Matrix and Result Type must have Use MatrixAccumulatorKHR");
    if (tr->scope != tm->scope)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Matrix and Result Type have different scopes");
    uint32_t mode = w[4];
    const uint32_t rc = SpvCooperativeMatrixReduceRowMask | SpvCooperativeMatrixReduceColumnMask;
    if (mode == SpvCooperativeMatrixReduce2x2Mask) {
        if (tr->rows * 2 != tm->rows || tr->cols * 2 != tm->cols)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "2x2 reduction of a %ux%u matrix into %ux%u: the result must be "
                                  "half the size in both dimensions",
                                  tm->rows, tm->cols, tr->rows, tr->cols);
    } else if (mode == SpvCooperativeMatrixReduceRowMask) {
        if (tr->rows != tm->rows)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Row reduction of %u rows into %u rows: the row counts must match",
                                  tm->rows, tr->rows);
    } else if (mode == SpvCooperativeMatrixReduceColumnMask) {
        if (tr->cols != tm->cols)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Column reduction of %u columns into %u columns: the column "
                                  "counts must match",
                                  tm->cols, tr->cols);
    } else if (mode != rc) {
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Reduce mask 0x%x: 2x2 alone, or Row and/or Column", mode);
    }
    spv_inst ft;
    uint32_t fi;
    CVM_TRY(callback_sig(lw, in, w[5], "CombineFunc", &fi, &ft));
    if (ft.word_count != 5 || !same_scalar(cvm_lower_type(lw, ft.words[2]), et) ||
        !same_scalar(cvm_lower_type(lw, ft.words[3]), et) ||
        !same_scalar(cvm_lower_type(lw, ft.words[4]), et))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "CombineFunc %u must take two parameters and return a value of the "
                              "component type of Matrix",
                              w[5]);
    out->a = w[3];
    out->b = mode;
    out->c = fi;
    out->type = w[1];
    out->flags = scope_flags(tr);
    out->fn = h_reduce;
    return CVM_SUCCESS;
}

static cvm_result lower_per_element(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    if (in->word_count < 5)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
    const cvm_type *tr = cvm_lower_type(lw, w[1]);
    const cvm_type *tm = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
    if (tm->tclass != CVM_TC_COOPMAT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Matrix must be a cooperative matrix");
    if (tr->tclass != CVM_TC_COOPMAT || tr->rows != tm->rows || tr->cols != tm->cols ||
        tr->scope != tm->scope || tr->use != tm->use ||
        !same_scalar(cvm_lower_type(lw, tr->elem), cvm_lower_type(lw, tm->elem)))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Result Type must match the type of Matrix");
    const cvm_type *et = cvm_lower_type(lw, tm->elem);
    uint32_t nextra = in->word_count - 5u;
    spv_inst ft;
    uint32_t fi;
    CVM_TRY(callback_sig(lw, in, w[4], "Func", &fi, &ft));
    if (ft.word_count != 3u + 3u + nextra)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Func %u takes %u parameters; row, column, element and %u operands "
                              "make %u",
                              w[4], ft.word_count - 3u, nextra, 3u + nextra);
    const cvm_type *prow = cvm_lower_type(lw, ft.words[3]), *pcol = cvm_lower_type(lw, ft.words[4]);
    if (prow->tclass != CVM_TC_INT || prow->size != 4 || pcol->tclass != CVM_TC_INT || pcol->size != 4)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "the first two parameters of Func %u must be 32-bit integers", w[4]);
    if (!same_scalar(cvm_lower_type(lw, ft.words[5]), et) ||
        !same_scalar(cvm_lower_type(lw, ft.words[2]), et))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "the third parameter and the return type of Func %u must be the "
                              "component type of Matrix",
                              w[4]);
    for (uint32_t k = 0; k < nextra; k++) {
        uint32_t id = w[5 + k];
        const cvm_type *ot = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
        const cvm_type *pt = cvm_lower_type(lw, ft.words[6 + k]);
        if (ot->tclass == CVM_TC_COOPMAT) {
            if (ot->rows != tm->rows || ot->cols != tm->cols || ot->scope != tm->scope ||
                ot->use != tm->use)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "matrix operand %u (%ux%u %s) must have the type of Matrix "
                                      "(%ux%u %s)",
                                      id, ot->rows, ot->cols, use_name(ot->use), tm->rows, tm->cols,
                                      use_name(tm->use));
            if (!same_scalar(cvm_lower_type(lw, ot->elem), pt))
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "the component type of matrix operand %u does not match "
                                      "parameter %u of Func",
                                      id, 3 + k);
        } else if (ot->tclass != pt->tclass || ot->size != pt->size || ot->sk != pt->sk) {
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "operand %u does not match the type of parameter %u of Func", id,
                                  3 + k);
        }
    }
    out->a = w[3];
    out->c = fi;
    out->nextra = nextra;
    out->extra = cvm_lower_extra(lw, w + 5, nextra);
    if (out->extra == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    out->type = w[1];
    out->flags = scope_flags(tr);
    out->fn = h_per_element;
    return CVM_SUCCESS;
}

/* OpCooperativeMatrixConvertUseEXT (OpCooperativeMatrixConvertNV, the same
 * opcode) and OpCooperativeMatrixTransposeNV.  In a module that declares
 * CooperativeMatrixConversionsEXT, the maintenance1 text's rules: Use may
 * also go from MatrixAKHR or MatrixBKHR to MatrixAccumulatorKHR, integer
 * component types may differ in signedness, and the instruction may be
 * decorated CooperativeMatrixTransposeEXT (then rows and columns swap, and,
 * as for every conversion so decorated, Matrix must be an accumulator and
 * the result MatrixAKHR or MatrixBKHR).  Without it, SPV_NV_cooperative_matrix2's:
 * accumulator to A or B only, the same component type (or an integer one
 * of the same width, as the validator takes it). */
static cvm_result lower_convert_transpose(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    const spv_module *mod = cvm_lower_program(lw)->mod;
    int ext = in->opcode == SpvOpCooperativeMatrixConvertUseEXT &&
              spv_module_has_capability(mod, SpvCapabilityCooperativeMatrixConversionsEXT);
    int deco = ext && in->word_count >= 3 &&
               spv_module_find_decoration(mod, w[2], SPV_NO_MEMBER,
                                          SpvDecorationCooperativeMatrixTransposeEXT) != NULL;
    int tp = in->opcode == SpvOpCooperativeMatrixTransposeNV || deco;
    if (in->word_count != 4)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
    const cvm_type *tr = cvm_lower_type(lw, w[1]);
    const cvm_type *tm = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
    if (tr->tclass != CVM_TC_COOPMAT || tm->tclass != CVM_TC_COOPMAT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Result Type and Matrix must be cooperative matrices");
    /* The SPIR-V text of Transpose does not name the component type ("the
     * same 'Scope' as 'Result Type', and with 'Rows', and 'Columns'
     * swapped"); the GLSL text asks for the same one, yet glslang emits
     * coopMatTransposeNV between two types as one OpCooperativeMatrixTransposeNV,
     * the Vulkan CTS's transpose_acc_to_b tests do so (expecting each element
     * converted: f32 to f16 rounded, integers cut to the result's width) and
     * NVIDIA's driver passes them: such a transpose converts each element as
     * Op{F,S,U}Convert would, by the two types' kinds. */
    const cvm_type *er = cvm_lower_type(lw, tr->elem), *em = cvm_lower_type(lw, tm->elem);
    /* Integers of one width that differ in signedness are the same bits:
     * maintenance1 allows it, and so does the validator without it
     * (NV-CM2.Convert-Types: glslang emits it for GLSL constructors). */
    int same = same_scalar(er, em) ||
               (er->tclass == CVM_TC_INT && em->tclass == CVM_TC_INT && er->size == em->size);
    int convert = !same && in->opcode == SpvOpCooperativeMatrixTransposeNV &&
                  (er->tclass == CVM_TC_INT || er->tclass == CVM_TC_FLOAT) &&
                  (em->tclass == CVM_TC_INT || em->tclass == CVM_TC_FLOAT);
    if (!same && !convert)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Matrix and Result Type have different component types%s",
                              in->opcode == SpvOpCooperativeMatrixTransposeNV
                                  ? ""
                                  : " (use Op{F,S,U}Convert to change them)");
    if (tr->scope != tm->scope)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Matrix and Result Type have different scopes");
    if (tp ? (tr->rows != tm->cols || tr->cols != tm->rows)
           : (tr->rows != tm->rows || tr->cols != tm->cols))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%ux%u matrix into %ux%u: the %s",
                              tm->rows, tm->cols, tr->rows, tr->cols,
                              tp ? "dimensions must be swapped" : "dimensions must match");
    if (ext && !deco) {
        if ((tm->use == CVM_USE_ACC) == (tr->use == CVM_USE_ACC))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Use %s into %s: one of the two must be MatrixAccumulatorKHR "
                                  "and the other MatrixAKHR or MatrixBKHR",
                                  use_name(tm->use), use_name(tr->use));
    } else if (tm->use != CVM_USE_ACC || (in->opcode == SpvOpCooperativeMatrixTransposeNV
                                              ? tr->use != CVM_USE_B
                                              : tr->use == CVM_USE_ACC)) {
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Use %s into %s: Matrix must be MatrixAccumulatorKHR and the "
                              "result %s%s",
                              use_name(tm->use), use_name(tr->use),
                              in->opcode == SpvOpCooperativeMatrixTransposeNV
                                  ? "MatrixBKHR"
                                  : "MatrixAKHR or MatrixBKHR",
                              deco ? " (CooperativeMatrixTransposeEXT)" : "");
    }
    out->a = w[3];
    out->type = w[1];
    out->flags = scope_flags(tr);
    out->fn = tp ? h_transpose : h_convert_use;
    if (convert) {
        /* the element conversion of OpFConvert & co. decorated
         * CooperativeMatrixTransposeEXT (ops/convert.c), no saturation */
        out->sk = er->sk;
        out->sk2 = em->sk;
        out->d = 0;
        out->fn = cvm_op_convert_transpose;
    }
    return CVM_SUCCESS;
}

cvm_result cvm_lower_coopmat2(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    switch (in->opcode) {
    case SpvOpCooperativeMatrixReduceNV:
        return lower_reduce(lw, in, out);
    case SpvOpCooperativeMatrixPerElementOpNV:
        return lower_per_element(lw, in, out);
    case SpvOpCooperativeMatrixConvertNV:
    case SpvOpCooperativeMatrixTransposeNV:
        return lower_convert_transpose(lw, in, out);
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
