/* Cooperative-vector kernels (coopvec_kernels.h): the reference products,
 * their AVX2 variants (x86-64 with AVX2 and FMA, chosen at run time), the
 * layouts, the supported combinations and the host conversion.
 *
 * The AVX2 variants vectorise over invocations (8 f32, 4 f64 or 8 i32 lanes
 * of one vector are 8, 4 or 8 invocations) with a register tile of 4 result
 * rows; every accumulator still takes its products for k = 0, 1, ... in
 * order, starting from the bias, so the results equal the reference's bit for
 * bit (the products are exact: an FMA rounds once, like the reference's
 * add). */
#include "exec/kernels/coopvec_kernels.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "cvm_common.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define CV_HAVE_X86 1
#include <immintrin.h>
#else
#define CV_HAVE_X86 0
#endif

/* ---- reference products --------------------------------------------------- */

void cvm_coopvec_matmul_f32_reference(uint32_t m, uint32_t k, uint32_t l, const float *w,
                                      const float *x, const float *bias, float *r)
{
    for (uint32_t j = 0; j < m; j++) {
        for (uint32_t i = 0; i < l; i++) {
            float acc = bias ? bias[j] : 0.0f;
            for (uint32_t q = 0; q < k; q++)
                acc = acc + w[(size_t)j * k + q] * x[(size_t)q * l + i];
            r[(size_t)j * l + i] = acc;
        }
    }
}

void cvm_coopvec_matmul_f64_reference(uint32_t m, uint32_t k, uint32_t l, const double *w,
                                      const double *x, const double *bias, double *r)
{
    for (uint32_t j = 0; j < m; j++) {
        for (uint32_t i = 0; i < l; i++) {
            double acc = bias ? bias[j] : 0.0;
            for (uint32_t q = 0; q < k; q++)
                acc = acc + w[(size_t)j * k + q] * x[(size_t)q * l + i];
            r[(size_t)j * l + i] = acc;
        }
    }
}

void cvm_coopvec_matmul_i32_reference(uint32_t m, uint32_t k, uint32_t l, const int32_t *w,
                                      const int32_t *x, const int32_t *bias, int32_t *r)
{
    for (uint32_t j = 0; j < m; j++) {
        for (uint32_t i = 0; i < l; i++) {
            uint32_t acc = bias ? (uint32_t)bias[j] : 0u;
            for (uint32_t q = 0; q < k; q++)
                acc += (uint32_t)w[(size_t)j * k + q] * (uint32_t)x[(size_t)q * l + i];
            r[(size_t)j * l + i] = (int32_t)acc;
        }
    }
}

/* ---- AVX2 variants ---------------------------------------------------------- */

#if CV_HAVE_X86

/* 0 = not probed yet, 1 = absent, 2 = present.  Racing first calls store the
 * same value. */
static _Atomic int cv_avx2_state;

static int cv_has_avx2(void)
{
    int s = atomic_load_explicit(&cv_avx2_state, memory_order_relaxed);
    if (s == 0) {
        __builtin_cpu_init();
        s = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ? 2 : 1;
        atomic_store_explicit(&cv_avx2_state, s, memory_order_relaxed);
    }
    return s == 2;
}

#define CV_TARGET __attribute__((target("avx2,fma")))

/* Rows j0..j0+nj-1 (nj <= 4) of r, invocations i0.. in steps of 8. */
CV_TARGET static void cv_f32_rows(uint32_t j0, uint32_t nj, uint32_t k, uint32_t l, uint32_t lv,
                                  const float *w, const float *x, const float *bias, float *r)
{
    for (uint32_t i = 0; i < lv; i += 8) {
        __m256 acc[4];
        for (uint32_t t = 0; t < 4; t++)
            acc[t] = _mm256_set1_ps(t < nj && bias ? bias[j0 + t] : 0.0f);
        for (uint32_t q = 0; q < k; q++) {
            __m256 xv = _mm256_loadu_ps(x + (size_t)q * l + i);
            for (uint32_t t = 0; t < 4; t++)
                if (t < nj)
                    acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(w[(size_t)(j0 + t) * k + q]), xv, acc[t]);
        }
        for (uint32_t t = 0; t < nj; t++)
            _mm256_storeu_ps(r + (size_t)(j0 + t) * l + i, acc[t]);
    }
}

CV_TARGET static void cv_f32_avx2(uint32_t m, uint32_t k, uint32_t l, const float *w,
                                  const float *x, const float *bias, float *r)
{
    uint32_t lv = l / 8 * 8;
    for (uint32_t j = 0; j < m; j += 4) {
        uint32_t nj = CVM_MIN(4u, m - j);
        if (nj == 4)
            cv_f32_rows(j, 4, k, l, lv, w, x, bias, r);
        else
            cv_f32_rows(j, nj, k, l, lv, w, x, bias, r);
        for (uint32_t t = 0; t < nj; t++)
            for (uint32_t i = lv; i < l; i++) {
                float acc = bias ? bias[j + t] : 0.0f;
                for (uint32_t q = 0; q < k; q++)
                    acc = acc + w[(size_t)(j + t) * k + q] * x[(size_t)q * l + i];
                r[(size_t)(j + t) * l + i] = acc;
            }
    }
}

CV_TARGET static void cv_f64_avx2(uint32_t m, uint32_t k, uint32_t l, const double *w,
                                  const double *x, const double *bias, double *r)
{
    uint32_t lv = l / 4 * 4;
    for (uint32_t j = 0; j < m; j += 4) {
        uint32_t nj = CVM_MIN(4u, m - j);
        for (uint32_t i = 0; i < lv; i += 4) {
            __m256d acc[4];
            for (uint32_t t = 0; t < 4; t++)
                acc[t] = _mm256_set1_pd(t < nj && bias ? bias[j + t] : 0.0);
            for (uint32_t q = 0; q < k; q++) {
                __m256d xv = _mm256_loadu_pd(x + (size_t)q * l + i);
                for (uint32_t t = 0; t < nj; t++)
                    acc[t] = _mm256_fmadd_pd(_mm256_set1_pd(w[(size_t)(j + t) * k + q]), xv, acc[t]);
            }
            for (uint32_t t = 0; t < nj; t++)
                _mm256_storeu_pd(r + (size_t)(j + t) * l + i, acc[t]);
        }
        for (uint32_t t = 0; t < nj; t++)
            for (uint32_t i = lv; i < l; i++) {
                double acc = bias ? bias[j + t] : 0.0;
                for (uint32_t q = 0; q < k; q++)
                    acc = acc + w[(size_t)(j + t) * k + q] * x[(size_t)q * l + i];
                r[(size_t)(j + t) * l + i] = acc;
            }
    }
}

CV_TARGET static void cv_i32_avx2(uint32_t m, uint32_t k, uint32_t l, const int32_t *w,
                                  const int32_t *x, const int32_t *bias, int32_t *r)
{
    uint32_t lv = l / 8 * 8;
    for (uint32_t j = 0; j < m; j += 4) {
        uint32_t nj = CVM_MIN(4u, m - j);
        for (uint32_t i = 0; i < lv; i += 8) {
            __m256i acc[4];
            for (uint32_t t = 0; t < 4; t++)
                acc[t] = _mm256_set1_epi32(t < nj && bias ? bias[j + t] : 0);
            for (uint32_t q = 0; q < k; q++) {
                __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)(x + (size_t)q * l + i));
                for (uint32_t t = 0; t < nj; t++)
                    acc[t] = _mm256_add_epi32(
                        acc[t], _mm256_mullo_epi32(_mm256_set1_epi32(w[(size_t)(j + t) * k + q]), xv));
            }
            for (uint32_t t = 0; t < nj; t++)
                _mm256_storeu_si256((__m256i *)(void *)(r + (size_t)(j + t) * l + i), acc[t]);
        }
        for (uint32_t t = 0; t < nj; t++)
            for (uint32_t i = lv; i < l; i++) {
                uint32_t acc = bias ? (uint32_t)bias[j + t] : 0u;
                for (uint32_t q = 0; q < k; q++)
                    acc += (uint32_t)w[(size_t)(j + t) * k + q] * (uint32_t)x[(size_t)q * l + i];
                r[(size_t)(j + t) * l + i] = (int32_t)acc;
            }
    }
}

#endif /* CV_HAVE_X86 */

void cvm_coopvec_matmul_f32(uint32_t m, uint32_t k, uint32_t l, const float *w, const float *x,
                            const float *bias, float *r)
{
#if CV_HAVE_X86
    if (l >= 8 && cv_has_avx2()) {
        cv_f32_avx2(m, k, l, w, x, bias, r);
        return;
    }
#endif
    cvm_coopvec_matmul_f32_reference(m, k, l, w, x, bias, r);
}

void cvm_coopvec_matmul_f64(uint32_t m, uint32_t k, uint32_t l, const double *w, const double *x,
                            const double *bias, double *r)
{
#if CV_HAVE_X86
    if (l >= 4 && cv_has_avx2()) {
        cv_f64_avx2(m, k, l, w, x, bias, r);
        return;
    }
#endif
    cvm_coopvec_matmul_f64_reference(m, k, l, w, x, bias, r);
}

void cvm_coopvec_matmul_i32(uint32_t m, uint32_t k, uint32_t l, const int32_t *w,
                            const int32_t *x, const int32_t *bias, int32_t *r)
{
#if CV_HAVE_X86
    if (l >= 8 && cv_has_avx2()) {
        cv_i32_avx2(m, k, l, w, x, bias, r);
        return;
    }
#endif
    cvm_coopvec_matmul_i32_reference(m, k, l, w, x, bias, r);
}

const char *cvm_coopvec_matmul_variant(char acc)
{
    (void)acc;
#if CV_HAVE_X86
    if (cv_has_avx2())
        return "avx2";
#endif
    return "reference";
}

/* ---- f16 <-> f32 ------------------------------------------------------------------- */

void cvm_coopvec_f16_to_f32(const uint16_t *src, float *dst, size_t n)
{
    cvm_f16_to_f32_n(src, dst, n);
}

void cvm_coopvec_f32_to_f16(const float *src, uint16_t *dst, size_t n)
{
    cvm_f32_to_f16_n(src, dst, n);
    for (size_t i = 0; i < n; i++)
        if (isnan(src[i]))
            dst[i] = 0x7e00u;
}

/* ---- layouts ------------------------------------------------------------------- */

static uint64_t cv_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void cvm_coopvec_layout_init(cvm_coopvec_layout *o, uint32_t layout, uint32_t rows, uint32_t cols,
                             uint64_t stride, uint32_t esize, int scramble)
{
    memset(o, 0, sizeof(*o));
    o->layout = layout;
    o->rows = rows;
    o->cols = cols;
    o->esize = esize;
    if (layout == CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR || layout == CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR) {
        o->stride = stride;
    } else if (scramble) {
        uint64_t n = (uint64_t)rows * cols;
        uint64_t a = n * 618 / 1000;
        a |= 1u;
        while (n > 1 && cv_gcd(a, n) != 1)
            a += 2;
        o->scramble = a;
    }
}

uint64_t cvm_coopvec_layout_extent(const cvm_coopvec_layout *L)
{
    if (L->rows == 0 || L->cols == 0)
        return 0;
    uint64_t outer, inner, lead, line, sum;
    switch (L->layout) {
    case CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR:
        outer = L->rows, inner = L->cols;
        break;
    case CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR:
        outer = L->cols, inner = L->rows;
        break;
    default: /* every element once, tight */
        if (__builtin_mul_overflow((uint64_t)L->rows * L->cols, (uint64_t)L->esize, &sum))
            return UINT64_MAX;
        return sum;
    }
    /* (outer - 1) * stride + inner * esize */
    if (__builtin_mul_overflow(outer - 1, L->stride, &lead) ||
        __builtin_mul_overflow(inner, (uint64_t)L->esize, &line) ||
        __builtin_add_overflow(lead, line, &sum) || sum == UINT64_MAX)
        return UINT64_MAX;
    return sum;
}

uint64_t cvm_coopvec_conversion_size(const cvm_coopvec_layout *L)
{
    uint64_t e = cvm_coopvec_layout_extent(L);
    if (L->layout == CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR ||
        L->layout == CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR)
        return e;
    const uint64_t a = CVM_COOPVEC_OPTIMAL_SIZE_ALIGN;
    if (e > UINT64_MAX - a)
        return UINT64_MAX;
    return (e + a - 1) / a * a;
}

/* ---- component types --------------------------------------------------------- */

cvm_scalar_kind cvm_coopvec_component_kind(uint32_t t)
{
    switch (t) {
    case CVM_COMPONENT_TYPE_FLOAT16: return CVM_SK_F16;
    case CVM_COMPONENT_TYPE_FLOAT32: return CVM_SK_F32;
    case CVM_COMPONENT_TYPE_FLOAT64: return CVM_SK_F64;
    case CVM_COMPONENT_TYPE_SINT8: return CVM_SK_S8;
    case CVM_COMPONENT_TYPE_SINT16: return CVM_SK_S16;
    case CVM_COMPONENT_TYPE_SINT32: return CVM_SK_S32;
    case CVM_COMPONENT_TYPE_SINT64: return CVM_SK_S64;
    case CVM_COMPONENT_TYPE_UINT8: return CVM_SK_U8;
    case CVM_COMPONENT_TYPE_UINT16: return CVM_SK_U16;
    case CVM_COMPONENT_TYPE_UINT32: return CVM_SK_U32;
    case CVM_COMPONENT_TYPE_UINT64: return CVM_SK_U64;
    case CVM_COMPONENT_TYPE_BFLOAT16: return CVM_SK_BF16;
    case CVM_COMPONENT_TYPE_SINT8_PACKED: return CVM_SK_S8;
    case CVM_COMPONENT_TYPE_UINT8_PACKED: return CVM_SK_U8;
    case CVM_COMPONENT_TYPE_FLOAT_E4M3: return CVM_SK_E4M3;
    case CVM_COMPONENT_TYPE_FLOAT_E5M2: return CVM_SK_E5M2;
    default: return CVM_SK_COUNT;
    }
}

const char *cvm_coopvec_component_name(uint32_t t)
{
    switch (t) {
    case CVM_COMPONENT_TYPE_FLOAT16: return "FLOAT16";
    case CVM_COMPONENT_TYPE_FLOAT32: return "FLOAT32";
    case CVM_COMPONENT_TYPE_FLOAT64: return "FLOAT64";
    case CVM_COMPONENT_TYPE_SINT8: return "SINT8";
    case CVM_COMPONENT_TYPE_SINT16: return "SINT16";
    case CVM_COMPONENT_TYPE_SINT32: return "SINT32";
    case CVM_COMPONENT_TYPE_SINT64: return "SINT64";
    case CVM_COMPONENT_TYPE_UINT8: return "UINT8";
    case CVM_COMPONENT_TYPE_UINT16: return "UINT16";
    case CVM_COMPONENT_TYPE_UINT32: return "UINT32";
    case CVM_COMPONENT_TYPE_UINT64: return "UINT64";
    case CVM_COMPONENT_TYPE_BFLOAT16: return "BFLOAT16";
    case CVM_COMPONENT_TYPE_SINT8_PACKED: return "SINT8_PACKED";
    case CVM_COMPONENT_TYPE_UINT8_PACKED: return "UINT8_PACKED";
    case CVM_COMPONENT_TYPE_FLOAT_E4M3: return "FLOAT_E4M3";
    case CVM_COMPONENT_TYPE_FLOAT_E5M2: return "FLOAT_E5M2";
    default: return "unknown";
    }
}

/* The combinations, generated from these rules (every row the Vulkan text
 * requires is among them):
 *   float: matrixInterpretation M in {FLOAT16, BFLOAT16, FLOAT32, FLOAT_E4M3,
 *     FLOAT_E5M2}, inputInterpretation = M, inputType in {FLOAT16, BFLOAT16,
 *     FLOAT32, SINT32, UINT32} and, for the fp8 M, M itself;
 *     biasInterpretation in {FLOAT16, FLOAT32} (and BFLOAT16 with a BFLOAT16
 *     matrix); resultType in {FLOAT16, FLOAT32} (the GLSL text's float
 *     result types);
 *   integer: matrixInterpretation in {SINT8, UINT8}; inputInterpretation
 *     SINT8 or UINT8 with inputType in {SINT8, UINT8, SINT32, UINT32,
 *     FLOAT16, FLOAT32}, or SINT8_PACKED / UINT8_PACKED with inputType
 *     UINT32; biasInterpretation and resultType in {SINT32, UINT32}. */
typedef struct cv_sink {
    cvm_coopvec_properties *o;
    uint32_t cap, n;
} cv_sink;

static void cv_emit(cv_sink *s, uint32_t in, uint32_t ii, uint32_t mi, uint32_t bi, uint32_t rt)
{
    if (s->o && s->n < s->cap) {
        cvm_coopvec_properties *p = &s->o[s->n];
        p->input_type = in;
        p->input_interpretation = ii;
        p->matrix_interpretation = mi;
        p->bias_interpretation = bi;
        p->result_type = rt;
        p->transpose = 1;
    }
    s->n++;
}

uint32_t cvm_coopvec_combinations(cvm_coopvec_properties *o, uint32_t cap)
{
    static const uint32_t fmat[] = {CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_BFLOAT16,
                                    CVM_COMPONENT_TYPE_FLOAT32, CVM_COMPONENT_TYPE_FLOAT_E4M3,
                                    CVM_COMPONENT_TYPE_FLOAT_E5M2};
    static const uint32_t fin[] = {CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_BFLOAT16,
                                   CVM_COMPONENT_TYPE_FLOAT32, CVM_COMPONENT_TYPE_SINT32,
                                   CVM_COMPONENT_TYPE_UINT32};
    static const uint32_t fres[] = {CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT32};
    static const uint32_t imat[] = {CVM_COMPONENT_TYPE_SINT8, CVM_COMPONENT_TYPE_UINT8};
    static const uint32_t iin[] = {CVM_COMPONENT_TYPE_SINT8, CVM_COMPONENT_TYPE_UINT8,
                                   CVM_COMPONENT_TYPE_SINT32, CVM_COMPONENT_TYPE_UINT32,
                                   CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT32};
    static const uint32_t ipacked[] = {CVM_COMPONENT_TYPE_SINT8_PACKED,
                                       CVM_COMPONENT_TYPE_UINT8_PACKED};
    static const uint32_t ires[] = {CVM_COMPONENT_TYPE_SINT32, CVM_COMPONENT_TYPE_UINT32};
    cv_sink s = {o, cap, 0};
    for (size_t a = 0; a < CVM_ARRAY_SIZE(fmat); a++) {
        uint32_t mi = fmat[a];
        int fp8 = mi == CVM_COMPONENT_TYPE_FLOAT_E4M3 || mi == CVM_COMPONENT_TYPE_FLOAT_E5M2;
        uint32_t biases[3] = {CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT32,
                              CVM_COMPONENT_TYPE_BFLOAT16};
        uint32_t nb = mi == CVM_COMPONENT_TYPE_BFLOAT16 ? 3 : 2;
        for (size_t b = 0; b < CVM_ARRAY_SIZE(fin) + (size_t)fp8; b++) {
            uint32_t in = b < CVM_ARRAY_SIZE(fin) ? fin[b] : mi;
            for (uint32_t c = 0; c < nb; c++)
                for (size_t d = 0; d < CVM_ARRAY_SIZE(fres); d++)
                    cv_emit(&s, in, mi, mi, biases[c], fres[d]);
        }
    }
    for (size_t a = 0; a < CVM_ARRAY_SIZE(imat); a++) {
        for (size_t ii = 0; ii < 4; ii++) {
            int packed = ii >= 2;
            uint32_t interp = packed ? ipacked[ii - 2] : imat[ii];
            for (size_t b = 0; b < (packed ? 1 : CVM_ARRAY_SIZE(iin)); b++) {
                uint32_t in = packed ? CVM_COMPONENT_TYPE_UINT32 : iin[b];
                for (size_t c = 0; c < CVM_ARRAY_SIZE(ires); c++)
                    for (size_t d = 0; d < CVM_ARRAY_SIZE(ires); d++)
                        cv_emit(&s, in, interp, imat[a], ires[c], ires[d]);
            }
        }
    }
    return s.n;
}

int cvm_coopvec_combination_supported(uint32_t input_type, uint32_t input_interpretation,
                                      uint32_t matrix_interpretation,
                                      uint32_t bias_interpretation, uint32_t result_type)
{
    enum { CAP = 512 };
    cvm_coopvec_properties all[CAP];
    uint32_t n = cvm_coopvec_combinations(all, CAP);
    for (uint32_t i = 0; i < n && i < CAP; i++) {
        const cvm_coopvec_properties *p = &all[i];
        if (p->input_type == input_type && p->input_interpretation == input_interpretation &&
            p->matrix_interpretation == matrix_interpretation && p->result_type == result_type &&
            (bias_interpretation == UINT32_MAX || p->bias_interpretation == bias_interpretation))
            return 1;
    }
    return 0;
}

/* ---- host conversion -------------------------------------------------------------- */

int cvm_coopvec_convert(const cvm_coopvec_layout *sl, cvm_scalar_kind sk, const uint8_t *src,
                        size_t src_size, const cvm_coopvec_layout *dl, cvm_scalar_kind dk,
                        uint8_t *dst, size_t dst_size)
{
    /* Every element offset lies below its layout's extent (which did not
     * overflow), so these bound every read and write below. */
    uint64_t have = cvm_coopvec_layout_extent(sl), extent = cvm_coopvec_layout_extent(dl);
    uint64_t need = cvm_coopvec_conversion_size(dl);
    if (sl->rows != dl->rows || sl->cols != dl->cols || have == UINT64_MAX ||
        need == UINT64_MAX || have > src_size || need > dst_size || extent > need ||
        cvm_sk_size(sk) != sl->esize || cvm_sk_size(dk) != dl->esize)
        return -1;
    for (uint32_t r = 0; r < sl->rows; r++) {
        for (uint32_t c = 0; c < sl->cols; c++) {
            const uint8_t *s = src + cvm_coopvec_element_offset(sl, r, c);
            uint8_t *d = dst + cvm_coopvec_element_offset(dl, r, c);
            if (sk == dk)
                memcpy(d, s, sl->esize);
            else
                cvm_store_from_f64(dk, d, cvm_load_as_f64(sk, s), 0);
        }
    }
    if (need > extent) /* an optimal layout's padding */
        memset(dst + extent, 0, (size_t)(need - extent));
    return 0;
}
