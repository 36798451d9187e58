/*
 * The engine: a module lowered for one pipeline (specialization applied) into
 * internal instructions, and the SIMT interpreter state that runs them.
 *
 * Execution model (ARCHITECTURE.md "The engine", with one change: a whole
 * workgroup runs in lockstep as one group of lanes rather than subgroup by
 * subgroup, so OpControlBarrier needs no coroutines: it only checks that
 * every live invocation reached it together).
 *
 *   group     all invocations of one workgroup (or, for callbacks, one batch
 *             of matrix elements); `nlanes` lanes, lane l belongs to subgroup
 *             l / sg_size.
 *   value     every SPIR-V id with a value has a cvm_val slot in the frame of
 *             its function: lane l's value is at p + l * stride, in the
 *             register layout of its type (packed natural layout, see
 *             cvm_type).  Constants have stride 0.  Cooperative matrices are
 *             values of their scope: one dense row-major array per scope
 *             instance (subgroup, or the one workgroup), instance i at
 *             p + i * stride.  Arrays and structs are per lane even when
 *             they hold matrices (each lane a whole copy: ops/composite.c
 *             moves matrices in and out of them).
 *   pointer   a 64-bit address: region index in the high 24 bits, byte offset
 *             in the low 40 (CVM_ADDR).  Regions: bound buffers (whose
 *             addresses are also their PhysicalStorageBuffer device
 *             addresses), push constants, workgroup memory, per-invocation
 *             memory (Function, Private, Input), per-scope memory (variables
 *             holding cooperative matrices).  Every access is checked against
 *             its region.
 *   handler   each internal instruction carries the function that runs it
 *             over the active lanes; families of handlers live in ops/.
 */
#ifndef CVM_EXEC_H
#define CVM_EXEC_H

#include <stdint.h>
#include <string.h>

#include "cvm_common.h"
#include "numeric/numeric.h"
#include "spirv/module.h"

/* ---- addresses ---------------------------------------------------------- */

#define CVM_ADDR_OFFSET_BITS 40
#define CVM_ADDR(region, offset) (((uint64_t)(region) << CVM_ADDR_OFFSET_BITS) | (uint64_t)(offset))
#define CVM_ADDR_REGION(a) ((uint32_t)((a) >> CVM_ADDR_OFFSET_BITS))
#define CVM_ADDR_OFFSET(a) ((a) & ((UINT64_C(1) << CVM_ADDR_OFFSET_BITS) - 1))

enum {
    CVM_REGION_NULL = 0,
    CVM_REGION_INVOCATION = 1, /* Function, Private, Input: lane l's slice at l * inv_size */
    CVM_REGION_WORKGROUP = 2,
    CVM_REGION_SCOPE = 3,      /* variables that hold cooperative matrices */
    CVM_REGION_PUSH = 4,
    CVM_REGION_PADDING = 5,    /* 8 bytes a lane: where padding elements of matrices go */
    /* In a callback group only: the calling group's per-invocation and
     * per-scope memory, where module-scope Private and Input variables of a
     * callback resolve (see cvm_callback_run). */
    CVM_REGION_CALLER_INVOCATION = 6,
    CVM_REGION_CALLER_SCOPE = 7,
    /* Function variables kept lane by lane in one array each (exec/uniform.h
     * CVM_UNIFORM_DENSE): variable v's copy for lane l at
     * var_doff[v] * nlanes + l * its size */
    CVM_REGION_LANE_VARS = 8,
    CVM_REGION_FIRST_BUFFER = 16, /* descriptor k of the pipeline is region 16 + k */
    /* Buffers of the context that no descriptor needs to name
     * (cvm_buffer_create): buffer k is region CVM_REGION_FIRST_DEVICE + k,
     * the same number in every pipeline, so its device address is fixed. */
    CVM_REGION_FIRST_DEVICE = 1 << 20
};

typedef struct cvm_region {
    uint8_t *base;
    uint64_t size;
    uint8_t writable;
} cvm_region;

/* ---- types (resolved for one pipeline) ---------------------------------- */

typedef enum cvm_type_class {
    CVM_TC_NONE = 0, /* not a type, or OpTypeVoid */
    CVM_TC_BOOL,
    CVM_TC_INT,
    CVM_TC_FLOAT,
    CVM_TC_VECTOR,
    CVM_TC_MATRIX,   /* OpTypeMatrix: columns of vectors */
    CVM_TC_ARRAY,    /* OpTypeArray and OpTypeRuntimeArray (count 0) */
    CVM_TC_STRUCT,
    CVM_TC_POINTER,  /* also untyped / forward pointers */
    CVM_TC_FUNCTION,
    CVM_TC_COOPMAT,  /* OpTypeCooperativeMatrixKHR, and OpTypeCooperativeMatrixNV (use NONE) */
    CVM_TC_TENSOR_LAYOUT,
    CVM_TC_TENSOR_VIEW,
    CVM_TC_OPAQUE    /* sampler, image... (unsupported in execution) */
} cvm_type_class;

/* Register size of a tensor layout or view value (see ops/tensor_layout.h,
 * whose structs must fit: checked there).  Every load, store and copy of
 * such a value moves this many bytes per invocation, so it is no larger
 * than they need. */
#define CVM_TENSOR_VALUE_SIZE 128

/* Cooperative matrix Use (SPIR-V CooperativeMatrixUse); CVM_USE_NONE for
 * the matrices of SPV_NV_cooperative_matrix (OpTypeCooperativeMatrixNV),
 * which have none. */
enum { CVM_USE_A = 0, CVM_USE_B = 1, CVM_USE_ACC = 2, CVM_USE_NONE = 3 };

typedef struct cvm_type {
    uint8_t tclass;          /* cvm_type_class */
    uint8_t sk;              /* cvm_scalar_kind of the scalar, or of the components */
    uint8_t storage_class;   /* pointers: SpvStorageClass (values < 256 are remapped:
                                see cvm_storage) */
    uint8_t has_layout;      /* explicit Offset/ArrayStride decorations present */
    uint8_t coopvec;         /* a CVM_TC_VECTOR declared by OpTypeCooperativeVectorNV (opcode
                                5288, also OpTypeVectorIdEXT) in a module with the
                                CooperativeVectorNV capability: a vector in every
                                element-wise instruction, with the rules of ops/coopvec.c */
    uint32_t elem;           /* vector/array/matrix/coopmat component type id; pointer pointee */
    uint32_t count;          /* vector components, array length (0 runtime), matrix columns */
    uint32_t size;           /* register layout size in bytes (per lane / per instance) */
    uint32_t align;
    uint32_t mem_size;       /* memory layout size (explicit layout if has_layout) */
    uint32_t array_stride;   /* memory layout stride of an array, or of a runtime array */
    uint32_t *member_types;  /* struct members */
    uint32_t *member_offsets;     /* register layout offsets */
    uint32_t *member_mem_offsets; /* memory layout offsets (Offset decorations) */
    uint32_t nmembers;
    /* cooperative matrices (OpTypeCooperativeMatrixKHR), after specialization */
    uint32_t rows, cols;
    uint32_t scope; /* SpvScope: Subgroup (3) or Workgroup (2) */
    uint32_t use;   /* CVM_USE_* */
    /* tensor layout / view */
    uint32_t dim, clamp_mode, has_dimensions, permutation[5];
    /* Memory layout of matrices.  A matrix type's own layout is columns
     * packed one after the other (matrix_stride = a column's memory size).
     * A struct member decorated MatrixStride or RowMajor gets a variant of
     * its type (lower.c, ids past the module's bound) with that layout and
     * the same register layout; access chains through the member carry the
     * variant to the loads and stores they feed. */
    uint32_t matrix_stride; /* MATRIX: bytes between columns, or between rows when row_major */
    uint8_t row_major;      /* MATRIX */
    uint32_t mem_elem;      /* MATRIX: the type a column has in memory (a strided vector
                               variant when row_major, else elem) */
    uint32_t comp_stride;   /* VECTOR: bytes between components in memory, 0 when packed
                               (a column of a row-major matrix) */
} cvm_type;

/* ---- internal instructions ---------------------------------------------- */

struct cvm_exec;
struct cvm_insn;
typedef cvm_result (*cvm_handler)(struct cvm_exec *ex, const struct cvm_insn *in);

/* Control-flow kinds the interpreter runs itself (handler NULL). */
typedef enum cvm_cf_kind {
    CVM_CF_NONE = 0,
    CVM_CF_BRANCH,       /* a = target block index */
    CVM_CF_BRANCH_COND,  /* a = condition id, b = true block, c = false block */
    CVM_CF_SWITCH,       /* a = selector id, b = default block, extra = (literal, block) pairs */
    CVM_CF_RETURN,
    CVM_CF_RETURN_VALUE, /* a = value id */
    CVM_CF_KILL,         /* OpKill, OpTerminateInvocation, OpUnreachable: the lane ends */
    CVM_CF_CALL,         /* result, a = function index, extra = argument ids */
    CVM_CF_PHI           /* result, extra = (value id, block index) pairs */
} cvm_cf_kind;

typedef struct cvm_insn {
    cvm_handler fn;     /* NULL for control flow (cf != 0) and no-ops */
    uint8_t cf;         /* cvm_cf_kind */
    uint8_t sk;         /* scalar kind the handler works on (result or operand) */
    uint8_t sk2;        /* a second scalar kind (conversions: the source) */
    uint8_t flags;      /* CVM_INSN_* */
    uint32_t ncomp;     /* components per lane value (vector size; 1 for scalars) */
    uint32_t result;    /* result id, 0 if none */
    uint32_t type;      /* result type id */
    uint32_t a, b, c, d;/* operand ids or literals, per handler */
    uint32_t extra;     /* index into cvm_program.extra of further operands */
    uint32_t nextra;
    uint32_t spv_op;    /* the SPIR-V opcode, for diagnostics */
    uint32_t word_off;  /* the instruction's word offset in the module */
} cvm_insn;

/* Flags. */
#define CVM_INSN_PER_INSTANCE 0x01 /* operates on cooperative-matrix values per scope instance */
#define CVM_INSN_WORKGROUP_SCOPE 0x02 /* that scope is the workgroup (else the subgroup) */
/* OpLoad whose result may alias the variable's memory instead of a copy: of
 * a whole cooperative matrix (ops/memory.c load_may_alias says when), or of
 * a dense Function variable (exec/uniform.h CVM_UNIFORM_ALIAS).  On a
 * MulAdd or a cooperative-matrix load (OpCooperativeMatrixLoadKHR/NV, and
 * OpCooperativeMatrixLoadTensorNV): its result may be written straight into
 * the variable the next instruction stores it to
 * (cvm_lower_result_to_variable; the variable's id is the one extra operand
 * of a MulAdd or KHR/NV load, and extra word TX_ALIAS_VAR of a tensor
 * load, ops/tensor_ops.c). */
#define CVM_INSN_ALIAS 0x04
/* Computes a value equal in every lane, or stores one to memory every lane
 * addresses alike (exec/uniform.h): runs for one active lane, its result
 * slot has stride 0.  Ignored on the reference paths. */
#define CVM_INSN_UNIFORM 0x08

typedef struct cvm_block {
    uint32_t label;       /* SPIR-V id of the OpLabel */
    uint32_t first, count;/* its instructions in cvm_program.insns (phis first) */
    /* What running the block charges to the instruction budget: one per
     * instruction, plus, for an instruction on large values, one per
     * CVM_BUDGET_VALUE_BYTES bytes of its largest value and one per
     * CVM_BUDGET_MACS multiply-adds of a matrix product (lower.c
     * insn_cost), so that the budget bounds the work of a dispatch and not
     * only its instruction count.  Both tiers charge it. */
    uint64_t cost;
    /* 1 when every invocation still running the function runs the block
     * together, the same number of times (exec/uniform.h: a convergent
     * block); 0 when not, or not known */
    uint8_t convergent;
    /* ... every invocation of a subgroup still running it (a branch on a
     * value equal within each subgroup, such as gl_SubgroupID, lets some
     * subgroups in and keeps the others out whole): cvm_uniform_analyze_subgroup */
    uint8_t convergent_sg;
    /* 1 when no invocation can reach it, the constants known
     * (exec/uniform.h cvm_uniform_dead_blocks): the compiled tier does not
     * translate it */
    uint8_t dead;
} cvm_block;

typedef struct cvm_function {
    uint32_t id;          /* SPIR-V function id */
    uint32_t return_type;
    uint32_t *params;     /* parameter ids */
    uint32_t nparams;
    cvm_block *blocks;    /* in structured order: index 0 is the entry */
    uint32_t nblocks;
    uint32_t *local_ids;  /* ids whose values live in this function's frame */
    uint32_t nlocal_ids;
    uint32_t lowered;
    uint32_t writes_private; /* it or a function it calls may store to Private memory */
    /* Per-invocation memory of its Function variables and those of the
     * functions it calls: [fvar_lo, fvar_hi) of a lane's slice (empty when
     * lo >= hi).  A callback batch clears only that. */
    uint64_t fvar_lo, fvar_hi;
    /* A leaf: one block ending in OpReturnValue of pure instructions
     * (arithmetic, logic, conversions, composites, access chains,
     * GLSL.std.450: exec/uniform.h cvm_uniform_pure_operands), loads, and
     * stores to its own dense or uniform Function variables, naming only its
     * parameters, constants, earlier results, those variables and
     * module-scope variables every lane addresses alike (a CombineFunc such
     * as max or +, a per-element function such as x / l, a DecodeFunc that
     * reads its block through the pointer it is given).  Its calls need no
     * caller context and its variables no clearing (each is written before
     * it is read), so a callback runs each instruction's handler over a
     * whole batch with the arguments and results in place
     * (cvm_callback_run). */
    uint32_t leaf;
} cvm_function;

/* A pipeline's program: everything the interpreter needs, nothing of SPIR-V
 * words. */
typedef struct cvm_program {
    const spv_module *mod;
    uint32_t bound;
    cvm_type *types;        /* indexed by id; tclass NONE for non-types; ids from bound
                               to ntypes are layout variants (see cvm_type) */
    uint32_t ntypes;
    uint8_t *const_data;    /* values of constants (register layout) */
    uint64_t *const_offset; /* per id: offset into const_data, or UINT64_MAX */
    cvm_insn *insns;
    uint32_t ninsns, insns_cap;
    uint32_t *extra;
    uint32_t nextra, extra_cap;
    cvm_function *funcs;
    uint32_t nfuncs;
    uint32_t *func_index;   /* id -> index into funcs, UINT32_MAX if none */
    uint32_t entry;         /* index of the entry point function */
    uint32_t local_size[3];
    uint32_t sg_size;       /* the subgroup size it is lowered for (cvm_program_build_sg) */
    /* variables */
    uint64_t inv_size;      /* bytes of per-invocation memory per lane */
    uint64_t wg_size;       /* bytes of workgroup memory */
    uint64_t scope_size;    /* bytes of per-scope-instance memory */
    uint64_t *var_offset;   /* per id: offset in its region (variables) */
    uint8_t *var_region;    /* per id: CVM_REGION_* or descriptor slot marker */
    /* descriptors the shader uses */
    struct cvm_descriptor *descs;
    uint32_t ndescs;
    uint32_t push_size;     /* bytes of the push constant block, 0 if none */
    /* built-in Input variables: (variable id, SpvBuiltIn) */
    uint32_t *builtin_vars, *builtin_kinds;
    uint32_t nbuiltins;
    uint32_t glsl_ext;      /* id of the GLSL.std.450 import, 0 if none */
    /* module-scope Private and Workgroup variables with an initializer,
     * (variable id, constant id) pairs: set at the start of each workgroup
     * (register layout constant -> memory layout of the variable's type) */
    uint32_t *init_vars;
    uint32_t ninit_vars;
    /* exec/uniform.h: per id, 1 when its value is computed once
     * (CVM_INSN_UNIFORM) into a slot of stride 0; per Function variable,
     * the offset of its one copy for the group in the SCOPE region (the
     * workgroup-scope part), UINT64_MAX when every lane has its own.  The
     * reference paths use neither. */
    uint8_t *uniform;
    uint64_t *var_uoffset;
    /* Per Function variable kept as a dense array (CVM_REGION_LANE_VARS):
     * its offset per lane, UINT64_MAX when not; dense_size the sum. */
    uint64_t *var_doff;
    uint64_t dense_size;
} cvm_program;

typedef struct cvm_descriptor {
    uint32_t set, binding, array_size; /* array_size 1 for a plain binding */
    uint32_t var;                      /* the OpVariable id */
    uint32_t storage_class;
    uint32_t first_region;             /* region index of element 0 */
} cvm_descriptor;

/* ---- execution state ----------------------------------------------------- */

typedef struct cvm_val {
    uint8_t *p;
    uint32_t stride; /* bytes between lanes (or scope instances); 0 uniform */
} cvm_val;

typedef struct cvm_frame cvm_frame;

/* Where a cooperative-matrix variable's copies lie as a value slot, for
 * accesses of `size` bytes at the scope `wg` says (cvm_exec.mvar_slots). */
typedef struct cvm_mvar_slot {
    cvm_val slot;
    uint32_t size;
    uint32_t wg;
} cvm_mvar_slot;

/* Events the test hooks count (cvm_test_leaf_batches, cvm_test_jit_groups
 * and the like).  Each exec counts its own in cvm_exec.counts and
 * cvm_group_destroy adds them to the process's totals: no cache line shared
 * by the workers is written per event (sixteen threads incrementing one
 * counter per callback batch took milliseconds of a dispatch). */
typedef enum cvm_count {
    CVM_COUNT_LEAF_BATCHES,     /* leaf-function call batches, either tier */
    CVM_COUNT_SPLIT_DECODES,    /* DecodeFunc loads through the split plan */
    CVM_COUNT_JIT_GROUPS,       /* workgroups run compiled */
    CVM_COUNT_JIT_LEAF_BATCHES, /* leaf batches run compiled */
    CVM_COUNT_JIT_TILE_BATCHES, /* ... of them over a DecodeFunc tile */
    CVM_COUNT_JIT_UNCHECKED,    /* ... of those without a check per access */
    CVM_COUNT_JIT_COLLECTIVE,   /* workgroups run compiled in the collective form */
    CVM_COUNT_N
} cvm_count;
/* The process's total of `k`: every destroyed group's counts (interp.c). */
uint64_t cvm_count_total(cvm_count k);

/* NV-CV.Matrix-Unmodified (SPV_NV_cooperative_vector: the matrix and bias
 * of OpCooperativeVectorMatrixMul(Add)NV are read "as if ... the memory
 * object were NonWritable and Restrict.  This means the matrix and bias
 * values must not be modified while a shader might be using them"): in
 * the checking mode (CVM_FLAG_CHECK_CALLBACKS) each group logs the bytes
 * those instructions read, and the dispatch compares them with a copy of
 * the buffers made before it ran (exec/read_log.c). */
typedef struct cvm_read_range {
    uint32_t region;   /* a buffer region (>= CVM_REGION_FIRST_BUFFER) */
    uint32_t bias;     /* 1: read as a bias, 0: as a matrix */
    uint32_t word_off; /* the instruction that read it */
    uint32_t spv_op;
    uint64_t lo, hi;   /* byte offsets [lo, hi) in the region */
} cvm_read_range;

typedef struct cvm_read_log {
    cvm_read_range *r;
    uint32_t n, cap;
    int oom; /* a range could not be kept: the check is incomplete */
} cvm_read_log;


typedef struct cvm_exec {
    const cvm_program *prog;
    struct cvm_dispatch *dispatch; /* pipeline-level state (callbacks, flags), may be NULL */
    uint32_t nlanes;
    uint32_t sg_size;
    uint32_t nsub;          /* subgroups: ceil(nlanes / sg_size) */
    uint8_t *active;        /* per lane: 1 when executing the current instruction */
    uint8_t *alive;         /* per lane: 0 once the invocation ended */
    uint32_t nactive;       /* number of set entries of active */
    cvm_val *vals;          /* value slots of the current frame, indexed by id */
    /* The slots as the frame laid them out (vals may differ from them only
     * where a matrix load aliases its variable: CVM_INSN_ALIAS); NULL
     * outside a frame (specialization constants), where no load aliases. */
    const cvm_val *vals_home;
    cvm_region *regions;
    uint32_t nregions;
    const cvm_region *device_regions; /* region CVM_REGION_FIRST_DEVICE + k, k < ndevice_regions */
    uint32_t ndevice_regions;
    uint64_t *budget;       /* instructions left, shared by the dispatch's groups */
    uint32_t depth;         /* call depth */
    uint32_t max_depth;
    uint32_t flags;         /* cvm_context_flags */
    uint32_t group_id[3];   /* WorkgroupId */
    uint32_t num_groups[3];
    uint32_t is_callback;   /* lanes are matrix elements, not invocations */
    /* Set by a caller whose callbacks' calls were already counted towards
     * compiling leaves (cvm_callback_decode_tile's), for the calls it then
     * makes through cvm_callback_run_elements. */
    uint8_t leaf_calls_counted;
    cvm_diagnostic *diag;
    /* per-function frames, allocated lazily: frames[function index] */
    cvm_frame **frames;
    /* scratch memory for handlers (reset per instruction by whoever uses it) */
    uint8_t *scratch;
    size_t scratch_size;
    /* Debugging (exec/debug.h), NULL when off: where DebugPrintf messages
     * go, and the trace. */
    struct cvm_printf_buf *printf;
    struct cvm_trace *trace;
    /* Callback batches: per lane, the LocalInvocationIndex of the calling
     * workgroup's invocation the call runs for, and the matrix element
     * (row, col; UINT32_MAX when the caller named none); the calling
     * opcode.  NULL in a workgroup's own group, where lane = invocation. */
    const uint32_t *cb_inv, *cb_row, *cb_col;
    uint32_t cb_op;
    /* cvm_matrix_variable_slot's answers with every lane active, per
     * variable id (NULL until the first; slot.p NULL: none yet): in a
     * workgroup's own group a variable's addresses never change, so an
     * answer holds for the group's life (a callback group rebinds its
     * caller's and keeps none).  Freed with the group. */
    cvm_mvar_slot *mvar_slots;
    /* Per instruction, what a MulAdd's handler prepared at its first call
     * (ops/coopmat.c muladd_prep: the descriptor and kernel variant that
     * every call of it reuses); NULL until the first.  Freed with the group. */
    void *mm_plans;
    /* Per instruction, a PerElementOp's row and column of each element
     * (ops/coopmat2_ops.c: rows then cols, rows x cols entries each), made at
     * its first call; NULL until then.  Freed with the group. */
    uint32_t **pe_coords;
    uint64_t counts[CVM_COUNT_N]; /* this exec's, until cvm_group_destroy */
    /* CVM_FLAG_CHECK_CALLBACKS: where the MatMul instructions' reads are
     * logged (set by the dispatch), else NULL */
    cvm_read_log *cv_reads;
    /* What the compiled tier keeps between this group's workgroups (the
     * collective form's coroutine frames), jit_state_size bytes; freed
     * with the group. */
    void *jit_state;
    size_t jit_state_size;
    /* ... and its per-lane handles and places (jit_lanes_size bytes) */
    void *jit_lanes;
    size_t jit_lanes_size;
} cvm_exec;

/* ops/memory.c: the value slot that is the variable pointer value
 * `ptr_id` points to, for a cooperative-matrix instruction `in` (one copy
 * per scope instance at one stride), when every scope instance takes part
 * and the variables are so laid out: 1 with *o_slot set; else 0, with
 * *o_err a failure to report (a divergent collective, an access out of
 * bounds) or CVM_SUCCESS.  Always 0 on the reference paths.  The answer for
 * an OpVariable with every lane active is kept (cvm_exec.mvar_slots). */
/* A matrix conversion that also transposes (ops/convert.c): result element
 * (r,c) is source element (c,r) converted from kind in->sk2 to in->sk as
 * cvm_convert_array does, in->d its saturation flag; shared by the
 * CooperativeMatrixTransposeEXT conversions and OpCooperativeMatrixTransposeNV
 * between component types. */
cvm_result cvm_op_convert_transpose(cvm_exec *ex, const cvm_insn *in);

int cvm_matrix_variable_slot(cvm_exec *ex, const cvm_insn *in, uint32_t ptr_id, uint32_t size,
                             cvm_val *o_slot, cvm_result *o_err);
/* Its earlier answer for variable `ptr_id` (cvm_exec.mvar_slots), 1 with
 * *o_slot; or 0: ask it. */
static inline int cvm_matrix_variable_cached(const cvm_exec *ex, const cvm_insn *in,
                                             uint32_t ptr_id, uint32_t size, cvm_val *o_slot)
{
    if (!ex->mvar_slots || ptr_id >= ex->prog->bound || ex->nactive != ex->nlanes)
        return 0;
    const cvm_mvar_slot *e = &ex->mvar_slots[ptr_id];
    if (!e->slot.p || e->size != size ||
        e->wg != ((in->flags & CVM_INSN_WORKGROUP_SCOPE) != 0))
        return 0;
    *o_slot = e->slot;
    return 1;
}
/* CVM_INSN_ALIAS on a MulAdd or a matrix load (ops/memory.c): points the
 * result's slot at variable `var`, which the next instruction stores it to
 * (that store then copies nothing), when the variable's copies are laid
 * out as a value slot; else back at the result's home slot.  CVM_SUCCESS,
 * or the failure cvm_matrix_variable_slot found. */
/* The search behind it (ops/memory.c): finds the variable's slot and
 * fills the per-variable cache; the inline function below tries the cache
 * first. */
cvm_result cvm_matrix_result_to_variable_find(cvm_exec *ex, const cvm_insn *in, uint32_t var,
                                              uint32_t size);
static inline cvm_result cvm_matrix_result_to_variable(cvm_exec *ex, const cvm_insn *in,
                                                       uint32_t var, uint32_t size)
{
    /* (the variable's slot already known: the usual case in a loop) */
    cvm_val slot;
    if (ex->vals_home && !(ex->flags & CVM_FLAG_REFERENCE_PATHS) &&
        cvm_matrix_variable_cached(ex, in, var, size, &slot)) {
        ex->vals[in->result] = slot;
        return CVM_SUCCESS;
    }
    return cvm_matrix_result_to_variable_find(ex, in, var, size);
}
/* Lowering (ops/memory.c): 1, with *o_var, when the result of `in` is named
 * only by the next instruction, an OpStore of it to Function variable
 * *o_var that only loads and stores name: `in` may then write its result
 * straight into the variable (CVM_INSN_ALIAS on a MulAdd). */
int cvm_lower_result_to_variable(const cvm_program *p, const spv_inst *in, uint32_t *o_var);

/* Test hook: nonzero makes callbacks of leaf functions (cvm_function.leaf)
 * run interpreted, as on the paths that are not leaves, so a test can
 * compare the two with the same kernels; 0 (the default) restores. */
void cvm_test_interpret_leaf_calls(int on);
/* Test hook: nonzero makes the interpreter run a workgroup of a program
 * without collective instructions (cooperative-matrix, barrier, group,
 * non-uniform or derivative ones) one invocation at a time, each to its
 * end, in invocation order: the order the compiled tier's per-invocation
 * form runs them in.  Both are executions the memory model allows; they
 * differ only where invocations race.  fuzz_module_tiers reruns a
 * difference of the tiers this way, to tell a race from a tier bug.  0
 * (the default) restores the lockstep schedule. */
void cvm_test_serial_invocations(int on);
/* Test hook: the leaf batches run so far (all threads), to show that a
 * test took the leaf path. */
uint64_t cvm_test_leaf_batches(void);
/* Test hook: the DecodeFunc loads of scope instances that took the split
 * plan (ops/tensor_ops.c decode_split) so far, all threads. */
uint64_t cvm_test_split_decodes(void);

/* Iterate the lanes that execute the current instruction. */
#define CVM_FOR_ACTIVE(ex, l)                          \
    for (uint32_t l = 0; l < (ex)->nlanes; l++)        \
        if ((ex)->active[l])

/* The lane's value pointer of slot v. */
#define CVM_LANE(v, l) ((v).p + (size_t)(l) * (v).stride)

/* Scope instances of a cooperative matrix instruction: subgroups, or 1. */
static inline uint32_t cvm_scope_instances(const cvm_exec *ex, const cvm_insn *in)
{
    return (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? 1u : ex->nsub;
}
static inline uint32_t cvm_scope_first_lane(const cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    return (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? 0u : i * ex->sg_size;
}
static inline uint32_t cvm_scope_lane_count(const cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    if (in->flags & CVM_INSN_WORKGROUP_SCOPE)
        return ex->nlanes;
    uint32_t first = i * ex->sg_size;
    return CVM_MIN(ex->sg_size, ex->nlanes - first);
}

/* OpCooperativeMatrixLength{KHR,NV} of matrix type `t` where it is the
 * same in every lane of a workgroup of p->local_size at p->sg_size: a
 * workgroup-scope matrix, or a subgroup-scope one whose subgroups are all
 * full (or one, of the whole workgroup); else 0 (ops/composite.c). */
uint32_t cvm_matrix_length_fixed(const cvm_program *p, const cvm_type *t);

/* Invocations in the scope instance of lane l (a partial last subgroup has
 * fewer than sg_size): the count the element ownership mapping divides by. */
static inline uint32_t cvm_scope_size_of_lane(const cvm_exec *ex, int workgroup, uint32_t l)
{
    if (workgroup)
        return ex->nlanes;
    uint32_t first = l / ex->sg_size * ex->sg_size;
    return CVM_MIN(ex->sg_size, ex->nlanes - first);
}

/* For a collective instruction over scope instance i: returns 1 when the
 * instance takes part (all its live lanes active), 0 when none of its lanes
 * is active (skip it), and sets a CVM_ERROR_DIVERGENT_COLLECTIVE diagnostic
 * and returns -1 when only some are. */
/* (the lane-counting answer, for when some lane is inactive) */
int cvm_scope_instance_check_lanes(cvm_exec *ex, const cvm_insn *in, uint32_t i);
static inline int cvm_scope_instance_check(cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    /* every lane active: every instance takes part (active lanes are live) */
    if (ex->nactive == ex->nlanes && !(ex->flags & CVM_FLAG_REFERENCE_PATHS))
        return 1;
    return cvm_scope_instance_check_lanes(ex, in, i);
}

/* The first active lane of scope instance i, or UINT32_MAX. */
/* (the search over the instance's lanes, for when some lane is inactive) */
uint32_t cvm_scope_first_active_lanes(const cvm_exec *ex, const cvm_insn *in, uint32_t i);
static inline uint32_t cvm_scope_first_active(const cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    if (ex->nactive == ex->nlanes && cvm_scope_lane_count(ex, in, i) > 0)
        return cvm_scope_first_lane(ex, in, i);
    return cvm_scope_first_active_lanes(ex, in, i);
}

/* ---- run-time rules on the operands of collective instructions ----------
 * KHR: "All the operands to this instruction must be dynamically uniform
 * within every instance of the 'Scope' of the cooperative matrix" (Load,
 * Store, MulAdd, the conversions, OpMatrixTimesScalar); NV2 says the same
 * of OpCooperativeMatrixLoadTensorNV / StoreTensorNV, and
 * SPV_NV_cooperative_matrix of its Load / Store ("all operands ... must be
 * the same for all invocations in a given scope instance").  A handler
 * takes such operands from the instance's first active lane `l0`; these
 * find an active lane of instance i that holds another value, so that the
 * handler fails instead of silently using lane l0's.  A value computed
 * once for the group (stride 0: constants, exec/uniform.h) is equal in
 * every lane, so the common case costs one test. */
/* (the search, for a value kept lane by lane) */
uint32_t cvm_scope_lanes_differ(const cvm_exec *ex, const cvm_insn *in, uint32_t i, uint32_t id,
                                uint32_t size, uint32_t l0);
/* The first active lane of instance i whose `size` bytes of value `id`
 * differ from lane l0's, or UINT32_MAX when none does. */
static inline uint32_t cvm_scope_lane_differs(const cvm_exec *ex, const cvm_insn *in, uint32_t i,
                                              uint32_t id, uint32_t size, uint32_t l0)
{
    if (!ex->vals[id].stride)
        return UINT32_MAX;
    return cvm_scope_lanes_differ(ex, in, i, id, size, l0);
}
/* The same for a pointer value `id`.  Addresses of per-invocation memory
 * (Function, Private variables) differ from lane to lane by construction:
 * two pointers into the same such region count as equal (each invocation
 * names its own copy of the same variable). */
uint32_t cvm_scope_pointer_lanes_differ(const cvm_exec *ex, const cvm_insn *in, uint32_t i,
                                        uint32_t id, uint32_t l0);
static inline uint32_t cvm_scope_pointer_differs(const cvm_exec *ex, const cvm_insn *in,
                                                 uint32_t i, uint32_t id, uint32_t l0)
{
    if (!ex->vals[id].stride)
        return UINT32_MAX;
    return cvm_scope_pointer_lanes_differ(ex, in, i, id, l0);
}
/* Fails `in` for operand `what` (its value `id`, `size` bytes, printed in
 * hexadecimal when at most 8) that lanes l0 and l1 of instance i hold
 * differently, naming rule `rule`: CVM_ERROR_DIVERGENT_COLLECTIVE. */
cvm_result cvm_fail_not_uniform(cvm_exec *ex, const cvm_insn *in, const char *rule,
                                const char *what, uint32_t id, uint32_t size, uint32_t i,
                                uint32_t l0, uint32_t l1);

/* 1 when `reg` is memory of one invocation (its address differs from lane
 * to lane), 0 otherwise. */
static inline int cvm_region_per_invocation(uint32_t reg)
{
    return reg == CVM_REGION_INVOCATION || reg == CVM_REGION_PADDING ||
           reg == CVM_REGION_CALLER_INVOCATION || reg == CVM_REGION_LANE_VARS ||
           reg == CVM_REGION_SCOPE || reg == CVM_REGION_CALLER_SCOPE;
}

/* VUID-{refpage}-OpCooperativeMatrix-12379: "If any OpCooperativeMatrix*
 * instructions accesses a descriptor, it must not be a null descriptor".
 * A descriptor bound without memory (cvm_pipeline_bind_buffer with data
 * NULL: the Vulkan driver's VK_NULL_HANDLE buffer) has a region without a
 * base; other instructions reach it as an empty buffer (out of bounds, or
 * zero and dropped in robust mode).  1 when `addr` lies in such a region. */
static inline int cvm_null_descriptor(const cvm_exec *ex, uint64_t addr)
{
    uint32_t reg = CVM_ADDR_REGION(addr);
    return reg >= CVM_REGION_FIRST_BUFFER && reg < ex->nregions && !ex->regions[reg].base;
}
/* Fails `in`, run by lane `lane` through `addr` in a null descriptor:
 * CVM_ERROR_OUT_OF_BOUNDS naming the VUID and the descriptor (also in
 * robust mode). */
cvm_result cvm_fail_null_descriptor(cvm_exec *ex, const cvm_insn *in, uint64_t addr,
                                    uint32_t lane);

/* The region with index `reg`, or NULL when there is none. */
static inline const cvm_region *cvm_region_of(const cvm_exec *ex, uint32_t reg)
{
    if (reg < ex->nregions)
        return &ex->regions[reg];
    uint32_t k = reg - CVM_REGION_FIRST_DEVICE; /* wraps below the first */
    return k < ex->ndevice_regions ? &ex->device_regions[k] : NULL;
}

/* Logs in ex->cv_reads (when set) the `size` bytes at `addr` that `in` (a
 * MatMul) read as its matrix or (`bias`) its bias: buffer regions only,
 * clipped to the region; a range equal to one of the last few logged is
 * not logged again (exec/read_log.c). */
void cvm_read_log_add(cvm_exec *ex, const cvm_insn *in, uint64_t addr, uint64_t size,
                      uint32_t bias);
/* The dispatch's side (exec/read_log.c): a copy of the buffers `regions`
 * (region CVM_REGION_FIRST_BUFFER + i) and `device` (CVM_REGION_FIRST_DEVICE
 * + k) as they are before it runs ... */
typedef struct cvm_mem_copy {
    uint8_t **copy; /* per region, NULL where it has no memory */
    uint32_t nregions, ndevice;
} cvm_mem_copy;
cvm_result cvm_mem_copy_make(cvm_mem_copy *o, const cvm_region *regions, uint32_t nregions,
                             const cvm_region *device, uint32_t ndevice);
void cvm_mem_copy_free(cvm_mem_copy *c);
/* ... `from`'s ranges appended to `into` (`from` emptied) ... */
void cvm_read_log_merge(cvm_read_log *into, cvm_read_log *from);
void cvm_read_log_free(cvm_read_log *log);
/* ... and, after it ran, the first logged range whose bytes differ from the
 * copy: CVM_ERROR_INVALID_MODULE with a diagnostic naming the rule, the
 * buffer (its descriptor by `prog`), the byte and the instruction that read
 * it; else CVM_SUCCESS. */
cvm_result cvm_read_log_check(const cvm_read_log *log, const cvm_mem_copy *c,
                              const cvm_region *regions, const cvm_region *device,
                              const cvm_program *prog, cvm_diagnostic *diag);

/* Memory access: returns a host pointer to `size` bytes at `addr` for lane
 * `lane`, or NULL after setting an CVM_ERROR_OUT_OF_BOUNDS diagnostic naming
 * the instruction, lane and address (in robust mode: NULL without error, and
 * *o_robust_skip set to 1; loads then read zero, stores drop). */
uint8_t *cvm_mem_access(cvm_exec *ex, const cvm_insn *in, uint64_t addr, uint64_t size,
                        int write, uint32_t lane, int *o_robust_skip);

/* The host pointer cvm_mem_access would return for the same arguments when
 * it succeeds (`size` bytes at `addr` in bounds, and writable when `write`),
 * else NULL; never sets a diagnostic nor fails.  For a caller that checks a
 * whole range at once and falls back to cvm_mem_access per access, so that a
 * failure is reported exactly as before. */
static inline uint8_t *cvm_mem_peek(const cvm_exec *ex, uint64_t addr, uint64_t size, int write)
{
    const cvm_region *rg = cvm_region_of(ex, CVM_ADDR_REGION(addr));
    uint64_t off = CVM_ADDR_OFFSET(addr);
    if (rg && rg->base && off <= rg->size && size <= rg->size - off && (!write || rg->writable))
        return rg->base + off;
    return NULL;
}

/* A matrix row to or from memory (non-overlapping): rows of the tiles
 * cooperative matrices move are short (32 or 64 bytes for 16 or 32 f16
 * elements), where a call of the C library's memcpy per row costs more
 * than the copy; pieces of a known size are inlined. */
static inline void cvm_row_copy(uint8_t *dst, const uint8_t *src, size_t len)
{
    if (len > 512) {
        memcpy(dst, src, len);
        return;
    }
    size_t at = 0;
    for (; at + 32 <= len; at += 32)
        memcpy(dst + at, src + at, 32);
    for (; at + 8 <= len; at += 8)
        memcpy(dst + at, src + at, 8);
    for (; at < len; at++)
        dst[at] = src[at];
}

/* `rows` rows of `len` bytes, src_ld and dst_ld bytes apart, row after row
 * (where rows of dst overlap, a later row's bytes stay; src and dst must not
 * overlap each other): the common tile row lengths as copies of a known
 * size, inlined, in pieces of at most 32 bytes (GCC turns one memcpy of 64
 * bytes into a rep movs, slow to start, without AVX). */
#define CVM_ROWS_OF_(LEN)                                                              \
    for (uint32_t o_ = 0; o_ < rows; o_++)                                             \
        for (size_t c_ = 0; c_ < (LEN); c_ += ((LEN) < 32 ? (LEN) : 32))               \
            memcpy(dst + (size_t)o_ * dst_ld + c_, src + (size_t)o_ * src_ld + c_,     \
                   (LEN) < 32 ? (LEN) : 32);
static inline void cvm_rows_copy(uint8_t *dst, size_t dst_ld, const uint8_t *src, size_t src_ld,
                                 uint32_t rows, size_t len)
{
    switch (len) {
    case 16: CVM_ROWS_OF_(16) return;
    case 32: CVM_ROWS_OF_(32) return;
    case 64: CVM_ROWS_OF_(64) return;
    case 128: CVM_ROWS_OF_(128) return;
    default:
        for (uint32_t o = 0; o < rows; o++)
            cvm_row_copy(dst + (size_t)o * dst_ld, src + (size_t)o * src_ld, len);
    }
}
#undef CVM_ROWS_OF_

/* Copy a value of type `type_id` between memory layout (at `mem`) and
 * register layout (at `reg`). */
void cvm_copy_mem_to_reg(const cvm_program *prog, uint32_t type_id, uint8_t *reg,
                         const uint8_t *mem);
void cvm_copy_reg_to_mem(const cvm_program *prog, uint32_t type_id, uint8_t *mem,
                         const uint8_t *reg);

/* Fails the running instruction with a diagnostic at its place. */
cvm_result cvm_exec_fail(cvm_exec *ex, const cvm_insn *in, cvm_result r, const char *fmt, ...)
    CVM_PRINTF(4, 5);

/* ---- lowering interface for op families ---------------------------------- */

typedef struct cvm_lower cvm_lower;

/* Each family lowers the SPIR-V instructions it owns: it fills `out` (fn,
 * operand fields, extra operands through cvm_lower_extra) and returns
 * CVM_SUCCESS, or CVM_ERROR_NOT_FOUND when the opcode is not its, or an error
 * (unsupported type combination...) with a diagnostic. */
typedef cvm_result (*cvm_lower_family_fn)(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);

cvm_result cvm_lower_arith(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);     /* ops/arith.c */
cvm_result cvm_lower_convert(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);   /* ops/convert.c */
cvm_result cvm_lower_composite(cvm_lower *lw, const spv_inst *inst, cvm_insn *out); /* ops/composite.c */
cvm_result cvm_lower_memory(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);    /* ops/memory.c */
cvm_result cvm_lower_glsl(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);      /* ops/glsl.c */
/* ops/glsl.c: the operand count (1 to 3) of GLSL.std.450 instruction `g`
 * when it is element-wise (its operands and result scalars or vectors of one
 * shape, lowered with the operands in a, b and c), *o_int (may be NULL) 1
 * for the integer ones; 0 for every other instruction. */
uint32_t cvm_glsl_elementwise(uint32_t g, int *o_int);
cvm_result cvm_lower_subgroup(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);  /* ops/subgroup.c */
cvm_result cvm_lower_atomic(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);    /* ops/atomic.c */
/* ops/atomic.c, for the compiled tier: 1 when `in` is an atomic instruction
 * h_atomic runs; and lane `lane`'s operation of it, as h_atomic does it
 * (cvm_mem_access's checks and robust mode, a real atomic on host memory)
 * at exec.h address `addr`, Value and Comparator in register layout (NULL
 * when it has none), the replaced value to `result` (NULL: none). */
int cvm_atomic_insn(const cvm_insn *in);
cvm_result cvm_atomic_lane(cvm_exec *ex, const cvm_insn *in, uint32_t lane, uint64_t addr,
                           const uint8_t *value, const uint8_t *comparator, uint8_t *result);
cvm_result cvm_lower_coopmat(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);   /* ops/coopmat.c */
cvm_result cvm_lower_coopmat2(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);  /* ops/coopmat2_ops.c */
cvm_result cvm_lower_tensor(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);    /* ops/tensor_ops.c */
cvm_result cvm_lower_matrix(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);    /* ops/matrix.c */
cvm_result cvm_lower_qcom(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);      /* ops/qcom.c */
cvm_result cvm_lower_debug_printf(cvm_lower *lw, const spv_inst *inst, cvm_insn *out); /* ops/debug_printf.c */
cvm_result cvm_lower_coopvec(cvm_lower *lw, const spv_inst *inst, cvm_insn *out);   /* ops/coopvec.c */
cvm_result cvm_lower_microscaling(cvm_lower *lw, const spv_inst *inst, cvm_insn *out); /* ops/microscaling.c */

/* SPV_EXT_ocp_microscaling_types' rule on the instructions that values of
 * its formats may reach (ops/microscaling.c): CVM_SUCCESS, or
 * CVM_ERROR_INVALID_MODULE naming the instruction. */
cvm_result cvm_microscaling_check_use(cvm_lower *lw, const spv_inst *inst);

/* Cooperative-vector rules that lowering applies outside the instruction
 * family (ops/coopvec.c): marks the vector type `t` just built from
 * OpTypeVectorIdEXT `inst` as a cooperative vector when the module declares
 * CooperativeVectorNV, and checks its component count against
 * CVM_MAX_COOPVEC_COMPONENTS; and rejects a global variable of storage class
 * `storage_class` whose type (`pointee`) holds a cooperative vector
 * ("can only be allocated in Function or Private storage classes"). */
cvm_result cvm_coopvec_lower_type(cvm_lower *lw, const spv_inst *inst, cvm_type *t);
cvm_result cvm_coopvec_check_variable(cvm_lower *lw, const spv_inst *inst, uint32_t storage_class,
                                      uint32_t pointee);

/* Helpers for family lowering functions. */
const cvm_program *cvm_lower_program(const cvm_lower *lw);
const cvm_type *cvm_lower_type(const cvm_lower *lw, uint32_t type_id);
/* The type id of the value `id` (its result type), 0 if unknown. */
uint32_t cvm_lower_type_of(const cvm_lower *lw, uint32_t id);
/* The type the memory that pointer `id` points to is laid out as, when it
 * differs from its pointee type (a MatrixStride / RowMajor variant reached
 * through an access chain), else 0. */
uint32_t cvm_lower_layout_of(const cvm_lower *lw, uint32_t id);
void cvm_lower_set_layout(cvm_lower *lw, uint32_t id, uint32_t layout_type);
/* 1 when memory reached through a pointer of storage class `sc` is
 * explicitly laid out (Offset, ArrayStride, MatrixStride apply). */
int cvm_lower_explicit_layout(const cvm_lower *lw, uint32_t sc);
/* Appends `n` words to the program's extra operand array; returns the index. */
uint32_t cvm_lower_extra(cvm_lower *lw, const uint32_t *words, uint32_t n);
/* Operands the handlers read as integers at the width of their type
 * (indices, strides, layouts): CVM_SUCCESS with *o_width (may be NULL) the
 * byte width when `id` is a value of an integer scalar type of 8, 16, 32 or
 * 64 bits, else CVM_ERROR_INVALID_MODULE naming the instruction and
 * `operand` (a module that skipped validation; the handlers would read past
 * the value slot). */
cvm_result cvm_lower_int_scalar(cvm_lower *lw, const spv_inst *inst, uint32_t id,
                                const char *operand, uint32_t *o_width);
/* Constant value of `id` as uint64 (scalar integer/bool constants), or fails. */
int cvm_lower_const_u64(const cvm_lower *lw, uint32_t id, uint64_t *o_value);
cvm_result cvm_lower_fail(cvm_lower *lw, const spv_inst *inst, cvm_result r, const char *fmt,
                          ...) CVM_PRINTF(4, 5);

/* ---- callbacks (SPV_NV_cooperative_matrix2) ------------------------------
 * Runs the SPIR-V function with index `func` (cvm_program.funcs) `count`
 * times, as lanes of batches of CVM_CALLBACK_BATCH: call i gets, for
 * parameter k, the value at args[k].p + i * args[k].stride (stride 0: the
 * same value for every call; values in the register layout of the
 * parameter's type) and writes its return value to
 * results + i * (size of the return type).  `in` names the calling
 * instruction in diagnostics.
 *
 * Whose state a call sees.  The texts do not say; NVIDIA's driver runs a
 * callback as part of an invocation of the scope instance, and real shaders
 * (llama.cpp's split-k flash attention and MoE matmul) read Private
 * variables that `main` set inside their callbacks (SPEC_NOTES "callbacks
 * and per-invocation state").  So call i runs in the context of the calling
 * group's lane `lanes[i]`: the callee's module-scope Private and Input
 * variables (built-ins included) are that invocation's, and its writes to
 * them land there, as any function call's would.  Callers pick the lane
 * with cvm_element_owner: the invocation that owns the matrix element the
 * call is for, under the element mapping of composite.c.  The callee also
 * sees the buffers, push constants and workgroup memory of the calling
 * workgroup; its Function variables are its own (zeroed).
 *
 * With CVM_FLAG_CHECK_CALLBACKS the calls run three times, each in a new
 * shuffled order: twice in the default context, and once in the context of
 * another invocation of the same scope instance (cvm_element_other); results
 * that differ between the two orders, or between the two contexts, end in
 * CVM_ERROR_CALLBACK_MISMATCH.  Per-invocation memory is restored between
 * the passes, so the first pass's writes are the ones that stay. */
cvm_result cvm_callback_run(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t count,
                            const cvm_val *args, uint32_t nargs, uint8_t *results,
                            const uint32_t *lanes);

/* cvm_callback_run naming the matrix element each call is for, for
 * DebugPrintf messages and the trace: call i is for flat element
 * elems[i] (elems NULL: element i) of a matrix with `cols` columns, row
 * e / cols, column e % cols. */
cvm_result cvm_callback_run_elements(cvm_exec *ex, const cvm_insn *in, uint32_t func,
                                     uint32_t count, const cvm_val *args, uint32_t nargs,
                                     uint8_t *results, const uint32_t *lanes,
                                     const uint32_t *elems, uint32_t cols);

/* A left-to-right fold of `count` sequences of `len` elements (sequence s's
 * element k at x + (s * len + k) * es): acc[s] starts as its element 0 and
 * step k = 1 .. len - 1 makes, for every s, the call func(acc[s], element
 * k) whose result is the next acc[s] -- exactly the calls, batches and
 * instruction budget of one cvm_callback_run_elements per step (args
 * {acc, es} and {x + k * es, len * es}), with the compiled leaf path set up
 * once for all the steps.  `acc` and `tmp` hold count * es bytes each, and
 * the steps alternate between them; *o_result is the one holding the
 * folds.  On failure the diagnostic is set as by those calls. */
cvm_result cvm_callback_fold(cvm_exec *ex, const cvm_insn *in, uint32_t func, uint32_t es,
                             uint32_t count, uint32_t len, const uint8_t *x, uint8_t *acc,
                             uint8_t *tmp, const uint32_t *lanes, const uint32_t *elems,
                             uint32_t cols, uint8_t **o_result);

/* A DecodeFunc load's elements k0 .. k1 - 1 (row-major: element k is row
 * k / N, column k % N) in the split plan's form (exec/ops/tensor_layout.h
 * cvm_tensor_split_plan: row parts rows[M], column parts cols[N], columns
 * walking layout dimension p): call k gets the pointer base + (rows[r].index
 * + cols[c].index) * psize, which the caller has checked to lie in base's
 * region for every element, and the merged blockCoord and coordInBlock. */
typedef struct cvm_decode_tile {
    const struct cvm_tensor_element *rows, *cols;
    uint64_t base, psize;
    uint64_t index_lo, index_hi; /* every element's index lies in [index_lo, index_hi] */
    uint32_t N, p, k0, k1;
} cvm_decode_tile;

/* The calls of leaf DecodeFunc `func` for the elements of `tile` as
 * compiled code (exec/jit/jit.h), the result of element k to
 * out + k * out_size: the calls cvm_callback_run_elements would make for
 * them, with the same batches, budget and results, without an argument per
 * call.  Returns 1 with *o_r the status; or, when the compiled tier does
 * not run them, 0 (nothing done: no LLVM, a checking, tracing or
 * reference-paths run) or 2 (the calls were counted towards compiling the
 * leaves, cvm_jit_tile_ready, but not run: not compiled yet, or another
 * thread compiling), and the caller then makes the calls, with
 * leaf_calls_counted set on `ex` after a 2. */
int cvm_callback_decode_tile(cvm_exec *ex, const cvm_insn *in, uint32_t func,
                             const cvm_decode_tile *tile, uint8_t *out, uint32_t out_size,
                             cvm_result *o_r);

/* The lane that owns flat element `e` (row-major) of a matrix of `nelems`
 * elements held by scope instance `inst` of collective instruction `in`:
 * with L = ceil(nelems / invocations in the instance), the instance's
 * invocation e / L (the mapping OpCompositeExtract and
 * OpCooperativeMatrixLengthKHR use).  An owner that is no longer live
 * (terminated) is replaced by the instance's first active lane. */
static inline uint32_t cvm_element_owner(const cvm_exec *ex, const cvm_insn *in, uint32_t inst,
                                         uint32_t nelems, uint32_t e)
{
    uint32_t first = cvm_scope_first_lane(ex, in, inst), n = cvm_scope_lane_count(ex, in, inst);
    uint32_t L = nelems ? (nelems + n - 1) / n : 1;
    uint32_t k = e / L;
    uint32_t lane = first + (k < n ? k : n - 1);
    if (!ex->active[lane]) {
        uint32_t fa = cvm_scope_first_active(ex, in, inst);
        if (fa != UINT32_MAX)
            lane = fa;
    }
    return lane;
}

/* The checking mode's other context for a call that runs in lane `lane`:
 * the invocation half the scope instance away (index (k + n/2) mod n for
 * the lane's index k among the instance's n invocations); `lane` itself
 * when the instance has one invocation. */
uint32_t cvm_element_other(const cvm_exec *ex, const cvm_insn *in, uint32_t lane);

#endif /* CVM_EXEC_H */
