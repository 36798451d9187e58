/* AmberScript and VkScript (the compute subsets of google/amber's two script
 * formats) on top of coopvm.h: parsers that turn a script into a
 * cvm_amber_script, and a runner that loads its buffers and pipelines into a
 * session, dispatches its RUN commands and evaluates its EXPECT commands into
 * result records.
 *
 * This layer never prints, exits or aborts; every failure is a cvm_result
 * with a cvm_diagnostic.  Script errors (CVM_ERROR_SYNTAX and the semantic
 * ones: unknown buffer, bad type...) carry `file`, 1-based `line` and
 * `column` and a message saying what was expected.  Engine errors are passed
 * through unchanged (word offset, opcode, message of the engine).  A form
 * coopvm knows and does not implement (images, samplers, graphics, a GLSL
 * shader in a build without glslang...) is CVM_ERROR_UNSUPPORTED naming it,
 * never a syntax error: a test driver counts such a script as skipped.
 *
 * A text that starts with `#!amber` is AmberScript, any other VkScript
 * (google/amber decides the same way).
 *
 * AmberScript (see amber_parse.c for the grammar in one place):
 *   #!amber, # comments, DEVICE_EXTENSION, DEVICE_FEATURE, DEVICE_PROPERTY,
 *   INSTANCE_EXTENSION (accepted, not checked: there is no instance),
 *   SET ENGINE_DATA fence_timeout_ms N (accepted, ignored),
 *   SHADER compute NAME SPIRV-BIN FILE path
 *   SHADER compute NAME SPIRV-ASM|SPIRV-HEX|GLSL [TARGET_ENV env] (FILE path | text... END)
 *          (GLSL compiled through glslang when the build has it, see amber_glsl.c)
 *   BUFFER NAME DATA_TYPE type [STD140|STD430] (SIZE n (FILE [BINARY|TEXT] path | FILL v |
 *          SERIES_FROM a INC_BY b) | DATA v... END)
 *   BUFFER NAME FORMAT vk_format ...   (R8/R16/R32/R64 + G/B/A UINT/SINT/SFLOAT,
 *          taken as vecN of the component type)
 *   PIPELINE compute NAME ... END, DERIVE_PIPELINE NAME FROM OTHER ... END with
 *     ATTACH shader [TYPE compute] [ENTRY_POINT e] [SPECIALIZE id AS type value]...
 *     SUBGROUP shader  REQUIRED_SIZE n  [FULLY_POPULATED b] [VARYING_SIZE b]  END
 *     BIND BUFFER b AS storage|uniform DESCRIPTOR_SET s BINDING n
 *          [DESCRIPTOR_OFFSET o] [DESCRIPTOR_RANGE r]
 *     BIND BUFFER b AS storage_dynamic|uniform_dynamic DESCRIPTOR_SET s BINDING n OFFSET d
 *          [DESCRIPTOR_OFFSET o] [DESCRIPTOR_RANGE r]
 *     BIND BUFFER_ARRAY b1 b2... AS ... (the same, with one OFFSET / DESCRIPTOR_OFFSET /
 *          DESCRIPTOR_RANGE per buffer)
 *     BIND BUFFER b AS push_constant
 *     BIND BUFFER b AS device_address IN b2 OFFSET n   (coopvm's extension: google/amber
 *          has no buffer device address; writes b's device address, 8 bytes, at byte
 *          offset n of b2 when the pipeline is created, for shaders that reach b only
 *          through a buffer_reference / PhysicalStorageBuffer pointer: vkrun's `bda`)
 *     COMPILE_OPTIONS ... END, SHADER_OPTIMIZATION ... END (ignored: options of
 *          compilers and optimisers coopvm does not run)
 *   RUN [TIMED_EXECUTION] pipeline X Y Z
 *   COPY a TO b
 *   EXPECT b EQ_BUFFER b2
 *   EXPECT b RMSE_BUFFER b2 TOLERANCE t
 *   EXPECT b IDX byte_offset [TOLERANCE t[%]{1,4}] EQ|NE|LT|LE|GT|GE v...
 * Types: int8/16/32/64, uint8/16/32/64, float16, float, double, vecN<t>
 * (N = 2..4), matCxR<t> (C, R = 2..4), each optionally followed by [] (an
 * array: in STD140 every element rounds up to 16 bytes), laid out as std430
 * (vec3 padded to four components, matrices column-major with vecR columns)
 * or std140 (matrix columns padded to four components as well).
 *
 * VkScript (vkscript_parse.c): sections [require] (features, extensions,
 * fence_timeout; framebuffer, depthstencil and fbsize are graphics),
 * [compute shader] (GLSL), [compute shader spirv] (SPIR-V assembly),
 * [compute shader spirv hex], and [test] with
 *   ssbo B SIZE, ssbo B subdata TYPE OFFSET v..., uniform ubo B TYPE OFFSET v...,
 *   uniform TYPE OFFSET v... (push constants), compute X Y Z,
 *   compute entrypoint NAME, tolerance t[%] (1 or 4 values),
 *   probe ssbo TYPE B OFFSET ==|!=|<|<=|>|>=|~= v...
 * (B is `binding` or `set:binding`); `\` at the end of a line continues it.
 * Buffers are made per binding, sized to the largest extent any command
 * names (as google/amber sizes them), and zero-filled; `ssbo subdata` and
 * `uniform ubo` write at their place in the command order.
 *
 * Numbers follow google/amber: an integer type takes a value as the bit
 * pattern of its width (40206 in an int16, -1 in a uint8) and a float
 * literal with an integral value (FILL 0.0); float16 data is rounded to a
 * float whose mantissa is then cut to 10 bits (toward zero), as amber does
 * and as the Vulkan CTS's float16 expectations assume; EQ and NE on floats
 * allow a relative 1e-8 as amber's verifier does.  A FILE (TEXT or BINARY)
 * decides its buffer's size whatever SIZE says.
 */
#ifndef CVM_AMBER_H
#define CVM_AMBER_H

#include <stddef.h>
#include <stdint.h>

#include "coopvm.h"

/* ---------------------------------------------------------------------------
 * The parsed script.  Everything is owned by the script and released by
 * cvm_amber_script_destroy; names and texts are NUL-terminated.  Indices
 * (buffer, shader, pipeline) are into the script's arrays.
 */

typedef enum cvm_amber_scalar {
    CVM_AMBER_INT8, CVM_AMBER_INT16, CVM_AMBER_INT32, CVM_AMBER_INT64,
    CVM_AMBER_UINT8, CVM_AMBER_UINT16, CVM_AMBER_UINT32, CVM_AMBER_UINT64,
    CVM_AMBER_FLOAT16, CVM_AMBER_FLOAT32, CVM_AMBER_FLOAT64
} cvm_amber_scalar;

/* A buffer's element type.  A scalar has rows = columns = 1, vecN rows = N,
 * matCxR columns = C and rows = R.  `std140` selects that layout (matrix
 * columns and array elements rounded up as google/amber rounds them), and
 * `array` marks a type written with a [] suffix. */
typedef struct cvm_amber_type {
    cvm_amber_scalar scalar;
    uint32_t rows;
    uint32_t columns;
    uint8_t std140;
    uint8_t array;
} cvm_amber_type;

/* Bytes of one scalar (1, 2, 4 or 8). */
uint32_t cvm_amber_scalar_size(cvm_amber_scalar s);
/* The script's name of a scalar type ("float16", "uint32", ...). */
const char *cvm_amber_scalar_name(cvm_amber_scalar s);
/* Bytes of one element in the type's layout (std430: vec3 padded to 4
 * scalars; std140: also every matrix column padded to 4 scalars, and array
 * elements rounded up to 16 bytes). */
uint32_t cvm_amber_type_stride(cvm_amber_type t);
/* 1 when two types are the same (scalar, shape and layout). */
int cvm_amber_type_equal(cvm_amber_type a, cvm_amber_type b);
/* Byte offset, inside a buffer of this type, of value slot `value_index`
 * (values are numbered element by element, column by column, row by row;
 * padding has no number). */
uint64_t cvm_amber_value_offset(cvm_amber_type t, uint64_t value_index);

typedef enum cvm_amber_shader_format {
    CVM_AMBER_SPIRV_BIN, /* binary file */
    CVM_AMBER_SPIRV_ASM, /* spirv-as text, assembled with cvm_assemble */
    CVM_AMBER_SPIRV_HEX, /* bytes as hex numbers, little-endian words */
    CVM_AMBER_GLSL       /* GLSL source, compiled with glslang (amber_glsl.c) */
} cvm_amber_shader_format;

typedef struct cvm_amber_shader {
    char *name;
    cvm_amber_shader_format format;
    char *path;        /* FILE: resolved against the script's folder; else NULL */
    char *text;        /* inline body (lines between the SHADER line and END); else NULL */
    size_t text_length;
    uint32_t text_line; /* script line of the first body line (for assembler errors) */
    char *target_env;  /* TARGET_ENV or NULL */
    uint32_t line;
} cvm_amber_shader;

typedef enum cvm_amber_init {
    CVM_AMBER_INIT_DATA,       /* DATA ... END, FILL, SERIES_FROM, a VkScript buffer:
                                  `data` holds the bytes */
    CVM_AMBER_INIT_FILE_BINARY, /* read from `path` when a session is created */
    CVM_AMBER_INIT_FILE_TEXT    /* whitespace-separated values from `path` */
} cvm_amber_init;

typedef struct cvm_amber_buffer {
    char *name;
    cvm_amber_type type;
    uint64_t elements;     /* SIZE, or the number of DATA elements */
    size_t size;           /* bytes: elements * cvm_amber_type_stride(type) */
    cvm_amber_init init;
    unsigned char *data;   /* CVM_AMBER_INIT_DATA: `size` bytes */
    char *path;            /* FILE forms: resolved path */
    uint32_t line;
} cvm_amber_buffer;

typedef struct cvm_amber_spec {
    uint32_t constant_id;
    cvm_amber_scalar type; /* as written after AS */
    uint32_t size;         /* bytes: 4 for 8/16/32-bit types and float, 8 for 64-bit */
    uint64_t bits;         /* the value, in the low `size` bytes */
} cvm_amber_spec;

typedef enum cvm_amber_bind_kind {
    CVM_AMBER_BIND_STORAGE,
    CVM_AMBER_BIND_UNIFORM,
    CVM_AMBER_BIND_PUSH_CONSTANT,
    CVM_AMBER_BIND_DEVICE_ADDRESS /* coopvm's extension, see the grammar above */
} cvm_amber_bind_kind;

typedef struct cvm_amber_binding {
    uint32_t buffer;
    cvm_amber_bind_kind kind;
    uint32_t set, binding, array_element; /* 0 for push constants */
    uint32_t target;    /* DEVICE_ADDRESS: the buffer the address is written into */
    uint64_t offset;    /* DEVICE_ADDRESS: at this byte offset (8 bytes, little-endian);
                           storage_dynamic / uniform_dynamic: the dynamic offset */
    /* The range of the buffer the descriptor covers: from byte offset
     * `offset` + `descriptor_offset` (dynamic buffers) or `descriptor_offset`,
     * `descriptor_range` bytes (UINT64_MAX: to the end, VK_WHOLE_SIZE). */
    uint64_t descriptor_offset, descriptor_range;
    uint32_t line;
} cvm_amber_binding;

typedef struct cvm_amber_pipeline {
    char *name;
    uint32_t shader;        /* UINT32_MAX until ATTACH */
    char *entry_point;      /* NULL: the module's only GLCompute entry point */
    cvm_amber_spec *specs;
    uint32_t spec_count;
    uint32_t subgroup_size; /* SUBGROUP REQUIRED_SIZE, 0 when absent */
    uint32_t subgroup_line;
    cvm_amber_binding *bindings;
    uint32_t binding_count;
    uint32_t line;
} cvm_amber_pipeline;

typedef enum cvm_amber_command_kind {
    CVM_AMBER_CMD_RUN,
    CVM_AMBER_CMD_EXPECT,
    CVM_AMBER_CMD_COPY,
    CVM_AMBER_CMD_WRITE  /* VkScript ssbo subdata / uniform ubo: bytes into a buffer */
} cvm_amber_command_kind;

typedef enum cvm_amber_expect_kind {
    CVM_AMBER_EXPECT_EQ_BUFFER,   /* bit-exact, value slot by value slot */
    CVM_AMBER_EXPECT_RMSE_BUFFER, /* sqrt(mean((a-b)^2)) <= tolerance */
    CVM_AMBER_EXPECT_IDX          /* values at a byte offset */
} cvm_amber_expect_kind;

typedef enum cvm_amber_compare {
    CVM_AMBER_EQ, CVM_AMBER_NE, CVM_AMBER_LT, CVM_AMBER_LE, CVM_AMBER_GT, CVM_AMBER_GE
} cvm_amber_compare;

typedef struct cvm_amber_command {
    cvm_amber_command_kind kind;
    uint32_t line;
    char *text;                /* the statement as written, without comment and padding */
    /* RUN */
    uint32_t pipeline;
    uint32_t groups[3];
    /* EXPECT (buffer), COPY (buffer -> other) */
    uint32_t buffer;
    uint32_t other;            /* EQ_BUFFER, RMSE_BUFFER, COPY */
    cvm_amber_expect_kind expect;
    float tolerance;           /* RMSE_BUFFER; a float as in google/amber */
    /* IDX */
    cvm_amber_compare compare;
    uint64_t offset;           /* IDX, WRITE: bytes, a multiple of the scalar size */
    /* IDX: the type the values are read as.  An AmberScript EXPECT reads the
     * buffer's own type, value slot after value slot from the one at
     * `offset`; a VkScript probe names its type, and its values are laid
     * out in that type from `offset` on (value_type differs from the
     * buffer's type, a byte buffer). */
    cvm_amber_type value_type;
    double *values;            /* expected values, each already rounded to the value
                                  type's scalar (integers exactly as int64/uint64 below) */
    int64_t *ivalues;          /* integer types: the values as integers (uint64 bits for uints) */
    uint32_t value_count;
    /* IDX TOLERANCE (VkScript: the `tolerance` in force, with ~=).  One
     * tolerance applies to every value; with several, the value that is
     * component k of its vector or matrix column uses tolerances[k], and
     * components past tolerance_count compare as EQ does. */
    double tolerances[4];
    int tolerance_percent[4];  /* 1: relative, |got-expected| <= t/100 * |expected| */
    uint32_t tolerance_count;
    /* WRITE: `data_size` bytes at byte `offset` of `buffer` */
    unsigned char *data;
    size_t data_size;
} cvm_amber_command;

typedef struct cvm_amber_requirement {
    char *name;
    uint32_t line;
} cvm_amber_requirement;

typedef struct cvm_amber_script {
    char *path;                /* as given to the parser ("<script>" for text) */
    char *dir;                 /* the folder FILE paths are relative to */
    int vkscript;              /* 1: parsed as VkScript */
    cvm_amber_requirement *extensions;
    uint32_t extension_count;
    cvm_amber_requirement *features;
    uint32_t feature_count;
    cvm_amber_requirement *properties; /* DEVICE_PROPERTY */
    uint32_t property_count;
    cvm_amber_shader *shaders;
    uint32_t shader_count;
    cvm_amber_buffer *buffers;
    uint32_t buffer_count;
    cvm_amber_pipeline *pipelines;
    uint32_t pipeline_count;
    cvm_amber_command *commands;
    uint32_t command_count;
    uint32_t run_count;        /* RUN commands among `commands` */
    uint32_t expect_count;     /* EXPECT commands among `commands` */
} cvm_amber_script;

/* Parses `length` bytes of script text, AmberScript or VkScript (above).
 * `path` names the script in diagnostics and its folder is where FILE paths
 * are looked up; NULL means "<script>" in the current folder.  Reads no file
 * (FILE contents are read by cvm_amber_session_create).  Errors:
 * CVM_ERROR_SYNTAX (with line, column and what was expected),
 * CVM_ERROR_NOT_FOUND (a name used before it is declared),
 * CVM_ERROR_UNSUPPORTED (a graphics or image construct, an HLSL or OpenCL C
 * shader), CVM_ERROR_OUT_OF_MEMORY. */
CVM_NODISCARD cvm_result cvm_amber_parse(const char *text, size_t length, const char *path,
                                         cvm_amber_script **o_script, cvm_diagnostic *o_diag);
/* Reads `path` and parses it (CVM_ERROR_IO when it cannot be read). */
CVM_NODISCARD cvm_result cvm_amber_parse_file(const char *path, cvm_amber_script **o_script,
                                              cvm_diagnostic *o_diag);
void cvm_amber_script_destroy(cvm_amber_script *script);

/* Index of the buffer / pipeline called `name`, or UINT32_MAX. */
uint32_t cvm_amber_find_buffer(const cvm_amber_script *script, const char *name);
uint32_t cvm_amber_find_pipeline(const cvm_amber_script *script, const char *name);

/* Checks every DEVICE_EXTENSION, DEVICE_FEATURE and DEVICE_PROPERTY with
 * cvm_supports_extension / cvm_supports_feature / cvm_supports_property.
 * The first unsupported one gives CVM_ERROR_UNSUPPORTED naming it, with its
 * script line. */
CVM_NODISCARD cvm_result cvm_amber_check_requirements(const cvm_amber_script *script,
                                                      cvm_diagnostic *o_diag);

/* ---------------------------------------------------------------------------
 * EXPECT results.
 */
typedef struct cvm_amber_expect_result {
    uint32_t command;          /* index into script->commands */
    uint32_t line;
    const char *text;          /* the statement (owned by the script) */
    int passed;                /* 1 or 0 */
    /* Why it failed when no value was compared (sizes or types differ, IDX
     * past the end), else "". */
    char message[256];
    /* Value slots compared, and how many failed (for RMSE_BUFFER: how many
     * differ by more than the tolerance; the test is on `rmse`). */
    uint64_t compared;
    uint64_t mismatches;
    double rmse;               /* RMSE_BUFFER: the root mean square error */
    /* Largest |got - expected| over all compared value slots (bit-identical
     * pairs count 0; a NaN against a non-NaN counts infinity). */
    double worst_error;
    uint64_t worst_index;
    /* The first failing value slot: for EQ_BUFFER the first bit difference,
     * for RMSE_BUFFER the first |difference| > tolerance (or, when none is,
     * the worst one), for IDX the first value that does not compare.  It is
     * a flat index of value slots from the start of the buffer (element *
     * components + component): a buffer read as a matrix has no shape here,
     * so row = index / columns is the reader's to compute. */
    uint64_t first_index;
    double expected_value, got_value; /* at first_index, as numbers */
    uint64_t expected_bits, got_bits; /* at first_index, the raw scalar bits */
} cvm_amber_expect_result;

/* ---------------------------------------------------------------------------
 * Sessions: buffers materialised, modules and pipelines created once; RUNs
 * dispatched as often as wanted (the benchmark's prepare-once /
 * dispatch-many).
 */
typedef struct cvm_amber_session cvm_amber_session;

/* Creates a context from `desc` (NULL for defaults), checks the
 * requirements, reads FILE buffers and shaders, creates one module per used
 * shader and one pipeline per PIPELINE, binds its buffers and push
 * constants.  The subgroup size is the scripts' SUBGROUP REQUIRED_SIZE when
 * one is given: pipelines asking for different sizes, or a size different
 * from a nonzero desc->subgroup_size, are CVM_ERROR_UNSUPPORTED.  The script
 * must outlive the session.  Errors: those of cvm_amber_check_requirements;
 * CVM_ERROR_IO naming a FILE that cannot be read (with the script line);
 * CVM_ERROR_INVALID_ARGUMENT for a FILE whose size is not the buffer's;
 * every engine error of module and pipeline creation and binding. */
CVM_NODISCARD cvm_result cvm_amber_session_create(const cvm_amber_script *script,
                                                  const cvm_context_desc *desc,
                                                  cvm_amber_session **o_session,
                                                  cvm_diagnostic *o_diag);
void cvm_amber_session_destroy(cvm_amber_session *session);

/* The context in use (for cvm_context_get_desc). */
cvm_context *cvm_amber_session_context(cvm_amber_session *session);

/* Dispatches the `run_index`-th RUN command of the script (0-based, in
 * script order; script->run_count of them).  Sets the pipeline's push
 * constants from the push-constant buffer first.  Only the dispatch: COPY
 * and VkScript's WRITE commands run in cvm_amber_execute.  Errors: the
 * engine's (diagnostic unchanged), CVM_ERROR_INVALID_ARGUMENT for a bad
 * index. */
CVM_NODISCARD cvm_result cvm_amber_session_run(cvm_amber_session *session, uint32_t run_index,
                                               cvm_diagnostic *o_diag);

/* Restores every buffer to the contents it had when the session was
 * created (an in-place copy: bound addresses do not change). */
void cvm_amber_session_reset_buffers(cvm_amber_session *session);

/* Evaluates every EXPECT of the script against the buffers as they are now.
 * `*o_results` (script->expect_count records, in script order) is owned by
 * the session and valid until the next check or destroy.  Returns
 * CVM_SUCCESS when every EXPECT holds, CVM_ERROR_EXPECTATION_FAILED when one
 * does not (results filled either way). */
cvm_result cvm_amber_session_check(cvm_amber_session *session,
                                   const cvm_amber_expect_result **o_results,
                                   uint32_t *o_count);

/* The current contents of buffer `index`: `*o_size` bytes (the script's
 * size, or for a FILE buffer the file's, which decides it as in
 * google/amber), read-write, owned by the session, never moved. */
void *cvm_amber_session_buffer(cvm_amber_session *session, uint32_t index, size_t *o_size);

/* Evaluates one EXPECT command against the session's buffers now. */
void cvm_amber_session_evaluate(cvm_amber_session *session, uint32_t command,
                                cvm_amber_expect_result *o_result);

/* ---------------------------------------------------------------------------
 * Running a whole script, as `amber` does: commands in order, RUN dispatches,
 * COPY copies, WRITE writes, EXPECT evaluates at its place.  Unlike google/amber, a
 * failing EXPECT does not stop the script (every EXPECT gets a record).
 */
typedef struct cvm_amber_report {
    cvm_amber_expect_result *results; /* one per EXPECT reached, in order */
    uint32_t result_count;
    uint32_t failed;                  /* records with passed == 0 */
    uint32_t error_line;              /* script line of the command that ended the run
                                         with an error, else 0 */
} cvm_amber_report;

/* Returns CVM_SUCCESS when all ran and every EXPECT held,
 * CVM_ERROR_EXPECTATION_FAILED when all ran and one did not, or the error
 * that stopped it (`o_report->error_line` says where; results reached so far
 * are kept).  Release the report with cvm_amber_report_release. */
cvm_result cvm_amber_execute(const cvm_amber_script *script, const cvm_context_desc *desc,
                             cvm_amber_report *o_report, cvm_diagnostic *o_diag);
void cvm_amber_report_release(cvm_amber_report *report);

/* What cvm_amber_session_differences says of a value slot. */
enum { CVM_AMBER_SLOT_NOT_COMPARED = 0, CVM_AMBER_SLOT_PASSED = 1, CVM_AMBER_SLOT_FAILED = 2 };

/* EXPECT `command` slot by slot, against the buffers as they are now: for
 * every value slot of its buffer (numbered as cvm_amber_value_offset
 * numbers them), |got - expected| as worst_error counts it (0 for
 * bit-identical values, infinity for a NaN on one side) and a
 * CVM_AMBER_SLOT_* state (an IDX compares only its values; the rest are
 * NOT_COMPARED).  *o_err and *o_state (*o_count entries) are the caller's,
 * freed with cvm_free.  Errors: CVM_ERROR_INVALID_ARGUMENT when the command
 * is not an EXPECT or compares nothing (sizes or types differ, IDX out of
 * range), CVM_ERROR_OUT_OF_MEMORY, CVM_ERROR_LIMIT (over 2^32 slots). */
cvm_result cvm_amber_session_differences(cvm_amber_session *session, uint32_t command,
                                        double **o_err, uint8_t **o_state, uint64_t *o_count);

/* Sets the debug sinks (cvm_pipeline_set_debug) of every pipeline of the
 * session. */
CVM_NODISCARD cvm_result cvm_amber_session_set_debug(cvm_amber_session *session,
                                                     const cvm_debug_desc *debug,
                                                     cvm_diagnostic *o_diag);
/* The pipeline of PIPELINE `index` (NULL for a bad index). */
cvm_pipeline *cvm_amber_session_pipeline(cvm_amber_session *session, uint32_t index);

/* What a caller of cvm_amber_execute_hooked sees on the way: debug sinks
 * for every pipeline, a call before each RUN (`command` indexes
 * script->commands), one after it with its status, and one after each
 * EXPECT, while the buffers hold what that EXPECT compared.  Every member
 * may be NULL. */
typedef struct cvm_amber_hooks {
    const cvm_debug_desc *debug;
    void (*before_run)(void *user, cvm_amber_session *session, uint32_t command);
    void (*after_expect)(void *user, cvm_amber_session *session,
                         const cvm_amber_expect_result *result);
    void *user;
    void (*after_run)(void *user, cvm_amber_session *session, uint32_t command,
                      cvm_result result);
} cvm_amber_hooks;

/* cvm_amber_execute with hooks (NULL: none). */
cvm_result cvm_amber_execute_hooked(const cvm_amber_script *script, const cvm_context_desc *desc,
                                    const cvm_amber_hooks *hooks, cvm_amber_report *o_report,
                                    cvm_diagnostic *o_diag);

/* IEEE binary16 <-> binary32, round to nearest even (NaN stays NaN). */
float cvm_amber_half_to_float(uint16_t h);
uint16_t cvm_amber_float_to_half(float f);

#endif /* CVM_AMBER_H */
