/* cvm_convert_cooperative_vector_matrix (vkConvertCooperativeVectorMatrixNV)
 * over every pair of the matrix component types, every pair of the four
 * layouts, strides tight and padded, and several shapes, with and without
 * CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS.  Every buffer is allocated at exactly
 * the size the call is given, so a read past src_size or a write past
 * *dst_size is a heap-buffer-overflow under the address sanitizer; bytes
 * the conversion must leave alone are checked too.  Checked per case:
 *   - the size query answers what this file computes: (outer - 1) * stride
 *     + inner * element size for row-/column-major, R * C * element size
 *     rounded up to 64 bytes for the optimal layouts (coopvm.h);
 *   - a conversion into exactly that many bytes succeeds and reports them
 *     written; one byte fewer gives CVM_INCOMPLETE and writes nothing; a
 *     src_size one byte short of the source's elements is refused;
 *   - every element's value, encoded by this file's own encoder, at the
 *     place the row-/column-major formulas give (an optimal destination is
 *     read back through a conversion to row-major), row/column padding
 *     untouched, an optimal layout's tail padding zero;
 *   - a pair the text does not allow is refused with nothing written.
 * The Vulkan CTS case that once overflowed (a 10 x 1 f16 matrix converted
 * to InferencingOptimal, the CTS sizing its buffer as round64(source) +
 * converted size): test_cts_matmul_layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coopvm.h"

enum { RM = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR, CM = CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR };

typedef struct ftype {
    uint32_t t;
    uint32_t size;
    int ebits, mbits; /* 0, 0: an integer type */
    int is_signed;
} ftype;

static const ftype types[] = {
    {CVM_COMPONENT_TYPE_FLOAT16, 2, 5, 10, 1},    {CVM_COMPONENT_TYPE_FLOAT32, 4, 8, 23, 1},
    {CVM_COMPONENT_TYPE_BFLOAT16, 2, 8, 7, 1},    {CVM_COMPONENT_TYPE_FLOAT_E4M3, 1, 4, 3, 1},
    {CVM_COMPONENT_TYPE_FLOAT_E5M2, 1, 5, 2, 1},  {CVM_COMPONENT_TYPE_SINT8, 1, 0, 0, 1},
    {CVM_COMPONENT_TYPE_UINT8, 1, 0, 0, 0},
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

static int is_float(const ftype *f) { return f->ebits != 0; }
static int is_fp8(const ftype *f) { return f->size == 1 && is_float(f); }

/* The element value at (r, c): integers in [-8, 8] (in [0, 16] for an
 * unsigned type), exact in every type here. */
static int value_at(const ftype *f, uint32_t r, uint32_t c)
{
    int v = (int)((r * 7u + c * 3u + 5u) % 17u);
    return f->is_signed ? v - 8 : v;
}

/* v's encoding in type f, little-endian in the low f->size bytes. */
static uint32_t encode(const ftype *f, int v)
{
    if (!is_float(f))
        return (uint32_t)(uint8_t)(int8_t)v;
    if (v == 0)
        return 0;
    uint32_t sign = v < 0, a = (uint32_t)(v < 0 ? -v : v);
    int e = 0;
    while ((a >> (e + 1)) != 0)
        e++;
    /* a = 2^e * (1 + m / 2^e): the bits below the leading one, shifted to
     * the top of the mantissa field (exact for the values used: their bits
     * below the leading one fit in mbits) */
    uint32_t low = a - (1u << e);
    uint32_t m = f->mbits >= e ? low << (f->mbits - e) : low >> (e - f->mbits);
    uint32_t bias = (1u << (f->ebits - 1)) - 1;
    return sign << (f->ebits + f->mbits) | ((uint32_t)e + bias) << f->mbits | m;
}

static size_t elem_offset(uint32_t layout, size_t stride, uint32_t es, uint32_t r, uint32_t c)
{
    return layout == RM ? r * stride + (size_t)c * es : c * stride + (size_t)r * es;
}

/* The size the conversion must write (coopvm.h). */
static size_t expected_size(uint32_t layout, uint32_t R, uint32_t C, size_t stride, uint32_t es)
{
    if (layout == RM)
        return (R - 1) * stride + (size_t)C * es;
    if (layout == CM)
        return (C - 1) * stride + (size_t)R * es;
    return ((size_t)R * C * es + 63) / 64 * 64;
}

static cvm_result convert(cvm_context *ctx, const ftype *sf, uint32_t sl, size_t ss,
                          const void *src, size_t src_size, const ftype *df, uint32_t dl, size_t ds,
                          void *dst, size_t *io_dst_size, uint32_t R, uint32_t C,
                          cvm_diagnostic *d)
{
    cvm_coopvec_convert_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.src_size = src_size;
    ci.src_data = src;
    ci.dst_size = io_dst_size;
    ci.dst_data = dst;
    ci.src_component_type = sf->t;
    ci.dst_component_type = df->t;
    ci.num_rows = R;
    ci.num_columns = C;
    ci.src_layout = sl;
    ci.src_stride = ss;
    ci.dst_layout = dl;
    ci.dst_stride = ds;
    return cvm_convert_cooperative_vector_matrix(ctx, &ci, d);
}

/* A buffer of exactly n bytes (at least one allocated), filled with `fill`. */
static uint8_t *buffer(size_t n, uint8_t fill)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    memset(p, fill, n ? n : 1);
    return p;
}

/* The source matrix of type sf in layout sl (stride ss): *o_size its
 * elements' extent, the buffer exactly that long.  An optimal source comes
 * from a conversion of the row-major one, without its padding. */
static uint8_t *make_source(cvm_context *ctx, const ftype *sf, uint32_t sl, size_t ss, uint32_t R,
                            uint32_t C, size_t *o_size)
{
    uint32_t es = sf->size;
    if (sl == RM || sl == CM) {
        size_t n = expected_size(sl, R, C, ss, es);
        uint8_t *p = buffer(n, 0xA5);
        for (uint32_t r = 0; r < R; r++)
            for (uint32_t c = 0; c < C; c++) {
                uint32_t bits = encode(sf, value_at(sf, r, c));
                memcpy(p + elem_offset(sl, ss, es, r, c), &bits, es);
            }
        *o_size = n;
        return p;
    }
    size_t rs = (size_t)C * es, rn = 0;
    uint8_t *rm = make_source(ctx, sf, RM, rs, R, C, &rn);
    size_t need = expected_size(sl, R, C, 0, es);
    uint8_t *opt = buffer(need, 0);
    cvm_diagnostic d;
    size_t got = need;
    cvm_result r = convert(ctx, sf, RM, rs, rm, rn, sf, sl, 0, opt, &got, R, C, &d);
    if (r != CVM_SUCCESS)
        fail_msg("making an optimal source: %s %s", cvm_result_string(r), d.message);
    free(rm);
    size_t n = (size_t)R * C * es; /* the elements, not the padding */
    uint8_t *p = buffer(n, 0);
    memcpy(p, opt, n);
    free(opt);
    *o_size = n;
    return p;
}

static int allowed(const ftype *sf, const ftype *df)
{
    if (sf->t == df->t)
        return 1;
    return is_float(sf) && is_float(df) &&
           (sf->t == CVM_COMPONENT_TYPE_FLOAT16 || sf->t == CVM_COMPONENT_TYPE_FLOAT32 ||
            df->t == CVM_COMPONENT_TYPE_FLOAT16 || df->t == CVM_COMPONENT_TYPE_FLOAT32);
}

static void one_case(cvm_context *ctx, const ftype *sf, uint32_t sl, uint32_t spad,
                     const ftype *df, uint32_t dl, uint32_t dpad, uint32_t R, uint32_t C)
{
    cvm_diagnostic d;
    uint32_t ses = sf->size, des = df->size;
    size_t ss = (sl == RM ? C : R) * (size_t)ses + (size_t)spad * ses;
    size_t ds = (dl == RM ? C : R) * (size_t)des + (size_t)dpad * des;
    if (sl > CM)
        ss = 0;
    if (dl > CM)
        ds = 0;
    char what[160];
    snprintf(what, sizeof(what), "%s layout %u stride %zu -> %s layout %u stride %zu, %ux%u",
             cvm_component_type_string(sf->t), sl, ss, cvm_component_type_string(df->t), dl, ds,
             R, C);
    size_t src_size = 0;
    uint8_t *src = make_source(ctx, sf, sl, ss, R, C, &src_size);
    size_t want = expected_size(dl, R, C, ds, des);

    if (!allowed(sf, df) || (is_fp8(df) && dl <= CM)) {
        uint8_t *dst = buffer(want, 0x5A);
        size_t got = want;
        cvm_result r = convert(ctx, sf, sl, ss, src, src_size, df, dl, ds, dst, &got, R, C, &d);
        cvm_result expect = allowed(sf, df) ? CVM_ERROR_INVALID_ARGUMENT : CVM_ERROR_UNSUPPORTED;
        if (r != expect || d.message[0] == '\0')
            fail_msg("%s: %s (%s), expected %s", what, cvm_result_string(r), d.message,
                     cvm_result_string(expect));
        for (size_t i = 0; i < want; i++)
            assert_int_equal(dst[i], 0x5A);
        free(dst);
        free(src);
        return;
    }

    /* the size query */
    size_t got = 12345;
    cvm_result r = convert(ctx, sf, sl, ss, NULL, 0, df, dl, ds, NULL, &got, R, C, &d);
    if (r != CVM_SUCCESS || got != want)
        fail_msg("%s: size query %s %zu (%s), expected %zu", what, cvm_result_string(r), got,
                 d.message, want);

    /* one byte short: nothing written */
    uint8_t *small = buffer(want - 1, 0x5A);
    got = want - 1;
    r = convert(ctx, sf, sl, ss, src, src_size, df, dl, ds, small, &got, R, C, &d);
    if (r != CVM_INCOMPLETE)
        fail_msg("%s: %zu bytes for %zu: %s (%s)", what, want - 1, want, cvm_result_string(r),
                 d.message);
    for (size_t i = 0; i + 1 < want; i++)
        assert_int_equal(small[i], 0x5A);
    free(small);

    /* the source one byte short: refused, nothing written */
    uint8_t *dst = buffer(want, 0x5A);
    got = want;
    r = convert(ctx, sf, sl, ss, src, src_size - 1, df, dl, ds, dst, &got, R, C, &d);
    if (r != CVM_ERROR_INVALID_ARGUMENT)
        fail_msg("%s: src_size %zu of %zu: %s", what, src_size - 1, src_size,
                 cvm_result_string(r));
    for (size_t i = 0; i < want; i++)
        assert_int_equal(dst[i], 0x5A);

    /* the conversion into exactly `want` bytes */
    got = want;
    r = convert(ctx, sf, sl, ss, src, src_size, df, dl, ds, dst, &got, R, C, &d);
    if (r != CVM_SUCCESS || got != want)
        fail_msg("%s: %s, %zu bytes written (%s), expected %zu", what, cvm_result_string(r), got,
                 d.message, want);

    /* the values, in a row-major copy of the destination (of f16 for an
     * fp8 type, which has no row-major layout: exact, the values are) */
    const uint8_t *rm = dst;
    const ftype *rf = df;
    size_t rs = ds;
    uint8_t *back = NULL;
    if (dl > CM) {
        for (size_t i = (size_t)R * C * des; i < want; i++)
            if (dst[i] != 0)
                fail_msg("%s: padding byte %zu is 0x%02x", what, i, dst[i]);
        if (is_fp8(df))
            rf = &types[0];
        rs = (size_t)C * rf->size;
        size_t bn = expected_size(RM, R, C, rs, rf->size);
        back = buffer(bn, 0);
        size_t bgot = bn;
        r = convert(ctx, df, dl, 0, dst, want, rf, RM, rs, back, &bgot, R, C, &d);
        if (r != CVM_SUCCESS)
            fail_msg("%s: reading back: %s %s", what, cvm_result_string(r), d.message);
        rm = back;
    }
    uint32_t rl = dl > CM ? (uint32_t)RM : dl;
    for (uint32_t row = 0; row < R; row++)
        for (uint32_t c = 0; c < C; c++) {
            uint32_t have = 0, exp = encode(rf, value_at(sf, row, c));
            memcpy(&have, rm + elem_offset(rl, rs, rf->size, row, c), rf->size);
            if (have != exp)
                fail_msg("%s: element (%u, %u) is 0x%x, expected 0x%x", what, row, c, have, exp);
        }
    if (dl <= CM && dpad) { /* row/column padding untouched */
        size_t outer = dl == RM ? R : C, inner = (dl == RM ? C : R) * (size_t)des;
        for (size_t o = 0; o + 1 < outer; o++)
            for (size_t b = inner; b < ds; b++)
                if (dst[o * ds + b] != 0x5A)
                    fail_msg("%s: padding byte %zu written", what, o * ds + b);
    }
    free(back);
    free(dst);
    free(src);
}

static void all_cases(uint32_t flags)
{
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.flags = flags;
    cvm_context *ctx = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    static const uint32_t shapes[][2] = {{1, 1}, {10, 1}, {1, 10}, {3, 5}, {17, 9}};
    for (size_t si = 0; si < NTYPES; si++)
        for (size_t di = 0; di < NTYPES; di++)
            for (uint32_t sl = 0; sl < 4; sl++)
                for (uint32_t dl = 0; dl < 4; dl++)
                    for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++)
                        for (uint32_t pad = 0; pad < 4; pad++) {
                            /* pad bits: 1 pads the source's lines, 2 the destination's */
                            if ((sl > CM && (pad & 1)) || (dl > CM && (pad & 2)))
                                continue;
                            one_case(ctx, &types[si], sl, (pad & 1) ? 3 : 0, &types[di], dl,
                                     (pad & 2) ? 5 : 0, shapes[k][0], shapes[k][1]);
                        }
    cvm_context_destroy(ctx);
}

static void test_all_pairs(void **state)
{
    (void)state;
    all_cases(0);
}

static void test_all_pairs_scrambled(void **state)
{
    (void)state;
    all_cases(CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS);
}

/* What the Vulkan CTS's cooperative_vector.matmul cases do with a 10 x 1
 * f16 matrix (N = 10, K = 1, InferencingOptimal): per weight set, the
 * row-major source (rows padded to 16 bytes: 160 bytes) at offset 0, the
 * converted matrix at round64(160) = 192, the set's size round64(160 +
 * converted size); several sets one after the other in one buffer, converted
 * in order.  Every conversion must stay inside its set: the last one inside
 * the buffer, and none over the next set's source. */
static void test_cts_matmul_layout(void **state)
{
    (void)state;
    cvm_context *ctx = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    const ftype *f16 = &types[0];
    enum { N = 10, K = 1, SETS = 3 };
    size_t stride = (K * 2 + 15) & ~(size_t)15, raw = stride * N;
    size_t opt = 0;
    assert_int_equal(convert(ctx, f16, RM, stride, NULL, raw, f16,
                             CVM_COOPVEC_MATRIX_LAYOUT_INFERENCING_OPTIMAL, 0, NULL, &opt, N, K,
                             &d),
                     CVM_SUCCESS);
    size_t opt_at = (raw + 63) & ~(size_t)63, set = (raw + opt + 63) & ~(size_t)63;
    assert_true(opt_at + opt <= set);
    uint8_t *buf = buffer(set * SETS, 0);
    for (int w = 0; w < SETS; w++)
        for (uint32_t r = 0; r < N; r++) {
            uint32_t bits = encode(f16, value_at(f16, r, (uint32_t)w));
            memcpy(buf + w * set + r * stride, &bits, 2);
        }
    for (int w = 0; w < SETS; w++) {
        size_t got = opt;
        assert_int_equal(convert(ctx, f16, RM, stride, buf + w * set, raw, f16,
                                 CVM_COOPVEC_MATRIX_LAYOUT_INFERENCING_OPTIMAL, 0,
                                 buf + w * set + opt_at, &got, N, K, &d),
                         CVM_SUCCESS);
    }
    /* each set's converted matrix holds its own source's values */
    for (int w = 0; w < SETS; w++) {
        uint8_t back[N * 2];
        size_t got = sizeof(back);
        assert_int_equal(convert(ctx, f16, CVM_COOPVEC_MATRIX_LAYOUT_INFERENCING_OPTIMAL, 0,
                                 buf + w * set + opt_at, opt, f16, RM, 2, back, &got, N, K, &d),
                         CVM_SUCCESS);
        for (uint32_t r = 0; r < N; r++) {
            uint16_t h;
            memcpy(&h, back + r * 2, 2);
            assert_int_equal(h, encode(f16, value_at(f16, r, (uint32_t)w)));
        }
    }
    free(buf);
    cvm_context_destroy(ctx);
}

/* Strides and sizes whose products do not fit in 64 bits: refused, never
 * wrapped into a small extent that passes the checks. */
static void test_huge_strides(void **state)
{
    (void)state;
    cvm_context *ctx = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    const ftype *f32 = &types[1];
    uint8_t src[64], dst[64];
    memset(src, 0, sizeof(src));
    memset(dst, 0x5A, sizeof(dst));
    size_t huge = (SIZE_MAX / 2 + 1) & ~(size_t)3; /* 2^63: 3 rows wrap to 2^64 + 4 */
    size_t got = sizeof(dst);
    /* the destination: size query and conversion */
    cvm_result r = convert(ctx, f32, RM, 4, src, 12, f32, RM, huge, NULL, &got, 3, 1, &d);
    assert_int_equal(r, CVM_ERROR_LIMIT);
    got = sizeof(dst);
    r = convert(ctx, f32, RM, 4, src, 12, f32, RM, huge, dst, &got, 3, 1, &d);
    assert_int_equal(r, CVM_ERROR_LIMIT);
    /* the source */
    got = sizeof(dst);
    r = convert(ctx, f32, RM, huge, src, sizeof(src), f32, RM, 4, dst, &got, 3, 1, &d);
    assert_int_equal(r, CVM_ERROR_INVALID_ARGUMENT);
    for (size_t i = 0; i < sizeof(dst); i++)
        assert_int_equal(dst[i], 0x5A);
    /* an optimal layout of 2^32 - 1 squared f32 elements: more than 2^64 bytes */
    r = convert(ctx, f32, RM, 4, src, 12, f32, CVM_COOPVEC_MATRIX_LAYOUT_INFERENCING_OPTIMAL, 0,
                NULL, &got, UINT32_MAX, UINT32_MAX, &d);
    assert_int_equal(r, CVM_ERROR_LIMIT);
    cvm_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_pairs),
        cmocka_unit_test(test_all_pairs_scrambled),
        cmocka_unit_test(test_cts_matmul_layout),
        cmocka_unit_test(test_huge_strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
