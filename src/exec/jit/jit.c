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

/* Variable `var` (a JP_VAR, or per-invocation memory: JP_MEM in region
 * CVM_REGION_INVOCATION) set to constant `init` for the current lane. */
cvm_result emit_var_set(jctx *j, uint32_t var, uint32_t init)
{
    const jptr *pt = var < j->p->bound ? &j->ptrs[var] : NULL;
    if (pt && pt->kind == JP_VAR && pt->comp == UINT32_MAX) {
        LLVMValueRef v = jit_const_value(j, init);
        if (!v || LLVMTypeOf(v) != value_type(j, pt->var_type))
            return jit_unsupported_def(j, var, "this variable's initializer");
        LLVMBuildStore(j->B, v, pt->alloca);
        return CVM_SUCCESS;
    }
    if (pt && pt->kind == JP_MEM && pt->region == CVM_REGION_INVOCATION && init < j->p->bound &&
        j->p->const_offset[init] != UINT64_MAX) {
        LLVMTypeRef params[4] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32, j->i32};
        LLVMTypeRef fty = LLVMFunctionType(j->i32, params, 4, 0);
        LLVMValueRef args[4] = {j->env, c_i32(j, var), c_i32(j, init), j->lane};
        LLVMBuildCall2(j->B, fty, fn_const(j, (void *)jit_init_mem, fty), args, 4, "");
        return CVM_SUCCESS;
    }
    return jit_unsupported_def(j, var, "this variable's initializer");
}

/* ---- the function ----------------------------------------------------------- */

static LLVMValueRef u32v(jctx *j, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMTypeRef vt = LLVMVectorType(j->i32, 3);
    LLVMValueRef v = LLVMGetUndef(vt);
    v = LLVMBuildInsertElement(j->B, v, a, c_i32(j, 0), "");
    v = LLVMBuildInsertElement(j->B, v, b, c_i32(j, 1), "");
    return LLVMBuildInsertElement(j->B, v, c, c_i32(j, 2), "");
}

/* Built-in values of the lane (fill_builtins' definitions). */
cvm_result emit_builtins(jctx *j, LLVMValueRef nlanes, LLVMValueRef sg)
{
    const cvm_program *p = j->p;
    const uint32_t *ls = p->local_size;
    LLVMValueRef l = j->lane;
    LLVMValueRef lx = LLVMBuildURem(j->B, l, c_i32(j, ls[0]), "");
    LLVMValueRef ly = LLVMBuildURem(j->B, LLVMBuildUDiv(j->B, l, c_i32(j, ls[0]), ""),
                                    c_i32(j, ls[1]), "");
    LLVMValueRef lz = LLVMBuildUDiv(j->B, l, c_i32(j, (uint64_t)ls[0] * ls[1]), "");
    LLVMValueRef g[3], ng[3];
    for (unsigned k = 0; k < 3; k++) {
        g[k] = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_GID, k), "");
        ng[k] = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_NGROUPS, k), "");
    }
    LLVMValueRef lid = u32v(j, lx, ly, lz);
    LLVMValueRef gid = u32v(j, g[0], g[1], g[2]);
    LLVMValueRef lsv = u32v(j, c_i32(j, ls[0]), c_i32(j, ls[1]), c_i32(j, ls[2]));
    memset(j->builtin_vals, 0, sizeof(j->builtin_vals));
    j->builtin_vals[SpvBuiltInGlobalInvocationId] =
        LLVMBuildAdd(j->B, LLVMBuildMul(j->B, gid, lsv, ""), lid, "");
    j->builtin_vals[SpvBuiltInLocalInvocationId] = lid;
    j->builtin_vals[SpvBuiltInLocalInvocationIndex] = l;
    j->builtin_vals[SpvBuiltInWorkgroupId] = gid;
    j->builtin_vals[SpvBuiltInNumWorkgroups] = u32v(j, ng[0], ng[1], ng[2]);
    j->builtin_vals[SpvBuiltInWorkgroupSize] = lsv;
    /* (the subgroup size is a power of two, cvm_context_create checks: a
     * shift and a mask, which LLVM may move out of loops as it may not a
     * division by a value it cannot prove nonzero, a shader's loop over
     * NumSubgroups paying one division an iteration) */
    LLVMValueRef no[2] = {sg, LLVMConstInt(j->i1, 0, 0)};
    LLVMValueRef lg = call_intrinsic(j, "llvm.cttz", &j->i32, 1, no, 2);
    LLVMValueRef sg1 = LLVMBuildSub(j->B, sg, c_i32(j, 1), "");
    j->builtin_vals[SpvBuiltInSubgroupId] = LLVMBuildLShr(j->B, l, lg, "");
    j->builtin_vals[SpvBuiltInSubgroupLocalInvocationId] = LLVMBuildAnd(j->B, l, sg1, "");
    j->builtin_vals[SpvBuiltInSubgroupSize] = sg;
    j->builtin_vals[SpvBuiltInNumSubgroups] =
        LLVMBuildLShr(j->B, LLVMBuildAdd(j->B, nlanes, sg1, ""), lg, "");
    for (uint32_t b = 0; b < p->nbuiltins; b++)
        if (p->builtin_kinds[b] >= 64 || !j->builtin_vals[p->builtin_kinds[b]])
            return jit_unsupported_def(j, p->builtin_vars[b], "this built-in");
    return CVM_SUCCESS;
}

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

/* Pointer descriptions of the module-scope variables the tier takes. */
cvm_result setup_globals(jctx *j)
{
    const cvm_program *p = j->p;
    const spv_module *mod = j->mod;
    for (uint32_t b = 0; b < p->nbuiltins; b++) {
        uint32_t var = p->builtin_vars[b];
        jptr *pt = &j->ptrs[var];
        pt->kind = JP_BUILTIN;
        pt->builtin = p->builtin_kinds[b];
        pt->type = p->types[mod->defs[var].type].elem;
        pt->comp = UINT32_MAX;
    }
    for (uint32_t d = 0; d < p->ndescs; d++) {
        const cvm_descriptor *ds = &p->descs[d];
        if (ds->array_size != 1 && (j->leaf || j->scope))
            continue; /* (a leaf naming one is not taken: emit_load; the scope
                         form runs what names one by its handler) */
        if (ds->array_size != 1)
            return jit_unsupported_def(j, ds->var, "descriptor arrays");
        jptr *pt = &j->ptrs[ds->var];
        pt->kind = JP_MEM;
        pt->region = ds->first_region;
        pt->off = c_i64(j, 0);
        pt->type = p->types[mod->defs[ds->var].type].elem;
        if (ds->first_region > j->max_region)
            j->max_region = ds->first_region;
    }
    for (uint32_t id = 0; id < p->bound; id++) {
        const spv_def *d = &mod->defs[id];
        if (d->opcode != SpvOpVariable || d->func != UINT32_MAX || j->ptrs[id].kind)
            continue;
        if (j->collective && p->var_region[id] == CVM_REGION_WORKGROUP) {
            /* the workgroup's one copy, which every lane addresses alike */
            jptr *pt = &j->ptrs[id];
            pt->kind = JP_MEM;
            pt->region = CVM_REGION_WORKGROUP;
            pt->off = c_i64(j, CVM_ADDR_OFFSET(p->var_offset[id]));
            pt->type = p->types[d->type].elem;
            if (pt->region > j->max_region)
                j->max_region = pt->region;
            continue;
        }
        if (p->var_region[id] == CVM_REGION_PUSH) {
            jptr *pt = &j->ptrs[id];
            pt->kind = JP_MEM;
            pt->region = CVM_REGION_PUSH;
            pt->off = c_i64(j, 0);
            pt->type = p->types[d->type].elem;
            if (pt->region > j->max_region)
                j->max_region = pt->region;
            continue;
        }
        /* Private, Workgroup, Input other than the built-ins, ...: only
         * when nothing names them (checked where they are used) */
    }
    return CVM_SUCCESS;
}

/* Records variable `id` for emit_var_init: set to constant `init` (0:
 * zero) at the start of each invocation. */
static cvm_result record_var(jctx *j, uint32_t id, uint32_t init)
{
    uint32_t *nv = cvm_realloc(j->var_ids, (j->nvars + 1) * sizeof(uint32_t));
    if (!nv)
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    j->var_ids = nv;
    uint32_t *ni = cvm_realloc(j->var_inits, (j->nvars + 1) * sizeof(uint32_t));
    if (!ni)
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    j->var_inits = ni;
    j->var_ids[j->nvars] = id;
    j->var_inits[j->nvars] = init;
    j->nvars++;
    return CVM_SUCCESS;
}

/* A variable of the invocation in the entry point's form: a Function
 * variable of a function the entry point reaches, or a Private one.  A
 * value the code holds (a scalar or vector) goes in an alloca (JP_VAR),
 * anything else (arrays, structs), and a vector some access chain indexes
 * with a value that is not a constant (`dynamic`: an index out of range
 * then reaches what it reaches in the interpreter), in its place in
 * per-invocation memory, as in the interpreter (JP_MEM, region
 * CVM_REGION_INVOCATION, its offset set per lane by emit_var_init).  0
 * when neither can hold it. */
static int invocation_var(jctx *j, uint32_t id, uint32_t init, int dynamic)
{
    const cvm_program *p = j->p;
    uint32_t vt = j->mod->defs[id].type;
    if (vt >= p->ntypes || p->types[vt].tclass != CVM_TC_POINTER || p->types[vt].elem >= p->ntypes)
        return 0;
    uint32_t pointee = p->types[vt].elem;
    LLVMTypeRef ty = value_type(j, pointee);
    jptr *pt = &j->ptrs[id];
    if (ty && dynamic && !mem_type_ok(j, pointee))
        ty = NULL;
    if (ty && !dynamic) {
        pt->kind = JP_VAR;
        pt->alloca = LLVMBuildAlloca(j->B, ty, "");
        pt->var_type = pointee;
    } else if (p->var_region[id] == CVM_REGION_INVOCATION && p->types[pointee].mem_size &&
               (!init || p->const_offset[init] != UINT64_MAX)) {
        pt->kind = JP_MEM;
        pt->region = CVM_REGION_INVOCATION;
        if (pt->region > j->max_region)
            j->max_region = pt->region;
    } else {
        return 0;
    }
    pt->type = pointee;
    pt->comp = UINT32_MAX;
    return 1;
}

/* The entry point's form: the Function variables of the entry point and of
 * every function it calls, and the Private variables. */
static cvm_result setup_invocation_vars(jctx *j)
{
    const cvm_program *p = j->p;
    const spv_module *mod = j->mod;
    /* the functions reached from the entry point through calls */
    uint8_t *reach = cvm_calloc(p->nfuncs ? p->nfuncs : 1, 1);
    uint32_t *stack = cvm_calloc(p->nfuncs ? p->nfuncs : 1, sizeof(uint32_t));
    if (!reach || !stack) {
        cvm_mem_free(reach);
        cvm_mem_free(stack);
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint32_t top = 0;
    reach[p->entry] = 1;
    stack[top++] = p->entry;
    while (top) {
        const cvm_function *f = &p->funcs[stack[--top]];
        for (uint32_t b = 0; b < f->nblocks; b++)
            for (uint32_t ii = f->blocks[b].first; ii < f->blocks[b].first + f->blocks[b].count;
                 ii++) {
                uint32_t callee = p->insns[ii].a;
                if (p->insns[ii].cf == CVM_CF_CALL && callee < p->nfuncs && !reach[callee]) {
                    reach[callee] = 1;
                    stack[top++] = callee;
                }
            }
    }
    cvm_mem_free(stack);
    /* the variables an access chain indexes with a value that is not a
     * constant (invocation_var) */
    uint8_t *dyn = cvm_calloc(p->bound ? p->bound : 1, 1);
    if (!dyn) {
        cvm_mem_free(reach);
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t fi = 0; fi < p->nfuncs && fi < mod->nfunctions; fi++) {
        if (!reach[fi])
            continue;
        size_t off = mod->functions[fi].begin;
        spv_inst si;
        while (off < mod->functions[fi].end && spv_next_inst(&mod->bin, &off, &si, NULL) == 1) {
            if ((si.opcode != SpvOpAccessChain && si.opcode != SpvOpInBoundsAccessChain) ||
                si.word_count < 5 || si.words[3] >= p->bound ||
                mod->defs[si.words[3]].opcode != SpvOpVariable)
                continue;
            for (uint32_t k = 4; k < si.word_count; k++)
                if (si.words[k] >= p->bound || p->const_offset[si.words[k]] == UINT64_MAX)
                    dyn[si.words[3]] = 1;
        }
    }
    cvm_result r = CVM_SUCCESS;
    for (uint32_t id = 1; id < p->bound && r == CVM_SUCCESS; id++) {
        const spv_def *d = &mod->defs[id];
        if (d->opcode != SpvOpVariable || j->ptrs[id].kind != JP_NONE)
            continue;
        spv_inst vi;
        if (!spv_module_def_inst(mod, id, &vi) || vi.word_count < 4)
            continue;
        if (d->func == UINT32_MAX) {
            /* a Private variable the code cannot hold stays unnamed: what
             * names it is not taken */
            if (vi.words[3] == SpvStorageClassPrivate &&
                invocation_var(j, id, vi.word_count > 4 ? vi.words[4] : 0, dyn[id]))
                r = record_var(j, id, vi.word_count > 4 ? vi.words[4] : 0);
            continue;
        }
        if (d->func >= p->nfuncs || !reach[d->func])
            continue;
        if (vi.words[3] != SpvStorageClassFunction)
            r = jit_unsupported_def(j, id, "a variable of this storage class");
        else if (!invocation_var(j, id, 0, dyn[id]))
            r = jit_unsupported_def(j, id, "a Function variable of this type");
        else /* (zero at the start, as the interpreter's per-invocation memory;
                an initializer is its OpVariable's, each time it runs) */
            r = record_var(j, id, 0);
    }
    cvm_mem_free(reach);
    cvm_mem_free(dyn);
    return r;
}

cvm_result setup_function_vars(jctx *j)
{
    const cvm_program *p = j->p;
    if (!j->leaf && !j->scope)
        return setup_invocation_vars(j);
    const spv_module *mod = j->mod;
    const spv_function *sf = NULL;
    for (uint32_t i = 0; i < mod->nfunctions; i++)
        if (mod->functions[i].id == j->f->id)
            sf = &mod->functions[i];
    if (!sf)
        return jit_unsupported(j, UINT32_MAX, "this function");
    size_t off = sf->begin;
    spv_inst si;
    while (off < sf->end && spv_next_inst(&mod->bin, &off, &si, NULL) == 1) {
        if (si.opcode != SpvOpVariable || si.word_count < 4)
            continue;
        uint32_t id = si.words[2];
        if (si.words[3] != SpvStorageClassFunction)
            return jit_unsupported_def(j, id, "a variable of this storage class");
        uint32_t pointee = p->types[si.words[1]].elem;
        LLVMTypeRef ty = value_type(j, pointee);
        if (j->scope && !ty)
            continue; /* stays in the interpreter's memory, its loads and
                         stores run by their handlers */
        if (j->scope && p->var_uoffset[id] == UINT64_MAX)
            return jit_unsupported_def(j, id,
                                       "a Function variable that may differ between invocations");
        if (!ty)
            return jit_unsupported_def(j, id, "a Function variable of this type");
        LLVMValueRef a = LLVMBuildAlloca(j->B, ty, "");
        j->ptrs[id].kind = JP_VAR;
        j->ptrs[id].alloca = a;
        j->ptrs[id].var_type = pointee;
        j->ptrs[id].type = pointee;
        j->ptrs[id].comp = UINT32_MAX;
        CVM_TRY(record_var(j, id, si.word_count > 4 ? si.words[4] : 0));
    }
    return CVM_SUCCESS;
}

/* Per lane: Function variables zeroed, as the interpreter clears
 * per-invocation memory, or set to their initializer. */
cvm_result emit_var_init(jctx *j)
{
    for (uint32_t v = 0; v < j->nvars; v++) {
        jptr *pt = &j->ptrs[j->var_ids[v]];
        if (pt->kind == JP_MEM) { /* lane l's copy at l * inv_size + its offset */
            uint32_t id = j->var_ids[v];
            region_info *ri = jit_region(j, CVM_REGION_INVOCATION);
            if (!ri)
                return jit_unsupported_def(j, id, "this variable");
            pt->off = LLVMBuildAdd(j->B,
                                   LLVMBuildMul(j->B, LLVMBuildZExt(j->B, j->lane, j->i64, ""),
                                                c_i64(j, j->p->inv_size), ""),
                                   c_i64(j, j->p->var_offset[id]), "");
            LLVMValueRef at = LLVMBuildGEP2(j->B, j->i8, ri->base, &pt->off, 1, "");
            LLVMBuildMemSet(j->B, at, LLVMConstNull(j->i8), c_i64(j, type_of(j, pt->type)->mem_size),
                            1);
            if (j->var_inits[v]) {
                cvm_result r = emit_var_set(j, id, j->var_inits[v]);
                if (r != CVM_SUCCESS)
                    return r;
            }
            continue;
        }
        LLVMTypeRef ty = value_type(j, pt->var_type);
        LLVMValueRef init = LLVMConstNull(ty);
        if (j->var_inits[v]) {
            init = jit_const_value(j, j->var_inits[v]);
            if (!init || LLVMTypeOf(init) != ty)
                return jit_unsupported(j, UINT32_MAX, "this variable's initializer");
        }
        LLVMBuildStore(j->B, init, pt->alloca);
    }
    return CVM_SUCCESS;
}

/* Translates j->f into function `name`: the entry point (jit_fn), or with
 * j->leaf a leaf callback (jit_leaf_fn). */
/* The regions' base, size and writability, read once where the builder
 * stands (j->regions, j->rtab, j->nregions_v), for both forms of the entry
 * point. */
cvm_result read_regions(jctx *j)
{
    j->nregions = j->max_region + 1;
    j->regions = cvm_calloc(j->nregions, sizeof(region_info));
    if (!j->regions)
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    LLVMValueRef rtab = LLVMBuildLoad2(j->B, LLVMPointerType(j->region_t, 0),
                                       env_field(j, ENV_REGIONS, 0), "");
    j->rtab = rtab;
    j->nregions_v = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_NREGIONS, 0), "");
    for (uint32_t k = 0; k < j->nregions; k++) {
        LLVMValueRef i0[2] = {c_i32(j, k), c_i32(j, 0)};
        LLVMValueRef i1[2] = {c_i32(j, k), c_i32(j, 1)};
        LLVMValueRef i2[2] = {c_i32(j, k), c_i32(j, 2)};
        j->regions[k].base = LLVMBuildLoad2(j->B, j->ptr8,
                                            LLVMBuildInBoundsGEP2(j->B, j->region_t, rtab, i0, 2, ""), "");
        j->regions[k].size = LLVMBuildLoad2(j->B, j->i64,
                                            LLVMBuildInBoundsGEP2(j->B, j->region_t, rtab, i1, 2, ""), "");
        LLVMValueRef wr = LLVMBuildLoad2(j->B, j->i8,
                                         LLVMBuildInBoundsGEP2(j->B, j->region_t, rtab, i2, 2, ""), "");
        j->regions[k].writable = LLVMBuildICmp(j->B, LLVMIntNE, wr, LLVMConstNull(j->i8), "");
    }
    return CVM_SUCCESS;
}

cvm_result jit_translate(jctx *j, const char *name)
{
    const cvm_function *f = j->f;
    cvm_result r;
    LLVMTypeRef envp = LLVMPointerType(j->env_t, 0);
    LLVMTypeRef leaf_params[3] = {envp, j->tile ? j->ptr8 : LLVMPointerType(j->val_t, 0),
                                  j->ptr8};
    LLVMTypeRef fty = j->leaf ? LLVMFunctionType(j->i32, leaf_params, 3, 0)
                              : LLVMFunctionType(j->i32, &envp, 1, 0);
    j->fn = LLVMAddFunction(j->M, name, fty);
    j->env = LLVMGetParam(j->fn, 0);
    if (j->leaf) {
        /* the results buffer is the callback's own scratch (interp.c): no
         * argument, region or environment is reached through it */
        unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
        LLVMAddAttributeAtIndex(j->fn, 3, LLVMCreateEnumAttribute(j->C, kind, 0));
    }
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(j->C, j->fn, "entry");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(j->C, j->fn, "lane");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(j->C, j->fn, "body");
    j->lane_next = LLVMAppendBasicBlockInContext(j->C, j->fn, "next");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(j->C, j->fn, "done");
    j->fail_bb = LLVMAppendBasicBlockInContext(j->C, j->fn, "fail");
    LLVMPositionBuilderAtEnd(j->B, entry);
    j->budget_var = LLVMBuildAlloca(j->B, j->i64, "budget");
    if ((r = setup_globals(j)) != CVM_SUCCESS || (r = setup_function_vars(j)) != CVM_SUCCESS)
        return r;
    LLVMBuildStore(j->B, LLVMBuildLoad2(j->B, j->i64, env_field(j, ENV_BUDGET, 0), ""),
                   j->budget_var);
    LLVMValueRef nlanes = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_NLANES, 0), "");
    LLVMValueRef sg = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_SG, 0), "");
    LLVMValueRef loop_lanes = nlanes;
    if (!j->leaf && !j->scope) {
        LLVMValueRef exp = LLVMBuildLoad2(j->B, j->ptr8, env_field(j, ENV_EX, 0), "");
        j->max_depth_v = jit_invariant(
            j, LLVMBuildLoad2(j->B, j->i32, ex_field(j, exp, offsetof(cvm_exec, max_depth), j->i32),
                              "max_depth"));
    }
    if (j->scope) { /* once for the workgroup, as its lane 0 */
        loop_lanes = c_i32(j, 1);
        j->budget_unit = LLVMBuildZExt(j->B, sg, j->i64, "");
        LLVMValueRef exp = LLVMBuildLoad2(j->B, j->ptr8, env_field(j, ENV_EX, 0), "");
        LLVMTypeRef valp = LLVMPointerType(j->val_t, 0);
        j->vals_base = LLVMBuildLoad2(j->B, valp, ex_field(j, exp, offsetof(cvm_exec, vals), valp),
                                      "vals");
    }
    if ((r = read_regions(j)) != CVM_SUCCESS)
        return r;
    LLVMBuildBr(j->B, head);

    /* a tile: its fields, the first element's row and column */
    LLVMValueRef first = c_i32(j, 0), r0 = NULL, c0 = NULL, tile_n = NULL;
    if (j->tile) {
        LLVMPositionBuilderBefore(j->B, LLVMGetBasicBlockTerminator(entry));
        LLVMValueRef tp = LLVMGetParam(j->fn, 1);
        j->tile_rows = tile_field(j, tp, offsetof(cvm_decode_tile, rows), j->ptr8);
        j->tile_cols = tile_field(j, tp, offsetof(cvm_decode_tile, cols), j->ptr8);
        j->tile_base = tile_field(j, tp, offsetof(cvm_decode_tile, base), j->i64);
        j->tile_psize = tile_field(j, tp, offsetof(cvm_decode_tile, psize), j->i64);
        tile_n = tile_field(j, tp, offsetof(cvm_decode_tile, N), j->i32);
        j->tile_p = tile_field(j, tp, offsetof(cvm_decode_tile, p), j->i32);
        first = tile_field(j, tp, offsetof(cvm_decode_tile, k0), j->i32);
        nlanes = tile_field(j, tp, offsetof(cvm_decode_tile, k1), j->i32);
        r0 = LLVMBuildUDiv(j->B, first, tile_n, "");
        c0 = LLVMBuildURem(j->B, first, tile_n, "");
    }

    /* lane loop; a tile's as two, over its rows and over a row's columns,
     * so that what depends on the row alone is computed once a row */
    LLVMPositionBuilderAtEnd(j->B, head);
    LLVMValueRef lane_o = NULL, col_o = NULL;
    LLVMBasicBlockRef inner = NULL, row_next = NULL;
    if (j->tile) {
        lane_o = LLVMBuildPhi(j->B, j->i32, "lo");
        j->tile_row = LLVMBuildPhi(j->B, j->i32, "r");
        col_o = LLVMBuildPhi(j->B, j->i32, "co");
        inner = LLVMAppendBasicBlockInContext(j->C, j->fn, "cols");
        row_next = LLVMAppendBasicBlockInContext(j->C, j->fn, "nextrow");
        LLVMBuildCondBr(j->B, LLVMBuildICmp(j->B, LLVMIntULT, lane_o, nlanes, ""), inner, done);
        LLVMPositionBuilderAtEnd(j->B, inner);
        j->lane = LLVMBuildPhi(j->B, j->i32, "l");
        j->tile_col = LLVMBuildPhi(j->B, j->i32, "c");
        LLVMBuildBr(j->B, body);
    } else {
        j->lane = LLVMBuildPhi(j->B, j->i32, "l");
        LLVMValueRef more = LLVMBuildICmp(j->B, LLVMIntULT, j->lane, loop_lanes, "");
        LLVMBuildCondBr(j->B, more, body, done);
    }
    LLVMPositionBuilderAtEnd(j->B, body);
    if (j->tile) /* diagnostics name the call as the interpreter's batches do */
        j->lane_msg = LLVMBuildURem(j->B, j->lane, c_i32(j, CVM_CALLBACK_BATCH), "");
    if ((r = j->tile ? emit_tile_params(j) : j->leaf ? emit_params(j)
                                                     : emit_builtins(j, nlanes, sg)) != CVM_SUCCESS ||
        (r = emit_var_init(j)) != CVM_SUCCESS)
        return r;

    /* the SPIR-V blocks */
    if ((r = emit_blocks(j, f)) != CVM_SUCCESS)
        return r;

    LLVMPositionBuilderAtEnd(j->B, j->lane_next);
    LLVMValueRef nl = LLVMBuildAdd(j->B, j->lane, c_i32(j, 1), "");
    if (j->tile) { /* the next column of the row, or the next row's first */
        LLVMValueRef c1 = LLVMBuildAdd(j->B, j->tile_col, c_i32(j, 1), "");
        LLVMValueRef cont = LLVMBuildAnd(j->B, LLVMBuildICmp(j->B, LLVMIntULT, c1, tile_n, ""),
                                         LLVMBuildICmp(j->B, LLVMIntULT, nl, nlanes, ""), "");
        LLVMBuildCondBr(j->B, cont, inner, row_next);
        LLVMValueRef iv[2] = {lane_o, nl}, icv[2] = {col_o, c1};
        LLVMBasicBlockRef ib[2] = {head, j->lane_next};
        LLVMAddIncoming(j->lane, iv, ib, 2);
        LLVMAddIncoming(j->tile_col, icv, ib, 2);
        LLVMPositionBuilderAtEnd(j->B, row_next);
        LLVMValueRef r1 = LLVMBuildAdd(j->B, j->tile_row, c_i32(j, 1), "");
        LLVMBuildBr(j->B, head);
        LLVMValueRef ov[2] = {first, nl}, rv[2] = {r0, r1}, cv[2] = {c0, c_i32(j, 0)};
        LLVMBasicBlockRef ob[2] = {entry, row_next};
        LLVMAddIncoming(lane_o, ov, ob, 2);
        LLVMAddIncoming(j->tile_row, rv, ob, 2);
        LLVMAddIncoming(col_o, cv, ob, 2);
    } else {
        LLVMBuildBr(j->B, head);
        LLVMValueRef inv[2] = {first, nl};
        LLVMBasicBlockRef inb[2] = {entry, j->lane_next};
        LLVMAddIncoming(j->lane, inv, inb, 2);
    }

    LLVMPositionBuilderAtEnd(j->B, done);
    if (!j->leaf)
        LLVMBuildStore(j->B, LLVMBuildLoad2(j->B, j->i64, j->budget_var, ""),
                       env_field(j, ENV_BUDGET, 0));
    LLVMBuildRet(j->B, c_i32(j, 0));
    LLVMPositionBuilderAtEnd(j->B, j->fail_bb);
    LLVMBuildRet(j->B, c_i32(j, 1));
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
