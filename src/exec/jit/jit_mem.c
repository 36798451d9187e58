/* The compiled tier's memory: access chains, loads and stores through the
 * pointers the code describes (jptr: a variable in a register, a built-in,
 * a region and an offset), each access checked inline with the
 * interpreter's report on the slow path; whole arrays and structs copied
 * between layouts; pointer bit casts and atomics. */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

region_info *jit_region(jctx *j, uint32_t reg)
{
    if (reg >= j->nregions)
        return NULL;
    return &j->regions[reg];
}

/* `load` marked invariant (!invariant.load): what it reads does not change
 * while the code runs.  Returns it. */
LLVMValueRef jit_invariant(jctx *j, LLVMValueRef load)
{
    unsigned kind = LLVMGetMDKindIDInContext(j->C, "invariant.load", 14);
    LLVMSetMetadata(load, kind, LLVMMDNodeInContext(j->C, NULL, 0));
    return load;
}

/* The region of a JP_ADDR pointer, read from the table when its index is
 * below env->nregions (index 0, the null region, otherwise: the check then
 * fails, and the slow path finds the region as cvm_mem_access does). */
static region_info dynamic_region(jctx *j, LLVMValueRef reg, LLVMValueRef *o_in_table)
{
    region_info ri;
    LLVMValueRef inr = LLVMBuildICmp(j->B, LLVMIntULT, reg, j->nregions_v, "");
    LLVMValueRef k = LLVMBuildSelect(j->B, inr, reg, c_i32(j, 0), "");
    LLVMValueRef i0[2] = {k, c_i32(j, 0)}, i1[2] = {k, c_i32(j, 1)}, i2[2] = {k, c_i32(j, 2)};
    /* (the table does not change while the code runs: invariant loads,
     * which LLVM may share between accesses and hoist out of the loop) */
    ri.base = jit_invariant(j, LLVMBuildLoad2(j->B, j->ptr8, LLVMBuildInBoundsGEP2(j->B, j->region_t, j->rtab, i0, 2, ""), ""));
    ri.size = jit_invariant(j, LLVMBuildLoad2(j->B, j->i64, LLVMBuildInBoundsGEP2(j->B, j->region_t, j->rtab, i1, 2, ""), ""));
    LLVMValueRef wr = jit_invariant(j, LLVMBuildLoad2(j->B, j->i8, LLVMBuildInBoundsGEP2(j->B, j->region_t, j->rtab, i2, 2, ""), ""));
    ri.writable = LLVMBuildICmp(j->B, LLVMIntNE, wr, LLVMConstNull(j->i8), "");
    *o_in_table = inr;
    return ri;
}

/* A host pointer to `size` bytes at p's offset, checked (branching to the
 * slow path), or NULL when the tier cannot (reported). */
static LLVMValueRef mem_address(jctx *j, const jptr *pt, uint32_t size, int write)
{
    region_info dyn, *ri;
    LLVMValueRef in_table = NULL;
    if (pt->kind == JP_ADDR && j->tile) {
        /* the bytes past the DecodeFunc's pointer this access reaches */
        if (!pt->rel_known || write) {
            j->acc_unknown = 1;
            if (j->unchecked)
                return NULL;
        } else {
            if (pt->rel_lo < j->acc_lo)
                j->acc_lo = pt->rel_lo;
            if (pt->rel_hi + size > j->acc_hi)
                j->acc_hi = pt->rel_hi + size;
        }
        if (j->unchecked) { /* cvm_jit_run_tile checked the whole tile's range */
            dyn = dynamic_region(j, pt->dreg, &in_table);
            LLVMValueRef off = pt->off;
            return LLVMBuildGEP2(j->B, j->i8, dyn.base, &off, 1, "");
        }
    }
    if (pt->kind == JP_ADDR) {
        dyn = dynamic_region(j, pt->dreg, &in_table);
        ri = &dyn;
    } else if (!(ri = jit_region(j, pt->region))) {
        return NULL;
    }
    LLVMValueRef off = pt->off;
    LLVMValueRef in1 = LLVMBuildICmp(j->B, LLVMIntULE, off, ri->size, "");
    LLVMValueRef room = LLVMBuildSub(j->B, ri->size, off, "");
    LLVMValueRef in2 = LLVMBuildICmp(j->B, LLVMIntUGE, room, c_i64(j, size), "");
    LLVMValueRef ok = LLVMBuildAnd(j->B, in1, in2, "");
    if (in_table)
        ok = LLVMBuildAnd(j->B, ok, in_table, "");
    if (write)
        ok = LLVMBuildAnd(j->B, ok, ri->writable, "");
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(j->C, j->fn, "fast");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(j->C, j->fn, "slow");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(j->C, j->fn, "mem");
    LLVMValueRef br = LLVMBuildCondBr(j->B, ok, fast, slow);
    (void)br;
    LLVMPositionBuilderAtEnd(j->B, fast);
    LLVMValueRef hp = LLVMBuildGEP2(j->B, j->i8, ri->base, &off, 1, "");
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, slow);
    LLVMTypeRef params[7] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32, j->i32, j->i64,
                             j->i32, j->i32};
    LLVMTypeRef fty = LLVMFunctionType(j->ptr8, params, 7, 0);
    LLVMValueRef args[7] = {j->env, c_i32(j, j->cur_insn), j->lane_msg ? j->lane_msg : j->lane,
                            pt->kind == JP_ADDR ? pt->dreg : c_i32(j, pt->region), off,
                            c_i32(j, size), c_i32(j, (uint64_t)write)};
    LLVMValueRef sp = LLVMBuildCall2(j->B, fty, fn_const(j, (void *)jit_access_slow, fty), args, 7,
                                     "");
    LLVMValueRef isnull = LLVMBuildIsNull(j->B, sp, "");
    LLVMBasicBlockRef slow_ok = LLVMAppendBasicBlockInContext(j->C, j->fn, "slowok");
    LLVMBuildCondBr(j->B, isnull, j->fail_bb, slow_ok);
    LLVMPositionBuilderAtEnd(j->B, slow_ok);
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, join);
    LLVMValueRef phi = LLVMBuildPhi(j->B, j->ptr8, "");
    LLVMValueRef inv[2] = {hp, sp};
    LLVMBasicBlockRef inb[2] = {fast, slow_ok};
    LLVMAddIncoming(phi, inv, inb, 2);
    return phi;
}

/* Memory and register layouts agree for the types the tier loads (scalars
 * and packed vectors of 8- to 64-bit components; booleans are not in
 * memory). */
int mem_type_ok(jctx *j, uint32_t tid)
{
    if (!value_type(j, tid) || comp_sk(j, tid) == CVM_SK_BOOL)
        return 0;
    const cvm_type *t = type_of(j, tid);
    return t->size <= JIT_MAX_ACCESS && t->mem_size == t->size;
}

/* An array or struct the entry point's form holds as a copy on the stack
 * in register layout (j->arrs), loaded and stored whole: between
 * per-invocation memory and the copy (glslang passes one to a function
 * so: loaded, then stored to the parameter's variable), or between a
 * buffer or push constant block, in its explicit layout, and the copy
 * (a struct of parameters read whole, as shaders built without
 * optimisation read one, then OpCopyLogical to the type without layout). */
int agg_type_ok(jctx *j, uint32_t tid)
{
    if (tid >= j->p->ntypes || j->leaf || j->scope)
        return 0;
    const cvm_type *t = type_of(j, tid);
    return (t->tclass == CVM_TC_ARRAY || t->tclass == CVM_TC_STRUCT) && t->size && t->mem_size;
}

/* A byte run of a layout copy: `len` bytes between register offset `reg`
 * and memory offset `mem`. */
typedef struct jrun {
    uint32_t reg, mem, len;
} jrun;

/* Runs the code copies inline, at most; a type of more is copied by
 * jit_agg alone. */
#define JIT_MAX_RUNS 64

/* The byte runs of interp.c copy_layout for type `tid` at register offset
 * `reg` and memory offset `mem`, in its order, merged where both sides
 * continue each other; appended to runs[*n].  Returns 0 when there would
 * be more than JIT_MAX_RUNS (or a type it does not know). */
static int layout_runs(jctx *j, uint32_t tid, uint32_t reg, uint32_t mem, int to_reg, jrun *runs,
                       uint32_t *n, int depth)
{
    const cvm_type *t = tid < j->p->ntypes ? type_of(j, tid) : NULL;
    if (!t || depth > 32)
        return 0;
    if (!t->has_layout || (t->tclass != CVM_TC_ARRAY && t->tclass != CVM_TC_STRUCT &&
                           t->tclass != CVM_TC_MATRIX && t->tclass != CVM_TC_VECTOR)) {
        uint32_t len = (!t->has_layout && !to_reg) ? t->mem_size : t->size;
        if (!len)
            return 1;
        if (*n && runs[*n - 1].reg + runs[*n - 1].len == reg &&
            runs[*n - 1].mem + runs[*n - 1].len == mem) {
            runs[*n - 1].len += len;
            return 1;
        }
        if (*n >= JIT_MAX_RUNS)
            return 0;
        runs[(*n)++] = (jrun){reg, mem, len};
        return 1;
    }
    switch (t->tclass) {
    case CVM_TC_ARRAY: {
        const cvm_type *e = type_of(j, t->elem);
        uint32_t a = t->align ? t->align : 1;
        uint32_t esize = (e->size + a - 1) / a * a;
        for (uint32_t i = 0; i < t->count; i++)
            if (!layout_runs(j, t->elem, reg + i * esize, mem + i * t->array_stride, to_reg, runs,
                             n, depth + 1))
                return 0;
        return 1;
    }
    case CVM_TC_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++)
            if (!layout_runs(j, t->member_types[i], reg + t->member_offsets[i],
                             mem + t->member_mem_offsets[i], to_reg, runs, n, depth + 1))
                return 0;
        return 1;
    case CVM_TC_MATRIX: {
        const cvm_type *col = type_of(j, t->elem);
        uint32_t esize = type_of(j, col->elem)->size;
        uint32_t mem_step = t->row_major ? esize : t->matrix_stride;
        uint32_t mcol = t->mem_elem ? t->mem_elem : t->elem;
        for (uint32_t c = 0; c < t->count; c++)
            if (!layout_runs(j, mcol, reg + c * col->size, mem + c * mem_step, to_reg, runs, n,
                             depth + 1))
                return 0;
        return 1;
    }
    default: { /* a vector */
        uint32_t esize = type_of(j, t->elem)->size;
        uint32_t step = t->comp_stride ? t->comp_stride : esize;
        for (uint32_t k = 0; k < t->count; k++) {
            uint32_t r = reg + k * esize, m = mem + k * step;
            if (*n && runs[*n - 1].reg + runs[*n - 1].len == r &&
                runs[*n - 1].mem + runs[*n - 1].len == m) {
                runs[*n - 1].len += esize;
                continue;
            }
            if (*n >= JIT_MAX_RUNS)
                return 0;
            runs[(*n)++] = (jrun){r, m, esize};
        }
        return 1;
    }
    }
}

/* A whole array or struct between memory (pt, in the layout of type
 * `tid`, the instruction's) and the copy at `val` (an alloca of at least
 * the type's size): in bounds (and writable, for a store), the layout's
 * runs copied inline; anything else, and a type of many runs, through
 * jit_agg, the interpreter's check and copy. */
static void emit_agg(jctx *j, const jptr *pt, uint32_t tid, LLVMValueRef val, int write)
{
    LLVMTypeRef params[7] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32, j->i32, j->i64,
                             j->ptr8, j->i32};
    LLVMValueRef args[7] = {j->env, c_i32(j, j->cur_insn), j->lane_msg ? j->lane_msg : j->lane,
                            c_i32(j, pt->region), pt->off, val, c_i32(j, (uint64_t)write)};
    const cvm_type *t = type_of(j, tid);
    region_info *ri = jit_region(j, pt->region);
    jrun runs[JIT_MAX_RUNS];
    uint32_t n = 0;
    if (!ri || !layout_runs(j, tid, 0, 0, !write, runs, &n, 0)) {
        emit_checked_call(j, (void *)jit_agg, params, args, 7);
        return;
    }
    LLVMValueRef off = pt->off;
    LLVMValueRef in1 = LLVMBuildICmp(j->B, LLVMIntULE, off, ri->size, "");
    LLVMValueRef room = LLVMBuildSub(j->B, ri->size, off, "");
    LLVMValueRef in2 = LLVMBuildICmp(j->B, LLVMIntUGE, room, c_i64(j, t->mem_size), "");
    LLVMValueRef ok = LLVMBuildAnd(j->B, in1, in2, "");
    if (write)
        ok = LLVMBuildAnd(j->B, ok, ri->writable, "");
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(j->C, j->fn, "aggfast");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(j->C, j->fn, "aggslow");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(j->C, j->fn, "agg");
    LLVMBuildCondBr(j->B, ok, fast, slow);
    LLVMPositionBuilderAtEnd(j->B, fast);
    LLVMValueRef hp = LLVMBuildGEP2(j->B, j->i8, ri->base, &off, 1, "");
    for (uint32_t k = 0; k < n; k++) {
        LLVMValueRef ro = c_i64(j, runs[k].reg), mo = c_i64(j, runs[k].mem);
        LLVMValueRef rp = LLVMBuildGEP2(j->B, j->i8, val, &ro, 1, "");
        LLVMValueRef mp = LLVMBuildGEP2(j->B, j->i8, hp, &mo, 1, "");
        LLVMBuildMemCpy(j->B, write ? mp : rp, 1, write ? rp : mp, 1, c_i64(j, runs[k].len));
    }
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, slow);
    emit_checked_call(j, (void *)jit_agg, params, args, 7);
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, join);
}

cvm_result emit_load(jctx *j, uint32_t result, uint32_t tid, uint32_t ptr_id)
{
    const jptr *pt = ptr_id < j->p->bound ? &j->ptrs[ptr_id] : NULL;
    LLVMTypeRef ty = value_type(j, tid);
    uint32_t lt = j->p->insns[j->cur_insn].type; /* the memory layout h_load reads */
    if (pt && !ty && pt->kind == JP_MEM && pt->type == lt && agg_type_ok(j, tid) &&
        agg_type_ok(j, lt) && type_of(j, lt)->size == type_of(j, tid)->size) {
        /* the value is a copy on the stack (j->arrs), in register layout,
         * which OpCompositeExtract reads */
        LLVMValueRef slot = new_slot(j, type_of(j, tid)->size);
        emit_agg(j, pt, lt, slot, 0);
        j->arrs[result] = slot;
        return CVM_SUCCESS;
    }
    if (!pt || !ty)
        return jit_unsupported(j, j->cur_insn, "this load");
    switch (pt->kind) {
    case JP_VAR: {
        if (pt->comp == UINT32_MAX) {
            j->vals[result] = LLVMBuildLoad2(j->B, ty, pt->alloca, "");
        } else {
            LLVMTypeRef vt = value_type(j, pt->var_type);
            LLVMValueRef v = LLVMBuildLoad2(j->B, vt, pt->alloca, "");
            j->vals[result] = LLVMBuildExtractElement(j->B, v, c_i32(j, pt->comp), "");
        }
        return CVM_SUCCESS;
    }
    case JP_BUILTIN: {
        LLVMValueRef v = j->builtin_vals[pt->builtin & 63];
        if (!v)
            return jit_unsupported(j, j->cur_insn, "this built-in");
        if (pt->comp != UINT32_MAX)
            v = LLVMBuildExtractElement(j->B, v, c_i32(j, pt->comp), "");
        if (LLVMTypeOf(v) != ty)
            return jit_unsupported(j, j->cur_insn, "this built-in's type");
        j->vals[result] = v;
        return CVM_SUCCESS;
    }
    case JP_MEM:
    case JP_ADDR: {
        if (!mem_type_ok(j, tid))
            return jit_unsupported(j, j->cur_insn, "a load of this type from memory");
        LLVMValueRef hp = mem_address(j, pt, type_of(j, tid)->size, 0);
        if (!hp)
            return jit_unsupported(j, j->cur_insn, "this region");
        LLVMValueRef typed = LLVMBuildBitCast(j->B, hp, LLVMPointerType(ty, 0), "");
        LLVMValueRef v = LLVMBuildLoad2(j->B, ty, typed, "");
        LLVMSetAlignment(v, 1);
        j->vals[result] = v;
        return CVM_SUCCESS;
    }
    default:
        return jit_unsupported(j, j->cur_insn, "a load through this pointer");
    }
}

cvm_result emit_store(jctx *j, uint32_t ptr_id, uint32_t val_id)
{
    const jptr *pt = ptr_id < j->p->bound ? &j->ptrs[ptr_id] : NULL;
    if (pt && pt->kind == JP_MEM && val_id < j->p->bound &&
        j->p->const_offset[val_id] != UINT64_MAX && j->mod->defs[val_id].type == pt->type &&
        !value_type(j, pt->type)) {
        /* a constant array or struct (glslang sets a Private variable's
         * initializer so, at the start of main) */
        LLVMTypeRef params[5] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32, j->i32, j->i64};
        LLVMValueRef args[5] = {j->env, c_i32(j, j->cur_insn), j->lane_msg ? j->lane_msg : j->lane,
                                c_i32(j, pt->region), pt->off};
        emit_checked_call(j, (void *)jit_store_const, params, args, 5);
        return CVM_SUCCESS;
    }
    uint32_t lt = j->p->insns[j->cur_insn].type; /* the memory layout h_store writes */
    if (pt && pt->kind == JP_MEM && val_id < j->p->bound && j->arrs[val_id] && pt->type == lt &&
        agg_type_ok(j, lt) && agg_type_ok(j, j->mod->defs[val_id].type) &&
        type_of(j, lt)->size == type_of(j, j->mod->defs[val_id].type)->size) {
        emit_agg(j, pt, lt, j->arrs[val_id], 1);
        return CVM_SUCCESS;
    }
    LLVMValueRef v = get_val(j, val_id);
    if (!pt || !v)
        return jit_unsupported(j, j->cur_insn, "this store");
    uint32_t tid = j->mod->defs[val_id].type;
    if (tid != pt->type && !(tid < j->p->ntypes && pt->type < j->p->ntypes &&
                             LLVMTypeOf(v) == value_type(j, pt->type)))
        return jit_unsupported(j, j->cur_insn, "a store of another type");
    switch (pt->kind) {
    case JP_VAR:
        if (pt->comp == UINT32_MAX) {
            LLVMBuildStore(j->B, v, pt->alloca);
        } else {
            LLVMTypeRef vt = value_type(j, pt->var_type);
            LLVMValueRef whole = LLVMBuildLoad2(j->B, vt, pt->alloca, "");
            whole = LLVMBuildInsertElement(j->B, whole, v, c_i32(j, pt->comp), "");
            LLVMBuildStore(j->B, whole, pt->alloca);
        }
        return CVM_SUCCESS;
    case JP_MEM:
    case JP_ADDR: {
        if (!mem_type_ok(j, tid))
            return jit_unsupported(j, j->cur_insn, "a store of this type to memory");
        LLVMValueRef hp = mem_address(j, pt, type_of(j, tid)->size, 1);
        if (!hp)
            return jit_unsupported(j, j->cur_insn, "this region");
        LLVMValueRef typed = LLVMBuildBitCast(j->B, hp, LLVMPointerType(LLVMTypeOf(v), 0), "");
        LLVMSetAlignment(LLVMBuildStore(j->B, v, typed), 1);
        return CVM_SUCCESS;
    }
    default:
        return jit_unsupported(j, j->cur_insn, "a store through this pointer");
    }
}

/* Index operand as a signed i64 (the texts read indices as signed). */
static LLVMValueRef index_i64(jctx *j, uint32_t id)
{
    LLVMValueRef v = get_val(j, id);
    if (!v || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return NULL;
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (w == 64)
        return v;
    if (w == 1)
        return NULL;
    uint8_t sk = comp_sk(j, j->mod->defs[id].type);
    return (sk >= CVM_SK_U8 && sk <= CVM_SK_U64) ? LLVMBuildZExt(j->B, v, j->i64, "")
                                                 : LLVMBuildSExt(j->B, v, j->i64, "");
}

static int const_index(jctx *j, uint32_t id, uint64_t *o)
{
    LLVMValueRef v = get_val(j, id);
    if (!v || !LLVMIsAConstantInt(v))
        return 0;
    *o = LLVMConstIntGetZExtValue(v);
    return 1;
}

/* The values integer `id` may take, read as unsigned at its width, from
 * how the SPIR-V computes it (constants, AND with a bound, logical right
 * shifts, zero extension, sums and products without overflow; anything
 * else is its type's range).  Returns 0 for a value of no integer type. */
static int value_range(jctx *j, uint32_t id, int depth, uint64_t *o_lo, uint64_t *o_hi)
{
    if (id == 0 || id >= j->p->bound)
        return 0;
    const spv_def *d = &j->mod->defs[id];
    if (d->type >= j->p->ntypes || type_of(j, d->type)->tclass != CVM_TC_INT)
        return 0;
    uint32_t bits = type_of(j, d->type)->size * 8u;
    uint64_t max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    *o_lo = 0;
    *o_hi = max;
    uint64_t c;
    if (const_index(j, id, &c)) {
        *o_lo = *o_hi = c & max;
        return 1;
    }
    spv_inst si;
    if (depth > 8 || d->opcode == SpvOpFunctionParameter || d->opcode == SpvOpVariable ||
        !spv_module_inst_at(j->mod, d->off, &si) || si.word_count < 4)
        return 1;
    const uint32_t *w = si.words;
    uint64_t al, ah, bl, bh;
    switch (si.opcode) {
    case SpvOpBitwiseAnd:
        if (si.word_count == 5 && value_range(j, w[3], depth + 1, &al, &ah) &&
            value_range(j, w[4], depth + 1, &bl, &bh))
            *o_hi = ah < bh ? ah : bh;
        return 1;
    case SpvOpShiftRightLogical:
        if (si.word_count == 5 && value_range(j, w[3], depth + 1, &al, &ah) &&
            value_range(j, w[4], depth + 1, &bl, &bh) && bl == bh && bl < bits) {
            *o_lo = al >> bl;
            *o_hi = ah >> bl;
        }
        return 1;
    case SpvOpUConvert:
        if (value_range(j, w[3], depth + 1, &al, &ah) && ah <= max) {
            *o_lo = al;
            *o_hi = ah;
        }
        return 1;
    case SpvOpIAdd:
    case SpvOpIMul:
        if (si.word_count == 5 && value_range(j, w[3], depth + 1, &al, &ah) &&
            value_range(j, w[4], depth + 1, &bl, &bh)) {
            uint64_t lo, hi;
            int ovf;
            if (si.opcode == SpvOpIAdd) {
                ovf = __builtin_add_overflow(al, bl, &lo);
                ovf += __builtin_add_overflow(ah, bh, &hi);
            } else {
                ovf = __builtin_mul_overflow(al, bl, &lo);
                ovf += __builtin_mul_overflow(ah, bh, &hi);
            }
            if (!ovf && hi <= max) {
                *o_lo = lo;
                *o_hi = hi;
            }
        }
        return 1;
    default:
        return 1;
    }
}

cvm_result emit_access_chain(jctx *j, const spv_inst *si)
{
    const uint32_t *w = si->words;
    uint32_t result = w[2], base = w[3];
    if (si->word_count < 4 || base >= j->p->bound || j->ptrs[base].kind == JP_NONE)
        return jit_unsupported(j, j->cur_insn, "this access chain's base");
    jptr pt = j->ptrs[base];
    for (uint32_t k = 4; k < si->word_count; k++) {
        const cvm_type *t = type_of(j, pt.type);
        uint32_t idx_id = w[k];
        uint64_t ci;
        int is_const = const_index(j, idx_id, &ci);
        if (pt.kind == JP_VAR || pt.kind == JP_BUILTIN) {
            /* a component of a vector variable or built-in */
            if (t->tclass != CVM_TC_VECTOR || !is_const || ci >= t->count ||
                pt.comp != UINT32_MAX)
                return jit_unsupported(j, j->cur_insn, "this access chain into a variable");
            pt.comp = (uint32_t)ci;
            pt.type = t->elem;
            continue;
        }
        switch (t->tclass) {
        case CVM_TC_STRUCT:
            if (!is_const || ci >= t->nmembers)
                return jit_unsupported(j, j->cur_insn, "this struct index");
            pt.off = LLVMBuildAdd(j->B, pt.off, c_i64(j, t->member_mem_offsets[ci]), "");
            pt.type = t->member_types[ci];
            pt.rel_lo += t->member_mem_offsets[ci];
            pt.rel_hi += t->member_mem_offsets[ci];
            break;
        case CVM_TC_ARRAY:
        case CVM_TC_VECTOR: {
            uint64_t stride = t->tclass == CVM_TC_ARRAY ? t->array_stride
                                                        : type_of(j, t->elem)->mem_size;
            if (t->tclass == CVM_TC_VECTOR && t->comp_stride)
                return jit_unsupported(j, j->cur_insn, "a strided vector");
            if (t->tclass == CVM_TC_ARRAY && !t->has_layout && t->array_stride == 0)
                return jit_unsupported(j, j->cur_insn, "an array without a stride");
            LLVMValueRef ix = index_i64(j, idx_id);
            if (!ix)
                return jit_unsupported(j, j->cur_insn, "this index");
            pt.off = LLVMBuildAdd(j->B, pt.off, LLVMBuildMul(j->B, ix, c_i64(j, stride), ""), "");
            pt.type = t->elem;
            /* the index's range, read as the signed index it is: known
             * where it cannot be negative */
            uint64_t lo, hi;
            uint8_t isk = comp_sk(j, j->mod->defs[idx_id].type);
            int is_unsigned = isk >= CVM_SK_U8 && isk <= CVM_SK_U64;
            uint32_t ib = type_of(j, j->mod->defs[idx_id].type)->size * 8u;
            if (pt.rel_known && value_range(j, idx_id, 0, &lo, &hi) &&
                (is_unsigned || (ib <= 64 && hi < (UINT64_C(1) << (ib - 1)))) &&
                hi < (UINT64_C(1) << 32) && stride < (UINT64_C(1) << 24)) {
                pt.rel_lo += lo * stride;
                pt.rel_hi += hi * stride;
                if (pt.rel_hi >= (UINT64_C(1) << 60)) /* (no sum wraps) */
                    pt.rel_known = 0;
            } else {
                pt.rel_known = 0;
            }
            break;
        }
        default:
            return jit_unsupported(j, j->cur_insn, "an access chain through this type");
        }
    }
    j->ptrs[result] = pt;
    return CVM_SUCCESS;
}

/* OpBitcast with a pointer on either side (ops/convert.c h_bitcast copies
 * the 8 bytes of exec.h's address).  To another pointer: the same place
 * with another pointee type, for the pointers the code holds as a region
 * and an offset (JP_MEM, JP_ADDR; ggml's DecodeFuncs read one block
 * through several buffer_reference types).  Between a JP_ADDR pointer and
 * a 64-bit value (an integer, or two 32-bit ones): the address
 * CVM_ADDR(region, offset), an offset outside the region's 40 bits being
 * the region's last byte, as h_access_chain leaves an address whose offset
 * left it; the other way, a JP_ADDR of the value's region and offset bits.
 * Returns 0, doing nothing, when neither side is a pointer. */
int emit_ptr_bitcast(jctx *j, const spv_inst *si, cvm_result *o_r)
{
    const uint32_t *w = si->words;
    uint32_t rtype = w[1], result = w[2], src = si->word_count > 3 ? w[3] : 0;
    if (rtype >= j->p->ntypes || src >= j->p->bound || result >= j->p->bound)
        return 0;
    const cvm_type *rt = type_of(j, rtype);
    const jptr *sp = &j->ptrs[src];
    int rptr = rt->tclass == CVM_TC_POINTER;
    if (!rptr && sp->kind == JP_NONE)
        return 0;
    LLVMValueRef mask = c_i64(j, (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1);
    if (rptr && sp->kind != JP_NONE) {
        if (sp->kind != JP_MEM && sp->kind != JP_ADDR) {
            *o_r = jit_unsupported(j, j->cur_insn, "a bit cast of this pointer");
            return 1;
        }
        jptr pt = *sp;
        pt.type = rt->elem;
        j->ptrs[result] = pt;
        *o_r = CVM_SUCCESS;
        return 1;
    }
    /* the other side: a value of 8 bytes */
    uint32_t vtype = rptr ? j->mod->defs[src].type : rtype;
    LLVMValueRef x = rptr ? get_val(j, src) : NULL;
    if (!value_type(j, vtype) || comp_sk(j, vtype) == CVM_SK_BOOL || type_of(j, vtype)->size != 8 ||
        rt->size != 8 || (rptr && !x) || (!rptr && sp->kind != JP_ADDR)) {
        *o_r = jit_unsupported(j, j->cur_insn, "a bit cast between this pointer and this value");
        return 1;
    }
    if (rptr) {
        LLVMValueRef a = LLVMBuildBitCast(j->B, x, j->i64, "");
        jptr pt;
        memset(&pt, 0, sizeof(pt));
        pt.kind = JP_ADDR;
        pt.type = rt->elem;
        pt.comp = UINT32_MAX;
        pt.dreg = LLVMBuildTrunc(j->B, LLVMBuildLShr(j->B, a, c_i64(j, CVM_ADDR_OFFSET_BITS), ""),
                                 j->i32, "");
        pt.off = LLVMBuildAnd(j->B, a, mask, "");
        j->ptrs[result] = pt;
    } else {
        LLVMValueRef in = LLVMBuildICmp(j->B, LLVMIntULE, sp->off, mask, "");
        LLVMValueRef off = LLVMBuildSelect(j->B, in, sp->off, mask, "");
        LLVMValueRef reg = LLVMBuildShl(j->B, LLVMBuildZExt(j->B, sp->dreg, j->i64, ""),
                                        c_i64(j, CVM_ADDR_OFFSET_BITS), "");
        j->vals[result] = LLVMBuildBitCast(j->B, LLVMBuildOr(j->B, reg, off, ""),
                                           value_type(j, rtype), "");
    }
    *o_r = CVM_SUCCESS;
    return 1;
}

/* An atomic instruction (ops/atomic.c), one lane's, by the interpreter's
 * own code (jit_atomic): a real atomic on host memory, checked as h_atomic
 * checks it.  The pointer is memory the code addresses by region and
 * offset, handed over as exec.h's address (an offset past its 40 bits: the
 * region's last byte, as h_access_chain makes it). */
cvm_result emit_atomic(jctx *j, uint32_t ii, const cvm_insn *in)
{
    const cvm_program *p = j->p;
    const jptr *pt = in->a < p->bound ? &j->ptrs[in->a] : NULL;
    /* (buffers and Workgroup memory, whose addresses every lane shares;
     * not per-invocation memory, whose exec.h addresses are the lane's own) */
    if (!pt || pt->kind != JP_MEM ||
        (pt->region != CVM_REGION_WORKGROUP && pt->region < CVM_REGION_FIRST_BUFFER) ||
        !jit_region(j, pt->region))
        return jit_unsupported(j, ii, "an atomic instruction on this pointer");
    uint64_t lim = UINT64_C(1) << CVM_ADDR_OFFSET_BITS;
    LLVMValueRef bad = LLVMBuildICmp(j->B, LLVMIntUGE, pt->off, c_i64(j, lim), "");
    LLVMValueRef off = LLVMBuildSelect(j->B, bad, c_i64(j, lim - 1), pt->off, "");
    LLVMValueRef addr = LLVMBuildOr(j->B, off, c_i64(j, CVM_ADDR(pt->region, 0)), "");
    LLVMValueRef ops[2] = {LLVMConstNull(j->ptr8), LLVMConstNull(j->ptr8)};
    const uint32_t ids[2] = {in->b, in->c};
    for (int k = 0; k < 2; k++) {
        if (!ids[k])
            continue;
        uint32_t tid = ids[k] < p->bound ? j->mod->defs[ids[k]].type : 0;
        LLVMValueRef v = get_val(j, ids[k]);
        if (!v || !value_type(j, tid) || LLVMTypeOf(v) != value_type(j, tid) ||
            type_of(j, tid)->size > JIT_MAX_ACCESS)
            return jit_unsupported(j, ii, "this operand of an atomic instruction");
        ops[k] = jit_spill(j, v, tid);
    }
    LLVMValueRef res = LLVMConstNull(j->ptr8);
    if (in->result) {
        if (in->result >= p->bound || !in->type || !value_type(j, in->type) ||
            type_of(j, in->type)->size > JIT_MAX_ACCESS)
            return jit_unsupported(j, ii, "this atomic instruction's result");
        res = new_slot(j, type_of(j, in->type)->size);
    }
    LLVMTypeRef params[7] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32, j->i64,
                             j->ptr8, j->ptr8, j->ptr8};
    LLVMValueRef args[7] = {j->env, c_i32(j, ii), j->lane, addr, ops[0], ops[1], res};
    emit_checked_call(j, (void *)jit_atomic, params, args, 7);
    if (in->result)
        j->vals[in->result] = jit_unspill(j, res, in->type);
    return CVM_SUCCESS;
}

#endif /* CVM_HAVE_LLVM */
