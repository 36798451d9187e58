/* SPV_KHR_cooperative_matrix: OpCooperativeMatrixLoadKHR, StoreKHR and
 * MulAddKHR (Length, element access, arithmetic and conversions live with
 * their families: composite.c, arith.c, convert.c).
 *
 * Each runs once per scope instance (subgroup, or the workgroup for
 * Workgroup-scope matrices) after checking that every live invocation of the
 * instance is active (else CVM_ERROR_DIVERGENT_COLLECTIVE).  Pointer, stride
 * and other non-matrix operands are taken from the instance's first active
 * invocation: the texts require them to be the same for all. */
#include <string.h>

#include "exec/kernels/matmul.h"
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

/* Load/Store operands: a = pointer, b = layout id, c = stride id (0 none),
 * d = element size of the pointer's pointee type (the stride unit),
 * ncomp = size of the stride's integer type, sk = matrix component kind. */
static cvm_result matrix_transfer(cvm_exec *ex, const cvm_insn *in, int store)
{
    const cvm_program *p = ex->prog;
    uint32_t mtype = in->type;
    const cvm_type *t = &p->types[mtype];
    uint32_t es = p->types[t->elem].size;
    cvm_val m = ex->vals[store ? in->extra : in->result];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        uint32_t l = cvm_scope_first_active(ex, in, i);
        uint64_t base;
        memcpy(&base, CVM_LANE(ex->vals[in->a], l), 8);
        int64_t layout = lane_int(ex, in->b, l, 4);
        int64_t stride = in->c ? lane_int(ex, in->c, l, in->ncomp) : 0;
        if (layout != SpvCooperativeMatrixLayoutRowMajorKHR &&
            layout != SpvCooperativeMatrixLayoutColumnMajorKHR)
            return cvm_exec_fail(ex, in, CVM_ERROR_UNSUPPORTED, "matrix layout %lld",
                                 (long long)layout);
        if (stride < 0 || (store && stride == 0))
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "stride %lld is not allowed for a %s", (long long)stride,
                                 store ? "store" : "load");
        int rowmajor = layout == SpvCooperativeMatrixLayoutRowMajorKHR;
        uint32_t outer = rowmajor ? t->rows : t->cols, inner = rowmajor ? t->cols : t->rows;
        uint8_t *mat = m.p + (size_t)i * m.stride;
        for (uint32_t o = 0; o < outer; o++) {
            uint64_t addr = base + (uint64_t)o * (uint64_t)stride * in->d;
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
                for (uint32_t k = 0; k < inner; k++) {
                    uint8_t *e = mat + ((size_t)k * t->cols + o) * es;
                    if (store)
                        memcpy(mem + (size_t)k * es, e, es);
                    else
                        memcpy(e, mem + (size_t)k * es, es);
                }
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

/* MulAdd: a, b, c matrices; d = Cooperative Matrix Operands mask. */
static cvm_result h_muladd(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *ta = &p->types[p->mod->defs[in->a].type];
    const cvm_type *tb = &p->types[p->mod->defs[in->b].type];
    const cvm_type *tc = &p->types[p->mod->defs[in->c].type];
    const cvm_type *tr = &p->types[in->type];
    cvm_val va = ex->vals[in->a], vb = ex->vals[in->b], vc = ex->vals[in->c], vr = ex->vals[in->result];
    uint32_t ops = in->d;
    cvm_muladd_mode mode = (ex->flags & CVM_FLAG_PRECISE)      ? CVM_MULADD_PRECISE
                           : (ex->flags & CVM_FLAG_BF16_PAIRS) ? CVM_MULADD_BF16_PAIRS
                                                               : CVM_MULADD_F32;
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        cvm_muladd_desc d;
        memset(&d, 0, sizeof(d));
        d.m = tr->rows;
        d.n = tr->cols;
        d.k = ta->cols;
        d.a_kind = (cvm_scalar_kind)ta->sk;
        d.b_kind = (cvm_scalar_kind)tb->sk;
        d.c_kind = (cvm_scalar_kind)tc->sk;
        d.r_kind = (cvm_scalar_kind)tr->sk;
        d.a_signed = (ops & SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask) != 0;
        d.b_signed = (ops & SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask) != 0;
        d.c_signed = (ops & SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask) != 0;
        d.r_signed = (ops & SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask) != 0;
        d.saturate = (ops & SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask) != 0;
        d.mode = mode;
        /* The kernel's packed operands go in the handlers' scratch memory,
         * grown once to the largest MulAdd: no allocation per call. */
        size_t need = cvm_muladd_work_size(&d);
        if (need > ex->scratch_size) {
            uint8_t *ns = cvm_realloc(ex->scratch, need);
            if (ns) {
                ex->scratch = ns;
                ex->scratch_size = need;
            }
        }
        d.work = ex->scratch;
        d.work_size = ex->scratch_size;
        d.a = va.p + (size_t)i * va.stride;
        d.b = vb.p + (size_t)i * vb.stride;
        d.c = vc.p + (size_t)i * vc.stride;
        d.r = vr.p + (size_t)i * vr.stride;
        cvm_muladd(&d);
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
        out->ncomp = out->c ? cvm_lower_type(lw, cvm_lower_type_of(lw, out->c))->size : 4;
        out->d = pointee_size(lw, w[3]);
        out->type = w[1];
        out->flags = scope_flags(t);
        out->fn = h_load;
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
        out->ncomp = out->c ? cvm_lower_type(lw, cvm_lower_type_of(lw, out->c))->size : 4;
        out->d = pointee_size(lw, w[1]);
        out->type = mt;
        out->result = 0;
        out->flags = scope_flags(t);
        out->fn = h_store;
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeMatrixMulAddKHR: {
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
        out->type = w[1];
        out->flags = scope_flags(tr);
        out->fn = h_muladd;
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
