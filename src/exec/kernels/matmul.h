/* Matrix multiply-add kernels: R = A x B + C for cooperative matrices
 * (OpCooperativeMatrixMulAddKHR).  Dense row-major operands in the engine's
 * register format: A is M x K, B is K x N, C and R are M x N, each of its own
 * component kind.  R may alias C.
 *
 * Numerics (ARCHITECTURE.md "Numerics"): products and sums are computed
 * exactly enough to round once per result element: float inputs are
 * accumulated in double and rounded once to R's kind; integer inputs in int64
 * with the signedness the Matrix*SignedComponents operands give, then wrapped
 * (or, with SaturatingAccumulation, clamped) to R's kind. */
#ifndef CVM_KERNELS_MATMUL_H
#define CVM_KERNELS_MATMUL_H

#include <stddef.h>
#include <stdint.h>

#include "numeric/numeric.h"

typedef struct cvm_muladd_desc {
    uint32_t m, n, k;
    cvm_scalar_kind a_kind, b_kind, c_kind, r_kind;
    /* The interpretation of integer components: nonzero = signed
     * (MatrixASignedComponentsKHR ...).  Ignored for floats. */
    int a_signed, b_signed, c_signed, r_signed;
    int saturate; /* MatrixSaturatingAccumulationKHR */
    const void *a, *b, *c;
    void *r;
} cvm_muladd_desc;

/* The plain-loop reference: every variant must match it bit for bit. */
void cvm_muladd_reference(const cvm_muladd_desc *d);
/* The fastest variant for this CPU and these kinds (falls back to the
 * reference). */
void cvm_muladd(const cvm_muladd_desc *d);
/* The name of the variant cvm_muladd picks for `d` on this CPU ("reference",
 * "avx2_f64", "avx2_i8"), so tests can tell which one they exercised.  A
 * fast variant that cannot get memory for its packed operands runs the
 * reference instead. */
const char *cvm_muladd_variant(const cvm_muladd_desc *d);

#endif /* CVM_KERNELS_MATMUL_H */
