/* A blocked transpose of small element arrays, shared by the matrix loads
 * and stores (ops/coopmat.c: column-major KHR layouts) and the tensor tiles
 * (ops/tensor_ops.c: transposing views). */
#ifndef CVM_EXEC_KERNELS_TRANSPOSE_H
#define CVM_EXEC_KERNELS_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>

/* dst[j * dst_ld + i * es] = src[i * src_ld + j * es] for i < rows and
 * j < cols (leading dimensions in bytes): element (i, j) of a rows x cols
 * array of es-byte elements goes to (j, i).  In 8 x 8 blocks, so that each
 * block reads 8 source lines and writes 8 destination runs instead of one
 * element per line; with SSE2, 8- and 16-bit blocks of 8 x 8 and 32-bit
 * blocks of 4 x 4 are transposed in registers, and 16-bit blocks of 16 x 16
 * in AVX2 registers where the CPU has AVX2.  The source may overlap itself (lines
 * closer than a line's length: a load with a small stride); the
 * destination must not overlap itself nor the source, since the order of
 * the writes is not the element order. */
void cvm_transpose(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld, uint32_t rows,
                   uint32_t cols, uint32_t es);

#endif /* CVM_EXEC_KERNELS_TRANSPOSE_H */
