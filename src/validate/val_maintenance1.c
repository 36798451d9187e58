/* SPV_EXT_cooperative_matrix_maintenance1 (revision 1): the extension, the
 * CooperativeMatrixTransposeEXT decoration's target, and
 * OpCooperativeMatrixGetCoordinateEXT.  The reductions, per-element
 * operations and Use conversions share their opcodes with
 * SPV_NV_cooperative_matrix2 (val_nv_coopmat2.c, whose Use-conversion rules
 * follow this text when CooperativeMatrixConversionsEXT is declared); the
 * relaxed conversions of 3.49.11 are in val_khr_coopmat.c. */
#include "validate/val.h"
#include "validate/val_checks.h"

int m1_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if ((val_has_cap(v, SpvCapabilityCooperativeMatrixConversionsEXT) ||
         val_has_cap(v, SpvCapabilityCooperativeMatrixGetCoordinateEXT)) &&
        !val_has_ext(v, "SPV_EXT_cooperative_matrix_maintenance1"))
        return val_fail(v, "a capability of SPV_EXT_cooperative_matrix_maintenance1 is declared "
                           "without its OpExtension");
    return 1;
}

int m1_coord_result(val_ctx *v, const spv_inst *in)
{
    uint32_t comp, n;
    if (!val_vector_type(v, in->words[1], &comp, &n) || n != 2 || !val_is_int_scalar(v, comp, 32))
        return val_fail(v, "the Result Type %%%u is not a vector of two 32-bit integers",
                        in->words[1]);
    return 1;
}

int m1_coord_matrix(val_ctx *v, const spv_inst *in)
{
    val_coopmat cm;
    if (!val_cm_of(v, in->words[3], &cm))
        return val_fail(v, "Matrix %%%u does not have an OpTypeCooperativeMatrixKHR type",
                        in->words[3]);
    return 1;
}

int m1_coord_index(val_ctx *v, const spv_inst *in)
{
    if (!val_is_int_scalar(v, val_type_of(v, in->words[4]), 32))
        return val_fail(v, "Index %%%u does not have a 32-bit integer type", in->words[4]);
    return 1;
}

int m1_transpose_target(val_ctx *v, const spv_inst *in)
{
    if (in->word_count < 3 || in->words[2] != SpvDecorationCooperativeMatrixTransposeEXT)
        return 1;
    switch (val_opcode(v, in->words[1])) {
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
    case SpvOpCooperativeMatrixConvertUseEXT: {
        /* The decoration transposes a cooperative matrix: a conversion of
         * scalars or vectors has nothing to transpose (spirv-val after
         * v2026.3 refuses it too: CoopMatMaint1TransposeScalarConversionTargetFail). */
        val_coopmat cm;
        if (!val_coopmat_type(v, val_type_of(v, in->words[1]), &cm))
            return val_fail(v, "CooperativeMatrixTransposeEXT decorates %%%u, a conversion whose "
                               "result is not a cooperative matrix",
                            in->words[1]);
        return 1;
    }
    default:
        return val_fail(v, "CooperativeMatrixTransposeEXT decorates %%%u, which is not the result "
                           "of a conversion instruction",
                        in->words[1]);
    }
}
