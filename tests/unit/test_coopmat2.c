/* SPV_NV_cooperative_matrix2 Reduce, PerElementOp, ConvertUse and Transpose
 * through the public API, against plain-C models of the texts.
 *
 * The shaders (tests/shaders/coopmat2_*.spvasm, from coopmat2_gen.py) take
 * their matrix sizes, scope and Use as specialization constants.  With a
 * workgroup of 64 and subgroups of 32, a Subgroup-scope matrix has two
 * instances (each loads at SubgroupId * M*N and stores at its own slots), a
 * Workgroup-scope one has one (at offset 0: its operands must be uniform in
 * the workgroup, so the shaders use SubgroupId at Subgroup scope only).
 *
 * Reductions are compared bit for bit: the models fold in the order
 * coopmat2_ops.c documents (left to right by default, Row|Column's row
 * results pairwise; a pairwise tree with swapped arguments in the checking
 * mode), with the same float operations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coopvm.h"

#define SUBGROUP 3u
#define WORKGROUP 2u
#define SLOT 1024u /* elements per result slot: the largest result */
#define SENTINEL 0xdeadbeefu

/* ---- running a shader ------------------------------------------------------ */

typedef struct run_args {
    const char *shader;                /* file name under tests/shaders */
    cvm_specialization specs[12];
    uint32_t nspecs;
    void *bufs[4];
    size_t sizes[4];
    uint32_t nbufs;
    uint32_t flags;                    /* cvm_context_flags */
    uint32_t threads;
} run_args;

static void spec(run_args *a, uint32_t id, uint32_t value)
{
    a->specs[a->nspecs].constant_id = id;
    a->specs[a->nspecs].size = 4;
    a->specs[a->nspecs].bits = value;
    a->nspecs++;
}

static void buf(run_args *a, void *p, size_t size)
{
    a->bufs[a->nbufs] = p;
    a->sizes[a->nbufs] = size;
    a->nbufs++;
}

/* Creates the pipeline and dispatches one workgroup; returns the first
 * failure, with its diagnostic in *d. */
static cvm_result run(const run_args *a, cvm_diagnostic *d)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/shaders/%s", CVM_TEST_DATA_DIR, a->shader);
    cvm_context_desc cd;
    memset(&cd, 0, sizeof(cd));
    cd.threads = a->threads ? a->threads : 1;
    cd.subgroup_size = 32;
    cd.flags = a->flags;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pl = NULL;
    cvm_result r = cvm_context_create(&cd, &ctx, d);
    if (r == CVM_SUCCESS)
        r = cvm_module_create_from_file(ctx, path, &mod, d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, a->specs, a->nspecs, &pl, d);
    for (uint32_t i = 0; i < a->nbufs && r == CVM_SUCCESS; i++)
        r = cvm_pipeline_bind_buffer(pl, 0, i, 0, a->bufs[i], a->sizes[i], d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_dispatch(pl, 1, 1, 1, d);
    cvm_pipeline_destroy(pl);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    return r;
}

static void run_ok(const run_args *a)
{
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    cvm_result r = run(a, &d);
    if (r != CVM_SUCCESS)
        print_error("%s: %s: %s (word %u, opcode %u)\n", a->shader, cvm_result_string(r),
                    d.message, d.word_offset, d.opcode);
    assert_int_equal(r, CVM_SUCCESS);
}

/* ---- data ------------------------------------------------------------------ */

static uint32_t rng_state;

static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* Floats with full mantissas, both signs, so that sums depend on their
 * order; no zeros (max/min of +0 and -0 would depend on argument order). */
static float rnd_float(void)
{
    float f = (float)(rnd() % 2000001u + 1u) / 3.0f / (float)(1u << (rnd() % 8u));
    return (rnd() & 1) ? -f : f;
}

static void fill_sentinel(uint32_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = SENTINEL;
}

static void assert_float_bits(float got, float want, const char *what, uint32_t i)
{
    uint32_t g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    if (g != w)
        print_error("%s element %u: got %.9g (0x%08x), want %.9g (0x%08x)\n", what, i, (double)got,
                    g, (double)want, w);
    assert_int_equal(g, w);
}

/* ---- reduction models ------------------------------------------------------ */

typedef float (*fcomb)(float, float);
static float f_sum(float a, float b) { return a + b; }
static float f_max(float a, float b) { return a > b ? a : b; }
static float f_min(float a, float b) { return a < b ? a : b; }

/* The u32 shader's combine: a*3 + b when noncommutative, else a + b. */
static int u_noncomm;
static uint32_t u_comb(uint32_t a, uint32_t b) { return (u_noncomm ? a * 3u : a) + b; }

#define DEFINE_FOLDS(T, NAME, COMB_T)                                                      \
    static T NAME##_left(COMB_T f, const T *v, uint32_t n)                                 \
    {                                                                                      \
        T acc = v[0];                                                                      \
        for (uint32_t i = 1; i < n; i++)                                                   \
            acc = f(acc, v[i]);                                                            \
        return acc;                                                                        \
    }                                                                                      \
    static T NAME##_pairs(COMB_T f, const T *v, uint32_t n, int swap)                      \
    {                                                                                      \
        T w[1024] = {0};                                                                   \
        memcpy(w, v, n * sizeof(T));                                                       \
        while (n > 1) {                                                                    \
            uint32_t h = n / 2;                                                            \
            T last = w[n - 1];                                                             \
            for (uint32_t j = 0; j < h; j++)                                               \
                w[j] = swap ? f(w[2 * j + 1], w[2 * j]) : f(w[2 * j], w[2 * j + 1]);       \
            if (n & 1)                                                                     \
                w[h] = last;                                                               \
            n = h + (n & 1);                                                               \
        }                                                                                  \
        return w[0];                                                                       \
    }                                                                                      \
    static T NAME##_fold(COMB_T f, const T *v, uint32_t n, int tree)                       \
    {                                                                                      \
        return tree ? NAME##_pairs(f, v, n, 1) : NAME##_left(f, v, n);                     \
    }                                                                                      \
    /* Reduction g of an M x N matrix x for a mode (1 Row, 2 Column, 3 both,      */      \
    /* 4 2x2), as the text defines the sequences and coopmat2_ops.c orders them. */       \
    static T NAME##_reduce(COMB_T f, const T *x, uint32_t M, uint32_t N, uint32_t mode,    \
                           uint32_t r, uint32_t c, int tree)                               \
    {                                                                                      \
        T seq[1024] = {0};                                                                 \
        uint32_t n = 0;                                                                    \
        if (mode == 1) {                                                                   \
            for (uint32_t j = 0; j < N; j++)                                               \
                seq[n++] = x[r * N + j];                                                   \
        } else if (mode == 2) {                                                            \
            for (uint32_t i = 0; i < M; i++)                                               \
                seq[n++] = x[i * N + c];                                                   \
        } else if (mode == 4) {                                                            \
            seq[n++] = x[(2 * r) * N + 2 * c];                                             \
            seq[n++] = x[(2 * r + 1) * N + 2 * c];                                         \
            seq[n++] = x[(2 * r) * N + 2 * c + 1];                                         \
            seq[n++] = x[(2 * r + 1) * N + 2 * c + 1];                                     \
        } else {                                                                           \
            for (uint32_t i = 0; i < M; i++)                                               \
                seq[n++] = NAME##_fold(f, x + i * N, N, tree);                             \
            return NAME##_pairs(f, seq, n, tree); /* the row results pairwise */           \
        }                                                                                  \
        return NAME##_fold(f, seq, n, tree);                                               \
    }

typedef uint32_t (*ucomb)(uint32_t, uint32_t);
DEFINE_FOLDS(float, ff, fcomb)
DEFINE_FOLDS(uint32_t, uu, ucomb)

/* Result shapes of the reduce shaders (spec ids 2..5). */
typedef struct shape {
    uint32_t M, N, RC, RR, AR, AC;
} shape;

static void result_dims(const shape *s, uint32_t mode, uint32_t *rows, uint32_t *cols)
{
    switch (mode) {
    case 1: *rows = s->M; *cols = s->RC; break;
    case 2: *rows = s->RR; *cols = s->N; break;
    case 4: *rows = s->M / 2; *cols = s->N / 2; break;
    default: *rows = s->AR; *cols = s->AC; break;
    }
}

static void reduce_specs(run_args *a, const shape *s, uint32_t scope)
{
    spec(a, 0, s->M);
    spec(a, 1, s->N);
    spec(a, 2, s->RC);
    spec(a, 3, s->RR);
    spec(a, 4, s->AR);
    spec(a, 5, s->AC);
    spec(a, 6, scope);
    spec(a, 7, SLOT);
    spec(a, 10, s->M / 2); /* the 2x2 result size */
    spec(a, 11, s->N / 2);
}

/* Runs a float reduce shader and compares every result slot with the model;
 * slots of instances that do not exist must stay untouched. */
static void check_reduce_f32(const char *shader, const uint32_t *modes, const fcomb *fns,
                             uint32_t count, const shape *s, uint32_t scope, int check_mode)
{
    uint32_t ninst = scope == SUBGROUP ? 2 : 1;
    uint32_t MN = s->M * s->N;
    float *x = malloc(2 * MN * sizeof(float));
    float *out = malloc(2 * count * SLOT * sizeof(float));
    assert_non_null(x);
    assert_non_null(out);
    for (uint32_t i = 0; i < 2 * MN; i++)
        x[i] = rnd_float();
    fill_sentinel((uint32_t *)out, 2 * count * SLOT);
    run_args a;
    memset(&a, 0, sizeof(a));
    a.shader = shader;
    a.flags = check_mode ? CVM_FLAG_CHECK_CALLBACKS : 0;
    reduce_specs(&a, s, scope);
    buf(&a, x, 2 * MN * sizeof(float));
    buf(&a, out, 2 * count * SLOT * sizeof(float));
    run_ok(&a);
    for (uint32_t inst = 0; inst < 2; inst++) {
        for (uint32_t k = 0; k < count; k++) {
            const float *res = out + (inst * count + k) * SLOT;
            uint32_t rows, cols;
            result_dims(s, modes[k], &rows, &cols);
            for (uint32_t e = 0; e < SLOT; e++) {
                if (inst >= ninst || e >= rows * cols) {
                    uint32_t bits;
                    memcpy(&bits, &res[e], 4);
                    assert_int_equal(bits, SENTINEL);
                    continue;
                }
                float want = ff_reduce(fns[k], x + inst * MN, s->M, s->N, modes[k], e / cols,
                                       e % cols, check_mode);
                assert_float_bits(res[e], want, shader, e);
            }
        }
    }
    free(x);
    free(out);
}

static const shape REDUCE_SHAPES[] = {
    {5, 7, 3, 2, 4, 6},    /* odd, non-square; results of other sizes */
    {16, 8, 16, 16, 8, 16},
    {3, 1, 1, 5, 1, 1},    /* one column: Row folds nothing */
    {1, 3, 2, 1, 3, 3},    /* one row */
    {32, 32, 32, 32, 8, 8},/* the corpus's shapes */
};

static void test_reduce_f32(void **state)
{
    (void)state;
    static const uint32_t modes[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    static const fcomb fns[9] = {f_sum, f_max, f_min, f_sum, f_max, f_min, f_sum, f_max, f_min};
    rng_state = 1;
    for (size_t i = 0; i < sizeof(REDUCE_SHAPES) / sizeof(REDUCE_SHAPES[0]); i++)
        for (int scope = 0; scope < 2; scope++)
            for (int chk = 0; chk < 2; chk++)
                check_reduce_f32("coopmat2_reduce_f32.spv", modes, fns, 9, &REDUCE_SHAPES[i],
                                 scope ? WORKGROUP : SUBGROUP, chk);
}

static void test_reduce_2x2_f32(void **state)
{
    (void)state;
    static const uint32_t modes[3] = {4, 4, 4};
    static const fcomb fns[3] = {f_sum, f_max, f_min};
    static const shape shapes[] = {{2, 2, 1, 1, 1, 1}, {6, 10, 1, 1, 1, 1}, {16, 8, 1, 1, 1, 1},
                                   {4, 14, 1, 1, 1, 1}, {32, 32, 1, 1, 1, 1}};
    rng_state = 2;
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (int scope = 0; scope < 2; scope++)
            for (int chk = 0; chk < 2; chk++)
                check_reduce_f32("coopmat2_reduce2x2_f32.spv", modes, fns, 3, &shapes[i],
                                 scope ? WORKGROUP : SUBGROUP, chk);
}

/* The models really tell the two orders apart for these data: otherwise the
 * bit-exact comparisons above would not show which order the engine used. */
static void test_reduce_orders_differ(void **state)
{
    (void)state;
    rng_state = 1;
    float x[16 * 8];
    for (uint32_t i = 0; i < 16 * 8; i++)
        x[i] = rnd_float();
    int differ = 0;
    for (uint32_t r = 0; r < 16; r++)
        differ += ff_reduce(f_sum, x, 16, 8, 1, r, 0, 0) != ff_reduce(f_sum, x, 16, 8, 1, r, 0, 1);
    differ += ff_reduce(f_sum, x, 16, 8, 3, 0, 0, 0) != ff_reduce(f_sum, x, 16, 8, 3, 0, 0, 1);
    assert_true(differ > 0);
}

/* The text: "If 'Reduce' includes 2x2, the dimensions of 'ResultType' must be
 * half of the dimensions of 'Matrix'": an odd dimension has no half. */
static void test_reduce_2x2_odd_rejected(void **state)
{
    (void)state;
    static const shape odd[] = {{5, 6, 1, 1, 1, 1}, {6, 7, 1, 1, 1, 1}, {7, 3, 1, 1, 1, 1}};
    for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
        float x[64] = {0};
        static float out[3 * SLOT * 2];
        run_args a;
        memset(&a, 0, sizeof(a));
        a.shader = "coopmat2_reduce2x2_f32.spv";
        reduce_specs(&a, &odd[i], SUBGROUP);
        buf(&a, x, sizeof(x));
        buf(&a, out, sizeof(out));
        cvm_diagnostic d;
        memset(&d, 0, sizeof(d));
        assert_int_equal(run(&a, &d), CVM_ERROR_INVALID_MODULE);
        assert_non_null(strstr(d.message, "half"));
        assert_int_not_equal(d.word_offset, UINT32_MAX);
    }
}

/* u32 reductions: with a combine that is neither commutative nor
 * associative the default mode gives exactly the documented left fold and
 * the checking mode reports the order dependence; with a + b the checking
 * mode agrees. */
static void check_reduce_u32(const char *shader, const uint32_t *modes, uint32_t count,
                             const shape *s, uint32_t scope, int noncomm, int check_mode)
{
    uint32_t ninst = scope == SUBGROUP ? 2 : 1;
    uint32_t MN = s->M * s->N;
    uint32_t *x = malloc(2 * MN * 4), *out = malloc(2 * count * SLOT * 4);
    assert_non_null(x);
    assert_non_null(out);
    for (uint32_t i = 0; i < 2 * MN; i++)
        x[i] = rnd();
    fill_sentinel(out, 2 * count * SLOT);
    run_args a;
    memset(&a, 0, sizeof(a));
    a.shader = shader;
    a.flags = check_mode ? CVM_FLAG_CHECK_CALLBACKS : 0;
    reduce_specs(&a, s, scope);
    spec(&a, 8, (uint32_t)noncomm);
    buf(&a, x, 2 * MN * 4);
    buf(&a, out, 2 * count * SLOT * 4);
    u_noncomm = noncomm;
    /* every shape here has a sequence of two or more elements */
    if (check_mode && noncomm) {
        cvm_diagnostic d;
        memset(&d, 0, sizeof(d));
        cvm_result r = run(&a, &d);
        assert_int_equal(r, CVM_ERROR_CALLBACK_MISMATCH);
        assert_non_null(strstr(d.message, "CombineFunc"));
        free(x);
        free(out);
        return;
    }
    run_ok(&a);
    for (uint32_t inst = 0; inst < 2; inst++)
        for (uint32_t k = 0; k < count; k++) {
            uint32_t rows, cols;
            result_dims(s, modes[k], &rows, &cols);
            for (uint32_t e = 0; e < SLOT; e++) {
                uint32_t got = out[(inst * count + k) * SLOT + e];
                uint32_t want = inst >= ninst || e >= rows * cols
                                    ? SENTINEL
                                    : uu_reduce(u_comb, x + inst * MN, s->M, s->N, modes[k],
                                                e / cols, e % cols, 0);
                assert_int_equal(got, want);
            }
        }
    free(x);
    free(out);
}

static void test_reduce_u32_order(void **state)
{
    (void)state;
    static const uint32_t modes[3] = {1, 2, 3}, quad[1] = {4};
    rng_state = 3;
    for (size_t i = 0; i < sizeof(REDUCE_SHAPES) / sizeof(REDUCE_SHAPES[0]); i++)
        for (int scope = 0; scope < 2; scope++)
            for (int noncomm = 0; noncomm < 2; noncomm++)
                for (int chk = 0; chk < 2; chk++)
                    check_reduce_u32("coopmat2_reduce_u32.spv", modes, 3, &REDUCE_SHAPES[i],
                                     scope ? WORKGROUP : SUBGROUP, noncomm, chk);
    static const shape even[] = {{2, 2, 1, 1, 1, 1}, {6, 10, 1, 1, 1, 1}};
    for (size_t i = 0; i < 2; i++)
        for (int noncomm = 0; noncomm < 2; noncomm++)
            for (int chk = 0; chk < 2; chk++)
                check_reduce_u32("coopmat2_reduce2x2_u32.spv", quad, 1, &even[i], SUBGROUP,
                                 noncomm, chk);
}

/* ---- per-element operations ----------------------------------------------- */

/* f(row, col, x, y, s, k) = x*s + y + float(row*k + col), one rounding per
 * operation as the shader's OpFMul/OpFAdd (separate statements: no
 * contraction). */
static float per_element_model(uint32_t row, uint32_t col, float x, float y, float s, uint32_t k)
{
    float xs = x * s;
    float xsy = xs + y;
    float rk = (float)(row * k + col);
    return xsy + rk;
}

static void check_per_element(uint32_t M, uint32_t N, uint32_t scope, uint32_t use, int check_mode,
                              uint32_t threads)
{
    uint32_t ninst = scope == SUBGROUP ? 2 : 1, MN = M * N;
    float *x = malloc(2 * MN * 4), *y = malloc(2 * MN * 4), *out = malloc(2 * MN * 4);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(out);
    for (uint32_t i = 0; i < 2 * MN; i++) {
        x[i] = rnd_float();
        y[i] = rnd_float();
    }
    fill_sentinel((uint32_t *)out, 2 * MN);
    float s = -0.3f;
    uint32_t prm[2], k = 1000;
    memcpy(&prm[0], &s, 4);
    prm[1] = k;
    run_args a;
    memset(&a, 0, sizeof(a));
    a.shader = "coopmat2_per_element.spv";
    a.flags = check_mode ? CVM_FLAG_CHECK_CALLBACKS : 0;
    a.threads = threads;
    spec(&a, 0, M);
    spec(&a, 1, N);
    spec(&a, 6, scope);
    spec(&a, 9, use);
    buf(&a, x, 2 * MN * 4);
    buf(&a, y, 2 * MN * 4);
    buf(&a, prm, sizeof(prm));
    buf(&a, out, 2 * MN * 4);
    run_ok(&a);
    for (uint32_t inst = 0; inst < 2; inst++)
        for (uint32_t e = 0; e < MN; e++) {
            uint32_t i = inst * MN + e;
            if (inst >= ninst) {
                uint32_t bits;
                memcpy(&bits, &out[i], 4);
                assert_int_equal(bits, SENTINEL);
                continue;
            }
            assert_float_bits(out[i], per_element_model(e / N, e % N, x[i], y[i], s, k),
                              "per-element", e);
        }
    free(x);
    free(y);
    free(out);
}

static void test_per_element(void **state)
{
    (void)state;
    static const uint32_t dims[][2] = {{5, 7}, {16, 8}, {3, 1}, {1, 1}, {32, 32}};
    rng_state = 4;
    for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
        for (uint32_t use = 0; use < 3; use++)
            for (int scope = 0; scope < 2; scope++)
                for (int chk = 0; chk < 2; chk++)
                    check_per_element(dims[i][0], dims[i][1], scope ? WORKGROUP : SUBGROUP, use,
                                      chk, 1 + (uint32_t)chk);
}

/* ---- ConvertUse, Transpose, OpFConvert with a Use change ------------------- */

/* binary16 bits to float, written from IEEE 754 alone. */
static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31;
    float m = (float)(h & 1023);
    float v = e == 0 ? m / 16777216.0f /* 2^-24 */ : (1.0f + m / 1024.0f) * (float)(1u << e) / 32768.0f;
    return (h & 0x8000) ? -v : v;
}

static void check_convert(uint32_t M, uint32_t N, uint32_t scope, uint32_t to)
{
    uint32_t ninst = scope == SUBGROUP ? 2 : 1, MN = M * N;
    float *x = malloc(2 * MN * 4), *tr = malloc(2 * MN * 4), *cu = malloc(2 * MN * 4);
    uint16_t *h = malloc(2 * MN * 2);
    assert_non_null(x);
    assert_non_null(tr);
    assert_non_null(cu);
    assert_non_null(h);
    /* values f16 holds exactly: integers and halves below 1024 */
    for (uint32_t i = 0; i < 2 * MN; i++)
        x[i] = (float)((int)(rnd() % 2047u) - 1023) * 0.5f;
    fill_sentinel((uint32_t *)tr, 2 * MN);
    fill_sentinel((uint32_t *)cu, 2 * MN);
    memset(h, 0xee, 2 * MN * 2);
    run_args a;
    memset(&a, 0, sizeof(a));
    a.shader = "coopmat2_convert.spv";
    spec(&a, 0, M);
    spec(&a, 1, N);
    spec(&a, 6, scope);
    spec(&a, 9, to);
    buf(&a, x, 2 * MN * 4);
    buf(&a, tr, 2 * MN * 4);
    buf(&a, cu, 2 * MN * 4);
    buf(&a, h, 2 * MN * 2);
    run_ok(&a);
    for (uint32_t inst = 0; inst < 2; inst++) {
        const float *xi = x + inst * MN;
        for (uint32_t e = 0; e < MN; e++) {
            uint32_t i = inst * MN + e;
            if (inst >= ninst) {
                uint32_t bits;
                memcpy(&bits, &tr[i], 4);
                assert_int_equal(bits, SENTINEL);
                memcpy(&bits, &cu[i], 4);
                assert_int_equal(bits, SENTINEL);
                assert_int_equal(h[i], 0xeeee);
                continue;
            }
            /* tr is N x M row-major: tr(r, c) = x(c, r) */
            uint32_t r = e / M, c = e % M;
            assert_float_bits(tr[i], xi[c * N + r], "transpose", e);
            assert_float_bits(cu[i], xi[e], "convert use", e);
            assert_float_bits(half_to_float(h[i]), xi[e], "f32 accumulator to f16 B", e);
        }
    }
    free(x);
    free(tr);
    free(cu);
    free(h);
}

static void test_convert_transpose(void **state)
{
    (void)state;
    static const uint32_t dims[][2] = {{5, 7}, {16, 8}, {3, 1}, {1, 4}, {32, 32}};
    rng_state = 5;
    for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
        for (uint32_t to = 0; to < 2; to++)
            for (int scope = 0; scope < 2; scope++)
                check_convert(dims[i][0], dims[i][1], scope ? WORKGROUP : SUBGROUP, to);
}

/* ConvertUse to an accumulator is not a Use change the text allows. */
static void test_convert_to_accumulator_rejected(void **state)
{
    (void)state;
    float x[70] = {0}, o[70];
    uint16_t h[70];
    run_args a;
    memset(&a, 0, sizeof(a));
    a.shader = "coopmat2_convert.spv";
    spec(&a, 9, 2);
    buf(&a, x, sizeof(x));
    buf(&a, o, sizeof(o));
    buf(&a, o, sizeof(o));
    buf(&a, h, sizeof(h));
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(run(&a, &d), CVM_ERROR_INVALID_MODULE);
    assert_non_null(strstr(d.message, "MatrixAccumulatorKHR"));
}

/* ---- callback order -------------------------------------------------------- */

/* The per-element Func reads and bumps a counter: its results depend on the
 * order (and number) of the calls.  The default mode runs it (each call once,
 * the same way every time); the checking mode must catch it. */
static cvm_result run_order(int check_mode, float *out, uint32_t *counter)
{
    static float x[256];
    for (uint32_t i = 0; i < 256; i++)
        x[i] = (float)i;
    *counter = 0;
    fill_sentinel((uint32_t *)out, 256);
    run_args a;
    memset(&a, 0, sizeof(a));
    a.shader = "coopmat2_callback_order.spv";
    a.flags = check_mode ? CVM_FLAG_CHECK_CALLBACKS : 0;
    buf(&a, x, sizeof(x));
    buf(&a, counter, 4);
    buf(&a, out, 256 * 4);
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    cvm_result r = run(&a, &d);
    if (r == CVM_ERROR_CALLBACK_MISMATCH)
        assert_non_null(strstr(d.message, "another order"));
    return r;
}

static void test_callback_order_dependence(void **state)
{
    (void)state;
    float out1[256], out2[256];
    uint32_t c1, c2;
    assert_int_equal(run_order(0, out1, &c1), CVM_SUCCESS);
    assert_int_equal(run_order(0, out2, &c2), CVM_SUCCESS);
    assert_memory_equal(out1, out2, sizeof(out1));
    assert_int_equal(c1, c2);
    assert_true(c1 >= 1); /* the calls ran */
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t bits;
        memcpy(&bits, &out1[i], 4);
        assert_int_not_equal(bits, SENTINEL);
    }
    assert_int_equal(run_order(1, out1, &c1), CVM_ERROR_CALLBACK_MISMATCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_f32),
        cmocka_unit_test(test_reduce_2x2_f32),
        cmocka_unit_test(test_reduce_orders_differ),
        cmocka_unit_test(test_reduce_2x2_odd_rejected),
        cmocka_unit_test(test_reduce_u32_order),
        cmocka_unit_test(test_per_element),
        cmocka_unit_test(test_convert_transpose),
        cmocka_unit_test(test_convert_to_accumulator_rejected),
        cmocka_unit_test(test_callback_order_dependence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
