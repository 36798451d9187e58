/* Element-wise instruction support shared by the arithmetic, conversion and
 * GLSL.std.450 families: operands are vectors (per lane) or cooperative
 * matrices (per scope instance); scalar operands of a vector or matrix
 * operation broadcast. */
#ifndef CVM_OPS_EWISE_H
#define CVM_OPS_EWISE_H

#include "exec/program.h"

/* insn->flags bits beyond exec.h's */
#define CVM_EW_A_BCAST 0x10
#define CVM_EW_B_BCAST 0x20
#define CVM_EW_C_BCAST 0x40

/* Kernel over n elements; operand element size from the kinds, broadcast
 * operands advance by 0. */
typedef void (*cvm_ew_kernel)(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                              const uint8_t *c, uint32_t n);

/* Runs `k` over the active lanes (or, with CVM_INSN_PER_INSTANCE, over the
 * participating scope instances; non-matrix operands then come from the
 * instance's first active lane). Operand ids in in->a, in->b, in->c (0 if
 * absent). */
cvm_result cvm_ew_run(cvm_exec *ex, const cvm_insn *in, cvm_ew_kernel k);

/* As cvm_ew_run, for kernels whose every output element depends only on the
 * same element of the operands (never on other components): with every lane
 * active and dense or uniform operands, one call covers all lanes. */
cvm_result cvm_ew_run_elementwise(cvm_exec *ex, const cvm_insn *in, cvm_ew_kernel k);

/* Fills ncomp/flags for a result type and operand ids; returns the scalar
 * kind of the result components. `o_inst` set when matrices are involved. */
cvm_result cvm_ew_shape(cvm_lower *lw, const spv_inst *inst, cvm_insn *out, uint32_t result_type,
                        const uint32_t *operand_ids, uint32_t noperands);

#endif
