/* The AVX-512 MulAdd variants (chosen at run time from CPUID; matmul.c).
 *
 *  - "avx512_f32" (default numerics, cvm_mm_uses_f32): A and B converted to
 *    f32 (exact), the accumulators start at C as f32 and take one FMA per k
 *    in order, which is the reference's fmaf: bit-identical to it.
 *    Vectorised over N (16 floats), register tile 8 x 32 (16 of the 32
 *    vector registers accumulate), 8 x 16 for a last half panel; a MulAdd
 *    of one 16-column panel of f16/bf16 B (the 16 x 16 tiles of subgroup
 *    scope) in 16 x 16 register tiles that widen B's rows as they read them.
 *
 *  - "avx512_vnni_i8": A and B of kinds s8/u8, integer C/R.  vpdpbusd
 *    multiplies unsigned bytes by signed bytes and adds four products into
 *    an int32.  A is made unsigned and B signed by flipping the top bit where
 *    the flags say otherwise (a' = a + 128 when A is signed, b' = b - 128
 *    when B is unsigned), and the exact sum is recovered per element:
 *      sum a*b = S + ob * rowsum(a') - oa * colsum(b') - K * oa * ob
 *    with S = sum a'*b', oa = 128 when A is signed (else 0), ob = 128 when B
 *    is unsigned (else 0).  |a'*b'| <= 255 * 128 and K <= 32768 keep S in
 *    int32, the corrections are formed in int64: every product sum is exact,
 *    so the result is the reference's.
 *
 *  - "avx512_bf16_pairs" (opt-in CVM_MULADD_BF16_PAIRS, bf16 x bf16):
 *    vdpbf16ps, with the numerics matmul.h describes (pairs of products
 *    along K, subnormals flushed, the hardware's own order).  No portable
 *    reference: tests bound its error against the precise reference and
 *    check exact agreement where no rounding can happen.
 *
 * Working memory comes from the caller (matmul.c). */
#include <string.h>

#include "exec/kernels/matmul_internal.h"

#if CVM_MM_HAVE_X86
#include <immintrin.h>

#define MM512_ISA "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c"
#define MM512_TARGET __attribute__((target(MM512_ISA)))
#define MM512_VNNI_TARGET __attribute__((target(MM512_ISA ",avx512vnni")))
#define MM512_BF16_TARGET __attribute__((target(MM512_ISA ",avx512bf16")))

#define MR 8
#define NR 32

/* Shared by the float variants ---------------------------------------------- */

/* A row of `n` values of kind k as floats (exact for the kinds of the f32
 * path). */
MM512_TARGET static void row_to_f32(cvm_scalar_kind k, const uint8_t *src, size_t n, float *dst)
{
    size_t j = 0;
    if (k == CVM_SK_F16) {
        for (; j + 16 <= n; j += 16)
            _mm512_storeu_ps(dst + j,
                             _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(src + 2 * j))));
    } else if (k == CVM_SK_BF16) {
        for (; j + 16 <= n; j += 16) {
            __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(src + 2 * j)));
            _mm512_storeu_ps(dst + j, _mm512_castsi512_ps(_mm512_slli_epi32(w, 16)));
        }
    } else if (k == CVM_SK_F32) {
        memcpy(dst, src, n * 4);
        return;
    }
    size_t sz = j < n ? cvm_sk_size(k) : 0; /* (the vector loop's leftovers) */
    for (; j < n; j++)
        dst[j] = (float)cvm_load_as_f64(k, src + j * sz);
}

/* Results of one row from f32 accumulators, 16 at a time for f32 and f16
 * results (vcvtps2ph rounds to nearest even, as the reference's double ->
 * f16 conversion of an f32 value does; NaN lanes become the canonical NaN);
 * returns how many of the row's `n` elements it wrote. */
MM512_TARGET static size_t finish_row(const cvm_muladd_desc *d, const float *acc, size_t idx0,
                                      size_t n)
{
    size_t j = 0;
    if (d->r_kind == CVM_SK_F32) {
        float *out = (float *)d->r + idx0;
        const __m512 canon = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fc00000));
        for (; j + 16 <= n; j += 16) {
            __m512 v = _mm512_loadu_ps(acc + j);
            v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v, canon);
            _mm512_storeu_ps(out + j, v);
        }
    } else if (d->r_kind == CVM_SK_F16) {
        uint8_t *out = (uint8_t *)d->r + idx0 * 2;
        const __m256i canon = _mm256_set1_epi16(0x7e00);
        for (; j + 16 <= n; j += 16) {
            __m512 v = _mm512_loadu_ps(acc + j);
            __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
            h = _mm256_mask_blend_epi16(_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), h, canon);
            _mm256_storeu_si256((__m256i *)(out + 2 * j), h);
        }
    }
    return j;
}

/* The accumulators [mp][np] from C (rows past m and columns past n zero),
 * and R from them. */
MM512_TARGET static void acc_from_c(const cvm_muladd_desc *d, float *acc, size_t mp, size_t np)
{
    size_t m = d->m, n = d->n, cs = cvm_sk_size(d->c_kind);
    for (size_t i = 0; i < m; i++) {
        row_to_f32(d->c_kind, (const uint8_t *)d->c + i * n * cs, n, acc + i * np);
        memset(acc + i * np + n, 0, (np - n) * sizeof(float));
    }
    memset(acc + m * np, 0, (mp - m) * np * sizeof(float));
}

MM512_TARGET static void r_from_acc(const cvm_muladd_desc *d, const float *acc, size_t np)
{
    size_t m = d->m, n = d->n;
    for (size_t i = 0; i < m; i++) {
        size_t j = finish_row(d, acc + i * np, i * n, n);
        for (; j < n; j++)
            cvm_mm_float_finish(d, i * n + j, (double)acc[i * np + j]);
    }
}

/* Single-precision variant (default numerics) -------------------------------- */

#define F_LOAD2(i)                                                                             \
    __m512 c##i##0 = _mm512_loadu_ps(c + (i)*ldc), c##i##1 = _mm512_loadu_ps(c + (i)*ldc + 16)
#define F_STEP2(i)                                                                             \
    do {                                                                                       \
        __m512 x = _mm512_set1_ps(a[(i)*lda + k]);                                             \
        c##i##0 = _mm512_fmadd_ps(x, b0, c##i##0);                                             \
        c##i##1 = _mm512_fmadd_ps(x, b1, c##i##1);                                             \
    } while (0)
#define F_STORE2(i)                                                                            \
    do {                                                                                       \
        _mm512_storeu_ps(c + (i)*ldc, c##i##0);                                                \
        _mm512_storeu_ps(c + (i)*ldc + 16, c##i##1);                                           \
    } while (0)

/* The same with NaNs made the canonical quiet NaN (as finish_row does): the
 * f32 kernels run the whole K loop per call, so what they store is final,
 * and R needs no separate pass over its NaNs afterwards. */
#define CANON_PS(v)                                                                            \
    _mm512_mask_blend_ps(_mm512_cmp_ps_mask((v), (v), _CMP_UNORD_Q), (v), canon)
#define F_STORE2_CANON(i)                                                                      \
    do {                                                                                       \
        _mm512_storeu_ps(c + (i)*ldc, CANON_PS(c##i##0));                                      \
        _mm512_storeu_ps(c + (i)*ldc + 16, CANON_PS(c##i##1));                                 \
    } while (0)

/* c[8][32] (rows ldc apart) += a[8][K] (rows lda apart) x b[K][32] (rows ldb
 * apart), one FMA per k in order; NaNs stored canonical (F_STORE2_CANON). */
MM512_TARGET static void f32_8x32(size_t K, const float *a, size_t lda, const float *b, size_t ldb,
                                  float *c, size_t ldc)
{
    const __m512 canon = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fc00000));
    F_LOAD2(0);
    F_LOAD2(1);
    F_LOAD2(2);
    F_LOAD2(3);
    F_LOAD2(4);
    F_LOAD2(5);
    F_LOAD2(6);
    F_LOAD2(7);
    for (size_t k = 0; k < K; k++, b += ldb) {
        __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
        F_STEP2(0);
        F_STEP2(1);
        F_STEP2(2);
        F_STEP2(3);
        F_STEP2(4);
        F_STEP2(5);
        F_STEP2(6);
        F_STEP2(7);
    }
    F_STORE2_CANON(0);
    F_STORE2_CANON(1);
    F_STORE2_CANON(2);
    F_STORE2_CANON(3);
    F_STORE2_CANON(4);
    F_STORE2_CANON(5);
    F_STORE2_CANON(6);
    F_STORE2_CANON(7);
}

#define F_LOAD1(i) __m512 c##i = _mm512_loadu_ps(c + (i)*ldc)
#define F_STEP1(i) c##i = _mm512_fmadd_ps(_mm512_set1_ps(a[(i)*lda + k]), b0, c##i)
#define F_STORE1(i) _mm512_storeu_ps(c + (i)*ldc, c##i)
#define F_STORE1_CANON(i) _mm512_storeu_ps(c + (i)*ldc, CANON_PS(c##i))

/* The same for a last panel of 16 columns. */
MM512_TARGET static void f32_8x16(size_t K, const float *a, size_t lda, const float *b, size_t ldb,
                                  float *c, size_t ldc)
{
    const __m512 canon = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fc00000));
    F_LOAD1(0);
    F_LOAD1(1);
    F_LOAD1(2);
    F_LOAD1(3);
    F_LOAD1(4);
    F_LOAD1(5);
    F_LOAD1(6);
    F_LOAD1(7);
    for (size_t k = 0; k < K; k++, b += ldb) {
        __m512 b0 = _mm512_loadu_ps(b);
        F_STEP1(0);
        F_STEP1(1);
        F_STEP1(2);
        F_STEP1(3);
        F_STEP1(4);
        F_STEP1(5);
        F_STEP1(6);
        F_STEP1(7);
    }
    F_STORE1_CANON(0);
    F_STORE1_CANON(1);
    F_STORE1_CANON(2);
    F_STORE1_CANON(3);
    F_STORE1_CANON(4);
    F_STORE1_CANON(5);
    F_STORE1_CANON(6);
    F_STORE1_CANON(7);
}

/* c[16][16] += a[16][K] x b[K][16] with B's rows f16 or bf16 (`ldb`
 * elements apart), widened in registers (exact): the whole tile of a
 * 16 x 16 MulAdd in sixteen accumulators, one B row load per k and no
 * converted copy of B.  The same FMAs in the same order as f32_8x16 over
 * converted rows; the rows stored with canonical NaNs, since the K loop is
 * whole here and they are final. */
#define B_ROW_F16(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p)))
#define B_ROW_BF16(p)                                                                          \
    _mm512_castsi512_ps(                                                                       \
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p))), 16))
#define F32_16X16_NARROW_B(NAME, B_ROW)                                                        \
    MM512_TARGET static inline __attribute__((always_inline)) void NAME(                       \
        size_t K, const float *a, size_t lda, const uint16_t *b, size_t ldb, float *c,         \
        size_t ldc)                                                                            \
    {                                                                                          \
        F_LOAD1(0);                                                                            \
        F_LOAD1(1);                                                                            \
        F_LOAD1(2);                                                                            \
        F_LOAD1(3);                                                                            \
        F_LOAD1(4);                                                                            \
        F_LOAD1(5);                                                                            \
        F_LOAD1(6);                                                                            \
        F_LOAD1(7);                                                                            \
        F_LOAD1(8);                                                                            \
        F_LOAD1(9);                                                                            \
        F_LOAD1(10);                                                                           \
        F_LOAD1(11);                                                                           \
        F_LOAD1(12);                                                                           \
        F_LOAD1(13);                                                                           \
        F_LOAD1(14);                                                                           \
        F_LOAD1(15);                                                                           \
        const __m512 canon = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fc00000));               \
        for (size_t k = 0; k < K; k++, b += ldb) {                                             \
            __m512 b0 = B_ROW(b);                                                              \
            F_STEP1(0);                                                                        \
            F_STEP1(1);                                                                        \
            F_STEP1(2);                                                                        \
            F_STEP1(3);                                                                        \
            F_STEP1(4);                                                                        \
            F_STEP1(5);                                                                        \
            F_STEP1(6);                                                                        \
            F_STEP1(7);                                                                        \
            F_STEP1(8);                                                                        \
            F_STEP1(9);                                                                        \
            F_STEP1(10);                                                                       \
            F_STEP1(11);                                                                       \
            F_STEP1(12);                                                                       \
            F_STEP1(13);                                                                       \
            F_STEP1(14);                                                                       \
            F_STEP1(15);                                                                       \
        }                                                                                      \
        F_STORE1_CANON(0);                                                                     \
        F_STORE1_CANON(1);                                                                     \
        F_STORE1_CANON(2);                                                                     \
        F_STORE1_CANON(3);                                                                     \
        F_STORE1_CANON(4);                                                                     \
        F_STORE1_CANON(5);                                                                     \
        F_STORE1_CANON(6);                                                                     \
        F_STORE1_CANON(7);                                                                     \
        F_STORE1_CANON(8);                                                                     \
        F_STORE1_CANON(9);                                                                     \
        F_STORE1_CANON(10);                                                                    \
        F_STORE1_CANON(11);                                                                    \
        F_STORE1_CANON(12);                                                                    \
        F_STORE1_CANON(13);                                                                    \
        F_STORE1_CANON(14);                                                                    \
        F_STORE1_CANON(15);                                                                    \
    }
F32_16X16_NARROW_B(f32_16x16_hb_body, B_ROW_F16)
F32_16X16_NARROW_B(f32_16x16_bb_body, B_ROW_BF16)

/* The kernels proper: with K = 16 (the common tile) A's sixteen row
 * offsets are constants, not sixteen registers the loop would spill. */
MM512_TARGET static void f32_16x16_narrow(int bf16, size_t K, const float *a, const uint16_t *b,
                                          float *c, size_t ldc)
{
    if (K == 16 && !bf16)
        f32_16x16_hb_body(16, a, 16, b, 16, c, ldc);
    else if (K == 16)
        f32_16x16_bb_body(16, a, 16, b, 16, c, ldc);
    else if (!bf16)
        f32_16x16_hb_body(K, a, K, b, 16, c, ldc);
    else
        f32_16x16_bb_body(K, a, K, b, 16, c, ldc);
}

size_t cvm_mm_avx512_f32_work(const cvm_muladd_desc *d)
{
    size_t mp = cvm_mm_round_up(d->m, MR), np = cvm_mm_round_up(d->n, 16);
    return (mp * d->k + (size_t)d->k * np + mp * np) * sizeof(float);
}

MM512_TARGET void cvm_mm_avx512_f32(const cvm_muladd_desc *d, void *work)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t mp = cvm_mm_round_up(m, MR), np = cvm_mm_round_up(n, 16);
    size_t bs = cvm_sk_size(d->b_kind);
    /* A as f32 [mp][K], B as f32 [K][np], accumulators [mp][np]; padding
     * rows and columns are zero. */
    float *ap = work, *bp = ap + mp * kk, *acc = bp + kk * np;
    const uint8_t *a = d->a, *b = d->b;
    /* A's rows are contiguous here as in d->a: one conversion; B's too
     * when its rows need no padding */
    row_to_f32(d->a_kind, a, m * kk, ap);
    memset(ap + m * kk, 0, (mp - m) * kk * sizeof(float));
    /* one 16-column panel of f16 or bf16 B in 16-row blocks (the 16 x 16
     * tiles of subgroup-scope MulAdds): B's rows straight from d->b,
     * widened in the kernel */
    int narrow = n == 16 && m % 16 == 0 &&
                 (d->b_kind == CVM_SK_F16 || d->b_kind == CVM_SK_BF16);
    if (narrow) {
    } else if (np == n) {
        row_to_f32(d->b_kind, b, kk * n, bp);
    } else {
        for (size_t k = 0; k < kk; k++) {
            row_to_f32(d->b_kind, b + k * n * bs, n, bp + k * np);
            memset(bp + k * np + n, 0, (np - n) * sizeof(float));
        }
    }
    /* f32 C and R in whole tiles: R itself is the accumulator (C copied in
     * unless R is C); the kernels store its NaNs canonical, as finish_row
     * does with the separate accumulators (which cover every column then) */
    int direct = d->c_kind == CVM_SK_F32 && d->r_kind == CVM_SK_F32 && mp == m && np == n;
    if (direct) {
        acc = d->r;
        if (d->r != d->c)
            memmove(acc, d->c, m * n * sizeof(float));
    } else {
        acc_from_c(d, acc, mp, np);
    }

    if (narrow) {
        for (size_t ir = 0; ir < m; ir += 16)
            f32_16x16_narrow(d->b_kind == CVM_SK_BF16, kk, ap + ir * kk, (const uint16_t *)b,
                             acc + ir * np, np);
    } else {
        size_t jr = 0;
        for (; jr + NR <= np; jr += NR)
            for (size_t ir = 0; ir < mp; ir += MR)
                f32_8x32(kk, ap + ir * kk, kk, bp + jr, np, acc + ir * np + jr, np);
        if (jr < np)
            for (size_t ir = 0; ir < mp; ir += MR)
                f32_8x16(kk, ap + ir * kk, kk, bp + jr, np, acc + ir * np + jr, np);
    }

    if (direct)
        return; /* (every f32 kernel stores canonical NaNs itself) */
    r_from_acc(d, acc, np);
}

/* BF16 pairs variant (opt-in) ------------------------------------------------- */

#define P_STEP2(i)                                                                             \
    do {                                                                                       \
        __m512bh x = (__m512bh)_mm512_set1_epi32((int)a[(i)*lda + q]);                         \
        c##i##0 = _mm512_dpbf16_ps(c##i##0, x, b0);                                            \
        c##i##1 = _mm512_dpbf16_ps(c##i##1, x, b1);                                            \
    } while (0)

/* c[8][32] += sum over pairs q: a[8][q] (two bf16 along K in 32 bits, rows
 * lda apart) x b[q][32][2] (rows ldb 32-bit words apart). */
MM512_BF16_TARGET static void bf16_8x32(size_t Q, const uint32_t *a, size_t lda,
                                        const uint32_t *b, size_t ldb, float *c, size_t ldc)
{
    F_LOAD2(0);
    F_LOAD2(1);
    F_LOAD2(2);
    F_LOAD2(3);
    F_LOAD2(4);
    F_LOAD2(5);
    F_LOAD2(6);
    F_LOAD2(7);
    for (size_t q = 0; q < Q; q++, b += ldb) {
        __m512bh b0 = (__m512bh)_mm512_loadu_si512(b), b1 = (__m512bh)_mm512_loadu_si512(b + 16);
        P_STEP2(0);
        P_STEP2(1);
        P_STEP2(2);
        P_STEP2(3);
        P_STEP2(4);
        P_STEP2(5);
        P_STEP2(6);
        P_STEP2(7);
    }
    F_STORE2(0);
    F_STORE2(1);
    F_STORE2(2);
    F_STORE2(3);
    F_STORE2(4);
    F_STORE2(5);
    F_STORE2(6);
    F_STORE2(7);
}

size_t cvm_mm_avx512_bf16_work(const cvm_muladd_desc *d)
{
    size_t mp = cvm_mm_round_up(d->m, MR), np = cvm_mm_round_up(d->n, NR);
    size_t kq = (d->k + 1) / 2;
    return (mp * kq + kq * np + mp * np) * 4;
}

MM512_BF16_TARGET void cvm_mm_avx512_bf16(const cvm_muladd_desc *d, void *work)
{
    size_t m = d->m, n = d->n, kk = d->k, kq = (kk + 1) / 2;
    size_t mp = cvm_mm_round_up(m, MR), np = cvm_mm_round_up(n, NR);
    /* A as bf16 pairs along K [mp][kq], B as pairs [kq][np] (the bf16 of row
     * 2q in the low half), accumulators [mp][np]; padding is zero (an odd K
     * pairs its last k with a zero). */
    uint32_t *ap = work, *bp = ap + mp * kq;
    float *acc = (float *)(bp + kq * np);
    const uint16_t *a = d->a, *b = d->b;
    const __m512i idx0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i idx1 =
        _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    memset(ap, 0, mp * kq * 4);
    for (size_t i = 0; i < m; i++)
        memcpy(ap + i * kq, a + i * kk, kk * 2); /* little-endian: k even in the low half */
    for (size_t q = 0; q < kq; q++) {
        uint32_t *dst = bp + q * np;
        const uint16_t *r0 = b + 2 * q * n, *r1 = 2 * q + 1 < kk ? r0 + n : NULL;
        size_t j = 0;
        for (; r1 && j + 32 <= n; j += 32) {
            /* unpack interleaves within 128-bit lanes: columns 0-3, 8-11,
             * ... and 4-7, 12-15, ...; the permutes put them in order */
            __m512i lo = _mm512_loadu_si512(r0 + j), hi = _mm512_loadu_si512(r1 + j);
            __m512i ul = _mm512_unpacklo_epi16(lo, hi), uh = _mm512_unpackhi_epi16(lo, hi);
            _mm512_storeu_si512(dst + j, _mm512_permutex2var_epi32(ul, idx0, uh));
            _mm512_storeu_si512(dst + j + 16, _mm512_permutex2var_epi32(ul, idx1, uh));
        }
        for (; j < n; j++)
            dst[j] = (uint32_t)r0[j] | (r1 ? (uint32_t)r1[j] << 16 : 0u);
        for (; j < np; j++)
            dst[j] = 0;
    }
    acc_from_c(d, acc, mp, np);
    for (size_t jr = 0; jr < np; jr += NR)
        for (size_t ir = 0; ir < mp; ir += MR)
            bf16_8x32(kq, ap + ir * kq, kq, bp + jr, np, acc + ir * np + jr, np);
    r_from_acc(d, acc, np);
}

/* Int8 variant through VNNI ----------------------------------------------- */

#define I_LOAD2(i)                                                                             \
    __m512i c##i##0 = _mm512_setzero_si512(), c##i##1 = _mm512_setzero_si512();                \
    if (c0) {                                                                                  \
        __m512i rv = _mm512_set1_epi32(rowadd[i]);                                             \
        c##i##0 = _mm512_add_epi32(_mm512_add_epi32(_mm512_loadu_si512(c0 + (i)*ldc), col0), rv); \
        c##i##1 = _mm512_add_epi32(_mm512_add_epi32(_mm512_loadu_si512(c0 + (i)*ldc + 16), col1), \
                                   rv);                                                        \
    }
#define I_STEP2(i)                                                                             \
    do {                                                                                       \
        __m512i x = _mm512_set1_epi32((int)a[(i)*lda + q]);                                    \
        c##i##0 = _mm512_dpbusd_epi32(c##i##0, x, b0);                                         \
        c##i##1 = _mm512_dpbusd_epi32(c##i##1, x, b1);                                         \
    } while (0)
#define I_STORE2(i)                                                                            \
    do {                                                                                       \
        _mm512_storeu_si512(s + (i)*lds, c##i##0);                                             \
        _mm512_storeu_si512(s + (i)*lds + 16, c##i##1);                                        \
    } while (0)

/* s[8][32] = sum over quads q of a[8][q] (four u8 along K in 32 bits, rows
 * lda apart) x b[q][32][4] (s8, rows ldb 32-bit words apart), from zero;
 * or, with c0, from c0[8][32] (rows ldc apart) + rowadd[8] + coladd[32]
 * (everything modulo 2^32, as vpdpbusd wraps). */
/* cvm_mm_int_finish_all's first case (32-bit C and R, no saturation: the
 * low 32 bits of S + row_add + col_add + C) 16 columns at a time, the
 * remainder as there.  0, having done nothing, for any other case. */
MM512_TARGET static int finish_i32_wrap(const cvm_muladd_desc *d, const int32_t *s, size_t lds,
                                        const int64_t *row_add, const int64_t *col_add)
{
    if (cvm_sk_size(d->c_kind) != 4 || cvm_mm_int_bits(d->r_kind) != 32 || d->saturate)
        return 0;
    size_t m = d->m, n = d->n;
    for (size_t i = 0; i < m; i++) {
        uint32_t ra = row_add ? (uint32_t)row_add[i] : 0;
        const uint8_t *cr = (const uint8_t *)d->c + i * n * 4;
        uint8_t *rr = (uint8_t *)d->r + i * n * 4;
        const int32_t *sr = s + i * lds;
        __m512i rav = _mm512_set1_epi32((int)ra);
        size_t j = 0;
        for (; j + 16 <= n; j += 16) {
            __m512i t = _mm512_add_epi32(_mm512_loadu_si512((const void *)(sr + j)), rav);
            t = _mm512_add_epi32(t, _mm512_loadu_si512((const void *)(cr + 4 * j)));
            if (col_add) { /* the low halves of 16 int64 */
                __m256i lo = _mm512_cvtepi64_epi32(_mm512_loadu_si512((const void *)(col_add + j)));
                __m256i hi =
                    _mm512_cvtepi64_epi32(_mm512_loadu_si512((const void *)(col_add + j + 8)));
                t = _mm512_add_epi32(
                    t, _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1));
            }
            _mm512_storeu_si512((void *)(rr + 4 * j), t);
        }
        for (; j < n; j++) {
            uint32_t cv;
            memcpy(&cv, cr + 4 * j, 4);
            uint32_t t = (uint32_t)sr[j] + ra + (col_add ? (uint32_t)col_add[j] : 0u) + cv;
            memcpy(rr + 4 * j, &t, 4);
        }
    }
    return 1;
}

MM512_VNNI_TARGET static void vnni_8x32(size_t Q, const uint32_t *a, size_t lda,
                                        const uint32_t *b, size_t ldb, int32_t *s, size_t lds,
                                        const int32_t *c0, size_t ldc, const int32_t *rowadd,
                                        const int32_t *coladd)
{
    __m512i col0 = _mm512_setzero_si512(), col1 = _mm512_setzero_si512();
    if (c0) {
        col0 = _mm512_loadu_si512(coladd);
        col1 = _mm512_loadu_si512(coladd + 16);
    }
    I_LOAD2(0);
    I_LOAD2(1);
    I_LOAD2(2);
    I_LOAD2(3);
    I_LOAD2(4);
    I_LOAD2(5);
    I_LOAD2(6);
    I_LOAD2(7);
    for (size_t q = 0; q < Q; q++, b += ldb) {
        __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 16);
        I_STEP2(0);
        I_STEP2(1);
        I_STEP2(2);
        I_STEP2(3);
        I_STEP2(4);
        I_STEP2(5);
        I_STEP2(6);
        I_STEP2(7);
    }
    I_STORE2(0);
    I_STORE2(1);
    I_STORE2(2);
    I_STORE2(3);
    I_STORE2(4);
    I_STORE2(5);
    I_STORE2(6);
    I_STORE2(7);
}

size_t cvm_mm_avx512_vnni_i8_work(const cvm_muladd_desc *d)
{
    size_t mp = cvm_mm_round_up(d->m, MR), np = cvm_mm_round_up(d->n, NR);
    size_t kq = (d->k + 3) / 4;
    return (mp * kq + kq * np + mp * np) * 4 + (mp + np) * 8;
}

MM512_VNNI_TARGET void cvm_mm_avx512_vnni_i8(const cvm_muladd_desc *d, void *work)
{
    size_t m = d->m, n = d->n, kk = d->k, kq = (kk + 3) / 4;
    size_t mp = cvm_mm_round_up(m, MR), np = cvm_mm_round_up(n, NR);
    /* A' as u8 quads along K [mp][kq], B' as s8 quads [kq][np][4], sums
     * [mp][np] int32, then the per-row and per-column corrections (int64).
     * Padding is zero, which adds nothing to S. */
    uint32_t *ap = work, *bp = ap + mp * kq;
    int32_t *s = (int32_t *)(bp + kq * np);
    int64_t *row_add = (int64_t *)(s + mp * np), *col_add = row_add + mp;
    const uint8_t *a = d->a, *b = d->b;
    uint8_t fa = d->a_signed ? 0x80 : 0, fb = d->b_signed ? 0 : 0x80;
    int64_t oa = d->a_signed ? 128 : 0, ob = d->b_signed ? 0 : 128;
    const __m512i zero512 = _mm512_setzero_si512();

    /* A': rows of whole quads and no padding rows are A's own layout, used
     * as it is when no bit needs flipping (4-byte aligned), else flipped 64
     * bytes at a time; other shapes row by row with zero padding */
    const uint32_t *aq = ap;
    const __m512i flip_a = _mm512_set1_epi8((char)fa);
    if (kk % 4 == 0 && mp == m) {
        if (!fa && ((uintptr_t)a & 3) == 0) {
            aq = (const uint32_t *)(const void *)a;
        } else {
            uint8_t *dst = (uint8_t *)ap;
            size_t total = m * kk;
            for (size_t x = 0; x < total; x += 64) {
                __mmask64 in = total - x >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << (total - x)) - 1;
                _mm512_mask_storeu_epi8(
                    dst + x, in, _mm512_xor_si512(_mm512_maskz_loadu_epi8(in, a + x), flip_a));
            }
        }
    } else {
        memset(ap, 0, mp * kq * 4);
        for (size_t i = 0; i < m; i++) {
            uint8_t *dst = (uint8_t *)(ap + i * kq);
            const uint8_t *row = a + i * kk;
            for (size_t k = 0; k < kk; k += 64) {
                __mmask64 in = kk - k >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << (kk - k)) - 1;
                _mm512_mask_storeu_epi8(
                    dst + k, in, _mm512_xor_si512(_mm512_maskz_loadu_epi8(in, row + k), flip_a));
            }
        }
    }
    /* + ob * rowsum(a') - K * oa * ob: with B unsigned only; the sums
     * through vpsadbw against zero (eight 64-bit sums of eight bytes) */
    if (!ob)
        memset(row_add, 0, m * sizeof(int64_t));
    for (size_t i = 0; ob && i < m; i++) {
        const uint8_t *row = (const uint8_t *)(aq + i * kq);
        __m512i sums = zero512;
        for (size_t k = 0; k < kk; k += 64) {
            __mmask64 in = kk - k >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << (kk - k)) - 1;
            sums = _mm512_add_epi64(sums, _mm512_sad_epu8(_mm512_maskz_loadu_epi8(in, row + k),
                                                          zero512));
        }
        int64_t sum = _mm512_reduce_add_epi64(sums); /* < 32768 * 256 */
        row_add[i] = ob * sum - (int64_t)kk * oa * ob;
    }

    /* B' in quads along K: bytes (k, j) for k = 4q .. 4q+3 side by side.
     * Whole 64-column blocks as four 512-bit rows: two interleaves (bytes,
     * then 16-bit pairs) leave in 128-bit lane L of register t columns
     * 16L + 4t .. 16L + 4t + 3, stored to their places; the rest sixteen
     * columns at a time, then one by one (zero padding). */
    const __m512i flip_b = _mm512_set1_epi8((char)fb);
    const __m128i flip = _mm_set1_epi8((char)fb), zero = _mm_setzero_si128();
    for (size_t q = 0; q < kq; q++) {
        const uint8_t *r[4];
        for (int t = 0; t < 4; t++)
            r[t] = 4 * q + (size_t)t < kk ? b + (4 * q + (size_t)t) * n : NULL;
        uint8_t *dst = (uint8_t *)(bp + q * np);
        size_t j = 0;
        for (; j + 64 <= n; j += 64) {
            __m512i x[4], y[4];
            for (int t = 0; t < 4; t++)
                x[t] = r[t] ? _mm512_xor_si512(_mm512_loadu_si512((const void *)(r[t] + j)), flip_b)
                            : zero512;
            __m512i lo01 = _mm512_unpacklo_epi8(x[0], x[1]);
            __m512i hi01 = _mm512_unpackhi_epi8(x[0], x[1]);
            __m512i lo23 = _mm512_unpacklo_epi8(x[2], x[3]);
            __m512i hi23 = _mm512_unpackhi_epi8(x[2], x[3]);
            y[0] = _mm512_unpacklo_epi16(lo01, lo23);
            y[1] = _mm512_unpackhi_epi16(lo01, lo23);
            y[2] = _mm512_unpacklo_epi16(hi01, hi23);
            y[3] = _mm512_unpackhi_epi16(hi01, hi23);
            uint8_t *o = dst + 4 * j;
            for (int t = 0; t < 4; t++) { /* lane L to columns 16L + 4t .. */
                _mm_storeu_si128((__m128i *)(void *)(o + 16 * t), _mm512_castsi512_si128(y[t]));
                _mm_storeu_si128((__m128i *)(void *)(o + 64 + 16 * t),
                                 _mm512_extracti32x4_epi32(y[t], 1));
                _mm_storeu_si128((__m128i *)(void *)(o + 128 + 16 * t),
                                 _mm512_extracti32x4_epi32(y[t], 2));
                _mm_storeu_si128((__m128i *)(void *)(o + 192 + 16 * t),
                                 _mm512_extracti32x4_epi32(y[t], 3));
            }
        }
        for (; j + 16 <= n; j += 16) {
            __m128i x[4];
            for (int t = 0; t < 4; t++)
                x[t] = r[t] ? _mm_xor_si128(
                                  _mm_loadu_si128((const __m128i *)(const void *)(r[t] + j)), flip)
                            : zero;
            __m128i lo01 = _mm_unpacklo_epi8(x[0], x[1]), hi01 = _mm_unpackhi_epi8(x[0], x[1]);
            __m128i lo23 = _mm_unpacklo_epi8(x[2], x[3]), hi23 = _mm_unpackhi_epi8(x[2], x[3]);
            _mm_storeu_si128((__m128i *)(void *)(dst + 4 * j), _mm_unpacklo_epi16(lo01, lo23));
            _mm_storeu_si128((__m128i *)(void *)(dst + 4 * j + 16), _mm_unpackhi_epi16(lo01, lo23));
            _mm_storeu_si128((__m128i *)(void *)(dst + 4 * j + 32), _mm_unpacklo_epi16(hi01, hi23));
            _mm_storeu_si128((__m128i *)(void *)(dst + 4 * j + 48), _mm_unpackhi_epi16(hi01, hi23));
        }
        for (; j < np; j++)
            for (int t = 0; t < 4; t++)
                dst[4 * j + (size_t)t] = j < n && r[t] ? (uint8_t)(r[t][j] ^ fb) : 0;
    }
    /* - oa * colsum(b'), with A signed only: the column sums from B' itself,
     * each quad's four bytes summed by vpdpbusd against ones (the padding
     * columns sum to zero) */
    int32_t *colsum = (int32_t *)col_add; /* reuses the space, widened below */
    if (oa) {
        const __m512i ones = _mm512_set1_epi8(1);
        for (size_t j = 0; j < np; j += 16) {
            __m512i w = zero512;
            for (size_t q = 0; q < kq; q++)
                w = _mm512_dpbusd_epi32(w, ones,
                                        _mm512_loadu_si512((const void *)(bp + q * np + j)));
            _mm512_storeu_si512((void *)(colsum + j), w);
        }
    }
    if (cvm_sk_size(d->c_kind) == 4 && cvm_mm_int_bits(d->r_kind) == 32 && !d->saturate &&
        mp == m && np == n) {
        /* finish_i32_wrap's case in whole tiles: each register tile starts
         * from C + the corrections (their low 32 bits: modulo 2^32) and is
         * stored to R (R may be C: a tile reads its C before it stores),
         * instead of S going through its own array and a pass */
        int32_t *r = d->r, *row32 = s, *col32 = s + m; /* s is not needed */
        const int32_t *c = d->c;
        for (size_t i = 0; i < m; i++)
            row32[i] = ob ? (int32_t)(uint32_t)row_add[i] : 0;
        const __m512i noa = _mm512_set1_epi32((int)-oa);
        for (size_t j = 0; j < n; j += 16) { /* (n: whole 32-column panels) */
            __m512i cs = oa ? _mm512_loadu_si512((const void *)(colsum + j)) : zero512;
            _mm512_storeu_si512((void *)(col32 + j), _mm512_mullo_epi32(cs, noa));
        }
        for (size_t jr = 0; jr < np; jr += NR)
            for (size_t ir = 0; ir < mp; ir += MR)
                vnni_8x32(kq, aq + ir * kq, kq, bp + jr, np, r + ir * n + jr, n,
                          c + ir * n + jr, n, row32 + ir, col32 + jr);
        return;
    }
    /* widened from the front of the same space: from the last column down,
     * so no sum is overwritten before it is read */
    for (size_t j = n; j-- > 0;)
        col_add[j] = oa ? -oa * (int64_t)colsum[j] : 0;
    for (size_t jr = 0; jr < np; jr += NR)
        for (size_t ir = 0; ir < mp; ir += MR)
            vnni_8x32(kq, aq + ir * kq, kq, bp + jr, np, s + ir * np + jr, np, NULL, 0, NULL,
                      NULL);
    if (!finish_i32_wrap(d, s, np, row_add, col_add))
        cvm_mm_int_finish_all(d, s, np, row_add, col_add);
}

#endif /* CVM_MM_HAVE_X86 */
