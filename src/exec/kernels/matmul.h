/* Matrix multiply-add kernels: R = A x B + C for cooperative matrices
 * (OpCooperativeMatrixMulAddKHR).  Dense row-major operands in the engine's
 * register format: A is M x K, B is K x N, C and R are M x N, each of its own
 * component kind.  R may alias C.
 *
 * Numerics (ARCHITECTURE.md "Numerics"); matmul_ref.c states them exactly.
 *
 *  - Default (CVM_MULADD_F32), when A and B are 16-bit or 8-bit floats
 *    (f16, bf16, e4m3, e5m2) and C and R are f16, bf16, f32, e4m3 or e5m2:
 *    every result element starts from C's value as an f32 (exact) and takes
 *    the products A[i][k] * B[k][j] for k = 0, 1, ..., K-1 in that order,
 *    each added as a fused multiply-add in f32 (the product exact, one
 *    rounding per addition to nearest even), then is rounded once to R's
 *    kind.  This is the default because it is the precision GPUs accumulate
 *    these kinds in (results differ from a GPU's only where its summation
 *    order differs), because the order is fixed per element (the same bits
 *    whatever the thread count or the CPU's vector width), and because it is
 *    the fast path: 16 f32 lanes per AVX-512 vector against 8 doubles.
 *  - Precise (CVM_MULADD_PRECISE), and every other float combination (an f32
 *    or f64 operand, an f64 C or R) in every mode: the accumulator is a
 *    double and the sum is rounded once into R's kind; products of the narrow
 *    kinds and of f32 are exact in a double, so only the additions round.
 *    For users who want the result closest to exact.
 *  - BF16 pairs (CVM_MULADD_BF16_PAIRS, opt-in, where the CPU has
 *    AVX512_BF16 and A and B are both bf16): the instruction vdpbf16ps does
 *    the work.  Its numerics are the hardware's, not the default's: the
 *    products of k = 2q and 2q+1 are combined before they reach the f32
 *    accumulator (Intel SDM: two chained f32 multiply-adds, odd k first;
 *    other vendors may add the pair first), and bf16 inputs that are
 *    subnormal, and f32 results that would be, are flushed to zero.  The
 *    result is deterministic on one CPU model, may differ in the last bits of
 *    f32 from the default, and can differ between CPU vendors.  Without
 *    AVX512_BF16 (or for other kinds) the mode runs the default.
 *  - Integers: products summed exactly (int64/int128) with the signedness the
 *    Matrix*SignedComponents operands give, then wrapped (or, with
 *    SaturatingAccumulation, clamped) to R's kind.  Every variant is exact,
 *    so there is one integer numerics in every mode.
 *
 * Every fast variant gives the reference's bits for its mode (BF16 pairs
 * excepted: it has no portable reference), and is tested against it on the
 * same inputs (tests/unit/test_kernels.c). */
#ifndef CVM_KERNELS_MATMUL_H
#define CVM_KERNELS_MATMUL_H

#include <stddef.h>
#include <stdint.h>

#include "numeric/numeric.h"

typedef enum cvm_muladd_mode {
    CVM_MULADD_F32 = 0,       /* the default, above */
    CVM_MULADD_PRECISE = 1,   /* double accumulation, one rounding (CVM_FLAG_PRECISE) */
    CVM_MULADD_BF16_PAIRS = 2 /* vdpbf16ps for bf16 x bf16 (CVM_FLAG_BF16_PAIRS) */
} cvm_muladd_mode;

typedef struct cvm_muladd_desc {
    uint32_t m, n, k;
    cvm_scalar_kind a_kind, b_kind, c_kind, r_kind;
    /* The interpretation of integer components: nonzero = signed
     * (MatrixASignedComponentsKHR ...).  Ignored for floats. */
    int a_signed, b_signed, c_signed, r_signed;
    int saturate; /* MatrixSaturatingAccumulationKHR */
    cvm_muladd_mode mode;
    const void *a, *b, *c;
    void *r;
    /* Optional working memory for the packed operands, `work_size` bytes
     * (any alignment), owned by the caller and reused from call to call so
     * that a call allocates nothing: cvm_muladd_work_size tells how much the
     * chosen variant wants.  When NULL or too small the variant allocates
     * its own, and runs the reference if that fails. */
    void *work;
    size_t work_size;
} cvm_muladd_desc;

/* The plain-loop reference of d->mode (BF16_PAIRS: the default's). */
void cvm_muladd_reference(const cvm_muladd_desc *d);
/* The fastest variant for this CPU, these kinds and this mode (falls back to
 * the reference). */
void cvm_muladd(const cvm_muladd_desc *d);
/* The name of the variant cvm_muladd picks for `d` on this CPU
 * ("reference", "avx512_f32", "avx2_f32", "avx2_f64", "avx512_vnni_i8",
 * "avx2_i8", "avx512_bf16_pairs"), so tests can tell which one they
 * exercised.  A fast variant that cannot get memory for its packed operands
 * runs the reference instead. */
const char *cvm_muladd_variant(const cvm_muladd_desc *d);
/* Bytes of `work` that the variant chosen for `d` uses (0: none). */
size_t cvm_muladd_work_size(const cvm_muladd_desc *d);

/* The variant cvm_muladd picks for descriptors of `d`'s shape, kinds,
 * signedness and mode on this CPU, and the working memory it uses: made
 * once for a MulAdd instruction and used for each of its calls
 * (cvm_muladd_planned), so that a call does not choose again. */
typedef struct cvm_muladd_plan {
    uint32_t variant;
    size_t work_size; /* bytes of `work` the variant uses, 0 none (as cvm_muladd_work_size) */
} cvm_muladd_plan;
/* Reads d's shape, kinds, signedness and mode only (its operands and work
 * may be unset); never fails; the plan is a plain value, owning nothing. */
cvm_muladd_plan cvm_muladd_plan_for(const cvm_muladd_desc *d);
/* cvm_muladd(d) for a `d` of the shape, kinds and mode `plan` was made for,
 * with the same contract: R = A x B + C on d's operands, d->work used when
 * it has plan->work_size bytes, else memory of its own (the reference, same
 * results, when even that cannot be had). */
void cvm_muladd_planned(const cvm_muladd_desc *d, const cvm_muladd_plan *plan);

/* Instruction-set extensions the variants use, as a mask; the CPU's (probed
 * once from CPUID and XGETBV) limits what cvm_muladd uses. */
enum {
    CVM_MM_ISA_AVX2 = 1u << 0,       /* AVX2 + FMA + F16C */
    CVM_MM_ISA_AVX512 = 1u << 1,     /* AVX512 F, BW, DQ, VL (with the OS's ZMM state) */
    CVM_MM_ISA_AVX512_VNNI = 1u << 2,
    CVM_MM_ISA_AVX512_BF16 = 1u << 3
};
/* What this CPU offers (a mask of CVM_MM_ISA_*). */
unsigned cvm_muladd_cpu_isa(void);
/* cvm_muladd and cvm_muladd_variant restricted to the extensions in `isa`
 * (intersected with the CPU's): for tests that run every variant the CPU
 * can run, e.g. the AVX2 one on an AVX-512 machine. */
void cvm_muladd_isa(const cvm_muladd_desc *d, unsigned isa);
const char *cvm_muladd_variant_isa(const cvm_muladd_desc *d, unsigned isa);

#endif /* CVM_KERNELS_MATMUL_H */
