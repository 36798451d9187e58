/* SPV_NV_tensor_addressing (revision 1): tensor layout and view types and
 * the instructions that make and change them. */
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

static int ta_used(const val_ctx *v)
{
    return val_has_ext(v, "SPV_NV_tensor_addressing") ||
           val_has_cap(v, SpvCapabilityTensorAddressingNV);
}

int ta_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (ta_used(v) && !val_version_at_least(v, 1, 6))
        return val_fail(v, "SPV_NV_tensor_addressing is used in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int ta_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    for (uint32_t i = 0; i < v->ncaps_declared; i++)
        if (v->caps[i] == SpvCapabilityTensorAddressingNV &&
            !val_has_ext(v, "SPV_NV_tensor_addressing"))
            return val_fail(v, "TensorAddressingNV is declared without OpExtension "
                               "\"SPV_NV_tensor_addressing\"");
    return 1;
}

static int const_int32(val_ctx *v, uint32_t id, const char *what)
{
    if (!val_is_constant_inst(v, id) || !val_is_int_scalar(v, val_type_of(v, id), 32))
        return val_fail(v, "%s %%%u is not a constant instruction of a scalar 32-bit integer type",
                        what, id);
    return 1;
}

static int dim_operand(val_ctx *v, uint32_t id)
{
    if (!const_int32(v, id, "Dim"))
        return 0;
    uint64_t dim;
    if (val_const_value(v, id, &dim) && (dim < 1 || dim > 5))
        return val_fail(v, "Dim is %llu; it must be 1 to 5", (unsigned long long)dim);
    return 1;
}

int ta_layout_dim(val_ctx *v, const spv_inst *in)
{
    return dim_operand(v, in->words[2]);
}

int ta_layout_clamp_mode(val_ctx *v, const spv_inst *in)
{
    if (!const_int32(v, in->words[3], "ClampMode"))
        return 0;
    uint64_t mode;
    if (val_const_value(v, in->words[3], &mode) &&
        (mode > UINT32_MAX || !spv_grammar_enumerant(SPV_OPERAND_TensorClampMode, (uint32_t)mode)))
        return val_fail(v, "ClampMode is %llu, not a Tensor Clamp Mode", (unsigned long long)mode);
    return 1;
}

int ta_view_dim(val_ctx *v, const spv_inst *in)
{
    return dim_operand(v, in->words[2]);
}

int ta_view_has_dimensions(val_ctx *v, const spv_inst *in)
{
    uint32_t id = in->words[3];
    if (!val_is_constant_inst(v, id) || !val_is_bool(v, val_type_of(v, id)))
        return val_fail(v, "HasDimensions %%%u is not a constant instruction of a boolean type", id);
    return 1;
}

int ta_view_permutation(val_ctx *v, const spv_inst *in)
{
    uint32_t n = in->word_count - 4u;
    for (uint32_t i = 0; i < n; i++)
        if (!const_int32(v, in->words[4 + i], "a permutation operand"))
            return 0;
    uint64_t dim;
    if (!val_const_value(v, in->words[2], &dim))
        return 1;
    if (n != dim)
        return val_fail(v, "%u permutation operands for Dim %llu", n, (unsigned long long)dim);
    uint32_t seen = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p;
        if (!val_const_value(v, in->words[4 + i], &p))
            continue;
        if (p >= dim || (seen & (1u << p)))
            return val_fail(v, "p%u is %llu; p0..p%u must be a permutation of 0..%llu", i,
                            (unsigned long long)p, n - 1, (unsigned long long)(dim - 1));
        seen |= 1u << p;
    }
    return 1;
}

int ta_create_layout(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[1]) != SpvOpTypeTensorLayoutNV)
        return val_fail(v, "the Result Type %%%u is not OpTypeTensorLayoutNV", in->words[1]);
    return 1;
}

int ta_create_view(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[1]) != SpvOpTypeTensorViewNV)
        return val_fail(v, "the Result Type %%%u is not OpTypeTensorViewNV", in->words[1]);
    return 1;
}

static int is_layout_op(uint16_t op)
{
    return op == SpvOpTensorLayoutSetBlockSizeNV || op == SpvOpTensorLayoutSetDimensionNV ||
           op == SpvOpTensorLayoutSetStrideNV || op == SpvOpTensorLayoutSliceNV ||
           op == SpvOpTensorLayoutSetClampValueNV;
}

static int is_view_op(uint16_t op)
{
    return op == SpvOpTensorViewSetDimensionNV || op == SpvOpTensorViewSetStrideNV ||
           op == SpvOpTensorViewSetClipNV;
}

int ta_operand_type(val_ctx *v, const spv_inst *in)
{
    int layout = is_layout_op(in->opcode);
    if (!layout && !is_view_op(in->opcode))
        return 1;
    uint16_t want = layout ? SpvOpTypeTensorLayoutNV : SpvOpTypeTensorViewNV;
    const char *what = layout ? "TensorLayout" : "TensorView";
    if (val_opcode(v, in->words[1]) != want)
        return val_fail(v, "the Result Type %%%u is not a tensor %s type", in->words[1],
                        layout ? "layout" : "view");
    if (val_type_of(v, in->words[3]) != in->words[1])
        return val_fail(v, "the type of %s %%%u is %%%u, not the Result Type %%%u", what,
                        in->words[3], val_type_of(v, in->words[3]), in->words[1]);
    return 1;
}

int ta_operand_count(val_ctx *v, const spv_inst *in)
{
    uint32_t per_dim;
    uint16_t tt;
    switch (in->opcode) {
    case SpvOpTensorLayoutSetBlockSizeNV:
    case SpvOpTensorLayoutSetDimensionNV:
    case SpvOpTensorLayoutSetStrideNV:
        per_dim = 1;
        tt = SpvOpTypeTensorLayoutNV;
        break;
    case SpvOpTensorLayoutSliceNV:
        per_dim = 2;
        tt = SpvOpTypeTensorLayoutNV;
        break;
    case SpvOpTensorViewSetDimensionNV:
    case SpvOpTensorViewSetStrideNV:
        per_dim = 1;
        tt = SpvOpTypeTensorViewNV;
        break;
    default:
        return 1;
    }
    uint64_t dim;
    if (!val_tensor_type_dim(v, in->words[1], tt, &dim))
        return 1;
    uint32_t n = in->word_count - 4u;
    if (n != per_dim * dim)
        return val_fail(v, "%u operands for a tensor of %llu dimensions (%llu needed)", n,
                        (unsigned long long)dim, (unsigned long long)(per_dim * dim));
    return 1;
}

int ta_operand_int32(val_ctx *v, const spv_inst *in)
{
    if (!is_layout_op(in->opcode) && !is_view_op(in->opcode))
        return 1;
    for (uint32_t i = 4; i < in->word_count; i++) {
        uint32_t id = in->words[i];
        if (!val_is_int_scalar(v, val_type_of(v, id), 32))
            return val_fail(v, "operand %%%u is not of a scalar 32-bit integer type", id);
    }
    return 1;
}

/* Stride<i> >= Stride<i+1> * ceil(layoutDimension[i+1] / blockSize[i+1]),
 * where the layout's dimensions and block sizes are known. */
int ta_set_stride_order(val_ctx *v, const spv_inst *in)
{
    val_layout_state s;
    val_trace_layout(v, in->words[3], &s);
    if (!s.traced || in->word_count - 4u != s.dim)
        return 1;
    for (uint32_t i = 0; i + 1 < s.dim; i++) {
        uint64_t a, b;
        uint32_t j = i + 1;
        if (!val_const_value(v, in->words[4 + i], &a) || !val_const_value(v, in->words[4 + j], &b))
            continue;
        if (!s.dimension_known[j] || !s.block_known[j] || s.block[j] <= 0)
            continue;
        uint64_t blocks = (uint64_t)((s.dimension[j] + s.block[j] - 1) / s.block[j]);
        uint64_t need = (uint64_t)(uint32_t)b * blocks;
        if ((uint64_t)(uint32_t)a < need)
            return val_fail(v, "Stride%u is %u; it must be at least Stride%u * ceil(%lld / %lld) "
                               "= %llu",
                            i, (uint32_t)a, j, (long long)s.dimension[j], (long long)s.block[j],
                            (unsigned long long)need);
    }
    return 1;
}
