/* The scope form (jit.h cvm_jit_scope_form): the entry point's
 * instructions once per workgroup, the uniform ones translated where the
 * tier can, the rest run by their interpreter handlers on the value slots,
 * and the phis whose values stay in those slots (moved on the edges into
 * their blocks by jit_slot_phis). */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

/* The interpreter's value slot of `id` (ex->vals[id].p). */
static LLVMValueRef slot_ptr(jctx *j, uint32_t id)
{
    LLVMValueRef idx[2] = {c_i64(j, id), c_i32(j, 0)};
    LLVMValueRef pp = LLVMBuildInBoundsGEP2(j->B, j->val_t, j->vals_base, idx, 2, "");
    return LLVMBuildLoad2(j->B, j->ptr8, pp, "");
}

/* Before a handler runs instruction `si`: the values of its operands that
 * the compiled code holds (every one of them uniform, so each slot has
 * stride 0) written to their slots, a buffer pointer as the address
 * exec.h defines (an offset outside its region's 40 bits: the region's
 * last byte, as h_access_chain makes it).  A Function variable the code
 * keeps as its own cannot be named by a handler: not taken. */
static cvm_result to_slots(jctx *j, const spv_inst *si)
{
    const cvm_program *p = j->p;
    for (uint32_t k = 1; k < si->word_count; k++) {
        uint32_t id = si->words[k];
        if (id == 0 || id >= p->bound || p->const_offset[id] != UINT64_MAX ||
            j->mod->defs[id].func != p->entry)
            continue;
        if (j->mod->defs[id].opcode == SpvOpVariable) {
            if (j->ptrs[id].kind != JP_NONE)
                return jit_unsupported(j, j->cur_insn, "a variable of the compiled code named here");
            continue;
        }
        /* (held but not uniform: a value the same in every lane all the
         * same -- an address of a region every lane addresses alike, a
         * load of a uniform variable -- goes to every lane's copy) */
        int every = 0;
        if ((j->vals[id] || j->ptrs[id].kind != JP_NONE) && !p->uniform[id]) {
            every = (j->ptrs[id].kind == JP_MEM && !cvm_region_per_invocation(j->ptrs[id].region)) ||
                    (j->vals[id] && j->alike && j->alike[id]);
            if (!every)
                return jit_unsupported(j, j->cur_insn,
                                       "a value that may differ between invocations, named here");
        }
        if (j->vals[id]) {
            jit_store_reg(j, j->vals[id], j->mod->defs[id].type, slot_ptr(j, id));
        } else if (j->ptrs[id].kind == JP_MEM) {
            const jptr *pt = &j->ptrs[id];
            uint64_t lim = UINT64_C(1) << CVM_ADDR_OFFSET_BITS;
            LLVMValueRef bad = LLVMBuildICmp(j->B, LLVMIntUGE, pt->off, c_i64(j, lim), "");
            LLVMValueRef off = LLVMBuildSelect(j->B, bad, c_i64(j, lim - 1), pt->off, "");
            LLVMValueRef addr = LLVMBuildOr(j->B, off, c_i64(j, CVM_ADDR(pt->region, 0)), "");
            LLVMValueRef sp = LLVMBuildBitCast(j->B, slot_ptr(j, id), LLVMPointerType(j->i64, 0), "");
            LLVMSetAlignment(LLVMBuildStore(j->B, addr, sp), 1);
        } else if (j->ptrs[id].kind != JP_NONE) {
            return jit_unsupported(j, j->cur_insn, "a pointer of the compiled code named here");
        }
        if (every) {
            uint32_t size = j->ptrs[id].kind == JP_MEM ? 8u : (uint32_t)type_of(j, j->mod->defs[id].type)->size;
            LLVMTypeRef params[3] = {LLVMPointerType(j->env_t, 0), j->i32, j->i32};
            LLVMValueRef args[3] = {j->env, c_i32(j, id), c_i32(j, size)};
            emit_checked_call(j, (void *)jit_slot_broadcast, params, args, 3);
        }
    }
    return CVM_SUCCESS;
}

/* Instruction `ii` run by its handler over the whole workgroup (every lane
 * active: a cooperative-matrix instruction runs once per scope instance),
 * as run_block_impl runs it: cvm_insn.fn(ex, in) called directly (a
 * failure has set ex->diag). */
static void emit_run_handler(jctx *j, uint32_t ii)
{
    LLVMTypeRef params[2] = {j->ptr8, j->ptr8};
    LLVMValueRef args[2] = {
        LLVMBuildLoad2(j->B, j->ptr8, env_field(j, ENV_EX, 0), ""),
        LLVMConstIntToPtr(c_i64(j, (uint64_t)(uintptr_t)&j->p->insns[ii]), j->ptr8)};
    emit_checked_call(j, (void *)j->p->insns[ii].fn, params, args, 2);
}

/* Instruction `ii` run by its handler: over every lane (a cooperative-
 * matrix instruction, a barrier), or for lane 0 alone (`one_lane`, a
 * uniform instruction the tier does not translate).  A result of a type
 * the code holds is read back from its slot (uniform: one copy). */
static cvm_result emit_handler_call(jctx *j, uint32_t ii, const spv_inst *si, int one_lane)
{
    const cvm_insn *in = &j->p->insns[ii];
    cvm_result r = to_slots(j, si);
    if (r != CVM_SUCCESS)
        return r;
    if (one_lane) {
        LLVMTypeRef params[2] = {LLVMPointerType(j->env_t, 0), j->i32};
        LLVMValueRef args[2] = {j->env, c_i32(j, ii)};
        emit_checked_call(j, (void *)jit_uniform_handler, params, args, 2);
    } else {
        emit_run_handler(j, ii);
    }
    /* (a value of each lane stays in its slots, where the handlers of the
     * instructions that use it read it: no instruction the code translates
     * or branches on can name it, these being uniform) */
    if (in->result && in->result < j->p->bound && in->type && value_type(j, in->type) &&
        j->p->uniform[in->result])
        j->vals[in->result] = jit_unspill(j, slot_ptr(j, in->result), in->type);
    return CVM_SUCCESS;
}

/* The scope form's loads and stores of a whole cooperative matrix in a
 * Function variable, where the variable's slot is known to the group
 * (cvm_exec.mvar_slots, as cvm_matrix_variable_cached reads it): an
 * aliasing load (CVM_INSN_ALIAS) points the result's slot at it, a store of
 * a value already there does nothing, both inline; anything else (the
 * slot not known yet, another value to store) runs the handler. */
static int matrix_var_op(jctx *j, uint32_t ii, const spv_inst *si)
{
    const cvm_insn *in = &j->p->insns[ii];
    const cvm_program *p = j->p;
    int load = si->opcode == SpvOpLoad && si->word_count >= 4 && (in->flags & CVM_INSN_ALIAS);
    int store = si->opcode == SpvOpStore && si->word_count >= 3;
    uint32_t var = load ? si->words[3] : store ? si->words[1] : 0;
    if (!var || var >= p->bound || j->mod->defs[var].opcode != SpvOpVariable ||
        j->mod->defs[var].func != p->entry || in->type >= p->ntypes ||
        p->types[in->type].tclass != CVM_TC_COOPMAT)
        return 0;
    uint32_t val = si->words[2]; /* the load's result, the store's object */
    if (val >= p->bound)
        return 0;
    LLVMValueRef exp = LLVMBuildLoad2(j->B, j->ptr8, env_field(j, ENV_EX, 0), "");
    LLVMValueRef tab = LLVMBuildLoad2(j->B, j->ptr8,
                                      ex_field(j, exp, offsetof(cvm_exec, mvar_slots), j->ptr8), "");
    LLVMValueRef nl = LLVMBuildLoad2(j->B, j->i32, ex_field(j, exp, offsetof(cvm_exec, nlanes), j->i32), "");
    LLVMValueRef na = LLVMBuildLoad2(j->B, j->i32, ex_field(j, exp, offsetof(cvm_exec, nactive), j->i32), "");
    LLVMValueRef have = LLVMBuildAnd(j->B, LLVMBuildIsNotNull(j->B, tab, ""),
                                     LLVMBuildICmp(j->B, LLVMIntEQ, na, nl, ""), "");
    /* the table's entry for the variable: read only where the table exists */
    LLVMBasicBlockRef look = LLVMAppendBasicBlockInContext(j->C, j->fn, "mvlook");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(j->C, j->fn, "mvslow");
    LLVMBuildCondBr(j->B, have, look, slow);
    LLVMPositionBuilderAtEnd(j->B, look);
    LLVMValueRef base = ex_field(j, tab, (size_t)var * sizeof(cvm_mvar_slot), j->i8);
    LLVMValueRef sp = LLVMBuildLoad2(j->B, j->ptr8, ex_field(j, base, offsetof(cvm_mvar_slot, slot.p), j->ptr8), "");
    LLVMValueRef sst = LLVMBuildLoad2(j->B, j->i32, ex_field(j, base, offsetof(cvm_mvar_slot, slot.stride), j->i32), "");
    LLVMValueRef esz = LLVMBuildLoad2(j->B, j->i32, ex_field(j, base, offsetof(cvm_mvar_slot, size), j->i32), "");
    LLVMValueRef ewg = LLVMBuildLoad2(j->B, j->i32, ex_field(j, base, offsetof(cvm_mvar_slot, wg), j->i32), "");
    uint32_t wg = (in->flags & CVM_INSN_WORKGROUP_SCOPE) != 0;
    LLVMValueRef hit = LLVMBuildIsNotNull(j->B, sp, "");
    hit = LLVMBuildAnd(j->B, hit, LLVMBuildICmp(j->B, LLVMIntEQ, esz, c_i32(j, p->types[in->type].size), ""), "");
    hit = LLVMBuildAnd(j->B, hit, LLVMBuildICmp(j->B, LLVMIntEQ, ewg, c_i32(j, wg), ""), "");

    LLVMValueRef vidx[2] = {c_i64(j, val), c_i32(j, 0)}, sidx[2] = {c_i64(j, val), c_i32(j, 1)};
    LLVMValueRef vpp = LLVMBuildInBoundsGEP2(j->B, j->val_t, j->vals_base, vidx, 2, "");
    LLVMValueRef vsp = LLVMBuildInBoundsGEP2(j->B, j->val_t, j->vals_base, sidx, 2, "");
    if (store) {
        LLVMValueRef same = LLVMBuildICmp(j->B, LLVMIntEQ, LLVMBuildLoad2(j->B, j->ptr8, vpp, ""), sp, "");
        same = LLVMBuildAnd(j->B, same, LLVMBuildICmp(j->B, LLVMIntEQ, LLVMBuildLoad2(j->B, j->i32, vsp, ""), sst, ""), "");
        hit = LLVMBuildAnd(j->B, hit, same, "");
    }
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(j->C, j->fn, "mvfast");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(j->C, j->fn, "mvjoin");
    LLVMBuildCondBr(j->B, hit, fast, slow);
    LLVMPositionBuilderAtEnd(j->B, fast);
    if (load) {
        LLVMBuildStore(j->B, sp, vpp);
        LLVMBuildStore(j->B, sst, vsp);
    }
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, slow);
    emit_run_handler(j, ii);
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, join);
    return 1;
}

/* 1 when the operand `id` of an instruction the tier would translate is
 * one it holds (a constant, an LLVM value, a pointer it follows), or no
 * value of this function at all (a literal, a type). */
static int held(jctx *j, uint32_t id)
{
    const cvm_program *p = j->p;
    if (id == 0 || id >= p->bound || p->const_offset[id] != UINT64_MAX)
        return 1;
    const spv_def *d = &j->mod->defs[id];
    if (d->func != p->entry)
        return 1;
    return j->vals[id] != NULL || j->ptrs[id].kind != JP_NONE;
}

/* 1 when the scope form translates uniform instruction `si` itself; else
 * its handler runs it for one lane. */
static int native_ok(jctx *j, const spv_inst *si)
{
    const uint32_t *w = si->words;
    uint32_t op = si->opcode, first = 3;
    switch (op) {
    case SpvOpVariable: /* a uniform one's initializer, to the code's own copy */
        return si->word_count >= 5 && w[2] < j->p->bound && j->ptrs[w[2]].kind == JP_VAR;
    case SpvOpLoad:
        return si->word_count >= 4 && w[3] < j->p->bound && j->ptrs[w[3]].kind != JP_NONE &&
               value_type(j, w[1]) != NULL;
    case SpvOpStore:
        return si->word_count >= 3 && w[1] < j->p->bound && j->ptrs[w[1]].kind != JP_NONE &&
               get_val(j, w[2]) != NULL;
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
        for (uint32_t k = 4; k < si->word_count; k++)
            if (!held(j, w[k]))
                return 0;
        return si->word_count >= 4 && w[3] < j->p->bound && j->ptrs[w[3]].kind != JP_NONE;
    case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCompositeConstruct:
    case SpvOpVectorShuffle: case SpvOpCopyObject:
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpBitcast:
        break;
    case SpvOpExtInst:
        if (si->word_count < 5 || w[3] != j->p->glsl_ext || !j->p->glsl_ext)
            return 0;
        first = 5;
        break;
    default:
        if (!is_arith_op(op))
            return 0;
    }
    if (si->word_count < 3 || !value_type(j, w[1]))
        return 0;
    for (uint32_t k = first; k < si->word_count; k++)
        if (!held(j, w[k]) || (w[k] < j->p->bound && j->ptrs[w[k]].kind != JP_NONE))
            return 0;
    return 1;
}

/* A module-scope Private variable (each lane's copy in its own memory). */
static int private_var(const jctx *j, uint32_t id)
{
    const cvm_program *p = j->p;
    return id != 0 && id < p->bound && j->mod->defs[id].func == UINT32_MAX &&
           j->mod->defs[id].opcode == SpvOpVariable && p->var_region[id] == CVM_REGION_INVOCATION;
}

/* A value every lane of the scope form holds alike: a constant or a
 * uniform value. */
static int scope_uniform_id(const jctx *j, uint32_t id)
{
    const cvm_program *p = j->p;
    return id != 0 && id < p->bound && (p->const_offset[id] != UINT64_MAX || p->uniform[id]);
}

/* One instruction of the entry point in the scope form. */
cvm_result emit_scope_insn(jctx *j, uint32_t ii)
{
    const cvm_insn *in = &j->p->insns[ii];
    spv_inst si;
    if (!insn_words(j, ii, &si))
        return jit_unsupported(j, ii, "this instruction");
    if (!in->fn)
        return emit_insn(j, ii); /* (a non-semantic extended instruction) */
    if (in->flags & CVM_INSN_PER_INSTANCE) {
        if (matrix_var_op(j, ii, &si))
            return CVM_SUCCESS;
        return emit_handler_call(j, ii, &si, 0);
    }
    if (!(in->flags & CVM_INSN_UNIFORM)) {
        if (si.opcode == SpvOpControlBarrier || si.opcode == SpvOpMemoryBarrier)
            return emit_handler_call(j, ii, &si, 0);
        /* a pointer is a description here, lane 0's; what loads or stores
         * through it must itself be uniform (and a handler is never given
         * it: to_slots); into a built-in, whose loads differ between lanes,
         * its handler makes each lane's */
        if ((si.opcode == SpvOpAccessChain || si.opcode == SpvOpInBoundsAccessChain) &&
            native_ok(j, &si) &&
            !(si.word_count > 3 && j->ptrs[si.words[3]].kind == JP_BUILTIN))
            return emit_insn(j, ii);
        /* a uniform value stored to a Private variable: every lane's copy
         * written, by the handler over the whole group (exec/uniform.h: a
         * uniform Private variable) */
        if (si.opcode == SpvOpStore && si.word_count >= 3 && private_var(j, si.words[1]) &&
            scope_uniform_id(j, si.words[2]))
            return emit_handler_call(j, ii, &si, 0);
        /* a load of a uniform Function variable the code keeps, in a block
         * that is not convergent: its one value, for every lane */
        if (si.opcode == SpvOpLoad && si.word_count >= 4 && si.words[3] < j->p->bound &&
            j->ptrs[si.words[3]].kind == JP_VAR && si.words[2] < j->p->bound &&
            value_type(j, si.words[1])) {
            if (!j->alike && !(j->alike = cvm_calloc(j->p->bound ? j->p->bound : 1, 1)))
                return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            j->alike[si.words[2]] = 1;
            return emit_insn(j, ii);
        }
        /* anything else that differs between lanes: its handler over the
         * whole workgroup, as run_block_impl runs it with every lane
         * active, its operands and result in the value slots */
        if (in->cf != CVM_CF_NONE)
            return jit_unsupported(j, ii, "an instruction whose value may differ between invocations");
        j->lanes = 1;
        return emit_handler_call(j, ii, &si, 0);
    }
    if (native_ok(j, &si))
        return emit_insn(j, ii);
    return emit_handler_call(j, ii, &si, 1);
}

/* On the edge from block `from` to block `to` (whose phis include slot
 * phis), before jit_slot_phis moves them: the incoming values of those
 * phis that the code holds (uniform values: one copy each) written to
 * their slots, where jit_slot_phis reads them. */
void spill_slot_phi_inputs(jctx *j, uint32_t to, uint32_t from)
{
    const cvm_program *p = j->p;
    const cvm_block *b = &j->f->blocks[to];
    for (uint32_t ii = b->first; ii < b->first + b->count && p->insns[ii].cf == CVM_CF_PHI; ii++) {
        const cvm_insn *ph = &p->insns[ii];
        if (!j->slot_phi[ii])
            continue;
        const uint32_t *pairs = p->extra + ph->extra;
        for (uint32_t k = 0; k + 1 < ph->nextra; k += 2) {
            uint32_t id = pairs[k];
            if (pairs[k + 1] != from || id == 0 || id >= p->bound ||
                p->const_offset[id] != UINT64_MAX || j->mod->defs[id].func != p->entry ||
                !j->vals[id] || !p->uniform[id])
                continue;
            jit_store_reg(j, j->vals[id], j->mod->defs[id].type, slot_ptr(j, id));
        }
    }
}

/* The scope form: the phis whose values stay in the interpreter's slots
 * (types the code does not hold: matrices, whose copies are per scope
 * instance, and uniform tensor layouts and views), moved by jit_slot_phis
 * on the edges into their blocks. */
cvm_result mark_slot_phis(jctx *j)
{
    const cvm_program *p = j->p;
    const cvm_function *f = j->f;
    j->has_slot_phis = cvm_calloc(f->nblocks ? f->nblocks : 1, 1);
    if (!j->has_slot_phis)
        return cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t bi = 0; bi < f->nblocks; bi++) {
        const cvm_block *blk = &f->blocks[bi];
        for (uint32_t ii = blk->first; ii < blk->first + blk->count && p->insns[ii].cf == CVM_CF_PHI;
             ii++) {
            const cvm_insn *ph = &p->insns[ii];
            if (ph->type >= p->ntypes || ph->result >= p->bound)
                return jit_unsupported(j, ii, "this phi");
            if (value_type(j, ph->type) && p->uniform[ph->result])
                continue;
            if (!value_type(j, ph->type) && p->types[ph->type].tclass != CVM_TC_COOPMAT &&
                !p->uniform[ph->result])
                return jit_unsupported(j, ii, "a phi whose value may differ between invocations");
            j->lanes |= !p->uniform[ph->result] && p->types[ph->type].tclass != CVM_TC_COOPMAT;
            j->slot_phi[ii] = 1;
            j->has_slot_phis[bi] = 1;
        }
    }
    return CVM_SUCCESS;
}

/* ---- divergent selections ------------------------------------------------
 *
 * A selection construct (OpSelectionMerge, OpBranchConditional) whose
 * condition differs between invocations: the interpreter runs the blocks of
 * its true arm with the lanes that took it, then those of its false arm with
 * the others (the lowest block any lane waits at first: structured order),
 * then its merge block with all of them.  The scope form does the same with
 * masks: jit_div_enter keeps the active lanes and makes those of the true
 * arm active, the arm's blocks run (each instruction by its handler, over
 * the active lanes; the arm is skipped when none took it), jit_div_else
 * makes the false arm's lanes active, and jit_div_exit restores them all
 * before the merge block.  The merge block's phis take their values lane by
 * lane on each arm's way out, with that arm's lanes active.  Taken only
 * where the arms are plain: every branch out of an arm block goes to a
 * later block of the same arm or to the merge block (no loop, no return, no
 * break or continue out of the construct; a switch is not taken), the arms
 * share no block, and the merge block has no phi of a matrix.
 *
 * A loop whose exit condition differs between invocations likewise: on the
 * way in its lanes are kept (jit_loop_enter); at an exit, a conditional
 * branch of the loop's own level to its merge block, the lanes that leave
 * take the merge block's phis (their values of this iteration) and wait
 * (jit_loop_exit_begin), the others go on (jit_div_else); once none is
 * left, the kept lanes go to the merge block (jit_div_exit) -- the
 * interpreter's order, the loop's blocks before its merge block.  Its
 * blocks branch forward, to the merge block (an exit), or from its latch
 * back to its header (no loop within it; a break or continue inside a
 * branch is not taken). */

/* The successors of block b (at most 2 here: a switch is refused), or -1
 * for a terminator that is neither a branch nor a conditional one. */
static int block_succs(const jctx *j, uint32_t b, uint32_t s[2])
{
    const cvm_block *blk = &j->f->blocks[b];
    if (!blk->count)
        return -1;
    const cvm_insn *t = &j->p->insns[blk->first + blk->count - 1];
    if (t->cf == CVM_CF_BRANCH) {
        s[0] = t->a;
        return 1;
    }
    if (t->cf == CVM_CF_BRANCH_COND) {
        s[0] = t->b;
        s[1] = t->c;
        return 2;
    }
    return -1;
}

/* The block whose label is `label`, or UINT32_MAX. */
static uint32_t block_of(const jctx *j, uint32_t label)
{
    for (uint32_t b = 0; b < j->f->nblocks; b++)
        if (j->f->blocks[b].label == label)
            return b;
    return UINT32_MAX;
}

/* Block b's merge instruction (the one before its terminator): 1 for
 * OpSelectionMerge, 2 for OpLoopMerge (*o_cont its continue target), 0 for
 * none; *o_merge the merge block. */
static int merge_of(const jctx *j, uint32_t b, uint32_t *o_merge, uint32_t *o_cont)
{
    const cvm_block *blk = &j->f->blocks[b];
    uint32_t label = blk->label;
    if (!blk->count || label >= j->p->bound)
        return 0;
    size_t off = j->mod->defs[label].off, term = j->p->insns[blk->first + blk->count - 1].word_off;
    spv_inst si, last;
    int have = 0;
    while (off < term && spv_next_inst(&j->mod->bin, &off, &si, NULL) == 1) {
        last = si;
        have = 1;
    }
    if (!have || off != term)
        return 0;
    if (last.opcode == SpvOpSelectionMerge && last.word_count >= 3) {
        *o_merge = block_of(j, last.words[1]);
        return *o_merge == UINT32_MAX ? 0 : 1;
    }
    if (last.opcode == SpvOpLoopMerge && last.word_count >= 4) {
        *o_merge = block_of(j, last.words[1]);
        *o_cont = block_of(j, last.words[2]);
        return *o_merge == UINT32_MAX || *o_cont == UINT32_MAX ? 0 : 2;
    }
    return 0;
}

/* The blocks of a construct from its first blocks `first[0..nfirst)` to
 * its merge block m (not included), in o_in (1 each), where every branch
 * among them goes forward in `pos`, to the merge block, or (a loop's
 * latch) back to `back`: UINT32_MAX; else the index of a terminator that
 * does not, and *o_why what it is. */
static uint32_t region(jctx *j, const uint32_t *pos, const uint32_t *first, uint32_t nfirst,
                       uint32_t m, uint32_t back, uint32_t latch, uint8_t *o_in, uint32_t *stack,
                       const char **o_why)
{
    const cvm_function *f = j->f;
    uint32_t n = f->nblocks, top = 0;
    memset(o_in, 0, n);
    for (uint32_t k = 0; k < nfirst; k++)
        if (first[k] != m && first[k] < n && !o_in[first[k]]) {
            o_in[first[k]] = 1;
            stack[top++] = first[k];
        }
    while (top) {
        uint32_t b = stack[--top], s[2];
        int ns = f->blocks[b].dead ? 0 : block_succs(j, b, s);
        if (ns < 0) {
            *o_why = "this control flow in a branch or loop on a value that differs between "
                     "invocations";
            return f->blocks[b].first + f->blocks[b].count - 1;
        }
        for (int q = 0; q < ns; q++) {
            if (s[q] == m || (s[q] == back && b == latch))
                continue;
            if (s[q] >= n || pos[s[q]] <= pos[b] || pos[s[q]] >= pos[m]) {
                *o_why = "this branch out of a branch or loop on a value that differs between "
                         "invocations, or a loop in one";
                return f->blocks[b].first + f->blocks[b].count - 1;
            }
            if (!o_in[s[q]]) {
                o_in[s[q]] = 1;
                stack[top++] = s[q];
            }
        }
    }
    return UINT32_MAX;
}

/* 1 when the loop whose blocks `in` marks, merging at m, has an exit (a
 * branch to m) on a value that is not uniform. */
static int loop_diverges(const jctx *j, const uint8_t *in, uint32_t m)
{
    const cvm_program *p = j->p;
    for (uint32_t b = 0; b < j->f->nblocks; b++) {
        const cvm_block *blk = &j->f->blocks[b];
        if (!in[b] || !blk->count || blk->dead)
            continue;
        const cvm_insn *t = &p->insns[blk->first + blk->count - 1];
        if (t->cf == CVM_CF_BRANCH_COND && (t->b == m || t->c == m) && t->a < p->bound &&
            p->const_offset[t->a] == UINT64_MAX && !p->uniform[t->a])
            return 1;
    }
    return 0;
}

cvm_result mark_divergent(jctx *j, const uint32_t *pos)
{
    const cvm_program *p = j->p;
    const cvm_function *f = j->f;
    uint32_t n = f->nblocks;
    j->div_of = cvm_calloc(n ? n : 1, sizeof(uint32_t));
    j->div_arm = cvm_calloc(n ? n : 1, 1);
    uint32_t *stack = cvm_calloc(n ? n : 1, sizeof(uint32_t));
    uint32_t *at = cvm_calloc(n ? n : 1, sizeof(uint32_t)); /* (pos inverted) */
    uint8_t *in_arm = cvm_calloc(n ? n : 1, 1), *in2 = cvm_calloc(n ? n : 1, 1);
    cvm_result r = CVM_SUCCESS;
    if (!j->div_of || !j->div_arm || !stack || !in_arm || !at || !in2) {
        r = cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t b = 0; b < n; b++)
        at[pos[b] < n ? pos[b] : 0] = b;
    /* headers in structured order, so that an inner construct, found after
     * the one that holds it, marks its own blocks last */
    for (uint32_t k = 0; k < n && r == CVM_SUCCESS; k++) {
        uint32_t h = at[k], m = UINT32_MAX, c = UINT32_MAX;
        if (f->blocks[h].dead || !f->blocks[h].count)
            continue;
        const cvm_insn *t = &p->insns[f->blocks[h].first + f->blocks[h].count - 1];
        int kind = merge_of(j, h, &m, &c);
        int loop = 0;
        const char *why = NULL;
        if (kind == 2) {
            /* a loop: divergent when an exit is (a uniform one, whatever
             * its shape, is native) */
            uint32_t bad = region(j, pos, &h, 1, m, h, c, in2, stack, &why);
            if (bad != UINT32_MAX) {
                if (f->blocks[h].convergent)
                    continue;
                r = jit_unsupported(j, bad, why);
                break;
            }
            if (!loop_diverges(j, in2, m))
                continue;
            loop = 1;
        } else if (t->cf != CVM_CF_BRANCH_COND || t->a >= p->bound ||
                   p->const_offset[t->a] != UINT64_MAX || p->uniform[t->a]) {
            continue;
        } else if (kind != 1 && j->div_of[h] && j->divs[j->div_of[h] - 1].loop &&
                   (t->b == j->divs[j->div_of[h] - 1].merge ||
                    t->c == j->divs[j->div_of[h] - 1].merge)) {
            continue; /* (an exit of the loop that holds it: emit_loop_exit) */
        } else if (kind != 1 || t->b >= n || t->c >= n) {
            r = jit_unsupported(j, f->blocks[h].first + f->blocks[h].count - 1,
                                "this branch on a value that differs between invocations "
                                "(not a selection's)");
            break;
        }
        struct jdiv *nd = cvm_realloc(j->divs, (j->ndivs + 1) * sizeof(*nd));
        if (!nd) {
            r = cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        j->divs = nd;
        struct jdiv *d = &j->divs[j->ndivs];
        memset(d, 0, sizeof(*d));
        d->header = h;
        d->merge = m;
        d->loop = loop;
        d->latch = c;
        d->depth = j->div_of[h] ? j->divs[j->div_of[h] - 1].depth + 1 : 0;
        if (loop) {
            if (!(d->blocks = cvm_malloc(n ? n : 1))) {
                r = cvm_diag_set(j->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
                break;
            }
            memcpy(d->blocks, in2, n);
            for (uint32_t b = 0; b < n; b++)
                if (in2[b]) {
                    j->div_of[b] = j->ndivs + 1;
                    j->div_arm[b] = 0;
                }
        } else {
            d->target[0] = t->b;
            d->target[1] = t->c;
            for (uint32_t arm = 0; arm < 2 && r == CVM_SUCCESS; arm++) {
                uint32_t bad = region(j, pos, &d->target[arm], 1, m, UINT32_MAX, UINT32_MAX,
                                      arm ? in2 : in_arm, stack, &why);
                if (bad != UINT32_MAX)
                    r = jit_unsupported(j, bad, why);
            }
            if (r != CVM_SUCCESS)
                break;
            for (uint32_t b = 0; b < n && r == CVM_SUCCESS; b++) {
                if (in_arm[b] && in2[b])
                    r = jit_unsupported(j, f->blocks[h].first + f->blocks[h].count - 1,
                                        "this branch (arms that share blocks)");
                else if (in_arm[b] || in2[b]) {
                    j->div_of[b] = j->ndivs + 1;
                    j->div_arm[b] = (uint8_t)(in2[b] != 0);
                }
            }
            if (r != CVM_SUCCESS)
                break;
        }
        const cvm_block *mb = &f->blocks[m];
        for (uint32_t ii = mb->first; ii < mb->first + mb->count && p->insns[ii].cf == CVM_CF_PHI; ii++)
            if (p->insns[ii].type >= p->ntypes || !value_type(j, p->insns[ii].type)) {
                r = jit_unsupported(j, ii, "a phi of this type after a branch or loop on a value "
                                           "that differs between invocations");
                break;
            }
        if (r != CVM_SUCCESS)
            break;
        if (d->depth + 1 > j->div_depth)
            j->div_depth = d->depth + 1;
        j->ndivs++;
        j->lanes = 1;
    }
done:
    cvm_mem_free(stack);
    cvm_mem_free(at);
    cvm_mem_free(in_arm);
    cvm_mem_free(in2);
    return r;
}

#endif /* CVM_HAVE_LLVM */
