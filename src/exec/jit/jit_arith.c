/* The compiled tier's arithmetic, conversions and GLSL.std.450, with the
 * extended arithmetic, dot products, bit fields and bit counts: each
 * instruction inline where LLVM computes what ops/ computes, bit for bit,
 * else through the interpreter's own kernel for one lane. */
#ifdef CVM_HAVE_LLVM

#include "exec/jit/jit_internal.h"

#include <stdio.h>

#include "exec/ops/ewise.h"

static LLVMValueRef splat(jctx *j, LLVMValueRef s, LLVMTypeRef like)
{
    if (LLVMGetTypeKind(like) != LLVMVectorTypeKind)
        return s;
    unsigned n = LLVMGetVectorSize(like);
    LLVMValueRef undef = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(s), n));
    LLVMValueRef one = LLVMBuildInsertElement(j->B, undef, s, c_i32(j, 0), "");
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(j->i32, n));
    return LLVMBuildShuffleVector(j->B, one, undef, zeros, "");
}

static LLVMValueRef const_like(jctx *j, LLVMTypeRef ty, uint64_t v)
{
    if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
        LLVMTypeRef et = LLVMGetElementType(ty);
        unsigned n = LLVMGetVectorSize(ty);
        LLVMValueRef c[16];
        for (unsigned i = 0; i < n; i++)
            c[i] = LLVMConstInt(et, v, 0);
        return LLVMConstVector(c, n);
    }
    return LLVMConstInt(ty, v, 0);
}

/* k_generic's integer division family (arith.c): by zero 0, by -1 the
 * negation (SDiv) or 0 (SRem, SMod). */
static LLVMValueRef emit_int_div(jctx *j, uint32_t op, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstNull(ty), one = const_like(j, ty, 1);
    LLVMValueRef yz = LLVMBuildICmp(j->B, LLVMIntEQ, y, zero, "");
    if (op == SpvOpUDiv || op == SpvOpUMod) {
        LLVMValueRef ys = LLVMBuildSelect(j->B, yz, one, y, "");
        LLVMValueRef q = op == SpvOpUDiv ? LLVMBuildUDiv(j->B, x, ys, "")
                                          : LLVMBuildURem(j->B, x, ys, "");
        return LLVMBuildSelect(j->B, yz, zero, q, "");
    }
    LLVMValueRef allones = LLVMConstAllOnes(ty);
    LLVMValueRef ym1 = LLVMBuildICmp(j->B, LLVMIntEQ, y, allones, "");
    LLVMValueRef bad = LLVMBuildOr(j->B, yz, ym1, "");
    LLVMValueRef ys = LLVMBuildSelect(j->B, bad, one, y, "");
    LLVMValueRef q;
    if (op == SpvOpSDiv) {
        q = LLVMBuildSDiv(j->B, x, ys, "");
        LLVMValueRef neg = LLVMBuildSub(j->B, zero, x, "");
        q = LLVMBuildSelect(j->B, ym1, neg, q, "");
        return LLVMBuildSelect(j->B, yz, zero, q, "");
    }
    q = LLVMBuildSRem(j->B, x, ys, "");
    if (op == SpvOpSMod) {
        /* q != 0 and sign(q) != sign(y): q + y */
        LLVMValueRef qnz = LLVMBuildICmp(j->B, LLVMIntNE, q, zero, "");
        LLVMValueRef qneg = LLVMBuildICmp(j->B, LLVMIntSLT, q, zero, "");
        LLVMValueRef yneg = LLVMBuildICmp(j->B, LLVMIntSLT, y, zero, "");
        LLVMValueRef fix = LLVMBuildAnd(j->B, qnz, LLVMBuildXor(j->B, qneg, yneg, ""), "");
        q = LLVMBuildSelect(j->B, fix, LLVMBuildAdd(j->B, q, y, ""), q, "");
    }
    return LLVMBuildSelect(j->B, bad, zero, q, "");
}

/* 1 when Base and Shift have shapes emit_shift takes: integers, Shift a
 * scalar or a vector of Base's length (an unvalidated module may pair
 * anything). */
static int shift_operands(LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef tx = LLVMTypeOf(x), ty = LLVMTypeOf(y);
    int vx = LLVMGetTypeKind(tx) == LLVMVectorTypeKind, vy = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
    LLVMTypeRef ex = vx ? LLVMGetElementType(tx) : tx, ey = vy ? LLVMGetElementType(ty) : ty;
    if (LLVMGetTypeKind(ex) != LLVMIntegerTypeKind || LLVMGetTypeKind(ey) != LLVMIntegerTypeKind)
        return 0;
    if (vy && (!vx || LLVMGetVectorSize(tx) != LLVMGetVectorSize(ty)))
        return 0;
    return 1;
}

/* Shifts: the shift count at its own width, unsigned; past the width 0, or
 * the sign for the arithmetic one. */
static LLVMValueRef emit_shift(jctx *j, uint32_t op, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    unsigned bits = LLVMGetIntTypeWidth(LLVMGetTypeKind(ty) == LLVMVectorTypeKind
                                            ? LLVMGetElementType(ty)
                                            : ty);
    LLVMTypeRef yt = LLVMTypeOf(y);
    unsigned ybits = LLVMGetIntTypeWidth(LLVMGetTypeKind(yt) == LLVMVectorTypeKind
                                             ? LLVMGetElementType(yt)
                                             : yt);
    if (LLVMGetTypeKind(yt) != LLVMGetTypeKind(ty) && LLVMGetTypeKind(ty) == LLVMVectorTypeKind)
        y = splat(j, y, ty), yt = LLVMTypeOf(y);
    /* the count compared at the wider of the two widths */
    LLVMTypeRef wide = ybits > bits ? yt : ty;
    LLVMValueRef yw = ybits > bits ? y : ybits < bits ? LLVMBuildZExt(j->B, y, ty, "") : y;
    LLVMValueRef big = LLVMBuildICmp(j->B, LLVMIntUGE, yw, const_like(j, wide, bits), "");
    LLVMValueRef yc = ybits > bits ? LLVMBuildTrunc(j->B, y, ty, "") : yw;
    yc = LLVMBuildSelect(j->B, big, LLVMConstNull(ty), yc, "");
    switch (op) {
    case SpvOpShiftLeftLogical:
        return LLVMBuildSelect(j->B, big, LLVMConstNull(ty), LLVMBuildShl(j->B, x, yc, ""), "");
    case SpvOpShiftRightLogical:
        return LLVMBuildSelect(j->B, big, LLVMConstNull(ty), LLVMBuildLShr(j->B, x, yc, ""), "");
    default: {
        LLVMValueRef sign = LLVMBuildAShr(j->B, x, const_like(j, ty, bits - 1), "");
        return LLVMBuildSelect(j->B, big, sign, LLVMBuildAShr(j->B, x, yc, ""), "");
    }
    }
}

/* f32 operands go through double in k_generic, which quiets a signalling
 * NaN: FNegate of one is the quieted NaN, negated. */
static LLVMValueRef emit_fnegate(jctx *j, LLVMValueRef x, uint8_t sk)
{
    LLVMValueRef r = LLVMBuildFNeg(j->B, x, "");
    if (sk != CVM_SK_F32)
        return r;
    LLVMTypeRef ty = LLVMTypeOf(x);
    int vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
    LLVMTypeRef it = vec ? LLVMVectorType(j->i32, LLVMGetVectorSize(ty)) : j->i32;
    LLVMValueRef isnan = LLVMBuildFCmp(j->B, LLVMRealUNO, x, x, "");
    LLVMValueRef bits = LLVMBuildBitCast(j->B, r, it, "");
    LLVMValueRef q = LLVMBuildOr(j->B, bits, const_like(j, it, 0x400000), "");
    return LLVMBuildSelect(j->B, isnan, LLVMBuildBitCast(j->B, q, ty, ""), r, "");
}

static int fcmp_pred(uint32_t op, LLVMRealPredicate *o)
{
    switch (op) {
    case SpvOpFOrdEqual: *o = LLVMRealOEQ; return 1;
    case SpvOpFUnordEqual: *o = LLVMRealUEQ; return 1;
    case SpvOpFOrdNotEqual: *o = LLVMRealONE; return 1;
    case SpvOpFUnordNotEqual: *o = LLVMRealUNE; return 1;
    case SpvOpFOrdLessThan: *o = LLVMRealOLT; return 1;
    case SpvOpFUnordLessThan: *o = LLVMRealULT; return 1;
    case SpvOpFOrdGreaterThan: *o = LLVMRealOGT; return 1;
    case SpvOpFUnordGreaterThan: *o = LLVMRealUGT; return 1;
    case SpvOpFOrdLessThanEqual: *o = LLVMRealOLE; return 1;
    case SpvOpFUnordLessThanEqual: *o = LLVMRealULE; return 1;
    case SpvOpFOrdGreaterThanEqual: *o = LLVMRealOGE; return 1;
    case SpvOpFUnordGreaterThanEqual: *o = LLVMRealUGE; return 1;
    case SpvOpIsNan: *o = LLVMRealUNO; return 1;
    default: return 0;
    }
}

static int icmp_pred(uint32_t op, LLVMIntPredicate *o)
{
    switch (op) {
    case SpvOpIEqual: case SpvOpLogicalEqual: *o = LLVMIntEQ; return 1;
    case SpvOpINotEqual: case SpvOpLogicalNotEqual: *o = LLVMIntNE; return 1;
    case SpvOpUGreaterThan: *o = LLVMIntUGT; return 1;
    case SpvOpSGreaterThan: *o = LLVMIntSGT; return 1;
    case SpvOpUGreaterThanEqual: *o = LLVMIntUGE; return 1;
    case SpvOpSGreaterThanEqual: *o = LLVMIntSGE; return 1;
    case SpvOpULessThan: *o = LLVMIntULT; return 1;
    case SpvOpSLessThan: *o = LLVMIntSLT; return 1;
    case SpvOpULessThanEqual: *o = LLVMIntULE; return 1;
    case SpvOpSLessThanEqual: *o = LLVMIntSLE; return 1;
    default: return 0;
    }
}

/* Operands of an element-wise instruction, a scalar one broadcast to the
 * result's vector shape as cvm_ew_shape does. */
static int ew_operands(jctx *j, const spv_inst *si, uint32_t first, uint32_t n,
                       LLVMTypeRef shape_like, LLVMValueRef *o)
{
    for (uint32_t k = 0; k < n; k++) {
        if (first + k >= si->word_count)
            return 0;
        LLVMValueRef v = get_val(j, si->words[first + k]);
        if (!v)
            return 0;
        if (shape_like && LLVMGetTypeKind(shape_like) == LLVMVectorTypeKind &&
            LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
            v = splat(j, v, shape_like);
        o[k] = v;
    }
    return 1;
}

/* An arithmetic instruction through the interpreter's kernel for one lane. */
static cvm_result arith_lane(jctx *j, const cvm_insn *in, uint32_t rtype, uint32_t result)
{
    uint32_t ids[3] = {in->a, in->b, in->c}, tids[3];
    for (int k = 0; k < 3; k++) {
        tids[k] = ids[k] < j->p->bound ? j->mod->defs[ids[k]].type : 0;
        if (ids[k] && (!value_type(j, tids[k]) || type_of(j, tids[k])->size > JIT_MAX_ACCESS))
            return jit_unsupported(j, j->cur_insn, "this operand type");
    }
    if (!in->fn || type_of(j, rtype)->size > JIT_MAX_ACCESS)
        return jit_unsupported(j, j->cur_insn, "this instruction");
    if (!cvm_arith_eval_lane(in, NULL, NULL, NULL, NULL))
        return jit_unsupported(j, j->cur_insn, "this instruction");
    LLVMValueRef r = call_lane_kernel(j, (void *)jit_arith, 5, j->cur_insn, rtype, ids, tids, 3);
    if (!r || LLVMTypeOf(r) != value_type(j, rtype))
        return jit_unsupported(j, j->cur_insn, "this instruction's result");
    j->vals[result] = r;
    return CVM_SUCCESS;
}

/* The NaN the host's arithmetic makes where no operand is one (0/0,
 * inf - inf, 0 * inf), which the interpreter writes: on x86 the "default
 * NaN" has its sign set (0xffc00000, 0xfff8000000000000).  LLVM, folding
 * such an operation while it builds or optimizes the code (operands that
 * are constants, or become known, as a Function variable's stored 0.0
 * does), makes its own canonical NaN, sign clear (0x7fc00000): the
 * difference CVM_FLAG_COMPARE_TIERS found.  The texts leave that NaN's
 * bits open; the tiers must still agree. */
static uint64_t host_nan_bits(int f64)
{
    volatile float zf = 0.0f;
    volatile double zd = 0.0;
    if (f64) {
        double d = zd / zd;
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    float f = zf / zf;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* r = a OP b of f32 or f64 values (scalars or vectors): where r is a NaN
 * and neither operand is one, the host's NaN (host_nan_bits); nothing is
 * added where the host's NaN is LLVM's. */
static LLVMValueRef host_made_nan(jctx *j, LLVMValueRef r, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ty = LLVMTypeOf(r);
    int vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
    LLVMTypeRef et = vec ? LLVMGetElementType(ty) : ty;
    int f64 = et == j->f64;
    if (!f64 && et != j->f32)
        return r;
    uint64_t bits = host_nan_bits(f64);
    if (bits == (f64 ? UINT64_C(0x7ff8000000000000) : UINT64_C(0x7fc00000)))
        return r;
    LLVMValueRef hn = LLVMConstBitCast(LLVMConstInt(f64 ? j->i64 : j->i32, bits, 0), et);
    if (vec)
        hn = splat(j, hn, ty);
    LLVMValueRef rn = LLVMBuildFCmp(j->B, LLVMRealUNO, r, r, "");
    LLVMValueRef an = LLVMBuildFCmp(j->B, LLVMRealUNO, a, a, "");
    LLVMValueRef bn = LLVMBuildFCmp(j->B, LLVMRealUNO, b, b, "");
    LLVMValueRef made = LLVMBuildAnd(j->B, rn, LLVMBuildNot(j->B, LLVMBuildOr(j->B, an, bn, ""), ""), "");
    return LLVMBuildSelect(j->B, made, hn, r, "");
}

/* 1 when t is an LLVM integer or floating-point type (`fp`), or a vector
 * of them: the operations built on a value need their own kind (the
 * lowering checks the classes; an operand of the other kind reaching LLVM
 * would break its builder). */
static int kind_is(LLVMTypeRef t, int fp)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return fp ? k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind
              : k == LLVMIntegerTypeKind;
}

cvm_result emit_arith(jctx *j, const spv_inst *si, const cvm_insn *in)
{
    const uint32_t *w = si->words;
    uint32_t op = si->opcode, rtype = w[1], result = w[2];
    LLVMTypeRef rty = value_type(j, rtype);
    if (!rty)
        return jit_unsupported(j, j->cur_insn, "this result type");
    uint8_t rsk = comp_sk(j, rtype);
    LLVMValueRef x[3];
    LLVMValueRef r = NULL;
    LLVMIntPredicate ip;
    LLVMRealPredicate fp;
    switch (op) {
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpBitwiseAnd: case SpvOpBitwiseOr:
    case SpvOpBitwiseXor: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem:
    case SpvOpSMod: case SpvOpLogicalAnd: case SpvOpLogicalOr: {
        if (!kind_is(rty, 0) || !ew_operands(j, si, 3, 2, rty, x) || LLVMTypeOf(x[0]) != rty ||
            LLVMTypeOf(x[1]) != rty)
            return jit_unsupported(j, j->cur_insn, "these operands");
        switch (op) {
        case SpvOpIAdd: r = LLVMBuildAdd(j->B, x[0], x[1], ""); break;
        case SpvOpISub: r = LLVMBuildSub(j->B, x[0], x[1], ""); break;
        case SpvOpIMul: r = LLVMBuildMul(j->B, x[0], x[1], ""); break;
        case SpvOpBitwiseAnd: case SpvOpLogicalAnd: r = LLVMBuildAnd(j->B, x[0], x[1], ""); break;
        case SpvOpBitwiseOr: case SpvOpLogicalOr: r = LLVMBuildOr(j->B, x[0], x[1], ""); break;
        case SpvOpBitwiseXor: r = LLVMBuildXor(j->B, x[0], x[1], ""); break;
        default: r = emit_int_div(j, op, x[0], x[1]); break;
        }
        break;
    }
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
        if (!ew_operands(j, si, 3, 2, NULL, x) || LLVMTypeOf(x[0]) != rty ||
            !shift_operands(x[0], x[1]))
            return jit_unsupported(j, j->cur_insn, "these operands");
        r = emit_shift(j, op, x[0], x[1]);
        break;
    case SpvOpNot: case SpvOpSNegate: case SpvOpLogicalNot:
        if (!kind_is(rty, 0) || !ew_operands(j, si, 3, 1, rty, x) || LLVMTypeOf(x[0]) != rty)
            return jit_unsupported(j, j->cur_insn, "this operand");
        r = op == SpvOpSNegate ? LLVMBuildSub(j->B, LLVMConstNull(rty), x[0], "")
                               : LLVMBuildNot(j->B, x[0], "");
        break;
    case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpVectorTimesScalar:
        /* f16 as k_f16 computes it: both operands widened to f32 (exact),
         * one f32 operation, rounded to f16 (vcvtph2ps, vcvtps2ph, which
         * the numeric tests show agree with cvm_f16_to_f32/cvm_f32_to_f16) */
        if (rsk != CVM_SK_F32 && rsk != CVM_SK_F64 && rsk != CVM_SK_F16)
            return jit_unsupported(j, j->cur_insn, "this float kind");
        if (!ew_operands(j, si, 3, 2, rty, x) || LLVMTypeOf(x[0]) != rty || LLVMTypeOf(x[1]) != rty)
            return jit_unsupported(j, j->cur_insn, "these operands");
        if (rsk == CVM_SK_F16) { /* widened and rounded explicitly, each operation */
            LLVMTypeRef wt = LLVMGetTypeKind(rty) == LLVMVectorTypeKind
                                 ? LLVMVectorType(j->f32, LLVMGetVectorSize(rty))
                                 : j->f32;
            x[0] = LLVMBuildFPExt(j->B, x[0], wt, "");
            x[1] = LLVMBuildFPExt(j->B, x[1], wt, "");
        }
        switch (op) {
        case SpvOpFAdd: r = LLVMBuildFAdd(j->B, x[0], x[1], ""); break;
        case SpvOpFSub: r = LLVMBuildFSub(j->B, x[0], x[1], ""); break;
        case SpvOpFDiv: r = LLVMBuildFDiv(j->B, x[0], x[1], ""); break;
        default: r = LLVMBuildFMul(j->B, x[0], x[1], ""); break;
        }
        r = host_made_nan(j, r, x[0], x[1]);
        if (rsk == CVM_SK_F16)
            r = LLVMBuildFPTrunc(j->B, r, rty, "");
        break;
    case SpvOpFNegate:
        if (rsk == CVM_SK_F16) /* (k_generic quiets a signalling NaN through double) */
            return arith_lane(j, in, rtype, result);
        if ((rsk != CVM_SK_F32 && rsk != CVM_SK_F64) || !ew_operands(j, si, 3, 1, rty, x) ||
            LLVMTypeOf(x[0]) != rty)
            return jit_unsupported(j, j->cur_insn, "this operand");
        r = emit_fnegate(j, x[0], rsk);
        break;
    case SpvOpSelect: {
        if (!ew_operands(j, si, 3, 3, NULL, x) || LLVMTypeOf(x[1]) != rty ||
            LLVMTypeOf(x[2]) != rty)
            return jit_unsupported(j, j->cur_insn, "these operands");
        r = LLVMBuildSelect(j->B, x[0], x[1], x[2], "");
        break;
    }
    default:
        if (icmp_pred(op, &ip)) {
            if (!ew_operands(j, si, 3, 2, NULL, x) || LLVMTypeOf(x[0]) != LLVMTypeOf(x[1]) ||
                !kind_is(LLVMTypeOf(x[0]), 0))
                return jit_unsupported(j, j->cur_insn, "these operands");
            r = LLVMBuildICmp(j->B, ip, x[0], x[1], "");
        } else if (fcmp_pred(op, &fp)) {
            uint32_t n = op == SpvOpIsNan ? 1 : 2;
            if (!ew_operands(j, si, 3, n, NULL, x) || (n == 2 && LLVMTypeOf(x[0]) != LLVMTypeOf(x[1])) ||
                !kind_is(LLVMTypeOf(x[0]), 1))
                return jit_unsupported(j, j->cur_insn, "these operands");
            r = LLVMBuildFCmp(j->B, fp, x[0], n == 2 ? x[1] : x[0], "");
        } else {
            return arith_lane(j, in, rtype, result);
        }
        break;
    }
    if (!r || LLVMTypeOf(r) != rty)
        return jit_unsupported(j, j->cur_insn, "this instruction's result");
    j->vals[result] = r;
    return CVM_SUCCESS;
}

cvm_result emit_convert(jctx *j, const spv_inst *si, const cvm_insn *in)
{
    const uint32_t *w = si->words;
    uint32_t rtype = w[1], result = w[2], src = si->word_count > 3 ? w[3] : 0;
    cvm_result pr;
    if (si->opcode == SpvOpBitcast && emit_ptr_bitcast(j, si, &pr))
        return pr;
    LLVMTypeRef rty = value_type(j, rtype);
    LLVMValueRef x = get_val(j, src);
    if (!rty || !x || comp_sk(j, rtype) == CVM_SK_BOOL)
        return jit_unsupported(j, j->cur_insn, "this conversion");
    uint32_t stype = j->mod->defs[src].type;
    uint8_t ssk = comp_sk(j, stype), rsk = comp_sk(j, rtype);
    /* (a bitcast may change the component count: a 32-bit scalar and two
     * 16-bit components, SPIR-V's OpBitcast) */
    if (ssk == CVM_SK_BOOL ||
        (ncomp_of(j, stype) != ncomp_of(j, rtype) && si->opcode != SpvOpBitcast))
        return jit_unsupported(j, j->cur_insn, "this conversion");
    LLVMValueRef r = NULL;
    int sint = !cvm_sk_is_float((cvm_scalar_kind)ssk), rint = !cvm_sk_is_float((cvm_scalar_kind)rsk);
    if (si->opcode == SpvOpBitcast) {
        if (type_of(j, stype)->size != type_of(j, rtype)->size)
            return jit_unsupported(j, j->cur_insn, "this bitcast");
        r = LLVMBuildBitCast(j->B, x, rty, "");
    } else if (sint && rint && (si->opcode == SpvOpUConvert || si->opcode == SpvOpSConvert)) {
        unsigned sb = cvm_sk_size((cvm_scalar_kind)ssk), rb = cvm_sk_size((cvm_scalar_kind)rsk);
        r = rb < sb   ? LLVMBuildTrunc(j->B, x, rty, "")
            : rb == sb ? x
            : si->opcode == SpvOpSConvert ? LLVMBuildSExt(j->B, x, rty, "")
                                          : LLVMBuildZExt(j->B, x, rty, "");
    } else if (si->opcode == SpvOpFConvert &&
               ((ssk == CVM_SK_F32 && rsk == CVM_SK_F16) || (ssk == CVM_SK_F16 && rsk == CVM_SK_F32))) {
        /* vcvtps2ph / vcvtph2ps: cvm_f32_to_f16 / cvm_f16_to_f32 bit for bit
         * (the numeric tests compare them, NaNs included) */
        r = rsk == CVM_SK_F16 ? LLVMBuildFPTrunc(j->B, x, rty, "") : LLVMBuildFPExt(j->B, x, rty, "");
    } else if (sint && rsk == CVM_SK_F32 && cvm_sk_size((cvm_scalar_kind)ssk) == 4 &&
               (si->opcode == SpvOpConvertSToF || si->opcode == SpvOpConvertUToF)) {
        /* one rounding to nearest, as k_convert_fast's C conversion */
        r = si->opcode == SpvOpConvertSToF ? LLVMBuildSIToFP(j->B, x, rty, "")
                                           : LLVMBuildUIToFP(j->B, x, rty, "");
    } else {
        uint32_t ids[1] = {src}, tids[1] = {stype};
        if (!in->fn || type_of(j, rtype)->size > JIT_MAX_ACCESS ||
            type_of(j, stype)->size > JIT_MAX_ACCESS || !cvm_convert_eval_lane(in, NULL, NULL))
            return jit_unsupported(j, j->cur_insn, "this conversion");
        r = call_lane_kernel(j, (void *)jit_convert, 3, j->cur_insn, rtype, ids, tids, 1);
    }
    if (!r || LLVMTypeOf(r) != rty)
        return jit_unsupported(j, j->cur_insn, "this conversion's result");
    j->vals[result] = r;
    return CVM_SUCCESS;
}

/* x with a signalling NaN quieted (k_float_f32's quiet_f32). */
static LLVMValueRef quiet_f32(jctx *j, LLVMValueRef x)
{
    LLVMValueRef isnan = LLVMBuildFCmp(j->B, LLVMRealUNO, x, x, "");
    LLVMValueRef bits = LLVMBuildBitCast(j->B, x, j->i32, "");
    LLVMValueRef q = LLVMBuildBitCast(j->B, LLVMBuildOr(j->B, bits, c_i32(j, 0x400000), ""),
                                      j->f32, "");
    return LLVMBuildSelect(j->B, isnan, q, x, "");
}

/* The f32 functions that are one C library call (cvm_glsl_f32_libm), called
 * per component. */
static LLVMValueRef emit_glsl_libm(jctx *j, const cvm_insn *in, uint32_t rtype)
{
    int nops = 0;
    void *fnp = cvm_glsl_f32_libm(in, &nops);
    if (!fnp || comp_sk(j, rtype) != CVM_SK_F32)
        return NULL;
    uint32_t ids[3] = {in->a, in->b, in->c};
    LLVMValueRef ops[3];
    for (int k = 0; k < nops; k++) {
        ops[k] = get_val(j, ids[k]);
        if (!ops[k] || comp_sk(j, j->mod->defs[ids[k]].type) != CVM_SK_F32)
            return NULL;
    }
    LLVMTypeRef params[3] = {j->f32, j->f32, j->f32};
    LLVMTypeRef fty = LLVMFunctionType(j->f32, params, (unsigned)nops, 0);
    LLVMValueRef callee = fn_const(j, fnp, fty);
    uint32_t n = ncomp_of(j, rtype);
    LLVMValueRef r = n > 1 ? LLVMGetUndef(value_type(j, rtype)) : NULL;
    for (uint32_t c = 0; c < n; c++) {
        LLVMValueRef args[3];
        for (int k = 0; k < nops; k++) {
            LLVMValueRef v = ops[k];
            if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind)
                v = LLVMBuildExtractElement(j->B, v, c_i32(j, c), "");
            args[k] = quiet_f32(j, v);
        }
        LLVMValueRef e = LLVMBuildCall2(j->B, fty, callee, args, (unsigned)nops, "");
        r = n > 1 ? LLVMBuildInsertElement(j->B, r, e, c_i32(j, c), "") : e;
    }
    return r;
}

/* k_float_f32's FMin/FMax rule on quieted operands (cvm_fmin_text): of
 * two numbers y when y < x (max: x < y), else x; a NaN operand gives the
 * other; two NaNs the first. */
static LLVMValueRef emit_fminmax(jctx *j, LLVMValueRef x, LLVMValueRef y, int max)
{
    LLVMValueRef lt = max ? LLVMBuildFCmp(j->B, LLVMRealOLT, x, y, "")
                          : LLVMBuildFCmp(j->B, LLVMRealOLT, y, x, "");
    LLVMValueRef xn = LLVMBuildFCmp(j->B, LLVMRealUNO, x, x, "");
    LLVMValueRef yn = LLVMBuildFCmp(j->B, LLVMRealUNO, y, y, "");
    /* (a NaN y fails the comparison: x; a NaN x alone: y) */
    LLVMValueRef take_y = LLVMBuildOr(j->B, lt, LLVMBuildAnd(j->B, xn, LLVMBuildNot(j->B, yn, ""), ""), "");
    return LLVMBuildSelect(j->B, take_y, y, x, "");
}

/* quiet_f32 for a scalar or a vector of f32 */
static LLVMValueRef quiet_f32_any(jctx *j, LLVMValueRef x)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return quiet_f32(j, x);
    LLVMTypeRef ity = LLVMVectorType(j->i32, LLVMGetVectorSize(ty));
    LLVMValueRef isnan = LLVMBuildFCmp(j->B, LLVMRealUNO, x, x, "");
    LLVMValueRef bits = LLVMBuildBitCast(j->B, x, ity, "");
    LLVMValueRef q = LLVMBuildBitCast(j->B, LLVMBuildOr(j->B, bits, const_like(j, ity, 0x400000), ""),
                                      ty, "");
    return LLVMBuildSelect(j->B, isnan, q, x, "");
}

/* FMin, FMax, NMin, NMax, FClamp, NClamp of f32 values inline
 * (cvm_glsl_f32_minmax); NULL when not one of them. */
static LLVMValueRef emit_glsl_minmax(jctx *j, const cvm_insn *in, uint32_t rtype)
{
    int kind = cvm_glsl_f32_minmax(in);
    if (!kind || comp_sk(j, rtype) != CVM_SK_F32)
        return NULL;
    uint32_t ids[3] = {in->a, in->b, in->c};
    int nops = kind == 3 ? 3 : 2;
    LLVMValueRef ops[3];
    for (int k = 0; k < nops; k++) {
        ops[k] = ids[k] ? get_val(j, ids[k]) : NULL;
        if (!ops[k] || LLVMTypeOf(ops[k]) != value_type(j, rtype))
            return NULL; /* (a broadcast scalar operand: the lane kernel) */
        ops[k] = quiet_f32_any(j, ops[k]);
    }
    if (kind == 3)
        return emit_fminmax(j, emit_fminmax(j, ops[0], ops[1], 1), ops[2], 0);
    return emit_fminmax(j, ops[0], ops[1], kind == 2);
}

/* PackHalf2x16 and UnpackHalf2x16 inline (ops/glsl.c pack_lane: two f32
 * rounded to f16 by cvm_f32_to_f16, the first in the low bits; two f16
 * widened by cvm_f16_to_f32): vcvtps2ph and vcvtph2ps, which agree with
 * those bit for bit, NaNs included, as for OpFConvert (emit_convert).
 * NULL when not one of them, or without F16C. */
static LLVMValueRef emit_glsl_half2x16(jctx *j, const spv_inst *si, const cvm_insn *in,
                                       uint32_t rtype)
{
    uint32_t g = si->words[4];
    if ((g != SpvGLSLstd450PackHalf2x16 && g != SpvGLSLstd450UnpackHalf2x16) || !j->has_f16 ||
        si->word_count != 6 || !cvm_glsl_eval_lane(in, NULL, NULL, NULL, NULL))
        return NULL;
    LLVMValueRef x = get_val(j, si->words[5]);
    LLVMTypeRef v2f = LLVMVectorType(j->f32, 2), v2h = LLVMVectorType(j->f16, 2);
    if (g == SpvGLSLstd450PackHalf2x16) {
        if (!x || LLVMTypeOf(x) != v2f || value_type(j, rtype) != j->i32)
            return NULL;
        return LLVMBuildBitCast(j->B, LLVMBuildFPTrunc(j->B, x, v2h, ""), j->i32, "");
    }
    if (!x || LLVMTypeOf(x) != j->i32 || value_type(j, rtype) != v2f)
        return NULL;
    return LLVMBuildFPExt(j->B, LLVMBuildBitCast(j->B, x, v2h, ""), v2f, "");
}

cvm_result emit_glsl(jctx *j, const spv_inst *si, const cvm_insn *in)
{
    uint32_t rtype = si->words[1], result = si->words[2];
    /* the refusals name the GLSL.std.450 instruction */
    const spv_extinst_desc *gd =
        si->word_count > 4 ? spv_grammar_glsl_std450(si->words[4]) : NULL;
    char what[96], opnd[96];
    snprintf(what, sizeof(what), "GLSL.std.450 %s", gd ? gd->name : "instruction");
    snprintf(opnd, sizeof(opnd), "this operand of GLSL.std.450 %s", gd ? gd->name : "instruction");
    if (value_type(j, rtype) && in->fn) {
        LLVMValueRef d = emit_glsl_half2x16(j, si, in, rtype);
        if (d) {
            j->vals[result] = d;
            return CVM_SUCCESS;
        }
        d = emit_glsl_minmax(j, in, rtype);
        if (d && LLVMTypeOf(d) == value_type(j, rtype)) {
            j->vals[result] = d;
            return CVM_SUCCESS;
        }
        d = emit_glsl_libm(j, in, rtype);
        if (d && LLVMTypeOf(d) == value_type(j, rtype)) {
            j->vals[result] = d;
            return CVM_SUCCESS;
        }
    }
    if (!value_type(j, rtype) || comp_sk(j, rtype) == CVM_SK_BOOL || !in->fn ||
        type_of(j, rtype)->size > JIT_MAX_ACCESS)
        return jit_unsupported(j, j->cur_insn, what);
    uint32_t ids[3] = {in->a, in->b, in->c}, tids[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (!ids[k])
            continue;
        tids[k] = ids[k] < j->p->bound ? j->mod->defs[ids[k]].type : 0;
        if (!value_type(j, tids[k]) || type_of(j, tids[k])->size > JIT_MAX_ACCESS)
            return jit_unsupported(j, j->cur_insn, opnd);
    }
    if (!cvm_glsl_eval_lane(in, NULL, NULL, NULL, NULL))
        return jit_unsupported(j, j->cur_insn, what);
    LLVMValueRef r = call_lane_kernel(j, (void *)jit_glsl, 5, j->cur_insn, rtype, ids, tids, 3);
    if (!r)
        return jit_unsupported(j, j->cur_insn, opnd);
    j->vals[result] = r;
    return CVM_SUCCESS;
}

int is_arith_op(uint32_t op)
{
    switch (op) {
    case SpvOpSNegate: case SpvOpFNegate: case SpvOpIAdd: case SpvOpFAdd: case SpvOpISub:
    case SpvOpFSub: case SpvOpIMul: case SpvOpFMul: case SpvOpUDiv: case SpvOpSDiv:
    case SpvOpFDiv: case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpFRem:
    case SpvOpFMod: case SpvOpVectorTimesScalar: case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic: case SpvOpShiftLeftLogical: case SpvOpBitwiseOr:
    case SpvOpBitwiseXor: case SpvOpBitwiseAnd: case SpvOpNot: case SpvOpBitReverse:
    case SpvOpBitCount: case SpvOpLogicalOr: case SpvOpLogicalAnd: case SpvOpLogicalNot:
    case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpSelect: case SpvOpIEqual:
    case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpFOrdNotEqual:
    case SpvOpFUnordNotEqual: case SpvOpFOrdLessThan: case SpvOpFUnordLessThan:
    case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual:
    case SpvOpFUnordLessThanEqual: case SpvOpFOrdGreaterThanEqual:
    case SpvOpFUnordGreaterThanEqual: case SpvOpIsNan: case SpvOpIsInf:
        return 1;
    default:
        return 0;
    }
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: the two
 * members of the result (ops/arith.c h_extended: the low bits and the
 * carry, borrow or high bits), kept apart for OpCompositeExtract. */
cvm_result emit_extended(jctx *j, const spv_inst *si)
{
    const uint32_t *w = si->words;
    LLVMValueRef x = si->word_count == 5 ? get_val(j, w[3]) : NULL;
    LLVMValueRef y = si->word_count == 5 ? get_val(j, w[4]) : NULL;
    if (!x || !y || LLVMTypeOf(x) != LLVMTypeOf(y) || w[2] >= j->p->bound)
        return jit_unsupported(j, j->cur_insn, "this instruction's operands");
    LLVMTypeRef ty = LLVMTypeOf(x);
    int vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
    LLVMTypeRef st = vec ? LLVMGetElementType(ty) : ty;
    /* (8 to 32 bits: the 64-bit forms, whose product takes i128, are left
     * to the interpreter) */
    if (LLVMGetTypeKind(st) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(st) < 8 ||
        LLVMGetIntTypeWidth(st) > 32)
        return jit_unsupported(j, j->cur_insn, "this instruction's operands");
    unsigned bits = LLVMGetIntTypeWidth(st);
    LLVMValueRef lo, hi;
    switch (si->opcode) {
    case SpvOpIAddCarry:
        lo = LLVMBuildAdd(j->B, x, y, "");
        hi = LLVMBuildZExt(j->B, LLVMBuildICmp(j->B, LLVMIntULT, lo, x, ""), ty, "");
        break;
    case SpvOpISubBorrow:
        lo = LLVMBuildSub(j->B, x, y, "");
        hi = LLVMBuildZExt(j->B, LLVMBuildICmp(j->B, LLVMIntULT, x, y, ""), ty, "");
        break;
    default: { /* the product at twice the width */
        LLVMTypeRef wst = LLVMIntTypeInContext(j->C, 2 * bits);
        LLVMTypeRef wty = vec ? LLVMVectorType(wst, LLVMGetVectorSize(ty)) : wst;
        int sgn = si->opcode == SpvOpSMulExtended;
        LLVMValueRef wx = sgn ? LLVMBuildSExt(j->B, x, wty, "") : LLVMBuildZExt(j->B, x, wty, "");
        LLVMValueRef wy = sgn ? LLVMBuildSExt(j->B, y, wty, "") : LLVMBuildZExt(j->B, y, wty, "");
        LLVMValueRef prod = LLVMBuildMul(j->B, wx, wy, "");
        lo = LLVMBuildTrunc(j->B, prod, ty, "");
        hi = LLVMBuildTrunc(j->B, LLVMBuildLShr(j->B, prod, const_like(j, wty, bits), ""), ty, "");
        break;
    }
    }
    j->pairs[2 * (size_t)w[2]] = lo;
    j->pairs[2 * (size_t)w[2] + 1] = hi;
    return CVM_SUCCESS;
}

/* Integer dot products (SPV_KHR_integer_dot_product), as ops/arith.c
 * h_idot computes them: each component pair (four 8-bit ones of a packed
 * 32-bit scalar) widened by its signedness to 64 bits, their products
 * summed in 64 bits; the sum cut to the Result Type's width, or with an
 * Accumulator added in 64 bits (as signed or unsigned by the Result Type)
 * and saturated to its range (nm_store_int). */
cvm_result emit_idot(jctx *j, uint32_t ii, const spv_inst *si, const cvm_insn *in)
{
    uint32_t op = si->opcode;
    int acc = op == SpvOpSDotAccSat || op == SpvOpUDotAccSat || op == SpvOpSUDotAccSat;
    int sa = !(op == SpvOpUDot || op == SpvOpUDotAccSat);
    int sb = op == SpvOpSDot || op == SpvOpSDotAccSat;
    LLVMValueRef a = get_val(j, in->a), b = get_val(j, in->b);
    LLVMValueRef c = acc ? get_val(j, in->c) : NULL;
    LLVMTypeRef rty = value_type(j, in->type);
    if (!a || !b || (acc && !c) || !rty || LLVMGetTypeKind(rty) != LLVMIntegerTypeKind ||
        in->result >= j->p->bound || (acc && LLVMTypeOf(c) != rty))
        return jit_unsupported(j, ii, "this integer dot product's operands");
    uint32_t n = in->ncomp;
    if (in->d) { /* packed: four 8-bit components of a 32-bit scalar */
        if (LLVMTypeOf(a) != j->i32 || LLVMTypeOf(b) != j->i32 || n != 4)
            return jit_unsupported(j, ii, "this integer dot product's operands");
        LLVMTypeRef v4 = LLVMVectorType(j->i8, 4);
        a = LLVMBuildBitCast(j->B, a, v4, "");
        b = LLVMBuildBitCast(j->B, b, v4, "");
    } else if (LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMVectorTypeKind ||
               LLVMTypeOf(a) != LLVMTypeOf(b) || LLVMGetVectorSize(LLVMTypeOf(a)) != n ||
               LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(a))) != LLVMIntegerTypeKind) {
        return jit_unsupported(j, ii, "this integer dot product's operands");
    }
    LLVMTypeRef w = LLVMVectorType(j->i64, n);
    int wide = LLVMGetElementType(LLVMTypeOf(a)) == j->i64;
    LLVMValueRef xa = wide ? a : sa ? LLVMBuildSExt(j->B, a, w, "") : LLVMBuildZExt(j->B, a, w, "");
    LLVMValueRef xb = wide ? b : sb ? LLVMBuildSExt(j->B, b, w, "") : LLVMBuildZExt(j->B, b, w, "");
    LLVMValueRef prod = LLVMBuildMul(j->B, xa, xb, "");
    LLVMValueRef sum = c_i64(j, 0);
    for (uint32_t i = 0; i < n; i++)
        sum = LLVMBuildAdd(j->B, sum, LLVMBuildExtractElement(j->B, prod, c_i32(j, i), ""), "");
    unsigned bits = LLVMGetIntTypeWidth(rty);
    if (acc) {
        int sr = cvm_sk_is_signed_int((cvm_scalar_kind)in->sk);
        sum = LLVMBuildAdd(j->B, sum,
                           sr ? LLVMBuildSExt(j->B, c, j->i64, "") : LLVMBuildZExt(j->B, c, j->i64, ""),
                           "");
        if (bits < 64) {
            if (sr) {
                LLVMValueRef hi = c_i64(j, (UINT64_C(1) << (bits - 1)) - 1);
                LLVMValueRef lo = c_i64(j, (uint64_t)0 - (UINT64_C(1) << (bits - 1)));
                sum = LLVMBuildSelect(j->B, LLVMBuildICmp(j->B, LLVMIntSGT, sum, hi, ""), hi, sum, "");
                sum = LLVMBuildSelect(j->B, LLVMBuildICmp(j->B, LLVMIntSLT, sum, lo, ""), lo, sum, "");
            } else {
                LLVMValueRef hi = c_i64(j, (UINT64_C(1) << bits) - 1);
                sum = LLVMBuildSelect(j->B, LLVMBuildICmp(j->B, LLVMIntUGT, sum, hi, ""), hi, sum, "");
            }
        }
    }
    j->vals[in->result] = bits < 64 ? LLVMBuildTrunc(j->B, sum, rty, "") : sum;
    return CVM_SUCCESS;
}

/* OpDot of f16, f32 or f64 vectors, as ops/arith.c cvm_dot_eval_lane
 * computes it: the components widened to double (exactly), their
 * products in double summed in component order from +0 (so a sum of zeros
 * is +0), the sum rounded once to the component type (f16 by
 * cvm_f64_to_f16, not through f32; no contraction into fma).  Each step is
 * one IEEE operation whose result is fixed, unless it is a NaN; and a NaN,
 * once made, lasts to the sum.  Which NaN, where two meet, x86 takes from
 * the operands' order, which gcc and LLVM may choose differently: where
 * the sum is a NaN, the lane is computed again by cvm_dot_eval_lane
 * itself. */
cvm_result emit_dot(jctx *j, uint32_t ii, const cvm_insn *in)
{
    LLVMValueRef a = get_val(j, in->a), b = get_val(j, in->b);
    LLVMTypeRef rty = value_type(j, in->type);
    uint8_t sk = in->sk;
    LLVMTypeRef vt = a ? LLVMTypeOf(a) : NULL;
    if (!a || !b || !rty || in->result >= j->p->bound || LLVMTypeOf(b) != vt ||
        (sk != CVM_SK_F16 && sk != CVM_SK_F32 && sk != CVM_SK_F64) || !sk_llvm_ok(j, sk) ||
        rty != scalar_type(j, sk) || LLVMGetTypeKind(vt) != LLVMVectorTypeKind ||
        LLVMGetElementType(vt) != rty || LLVMGetVectorSize(vt) != in->ncomp)
        return jit_unsupported(j, ii, "this dot product's operands");
    uint32_t n = in->ncomp;
    LLVMTypeRef wt = LLVMVectorType(j->f64, n);
    LLVMValueRef xa = sk == CVM_SK_F64 ? a : LLVMBuildFPExt(j->B, a, wt, "");
    LLVMValueRef xb = sk == CVM_SK_F64 ? b : LLVMBuildFPExt(j->B, b, wt, "");
    LLVMValueRef prod = LLVMBuildFMul(j->B, xa, xb, "");
    LLVMValueRef sum = LLVMConstReal(j->f64, 0.0);
    for (uint32_t i = 0; i < n; i++)
        sum = LLVMBuildFAdd(j->B, sum, LLVMBuildExtractElement(j->B, prod, c_i32(j, i), ""), "");
    LLVMValueRef r = sum;
    if (sk == CVM_SK_F32) {
        r = LLVMBuildFPTrunc(j->B, sum, j->f32, "");
    } else if (sk == CVM_SK_F16) {
        LLVMTypeRef fty = LLVMFunctionType(j->i16, &j->f64, 1, 0);
        r = LLVMBuildCall2(j->B, fty, fn_const(j, (void *)cvm_f64_to_f16, fty), &sum, 1, "");
        r = LLVMBuildBitCast(j->B, r, j->f16, "");
    }
    LLVMBasicBlockRef here = LLVMGetInsertBlock(j->B);
    LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(j->C, j->fn, "dotnan");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(j->C, j->fn, "dot");
    LLVMBuildCondBr(j->B, LLVMBuildFCmp(j->B, LLVMRealUNO, sum, sum, ""), again, join);
    LLVMPositionBuilderAtEnd(j->B, again);
    uint32_t ids[2] = {in->a, in->b};
    uint32_t tids[2] = {j->mod->defs[in->a].type, j->mod->defs[in->b].type};
    LLVMValueRef rn = call_lane_kernel(j, (void *)cvm_dot_eval_lane, 4, ii, in->type, ids, tids, 2);
    if (!rn || LLVMTypeOf(rn) != rty)
        return jit_unsupported(j, ii, "this dot product's result");
    LLVMBasicBlockRef again_end = LLVMGetInsertBlock(j->B);
    LLVMBuildBr(j->B, join);
    LLVMPositionBuilderAtEnd(j->B, join);
    LLVMValueRef phi = LLVMBuildPhi(j->B, rty, "");
    LLVMValueRef inv[2] = {r, rn};
    LLVMBasicBlockRef inb[2] = {here, again_end};
    LLVMAddIncoming(phi, inv, inb, 2);
    j->vals[in->result] = phi;
    return CVM_SUCCESS;
}

/* Integer scalar `v` of kind `sk` as cvm_load_as_u64 reads it: 64 bits, a
 * signed kind sign-extended. */
static LLVMValueRef int_as_u64(jctx *j, LLVMValueRef v, uint8_t sk)
{
    if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64)
        return v;
    return cvm_sk_is_signed_int((cvm_scalar_kind)sk) ? LLVMBuildSExt(j->B, v, j->i64, "")
                                                     : LLVMBuildZExt(j->B, v, j->i64, "");
}

/* OpBitFieldInsert, OpBitFieldSExtract, OpBitFieldUExtract, as ops/arith.c
 * h_bitfield computes them, at 64 bits: Offset and Count read as unsigned
 * 64-bit values (a signed one sign-extended first: -1 is 2^64 - 1); an
 * Offset at or past the width taken as the width - 1 (the texts leave it
 * undefined); the field Count ones, all 64 from a Count of 64 on; Base and
 * Insert zero-extended.  An extract is Base >> Offset masked by the field,
 * the signed one's bits above the field set where Count is 1 to 63 and
 * bit Count - 1 of the masked value is set (a field reaching past Base's
 * width has a zero there); an insert puts Insert's field at Offset into
 * Base, bits shifted past 64 dropped.  The result cut to the width. */
cvm_result emit_bitfield(jctx *j, uint32_t ii, const spv_inst *si, const cvm_insn *in)
{
    const uint32_t *w = si->words;
    int insert = si->opcode == SpvOpBitFieldInsert;
    if (si->word_count != (insert ? 7u : 6u) || w[2] >= j->p->bound)
        return jit_unsupported(j, ii, "this bit-field instruction's operands");
    LLVMTypeRef rty = value_type(j, w[1]);
    LLVMValueRef x = get_val(j, w[3]), y = insert ? get_val(j, w[4]) : NULL;
    LLVMValueRef off = get_val(j, w[insert ? 5 : 4]), cnt = get_val(j, w[insert ? 6 : 5]);
    int vec = rty && LLVMGetTypeKind(rty) == LLVMVectorTypeKind;
    LLVMTypeRef st = vec ? LLVMGetElementType(rty) : rty;
    if (!rty || !x || LLVMTypeOf(x) != rty || (insert && (!y || LLVMTypeOf(y) != rty)) ||
        LLVMGetTypeKind(st) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(st) < 8 || !off ||
        !cnt || LLVMGetTypeKind(LLVMTypeOf(off)) != LLVMIntegerTypeKind ||
        LLVMGetTypeKind(LLVMTypeOf(cnt)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMTypeOf(off)) != 8 * cvm_sk_size((cvm_scalar_kind)in->d) ||
        LLVMGetIntTypeWidth(LLVMTypeOf(cnt)) != 8 * cvm_sk_size((cvm_scalar_kind)in->sk2))
        return jit_unsupported(j, ii, "this bit-field instruction's operands");
    unsigned bits = LLVMGetIntTypeWidth(st);
    LLVMTypeRef wt = vec ? LLVMVectorType(j->i64, LLVMGetVectorSize(rty)) : j->i64;
    LLVMValueRef o = int_as_u64(j, off, in->d), c = int_as_u64(j, cnt, in->sk2);
    o = LLVMBuildSelect(j->B, LLVMBuildICmp(j->B, LLVMIntUGE, o, c_i64(j, bits), ""),
                        c_i64(j, bits - 1), o, "");
    LLVMValueRef all = LLVMBuildICmp(j->B, LLVMIntUGE, c, c_i64(j, 64), "");
    LLVMValueRef ones = LLVMBuildSub(
        j->B, LLVMBuildShl(j->B, c_i64(j, 1), LLVMBuildAnd(j->B, c, c_i64(j, 63), ""), ""),
        c_i64(j, 1), "");
    LLVMValueRef fm = splat(j, LLVMBuildSelect(j->B, all, c_i64(j, UINT64_MAX), ones, ""), wt);
    LLVMValueRef ov = splat(j, o, wt);
    LLVMValueRef xw = bits < 64 ? LLVMBuildZExt(j->B, x, wt, "") : x;
    LLVMValueRef v;
    if (insert) {
        LLVMValueRef yw = bits < 64 ? LLVMBuildZExt(j->B, y, wt, "") : y;
        LLVMValueRef hole = LLVMBuildNot(j->B, LLVMBuildShl(j->B, fm, ov, ""), "");
        LLVMValueRef put = LLVMBuildShl(j->B, LLVMBuildAnd(j->B, yw, fm, ""), ov, "");
        v = LLVMBuildOr(j->B, LLVMBuildAnd(j->B, xw, hole, ""), put, "");
    } else {
        v = LLVMBuildAnd(j->B, LLVMBuildLShr(j->B, xw, ov, ""), fm, "");
        if (si->opcode == SpvOpBitFieldSExtract) {
            /* bit Count - 1 of the field, where Count is 1 to 63 */
            LLVMValueRef top = LLVMBuildAnd(j->B, LLVMBuildSub(j->B, c, c_i64(j, 1), ""),
                                            c_i64(j, 63), "");
            LLVMValueRef bit = LLVMBuildAnd(j->B, LLVMBuildLShr(j->B, v, splat(j, top, wt), ""),
                                            const_like(j, wt, 1), "");
            LLVMValueRef cnz = LLVMBuildICmp(j->B, LLVMIntNE, c, c_i64(j, 0), "");
            LLVMValueRef some = LLVMBuildAnd(j->B, cnz, LLVMBuildNot(j->B, all, ""), "");
            LLVMValueRef neg = LLVMBuildICmp(j->B, LLVMIntNE, bit, LLVMConstNull(wt), "");
            neg = LLVMBuildAnd(j->B, neg, splat(j, some, wt), "");
            LLVMValueRef ext = LLVMBuildOr(j->B, v, LLVMBuildNot(j->B, fm, ""), "");
            v = LLVMBuildSelect(j->B, neg, ext, v, "");
        }
    }
    j->vals[w[2]] = bits < 64 ? LLVMBuildTrunc(j->B, v, rty, "") : v;
    return CVM_SUCCESS;
}

/* OpBitReverse and OpBitCount, as ops/arith.c k_generic and h_bitcount
 * compute them: each component's bits at its width reversed; its ones
 * counted, the count written at the Result Type's component width (Base
 * may be wider or narrower).  A scalar Base of a vector result is every
 * component's (cvm_ew_shape's broadcast). */
cvm_result emit_bit_ops(jctx *j, uint32_t ii, const spv_inst *si)
{
    const uint32_t *w = si->words;
    LLVMTypeRef rty = si->word_count == 4 ? value_type(j, w[1]) : NULL;
    LLVMValueRef x = si->word_count == 4 ? get_val(j, w[3]) : NULL;
    if (!rty || !x || w[2] >= j->p->bound || !kind_is(rty, 0) || !kind_is(LLVMTypeOf(x), 0))
        return jit_unsupported(j, ii, "this instruction's operand");
    int rvec = LLVMGetTypeKind(rty) == LLVMVectorTypeKind;
    if (rvec && LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMVectorTypeKind)
        x = splat(j, x, rty);
    LLVMTypeRef xt = LLVMTypeOf(x);
    int xvec = LLVMGetTypeKind(xt) == LLVMVectorTypeKind;
    LLVMTypeRef xs = xvec ? LLVMGetElementType(xt) : xt, rs = rvec ? LLVMGetElementType(rty) : rty;
    if (xvec != rvec || (rvec && LLVMGetVectorSize(xt) != LLVMGetVectorSize(rty)) ||
        LLVMGetIntTypeWidth(xs) < 8 || LLVMGetIntTypeWidth(rs) < 8 ||
        (si->opcode == SpvOpBitReverse && xt != rty))
        return jit_unsupported(j, ii, "this instruction's operand");
    const char *name = si->opcode == SpvOpBitReverse ? "llvm.bitreverse" : "llvm.ctpop";
    LLVMValueRef r = call_intrinsic(j, name, &xt, 1, &x, 1);
    if (!r)
        return jit_unsupported(j, ii, "this instruction");
    unsigned xb = LLVMGetIntTypeWidth(xs), rb = LLVMGetIntTypeWidth(rs);
    if (rb > xb)
        r = LLVMBuildZExt(j->B, r, rty, "");
    else if (rb < xb)
        r = LLVMBuildTrunc(j->B, r, rty, "");
    j->vals[w[2]] = r;
    return CVM_SUCCESS;
}

#endif /* CVM_HAVE_LLVM */
