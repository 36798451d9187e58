/* Tensor layouts and tensor views: their state, the OpTensorLayout* /
 * OpTensorView* operations, and the addressing of
 * OpCooperativeMatrixLoadTensorNV / OpCooperativeMatrixStoreTensorNV.
 *
 * Sources (names below are the texts' own words):
 *   [TA]   SPV_NV_tensor_addressing, "3.X Tensor Layout and View", the
 *          Tensor Clamp Mode table and the OpCreateTensor* / OpTensor*
 *          instructions.
 *   [CM2]  SPV_NV_cooperative_matrix2 revision 2, "3.X Tensor Layout and
 *          View": matrixCoordToTensorElement and
 *          matrixCoordToTensorElementWithView (pseudo-code), DecodeFunc.
 *   [GLSL] GLSL_NV_cooperative_matrix2: the same pseudo-code, and the
 *          implicit stride loop of setTensorLayoutDimensionNV.
 *   [NOTES] shared/docs/SPEC_NOTES.md, "Tensor addressing": the corrections
 *          applied here; each place is marked "SPEC_NOTES:" in tensor_layout.c.
 *
 * Everything here is a pure function of its arguments: no allocation, no
 * global state, no printing.  The engine keeps layouts and views as plain
 * values (they are SSA values in SPIR-V) and asks for one element's address
 * (cvm_tensor_element_address, the literal reference) or for a whole
 * matrix's (cvm_tensor_plan, with fast paths that give identical output).
 *
 * Arithmetic: tensor coordinates, offsets and the resulting index are signed
 * 64-bit, so `c < 0 || c >= layoutDimension` and the clip test never
 * overflow ([NOTES] "dimensions up to ~0", "clip test overflow").  Linear
 * indices inside the matrix, view and span are unsigned 64-bit.  Sums of
 * products (index = sum blockCoord[d]*stride[d], view strides derived from
 * spans) wrap modulo 2^64; that happens only for tensors far larger than any
 * memory, whose addresses the memory layer rejects anyway.  The layout and
 * view state itself is 32-bit as the texts declare it, and the operations
 * that compute state (implicit strides, offset sums) wrap modulo 2^32 as
 * SPIR-V integer arithmetic does. */
#ifndef CVM_EXEC_OPS_TENSOR_LAYOUT_H
#define CVM_EXEC_OPS_TENSOR_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "cvm_common.h"

/* Dimensions of a layout or view: Dim is in [1, CVM_TENSOR_MAX_DIM] ([TA]
 * OpTypeTensorLayoutNV, OpTypeTensorViewNV; MAX_DIM in [CM2]). */
#define CVM_TENSOR_MAX_DIM 5

/* [TA] "Tensor Clamp Mode"; the values are the SPIR-V enumerants. */
typedef enum cvm_tensor_clamp_mode {
    CVM_TENSOR_CLAMP_UNDEFINED = 0,
    CVM_TENSOR_CLAMP_CONSTANT = 1,
    CVM_TENSOR_CLAMP_CLAMP_TO_EDGE = 2,
    CVM_TENSOR_CLAMP_REPEAT = 3,
    CVM_TENSOR_CLAMP_REPEAT_MIRRORED = 4 /* GLSL and [CM2]: MirrorRepeat */
} cvm_tensor_clamp_mode;

/* tensorLayoutNV<Dim, ClampMode> ([TA] 3.X).  `dim` (LDim) and `clampMode`
 * come from the type; the rest is the run-time state.  Entries at index
 * `dim` and past it are zero.  Units: layoutDimension, offset, span and
 * blockSize in tensor elements; stride in blocks (in elements when every
 * blockSize is 1).  Dimension 0 is the outermost. */
typedef struct cvm_tensor_layout {
    uint32_t dim;                  /* LDim, 1..5 */
    cvm_tensor_clamp_mode clampMode;
    uint32_t blockSize[CVM_TENSOR_MAX_DIM];
    uint32_t layoutDimension[CVM_TENSOR_MAX_DIM];
    uint32_t stride[CVM_TENSOR_MAX_DIM];
    int32_t offset[CVM_TENSOR_MAX_DIM];
    uint32_t span[CVM_TENSOR_MAX_DIM];
    uint32_t clampValue; /* Constant mode: loads return its low bits */
} cvm_tensor_layout;

/* tensorViewNV<Dim, HasDimensions, p0, ..., p<Dim-1>> ([TA] 3.X).  `dim`
 * (VDim), `hasDimensions` and `permutation` come from the type.  Entries at
 * index `dim` and past it are zero. */
typedef struct cvm_tensor_view {
    uint32_t dim; /* VDim, 1..5 */
    bool hasDimensions;
    uint32_t permutation[CVM_TENSOR_MAX_DIM]; /* a permutation of [0, dim) */
    uint32_t viewDimension[CVM_TENSOR_MAX_DIM];
    uint32_t viewStride[CVM_TENSOR_MAX_DIM]; /* in elements of the span */
    uint32_t clipRowOffset, clipRowSpan, clipColOffset, clipColSpan;
} cvm_tensor_view;

/* ---- Tensor layout operations ------------------------------------------
 * Each reads `*t`, writes a new value to `*o_t` (which may be `t`: the input
 * is copied first) and returns CVM_SUCCESS; on error `*o_t` is untouched.
 * Errors: CVM_ERROR_INVALID_ARGUMENT for a NULL pointer or a layout whose
 * `dim` is not 1..5; CVM_ERROR_INVALID_MODULE where the texts' rules on the
 * instruction are broken (operand counts must match the dimension of
 * 'Result Type'). */

/* OpCreateTensorLayoutNV ([TA]): layoutDimension, stride, span and offset
 * zero, blockSize one, clampValue zero.  `dim` must be 1..5 and `clampMode`
 * a Tensor Clamp Mode (0..4), else CVM_ERROR_INVALID_MODULE. */
cvm_result cvm_tensor_layout_create(uint32_t dim, uint32_t clampMode, cvm_tensor_layout *o_t);

/* OpTensorLayoutSetBlockSizeNV ([TA]): blockSize[i] = blockSize[i] operand;
 * `count` must equal LDim.  A block size of 0 is CVM_ERROR_INVALID_ARGUMENT
 * (every later address would divide by it; the texts leave it undefined). */
cvm_result cvm_tensor_layout_set_block_size(const cvm_tensor_layout *t, const uint32_t *blockSize,
                                            uint32_t count, cvm_tensor_layout *o_t);

/* OpTensorLayoutSetDimensionNV ([TA], loop of [GLSL]): layoutDimension[i] =
 * span[i] = dims[i], offset[i] = 0, stride[LDim-1] = 1 and stride[i] =
 * stride[i+1] * ceiling(dims[i+1] / blockSize[i+1]) (mod 2^32).  Order
 * matters: the block size in force is the current one. */
cvm_result cvm_tensor_layout_set_dimension(const cvm_tensor_layout *t, const uint32_t *dims,
                                           uint32_t count, cvm_tensor_layout *o_t);

/* OpTensorLayoutSetStrideNV ([TA]): stride[i] = strides[i].  The texts'
 * "Stride<i> must be at least Stride<i+1> * ceiling(layoutDimension[i+1] /
 * blockSize[i+1])" is a rule on run-time values that a driver does not check
 * (a violation is undefined behaviour, e.g. overlapping rows), so it is not
 * an error here; cvm_tensor_layout_stride_rule_holds tests it for a checking
 * mode. */
cvm_result cvm_tensor_layout_set_stride(const cvm_tensor_layout *t, const uint32_t *strides,
                                        uint32_t count, cvm_tensor_layout *o_t);

/* OpTensorLayoutSliceNV ([TA]): offset[i] += offsets[i] (mod 2^32, as the
 * int32 state), span[i] = spans[i].  `count` (pairs) must equal LDim. */
cvm_result cvm_tensor_layout_slice(const cvm_tensor_layout *t, const int32_t *offsets,
                                   const uint32_t *spans, uint32_t count, cvm_tensor_layout *o_t);

/* OpTensorLayoutSetClampValueNV ([TA]): clampValue = value. */
cvm_result cvm_tensor_layout_set_clamp_value(const cvm_tensor_layout *t, uint32_t value,
                                             cvm_tensor_layout *o_t);

/* True when stride[i] >= stride[i+1] * ceiling(layoutDimension[i+1] /
 * blockSize[i+1]) for every i < LDim-1, computed exactly in 64 bits (the
 * rule of OpTensorLayoutSetStrideNV).  False for an invalid layout. */
bool cvm_tensor_layout_stride_rule_holds(const cvm_tensor_layout *t);

/* ---- Tensor view operations --------------------------------------------
 * Same conventions as the layout operations. */

/* OpCreateTensorViewNV ([TA]): viewDimension and viewStride zero, clip
 * offsets 0, clip spans 0xFFFFFFFF.  `dim` must be 1..5 and `permutation`
 * (`count` entries, `count` == `dim`) a permutation of [0, dim), else
 * CVM_ERROR_INVALID_MODULE. */
cvm_result cvm_tensor_view_create(uint32_t dim, bool hasDimensions, const uint32_t *permutation,
                                  uint32_t count, cvm_tensor_view *o_v);

/* OpTensorViewSetDimensionNV ([TA]): viewDimension[i] = dims[i],
 * viewStride[VDim-1] = 1, viewStride[i] = product of dims[i+1..VDim-1]
 * (mod 2^32).  SPEC_NOTES: the text's viewStride[LDim-1] means VDim-1. */
cvm_result cvm_tensor_view_set_dimension(const cvm_tensor_view *v, const uint32_t *dims,
                                         uint32_t count, cvm_tensor_view *o_v);

/* OpTensorViewSetStrideNV ([TA]): viewStride[i] = strides[i]. */
cvm_result cvm_tensor_view_set_stride(const cvm_tensor_view *v, const uint32_t *strides,
                                      uint32_t count, cvm_tensor_view *o_v);

/* OpTensorViewSetClipNV ([TA]): the four clip values, in operand order. */
cvm_result cvm_tensor_view_set_clip(const cvm_tensor_view *v, uint32_t clipRowOffset,
                                    uint32_t clipRowSpan, uint32_t clipColOffset,
                                    uint32_t clipColSpan, cvm_tensor_view *o_v);

/* ---- Addressing ([CM2] matrixCoordToTensorElement[WithView]) ----------- */

typedef enum cvm_tensor_access {
    CVM_TENSOR_LOAD = 0, /* OpCooperativeMatrixLoadTensorNV */
    CVM_TENSOR_STORE = 1 /* OpCooperativeMatrixStoreTensorNV */
} cvm_tensor_access;

/* What happens to one matrix element. */
typedef enum cvm_tensor_element_kind {
    /* Load from / store to element `index` of the tensor: the byte offset
     * from 'Pointer' is index * size of the matrix component type; with a
     * DecodeFunc the function's pointer is 'Pointer' + index * size of its
     * pointee type (the block), and blockCoord/coordInBlock are its other
     * arguments (SPEC_NOTES "decode pointer").  Stores get the same
     * treatment of block sizes: "a block size larger than 1 must not be used"
     * with a store is a validation rule (SPEC_NOTES "block size on stores"),
     * so it is not checked here. */
    CVM_TENSOR_ELEMENT_MEMORY = 0,
    /* Load only, clamp mode Constant, a coordinate out of range: the element
     * is the low bits of clampValue cut to the component width; no memory is
     * read and no DecodeFunc is called (SPEC_NOTES "Constant clamp value"). */
    CVM_TENSOR_ELEMENT_CLAMP_CONSTANT = 1,
    /* Outside the view's clip region: a load keeps the element of 'Object',
     * a store writes nothing. */
    CVM_TENSOR_ELEMENT_CLIPPED = 2,
    /* Store only, a coordinate out of range: nothing is written, whatever the
     * clamp mode (SPEC_NOTES "stores with a clamp mode"). */
    CVM_TENSOR_ELEMENT_DROPPED = 3
} cvm_tensor_element_kind;

/* The address of one matrix element.  For kinds other than MEMORY, `index`,
 * blockCoord and coordInBlock are zero.  Entries of blockCoord/coordInBlock
 * at LDim and past it are zero. */
typedef struct cvm_tensor_element {
    uint8_t kind; /* cvm_tensor_element_kind */
    /* Nonzero when some coordinate was out of range under clamp mode
     * Undefined ("out of bounds accesses have undefined behavior"): a load
     * then uses the unclamped coordinate (kind MEMORY, so the memory layer's
     * bounds check sees it); a store is DROPPED.  A checking mode may report
     * it. */
    uint8_t undefined;
    /* tensorCoordToLinear(blockCoord) = sum blockCoord[d] * stride[d]: in
     * elements when every blockSize is 1, else in blocks; may be negative
     * only when `undefined` is set. */
    int64_t index;
    /* Passed to a DecodeFunc: tensor coordinate / blockSize and
     * tensor coordinate % blockSize, per layout dimension.  (Stored as the
     * texts' uint32 arrays; an `undefined` coordinate below zero is divided
     * rounding down, so coordInBlock stays in [0, blockSize).) */
    uint32_t blockCoord[CVM_TENSOR_MAX_DIM];
    uint32_t coordInBlock[CVM_TENSOR_MAX_DIM];
} cvm_tensor_element;

/* The reference: [CM2] matrixCoordToTensorElement (v == NULL) or
 * matrixCoordToTensorElementWithView (v != NULL) for element (row, col) of a
 * matrix with N columns, step by step as written, with the SPEC_NOTES
 * corrections.  Errors (with *o_e untouched):
 *   CVM_ERROR_INVALID_ARGUMENT: NULL pointers, a layout/view with `dim`
 *     outside 1..5, a clamp mode outside 0..4, or an invalid permutation,
 *     col >= N, and values the
 *     texts leave undefined because they divide by zero: a span, blockSize
 *     or view dimension of 0, or layoutDimension 0 in ClampToEdge/Repeat/
 *     RepeatMirrored on a load; reported only when the element's
 *     calculation reaches them, as the pseudo-code would.
 *   CVM_ERROR_INVALID_MODULE: a view without dimensions (hasDimensions
 *     false) with more dimensions than the layout (its dimensions would be
 *     span entries that do not exist). */
cvm_result cvm_tensor_element_address(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                      cvm_tensor_access access, uint32_t row, uint32_t col,
                                      uint32_t N, cvm_tensor_element *o_e);

/* The addresses of all M*N elements of an M x N matrix into
 * `o_elements[row * N + col]` (caller-owned, M*N entries).  Identical, entry
 * for entry and in status, to calling cvm_tensor_element_address for each
 * element in row-major order and stopping at the first error (then the
 * contents of o_elements are unspecified).  N == 0 is
 * CVM_ERROR_INVALID_ARGUMENT, as in cvm_tensor_element_address.  Common cases (no view or an
 * identity view, span[LDim-1] equal to the row width, any clamp mode and
 * block size) take a separable path that resolves each row and each column
 * once; the rest use the reference per element.  M == 0 is an empty plan. */
cvm_result cvm_tensor_plan(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                           cvm_tensor_access access, uint32_t M, uint32_t N,
                           cvm_tensor_element *o_elements);

/* True when cvm_tensor_plan takes the separable path for this layout, view
 * and row width (for tests, and for an engine that counts slow plans). */
bool cvm_tensor_plan_is_separable(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                  uint32_t N);

/* ---- Whole-tile fast path ----------------------------------------------
 * The common load and store (a tile of a larger tensor, entirely inside
 * it) as an affine map, computed in O(M * LDim) instead of a plan entry per
 * element: element (row_first + r, col_first + c) for r < row_count and
 * c < col_count has kind MEMORY, `undefined` 0 and index
 * row_index[r] + c * col_step (mod 2^64, then read as int64, as the
 * reference's index); every other element of the M x N matrix is CLIPPED.
 * (blockCoord/coordInBlock are not given: a DecodeFunc load needs the
 * plan.) */
typedef struct cvm_tensor_tile {
    uint32_t row_first, row_count; /* matrix rows inside the view's clip */
    uint32_t col_first, col_count; /* matrix columns inside it */
    uint64_t col_step;             /* index step from a column to the next */
} cvm_tensor_tile;

/* Fills *o_tile and o_row_index[0 .. row_count) (room for M entries) and
 * returns true when that description is exact for this layout, view and
 * matrix, for loads and stores alike: the separable path applies (see
 * cvm_tensor_plan), the dimension the columns walk has blockSize 1, and
 * every coordinate the tile's elements reach lies in [0, layoutDimension),
 * so that no clamp mode changes anything.  Returns false (outputs
 * unspecified) otherwise, including every case where the reference reports
 * an error; the caller then uses cvm_tensor_plan. */
bool cvm_tensor_tile_plan(const cvm_tensor_layout *t, const cvm_tensor_view *v, uint32_t M,
                          uint32_t N, cvm_tensor_tile *o_tile, uint64_t *o_row_index);

/* ---- Split plan: the separable path's two halves ------------------------
 * For a DecodeFunc load, which needs every element's blockCoord and
 * coordInBlock, without writing a plan entry per element: when the
 * separable path applies (see cvm_tensor_plan) and every element of the
 * M x N matrix is a MEMORY element (none clipped, dropped, clamped to the
 * constant, nor an error), element (r, c) of the plan equals
 *   kind MEMORY, undefined = rows[r].undefined | cols[c].undefined,
 *   index = rows[r].index + cols[c].index (mod 2^64, read as int64),
 *   blockCoord[d] = cols[c].blockCoord[d] for d == *o_p, else
 *   rows[r].blockCoord[d], and the same for coordInBlock.
 * Fills o_rows[0 .. M), o_cols[0 .. N) and *o_p (the layout dimension the
 * columns walk) and returns true then; false otherwise (outputs
 * unspecified): the caller uses cvm_tensor_plan. */
bool cvm_tensor_split_plan(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                           cvm_tensor_access access, uint32_t M, uint32_t N, uint32_t *o_p,
                           cvm_tensor_element *o_rows, cvm_tensor_element *o_cols);

/* The same plan, always through the reference (for tests and for a checking
 * mode that wants no fast path). */
cvm_result cvm_tensor_plan_reference(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                     cvm_tensor_access access, uint32_t M, uint32_t N,
                                     cvm_tensor_element *o_elements);

#endif /* CVM_EXEC_OPS_TENSOR_LAYOUT_H */
