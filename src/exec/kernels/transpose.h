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
 * blocks of 4 x 4 are transposed in registers, and 8- and 16-bit blocks of
 * 16 x 16 in AVX-512 registers where the CPU has AVX-512 (F and BW, with the
 * OS's state), 16-bit ones in AVX2 registers where it has AVX2 only.  The source may overlap itself (lines
 * closer than a line's length: a load with a small stride); the
 * destination must not overlap itself nor the source, since the order of
 * the writes is not the element order. */
void cvm_transpose(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld, uint32_t rows,
                   uint32_t cols, uint32_t es);
/* cvm_transpose with the 16 x 16 blocks limited to the extensions in
 * `isa` (kernels/matmul.h CVM_MM_ISA_*: AVX512 for the AVX-512 kernel,
 * AVX2 for the AVX2 one; intersected with the CPU's): for tests that run
 * every kernel the CPU can run. */
void cvm_transpose_isa(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld,
                       uint32_t rows, uint32_t cols, uint32_t es, unsigned isa);

#endif /* CVM_EXEC_KERNELS_TRANSPOSE_H */
