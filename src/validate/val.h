/* The validator (layer `validate`, between api and exec): what it knows of a
 * module while it checks the rules of rules.h.
 *
 * A run has four phases; each finishes over the whole module before the
 * next starts, and the first rule that fails ends the run:
 *
 *   1 header      the binary as a stream of words (module rules)
 *   2 syntax      each instruction against the grammar: opcode, operand
 *                 words, enumerants, ids inside the bound
 *   3 structure   ids defined once and before use, the logical layout,
 *                 functions and blocks, the control-flow graph, dominance
 *   4 rules       types, operands and every extension rule
 *
 * After phase 2 the tables below are complete and every instruction is known
 * to be well formed, so phase 3 and 4 checks may read the operands the
 * grammar promises without bounds checks of their own; after phase 3 every
 * id operand names a definition.  Checks of phase 4 still test the kind of
 * each operand before they look inside it (another rule reports a wrong
 * kind), so they never read through a wrong assumption.
 *
 * Nothing here is global: a val_ctx lives for one cvm_validate call. */
#ifndef CVM_VALIDATE_VAL_H
#define CVM_VALIDATE_VAL_H

#include <stddef.h>
#include <stdint.h>

#include "cvm_common.h"
#include "spirv/spirv_grammar.h"
#include "spirv/spirv_reader.h"

/* ---- the rule table (rules.h) ----------------------------------------------- */

struct val_ctx;
/* A check returns 1 when the rule holds for `in` (NULL for module rules),
 * 0 when it is broken (after val_fail for the detail). */
typedef int (*val_check_fn)(struct val_ctx *v, const spv_inst *in);

enum {
    VAL_MODULE = 0,  /* run once per module */
    VAL_OPCODE = 1,  /* run for each instruction with `opcode` */
    VAL_EACH = 2,    /* run for each instruction */
    VAL_LISTED = 3,  /* a rule of the texts that cannot be checked before the
                        module runs (run-time values) or a text erratum: in the
                        table with the reason, never run */
    VAL_DEVICE = 8   /* or'ed with VAL_MODULE, VAL_OPCODE or VAL_EACH: a rule
                        that depends on the device or the pipeline, run only
                        with a device description (and env still applies) */
};
/* The VAL_MODULE / VAL_OPCODE / VAL_EACH kind of a row, VAL_DEVICE taken off. */
#define VAL_KIND(on) ((on) & ~VAL_DEVICE)

enum { VAL_ENV_ANY = 0, VAL_ENV_VULKAN = 1 };
enum { VAL_ERROR = 0, VAL_WARNING = 1 };

typedef struct val_rule {
    const char *id;          /* e.g. "KHR-CM.MulAdd.A-Use" */
    uint8_t phase;           /* 1..4 */
    uint8_t on;              /* VAL_MODULE, VAL_OPCODE, VAL_EACH (each maybe | VAL_DEVICE),
                                VAL_LISTED */
    uint8_t env;             /* VAL_ENV_* */
    uint8_t severity;        /* VAL_ERROR, VAL_WARNING */
    uint32_t opcode;         /* for VAL_OPCODE */
    const char *source;      /* the text */
    const char *section;     /* its section */
    const char *text;        /* what must hold */
    val_check_fn check;      /* NULL for VAL_LISTED */
} val_rule;

extern const val_rule val_rules[];
extern const uint32_t val_rule_count;

/* ---- what the validator records --------------------------------------------- */

#define VAL_NONE UINT32_MAX

typedef struct val_id {
    uint32_t off;     /* word offset of the (first) defining instruction; 0: none */
    uint16_t opcode;
    uint16_t nwords;
    uint32_t type;    /* result type id, 0 if none */
    uint32_t func;    /* index of the defining function, VAL_NONE at module scope */
    uint32_t block;   /* index of the defining block, VAL_NONE outside blocks */
    uint32_t ndefs;   /* how many instructions define it (should be 1) */
} val_id;

typedef struct val_block {
    uint32_t label;
    uint32_t func;
    uint32_t begin;      /* word offset of OpLabel */
    uint32_t term;       /* word offset of the terminator, 0 if none */
    uint32_t merge_off;  /* word offset of OpSelectionMerge / OpLoopMerge, 0 if none */
    uint32_t merge;      /* merge block label, 0 if none */
    uint32_t cont;       /* continue target label of OpLoopMerge, 0 if none */
    uint32_t first_succ, nsucc; /* successor labels in val_ctx.succs */
    uint32_t idom;       /* immediate dominator (block index); VAL_NONE for the
                            entry block and unreachable blocks */
    uint32_t rpo;        /* reverse post-order index; VAL_NONE if unreachable */
} val_block;

typedef struct val_function {
    uint32_t id, result_type, fn_type;
    uint32_t begin, end;       /* OpFunction offset, offset just past OpFunctionEnd */
    uint32_t first_param, nparams;  /* into val_ctx.params */
    uint32_t first_block, nblocks;  /* into val_ctx.blocks */
} val_function;

/* One operand of an instruction, as the grammar splits it. */
typedef struct val_operand {
    uint16_t kind;     /* spv_operand_kind */
    uint16_t word;     /* index of its first word in the instruction */
    const char *name;  /* grammar operand name, or NULL */
} val_operand;

typedef struct val_ctx {
    const uint32_t *words;     /* host byte order */
    size_t nwords;
    uint32_t version;          /* header word 1 */
    uint32_t bound;
    /* target environment */
    const char *env_name;
    int vulkan;
    uint32_t env_max_version;  /* 0x00MMmm00 */

    val_id *ids;               /* [bound] */
    uint32_t *caps;            /* declared capabilities and, after phase 2, those
                                  they declare implicitly (val_has_cap) */
    uint32_t ncaps;
    uint32_t ncaps_declared;   /* the first ncaps_declared are OpCapability operands */
    uint32_t *ext_offs;        /* OpExtension offsets */
    uint32_t nexts;
    uint32_t *entry_offs;      /* OpEntryPoint offsets */
    uint32_t nentries;
    uint32_t *mode_offs;       /* OpExecutionMode(Id) offsets */
    uint32_t nmodes;
    uint32_t *deco_offs;       /* OpDecorate* / OpMemberDecorate* offsets */
    uint32_t ndecos;
    uint32_t memory_model_off; /* first OpMemoryModel, 0 if none */
    uint32_t nmemory_models;
    uint32_t addressing_model, memory_model;
    uint32_t glsl_set;         /* id of OpExtInstImport "GLSL.std.450", 0 if none */

    val_function *funcs;
    uint32_t nfuncs;
    val_block *blocks;
    uint32_t nblocks;
    uint32_t *succs;
    uint32_t nsuccs;
    uint32_t *params;          /* OpFunctionParameter result ids */
    uint32_t nparams;
    uint32_t *block_of;        /* [bound]: label id -> block index, VAL_NONE */
    uint32_t *first_merge;     /* [nblocks]: offset of the first merge instruction
                                  naming the block (built by CORE.Merge-Unique) */
    uint32_t *preds;           /* predecessor block indices, grouped per block */
    uint32_t *pred_first;      /* [nblocks + 1] */

    /* operand scratch for val_operands */
    val_operand *ops;
    uint32_t ops_cap;
    char why[200];

    /* the device and pipeline (cvm_validate_options.device), NULL: the
     * VAL_DEVICE rows are not run */
    const cvm_device_description *device;
    uint8_t *qcom_sources;     /* [bound], built on first use: 1 for the ids that are the
                                  source array of an OpCompositeConstructCoopMatQCOM */

    /* warnings (cvm_validate_options): strict makes them errors */
    int strict;
    cvm_warning_fn on_warning;
    void *warning_user;

    /* the failure being reported */
    char detail[512];
    uint32_t blame_off;        /* instruction to blame when not the one checked */
    int oom;
} val_ctx;

/* ---- failing -------------------------------------------------------------- */

/* Records why the rule failed (the rule and the place are added by the
 * framework) and returns 0, so a check can `return val_fail(v, ...)`. */
int val_fail(val_ctx *v, const char *fmt, ...) CVM_PRINTF(2, 3);
/* As val_fail, blaming the instruction at `off` instead of the one checked. */
int val_fail_at(val_ctx *v, uint32_t off, const char *fmt, ...) CVM_PRINTF(3, 4);

/* ---- instructions and operands -------------------------------------------- */

/* The instruction at a word offset (1 when one starts there). */
int val_inst_at(const val_ctx *v, uint32_t off, spv_inst *o_inst);
/* The instruction defining `id` (0 when none). */
int val_def(const val_ctx *v, uint32_t id, spv_inst *o_inst);
/* Opcode / result type of the definition of `id` (0 when none or out of range). */
uint16_t val_opcode(const val_ctx *v, uint32_t id);
uint32_t val_type_of(const val_ctx *v, uint32_t id);
/* Operand word `i` of `in`, or 0 past its end. */
uint32_t val_word(const spv_inst *in, uint32_t i);
/* The instruction's operands as the grammar splits them (valid until the
 * next call).  Returns the count, or -1 when the instruction does not follow
 * the grammar (then *o_why says why).  Needs the types of earlier values for
 * OpSwitch literals, so it is used from phase 2 on, in module order. */
int val_operands(val_ctx *v, const spv_inst *in, const val_operand **o_ops, const char **o_why);
/* Name of an opcode ("OpIAdd"), or "an unknown opcode". */
const char *val_op_name(uint32_t opcode);
/* Name of an enumerant, or its number in `tmp`. */
const char *val_enum_name(spv_operand_kind kind, uint32_t value, char *tmp, size_t tmp_size);

/* ---- module facts --------------------------------------------------------- */

/* 1 when the capability is declared, or implicitly declared by one that is
 * (the grammar's "capabilities" of a Capability enumerant, and the texts'
 * "Implicitly Declares" columns, which the grammar carries too). */
int val_has_cap(const val_ctx *v, uint32_t cap);
/* 1 when an OpCapability instruction declares `cap` itself (not implicitly). */
int val_declares_cap(const val_ctx *v, uint32_t cap);
/* 1 when opcode `op` ends a block (SPIR-V 2.2.4 "Block" termination
 * instructions), for the reader's block tracking and the structural checks. */
int val_is_terminator(uint16_t op);
/* 1 when OpExtension "name" is present. */
int val_has_ext(const val_ctx *v, const char *name);
/* 1 when the module's version is at least major.minor. */
int val_version_at_least(const val_ctx *v, uint32_t major, uint32_t minor);

/* ---- types ---------------------------------------------------------------- */

/* OpTypeInt: 1 and width/signedness. */
int val_int_type(const val_ctx *v, uint32_t type, uint32_t *o_width, uint32_t *o_signed);
/* OpTypeFloat: 1 and width; *o_encoding is VAL_NONE for the default IEEE 754
 * encoding, else the FPEncoding value. */
int val_float_type(const val_ctx *v, uint32_t type, uint32_t *o_width, uint32_t *o_encoding);
int val_is_bool(const val_ctx *v, uint32_t type);
int val_is_int_scalar(const val_ctx *v, uint32_t type, uint32_t width); /* width 0: any */
/* Scalar numerical type: an integer or a float type. */
int val_is_numeric_scalar(const val_ctx *v, uint32_t type);
/* OpTypeVector and OpTypeVectorIdEXT: component type and count; a count
 * that a specialization constant decides is VAL_SPEC_COUNT(the count's id)
 * (ids are below 2^22, so it equals no real count, and the vectors one
 * constant sizes have equal counts). */
#define VAL_SPEC_COUNT(id) (0x80000000u | (uint32_t)(id))
int val_vector_type(const val_ctx *v, uint32_t type, uint32_t *o_comp, uint32_t *o_count);
/* OpTypePointer: storage class and pointee. Untyped pointers give pointee 0. */
int val_pointer_type(const val_ctx *v, uint32_t type, uint32_t *o_storage, uint32_t *o_pointee);
/* OpTypeArray: element type and length id; OpTypeRuntimeArray gives length id 0. */
int val_array_type(const val_ctx *v, uint32_t type, uint32_t *o_elem, uint32_t *o_length_id);
int val_is_type(const val_ctx *v, uint32_t id);
/* 1 when `type` is or contains (arrays, structs) a type of opcode `op`. */
int val_type_contains(const val_ctx *v, uint32_t type, uint16_t op);

/* A cooperative matrix type with its operands. */
typedef struct val_coopmat {
    uint32_t component;           /* component type id */
    uint32_t scope_id, rows_id, cols_id, use_id;
    uint64_t scope, rows, cols, use;
    uint8_t scope_known, rows_known, cols_known, use_known; /* non-specialisable constants */
} val_coopmat;
int val_coopmat_type(const val_ctx *v, uint32_t type, val_coopmat *o);
/* 1 when an OpDecorate gives `id` the decoration (without operands looked at). */
int val_has_decoration(const val_ctx *v, uint32_t id, uint32_t decoration);
/* A cooperative vector type (OpTypeCooperativeVectorNV). */
int val_coopvec_type(const val_ctx *v, uint32_t type, uint32_t *o_comp, uint32_t *o_count_id,
                     uint64_t *o_count, int *o_count_known);
/* Number of components of a vector or cooperative vector type, when known. */
int val_component_count(const val_ctx *v, uint32_t type, uint64_t *o_count);
/* Component type of a vector, cooperative vector or cooperative matrix; the
 * type itself for scalars. */
uint32_t val_component_type(const val_ctx *v, uint32_t type);
/* 1 when two dimension ids are the same id or constants of equal value, 0
 * when both are constants of different values, -1 when a specialization
 * constant decides. */
int val_same_dim(const val_ctx *v, uint32_t a_id, uint32_t b_id);

/* ---- constants ------------------------------------------------------------ */

/* 1 when `id` is a constant instruction (OpConstant*, OpSpecConstant*). */
int val_is_constant_inst(const val_ctx *v, uint32_t id);
/* 1 when `id` is a constant that specialization cannot change, with its
 * value (integers sign-extended when the type is signed, booleans 0/1). */
int val_const_value(const val_ctx *v, uint32_t id, uint64_t *o_value);
/* As val_const_value, also taking the default value of a specialization
 * constant (OpSpecConstant, OpSpecConstantTrue/False). */
int val_const_default(const val_ctx *v, uint32_t id, uint64_t *o_value);

/* ---- tensor layout state (SPV_NV_tensor_addressing) ----------------------- */

/* What can be known of a tensor layout value by following it back through
 * the OpTensorLayout* instructions that made it (and through a Function or
 * Private variable stored exactly once). */
typedef struct val_layout_state {
    int traced;         /* 0: the value's origin is unknown */
    uint32_t dim;       /* LDim when the type is known */
    int64_t block[5], dimension[5], stride[5];
    uint8_t block_known[5], dimension_known[5], stride_known[5];
    uint32_t set_stride_off; /* OpTensorLayoutSetStrideNV in the chain (last), 0 if none */
} val_layout_state;
void val_trace_layout(const val_ctx *v, uint32_t id, val_layout_state *o);

/* ---- control flow --------------------------------------------------------- */

/* Index of the block labelled `label`, VAL_NONE if it is not a block. */
uint32_t val_block_of_label(const val_ctx *v, uint32_t label);
/* 1 when block `a` dominates block `b` (both reachable, same function). */
int val_dominates(const val_ctx *v, uint32_t a, uint32_t b);
/* Functions reached from function index `f` through OpFunctionCall, f
 * included: fills o_seen[nfuncs] with 1s. */
void val_call_closure(const val_ctx *v, uint32_t f, uint8_t *o_seen);
/* The function / block holding the instruction at `off`, VAL_NONE outside. */
uint32_t val_func_at(const val_ctx *v, uint32_t off);
uint32_t val_block_at(const val_ctx *v, uint32_t off);
/* Index of the function whose OpFunction result is `id`, VAL_NONE. */
uint32_t val_function_index(const val_ctx *v, uint32_t id);

#endif /* CVM_VALIDATE_VAL_H */
