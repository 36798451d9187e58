/* SPV_NV_cooperative_matrix_decode_vector (revision 1): the DecodeVectorFunc
 * tensor addressing operand. */
#include "validate/val.h"
#include "validate/val_checks.h"

static int dv_used(const val_ctx *v)
{
    return val_has_ext(v, "SPV_NV_cooperative_matrix_decode_vector") ||
           val_has_cap(v, SpvCapabilityCooperativeMatrixDecodeVectorNV);
}

int dv_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (dv_used(v) && !val_version_at_least(v, 1, 6))
        return val_fail(v, "SPV_NV_cooperative_matrix_decode_vector is used in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int dv_requires_nv2(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (dv_used(v) && !val_has_ext(v, "SPV_NV_cooperative_matrix2"))
        return val_fail(v, "SPV_NV_cooperative_matrix_decode_vector is used without OpExtension "
                           "\"SPV_NV_cooperative_matrix2\"");
    return 1;
}

int dv_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    for (uint32_t i = 0; i < v->ncaps_declared; i++)
        if (v->caps[i] == SpvCapabilityCooperativeMatrixDecodeVectorNV &&
            !val_has_ext(v, "SPV_NV_cooperative_matrix_decode_vector"))
            return val_fail(v, "CooperativeMatrixDecodeVectorNV is declared without OpExtension "
                               "\"SPV_NV_cooperative_matrix_decode_vector\"");
    return 1;
}

int dv_needs_decode_func(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if ((t.ta_mask & SpvTensorAddressingOperandsDecodeVectorFuncMask) &&
        !(t.ta_mask & SpvTensorAddressingOperandsDecodeFuncMask))
        return val_fail(v, "DecodeVectorFunc without DecodeFunc");
    return 1;
}

int dv_function(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (!t.decode_vector)
        return 1;
    uint32_t ret, np;
    const uint32_t *params;
    if (val_opcode(v, t.decode_vector) != SpvOpFunction ||
        !val_fn_signature(v, t.decode_vector, &ret, &params, &np))
        return val_fail(v, "DecodeVectorFunc %%%u is not an OpFunction", t.decode_vector);
    uint16_t op = val_opcode(v, ret);
    if (op != SpvOpTypeVector && op != SpvOpTypeVectorIdEXT)
        return val_fail(v, "DecodeVectorFunc %%%u returns %%%u, not a vector", t.decode_vector,
                        ret);
    return 1;
}

int dv_return(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    uint32_t ret, np, comp, count;
    const uint32_t *params;
    val_coopmat r;
    if (!t.decode_vector || !val_fn_signature(v, t.decode_vector, &ret, &params, &np) ||
        !val_coopmat_type(v, in->words[1], &r))
        return 1;
    if (!val_vector_type(v, ret, &comp, &count))
        return 1; /* dv_function */
    if (count & VAL_SPEC_COUNT(0))
        return 1; /* OpTypeVectorIdEXT sized by a specialization constant: V is known at
                     specialization, and the rule applies to the specialized module */
    if (comp != r.component || (count != 2 && count != 4 && count != 8))
        return val_fail(v, "DecodeVectorFunc returns %%%u: %u components of %%%u; it must return "
                           "2, 4 or 8 components of the Component Type %%%u",
                        ret, count, comp, r.component);
    return 1;
}

int dv_params(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (!t.decode_vector)
        return 1;
    return val_decode_params(v, in, t.decode_vector, t.layout, "DecodeVectorFunc");
}

/* VUID-...-OpCooperativeMatrixLoadTensorNV-12429 (the text calls the same
 * condition undefined behaviour): blockSize[LDim-1] is a multiple of V. */
int dv_block_multiple(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    uint32_t ret, np, comp, count;
    const uint32_t *params;
    if (!t.decode_vector || !val_fn_signature(v, t.decode_vector, &ret, &params, &np) ||
        !val_vector_type(v, ret, &comp, &count) || !count || (count & VAL_SPEC_COUNT(0)))
        return 1;
    val_layout_state s;
    val_trace_layout(v, t.layout, &s);
    if (!s.traced || !s.dim)
        return 1;
    uint32_t last = s.dim - 1;
    if (s.block_known[last] && s.block[last] % count)
        return val_fail(v, "the innermost block size is %lld, not a multiple of the %u components "
                           "DecodeVectorFunc returns",
                        (long long)s.block[last], count);
    return 1;
}
