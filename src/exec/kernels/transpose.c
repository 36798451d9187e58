/* The blocked transpose (transpose.h): 8 x 8 blocks of 8- and 16-bit and
 * 4 x 4 of 32-bit elements in SSE2 registers where the compiler targets SSE2, other
 * sizes and the edges element by element. */
#include <string.h>

#include "exec/kernels/transpose.h"

#include "exec/kernels/matmul.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define TRANSPOSE_EDGE(SIZE)                                                                  \
    for (uint32_t j = j0; j < j1; j++)                                                        \
        for (uint32_t i = i0; i < i1; i++)                                                    \
            memcpy(dst + j * dst_ld + (size_t)i * (SIZE), src + i * src_ld + (size_t)j * (SIZE), \
                   (SIZE));

static void transpose_part(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld,
                           uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1, uint32_t es)
{
    switch (es) {
    case 1: TRANSPOSE_EDGE(1) break;
    case 2: TRANSPOSE_EDGE(2) break;
    case 4: TRANSPOSE_EDGE(4) break;
    case 8: TRANSPOSE_EDGE(8) break;
    default: TRANSPOSE_EDGE(es) break;
    }
}
#undef TRANSPOSE_EDGE

#if defined(__SSE2__)
static void transpose_8x8_u16(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld)
{
    __m128i a[8], b[8], c[8];
    for (int k = 0; k < 8; k++)
        a[k] = _mm_loadu_si128((const __m128i *)(const void *)(src + k * src_ld));
    for (int k = 0; k < 4; k++) {
        b[2 * k] = _mm_unpacklo_epi16(a[2 * k], a[2 * k + 1]);
        b[2 * k + 1] = _mm_unpackhi_epi16(a[2 * k], a[2 * k + 1]);
    }
    /* c[0..3]: columns (0,1) (2,3) (4,5) (6,7) of rows 0-3; c[4..7] of rows 4-7 */
    for (int h = 0; h < 2; h++) {
        c[4 * h + 0] = _mm_unpacklo_epi32(b[4 * h + 0], b[4 * h + 2]);
        c[4 * h + 1] = _mm_unpackhi_epi32(b[4 * h + 0], b[4 * h + 2]);
        c[4 * h + 2] = _mm_unpacklo_epi32(b[4 * h + 1], b[4 * h + 3]);
        c[4 * h + 3] = _mm_unpackhi_epi32(b[4 * h + 1], b[4 * h + 3]);
    }
    for (int k = 0; k < 4; k++) {
        _mm_storeu_si128((__m128i *)(void *)(dst + (size_t)(2 * k) * dst_ld),
                         _mm_unpacklo_epi64(c[k], c[k + 4]));
        _mm_storeu_si128((__m128i *)(void *)(dst + (size_t)(2 * k + 1) * dst_ld),
                         _mm_unpackhi_epi64(c[k], c[k + 4]));
    }
}

static void transpose_8x8_u8(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld)
{
    __m128i a[8];
    for (int k = 0; k < 8; k++)
        a[k] = _mm_loadl_epi64((const __m128i *)(const void *)(src + k * src_ld));
    /* bytes of rows (0,1) (2,3) (4,5) (6,7) interleaved */
    __m128i b0 = _mm_unpacklo_epi8(a[0], a[1]), b1 = _mm_unpacklo_epi8(a[2], a[3]);
    __m128i b2 = _mm_unpacklo_epi8(a[4], a[5]), b3 = _mm_unpacklo_epi8(a[6], a[7]);
    /* columns 0-3 and 4-7 of rows 0-3 (c0, c1) and of rows 4-7 (c2, c3),
     * four bytes (one column) at a time */
    __m128i c0 = _mm_unpacklo_epi16(b0, b1), c1 = _mm_unpackhi_epi16(b0, b1);
    __m128i c2 = _mm_unpacklo_epi16(b2, b3), c3 = _mm_unpackhi_epi16(b2, b3);
    /* two whole columns (8 bytes each) per register */
    __m128i d[4] = {_mm_unpacklo_epi32(c0, c2), _mm_unpackhi_epi32(c0, c2),
                    _mm_unpacklo_epi32(c1, c3), _mm_unpackhi_epi32(c1, c3)};
    for (int k = 0; k < 4; k++) {
        _mm_storel_epi64((__m128i *)(void *)(dst + (size_t)(2 * k) * dst_ld), d[k]);
        _mm_storel_epi64((__m128i *)(void *)(dst + (size_t)(2 * k + 1) * dst_ld),
                         _mm_unpackhi_epi64(d[k], d[k]));
    }
}

static void transpose_4x4_u32(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld)
{
    __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)src);
    __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(src + src_ld));
    __m128i a2 = _mm_loadu_si128((const __m128i *)(const void *)(src + 2 * src_ld));
    __m128i a3 = _mm_loadu_si128((const __m128i *)(const void *)(src + 3 * src_ld));
    __m128i b0 = _mm_unpacklo_epi32(a0, a1), b1 = _mm_unpackhi_epi32(a0, a1);
    __m128i b2 = _mm_unpacklo_epi32(a2, a3), b3 = _mm_unpackhi_epi32(a2, a3);
    _mm_storeu_si128((__m128i *)(void *)dst, _mm_unpacklo_epi64(b0, b2));
    _mm_storeu_si128((__m128i *)(void *)(dst + dst_ld), _mm_unpackhi_epi64(b0, b2));
    _mm_storeu_si128((__m128i *)(void *)(dst + 2 * dst_ld), _mm_unpacklo_epi64(b1, b3));
    _mm_storeu_si128((__m128i *)(void *)(dst + 3 * dst_ld), _mm_unpackhi_epi64(b1, b3));
}
#endif

/* The rectangle [i0, i1) x [j0, j1) of the source: register blocks where
 * they fit whole, the rest element by element. */
static void transpose_rect(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld,
                           uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1, uint32_t es)
{
    uint32_t B = 8;
#if defined(__SSE2__)
    if (es == 4)
        B = 4;
#endif
    uint32_t rf = i0 + (i1 - i0) / B * B, cf = j0 + (j1 - j0) / B * B; /* the full blocks */
    for (uint32_t jb = j0; jb < cf; jb += B) {
        for (uint32_t ib = i0; ib < rf; ib += B) {
            const uint8_t *s = src + ib * src_ld + (size_t)jb * es;
            uint8_t *d = dst + jb * dst_ld + (size_t)ib * es;
#if defined(__SSE2__)
            if (es == 1) {
                transpose_8x8_u8(d, dst_ld, s, src_ld);
                continue;
            }
            if (es == 2) {
                transpose_8x8_u16(d, dst_ld, s, src_ld);
                continue;
            }
            if (es == 4) {
                transpose_4x4_u32(d, dst_ld, s, src_ld);
                continue;
            }
#endif
            transpose_part(dst, dst_ld, src, src_ld, ib, ib + B, jb, jb + B, es);
        }
    }
    /* the partial blocks: the last rows (all columns), the last columns */
    transpose_part(dst, dst_ld, src, src_ld, rf, i1, j0, j1, es);
    transpose_part(dst, dst_ld, src, src_ld, i0, rf, cf, j1, es);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define CVM_TRANSPOSE_AVX2 1
#include <immintrin.h>

/* The 16 x 16 kernels' loops unrolled whole: their register arrays then
 * stay in registers (rolled, GCC -O2 keeps each stage's array on the stack
 * and every interleave goes through a store and a reload). */
#define T_UNROLL _Pragma("GCC unroll 16")

/* 16 x 16 16-bit elements in AVX2 registers: 16-, 32- and 64-bit
 * interleaves within each 128-bit half, then the halves recombined. */
__attribute__((target("avx2"))) static void transpose_16x16_u16(uint8_t *dst, size_t dst_ld,
                                                                const uint8_t *src,
                                                                size_t src_ld)
{
    __m256i r[16], t[16], u[16], v[16];
    T_UNROLL
    for (int k = 0; k < 16; k++)
        r[k] = _mm256_loadu_si256((const __m256i *)(const void *)(src + k * src_ld));
    /* rows (2k, 2k+1) word by word: columns 0-3 | 8-11 and 4-7 | 12-15 */
    T_UNROLL
    for (int k = 0; k < 8; k++) {
        t[2 * k] = _mm256_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    /* rows 4g .. 4g+3: columns (0,1) (2,3) (4,5) (6,7) | the same plus 8 */
    T_UNROLL
    for (int g = 0; g < 4; g++) {
        u[4 * g + 0] = _mm256_unpacklo_epi32(t[4 * g + 0], t[4 * g + 2]);
        u[4 * g + 1] = _mm256_unpackhi_epi32(t[4 * g + 0], t[4 * g + 2]);
        u[4 * g + 2] = _mm256_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
        u[4 * g + 3] = _mm256_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
    }
    /* rows 8h .. 8h+7: v[8h + c] is column c | column 8 + c */
    T_UNROLL
    for (int h = 0; h < 2; h++)
        T_UNROLL
        for (int j = 0; j < 4; j++) {
            v[8 * h + 2 * j] = _mm256_unpacklo_epi64(u[8 * h + j], u[8 * h + 4 + j]);
            v[8 * h + 2 * j + 1] = _mm256_unpackhi_epi64(u[8 * h + j], u[8 * h + 4 + j]);
        }
    T_UNROLL
    for (int c = 0; c < 8; c++) {
        _mm256_storeu_si256((__m256i *)(void *)(dst + (size_t)c * dst_ld),
                            _mm256_permute2x128_si256(v[c], v[8 + c], 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(dst + (size_t)(c + 8) * dst_ld),
                            _mm256_permute2x128_si256(v[c], v[8 + c], 0x31));
    }
}
#endif

#if defined(CVM_TRANSPOSE_AVX2)
/* The same 16 x 16 in AVX-512 registers: row k and row k + 8 share one
 * register (the 256-bit halves), so the interleaves of the AVX2 version
 * run on both halves of the block at once; each result register then holds
 * column c and column c + 8 in 128-bit quarters, put in order by one
 * shuffle. */
__attribute__((target("avx512f,avx512bw"))) static void
transpose_16x16_u16_avx512(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld)
{
    __m512i z[8], t[8], u[8], v[8];
    T_UNROLL
    for (int k = 0; k < 8; k++)
        z[k] = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)(src + k * src_ld))),
            _mm256_loadu_si256((const __m256i *)(const void *)(src + (k + 8) * src_ld)), 1);
    T_UNROLL
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_epi16(z[2 * k], z[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi16(z[2 * k], z[2 * k + 1]);
    }
    T_UNROLL
    for (int g = 0; g < 2; g++) {
        u[4 * g + 0] = _mm512_unpacklo_epi32(t[4 * g + 0], t[4 * g + 2]);
        u[4 * g + 1] = _mm512_unpackhi_epi32(t[4 * g + 0], t[4 * g + 2]);
        u[4 * g + 2] = _mm512_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
        u[4 * g + 3] = _mm512_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
    }
    T_UNROLL
    for (int jj = 0; jj < 4; jj++) {
        v[2 * jj] = _mm512_unpacklo_epi64(u[jj], u[4 + jj]);
        v[2 * jj + 1] = _mm512_unpackhi_epi64(u[jj], u[4 + jj]);
    }
    /* v[c]: rows 0-7 of column c | of column c + 8 | rows 8-15 of column c |
     * of column c + 8 */
    T_UNROLL
    for (int c = 0; c < 8; c++) {
        __m512i w = _mm512_shuffle_i64x2(v[c], v[c], _MM_SHUFFLE(3, 1, 2, 0));
        _mm256_storeu_si256((__m256i *)(void *)(dst + (size_t)c * dst_ld), _mm512_castsi512_si256(w));
        _mm256_storeu_si256((__m256i *)(void *)(dst + (size_t)(c + 8) * dst_ld),
                            _mm512_extracti64x4_epi64(w, 1));
    }
}
#endif

/* 16 x 16 bytes in AVX-512 registers: rows k, k + 4, k + 8, k + 12 in the
 * 128-bit quarters of register k, so that two interleaves (bytes, then
 * 16-bit pairs) leave in each quarter four columns' 4-byte pieces of its
 * four rows; one dword permutation then gathers each column's four pieces
 * from the four quarters. */
__attribute__((target("avx512f,avx512bw"))) static void
transpose_16x16_u8_avx512(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld)
{
    __m512i z[4], a[4], b[4];
    T_UNROLL
    for (int k = 0; k < 4; k++) {
        __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)(src + k * src_ld)));
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(src + (k + 4) * src_ld)), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(src + (k + 8) * src_ld)), 2);
        z[k] = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(src + (k + 12) * src_ld)), 3);
    }
    /* quarter q: rows (4q, 4q+1) and (4q+2, 4q+3) byte by byte */
    a[0] = _mm512_unpacklo_epi8(z[0], z[1]);
    a[1] = _mm512_unpackhi_epi8(z[0], z[1]);
    a[2] = _mm512_unpacklo_epi8(z[2], z[3]);
    a[3] = _mm512_unpackhi_epi8(z[2], z[3]);
    /* b[j], quarter q: columns 4j .. 4j+3, each rows 4q .. 4q+3 */
    b[0] = _mm512_unpacklo_epi16(a[0], a[2]);
    b[1] = _mm512_unpackhi_epi16(a[0], a[2]);
    b[2] = _mm512_unpacklo_epi16(a[1], a[3]);
    b[3] = _mm512_unpackhi_epi16(a[1], a[3]);
    /* dword q * 4 + c (column c of quarter q) to c * 4 + q */
    const __m512i idx = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
    T_UNROLL
    for (int jj = 0; jj < 4; jj++) {
        __m512i w = _mm512_permutexvar_epi32(idx, b[jj]);
        uint8_t *d = dst + (size_t)(4 * jj) * dst_ld;
        _mm_storeu_si128((__m128i *)(void *)d, _mm512_castsi512_si128(w));
        _mm_storeu_si128((__m128i *)(void *)(d + dst_ld), _mm512_extracti32x4_epi32(w, 1));
        _mm_storeu_si128((__m128i *)(void *)(d + 2 * dst_ld), _mm512_extracti32x4_epi32(w, 2));
        _mm_storeu_si128((__m128i *)(void *)(d + 3 * dst_ld), _mm512_extracti32x4_epi32(w, 3));
    }
}

/* Which 16 x 16 kernels this CPU runs: 2 AVX-512 (with the OS's
 * register state, as the matrix kernels probe it), 1 AVX2, 0 neither. */
static int wide_blocks(void)
{
#if defined(CVM_TRANSPOSE_AVX2)
    static _Atomic int state = -1;
    int s = state;
    if (s < 0) {
        s = (cvm_muladd_cpu_isa() & CVM_MM_ISA_AVX512) ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
        state = s;
    }
    return s;
#else
    return 0;
#endif
}

void cvm_transpose(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld, uint32_t rows,
                   uint32_t cols, uint32_t es)
{
    cvm_transpose_isa(dst, dst_ld, src, src_ld, rows, cols, es, ~0u);
}

void cvm_transpose_isa(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld,
                       uint32_t rows, uint32_t cols, uint32_t es, unsigned isa)
{
#if defined(CVM_TRANSPOSE_AVX2)
    int wide = (es == 2 || es == 1) && rows >= 16 && cols >= 16 ? wide_blocks() : 0;
    if (wide == 2 && !(isa & CVM_MM_ISA_AVX512))
        wide = 1;
    if (wide == 1 && (!(isa & CVM_MM_ISA_AVX2) || es == 1))
        wide = 0; /* (bytes: the AVX-512 kernel, else 8 x 8 blocks) */
    if (wide) {
        /* 16 x 16 blocks, then the strips left over as below */
        uint32_t rf = rows - rows % 16, cf = cols - cols % 16;
        for (uint32_t j0 = 0; j0 < cf; j0 += 16)
            for (uint32_t i0 = 0; i0 < rf; i0 += 16) {
                uint8_t *d = dst + j0 * dst_ld + (size_t)i0 * es;
                const uint8_t *sblk = src + i0 * src_ld + (size_t)j0 * es;
                if (es == 1)
                    transpose_16x16_u8_avx512(d, dst_ld, sblk, src_ld);
                else if (wide == 2)
                    transpose_16x16_u16_avx512(d, dst_ld, sblk, src_ld);
                else
                    transpose_16x16_u16(d, dst_ld, sblk, src_ld);
            }
        /* (a matrix of whole blocks, the usual case, has no strips) */
        if (rf < rows)
            transpose_rect(dst, dst_ld, src, src_ld, rf, rows, 0, cols, es);
        if (cf < cols)
            transpose_rect(dst, dst_ld, src, src_ld, 0, rf, cf, cols, es);
        return;
    }
#endif
    transpose_rect(dst, dst_ld, src, src_ld, 0, rows, 0, cols, es);
}
