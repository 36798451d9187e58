/* The compiled tier at run time: the helpers the generated code calls (a
 * memory access's slow path, the budget's refill, the interpreter's lane
 * kernels and handlers, the collective form's frames and notes), and the
 * run of a workgroup, the collective form's schedule of its lanes
 * included. */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

#include "exec/ops/ewise.h"

/* Out of bounds (or not writable): the interpreter's report, or in robust
 * mode the zero page / the sink.  NULL after a failure. */
uint8_t *jit_access_slow(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint32_t region,
                         uint64_t off, uint32_t size, uint32_t write)
{
    cvm_exec *ex = env->ex;
    const cvm_insn *in = &ex->prog->insns[insn];
    if (off >> CVM_ADDR_OFFSET_BITS) {
        if (ex->flags & CVM_FLAG_ROBUST_ACCESS)
            return write ? env->sink : (memset(env->zero, 0, JIT_MAX_ACCESS), env->zero);
        cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                      "invocation %u %s %u bytes at byte offset %lld of region %u, outside it",
                      lane, write ? "stores" : "loads", size, (long long)off, region);
        return NULL;
    }
    int skip = 0;
    uint8_t *h = cvm_mem_access(ex, in, CVM_ADDR(region, off), size, (int)write, lane, &skip);
    if (h)
        return h;
    if (skip)
        return write ? env->sink : (memset(env->zero, 0, JIT_MAX_ACCESS), env->zero);
    return NULL;
}

/* The local budget ran below zero (by -cur): take more from the dispatch's,
 * as take_budget does.  Returns the new local budget, or -1 after the
 * interpreter's failure. */
int64_t jit_refill(cvm_jit_env *env, uint32_t insn, int64_t cur)
{
    cvm_exec *ex = env->ex;
    uint64_t sg = env->sg_size ? env->sg_size : 1;
    while (cur < 0) {
        if (*env->budget_local) {
            /* what is needed, and a stock so that this runs seldom */
            uint64_t need = ((uint64_t)(-cur) + sg - 1) / sg + (UINT64_C(1) << 12);
            uint64_t take = need < *env->budget_local ? need : *env->budget_local;
            *env->budget_local -= take;
            cur += (int64_t)(take * sg);
            continue;
        }
        uint64_t have = __atomic_load_n(ex->budget, __ATOMIC_RELAXED), got = 0;
        uint64_t want = ((uint64_t)(-cur) + sg - 1) / sg;
        want = want > (UINT64_C(1) << 16) ? want : (UINT64_C(1) << 16);
        while (have > 0) {
            uint64_t take = have < want ? have : want;
            if (__atomic_compare_exchange_n(ex->budget, &have, have - take, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
                got = take;
                break;
            }
        }
        if (!got) {
            cvm_exec_fail(ex, &ex->prog->insns[insn], CVM_ERROR_BUDGET_EXCEEDED,
                          "the instruction budget of the dispatch ran out (a runaway loop, or more work than it allows?)");
            return -1;
        }
        *env->budget_local += got;
    }
    return cur;
}

/* The collective form: lane `lane` now waits at instruction `where`, or
 * has returned (JIT_CO_DONE: alive still, as the interpreter keeps a lane
 * that returned from the entry point, whose barriers then fail for it), or
 * was killed (JIT_CO_KILLED: DONE and no longer alive), or failed
 * (JIT_CO_FAILED, ex->diag set). */
void jit_co_note(cvm_jit_env *env, uint32_t lane, uint32_t where)
{
    if (where == JIT_CO_KILLED) {
        env->ex->alive[lane] = 0;
        where = JIT_CO_DONE;
    }
    env->where[lane] = where;
}

/* Lane `lane`'s coroutine frame of `size` bytes (every lane's is as
 * large): a slice of ex->jit_state, which the group keeps for its next
 * workgroups; NULL when out of memory (the lane then fails: jit_co_oom).
 * Frames are never freed one by one (jit_co_free). */
void *jit_co_alloc(cvm_jit_env *env, uint32_t lane, uint64_t size)
{
    cvm_exec *ex = env->ex;
    uint64_t slot = (size + 63) & ~(uint64_t)63;
    if (env->frame_slot != slot) {
        uint64_t need = slot * env->nlanes;
        if (slot == 0 || need / slot != env->nlanes || need > SIZE_MAX)
            return NULL;
        if (ex->jit_state_size < need) {
            void *m = cvm_malloc((size_t)need);
            if (!m)
                return NULL;
            cvm_mem_free(ex->jit_state);
            ex->jit_state = m;
            ex->jit_state_size = (size_t)need;
        }
        env->frame_slot = slot;
    }
    return (uint8_t *)ex->jit_state + (uint64_t)lane * slot;
}

void jit_co_free(void *frame)
{
    (void)frame;
}

/* Lane `lane`'s operation of atomic instruction `insn` (cvm_atomic_lane):
 * 0, or 1 with ex->diag set. */
int32_t jit_atomic(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint64_t addr,
                   const uint8_t *value, const uint8_t *comparator, uint8_t *result)
{
    return cvm_atomic_lane(env->ex, &env->ex->prog->insns[insn], lane, addr, value, comparator,
                           result) != CVM_SUCCESS;
}

/* jit_co_alloc found no memory for lane `lane`'s frame: its failure. */
void jit_co_oom(cvm_jit_env *env, uint32_t lane)
{
    env->where[lane] = JIT_CO_FAILED;
    cvm_exec_fail(env->ex, NULL, CVM_ERROR_OUT_OF_MEMORY,
                  "out of memory for the compiled state of invocation %u", lane);
}

/* A call the interpreter would refuse for its depth (interp.c: a call at
 * depth ex->depth + 1 over ex->max_depth): its failure.  Returns 1. */
int32_t jit_depth_fail(cvm_jit_env *env, uint32_t insn)
{
    cvm_exec *ex = env->ex;
    cvm_exec_fail(ex, &ex->prog->insns[insn], CVM_ERROR_LIMIT, "call depth over %u",
                  ex->max_depth);
    return 1;
}

/* Compiled code in a block cvm_uniform_dead_blocks proved no invocation
 * reaches: the tier's own error, never the shader's.  Returns 1. */
int32_t jit_dead_block(cvm_jit_env *env, uint32_t insn)
{
    cvm_exec *ex = env->ex;
    cvm_exec_fail(ex, &ex->prog->insns[insn], CVM_ERROR_INTERNAL,
                  "the compiled code reached a block proven unreachable");
    return 1;
}

/* Variable `var` of per-invocation memory, lane `lane`'s copy, set to
 * constant `init` (register layout to the variable's memory layout), as
 * interp.c apply_initializers sets a Private variable and h_variable_init a
 * Function one.  Returns 0. */
int32_t jit_init_mem(cvm_jit_env *env, uint32_t var, uint32_t init, uint32_t lane)
{
    const cvm_program *p = env->ex->prog;
    uint32_t type = p->types[p->mod->defs[var].type].elem;
    cvm_copy_reg_to_mem(p, type,
                        env->regions[CVM_REGION_INVOCATION].base + (uint64_t)lane * p->inv_size +
                            p->var_offset[var],
                        p->const_data + p->const_offset[init]);
    return 0;
}

/* OpStore `insn` of a constant of a type the code holds no value of (an
 * array, a struct) through region `region` at offset `off`, in its
 * memory layout, checked as the interpreter's store checks it.  0, or 1
 * after a failure. */
int32_t jit_store_const(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint32_t region,
                        uint64_t off)
{
    cvm_exec *ex = env->ex;
    const cvm_program *p = ex->prog;
    const cvm_insn *in = &p->insns[insn];
    uint32_t type = in->type; /* (the memory layout, as h_store's) */
    int skip = 0;
    uint8_t *h = NULL;
    if (!(off >> CVM_ADDR_OFFSET_BITS))
        h = cvm_mem_access(ex, in, CVM_ADDR(region, off), p->types[type].mem_size, 1, lane, &skip);
    else if (ex->flags & CVM_FLAG_ROBUST_ACCESS)
        skip = 1;
    else
        cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                      "invocation %u stores %u bytes at byte offset %lld of region %u, outside it",
                      lane, p->types[type].mem_size, (long long)off, region);
    if (!h)
        return skip ? 0 : 1;
    cvm_copy_reg_to_mem(p, type, h, p->const_data + p->const_offset[in->b]);
    return 0;
}

/* OpLoad or OpStore `insn` of a whole array or struct (agg_type_ok),
 * between region `region` at offset `off` (memory layout: the
 * instruction's type, the pointer's layout as h_load and h_store read it)
 * and the value's copy at `val` (register layout), checked and copied as
 * the interpreter's load or store checks and copies it: the memory
 * layout's bytes in bounds, or the failure (robust mode: zeros read, the
 * store dropped).  0, or 1 after a failure. */
int32_t jit_agg(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint32_t region,
                uint64_t off, uint8_t *val, uint32_t write)
{
    cvm_exec *ex = env->ex;
    const cvm_program *p = ex->prog;
    const cvm_insn *in = &p->insns[insn];
    const cvm_type *t = &p->types[in->type];
    int skip = 0;
    uint8_t *h = NULL;
    if (!(off >> CVM_ADDR_OFFSET_BITS))
        h = cvm_mem_access(ex, in, CVM_ADDR(region, off), t->mem_size, (int)write, lane, &skip);
    else if (ex->flags & CVM_FLAG_ROBUST_ACCESS)
        skip = 1;
    else
        cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                      "invocation %u %s %u bytes at byte offset %lld of region %u, outside it",
                      lane, write ? "stores" : "loads", t->mem_size, (long long)off, region);
    if (!h) {
        if (!skip)
            return 1;
        if (!write) /* robust: zeros */
            memset(val, 0, t->size);
        return 0;
    }
    if (write)
        cvm_copy_reg_to_mem(p, in->type, h, val);
    else
        cvm_copy_mem_to_reg(p, in->type, val, h);
    return 0;
}

/* The scope form: a CVM_INSN_UNIFORM instruction run by its handler for
 * lane 0 alone, as interp.c run_uniform runs it (every lane is active in
 * this form, so lane 0 is the first active one). */
int32_t jit_uniform_handler(cvm_jit_env *env, uint32_t insn)
{
    cvm_exec *ex = env->ex;
    const cvm_insn *in = &ex->prog->insns[insn];
    uint32_t n = ex->nlanes, na = ex->nactive;
    uint8_t *act = ex->active, one = 1;
    ex->nlanes = 1;
    ex->active = &one;
    ex->nactive = 1;
    cvm_result r = in->fn(ex, in);
    ex->nlanes = n;
    ex->active = act;
    ex->nactive = na;
    return r != CVM_SUCCESS;
}

/* Bytes of one copy of slot value `id` of type `tid`, and in *o_count its
 * copies: a subgroup-scope matrix one per subgroup, a workgroup-scope
 * one one, any other value one per lane (a uniform one, at stride 0,
 * one). */
static size_t slot_bytes(const cvm_exec *ex, uint32_t tid, uint32_t id, uint32_t *o_count)
{
    const cvm_type *t = &ex->prog->types[tid];
    uint32_t count = 1;
    if (t->tclass == CVM_TC_COOPMAT) {
        if (t->scope != SpvScopeWorkgroup)
            count = ex->nsub;
    } else if (ex->vals[id].stride) {
        count = ex->nlanes;
    }
    *o_count = count;
    return t->size;
}

/* The scope form, on the edge from block `from` to block `bi` of the entry
 * point: the phis of `bi` whose values stay in the interpreter's slots
 * (slot_phi) take their incoming values from `from`, all read before any
 * is written (a parallel copy, as run_block_impl makes).  0, or 1 after a
 * failure. */
int32_t jit_slot_phis(cvm_jit_env *env, uint32_t bi, uint32_t from)
{
    cvm_exec *ex = env->ex;
    const cvm_program *p = ex->prog;
    const cvm_block *b = &p->funcs[p->entry].blocks[bi];
    size_t need = 0;
    for (uint32_t ii = b->first; ii < b->first + b->count && p->insns[ii].cf == CVM_CF_PHI; ii++) {
        uint32_t count;
        if (env->jit->slot_phi[ii])
            need += slot_bytes(ex, p->insns[ii].type, p->insns[ii].result, &count) * count + 16;
    }
    if (need > ex->scratch_size) {
        uint8_t *ns = cvm_realloc(ex->scratch, need);
        if (!ns) {
            cvm_exec_fail(ex, &p->insns[b->first], CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            return 1;
        }
        ex->scratch = ns;
        ex->scratch_size = need;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (uint32_t ii = b->first; ii < b->first + b->count && p->insns[ii].cf == CVM_CF_PHI;
             ii++) {
            const cvm_insn *ph = &p->insns[ii];
            if (!env->jit->slot_phi[ii])
                continue;
            uint32_t count;
            size_t size = slot_bytes(ex, ph->type, ph->result, &count);
            uint8_t *tmp = ex->scratch + at;
            at += size * count + 16;
            /* (a value of each lane: the active lanes', those that come
             * from `from`; all of them but in a divergent selection's arm) */
            int lanes = count == ex->nlanes && p->types[ph->type].tclass != CVM_TC_COOPMAT;
            if (pass == 1) {
                cvm_val dst = ex->vals[ph->result];
                for (uint32_t i = 0; i < count; i++)
                    if (!lanes || ex->active[i])
                        memcpy(dst.p + (size_t)i * dst.stride, tmp + i * size, size);
                continue;
            }
            const uint32_t *pairs = p->extra + ph->extra;
            uint32_t k = 0;
            while (k + 1 < ph->nextra && pairs[k + 1] != from)
                k += 2;
            if (k + 1 >= ph->nextra) {
                cvm_exec_fail(ex, ph, CVM_ERROR_INVALID_MODULE,
                              "OpPhi has no value for the block invocation 0 came from");
                return 1;
            }
            cvm_val src = ex->vals[pairs[k]];
            if (!src.p || !ex->vals[ph->result].p) {
                cvm_exec_fail(ex, ph, CVM_ERROR_INVALID_MODULE, "OpPhi names a value it cannot read");
                return 1;
            }
            for (uint32_t i = 0; i < count; i++)
                if (!lanes || ex->active[i])
                    memcpy(tmp + i * size, src.p + (size_t)i * src.stride, size);
        }
    }
    return 0;
}

/* The scope form: lane 0's `size` bytes of slot `id` copied to every other
 * lane's (a value the same in every lane, its slot one per lane). */
int32_t jit_slot_broadcast(cvm_jit_env *env, uint32_t id, uint32_t size)
{
    cvm_exec *ex = env->ex;
    cvm_val v = ex->vals[id];
    if (v.stride && v.p)
        for (uint32_t l = 1; l < ex->nlanes; l++)
            memcpy(v.p + (size_t)l * v.stride, v.p, size);
    return 0;
}

/* The scope form's divergent selections (jit_scope.c mark_divergent), at
 * nesting depth `depth`: on entry, the active lanes kept and those whose
 * Boolean `cond` is true made active, the others kept for the false arm;
 * then those; then the kept ones again.  Each returns how many lanes are
 * active now (ex->nactive). */
static int32_t set_active(cvm_exec *ex, const uint8_t *mask)
{
    uint32_t na = 0;
    for (uint32_t l = 0; l < ex->nlanes; l++)
        na += ex->active[l] = mask[l];
    ex->nactive = na;
    return (int32_t)na;
}

/* The active lanes whose Boolean `cond` is `when` (0 or 1) left active,
 * the other active ones marked in `rest`. */
static int32_t split_active(cvm_exec *ex, uint32_t cond, uint32_t when, uint8_t *rest)
{
    cvm_val c = ex->vals[cond];
    uint32_t na = 0;
    for (uint32_t l = 0; l < ex->nlanes; l++) {
        uint8_t a = ex->active[l], t = (uint8_t)(a && (CVM_LANE(c, l)[0] != 0) == (when != 0));
        rest[l] = (uint8_t)(a && !t);
        na += ex->active[l] = t;
    }
    ex->nactive = na;
    return (int32_t)na;
}

int32_t jit_div_enter(cvm_jit_env *env, uint32_t cond, uint32_t depth)
{
    cvm_exec *ex = env->ex;
    uint8_t *kept = env->masks + (size_t)depth * 2 * ex->nlanes;
    memcpy(kept, ex->active, ex->nlanes);
    return split_active(ex, cond, 1, kept + ex->nlanes);
}

int32_t jit_div_else(cvm_jit_env *env, uint32_t depth)
{
    cvm_exec *ex = env->ex;
    return set_active(ex, env->masks + ((size_t)depth * 2 + 1) * ex->nlanes);
}

/* A divergent loop at depth `depth`: on the way in, the active lanes
 * kept (jit_div_exit brings them back where it ends); at an exit on
 * Boolean `cond` (the lanes whose `cond` is `exit_if` leave), those lanes
 * made active, the ones that stay kept for jit_div_else. */
int32_t jit_loop_enter(cvm_jit_env *env, uint32_t depth)
{
    cvm_exec *ex = env->ex;
    memcpy(env->masks + (size_t)depth * 2 * ex->nlanes, ex->active, ex->nlanes);
    return (int32_t)ex->nactive;
}

int32_t jit_loop_exit_begin(cvm_jit_env *env, uint32_t cond, uint32_t exit_if, uint32_t depth)
{
    cvm_exec *ex = env->ex;
    return split_active(ex, cond, exit_if, env->masks + ((size_t)depth * 2 + 1) * ex->nlanes);
}

int32_t jit_div_exit(cvm_jit_env *env, uint32_t depth)
{
    cvm_exec *ex = env->ex;
    return set_active(ex, env->masks + (size_t)depth * 2 * ex->nlanes);
}

void jit_arith(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
               const uint8_t *c)
{
    cvm_arith_eval_lane(in, r, a, b, c);
}

void jit_convert(const cvm_insn *in, uint8_t *r, const uint8_t *a)
{
    cvm_convert_eval_lane(in, r, a);
}

void jit_glsl(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
              const uint8_t *c)
{
    cvm_glsl_eval_lane(in, r, a, b, c);
}

/* Resumes each lane ex->active marks, lowest index first, clearing its
 * mark: it runs to its next wait or its end.  Returns 1 when one failed
 * (ex->diag set). */
static int resume_active(const cvm_jit *j, cvm_exec *ex, void **h, uint32_t *where)
{
    for (uint32_t l = 0; l < ex->nlanes; l++) {
        if (!ex->active[l])
            continue;
        ex->active[l] = 0;
        where[l] = JIT_CO_RUNNING;
        j->co_resume(h[l]);
        if (where[l] == JIT_CO_FAILED)
            return 1;
    }
    return 0;
}

/* The lanes of run_collective wait at different places: a subgroup
 * instruction of Subgroup scope runs for each subgroup whose every lane
 * still running waits at it (a block convergent within subgroups,
 * cvm_block.convergent_sg: the lanes of other subgroups went another way),
 * and those lanes go on, each to its next place.  When no subgroup can go
 * on -- the lanes wait at different barriers, or a subgroup is split --
 * CVM_ERROR_DIVERGENT_COLLECTIVE.  Updates *io_at, *io_waiting and
 * *io_apart for the lanes now waiting; returns 1 on failure. */
static int subgroups_turn(const cvm_jit *j, cvm_exec *ex, void **h, uint32_t *where,
                          uint32_t *io_at, uint32_t *io_waiting, int *io_apart)
{
    const cvm_program *p = j->prog;
    uint32_t n = ex->nlanes, sg = ex->sg_size ? ex->sg_size : 1;
    int progressed = 0;
    for (uint32_t l = 0; l < n; l++)
        ex->active[l] = 0;
    /* each place some lane waits at, in lane order */
    for (uint32_t first = 0; first < n; first++) {
        uint32_t at = where[first];
        if (at >= p->ninsns)
            continue;
        const cvm_insn *in = &p->insns[at];
        int seen = 0; /* (a lower lane waits here too: done already) */
        for (uint32_t l = 0; l < first && !seen; l++)
            seen = where[l] == at;
        if (seen || in->spv_op == SpvOpControlBarrier || (in->flags & CVM_INSN_WORKGROUP_SCOPE))
            continue;
        uint32_t lanes = 0;
        for (uint32_t s0 = 0; s0 < n; s0 += sg) {
            uint32_t e = s0 + sg < n ? s0 + sg : n, here = 0, other = 0;
            for (uint32_t l = s0; l < e; l++) {
                here += where[l] == at;
                other += where[l] != at && where[l] != JIT_CO_DONE;
            }
            if (!here || other)
                continue;
            for (uint32_t l = s0; l < e; l++)
                ex->active[l] = where[l] == at;
            lanes += here;
        }
        if (!lanes)
            continue;
        ex->nactive = lanes;
        if (in->fn(ex, in) != CVM_SUCCESS)
            return 1;
        if (resume_active(j, ex, h, where))
            return 1;
        progressed = 1;
    }
    if (!progressed) {
        cvm_exec_fail(ex, NULL, CVM_ERROR_DIVERGENT_COLLECTIVE,
                      "invocations did not reach a barrier together: some wait at another "
                      "barrier or subgroup instruction");
        return 1;
    }
    /* where the lanes wait now, and whether all at one place */
    uint32_t at = JIT_CO_DONE, waiting = 0;
    int apart = 0;
    for (uint32_t l = 0; l < n; l++) {
        if (where[l] == JIT_CO_DONE)
            continue;
        ex->active[l] = 1;
        apart |= waiting++ && where[l] != at;
        at = where[l];
    }
    *io_at = at;
    *io_waiting = waiting;
    *io_apart = apart;
    return 0;
}

/* The block-ordered form's run once every lane has started: the
 * interpreter's schedule (interp.c run_function) over the entry point's
 * blocks that are not convergent.  Lanes wait at the start of such a
 * block; the lowest block some lane waits at runs next, with exactly the
 * lanes that wait there, each resumed in turn; a collective instruction
 * of that block runs over those lanes once they all wait at it.  Lanes in
 * convergent blocks run on by themselves: every lane still running
 * reaches those together, so a collective there runs once no lane is
 * elsewhere.  Returns 1 on failure (ex->diag set). */
static int run_ordered(const cvm_jit *j, cvm_exec *ex, void **h, uint32_t *where)
{
    const cvm_program *p = j->prog;
    uint32_t n = ex->nlanes;
    for (;;) {
        /* What runs next, by one minimum over the lanes: place codes less
         * 0x40000000 put a collective of the block running now (SYNC) in
         * 0x0..., block starts (ENTRY) in 0x4... by block, and the
         * collectives of convergent blocks in 0xc...; an ended lane is the
         * largest.  (Branch-free, so that the scan vectorizes.) */
        uint32_t least = UINT32_MAX;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t w = where[l];
            uint32_t k = w == JIT_CO_DONE ? UINT32_MAX : w - JIT_CO_SYNC;
            least = k < least ? k : least;
        }
        if (least == UINT32_MAX)
            return 0; /* every lane has ended */
        uint32_t want = least + JIT_CO_SYNC;
        if (want >= JIT_CO_KILLED) {
            cvm_exec_fail(ex, NULL, CVM_ERROR_INTERNAL, "a compiled lane waits nowhere");
            return 1;
        }
        /* the lanes to go on, and those of the same kind waiting elsewhere:
         * none may for a collective (the block's lanes reach it together;
         * in a convergent block, every lane still running) */
        uint32_t na = 0, apart = 0, kind = want & (JIT_CO_SYNC | JIT_CO_ENTRY);
        for (uint32_t l = 0; l < n; l++) {
            uint32_t w = where[l];
            uint8_t a = w == want;
            ex->active[l] = a;
            na += a;
            apart += !a && w != JIT_CO_DONE && (w & (JIT_CO_SYNC | JIT_CO_ENTRY)) == kind;
        }
        ex->nactive = na;
        if (!(want & JIT_CO_ENTRY)) {
            if (apart && (want & JIT_CO_SYNC)) {
                cvm_exec_fail(ex, NULL, CVM_ERROR_INTERNAL,
                              "compiled lanes of one block wait at different instructions");
                return 1;
            }
            if (apart) {
                cvm_exec_fail(ex, NULL, CVM_ERROR_DIVERGENT_COLLECTIVE,
                              "invocations did not reach a barrier together: some wait at "
                              "another barrier or subgroup instruction");
                return 1;
            }
            const cvm_insn *in = &p->insns[want & ~JIT_CO_SYNC];
            if (in->fn(ex, in) != CVM_SUCCESS)
                return 1;
        }
        if (resume_active(j, ex, h, where))
            return 1;
    }
}

/* The collective form's group: every lane's coroutine started, then,
 * while some lane runs, the collective they all wait at run and each of
 * them resumed, lane by lane (see emit_collective).  A lane that ends is
 * no longer active for the collectives after. */
static cvm_result run_collective(const cvm_jit *j, cvm_exec *ex, cvm_jit_env *env)
{
    const cvm_program *p = j->prog;
    uint32_t n = ex->nlanes;
    /* the handles and places, kept by the group for its next workgroups */
    size_t need = (size_t)(n ? n : 1) * (sizeof(void *) + sizeof(uint32_t));
    if (ex->jit_lanes_size < need) {
        void *m = cvm_malloc(need);
        if (!m)
            return cvm_exec_fail(ex, NULL, CVM_ERROR_OUT_OF_MEMORY,
                                 "out of memory for the compiled state of %u invocations", n);
        cvm_mem_free(ex->jit_lanes);
        ex->jit_lanes = m;
        ex->jit_lanes_size = need;
    }
    void **h = ex->jit_lanes;
    uint32_t *where = (uint32_t *)(void *)(h + (n ? n : 1));
    memset(h, 0, (size_t)(n ? n : 1) * sizeof(void *));
    env->where = where;
    int failed = 0, apart = 0;
    uint32_t at = JIT_CO_DONE, waiting = 0; /* where the lanes run so far wait, how many */
    for (uint32_t l = 0; l < n; l++) {
        where[l] = JIT_CO_RUNNING;
        ex->active[l] = 0;
    }
    for (uint32_t l = 0; l < n && !failed; l++) {
        if (!ex->alive[l]) {
            where[l] = JIT_CO_DONE;
            continue;
        }
        h[l] = j->co_fn(env, l);
        if (where[l] == JIT_CO_FAILED) {
            failed = 1;
        } else if (where[l] != JIT_CO_DONE) {
            ex->active[l] = 1;
            apart |= waiting++ && where[l] != at;
            at = where[l];
        }
    }
    if (!failed && j->ordered)
        failed = run_ordered(j, ex, h, where);
    while (!failed && !j->ordered && waiting) {
        if (apart) { /* lanes wait at different places: a subgroup's turn */
            failed = subgroups_turn(j, ex, h, where, &at, &waiting, &apart);
            continue;
        }
        if (at >= p->ninsns) {
            cvm_exec_fail(ex, NULL, CVM_ERROR_INTERNAL, "a compiled lane waits nowhere");
            failed = 1;
            break;
        }
        const cvm_insn *in = &p->insns[at];
        ex->nactive = waiting;
        if (in->fn(ex, in) != CVM_SUCCESS) {
            failed = 1;
            break;
        }
        uint32_t next = JIT_CO_DONE, still = 0;
        for (uint32_t l = 0; l < n && !failed; l++) {
            if (where[l] != at)
                continue;
            where[l] = JIT_CO_RUNNING;
            j->co_resume(h[l]);
            if (where[l] == JIT_CO_FAILED) {
                failed = 1;
            } else if (where[l] == JIT_CO_DONE) {
                ex->active[l] = 0;
            } else {
                apart |= still++ && where[l] != next;
                next = where[l];
            }
        }
        at = next;
        waiting = still;
    }
    for (uint32_t l = 0; l < n; l++)
        if (h[l])
            j->co_destroy(h[l]);
    env->where = NULL;
    return failed ? (ex->diag && ex->diag->result != CVM_SUCCESS ? ex->diag->result
                                                                  : CVM_ERROR_INTERNAL)
                  : CVM_SUCCESS;
}

cvm_result cvm_jit_run_group(const cvm_jit *j, cvm_exec *ex, uint64_t *budget_local)
{
    if (j->max_region >= ex->nregions)
        return cvm_exec_fail(ex, NULL, CVM_ERROR_MISSING_BINDING,
                             "the compiled shader reads region %u, the dispatch has %u",
                             j->max_region, ex->nregions);
    _Alignas(16) uint8_t zero[JIT_MAX_ACCESS], sink[JIT_MAX_ACCESS];
    cvm_jit_env env;
    memset(&env, 0, sizeof(env));
    env.regions = ex->regions;
    env.ex = ex;
    env.nlanes = ex->nlanes;
    env.sg_size = ex->sg_size ? ex->sg_size : 1;
    memcpy(env.group_id, ex->group_id, sizeof(env.group_id));
    memcpy(env.num_groups, ex->num_groups, sizeof(env.num_groups));
    env.budget = 0;
    env.budget_local = budget_local;
    env.zero = zero;
    env.sink = sink;
    env.nregions = ex->nregions;
    env.jit = j;
    if (j->div_depth) { /* jit_div_enter's masks, kept by the group */
        size_t need = (size_t)j->div_depth * 2 * (ex->nlanes ? ex->nlanes : 1);
        if (ex->jit_lanes_size < need) {
            void *m = cvm_malloc(need);
            if (!m)
                return cvm_exec_fail(ex, NULL, CVM_ERROR_OUT_OF_MEMORY,
                                     "out of memory for the compiled state of %u invocations",
                                     ex->nlanes);
            cvm_mem_free(ex->jit_lanes);
            ex->jit_lanes = m;
            ex->jit_lanes_size = need;
        }
        env.masks = ex->jit_lanes;
    }
    int32_t rc = j->collective ? run_collective(j, ex, &env) != CVM_SUCCESS : j->fn(&env);
    if (j->collective)
        ex->counts[CVM_COUNT_JIT_COLLECTIVE]++;
    ex->counts[CVM_COUNT_JIT_GROUPS]++;
    /* unused invocation instructions back to the group, whole subgroup ones */
    if (env.budget > 0)
        *budget_local += (uint64_t)env.budget / env.sg_size;
    if (rc == 0)
        return CVM_SUCCESS;
    return ex->diag && ex->diag->result != CVM_SUCCESS ? ex->diag->result : CVM_ERROR_INTERNAL;
}

#endif /* CVM_HAVE_LLVM */
