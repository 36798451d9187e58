/* Conversions: OpConvert*, OpSConvert/UConvert/FConvert (which may also
 * change a cooperative matrix's Use: SPV_NV_cooperative_matrix2),
 * OpQuantizeToF16, OpSatConvert*, OpBitcast. */
#include <string.h>

#include "exec/ops/ewise.h"

static cvm_scalar_kind with_sign(cvm_scalar_kind k, int is_signed)
{
    switch (k) {
    case CVM_SK_S8: case CVM_SK_U8: return is_signed ? CVM_SK_S8 : CVM_SK_U8;
    case CVM_SK_S16: case CVM_SK_U16: return is_signed ? CVM_SK_S16 : CVM_SK_U16;
    case CVM_SK_S32: case CVM_SK_U32: return is_signed ? CVM_SK_S32 : CVM_SK_U32;
    case CVM_SK_S64: case CVM_SK_U64: return is_signed ? CVM_SK_S64 : CVM_SK_U64;
    default: return k;
    }
}

/* A broadcast operand (CVM_EW_A_BCAST: one value for every element, as
 * cvm_ew_run_elementwise passes a uniform scalar over all lanes) is
 * converted once and copied. */
static void k_convert(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                      const uint8_t *c, uint32_t n)
{
    if (!(in->flags & CVM_EW_A_BCAST) || n == 0) {
        cvm_convert_array((cvm_scalar_kind)in->sk, r, (cvm_scalar_kind)in->sk2, a, n, in->d);
        return;
    }
    unsigned rs = cvm_sk_size((cvm_scalar_kind)in->sk);
    cvm_convert_array((cvm_scalar_kind)in->sk, r, (cvm_scalar_kind)in->sk2, a, 1, in->d);
    for (uint32_t i = 1; i < n; i++)
        memcpy(r + (size_t)i * rs, r, rs);
}

static void k_quantize(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                       const uint8_t *c, uint32_t n)
{
    unsigned sa = (in->flags & CVM_EW_A_BCAST) ? 0 : 4;
    for (uint32_t i = 0; i < n; i++) {
        float f;
        memcpy(&f, a + sa * i, 4);
        float q = cvm_f16_to_f32(cvm_f32_to_f16(f));
        memcpy(r + 4 * i, &q, 4);
    }
}

static cvm_result h_convert(cvm_exec *ex, const cvm_insn *in) { return cvm_ew_run_elementwise(ex, in, k_convert); }
static cvm_result h_quantize(cvm_exec *ex, const cvm_insn *in) { return cvm_ew_run_elementwise(ex, in, k_quantize); }

static cvm_result h_bitcast(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    CVM_FOR_ACTIVE(ex, l)
        memcpy(CVM_LANE(r, l), CVM_LANE(a, l), in->ncomp);
    return CVM_SUCCESS;
}

cvm_result cvm_lower_convert(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    const cvm_type *rt = cvm_lower_type(lw, w[1]);
    const cvm_type *st = in->word_count > 3 ? cvm_lower_type(lw, cvm_lower_type_of(lw, w[3])) : rt;
    cvm_scalar_kind rk = (cvm_scalar_kind)rt->sk, sk = (cvm_scalar_kind)st->sk;
    switch (in->opcode) {
    case SpvOpConvertFToU: rk = with_sign(rk, 0); break;
    case SpvOpConvertFToS: rk = with_sign(rk, 1); break;
    case SpvOpConvertSToF: sk = with_sign(sk, 1); break;
    case SpvOpConvertUToF: sk = with_sign(sk, 0); break;
    case SpvOpUConvert: sk = with_sign(sk, 0); break;
    case SpvOpSConvert: sk = with_sign(sk, 1); rk = with_sign(rk, 1); break;
    case SpvOpFConvert: break;
    case SpvOpSatConvertSToU: sk = with_sign(sk, 1); rk = with_sign(rk, 0); out->d = 1; break;
    case SpvOpSatConvertUToS: sk = with_sign(sk, 0); rk = with_sign(rk, 1); out->d = 1; break;
    case SpvOpQuantizeToF16:
        out->a = w[3];
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 1));
        out->fn = h_quantize;
        return CVM_SUCCESS;
    case SpvOpBitcast:
        if (rt->size != st->size || rt->tclass == CVM_TC_COOPMAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "bit cast between sizes %u and %u",
                                  st->size, rt->size);
        out->a = w[3];
        out->ncomp = rt->size;
        out->fn = h_bitcast;
        return CVM_SUCCESS;
    default:
        return CVM_ERROR_NOT_FOUND;
    }
    out->a = w[3];
    out->sk = (uint8_t)rk;
    out->sk2 = (uint8_t)sk;
    if (rt->tclass == CVM_TC_COOPMAT) {
        if (st->tclass != CVM_TC_COOPMAT || st->rows != rt->rows || st->cols != rt->cols)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "matrix conversion between different dimensions");
        if (st->scope != rt->scope)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "matrix conversion between different scopes");
        /* float to fp8 may saturate by decoration (SPV_EXT_float8) */
    }
    if (rt->tclass == CVM_TC_COOPMAT) {
        out->ncomp = rt->rows * rt->cols;
        out->flags = CVM_INSN_PER_INSTANCE | (rt->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
    } else {
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 1));
    }
    if ((rk == CVM_SK_E4M3 || rk == CVM_SK_E5M2) &&
        spv_module_find_decoration(cvm_lower_program(lw)->mod, w[2], SPV_NO_MEMBER,
                                   SpvDecorationSaturatedToLargestFloat8NormalConversionEXT))
        out->d = 1;
    out->fn = h_convert;
    return CVM_SUCCESS;
}
