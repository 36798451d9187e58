/* The compiled tier's values: its refusals (jit_unsupported), SPIR-V types
 * as LLVM types, constants, values spilled for the interpreter's lane
 * kernels, calls of C functions from the generated code, and the
 * composites (vectors, and arrays and structs held as copies in register
 * layout). */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

cvm_result jit_unsupported(jctx *j, uint32_t insn, const char *what)
{
    const cvm_insn *in = insn < j->p->ninsns ? &j->p->insns[insn] : NULL;
    if (!in)
        return cvm_diag_set(j->diag, CVM_ERROR_UNSUPPORTED, "the compiled tier does not take %s",
                            what);
    const spv_instruction_desc *d = spv_grammar_instruction(in->spv_op);
    return cvm_diag_at(j->diag, CVM_ERROR_UNSUPPORTED, in->word_off, in->spv_op,
                       "the compiled tier does not take %s (%s at word %u)", what,
                       d ? d->name : "the instruction", in->word_off);
}

/* jit_unsupported() for an instruction that is not one of the program's
 * (a variable, a parameter): id `id`'s definition is named. */
cvm_result jit_unsupported_def(jctx *j, uint32_t id, const char *what)
{
    const spv_def *d = id && id < j->p->bound ? &j->mod->defs[id] : NULL;
    if (!d || !d->off)
        return jit_unsupported(j, UINT32_MAX, what);
    const spv_instruction_desc *in = spv_grammar_instruction(d->opcode);
    const char *name = spv_module_name(j->mod, id);
    return cvm_diag_at(j->diag, CVM_ERROR_UNSUPPORTED, d->off, d->opcode,
                       "the compiled tier does not take %s (%s %%%u%s%s%s at word %u)", what,
                       in ? in->name : "the instruction", id, name && name[0] ? " '" : "",
                       name && name[0] ? name : "", name && name[0] ? "'" : "", d->off);
}

int sk_llvm_ok(const jctx *j, uint8_t sk)
{
    switch (sk) {
    case CVM_SK_F16:
        return j->has_f16;
    case CVM_SK_BOOL: case CVM_SK_S8: case CVM_SK_S16: case CVM_SK_S32: case CVM_SK_S64:
    case CVM_SK_U8: case CVM_SK_U16: case CVM_SK_U32: case CVM_SK_U64: case CVM_SK_F32:
    case CVM_SK_F64:
        return 1;
    default:
        return 0;
    }
}

LLVMTypeRef scalar_type(jctx *j, uint8_t sk)
{
    switch (sk) {
    case CVM_SK_BOOL: return j->i1;
    case CVM_SK_S8: case CVM_SK_U8: return j->i8;
    case CVM_SK_S16: case CVM_SK_U16: return j->i16;
    case CVM_SK_S32: case CVM_SK_U32: return j->i32;
    case CVM_SK_S64: case CVM_SK_U64: return j->i64;
    case CVM_SK_F16: return j->f16;
    case CVM_SK_F32: return j->f32;
    default: return j->f64;
    }
}

/* The LLVM type of a value of type `tid`, or NULL when the tier has none. */
LLVMTypeRef value_type(jctx *j, uint32_t tid)
{
    if (tid >= j->p->ntypes)
        return NULL;
    const cvm_type *t = &j->p->types[tid];
    if (t->coopvec)
        return NULL;
    switch (t->tclass) {
    case CVM_TC_BOOL: case CVM_TC_INT: case CVM_TC_FLOAT:
        return sk_llvm_ok(j, t->sk) ? scalar_type(j, t->sk) : NULL;
    case CVM_TC_VECTOR: {
        const cvm_type *e = t->elem < j->p->ntypes ? &j->p->types[t->elem] : NULL;
        if (!e || e->tclass == CVM_TC_NONE || e->tclass > CVM_TC_FLOAT || !sk_llvm_ok(j, e->sk) ||
            t->count < 2 || t->count > 16 || t->comp_stride)
            return NULL;
        return LLVMVectorType(scalar_type(j, e->sk), t->count);
    }
    default:
        return NULL;
    }
}

/* A constant of type tid from the program's constant data (register
 * layout). */
LLVMValueRef jit_const_value(jctx *j, uint32_t id)
{
    const cvm_program *p = j->p;
    if (id >= p->bound || p->const_offset[id] == UINT64_MAX)
        return NULL;
    uint32_t tid = p->mod->defs[id].type;
    LLVMTypeRef ty = value_type(j, tid);
    if (!ty)
        return NULL;
    const uint8_t *d = p->const_data + p->const_offset[id];
    uint8_t sk = comp_sk(j, tid);
    uint32_t n = ncomp_of(j, tid), es = cvm_sk_size((cvm_scalar_kind)sk);
    LLVMValueRef comps[16];
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = d + (size_t)i * es;
        uint64_t bits = 0;
        memcpy(&bits, e, es);
        LLVMTypeRef st = scalar_type(j, sk);
        if (sk == CVM_SK_BOOL)
            comps[i] = LLVMConstInt(j->i1, bits & 1, 0);
        else if (sk == CVM_SK_F16)
            comps[i] = LLVMConstBitCast(LLVMConstInt(j->i16, bits, 0), j->f16);
        else if (sk == CVM_SK_F32)
            comps[i] = LLVMConstBitCast(LLVMConstInt(j->i32, bits, 0), j->f32);
        else if (sk == CVM_SK_F64)
            comps[i] = LLVMConstBitCast(LLVMConstInt(j->i64, bits, 0), j->f64);
        else
            comps[i] = LLVMConstInt(st, bits, 0);
    }
    return n == 1 ? comps[0] : LLVMConstVector(comps, n);
}

LLVMValueRef get_val(jctx *j, uint32_t id)
{
    if (id >= j->p->bound)
        return NULL;
    if (j->vals[id])
        return j->vals[id];
    LLVMValueRef c = jit_const_value(j, id);
    if (c)
        j->vals[id] = c;
    return c;
}

LLVMValueRef env_field(jctx *j, unsigned field, unsigned sub)
{
    LLVMValueRef idx[3] = {c_i32(j, 0), c_i32(j, field), c_i32(j, sub)};
    return LLVMBuildInBoundsGEP2(j->B, j->env_t, j->env, idx,
                                 (field == ENV_GID || field == ENV_NGROUPS) ? 3 : 2, "");
}

LLVMValueRef fn_const(jctx *j, void *addr, LLVMTypeRef fty)
{
    return LLVMConstIntToPtr(c_i64(j, (uint64_t)(uintptr_t)addr), LLVMPointerType(fty, 0));
}

/* A stack slot of at least `bytes` for a lane kernel's operand or result
 * (and never under 2 * JIT_MAX_ACCESS), allocated in the entry block so
 * that LLVM keeps it in the frame. */
LLVMValueRef new_slot(jctx *j, uint64_t bytes)
{
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(j->fn));
    LLVMPositionBuilderBefore(j->B, first);
    uint64_t n = bytes > JIT_MAX_ACCESS * 2 ? (bytes + 15) & ~(uint64_t)15 : JIT_MAX_ACCESS * 2;
    LLVMValueRef slot = LLVMBuildAlloca(j->B, LLVMArrayType(j->i8, n), "");
    LLVMPositionBuilderAtEnd(j->B, cur);
    return LLVMBuildBitCast(j->B, slot, j->ptr8, "");
}

/* Value `v` of type `tid` stored at byte pointer `at8` in register layout
 * (a boolean one byte a component), unaligned. */
void jit_store_reg(jctx *j, LLVMValueRef v, uint32_t tid, LLVMValueRef at8)
{
    if (comp_sk(j, tid) == CVM_SK_BOOL) {
        uint32_t n = ncomp_of(j, tid);
        v = LLVMBuildZExt(j->B, v, n > 1 ? LLVMVectorType(j->i8, n) : j->i8, "");
    }
    LLVMValueRef typed = LLVMBuildBitCast(j->B, at8, LLVMPointerType(LLVMTypeOf(v), 0), "");
    LLVMSetAlignment(LLVMBuildStore(j->B, v, typed), 1);
}

/* Register-layout spill of an LLVM value to a stack slot (bools one byte
 * each), for the lane kernels. */
LLVMValueRef jit_spill(jctx *j, LLVMValueRef v, uint32_t tid)
{
    LLVMValueRef slot = new_slot(j, type_of(j, tid)->size);
    jit_store_reg(j, v, tid, slot);
    return slot;
}

LLVMValueRef jit_unspill(jctx *j, LLVMValueRef slot8, uint32_t tid)
{
    uint32_t n = ncomp_of(j, tid);
    int is_bool = comp_sk(j, tid) == CVM_SK_BOOL;
    LLVMTypeRef ty = is_bool ? (n > 1 ? LLVMVectorType(j->i8, n) : j->i8) : value_type(j, tid);
    LLVMValueRef typed = LLVMBuildBitCast(j->B, slot8, LLVMPointerType(ty, 0), "");
    LLVMValueRef v = LLVMBuildLoad2(j->B, ty, typed, "");
    LLVMSetAlignment(v, 1);
    if (is_bool)
        v = LLVMBuildICmp(j->B, LLVMIntNE, v, LLVMConstNull(ty), "");
    return v;
}

/* Calls a lane kernel: kernel(in, r, a, b, c) or kernel(in, r, a). */
LLVMValueRef call_lane_kernel(jctx *j, void *kernel, int nargs, uint32_t insn,
                              uint32_t rtype, const uint32_t *ids, const uint32_t *tids,
                              int nops)
{
    LLVMTypeRef params[5] = {j->ptr8, j->ptr8, j->ptr8, j->ptr8, j->ptr8};
    LLVMTypeRef fty = LLVMFunctionType(j->vd, params, (unsigned)nargs, 0);
    LLVMValueRef args[5];
    args[0] = LLVMConstIntToPtr(c_i64(j, (uint64_t)(uintptr_t)&j->p->insns[insn]), j->ptr8);
    LLVMValueRef r = new_slot(j, type_of(j, rtype)->size);
    args[1] = r;
    LLVMValueRef first = NULL;
    for (int k = 0; k < nargs - 2; k++) {
        if (k < nops && ids[k]) {
            LLVMValueRef v = get_val(j, ids[k]);
            if (!v)
                return NULL;
            args[2 + k] = jit_spill(j, v, tids[k]);
            if (!first)
                first = args[2 + k];
        } else {
            args[2 + k] = first ? first : r;
        }
    }
    LLVMBuildCall2(j->B, fty, fn_const(j, kernel, fty), args, (unsigned)nargs, "");
    return jit_unspill(j, r, rtype);
}

/* The register layout's offset of the part of type `tid` that the
 * literal indices idx[0 .. n - 1] name, and in *o_type its type; 0 when
 * an index is past the type's parts (or names no part of a struct or
 * array). */
static int agg_part(jctx *j, uint32_t tid, const uint32_t *idx, uint32_t n, uint64_t *o_off,
                    uint32_t *o_type)
{
    uint64_t off = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (tid >= j->p->ntypes)
            return 0;
        const cvm_type *t = type_of(j, tid);
        if (t->tclass == CVM_TC_STRUCT) {
            if (idx[k] >= t->nmembers)
                return 0;
            off += t->member_offsets[idx[k]];
            tid = t->member_types[idx[k]];
        } else if (t->tclass == CVM_TC_ARRAY) {
            const cvm_type *e = type_of(j, t->elem);
            uint32_t a = t->align ? t->align : 1;
            if (idx[k] >= t->count)
                return 0;
            off += (uint64_t)idx[k] * ((e->size + a - 1) / a * a);
            tid = t->elem;
        } else {
            return 0;
        }
    }
    *o_off = off;
    *o_type = tid;
    return 1;
}

/* Where the register bytes of array or struct `id` are: its copy
 * (j->arrs), or a constant's in the program's constant data (read only,
 * as no instruction writes a copy); NULL when the tier holds neither. */
LLVMValueRef agg_ptr(jctx *j, uint32_t id)
{
    if (id >= j->p->bound)
        return NULL;
    if (j->arrs[id])
        return j->arrs[id];
    uint32_t tid = j->mod->defs[id].type;
    if (j->p->const_offset[id] == UINT64_MAX || tid >= j->p->ntypes ||
        (type_of(j, tid)->tclass != CVM_TC_ARRAY && type_of(j, tid)->tclass != CVM_TC_STRUCT))
        return NULL;
    return LLVMConstIntToPtr(
        c_i64(j, (uint64_t)(uintptr_t)(j->p->const_data + j->p->const_offset[id])), j->ptr8);
}

/* Value `id` (of type `tid`) written at `dst` in register layout: an
 * array or struct's copy (j->arrs) copied, anything else stored as
 * jit_spill() stores it.  0 when the tier holds no such value. */
static int agg_put(jctx *j, LLVMValueRef dst, uint32_t id, uint32_t tid)
{
    LLVMValueRef src = agg_ptr(j, id);
    if (src) {
        LLVMBuildMemCpy(j->B, dst, 1, src, 1, c_i64(j, type_of(j, tid)->size));
        return 1;
    }
    LLVMValueRef v = get_val(j, id);
    if (!v || LLVMTypeOf(v) != value_type(j, tid))
        return 0;
    jit_store_reg(j, v, tid, dst);
    return 1;
}

/* OpCompositeExtract, OpCompositeInsert and OpCompositeConstruct of
 * arrays and structs the tier holds as copies in register layout
 * (j->arrs: loaded whole, a leaf's array parameter, or built here), as
 * composite.c's handlers do them on the same bytes: a part read (a value,
 * or an array or struct that stays where it is in the copy), a new copy
 * with one part replaced, a new copy of the constituents at their
 * offsets.  CVM_ERROR_NOT_FOUND when `si` is none of those. */
static cvm_result emit_agg_composite(jctx *j, const spv_inst *si)
{
    const uint32_t *w = si->words;
    uint32_t rtype = w[1], result = w[2];
    LLVMValueRef base = si->word_count >= 4 ? agg_ptr(j, w[3]) : NULL;
    if (si->opcode == SpvOpCompositeExtract && si->word_count >= 5 && base) {
        uint64_t off;
        uint32_t pt;
        if (!agg_part(j, j->mod->defs[w[3]].type, w + 4, si->word_count - 4u, &off, &pt) ||
            rtype >= j->p->ntypes || type_of(j, pt)->size != type_of(j, rtype)->size)
            return jit_unsupported(j, j->cur_insn, "this extract");
        LLVMValueRef o = c_i64(j, off);
        LLVMValueRef ep = LLVMBuildGEP2(j->B, j->i8, base, &o, 1, "");
        if (value_type(j, rtype)) {
            j->vals[result] = jit_unspill(j, ep, rtype);
            return CVM_SUCCESS;
        }
        if (!j->leaf && !j->scope && (type_of(j, rtype)->tclass == CVM_TC_ARRAY ||
                                      type_of(j, rtype)->tclass == CVM_TC_STRUCT)) {
            j->arrs[result] = ep; /* (no instruction writes a copy) */
            return CVM_SUCCESS;
        }
        return jit_unsupported(j, j->cur_insn, "this extract");
    }
    if (!agg_type_ok(j, rtype))
        return CVM_ERROR_NOT_FOUND;
    const cvm_type *t = type_of(j, rtype);
    LLVMValueRef whole = si->word_count >= 5 ? agg_ptr(j, w[4]) : NULL;
    if (si->opcode == SpvOpCompositeInsert && si->word_count >= 6 && whole &&
        j->mod->defs[w[4]].type == rtype) {
        uint64_t off;
        uint32_t pt;
        LLVMValueRef slot = new_slot(j, t->size);
        if (!agg_part(j, rtype, w + 5, si->word_count - 5u, &off, &pt))
            return jit_unsupported(j, j->cur_insn, "this insert");
        LLVMBuildMemCpy(j->B, slot, 1, whole, 1, c_i64(j, t->size));
        LLVMValueRef o = c_i64(j, off);
        if (w[3] >= j->p->bound || type_of(j, j->mod->defs[w[3]].type)->size != type_of(j, pt)->size ||
            !agg_put(j, LLVMBuildGEP2(j->B, j->i8, slot, &o, 1, ""), w[3], j->mod->defs[w[3]].type))
            return jit_unsupported(j, j->cur_insn, "this insert's object");
        j->arrs[result] = slot;
        return CVM_SUCCESS;
    }
    if (si->opcode == SpvOpCompositeConstruct &&
        si->word_count - 3u == (t->tclass == CVM_TC_STRUCT ? t->nmembers : t->count)) {
        LLVMValueRef slot = new_slot(j, t->size);
        LLVMBuildMemSet(j->B, slot, LLVMConstInt(j->i8, 0, 0), c_i64(j, t->size), 1);
        for (uint32_t k = 0; k + 3 < si->word_count; k++) {
            uint64_t off;
            uint32_t pt, cid = w[3 + k];
            if (!agg_part(j, rtype, &k, 1, &off, &pt) || cid >= j->p->bound ||
                type_of(j, j->mod->defs[cid].type)->size != type_of(j, pt)->size)
                return jit_unsupported(j, j->cur_insn, "this construct");
            LLVMValueRef o = c_i64(j, off);
            if (!agg_put(j, LLVMBuildGEP2(j->B, j->i8, slot, &o, 1, ""), cid,
                         j->mod->defs[cid].type))
                return jit_unsupported(j, j->cur_insn, "this constituent");
        }
        j->arrs[result] = slot;
        return CVM_SUCCESS;
    }
    return CVM_ERROR_NOT_FOUND;
}

cvm_result emit_composite(jctx *j, const spv_inst *si)
{
    const uint32_t *w = si->words;
    uint32_t rtype = w[1], result = w[2];
    LLVMTypeRef rty = value_type(j, rtype);
    if (!rty && (si->opcode == SpvOpCopyObject || si->opcode == SpvOpCopyLogical) &&
        si->word_count == 4 && agg_ptr(j, w[3]) && agg_type_ok(j, rtype) &&
        type_of(j, rtype)->size == type_of(j, j->mod->defs[w[3]].type)->size) {
        /* a copy of an array or struct: the same register bytes (h_copy;
         * OpCopyLogical's types differ in their memory layouts alone),
         * shared, as no instruction writes a value's copy */
        j->arrs[result] = agg_ptr(j, w[3]);
        return CVM_SUCCESS;
    }
    cvm_result ar = emit_agg_composite(j, si);
    if (ar != CVM_ERROR_NOT_FOUND)
        return ar;
    if (!rty)
        return jit_unsupported(j, j->cur_insn, "this composite");
    LLVMValueRef r = NULL;
    if (si->opcode == SpvOpCompositeExtract && si->word_count == 5 && w[3] < j->p->bound &&
        j->pairs[2 * (size_t)w[3]]) { /* a member of an extended arithmetic result */
        if (w[4] > 1 || LLVMTypeOf(j->pairs[2 * (size_t)w[3] + w[4]]) != rty)
            return jit_unsupported(j, j->cur_insn, "this extract");
        j->vals[result] = j->pairs[2 * (size_t)w[3] + w[4]];
        return CVM_SUCCESS;
    }
    switch (si->opcode) {
    case SpvOpCompositeExtract: {
        LLVMValueRef v = si->word_count == 5 ? get_val(j, w[3]) : NULL;
        if (!v || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind ||
            w[4] >= LLVMGetVectorSize(LLVMTypeOf(v)))
            return jit_unsupported(j, j->cur_insn, "this extract");
        r = LLVMBuildExtractElement(j->B, v, c_i32(j, w[4]), "");
        break;
    }
    case SpvOpCompositeInsert: {
        LLVMValueRef o = si->word_count == 6 ? get_val(j, w[3]) : NULL;
        LLVMValueRef v = si->word_count == 6 ? get_val(j, w[4]) : NULL;
        if (!o || !v || LLVMTypeOf(v) != rty || LLVMGetTypeKind(rty) != LLVMVectorTypeKind ||
            w[5] >= LLVMGetVectorSize(rty))
            return jit_unsupported(j, j->cur_insn, "this insert");
        r = LLVMBuildInsertElement(j->B, v, o, c_i32(j, w[5]), "");
        break;
    }
    case SpvOpCompositeConstruct: {
        if (LLVMGetTypeKind(rty) != LLVMVectorTypeKind)
            return jit_unsupported(j, j->cur_insn, "this construct");
        unsigned n = LLVMGetVectorSize(rty), at = 0;
        r = LLVMGetUndef(rty);
        for (uint32_t k = 3; k < si->word_count; k++) {
            LLVMValueRef v = get_val(j, w[k]);
            if (!v)
                return jit_unsupported(j, j->cur_insn, "this constituent");
            if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind) {
                unsigned m = LLVMGetVectorSize(LLVMTypeOf(v));
                for (unsigned c = 0; c < m && at < n; c++, at++)
                    r = LLVMBuildInsertElement(
                        j->B, r, LLVMBuildExtractElement(j->B, v, c_i32(j, c), ""), c_i32(j, at), "");
            } else if (at < n) {
                r = LLVMBuildInsertElement(j->B, r, v, c_i32(j, at++), "");
            }
        }
        if (at != n)
            return jit_unsupported(j, j->cur_insn, "this construct's size");
        break;
    }
    case SpvOpVectorShuffle: {
        LLVMValueRef a = si->word_count >= 5 ? get_val(j, w[3]) : NULL;
        LLVMValueRef b = si->word_count >= 5 ? get_val(j, w[4]) : NULL;
        if (!a || !b || LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMVectorTypeKind ||
            LLVMGetTypeKind(rty) != LLVMVectorTypeKind)
            return jit_unsupported(j, j->cur_insn, "this shuffle");
        unsigned na = LLVMGetVectorSize(LLVMTypeOf(a)), nb = LLVMGetVectorSize(LLVMTypeOf(b));
        unsigned n = si->word_count - 5;
        if (n != LLVMGetVectorSize(rty))
            return jit_unsupported(j, j->cur_insn, "this shuffle");
        r = LLVMGetUndef(rty);
        for (unsigned k = 0; k < n; k++) {
            uint32_t s = w[5 + k];
            if (s >= na + nb)
                return jit_unsupported(j, j->cur_insn, "an undefined shuffle component");
            LLVMValueRef e = s < na ? LLVMBuildExtractElement(j->B, a, c_i32(j, s), "")
                                    : LLVMBuildExtractElement(j->B, b, c_i32(j, s - na), "");
            r = LLVMBuildInsertElement(j->B, r, e, c_i32(j, k), "");
        }
        break;
    }
    default: /* OpCopyObject, OpCopyLogical */
        r = si->word_count == 4 ? get_val(j, w[3]) : NULL;
        if (!r && si->word_count == 4 && w[3] < j->p->bound && j->ptrs[w[3]].kind) {
            j->ptrs[result] = j->ptrs[w[3]];
            return CVM_SUCCESS;
        }
        break;
    }
    if (!r || LLVMTypeOf(r) != rty)
        return jit_unsupported(j, j->cur_insn, "this composite's result");
    j->vals[result] = r;
    return CVM_SUCCESS;
}

LLVMValueRef call_intrinsic(jctx *j, const char *name, LLVMTypeRef *over, unsigned nover,
                            LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = id ? LLVMGetIntrinsicDeclaration(j->M, id, over, nover) : NULL;
    if (!fn)
        return NULL;
    return LLVMBuildCall2(j->B, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
}

/* A call of run-time function `fn` (int32_t fn(args), 0 for success) that
 * goes to the failure exit on anything else; the builder then stands after
 * it. */
void emit_checked_call(jctx *j, void *fn, LLVMTypeRef *ptypes, LLVMValueRef *args,
                       unsigned n)
{
    LLVMTypeRef fty = LLVMFunctionType(j->i32, ptypes, n, 0);
    LLVMValueRef rc = LLVMBuildCall2(j->B, fty, fn_const(j, fn, fty), args, n, "");
    LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(j->C, j->fn, "ran");
    LLVMBuildCondBr(j->B, LLVMBuildICmp(j->B, LLVMIntNE, rc, c_i32(j, 0), ""), j->fail_bb, go);
    LLVMPositionBuilderAtEnd(j->B, go);
}

/* A field of *ex at byte `off`, as a pointer to `ty`. */
LLVMValueRef ex_field(jctx *j, LLVMValueRef exp, size_t off, LLVMTypeRef ty)
{
    LLVMValueRef o = c_i64(j, off);
    LLVMValueRef fp = LLVMBuildGEP2(j->B, j->i8, exp, &o, 1, "");
    return LLVMBuildBitCast(j->B, fp, LLVMPointerType(ty, 0), "");
}

#endif /* CVM_HAVE_LLVM */
