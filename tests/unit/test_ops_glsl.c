/* GLSL.std.450 (exec/ops/glsl.c) through the public API on many values,
 * special ones included.  Expected values are computed here:
 *   - f32 functions coopvm documents as the C library's float functions:
 *     the same libm call, compared bit for bit;
 *   - f32 functions documented as "computed in double, rounded once": the
 *     defining formula in double, rounded to float, bit for bit;
 *   - f16: the double libm result rounded once to f16 (the numeric module's
 *     f64->f16, tested in test_numeric), bit for bit;
 *   - integers: plain C.
 * NaN results compare as NaN (the texts give NaN payloads no meaning). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "numeric/numeric.h"
#include "ops_harness.h"

#define NV 640
#define PI_D 3.14159265358979323846

static float pick_float(uint32_t i)
{
    static const float specials[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.5f, 1.0f,
                                     -1.0f, 0.25f, 1e-30f, -1e-30f, 1e30f, 88.0f, -104.0f,
                                     INFINITY, -INFINITY, NAN, 0.999f, 1.0e-40f, 7.0f};
    if (i < sizeof(specials) / sizeof(specials[0]))
        return specials[i];
    uint64_t r = ops_rng();
    switch (r % 4) {
    case 0: return (float)((int64_t)(r >> 8) % 2000001 - 1000000) / 1000000.0f; /* (-1, 1) */
    case 1: return (float)((int64_t)(r >> 8) % 2000001 - 1000000) / 10000.0f;   /* (-100, 100) */
    case 2: return ldexpf((float)((r >> 8) % 1000000) / 1000000.0f + 0.5f, (int)((r >> 40) % 60) - 30);
    default: return (float)((int64_t)(r >> 8) % 21 - 10) * 0.5f; /* halves: rounding ties */
    }
}

/* FMin/NMin and FMax/NMax by the text's comparisons ("y if y < x,
 * otherwise x"; "y if x < y, otherwise x"): of two equal zeros the first
 * operand; a NaN operand gives the other one (NaN results compare as NaN) */
static double min_text(double x, double y)
{
    return isnan(x) ? y : isnan(y) ? x : y < x ? y : x;
}

static double max_text(double x, double y)
{
    return isnan(x) ? y : isnan(y) ? x : x < y ? y : x;
}

static int same_f32(float got, float want)
{
    return (isnan(got) && isnan(want)) || ops_f2u(got) == ops_f2u(want);
}

static float fsignf_(float x)
{
    return x > 0 ? 1.0f : x < 0 ? -1.0f : x;
}

static float rd1(double v)
{
    return (float)v;
}

/* v rounded to f32 and widened back, for a model value that is f32 in the
 * shader and feeds further double arithmetic (normalize(q) in refract).  The
 * f32 value passes through a volatile object because gcc 12 at -O2 drops the
 * rounding of a plain (double)(float)x once its SLP vectorizer has paired two
 * of them: a later fold turns the vector float->double of a vector
 * double->float back into the double operand (-fdump-tree-slp-all against
 * -fdump-tree-optimized shows it), so the model used unrounded normals and
 * disagreed with the engine by up to a few ulps in release builds only. */
static double f32_widened(double v)
{
    volatile float f = (float)v;
    return (double)f;
}

/* Runs glsl_f32 with `flags` and checks every output against the model;
 * returns the f32 outputs (the caller frees them). */
static float *glsl_f32_run(uint32_t flags)
{
    uint32_t n = NV;
    float *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4), *o = malloc(73 * n * 4);
    uint32_t *u = malloc(n * 4), *ou = malloc(5 * n * 4);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(z);
    assert_non_null(o);
    assert_non_null(u);
    assert_non_null(ou);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = pick_float(i);
        y[i] = pick_float(i >= 22 ? i : 100 + i);
        z[i] = pick_float(200 + i);
        u[i] = (uint32_t)ops_rng();
    }
    /* equal zeros of both signs in each order (x[0] is +0, x[1] -0): which
     * one min, max and clamp give is the operands' order */
    y[0] = -0.0f;
    y[1] = 0.0f;
    z[0] = 0.0f;
    z[1] = -0.0f;
    /* the last element's operands are signalling NaNs: the model leaves
     * what becomes of them open (C's functions may treat them apart from
     * quiet ones), so only the fast and reference paths are compared there */
    uint32_t snan = 0x7fa00001u;
    memcpy(&x[n - 1], &snan, 4);
    memcpy(&y[n - 1], &snan, 4);
    memcpy(&z[n - 1], &snan, 4);
    ops_buf bufs[] = {{0, x, n * 4}, {1, y, n * 4}, {2, z, n * 4}, {3, u, n * 4},
                      {4, o, 73 * n * 4}, {5, ou, 5 * n * 4}};
    assert_int_equal(ops_run("glsl_f32", 32, 4, flags, bufs, 6, &n, 4, (n + 63) / 64, NULL, 0),
                     CVM_SUCCESS);
    uint32_t bad = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        float a = x[i], b = y[i], c = z[i];
        double da = (double)a, db = (double)b, dc = (double)c;
        float lo = (float)min_text(db, dc), hi = (float)max_text(db, dc);
        float e[73];
        int ex;
        float w;
        e[0] = roundf(a);
        e[1] = nearbyintf(a); /* default rounding: to nearest even */
        e[2] = truncf(a);
        e[3] = fabsf(a);
        e[4] = fsignf_(a);
        e[5] = floorf(a);
        e[6] = ceilf(a);
        e[7] = a - floorf(a);
        e[8] = rd1(da * (PI_D / 180.0));
        e[9] = rd1(da * (180.0 / PI_D));
        e[10] = sinf(a); e[11] = cosf(a); e[12] = tanf(a); e[13] = asinf(a); e[14] = acosf(a);
        e[15] = atanf(a); e[16] = sinhf(a); e[17] = coshf(a); e[18] = tanhf(a);
        e[19] = asinhf(a); e[20] = acoshf(a); e[21] = atanhf(a);
        e[22] = atan2f(a, b); e[23] = powf(a, b); e[24] = expf(a); e[25] = logf(a);
        e[26] = exp2f(a); e[27] = log2f(a); e[28] = sqrtf(a);
        e[29] = rd1(1.0 / sqrt(da));
        e[30] = (float)min_text(da, db);
        e[31] = (float)max_text(da, db);
        e[32] = (float)min_text(max_text(da, (double)lo), (double)hi);
        e[33] = rd1(da * (1.0 - dc) + db * dc);
        e[34] = b < a ? 0.0f : 1.0f;
        {
            double t = ((double)a - (double)lo) / ((double)hi - (double)lo);
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            e[35] = rd1(t * t * (3.0 - 2.0 * t));
        }
        e[36] = fmaf(a, b, c);
        e[37] = ldexpf(a, (int)(u[i] % 61u) - 30);
        e[38] = isfinite(a) ? frexpf(a, &ex) : a;
        if (!isfinite(a))
            ex = 0;
        e[39] = (float)ex;
        e[40] = isinf(a) ? copysignf(0.0f, a) : modff(a, &w);
        e[41] = isinf(a) ? a : w;
        if (isnan(a))
            e[41] = a;
        double p[3] = {da, db, dc}, q[3] = {db, dc, da}, r3[3] = {dc, da, db};
        e[42] = rd1(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        e[43] = rd1(sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                         (p[2] - q[2]) * (p[2] - q[2])));
        e[44] = rd1(p[1] * q[2] - q[1] * p[2]);
        e[45] = rd1(p[2] * q[0] - q[2] * p[0]);
        e[46] = rd1(p[0] * q[1] - q[0] * p[1]);
        for (int k = 0; k < 3; k++)
            e[47 + k] = rd1(p[k] / sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        double dri = r3[0] * q[0] + r3[1] * q[1] + r3[2] * q[2];
        for (int k = 0; k < 3; k++)
            e[50 + k] = rd1(dri < 0 ? p[k] : -p[k]);
        double dnp = q[0] * p[0] + q[1] * p[1] + q[2] * p[2];
        for (int k = 0; k < 3; k++)
            e[53 + k] = rd1(p[k] - 2.0 * dnp * q[k]);
        {
            /* refract(p, normalize(q), fract(c)): normalize(q) is f32 in the shader */
            double nq[3];
            double lq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
            for (int k = 0; k < 3; k++)
                nq[k] = f32_widened(q[k] / lq);
            double eta = (double)(c - floorf(c));
            double d = nq[0] * p[0] + nq[1] * p[1] + nq[2] * p[2];
            double kk = 1.0 - eta * eta * (1.0 - d * d);
            for (int k = 0; k < 3; k++)
                e[56 + k] = kk < 0.0 ? 0.0f : rd1(eta * p[k] - (eta * d + sqrt(kk)) * nq[k]);
        }
        uint32_t v = u[i];
        e[59] = rd1(fmax(-1.0, (double)(int16_t)(v & 0xffff) / 32767.0));
        e[60] = rd1(fmax(-1.0, (double)(int16_t)(v >> 16) / 32767.0));
        e[61] = rd1((double)(v & 0xffff) / 65535.0);
        e[62] = rd1((double)(v >> 16) / 65535.0);
        e[63] = cvm_f16_to_f32((uint16_t)(v & 0xffff));
        e[64] = cvm_f16_to_f32((uint16_t)(v >> 16));
        for (int k = 0; k < 4; k++) {
            e[65 + k] = rd1(fmax(-1.0, (double)(int8_t)(v >> (8 * k)) / 127.0));
            e[69 + k] = rd1((double)((v >> (8 * k)) & 0xff) / 255.0);
        }
        for (uint32_t s = 0; s < 73; s++)
            if (!same_f32(o[s * n + i], e[s]) && bad++ < 12)
                fprintf(stderr, "slot %u x=%a y=%a z=%a: got %a want %a\n", s, (double)a,
                        (double)b, (double)c, (double)o[s * n + i], (double)e[s]);
        /* packs */
        float v4[4] = {a, b, c, a * b};
        uint32_t ps4 = 0, pu4 = 0, ps2 = 0, pu2 = 0;
        for (int k = 0; k < 4; k++) {
            double f = (double)v4[k];
            int32_t qs = isnan(f) ? 0 : (int32_t)nearbyint(fmin(fmax(f, -1.0), 1.0) * 127.0);
            int32_t qu = isnan(f) ? 0 : (int32_t)nearbyint(fmin(fmax(f, 0.0), 1.0) * 255.0);
            ps4 |= ((uint32_t)qs & 0xffu) << (8 * k);
            pu4 |= ((uint32_t)qu & 0xffu) << (8 * k);
        }
        for (int k = 0; k < 2; k++) {
            double f = (double)v4[k], g = (double)v4[2 + k];
            int32_t qs = isnan(f) ? 0 : (int32_t)nearbyint(fmin(fmax(f, -1.0), 1.0) * 32767.0);
            int32_t qu = isnan(g) ? 0 : (int32_t)nearbyint(fmin(fmax(g, 0.0), 1.0) * 65535.0);
            ps2 |= ((uint32_t)qs & 0xffffu) << (16 * k);
            pu2 |= ((uint32_t)qu & 0xffffu) << (16 * k);
        }
        uint32_t ph = (uint32_t)cvm_f32_to_f16(a) | ((uint32_t)cvm_f32_to_f16(b) << 16);
        uint32_t pe[5] = {ps4, pu4, ps2, pu2, ph};
        for (int s = 0; s < 5; s++)
            if (ou[s * n + i] != pe[s] && bad++ < 12)
                fprintf(stderr, "pack %d x=%a y=%a z=%a: got 0x%08x want 0x%08x\n", s, (double)a,
                        (double)b, (double)c, ou[s * n + i], pe[s]);
    }
    assert_int_equal(bad, 0);
    free(x);
    free(y);
    free(z);
    free(u);
    free(ou);
    return o;
}

/* The fast paths (the float functions in f32 without the double round
 * trip: glsl.c k_float_f32) and the reference paths each against the model,
 * and against each other bit for bit, NaN payloads included (the inputs
 * are the same: ops_rng restarts). */
static void test_glsl_f32(void **state)
{
    (void)state;
    ops_rng_state = 0x243f6a8885a308d3ull;
    float *fast = glsl_f32_run(0);
    ops_rng_state = 0x243f6a8885a308d3ull;
    float *ref = glsl_f32_run(CVM_FLAG_REFERENCE_PATHS);
    uint32_t differ = 0;
    for (uint32_t i = 0; i < 73u * NV; i++)
        if (ops_f2u(fast[i]) != ops_f2u(ref[i]) && differ++ < 12)
            fprintf(stderr, "output %u element %u: fast 0x%08x reference 0x%08x\n", i / NV,
                    i % NV, ops_f2u(fast[i]), ops_f2u(ref[i]));
    assert_int_equal(differ, 0);
    free(fast);
    free(ref);
}

static double h(uint16_t v)
{
    return (double)cvm_f16_to_f32(v);
}

static int same_f16(uint16_t got, uint16_t want)
{
    int gn = (got & 0x7c00) == 0x7c00 && (got & 0x3ff), wn = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
    return (gn && wn) || got == want;
}

/* Runs the glsl_f16 shader on n values, x from `every` (x[i] = i: every
 * f16 bit pattern) or random and moderate ones, `runs` times, and checks
 * every result of every run; later runs must give the first one's bits,
 * NaN payloads included. */
static void check_glsl_f16(uint32_t n, int every, int runs)
{
    uint16_t *x = malloc(n * 2), *y = malloc(n * 2), *z = malloc(n * 2), *o = malloc(35 * (size_t)n * 2);
    uint16_t *first = malloc(35 * (size_t)n * 2);
    assert_non_null(first);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(z);
    assert_non_null(o);
    for (uint32_t i = 0; i < n; i++) {
        /* every 4th a raw random f16 bit pattern (subnormals, NaN, inf
         * included), the rest moderate values */
        x[i] = every ? (uint16_t)i
                     : i % 4 == 0 ? (uint16_t)ops_rng() : cvm_f64_to_f16((double)pick_float(i));
        y[i] = cvm_f64_to_f16((double)pick_float(1000 + i) / 16.0);
        z[i] = cvm_f64_to_f16((double)pick_float(2000 + i));
    }
    for (int run = 0; run < runs; run++) {
        memset(o, 0xff, 35 * (size_t)n * 2);
        ops_buf bufs[] = {{0, x, n * 2}, {1, y, n * 2}, {2, z, n * 2}, {4, o, 35 * n * 2}};
        assert_int_equal(ops_run("glsl_f16", 32, 4, 0, bufs, 4, &n, 4, (n + 63) / 64, NULL, 0),
                         CVM_SUCCESS);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++) {
            double a = h(x[i]), b = h(y[i]), c = h(z[i]);
            double e[35];
            e[0] = round(a); e[1] = floor(a); e[2] = ceil(a); e[3] = a - floor(a);
            e[4] = a * (PI_D / 180.0);
            e[5] = sin(a); e[6] = cos(a); e[7] = tan(a); e[8] = asin(a); e[9] = acos(a);
            e[10] = atan(a); e[11] = sinh(a); e[12] = cosh(a); e[13] = tanh(a); e[14] = asinh(a);
            e[15] = acosh(a); e[16] = atanh(a); e[17] = atan2(a, b); e[18] = pow(a, b);
            e[19] = exp(a); e[20] = log(a); e[21] = exp2(a); e[22] = log2(a); e[23] = sqrt(a);
            e[24] = 1.0 / sqrt(a); e[25] = min_text(a, b); e[26] = max_text(a, b);
            e[27] = a * (1.0 - c) + b * c;
            e[28] = fma(a, b, c);
            double len = sqrt(a * a + b * b + c * c);
            e[29] = len;
            e[30] = a / len; e[31] = b / len; e[32] = c / len;
            e[33] = sin(a); e[34] = sin(b);
            for (uint32_t s = 0; s < 35; s++) {
                uint16_t want = cvm_f64_to_f16(e[s]);
                if (!same_f16(o[s * n + i], want) && bad++ < 12)
                    fprintf(stderr, "f16 run %d slot %u a=%a b=%a c=%a: got 0x%04x want 0x%04x\n",
                            run, s, a, b, c, o[s * n + i], want);
            }
        }
        assert_int_equal(bad, 0);
        if (run == 0)
            memcpy(first, o, 35 * (size_t)n * 2);
        for (uint32_t k = 0; run > 0 && k < 35 * n; k++)
            if (o[k] != first[k])
                fail_msg("f16 run %d slot %u value %u: 0x%04x, the first run 0x%04x", run, k / n,
                         k % n, o[k], first[k]);
    }
    free(first);
    free(x);
    free(y);
    free(z);
    free(o);
}

static void test_glsl_f16(void **state)
{
    (void)state;
    check_glsl_f16(NV, 0, 1);
}

/* Every f16 value through every one-operand function, twice: the first
 * run computes them (and, past CVM_F16_TABLE_AFTER elements of an
 * instruction, builds its table: exec/ops/glsl.c f16_table), the second
 * reads the tables; both give the double function rounded once. */
static void test_glsl_f16_every_value(void **state)
{
    (void)state;
    check_glsl_f16(65536, 1, 2);
}

static int32_t find_lsb(uint32_t v)
{
    for (int b = 0; b < 32; b++)
        if (v & (1u << b))
            return b;
    return -1;
}

static int32_t find_umsb(uint32_t v)
{
    for (int b = 31; b >= 0; b--)
        if (v & (1u << b))
            return b;
    return -1;
}

/* Determinant by the Leibniz formula (permutations), in double. */
static double det_leibniz(const double *m, int n) /* m[col * n + row] */
{
    int perm[4] = {0, 1, 2, 3};
    double sum = 0;
    /* iterate all permutations of n by Heap's algorithm */
    int cnt[4] = {0, 0, 0, 0}, sign = 1, i = 0;
    for (;;) {
        double p = sign;
        for (int r = 0; r < n; r++)
            p *= m[perm[r] * n + r];
        sum += p;
        while (i < n && cnt[i] >= i) {
            cnt[i] = 0;
            i++;
        }
        if (i >= n)
            break;
        int j = (i % 2) ? cnt[i] : 0;
        int t = perm[j];
        perm[j] = perm[i];
        perm[i] = t;
        sign = -sign;
        cnt[i]++;
        i = 0;
    }
    return sum;
}

static void test_glsl_int_and_matrix(void **state)
{
    (void)state;
    uint32_t n = NV;
    int32_t *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4), *o = malloc(13 * n * 4);
    float *m = malloc(16 * n * 4), *of = malloc(19 * n * 4);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_non_null(o);
    assert_non_null(m);
    assert_non_null(of);
    static const int32_t sp[] = {0, -1, 1, INT32_MIN, INT32_MAX, 2, -2, 0x40000000, 16, -16};
    for (uint32_t i = 0; i < n; i++) {
        a[i] = i < 10 ? sp[i] : (int32_t)(uint32_t)ops_rng() >> (ops_rng() % 31);
        b[i] = (int32_t)(uint32_t)ops_rng() >> (ops_rng() % 31);
        c[i] = i < 10 ? sp[9 - i] : (int32_t)(uint32_t)ops_rng() >> (ops_rng() % 31);
        for (int k = 0; k < 16; k++)
            m[16 * i + k] = (float)((int)(ops_rng() % 17) - 8) / 4.0f;
        if (i % 2 == 0) /* diagonally dominant: well conditioned */
            for (int k = 0; k < 4; k++)
                m[16 * i + 5 * k] += 8.0f;
    }
    ops_buf bufs[] = {{0, a, n * 4}, {1, b, n * 4}, {2, c, n * 4}, {3, m, 16 * n * 4},
                      {4, o, 13 * n * 4}, {5, of, 19 * n * 4}};
    assert_int_equal(ops_run("glsl_int", 32, 4, 0, bufs, 6, &n, 4, (n + 63) / 64, NULL, 0),
                     CVM_SUCCESS);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = a[i], y = b[i], z = c[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y, uz = (uint32_t)z;
        int32_t lo = y < z ? y : z, hi = y > z ? y : z;
        uint32_t ulo = uy < uz ? uy : uz, uhi = uy > uz ? uy : uz;
        int32_t e[13];
        e[0] = x == INT32_MIN ? INT32_MIN : (x < 0 ? -x : x);
        e[1] = x > 0 ? 1 : x < 0 ? -1 : 0;
        e[2] = x < y ? x : y;
        e[3] = x > y ? x : y;
        e[4] = (int32_t)(ux < uy ? ux : uy);
        e[5] = (int32_t)(ux > uy ? ux : uy);
        e[6] = x < lo ? lo : x > hi ? hi : x;
        e[7] = (int32_t)(ux < ulo ? ulo : ux > uhi ? uhi : ux);
        e[8] = find_lsb(ux);
        e[9] = x < 0 ? find_umsb(~ux) : find_umsb(ux);
        e[10] = find_umsb(ux);
        e[11] = x > z ? x : z;
        e[12] = y > x ? y : x;
        for (int s = 0; s < 13; s++)
            if (o[s * n + i] != e[s] && bad++ < 12)
                fprintf(stderr, "int slot %d x=%d y=%d z=%d: got %d want %d\n", s, x, y, z,
                        o[s * n + i], e[s]);
        /* determinants: exact in double for these quarter-integer entries */
        double d2[4], d3[9], d4[16];
        for (int k = 0; k < 4; k++) d2[k] = (double)m[16 * i + k];
        for (int k = 0; k < 9; k++) d3[k] = (double)m[16 * i + k];
        for (int k = 0; k < 16; k++) d4[k] = (double)m[16 * i + k];
        float ed[3] = {rd1(det_leibniz(d2, 2)), rd1(det_leibniz(d3, 3)), rd1(det_leibniz(d4, 4))};
        for (int s = 0; s < 3; s++)
            if (!same_f32(of[s * n + i], ed[s]) && bad++ < 12)
                fprintf(stderr, "det%d matrix %u: got %a want %a\n", s + 2, i,
                        (double)of[s * n + i], (double)ed[s]);
        /* inverse of the well-conditioned ones: inv = adj / det by cofactors
         * (exact integers scaled), each entry correctly rounded from a value
         * with relative error below 2^-45, so only ties could differ */
        double det = det_leibniz(d4, 4);
        if (i % 2 == 0 && det != 0.0) {
            for (int col = 0; col < 4; col++)
                for (int row = 0; row < 4; row++) {
                    /* inverse[col][row] = cofactor(row, col) / det (transposed) */
                    double minor[9];
                    int t = 0;
                    for (int cc = 0; cc < 4; cc++) {
                        if (cc == row)
                            continue;
                        for (int rr = 0; rr < 4; rr++)
                            if (rr != col)
                                minor[t++] = d4[cc * 4 + rr];
                    }
                    double cof = (((row + col) % 2) ? -1.0 : 1.0) * det_leibniz(minor, 3);
                    /* a zero cofactor is +0: the entry is a zero of the
                     * determinant's sign (glsl.c) */
                    float want = rd1((cof == 0.0 ? 0.0 : cof) / det);
                    float got = of[(3 + col * 4 + row) * n + i];
                    if (!same_f32(got, want) && bad++ < 12)
                        fprintf(stderr, "inverse matrix %u [%d][%d]: got %a want %a\n", i, col,
                                row, (double)got, (double)want);
                }
        }
    }
    assert_int_equal(bad, 0);
    free(a);
    free(b);
    free(c);
    free(o);
    free(m);
    free(of);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glsl_f32),
        cmocka_unit_test(test_glsl_f16),
        cmocka_unit_test(test_glsl_f16_every_value),
        cmocka_unit_test(test_glsl_int_and_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
