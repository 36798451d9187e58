/* SPV_KHR_cooperative_matrix: OpCooperativeMatrixLoadKHR, StoreKHR and
 * MulAddKHR (Length, element access, arithmetic and conversions live with
 * their families: composite.c, arith.c, convert.c), with the memory layouts
 * of SPV_ARM_cooperative_matrix_layouts; and SPV_NV_cooperative_matrix, the
 * predecessor, on the same machinery: OpCooperativeMatrixLoadNV, StoreNV
 * (a ColumnMajor boolean instead of a layout) and MulAddNV (signedness from
 * the component types instead of operands).
 *
 * Each runs once per scope instance (subgroup, or the workgroup for
 * Workgroup-scope matrices) after checking that every live invocation of the
 * instance is active (else CVM_ERROR_DIVERGENT_COLLECTIVE).  Pointer, stride
 * and other non-matrix operands are taken from the instance's first active
 * invocation: the texts require them to be the same for all, and a lane
 * that holds another value fails the instruction (KHR-CM.Uniform-Operands,
 * NV-CM1.Uniform-Operands: CVM_ERROR_DIVERGENT_COLLECTIVE; exec.h).  A
 * load or store through a null descriptor fails with
 * VUID-OpCooperativeMatrix-12379 (CVM_ERROR_OUT_OF_BOUNDS, robust mode
 * too). */
#include <string.h>

#include "exec/kernels/matmul.h"
#include "exec/kernels/transpose.h"
#include "exec/program.h"

static uint8_t scope_flags(const cvm_type *t)
{
    return CVM_INSN_PER_INSTANCE | (t->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
}

static int64_t lane_int(const cvm_exec *ex, uint32_t id, uint32_t lane, uint32_t size)
{
    cvm_val v = ex->vals[id];
    const uint8_t *p = CVM_LANE(v, lane);
    switch (size) {
    case 1: return (int8_t)p[0];
    case 2: { int16_t x; memcpy(&x, p, 2); return x; }
    case 8: { int64_t x; memcpy(&x, p, 8); return x; }
    default: { int32_t x; memcpy(&x, p, 4); return x; }
    }
}

/* insn.sk2 of a load or store: what in->b is */
enum { LAYOUT_ID = 0, COLUMN_MAJOR_BOOL = 1 };

/* SPV_ARM_cooperative_matrix_layouts, RowBlockedInterleavedARM and
 * ColumnBlockedInterleavedARM.  The text: "Matrix elements are grouped in
 * blocks of 64 bytes.  Each block stores a sub-matrix of 4 rows and"
 * 16 / sizeof(Component Type) columns, "laid out in row-major order.
 * Blocks are laid out in row-major [column-major] order.  Blocks are
 * interleaved at a 4-byte granularity in groups whose size is given by the
 * 'Stride'".  Read as: block b (in that order) lies in group b / Stride;
 * within a group the Stride blocks' 4-byte words alternate, word w of the
 * group's j-th block at word w * Stride + j of the group; so byte o of
 * block b is at
 *   (b / S) * 64 * S + ((o / 4) * S + b % S) * 4 + o % 4
 * from the pointer (the text leaves that arrangement to be inferred; coopvm
 * documents this one).  The rules of the text: Stride 1, 2 or 4; Rows a
 * multiple of 4 (times Stride, column-blocked) and Columns of
 * 16 / sizeof (times Stride, row-blocked). */
static cvm_result arm_transfer(cvm_exec *ex, const cvm_insn *in, const cvm_type *t, uint8_t *mat,
                               uint64_t base, int64_t layout, int64_t stride, int store,
                               uint32_t lane)
{
    uint32_t es = ex->prog->types[t->elem].size;
    int rowblocked = layout == SpvCooperativeMatrixLayoutRowBlockedInterleavedARM;
    if (stride != 1 && stride != 2 && stride != 4)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "Stride %lld with a blocked interleaved layout (1, 2 or 4)",
                             (long long)stride);
    if (es > 16)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE, "%u-byte components", es);
    uint32_t bcols = 16 / es, S = (uint32_t)stride;
    if (t->rows % (rowblocked ? 4 : 4 * S) || t->cols % (rowblocked ? bcols * S : bcols))
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "a %ux%u matrix of %u-byte components in %s with Stride %u: rows "
                             "must be a multiple of %u and columns of %u",
                             t->rows, t->cols, es,
                             rowblocked ? "RowBlockedInterleavedARM" : "ColumnBlockedInterleavedARM",
                             S, rowblocked ? 4 : 4 * S, rowblocked ? bcols * S : bcols);
    uint64_t total = (uint64_t)t->rows * t->cols * es;
    int skip;
    uint8_t *mem = cvm_mem_access(ex, in, base, total, store, lane, &skip);
    if (!mem) {
        if (!skip)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        if (!store)
            memset(mat, 0, (size_t)total);
        return CVM_SUCCESS;
    }
    uint32_t brows = t->rows / 4, bcount_cols = t->cols / bcols;
    uint32_t piece = es < 4 ? es : 4; /* a component never straddles a word unless it is 8+ */
    for (uint32_t r = 0; r < t->rows; r++)
        for (uint32_t c = 0; c < t->cols; c++) {
            uint32_t b = rowblocked ? (r / 4) * bcount_cols + c / bcols
                                    : (c / bcols) * brows + r / 4;
            uint32_t o0 = ((r % 4) * bcols + c % bcols) * es;
            uint8_t *e = mat + ((size_t)r * t->cols + c) * es;
            for (uint32_t k = 0; k < es; k += piece) {
                uint32_t o = o0 + k;
                uint64_t at = (uint64_t)(b / S) * 64 * S + ((uint64_t)(o / 4) * S + b % S) * 4 + o % 4;
                if (store)
                    memcpy(mem + at, e + k, piece);
                else
                    memcpy(e + k, mem + at, piece);
            }
        }
    return CVM_SUCCESS;
}

/* Load/Store operands: a = pointer, b = layout id (or, sk2
 * COLUMN_MAJOR_BOOL, the NV ColumnMajor boolean), c = stride id (0 none),
 * d = element size of the pointer's pointee type (the stride unit),
 * ncomp = size of the stride's integer type, sk = matrix component kind. */
/* One column of a row-major matrix (elements `mat_step` bytes apart) to or
 * from `n` packed elements of `es` bytes at `mem`; the common element sizes
 * copy with their size known (no library call per element). */
#define COLUMN_LOOP(ES)                                                                \
    for (uint32_t k = 0; k < n; k++) {                                                 \
        if (store)                                                                     \
            memcpy(mem + (size_t)k * (ES), mat + (size_t)k * mat_step, ES);            \
        else                                                                           \
            memcpy(mat + (size_t)k * mat_step, mem + (size_t)k * (ES), ES);            \
    }

static void column_copy(uint8_t *mat, size_t mat_step, uint8_t *mem, uint32_t n, uint32_t es,
                        int store)
{
    switch (es) {
    case 1: COLUMN_LOOP(1) return;
    case 2: COLUMN_LOOP(2) return;
    case 4: COLUMN_LOOP(4) return;
    case 8: COLUMN_LOOP(8) return;
    default: COLUMN_LOOP(es) return;
    }
}

/* The matrix's rows (row-major) or columns (column-major) at once, when
 * every line lies in one accessible range of one region: one range check
 * instead of one per line, and a blocked transpose for a column-major
 * layout.  The per-line loop of matrix_transfer is the reference: it runs
 * instead (returns 0, nothing touched) when a line may be out of bounds,
 * under the reference paths, and for a store whose lines overlap (there the
 * order of the writes decides, and the transpose writes in another). */
static int whole_transfer(cvm_exec *ex, const cvm_type *t, uint64_t base, int64_t stride,
                          uint32_t unit, int rowmajor, uint32_t outer, uint32_t inner, uint32_t es,
                          int store, uint8_t *mat)
{
    uint64_t pitch, span;
    if ((ex->flags & CVM_FLAG_REFERENCE_PATHS) || outer == 0 || inner == 0 ||
        __builtin_mul_overflow((uint64_t)stride, (uint64_t)unit, &pitch) ||
        __builtin_mul_overflow(pitch, (uint64_t)(outer - 1), &span) ||
        __builtin_add_overflow(span, (uint64_t)inner * es, &span) ||
        span >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - CVM_ADDR_OFFSET(base))
        return 0;
    if (store && outer > 1 && pitch < (uint64_t)inner * es)
        return 0;
    uint8_t *mem = cvm_mem_peek(ex, base, span, store);
    if (!mem)
        return 0;
    size_t line = (size_t)inner * es, mat_ld = (size_t)t->cols * es;
    if (rowmajor) {
        uint8_t *dst = store ? mem : mat;
        const uint8_t *src = store ? mat : mem;
        size_t dst_ld = store ? (size_t)pitch : mat_ld, src_ld = store ? mat_ld : (size_t)pitch;
        cvm_rows_copy(dst, dst_ld, src, src_ld, outer, line);
    } else if (store) { /* column o of the matrix to line o of memory */
        cvm_transpose(mem, (size_t)pitch, mat, mat_ld, inner, outer, es);
    } else {
        cvm_transpose(mat, mat_ld, mem, (size_t)pitch, outer, inner, es);
    }
    return 1;
}

static cvm_result matrix_transfer(cvm_exec *ex, const cvm_insn *in, int store)
{
    const cvm_program *p = ex->prog;
    uint32_t mtype = in->type;
    const cvm_type *t = &p->types[mtype];
    uint32_t es = p->types[t->elem].size;
    if (!store && (in->flags & CVM_INSN_ALIAS) && in->nextra == 1)
        CVM_TRY(cvm_matrix_result_to_variable(ex, in, p->extra[in->extra], t->size));
    cvm_val m = ex->vals[store ? in->extra : in->result];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        uint32_t l = cvm_scope_first_active(ex, in, i), bad;
        /* the operands are lane l's: every active lane must hold the same
         * (exec.h, run-time rules) */
        int nv = in->sk2 == COLUMN_MAJOR_BOOL;
        const char *rule = nv ? "NV-CM1.Uniform-Operands" : "KHR-CM.Uniform-Operands";
        if ((bad = cvm_scope_pointer_differs(ex, in, i, in->a, l)) != UINT32_MAX)
            return cvm_fail_not_uniform(ex, in, rule, "Pointer", in->a, 8, i, l, bad);
        if ((bad = cvm_scope_lane_differs(ex, in, i, in->b, nv ? 1 : 4, l)) != UINT32_MAX)
            return cvm_fail_not_uniform(ex, in, rule, nv ? "ColumnMajor" : "MemoryLayout", in->b,
                                        nv ? 1 : 4, i, l, bad);
        if (in->c && (bad = cvm_scope_lane_differs(ex, in, i, in->c, in->ncomp, l)) != UINT32_MAX)
            return cvm_fail_not_uniform(ex, in, rule, "Stride", in->c, in->ncomp, i, l, bad);
        uint64_t base;
        memcpy(&base, CVM_LANE(ex->vals[in->a], l), 8);
        if (cvm_null_descriptor(ex, base))
            return cvm_fail_null_descriptor(ex, in, base, l);
        int64_t layout;
        if (in->sk2 == COLUMN_MAJOR_BOOL)
            layout = CVM_LANE(ex->vals[in->b], l)[0] ? SpvCooperativeMatrixLayoutColumnMajorKHR
                                                      : SpvCooperativeMatrixLayoutRowMajorKHR;
        else
            layout = lane_int(ex, in->b, l, 4);
        int64_t stride = in->c ? lane_int(ex, in->c, l, in->ncomp) : 0;
        if (layout == SpvCooperativeMatrixLayoutRowBlockedInterleavedARM ||
            layout == SpvCooperativeMatrixLayoutColumnBlockedInterleavedARM) {
            if (!spv_module_has_capability(p->mod, SpvCapabilityCooperativeMatrixLayoutsARM))
                return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                     "matrix layout %lld needs the CooperativeMatrixLayoutsARM "
                                     "capability",
                                     (long long)layout);
            cvm_result r = arm_transfer(ex, in, t, m.p + (size_t)i * m.stride, base, layout,
                                        stride, store, l);
            if (r != CVM_SUCCESS)
                return r;
            continue;
        }
        if (layout != SpvCooperativeMatrixLayoutRowMajorKHR &&
            layout != SpvCooperativeMatrixLayoutColumnMajorKHR)
            return cvm_exec_fail(ex, in, CVM_ERROR_UNSUPPORTED, "matrix layout %lld",
                                 (long long)layout);
        int rowmajor = layout == SpvCooperativeMatrixLayoutRowMajorKHR;
        uint32_t outer = rowmajor ? t->rows : t->cols, inner = rowmajor ? t->cols : t->rows;
        /* KHR: "'Stride' must be greater than 0 when passed to
         * OpCooperativeMatrixStoreKHR and must be greater than or equal to 0
         * when passed to OpCooperativeMatrixLoadKHR".  A store of a single
         * row (column) addresses only Pointer[0 * Stride]: no address
         * depends on Stride, so a 0 there changes nothing and is stored
         * (the Vulkan CTS's multicomponent store to workgroup memory passes
         * N * 8 / 4 / 4 = 0 for N = 1).  The NV text puts no bound on Stride
         * (its type is any integer): a 0 there stores every row at the same
         * place, in order, so the last row stays. */
        if (stride < 0 ||
            (store && stride == 0 && outer > 1 && in->sk2 != COLUMN_MAJOR_BOOL))
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "stride %lld is not allowed for a %s of %u %s", (long long)stride,
                                 store ? "store" : "load", outer, rowmajor ? "rows" : "columns");
        uint8_t *mat = m.p + (size_t)i * m.stride;
        if (whole_transfer(ex, t, base, stride, in->d, rowmajor, outer, inner, es, store, mat))
            continue;
        for (uint32_t o = 0; o < outer; o++) {
            /* Pointer[row * (uint64_t)Stride]: 64-bit (Vulkan's 64-bit
             * indexing asks for it; without, the product must not wrap 32
             * bits); an offset past the region's 40 bits stays in the
             * region, at an address no access accepts */
            uint64_t step, addr;
            if (__builtin_mul_overflow((uint64_t)o, (uint64_t)stride, &step) ||
                __builtin_mul_overflow(step, (uint64_t)in->d, &step) ||
                step >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - CVM_ADDR_OFFSET(base))
                addr = CVM_ADDR(CVM_ADDR_REGION(base), (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1);
            else
                addr = base + step;
            int skip;
            uint8_t *mem = cvm_mem_access(ex, in, addr, (uint64_t)inner * es, store, l, &skip);
            if (!mem) {
                if (!skip)
                    return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
                if (!store) {
                    for (uint32_t k = 0; k < inner; k++) {
                        uint32_t r = rowmajor ? o : k, c = rowmajor ? k : o;
                        memset(mat + ((size_t)r * t->cols + c) * es, 0, es);
                    }
                }
                continue;
            }
            if (rowmajor) {
                if (store)
                    memcpy(mem, mat + (size_t)o * t->cols * es, (size_t)inner * es);
                else
                    memcpy(mat + (size_t)o * t->cols * es, mem, (size_t)inner * es);
            } else {
                column_copy(mat + (size_t)o * es, (size_t)t->cols * es, mem, inner, es, store);
            }
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_load(cvm_exec *ex, const cvm_insn *in)
{
    return matrix_transfer(ex, in, 0);
}

static cvm_result h_store(cvm_exec *ex, const cvm_insn *in)
{
    return matrix_transfer(ex, in, 1);
}

/* A MulAdd instruction's descriptor without its operands, and the kernel
 * variant chosen for it: the same at every call of the instruction in a
 * group (shape, kinds, signedness, the group's numerics mode), so made at
 * its first (cvm_exec.mm_plans, one entry per instruction). */
typedef struct muladd_prep {
    cvm_muladd_desc d;
    cvm_muladd_plan plan;
    uint32_t ready;
} muladd_prep;

static void muladd_describe(const cvm_exec *ex, const cvm_insn *in, muladd_prep *mp)
{
    const cvm_program *p = ex->prog;
    const cvm_type *ta = &p->types[p->mod->defs[in->a].type];
    const cvm_type *tb = &p->types[p->mod->defs[in->b].type];
    const cvm_type *tc = &p->types[p->mod->defs[in->c].type];
    const cvm_type *tr = &p->types[in->type];
    uint32_t ops = in->d;
    cvm_muladd_desc *d = &mp->d;
    memset(d, 0, sizeof(*d));
    d->m = tr->rows;
    d->n = tr->cols;
    d->k = ta->cols;
    d->a_kind = (cvm_scalar_kind)ta->sk;
    d->b_kind = (cvm_scalar_kind)tb->sk;
    d->c_kind = (cvm_scalar_kind)tc->sk;
    d->r_kind = (cvm_scalar_kind)tr->sk;
    d->a_signed = (ops & SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask) != 0;
    d->b_signed = (ops & SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask) != 0;
    d->c_signed = (ops & SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask) != 0;
    d->r_signed = (ops & SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask) != 0;
    d->saturate = (ops & SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask) != 0;
    d->mode = (ex->flags & CVM_FLAG_PRECISE)      ? CVM_MULADD_PRECISE
              : (ex->flags & CVM_FLAG_BF16_PAIRS) ? CVM_MULADD_BF16_PAIRS
                                                  : CVM_MULADD_F32;
    mp->plan = cvm_muladd_plan_for(d);
    mp->ready = 1;
}

/* MulAdd: a, b, c matrices; d = Cooperative Matrix Operands mask. */
static cvm_result h_muladd(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    if ((in->flags & CVM_INSN_ALIAS) && in->nextra == 1)
        CVM_TRY(cvm_matrix_result_to_variable(ex, in, p->extra[in->extra], p->types[in->type].size));
    if (!ex->mm_plans)
        ex->mm_plans = cvm_calloc(p->ninsns ? p->ninsns : 1, sizeof(muladd_prep));
    muladd_prep local, *mp = ex->mm_plans ? (muladd_prep *)ex->mm_plans + (in - p->insns) : &local;
    if (mp == &local || !mp->ready)
        muladd_describe(ex, in, mp);
    /* The kernel's packed operands go in the handlers' scratch memory,
     * grown once to the largest MulAdd: no allocation per call. */
    if (mp->plan.work_size > ex->scratch_size) {
        uint8_t *ns = cvm_realloc(ex->scratch, mp->plan.work_size);
        if (ns) {
            ex->scratch = ns;
            ex->scratch_size = mp->plan.work_size;
        }
    }
    cvm_val va = ex->vals[in->a], vb = ex->vals[in->b], vc = ex->vals[in->c], vr = ex->vals[in->result];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        cvm_muladd_desc d = mp->d;
        d.work = ex->scratch;
        d.work_size = ex->scratch_size;
        d.a = va.p + (size_t)i * va.stride;
        d.b = vb.p + (size_t)i * vb.stride;
        d.c = vc.p + (size_t)i * vc.stride;
        d.r = vr.p + (size_t)i * vr.stride;
        cvm_muladd_planned(&d, &mp->plan);
    }
    return CVM_SUCCESS;
}

static uint32_t pointee_size(cvm_lower *lw, uint32_t ptr_id)
{
    const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, ptr_id));
    const cvm_type *e = cvm_lower_type(lw, pt->elem);
    /* A pointer to an array counts elements of the array's element type. */
    while (e->tclass == CVM_TC_ARRAY)
        e = cvm_lower_type(lw, e->elem);
    return e->mem_size;
}

/* The NV load/store operands: Stride an integer, ColumnMajor "a boolean
 * constant instruction". */
static cvm_result check_nv_operands(cvm_lower *lw, const spv_inst *in, uint32_t stride,
                                    uint32_t column_major)
{
    CVM_TRY(cvm_lower_int_scalar(lw, in, stride, "Stride", NULL));
    uint64_t v;
    if (cvm_lower_type(lw, cvm_lower_type_of(lw, column_major))->tclass != CVM_TC_BOOL ||
        !cvm_lower_const_u64(lw, column_major, &v))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "ColumnMajor must be a boolean constant");
    return CVM_SUCCESS;
}

/* The KHR load/store operands the handler reads: MemoryLayout "from a
 * 32-bit integer constant instruction" (read as 4 bytes), Stride "a scalar
 * integer type" (read at its width, *o_stride_width; 4 when absent). */
static cvm_result check_khr_operands(cvm_lower *lw, const spv_inst *in, uint32_t layout,
                                     uint32_t stride, uint32_t *o_stride_width)
{
    uint32_t lw_width;
    CVM_TRY(cvm_lower_int_scalar(lw, in, layout, "MemoryLayout", &lw_width));
    if (lw_width != 4)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "MemoryLayout %%%u is a %u-bit integer where a 32-bit one is needed",
                              layout, lw_width * 8);
    *o_stride_width = 4;
    return stride ? cvm_lower_int_scalar(lw, in, stride, "Stride", o_stride_width) : CVM_SUCCESS;
}

/* CVM_INSN_ALIAS (cvm_matrix_result_to_variable) where the result is named
 * only by the store that follows it (cvm_lower_result_to_variable). */
static void alias_to_variable(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    uint32_t var, at;
    if (cvm_lower_result_to_variable(cvm_lower_program(lw), in, &var) &&
        (at = cvm_lower_extra(lw, &var, 1)) != UINT32_MAX) {
        out->flags |= CVM_INSN_ALIAS;
        out->extra = at;
        out->nextra = 1;
    }
}

cvm_result cvm_lower_coopmat(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    switch (in->opcode) {
    case SpvOpCooperativeMatrixLoadKHR: {
        const cvm_type *t = cvm_lower_type(lw, w[1]);
        if (t->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "result is not a cooperative matrix");
        out->a = w[3];
        out->b = w[4];
        out->c = in->word_count > 5 ? w[5] : 0;
        CVM_TRY(check_khr_operands(lw, in, out->b, out->c, &out->ncomp));
        out->d = pointee_size(lw, w[3]);
        out->type = w[1];
        out->flags = scope_flags(t);
        out->fn = h_load;
        alias_to_variable(lw, in, out);
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeMatrixStoreKHR: {
        uint32_t mt = cvm_lower_type_of(lw, w[2]);
        const cvm_type *t = cvm_lower_type(lw, mt);
        if (t->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "object is not a cooperative matrix");
        out->a = w[1];
        out->extra = w[2]; /* the stored matrix (an id, not an extra index) */
        out->b = w[3];
        out->c = in->word_count > 4 ? w[4] : 0;
        CVM_TRY(check_khr_operands(lw, in, out->b, out->c, &out->ncomp));
        out->d = pointee_size(lw, w[1]);
        out->type = mt;
        out->result = 0;
        out->flags = scope_flags(t);
        out->fn = h_store;
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeMatrixLoadNV: {
        /* Result Type, Result, Pointer, Stride, ColumnMajor, [Memory Access] */
        const cvm_type *t = cvm_lower_type(lw, w[1]);
        if (in->word_count < 6)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
        if (t->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "result is not a cooperative matrix");
        CVM_TRY(check_nv_operands(lw, in, w[4], w[5]));
        out->a = w[3];
        out->b = w[5];
        out->sk2 = COLUMN_MAJOR_BOOL;
        out->c = w[4];
        out->ncomp = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]))->size;
        out->d = pointee_size(lw, w[3]);
        out->type = w[1];
        out->flags = scope_flags(t);
        out->fn = h_load;
        alias_to_variable(lw, in, out);
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeMatrixStoreNV: {
        /* Pointer, Object, Stride, ColumnMajor, [Memory Access] */
        if (in->word_count < 5)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
        uint32_t mt = cvm_lower_type_of(lw, w[2]);
        const cvm_type *t = cvm_lower_type(lw, mt);
        if (t->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "object is not a cooperative matrix");
        CVM_TRY(check_nv_operands(lw, in, w[3], w[4]));
        out->a = w[1];
        out->extra = w[2]; /* the stored matrix (an id, not an extra index) */
        out->b = w[4];
        out->sk2 = COLUMN_MAJOR_BOOL;
        out->c = w[3];
        out->ncomp = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]))->size;
        out->d = pointee_size(lw, w[1]);
        out->type = mt;
        out->result = 0;
        out->flags = scope_flags(t);
        out->fn = h_store;
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeMatrixMulAddKHR:
    case SpvOpCooperativeMatrixMulAddNV: {
        const cvm_type *tr = cvm_lower_type(lw, w[1]);
        const cvm_type *ta = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        const cvm_type *tb = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]));
        const cvm_type *tc = cvm_lower_type(lw, cvm_lower_type_of(lw, w[5]));
        if (tr->tclass != CVM_TC_COOPMAT || ta->tclass != CVM_TC_COOPMAT ||
            tb->tclass != CVM_TC_COOPMAT || tc->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "operands must be cooperative matrices");
        if (ta->rows != tr->rows || tb->cols != tr->cols || ta->cols != tb->rows ||
            tc->rows != tr->rows || tc->cols != tr->cols)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "shapes %ux%u * %ux%u + %ux%u -> %ux%u do not agree", ta->rows,
                                  ta->cols, tb->rows, tb->cols, tc->rows, tc->cols, tr->rows, tr->cols);
        if (ta->scope != tr->scope || tb->scope != tr->scope || tc->scope != tr->scope)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "operands of different scopes");
        out->a = w[3];
        out->b = w[4];
        out->c = w[5];
        out->d = in->word_count > 6 ? w[6] : 0;
        if (in->opcode == SpvOpCooperativeMatrixMulAddNV) {
            /* "If the 'Component Type' of any matrix operand is an integer
             * type, then its components are treated as signed if its
             * 'Component Type' has 'Signedness' of 1": the KHR operands
             * that say the same. */
            out->d = (cvm_sk_is_signed_int((cvm_scalar_kind)ta->sk)
                          ? SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask : 0) |
                     (cvm_sk_is_signed_int((cvm_scalar_kind)tb->sk)
                          ? SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask : 0) |
                     (cvm_sk_is_signed_int((cvm_scalar_kind)tc->sk)
                          ? SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask : 0) |
                     (cvm_sk_is_signed_int((cvm_scalar_kind)tr->sk)
                          ? SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask : 0);
        }
        out->type = w[1];
        out->flags = scope_flags(tr);
        out->fn = h_muladd;
        alias_to_variable(lw, in, out);
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
