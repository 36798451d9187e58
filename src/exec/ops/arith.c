/* Arithmetic, bit, logical and relational instructions on scalars, vectors
 * and (element-wise) cooperative matrices.
 *
 * Floats narrower than f32 (f16, bf16, E4M3, E5M2) are computed in double and
 * rounded once to their format; double has more than 2p+2 bits for each of
 * them and for f32, so the one rounding is the correctly rounded result of
 * +, -, *, / (no double-rounding error). */
#include <math.h>
#include <string.h>

#include "exec/ops/ewise.h"

static unsigned elem_step(const cvm_insn *in, uint8_t bcast_bit, unsigned size)
{
    return (in->flags & bcast_bit) ? 0 : size;
}

static uint64_t mask_of(unsigned bytes)
{
    return bytes >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (bytes * 8)) - 1;
}

/* Sign-extends the low `bytes` of v. */
static int64_t sext(uint64_t v, unsigned bytes)
{
    if (bytes >= 8)
        return (int64_t)v;
    unsigned sh = 64 - bytes * 8;
    return (int64_t)(v << sh) >> sh;
}

static uint64_t load_bits(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    memcpy(&v, p, bytes);
    return v;
}

static void store_bits(uint8_t *p, uint64_t v, unsigned bytes)
{
    memcpy(p, &v, bytes);
}

static int is_float_op(uint32_t op)
{
    switch (op) {
    case SpvOpFNegate: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
    case SpvOpFRem: case SpvOpFMod: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
        return 1;
    default:
        return 0;
    }
}

/* Which NaN an f32 operation of two operands returns: SPIR-V leaves it open
 * (2.14), and the hardware's choice (the first operand's, on x86) would
 * follow the order a compiler gave the operands, so the kernels decide it
 * themselves, the same way in every path: the first operand's NaN, else the
 * second's, quieted; a NaN the operation made stays as it is. */
static inline uint32_t nan_pick32(uint32_t xb, uint32_t yb, uint32_t vb)
{
    int vn = (vb & 0x7fffffffu) > 0x7f800000u, xn = (xb & 0x7fffffffu) > 0x7f800000u;
    int yn = (yb & 0x7fffffffu) > 0x7f800000u;
    uint32_t pick = xn ? xb | 0x00400000u : yn ? yb | 0x00400000u : vb;
    return vn ? pick : vb;
}

/* The generic kernel: every kind, every operation of this family. */
static void k_generic(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                      const uint8_t *c, uint32_t n)
{
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    unsigned bs_size = in->sk2 != CVM_SK_COUNT ? cvm_sk_size((cvm_scalar_kind)in->sk2) : es;
    unsigned sa = elem_step(in, CVM_EW_A_BCAST, es), sb = elem_step(in, CVM_EW_B_BCAST, bs_size);
    unsigned sc = elem_step(in, CVM_EW_C_BCAST, es);
    uint32_t op = in->spv_op;
    /* OpVectorTimesScalar/OpMatrixTimesScalar of integer components (as
     * cooperative matrices allow) multiply as OpIMul does: exactly, modulo
     * 2^width, never through double. */
    int float_op = is_float_op(op) && cvm_sk_is_float(k);
    for (uint32_t i = 0; i < n; i++, a += sa, b += sb, c += sc) {
        if (float_op) {
            double x = cvm_load_as_f64(k, a), y = op == SpvOpFNegate ? 0.0 : cvm_load_as_f64(k, b);
            double v;
            switch (op) {
            case SpvOpFNegate: v = -x; break;
            case SpvOpFAdd: v = x + y; break;
            case SpvOpFSub: v = x - y; break;
            case SpvOpFDiv: v = x / y; break;
            case SpvOpFRem: v = fmod(x, y); break;
            case SpvOpFMod: {
                /* OpFMod: the sign of y */
                v = fmod(x, y);
                if (v != 0.0 && ((v < 0) != (y < 0)))
                    v += y;
                break;
            }
            default: v = x * y; break;
            }
            if (k == CVM_SK_F32) {
                /* compute f32 in f32 for + - * /: identical to rounding the
                 * double (see the file comment), but FRem/FMod need care */
                float fv = (float)v;
                uint32_t vb;
                memcpy(&vb, &fv, 4);
                if (op != SpvOpFNegate)
                    vb = nan_pick32(load_bits(a, 4), load_bits(b, 4), vb);
                memcpy(r + (size_t)i * 4, &vb, 4);
            } else {
                cvm_store_from_f64(k, r + (size_t)i * es, v, 0);
            }
            continue;
        }
        uint64_t x = load_bits(a, es), y = load_bits(b, bs_size);
        uint64_t m = mask_of(es);
        unsigned bits = es * 8;
        uint64_t v = 0;
        int is_bool_result = 0;
        switch (op) {
        case SpvOpSNegate: v = (0 - x) & m; break;
        case SpvOpIAdd: v = (x + y) & m; break;
        case SpvOpISub: v = (x - y) & m; break;
        case SpvOpIMul:
        case SpvOpVectorTimesScalar:
        case SpvOpMatrixTimesScalar: v = (x * y) & m; break;
        case SpvOpUDiv: v = (y & m) ? (x & m) / (y & m) : 0; break;
        case SpvOpUMod: v = (y & m) ? (x & m) % (y & m) : 0; break;
        case SpvOpSDiv:
        case SpvOpSRem:
        case SpvOpSMod: {
            int64_t sx = sext(x, es), sy = sext(y, es);
            int64_t q;
            if (sy == 0)
                q = 0; /* undefined in the texts; coopvm gives 0 */
            else if (sy == -1)
                q = op == SpvOpSDiv ? (int64_t)(0 - (uint64_t)sx) : 0;
            else if (op == SpvOpSDiv)
                q = sx / sy;
            else {
                q = sx % sy;
                if (op == SpvOpSMod && q != 0 && ((q < 0) != (sy < 0)))
                    q += sy;
            }
            v = (uint64_t)q & m;
            break;
        }
        case SpvOpShiftLeftLogical: {
            uint64_t s = y & mask_of(bs_size);
            v = s >= bits ? 0 : (x << s) & m;
            break;
        }
        case SpvOpShiftRightLogical: {
            uint64_t s = y & mask_of(bs_size);
            v = s >= bits ? 0 : (x & m) >> s;
            break;
        }
        case SpvOpShiftRightArithmetic: {
            uint64_t s = y & mask_of(bs_size);
            int64_t sx = sext(x, es);
            v = (uint64_t)(s >= bits ? (sx < 0 ? -1 : 0) : (sx >> s)) & m;
            break;
        }
        case SpvOpBitwiseOr: v = x | y; break;
        case SpvOpBitwiseXor: v = x ^ y; break;
        case SpvOpBitwiseAnd: v = x & y; break;
        case SpvOpNot: v = ~x & m; break;
        case SpvOpBitReverse: {
            v = 0;
            for (unsigned bi = 0; bi < bits; bi++)
                if (x & (UINT64_C(1) << bi))
                    v |= UINT64_C(1) << (bits - 1 - bi);
            break;
        }
        case SpvOpBitCount: {
            uint64_t t = x & m;
            unsigned cnt = 0;
            while (t) {
                cnt += (unsigned)(t & 1);
                t >>= 1;
            }
            v = cnt;
            break;
        }
        case SpvOpLogicalOr: v = (x | y) & 1; break;
        case SpvOpLogicalAnd: v = (x & y) & 1; break;
        case SpvOpLogicalNot: v = !(x & 1); break;
        case SpvOpLogicalEqual: v = (x & 1) == (y & 1); break;
        case SpvOpLogicalNotEqual: v = (x & 1) != (y & 1); break;
        default: {
            /* relational: bool result, operands of kind k */
            is_bool_result = 1;
            if (cvm_sk_is_float(k)) {
                double fx = cvm_load_as_f64(k, a), fy = cvm_load_as_f64(k, b);
                int un = isnan(fx) || isnan(fy);
                switch (op) {
                case SpvOpFOrdEqual: v = !un && fx == fy; break;
                case SpvOpFUnordEqual: v = un || fx == fy; break;
                case SpvOpFOrdNotEqual: v = !un && fx != fy; break;
                case SpvOpFUnordNotEqual: v = un || fx != fy; break;
                case SpvOpFOrdLessThan: v = !un && fx < fy; break;
                case SpvOpFUnordLessThan: v = un || fx < fy; break;
                case SpvOpFOrdGreaterThan: v = !un && fx > fy; break;
                case SpvOpFUnordGreaterThan: v = un || fx > fy; break;
                case SpvOpFOrdLessThanEqual: v = !un && fx <= fy; break;
                case SpvOpFUnordLessThanEqual: v = un || fx <= fy; break;
                case SpvOpFOrdGreaterThanEqual: v = !un && fx >= fy; break;
                case SpvOpFUnordGreaterThanEqual: v = un || fx >= fy; break;
                case SpvOpIsNan: v = isnan(fx) != 0; break;
                case SpvOpIsInf: v = isinf(fx) != 0; break;
                case SpvOpIsFinite: v = isfinite(fx) != 0; break;
                case SpvOpIsNormal: v = isnormal(fx) != 0; break;
                case SpvOpSignBitSet: v = signbit(fx) != 0; break;
                default: v = 0; break;
                }
            } else {
                int64_t sx = sext(x, es), sy = sext(y, es);
                uint64_t ux = x & m, uy = y & m;
                switch (op) {
                case SpvOpIEqual: v = ux == uy; break;
                case SpvOpINotEqual: v = ux != uy; break;
                case SpvOpUGreaterThan: v = ux > uy; break;
                case SpvOpSGreaterThan: v = sx > sy; break;
                case SpvOpUGreaterThanEqual: v = ux >= uy; break;
                case SpvOpSGreaterThanEqual: v = sx >= sy; break;
                case SpvOpULessThan: v = ux < uy; break;
                case SpvOpSLessThan: v = sx < sy; break;
                case SpvOpULessThanEqual: v = ux <= uy; break;
                case SpvOpSLessThanEqual: v = sx <= sy; break;
                default: v = 0; break;
                }
            }
            break;
        }
        }
        if (is_bool_result)
            r[i] = (uint8_t)v;
        else
            store_bits(r + (size_t)i * es, v, es);
    }
}

/* Fast paths for the hot 32-bit cases: the same results as k_generic, one
 * loop per operation (the operation chosen once per call, not per
 * element). */
#define K32_BODY(T, EXPR, SA, SB)                                                  \
    for (uint32_t i = 0; i < n; i++) {                                             \
        T x, y, v;                                                                 \
        memcpy(&x, a + (size_t)i * (SA), 4);                                       \
        memcpy(&y, b + (size_t)i * (SB), 4);                                       \
        v = (EXPR);                                                                \
        memcpy(r + (size_t)i * 4, &v, 4);                                          \
    }
/* f32: the NaN of the two operands as nan_pick32 chooses it */
#define KF_BODY(EXPR, SA, SB)                                                      \
    for (uint32_t i = 0; i < n; i++) {                                             \
        float x, y, v;                                                             \
        uint32_t xb, yb, vb;                                                       \
        memcpy(&x, a + (size_t)i * (SA), 4);                                       \
        memcpy(&y, b + (size_t)i * (SB), 4);                                       \
        v = (EXPR);                                                                \
        memcpy(&xb, &x, 4);                                                        \
        memcpy(&yb, &y, 4);                                                        \
        memcpy(&vb, &v, 4);                                                        \
        vb = nan_pick32(xb, yb, vb);                                               \
        memcpy(r + (size_t)i * 4, &vb, 4);                                         \
    }
#define KF_LOOP(EXPR)                                                              \
    if (sa == 4 && sb == 4)                                                        \
        KF_BODY(EXPR, 4, 4)                                                        \
    else if (sa == 4 && sb == 0)                                                   \
        KF_BODY(EXPR, 4, 0)                                                        \
    else                                                                           \
        KF_BODY(EXPR, sa, sb)
/* the common steps as constants, so that the loops vectorize: both operands
 * per element, or the second one for all (a constant) */
#define K32_LOOP(T, EXPR)                                                          \
    if (sa == 4 && sb == 4)                                                        \
        K32_BODY(T, EXPR, 4, 4)                                                    \
    else if (sa == 4 && sb == 0)                                                   \
        K32_BODY(T, EXPR, 4, 0)                                                    \
    else                                                                           \
        K32_BODY(T, EXPR, sa, sb)

static void k_fadd_f32(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                       const uint8_t *c, uint32_t n)
{
    unsigned sa = elem_step(in, CVM_EW_A_BCAST, 4), sb = elem_step(in, CVM_EW_B_BCAST, 4);
    (void)c;
    switch (in->spv_op) {
    case SpvOpFAdd: KF_LOOP(x + y) break;
    case SpvOpFSub: KF_LOOP(x - y) break;
    case SpvOpFDiv: KF_LOOP(x / y) break;
    default: KF_LOOP(x * y) break;
    }
}

/* OpSMod of 32-bit integers: the sign of the divisor. */
static uint32_t smod32(uint32_t x, uint32_t y)
{
    if (y == 0 || y == UINT32_MAX)
        return 0;
    int32_t q = (int32_t)x % (int32_t)y;
    if (q != 0 && ((q < 0) != ((int32_t)y < 0)))
        q += (int32_t)y;
    return (uint32_t)q;
}

static void k_int32(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                    const uint8_t *c, uint32_t n)
{
    unsigned sa = elem_step(in, CVM_EW_A_BCAST, 4), sb = elem_step(in, CVM_EW_B_BCAST, 4);
    (void)c;
    switch (in->spv_op) {
    case SpvOpIAdd: K32_LOOP(uint32_t, x + y) break;
    case SpvOpISub: K32_LOOP(uint32_t, x - y) break;
    case SpvOpIMul: K32_LOOP(uint32_t, x * y) break;
    case SpvOpBitwiseAnd: K32_LOOP(uint32_t, x & y) break;
    case SpvOpBitwiseOr: K32_LOOP(uint32_t, x | y) break;
    case SpvOpBitwiseXor: K32_LOOP(uint32_t, x ^ y) break;
    /* as k_generic: a zero divisor gives 0, a shift of 32 or more 0 (the
     * shift's operand is 32-bit here: see cvm_lower_arith) */
    case SpvOpUDiv: K32_LOOP(uint32_t, y ? x / y : 0) break;
    case SpvOpUMod: K32_LOOP(uint32_t, y ? x % y : 0) break;
    /* signed, whatever the operands' signedness (as k_generic): a zero
     * divisor gives 0, and -1 the negation (SDiv, wrapping) or 0 */
    case SpvOpSDiv:
        K32_LOOP(uint32_t, (uint32_t)(y == 0 ? 0u
                                      : y == UINT32_MAX ? 0u - x
                                                        : (uint32_t)((int32_t)x / (int32_t)y)))
        break;
    case SpvOpSRem:
        K32_LOOP(uint32_t, (uint32_t)(y == 0 || y == UINT32_MAX ? 0 : (int32_t)x % (int32_t)y))
        break;
    case SpvOpSMod:
        K32_LOOP(uint32_t, smod32(x, y))
        break;
    case SpvOpShiftLeftLogical: K32_LOOP(uint32_t, y >= 32 ? 0 : x << y) break;
    case SpvOpShiftRightLogical: K32_LOOP(uint32_t, y >= 32 ? 0 : x >> y) break;
    default: /* SpvOpShiftRightArithmetic */
        K32_LOOP(uint32_t, (uint32_t)(y >= 32 ? ((int32_t)x < 0 ? -1 : 0)
                                              : ((int32_t)x >> y))) break;
    }
}

/* Relational operations on 32-bit integers and f32: a bool (one byte) per
 * element.  f32 compares as k_generic's double does (the conversion is
 * exact). */
#define CMP32_BODY(T, EXPR, SA, SB)                                                \
    for (uint32_t i = 0; i < n; i++) {                                             \
        T x, y;                                                                    \
        memcpy(&x, a + (size_t)i * (SA), 4);                                       \
        memcpy(&y, b + (size_t)i * (SB), 4);                                       \
        r[i] = (uint8_t)(EXPR);                                                    \
    }
#define CMP32_LOOP(T, EXPR)                                                        \
    if (sa == 4 && sb == 4)                                                        \
        CMP32_BODY(T, EXPR, 4, 4)                                                  \
    else if (sa == 4 && sb == 0)                                                   \
        CMP32_BODY(T, EXPR, 4, 0)                                                  \
    else                                                                           \
        CMP32_BODY(T, EXPR, sa, sb)

static void k_cmp32(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                    const uint8_t *c, uint32_t n)
{
    unsigned sa = elem_step(in, CVM_EW_A_BCAST, 4), sb = elem_step(in, CVM_EW_B_BCAST, 4);
    (void)c;
    switch (in->spv_op) {
    case SpvOpIEqual: CMP32_LOOP(uint32_t, x == y) break;
    case SpvOpINotEqual: CMP32_LOOP(uint32_t, x != y) break;
    case SpvOpUGreaterThan: CMP32_LOOP(uint32_t, x > y) break;
    case SpvOpUGreaterThanEqual: CMP32_LOOP(uint32_t, x >= y) break;
    case SpvOpULessThan: CMP32_LOOP(uint32_t, x < y) break;
    case SpvOpULessThanEqual: CMP32_LOOP(uint32_t, x <= y) break;
    case SpvOpSGreaterThan: CMP32_LOOP(int32_t, x > y) break;
    case SpvOpSGreaterThanEqual: CMP32_LOOP(int32_t, x >= y) break;
    case SpvOpSLessThan: CMP32_LOOP(int32_t, x < y) break;
    case SpvOpSLessThanEqual: CMP32_LOOP(int32_t, x <= y) break;
    case SpvOpFOrdEqual: CMP32_LOOP(float, x == y) break;
    case SpvOpFUnordEqual: CMP32_LOOP(float, isnan(x) || isnan(y) || x == y) break;
    case SpvOpFOrdNotEqual: CMP32_LOOP(float, !isnan(x) && !isnan(y) && x != y) break;
    case SpvOpFUnordNotEqual: CMP32_LOOP(float, x != y) break;
    case SpvOpFOrdLessThan: CMP32_LOOP(float, x < y) break;
    case SpvOpFUnordLessThan: CMP32_LOOP(float, !(x >= y)) break;
    case SpvOpFOrdGreaterThan: CMP32_LOOP(float, x > y) break;
    case SpvOpFUnordGreaterThan: CMP32_LOOP(float, !(x <= y)) break;
    case SpvOpFOrdLessThanEqual: CMP32_LOOP(float, x <= y) break;
    case SpvOpFUnordLessThanEqual: CMP32_LOOP(float, !(x > y)) break;
    case SpvOpFOrdGreaterThanEqual: CMP32_LOOP(float, x >= y) break;
    default: /* SpvOpFUnordGreaterThanEqual */ CMP32_LOOP(float, !(x < y)) break;
    }
}

/* Logical operations on bools (one byte each, read through bit 0 as
 * k_generic reads them). */
static void k_bool(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                   const uint8_t *c, uint32_t n)
{
    unsigned sa = elem_step(in, CVM_EW_A_BCAST, 1), sb = elem_step(in, CVM_EW_B_BCAST, 1);
    (void)c;
#define KB_LOOP(EXPR)                                                                      \
    for (uint32_t i = 0; i < n; i++) {                                                     \
        unsigned x = a[(size_t)i * sa] & 1u, y = b[(size_t)i * sb] & 1u;                   \
        (void)y;                                                                           \
        r[i] = (uint8_t)(EXPR);                                                            \
    }
    switch (in->spv_op) {
    case SpvOpLogicalOr: KB_LOOP(x | y) break;
    case SpvOpLogicalAnd: KB_LOOP(x & y) break;
    case SpvOpLogicalEqual: KB_LOOP(x == y) break;
    case SpvOpLogicalNotEqual: KB_LOOP(x != y) break;
    default: /* SpvOpLogicalNot */ KB_LOOP(x ^ 1u) break;
    }
#undef KB_LOOP
}

/* f16 + - * / (and times a scalar): in f32, whose 24 bits are at least
 * 2 * 11 + 2, so rounding the f32 result to f16 gives the correctly rounded
 * f16 result, the same as k_generic's double.  Chunks through the bulk
 * conversions (F16C where the CPU has it). */
static void k_f16(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                  const uint8_t *c, uint32_t n)
{
    enum { CHUNK = 256 };
    float x[CHUNK], y[CHUNK];
    uint16_t h[CHUNK];
    int ab = (in->flags & CVM_EW_A_BCAST) != 0, bb = (in->flags & CVM_EW_B_BCAST) != 0;
    (void)c;
    for (uint32_t at = 0; at < n; at += CHUNK) {
        uint32_t m = CVM_MIN((uint32_t)CHUNK, n - at);
        const uint16_t *pa = (const uint16_t *)(const void *)(a + (ab ? 0 : (size_t)at * 2));
        const uint16_t *pb = (const uint16_t *)(const void *)(b + (bb ? 0 : (size_t)at * 2));
        cvm_f16_to_f32_n(pa, x, ab ? 1 : m);
        cvm_f16_to_f32_n(pb, y, bb ? 1 : m);
        for (uint32_t i = 1; ab && i < m; i++)
            x[i] = x[0];
        for (uint32_t i = 1; bb && i < m; i++)
            y[i] = y[0];
        switch (in->spv_op) {
        case SpvOpFAdd: for (uint32_t i = 0; i < m; i++) x[i] = x[i] + y[i]; break;
        case SpvOpFSub: for (uint32_t i = 0; i < m; i++) x[i] = x[i] - y[i]; break;
        case SpvOpFDiv: for (uint32_t i = 0; i < m; i++) x[i] = x[i] / y[i]; break;
        default: for (uint32_t i = 0; i < m; i++) x[i] = x[i] * y[i]; break;
        }
        cvm_f32_to_f16_n(x, h, m);
        memcpy(r + (size_t)at * 2, h, (size_t)m * 2);
    }
}

/* The specialised kernels run k_generic, their reference, under
 * CVM_FLAG_REFERENCE_PATHS. */
static cvm_result run_kernel(cvm_exec *ex, const cvm_insn *in, cvm_ew_kernel k)
{
    return cvm_ew_run_elementwise(ex, in, (ex->flags & CVM_FLAG_REFERENCE_PATHS) ? k_generic : k);
}

static cvm_result h_generic(cvm_exec *ex, const cvm_insn *in) { return cvm_ew_run_elementwise(ex, in, k_generic); }
static cvm_result h_f16(cvm_exec *ex, const cvm_insn *in) { return run_kernel(ex, in, k_f16); }
static cvm_result h_fadd_f32(cvm_exec *ex, const cvm_insn *in) { return run_kernel(ex, in, k_fadd_f32); }
static cvm_result h_int32(cvm_exec *ex, const cvm_insn *in) { return run_kernel(ex, in, k_int32); }
static cvm_result h_cmp32(cvm_exec *ex, const cvm_insn *in) { return run_kernel(ex, in, k_cmp32); }
static cvm_result h_bool(cvm_exec *ex, const cvm_insn *in) { return run_kernel(ex, in, k_bool); }

/* OpSelect: any type; a scalar condition picks whole objects. */
/* ewise.h: k_generic is the kernel the specialised ones agree with bit for
 * bit. */
int cvm_arith_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                        const uint8_t *c)
{
    if (in->fn != h_generic && in->fn != h_fadd_f32 && in->fn != h_int32 && in->fn != h_cmp32 &&
        in->fn != h_bool)
        return 0;
    if (r)
        k_generic(in, r, a, b, c, in->ncomp);
    return 1;
}

static cvm_result h_select(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], cnd = ex->vals[in->a], x = ex->vals[in->b], y = ex->vals[in->c];
    const cvm_type *t = &ex->prog->types[in->type];
    if (in->flags & CVM_INSN_PER_INSTANCE) {
        for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
            int chk = cvm_scope_instance_check(ex, in, i);
            if (chk < 0)
                return CVM_ERROR_DIVERGENT_COLLECTIVE;
            if (chk == 0)
                continue;
            uint32_t fl = cvm_scope_first_active(ex, in, i);
            const uint8_t *src = *CVM_LANE(cnd, fl) ? x.p + (size_t)i * x.stride : y.p + (size_t)i * y.stride;
            memcpy(r.p + (size_t)i * r.stride, src, t->size);
        }
        return CVM_SUCCESS;
    }
    if (in->ncomp > 1) { /* vector condition */
        unsigned es = t->size / in->ncomp;
        CVM_FOR_ACTIVE(ex, l) {
            const uint8_t *cp = CVM_LANE(cnd, l);
            for (uint32_t k = 0; k < in->ncomp; k++)
                memcpy(CVM_LANE(r, l) + k * es, (cp[k] ? CVM_LANE(x, l) : CVM_LANE(y, l)) + k * es, es);
        }
        return CVM_SUCCESS;
    }
    CVM_FOR_ACTIVE(ex, l)
        memcpy(CVM_LANE(r, l), *CVM_LANE(cnd, l) ? CVM_LANE(x, l) : CVM_LANE(y, l), t->size);
    return CVM_SUCCESS;
}

static cvm_result h_any_all(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    CVM_FOR_ACTIVE(ex, l) {
        const uint8_t *p = CVM_LANE(a, l);
        uint8_t v = in->spv_op == SpvOpAll;
        for (uint32_t k = 0; k < in->ncomp; k++)
            v = in->spv_op == SpvOpAll ? (uint8_t)(v & p[k]) : (uint8_t)(v | p[k]);
        *CVM_LANE(r, l) = v;
    }
    return CVM_SUCCESS;
}

/* OpBitCount of a Base whose components are wider or narrower than the
 * Result's ("The components must be wide enough to hold the unsigned Width
 * of Base"): read at in->sk, written at in->sk2. */
static cvm_result h_bitcount(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    unsigned es = cvm_sk_size((cvm_scalar_kind)in->sk);
    unsigned rs = cvm_sk_size((cvm_scalar_kind)in->sk2);
    int bcast = (in->flags & CVM_EW_A_BCAST) != 0;
    CVM_FOR_ACTIVE(ex, l) {
        for (uint32_t i = 0; i < in->ncomp; i++) {
            uint64_t x = load_bits(CVM_LANE(a, l) + (bcast ? 0 : i) * es, es);
            store_bits(CVM_LANE(r, l) + (size_t)i * rs, (uint64_t)__builtin_popcountll(x), rs);
        }
    }
    return CVM_SUCCESS;
}

/* ewise.h.  Out of line (and, by gcc, never cloned), so that h_dot and the
 * compiled tier run the same machine code: where two NaNs meet in a
 * product or a sum, x86 returns the operand the compiler put first. */
#if defined(__GNUC__) && !defined(__clang__)
#define DOT_ONE_COPY __attribute__((noinline, noclone))
#else
#define DOT_ONE_COPY __attribute__((noinline))
#endif
DOT_ONE_COPY void cvm_dot_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a,
                                    const uint8_t *b)
{
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    double s = 0;
    for (uint32_t i = 0; i < in->ncomp; i++)
        s += cvm_load_as_f64(k, a + i * es) * cvm_load_as_f64(k, b + i * es);
    cvm_store_from_f64(k, r, s, 0);
}

static cvm_result h_dot(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    CVM_FOR_ACTIVE(ex, l)
        cvm_dot_eval_lane(in, CVM_LANE(r, l), CVM_LANE(a, l), CVM_LANE(b, l));
    return CVM_SUCCESS;
}

/* Bit-field operations: Base, (Insert,) Offset, Count per component. */
static cvm_result h_bitfield(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], base = ex->vals[in->a];
    const uint32_t *ops = ex->prog->extra + in->extra;
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k), bits = es * 8;
    int insert = in->spv_op == SpvOpBitFieldInsert;
    cvm_val ins = ex->vals[ops[0]];
    cvm_val off = ex->vals[ops[insert ? 1 : 0]], cnt = ex->vals[ops[insert ? 2 : 1]];
    unsigned ins_step = insert ? es : 0;
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t o = cvm_load_as_u64((cvm_scalar_kind)in->d, CVM_LANE(off, l));
        uint64_t c = cvm_load_as_u64((cvm_scalar_kind)in->sk2, CVM_LANE(cnt, l));
        for (uint32_t i = 0; i < in->ncomp; i++) {
            uint64_t x = load_bits(CVM_LANE(base, l) + i * es, es), v;
            uint64_t fm = c >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << c) - 1;
            if (o >= bits)
                o = bits - 1; /* undefined in the texts */
            if (insert) {
                uint64_t y = load_bits(CVM_LANE(ins, l) + i * ins_step, es);
                v = (x & ~(fm << o)) | ((y & fm) << o);
            } else {
                v = (x >> o) & fm;
                if (in->spv_op == SpvOpBitFieldSExtract && c > 0 && c < 64 && (v >> (c - 1)) & 1)
                    v |= ~fm;
            }
            store_bits(CVM_LANE(r, l) + i * es, v & mask_of(es), es);
        }
    }
    return CVM_SUCCESS;
}

/* IAddCarry, ISubBorrow, UMulExtended, SMulExtended: a struct of two
 * vectors (or scalars) of the operand type. */
static cvm_result h_extended(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    unsigned es = cvm_sk_size((cvm_scalar_kind)in->sk);
    uint32_t second = in->d; /* register offset of member 1 */
    CVM_FOR_ACTIVE(ex, l) {
        for (uint32_t i = 0; i < in->ncomp; i++) {
            uint64_t x = load_bits(CVM_LANE(a, l) + i * es, es), y = load_bits(CVM_LANE(b, l) + i * es, es);
            uint64_t lo, hi;
            uint64_t m = mask_of(es);
            switch (in->spv_op) {
            case SpvOpIAddCarry: lo = (x + y) & m; hi = lo < x; break;
            case SpvOpISubBorrow: lo = (x - y) & m; hi = x < y; break;
            case SpvOpUMulExtended:
                if (es < 8) {
                    uint64_t p = x * y;
                    lo = p & m;
                    hi = (p >> (es * 8)) & m;
                } else {
                    __uint128_t p = (__uint128_t)x * y;
                    lo = (uint64_t)p;
                    hi = (uint64_t)(p >> 64);
                }
                break;
            default: {
                if (es < 8) {
                    int64_t p = sext(x, es) * sext(y, es);
                    lo = (uint64_t)p & m;
                    hi = ((uint64_t)(p >> (es * 8))) & m;
                } else {
                    __int128 p = (__int128)(int64_t)x * (int64_t)y;
                    lo = (uint64_t)p;
                    hi = (uint64_t)((unsigned __int128)p >> 64);
                }
                break;
            }
            }
            store_bits(CVM_LANE(r, l) + i * es, lo, es);
            store_bits(CVM_LANE(r, l) + second + i * es, hi, es);
        }
    }
    return CVM_SUCCESS;
}

/* Integer dot products (SPV_KHR_integer_dot_product). */
static cvm_result h_idot(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    cvm_val acc = in->c ? ex->vals[in->c] : a;
    cvm_scalar_kind ka = (cvm_scalar_kind)in->sk2, kr = (cvm_scalar_kind)in->sk;
    uint32_t op = in->spv_op;
    int packed = in->d != 0;
    CVM_FOR_ACTIVE(ex, l) {
        int64_t s = 0;
        for (uint32_t i = 0; i < in->ncomp; i++) {
            int64_t x, y;
            if (packed) {
                uint32_t pa, pb;
                memcpy(&pa, CVM_LANE(a, l), 4);
                memcpy(&pb, CVM_LANE(b, l), 4);
                uint8_t xa = (uint8_t)(pa >> (8 * i)), xb = (uint8_t)(pb >> (8 * i));
                x = (op == SpvOpUDot || op == SpvOpUDotAccSat) ? xa : (int8_t)xa;
                y = (op == SpvOpSDot || op == SpvOpSDotAccSat) ? (int8_t)xb : xb;
            } else {
                unsigned es = cvm_sk_size(ka);
                uint64_t xa = load_bits(CVM_LANE(a, l) + i * es, es), xb = load_bits(CVM_LANE(b, l) + i * es, es);
                x = (op == SpvOpUDot || op == SpvOpUDotAccSat) ? (int64_t)xa : sext(xa, es);
                y = (op == SpvOpSDot || op == SpvOpSDotAccSat) ? sext(xb, es) : (int64_t)xb;
            }
            /* (64-bit components: the products and the sum wrap, as the
             * 64-bit result's bits; computed unsigned, which C defines) */
            s = (int64_t)((uint64_t)s + (uint64_t)x * (uint64_t)y);
        }
        int sat = op == SpvOpSDotAccSat || op == SpvOpUDotAccSat || op == SpvOpSUDotAccSat;
        if (sat) {
            if (cvm_sk_is_signed_int(kr))
                cvm_store_from_s64(kr, CVM_LANE(r, l),
                                   (int64_t)((uint64_t)s +
                                             (uint64_t)cvm_load_as_s64(kr, CVM_LANE(acc, l))),
                                   1);
            else
                cvm_store_from_u64(kr, CVM_LANE(r, l), (uint64_t)s + cvm_load_as_u64(kr, CVM_LANE(acc, l)), 1);
        } else {
            cvm_store_from_s64(kr, CVM_LANE(r, l), s, 0);
        }
    }
    return CVM_SUCCESS;
}

static cvm_scalar_kind component_kind(cvm_lower *lw, uint32_t id)
{
    const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
    return (cvm_scalar_kind)t->sk;
}

/* The kernels read every operand and write the result at the width of one
 * component kind (the first operand's): a module that skipped validation
 * must not give them components of other widths, which would read or write
 * past the value slots. */
static cvm_result same_width(cvm_lower *lw, const spv_inst *in, uint32_t width_of,
                             const uint32_t *ids, uint32_t n)
{
    unsigned want = cvm_sk_size(component_kind(lw, width_of));
    for (uint32_t i = 0; i < n; i++) {
        unsigned got = cvm_sk_size(component_kind(lw, ids[i]));
        if (got != want)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "%%%u has %u-byte components where %u-byte ones are needed",
                                  ids[i], got, want);
    }
    return CVM_SUCCESS;
}

/* The scalar type of a value's type: itself, a vector's or cooperative
 * matrix's component, an OpTypeMatrix column's component; NULL for other
 * types (structs, arrays, pointers...). */
static const cvm_type *scalar_of(cvm_lower *lw, uint32_t type)
{
    const cvm_type *t = cvm_lower_type(lw, type);
    if (t->tclass == CVM_TC_MATRIX)
        t = cvm_lower_type(lw, t->elem);
    if (t->tclass == CVM_TC_VECTOR || t->tclass == CVM_TC_COOPMAT)
        t = cvm_lower_type(lw, t->elem);
    return t->tclass == CVM_TC_INT || t->tclass == CVM_TC_FLOAT || t->tclass == CVM_TC_BOOL ? t
                                                                                              : NULL;
}

/* Operands `ids` (and, unless result_bool, the Result Type) have components
 * of class `tc` (SPIR-V 3.42.13-15: "Result Type must be a scalar or vector
 * of integer type" and the like); the kernels read them as such, and the
 * compiled tier builds integer or floating-point instructions on them.  A
 * result_bool instruction (a comparison) has bool components. */
static cvm_result want_class(cvm_lower *lw, const spv_inst *in, uint8_t tc, int result_bool,
                             const uint32_t *ids, uint32_t n)
{
    static const char *const names[] = {[CVM_TC_INT] = "integer", [CVM_TC_FLOAT] = "float",
                                        [CVM_TC_BOOL] = "bool"};
    const cvm_type *r = scalar_of(lw, in->words[1]);
    uint8_t rc = result_bool ? (uint8_t)CVM_TC_BOOL : tc;
    if (!r || r->tclass != rc)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Result Type %%%u must have %s components", in->words[1], names[rc]);
    for (uint32_t i = 0; i < n; i++) {
        const cvm_type *t = scalar_of(lw, cvm_lower_type_of(lw, ids[i]));
        if (!t || t->tclass != tc)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "operand %%%u must have %s components", ids[i], names[tc]);
    }
    return CVM_SUCCESS;
}

/* The class an operation's operands have (0: not one of these;
 * OpMatrixTimesScalar is 0: SPV_KHR_cooperative_matrix takes integer
 * matrices too, and its OpTypeMatrix form is checked on its own). */
static uint8_t operand_class(uint32_t op)
{
    switch (op) {
    case SpvOpSNegate: case SpvOpNot: case SpvOpBitReverse: case SpvOpBitCount:
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv:
    case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
    case SpvOpBitwiseAnd: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
    case SpvOpShiftLeftLogical: case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan:
    case SpvOpSGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
    case SpvOpULessThan: case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpBitFieldInsert: case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract:
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
        return CVM_TC_INT;
    case SpvOpFNegate: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
    case SpvOpFRem: case SpvOpFMod: case SpvOpVectorTimesScalar:
    case SpvOpDot: case SpvOpIsNan: case SpvOpIsInf: case SpvOpIsFinite: case SpvOpIsNormal:
    case SpvOpSignBitSet:
        return CVM_TC_FLOAT;
    case SpvOpLogicalNot: case SpvOpLogicalOr: case SpvOpLogicalAnd: case SpvOpLogicalEqual:
    case SpvOpLogicalNotEqual:
        return CVM_TC_BOOL;
    default:
        return op >= SpvOpFOrdEqual && op <= SpvOpFUnordGreaterThanEqual ? (uint8_t)CVM_TC_FLOAT : 0;
    }
}

static cvm_result check_type_size(cvm_lower *lw, const spv_inst *in, const char *what,
                                  uint32_t id, uint32_t want)
{
    const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
    if (t->tclass != CVM_TC_INT || t->size != want)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s %%%u is not a %u-byte integer scalar like the Result Type", what,
                              id, want);
    return CVM_SUCCESS;
}

cvm_result cvm_lower_arith(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    uint32_t op = in->opcode;
    out->sk2 = CVM_SK_COUNT;
    uint8_t oc = operand_class(op);
    if (oc) {
        /* the value operands: all but the Result Type and id; BitField*'s
         * Offset and Count, the shifts' Shift are integers of any width */
        uint32_t nvals = in->word_count > 3 ? in->word_count - 3u : 0;
        if (op == SpvOpBitFieldInsert)
            nvals = 2;
        else if (op == SpvOpBitFieldSExtract || op == SpvOpBitFieldUExtract)
            nvals = 1;
        int cmp = (op >= SpvOpIEqual && op <= SpvOpFUnordGreaterThanEqual) ||
                  (op >= SpvOpIsNan && op <= SpvOpSignBitSet) ||
                  (op >= SpvOpLogicalEqual && op <= SpvOpLogicalNot);
        int extended = op >= SpvOpIAddCarry && op <= SpvOpSMulExtended;
        if (!extended) /* (theirs is a struct, checked below) */
            CVM_TRY(want_class(lw, in, oc, cmp, &w[3], nvals));
        else
            for (uint32_t i = 0; i < nvals; i++) {
                const cvm_type *t = scalar_of(lw, cvm_lower_type_of(lw, w[3 + i]));
                if (!t || t->tclass != oc)
                    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                          "operand %%%u must have %s components", w[3 + i],
                                          oc == CVM_TC_INT ? "integer" : "float");
            }
    }
    switch (op) {
    case SpvOpSNegate: case SpvOpFNegate: case SpvOpNot: case SpvOpBitReverse:
    case SpvOpBitCount: case SpvOpLogicalNot:
        out->a = w[3];
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 1));
        if (op != SpvOpBitCount)
            CVM_TRY(same_width(lw, in, w[3], &w[2], 1));
        out->sk = component_kind(lw, w[3]);
        out->fn = h_generic;
        if (op == SpvOpLogicalNot && out->sk == CVM_SK_BOOL)
            out->fn = h_bool;
        if (op == SpvOpBitCount &&
            cvm_sk_size(component_kind(lw, w[2])) != cvm_sk_size((cvm_scalar_kind)out->sk)) {
            if (out->flags & CVM_INSN_PER_INSTANCE)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "OpBitCount of a cooperative matrix");
            out->sk2 = component_kind(lw, w[2]);
            out->fn = h_bitcount;
        }
        return CVM_SUCCESS;
    case SpvOpIAdd: case SpvOpFAdd: case SpvOpISub: case SpvOpFSub: case SpvOpIMul:
    case SpvOpFMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpFDiv: case SpvOpUMod:
    case SpvOpSRem: case SpvOpSMod: case SpvOpFRem: case SpvOpFMod:
    case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpBitwiseAnd:
    case SpvOpLogicalOr: case SpvOpLogicalAnd: case SpvOpLogicalEqual: case SpvOpLogicalNotEqual:
    case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpShiftLeftLogical: {
        out->a = w[3];
        out->b = w[4];
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        if (rt->tclass == CVM_TC_MATRIX) {
            /* "The type of Matrix must be the same as Result Type";
             * "Scalar must have the same type as the Component Type in
             * Result Type" */
            if (cvm_lower_type_of(lw, w[3]) != w[1] ||
                cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]))->size !=
                    cvm_lower_type(lw, cvm_lower_type(lw, rt->elem)->elem)->size)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "Matrix %%%u must have the Result Type %%%u and Scalar %%%u "
                                      "its Component Type",
                                      w[3], w[1], w[4]);
            /* OpTypeMatrix times scalar: all columns' components */
            out->ncomp = rt->count * cvm_lower_type(lw, rt->elem)->count;
            out->flags |= CVM_EW_B_BCAST;
        } else {
            CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 2));
            int shift = op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic ||
                        op == SpvOpShiftLeftLogical;
            uint32_t ids[2] = {w[2], w[4]};
            CVM_TRY(same_width(lw, in, w[3], ids, shift ? 1 : 2));
        }
        out->sk = component_kind(lw, w[3]);
        if (op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic ||
            op == SpvOpShiftLeftLogical)
            out->sk2 = component_kind(lw, w[4]);
        out->fn = h_generic;
        if (out->sk == CVM_SK_F32 && (op == SpvOpFAdd || op == SpvOpFSub || op == SpvOpFMul ||
                                      op == SpvOpFDiv || op == SpvOpVectorTimesScalar ||
                                      op == SpvOpMatrixTimesScalar))
            out->fn = h_fadd_f32;
        if (out->sk == CVM_SK_F16 && (op == SpvOpFAdd || op == SpvOpFSub || op == SpvOpFMul ||
                                      op == SpvOpFDiv || op == SpvOpVectorTimesScalar ||
                                      op == SpvOpMatrixTimesScalar))
            out->fn = h_f16;
        if ((out->sk == CVM_SK_U32 || out->sk == CVM_SK_S32) &&
            (op == SpvOpIAdd || op == SpvOpISub || op == SpvOpIMul || op == SpvOpBitwiseAnd ||
             op == SpvOpBitwiseOr || op == SpvOpBitwiseXor || op == SpvOpUDiv ||
             op == SpvOpUMod || op == SpvOpSDiv || op == SpvOpSRem || op == SpvOpSMod))
            out->fn = h_int32;
        if (out->sk == CVM_SK_BOOL && (op == SpvOpLogicalOr || op == SpvOpLogicalAnd ||
                                       op == SpvOpLogicalEqual || op == SpvOpLogicalNotEqual))
            out->fn = h_bool;
        if ((out->sk == CVM_SK_U32 || out->sk == CVM_SK_S32) &&
            (out->sk2 == CVM_SK_U32 || out->sk2 == CVM_SK_S32) &&
            (op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic ||
             op == SpvOpShiftLeftLogical))
            out->fn = h_int32;
        return CVM_SUCCESS;
    }
    case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual:
    case SpvOpFOrdLessThan: case SpvOpFUnordLessThan: case SpvOpFOrdGreaterThan:
    case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual: case SpvOpFUnordLessThanEqual:
    case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual:
        out->a = w[3];
        out->b = w[4];
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 2));
        CVM_TRY(same_width(lw, in, w[3], &w[4], 1));
        out->sk = component_kind(lw, w[3]);
        out->fn = h_generic;
        /* integer comparisons of 32-bit integers, float ones of f32 (what
         * k_generic does with other pairs stays its) */
        if (((out->sk == CVM_SK_U32 || out->sk == CVM_SK_S32) && op <= SpvOpSLessThanEqual) ||
            (out->sk == CVM_SK_F32 && op >= SpvOpFOrdEqual))
            out->fn = h_cmp32;
        return CVM_SUCCESS;
    case SpvOpIsNan: case SpvOpIsInf: case SpvOpIsFinite: case SpvOpIsNormal: case SpvOpSignBitSet:
        out->a = w[3];
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 1));
        out->sk = component_kind(lw, w[3]);
        out->fn = h_generic;
        return CVM_SUCCESS;
    case SpvOpSelect: {
        const cvm_type *ct = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        out->a = w[3];
        out->b = w[4];
        out->c = w[5];
        out->ncomp = ct->tclass == CVM_TC_VECTOR ? ct->count : 1;
        /* h_select reads one bool byte per component of Condition (the
         * reader has checked that both objects are of the Result Type): a
         * module that skipped validation must give it that shape (SPIR-V,
         * OpSelect). */
        const cvm_type *cc = ct->tclass == CVM_TC_VECTOR ? cvm_lower_type(lw, ct->elem) : ct;
        if (cc->tclass != CVM_TC_BOOL ||
            (ct->tclass == CVM_TC_VECTOR && (rt->tclass != CVM_TC_VECTOR || rt->count != ct->count)))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Condition %%%u must be a bool scalar, or a bool vector with "
                                  "as many components as Result Type", w[3]);
        if (rt->tclass == CVM_TC_COOPMAT)
            out->flags = CVM_INSN_PER_INSTANCE | (rt->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
        out->fn = h_select;
        return CVM_SUCCESS;
    }
    case SpvOpAny:
    case SpvOpAll: {
        const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        if (t->tclass != CVM_TC_VECTOR || cvm_lower_type(lw, t->elem)->tclass != CVM_TC_BOOL ||
            cvm_lower_type(lw, w[1])->tclass != CVM_TC_BOOL)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Vector %%%u must be a bool vector and Result Type a bool", w[3]);
        out->a = w[3];
        out->ncomp = t->count;
        out->fn = h_any_all;
        return CVM_SUCCESS;
    }
    case SpvOpDot: {
        const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        /* "Vector 1 and Vector 2 must be vectors of the same type, and
         * their component type must be Result Type": h_dot reads both and
         * writes the result at that width */
        if (t->tclass != CVM_TC_VECTOR || t->coopvec ||
            cvm_lower_type_of(lw, w[4]) != cvm_lower_type_of(lw, w[3]) ||
            cvm_lower_type(lw, w[1])->size != cvm_lower_type(lw, t->elem)->size ||
            cvm_lower_type(lw, w[1])->tclass != CVM_TC_FLOAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Vector 1 %%%u and Vector 2 %%%u must be float vectors of one "
                                  "type whose component type is Result Type %%%u",
                                  w[3], w[4], w[1]);
        out->a = w[3];
        out->b = w[4];
        out->ncomp = t->count;
        out->sk = t->sk;
        out->fn = h_dot;
        return CVM_SUCCESS;
    }
    case SpvOpBitFieldInsert:
    case SpvOpBitFieldSExtract:
    case SpvOpBitFieldUExtract: {
        out->a = w[3];
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], op == SpvOpBitFieldInsert ? 2 : 1));
        /* Result Type, Base and Insert of one type (h_bitfield reads and
         * writes them at Base's width); Offset and Count integer scalars,
         * each read at its own width */
        uint32_t want_words = op == SpvOpBitFieldInsert ? 7 : 6;
        if (in->word_count != want_words)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
        uint32_t same[2] = {w[2], w[4]};
        CVM_TRY(same_width(lw, in, w[3], same, op == SpvOpBitFieldInsert ? 2 : 1));
        for (uint32_t k = want_words - 2; k < want_words; k++)
            if (cvm_lower_type(lw, cvm_lower_type_of(lw, w[k]))->tclass != CVM_TC_INT)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "%s %%%u must be an integer scalar",
                                      k == want_words - 1 ? "Count" : "Offset", w[k]);
        out->sk = component_kind(lw, w[3]);
        uint32_t first = 4;
        out->nextra = in->word_count - first;
        out->extra = cvm_lower_extra(lw, w + first, out->nextra);
        out->sk2 = component_kind(lw, w[in->word_count - 1]);
        out->d = component_kind(lw, w[in->word_count - 2]); /* Offset's */
        out->fn = h_bitfield;
        return CVM_SUCCESS;
    }
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended: {
        const cvm_type *st = cvm_lower_type(lw, w[1]);
        const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        if (st->tclass != CVM_TC_STRUCT || st->nmembers != 2)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "result must be a 2-member struct");
        /* "Result Type must be from OpTypeStruct ... must have two members,
         * and the two members must be the same type"; the operands of that
         * type too (h_extended reads and writes them at its width) */
        const cvm_type *m0 = cvm_lower_type(lw, st->member_types[0]);
        if (t->tclass == CVM_TC_COOPMAT || st->member_types[0] != st->member_types[1] ||
            m0->size != t->size || m0->tclass != t->tclass ||
            cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]))->size != t->size)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "the members of Result Type %%%u and Operands %%%u, %%%u must be "
                                  "of one integer scalar or vector type",
                                  w[1], w[3], w[4]);
        out->a = w[3];
        out->b = w[4];
        out->ncomp = t->tclass == CVM_TC_VECTOR ? t->count : 1;
        out->sk = t->sk;
        out->d = st->member_offsets[1];
        out->fn = h_extended;
        return CVM_SUCCESS;
    }
    case SpvOpSDot: case SpvOpUDot: case SpvOpSUDot:
    case SpvOpSDotAccSat: case SpvOpUDotAccSat: case SpvOpSUDotAccSat: {
        const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        int acc = op == SpvOpSDotAccSat || op == SpvOpUDotAccSat || op == SpvOpSUDotAccSat;
        out->a = w[3];
        out->b = w[4];
        out->c = acc ? w[5] : 0;
        out->sk = cvm_lower_type(lw, w[1])->sk;
        /* h_idot reads Vector 1 and 2 as integer vectors of one type (or
         * 32-bit packed scalars) and writes, and reads the Accumulator, at
         * the Result Type's integer width: a module that skipped validation
         * must not give it other shapes, which would go past the slots */
        uint32_t rw;
        CVM_TRY(cvm_lower_int_scalar(lw, in, w[2], "Result", &rw));
        if (acc)
            CVM_TRY(check_type_size(lw, in, "Accumulator", w[5], rw));
        const cvm_type *tb = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]));
        if (t->tclass == CVM_TC_VECTOR
                ? cvm_lower_type(lw, t->elem)->tclass != CVM_TC_INT || tb->tclass != t->tclass ||
                      tb->size != t->size || tb->count != t->count
                : t->tclass != CVM_TC_INT || t->size != 4 || tb->tclass != CVM_TC_INT ||
                      tb->size != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Vector 1 %%%u and Vector 2 %%%u must be integer vectors of one "
                                  "type or 32-bit integer scalars (packed)",
                                  w[3], w[4]);
        if (t->tclass == CVM_TC_VECTOR) {
            out->ncomp = t->count;
            out->sk2 = t->sk;
        } else {
            out->ncomp = 4; /* PackedVectorFormat4x8Bit */
            out->d = 1;
        }
        out->fn = h_idot;
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
