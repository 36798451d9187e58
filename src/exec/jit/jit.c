/* The compiled tier (jit.h): SPIR-V function -> LLVM IR -> native code.
 *
 * The generated function, run once per workgroup:
 *
 *   int32_t run(cvm_jit_env *env)
 *     for lane in 0 .. env->nlanes - 1:       LocalInvocationIndex
 *       Function and Private variables zeroed (a Private one with an
 *       initializer set to it)
 *       the entry point's blocks, each charging its instruction count,
 *       with a copy of a callee's blocks at each call (emit_call)
 *       OpReturn, OpKill ... go to the next lane
 *     return 0; a failure returns 1 with env->ex->diag set
 *
 * Values are LLVM SSA values (booleans i1, integers iN, f32 float, f64
 * double, vectors of them); pointers are not LLVM values but descriptions
 * kept here (jptr): a Function variable (an alloca, promoted to registers
 * by LLVM), a built-in, or a region and a byte offset computed in i64.
 * Instructions whose edge cases ops/ define (integer division, shifts,
 * conversions, GLSL.std.450) either follow k_generic's rules inline or call
 * the interpreter's own kernel for one lane (the *_eval_lane functions).
 *
 * This file chooses the form a shader takes and compiles it
 * (cvm_jit_compile), with LLVM's context, module and JIT.  The rest is in
 * files by family (jit_value.c, jit_mem.c, jit_arith.c, jit_flow.c,
 * jit_func.c) and by form (jit_scope.c, jit_collective.c, jit_leaf.c), and
 * what runs while a dispatch does is in jit_runtime.c; jit_internal.h
 * declares what they share. */
#include "exec/jit/jit.h"

#include <pthread.h>

uint64_t cvm_test_jit_groups(void)
{
    return cvm_count_total(CVM_COUNT_JIT_GROUPS);
}

uint64_t cvm_test_jit_collective_groups(void)
{
    return cvm_count_total(CVM_COUNT_JIT_COLLECTIVE);
}

uint64_t cvm_test_jit_unchecked_batches(void)
{
    return cvm_count_total(CVM_COUNT_JIT_UNCHECKED);
}

uint64_t cvm_test_jit_tile_batches(void)
{
    return cvm_count_total(CVM_COUNT_JIT_TILE_BATCHES);
}
uint32_t jit_forms_compiled;

uint64_t cvm_test_jit_leaf_batches(void)
{
    return cvm_count_total(CVM_COUNT_JIT_LEAF_BATCHES);
}

uint32_t cvm_test_jit_forms_compiled(void)
{
    return __atomic_load_n(&jit_forms_compiled, __ATOMIC_RELAXED);
}

#ifndef CVM_HAVE_LLVM

int cvm_jit_available(void)
{
    return 0;
}

cvm_result cvm_jit_compile(const cvm_program *prog, uint32_t opts, cvm_jit **o_jit,
                           cvm_diagnostic *diag)
{
    (void)prog;
    (void)opts;
    *o_jit = NULL;
    return cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED, "this build has no compiled tier (LLVM)");
}

void cvm_jit_destroy(cvm_jit *j)
{
    (void)j;
}

int cvm_jit_scope_form(const cvm_jit *j)
{
    (void)j;
    return 0;
}

int cvm_jit_collective_form(const cvm_jit *j)
{
    (void)j;
    return 0;
}

int cvm_jit_scope_lanes(const cvm_jit *j)
{
    (void)j;
    return 0;
}

cvm_result cvm_jit_run_group(const cvm_jit *j, cvm_exec *ex, uint64_t *budget_local)
{
    (void)j;
    (void)budget_local;
    return cvm_exec_fail(ex, NULL, CVM_ERROR_UNSUPPORTED, "no compiled tier");
}

cvm_jit_leaves *cvm_jit_leaves_create(const cvm_program *prog)
{
    (void)prog;
    return NULL;
}

void cvm_jit_leaves_destroy(cvm_jit_leaves *lv)
{
    (void)lv;
}

int cvm_jit_leaf_ready(cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func, uint64_t calls,
                       int eager)
{
    (void)lv;
    (void)ex;
    (void)func;
    (void)calls;
    (void)eager;
    return 0;
}

cvm_result cvm_jit_run_leaf(cvm_jit_leaves *lv, cvm_exec *ex, uint32_t func, uint32_t count,
                            const cvm_val *args, uint8_t *results)
{
    (void)lv;
    (void)func;
    (void)count;
    (void)args;
    (void)results;
    return cvm_exec_fail(ex, NULL, CVM_ERROR_UNSUPPORTED, "no compiled tier");
}

int cvm_jit_tile_ready(cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func,
                       const cvm_decode_tile *tile, uint64_t calls, int eager)
{
    (void)tile;
    return cvm_jit_leaf_ready(lv, ex, func, calls, eager);
}

cvm_result cvm_jit_run_tile(cvm_jit_leaves *lv, cvm_exec *ex, uint32_t func, int how,
                            const cvm_decode_tile *tile, uint8_t *mat)
{
    (void)lv;
    (void)func;
    (void)how;
    (void)tile;
    (void)mat;
    return cvm_exec_fail(ex, NULL, CVM_ERROR_UNSUPPORTED, "no compiled tier");
}

void cvm_jit_leaves_report(cvm_jit_leaves *lv, uint32_t *o_functions, uint32_t *o_compiled,
                           uint32_t *o_not_taken, cvm_diagnostic *o_why)
{
    (void)lv;
    (void)o_why;
    *o_functions = *o_compiled = *o_not_taken = 0;
}

#else /* CVM_HAVE_LLVM */

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/Coroutines.h>
#include <llvm-c/Transforms/InstCombine.h>
#include <llvm-c/Transforms/Scalar.h>
#include <llvm-c/Transforms/Utils.h>
#include <llvm-c/Transforms/PassManagerBuilder.h>

#include "exec/jit/jit_internal.h"

/* Whether the entry point wants the scope form: 1 when it holds a
 * cooperative-matrix instruction; else 2 when it holds a value of a
 * cooperative-vector type (SPV_NV_cooperative_vector: per-invocation
 * values whose matrix products the interpreter runs for the whole group at
 * once, which the scope form's handlers keep), with *o_insn the first
 * such instruction; else 0. */
static int wants_scope(const cvm_program *p, uint32_t *o_insn)
{
    if (p->nfuncs == 0 || p->entry >= p->nfuncs)
        return 0;
    const cvm_function *f = &p->funcs[p->entry];
    int want = 0;
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t ii = f->blocks[b].first; ii < f->blocks[b].first + f->blocks[b].count; ii++) {
            const cvm_insn *in = &p->insns[ii];
            if (in->flags & CVM_INSN_PER_INSTANCE)
                return 1;
            if (!want && in->type < p->ntypes && p->types[in->type].coopvec) {
                want = 2;
                *o_insn = ii;
            }
        }
    return want;
}

/* 1 when the program has a barrier, a subgroup instruction or Workgroup
 * memory (and no cooperative-matrix instruction): the collective form is
 * the one that may take it. */
static int wants_collective(const cvm_program *p)
{
    if (p->wg_size)
        return 1;
    for (uint32_t i = 0; i < p->ninsns; i++)
        if (jit_is_collective(&p->insns[i]))
            return 1;
    return 0;
}

/* Checks that make the tier's assumptions hold for the whole program. */
static cvm_result eligible(jctx *j)
{
    const cvm_program *p = j->p;
    if (p->nfuncs == 0 || p->entry >= p->nfuncs)
        return jit_unsupported(j, UINT32_MAX, "a program without an entry point");
    if (j->scope) /* (the group runs as the interpreter sets it up: callbacks, memory and
                     initializers are its; a call in the entry point is not taken) */
        return CVM_SUCCESS;
    /* Calls are inlined (emit_call) and Private variables are the
     * invocation's own (setup_invocation_vars).  Workgroup memory is
     * shared: invocations run one after the other here and side by side in
     * the interpreter, so what one reads of another's writes could differ
     * between the tiers (named: the first such variable); the collective
     * form runs them between barriers, as the interpreter. */
    if (p->wg_size && !j->collective) {
        for (uint32_t id = 1; id < p->bound; id++) {
            spv_inst vi;
            if (j->mod->defs[id].opcode == SpvOpVariable && j->mod->defs[id].func == UINT32_MAX &&
                spv_module_def_inst(j->mod, id, &vi) && vi.word_count > 3 &&
                vi.words[3] == SpvStorageClassWorkgroup)
                return jit_unsupported_def(j, id, "Workgroup variables");
        }
        return jit_unsupported(j, UINT32_MAX, "Workgroup variables");
    }
    return CVM_SUCCESS;
}

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static int llvm_ready;

static void llvm_init(void)
{
    if (LLVMInitializeNativeTarget() == 0 && LLVMInitializeNativeAsmPrinter() == 0)
        llvm_ready = 1;
}

int cvm_jit_available(void)
{
    pthread_once(&llvm_once, llvm_init);
    return llvm_ready;
}

static void drop_jit_error(void *ctx, LLVMErrorRef err)
{
    (void)ctx;
    LLVMConsumeError(err);
}

static cvm_result llvm_error(cvm_diagnostic *diag, LLVMErrorRef err, const char *what)
{
    char *msg = LLVMGetErrorMessage(err);
    cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED, "the compiled tier: %s: %s", what, msg ? msg : "");
    LLVMDisposeErrorMessage(msg);
    return CVM_ERROR_UNSUPPORTED;
}

/* A context, module and builder with the types every translation uses.
 * Returns 0 when out of memory. */
int jctx_init(jctx *j, const cvm_program *prog, cvm_diagnostic *diag,
              LLVMOrcThreadSafeContextRef *o_tsc)
{
    memset(j, 0, sizeof(*j));
    j->p = prog;
    j->mod = prog->mod;
    j->diag = diag;
    size_t n = prog->bound ? prog->bound : 1;
    j->vals = cvm_calloc(n, sizeof(LLVMValueRef));
    j->arrs = cvm_calloc(n, sizeof(LLVMValueRef));
    j->ptrs = cvm_calloc(n, sizeof(jptr));
    j->pairs = cvm_calloc(2 * n, sizeof(LLVMValueRef));
    if (!j->vals || !j->arrs || !j->ptrs || !j->pairs) {
        cvm_mem_free(j->vals);
        cvm_mem_free(j->arrs);
        cvm_mem_free(j->ptrs);
        cvm_mem_free(j->pairs);
        return 0;
    }
    j->has_f16 = cvm_f16c_available();
    *o_tsc = LLVMOrcCreateNewThreadSafeContext();
    j->C = LLVMOrcThreadSafeContextGetContext(*o_tsc);
    j->M = LLVMModuleCreateWithNameInContext("coopvm", j->C);
    j->B = LLVMCreateBuilderInContext(j->C);
    j->i1 = LLVMInt1TypeInContext(j->C);
    j->i8 = LLVMInt8TypeInContext(j->C);
    j->i16 = LLVMInt16TypeInContext(j->C);
    j->i32 = LLVMInt32TypeInContext(j->C);
    j->i64 = LLVMInt64TypeInContext(j->C);
    j->f16 = LLVMHalfTypeInContext(j->C);
    j->f32 = LLVMFloatTypeInContext(j->C);
    j->f64 = LLVMDoubleTypeInContext(j->C);
    j->vd = LLVMVoidTypeInContext(j->C);
    j->ptr8 = LLVMPointerType(j->i8, 0);
    LLVMTypeRef region_fields[3] = {j->ptr8, j->i64, j->i8};
    j->region_t = LLVMStructTypeInContext(j->C, region_fields, 3, 0);
    LLVMTypeRef env_fields[13] = {LLVMPointerType(j->region_t, 0), j->ptr8, j->i32, j->i32,
                                  LLVMArrayType(j->i32, 3), LLVMArrayType(j->i32, 3), j->i64,
                                  j->i32, j->ptr8, j->ptr8, j->ptr8, j->ptr8,
                                  LLVMPointerType(j->i32, 0)};
    j->env_t = LLVMStructTypeInContext(j->C, env_fields, 13, 0);
    LLVMTypeRef val_fields[2] = {j->ptr8, j->i32};
    j->val_t = LLVMStructTypeInContext(j->C, val_fields, 2, 0);
    return 1;
}

/* The per-function state, cleared for the next translation. */
static void jctx_reset(jctx *j)
{
    size_t n = j->p->bound ? j->p->bound : 1;
    memset(j->vals, 0, n * sizeof(LLVMValueRef));
    memset(j->arrs, 0, n * sizeof(LLVMValueRef));
    memset(j->ptrs, 0, n * sizeof(jptr));
    memset(j->pairs, 0, 2 * n * sizeof(LLVMValueRef));
    cvm_mem_free(j->bbs);
    cvm_mem_free(j->regions);
    cvm_mem_free(j->var_ids);
    cvm_mem_free(j->var_inits);
    cvm_mem_free(j->has_slot_phis);
    for (uint32_t k = 0; k < j->ndivs; k++)
        cvm_mem_free(j->divs[k].blocks);
    cvm_mem_free(j->divs);
    cvm_mem_free(j->div_of);
    cvm_mem_free(j->div_arm);
    cvm_mem_free(j->alike);
    j->alike = NULL;
    j->divs = NULL;
    j->div_of = NULL;
    j->div_arm = NULL;
    j->ndivs = 0;
    cvm_mem_free(j->edge_from);
    cvm_mem_free(j->edge_to_blk);
    cvm_mem_free(j->edge_bb);
    j->has_slot_phis = NULL;
    j->edge_from = j->edge_to_blk = NULL;
    j->edge_bb = NULL;
    j->nedges = 0;
    j->bbs = NULL;
    j->regions = NULL;
    j->var_ids = j->var_inits = NULL;
    j->nvars = 0;
}

void jctx_free(jctx *j)
{
    jctx_reset(j);
    LLVMDisposeBuilder(j->B);
    cvm_mem_free(j->vals);
    cvm_mem_free(j->arrs);
    cvm_mem_free(j->ptrs);
    cvm_mem_free(j->pairs);
}

/* Verifies and optimises j->M and hands it to a new LLJIT (which then owns
 * the module and the context).  Takes j->M and tsc either way. */
cvm_result jctx_finish(jctx *j, LLVMOrcThreadSafeContextRef tsc, LLVMOrcLLJITRef *io_lljit,
                       cvm_diagnostic *diag)
{
    char *vmsg = NULL;
    if (LLVMVerifyModule(j->M, LLVMReturnStatusAction, &vmsg)) {
        cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED, "the compiled tier made invalid code: %.300s",
                     vmsg ? vmsg : "");
        LLVMDisposeMessage(vmsg);
        LLVMDisposeModule(j->M);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return CVM_ERROR_UNSUPPORTED;
    }
    if (vmsg)
        LLVMDisposeMessage(vmsg);
    LLVMOrcLLJITRef lljit = *io_lljit;
    LLVMErrorRef err;
    if (!lljit) {
        LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
        err = LLVMOrcCreateLLJIT(&lljit, jb);
        if (err) {
            LLVMDisposeModule(j->M);
            LLVMOrcDisposeThreadSafeContext(tsc);
            return llvm_error(diag, err, "creating the JIT");
        }
        *io_lljit = lljit;
        /* failures reach the caller through the lookup: never LLVM's
         * default report on stderr (the library prints nothing) */
        LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(lljit),
                                                drop_jit_error, NULL);
        /* LLVM lowers its own block copies and fills (a large zeroed or
         * copied value) to calls of these: the one outside symbols the
         * code may name (the rest it calls by address) */
        LLVMJITCSymbolMapPair libc[3] = {
            {LLVMOrcLLJITMangleAndIntern(lljit, "memset"),
             {(LLVMOrcExecutorAddress)(uintptr_t)&memset, {LLVMJITSymbolGenericFlagsExported, 0}}},
            {LLVMOrcLLJITMangleAndIntern(lljit, "memcpy"),
             {(LLVMOrcExecutorAddress)(uintptr_t)&memcpy, {LLVMJITSymbolGenericFlagsExported, 0}}},
            {LLVMOrcLLJITMangleAndIntern(lljit, "memmove"),
             {(LLVMOrcExecutorAddress)(uintptr_t)&memmove, {LLVMJITSymbolGenericFlagsExported, 0}}},
        };
        LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(libc, 3);
        err = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(lljit), mu);
        if (err) {
            LLVMOrcDisposeMaterializationUnit(mu);
            LLVMDisposeModule(j->M);
            LLVMOrcDisposeThreadSafeContext(tsc);
            return llvm_error(diag, err, "defining memset, memcpy and memmove");
        }
    }
    LLVMSetTarget(j->M, LLVMOrcLLJITGetTripleString(lljit));
    LLVMSetDataLayout(j->M, LLVMOrcLLJITGetDataLayoutStr(lljit));
    /* the code reads cvm_jit_env through env_t: their layouts must agree */
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMOrcLLJITGetDataLayoutStr(lljit));
    int env_ok = LLVMOffsetOfElement(td, j->env_t, ENV_BUDGET) == offsetof(cvm_jit_env, budget) &&
                 LLVMOffsetOfElement(td, j->env_t, ENV_NREGIONS) == offsetof(cvm_jit_env, nregions) &&
                 LLVMOffsetOfElement(td, j->env_t, ENV_WHERE) == offsetof(cvm_jit_env, where);
    LLVMDisposeTargetData(td);
    if (!env_ok) {
        LLVMDisposeModule(j->M);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED,
                            "the compiled tier's view of its environment does not match this build's");
    }
    LLVMPassManagerBuilderRef pmb = LLVMPassManagerBuilderCreate();
    LLVMPassManagerBuilderSetOptLevel(pmb, 2);
    LLVMPassManagerRef pm = LLVMCreatePassManager();
    if (j->collective) {
        /* the lane coroutine, its values in registers first (a smaller
         * frame), split into its ramp, resume and destroy functions, before
         * the pipeline below optimizes them */
        LLVMPassManagerRef cpm = LLVMCreatePassManager();
        LLVMAddPromoteMemoryToRegisterPass(cpm);
        LLVMAddEarlyCSEPass(cpm);
        LLVMAddInstructionCombiningPass(cpm);
        LLVMAddCFGSimplificationPass(cpm);
        LLVMAddCoroEarlyPass(cpm);
        LLVMAddCoroSplitPass(cpm);
        LLVMAddCoroCleanupPass(cpm);
        LLVMRunPassManager(cpm, j->M);
        LLVMDisposePassManager(cpm);
        /* (code generation cannot take a coroutine intrinsic left) */
        for (LLVMValueRef f = LLVMGetFirstFunction(j->M); f; f = LLVMGetNextFunction(f)) {
            size_t len = 0;
            const char *nm = LLVMGetValueName2(f, &len);
            if (len > 10 && !strncmp(nm, "llvm.coro.", 10) && LLVMGetFirstUse(f)) {
                LLVMDisposePassManager(pm);
                LLVMPassManagerBuilderDispose(pmb);
                LLVMOrcDisposeThreadSafeContext(tsc);
                LLVMDisposeModule(j->M);
                return cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED,
                                    "the compiled tier could not split the shader at its "
                                    "barriers (LLVM left %.*s)",
                                    (int)len, nm);
            }
        }
    }
    LLVMPassManagerBuilderPopulateModulePassManager(pmb, pm);
    LLVMRunPassManager(pm, j->M);
    LLVMDisposePassManager(pm);
    LLVMPassManagerBuilderDispose(pmb);
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(j->M, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc); /* the module keeps it alive */
    err = LLVMOrcLLJITAddLLVMIRModule(lljit, LLVMOrcLLJITGetMainJITDylib(lljit), tsm);
    if (err) {
        LLVMOrcDisposeThreadSafeModule(tsm);
        return llvm_error(diag, err, "adding the module");
    }
    return CVM_SUCCESS;
}

cvm_result cvm_jit_compile(const cvm_program *prog, uint32_t opts, cvm_jit **o_jit,
                           cvm_diagnostic *diag)
{
    *o_jit = NULL;
    if (!cvm_jit_available())
        return cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED, "LLVM's native target is not available");
    jctx j;
    LLVMOrcThreadSafeContextRef tsc;
    if (!jctx_init(&j, prog, diag, &tsc))
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t coopvec_at = UINT32_MAX;
    int scope = wants_scope(prog, &coopvec_at);
    j.scope = scope != 0;
    j.faster_only = (opts & CVM_JIT_FASTER_ONLY) != 0;
    j.collective = !j.scope && wants_collective(prog);
    cvm_result r = CVM_SUCCESS;
    if (scope == 2 && j.faster_only)
        r = jit_unsupported(&j, coopvec_at,
                            "cooperative vectors by size (measured slower compiled; compiled "
                            "where asked: CVM_FLAG_JIT, COOPVM_JIT=always)");
    if (j.collective && prog->nfuncs > 0 && prog->entry < prog->nfuncs) {
        j.ordered = ordered_blocks(prog);
        if (j.ordered && !(j.waits = ordered_waits(prog)))
            r = cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        else if (prog->ninsns >= JIT_CO_SYNC || prog->funcs[prog->entry].nblocks >= JIT_CO_SYNC)
            r = jit_unsupported(&j, UINT32_MAX, "a shader this long (the collective form)");
    }
    if (j.scope && !(j.slot_phi = cvm_calloc(prog->ninsns ? prog->ninsns : 1, 1)))
        r = cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r == CVM_SUCCESS)
        r = eligible(&j);
    if (r == CVM_SUCCESS) {
        j.f = &prog->funcs[prog->entry];
        r = j.collective ? translate_collective(&j, "cvm_jit_lane") : jit_translate(&j, "cvm_jit_run");
        if (r == CVM_SUCCESS && j.collective)
            add_co_helpers(&j);
    }
    int collective = j.collective, ordered = j.ordered;
    uint32_t max_region = j.max_region, div_depth = j.div_depth;
    cvm_mem_free(j.waits);
    uint8_t *slot_phi = j.slot_phi;
    jctx_free(&j);
    if (r != CVM_SUCCESS) {
        cvm_mem_free(slot_phi);
        LLVMDisposeModule(j.M);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return r;
    }
    cvm_jit *out = cvm_calloc(1, sizeof(*out));
    if (!out) {
        cvm_mem_free(slot_phi);
        LLVMDisposeModule(j.M);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    out->prog = prog;
    out->max_region = max_region;
    out->scope = j.scope;
    out->lanes = j.scope && j.lanes;
    out->div_depth = div_depth;
    out->collective = collective;
    out->ordered = ordered;
    out->slot_phi = slot_phi;
    if ((r = jctx_finish(&j, tsc, &out->lljit, diag)) != CVM_SUCCESS) {
        if (out->lljit)
            LLVMOrcDisposeLLJIT(out->lljit);
        cvm_mem_free(out->slot_phi);
        cvm_mem_free(out);
        return r;
    }
    LLVMOrcExecutorAddress addr = 0, resume = 0, destroy = 0;
    LLVMErrorRef err = LLVMOrcLLJITLookup(out->lljit, &addr,
                                          collective ? "cvm_jit_lane" : "cvm_jit_run");
    if (!err && collective)
        err = LLVMOrcLLJITLookup(out->lljit, &resume, "cvm_co_resume");
    if (!err && collective)
        err = LLVMOrcLLJITLookup(out->lljit, &destroy, "cvm_co_destroy");
    if (err) {
        /* the message names the JIT's dylib and symbols: read it before
         * they are freed */
        r = llvm_error(diag, err, "compiling");
        LLVMOrcDisposeLLJIT(out->lljit);
        cvm_mem_free(out->slot_phi);
        cvm_mem_free(out);
        return r;
    }
    if (collective) {
        out->co_fn = (jit_co_fn)(uintptr_t)addr;
        out->co_resume = (jit_co_op)(uintptr_t)resume;
        out->co_destroy = (jit_co_op)(uintptr_t)destroy;
    } else {
        out->fn = (jit_fn)(uintptr_t)addr;
    }
    *o_jit = out;
    return CVM_SUCCESS;
}

void cvm_jit_destroy(cvm_jit *j)
{
    if (!j)
        return;
    LLVMOrcDisposeLLJIT(j->lljit);
    cvm_mem_free(j->slot_phi);
    cvm_mem_free(j);
}

int cvm_jit_scope_form(const cvm_jit *j)
{
    return j && j->scope;
}

int cvm_jit_collective_form(const cvm_jit *j)
{
    return j && j->collective;
}

int cvm_jit_scope_lanes(const cvm_jit *j)
{
    return j && j->scope && j->lanes;
}

#endif /* CVM_HAVE_LLVM */
