/* The compiled tier's own parts, shared by its files and not part of
 * jit.h's interface: the environment the generated code reads, the
 * compiled shader, the translation's state (jctx), and the functions one
 * file of the tier calls in another.  Only for builds with LLVM
 * (CVM_HAVE_LLVM). */
#ifndef CVM_EXEC_JIT_INTERNAL_H
#define CVM_EXEC_JIT_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>

#include "exec/jit/jit.h"

/* What the generated code reads; its LLVM twin is jctx.env_t (jctx_init). */
typedef struct cvm_jit_env {
    const cvm_region *regions; /* ex->regions */
    cvm_exec *ex;
    uint32_t nlanes, sg_size;
    uint32_t group_id[3], num_groups[3];
    int64_t budget;            /* invocation instructions left (sg_size per subgroup one) */
    uint32_t nregions;         /* ex->nregions: the regions a dynamic address finds inline */
    uint64_t *budget_local;    /* the group's, in subgroup instructions */
    uint8_t *zero;             /* robust loads out of bounds read here */
    uint8_t *sink;             /* robust stores out of bounds land here */
    const struct cvm_jit *jit; /* the scope form's helpers read its tables */
    /* The collective form: per lane, where its coroutine stands (the
     * instruction index of the collective it waits at, or JIT_CO_*) */
    uint32_t *where;
    uint64_t frame_slot; /* bytes a lane's frame takes in ex->jit_state (0: none yet) */
    /* The scope form's divergent selections: per nesting depth, the active
     * lanes before the selection and those of its false arm (nlanes bytes
     * each; jit_div_enter) */
    uint8_t *masks;
} cvm_jit_env;

/* Where a lane of the collective form stands, besides the index of a
 * collective instruction in a convergent block: in the block-ordered form
 * (cvm_jit.ordered), JIT_CO_SYNC | index for one in another block, and
 * JIT_CO_ENTRY | b for the start of block b of the entry point (a block not
 * convergent, where the lane waits to run it as the interpreter would). */
enum {
    JIT_CO_SYNC = 0x40000000u,
    JIT_CO_ENTRY = 0x80000000u,
    JIT_CO_RUNNING = 0xffffffffu,
    JIT_CO_DONE = 0xfffffffeu,   /* returned: still alive, as in the interpreter */
    JIT_CO_FAILED = 0xfffffffdu,
    JIT_CO_KILLED = 0xfffffffcu  /* OpKill, OpTerminateInvocation: no longer alive (noted as DONE) */
};

enum {
    ENV_REGIONS, ENV_EX, ENV_NLANES, ENV_SG, ENV_GID, ENV_NGROUPS, ENV_BUDGET, ENV_NREGIONS,
    ENV_BUDGET_LOCAL, ENV_ZERO, ENV_SINK, ENV_JIT, ENV_WHERE
};

/* Largest value one load or store moves (a 4-component 64-bit vector). */
#define JIT_MAX_ACCESS 32

typedef int32_t (*jit_fn)(cvm_jit_env *env);
/* A leaf callback: calls 0 .. env->nlanes - 1, call i's parameter k at
 * args[k].p + i * args[k].stride, its result to results + i * (result size). */
typedef int32_t (*jit_leaf_fn)(cvm_jit_env *env, const cvm_val *args, uint8_t *results);
/* A leaf DecodeFunc over elements tile->k0 .. k1 - 1 of a tile (jit.h
 * cvm_decode_tile), element k's result to mat + k * (result size). */
typedef int32_t (*jit_tile_fn)(cvm_jit_env *env, const cvm_decode_tile *tile, uint8_t *mat);

/* The collective form's code: a lane's coroutine (its ramp runs the lane
 * to its first collective instruction or its end, and returns the handle),
 * and the module's own resume and destroy of a handle. */
typedef void *(*jit_co_fn)(cvm_jit_env *env, uint32_t lane);
typedef void (*jit_co_op)(void *handle);

struct cvm_jit {
    LLVMOrcLLJITRef lljit;
    jit_fn fn;
    /* the collective form (cvm_jit_collective_form): fn unused */
    int collective;
    /* ... block-ordered (ordered_blocks): the entry point's blocks that are
     * not convergent are run in the interpreter's order (run_ordered) */
    int ordered;
    jit_co_fn co_fn;
    jit_co_op co_resume, co_destroy;
    const cvm_program *prog;
    uint32_t max_region; /* regions the code reads: 0 .. max_region */
    /* The scope form (jit.h cvm_jit_scope_form): per instruction of the
     * program, 1 for a phi whose value stays in the interpreter's slot
     * (a cooperative matrix, a tensor layout...), moved by jit_slot_phis */
    int scope;
    uint8_t *slot_phi;
    /* ... with values of each lane (cvm_jit_scope_lanes); its divergent
     * selections nest this deep (jit_div_enter's masks) */
    int lanes;
    uint32_t div_depth;
};

/* ---- translation --------------------------------------------------------- */

enum { JP_NONE = 0, JP_VAR, JP_BUILTIN, JP_MEM, JP_ADDR };

typedef struct jptr {
    uint8_t kind;
    uint32_t type;       /* pointee type id */
    /* JP_VAR: the alloca and, below a vector, the component (or UINT32_MAX) */
    LLVMValueRef alloca;
    uint32_t var_type;
    uint32_t comp;
    /* JP_BUILTIN: SpvBuiltIn and component (UINT32_MAX: the whole value) */
    uint32_t builtin;
    /* JP_MEM: region and byte offset (i64); JP_ADDR (a pointer a leaf
     * callback was passed, an address of exec.h's form): the region as an
     * i32 value (dreg) and the offset */
    uint32_t region;
    LLVMValueRef off, dreg;
    /* JP_ADDR: the bytes past the passed pointer the offset lies in, when
     * known (value_range): [rel_lo, rel_hi] */
    int rel_known;
    uint64_t rel_lo, rel_hi;
} jptr;

/* A call being inlined: where its returns go, and the values they return
 * with the LLVM blocks they come from (the result's phi). */
typedef struct jcall {
    LLVMBasicBlockRef ret_bb;
    LLVMValueRef *vals;
    LLVMBasicBlockRef *from;
    uint32_t n;
    int oom;
    /* 1 when this call and every call it is inlined in sit in convergent
     * blocks of the entry point and the callers (every lane still running
     * makes it, together) */
    int convergent;
} jcall;

/* Calls nested deeper than this, or more instructions than this emitted
 * once every call is inlined, and the tier does not take the shader. */
#define JIT_MAX_INLINE_DEPTH 64
#define JIT_MAX_INLINED (UINT64_C(1) << 16)

typedef struct region_info {
    LLVMValueRef base, size, writable;
} region_info;

typedef struct jctx {
    const cvm_program *p;
    const spv_module *mod;
    const cvm_function *f;
    cvm_diagnostic *diag;
    LLVMContextRef C;
    LLVMModuleRef M;
    LLVMBuilderRef B;
    LLVMValueRef fn, env;
    LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, vd, ptr8, env_t, region_t, val_t;
    int has_f16;          /* f16 values as LLVM half (the host converts with F16C) */
    int leaf;             /* translating a leaf callback (jit_leaf_fn), not the entry point */
    int tile;             /* ... as a DecodeFunc over a tile (jit_tile_fn) */
    LLVMValueRef lane_msg; /* the call's number in diagnostics (the interpreter's batch lane) */
    LLVMValueRef tile_row, tile_col, tile_rows, tile_cols, tile_base, tile_psize, tile_p;
    int unchecked;        /* a tile whose accesses the caller has checked (no check here) */
    int acc_unknown;      /* some access through the pointer parameter has no known range */
    uint64_t acc_lo, acc_hi; /* the bytes past the pointer the accesses reach: [lo, hi) */
    LLVMValueRef *vals;   /* per id */
    LLVMValueRef *arrs;   /* per id: a leaf's array parameter, where its elements are */
    LLVMValueRef *pairs;  /* per id, two each: the members of an OpIAddCarry, OpISubBorrow,
                             OpUMulExtended or OpSMulExtended result (a struct) */
    jptr *ptrs;           /* per id */
    LLVMBasicBlockRef *bbs; /* per block index */
    LLVMBasicBlockRef lane_next, fail_bb;
    LLVMValueRef lane, budget_var, builtin_vals[64], nregions_v, rtab;
    region_info *regions;
    uint32_t nregions;
    uint32_t cur_insn;
    uint32_t max_region;
    LLVMValueRef *var_allocas; uint32_t *var_ids, *var_inits; uint32_t nvars;
    /* Calls (the entry point's form, not the scope form's nor a leaf's):
     * each is inlined where it is made (emit_call), `call` the innermost
     * being emitted (NULL in the entry point's own blocks), `depth` the
     * calls nested at this point, `inlined` the instructions emitted so
     * far (JIT_MAX_INLINED); max_depth_v ex->max_depth, read once */
    struct jcall *call;
    uint32_t depth;
    uint64_t inlined;
    LLVMValueRef max_depth_v;
    /* The scope form (cvm_jit_scope_form): the entry point run once per
     * workgroup, the instructions it does not translate run by their
     * handlers on the interpreter's value slots (ex->vals, vals_base) */
    int scope;
    LLVMValueRef vals_base, budget_unit;
    int lanes; /* ... a handler runs an instruction of values of each lane */
    int faster_only; /* (jit.h CVM_JIT_FASTER_ONLY) */
    /* ... its divergent selections (mark_divergent): per block, 1 + the
     * innermost one whose arm holds it (0: none) and that arm (0: the true
     * one); each one's header, merge, arms' first blocks, nesting depth and
     * the blocks its arms end at */
    struct jdiv {
        uint32_t header, merge, target[2], depth;
        LLVMBasicBlockRef cont[2];
        /* a loop (its exits at its own level; cont[0]: where it ends) and
         * its blocks (1 per block of the function) */
        int loop;
        uint32_t latch;
        uint8_t *blocks;
    } *divs;
    uint32_t ndivs, div_depth;
    uint32_t *div_of;
    uint8_t *div_arm;
    /* per id (NULL: none), 1 for a value the code holds that is the same in
     * every lane though not marked uniform (a load of a uniform Function
     * variable in a block that is not convergent): to_slots writes it to
     * every lane's copy */
    uint8_t *alike;
    /* The collective form (cvm_jit_collective_form): the lane's coroutine,
     * its id and handle, the block its suspensions return through and the
     * one that frees its frame; the block being emitted (its index) */
    int collective, ordered;
    uint8_t *waits; /* the block-ordered form's (ordered_waits) */
    LLVMValueRef co_id, co_hdl;
    LLVMBasicBlockRef co_ret, co_cleanup, co_kill;
    uint32_t cur_block;
    uint8_t *slot_phi;      /* per instruction: a phi moved by jit_slot_phis */
    uint8_t *has_slot_phis; /* per block */
    /* edges given blocks of their own (edge_to): (from, to, the last of
     * them, which branches to `to`) */
    uint32_t *edge_from, *edge_to_blk;
    LLVMBasicBlockRef *edge_bb;
    uint32_t nedges;
} jctx;

/* ---- jit_runtime.c: the helpers the generated code calls ----------------- */

uint8_t *jit_access_slow(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint32_t region,
                         uint64_t off, uint32_t size, uint32_t write);
int64_t jit_refill(cvm_jit_env *env, uint32_t insn, int64_t cur);
void jit_co_note(cvm_jit_env *env, uint32_t lane, uint32_t where);
void *jit_co_alloc(cvm_jit_env *env, uint32_t lane, uint64_t size);
void jit_co_free(void *frame);
int32_t jit_atomic(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint64_t addr,
                   const uint8_t *value, const uint8_t *comparator, uint8_t *result);
void jit_co_oom(cvm_jit_env *env, uint32_t lane);
int32_t jit_depth_fail(cvm_jit_env *env, uint32_t insn);
int32_t jit_dead_block(cvm_jit_env *env, uint32_t insn);
int32_t jit_init_mem(cvm_jit_env *env, uint32_t var, uint32_t init, uint32_t lane);
int32_t jit_store_const(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint32_t region,
                        uint64_t off);
int32_t jit_agg(cvm_jit_env *env, uint32_t insn, uint32_t lane, uint32_t region,
                uint64_t off, uint8_t *val, uint32_t write);
int32_t jit_uniform_handler(cvm_jit_env *env, uint32_t insn);
int32_t jit_slot_phis(cvm_jit_env *env, uint32_t bi, uint32_t from);
void jit_arith(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
               const uint8_t *c);
void jit_convert(const cvm_insn *in, uint8_t *r, const uint8_t *a);
void jit_glsl(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
              const uint8_t *c);

/* ---- jit_value.c: values, types, constants and composites ---------------- */

cvm_result jit_unsupported(jctx *j, uint32_t insn, const char *what);
cvm_result jit_unsupported_def(jctx *j, uint32_t id, const char *what);
int sk_llvm_ok(const jctx *j, uint8_t sk);
LLVMTypeRef scalar_type(jctx *j, uint8_t sk);
LLVMTypeRef value_type(jctx *j, uint32_t tid);
LLVMValueRef jit_const_value(jctx *j, uint32_t id);
LLVMValueRef get_val(jctx *j, uint32_t id);
LLVMValueRef env_field(jctx *j, unsigned field, unsigned sub);
LLVMValueRef fn_const(jctx *j, void *addr, LLVMTypeRef fty);
LLVMValueRef new_slot(jctx *j, uint64_t bytes);
void jit_store_reg(jctx *j, LLVMValueRef v, uint32_t tid, LLVMValueRef at8);
LLVMValueRef jit_spill(jctx *j, LLVMValueRef v, uint32_t tid);
LLVMValueRef jit_unspill(jctx *j, LLVMValueRef slot8, uint32_t tid);
LLVMValueRef call_lane_kernel(jctx *j, void *kernel, int nargs, uint32_t insn,
                              uint32_t rtype, const uint32_t *ids, const uint32_t *tids,
                              int nops);
LLVMValueRef agg_ptr(jctx *j, uint32_t id);
cvm_result emit_composite(jctx *j, const spv_inst *si);
LLVMValueRef call_intrinsic(jctx *j, const char *name, LLVMTypeRef *over, unsigned nover,
                            LLVMValueRef *args, unsigned nargs);
void emit_checked_call(jctx *j, void *fn, LLVMTypeRef *ptypes, LLVMValueRef *args,
                       unsigned n);
LLVMValueRef ex_field(jctx *j, LLVMValueRef exp, size_t off, LLVMTypeRef ty);

static inline const cvm_type *type_of(jctx *j, uint32_t tid)
{
    return &j->p->types[tid];
}

/* Scalar kind of a value's components. */
static inline uint8_t comp_sk(jctx *j, uint32_t tid)
{
    const cvm_type *t = type_of(j, tid);
    return t->tclass == CVM_TC_VECTOR ? type_of(j, t->elem)->sk : t->sk;
}

static inline uint32_t ncomp_of(jctx *j, uint32_t tid)
{
    const cvm_type *t = type_of(j, tid);
    return t->tclass == CVM_TC_VECTOR ? t->count : 1;
}

static inline LLVMValueRef c_i32(jctx *j, uint64_t v) { return LLVMConstInt(j->i32, v, 0); }
static inline LLVMValueRef c_i64(jctx *j, uint64_t v) { return LLVMConstInt(j->i64, v, 0); }

/* ---- jit_mem.c: memory --------------------------------------------------- */

region_info *jit_region(jctx *j, uint32_t reg);
LLVMValueRef jit_invariant(jctx *j, LLVMValueRef load);
int mem_type_ok(jctx *j, uint32_t tid);
int agg_type_ok(jctx *j, uint32_t tid);
cvm_result emit_load(jctx *j, uint32_t result, uint32_t tid, uint32_t ptr_id);
cvm_result emit_store(jctx *j, uint32_t ptr_id, uint32_t val_id);
cvm_result emit_access_chain(jctx *j, const spv_inst *si);
int emit_ptr_bitcast(jctx *j, const spv_inst *si, cvm_result *o_r);
cvm_result emit_atomic(jctx *j, uint32_t ii, const cvm_insn *in);

/* ---- jit_arith.c: arithmetic, conversions and GLSL.std.450 --------------- */

cvm_result emit_arith(jctx *j, const spv_inst *si, const cvm_insn *in);
cvm_result emit_convert(jctx *j, const spv_inst *si, const cvm_insn *in);
cvm_result emit_glsl(jctx *j, const spv_inst *si, const cvm_insn *in);
int is_arith_op(uint32_t op);
cvm_result emit_extended(jctx *j, const spv_inst *si);
cvm_result emit_idot(jctx *j, uint32_t ii, const spv_inst *si, const cvm_insn *in);
cvm_result emit_dot(jctx *j, uint32_t ii, const cvm_insn *in);
cvm_result emit_bitfield(jctx *j, uint32_t ii, const spv_inst *si, const cvm_insn *in);
cvm_result emit_bit_ops(jctx *j, uint32_t ii, const spv_inst *si);

/* ---- jit_flow.c: blocks and control flow --------------------------------- */

int insn_words(jctx *j, uint32_t ii, spv_inst *si);
cvm_result emit_insn(jctx *j, uint32_t ii);
cvm_result emit_blocks(jctx *j, const cvm_function *f);

/* ---- jit_collective.c: the collective form ------------------------------- */

void emit_co_suspend(jctx *j, LLVMValueRef where, LLVMBasicBlockRef resume, int final);
int jit_is_collective(const cvm_insn *in);
int jit_ballot_lane_op(const cvm_insn *in);
cvm_result emit_collective(jctx *j, uint32_t ii);
cvm_result translate_collective(jctx *j, const char *name);
void add_co_helpers(jctx *j);
int ordered_blocks(const cvm_program *p);
uint8_t *ordered_waits(const cvm_program *p);

/* ---- jit_scope.c: the scope form ----------------------------------------- */

cvm_result emit_scope_insn(jctx *j, uint32_t ii);
cvm_result mark_slot_phis(jctx *j);
void spill_slot_phi_inputs(jctx *j, uint32_t to, uint32_t from);
cvm_result mark_divergent(jctx *j, const uint32_t *pos);
int32_t jit_div_enter(cvm_jit_env *env, uint32_t cond, uint32_t depth);
int32_t jit_div_else(cvm_jit_env *env, uint32_t depth);
int32_t jit_div_exit(cvm_jit_env *env, uint32_t depth);
int32_t jit_slot_broadcast(cvm_jit_env *env, uint32_t id, uint32_t size);
int32_t jit_loop_enter(cvm_jit_env *env, uint32_t depth);
int32_t jit_loop_exit_begin(cvm_jit_env *env, uint32_t cond, uint32_t exit_if, uint32_t depth);

/* ---- jit_func.c: the function, its lane loop, built-ins and variables ---- */

cvm_result emit_var_set(jctx *j, uint32_t var, uint32_t init);
cvm_result emit_builtins(jctx *j, LLVMValueRef nlanes, LLVMValueRef sg);
cvm_result setup_globals(jctx *j);
cvm_result setup_function_vars(jctx *j);
cvm_result emit_var_init(jctx *j);
cvm_result read_regions(jctx *j);
cvm_result jit_translate(jctx *j, const char *name);

/* ---- jit_leaf.c: leaf callbacks ------------------------------------------ */

cvm_result emit_params(jctx *j);
LLVMValueRef tile_field(jctx *j, LLVMValueRef tp, size_t off, LLVMTypeRef ty);
cvm_result emit_tile_params(jctx *j);

/* ---- jit.c: LLVM's context, module and JIT ------------------------------- */

/* The leaf forms compiled so far, all pipelines (cvm_test_jit_forms_compiled). */
extern uint32_t jit_forms_compiled;

int jctx_init(jctx *j, const cvm_program *prog, cvm_diagnostic *diag,
              LLVMOrcThreadSafeContextRef *o_tsc);
void jctx_free(jctx *j);
cvm_result jctx_finish(jctx *j, LLVMOrcThreadSafeContextRef tsc, LLVMOrcLLJITRef *io_lljit,
                       cvm_diagnostic *diag);

#endif /* CVM_EXEC_JIT_INTERNAL_H */
