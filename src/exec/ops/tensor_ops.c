/* Tensor addressing in the engine: values of OpTypeTensorLayoutNV and
 * OpTypeTensorViewNV with the OpCreateTensor* / OpTensorLayout* /
 * OpTensorView* instructions (SPV_NV_tensor_addressing), and
 * OpCooperativeMatrixLoadTensorNV / OpCooperativeMatrixStoreTensorNV with
 * the TensorView, DecodeFunc (SPV_NV_cooperative_matrix2) and
 * DecodeVectorFunc (SPV_NV_cooperative_matrix_decode_vector) operands.
 *
 * Layouts and views are plain per-lane values: the register holds a
 * cvm_tensor_layout or cvm_tensor_view (ops/tensor_layout.h), whose pure
 * functions do every state change and every address.  The load and store are
 * collective: they run once per scope instance with the operands of its
 * first active invocation (the texts require them to be dynamically uniform
 * within the instance), as the KHR load/store in coopmat.c do.
 *
 * Byte offsets: a plain element is at 'Pointer' + index * size of the
 * matrix component type ([CM2] "This index is then multiplied by the size
 * of the component type of the matrix and treated as a byte offset from the
 * 'Pointer' operand").  With a DecodeFunc, the function's pointer is
 * 'Pointer' + index * size of the function's pointee type: it addresses the
 * block (SPEC_NOTES "decode pointer"). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "exec/kernels/transpose.h"
#include "exec/ops/tensor_layout.h"
#include "exec/program.h"

_Static_assert(sizeof(cvm_tensor_layout) <= CVM_TENSOR_VALUE_SIZE &&
                   sizeof(cvm_tensor_view) <= CVM_TENSOR_VALUE_SIZE,
               "a tensor layout or view value fits its register (exec.h)");

_Static_assert(sizeof(cvm_tensor_layout) <= CVM_TENSOR_VALUE_SIZE,
               "a tensor layout must fit its register");
_Static_assert(sizeof(cvm_tensor_view) <= CVM_TENSOR_VALUE_SIZE,
               "a tensor view must fit its register");

/* Extra operands of a tensor load/store (in->extra, TX_COUNT words). */
enum {
    TX_DECODE = 0,      /* function index of DecodeFunc, or UINT32_MAX */
    TX_DECODE_PSIZE,    /* size of DecodeFunc's pointee type (the block) */
    TX_VECTOR,          /* function index of DecodeVectorFunc, or UINT32_MAX */
    TX_VECTOR_PSIZE,    /* size of DecodeVectorFunc's pointee type */
    TX_V,               /* components returned by DecodeVectorFunc */
    TX_COORD_SIZE,      /* register size of the blockCoord/coordInBlock parameter */
    TX_ALIAS_VAR,       /* a load with CVM_INSN_ALIAS: the variable its result goes to */
    TX_COUNT
};

static uint32_t lane_u32(const cvm_exec *ex, uint32_t id, uint32_t lane)
{
    uint32_t x;
    memcpy(&x, CVM_LANE(ex->vals[id], lane), 4);
    return x;
}

static const char *tensor_error_text(cvm_result r)
{
    switch (r) {
    case CVM_ERROR_INVALID_MODULE:
        return "the operands break the rules of the instruction";
    case CVM_ERROR_INVALID_ARGUMENT:
        return "the value is undefined by the texts (a zero block size, span or dimension, or an "
               "uninitialized layout/view)";
    default:
        return cvm_result_string(r);
    }
}

/* The state that makes an element's address fail (cvm_tensor_element_address
 * returned `r` for layout t and view v, NULL without one), in the texts'
 * words, to `buf`; the generic text when no single value is at fault.  The
 * order is the pseudo-code's: the view's dimensions (linearToViewCoord), the
 * spans (linearToSpanCoord), then per dimension layoutDimension under a clamp
 * mode and blockSize (spanCoordToTensorCoord). */
static const char *address_error_why(const cvm_tensor_layout *t, const cvm_tensor_view *v,
                                     cvm_tensor_access acc, cvm_result r, char *buf, size_t n)
{
    if (r == CVM_ERROR_INVALID_MODULE && v && !v->hasDimensions && v->dim > t->dim) {
        snprintf(buf, n,
                 "the tensor view has VDim %u dimensions and \"hasDimensions\" false, so \"the "
                 "dimensions of the tensor layout span are used instead\" (linearToViewCoord: "
                 "dimensions[i] = t.span[i] for i < VDim), but the tensor layout has LDim %u: "
                 "t.span[%u] does not exist",
                 v->dim, t->dim, t->dim);
        return buf;
    }
    if (r != CVM_ERROR_INVALID_ARGUMENT)
        return tensor_error_text(r);
    for (uint32_t i = 0; v && v->hasDimensions && i < v->dim; i++)
        if (v->viewDimension[i] == 0) {
            snprintf(buf, n,
                     "viewDimension[%u] of the tensor view is 0 (never set by "
                     "OpTensorViewSetDimensionNV), and linearToViewCoord computes \"index %% "
                     "dimensions[i]\": undefined",
                     i);
            return buf;
        }
    for (uint32_t i = 0; i < t->dim; i++)
        if (t->span[i] == 0) {
            snprintf(buf, n,
                     "span[%u] of the tensor layout is 0 (set neither by "
                     "OpTensorLayoutSetDimensionNV nor by OpTensorLayoutSliceNV), and "
                     "linearToSpanCoord computes \"index %% t.span[dim]\": undefined",
                     i);
            return buf;
        }
    for (uint32_t i = 0; i < t->dim; i++) {
        if (acc == CVM_TENSOR_LOAD && t->layoutDimension[i] == 0 &&
            t->clampMode >= CVM_TENSOR_CLAMP_CLAMP_TO_EDGE) {
            int edge = t->clampMode == CVM_TENSOR_CLAMP_CLAMP_TO_EDGE;
            int repeat = t->clampMode == CVM_TENSOR_CLAMP_REPEAT;
            snprintf(buf, n,
                     "layoutDimension[%u] of the tensor layout is 0, so every coordinate is out "
                     "of range and clamp mode %s has no coordinate to give (\"%s\")",
                     i, edge ? "ClampToEdge" : repeat ? "Repeat" : "RepeatMirrored",
                     edge     ? "c = min(max(c, 0), t.layoutDimension[dim]-1)"
                     : repeat ? "c = c % t.layoutDimension[dim]"
                              : "c = c % (2*t.layoutDimension[dim]-2)");
            return buf;
        }
        if (t->blockSize[i] == 0) {
            snprintf(buf, n,
                     "blockSize[%u] of the tensor layout is 0, and spanCoordToTensorCoord "
                     "computes \"c %% t.blockSize[dim]\": undefined",
                     i);
            return buf;
        }
    }
    return tensor_error_text(r);
}

/* Reads the layout value `id` of lane `lane` and checks it against its type
 * (an OpUndef layout, all zero, has no dimension). */
static cvm_result read_layout(cvm_exec *ex, const cvm_insn *in, uint32_t id, uint32_t lane,
                              cvm_tensor_layout *o_t)
{
    const cvm_type *ty = &ex->prog->types[ex->prog->mod->defs[id].type];
    memcpy(o_t, CVM_LANE(ex->vals[id], lane), sizeof(*o_t));
    if (o_t->dim != ty->dim || (uint32_t)o_t->clampMode != ty->clamp_mode)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_ARGUMENT,
                             "invocation %u: tensor layout %u is not initialized "
                             "(it does not come from OpCreateTensorLayoutNV)",
                             lane, id);
    return CVM_SUCCESS;
}

static cvm_result read_view(cvm_exec *ex, const cvm_insn *in, uint32_t id, uint32_t lane,
                            cvm_tensor_view *o_v)
{
    const cvm_type *ty = &ex->prog->types[ex->prog->mod->defs[id].type];
    const uint8_t *src = CVM_LANE(ex->vals[id], lane);
    /* the register may hold any bytes (a module that skipped validation can
     * store anything where a view is loaded from): hasDimensions is read as
     * a byte before the struct's bool is, and the type's fields must match */
    uint8_t has_dims;
    memcpy(&has_dims, src + offsetof(cvm_tensor_view, hasDimensions), 1);
    if (has_dims != (ty->has_dimensions != 0))
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_ARGUMENT,
                             "invocation %u: tensor view %u is not initialized "
                             "(it does not come from OpCreateTensorViewNV)",
                             lane, id);
    memcpy(o_v, src, sizeof(*o_v));
    int perm_ok = 1;
    for (uint32_t i = 0; i < CVM_TENSOR_MAX_DIM; i++)
        perm_ok &= o_v->permutation[i] == (i < ty->dim ? ty->permutation[i] : 0);
    if (o_v->dim != ty->dim || !perm_ok)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_ARGUMENT,
                             "invocation %u: tensor view %u is not initialized "
                             "(it does not come from OpCreateTensorViewNV)",
                             lane, id);
    return CVM_SUCCESS;
}

/* Byte equality of two layout or view registers, inline (a libc memcmp call
 * per lane costs more than the comparison). */
static int same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t diff = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    for (; i < n; i++)
        diff |= (uint64_t)(a[i] ^ b[i]);
    return diff == 0;
}

/* NV-CM2.Uniform-Operands for the layout (view: `view`) value `id`: the
 * first active lane of instance i whose value differs from lane l0's, or
 * UINT32_MAX.  Field by field where a view's bool leaves padding. */
static uint32_t tensor_value_differs(const cvm_exec *ex, const cvm_insn *in, uint32_t i,
                                     uint32_t id, uint32_t l0, int view)
{
    cvm_val v = ex->vals[id];
    if (!v.stride)
        return UINT32_MAX;
    uint32_t first = cvm_scope_first_lane(ex, in, i), end = first + cvm_scope_lane_count(ex, in, i);
    const size_t tail = offsetof(cvm_tensor_view, permutation);
    for (uint32_t l = first; l < end; l++) {
        if (!ex->active[l] || l == l0)
            continue;
        const uint8_t *a = CVM_LANE(v, l0), *b = CVM_LANE(v, l);
        if (!view) {
            if (!same_bytes(a, b, sizeof(cvm_tensor_layout)))
                return l;
            continue;
        }
        cvm_tensor_view x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        if (x.dim != y.dim || x.hasDimensions != y.hasDimensions ||
            !same_bytes(a + tail, b + tail, sizeof(cvm_tensor_view) - tail))
            return l;
    }
    return UINT32_MAX;
}

/* ---- layout and view instructions (per lane) ----------------------------
 * a = the TensorLayout / TensorView operand (0 for the Create ones); the
 * other operand ids in extra (nextra of them), in instruction order. */

/* The result of lane `l` whose other operands are v[0 .. nextra), to
 * *o_value (a cvm_tensor_layout or cvm_tensor_view, by the result type);
 * fails the instruction naming the invocation. */
static cvm_result tensor_state_lane(cvm_exec *ex, const cvm_insn *in, uint32_t l,
                                    const uint32_t *v, void *o_value)
{
    const cvm_type *rt = &ex->prog->types[in->type];
    cvm_result r = CVM_SUCCESS;
    if (rt->tclass == CVM_TC_TENSOR_LAYOUT) {
        cvm_tensor_layout t;
        if (in->spv_op == SpvOpCreateTensorLayoutNV) {
            r = cvm_tensor_layout_create(rt->dim, rt->clamp_mode, &t);
        } else {
            if ((r = read_layout(ex, in, in->a, l, &t)) != CVM_SUCCESS)
                return r;
            switch (in->spv_op) {
            case SpvOpTensorLayoutSetDimensionNV:
                r = cvm_tensor_layout_set_dimension(&t, v, in->nextra, &t);
                break;
            case SpvOpTensorLayoutSetStrideNV:
                r = cvm_tensor_layout_set_stride(&t, v, in->nextra, &t);
                break;
            case SpvOpTensorLayoutSetBlockSizeNV:
                r = cvm_tensor_layout_set_block_size(&t, v, in->nextra, &t);
                break;
            case SpvOpTensorLayoutSetClampValueNV:
                r = cvm_tensor_layout_set_clamp_value(&t, v[0], &t);
                break;
            default: { /* SpvOpTensorLayoutSliceNV: (Offset, Span) pairs */
                int32_t offsets[CVM_TENSOR_MAX_DIM];
                uint32_t spans[CVM_TENSOR_MAX_DIM];
                for (uint32_t k = 0; k < in->nextra / 2; k++) {
                    offsets[k] = (int32_t)v[2 * k];
                    spans[k] = v[2 * k + 1];
                }
                r = cvm_tensor_layout_slice(&t, offsets, spans, in->nextra / 2, &t);
                break;
            }
            }
        }
        if (r == CVM_SUCCESS)
            memcpy(o_value, &t, sizeof(t));
    } else {
        cvm_tensor_view tv;
        if (in->spv_op == SpvOpCreateTensorViewNV) {
            r = cvm_tensor_view_create(rt->dim, rt->has_dimensions != 0, rt->permutation, rt->dim,
                                       &tv);
        } else {
            if ((r = read_view(ex, in, in->a, l, &tv)) != CVM_SUCCESS)
                return r;
            switch (in->spv_op) {
            case SpvOpTensorViewSetDimensionNV:
                r = cvm_tensor_view_set_dimension(&tv, v, in->nextra, &tv);
                break;
            case SpvOpTensorViewSetStrideNV:
                r = cvm_tensor_view_set_stride(&tv, v, in->nextra, &tv);
                break;
            default: /* SpvOpTensorViewSetClipNV */
                r = cvm_tensor_view_set_clip(&tv, v[0], v[1], v[2], v[3], &tv);
                break;
            }
        }
        if (r == CVM_SUCCESS)
            memcpy(o_value, &tv, sizeof(tv));
    }
    if (r == CVM_ERROR_INVALID_ARGUMENT && in->spv_op == SpvOpTensorLayoutSetBlockSizeNV)
        for (uint32_t k = 0; k < in->nextra; k++)
            if (v[k] == 0)
                return cvm_exec_fail(ex, in, r,
                                     "invocation %u: BlockSize%u is 0, and every address of "
                                     "the layout would compute \"c %% t.blockSize[dim]\" "
                                     "(spanCoordToTensorCoord): undefined",
                                     l, k);
    if (r != CVM_SUCCESS)
        return cvm_exec_fail(ex, in, r, "invocation %u: %s", l, tensor_error_text(r));
    return CVM_SUCCESS;
}

/* True when every active lane's operands equal lane `first`'s (v, and the
 * `size` bytes of operand a): the common case, layouts and views being
 * uniform in a workgroup.  `size` is a constant where it is inlined. */
static inline int tensor_state_uniform(const cvm_exec *ex, const cvm_insn *in, uint32_t first,
                                       const cvm_val *ov, uint32_t nvary, const uint32_t *vary,
                                       const uint32_t *v, size_t size)
{
    const uint8_t *a0 = in->a ? CVM_LANE(ex->vals[in->a], first) : NULL;
    cvm_val av = in->a ? ex->vals[in->a] : (cvm_val){NULL, 0};
    if (ex->nactive == ex->nlanes) {
        /* every lane: each slot is equal from lane to lane when its lanes'
         * bytes repeat with the period of the stride (a layout or view slot
         * then also compares the bytes past the value, which only makes
         * the test stricter) */
        uint32_t n = ex->nlanes;
        for (uint32_t j = 0; j < nvary; j++)
            if (memcmp(ov[j].p, ov[j].p + ov[j].stride, (size_t)(n - 1) * ov[j].stride))
                return 0;
        return !a0 || !av.stride || !memcmp(av.p, av.p + av.stride, (size_t)(n - 1) * av.stride);
    }
    for (uint32_t l = first + 1; l < ex->nlanes; l++) {
        if (!ex->active[l])
            continue;
        for (uint32_t j = 0; j < nvary; j++) {
            uint32_t x;
            memcpy(&x, CVM_LANE(ov[j], l), 4);
            if (x != v[vary[j]])
                return 0;
        }
        if (a0 && av.stride && !same_bytes(CVM_LANE(av, l), a0, size))
            return 0;
    }
    return 1;
}

static cvm_result h_tensor_state(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *rt = &p->types[in->type];
    const uint32_t *ops = p->extra + in->extra;
    cvm_val res = ex->vals[in->result];
    uint32_t v[2 * CVM_TENSOR_MAX_DIM]; /* nextra <= 2 * dim (lower_state) */
    size_t vsize = rt->tclass == CVM_TC_TENSOR_LAYOUT ? sizeof(cvm_tensor_layout)
                                                       : sizeof(cvm_tensor_view);
    /* room for either value, aligned for both */
    union {
        cvm_tensor_layout t;
        cvm_tensor_view v;
    } value;
    if (ex->flags & CVM_FLAG_REFERENCE_PATHS) {
        /* every lane computed from its own operands */
        CVM_FOR_ACTIVE(ex, l) {
            for (uint32_t k = 0; k < in->nextra; k++)
                v[k] = lane_u32(ex, ops[k], l);
            cvm_result r = tensor_state_lane(ex, in, l, v, &value);
            if (r != CVM_SUCCESS)
                return r;
            memcpy(CVM_LANE(res, l), &value, vsize);
        }
        return CVM_SUCCESS;
    }
    uint32_t first = 0;
    while (first < ex->nlanes && !ex->active[first])
        first++;
    if (first == ex->nlanes)
        return CVM_SUCCESS;
    /* The result is a pure function of the operands.  When every active
     * lane's operands equal the first's, compute it once and copy it to
     * each lane (operands held once for all lanes, constants, need no
     * comparison). */
    cvm_val ov[2 * CVM_TENSOR_MAX_DIM];
    uint32_t vary[2 * CVM_TENSOR_MAX_DIM], nvary = 0;
    for (uint32_t k = 0; k < in->nextra; k++) {
        v[k] = lane_u32(ex, ops[k], first);
        if (ex->vals[ops[k]].stride) {
            ov[nvary] = ex->vals[ops[k]];
            vary[nvary++] = k;
        }
    }
    int uniform = vsize == sizeof(cvm_tensor_layout)
                      ? tensor_state_uniform(ex, in, first, ov, nvary, vary, v,
                                             sizeof(cvm_tensor_layout))
                      : tensor_state_uniform(ex, in, first, ov, nvary, vary, v,
                                             sizeof(cvm_tensor_view));
    if (uniform) {
        cvm_result r = tensor_state_lane(ex, in, first, v, &value);
        if (r != CVM_SUCCESS)
            return r;
        if (ex->nactive == ex->nlanes) {
            /* lane 0's slot (with the bytes past the value, never read) to
             * lanes 1, 2-3, 4-7, ...: a few long copies */
            memcpy(res.p, &value, vsize);
            for (uint32_t have = 1; have < ex->nlanes;) {
                uint32_t c = CVM_MIN(have, ex->nlanes - have);
                memcpy(res.p + (size_t)have * res.stride, res.p, (size_t)c * res.stride);
                have += c;
            }
        } else if (vsize == sizeof(cvm_tensor_layout)) { /* sizes known: no library calls */
            CVM_FOR_ACTIVE(ex, l)
                memcpy(CVM_LANE(res, l), &value, sizeof(cvm_tensor_layout));
        } else {
            CVM_FOR_ACTIVE(ex, l)
                memcpy(CVM_LANE(res, l), &value, sizeof(cvm_tensor_view));
        }
        return CVM_SUCCESS;
    }
    /* Otherwise lane by lane: a lane whose operands equal the last computed
     * lane's copies that lane's result. */
    uint32_t last = UINT32_MAX;
    CVM_FOR_ACTIVE(ex, l) {
        if (last != UINT32_MAX) {
            int same = 1;
            for (uint32_t k = 0; same && k < in->nextra; k++)
                same = lane_u32(ex, ops[k], l) == v[k];
            if (same && in->a)
                same = same_bytes(CVM_LANE(ex->vals[in->a], l), CVM_LANE(ex->vals[in->a], last),
                                  vsize);
            if (same) {
                memcpy(CVM_LANE(res, l), CVM_LANE(res, last), vsize);
                continue;
            }
        }
        last = l;
        for (uint32_t k = 0; k < in->nextra; k++)
            v[k] = lane_u32(ex, ops[k], l);
        cvm_result r = tensor_state_lane(ex, in, l, v, &value);
        if (r != CVM_SUCCESS)
            return r;
        memcpy(CVM_LANE(res, l), &value, vsize);
    }
    return CVM_SUCCESS;
}

/* ---- load and store -------------------------------------------------------
 * a = Pointer, b = Object (the stored matrix, or the load's matrix for
 * clipped elements), c = TensorLayout, d = TensorView (0 none), type = the
 * matrix type, extra = TX_COUNT words (above). */

/* Address of `index` units of `unit` bytes past `base`, in base's region.
 * Returns 1 with *o_addr, or 0 when the offset leaves the 40-bit offset
 * range of the region (a negative index under clamp mode Undefined, or a
 * huge one): then, in robust mode, *o_skip is set and no error is raised,
 * else the instruction fails naming the element. */
static int element_address(cvm_exec *ex, const cvm_insn *in, uint64_t base, int64_t index,
                           uint64_t unit, uint32_t row, uint32_t col, uint64_t *o_addr,
                           int *o_skip)
{
    const uint64_t limit = UINT64_C(1) << CVM_ADDR_OFFSET_BITS;
    uint64_t off = CVM_ADDR_OFFSET(base);
    *o_skip = 0;
    if (index >= 0 && (unit == 0 || (uint64_t)index < limit / unit) &&
        off + (uint64_t)index * unit < limit) {
        *o_addr = CVM_ADDR(CVM_ADDR_REGION(base), off + (uint64_t)index * unit);
        return 1;
    }
    if (ex->flags & CVM_FLAG_ROBUST_ACCESS) {
        *o_skip = 1;
        return 0;
    }
    cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                  "matrix element (%u, %u): tensor index %lld (units of %llu bytes) is outside "
                  "the memory 'Pointer' points into",
                  row, col, (long long)index, (unsigned long long)unit);
    return 0;
}

static cvm_result fail_result(const cvm_exec *ex)
{
    return ex->diag && ex->diag->result != CVM_SUCCESS ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
}

/* Names the element whose address the plan could not compute. */
static cvm_result plan_failure(cvm_exec *ex, const cvm_insn *in, cvm_result r,
                               const cvm_tensor_layout *t, const cvm_tensor_view *v,
                               cvm_tensor_access acc, uint32_t M, uint32_t N)
{
    for (uint32_t row = 0; row < M; row++) {
        for (uint32_t col = 0; col < N; col++) {
            cvm_tensor_element e;
            char why[400];
            cvm_result er = cvm_tensor_element_address(t, v, acc, row, col, N, &e);
            if (er != CVM_SUCCESS)
                return cvm_exec_fail(ex, in, er, "matrix element (%u, %u): %s", row, col,
                                     address_error_why(t, v, acc, er, why, sizeof(why)));
        }
    }
    return cvm_exec_fail(ex, in, r, "%s", tensor_error_text(r));
}

/* Working memory of one load/store, allocated once per instruction. */
typedef struct tensor_work {
    cvm_tensor_element *plan;  /* M*N */
    cvm_tensor_element *range; /* M*N: the plan under clamp mode Constant (grouping) */
    uint32_t *calls;           /* element index per scalar decode call */
    uint32_t *groups;          /* V element indices per vector decode call */
    uint8_t *in_group;         /* M*N */
    uint64_t *ptrs;            /* per call */
    uint32_t *lanes;           /* per call: the invocation whose context it runs in */
    uint32_t inst;             /* the scope instance being loaded */
    uint32_t nelems;           /* M*N */
    uint8_t *coords;           /* per call: blockCoord, then coordInBlock */
    uint8_t *results;          /* per call */
    uint8_t *vresults;         /* per vector call */
    cvm_tensor_element *split_rows, *split_cols; /* cvm_tensor_split_plan's, M and N */
} tensor_work;

static void work_free(tensor_work *w)
{
    cvm_mem_free(w->plan);
    cvm_mem_free(w->range);
    cvm_mem_free(w->calls);
    cvm_mem_free(w->groups);
    cvm_mem_free(w->in_group);
    cvm_mem_free(w->ptrs);
    cvm_mem_free(w->lanes);
    cvm_mem_free(w->coords);
    cvm_mem_free(w->results);
    cvm_mem_free(w->vresults);
    cvm_mem_free(w->split_rows);
}

/* The invocation each decode call runs in the context of: the owner of its
 * element (cvm_element_owner's mapping, its per-instance numbers computed
 * once: element e's owner is invocation e / L of the instance, the last one
 * past the end, or the first active lane when that one is not active). */
typedef struct decode_owner {
    uint32_t first_lane, nl, L, first_active;
    uint32_t q, q0; /* the owner's number q = ei / L, kept while ei stays in [q0, q0 + L) */
    int reference;
} decode_owner;

static void owner_init(const cvm_exec *ex, const cvm_insn *in, const tensor_work *w,
                       decode_owner *o)
{
    o->first_lane = cvm_scope_first_lane(ex, in, w->inst);
    o->nl = cvm_scope_lane_count(ex, in, w->inst);
    o->L = w->nelems ? (w->nelems + o->nl - 1) / o->nl : 1;
    o->first_active = cvm_scope_first_active(ex, in, w->inst);
    o->q = o->q0 = 0;
    o->reference = (ex->flags & CVM_FLAG_REFERENCE_PATHS) != 0;
}

static inline uint32_t owner_of(const cvm_exec *ex, const cvm_insn *in, const tensor_work *w,
                                decode_owner *o, uint32_t ei)
{
    if (o->reference)
        return cvm_element_owner(ex, in, w->inst, w->nelems, ei);
    if (ei - o->q0 >= o->L) { /* (unsigned: also when ei < q0) */
        o->q = ei / o->L;
        o->q0 = o->q * o->L;
    }
    uint32_t lane = o->first_lane + (o->q < o->nl ? o->q : o->nl - 1);
    if (!ex->active[lane] && o->first_active != UINT32_MAX)
        lane = o->first_active;
    return lane;
}

/* The pointer a decode call gets: base + index * psize, with
 * element_address's condition (index in [0, max_index], its division done
 * once by the caller); outside it element_address reports the element, or
 * in robust mode the pointer is one the callee's accesses find out of
 * bounds.  Returns 0 after a failure. */
static inline int decode_pointer(cvm_exec *ex, const cvm_insn *in, uint64_t base, uint64_t psize,
                                 uint64_t max_index, int64_t index, uint32_t ei, uint32_t N,
                                 uint64_t *o_ptr)
{
    if (CVM_LIKELY((uint64_t)index <= max_index)) {
        *o_ptr = base + (uint64_t)index * psize;
        return 1;
    }
    int skip;
    if (element_address(ex, in, base, index, psize, ei / N, ei % N, o_ptr, &skip))
        return 1;
    if (!skip)
        return 0;
    *o_ptr = CVM_ADDR(CVM_ADDR_REGION(base), (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1);
    return 1;
}

static uint64_t decode_max_index(uint64_t base, uint64_t psize)
{
    const uint64_t limit = UINT64_C(1) << CVM_ADDR_OFFSET_BITS;
    return psize ? (limit - 1 - CVM_ADDR_OFFSET(base)) / psize : (uint64_t)INT64_MAX;
}

/* Runs decode function `func` for `count` calls whose elements are
 * `elems[k * step]`: pointer = base + index * psize, blockCoord and
 * coordInBlock of that element.  Results to w->results (scalar) or `out`. */
static cvm_result run_decode(cvm_exec *ex, const cvm_insn *in, tensor_work *w, uint32_t func,
                             uint64_t psize, uint32_t coord_size, uint32_t dim, uint64_t base,
                             const uint32_t *elems, uint32_t step, uint32_t count, uint32_t N,
                             uint8_t *out)
{
    uint8_t *bc = w->coords, *cb = w->coords + (size_t)count * coord_size;
    /* the array parameters' entries past LDim are zero */
    if (coord_size > 4u * dim)
        memset(w->coords, 0, (size_t)count * coord_size * 2);
    decode_owner own;
    owner_init(ex, in, w, &own);
    uint64_t max_index = decode_max_index(base, psize);
    for (uint32_t k = 0; k < count; k++) {
        uint32_t ei = elems[(size_t)k * step];
        const cvm_tensor_element *e = &w->plan[ei];
        if (!decode_pointer(ex, in, base, psize, max_index, e->index, ei, N, &w->ptrs[k]))
            return fail_result(ex);
        if (dim == 2) { /* the common case, with its size known */
            memcpy(bc + (size_t)k * coord_size, e->blockCoord, 8);
            memcpy(cb + (size_t)k * coord_size, e->coordInBlock, 8);
        } else {
            memcpy(bc + (size_t)k * coord_size, e->blockCoord, 4u * dim);
            memcpy(cb + (size_t)k * coord_size, e->coordInBlock, 4u * dim);
        }
        /* the call runs in the context of the element's owner (a vector
         * call: of its first element's) */
        w->lanes[k] = owner_of(ex, in, w, &own, ei);
    }
    cvm_val args[3] = {{(uint8_t *)w->ptrs, 8}, {bc, coord_size}, {cb, coord_size}};
    /* DebugPrintf messages name each call's element (a vector call: its first) */
    if (step == 1)
        return cvm_callback_run_elements(ex, in, func, count, args, 3, out, w->lanes, elems, N);
    uint32_t *first = cvm_malloc((size_t)count * sizeof(uint32_t) + 1);
    if (!first)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t k = 0; k < count; k++)
        first[k] = elems[(size_t)k * step];
    cvm_result r = cvm_callback_run_elements(ex, in, func, count, args, 3, out, w->lanes, first, N);
    cvm_mem_free(first);
    return r;
}

/* The per-call working memory of a DecodeFunc load (allocated at its first
 * need: a load whose tiles all run compiled needs none of it). */
static cvm_result decode_work(cvm_exec *ex, const cvm_insn *in, tensor_work *w, uint32_t total,
                              uint32_t es)
{
    if (w->range)
        return CVM_SUCCESS;
    const uint32_t *x = ex->prog->extra + in->extra;
    size_t n = (size_t)total + 1;
    w->range = cvm_malloc(n * sizeof(*w->range));
    w->calls = cvm_malloc(n * sizeof(uint32_t));
    w->groups = cvm_malloc(n * sizeof(uint32_t));
    w->in_group = cvm_malloc(n);
    w->ptrs = cvm_malloc(n * sizeof(uint64_t));
    w->lanes = cvm_malloc(n * sizeof(uint32_t));
    w->coords = cvm_malloc(n * 2 * x[TX_COORD_SIZE]);
    w->results = cvm_malloc(n * es);
    w->vresults = cvm_malloc(n * es);
    if (!w->range || !w->calls || !w->groups || !w->in_group || !w->ptrs || !w->lanes ||
        !w->coords || !w->results || !w->vresults)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    return CVM_SUCCESS;
}

uint64_t cvm_test_split_decodes(void)
{
    return cvm_count_total(CVM_COUNT_SPLIT_DECODES);
}

/* A DecodeFunc load whose every element is in memory, from the split plan
 * (cvm_tensor_split_plan: rows[M], cols[N], dimension p): the calls of
 * decode_load's scalar path, one per element in row-major order, with the
 * same pointers, coordinates and contexts, without a plan entry per
 * element.  The results fill the whole matrix. */
static cvm_result decode_split(cvm_exec *ex, const cvm_insn *in, tensor_work *w,
                               const cvm_tensor_layout *t, uint32_t p, uint64_t base,
                               uint8_t *mat, uint32_t M, uint32_t N, uint32_t es)
{
    const uint32_t *x = ex->prog->extra + in->extra;
    uint32_t total = M * N, dim = t->dim, cs = x[TX_COORD_SIZE];
    uint64_t psize = x[TX_DECODE_PSIZE];
    uint64_t max_index = decode_max_index(base, psize);
    ex->counts[CVM_COUNT_SPLIT_DECODES]++;
    /* Every pointer in range (the element indices' extremes are the sums
     * of the parts' extremes): the compiled DecodeFunc computes the calls'
     * arguments itself, where the tier runs it. */
    int64_t rlo = INT64_MAX, rhi = INT64_MIN, clo = INT64_MAX, chi = INT64_MIN, lo, hi;
    int counted = 0;
    for (uint32_t r = 0; r < M; r++) {
        rlo = CVM_MIN(rlo, w->split_rows[r].index);
        rhi = CVM_MAX(rhi, w->split_rows[r].index);
    }
    for (uint32_t c = 0; c < N; c++) {
        clo = CVM_MIN(clo, w->split_cols[c].index);
        chi = CVM_MAX(chi, w->split_cols[c].index);
    }
    if (!__builtin_add_overflow(rlo, clo, &lo) && !__builtin_add_overflow(rhi, chi, &hi) &&
        lo >= 0 && (uint64_t)hi <= max_index) {
        cvm_decode_tile tile = {w->split_rows, w->split_cols, base, psize, (uint64_t)lo,
                                (uint64_t)hi, N, p, 0, total};
        cvm_result r;
        int done = cvm_callback_decode_tile(ex, in, x[TX_DECODE], &tile, mat, es, &r);
        if (done == 1)
            return r;
        counted = done == 2; /* (the calls below were counted as the tile's) */
    }
    cvm_result wr = decode_work(ex, in, w, total, es);
    if (wr != CVM_SUCCESS)
        return wr;
    uint8_t *bc = w->coords, *cb = w->coords + (size_t)total * cs;
    if (cs > 4u * dim)
        memset(w->coords, 0, (size_t)total * cs * 2);
    uint64_t *ptrs = w->ptrs;
    for (uint32_t r = 0, k = 0; r < M; r++) {
        const cvm_tensor_element *re = &w->split_rows[r];
        uint64_t ri = (uint64_t)re->index;
        for (uint32_t c = 0; c < N; c++, k++) {
            const cvm_tensor_element *ce = &w->split_cols[c];
            uint64_t index = ri + (uint64_t)ce->index;
            if (CVM_LIKELY(index <= max_index))
                ptrs[k] = base + index * psize;
            else if (!decode_pointer(ex, in, base, psize, max_index, (int64_t)index, k, N, &ptrs[k]))
                return fail_result(ex);
        }
        /* the coordinates: the row's, then dimension p's from the column */
        uint8_t *b = bc + (size_t)(k - N) * cs, *q = cb + (size_t)(k - N) * cs;
        if (dim == 2) { /* the common case, its size known (no memcpy call) */
            for (uint32_t c = 0; c < N; c++, b += cs, q += cs) {
                memcpy(b, re->blockCoord, 8);
                memcpy(q, re->coordInBlock, 8);
            }
        } else {
            for (uint32_t c = 0; c < N; c++, b += cs, q += cs) {
                memcpy(b, re->blockCoord, 4u * dim);
                memcpy(q, re->coordInBlock, 4u * dim);
            }
        }
        b = bc + (size_t)(k - N) * cs + 4u * p;
        q = cb + (size_t)(k - N) * cs + 4u * p;
        for (uint32_t c = 0; c < N; c++, b += cs, q += cs) {
            memcpy(b, &w->split_cols[c].blockCoord[p], 4);
            memcpy(q, &w->split_cols[c].coordInBlock[p], 4);
        }
    }
    /* contexts: the owner changes every L elements */
    decode_owner own;
    owner_init(ex, in, w, &own);
    for (uint32_t k = 0; k < total;) {
        uint32_t lane = owner_of(ex, in, w, &own, k);
        uint32_t end = own.reference ? k + 1 : CVM_MIN(total, own.q0 + own.L);
        while (k < end)
            w->lanes[k++] = lane;
    }
    cvm_val args[3] = {{(uint8_t *)w->ptrs, 8}, {bc, cs}, {cb, cs}};
    ex->leaf_calls_counted = (uint8_t)counted;
    cvm_result r = cvm_callback_run_elements(ex, in, x[TX_DECODE], total, args, 3, w->results,
                                             w->lanes, NULL, N);
    ex->leaf_calls_counted = 0;
    if (r == CVM_SUCCESS)
        memcpy(mat, w->results, (size_t)total * es);
    return r;
}

/* The V-1 partners of element `ei` (coordInBlock[LDim-1] a multiple of V)
 * along the matrix row (dr 0, dc 1) or column (dr 1, dc 0): elements whose
 * blockCoord and coordInBlock agree except coordInBlock[LDim-1], which
 * counts up by one ([DV] "V consecutive integers starting at a multiple of
 * V"), all inside the layout (not clamped) and the clip. */
static int find_group(const tensor_work *w, uint32_t ei, uint32_t M, uint32_t N, uint32_t dim,
                      uint32_t V, uint32_t dr, uint32_t dc, uint32_t *o_members)
{
    const cvm_tensor_element *e0 = &w->plan[ei];
    uint32_t row = ei / N, col = ei % N;
    if (row + dr * (V - 1) >= M || col + dc * (V - 1) >= N)
        return 0;
    for (uint32_t k = 0; k < V; k++) {
        uint32_t ej = (row + dr * k) * N + col + dc * k;
        const cvm_tensor_element *e = &w->plan[ej];
        if (e->kind != CVM_TENSOR_ELEMENT_MEMORY || e->undefined || w->in_group[ej] ||
            w->range[ej].kind != CVM_TENSOR_ELEMENT_MEMORY || e->index != e0->index)
            return 0;
        for (uint32_t d = 0; d < dim; d++) {
            uint32_t want = d == dim - 1 ? e0->coordInBlock[d] + k : e0->coordInBlock[d];
            if (e->blockCoord[d] != e0->blockCoord[d] || e->coordInBlock[d] != want)
                return 0;
        }
        o_members[k] = ej;
    }
    return 1;
}

static cvm_result decode_load(cvm_exec *ex, const cvm_insn *in, tensor_work *w,
                              const cvm_tensor_layout *t, const cvm_tensor_view *v, uint64_t base,
                              uint8_t *mat, uint32_t M, uint32_t N, uint32_t es)
{
    const cvm_program *p = ex->prog;
    const uint32_t *x = p->extra + in->extra;
    uint32_t total = M * N, dim = t->dim, V = x[TX_V];
    uint32_t nscalar = 0, ngroups = 0;
    int check = (ex->flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    cvm_result r;
    memset(w->in_group, 0, total);
    if (x[TX_VECTOR] != UINT32_MAX) {
        /* Which elements lie inside the layout: the same plan under clamp
         * mode Constant marks every out-of-range one (for Constant and
         * Undefined the plan itself already tells). */
        cvm_tensor_layout tc = *t;
        tc.clampMode = CVM_TENSOR_CLAMP_CONSTANT;
        if (cvm_tensor_plan(&tc, v, CVM_TENSOR_LOAD, M, N, w->range) == CVM_SUCCESS) {
            for (uint32_t ei = 0; ei < total; ei++) {
                const cvm_tensor_element *e = &w->plan[ei];
                if (e->kind != CVM_TENSOR_ELEMENT_MEMORY || e->undefined || w->in_group[ei] ||
                    e->coordInBlock[dim - 1] % V != 0)
                    continue;
                uint32_t *members = w->groups + (size_t)ngroups * V;
                if (find_group(w, ei, M, N, dim, V, 0, 1, members) ||
                    find_group(w, ei, M, N, dim, V, 1, 0, members)) {
                    for (uint32_t k = 0; k < V; k++)
                        w->in_group[members[k]] = 1;
                    ngroups++;
                }
            }
        }
    }
    for (uint32_t ei = 0; ei < total; ei++)
        if (w->plan[ei].kind == CVM_TENSOR_ELEMENT_MEMORY && (check || !w->in_group[ei]))
            w->calls[nscalar++] = ei;
    if (nscalar) {
        r = run_decode(ex, in, w, x[TX_DECODE], x[TX_DECODE_PSIZE], x[TX_COORD_SIZE], dim, base,
                       w->calls, 1, nscalar, N, w->results);
        if (r != CVM_SUCCESS)
            return r;
        if (es == 2) /* f16, bf16: the common case, with its size known */
            for (uint32_t k = 0; k < nscalar; k++)
                memcpy(mat + (size_t)w->calls[k] * 2, w->results + (size_t)k * 2, 2);
        else
            for (uint32_t k = 0; k < nscalar; k++)
                memcpy(mat + (size_t)w->calls[k] * es, w->results + (size_t)k * es, es);
    }
    if (ngroups) {
        /* in the checking mode the scalar decoder's results stand and the
         * vector decoder's are a comparison: its calls print nothing */
        struct cvm_printf_buf *pb = ex->printf;
        struct cvm_trace *tr = ex->trace;
        if (check) {
            ex->printf = NULL;
            ex->trace = NULL;
        }
        r = run_decode(ex, in, w, x[TX_VECTOR], x[TX_VECTOR_PSIZE], x[TX_COORD_SIZE], dim, base,
                       w->groups, V, ngroups, N, w->vresults);
        ex->printf = pb;
        ex->trace = tr;
        if (r != CVM_SUCCESS)
            return r;
        for (uint32_t g = 0; g < ngroups; g++) {
            for (uint32_t k = 0; k < V; k++) {
                uint32_t ei = w->groups[(size_t)g * V + k];
                const uint8_t *val = w->vresults + ((size_t)g * V + k) * es;
                if (check && memcmp(mat + (size_t)ei * es, val, es))
                    return cvm_exec_fail(
                        ex, in, CVM_ERROR_CALLBACK_MISMATCH,
                        "matrix element (%u, %u): DecodeVectorFunc (component %u of its call) "
                        "and DecodeFunc decode it differently",
                        ei / N, ei % N, k);
                memcpy(mat + (size_t)ei * es, val, es);
            }
        }
    }
    return CVM_SUCCESS;
}

/* The memory elements of a plan in one go, when that cannot fail: every
 * MEMORY index lies in [lo, hi] with lo >= 0, element_address accepts lo
 * and hi (then every index between), and the bytes of [lo, hi] are one
 * accessible range (cvm_mem_peek, the condition of cvm_mem_access; then
 * every element's access succeeds).  The copies are those of the
 * per-element loop, in the same order.  Returns 0, having touched nothing,
 * when some element might fail: the caller's per-element loop then reports
 * it exactly as before. */
static int bulk_transfer(const cvm_exec *ex, const cvm_tensor_element *plan, uint32_t total,
                         uint64_t base, uint32_t es, int store, uint8_t *mat)
{
    const uint64_t limit = UINT64_C(1) << CVM_ADDR_OFFSET_BITS;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t ei = 0; ei < total; ei++) {
        if (plan[ei].kind != CVM_TENSOR_ELEMENT_MEMORY)
            continue;
        int64_t x = plan[ei].index;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (hi < lo)
        return 1; /* no memory element */
    uint64_t off = CVM_ADDR_OFFSET(base);
    if (lo < 0 || es == 0 || (uint64_t)hi >= limit / es || off + (uint64_t)hi * es >= limit)
        return 0;
    uint64_t addr = CVM_ADDR(CVM_ADDR_REGION(base), off + (uint64_t)lo * es);
    uint8_t *h = cvm_mem_peek(ex, addr, ((uint64_t)(hi - lo) + 1) * es, store);
    if (!h)
        return 0;
#define BULK_COPY(SIZE)                                                                       \
    for (uint32_t ei = 0; ei < total; ei++) {                                                 \
        if (plan[ei].kind != CVM_TENSOR_ELEMENT_MEMORY)                                       \
            continue;                                                                         \
        uint8_t *m = h + (size_t)(plan[ei].index - lo) * (SIZE);                              \
        if (store)                                                                            \
            memcpy(m, mat + (size_t)ei * (SIZE), (SIZE));                                     \
        else                                                                                  \
            memcpy(mat + (size_t)ei * (SIZE), m, (SIZE));                                     \
    }
    switch (es) {
    case 2: BULK_COPY(2) break;
    case 4: BULK_COPY(4) break;
    case 8: BULK_COPY(8) break;
    default: BULK_COPY(es) break;
    }
#undef BULK_COPY
    return 1;
}

/* The whole-tile fast path (cvm_tensor_tile_plan): every element inside
 * the clip is a memory element at row_index[r] + c * col_step.  Copies them
 * when their index range is one accessible range (the condition of
 * bulk_transfer, the same accesses in the same order); returns 0, having
 * touched nothing, otherwise: the general path then reports the failing
 * element exactly as before. */
static int tile_transfer(const cvm_exec *ex, const cvm_tensor_tile *tile,
                         const uint64_t *row_index, uint64_t base, uint32_t es, int store,
                         uint8_t *mat, uint32_t N)
{
    const uint64_t limit = UINT64_C(1) << CVM_ADDR_OFFSET_BITS;
    if (tile->row_count == 0 || tile->col_count == 0)
        return 1;
    /* Every index, as the reference's int64, must lie in [lo, hi] with
     * lo >= 0 and hi < limit: rows first, then the column span. */
    uint64_t span;
    if (tile->col_step >= limit || es == 0 ||
        (span = (uint64_t)(tile->col_count - 1) * tile->col_step) >= limit)
        return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    /* rows at one pitch (of elements; the usual tile): `even`, and then the
     * first and last rows bound them all (|pitch| < 2^40 and fewer than 2^20
     * rows: the progression, as int64, cannot wrap between them) */
    uint32_t nr = tile->row_count;
    uint64_t pitch = nr > 1 ? row_index[1] - row_index[0] : 0;
    int64_t sp = (int64_t)pitch;
    int even = sp > -(int64_t)limit && sp < (int64_t)limit && nr < (1u << 20);
    for (uint32_t r = 2; even && r < nr; r++)
        even = row_index[r] - row_index[r - 1] == pitch;
    for (uint32_t r = 0; r < nr; r = even && r + 1 < nr - 1 ? nr - 1 : r + 1) {
        uint64_t x = row_index[r];
        if (x >= limit) /* also a negative int64 */
            return 0;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    hi += span;
    uint64_t off = CVM_ADDR_OFFSET(base);
    if (hi >= limit / es || off + hi * es >= limit)
        return 0;
    uint8_t *h = cvm_mem_peek(ex, CVM_ADDR(CVM_ADDR_REGION(base), off + lo * es),
                              (hi - lo + 1) * es, store);
    if (!h)
        return 0;
    size_t step = (size_t)tile->col_step * es, len = (size_t)tile->col_count * es;
    size_t ld = (size_t)N * es;
    /* A transposed tile (consecutive rows one element apart in memory,
     * columns further apart, as through a transposing view): a blocked
     * transpose between memory and the matrix.  A store only when no two
     * elements share an address (each column's run of rows ends before the
     * next column's starts), where the order of the writes cannot show. */
    int transposed = step != es && tile->row_count > 1 && even && pitch == 1;
    if (transposed && (!store || step >= (size_t)tile->row_count * es)) {
        uint8_t *g = h + (size_t)(row_index[0] - lo) * es;
        uint8_t *m = mat + ((size_t)tile->row_first * N + tile->col_first) * es;
        if (store) /* memory column c, row r <- matrix (r, c) */
            cvm_transpose(g, step, m, ld, tile->row_count, tile->col_count, es);
        else /* matrix (r, c) <- memory column c, row r */
            cvm_transpose(m, ld, g, step, tile->col_count, tile->row_count, es);
        return 1;
    }
    if (step == es && even && pitch <= limit / es) {
        /* contiguous rows at one pitch: copies of a known size where the
         * row is one of the common lengths */
        uint8_t *m0 = mat + ((size_t)tile->row_first * N + tile->col_first) * es;
        uint8_t *g0 = h + (size_t)(row_index[0] - lo) * es;
        uint8_t *dst = store ? g0 : m0;
        const uint8_t *src = store ? m0 : g0;
        size_t gp = (size_t)pitch * es, dst_ld = store ? gp : ld, src_ld = store ? ld : gp;
        cvm_rows_copy(dst, dst_ld, src, src_ld, tile->row_count, len);
        return 1;
    }
    for (uint32_t r = 0; r < tile->row_count; r++) {
        uint8_t *m = mat + ((size_t)(tile->row_first + r) * N + tile->col_first) * es;
        uint8_t *g = h + (size_t)(row_index[r] - lo) * es;
        if (step == es) {
            if (store)
                cvm_row_copy(g, m, len);
            else
                cvm_row_copy(m, g, len);
            continue;
        }
#define TILE_COPY(SIZE)                                                                       \
    for (uint32_t c = 0; c < tile->col_count; c++, g += step, m += (SIZE)) {                  \
        if (store)                                                                            \
            memcpy(g, m, (SIZE));                                                             \
        else                                                                                  \
            memcpy(m, g, (SIZE));                                                             \
    }
        switch (es) {
        case 1: TILE_COPY(1) break;
        case 2: TILE_COPY(2) break;
        case 4: TILE_COPY(4) break;
        case 8: TILE_COPY(8) break;
        default: TILE_COPY(es) break;
        }
#undef TILE_COPY
    }
    return 1;
}

static cvm_result tensor_transfer(cvm_exec *ex, const cvm_insn *in, int store)
{
    const cvm_program *p = ex->prog;
    const cvm_type *mt = &p->types[in->type];
    const uint32_t *x = p->extra + in->extra;
    uint32_t M = mt->rows, N = mt->cols, es = p->types[mt->elem].size;
    uint32_t total = M * N;
    cvm_tensor_access acc = store ? CVM_TENSOR_STORE : CVM_TENSOR_LOAD;
    int decode = !store && x[TX_DECODE] != UINT32_MAX;
    /* CVM_FLAG_REFERENCE_PATHS: every instance plans every element and
     * copies them one at a time (the literal path the fast ones are tested
     * against) */
    int fast = !(ex->flags & CVM_FLAG_REFERENCE_PATHS);
    if (!store && (in->flags & CVM_INSN_ALIAS))
        CVM_TRY(cvm_matrix_result_to_variable(ex, in, x[TX_ALIAS_VAR], mt->size));
    cvm_val obj = ex->vals[in->b];
    cvm_val res = store ? obj : ex->vals[in->result];
    tensor_work w;
    cvm_result r = CVM_SUCCESS;
    memset(&w, 0, sizeof(w));
    /* Row indices of the tile path: on the stack for tiles up to 256 rows. */
    uint64_t rows_small[256], *rows = rows_small;
    /* The values the last tile or plan was computed for: scope instances
     * with equal layout and view values (compared by value) reuse it. */
    cvm_tensor_layout prev_t;
    cvm_tensor_view prev_v;
    enum { PREV_NONE, PREV_TILE, PREV_PLAN } prev = PREV_NONE;
    cvm_tensor_tile tile;
    if (M > CVM_ARRAY_SIZE(rows_small)) {
        rows = cvm_malloc((size_t)M * sizeof(uint64_t));
        if (!rows)
            return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0) {
            r = CVM_ERROR_DIVERGENT_COLLECTIVE;
            goto done;
        }
        if (chk == 0)
            continue;
        uint32_t l = cvm_scope_first_active(ex, in, i), bad;
        uint64_t base;
        cvm_tensor_layout t;
        cvm_tensor_view v;
        /* NV2 3.49.8: "All the operands to this instruction must be
         * dynamically uniform within every instance of the Scope of the
         * cooperative matrix" (the handler uses lane l's) */
        if ((bad = cvm_scope_pointer_differs(ex, in, i, in->a, l)) != UINT32_MAX) {
            r = cvm_fail_not_uniform(ex, in, "NV-CM2.Uniform-Operands", "Pointer", in->a, 8, i, l,
                                     bad);
            goto done;
        }
        if ((bad = tensor_value_differs(ex, in, i, in->c, l, 0)) != UINT32_MAX) {
            r = cvm_fail_not_uniform(ex, in, "NV-CM2.Uniform-Operands", "TensorLayout", in->c,
                                     CVM_TENSOR_VALUE_SIZE, i, l, bad);
            goto done;
        }
        if (in->d && (bad = tensor_value_differs(ex, in, i, in->d, l, 1)) != UINT32_MAX) {
            r = cvm_fail_not_uniform(ex, in, "NV-CM2.Uniform-Operands", "TensorView", in->d,
                                     CVM_TENSOR_VALUE_SIZE, i, l, bad);
            goto done;
        }
        memcpy(&base, CVM_LANE(ex->vals[in->a], l), 8);
        if (cvm_null_descriptor(ex, base)) {
            r = cvm_fail_null_descriptor(ex, in, base, l);
            goto done;
        }
        /* "The Pointer must be a multiple of 16B" (NV2, Tensor Layout and
         * View): the pointer's value, which in a region of buffer memory
         * (a descriptor's range, a device address, Workgroup memory, push
         * constants) is its byte offset from the region's start, an
         * address a multiple of 2^40 (exec.h CVM_ADDR); the Vulkan driver's
         * descriptor ranges and device addresses start at multiples of 16
         * too, so the offset is the address on the GPU modulo 16.  The
         * per-invocation regions (Function, Private variables) are left
         * out: their addresses include the lane's slice.  Checked in the
         * checking mode only: real shaders break the rule (ggml's
         * mul_mm_cm2.comp loads and stores batch b at b * batch_stride
         * elements, ne0 * ne1 floats for the result, a multiple of 16
         * bytes only when ne0 * ne1 is one of 4; it is written for, and
         * runs on, NVIDIA's driver) and so does the Vulkan CTS (a
         * subgroup's tile in shared memory at a tile's width: 8 bytes for
         * the 8-column tiles of 1-byte types), so by default the engine
         * runs them as written, as it runs callbacks with side effects. */
        if ((ex->flags & CVM_FLAG_CHECK_CALLBACKS) && (base & 15) &&
            !cvm_region_per_invocation(CVM_ADDR_REGION(base))) {
            r = cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                              "[NV-CM2.Pointer-Alignment] Pointer %%%u is byte %llu of memory "
                              "region %u, not a multiple of 16 bytes: \"The Pointer must be a "
                              "multiple of 16B\"",
                              in->a, (unsigned long long)CVM_ADDR_OFFSET(base),
                              CVM_ADDR_REGION(base));
            goto done;
        }
        if ((r = read_layout(ex, in, in->c, l, &t)) != CVM_SUCCESS)
            goto done;
        if (in->d && (r = read_view(ex, in, in->d, l, &v)) != CVM_SUCCESS)
            goto done;
        const cvm_tensor_view *vp = in->d ? &v : NULL;
        int same = fast && prev != PREV_NONE && !memcmp(&t, &prev_t, sizeof t) &&
                   (!in->d || !memcmp(&v, &prev_v, sizeof v));
        uint8_t *mat = res.p + (size_t)i * res.stride;
        const uint8_t *src = obj.p + (size_t)i * obj.stride;

        /* The whole-tile path, when the tile is in range and the load has
         * no DecodeFunc. */
        if (fast && !decode && (same ? prev == PREV_TILE
                             : cvm_tensor_tile_plan(&t, vp, M, N, &tile, rows))) {
            prev = PREV_TILE;
            prev_t = t;
            if (in->d)
                prev_v = v;
            int whole = tile.row_first == 0 && tile.row_count == M && tile.col_first == 0 &&
                        tile.col_count == N;
            if (!store && !whole && src != mat) /* clipped elements keep 'Object's */
                memmove(mat, src, (size_t)total * es);
            if (tile_transfer(ex, &tile, rows, base, es, store, mat, N))
                continue;
            same = 0; /* not one accessible range: the plan reports the element */
            if (!store && whole && src != mat)
                memmove(mat, src, (size_t)total * es); /* as the general path expects */
        }

        /* A DecodeFunc load with every element in memory: from the split
         * plan, without an entry per element (no DecodeVectorFunc, whose
         * grouping reads the plan; not in the checking mode). */
        if (fast && decode && x[TX_VECTOR] == UINT32_MAX &&
            !(ex->flags & CVM_FLAG_CHECK_CALLBACKS)) {
            if (!w.split_rows) {
                w.split_rows = cvm_malloc(((size_t)M + N) * sizeof(cvm_tensor_element));
                if (!w.split_rows) {
                    r = cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
                    goto done;
                }
                w.split_cols = w.split_rows + M;
            }
            uint32_t sp;
            if (cvm_tensor_split_plan(&t, vp, acc, M, N, &sp, w.split_rows, w.split_cols)) {
                w.inst = i;
                w.nelems = total;
                if ((r = decode_split(ex, in, &w, &t, sp, base, mat, M, N, es)) != CVM_SUCCESS)
                    goto done;
                continue;
            }
        }
        if (!w.plan) {
            w.plan = cvm_malloc((size_t)total * sizeof(*w.plan) + 1);
            if (!w.plan) {
                r = cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
                goto done;
            }
        }
        if (decode && (r = decode_work(ex, in, &w, total, es)) != CVM_SUCCESS)
            goto done;
        if (!(same && prev == PREV_PLAN)) {
            prev = PREV_NONE;
            r = cvm_tensor_plan(&t, vp, acc, M, N, w.plan);
            if (r != CVM_SUCCESS) {
                r = plan_failure(ex, in, r, &t, vp, acc, M, N);
                goto done;
            }
            prev = PREV_PLAN;
            prev_t = t;
            if (in->d)
                prev_v = v;
        }
        if (!store) {
            /* Clipped elements keep the element of 'Object'. */
            if (src != mat)
                memmove(mat, src, (size_t)total * es);
            uint64_t cv = t.clampValue; /* its low bits, cut to the component width */
            for (uint32_t ei = 0; ei < total; ei++)
                if (w.plan[ei].kind == CVM_TENSOR_ELEMENT_CLAMP_CONSTANT)
                    memcpy(mat + (size_t)ei * es, &cv, es < 8 ? es : 8);
            if (decode) {
                w.inst = i;
                w.nelems = total;
                r = decode_load(ex, in, &w, &t, vp, base, mat, M, N, es);
                if (r != CVM_SUCCESS)
                    goto done;
                continue;
            }
        }
        if (fast && bulk_transfer(ex, w.plan, total, base, es, store, mat))
            continue;
        for (uint32_t ei = 0; ei < total; ei++) {
            const cvm_tensor_element *e = &w.plan[ei];
            if (e->kind != CVM_TENSOR_ELEMENT_MEMORY)
                continue; /* clamped (done above), clipped or dropped */
            uint64_t addr;
            int skip;
            uint8_t *m = NULL;
            if (element_address(ex, in, base, e->index, es, ei / N, ei % N, &addr, &skip))
                m = cvm_mem_access(ex, in, addr, es, store, l, &skip);
            if (!m) {
                if (!skip) {
                    r = fail_result(ex);
                    goto done;
                }
                if (!store) /* robust mode: loads read zero, stores drop */
                    memset(mat + (size_t)ei * es, 0, es);
                continue;
            }
            if (store)
                memcpy(m, mat + (size_t)ei * es, es);
            else
                memcpy(mat + (size_t)ei * es, m, es);
        }
    }
done:
    if (rows != rows_small)
        cvm_mem_free(rows);
    work_free(&w);
    return r;
}

static cvm_result h_load_tensor(cvm_exec *ex, const cvm_insn *in)
{
    return tensor_transfer(ex, in, 0);
}

static cvm_result h_store_tensor(cvm_exec *ex, const cvm_insn *in)
{
    return tensor_transfer(ex, in, 1);
}

/* ---- lowering -------------------------------------------------------------- */

/* Words taken by the Memory Operands starting at w[0] (the mask included),
 * or 0 when they do not fit in `avail` words. */
static uint32_t memory_operand_words(const uint32_t *w, uint32_t avail)
{
    if (avail < 1)
        return 0;
    uint32_t mask = w[0], n = 1;
    static const uint32_t with_operand[] = {
        SpvMemoryAccessAlignedMask, SpvMemoryAccessMakePointerAvailableMask,
        SpvMemoryAccessMakePointerVisibleMask, 0x10000u /* AliasScopeINTELMask */,
        0x20000u /* NoAliasINTELMask */};
    for (size_t i = 0; i < CVM_ARRAY_SIZE(with_operand); i++)
        if (mask & with_operand[i])
            n++;
    return n <= avail ? n : 0;
}

static int is_u32_scalar(const cvm_lower *lw, uint32_t id)
{
    const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
    return t->tclass == CVM_TC_INT && t->size == 4;
}

static cvm_result lower_state(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    int create = in->opcode == SpvOpCreateTensorLayoutNV || in->opcode == SpvOpCreateTensorViewNV;
    int layout = in->opcode == SpvOpCreateTensorLayoutNV ||
                 in->opcode == SpvOpTensorLayoutSetDimensionNV ||
                 in->opcode == SpvOpTensorLayoutSetStrideNV ||
                 in->opcode == SpvOpTensorLayoutSliceNV ||
                 in->opcode == SpvOpTensorLayoutSetClampValueNV ||
                 in->opcode == SpvOpTensorLayoutSetBlockSizeNV;
    if (in->word_count < 3)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
    const cvm_type *rt = cvm_lower_type(lw, w[1]);
    if (rt->tclass != (layout ? CVM_TC_TENSOR_LAYOUT : CVM_TC_TENSOR_VIEW))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "'Result Type' must be %s",
                              layout ? "OpTypeTensorLayoutNV" : "OpTypeTensorViewNV");
    uint32_t first = 3, nops = 0;
    if (!create) {
        if (in->word_count < 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
        if (cvm_lower_type_of(lw, w[3]) != w[1])
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "the type of '%s' must be 'Result Type'",
                                  layout ? "TensorLayout" : "TensorView");
        out->a = w[3];
        first = 4;
    }
    nops = in->word_count - first;
    uint32_t want;
    switch (in->opcode) {
    case SpvOpCreateTensorLayoutNV: case SpvOpCreateTensorViewNV: want = 0; break;
    case SpvOpTensorLayoutSliceNV: want = 2 * rt->dim; break;
    case SpvOpTensorLayoutSetClampValueNV: want = 1; break;
    case SpvOpTensorViewSetClipNV: want = 4; break;
    default: want = rt->dim; break;
    }
    if (nops != want)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%u operands after the %s, the dimension %u of 'Result Type' "
                              "requires %u",
                              nops, create ? "result" : layout ? "layout" : "view", rt->dim, want);
    for (uint32_t k = 0; k < nops; k++)
        if (!is_u32_scalar(lw, w[first + k]))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "operand %u must be a scalar 32-bit integer", first + k);
    out->extra = cvm_lower_extra(lw, w + first, nops);
    if (out->extra == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    out->nextra = nops;
    out->fn = h_tensor_state;
    return CVM_SUCCESS;
}

/* Checks a DecodeFunc / DecodeVectorFunc and returns its function index,
 * its pointee size and (vector) component count. */
static cvm_result lower_decode_func(cvm_lower *lw, const spv_inst *in, uint32_t fid,
                                    const char *what, const cvm_type *mt, uint32_t dim,
                                    int vector, uint32_t *o_index, uint32_t *o_psize,
                                    uint32_t *o_coord_size, uint32_t *o_v)
{
    const cvm_program *p = cvm_lower_program(lw);
    const spv_module *mod = p->mod;
    uint32_t fi = fid < mod->bound ? p->func_index[fid] : UINT32_MAX;
    if (fi == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s %u is not an OpFunction", what,
                              fid);
    const spv_function *sf = &mod->functions[fi];
    spv_inst ft;
    if (sf->fn_type >= mod->bound || !spv_module_inst_at(mod, mod->defs[sf->fn_type].off, &ft) ||
        ft.opcode != SpvOpTypeFunction)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s %u has no function type", what,
                              fid);
    if (ft.word_count != 6)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s %u must take three parameters (pointer, blockCoord, "
                              "coordInBlock)",
                              what, fid);
    const cvm_type *pt = cvm_lower_type(lw, ft.words[3]);
    if (pt->tclass != CVM_TC_POINTER || pt->elem == 0)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "the first parameter of %s %u must be a PhysicalStorageBuffer "
                              "pointer",
                              what, fid);
    for (uint32_t k = 4; k <= 5; k++) {
        const cvm_type *at = cvm_lower_type(lw, ft.words[k]);
        const cvm_type *et = cvm_lower_type(lw, at->elem);
        if (at->tclass != CVM_TC_ARRAY || at->count != dim || et->tclass != CVM_TC_INT ||
            et->size != 4 || at->size != 4 * dim)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "parameter %u of %s %u must be an array of %u 32-bit integers "
                                  "(the tensor layout's dimension)",
                                  k - 2, what, fid, dim);
    }
    *o_coord_size = 4 * dim;
    const cvm_type *ct = cvm_lower_type(lw, mt->elem);
    const cvm_type *ret = cvm_lower_type(lw, ft.words[2]);
    if (!vector) {
        if (ret->tclass != ct->tclass || ret->sk != ct->sk || ret->size != ct->size)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "the return type of %s %u must be the matrix component type",
                                  what, fid);
        *o_v = 1;
    } else {
        const cvm_type *rc = cvm_lower_type(lw, ret->elem);
        if (ret->tclass != CVM_TC_VECTOR || (ret->count != 2 && ret->count != 4 && ret->count != 8) ||
            rc->tclass != ct->tclass || rc->sk != ct->sk || rc->size != ct->size ||
            ret->size != ret->count * ct->size)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "the return type of %s %u must be a vector of 2, 4 or 8 of the "
                                  "matrix component type",
                                  what, fid);
        *o_v = ret->count;
    }
    *o_index = fi;
    *o_psize = cvm_lower_type(lw, pt->elem)->mem_size;
    return CVM_SUCCESS;
}

static cvm_result lower_transfer(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    int store = in->opcode == SpvOpCooperativeMatrixStoreTensorNV;
    uint32_t at = store ? 1 : 3; /* Pointer */
    if (in->word_count < at + 4u)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
    uint32_t ptr = w[at], object = w[at + 1], layout = w[at + 2];
    uint32_t mtype = store ? cvm_lower_type_of(lw, object) : w[1];
    const cvm_type *mt = cvm_lower_type(lw, mtype);
    if (mt->tclass != CVM_TC_COOPMAT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s must be a cooperative matrix",
                              store ? "'Object'" : "'Result Type'");
    if (!store && cvm_lower_type_of(lw, object) != mtype)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "'Object' must have the type of 'Result Type'");
    const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, ptr));
    if (pt->tclass != CVM_TC_POINTER)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "'Pointer' must be a pointer");
    const cvm_type *lt = cvm_lower_type(lw, cvm_lower_type_of(lw, layout));
    if (lt->tclass != CVM_TC_TENSOR_LAYOUT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "'TensorLayout' must be a tensor layout");
    uint32_t pos = at + 3;
    uint32_t nmem = memory_operand_words(w + pos, in->word_count - pos);
    if (!nmem)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED,
                              "'Memory Operand' is missing or incomplete");
    pos += nmem;
    if (pos >= in->word_count)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED,
                              "'Tensor Addressing Operands' is missing");
    uint32_t mask = w[pos++];
    if (mask & ~7u)
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                              "Tensor Addressing Operands 0x%x: unknown bits", mask);
    uint32_t view = 0, decode = 0, vdecode = 0;
    uint32_t nwant = (uint32_t)((mask & 1u) != 0) + ((mask & 2u) != 0) + ((mask & 4u) != 0);
    if (in->word_count - pos != nwant)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED,
                              "Tensor Addressing Operands 0x%x take %u ids, %u are given", mask,
                              nwant, in->word_count - pos);
    if (mask & 1u)
        view = w[pos++];
    if (mask & 2u)
        decode = w[pos++];
    if (mask & 4u)
        vdecode = w[pos++];
    if (view && cvm_lower_type(lw, cvm_lower_type_of(lw, view))->tclass != CVM_TC_TENSOR_VIEW)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "the TensorView operand must be a tensor view");
    if (store && (decode || vdecode))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "DecodeFunc is not allowed with OpCooperativeMatrixStoreTensorNV");
    if (vdecode && !decode)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "DecodeVectorFunc requires DecodeFunc in the same operands");
    uint32_t x[TX_COUNT] = {UINT32_MAX, 0, UINT32_MAX, 0, 1, 4 * lt->dim, UINT32_MAX};
    cvm_result r;
    if (decode) {
        uint32_t v1;
        r = lower_decode_func(lw, in, decode, "DecodeFunc", mt, lt->dim, 0, &x[TX_DECODE],
                              &x[TX_DECODE_PSIZE], &x[TX_COORD_SIZE], &v1);
        if (r != CVM_SUCCESS)
            return r;
    }
    if (vdecode) {
        r = lower_decode_func(lw, in, vdecode, "DecodeVectorFunc", mt, lt->dim, 1, &x[TX_VECTOR],
                              &x[TX_VECTOR_PSIZE], &x[TX_COORD_SIZE], &x[TX_V]);
        if (r != CVM_SUCCESS)
            return r;
    }
    /* the result straight into the variable the next instruction stores it
     * to (exec.h CVM_INSN_ALIAS): a loop's tile loads copy nothing more */
    uint32_t var;
    int alias = !store && cvm_lower_result_to_variable(cvm_lower_program(lw), in, &var);
    if (alias)
        x[TX_ALIAS_VAR] = var;
    out->extra = cvm_lower_extra(lw, x, TX_COUNT);
    if (out->extra == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    out->nextra = TX_COUNT;
    out->a = ptr;
    out->b = object;
    out->c = layout;
    out->d = view;
    out->type = mtype;
    out->sk = mt->sk;
    if (store)
        out->result = 0;
    out->flags = CVM_INSN_PER_INSTANCE |
                 (mt->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0) |
                 (alias ? CVM_INSN_ALIAS : 0);
    out->fn = store ? h_store_tensor : h_load_tensor;
    return CVM_SUCCESS;
}

cvm_result cvm_lower_tensor(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    switch (inst->opcode) {
    case SpvOpCreateTensorLayoutNV:
    case SpvOpTensorLayoutSetDimensionNV:
    case SpvOpTensorLayoutSetStrideNV:
    case SpvOpTensorLayoutSliceNV:
    case SpvOpTensorLayoutSetClampValueNV:
    case SpvOpTensorLayoutSetBlockSizeNV:
    case SpvOpCreateTensorViewNV:
    case SpvOpTensorViewSetDimensionNV:
    case SpvOpTensorViewSetStrideNV:
    case SpvOpTensorViewSetClipNV:
        return lower_state(lw, inst, out);
    case SpvOpCooperativeMatrixLoadTensorNV:
    case SpvOpCooperativeMatrixStoreTensorNV:
        return lower_transfer(lw, inst, out);
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
