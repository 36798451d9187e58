/* Leaf callbacks (jit.h cvm_jit_leaves): a leaf's parameters as its batch
 * and tile forms pass them, each form compiled at its first need into a
 * module of its own, one thread at a time, and the runs of compiled
 * batches and tiles. */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

#include <pthread.h>
#include <stdio.h>

#include "exec/ops/tensor_layout.h"

/* A leaf's parameters for call `lane`: parameter k's value in register
 * layout at args[k].p + lane * args[k].stride.  Scalars and vectors become
 * values; a pointer (the address a DecodeFunc is passed) a JP_ADDR; an array
 * of scalars stays where it is, for OpCompositeExtract to read. */
cvm_result emit_params(jctx *j)
{
    const cvm_function *f = j->f;
    LLVMValueRef args = LLVMGetParam(j->fn, 1);
    LLVMValueRef lane64 = LLVMBuildZExt(j->B, j->lane, j->i64, "");
    for (uint32_t k = 0; k < f->nparams; k++) {
        uint32_t id = f->params[k];
        uint32_t tid = id < j->p->bound ? j->mod->defs[id].type : 0;
        if (!tid || tid >= j->p->ntypes)
            return jit_unsupported(j, UINT32_MAX, "this parameter");
        /* the argument's base and stride, read once before the calls */
        LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
        LLVMPositionBuilderBefore(j->B, LLVMGetBasicBlockTerminator(LLVMGetEntryBasicBlock(j->fn)));
        LLVMValueRef i0[2] = {c_i32(j, k), c_i32(j, 0)}, i1[2] = {c_i32(j, k), c_i32(j, 1)};
        LLVMValueRef base = LLVMBuildLoad2(j->B, j->ptr8,
                                           LLVMBuildInBoundsGEP2(j->B, j->val_t, args, i0, 2, ""), "");
        LLVMValueRef stride = LLVMBuildLoad2(j->B, j->i32,
                                             LLVMBuildInBoundsGEP2(j->B, j->val_t, args, i1, 2, ""), "");
        stride = LLVMBuildZExt(j->B, stride, j->i64, "");
        LLVMPositionBuilderAtEnd(j->B, cur);
        LLVMValueRef at = LLVMBuildMul(j->B, lane64, stride, "");
        LLVMValueRef pp = LLVMBuildGEP2(j->B, j->i8, base, &at, 1, "");
        const cvm_type *t = type_of(j, tid);
        LLVMTypeRef ty = value_type(j, tid);
        if (ty) {
            uint32_t n = ncomp_of(j, tid);
            int is_bool = comp_sk(j, tid) == CVM_SK_BOOL;
            LLVMTypeRef lt = is_bool ? (n > 1 ? LLVMVectorType(j->i8, n) : j->i8) : ty;
            LLVMValueRef v = LLVMBuildLoad2(j->B, lt, LLVMBuildBitCast(j->B, pp, LLVMPointerType(lt, 0), ""), "");
            LLVMSetAlignment(v, 1);
            if (is_bool)
                v = LLVMBuildICmp(j->B, LLVMIntNE, v, LLVMConstNull(lt), "");
            j->vals[id] = v;
        } else if (t->tclass == CVM_TC_POINTER && t->size == 8) {
            LLVMValueRef a = LLVMBuildLoad2(j->B, j->i64, LLVMBuildBitCast(j->B, pp, LLVMPointerType(j->i64, 0), ""), "");
            LLVMSetAlignment(a, 1);
            jptr *pt = &j->ptrs[id];
            memset(pt, 0, sizeof(*pt));
            pt->kind = JP_ADDR;
            pt->type = t->elem;
            pt->dreg = LLVMBuildTrunc(j->B, LLVMBuildLShr(j->B, a, c_i64(j, CVM_ADDR_OFFSET_BITS), ""), j->i32, "");
            pt->off = LLVMBuildAnd(j->B, a, c_i64(j, (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1), "");
            pt->comp = UINT32_MAX;
        } else if (t->tclass == CVM_TC_ARRAY && t->count > 0 && t->elem < j->p->ntypes &&
                   value_type(j, t->elem) && ncomp_of(j, t->elem) == 1 &&
                   comp_sk(j, t->elem) != CVM_SK_BOOL &&
                   t->size == t->count * type_of(j, t->elem)->size) {
            j->arrs[id] = pp;
        } else {
            return jit_unsupported(j, UINT32_MAX, "a parameter of this type");
        }
    }
    return CVM_SUCCESS;
}

LLVMValueRef tile_field(jctx *j, LLVMValueRef tp, size_t off, LLVMTypeRef ty)
{
    LLVMValueRef o = c_i64(j, off);
    LLVMValueRef p = LLVMBuildGEP2(j->B, j->i8, tp, &o, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(j->B, ty, LLVMBuildBitCast(j->B, p, LLVMPointerType(ty, 0), ""), "");
    return jit_invariant(j, v);
}

/* Field `off` (bytes) of split-plan part `idx` of the array at `arr`. */
static LLVMValueRef part_field(jctx *j, LLVMValueRef arr, LLVMValueRef idx, size_t off,
                               LLVMTypeRef ty)
{
    LLVMValueRef at = LLVMBuildAdd(j->B, LLVMBuildMul(j->B, LLVMBuildZExt(j->B, idx, j->i64, ""),
                                                      c_i64(j, sizeof(cvm_tensor_element)), ""),
                                   c_i64(j, off), "");
    LLVMValueRef p = LLVMBuildGEP2(j->B, j->i8, arr, &at, 1, "");
    return jit_invariant(j, LLVMBuildLoad2(j->B, ty, LLVMBuildBitCast(j->B, p, LLVMPointerType(ty, 0), ""), ""));
}

/* A DecodeFunc's parameters for element (tile_row, tile_col) of a tile
 * (cvm_decode_tile): the pointer base + (rows[r].index + cols[c].index) *
 * psize (every index checked in range by the caller), blockCoord and
 * coordInBlock merged from the row's and the column's parts (dimension p
 * the column's) into two stack arrays, zero past the layout's dimensions
 * as the parts are. */
cvm_result emit_tile_params(jctx *j)
{
    const cvm_function *f = j->f;
    if (f->nparams != 3)
        return jit_unsupported(j, UINT32_MAX, "a DecodeFunc of this signature");
    const cvm_type *pt = type_of(j, j->mod->defs[f->params[0]].type);
    if (pt->tclass != CVM_TC_POINTER || pt->size != 8)
        return jit_unsupported(j, UINT32_MAX, "a DecodeFunc of this signature");
    LLVMValueRef ri = part_field(j, j->tile_rows, j->tile_row, offsetof(cvm_tensor_element, index), j->i64);
    LLVMValueRef ci = part_field(j, j->tile_cols, j->tile_col, offsetof(cvm_tensor_element, index), j->i64);
    LLVMValueRef index = LLVMBuildAdd(j->B, ri, ci, "");
    LLVMValueRef mask = c_i64(j, (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1);
    jptr *ptr = &j->ptrs[f->params[0]];
    memset(ptr, 0, sizeof(*ptr));
    ptr->kind = JP_ADDR;
    ptr->type = pt->elem;
    ptr->comp = UINT32_MAX;
    ptr->rel_known = 1;
    ptr->dreg = LLVMBuildTrunc(j->B, LLVMBuildLShr(j->B, j->tile_base, c_i64(j, CVM_ADDR_OFFSET_BITS), ""),
                               j->i32, "");
    ptr->off = LLVMBuildAdd(j->B, LLVMBuildAnd(j->B, j->tile_base, mask, ""),
                            LLVMBuildMul(j->B, index, j->tile_psize, ""), "");
    for (uint32_t k = 1; k < 3; k++) {
        uint32_t id = f->params[k];
        const cvm_type *at = type_of(j, j->mod->defs[id].type);
        if (at->tclass != CVM_TC_ARRAY || at->elem >= j->p->ntypes ||
            type_of(j, at->elem)->tclass != CVM_TC_INT || type_of(j, at->elem)->size != 4 ||
            at->size != at->count * 4u)
            return jit_unsupported(j, UINT32_MAX, "a DecodeFunc of this signature");
        /* the array, on the stack (LLVM keeps its elements in registers) */
        LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
        LLVMPositionBuilderBefore(j->B, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(j->fn)));
        LLVMValueRef slot = LLVMBuildAlloca(j->B, LLVMArrayType(j->i32, at->count), "");
        LLVMPositionBuilderAtEnd(j->B, cur);
        size_t field = k == 1 ? offsetof(cvm_tensor_element, blockCoord)
                              : offsetof(cvm_tensor_element, coordInBlock);
        for (uint32_t d = 0; d < at->count; d++) {
            LLVMValueRef v = c_i32(j, 0);
            if (d < CVM_TENSOR_MAX_DIM) {
                LLVMValueRef rv = part_field(j, j->tile_rows, j->tile_row, field + 4u * d, j->i32);
                LLVMValueRef cv = part_field(j, j->tile_cols, j->tile_col, field + 4u * d, j->i32);
                LLVMValueRef isp = LLVMBuildICmp(j->B, LLVMIntEQ, j->tile_p, c_i32(j, d), "");
                v = LLVMBuildSelect(j->B, isp, cv, rv, "");
            }
            LLVMValueRef idx[2] = {c_i32(j, 0), c_i32(j, d)};
            LLVMBuildStore(j->B, v, LLVMBuildInBoundsGEP2(j->B, LLVMArrayType(j->i32, at->count),
                                                          slot, idx, 2, ""));
        }
        j->arrs[id] = LLVMBuildBitCast(j->B, slot, j->ptr8, "");
    }
    return CVM_SUCCESS;
}

/* The three forms a leaf compiles to, each on first need. */
enum { V_BATCH, V_TILE, V_TILE_U, V_COUNT };

struct cvm_jit_leaves {
    const cvm_program *prog;
    pthread_mutex_t lock;  /* held while compiling */
    uint64_t calls;        /* calls counted so far (atomic) */
    int hot;               /* calls reached CVM_JIT_LEAF_MIN_CALLS (atomic) */
    LLVMOrcLLJITRef lljit; /* made at the first compilation; every module goes into it */
    /* per function index and form (fi * V_COUNT + v): 0 not tried, 1
     * compiled (code), -1 not taken (atomic; code written before state) */
    int *state;
    void **code;
    /* V_TILE_U: the bytes past the pointer a call is passed that its
     * accesses reach, [acc_lo, acc_hi) (written with its code) */
    uint64_t *acc_lo, *acc_hi;
    uint32_t max_region; /* regions the code reads: 0 .. max_region */
    /* why the tier did not take a batch or tile form, of the lowest function
     * index so far (why_func UINT32_MAX: none), for cvm_jit_leaves_report */
    uint32_t why_func;
    cvm_diagnostic why;
};

cvm_jit_leaves *cvm_jit_leaves_create(const cvm_program *prog)
{
    uint32_t nleaves = 0;
    for (uint32_t fi = 0; fi < prog->nfuncs; fi++)
        nleaves += prog->funcs[fi].lowered && prog->funcs[fi].leaf;
    if (!nleaves || !cvm_jit_available())
        return NULL;
    cvm_jit_leaves *lv = cvm_calloc(1, sizeof(*lv));
    if (!lv)
        return NULL;
    size_t n = (size_t)prog->nfuncs * V_COUNT;
    lv->state = cvm_calloc(n, sizeof(int));
    lv->code = cvm_calloc(n, sizeof(void *));
    lv->acc_lo = cvm_calloc((size_t)prog->nfuncs * 2u, sizeof(uint64_t));
    if (!lv->state || !lv->code || !lv->acc_lo) {
        cvm_mem_free(lv->state);
        cvm_mem_free(lv->code);
        cvm_mem_free(lv->acc_lo);
        cvm_mem_free(lv);
        return NULL;
    }
    lv->acc_hi = lv->acc_lo + prog->nfuncs;
    lv->prog = prog;
    lv->why_func = UINT32_MAX;
    pthread_mutex_init(&lv->lock, NULL);
    return lv;
}

void cvm_jit_leaves_destroy(cvm_jit_leaves *lv)
{
    if (!lv)
        return;
    if (lv->lljit)
        LLVMOrcDisposeLLJIT(lv->lljit);
    pthread_mutex_destroy(&lv->lock);
    cvm_mem_free(lv->state);
    cvm_mem_free(lv->code);
    cvm_mem_free(lv->acc_lo);
    cvm_mem_free(lv);
}

/* Keeps `why` form v of leaf fi was not taken (under lv->lock), when it is
 * of the lowest function so far; the unchecked tile form's absence is no
 * refusal (the checked form runs such tiles). */
static void keep_why(cvm_jit_leaves *lv, uint32_t fi, uint32_t v, const cvm_diagnostic *why)
{
    if (v == V_TILE_U || fi >= lv->why_func)
        return;
    const spv_module *mod = lv->prog->mod;
    uint32_t id = lv->prog->funcs[fi].id;
    const char *name = spv_module_name(mod, id);
    lv->why_func = fi;
    lv->why = *why;
    /* the message names the function: "function %N (name): ..." */
    cvm_diag_set(&lv->why, why->result != CVM_SUCCESS ? why->result : CVM_ERROR_UNSUPPORTED,
                 "leaf function %%%u%s%s%s: %.600s", id, name && name[0] ? " (" : "",
                 name && name[0] ? name : "", name && name[0] ? ")" : "",
                 why->result != CVM_SUCCESS ? why->message : "the compiled tier does not take it");
}

void cvm_jit_leaves_report(cvm_jit_leaves *lv, uint32_t *o_functions, uint32_t *o_compiled,
                           uint32_t *o_not_taken, cvm_diagnostic *o_why)
{
    *o_functions = *o_compiled = *o_not_taken = 0;
    if (!lv)
        return;
    const cvm_program *p = lv->prog;
    pthread_mutex_lock(&lv->lock);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        if (!p->funcs[fi].lowered || !p->funcs[fi].leaf)
            continue;
        ++*o_functions;
        int compiled = 0, refused = 0;
        for (uint32_t v = 0; v < V_COUNT; v++) {
            int st = __atomic_load_n(&lv->state[(size_t)fi * V_COUNT + v], __ATOMIC_ACQUIRE);
            compiled |= st == 1;
            refused |= st == -1 && v != V_TILE_U;
        }
        *o_compiled += compiled;
        *o_not_taken += refused;
    }
    if (lv->why_func != UINT32_MAX && o_why)
        *o_why = lv->why;
    pthread_mutex_unlock(&lv->lock);
}

/* Compiles form v of leaf function fi into its own module of lv->lljit
 * (under lv->lock); sets its state. */
static void compile_form(cvm_jit_leaves *lv, uint32_t fi, uint32_t v)
{
    static const char *const prefix[V_COUNT] = {"cvm_leaf", "cvm_tile", "cvm_tileu"};
    const cvm_program *prog = lv->prog;
    size_t at = (size_t)fi * V_COUNT + v;
    int ok = 0;
    cvm_diagnostic why;
    cvm_diag_clear(&why);
    jctx j;
    LLVMOrcThreadSafeContextRef tsc;
    if (!prog->funcs[fi].lowered || !prog->funcs[fi].leaf || !jctx_init(&j, prog, &why, &tsc)) {
        cvm_diag_set(&why, CVM_ERROR_OUT_OF_MEMORY, "out of memory compiling a leaf");
        keep_why(lv, fi, v, &why);
        __atomic_store_n(&lv->state[at], -1, __ATOMIC_RELEASE);
        return;
    }
    char name[32];
    snprintf(name, sizeof name, "%s_%u", prefix[v], fi);
    j.f = &prog->funcs[fi];
    j.leaf = 1;
    j.tile = v != V_BATCH;
    j.unchecked = v == V_TILE_U;
    j.acc_lo = UINT64_MAX;
    /* the unchecked form only where every access through the pointer has a
     * known range */
    ok = jit_translate(&j, name) == CVM_SUCCESS && !(j.unchecked && j.acc_unknown);
    uint64_t acc_lo = j.acc_lo <= j.acc_hi ? j.acc_lo : 0, acc_hi = j.acc_hi;
    uint32_t max_region = j.max_region;
    jctx_free(&j);
    if (!ok) {
        LLVMDisposeModule(j.M);
        LLVMOrcDisposeThreadSafeContext(tsc);
        keep_why(lv, fi, v, &why);
        __atomic_store_n(&lv->state[at], -1, __ATOMIC_RELEASE);
        return;
    }
    LLVMOrcExecutorAddress addr = 0;
    if (jctx_finish(&j, tsc, &lv->lljit, &why) == CVM_SUCCESS) {
        LLVMErrorRef err = LLVMOrcLLJITLookup(lv->lljit, &addr, name);
        if (err) {
            LLVMConsumeError(err);
            addr = 0;
        }
    }
    if (!addr) {
        if (why.result == CVM_SUCCESS)
            cvm_diag_set(&why, CVM_ERROR_UNSUPPORTED, "the compiled tier: no code for %s", name);
        keep_why(lv, fi, v, &why);
        __atomic_store_n(&lv->state[at], -1, __ATOMIC_RELEASE);
        return;
    }
    lv->code[at] = (void *)(uintptr_t)addr;
    if (v == V_TILE_U) {
        lv->acc_lo[fi] = acc_lo;
        lv->acc_hi[fi] = acc_hi;
    }
    /* (the same for every function: the descriptors'; atomic, as threads
     * running other forms read it meanwhile) */
    __atomic_store_n(&lv->max_region, max_region, __ATOMIC_RELAXED);
    __atomic_fetch_add(&jit_forms_compiled, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&lv->state[at], 1, __ATOMIC_RELEASE);
}

/* Form v of fi: its code, compiling it now if nobody has tried (one thread
 * compiles; a thread that finds another compiling gets NULL and goes on
 * interpreting meanwhile).  NULL when not taken. */
static void *form(cvm_jit_leaves *lv, uint32_t fi, uint32_t v)
{
    size_t at = (size_t)fi * V_COUNT + v;
    int st = __atomic_load_n(&lv->state[at], __ATOMIC_ACQUIRE);
    if (st == 0) {
        if (pthread_mutex_trylock(&lv->lock) != 0)
            return NULL;
        if (__atomic_load_n(&lv->state[at], __ATOMIC_ACQUIRE) == 0)
            compile_form(lv, fi, v);
        pthread_mutex_unlock(&lv->lock);
        st = __atomic_load_n(&lv->state[at], __ATOMIC_ACQUIRE);
    }
    return st == 1 ? lv->code[at] : NULL;
}

/* The regions the compiled code reads are all in `ex`'s table. */
static int regions_bound(const cvm_jit_leaves *lv, const cvm_exec *ex)
{
    return __atomic_load_n(&lv->max_region, __ATOMIC_RELAXED) < ex->nregions;
}

/* Counts `calls` more; 1 once the leaves are worth compiling. */
static int leaves_hot(cvm_jit_leaves *lv, uint64_t calls, int eager)
{
    if (eager || __atomic_load_n(&lv->hot, __ATOMIC_RELAXED))
        return 1;
    if (__atomic_add_fetch(&lv->calls, calls, __ATOMIC_RELAXED) < CVM_JIT_LEAF_MIN_CALLS)
        return 0;
    __atomic_store_n(&lv->hot, 1, __ATOMIC_RELAXED);
    return 1;
}

int cvm_jit_leaf_ready(cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func, uint64_t calls,
                       int eager)
{
    if (!lv || func >= lv->prog->nfuncs || !leaves_hot(lv, calls, eager))
        return 0;
    return form(lv, func, V_BATCH) && regions_bound(lv, ex);
}

/* Whether the unchecked tile code may run: every access of every call of
 * the tile in bounds of base's region (a table region, not writes: the
 * form exists only for loads whose ranges are known), that is bytes
 * [off + index_lo * psize + acc_lo, off + index_hi * psize + acc_hi) with off
 * base's offset; then each access cvm_mem_access would make succeeds. */
static int tile_in_bounds(const cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func,
                          const cvm_decode_tile *t)
{
    uint32_t reg = CVM_ADDR_REGION(t->base);
    if (reg >= ex->nregions || !ex->regions[reg].base)
        return 0;
    uint64_t off = CVM_ADDR_OFFSET(t->base), lo, hi;
    if (__builtin_mul_overflow(t->index_lo, t->psize, &lo) ||
        __builtin_add_overflow(lo, off, &lo) || __builtin_add_overflow(lo, lv->acc_lo[func], &lo) ||
        __builtin_mul_overflow(t->index_hi, t->psize, &hi) ||
        __builtin_add_overflow(hi, off, &hi) || __builtin_add_overflow(hi, lv->acc_hi[func], &hi))
        return 0;
    return lo <= hi && hi <= ex->regions[reg].size;
}

int cvm_jit_tile_ready(cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func,
                       const cvm_decode_tile *tile, uint64_t calls, int eager)
{
    if (!lv || func >= lv->prog->nfuncs || !leaves_hot(lv, calls, eager))
        return 0;
    if (form(lv, func, V_TILE_U) && regions_bound(lv, ex) &&
        tile_in_bounds(lv, ex, func, tile))
        return 2;
    return form(lv, func, V_TILE) && regions_bound(lv, ex) ? 1 : 0;
}

/* Runs compiled leaf code: a batch of calls (tile NULL) or a tile's. */
static cvm_result run_leaf_code(cvm_exec *ex, void *code, uint32_t count, const cvm_val *args,
                                const cvm_decode_tile *tile, uint8_t *out)
{
    _Alignas(16) uint8_t zero[JIT_MAX_ACCESS], sink[JIT_MAX_ACCESS];
    cvm_jit_env env;
    memset(&env, 0, sizeof(env));
    env.regions = ex->regions;
    env.nregions = ex->nregions;
    env.ex = ex;
    env.nlanes = count;
    env.sg_size = 1;
    env.zero = zero;
    env.sink = sink;
    int32_t rc = tile ? ((jit_tile_fn)(uintptr_t)code)(&env, tile, out)
                      : ((jit_leaf_fn)(uintptr_t)code)(&env, args, out);
    ex->counts[CVM_COUNT_JIT_LEAF_BATCHES]++;
    if (tile)
        ex->counts[CVM_COUNT_JIT_TILE_BATCHES]++;
    if (rc == 0)
        return CVM_SUCCESS;
    return ex->diag && ex->diag->result != CVM_SUCCESS ? ex->diag->result : CVM_ERROR_INTERNAL;
}

cvm_result cvm_jit_run_leaf(cvm_jit_leaves *lv, cvm_exec *ex, uint32_t func, uint32_t count,
                            const cvm_val *args, uint8_t *results)
{
    return run_leaf_code(ex, lv->code[(size_t)func * V_COUNT + V_BATCH], count, args, NULL,
                         results);
}

cvm_result cvm_jit_run_tile(cvm_jit_leaves *lv, cvm_exec *ex, uint32_t func, int how,
                            const cvm_decode_tile *tile, uint8_t *mat)
{
    if (how == 2)
        ex->counts[CVM_COUNT_JIT_UNCHECKED]++;
    return run_leaf_code(ex, lv->code[(size_t)func * V_COUNT + (how == 2 ? V_TILE_U : V_TILE)],
                         tile->k1 - tile->k0, NULL, tile, mat);
}

#endif /* CVM_HAVE_LLVM */
