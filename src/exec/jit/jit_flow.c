/* The compiled tier's blocks and control flow: a function's blocks in the
 * module's order, each charged to the budget (a chain of blocks at its
 * head), with their phis, their instructions one by one (emit_insn) and
 * their terminators (branches, switches, returns); calls inlined at each
 * call site. */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

#include <stdlib.h>

/* Instruction ii's SPIR-V words in *si, and j->cur_insn set for
 * diagnostics; 0 when its words cannot be read. */
int insn_words(jctx *j, uint32_t ii, spv_inst *si)
{
    j->cur_insn = ii;
    return spv_module_inst_at(j->mod, j->p->insns[ii].word_off, si);
}

/* A jit_ballot_lane_op instruction for this lane, as ops/subgroup.c
 * computes it: the ballot's 128 bits, those of ids at and past the
 * subgroup size (and, for a scan, past or at this lane's id) cleared; a
 * bit, a count, or the lowest or highest set bit (UINT32_MAX for none). */
static cvm_result emit_ballot_lane(jctx *j, uint32_t ii, const spv_inst *si)
{
    uint32_t op = si->opcode, at = op == SpvOpGroupNonUniformBallotBitCount ? 5 : 4;
    if (si->word_count < at + 1 + (op == SpvOpGroupNonUniformBallotBitExtract) ||
        !j->builtin_vals[SpvBuiltInSubgroupLocalInvocationId] ||
        !j->builtin_vals[SpvBuiltInSubgroupSize])
        return jit_unsupported(j, ii, "this ballot instruction");
    LLVMTypeRef i128 = LLVMIntTypeInContext(j->C, 128);
    LLVMValueRef b = get_val(j, si->words[at]);
    LLVMTypeRef rt = value_type(j, si->words[1]);
    if (!b || LLVMTypeOf(b) != LLVMVectorType(j->i32, 4) || !rt)
        return jit_unsupported(j, ii, "this ballot instruction's operand");
    b = LLVMBuildBitCast(j->B, b, i128, ""); /* (word k: bits 32k..32k+31) */
    LLVMValueRef id = j->builtin_vals[SpvBuiltInSubgroupLocalInvocationId];
    LLVMValueRef sg = j->builtin_vals[SpvBuiltInSubgroupSize];
    LLVMValueRef r;
    if (op == SpvOpGroupNonUniformInverseBallot || op == SpvOpGroupNonUniformBallotBitExtract) {
        LLVMValueRef bit = LLVMBuildZExt(j->B, id, i128, "");
        if (op == SpvOpGroupNonUniformBallotBitExtract) {
            LLVMValueRef x = get_val(j, si->words[5]);
            if (!x || LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind ||
                LLVMGetIntTypeWidth(LLVMTypeOf(x)) > 64)
                return jit_unsupported(j, ii, "this ballot instruction's index");
            bit = LLVMBuildZExt(j->B, x, i128, ""); /* (a negative index is >= 128 too) */
        }
        LLVMValueRef in = LLVMBuildICmp(j->B, LLVMIntULT, bit, LLVMConstInt(i128, 128, 0), "");
        LLVMValueRef sh = LLVMBuildSelect(j->B, in, bit, LLVMConstInt(i128, 0, 0), "");
        LLVMValueRef v = LLVMBuildTrunc(j->B, LLVMBuildLShr(j->B, b, sh, ""), j->i1, "");
        r = LLVMBuildAnd(j->B, v, in, "");
    } else {
        /* end: the bits below it count (min(size, 128), or for a scan
         * min(id + 1, .) or min(id, .)) */
        LLVMValueRef end = LLVMBuildSelect(
            j->B, LLVMBuildICmp(j->B, LLVMIntULT, sg, c_i32(j, 128), ""), sg, c_i32(j, 128), "");
        uint32_t gop = op == SpvOpGroupNonUniformBallotBitCount ? si->words[4] : 0;
        if (gop == SpvGroupOperationInclusiveScan || gop == SpvGroupOperationExclusiveScan) {
            LLVMValueRef e = gop == SpvGroupOperationInclusiveScan
                                 ? LLVMBuildAdd(j->B, id, c_i32(j, 1), "")
                                 : id;
            end = LLVMBuildSelect(j->B, LLVMBuildICmp(j->B, LLVMIntULT, e, end, ""), e, end, "");
        } else if (op == SpvOpGroupNonUniformBallotBitCount && gop != SpvGroupOperationReduce) {
            return jit_unsupported(j, ii, "this group operation of OpGroupNonUniformBallotBitCount");
        }
        LLVMValueRef e128 = LLVMBuildZExt(j->B, end, i128, "");
        LLVMValueRef full = LLVMBuildICmp(j->B, LLVMIntUGE, e128, LLVMConstInt(i128, 128, 0), "");
        LLVMValueRef one = LLVMConstInt(i128, 1, 0);
        LLVMValueRef sh = LLVMBuildSelect(j->B, full, LLVMConstInt(i128, 0, 0), e128, "");
        LLVMValueRef mask = LLVMBuildSelect(j->B, full, LLVMConstAllOnes(i128),
                                            LLVMBuildSub(j->B, LLVMBuildShl(j->B, one, sh, ""), one, ""), "");
        LLVMValueRef x = LLVMBuildAnd(j->B, b, mask, "");
        LLVMValueRef v;
        if (op == SpvOpGroupNonUniformBallotBitCount) {
            v = call_intrinsic(j, "llvm.ctpop", &i128, 1, &x, 1);
        } else {
            LLVMValueRef args[2] = {x, LLVMConstInt(j->i1, 0, 0)};
            int lsb = op == SpvOpGroupNonUniformBallotFindLSB;
            LLVMValueRef z = call_intrinsic(j, lsb ? "llvm.cttz" : "llvm.ctlz", &i128, 1, args, 2);
            if (!lsb)
                z = LLVMBuildSub(j->B, LLVMConstInt(i128, 127, 0), z, "");
            LLVMValueRef none = LLVMBuildICmp(j->B, LLVMIntEQ, x, LLVMConstInt(i128, 0, 0), "");
            v = LLVMBuildSelect(j->B, none, LLVMConstInt(i128, UINT32_MAX, 0), z, "");
        }
        v = LLVMBuildTrunc(j->B, v, j->i32, ""); /* (at most 0xffffffff) */
        if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind)
            return jit_unsupported(j, ii, "this ballot instruction's result type");
        unsigned w = LLVMGetIntTypeWidth(rt);
        r = w > 32 ? LLVMBuildZExt(j->B, v, rt, "") : w < 32 ? LLVMBuildTrunc(j->B, v, rt, "") : v;
    }
    if (LLVMTypeOf(r) != rt)
        return jit_unsupported(j, ii, "this ballot instruction's result type");
    j->vals[si->words[2]] = r;
    return CVM_SUCCESS;
}

cvm_result emit_insn(jctx *j, uint32_t ii)
{
    const cvm_insn *in = &j->p->insns[ii];
    spv_inst si;
    if (!insn_words(j, ii, &si))
        return jit_unsupported(j, ii, "this instruction");
    if (in->flags & CVM_INSN_PER_INSTANCE)
        return jit_unsupported(j, ii, "a cooperative-matrix instruction");
    if (j->collective && jit_is_collective(in))
        return emit_collective(j, ii);
    if (jit_ballot_lane_op(in))
        return emit_ballot_lane(j, ii, &si);
    if (cvm_atomic_insn(in) && !j->leaf && !j->scope)
        return emit_atomic(j, ii, in);
    uint32_t op = si.opcode;
    switch (op) {
    case SpvOpLoad:
        if (si.word_count < 4)
            return jit_unsupported(j, ii, "this load");
        return emit_load(j, si.words[2], si.words[1], si.words[3]);
    case SpvOpStore:
        if (si.word_count < 3)
            return jit_unsupported(j, ii, "this store");
        return emit_store(j, si.words[1], si.words[2]);
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
        return emit_access_chain(j, &si);
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
        return emit_extended(j, &si);
    case SpvOpVariable: /* a Function variable's initializer, each time the block runs */
        if (si.word_count < 5)
            return jit_unsupported(j, ii, "this variable");
        return emit_var_set(j, si.words[2], si.words[4]);
    case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCompositeConstruct:
    case SpvOpVectorShuffle: case SpvOpCopyObject: case SpvOpCopyLogical:
        return emit_composite(j, &si);
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpBitcast:
        return emit_convert(j, &si, in);
    case SpvOpConvertUToPtr: case SpvOpConvertPtrToU: {
        /* (the interpreter copies the 8 bytes, h_copy_u64: OpBitcast's
         * pointer forms; ggml's im2col makes its output pointer so) */
        cvm_result pr;
        if (emit_ptr_bitcast(j, &si, &pr))
            return pr;
        return jit_unsupported(j, ii, "this pointer conversion");
    }
    case SpvOpSDot: case SpvOpUDot: case SpvOpSUDot:
    case SpvOpSDotAccSat: case SpvOpUDotAccSat: case SpvOpSUDotAccSat:
        return emit_idot(j, ii, &si, in);
    case SpvOpDot:
        return emit_dot(j, ii, in);
    case SpvOpBitFieldInsert: case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract:
        return emit_bitfield(j, ii, &si, in);
    case SpvOpBitReverse: case SpvOpBitCount:
        return emit_bit_ops(j, ii, &si);
    case SpvOpAny:
    case SpvOpAll: { /* a Boolean vector's components or'ed, and'ed */
        LLVMValueRef v = si.word_count == 4 ? get_val(j, si.words[3]) : NULL;
        if (!v || si.words[2] >= j->p->bound)
            return jit_unsupported(j, ii, "this instruction's operand");
        LLVMTypeRef ty = LLVMTypeOf(v);
        if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind && LLVMGetElementType(ty) == j->i1) {
            unsigned n = LLVMGetVectorSize(ty);
            LLVMValueRef bits = LLVMBuildBitCast(j->B, v, LLVMIntTypeInContext(j->C, n), "");
            v = op == SpvOpAll ? LLVMBuildICmp(j->B, LLVMIntEQ, bits, LLVMConstAllOnes(LLVMTypeOf(bits)), "")
                               : LLVMBuildICmp(j->B, LLVMIntNE, bits, LLVMConstNull(LLVMTypeOf(bits)), "");
        } else if (ty != j->i1) {
            return jit_unsupported(j, ii, "this instruction's operand");
        }
        j->vals[si.words[2]] = v;
        return CVM_SUCCESS;
    }
    case SpvOpExtInst:
        if (si.word_count >= 5 && si.words[3] == j->p->glsl_ext && j->p->glsl_ext)
            return emit_glsl(j, &si, in);
        if (in->fn == NULL && in->cf == CVM_CF_NONE)
            return CVM_SUCCESS;
        return jit_unsupported(j, ii, "this extended instruction");
    default:
        if (is_arith_op(op))
            return emit_arith(j, &si, in);
        return jit_unsupported(j, ii, "this instruction");
    }
}

/* At the builder's place: block `to`'s slot phis take their values from
 * block `from`, for the active lanes (spilled first; jit_slot_phis). */
static void emit_slot_phis(jctx *j, uint32_t to, uint32_t from)
{
    spill_slot_phi_inputs(j, to, from);
    LLVMTypeRef params[3] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32};
    LLVMValueRef args[3] = {j->env, c_i32(j, to), c_i32(j, from)};
    emit_checked_call(j, (void *)jit_slot_phis, params, args, 3);
}

/* A call of one of jit_runtime.c's mask steps `fn(env, depth)` (jit_div_else,
 * jit_div_exit, jit_loop_enter): the number of lanes it leaves active. */
static LLVMValueRef emit_mask_step(jctx *j, int32_t (*fn)(cvm_jit_env *, uint32_t),
                                   uint32_t depth)
{
    LLVMTypeRef params[2] = {LLVMPointerType(j->env_t, 0), j->i32};
    LLVMTypeRef fty = LLVMFunctionType(j->i32, params, 2, 0);
    LLVMValueRef args[2] = {j->env, c_i32(j, depth)};
    return LLVMBuildCall2(j->B, fty, fn_const(j, (void *)fn, fty), args, 2, "");
}

/* The block a branch from block `from` to block `to` goes to: `to` itself,
 * or in the scope form, where `to` has phis of slot values, a block of the
 * edge's own that moves them first (jit_slot_phis). */
static LLVMBasicBlockRef edge_to(jctx *j, uint32_t to, uint32_t from)
{
    if (!j->scope || !j->has_slot_phis[to])
        return j->bbs[to];
    uint32_t *nf = cvm_realloc(j->edge_from, (j->nedges + 1) * sizeof(uint32_t));
    if (nf)
        j->edge_from = nf;
    uint32_t *nt = cvm_realloc(j->edge_to_blk, (j->nedges + 1) * sizeof(uint32_t));
    if (nt)
        j->edge_to_blk = nt;
    LLVMBasicBlockRef *nb = cvm_realloc(j->edge_bb, (j->nedges + 1) * sizeof(LLVMBasicBlockRef));
    if (nb)
        j->edge_bb = nb;
    if (!nf || !nt || !nb)
        return NULL;
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
    LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(j->C, j->fn, "edge");
    LLVMPositionBuilderAtEnd(j->B, e);
    emit_slot_phis(j, to, from);
    /* (the block that branches to `to`: what its LLVM phis name) */
    j->edge_bb[j->nedges] = LLVMGetInsertBlock(j->B);
    LLVMBuildBr(j->B, j->bbs[to]);
    LLVMPositionBuilderAtEnd(j->B, cur);
    j->edge_from[j->nedges] = from;
    j->edge_to_blk[j->nedges] = to;
    j->nedges++;
    return e;
}

/* The way out of arm `arm` of divergent selection d, from block `from` (an
 * arm block, or the header where the arm is empty): the merge block's
 * slot phis take their values from `from` for the arm's lanes, the active
 * ones, then on to the next arm (d->cont). */
static LLVMBasicBlockRef arm_exit(jctx *j, struct jdiv *d, uint32_t arm, uint32_t from)
{
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
    LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(j->C, j->fn, "armexit");
    LLVMPositionBuilderAtEnd(j->B, e);
    if (j->has_slot_phis[d->merge])
        emit_slot_phis(j, d->merge, from);
    LLVMBuildBr(j->B, d->cont[arm]);
    LLVMPositionBuilderAtEnd(j->B, cur);
    return e;
}

/* Where a branch from block `from` to block `to` goes: out of the arm of
 * the divergent selection that holds `from` when `to` is its merge block
 * (arm_exit), else edge_to. */
static LLVMBasicBlockRef branch_to(jctx *j, uint32_t to, uint32_t from)
{
    if (j->scope && j->div_of && from < j->f->nblocks && j->div_of[from]) {
        struct jdiv *d = &j->divs[j->div_of[from] - 1];
        if (to == d->merge && !d->loop)
            return arm_exit(j, d, j->div_arm[from], from);
        if (to == d->merge) { /* (a loop's exits are conditional: emit_loop_exit) */
            jit_unsupported(j, j->cur_insn, "this branch out of a loop on a value that differs "
                                            "between invocations");
            return NULL;
        }
    }
    /* into a divergent loop from outside it: the active lanes kept */
    for (uint32_t k = 0; j->scope && k < j->ndivs; k++) {
        struct jdiv *d = &j->divs[k];
        if (!d->loop || d->header != to || d->blocks[from])
            continue;
        LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
        LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(j->C, j->fn, "loopin");
        LLVMPositionBuilderAtEnd(j->B, e);
        emit_mask_step(j, jit_loop_enter, d->depth);
        LLVMBasicBlockRef go = edge_to(j, to, from);
        if (!go)
            return NULL;
        LLVMBuildBr(j->B, go);
        LLVMPositionBuilderAtEnd(j->B, cur);
        return e;
    }
    return edge_to(j, to, from);
}

/* An exit of divergent loop d from block bi at its own level: the lanes
 * whose condition leaves go to the merge block's phis (their values of
 * this iteration) and wait; the others go on to the loop's block `stay`;
 * once none is left, the loop ends with all its lanes (d->cont[0]). */
static cvm_result emit_loop_exit(jctx *j, uint32_t ii, uint32_t bi, struct jdiv *d)
{
    const cvm_insn *in = &j->p->insns[ii];
    uint32_t exit_if = in->b == d->merge, stay = exit_if ? in->c : in->b;
    if (stay == d->merge)
        return jit_unsupported(j, ii, "this branch");
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(j->B);
    if (!d->cont[0]) { /* the loop's end, once */
        d->cont[0] = LLVMAppendBasicBlockInContext(j->C, j->fn, "loopend");
        LLVMPositionBuilderAtEnd(j->B, d->cont[0]);
        emit_mask_step(j, jit_div_exit, d->depth);
        LLVMBuildBr(j->B, j->bbs[d->merge]);
        LLVMPositionBuilderAtEnd(j->B, cur);
    }
    LLVMTypeRef p4[4] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32, j->i32};
    LLVMTypeRef f4 = LLVMFunctionType(j->i32, p4, 4, 0);
    LLVMValueRef a4[4] = {j->env, c_i32(j, in->a), c_i32(j, exit_if), c_i32(j, d->depth)};
    LLVMValueRef nx = LLVMBuildCall2(j->B, f4, fn_const(j, (void *)jit_loop_exit_begin, f4), a4, 4, "");
    if (j->has_slot_phis[d->merge]) {
        LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(j->C, j->fn, "loopout");
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(j->C, j->fn, "loopstay");
        LLVMBuildCondBr(j->B, LLVMBuildICmp(j->B, LLVMIntNE, nx, c_i32(j, 0), ""), copy, after);
        LLVMPositionBuilderAtEnd(j->B, copy);
        emit_slot_phis(j, d->merge, bi);
        LLVMBuildBr(j->B, after);
        LLVMPositionBuilderAtEnd(j->B, after);
    }
    LLVMValueRef ns = emit_mask_step(j, jit_div_else, d->depth);
    LLVMBasicBlockRef go = edge_to(j, stay, bi);
    if (!go)
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    LLVMBuildCondBr(j->B, LLVMBuildICmp(j->B, LLVMIntNE, ns, c_i32(j, 0), ""), go, d->cont[0]);
    return CVM_SUCCESS;
}

/* A divergent selection's header (mark_divergent): its true arm with the
 * lanes that take it, then its false arm with the others, then the merge
 * block with all, each arm skipped when no lane takes it. */
static cvm_result emit_divergent(jctx *j, uint32_t ii, uint32_t bi)
{
    const cvm_insn *in = &j->p->insns[ii];
    struct jdiv *d = NULL;
    for (uint32_t k = 0; k < j->ndivs && !d; k++)
        if (j->divs[k].header == bi && !j->divs[k].loop)
            d = &j->divs[k];
    if (!d && j->div_of && j->div_of[bi] && j->divs[j->div_of[bi] - 1].loop &&
        (in->b == j->divs[j->div_of[bi] - 1].merge || in->c == j->divs[j->div_of[bi] - 1].merge))
        return emit_loop_exit(j, ii, bi, &j->divs[j->div_of[bi] - 1]);
    if (!d)
        return jit_unsupported(j, ii, "this branch");
    d->cont[0] = LLVMAppendBasicBlockInContext(j->C, j->fn, "divelse");
    d->cont[1] = LLVMAppendBasicBlockInContext(j->C, j->fn, "divend");
    LLVMTypeRef p3[3] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32};
    LLVMTypeRef f3 = LLVMFunctionType(j->i32, p3, 3, 0);
    LLVMValueRef a3[3] = {j->env, c_i32(j, in->a), c_i32(j, d->depth)};
    LLVMValueRef na = LLVMBuildCall2(j->B, f3, fn_const(j, (void *)jit_div_enter, f3), a3, 3, "");
    for (uint32_t arm = 0; arm < 2; arm++) {
        uint32_t t = d->target[arm];
        LLVMBasicBlockRef go = t == d->merge ? arm_exit(j, d, arm, bi) : edge_to(j, t, bi);
        if (!go)
            return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        LLVMBuildCondBr(j->B, LLVMBuildICmp(j->B, LLVMIntNE, na, c_i32(j, 0), ""), go, d->cont[arm]);
        LLVMPositionBuilderAtEnd(j->B, d->cont[arm]);
        na = emit_mask_step(j, arm == 0 ? jit_div_else : jit_div_exit, d->depth);
    }
    LLVMBuildBr(j->B, j->bbs[d->merge]);
    return CVM_SUCCESS;
}

/* The LLVM block a phi of block `to` names for its value from block `from`. */
static LLVMBasicBlockRef phi_pred(jctx *j, uint32_t to, uint32_t from, LLVMBasicBlockRef end)
{
    for (uint32_t k = 0; k < j->nedges; k++)
        if (j->edge_from[k] == from && j->edge_to_blk[k] == to)
            return j->edge_bb[k];
    return end;
}

/* A branch condition or switch selector of the scope form must be
 * uniform: every lane goes the same way. */
static int uniform_selector(jctx *j, uint32_t id)
{
    return id < j->p->bound && (j->p->const_offset[id] != UINT64_MAX || j->p->uniform[id]);
}

/* Charges `count` instructions to the budget at the start of a block. */
static void emit_budget(jctx *j, uint64_t count, uint32_t insn)
{
    if (!count || j->leaf) /* (a leaf's caller charges its batches: leaf_calls) */
        return;
    LLVMValueRef b = LLVMBuildLoad2(j->B, j->i64, j->budget_var, "");
    /* (the scope form runs the block once for the workgroup: the
     * interpreter's charge, count subgroup instructions) */
    LLVMValueRef charge = j->scope ? LLVMBuildMul(j->B, c_i64(j, count), j->budget_unit, "")
                                   : c_i64(j, count);
    LLVMValueRef nb = LLVMBuildSub(j->B, b, charge, "");
    LLVMBuildStore(j->B, nb, j->budget_var);
    LLVMValueRef low = LLVMBuildICmp(j->B, LLVMIntSLT, nb, c_i64(j, 0), "");
    LLVMBasicBlockRef refill = LLVMAppendBasicBlockInContext(j->C, j->fn, "refill");
    LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(j->C, j->fn, "go");
    LLVMBuildCondBr(j->B, low, refill, go);
    LLVMPositionBuilderAtEnd(j->B, refill);
    LLVMTypeRef params[3] = {LLVMPointerType(j->env_t, 0), j->i32, j->i64};
    LLVMTypeRef fty = LLVMFunctionType(j->i64, params, 3, 0);
    LLVMValueRef args[3] = {j->env, c_i32(j, insn), nb};
    LLVMValueRef got = LLVMBuildCall2(j->B, fty, fn_const(j, (void *)jit_refill, fty), args, 3, "");
    LLVMBuildStore(j->B, got, j->budget_var);
    LLVMValueRef failed = LLVMBuildICmp(j->B, LLVMIntSLT, got, c_i64(j, 0), "");
    LLVMBuildCondBr(j->B, failed, j->fail_bb, go);
    LLVMPositionBuilderAtEnd(j->B, go);
}

static cvm_result emit_terminator(jctx *j, uint32_t ii, uint32_t bi, LLVMBasicBlockRef *o_end)
{
    const cvm_insn *in = &j->p->insns[ii];
    const cvm_function *f = j->f;
    j->cur_insn = ii;
    switch (in->cf) {
    case CVM_CF_BRANCH: {
        LLVMBasicBlockRef to = in->a < f->nblocks ? branch_to(j, in->a, bi) : NULL;
        if (!to)
            return jit_unsupported(j, ii, "this branch");
        LLVMBuildBr(j->B, to);
        break;
    }
    case CVM_CF_BRANCH_COND: {
        if (j->scope && !uniform_selector(j, in->a) && j->ndivs) {
            cvm_result dr = emit_divergent(j, ii, bi);
            if (dr != CVM_SUCCESS)
                return dr;
            break;
        }
        LLVMValueRef c = get_val(j, in->a);
        if (!c || LLVMTypeOf(c) != j->i1 || in->b >= f->nblocks || in->c >= f->nblocks ||
            (j->scope && !uniform_selector(j, in->a)))
            return jit_unsupported(j, ii, "this branch");
        LLVMBasicBlockRef tb = branch_to(j, in->b, bi), fb = branch_to(j, in->c, bi);
        if (!tb || !fb)
            return jit_unsupported(j, ii, "this branch");
        LLVMBuildCondBr(j->B, c, tb, fb);
        break;
    }
    case CVM_CF_SWITCH: {
        LLVMValueRef s = get_val(j, in->a);
        if (!s || LLVMGetTypeKind(LLVMTypeOf(s)) != LLVMIntegerTypeKind || in->b >= f->nblocks ||
            (j->scope && !uniform_selector(j, in->a)))
            return jit_unsupported(j, ii, "this switch");
        /* (low word, high word, block) triples (cvm_lower_control); the
         * first of equal literals wins there, and LLVM refuses equal ones */
        LLVMBasicBlockRef db = edge_to(j, in->b, bi);
        if (!db)
            return jit_unsupported(j, ii, "this switch");
        LLVMValueRef sw = LLVMBuildSwitch(j->B, s, db, in->nextra / 3);
        const uint32_t *e = j->p->extra + in->extra;
        for (uint32_t k = 0; k + 2 < in->nextra; k += 3) {
            LLVMBasicBlockRef cb = e[k + 2] < f->nblocks ? edge_to(j, e[k + 2], bi) : NULL;
            if (!cb)
                return jit_unsupported(j, ii, "this switch target");
            uint64_t lit = e[k] | ((uint64_t)e[k + 1] << 32);
            LLVMAddCase(sw, LLVMConstInt(LLVMTypeOf(s), lit, 0), cb);
        }
        break;
    }
    case CVM_CF_RETURN:
    case CVM_CF_KILL:
        if (j->leaf || (j->scope && in->cf == CVM_CF_KILL))
            return jit_unsupported(j, ii, "this return");
        /* (OpKill and the like in a callee end the invocation, as in the
         * interpreter, whose caller ends the lanes that the callee ended) */
        LLVMBuildBr(j->B, j->call && in->cf == CVM_CF_RETURN ? j->call->ret_bb
                          : j->collective && in->cf == CVM_CF_KILL ? j->co_kill
                                                                   : j->lane_next);
        break;
    case CVM_CF_RETURN_VALUE: {
        /* a leaf's result, in register layout, to results + lane * size;
         * an inlined call's to the phi of its continuation */
        LLVMValueRef v = j->leaf || j->call ? get_val(j, in->a) : NULL;
        uint32_t rt = f->return_type;
        if (!v || rt >= j->p->ntypes || LLVMTypeOf(v) != value_type(j, rt))
            return jit_unsupported(j, ii, "this returned value");
        if (j->call) {
            jcall *c = j->call;
            LLVMValueRef *nv = cvm_realloc(c->vals, (c->n + 1) * sizeof(LLVMValueRef));
            if (nv)
                c->vals = nv;
            LLVMBasicBlockRef *nf = cvm_realloc(c->from, (c->n + 1) * sizeof(LLVMBasicBlockRef));
            if (nf)
                c->from = nf;
            if (!nv || !nf)
                return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            c->vals[c->n] = v;
            c->from[c->n++] = LLVMGetInsertBlock(j->B);
            LLVMBuildBr(j->B, c->ret_bb);
            break;
        }
        LLVMValueRef at = LLVMBuildMul(j->B, LLVMBuildZExt(j->B, j->lane, j->i64, ""),
                                       c_i64(j, type_of(j, rt)->size), "");
        jit_store_reg(j, v, rt, LLVMBuildGEP2(j->B, j->i8, LLVMGetParam(j->fn, 2), &at, 1, ""));
        LLVMBuildBr(j->B, j->lane_next);
        break;
    }
    default:
        return jit_unsupported(j, ii, "this control flow");
    }
    *o_end = LLVMGetInsertBlock(j->B);
    return CVM_SUCCESS;
}

/* Blocks in the module's order, which puts each after its dominators. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static cvm_result emit_call(jctx *j, uint32_t ii);

/* What each block of `f` charges where it starts (o_charge[b]), so that
 * the budget is checked once per run of blocks that always run together:
 * a block entered only by an OpBranch from one other block runs exactly
 * when that block does, so the block heading such a chain charges the
 * whole chain's cost and the rest charge nothing (a chain does not go on
 * past a block with a call).  Every path charges the
 * same total as block by block (the interpreter's charge); only the place
 * where a budget that runs out is noticed moves to the chain's head.
 * (A cycle of such blocks has no way in: it never runs.)  Returns 0 when
 * out of memory. */
static int chain_charges(const cvm_program *p, const cvm_function *f, uint64_t *o_charge)
{
    uint32_t n = f->nblocks;
    uint32_t *npred = cvm_calloc(n, sizeof(uint32_t));
    uint8_t *absorbed = cvm_calloc(n, 1);
    if (!npred || !absorbed) {
        cvm_mem_free(npred);
        cvm_mem_free(absorbed);
        return 0;
    }
#define CHAIN_TERM(b)                                                                          \
    (f->blocks[b].count ? &p->insns[f->blocks[b].first + f->blocks[b].count - 1] : NULL)
    for (uint32_t b = 0; b < n; b++) {
        const cvm_insn *t = CHAIN_TERM(b);
        if (!t)
            continue;
        if (t->cf == CVM_CF_BRANCH && t->a < n) {
            npred[t->a]++;
        } else if (t->cf == CVM_CF_BRANCH_COND) {
            if (t->b < n)
                npred[t->b]++;
            if (t->c < n)
                npred[t->c]++;
        } else if (t->cf == CVM_CF_SWITCH) {
            if (t->b < n)
                npred[t->b]++;
            const uint32_t *e = p->extra + t->extra;
            for (uint32_t k = 0; k + 2 < t->nextra; k += 3)
                if (e[k + 2] < n)
                    npred[e[k + 2]]++;
        }
    }
    for (uint32_t b = 0; b < n; b++) {
        const cvm_insn *t = CHAIN_TERM(b);
        if (!t || t->cf != CVM_CF_BRANCH || t->a >= n || t->a == b || t->a == 0 || npred[t->a] != 1)
            continue;
        /* (not past a call: a callee's OpKill ends the invocation there) */
        int call = 0;
        for (uint32_t i = 0; i + 1 < f->blocks[b].count; i++)
            call |= p->insns[f->blocks[b].first + i].cf == CVM_CF_CALL;
        absorbed[t->a] = (uint8_t)!call;
    }
    for (uint32_t b = 0; b < n; b++) {
        o_charge[b] = 0;
        if (absorbed[b])
            continue;
        uint64_t total = f->blocks[b].cost;
        const cvm_insn *t = CHAIN_TERM(b);
        for (uint32_t steps = 0; t && t->cf == CVM_CF_BRANCH && t->a < n && absorbed[t->a] &&
                                 steps < n;
             steps++) {
            total += f->blocks[t->a].cost;
            t = CHAIN_TERM(t->a);
        }
        o_charge[b] = total;
    }
#undef CHAIN_TERM
    cvm_mem_free(npred);
    cvm_mem_free(absorbed);
    return 1;
}

/* Emits the blocks of `f` from the builder's position on: the entry
 * point's, or an inlined call's (emit_call), after which the builder stands
 * in the last block emitted. */
cvm_result emit_blocks(jctx *j, const cvm_function *f)
{
    const cvm_program *p = j->p;
    const spv_module *mod = j->mod;
    const cvm_function *saved_f = j->f;
    LLVMBasicBlockRef *saved_bbs = j->bbs;
    cvm_result r = CVM_SUCCESS;
    if (f->nblocks == 0)
        return jit_unsupported_def(j, f->id, "a function without blocks");
    LLVMBasicBlockRef *bbs = cvm_calloc(f->nblocks, sizeof(LLVMBasicBlockRef));
    uint64_t *order = cvm_calloc(f->nblocks, sizeof(uint64_t));
    uint64_t *charge = cvm_calloc(f->nblocks, sizeof(uint64_t));
    LLVMBasicBlockRef *ends = cvm_calloc(f->nblocks, sizeof(LLVMBasicBlockRef));
    if (!bbs || !order || !charge || !ends || !chain_charges(p, f, charge)) {
        cvm_mem_free(bbs);
        cvm_mem_free(order);
        cvm_mem_free(charge);
        cvm_mem_free(ends);
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    j->f = f;
    j->bbs = bbs;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        j->bbs[b] = LLVMAppendBasicBlockInContext(j->C, j->fn, "");
        uint32_t label = f->blocks[b].label;
        uint64_t at = label < p->bound ? mod->defs[label].off : 0;
        order[b] = (at << 32) | b;
    }
    qsort(order, f->nblocks, sizeof(uint64_t), cmp_u64);
    LLVMBuildBr(j->B, j->bbs[0]);
    if (j->scope) /* before any branch to them */
        r = mark_slot_phis(j);
    if (j->scope && r == CVM_SUCCESS) {
        /* each block's place in the structured order */
        uint32_t *pos = cvm_calloc(f->nblocks, sizeof(uint32_t));
        if (!pos)
            r = cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        for (uint32_t k = 0; pos && k < f->nblocks; k++)
            pos[order[k] & 0xffffffffu] = k;
        if (pos)
            r = mark_divergent(j, pos);
        cvm_mem_free(pos);
        if (r == CVM_SUCCESS && j->faster_only && j->ndivs) {
            const cvm_block *h = &f->blocks[j->divs[0].header]; /* (its branch) */
            r = jit_unsupported(j, h->count ? h->first + h->count - 1 : UINT32_MAX,
                                "divergent branches or loops in a cooperative-matrix shader "
                                "by size (measured slower compiled; compiled where asked: "
                                "CVM_FLAG_JIT, COOPVM_JIT=always)");
        }
    }
    for (uint32_t k = 0; k < f->nblocks && r == CVM_SUCCESS; k++) {
        uint32_t bi = (uint32_t)(order[k] & 0xffffffffu);
        const cvm_block *blk = &f->blocks[bi];
        LLVMPositionBuilderAtEnd(j->B, j->bbs[bi]);
        if (blk->dead) { /* (cvm_uniform_dead_blocks: never reached) */
            LLVMTypeRef params[2] = {LLVMPointerType(j->env_t, 0), j->i32};
            LLVMTypeRef fty = LLVMFunctionType(j->i32, params, 2, 0);
            LLVMValueRef args[2] = {j->env, c_i32(j, blk->count ? blk->first : 0)};
            LLVMBuildCall2(j->B, fty, fn_const(j, (void *)jit_dead_block, fty), args, 2, "");
            LLVMBuildBr(j->B, j->fail_bb);
            continue;
        }
        uint32_t ii = blk->first, end = blk->first + blk->count;
        j->inlined += blk->count;
        if (j->depth && j->inlined > JIT_MAX_INLINED) {
            r = jit_unsupported(j, blk->first, "a shader this long once its calls are inlined");
            break;
        }
        /* phis first, their incoming values added once every block is done */
        for (; ii < end && p->insns[ii].cf == CVM_CF_PHI; ii++) {
            const cvm_insn *ph = &p->insns[ii];
            LLVMTypeRef ty = value_type(j, ph->type);
            if (j->scope && j->slot_phi[ii])
                continue; /* (moved by jit_slot_phis) */
            if (j->scope && (ph->result >= p->bound || !p->uniform[ph->result])) {
                r = jit_unsupported(j, ii, "a phi whose value may differ between invocations");
                break;
            }
            if (!ty) {
                r = jit_unsupported(j, ii, "a phi of this type");
                break;
            }
            j->vals[ph->result] = LLVMBuildPhi(j->B, ty, "");
        }
        if (r != CVM_SUCCESS)
            break;
        /* the block-ordered form: a lane waits at the start of a block of
         * the entry point that is not convergent until run_ordered runs
         * that block, with the lanes the interpreter would run it with */
        if (j->ordered && !j->call && f == &p->funcs[p->entry] && j->waits && j->waits[bi]) {
            LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(j->C, j->fn, "block");
            emit_co_suspend(j, c_i32(j, JIT_CO_ENTRY | bi), go, 0);
        }
        /* (a block with a call is charged once, as the interpreter charges
         * it, the callee's blocks each by their own; chain_charges) */
        emit_budget(j, charge[bi], blk->count ? blk->first : 0);
        for (; ii < end && r == CVM_SUCCESS; ii++) {
            const cvm_insn *in = &p->insns[ii];
            j->cur_block = bi; /* (again after an inlined call's blocks) */
            if (in->cf == CVM_CF_NONE)
                r = j->scope ? emit_scope_insn(j, ii) : emit_insn(j, ii);
            else if (ii + 1 == end)
                r = emit_terminator(j, ii, bi, &ends[bi]);
            else if (in->cf == CVM_CF_CALL && !j->scope && !j->leaf)
                r = emit_call(j, ii);
            else
                r = jit_unsupported(j, ii, in->cf == CVM_CF_CALL ? "function calls" : "this control flow");
        }
        if (r == CVM_SUCCESS && (blk->count == 0 || p->insns[end - 1].cf == CVM_CF_NONE ||
                                 p->insns[end - 1].cf == CVM_CF_PHI ||
                                 p->insns[end - 1].cf == CVM_CF_CALL))
            r = jit_unsupported(j, blk->first, "a block without a terminator");
    }
    /* phi incoming values: from the LLVM block that ends each predecessor
     * (before another copy of this function, inlined elsewhere, takes the
     * ids' values) */
    for (uint32_t bi = 0; bi < f->nblocks && r == CVM_SUCCESS; bi++) {
        const cvm_block *blk = &f->blocks[bi];
        for (uint32_t ii = blk->first; ii < blk->first + blk->count && !blk->dead; ii++) {
            const cvm_insn *ph = &p->insns[ii];
            if (ph->cf != CVM_CF_PHI)
                break;
            if (j->scope && j->slot_phi[ii])
                continue;
            const uint32_t *pairs = p->extra + ph->extra;
            for (uint32_t k = 0; k + 1 < ph->nextra; k += 2) {
                uint32_t from = pairs[k + 1];
                if (from < f->nblocks && f->blocks[from].dead)
                    continue; /* (its block never branches here) */
                LLVMValueRef v = get_val(j, pairs[k]);
                if (!v || from >= f->nblocks || !ends[from] || LLVMTypeOf(v) != value_type(j, ph->type)) {
                    r = jit_unsupported(j, ii, "this phi's operand");
                    break;
                }
                LLVMBasicBlockRef fb = phi_pred(j, bi, from, ends[from]);
                LLVMAddIncoming(j->vals[ph->result], &v, &fb, 1);
            }
        }
    }
    cvm_mem_free(order);
    cvm_mem_free(charge);
    cvm_mem_free(ends);
    cvm_mem_free(bbs);
    j->f = saved_f;
    j->bbs = saved_bbs;
    return r;
}

/* OpFunctionCall `ii` (not the block's last instruction), inlined: the
 * interpreter's depth check; the parameters take the arguments' values,
 * or for a pointer the argument's description (a Function or Private
 * variable, a built-in, a buffer's access chain...); the callee's blocks;
 * its returns meet in a block of their own, where a phi takes the result
 * and the caller's block goes on.  Each call site gets its own copy of the
 * callee's blocks; its Function variables are one per id for all of them,
 * as the interpreter keeps each in one place of the invocation's memory
 * (never zeroed between calls). */
static cvm_result emit_call(jctx *j, uint32_t ii)
{
    const cvm_program *p = j->p;
    const cvm_insn *in = &p->insns[ii];
    j->cur_insn = ii;
    if (in->a >= p->nfuncs || !p->funcs[in->a].lowered)
        return jit_unsupported(j, ii, "this call");
    const cvm_function *cf = &p->funcs[in->a];
    if (j->depth >= JIT_MAX_INLINE_DEPTH)
        return jit_unsupported(j, ii, "calls nested this deep");
    if (in->nextra != cf->nparams)
        return jit_unsupported(j, ii, "this call's arguments");
    /* interp.c: a call at depth ex->depth + 1 over ex->max_depth fails */
    LLVMValueRef deep = LLVMBuildICmp(j->B, LLVMIntULT, j->max_depth_v, c_i32(j, j->depth + 1), "");
    LLVMBasicBlockRef too_deep = LLVMAppendBasicBlockInContext(j->C, j->fn, "deep");
    LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(j->C, j->fn, "call");
    LLVMBuildCondBr(j->B, deep, too_deep, go);
    LLVMPositionBuilderAtEnd(j->B, too_deep);
    LLVMTypeRef params[2] = {LLVMPointerType(j->env_t, 0), j->i32};
    LLVMTypeRef fty = LLVMFunctionType(j->i32, params, 2, 0);
    LLVMValueRef dargs[2] = {j->env, c_i32(j, ii)};
    LLVMBuildCall2(j->B, fty, fn_const(j, (void *)jit_depth_fail, fty), dargs, 2, "");
    LLVMBuildBr(j->B, j->fail_bb);
    LLVMPositionBuilderAtEnd(j->B, go);
    const uint32_t *args = p->extra + in->extra;
    for (uint32_t k = 0; k < cf->nparams; k++) {
        uint32_t param = cf->params[k], arg = args[k];
        uint32_t ptid = param < p->bound ? j->mod->defs[param].type : 0;
        if (param >= p->bound || arg >= p->bound || ptid >= p->ntypes)
            return jit_unsupported(j, ii, "this call's arguments");
        if (p->types[ptid].tclass == CVM_TC_POINTER) {
            if (j->ptrs[arg].kind == JP_NONE)
                return jit_unsupported(j, ii, "a pointer argument of this kind");
            j->ptrs[param] = j->ptrs[arg];
            continue;
        }
        if (agg_ptr(j, arg) && j->mod->defs[arg].type == ptid) { /* an array or struct */
            j->arrs[param] = agg_ptr(j, arg);
            continue;
        }
        LLVMValueRef v = get_val(j, arg);
        LLVMTypeRef ty = value_type(j, ptid);
        if (!v || !ty || LLVMTypeOf(v) != ty)
            return jit_unsupported(j, ii, "an argument of this type");
        j->vals[param] = v;
    }
    jcall c;
    memset(&c, 0, sizeof(c));
    c.ret_bb = LLVMAppendBasicBlockInContext(j->C, j->fn, "ret");
    c.convergent = (!j->call || j->call->convergent) && j->cur_block < j->f->nblocks &&
                   j->f->blocks[j->cur_block].convergent;
    jcall *saved = j->call;
    j->call = &c;
    j->depth++;
    cvm_result r = emit_blocks(j, cf);
    j->depth--;
    j->call = saved;
    if (r == CVM_SUCCESS) {
        LLVMPositionBuilderAtEnd(j->B, c.ret_bb);
        LLVMTypeRef rt = value_type(j, cf->return_type);
        if (in->result && rt) {
            if (c.n == 0) { /* (no return: every path ends the invocation) */
                j->vals[in->result] = LLVMGetUndef(rt);
            } else {
                LLVMValueRef phi = LLVMBuildPhi(j->B, rt, "");
                LLVMAddIncoming(phi, c.vals, c.from, c.n);
                j->vals[in->result] = phi;
            }
        }
    }
    cvm_mem_free(c.vals);
    cvm_mem_free(c.from);
    return r;
}

#endif /* CVM_HAVE_LLVM */
