/* KHR cooperative matrices through the engine against plain-loop references:
 * load (row/column major, strides), MulAdd (s8 and f16), per-invocation
 * element access through length() at several tile and subgroup sizes
 * (including padding when M*N is not a multiple of the subgroup size),
 * matrix x scalar, matrix + matrix, f32 -> f16 conversion; load and store
 * through vector pointees with rows of 1 or 3 elements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "engine_util.h"
#include "numeric/numeric.h"

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* corpus gemm_khr_s8: C = A(MxK, s8 row-major) * B(KxN, s8 row-major) + 1000,
 * tiles TMxTN with TK steps, from specialization constants. */
static void run_s8(uint32_t M, uint32_t N, uint32_t K, uint32_t TM, uint32_t TN, uint32_t TK,
                   uint32_t sg)
{
    int8_t *a = malloc((size_t)M * K), *b = malloc((size_t)K * N);
    int32_t *c = calloc((size_t)M * N, 4);
    uint32_t seed = M * 31 + N * 7 + K + TM + sg;
    for (size_t i = 0; i < (size_t)M * K; i++)
        a[i] = (int8_t)lcg(&seed);
    for (size_t i = 0; i < (size_t)K * N; i++)
        b[i] = (int8_t)lcg(&seed);
    cvm_specialization sp[6] = {{0, 4, M}, {1, 4, N}, {2, 4, K}, {3, 4, TM}, {4, 4, TN}, {5, 4, TK}};
    tu_run r;
    if (tu_open(&r, "corpus/gemm_khr_s8/gemm_khr_s8.spv", sg, 0, 0, sp, 6) != CVM_SUCCESS)
        fail_msg("open: %s", r.diag.message);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 0, 0, a, (size_t)M * K, NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 1, 0, b, (size_t)K * N, NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 2, 0, c, (size_t)M * N * 4, NULL), CVM_SUCCESS);
    if (cvm_pipeline_dispatch(r.pipe, N / TN, M / TM, 1, &r.diag) != CVM_SUCCESS)
        fail_msg("dispatch: %s", r.diag.message);
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++) {
            int32_t s = 1000;
            for (uint32_t k = 0; k < K; k++)
                s += a[(size_t)i * K + k] * b[(size_t)k * N + j];
            if (c[(size_t)i * N + j] != s)
                fail_msg("C[%u][%u] = %d, expected %d (tiles %ux%ux%u, subgroup %u)", i, j,
                         c[(size_t)i * N + j], s, TM, TN, TK, sg);
        }
    tu_close(&r);
    free(a);
    free(b);
    free(c);
}

static void test_s8_corpus_shape(void **s) { (void)s; run_s8(64, 64, 128, 16, 16, 32, 32); }
static void test_s8_small_tiles_sg8(void **s) { (void)s; run_s8(32, 48, 64, 8, 8, 16, 8); }
static void test_s8_padding_sg64(void **s) { (void)s; run_s8(24, 48, 40, 8, 24, 8, 64); } /* 192 elements over 64 lanes: L=3 */
static void test_s8_padding_sg128(void **s) { (void)s; run_s8(20, 14, 21, 5, 7, 3, 128); } /* 35 elements, L=1, 93 lanes of padding */
static void test_s8_odd_tiles_sg4(void **s) { (void)s; run_s8(27, 30, 35, 9, 10, 7, 4); }

/* corpus gemm_khr_f16 with its own inputs: C = alpha*A*B + beta*C0, D = f16(C). */
static void test_f16_gemm(void **s)
{
    (void)s;
    enum { M = 64, N = 48, K = 80 };
    uint16_t a[M * K], b[N * K], d[M * N];
    float c[M * N], c0[M * N];
    uint32_t seed = 99;
    for (int i = 0; i < M * K; i++)
        a[i] = cvm_f32_to_f16((float)((int)(lcg(&seed) % 41) - 20) / 8.0f);
    for (int i = 0; i < N * K; i++)
        b[i] = cvm_f32_to_f16((float)((int)(lcg(&seed) % 41) - 20) / 16.0f);
    for (int i = 0; i < M * N; i++)
        c[i] = c0[i] = (float)((int)(lcg(&seed) % 100) - 50) / 4.0f;
    float pc[2] = {0.5f, 2.0f};
    cvm_specialization sp[3] = {{0, 4, M}, {1, 4, N}, {2, 4, K}};
    tu_run r;
    if (tu_open(&r, "corpus/gemm_khr_f16/gemm_khr_f16.spv", 32, 0, 0, sp, 3) != CVM_SUCCESS)
        fail_msg("open: %s", r.diag.message);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 0, 0, a, sizeof(a), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 1, 0, b, sizeof(b), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 2, 0, c, sizeof(c), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 3, 0, d, sizeof(d), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_set_push_constants(r.pipe, pc, sizeof(pc), NULL), CVM_SUCCESS);
    if (cvm_pipeline_dispatch(r.pipe, N / 16, M / 16, 1, &r.diag) != CVM_SUCCESS)
        fail_msg("dispatch: %s", r.diag.message);
    /* Inputs are small multiples of powers of two: every product and partial
     * sum is exact in f32, so the result is exact whatever the order. */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) /* B is column-major: b[j*K + k] */
                acc += cvm_f16_to_f32(a[i * K + k]) * cvm_f16_to_f32(b[j * K + k]);
            float e = acc * 0.5f + c0[i * N + j] * 2.0f;
            if (c[i * N + j] != e)
                fail_msg("C[%d][%d] = %g, expected %g", i, j, (double)c[i * N + j], (double)e);
            if (d[i * N + j] != cvm_f32_to_f16(e))
                fail_msg("D[%d][%d] = 0x%04x, expected 0x%04x", i, j, d[i * N + j], cvm_f32_to_f16(e));
        }
    tu_close(&r);
}

static void test_load_out_of_bounds(void **s)
{
    (void)s;
    /* A buffer one element short: the last tile's row must be reported. */
    enum { M = 16, N = 16, K = 32 };
    int8_t a[M * K - 1], b[K * N];
    int32_t c[M * N];
    memset(a, 1, sizeof(a));
    memset(b, 1, sizeof(b));
    cvm_specialization sp[6] = {{0, 4, M}, {1, 4, N}, {2, 4, K}, {3, 4, 16}, {4, 4, 16}, {5, 4, 32}};
    tu_run r;
    assert_int_equal(tu_open(&r, "corpus/gemm_khr_s8/gemm_khr_s8.spv", 32, 1, 0, sp, 6), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 0, 0, a, sizeof(a), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 1, 0, b, sizeof(b), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 2, 0, c, sizeof(c), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_dispatch(r.pipe, 1, 1, 1, &r.diag), CVM_ERROR_OUT_OF_BOUNDS);
    assert_int_equal(r.diag.opcode, 4457 /* OpCooperativeMatrixLoadKHR */);
    assert_non_null(strstr(r.diag.message, "511"));
    tu_close(&r);
}

/* OpMatrixTimesScalar on integer matrices wraps like OpIMul (it was once
 * computed through double, losing the low bits of products >= 2^53). */
static void test_int_matrix_times_scalar(void **st)
{
    (void)st;
    int32_t i32[512];
    uint32_t u32[512];
    int32_t want_i[512];
    uint32_t want_u[512];
    struct { int32_t si; uint32_t su; } pc = {987654321, 4000000000u};
    uint32_t seed = 7;
    for (int i = 0; i < 512; i++) {
        i32[i] = i == 0 ? 123456789 : i == 1 ? INT32_MAX : (int32_t)lcg(&seed) - (1 << 23);
        u32[i] = i == 0 ? UINT32_MAX : lcg(&seed) * 977u;
        want_i[i] = (int32_t)((uint32_t)i32[i] * (uint32_t)pc.si);
        want_u[i] = u32[i] * pc.su;
    }
    assert_int_equal(want_i[0], -67153019); /* 123456789 * 987654321 mod 2^32 */
    tu_run r;
    if (tu_open(&r, "shaders/coopmat_int_scale.spv", 32, 1, 0, NULL, 0) != CVM_SUCCESS)
        fail_msg("open: %s", r.diag.message);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 0, 0, i32, sizeof(i32), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 1, 0, u32, sizeof(u32), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_set_push_constants(r.pipe, &pc, sizeof(pc), NULL), CVM_SUCCESS);
    if (cvm_pipeline_dispatch(r.pipe, 1, 1, 1, &r.diag) != CVM_SUCCESS)
        fail_msg("dispatch: %s", r.diag.message);
    assert_memory_equal(i32, want_i, sizeof(i32));
    assert_memory_equal(u32, want_u, sizeof(u32));
    tu_close(&r);
}

/* Load and store through f16vec2 / f16vec4 pointees at the sizes a
 * granularity of 1 lets the Vulkan CTS use (docs/cts-small-sizes.md): rows
 * of 1 or 3 elements, at odd vector offsets. The expected scalars follow the
 * text: element (r, c) is scalar W*(Offset + r*Stride) + c of a buffer of
 * vecW, and a store leaves the rest of each vector as it was. */
static void run_vector_pointee(uint32_t M, uint32_t N, uint32_t loff, uint32_t lstride, uint32_t soff,
                               uint32_t sstride, uint32_t sg, uint32_t shared)
{
    enum { SRC = 64, DST = 64 }; /* scalars; the shader's shared copies hold as many */
    uint16_t src[SRC], dense[16], dst[DST], want_dst[DST];
    for (uint32_t i = 0; i < SRC; i++)
        src[i] = cvm_f32_to_f16((float)i + 1.0f); /* scalar i holds i + 1 */
    for (uint32_t i = 0; i < DST; i++)
        dst[i] = want_dst[i] = cvm_f32_to_f16(-1.0f);
    memset(dense, 0, sizeof(dense));
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t c = 0; c < N; c++)
            want_dst[4 * (soff + r * sstride) + c] = src[2 * (loff + r * lstride) + c];
    cvm_specialization sp[8] = {{0, 4, M},    {1, 4, N},       {2, 4, loff}, {3, 4, lstride},
                                {4, 4, soff}, {5, 4, sstride}, {6, 4, sg},   {7, 4, shared}};
    tu_run t;
    if (tu_open(&t, "shaders/coopmat_vector_pointee.spv", sg, 1, 0, sp, 8) != CVM_SUCCESS)
        fail_msg("open: %s", t.diag.message);
    assert_int_equal(cvm_pipeline_bind_buffer(t.pipe, 0, 0, 0, src, sizeof(src), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(t.pipe, 0, 1, 0, dense, sizeof(dense), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(t.pipe, 0, 2, 0, dst, sizeof(dst), NULL), CVM_SUCCESS);
    if (cvm_pipeline_dispatch(t.pipe, 1, 1, 1, &t.diag) != CVM_SUCCESS)
        fail_msg("dispatch: %s", t.diag.message);
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t c = 0; c < N; c++) {
            float got = cvm_f16_to_f32(dense[r * N + c]);
            float want = (float)(2 * (loff + r * lstride) + c) + 1.0f;
            if (got != want)
                fail_msg("%ux%u, f16vec2 offset %u stride %u, subgroup %u, shared %u: element (%u, %u) = %g, "
                         "expected %g",
                         M, N, loff, lstride, sg, shared, r, c, (double)got, (double)want);
        }
    for (uint32_t i = 0; i < DST; i++)
        if (dst[i] != want_dst[i])
            fail_msg("%ux%u, f16vec4 offset %u stride %u, subgroup %u, shared %u: scalar %u = %g, expected %g",
                     M, N, soff, sstride, sg, shared, i, (double)cvm_f16_to_f32(dst[i]),
                     (double)cvm_f16_to_f32(want_dst[i]));
    tu_close(&t);
}

static void test_vector_pointee_small(void **s)
{
    (void)s;
    for (uint32_t sh = 0; sh < 2; sh++) /* a buffer, then workgroup memory */
        for (uint32_t sg = 4; sg <= 32; sg *= 8) {
            run_vector_pointee(1, 1, 3, 4, 1, 2, sg, sh); /* one scalar: component 0 of vec2 3 */
            run_vector_pointee(1, 3, 5, 4, 3, 2, sg, sh); /* a row across two f16vec2 */
            run_vector_pointee(3, 1, 1, 4, 1, 3, sg, sh); /* 3 rows of one element */
            run_vector_pointee(3, 3, 1, 2, 0, 1, sg, sh); /* rows 4 scalars apart, 3 used */
            run_vector_pointee(2, 3, 0, 3, 2, 5, sg, sh); /* 6 scalars between rows: odd offsets */
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s8_corpus_shape),    cmocka_unit_test(test_s8_small_tiles_sg8),
        cmocka_unit_test(test_s8_padding_sg64),    cmocka_unit_test(test_s8_padding_sg128),
        cmocka_unit_test(test_s8_odd_tiles_sg4),   cmocka_unit_test(test_f16_gemm),
        cmocka_unit_test(test_load_out_of_bounds),
        cmocka_unit_test(test_int_matrix_times_scalar),
        cmocka_unit_test(test_vector_pointee_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
