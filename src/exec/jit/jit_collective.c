/* The collective form (jit.h cvm_jit_collective_form): each invocation a
 * coroutine that suspends at barriers and subgroup instructions, its ramp
 * and its module's resume and destroy, and the analysis that makes the
 * form block-ordered (ordered_blocks, ordered_waits).  jit_runtime.c runs
 * the lanes (run_collective). */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

/* ---- the collective form: barriers, subgroup operations, Workgroup memory ---
 *
 * Each lane runs as a coroutine of its own (LLVM's switched-resume
 * coroutines, split by its Coro passes): it runs to the next barrier or
 * subgroup instruction, notes which (jit_co_note) and suspends; its values
 * live across that in its frame.  run_collective resumes the lanes in turn:
 * once every lane still running waits at the same instruction, a subgroup
 * instruction runs by the interpreter's own handler over those lanes (its
 * operands written to their value slots before the lane suspends, its
 * result read back after), and a barrier by h_barrier's check; then each
 * lane goes on to the next.  Only collectives in convergent blocks of the
 * entry point are taken (exec/uniform.h: every lane still running reaches
 * them together, as many times), so the lanes waiting together are the
 * interpreter's active lanes for them: all of those still running. */

static void emit_co_note(jctx *j, LLVMValueRef where)
{
    if (LLVMIsConstant(where) && LLVMConstIntGetZExtValue(where) < JIT_CO_KILLED) {
        /* waiting at a collective or a block: where[lane] = that, inline */
        LLVMValueRef wp = LLVMBuildLoad2(j->B, LLVMPointerType(j->i32, 0),
                                         env_field(j, ENV_WHERE, 0), "");
        LLVMValueRef l64 = LLVMBuildZExt(j->B, j->lane, j->i64, "");
        LLVMBuildStore(j->B, where, LLVMBuildGEP2(j->B, j->i32, wp, &l64, 1, ""));
        return;
    }
    LLVMTypeRef params[3] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32};
    LLVMTypeRef fty = LLVMFunctionType(j->vd, params, 3, 0);
    LLVMValueRef args[3] = {j->env, j->lane, where};
    LLVMBuildCall2(j->B, fty, fn_const(j, (void *)jit_co_note, fty), args, 3, "");
}

/* The lane notes that it waits at `where` and suspends (its budget handed
 * back to the environment first, for the other lanes); it goes on at
 * `resume` (built here) with what budget is left then.  `final`: the lane's
 * end, after which it is only destroyed. */
void emit_co_suspend(jctx *j, LLVMValueRef where, LLVMBasicBlockRef resume, int final)
{
    LLVMBuildStore(j->B, LLVMBuildLoad2(j->B, j->i64, j->budget_var, ""),
                   env_field(j, ENV_BUDGET, 0));
    emit_co_note(j, where);
    LLVMValueRef args[2] = {LLVMConstNull(LLVMTokenTypeInContext(j->C)),
                            LLVMConstInt(j->i1, (unsigned long long)final, 0)};
    LLVMValueRef st = call_intrinsic(j, "llvm.coro.suspend", NULL, 0, args, 2);
    LLVMValueRef sw = LLVMBuildSwitch(j->B, st, j->co_ret, 2);
    LLVMAddCase(sw, LLVMConstInt(j->i8, 0, 0), resume);
    LLVMAddCase(sw, LLVMConstInt(j->i8, 1, 0), j->co_cleanup);
    LLVMPositionBuilderAtEnd(j->B, resume);
    if (!final)
        LLVMBuildStore(j->B, LLVMBuildLoad2(j->B, j->i64, env_field(j, ENV_BUDGET, 0), ""),
                       j->budget_var);
}

/* The current lane's bytes of the interpreter's value slot of `id`:
 * ex->vals[id].p + lane * ex->vals[id].stride. */
static LLVMValueRef lane_slot(jctx *j, uint32_t id)
{
    LLVMValueRef i0[2] = {c_i64(j, id), c_i32(j, 0)}, i1[2] = {c_i64(j, id), c_i32(j, 1)};
    LLVMValueRef sp = LLVMBuildLoad2(
        j->B, j->ptr8, LLVMBuildInBoundsGEP2(j->B, j->val_t, j->vals_base, i0, 2, ""), "");
    LLVMValueRef st = LLVMBuildLoad2(
        j->B, j->i32, LLVMBuildInBoundsGEP2(j->B, j->val_t, j->vals_base, i1, 2, ""), "");
    LLVMValueRef off = LLVMBuildMul(j->B, LLVMBuildZExt(j->B, j->lane, j->i64, ""),
                                    LLVMBuildZExt(j->B, st, j->i64, ""), "");
    return LLVMBuildGEP2(j->B, j->i8, sp, &off, 1, "");
}

/* The subgroup instructions whose result is a function of the lane's own
 * operands and its id in the subgroup (ops/subgroup.c h_ballot_bit,
 * h_ballot_count): InverseBallot, BallotBitExtract, BallotBitCount,
 * BallotFindLSB and BallotFindMSB, of Subgroup scope. */
int jit_ballot_lane_op(const cvm_insn *in)
{
    switch (in->spv_op) {
    case SpvOpGroupNonUniformInverseBallot: case SpvOpGroupNonUniformBallotBitExtract:
    case SpvOpGroupNonUniformBallotBitCount: case SpvOpGroupNonUniformBallotFindLSB:
    case SpvOpGroupNonUniformBallotFindMSB:
        return !(in->flags & CVM_INSN_WORKGROUP_SCOPE);
    default:
        return 0;
    }
}

/* 1 for the instructions the collective form suspends at: OpControlBarrier
 * and the grammar's Non-Uniform and Group classes (subgroup operations),
 * but those of jit_ballot_lane_op. */
int jit_is_collective(const cvm_insn *in)
{
    if (in->spv_op == SpvOpControlBarrier)
        return 1;
    if (jit_ballot_lane_op(in))
        return 0; /* (one lane's function: jit_flow.c emit_ballot_lane) */
    const spv_instruction_desc *d = spv_grammar_instruction(in->spv_op);
    return d && d->op_class &&
           (!strcmp(d->op_class, "Non-Uniform") || !strcmp(d->op_class, "Group"));
}

cvm_result emit_collective(jctx *j, uint32_t ii)
{
    const cvm_program *p = j->p;
    const cvm_insn *in = &p->insns[ii];
    if (!j->collective || !in->fn || (in->flags & CVM_INSN_PER_INSTANCE))
        return jit_unsupported(j, ii, "a barrier or subgroup instruction here");
    int barrier = in->spv_op == SpvOpControlBarrier;
    /* (In a called function, inlined here: where every lane still running
     * makes the call together and reaches the instruction's block of the
     * callee together, as exec/uniform.h's convergent blocks of each
     * function say, the lanes that wait there are all that still run, as
     * at a convergent block of the entry point; every inlined copy of it
     * waits under the instruction's one index, which only one of them can
     * hold at a time, all lanes being at the same call.) */
    const cvm_block *callee_b = j->cur_block < j->f->nblocks ? &j->f->blocks[j->cur_block] : NULL;
    if ((j->call || j->f != &p->funcs[p->entry]) &&
        !(j->call && j->call->convergent && callee_b && callee_b->convergent))
        return jit_unsupported(j, ii, "a barrier or subgroup instruction in a called function "
                                      "that invocations may reach apart");
    /* (a barrier the analysis cannot show convergent is taken too: the
     * texts ask that every invocation reach it together, and the runner
     * checks that they all wait at it, as h_barrier does) */
    /* (Subgroup scope: the block need only be convergent within each
     * subgroup, run_collective running the instruction for the subgroups
     * whose invocations all wait at it) */
    /* (In the block-ordered form, lanes reach an instruction of a block
     * that is not convergent together with the lanes the interpreter runs
     * that block with: the lanes that wait at its start, run_ordered) */
    const cvm_block *cb = j->cur_block < j->f->nblocks ? &j->f->blocks[j->cur_block] : NULL;
    if (!cb)
        return jit_unsupported(j, ii, "a barrier or subgroup instruction here");
    uint32_t where = ii;
    if (j->ordered && !cb->convergent)
        where |= JIT_CO_SYNC;
    else if (!barrier && !(cb->convergent ||
                           (cb->convergent_sg && !(in->flags & CVM_INSN_WORKGROUP_SCOPE))))
        return jit_unsupported(j, ii, "a subgroup instruction that invocations may reach apart "
                                      "(a block that is not convergent)");
    if (!barrier) {
        /* (operands a and b are the ids the handlers read: cvm_lower_subgroup) */
        const uint32_t ids[2] = {in->a, in->b};
        for (int k = 0; k < 2; k++) {
            uint32_t id = ids[k];
            if (!id || id >= p->bound || p->const_offset[id] != UINT64_MAX)
                continue; /* (a constant's slot holds it) */
            uint32_t tid = j->mod->defs[id].type;
            LLVMValueRef v = get_val(j, id);
            if (!v || !value_type(j, tid) || LLVMTypeOf(v) != value_type(j, tid) ||
                type_of(j, tid)->size > JIT_MAX_ACCESS)
                return jit_unsupported(j, ii, "this operand of a subgroup instruction");
            jit_store_reg(j, v, tid, lane_slot(j, id));
        }
        if (in->result && (in->result >= p->bound || !in->type || !value_type(j, in->type) ||
                           type_of(j, in->type)->size > JIT_MAX_ACCESS))
            return jit_unsupported(j, ii, "this subgroup instruction's result");
    }
    LLVMBasicBlockRef resume = LLVMAppendBasicBlockInContext(j->C, j->fn, "resume");
    emit_co_suspend(j, c_i32(j, where), resume, 0);
    if (!barrier && in->result)
        j->vals[in->result] = jit_unspill(j, lane_slot(j, in->result), in->type);
    return CVM_SUCCESS;
}

/* The collective form's lane coroutine: void *name(env, lane). */
cvm_result translate_collective(jctx *j, const char *name)
{
    cvm_result r;
    LLVMTypeRef params[2] = {LLVMPointerType(j->env_t, 0), j->i32};
    j->fn = LLVMAddFunction(j->M, name, LLVMFunctionType(j->ptr8, params, 2, 0));
    /* a coroutine ready to split (LLVM 14 leaves setting this to the
     * front end: "1", prepared, so that one run of CoroSplit splits it) */
    LLVMAddAttributeAtIndex(j->fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(j->C, "coroutine.presplit", 18, "1", 1));
    j->env = LLVMGetParam(j->fn, 0);
    j->lane = LLVMGetParam(j->fn, 1);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(j->C, j->fn, "entry");
    LLVMBasicBlockRef oom = LLVMAppendBasicBlockInContext(j->C, j->fn, "oom");
    LLVMBasicBlockRef begin = LLVMAppendBasicBlockInContext(j->C, j->fn, "begin");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(j->C, j->fn, "body");
    LLVMBasicBlockRef final = LLVMAppendBasicBlockInContext(j->C, j->fn, "final");
    LLVMBasicBlockRef never = LLVMAppendBasicBlockInContext(j->C, j->fn, "never");
    j->lane_next = LLVMAppendBasicBlockInContext(j->C, j->fn, "next");
    j->fail_bb = LLVMAppendBasicBlockInContext(j->C, j->fn, "fail");
    j->co_kill = LLVMAppendBasicBlockInContext(j->C, j->fn, "kill");
    j->co_cleanup = LLVMAppendBasicBlockInContext(j->C, j->fn, "cleanup");
    j->co_ret = LLVMAppendBasicBlockInContext(j->C, j->fn, "ret");
    LLVMPositionBuilderAtEnd(j->B, entry);
    j->budget_var = LLVMBuildAlloca(j->B, j->i64, "budget");
    if ((r = setup_globals(j)) != CVM_SUCCESS || (r = setup_function_vars(j)) != CVM_SUCCESS)
        return r;
    /* the frame: memory of jit_co_alloc, or the lane fails at once */
    LLVMValueRef nul = LLVMConstNull(j->ptr8);
    LLVMValueRef id_args[4] = {c_i32(j, 16), nul, nul, nul};
    j->co_id = call_intrinsic(j, "llvm.coro.id", NULL, 0, id_args, 4);
    LLVMValueRef size = call_intrinsic(j, "llvm.coro.size", &j->i64, 1, NULL, 0);
    if (!j->co_id || !size)
        return jit_unsupported(j, UINT32_MAX, "shaders with barriers here (no coroutines in LLVM)");
    LLVMTypeRef aparams[3] = {LLVMPointerType(j->env_t, 0), j->i32, j->i64};
    LLVMTypeRef afty = LLVMFunctionType(j->ptr8, aparams, 3, 0);
    LLVMValueRef aargs[3] = {j->env, j->lane, size};
    LLVMValueRef mem = LLVMBuildCall2(j->B, afty, fn_const(j, (void *)jit_co_alloc, afty), aargs,
                                      3, "");
    LLVMBuildCondBr(j->B, LLVMBuildIsNull(j->B, mem, ""), oom, begin);
    LLVMPositionBuilderAtEnd(j->B, oom);
    LLVMTypeRef oparams[2] = {LLVMPointerType(j->env_t, 0), j->i32};
    LLVMTypeRef ofty = LLVMFunctionType(j->vd, oparams, 2, 0);
    LLVMValueRef oargs[2] = {j->env, j->lane};
    LLVMBuildCall2(j->B, ofty, fn_const(j, (void *)jit_co_oom, ofty), oargs, 2, "");
    LLVMBuildRet(j->B, nul);
    LLVMPositionBuilderAtEnd(j->B, begin);
    LLVMValueRef bargs[2] = {j->co_id, mem};
    j->co_hdl = call_intrinsic(j, "llvm.coro.begin", NULL, 0, bargs, 2);
    LLVMBuildStore(j->B, LLVMBuildLoad2(j->B, j->i64, env_field(j, ENV_BUDGET, 0), ""),
                   j->budget_var);
    LLVMValueRef nlanes = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_NLANES, 0), "");
    LLVMValueRef sg = LLVMBuildLoad2(j->B, j->i32, env_field(j, ENV_SG, 0), "");
    LLVMValueRef exp = LLVMBuildLoad2(j->B, j->ptr8, env_field(j, ENV_EX, 0), "");
    j->max_depth_v = jit_invariant(
        j, LLVMBuildLoad2(j->B, j->i32, ex_field(j, exp, offsetof(cvm_exec, max_depth), j->i32),
                          "max_depth"));
    LLVMTypeRef valp = LLVMPointerType(j->val_t, 0);
    j->vals_base = LLVMBuildLoad2(j->B, valp, ex_field(j, exp, offsetof(cvm_exec, vals), valp),
                                  "vals");
    if ((r = read_regions(j)) != CVM_SUCCESS)
        return r;
    LLVMBuildBr(j->B, body);
    LLVMPositionBuilderAtEnd(j->B, body);
    if ((r = emit_builtins(j, nlanes, sg)) != CVM_SUCCESS || (r = emit_var_init(j)) != CVM_SUCCESS ||
        (r = emit_blocks(j, j->f)) != CVM_SUCCESS)
        return r;
    /* the lane's end (its return or kill), or its failure (ex->diag set) */
    LLVMPositionBuilderAtEnd(j->B, j->lane_next);
    LLVMBuildBr(j->B, final);
    LLVMPositionBuilderAtEnd(j->B, j->co_kill);
    LLVMBuildBr(j->B, final);
    LLVMPositionBuilderAtEnd(j->B, j->fail_bb);
    LLVMBuildBr(j->B, final);
    LLVMPositionBuilderAtEnd(j->B, final);
    LLVMValueRef where = LLVMBuildPhi(j->B, j->i32, "");
    LLVMValueRef wv[3] = {c_i32(j, JIT_CO_DONE), c_i32(j, JIT_CO_KILLED), c_i32(j, JIT_CO_FAILED)};
    LLVMBasicBlockRef wb[3] = {j->lane_next, j->co_kill, j->fail_bb};
    LLVMAddIncoming(where, wv, wb, 3);
    emit_co_suspend(j, where, never, 1);
    LLVMBuildUnreachable(j->B);
    LLVMPositionBuilderAtEnd(j->B, j->co_cleanup);
    LLVMValueRef fargs[2] = {j->co_id, j->co_hdl};
    LLVMValueRef fmem = call_intrinsic(j, "llvm.coro.free", NULL, 0, fargs, 2);
    LLVMTypeRef ffty = LLVMFunctionType(j->vd, &j->ptr8, 1, 0);
    LLVMBuildCall2(j->B, ffty, fn_const(j, (void *)jit_co_free, ffty), &fmem, 1, "");
    LLVMBuildBr(j->B, j->co_ret);
    LLVMPositionBuilderAtEnd(j->B, j->co_ret);
    LLVMValueRef eargs[2] = {j->co_hdl, LLVMConstInt(j->i1, 0, 0)};
    call_intrinsic(j, "llvm.coro.end", NULL, 0, eargs, 2);
    LLVMBuildRet(j->B, j->co_hdl);
    return CVM_SUCCESS;
}

/* The module's resume and destroy of a lane's handle, for run_collective. */
void add_co_helpers(jctx *j)
{
    static const char *const names[2][2] = {{"cvm_co_resume", "llvm.coro.resume"},
                                            {"cvm_co_destroy", "llvm.coro.destroy"}};
    for (int k = 0; k < 2; k++) {
        LLVMValueRef fn = LLVMAddFunction(j->M, names[k][0], LLVMFunctionType(j->vd, &j->ptr8, 1, 0));
        LLVMPositionBuilderAtEnd(j->B, LLVMAppendBasicBlockInContext(j->C, fn, ""));
        LLVMValueRef h = LLVMGetParam(fn, 0);
        call_intrinsic(j, names[k][1], NULL, 0, &h, 1);
        LLVMBuildRetVoid(j->B);
    }
}

/* 1 when the entry point has a subgroup instruction in a block that is
 * not convergent (nor convergent within subgroups, for one of Subgroup
 * scope): then the collective form is block-ordered (cvm_jit.ordered). */
int ordered_blocks(const cvm_program *p)
{
    const cvm_function *f = &p->funcs[p->entry];
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const cvm_block *blk = &f->blocks[b];
        if (blk->convergent)
            continue;
        for (uint32_t ii = blk->first; ii < blk->first + blk->count && ii < p->ninsns; ii++) {
            const cvm_insn *in = &p->insns[ii];
            if (jit_is_collective(in) && in->spv_op != SpvOpControlBarrier &&
                !(blk->convergent_sg && !(in->flags & CVM_INSN_WORKGROUP_SCOPE)))
                return 1;
        }
    }
    return 0;
}

/* The block-ordered form's waits (run_ordered): per block of the entry
 * point, 1 where a lane waits at the block's start.
 *   - a block that is not convergent and holds a collective instruction;
 *   - the source s of a back edge (to a block t no later in the order,
 *     a loop's header) when a block from t to s waits (a fixpoint: an
 *     outer loop's range then holds the inner loop's wait).
 * A lane resumed at a block runs it and goes on to the next block it waits
 * at.  On the way it goes only forward in the structured order (lower.c),
 * but for loops with no wait inside, which it leaves forward past all of
 * their blocks (a loop's exits are merges and continue targets of it or of
 * constructs around it, all later); so it passes only blocks below the one
 * it waits at.  The interpreter, running the lowest block any lane waits
 * at, runs all of those first too, so the lanes waiting at a block when it
 * is the lowest waited at are exactly those it runs that block with.
 * (Were a lane to take a back edge past a waiting block, it would wait at a
 * block below ones it passed -- below where the interpreter has it -- and
 * could join lanes of an earlier iteration there.)  The collectives of
 * convergent blocks need no wait before them: every lane still running
 * waits at them before any goes on.  Between waits the lanes run one after
 * another: only the order of writes between invocations differs, which no
 * barrier orders.  NULL when out of memory. */
uint8_t *ordered_waits(const cvm_program *p)
{
    const cvm_function *f = &p->funcs[p->entry];
    uint32_t nb = f->nblocks;
    uint8_t *w = cvm_calloc(nb ? nb : 1, 1);
    uint32_t *below = cvm_calloc(nb ? nb : 1, sizeof(uint32_t)); /* back edge b -> below[b] */
    if (!w || !below) {
        cvm_mem_free(w);
        cvm_mem_free(below);
        return NULL;
    }
    for (uint32_t b = 0; b < nb; b++) {
        const cvm_block *blk = &f->blocks[b];
        below[b] = UINT32_MAX;
        if (blk->count == 0 || blk->first + blk->count > p->ninsns)
            continue;
        for (uint32_t ii = blk->first; ii < blk->first + blk->count && !blk->convergent; ii++)
            w[b] |= jit_is_collective(&p->insns[ii]);
        const cvm_insn *t = &p->insns[blk->first + blk->count - 1];
        uint32_t to[2] = {UINT32_MAX, UINT32_MAX};
        if (t->cf == CVM_CF_BRANCH) {
            to[0] = t->a;
        } else if (t->cf == CVM_CF_BRANCH_COND) {
            to[0] = t->b;
            to[1] = t->c;
        } else if (t->cf == CVM_CF_SWITCH) {
            to[0] = t->b;
            for (uint32_t k = 0; k + 2 < t->nextra; k += 3) {
                uint32_t s = p->extra[t->extra + k + 2];
                below[b] = s <= b && s < below[b] ? s : below[b];
            }
        }
        for (uint32_t k = 0; k < 2; k++)
            below[b] = to[k] <= b && to[k] < below[b] ? to[k] : below[b];
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < nb; b++) {
            if (w[b] || below[b] == UINT32_MAX)
                continue;
            for (uint32_t k = below[b]; k <= b && !w[b]; k++)
                w[b] = w[k];
            changed |= w[b];
        }
    }
    cvm_mem_free(below);
    return w;
}

#endif /* CVM_HAVE_LLVM */
