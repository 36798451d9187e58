/* Scalar number formats and conversions (numeric.h).
 *
 * One rounding core serves every narrow format: a value is presented as an
 * exact (sign, 64-bit integer significand, power of two) triple and rounded
 * once, to nearest even, into the format's bit pattern.  Doubles, floats and
 * 64-bit integers all fit that triple exactly, so f64 -> f16 and int64 -> f16
 * never round twice (rounding through f32 first would: 2^60+2^36+1 is the
 * classic case).
 *
 * NaN policy: a NaN keeps its sign and the top bits of its payload, and comes
 * out quiet (as F16C's vcvtps2ph/vcvtph2ps and IEEE 754 conversions do).  E4M3
 * has a single NaN per sign (S.1111.111), so only the sign survives there. */
#include "numeric/numeric.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define NM_HAVE_X86 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define NM_HAVE_X86 0
#endif

/* Format descriptions ----------------------------------------------------- */

typedef struct nm_format {
    unsigned mbits;      /* stored mantissa bits */
    unsigned ebits;      /* exponent bits */
    int emin;            /* exponent of the smallest normal, unbiased */
    uint32_t max_finite; /* magnitude pattern of the largest finite value */
    uint32_t inf;        /* magnitude pattern of infinity; 0 = none */
    uint32_t sign_bit;
    uint32_t nan_mag;    /* without infinity: the NaN magnitude pattern, 0 = no NaN */
} nm_format;

static const nm_format NM_F16 = {10, 5, -14, 0x7bffu, 0x7c00u, 0x8000u, 0};
static const nm_format NM_BF16 = {7, 8, -126, 0x7f7fu, 0x7f80u, 0x8000u, 0};
static const nm_format NM_E4M3 = {3, 4, -6, 0x7eu, 0u, 0x80u, 0x7fu};
static const nm_format NM_E5M2 = {2, 5, -14, 0x7bu, 0x7cu, 0x80u, 0};
/* OCP MX element formats: no infinity, no NaN. */
static const nm_format NM_E2M1 = {1, 2, 0, 0x7u, 0u, 0x8u, 0};
static const nm_format NM_E2M3 = {3, 2, 0, 0x1fu, 0u, 0x20u, 0};
static const nm_format NM_E3M2 = {2, 3, -2, 0x1fu, 0u, 0x20u, 0};

static uint64_t nm_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double nm_bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static float nm_bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int nm_bitlen(uint64_t v) /* v != 0 */
{
    return 64 - __builtin_clzll(v);
}

/* v / 2^s rounded to nearest, ties to even; any s >= 0. */
static uint64_t nm_rne_shift(uint64_t v, int s)
{
    if (s == 0)
        return v;
    if (s > 64)
        return 0; /* v < 2^64 <= half an ulp of 2^s */
    if (s == 64)
        return v > (UINT64_C(1) << 63) ? 1 : 0; /* exactly half: ties to even 0 */
    uint64_t q = v >> s;
    uint64_t rem = v & ((UINT64_C(1) << s) - 1);
    uint64_t half = UINT64_C(1) << (s - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return q;
}

/* The magnitude pattern nearest to mant * 2^exp2 (mant != 0) in format `f`,
 * ties to even.  Returns a value above f->max_finite when the rounded value
 * overflows the format (the caller picks infinity, NaN or saturation).
 *
 * With e the value's exponent and q = max(e, emin) - mbits the exponent of
 * the unit in the last place, n = round(value / 2^q) and the pattern is
 * ((max(e, emin) - emin) << mbits) + n: for subnormals n < 2^mbits is the
 * mantissa field itself, for normals n carries the hidden bit into the
 * exponent field, and a round-up to 2^(mbits+1) lands on the next binade. */
static uint32_t nm_round_mag(uint64_t mant, int exp2, const nm_format *f)
{
    int e = nm_bitlen(mant) - 1 + exp2;
    /* Early out before the shifts below could overflow; at or above this bound
     * the value overflows every format (the exact test is max_finite). */
    int ebound = f->emin + (1 << f->ebits);
    if (e > ebound)
        return UINT32_MAX;
    int eb = e > f->emin ? e : f->emin;
    int q = eb - (int)f->mbits;
    uint64_t n;
    if (exp2 >= q)
        n = mant << (exp2 - q); /* exact; at most mbits+1 bits */
    else
        n = nm_rne_shift(mant, q - exp2);
    return (uint32_t)(((uint64_t)(eb - f->emin) << f->mbits) + n);
}

/* NaN pattern keeping `sign` and the top payload bits of a double payload. */
static uint32_t nm_nan_from_payload(uint64_t dbl_mant52, uint32_t sign, const nm_format *f)
{
    if (!f->inf) /* E4M3: one NaN per sign; the MX formats have none: +0 */
        return f->nan_mag ? sign | f->nan_mag : 0;
    uint32_t payload = (uint32_t)(dbl_mant52 >> (52 - f->mbits));
    uint32_t quiet = 1u << (f->mbits - 1);
    return sign | f->inf | quiet | payload;
}

static uint32_t nm_overflow(uint32_t sign, const nm_format *f, int saturate)
{
    if (saturate || (!f->inf && !f->nan_mag)) /* the MX formats always saturate */
        return sign | f->max_finite;
    if (f->inf)
        return sign | f->inf;
    return sign | f->nan_mag; /* E4M3: NaN */
}

static uint32_t nm_encode_f64(double d, const nm_format *f, int saturate)
{
    uint64_t u = nm_f64_bits(d);
    uint32_t sign = (u >> 63) ? f->sign_bit : 0;
    unsigned bexp = (unsigned)(u >> 52) & 0x7ffu;
    uint64_t m52 = u & ((UINT64_C(1) << 52) - 1);
    if (bexp == 0x7ff) {
        if (m52)
            return nm_nan_from_payload(m52, sign, f);
        return nm_overflow(sign, f, saturate); /* infinity */
    }
    if (bexp == 0 && m52 == 0)
        return sign;
    uint64_t mant = bexp ? (m52 | (UINT64_C(1) << 52)) : m52;
    int exp2 = (bexp ? (int)bexp : 1) - 1075;
    uint32_t mag = nm_round_mag(mant, exp2, f);
    if (mag > f->max_finite)
        return nm_overflow(sign, f, saturate);
    return sign | mag;
}

/* nm_encode_f64 for the formats with infinities (f16, bf16), without
 * saturation, when d lies in the format's normal range: the pattern is the
 * double's exponent rebiased and its significand shifted right, rounded to
 * nearest even; a carry out of the significand moves to the next binade,
 * and out of the largest binade onto the infinity pattern, as nm_round_mag
 * and nm_overflow would.  Every f16 result of the element-wise arithmetic
 * passes here. */
static uint32_t nm_encode_fast(double d, const nm_format *f)
{
    uint64_t u = nm_f64_bits(d);
    int e = (int)((u >> 52) & 0x7ffu) - 1023;
    int emax = f->emin + (1 << f->ebits) - 3;
    if (e < f->emin || e > emax)
        return nm_encode_f64(d, f, 0);
    unsigned sh = 52 - f->mbits;
    uint64_t v = ((uint64_t)(e - f->emin + 1) << 52) | (u & ((UINT64_C(1) << 52) - 1));
    uint64_t q = v >> sh, rem = v & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
    q += (uint64_t)((rem > half) | ((rem == half) & (unsigned)(q & 1u))); /* no branch on data */
    return ((u >> 63) ? f->sign_bit : 0) | (uint32_t)q;
}

static uint32_t nm_encode_f16(double d)
{
    return nm_encode_fast(d, &NM_F16);
}

static uint32_t nm_encode_bf16(double d)
{
    return nm_encode_fast(d, &NM_BF16);
}

/* Encodes the exact integer (neg ? -mag : mag). */
static uint32_t nm_encode_int(uint64_t mag, int neg, const nm_format *f, int saturate)
{
    uint32_t sign = neg ? f->sign_bit : 0;
    if (mag == 0)
        return 0; /* integer zero is +0 */
    uint32_t p = nm_round_mag(mag, 0, f);
    if (p > f->max_finite)
        return nm_overflow(sign, f, saturate);
    return sign | p;
}

/* Exact decode of a narrow pattern into a double (NaNs quieted). */
static double nm_decode(uint32_t v, const nm_format *f)
{
    int neg = (v & f->sign_bit) != 0;
    uint32_t mag = v & (f->sign_bit - 1);
    uint32_t ef = mag >> f->mbits;
    uint32_t mf = mag & ((1u << f->mbits) - 1);
    uint64_t sgn = neg ? (UINT64_C(1) << 63) : 0;
    if (f->inf ? (ef == (1u << f->ebits) - 1) : (f->nan_mag && mag == f->nan_mag)) {
        if (f->inf && mf == 0)
            return nm_bits_f64(sgn | UINT64_C(0x7ff0000000000000));
        /* NaN: payload to the top of the double mantissa, quiet bit set. */
        uint64_t pay = f->inf ? ((uint64_t)mf << (52 - f->mbits)) : 0;
        return nm_bits_f64(sgn | UINT64_C(0x7ff8000000000000) | pay);
    }
    double m;
    if (ef == 0)
        m = ldexp((double)mf, f->emin - (int)f->mbits);
    else
        m = ldexp((double)(mf | (1u << f->mbits)), f->emin + (int)ef - 1 - (int)f->mbits);
    return neg ? -m : m;
}

/* Kinds ------------------------------------------------------------------- */

unsigned cvm_sk_size(cvm_scalar_kind k)
{
    switch (k) {
    case CVM_SK_BOOL: case CVM_SK_S8: case CVM_SK_U8: case CVM_SK_E4M3: case CVM_SK_E5M2:
    case CVM_SK_E2M1: case CVM_SK_E2M3: case CVM_SK_E3M2: case CVM_SK_E8M0: case CVM_SK_MXINT8:
        return 1;
    case CVM_SK_S16: case CVM_SK_U16: case CVM_SK_F16: case CVM_SK_BF16:
        return 2;
    case CVM_SK_S32: case CVM_SK_U32: case CVM_SK_F32:
        return 4;
    case CVM_SK_S64: case CVM_SK_U64: case CVM_SK_F64:
        return 8;
    case CVM_SK_COUNT:
        break;
    }
    return 0;
}

int cvm_sk_is_float(cvm_scalar_kind k)
{
    return k == CVM_SK_F16 || k == CVM_SK_BF16 || k == CVM_SK_F32 || k == CVM_SK_F64 ||
           k == CVM_SK_E4M3 || k == CVM_SK_E5M2 || k == CVM_SK_E2M1 || k == CVM_SK_E2M3 ||
           k == CVM_SK_E3M2 || k == CVM_SK_E8M0 || k == CVM_SK_MXINT8;
}

unsigned cvm_sk_bits(cvm_scalar_kind k)
{
    if (k == CVM_SK_E2M1)
        return 4;
    if (k == CVM_SK_E2M3 || k == CVM_SK_E3M2)
        return 6;
    return 8 * cvm_sk_size(k);
}

int cvm_sk_is_signed_int(cvm_scalar_kind k)
{
    return k == CVM_SK_S8 || k == CVM_SK_S16 || k == CVM_SK_S32 || k == CVM_SK_S64;
}

const char *cvm_sk_name(cvm_scalar_kind k)
{
    static const char *const names[CVM_SK_COUNT] = {
        "bool", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
        "f16", "bf16", "f32", "f64", "e4m3", "e5m2",
        "e2m1", "e2m3", "e3m2", "ue8m0", "mxint8",
    };
    if ((unsigned)k < CVM_SK_COUNT)
        return names[k];
    return "?";
}

/* Narrow float formats ------------------------------------------------------ */

float cvm_f16_to_f32(uint16_t h)
{
    /* Bit-level: f16 fits f32 exactly, so no rounding. */
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    if (e == 0x1f)
        return nm_bits_f32(sign | 0x7f800000u | (m ? 0x00400000u | (m << 13) : 0));
    if (e == 0) {
        if (m == 0)
            return nm_bits_f32(sign);
        /* Subnormal: normalise into an f32 normal. */
        int sh = __builtin_clz(m) - 21; /* shifts that bring bit 10 to the top */
        m = (m << sh) & 0x3ffu;
        e = (uint32_t)(1 - sh);
    }
    return nm_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

uint16_t cvm_f32_to_f16(float f)
{
    return (uint16_t)nm_encode_f16((double)f);
}

uint16_t cvm_f64_to_f16(double d)
{
    return (uint16_t)nm_encode_f16(d);
}

/* F16C (with AVX for the 256-bit forms): 0 = not probed, 1 = absent, 2 =
 * present.  Racing first calls store the same value. */
#if NM_HAVE_X86
static _Atomic int nm_f16c_state;

static int nm_has_f16c(void)
{
    int s = atomic_load_explicit(&nm_f16c_state, memory_order_relaxed);
    if (s == 0) {
        unsigned eax, ebx, ecx, edx;
        __builtin_cpu_init();
        int f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
        s = (f16c && __builtin_cpu_supports("avx")) ? 2 : 1;
        atomic_store_explicit(&nm_f16c_state, s, memory_order_relaxed);
    }
    return s == 2;
}

__attribute__((target("avx,f16c"))) static uint64_t nm_f16_to_f32_f16c(const uint16_t *src,
                                                                       float *dst, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i,
                         _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(src + i))));
    return i;
}

__attribute__((target("avx,f16c"))) static uint64_t nm_f32_to_f16_f16c(const float *src,
                                                                       uint16_t *dst, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(void *)(dst + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
    return i;
}
#endif

int cvm_f16c_available(void)
{
#if NM_HAVE_X86
    return nm_has_f16c();
#else
    return 0;
#endif
}

void cvm_f16_to_f32_n(const uint16_t *src, float *dst, uint64_t n)
{
    uint64_t i = 0;
#if NM_HAVE_X86
    if (nm_has_f16c())
        i = nm_f16_to_f32_f16c(src, dst, n);
#endif
    for (; i < n; i++)
        dst[i] = cvm_f16_to_f32(src[i]);
}

void cvm_f32_to_f16_n(const float *src, uint16_t *dst, uint64_t n)
{
    uint64_t i = 0;
#if NM_HAVE_X86
    if (nm_has_f16c())
        i = nm_f32_to_f16_f16c(src, dst, n);
#endif
    for (; i < n; i++)
        dst[i] = cvm_f32_to_f16(src[i]);
}

float cvm_bf16_to_f32(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu))
        u |= 0x00400000u; /* quiet a signalling NaN */
    return nm_bits_f32(u);
}

uint16_t cvm_f32_to_bf16(float f)
{
    return (uint16_t)nm_encode_bf16((double)f);
}

uint16_t cvm_f64_to_bf16(double d)
{
    return (uint16_t)nm_encode_bf16(d);
}

float cvm_e4m3_to_f32(uint8_t v)
{
    return (float)nm_decode(v, &NM_E4M3);
}

uint8_t cvm_f32_to_e4m3(float f, int saturate)
{
    return (uint8_t)nm_encode_f64((double)f, &NM_E4M3, saturate);
}

uint8_t cvm_f64_to_e4m3(double d, int saturate)
{
    return (uint8_t)nm_encode_f64(d, &NM_E4M3, saturate);
}

float cvm_e5m2_to_f32(uint8_t v)
{
    return (float)nm_decode(v, &NM_E5M2);
}

uint8_t cvm_f32_to_e5m2(float f, int saturate)
{
    return (uint8_t)nm_encode_f64((double)f, &NM_E5M2, saturate);
}

uint8_t cvm_f64_to_e5m2(double d, int saturate)
{
    return (uint8_t)nm_encode_f64(d, &NM_E5M2, saturate);
}

/* OCP microscaling formats ---------------------------------------------------- */

static double nm_round_half_even(double d);

double cvm_e2m1_to_f64(uint8_t v)
{
    return nm_decode(v & 0xfu, &NM_E2M1);
}

double cvm_e2m3_to_f64(uint8_t v)
{
    return nm_decode(v & 0x3fu, &NM_E2M3);
}

double cvm_e3m2_to_f64(uint8_t v)
{
    return nm_decode(v & 0x3fu, &NM_E3M2);
}

double cvm_e8m0_to_f64(uint8_t v)
{
    if (v == 0xffu)
        return nm_bits_f64(UINT64_C(0x7ff8000000000000));
    return ldexp(1.0, (int)v - 127);
}

double cvm_mxint8_to_f64(uint8_t v)
{
    return (double)(int8_t)v / 64.0;
}

uint8_t cvm_f64_to_e2m1(double d)
{
    return (uint8_t)nm_encode_f64(d, &NM_E2M1, 1);
}

uint8_t cvm_f64_to_e2m3(double d)
{
    return (uint8_t)nm_encode_f64(d, &NM_E2M3, 1);
}

uint8_t cvm_f64_to_e3m2(double d)
{
    return (uint8_t)nm_encode_f64(d, &NM_E3M2, 1);
}

uint8_t cvm_f64_to_e8m0(double d, int saturate)
{
    if (isnan(d) || !(d > 0.0))
        return 0xffu;
    if (isinf(d))
        return saturate ? 0xfeu : 0xffu;
    int ex;
    double fr = frexp(d, &ex); /* d = fr * 2^ex, fr in [0.5, 1): between 2^(ex-1) and 2^ex */
    int biased = ex - 1 + 127;
    /* the midpoint of 2^(ex-1) and 2^ex is 0.75 * 2^ex */
    if (fr > 0.75 || (fr == 0.75 && (biased & 1)))
        biased++;
    if (biased < 0)
        return 0; /* below 2^-127: the smallest value (E8M0 has no zero) */
    if (biased > 254)
        return saturate ? 0xfeu : 0xffu;
    return (uint8_t)biased;
}

uint8_t cvm_f64_to_mxint8(double d)
{
    if (isnan(d))
        return 0;
    double q = nm_round_half_even(d * 64.0); /* exact scaling by a power of two */
    if (q > 127.0)
        q = 127.0;
    if (q < -127.0)
        q = -127.0;
    return (uint8_t)(int8_t)q;
}

/* Generic access ------------------------------------------------------------ */

static uint64_t nm_load_bits(unsigned size, const void *p)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (size) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

static void nm_store_bits(unsigned size, void *p, uint64_t v)
{
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;
    switch (size) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

/* The integer kinds' bits, sign- or zero-extended to 64 (bool: 0 or 1). */
static uint64_t nm_load_int_bits(cvm_scalar_kind k, const void *p)
{
    unsigned size = cvm_sk_size(k);
    uint64_t v = nm_load_bits(size, p);
    if (k == CVM_SK_BOOL)
        return v != 0;
    if (cvm_sk_is_signed_int(k) && size < 8) {
        unsigned sh = 64 - 8 * size;
        v = (uint64_t)((int64_t)(v << sh) >> sh);
    }
    return v;
}

double cvm_load_as_f64(cvm_scalar_kind k, const void *p)
{
    switch (k) {
    case CVM_SK_F16: return (double)cvm_f16_to_f32((uint16_t)nm_load_bits(2, p));
    case CVM_SK_BF16: return (double)cvm_bf16_to_f32((uint16_t)nm_load_bits(2, p));
    case CVM_SK_F32: {
        float f;
        memcpy(&f, p, 4);
        return (double)f;
    }
    case CVM_SK_F64: {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    case CVM_SK_E4M3: return nm_decode((uint32_t)nm_load_bits(1, p), &NM_E4M3);
    case CVM_SK_E5M2: return nm_decode((uint32_t)nm_load_bits(1, p), &NM_E5M2);
    case CVM_SK_E2M1: return cvm_e2m1_to_f64((uint8_t)nm_load_bits(1, p));
    case CVM_SK_E2M3: return cvm_e2m3_to_f64((uint8_t)nm_load_bits(1, p));
    case CVM_SK_E3M2: return cvm_e3m2_to_f64((uint8_t)nm_load_bits(1, p));
    case CVM_SK_E8M0: return cvm_e8m0_to_f64((uint8_t)nm_load_bits(1, p));
    case CVM_SK_MXINT8: return cvm_mxint8_to_f64((uint8_t)nm_load_bits(1, p));
    default: break;
    }
    uint64_t v = nm_load_int_bits(k, p);
    if (cvm_sk_is_signed_int(k))
        return (double)(int64_t)v; /* one rounding (only for |v| > 2^53) */
    return (double)v;
}

/* Float -> integer of `bits` width (8..64), signed or not: truncation toward
 * zero.  With `saturate`, NaN gives 0 and out-of-range values clamp.  Without,
 * a finite value gives its truncated value modulo 2^bits (what a wrapping
 * conversion gives; the texts leave it undefined), NaN gives 0 and an
 * infinity clamps like a saturating conversion (it has no truncated value). */
static uint64_t nm_f64_to_int_bits(double d, unsigned bits, int is_signed, int saturate)
{
    uint64_t mask = bits == 64 ? UINT64_MAX : ((UINT64_C(1) << bits) - 1);
    uint64_t smax = mask >> 1;                    /* largest signed */
    uint64_t smin = (~smax) & mask;               /* smallest signed, as bits */
    if (isnan(d))
        return 0;
    double t = trunc(d);
    /* Range limits as exact doubles: 2^(bits-1), 2^bits. */
    double two_pow_bits = ldexp(1.0, (int)bits);
    double two_pow_bm1 = ldexp(1.0, (int)bits - 1);
    if (saturate || isinf(d)) {
        if (is_signed) {
            if (t >= two_pow_bm1)
                return smax;
            if (t < -two_pow_bm1)
                return smin;
        } else {
            if (t >= two_pow_bits)
                return mask;
            if (t <= 0.0)
                return 0;
        }
    }
    /* Exact value modulo 2^64, then cut to the width. */
    double a = fabs(t);
    uint64_t m;
    if (a < 18446744073709551616.0) {
        m = (uint64_t)a;
    } else {
        int ex;
        double fr = frexp(a, &ex); /* a = fr * 2^ex, fr in [0.5, 1) */
        uint64_t sig = (uint64_t)ldexp(fr, 53);
        int sh = ex - 53;
        m = sh >= 64 ? 0 : sig << sh;
    }
    if (t < 0.0)
        m = (uint64_t)0 - m;
    return m & mask;
}

/* d rounded to an integral value, to nearest with ties to even, whatever the
 * floating-point environment's rounding mode. */
static double nm_round_half_even(double d)
{
    if (!(fabs(d) < 4503599627370496.0)) /* 2^52: integral already, or NaN/inf */
        return d;
    double t = trunc(d);
    double frac = fabs(d - t); /* exact */
    double step = d < 0.0 ? -1.0 : 1.0;
    if (frac > 0.5 || (frac == 0.5 && fmod(t, 2.0) != 0.0))
        t += step;
    return t;
}

void cvm_store_from_f64_nearest(cvm_scalar_kind k, void *p, double v)
{
    if (cvm_sk_is_float(k) || k == CVM_SK_BOOL) {
        cvm_store_from_f64(k, p, v, 0);
        return;
    }
    unsigned size = cvm_sk_size(k);
    nm_store_bits(size, p,
                  nm_f64_to_int_bits(nm_round_half_even(v), 8 * size, cvm_sk_is_signed_int(k), 1));
}

double cvm_f64_add_round_to_odd(double a, double b)
{
    double s = a + b;
    if (!isfinite(s))
        return s;
    /* TwoSum: e is the exact rounding error, a + b == s + e. */
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    if (e != 0.0 && (nm_f64_bits(s) & 1u) == 0)
        s = nextafter(s, e > 0.0 ? (double)INFINITY : -(double)INFINITY);
    return s;
}

int64_t cvm_load_as_s64(cvm_scalar_kind k, const void *p)
{
    if (cvm_sk_is_float(k))
        return (int64_t)nm_f64_to_int_bits(cvm_load_as_f64(k, p), 64, 1, 1);
    return (int64_t)nm_load_int_bits(k, p);
}

uint64_t cvm_load_as_u64(cvm_scalar_kind k, const void *p)
{
    if (cvm_sk_is_float(k))
        return nm_f64_to_int_bits(cvm_load_as_f64(k, p), 64, 0, 1);
    return nm_load_int_bits(k, p);
}

void cvm_store_from_f64(cvm_scalar_kind k, void *p, double v, int saturate)
{
    switch (k) {
    case CVM_SK_F16: nm_store_bits(2, p, nm_encode_f16(v)); return;
    case CVM_SK_BF16: nm_store_bits(2, p, nm_encode_bf16(v)); return;
    case CVM_SK_E4M3: nm_store_bits(1, p, nm_encode_f64(v, &NM_E4M3, saturate)); return;
    case CVM_SK_E5M2: nm_store_bits(1, p, nm_encode_f64(v, &NM_E5M2, saturate)); return;
    case CVM_SK_E2M1: nm_store_bits(1, p, cvm_f64_to_e2m1(v)); return;
    case CVM_SK_E2M3: nm_store_bits(1, p, cvm_f64_to_e2m3(v)); return;
    case CVM_SK_E3M2: nm_store_bits(1, p, cvm_f64_to_e3m2(v)); return;
    case CVM_SK_E8M0: nm_store_bits(1, p, cvm_f64_to_e8m0(v, saturate)); return;
    case CVM_SK_MXINT8: nm_store_bits(1, p, cvm_f64_to_mxint8(v)); return;
    case CVM_SK_F32: {
        float f = (float)v; /* one IEEE rounding, to nearest even */
        memcpy(p, &f, 4);
        return;
    }
    case CVM_SK_F64: memcpy(p, &v, 8); return;
    case CVM_SK_BOOL: {
        uint8_t b = v != 0.0; /* NaN is nonzero */
        memcpy(p, &b, 1);
        return;
    }
    default: break;
    }
    unsigned size = cvm_sk_size(k);
    nm_store_bits(size, p, nm_f64_to_int_bits(v, 8 * size, cvm_sk_is_signed_int(k), saturate));
}

/* Exact integer (neg, mag) into any kind. */
static void nm_store_int(cvm_scalar_kind k, void *p, int neg, uint64_t mag, int saturate)
{
    switch (k) {
    case CVM_SK_F16: nm_store_bits(2, p, nm_encode_int(mag, neg, &NM_F16, 0)); return;
    case CVM_SK_BF16: nm_store_bits(2, p, nm_encode_int(mag, neg, &NM_BF16, 0)); return;
    case CVM_SK_E4M3: nm_store_bits(1, p, nm_encode_int(mag, neg, &NM_E4M3, saturate)); return;
    case CVM_SK_E5M2: nm_store_bits(1, p, nm_encode_int(mag, neg, &NM_E5M2, saturate)); return;
    case CVM_SK_E2M1: case CVM_SK_E2M3: case CVM_SK_E3M2: case CVM_SK_E8M0: case CVM_SK_MXINT8: {
        /* their largest values are below 2^128: any integer past 2^53 that a
         * double rounds lands beyond all of them, on the same side */
        double d = (double)mag;
        cvm_store_from_f64(k, p, neg ? -d : d, saturate);
        return;
    }
    case CVM_SK_F32: {
        /* The C conversion from a 64-bit integer rounds once, to nearest. */
        float f = (float)mag;
        if (neg)
            f = -f;
        memcpy(p, &f, 4);
        return;
    }
    case CVM_SK_F64: {
        double d = (double)mag;
        if (neg)
            d = -d;
        memcpy(p, &d, 8);
        return;
    }
    case CVM_SK_BOOL: {
        uint8_t b = mag != 0;
        memcpy(p, &b, 1);
        return;
    }
    default: break;
    }
    unsigned size = cvm_sk_size(k);
    unsigned bits = 8 * size;
    uint64_t mask = bits == 64 ? UINT64_MAX : ((UINT64_C(1) << bits) - 1);
    uint64_t v = neg ? (uint64_t)0 - mag : mag;
    if (saturate) {
        if (cvm_sk_is_signed_int(k)) {
            uint64_t smax = mask >> 1;
            if (!neg && mag > smax)
                v = smax;
            else if (neg && mag > smax + 1)
                v = ~smax; /* sign-extended minimum; cut below */
        } else {
            if (neg)
                v = 0;
            else if (mag > mask)
                v = mask;
        }
    }
    nm_store_bits(size, p, v & mask);
}

void cvm_store_from_s64(cvm_scalar_kind k, void *p, int64_t v, int saturate)
{
    int neg = v < 0;
    uint64_t mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    nm_store_int(k, p, neg, mag, saturate);
}

void cvm_store_from_u64(cvm_scalar_kind k, void *p, uint64_t v, int saturate)
{
    nm_store_int(k, p, 0, v, saturate);
}

void cvm_convert_array(cvm_scalar_kind dst_k, void *dst, cvm_scalar_kind src_k, const void *src,
                       uint64_t count, int saturate)
{
    unsigned ds = cvm_sk_size(dst_k), ss = cvm_sk_size(src_k);
    uint8_t *d = dst;
    const uint8_t *s = src;
    /* f16 <-> f32 through the bulk conversions (F16C where the CPU has it;
     * test_bulk_f16 holds them to the scalar ones) when both arrays are
     * aligned for their element types, else element by element. */
    int aligned = ((uintptr_t)dst % ds) == 0 && ((uintptr_t)src % ss) == 0;
    if (src_k == CVM_SK_F16 && dst_k == CVM_SK_F32 && aligned) {
        cvm_f16_to_f32_n((const uint16_t *)src, (float *)dst, count);
        return;
    }
    if (src_k == CVM_SK_F32 && dst_k == CVM_SK_F16 && aligned) {
        cvm_f32_to_f16_n((const float *)src, (uint16_t *)dst, count);
        return;
    }
    if (src_k == CVM_SK_F16 && dst_k == CVM_SK_F32) {
        for (uint64_t i = 0; i < count; i++) {
            float f = cvm_f16_to_f32((uint16_t)nm_load_bits(2, s + 2 * i));
            memcpy(d + 4 * i, &f, 4);
        }
        return;
    }
    if (src_k == CVM_SK_F32 && dst_k == CVM_SK_F16) {
        for (uint64_t i = 0; i < count; i++) {
            float f;
            memcpy(&f, s + 4 * i, 4);
            nm_store_bits(2, d + 2 * i, cvm_f32_to_f16(f));
        }
        return;
    }
    for (uint64_t i = 0; i < count; i++) {
        const void *sp = s + i * ss;
        void *dp = d + i * ds;
        if (cvm_sk_is_float(src_k)) {
            /* Every float kind is exact in a double: one rounding below. */
            cvm_store_from_f64(dst_k, dp, cvm_load_as_f64(src_k, sp), saturate);
        } else if (cvm_sk_is_signed_int(src_k)) {
            cvm_store_from_s64(dst_k, dp, (int64_t)nm_load_int_bits(src_k, sp), saturate);
        } else {
            cvm_store_from_u64(dst_k, dp, nm_load_int_bits(src_k, sp), saturate);
        }
    }
}
