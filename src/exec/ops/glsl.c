/* GLSL.std.450 extended instructions (OpExtInst of the set
 * cvm_program.glsl_ext) on scalars and vectors (OpTypeVector and the long /
 * cooperative vectors of OpTypeVectorIdEXT); Determinant and MatrixInverse on
 * OpTypeMatrix.
 *
 * Precision (the texts leave it to the client API; coopvm picks):
 *   - f32: the elementary functions (Round, Trunc, FAbs, Floor, Ceil, Fract,
 *     Sin ... Atanh, Atan2, Pow, Exp, Log, Exp2, Log2, Sqrt, Fma, Frexp,
 *     Ldexp, Modf) are the C library's float functions (sinf, powf, fmaf
 *     ...), bit for bit.
 *   - FMin/NMin, FMax/NMax and FClamp/NClamp, every type: the text's
 *     comparisons ("y if y < x, otherwise x"; max: "y if x < y, otherwise
 *     x"; clamp: min(max(x, minVal), maxVal)), so that of two equal zeros
 *     the first operand is the result.  C's fmin/fmax leave that open, and
 *     gcc may swap their operands (it takes them as commutative): the
 *     result changed with the code around the call.  A NaN operand gives
 *     the other operand (NMin/NMax's rule; FMin/FMax leave it open), two
 *     NaNs the first one, quieted.
 *   - f32, everything built from several operations (Radians, Degrees, InverseSqrt, FMix, SmoothStep,
 *     Length, Distance, Cross, Normalize, FaceForward, Reflect, Refract,
 *     the Unpack*norm) is computed in double and rounded once to f32.  Dot products add their products in component
 *     order (products of two f32 are exact in double; only the sums round).
 *   - f64: the double functions and double arithmetic.
 *   - f16, bf16, E4M3, E5M2: computed in double from the exact operand values
 *     and rounded once to the format (round to nearest even).
 *   - Round rounds halfway cases away from zero (C round); RoundEven to even.
 *   - FSign of +-0 gives that zero, of NaN the NaN.
 *   - Determinant: Laplace expansion in double-double, rounded once, so f64
 *     determinants are (nearly always) correctly rounded too; a zero is +0.
 *     MatrixInverse: adjugate / determinant, each entry rounded once; a zero
 *     entry has the determinant's sign, as the formula GPUs use gives it.
 *   - FindILsb/FindUMsb of 0 and FindSMsb of 0 or -1 give -1.
 *   - IMix is reserved in the GLSL.std.450 text (no semantics): unsupported.
 *   - Interpolate* are fragment-only: unsupported.
 *
 * OpExtInst of any other imported set (the module only admits NonSemantic.*
 * ones besides GLSL.std.450) is a no-op. */
#include <math.h>
#include <string.h>

#include "exec/ops/ewise.h"
#include "spirv/spirv_grammar.h"

#define PI_D 3.14159265358979323846

/* insn fields: a, b, c operand ids (element-wise); d = GLSL instruction
 * number; sk = operand component kind; sk2 = second kind (Ldexp exponent,
 * result kind of Find*, pointee kind of Frexp's exponent); ncomp; e (in
 * `extra`) further operands for the geometric ones. */

static unsigned step_of(const cvm_insn *in, uint8_t bit, unsigned es)
{
    return (in->flags & bit) ? 0 : es;
}

static double round_even(double x)
{
    double r = round(x);
    if (fabs(x - trunc(x)) == 0.5)
        r = 2.0 * round(x * 0.5);
    return r;
}

static double fsign(double x)
{
    return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
}

/* Float element-wise operations. With f32 set, x, y, z hold f32 values and
 * the libm float functions are used. */
static double f_eval(uint32_t g, int f32, double x, double y, double z)
{
    float fx = (float)x, fy = (float)y, fz = (float)z;
    switch (g) {
    case SpvGLSLstd450Round: return f32 ? (double)roundf(fx) : round(x);
    case SpvGLSLstd450RoundEven: return round_even(x);
    case SpvGLSLstd450Trunc: return f32 ? (double)truncf(fx) : trunc(x);
    case SpvGLSLstd450FAbs: return fabs(x);
    case SpvGLSLstd450FSign: return fsign(x);
    case SpvGLSLstd450Floor: return f32 ? (double)floorf(fx) : floor(x);
    case SpvGLSLstd450Ceil: return f32 ? (double)ceilf(fx) : ceil(x);
    case SpvGLSLstd450Fract: return f32 ? (double)(fx - floorf(fx)) : x - floor(x);
    case SpvGLSLstd450Radians: return x * (PI_D / 180.0);
    case SpvGLSLstd450Degrees: return x * (180.0 / PI_D);
    case SpvGLSLstd450Sin: return f32 ? (double)sinf(fx) : sin(x);
    case SpvGLSLstd450Cos: return f32 ? (double)cosf(fx) : cos(x);
    case SpvGLSLstd450Tan: return f32 ? (double)tanf(fx) : tan(x);
    case SpvGLSLstd450Asin: return f32 ? (double)asinf(fx) : asin(x);
    case SpvGLSLstd450Acos: return f32 ? (double)acosf(fx) : acos(x);
    case SpvGLSLstd450Atan: return f32 ? (double)atanf(fx) : atan(x);
    case SpvGLSLstd450Sinh: return f32 ? (double)sinhf(fx) : sinh(x);
    case SpvGLSLstd450Cosh: return f32 ? (double)coshf(fx) : cosh(x);
    case SpvGLSLstd450Tanh: return f32 ? (double)tanhf(fx) : tanh(x);
    case SpvGLSLstd450Asinh: return f32 ? (double)asinhf(fx) : asinh(x);
    case SpvGLSLstd450Acosh: return f32 ? (double)acoshf(fx) : acosh(x);
    case SpvGLSLstd450Atanh: return f32 ? (double)atanhf(fx) : atanh(x);
    case SpvGLSLstd450Atan2: return f32 ? (double)atan2f(fx, fy) : atan2(x, y);
    case SpvGLSLstd450Pow: return f32 ? (double)powf(fx, fy) : pow(x, y);
    case SpvGLSLstd450Exp: return f32 ? (double)expf(fx) : exp(x);
    case SpvGLSLstd450Log: return f32 ? (double)logf(fx) : log(x);
    case SpvGLSLstd450Exp2: return f32 ? (double)exp2f(fx) : exp2(x);
    case SpvGLSLstd450Log2: return f32 ? (double)log2f(fx) : log2(x);
    case SpvGLSLstd450Sqrt: return f32 ? (double)sqrtf(fx) : sqrt(x);
    case SpvGLSLstd450InverseSqrt: return 1.0 / sqrt(x);
    case SpvGLSLstd450FMin:
    case SpvGLSLstd450NMin: return cvm_fmin_text(x, y);
    case SpvGLSLstd450FMax:
    case SpvGLSLstd450NMax: return cvm_fmax_text(x, y);
    case SpvGLSLstd450FClamp:
    case SpvGLSLstd450NClamp: return cvm_fmin_text(cvm_fmax_text(x, y), z);
    case SpvGLSLstd450FMix: return x * (1.0 - z) + y * z;
    case SpvGLSLstd450Step: return y < x ? 0.0 : 1.0;
    case SpvGLSLstd450SmoothStep: {
        double t = (z - x) / (y - x);
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        return t * t * (3.0 - 2.0 * t);
    }
    case SpvGLSLstd450Fma: return f32 ? (double)fmaf(fx, fy, fz) : fma(x, y, z);
    case SpvGLSLstd450Ldexp: {
        double e = y < -100000.0 ? -100000.0 : y > 100000.0 ? 100000.0 : y;
        return f32 ? (double)ldexpf(fx, (int)e) : ldexp(x, (int)e);
    }
    default: return 0.0;
    }
}

static void store_f(cvm_scalar_kind k, uint8_t *dst, double v)
{
    if (k == CVM_SK_F32) {
        float f = (float)v;
        memcpy(dst, &f, 4);
    } else if (k == CVM_SK_F64) {
        memcpy(dst, &v, 8);
    } else {
        cvm_store_from_f64(k, dst, v, 0);
    }
}

static void k_float(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                    const uint8_t *c, uint32_t n)
{
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    int ldexp_op = in->d == SpvGLSLstd450Ldexp;
    cvm_scalar_kind kb = ldexp_op ? (cvm_scalar_kind)in->sk2 : k;
    unsigned sa = step_of(in, CVM_EW_A_BCAST, es), sb = step_of(in, CVM_EW_B_BCAST, cvm_sk_size(kb));
    unsigned sc = step_of(in, CVM_EW_C_BCAST, es);
    for (uint32_t i = 0; i < n; i++) {
        double x = cvm_load_as_f64(k, a + (size_t)i * sa);
        double y = 0, z = 0;
        if (in->b)
            y = ldexp_op ? (double)cvm_load_as_s64(kb, b + (size_t)i * sb)
                         : cvm_load_as_f64(kb, b + (size_t)i * sb);
        if (in->c)
            z = cvm_load_as_f64(k, c + (size_t)i * sc);
        store_f(k, r + (size_t)i * es, f_eval(in->d, k == CVM_SK_F32, x, y, z));
    }
}

/* k_float for f32 operands and the functions that are the C library's
 * float functions (and FAbs, FMin ... NClamp), one loop per function without the double
 * round trip: the same calls on the same values, so the same bits.  The
 * round trip through double quiets a signalling NaN before the call (x86's
 * conversions set the quiet bit), so the operands are quieted here too: a
 * quiet NaN can give another result than a signalling one (powf(x, 0)).
 * Returns 0 for the functions it does not have (k_float runs them). */
static inline float quiet_f32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    u |= (uint32_t)((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu)) << 22;
    memcpy(&x, &u, 4);
    return x;
}

#define F32_LOOP1(EXPR)                                                                     \
    for (uint32_t i = 0; i < n; i++) {                                                      \
        float x, v;                                                                         \
        memcpy(&x, a + (size_t)i * sa, 4);                                                  \
        x = quiet_f32(x);                                                                   \
        v = (EXPR);                                                                         \
        memcpy(r + (size_t)i * 4, &v, 4);                                                   \
    }                                                                                       \
    return 1
#define F32_LOOP2(EXPR)                                                                     \
    for (uint32_t i = 0; i < n; i++) {                                                      \
        float x, y, v;                                                                      \
        memcpy(&x, a + (size_t)i * sa, 4);                                                  \
        memcpy(&y, b + (size_t)i * sb, 4);                                                  \
        x = quiet_f32(x);                                                                   \
        y = quiet_f32(y);                                                                   \
        v = (EXPR);                                                                         \
        memcpy(r + (size_t)i * 4, &v, 4);                                                   \
    }                                                                                       \
    return 1
#define F32_LOOP3(EXPR)                                                                     \
    for (uint32_t i = 0; i < n; i++) {                                                      \
        float x, y, z, v;                                                                   \
        memcpy(&x, a + (size_t)i * sa, 4);                                                  \
        memcpy(&y, b + (size_t)i * sb, 4);                                                  \
        memcpy(&z, c + (size_t)i * sc, 4);                                                  \
        x = quiet_f32(x);                                                                   \
        y = quiet_f32(y);                                                                   \
        z = quiet_f32(z);                                                                   \
        v = (EXPR);                                                                         \
        memcpy(r + (size_t)i * 4, &v, 4);                                                   \
    }                                                                                       \
    return 1

static int k_float_f32(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                       const uint8_t *c, uint32_t n)
{
    unsigned sa = step_of(in, CVM_EW_A_BCAST, 4), sb = step_of(in, CVM_EW_B_BCAST, 4);
    unsigned sc = step_of(in, CVM_EW_C_BCAST, 4);
    switch (in->d) {
    case SpvGLSLstd450Round: F32_LOOP1(roundf(x));
    case SpvGLSLstd450Trunc: F32_LOOP1(truncf(x));
    case SpvGLSLstd450FAbs: F32_LOOP1(fabsf(x));
    case SpvGLSLstd450Floor: F32_LOOP1(floorf(x));
    case SpvGLSLstd450Ceil: F32_LOOP1(ceilf(x));
    case SpvGLSLstd450Fract: F32_LOOP1(x - floorf(x));
    case SpvGLSLstd450Sin: F32_LOOP1(sinf(x));
    case SpvGLSLstd450Cos: F32_LOOP1(cosf(x));
    case SpvGLSLstd450Tan: F32_LOOP1(tanf(x));
    case SpvGLSLstd450Asin: F32_LOOP1(asinf(x));
    case SpvGLSLstd450Acos: F32_LOOP1(acosf(x));
    case SpvGLSLstd450Atan: F32_LOOP1(atanf(x));
    case SpvGLSLstd450Sinh: F32_LOOP1(sinhf(x));
    case SpvGLSLstd450Cosh: F32_LOOP1(coshf(x));
    case SpvGLSLstd450Tanh: F32_LOOP1(tanhf(x));
    case SpvGLSLstd450Asinh: F32_LOOP1(asinhf(x));
    case SpvGLSLstd450Acosh: F32_LOOP1(acoshf(x));
    case SpvGLSLstd450Atanh: F32_LOOP1(atanhf(x));
    case SpvGLSLstd450Exp: F32_LOOP1(expf(x));
    case SpvGLSLstd450Log: F32_LOOP1(logf(x));
    case SpvGLSLstd450Exp2: F32_LOOP1(exp2f(x));
    case SpvGLSLstd450Log2: F32_LOOP1(log2f(x));
    case SpvGLSLstd450Sqrt: F32_LOOP1(sqrtf(x));
    case SpvGLSLstd450Atan2: F32_LOOP2(atan2f(x, y));
    case SpvGLSLstd450Pow: F32_LOOP2(powf(x, y));
    case SpvGLSLstd450FMin:
    case SpvGLSLstd450NMin: F32_LOOP2((float)cvm_fmin_text((double)x, (double)y));
    case SpvGLSLstd450FMax:
    case SpvGLSLstd450NMax: F32_LOOP2((float)cvm_fmax_text((double)x, (double)y));
    case SpvGLSLstd450FClamp:
    case SpvGLSLstd450NClamp: F32_LOOP3((float)cvm_fmin_text(cvm_fmax_text((double)x, (double)y), (double)z));
    case SpvGLSLstd450Fma: F32_LOOP3(fmaf(x, y, z));
    default: return 0;
    }
}
#undef F32_LOOP1
#undef F32_LOOP2
#undef F32_LOOP3

/* k_float, with k_float_f32 where it applies (not on the reference paths) */
static void k_float_fast(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                         const uint8_t *c, uint32_t n)
{
    if (in->sk == CVM_SK_F32 && k_float_f32(in, r, a, b, c, n))
        return;
    k_float(in, r, a, b, c, n);
}

/* One-operand functions of an f16 value with an f16 result (k_float_f16):
 * f16 has 65536 values, so once an instruction number has been computed
 * for CVM_F16_TABLE_AFTER elements in this process, its results for every
 * value are computed once, by the same f_eval and rounding, into a table
 * (128 KiB) that later elements read -- the same bits, without the double
 * function (tanh of 16 f16 components a invocation took a quarter of
 * coopvec_mlp's time).  Tables live until the process ends; where one
 * cannot be allocated the elements are computed as before. */
#define CVM_F16_TABLE_AFTER 65536u
#define CVM_F16_TABLES 96u /* above GLSL.std.450's instruction numbers */
static uint16_t *f16_tables[CVM_F16_TABLES];
static uint32_t f16_table_uses[CVM_F16_TABLES];

static const uint16_t *f16_table(uint32_t g, uint32_t n)
{
    if (g >= CVM_F16_TABLES)
        return NULL;
    uint16_t *t = __atomic_load_n(&f16_tables[g], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    uint32_t used = __atomic_load_n(&f16_table_uses[g], __ATOMIC_RELAXED);
    if (used < CVM_F16_TABLE_AFTER) {
        __atomic_add_fetch(&f16_table_uses[g], n < CVM_F16_TABLE_AFTER ? n : CVM_F16_TABLE_AFTER,
                           __ATOMIC_RELAXED);
        return NULL;
    }
    t = cvm_malloc(65536 * sizeof(uint16_t));
    if (!t)
        return NULL;
    for (uint32_t h = 0; h < 65536; h++)
        t[h] = cvm_f64_to_f16(f_eval(g, 0, (double)cvm_f16_to_f32((uint16_t)h), 0.0, 0.0));
    uint16_t *none = NULL;
    if (!__atomic_compare_exchange_n(&f16_tables[g], &none, t, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        cvm_mem_free(t); /* another thread's is there */
        return none;
    }
    return t;
}

/* k_float for f16 operands: the same values (f16 is exact in f32 and in
 * double) converted in bulk; f_eval in double and one rounding per element,
 * as k_float.  FMin/FMax/NMin/NMax/FClamp/NClamp return one of their
 * operands, so they run in f32 and convert back in bulk, except where an
 * operand is NaN (then the double path, whose NaN handling k_float defines). */
static void k_float_f16(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                        const uint8_t *c, uint32_t n)
{
    enum { CHUNK = 256 };
    float x[CHUNK], y[CHUNK], z[CHUNK];
    uint16_t h[CHUNK];
    const uint8_t *ops[3] = {a, b, c};
    float *vals[3] = {x, y, z};
    uint32_t g = in->d;
    int nops = in->c ? 3 : in->b ? 2 : 1;
    int selecting = g == SpvGLSLstd450FMin || g == SpvGLSLstd450FMax || g == SpvGLSLstd450NMin ||
                    g == SpvGLSLstd450NMax || g == SpvGLSLstd450FClamp || g == SpvGLSLstd450NClamp;
    const uint16_t *table = nops == 1 ? f16_table(g, n) : NULL;
    if (table) {
        int bc = (in->flags & CVM_EW_A_BCAST) != 0;
        for (uint32_t i = 0; i < n; i++) {
            uint16_t x16;
            memcpy(&x16, a + (bc ? 0 : (size_t)i * 2), 2);
            memcpy(r + (size_t)i * 2, &table[x16], 2);
        }
        return;
    }
    for (uint32_t at = 0; at < n; at += CHUNK) {
        uint32_t m = CVM_MIN((uint32_t)CHUNK, n - at);
        for (int o = 0; o < nops; o++) {
            int bc = (in->flags & (CVM_EW_A_BCAST << o)) != 0;
            const uint16_t *p = (const uint16_t *)(const void *)(ops[o] + (bc ? 0 : (size_t)at * 2));
            cvm_f16_to_f32_n(p, vals[o], bc ? 1 : m);
            for (uint32_t i = 1; bc && i < m; i++)
                vals[o][i] = vals[o][0];
        }
        uint8_t *dst = r + (size_t)at * 2;
        if (selecting) {
            int nan = 0;
            for (uint32_t i = 0; i < m; i++) {
                float v = x[i];
                for (int o = 0; o < nops; o++)
                    nan |= isnan(vals[o][i]);
                if (g == SpvGLSLstd450FMin || g == SpvGLSLstd450NMin)
                    v = y[i] < v ? y[i] : v;
                else
                    v = y[i] > v ? y[i] : v;
                if (nops == 3)
                    v = z[i] < v ? z[i] : v;
                x[i] = v;
            }
            if (!nan) {
                cvm_f32_to_f16_n(x, h, m);
                memcpy(dst, h, (size_t)m * 2);
                continue;
            }
            /* a NaN operand: redo the chunk the way k_float does */
            for (int o = 0; o < nops; o++) {
                int bc = (in->flags & (CVM_EW_A_BCAST << o)) != 0;
                const uint16_t *p = (const uint16_t *)(const void *)(ops[o] + (bc ? 0 : (size_t)at * 2));
                cvm_f16_to_f32_n(p, vals[o], bc ? 1 : m);
                for (uint32_t i = 1; bc && i < m; i++)
                    vals[o][i] = vals[o][0];
            }
        }
        for (uint32_t i = 0; i < m; i++) {
            uint16_t v = cvm_f64_to_f16(
                f_eval(g, 0, (double)x[i], nops > 1 ? (double)y[i] : 0.0, nops > 2 ? (double)z[i] : 0.0));
            memcpy(dst + (size_t)i * 2, &v, 2);
        }
    }
}

static uint64_t mask_of(unsigned es)
{
    return es >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (es * 8)) - 1;
}

static int64_t sext(uint64_t v, unsigned es)
{
    if (es >= 8)
        return (int64_t)v;
    unsigned sh = 64 - es * 8;
    return (int64_t)(v << sh) >> sh;
}

static void k_int(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                  const uint8_t *c, uint32_t n)
{
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk, kr = (cvm_scalar_kind)in->sk2;
    unsigned es = cvm_sk_size(k), rs = cvm_sk_size(kr), bits = es * 8;
    unsigned sa = step_of(in, CVM_EW_A_BCAST, es), sb = step_of(in, CVM_EW_B_BCAST, es);
    unsigned sc = step_of(in, CVM_EW_C_BCAST, es);
    uint64_t m = mask_of(es);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = 0, y = 0, z = 0, v = 0;
        memcpy(&x, a + (size_t)i * sa, es);
        if (in->b)
            memcpy(&y, b + (size_t)i * sb, es);
        if (in->c)
            memcpy(&z, c + (size_t)i * sc, es);
        int64_t sx = sext(x, es), sy = sext(y, es), sz = sext(z, es);
        switch (in->d) {
        case SpvGLSLstd450SAbs: v = (uint64_t)(sx < 0 ? -(uint64_t)sx : (uint64_t)sx); break;
        case SpvGLSLstd450SSign: v = (uint64_t)(sx > 0 ? 1 : sx < 0 ? -1 : 0); break;
        case SpvGLSLstd450UMin: v = x < y ? x : y; break;
        case SpvGLSLstd450UMax: v = x > y ? x : y; break;
        case SpvGLSLstd450SMin: v = (uint64_t)(sx < sy ? sx : sy); break;
        case SpvGLSLstd450SMax: v = (uint64_t)(sx > sy ? sx : sy); break;
        case SpvGLSLstd450UClamp: { uint64_t t = x > y ? x : y; v = t < z ? t : z; break; }
        case SpvGLSLstd450SClamp: { int64_t t = sx > sy ? sx : sy; v = (uint64_t)(t < sz ? t : sz); break; }
        case SpvGLSLstd450FindILsb: {
            int64_t bit = -1;
            for (unsigned q = 0; q < bits; q++)
                if ((x >> q) & 1) { bit = q; break; }
            v = (uint64_t)bit;
            break;
        }
        case SpvGLSLstd450FindUMsb:
        case SpvGLSLstd450FindSMsb: {
            uint64_t t = in->d == SpvGLSLstd450FindSMsb && sx < 0 ? ~x & m : x & m;
            int64_t bit = -1;
            for (unsigned q = bits; q-- > 0;)
                if ((t >> q) & 1) { bit = q; break; }
            v = (uint64_t)bit;
            break;
        }
        default: break;
        }
        memcpy(r + (size_t)i * rs, &v, rs);
    }
}

/* k_float and k_int compute each component from the same component of their
 * operands, so all lanes may run in one call (cvm_ew_run_elementwise), except
 * on the reference paths. */
static cvm_result h_float(cvm_exec *ex, const cvm_insn *in)
{
    return (ex->flags & CVM_FLAG_REFERENCE_PATHS) ? cvm_ew_run(ex, in, k_float)
                                                  : cvm_ew_run_elementwise(ex, in, k_float_fast);
}
static cvm_result h_float_f16(cvm_exec *ex, const cvm_insn *in) { return cvm_ew_run_elementwise(ex, in, k_float_f16); }
static cvm_result h_int(cvm_exec *ex, const cvm_insn *in)
{
    return (ex->flags & CVM_FLAG_REFERENCE_PATHS) ? cvm_ew_run(ex, in, k_int)
                                                  : cvm_ew_run_elementwise(ex, in, k_int);
}

/* ---- Modf, Frexp (pointer and struct forms) ------------------------------------ */

/* in->a x; in->b the pointer (0 for the struct forms); in->c register offset
 * of the struct's second member; sk x's kind; sk2 the second part's kind. */
/* ewise.h: the functions of k_float_f32 that are one C library call on the
 * quieted operands (the others are expressions, or cvm_fmin_text). */
void *cvm_glsl_f32_libm(const cvm_insn *in, int *o_nops)
{
    if (in->fn != h_float || in->sk != CVM_SK_F32)
        return NULL;
    *o_nops = 1;
    switch (in->d) {
    case SpvGLSLstd450Round: return (void *)roundf;
    case SpvGLSLstd450Trunc: return (void *)truncf;
    case SpvGLSLstd450FAbs: return (void *)fabsf;
    case SpvGLSLstd450Floor: return (void *)floorf;
    case SpvGLSLstd450Ceil: return (void *)ceilf;
    case SpvGLSLstd450Sin: return (void *)sinf;
    case SpvGLSLstd450Cos: return (void *)cosf;
    case SpvGLSLstd450Tan: return (void *)tanf;
    case SpvGLSLstd450Asin: return (void *)asinf;
    case SpvGLSLstd450Acos: return (void *)acosf;
    case SpvGLSLstd450Atan: return (void *)atanf;
    case SpvGLSLstd450Sinh: return (void *)sinhf;
    case SpvGLSLstd450Cosh: return (void *)coshf;
    case SpvGLSLstd450Tanh: return (void *)tanhf;
    case SpvGLSLstd450Asinh: return (void *)asinhf;
    case SpvGLSLstd450Acosh: return (void *)acoshf;
    case SpvGLSLstd450Atanh: return (void *)atanhf;
    case SpvGLSLstd450Exp: return (void *)expf;
    case SpvGLSLstd450Log: return (void *)logf;
    case SpvGLSLstd450Exp2: return (void *)exp2f;
    case SpvGLSLstd450Log2: return (void *)log2f;
    case SpvGLSLstd450Sqrt: return (void *)sqrtf;
    case SpvGLSLstd450Atan2: *o_nops = 2; return (void *)atan2f;
    case SpvGLSLstd450Pow: *o_nops = 2; return (void *)powf;
    case SpvGLSLstd450Fma: *o_nops = 3; return (void *)fmaf;
    default: return NULL;
    }
}

int cvm_glsl_f32_minmax(const cvm_insn *in)
{
    if (in->fn != h_float || in->sk != CVM_SK_F32)
        return 0;
    switch (in->d) {
    case SpvGLSLstd450FMin:
    case SpvGLSLstd450NMin: return 1;
    case SpvGLSLstd450FMax:
    case SpvGLSLstd450NMax: return 2;
    case SpvGLSLstd450FClamp:
    case SpvGLSLstd450NClamp: return 3;
    default: return 0;
    }
}

static void pack_lane(const cvm_insn *in, uint8_t *dst, const uint8_t *src);
static cvm_result h_pack(cvm_exec *ex, const cvm_insn *in);

/* ewise.h: the kernels of h_float, h_float_f16 and h_int, and h_pack's
 * lane. */
int cvm_glsl_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                       const uint8_t *c)
{
    cvm_ew_kernel k = in->fn == h_float     ? k_float_fast
                      : in->fn == h_float_f16 ? k_float_f16
                      : in->fn == h_int       ? k_int
                                              : NULL;
    if (in->fn == h_pack) {
        if (r)
            pack_lane(in, r, a);
        return 1;
    }
    if (!k)
        return 0;
    if (r)
        k(in, r, a, b, c, in->ncomp);
    return 1;
}

static cvm_result h_modf_frexp(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_val ptr = in->b ? ex->vals[in->b] : a;
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk, k2 = (cvm_scalar_kind)in->sk2;
    unsigned es = cvm_sk_size(k), es2 = cvm_sk_size(k2);
    int frexp_op = in->d == SpvGLSLstd450Frexp || in->d == SpvGLSLstd450FrexpStruct;
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *second;
        if (in->b) {
            uint64_t addr;
            int skip;
            memcpy(&addr, CVM_LANE(ptr, l), 8);
            second = cvm_mem_access(ex, in, addr, (uint64_t)es2 * in->ncomp, 1, l, &skip);
            if (!second && !skip)
                return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        } else {
            second = CVM_LANE(r, l) + in->c;
        }
        uint8_t *first = CVM_LANE(r, l);
        for (uint32_t i = 0; i < in->ncomp; i++) {
            double x = cvm_load_as_f64(k, CVM_LANE(a, l) + (size_t)i * es);
            double v1;
            if (frexp_op) {
                int e = 0;
                if (isfinite(x)) {
                    v1 = frexp(x, &e);
                } else {
                    v1 = x;
                }
                store_f(k, first + (size_t)i * es, v1);
                if (second)
                    cvm_store_from_s64(k2, second + (size_t)i * es2, e, 0);
            } else {
                double whole;
                v1 = isinf(x) ? copysign(0.0, x) : modf(x, &whole);
                if (isinf(x))
                    whole = x;
                store_f(k, first + (size_t)i * es, v1);
                if (second)
                    store_f(k, second + (size_t)i * es, whole);
            }
        }
    }
    return CVM_SUCCESS;
}

/* ---- geometric ------------------------------------------------------------------- */

/* in->a, in->b, in->c operands; sk kind; ncomp components of the vector
 * operands. Computed in double, rounded once per result component. */
static cvm_result h_geom(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_val b = in->b ? ex->vals[in->b] : a, c = in->c ? ex->vals[in->c] : a;
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    uint32_t n = in->ncomp;
#define X(v, i) cvm_load_as_f64(k, CVM_LANE(v, l) + (size_t)(i) * es)
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *dst = CVM_LANE(r, l);
        switch (in->d) {
        case SpvGLSLstd450Length: {
            double s = 0;
            for (uint32_t i = 0; i < n; i++)
                s += X(a, i) * X(a, i);
            store_f(k, dst, n == 1 ? fabs(X(a, 0)) : sqrt(s));
            break;
        }
        case SpvGLSLstd450Distance: {
            double s = 0;
            for (uint32_t i = 0; i < n; i++) {
                double d = X(a, i) - X(b, i);
                s += d * d;
            }
            store_f(k, dst, n == 1 ? fabs(X(a, 0) - X(b, 0)) : sqrt(s));
            break;
        }
        case SpvGLSLstd450Cross: {
            double x0 = X(a, 0), x1 = X(a, 1), x2 = X(a, 2);
            double y0 = X(b, 0), y1 = X(b, 1), y2 = X(b, 2);
            store_f(k, dst, x1 * y2 - y1 * x2);
            store_f(k, dst + es, x2 * y0 - y2 * x0);
            store_f(k, dst + 2 * es, x0 * y1 - y0 * x1);
            break;
        }
        case SpvGLSLstd450Normalize: {
            double s = 0;
            for (uint32_t i = 0; i < n; i++)
                s += X(a, i) * X(a, i);
            double len = sqrt(s);
            for (uint32_t i = 0; i < n; i++)
                store_f(k, dst + (size_t)i * es, X(a, i) / len);
            break;
        }
        case SpvGLSLstd450FaceForward: { /* N, I, Nref: dot(Nref, I) < 0 ? N : -N */
            double d = 0;
            for (uint32_t i = 0; i < n; i++)
                d += X(c, i) * X(b, i);
            for (uint32_t i = 0; i < n; i++)
                store_f(k, dst + (size_t)i * es, d < 0 ? X(a, i) : -X(a, i));
            break;
        }
        case SpvGLSLstd450Reflect: { /* I, N: I - 2 dot(N, I) N */
            double d = 0;
            for (uint32_t i = 0; i < n; i++)
                d += X(b, i) * X(a, i);
            for (uint32_t i = 0; i < n; i++)
                store_f(k, dst + (size_t)i * es, X(a, i) - 2.0 * d * X(b, i));
            break;
        }
        case SpvGLSLstd450Refract: { /* I, N, eta (scalar, possibly of another float width) */
            double d = 0;
            double eta = cvm_load_as_f64((cvm_scalar_kind)in->sk2, CVM_LANE(c, l));
            for (uint32_t i = 0; i < n; i++)
                d += X(b, i) * X(a, i);
            double kk = 1.0 - eta * eta * (1.0 - d * d);
            for (uint32_t i = 0; i < n; i++)
                store_f(k, dst + (size_t)i * es,
                        kk < 0.0 ? 0.0 : eta * X(a, i) - (eta * d + sqrt(kk)) * X(b, i));
            break;
        }
        default:
            break;
        }
    }
#undef X
    return CVM_SUCCESS;
}

/* ---- pack / unpack ------------------------------------------------------------------ */

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* One lane of a pack or unpack instruction (in->d): the operand at src,
 * the result to dst. */
static void pack_lane(const cvm_insn *in, uint8_t *dst, const uint8_t *src)
{
    uint32_t v = 0;
    float f[4] = {0, 0, 0, 0};
    switch (in->d) {
    case SpvGLSLstd450PackDouble2x32:
        memcpy(dst, src, 8); /* low word first: the texts' component order */
        return;
    case SpvGLSLstd450UnpackDouble2x32:
        memcpy(dst, src, 8);
        return;
    case SpvGLSLstd450PackSnorm4x8:
    case SpvGLSLstd450PackUnorm4x8:
        memcpy(f, src, 16);
        for (int i = 0; i < 4; i++) {
            /* NaN packs as 0; it must not reach the conversion to an
             * integer, which is undefined behaviour in C for NaN */
            double x = isnan(f[i]) ? 0.0 : (double)f[i];
            int32_t q = in->d == SpvGLSLstd450PackSnorm4x8
                            ? (int32_t)round_even(clampd(x, -1.0, 1.0) * 127.0)
                            : (int32_t)round_even(clampd(x, 0.0, 1.0) * 255.0);
            v |= ((uint32_t)q & 0xffu) << (8 * i);
        }
        break;
    case SpvGLSLstd450PackSnorm2x16:
    case SpvGLSLstd450PackUnorm2x16:
        memcpy(f, src, 8);
        for (int i = 0; i < 2; i++) {
            double x = isnan(f[i]) ? 0.0 : (double)f[i]; /* as above */
            int32_t q = in->d == SpvGLSLstd450PackSnorm2x16
                            ? (int32_t)round_even(clampd(x, -1.0, 1.0) * 32767.0)
                            : (int32_t)round_even(clampd(x, 0.0, 1.0) * 65535.0);
            v |= ((uint32_t)q & 0xffffu) << (16 * i);
        }
        break;
    case SpvGLSLstd450PackHalf2x16:
        memcpy(f, src, 8);
        v = (uint32_t)cvm_f32_to_f16(f[0]) | ((uint32_t)cvm_f32_to_f16(f[1]) << 16);
        break;
    case SpvGLSLstd450UnpackSnorm2x16:
    case SpvGLSLstd450UnpackUnorm2x16:
        memcpy(&v, src, 4);
        for (int i = 0; i < 2; i++) {
            uint32_t q = (v >> (16 * i)) & 0xffffu;
            f[i] = in->d == SpvGLSLstd450UnpackSnorm2x16
                       ? (float)clampd((double)(int16_t)q / 32767.0, -1.0, 1.0)
                       : (float)((double)q / 65535.0);
        }
        memcpy(dst, f, 8);
        return;
    case SpvGLSLstd450UnpackSnorm4x8:
    case SpvGLSLstd450UnpackUnorm4x8:
        memcpy(&v, src, 4);
        for (int i = 0; i < 4; i++) {
            uint32_t q = (v >> (8 * i)) & 0xffu;
            f[i] = in->d == SpvGLSLstd450UnpackSnorm4x8
                       ? (float)clampd((double)(int8_t)q / 127.0, -1.0, 1.0)
                       : (float)((double)q / 255.0);
        }
        memcpy(dst, f, 16);
        return;
    case SpvGLSLstd450UnpackHalf2x16:
        memcpy(&v, src, 4);
        f[0] = cvm_f16_to_f32((uint16_t)(v & 0xffffu));
        f[1] = cvm_f16_to_f32((uint16_t)(v >> 16));
        memcpy(dst, f, 8);
        return;
    default:
        break;
    }
    memcpy(dst, &v, 4);
}

static cvm_result h_pack(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    CVM_FOR_ACTIVE(ex, l)
        pack_lane(in, CVM_LANE(r, l), CVM_LANE(a, l));
    return CVM_SUCCESS;
}

/* ---- Determinant, MatrixInverse --------------------------------------------------- */

/* Double-double numbers (hi + lo, |lo| <= ulp(hi)/2): products of doubles
 * and their sums kept to about 106 bits, so that a determinant of doubles
 * rounds (nearly always) to the double nearest the exact one. */
typedef struct dd {
    double hi, lo;
} dd;

static dd dd_two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    dd r = {s, (a - (s - bb)) + (b - bb)};
    return r;
}

static dd dd_add(dd a, dd b)
{
    dd s = dd_two_sum(a.hi, b.hi);
    return dd_two_sum(s.hi, s.lo + a.lo + b.lo);
}

static dd dd_mul_d(dd a, double b)
{
    double p = a.hi * b;
    double e = fma(a.hi, b, -p); /* the exact rounding error of p */
    return dd_two_sum(p, e + a.lo * b);
}

static dd dd_neg(dd a)
{
    dd r = {-a.hi, -a.lo};
    return r;
}

static double dd_value(dd a)
{
    return a.hi + a.lo;
}

/* (a / b) to about double-double precision, rounded to a double. */
static double dd_div(dd a, dd b)
{
    double q1 = a.hi / b.hi;
    if (!isfinite(q1) || (b.lo == 0.0 && a.lo == 0.0))
        return q1;
    dd r = dd_add(a, dd_neg(dd_mul_d(b, q1))); /* a - q1 * b */
    return q1 + dd_value(r) / b.hi;
}

/* The determinant of the k x k minor of m on rows[0..k) and cols[0..k),
 * by Laplace expansion along its first row. */
static dd minor_det(double m[4][4], const uint32_t *rows, const uint32_t *cols, uint32_t k)
{
    if (k == 1) {
        dd r = {m[rows[0]][cols[0]], 0.0};
        return r;
    }
    dd sum = {0.0, 0.0};
    int first = 1;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t sub[4], ns = 0;
        for (uint32_t q = 0; q < k; q++)
            if (q != j)
                sub[ns++] = cols[q];
        dd t = dd_mul_d(minor_det(m, rows + 1, sub, k - 1), m[rows[0]][cols[j]]);
        if (j & 1)
            t = dd_neg(t);
        sum = first ? t : dd_add(sum, t);
        first = 0;
    }
    return sum;
}

/* in->a the matrix; ncomp = n (columns = rows); sk the component kind.
 * Column-major register layout: element (row i, column j) at (j * n + i).
 * Determinant: Laplace expansion in double-double, rounded once (a zero is
 * +0).  MatrixInverse: the adjugate divided by the determinant, as the
 * textbook formula (and GPUs) compute it, each entry rounded once; so an
 * entry whose cofactor is zero is a zero with the determinant's sign. */
static cvm_result h_matrix(cvm_exec *ex, const cvm_insn *in)
{
    static const uint32_t all[4] = {0, 1, 2, 3};
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    uint32_t n = in->ncomp;
    CVM_FOR_ACTIVE(ex, l) {
        double m[4][4];
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                m[i][j] = cvm_load_as_f64(k, CVM_LANE(a, l) + ((size_t)j * n + i) * es);
        dd det = minor_det(m, all, all, n);
        if (in->d == SpvGLSLstd450Determinant) {
            store_f(k, CVM_LANE(r, l), dd_value(det) + 0.0); /* a zero is +0 */
            continue;
        }
        double out[16];
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++) {
                /* cofactor (i, j): the minor without row i and column j */
                uint32_t rows[4], cols[4], nr = 0, nc = 0;
                for (uint32_t q = 0; q < n; q++) {
                    if (q != i)
                        rows[nr++] = q;
                    if (q != j)
                        cols[nc++] = q;
                }
                dd c = minor_det(m, rows, cols, n - 1);
                if ((i + j) & 1)
                    c = dd_neg(c);
                if (c.hi == 0.0) /* a zero cofactor is +0, whatever its position */
                    c.hi = c.lo = 0.0;
                /* inverse (j, i) = cofactor (i, j) / det */
                out[i * n + j] = dd_div(c, det);
            }
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                store_f(k, CVM_LANE(r, l) + ((size_t)i * n + j) * es, out[i * n + j]);
    }
    return CVM_SUCCESS;
}

/* ---- lowering ------------------------------------------------------------------------- */

static const cvm_type *type_of(cvm_lower *lw, uint32_t id)
{
    return cvm_lower_type(lw, cvm_lower_type_of(lw, id));
}

static uint32_t ncomp_of(const cvm_type *t)
{
    return t->tclass == CVM_TC_VECTOR ? t->count : 1;
}

static int is_scalar_or_vector(const cvm_type *t)
{
    return t->tclass == CVM_TC_INT || t->tclass == CVM_TC_FLOAT || t->tclass == CVM_TC_VECTOR;
}

/* same component kind, class (scalar or vector) and component count */
static int same_sv(const cvm_type *a, const cvm_type *b)
{
    return is_scalar_or_vector(a) && is_scalar_or_vector(b) && a->tclass == b->tclass &&
           a->sk == b->sk && ncomp_of(a) == ncomp_of(b);
}

static int is_int_sk(unsigned k)
{
    return k >= CVM_SK_S8 && k <= CVM_SK_U64;
}

/* Frexp's exponent: an integer scalar or vector of n 32-bit components
 * (16-bit ones too: SPV_AMD_gpu_shader_int16) */
static int is_exp_sv(const cvm_type *t, uint32_t n)
{
    unsigned es = is_int_sk(t->sk) ? cvm_sk_size((cvm_scalar_kind)t->sk) : 0;
    return is_scalar_or_vector(t) && t->tclass != CVM_TC_FLOAT && (es == 4 || es == 2) &&
           ncomp_of(t) == n;
}

/* the grammar's name of instruction g, and of its operand i, for messages */
static const char *g_name(uint32_t g)
{
    const spv_extinst_desc *d = spv_grammar_glsl_std450(g);
    return d && d->name ? d->name : "GLSL.std.450 instruction";
}

static const char *g_operand(uint32_t g, uint32_t i)
{
    const spv_extinst_desc *d = spv_grammar_glsl_std450(g);
    return d && i < d->num_operands && d->operands[i].name ? d->operands[i].name : "operand";
}

uint32_t cvm_glsl_elementwise(uint32_t g, int *o_int)
{
    int dummy;
    if (!o_int)
        o_int = &dummy;
    *o_int = 0;
    switch (g) {
    case SpvGLSLstd450Round: case SpvGLSLstd450RoundEven: case SpvGLSLstd450Trunc:
    case SpvGLSLstd450FAbs: case SpvGLSLstd450FSign: case SpvGLSLstd450Floor:
    case SpvGLSLstd450Ceil: case SpvGLSLstd450Fract: case SpvGLSLstd450Radians:
    case SpvGLSLstd450Degrees: case SpvGLSLstd450Sin: case SpvGLSLstd450Cos:
    case SpvGLSLstd450Tan: case SpvGLSLstd450Asin: case SpvGLSLstd450Acos:
    case SpvGLSLstd450Atan: case SpvGLSLstd450Sinh: case SpvGLSLstd450Cosh:
    case SpvGLSLstd450Tanh: case SpvGLSLstd450Asinh: case SpvGLSLstd450Acosh:
    case SpvGLSLstd450Atanh: case SpvGLSLstd450Exp: case SpvGLSLstd450Log:
    case SpvGLSLstd450Exp2: case SpvGLSLstd450Log2: case SpvGLSLstd450Sqrt:
    case SpvGLSLstd450InverseSqrt:
        return 1;
    case SpvGLSLstd450Atan2: case SpvGLSLstd450Pow: case SpvGLSLstd450FMin:
    case SpvGLSLstd450FMax: case SpvGLSLstd450Step: case SpvGLSLstd450NMin:
    case SpvGLSLstd450NMax: case SpvGLSLstd450Ldexp:
        return 2;
    case SpvGLSLstd450FClamp: case SpvGLSLstd450FMix: case SpvGLSLstd450SmoothStep:
    case SpvGLSLstd450Fma: case SpvGLSLstd450NClamp:
        return 3;
    case SpvGLSLstd450SAbs: case SpvGLSLstd450SSign: case SpvGLSLstd450FindILsb:
    case SpvGLSLstd450FindSMsb: case SpvGLSLstd450FindUMsb:
        *o_int = 1;
        return 1;
    case SpvGLSLstd450UMin: case SpvGLSLstd450SMin: case SpvGLSLstd450UMax:
    case SpvGLSLstd450SMax:
        *o_int = 1;
        return 2;
    case SpvGLSLstd450UClamp: case SpvGLSLstd450SClamp:
        *o_int = 1;
        return 3;
    default:
        return 0;
    }
}

cvm_result cvm_lower_glsl(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    if (inst->opcode != SpvOpExtInst)
        return CVM_ERROR_NOT_FOUND;
    const cvm_program *p = cvm_lower_program(lw);
    const uint32_t *w = inst->words;
    uint32_t n = inst->word_count;
    if (n < 5)
        return cvm_lower_fail(lw, inst, CVM_ERROR_MALFORMED, "OpExtInst is too short");
    if (w[3] != p->glsl_ext || p->glsl_ext == 0)
        return CVM_SUCCESS; /* NonSemantic.*: no effect on execution */
    uint32_t g = w[4];
    const uint32_t *ops = w + 5;
    uint32_t nops = n - 5;
    const cvm_type *rt = cvm_lower_type(lw, w[1]);
    out->d = g;
    out->spv_op = SpvOpExtInst;
    if (nops < 1)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE, "GLSL.std.450 %u has no operands", g);
    const cvm_type *t0 = type_of(lw, ops[0]);
    if (t0->tclass == CVM_TC_COOPMAT || rt->tclass == CVM_TC_COOPMAT)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "GLSL.std.450 instructions take scalars and vectors, not "
                              "cooperative matrices");
    int is_int = 0;
    uint32_t want = cvm_glsl_elementwise(g, &is_int); /* 0: not element-wise */
    if (want) {
        if (nops != want)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "GLSL.std.450 %u takes %u operands, not %u", g, want, nops);
        if (!is_scalar_or_vector(rt) || !is_scalar_or_vector(t0))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "GLSL.std.450 %u on a non-numerical type", g);
        if (is_int ? !is_int_sk(t0->sk) : !cvm_sk_is_float((cvm_scalar_kind)t0->sk))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "GLSL.std.450 %u: operand component type does not suit it", g);
        /* the kernels write the result with x's component kind (floats) or
         * width (integers, whose signedness may differ), and read the other
         * operands with x's (Ldexp's exponent: its own integer kind); an
         * operand may be a scalar for a vector x (read once) */
        if (is_int ? !(is_scalar_or_vector(rt) && rt->tclass != CVM_TC_FLOAT && is_int_sk(rt->sk) &&
                       cvm_sk_size((cvm_scalar_kind)rt->sk) == cvm_sk_size((cvm_scalar_kind)t0->sk) &&
                       ncomp_of(rt) == ncomp_of(t0))
                   : !same_sv(rt, t0))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "%s: Result Type %%%u is not %s of %s %%%u", g_name(g), w[1],
                                  is_int ? "an integer type of the width and component count"
                                         : "the type",
                                  g_operand(g, 0), ops[0]);
        for (uint32_t i = 1; i < want; i++) {
            const cvm_type *ti = type_of(lw, ops[i]);
            int ok;
            if (!is_scalar_or_vector(ti))
                ok = 0;
            else if (g == SpvGLSLstd450Ldexp)
                ok = ti->tclass != CVM_TC_FLOAT && is_int_sk(ti->sk);
            else if (is_int)
                ok = ti->tclass != CVM_TC_FLOAT && is_int_sk(ti->sk) &&
                     cvm_sk_size((cvm_scalar_kind)ti->sk) == cvm_sk_size((cvm_scalar_kind)t0->sk);
            else
                ok = ti->tclass != CVM_TC_BOOL && ti->sk == t0->sk;
            if (!ok)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "%s: %s %%%u is not %s of %s %%%u", g_name(g), g_operand(g, i),
                                      ops[i],
                                      g == SpvGLSLstd450Ldexp ? "an integer scalar or vector, for"
                                      : is_int ? "an integer scalar or vector of the component width"
                                               : "a scalar or vector of the component type",
                                      g_operand(g, 0), ops[0]);
        }
        out->a = ops[0];
        out->b = want > 1 ? ops[1] : 0;
        out->c = want > 2 ? ops[2] : 0;
        CVM_TRY(cvm_ew_shape(lw, inst, out, w[1], ops, want));
        out->sk = t0->sk;
        if (is_int) {
            out->sk2 = rt->sk;
            if (cvm_sk_size((cvm_scalar_kind)rt->sk) != cvm_sk_size((cvm_scalar_kind)t0->sk))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "result and operand widths differ");
            out->fn = h_int;
        } else {
            out->sk2 = g == SpvGLSLstd450Ldexp ? type_of(lw, ops[1])->sk : t0->sk;
            if (g == SpvGLSLstd450Ldexp && cvm_sk_is_float((cvm_scalar_kind)out->sk2))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "Ldexp's exponent must be an integer");
            out->fn = t0->sk == CVM_SK_F16 && g != SpvGLSLstd450Ldexp ? h_float_f16 : h_float;
        }
        return CVM_SUCCESS;
    }
    switch (g) {
    case SpvGLSLstd450Modf:
    case SpvGLSLstd450Frexp:
    case SpvGLSLstd450ModfStruct:
    case SpvGLSLstd450FrexpStruct: {
        int ptr_form = g == SpvGLSLstd450Modf || g == SpvGLSLstd450Frexp;
        if (nops != (ptr_form ? 2u : 1u) || t0->tclass == CVM_TC_INT ||
            !is_scalar_or_vector(t0) || !cvm_sk_is_float((cvm_scalar_kind)t0->sk))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "GLSL.std.450 %u: bad operands", g);
        out->a = ops[0];
        out->sk = t0->sk;
        out->ncomp = ncomp_of(t0);
        if (ptr_form) {
            const cvm_type *pt = type_of(lw, ops[1]);
            if (pt->tclass != CVM_TC_POINTER)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "the second operand must be a pointer");
            const cvm_type *pe = cvm_lower_type(lw, pt->elem);
            if (!same_sv(rt, t0))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "%s: Result Type %%%u is not the type of x %%%u", g_name(g),
                                      w[1], ops[0]);
            if (g == SpvGLSLstd450Modf ? !same_sv(pe, t0) : !is_exp_sv(pe, out->ncomp))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "%s: %s %%%u does not point to %s %%%u", g_name(g),
                                      g_operand(g, 1), ops[1],
                                      g == SpvGLSLstd450Modf
                                          ? "the type of x"
                                          : "16- or 32-bit integers as many as the components of x",
                                      ops[0]);
            out->b = ops[1];
            out->sk2 = pe->sk;
        } else {
            if (rt->tclass != CVM_TC_STRUCT || rt->nmembers != 2)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "the result must be a two-member struct");
            const cvm_type *m0 = cvm_lower_type(lw, rt->member_types[0]);
            const cvm_type *m1 = cvm_lower_type(lw, rt->member_types[1]);
            if (!same_sv(m0, t0) ||
                (g == SpvGLSLstd450ModfStruct ? !same_sv(m1, t0) : !is_exp_sv(m1, out->ncomp)))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "%s: Result Type %%%u is not a struct of the type of x %%%u "
                                      "and %s",
                                      g_name(g), w[1], ops[0],
                                      g == SpvGLSLstd450ModfStruct
                                          ? "that type"
                                          : "16- or 32-bit integers as many as the components of x");
            out->c = rt->member_offsets[1];
            out->sk2 = m1->sk;
        }
        if (g == SpvGLSLstd450Frexp || g == SpvGLSLstd450FrexpStruct) {
            if (cvm_sk_is_float((cvm_scalar_kind)out->sk2))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "Frexp's exponent must be an integer");
        } else {
            out->sk2 = out->sk;
        }
        out->fn = h_modf_frexp;
        return CVM_SUCCESS;
    }
    case SpvGLSLstd450Length: case SpvGLSLstd450Distance: case SpvGLSLstd450Cross:
    case SpvGLSLstd450Normalize: case SpvGLSLstd450FaceForward: case SpvGLSLstd450Reflect:
    case SpvGLSLstd450Refract: {
        uint32_t need = g == SpvGLSLstd450Length || g == SpvGLSLstd450Normalize ? 1
                        : g == SpvGLSLstd450FaceForward || g == SpvGLSLstd450Refract ? 3
                                                                                      : 2;
        if (nops != need || !is_scalar_or_vector(t0) || !cvm_sk_is_float((cvm_scalar_kind)t0->sk))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "GLSL.std.450 %u: bad operands", g);
        if (g == SpvGLSLstd450Cross && ncomp_of(t0) != 3)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE, "Cross needs 3 components");
        out->a = ops[0];
        out->b = need > 1 ? ops[1] : 0;
        out->c = need > 2 ? ops[2] : 0;
        out->sk = t0->sk;
        out->sk2 = g == SpvGLSLstd450Refract ? type_of(lw, ops[2])->sk : t0->sk;
        out->ncomp = ncomp_of(t0);
        /* h_geom reads every operand (Refract's eta aside) with x's kind and
         * count, and writes a scalar of that kind (Length, Distance) or
         * x's type */
        for (uint32_t i = 1; i < need; i++) {
            const cvm_type *ti = type_of(lw, ops[i]);
            if (g == SpvGLSLstd450Refract && i == 2) {
                if (ti->tclass != CVM_TC_FLOAT)
                    return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                          "%s: %s %%%u is not a float scalar", g_name(g),
                                          g_operand(g, i), ops[i]);
                break;
            }
            if (!same_sv(ti, t0))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "%s: %s %%%u is not the type of %s %%%u", g_name(g),
                                      g_operand(g, i), ops[i], g_operand(g, 0), ops[0]);
        }
        if (g == SpvGLSLstd450Length || g == SpvGLSLstd450Distance) {
            if (rt->tclass != CVM_TC_FLOAT || rt->sk != t0->sk)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "%s: Result Type %%%u is not the component type of %s %%%u",
                                      g_name(g), w[1], g_operand(g, 0), ops[0]);
        } else if (!same_sv(rt, t0)) {
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "%s: Result Type %%%u is not the type of %s %%%u", g_name(g), w[1],
                                  g_operand(g, 0), ops[0]);
        }
        out->fn = h_geom;
        return CVM_SUCCESS;
    }
    case SpvGLSLstd450PackSnorm4x8: case SpvGLSLstd450PackUnorm4x8:
    case SpvGLSLstd450PackSnorm2x16: case SpvGLSLstd450PackUnorm2x16:
    case SpvGLSLstd450PackHalf2x16: case SpvGLSLstd450PackDouble2x32:
    case SpvGLSLstd450UnpackSnorm2x16: case SpvGLSLstd450UnpackUnorm2x16:
    case SpvGLSLstd450UnpackHalf2x16: case SpvGLSLstd450UnpackSnorm4x8:
    case SpvGLSLstd450UnpackUnorm4x8: case SpvGLSLstd450UnpackDouble2x32: {
        /* operand and result sizes fixed by the text */
        static const struct { uint32_t g, in_size, out_size; } sizes[] = {
            {SpvGLSLstd450PackSnorm4x8, 16, 4}, {SpvGLSLstd450PackUnorm4x8, 16, 4},
            {SpvGLSLstd450PackSnorm2x16, 8, 4}, {SpvGLSLstd450PackUnorm2x16, 8, 4},
            {SpvGLSLstd450PackHalf2x16, 8, 4}, {SpvGLSLstd450PackDouble2x32, 8, 8},
            {SpvGLSLstd450UnpackSnorm2x16, 4, 8}, {SpvGLSLstd450UnpackUnorm2x16, 4, 8},
            {SpvGLSLstd450UnpackHalf2x16, 4, 8}, {SpvGLSLstd450UnpackSnorm4x8, 4, 16},
            {SpvGLSLstd450UnpackUnorm4x8, 4, 16}, {SpvGLSLstd450UnpackDouble2x32, 8, 8},
        };
        for (size_t i = 0; i < CVM_ARRAY_SIZE(sizes); i++) {
            if (sizes[i].g != g)
                continue;
            if (nops != 1 || t0->size != sizes[i].in_size || rt->size != sizes[i].out_size)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "GLSL.std.450 %u: operand or result type of the wrong size", g);
        }
        out->a = ops[0];
        out->fn = h_pack;
        return CVM_SUCCESS;
    }
    case SpvGLSLstd450Determinant:
    case SpvGLSLstd450MatrixInverse: {
        const cvm_type *ct = cvm_lower_type(lw, t0->elem);
        if (nops != 1 || t0->tclass != CVM_TC_MATRIX || ct->count != t0->count ||
            t0->count < 2 || t0->count > 4 || !cvm_sk_is_float((cvm_scalar_kind)t0->sk))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "GLSL.std.450 %u needs a square float matrix of 2 to 4 columns", g);
        /* h_matrix writes a scalar of the component kind, or a matrix of
         * x's shape */
        if (g == SpvGLSLstd450Determinant) {
            if (rt->tclass != CVM_TC_FLOAT || rt->sk != t0->sk)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "Determinant: Result Type %%%u is not the component type of "
                                      "x %%%u",
                                      w[1], ops[0]);
        } else if (rt->tclass != CVM_TC_MATRIX || rt->count != t0->count ||
                   !same_sv(cvm_lower_type(lw, rt->elem), ct)) {
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "MatrixInverse: Result Type %%%u is not the type of x %%%u", w[1],
                                  ops[0]);
        }
        out->a = ops[0];
        out->sk = t0->sk;
        out->ncomp = t0->count;
        out->fn = h_matrix;
        return CVM_SUCCESS;
    }
    case SpvGLSLstd450IMix:
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED,
                              "IMix is reserved in GLSL.std.450 (it has no defined semantics)");
    default:
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED,
                              "GLSL.std.450 instruction %u is not available to compute shaders", g);
    }
}
