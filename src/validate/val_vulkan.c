/* The Vulkan environment rules for these extensions
 * (shared/specs/vulkan/spirvenv_cooperative_vuids.adoc): the ones a module
 * can be checked for on its own.  They run under a vulkan* target only.
 * (The decode-vector block size rule, VUID 12429, and the
 * OpExtractSubArrayQCOM start index rule, VUID 12354, live beside the rest
 * of their extension, in val_decode_vector.c and val_qcom.c.) */
#include "validate/val.h"
#include "validate/val_checks.h"

int vk_cm_scope(val_ctx *v, const spv_inst *in)
{
    uint64_t scope;
    if (val_const_value(v, in->words[3], &scope) && scope != SpvScopeWorkgroup &&
        scope != SpvScopeSubgroup) {
        char tmp[16];
        return val_fail(v, "the Scope is %s, not Workgroup or Subgroup",
                        val_enum_name(SPV_OPERAND_Scope, (uint32_t)scope, tmp, sizeof(tmp)));
    }
    return 1;
}

int vk_cm_pointer_storage(val_ctx *v, const spv_inst *in)
{
    uint32_t ptr = in->opcode == SpvOpCooperativeMatrixLoadKHR ? in->words[3] : in->words[1];
    uint32_t sc;
    if (!val_pointer_type(v, val_type_of(v, ptr), &sc, NULL))
        return 1;
    if (sc != SpvStorageClassWorkgroup && sc != SpvStorageClassStorageBuffer &&
        sc != SpvStorageClassPhysicalStorageBuffer) {
        char tmp[16];
        return val_fail(v, "Pointer has storage class %s",
                        val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)));
    }
    return 1;
}

int vk_vector_size(val_ctx *v, const spv_inst *in)
{
    if (val_has_cap(v, SpvCapabilityLongVectorEXT))
        return 1;
    uint32_t n = in->words[3];
    if (n < 2 || n > 4)
        return val_fail(v, "a vector of %u components without the LongVectorEXT capability", n);
    return 1;
}

static int is_opaque_resource(const val_ctx *v, uint32_t t)
{
    switch (val_opcode(v, t)) {
    case SpvOpTypeImage:
    case SpvOpTypeSampler:
    case SpvOpTypeSampledImage:
    case SpvOpTypeAccelerationStructureKHR:
    case SpvOpTypeTensorARM:
        return 1;
    default:
        return 0;
    }
}

/* The type, or the element type of an array (of arrays) of it. */
static uint32_t strip_arrays(const val_ctx *v, uint32_t t)
{
    uint32_t elem;
    for (int i = 0; i < 8 && val_array_type(v, t, &elem, NULL); i++)
        t = elem;
    return t;
}

int vk_uniform_constant(val_ctx *v, const spv_inst *in)
{
    uint32_t sc, pointee;
    if (in->words[3] != SpvStorageClassUniformConstant ||
        !val_pointer_type(v, in->words[1], &sc, &pointee) || !pointee)
        return 1;
    if (!is_opaque_resource(v, strip_arrays(v, pointee)))
        return val_fail(v, "a UniformConstant variable of type %%%u (%s)", pointee,
                        val_op_name(val_opcode(v, pointee)));
    return 1;
}

int vk_opaque_store(val_ctx *v, const spv_inst *in)
{
    uint32_t pointee;
    if (!val_pointer_type(v, val_type_of(v, in->words[1]), NULL, &pointee) || !pointee)
        return 1;
    if (is_opaque_resource(v, strip_arrays(v, pointee)))
        return val_fail(v, "a store to an object of type %%%u (%s)", pointee,
                        val_op_name(val_opcode(v, strip_arrays(v, pointee))));
    return 1;
}

int vk_undef_opaque(val_ctx *v, const spv_inst *in)
{
    if (is_opaque_resource(v, in->words[1]))
        return val_fail(v, "OpUndef of %s", val_op_name(val_opcode(v, in->words[1])));
    return 1;
}

/* Bytes of a scalar or vector type, 0 when not one. */
static uint64_t value_bytes(const val_ctx *v, uint32_t t)
{
    uint32_t w = 0, comp, n;
    if (val_vector_type(v, t, &comp, &n))
        return value_bytes(v, comp) * n;
    if (val_int_type(v, t, &w, NULL) || val_float_type(v, t, &w, NULL))
        return w / 8;
    return 0;
}

int vk_cm_stride_alignment(val_ctx *v, const spv_inst *in)
{
    int load = in->opcode == SpvOpCooperativeMatrixLoadKHR;
    uint32_t ptr = load ? in->words[3] : in->words[1];
    uint32_t layout_w = load ? 4 : 3, stride_w = load ? 5 : 4;
    uint32_t mt = load ? in->words[1] : val_type_of(v, in->words[2]);
    uint64_t layout, stride;
    uint32_t pointee;
    val_coopmat m;
    if (stride_w >= in->word_count || !val_const_value(v, in->words[layout_w], &layout) ||
        layout > 1 || !val_const_value(v, in->words[stride_w], &stride) ||
        !val_pointer_type(v, val_type_of(v, ptr), NULL, &pointee) || !pointee ||
        !val_coopmat_type(v, mt, &m))
        return 1;
    uint64_t elem = value_bytes(v, pointee), comp = value_bytes(v, m.component);
    int known = layout == 0 ? m.cols_known : m.rows_known;
    if (!elem || !comp || !known)
        return 1;
    uint64_t natural = (layout == 0 ? m.cols : m.rows) * comp;
    uint64_t need = natural < 16 ? natural : 16;
    uint64_t bytes = (uint64_t)(int64_t)stride * elem;
    if (need && bytes % need)
        return val_fail(v, "Stride is %lld elements of %llu bytes (%llu bytes), not a multiple of "
                           "%llu (the lesser of 16 and the %s's %llu bytes)",
                        (long long)(int64_t)stride, (unsigned long long)elem,
                        (unsigned long long)bytes, (unsigned long long)need,
                        layout == 0 ? "row" : "column", (unsigned long long)natural);
    return 1;
}

/* ---- cooperative vectors ---------------------------------------------------------- */

static int multiple_of(val_ctx *v, uint32_t id, uint64_t m, const char *what)
{
    uint64_t x;
    if (val_const_value(v, id, &x) && x % m)
        return val_fail(v, "%s is %llu, not a multiple of %llu", what, (unsigned long long)x,
                        (unsigned long long)m);
    return 1;
}

int vk_cv_fp8_layout(val_ctx *v, const spv_inst *in)
{
    uint64_t interp, layout;
    if (!val_const_value(v, in->words[val_cv_mm_word(in, 2)], &interp) ||
        (interp != SpvComponentTypeFloatE4M3NV && interp != SpvComponentTypeFloatE5M2NV))
        return 1;
    if (val_const_value(v, in->words[val_cv_mm_word(in, 3)], &layout) &&
        layout != SpvCooperativeVectorMatrixLayoutInferencingOptimalNV &&
        layout != SpvCooperativeVectorMatrixLayoutTrainingOptimalNV)
        return val_fail(v, "an FP8 MatrixInterpretation needs the InferencingOptimalNV or "
                           "TrainingOptimalNV layout");
    return 1;
}

static int sb_or_psb(val_ctx *v, uint32_t ptr)
{
    uint32_t sc;
    if (val_pointer_type(v, val_type_of(v, ptr), &sc, NULL) && sc != SpvStorageClassStorageBuffer &&
        sc != SpvStorageClassPhysicalStorageBuffer) {
        char tmp[16];
        return val_fail(v, "the pointer's storage class is %s, not StorageBuffer or "
                           "PhysicalStorageBuffer",
                        val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)));
    }
    return 1;
}

static int f16_or_f32(const val_ctx *v, uint32_t t, int f16_only)
{
    uint32_t w, enc;
    return val_float_type(v, t, &w, &enc) && enc == VAL_NONE && (w == 16 || (!f16_only && w == 32));
}

int vk_cv_reduce_sum(val_ctx *v, const spv_inst *in)
{
    uint32_t comp = val_component_type(v, val_type_of(v, in->words[3]));
    if (!f16_or_f32(v, comp, 0))
        return val_fail(v, "V's components are not 16- or 32-bit floats");
    return sb_or_psb(v, in->words[1]);
}

int vk_cv_outer_product(val_ctx *v, const spv_inst *in)
{
    uint64_t interp, layout;
    if (val_const_value(v, in->words[6], &interp) && interp != SpvComponentTypeFloat16NV &&
        interp != SpvComponentTypeFloat32NV)
        return val_fail(v, "MatrixInterpretation is not Float16NV or Float32NV");
    if (!f16_or_f32(v, val_component_type(v, val_type_of(v, in->words[3])), 1) ||
        !f16_or_f32(v, val_component_type(v, val_type_of(v, in->words[4])), 1))
        return val_fail(v, "the components of A and B are not 16-bit floats");
    if (val_const_value(v, in->words[5], &layout) &&
        layout != SpvCooperativeVectorMatrixLayoutTrainingOptimalNV)
        return val_fail(v, "the matrix layout is not TrainingOptimalNV");
    return sb_or_psb(v, in->words[1]);
}

int vk_cv_stride_alignment(val_ctx *v, const spv_inst *in)
{
    uint64_t layout;
    uint32_t sw = val_cv_mm_stride_word(in);
    if (!sw || !val_const_value(v, in->words[val_cv_mm_word(in, 3)], &layout) || layout > 1)
        return 1;
    return multiple_of(v, in->words[sw], 16, "MatrixStride");
}

int vk_cv_matrix_offset_alignment(val_ctx *v, const spv_inst *in)
{
    return multiple_of(v, in->words[val_cv_mm_word(in, 0)], 64, "MatrixOffset");
}

int vk_cv_bias_offset_alignment(val_ctx *v, const spv_inst *in)
{
    return multiple_of(v, in->words[val_cv_mm_word(in, 1)], 16, "BiasOffset");
}

int vk_cv_ls_offset_alignment(val_ctx *v, const spv_inst *in)
{
    uint32_t off = in->opcode == SpvOpCooperativeVectorLoadNV ? in->words[4] : in->words[2];
    return multiple_of(v, off, 16, "Offset");
}

int vk_cv_reduce_offset_alignment(val_ctx *v, const spv_inst *in)
{
    return multiple_of(v, in->words[2], 16, "Offset");
}

int vk_cv_outer_offset_alignment(val_ctx *v, const spv_inst *in)
{
    return multiple_of(v, in->words[2], 64, "Offset");
}

/* The compute built-ins' types (Vulkan, Built-In Variables: "The variable
 * decorated with LocalInvocationIndex must be declared as a scalar 32-bit
 * integer value", "... GlobalInvocationId ... as a three-component vector
 * of 32-bit integer values", the subgroup masks four): `n` components.  The
 * decorated object is a variable (its pointee is checked) or, for
 * WorkgroupSize, a constant (its type). */
static int builtin_holds(val_ctx *v, const spv_inst *in, uint32_t builtin, uint32_t n)
{
    if (in->word_count < 4 || in->words[2] != SpvDecorationBuiltIn || in->words[3] != builtin)
        return 1;
    uint32_t target = in->words[1];
    spv_inst def;
    if (!val_def(v, target, &def))
        return 1;
    uint32_t t = val_type_of(v, target), sc, pointee;
    if (def.opcode == SpvOpVariable) {
        if (!val_pointer_type(v, t, &sc, &pointee))
            return 1;
        t = pointee;
    }
    uint32_t comp = t, count = 1;
    if (n > 1 && !val_vector_type(v, t, &comp, &count))
        count = 0;
    if (count == n && val_is_int_scalar(v, comp, 32))
        return 1;
    char tmp[32];
    return val_fail(v, "the BuiltIn %s %%%u has type %%%u (%s), not %s",
                    val_enum_name(SPV_OPERAND_BuiltIn, builtin, tmp, sizeof(tmp)), target, t,
                    val_op_name(val_opcode(v, t)),
                    n == 1   ? "a 32-bit integer"
                    : n == 3 ? "a vector of three 32-bit integers"
                             : "a vector of four 32-bit integers");
}

#define VK_BUILTIN_TYPE(name, builtin, n)         \
    int name(val_ctx *v, const spv_inst *in)      \
    {                                             \
        return builtin_holds(v, in, builtin, n);  \
    }

VK_BUILTIN_TYPE(vk_builtin_gid, SpvBuiltInGlobalInvocationId, 3)
VK_BUILTIN_TYPE(vk_builtin_lid, SpvBuiltInLocalInvocationId, 3)
VK_BUILTIN_TYPE(vk_builtin_lindex, SpvBuiltInLocalInvocationIndex, 1)
VK_BUILTIN_TYPE(vk_builtin_nwg, SpvBuiltInNumWorkgroups, 3)
VK_BUILTIN_TYPE(vk_builtin_wgid, SpvBuiltInWorkgroupId, 3)
VK_BUILTIN_TYPE(vk_builtin_wgsize, SpvBuiltInWorkgroupSize, 3)
VK_BUILTIN_TYPE(vk_builtin_sgid, SpvBuiltInSubgroupId, 1)
VK_BUILTIN_TYPE(vk_builtin_nsg, SpvBuiltInNumSubgroups, 1)
VK_BUILTIN_TYPE(vk_builtin_sglid, SpvBuiltInSubgroupLocalInvocationId, 1)
VK_BUILTIN_TYPE(vk_builtin_sgsize, SpvBuiltInSubgroupSize, 1)
VK_BUILTIN_TYPE(vk_builtin_eqmask, SpvBuiltInSubgroupEqMask, 4)
VK_BUILTIN_TYPE(vk_builtin_gemask, SpvBuiltInSubgroupGeMask, 4)
VK_BUILTIN_TYPE(vk_builtin_gtmask, SpvBuiltInSubgroupGtMask, 4)
VK_BUILTIN_TYPE(vk_builtin_lemask, SpvBuiltInSubgroupLeMask, 4)
VK_BUILTIN_TYPE(vk_builtin_ltmask, SpvBuiltInSubgroupLtMask, 4)
