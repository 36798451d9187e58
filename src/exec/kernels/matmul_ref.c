/* The reference MulAdd kernel: plain loops over every kind.  It defines the
 * numerics every fast variant must reproduce bit for bit (matmul.h says
 * which applies when, and why the f32 one is the default).
 *
 * Float results, default numerics (cvm_mm_uses_f32): every element starts
 * from C's value as an f32 (exact for every kind that takes this path), then
 * for k = 0 .. K-1 in that order acc = fmaf(A[i][k], B[k][j], acc): the
 * product exact (it is for every pair of these kinds but bf16's extremes,
 * and fmaf keeps even those exact), one rounding to nearest even per step.
 * The f32 sum is rounded once into R's kind (matmul_internal.h for NaN and
 * FP8 overflow).
 *
 * Float results, double numerics (CVM_MULADD_PRECISE, and the kinds the f32
 * path does not take): every element starts from C's value as a double,
 * then adds the products A[i][k] * B[k][j] for k = 0 .. K-1 in that order,
 * each product formed and added in double, and the sum is rounded once into
 * R's kind.  For the narrow input kinds (f16, bf16, f32, e4m3, e5m2) each
 * product is exact in a double, so only the additions round.
 *
 * Integer results follow SPV_KHR_cooperative_matrix, section 3.42.13
 * (Arithmetic Instructions), OpCooperativeMatrixMulAddKHR:
 *  - "If any of the Matrix{A,B,C}SignedComponentsKHR operands are present,
 *    elements of the corresponding matrix operands are sign-extended to the
 *    precision of 'Result Type', otherwise they are zero-extended": the
 *    flags, not the component kinds, decide how bits are read;
 *  - the products of A by B are summed "at the precision of 'Result Type'";
 *    without SaturatingAccumulation the result is "the low-order N bits of
 *    the correct result", so wrapping arithmetic modulo 2^64 then cut to N
 *    bits is exact;
 *  - with SaturatingAccumulation, an overflow while forming that
 *    intermediate sum of products is undefined; the addition of the sum to
 *    C is exact and saturates "with the signedness ... of the components of
 *    'Result Type'" (r_signed).  coopvm forms the intermediate exactly (in
 *    128 bits, saturating at the 128-bit limits, which only 64-bit operands
 *    can reach) and clamps intermediate + C once: the defined cases get the
 *    text's result and the undefined ones the mathematically nearest. */
#include <math.h>
#include <string.h>

#include "exec/kernels/matmul_internal.h"

int cvm_mm_narrow_float(cvm_scalar_kind k)
{
    return k == CVM_SK_F16 || k == CVM_SK_BF16 || k == CVM_SK_F32 || k == CVM_SK_E4M3 ||
           k == CVM_SK_E5M2;
}

static int mm_f32_input(cvm_scalar_kind k)
{
    return k == CVM_SK_F16 || k == CVM_SK_BF16 || k == CVM_SK_E4M3 || k == CVM_SK_E5M2;
}

int cvm_mm_uses_f32(const cvm_muladd_desc *d)
{
    return d->mode != CVM_MULADD_PRECISE && mm_f32_input(d->a_kind) &&
           mm_f32_input(d->b_kind) && (mm_f32_input(d->c_kind) || d->c_kind == CVM_SK_F32) &&
           (mm_f32_input(d->r_kind) || d->r_kind == CVM_SK_F32);
}

unsigned cvm_mm_int_bits(cvm_scalar_kind k)
{
    return 8 * cvm_sk_size(k);
}

static uint64_t mm_mask(unsigned bits)
{
    return bits >= 64 ? UINT64_MAX : ((UINT64_C(1) << bits) - 1);
}

cvm_mm_i128 cvm_mm_int_operand(cvm_scalar_kind k, const void *p, int is_signed, unsigned rbits)
{
    unsigned w;
    uint64_t v;
    if (cvm_sk_is_float(k)) {
        v = (uint64_t)cvm_load_as_s64(k, p);
        w = 64;
    } else {
        v = cvm_load_as_u64(k, p); /* the kind's bits, extended by the kind */
        w = k == CVM_SK_BOOL ? 8 : cvm_mm_int_bits(k);
    }
    if (w > rbits)
        w = rbits;
    v &= mm_mask(w);
    if (is_signed && w < 64 && (v >> (w - 1)) & 1)
        v |= ~mm_mask(w);
    if (is_signed)
        return (cvm_mm_i128)(int64_t)v;
    return (cvm_mm_i128)v;
}

static void mm_store_bits(cvm_scalar_kind k, void *p, uint64_t v)
{
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;
    switch (cvm_sk_size(k)) {
    case 1:
        if (k == CVM_SK_BOOL)
            b1 = v != 0;
        memcpy(p, &b1, 1);
        break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

void cvm_mm_int_finish(const cvm_muladd_desc *d, size_t idx, cvm_mm_i128 prod, cvm_mm_i128 c)
{
    unsigned n = cvm_mm_int_bits(d->r_kind);
    void *out = (uint8_t *)d->r + idx * cvm_sk_size(d->r_kind);
    if (!d->saturate) {
        mm_store_bits(d->r_kind, out, (uint64_t)prod + (uint64_t)c);
        return;
    }
    /* |c| < 2^64 and |prod| <= 2^126: the sum is exact. */
    cvm_mm_i128 t = prod + c, lo, hi;
    if (d->r_signed) {
        hi = (cvm_mm_i128)(int64_t)(mm_mask(n) >> 1);
        lo = -hi - 1;
    } else {
        hi = (cvm_mm_i128)mm_mask(n);
        lo = 0;
    }
    if (t > hi)
        t = hi;
    if (t < lo)
        t = lo;
    mm_store_bits(d->r_kind, out, (uint64_t)t);
}

void cvm_mm_float_finish(const cvm_muladd_desc *d, size_t idx, double acc)
{
    void *out = (uint8_t *)d->r + idx * cvm_sk_size(d->r_kind);
    if (acc != acc) {
        static const uint64_t canon[CVM_SK_COUNT] = {
            [CVM_SK_F16] = 0x7e00u, [CVM_SK_BF16] = 0x7fc0u, [CVM_SK_F32] = 0x7fc00000u,
            [CVM_SK_F64] = UINT64_C(0x7ff8000000000000), [CVM_SK_E4M3] = 0x7fu,
            [CVM_SK_E5M2] = 0x7eu,
        };
        mm_store_bits(d->r_kind, out, canon[d->r_kind]);
        return;
    }
    cvm_store_from_f64(d->r_kind, out, acc, d->saturate);
}

void cvm_mm_int_finish_all(const cvm_muladd_desc *d, const int32_t *s, size_t lds,
                           const int64_t *row_add, const int64_t *col_add)
{
    size_t m = d->m, n = d->n;
    const uint8_t *c = d->c;
    unsigned rbits = cvm_mm_int_bits(d->r_kind);
    size_t cs = cvm_sk_size(d->c_kind);
    if (cs == 4 && rbits == 32 && !d->saturate) {
        /* 32-bit C and R without saturation: the low 32 bits of the sum,
         * which wrapping 32-bit arithmetic gives (a loop compilers
         * vectorise). */
        for (size_t i = 0; i < m; i++) {
            uint32_t ra = row_add ? (uint32_t)row_add[i] : 0;
            const uint8_t *cr = c + i * n * 4;
            uint8_t *rr = (uint8_t *)d->r + i * n * 4;
            const int32_t *sr = s + i * lds;
            for (size_t j = 0; j < n; j++) {
                uint32_t cv;
                memcpy(&cv, cr + 4 * j, 4);
                uint32_t t = (uint32_t)sr[j] + ra + (col_add ? (uint32_t)col_add[j] : 0u) + cv;
                memcpy(rr + 4 * j, &t, 4);
            }
        }
        return;
    }
    if (cs == 4 && rbits == 32) {
        /* 32-bit C and R, saturating, without the generic helpers: the same
         * arithmetic as cvm_mm_int_finish, in int64 (|P| < 2^62). */
        int64_t lo = d->r_signed ? INT32_MIN : 0;
        int64_t hi = d->r_signed ? INT32_MAX : UINT32_MAX;
        for (size_t i = 0; i < m; i++) {
            int64_t ra = row_add ? row_add[i] : 0;
            for (size_t j = 0; j < n; j++) {
                size_t idx = i * n + j;
                uint32_t cb;
                memcpy(&cb, c + idx * 4, 4);
                int64_t cv = d->c_signed ? (int64_t)(int32_t)cb : (int64_t)cb;
                int64_t t = (int64_t)s[i * lds + j] + ra + (col_add ? col_add[j] : 0) + cv;
                if (d->saturate)
                    t = t < lo ? lo : t > hi ? hi : t;
                uint32_t rb = (uint32_t)t;
                memcpy((uint8_t *)d->r + idx * 4, &rb, 4);
            }
        }
        return;
    }
    /* R may alias C with wider elements: run backward then (as the
     * reference does), so no C element is overwritten before it is read. */
    int backward = cvm_sk_size(d->r_kind) > cs;
    for (size_t t = 0; t < m * n; t++) {
        size_t idx = backward ? m * n - 1 - t : t;
        size_t i = idx / n, j = idx % n;
        int64_t p = (int64_t)s[i * lds + j] + (row_add ? row_add[i] : 0) +
                    (col_add ? col_add[j] : 0);
        cvm_mm_int_finish(d, idx, (cvm_mm_i128)p,
                          cvm_mm_int_operand(d->c_kind, c + idx * cs, d->c_signed, rbits));
    }
}

/* 128-bit addition saturating at +-(2^126): far beyond any sum of products
 * of operands up to 32 bits; only 64-bit operands can get there. */
#define MM_I128_LIMIT ((cvm_mm_i128)1 << 126)

static cvm_mm_i128 mm_sat_add(cvm_mm_i128 a, cvm_mm_i128 b)
{
    cvm_mm_i128 s = a + b; /* |a|, |b| <= 2^126: no overflow */
    if (s > MM_I128_LIMIT)
        return MM_I128_LIMIT;
    if (s < -MM_I128_LIMIT)
        return -MM_I128_LIMIT;
    return s;
}

static cvm_mm_i128 mm_sat_mul(cvm_mm_i128 a, cvm_mm_i128 b)
{
    /* |a|, |b| <= 2^64: the product fits in 129 bits; split to stay exact. */
    int neg = (a < 0) != (b < 0);
    unsigned __int128 ua = (unsigned __int128)(a < 0 ? -a : a);
    unsigned __int128 ub = (unsigned __int128)(b < 0 ? -b : b);
    unsigned __int128 lim = (unsigned __int128)MM_I128_LIMIT;
    if (ua != 0 && ub > lim / ua)
        return neg ? -MM_I128_LIMIT : MM_I128_LIMIT;
    unsigned __int128 pr = ua * ub;
    return neg ? -(cvm_mm_i128)pr : (cvm_mm_i128)pr;
}

/* Elements run forward, or backward when R's elements are wider than C's,
 * so that R aliasing C (same base) never overwrites a C element before it
 * is read. */
void cvm_muladd_reference(const cvm_muladd_desc *d)
{
    size_t m = d->m, n = d->n, kk = d->k;
    size_t as = cvm_sk_size(d->a_kind), bs = cvm_sk_size(d->b_kind);
    size_t cs = cvm_sk_size(d->c_kind), rs = cvm_sk_size(d->r_kind);
    const uint8_t *a = d->a, *b = d->b, *c = d->c;
    int backward = rs > cs;
    int is_float = cvm_sk_is_float(d->r_kind);
    int f32 = is_float && cvm_mm_uses_f32(d);
    unsigned rbits = cvm_mm_int_bits(d->r_kind);
    for (size_t t = 0; t < m * n; t++) {
        size_t idx = backward ? m * n - 1 - t : t;
        size_t i = idx / n, j = idx % n;
        if (f32) {
            /* the narrow kinds convert to f32 exactly */
            float acc = (float)cvm_load_as_f64(d->c_kind, c + idx * cs);
            for (size_t k = 0; k < kk; k++)
                acc = fmaf((float)cvm_load_as_f64(d->a_kind, a + (i * kk + k) * as),
                           (float)cvm_load_as_f64(d->b_kind, b + (k * n + j) * bs), acc);
            cvm_mm_float_finish(d, idx, (double)acc);
        } else if (is_float) {
            double acc = cvm_load_as_f64(d->c_kind, c + idx * cs);
            for (size_t k = 0; k < kk; k++) {
                double p = cvm_load_as_f64(d->a_kind, a + (i * kk + k) * as) *
                           cvm_load_as_f64(d->b_kind, b + (k * n + j) * bs);
                acc += p; /* a separate statement: never contracted into an FMA */
            }
            cvm_mm_float_finish(d, idx, acc);
        } else if (!d->saturate) {
            uint64_t acc = 0; /* modulo 2^64 */
            for (size_t k = 0; k < kk; k++) {
                uint64_t x = (uint64_t)cvm_mm_int_operand(d->a_kind, a + (i * kk + k) * as,
                                                          d->a_signed, rbits);
                uint64_t y = (uint64_t)cvm_mm_int_operand(d->b_kind, b + (k * n + j) * bs,
                                                          d->b_signed, rbits);
                acc += x * y;
            }
            cvm_mm_int_finish(d, idx, (cvm_mm_i128)acc,
                              cvm_mm_int_operand(d->c_kind, c + idx * cs, d->c_signed, rbits));
        } else {
            cvm_mm_i128 acc = 0;
            for (size_t k = 0; k < kk; k++) {
                cvm_mm_i128 x = cvm_mm_int_operand(d->a_kind, a + (i * kk + k) * as,
                                                   d->a_signed, rbits);
                cvm_mm_i128 y = cvm_mm_int_operand(d->b_kind, b + (k * n + j) * bs,
                                                   d->b_signed, rbits);
                acc = mm_sat_add(acc, mm_sat_mul(x, y));
            }
            cvm_mm_int_finish(d, idx, acc,
                              cvm_mm_int_operand(d->c_kind, c + idx * cs, d->c_signed, rbits));
        }
    }
}
