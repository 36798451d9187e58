/* Composite instructions: construct, extract, insert, shuffles, dynamic
 * vector access, copies; and per-invocation access to cooperative matrix
 * elements (OpCooperativeMatrixLengthKHR, OpCompositeExtract/Insert,
 * OpCooperativeMatrixGetCoordinateEXT).
 *
 * Element ownership (ARCHITECTURE.md): with L = ceil(M*N / invocations in
 * the scope), the invocation with index i in its scope owns the row-major
 * flat indices [i*L, (i+1)*L); indices past M*N are padding (reads give 0,
 * writes are dropped).  OpCooperativeMatrixGetCoordinateEXT tells a shader
 * the (row, column) of each of its elements under the same mapping. */
#include <string.h>

#include "exec/ops/ewise.h"

static uint32_t matrix_L(const cvm_exec *ex, const cvm_type *t, uint32_t l)
{
    uint32_t inv = cvm_scope_size_of_lane(ex, t->scope == SpvScopeWorkgroup, l);
    return (t->rows * t->cols + inv - 1) / inv;
}

static uint32_t lane_in_scope(const cvm_exec *ex, const cvm_type *t, uint32_t l)
{
    return t->scope == SpvScopeWorkgroup ? l : l % ex->sg_size;
}

static uint32_t scope_instance(const cvm_exec *ex, const cvm_type *t, uint32_t l)
{
    return t->scope == SpvScopeWorkgroup ? 0 : l / ex->sg_size;
}

static uint64_t index_value(const uint8_t *p, uint32_t size)
{
    uint64_t v = 0;
    memcpy(&v, p, size);
    return v;
}

/* in->a: composite, in->b: register offset, in->c: size (constant path) */
static cvm_result h_extract(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    switch (in->c) { /* the common sizes copied with their size known */
    case 1: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + in->b, 1); break;
    case 2: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + in->b, 2); break;
    case 4: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + in->b, 4); break;
    case 8: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + in->b, 8); break;
    default: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + in->b, in->c); break;
    }
    return CVM_SUCCESS;
}

static cvm_result h_insert(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], obj = ex->vals[in->a], comp = ex->vals[in->d];
    uint32_t size = ex->prog->types[in->type].size;
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *dst = CVM_LANE(r, l);
        if (dst != CVM_LANE(comp, l))
            memmove(dst, CVM_LANE(comp, l), size);
        memcpy(dst + in->b, CVM_LANE(obj, l), in->c);
    }
    return CVM_SUCCESS;
}

/* Matrix element by invocation: in->a matrix, in->b index, in->type matrix type */
static cvm_result h_matrix_extract(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->type];
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    uint32_t es = ex->prog->types[t->elem].size, total = t->rows * t->cols;
    CVM_FOR_ACTIVE(ex, l) {
        uint32_t L = matrix_L(ex, t, l);
        uint64_t flat = (uint64_t)lane_in_scope(ex, t, l) * L + in->b;
        const uint8_t *m = a.p + (size_t)scope_instance(ex, t, l) * a.stride;
        if (flat < total && in->b < L)
            memcpy(CVM_LANE(r, l), m + flat * es, es);
        else
            memset(CVM_LANE(r, l), 0, es);
    }
    return CVM_SUCCESS;
}

static cvm_result h_matrix_insert(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->type];
    cvm_val r = ex->vals[in->result], obj = ex->vals[in->a], comp = ex->vals[in->d];
    uint32_t es = ex->prog->types[t->elem].size, total = t->rows * t->cols;
    uint8_t flags = CVM_INSN_PER_INSTANCE | (t->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
    cvm_insn probe = *in;
    probe.flags = flags;
    for (uint32_t i = 0; i < cvm_scope_instances(ex, &probe); i++) {
        int chk = cvm_scope_instance_check(ex, &probe, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk && r.p + (size_t)i * r.stride != comp.p + (size_t)i * comp.stride)
            memcpy(r.p + (size_t)i * r.stride, comp.p + (size_t)i * comp.stride, t->size);
    }
    CVM_FOR_ACTIVE(ex, l) {
        uint32_t L = matrix_L(ex, t, l);
        uint64_t flat = (uint64_t)lane_in_scope(ex, t, l) * L + in->b;
        if (flat < total && in->b < L)
            memcpy(r.p + (size_t)scope_instance(ex, t, l) * r.stride + flat * es, CVM_LANE(obj, l), es);
    }
    return CVM_SUCCESS;
}

uint32_t cvm_matrix_length_fixed(const cvm_program *p, const cvm_type *t)
{
    uint64_t n = (uint64_t)p->local_size[0] * p->local_size[1] * p->local_size[2];
    uint32_t sg = p->sg_size ? p->sg_size : 1;
    if (t->tclass != CVM_TC_COOPMAT || n == 0 || n > UINT32_MAX)
        return 0;
    uint64_t inv = t->scope == SpvScopeWorkgroup ? n : n <= sg ? n : n % sg ? 0 : sg;
    return inv ? (uint32_t)(((uint64_t)t->rows * t->cols + inv - 1) / inv) : 0;
}

/* The same, where the lowering found it the same for every lane:
 * in->b (cvm_matrix_length_fixed). */
static cvm_result h_matrix_length_fixed(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result];
    CVM_FOR_ACTIVE(ex, l)
        memcpy(CVM_LANE(r, l), &in->b, 4);
    return CVM_SUCCESS;
}

static cvm_result h_matrix_length(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->a];
    cvm_val r = ex->vals[in->result];
    CVM_FOR_ACTIVE(ex, l) {
        uint32_t L = matrix_L(ex, t, l);
        memcpy(CVM_LANE(r, l), &L, 4);
    }
    return CVM_SUCCESS;
}

/* OpCooperativeMatrixGetCoordinateEXT (SPV_EXT_cooperative_matrix_maintenance1):
 * in->a matrix, in->b index, in->type matrix type, in->d the index's size.
 * "Converts an index in range [0, OpCooperativeMatrixLengthKHR - 1] to a
 * (row,column) coordinate.  The element of the matrix at that index (when
 * treated as a composite) is the element located at (row,column)": the
 * element that h_matrix_extract reads, flat index i*L + Index, at row
 * flat / N and column flat % N.  The text does not say what a padding
 * element (an Index below Length whose flat index is M*N or past it) is;
 * extract reads zero there and insert drops the write, so no element of the
 * matrix is there: the same formula gives it a row of M or more, outside the
 * matrix, which is what a shader that checks "row < M" before it stores
 * needs.  An Index of Length or more (or negative) gives a value the text
 * leaves undefined: (0xFFFFFFFF, 0xFFFFFFFF), outside every matrix. */
static cvm_result h_matrix_coordinate(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->type];
    cvm_val r = ex->vals[in->result], idx = ex->vals[in->b];
    CVM_FOR_ACTIVE(ex, l) {
        uint32_t L = matrix_L(ex, t, l);
        uint64_t index = index_value(CVM_LANE(idx, l), in->d);
        uint32_t rc[2] = {UINT32_MAX, UINT32_MAX};
        if (index < L) {
            uint64_t flat = (uint64_t)lane_in_scope(ex, t, l) * L + index;
            rc[0] = (uint32_t)(flat / t->cols);
            rc[1] = (uint32_t)(flat % t->cols);
        }
        memcpy(CVM_LANE(r, l), rc, 8);
    }
    return CVM_SUCCESS;
}

/* Construct: constituents concatenated at offsets in extra (id, offset, size) */
static cvm_result h_construct(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result];
    const uint32_t *parts = ex->prog->extra + in->extra;
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *dst = CVM_LANE(r, l);
        for (uint32_t k = 0; k < in->nextra; k += 3)
            memcpy(dst + parts[k + 1], CVM_LANE(ex->vals[parts[k]], l), parts[k + 2]);
    }
    return CVM_SUCCESS;
}

/* ---- aggregates that hold cooperative matrices ------------------------------
 * An array or struct is a per-invocation value whatever its members: lane l
 * holds a whole copy in its slot, cooperative-matrix members included (at
 * their register-layout offsets, as for any member).  A cooperative matrix
 * on its own is a value of its scope (one copy per scope instance, exec.h),
 * so the instructions that move a matrix into or out of an aggregate move it
 * between the two: into every active lane's copy from its scope instance's
 * matrix, and out of an aggregate from the copy of the instance's first
 * active lane.  The copies of the invocations of an instance stay equal
 * (every way a matrix enters an aggregate writes them alike; an element
 * written through OpCompositeInsert is written to all of them), so any one
 * of them is the instance's matrix.  Memory holding such aggregates is the
 * variable's per-scope copy (lower.c, ops/memory.c): loads and stores move
 * the whole aggregate lane by lane.  Non-matrix members stay
 * per-invocation in values; in per-scope memory they are shared by the
 * scope instance, as are the variable's matrices. */

/* The scope instance whose matrix lane l sees: `kind` 1 subgroup, 2 workgroup. */
static inline uint32_t kind_instance(const cvm_exec *ex, uint32_t kind, uint32_t l)
{
    return kind == 2 ? 0 : l / ex->sg_size;
}

/* Construct with constituents that are cooperative matrices: extra holds
 * (id, offset, size, kind) per constituent, kind 0 for a per-invocation
 * value, 1 / 2 for a subgroup / workgroup matrix (read from the lane's
 * scope instance). */
static cvm_result h_construct_scope(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result];
    const uint32_t *parts = ex->prog->extra + in->extra;
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *dst = CVM_LANE(r, l);
        for (uint32_t k = 0; k < in->nextra; k += 4) {
            cvm_val v = ex->vals[parts[k]];
            const uint8_t *src = parts[k + 3] ? v.p + (size_t)kind_instance(ex, parts[k + 3], l) * v.stride
                                              : CVM_LANE(v, l);
            memcpy(dst + parts[k + 1], src, parts[k + 2]);
        }
    }
    return CVM_SUCCESS;
}

/* A cooperative matrix out of an aggregate: in->a the aggregate, in->b the
 * matrix's offset, in->c its size; per scope instance (in->flags), from its
 * first active lane's copy. */
static cvm_result h_extract_scope(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        uint32_t l = cvm_scope_first_active(ex, in, i);
        if (l == UINT32_MAX)
            continue;
        memcpy(r.p + (size_t)i * r.stride, CVM_LANE(a, l) + in->b, in->c);
    }
    return CVM_SUCCESS;
}

/* A cooperative matrix into an aggregate: as h_insert, the object read from
 * the lane's scope instance (in->flags says the scope). */
static cvm_result h_insert_scope(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], obj = ex->vals[in->a], comp = ex->vals[in->d];
    uint32_t size = ex->prog->types[in->type].size;
    uint32_t kind = (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? 2 : 1;
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *dst = CVM_LANE(r, l);
        if (dst != CVM_LANE(comp, l))
            memmove(dst, CVM_LANE(comp, l), size);
        memcpy(dst + in->b, obj.p + (size_t)kind_instance(ex, kind, l) * obj.stride, in->c);
    }
    return CVM_SUCCESS;
}

/* An element of a cooperative matrix inside an aggregate, by invocation
 * (the mapping of h_matrix_extract): in->a the aggregate, in->b the
 * matrix's offset in it, in->c the element index, in->d the matrix type. */
static cvm_result h_extract_nested_element(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->d];
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    uint32_t es = ex->prog->types[t->elem].size, total = t->rows * t->cols;
    CVM_FOR_ACTIVE(ex, l) {
        uint32_t L = matrix_L(ex, t, l);
        uint64_t flat = (uint64_t)lane_in_scope(ex, t, l) * L + in->c;
        if (flat < total && in->c < L)
            memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + in->b + flat * es, es);
        else
            memset(CVM_LANE(r, l), 0, es);
    }
    return CVM_SUCCESS;
}

/* An element into a cooperative matrix inside an aggregate: in->a the
 * object, in->d the composite, in->b the matrix's offset, in->c the element
 * index; extra word 0 the matrix type.  Each lane owns other elements, and
 * every lane's copy of the matrix must end up with all of them: per scope
 * instance, every active lane's element goes into the first active lane's
 * copy, which is then copied to the other active lanes. */
static cvm_result h_insert_nested_element(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *ct = &ex->prog->types[in->type];
    const cvm_type *t = &ex->prog->types[ex->prog->extra[in->extra]];
    cvm_val r = ex->vals[in->result], obj = ex->vals[in->a], comp = ex->vals[in->d];
    uint32_t es = ex->prog->types[t->elem].size, total = t->rows * t->cols;
    CVM_FOR_ACTIVE(ex, l) {
        if (CVM_LANE(r, l) != CVM_LANE(comp, l))
            memmove(CVM_LANE(r, l), CVM_LANE(comp, l), ct->size);
    }
    cvm_insn probe = *in;
    probe.flags = CVM_INSN_PER_INSTANCE | (t->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
    for (uint32_t i = 0; i < cvm_scope_instances(ex, &probe); i++) {
        uint32_t f = cvm_scope_first_active(ex, &probe, i);
        if (f == UINT32_MAX)
            continue;
        uint32_t first = cvm_scope_first_lane(ex, &probe, i);
        uint32_t end = first + cvm_scope_lane_count(ex, &probe, i);
        uint8_t *m = CVM_LANE(r, f) + in->b;
        for (uint32_t l = first; l < end; l++) {
            if (!ex->active[l])
                continue;
            uint32_t L = matrix_L(ex, t, l);
            uint64_t flat = (uint64_t)lane_in_scope(ex, t, l) * L + in->c;
            if (flat < total && in->c < L)
                memcpy(m + flat * es, CVM_LANE(obj, l), es);
        }
        for (uint32_t l = first; l < end; l++)
            if (ex->active[l] && l != f)
                memcpy(CVM_LANE(r, l) + in->b, m, t->size);
    }
    return CVM_SUCCESS;
}

/* A matrix from one scalar.  KHR: "all components of the matrix are
 * initialized to that value.  The 'Constituent' must be dynamically uniform
 * within the 'Scope'".  When it is not (the Vulkan CTS's composite tests
 * build a matrix from each invocation's own element 0 of another matrix),
 * each invocation's value goes to the elements it owns (the mapping at the
 * top of this file), as on hardware where an invocation's elements live in
 * its registers; a uniform value fills the matrix either way. */
static cvm_result h_matrix_splat(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->type];
    cvm_val r = ex->vals[in->result], s = ex->vals[in->a];
    uint32_t es = ex->prog->types[t->elem].size, total = t->rows * t->cols;
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        uint8_t *m = r.p + (size_t)i * r.stride;
        uint32_t first = cvm_scope_first_lane(ex, in, i), n = cvm_scope_lane_count(ex, in, i);
        const uint8_t *v0 = CVM_LANE(s, cvm_scope_first_active(ex, in, i));
        for (uint32_t e = 0; e < total; e++)
            memcpy(m + (size_t)e * es, v0, es);
        for (uint32_t l = first; l < first + n; l++) {
            if (!ex->active[l] || !memcmp(CVM_LANE(s, l), v0, es))
                continue;
            uint32_t L = matrix_L(ex, t, l);
            uint64_t flat = (uint64_t)lane_in_scope(ex, t, l) * L;
            for (uint32_t e = 0; e < L && flat + e < total; e++)
                memcpy(m + (flat + e) * es, CVM_LANE(s, l), es);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_copy(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    if (in->flags & CVM_INSN_PER_INSTANCE) {
        for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++)
            memcpy(r.p + (size_t)i * r.stride, a.p + (size_t)i * a.stride, in->c);
        return CVM_SUCCESS;
    }
    CVM_FOR_ACTIVE(ex, l)
        memcpy(CVM_LANE(r, l), CVM_LANE(a, l), in->c);
    return CVM_SUCCESS;
}

/* Shuffle: extra holds (source 0/1, byte offset) per result component. */
static cvm_result h_shuffle(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    const uint32_t *sel = ex->prog->extra + in->extra;
    uint32_t es = in->c;
    CVM_FOR_ACTIVE(ex, l) {
        for (uint32_t k = 0; k < in->ncomp; k++) {
            uint8_t *dst = CVM_LANE(r, l) + k * es;
            if (sel[2 * k] == 2)
                memset(dst, 0, es);
            else
                memcpy(dst, (sel[2 * k] ? CVM_LANE(b, l) : CVM_LANE(a, l)) + sel[2 * k + 1], es);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_vec_extract_dyn(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], idx = ex->vals[in->b];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t i = index_value(CVM_LANE(idx, l), in->d);
        if (i < in->ncomp)
            memcpy(CVM_LANE(r, l), CVM_LANE(a, l) + i * in->c, in->c);
        else
            memset(CVM_LANE(r, l), 0, in->c); /* undefined in the texts */
    }
    return CVM_SUCCESS;
}

static cvm_result h_vec_insert_dyn(cvm_exec *ex, const cvm_insn *in)
{
    const uint32_t *ops = ex->prog->extra + in->extra; /* component id, index id */
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], comp = ex->vals[ops[0]], idx = ex->vals[ops[1]];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t i = index_value(CVM_LANE(idx, l), in->d);
        if (CVM_LANE(r, l) != CVM_LANE(a, l))
            memmove(CVM_LANE(r, l), CVM_LANE(a, l), (size_t)in->c * in->ncomp);
        if (i < in->ncomp)
            memcpy(CVM_LANE(r, l) + i * in->c, CVM_LANE(comp, l), in->c);
    }
    return CVM_SUCCESS;
}

/* Walks constant indices through a type in register layout.  A
 * cooperative matrix reached before the last index stops the walk there:
 * *o_used (may be NULL: then that is an error) gets the indices consumed,
 * and the one index left selects an element by invocation. */
static cvm_result walk_indices(cvm_lower *lw, const spv_inst *in, uint32_t type, const uint32_t *idx,
                               uint32_t n, uint32_t *o_off, uint32_t *o_type, uint32_t *o_used)
{
    uint32_t off = 0;
    if (o_used)
        *o_used = n;
    for (uint32_t i = 0; i < n; i++) {
        const cvm_type *t = cvm_lower_type(lw, type);
        if (t->tclass == CVM_TC_COOPMAT && o_used) {
            *o_used = i;
            break;
        }
        switch (t->tclass) {
        case CVM_TC_VECTOR:
        case CVM_TC_MATRIX:
        case CVM_TC_ARRAY: {
            const cvm_type *e = cvm_lower_type(lw, t->elem);
            uint32_t esize = t->tclass == CVM_TC_ARRAY ? (e->size + t->align - 1) / t->align * t->align
                                                         : e->size;
            if (t->tclass == CVM_TC_ARRAY && !t->count)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "a runtime array is not a value to index");
            if (idx[i] >= t->count)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "index %u out of range %u",
                                      idx[i], t->count);
            off += idx[i] * esize;
            type = t->elem;
            break;
        }
        case CVM_TC_STRUCT:
            if (idx[i] >= t->nmembers)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "member %u out of range", idx[i]);
            off += t->member_offsets[idx[i]];
            type = t->member_types[idx[i]];
            break;
        default:
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "index into a non-composite");
        }
    }
    *o_off = off;
    *o_type = type;
    return CVM_SUCCESS;
}

/* The handlers copy whole values at the sizes the types say: a module that
 * skipped validation must not give them an operand (or a Result Type) of
 * another size, which would read or write past a value slot. */
static cvm_result check_size(cvm_lower *lw, const spv_inst *in, const char *what, uint32_t id,
                             uint32_t type, uint32_t want)
{
    uint32_t got = cvm_lower_type(lw, type)->size;
    if (got != want)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s %%%u has %u bytes where %u are needed", what, id, got, want);
    return CVM_SUCCESS;
}

static uint8_t scope_flags(const cvm_type *t)
{
    return CVM_INSN_PER_INSTANCE | (t->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
}

/* 0 for a per-invocation value of type `t`, 1 / 2 for a subgroup /
 * workgroup cooperative matrix (a value of its scope). */
static uint32_t scope_kind(const cvm_type *t)
{
    if (t->tclass != CVM_TC_COOPMAT)
        return 0;
    return t->scope == SpvScopeWorkgroup ? 2 : 1;
}

/* Value `id` (of type `type`: a Result Type or an operand's) is held as its
 * handler reads or writes it: per invocation (kind 0), or as a matrix of
 * the scope `kind` says (one value per scope instance).  A size check alone
 * lets a 1x1 matrix stand for a scalar, and one scope for the other. */
static cvm_result check_kind(cvm_lower *lw, const spv_inst *in, const char *what, uint32_t id,
                             uint32_t type, uint32_t kind)
{
    uint32_t got = scope_kind(cvm_lower_type(lw, type));
    if (got != kind)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s %%%u is %s where %s is needed",
                              what, id,
                              got == 0   ? "a per-invocation value"
                              : got == 1 ? "a subgroup cooperative matrix"
                                         : "a workgroup cooperative matrix",
                              kind == 0   ? "a per-invocation value"
                              : kind == 1 ? "a subgroup cooperative matrix"
                                          : "a workgroup cooperative matrix");
    return CVM_SUCCESS;
}

/* An element of matrix member of type `mt` of an aggregate, by invocation:
 * `nleft` indexes are left after the matrix, and one must be. */
static cvm_result nested_element(cvm_lower *lw, const spv_inst *in, uint32_t nleft, uint32_t mt)
{
    if (nleft != 1)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%u indexes into cooperative matrix %%%u where one selects an "
                              "element",
                              nleft, mt);
    return CVM_SUCCESS;
}

cvm_result cvm_lower_composite(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    switch (in->opcode) {
    case SpvOpCooperativeMatrixLengthKHR:
    case SpvOpCooperativeMatrixLengthNV: {
        const cvm_type *t = cvm_lower_type(lw, w[3]);
        if (t->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "operand is not a matrix type");
        /* "Result Type must be an OpTypeInt with 32-bit Width" (KHR, NV):
         * h_matrix_length writes 4 bytes */
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        if (rt->tclass != CVM_TC_INT || rt->size != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type %%%u is not a 32-bit integer", w[1]);
        out->a = w[3];
        out->b = cvm_matrix_length_fixed(cvm_lower_program(lw), t);
        out->fn = out->b ? h_matrix_length_fixed : h_matrix_length;
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeMatrixGetCoordinateEXT: {
        if (in->word_count != 5)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        const cvm_type *re = cvm_lower_type(lw, rt->elem);
        if (rt->tclass != CVM_TC_VECTOR || rt->count != 2 || re->tclass != CVM_TC_INT ||
            re->size != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type must be a vector of two 32-bit integers");
        uint32_t mt = cvm_lower_type_of(lw, w[3]);
        if (cvm_lower_type(lw, mt)->tclass != CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Matrix must be a cooperative matrix");
        const cvm_type *it = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]));
        if (it->tclass != CVM_TC_INT || it->size != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Index must be a 32-bit integer");
        out->a = w[3];
        out->b = w[4];
        out->d = 4;
        out->type = mt;
        out->fn = h_matrix_coordinate;
        return CVM_SUCCESS;
    }
    case SpvOpCompositeExtract: {
        uint32_t ct = cvm_lower_type_of(lw, w[3]);
        const cvm_type *t = cvm_lower_type(lw, ct);
        out->a = w[3];
        if (t->tclass == CVM_TC_COOPMAT) {
            if (in->word_count != 5)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "matrix extract takes one index");
            out->b = w[4];
            out->type = ct;
            CVM_TRY(check_size(lw, in, "Result Type", w[1], w[1],
                               cvm_lower_type(lw, t->elem)->size));
            CVM_TRY(check_kind(lw, in, "Result Type", w[1], w[1], 0));
            out->fn = h_matrix_extract;
            return CVM_SUCCESS;
        }
        uint32_t off, et, used;
        CVM_TRY(walk_indices(lw, in, ct, w + 4, in->word_count - 4u, &off, &et, &used));
        const cvm_type *e = cvm_lower_type(lw, et);
        if (used < in->word_count - 4u) {
            /* an element of a matrix member, by invocation */
            CVM_TRY(nested_element(lw, in, in->word_count - 4u - used, et));
            out->b = off;
            out->c = w[4 + used];
            out->d = et;
            CVM_TRY(check_size(lw, in, "Result Type", w[1], w[1],
                               cvm_lower_type(lw, e->elem)->size));
            CVM_TRY(check_kind(lw, in, "Result Type", w[1], w[1], 0));
            out->flags = scope_flags(e);
            out->fn = h_extract_nested_element;
            return CVM_SUCCESS;
        }
        out->b = off;
        out->c = e->size;
        CVM_TRY(check_size(lw, in, "Result Type", w[1], w[1], out->c));
        CVM_TRY(check_kind(lw, in, "Result Type", w[1], w[1], scope_kind(e)));
        if (scope_kind(e)) {
            /* a matrix member: the value of its scope */
            out->flags = scope_flags(e);
            out->fn = h_extract_scope;
            return CVM_SUCCESS;
        }
        out->fn = h_extract;
        return CVM_SUCCESS;
    }
    case SpvOpCompositeInsert: {
        uint32_t ct = w[1];
        const cvm_type *t = cvm_lower_type(lw, ct);
        out->a = w[3];
        out->d = w[4];
        out->type = ct;
        if (t->tclass == CVM_TC_COOPMAT) {
            out->b = w[5];
            CVM_TRY(check_size(lw, in, "Object", w[3], cvm_lower_type_of(lw, w[3]),
                               cvm_lower_type(lw, t->elem)->size));
            CVM_TRY(check_kind(lw, in, "Object", w[3], cvm_lower_type_of(lw, w[3]), 0));
            CVM_TRY(check_size(lw, in, "Composite", w[4], cvm_lower_type_of(lw, w[4]), t->size));
            out->fn = h_matrix_insert;
            return CVM_SUCCESS;
        }
        uint32_t off, et, used;
        CVM_TRY(walk_indices(lw, in, ct, w + 5, in->word_count - 5u, &off, &et, &used));
        const cvm_type *e = cvm_lower_type(lw, et);
        CVM_TRY(check_size(lw, in, "Composite", w[4], cvm_lower_type_of(lw, w[4]), t->size));
        if (used < in->word_count - 5u) {
            /* an element of a matrix member, by invocation */
            CVM_TRY(nested_element(lw, in, in->word_count - 5u - used, et));
            CVM_TRY(check_size(lw, in, "Object", w[3], cvm_lower_type_of(lw, w[3]),
                               cvm_lower_type(lw, e->elem)->size));
            CVM_TRY(check_kind(lw, in, "Object", w[3], cvm_lower_type_of(lw, w[3]), 0));
            out->b = off;
            out->c = w[5 + used];
            out->extra = cvm_lower_extra(lw, &et, 1);
            if (out->extra == UINT32_MAX)
                return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            out->nextra = 1;
            out->flags = scope_flags(e);
            out->fn = h_insert_nested_element;
            return CVM_SUCCESS;
        }
        out->b = off;
        out->c = e->size;
        CVM_TRY(check_size(lw, in, "Object", w[3], cvm_lower_type_of(lw, w[3]), out->c));
        CVM_TRY(check_kind(lw, in, "Object", w[3], cvm_lower_type_of(lw, w[3]), scope_kind(e)));
        if (scope_kind(e)) {
            /* a matrix member, from the value of its scope */
            out->flags = scope_flags(e);
            out->fn = h_insert_scope;
            return CVM_SUCCESS;
        }
        out->fn = h_insert;
        return CVM_SUCCESS;
    }
    case SpvOpCompositeConstruct:
    case SpvOpCompositeConstructReplicateEXT: {
        const cvm_type *t = cvm_lower_type(lw, w[1]);
        int rep = in->opcode == SpvOpCompositeConstructReplicateEXT;
        if (t->tclass == CVM_TC_COOPMAT) {
            /* one Constituent, a scalar of the Component Type (KHR: "a
             * single scalar ... 'Component Type'") */
            if (in->word_count != 4)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "a cooperative matrix is constructed from one scalar, not "
                                      "%u Constituents",
                                      in->word_count - 3u);
            uint32_t ctype = cvm_lower_type_of(lw, w[3]);
            if (scope_kind(cvm_lower_type(lw, ctype)))
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "Constituent %%%u is a cooperative matrix, not a scalar",
                                      w[3]);
            CVM_TRY(check_size(lw, in, "Constituent", w[3], ctype,
                               cvm_lower_type(lw, t->elem)->size));
            out->a = w[3];
            out->flags = scope_flags(t);
            out->fn = h_matrix_splat;
            return CVM_SUCCESS;
        }
        uint32_t nparts = rep ? (t->tclass == CVM_TC_STRUCT ? t->nmembers : t->count) : in->word_count - 3u;
        uint32_t off = 0;
        out->extra = 0;
        out->nextra = 0;
        /* constituents that are cooperative matrices (values of their
         * scope): the parts carry a fourth word, their kind */
        uint32_t pw = 3;
        for (uint32_t i = 0; i < nparts; i++)
            if (scope_kind(cvm_lower_type(lw, cvm_lower_type_of(lw, rep ? w[3] : w[3 + i]))))
                pw = 4;
        for (uint32_t i = 0; i < nparts; i++) {
            uint32_t id = rep ? w[3] : w[3 + i];
            const cvm_type *ct = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
            uint32_t at;
            if (t->tclass == CVM_TC_STRUCT) {
                if (i >= t->nmembers)
                    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "too many constituents");
                at = t->member_offsets[i];
            } else if (t->tclass == CVM_TC_ARRAY) {
                const cvm_type *e = cvm_lower_type(lw, t->elem);
                at = i * ((e->size + t->align - 1) / t->align * t->align);
            } else {
                at = off;
            }
            if (at + ct->size > t->size)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "constituents exceed the result");
            uint32_t part[4] = {id, at, ct->size, scope_kind(ct)};
            uint32_t e = cvm_lower_extra(lw, part, pw);
            if (e == UINT32_MAX)
                return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            if (out->nextra == 0)
                out->extra = e;
            out->nextra += pw;
            off += ct->size;
        }
        /* the constituents fill a vector (one sized by a specialization
         * constant included, which no check before specialization sees) */
        if (t->tclass == CVM_TC_VECTOR && off != t->size)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "the constituents make %u bytes of a %u-byte vector of %u "
                                  "components (as specialized)",
                                  off, t->size, t->count);
        if (pw == 4)
            out->flags = CVM_INSN_PER_INSTANCE; /* (reads values of a scope) */
        out->fn = pw == 4 ? h_construct_scope : h_construct;
        return CVM_SUCCESS;
    }
    case SpvOpAssumeTrueKHR:
        /* SPV_KHR_expect_assume: a promise the shader makes to the
         * optimiser; an interpreter has nothing to do (no handler: the
         * instruction is dropped) */
        return CVM_SUCCESS;
    case SpvOpCopyObject:
    case SpvOpCopyLogical:
    case SpvOpExpectKHR: /* the value, whatever is expected of it */ {
        const cvm_type *t = cvm_lower_type(lw, w[1]);
        /* h_copy copies the Result Type's bytes from the operand's slot:
         * the operand must be that size and kind (the reader checks
         * OpCopyObject's type; OpCopyLogical's only "logically matches") */
        const cvm_type *at = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        if (at->size != t->size || at->tclass != t->tclass ||
            (t->tclass == CVM_TC_COOPMAT && scope_flags(at) != scope_flags(t)))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Operand %%%u is a %u-byte value where one like the Result "
                                  "Type's %u bytes is needed",
                                  w[3], at->size, t->size);
        out->a = w[3];
        out->c = t->size;
        if (t->tclass == CVM_TC_COOPMAT)
            out->flags = scope_flags(t);
        out->fn = h_copy;
        return CVM_SUCCESS;
    }
    case SpvOpUndef: {
        /* a local undefined value: leave the slot as it is (zeroed at frame creation) */
        return CVM_SUCCESS;
    }
    case SpvOpVectorShuffle: {
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        const cvm_type *at = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        const cvm_type *bt = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]));
        uint32_t es = cvm_lower_type(lw, rt->elem)->size;
        /* h_shuffle copies es-byte components from Vector 1 and 2 into the
         * result: all three vectors of one component type */
        if (rt->tclass != CVM_TC_VECTOR || at->tclass != CVM_TC_VECTOR ||
            bt->tclass != CVM_TC_VECTOR)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type, Vector 1 and Vector 2 must be vectors");
        if (cvm_lower_type(lw, at->elem)->size != es || cvm_lower_type(lw, bt->elem)->size != es ||
            cvm_lower_type(lw, at->elem)->tclass != cvm_lower_type(lw, rt->elem)->tclass ||
            cvm_lower_type(lw, bt->elem)->tclass != cvm_lower_type(lw, rt->elem)->tclass)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Vector 1 %%%u and Vector 2 %%%u must have the component type "
                                  "of the Result Type",
                                  w[3], w[4]);
        if (in->word_count < 5 || rt->count != in->word_count - 5u)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "%u Components for a Result Type of %u components",
                                  in->word_count < 5 ? 0 : in->word_count - 5u, rt->count);
        for (uint32_t k = 5; k < in->word_count; k++)
            if (w[k] != 0xFFFFFFFFu && (uint64_t)w[k] >= (uint64_t)at->count + bt->count)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "Component %u is not below %u (the components of Vector 1 "
                                      "and Vector 2) nor 0xFFFFFFFF",
                                      w[k], at->count + bt->count);
        out->a = w[3];
        out->b = w[4];
        out->c = es;
        out->ncomp = in->word_count - 5u;
        out->extra = 0;
        for (uint32_t k = 0; k < out->ncomp; k++) {
            uint32_t c = w[5 + k];
            uint32_t sel[2];
            if (c == 0xFFFFFFFFu) {
                sel[0] = 2;
                sel[1] = 0;
            } else if (c < at->count) {
                sel[0] = 0;
                sel[1] = c * es;
            } else {
                sel[0] = 1;
                sel[1] = (c - at->count) * es;
            }
            uint32_t e = cvm_lower_extra(lw, sel, 2);
            if (e == UINT32_MAX)
                return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            if (k == 0)
                out->extra = e;
        }
        out->nextra = out->ncomp * 2;
        out->fn = h_shuffle;
        return CVM_SUCCESS;
    }
    case SpvOpVectorExtractDynamic: {
        const cvm_type *vt = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        if (vt->tclass != CVM_TC_VECTOR)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Vector %%%u is not a vector",
                                  w[3]);
        out->a = w[3];
        out->b = w[4];
        out->c = cvm_lower_type(lw, vt->elem)->size;
        out->ncomp = vt->count;
        CVM_TRY(check_size(lw, in, "Result Type", w[1], w[1], out->c));
        CVM_TRY(check_kind(lw, in, "Result Type", w[1], w[1], 0));
        CVM_TRY(cvm_lower_int_scalar(lw, in, w[4], "Index", &out->d));
        out->fn = h_vec_extract_dyn;
        return CVM_SUCCESS;
    }
    case SpvOpVectorInsertDynamic: {
        const cvm_type *vt = cvm_lower_type(lw, w[1]);
        if (vt->tclass != CVM_TC_VECTOR)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type %%%u is not a vector", w[1]);
        out->a = w[3];
        out->c = cvm_lower_type(lw, vt->elem)->size;
        out->ncomp = vt->count;
        CVM_TRY(check_size(lw, in, "Vector", w[3], cvm_lower_type_of(lw, w[3]), vt->size));
        CVM_TRY(check_size(lw, in, "Component", w[4], cvm_lower_type_of(lw, w[4]), out->c));
        CVM_TRY(check_kind(lw, in, "Component", w[4], cvm_lower_type_of(lw, w[4]), 0));
        CVM_TRY(cvm_lower_int_scalar(lw, in, w[5], "Index", &out->d));
        uint32_t ops[2] = {w[4], w[5]};
        out->extra = cvm_lower_extra(lw, ops, 2);
        out->nextra = 2;
        out->fn = h_vec_insert_dyn;
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
