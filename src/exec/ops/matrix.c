/* OpTypeMatrix arithmetic: OpMatrixTimesVector, OpVectorTimesMatrix,
 * OpMatrixTimesMatrix, OpOuterProduct, OpTranspose (OpMatrixTimesScalar is
 * element-wise, in arith.c).
 *
 * A matrix value in registers is its columns one after the other, each a
 * packed vector: component (row i, column c) of an R-row matrix is element
 * c * R + i.  Every result component that is a sum of products is computed
 * as OpDot computes one (arith.c): the products and their sum in double,
 * rounded once to the component type, so the result does not depend on an
 * order of additions the texts leave open. */
#include "exec/program.h"

/* insn fields: a, b operands; c = R (rows of the result, or of the first
 * operand for OpVectorTimesMatrix), d = C (columns of the result, or its
 * components), ncomp = K (the summed dimension); sk the component kind. */

static double at(cvm_scalar_kind k, const uint8_t *p, uint32_t index)
{
    return cvm_load_as_f64(k, p + (size_t)index * cvm_sk_size(k));
}

static void put(cvm_scalar_kind k, uint8_t *p, uint32_t index, double v)
{
    cvm_store_from_f64(k, p + (size_t)index * cvm_sk_size(k), v, 0);
}

/* result vecR = M (R x K) * v (K): r[i] = sum_k M[k][i] v[k] */
static cvm_result h_matrix_times_vector(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], m = ex->vals[in->a], v = ex->vals[in->b];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    uint32_t R = in->c, K = in->ncomp;
    CVM_FOR_ACTIVE(ex, l) {
        const uint8_t *pm = CVM_LANE(m, l), *pv = CVM_LANE(v, l);
        uint8_t *pr = CVM_LANE(r, l);
        double s[4];
        for (uint32_t i = 0; i < R; i++) {
            s[i] = 0;
            for (uint32_t q = 0; q < K; q++)
                s[i] += at(k, pm, q * R + i) * at(k, pv, q);
        }
        for (uint32_t i = 0; i < R; i++) /* after all reads: r may alias an operand */
            put(k, pr, i, s[i]);
    }
    return CVM_SUCCESS;
}

/* result vecC = v (K) * M (K x C): r[c] = sum_k v[k] M[c][k] */
static cvm_result h_vector_times_matrix(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], v = ex->vals[in->a], m = ex->vals[in->b];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    uint32_t C = in->d, K = in->ncomp;
    CVM_FOR_ACTIVE(ex, l) {
        const uint8_t *pm = CVM_LANE(m, l), *pv = CVM_LANE(v, l);
        uint8_t *pr = CVM_LANE(r, l);
        double s[4];
        for (uint32_t c = 0; c < C; c++) {
            s[c] = 0;
            for (uint32_t q = 0; q < K; q++)
                s[c] += at(k, pv, q) * at(k, pm, c * K + q);
        }
        for (uint32_t c = 0; c < C; c++)
            put(k, pr, c, s[c]);
    }
    return CVM_SUCCESS;
}

/* result (R x C) = A (R x K) * B (K x C): r[c][i] = sum_k A[k][i] B[c][k] */
static cvm_result h_matrix_times_matrix(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    uint32_t R = in->c, C = in->d, K = in->ncomp;
    CVM_FOR_ACTIVE(ex, l) {
        const uint8_t *pa = CVM_LANE(a, l), *pb = CVM_LANE(b, l);
        uint8_t *pr = CVM_LANE(r, l);
        double s[16];
        for (uint32_t c = 0; c < C; c++)
            for (uint32_t i = 0; i < R; i++) {
                double x = 0;
                for (uint32_t q = 0; q < K; q++)
                    x += at(k, pa, q * R + i) * at(k, pb, c * K + q);
                s[c * R + i] = x;
            }
        for (uint32_t e = 0; e < R * C; e++)
            put(k, pr, e, s[e]);
    }
    return CVM_SUCCESS;
}

/* result (R x C) = a (R) outer b (C): r[c][i] = a[i] b[c] */
static cvm_result h_outer_product(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    uint32_t R = in->c, C = in->d;
    CVM_FOR_ACTIVE(ex, l) {
        const uint8_t *pa = CVM_LANE(a, l), *pb = CVM_LANE(b, l);
        double s[16];
        for (uint32_t c = 0; c < C; c++)
            for (uint32_t i = 0; i < R; i++)
                s[c * R + i] = at(k, pa, i) * at(k, pb, c);
        for (uint32_t e = 0; e < R * C; e++)
            put(k, CVM_LANE(r, l), e, s[e]);
    }
    return CVM_SUCCESS;
}

/* result (R x C) = transpose of M (C x R): r[c][i] = M[i][c], bits unchanged */
static cvm_result h_transpose(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], m = ex->vals[in->a];
    uint32_t R = in->c, C = in->d, es = cvm_sk_size((cvm_scalar_kind)in->sk);
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t tmp[16 * 8];
        const uint8_t *pm = CVM_LANE(m, l);
        for (uint32_t c = 0; c < C; c++)
            for (uint32_t i = 0; i < R; i++)
                memcpy(tmp + (size_t)(c * R + i) * es, pm + (size_t)(i * C + c) * es, es);
        memcpy(CVM_LANE(r, l), tmp, (size_t)R * C * es);
    }
    return CVM_SUCCESS;
}

/* Rows (components of a column) and columns of a matrix type, 0 when it is
 * not one. */
static int matrix_shape(cvm_lower *lw, uint32_t type_id, uint32_t *o_rows, uint32_t *o_cols,
                        uint8_t *o_sk)
{
    const cvm_type *t = cvm_lower_type(lw, type_id);
    if (t->tclass != CVM_TC_MATRIX)
        return 0;
    const cvm_type *col = cvm_lower_type(lw, t->elem);
    if (col->tclass != CVM_TC_VECTOR)
        return 0;
    *o_rows = col->count;
    *o_cols = t->count;
    *o_sk = t->sk;
    return 1;
}

static int vector_shape(cvm_lower *lw, uint32_t type_id, uint32_t *o_n, uint8_t *o_sk)
{
    const cvm_type *t = cvm_lower_type(lw, type_id);
    if (t->tclass != CVM_TC_VECTOR)
        return 0;
    *o_n = t->count;
    *o_sk = t->sk;
    return 1;
}

cvm_result cvm_lower_matrix(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    uint32_t op = in->opcode;
    if (op != SpvOpMatrixTimesVector && op != SpvOpVectorTimesMatrix &&
        op != SpvOpMatrixTimesMatrix && op != SpvOpOuterProduct && op != SpvOpTranspose)
        return CVM_ERROR_NOT_FOUND;
    if (in->word_count < (op == SpvOpTranspose ? 4u : 5u))
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
    uint32_t ta = cvm_lower_type_of(lw, w[3]);
    uint32_t tb = op == SpvOpTranspose ? 0 : cvm_lower_type_of(lw, w[4]);
    uint32_t rr = 0, rc = 0, ar = 0, ac = 0, br = 0, bc = 0, n = 0;
    uint8_t rsk = 0, ask = 0, bsk = 0;
    int ok = 0;
    out->a = w[3];
    out->b = op == SpvOpTranspose ? 0 : w[4];
    switch (op) {
    case SpvOpMatrixTimesVector: /* vecR = (R x K) * vecK */
        ok = vector_shape(lw, w[1], &rr, &rsk) && matrix_shape(lw, ta, &ar, &ac, &ask) &&
             vector_shape(lw, tb, &n, &bsk) && ar == rr && ac == n;
        out->c = rr;
        out->ncomp = n;
        out->fn = h_matrix_times_vector;
        break;
    case SpvOpVectorTimesMatrix: /* vecC = vecK * (K x C) */
        ok = vector_shape(lw, w[1], &rc, &rsk) && vector_shape(lw, ta, &n, &ask) &&
             matrix_shape(lw, tb, &br, &bc, &bsk) && br == n && bc == rc;
        out->d = rc;
        out->ncomp = n;
        out->fn = h_vector_times_matrix;
        break;
    case SpvOpMatrixTimesMatrix: /* (R x C) = (R x K) * (K x C) */
        ok = matrix_shape(lw, w[1], &rr, &rc, &rsk) && matrix_shape(lw, ta, &ar, &ac, &ask) &&
             matrix_shape(lw, tb, &br, &bc, &bsk) && ar == rr && bc == rc && ac == br;
        out->c = rr;
        out->d = rc;
        out->ncomp = ac;
        out->fn = h_matrix_times_matrix;
        break;
    case SpvOpOuterProduct: /* (R x C) = vecR outer vecC */
        ok = matrix_shape(lw, w[1], &rr, &rc, &rsk) && vector_shape(lw, ta, &ar, &ask) &&
             vector_shape(lw, tb, &bc, &bsk) && ar == rr && bc == rc;
        out->c = rr;
        out->d = rc;
        out->fn = h_outer_product;
        break;
    case SpvOpTranspose: /* (R x C) = transpose (C x R) */
        ok = matrix_shape(lw, w[1], &rr, &rc, &rsk) && matrix_shape(lw, ta, &ar, &ac, &ask) &&
             ar == rc && ac == rr;
        bsk = rsk;
        out->c = rr;
        out->d = rc;
        out->fn = h_transpose;
        break;
    }
    if (!ok || rsk != ask || rsk != bsk)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "operand and result types do not match (rows, columns and "
                              "component types)");
    if (rr > 4 || rc > 4 || n > 4 || ar > 4 || ac > 4 || br > 4 || bc > 4)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "matrices and vectors have 2 to 4 components here");
    if (op != SpvOpTranspose && !cvm_sk_is_float((cvm_scalar_kind)rsk))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "components must be floating point");
    out->sk = rsk;
    return CVM_SUCCESS;
}
