/* Tensor layouts, views and addressing (src/exec/ops/tensor_layout.*).
 *
 * Expected values are worked by hand from the texts (SPV_NV_tensor_addressing,
 * SPV_NV_cooperative_matrix2 pseudo-code, SPEC_NOTES.md); the arithmetic is in
 * the comments.  The corpus case tensor_clamp_view is modelled element by
 * element and compared with the outputs an H200 recorded.  The plan's fast
 * path is compared with the per-element reference on random inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "exec/ops/tensor_layout.h"

/* ---- helpers ------------------------------------------------------------ */

static cvm_tensor_layout mk_layout(uint32_t dim, uint32_t mode)
{
    cvm_tensor_layout t;
    assert_int_equal(cvm_tensor_layout_create(dim, mode, &t), CVM_SUCCESS);
    return t;
}

static void set_dims(cvm_tensor_layout *t, const uint32_t *d)
{
    assert_int_equal(cvm_tensor_layout_set_dimension(t, d, t->dim, t), CVM_SUCCESS);
}

static void slice(cvm_tensor_layout *t, const int32_t *off, const uint32_t *span)
{
    assert_int_equal(cvm_tensor_layout_slice(t, off, span, t->dim, t), CVM_SUCCESS);
}

static cvm_tensor_view mk_view(uint32_t dim, bool hasDimensions, const uint32_t *perm)
{
    cvm_tensor_view v;
    assert_int_equal(cvm_tensor_view_create(dim, hasDimensions, perm, dim, &v), CVM_SUCCESS);
    return v;
}

static const uint32_t ID_PERM[5] = {0, 1, 2, 3, 4};

static cvm_tensor_element addr(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                               cvm_tensor_access a, uint32_t row, uint32_t col, uint32_t N)
{
    cvm_tensor_element e;
    assert_int_equal(cvm_tensor_element_address(t, v, a, row, col, N, &e), CVM_SUCCESS);
    return e;
}

static void want_memory(cvm_tensor_element e, int64_t index)
{
    assert_int_equal(e.kind, CVM_TENSOR_ELEMENT_MEMORY);
    assert_int_equal(e.undefined, 0);
    assert_true(e.index == index);
}

static bool element_equal(const cvm_tensor_element *a, const cvm_tensor_element *b)
{
    if (a->kind != b->kind || a->undefined != b->undefined || a->index != b->index)
        return false;
    for (int d = 0; d < CVM_TENSOR_MAX_DIM; ++d)
        if (a->blockCoord[d] != b->blockCoord[d] || a->coordInBlock[d] != b->coordInBlock[d])
            return false;
    return true;
}

/* ---- initial state and operations -------------------------------------- */

static void test_layout_create_defaults(void **state)
{
    (void)state;
    cvm_tensor_layout t = mk_layout(3, CVM_TENSOR_CLAMP_CLAMP_TO_EDGE);
    assert_int_equal(t.dim, 3);
    assert_int_equal(t.clampMode, CVM_TENSOR_CLAMP_CLAMP_TO_EDGE);
    /* "layoutDimension, stride, span, and offset ... zero. The blockSize
     * elements are initialized to one. clampValue is initialized to zero." */
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(t.layoutDimension[i], 0);
        assert_int_equal(t.stride[i], 0);
        assert_int_equal(t.span[i], 0);
        assert_int_equal(t.offset[i], 0);
        assert_int_equal(t.blockSize[i], i < 3 ? 1 : 0);
    }
    assert_int_equal(t.clampValue, 0);
}

static void test_layout_create_rejects(void **state)
{
    (void)state;
    cvm_tensor_layout t;
    memset(&t, 0x5A, sizeof t);
    cvm_tensor_layout before = t;
    assert_int_equal(cvm_tensor_layout_create(0, 0, &t), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_create(6, 0, &t), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_create(2, 5, &t), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_create(2, 0, NULL), CVM_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&t, &before, sizeof t); /* untouched on error */
    for (uint32_t d = 1; d <= 5; ++d)
        for (uint32_t m = 0; m <= 4; ++m)
            assert_int_equal(cvm_tensor_layout_create(d, m, &t), CVM_SUCCESS);
}

static void test_layout_operand_counts(void **state)
{
    (void)state;
    cvm_tensor_layout t = mk_layout(3, 0), o = t;
    uint32_t u[5] = {4, 4, 4, 4, 4};
    int32_t s[5] = {0};
    /* "The number of ... operands must match the dimension of 'Result Type'." */
    assert_int_equal(cvm_tensor_layout_set_dimension(&t, u, 2, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_set_dimension(&t, u, 4, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_set_stride(&t, u, 2, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_set_block_size(&t, u, 4, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_slice(&t, s, u, 2, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_layout_set_dimension(&t, NULL, 3, &o), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_tensor_layout_set_clamp_value(NULL, 1, &o), CVM_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&o, &t, sizeof t);
    uint32_t zero_bs[3] = {1, 0, 1};
    assert_int_equal(cvm_tensor_layout_set_block_size(&t, zero_bs, 3, &o),
                     CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_tensor_layout_set_dimension(&t, u, 3, &o), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_stride(&t, u, 3, &o), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(&t, s, u, 3, &o), CVM_SUCCESS);
}

static void test_layout_set_dimension_strides(void **state)
{
    (void)state;
    /* No block size: packed row-major.  dims (2,3,4,5,6):
     * stride[4]=1, [3]=6, [2]=6*5=30, [1]=30*4=120, [0]=120*3=360. */
    cvm_tensor_layout t = mk_layout(5, 0);
    int32_t off[5] = {1, 2, 3, 4, 5};
    uint32_t sp[5] = {1, 1, 1, 1, 1};
    slice(&t, off, sp); /* offsets must be reset by SetDimension */
    set_dims(&t, (const uint32_t[]){2, 3, 4, 5, 6});
    const uint32_t want[5] = {360, 120, 30, 6, 1};
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(t.stride[i], want[i]);
        assert_int_equal(t.offset[i], 0);
        assert_int_equal(t.span[i], t.layoutDimension[i]);
    }

    /* SPEC_NOTES "layout stride": ceiling.  blockSize (1,32), dims (64,250):
     * stride[1] = 1, stride[0] = 1 * ceil(250/32) = ceil(7.8125) = 8
     * (the floor would give 7). */
    cvm_tensor_layout q = mk_layout(2, 0);
    assert_int_equal(cvm_tensor_layout_set_block_size(&q, (const uint32_t[]){1, 32}, 2, &q),
                     CVM_SUCCESS);
    set_dims(&q, (const uint32_t[]){64, 250});
    assert_int_equal(q.stride[0], 8);
    assert_int_equal(q.stride[1], 1);

    /* 3-D blocks (2,3,4), dims (5,7,9): stride[2] = 1,
     * stride[1] = ceil(9/4) = 3, stride[0] = 3 * ceil(7/3) = 3*3 = 9. */
    cvm_tensor_layout b = mk_layout(3, 0);
    assert_int_equal(cvm_tensor_layout_set_block_size(&b, (const uint32_t[]){2, 3, 4}, 3, &b),
                     CVM_SUCCESS);
    set_dims(&b, (const uint32_t[]){5, 7, 9});
    assert_int_equal(b.stride[0], 9);
    assert_int_equal(b.stride[1], 3);
    assert_int_equal(b.stride[2], 1);

    /* Order matters: dimensions first keep the strides of block size 1
     * (7*9 = 63, 9, 1); the later SetBlockSize does not recompute them. */
    cvm_tensor_layout c = mk_layout(3, 0);
    set_dims(&c, (const uint32_t[]){5, 7, 9});
    assert_int_equal(cvm_tensor_layout_set_block_size(&c, (const uint32_t[]){2, 3, 4}, 3, &c),
                     CVM_SUCCESS);
    assert_int_equal(c.stride[0], 63);
    assert_int_equal(c.stride[1], 9);
    assert_int_equal(c.stride[2], 1);

    /* uint32 state: 0x10000 * 0x10000 wraps to 0 in stride[0] of a 3-D
     * layout with dims (1, 0x10000, 0x10000). */
    cvm_tensor_layout w = mk_layout(3, 0);
    set_dims(&w, (const uint32_t[]){1, 0x10000, 0x10000});
    assert_int_equal(w.stride[1], 0x10000);
    assert_int_equal(w.stride[0], 0);
}

static void test_layout_slice_and_clamp_value(void **state)
{
    (void)state;
    cvm_tensor_layout t = mk_layout(2, CVM_TENSOR_CLAMP_CONSTANT);
    set_dims(&t, (const uint32_t[]){20, 24});
    cvm_tensor_layout a;
    /* "adding Offset<i> to offset[i], and span[i] is set to Span<i>" */
    assert_int_equal(cvm_tensor_layout_slice(&t, (const int32_t[]){2, 3},
                                             (const uint32_t[]){8, 9}, 2, &a),
                     CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(&a, (const int32_t[]){-5, 10},
                                             (const uint32_t[]){4, 5}, 2, &a),
                     CVM_SUCCESS);
    assert_int_equal(a.offset[0], -3); /* 2 + -5 */
    assert_int_equal(a.offset[1], 13); /* 3 + 10 */
    assert_int_equal(a.span[0], 4);
    assert_int_equal(a.span[1], 5);
    assert_int_equal(t.offset[0], 0); /* the input is a value, unchanged */
    /* int32 state wraps: INT32_MAX + 1 == INT32_MIN */
    cvm_tensor_layout w;
    assert_int_equal(cvm_tensor_layout_slice(&t, (const int32_t[]){INT32_MAX, 0},
                                             (const uint32_t[]){1, 1}, 2, &w),
                     CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(&w, (const int32_t[]){1, 0},
                                             (const uint32_t[]){1, 1}, 2, &w),
                     CVM_SUCCESS);
    assert_int_equal(w.offset[0], INT32_MIN);
    assert_int_equal(cvm_tensor_layout_set_clamp_value(&t, 0xDEADBEEFu, &t), CVM_SUCCESS);
    assert_int_equal(t.clampValue, 0xDEADBEEFu);
}

static void test_layout_stride_rule(void **state)
{
    (void)state;
    /* dims (10,12): Stride0 must be >= Stride1 * 12.  (48,2): 48 >= 24. */
    cvm_tensor_layout t = mk_layout(2, 0);
    set_dims(&t, (const uint32_t[]){10, 12});
    assert_true(cvm_tensor_layout_stride_rule_holds(&t)); /* implicit (12,1) */
    assert_int_equal(cvm_tensor_layout_set_stride(&t, (const uint32_t[]){48, 2}, 2, &t),
                     CVM_SUCCESS);
    assert_int_equal(t.stride[0], 48);
    assert_int_equal(t.stride[1], 2);
    assert_true(cvm_tensor_layout_stride_rule_holds(&t));
    /* (20,2): 20 < 24, the rule fails, but the operation itself succeeds. */
    assert_int_equal(cvm_tensor_layout_set_stride(&t, (const uint32_t[]){20, 2}, 2, &t),
                     CVM_SUCCESS);
    assert_false(cvm_tensor_layout_stride_rule_holds(&t));
    /* blocks (1,32), dims (64,250): need stride0 >= 1 * ceil(250/32) = 8 */
    cvm_tensor_layout b = mk_layout(2, 0);
    assert_int_equal(cvm_tensor_layout_set_block_size(&b, (const uint32_t[]){1, 32}, 2, &b),
                     CVM_SUCCESS);
    set_dims(&b, (const uint32_t[]){64, 250});
    assert_true(cvm_tensor_layout_stride_rule_holds(&b));
    assert_int_equal(cvm_tensor_layout_set_stride(&b, (const uint32_t[]){7, 1}, 2, &b),
                     CVM_SUCCESS);
    assert_false(cvm_tensor_layout_stride_rule_holds(&b));
}

static void test_view_create_and_ops(void **state)
{
    (void)state;
    cvm_tensor_view v = mk_view(3, true, (const uint32_t[]){1, 0, 2});
    assert_int_equal(v.dim, 3);
    assert_true(v.hasDimensions);
    assert_int_equal(v.permutation[0], 1);
    assert_int_equal(v.permutation[1], 0);
    assert_int_equal(v.permutation[2], 2);
    /* "viewDimension and viewStride ... zero. The clip values ... offsets of
     * 0, spans of 0xFFFFFFFF." */
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(v.viewDimension[i], 0);
        assert_int_equal(v.viewStride[i], 0);
    }
    assert_int_equal(v.clipRowOffset, 0);
    assert_int_equal(v.clipColOffset, 0);
    assert_int_equal(v.clipRowSpan, 0xFFFFFFFFu);
    assert_int_equal(v.clipColSpan, 0xFFFFFFFFu);

    /* viewStride[i] = product of Dim<i+1>..Dim<VDim-1> (SPEC_NOTES: the
     * text's LDim-1 is VDim-1): dims (4,16,4) -> (16*4, 4, 1) = (64,4,1). */
    assert_int_equal(cvm_tensor_view_set_dimension(&v, (const uint32_t[]){4, 16, 4}, 3, &v),
                     CVM_SUCCESS);
    assert_int_equal(v.viewStride[0], 64);
    assert_int_equal(v.viewStride[1], 4);
    assert_int_equal(v.viewStride[2], 1);
    assert_int_equal(v.viewDimension[1], 16);
    assert_int_equal(cvm_tensor_view_set_stride(&v, (const uint32_t[]){100, 10, 1}, 3, &v),
                     CVM_SUCCESS);
    assert_int_equal(v.viewStride[0], 100);
    assert_int_equal(cvm_tensor_view_set_clip(&v, 1, 2, 3, 4, &v), CVM_SUCCESS);
    assert_int_equal(v.clipRowOffset, 1);
    assert_int_equal(v.clipRowSpan, 2);
    assert_int_equal(v.clipColOffset, 3);
    assert_int_equal(v.clipColSpan, 4);

    cvm_tensor_view one = mk_view(1, true, ID_PERM);
    assert_int_equal(cvm_tensor_view_set_dimension(&one, (const uint32_t[]){7}, 1, &one),
                     CVM_SUCCESS);
    assert_int_equal(one.viewStride[0], 1);

    /* misuse */
    cvm_tensor_view o;
    assert_int_equal(cvm_tensor_view_create(2, false, (const uint32_t[]){0, 0}, 2, &o),
                     CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_view_create(2, false, (const uint32_t[]){0, 2}, 2, &o),
                     CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_view_create(2, false, ID_PERM, 3, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_view_create(6, false, ID_PERM, 6, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_view_create(0, false, ID_PERM, 0, &o), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_view_set_dimension(&v, (const uint32_t[]){1, 2}, 2, &o),
                     CVM_ERROR_INVALID_MODULE);
    assert_int_equal(cvm_tensor_view_set_stride(&v, ID_PERM, 4, &o), CVM_ERROR_INVALID_MODULE);
}

/* ---- clamp modes, 1-D, one matrix row: col -> coordinate col + offset --- */

/* A 1-D layout of dimension D sliced at `off` with span N: element (0,col) has
 * span coordinate col (index col % N) and tensor coordinate c = col + off. */
static cvm_tensor_layout line(uint32_t mode, uint32_t D, int32_t off, uint32_t N)
{
    cvm_tensor_layout t = mk_layout(1, mode);
    set_dims(&t, &D);
    slice(&t, &off, &N);
    return t;
}

static void test_clamp_constant(void **state)
{
    (void)state;
    /* D = 5, offset -2, 9 columns: c = -2..6; 0..4 in range. */
    cvm_tensor_layout t = line(CVM_TENSOR_CLAMP_CONSTANT, 5, -2, 9);
    for (uint32_t col = 0; col < 9; ++col) {
        int64_t c = (int64_t)col - 2;
        cvm_tensor_element e = addr(&t, NULL, CVM_TENSOR_LOAD, 0, col, 9);
        if (c < 0 || c >= 5) {
            assert_int_equal(e.kind, CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
            assert_true(e.index == 0);
        } else {
            want_memory(e, c);
        }
    }
    /* far outside on both sides */
    cvm_tensor_layout far = line(CVM_TENSOR_CLAMP_CONSTANT, 5, INT32_MIN, 3);
    assert_int_equal(addr(&far, NULL, CVM_TENSOR_LOAD, 0, 2, 3).kind,
                     CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
    far = line(CVM_TENSOR_CLAMP_CONSTANT, 5, INT32_MAX, 3);
    assert_int_equal(addr(&far, NULL, CVM_TENSOR_LOAD, 0, 2, 3).kind,
                     CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
    /* layoutDimension 0: every coordinate is out of range. */
    cvm_tensor_layout empty = line(CVM_TENSOR_CLAMP_CONSTANT, 0, 0, 3);
    assert_int_equal(addr(&empty, NULL, CVM_TENSOR_LOAD, 0, 0, 3).kind,
                     CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
}

static void test_clamp_to_edge(void **state)
{
    (void)state;
    /* D = 5, c = -2..6 -> min(max(c,0),4): 0 0 0 1 2 3 4 4 4 */
    cvm_tensor_layout t = line(CVM_TENSOR_CLAMP_CLAMP_TO_EDGE, 5, -2, 9);
    const int64_t want[9] = {0, 0, 0, 1, 2, 3, 4, 4, 4};
    for (uint32_t col = 0; col < 9; ++col)
        want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, col, 9), want[col]);
    /* layoutDimension 1: everything is 0 */
    cvm_tensor_layout one = line(CVM_TENSOR_CLAMP_CLAMP_TO_EDGE, 1, -3, 7);
    for (uint32_t col = 0; col < 7; ++col)
        want_memory(addr(&one, NULL, CVM_TENSOR_LOAD, 0, col, 7), 0);
    /* layoutDimension 0: no coordinate to clamp to; undefined -> error */
    cvm_tensor_layout zero = line(CVM_TENSOR_CLAMP_CLAMP_TO_EDGE, 0, 0, 2);
    cvm_tensor_element e;
    assert_int_equal(cvm_tensor_element_address(&zero, NULL, CVM_TENSOR_LOAD, 0, 0, 2, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
}

static void test_clamp_repeat(void **state)
{
    (void)state;
    /* D = 5, c = -2..6; OpSMod (sign of the divisor, SPEC_NOTES "remainders"):
     * smod(-2,5)=3, smod(-1,5)=4, 0..4, smod(5,5)=0, smod(6,5)=1 */
    cvm_tensor_layout t = line(CVM_TENSOR_CLAMP_REPEAT, 5, -2, 9);
    const int64_t want[9] = {3, 4, 0, 1, 2, 3, 4, 0, 1};
    for (uint32_t col = 0; col < 9; ++col)
        want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, col, 9), want[col]);
    /* c = -12..-10: -12 = -3*5 + 3 -> 3, -11 -> 4, -10 -> 0 */
    cvm_tensor_layout f = line(CVM_TENSOR_CLAMP_REPEAT, 5, -12, 3);
    want_memory(addr(&f, NULL, CVM_TENSOR_LOAD, 0, 0, 3), 3);
    want_memory(addr(&f, NULL, CVM_TENSOR_LOAD, 0, 1, 3), 4);
    want_memory(addr(&f, NULL, CVM_TENSOR_LOAD, 0, 2, 3), 0);
    /* SPEC_NOTES example: smod(-5, 20) == 15 */
    cvm_tensor_layout s = line(CVM_TENSOR_CLAMP_REPEAT, 20, -5, 1);
    want_memory(addr(&s, NULL, CVM_TENSOR_LOAD, 0, 0, 1), 15);
    /* D = 1 -> 0 */
    cvm_tensor_layout one = line(CVM_TENSOR_CLAMP_REPEAT, 1, -3, 7);
    for (uint32_t col = 0; col < 7; ++col)
        want_memory(addr(&one, NULL, CVM_TENSOR_LOAD, 0, col, 7), 0);
}

static void test_clamp_mirror(void **state)
{
    (void)state;
    /* SPEC_NOTES "MirrorRepeat formula": D = 5, period 2*5-2 = 8;
     * c = smod(c, 8); if (c >= 5) c = 8 - c.
     *   c=-8: 0          c=-2: 6 -> 2     c=-1: 7 -> 1
     *   c=0..4: itself   c=5: 5 -> 3      c=6: 6 -> 2
     *   c=7: 7 -> 1      c=8: 0           c=9: 1
     * The text's literal "(c >= dim) ? (2*dim-2-c)" with dim the loop index
     * (0) would give c >= 0 -> -2-c, negative: an address before the
     * tensor; the hardware reads slot 4/9 of tensor_clamp_view as here. */
    cvm_tensor_layout t = line(CVM_TENSOR_CLAMP_REPEAT_MIRRORED, 5, -8, 18);
    /* col 0..17 -> c = -8..9 */
    const int64_t want[18] = {0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1, 0, 1};
    for (uint32_t col = 0; col < 18; ++col)
        want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, col, 18), want[col]);
    /* SPEC_NOTES: layoutDimension == 1 (modulus 0) -> 0 */
    cvm_tensor_layout one = line(CVM_TENSOR_CLAMP_REPEAT_MIRRORED, 1, -3, 7);
    for (uint32_t col = 0; col < 7; ++col)
        want_memory(addr(&one, NULL, CVM_TENSOR_LOAD, 0, col, 7), 0);
    /* D = 2: period 2: c=-1 -> 1, c=2 -> 0, c=3 -> 1 */
    cvm_tensor_layout two = line(CVM_TENSOR_CLAMP_REPEAT_MIRRORED, 2, -1, 4);
    want_memory(addr(&two, NULL, CVM_TENSOR_LOAD, 0, 0, 4), 1);
    want_memory(addr(&two, NULL, CVM_TENSOR_LOAD, 0, 1, 4), 0);
    want_memory(addr(&two, NULL, CVM_TENSOR_LOAD, 0, 2, 4), 1);
    want_memory(addr(&two, NULL, CVM_TENSOR_LOAD, 0, 3, 4), 0);
    cvm_tensor_element e;
    cvm_tensor_layout zero = line(CVM_TENSOR_CLAMP_REPEAT_MIRRORED, 0, 0, 1);
    assert_int_equal(cvm_tensor_element_address(&zero, NULL, CVM_TENSOR_LOAD, 0, 0, 1, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
    zero = line(CVM_TENSOR_CLAMP_REPEAT, 0, 0, 1);
    assert_int_equal(cvm_tensor_element_address(&zero, NULL, CVM_TENSOR_LOAD, 0, 0, 1, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
}

static void test_clamp_undefined_load(void **state)
{
    (void)state;
    /* Undefined: the coordinate is used as it is and the element flagged.
     * D = 5, stride 3 (explicit): c = -2 -> index -6, c = 6 -> 18. */
    cvm_tensor_layout t = line(CVM_TENSOR_CLAMP_UNDEFINED, 5, -2, 9);
    assert_int_equal(cvm_tensor_layout_set_stride(&t, (const uint32_t[]){3}, 1, &t), CVM_SUCCESS);
    cvm_tensor_element e = addr(&t, NULL, CVM_TENSOR_LOAD, 0, 0, 9);
    assert_int_equal(e.kind, CVM_TENSOR_ELEMENT_MEMORY);
    assert_int_equal(e.undefined, 1);
    assert_true(e.index == -6);
    assert_int_equal(e.blockCoord[0], (uint32_t)-2);
    e = addr(&t, NULL, CVM_TENSOR_LOAD, 0, 8, 9);
    assert_int_equal(e.undefined, 1);
    assert_true(e.index == 18);
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, 4, 9), 6); /* c = 2, in range */
}

static void test_stores_out_of_range_dropped(void **state)
{
    (void)state;
    /* SPEC_NOTES "stores with a clamp mode": every out-of-range store is
     * dropped, whatever the mode; in-range stores are unaffected. */
    for (uint32_t mode = 0; mode <= 4; ++mode) {
        cvm_tensor_layout t = line(mode, 5, -2, 9);
        for (uint32_t col = 0; col < 9; ++col) {
            int64_t c = (int64_t)col - 2;
            cvm_tensor_element e = addr(&t, NULL, CVM_TENSOR_STORE, 0, col, 9);
            if (c < 0 || c >= 5) {
                assert_int_equal(e.kind, CVM_TENSOR_ELEMENT_DROPPED);
                assert_int_equal(e.undefined, mode == CVM_TENSOR_CLAMP_UNDEFINED);
            } else {
                want_memory(e, c);
            }
        }
        /* D = 0 is no error for a store: nothing to clamp, just dropped */
        cvm_tensor_layout z = line(mode, 0, 0, 1);
        assert_int_equal(addr(&z, NULL, CVM_TENSOR_STORE, 0, 0, 1).kind,
                         CVM_TENSOR_ELEMENT_DROPPED);
    }
}

/* ---- 2-D and N-D ---------------------------------------------------------- */

static void test_2d_constant_tile(void **state)
{
    (void)state;
    /* dims (20,24) -> strides (24,1); slice (12,16, 15,16); 16x16 matrix.
     * (r,c) -> coordinate (r+12, c+15): in range iff r < 8 and c < 9.
     * (7,8) -> 19*24 + 23 = 479; (0,0) -> 12*24 + 15 = 303. */
    cvm_tensor_layout t = mk_layout(2, CVM_TENSOR_CLAMP_CONSTANT);
    set_dims(&t, (const uint32_t[]){20, 24});
    slice(&t, (const int32_t[]){12, 15}, (const uint32_t[]){16, 16});
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 7, 8, 16), 479);
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, 0, 16), 303);
    assert_int_equal(addr(&t, NULL, CVM_TENSOR_LOAD, 8, 0, 16).kind,
                     CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
    assert_int_equal(addr(&t, NULL, CVM_TENSOR_LOAD, 0, 9, 16).kind,
                     CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
    /* Constant never yields MEMORY for an out-of-range coordinate. */
    cvm_tensor_element plan[256];
    assert_int_equal(cvm_tensor_plan(&t, NULL, CVM_TENSOR_LOAD, 16, 16, plan), CVM_SUCCESS);
    int mem = 0;
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 16; ++c) {
            bool in = r < 8 && c < 9;
            assert_int_equal(plan[r * 16 + c].kind,
                             in ? CVM_TENSOR_ELEMENT_MEMORY : CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
            if (in) {
                assert_true(plan[r * 16 + c].index == (int64_t)(r + 12) * 24 + (c + 15));
                ++mem;
            }
        }
    assert_int_equal(mem, 8 * 9);
}

static void test_nd_packed_and_sliced(void **state)
{
    (void)state;
    /* 5-D dims (2,3,4,5,6), strides (360,120,30,6,1).  A 120 x 6 matrix
     * covers the whole tensor.  (57,4): index 57*6+4 = 346, span digits
     * 346%6=4, 57%5=2, 11%4=3, 2%3=2, 0%2=0 -> (0,2,3,2,4) ->
     * 0*360 + 2*120 + 3*30 + 2*6 + 4 = 346. */
    cvm_tensor_layout t = mk_layout(5, CVM_TENSOR_CLAMP_CONSTANT);
    set_dims(&t, (const uint32_t[]){2, 3, 4, 5, 6});
    cvm_tensor_element e = addr(&t, NULL, CVM_TENSOR_LOAD, 57, 4, 6);
    want_memory(e, 346);
    const uint32_t bc[5] = {0, 2, 3, 2, 4};
    for (int d = 0; d < 5; ++d) {
        assert_int_equal(e.blockCoord[d], bc[d]);
        assert_int_equal(e.coordInBlock[d], 0);
    }
    /* Slice offsets (1,1,0,2,0) spans (1,2,4,3,6): a 24 x 6 matrix.
     * (13,5): index 13*6+5 = 83; digits 83%6=5 (q 13), 13%3=1 (q 4),
     * 4%4=0 (q 1), 1%2=1 (q 0), 0%1=0 -> span (0,1,0,1,5) -> tensor
     * (1,2,0,3,5) -> 360 + 240 + 0 + 18 + 5 = 623. */
    slice(&t, (const int32_t[]){1, 1, 0, 2, 0}, (const uint32_t[]){1, 2, 4, 3, 6});
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 13, 5, 6), 623);
    /* (0,0): span (0,0,0,0,0) -> tensor = offsets (1,1,0,2,0) ->
     * 360 + 120 + 0 + 2*6 + 0 = 492. */
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, 0, 6), 492);
}

static void test_1d_layout_matrix(void **state)
{
    (void)state;
    /* 1-D dims 100, span 100, 4 x 8 matrix: (r,c) -> 8r + c. (3,7) -> 31. */
    cvm_tensor_layout t = mk_layout(1, 0);
    set_dims(&t, (const uint32_t[]){100});
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 3, 7, 8), 31);
    /* offset 10, span 5 (smaller than the matrix): (r,c) -> (8r+c) % 5 + 10.
     * (3,7): 31 % 5 = 1 -> 11. (1,2): 10 % 5 = 0 -> 10. */
    slice(&t, (const int32_t[]){10}, (const uint32_t[]){5});
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 3, 7, 8), 11);
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 1, 2, 8), 10);
}

static void test_span_wraps(void **state)
{
    (void)state;
    /* dims (20,24), slice (0,2, 0,3): spans (2,3); a 4x4 matrix.
     * (1,2): index 6 -> 6%3=0, 6/3=2 -> 2%2=0 -> (0,0) -> 0.
     * (2,3): 11 -> 11%3=2, 11/3=3 -> 3%2=1 -> (1,2) -> 24+2 = 26.
     * (0,0) and (1,2) address the same element. */
    cvm_tensor_layout t = mk_layout(2, 0);
    set_dims(&t, (const uint32_t[]){20, 24});
    slice(&t, (const int32_t[]){0, 0}, (const uint32_t[]){2, 3});
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 1, 2, 4), 0);
    want_memory(addr(&t, NULL, CVM_TENSOR_LOAD, 0, 0, 4), 0);
    want_memory(addr(&t, NULL, CVM_TENSOR_STORE, 2, 3, 4), 26);
    /* a zero span is a division by zero: undefined, reported */
    slice(&t, (const int32_t[]){0, 0}, (const uint32_t[]){0, 3});
    cvm_tensor_element e;
    assert_int_equal(cvm_tensor_element_address(&t, NULL, CVM_TENSOR_LOAD, 0, 0, 4, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
}

static void test_blocks(void **state)
{
    (void)state;
    /* decode_q4_gemm: blocks (1,32), dims (64,256) -> strides (8,1);
     * slice (16,16, 64,32).  (3,5) -> coordinate (19, 69): blockCoord
     * (19, 69/32 = 2), coordInBlock (0, 69%32 = 5), index 19*8 + 2 = 154. */
    cvm_tensor_layout t = mk_layout(2, 0);
    assert_int_equal(cvm_tensor_layout_set_block_size(&t, (const uint32_t[]){1, 32}, 2, &t),
                     CVM_SUCCESS);
    set_dims(&t, (const uint32_t[]){64, 256});
    slice(&t, (const int32_t[]){16, 64}, (const uint32_t[]){16, 32});
    cvm_tensor_element e = addr(&t, NULL, CVM_TENSOR_LOAD, 3, 5, 32);
    want_memory(e, 154);
    assert_int_equal(e.blockCoord[0], 19);
    assert_int_equal(e.blockCoord[1], 2);
    assert_int_equal(e.coordInBlock[0], 0);
    assert_int_equal(e.coordInBlock[1], 5);

    /* 2-D blocks (2,4), dims (6,10): strides (ceil(10/4) = 3, 1).
     * A 6 x 10 matrix over the whole tensor: (5,9) -> blockCoord (2,2),
     * coordInBlock (1,1), index 2*3 + 2 = 8.  (4,3) -> (2,0),(0,3) -> 6. */
    cvm_tensor_layout b = mk_layout(2, CVM_TENSOR_CLAMP_CLAMP_TO_EDGE);
    assert_int_equal(cvm_tensor_layout_set_block_size(&b, (const uint32_t[]){2, 4}, 2, &b),
                     CVM_SUCCESS);
    set_dims(&b, (const uint32_t[]){6, 10});
    e = addr(&b, NULL, CVM_TENSOR_LOAD, 5, 9, 10);
    want_memory(e, 8);
    assert_int_equal(e.blockCoord[0], 2);
    assert_int_equal(e.blockCoord[1], 2);
    assert_int_equal(e.coordInBlock[0], 1);
    assert_int_equal(e.coordInBlock[1], 1);
    e = addr(&b, NULL, CVM_TENSOR_LOAD, 4, 3, 10);
    want_memory(e, 6);
    assert_int_equal(e.coordInBlock[1], 3);
    /* Clamping happens before the block split: slice (4,4, 7,4) of a 4x4
     * matrix: (3,3) -> coordinate (7,10) -> clamped (5,9) -> as above. */
    slice(&b, (const int32_t[]){4, 7}, (const uint32_t[]){4, 4});
    e = addr(&b, NULL, CVM_TENSOR_LOAD, 3, 3, 4);
    want_memory(e, 8);
    assert_int_equal(e.coordInBlock[0], 1);
    assert_int_equal(e.coordInBlock[1], 1);

    /* 1-D blocks of 3 under Undefined with a negative coordinate: c = -4,
     * floor(-4/3) = -2, -4 - (-6) = 2 -> blockCoord -2, coordInBlock 2,
     * index -2 * stride 1 = -2, flagged undefined. */
    cvm_tensor_layout u = mk_layout(1, CVM_TENSOR_CLAMP_UNDEFINED);
    assert_int_equal(cvm_tensor_layout_set_block_size(&u, (const uint32_t[]){3}, 1, &u),
                     CVM_SUCCESS);
    set_dims(&u, (const uint32_t[]){9});
    slice(&u, (const int32_t[]){-4}, (const uint32_t[]){4});
    e = addr(&u, NULL, CVM_TENSOR_LOAD, 0, 0, 4);
    assert_int_equal(e.kind, CVM_TENSOR_ELEMENT_MEMORY);
    assert_int_equal(e.undefined, 1);
    assert_true(e.index == -2);
    assert_int_equal(e.blockCoord[0], (uint32_t)-2);
    assert_int_equal(e.coordInBlock[0], 2);
}

/* ---- views ----------------------------------------------------------------- */

static void test_view_permuted_3d(void **state)
{
    (void)state;
    /* tensor_clamp_view slot 5: layout dims (4,20,6) -> strides (120,6,1),
     * slice offsets (0,2,1) spans (4,16,4); view dims (4,16,4), perm
     * (1,0,2), strides (64,4,1).  (5,7) of a 16x16 matrix: index 87;
     *   dim 2: i=2: vc[2] = 87%4 = 3, 21;  dim 1: i=0: vc[0] = 21%4 = 1, 5;
     *   dim 0: i=1: vc[1] = 5%16 = 5.
     * view index 1*64 + 5*4 + 3 = 87 -> span (1,5,3) -> tensor (1,7,4)
     * -> 120 + 42 + 4 = 166. */
    cvm_tensor_layout t = mk_layout(3, 0);
    set_dims(&t, (const uint32_t[]){4, 20, 6});
    slice(&t, (const int32_t[]){0, 2, 1}, (const uint32_t[]){4, 16, 4});
    cvm_tensor_view v = mk_view(3, true, (const uint32_t[]){1, 0, 2});
    assert_int_equal(cvm_tensor_view_set_dimension(&v, (const uint32_t[]){4, 16, 4}, 3, &v),
                     CVM_SUCCESS);
    cvm_tensor_element e = addr(&t, &v, CVM_TENSOR_LOAD, 5, 7, 16);
    want_memory(e, 166);
    assert_int_equal(e.blockCoord[0], 1);
    assert_int_equal(e.blockCoord[1], 7);
    assert_int_equal(e.blockCoord[2], 4);
    /* (0,4): index 4 -> vc[2]=0, 1 -> vc[0]=1, 0 -> vc[1]=0 -> view index
     * 64 -> span (1,0,0) -> tensor (1,2,1) -> 120+12+1 = 133. */
    want_memory(addr(&t, &v, CVM_TENSOR_LOAD, 0, 4, 16), 133);
}

static void test_view_transpose(void **state)
{
    (void)state;
    /* Layout dims (3,5) (strides (5,1)), view 2-D without dimensions, perm
     * (1,0); a 5x3 matrix.  (r,c): index 3r+c; dims = span (3,5);
     *   dim 1: i=0: vc[0] = (3r+c)%3 = c, quotient r;
     *   dim 0: i=1: vc[1] = r%5 = r;
     * strides from the span (5,1): view index 5c + r -> span (c, r) ->
     * tensor index 5c + r: element (r,c) is tensor[c][r]. */
    cvm_tensor_layout t = mk_layout(2, 0);
    set_dims(&t, (const uint32_t[]){3, 5});
    cvm_tensor_view v = mk_view(2, false, (const uint32_t[]){1, 0});
    for (uint32_t r = 0; r < 5; ++r)
        for (uint32_t c = 0; c < 3; ++c)
            want_memory(addr(&t, &v, CVM_TENSOR_LOAD, r, c, 3), 5 * c + r);
    /* span[perm[1]] = span[0] = 3 is the row width: the separable path
     * (column -> dimension 0, row -> dimension 1), identical to the
     * reference. */
    assert_true(cvm_tensor_plan_is_separable(&t, &v, 3));
    cvm_tensor_element plan[15], ref[15];
    assert_int_equal(cvm_tensor_plan(&t, &v, CVM_TENSOR_LOAD, 5, 3, plan), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_plan_reference(&t, &v, CVM_TENSOR_LOAD, 5, 3, ref), CVM_SUCCESS);
    for (int i = 0; i < 15; ++i)
        assert_true(element_equal(&plan[i], &ref[i]));
    /* a row width other than span[0] is not separable */
    assert_false(cvm_tensor_plan_is_separable(&t, &v, 5));
}

static void test_view_explicit_strides(void **state)
{
    (void)state;
    /* View dims (4,4), strides set to (10,2), identity perm; 1-D layout of
     * 100.  (r,c): index 4r+c -> vc = (r, c) -> view index 10r + 2c ->
     * span 100 -> element 10r + 2c.  (3,1) -> 32. */
    cvm_tensor_layout t = mk_layout(1, 0);
    set_dims(&t, (const uint32_t[]){100});
    cvm_tensor_view v = mk_view(2, true, ID_PERM);
    assert_int_equal(cvm_tensor_view_set_dimension(&v, (const uint32_t[]){4, 4}, 2, &v),
                     CVM_SUCCESS);
    assert_int_equal(cvm_tensor_view_set_stride(&v, (const uint32_t[]){10, 2}, 2, &v),
                     CVM_SUCCESS);
    want_memory(addr(&t, &v, CVM_TENSOR_LOAD, 3, 1, 4), 32);
    want_memory(addr(&t, &v, CVM_TENSOR_LOAD, 0, 0, 4), 0);
    /* a view without dimensions of more dimensions than the layout */
    cvm_tensor_view w = mk_view(2, false, ID_PERM);
    cvm_tensor_element e;
    assert_int_equal(cvm_tensor_element_address(&t, &w, CVM_TENSOR_LOAD, 0, 0, 4, &e),
                     CVM_ERROR_INVALID_MODULE);
    /* a view with dimensions never set: index % 0 */
    cvm_tensor_view z = mk_view(2, true, ID_PERM);
    assert_int_equal(cvm_tensor_element_address(&t, &z, CVM_TENSOR_LOAD, 0, 0, 4, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
}

static void test_view_clip(void **state)
{
    (void)state;
    /* Layout (4,4), slice (0,2,0,2); view 2-D identity, clip rows [1,3),
     * cols [1,3); a 4x4 matrix.  width = min(4, 2) = 2.
     * (1,1): (0*2+0) = 0 -> span (0,0) -> 0.
     * (2,2): (1*2+1) = 3 -> span (1,1) -> 4 + 1 = 5.
     * (0,0), (3,1), (1,3): outside -> CLIPPED, load and store alike. */
    cvm_tensor_layout t = mk_layout(2, CVM_TENSOR_CLAMP_CONSTANT);
    set_dims(&t, (const uint32_t[]){4, 4});
    slice(&t, (const int32_t[]){0, 0}, (const uint32_t[]){2, 2});
    cvm_tensor_view v = mk_view(2, false, ID_PERM);
    assert_int_equal(cvm_tensor_view_set_clip(&v, 1, 2, 1, 2, &v), CVM_SUCCESS);
    for (int a = 0; a < 2; ++a) {
        cvm_tensor_access acc = a ? CVM_TENSOR_STORE : CVM_TENSOR_LOAD;
        want_memory(addr(&t, &v, acc, 1, 1, 4), 0);
        want_memory(addr(&t, &v, acc, 2, 2, 4), 5);
        assert_int_equal(addr(&t, &v, acc, 0, 0, 4).kind, CVM_TENSOR_ELEMENT_CLIPPED);
        assert_int_equal(addr(&t, &v, acc, 3, 1, 4).kind, CVM_TENSOR_ELEMENT_CLIPPED);
        assert_int_equal(addr(&t, &v, acc, 1, 3, 4).kind, CVM_TENSOR_ELEMENT_CLIPPED);
    }
    /* SPEC_NOTES "clip test overflow": offset 2, span 0xFFFFFFFF.  In 32
     * bits 2 + 0xFFFFFFFF wraps to 1 and every row would be clipped; in 64
     * bits rows >= 2 are inside. */
    cvm_tensor_view big = mk_view(2, false, ID_PERM);
    assert_int_equal(cvm_tensor_view_set_clip(&big, 2, 0xFFFFFFFFu, 0, 0xFFFFFFFFu, &big),
                     CVM_SUCCESS);
    cvm_tensor_layout full = mk_layout(2, 0);
    set_dims(&full, (const uint32_t[]){4, 4});
    /* (3,1): index (3-2)*min(4, ~0) + 1 = 5 -> span (1,1) -> 5 */
    want_memory(addr(&full, &big, CVM_TENSOR_LOAD, 3, 1, 4), 5);
    assert_int_equal(addr(&full, &big, CVM_TENSOR_LOAD, 1, 1, 4).kind,
                     CVM_TENSOR_ELEMENT_CLIPPED);
    /* A clip span of 0 clips everything; no error even with a zero span
     * in the layout, because the calculation stops at the clip. */
    cvm_tensor_view none = mk_view(2, false, ID_PERM);
    assert_int_equal(cvm_tensor_view_set_clip(&none, 0, 0, 0, 4, &none), CVM_SUCCESS);
    slice(&full, (const int32_t[]){0, 0}, (const uint32_t[]){0, 0});
    cvm_tensor_element plan[16];
    assert_int_equal(cvm_tensor_plan(&full, &none, CVM_TENSOR_LOAD, 4, 4, plan), CVM_SUCCESS);
    for (int i = 0; i < 16; ++i)
        assert_int_equal(plan[i].kind, CVM_TENSOR_ELEMENT_CLIPPED);
}

static void test_plan_errors_and_args(void **state)
{
    (void)state;
    cvm_tensor_layout t = mk_layout(2, 0);
    set_dims(&t, (const uint32_t[]){4, 4});
    cvm_tensor_element plan[16], e;
    assert_int_equal(cvm_tensor_plan(&t, NULL, CVM_TENSOR_LOAD, 0, 4, NULL), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_plan(&t, NULL, CVM_TENSOR_LOAD, 4, 0, plan),
                     CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_tensor_plan(NULL, NULL, CVM_TENSOR_LOAD, 4, 4, plan),
                     CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_tensor_element_address(&t, NULL, CVM_TENSOR_LOAD, 0, 4, 4, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
    cvm_tensor_layout bad = t;
    bad.dim = 6;
    assert_int_equal(cvm_tensor_plan(&bad, NULL, CVM_TENSOR_LOAD, 4, 4, plan),
                     CVM_ERROR_INVALID_ARGUMENT);
    bad = t;
    bad.clampMode = (cvm_tensor_clamp_mode)7;
    assert_int_equal(cvm_tensor_element_address(&bad, NULL, CVM_TENSOR_LOAD, 0, 0, 4, &e),
                     CVM_ERROR_INVALID_ARGUMENT);
    /* blockSize 0 made by hand: reached by every element */
    bad = t;
    bad.blockSize[1] = 0;
    assert_int_equal(cvm_tensor_plan(&bad, NULL, CVM_TENSOR_LOAD, 4, 4, plan),
                     CVM_ERROR_INVALID_ARGUMENT);
    /* ...but not under Constant when dimension 0 already stopped the
     * calculation: rows 2..3 of a (2,4) layout are out of range. */
    cvm_tensor_layout c = mk_layout(2, CVM_TENSOR_CLAMP_CONSTANT);
    set_dims(&c, (const uint32_t[]){2, 4});
    slice(&c, (const int32_t[]){2, 0}, (const uint32_t[]){4, 4});
    c.blockSize[1] = 0;
    assert_int_equal(cvm_tensor_element_address(&c, NULL, CVM_TENSOR_LOAD, 0, 0, 4, &e),
                     CVM_SUCCESS);
    assert_int_equal(e.kind, CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
}

/* ---- the corpus case tensor_clamp_view against the hardware --------------- */

static uint32_t *read_u32(const char *name, size_t count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/tensor_clamp_view/%s", CVM_SHARED_DIR, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    uint32_t *p = malloc(count * 4);
    assert_non_null(p);
    assert_int_equal(fread(p, 4, count, f), count);
    fclose(f);
    for (size_t i = 0; i < count; ++i) { /* little-endian file */
        const uint8_t *b = (const uint8_t *)&p[i];
        p[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    return p;
}

#define SRC_WORDS 480 /* 20 x 24 */

/* coopMatLoadTensorNV into the 16x16 uint32 matrix m. */
static void load16(uint32_t m[256], const uint32_t *src, const cvm_tensor_layout *t,
                   const cvm_tensor_view *v)
{
    cvm_tensor_element plan[256], ref[256];
    assert_int_equal(cvm_tensor_plan(t, v, CVM_TENSOR_LOAD, 16, 16, plan), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_plan_reference(t, v, CVM_TENSOR_LOAD, 16, 16, ref), CVM_SUCCESS);
    for (int i = 0; i < 256; ++i) {
        assert_true(element_equal(&plan[i], &ref[i]));
        switch (plan[i].kind) {
        case CVM_TENSOR_ELEMENT_MEMORY:
            assert_true(plan[i].index >= 0 && plan[i].index < SRC_WORDS);
            m[i] = src[plan[i].index];
            break;
        case CVM_TENSOR_ELEMENT_CLAMP_CONSTANT:
            m[i] = t->clampValue; /* 32-bit component: all of it */
            break;
        case CVM_TENSOR_ELEMENT_CLIPPED:
            break; /* keeps Object's element */
        default:
            fail_msg("load element %d of kind %d", i, plan[i].kind);
        }
    }
}

static void store16(uint32_t *dst, uint32_t value, const cvm_tensor_layout *t,
                    const cvm_tensor_view *v)
{
    cvm_tensor_element plan[256];
    assert_int_equal(cvm_tensor_plan(t, v, CVM_TENSOR_STORE, 16, 16, plan), CVM_SUCCESS);
    for (int i = 0; i < 256; ++i) {
        assert_int_not_equal(plan[i].kind, CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
        if (plan[i].kind == CVM_TENSOR_ELEMENT_MEMORY) {
            assert_true(plan[i].index >= 0 && plan[i].index < SRC_WORDS);
            dst[plan[i].index] = value;
        }
    }
}

static cvm_tensor_layout sliced(cvm_tensor_layout t, int32_t o0, uint32_t s0, int32_t o1,
                                uint32_t s1)
{
    slice(&t, (const int32_t[]){o0, o1}, (const uint32_t[]){s0, s1});
    return t;
}

static void test_corpus_tensor_clamp_view(void **state)
{
    (void)state;
    /* The shader (tensor_clamp_view.comp) step by step; dst and st must
     * equal what the H200 wrote. */
    uint32_t *src = read_u32("src.bin", SRC_WORDS);
    uint32_t *dst = read_u32("dst.bin", 2560);
    uint32_t *st = read_u32("st.bin", SRC_WORDS);
    uint32_t *dst_want = read_u32("dst.expected.bin", 2560);
    uint32_t *st_want = read_u32("st.expected.bin", SRC_WORDS);
    const int32_t off0 = -5, off1 = -7;
    uint32_t m[256] = {0};
    const uint32_t HW[2] = {20, 24};

    cvm_tensor_layout tc = mk_layout(2, CVM_TENSOR_CLAMP_CONSTANT);
    set_dims(&tc, HW);
    assert_int_equal(cvm_tensor_layout_set_clamp_value(&tc, 0xDEADBEEFu, &tc), CVM_SUCCESS);
    cvm_tensor_layout l = sliced(tc, off0, 16, off1, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 0 * 256, m, sizeof m);
    l = sliced(tc, 12, 16, 15, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 1 * 256, m, sizeof m);

    cvm_tensor_layout te = mk_layout(2, CVM_TENSOR_CLAMP_CLAMP_TO_EDGE);
    set_dims(&te, HW);
    l = sliced(te, off0, 16, 15, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 2 * 256, m, sizeof m);

    cvm_tensor_layout tr = mk_layout(2, CVM_TENSOR_CLAMP_REPEAT);
    set_dims(&tr, HW);
    l = sliced(tr, 12, 16, 15, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 3 * 256, m, sizeof m);

    cvm_tensor_layout tm = mk_layout(2, CVM_TENSOR_CLAMP_REPEAT_MIRRORED);
    set_dims(&tm, HW);
    l = sliced(tm, 12, 16, 15, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 4 * 256, m, sizeof m);

    cvm_tensor_layout t3 = mk_layout(3, 0);
    set_dims(&t3, (const uint32_t[]){4, 20, 6});
    slice(&t3, (const int32_t[]){0, 2, 1}, (const uint32_t[]){4, 16, 4});
    cvm_tensor_view v3 = mk_view(3, true, (const uint32_t[]){1, 0, 2});
    assert_int_equal(cvm_tensor_view_set_dimension(&v3, (const uint32_t[]){4, 16, 4}, 3, &v3),
                     CVM_SUCCESS);
    load16(m, src, &t3, &v3);
    memcpy(dst + 5 * 256, m, sizeof m);

    for (int i = 0; i < 256; ++i)
        m[i] = 7;
    cvm_tensor_layout tp = mk_layout(2, 0);
    set_dims(&tp, HW);
    cvm_tensor_view vc = mk_view(2, false, ID_PERM);
    assert_int_equal(cvm_tensor_view_set_clip(&vc, 3, 8, 2, 12, &vc), CVM_SUCCESS);
    l = sliced(tp, 1, 8, 4, 12);
    load16(m, src, &l, &vc);
    memcpy(dst + 6 * 256, m, sizeof m);

    l = sliced(tc, 12, 16, 15, 16);
    store16(st, 0xAAAAAAAAu, &l, NULL);
    for (int i = 0; i < 256; ++i)
        m[i] = 0x55555555u;
    l = sliced(tp, 0, 5, 0, 6);
    store16(st, 0x55555555u, &l, &vc);

    uint32_t strided[256];
    for (int i = 0; i < 256; ++i)
        strided[i] = 3;
    cvm_tensor_layout ts = mk_layout(2, 0);
    set_dims(&ts, (const uint32_t[]){10, 12});
    assert_int_equal(cvm_tensor_layout_set_stride(&ts, (const uint32_t[]){48, 2}, 2, &ts),
                     CVM_SUCCESS);
    l = sliced(ts, 0, 10, 0, 12);
    load16(strided, src, &l, &vc);
    memcpy(dst + 7 * 256, strided, sizeof strided);

    l = sliced(tr, off0, 16, off1, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 8 * 256, m, sizeof m);
    l = sliced(tm, off0, 16, off1, 16);
    load16(m, src, &l, NULL);
    memcpy(dst + 9 * 256, m, sizeof m);

    for (int i = 0; i < 2560; ++i)
        if (dst[i] != dst_want[i])
            fail_msg("dst slot %d (%d,%d): got 0x%08x, hardware 0x%08x", i / 256, i % 256 / 16,
                     i % 16, dst[i], dst_want[i]);
    for (int i = 0; i < SRC_WORDS; ++i)
        if (st[i] != st_want[i])
            fail_msg("st (%d,%d): got 0x%08x, hardware 0x%08x", i / 24, i % 24, st[i], st_want[i]);
    free(src);
    free(dst);
    free(st);
    free(dst_want);
    free(st_want);
}

/* ---- the plan against the per-element reference, random ------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull; /* fixed seed */

static uint32_t rnd(uint32_t n) /* uniform-ish in [0, n) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 16) % n);
}

static int32_t rnd_range(int32_t lo, int32_t hi) /* [lo, hi] */
{
    return lo + (int32_t)rnd((uint32_t)(hi - lo + 1));
}

typedef struct random_case {
    cvm_tensor_layout t;
    cvm_tensor_view v;
    bool has_view;
    cvm_tensor_access access;
    uint32_t M, N;
} random_case;

static random_case random_case_make(void)
{
    random_case rc;
    memset(&rc, 0, sizeof rc);
    const uint32_t L = 1 + rnd(5);
    rc.M = 1 + rnd(12);
    rc.N = 1 + rnd(12);
    rc.access = rnd(3) == 0 ? CVM_TENSOR_STORE : CVM_TENSOR_LOAD;
    rc.t = mk_layout(L, rnd(5));

    uint32_t bs[5], dims[5], strides[5], spans[5];
    int32_t offs[5];
    bool blocks = rnd(10) < 3;
    for (uint32_t d = 0; d < L; ++d) {
        bs[d] = blocks ? 1 + rnd(4) : 1;
        uint32_t k = rnd(20);
        dims[d] = k == 0 ? 0 : k == 1 ? 1 : 1 + rnd(10);
        strides[d] = rnd(50);
        offs[d] = rnd_range(-12, 12);
        spans[d] = rnd(50) == 0 ? 0 : 1 + rnd(12);
    }
    if (rnd(4) == 0) { /* dimensions before block size: the order matters */
        set_dims(&rc.t, dims);
        assert_int_equal(cvm_tensor_layout_set_block_size(&rc.t, bs, L, &rc.t), CVM_SUCCESS);
    } else {
        assert_int_equal(cvm_tensor_layout_set_block_size(&rc.t, bs, L, &rc.t), CVM_SUCCESS);
        set_dims(&rc.t, dims);
    }
    if (rnd(10) < 3)
        assert_int_equal(cvm_tensor_layout_set_stride(&rc.t, strides, L, &rc.t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_clamp_value(&rc.t, rnd(0xFFFFFFFFu), &rc.t),
                     CVM_SUCCESS);

    uint32_t view_kind = rnd(10); /* 0-3 none, 4-6 identity, 7-9 random */
    rc.has_view = view_kind >= 4;
    uint32_t width = rc.N;
    if (rc.has_view) {
        /* random permutations: often of the layout's dimension count, the
         * separable permuted case when span[perm[L-1]] is the row width */
        uint32_t VD = view_kind <= 6 || rnd(2) == 0 ? L : 1 + rnd(5);
        uint32_t perm[5] = {0, 1, 2, 3, 4};
        if (view_kind > 6)
            for (uint32_t i = VD - 1; i > 0; --i) { /* Fisher-Yates */
                uint32_t j = rnd(i + 1), x = perm[i];
                perm[i] = perm[j];
                perm[j] = x;
            }
        bool hasDim = rnd(2) == 0;
        rc.v = mk_view(VD, hasDim, perm);
        if (rnd(2) == 0) {
            uint32_t cro = rnd(4), cco = rnd(4);
            uint32_t crs = rnd(8) == 0 ? 0xFFFFFFFFu : rnd(14);
            uint32_t ccs = rnd(8) == 0 ? 0xFFFFFFFFu : rnd(14);
            assert_int_equal(cvm_tensor_view_set_clip(&rc.v, cro, crs, cco, ccs, &rc.v),
                             CVM_SUCCESS);
        }
        width = rc.v.clipColSpan < rc.N ? rc.v.clipColSpan : rc.N;
    }
    /* Often make span[L-1] (with a view of L dimensions, span[perm[L-1]])
     * the row width, the separable case. */
    if (rnd(10) < 6 && width != 0)
        spans[rc.has_view && rc.v.dim == L ? rc.v.permutation[L - 1] : L - 1] = width;
    slice(&rc.t, offs, spans);
    if (rc.has_view && rc.v.hasDimensions) {
        uint32_t vd[5];
        for (uint32_t d = 0; d < rc.v.dim; ++d)
            vd[d] = (view_kind <= 6 || rc.v.dim == L) && rnd(4) != 0 ? rc.t.span[d]
                                                  : (rnd(40) == 0 ? 0 : 1 + rnd(8));
        assert_int_equal(cvm_tensor_view_set_dimension(&rc.v, vd, rc.v.dim, &rc.v), CVM_SUCCESS);
        if (rnd(4) == 0) {
            uint32_t vs[5];
            for (uint32_t d = 0; d < rc.v.dim; ++d)
                vs[d] = rnd(40);
            assert_int_equal(cvm_tensor_view_set_stride(&rc.v, vs, rc.v.dim, &rc.v),
                             CVM_SUCCESS);
        }
    }
    return rc;
}

static void test_plan_matches_reference_random(void **state)
{
    (void)state;
    enum { CASES = 20000 };
    static cvm_tensor_element plan[144], ref[144];
    int separable = 0, separable_permuted = 0, general = 0, errors = 0, kinds[4] = {0},
        undefined = 0;
    for (int n = 0; n < CASES; ++n) {
        random_case rc = random_case_make();
        const cvm_tensor_view *v = rc.has_view ? &rc.v : NULL;
        /* the reference: one call per element, row-major, first error wins */
        cvm_result want = CVM_SUCCESS;
        for (uint32_t i = 0; i < rc.M * rc.N && want == CVM_SUCCESS; ++i)
            want = cvm_tensor_element_address(&rc.t, v, rc.access, i / rc.N, i % rc.N, rc.N,
                                              &ref[i]);
        cvm_result got = cvm_tensor_plan(&rc.t, v, rc.access, rc.M, rc.N, plan);
        if (got != want)
            fail_msg("case %d: plan status %d, reference %d", n, got, want);
        if (cvm_tensor_plan_is_separable(&rc.t, v, rc.N)) {
            ++separable;
            if (v != NULL && v->permutation[v->dim - 1] != v->dim - 1)
                ++separable_permuted;
        }
        else
            ++general;
        if (want != CVM_SUCCESS) {
            ++errors;
            continue;
        }
        for (uint32_t i = 0; i < rc.M * rc.N; ++i) {
            if (!element_equal(&plan[i], &ref[i]))
                fail_msg("case %d (L=%u mode=%d view=%d %ux%u): element (%u,%u) differs: kind "
                         "%d/%d index %lld/%lld",
                         n, rc.t.dim, rc.t.clampMode, rc.has_view, rc.M, rc.N, i / rc.N,
                         i % rc.N, plan[i].kind, ref[i].kind, (long long)plan[i].index,
                         (long long)ref[i].index);
            ++kinds[ref[i].kind];
            undefined += ref[i].undefined;
            /* Constant clamp never addresses memory out of range, and a load
             * never reports DROPPED nor a store CLAMP_CONSTANT. */
            if (rc.access == CVM_TENSOR_LOAD)
                assert_int_not_equal(ref[i].kind, CVM_TENSOR_ELEMENT_DROPPED);
            else
                assert_int_not_equal(ref[i].kind, CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
        }
    }
    /* The draw must exercise both paths, every kind, and the error cases. */
    print_message("random: %d separable (%d with a permuted view), %d general, %d errors; "
                  "kinds M%d C%d X%d D%d; undefined %d\n",
                  separable, separable_permuted, general, errors, kinds[0], kinds[1], kinds[2],
                  kinds[3], undefined);
    assert_true(separable > CASES / 4);
    assert_true(separable_permuted > CASES / 40);
    assert_true(general > CASES / 4);
    assert_true(errors > 0);
    for (int k = 0; k < 4; ++k)
        assert_true(kinds[k] > 0);
    assert_true(undefined > 0);
}

/* Constant clamp: no out-of-range coordinate ever gives MEMORY.  Checked by
 * recomputing, for every MEMORY element of random Constant 2-D layouts, that
 * its coordinates lie inside the layout. */
static void test_constant_never_memory_out_of_range(void **state)
{
    (void)state;
    static cvm_tensor_element plan[16 * 16];
    int out_of_range = 0;
    for (int n = 0; n < 2000; ++n) {
        cvm_tensor_layout t = mk_layout(2, CVM_TENSOR_CLAMP_CONSTANT);
        uint32_t D0 = 1 + rnd(20), D1 = 1 + rnd(20);
        set_dims(&t, (const uint32_t[]){D0, D1});
        int32_t o0 = rnd_range(-20, 20), o1 = rnd_range(-20, 20);
        uint32_t M = 1 + rnd(16), N = 1 + rnd(16);
        slice(&t, (const int32_t[]){o0, o1}, (const uint32_t[]){M, N});
        assert_int_equal(cvm_tensor_plan(&t, NULL, CVM_TENSOR_LOAD, M, N, plan), CVM_SUCCESS);
        for (uint32_t r = 0; r < M; ++r)
            for (uint32_t c = 0; c < N; ++c) {
                /* span (M,N) over an M x N matrix: coordinate (r+o0, c+o1) */
                int64_t c0 = (int64_t)r + o0, c1 = (int64_t)c + o1;
                bool in = c0 >= 0 && c0 < D0 && c1 >= 0 && c1 < D1;
                const cvm_tensor_element *e = &plan[r * N + c];
                if (in) {
                    assert_int_equal(e->kind, CVM_TENSOR_ELEMENT_MEMORY);
                    assert_true(e->index == c0 * D1 + c1);
                } else {
                    ++out_of_range;
                    assert_int_equal(e->kind, CVM_TENSOR_ELEMENT_CLAMP_CONSTANT);
                }
            }
    }
    assert_true(out_of_range > 0);
}

/* A random draw, half of the time moved inside its tensor (offsets put in
 * range, as most GEMM tiles are). */
static random_case random_case_often_inside(void)
{
    random_case rc = random_case_make();
    if (rnd(2)) {
        for (uint32_t d = 0; d < rc.t.dim; ++d) {
            uint32_t D = rc.t.layoutDimension[d], sp = rc.t.span[d];
            if (sp <= D)
                rc.t.offset[d] = (int32_t)rnd(D - sp + 1);
        }
    }
    return rc;
}

/* The whole-tile path (cvm_tensor_tile_plan) against the reference on the
 * random draws above, half of them moved inside their tensor (offsets put
 * in range, as most GEMM tiles are): wherever it claims to apply, every
 * element inside the clip is MEMORY at row_index[r] + c * col_step with
 * `undefined` 0, every other one CLIPPED, for loads and stores, every clamp
 * mode, block sizes, permuted views, clips and strides. */
static void test_tile_matches_reference_random(void **state)
{
    (void)state;
    enum { CASES = 40000 };
    static cvm_tensor_element ref[144];
    uint64_t rows[12];
    int applied = 0, applied_view = 0, applied_clip = 0, applied_perm = 0, modes[5] = {0};
    for (int n = 0; n < CASES; ++n) {
        random_case rc = random_case_often_inside();
        const cvm_tensor_view *v = rc.has_view ? &rc.v : NULL;
        cvm_tensor_tile tile;
        if (!cvm_tensor_tile_plan(&rc.t, v, rc.M, rc.N, &tile, rows))
            continue;
        ++applied;
        ++modes[rc.t.clampMode];
        if (v != NULL) {
            ++applied_view;
            applied_clip += tile.row_count < rc.M || tile.col_count < rc.N;
            applied_perm += v->permutation[v->dim - 1] != v->dim - 1;
        }
        for (uint32_t i = 0; i < rc.M * rc.N; ++i)
            assert_int_equal(cvm_tensor_element_address(&rc.t, v, rc.access, i / rc.N, i % rc.N,
                                                        rc.N, &ref[i]),
                             CVM_SUCCESS);
        for (uint32_t row = 0; row < rc.M; ++row) {
            for (uint32_t col = 0; col < rc.N; ++col) {
                const cvm_tensor_element *e = &ref[row * rc.N + col];
                bool inside = row >= tile.row_first && row - tile.row_first < tile.row_count &&
                              col >= tile.col_first && col - tile.col_first < tile.col_count;
                if (!inside) {
                    if (e->kind != CVM_TENSOR_ELEMENT_CLIPPED)
                        fail_msg("case %d: (%u,%u) outside the tile has kind %d", n, row, col,
                                 e->kind);
                    continue;
                }
                uint64_t want = rows[row - tile.row_first] + (col - tile.col_first) * tile.col_step;
                if (e->kind != CVM_TENSOR_ELEMENT_MEMORY || e->undefined ||
                    e->index != (int64_t)want)
                    fail_msg("case %d (L=%u mode=%d view=%d %ux%u): (%u,%u) kind %d index %lld, "
                             "tile %lld",
                             n, rc.t.dim, rc.t.clampMode, rc.has_view, rc.M, rc.N, row, col,
                             e->kind, (long long)e->index, (long long)want);
            }
        }
    }
    print_message("tile: applied %d of %d (%d with a view, %d clipped, %d permuted); modes %d %d "
                  "%d %d %d\n",
                  applied, CASES, applied_view, applied_clip, applied_perm, modes[0], modes[1],
                  modes[2], modes[3], modes[4]);
    assert_true(applied > CASES / 40 && applied_view > 0 && applied_clip > 0 && applied_perm > 0);
    for (int m = 0; m < 5; ++m)
        assert_true(modes[m] > 0);
}

/* The split plan (cvm_tensor_split_plan, for DecodeFunc loads) against the
 * reference on the random draws above, half of them moved inside their
 * tensor: wherever it applies, every element is MEMORY with the merged
 * row and column parts' undefined flag, index, blockCoord and coordInBlock
 * in every dimension; and it applies wherever it should (the plan is
 * separable and every element is MEMORY). */
static void test_split_matches_reference_random(void **state)
{
    (void)state;
    enum { CASES = 40000 };
    static cvm_tensor_element ref[144];
    cvm_tensor_element rows[12], cols[12];
    int applied = 0, applied_view = 0, applied_perm = 0, applied_blocks = 0, undefined = 0;
    int modes[5] = {0};
    for (int n = 0; n < CASES; ++n) {
        random_case rc = random_case_often_inside();
        const cvm_tensor_view *v = rc.has_view ? &rc.v : NULL;
        uint32_t p = 99;
        bool split = cvm_tensor_split_plan(&rc.t, v, rc.access, rc.M, rc.N, &p, rows, cols);
        bool ok = true, all_memory = true;
        for (uint32_t i = 0; i < rc.M * rc.N && ok; ++i) {
            ok = cvm_tensor_element_address(&rc.t, v, rc.access, i / rc.N, i % rc.N, rc.N,
                                            &ref[i]) == CVM_SUCCESS;
            all_memory = all_memory && ref[i].kind == CVM_TENSOR_ELEMENT_MEMORY;
        }
        if (!split) {
            if (ok && all_memory && cvm_tensor_plan_is_separable(&rc.t, v, rc.N))
                fail_msg("case %d (L=%u mode=%d view=%d %ux%u): all MEMORY and separable, "
                         "the split plan declines",
                         n, rc.t.dim, rc.t.clampMode, rc.has_view, rc.M, rc.N);
            continue;
        }
        if (!ok || !all_memory || p >= rc.t.dim)
            fail_msg("case %d: the split plan applies where the reference has %s", n,
                     !ok ? "an error" : !all_memory ? "other kinds" : "no dimension p");
        ++applied;
        ++modes[rc.t.clampMode];
        applied_view += v != NULL;
        applied_perm += v != NULL && v->permutation[v->dim - 1] != v->dim - 1;
        for (uint32_t d = 0; d < rc.t.dim; ++d)
            applied_blocks += rc.t.blockSize[d] > 1;
        for (uint32_t row = 0; row < rc.M; ++row) {
            for (uint32_t col = 0; col < rc.N; ++col) {
                const cvm_tensor_element *e = &ref[row * rc.N + col];
                const cvm_tensor_element *r = &rows[row], *c = &cols[col];
                int64_t index = (int64_t)((uint64_t)r->index + (uint64_t)c->index);
                uint8_t und = (uint8_t)(r->undefined | c->undefined);
                undefined += und != 0;
                if (e->index != index || e->undefined != und)
                    fail_msg("case %d (L=%u mode=%d view=%d %ux%u): (%u,%u) index %lld "
                             "undefined %d, split %lld %d",
                             n, rc.t.dim, rc.t.clampMode, rc.has_view, rc.M, rc.N, row, col,
                             (long long)e->index, e->undefined, (long long)index, und);
                for (uint32_t d = 0; d < rc.t.dim; ++d) {
                    uint32_t bc = d == p ? c->blockCoord[d] : r->blockCoord[d];
                    uint32_t cb = d == p ? c->coordInBlock[d] : r->coordInBlock[d];
                    if (e->blockCoord[d] != bc || e->coordInBlock[d] != cb)
                        fail_msg("case %d: (%u,%u) dimension %u: blockCoord %u coordInBlock "
                                 "%u, split %u %u",
                                 n, row, col, d, e->blockCoord[d], e->coordInBlock[d], bc, cb);
                }
            }
        }
    }
    print_message("split: applied %d of %d (%d with a view, %d permuted, %d block sizes > 1, "
                  "%d undefined elements); modes %d %d %d %d %d\n",
                  applied, CASES, applied_view, applied_perm, applied_blocks, undefined,
                  modes[0], modes[1], modes[2], modes[3], modes[4]);
    assert_true(applied > CASES / 40 && applied_view > 0 && applied_perm > 0 &&
                applied_blocks > 0 && undefined > 0);
    for (int m = 0; m < 5; ++m)
        assert_true(modes[m] > 0);
}

/* A tile that reaches one element past its tensor, or has a block size
 * along its columns, is not a tile. */
static void test_tile_declines(void **state)
{
    (void)state;
    uint64_t rows[16];
    cvm_tensor_tile tile;
    for (uint32_t mode = 0; mode < 5; ++mode) {
        cvm_tensor_layout t = mk_layout(2, mode);
        set_dims(&t, (const uint32_t[]){20, 30});
        slice(&t, (const int32_t[]){4, 22}, (const uint32_t[]){16, 8});
        assert_true(cvm_tensor_tile_plan(&t, NULL, 16, 8, &tile, rows));
        assert_true(tile.col_step == 1 && rows[0] == 4 * 30 + 22 && rows[15] == 19 * 30 + 22);
        cvm_tensor_layout u = t;
        slice(&u, (const int32_t[]){0, 1}, (const uint32_t[]){16, 8}); /* column 29 + 1 */
        assert_false(cvm_tensor_tile_plan(&u, NULL, 16, 8, &tile, rows));
        u = t;
        slice(&u, (const int32_t[]){1, 0}, (const uint32_t[]){16, 8}); /* row 20 */
        assert_false(cvm_tensor_tile_plan(&u, NULL, 16, 8, &tile, rows));
        u = t;
        slice(&u, (const int32_t[]){-5, 0}, (const uint32_t[]){16, 8}); /* row -1 */
        assert_false(cvm_tensor_tile_plan(&u, NULL, 16, 8, &tile, rows));
        u = t;
        assert_int_equal(cvm_tensor_layout_set_block_size(&u, (const uint32_t[]){1, 2}, 2, &u),
                         CVM_SUCCESS);
        assert_false(cvm_tensor_tile_plan(&u, NULL, 16, 8, &tile, rows));
        /* a row block size is fine: row indices count blocks */
        u = t;
        assert_int_equal(cvm_tensor_layout_set_block_size(&u, (const uint32_t[]){4, 1}, 2, &u),
                         CVM_SUCCESS);
        assert_true(cvm_tensor_tile_plan(&u, NULL, 16, 8, &tile, rows));
        assert_true(rows[0] == 1 * 30 + 22 && rows[15] == 4 * 30 + 22);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_create_defaults),
        cmocka_unit_test(test_layout_create_rejects),
        cmocka_unit_test(test_layout_operand_counts),
        cmocka_unit_test(test_layout_set_dimension_strides),
        cmocka_unit_test(test_layout_slice_and_clamp_value),
        cmocka_unit_test(test_layout_stride_rule),
        cmocka_unit_test(test_view_create_and_ops),
        cmocka_unit_test(test_clamp_constant),
        cmocka_unit_test(test_clamp_to_edge),
        cmocka_unit_test(test_clamp_repeat),
        cmocka_unit_test(test_clamp_mirror),
        cmocka_unit_test(test_clamp_undefined_load),
        cmocka_unit_test(test_stores_out_of_range_dropped),
        cmocka_unit_test(test_2d_constant_tile),
        cmocka_unit_test(test_nd_packed_and_sliced),
        cmocka_unit_test(test_1d_layout_matrix),
        cmocka_unit_test(test_span_wraps),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_view_permuted_3d),
        cmocka_unit_test(test_view_transpose),
        cmocka_unit_test(test_view_explicit_strides),
        cmocka_unit_test(test_view_clip),
        cmocka_unit_test(test_plan_errors_and_args),
        cmocka_unit_test(test_corpus_tensor_clamp_view),
        cmocka_unit_test(test_plan_matches_reference_random),
        cmocka_unit_test(test_constant_never_memory_out_of_range),
        cmocka_unit_test(test_tile_matches_reference_random),
        cmocka_unit_test(test_split_matches_reference_random),
        cmocka_unit_test(test_tile_declines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
