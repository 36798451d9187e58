/* The rule table, built from rules.h, and the rows that cover several
 * opcodes with one check. */
#include "validate/val.h"
#include "validate/val_checks.h"

int val_listed(val_ctx *v, const spv_inst *in)
{
    (void)v;
    (void)in;
    return 1;
}

/* A check run for the listed opcodes only. */
#define VAL_FOR_OPCODES(name, base, ...)                                  \
    int name(val_ctx *v, const spv_inst *in)                              \
    {                                                                     \
        static const uint16_t ops_[] = {__VA_ARGS__};                     \
        for (size_t i_ = 0; i_ < CVM_ARRAY_SIZE(ops_); i_++)              \
            if (ops_[i_] == in->opcode)                                   \
                return base(v, in);                                       \
        return 1;                                                         \
    }

#define CV_MATMUL SpvOpCooperativeVectorMatrixMulNV, SpvOpCooperativeVectorMatrixMulAddNV
#define CM_LOAD_STORE SpvOpCooperativeMatrixLoadKHR, SpvOpCooperativeMatrixStoreKHR

VAL_FOR_OPCODES(vc_constant_bool_each, vc_constant_bool, SpvOpConstantTrue, SpvOpConstantFalse,
                SpvOpSpecConstantTrue, SpvOpSpecConstantFalse)
VAL_FOR_OPCODES(vc_constant_composite_each, vc_constant_composite, SpvOpConstantComposite,
                SpvOpSpecConstantComposite)
VAL_FOR_OPCODES(vc_access_chain_each, vc_access_chain, SpvOpAccessChain,
                SpvOpInBoundsAccessChain, SpvOpPtrAccessChain, SpvOpInBoundsPtrAccessChain)
VAL_FOR_OPCODES(vc_vector_dynamic_each, vc_vector_dynamic, SpvOpVectorExtractDynamic,
                SpvOpVectorInsertDynamic)
VAL_FOR_OPCODES(vc_arith_float_each, vc_arith_float, SpvOpFNegate, SpvOpFAdd, SpvOpFSub,
                SpvOpFMul, SpvOpFDiv, SpvOpFRem, SpvOpFMod)
VAL_FOR_OPCODES(vc_arith_int_each, vc_arith_int, SpvOpSNegate, SpvOpIAdd, SpvOpISub, SpvOpIMul,
                SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod, SpvOpBitwiseOr,
                SpvOpBitwiseXor, SpvOpBitwiseAnd, SpvOpNot)
VAL_FOR_OPCODES(vc_shift_each, vc_shift, SpvOpShiftRightLogical, SpvOpShiftRightArithmetic,
                SpvOpShiftLeftLogical)
VAL_FOR_OPCODES(vc_compare_each, vc_compare, SpvOpLogicalEqual, SpvOpLogicalNotEqual,
                SpvOpLogicalOr, SpvOpLogicalAnd, SpvOpIEqual, SpvOpINotEqual,
                SpvOpUGreaterThan, SpvOpSGreaterThan, SpvOpUGreaterThanEqual,
                SpvOpSGreaterThanEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpULessThanEqual,
                SpvOpSLessThanEqual, SpvOpFOrdEqual, SpvOpFUnordEqual, SpvOpFOrdNotEqual,
                SpvOpFUnordNotEqual, SpvOpFOrdLessThan, SpvOpFUnordLessThan,
                SpvOpFOrdGreaterThan, SpvOpFUnordGreaterThan, SpvOpFOrdLessThanEqual,
                SpvOpFUnordLessThanEqual, SpvOpFOrdGreaterThanEqual,
                SpvOpFUnordGreaterThanEqual)
VAL_FOR_OPCODES(vc_convert_each, vc_convert, SpvOpConvertFToU, SpvOpConvertFToS,
                SpvOpConvertSToF, SpvOpConvertUToF, SpvOpUConvert, SpvOpSConvert, SpvOpFConvert)
VAL_FOR_OPCODES(vc_bit_field_each, vc_bit_field, SpvOpBitFieldInsert, SpvOpBitFieldSExtract,
                SpvOpBitFieldUExtract)
VAL_FOR_OPCODES(vc_group_bool_each, vc_group_bool, SpvOpGroupNonUniformElect,
                SpvOpGroupNonUniformAll, SpvOpGroupNonUniformAny, SpvOpGroupNonUniformAllEqual)
VAL_FOR_OPCODES(vc_group_ballot_each, vc_group_ballot, SpvOpGroupNonUniformBallot,
                SpvOpGroupNonUniformInverseBallot, SpvOpGroupNonUniformBallotBitExtract,
                SpvOpGroupNonUniformBallotBitCount, SpvOpGroupNonUniformBallotFindLSB,
                SpvOpGroupNonUniformBallotFindMSB)
VAL_FOR_OPCODES(vc_group_value_each, vc_group_value, SpvOpGroupNonUniformBroadcast,
                SpvOpGroupNonUniformBroadcastFirst, SpvOpGroupNonUniformShuffle,
                SpvOpGroupNonUniformShuffleXor, SpvOpGroupNonUniformShuffleUp,
                SpvOpGroupNonUniformShuffleDown, SpvOpGroupNonUniformQuadBroadcast,
                SpvOpGroupNonUniformQuadSwap, SpvOpGroupNonUniformRotateKHR,
                SpvOpGroupNonUniformIAdd, SpvOpGroupNonUniformFAdd, SpvOpGroupNonUniformIMul,
                SpvOpGroupNonUniformFMul, SpvOpGroupNonUniformSMin, SpvOpGroupNonUniformUMin,
                SpvOpGroupNonUniformFMin, SpvOpGroupNonUniformSMax, SpvOpGroupNonUniformUMax,
                SpvOpGroupNonUniformFMax, SpvOpGroupNonUniformBitwiseAnd,
                SpvOpGroupNonUniformBitwiseOr, SpvOpGroupNonUniformBitwiseXor,
                SpvOpGroupNonUniformLogicalAnd, SpvOpGroupNonUniformLogicalOr,
                SpvOpGroupNonUniformLogicalXor)
VAL_FOR_OPCODES(vc_extended_arith_each, vc_extended_arith, SpvOpIAddCarry, SpvOpISubBorrow,
                SpvOpUMulExtended, SpvOpSMulExtended)
VAL_FOR_OPCODES(vc_return_each, vc_return, SpvOpReturn, SpvOpReturnValue)
VAL_FOR_OPCODES(vc_execution_mode_each, vc_execution_mode, SpvOpExecutionMode,
                SpvOpExecutionModeId)
VAL_FOR_OPCODES(khr_constant_composite_each, khr_constant_composite, SpvOpConstantComposite,
                SpvOpSpecConstantComposite)
VAL_FOR_OPCODES(cv_mm_result_each, cv_mm_result, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_result_count_each, cv_mm_result_count, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_input_each, cv_mm_input, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_input_size_each, cv_mm_input_size, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_matrix_each, cv_mm_matrix, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_offsets_each, cv_mm_offsets, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_interpretations_each, cv_mm_interpretations, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_dims_each, cv_mm_dims, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_layout_each, cv_mm_layout, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_transpose_each, cv_mm_transpose, CV_MATMUL)
VAL_FOR_OPCODES(cv_mm_transpose_layout_each, cv_mm_transpose_layout, CV_MATMUL)
VAL_FOR_OPCODES(vk_cm_pointer_storage_each, vk_cm_pointer_storage, CM_LOAD_STORE)
VAL_FOR_OPCODES(vk_cm_stride_alignment_each, vk_cm_stride_alignment, CM_LOAD_STORE)
VAL_FOR_OPCODES(vk_cv_fp8_layout_each, vk_cv_fp8_layout, CV_MATMUL)
VAL_FOR_OPCODES(vk_cv_stride_alignment_each, vk_cv_stride_alignment, CV_MATMUL)
VAL_FOR_OPCODES(vk_cv_matrix_offset_alignment_each, vk_cv_matrix_offset_alignment, CV_MATMUL)
VAL_FOR_OPCODES(vk_cv_ls_offset_alignment_each, vk_cv_ls_offset_alignment,
                SpvOpCooperativeVectorLoadNV, SpvOpCooperativeVectorStoreNV)

#define VAL_ROW(id, phase, on, opcode, env, severity, source, section, text, check) \
    {id, phase, on, env, severity, opcode, source, section, text, check},

const val_rule val_rules[] = {VAL_RULES(VAL_ROW)};
const uint32_t val_rule_count = (uint32_t)CVM_ARRAY_SIZE(val_rules);
