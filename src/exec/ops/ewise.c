/* Element-wise drivers. */
#include "exec/ops/ewise.h"

static cvm_result ew_run(cvm_exec *ex, const cvm_insn *in, cvm_ew_kernel k, int elementwise)
{
    cvm_val r = ex->vals[in->result];
    cvm_val a = ex->vals[in->a];
    cvm_val b = in->b ? ex->vals[in->b] : a;
    cvm_val c = in->c ? ex->vals[in->c] : a;
    if (!(in->flags & CVM_INSN_PER_INSTANCE)) {
        /* All lanes active and every operand either dense (one value after
         * the other) or one scalar for all lanes: one kernel call over all
         * lanes' components. */
        if (elementwise && ex->nlanes > 1 && !(ex->flags & CVM_FLAG_REFERENCE_PATHS) &&
            (ex->nactive == ex->nlanes || ex->nactive * 4 >= ex->nlanes)) {
            const cvm_type *rt = &ex->prog->types[in->type];
            uint32_t rsize = rt->size;
            int ok = r.stride == rsize && rsize != 0;
            cvm_insn flat = *in;
            const cvm_val *ops[3] = {&a, &b, &c};
            const uint32_t ids[3] = {in->a, in->b, in->c};
            /* scratch: the result's slots first (when lanes are inactive),
             * then the operands expanded below */
            size_t used = ex->nactive == ex->nlanes ? 0 : (size_t)rsize * ex->nlanes;
            uint8_t *p[3] = {a.p, b.p, c.p};
            for (int oi = 0; oi < 3 && ok; oi++) {
                if (!ids[oi])
                    continue;
                uint8_t bit = (uint8_t)(CVM_EW_A_BCAST << oi);
                uint32_t osize = ex->prog->types[ex->prog->mod->defs[ids[oi]].type].size;
                if (ops[oi]->stride == 0) {
                    if (in->ncomp == 1 || (in->flags & bit))
                        flat.flags |= bit;
                    else
                        ok = 0;
                } else if (in->flags & bit) {
                    /* a per-lane scalar broadcast over components (a vector
                     * times a scalar of its own lane): expanded into scratch,
                     * ncomp copies a lane, so that the kernel reads it as a
                     * dense vector; inactive lanes' stale scalars are copied
                     * too (their results are not kept) */
                    size_t need = (size_t)osize * in->ncomp * ex->nlanes;
                    if (used + need > ex->scratch_size) {
                        ok = 0;
                        break;
                    }
                    uint8_t *e = ex->scratch + used;
                    const uint8_t *src = ops[oi]->p;
                    uint32_t st = ops[oi]->stride;
                    switch (osize) {
#define EXPAND_LOOP(T)                                                                     \
    for (uint32_t l = 0; l < ex->nlanes; l++) {                                            \
        T v;                                                                               \
        memcpy(&v, src + (size_t)l * st, sizeof(T));                                       \
        for (uint32_t q = 0; q < in->ncomp; q++)                                           \
            memcpy(e + ((size_t)l * in->ncomp + q) * sizeof(T), &v, sizeof(T));            \
    }
                    case 1: EXPAND_LOOP(uint8_t) break;
                    case 2: EXPAND_LOOP(uint16_t) break;
                    case 4: EXPAND_LOOP(uint32_t) break;
                    case 8: EXPAND_LOOP(uint64_t) break;
#undef EXPAND_LOOP
                    default: ok = 0; break;
                    }
                    p[oi] = e;
                    used += need;
                    flat.flags &= (uint8_t)~bit;
                }
                /* a dense operand: its stride must equal its value size */
                else if (ops[oi]->stride != osize) {
                    ok = 0;
                }
            }
            if (ok && ex->nactive == ex->nlanes) {
                k(&flat, r.p, p[0], p[1], p[2], in->ncomp * ex->nlanes);
                return CVM_SUCCESS;
            }
            /* Some lanes inactive: all lanes computed into scratch (the
             * kernels are total: an inactive lane's stale operands give a
             * value nobody reads), the active lanes' results copied.  Kernels
             * have no side effects, so this equals the per-lane loop below. */
            if (ok && (size_t)rsize * ex->nlanes <= ex->scratch_size) {
                uint8_t *tmp = ex->scratch;
                a.p = p[0];
                b.p = p[1];
                c.p = p[2];
                k(&flat, tmp, a.p, b.p, c.p, in->ncomp * ex->nlanes);
                const uint8_t *act = ex->active;
                uint32_t n = ex->nlanes;
                /* blended without branches (an inactive lane's slot is
                 * written its own value): which lanes are active follows
                 * the data, and a branch per lane mispredicts */
                switch (rsize) {
                case 1:
                    for (uint32_t l = 0; l < n; l++) {
                        uint8_t m = (uint8_t)-(act[l] != 0);
                        r.p[l] = (uint8_t)((tmp[l] & m) | (r.p[l] & (uint8_t)~m));
                    }
                    break;
#define BLEND_LOOP(T)                                                                      \
    for (uint32_t l = 0; l < n; l++) {                                                     \
        T m = -(T)(act[l] != 0), x, y;                                                     \
        memcpy(&x, tmp + (size_t)l * sizeof(T), sizeof(T));                               \
        memcpy(&y, r.p + (size_t)l * sizeof(T), sizeof(T));                               \
        y = (x & m) | (y & ~m);                                                            \
        memcpy(r.p + (size_t)l * sizeof(T), &y, sizeof(T));                               \
    }
                case 4: BLEND_LOOP(uint32_t) break;
                case 8: BLEND_LOOP(uint64_t) break;
#undef BLEND_LOOP
                default:
                    for (uint32_t l = 0; l < n; l++)
                        if (act[l])
                            memcpy(r.p + (size_t)l * rsize, tmp + (size_t)l * rsize, rsize);
                    break;
                }
                return CVM_SUCCESS;
            }
        }
        CVM_FOR_ACTIVE(ex, l)
            k(in, CVM_LANE(r, l), CVM_LANE(a, l), CVM_LANE(b, l), CVM_LANE(c, l), in->ncomp);
        return CVM_SUCCESS;
    }
    uint32_t ninst = cvm_scope_instances(ex, in);
    for (uint32_t i = 0; i < ninst; i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        uint32_t fl = cvm_scope_first_active(ex, in, i);
        /* KHR 3.42.13: OpMatrixTimesScalar's operands "must be dynamically
         * uniform within every instance of the 'Scope'" (the scalar: the
         * matrix is one value of the instance) */
        if (in->spv_op == SpvOpMatrixTimesScalar && (in->flags & CVM_EW_B_BCAST)) {
            uint32_t es = ex->prog->types[ex->prog->types[in->type].elem].size;
            uint32_t bad = cvm_scope_lane_differs(ex, in, i, in->b, es, fl);
            if (bad != UINT32_MAX)
                return cvm_fail_not_uniform(ex, in, "KHR-CM.Uniform-Operands", "Scalar", in->b,
                                            es, i, fl, bad);
        }
        /* matrices: instance i; broadcast scalars: the first active lane */
        const uint8_t *pa = (in->flags & CVM_EW_A_BCAST) ? CVM_LANE(a, fl) : a.p + (size_t)i * a.stride;
        const uint8_t *pb = (in->flags & CVM_EW_B_BCAST) ? CVM_LANE(b, fl) : b.p + (size_t)i * b.stride;
        const uint8_t *pc = (in->flags & CVM_EW_C_BCAST) ? CVM_LANE(c, fl) : c.p + (size_t)i * c.stride;
        k(in, r.p + (size_t)i * r.stride, pa, pb, pc, in->ncomp);
    }
    return CVM_SUCCESS;
}

cvm_result cvm_ew_run(cvm_exec *ex, const cvm_insn *in, cvm_ew_kernel k)
{
    return ew_run(ex, in, k, 0);
}

cvm_result cvm_ew_run_elementwise(cvm_exec *ex, const cvm_insn *in, cvm_ew_kernel k)
{
    return ew_run(ex, in, k, 1);
}

cvm_result cvm_ew_shape(cvm_lower *lw, const spv_inst *inst, cvm_insn *out, uint32_t result_type,
                        const uint32_t *ids, uint32_t n)
{
    const cvm_type *rt = cvm_lower_type(lw, result_type);
    uint32_t ncomp = 1;
    if (rt->tclass == CVM_TC_VECTOR)
        ncomp = rt->count;
    else if (rt->tclass == CVM_TC_COOPMAT) {
        ncomp = rt->rows * rt->cols;
        out->flags |= CVM_INSN_PER_INSTANCE;
        if (rt->scope == SpvScopeWorkgroup)
            out->flags |= CVM_INSN_WORKGROUP_SCOPE;
    } else if (rt->tclass != CVM_TC_INT && rt->tclass != CVM_TC_FLOAT && rt->tclass != CVM_TC_BOOL)
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED, "element-wise operation on this type");
    out->ncomp = ncomp;
    for (uint32_t i = 0; i < n && i < 3; i++) {
        const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, ids[i]));
        /* a matrix operand is one value of its scope instance, read as
         * such only by a matrix result of the same scope and shape; any
         * other operand is a scalar or vector, read per invocation */
        if (t->tclass == CVM_TC_COOPMAT
                ? rt->tclass != CVM_TC_COOPMAT || t->scope != rt->scope || t->rows != rt->rows ||
                      t->cols != rt->cols
                : t->tclass != CVM_TC_VECTOR && t->tclass != CVM_TC_INT &&
                      t->tclass != CVM_TC_FLOAT && t->tclass != CVM_TC_BOOL)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  t->tclass == CVM_TC_COOPMAT
                                      ? "operand %u is a cooperative matrix, the result is not "
                                        "one of its scope and shape"
                                      : "operand %u is not a scalar, vector or cooperative matrix",
                                  i);
        uint32_t tn = t->tclass == CVM_TC_VECTOR ? t->count
                      : t->tclass == CVM_TC_COOPMAT ? t->rows * t->cols
                                                   : 1;
        if (tn != ncomp) {
            if (tn != 1)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "operand %u has %u components, the result %u", i, tn, ncomp);
            out->flags |= (uint8_t)(CVM_EW_A_BCAST << i);
        } else if ((out->flags & CVM_INSN_PER_INSTANCE) && t->tclass != CVM_TC_COOPMAT) {
            out->flags |= (uint8_t)(CVM_EW_A_BCAST << i); /* 1x1 matrix times scalar */
        }
    }
    return CVM_SUCCESS;
}
