/* coopvm-bench: times the engine on the ../shared/bench cases (one warm-up
 * dispatch, then the median of N dispatches, buffers restored between them
 * outside the timing) and, in the same run, a native anchor doing the same
 * computation: OpenBLAS cblas_sgemm for the GEMMs (f16 inputs converted to
 * f32 beforehand), plain C at -O2 for the others (written from each case's
 * .comp).  Prints one table row per case.  Exit 0 unless a usage error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "amber/amber.h"
#include "coopvm.h"

#if CVM_BENCH_HAVE_OPENBLAS
#include <cblas.h>
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

/* Expected values as floats, or NULL (no script: no check). */
static float *expected_values(const cvm_amber_script *s, const char *name, size_t n, int half)
{
    void *raw = script_buffer(s, name, n * (half ? 2 : 4));
    if (!raw || !half)
        return raw;
    float *out = malloc(n * sizeof(float));
    for (size_t i = 0; out && i < n; i++)
        out[i] = half_table[((uint16_t *)raw)[i]];
    free(raw);
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

static const float *output_c(anchor *A)
{
    return A->c;
}

#if CVM_BENCH_HAVE_OPENBLAS
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
    A->expected = expected_values(s, "c_expected", mn, 0);
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
    A->expected = expected_values(s, "c_expected", mn, 0);
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
    A->expected = expected_values(s, "y_expected", total, 0);
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
    A->expected = expected_values(s, "o_expected", (size_t)A->m * ATT_D, 0);
    A->out_count = (size_t)A->m * ATT_D;
    A->reset = reset_nothing;
    A->run = run_attention;
    A->output = output_o;
    return A->x && A->a && A->b && A->o && A->l;
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
    A->expected = expected_values(s, "out_expected", total, 1);
    A->out_count = total;
    A->reset = reset_nothing;
    A->run = run_mlp;
    A->output = output_mlp;
    return A->x && A->w && A->bias && A->out16 && A->o;
}

/* Cases ------------------------------------------------------------------- */

typedef struct bench_case {
    const char *name;
    int (*setup)(anchor *, const cvm_amber_script *);
} bench_case;

static const bench_case cases[] = {
    {"bench_gemm_nv2_workgroup", setup_gemm_nv2},
    {"bench_gemm_khr_f16", setup_gemm_khr},
    {"bench_attention_softmax", setup_attention},
    {"bench_coopvec_mlp", setup_mlp},
    {"bench_saxpy_loop", setup_saxpy},
};

typedef struct engine_row {
    double ms;          /* median ms per dispatch, < 0 when not measured */
    char status[200];   /* "pass 2/2", "FAIL 1/2", "unsupported: ..." */
} engine_row;

/* "prefix: message", cut to fit a table cell. */
static void squeeze(char *dst, size_t cap, const char *prefix, const char *msg)
{
    snprintf(dst, cap, "%s%.120s", prefix, msg);
}

static void run_engine(const cvm_amber_script *s, const cvm_context_desc *desc, int reps,
                       engine_row *row)
{
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    row->ms = -1;
    cvm_result r = cvm_amber_session_create(s, desc, &S, &d);
    if (r != CVM_SUCCESS) {
        squeeze(row->status, sizeof(row->status),
                r == CVM_ERROR_UNSUPPORTED ? "unsupported: " : "cannot load: ", d.message);
        return;
    }
    r = cvm_amber_session_run(S, 0, &d); /* warm-up */
    double *t = calloc((size_t)reps, sizeof(double));
    for (int i = 0; r == CVM_SUCCESS && t && i < reps; i++) {
        cvm_amber_session_reset_buffers(S);
        double t0 = now_s();
        r = cvm_amber_session_run(S, 0, &d);
        t[i] = (now_s() - t0) * 1e3;
    }
    if (r != CVM_SUCCESS) {
        char msg[200];
        snprintf(msg, sizeof(msg), "%s: %.120s", cvm_result_string(r), d.message);
        squeeze(row->status, sizeof(row->status),
                r == CVM_ERROR_UNSUPPORTED ? "unsupported: " : "run error: ", msg);
    } else if (t) {
        row->ms = median(t, reps);
        const cvm_amber_expect_result *res;
        uint32_t n, passed = 0;
        cvm_amber_session_check(S, &res, &n);
        for (uint32_t i = 0; i < n; i++)
            passed += (uint32_t)res[i].passed;
        snprintf(row->status, sizeof(row->status), "%s %u/%u", passed == n ? "pass" : "FAIL",
                 passed, n);
    }
    free(t);
    cvm_amber_session_destroy(S);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm-bench [--shared DIR] [--reps N] [--threads N] [CASE...]\n"
            "  --shared DIR   folder of the cases (default %s)\n"
            "  --reps N       timed dispatches after one warm-up (default 10); the median\n"
            "                 is reported\n"
            "  --threads N    engine worker threads (default: all cores); OpenBLAS is\n"
            "                 given the same number, the plain C anchors use one\n"
            "cases:",
            CVM_BENCH_SHARED_DIR);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        fprintf(f, " %s", cases[i].name);
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    const char *dir = CVM_BENCH_SHARED_DIR;
    int reps = 10;
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    const char *selected[16];
    int nselected = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--shared") && i + 1 < argc) {
            dir = argv[++i];
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
        } else if (a[0] == '-') {
            fprintf(stderr, "coopvm-bench: unknown option or missing value: %s\n", a);
            usage(stderr);
            return 2;
        } else {
            int known = 0;
            for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
                known |= !strcmp(cases[k].name, a);
            if (!known || nselected == 16) {
                fprintf(stderr, "coopvm-bench: unknown case '%s'\n", a);
                usage(stderr);
                return 2;
            }
            selected[nselected++] = a;
        }
    }
    init_half_table();
#if CVM_BENCH_HAVE_OPENBLAS
    if (desc.threads)
        openblas_set_num_threads((int)desc.threads);
#endif
    struct stat st;
    int have_dir = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    char threads[32] = "all cores";
    if (desc.threads)
        snprintf(threads, sizeof(threads), "%u", desc.threads);
    printf("coopvm-bench: cases from %s%s; median of %d dispatches after 1 warm-up; engine "
           "threads: %s\n",
           dir, have_dir ? "" : " (MISSING: inputs generated, expectations skipped)", reps,
           threads);
#if !CVM_BENCH_HAVE_OPENBLAS
    printf("coopvm-bench: built without OpenBLAS: the GEMM cases have no anchor\n");
#endif
    printf("%-26s %12s  %-16s %11s %9s  %-10s %s\n", "case", "engine ms", "anchor",
           "anchor ms", "ratio", "anchor chk", "engine EXPECT / status");
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
        const bench_case *bc = &cases[ci];
        int want = nselected == 0;
        for (int k = 0; k < nselected; k++)
            want |= !strcmp(selected[k], bc->name);
        if (!want)
            continue;
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s/%s.amber", dir, bc->name, bc->name);
        cvm_amber_script *s = NULL;
        engine_row row;
        memset(&row, 0, sizeof(row));
        row.ms = -1;
        cvm_diagnostic d;
        if (!have_dir) {
            snprintf(row.status, sizeof(row.status), "not run: no script (shared folder missing)");
        } else if (cvm_amber_parse_file(path, &s, &d) != CVM_SUCCESS) {
            snprintf(row.status, sizeof(row.status), "script error: %.60s:%u: %.60s", path, d.line,
                     d.message);
            s = NULL;
        } else {
            run_engine(s, &desc, reps, &row);
        }

        anchor A;
        memset(&A, 0, sizeof(A));
        double anchor_ms = -1;
        char check[32] = "-";
        if (bc->setup(&A, s)) {
            A.reset(&A);
            A.run(&A); /* warm-up */
            double *t = calloc((size_t)reps, sizeof(double));
            for (int i = 0; t && i < reps; i++) {
                A.reset(&A);
                double t0 = now_s();
                A.run(&A);
                t[i] = (now_s() - t0) * 1e3;
            }
            if (t)
                anchor_ms = median(t, reps);
            free(t);
            if (A.expected)
                snprintf(check, sizeof(check), "rmse %.1e",
                         rmse(A.output(&A), A.expected, A.out_count));
        } else if (!A.label) {
            A.label = "none (no BLAS)";
        }
        char ems[32] = "-", ams[32] = "-", ratio[32] = "-";
        if (row.ms >= 0)
            snprintf(ems, sizeof(ems), "%.3f", row.ms);
        if (anchor_ms >= 0)
            snprintf(ams, sizeof(ams), "%.3f", anchor_ms);
        if (row.ms >= 0 && anchor_ms > 0)
            snprintf(ratio, sizeof(ratio), "%.1fx", row.ms / anchor_ms);
        printf("%-26s %12s  %-16s %11s %9s  %-10s %s\n", bc->name, ems, A.label, ams, ratio,
               check, row.status);
        fflush(stdout);
        anchor_free(&A);
        cvm_amber_script_destroy(s);
    }
    return 0;
}
