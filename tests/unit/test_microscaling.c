/* SPV_EXT_ocp_microscaling_types: FP4 E2M1, FP6 E2M3 and E3M2, FP8 E8M0,
 * MXINT8.
 *
 *  - numeric: every pattern of every format decodes to the value the OCP
 *    MX v1.0 field layout gives (a model written here from the layouts);
 *    the encoders round to the nearest pattern by a search of all values,
 *    ties to the even one, with the saturation numeric.h documents;
 *  - text: literals as spirv-as writes them (the bits it gives where it is
 *    right), and where it is wrong (the cases below were run through
 *    SPIRV-Tools' spirv-as; its results are in the comments); every pattern
 *    disassembles and assembles back to itself;
 *  - engine: a shader unpacks the formats from integers (OpBitcast of
 *    vectors whose components are 4 and 6 bits, OpBitcastExtractEXT),
 *    converts them to f32 and back, and the results are checked against the
 *    model; instructions the text does not allow on these values are
 *    refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "asm_run.h"
#include "numeric/numeric.h"

/* ---- the model ----------------------------------------------------------- */

typedef struct fmt {
    const char *name;    /* the FP Encoding */
    unsigned width, ebits, mbits, bias;
    cvm_scalar_kind kind;
} fmt;

static const fmt fp_fmts[] = {
    {"Float4E2M1EXT", 4, 2, 1, 1, CVM_SK_E2M1},
    {"Float6E2M3EXT", 6, 2, 3, 1, CVM_SK_E2M3},
    {"Float6E3M2EXT", 6, 3, 2, 3, CVM_SK_E3M2},
};

/* Sign, exponent field, mantissa field; no Inf, no NaN. */
static double model_fp(const fmt *f, unsigned v)
{
    unsigned s = (v >> (f->width - 1)) & 1u;
    unsigned e = (v >> f->mbits) & ((1u << f->ebits) - 1);
    unsigned m = v & ((1u << f->mbits) - 1);
    double x = e == 0 ? ldexp((double)m, 1 - (int)f->bias - (int)f->mbits)
                      : ldexp(1.0 + (double)m / (double)(1u << f->mbits), (int)e - (int)f->bias);
    return s ? -x : x;
}

static double model_e8m0(unsigned v)
{
    return v == 0xff ? (double)NAN : ldexp(1.0, (int)v - 127);
}

static double model_mxint8(unsigned v)
{
    int i = v >= 128 ? (int)v - 256 : (int)v;
    return i / 64.0;
}

/* The nearest pattern to d by search (ties: the even mantissa field),
 * saturating; NaN gives +0. */
static unsigned model_fp_encode(const fmt *f, double d)
{
    if (isnan(d))
        return 0;
    unsigned nmag = 1u << (f->width - 1), best = 0;
    double a = fabs(d), bd = (double)INFINITY;
    for (unsigned m = 0; m < nmag; m++) {
        double diff = fabs(model_fp(f, m) - a);
        if (diff < bd || (diff == bd && (m & 1u) == 0)) {
            bd = diff;
            best = m;
        }
    }
    return (signbit(d) ? nmag : 0) | best;
}

/* E8M0 by search: the nearest of 2^-127 .. 2^127 (a tie to the even
 * pattern), NaN for NaN, zero and negative values and past 2^127 by more
 * than to 2^127's neighbour 2^128 (overflow, not saturating). */
static unsigned model_e8m0_encode(double d)
{
    if (isnan(d) || !(d > 0.0))
        return 0xff;
    unsigned best = 0;
    double bd = (double)INFINITY;
    for (unsigned v = 0; v <= 255; v++) {
        double x = ldexp(1.0, (int)v - 127); /* v == 255 stands for 2^128, overflow */
        double diff = fabs(x - d);
        if (diff < bd || (diff == bd && (v & 1u) == 0)) {
            bd = diff;
            best = v;
        }
    }
    return best;
}

/* MXINT8 by search over -127 .. 127 (ties to the even integer). */
static unsigned model_mxint8_encode(double d)
{
    if (isnan(d))
        return 0;
    int best = 0;
    double bd = (double)INFINITY;
    for (int n = -127; n <= 127; n++) {
        double diff = fabs(n / 64.0 - d);
        if (diff < bd || (diff == bd && (n & 1) == 0)) {
            bd = diff;
            best = n;
        }
    }
    return (unsigned)(uint8_t)(int8_t)best;
}

/* ---- numeric ------------------------------------------------------------- */

static void test_decode_every_pattern(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(fp_fmts) / sizeof(fp_fmts[0]); i++) {
        const fmt *f = &fp_fmts[i];
        for (unsigned v = 0; v < (1u << f->width); v++) {
            uint8_t b = (uint8_t)v;
            double got = cvm_load_as_f64(f->kind, &b), want = model_fp(f, v);
            if (got != want || signbit(got) != signbit(want))
                fail_msg("%s 0x%x: %g, the model %g", f->name, v, got, want);
        }
        assert_int_equal(cvm_sk_bits(f->kind), f->width);
        assert_int_equal(cvm_sk_size(f->kind), 1);
    }
    for (unsigned v = 0; v < 256; v++) {
        uint8_t b = (uint8_t)v;
        double e = cvm_load_as_f64(CVM_SK_E8M0, &b), m = cvm_load_as_f64(CVM_SK_MXINT8, &b);
        if (v == 0xff ? !isnan(e) : e != model_e8m0(v))
            fail_msg("E8M0 0x%x: %g", v, e);
        if (m != model_mxint8(v))
            fail_msg("MXINT8 0x%x: %g, the model %g", v, m, model_mxint8(v));
    }
    /* the extremes the OCP spec lists */
    uint8_t b = 0x7;
    assert_true(cvm_load_as_f64(CVM_SK_E2M1, &b) == 6.0);
    b = 0x1f;
    assert_true(cvm_load_as_f64(CVM_SK_E2M3, &b) == 7.5);
    assert_true(cvm_load_as_f64(CVM_SK_E3M2, &b) == 28.0);
    b = 0x80;
    assert_true(cvm_load_as_f64(CVM_SK_MXINT8, &b) == -2.0);
}

static void test_encode(void **state)
{
    (void)state;
    /* every midpoint and every value, and points between and beyond */
    for (size_t i = 0; i < sizeof(fp_fmts) / sizeof(fp_fmts[0]); i++) {
        const fmt *f = &fp_fmts[i];
        unsigned nmag = 1u << (f->width - 1);
        for (unsigned m = 0; m < nmag; m++) {
            double v = model_fp(f, m), next = m + 1 < nmag ? model_fp(f, m + 1) : v * 2;
            const double probes[] = {v, (v + next) / 2, v + (next - v) / 4, v + 3 * (next - v) / 4};
            for (int k = 0; k < 4; k++)
                for (int s = 0; s < 2; s++) {
                    double d = s ? -probes[k] : probes[k];
                    uint8_t got;
                    cvm_store_from_f64(f->kind, &got, d, 0);
                    if (got != model_fp_encode(f, d))
                        fail_msg("%s from %a: 0x%x, the model 0x%x", f->name, d, got,
                                 model_fp_encode(f, d));
                }
        }
        uint8_t got;
        cvm_store_from_f64(f->kind, &got, (double)INFINITY, 0);
        assert_int_equal(got, nmag - 1); /* saturates */
        cvm_store_from_f64(f->kind, &got, (double)NAN, 0);
        assert_int_equal(got, 0);
    }
    for (int i = -3000; i <= 3000; i++) {
        double d = ldexp((double)i, -7) * (1.0 + (i % 7) / 64.0);
        if (cvm_f64_to_mxint8(d) != model_mxint8_encode(d))
            fail_msg("MXINT8 from %a: 0x%x, the model 0x%x", d, cvm_f64_to_mxint8(d),
                     model_mxint8_encode(d));
        double e = ldexp(1.0 + (i % 64) / 64.0, i / 20);
        if (cvm_f64_to_e8m0(e, 0) != model_e8m0_encode(e))
            fail_msg("E8M0 from %a: 0x%x, the model 0x%x", e, cvm_f64_to_e8m0(e, 0),
                     model_e8m0_encode(e));
    }
    /* E8M0: nearer power of two, the tie 1.5 * 2^k to the even biased exponent */
    assert_int_equal(cvm_f64_to_e8m0(1.0, 0), 127);
    assert_int_equal(cvm_f64_to_e8m0(1.4, 0), 127);
    assert_int_equal(cvm_f64_to_e8m0(1.6, 0), 128);
    assert_int_equal(cvm_f64_to_e8m0(1.5, 0), 128); /* 127 odd -> 128 */
    assert_int_equal(cvm_f64_to_e8m0(3.0, 0), 128); /* 128 even stays */
    assert_int_equal(cvm_f64_to_e8m0(ldexp(1.0, -140), 0), 0);
    assert_int_equal(cvm_f64_to_e8m0(ldexp(1.0, 130), 0), 0xff);
    assert_int_equal(cvm_f64_to_e8m0(ldexp(1.0, 130), 1), 0xfe);
    assert_int_equal(cvm_f64_to_e8m0(0.0, 0), 0xff);
    assert_int_equal(cvm_f64_to_e8m0(-4.0, 0), 0xff);
    /* MXINT8: n/64 to nearest even, -127..127 */
    assert_int_equal(cvm_f64_to_mxint8(1.0), 64);
    assert_int_equal(cvm_f64_to_mxint8(1.5 / 64), 2);
    assert_int_equal(cvm_f64_to_mxint8(2.5 / 64), 2);
    assert_int_equal(cvm_f64_to_mxint8(-3.0), 0x81);
    assert_int_equal(cvm_f64_to_mxint8(5.0), 127);
    assert_int_equal(cvm_f64_to_mxint8((double)NAN), 0);
}

/* ---- text ---------------------------------------------------------------- */

/* Assembles one constant of the format and returns its literal word, or -1
 * when the assembler refused it. */
static int64_t assemble_constant(const char *encoding, unsigned width, const char *literal)
{
    char text[1024];
    snprintf(text, sizeof(text),
             "OpCapability Shader\n"
             "OpCapability Float4EXT\n"
             "OpCapability Float6EXT\n"
             "OpCapability Float8UnsignedE8M0EXT\n"
             "OpCapability MXInt8EXT\n"
             "OpExtension \"SPV_EXT_ocp_microscaling_types\"\n"
             "OpMemoryModel Logical GLSL450\n"
             "%%f = OpTypeFloat %u %s\n"
             "%%c = OpConstant %%f %s\n",
             width, encoding, literal);
    uint32_t *w = NULL;
    size_t n = 0;
    cvm_diagnostic d;
    if (cvm_assemble(text, strlen(text), 0, NULL, &w, &n, &d) != CVM_SUCCESS)
        return -1;
    int64_t v = w[n - 1];
    cvm_free(w);
    return v;
}

static void test_literals(void **state)
{
    (void)state;
    static const struct {
        const char *enc;
        unsigned width;
        const char *lit;
        int64_t want; /* -1: refused */
    } cases[] = {
        /* where spirv-as is right */
        {"Float4E2M1EXT", 4, "0.5", 0x1},
        {"Float4E2M1EXT", 4, "1.5", 0x3},
        {"Float4E2M1EXT", 4, "0x1.8p+0", 0x3},
        {"Float4E2M1EXT", 4, "6", 0x7},
        {"Float4E2M1EXT", 4, "-6", 0xf},
        {"Float4E2M1EXT", 4, "-0", 0x8},
        {"Float4E2M1EXT", 4, "3.5", 0x5},      /* toward zero: 3 */
        {"Float4E2M1EXT", 4, "0.25", 0x0},     /* toward zero */
        {"Float4E2M1EXT", 4, "0x1.fp+0", 0x3}, /* 1.9375 toward zero: 1.5 */
        {"Float4E2M1EXT", 4, "7", -1},
        {"Float4E2M1EXT", 4, "100", -1},
        {"Float6E2M3EXT", 6, "0.5", 0x4},
        {"Float6E2M3EXT", 6, "0.125", 0x1},
        {"Float6E2M3EXT", 6, "3.5", 0x16},
        {"Float6E2M3EXT", 6, "1.25", 0xa},
        {"Float6E2M3EXT", 6, "0x1.fp+0", 0xf},
        {"Float6E3M2EXT", 6, "7", 0x17},
        {"Float6E3M2EXT", 6, "0.125", 0x2},
        {"Float6E3M2EXT", 6, "0x1p-2", 0x4},
        {"Float6E3M2EXT", 6, "100", -1},
        {"Float8UnsignedE8M0EXT", 8, "0x1p-127", 0x00},
        {"Float8UnsignedE8M0EXT", 8, "1", 0x7f},
        {"Float8UnsignedE8M0EXT", 8, "0x1p+127", 0xfe},
        {"Float8UnsignedE8M0EXT", 8, "1.5", -1},
        {"Float8UnsignedE8M0EXT", 8, "0", -1},
        {"Float8UnsignedE8M0EXT", 8, "-2", -1},
        {"Float8UnsignedE8M0EXT", 8, "0x1p-128", -1},
        {"MXInt8EXT", 8, "0x1.fcp+0", 0x7f},
        {"MXInt8EXT", 8, "-1.984375", 0x81},
        {"MXInt8EXT", 8, "0x1p-3", 0x08},
        {"MXInt8EXT", 8, "-0", 0x00},
        {"MXInt8EXT", 8, "0.01", -1},
        {"MXInt8EXT", 8, "2", -1},
        /* where spirv-as is wrong */
        {"Float4E2M1EXT", 4, "0x1p-1", 0x1},   /* spirv-as: 0x0 (the subnormal 0.5 lost) */
        {"Float4E2M1EXT", 4, "-0x1p-1", 0x9},  /* spirv-as: 0x8 */
        {"Float6E2M3EXT", 6, "0x1p-1", 0x4},   /* spirv-as: 0x1 (0.125) */
        {"Float6E2M3EXT", 6, "0x1p-3", 0x1},   /* spirv-as: 0x0 */
        {"Float6E2M3EXT", 6, "6", 0x1c},       /* spirv-as: 0x1f (7.5) */
        {"Float6E2M3EXT", 6, "7", 0x1e},       /* spirv-as: 0x1f */
        {"Float6E3M2EXT", 6, "0x1p-4", 0x1},   /* spirv-as: 0x0 */
        {"Float6E3M2EXT", 6, "0x1p+128", -1},  /* spirv-as: 0x1c (16) */
        {"Float4E2M1EXT", 4, "0x1p+128", -1},  /* spirv-as: 0x6 (4) */
        {"Float8UnsignedE8M0EXT", 8, "0x1p+128", 0xff}, /* spirv-as refuses its own NaN */
        {"MXInt8EXT", 8, "-0x1p+1", 0x80},     /* spirv-as refuses its own -2 */
        {"MXInt8EXT", 8, "-2", 0x80},          /* spirv-as refuses */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int64_t got = assemble_constant(cases[i].enc, cases[i].width, cases[i].lit);
        if (got != cases[i].want)
            fail_msg("%s %s: %lld, expected %lld", cases[i].enc, cases[i].lit, (long long)got,
                     (long long)cases[i].want);
    }
}

/* Every pattern: dis then as gives it back. */
static void test_round_trip(void **state)
{
    (void)state;
    static const struct {
        const char *enc;
        unsigned width, count;
    } f[] = {{"Float4E2M1EXT", 4, 16},
             {"Float6E2M3EXT", 6, 64},
             {"Float6E3M2EXT", 6, 64},
             {"Float8UnsignedE8M0EXT", 8, 256},
             {"MXInt8EXT", 8, 256}};
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        size_t cap = 65536;
        char *text = malloc(cap);
        assert_non_null(text);
        int n = snprintf(text, cap,
                         "OpCapability Shader\nOpCapability Float4EXT\nOpCapability Float6EXT\n"
                         "OpCapability Float8UnsignedE8M0EXT\nOpCapability MXInt8EXT\n"
                         "OpExtension \"SPV_EXT_ocp_microscaling_types\"\n"
                         "OpMemoryModel Logical GLSL450\n%%f = OpTypeFloat %u %s\n",
                         f[i].width, f[i].enc);
        for (unsigned v = 0; v < f[i].count; v++)
            n += snprintf(text + n, cap - (size_t)n, "%%c%u = OpConstant %%f !%u\n", v, v);
        uint32_t *w = NULL, *w2 = NULL;
        size_t nw = 0, nw2 = 0;
        cvm_diagnostic d;
        if (cvm_assemble(text, (size_t)n, 0, NULL, &w, &nw, &d) != CVM_SUCCESS)
            fail_msg("%s: %s", f[i].enc, d.message);
        char *dis = NULL;
        size_t dl = 0;
        assert_int_equal(cvm_disassemble(w, nw, CVM_TEXT_RAW_ID, &dis, &dl, &d), CVM_SUCCESS);
        if (cvm_assemble(dis, dl, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &w2, &nw2, &d) !=
            CVM_SUCCESS)
            fail_msg("%s: the disassembly does not assemble: %s (line %u)", f[i].enc, d.message,
                     d.line);
        assert_int_equal(nw, nw2);
        for (size_t k = 5; k < nw; k++)
            if (w[k] != w2[k])
                fail_msg("%s: word %zu: 0x%x came back as 0x%x", f[i].enc, k, w[k], w2[k]);
        cvm_free(w);
        cvm_free(w2);
        cvm_free(dis);
        free(text);
    }
}

/* ---- engine -------------------------------------------------------------- */

/* Per invocation l (64): A[l] a 32-bit pattern, F[l] an f32.
 *   O[8l+0]  E8M0 of A's low byte, as f32       (OpBitcast uchar -> E8M0)
 *   O[8l+1]  MXINT8 of A's low byte, as f32
 *   O[8l+2]  E2M1 of A's bits 4..7               (OpBitcastExtractEXT)
 *   O[8l+3]  E2M3 of bits 8..13
 *   O[8l+4]  E3M2 of bits 20..25
 *   O[8l+5]  component 3 of A as 8 x E2M1 (bits 12..15)   (OpBitcast u32 -> v8)
 *   O[8l+6]  component 5 of (A, ~A, A ^ 0x5a5a5a5a) as 16 x E3M2 (bits 30..35)
 *   O[8l+7]  that v8 bit-cast back to u32, as f32 bits
 *   P[l]     E2M1, E8M0 and MXINT8 of F[l] (OpFConvert), bytes 0, 1, 2 */
static const char engine_shader[] =
    "OpCapability Shader\n"
    "OpCapability Int8\n"
    "OpCapability Float4EXT\n"
    "OpCapability Float6EXT\n"
    "OpCapability Float8UnsignedE8M0EXT\n"
    "OpCapability MXInt8EXT\n"
    "OpCapability BitcastExtractEXT\n"
    "OpCapability LongVectorEXT\n"
    "OpExtension \"SPV_EXT_ocp_microscaling_types\"\n"
    "OpExtension \"SPV_EXT_long_vector\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %lidx\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %rtu ArrayStride 4\n"
    "OpDecorate %rtf ArrayStride 4\n"
    "OpDecorate %Bu Block\n"
    "OpMemberDecorate %Bu 0 Offset 0\n"
    "OpDecorate %Bf Block\n"
    "OpMemberDecorate %Bf 0 Offset 0\n"
    "OpDecorate %A DescriptorSet 0\n"
    "OpDecorate %A Binding 0\n"
    "OpDecorate %F DescriptorSet 0\n"
    "OpDecorate %F Binding 1\n"
    "OpDecorate %O DescriptorSet 0\n"
    "OpDecorate %O Binding 2\n"
    "OpDecorate %P DescriptorSet 0\n"
    "OpDecorate %P Binding 3\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%uchar = OpTypeInt 8 0\n"
    "%float = OpTypeFloat 32\n"
    "%e2m1 = OpTypeFloat 4 Float4E2M1EXT\n"
    "%e2m3 = OpTypeFloat 6 Float6E2M3EXT\n"
    "%e3m2 = OpTypeFloat 6 Float6E3M2EXT\n"
    "%e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT\n"
    "%mx8 = OpTypeFloat 8 MXInt8EXT\n"
    "%v2e2m1 = OpTypeVector %e2m1 2\n"
    "%v8e2m1 = OpTypeVector %e2m1 8\n"
    "%v16e3m2 = OpTypeVector %e3m2 16\n"
    "%v3uint = OpTypeVector %uint 3\n"
    "%rtu = OpTypeRuntimeArray %uint\n"
    "%rtf = OpTypeRuntimeArray %float\n"
    "%Bu = OpTypeStruct %rtu\n"
    "%Bf = OpTypeStruct %rtf\n"
    "%pBu = OpTypePointer StorageBuffer %Bu\n"
    "%pBf = OpTypePointer StorageBuffer %Bf\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%pin = OpTypePointer Input %uint\n"
    "%A = OpVariable %pBu StorageBuffer\n"
    "%F = OpVariable %pBf StorageBuffer\n"
    "%O = OpVariable %pBf StorageBuffer\n"
    "%P = OpVariable %pBu StorageBuffer\n"
    "%lidx = OpVariable %pin Input\n"
    "%c0 = OpConstant %uint 0\n"
    "%c1 = OpConstant %uint 1\n"
    "%c2 = OpConstant %uint 2\n"
    "%c3 = OpConstant %uint 3\n"
    "%c4 = OpConstant %uint 4\n"
    "%c5 = OpConstant %uint 5\n"
    "%c6 = OpConstant %uint 6\n"
    "%c7 = OpConstant %uint 7\n"
    "%c8 = OpConstant %uint 8\n"
    "%c16 = OpConstant %uint 16\n"
    "%c20 = OpConstant %uint 20\n"
    "%cx = OpConstant %uint 0x5a5a5a5a\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%l = OpLoad %uint %lidx\n"
    "%pa = OpAccessChain %pu %A %c0 %l\n"
    "%a = OpLoad %uint %pa\n"
    "%pF = OpAccessChain %pf %F %c0 %l\n"
    "%fv = OpLoad %float %pF\n"
    "%base = OpIMul %uint %l %c8\n"
    "%lo = OpUConvert %uchar %a\n"
    "%e8 = OpBitcast %e8m0 %lo\n"
    "%r0 = OpFConvert %float %e8\n"
    "%m8 = OpBitcast %mx8 %lo\n"
    "%r1 = OpFConvert %float %m8\n"
    "%x2 = OpBitcastExtractEXT %e2m1 %a %c4\n"
    "%r2 = OpFConvert %float %x2\n"
    "%x3 = OpBitcastExtractEXT %e2m3 %a %c8\n"
    "%r3 = OpFConvert %float %x3\n"
    "%x4 = OpBitcastExtractEXT %e3m2 %a %c20\n"
    "%r4 = OpFConvert %float %x4\n"
    "%v8 = OpBitcast %v8e2m1 %a\n"
    "%x5 = OpCompositeExtract %e2m1 %v8 3\n"
    "%r5 = OpFConvert %float %x5\n"
    "%na = OpNot %uint %a\n"
    "%xa = OpBitwiseXor %uint %a %cx\n"
    "%u3 = OpCompositeConstruct %v3uint %a %na %xa\n"
    "%v16 = OpBitcast %v16e3m2 %u3\n"
    "%x6 = OpCompositeExtract %e3m2 %v16 5\n"
    "%r6 = OpFConvert %float %x6\n"
    "%back = OpBitcast %uint %v8\n"
    "%r7 = OpBitcast %float %back\n"
    "%o0 = OpAccessChain %pf %O %c0 %base\n"
    "OpStore %o0 %r0\n"
    "%i1 = OpIAdd %uint %base %c1\n"
    "%o1 = OpAccessChain %pf %O %c0 %i1\n"
    "OpStore %o1 %r1\n"
    "%i2 = OpIAdd %uint %base %c2\n"
    "%o2 = OpAccessChain %pf %O %c0 %i2\n"
    "OpStore %o2 %r2\n"
    "%i3 = OpIAdd %uint %base %c3\n"
    "%o3 = OpAccessChain %pf %O %c0 %i3\n"
    "OpStore %o3 %r3\n"
    "%i4 = OpIAdd %uint %base %c4\n"
    "%o4 = OpAccessChain %pf %O %c0 %i4\n"
    "OpStore %o4 %r4\n"
    "%i5 = OpIAdd %uint %base %c5\n"
    "%o5 = OpAccessChain %pf %O %c0 %i5\n"
    "OpStore %o5 %r5\n"
    "%i6 = OpIAdd %uint %base %c6\n"
    "%o6 = OpAccessChain %pf %O %c0 %i6\n"
    "OpStore %o6 %r6\n"
    "%i7 = OpIAdd %uint %base %c7\n"
    "%o7 = OpAccessChain %pf %O %c0 %i7\n"
    "OpStore %o7 %r7\n"
    /* into the formats */
    "%t1 = OpFConvert %e2m1 %fv\n"
    "%t1v = OpCompositeConstruct %v2e2m1 %t1 %t1\n"
    "%t1b = OpBitcast %uchar %t1v\n"
    "%t1u = OpUConvert %uint %t1b\n"
    "%t2 = OpFConvert %e8m0 %fv\n"
    "%t2b = OpBitcast %uchar %t2\n"
    "%t2u = OpUConvert %uint %t2b\n"
    "%t2s = OpShiftLeftLogical %uint %t2u %c8\n"
    "%t3 = OpFConvert %mx8 %fv\n"
    "%t3b = OpBitcast %uchar %t3\n"
    "%t3u = OpUConvert %uint %t3b\n"
    "%t3s = OpShiftLeftLogical %uint %t3u %c16\n"
    "%pk1 = OpBitwiseOr %uint %t1u %t2s\n"
    "%pk = OpBitwiseOr %uint %pk1 %t3s\n"
    "%pp = OpAccessChain %pu %P %c0 %l\n"
    "OpStore %pp %pk\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

static int same(double want, float got)
{
    if (isnan(want))
        return isnan(got);
    return (double)got == want && !!signbit(want) == !!signbit(got);
}

static void test_engine(void **state)
{
    (void)state;
    uint32_t a[64], p[64];
    float f[64], o[512];
    uint32_t seed = 7;
    for (int l = 0; l < 64; l++) {
        a[l] = lcg(&seed);
        if (l < 8)
            a[l] = (a[l] & ~0xffu) | (uint32_t[]){0x00, 0x7f, 0xfe, 0xff, 0x80, 0x81, 0x01, 0x40}[l];
        float fv = (float)((int)(lcg(&seed) % 2001) - 1000) / 97.0f;
        const float special[] = {0.25f, 0.75f, 5.0f, 7.0f, -100.0f, 1.5f, 3.0f, 1e-30f};
        f[l] = l < 8 ? special[l] : fv;
    }
    memset(o, 0, sizeof(o));
    memset(p, 0, sizeof(p));
    void *bufs[4] = {a, f, o, p};
    size_t sizes[4] = {sizeof(a), sizeof(f), sizeof(o), sizeof(p)};
    asm_params prm;
    memset(&prm, 0, sizeof(prm));
    prm.subgroup_size = 32;
    asm_result rr = asm_run(engine_shader, &prm, bufs, sizes, 4);
    ASM_OK(rr, "microscaling shader");
    for (int l = 0; l < 64; l++) {
        uint32_t v = a[l];
        uint32_t na = ~v, xa = v ^ 0x5a5a5a5au;
        /* bits 30..35 of the 96-bit string (v, ~v, v ^ 0x5a5a5a5a) */
        unsigned b30 = (unsigned)(((v >> 30) & 3u) | ((na & 0xfu) << 2));
        (void)xa;
        const double want[8] = {
            model_e8m0(v & 0xff), model_mxint8(v & 0xff), model_fp(&fp_fmts[0], (v >> 4) & 0xf),
            model_fp(&fp_fmts[1], (v >> 8) & 0x3f), model_fp(&fp_fmts[2], (v >> 20) & 0x3f),
            model_fp(&fp_fmts[0], (v >> 12) & 0xf), model_fp(&fp_fmts[2], b30), 0};
        for (int k = 0; k < 7; k++)
            if (!same(want[k], o[8 * l + k]))
                fail_msg("lane %d slot %d (A 0x%08x): %g, the model %g", l, k, v,
                         (double)o[8 * l + k], want[k]);
        uint32_t back;
        memcpy(&back, &o[8 * l + 7], 4);
        if (back != v)
            fail_msg("lane %d: 8 x E2M1 bit-cast back: 0x%08x, expected 0x%08x", l, back, v);
        unsigned e = model_fp_encode(&fp_fmts[0], (double)f[l]);
        uint32_t want_p = (e | (e << 4)) | (model_e8m0_encode((double)f[l]) << 8) |
                          (model_mxint8_encode((double)f[l]) << 16);
        if (p[l] != want_p)
            fail_msg("lane %d: conversions of %g: 0x%06x, expected 0x%06x", l, (double)f[l],
                     p[l], want_p);
    }
}

/* What the text does not allow on these values. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *from, *to, *message;
    } cases[] = {
        {"%r2 = OpFConvert %float %x2\n", "%y2 = OpFAdd %e2m1 %x2 %x2\n%r2 = OpFConvert %float %y2\n",
         "Float4E2M1EXT may only be used"},
        {"%r0 = OpFConvert %float %e8\n", "%y0 = OpFOrdLessThan %bool %e8 %e8\n%r0 = OpFConvert %float %e8\n",
         "Float8UnsignedE8M0EXT may only be used"},
        {"%pf = OpTypePointer StorageBuffer %float\n",
         "%pf = OpTypePointer StorageBuffer %float\n%pbad = OpTypePointer StorageBuffer %e2m1\n",
         "Function and Private"},
        {"%c20 = OpConstant %uint 20\n",
         "%c20 = OpConstant %uint 20\n%cm = OpTypeCooperativeMatrixKHR %mx8 %c3 %c8 %c8 %c0\n",
         "no cooperative matrices"},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const char *at = strstr(engine_shader, cases[k].from);
        assert_non_null(at);
        size_t n = sizeof(engine_shader) + strlen(cases[k].to) + 64;
        char *text = malloc(n);
        assert_non_null(text);
        /* %bool for the comparison */
        snprintf(text, n, "%.*s%s%s", (int)(at - engine_shader), engine_shader, cases[k].to,
                 at + strlen(cases[k].from));
        char *b = strstr(text, "%uint = OpTypeInt 32 0\n");
        assert_non_null(b);
        char *t2 = malloc(n + 32);
        assert_non_null(t2);
        snprintf(t2, n + 32, "%.*s%%bool = OpTypeBool\n%s", (int)(b - text), text, b);
        if (strstr(cases[k].to, "CooperativeMatrix")) {
            char *t3 = malloc(n + 96);
            assert_non_null(t3);
            char *c = strstr(t2, "OpCapability Shader\n");
            snprintf(t3, n + 96, "OpCapability CooperativeMatrixKHR\n%s", c);
            char *e = strstr(t3, "OpExtension");
            assert_non_null(e);
            char *t4 = malloc(n + 160);
            assert_non_null(t4);
            snprintf(t4, n + 160, "%.*sOpExtension \"SPV_KHR_cooperative_matrix\"\n%s",
                     (int)(e - t3), t3, e);
            free(t3);
            t3 = t4;
            free(t2);
            t2 = t3;
        }
        uint8_t buf[4][2048];
        void *bufs[4] = {buf[0], buf[1], buf[2], buf[3]};
        size_t sizes[4] = {2048, 2048, 2048, 2048};
        char what[32];
        snprintf(what, sizeof(what), "case %zu", k);
        asm_expect_refused(what, t2, NULL, bufs, sizes, 4, cases[k].message);
        free(text);
        free(t2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_every_pattern), cmocka_unit_test(test_encode),
        cmocka_unit_test(test_literals),             cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_engine),               cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
