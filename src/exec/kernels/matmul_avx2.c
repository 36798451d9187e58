/* The AVX2 (+ FMA + F16C) MulAdd variants, for CPUs without AVX-512 and as
 * the tested fallback on those with it.  Each sums exactly what the
 * reference sums, in the same order per element, so results are
 * bit-identical (matmul_ref.c defines the numerics):
 *
 *  - "avx2_f32" (default numerics, cvm_mm_uses_f32): A and B converted to
 *    f32 (exact), the accumulators start at C as f32 and take one FMA per k
 *    in order: vfmadd is the reference's fmaf.  Vectorised over N (8 floats),
 *    register tile 6 x 16.
 *
 *  - "avx2_f64": A and B of kinds f16, bf16, f32, e4m3, e5m2; any float C/R.
 *    Operands are widened to double (exact), every element's accumulator
 *    starts at C and takes the products for k = 0, 1, ... in order.  A
 *    product of two such values has at most 48 significant bits and cannot
 *    underflow a double, so FMA (one rounding of a*b + acc) equals the
 *    reference's separate multiply (exact) and add (one rounding).  Blocking
 *    over K keeps the per-element order: a block resumes from the stored
 *    accumulator.  Vectorised over N (4 doubles), register tile 4 x 8.
 *
 *  - "avx2_i8": A and B of kinds s8/u8 (read signed or not by the flags),
 *    integer C/R.  Operands widened to int16, pairs along K multiplied and
 *    summed by vpmaddwd into int32 accumulators.  With K <= 32768 no partial
 *    sum can leave int32 (|a*b| <= 255*255), so the sum of products is exact
 *    and order does not matter; C and the result go through the reference's
 *    own finish.  Register tile 4 x 16.
 *
 * Working memory comes from the caller (matmul.c). */
#include <string.h>

#include "exec/kernels/matmul_internal.h"

#if CVM_MM_HAVE_X86
#include <immintrin.h>

#define MM_TARGET __attribute__((target("avx2,fma,f16c")))

/* Single-precision variant (default numerics) ------------------------------- */

#define M32_MR 6
#define M32_NR 16

/* A row of `n` values of kind k as floats (exact for the kinds of the f32
 * path). */
MM_TARGET static void m32_row_to_f32(cvm_scalar_kind k, const uint8_t *src, size_t n, float *dst)
{
    size_t j = 0;
    if (k == CVM_SK_F16) {
        for (; j + 8 <= n; j += 8)
            _mm256_storeu_ps(dst + j,
                             _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + 2 * j))));
    } else if (k == CVM_SK_BF16) {
        for (; j + 8 <= n; j += 8) {
            __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(src + 2 * j)));
            _mm256_storeu_ps(dst + j, _mm256_castsi256_ps(_mm256_slli_epi32(w, 16)));
        }
    } else if (k == CVM_SK_F32) {
        memcpy(dst, src, n * 4);
        return;
    }
    size_t sz = j < n ? cvm_sk_size(k) : 0; /* (the vector loop's leftovers) */
    for (; j < n; j++)
        dst[j] = (float)cvm_load_as_f64(k, src + j * sz);
}

#define M32_LOAD2(i)                                                                           \
    __m256 c##i##0 = _mm256_loadu_ps(c + (i)*ldc), c##i##1 = _mm256_loadu_ps(c + (i)*ldc + 8)
#define M32_STEP2(i)                                                                           \
    do {                                                                                       \
        __m256 x = _mm256_broadcast_ss(a + (i)*lda + k);                                       \
        c##i##0 = _mm256_fmadd_ps(x, b0, c##i##0);                                             \
        c##i##1 = _mm256_fmadd_ps(x, b1, c##i##1);                                             \
    } while (0)
#define M32_STORE2(i)                                                                          \
    do {                                                                                       \
        _mm256_storeu_ps(c + (i)*ldc, c##i##0);                                                \
        _mm256_storeu_ps(c + (i)*ldc + 8, c##i##1);                                            \
    } while (0)

/* c[6][16] (rows ldc apart) += a[6][K] (rows lda apart) x b[K][16] (rows ldb
 * apart), one FMA per k in order. */
MM_TARGET static void m32_6x16(size_t K, const float *a, size_t lda, const float *b, size_t ldb,
                               float *c, size_t ldc)
{
    M32_LOAD2(0);
    M32_LOAD2(1);
    M32_LOAD2(2);
    M32_LOAD2(3);
    M32_LOAD2(4);
    M32_LOAD2(5);
    for (size_t k = 0; k < K; k++, b += ldb) {
        __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
        M32_STEP2(0);
        M32_STEP2(1);
        M32_STEP2(2);
        M32_STEP2(3);
        M32_STEP2(4);
        M32_STEP2(5);
    }
    M32_STORE2(0);
    M32_STORE2(1);
    M32_STORE2(2);
    M32_STORE2(3);
    M32_STORE2(4);
    M32_STORE2(5);
}

/* The same for the last 8 columns. */
MM_TARGET static void m32_6x8(size_t K, const float *a, size_t lda, const float *b, size_t ldb,
                              float *c, size_t ldc)
{
    __m256 c0 = _mm256_loadu_ps(c), c1 = _mm256_loadu_ps(c + ldc);
    __m256 c2 = _mm256_loadu_ps(c + 2 * ldc), c3 = _mm256_loadu_ps(c + 3 * ldc);
    __m256 c4 = _mm256_loadu_ps(c + 4 * ldc), c5 = _mm256_loadu_ps(c + 5 * ldc);
    for (size_t k = 0; k < K; k++, b += ldb) {
        __m256 b0 = _mm256_loadu_ps(b);
        c0 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + k), b0, c0);
        c1 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + lda + k), b0, c1);
        c2 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 2 * lda + k), b0, c2);
        c3 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 3 * lda + k), b0, c3);
        c4 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 4 * lda + k), b0, c4);
        c5 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 5 * lda + k), b0, c5);
    }
    _mm256_storeu_ps(c, c0);
    _mm256_storeu_ps(c + ldc, c1);
    _mm256_storeu_ps(c + 2 * ldc, c2);
    _mm256_storeu_ps(c + 3 * ldc, c3);
    _mm256_storeu_ps(c + 4 * ldc, c4);
    _mm256_storeu_ps(c + 5 * ldc, c5);
}

/* Results of one row from the f32 accumulators, 8 at a time for f32 and f16
 * results (the reference's rounding: vcvtps2ph rounds to nearest even as
 * the double -> f16 conversion of an f32 value does; NaN lanes become the
 * canonical NaN); returns how many of the row's `n` elements it wrote. */
MM_TARGET static size_t m32_finish_row(const cvm_muladd_desc *d, const float *acc, size_t idx0,
                                       size_t n)
{
    size_t j = 0;
    if (d->r_kind == CVM_SK_F32) {
        float *out = (float *)d->r + idx0;
        const __m256 canon = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000));
        for (; j + 8 <= n; j += 8) {
            __m256 v = _mm256_loadu_ps(acc + j);
            v = _mm256_blendv_ps(v, canon, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
            _mm256_storeu_ps(out + j, v);
        }
    } else if (d->r_kind == CVM_SK_F16) {
        uint8_t *out = (uint8_t *)d->r + idx0 * 2;
        const __m128i canon = _mm_set1_epi16(0x7e00);
        for (; j + 8 <= n; j += 8) {
            __m256 v = _mm256_loadu_ps(acc + j);
            __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
            __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
            __m128i nan16 =
                _mm_packs_epi32(_mm256_castsi256_si128(nan), _mm256_extracti128_si256(nan, 1));
            _mm_storeu_si128((__m128i *)(out + 2 * j), _mm_blendv_epi8(h, canon, nan16));
        }
    }
    return j;
}

size_t cvm_mm_avx2_f32_work(const cvm_muladd_desc *d)
{
    size_t mp = cvm_mm_round_up(d->m, M32_MR), np = cvm_mm_round_up(d->n, 8);
    return (mp * d->k + (size_t)d->k * np + mp * np) * sizeof(float);
}

MM_TARGET void cvm_mm_avx2_f32(const cvm_muladd_desc *d, void *work)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t mp = cvm_mm_round_up(m, M32_MR), np = cvm_mm_round_up(n, 8);
    size_t as = cvm_sk_size(d->a_kind), bs = cvm_sk_size(d->b_kind), cs = cvm_sk_size(d->c_kind);
    /* A as f32 [mp][K], B as f32 [K][np], accumulators [mp][np]; padding
     * rows and columns are zero. */
    float *ap = work, *bp = ap + mp * kk, *acc = bp + kk * np;
    const uint8_t *a = d->a, *b = d->b, *c = d->c;
    for (size_t i = 0; i < m; i++)
        m32_row_to_f32(d->a_kind, a + i * kk * as, kk, ap + i * kk);
    memset(ap + m * kk, 0, (mp - m) * kk * sizeof(float));
    for (size_t k = 0; k < kk; k++) {
        m32_row_to_f32(d->b_kind, b + k * n * bs, n, bp + k * np);
        memset(bp + k * np + n, 0, (np - n) * sizeof(float));
    }
    for (size_t i = 0; i < m; i++) {
        m32_row_to_f32(d->c_kind, c + i * n * cs, n, acc + i * np);
        memset(acc + i * np + n, 0, (np - n) * sizeof(float));
    }
    memset(acc + m * np, 0, (mp - m) * np * sizeof(float));

    size_t jr = 0;
    for (; jr + M32_NR <= np; jr += M32_NR)
        for (size_t ir = 0; ir < mp; ir += M32_MR)
            m32_6x16(kk, ap + ir * kk, kk, bp + jr, np, acc + ir * np + jr, np);
    if (jr < np)
        for (size_t ir = 0; ir < mp; ir += M32_MR)
            m32_6x8(kk, ap + ir * kk, kk, bp + jr, np, acc + ir * np + jr, np);

    for (size_t i = 0; i < m; i++) {
        size_t j = m32_finish_row(d, acc + i * np, i * n, n);
        for (; j < n; j++)
            cvm_mm_float_finish(d, i * n + j, (double)acc[i * np + j]);
    }
}

/* Double-accumulating float variant ------------------------------------------------------------- */

#define MMF_MR 4
#define MMF_NR 8
#define MMF_KC 256
#define MMF_MC 64
#define MMF_NC 512

/* A row of `n` values of kind k as doubles (exact for the narrow kinds). */
MM_TARGET static void mmf_row_to_f64(cvm_scalar_kind k, const uint8_t *src, size_t n, double *dst)
{
    size_t j = 0;
    if (k == CVM_SK_F16) {
        for (; j + 8 <= n; j += 8) {
            __m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + 2 * j)));
            _mm256_storeu_pd(dst + j, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
            _mm256_storeu_pd(dst + j + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
        }
    } else if (k == CVM_SK_F32) {
        for (; j + 4 <= n; j += 4)
            _mm256_storeu_pd(dst + j, _mm256_cvtps_pd(_mm_loadu_ps((const float *)(src + 4 * j))));
    }
    size_t sz = j < n ? cvm_sk_size(k) : 0; /* (the vector loop's leftovers) */
    for (; j < n; j++)
        dst[j] = cvm_load_as_f64(k, src + j * sz);
}

/* acc[4][8] (rows ldc apart) += ap[kb][4] x bp[kb][8], k in order. */
MM_TARGET static void mmf_micro(size_t kb, const double *ap, const double *bp, double *acc,
                                size_t ldc)
{
    __m256d c00 = _mm256_loadu_pd(acc), c01 = _mm256_loadu_pd(acc + 4);
    __m256d c10 = _mm256_loadu_pd(acc + ldc), c11 = _mm256_loadu_pd(acc + ldc + 4);
    __m256d c20 = _mm256_loadu_pd(acc + 2 * ldc), c21 = _mm256_loadu_pd(acc + 2 * ldc + 4);
    __m256d c30 = _mm256_loadu_pd(acc + 3 * ldc), c31 = _mm256_loadu_pd(acc + 3 * ldc + 4);
    for (size_t k = 0; k < kb; k++) {
        __m256d b0 = _mm256_load_pd(bp), b1 = _mm256_load_pd(bp + 4);
        __m256d a0 = _mm256_broadcast_sd(ap), a1 = _mm256_broadcast_sd(ap + 1);
        c00 = _mm256_fmadd_pd(a0, b0, c00);
        c01 = _mm256_fmadd_pd(a0, b1, c01);
        c10 = _mm256_fmadd_pd(a1, b0, c10);
        c11 = _mm256_fmadd_pd(a1, b1, c11);
        __m256d a2 = _mm256_broadcast_sd(ap + 2), a3 = _mm256_broadcast_sd(ap + 3);
        c20 = _mm256_fmadd_pd(a2, b0, c20);
        c21 = _mm256_fmadd_pd(a2, b1, c21);
        c30 = _mm256_fmadd_pd(a3, b0, c30);
        c31 = _mm256_fmadd_pd(a3, b1, c31);
        ap += MMF_MR;
        bp += MMF_NR;
    }
    _mm256_storeu_pd(acc, c00);
    _mm256_storeu_pd(acc + 4, c01);
    _mm256_storeu_pd(acc + ldc, c10);
    _mm256_storeu_pd(acc + ldc + 4, c11);
    _mm256_storeu_pd(acc + 2 * ldc, c20);
    _mm256_storeu_pd(acc + 2 * ldc + 4, c21);
    _mm256_storeu_pd(acc + 3 * ldc, c30);
    _mm256_storeu_pd(acc + 3 * ldc + 4, c31);
}

/* Results for f32 and f16 kinds, four at a time; returns how many of the
 * row's `n` elements it wrote (the caller finishes the rest one by one).
 * Same values as cvm_mm_float_finish:
 *  - f32: vcvtpd2ps is the same IEEE conversion as the scalar (float) cast;
 *  - f16: F16C converts only from f32, and rounding twice (f64 -> f32 -> f16,
 *    both to nearest) can differ from rounding once.  Rounding to f32 "to
 *    odd" first (truncate, then set the last bit when inexact) does not:
 *    with f32 keeping at least two more bits than f16 at every f16
 *    magnitude, the odd bit only records that the value lies strictly
 *    between two f32 values, which decides exactly the cases where f16's
 *    nearest-even rounding needs it (Boldo & Melquiond, "When double
 *    rounding is odd").  Overflow comes out as FLT_MAX|1, which F16C
 *    rounds to infinity as the reference does.
 *  - NaN lanes become the canonical NaN. */
MM_TARGET static size_t mmf_finish_row(const cvm_muladd_desc *d, const double *acc,
                                       size_t idx0, size_t n)
{
    size_t j = 0;
    const __m256i lo32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
    if (d->r_kind == CVM_SK_F32) {
        float *out = (float *)((uint8_t *)d->r + idx0 * 4);
        const __m128 canon = _mm_castsi128_ps(_mm_set1_epi32(0x7fc00000));
        for (; j + 4 <= n; j += 4) {
            __m256d v = _mm256_loadu_pd(acc + j);
            __m128 f = _mm256_cvtpd_ps(v);
            __m128i nan = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
                _mm256_castpd_si256(_mm256_cmp_pd(v, v, _CMP_UNORD_Q)), lo32));
            f = _mm_blendv_ps(f, canon, _mm_castsi128_ps(nan));
            _mm_storeu_ps(out + j, f);
        }
    } else if (d->r_kind == CVM_SK_F16) {
        uint8_t *out = (uint8_t *)d->r + idx0 * 2;
        const __m128i canon = _mm_set1_epi16(0x7e00);
        const __m128i one = _mm_set1_epi32(1);
        for (; j + 4 <= n; j += 4) {
            __m256d v = _mm256_loadu_pd(acc + j);
            __m128 f = _mm256_cvtpd_ps(v);
            __m256d back = _mm256_cvtps_pd(f);
            __m256d away = _mm256_cmp_pd(_mm256_and_pd(back, absmask), _mm256_and_pd(v, absmask),
                                         _CMP_GT_OQ);
            __m256d inexact = _mm256_cmp_pd(back, v, _CMP_NEQ_OQ);
            __m128i aw = _mm256_castsi256_si128(
                _mm256_permutevar8x32_epi32(_mm256_castpd_si256(away), lo32));
            __m128i ix = _mm256_castsi256_si128(
                _mm256_permutevar8x32_epi32(_mm256_castpd_si256(inexact), lo32));
            __m128i fb = _mm_add_epi32(_mm_castps_si128(f), aw); /* truncated: step back */
            fb = _mm_or_si128(fb, _mm_and_si128(ix, one));        /* sticky odd bit */
            __m128i h = _mm_cvtps_ph(_mm_castsi128_ps(fb), _MM_FROUND_TO_NEAREST_INT);
            __m128i nan = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
                _mm256_castpd_si256(_mm256_cmp_pd(v, v, _CMP_UNORD_Q)), lo32));
            nan = _mm_packs_epi32(nan, nan); /* 4 x 16-bit masks */
            h = _mm_blendv_epi8(h, canon, nan);
            _mm_storel_epi64((__m128i *)(out + 2 * j), h);
        }
    }
    return j;
}

size_t cvm_mm_avx2_f64_work(const cvm_muladd_desc *d)
{
    size_t mp = cvm_mm_round_up(d->m, MMF_MR), np = cvm_mm_round_up(d->n, MMF_NR);
    size_t rowlen = d->k > d->n ? d->k : d->n;
    return (mp * d->k + np * d->k + mp * np + rowlen) * sizeof(double);
}

MM_TARGET void cvm_mm_avx2_f64(const cvm_muladd_desc *d, void *work)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t mp = cvm_mm_round_up(m, MMF_MR), np = cvm_mm_round_up(n, MMF_NR);
    size_t as = cvm_sk_size(d->a_kind), bs = cvm_sk_size(d->b_kind), cs = cvm_sk_size(d->c_kind);
    /* packed A [mp/4][K][4], packed B [np/8][K][8], the accumulators
     * [mp][np] and a row buffer. */
    size_t na = mp * kk, nb = np * kk, nc = mp * np;
    double *ap = work, *bp = ap + na, *acc = bp + nb, *row = acc + nc;

    const uint8_t *a = d->a, *b = d->b, *c = d->c;
    memset(ap, 0, na * sizeof(double));
    for (size_t i = 0; i < m; i++) {
        mmf_row_to_f64(d->a_kind, a + i * kk * as, kk, row);
        double *dst = ap + (i / MMF_MR) * kk * MMF_MR + i % MMF_MR;
        for (size_t k = 0; k < kk; k++)
            dst[k * MMF_MR] = row[k];
    }
    for (size_t k = 0; k < kk; k++) {
        mmf_row_to_f64(d->b_kind, b + k * n * bs, n, row);
        for (size_t j = 0; j < np; j++)
            bp[(j / MMF_NR) * kk * MMF_NR + k * MMF_NR + j % MMF_NR] = j < n ? row[j] : 0.0;
    }
    for (size_t i = 0; i < mp; i++) {
        if (i < m)
            mmf_row_to_f64(d->c_kind, c + i * n * cs, n, acc + i * np);
        for (size_t j = i < m ? n : 0; j < np; j++)
            acc[i * np + j] = 0.0;
    }

    for (size_t kc = 0; kc < kk; kc += MMF_KC) {
        size_t kb = kk - kc < MMF_KC ? kk - kc : MMF_KC;
        for (size_t jc = 0; jc < np; jc += MMF_NC) {
            size_t je = jc + MMF_NC < np ? jc + MMF_NC : np;
            for (size_t ic = 0; ic < mp; ic += MMF_MC) {
                size_t ie = ic + MMF_MC < mp ? ic + MMF_MC : mp;
                for (size_t jr = jc; jr < je; jr += MMF_NR) {
                    const double *bpan = bp + (jr / MMF_NR) * kk * MMF_NR + kc * MMF_NR;
                    for (size_t ir = ic; ir < ie; ir += MMF_MR)
                        mmf_micro(kb, ap + (ir / MMF_MR) * kk * MMF_MR + kc * MMF_MR, bpan,
                                  acc + ir * np + jr, np);
                }
            }
        }
    }

    for (size_t i = 0; i < m; i++) {
        size_t j = mmf_finish_row(d, acc + i * np, i * n, n);
        for (; j < n; j++)
            cvm_mm_float_finish(d, i * n + j, acc[i * np + j]);
    }
}

/* Int8 variant ------------------------------------------------------------- */

#define MMI_MR 4
#define MMI_NR 16
#define MMI_KC 512 /* in k, even */
#define MMI_MC 64

/* p[4][16] (rows ldp apart) += sum over kb/2 pairs of ap[.][4] x bp[.][16][2]. */
MM_TARGET static void mmi_micro(size_t kpairs, const int32_t *ap, const int16_t *bp, int32_t *p,
                                size_t ldp)
{
    __m256i c00 = _mm256_loadu_si256((const __m256i *)p);
    __m256i c01 = _mm256_loadu_si256((const __m256i *)(p + 8));
    __m256i c10 = _mm256_loadu_si256((const __m256i *)(p + ldp));
    __m256i c11 = _mm256_loadu_si256((const __m256i *)(p + ldp + 8));
    __m256i c20 = _mm256_loadu_si256((const __m256i *)(p + 2 * ldp));
    __m256i c21 = _mm256_loadu_si256((const __m256i *)(p + 2 * ldp + 8));
    __m256i c30 = _mm256_loadu_si256((const __m256i *)(p + 3 * ldp));
    __m256i c31 = _mm256_loadu_si256((const __m256i *)(p + 3 * ldp + 8));
    for (size_t q = 0; q < kpairs; q++) {
        __m256i b0 = _mm256_load_si256((const __m256i *)bp);
        __m256i b1 = _mm256_load_si256((const __m256i *)(bp + 16));
        __m256i a0 = _mm256_set1_epi32(ap[0]), a1 = _mm256_set1_epi32(ap[1]);
        c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(a0, b0));
        c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(a0, b1));
        c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(a1, b0));
        c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(a1, b1));
        __m256i a2 = _mm256_set1_epi32(ap[2]), a3 = _mm256_set1_epi32(ap[3]);
        c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(a2, b0));
        c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(a2, b1));
        c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(a3, b0));
        c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(a3, b1));
        ap += MMI_MR;
        bp += 2 * MMI_NR;
    }
    _mm256_storeu_si256((__m256i *)p, c00);
    _mm256_storeu_si256((__m256i *)(p + 8), c01);
    _mm256_storeu_si256((__m256i *)(p + ldp), c10);
    _mm256_storeu_si256((__m256i *)(p + ldp + 8), c11);
    _mm256_storeu_si256((__m256i *)(p + 2 * ldp), c20);
    _mm256_storeu_si256((__m256i *)(p + 2 * ldp + 8), c21);
    _mm256_storeu_si256((__m256i *)(p + 3 * ldp), c30);
    _mm256_storeu_si256((__m256i *)(p + 3 * ldp + 8), c31);
}

static int16_t mmi_operand(cvm_scalar_kind k, const uint8_t *p, int is_signed)
{
    /* 8-bit components: the text's extension, which fits int16. */
    return is_signed ? (int16_t)(int8_t)*p : (int16_t)*p;
}

size_t cvm_mm_avx2_i8_work(const cvm_muladd_desc *d)
{
    size_t mp = cvm_mm_round_up(d->m, MMI_MR), np = cvm_mm_round_up(d->n, MMI_NR);
    size_t kp = cvm_mm_round_up(d->k, 2);
    return cvm_mm_round_up(mp * (kp / 2) * 4, 32) + cvm_mm_round_up(np * kp * 2, 32) + mp * np * 4;
}

MM_TARGET void cvm_mm_avx2_i8(const cvm_muladd_desc *d, void *work)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t mp = cvm_mm_round_up(m, MMI_MR), np = cvm_mm_round_up(n, MMI_NR);
    size_t kp = cvm_mm_round_up(kk, 2), kh = kp / 2;
    /* packed A [mp/4][kp/2][4] int32 (two int16 along k), packed B
     * [np/16][kp/2][16][2] int16, sums [mp][np] int32. */
    size_t na = mp * kh, nb = np * kp, nc = mp * np;
    uint8_t *base = work;
    int32_t *ap = (int32_t *)base;
    int16_t *bp = (int16_t *)(base + cvm_mm_round_up(na * 4, 32));
    int32_t *ps = (int32_t *)((uint8_t *)bp + cvm_mm_round_up(nb * 2, 32));

    const uint8_t *a = d->a, *b = d->b;
    memset(ap, 0, na * 4);
    memset(bp, 0, nb * 2);
    memset(ps, 0, nc * 4);
    for (size_t i = 0; i < m; i++) {
        int32_t *dst = ap + (i / MMI_MR) * kh * MMI_MR + i % MMI_MR;
        for (size_t k = 0; k < kk; k++) {
            uint16_t v = (uint16_t)mmi_operand(d->a_kind, a + i * kk + k, d->a_signed);
            uint32_t *w = (uint32_t *)&dst[(k / 2) * MMI_MR];
            *w |= (uint32_t)v << (16 * (k & 1));
        }
    }
    for (size_t k = 0; k < kk; k++)
        for (size_t j = 0; j < n; j++)
            bp[(j / MMI_NR) * kp * MMI_NR + (k / 2) * 2 * MMI_NR + (j % MMI_NR) * 2 + (k & 1)] =
                mmi_operand(d->b_kind, b + k * n + j, d->b_signed);

    for (size_t kc = 0; kc < kp; kc += MMI_KC) {
        size_t kb = kp - kc < MMI_KC ? kp - kc : MMI_KC;
        for (size_t ic = 0; ic < mp; ic += MMI_MC) {
            size_t ie = ic + MMI_MC < mp ? ic + MMI_MC : mp;
            for (size_t jr = 0; jr < np; jr += MMI_NR) {
                const int16_t *bpan = bp + (jr / MMI_NR) * kp * MMI_NR + kc * MMI_NR;
                for (size_t ir = ic; ir < ie; ir += MMI_MR)
                    mmi_micro(kb / 2, ap + (ir / MMI_MR) * kh * MMI_MR + (kc / 2) * MMI_MR, bpan,
                              ps + ir * np + jr, np);
            }
        }
    }

    cvm_mm_int_finish_all(d, ps, np, NULL, NULL);
}


#endif /* CVM_MM_HAVE_X86 */
