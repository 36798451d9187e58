/* Uniformity analysis (uniform.c): which values of a function are equal in
 * every invocation that runs it together, so that the interpreter computes
 * them once instead of once per lane.
 *
 * The interpreter runs a group's lanes (a workgroup, or a callback batch)
 * together and keeps one value slot per lane.  A value marked uniform gets
 * one slot (stride 0) and its instruction runs for one lane only
 * (CVM_INSN_UNIFORM).  That is exact when every lane that reads the slot
 * would have computed the same value, which this analysis proves for:
 *
 * - constants; pointers to memory every lane addresses alike (buffers, push
 *   constants, Workgroup variables, uniform Function variables below);
 * - loads, through such pointers or from the built-ins WorkgroupId,
 *   NumWorkgroups, WorkgroupSize, SubgroupSize and NumSubgroups (entry
 *   function only), and the pure arithmetic, logic, conversion, composite,
 *   access-chain, GLSL.std.450 and tensor layout/view instructions, all of
 *   whose operands are uniform;
 * - OpCooperativeMatrixLength{KHR,NV} where every scope instance has as
 *   many invocations (exec.h cvm_matrix_length_fixed);
 * - OpPhi whose incoming values are uniform and whose block and incoming
 *   blocks are convergent;
 *
 * each only in a *convergent* block: one that every lane still running the
 * function executes together, the same number of times.  A divergent
 * branch (a conditional branch or switch whose selector is not uniform)
 * makes the blocks its lanes run apart non-convergent: those reached from
 * it before the block where they all wait again, its merge block or, when
 * lanes leave an enclosing construct on the way (a break, a continue, the
 * early exit from a switch that spirv-opt makes of a return), that
 * construct's merge block or continue target.  A loop that lanes leave at
 * different iterations is so non-convergent as a whole.  (Lanes that return
 * from the function never read its values again.)  The scheduler in
 * interp.c runs a block only once no lane waits at a lower index, and
 * structured order puts a construct's blocks before its merge block; the
 * analysis checks that order for every region it relies on and gives up on
 * the function (nothing uniform) when the order differs or the control flow
 * is not structured.
 *
 * A *uniform Function variable* is one of scalar, vector, tensor layout or
 * view type, without initializer, named only as the pointer of OpLoad and
 * OpStore, whose every store is in a convergent block with a uniform value
 * and precedes every load (same block earlier, or a dominating block).  It
 * then holds the same value for every lane at every point, so one copy
 * serves the group (cvm_program.var_uoffset).
 *
 * A *uniform Private variable* is a module-scope Private variable with the
 * same conditions in the entry function, which no other function names but
 * as the pointer of OpLoad.  Each lane keeps its copy and every store still
 * writes them all (a callee or callback reads its own), but they hold the
 * same value wherever the entry function loads one in a convergent block,
 * so that load is uniform (ggml's shaders keep their indices, computed
 * from WorkgroupId and push constants, in such globals).
 *
 * Function parameters, call results and everything else are not uniform.
 * Function variables that meet every condition but convergence and uniform
 * stores are marked dense instead (CVM_UNIFORM_DENSE below).
 * The reference paths (CVM_FLAG_REFERENCE_PATHS) ignore every mark: one slot
 * and one copy per lane, every instruction per lane. */
#ifndef CVM_EXEC_UNIFORM_H
#define CVM_EXEC_UNIFORM_H

#include "exec/exec.h"

/* One block of the function, in structured order (index 0 the entry). */
typedef struct cvm_uniform_block {
    uint32_t label;
    uint32_t begin, end;   /* word offsets of the OpLabel and just past the terminator */
    uint32_t merge, cont;  /* the merge instruction's labels (cont != 0: a loop header) */
    const uint32_t *succs; /* successor labels */
    uint32_t nsuccs;
    uint8_t dead;          /* cvm_uniform_dead_blocks: no invocation can reach it */
} cvm_uniform_block;

/* The blocks of a function no invocation can reach once the module's
 * constants (specialization constants applied) are known: those behind a
 * conditional branch or switch whose selector is a constant, or an OpPhi
 * whose incoming values on the edges that can be taken are one constant
 * (spirv-opt leaves such phis of a switch on a specialization constant in
 * ggml's shaders).  Sets blocks[b].dead (the entry block never).  The
 * analysis (sparse conditional constant propagation restricted to those
 * two kinds of values) ignores the instructions of dead blocks, and the
 * compiled tier emits them as a failure; the interpreter never runs them.
 * Returns CVM_SUCCESS or CVM_ERROR_OUT_OF_MEMORY (no block marked). */
cvm_result cvm_uniform_dead_blocks(const cvm_program *p, cvm_uniform_block *blocks,
                                   uint32_t nblocks, const uint32_t *block_of_label);

/* Bits of o_marks[id]. */
#define CVM_UNIFORM_VALUE 0x01 /* the value is uniform: computed once */
#define CVM_UNIFORM_VAR 0x02   /* a uniform Function variable */
/* A Function variable with the uniform variable's conditions other than
 * convergence and uniform stores (type, direct loads and stores only, a
 * store before every load): it can live lane by lane in one dense array
 * (CVM_REGION_LANE_VARS), never read before written, so never cleared. */
#define CVM_UNIFORM_DENSE 0x04
/* An OpLoad of such a variable (not uniform) whose value is used only later
 * in the load's block, with no store to the variable before its last use:
 * the value slot may be the variable's array itself (CVM_INSN_ALIAS). */
#define CVM_UNIFORM_ALIAS 0x08

/* Analyses function `fidx` of p->mod, whose reachable blocks are
 * blocks[0..nblocks) (`block_of_label[label]` their indices).  Sets the bits
 * above in o_marks[id] (caller-owned, p->bound entries, zeroed by the
 * caller) for the ids the function defines, and o_convergent[b] (nblocks
 * entries) to 1 for convergent blocks.  Types, constants, global variables
 * and built-ins of `p` must be lowered.  Returns CVM_SUCCESS, or
 * CVM_ERROR_OUT_OF_MEMORY (marks then all zero).  A function the analysis
 * gives up on (unstructured control flow, a block order the scheduler's
 * reconvergence does not match, over 4096 blocks or 65536 instructions)
 * gets no marks. */
cvm_result cvm_uniform_analyze(const cvm_program *p, uint32_t fidx,
                               const cvm_uniform_block *blocks, uint32_t nblocks,
                               const uint32_t *block_of_label, uint8_t *o_marks,
                               uint8_t *o_convergent);

/* The same analysis one level down: values equal in every invocation of a
 * subgroup (SubgroupId counts as uniform, and what is computed from it),
 * and the blocks every invocation of a subgroup still running the function
 * runs together, the same number of times (a branch on gl_SubgroupID == 0
 * does not make them diverge).  `o_marks` is the caller's scratch (the
 * lowering keeps only the workgroup level's). */
cvm_result cvm_uniform_analyze_subgroup(const cvm_program *p, uint32_t fidx,
                                        const cvm_uniform_block *blocks, uint32_t nblocks,
                                        const uint32_t *block_of_label, uint8_t *o_marks,
                                        uint8_t *o_convergent);

/* 1 when `id`, an operand in function `fidx` analysed into `marks`, is
 * uniform as a value (a pointer: the same address for every lane):
 * a constant, a global variable every lane addresses alike, or an id of the
 * function marked CVM_UNIFORM_VALUE (a variable: CVM_UNIFORM_VAR). */
int cvm_uniform_operand(const cvm_program *p, uint32_t fidx, const uint8_t *marks, uint32_t id);

/* The id operands of `in`, when its result is a pure function of them (the
 * arithmetic, logic, conversion, composite, access-chain, GLSL.std.450
 * other than Modf, Frexp and InterpolateAt*, and tensor layout/view
 * instructions): words [*o_lo, *o_hi) of in->words.  Returns 0 when the
 * opcode is not one of those. */
int cvm_uniform_pure_operands(const cvm_program *p, const spv_inst *in, uint32_t *o_lo,
                              uint32_t *o_hi);

#endif /* CVM_EXEC_UNIFORM_H */
