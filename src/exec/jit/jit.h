/* The compiled tier: an entry point whose invocations never wait for one
 * another, compiled through LLVM's ORC JIT (Debian llvm-14-dev) into native
 * code that runs a workgroup's invocations one after the other; an entry
 * point with barriers, subgroup instructions or Workgroup memory, compiled
 * into one coroutine per invocation that suspends at each of them (the
 * collective form, cvm_jit_collective_form below); and an entry point with
 * cooperative-matrix instructions whose other values are all uniform,
 * compiled into code that runs once per workgroup around the interpreter's
 * matrix handlers (the scope form, cvm_jit_scope_form below).
 *
 * Which shaders take the first form (cvm_jit_compile says why not, naming
 * the first instruction it does not take): no OpControlBarrier, no subgroup,
 * cooperative matrix or vector, tensor or callback instruction, no
 * DebugPrintf, no Workgroup variable; atomic instructions on buffers (and,
 * in the collective form, on Workgroup memory), each lane's run by the
 * interpreter's own code (ops/atomic.c cvm_atomic_lane); values that are booleans, 8- to
 * 64-bit integers, f32, f64 and f16 (where the CPU converts with F16C, as
 * the interpreter's f16 kernels do) and their vectors; memory that is
 * Function and Private variables (of such a type, held in registers; or
 * arrays and structs, in the interpreter's per-invocation memory), the
 * compute built-ins, and buffers (StorageBuffer, Uniform, one descriptor
 * each) and push constants reached through access chains of structs,
 * arrays and vectors, and PhysicalStorageBuffer memory through a pointer
 * OpBitcast makes of a 64-bit value (GL_EXT_buffer_reference_uvec2's two
 * words).  Arrays and structs are also values: loaded and
 * stored whole, between per-invocation memory or a buffer or push
 * constant block (its explicit layout: Offset, ArrayStride, MatrixStride,
 * RowMajor) and a copy in register layout (interp.c copy_layout's bytes,
 * the whole memory layout checked as h_load and h_store check it), passed
 * by value, OpCopyObject and OpCopyLogical, OpCompositeExtract, Insert and
 * Construct.  Function calls are inlined at each call site
 * (SPIR-V has no recursion), pointer parameters included.  Every other
 * module runs on the interpreter, which stays the reference.
 *
 * Why serial invocations are a valid schedule: with no barrier and no
 * subgroup operation, the texts give invocations no way to wait for one
 * another (Vulkan "Execution model": no forward-progress guarantee between
 * invocations), so running each to its end before the next starts is one of
 * the executions the shader must accept.
 *
 * What the compiled code keeps from the interpreter, exactly:
 *   - every value: arithmetic as ops/arith.c defines it (integer division
 *     by zero 0, shifts past the width 0 or the sign), IEEE f32 and f64
 *     without contraction, conversions and GLSL.std.450 through the
 *     interpreter's own element kernels (cvm_convert_array,
 *     cvm_glsl_eval_lane), OpDot's NaN results by the interpreter's own
 *     code (cvm_dot_eval_lane), Function and Private variables zeroed (or a
 *     Private one set to its initializer) at the start of each invocation,
 *     a callee's Function variables kept between its calls (the
 *     interpreter clears them only when the workgroup starts), the
 *     interpreter's call-depth limit;
 *   - memory: each access checked against its region; one out of bounds
 *     goes through cvm_mem_access, so it fails with the same message, or in
 *     robust mode reads zero and drops the store;
 *   - the instruction budget, charged per block executed by an invocation,
 *     a subgroup's instruction being sg_size of those (coopvm.h
 *     instruction_budget).
 * What differs: a failing dispatch stops at the first invocation (in
 * LocalInvocationIndex order) that fails, where the interpreter stops at
 * the first instruction any invocation of the workgroup fails; the
 * workgroup's earlier invocations have run to their end by then. */
#ifndef CVM_EXEC_JIT_H
#define CVM_EXEC_JIT_H

#include "exec/program.h"

typedef struct cvm_jit cvm_jit;

/* 1 when this build has the compiled tier (CVM_HAVE_LLVM). */
int cvm_jit_available(void);

/* cvm_jit_compile's `opts`: CVM_JIT_FASTER_ONLY leaves out, as not taken,
 * the forms measured slower than the interpreter: the scope form's
 * divergent selections and loops (below), which run their instructions by
 * their handlers one by one under masks (tests/shaders/scope_loops.opt.spv
 * at 20,000 workgroups on one thread: 0.57 s compiled, 0.40 s
 * interpreted), and its cooperative-vector shaders, for the same reason
 * (bench_coopvec_mlp's shader with its early return made an if, 1,024
 * workgroups on one thread, five runs: 0.22-0.27 s compiled, 0.11-0.25 s
 * interpreted, wall).  The tier choice by size (api.c dispatch_jit)
 * passes it; CVM_FLAG_JIT and compared tiers do not. */
#define CVM_JIT_FASTER_ONLY 1u

/* Compiles the entry point of `prog` (which must outlive the result).
 * CVM_SUCCESS with *o_jit; CVM_ERROR_UNSUPPORTED with a diagnostic naming
 * what the compiled tier does not take (the interpreter then runs the
 * shader: not an error for the dispatch); CVM_ERROR_OUT_OF_MEMORY. */
cvm_result cvm_jit_compile(const cvm_program *prog, uint32_t opts, cvm_jit **o_jit,
                           cvm_diagnostic *diag);
void cvm_jit_destroy(cvm_jit *j);

/* The scope form.  An entry point that holds cooperative-matrix
 * instructions, or values of a cooperative-vector type (whose instructions
 * then run by their handlers over the whole group, as below, so that their
 * matrix products stay one product for the group), is compiled, when it
 * can be, into code that runs once per workgroup, as its lane 0, with the
 * interpreter's state around it:
 *
 *   - each branch condition and switch selector must be uniform
 *     (exec/uniform.h), so that every block is one all invocations run
 *     together, but for selections (if/else) on a value that differs
 *     between invocations whose arms hold no loop and leave only through
 *     the merge block, and loops whose exits (at the loop's own level, to
 *     its merge block) do so: each arm then runs with the lanes that take
 *     it active (skipped when none does), each iteration of such a loop
 *     with the lanes still in it, nested ones within, as the interpreter
 *     schedules them (jit_scope.c mark_divergent); a barrier is taken,
 *     OpKill and calls are not;
 *   - the code computes the uniform values itself, once (what the uniform
 *     instructions compute, for one lane, in the interpreter), and keeps
 *     the uniform Function variables;
 *   - an instruction whose value differs between invocations (a built-in
 *     such as LocalInvocationIndex, a load of an invocation's own Function
 *     variable or element of a matrix, a subgroup instruction, an atomic)
 *     runs by its handler over the whole group, every lane active, as the
 *     interpreter runs it; its operands and result stay in the value slots
 *     (one per lane) and its phis are moved on the edges as the matrices'
 *     are (cvm_jit_scope_lanes);
 *   - a cooperative-matrix instruction runs by its interpreter handler over
 *     the whole group (cvm_insn.fn with every lane active: once per scope
 *     instance), after the code writes the uniform operands it holds to
 *     their value slots (stride 0); a uniform instruction the code does
 *     not translate (tensor layouts, Workgroup memory, ...) runs by its
 *     handler for lane 0, as run_uniform runs it;
 *   - matrices and other values the code does not hold stay in the
 *     interpreter's slots and memory; their phis are moved on each edge,
 *     a parallel copy as the interpreter's;
 *   - a whole-matrix load of a Function variable that may alias it
 *     (CVM_INSN_ALIAS), and a store to one, are done inline where the
 *     group already knows the variable's slot (cvm_exec.mvar_slots): what
 *     their handlers do then (point the result's slot at the variable;
 *     nothing, for a value already there); else the handler runs.
 * Which is the interpreter's execution exactly: the same handlers, in the
 * same order, on the same values, with the per-lane bookkeeping between
 * them compiled.  The instruction budget is charged as the interpreter
 * charges it (a block's instructions once per group, in subgroup
 * instructions).  cvm_group_run prepares the group as for the interpreter
 * (memory, built-ins, the entry point's frame) before it runs the code.
 * Returns 1 when `j` (compiled code of cvm_jit_compile, or NULL: 0) is in
 * this form. */
int cvm_jit_scope_form(const cvm_jit *j);

/* 1 when `j` is in the scope form and runs instructions of values that
 * differ between invocations (above): the group then sets up its lanes as
 * the interpreter does (per-invocation memory cleared, built-ins written)
 * before the code runs. */
int cvm_jit_scope_lanes(const cvm_jit *j);

/* The collective form.  An entry point with OpControlBarrier, subgroup
 * instructions (the grammar's Non-Uniform and Group classes) or Workgroup
 * variables, and no cooperative-matrix instruction, is compiled, when it
 * can be, into one coroutine per invocation (LLVM's switched-resume
 * coroutines) that runs the invocation as the first form does, and
 * suspends at each barrier and subgroup instruction:
 *
 *   - taken only where every such instruction is in the entry point's
 *     own blocks, or in a called function's convergent blocks reached by
 *     calls every invocation still running makes together (convergent
 *     blocks of the entry point and of each caller: inlined, they wait as
 *     the entry point's own do; the entry point's frame holds their
 *     operands' slots, interp.c callee_collective_ids).  When every subgroup instruction is in
 *     a convergent block (exec/uniform.h: every invocation still running
 *     reaches it together, as many times) or, of Subgroup scope, in a block
 *     convergent within each subgroup (cvm_block.convergent_sg: a branch on
 *     gl_SubgroupID lets whole subgroups in), the invocations waiting there
 *     together are the interpreter's active lanes for it: all that still
 *     run (of the subgroups that came; the runner runs it for each subgroup
 *     whose every running invocation waits at it).  A barrier may be in any
 *     block (the texts ask that all invocations reach it together, which
 *     the analysis cannot always show): invocations that do not all wait
 *     at the same one fail the dispatch with CVM_ERROR_DIVERGENT_COLLECTIVE,
 *     as the interpreter's barrier does;
 *   - otherwise (a subgroup instruction in a block invocations may reach
 *     apart: a branch on data, a loop whose trip count differs, after a
 *     `continue`) the form is block-ordered: invocations also suspend at
 *     the start of the entry point's blocks that are not convergent and
 *     hold a collective instruction or end in a loop's back edge, and the
 *     runner follows the interpreter's schedule over those (the lowest
 *     block any invocation waits at runs next, with exactly those that
 *     wait there), so each collective instruction runs over the lanes the
 *     interpreter has active there (jit_collective.c ordered_waits says
 *     why the other blocks need no wait);
 *   - once they all wait at one, a subgroup instruction runs by its
 *     interpreter handler over them (cvm_insn.fn, every waiting lane
 *     active), its operands written by each lane to their value slots
 *     before it suspends and its result read back after; a barrier runs its
 *     handler's check; then each lane is resumed in turn, lowest index
 *     first, to its next one or its end;
 *   - Workgroup variables are the group's memory (CVM_REGION_WORKGROUP),
 *     cleared and initialized as for the interpreter.
 * Between two barriers invocations run one after the other here and side
 * by side in the interpreter: what one reads of another's writes there
 * could differ between the tiers, which a data race in the Vulkan memory
 * model leaves undefined anyway.  cvm_group_run prepares the group as for
 * the interpreter (memory, built-ins, the entry point's frame) before it
 * runs the code.  Returns 1 when `j` (NULL: 0) is in this form. */
int cvm_jit_collective_form(const cvm_jit *j);

/* Runs every invocation of the workgroup `ex` describes (regions, flags,
 * group_id, num_groups, nlanes, sg_size, diag set as cvm_group_run sets
 * them).  *budget_local is the group's instructions taken from the shared
 * budget ex->budget and not yet used, in subgroup instructions; unused ones
 * stay there.  Returns CVM_SUCCESS or the failure, with ex->diag set. */
cvm_result cvm_jit_run_group(const cvm_jit *j, cvm_exec *ex, uint64_t *budget_local);

/* ---- leaf callbacks ----------------------------------------------------------
 * A leaf function (exec.h cvm_function.leaf: one block of pure instructions,
 * loads and its own Function variables, ending in OpReturnValue) called as a
 * DecodeFunc, DecodeVectorFunc, per-element or reduction function, compiled
 * into code that makes a batch of calls (cvm_callback_run's arguments) one
 * after the other.  It takes what the entry point's translation takes, and
 * also the parameters' values, pointer parameters (any
 * address: buffers through their device address included) and arrays of
 * scalars as parameters (OpCompositeExtract of an element).  A leaf reads no
 * per-invocation state and runs no barrier, so its calls are independent;
 * the results are the interpreter's bit for bit, and an access out of bounds
 * fails through cvm_mem_access with the interpreter's message (robust mode:
 * zero, dropped). */
typedef struct cvm_jit_leaves cvm_jit_leaves;

/* The leaf functions of `prog` (which must outlive the result), not yet
 * compiled; NULL when it has none or the build has no compiled tier.  The
 * pipeline owns it; all its dispatches and threads share it. */
cvm_jit_leaves *cvm_jit_leaves_create(const cvm_program *prog);
void cvm_jit_leaves_destroy(cvm_jit_leaves *lv);

/* 1 when calls of leaf function `func` can run compiled in `ex` (a
 * callback group), counting `calls` more calls: once the pipeline's count
 * reaches CVM_JIT_LEAF_MIN_CALLS (at once with `eager`, CVM_FLAG_JIT), each
 * leaf is compiled by one thread at its first call after that, in the form
 * the call needs (a batch of calls here; a tile, cvm_jit_tile_ready), each
 * form a module of its own.  0: run them interpreted (not compiled yet,
 * another thread compiling, or a function the tier does not take). */
int cvm_jit_leaf_ready(cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func, uint64_t calls,
                       int eager);

/* Runs `count` calls of `func` (after cvm_jit_leaf_ready said 1): call i's
 * parameter k at args[k].p + i * args[k].stride, its result to
 * results + i * (the return type's register size).  CVM_SUCCESS, or the
 * failure of the first call that fails, with ex->diag set. */
cvm_result cvm_jit_run_leaf(cvm_jit_leaves *lv, cvm_exec *ex, uint32_t func, uint32_t count,
                            const cvm_val *args, uint8_t *results);

/* For the tile form of DecodeFunc `func` (cvm_decode_tile, exec.h), once
 * the leaves are worth compiling (cvm_jit_leaf_ready's count, to which the
 * tile's `calls` are added, or `eager`):
 * 2 when the form without a check per access runs it (every access of
 * every call in bounds, from the accesses' known ranges), 1 when the form
 * with checks does, 0 when neither (not compiled yet, another thread
 * compiling, not taken).  Each form is compiled at its first need. */
int cvm_jit_tile_ready(cvm_jit_leaves *lv, const cvm_exec *ex, uint32_t func,
                       const cvm_decode_tile *tile, uint64_t calls, int eager);

/* Runs the calls of `tile` with the form cvm_jit_tile_ready chose (`how`),
 * call k's result to mat + k * (the return type's register size).
 * CVM_SUCCESS, or the failure of the first call that fails (its number in
 * the message is k % CVM_CALLBACK_BATCH, the interpreter's lane in its
 * batch). */
cvm_result cvm_jit_run_tile(cvm_jit_leaves *lv, cvm_exec *ex, uint32_t func, int how,
                            const cvm_decode_tile *tile, uint8_t *mat);

/* What happened to the leaves of `lv` (NULL: all zero) so far: how many
 * there are, how many have compiled code, how many the tier did not take
 * (a batch or tile form it could not translate), and why for the first of
 * those by function index (*o_why untouched when none). */
void cvm_jit_leaves_report(cvm_jit_leaves *lv, uint32_t *o_functions, uint32_t *o_compiled,
                           uint32_t *o_not_taken, cvm_diagnostic *o_why);

/* Test hook: the workgroups run compiled so far (all threads), to show that
 * a test took the compiled tier. */
uint64_t cvm_test_jit_groups(void);
/* ... of them, those run in the collective form (the fuzz harnesses' race
 * filter tells its differences apart) */
uint64_t cvm_test_jit_collective_groups(void);
/* Test hooks: the leaf batches run compiled so far (all threads), and the
 * leaf forms compiled so far (all pipelines). */
uint64_t cvm_test_jit_leaf_batches(void);
/* ... of them, those run as a DecodeFunc over a tile (cvm_jit_run_tile) */
uint64_t cvm_test_jit_tile_batches(void);
/* ... of those, the ones whose tile was found in bounds beforehand and ran
 * without a check per access */
uint64_t cvm_test_jit_unchecked_batches(void);
uint32_t cvm_test_jit_forms_compiled(void);

#endif /* CVM_EXEC_JIT_H */
