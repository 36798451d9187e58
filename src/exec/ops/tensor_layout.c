/* Tensor layouts, tensor views and tensor addressing (see tensor_layout.h for
 * the sources [TA], [CM2], [GLSL], [NOTES]).  Every departure from the
 * literal text is marked "SPEC_NOTES:" with the row of SPEC_NOTES.md that
 * settles it. */
#include "exec/ops/tensor_layout.h"

#include <string.h>

#include "spirv/spirv_grammar.h"

/* The enum is the SPIR-V one; keep them tied. */
_Static_assert(CVM_TENSOR_CLAMP_UNDEFINED == (int)SpvTensorClampModeUndefined, "clamp mode");
_Static_assert(CVM_TENSOR_CLAMP_CONSTANT == (int)SpvTensorClampModeConstant, "clamp mode");
_Static_assert(CVM_TENSOR_CLAMP_CLAMP_TO_EDGE == (int)SpvTensorClampModeClampToEdge, "clamp mode");
_Static_assert(CVM_TENSOR_CLAMP_REPEAT == (int)SpvTensorClampModeRepeat, "clamp mode");
_Static_assert(CVM_TENSOR_CLAMP_REPEAT_MIRRORED == (int)SpvTensorClampModeRepeatMirrored,
               "clamp mode");

/* ======================================================================== */
/* Validity of hand-made values                                             */
/* ======================================================================== */

static bool layout_ok(const cvm_tensor_layout *t)
{
    return t != NULL && t->dim >= 1 && t->dim <= CVM_TENSOR_MAX_DIM &&
           (uint32_t)t->clampMode <= (uint32_t)CVM_TENSOR_CLAMP_REPEAT_MIRRORED;
}

static bool permutation_ok(const uint32_t *p, uint32_t dim)
{
    uint32_t seen = 0;
    for (uint32_t i = 0; i < dim; ++i) {
        if (p[i] >= dim || (seen & (1u << p[i])))
            return false;
        seen |= 1u << p[i];
    }
    return true;
}

static bool view_ok(const cvm_tensor_view *v)
{
    return v != NULL && v->dim >= 1 && v->dim <= CVM_TENSOR_MAX_DIM &&
           permutation_ok(v->permutation, v->dim);
}

/* ======================================================================== */
/* Tensor layout operations ([TA] OpCreateTensorLayoutNV ...)               */
/* ======================================================================== */

cvm_result cvm_tensor_layout_create(uint32_t dim, uint32_t clampMode, cvm_tensor_layout *o_t)
{
    if (o_t == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    /* OpTypeTensorLayoutNV: Dim in (0, 5]; ClampMode a Tensor Clamp Mode. */
    if (dim < 1 || dim > CVM_TENSOR_MAX_DIM ||
        clampMode > (uint32_t)CVM_TENSOR_CLAMP_REPEAT_MIRRORED)
        return CVM_ERROR_INVALID_MODULE;
    cvm_tensor_layout t;
    memset(&t, 0, sizeof t);
    t.dim = dim;
    t.clampMode = (cvm_tensor_clamp_mode)clampMode;
    /* "The layoutDimension, stride, span, and offset elements are initialized
     * to zero. The blockSize elements are initialized to one. clampValue is
     * initialized to zero." */
    for (uint32_t i = 0; i < dim; ++i)
        t.blockSize[i] = 1;
    *o_t = t;
    return CVM_SUCCESS;
}

/* Common checks of the Set* operations: valid input, count == LDim. */
static cvm_result layout_op_check(const cvm_tensor_layout *t, const void *operands, uint32_t count,
                                  const cvm_tensor_layout *o_t)
{
    if (!layout_ok(t) || o_t == NULL || operands == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    /* "The number of ... operands must match the dimension of 'Result Type'." */
    if (count != t->dim)
        return CVM_ERROR_INVALID_MODULE;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_layout_set_block_size(const cvm_tensor_layout *t, const uint32_t *blockSize,
                                            uint32_t count, cvm_tensor_layout *o_t)
{
    CVM_TRY(layout_op_check(t, blockSize, count, o_t));
    for (uint32_t i = 0; i < count; ++i)
        if (blockSize[i] == 0)
            return CVM_ERROR_INVALID_ARGUMENT;
    cvm_tensor_layout r = *t;
    for (uint32_t i = 0; i < count; ++i)
        r.blockSize[i] = blockSize[i];
    *o_t = r;
    return CVM_SUCCESS;
}

/* ceiling(a / b) without the overflow of (a + b - 1) / b; b != 0. */
static uint32_t ceil_div_u32(uint32_t a, uint32_t b)
{
    return a / b + (a % b != 0);
}

cvm_result cvm_tensor_layout_set_dimension(const cvm_tensor_layout *t, const uint32_t *dims,
                                           uint32_t count, cvm_tensor_layout *o_t)
{
    CVM_TRY(layout_op_check(t, dims, count, o_t));
    cvm_tensor_layout r = *t;
    /* [GLSL] setTensorLayoutDimensionNV, the text's own loop:
     *     uint32_t s = 1;
     *     for (int32_t i = N-1; i >= 0; --i) {
     *         stride[i] = s;
     *         s *= ceiling(dimensions[i] / blockSize[i]);
     *     }
     * SPEC_NOTES "layout stride": the ceiling, not the floor, of
     * dimension / blockSize.  `s` is uint32_t in the text, so the product
     * wraps mod 2^32.  The factor for i == 0 is never used, so a blockSize[0]
     * of 0 (impossible through set_block_size) is not divided by. */
    uint32_t s = 1;
    for (int32_t i = (int32_t)count - 1; i >= 0; --i) {
        r.layoutDimension[i] = dims[i];
        r.span[i] = dims[i];
        r.offset[i] = 0;
        r.stride[i] = s;
        if (i > 0) {
            if (r.blockSize[i] == 0)
                return CVM_ERROR_INVALID_ARGUMENT;
            s *= ceil_div_u32(dims[i], r.blockSize[i]);
        }
    }
    *o_t = r;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_layout_set_stride(const cvm_tensor_layout *t, const uint32_t *strides,
                                        uint32_t count, cvm_tensor_layout *o_t)
{
    CVM_TRY(layout_op_check(t, strides, count, o_t));
    cvm_tensor_layout r = *t;
    for (uint32_t i = 0; i < count; ++i)
        r.stride[i] = strides[i];
    *o_t = r;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_layout_slice(const cvm_tensor_layout *t, const int32_t *offsets,
                                   const uint32_t *spans, uint32_t count, cvm_tensor_layout *o_t)
{
    CVM_TRY(layout_op_check(t, offsets, count, o_t));
    if (spans == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    cvm_tensor_layout r = *t;
    for (uint32_t i = 0; i < count; ++i) {
        /* "adding Offset<i> to offset[i]": int32 state, wrapping like
         * OpIAdd (done in uint32 so that C has no signed overflow). */
        r.offset[i] = (int32_t)((uint32_t)r.offset[i] + (uint32_t)offsets[i]);
        r.span[i] = spans[i];
    }
    *o_t = r;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_layout_set_clamp_value(const cvm_tensor_layout *t, uint32_t value,
                                             cvm_tensor_layout *o_t)
{
    if (!layout_ok(t) || o_t == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    cvm_tensor_layout r = *t;
    r.clampValue = value;
    *o_t = r;
    return CVM_SUCCESS;
}

bool cvm_tensor_layout_stride_rule_holds(const cvm_tensor_layout *t)
{
    if (!layout_ok(t))
        return false;
    for (uint32_t i = 0; i + 1 < t->dim; ++i) {
        if (t->blockSize[i + 1] == 0)
            return false;
        uint64_t need = (uint64_t)t->stride[i + 1] *
                        ceil_div_u32(t->layoutDimension[i + 1], t->blockSize[i + 1]);
        if ((uint64_t)t->stride[i] < need)
            return false;
    }
    return true;
}

/* ======================================================================== */
/* Tensor view operations ([TA] OpCreateTensorViewNV ...)                   */
/* ======================================================================== */

cvm_result cvm_tensor_view_create(uint32_t dim, bool hasDimensions, const uint32_t *permutation,
                                  uint32_t count, cvm_tensor_view *o_v)
{
    if (o_v == NULL || permutation == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    /* OpTypeTensorViewNV: Dim in (0, 5]; p0..p<Dim-1> "must form a valid
     * permutation of the range [0,Dim)". */
    if (dim < 1 || dim > CVM_TENSOR_MAX_DIM || count != dim || !permutation_ok(permutation, dim))
        return CVM_ERROR_INVALID_MODULE;
    cvm_tensor_view v;
    memset(&v, 0, sizeof v);
    v.dim = dim;
    v.hasDimensions = hasDimensions;
    for (uint32_t i = 0; i < dim; ++i)
        v.permutation[i] = permutation[i];
    /* "The viewDimension and viewStride elements are initialized to zero.
     * The clip values are initialized to offsets of 0, spans of 0xFFFFFFFF." */
    v.clipRowOffset = 0;
    v.clipRowSpan = 0xFFFFFFFFu;
    v.clipColOffset = 0;
    v.clipColSpan = 0xFFFFFFFFu;
    *o_v = v;
    return CVM_SUCCESS;
}

static cvm_result view_op_check(const cvm_tensor_view *v, const void *operands, uint32_t count,
                                const cvm_tensor_view *o_v)
{
    if (!view_ok(v) || o_v == NULL || operands == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    if (count != v->dim)
        return CVM_ERROR_INVALID_MODULE;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_view_set_dimension(const cvm_tensor_view *v, const uint32_t *dims,
                                         uint32_t count, cvm_tensor_view *o_v)
{
    CVM_TRY(view_op_check(v, dims, count, o_v));
    cvm_tensor_view r = *v;
    /* "Sets viewStride[LDim-1] to 1 and sets viewStride[i] to the product of
     * Dim<i+1> to Dim<LDim-1>."  SPEC_NOTES "OpTensorViewSetDimensionNV":
     * LDim here is the view's own dimension count VDim.  uint32 state: the
     * product wraps mod 2^32. */
    uint32_t s = 1;
    for (int32_t i = (int32_t)count - 1; i >= 0; --i) {
        r.viewDimension[i] = dims[i];
        r.viewStride[i] = s;
        s *= dims[i];
    }
    *o_v = r;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_view_set_stride(const cvm_tensor_view *v, const uint32_t *strides,
                                      uint32_t count, cvm_tensor_view *o_v)
{
    CVM_TRY(view_op_check(v, strides, count, o_v));
    cvm_tensor_view r = *v;
    for (uint32_t i = 0; i < count; ++i)
        r.viewStride[i] = strides[i];
    *o_v = r;
    return CVM_SUCCESS;
}

cvm_result cvm_tensor_view_set_clip(const cvm_tensor_view *v, uint32_t clipRowOffset,
                                    uint32_t clipRowSpan, uint32_t clipColOffset,
                                    uint32_t clipColSpan, cvm_tensor_view *o_v)
{
    if (!view_ok(v) || o_v == NULL)
        return CVM_ERROR_INVALID_ARGUMENT;
    cvm_tensor_view r = *v;
    r.clipRowOffset = clipRowOffset;
    r.clipRowSpan = clipRowSpan;
    r.clipColOffset = clipColOffset;
    r.clipColSpan = clipColSpan;
    *o_v = r;
    return CVM_SUCCESS;
}

/* ======================================================================== */
/* Addressing: the pseudo-code of [CM2], one function per text function     */
/* ======================================================================== */

typedef uint64_t coord64[CVM_TENSOR_MAX_DIM];

/* OpSMod for a positive divisor: the result has the sign of the divisor.
 * SPEC_NOTES "remainders": smod(-5, 20) == 15. */
static int64_t smod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

/* Division rounding toward minus infinity (b > 0), so that a - q*b is in
 * [0, b): used for coordinates below zero that clamp mode Undefined lets
 * through, where the texts say nothing. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b < 0) ? q - 1 : q;
}

/* matrixCoordToLinear(t, row, col, N): row * N + col, exact in 64 bits. */
static uint64_t matrixCoordToLinear(uint32_t row, uint32_t col, uint32_t N)
{
    return (uint64_t)row * N + col;
}

/* SPEC_NOTES "clip test overflow": clipRowOffset + clipRowSpan is computed
 * in 64 bits (the default span 0xFFFFFFFF would wrap in 32). */
static bool clip_row(const cvm_tensor_view *v, uint32_t row)
{
    return row < v->clipRowOffset || (uint64_t)row >= (uint64_t)v->clipRowOffset + v->clipRowSpan;
}

static bool clip_col(const cvm_tensor_view *v, uint32_t col)
{
    return col < v->clipColOffset || (uint64_t)col >= (uint64_t)v->clipColOffset + v->clipColSpan;
}

/* width = min(N, clipColSpan) (SPEC_NOTES "clip width": as written). */
static uint64_t clip_width(const cvm_tensor_view *v, uint32_t N)
{
    return CVM_MIN((uint64_t)N, (uint64_t)v->clipColSpan);
}

/* matrixCoordToLinear(t, v, row, col, N): false when the element is outside
 * the clip region ("Load or store is skipped"). */
static bool matrixCoordToLinearWithView(const cvm_tensor_view *v, uint32_t row, uint32_t col,
                                        uint32_t N, uint64_t *o_index)
{
    if (clip_row(v, row) || clip_col(v, col))
        return false;
    uint64_t r = row - v->clipRowOffset;
    uint64_t c = col - v->clipColOffset;
    *o_index = r * clip_width(v, N) + c;
    return true;
}

/* linearToViewCoord: dimensions are viewDimension, or the layout's span when
 * the view has no dimensions. */
static cvm_result linearToViewCoord(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                    uint64_t index, coord64 o_viewCoord)
{
    const uint32_t *dimensions = v->hasDimensions ? v->viewDimension : t->span;
    memset(o_viewCoord, 0, sizeof(coord64));
    for (int32_t dim = (int32_t)v->dim - 1; dim >= 0; --dim) {
        uint32_t i = v->permutation[dim];
        if (dimensions[i] == 0)
            return CVM_ERROR_INVALID_ARGUMENT; /* index % 0: undefined */
        o_viewCoord[i] = index % dimensions[i];
        index /= dimensions[i];
    }
    return CVM_SUCCESS;
}

/* The strides viewCoordToLinear uses: viewStride, or "stride to match
 * t.span" (64-bit, wrapping). */
static void view_strides(const cvm_tensor_layout *t, const cvm_tensor_view *v, coord64 o_stride)
{
    memset(o_stride, 0, sizeof(coord64));
    if (v->hasDimensions) {
        for (uint32_t d = 0; d < v->dim; ++d)
            o_stride[d] = v->viewStride[d];
    } else {
        o_stride[v->dim - 1] = 1;
        for (int32_t dim = (int32_t)v->dim - 2; dim >= 0; --dim)
            o_stride[dim] = o_stride[dim + 1] * t->span[dim + 1];
    }
}

static uint64_t viewCoordToLinear(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                  const coord64 viewCoord)
{
    coord64 stride;
    view_strides(t, v, stride);
    uint64_t index = 0;
    for (int32_t dim = (int32_t)v->dim - 1; dim >= 0; --dim)
        index += viewCoord[dim] * stride[dim];
    return index;
}

static cvm_result linearToSpanCoord(const cvm_tensor_layout *t, uint64_t index,
                                    coord64 o_spanCoord)
{
    memset(o_spanCoord, 0, sizeof(coord64));
    for (int32_t dim = (int32_t)t->dim - 1; dim >= 0; --dim) {
        if (t->span[dim] == 0)
            return CVM_ERROR_INVALID_ARGUMENT; /* index % 0: undefined */
        o_spanCoord[dim] = index % t->span[dim];
        index /= t->span[dim];
    }
    return CVM_SUCCESS;
}

/* One iteration of spanCoordToTensorCoord's loop.  Returns DIM_NEXT with
 * the block coordinate and coordinate in block, DIM_STOP when "terminate
 * index calculation" (kind in *o_kind), or DIM_ERROR. */
enum { DIM_NEXT, DIM_STOP, DIM_ERROR };

static int spanCoordToTensorCoord_dim(const cvm_tensor_layout *t, cvm_tensor_access access,
                                      uint32_t dim, uint64_t spanCoord, int64_t *o_blockCoord,
                                      uint32_t *o_coordInBlock, uint8_t *io_undefined,
                                      uint8_t *o_kind)
{
    /* int32_t c = spanCoord[dim] + t.offset[dim]; here in 64 bits.
     * spanCoord < span <= 0xFFFFFFFF, so this is exact.  SPEC_NOTES
     * "dimensions up to ~0": compared with layoutDimension in signed 64. */
    int64_t c = (int64_t)spanCoord + t->offset[dim];
    const int64_t D = t->layoutDimension[dim];

    if (c < 0 || c >= D) {
        /* "For stores, other than Undefined, everything is treated as
         * discard."  SPEC_NOTES "stores with a clamp mode": every
         * out-of-range store is dropped, whatever the mode; under Undefined
         * that is one allowed outcome of undefined behaviour, and flagged. */
        if (access == CVM_TENSOR_STORE) {
            if (t->clampMode == CVM_TENSOR_CLAMP_UNDEFINED)
                *io_undefined = 1;
            *o_kind = CVM_TENSOR_ELEMENT_DROPPED;
            return DIM_STOP;
        }
        switch (t->clampMode) {
        case CVM_TENSOR_CLAMP_UNDEFINED:
            /* "undefined behavior": address with the coordinate as it is and
             * let the memory layer's bounds check judge it. */
            *io_undefined = 1;
            break;
        case CVM_TENSOR_CLAMP_CONSTANT:
            /* SPEC_NOTES "Constant clamp value": the low bits of clampValue;
             * no memory access, no DecodeFunc call. */
            *o_kind = CVM_TENSOR_ELEMENT_CLAMP_CONSTANT;
            return DIM_STOP;
        case CVM_TENSOR_CLAMP_CLAMP_TO_EDGE:
            if (D == 0)
                return DIM_ERROR; /* no in-range coordinate to clamp to */
            c = CVM_MIN(CVM_MAX(c, 0), D - 1);
            break;
        case CVM_TENSOR_CLAMP_REPEAT:
            if (D == 0)
                return DIM_ERROR; /* c % 0 */
            /* c = c % t.layoutDimension[dim]; "remainders are computed as
             * defined in OpSMod" (SPEC_NOTES "remainders"). */
            c = smod(c, D);
            break;
        case CVM_TENSOR_CLAMP_REPEAT_MIRRORED:
            if (D == 0)
                return DIM_ERROR;
            if (D == 1) {
                /* SPEC_NOTES "layoutDimension == 1 in MirrorRepeat": the
                 * modulus 2*1-2 is 0; the only in-range coordinate is 0. */
                c = 0;
            } else {
                /* SPEC_NOTES "MirrorRepeat formula": the text's
                 *     c = (c >= dim) ? (2*dim-2-c) : c;
                 * uses the loop index `dim` where layoutDimension[dim] is
                 * meant. */
                c = smod(c, 2 * D - 2);
                if (c >= D)
                    c = 2 * D - 2 - c;
            }
            break;
        }
    }

    /* coordInBlock[dim] = c % t.blockSize[dim];
     * blockCoord[dim] = c / t.blockSize[dim]; */
    const int64_t bs = t->blockSize[dim];
    if (bs == 0)
        return DIM_ERROR;
    int64_t q = floor_div(c, bs);
    *o_blockCoord = q;
    *o_coordInBlock = (uint32_t)(c - q * bs);
    return DIM_NEXT;
}

/* spanCoordToTensorCoord and tensorCoordToLinear for one element; fills
 * everything in *o_e.  The index sum wraps mod 2^64 (see the header). */
static cvm_result span_to_element(const cvm_tensor_layout *t, cvm_tensor_access access,
                                  const coord64 spanCoord, cvm_tensor_element *o_e)
{
    cvm_tensor_element e;
    memset(&e, 0, sizeof e);
    int64_t blockCoord[CVM_TENSOR_MAX_DIM] = {0};
    for (uint32_t dim = 0; dim < t->dim; ++dim) {
        uint8_t kind = CVM_TENSOR_ELEMENT_MEMORY;
        int r = spanCoordToTensorCoord_dim(t, access, dim, spanCoord[dim], &blockCoord[dim],
                                           &e.coordInBlock[dim], &e.undefined, &kind);
        if (r == DIM_ERROR)
            return CVM_ERROR_INVALID_ARGUMENT;
        if (r == DIM_STOP) {
            /* "terminate index calculation": nothing but the kind. */
            uint8_t undefined = e.undefined;
            memset(&e, 0, sizeof e);
            e.kind = kind;
            e.undefined = undefined;
            *o_e = e;
            return CVM_SUCCESS;
        }
    }
    /* tensorCoordToLinear(t, blockCoord) */
    uint64_t index = 0;
    for (uint32_t dim = 0; dim < t->dim; ++dim) {
        index += (uint64_t)blockCoord[dim] * t->stride[dim];
        e.blockCoord[dim] = (uint32_t)blockCoord[dim];
    }
    e.kind = CVM_TENSOR_ELEMENT_MEMORY;
    e.index = (int64_t)index;
    *o_e = e;
    return CVM_SUCCESS;
}

static cvm_result address_check(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                cvm_tensor_access access, uint32_t N)
{
    if (!layout_ok(t) || (v != NULL && !view_ok(v)) || N == 0 ||
        (access != CVM_TENSOR_LOAD && access != CVM_TENSOR_STORE))
        return CVM_ERROR_INVALID_ARGUMENT;
    /* With hasDimensions false the view's dimensions are t.span[0..VDim-1],
     * which do not all exist when VDim > LDim. */
    if (v != NULL && !v->hasDimensions && v->dim > t->dim)
        return CVM_ERROR_INVALID_MODULE;
    return CVM_SUCCESS;
}

/* The reference, without argument checks. */
static cvm_result element_address(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                  cvm_tensor_access access, uint32_t row, uint32_t col,
                                  uint32_t N, cvm_tensor_element *o_e)
{
    uint64_t index;
    if (v == NULL) {
        /* matrixCoordToTensorElement */
        index = matrixCoordToLinear(row, col, N);
    } else {
        /* matrixCoordToTensorElementWithView (SPEC_NOTES: the text's
         * signature omits `v`; it is meant). */
        if (!matrixCoordToLinearWithView(v, row, col, N, &index)) {
            memset(o_e, 0, sizeof *o_e);
            o_e->kind = CVM_TENSOR_ELEMENT_CLIPPED;
            return CVM_SUCCESS;
        }
        coord64 viewCoord;
        CVM_TRY(linearToViewCoord(t, v, index, viewCoord));
        index = viewCoordToLinear(t, v, viewCoord);
    }
    coord64 spanCoord;
    CVM_TRY(linearToSpanCoord(t, index, spanCoord));
    return span_to_element(t, access, spanCoord, o_e);
}

cvm_result cvm_tensor_element_address(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                      cvm_tensor_access access, uint32_t row, uint32_t col,
                                      uint32_t N, cvm_tensor_element *o_e)
{
    CVM_TRY(address_check(t, v, access, N));
    if (o_e == NULL || col >= N)
        return CVM_ERROR_INVALID_ARGUMENT;
    return element_address(t, v, access, row, col, N, o_e);
}

cvm_result cvm_tensor_plan_reference(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                     cvm_tensor_access access, uint32_t M, uint32_t N,
                                     cvm_tensor_element *o_elements)
{
    CVM_TRY(address_check(t, v, access, N));
    if (o_elements == NULL && M != 0)
        return CVM_ERROR_INVALID_ARGUMENT;
    for (uint32_t row = 0; row < M; ++row)
        for (uint32_t col = 0; col < N; ++col)
            CVM_TRY(element_address(t, v, access, row, col, N, &o_elements[(size_t)row * N + col]));
    return CVM_SUCCESS;
}

/* ======================================================================== */
/* The plan and its separable fast path                                     */
/* ======================================================================== */

/* When the view is absent or the identity and span[LDim-1] equals the row
 * width W of the (clipped) matrix, the linear index r'*W + c' splits: its
 * span coordinate for dimension LDim-1 is c' (c' < W) and those of
 * dimensions 0..LDim-2 come from r' alone.  Each dimension's clamp decision
 * and block coordinate depends on its own span coordinate only, and the
 * index is a sum over dimensions, so a row's part (dimensions 0..LDim-2)
 * and a column's part (dimension LDim-1) can each be resolved once and
 * combined per element.  Preconditions make the reference unable to fail
 * before the clamp loop (no zero span or view dimension) and the view
 * mapping exact (no wrapping).
 *
 * Where the view is the identity: VDim == LDim, permutation (0..VDim-1), and
 * either no dimensions (then viewCoordToLinear recomposes the mixed-radix
 * digits it just took apart: index mod the product of the spans, which
 * linearToSpanCoord cannot tell from index) or viewDimension == span with
 * viewStride the packed strides of the span (the same computation). */

static bool mul_u64_ok(uint64_t a, uint64_t b, uint64_t *o)
{
    if (b != 0 && a > UINT64_MAX / b)
        return false;
    *o = a * b;
    return true;
}

/* The row width of the separable path, or 0 when it does not apply; the
 * layout dimension the column resolves goes to *o_p.
 *
 * Permuted views: with VDim == LDim and no view dimensions (or view
 * dimensions equal to the span with the packed strides of the span, the same
 * computation), linearToViewCoord takes the mixed-radix digits of the linear
 * index with radices span[perm[VDim-1]], span[perm[VDim-2]], ...,
 * span[perm[0]] (the last one modulo), into viewCoord[perm[k]]; each digit is
 * below its span, so viewCoordToLinear with the packed strides of the span
 * (exact when the product of the spans fits in 64 bits) followed by
 * linearToSpanCoord gives spanCoord == viewCoord.  When the innermost radix
 * span[perm[VDim-1]] equals the row width W, the digit of dimension
 * p = perm[VDim-1] is c' and the others come from r' alone (the identity is
 * the case p == LDim-1). */
static uint64_t separable_width(const cvm_tensor_layout *t, const cvm_tensor_view *v, uint32_t N,
                                uint32_t *o_p)
{
    const uint32_t L = t->dim;
    for (uint32_t d = 0; d < L; ++d)
        if (t->span[d] == 0)
            return 0;
    uint64_t W = N;
    uint32_t p = L - 1;
    if (v != NULL) {
        if (v->dim != L)
            return 0;
        /* packed strides of the span, exact */
        uint64_t packed = 1;
        for (int32_t d = (int32_t)L - 1; d >= 0; --d) {
            if (v->hasDimensions &&
                (v->viewDimension[d] != t->span[d] || v->viewStride[d] != packed))
                return 0;
            if (!mul_u64_ok(packed, t->span[d], &packed))
                return 0;
        }
        p = v->permutation[L - 1];
        W = clip_width(v, N);
    }
    *o_p = p;
    return (uint64_t)t->span[p] == W ? W : 0;
}

/* The layout dimensions other than the columns' p, those before it and
 * those after it (the row parts of the separable path). */
static void split_dims(uint32_t L, uint32_t p, uint32_t *pre, uint32_t *o_npre, uint32_t *post,
                       uint32_t *o_npost)
{
    uint32_t npre = 0, npost = 0;
    for (uint32_t d = 0; d < L; ++d) {
        if (d < p)
            pre[npre++] = d;
        else if (d > p)
            post[npost++] = d;
    }
    *o_npre = npre;
    *o_npost = npost;
}

/* A row's span coordinates in the dimensions other than the columns':
 * linearToViewCoord of r'*W + c' for the digits after the first (radices
 * span[perm[L-2]], ..., span[perm[0]]), r' being the quotient by
 * span[p] == W (r' counted from the clip). */
static void row_span_coord(const cvm_tensor_layout *t, const cvm_tensor_view *v, uint32_t row,
                           coord64 o_span)
{
    uint64_t index = row - (v != NULL ? v->clipRowOffset : 0);
    memset(o_span, 0, sizeof(coord64));
    for (int32_t k = (int32_t)t->dim - 2; k >= 0; --k) {
        uint32_t d = v != NULL ? v->permutation[k] : (uint32_t)k;
        o_span[d] = index % t->span[d];
        index /= t->span[d];
    }
}

/* Internal marker in `kind` for a part whose calculation failed. */
#define PART_ERROR 0xFFu

/* Resolves the `n` dimensions `dims` (increasing) with the given span
 * coordinates into *o_p: kind MEMORY (all continue; index holds the partial
 * sum), DROPPED / CLAMP_CONSTANT (terminated), or PART_ERROR. */
static void resolve_part(const cvm_tensor_layout *t, cvm_tensor_access access,
                         const uint32_t *dims, uint32_t n, const coord64 spanCoord,
                         cvm_tensor_element *o_p)
{
    memset(o_p, 0, sizeof *o_p);
    uint64_t index = 0;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t d = dims[k];
        int64_t bc = 0;
        uint8_t kind = CVM_TENSOR_ELEMENT_MEMORY;
        int r = spanCoordToTensorCoord_dim(t, access, d, spanCoord[d], &bc, &o_p->coordInBlock[d],
                                           &o_p->undefined, &kind);
        if (r == DIM_ERROR) {
            o_p->kind = PART_ERROR;
            return;
        }
        if (r == DIM_STOP) {
            uint8_t undefined = o_p->undefined;
            memset(o_p, 0, sizeof *o_p);
            o_p->kind = kind;
            o_p->undefined = undefined;
            return;
        }
        index += (uint64_t)bc * t->stride[d];
        o_p->blockCoord[d] = (uint32_t)bc;
    }
    o_p->kind = CVM_TENSOR_ELEMENT_MEMORY;
    o_p->index = (int64_t)index;
}

/* The reference resolves dimensions 0..LDim-1 in order and stops at the
 * first that terminates or fails.  The column resolves dimension p; a row's
 * other dimensions are split into those before p (`pre`) and after it
 * (`post`), so an element is: pre if pre terminated or failed, else the
 * column part if it did, else post if it did, else the sum of the three
 * (`undefined` gathered from every part resolved). */
static cvm_result plan_separable(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                 cvm_tensor_access access, uint32_t M, uint32_t N, uint32_t p,
                                 cvm_tensor_element *o_elements)
{
    const uint32_t L = t->dim;
    if (M == 0)
        return CVM_SUCCESS;
    uint32_t pre_dims[CVM_TENSOR_MAX_DIM], post_dims[CVM_TENSOR_MAX_DIM], npre, npost;
    split_dims(L, p, pre_dims, &npre, post_dims, &npost);
    /* Column parts go into row 0 of the output; rows are then filled from
     * the last to the first, row 0 in place (each element reads only its own
     * column part), so no scratch memory is needed. */
    cvm_tensor_element *cols = o_elements;
    for (uint32_t col = 0; col < N; ++col) {
        if (v != NULL && clip_col(v, col)) {
            memset(&cols[col], 0, sizeof cols[col]);
            cols[col].kind = CVM_TENSOR_ELEMENT_CLIPPED;
            continue;
        }
        coord64 spanCoord = {0};
        spanCoord[p] = col - (v != NULL ? v->clipColOffset : 0); /* c' < W = span[p] */
        resolve_part(t, access, &p, 1, spanCoord, &cols[col]);
    }

    /* Status as the reference's row-major walk: an error is returned if any
     * element reaches one (the code is the same for every such element). */
    cvm_result status = CVM_SUCCESS;
    for (uint32_t row = M; row-- > 0;) {
        cvm_tensor_element *out = o_elements + (size_t)row * N;
        bool row_clipped = v != NULL && clip_row(v, row);
        cvm_tensor_element pre, post;
        memset(&pre, 0, sizeof pre);
        memset(&post, 0, sizeof post);
        if (!row_clipped) {
            /* linearToViewCoord of r'*W + c' for the digits after the first
             * (radices span[perm[L-2]], ..., span[perm[0]]): r' is the
             * quotient by span[p] == W. */
            coord64 spanCoord;
            row_span_coord(t, v, row, spanCoord);
            resolve_part(t, access, pre_dims, npre, spanCoord, &pre);
            if (pre.kind == CVM_TENSOR_ELEMENT_MEMORY)
                resolve_part(t, access, post_dims, npost, spanCoord, &post);
        }
        if (row_clipped || pre.kind != CVM_TENSOR_ELEMENT_MEMORY) {
            /* The whole row is decided by the clip or by the dimensions
             * before p, except columns outside the clip (the clip test comes
             * first). */
            cvm_tensor_element whole;
            memset(&whole, 0, sizeof whole);
            whole.kind = row_clipped ? (uint8_t)CVM_TENSOR_ELEMENT_CLIPPED : pre.kind;
            whole.undefined = row_clipped ? 0 : pre.undefined;
            for (uint32_t col = 0; col < N; ++col) {
                if (cols[col].kind == CVM_TENSOR_ELEMENT_CLIPPED) {
                    if (row != 0) /* row 0 holds the CLIPPED entry already */
                        out[col] = cols[col];
                    continue;
                }
                if (whole.kind == PART_ERROR)
                    status = CVM_ERROR_INVALID_ARGUMENT;
                out[col] = whole;
            }
            continue;
        }
        /* The row's dimensions other than p, merged (when post continues). */
        cvm_tensor_element rp = pre;
        if (post.kind == CVM_TENSOR_ELEMENT_MEMORY) {
            for (uint32_t k = 0; k < npost; ++k) {
                uint32_t d = post_dims[k];
                rp.blockCoord[d] = post.blockCoord[d];
                rp.coordInBlock[d] = post.coordInBlock[d];
            }
            rp.index = (int64_t)((uint64_t)pre.index + (uint64_t)post.index);
            rp.undefined = (uint8_t)(pre.undefined | post.undefined);
        }
        for (uint32_t col = 0; col < N; ++col) {
            const cvm_tensor_element *cp = &cols[col];
            if (CVM_LIKELY(cp->kind == CVM_TENSOR_ELEMENT_MEMORY)) {
                if (CVM_LIKELY(post.kind == CVM_TENSOR_ELEMENT_MEMORY)) {
                    /* Written in place field by field (cp may be out[col]
                     * in row 0, so it is read first), the coordinate arrays
                     * from rp, which the loop never writes: assembling the
                     * entry on the stack and copying it, or copying rp
                     * whole, stalls on store forwarding. */
                    uint32_t bc = cp->blockCoord[p], cb = cp->coordInBlock[p];
                    uint8_t cu = cp->undefined;
                    int64_t ci = cp->index;
                    cvm_tensor_element *o = &out[col];
                    memcpy(o->blockCoord, rp.blockCoord, sizeof rp.blockCoord);
                    memcpy(o->coordInBlock, rp.coordInBlock, sizeof rp.coordInBlock);
                    o->kind = CVM_TENSOR_ELEMENT_MEMORY;
                    o->blockCoord[p] = bc;
                    o->coordInBlock[p] = cb;
                    o->undefined = (uint8_t)(rp.undefined | cu);
                    o->index = (int64_t)((uint64_t)rp.index + (uint64_t)ci);
                } else if (post.kind == PART_ERROR) {
                    status = CVM_ERROR_INVALID_ARGUMENT;
                } else {
                    /* terminated after p: DROPPED / CLAMP_CONSTANT */
                    cvm_tensor_element e = post;
                    e.undefined = (uint8_t)(pre.undefined | cp->undefined | post.undefined);
                    out[col] = e;
                }
            } else if (cp->kind == CVM_TENSOR_ELEMENT_CLIPPED) {
                if (row != 0)
                    out[col] = *cp;
            } else if (cp->kind == PART_ERROR) {
                status = CVM_ERROR_INVALID_ARGUMENT;
            } else {
                /* terminated in dimension p: DROPPED / CLAMP_CONSTANT */
                cvm_tensor_element e = *cp;
                e.undefined = (uint8_t)(pre.undefined | cp->undefined);
                out[col] = e;
            }
        }
    }
    return status;
}

/* The tile: the separable path with every part resolved to MEMORY.  The
 * column part of column c' (dimension p, blockSize 1) is (offset[p] + c') *
 * stride[p]; a row's part comes from its span digits as in plan_separable,
 * each coordinate checked to lie in range (then spanCoordToTensorCoord
 * changes nothing, whatever the clamp mode or access). */
bool cvm_tensor_tile_plan(const cvm_tensor_layout *t, const cvm_tensor_view *v, uint32_t M,
                          uint32_t N, cvm_tensor_tile *o_tile, uint64_t *o_row_index)
{
    uint32_t p;
    if (o_tile == NULL || o_row_index == NULL ||
        address_check(t, v, CVM_TENSOR_LOAD, N) != CVM_SUCCESS ||
        separable_width(t, v, N, &p) == 0 || t->blockSize[p] != 1)
        return false;
    const uint32_t L = t->dim;
    for (uint32_t d = 0; d < L; ++d)
        if (t->blockSize[d] == 0)
            return false;
    cvm_tensor_tile tile = {0, M, 0, N, t->stride[p]};
    if (v != NULL) {
        uint64_t row_end = CVM_MIN((uint64_t)M, (uint64_t)v->clipRowOffset + v->clipRowSpan);
        uint64_t col_end = CVM_MIN((uint64_t)N, (uint64_t)v->clipColOffset + v->clipColSpan);
        tile.row_first = v->clipRowOffset;
        tile.col_first = v->clipColOffset;
        tile.row_count = row_end > v->clipRowOffset ? (uint32_t)(row_end - v->clipRowOffset) : 0;
        tile.col_count = col_end > v->clipColOffset ? (uint32_t)(col_end - v->clipColOffset) : 0;
    }
    *o_tile = tile;
    if (tile.row_count == 0 || tile.col_count == 0)
        return true; /* every element is clipped */
    /* columns: c' in [0, col_count), coordinate offset[p] + c' */
    int64_t c0 = t->offset[p];
    if (c0 < 0 || c0 + (int64_t)tile.col_count > (int64_t)t->layoutDimension[p])
        return false;
    uint64_t col_base = (uint64_t)c0 * t->stride[p];
    if (L == 2) {
        /* The common 2-D tile: rows walk the other dimension q, r' < span[q]
         * (the separable path's quotient is then r' itself), an arithmetic
         * progression checked at its two ends. */
        uint32_t q = v != NULL ? v->permutation[0] : 0;
        int64_t r0 = t->offset[q], rl = r0 + (int64_t)tile.row_count - 1;
        if (tile.row_count <= t->span[q] && t->blockSize[q] == 1 && r0 >= 0 &&
            rl < (int64_t)t->layoutDimension[q]) {
            uint64_t step = t->stride[q], at = col_base + (uint64_t)r0 * step;
            for (uint32_t r = 0; r < tile.row_count; ++r, at += step)
                o_row_index[r] = at;
            return true;
        }
    }
    for (uint32_t r = 0; r < tile.row_count; ++r) {
        /* linearToViewCoord of r'*W + c' for the digits other than p's, as
         * in plan_separable (r' = r: rows are counted from the clip) */
        uint64_t index = r, sum = col_base;
        for (int32_t k = (int32_t)L - 2; k >= 0; --k) {
            uint32_t d = v != NULL ? v->permutation[k] : (uint32_t)k;
            /* the divisions only where they change something: a digit below
             * its span is itself, a block size of 1 divides nothing */
            uint64_t digit = index < t->span[d] ? index : index % t->span[d];
            index = index < t->span[d] ? 0 : index / t->span[d];
            int64_t c = (int64_t)digit + t->offset[d];
            if (c < 0 || c >= (int64_t)t->layoutDimension[d])
                return false;
            sum += (uint64_t)(t->blockSize[d] == 1 ? c : c / t->blockSize[d]) * t->stride[d];
        }
        o_row_index[r] = sum;
    }
    return true;
}

/* The split plan of a 2-D layout without a view whose tile lies inside
 * the tensor (rows r < span[0], so their span coordinate is r; columns,
 * dimension 1, c < N = span[1]): every coordinate offset + r (or + c) in
 * [0, layoutDimension), where no clamp mode changes it, so each part is
 * what resolve_part gives: the block and the coordinate in it, the index
 * blockCoord * stride.  Returns false (outputs unspecified) when some
 * coordinate is outside. */
static bool split_in_range(const cvm_tensor_layout *t, uint32_t M, uint32_t N,
                           cvm_tensor_element *o_rows, cvm_tensor_element *o_cols)
{
    const uint32_t nd[2] = {M, N};
    cvm_tensor_element *out[2] = {o_rows, o_cols};
    for (uint32_t d = 0; d < 2; ++d) {
        int64_t c0 = t->offset[d], bs = t->blockSize[d];
        if (bs == 0 || c0 < 0 || c0 + (int64_t)nd[d] > (int64_t)t->layoutDimension[d])
            return false;
    }
    for (uint32_t d = 0; d < 2; ++d) {
        uint64_t c = (uint64_t)t->offset[d], bs = t->blockSize[d];
        uint64_t bc = c / bs, cb = c % bs; /* kept as c counts up */
        for (uint32_t i = 0; i < nd[d]; ++i) {
            cvm_tensor_element *e = &out[d][i];
            memset(e, 0, sizeof *e);
            e->kind = CVM_TENSOR_ELEMENT_MEMORY;
            e->blockCoord[d] = (uint32_t)bc;
            e->coordInBlock[d] = (uint32_t)cb;
            e->index = (int64_t)(bc * t->stride[d]);
            if (++cb == bs) {
                cb = 0;
                ++bc;
            }
        }
    }
    return true;
}

/* plan_separable's column parts and merged row parts, when all of them
 * continue (MEMORY) and nothing is clipped: then each element is the merge
 * of its row's and its column's, as plan_separable's inner loop writes it. */
bool cvm_tensor_split_plan(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                           cvm_tensor_access access, uint32_t M, uint32_t N, uint32_t *o_p,
                           cvm_tensor_element *o_rows, cvm_tensor_element *o_cols)
{
    uint32_t p;
    if (o_rows == NULL || o_cols == NULL || o_p == NULL || M == 0 || N == 0 ||
        address_check(t, v, access, N) != CVM_SUCCESS || separable_width(t, v, N, &p) == 0)
        return false;
    const uint32_t L = t->dim;
    if (L == 2 && v == NULL && M <= t->span[0] && split_in_range(t, M, N, o_rows, o_cols)) {
        *o_p = p;
        return true;
    }
    uint32_t pre_dims[CVM_TENSOR_MAX_DIM], post_dims[CVM_TENSOR_MAX_DIM], npre, npost;
    split_dims(L, p, pre_dims, &npre, post_dims, &npost);
    for (uint32_t col = 0; col < N; ++col) {
        if (v != NULL && clip_col(v, col))
            return false;
        coord64 spanCoord = {0};
        spanCoord[p] = col - (v != NULL ? v->clipColOffset : 0);
        resolve_part(t, access, &p, 1, spanCoord, &o_cols[col]);
        if (o_cols[col].kind != CVM_TENSOR_ELEMENT_MEMORY)
            return false;
    }
    for (uint32_t row = 0; row < M; ++row) {
        if (v != NULL && clip_row(v, row))
            return false;
        coord64 spanCoord;
        row_span_coord(t, v, row, spanCoord);
        cvm_tensor_element pre, post;
        resolve_part(t, access, pre_dims, npre, spanCoord, &pre);
        if (pre.kind != CVM_TENSOR_ELEMENT_MEMORY)
            return false;
        resolve_part(t, access, post_dims, npost, spanCoord, &post);
        if (post.kind != CVM_TENSOR_ELEMENT_MEMORY)
            return false;
        cvm_tensor_element *rp = &o_rows[row];
        *rp = pre;
        for (uint32_t k = 0; k < npost; ++k) {
            uint32_t d = post_dims[k];
            rp->blockCoord[d] = post.blockCoord[d];
            rp->coordInBlock[d] = post.coordInBlock[d];
        }
        rp->index = (int64_t)((uint64_t)pre.index + (uint64_t)post.index);
        rp->undefined = (uint8_t)(pre.undefined | post.undefined);
    }
    *o_p = p;
    return true;
}

bool cvm_tensor_plan_is_separable(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                  uint32_t N)
{
    uint32_t p;
    return address_check(t, v, CVM_TENSOR_LOAD, N) == CVM_SUCCESS &&
           separable_width(t, v, N, &p) != 0;
}

cvm_result cvm_tensor_plan(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                           cvm_tensor_access access, uint32_t M, uint32_t N,
                           cvm_tensor_element *o_elements)
{
    CVM_TRY(address_check(t, v, access, N));
    if (o_elements == NULL && M != 0)
        return CVM_ERROR_INVALID_ARGUMENT;
    uint32_t p;
    if (separable_width(t, v, N, &p) != 0)
        return plan_separable(t, v, access, M, N, p, o_elements);
    return cvm_tensor_plan_reference(t, v, access, M, N, o_elements);
}
