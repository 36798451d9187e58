/* Scalar number formats and conversions: f16 (IEEE binary16), bf16
 * (SPV_KHR_bfloat16), float8 E4M3 and E5M2 (SPV_EXT_float8, OCP FP8 formats:
 * E4M3 has no infinities, 0x7f/0xff are NaN, max finite 448; E5M2 is
 * IEEE-like with infinities, max finite 57344), and saturating integer
 * conversions.  Pure functions, no state. */
#ifndef CVM_NUMERIC_H
#define CVM_NUMERIC_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The component types the engine handles. */
typedef enum cvm_scalar_kind {
    CVM_SK_BOOL = 0, /* stored as one byte, 0 or 1 */
    CVM_SK_S8, CVM_SK_S16, CVM_SK_S32, CVM_SK_S64,
    CVM_SK_U8, CVM_SK_U16, CVM_SK_U32, CVM_SK_U64,
    CVM_SK_F16, CVM_SK_BF16, CVM_SK_F32, CVM_SK_F64,
    CVM_SK_E4M3, CVM_SK_E5M2,
    /* SPV_EXT_ocp_microscaling_types (OCP Microscaling Formats v1.0), one
     * byte a value, the pattern in the low bits (the rest zero):
     *   E2M1  FP4, bias 1, no Inf/NaN: 0, +-0.5 .. +-6
     *   E2M3  FP6, bias 1, no Inf/NaN: 0, +-0.125 .. +-7.5
     *   E3M2  FP6, bias 3, no Inf/NaN: 0, +-0.0625 .. +-28
     *   E8M0  unsigned, exponent only, bias 127: 2^-127 .. 2^127, 0xff NaN
     *   MXINT8  two's complement int8 scaled by 2^-6: -2 .. 127/64 */
    CVM_SK_E2M1, CVM_SK_E2M3, CVM_SK_E3M2, CVM_SK_E8M0, CVM_SK_MXINT8,
    CVM_SK_COUNT
} cvm_scalar_kind;

/* Size in bytes of one value. */
unsigned cvm_sk_size(cvm_scalar_kind k);
int cvm_sk_is_float(cvm_scalar_kind k);
int cvm_sk_is_signed_int(cvm_scalar_kind k);
const char *cvm_sk_name(cvm_scalar_kind k); /* "f16", "s8", ... */

/* Half <-> single.  Float to narrower formats rounds to nearest even;
 * NaN stays NaN (quiet), overflow goes to infinity (f16, bf16, e5m2) or, for
 * E4M3 which has no infinity, to NaN unless `saturate` (then to +-448). */
float cvm_f16_to_f32(uint16_t h);
uint16_t cvm_f32_to_f16(float f);
uint16_t cvm_f64_to_f16(double d); /* rounded once, not through f32 */
float cvm_bf16_to_f32(uint16_t b);
uint16_t cvm_f32_to_bf16(float f);
uint16_t cvm_f64_to_bf16(double d);
float cvm_e4m3_to_f32(uint8_t v);
uint8_t cvm_f32_to_e4m3(float f, int saturate);
uint8_t cvm_f64_to_e4m3(double d, int saturate);
float cvm_e5m2_to_f32(uint8_t v);
uint8_t cvm_f32_to_e5m2(float f, int saturate);
uint8_t cvm_f64_to_e5m2(double d, int saturate);

/* The microscaling formats (exact: every value of these formats is a
 * double).  Into them, coopvm's choices where SPV_EXT_ocp_microscaling_types
 * leaves the conversion to the client API (Vulkan forbids producing them
 * by OpFConvert, VUID-StandaloneSpirv-OpFConvert-12466, and the engine
 * refuses it; these serve constants and tests): to nearest, ties to even;
 * E2M1/E2M3/E3M2 saturate to the largest finite value (no infinity) and
 * take NaN to +0; E8M0 rounds to the nearer power of two (a tie, 1.5 * 2^k,
 * to the even biased exponent), clamps below 2^-127 to 2^-127, and gives NaN
 * (0xff) for NaN, zero, negative values and, unless `saturate`, overflow;
 * MXINT8 rounds value * 64 to an integer, saturates to -127 .. 127 (never
 * 0x80, whose meaning Vulkan leaves undefined) and takes NaN to 0. */
double cvm_e2m1_to_f64(uint8_t v);
double cvm_e2m3_to_f64(uint8_t v);
double cvm_e3m2_to_f64(uint8_t v);
double cvm_e8m0_to_f64(uint8_t v);
double cvm_mxint8_to_f64(uint8_t v); /* 0x80 is -2 (two's complement) */
uint8_t cvm_f64_to_e2m1(double d);
uint8_t cvm_f64_to_e2m3(double d);
uint8_t cvm_f64_to_e3m2(double d);
uint8_t cvm_f64_to_e8m0(double d, int saturate);
uint8_t cvm_f64_to_mxint8(double d);
/* Width in bits of a value of kind k (4 and 6 for E2M1, E2M3, E3M2; 8 *
 * cvm_sk_size otherwise): what OpBitcast and OpBitcastExtractEXT count. */
unsigned cvm_sk_bits(cvm_scalar_kind k);

/* `n` conversions at once, each exactly what cvm_f16_to_f32 / cvm_f32_to_f16
 * give for that element (F16C when the CPU has it: the tests check that it
 * agrees bit for bit, NaNs included).  For the element-wise f16 arithmetic
 * and the cooperative-vector products. */
void cvm_f16_to_f32_n(const uint16_t *src, float *dst, uint64_t n);
/* 1 when the CPU has F16C (and AVX), which the bulk conversions above use
 * and whose conversions equal cvm_f16_to_f32 / cvm_f32_to_f16. */
int cvm_f16c_available(void);
void cvm_f32_to_f16_n(const float *src, uint16_t *dst, uint64_t n);

/* Generic value access: a value of kind `k` at `p` (any alignment) as a
 * double / int64 / uint64, and back.  Float -> integer follows OpConvertFToS/U
 * rounding toward zero; values out of range are clamped when `saturate`, else
 * the result is what a wrapping conversion of the truncated value gives
 * (undefined in the texts; coopvm picks clamping when saturate is set).
 * Integer -> narrower integer wraps unless `saturate`. Float -> float rounds
 * to nearest even. */
double cvm_load_as_f64(cvm_scalar_kind k, const void *p);
int64_t cvm_load_as_s64(cvm_scalar_kind k, const void *p);
uint64_t cvm_load_as_u64(cvm_scalar_kind k, const void *p);
void cvm_store_from_f64(cvm_scalar_kind k, void *p, double v, int saturate);
void cvm_store_from_s64(cvm_scalar_kind k, void *p, int64_t v, int saturate);
void cvm_store_from_u64(cvm_scalar_kind k, void *p, uint64_t v, int saturate);

/* As cvm_store_from_f64, but a float -> integer conversion rounds to nearest,
 * ties to even, and saturates (NaN gives 0): the arithmetic input conversion
 * of SPV_NV_cooperative_vector ("Float to integer conversion is
 * round-to-nearest-even and saturating").  Float kinds: as
 * cvm_store_from_f64 without saturation. */
void cvm_store_from_f64_nearest(cvm_scalar_kind k, void *p, double v);

/* a + b rounded to odd in double precision: the exact sum when a double
 * holds it, else the one of its two double neighbours whose last significand
 * bit is 1.  Rounding that once more (to nearest even) into any format of at
 * most 51 significand bits (f32, f16, bf16, fp8) gives the exact sum rounded
 * once: how the cooperative-vector training instructions add into f16 and
 * f32 memory without double rounding.  Finite a, b whose sum is finite. */
double cvm_f64_add_round_to_odd(double a, double b);

/* Converts `count` values from kind `src_k` to `dst_k` (the semantic of
 * OpFConvert/OpSConvert/OpUConvert/OpConvertFToS/OpConvertSToF/... chosen by
 * the kinds: a signed source integer sign-extends, an unsigned one
 * zero-extends). `saturate` as above. */
void cvm_convert_array(cvm_scalar_kind dst_k, void *dst, cvm_scalar_kind src_k, const void *src,
                       uint64_t count, int saturate);

/* Minimum and maximum by GLSL.std.450's comparisons (FMin: "y if y < x,
 * otherwise x"; FMax: "y if x < y, otherwise x"), so that of two equal
 * values, +0 and -0 included, the first operand is the result; C's
 * fmin/fmax leave that open (glibc's return the second, and gcc may swap
 * their operands).  A NaN operand gives the other operand (NMin/NMax's
 * rule, and what OpGroupNonUniformFMin/FMax ask for), two NaNs the first,
 * quieted.  Exact for values of any narrower format held in double. */
static inline double cvm_fmin_text(double x, double y)
{
    if (isnan(x) && isnan(y)) {
        uint64_t u;
        memcpy(&u, &x, 8);
        u |= UINT64_C(1) << 51; /* two NaNs: the first, quieted */
        memcpy(&x, &u, 8);
        return x;
    }
    if (isnan(x) || isnan(y))
        return isnan(y) ? x : y;
    return y < x ? y : x;
}

static inline double cvm_fmax_text(double x, double y)
{
    return isnan(x) || isnan(y) ? cvm_fmin_text(x, y) : x < y ? y : x;
}

#endif /* CVM_NUMERIC_H */
