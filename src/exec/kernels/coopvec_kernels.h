/* Cooperative-vector kernels (SPV_NV_cooperative_vector, VK_NV_cooperative_vector):
 *
 *  - the matrix-vector products of OpCooperativeVectorMatrixMul(Add)NV,
 *    computed for L invocations at once as one matrix-matrix product
 *    R = W X + bias (W M x K, X K x L: column l is invocation l's input);
 *  - where each element of a matrix lies in each layout, coopvm's definition
 *    of the two optimal layouts included;
 *  - the combinations of component types coopvm supports (the list of
 *    VkCooperativeVectorPropertiesNV);
 *  - the host-side matrix conversion (vkConvertCooperativeVectorMatrixNV).
 *
 * Numerics of the products.  Every product of an input value and a matrix
 * element is exact in the accumulator's format, so a fused multiply-add and
 * a multiply followed by an add give the same bits, and a result element
 * depends only on the order of its additions: acc = bias[j] (or +0), then
 * acc += W[j][k] * X[k] for k = 0, 1, ... K-1, then one rounding to the
 * result type.  Each variant keeps that order per element (it vectorises
 * over invocations, never over k), so all are bit-identical to the
 * reference, and the product of one invocation alone equals its column of a
 * batched product.
 *   f32 accumulator: both operands f16, E4M3 or E5M2 (at most 11 significand
 *     bits and exponents from 2^-24 to 2^16: the product has at most 22 bits
 *     and lies in f32's normal range) - the precision GPUs accumulate in;
 *     with CVM_FLAG_PRECISE these use the f64 accumulator instead;
 *   f64 accumulator: an operand bf16 or f32 (products of up to 24-bit
 *     significands with exponents in f32's range are exact in a double);
 *   i32 accumulator (integer types): "performed at the precision of the
 *     Result Type and exact (with the usual wrapping rules)": every product
 *     and sum modulo 2^32. */
#ifndef CVM_KERNELS_COOPVEC_KERNELS_H
#define CVM_KERNELS_COOPVEC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "coopvm.h"
#include "numeric/numeric.h"

/* ---- products ------------------------------------------------------------
 * w: M x K row-major; x: K x L row-major (x[k * L + l]); bias: M values or
 * NULL (then the accumulators start at +0 / 0); r: M x L row-major. */
void cvm_coopvec_matmul_f32(uint32_t m, uint32_t k, uint32_t l, const float *w, const float *x,
                            const float *bias, float *r);
void cvm_coopvec_matmul_f64(uint32_t m, uint32_t k, uint32_t l, const double *w, const double *x,
                            const double *bias, double *r);
void cvm_coopvec_matmul_i32(uint32_t m, uint32_t k, uint32_t l, const int32_t *w,
                            const int32_t *x, const int32_t *bias, int32_t *r);
/* The plain loops every variant must match bit for bit. */
void cvm_coopvec_matmul_f32_reference(uint32_t m, uint32_t k, uint32_t l, const float *w,
                                      const float *x, const float *bias, float *r);
void cvm_coopvec_matmul_f64_reference(uint32_t m, uint32_t k, uint32_t l, const double *w,
                                      const double *x, const double *bias, double *r);
void cvm_coopvec_matmul_i32_reference(uint32_t m, uint32_t k, uint32_t l, const int32_t *w,
                                      const int32_t *x, const int32_t *bias, int32_t *r);
/* The variant cvm_coopvec_matmul_<acc> runs on this CPU ("reference",
 * "avx2"); `acc` is 'f' (f32), 'd' (f64) or 'i' (i32). */
const char *cvm_coopvec_matmul_variant(char acc);

/* Bulk f16 <-> f32 for the products' operands and results: f16 -> f32 is
 * exact; f32 -> f16 rounds to nearest even (as cvm_f32_to_f16) and gives
 * every NaN as the canonical quiet NaN 0x7e00 (see from_domain in
 * ops/coopvec.c).  F16C when the CPU has it. */
void cvm_coopvec_f16_to_f32(const uint16_t *src, float *dst, size_t n);
void cvm_coopvec_f32_to_f16(const float *src, uint16_t *dst, size_t n);

/* ---- layouts --------------------------------------------------------------
 * A matrix of rows x cols elements of `esize` bytes as stored (before any
 * Transpose) in one of the four cvm_coopvec_matrix_layout layouts. */
typedef struct cvm_coopvec_layout {
    uint32_t layout;  /* cvm_coopvec_matrix_layout */
    uint32_t rows, cols;
    uint64_t stride;  /* bytes between rows (RowMajor) or columns (ColumnMajor) */
    uint32_t esize;
    uint64_t scramble;/* 0: the optimal layouts are tight row-major; else the
                         multiplier of their permutation (cvm_coopvec_layout_init) */
} cvm_coopvec_layout;

/* Fills `o` (the stride is only kept for row-/column-major); `scramble`
 * nonzero selects the CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS order: element
 * n = r * cols + c of an optimal layout goes to slot (n * A + rows*cols/2)
 * mod rows*cols, A the first odd number >= 0.618 * rows*cols that is coprime
 * with rows*cols (a bijection that moves almost every element). */
void cvm_coopvec_layout_init(cvm_coopvec_layout *o, uint32_t layout, uint32_t rows, uint32_t cols,
                             uint64_t stride, uint32_t esize, int scramble);
/* Byte offset of element (row, col) from the start of the matrix. */
static inline uint64_t cvm_coopvec_element_offset(const cvm_coopvec_layout *L, uint32_t row,
                                                  uint32_t col)
{
    switch (L->layout) {
    case CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR:
        return (uint64_t)row * L->stride + (uint64_t)col * L->esize;
    case CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR:
        return (uint64_t)col * L->stride + (uint64_t)row * L->esize;
    default: {
        uint64_t n = (uint64_t)L->rows * L->cols, i = (uint64_t)row * L->cols + col;
        if (L->scramble)
            i = (i * L->scramble + n / 2) % n;
        return i * L->esize;
    }
    }
}
/* Bytes from the first byte of the matrix past its last element: the size a
 * buffer must have for the matrix's elements; UINT64_MAX when that does not
 * fit in 64 bits (a stride or size no buffer has: every caller compares it
 * with a buffer's size, so the access is refused rather than wrapped). */
uint64_t cvm_coopvec_layout_extent(const cvm_coopvec_layout *L);

/* The optimal layouts' sizes are multiples of this many bytes. */
#define CVM_COOPVEC_OPTIMAL_SIZE_ALIGN 64
/* Bytes a host conversion to layout L writes, which its size query reports
 * (vkConvertCooperativeVectorMatrixNV with dstData NULL): the extent for
 * row- and column-major; for the two optimal layouts the extent rounded up
 * to CVM_COOPVEC_OPTIMAL_SIZE_ALIGN, the padding written as zero bytes.  The
 * optimal layouts are the implementation's to define, size included, and
 * applications lay matrices out assuming what GPU drivers give: the Vulkan
 * CTS (cooperative_vector.matmul.*) puts each converted matrix after its
 * row-major source at the next multiple of 64 bytes and sizes the whole set
 * as round64(source + converted size), which holds only when the converted
 * size is a multiple of 64 (with 20 bytes for a 10 x 1 f16 matrix the last
 * one ended past the buffer, and each overwrote the next set's source).
 * The alignment is the one the texts ask of every matrix (MatrixOffset,
 * VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10097; OuterProduct's
 * Pointer + Offset, -OuterProductAccumulateNV-10101; the device
 * conversion's dstData, VUID-vkCmdConvertCooperativeVectorMatrixNV-pInfo-10085),
 * so that matrices placed one after another by this size keep it: the CTS
 * puts the training-optimal matrix of invocation i at i times this size.
 * It is also the size a shader's matrix occupies (ops/coopvec.c checks
 * that the buffer holds all of it, as a GPU's layout may use every byte).
 * UINT64_MAX on overflow. */
uint64_t cvm_coopvec_conversion_size(const cvm_coopvec_layout *L);

/* ---- component types ------------------------------------------------------ */

/* The scalar kind of a cvm_component_type (packed types: their 8-bit
 * element), or CVM_SK_COUNT for values that are not component types. */
cvm_scalar_kind cvm_coopvec_component_kind(uint32_t component_type);
/* "FLOAT16", "SINT8_PACKED", ... or "unknown". */
const char *cvm_coopvec_component_name(uint32_t component_type);

/* Every combination coopvm runs, in a fixed order; returns how many there
 * are and writes at most `cap` of them to `o` (may be NULL). */
uint32_t cvm_coopvec_combinations(cvm_coopvec_properties *o, uint32_t cap);
/* 1 when (input type, interpretations, result type) is one of them;
 * bias_interpretation UINT32_MAX matches any (OpCooperativeVectorMatrixMulNV). */
int cvm_coopvec_combination_supported(uint32_t input_type, uint32_t input_interpretation,
                                      uint32_t matrix_interpretation,
                                      uint32_t bias_interpretation, uint32_t result_type);

/* ---- host conversion ------------------------------------------------------
 * Copies every element (r, c) of a rows x cols matrix from `src` (src_size
 * bytes readable) in layout `sl` and kind `sk` to `dst` (dst_size bytes
 * writable) in layout `dl` and kind `dk`, converting (cvm_store_from_f64,
 * round to nearest even) when the kinds differ, and zeroes the padding of
 * an optimal destination up to cvm_coopvec_conversion_size(dl).  Returns 0
 * after writing exactly cvm_coopvec_conversion_size(dl) bytes (row/column
 * padding of a row- or column-major destination left as it was); or -1,
 * writing nothing, when the two layouts do not describe the same matrix,
 * the source's extent exceeds src_size or the destination's conversion
 * size exceeds dst_size.  The caller has checked that the regions do not
 * overlap. */
int cvm_coopvec_convert(const cvm_coopvec_layout *sl, cvm_scalar_kind sk, const uint8_t *src,
                        size_t src_size, const cvm_coopvec_layout *dl, cvm_scalar_kind dk,
                        uint8_t *dst, size_t dst_size);

#endif /* CVM_KERNELS_COOPVEC_KERNELS_H */
