/* MulAdd kernels (exec/kernels/matmul.h): the reference of each numerics
 * against cases worked by hand, and every fast variant the CPU can run (the
 * AVX-512 ones, and the AVX2 ones on the same machine) against the
 * reference, bit for bit, on random inputs of awkward sizes, in the default
 * and the precise mode; the opt-in bf16 pairs against error bounds. */
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

#include "cvm_common.h"
#include "exec/kernels/matmul.h"
#include "exec/kernels/transpose.h"

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static cvm_muladd_desc desc(uint32_t m, uint32_t n, uint32_t k, cvm_scalar_kind ak,
                            cvm_scalar_kind bk, cvm_scalar_kind ck, cvm_scalar_kind rk)
{
    cvm_muladd_desc d;
    memset(&d, 0, sizeof d);
    d.m = m;
    d.n = n;
    d.k = k;
    d.a_kind = ak;
    d.b_kind = bk;
    d.c_kind = ck;
    d.r_kind = rk;
    return d;
}

/* Reference against hand-worked cases ---------------------------------------- */

static void test_ref_hand_f32(void **state)
{
    (void)state;
    /* [1 2 3; 4 5 6] x [7 8; 9 10; 11 12] + [0.5 -1; 2 100]
     * = [58 64; 139 154] + C = [58.5 63; 141 254] */
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12}, c[4] = {0.5f, -1, 2, 100};
    float r[4];
    cvm_muladd_desc d = desc(2, 2, 3, CVM_SK_F32, CVM_SK_F32, CVM_SK_F32, CVM_SK_F32);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    cvm_muladd_reference(&d);
    assert_true(r[0] == 58.5f && r[1] == 63.0f && r[2] == 141.0f && r[3] == 254.0f);
    memset(r, 0, sizeof r);
    cvm_muladd(&d);
    assert_true(r[0] == 58.5f && r[1] == 63.0f && r[2] == 141.0f && r[3] == 254.0f);
}

static void test_ref_hand_int_signedness(void **state)
{
    (void)state;
    /* A's bits 0xff are 255 when A is unsigned, -1 when signed. */
    uint8_t a[2] = {0xff, 2}, b[2] = {3, 0xfe};
    int32_t c[1] = {10}, r[1];
    cvm_muladd_desc d = desc(1, 1, 2, CVM_SK_U8, CVM_SK_U8, CVM_SK_S32, CVM_SK_S32);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    d.c_signed = d.r_signed = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 255 * 3 + 2 * 254 + 10);
    d.a_signed = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], -1 * 3 + 2 * 254 + 10);
    d.b_signed = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], -1 * 3 + 2 * -2 + 10);
    /* The same bits as s8 kinds, read unsigned because the flags say so. */
    d.a_kind = d.b_kind = CVM_SK_S8;
    d.a_signed = d.b_signed = 0;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 255 * 3 + 2 * 254 + 10);
    cvm_muladd(&d);
    assert_int_equal(r[0], 255 * 3 + 2 * 254 + 10);
}

static void test_ref_int_wrap_and_saturate(void **state)
{
    (void)state;
    /* s8 extremes into s16: 4 * (-128 * -128) = 65536 does not fit. */
    int8_t a[4] = {-128, -128, -128, -128}, b[4] = {-128, -128, -128, -128};
    int16_t c[1] = {-5}, r[1];
    cvm_muladd_desc d = desc(1, 1, 4, CVM_SK_S8, CVM_SK_S8, CVM_SK_S16, CVM_SK_S16);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    d.a_signed = d.b_signed = d.c_signed = d.r_signed = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], -5); /* 65531 mod 2^16 = -5 as s16 */
    d.saturate = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 32767);
    cvm_muladd(&d);
    assert_int_equal(r[0], 32767);
    /* Negative side: 4 * (-128 * 127) = -65024. */
    int8_t b2[4] = {127, 127, 127, 127};
    d.b = b2;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], -32768);
    d.saturate = 0;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], (int16_t)(uint16_t)(uint32_t)(-65024 - 5));
    /* The saturation is on the accumulation with C: products in range
     * (2 * 127 * 127 = 32258), + C = 1000 overflows. */
    int8_t a3[2] = {127, 127}, b3[2] = {127, 127};
    int16_t c3[1] = {1000};
    d = desc(1, 1, 2, CVM_SK_S8, CVM_SK_S8, CVM_SK_S16, CVM_SK_S16);
    d.a = a3;
    d.b = b3;
    d.c = c3;
    d.r = r;
    d.a_signed = d.b_signed = d.c_signed = d.r_signed = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 33258 - 65536);
    d.saturate = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 32767);
    /* Unsigned result saturation: 255*255*2 = 130050 into u16. */
    uint8_t ua[2] = {255, 255}, ub[2] = {255, 255};
    uint16_t uc[1] = {0}, ur[1];
    d = desc(1, 1, 2, CVM_SK_U8, CVM_SK_U8, CVM_SK_U16, CVM_SK_U16);
    d.a = ua;
    d.b = ub;
    d.c = uc;
    d.r = ur;
    cvm_muladd_reference(&d);
    assert_int_equal(ur[0], 130050 - 65536);
    d.saturate = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(ur[0], 65535);
    /* With r_signed the same s16 bits saturate to the signed range, and a
     * negative sum into an unsigned-saturating result clamps to 0. */
    d.r_kind = d.c_kind = CVM_SK_S16;
    d.r_signed = 1;
    cvm_muladd_reference(&d);
    assert_int_equal((int16_t)ur[0], 32767);
    int8_t na[1] = {-3}, nb[1] = {5};
    uint32_t nc[1] = {7}, nr[1];
    d = desc(1, 1, 1, CVM_SK_S8, CVM_SK_S8, CVM_SK_U32, CVM_SK_U32);
    d.a = na;
    d.b = nb;
    d.c = nc;
    d.r = nr;
    d.a_signed = d.b_signed = 1;
    d.saturate = 1;
    cvm_muladd_reference(&d);
    assert_int_equal(nr[0], 0); /* -15 + 7 = -8 clamps to 0 */
    d.saturate = 0;
    cvm_muladd_reference(&d);
    assert_int_equal(nr[0], (uint32_t)-8);
    /* 64-bit: wraps modulo 2^64; saturates to INT64_MAX. */
    int64_t la[2] = {INT64_MAX, 2}, lb[2] = {2, 3}, lc[1] = {1}, lr[1];
    d = desc(1, 1, 2, CVM_SK_S64, CVM_SK_S64, CVM_SK_S64, CVM_SK_S64);
    d.a = la;
    d.b = lb;
    d.c = lc;
    d.r = lr;
    d.a_signed = d.b_signed = d.c_signed = d.r_signed = 1;
    cvm_muladd_reference(&d);
    assert_true(lr[0] == (int64_t)((uint64_t)INT64_MAX * 2u + 6u + 1u));
    d.saturate = 1;
    cvm_muladd_reference(&d);
    assert_true(lr[0] == INT64_MAX);
}

/* Precise mode: f16 products summed and rounded once: 1 + 2^-11 + 2^-40 is
 * above the f16 tie 1 + 2^-11 and must round up to 0x3c01.  The default
 * f32 accumulator loses the 2^-40 (1 + 2^-11 + 2^-40 needs 41 bits), then
 * the tie rounds to even, 0x3c00. */
static void test_ref_float_rounds_once(void **state)
{
    (void)state;
    uint16_t a[2] = {cvm_f32_to_f16(ldexpf(1.0f, -6)), cvm_f32_to_f16(ldexpf(1.0f, -20))};
    uint16_t b[2] = {cvm_f32_to_f16(ldexpf(1.0f, -5)), cvm_f32_to_f16(ldexpf(1.0f, -20))};
    uint16_t c[1] = {0x3c00}, r[1];
    cvm_muladd_desc d = desc(1, 1, 2, CVM_SK_F16, CVM_SK_F16, CVM_SK_F16, CVM_SK_F16);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    d.mode = CVM_MULADD_PRECISE;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 0x3c01);
    r[0] = 0;
    cvm_muladd(&d);
    assert_int_equal(r[0], 0x3c01);
    d.mode = CVM_MULADD_F32;
    cvm_muladd_reference(&d);
    assert_int_equal(r[0], 0x3c00);
    r[0] = 0;
    cvm_muladd(&d);
    assert_int_equal(r[0], 0x3c00);
}

/* Default mode: f32 accumulation in order of k.  1 + 2^-24 + 2^-24: each
 * addition is a tie that rounds to even (1.0), where a double sum gives
 * 1 + 2^-23; summed the other way round (2^-24 + 2^-24 first) the f32
 * result would also be 1 + 2^-23, so the order is visible.  Then C =
 * 2^-24 with products 1, 2^-24, 2^-24: each f32 step is a tie again (1.0);
 * the double sum 1 + 3 * 2^-24 is itself a tie between 1 + 2^-23 and
 * 1 + 2^-22 and rounds to the even one, 1 + 2^-22. */
static void test_ref_f32_order_of_k(void **state)
{
    (void)state;
    uint16_t a[3] = {cvm_f32_to_f16(ldexpf(1.0f, -12)), cvm_f32_to_f16(ldexpf(1.0f, -12)),
                     cvm_f32_to_f16(1.0f)};
    uint16_t b[3] = {cvm_f32_to_f16(ldexpf(1.0f, -12)), cvm_f32_to_f16(ldexpf(1.0f, -12)),
                     cvm_f32_to_f16(0.0f)};
    float c[1] = {1.0f}, r[1];
    cvm_muladd_desc d = desc(1, 1, 3, CVM_SK_F16, CVM_SK_F16, CVM_SK_F32, CVM_SK_F32);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), fbits(1.0f));
    r[0] = 0;
    cvm_muladd(&d);
    assert_int_equal(fbits(r[0]), fbits(1.0f));
    d.mode = CVM_MULADD_PRECISE;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), fbits(1.0f + ldexpf(1.0f, -23)));
    /* C = 2^-24, A = (1, 2^-12, 2^-12), B = (1, 2^-12, 2^-12): 2^-24 + 1 is
     * a tie (1.0), then twice + 2^-24 (ties again): 1.0. */
    uint16_t a2[3] = {cvm_f32_to_f16(1.0f), a[0], a[1]};
    uint16_t b2[3] = {cvm_f32_to_f16(1.0f), b[0], b[1]};
    float c2[1] = {ldexpf(1.0f, -24)};
    d.a = a2;
    d.b = b2;
    d.c = c2;
    d.mode = CVM_MULADD_F32;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), fbits(1.0f));
    d.mode = CVM_MULADD_PRECISE;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), fbits(1.0f + ldexpf(1.0f, -22)));
    r[0] = 0;
    cvm_muladd(&d);
    assert_int_equal(fbits(r[0]), fbits(1.0f + ldexpf(1.0f, -22)));
}

/* Default mode: each product is exact and added with one rounding (an FMA),
 * even where the product is not exact in f32 (bf16 extremes).  a = (1 +
 * 2^-7) * 2^-75, b = (1 - 2^-8) * 2^-74: a*b = 2^-149 + e with e = 2^-157 -
 * 2^-164, below f32's smallest normal.  c = 2^-125, whose f32 step is
 * 2^-148.  Fused: c + 2^-149 + e is above the tie, so 2^-125 + 2^-148.
 * Product rounded first (to 2^-149, the subnormal grid), then added: the
 * tie 2^-125 + 2^-149 rounds to even, 2^-125. */
static void test_ref_f32_fused(void **state)
{
    (void)state;
    uint16_t a[1] = {cvm_f32_to_bf16(ldexpf(1.0f + ldexpf(1.0f, -7), -75))};
    uint16_t b[1] = {cvm_f32_to_bf16(ldexpf(1.0f - ldexpf(1.0f, -8), -74))};
    assert_true(cvm_bf16_to_f32(a[0]) == ldexpf(1.0f + ldexpf(1.0f, -7), -75));
    assert_true(cvm_bf16_to_f32(b[0]) == ldexpf(1.0f - ldexpf(1.0f, -8), -74));
    float c[1] = {ldexpf(1.0f, -125)}, r[1];
    const float fused = ldexpf(1.0f, -125) + ldexpf(1.0f, -148);
    volatile float pa = cvm_bf16_to_f32(a[0]), pb = cvm_bf16_to_f32(b[0]);
    volatile float prod = pa * pb;
    volatile float unfused = c[0] + prod;
    assert_true(unfused == ldexpf(1.0f, -125)); /* the test can tell the two apart */
    cvm_muladd_desc d = desc(1, 1, 1, CVM_SK_BF16, CVM_SK_BF16, CVM_SK_F32, CVM_SK_F32);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), fbits(fused));
    r[0] = 0;
    cvm_muladd(&d);
    assert_int_equal(fbits(r[0]), fbits(fused));
}

static void test_ref_float_specials(void **state)
{
    (void)state;
    /* -0 + (+0 * 1) = +0; with K = 0 C passes through: -0. */
    float a[1] = {0.0f}, b[1] = {1.0f}, c[1] = {-0.0f}, r[1];
    cvm_muladd_desc d = desc(1, 1, 1, CVM_SK_F32, CVM_SK_F32, CVM_SK_F32, CVM_SK_F32);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), 0x00000000u);
    d.k = 0;
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), 0x80000000u);
    /* inf * 0 is NaN, and a NaN result is the canonical one. */
    d.k = 1;
    a[0] = INFINITY;
    b[0] = 0.0f;
    c[0] = bitsf(0xffc12345u);
    cvm_muladd_reference(&d);
    assert_int_equal(fbits(r[0]), 0x7fc00000u);
    uint16_t hr[1];
    d.r_kind = CVM_SK_F16;
    d.r = hr;
    cvm_muladd_reference(&d);
    assert_int_equal(hr[0], 0x7e00);
    /* Overflow of an f16 result is infinity. */
    a[0] = 300.0f;
    b[0] = 300.0f;
    c[0] = 0.0f;
    cvm_muladd_reference(&d);
    assert_int_equal(hr[0], 0x7c00);
}

/* R may alias C, including when R's elements are wider than C's. */
static void test_alias_r_c(void **state)
{
    (void)state;
    enum { M = 5, N = 7, K = 9 };
    uint16_t a[M * K], b[K * N];
    for (int i = 0; i < M * K; i++)
        a[i] = cvm_f32_to_f16((float)(i % 7) - 3.0f);
    for (int i = 0; i < K * N; i++)
        b[i] = cvm_f32_to_f16((float)(i % 5) * 0.25f);
    float c[M * N], want[M * N];
    uint16_t ch[M * N];
    for (int i = 0; i < M * N; i++) {
        c[i] = (float)i * 0.5f;
        ch[i] = cvm_f32_to_f16(c[i]);
    }
    cvm_muladd_desc d = desc(M, N, K, CVM_SK_F16, CVM_SK_F16, CVM_SK_F32, CVM_SK_F32);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = want;
    cvm_muladd_reference(&d);
    float buf[M * N];
    memcpy(buf, c, sizeof c);
    d.c = d.r = buf;
    cvm_muladd_reference(&d);
    assert_memory_equal(buf, want, sizeof want);
    memcpy(buf, c, sizeof c);
    cvm_muladd(&d);
    assert_memory_equal(buf, want, sizeof want);
    /* f16 C, f32 R in the same storage (R wider). */
    float both[M * N];
    memcpy(both, ch, sizeof ch);
    d.c_kind = CVM_SK_F16;
    d.c = d.r = both;
    cvm_muladd_reference(&d);
    assert_memory_equal(both, want, sizeof want);
    memcpy(both, ch, sizeof ch);
    cvm_muladd(&d);
    assert_memory_equal(both, want, sizeof want);

    /* 8-bit integers with 32-bit C and R in whole tiles (the VNNI variant
     * then starts R from C), every pair of signednesses */
    enum { IM = 16, IN = 32, IK = 40 };
    static uint8_t ia[IM * IK], ib[IK * IN];
    static int32_t ic[IM * IN], iwant[IM * IN], ibuf[IM * IN];
    for (int i = 0; i < IM * IK; i++)
        ia[i] = (uint8_t)(i * 37 + 11);
    for (int i = 0; i < IK * IN; i++)
        ib[i] = (uint8_t)(i * 53 + 7);
    for (int i = 0; i < IM * IN; i++)
        ic[i] = (int32_t)((uint32_t)i * 2654435761u);
    for (int sa = 0; sa < 2; sa++)
        for (int sb = 0; sb < 2; sb++) {
            cvm_muladd_desc e = desc(IM, IN, IK, sa ? CVM_SK_S8 : CVM_SK_U8,
                                     sb ? CVM_SK_S8 : CVM_SK_U8, CVM_SK_S32, CVM_SK_S32);
            e.a_signed = sa;
            e.b_signed = sb;
            e.c_signed = e.r_signed = 1;
            e.a = ia;
            e.b = ib;
            e.c = ic;
            e.r = iwant;
            cvm_muladd_reference(&e);
            memcpy(ibuf, ic, sizeof ic);
            e.c = e.r = ibuf;
            cvm_muladd(&e);
            assert_memory_equal(ibuf, iwant, sizeof iwant);
        }
}

/* Fast variants against the reference ---------------------------------------- */

static void fill_random(cvm_scalar_kind k, void *p, size_t count, uint32_t kdim)
{
    uint8_t *q = p;
    size_t sz = cvm_sk_size(k);
    for (size_t i = 0; i < count; i++) {
        uint64_t r = rng();
        /* About one special value (inf, NaN, zero, subnormal) per 2K. */
        int special = cvm_sk_is_float(k) && (r >> 40) % (2 * (uint64_t)kdim + 1) == 0;
        if (special || !cvm_sk_is_float(k)) {
            memcpy(q + i * sz, &r, sz);
            continue;
        }
        /* A finite value spread over a wide range of magnitudes, so that
         * products of very different sizes meet in one sum. */
        double m = 1.0 + ldexp((double)(r & 0xfffffffu), -28);
        int e = (int)((r >> 28) % 24) - 12;
        double v = ldexp(m, e);
        if ((r >> 60) & 1)
            v = -v;
        cvm_store_from_f64(k, q + i * sz, v, 1);
    }
}

/* The family of variant a combination takes in the default mode: "f32"
 * (avx512_f32 / avx2_f32), "f64" (avx2_f64 in every mode), "i8"
 * (avx512_vnni_i8 / avx2_i8) or "ref" (none). */
typedef struct combo {
    cvm_scalar_kind a, b, c, r;
    int as, bs, cs, rs, sat;
    const char *family;
} combo;

static const combo combos[] = {
    {CVM_SK_F16, CVM_SK_F16, CVM_SK_F32, CVM_SK_F32, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_F16, CVM_SK_F16, CVM_SK_F16, CVM_SK_F16, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_F16, CVM_SK_F16, CVM_SK_F32, CVM_SK_F16, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_F16, CVM_SK_F16, CVM_SK_F16, CVM_SK_F32, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_F32, CVM_SK_F32, CVM_SK_F32, CVM_SK_F32, 0, 0, 0, 0, 0, "f64"},
    {CVM_SK_BF16, CVM_SK_BF16, CVM_SK_F32, CVM_SK_F32, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_BF16, CVM_SK_BF16, CVM_SK_BF16, CVM_SK_BF16, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_BF16, CVM_SK_F16, CVM_SK_F32, CVM_SK_BF16, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_E4M3, CVM_SK_E5M2, CVM_SK_F16, CVM_SK_F16, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_E4M3, CVM_SK_E4M3, CVM_SK_F32, CVM_SK_E4M3, 0, 0, 0, 0, 1, "f32"},
    {CVM_SK_E5M2, CVM_SK_E5M2, CVM_SK_E5M2, CVM_SK_E5M2, 0, 0, 0, 0, 0, "f32"},
    {CVM_SK_F32, CVM_SK_F16, CVM_SK_F64, CVM_SK_F64, 0, 0, 0, 0, 0, "f64"},
    {CVM_SK_F16, CVM_SK_F16, CVM_SK_F64, CVM_SK_F32, 0, 0, 0, 0, 0, "f64"},
    {CVM_SK_F16, CVM_SK_F16, CVM_SK_F32, CVM_SK_F64, 0, 0, 0, 0, 0, "f64"},
    {CVM_SK_S8, CVM_SK_S8, CVM_SK_S32, CVM_SK_S32, 1, 1, 1, 1, 0, "i8"},
    {CVM_SK_S8, CVM_SK_S8, CVM_SK_S32, CVM_SK_S32, 1, 1, 1, 1, 1, "i8"},
    {CVM_SK_U8, CVM_SK_U8, CVM_SK_U32, CVM_SK_U32, 0, 0, 0, 0, 0, "i8"},
    {CVM_SK_U8, CVM_SK_U8, CVM_SK_U32, CVM_SK_U32, 0, 0, 0, 0, 1, "i8"},
    {CVM_SK_U8, CVM_SK_S8, CVM_SK_S32, CVM_SK_S32, 0, 1, 1, 1, 1, "i8"},
    {CVM_SK_S8, CVM_SK_U8, CVM_SK_S32, CVM_SK_S32, 1, 0, 1, 1, 1, "i8"},
    {CVM_SK_S8, CVM_SK_S8, CVM_SK_S32, CVM_SK_S32, 0, 1, 1, 0, 1, "i8"},
    {CVM_SK_S8, CVM_SK_S8, CVM_SK_S16, CVM_SK_S16, 1, 1, 1, 1, 0, "i8"},
    {CVM_SK_S8, CVM_SK_S8, CVM_SK_S16, CVM_SK_S16, 1, 1, 1, 1, 1, "i8"},
    {CVM_SK_U8, CVM_SK_U8, CVM_SK_U16, CVM_SK_S8, 0, 0, 0, 1, 1, "i8"},
    {CVM_SK_S8, CVM_SK_U8, CVM_SK_S64, CVM_SK_S64, 1, 0, 1, 1, 0, "i8"},
    {CVM_SK_U8, CVM_SK_S8, CVM_SK_S8, CVM_SK_S32, 0, 1, 1, 1, 1, "i8"},
    /* Not accelerated: the dispatcher must pick the reference. */
    {CVM_SK_F64, CVM_SK_F64, CVM_SK_F64, CVM_SK_F64, 0, 0, 0, 0, 0, "ref"},
    {CVM_SK_S16, CVM_SK_S16, CVM_SK_S32, CVM_SK_S32, 1, 1, 1, 1, 0, "ref"},
};

static const uint32_t sizes[][3] = {
    {1, 1, 1},    {7, 5, 3},    {16, 16, 16}, {33, 17, 65}, {4, 8, 1},    {64, 64, 64},
    {5, 37, 300}, {3, 9, 1000}, {17, 70, 2},  {16, 16, 0},  {2, 130, 513}, {40, 3, 257},
    {64, 64, 32}, {9, 48, 31},  {8, 32, 5},   {24, 33, 7},
    /* one 16-column panel in 16-row blocks (the narrow-B path) */
    {32, 16, 16}, {48, 16, 37},
};

/* The instruction-set levels to run: everything the CPU has, then AVX2
 * only (the fallback, tested on AVX-512 machines too), then none. */
static const unsigned isa_levels[] = {~0u, CVM_MM_ISA_AVX2, 0};

static const char *expected_variant(const combo *cb, cvm_muladd_mode mode, unsigned isa)
{
    isa &= cvm_muladd_cpu_isa();
    int avx2 = (isa & CVM_MM_ISA_AVX2) != 0, avx512 = (isa & CVM_MM_ISA_AVX512) != 0;
    const char *f = cb->family;
    if (!strcmp(f, "f32") && mode == CVM_MULADD_PRECISE)
        f = "f64";
    if (!strcmp(f, "f32"))
        return avx512 ? "avx512_f32" : avx2 ? "avx2_f32" : "reference";
    if (!strcmp(f, "f64"))
        return avx2 ? "avx2_f64" : "reference";
    if (!strcmp(f, "i8"))
        return avx512 && (isa & CVM_MM_ISA_AVX512_VNNI) ? "avx512_vnni_i8"
               : avx2                                   ? "avx2_i8"
                                                        : "reference";
    return "reference";
}

/* Runs `cb` at size `sz` in `mode` at ISA level `isa`, against the
 * reference; with `work`, in caller memory. */
static void run_combo_size(const combo *cb, const uint32_t *sz, cvm_muladd_mode mode,
                           unsigned isa, int fail_alloc)
{
    uint32_t m = sz[0], n = sz[1], k = sz[2];
    cvm_muladd_desc d = desc(m, n, k, cb->a, cb->b, cb->c, cb->r);
    d.a_signed = cb->as;
    d.b_signed = cb->bs;
    d.c_signed = cb->cs;
    d.r_signed = cb->rs;
    d.saturate = cb->sat;
    d.mode = mode;
    size_t rbytes = (size_t)m * n * cvm_sk_size(cb->r);
    void *a = malloc((size_t)m * k * cvm_sk_size(cb->a) + 1);
    void *b = malloc((size_t)k * n * cvm_sk_size(cb->b) + 1);
    void *c = malloc((size_t)m * n * cvm_sk_size(cb->c) + 1);
    uint8_t *r1 = malloc(rbytes + 1), *r2 = malloc(rbytes + 1);
    fill_random(cb->a, a, (size_t)m * k, k);
    fill_random(cb->b, b, (size_t)k * n, k);
    fill_random(cb->c, c, (size_t)m * n, k);
    memset(r1, 0xa5, rbytes);
    memset(r2, 0x5a, rbytes);
    d.a = a;
    d.b = b;
    d.c = c;
    d.r = r1;
    cvm_muladd_reference(&d);
    d.r = r2;
    if (m > 0 && n > 0)
        assert_string_equal(cvm_muladd_variant_isa(&d, isa), expected_variant(cb, mode, isa));
    if (fail_alloc)
        cvm_test_fail_allocation_after(1);
    cvm_muladd_isa(&d, isa);
    cvm_test_fail_allocation_after(0);
    for (size_t i = 0; i < rbytes; i++) {
        if (r1[i] != r2[i]) {
            size_t e = i / cvm_sk_size(cb->r);
            print_error("%s x %s + %s -> %s (signed %d%d%d%d sat %d) %ux%ux%u mode %d, %s: "
                        "element %zu (row %zu col %zu) differs\n",
                        cvm_sk_name(cb->a), cvm_sk_name(cb->b), cvm_sk_name(cb->c),
                        cvm_sk_name(cb->r), cb->as, cb->bs, cb->cs, cb->rs, cb->sat, m, n, k,
                        (int)mode, cvm_muladd_variant_isa(&d, isa), e, e / n, e % n);
            fail();
        }
    }
    free(a);
    free(b);
    free(c);
    free(r1);
    free(r2);
}

static void test_fast_vs_reference(void **state)
{
    (void)state;
    for (size_t li = 0; li < sizeof isa_levels / sizeof isa_levels[0]; li++)
        for (int mode = CVM_MULADD_F32; mode <= CVM_MULADD_PRECISE; mode++)
            for (size_t ci = 0; ci < sizeof combos / sizeof combos[0]; ci++)
                for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                    run_combo_size(&combos[ci], sizes[si], (cvm_muladd_mode)mode, isa_levels[li],
                                   0);
}

/* bf16 operands over their whole exponent range (products that overflow or
 * underflow f32, subnormals), where only a fused multiply-add in every
 * variant gives the reference's bits. */
static void test_fast_bf16_extremes(void **state)
{
    (void)state;
    enum { M = 13, N = 35, K = 40 };
    static uint16_t a[M * K], b[K * N];
    static float c[M * N], r1[M * N], r2[M * N];
    for (int rep = 0; rep < 20; rep++) {
        for (int i = 0; i < M * K; i++)
            a[i] = (uint16_t)rng();
        for (int i = 0; i < K * N; i++)
            b[i] = (uint16_t)((rng() & 0x807f) | (uint16_t)((rng() % 254 + 1) << 7));
        for (int i = 0; i < M * N; i++)
            c[i] = bitsf((uint32_t)rng());
        cvm_muladd_desc d = desc(M, N, K, CVM_SK_BF16, CVM_SK_BF16, CVM_SK_F32, CVM_SK_F32);
        d.a = a;
        d.b = b;
        d.c = c;
        d.r = r1;
        cvm_muladd_reference(&d);
        d.r = r2;
        for (size_t li = 0; li < 2; li++) {
            memset(r2, 0, sizeof r2);
            cvm_muladd_isa(&d, isa_levels[li]);
            assert_memory_equal(r1, r2, sizeof r1);
        }
    }
}

/* A (m x k) and B (k x n) of 16-bit random bits, C (m x n) of f32 random
 * bits: NaNs with payloads, infinities and subnormals among them. */
static void random_bits_operands(uint16_t *a, uint16_t *b, float *c, uint32_t m, uint32_t n,
                                 uint32_t k)
{
    for (size_t i = 0; i < (size_t)m * k; i++)
        a[i] = (uint16_t)rng();
    for (size_t i = 0; i < (size_t)k * n; i++)
        b[i] = (uint16_t)rng();
    for (size_t i = 0; i < (size_t)m * n; i++)
        c[i] = bitsf((uint32_t)rng());
}

/* The 16-column panel path (16 x 16 register tiles reading f16/bf16 B
 * rows directly, NaNs made canonical as it stores) on operands of random
 * bits: NaNs with payloads, infinities, subnormals, in A, B and C, for f32
 * and f16 results, against the reference bit for bit. */
static void test_fast_narrow_b_specials(void **state)
{
    (void)state;
    static const uint32_t shapes[][3] = {{16, 16, 16}, {32, 16, 7}, {16, 16, 33}};
    static const cvm_scalar_kind bk[] = {CVM_SK_F16, CVM_SK_BF16};
    static uint16_t a[32 * 33], b[33 * 16], h1[32 * 16], h2[32 * 16];
    static float c[32 * 16], f1[32 * 16], f2[32 * 16];
    for (int rep = 0; rep < 40; rep++) {
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            uint32_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
            random_bits_operands(a, b, c, m, n, k);
            for (int kind = 0; kind < 4; kind++) {
                cvm_scalar_kind ak = bk[kind & 1], rk = kind & 2 ? CVM_SK_F16 : CVM_SK_F32;
                cvm_muladd_desc d = desc(m, n, k, ak, ak, CVM_SK_F32, rk);
                d.a = a;
                d.b = b;
                d.c = c;
                d.r = rk == CVM_SK_F16 ? (void *)h1 : (void *)f1;
                cvm_muladd_reference(&d);
                d.r = rk == CVM_SK_F16 ? (void *)h2 : (void *)f2;
                for (size_t li = 0; li < sizeof isa_levels / sizeof isa_levels[0]; li++) {
                    memset(h2, 0, sizeof h2);
                    memset(f2, 0, sizeof f2);
                    cvm_muladd_isa(&d, isa_levels[li]);
                    if (rk == CVM_SK_F16)
                        assert_memory_equal(h1, h2, (size_t)m * n * 2);
                    else
                        assert_memory_equal(f1, f2, (size_t)m * n * 4);
                }
            }
        }
    }
}

/* The f32 C and R path in whole tiles (R itself the accumulator, the 8 x 32
 * and 8 x 16 kernels storing NaNs canonical, no pass over R afterwards) on
 * operands of random bits: NaNs with payloads in A, B and C, and C's NaNs
 * through K = 0, in 32-column panels, a last 16-column panel and both; R
 * apart from C and R on C (in place), against the reference bit for bit. */
static void test_fast_direct_f32_specials(void **state)
{
    (void)state;
    static const uint32_t shapes[][3] = {{64, 64, 32}, {8, 16, 5}, {16, 48, 9}, {24, 32, 0}};
    static const cvm_scalar_kind ak[] = {CVM_SK_F16, CVM_SK_BF16};
    static uint16_t a[64 * 32], b[32 * 64];
    static float c[64 * 64], r1[64 * 64], r2[64 * 64];
    for (int rep = 0; rep < 20; rep++) {
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            uint32_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
            random_bits_operands(a, b, c, m, n, k);
            for (int kind = 0; kind < 4; kind++) {
                cvm_muladd_desc d = desc(m, n, k, ak[kind & 1], ak[kind & 1], CVM_SK_F32,
                                         CVM_SK_F32);
                d.a = a;
                d.b = b;
                d.c = c;
                d.r = r1;
                cvm_muladd_reference(&d);
                for (size_t li = 0; li < sizeof isa_levels / sizeof isa_levels[0]; li++) {
                    if (kind & 2) { /* in place: R is C */
                        memcpy(r2, c, (size_t)m * n * 4);
                        d.c = r2;
                    } else {
                        memset(r2, 0, sizeof r2);
                    }
                    d.r = r2;
                    cvm_muladd_isa(&d, isa_levels[li]);
                    d.c = c;
                    assert_memory_equal(r1, r2, (size_t)m * n * 4);
                }
            }
        }
    }
}

/* With caller memory of cvm_muladd_work_size bytes a fast variant
 * allocates nothing: the one allocation the test allows afterwards must
 * still succeed. */
static void test_fast_uses_caller_memory(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof combos / sizeof combos[0]; ci++) {
        const combo *cb = &combos[ci];
        enum { M = 33, N = 40, K = 70 };
        static uint8_t a[M * K * 8], b[K * N * 8], c[M * N * 8], r1[M * N * 8], r2[M * N * 8];
        fill_random(cb->a, a, M * K, K);
        fill_random(cb->b, b, K * N, K);
        fill_random(cb->c, c, M * N, K);
        cvm_muladd_desc d = desc(M, N, K, cb->a, cb->b, cb->c, cb->r);
        d.a_signed = cb->as;
        d.b_signed = cb->bs;
        d.c_signed = cb->cs;
        d.r_signed = cb->rs;
        d.saturate = cb->sat;
        d.a = a;
        d.b = b;
        d.c = c;
        d.r = r1;
        cvm_muladd_reference(&d);
        size_t need = cvm_muladd_work_size(&d);
        if (strcmp(cvm_muladd_variant(&d), "reference") != 0)
            assert_true(need > 0);
        void *work = malloc(need + 1);
        d.work = work;
        d.work_size = need;
        d.r = r2;
        cvm_test_fail_allocation_after(2); /* the first succeeds, later ones fail */
        cvm_muladd(&d);
        void *probe = cvm_malloc(1);
        cvm_test_fail_allocation_after(0);
        assert_non_null(probe);
        cvm_mem_free(probe);
        assert_memory_equal(r1, r2, (size_t)M * N * cvm_sk_size(cb->r));
        free(work);
    }
}

/* BF16 pairs (opt-in, AVX512_BF16 only): no portable reference, so
 *  - where no rounding can happen (small integers, sums far below 2^24) it
 *    must equal the reference exactly, for odd and even K;
 *  - on random normal values (exponents -12..12: no subnormal product) its
 *    error against the precise reference stays within the bound of f32
 *    accumulation, (K/2 + 2) * 2 * 2^-24 * (|c| + sum |a*b|), plus half an
 *    ulp of R.  A pairing or order mistake breaks these by far. */
static void test_bf16_pairs(void **state)
{
    (void)state;
    enum { M = 19, N = 45, K = 67 };
    static uint16_t a[M * K], b[K * N], c16[M * N];
    static float c[M * N], r1[M * N], r2[M * N];
    cvm_muladd_desc d = desc(M, N, K, CVM_SK_BF16, CVM_SK_BF16, CVM_SK_F32, CVM_SK_F32);
    d.mode = CVM_MULADD_BF16_PAIRS;
    int have = (cvm_muladd_cpu_isa() & CVM_MM_ISA_AVX512) &&
               (cvm_muladd_cpu_isa() & CVM_MM_ISA_AVX512_BF16);
    d.mode = CVM_MULADD_F32;
    const char *def = cvm_muladd_variant(&d);
    d.mode = CVM_MULADD_BF16_PAIRS;
    /* Without the instruction the mode is the default's variant. */
    assert_string_equal(cvm_muladd_variant(&d), have ? "avx512_bf16_pairs" : def);
    /* Other kinds in this mode: the default. */
    d.b_kind = CVM_SK_F16;
    assert_string_equal(cvm_muladd_variant(&d), def);
    d.b_kind = CVM_SK_BF16;
    for (uint32_t kk = K - 1; kk <= K; kk++) {
        d.k = kk;
        for (int i = 0; i < M * K; i++)
            a[i] = cvm_f32_to_bf16((float)((int)(rng() % 15) - 7));
        for (int i = 0; i < K * N; i++)
            b[i] = cvm_f32_to_bf16((float)((int)(rng() % 15) - 7));
        for (int i = 0; i < M * N; i++)
            c[i] = (float)((int)(rng() % 2001) - 1000);
        d.a = a;
        d.b = b;
        d.c = c;
        d.r = r1;
        cvm_muladd_reference(&d);
        d.r = r2;
        cvm_muladd(&d);
        assert_memory_equal(r1, r2, sizeof r1);
    }
    for (int rk = 0; rk < 2; rk++) {
        d.k = K;
        d.r_kind = rk ? CVM_SK_BF16 : CVM_SK_F32;
        d.c_kind = rk ? CVM_SK_BF16 : CVM_SK_F32;
        fill_random(CVM_SK_BF16, a, M * K, 1000000);
        fill_random(CVM_SK_BF16, b, K * N, 1000000);
        fill_random(CVM_SK_F32, c, M * N, 1000000);
        for (int i = 0; i < M * N; i++)
            c16[i] = cvm_f32_to_bf16(c[i]);
        d.a = a;
        d.b = b;
        d.c = rk ? (void *)c16 : (void *)c;
        static double exact[M * N];
        cvm_muladd_desc p = d;
        p.mode = CVM_MULADD_PRECISE;
        p.r_kind = CVM_SK_F64;
        p.r = exact;
        cvm_muladd_reference(&p);
        d.r = r2;
        cvm_muladd(&d);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < N; j++) {
                double mag = fabs(rk ? (double)cvm_bf16_to_f32(c16[i * N + j]) : (double)c[i * N + j]);
                for (int k = 0; k < K; k++)
                    mag += fabs((double)cvm_bf16_to_f32(a[i * K + k]) *
                                (double)cvm_bf16_to_f32(b[k * N + j]));
                double got = rk ? (double)cvm_bf16_to_f32(((uint16_t *)r2)[i * N + j])
                                : (double)r2[i * N + j];
                double bound = (K / 2 + 2) * 2 * ldexp(mag, -24) +
                               fabs(exact[i * N + j]) * (rk ? ldexp(1.0, -8) : 0.0);
                if (fabs(got - exact[i * N + j]) > bound) {
                    print_error("bf16 pairs (%d, %d): got %.9g, exact %.9g, bound %.3g\n", i, j,
                                got, exact[i * N + j], bound);
                    fail();
                }
            }
        }
    }
}

/* Saturation actually reached in the int8 variant: long K of extremes. */
static void test_fast_int8_saturating_long_k(void **state)
{
    (void)state;
    enum { M = 9, N = 20, K = 1024 };
    static int8_t a[M * K], b[K * N];
    int16_t c[M * N], r1[M * N], r2[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = (int8_t)(i % 3 == 0 ? -128 : 127);
    for (int i = 0; i < K * N; i++)
        b[i] = (int8_t)((i / N) % 2 ? -128 : 127 - (i % 5));
    for (int i = 0; i < M * N; i++)
        c[i] = (int16_t)(i * 997);
    for (int sat = 0; sat <= 1; sat++) {
        cvm_muladd_desc d = desc(M, N, K, CVM_SK_S8, CVM_SK_S8, CVM_SK_S16, CVM_SK_S16);
        d.a_signed = d.b_signed = d.c_signed = d.r_signed = 1;
        d.saturate = sat;
        d.a = a;
        d.b = b;
        d.c = c;
        d.r = r1;
        cvm_muladd_reference(&d);
        d.r = r2;
        for (size_t li = 0; li < sizeof isa_levels / sizeof isa_levels[0]; li++) {
            memset(r2, 0, sizeof r2);
            cvm_muladd_isa(&d, isa_levels[li]);
            assert_memory_equal(r1, r2, sizeof r1);
        }
    }
    /* At least one saturated element in the saturating run. */
    int clamped = 0;
    for (int i = 0; i < M * N; i++)
        clamped += r2[i] == 32767 || r2[i] == -32768;
    assert_true(clamped > 0);
}

/* The float variant's vector result rounding (f32 and f16 four at a time)
 * against the reference's scalar rounding: K = 0 passes a double C straight
 * to the rounding, so C holds the hard cases: f16 ties and the doubles just
 * beside them (where f64 -> f32 -> f16 would round twice), the f16 overflow
 * and subnormal boundaries, values beyond f32, NaNs and infinities. */
static void test_fast_float_result_rounding(void **state)
{
    (void)state;
    enum { N = 4096 };
    static double c[N];
    static uint16_t a[1], b[1], h1[N], h2[N];
    static float f1[N], f2[N];
    size_t cnt = 0;
    for (int e = -26; e <= 17 && cnt + 8 <= N; e++) {
        for (int t = 0; t < 24 && cnt + 8 <= N; t++) {
            /* a random f16-representable magnitude at exponent e, plus half
             * an f16 ulp: a tie, then its neighbours and an f32-invisible
             * offset */
            uint64_t r = rng();
            int q = e < -14 ? -24 : e - 10; /* f16 quantum exponent */
            double base = ldexp((double)(r & 0x3ff) + (e < -14 ? 0 : 1024), q);
            double tie = base + ldexp(1.0, q - 1);
            double vals[8] = {tie, nextafter(tie, 0.0), nextafter(tie, 1e300),
                              tie + ldexp(tie, -40), tie - ldexp(tie, -40), -tie, base,
                              -(tie + ldexp(tie, -45))};
            for (int v = 0; v < 8; v++)
                c[cnt++] = vals[v];
        }
    }
    double extra[] = {65504.0, 65519.0, 65520.0, 65520.0 - ldexp(1.0, -30), 1e300, -1e300,
                      (double)INFINITY, -(double)INFINITY, (double)NAN, -(double)NAN, 0.0, -0.0,
                      1e-300, -1e-300, 3.4028235677973366e38, 3.4028235677973366e38 * 1.0000001,
                      ldexp(1.0, -25), ldexp(1.0, -25) * (1 + ldexp(1.0, -40)), ldexp(3.0, -26)};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0] && cnt < N; i++)
        c[cnt++] = extra[i];
    while (cnt < N) {
        uint64_t r = rng();
        double v;
        memcpy(&v, &r, 8);
        c[cnt++] = v;
    }
    for (int kind = 0; kind < 2; kind++) {
        cvm_muladd_desc d = desc(64, N / 64, 0, CVM_SK_F16, CVM_SK_F16, CVM_SK_F64,
                                 kind ? CVM_SK_F16 : CVM_SK_F32);
        d.a = a;
        d.b = b;
        d.c = c;
        d.r = kind ? (void *)h1 : (void *)f1;
        cvm_muladd_reference(&d);
        d.r = kind ? (void *)h2 : (void *)f2;
        cvm_muladd(&d);
        if (kind)
            assert_memory_equal(h1, h2, sizeof h1);
        else
            assert_memory_equal(f1, f2, sizeof f1);
    }
}

/* The f32 variants' vector result rounding (f32 accumulator to f32 and
 * f16, sixteen or eight at a time) against the reference's scalar rounding:
 * with K = 0 the accumulator is C, an f32 holding the hard cases: f16 ties
 * and their neighbours, the overflow and subnormal boundaries, NaNs with
 * payloads, infinities, zeros, random bits. */
static void test_fast_f32_result_rounding(void **state)
{
    (void)state;
    enum { N = 4096 };
    static float c[N], f1[N], f2[N];
    static uint16_t a[1], b[1], h1[N], h2[N];
    size_t cnt = 0;
    for (int e = -26; e <= 17 && cnt + 6 <= N; e++) {
        for (int t = 0; t < 24 && cnt + 6 <= N; t++) {
            uint64_t r = rng();
            int q = e < -14 ? -24 : e - 10; /* f16 quantum exponent */
            float base = ldexpf((float)(r & 0x3ff) + (e < -14 ? 0.0f : 1024.0f), q);
            float tie = base + ldexpf(1.0f, q - 1);
            float vals[6] = {tie, nextafterf(tie, 0.0f), nextafterf(tie, 1e30f), -tie, base,
                             -nextafterf(tie, 1e30f)};
            for (int v = 0; v < 6; v++)
                c[cnt++] = vals[v];
        }
    }
    float extra[] = {65504.0f, 65519.0f, 65520.0f, nextafterf(65520.0f, 0.0f), 1e30f, -1e30f,
                     INFINITY, -INFINITY, NAN, -NAN, bitsf(0x7f800001u), bitsf(0xffc00123u),
                     0.0f, -0.0f, ldexpf(1.0f, -25), nextafterf(ldexpf(1.0f, -25), 1.0f),
                     ldexpf(3.0f, -26), bitsf(1u), FLT_MAX};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0] && cnt < N; i++)
        c[cnt++] = extra[i];
    while (cnt < N)
        c[cnt++] = bitsf((uint32_t)rng());
    for (size_t li = 0; li < 2; li++) {
        for (int kind = 0; kind < 2; kind++) {
            cvm_muladd_desc d = desc(64, N / 64, 0, CVM_SK_F16, CVM_SK_F16, CVM_SK_F32,
                                     kind ? CVM_SK_F16 : CVM_SK_F32);
            d.a = a;
            d.b = b;
            d.c = c;
            d.r = kind ? (void *)h1 : (void *)f1;
            cvm_muladd_reference(&d);
            d.r = kind ? (void *)h2 : (void *)f2;
            cvm_muladd_isa(&d, isa_levels[li]);
            if (kind)
                assert_memory_equal(h1, h2, sizeof h1);
            else
                assert_memory_equal(f1, f2, sizeof f1);
        }
    }
}

/* Without memory the fast variants fall back to the reference. */
static void test_fast_out_of_memory(void **state)
{
    (void)state;
    static const uint32_t sz[3] = {33, 17, 65};
    for (size_t ci = 0; ci < sizeof combos / sizeof combos[0]; ci++)
        run_combo_size(&combos[ci], sz, CVM_MULADD_F32, ~0u, 1);
}

/* cvm_transpose against the element-by-element definition, on random
 * shapes (whole 16 x 16 blocks and strips), element sizes, padded leading
 * dimensions and contents, with each 16-bit kernel the CPU has (AVX-512,
 * AVX2, SSE2 or plain), the bytes around the destination untouched. */
static void test_transpose_random(void **state)
{
    (void)state;
    static const unsigned isas[] = {~0u, CVM_MM_ISA_AVX2, 0};
    static const uint32_t elem_sizes[] = {1, 2, 4, 8, 3};
    uint64_t seed = 12345;
    for (int it = 0; it < 3000; it++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint32_t es = elem_sizes[(seed >> 33) % 5];
        uint32_t rows = 1 + (uint32_t)((seed >> 40) % 48), cols = 1 + (uint32_t)((seed >> 20) % 48);
        if (it % 3 == 0) { /* whole blocks */
            rows = 16 * (1 + (uint32_t)((seed >> 40) % 3));
            cols = 16 * (1 + (uint32_t)((seed >> 20) % 3));
        }
        size_t src_ld = (size_t)cols * es + (seed >> 50) % 24;
        size_t dst_ld = (size_t)rows * es + (seed >> 56) % 24;
        size_t ssize = src_ld * rows, dsize = dst_ld * cols + 64;
        uint8_t *src = malloc(ssize), *want = malloc(dsize), *got = malloc(dsize);
        assert_non_null(src);
        assert_non_null(want);
        assert_non_null(got);
        for (size_t k = 0; k < ssize; k++)
            src[k] = (uint8_t)((k * 131u + (size_t)it * 7u) ^ (k >> 7));
        memset(want, 0xa5, dsize);
        for (uint32_t i = 0; i < rows; i++)
            for (uint32_t j = 0; j < cols; j++)
                memcpy(want + j * dst_ld + (size_t)i * es, src + i * src_ld + (size_t)j * es, es);
        unsigned isa = isas[it % 3];
        memset(got, 0xa5, dsize);
        cvm_transpose_isa(got, dst_ld, src, src_ld, rows, cols, es, isa);
        if (memcmp(got, want, dsize))
            fail_msg("transpose %ux%u of %u-byte elements (ld %zu -> %zu, isa 0x%x) differs", rows,
                     cols, es, src_ld, dst_ld, isa);
        free(src);
        free(want);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_hand_f32),
        cmocka_unit_test(test_ref_hand_int_signedness),
        cmocka_unit_test(test_ref_int_wrap_and_saturate),
        cmocka_unit_test(test_ref_float_rounds_once),
        cmocka_unit_test(test_ref_f32_order_of_k),
        cmocka_unit_test(test_ref_f32_fused),
        cmocka_unit_test(test_ref_float_specials),
        cmocka_unit_test(test_alias_r_c),
        cmocka_unit_test(test_fast_vs_reference),
        cmocka_unit_test(test_fast_bf16_extremes),
        cmocka_unit_test(test_fast_narrow_b_specials),
        cmocka_unit_test(test_fast_direct_f32_specials),
        cmocka_unit_test(test_fast_uses_caller_memory),
        cmocka_unit_test(test_bf16_pairs),
        cmocka_unit_test(test_fast_int8_saturating_long_k),
        cmocka_unit_test(test_fast_float_result_rounding),
        cmocka_unit_test(test_fast_f32_result_rounding),
        cmocka_unit_test(test_fast_out_of_memory),
        cmocka_unit_test(test_transpose_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
