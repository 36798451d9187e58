/* MulAdd dispatch and the fast variants (x86-64 AVX2 + FMA + F16C, chosen at
 * run time).  Each variant sums exactly what the reference sums, in the same
 * order per element, so results are bit-identical (matmul_ref.c defines the
 * numerics):
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
 * Buffers for the packed operands come from cvm_malloc; if it fails the
 * reference runs instead (same results, no memory). */
#include <stdatomic.h>
#include <string.h>

#include "cvm_common.h"
#include "exec/kernels/matmul_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define MM_HAVE_X86 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define MM_HAVE_X86 0
#endif

/* Kinds whose products are exact in a double. */
static int mm_narrow_float(cvm_scalar_kind k)
{
    return k == CVM_SK_F16 || k == CVM_SK_BF16 || k == CVM_SK_F32 || k == CVM_SK_E4M3 ||
           k == CVM_SK_E5M2;
}

static int mm_int_kind(cvm_scalar_kind k)
{
    return !cvm_sk_is_float(k) && k != CVM_SK_BOOL && k < CVM_SK_COUNT;
}

#define MM_I8_MAX_K 32768u

#if MM_HAVE_X86

/* CPU features, probed once: 0 = not yet, 1 = absent, 2 = present.  Racing
 * first calls store the same value. */
static _Atomic int mm_avx2_state;

static int mm_has_avx2(void)
{
    int s = atomic_load_explicit(&mm_avx2_state, memory_order_relaxed);
    if (s == 0) {
        /* avx2 in __builtin_cpu_supports includes the OS's YMM state check;
         * F16C is read from CPUID leaf 1 (Clang's builtin does not name it). */
        unsigned eax, ebx, ecx, edx;
        int f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
        __builtin_cpu_init();
        s = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c) ? 2 : 1;
        atomic_store_explicit(&mm_avx2_state, s, memory_order_relaxed);
    }
    return s == 2;
}

#define MM_TARGET __attribute__((target("avx2,fma,f16c")))

static size_t mm_round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

/* Float variant ------------------------------------------------------------- */

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
    size_t sz = cvm_sk_size(k);
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

/* Returns 0 when memory is short (nothing written). */
MM_TARGET static int mmf_run(const cvm_muladd_desc *d)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t mp = mm_round_up(m, MMF_MR), np = mm_round_up(n, MMF_NR);
    size_t as = cvm_sk_size(d->a_kind), bs = cvm_sk_size(d->b_kind), cs = cvm_sk_size(d->c_kind);
    size_t rowlen = kk > n ? kk : n;
    /* One block: packed A [mp/4][K][4], packed B [np/8][K][8], the
     * accumulators [mp][np] and a row buffer; 32-byte aligned pieces. */
    size_t na = mp * kk, nb = np * kk, nc = mp * np;
    void *mem = cvm_malloc((na + nb + nc + rowlen) * sizeof(double) + 32);
    if (!mem)
        return 0;
    double *base = (double *)(((uintptr_t)mem + 31) & ~(uintptr_t)31);
    double *ap = base, *bp = ap + na, *acc = bp + nb, *row = acc + nc;

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
    cvm_mem_free(mem);
    return 1;
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

MM_TARGET static int mmi_run(const cvm_muladd_desc *d)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t mp = mm_round_up(m, MMI_MR), np = mm_round_up(n, MMI_NR);
    size_t kp = mm_round_up(kk, 2), kh = kp / 2;
    /* packed A [mp/4][kp/2][4] int32 (two int16 along k), packed B
     * [np/16][kp/2][16][2] int16, sums [mp][np] int32. */
    size_t na = mp * kh, nb = np * kp, nc = mp * np;
    void *mem = cvm_malloc(na * 4 + nb * 2 + nc * 4 + 64);
    if (!mem)
        return 0;
    uint8_t *base = (uint8_t *)(((uintptr_t)mem + 31) & ~(uintptr_t)31);
    int32_t *ap = (int32_t *)base;
    int16_t *bp = (int16_t *)(base + mm_round_up(na * 4, 32));
    int32_t *ps = (int32_t *)((uint8_t *)bp + mm_round_up(nb * 2, 32));

    const uint8_t *a = d->a, *b = d->b, *c = d->c;
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

    unsigned rbits = cvm_mm_int_bits(d->r_kind);
    size_t cs = cvm_sk_size(d->c_kind);
    if (cs == 4 && rbits == 32) {
        /* 32-bit C and R, the common case, without the generic helpers:
         * the same arithmetic as cvm_mm_int_finish, in int64 (|P| < 2^31). */
        int64_t lo = d->r_signed ? INT32_MIN : 0;
        int64_t hi = d->r_signed ? INT32_MAX : UINT32_MAX;
        for (size_t i = 0; i < m; i++) {
            for (size_t j = 0; j < n; j++) {
                size_t idx = i * n + j;
                uint32_t cb;
                memcpy(&cb, c + idx * 4, 4);
                int64_t cv = d->c_signed ? (int64_t)(int32_t)cb : (int64_t)cb;
                int64_t t = (int64_t)ps[i * np + j] + cv;
                if (d->saturate)
                    t = t < lo ? lo : t > hi ? hi : t;
                uint32_t rb = (uint32_t)t;
                memcpy((uint8_t *)d->r + idx * 4, &rb, 4);
            }
        }
        cvm_mem_free(mem);
        return 1;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            size_t idx = i * n + j;
            cvm_mm_int_finish(d, idx, (cvm_mm_i128)ps[i * np + j],
                              cvm_mm_int_operand(d->c_kind, c + idx * cs, d->c_signed, rbits));
        }
    cvm_mem_free(mem);
    return 1;
}

#endif /* MM_HAVE_X86 */

/* Dispatch ------------------------------------------------------------------- */

typedef enum mm_variant { MM_REFERENCE, MM_AVX2_F64, MM_AVX2_I8 } mm_variant;

static mm_variant mm_choose(const cvm_muladd_desc *d)
{
#if MM_HAVE_X86
    if (d->m == 0 || d->n == 0 || !mm_has_avx2())
        return MM_REFERENCE;
    if (mm_narrow_float(d->a_kind) && mm_narrow_float(d->b_kind) && cvm_sk_is_float(d->c_kind) &&
        cvm_sk_is_float(d->r_kind))
        return MM_AVX2_F64;
    if ((d->a_kind == CVM_SK_S8 || d->a_kind == CVM_SK_U8) &&
        (d->b_kind == CVM_SK_S8 || d->b_kind == CVM_SK_U8) && mm_int_kind(d->c_kind) &&
        mm_int_kind(d->r_kind) && d->k <= MM_I8_MAX_K)
        return MM_AVX2_I8;
#else
    (void)d;
    (void)mm_narrow_float;
    (void)mm_int_kind;
#endif
    return MM_REFERENCE;
}

const char *cvm_muladd_variant(const cvm_muladd_desc *d)
{
    switch (mm_choose(d)) {
    case MM_AVX2_F64: return "avx2_f64";
    case MM_AVX2_I8: return "avx2_i8";
    case MM_REFERENCE: break;
    }
    return "reference";
}

void cvm_muladd(const cvm_muladd_desc *d)
{
    switch (mm_choose(d)) {
#if MM_HAVE_X86
    case MM_AVX2_F64:
        if (mmf_run(d))
            return;
        break;
    case MM_AVX2_I8:
        if (mmi_run(d))
            return;
        break;
#endif
    default: break;
    }
    cvm_muladd_reference(d);
}
