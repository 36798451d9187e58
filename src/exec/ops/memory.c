/* Memory instructions: variables, loads and stores (memory layout <->
 * register layout), access chains, array length, pointer conversions,
 * barriers. */
#include <string.h>

#include "exec/program.h"

/* ---- access-chain steps ---------------------------------------------------
 * An access chain lowers to steps in cvm_program.extra, 4 words each:
 *   kind, operand, arg1, arg2
 *   STEP_CONST  add arg1 | arg2 << 32 bytes (a signed 64-bit number)
 *   STEP_INDEX  add (index of id `operand`, arg1 = byte width, signed) * arg2 bytes
 *   STEP_DESC   descriptor array: region += index of id `operand` (arg1 width)
 *   STEP_REGION descriptor array, a constant index: region += arg1
 *   STEP_MATRIX cooperative matrix element: flat = laneInScope * L + index
 *               (operand id, arg1 = width | esize << 8 | workgroup << 31,
 *                arg2 = 0x80000000 | M*N: L is computed per lane)
 * The byte offsets stay inside the region (offset_add).
 */
enum { STEP_CONST = 0, STEP_INDEX = 1, STEP_DESC = 2, STEP_MATRIX = 3, STEP_REGION = 4 };

static cvm_result h_access_chain(cvm_exec *ex, const cvm_insn *in);

static int64_t read_index(const uint8_t *p, uint32_t width)
{
    switch (width) {
    case 1: return (int8_t)p[0];
    case 2: { int16_t v; memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* *io_pending += idx * stride, in signed 64 bits; a sum that overflows
 * becomes INT64_MAX and stays there, an offset offset_add refuses (an index
 * of a constant as large as INT64_MIN must not wrap to a valid offset). */
static void pending_add(uint64_t *io_pending, int64_t idx, uint64_t stride)
{
    int64_t prod, sum;
    if ((int64_t)*io_pending == INT64_MAX || stride > (uint64_t)INT64_MAX ||
        __builtin_mul_overflow(idx, (int64_t)stride, &prod) ||
        __builtin_add_overflow((int64_t)*io_pending, prod, &sum) || sum == INT64_MAX)
        *io_pending = (uint64_t)INT64_MAX;
    else
        *io_pending = (uint64_t)sum;
}

static cvm_result push_step(cvm_lower *lw, const spv_inst *in, cvm_insn *out, uint32_t kind,
                            uint32_t op, uint32_t a1, uint32_t a2)
{
    uint32_t w[4] = {kind, op, a1, a2};
    uint32_t at = cvm_lower_extra(lw, w, 4);
    if (at == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    if (out->nextra == 0)
        out->extra = at;
    out->nextra += 4;
    return CVM_SUCCESS;
}

static cvm_result lower_access_chain(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const cvm_program *p = cvm_lower_program(lw);
    const uint32_t *w = in->words;
    uint32_t base = w[3];
    uint32_t ptr_type = cvm_lower_type_of(lw, base);
    const cvm_type *pt = cvm_lower_type(lw, ptr_type);
    if (pt->tclass != CVM_TC_POINTER)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "base is not a pointer");
    /* the pointee as memory holds it: a layout variant when the base came
     * through a MatrixStride / RowMajor member */
    uint32_t cur = cvm_lower_layout_of(lw, base) ? cvm_lower_layout_of(lw, base) : pt->elem;
    uint32_t first = 4;
    uint64_t pending = 0;
    out->fn = h_access_chain;
    out->a = base;
    out->nextra = 0;
    out->extra = 0;
    if (in->opcode == SpvOpPtrAccessChain || in->opcode == SpvOpInBoundsPtrAccessChain) {
        /* Element: steps over whole objects of the pointee type; in
         * explicitly laid-out memory by the pointer type's ArrayStride (the
         * texts ignore it elsewhere, e.g. in Workgroup memory that is not
         * laid out in Blocks). */
        uint32_t stride = cvm_lower_type(lw, cur)->mem_size;
        const spv_decoration *d =
            spv_module_find_decoration(p->mod, ptr_type, SPV_NO_MEMBER, SpvDecorationArrayStride);
        if (d && cvm_lower_explicit_layout(lw, pt->storage_class))
            stride = spv_decoration_operand(p->mod, d, 0);
        uint64_t v;
        uint32_t ew;
        if (in->word_count < 5)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "no Element operand");
        CVM_TRY(cvm_lower_int_scalar(lw, in, w[4], "Element", &ew));
        if (cvm_lower_const_u64(lw, w[4], &v))
            pending_add(&pending, (int64_t)v, stride);
        else
            CVM_TRY(push_step(lw, in, out, STEP_INDEX, w[4], ew, stride));
        first = 5;
    }
    int desc_array = base < p->bound && p->var_region[base] == 0xfe;
    for (uint32_t i = first; i < in->word_count; i++) {
        const cvm_type *t = cvm_lower_type(lw, cur);
        uint32_t idx_id = w[i];
        uint64_t cv;
        uint32_t iw;
        /* the steps read an index at its type's width */
        CVM_TRY(cvm_lower_int_scalar(lw, in, idx_id, "Indexes", &iw));
        int is_const = cvm_lower_const_u64(lw, idx_id, &cv);
        if (desc_array && i == first) {
            if (pending) {
                CVM_TRY(push_step(lw, in, out, STEP_CONST, 0, (uint32_t)pending, (uint32_t)(pending >> 32)));
                pending = 0;
            }
            if (is_const)
                CVM_TRY(push_step(lw, in, out, STEP_REGION, 0, (uint32_t)cv, 0));
            else
                CVM_TRY(push_step(lw, in, out, STEP_DESC, idx_id, iw, 0));
            cur = t->elem;
            continue;
        }
        switch (t->tclass) {
        case CVM_TC_STRUCT:
            if (!is_const || cv >= t->nmembers)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "struct member index must be a constant below %u", t->nmembers);
            pending_add(&pending, 1, t->member_mem_offsets[cv]);
            cur = t->member_types[cv];
            break;
        case CVM_TC_ARRAY:
        case CVM_TC_VECTOR:
        case CVM_TC_MATRIX: {
            const cvm_type *e = cvm_lower_type(lw, t->elem);
            uint32_t stride = e->mem_size, next = t->elem;
            if (t->tclass == CVM_TC_ARRAY) {
                stride = t->array_stride;
            } else if (t->tclass == CVM_TC_VECTOR && t->comp_stride) {
                stride = t->comp_stride; /* a column of a row-major matrix */
            } else if (t->tclass == CVM_TC_MATRIX) {
                /* column c: c * MatrixStride, or c components into each row */
                stride = t->row_major ? cvm_lower_type(lw, e->elem)->size : t->matrix_stride;
                next = t->mem_elem ? t->mem_elem : t->elem;
            }
            if (is_const)
                pending_add(&pending, (int64_t)cv, stride);
            else
                CVM_TRY(push_step(lw, in, out, STEP_INDEX, idx_id, iw, stride));
            cur = next;
            break;
        }
        case CVM_TC_COOPMAT: {
            const cvm_type *e = cvm_lower_type(lw, t->elem);
            /* L = ceil(M*N / invocations in the scope instance) depends on
             * the subgroup size and partial subgroups: computed at run time
             * from M*N (the 0x80000000 marker). */
            uint32_t total = t->rows * t->cols;
            if (pending) {
                CVM_TRY(push_step(lw, in, out, STEP_CONST, 0, (uint32_t)pending, (uint32_t)(pending >> 32)));
                pending = 0;
            }
            CVM_TRY(push_step(lw, in, out, STEP_MATRIX, idx_id,
                              iw | (e->size << 8) | (t->scope == SpvScopeWorkgroup ? 0x80000000u : 0),
                              0x80000000u | total));
            cur = t->elem;
            break;
        }
        default:
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "index into a non-composite type");
        }
    }
    if (pending || out->nextra == 0)
        CVM_TRY(push_step(lw, in, out, STEP_CONST, 0, (uint32_t)pending, (uint32_t)(pending >> 32)));
    /* loads and stores through the result lay the value out as `cur` says */
    cvm_lower_set_layout(lw, w[2], cur >= p->bound ? cur : 0);
    return CVM_SUCCESS;
}

/* Runs the steps per active lane.  For matrix elements L depends on the
 * invocations in the lane's scope instance, known only at run time: the step
 * stores 0x80000000 | M*N and L is computed here. */
/* addr + idx * stride within addr's region: the address arithmetic of
 * access chains is 64-bit whatever the indexing mode (Vulkan's 64-bit
 * indexing, SPV_EXT_shader_64bit_indexing, asks for no less; without it an
 * index calculation "must not wrap 32 bits", so the 64-bit result is the
 * one a shader may rely on).  An offset that leaves the region's 40 bits
 * (negative, or 2^40 and past) must not carry into the region number:
 * *io_bad is set and the caller ends at an address no access accepts. */
static uint64_t offset_add(uint64_t addr, int64_t idx, uint64_t stride, int *io_bad)
{
    int64_t prod, off;
    if (stride > (uint64_t)INT64_MAX || __builtin_mul_overflow(idx, (int64_t)stride, &prod) ||
        __builtin_add_overflow((int64_t)CVM_ADDR_OFFSET(addr), prod, &off) || off < 0 ||
        off >= ((int64_t)1 << CVM_ADDR_OFFSET_BITS)) {
        *io_bad = 1;
        return addr;
    }
    return CVM_ADDR(CVM_ADDR_REGION(addr), (uint64_t)off);
}

/* The fast path of access chains: step by step over all active lanes (one
 * pass per step, not one switch per lane and step) for chains of constant
 * offsets and indexes.  Returns 0 when the chain has other steps, or when an
 * offset leaves its region in some lane: the reference loop below then
 * computes every lane again (the base slot is not the result's), marking
 * such lanes as it always has. */
#define CHAIN_INDEX_LOOP(T)                                                            \
    for (uint32_t l = 0; l < n; l++) {                                                 \
        if (!act[l])                                                                   \
            continue;                                                                  \
        T idx;                                                                         \
        memcpy(&idx, CVM_LANE(iv, l), sizeof(T));                                      \
        uint64_t a;                                                                    \
        memcpy(&a, CVM_LANE(r, l), 8);                                                 \
        int64_t prod, off;                                                             \
        if (__builtin_mul_overflow((int64_t)idx, (int64_t)stride, &prod) ||            \
            __builtin_add_overflow((int64_t)CVM_ADDR_OFFSET(a), prod, &off) ||         \
            (uint64_t)off >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS))                    \
            return 0;                                                                  \
        a = (a & ~((UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1)) | (uint64_t)off;        \
        memcpy(CVM_LANE(r, l), &a, 8);                                                 \
    }

/* Every lane active, every step a constant offset within +-2^41 or a
 * 32-bit index with a stride below 2^31: no lane's arithmetic can overflow
 * 64 bits (an offset below 2^40 plus at most 2^62 in magnitude), so each
 * step is one pass without a branch per lane, and lanes whose offset leaves
 * the region are only counted (the caller then falls back, as above).
 * Returns 0 when the chain has other steps. */
static inline uint64_t chain_step(uint64_t a, int64_t delta, uint64_t *io_bad)
{
    uint64_t off = CVM_ADDR_OFFSET(a) + (uint64_t)delta;
    *io_bad |= off >> CVM_ADDR_OFFSET_BITS; /* negative or past 2^40 */
    return (a - CVM_ADDR_OFFSET(a)) | CVM_ADDR_OFFSET(off);
}

static int access_chain_all_lanes(cvm_exec *ex, const cvm_insn *in, int *o_bad)
{
    cvm_val r = ex->vals[in->result], base = ex->vals[in->a];
    const uint32_t *steps = ex->prog->extra + in->extra;
    uint32_t n = ex->nlanes;
    for (uint32_t s = 0; s < in->nextra; s += 4) {
        const uint32_t *st = steps + s;
        int64_t delta = (int64_t)(st[2] | ((uint64_t)st[3] << 32));
        if (!(st[0] == STEP_CONST && delta > -((int64_t)1 << 41) && delta < ((int64_t)1 << 41)) &&
            !(st[0] == STEP_INDEX && st[2] == 4 && st[3] <= (uint32_t)INT32_MAX))
            return 0;
    }
    if (r.stride != 8)
        return 0;
    uint64_t *ra = (uint64_t *)(void *)r.p;
    if (base.stride == 8) {
        memcpy(ra, base.p, (size_t)n * 8);
    } else {
        for (uint32_t l = 0; l < n; l++)
            memcpy(&ra[l], CVM_LANE(base, l), 8);
    }
    uint64_t bad = 0;
    for (uint32_t s = 0; s < in->nextra; s += 4) {
        const uint32_t *st = steps + s;
        if (st[0] == STEP_CONST) {
            int64_t delta = (int64_t)(st[2] | ((uint64_t)st[3] << 32));
            for (uint32_t l = 0; l < n; l++)
                ra[l] = chain_step(ra[l], delta, &bad);
            continue;
        }
        cvm_val iv = ex->vals[st[1]];
        int64_t stride = (int64_t)st[3];
        if (iv.stride == 4) {
            const int32_t *ix = (const int32_t *)(const void *)iv.p;
            for (uint32_t l = 0; l < n; l++) /* dense: vectorizes */
                ra[l] = chain_step(ra[l], (int64_t)ix[l] * stride, &bad);
        } else {
            for (uint32_t l = 0; l < n; l++) {
                int32_t x;
                memcpy(&x, CVM_LANE(iv, l), 4);
                ra[l] = chain_step(ra[l], (int64_t)x * stride, &bad);
            }
        }
    }
    *o_bad = bad != 0;
    return 1;
}

static int access_chain_fast(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], base = ex->vals[in->a];
    const uint32_t *steps = ex->prog->extra + in->extra;
    const uint8_t *act = ex->active;
    uint32_t n = ex->nlanes;
    if (ex->flags & CVM_FLAG_REFERENCE_PATHS)
        return 0;
    int bad = 0;
    if (ex->nactive == n && n > 0 && access_chain_all_lanes(ex, in, &bad))
        return !bad;
    for (uint32_t s = 0; s < in->nextra; s += 4) {
        const uint32_t *st = steps + s;
        if (st[0] != STEP_CONST &&
            !(st[0] == STEP_INDEX && (st[2] == 4 || st[2] == 8) && st[3] <= (uint32_t)INT32_MAX))
            return 0;
    }
    for (uint32_t l = 0; l < n; l++)
        if (act[l])
            memcpy(CVM_LANE(r, l), CVM_LANE(base, l), 8);
    for (uint32_t s = 0; s < in->nextra; s += 4) {
        const uint32_t *st = steps + s;
        if (st[0] == STEP_CONST) {
            int64_t delta = (int64_t)(st[2] | ((uint64_t)st[3] << 32));
            for (uint32_t l = 0; l < n; l++) {
                if (!act[l])
                    continue;
                uint64_t a;
                memcpy(&a, CVM_LANE(r, l), 8);
                int64_t off;
                if (__builtin_add_overflow((int64_t)CVM_ADDR_OFFSET(a), delta, &off) ||
                    (uint64_t)off >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS))
                    return 0;
                a = (a & ~((UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1)) | (uint64_t)off;
                memcpy(CVM_LANE(r, l), &a, 8);
            }
            continue;
        }
        cvm_val iv = ex->vals[st[1]];
        uint32_t stride = st[3];
        if (st[2] == 4)
            CHAIN_INDEX_LOOP(int32_t)
        else
            CHAIN_INDEX_LOOP(int64_t)
    }
    return 1;
}

static cvm_result h_access_chain(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], base = ex->vals[in->a];
    const uint32_t *steps = ex->prog->extra + in->extra;
    if (access_chain_fast(ex, in))
        return CVM_SUCCESS;
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t addr;
        int bad = 0;
        memcpy(&addr, CVM_LANE(base, l), 8);
        for (uint32_t s = 0; s < in->nextra; s += 4) {
            const uint32_t *st = steps + s;
            switch (st[0]) {
            case STEP_CONST:
                addr = offset_add(addr, (int64_t)(st[2] | ((uint64_t)st[3] << 32)), 1, &bad);
                break;
            case STEP_REGION:
                addr += (uint64_t)st[2] << CVM_ADDR_OFFSET_BITS;
                break;
            case STEP_INDEX:
                addr = offset_add(addr, read_index(CVM_LANE(ex->vals[st[1]], l), st[2]), st[3],
                                  &bad);
                break;
            case STEP_DESC:
                addr += (uint64_t)read_index(CVM_LANE(ex->vals[st[1]], l), st[2]) << CVM_ADDR_OFFSET_BITS;
                break;
            case STEP_MATRIX: {
                int64_t idx = read_index(CVM_LANE(ex->vals[st[1]], l), st[2] & 0xff);
                uint32_t esize = (st[2] >> 8) & 0xff;
                int wg = (st[2] >> 31) != 0;
                uint32_t L = st[3];
                if (L & 0x80000000u) {
                    uint32_t total = L & 0x7fffffffu;
                    uint32_t inv = cvm_scope_size_of_lane(ex, wg, l);
                    L = (total + inv - 1) / inv;
                }
                uint32_t lane_in_scope = wg ? l : l % ex->sg_size;
                uint64_t flat = (uint64_t)lane_in_scope * L + (uint64_t)idx;
                if ((uint64_t)idx >= L || flat >= (st[3] & 0x7fffffffu))
                    /* padding: a per-lane scratch word (the texts leave it undefined) */
                    addr = CVM_ADDR(CVM_REGION_PADDING, (uint64_t)l * 8);
                else
                    addr += flat * esize;
                break;
            }
            }
        }
        if (bad) /* the region's last byte: every access of a real size reports it */
            addr = CVM_ADDR(CVM_ADDR_REGION(addr), (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1);
        memcpy(CVM_LANE(r, l), &addr, 8);
    }
    return CVM_SUCCESS;
}

/* ---- loads and stores --------------------------------------------------------- */

/* ---- the fast path ----------------------------------------------------------
 * One bounds check per instruction instead of one per lane: when the active
 * lanes' addresses all lie in one region and the range from the lowest to
 * the highest (plus the access size) is inside it (and writable, for a
 * store), no lane can fail, and the copies run without checks: as one block
 * when consecutive lanes, all active, access consecutive addresses, else
 * lane by lane with the size known.  Anything else (a lane out of bounds, two
 * regions, CVM_FLAG_REFERENCE_PATHS) runs the per-lane reference path below,
 * which reports failures lane by lane exactly as before. */

typedef struct lane_span {
    uint8_t *base;     /* host address of region offset 0 */
    uint32_t l0, l1;   /* first and last active lane */
    uint64_t off0;     /* lane l0's offset */
    int block;         /* lanes l0..l1 all active, lane l at off0 + (l - l0) * size */
} lane_span;

static int span_of(const cvm_exec *ex, cvm_val ptr, uint64_t size, int write, lane_span *o)
{
    if (ex->flags & CVM_FLAG_REFERENCE_PATHS)
        return 0;
    uint32_t n = ex->nlanes, l0 = 0;
    const uint8_t *act = ex->active;
    while (l0 < n && !act[l0])
        l0++;
    if (l0 >= n)
        return 0;
    uint64_t a0;
    memcpy(&a0, CVM_LANE(ptr, l0), 8);
    uint64_t reg = a0 >> CVM_ADDR_OFFSET_BITS, off0 = CVM_ADDR_OFFSET(a0);
    uint64_t lo = off0, hi = off0, expect = a0;
    uint32_t l1 = l0, count = 0;
    int consecutive = 1;
    if (ex->nactive == n && ptr.stride == 8) {
        /* every lane active: one pass without a branch per lane, in
         * operations SSE2 has for 64-bit lanes (no compares): d = a - the
         * region's address 0 is below 2^40 exactly when a lies in lane 0's
         * region, and then limit - d is negative exactly when d > limit */
        const cvm_region *rg = cvm_region_of(ex, (uint32_t)reg);
        if (!rg || !rg->base || size > rg->size || (write && !rg->writable))
            return 0;
        const uint64_t *pa = (const uint64_t *)(const void *)ptr.p;
        uint64_t origin = a0 - CVM_ADDR_OFFSET(a0), limit = rg->size - size, expect_l = a0;
        uint64_t other = 0, over = 0, apart = 0;
        for (uint32_t l = 0; l < n; l++, expect_l += size) {
            uint64_t d = pa[l] - origin;
            other |= d >> CVM_ADDR_OFFSET_BITS;
            over |= (limit - CVM_ADDR_OFFSET(d)) >> 63;
            apart |= pa[l] ^ expect_l;
        }
        if (other | over)
            return 0;
        o->base = rg->base;
        o->l0 = 0;
        o->l1 = n - 1;
        o->off0 = off0;
        o->block = apart == 0;
        return 1;
    }
    for (uint32_t l = l0; l < n; l++) {
        if (!act[l])
            continue;
        uint64_t a;
        memcpy(&a, CVM_LANE(ptr, l), 8);
        if ((a >> CVM_ADDR_OFFSET_BITS) != reg)
            return 0;
        uint64_t off = CVM_ADDR_OFFSET(a);
        lo = off < lo ? off : lo;
        hi = off > hi ? off : hi;
        consecutive &= a == expect;
        expect += size;
        l1 = l;
        count++;
    }
    const cvm_region *rg = cvm_region_of(ex, (uint32_t)reg);
    if (!rg || !rg->base || hi > rg->size || size > rg->size - hi || (write && !rg->writable))
        return 0;
    (void)lo;
    o->base = rg->base;
    o->l0 = l0;
    o->l1 = l1;
    o->off0 = off0;
    o->block = consecutive && count == l1 - l0 + 1;
    return 1;
}

/* Lane-by-lane copies between memory (the addresses in `ptr`, checked by
 * span_of) and a value slot, for one access size. */
#define SPAN_COPY_LOOP(SIZE, TO_REG)                                                   \
    for (uint32_t l = sp->l0; l <= sp->l1; l++) {                                      \
        if (!all && !act[l])                                                           \
            continue;                                                                  \
        uint64_t a;                                                                    \
        memcpy(&a, CVM_LANE(ptr, l), 8);                                               \
        uint8_t *m = sp->base + CVM_ADDR_OFFSET(a);                                    \
        if (TO_REG)                                                                    \
            memcpy(CVM_LANE(v, l), m, SIZE);                                           \
        else                                                                           \
            memcpy(m, CVM_LANE(v, l), SIZE);                                           \
    }

static void span_copy(const cvm_exec *ex, const lane_span *sp, cvm_val ptr, cvm_val v,
                      uint32_t size, int to_reg)
{
    const uint8_t *act = ex->active;
    int all = ex->nactive == ex->nlanes; /* no test per lane */
    if (sp->block && v.stride == size) {
        uint8_t *m = sp->base + sp->off0, *rv = CVM_LANE(v, sp->l0);
        size_t bytes = (size_t)(sp->l1 - sp->l0 + 1) * size;
        if (to_reg)
            memcpy(rv, m, bytes);
        else
            memcpy(m, rv, bytes);
        return;
    }
    if (to_reg) {
        switch (size) {
        case 1: SPAN_COPY_LOOP(1, 1) return;
        case 2: SPAN_COPY_LOOP(2, 1) return;
        case 4: SPAN_COPY_LOOP(4, 1) return;
        case 8: SPAN_COPY_LOOP(8, 1) return;
        case 16: SPAN_COPY_LOOP(16, 1) return;
        default: SPAN_COPY_LOOP(size, 1) return;
        }
    }
    /* stores in lane order: where two lanes store to one address the last
     * one's value stays, as on the reference path */
    switch (size) {
    case 1: SPAN_COPY_LOOP(1, 0) return;
    case 2: SPAN_COPY_LOOP(2, 0) return;
    case 4: SPAN_COPY_LOOP(4, 0) return;
    case 8: SPAN_COPY_LOOP(8, 0) return;
    case 16: SPAN_COPY_LOOP(16, 0) return;
    default: SPAN_COPY_LOOP(size, 0) return;
    }
}

/* A Function variable named directly by a load or store: lane l's copy is
 * at l * inv_size + its offset in per-invocation memory (the addresses
 * cvm_group_create gives it; only module-scope variables are rebound, in
 * callbacks), in bounds by construction; returns lane 0's host address, or
 * NULL when `ptr_id` is not such a variable. */
static uint8_t *local_variable(const cvm_exec *ex, uint32_t ptr_id, uint64_t size)
{
    const cvm_program *p = ex->prog;
    if ((ex->flags & CVM_FLAG_REFERENCE_PATHS) || ptr_id >= p->bound)
        return NULL;
    const spv_def *d = &p->mod->defs[ptr_id];
    if (d->opcode != SpvOpVariable || d->func == UINT32_MAX ||
        p->var_region[ptr_id] != CVM_REGION_INVOCATION ||
        p->var_uoffset[ptr_id] != UINT64_MAX || /* a uniform variable's one copy */
        p->var_doff[ptr_id] != UINT64_MAX)      /* a dense one */
        return NULL;
    const cvm_region *rg = &ex->regions[CVM_REGION_INVOCATION];
    uint64_t off = p->var_offset[ptr_id];
    if (!rg->base || (uint64_t)ex->nlanes * p->inv_size > rg->size || off > p->inv_size ||
        size > p->inv_size - off)
        return NULL;
    return rg->base + off;
}

#define LOCAL_COPY_LOOP(SIZE, TO_REG)                                                  \
    for (uint32_t l = 0; l < n; l++) {                                                 \
        if (!act[l])                                                                   \
            continue;                                                                  \
        uint8_t *m = base + (size_t)l * step;                                          \
        if (TO_REG)                                                                    \
            memcpy(CVM_LANE(v, l), m, SIZE);                                           \
        else                                                                           \
            memcpy(m, CVM_LANE(v, l), SIZE);                                           \
    }

static void local_copy(const cvm_exec *ex, uint8_t *base, cvm_val v, uint32_t size, int to_reg)
{
    const uint8_t *act = ex->active;
    uint32_t n = ex->nlanes;
    size_t step = ex->prog->inv_size;
    if (to_reg) {
        switch (size) {
        case 1: LOCAL_COPY_LOOP(1, 1) return;
        case 4: LOCAL_COPY_LOOP(4, 1) return;
        case 8: LOCAL_COPY_LOOP(8, 1) return;
        case 16: LOCAL_COPY_LOOP(16, 1) return;
        case CVM_TENSOR_VALUE_SIZE: LOCAL_COPY_LOOP(CVM_TENSOR_VALUE_SIZE, 1) return;
        default: LOCAL_COPY_LOOP(size, 1) return;
        }
    }
    switch (size) {
    case 1: LOCAL_COPY_LOOP(1, 0) return;
    case 4: LOCAL_COPY_LOOP(4, 0) return;
    case 8: LOCAL_COPY_LOOP(8, 0) return;
    case 16: LOCAL_COPY_LOOP(16, 0) return;
    case CVM_TENSOR_VALUE_SIZE: LOCAL_COPY_LOOP(CVM_TENSOR_VALUE_SIZE, 0) return;
    default: LOCAL_COPY_LOOP(size, 0) return;
    }
}

/* A dense Function variable named directly (exec/uniform.h
 * CVM_UNIFORM_DENSE): the host address of lane 0's copy, the others
 * following at its size; NULL when `ptr_id` is not one (or on the reference
 * paths, where every variable lives in each lane's own slice). */
static uint8_t *dense_variable(const cvm_exec *ex, uint32_t ptr_id, uint64_t size)
{
    const cvm_program *p = ex->prog;
    if ((ex->flags & CVM_FLAG_REFERENCE_PATHS) || ptr_id >= p->bound ||
        p->var_doff[ptr_id] == UINT64_MAX)
        return NULL;
    const cvm_region *rg = &ex->regions[CVM_REGION_LANE_VARS];
    uint64_t a0;
    memcpy(&a0, ex->vals[ptr_id].p, 8); /* lane 0's address (cvm_group_create) */
    uint64_t off = CVM_ADDR_OFFSET(a0);
    if (CVM_ADDR_REGION(a0) != CVM_REGION_LANE_VARS || !rg->base || off > rg->size ||
        (uint64_t)ex->nlanes * size > rg->size - off)
        return NULL;
    return rg->base + off;
}

/* Copies between a dense variable's lanes and a value slot, the active
 * lanes only. */
static void dense_copy(const cvm_exec *ex, uint8_t *base, cvm_val v, uint32_t size, int to_reg)
{
    uint32_t n = ex->nlanes;
    const uint8_t *act = ex->active;
    if (v.stride == size && ex->nactive == n) {
        if (to_reg)
            memcpy(v.p, base, (size_t)n * size);
        else
            memcpy(base, v.p, (size_t)n * size);
        return;
    }
#define DENSE_LOOP(SIZE)                                                                    \
    for (uint32_t l = 0; l < n; l++) {                                                      \
        if (!act[l])                                                                        \
            continue;                                                                       \
        if (to_reg)                                                                         \
            memcpy(CVM_LANE(v, l), base + (size_t)l * (SIZE), (SIZE));                      \
        else                                                                                \
            memcpy(base + (size_t)l * (SIZE), CVM_LANE(v, l), (SIZE));                      \
    }
    switch (size) {
    case 1: DENSE_LOOP(1) break;
    case 4: DENSE_LOOP(4) break;
    case 8: DENSE_LOOP(8) break;
    default: DENSE_LOOP(size) break;
    }
#undef DENSE_LOOP
}

static cvm_result h_load(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *t = &p->types[in->type];
    cvm_val r = ex->vals[in->result], ptr = ex->vals[in->a];
    lane_span sp;
    uint8_t *lv;
    if ((lv = dense_variable(ex, in->a, t->size)) != NULL) {
        if ((in->flags & CVM_INSN_ALIAS) && ex->vals_home) {
            /* the value is the variable's array itself: nothing stores to
             * it while the value is live (CVM_UNIFORM_ALIAS) */
            ex->vals[in->result] = (cvm_val){lv, t->size};
            return CVM_SUCCESS;
        }
        if (ex->vals_home)
            r = ex->vals[in->result] = ex->vals_home[in->result];
        dense_copy(ex, lv, r, t->size, 1);
        return CVM_SUCCESS;
    }
    if (!t->has_layout && t->size == t->mem_size && (lv = local_variable(ex, in->a, t->size))) {
        local_copy(ex, lv, r, t->size, 1);
        return CVM_SUCCESS;
    }
    if (!t->has_layout && t->size == t->mem_size && span_of(ex, ptr, t->mem_size, 0, &sp)) {
        span_copy(ex, &sp, ptr, r, t->size, 1);
        return CVM_SUCCESS;
    }
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t addr;
        int skip;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        const uint8_t *m = cvm_mem_access(ex, in, addr, t->mem_size, 0, l, &skip);
        if (!m) {
            if (!skip)
                return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
            memset(CVM_LANE(r, l), 0, t->size);
            continue;
        }
        if (!t->has_layout)
            memcpy(CVM_LANE(r, l), m, t->size);
        else
            cvm_copy_mem_to_reg(p, in->type, CVM_LANE(r, l), m);
    }
    return CVM_SUCCESS;
}

static cvm_result h_store(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *t = &p->types[in->type];
    cvm_val v = ex->vals[in->b], ptr = ex->vals[in->a];
    lane_span sp;
    uint8_t *lv;
    if ((lv = dense_variable(ex, in->a, t->size)) != NULL) {
        dense_copy(ex, lv, v, t->size, 0);
        return CVM_SUCCESS;
    }
    if (!t->has_layout && t->size == t->mem_size && (lv = local_variable(ex, in->a, t->size))) {
        local_copy(ex, lv, v, t->size, 0);
        return CVM_SUCCESS;
    }
    if (!t->has_layout && t->size == t->mem_size && span_of(ex, ptr, t->mem_size, 1, &sp)) {
        span_copy(ex, &sp, ptr, v, t->size, 0);
        return CVM_SUCCESS;
    }
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t addr;
        int skip;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        uint8_t *m = cvm_mem_access(ex, in, addr, t->mem_size, 1, l, &skip);
        if (!m) {
            if (!skip)
                return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
            continue;
        }
        if (!t->has_layout)
            memcpy(m, CVM_LANE(v, l), t->size);
        else
            cvm_copy_reg_to_mem(p, in->type, m, CVM_LANE(v, l));
    }
    return CVM_SUCCESS;
}

/* Whole cooperative matrices through pointers (variables holding them): once
 * per scope instance, from the first active lane's pointer. */
int cvm_matrix_variable_slot(cvm_exec *ex, const cvm_insn *in, uint32_t ptr_id, uint32_t size,
                             cvm_val *o_slot, cvm_result *o_err)
{
    uint32_t ninst = cvm_scope_instances(ex, in);
    uint8_t *m0 = NULL;
    size_t stride = size;
    *o_err = CVM_SUCCESS;
    if (ex->flags & CVM_FLAG_REFERENCE_PATHS)
        return 0;
    if (cvm_matrix_variable_cached(ex, in, ptr_id, size, o_slot))
        return 1;
    cvm_val ptr = ex->vals[ptr_id];
    for (uint32_t i = 0; i < ninst; i++) {
        int c = cvm_scope_instance_check(ex, in, i);
        if (c < 0) {
            *o_err = CVM_ERROR_DIVERGENT_COLLECTIVE;
            return 0;
        }
        if (c == 0)
            return 0;
        uint32_t l = cvm_scope_first_active(ex, in, i);
        uint64_t addr;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        uint8_t *m = cvm_mem_access(ex, in, addr, size, 0, l, NULL);
        if (!m) {
            *o_err = ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
            return 0;
        }
        if (i == 0)
            m0 = m;
        else if (i == 1 && m > m0)
            stride = (size_t)(m - m0);
        else if (i == 1 || m != m0 + (size_t)i * stride)
            return 0;
        if (i == 1 && (stride < size || stride > UINT32_MAX))
            return 0;
    }
    if (!m0)
        return 0;
    *o_slot = (cvm_val){m0, (uint32_t)stride};
    /* an OpVariable's addresses are fixed for a workgroup's own group */
    if (ex->nactive == ex->nlanes && !ex->is_callback && ptr_id < ex->prog->bound &&
        ex->prog->mod->defs[ptr_id].opcode == SpvOpVariable) {
        if (!ex->mvar_slots)
            ex->mvar_slots = cvm_calloc(ex->prog->bound, sizeof(cvm_mvar_slot));
        if (ex->mvar_slots)
            ex->mvar_slots[ptr_id] = (cvm_mvar_slot){
                *o_slot, size, (in->flags & CVM_INSN_WORKGROUP_SCOPE) != 0};
    }
    return 1;
}

cvm_result cvm_matrix_result_to_variable_find(cvm_exec *ex, const cvm_insn *in, uint32_t var,
                                              uint32_t size)
{
    if (!ex->vals_home || var >= ex->prog->bound)
        return CVM_SUCCESS;
    cvm_val slot;
    cvm_result err = CVM_SUCCESS;
    if (cvm_matrix_variable_slot(ex, in, var, size, &slot, &err))
        ex->vals[in->result] = slot;
    else if (err != CVM_SUCCESS)
        return err;
    else
        ex->vals[in->result] = ex->vals_home[in->result];
    return CVM_SUCCESS;
}

static cvm_result h_load_matrix(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->type];
    cvm_val ptr = ex->vals[in->a];
    if ((in->flags & CVM_INSN_ALIAS) && ex->vals_home) {
        /* The result points at the variable (load_may_alias: nothing writes
         * it while the value is live) when every scope instance takes part
         * and the instances' variables lie at one stride, as the value slot
         * of a matrix requires; otherwise the copy below, into the home slot. */
        cvm_val slot;
        cvm_result err = CVM_SUCCESS;
        if (cvm_matrix_variable_slot(ex, in, in->a, t->size, &slot, &err)) {
            ex->vals[in->result] = slot;
            return CVM_SUCCESS;
        }
        if (err != CVM_SUCCESS)
            return err;
        ex->vals[in->result] = ex->vals_home[in->result];
    }
    cvm_val r = ex->vals[in->result];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int c = cvm_scope_instance_check(ex, in, i);
        if (c < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (c == 0)
            continue;
        uint32_t l = cvm_scope_first_active(ex, in, i);
        uint64_t addr;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        const uint8_t *m = cvm_mem_access(ex, in, addr, t->size, 0, l, NULL);
        if (!m)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        memcpy(r.p + (size_t)i * r.stride, m, t->size);
    }
    return CVM_SUCCESS;
}

static cvm_result h_store_matrix(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *t = &ex->prog->types[in->type];
    cvm_val v = ex->vals[in->b], ptr = ex->vals[in->a];
    /* a value already in this very variable (CVM_INSN_ALIAS put it there):
     * nothing to copy, as the loop below finds instance by instance */
    cvm_val slot;
    cvm_result err;
    if (ex->nactive == ex->nlanes && v.p &&
        cvm_matrix_variable_slot(ex, in, in->a, t->size, &slot, &err) &&
        slot.p == v.p &&
        (slot.stride == v.stride || cvm_scope_instances(ex, in) == 1))
        return CVM_SUCCESS;
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int c = cvm_scope_instance_check(ex, in, i);
        if (c < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (c == 0)
            continue;
        uint32_t l = cvm_scope_first_active(ex, in, i);
        uint64_t addr;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        uint8_t *m = cvm_mem_access(ex, in, addr, t->size, 1, l, NULL);
        if (!m)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        const uint8_t *src = v.p + (size_t)i * v.stride;
        if (src != m) /* a value that aliases this very variable (CVM_INSN_ALIAS) */
            memmove(m, src, t->size);
    }
    return CVM_SUCCESS;
}

/* OpCopyMemory: in->type the source's memory layout, in->c the
 * destination's (the same type unless one side is a layout variant). */
static cvm_result h_copy_memory(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *st = &p->types[in->type], *dt = &p->types[in->c ? in->c : in->type];
    int same = !in->c || in->c == in->type;
    cvm_val dst = ex->vals[in->a], src = ex->vals[in->b];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t da, sa;
        memcpy(&da, CVM_LANE(dst, l), 8);
        memcpy(&sa, CVM_LANE(src, l), 8);
        const uint8_t *s = cvm_mem_access(ex, in, sa, st->mem_size, 0, l, NULL);
        if (!s)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        uint8_t *d = cvm_mem_access(ex, in, da, dt->mem_size, 1, l, NULL);
        if (!d)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        if (same) {
            memmove(d, s, st->mem_size);
        } else {
            /* through the register layout, which both share (size checked
             * against the scratch area when lowered) */
            cvm_copy_mem_to_reg(p, in->type, ex->scratch, s);
            cvm_copy_reg_to_mem(p, in->c, d, ex->scratch);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_array_length(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], ptr = ex->vals[in->a];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t addr;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        uint32_t reg = CVM_ADDR_REGION(addr);
        uint64_t off = CVM_ADDR_OFFSET(addr) + in->b;
        const cvm_region *rg = cvm_region_of(ex, reg);
        uint64_t size = rg ? rg->size : 0;
        uint64_t n = size > off && in->c ? (size - off) / in->c : 0;
        if (in->d == 4) {
            uint32_t n32 = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
            memcpy(CVM_LANE(r, l), &n32, 4);
        } else {
            memcpy(CVM_LANE(r, l), &n, 8); /* a 64-bit result: 64-bit indexing */
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_variable_init(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    const cvm_type *t = &p->types[in->type];
    cvm_val ptr = ex->vals[in->result], v = ex->vals[in->b];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t addr;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        uint8_t *m = cvm_mem_access(ex, in, addr, t->mem_size, 1, l, NULL);
        if (!m)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        if (!t->has_layout)
            memcpy(m, CVM_LANE(v, l), t->size);
        else
            cvm_copy_reg_to_mem(p, in->type, m, CVM_LANE(v, l));
    }
    return CVM_SUCCESS;
}

static cvm_result h_copy_u64(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    CVM_FOR_ACTIVE(ex, l)
        memcpy(CVM_LANE(r, l), CVM_LANE(a, l), 8);
    return CVM_SUCCESS;
}

static cvm_result h_barrier(cvm_exec *ex, const cvm_insn *in)
{
    if (in->a == SpvScopeWorkgroup) {
        for (uint32_t l = 0; l < ex->nlanes; l++)
            if (ex->alive[l] && !ex->active[l])
                return cvm_exec_fail(ex, in, CVM_ERROR_DIVERGENT_COLLECTIVE,
                                     "invocation %u did not reach this workgroup barrier with "
                                     "the others",
                                     l);
    } else if (in->a == SpvScopeSubgroup) {
        for (uint32_t s = 0; s < ex->nsub; s++) {
            uint32_t first = s * ex->sg_size, n = CVM_MIN(ex->sg_size, ex->nlanes - first);
            uint32_t act = 0;
            for (uint32_t l = first; l < first + n; l++)
                act += ex->active[l];
            if (act == 0)
                continue;
            for (uint32_t l = first; l < first + n; l++)
                if (ex->alive[l] && !ex->active[l])
                    return cvm_exec_fail(ex, in, CVM_ERROR_DIVERGENT_COLLECTIVE,
                                         "invocation %u did not reach this subgroup barrier", l);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_ptr_compare(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t x, y;
        memcpy(&x, CVM_LANE(a, l), 8);
        memcpy(&y, CVM_LANE(b, l), 8);
        if (in->spv_op == SpvOpPtrDiff) {
            int64_t d = in->c ? ((int64_t)(x - y)) / (int64_t)in->c : 0;
            memcpy(CVM_LANE(r, l), &d, in->d);
        } else {
            *CVM_LANE(r, l) = in->spv_op == SpvOpPtrEqual ? x == y : x != y;
        }
    }
    return CVM_SUCCESS;
}

/* Whether the OpLoad `in` of a whole cooperative matrix may leave its result
 * aliasing the variable's memory instead of copying it (h_load_matrix with
 * CVM_INSN_ALIAS).  That is safe when nothing can write the variable while
 * the loaded value is live:
 *   - the pointer is a Function-storage OpVariable of this function, and
 *     every other instruction of the module that names it is an OpLoad of
 *     it or an OpStore to it (no access chain, copy, call argument or phi
 *     can make another pointer to it);
 *   - every instruction naming the loaded id lies in the load's block after
 *     the load (no phi, no use in another block or iteration);
 *   - no OpStore to the variable lies between the load and its last use.
 * Operands are found by scanning whole instruction words: a literal that
 * happens to equal an id counts as a use, which can only refuse aliasing.
 * Functions over `limit` words are not scanned (the copy stays). */
/* Function variable `var` of the function defining `res`, named only by
 * loads of it and stores to it in the whole module (modules over `limit`
 * words of functions are not scanned: 0). */
static int loads_and_stores_only(const spv_module *mod, uint32_t var, uint32_t res)
{
    if (var >= mod->bound || res >= mod->bound)
        return 0;
    const spv_def *vd = &mod->defs[var], *rd = &mod->defs[res];
    if (vd->opcode != SpvOpVariable || vd->func == UINT32_MAX || vd->func != rd->func ||
        vd->func >= mod->nfunctions)
        return 0;
    const size_t limit = 1u << 20;
    uint64_t words_total = 0;
    for (uint32_t f = 0; f < mod->nfunctions; f++)
        words_total += mod->functions[f].end - mod->functions[f].begin;
    if (words_total > limit)
        return 0;
    for (uint32_t f = 0; f < mod->nfunctions; f++) {
        size_t off = mod->functions[f].begin;
        spv_inst it;
        while (off < mod->functions[f].end && spv_next_inst(&mod->bin, &off, &it, NULL) == 1) {
            if (it.offset == vd->off)
                continue;
            for (uint32_t k = 1; k < it.word_count; k++) {
                if (it.words[k] != var)
                    continue;
                int ok = (it.opcode == SpvOpLoad && k == 3 && it.word_count >= 4) ||
                         (it.opcode == SpvOpStore && k == 1 && it.word_count >= 3);
                if (!ok)
                    return 0;
            }
        }
    }
    return 1;
}

int cvm_lower_result_to_variable(const cvm_program *p, const spv_inst *in, uint32_t *o_var)
{
    const spv_module *mod = p->mod;
    if (in->word_count < 3)
        return 0;
    uint32_t res = in->words[2];
    spv_inst st;
    if (!spv_module_inst_at(mod, in->offset + in->word_count, &st) || st.opcode != SpvOpStore ||
        st.word_count != 3 || st.words[2] != res)
        return 0;
    uint32_t var = st.words[1];
    if (!loads_and_stores_only(mod, var, res))
        return 0;
    /* the result: named by that store alone */
    const spv_function *sf = &mod->functions[mod->defs[var].func];
    size_t off = sf->begin;
    spv_inst it;
    while (off < sf->end && spv_next_inst(&mod->bin, &off, &it, NULL) == 1) {
        if (it.offset == in->offset || it.offset == st.offset)
            continue;
        for (uint32_t k = 1; k < it.word_count; k++)
            if (it.words[k] == res)
                return 0;
    }
    *o_var = var;
    return 1;
}

static int load_may_alias(const cvm_program *p, const spv_inst *in)
{
    const spv_module *mod = p->mod;
    uint32_t var = in->words[3], res = in->words[2];
    /* The variable: named only by loads of it and stores to it. */
    if (!loads_and_stores_only(mod, var, res))
        return 0;
    const spv_def *vd = &mod->defs[var];
    /* The loaded value: used only later in the load's block, with no store
     * to the variable before its last use. */
    const spv_function *sf = &mod->functions[vd->func];
    size_t off = sf->begin;
    spv_inst it;
    int in_block = 0, block_ended = 0, store_seen = 0;
    while (off < sf->end && spv_next_inst(&mod->bin, &off, &it, NULL) == 1) {
        if (it.offset == in->offset) {
            in_block = 1;
            continue;
        }
        int uses = 0;
        for (uint32_t k = 1; k < it.word_count; k++)
            uses |= it.words[k] == res;
        if (uses && (!in_block || block_ended || store_seen))
            return 0;
        if (in_block && !block_ended) {
            if (it.opcode == SpvOpStore && it.word_count >= 3 && it.words[1] == var)
                store_seen = 1;
            switch (it.opcode) {
            case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
            case SpvOpReturnValue: case SpvOpKill: case SpvOpUnreachable:
            case SpvOpTerminateInvocation: case SpvOpLabel:
                block_ended = 1;
                break;
            default:
                break;
            }
        }
    }
    return in_block;
}

static int is_scope_matrix(const cvm_type *t, uint8_t *o_flags)
{
    if (t->tclass != CVM_TC_COOPMAT)
        return 0;
    *o_flags = CVM_INSN_PER_INSTANCE | (t->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
    return 1;
}

/* The scope whose instances each hold a copy of a variable of type `tid`:
 * 0 (per invocation) when it holds no cooperative matrix, 2 (one copy) when
 * all its matrices are of workgroup scope, else 1 (a copy per subgroup: a
 * struct of matrices of both scopes included). */
static int matrix_scope_of(const cvm_program *p, uint32_t tid)
{
    const cvm_type *t = &p->types[tid];
    switch (t->tclass) {
    case CVM_TC_COOPMAT:
        return t->scope == SpvScopeWorkgroup ? 2 : 1;
    case CVM_TC_ARRAY:
        return matrix_scope_of(p, t->elem);
    case CVM_TC_STRUCT: {
        int s = 0;
        for (uint32_t i = 0; i < t->nmembers; i++) {
            int m = matrix_scope_of(p, t->member_types[i]);
            if (m && (!s || m < s))
                s = m;
        }
        return s;
    }
    default:
        return 0;
    }
}

/* The handlers copy a loaded or stored value at its own register size into
 * a Function variable's slot, which has the pointee's: a module that
 * skipped validation must not pair a pointer with a value of another size
 * (SPIR-V OpLoad, OpStore: the pointee type is the value's type).  Untyped
 * pointers (no pointee) are bounds-checked by the memory access. */
static cvm_result value_fits_pointee(cvm_lower *lw, const spv_inst *in, uint32_t ptr,
                                     uint32_t value_type)
{
    const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, ptr));
    if (pt->tclass != CVM_TC_POINTER || !pt->elem)
        return CVM_SUCCESS;
    const cvm_type *et = cvm_lower_type(lw, pt->elem);
    if (et->tclass == CVM_TC_NONE)
        return CVM_SUCCESS;
    if (et->size != cvm_lower_type(lw, value_type)->size)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%%%u points to a value of %u bytes, not one of the %u bytes of "
                              "type %u",
                              ptr, et->size, cvm_lower_type(lw, value_type)->size, value_type);
    return CVM_SUCCESS;
}

cvm_result cvm_lower_memory(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const cvm_program *p = cvm_lower_program(lw);
    const uint32_t *w = in->words;
    switch (in->opcode) {
    case SpvOpVariable: {
        const cvm_type *pt = cvm_lower_type(lw, w[1]);
        uint32_t sc = w[3];
        if (sc != SpvStorageClassFunction)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a variable inside a function must have Function storage");
        const cvm_type *vt = cvm_lower_type(lw, pt->elem);
        CVM_TRY(cvm_lower_alloc_variable(lw, w[2], vt->mem_size, matrix_scope_of(p, pt->elem)));
        if (in->word_count > 4) {
            out->fn = h_variable_init;
            out->type = pt->elem;
            out->b = w[4];
        }
        return CVM_SUCCESS;
    }
    case SpvOpLoad: {
        const cvm_type *t = cvm_lower_type(lw, w[1]);
        CVM_TRY(value_fits_pointee(lw, in, w[3], w[1]));
        out->a = w[3];
        /* the memory layout: the pointer's variant, or the value's type */
        out->type = cvm_lower_layout_of(lw, w[3]) ? cvm_lower_layout_of(lw, w[3]) : w[1];
        if (is_scope_matrix(t, &out->flags)) {
            out->fn = h_load_matrix;
            if (load_may_alias(p, in))
                out->flags |= CVM_INSN_ALIAS;
        }
        else if (t->tclass == CVM_TC_NONE || t->tclass == CVM_TC_OPAQUE)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "load of this type");
        else
            out->fn = h_load;
        return CVM_SUCCESS;
    }
    case SpvOpStore: {
        uint32_t tid = cvm_lower_type_of(lw, w[2]);
        const cvm_type *t = cvm_lower_type(lw, tid);
        CVM_TRY(value_fits_pointee(lw, in, w[1], tid));
        out->a = w[1];
        out->b = w[2];
        out->type = cvm_lower_layout_of(lw, w[1]) ? cvm_lower_layout_of(lw, w[1]) : tid;
        out->result = 0;
        out->fn = is_scope_matrix(t, &out->flags) ? h_store_matrix : h_store;
        return CVM_SUCCESS;
    }
    case SpvOpCopyMemory: {
        const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, w[1]));
        out->fn = h_copy_memory;
        out->a = w[1];
        out->b = w[2];
        /* each side in its own memory layout (a MatrixStride variant on one
         * side only: through registers) */
        out->type = cvm_lower_layout_of(lw, w[2]) ? cvm_lower_layout_of(lw, w[2]) : pt->elem;
        out->c = cvm_lower_layout_of(lw, w[1]) ? cvm_lower_layout_of(lw, w[1]) : pt->elem;
        out->result = 0;
        if (out->c != out->type && cvm_lower_type(lw, out->type)->size > (1u << 16))
            return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT,
                                  "a copy between two layouts of %u bytes (limit 65536)",
                                  cvm_lower_type(lw, out->type)->size);
        return CVM_SUCCESS;
    }
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: {
        return lower_access_chain(lw, in, out);
    }
    case SpvOpArrayLength: {
        const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        const cvm_type *st = cvm_lower_type(lw, pt->elem);
        uint32_t m = w[4];
        if (st->tclass != CVM_TC_STRUCT || m >= st->nmembers)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "not a struct member");
        const cvm_type *at = cvm_lower_type(lw, st->member_types[m]);
        out->fn = h_array_length;
        out->a = w[3];
        out->b = st->member_mem_offsets[m];
        out->c = at->array_stride;
        /* "32- or 64-bit Width" (SPV_EXT_shader_64bit_indexing) */
        out->d = cvm_lower_type(lw, w[1])->size == 8 ? 8 : 4;
        return CVM_SUCCESS;
    }
    case SpvOpConvertPtrToU:
    case SpvOpConvertUToPtr: {
        if (cvm_lower_type(lw, w[1])->size != 8 ||
            cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]))->size != 8)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                  "pointer conversions other than to and from 64-bit integers");
        out->fn = h_copy_u64;
        out->a = w[3];
        return CVM_SUCCESS;
    }
    case SpvOpPtrEqual:
    case SpvOpPtrNotEqual:
    case SpvOpPtrDiff: {
        out->fn = h_ptr_compare;
        out->a = w[3];
        out->b = w[4];
        if (in->opcode == SpvOpPtrDiff) {
            const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
            out->c = cvm_lower_type(lw, pt->elem)->mem_size;
            out->d = cvm_lower_type(lw, w[1])->size;
        }
        return CVM_SUCCESS;
    }
    case SpvOpControlBarrier: {
        uint64_t scope;
        if (!cvm_lower_const_u64(lw, w[1], &scope))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "execution scope not constant");
        out->fn = h_barrier;
        out->a = (uint32_t)scope;
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
