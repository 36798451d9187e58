/* The check functions of the rule table (declared from rules.h, so every
 * row names a function that exists) and the helpers the extension families
 * share. */
#ifndef CVM_VALIDATE_VAL_CHECKS_H
#define CVM_VALIDATE_VAL_CHECKS_H

#include "validate/rules.h"
#include "validate/val.h"

#define VAL_DECLARE_CHECK(id, phase, on, opcode, env, severity, source, section, text, check) \
    int check(val_ctx *v, const spv_inst *in);
VAL_RULES(VAL_DECLARE_CHECK)
#undef VAL_DECLARE_CHECK

/* The check of VAL_LISTED rows: never run. */
int val_listed(val_ctx *v, const spv_inst *in);

/* ---- shared by the cooperative matrix families (val_khr_coopmat.c) ---- */
int val_cm_declared(const val_ctx *v);
int val_cm_of(const val_ctx *v, uint32_t id, val_coopmat *o);
const char *val_use_name(uint64_t use);
int val_cm_use_is(const val_coopmat *cm, uint64_t use);
int val_points_into_array(const val_ctx *v, uint32_t ptr);
int val_touches_type(val_ctx *v, const spv_inst *in, uint16_t top);

/* ---- SPV_NV_cooperative_matrix2 (val_nv_coopmat2.c) ---- */
typedef struct val_tensor_ops {
    uint32_t pointer, object, layout; /* object: the Object operand (load and store) */
    uint32_t memory_mask, ta_mask;
    uint32_t view, decode, decode_vector; /* 0 when absent */
} val_tensor_ops;
int val_tensor_operands(val_ctx *v, const spv_inst *in, val_tensor_ops *o);
int val_fn_signature(const val_ctx *v, uint32_t func, uint32_t *o_ret, const uint32_t **o_params,
                     uint32_t *o_nparams);
int val_tensor_type_dim(const val_ctx *v, uint32_t type, uint16_t op, uint64_t *o_dim);
int val_decode_params(val_ctx *v, const spv_inst *in, uint32_t func, uint32_t layout,
                      const char *what);
int val_is_tangled(val_ctx *v, const spv_inst *in);

/* ---- SPV_NV_cooperative_vector (val_coopvec.c): word positions of the
 * matrix-vector multiplies: 0 MatrixOffset, 1 BiasOffset, 2
 * MatrixInterpretation, 3 MemoryLayout ---- */
uint32_t val_cv_mm_word(const spv_inst *in, int which);
uint32_t val_cv_mm_stride_word(const spv_inst *in);

/* The base checks the multi-opcode rows of rules.h wrap (rules.c). */
int vc_constant_bool(val_ctx *v, const spv_inst *in);
int vc_constant_composite(val_ctx *v, const spv_inst *in);
int vc_access_chain(val_ctx *v, const spv_inst *in);
int vc_vector_dynamic(val_ctx *v, const spv_inst *in);
int vc_arith_float(val_ctx *v, const spv_inst *in);
int vc_arith_int(val_ctx *v, const spv_inst *in);
int vc_shift(val_ctx *v, const spv_inst *in);
int vc_bit_field(val_ctx *v, const spv_inst *in);
int vc_group_bool(val_ctx *v, const spv_inst *in);
int vc_group_ballot(val_ctx *v, const spv_inst *in);
int vc_group_value(val_ctx *v, const spv_inst *in);
int vc_extended_arith(val_ctx *v, const spv_inst *in);
int vc_compare(val_ctx *v, const spv_inst *in);
int vc_convert(val_ctx *v, const spv_inst *in);
int vc_return(val_ctx *v, const spv_inst *in);
int vc_execution_mode(val_ctx *v, const spv_inst *in);
int khr_constant_composite(val_ctx *v, const spv_inst *in);
int cv_mm_result(val_ctx *v, const spv_inst *in);
int cv_mm_result_count(val_ctx *v, const spv_inst *in);
int cv_mm_input(val_ctx *v, const spv_inst *in);
int cv_mm_input_size(val_ctx *v, const spv_inst *in);
int cv_mm_matrix(val_ctx *v, const spv_inst *in);
int cv_mm_offsets(val_ctx *v, const spv_inst *in);
int cv_mm_interpretations(val_ctx *v, const spv_inst *in);
int cv_mm_dims(val_ctx *v, const spv_inst *in);
int cv_mm_layout(val_ctx *v, const spv_inst *in);
int cv_mm_transpose(val_ctx *v, const spv_inst *in);
int cv_mm_transpose_layout(val_ctx *v, const spv_inst *in);
int vk_cm_pointer_storage(val_ctx *v, const spv_inst *in);
int vk_cm_stride_alignment(val_ctx *v, const spv_inst *in);
int vk_cv_fp8_layout(val_ctx *v, const spv_inst *in);
int vk_cv_stride_alignment(val_ctx *v, const spv_inst *in);
int vk_cv_matrix_offset_alignment(val_ctx *v, const spv_inst *in);
int vk_cv_ls_offset_alignment(val_ctx *v, const spv_inst *in);

#endif /* CVM_VALIDATE_VAL_CHECKS_H */
