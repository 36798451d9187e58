/* Pieces of the MulAdd semantics shared by the reference kernel and the fast
 * variants, so that every variant reads operands and produces result
 * elements through the same code and can differ only in how it sums. */
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

/* Writes result element `idx` of a float MulAdd from its double accumulator:
 * rounded once to r_kind (E4M3/E5M2 results saturate when d->saturate); a
 * NaN result is the kind's canonical quiet NaN (positive, payload only the
 * quiet bit), because which NaN an addition returns differs between scalar
 * and SIMD code and the texts do not fix it. */
void cvm_mm_float_finish(const cvm_muladd_desc *d, size_t idx, double acc);

#endif /* CVM_KERNELS_MATMUL_INTERNAL_H */
