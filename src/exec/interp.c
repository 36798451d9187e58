/* The SIMT interpreter: a group of lanes runs a function block by block.
 *
 * Scheduling: every lane holds the index of the next block it runs (blocks
 * are in structured order, see lower.c).  The block run next is the lowest
 * index any lane waits at, with exactly the lanes that wait there active.
 * Because a construct's blocks precede its merge block in that order, lanes
 * that leave a construct early wait at the merge until the others arrive:
 * they reconverge where structured SPIR-V says they do. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exec/debug.h"
#include "exec/program.h"
#include "exec/jit/jit.h"

#define BLOCK_DONE UINT32_MAX
/* cvm_group.next_block after a block whose lanes all left the function */
#define BLOCK_RETURNED (UINT32_MAX - 1)

struct cvm_group {
    const cvm_program *prog;
    cvm_group_desc desc;
    cvm_exec ex;
    cvm_frame **frames;      /* per function, lazily */
    uint8_t *var_addrs;      /* per variable id: per-lane addresses (8 bytes a lane) */
    uint64_t *var_addr_off;  /* [bound]: offset into var_addrs, UINT64_MAX if none */
    uint8_t *inv_mem;
    uint8_t *wg_mem;
    uint8_t *scope_mem;
    uint8_t *push;
    uint8_t *padding;
    uint8_t *alive;
    cvm_region *regions;
    uint32_t nregions;
    uint64_t budget_local;   /* instructions taken from the shared budget, not yet used */
    /* Set by a block's branch when every lane it ran went to one block
     * (else BLOCK_DONE): run_function then runs that block next with the
     * same lanes without scanning them, when no other lane waits. */
    uint32_t next_block;
    struct cvm_group *callback; /* lanes for callbacks, created on first use */
    uint32_t *caller_vars;   /* callback groups: module-scope per-invocation variables */
    uint32_t ncaller_vars;
    /* callback groups, for debugging: per lane, the invocation and matrix
     * element of its call (cvm_exec.cb_*); and what the running
     * cvm_callback_run_elements said about its calls */
    uint32_t *dbg_inv, *dbg_row, *dbg_col;
    const uint32_t *site_elems;
    uint32_t site_cols;
    /* Uniform values (exec/uniform.h), off on the reference paths: slots of
     * stride 0, uniform Function variables' one copy, and CVM_INSN_UNIFORM
     * instructions run for one lane: the active mask of lane l alone is
     * one_hot + desc.nlanes - l (desc.nlanes zeros, then a one). */
    int uniform_on;
    uint8_t *one_hot;
    int has_callees; /* the program has a function besides its entry point */
    uint8_t *lane_vars;      /* CVM_REGION_LANE_VARS: dense Function variables */
};

/* ---- helpers shared with handlers ------------------------------------------- */

cvm_result cvm_exec_fail(cvm_exec *ex, const cvm_insn *in, cvm_result r, const char *fmt, ...)
{
    if (!ex->diag)
        return r;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    const spv_instruction_desc *d = in ? spv_grammar_instruction(in->spv_op) : NULL;
    if (in) {
        cvm_diag_at(ex->diag, r, in->word_off, in->spv_op, "%s (word %u) in workgroup (%u,%u,%u): %s",
                    d ? d->name : "instruction", in->word_off, ex->group_id[0], ex->group_id[1],
                    ex->group_id[2], msg);
        spv_module_locate(ex->prog->mod, in->word_off, ex->diag);
    } else {
        cvm_diag_set(ex->diag, r, "%s", msg);
    }
    return r;
}

int cvm_scope_instance_check_lanes(cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    uint32_t first = cvm_scope_first_lane(ex, in, i), n = cvm_scope_lane_count(ex, in, i);
    uint32_t act = 0, live = 0;
    for (uint32_t l = first; l < first + n; l++) {
        act += ex->active[l];
        live += ex->alive[l];
    }
    if (act == 0)
        return 0;
    if (act != live) {
        cvm_exec_fail(ex, in, CVM_ERROR_DIVERGENT_COLLECTIVE,
                      "[KHR-CM.Scope-Active] only %u of the %u live invocations of %s %u reached "
                      "this collective instruction together",
                      act, live, (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? "workgroup" : "subgroup",
                      i);
        return -1;
    }
    return 1;
}

uint32_t cvm_scope_first_active_lanes(const cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    uint32_t first = cvm_scope_first_lane(ex, in, i), n = cvm_scope_lane_count(ex, in, i);
    for (uint32_t l = first; l < first + n; l++)
        if (ex->active[l])
            return l;
    return UINT32_MAX;
}

/* The lanes' values compared as integers of their size (no library call
 * per lane): the operands compared are 1 to 8 bytes but for tensor
 * layouts, which tensor_ops.c compares itself. */
#define CVM_LANES_DIFFER_(T)                                                     \
    do {                                                                         \
        T x0, x;                                                                 \
        memcpy(&x0, CVM_LANE(v, l0), sizeof(T));                                 \
        for (uint32_t l = first; l < end; l++) {                                 \
            if (!ex->active[l])                                                  \
                continue;                                                        \
            memcpy(&x, CVM_LANE(v, l), sizeof(T));                               \
            if (x != x0)                                                         \
                return l;                                                        \
        }                                                                        \
        return UINT32_MAX;                                                       \
    } while (0)

uint32_t cvm_scope_lanes_differ(const cvm_exec *ex, const cvm_insn *in, uint32_t i, uint32_t id,
                                uint32_t size, uint32_t l0)
{
    cvm_val v = ex->vals[id];
    uint32_t first = cvm_scope_first_lane(ex, in, i), end = first + cvm_scope_lane_count(ex, in, i);
    switch (size) {
    case 1: CVM_LANES_DIFFER_(uint8_t);
    case 2: CVM_LANES_DIFFER_(uint16_t);
    case 4: CVM_LANES_DIFFER_(uint32_t);
    case 8: CVM_LANES_DIFFER_(uint64_t);
    default:
        for (uint32_t l = first; l < end; l++)
            if (ex->active[l] && memcmp(CVM_LANE(v, l), CVM_LANE(v, l0), size))
                return l;
        return UINT32_MAX;
    }
}
#undef CVM_LANES_DIFFER_

uint32_t cvm_scope_pointer_lanes_differ(const cvm_exec *ex, const cvm_insn *in, uint32_t i,
                                        uint32_t id, uint32_t l0)
{
    uint32_t l = cvm_scope_lanes_differ(ex, in, i, id, 8, l0);
    if (l == UINT32_MAX)
        return l;
    uint64_t a0, a;
    memcpy(&a0, CVM_LANE(ex->vals[id], l0), 8);
    uint32_t r0 = CVM_ADDR_REGION(a0);
    if (!cvm_region_per_invocation(r0))
        return l;
    /* per-invocation memory: differ only in another region */
    uint32_t first = cvm_scope_first_lane(ex, in, i), end = first + cvm_scope_lane_count(ex, in, i);
    for (l = first; l < end; l++) {
        memcpy(&a, CVM_LANE(ex->vals[id], l), 8);
        if (ex->active[l] && CVM_ADDR_REGION(a) != r0)
            return l;
    }
    return UINT32_MAX;
}

cvm_result cvm_fail_not_uniform(cvm_exec *ex, const cvm_insn *in, const char *rule,
                                const char *what, uint32_t id, uint32_t size, uint32_t i,
                                uint32_t l0, uint32_t l1)
{
    char vals[64] = "";
    if (size <= 8) {
        uint64_t x0 = 0, x1 = 0;
        memcpy(&x0, CVM_LANE(ex->vals[id], l0), size);
        memcpy(&x1, CVM_LANE(ex->vals[id], l1), size);
        snprintf(vals, sizeof(vals), " (0x%llx and 0x%llx)", (unsigned long long)x0,
                 (unsigned long long)x1);
    }
    return cvm_exec_fail(ex, in, CVM_ERROR_DIVERGENT_COLLECTIVE,
                         "[%s] %s %%%u differs between invocations %u and %u of %s %u%s: the "
                         "operands must be dynamically uniform within every instance of the "
                         "Scope",
                         rule, what, id, l0, l1,
                         (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? "workgroup" : "subgroup", i,
                         vals);
}

cvm_result cvm_fail_null_descriptor(cvm_exec *ex, const cvm_insn *in, uint64_t addr,
                                    uint32_t lane)
{
    uint32_t reg = CVM_ADDR_REGION(addr), set = 0, binding = 0, element = 0;
    for (uint32_t k = 0; k < ex->prog->ndescs; k++) {
        const cvm_descriptor *d = &ex->prog->descs[k];
        if (reg >= d->first_region && reg - d->first_region < d->array_size) {
            set = d->set;
            binding = d->binding;
            element = reg - d->first_region;
            break;
        }
    }
    return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                         "[VUID-OpCooperativeMatrix-12379] invocation %u accesses the null "
                         "descriptor of set %u binding %u element %u: a cooperative matrix "
                         "instruction must not access a null descriptor",
                         lane, set, binding, element);
}

uint8_t *cvm_mem_access(cvm_exec *ex, const cvm_insn *in, uint64_t addr, uint64_t size,
                        int write, uint32_t lane, int *o_robust_skip)
{
    uint32_t reg = CVM_ADDR_REGION(addr);
    uint64_t off = CVM_ADDR_OFFSET(addr);
    const cvm_region *rg = cvm_region_of(ex, reg);
    if (o_robust_skip)
        *o_robust_skip = 0;
    uint8_t *h = cvm_mem_peek(ex, addr, size, 0); /* in bounds; writability below */
    if (h) {
        if (write && !rg->writable) {
            cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                          "invocation %u writes to read-only memory (region %u)", lane, reg);
            return NULL;
        }
        return h;
    }
    if (ex->flags & CVM_FLAG_ROBUST_ACCESS) {
        if (o_robust_skip)
            *o_robust_skip = 1;
        return NULL;
    }
    if (reg == CVM_REGION_NULL)
        cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS, "invocation %u %s through a null pointer",
                      lane, write ? "stores" : "loads");
    else if (!rg || !rg->base)
        cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                      "invocation %u %s %llu bytes at address 0x%llx, which is in no buffer", lane,
                      write ? "stores" : "loads", (unsigned long long)size,
                      (unsigned long long)addr);
    else
        cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                      "invocation %u %s %llu bytes at byte offset %llu of a %llu-byte %s", lane,
                      write ? "stores" : "loads", (unsigned long long)size,
                      (unsigned long long)off, (unsigned long long)rg->size,
                      reg >= CVM_REGION_FIRST_DEVICE ? "buffer (reached by its device address)"
                      : reg >= CVM_REGION_FIRST_BUFFER ? "buffer"
                      : reg == CVM_REGION_WORKGROUP    ? "workgroup memory"
                      : reg == CVM_REGION_PUSH         ? "push constant block"
                                                       : "variable area");
    return NULL;
}

/* Layout copies between memory and register layouts. */
static void copy_layout(const cvm_program *p, uint32_t tid, uint8_t *dst, const uint8_t *src,
                        int to_reg)
{
    const cvm_type *t = &p->types[tid];
    if (!t->has_layout) {
        memcpy(dst, src, to_reg ? t->size : t->mem_size);
        return;
    }
    switch (t->tclass) {
    case CVM_TC_ARRAY: {
        const cvm_type *e = &p->types[t->elem];
        uint32_t a = t->align ? t->align : 1;
        uint32_t esize = (e->size + a - 1) / a * a;
        for (uint32_t i = 0; i < t->count; i++) {
            if (to_reg)
                copy_layout(p, t->elem, dst + (size_t)i * esize, src + (size_t)i * t->array_stride, 1);
            else
                copy_layout(p, t->elem, dst + (size_t)i * t->array_stride, src + (size_t)i * esize, 0);
        }
        return;
    }
    case CVM_TC_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++) {
            if (to_reg)
                copy_layout(p, t->member_types[i], dst + t->member_offsets[i],
                            src + t->member_mem_offsets[i], 1);
            else
                copy_layout(p, t->member_types[i], dst + t->member_mem_offsets[i],
                            src + t->member_offsets[i], 0);
        }
        return;
    case CVM_TC_MATRIX: {
        /* registers: packed columns; memory: column c at c * MatrixStride,
         * or (RowMajor) at c components into the first row, its components
         * MatrixStride apart (mem_elem is that strided column type) */
        const cvm_type *col = &p->types[t->elem];
        uint32_t esize = p->types[col->elem].size;
        uint32_t mem_step = t->row_major ? esize : t->matrix_stride;
        uint32_t mcol = t->mem_elem ? t->mem_elem : t->elem;
        for (uint32_t c = 0; c < t->count; c++) {
            if (to_reg)
                copy_layout(p, mcol, dst + (size_t)c * col->size, src + (size_t)c * mem_step, 1);
            else
                copy_layout(p, mcol, dst + (size_t)c * mem_step, src + (size_t)c * col->size, 0);
        }
        return;
    }
    case CVM_TC_VECTOR: {
        uint32_t esize = p->types[t->elem].size;
        uint32_t step = t->comp_stride ? t->comp_stride : esize;
        for (uint32_t k = 0; k < t->count; k++) {
            if (to_reg)
                memcpy(dst + (size_t)k * esize, src + (size_t)k * step, esize);
            else
                memcpy(dst + (size_t)k * step, src + (size_t)k * esize, esize);
        }
        return;
    }
    default:
        memcpy(dst, src, t->size);
        return;
    }
}

void cvm_copy_mem_to_reg(const cvm_program *prog, uint32_t type_id, uint8_t *reg, const uint8_t *mem)
{
    copy_layout(prog, type_id, reg, mem, 1);
}

void cvm_copy_reg_to_mem(const cvm_program *prog, uint32_t type_id, uint8_t *mem, const uint8_t *reg)
{
    copy_layout(prog, type_id, mem, reg, 0);
}

/* ---- groups and frames ---------------------------------------------------- */

static int is_scope_value(const cvm_program *p, uint32_t tid, uint32_t *o_wg)
{
    const cvm_type *t = &p->types[tid];
    if (t->tclass != CVM_TC_COOPMAT)
        return 0;
    *o_wg = t->scope == SpvScopeWorkgroup;
    return 1;
}

static uint64_t frame_slot_bytes(const cvm_group *g, uint32_t tid)
{
    const cvm_program *p = g->prog;
    uint32_t wg;
    uint64_t size = p->types[tid].size ? p->types[tid].size : 1;
    /* the group's full size (a callback batch runs on fewer lanes) */
    uint32_t nsub = (g->desc.nlanes + g->desc.sg_size - 1) / g->desc.sg_size;
    uint64_t count = is_scope_value(p, tid, &wg) ? (wg ? 1 : nsub) : g->desc.nlanes;
    return (size * count + 15u) & ~(uint64_t)15u;
}

static void frame_free(cvm_frame *fr)
{
    if (!fr)
        return;
    cvm_mem_free(fr->vals);
    cvm_mem_free(fr->regs);
    cvm_mem_free(fr->cur_block);
    cvm_mem_free(fr->prev_block);
    cvm_mem_free(fr->active);
    cvm_mem_free(fr->call_mask);
    cvm_mem_free(fr);
}

/* The compiled tier's collective form inlines called functions into each
 * invocation's code and runs their subgroup instructions by their handlers
 * on the entry point's value slots (exec/jit/jit.h): per id, 1 for an
 * operand (a, b) or the result of such an instruction of a called
 * function, which the entry point's frame then holds a slot for too.  NULL
 * when the program has none, or out of memory (*o_oom set). */
static uint8_t *callee_collective_ids(const cvm_program *p, int *o_oom)
{
    uint8_t *mark = NULL;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const cvm_function *f = &p->funcs[fi];
        if (fi == p->entry)
            continue;
        for (uint32_t b = 0; b < f->nblocks; b++) {
            const cvm_block *blk = &f->blocks[b];
            for (uint32_t ii = blk->first; ii < blk->first + blk->count && ii < p->ninsns; ii++) {
                const cvm_insn *in = &p->insns[ii];
                const spv_instruction_desc *d = spv_grammar_instruction(in->spv_op);
                if ((in->flags & CVM_INSN_PER_INSTANCE) || !d || !d->op_class ||
                    (strcmp(d->op_class, "Non-Uniform") && strcmp(d->op_class, "Group")))
                    continue;
                if (!mark && !(mark = cvm_calloc(p->bound ? p->bound : 1, 1))) {
                    *o_oom = 1;
                    return NULL;
                }
                const uint32_t ids[3] = {in->a, in->b, in->result};
                for (int k = 0; k < 3; k++)
                    if (ids[k] && ids[k] < p->bound)
                        mark[ids[k]] = 1;
            }
        }
    }
    return mark;
}

static cvm_frame *frame_get(cvm_group *g, uint32_t fidx, cvm_diagnostic *diag)
{
    if (g->frames[fidx])
        return g->frames[fidx];
    const cvm_program *p = g->prog;
    const spv_module *mod = p->mod;
    cvm_frame *fr = cvm_calloc(1, sizeof(cvm_frame));
    uint8_t *extra = NULL; /* callee_collective_ids */
    if (!fr)
        return NULL;
    fr->func = fidx;
    /* [bound] slots, then [bound] more: their home copy (cvm_exec.vals_home) */
    fr->vals = cvm_malloc((size_t)p->bound * 2 * sizeof(cvm_val));
    uint32_t n = g->desc.nlanes;
    fr->cur_block = cvm_malloc(n * sizeof(uint32_t));
    fr->prev_block = cvm_malloc(n * sizeof(uint32_t));
    fr->active = cvm_calloc(n, 1);
    fr->call_mask = cvm_calloc(n, 1);
    if (!fr->vals || !fr->cur_block || !fr->prev_block || !fr->active || !fr->call_mask)
        goto oom;
    /* Register storage for the ids this function defines (the entry
     * point's, also for callee_collective_ids'). */
    int oom = 0;
    extra = fidx == p->entry && g->has_callees ? callee_collective_ids(p, &oom) : NULL;
    if (oom)
        goto oom;
    uint64_t total = 0;
    for (uint32_t id = 1; id < p->bound; id++) {
        const spv_def *d = &mod->defs[id];
        if ((d->func == fidx || (extra && extra[id])) && d->type && d->opcode != SpvOpFunction &&
            p->const_offset[id] == UINT64_MAX && d->opcode != SpvOpVariable)
            total += frame_slot_bytes(g, d->type);
    }
    /* The return value slot (id 0 is never a value: it holds the callee's return). */
    uint32_t rt = p->funcs[fidx].return_type;
    if (rt && p->types[rt].tclass != CVM_TC_NONE)
        total += frame_slot_bytes(g, rt);
    if (total > g->desc.memory_limit) {
        cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY,
                     "function registers need %llu bytes, over the memory limit",
                     (unsigned long long)total);
        goto fail;
    }
    fr->regs = cvm_calloc(1, total + 16);
    if (!fr->regs)
        goto oom;
    fr->regs_size = total;
    uint64_t at = 0;
    memset(fr->vals, 0, (size_t)p->bound * sizeof(cvm_val));
    for (uint32_t id = 1; id < p->bound; id++) {
        const spv_def *d = &mod->defs[id];
        if (p->const_offset[id] != UINT64_MAX) {
            fr->vals[id].p = p->const_data + p->const_offset[id];
            fr->vals[id].stride = 0;
        } else if (g->var_addr_off[id] != UINT64_MAX) {
            fr->vals[id].p = g->var_addrs + g->var_addr_off[id];
            fr->vals[id].stride = 8;
        } else if ((d->func == fidx || (extra && extra[id])) && d->type &&
                   d->opcode != SpvOpFunction) {
            fr->vals[id].p = fr->regs + at;
            fr->vals[id].stride = p->types[d->type].size ? p->types[d->type].size : 1;
            if (g->uniform_on && p->uniform[id])
                fr->vals[id].stride = 0;
            at += frame_slot_bytes(g, d->type);
        }
    }
    if (rt && p->types[rt].tclass != CVM_TC_NONE) {
        fr->vals[0].p = fr->regs + at;
        fr->vals[0].stride = p->types[rt].size ? p->types[rt].size : 1;
    }
    memcpy(fr->vals + p->bound, fr->vals, (size_t)p->bound * sizeof(cvm_val));
    cvm_mem_free(extra);
    g->frames[fidx] = fr;
    return fr;
oom:
    cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory for a function frame");
fail:
    cvm_mem_free(extra);
    frame_free(fr);
    return NULL;
}

static uint64_t count_totals[CVM_COUNT_N];

uint64_t cvm_count_total(cvm_count k)
{
    return k < CVM_COUNT_N ? __atomic_load_n(&count_totals[k], __ATOMIC_RELAXED) : 0;
}

void cvm_group_add_counts(const cvm_group *g, uint64_t io_counts[CVM_COUNT_N])
{
    for (; g; g = g->callback)
        for (int k = 0; k < CVM_COUNT_N; k++)
            io_counts[k] += g->ex.counts[k];
}

void cvm_group_destroy(cvm_group *g)
{
    if (!g)
        return;
    for (int k = 0; k < CVM_COUNT_N; k++)
        if (g->ex.counts[k])
            __atomic_fetch_add(&count_totals[k], g->ex.counts[k], __ATOMIC_RELAXED);
    if (g->frames) {
        for (uint32_t i = 0; i < g->prog->nfuncs; i++)
            frame_free(g->frames[i]);
    }
    cvm_group_destroy(g->callback);
    cvm_mem_free(g->caller_vars);
    cvm_mem_free(g->dbg_inv);
    cvm_mem_free(g->frames);
    cvm_mem_free(g->var_addrs);
    cvm_mem_free(g->one_hot);
    cvm_mem_free(g->lane_vars);
    cvm_mem_free(g->var_addr_off);
    cvm_mem_free(g->inv_mem);
    cvm_mem_free(g->wg_mem);
    cvm_mem_free(g->scope_mem);
    cvm_mem_free(g->ex.mvar_slots);
    cvm_mem_free(g->ex.mm_plans);
    if (g->ex.pe_coords) {
        for (uint32_t i = 0; i < g->prog->ninsns; i++)
            cvm_mem_free(g->ex.pe_coords[i]);
        cvm_mem_free(g->ex.pe_coords);
    }
    cvm_mem_free(g->ex.jit_state);
    cvm_mem_free(g->ex.jit_lanes);
    cvm_mem_free(g->push);
    cvm_mem_free(g->padding);
    cvm_mem_free(g->alive);
    cvm_mem_free(g->regions);
    cvm_mem_free(g->ex.scratch);
    cvm_mem_free(g);
}

void cvm_group_set_jit(cvm_group *g, const struct cvm_jit *jit)
{
    g->desc.jit = jit;
}

cvm_exec *cvm_group_exec(cvm_group *g)
{
    return &g->ex;
}

/* 1 when the program has a function besides its entry point (a callee or
 * a callback). */
static int has_callees(const cvm_program *p)
{
    for (uint32_t fi = 0; fi < p->nfuncs; fi++)
        if (fi != p->entry && p->funcs[fi].lowered)
            return 1;
    return 0;
}

cvm_result cvm_group_create(const cvm_program *prog, const cvm_group_desc *desc,
                            cvm_region *buffer_regions, uint32_t nbuffer_regions,
                            const uint8_t *push, uint32_t push_size, cvm_group **o_group,
                            cvm_diagnostic *diag)
{
    cvm_group *g = cvm_calloc(1, sizeof(cvm_group));
    if (!g)
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    g->prog = prog;
    g->desc = *desc;
    g->has_callees = has_callees(prog);
    uint32_t n = desc->nlanes, sg = desc->sg_size;
    uint32_t nsub = (n + sg - 1) / sg;
    uint64_t mem = prog->inv_size * n + prog->wg_size + prog->scope_size * nsub +
                   prog->dense_size * n;
    if (mem > desc->memory_limit) {
        cvm_group_destroy(g);
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY,
                            "variables need %llu bytes per workgroup, over the memory limit",
                            (unsigned long long)mem);
    }
    g->frames = cvm_calloc(prog->nfuncs ? prog->nfuncs : 1, sizeof(cvm_frame *));
    g->var_addr_off = cvm_malloc((size_t)prog->bound * sizeof(uint64_t));
    g->inv_mem = cvm_calloc(1, prog->inv_size * n + 16);
    g->wg_mem = cvm_calloc(1, prog->wg_size + 16);
    g->scope_mem = cvm_calloc(1, prog->scope_size * nsub + 16);
    g->alive = cvm_calloc(n, 1);
    g->nregions = CVM_REGION_FIRST_BUFFER + nbuffer_regions;
    g->regions = cvm_calloc(g->nregions, sizeof(cvm_region));
    g->push = cvm_calloc(1, push_size + 16);
    g->padding = cvm_calloc(n, 8);
    g->uniform_on = !(desc->flags & CVM_FLAG_REFERENCE_PATHS);
    g->one_hot = cvm_calloc(n + 1, 1);
    g->lane_vars = cvm_calloc(1, prog->dense_size * n + 16);
    g->ex.scratch_size = 1 << 16;
    g->ex.scratch = cvm_malloc(g->ex.scratch_size);
    if (!g->frames || !g->var_addr_off || !g->inv_mem || !g->wg_mem || !g->scope_mem ||
        !g->alive || !g->regions || !g->push || !g->padding || !g->ex.scratch || !g->one_hot ||
        !g->lane_vars) {
        cvm_group_destroy(g);
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    g->one_hot[n] = 1;
    if (push_size)
        memcpy(g->push, push, push_size);
    g->regions[CVM_REGION_INVOCATION] = (cvm_region){g->inv_mem, prog->inv_size * n, 1};
    g->regions[CVM_REGION_WORKGROUP] = (cvm_region){g->wg_mem, prog->wg_size, 1};
    g->regions[CVM_REGION_SCOPE] = (cvm_region){g->scope_mem, prog->scope_size * nsub, 1};
    g->regions[CVM_REGION_PUSH] = (cvm_region){g->push, push_size, 0};
    g->regions[CVM_REGION_PADDING] = (cvm_region){g->padding, (uint64_t)n * 8, 1};
    g->regions[CVM_REGION_LANE_VARS] = (cvm_region){g->lane_vars, prog->dense_size * n, 1};
    for (uint32_t i = 0; i < nbuffer_regions; i++)
        g->regions[CVM_REGION_FIRST_BUFFER + i] = buffer_regions[i];

    /* Variable addresses: per lane. */
    uint64_t nvars = 0;
    for (uint32_t id = 1; id < prog->bound; id++)
        if (prog->mod->defs[id].opcode == SpvOpVariable)
            nvars++;
    g->var_addrs = cvm_malloc(nvars * n * 8 + 8);
    if (!g->var_addrs) {
        cvm_group_destroy(g);
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint64_t at = 0;
    for (uint32_t id = 0; id < prog->bound; id++) {
        g->var_addr_off[id] = UINT64_MAX;
        if (id == 0 || prog->mod->defs[id].opcode != SpvOpVariable)
            continue;
        g->var_addr_off[id] = at;
        uint64_t *a = (uint64_t *)(g->var_addrs + at);
        uint8_t reg = prog->var_region[id];
        uint64_t uoff = g->uniform_on ? prog->var_uoffset[id] : UINT64_MAX;
        uint64_t doff = g->uniform_on ? prog->var_doff[id] : UINT64_MAX;
        uint64_t dsize =
            doff != UINT64_MAX ? prog->types[prog->types[prog->mod->defs[id].type].elem].size : 0;
        for (uint32_t l = 0; l < n; l++) {
            if (uoff != UINT64_MAX) /* a uniform Function variable: one copy */
                a[l] = CVM_ADDR(CVM_REGION_SCOPE, uoff);
            else if (doff != UINT64_MAX) /* a dense one: an array of lanes */
                a[l] = CVM_ADDR(CVM_REGION_LANE_VARS, doff * n + (uint64_t)l * dsize);
            else if (reg == CVM_REGION_INVOCATION)
                a[l] = CVM_ADDR(CVM_REGION_INVOCATION, (uint64_t)l * prog->inv_size + prog->var_offset[id]);
            else if (reg == CVM_REGION_SCOPE)
                a[l] = CVM_ADDR(CVM_REGION_SCOPE, (uint64_t)(l / sg) * prog->scope_size + prog->var_offset[id]);
            else if (reg == (CVM_REGION_SCOPE | 0x80))
                a[l] = CVM_ADDR(CVM_REGION_SCOPE, prog->var_offset[id]);
            else
                a[l] = prog->var_offset[id]; /* already a full address */
        }
        at += (uint64_t)n * 8;
    }

    cvm_exec *ex = &g->ex;
    ex->prog = prog;
    ex->nlanes = n;
    ex->sg_size = sg;
    ex->nsub = nsub;
    ex->alive = g->alive;
    ex->regions = g->regions;
    ex->nregions = g->nregions;
    ex->device_regions = desc->device_regions;
    ex->ndevice_regions = desc->device_regions ? desc->ndevice_regions : 0;
    ex->max_depth = desc->max_depth;
    ex->flags = desc->flags;
    ex->frames = g->frames;
    *o_group = g;
    return CVM_SUCCESS;
}

/* ---- built-ins ---------------------------------------------------------------- */

static void write_u32s(uint8_t *dst, const uint32_t *v, uint32_t n)
{
    memcpy(dst, v, n * 4);
}

static cvm_result fill_builtins(cvm_group *g)
{
    const cvm_program *p = g->prog;
    cvm_exec *ex = &g->ex;
    const uint32_t *ls = p->local_size;
    for (uint32_t b = 0; b < p->nbuiltins; b++) {
        uint32_t var = p->builtin_vars[b], kind = p->builtin_kinds[b];
        /* lane l's local id and subgroup lane, carried from lane to lane
         * (l % ls[0], l / ls[0] % ls[1], l / (ls[0] * ls[1]); l % sg_size):
         * no division per lane, each workgroup's start pays this loop */
        uint32_t lid[3] = {0, 0, 0}, sl = 0, sg = 0;
        for (uint32_t l = 0; l < ex->nlanes; l++) {
            if (l) {
                if (++lid[0] == ls[0]) {
                    lid[0] = 0;
                    if (++lid[1] == ls[1]) {
                        lid[1] = 0;
                        lid[2]++;
                    }
                }
                if (++sl == ex->sg_size) {
                    sl = 0;
                    sg++;
                }
            }
            uint8_t *dst = g->inv_mem + (uint64_t)l * p->inv_size + p->var_offset[var];
            uint32_t v[4] = {0, 0, 0, 0};
            switch (kind) {
            case SpvBuiltInGlobalInvocationId:
                for (int k = 0; k < 3; k++)
                    v[k] = ex->group_id[k] * ls[k] + lid[k];
                write_u32s(dst, v, 3);
                break;
            case SpvBuiltInLocalInvocationId:
                write_u32s(dst, lid, 3);
                break;
            case SpvBuiltInLocalInvocationIndex:
                v[0] = l;
                write_u32s(dst, v, 1);
                break;
            case SpvBuiltInWorkgroupId:
                write_u32s(dst, ex->group_id, 3);
                break;
            case SpvBuiltInNumWorkgroups:
                write_u32s(dst, ex->num_groups, 3);
                break;
            case SpvBuiltInWorkgroupSize:
                write_u32s(dst, ls, 3);
                break;
            case SpvBuiltInSubgroupId:
                v[0] = sg;
                write_u32s(dst, v, 1);
                break;
            case SpvBuiltInNumSubgroups:
                v[0] = ex->nsub;
                write_u32s(dst, v, 1);
                break;
            case SpvBuiltInSubgroupLocalInvocationId:
                v[0] = sl;
                write_u32s(dst, v, 1);
                break;
            case SpvBuiltInSubgroupSize:
                v[0] = ex->sg_size;
                write_u32s(dst, v, 1);
                break;
            case SpvBuiltInSubgroupEqMask:
            case SpvBuiltInSubgroupGeMask:
            case SpvBuiltInSubgroupGtMask:
            case SpvBuiltInSubgroupLeMask:
            case SpvBuiltInSubgroupLtMask:
                for (uint32_t bit = 0; bit < ex->sg_size && bit < 128; bit++) {
                    int set = kind == SpvBuiltInSubgroupEqMask   ? bit == sl
                              : kind == SpvBuiltInSubgroupGeMask ? bit >= sl
                              : kind == SpvBuiltInSubgroupGtMask ? bit > sl
                              : kind == SpvBuiltInSubgroupLeMask ? bit <= sl
                                                                 : bit < sl;
                    if (set)
                        v[bit / 32] |= 1u << (bit % 32);
                }
                write_u32s(dst, v, 4);
                break;
            default: {
                const spv_instruction_desc *d = NULL;
                (void)d;
                return cvm_exec_fail(ex, NULL, CVM_ERROR_UNSUPPORTED,
                                     "built-in %u is not available to compute shaders", kind);
            }
            }
        }
    }
    return CVM_SUCCESS;
}

/* ---- running ------------------------------------------------------------------ */

static cvm_result run_function(cvm_group *g, uint32_t fidx, const uint8_t *mask);

static uint32_t type_of_id(const cvm_program *p, uint32_t id)
{
    return p->mod->defs[id].type;
}

/* Copies the value of `src` into `dst` for lane l, or for the scope instance
 * of lane l when the type is a cooperative matrix. */
static void copy_value_lane(const cvm_program *p, uint32_t tid, cvm_val dst, cvm_val src,
                            uint32_t l, uint32_t sg)
{
    uint32_t wg;
    uint32_t size = p->types[tid].size;
    if (is_scope_value(p, tid, &wg)) {
        uint32_t inst = wg ? 0 : l / sg;
        memcpy(dst.p + (size_t)inst * dst.stride, src.p + (size_t)inst * src.stride, size);
        return;
    }
    memcpy(CVM_LANE(dst, l), CVM_LANE(src, l), size);
}

/* The first active lane of each scope instance of a cooperative matrix of
 * type `tid` in turn: *io_inst starts at 0; returns UINT32_MAX when done. */
static uint32_t next_instance_lane(const cvm_exec *ex, int wg, uint32_t *io_inst)
{
    uint32_t ninst = wg ? 1 : ex->nsub;
    for (; *io_inst < ninst; (*io_inst)++) {
        uint32_t first = wg ? 0 : *io_inst * ex->sg_size;
        uint32_t end = wg ? ex->nlanes : CVM_MIN(first + ex->sg_size, ex->nlanes);
        for (uint32_t l = first; l < end; l++)
            if (ex->active[l]) {
                (*io_inst)++;
                return l;
            }
    }
    return UINT32_MAX;
}

/* Copies `src` into `dst` for the active lanes: lane by lane, or for a
 * cooperative matrix (the value of its scope) once per scope instance that
 * has an active lane -- not once per invocation. */
static void copy_value_active(const cvm_exec *ex, uint32_t tid, cvm_val dst, cvm_val src)
{
    const cvm_program *p = ex->prog;
    uint32_t wg, size = p->types[tid].size;
    if (is_scope_value(p, tid, &wg)) {
        uint32_t inst = 0, l;
        while ((l = next_instance_lane(ex, (int)wg, &inst)) != UINT32_MAX)
            copy_value_lane(p, tid, dst, src, l, ex->sg_size);
        return;
    }
    if (dst.stride == size && src.stride == size && !(ex->flags & CVM_FLAG_REFERENCE_PATHS)) {
        /* dense slots: each run of consecutive active lanes as one block */
        uint32_t n = ex->nlanes, l = 0;
        while (l < n) {
            while (l < n && !ex->active[l])
                l++;
            uint32_t e = l;
            while (e < n && ex->active[e])
                e++;
            if (e > l)
                memcpy(dst.p + (size_t)l * size, src.p + (size_t)l * size, (size_t)(e - l) * size);
            l = e;
        }
        return;
    }
    switch (size) { /* the common sizes copied with their size known */
    case 1: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(dst, l), CVM_LANE(src, l), 1); return;
    case 2: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(dst, l), CVM_LANE(src, l), 2); return;
    case 4: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(dst, l), CVM_LANE(src, l), 4); return;
    case 8: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(dst, l), CVM_LANE(src, l), 8); return;
    default: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(dst, l), CVM_LANE(src, l), size); return;
    }
}

/* Bytes of scratch a value of type `tid` needs for all lanes (or all scope
 * instances) with slot stride `stride`. */
static size_t value_scratch(const cvm_exec *ex, uint32_t tid, uint32_t stride)
{
    uint32_t wg;
    size_t count = is_scope_value(ex->prog, tid, &wg) ? (wg ? 1 : ex->nsub) : ex->nlanes;
    if (stride == 0) /* a uniform value: one copy */
        return (size_t)ex->prog->types[tid].size + 16;
    return (size_t)stride * count + 16;
}

static cvm_result take_budget(cvm_group *g, const cvm_insn *in, uint64_t n)
{
    if (CVM_LIKELY(g->budget_local >= n)) {
        g->budget_local -= n;
        return CVM_SUCCESS;
    }
    uint64_t *shared = g->ex.budget;
    uint64_t want = n > (1 << 16) ? n : (1 << 16);
    uint64_t have = __atomic_load_n(shared, __ATOMIC_RELAXED);
    while (have > 0) {
        uint64_t take = have < want ? have : want;
        if (__atomic_compare_exchange_n(shared, &have, have - take, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            g->budget_local += take;
            if (g->budget_local >= n) {
                g->budget_local -= n;
                return CVM_SUCCESS;
            }
        }
    }
    return cvm_exec_fail(&g->ex, in, CVM_ERROR_BUDGET_EXCEEDED,
                         "the instruction budget of the dispatch ran out (a runaway loop, or more work than it allows?)");
}

/* A CVM_INSN_UNIFORM instruction: its handler runs for the first active
 * lane alone (its operands and result have one slot, or read memory every
 * lane addresses alike). */
/* The index in an OpPhi's (value, block) pairs of the pair for block
 * `from`; ph->nextra when it has none. */
static uint32_t phi_pair(const cvm_insn *ph, const uint32_t *pairs, uint32_t from)
{
    uint32_t k = 0;
    while (k < ph->nextra && pairs[k + 1] != from)
        k += 2;
    return k;
}

static cvm_result run_uniform(cvm_group *g, const cvm_insn *in)
{
    cvm_exec *ex = &g->ex;
    uint32_t n = ex->nlanes, l0 = 0;
    uint8_t *act = ex->active;
    while (l0 < n && !act[l0])
        l0++;
    if (l0 >= n)
        return in->fn(ex, in);
    uint32_t na = ex->nactive;
    ex->nlanes = l0 + 1;
    ex->active = g->one_hot + (g->desc.nlanes - l0);
    ex->nactive = 1;
    cvm_result r = in->fn(ex, in);
    ex->nlanes = n;
    ex->active = act;
    ex->nactive = na;
    return r;
}

/* One block over the active lanes.  `traced` is a constant in each of the
 * two copies below, so the copy that runs without a trace has no trace
 * code in its loop. */
static inline __attribute__((always_inline)) cvm_result
run_block_impl(cvm_group *g, cvm_frame *fr, const cvm_function *f, uint32_t bi, const int traced)
{
    cvm_exec *ex = &g->ex;
    const cvm_program *p = g->prog;
    const cvm_block *b = &f->blocks[bi];
    const cvm_insn *in = p->insns + b->first;
    const cvm_insn *end = in + b->count;
    uint32_t n = ex->nlanes;
    cvm_result r;

    if ((r = take_budget(g, in < end ? in : NULL, b->cost)) != CVM_SUCCESS)
        return r;
    if (traced)
        cvm_trace_block(ex, f, bi);

    /* Phis: a parallel copy through scratch. */
    const cvm_insn *phi_end = in;
    while (phi_end < end && phi_end->cf == CVM_CF_PHI)
        phi_end++;
    if (phi_end > in) {
        size_t need = 0;
        for (const cvm_insn *ph = in; ph < phi_end; ph++)
            need += value_scratch(ex, ph->type, fr->vals[ph->result].stride);
        if (need > ex->scratch_size) {
            uint8_t *ns = cvm_realloc(ex->scratch, need);
            if (!ns)
                return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            ex->scratch = ns;
            ex->scratch_size = need;
        }
        /* the one block every active lane came from, if there is one (a
         * loop header entered from its latch, say): then each phi is one
         * block copy instead of a copy per lane */
        uint32_t from_all = UINT32_MAX;
        if (!(ex->flags & CVM_FLAG_REFERENCE_PATHS) && ex->nactive == n && n > 0) {
            const uint32_t *pb = fr->prev_block;
            uint32_t diff = 0; /* no early exit: the loop vectorizes */
            for (uint32_t l = 1; l < n; l++)
                diff |= pb[l] ^ pb[0];
            from_all = diff ? UINT32_MAX : pb[0];
        } else if (!(ex->flags & CVM_FLAG_REFERENCE_PATHS)) {
            const uint32_t *pb = fr->prev_block;
            for (uint32_t l = 0; l < n; l++) {
                if (!ex->active[l])
                    continue;
                if (from_all == UINT32_MAX)
                    from_all = pb[l];
                else if (pb[l] != from_all) {
                    from_all = UINT32_MAX;
                    break;
                }
            }
        }
        size_t at = 0;
        for (const cvm_insn *ph = in; ph < phi_end; ph++) {
            cvm_val tmp = {ex->scratch + at, fr->vals[ph->result].stride};
            uint32_t tid = ph->type, wg;
            const uint32_t *pairs = p->extra + ph->extra;
            if (from_all != UINT32_MAX && tmp.stride != 0) {
                uint32_t k = phi_pair(ph, pairs, from_all);
                if (k >= ph->nextra)
                    return cvm_exec_fail(ex, ph, CVM_ERROR_INVALID_MODULE,
                                         "OpPhi has no value for the block its invocations came from");
                copy_value_active(ex, tid, tmp, fr->vals[pairs[k]]);
                at += value_scratch(ex, tid, tmp.stride);
                continue;
            }
            /* a cooperative matrix moves once per scope instance, from the
             * block its first active lane came from (its invocations reach
             * a matrix instruction together) */
            int scope = is_scope_value(p, tid, &wg);
            if (!scope && tmp.stride != 0 && !(ex->flags & CVM_FLAG_REFERENCE_PATHS)) {
                /* lane by lane, the pair looked up again only when a lane
                 * came from another block than the lane before it, the
                 * copy with its size known for the common sizes */
                uint32_t size = p->types[tid].size, last = UINT32_MAX;
                cvm_val src = tmp;
                for (uint32_t l = 0; l < n; l++) {
                    if (!ex->active[l])
                        continue;
                    if (fr->prev_block[l] != last) {
                        uint32_t k = phi_pair(ph, pairs, fr->prev_block[l]);
                        if (k >= ph->nextra)
                            return cvm_exec_fail(ex, ph, CVM_ERROR_INVALID_MODULE,
                                                 "OpPhi has no value for the block invocation %u came from", l);
                        src = fr->vals[pairs[k]];
                        last = fr->prev_block[l];
                    }
                    switch (size) {
                    case 1: memcpy(CVM_LANE(tmp, l), CVM_LANE(src, l), 1); break;
                    case 4: memcpy(CVM_LANE(tmp, l), CVM_LANE(src, l), 4); break;
                    case 8: memcpy(CVM_LANE(tmp, l), CVM_LANE(src, l), 8); break;
                    default: memcpy(CVM_LANE(tmp, l), CVM_LANE(src, l), size); break;
                    }
                }
                at += value_scratch(ex, tid, tmp.stride);
                continue;
            }
            /* a uniform phi (stride 0): its lanes all came from one block */
            int once = tmp.stride == 0;
            uint32_t inst = 0, l = 0;
            for (;;) {
                if (scope) {
                    if ((l = next_instance_lane(ex, (int)wg, &inst)) == UINT32_MAX)
                        break;
                } else {
                    while (l < n && !ex->active[l])
                        l++;
                    if (l >= n)
                        break;
                }
                uint32_t k = phi_pair(ph, pairs, fr->prev_block[l]);
                if (k >= ph->nextra)
                    return cvm_exec_fail(ex, ph, CVM_ERROR_INVALID_MODULE,
                                         "OpPhi has no value for the block invocation %u came from", l);
                copy_value_lane(p, tid, tmp, fr->vals[pairs[k]], l, ex->sg_size);
                if (once)
                    break;
                l++;
            }
            at += value_scratch(ex, tid, tmp.stride);
        }
        at = 0;
        for (const cvm_insn *ph = in; ph < phi_end; ph++) {
            cvm_val tmp = {ex->scratch + at, fr->vals[ph->result].stride};
            if (tmp.stride == 0)
                memcpy(fr->vals[ph->result].p, tmp.p, p->types[ph->type].size);
            else
                copy_value_active(ex, ph->type, fr->vals[ph->result], tmp);
            at += value_scratch(ex, ph->type, tmp.stride);
        }
        if (traced)
            for (const cvm_insn *ph = in; ph < phi_end; ph++)
                cvm_trace_insn(ex, ph);
        in = phi_end;
    }

    for (; in < end; in++) {
        if (in->fn) {
            r = CVM_UNLIKELY(in->flags & CVM_INSN_UNIFORM) && g->uniform_on ? run_uniform(g, in)
                                                                            : in->fn(ex, in);
            if (r != CVM_SUCCESS)
                return r;
            if (traced)
                cvm_trace_insn(ex, in);
            continue;
        }
        if (traced && in->cf != CVM_CF_CALL)
            cvm_trace_insn(ex, in);
        switch (in->cf) {
        case CVM_CF_BRANCH: {
            /* locals: the stores below cannot then alias the loop's reads */
            uint32_t *pb = fr->prev_block, *cb = fr->cur_block, to = in->a;
            const uint8_t *act = ex->active;
            if (ex->nactive == n) {
                for (uint32_t l = 0; l < n; l++) {
                    pb[l] = bi;
                    cb[l] = to;
                }
            } else { /* without a branch per lane: the mask follows the data */
                for (uint32_t l = 0; l < n; l++) {
                    uint32_t m = -(uint32_t)(act[l] != 0);
                    pb[l] = (bi & m) | (pb[l] & ~m);
                    cb[l] = (to & m) | (cb[l] & ~m);
                }
            }
            g->next_block = to;
            return CVM_SUCCESS;
        }
        case CVM_CF_BRANCH_COND: {
            cvm_val c = fr->vals[in->a];
            uint32_t *pb = fr->prev_block, *cb = fr->cur_block, tb = in->b, fb = in->c;
            const uint8_t *act = ex->active;
            uint32_t taken = 0;
            if (c.stride == 0) { /* a uniform condition: every lane one way */
                uint32_t to = *c.p != 0 ? tb : fb;
                for (uint32_t l = 0; l < n; l++) {
                    uint32_t m = -(uint32_t)(act[l] != 0);
                    pb[l] = (bi & m) | (pb[l] & ~m);
                    cb[l] = (to & m) | (cb[l] & ~m);
                }
                g->next_block = to;
                return CVM_SUCCESS;
            }
            /* without branches per lane (an inactive lane keeps its blocks);
             * a dense condition (stride 1, the usual) read as the plain
             * array it is, so that the loop vectorizes without gathering
             * its bytes one by one */
#define BRANCH_COND_LOOP(COND)                                                                \
    for (uint32_t l = 0; l < n; l++) {                                                        \
        uint32_t m = -(uint32_t)(act[l] != 0);                                                \
        uint32_t t = (COND) != 0;                                                             \
        uint32_t to = fb ^ ((tb ^ fb) & -t);                                                  \
        pb[l] = (bi & m) | (pb[l] & ~m);                                                      \
        cb[l] = (to & m) | (cb[l] & ~m);                                                      \
        taken += t & m;                                                                       \
    }
            if (c.stride == 1) {
                const uint8_t *cv = c.p;
                BRANCH_COND_LOOP(cv[l])
            } else {
                BRANCH_COND_LOOP(*CVM_LANE(c, l))
            }
#undef BRANCH_COND_LOOP
            if (taken == ex->nactive || taken == 0)
                g->next_block = taken ? tb : fb;
            return CVM_SUCCESS;
        }
        case CVM_CF_SWITCH: {
            cvm_val s = fr->vals[in->a];
            const uint32_t *cases = p->extra + in->extra; /* (lo, hi, block) triples */
            uint32_t wide = in->d;
            /* the cases are searched again only when a lane's selector
             * differs from the last one searched (a uniform selector: once) */
            uint64_t last_v = 0;
            uint32_t target = in->b;
            int have = 0;
            CVM_FOR_ACTIVE(ex, l) {
                uint64_t v = 0;
                memcpy(&v, CVM_LANE(s, l), wide ? 8 : 4);
                if (!have || v != last_v) {
                    target = in->b;
                    for (uint32_t k = 0; k < in->nextra; k += 3) {
                        uint64_t lit = cases[k] | ((uint64_t)cases[k + 1] << 32);
                        if (lit == v) {
                            target = cases[k + 2];
                            break;
                        }
                    }
                    last_v = v;
                    have = 1;
                }
                fr->prev_block[l] = bi;
                fr->cur_block[l] = target;
            }
            return CVM_SUCCESS;
        }
        case CVM_CF_RETURN_VALUE:
            copy_value_active(ex, type_of_id(p, in->a) ? type_of_id(p, in->a) : f->return_type,
                              fr->vals[0], fr->vals[in->a]);
            /* fall through */
        case CVM_CF_RETURN:
            if (ex->nactive == n)
                memset(fr->cur_block, 0xff, (size_t)n * sizeof(uint32_t)); /* BLOCK_DONE */
            else
                CVM_FOR_ACTIVE(ex, l)
                    fr->cur_block[l] = BLOCK_DONE;
            g->next_block = BLOCK_RETURNED;
            return CVM_SUCCESS;
        case CVM_CF_KILL:
            CVM_FOR_ACTIVE(ex, l) {
                fr->cur_block[l] = BLOCK_DONE;
                ex->alive[l] = 0;
            }
            g->next_block = BLOCK_RETURNED;
            return CVM_SUCCESS;
        case CVM_CF_CALL: {
            uint32_t callee = in->a;
            const cvm_function *cf = &p->funcs[callee];
            if (ex->depth + 1 > ex->max_depth)
                return cvm_exec_fail(ex, in, CVM_ERROR_LIMIT, "call depth over %u", ex->max_depth);
            cvm_frame *cfr = frame_get(g, callee, ex->diag);
            if (!cfr)
                return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_MEMORY;
            const uint32_t *args = p->extra + in->extra;
            for (uint32_t k = 0; k < in->nextra && k < cf->nparams; k++) {
                copy_value_active(ex, type_of_id(p, cf->params[k]), cfr->vals[cf->params[k]],
                                  fr->vals[args[k]]);
            }
            memcpy(fr->call_mask, ex->active, n);
            ex->depth++;
            r = run_function(g, callee, fr->call_mask);
            ex->depth--;
            ex->vals = fr->vals;
            ex->vals_home = fr->vals + p->bound;
            ex->active = fr->active;
            g->next_block = BLOCK_DONE; /* the callee's blocks said where they went */
            if (r != CVM_SUCCESS)
                return r;
            if (in->result && in->type && p->types[in->type].tclass != CVM_TC_NONE)
                copy_value_active(ex, in->type, fr->vals[in->result], cfr->vals[0]);
            if (traced)
                cvm_trace_insn(ex, in); /* after the call: its result */
            /* Lanes that ended inside the callee end here too. */
            uint32_t na = 0;
            for (uint32_t l = 0; l < n; l++) {
                if (ex->active[l] && !ex->alive[l]) {
                    ex->active[l] = 0;
                    fr->cur_block[l] = BLOCK_DONE;
                }
                na += ex->active[l];
            }
            ex->nactive = na;
            if (na == 0)
                return CVM_SUCCESS;
            break;
        }
        default:
            return cvm_exec_fail(ex, in, CVM_ERROR_INTERNAL, "unknown control-flow kind %u", in->cf);
        }
    }
    return cvm_exec_fail(ex, NULL, CVM_ERROR_INTERNAL, "block %u ended without a terminator", bi);
}

static cvm_result run_block_fast(cvm_group *g, cvm_frame *fr, const cvm_function *f, uint32_t bi)
{
    return run_block_impl(g, fr, f, bi, 0);
}

static cvm_result run_block_traced(cvm_group *g, cvm_frame *fr, const cvm_function *f,
                                   uint32_t bi)
{
    return run_block_impl(g, fr, f, bi, 1);
}

static cvm_result run_function(cvm_group *g, uint32_t fidx, const uint8_t *mask)
{
    cvm_exec *ex = &g->ex;
    const cvm_function *f = &g->prog->funcs[fidx];
    cvm_frame *fr = frame_get(g, fidx, ex->diag);
    uint32_t n = ex->nlanes;
    if (!fr)
        return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_MEMORY;
    uint32_t nmask = 0;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t on = mask[l] != 0;
        fr->cur_block[l] = on - 1; /* 0, or BLOCK_DONE (all ones) */
        fr->active[l] = (uint8_t)on;
        nmask += on;
    }
    memset(fr->prev_block, 0xff, (size_t)n * sizeof(uint32_t)); /* BLOCK_DONE */
    /* `parked`: the lowest block a lane not running the current block waits
     * at (BLOCK_DONE: none).  Those lanes stay put while the others run, so
     * when every lane of the block just run branched to one block below
     * `parked` (a loop's back edge while other lanes wait at its merge, or
     * straight-line code), the lanes waiting there are exactly those (the
     * ones a callee ended excepted, which fr->active no longer has) and
     * neither scan is needed; when they all returned and none is parked,
     * the function is done.  The first block's lanes are the mask's.  The
     * reference paths always scan. */
    int hints = !(ex->flags & CVM_FLAG_REFERENCE_PATHS);
    uint32_t parked = hints ? BLOCK_DONE : 0;
    uint32_t next = 0;
    ex->nactive = nmask;
    for (;;) {
        uint32_t b, na;
        if (next == BLOCK_RETURNED && parked == BLOCK_DONE)
            break;
        if (next < parked && ex->nactive > 0) {
            b = next;
            na = ex->nactive;
        } else {
            /* the minima in signed arithmetic on the indexes with their top
             * bit flipped (the same order): SSE2 compares signed 32-bit
             * lanes only, and then both loops vectorize */
            const uint32_t *cur = fr->cur_block;
            uint8_t *act = fr->active;
            int32_t bs = INT32_MAX; /* BLOCK_DONE, flipped */
            for (uint32_t l = 0; l < n; l++) {
                int32_t c = (int32_t)(cur[l] ^ 0x80000000u);
                bs = c < bs ? c : bs;
            }
            b = (uint32_t)bs ^ 0x80000000u;
            if (b == BLOCK_DONE)
                break;
            na = 0;
            int32_t second = INT32_MAX; /* the least above bs */
            for (uint32_t l = 0; l < n; l++) {
                int32_t c = (int32_t)(cur[l] ^ 0x80000000u);
                int32_t m = -(int32_t)(c <= bs);
                int32_t other = (c & ~m) | (INT32_MAX & m);
                second = other < second ? other : second;
            }
            for (uint32_t l = 0; l < n; l++) {
                uint8_t a = cur[l] == b;
                act[l] = a;
                na += a;
            }
            parked = hints ? (uint32_t)second ^ 0x80000000u : 0;
        }
        ex->vals = fr->vals;
        ex->vals_home = fr->vals + g->prog->bound;
        ex->active = fr->active;
        ex->nactive = na;
        g->next_block = BLOCK_DONE;
        cvm_result r = CVM_UNLIKELY(ex->trace != NULL) ? run_block_traced(g, fr, f, b)
                                                       : run_block_fast(g, fr, f, b);
        if (r != CVM_SUCCESS)
            return r;
        next = g->next_block;
    }
    return CVM_SUCCESS;
}

/* Module-scope Private and Workgroup variables with an initializer get it
 * at the start of each workgroup (every invocation's Private copy, the
 * workgroup's one Workgroup copy). */
static void apply_initializers(cvm_group *g)
{
    const cvm_program *p = g->prog;
    for (uint32_t i = 0; i < p->ninit_vars; i++) {
        uint32_t var = p->init_vars[2 * i], init = p->init_vars[2 * i + 1];
        uint32_t type = p->types[p->mod->defs[var].type].elem;
        const uint8_t *value = p->const_data + p->const_offset[init];
        if (p->var_region[var] == CVM_REGION_WORKGROUP) {
            cvm_copy_reg_to_mem(p, type, g->wg_mem + CVM_ADDR_OFFSET(p->var_offset[var]),
                                value);
        } else {
            for (uint32_t l = 0; l < g->ex.nlanes; l++)
                cvm_copy_reg_to_mem(p, type,
                                    g->inv_mem + (uint64_t)l * p->inv_size + p->var_offset[var],
                                    value);
        }
    }
}

/* A workgroup's start: every invocation live, its memory cleared or
 * initialized, its built-ins (unless `lanes` is 0: nothing will read
 * per-invocation memory), and the entry point's frame in *o_frame. */
static cvm_result group_enter(cvm_group *g, cvm_diagnostic *diag, cvm_frame **o_frame, int lanes)
{
    cvm_exec *ex = &g->ex;
    const cvm_program *p = g->prog;
    memset(g->alive, 1, ex->nlanes);
    memset(g->wg_mem, 0, p->wg_size);
    if (lanes)
        memset(g->inv_mem, 0, p->inv_size * ex->nlanes);
    apply_initializers(g);
    if (lanes)
        CVM_TRY(fill_builtins(g));
    *o_frame = frame_get(g, p->entry, diag);
    if (!*o_frame)
        return diag ? diag->result : CVM_ERROR_OUT_OF_MEMORY;
    return CVM_SUCCESS;
}

static _Atomic int serial_invocations; /* cvm_test_serial_invocations */

void cvm_test_serial_invocations(int on)
{
    atomic_store(&serial_invocations, on);
}

/* 1 when an instruction of the program works across invocations: one on
 * cooperative matrices (per scope instance), or of the grammar's classes
 * Barrier, Group, Non-Uniform or Derivative.  Such a program has no serial
 * schedule (cvm_test_serial_invocations). */
static int has_collectives(const cvm_program *p)
{
    static const char *const classes[] = {"Barrier", "Group", "Non-Uniform", "Derivative"};
    for (uint32_t i = 0; i < p->ninsns; i++) {
        if (p->insns[i].flags & CVM_INSN_PER_INSTANCE)
            return 1;
        const spv_instruction_desc *d = spv_grammar_instruction(p->insns[i].spv_op);
        for (size_t k = 0; d && d->op_class && k < sizeof(classes) / sizeof(classes[0]); k++)
            if (!strcmp(d->op_class, classes[k]))
                return 1;
    }
    return 0;
}

/* The entry point run by each live invocation in turn, to its end, lowest
 * index first (cvm_test_serial_invocations). */
static cvm_result run_serially(cvm_group *g)
{
    uint32_t n = g->ex.nlanes;
    uint8_t *mask = cvm_calloc(n ? n : 1, 1);
    if (!mask)
        return cvm_exec_fail(&g->ex, NULL, CVM_ERROR_OUT_OF_MEMORY,
                             "out of memory for a serial schedule of %u invocations", n);
    uint8_t *alive = cvm_malloc(n ? n : 1);
    if (!alive) {
        cvm_mem_free(mask);
        return cvm_exec_fail(&g->ex, NULL, CVM_ERROR_OUT_OF_MEMORY,
                             "out of memory for a serial schedule of %u invocations", n);
    }
    memcpy(alive, g->alive, n);
    cvm_result r = CVM_SUCCESS;
    for (uint32_t l = 0; l < n && r == CVM_SUCCESS; l++) {
        if (!alive[l])
            continue;
        mask[l] = 1;
        r = run_function(g, g->prog->entry, mask);
        mask[l] = 0;
    }
    cvm_mem_free(alive);
    cvm_mem_free(mask);
    return r;
}

cvm_result cvm_group_run(cvm_group *g, const uint32_t group_id[3], const uint32_t num_groups[3],
                         uint64_t *budget, cvm_diagnostic *diag)
{
    cvm_exec *ex = &g->ex;
    const cvm_program *p = g->prog;
    memcpy(ex->group_id, group_id, sizeof(ex->group_id));
    memcpy(ex->num_groups, num_groups, sizeof(ex->num_groups));
    ex->budget = budget;
    ex->diag = diag;
    ex->depth = 0;
    if (g->desc.jit) {
        cvm_result jr = CVM_SUCCESS;
        cvm_frame *fr;
        /* the scope form reads no per-invocation memory itself (its values
         * are uniform; built-ins it computes), nor does the collective form
         * (built-ins it computes, its variables it clears); a callback may
         * (a caller's Private or Input variable), so a program with
         * callbacks keeps it */
        if ((cvm_jit_scope_form(g->desc.jit) || cvm_jit_collective_form(g->desc.jit)) &&
            (jr = group_enter(g, diag, &fr,
                              g->has_callees || cvm_jit_scope_lanes(g->desc.jit))) == CVM_SUCCESS) {
            /* every lane active in the entry point's frame, whose handlers
             * the code calls */
            memset(fr->active, 1, ex->nlanes);
            ex->vals = fr->vals;
            ex->vals_home = fr->vals + p->bound;
            ex->active = fr->active;
            ex->nactive = ex->nlanes;
        }
        if (jr == CVM_SUCCESS)
            jr = cvm_jit_run_group(g->desc.jit, ex, &g->budget_local);
        if (g->budget_local) {
            __atomic_fetch_add(budget, g->budget_local, __ATOMIC_RELAXED);
            g->budget_local = 0;
        }
        return jr;
    }
    cvm_frame *fr;
    CVM_TRY(group_enter(g, diag, &fr, 1));
    cvm_result r = atomic_load(&serial_invocations) && !has_collectives(p)
                       ? run_serially(g)
                       : run_function(g, p->entry, g->alive);
    /* hand unused budget back */
    if (g->budget_local) {
        __atomic_fetch_add(budget, g->budget_local, __ATOMIC_RELAXED);
        g->budget_local = 0;
    }
    return r;
}

/* ---- control-flow lowering --------------------------------------------------- */

cvm_result cvm_lower_control(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const cvm_program *p = cvm_lower_program(lw);
    const uint32_t *w = in->words;
    switch (in->opcode) {
    case SpvOpBranch:
        out->cf = CVM_CF_BRANCH;
        out->a = cvm_lower_block_index(lw, w[1]);
        return out->a == UINT32_MAX ? cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                                     "target block is unreachable")
                                    : CVM_SUCCESS;
    case SpvOpBranchConditional: {
        /* a module that skipped validation: the handler reads one byte per
         * lane of a Boolean and jumps to block indices it trusts */
        const cvm_type *ct = cvm_lower_type(lw, cvm_lower_type_of(lw, w[1]));
        if (ct->tclass != CVM_TC_BOOL)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Condition %%%u is not a Boolean scalar", w[1]);
        out->cf = CVM_CF_BRANCH_COND;
        out->a = w[1];
        out->b = cvm_lower_block_index(lw, w[2]);
        out->c = cvm_lower_block_index(lw, w[3]);
        if (out->b == UINT32_MAX || out->c == UINT32_MAX)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "target block is unreachable");
        return CVM_SUCCESS;
    }
    case SpvOpSwitch: {
        CVM_TRY(cvm_lower_int_scalar(lw, in, w[1], "Selector", NULL));
        const cvm_type *st = cvm_lower_type(lw, cvm_lower_type_of(lw, w[1]));
        uint32_t wide = st->size > 4;
        uint32_t step = wide ? 3 : 2;
        out->cf = CVM_CF_SWITCH;
        out->a = w[1];
        out->b = cvm_lower_block_index(lw, w[2]);
        if (out->b == UINT32_MAX)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "target block is unreachable");
        out->d = wide;
        out->extra = p->nextra;
        out->nextra = 0;
        for (uint32_t i = 3; i + step - 1 < in->word_count; i += step) {
            uint32_t trip[3] = {w[i], wide ? w[i + 1] : 0, cvm_lower_block_index(lw, w[i + step - 1])};
            if (trip[2] == UINT32_MAX)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "target block is unreachable");
            if (!wide && st->size < 4) /* narrower selectors compare on their width */
                trip[0] &= st->size == 1 ? 0xffu : 0xffffu;
            uint32_t at = cvm_lower_extra(lw, trip, 3);
            if (at == UINT32_MAX)
                return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            if (out->nextra == 0)
                out->extra = at;
            out->nextra += 3;
        }
        return CVM_SUCCESS;
    }
    case SpvOpReturn:
        out->cf = CVM_CF_RETURN;
        return CVM_SUCCESS;
    case SpvOpReturnValue:
        out->cf = CVM_CF_RETURN_VALUE;
        out->a = w[1];
        return CVM_SUCCESS;
    case SpvOpKill:
    case SpvOpTerminateInvocation:
    case SpvOpUnreachable:
        out->cf = CVM_CF_KILL;
        return CVM_SUCCESS;
    case SpvOpFunctionCall: {
        out->cf = CVM_CF_CALL;
        out->a = p->func_index[w[3]];
        if (out->a == UINT32_MAX)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "callee %u is not a function", w[3]);
        out->nextra = in->word_count - 4u;
        out->extra = cvm_lower_extra(lw, w + 4, out->nextra);
        return out->extra == UINT32_MAX ? cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "oom")
                                        : CVM_SUCCESS;
    }
    case SpvOpPhi: {
        out->cf = CVM_CF_PHI;
        out->nextra = in->word_count - 3u;
        uint32_t tmp[2];
        out->extra = p->nextra;
        for (uint32_t i = 3; i + 1 < in->word_count; i += 2) {
            tmp[0] = w[i];
            tmp[1] = cvm_lower_block_index(lw, w[i + 1]);
            if (cvm_lower_extra(lw, tmp, 2) == UINT32_MAX)
                return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "oom");
        }
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}

/* ---- callbacks ---------------------------------------------------------------- */

static cvm_group *group_of(cvm_exec *ex)
{
    return (cvm_group *)((char *)ex - offsetof(cvm_group, ex));
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t cvm_element_other(const cvm_exec *ex, const cvm_insn *in, uint32_t lane)
{
    uint32_t inst = (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? 0 : lane / ex->sg_size;
    uint32_t first = cvm_scope_first_lane(ex, in, inst), n = cvm_scope_lane_count(ex, in, inst);
    if (n < 2 || lane < first || lane >= first + n)
        return lane;
    return first + (lane - first + n / 2) % n;
}

/* Module-scope variables that live per invocation (Private, Input: regions
 * INVOCATION and SCOPE): the ones a callback resolves in its caller's
 * memory. */
static cvm_result collect_caller_vars(cvm_group *cg, cvm_diagnostic *diag)
{
    const cvm_program *p = cg->prog;
    uint32_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        for (uint32_t id = 1; id < p->bound; id++) {
            const spv_def *d = &p->mod->defs[id];
            if (d->opcode != SpvOpVariable || d->func != UINT32_MAX)
                continue;
            if (p->var_region[id] != CVM_REGION_INVOCATION && p->var_region[id] != CVM_REGION_SCOPE &&
                p->var_region[id] != (CVM_REGION_SCOPE | 0x80)) /* (a workgroup's one copy) */
                continue;
            if (pass)
                cg->caller_vars[n] = id;
            n++;
        }
        if (!pass) {
            cg->caller_vars = cvm_malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
            if (!cg->caller_vars)
                return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        }
    }
    cg->ncaller_vars = n;
    return CVM_SUCCESS;
}

/* Points the callback lanes' module-scope per-invocation variables at the
 * memory of the calling lanes: lane l of the batch runs call calls[l] in
 * the context of caller lane ctx[calls[l]]. */
static void bind_caller_context(cvm_group *cg, const cvm_group *caller, const uint32_t *calls,
                                uint32_t n, const uint32_t *ctx)
{
    for (uint32_t k = 0; k < cg->ncaller_vars; k++) {
        uint32_t v = cg->caller_vars[k];
        uint64_t *dst = (uint64_t *)(cg->var_addrs + cg->var_addr_off[v]);
        const uint64_t *src = (const uint64_t *)(caller->var_addrs + caller->var_addr_off[v]);
        for (uint32_t l = 0; l < n; l++) {
            uint64_t a = src[ctx[calls[l]]];
            uint32_t reg = CVM_ADDR_REGION(a);
            if (reg == CVM_REGION_INVOCATION)
                reg = CVM_REGION_CALLER_INVOCATION;
            else if (reg == CVM_REGION_SCOPE)
                reg = CVM_REGION_CALLER_SCOPE;
            dst[l] = CVM_ADDR(reg, CVM_ADDR_OFFSET(a));
        }
    }
}

/* dst[l] = src[idx[l]] for n values of `size` bytes (slots `dstride` and
 * `sstride` apart), the common sizes copied with their size known. */
#define GATHER_LOOP(SIZE)                                                              \
    for (uint32_t l = 0; l < n; l++)                                                   \
        memcpy(dst + (size_t)l * dstride, src + (size_t)idx[l] * sstride, SIZE);

static void gather_values(uint8_t *dst, size_t dstride, const uint8_t *src, size_t sstride,
                          const uint32_t *idx, uint32_t n, uint32_t size)
{
    switch (size) {
    case 2: GATHER_LOOP(2) return;
    case 4: GATHER_LOOP(4) return;
    case 8: GATHER_LOOP(8) return;
    case 16: GATHER_LOOP(16) return;
    default: GATHER_LOOP(size) return;
    }
}

#define SCATTER_LOOP(SIZE)                                                             \
    for (uint32_t l = 0; l < n; l++)                                                   \
        memcpy(dst + (size_t)idx[l] * dstride, src + (size_t)l * sstride, SIZE);

static void scatter_values(uint8_t *dst, size_t dstride, const uint8_t *src, size_t sstride,
                           const uint32_t *idx, uint32_t n, uint32_t size)
{
    switch (size) {
    case 2: SCATTER_LOOP(2) return;
    case 4: SCATTER_LOOP(4) return;
    case 8: SCATTER_LOOP(8) return;
    default: SCATTER_LOOP(size) return;
    }
}

static cvm_result callback_batch(cvm_group *cg, const cvm_group *caller, const cvm_function *f,
                                 uint32_t func, const uint32_t *calls, uint32_t n,
                                 const uint32_t *ctx, const cvm_val *args, uint32_t nargs,
                                 uint8_t *results, uint32_t rsize)
{
    const cvm_program *p = cg->prog;
    cvm_exec *cex = &cg->ex;
    cvm_frame *fr = frame_get(cg, func, cex->diag);
    if (!fr)
        return cex->diag ? cex->diag->result : CVM_ERROR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < nargs && k < f->nparams; k++) {
        uint32_t tid = p->mod->defs[f->params[k]].type;
        uint32_t size = p->types[tid].size;
        cvm_val dst = fr->vals[f->params[k]];
        gather_values(dst.p, dst.stride, args[k].p, args[k].stride, calls, n, size);
    }
    /* The batch runs on its n lanes only: loops over the lanes stop there
     * (the lanes past n would all be dead).  The reference paths keep the
     * whole batch size. */
    uint32_t full = cg->desc.nlanes;
    if (!(cex->flags & CVM_FLAG_REFERENCE_PATHS)) {
        cex->nlanes = n;
        cex->nsub = (n + cex->sg_size - 1) / cex->sg_size;
    }
    memset(cg->alive, 0, full);
    memset(cg->alive, 1, n);
    /* whose call each lane is, for messages (a module without the DebugPrintf
     * set prints none) and the trace */
    if ((cex->printf && p->mod->printf_ext) || cex->trace) {
        for (uint32_t l = 0; l < n; l++) {
            uint32_t call = calls[l], cl = ctx[call];
            cg->dbg_inv[l] = caller->ex.cb_inv ? caller->ex.cb_inv[cl] : cl;
            if (cg->site_cols) {
                uint32_t e = cg->site_elems ? cg->site_elems[call] : call;
                cg->dbg_row[l] = e / cg->site_cols;
                cg->dbg_col[l] = e % cg->site_cols;
            } else { /* no element named: a nested call keeps its caller's */
                cg->dbg_row[l] = caller->ex.cb_row ? caller->ex.cb_row[cl] : UINT32_MAX;
                cg->dbg_col[l] = caller->ex.cb_col ? caller->ex.cb_col[cl] : UINT32_MAX;
            }
        }
    }
    /* The batch's own per-invocation memory holds only the Function
     * variables of the callee and its callees (module-scope ones resolve in
     * the caller's, collect_caller_vars): clear just those, lane by lane,
     * or, when they fill most of a lane's slice, from the first lane's to
     * the last lane's in one go (the slices' other bytes are never read
     * here). */
    if (f->fvar_lo < f->fvar_hi) {
        size_t span = (size_t)(f->fvar_hi - f->fvar_lo);
        if (span * 2 >= p->inv_size)
            memset(cg->inv_mem + f->fvar_lo, 0, (size_t)(n - 1) * p->inv_size + span);
        else
            for (uint32_t l = 0; l < n; l++)
                memset(cg->inv_mem + (size_t)l * p->inv_size + f->fvar_lo, 0, span);
    }
    bind_caller_context(cg, caller, calls, n, ctx);
    cvm_result r = run_function(cg, func, cg->alive);
    cex->nlanes = full;
    cex->nsub = (full + cex->sg_size - 1) / cex->sg_size;
    if (r != CVM_SUCCESS)
        return r;
    if (rsize && results)
        scatter_values(results, rsize, fr->vals[0].p, fr->vals[0].stride, calls, n, rsize);
    return CVM_SUCCESS;
}

/* The calls in `order`, in batches.  A callee that may write Private memory
 * (cvm_function.writes_private) must not run two calls of one invocation
 * side by side, as lanes of one batch: they would all read the state from
 * before the batch.  Its calls run in rounds instead: round k holds each
 * invocation's k-th call (in `order`), so an invocation's calls run one
 * after another, in that order, as on an implementation that runs them
 * inside the invocation. */
static cvm_result callback_pass(cvm_group *cg, const cvm_group *caller, const cvm_function *f,
                                uint32_t func, const uint32_t *order, uint32_t count,
                                const uint32_t *ctx, const cvm_val *args, uint32_t nargs,
                                uint8_t *out, uint32_t rsize)
{
    cvm_result r = CVM_SUCCESS;
    if (!f->writes_private) {
        for (uint32_t s = 0; s < count && r == CVM_SUCCESS; s += CVM_CALLBACK_BATCH) {
            uint32_t n = CVM_MIN(CVM_CALLBACK_BATCH, count - s);
            r = callback_batch(cg, caller, f, func, order + s, n, ctx, args, nargs, out, rsize);
        }
        return r;
    }
    uint32_t nl = caller->ex.nlanes;
    uint32_t *seen = cvm_calloc(nl, sizeof(uint32_t));
    uint32_t *round = cvm_malloc((size_t)count * sizeof(uint32_t) * 2 + 4);
    if (!seen || !round) {
        cvm_mem_free(seen);
        cvm_mem_free(round);
        return cvm_exec_fail(&cg->ex, NULL, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint32_t *sorted = round + count, nrounds = 0;
    for (uint32_t i = 0; i < count; i++) {
        round[i] = seen[ctx[order[i]]]++;
        nrounds = CVM_MAX(nrounds, round[i] + 1);
    }
    /* counting sort by round, stable: start[k] is where round k begins (and,
     * once the calls are placed, where it ends) */
    uint32_t *start = cvm_calloc((size_t)nrounds + 1, sizeof(uint32_t));
    if (!start) {
        cvm_mem_free(seen);
        cvm_mem_free(round);
        return cvm_exec_fail(&cg->ex, NULL, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < count; i++)
        start[round[i] + 1]++;
    for (uint32_t k = 0; k < nrounds; k++)
        start[k + 1] += start[k];
    for (uint32_t i = 0; i < count; i++)
        sorted[start[round[i]]++] = order[i];
    for (uint32_t k = 0, first = 0; k < nrounds && r == CVM_SUCCESS; k++) {
        uint32_t end = start[k]; /* now the round's end */
        for (uint32_t s = first; s < end && r == CVM_SUCCESS; s += CVM_CALLBACK_BATCH) {
            uint32_t n = CVM_MIN(CVM_CALLBACK_BATCH, end - s);
            r = callback_batch(cg, caller, f, func, sorted + s, n, ctx, args, nargs, out, rsize);
        }
        first = end;
    }
    cvm_mem_free(start);
    cvm_mem_free(seen);
    cvm_mem_free(round);
    return r;
}

static void shuffle(uint32_t *order, uint32_t count, uint64_t *seed)
{
    for (uint32_t i = count; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)(splitmix(seed) % i);
        uint32_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

static _Atomic int interpret_leaves; /* cvm_test_interpret_leaf_calls */

/* The results' bytes meet an argument's: a leaf writing its results in
 * place could then change an argument a later instruction reads (the
 * interpreted calls gather the arguments first).  No caller does that
 * today; the check keeps it so. */
static int results_overlap(const cvm_program *p, const cvm_function *f, const cvm_val *args,
                           uint32_t nargs, uint32_t count, const uint8_t *results,
                           uint32_t rsize)
{
    uintptr_t r0 = (uintptr_t)results, r1 = r0 + (uintptr_t)count * rsize;
    for (uint32_t k = 0; k < nargs && k < f->nparams; k++) {
        uint32_t size = p->types[p->mod->defs[f->params[k]].type].size;
        uintptr_t a0 = (uintptr_t)args[k].p;
        uintptr_t a1 = a0 + (uintptr_t)(count ? count - 1 : 0) * args[k].stride + size;
        if (a0 < r1 && r0 < a1)
            return 1;
    }
    return 0;
}

/* Calls of leaves may take the leaf path (interpreted in batches or
 * compiled): not in the checking mode, under the reference paths, while
 * tracing, nor when a test asks for interpreted calls. */
static int leaf_path_open(const cvm_exec *ex)
{
    return !ex->trace && !(ex->flags & (CVM_FLAG_CHECK_CALLBACKS | CVM_FLAG_REFERENCE_PATHS)) &&
           !atomic_load(&interpret_leaves);
}

void cvm_test_interpret_leaf_calls(int on)
{
    atomic_store(&interpret_leaves, on);
}

uint64_t cvm_test_leaf_batches(void)
{
    return cvm_count_total(CVM_COUNT_LEAF_BATCHES);
}

/* The calls of a leaf function (cvm_function.leaf), in batches: each
 * instruction's handler runs over the batch's lanes, the parameters' slots
 * pointing at the arguments and the returned value's at the results (as the
 * interpreted calls, the same handlers and kernels on the same values, but
 * without gathering, scattering or binding a context no leaf can read).
 * Takes the instruction budget a batch of the block takes. */
static cvm_result leaf_calls(cvm_group *cg, const cvm_function *f, uint32_t func, uint32_t count,
                             const cvm_val *args, uint32_t nargs, uint8_t *results,
                             uint32_t rsize, int counted)
{
    const cvm_program *p = cg->prog;
    cvm_exec *cex = &cg->ex;
    cvm_frame *fr = frame_get(cg, func, cex->diag);
    if (!fr)
        return cex->diag ? cex->diag->result : CVM_ERROR_OUT_OF_MEMORY;
    const cvm_block *b = &f->blocks[0];
    const cvm_insn *first = p->insns + b->first, *ret = first + b->count - 1;
    uint32_t full = cg->desc.nlanes, rid = ret->a;
    /* the returned value: written in place when an instruction computes it
     * into its slot (not when a load makes the slot a dense variable's
     * array, CVM_INSN_ALIAS, or the value has one slot for all lanes) */
    int in_place = 0;
    for (const cvm_insn *in = first; in < ret; in++)
        in_place |= in->result == rid && !(in->flags & CVM_INSN_UNIFORM);
    cvm_val saved_ret = fr->vals[rid];
    cvm_result r = CVM_SUCCESS;
    /* compiled code for the calls, once the pipeline has made enough of them
     * (exec/jit/jit.h): the same batches, budget and results */
    if (cvm_jit_leaf_ready(cg->desc.leaves, cex, func, counted ? 0 : count,
                           (cex->flags & CVM_FLAG_JIT) != 0)) {
        cvm_val bargs[16];
        if (nargs > CVM_ARRAY_SIZE(bargs))
            goto interpret;
        for (uint32_t s = 0; s < count && r == CVM_SUCCESS; s += full) {
            uint32_t n = CVM_MIN(full, count - s);
            if ((r = take_budget(cg, first, b->cost)) != CVM_SUCCESS)
                break;
            cex->counts[CVM_COUNT_LEAF_BATCHES]++;
            for (uint32_t k = 0; k < nargs; k++)
                bargs[k] = (cvm_val){args[k].p + (size_t)s * args[k].stride, args[k].stride};
            r = cvm_jit_run_leaf(cg->desc.leaves, cex, func, n, bargs, results + (size_t)s * rsize);
        }
        return r;
    }
interpret:
    memset(cg->alive, 1, CVM_MIN(full, count)); /* the lanes any batch here runs */
    cex->vals = fr->vals;
    cex->vals_home = fr->vals + p->bound;
    cex->active = cg->alive;
    for (uint32_t s = 0; s < count && r == CVM_SUCCESS; s += full) {
        uint32_t n = CVM_MIN(full, count - s);
        if ((r = take_budget(cg, first, b->cost)) != CVM_SUCCESS)
            break;
        cex->counts[CVM_COUNT_LEAF_BATCHES]++;
        for (uint32_t k = 0; k < nargs && k < f->nparams; k++)
            fr->vals[f->params[k]] =
                (cvm_val){args[k].p + (size_t)s * args[k].stride, args[k].stride};
        if (in_place)
            fr->vals[rid] = (cvm_val){results + (size_t)s * rsize, rsize};
        cex->nlanes = n;
        cex->nactive = n;
        for (const cvm_insn *in = first; in < ret && r == CVM_SUCCESS; in++)
            r = CVM_UNLIKELY(in->flags & CVM_INSN_UNIFORM) ? run_uniform(cg, in) : in->fn(cex, in);
        cvm_val rv = fr->vals[rid];
        if (r == CVM_SUCCESS && rv.p != results + (size_t)s * rsize) /* not in place */
            for (uint32_t l = 0; l < n; l++)
                memcpy(results + (size_t)(s + l) * rsize, CVM_LANE(rv, l), rsize);
    }
    /* the slots as frame_get laid them out */
    for (uint32_t k = 0; k < f->nparams; k++)
        fr->vals[f->params[k]] = fr->vals[p->bound + f->params[k]];
    fr->vals[rid] = saved_ret;
    cex->nlanes = full;
    cex->nsub = (full + cex->sg_size - 1) / cex->sg_size;
    return r;
}

/* The callback group of `g` (created at its first callback), set up for a
 * call from `ex` (of group g) at instruction `in`: the caller's workgroup
 * memory, per-invocation variables, ids, budget, diagnostics and depth. */
static cvm_result callback_group(cvm_exec *ex, const cvm_insn *in, cvm_group *g,
                                 const uint32_t *elems, uint32_t cols)
{
    const cvm_program *p = g->prog;
    if (!g->callback) {
        cvm_group_desc d = g->desc;
        d.jit = NULL; /* callbacks are interpreted (leaves may be compiled: d.leaves) */
        d.nlanes = CVM_CALLBACK_BATCH;
        d.sg_size = CVM_CALLBACK_BATCH < g->desc.sg_size ? CVM_CALLBACK_BATCH : g->desc.sg_size;
        cvm_result r = cvm_group_create(p, &d, g->regions + CVM_REGION_FIRST_BUFFER,
                                        g->nregions - CVM_REGION_FIRST_BUFFER, g->push,
                                        (uint32_t)g->regions[CVM_REGION_PUSH].size, &g->callback,
                                        ex->diag);
        if (r != CVM_SUCCESS)
            return r;
        g->callback->ex.is_callback = 1;
        if ((r = collect_caller_vars(g->callback, ex->diag)) != CVM_SUCCESS)
            return r;
        cvm_group *nc = g->callback;
        nc->dbg_inv = cvm_malloc((size_t)CVM_CALLBACK_BATCH * 3 * sizeof(uint32_t));
        if (!nc->dbg_inv)
            return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        nc->dbg_row = nc->dbg_inv + CVM_CALLBACK_BATCH;
        nc->dbg_col = nc->dbg_row + CVM_CALLBACK_BATCH;
        for (uint32_t l = 0; l < 3u * CVM_CALLBACK_BATCH; l++)
            nc->dbg_inv[l] = UINT32_MAX;
        nc->ex.cb_inv = nc->dbg_inv;
        nc->ex.cb_row = nc->dbg_row;
        nc->ex.cb_col = nc->dbg_col;
    }
    cvm_group *cg = g->callback;
    cg->site_elems = elems;
    cg->site_cols = cols;
    /* The callee shares the caller's workgroup memory, and resolves
     * module-scope per-invocation variables in the caller's memory (for a
     * caller that is itself a callback: in its caller's). */
    cg->regions[CVM_REGION_WORKGROUP] = g->regions[CVM_REGION_WORKGROUP];
    cg->regions[CVM_REGION_CALLER_INVOCATION] =
        ex->is_callback ? g->regions[CVM_REGION_CALLER_INVOCATION] : g->regions[CVM_REGION_INVOCATION];
    cg->regions[CVM_REGION_CALLER_SCOPE] =
        ex->is_callback ? g->regions[CVM_REGION_CALLER_SCOPE] : g->regions[CVM_REGION_SCOPE];
    cvm_exec *cex = &cg->ex;
    memcpy(cex->group_id, ex->group_id, sizeof(cex->group_id));
    memcpy(cex->num_groups, ex->num_groups, sizeof(cex->num_groups));
    cex->budget = ex->budget;
    cex->diag = ex->diag;
    cex->depth = ex->depth + 1;
    cex->printf = ex->printf;
    cex->trace = ex->trace;
    cex->cb_op = ex->is_callback ? ex->cb_op : in->spv_op;
    return CVM_SUCCESS;
}

cvm_result cvm_callback_run(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t count,
                            const cvm_val *args, uint32_t nargs, uint8_t *results,
                            const uint32_t *lanes)
{
    return cvm_callback_run_elements(ex, in, func, count, args, nargs, results, lanes, NULL, 0);
}

cvm_result cvm_callback_fold(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t es,
                             uint32_t count, uint32_t len, const uint8_t *x, uint8_t *acc,
                             uint8_t *tmp, const uint32_t *lanes, const uint32_t *elems,
                             uint32_t cols, uint8_t **o_result)
{
    cvm_group *g = group_of(ex);
    const cvm_program *p = g->prog;
    cvm_result r = CVM_SUCCESS;
    uint32_t k = 1;
    /* The compiled leaf path, as leaf_calls takes it at each step: one
     * batch per CVM_CALLBACK_BATCH calls, its budget and count, then the
     * compiled calls; taken while the leaf has code and nothing else
     * (checking mode, tracing, a result overlapping an argument) would
     * send a step elsewhere. */
    if (count > 0 && len > 1 && func < p->nfuncs && p->funcs[func].lowered &&
        p->funcs[func].leaf && p->funcs[func].nparams == 2 && ex->depth + 1 <= ex->max_depth) {
        const cvm_function *f = &p->funcs[func];
        uint32_t rt = f->return_type;
        uint32_t rsize = rt && p->types[rt].tclass != CVM_TC_NONE ? p->types[rt].size : 0;
        if (rsize == es && (r = callback_group(ex, in, g, elems, cols)) != CVM_SUCCESS)
            return r;
        cvm_group *cg = g->callback;
        cvm_exec *cex = cg ? &cg->ex : NULL;
        const cvm_block *b = &f->blocks[0];
        const cvm_insn *first = p->insns + b->first;
        uint32_t full = cg ? cg->desc.nlanes : 0;
        while (rsize == es && k < len && leaf_path_open(cex)) {
            cvm_val args[2] = {{acc, es}, {(uint8_t *)x + (size_t)k * es, len * es}};
            if (results_overlap(p, f, args, 2, count, tmp, rsize))
                break;
            if (!cvm_jit_leaf_ready(cg->desc.leaves, cex, func, ex->leaf_calls_counted ? 0 : count,
                                    (cex->flags & CVM_FLAG_JIT) != 0)) {
                /* this step's calls are counted: its own call must not
                 * count them again (as a DecodeFunc's tile does) */
                uint8_t was = ex->leaf_calls_counted;
                ex->leaf_calls_counted = 1;
                r = cvm_callback_run_elements(ex, in, func, count, args, 2, tmp, lanes, elems,
                                              cols);
                ex->leaf_calls_counted = was;
            } else {
                for (uint32_t s = 0; s < count && r == CVM_SUCCESS; s += full) {
                    uint32_t n = CVM_MIN(full, count - s);
                    if ((r = take_budget(cg, first, b->cost)) != CVM_SUCCESS)
                        break;
                    cex->counts[CVM_COUNT_LEAF_BATCHES]++;
                    cvm_val bargs[2] = {{args[0].p + (size_t)s * es, es},
                                        {args[1].p + (size_t)s * len * es, len * es}};
                    r = cvm_jit_run_leaf(cg->desc.leaves, cex, func, n, bargs,
                                         tmp + (size_t)s * es);
                }
            }
            if (r != CVM_SUCCESS)
                return r;
            uint8_t *t = acc;
            acc = tmp;
            tmp = t;
            k++;
        }
    }
    /* the other steps, each as a call of its own */
    for (; k < len && r == CVM_SUCCESS; k++) {
        cvm_val args[2] = {{acc, es}, {(uint8_t *)x + (size_t)k * es, len * es}};
        r = cvm_callback_run_elements(ex, in, func, count, args, 2, tmp, lanes, elems, cols);
        uint8_t *t = acc;
        acc = tmp;
        tmp = t;
    }
    *o_result = acc;
    return r;
}

int cvm_callback_decode_tile(cvm_exec *ex, const cvm_insn *in, uint32_t func,
                             const cvm_decode_tile *tile, uint8_t *out, uint32_t out_size,
                             cvm_result *o_r)
{
    cvm_group *g = group_of(ex);
    const cvm_program *p = g->prog;
    *o_r = CVM_SUCCESS;
    if (func >= p->nfuncs || !p->funcs[func].lowered || !p->funcs[func].leaf || !g->desc.leaves ||
        ex->depth + 1 > ex->max_depth || !leaf_path_open(ex))
        return 0;
    const cvm_function *f = &p->funcs[func];
    uint32_t rt = f->return_type;
    if (f->nparams != 3 || !rt || p->types[rt].size != out_size)
        return 0;
    int how = cvm_jit_tile_ready(g->desc.leaves, ex, func, tile, tile->k1 - tile->k0,
                                 (ex->flags & CVM_FLAG_JIT) != 0);
    if (!how)
        return 2; /* counted, not run */
    if ((*o_r = callback_group(ex, in, g, NULL, tile->N)) != CVM_SUCCESS)
        return 1;
    cvm_group *cg = g->callback;
    const cvm_block *b = &f->blocks[0];
    const cvm_insn *first = p->insns + b->first;
    uint32_t full = cg->desc.nlanes;
    cvm_result r = CVM_SUCCESS;
    /* leaf_calls' batches and budget */
    for (uint32_t s = tile->k0; s < tile->k1 && r == CVM_SUCCESS; s += full) {
        if ((r = take_budget(cg, first, b->cost)) != CVM_SUCCESS)
            break;
        cg->ex.counts[CVM_COUNT_LEAF_BATCHES]++;
        cvm_decode_tile t = *tile;
        t.k0 = s;
        t.k1 = CVM_MIN(tile->k1 - s, full) + s;
        r = cvm_jit_run_tile(cg->desc.leaves, &cg->ex, func, how, &t, out);
    }
    *o_r = r;
    return 1;
}

cvm_result cvm_callback_run_elements(cvm_exec *ex, const cvm_insn *in, uint32_t func,
                                     uint32_t count, const cvm_val *args, uint32_t nargs,
                                     uint8_t *results, const uint32_t *lanes,
                                     const uint32_t *elems, uint32_t cols)
{
    cvm_group *g = group_of(ex);
    const cvm_program *p = g->prog;
    if (func >= p->nfuncs || !p->funcs[func].lowered)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE, "callback is not a function");
    const cvm_function *f = &p->funcs[func];
    if (nargs != f->nparams)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "callback takes %u parameters, %u were passed", f->nparams, nargs);
    if (ex->depth + 1 > ex->max_depth)
        return cvm_exec_fail(ex, in, CVM_ERROR_LIMIT, "call depth over %u", ex->max_depth);
    if (count == 0)
        return CVM_SUCCESS;
    cvm_result gr = callback_group(ex, in, g, elems, cols);
    if (gr != CVM_SUCCESS)
        return gr;
    cvm_group *cg = g->callback;
    cvm_exec *cex = &cg->ex;
    uint32_t rt = f->return_type;
    uint32_t rsize = rt && p->types[rt].tclass != CVM_TC_NONE ? p->types[rt].size : 0;
    int check = (ex->flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    if (f->leaf && rsize && results && leaf_path_open(cex) &&
        !results_overlap(p, f, args, nargs, count, results, rsize))
        return leaf_calls(cg, f, func, count, args, nargs, results, rsize,
                          ex->leaf_calls_counted);
    /* (the leaf path runs without a context; the others run each call in
     * its lane's) */
    for (uint32_t i = 0; i < count; i++)
        if (lanes[i] >= ex->nlanes)
            return cvm_exec_fail(ex, in, CVM_ERROR_INTERNAL, "callback context lane %u", lanes[i]);
    uint32_t *order = cvm_malloc((size_t)count * sizeof(uint32_t) * (check ? 2 : 1));
    if (!order)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < count; i++)
        order[i] = i;
    if (!check) {
        cvm_result r = callback_pass(cg, g, f, func, order, count, lanes, args, nargs, results, rsize);
        cvm_mem_free(order);
        return r;
    }

    /* Checking mode: pass 0 (results, and the per-invocation memory it
     * leaves) stands; pass 1 reorders, pass 2 also changes the context. */
    uint32_t *other = order + count;
    for (uint32_t i = 0; i < count; i++)
        other[i] = cvm_element_other(ex, in, lanes[i]);
    const cvm_region *pm = &cg->regions[CVM_REGION_CALLER_INVOCATION];
    uint64_t msize = pm->base ? pm->size : 0;
    uint8_t *again = cvm_malloc((size_t)count * rsize + 2 * msize + 1);
    uint8_t *before = again ? again + (size_t)count * rsize : NULL, *after = before + msize;
    cvm_result r = CVM_SUCCESS;
    if (!again) {
        cvm_mem_free(order);
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint64_t seed = 0x5eed ^ ((uint64_t)in->word_off << 20) ^ ex->group_id[0];
    int have_after = 0;
    if (msize)
        memcpy(before, pm->base, msize);
    for (int pass = 0; pass < 3 && r == CVM_SUCCESS; pass++) {
        shuffle(order, count, &seed);
        if (pass && msize)
            memcpy(pm->base, before, msize);
        if (pass) { /* the repeats print and trace nothing: pass 0 stands */
            cex->printf = NULL;
            cex->trace = NULL;
        }
        r = callback_pass(cg, g, f, func, order, count, pass == 2 ? other : lanes, args, nargs,
                          pass ? again : results, rsize);
        if (pass == 0 && msize && r == CVM_SUCCESS) {
            memcpy(after, pm->base, msize);
            have_after = 1;
        }
        if (r != CVM_SUCCESS || pass == 0 || !rsize)
            continue;
        for (uint32_t i = 0; i < count; i++) {
            if (!memcmp(results + (size_t)i * rsize, again + (size_t)i * rsize, rsize))
                continue;
            if (pass == 1)
                r = cvm_exec_fail(ex, in, CVM_ERROR_CALLBACK_MISMATCH,
                                  "callback function %u returned different values for call %u "
                                  "when the calls ran in another order",
                                  f->id, i);
            else
                r = cvm_exec_fail(ex, in, CVM_ERROR_CALLBACK_MISMATCH,
                                  "callback function %u returned different values for call %u "
                                  "in the context of invocation %u than in that of invocation "
                                  "%u of the same scope instance: it reads per-invocation state "
                                  "(Private or Input variables) that is not uniform there",
                                  f->id, i, other[i], lanes[i]);
            break;
        }
    }
    if (have_after)
        memcpy(pm->base, after, msize);
    cvm_mem_free(again);
    cvm_mem_free(order);
    return r;
}
