/* The generated function around its blocks (jit_translate): the lane loop
 * (a tile's as one over its rows and one over a row's columns), the
 * built-ins, the regions read once, the pointers to module-scope
 * variables, and the variables each invocation starts with. */
#ifdef CVM_HAVE_LLVM

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
        if (j->scope && (!ty || p->var_uoffset[id] == UINT64_MAX))
            continue; /* stays in the interpreter's memory (a type the code does
                         not hold, or a copy per lane), its loads and stores
                         run by their handlers */
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

/* Translates j->f into function `name`: the entry point (jit_fn), or with
 * j->leaf a leaf callback (jit_leaf_fn). */
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

#endif /* CVM_HAVE_LLVM */
