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
 * the interpreter's own kernel for one lane (the *_eval_lane functions). */
#include "exec/jit/jit.h"

#include <pthread.h>
#include <stdio.h>

#include "exec/ops/tensor_layout.h"

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

cvm_result cvm_jit_compile(const cvm_program *prog, cvm_jit **o_jit, cvm_diagnostic *diag)
{
    (void)prog;
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
#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/Coroutines.h>
#include <llvm-c/Transforms/InstCombine.h>
#include <llvm-c/Transforms/Scalar.h>
#include <llvm-c/Transforms/Utils.h>
#include <llvm-c/Transforms/PassManagerBuilder.h>

#include "exec/jit/jit_internal.h"

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

/* 1 when the entry point holds a cooperative-matrix instruction: the
 * scope form is the one that may take it. */
static int wants_scope(const cvm_program *p)
{
    if (p->nfuncs == 0 || p->entry >= p->nfuncs)
        return 0;
    const cvm_function *f = &p->funcs[p->entry];
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t ii = f->blocks[b].first; ii < f->blocks[b].first + f->blocks[b].count; ii++)
            if (p->insns[ii].flags & CVM_INSN_PER_INSTANCE)
                return 1;
    return 0;
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

cvm_result cvm_jit_compile(const cvm_program *prog, cvm_jit **o_jit, cvm_diagnostic *diag)
{
    *o_jit = NULL;
    if (!cvm_jit_available())
        return cvm_diag_set(diag, CVM_ERROR_UNSUPPORTED, "LLVM's native target is not available");
    jctx j;
    LLVMOrcThreadSafeContextRef tsc;
    if (!jctx_init(&j, prog, diag, &tsc))
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    j.scope = wants_scope(prog);
    j.collective = !j.scope && wants_collective(prog);
    cvm_result r = CVM_SUCCESS;
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
    uint32_t max_region = j.max_region;
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

/* ---- leaf callbacks ---------------------------------------------------------- */

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
