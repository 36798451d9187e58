/* Number formats and conversions (numeric/numeric.h).
 *
 * The encoders are checked against a slow reference written here from the
 * format definitions alone: a table of every non-negative finite value of the
 * format (decoded with ldexp from the field layout), a search for the two
 * neighbours of the input, and a comparison with their midpoint, which is
 * exact in a double (the formats have at most 11 significant bits).  Ties go
 * to the pattern with an even mantissa; past the largest finite value the
 * next value the format would have with an unbounded exponent stands in for
 * overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <math.h>
#include <cmocka.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
static int cpu_has_f16c(void)
{
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
}
#endif

#include "numeric/numeric.h"

#define DINF ((double)INFINITY)
#define DNAN ((double)NAN)

/* Test helpers -------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Reference format model ---------------------------------------------------- */

typedef struct ref_fmt {
    const char *name;
    unsigned bits, ebits, mbits;
    int bias;
    int ieee; /* all-ones exponent is inf/NaN; else (E4M3) only S.1111.111 is NaN */
    cvm_scalar_kind kind;
    double *table; /* value of magnitude patterns 0 .. max_finite + 1 */
    uint32_t max_finite;
} ref_fmt;

static ref_fmt REF_F16 = {"f16", 16, 5, 10, 15, 1, CVM_SK_F16, NULL, 0};
static ref_fmt REF_BF16 = {"bf16", 16, 8, 7, 127, 1, CVM_SK_BF16, NULL, 0};
static ref_fmt REF_E4M3 = {"e4m3", 8, 4, 3, 7, 0, CVM_SK_E4M3, NULL, 0};
static ref_fmt REF_E5M2 = {"e5m2", 8, 5, 2, 15, 1, CVM_SK_E5M2, NULL, 0};

static int ref_is_nan(const ref_fmt *f, uint32_t p)
{
    uint32_t mag = p & ((1u << (f->bits - 1)) - 1);
    uint32_t e = mag >> f->mbits, m = mag & ((1u << f->mbits) - 1);
    if (f->ieee)
        return e == (1u << f->ebits) - 1 && m != 0;
    return mag == (1u << (f->bits - 1)) - 1;
}

static int ref_is_inf(const ref_fmt *f, uint32_t p)
{
    uint32_t mag = p & ((1u << (f->bits - 1)) - 1);
    return f->ieee && mag == ((1u << f->ebits) - 1) << f->mbits;
}

/* Value of a non-NaN, non-inf pattern, from the field definitions. */
static double ref_value(const ref_fmt *f, uint32_t p)
{
    uint32_t mag = p & ((1u << (f->bits - 1)) - 1);
    int e = (int)(mag >> f->mbits);
    double m = (double)(mag & ((1u << f->mbits) - 1)) / (double)(1u << f->mbits);
    double v = e == 0 ? ldexp(m, 1 - f->bias) : ldexp(1.0 + m, e - f->bias);
    return (p >> (f->bits - 1)) ? -v : v;
}

static void ref_init(ref_fmt *f)
{
    if (f->table)
        return;
    uint32_t maxf = f->ieee ? (((1u << f->ebits) - 1) << f->mbits) - 1 : (1u << (f->bits - 1)) - 2;
    f->max_finite = maxf;
    f->table = malloc(sizeof(double) * (maxf + 2));
    for (uint32_t p = 0; p <= maxf; p++)
        f->table[p] = ref_value(f, p);
    /* The value past the top with an unbounded exponent: max + one ulp. */
    f->table[maxf + 1] = f->table[maxf] + (f->table[maxf] - f->table[maxf - 1]);
}

/* The pattern the format should give for x.  A long double argument holds
 * every double and (x86's 64-bit significand) every 64-bit integer exactly. */
static uint32_t ref_encode(ref_fmt *f, long double x, int saturate)
{
    ref_init(f);
    uint32_t sign = signbit(x) ? 1u << (f->bits - 1) : 0;
    uint32_t top = f->max_finite + 1;
    if (isnan(x))
        return sign | ((1u << (f->bits - 1)) - 1); /* some NaN; checked by class */
    long double a = fabsl(x);
    uint32_t r;
    if (isinf(a)) {
        r = top;
    } else {
        uint32_t lo = 0, hi = top; /* largest i with table[i] <= a, by bisection */
        if (a >= (long double)f->table[top]) {
            lo = top;
        } else {
            while (hi - lo > 1) {
                uint32_t mid = (lo + hi) / 2;
                if ((long double)f->table[mid] <= a)
                    lo = mid;
                else
                    hi = mid;
            }
        }
        if (lo == top || (long double)f->table[lo] == a) {
            r = lo;
        } else {
            long double midv = (long double)((f->table[lo] + f->table[lo + 1]) / 2); /* exact */
            if (a < midv)
                r = lo;
            else if (a > midv)
                r = lo + 1;
            else
                r = (lo & 1) ? lo + 1 : lo;
        }
    }
    if (r >= top) {
        if (saturate)
            return sign | f->max_finite;
        if (f->ieee)
            return sign | (((1u << f->ebits) - 1) << f->mbits);
        return sign | ((1u << (f->bits - 1)) - 1);
    }
    return sign | r;
}

/* The library's encoders, by format. */
static uint32_t lib_enc64(const ref_fmt *f, double x, int sat)
{
    switch (f->kind) {
    case CVM_SK_F16: return cvm_f64_to_f16(x);
    case CVM_SK_BF16: return cvm_f64_to_bf16(x);
    case CVM_SK_E4M3: return cvm_f64_to_e4m3(x, sat);
    default: return cvm_f64_to_e5m2(x, sat);
    }
}

static uint32_t lib_enc32(const ref_fmt *f, float x, int sat)
{
    switch (f->kind) {
    case CVM_SK_F16: return cvm_f32_to_f16(x);
    case CVM_SK_BF16: return cvm_f32_to_bf16(x);
    case CVM_SK_E4M3: return cvm_f32_to_e4m3(x, sat);
    default: return cvm_f32_to_e5m2(x, sat);
    }
}

static float lib_dec(const ref_fmt *f, uint32_t p)
{
    switch (f->kind) {
    case CVM_SK_F16: return cvm_f16_to_f32((uint16_t)p);
    case CVM_SK_BF16: return cvm_bf16_to_f32((uint16_t)p);
    case CVM_SK_E4M3: return cvm_e4m3_to_f32((uint8_t)p);
    default: return cvm_e5m2_to_f32((uint8_t)p);
    }
}

static int saturating_formats(const ref_fmt *f)
{
    return f->kind == CVM_SK_E4M3 || f->kind == CVM_SK_E5M2;
}

/* Compares one encoding; NaN results compare by class and sign. */
static void check_enc(ref_fmt *f, double x, uint32_t got, int sat, const char *what)
{
    uint32_t want = ref_encode(f, (long double)x, sat);
    int ok;
    if (isnan(x))
        ok = ref_is_nan(f, got) && ((got ^ want) >> (f->bits - 1)) == 0;
    else
        ok = got == want;
    if (!ok) {
        print_error("%s %s(%a, sat=%d): got 0x%x want 0x%x\n", what, f->name, x, sat, got, want);
        fail();
    }
}

static void check_value_both(ref_fmt *f, double x)
{
    for (int sat = 0; sat <= saturating_formats(f); sat++) {
        check_enc(f, x, lib_enc64(f, x, sat), sat, "f64");
        float xf = (float)x;
        if ((double)xf == x || isnan(x))
            check_enc(f, (double)xf, lib_enc32(f, xf, sat), sat, "f32");
    }
}

static ref_fmt *all_fmts[] = {&REF_F16, &REF_BF16, &REF_E4M3, &REF_E5M2};

/* Kinds ----------------------------------------------------------------------- */

static void test_kind_properties(void **state)
{
    (void)state;
    assert_int_equal(cvm_sk_size(CVM_SK_BOOL), 1);
    assert_int_equal(cvm_sk_size(CVM_SK_S16), 2);
    assert_int_equal(cvm_sk_size(CVM_SK_BF16), 2);
    assert_int_equal(cvm_sk_size(CVM_SK_U32), 4);
    assert_int_equal(cvm_sk_size(CVM_SK_F64), 8);
    assert_int_equal(cvm_sk_size(CVM_SK_E5M2), 1);
    assert_true(cvm_sk_is_float(CVM_SK_E4M3));
    assert_false(cvm_sk_is_float(CVM_SK_U8));
    assert_true(cvm_sk_is_signed_int(CVM_SK_S64));
    assert_false(cvm_sk_is_signed_int(CVM_SK_U64));
    assert_false(cvm_sk_is_signed_int(CVM_SK_F32));
    assert_string_equal(cvm_sk_name(CVM_SK_F16), "f16");
    assert_string_equal(cvm_sk_name(CVM_SK_S8), "s8");
    assert_string_equal(cvm_sk_name(CVM_SK_E4M3), "e4m3");
}

/* Exhaustive decode and round trip -------------------------------------------- */

static void exhaustive_format(ref_fmt *f)
{
    ref_init(f);
    uint32_t n = 1u << f->bits;
    uint32_t signbit_ = 1u << (f->bits - 1);
    for (uint32_t p = 0; p < n; p++) {
        float v = lib_dec(f, p);
        if (ref_is_nan(f, p)) {
            assert_true(isnan(v));
            assert_int_equal(!!signbit(v), !!(p & signbit_));
            /* Encoding a NaN gives a quiet NaN of the same sign, keeping the
             * payload where the format has one. */
            for (int sat = 0; sat <= saturating_formats(f); sat++) {
                uint32_t back64 = lib_enc64(f, (double)v, sat);
                uint32_t back32 = lib_enc32(f, v, sat);
                assert_true(ref_is_nan(f, back64));
                assert_int_equal(back64, back32);
                uint32_t quiet = f->ieee ? 1u << (f->mbits - 1) : 0;
                assert_int_equal(back64, p | quiet);
            }
            continue;
        }
        if (ref_is_inf(f, p)) {
            assert_true(isinf(v));
            assert_int_equal(!!signbit(v), !!(p & signbit_));
        } else {
            double want = ref_value(f, p);
            if (dbits((double)v) != dbits(want)) {
                print_error("%s decode 0x%x: got %a want %a\n", f->name, p, (double)v, want);
                fail();
            }
        }
        assert_int_equal(lib_enc64(f, (double)v, 0), p);
        assert_int_equal(lib_enc32(f, v, 0), p);
        if (saturating_formats(f) && !ref_is_inf(f, p)) {
            assert_int_equal(lib_enc64(f, (double)v, 1), p);
            assert_int_equal(lib_enc32(f, v, 1), p);
        }
    }
    /* Finite magnitudes increase with the pattern, which the reference
     * search relies on. */
    for (uint32_t p = 1; p <= f->max_finite + 1; p++)
        assert_true(f->table[p] > f->table[p - 1]);
}

static void test_f16_exhaustive(void **state)
{
    (void)state;
    exhaustive_format(&REF_F16);
}

static void test_bf16_exhaustive(void **state)
{
    (void)state;
    exhaustive_format(&REF_BF16);
}

static void test_fp8_exhaustive(void **state)
{
    (void)state;
    exhaustive_format(&REF_E4M3);
    exhaustive_format(&REF_E5M2);
}

/* Encoders against the reference -------------------------------------------- */

static void encoder_vs_reference(ref_fmt *f)
{
    ref_init(f);
    /* Every midpoint between neighbours, and the doubles and floats next to
     * it on both sides; every exact value, negated too. */
    for (uint32_t p = 0; p <= f->max_finite; p++) {
        double lo = f->table[p], hi = f->table[p + 1];
        double mid = (lo + hi) / 2;
        double cand[] = {lo, mid, nextafter(mid, 0.0), nextafter(mid, DINF),
                         (double)nextafterf((float)mid, 0.0f),
                         (double)nextafterf((float)mid, INFINITY)};
        for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
            check_value_both(f, cand[i]);
            check_value_both(f, -cand[i]);
        }
    }
    /* Random doubles spread over the format's range and a little beyond. */
    int emin = 1 - f->bias - (int)f->mbits - 4;
    int emax = (1 << f->ebits) - f->bias + 3;
    for (int i = 0; i < 400000; i++) {
        uint64_t r = rng();
        int e = emin + (int)(rng() % (uint64_t)(emax - emin + 1));
        double m = ldexp((double)(r >> 11), -53); /* [0, 1) with 53 bits */
        double x = ldexp(1.0 + m, e);
        if (r & 1)
            x = -x;
        check_value_both(f, x);
        /* and random floats, which hit exact ties more often */
        float xf = bitsf((uint32_t)(r >> 32) & 0xffffe000u);
        check_value_both(f, (double)xf);
    }
    double specials[] = {0.0, -0.0, DINF, -DINF, DNAN, -DNAN, 1e300, -1e300, 4.9e-324,
                         -4.9e-324, 2.2250738585072014e-308, 1.0, -1.0, 65504.0, 65519.99,
                         65520.0, 448.0, 464.0, 464.0000001, 479.0, 480.0, 57344.0, 61439.0,
                         61440.0, 3.3895313892515355e38, 3.4e38};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        check_value_both(f, specials[i]);
}

static void test_f16_encode(void **state)
{
    (void)state;
    encoder_vs_reference(&REF_F16);
}

static void test_bf16_encode(void **state)
{
    (void)state;
    encoder_vs_reference(&REF_BF16);
}

static void test_fp8_encode(void **state)
{
    (void)state;
    encoder_vs_reference(&REF_E4M3);
    encoder_vs_reference(&REF_E5M2);
}

/* Double rounding: a double just above an f16 tie must round up; rounding it
 * to f32 first would land on the tie and round to even (down). */
static void test_f64_rounds_once(void **state)
{
    (void)state;
    double tie = 1.0 + ldexp(1.0, -11);   /* halfway between 1 and 1+2^-10 */
    double x = tie + ldexp(1.0, -40);     /* above the tie, below f32 precision */
    assert_true((double)(float)x == tie); /* the trap is real */
    assert_int_equal(cvm_f64_to_f16(x), 0x3c01);
    assert_int_equal(cvm_f32_to_f16((float)x), 0x3c00);
    assert_int_equal(cvm_f64_to_f16(tie), 0x3c00);
    double btie = 1.0 + ldexp(1.0, -8);
    double bx = btie + ldexp(1.0, -40);
    assert_true((double)(float)bx == btie);
    assert_int_equal(cvm_f64_to_bf16(bx), 0x3f81);
    assert_int_equal(cvm_f32_to_bf16((float)bx), 0x3f80);
    double etie = 1.0 + ldexp(1.0, -4); /* e4m3: ulp at 1 is 2^-3 */
    assert_int_equal(cvm_f64_to_e4m3(etie + ldexp(1.0, -40), 0), 0x39);
    assert_int_equal(cvm_f64_to_e4m3(etie, 0), 0x38);
}

static void test_fp8_overflow(void **state)
{
    (void)state;
    /* E4M3: no infinity, overflow is NaN unless saturating. */
    assert_int_equal(cvm_f32_to_e4m3(448.0f, 0), 0x7e);
    assert_int_equal(cvm_f32_to_e4m3(464.0f, 0), 0x7e); /* tie to even 448 */
    assert_int_equal(cvm_f32_to_e4m3(465.0f, 0), 0x7f);
    assert_int_equal(cvm_f32_to_e4m3(-465.0f, 0), 0xff);
    assert_int_equal(cvm_f32_to_e4m3(465.0f, 1), 0x7e);
    assert_int_equal(cvm_f32_to_e4m3(-INFINITY, 1), 0xfe);
    assert_int_equal(cvm_f32_to_e4m3(INFINITY, 0), 0x7f);
    assert_int_equal(cvm_f32_to_e4m3(NAN, 1), 0x7f);
    assert_int_equal(cvm_f32_to_e4m3(ldexpf(1.0f, -9), 0), 0x01); /* min subnormal */
    assert_int_equal(cvm_f32_to_e4m3(ldexpf(1.0f, -10), 0), 0x00); /* tie to even 0 */
    assert_int_equal(cvm_f64_to_e4m3(ldexp(1.0, -10) * 1.0000001, 0), 0x01);
    /* E5M2: infinity exists; saturation clamps it and overflow. */
    assert_int_equal(cvm_f32_to_e5m2(57344.0f, 0), 0x7b);
    assert_int_equal(cvm_f32_to_e5m2(61440.0f, 0), 0x7c); /* tie: odd max -> inf */
    assert_int_equal(cvm_f32_to_e5m2(61439.0f, 0), 0x7b);
    assert_int_equal(cvm_f32_to_e5m2(61440.0f, 1), 0x7b);
    assert_int_equal(cvm_f32_to_e5m2(-INFINITY, 1), 0xfb);
    assert_int_equal(cvm_f32_to_e5m2(-INFINITY, 0), 0xfc);
    assert_true(ref_is_nan(&REF_E5M2, cvm_f32_to_e5m2(NAN, 1)));
    /* f16 and bf16 go to infinity. */
    assert_int_equal(cvm_f32_to_f16(65520.0f), 0x7c00);
    assert_int_equal(cvm_f32_to_f16(65519.0f), 0x7bff);
    assert_int_equal(cvm_f32_to_bf16(bitsf(0x7f7fffffu)), 0x7f80);
    assert_int_equal(cvm_f32_to_bf16(bitsf(0x7f7f7fffu)), 0x7f7f);
}

/* NaN payloads follow F16C's rule: top payload bits kept, quiet bit set. */
static void test_nan_payload(void **state)
{
    (void)state;
    assert_int_equal(cvm_f32_to_f16(bitsf(0x7fa02000u)), 0x7f01);
    assert_int_equal(cvm_f32_to_f16(bitsf(0xff800001u)), 0xfe00);
    assert_int_equal(fbits(cvm_f16_to_f32(0x7d01)), 0x7fe02000u);
    assert_int_equal(fbits(cvm_bf16_to_f32(0x7f81)), 0x7fc10000u);
    assert_int_equal(cvm_f32_to_bf16(bitsf(0x7f810000u)), 0x7fc1);
    assert_int_equal(cvm_f32_to_e5m2(bitsf(0x7fa00000u), 0), 0x7f);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
__attribute__((target("f16c"))) static uint16_t hw_f32_to_f16(float f)
{
    return (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}
#endif

/* f32 -> f16 against the CPU's own conversion (an independent implementation)
 * over every f32 sign/exponent/top-mantissa combination and a set of low
 * mantissa endings that straddle the rounding boundaries. */
static void test_f32_to_f16_vs_f16c(void **state)
{
    (void)state;
#if defined(__x86_64__) && defined(__GNUC__)
    if (!cpu_has_f16c())
        skip();
    static const uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000,
                                    0x2001, 0x0800, 0x17ff, 0x1800, 0x0400, 0xffff};
    for (uint32_t hi = 0; hi < 0x10000u; hi++) {
        for (size_t i = 0; i < sizeof lows / sizeof lows[0]; i++) {
            uint32_t u = (hi << 16) | lows[i];
            float f = bitsf(u);
            uint16_t got = cvm_f32_to_f16(f), want = hw_f32_to_f16(f);
            if (got != want) {
                print_error("f32 0x%08x: got 0x%04x f16c 0x%04x\n", u, got, want);
                fail();
            }
        }
    }
#else
    skip();
#endif
}

/* Float -> integer -------------------------------------------------------------- */

static void test_float_to_int(void **state)
{
    (void)state;
    uint8_t u8;
    int8_t s8;
    int32_t s32;
    uint32_t u32;
    int64_t s64;
    uint64_t u64;
    cvm_store_from_f64(CVM_SK_S32, &s32, -7.9, 0);
    assert_int_equal(s32, -7);
    cvm_store_from_f64(CVM_SK_S32, &s32, 7.9, 1);
    assert_int_equal(s32, 7);
    cvm_store_from_f64(CVM_SK_U8, &u8, 300.7, 1);
    assert_int_equal(u8, 255);
    cvm_store_from_f64(CVM_SK_U8, &u8, 300.7, 0);
    assert_int_equal(u8, 300 - 256);
    cvm_store_from_f64(CVM_SK_U8, &u8, -1.5, 1);
    assert_int_equal(u8, 0);
    cvm_store_from_f64(CVM_SK_U8, &u8, -1.5, 0);
    assert_int_equal(u8, 255);
    cvm_store_from_f64(CVM_SK_S8, &s8, -128.99, 1);
    assert_int_equal(s8, -128);
    cvm_store_from_f64(CVM_SK_S8, &s8, -129.0, 1);
    assert_int_equal(s8, -128);
    cvm_store_from_f64(CVM_SK_S8, &s8, 127.99, 1);
    assert_int_equal(s8, 127);
    cvm_store_from_f64(CVM_SK_S8, &s8, 128.0, 1);
    assert_int_equal(s8, 127);
    cvm_store_from_f64(CVM_SK_S8, &s8, 130.0, 0);
    assert_int_equal(s8, 130 - 256);
    cvm_store_from_f64(CVM_SK_S32, &s32, DNAN, 1);
    assert_int_equal(s32, 0);
    cvm_store_from_f64(CVM_SK_S32, &s32, DNAN, 0);
    assert_int_equal(s32, 0);
    cvm_store_from_f64(CVM_SK_S32, &s32, DINF, 1);
    assert_int_equal(s32, INT32_MAX);
    cvm_store_from_f64(CVM_SK_S32, &s32, -DINF, 0);
    assert_int_equal(s32, INT32_MIN);
    cvm_store_from_f64(CVM_SK_U32, &u32, 4294967295.5, 1);
    assert_int_equal(u32, UINT32_MAX);
    cvm_store_from_f64(CVM_SK_U32, &u32, 4294967296.0 + 5.0, 0);
    assert_int_equal(u32, 5);
    cvm_store_from_f64(CVM_SK_S64, &s64, 9223372036854775808.0, 1);
    assert_true(s64 == INT64_MAX);
    cvm_store_from_f64(CVM_SK_S64, &s64, -9223372036854775808.0, 1);
    assert_true(s64 == INT64_MIN);
    cvm_store_from_f64(CVM_SK_S64, &s64, -9223372036854775808.0, 0);
    assert_true(s64 == INT64_MIN);
    cvm_store_from_f64(CVM_SK_S64, &s64, 9223372036854775808.0, 0); /* 2^63 wraps */
    assert_true(s64 == INT64_MIN);
    cvm_store_from_f64(CVM_SK_U64, &u64, 18446744073709551616.0, 1);
    assert_true(u64 == UINT64_MAX);
    cvm_store_from_f64(CVM_SK_U64, &u64, 18446744073709549568.0, 0); /* 2^64-2^11 */
    assert_true(u64 == UINT64_MAX - 2047);
    /* 3 * 2^62 + 2^61 = 2^63 + 2^62 + 2^61 ... wrapped modulo 2^64 */
    cvm_store_from_f64(CVM_SK_U64, &u64, ldexp(7.0, 61) + ldexp(1.0, 64), 0);
    assert_true(u64 == (uint64_t)7 << 61);
    cvm_store_from_f64(CVM_SK_S16, &s64, -ldexp(1.0, 70), 0); /* multiple of 2^16 */
    assert_int_equal((int16_t)s64, 0);
    /* Loads of float kinds as integers truncate and clamp. */
    float f = -3.75f;
    assert_true(cvm_load_as_s64(CVM_SK_F32, &f) == -3);
    assert_true(cvm_load_as_u64(CVM_SK_F32, &f) == 0);
    uint16_t h = 0x7c00; /* +inf */
    assert_true(cvm_load_as_s64(CVM_SK_F16, &h) == INT64_MAX);
}

static void test_int_to_int(void **state)
{
    (void)state;
    uint8_t b[8];
    int8_t s8;
    uint8_t u8;
    int16_t s16;
    uint32_t u32;
    cvm_store_from_s64(CVM_SK_S8, &s8, 200, 0);
    assert_int_equal(s8, -56);
    cvm_store_from_s64(CVM_SK_S8, &s8, 200, 1);
    assert_int_equal(s8, 127);
    cvm_store_from_s64(CVM_SK_S8, &s8, -200, 1);
    assert_int_equal(s8, -128);
    cvm_store_from_s64(CVM_SK_U8, &u8, -1, 1);
    assert_int_equal(u8, 0);
    cvm_store_from_s64(CVM_SK_U8, &u8, -1, 0);
    assert_int_equal(u8, 255);
    cvm_store_from_u64(CVM_SK_S16, &s16, UINT64_MAX, 1);
    assert_int_equal(s16, INT16_MAX);
    cvm_store_from_u64(CVM_SK_S16, &s16, UINT64_MAX, 0);
    assert_int_equal(s16, -1);
    cvm_store_from_s64(CVM_SK_U32, &u32, INT64_MIN, 1);
    assert_int_equal(u32, 0);
    cvm_store_from_s64(CVM_SK_S16, &s16, INT64_MIN, 1);
    assert_int_equal(s16, INT16_MIN);
    cvm_store_from_s64(CVM_SK_S16, &s16, -32768, 1);
    assert_int_equal(s16, -32768);
    cvm_store_from_s64(CVM_SK_S16, &s16, -32769, 0);
    assert_int_equal(s16, 32767);
    int64_t m1 = -1;
    cvm_store_from_s64(CVM_SK_U64, b, m1, 1);
    assert_true(cvm_load_as_u64(CVM_SK_U64, b) == 0);
    /* Loads extend by the kind. */
    s8 = -5;
    assert_true(cvm_load_as_s64(CVM_SK_S8, &s8) == -5);
    assert_true(cvm_load_as_s64(CVM_SK_U8, &s8) == 251);
    assert_true(cvm_load_as_u64(CVM_SK_S8, &s8) == (uint64_t)-5);
    assert_true(cvm_load_as_f64(CVM_SK_S8, &s8) == -5.0);
    assert_true(cvm_load_as_f64(CVM_SK_U8, &s8) == 251.0);
}

/* Integer -> narrow float rounds once from the exact integer. */
static void test_int_to_float(void **state)
{
    (void)state;
    uint16_t h;
    float f;
    uint8_t e;
    /* 2^60 + 2^36 + 1: through a double it would become a tie (2^60+2^36)
     * and round to even in f32; rounded once it goes up to 2^60 + 2^37. */
    int64_t v = ((int64_t)1 << 60) + ((int64_t)1 << 36) + 1;
    cvm_store_from_s64(CVM_SK_F32, &f, v, 0);
    assert_true(f == ldexpf(1.0f, 60) + ldexpf(1.0f, 37));
    /* f16 near 2^14 (ulp 16): 8 above is a tie, 9 above rounds up. */
    cvm_store_from_s64(CVM_SK_F16, &h, (1 << 14) + 8 + 1, 0);
    assert_int_equal(h, 0x7401); /* 16400 */
    cvm_store_from_s64(CVM_SK_F16, &h, (1 << 14) + 8, 0);
    assert_int_equal(h, 0x7400); /* tie to even 16384 */
    cvm_store_from_s64(CVM_SK_F16, &h, -70000, 0);
    assert_int_equal(h, 0xfc00);
    cvm_store_from_u64(CVM_SK_BF16, &h, UINT64_MAX, 0);
    assert_int_equal(h, 0x5f80); /* 2^64 */
    cvm_store_from_s64(CVM_SK_E4M3, &e, 1000, 0);
    assert_int_equal(e, 0x7f);
    cvm_store_from_s64(CVM_SK_E4M3, &e, -1000, 1);
    assert_int_equal(e, 0xfe);
    cvm_store_from_s64(CVM_SK_E5M2, &e, 0, 1);
    assert_int_equal(e, 0x00);
    cvm_store_from_s64(CVM_SK_E5M2, &e, 3, 0);
    assert_int_equal(e, 0x42); /* 3 = 1.5 * 2^1 */
    /* And against the reference for random 64-bit integers of every size. */
#if LDBL_MANT_DIG >= 64
    for (int i = 0; i < 200000; i++) {
        uint64_t r = rng();
        int sh = (int)(rng() % 64);
        int64_t x = (int64_t)(r >> sh);
        if (rng() & 1)
            x = -x;
        for (size_t fi = 0; fi < 4; fi++) {
            ref_fmt *fm = all_fmts[fi];
            uint8_t out[2] = {0, 0};
            cvm_store_from_s64(fm->kind, out, x, 0);
            uint32_t got = fm->bits == 8 ? out[0] : (uint32_t)(out[0] | out[1] << 8);
            uint32_t want = ref_encode(fm, (long double)x, 0);
            if (got != want) {
                print_error("%s(%lld): got 0x%x want 0x%x\n", fm->name, (long long)x, got, want);
                fail();
            }
        }
    }
#endif
}

static void test_convert_array(void **state)
{
    (void)state;
    uint16_t h[4] = {0x3c00, 0xc000, 0x7c00, 0x0001};
    float f[4];
    cvm_convert_array(CVM_SK_F32, f, CVM_SK_F16, h, 4, 0);
    assert_true(f[0] == 1.0f && f[1] == -2.0f && isinf(f[2]) && f[3] == ldexpf(1.0f, -24));
    uint16_t back[4];
    cvm_convert_array(CVM_SK_F16, back, CVM_SK_F32, f, 4, 0);
    assert_memory_equal(back, h, sizeof h);
    int8_t s[4] = {-1, 127, -128, 5};
    int32_t wide[4];
    cvm_convert_array(CVM_SK_S32, wide, CVM_SK_S8, s, 4, 0);
    assert_int_equal(wide[0], -1);
    assert_int_equal(wide[2], -128);
    uint32_t uw[4];
    cvm_convert_array(CVM_SK_U32, uw, CVM_SK_U8, s, 4, 0); /* unsigned source zero-extends */
    assert_int_equal(uw[0], 255);
    assert_int_equal(uw[2], 128);
    uint8_t e[4];
    float big[4] = {500.0f, -0.0f, 0.3f, NAN};
    cvm_convert_array(CVM_SK_E4M3, e, CVM_SK_F32, big, 4, 1);
    assert_int_equal(e[0], 0x7e);
    assert_int_equal(e[1], 0x80);
    assert_int_equal(e[2], ref_encode(&REF_E4M3, (long double)0.3f, 1));
    assert_int_equal(e[3] & 0x7f, 0x7f);
    uint8_t u[4];
    cvm_convert_array(CVM_SK_U8, u, CVM_SK_F32, big, 4, 1);
    assert_int_equal(u[0], 255);
    assert_int_equal(u[1], 0);
    assert_int_equal(u[2], 0);
    assert_int_equal(u[3], 0);
    /* f64 -> bf16 rounds once; f16 -> bf16 exact when in range */
    double d[2] = {1.0 + ldexp(1.0, -8) + ldexp(1.0, -40), 1.0 / 3.0};
    uint16_t bf[2];
    cvm_convert_array(CVM_SK_BF16, bf, CVM_SK_F64, d, 2, 0);
    assert_int_equal(bf[0], 0x3f81);
    assert_int_equal(bf[1], ref_encode(&REF_BF16, (long double)(1.0 / 3.0), 0));
    uint16_t hh = 0x3555; /* 0.333 in f16 */
    cvm_convert_array(CVM_SK_BF16, bf, CVM_SK_F16, &hh, 1, 0);
    assert_int_equal(bf[0], ref_encode(&REF_BF16, (long double)cvm_f16_to_f32(hh), 0));
    int16_t s16[2] = {-300, 300};
    cvm_convert_array(CVM_SK_S8, s, CVM_SK_S16, s16, 2, 1);
    assert_int_equal(s[0], -128);
    assert_int_equal(s[1], 127);
    cvm_convert_array(CVM_SK_S8, s, CVM_SK_S16, s16, 2, 0);
    assert_int_equal(s[0], -300 + 256);
    assert_int_equal(s[1], 300 - 256);
}

/* Bulk conversions (F16C where present) agree with the scalar ones on every
 * f16 pattern and on the f32 set of test_f32_to_f16_vs_f16c, at every
 * length (the vector loop and its tail). */
static void test_bulk_f16(void **state)
{
    (void)state;
    uint16_t *h = malloc(65536 * 2);
    float *f = malloc(65536 * 4);
    for (uint32_t i = 0; i < 65536; i++)
        h[i] = (uint16_t)i;
    for (uint32_t n = 1; n < 20; n++) {
        cvm_f16_to_f32_n(h + 1000 * n, f, n);
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(fbits(f[i]), fbits(cvm_f16_to_f32(h[1000 * n + i])));
    }
    cvm_f16_to_f32_n(h, f, 65536);
    for (uint32_t i = 0; i < 65536; i++)
        if (fbits(f[i]) != fbits(cvm_f16_to_f32((uint16_t)i))) {
            print_error("f16 0x%04x: bulk 0x%08x scalar 0x%08x\n", i, fbits(f[i]),
                        fbits(cvm_f16_to_f32((uint16_t)i)));
            fail();
        }
    static const uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000,
                                    0x2001, 0x0800, 0x17ff, 0x1800, 0x0400, 0xffff};
    float src[13 * 64];
    uint16_t out[13 * 64];
    for (uint32_t hi = 0; hi < 0x10000u; hi += 64) {
        size_t n = 0;
        for (uint32_t k = 0; k < 64; k++)
            for (size_t i = 0; i < sizeof lows / sizeof lows[0]; i++) {
                uint32_t u = ((hi + k) << 16) | lows[i];
                memcpy(&src[n++], &u, 4);
            }
        cvm_f32_to_f16_n(src, out, n - (hi % 7)); /* varying tails */
        for (size_t i = 0; i < n - (hi % 7); i++)
            if (out[i] != cvm_f32_to_f16(src[i])) {
                print_error("f32 0x%08x: bulk 0x%04x scalar 0x%04x\n", fbits(src[i]), out[i],
                            cvm_f32_to_f16(src[i]));
                fail();
            }
    }
    free(h);
    free(f);
}

/* The cooperative-vector input conversion: nearest even, saturating, NaN 0. */
static void test_store_nearest(void **state)
{
    (void)state;
    static const struct {
        double v;
        int s8, u8;
        int32_t s32;
    } cases[] = {
        {2.5, 2, 2, 2},          {3.5, 4, 4, 4},        {-2.5, -2, 0, -2},
        {-0.5, 0, 0, 0},         {0.5000001, 1, 1, 1},  {127.5, 127, 128, 128},
        {-128.5, -128, 0, -128}, {255.5, 127, 255, 256}, {-1e300, -128, 0, INT32_MIN},
        {1e300, 127, 255, INT32_MAX}, {DNAN, 0, 0, 0},  {DINF, 127, 255, INT32_MAX},
        {-DINF, -128, 0, INT32_MIN}, {2147483647.5, 127, 255, INT32_MAX},
        {-2147483648.5, -128, 0, INT32_MIN}, {1.4999999999999998, 1, 1, 1},
        {4503599627370497.0, 127, 255, INT32_MAX},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int8_t s8;
        uint8_t u8;
        int32_t s32;
        cvm_store_from_f64_nearest(CVM_SK_S8, &s8, cases[i].v);
        cvm_store_from_f64_nearest(CVM_SK_U8, &u8, cases[i].v);
        cvm_store_from_f64_nearest(CVM_SK_S32, &s32, cases[i].v);
        if (s8 != cases[i].s8 || u8 != cases[i].u8 || s32 != cases[i].s32) {
            print_error("%.17g: s8 %d u8 %u s32 %d\n", cases[i].v, s8, u8, s32);
            fail();
        }
    }
    uint16_t h;
    cvm_store_from_f64_nearest(CVM_SK_F16, &h, 1e6); /* floats: no saturation */
    assert_int_equal(h, 0x7c00);
}

/* cvm_f64_add_round_to_odd against exact integer arithmetic: operands are
 * multiples of 2^-80 below 2^40, so every sum is an exact __int128 in units
 * of 2^-80.  The result is the sum when a double holds it, else an odd
 * neighbour of it; rounding that to f16 and to f32 gives the exact sum
 * rounded once, which the test finds by comparing with the candidates. */
__extension__ typedef __int128 i128;

static i128 scaled(double d) /* d * 2^80, exact for the operands used here */
{
    int e;
    double m = frexp(d, &e); /* d = m * 2^e, |m| in [0.5, 1) */
    i128 q = (i128)(int64_t)ldexp(m, 53);
    int sh = e - 53 + 80;
    return sh >= 0 ? q * ((i128)1 << sh) : q / ((i128)1 << -sh); /* exact: d is a multiple of 2^-80 */
}

static double rand_operand(void)
{
    int e = (int)(rng() % 100) - 75; /* 2^-75 .. 2^24 */
    uint64_t m = rng() >> (11 + (rng() % 40)); /* few or many significant bits */
    double d = ldexp((double)(m | 1), e - 52);
    if (d != 0.0 && fabs(d) < 0x1p-27)
        d = ldexp(floor(ldexp(d, 80)), -80); /* keep multiples of 2^-80 */
    return rng() & 1 ? -d : d;
}

/* GLSL.std.450's min and max rule (cvm_fmin_text, cvm_fmax_text): a NaN
 * operand gives the other operand unchanged, bit for bit; two NaNs the
 * first, quieted.  (The rule once quieted the first operand before looking
 * whether it was the NaN: min(1, NaN) was 1.5.) */
static void test_min_max_nan(void **state)
{
    (void)state;
    const double vals[] = {1.0, -2.5, 0.0, -0.0, 3.0e38, -INFINITY, 0x1p-1074};
    double qnan, snan;
    uint64_t qb = UINT64_C(0x7ff8000000000123), sb = UINT64_C(0xfff0000000000456);
    memcpy(&qnan, &qb, 8);
    memcpy(&snan, &sb, 8);
    const double nans[] = {qnan, snan};
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
        for (size_t k = 0; k < 2; k++) {
            double x = vals[i], n = nans[k], r;
            uint64_t xb, rb;
            memcpy(&xb, &x, 8);
            r = cvm_fmin_text(x, n);
            memcpy(&rb, &r, 8);
            assert_int_equal(rb, xb);
            r = cvm_fmin_text(n, x);
            memcpy(&rb, &r, 8);
            assert_int_equal(rb, xb);
            r = cvm_fmax_text(x, n);
            memcpy(&rb, &r, 8);
            assert_int_equal(rb, xb);
            r = cvm_fmax_text(n, x);
            memcpy(&rb, &r, 8);
            assert_int_equal(rb, xb);
        }
    double r = cvm_fmin_text(snan, qnan);
    uint64_t rb;
    memcpy(&rb, &r, 8);
    assert_int_equal(rb, sb | (UINT64_C(1) << 51));
    r = cvm_fmax_text(qnan, snan);
    memcpy(&rb, &r, 8);
    assert_int_equal(rb, qb);
}

static void test_round_to_odd(void **state)
{
    (void)state;
    for (int it = 0; it < 200000; it++) {
        double a = rand_operand(), b = rand_operand();
        if (it % 3 == 0) /* near f16 midpoints: a sum that needs all its bits */
            b = ldexp(1.0, (int)(rng() % 10) - 30) * (rng() & 1 ? 1 : -1);
        i128 E = scaled(a) + scaled(b);
        double r = cvm_f64_add_round_to_odd(a, b);
        i128 R = scaled(r);
        if (R != E) {
            int e;
            frexp(r, &e);
            i128 ulp = (i128)1 << (e - 53 + 80);
            i128 diff = R > E ? R - E : E - R;
            assert_true(diff < ulp);
            assert_true((dbits(r) & 1) == 1);
        }
        /* one more rounding into f32 and f16 equals the exact rounding */
        float f = (float)r;
        i128 F = scaled((double)f);
        float up = nextafterf(f, INFINITY), dn = nextafterf(f, -INFINITY);
        i128 U = scaled((double)up), D = scaled((double)dn);
        i128 dF = F > E ? F - E : E - F, dU = U > E ? U - E : E - U, dD = D > E ? D - E : E - D;
        assert_true(dF <= dU && dF <= dD);
        if (dF == dU || dF == dD)
            assert_true((fbits(f) & 1) == 0);
        uint16_t h = cvm_f64_to_f16(r);
        float hv = cvm_f16_to_f32(h);
        if (fabsf(hv) < 65504.0f && (h & 0x7fff) != 0) {
            float hu = cvm_f16_to_f32((uint16_t)(h + 1)), hd = cvm_f16_to_f32((uint16_t)(h - 1));
            i128 H = scaled((double)hv), HU = scaled((double)hu), HD = scaled((double)hd);
            i128 dH = H > E ? H - E : E - H, dHU = HU > E ? HU - E : E - HU,
                 dHD = HD > E ? HD - E : E - HD;
            if (!(dH <= dHU && dH <= dHD)) {
                print_error("a %a b %a: f16 0x%04x is not the nearest\n", a, b, h);
                fail();
            }
            if (dH == dHU || dH == dHD)
                assert_true((h & 1) == 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_properties),
        cmocka_unit_test(test_f16_exhaustive),
        cmocka_unit_test(test_bf16_exhaustive),
        cmocka_unit_test(test_fp8_exhaustive),
        cmocka_unit_test(test_f16_encode),
        cmocka_unit_test(test_bf16_encode),
        cmocka_unit_test(test_fp8_encode),
        cmocka_unit_test(test_f64_rounds_once),
        cmocka_unit_test(test_fp8_overflow),
        cmocka_unit_test(test_nan_payload),
        cmocka_unit_test(test_f32_to_f16_vs_f16c),
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_int_to_int),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_convert_array),
        cmocka_unit_test(test_bulk_f16),
        cmocka_unit_test(test_store_nearest),
        cmocka_unit_test(test_round_to_odd),
        cmocka_unit_test(test_min_max_nan),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (size_t i = 0; i < sizeof all_fmts / sizeof all_fmts[0]; i++)
        free(all_fmts[i]->table);
    return rc;
}
