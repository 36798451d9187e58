/* coopvm-bench: times the engine on the benchmark cases (the project's
 * bench/cases and ../shared/bench) against a native anchor doing the same
 * computation: OpenBLAS cblas_sgemm for the GEMMs (f16, bf16, s8 and
 * dequantized 4-bit inputs converted to f32 beforehand), plain C at -O2 for
 * the others (written from each case's .comp).
 *
 * Engine and anchor repetitions alternate (one warm-up of each, then engine,
 * anchor, engine, anchor, ...; buffers restored between them outside the
 * timing), so that a machine that gets busier or quieter moves both sides
 * of a ratio alike.  Per case: the median time of each side, and the median
 * of the per-pair ratios with its minimum and maximum.  One table row per
 * case, or one JSON document with --json.  Exit 0 unless a usage error.
 *
 * Adding a case: a folder with its AmberScript, a setup_* function that
 * fills an anchor, and one entry in `cases` below. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "amber/amber.h"
#include "coopvm.h"

#ifndef CVM_BENCH_HAVE_OPENBLAS
#define CVM_BENCH_HAVE_OPENBLAS 0
#endif
#if CVM_BENCH_HAVE_OPENBLAS
#include <cblas.h>
#endif

/* The GEMM anchor's kernel ---------------------------------------------------
 * OpenBLAS built with DYNAMIC_ARCH (Debian's) picks its kernels from the
 * CPU's family and model, and falls back to the SSE3 "Prescott" kernels for
 * a model it does not know: on a virtual Intel CPU with AVX-512 that 0.3.21
 * does not recognise, sgemm ran 5 times slower than its SkylakeX kernel, and
 * every GEMM ratio read 5 times too flattering.  So the anchor is checked
 * against the CPU's features (CPUID): where OpenBLAS chose a kernel below
 * them and OPENBLAS_CORETYPE is unset, coopvm-bench runs itself again with
 * OPENBLAS_CORETYPE naming the kernel the features allow (the variable is
 * read when the library loads, before main).  A set OPENBLAS_CORETYPE is
 * left as the user gave it.  The header names the kernel in use.
 *
 * Its idle threads, too: after a call OpenBLAS's worker threads spin
 * (sched_yield) for 2^28 cycles by default before they sleep, and the
 * engine's repetition runs right after the anchor's, so they took cores
 * from the engine's workers: with two threads on a 2-core machine,
 * bench_gemm_nv2_workgroup's engine time went from 46 ms to 24 ms with
 * OPENBLAS_THREAD_TIMEOUT=4 (2^4 cycles, the least it takes), the
 * anchor's stayed at 8 ms.  Where unset, it is set to 4 the same way. */
#if CVM_BENCH_HAVE_OPENBLAS
static const char *anchor_note = "";

static const char *anchor_best_core(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "Haswell";
#endif
    return NULL;
}

/* Whether core (OpenBLAS's name) uses at least the vector width of want. */
static int anchor_core_enough(const char *core, const char *want)
{
    static const char *const avx512[] = {"SkylakeX", "Cooperlake", "SapphireRapids"};
    static const char *const avx2[] = {"Haswell", "Zen", "SkylakeX", "Cooperlake",
                                       "SapphireRapids"};
    const char *const *list = !strcmp(want, "SkylakeX") ? avx512 : avx2;
    size_t n = !strcmp(want, "SkylakeX") ? 3 : 5;
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(core, list[i]))
            return 1;
    return 0;
}

/* Returns only if the process goes on as it is. */
static void anchor_check_core(char **argv)
{
    const char *core = openblas_get_corename();
    const char *want = anchor_best_core();
    int again = 0, set_core = 0;
    const char *retry = getenv("CVM_BENCH_CORE_RETRY"); /* "": the core was as set */
    if (retry) { /* run again already */
        if (core && want && !anchor_core_enough(core, want))
            anchor_note = *retry ? " (OpenBLAS kept it; the CPU allows more)"
                                 : " (OPENBLAS_CORETYPE as set; the CPU allows more)";
        return;
    }
    if (core && want && !anchor_core_enough(core, want)) {
        if (getenv("OPENBLAS_CORETYPE")) {
            anchor_note = " (OPENBLAS_CORETYPE as set; the CPU allows more)";
        } else {
            setenv("OPENBLAS_CORETYPE", want, 1);
            again = set_core = 1;
        }
    }
    if (!getenv("OPENBLAS_THREAD_TIMEOUT")) {
        setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1);
        again = 1;
    }
    if (!again)
        return;
    setenv("CVM_BENCH_CORE_RETRY", set_core ? core : "", 1);
    fflush(NULL);
    execv("/proc/self/exe", argv);
    anchor_note = " (could not run again with the settings above)";
}
#endif

/* Helpers ---------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* f16 -> f32 through a table (built once), f32 -> f16 round to nearest
 * even by bit manipulation: the anchors' conversions must be cheap. */
static float half_table[65536];

static void init_half_table(void)
{
    for (uint32_t h = 0; h < 65536; h++)
        half_table[h] = cvm_amber_half_to_float((uint16_t)h);
}

static inline uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) /* inf, NaN */
        return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0));
    if (ax >= 0x477ff000u) /* >= 65520: rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x38800000u) { /* below 2^-14: subnormal, units of 2^-24 */
        float a;
        memcpy(&a, &ax, 4);
        return (uint16_t)(sign | (uint32_t)nearbyintf(a * 0x1p24f));
    }
    uint32_t r = ax + 0xfffu + ((ax >> 13) & 1u); /* ties to even */
    return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
}

static inline float round_f16(float f)
{
    return half_table[f32_to_f16(f)];
}

/* Fixed-seed inputs when the shared folder is missing. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static float rng_uniform(void) /* [-1, 1) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 0x2545f4914f6cdd1dull;
    return (float)((double)(r >> 11) * 0x1p-53 * 2.0 - 1.0);
}

/* Case inputs ------------------------------------------------------------- */

/* The bytes of buffer `name` as the script initialises it (FILE or DATA),
 * read without the engine; NULL when there is no script or no such buffer.
 * `bytes` must match.  Free with free(). */
static void *script_buffer(const cvm_amber_script *s, const char *name, size_t bytes)
{
    if (!s)
        return NULL;
    uint32_t i = cvm_amber_find_buffer(s, name);
    if (i == UINT32_MAX || s->buffers[i].size != bytes)
        return NULL;
    const cvm_amber_buffer *b = &s->buffers[i];
    void *out = malloc(bytes);
    if (!out)
        return NULL;
    if (b->init == CVM_AMBER_INIT_DATA) {
        memcpy(out, b->data, bytes);
        return out;
    }
    FILE *f = b->init == CVM_AMBER_INIT_FILE_BINARY ? fopen(b->path, "rb") : NULL;
    if (!f || fread(out, 1, bytes, f) != bytes) {
        if (f)
            fclose(f);
        free(out);
        return NULL;
    }
    fclose(f);
    return out;
}

/* n halves as floats: from the script's buffer, or random halves. */
static float *input_f16(const cvm_amber_script *s, const char *name, size_t n)
{
    float *out = malloc(n * sizeof(float));
    uint16_t *h = script_buffer(s, name, n * 2);
    for (size_t i = 0; out && i < n; i++)
        out[i] = h ? half_table[h[i]] : round_f16(rng_uniform());
    free(h);
    return out;
}

static float *input_f32(const cvm_amber_script *s, const char *name, size_t n)
{
    float *out = script_buffer(s, name, n * 4);
    if (out)
        return out;
    out = malloc(n * sizeof(float));
    for (size_t i = 0; out && i < n; i++)
        out[i] = rng_uniform();
    return out;
}

/* Expected values as floats, or NULL (no script: no check).  `kind`: how
 * the buffer holds them. */
enum { EXP_F32, EXP_F16, EXP_I32 };

static float *expected_values(const cvm_amber_script *s, const char *name, size_t n, int kind)
{
    void *raw = script_buffer(s, name, n * (kind == EXP_F16 ? 2 : 4));
    if (!raw || kind == EXP_F32)
        return raw;
    float *out = malloc(n * sizeof(float));
    for (size_t i = 0; out && i < n; i++)
        out[i] = kind == EXP_F16 ? half_table[((uint16_t *)raw)[i]] : (float)((int32_t *)raw)[i];
    free(raw);
    return out;
}

/* n bfloat16 values as floats: from the script's buffer, or random. */
static float *input_bf16(const cvm_amber_script *s, const char *name, size_t n)
{
    float *out = malloc(n * sizeof(float));
    uint16_t *h = script_buffer(s, name, n * 2);
    for (size_t i = 0; out && i < n; i++) {
        uint32_t u;
        if (h) {
            u = (uint32_t)h[i] << 16;
        } else {
            float f = rng_uniform();
            memcpy(&u, &f, 4);
            u &= 0xffff0000u;
        }
        memcpy(&out[i], &u, 4);
    }
    free(h);
    return out;
}

/* n int8 values as floats. */
static float *input_s8(const cvm_amber_script *s, const char *name, size_t n)
{
    float *out = malloc(n * sizeof(float));
    int8_t *q = script_buffer(s, name, n);
    for (size_t i = 0; out && i < n; i++)
        out[i] = q ? (float)q[i] : (float)(int)(rng_uniform() * 128.0f);
    free(q);
    return out;
}

static double rmse(const float *got, const float *want, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)got[i] - (double)want[i];
        sum += d * d;
    }
    return sqrt(sum / (double)n);
}

/* Anchors ----------------------------------------------------------------- */

typedef struct anchor {
    const char *label;
    /* inputs and outputs, by case */
    float *a, *b, *c, *c0, *x, *y, *y0, *w, *bias, *o, *l;
    uint16_t *out16;
    float *expected;   /* first output's expected values, or NULL */
    size_t out_count;
    float alpha, beta, scale;
    uint32_t m, n, k;
    void (*reset)(struct anchor *);
    void (*run)(struct anchor *);
    const float *(*output)(struct anchor *); /* as floats, for the check */
} anchor;

static void anchor_free(anchor *A)
{
    free(A->a), free(A->b), free(A->c), free(A->c0), free(A->x), free(A->y), free(A->y0);
    free(A->w), free(A->bias), free(A->o), free(A->l), free(A->out16), free(A->expected);
}

static void reset_nothing(anchor *A)
{
    (void)A;
}

#if CVM_BENCH_HAVE_OPENBLAS /* output_c serves the OpenBLAS anchors only */
static const float *output_c(anchor *A)
{
    return A->c;
}

/* bench_gemm_khr_f16: C = alpha * A*B + beta * C0; A row-major MxK, B
 * column-major KxN (= row-major NxK, hence Trans). */
static void reset_gemm_khr(anchor *A)
{
    memcpy(A->c, A->c0, (size_t)A->m * A->n * sizeof(float));
}

static void run_gemm(anchor *A)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)A->m, (int)A->n, (int)A->k,
                A->alpha, A->a, (int)A->k, A->b, (int)A->k, A->beta, A->c, (int)A->n);
}
#endif

static int setup_gemm_khr(anchor *A, const cvm_amber_script *s)
{
#if CVM_BENCH_HAVE_OPENBLAS
    A->label = "OpenBLAS sgemm";
    A->m = A->n = A->k = 512;
    size_t mk = (size_t)A->m * A->k, mn = (size_t)A->m * A->n;
    A->alpha = 0.5f; /* push constants 1056964608, 1073741824 */
    A->beta = 2.0f;
    A->a = input_f16(s, "a", mk);
    A->b = input_f16(s, "b", mk);
    A->c0 = input_f32(s, "c", mn);
    A->c = malloc(mn * sizeof(float));
    A->expected = expected_values(s, "c_expected", mn, EXP_F32);
    A->out_count = mn;
    A->reset = reset_gemm_khr;
    A->run = run_gemm;
    A->output = output_c;
    return A->a && A->b && A->c0 && A->c;
#else
    (void)A, (void)s;
    return 0;
#endif
}

/* bench_gemm_nv2_workgroup: C = A * B^T, A MxK and B NxK row-major. */
static int setup_gemm_nv2(anchor *A, const cvm_amber_script *s)
{
#if CVM_BENCH_HAVE_OPENBLAS
    A->label = "OpenBLAS sgemm";
    A->m = A->n = A->k = 1024;
    size_t mk = (size_t)A->m * A->k, mn = (size_t)A->m * A->n;
    A->alpha = 1.0f;
    A->beta = 0.0f;
    A->a = input_f16(s, "a", mk);
    A->b = input_f16(s, "b", mk);
    A->c = calloc(mn, sizeof(float));
    A->expected = expected_values(s, "c_expected", mn, EXP_F32);
    A->out_count = mn;
    A->reset = reset_nothing;
    A->run = run_gemm;
    A->output = output_c;
    return A->a && A->b && A->c;
#else
    (void)A, (void)s;
    return 0;
#endif
}

/* The 1024^3 workgroup GEMMs of bench/cases, C = A * B^T with B N x K, the
 * inputs as floats (exactly: bf16 and s8 are f32 values; s8 sums stay below
 * 2^24, so sgemm's are exact too). */
typedef float *(*input_fn)(const cvm_amber_script *, const char *, size_t);

static int setup_gemm_1024(anchor *A, const cvm_amber_script *s, input_fn input_a,
                           const char *b_name, input_fn input_b, int expected_kind)
{
#if CVM_BENCH_HAVE_OPENBLAS
    A->label = "OpenBLAS sgemm";
    A->m = A->n = A->k = 1024;
    size_t mk = (size_t)A->m * A->k, mn = (size_t)A->m * A->n;
    A->alpha = 1.0f;
    A->beta = 0.0f;
    A->a = input_a(s, "a", mk);
    A->b = input_b(s, b_name, mk);
    A->c = calloc(mn, sizeof(float));
    A->expected = expected_values(s, "c_expected", mn, expected_kind);
    A->out_count = mn;
    A->reset = reset_nothing;
    A->run = run_gemm;
    A->output = output_c;
    return A->a && A->b && A->c;
#else
    (void)A, (void)s, (void)input_a, (void)b_name, (void)input_b, (void)expected_kind;
    return 0;
#endif
}

static int setup_gemm_s8(anchor *A, const cvm_amber_script *s)
{
    return setup_gemm_1024(A, s, input_s8, "b", input_s8, EXP_I32);
}

static int setup_gemm_bf16(anchor *A, const cvm_amber_script *s)
{
    return setup_gemm_1024(A, s, input_bf16, "b", input_bf16, EXP_F32);
}

/* bench_gemm_decode_q4: the weights dequantized beforehand as the shader's
 * DecodeFunc does (code - 8 times the f16 scale, rounded to f16), then
 * C = W * X^T by sgemm. */
enum { Q4_BLOCK = 18 };

static float *input_q4(const cvm_amber_script *s, const char *name, size_t n)
{
    float *out = malloc(n * sizeof(float));
    uint8_t *q = script_buffer(s, name, n / 32 * Q4_BLOCK);
    for (size_t i = 0; out && i < n; i++) {
        if (!q) {
            out[i] = round_f16(rng_uniform() * 0.1f);
            continue;
        }
        const uint8_t *blk = q + i / 32 * Q4_BLOCK;
        uint16_t d;
        memcpy(&d, blk, 2);
        size_t j = i % 32;
        int code = (blk[2 + (j & 15)] >> ((j >> 4) * 4)) & 15;
        out[i] = round_f16((float)(code - 8) * half_table[d]);
    }
    free(q);
    return out;
}

static int setup_gemm_decode_q4(anchor *A, const cvm_amber_script *s)
{
    return setup_gemm_1024(A, s, input_q4, "x", input_f16, EXP_F32);
}

/* bench_saxpy_loop.comp, 262144 invocations, n = 262000, a = 1.5:
 *   v = a*x[i] + y[i]; for k < i%7: v = v*0.5 + sin(k*0.25);
 *   y[i] = i even ? v : -sqrt(|v|) */
static void reset_saxpy(anchor *A)
{
    memcpy(A->y, A->y0, A->out_count * sizeof(float));
}

static void run_saxpy(anchor *A)
{
    const float a = A->alpha, *x = A->x;
    float *y = A->y;
    for (uint32_t i = 0; i < A->n; i++) {
        float v = a * x[i] + y[i];
        for (int k = 0; k < (int)(i % 7u); k++)
            v = v * 0.5f + sinf((float)k * 0.25f);
        y[i] = (i & 1u) == 0u ? v : -sqrtf(fabsf(v));
    }
}

static const float *output_y(anchor *A)
{
    return A->y;
}

static int setup_saxpy(anchor *A, const cvm_amber_script *s)
{
    A->label = "C -O2, 1 thread";
    size_t total = 262144;
    A->n = 262000;
    A->alpha = 1.5f; /* push constant 1069547520 */
    A->x = input_f32(s, "x", total);
    A->y0 = input_f32(s, "y", total);
    A->y = malloc(total * sizeof(float));
    A->expected = expected_values(s, "y_expected", total, EXP_F32);
    A->out_count = total;
    A->reset = reset_saxpy;
    A->run = run_saxpy;
    A->output = output_y;
    return A->x && A->y0 && A->y;
}

/* bench_attention_softmax.comp: per 16-row block (all 4096 rows here),
 * S = Q K^T (Q rows x 32, K 64 x 32), m = rowmax S, P = exp((S - m) * scale),
 * l = rowsum P, P /= l, O = f16(P) V (V 64 x 32), L = l.  f16 inputs,
 * f32 arithmetic, P rounded to f16 before the second product as the
 * shader's Acc->A conversion does. */
enum { ATT_D = 32, ATT_BC = 64 };

static void run_attention(anchor *A)
{
    const float *q = A->x, *k = A->a, *v = A->b;
    for (uint32_t r = 0; r < A->m; r++) {
        float srow[ATT_BC], m = -INFINITY, l = 0;
        const float *qr = q + (size_t)r * ATT_D;
        for (int c = 0; c < ATT_BC; c++) {
            float acc = 0;
            for (int d = 0; d < ATT_D; d++)
                acc += qr[d] * k[c * ATT_D + d];
            srow[c] = acc;
            m = fmaxf(m, acc);
        }
        for (int c = 0; c < ATT_BC; c++) {
            srow[c] = expf((srow[c] - m) * A->scale);
            l += srow[c];
        }
        float out[ATT_D] = {0};
        for (int c = 0; c < ATT_BC; c++) {
            float p = round_f16(srow[c] / l);
            for (int d = 0; d < ATT_D; d++)
                out[d] += p * v[c * ATT_D + d];
        }
        memcpy(A->o + (size_t)r * ATT_D, out, sizeof(out));
        A->l[r] = l;
    }
}

static const float *output_o(anchor *A)
{
    return A->o;
}

static int setup_attention(anchor *A, const cvm_amber_script *s)
{
    A->label = "C -O2, 1 thread";
    A->m = 4096;
    uint32_t scale_bits = 1060439283u; /* push constant: 0.70710677f */
    memcpy(&A->scale, &scale_bits, 4);
    A->x = input_f16(s, "q", (size_t)A->m * ATT_D);
    A->a = input_f16(s, "k", ATT_BC * ATT_D);
    A->b = input_f16(s, "v", ATT_BC * ATT_D);
    A->o = malloc((size_t)A->m * ATT_D * sizeof(float));
    A->l = malloc(A->m * sizeof(float));
    A->expected = expected_values(s, "o_expected", (size_t)A->m * ATT_D, EXP_F32);
    A->out_count = (size_t)A->m * ATT_D;
    A->reset = reset_nothing;
    A->run = run_attention;
    A->output = output_o;
    return A->x && A->a && A->b && A->o && A->l;
}

/* bench_softmax_rows.comp: y = softmax(x) along each of 512 rows of 512
 * f32 values: the row's maximum, exp(x - max) and its sum, then each
 * exponential times 1/sum, as the shader computes it (there in two-stage
 * subgroup and shared-memory reductions). */
static void run_softmax(anchor *A)
{
    const uint32_t cols = A->n;
    for (uint32_t r = 0; r < A->m; r++) {
        const float *x = A->x + (size_t)r * cols;
        float *y = A->o + (size_t)r * cols;
        float m = -INFINITY, sum = 0;
        for (uint32_t c = 0; c < cols; c++)
            m = fmaxf(m, x[c]);
        for (uint32_t c = 0; c < cols; c++) {
            y[c] = expf(x[c] - m);
            sum += y[c];
        }
        float inv = 1.0f / sum;
        for (uint32_t c = 0; c < cols; c++)
            y[c] *= inv;
    }
}

static int setup_softmax(anchor *A, const cvm_amber_script *s)
{
    A->label = "C -O2, 1 thread";
    A->m = 512;
    A->n = 512;
    size_t total = (size_t)A->m * A->n;
    A->x = input_f32(s, "x", total);
    A->o = malloc(total * sizeof(float));
    A->expected = expected_values(s, "y_expected", total, EXP_F32);
    A->out_count = total;
    A->reset = reset_nothing;
    A->run = run_softmax;
    A->output = output_o;
    return A->x && A->o;
}

/* bench_coopvec_mlp.comp, 65536 evaluations: h = max(W1 x + b1, 0) with W1
 * 32x16 row-major (halves 0..511), y = W2 h + b2 with W2 16x32 column-major
 * (halves 512.., element (r, c) at 512 + c*16 + r), b1 = bias[0..31], b2 =
 * bias[32..47]; out = tanh(y) * 0.5 + 0.25.  f16 values rounded where the
 * shader holds f16 (after each MatMulAdd, tanh, multiply, add), sums in f32. */
static void run_mlp(anchor *A)
{
    const float *w = A->w, *bias = A->bias;
    for (uint32_t i = 0; i < A->n; i++) {
        const float *x = A->x + (size_t)i * 16;
        float h[32], y[16];
        for (int j = 0; j < 32; j++) {
            float acc = bias[j];
            for (int k = 0; k < 16; k++)
                acc += w[j * 16 + k] * x[k];
            h[j] = fmaxf(round_f16(acc), 0.0f);
        }
        for (int r = 0; r < 16; r++) {
            float acc = bias[32 + r];
            for (int c = 0; c < 32; c++)
                acc += w[512 + c * 16 + r] * h[c];
            y[r] = round_f16(acc);
        }
        uint16_t *out = A->out16 + (size_t)i * 16;
        for (int r = 0; r < 16; r++) {
            float t = round_f16(tanhf(y[r]));
            out[r] = f32_to_f16(round_f16(t * 0.5f) + 0.25f);
        }
    }
}

static const float *output_mlp(anchor *A)
{
    for (size_t i = 0; i < A->out_count; i++)
        A->o[i] = half_table[A->out16[i]];
    return A->o;
}

static int setup_mlp(anchor *A, const cvm_amber_script *s)
{
    A->label = "C -O2, 1 thread";
    A->n = 65536;
    size_t total = (size_t)A->n * 16;
    A->x = input_f16(s, "inp", total);
    A->w = input_f16(s, "w", 1024);
    A->bias = input_f16(s, "bias", 48);
    A->out16 = malloc(total * 2);
    A->o = malloc(total * sizeof(float));
    A->expected = expected_values(s, "out_expected", total, EXP_F16);
    A->out_count = total;
    A->reset = reset_nothing;
    A->run = run_mlp;
    A->output = output_mlp;
    return A->x && A->w && A->bias && A->out16 && A->o;
}

/* Cases ------------------------------------------------------------------- */

typedef struct bench_case {
    const char *name;   /* the row */
    const char *folder; /* the case folder, NULL: the name */
    int (*setup)(anchor *, const cvm_amber_script *);
    uint32_t flags;     /* context flags the row adds (CVM_FLAG_*) */
} bench_case;

static const bench_case cases[] = {
    {"bench_gemm_nv2_workgroup", NULL, setup_gemm_nv2, 0},
    {"bench_gemm_khr_f16", NULL, setup_gemm_khr, 0},
    {"bench_attention_softmax", NULL, setup_attention, 0},
    {"bench_coopvec_mlp", NULL, setup_mlp, 0},
    {"bench_saxpy_loop", NULL, setup_saxpy, 0},
    {"bench_softmax_rows", NULL, setup_softmax, 0},
    {"bench_gemm_decode_q4", NULL, setup_gemm_decode_q4, 0},
    {"bench_gemm_s8_workgroup", NULL, setup_gemm_s8, 0},
    {"bench_gemm_bf16_workgroup", NULL, setup_gemm_bf16, 0},
    {"bench_gemm_bf16_workgroup+pairs", "bench_gemm_bf16_workgroup", setup_gemm_bf16,
     CVM_FLAG_BF16_PAIRS},
};

/* Ratios the targets name between two engine times of one run. */
static const struct {
    const char *num, *den;
    double target;
} relations[] = {
    {"bench_gemm_decode_q4", "bench_gemm_nv2_workgroup", 3.0},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

typedef struct row {
    const bench_case *bc;
    char path[1024];    /* the script, "" when not found */
    double engine_ms;   /* medians, < 0 when not measured */
    double anchor_ms;
    double ratio, ratio_min, ratio_max; /* per-pair ratios, < 0 when none */
    const char *anchor_label;
    char check[32];     /* the anchor's rmse against the expected output, "-" */
    char status[240];   /* "pass 2/2", "FAIL 1/2", "unsupported: ..." */
    /* what the engine's context's dispatches spent (coopvm.h
     * cvm_dispatch_profile) in the median timed run (prof_runs 1), or
     * nothing (0) */
    cvm_dispatch_profile prof;
    int prof_runs;
} row;

/* "prefix: message", cut to fit a table cell. */
static void squeeze(char *dst, size_t cap, const char *prefix, const char *msg)
{
    snprintf(dst, cap, "%s%.160s", prefix, msg);
}

static void engine_error(row *R, cvm_result r, const cvm_diagnostic *d, int at_load)
{
    char msg[200];
    snprintf(msg, sizeof(msg), "%s: %.160s", cvm_result_string(r), d->message);
    squeeze(R->status, sizeof(R->status),
            r == CVM_ERROR_UNSUPPORTED ? "unsupported: " : at_load ? "cannot load: " : "run error: ",
            r == CVM_ERROR_UNSUPPORTED ? d->message : msg);
}

/* Times one case: engine and anchor alternately, `reps` pairs after one
 * warm-up of each.  Either side may be missing (no script, unsupported, no
 * BLAS): the other is still timed. */
static void run_case(row *R, const cvm_amber_script *s, const cvm_context_desc *base, int reps)
{
    cvm_context_desc desc = *base;
    desc.flags |= R->bc->flags;
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    cvm_result r = CVM_ERROR_NOT_FOUND;
    memset(&d, 0, sizeof(d));
    if (s) {
        r = cvm_amber_session_create(s, &desc, &S, &d);
        if (r != CVM_SUCCESS)
            engine_error(R, r, &d, 1);
        else if ((r = cvm_amber_session_run(S, 0, &d)) != CVM_SUCCESS) /* warm-up */
            engine_error(R, r, &d, 0);
    }
    int engine = s && r == CVM_SUCCESS;

    anchor A;
    memset(&A, 0, sizeof(A));
    int have_anchor = R->bc->setup(&A, s);
    R->anchor_label = A.label ? A.label : "none (no BLAS)";
    if (have_anchor) {
        A.reset(&A);
        A.run(&A); /* warm-up */
    }

    double *te = calloc((size_t)reps, sizeof(double));
    double *ta = calloc((size_t)reps, sizeof(double));
    double *rt = calloc((size_t)reps, sizeof(double));
    int n = 0;
    /* each engine run's dispatch profile, to report the median run's */
    cvm_dispatch_profile *pd = calloc((size_t)reps, sizeof(*pd));
    for (int i = 0; te && ta && rt && pd && i < reps && (engine || have_anchor); i++) {
        if (engine) {
            cvm_amber_session_reset_buffers(S);
            cvm_dispatch_profile p0;
            cvm_context_dispatch_profile(cvm_amber_session_context(S), &p0);
            double t0 = now_s();
            r = cvm_amber_session_run(S, 0, &d);
            te[i] = (now_s() - t0) * 1e3;
            cvm_context_dispatch_profile(cvm_amber_session_context(S), &pd[i]);
            uint64_t *d1 = (uint64_t *)&pd[i];
            const uint64_t *d0 = (const uint64_t *)&p0;
            for (size_t k = 0; k < sizeof(p0) / sizeof(uint64_t); k++)
                d1[k] -= d0[k];
            if (r != CVM_SUCCESS) {
                engine_error(R, r, &d, 0);
                engine = 0;
            }
        }
        if (have_anchor) {
            A.reset(&A);
            double t0 = now_s();
            A.run(&A);
            ta[i] = (now_s() - t0) * 1e3;
        }
        if (engine && have_anchor && ta[i] > 0)
            rt[n++] = te[i] / ta[i];
    }
    if (engine && te && pd) {
        /* the run whose time is the median's (the lower of the middle two) */
        int mid = 0;
        for (int i = 0; i < reps; i++) {
            int below = 0;
            for (int k = 0; k < reps; k++)
                below += te[k] < te[i] || (te[k] == te[i] && k < i);
            if (below == (reps - 1) / 2)
                mid = i;
        }
        R->prof = pd[mid];
        R->prof_runs = 1;
    }
    free(pd);
    if (engine && te) {
        R->engine_ms = median(te, reps);
        const cvm_amber_expect_result *res;
        uint32_t count, passed = 0;
        cvm_amber_session_check(S, &res, &count);
        for (uint32_t i = 0; i < count; i++)
            passed += (uint32_t)res[i].passed;
        snprintf(R->status, sizeof(R->status), "%s %u/%u", passed == count ? "pass" : "FAIL",
                 passed, count);
    }
    if (have_anchor && ta) {
        R->anchor_ms = median(ta, reps);
        if (A.expected)
            snprintf(R->check, sizeof(R->check), "rmse %.1e",
                     rmse(A.output(&A), A.expected, A.out_count));
    }
    if (n > 0) {
        R->ratio = median(rt, n); /* sorts rt */
        R->ratio_min = rt[0];
        R->ratio_max = rt[n - 1];
    }
    free(te);
    free(ta);
    free(rt);
    anchor_free(&A);
    cvm_amber_session_destroy(S);
}

/* ", \"dispatch_profile\": {...}": the engine's cvm_dispatch_profile in
 * the timed run whose time is the median (times in ms; a mean would carry a
 * run that compiled a callback on the way), or null when the engine did not
 * run. */
static void json_profile(const row *R)
{
    printf(", \"dispatch_profile\": ");
    if (R->prof_runs <= 0) {
        printf("null");
        return;
    }
    const cvm_dispatch_profile *p = &R->prof;
    double n = R->prof_runs;
    printf("{\"dispatches\": %.6g, \"workgroups\": %.6g, \"threads\": %.6g, \"workers\": %.6g",
           (double)p->dispatches / n, (double)p->workgroups / n, (double)p->threads / n,
           (double)p->workers / n);
    const struct { const char *name; uint64_t ns; } t[] = {
        {"wall_ms", p->wall_ns},     {"parallel_ms", p->parallel_ns}, {"thread_ms", p->thread_ns},
        {"wake_ms", p->wake_ns},     {"setup_ms", p->setup_ns},       {"busy_ms", p->busy_ns},
        {"teardown_ms", p->teardown_ns}, {"tail_ms", p->tail_ns},     {"absent_ms", p->absent_ns}};
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
        printf(", \"%s\": %.6g", t[k].name, (double)t[k].ns / 1e6 / n);
    printf("}");
}

/* The case's script: the project's bench/cases first, then the shared
 * folder. */
static int find_script(const bench_case *bc, const char *cases_dir, const char *shared_dir,
                       char *path, size_t cap)
{
    const char *folder = bc->folder ? bc->folder : bc->name;
    const char *dirs[2] = {cases_dir, shared_dir};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        snprintf(path, cap, "%s/%s/%s.amber", dirs[i], folder, folder);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return 1;
    }
    path[0] = 0;
    return 0;
}

static void json_string(const char *v)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void json_number(double v)
{
    if (v < 0)
        printf("null");
    else
        printf("%.6g", v);
}

static double relation_value(const row *rows, size_t nrows, size_t k)
{
    double num = -1, den = -1;
    for (size_t i = 0; i < nrows; i++) {
        if (!strcmp(rows[i].bc->name, relations[k].num))
            num = rows[i].engine_ms;
        if (!strcmp(rows[i].bc->name, relations[k].den))
            den = rows[i].engine_ms;
    }
    return num >= 0 && den > 0 ? num / den : -1;
}

static void print_json(const row *rows, size_t nrows, int reps, const cvm_context_desc *desc,
                       const char *cases_dir, const char *shared_dir)
{
    printf("{\n  \"reps\": %d,\n  \"threads\": %u,\n  \"precise\": %s,\n  \"cases_dir\": ", reps,
           desc->threads, (desc->flags & CVM_FLAG_PRECISE) ? "true" : "false");
    json_string(cases_dir);
    printf(",\n  \"shared_dir\": ");
    json_string(shared_dir);
    printf(",\n  \"openblas\": %s,\n  \"openblas_core\": ", CVM_BENCH_HAVE_OPENBLAS ? "true" : "false");
#if CVM_BENCH_HAVE_OPENBLAS
    json_string(openblas_get_corename());
    printf(",\n  \"openblas_thread_timeout\": ");
    json_string(getenv("OPENBLAS_THREAD_TIMEOUT") ? getenv("OPENBLAS_THREAD_TIMEOUT") : "28");
#else
    printf("null");
#endif
    printf(",\n  \"cases\": [");
    for (size_t i = 0; i < nrows; i++) {
        const row *R = &rows[i];
        printf("%s\n    {\"name\": ", i ? "," : "");
        json_string(R->bc->name);
        printf(", \"script\": ");
        json_string(R->path);
        printf(", \"flags\": %u, \"engine_ms\": ", R->bc->flags);
        json_number(R->engine_ms);
        printf(", \"anchor\": ");
        json_string(R->anchor_label);
        printf(", \"anchor_ms\": ");
        json_number(R->anchor_ms);
        printf(", \"ratio\": ");
        json_number(R->ratio);
        printf(", \"ratio_min\": ");
        json_number(R->ratio_min);
        printf(", \"ratio_max\": ");
        json_number(R->ratio_max);
        printf(", \"anchor_check\": ");
        json_string(R->check);
        printf(", \"status\": ");
        json_string(R->status);
        json_profile(R);
        printf("}");
    }
    printf("\n  ],\n  \"relations\": [");
    for (size_t k = 0; k < sizeof(relations) / sizeof(relations[0]); k++) {
        printf("%s\n    {\"engine\": ", k ? "," : "");
        json_string(relations[k].num);
        printf(", \"over\": ");
        json_string(relations[k].den);
        printf(", \"ratio\": ");
        json_number(relation_value(rows, nrows, k));
        printf(", \"target\": %.6g}", relations[k].target);
    }
    /* the process's peak resident memory so far (getrusage ru_maxrss,
     * KiB on Linux): per case when the bench runs one case */
    struct rusage ru;
    long peak = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
    printf("\n  ],\n  \"peak_rss_kib\": %ld\n}\n", peak);
}

static void print_row_header(void)
{
    printf("%-32s %11s  %-16s %10s %8s %17s  %-10s %s\n", "case", "engine ms", "anchor",
           "anchor ms", "ratio", "(min-max)", "anchor chk", "engine EXPECT / status");
}

static void print_row(const row *R)
{
    char ems[32] = "-", ams[32] = "-", ratio[32] = "-", range[48] = "";
    if (R->engine_ms >= 0)
        snprintf(ems, sizeof(ems), "%.3f", R->engine_ms);
    if (R->anchor_ms >= 0)
        snprintf(ams, sizeof(ams), "%.3f", R->anchor_ms);
    if (R->ratio >= 0) {
        snprintf(ratio, sizeof(ratio), "%.2fx", R->ratio);
        snprintf(range, sizeof(range), "(%.2f-%.2f)", R->ratio_min, R->ratio_max);
    }
    printf("%-32s %11s  %-16s %10s %8s %17s  %-10s %s\n", R->bc->name, ems, R->anchor_label, ams,
           ratio, range, R->check, R->status);
    fflush(stdout);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm-bench [--cases DIR] [--shared DIR] [--reps N] [--threads N]\n"
            "                    [--precise] [--json] [CASE...]\n"
            "  --cases DIR    the project's case folders (default %s)\n"
            "  --shared DIR   the shared case folders (default %s); a case is looked\n"
            "                 for in --cases first\n"
            "  --reps N       timed pairs (engine, then anchor) after one warm-up of each\n"
            "                 (default 10); medians and the median per-pair ratio with its\n"
            "                 minimum and maximum are reported\n"
            "  --threads N    engine worker threads (default: all cores); OpenBLAS is\n"
            "                 given the same number, the plain C anchors use one\n"
            "  --precise      the engine's precise numerics (CVM_FLAG_PRECISE) in every case\n"
            "  --json         one JSON document on stdout instead of the table (times in\n"
            "                 ms, null where not measured; threads 0 = all cores; the\n"
            "                 process's peak resident memory in peak_rss_kib)\n"
            "OPENBLAS_CORETYPE, where set, picks the GEMM anchor's kernels; unset, and\n"
            "OpenBLAS's own choice below what the CPU supports, coopvm-bench sets it\n"
            "(SkylakeX with AVX-512, Haswell with AVX2) and runs itself again; so it\n"
            "does for OPENBLAS_THREAD_TIMEOUT (4: idle OpenBLAS threads stop spinning\n"
            "soon, not taking cores from the engine)\n"
            "cases:",
            CVM_BENCH_CASES_DIR, CVM_BENCH_SHARED_DIR);
    for (size_t i = 0; i < NCASES; i++)
        fprintf(f, " %s", cases[i].name);
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    const char *shared_dir = CVM_BENCH_SHARED_DIR, *cases_dir = CVM_BENCH_CASES_DIR;
    int reps = 10, json = 0;
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    int selected[NCASES] = {0}, nselected = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--shared") && i + 1 < argc) {
            shared_dir = argv[++i];
        } else if (!strcmp(a, "--cases") && i + 1 < argc) {
            cases_dir = argv[++i];
        } else if (!strcmp(a, "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1) {
                fprintf(stderr, "coopvm-bench: --reps needs a positive number\n");
                return 2;
            }
        } else if (!strcmp(a, "--threads") && i + 1 < argc) {
            int t = atoi(argv[++i]);
            if (t < 1) {
                fprintf(stderr, "coopvm-bench: --threads needs a positive number\n");
                return 2;
            }
            desc.threads = (uint32_t)t;
        } else if (!strcmp(a, "--precise")) {
            desc.flags |= CVM_FLAG_PRECISE;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "coopvm-bench: unknown option or missing value: %s\n", a);
            usage(stderr);
            return 2;
        } else {
            size_t k = 0;
            while (k < NCASES && strcmp(cases[k].name, a))
                k++;
            if (k == NCASES) {
                fprintf(stderr, "coopvm-bench: unknown case '%s'\n", a);
                usage(stderr);
                return 2;
            }
            nselected += !selected[k];
            selected[k] = 1;
        }
    }
    init_half_table();
#if CVM_BENCH_HAVE_OPENBLAS
    anchor_check_core(argv);
    if (desc.threads)
        openblas_set_num_threads((int)desc.threads);
#endif
    if (!json) {
        char threads[32] = "all cores";
        if (desc.threads)
            snprintf(threads, sizeof(threads), "%u", desc.threads);
        printf("coopvm-bench: cases from %s and %s; %d engine/anchor pairs after 1 warm-up "
               "each; engine threads: %s%s\n",
               cases_dir, shared_dir, reps, threads,
               (desc.flags & CVM_FLAG_PRECISE) ? "; precise numerics" : "");
#if !CVM_BENCH_HAVE_OPENBLAS
        printf("coopvm-bench: built without OpenBLAS: the GEMM cases have no anchor\n");
#else
        const char *retry = getenv("CVM_BENCH_CORE_RETRY");
        const char *timeout = getenv("OPENBLAS_THREAD_TIMEOUT");
        printf("coopvm-bench: GEMM anchor: OpenBLAS, %s kernels%s", openblas_get_corename(),
               anchor_note);
        if (retry && *retry && !*anchor_note)
            printf(" (set through OPENBLAS_CORETYPE: its own choice was %s)", retry);
        printf("; idle threads sleep after 2^%s cycles (OPENBLAS_THREAD_TIMEOUT)\n",
               timeout ? timeout : "28");
#endif
        print_row_header();
    }
    row rows[NCASES];
    size_t nrows = 0;
    for (size_t ci = 0; ci < NCASES; ci++) {
        if (nselected && !selected[ci])
            continue;
        row *R = &rows[nrows++];
        memset(R, 0, sizeof(*R));
        R->bc = &cases[ci];
        R->engine_ms = R->anchor_ms = R->ratio = R->ratio_min = R->ratio_max = -1;
        snprintf(R->check, sizeof(R->check), "-");
        cvm_amber_script *s = NULL;
        cvm_diagnostic d;
        if (!find_script(R->bc, cases_dir, shared_dir, R->path, sizeof(R->path))) {
            snprintf(R->status, sizeof(R->status),
                     "not run: no script (inputs generated, nothing checked)");
        } else if (cvm_amber_parse_file(R->path, &s, &d) != CVM_SUCCESS) {
            char msg[sizeof(R->status)];
            snprintf(msg, sizeof(msg), "script error: %.80s:%u: %.100s", R->path, d.line,
                     d.message);
            memcpy(R->status, msg, sizeof(msg));
            s = NULL;
        }
        run_case(R, s, &desc, reps);
        if (!json)
            print_row(R);
        cvm_amber_script_destroy(s);
    }
    if (json) {
        print_json(rows, nrows, reps, &desc, cases_dir, shared_dir);
    } else {
        for (size_t k = 0; k < sizeof(relations) / sizeof(relations[0]); k++) {
            double v = relation_value(rows, nrows, k);
            if (v >= 0)
                printf("engine time %s / %s: %.2fx (target <= %.1fx)\n", relations[k].num,
                       relations[k].den, v, relations[k].target);
        }
    }
    return 0;
}
