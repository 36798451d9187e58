/* Building a cvm_program from a module for one pipeline (lower.c), and the
 * per-group interpreter (interp.c). */
#ifndef CVM_EXEC_PROGRAM_H
#define CVM_EXEC_PROGRAM_H

#include "exec/exec.h"

/* Lowers the entry point `entry_name` (NULL: the only GLCompute one) of
 * `mod` with the given specialization constants, for dispatches at subgroup
 * size `sg_size` (0: CVM_DEFAULT_SUBGROUP_SIZE), which a specialization
 * constant computed by OpCooperativeMatrixLength{KHR,NV} of a
 * subgroup-scope matrix depends on.  cvm_program_build: sg_size 0. */
cvm_result cvm_program_build_sg(const spv_module *mod, const char *entry_name,
                                const cvm_specialization *specs, uint32_t nspecs,
                                uint32_t sg_size, cvm_program **o_prog, cvm_diagnostic *diag);
cvm_result cvm_program_build(const spv_module *mod, const char *entry_name,
                             const cvm_specialization *specs, uint32_t nspecs,
                             cvm_program **o_prog, cvm_diagnostic *diag);
/* The subgroup size the program is lowered for (cvm_program_build_sg). */
uint32_t cvm_lower_subgroup_size(const cvm_lower *lw);
void cvm_program_destroy(cvm_program *prog);

/* Value slot layout of a function's frame: per local id, byte offset into the
 * frame's register storage and the stride (per lane or per scope instance). */
typedef struct cvm_frame {
    uint32_t func;
    cvm_val *vals;         /* [bound]: globals shared, locals into `regs` */
    uint8_t *regs;
    size_t regs_size;
    uint32_t *cur_block;   /* per lane */
    uint32_t *prev_block;  /* per lane */
    uint8_t *active;       /* per lane */
    uint8_t *call_mask;    /* per lane, scratch for calls */
} cvm_frame;

/* A group: the lanes of one workgroup (or one callback batch), with its
 * frames and memory.  Created once per worker thread and reused for every
 * workgroup it runs. */
typedef struct cvm_group cvm_group;

typedef struct cvm_group_desc {
    uint32_t nlanes;
    uint32_t sg_size;
    uint32_t flags;
    uint32_t max_depth;
    uint64_t memory_limit;
    /* The context's address-only buffers (CVM_REGION_FIRST_DEVICE on),
     * owned by the caller and alive while the group runs. */
    const cvm_region *device_regions;
    uint32_t ndevice_regions;
    /* Non-NULL: cvm_group_run runs the workgroup's invocations through this
     * compiled code (exec/jit/jit.h) instead of interpreting them. */
    const struct cvm_jit *jit;
    /* Non-NULL: leaf callbacks may run compiled (exec/jit/jit.h), owned by
     * the pipeline. */
    struct cvm_jit_leaves *leaves;
} cvm_group_desc;

cvm_result cvm_group_create(const cvm_program *prog, const cvm_group_desc *desc,
                            cvm_region *buffer_regions, uint32_t nbuffer_regions,
                            const uint8_t *push, uint32_t push_size, cvm_group **o_group,
                            cvm_diagnostic *diag);
void cvm_group_destroy(cvm_group *g);
/* Adds the events `g` and its callback groups counted so far
 * (cvm_exec.counts) to io_counts: what a dispatch's workers ran. */
void cvm_group_add_counts(const cvm_group *g, uint64_t io_counts[CVM_COUNT_N]);

/* Runs one workgroup of the entry point. */
cvm_result cvm_group_run(cvm_group *g, const uint32_t group_id[3], const uint32_t num_groups[3],
                         uint64_t *budget, cvm_diagnostic *diag);

/* Runs function `func` (index) as a callback over `nlanes` lanes of an
 * existing exec (the lanes are matrix elements); the caller fills the
 * parameters through cvm_callback_param and reads the result through
 * cvm_callback_result. */
cvm_exec *cvm_group_exec(cvm_group *g);
/* The compiled code the group's next workgroups run (cvm_group_desc.jit;
 * NULL: interpreted), for a dispatch whose shader's code became ready while
 * it ran: each workgroup runs whole on one tier or the other. */
void cvm_group_set_jit(cvm_group *g, const struct cvm_jit *jit);

/* Lowering pieces shared between lower.c and interp.c. */
cvm_result cvm_lower_control(cvm_lower *lw, const spv_inst *in, cvm_insn *out);
uint32_t cvm_lower_block_index(const cvm_lower *lw, uint32_t label);
/* Evaluates OpSpecConstantOp `in` into `dst` (register layout of its type). */
cvm_result cvm_eval_spec_op(cvm_lower *lw, const spv_inst *in, uint8_t *dst);
/* Allocates a variable of `size` bytes in per-invocation memory, or per-scope
 * memory when `scope` is 1 (subgroup) or 2 (workgroup); records it for `id`. */
cvm_result cvm_lower_alloc_variable(cvm_lower *lw, uint32_t id, uint64_t size, int scope);

#endif /* CVM_EXEC_PROGRAM_H */
