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

/* One lane of element-wise instruction `in` for the compiled tier
 * (exec/jit), computed by the kernel its handler runs on the fast paths:
 * operands and result in register layout, in->ncomp components (a scalar
 * operand of a vector instruction is one value, as CVM_EW_*_BCAST says);
 * cvm_glsl_eval_lane also takes the pack and unpack instructions (one
 * operand, sizes fixed by the text), by their handler's own lane code.
 * Each returns 0, computing nothing, when `in`'s handler is not one of its
 * family's element-wise ones; with r NULL it only says which. */
int cvm_arith_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                        const uint8_t *c);                        /* ops/arith.c */
int cvm_convert_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a); /* ops/convert.c */
int cvm_glsl_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                       const uint8_t *c);                         /* ops/glsl.c */
/* ops/arith.c: one lane of OpDot `in` (its handler's code, the same
 * instructions): Vector 1 at a, Vector 2 at b, in->ncomp components of kind
 * in->sk each read exactly as a double, their products in double summed in
 * component order from +0 in double, the sum rounded once to in->sk
 * (cvm_store_from_f64) at r. */
void cvm_dot_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b);
/* ops/glsl.c: for an f32 GLSL.std.450 instruction that the fast paths
 * compute as one C library call per component on operands whose signalling
 * NaNs are quieted first (sinf, powf, fmaf ...; k_float_f32), that function
 * (float (*)(float), (float, float) or (float, float, float) as *o_nops
 * says); else NULL.  The compiled tier calls it directly. */
void *cvm_glsl_f32_libm(const cvm_insn *in, int *o_nops);
/* ops/glsl.c: for an f32 FMin/NMin (1), FMax/NMax (2) or FClamp/NClamp
 * (3), which k_float_f32 computes by cvm_fmin_text/cvm_fmax_text on
 * operands whose signalling NaNs are quieted first, that number; else 0.
 * The compiled tier computes them inline by the same rule. */
int cvm_glsl_f32_minmax(const cvm_insn *in);

#endif
