/* Pieces of the MulAdd semantics shared by the reference kernel and the fast
 * variants, so that every variant reads operands and produces result
 * elements through the same code and can differ only in how it sums; and
 * the interface between the dispatcher (matmul.c) and the variants
 * (matmul_avx2.c, matmul_avx512.c). */
#ifndef CVM_KERNELS_MATMUL_INTERNAL_H
#define CVM_KERNELS_MATMUL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "exec/kernels/matmul.h"

/* Exact 128-bit integer (GCC and Clang on 64-bit targets). */
__extension__ typedef __int128 cvm_mm_i128;

/* Width in bits of an integer result kind (bool counts as 8). */
unsigned cvm_mm_int_bits(cvm_scalar_kind k);

/* An integer operand component at `p` as the exact value the text means:
 * its bits sign-extended (`is_signed`) or zero-extended to the precision of
 * the result, `rbits` wide.  A component wider than the result is first cut
 * to `rbits` bits (the "precision of Result Type"), then extended by its
 * flag.  A float component (mixed kinds, which valid modules do not use) is
 * truncated toward zero first. */
cvm_mm_i128 cvm_mm_int_operand(cvm_scalar_kind k, const void *p, int is_signed, unsigned rbits);

/* Writes result element `idx` of an integer MulAdd from the sum of products
 * `prod` and the C element `c` (both as cvm_mm_int_operand values):
 * without saturation the low bits of prod + c, with saturation prod + c
 * clamped to the range of r_kind under r_signed.  `prod` must be the exact
 * sum of products, or, when not saturating, any value congruent to it
 * modulo 2^64. */
void cvm_mm_int_finish(const cvm_muladd_desc *d, size_t idx, cvm_mm_i128 prod, cvm_mm_i128 c);

/* Every result element of an integer MulAdd whose exact sums of products are
 * s[i * lds + j] + row_add[i] + col_add[j] (row_add, col_add may be NULL for
 * zeros): cvm_mm_int_finish for each, with a direct path for 32-bit C and R.
 * |s + row_add + col_add| must stay below 2^62. */
void cvm_mm_int_finish_all(const cvm_muladd_desc *d, const int32_t *s, size_t lds,
                           const int64_t *row_add, const int64_t *col_add);

/* Writes result element `idx` of a float MulAdd from its accumulator (a
 * double, or the f32 accumulator of the default numerics widened exactly):
 * rounded once to r_kind (E4M3/E5M2 results saturate when d->saturate); a
 * NaN result is the kind's canonical quiet NaN (positive, payload only the
 * quiet bit), because which NaN an addition returns differs between scalar
 * and SIMD code and the texts do not fix it. */
void cvm_mm_float_finish(const cvm_muladd_desc *d, size_t idx, double acc);

/* 1 when d's kinds take the f32 accumulation of the default numerics (A and
 * B f16/bf16/e4m3/e5m2, C and R f16/bf16/f32/e4m3/e5m2) and the mode is not
 * PRECISE; 0 when the double accumulation applies. */
int cvm_mm_uses_f32(const cvm_muladd_desc *d);

/* Kinds whose products are exact in a double (the double-accumulating
 * variant's inputs). */
int cvm_mm_narrow_float(cvm_scalar_kind k);

/* K limit of the int8 variants: their int32 partial sums cannot overflow. */
#define CVM_MM_I8_MAX_K 32768u

/* ---- variants ------------------------------------------------------------
 * Each takes `work`: 64-byte aligned, at least the bytes its *_work function
 * returns for `d`; none allocates or fails.  They exist on x86-64 only. */
#if defined(__x86_64__) && defined(__GNUC__)
#define CVM_MM_HAVE_X86 1

size_t cvm_mm_avx2_f64_work(const cvm_muladd_desc *d);
void cvm_mm_avx2_f64(const cvm_muladd_desc *d, void *work);
size_t cvm_mm_avx2_f32_work(const cvm_muladd_desc *d);
void cvm_mm_avx2_f32(const cvm_muladd_desc *d, void *work);
size_t cvm_mm_avx2_i8_work(const cvm_muladd_desc *d);
void cvm_mm_avx2_i8(const cvm_muladd_desc *d, void *work);

size_t cvm_mm_avx512_f32_work(const cvm_muladd_desc *d);
void cvm_mm_avx512_f32(const cvm_muladd_desc *d, void *work);
size_t cvm_mm_avx512_vnni_i8_work(const cvm_muladd_desc *d);
void cvm_mm_avx512_vnni_i8(const cvm_muladd_desc *d, void *work);
size_t cvm_mm_avx512_bf16_work(const cvm_muladd_desc *d);
void cvm_mm_avx512_bf16(const cvm_muladd_desc *d, void *work);
#else
#define CVM_MM_HAVE_X86 0
#endif

static inline size_t cvm_mm_round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

#endif /* CVM_KERNELS_MATMUL_INTERNAL_H */
