/*
 * coopvm: run SPIR-V compute shaders with cooperative matrices and vectors on
 * the CPU.
 *
 * Everything here is reentrant: there is no global state.  Handles are opaque;
 * each *_create has a matching *_destroy that accepts NULL.  Fallible calls
 * return a cvm_result and, when `o_diag` is not NULL, fill it with the detail
 * (the place in the module or text, and a message).  The library never prints,
 * exits or aborts.
 */
#ifndef COOPVM_H
#define COOPVM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CVM_API __attribute__((visibility("default")))
#define CVM_NODISCARD __attribute__((warn_unused_result))
#else
#define CVM_API
#define CVM_NODISCARD
#endif

#define CVM_VERSION_MAJOR 0
#define CVM_VERSION_MINOR 1
#define CVM_VERSION_PATCH 0

/* ---------------------------------------------------------------------------
 * Status codes.  The numeric values are fixed; new codes are only appended.
 */
typedef enum cvm_result {
    CVM_SUCCESS = 0,
    CVM_ERROR_INVALID_ARGUMENT = 1,  /* a NULL handle, a zero size, a bad flag */
    CVM_ERROR_OUT_OF_MEMORY = 2,     /* an allocation failed or a memory limit was hit */
    CVM_ERROR_IO = 3,                /* a file could not be read or written */
    CVM_ERROR_MALFORMED = 4,         /* the binary is not well-formed SPIR-V */
    CVM_ERROR_INVALID_MODULE = 5,    /* well-formed, but breaks a rule of the texts */
    CVM_ERROR_UNSUPPORTED = 6,       /* a capability, instruction or feature coopvm lacks */
    CVM_ERROR_NOT_FOUND = 7,         /* entry point, specialization id, buffer name */
    CVM_ERROR_MISSING_BINDING = 8,   /* the shader uses a (set, binding) with no buffer */
    CVM_ERROR_OUT_OF_BOUNDS = 9,     /* a memory access outside its buffer or variable */
    CVM_ERROR_BUDGET_EXCEEDED = 10,  /* the instruction budget ran out (a runaway loop) */
    CVM_ERROR_DIVERGENT_COLLECTIVE = 11, /* a barrier or collective instruction not reached
                                            by every invocation of its scope together */
    CVM_ERROR_LIMIT = 12,            /* call depth, matrix size or another engine limit */
    CVM_ERROR_SYNTAX = 13,           /* text (assembly, AmberScript) could not be parsed */
    CVM_ERROR_EXPECTATION_FAILED = 14, /* an AmberScript EXPECT did not hold */
    CVM_ERROR_CALLBACK_MISMATCH = 15,  /* checking mode: callbacks gave order-dependent or
                                          decoder-dependent results */
    CVM_ERROR_INTERNAL = 16          /* a bug in coopvm: please report it */
} cvm_result;

/* The name of a status, e.g. "CVM_ERROR_OUT_OF_BOUNDS".  Never NULL. */
CVM_API const char *cvm_result_string(cvm_result result);

/* Where and why something failed.  Fields that do not apply are 0 (numbers)
 * or "" (strings); `word_offset` is UINT32_MAX when there is no module place. */
typedef struct cvm_diagnostic {
    cvm_result result;
    uint32_t word_offset;  /* offset in words of the instruction in the module */
    uint32_t opcode;       /* its SPIR-V opcode */
    uint32_t line;         /* 1-based: text position, or OpLine of the module */
    uint32_t column;       /* 1-based column in text input */
    char file[256];        /* text file, or the OpLine/OpString file of the module */
    char message[768];     /* one line, no trailing newline */
} cvm_diagnostic;

/* Memory the library hands to the caller (assembled words, disassembly text)
 * is released with cvm_free. */
CVM_API void cvm_free(void *p);

/* ---------------------------------------------------------------------------
 * Context: engine settings shared by modules and pipelines.
 */
typedef struct cvm_context cvm_context;
typedef struct cvm_module cvm_module;
typedef struct cvm_pipeline cvm_pipeline;

typedef enum cvm_context_flags {
    /* Out-of-bounds loads return zero and stores are dropped instead of
     * failing (Vulkan robustBufferAccess-like). */
    CVM_FLAG_ROBUST_ACCESS = 1u << 0,
    /* The checking mode, for shaders that depend on what the texts leave
     * open.  Run cooperative-matrix callbacks (CombineFunc, per-element Func,
     * DecodeFunc, DecodeVectorFunc) in shuffled order, repeat calls, and run
     * both decoders of a decode-vector load; report differences as
     * CVM_ERROR_CALLBACK_MISMATCH (SPV_NV_cooperative_matrix2 leaves order and
     * repetition open).  Values SPV_QCOM_cooperative_matrix_conversion leaves
     * undefined (OpCompositeExtractCoopMatQCOM for invocations past the rows
     * or columns; rows or columns of OpCompositeConstructCoopMatQCOM whose
     * invocation does not exist) are a poison value instead of zero: f32
     * 0x7FC0DEAD, f16 0x7EAD (quiet NaNs), 32-bit integers 0xDEADBEEF, 8-bit
     * integers 0xDE. */
    CVM_FLAG_CHECK_CALLBACKS = 1u << 1,
    /* Skip cvm_validate in cvm_module_create (the engine then meets broken
     * rules, if at all, when it lowers or runs the module). */
    CVM_FLAG_NO_VALIDATION = 1u << 2
} cvm_context_flags;

typedef struct cvm_context_desc {
    uint32_t threads;             /* worker threads for workgroups; 0 = all cores */
    uint32_t subgroup_size;       /* lanes per subgroup, power of two 1..128; 0 = 32 */
    uint64_t instruction_budget;  /* per dispatch, counted per executed instruction of a
                                     subgroup; 0 = default (CVM_DEFAULT_BUDGET) */
    uint32_t max_call_depth;      /* 0 = default */
    uint64_t memory_limit;        /* bytes of engine memory per workgroup; 0 = default */
    uint32_t flags;               /* cvm_context_flags */
    uint64_t seed;                /* for the checking mode's shuffles */
} cvm_context_desc;

/* `desc` may be NULL for defaults. */
CVM_API CVM_NODISCARD cvm_result cvm_context_create(const cvm_context_desc *desc,
                                                    cvm_context **o_ctx,
                                                    cvm_diagnostic *o_diag);
CVM_API void cvm_context_destroy(cvm_context *ctx);
/* The settings in force (defaults resolved). */
CVM_API void cvm_context_get_desc(const cvm_context *ctx, cvm_context_desc *o_desc);

/* ---------------------------------------------------------------------------
 * Buffers reached only through device addresses (Vulkan's buffer device
 * address, VK_KHR_buffer_device_address; SPIR-V PhysicalStorageBuffer
 * pointers, GLSL_EXT_buffer_reference): memory that no descriptor names,
 * whose address a shader reads from another buffer, a push constant or a
 * specialization constant.
 */
typedef struct cvm_buffer cvm_buffer;

/* Registers `size` bytes of caller memory at `data` with the context and
 * gives it a device address (cvm_buffer_device_address) that every
 * pipeline of the context accepts in PhysicalStorageBuffer pointers,
 * including addresses inside it (address + byte offset).  The memory is read
 * and written in place by dispatches; the caller keeps it alive and unmoved
 * until cvm_buffer_destroy, and must not destroy a buffer while a dispatch
 * that uses it runs.  Accesses outside [address, address + size) are
 * reported as CVM_ERROR_OUT_OF_BOUNDS like any other (or dropped in robust
 * mode).  Errors: CVM_ERROR_INVALID_ARGUMENT, CVM_ERROR_OUT_OF_MEMORY,
 * CVM_ERROR_LIMIT (size of 2^40 bytes or more, or 2^24 - 2^20 buffers). */
CVM_API CVM_NODISCARD cvm_result cvm_buffer_create(cvm_context *ctx, void *data, size_t size,
                                                   cvm_buffer **o_buffer,
                                                   cvm_diagnostic *o_diag);
/* Unregisters the buffer (the memory stays the caller's); its address may
 * be given to a later buffer.  NULL is accepted. */
CVM_API void cvm_buffer_destroy(cvm_buffer *buffer);
/* The buffer's device address (nonzero, fixed for its lifetime), the value
 * a shader's PhysicalStorageBuffer pointer holds for its first byte; 0 for
 * NULL. */
CVM_API uint64_t cvm_buffer_device_address(const cvm_buffer *buffer);

/* ---------------------------------------------------------------------------
 * Modules.
 */

/* Parses and checks a SPIR-V binary of `word_count` 32-bit words (host byte
 * order, or byte-swapped: the magic number decides).  The words are copied;
 * the caller may free them on return.  Unless the context has
 * CVM_FLAG_NO_VALIDATION, the module is first validated as cvm_validate does
 * for the "vulkan1.4" target, and an invalid module is refused with the
 * validator's diagnostic.  Errors: CVM_ERROR_MALFORMED (header, truncation,
 * ids past the bound), CVM_ERROR_UNSUPPORTED (a capability or instruction
 * the engine lacks), CVM_ERROR_INVALID_MODULE (a rule of the texts). */
CVM_API CVM_NODISCARD cvm_result cvm_module_create(cvm_context *ctx, const uint32_t *words,
                                                   size_t word_count, cvm_module **o_module,
                                                   cvm_diagnostic *o_diag);
/* Reads a .spv file and calls cvm_module_create. */
CVM_API CVM_NODISCARD cvm_result cvm_module_create_from_file(cvm_context *ctx, const char *path,
                                                             cvm_module **o_module,
                                                             cvm_diagnostic *o_diag);
CVM_API void cvm_module_destroy(cvm_module *module);

/* ---------------------------------------------------------------------------
 * Pipelines: an entry point of a module with its specialization constants,
 * bound buffers and push constants.
 */

/* A specialization constant value (VkSpecializationMapEntry + data): `size`
 * is 1, 2, 4 or 8 bytes (a bool is 4 bytes, nonzero = true); the value is in
 * the low `size` bytes of `bits`. */
typedef struct cvm_specialization {
    uint32_t constant_id;  /* the SpecId decoration */
    uint32_t size;
    uint64_t bits;
} cvm_specialization;

/* `entry_point` NULL takes the module's only GLCompute entry point.  The
 * module must outlive the pipeline.  Errors: CVM_ERROR_NOT_FOUND (entry
 * point), CVM_ERROR_UNSUPPORTED, CVM_ERROR_INVALID_MODULE. */
CVM_API CVM_NODISCARD cvm_result cvm_pipeline_create(cvm_module *module, const char *entry_point,
                                                     const cvm_specialization *specs,
                                                     uint32_t spec_count,
                                                     cvm_pipeline **o_pipeline,
                                                     cvm_diagnostic *o_diag);
CVM_API void cvm_pipeline_destroy(cvm_pipeline *pipeline);

/* Workgroup size after specialization (LocalSize, LocalSizeId or the
 * WorkgroupSize built-in). */
CVM_API void cvm_pipeline_local_size(const cvm_pipeline *pipeline, uint32_t o_size[3]);

/* Binds caller memory to (set, binding, array_element): a storage or uniform
 * buffer.  `size` is in bytes.  The memory is read and written in place by
 * dispatches and must stay alive and unmoved until rebound or the pipeline is
 * destroyed.  The buffer also gets a PhysicalStorageBuffer device address
 * (cvm_pipeline_buffer_address). */
CVM_API CVM_NODISCARD cvm_result cvm_pipeline_bind_buffer(cvm_pipeline *pipeline, uint32_t set,
                                                          uint32_t binding,
                                                          uint32_t array_element, void *data,
                                                          size_t size, cvm_diagnostic *o_diag);
/* The device address (for PhysicalStorageBuffer pointers, e.g. passed in a
 * push constant) of the buffer bound at (set, binding, array_element), or 0.
 * It is valid for this pipeline only; a buffer that every pipeline (or no
 * descriptor) reaches is made with cvm_buffer_create. */
CVM_API uint64_t cvm_pipeline_buffer_address(const cvm_pipeline *pipeline, uint32_t set,
                                             uint32_t binding, uint32_t array_element);
/* Copies `size` bytes of push constants (the data is copied). */
CVM_API CVM_NODISCARD cvm_result cvm_pipeline_set_push_constants(cvm_pipeline *pipeline,
                                                                 const void *data, size_t size,
                                                                 cvm_diagnostic *o_diag);

/* Runs groups_x * groups_y * groups_z workgroups and returns when all are
 * done.  On error (out of bounds, budget, divergent collective...) the first
 * failing workgroup's diagnostic names the instruction (word offset, opcode,
 * OpLine) and invocation; nothing is written outside any bound buffer, but
 * buffers may hold partial results. */
CVM_API CVM_NODISCARD cvm_result cvm_pipeline_dispatch(cvm_pipeline *pipeline, uint32_t groups_x,
                                                       uint32_t groups_y, uint32_t groups_z,
                                                       cvm_diagnostic *o_diag);

/* ---------------------------------------------------------------------------
 * Capabilities, in the shape of the Vulkan queries.
 */

/* 1 when a Vulkan device extension (e.g. "VK_KHR_cooperative_matrix") is
 * implemented, else 0. */
CVM_API int cvm_supports_extension(const char *name);
/* 1 when a feature named as AmberScript's DEVICE_FEATURE names it
 * ("Struct.member", e.g. "SubgroupSizeControl.subgroupSizeControl",
 * "CooperativeMatrixFeaturesKHR.cooperativeMatrix") is supported, else 0. */
CVM_API int cvm_supports_feature(const char *name);

/* Engine limits, in the shape of VkPhysicalDeviceCooperativeMatrix2PropertiesNV
 * and the compute limits of VkPhysicalDeviceLimits. */
typedef struct cvm_limits {
    uint32_t max_matrix_dimension;           /* rows or columns of one cooperative matrix */
    uint32_t flexible_dimension_granularity; /* cooperativeMatrixFlexibleDimensionsMaxDimension
                                                granularity: any size that is a multiple */
    uint32_t max_workgroup_invocations;      /* maxComputeWorkGroupInvocations, also the
                                                workgroup-scope matrix limit */
    uint32_t min_subgroup_size, max_subgroup_size; /* VK_EXT_subgroup_size_control */
    uint32_t callback_batch;                 /* lanes of one callback batch */
} cvm_limits;

CVM_API void cvm_get_limits(cvm_limits *o_limits);

/* ---------------------------------------------------------------------------
 * SPIR-V text form (the spirv-as / spirv-dis format of SPIRV-Tools).
 */
typedef enum cvm_text_flags {
    CVM_TEXT_RAW_ID = 1u << 0,              /* dis: %N ids instead of friendly names */
    CVM_TEXT_NO_HEADER = 1u << 1,           /* dis: omit the "; SPIR-V" comment block */
    CVM_TEXT_PRESERVE_NUMERIC_IDS = 1u << 2 /* as: %N keeps the number N */
} cvm_text_flags;

/* Disassembles `word_count` words into NUL-terminated text (free with
 * cvm_free); `o_length` (may be NULL) gets its length without the NUL. */
CVM_API CVM_NODISCARD cvm_result cvm_disassemble(const uint32_t *words, size_t word_count,
                                                 uint32_t flags, char **o_text,
                                                 size_t *o_length, cvm_diagnostic *o_diag);
/* Assembles `length` bytes of text into words (free with cvm_free).  Errors
 * are CVM_ERROR_SYNTAX with the 1-based line and column. `target_env` may be
 * NULL ("spv1.6"); it sets the header version, e.g. "vulkan1.3" -> 1.6. */
CVM_API CVM_NODISCARD cvm_result cvm_assemble(const char *text, size_t length, uint32_t flags,
                                              const char *target_env, uint32_t **o_words,
                                              size_t *o_word_count, cvm_diagnostic *o_diag);

/* ---------------------------------------------------------------------------
 * Validation: the rules of SPV_KHR_cooperative_matrix, SPV_NV_cooperative_matrix2
 * with SPV_NV_tensor_addressing, SPV_NV_cooperative_matrix_decode_vector,
 * SPV_QCOM_cooperative_matrix_conversion and SPV_NV_cooperative_vector, the
 * Vulkan environment rules for them (VUIDs of the Vulkan specification's
 * SPIR-V environment appendix), and the core SPIR-V structure the engine
 * relies on (the binary, ids defined once and before use, the logical
 * layout, functions and blocks, structured control flow, operand types).
 * For the rest of core SPIR-V, SPIRV-Tools' spirv-val remains the reference.
 * cvm_validation_rule_get lists every rule with the text and section it
 * comes from.
 */
typedef struct cvm_validate_options {
    /* NULL = "spv1.6".  "spv1.0" .. "spv1.6" (universal), "vulkan1.0" ..
     * "vulkan1.4", "vulkan1.1spv1.4": the newest SPIR-V version accepted
     * (Vulkan 1.0: 1.0, 1.1: 1.3, 1.2: 1.5, 1.3 and 1.4: 1.6), and for the
     * vulkan targets the Vulkan environment rules. */
    const char *target_env;
    uint32_t flags; /* reserved: 0 */
} cvm_validate_options;

/* Validates `word_count` words (host byte order or byte-swapped); the words
 * are only read.  `options` may be NULL.  Returns CVM_SUCCESS for a valid
 * module, else the first broken rule in `o_diag`: CVM_ERROR_MALFORMED (the
 * header, the instruction stream, an instruction against its grammar, an id
 * outside the bound) or CVM_ERROR_INVALID_MODULE (any other rule), with
 * word_offset and opcode of the instruction, the OpLine source position
 * when the module has one (file, line, column), and the message
 *     "[RULE-ID] what must hold: what is wrong (text, section) at word N:
 *      %x = OpFoo %y ..."
 * (one line; the instruction as spirv-val quotes it, with spirv-dis's
 * friendly names).  CVM_ERROR_INVALID_ARGUMENT for an unknown target or
 * flags, CVM_ERROR_OUT_OF_MEMORY. */
CVM_API CVM_NODISCARD cvm_result cvm_validate(const uint32_t *words, size_t word_count,
                                              const cvm_validate_options *options,
                                              cvm_diagnostic *o_diag);

/* One rule of the validator: static strings, alive for the program's life. */
typedef struct cvm_validation_rule {
    const char *id;       /* "KHR-CM.MulAdd-A", "VUID-StandaloneSpirv-Scope-12243" */
    const char *source;   /* the text, e.g. "SPV_KHR_cooperative_matrix rev 10" */
    const char *section;  /* its section, e.g. "3.42.13 OpCooperativeMatrixMulAddKHR" */
    const char *text;     /* what must hold */
    int vulkan_only;      /* 1: checked for vulkan* targets only */
    int checked;          /* 0: a rule of the texts a module alone cannot be checked
                             for (device properties, pipeline flags, run-time
                             values); `text` says why */
} cvm_validation_rule;

CVM_API uint32_t cvm_validation_rule_count(void);
/* CVM_ERROR_INVALID_ARGUMENT when index >= cvm_validation_rule_count(). */
CVM_API cvm_result cvm_validation_rule_get(uint32_t index, cvm_validation_rule *o_rule);

#ifdef __cplusplus
}
#endif

#endif /* COOPVM_H */
