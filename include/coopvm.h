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
                                            by every invocation of its scope together, or
                                            reached with operands the texts require equal
                                            in all of them (dynamically uniform) that differ */
    CVM_ERROR_LIMIT = 12,            /* call depth, matrix size or another engine limit */
    CVM_ERROR_SYNTAX = 13,           /* text (assembly, AmberScript) could not be parsed */
    CVM_ERROR_EXPECTATION_FAILED = 14, /* an AmberScript EXPECT did not hold */
    CVM_ERROR_CALLBACK_MISMATCH = 15,  /* checking mode: callbacks gave order-dependent or
                                          decoder-dependent results */
    CVM_ERROR_INTERNAL = 16,         /* a bug in coopvm: please report it */
    CVM_INCOMPLETE = 17,             /* not an error (VK_INCOMPLETE): a query's output was
                                        too small for everything; see the call */
    CVM_ERROR_TIERS_DIFFER = 18      /* CVM_FLAG_COMPARE_TIERS: the compiled tier and the
                                        interpreter ended a dispatch differently (a bug in
                                        coopvm's compiled tier: please report it; unless
                                        the shader races, see the flag) */
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

/* Receives one warning of the validator (cvm_validate_options.on_warning,
 * cvm_context_desc.on_warning): a rule of warning severity that the module
 * breaks (cvm_validation_rule.warning), which does not refuse it.  The
 * diagnostic has the fields and message form of an error of cvm_validate,
 * with `result` CVM_SUCCESS; it is valid during the call only.  Called on
 * the thread that validates, in module order. */
typedef void (*cvm_warning_fn)(void *user, const cvm_diagnostic *warning);

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
     * integers 0xDE.  And (SPV_NV_cooperative_vector: the matrix and bias
     * "must not be modified while a shader might be using them") a dispatch
     * with OpCooperativeVectorMatrixMul(Add)NV copies its buffers first and
     * fails with CVM_ERROR_INVALID_MODULE, naming NV-CV.Matrix-Unmodified,
     * the byte and the instruction, when bytes such an instruction read as
     * its matrix or bias differ from the copy at the end of the dispatch
     * (src/exec/read_log.c; a store of the same bytes is not seen).  And
     * a tensor load or store whose Pointer is not a multiple of 16 bytes
     * fails with CVM_ERROR_INVALID_MODULE naming NV-CM2.Pointer-Alignment
     * (ggml's shaders and the Vulkan CTS break that rule: the default mode
     * runs such loads and stores as written; src/exec/ops/tensor_ops.c). */
    CVM_FLAG_CHECK_CALLBACKS = 1u << 1,
    /* OpCooperativeMatrixMulAddKHR on f16, bf16, e4m3 and e5m2 matrices
     * accumulates in double and rounds once per result element (the result
     * closest to exact) instead of the default: f32 accumulation, one fused
     * multiply-add per k in order of k, as GPUs accumulate these kinds
     * (ARCHITECTURE.md "Numerics"; src/exec/kernels/matmul.h).  The
     * cooperative-vector products of f16/e4m3/e5m2 operands likewise
     * accumulate in double instead of f32 (src/exec/kernels/coopvec_kernels.h). */
    CVM_FLAG_PRECISE = 1u << 2,
    /* bf16 x bf16 MulAdd through the CPU's AVX512_BF16 dot product
     * (vdpbf16ps) where it has one, with that instruction's numerics
     * (products added in pairs along K, subnormals flushed to zero; the last
     * bits may differ from the default and between CPU vendors).  Faster
     * than the default only where the CPU issues vdpbf16ps about as fast as
     * an f32 FMA (it does twice the multiply-adds); on some it is slower
     * (an AVX-512 Xeon measured for issue 16 issues it at a quarter of the
     * FMA rate: half the multiply-adds per second).  Without AVX512_BF16 the
     * default runs; CVM_FLAG_PRECISE takes precedence. */
    CVM_FLAG_BF16_PAIRS = 1u << 3,
    /* Give the cooperative-vector optimal layouts (InferencingOptimalNV,
     * TrainingOptimalNV) a scrambled element order instead of the default
     * tight row-major one, in the shader and in
     * cvm_convert_cooperative_vector_matrix alike, so that a shader whose
     * matrices skipped the conversion gives visibly wrong results.  The
     * layouts are implementation-defined (VK_NV_cooperative_vector), so a
     * correct program works either way. */
    CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS = 1u << 4,
    /* Skip cvm_validate in cvm_module_create (the engine then meets broken
     * rules, if at all, when it lowers or runs the module). */
    CVM_FLAG_NO_VALIDATION = 1u << 5,
    /* Run the engine's reference paths only: the per-lane memory accesses
     * (one bounds check and one copy per invocation) and the per-lane
     * element-wise kernels, instead of the fast paths that check a whole
     * instruction's address range at once, copy contiguous lanes as blocks
     * and compute all lanes in one pass (src/exec/ops/memory.c, ewise.c).
     * Results and errors are the same either way; the tests compare the
     * two (tests/unit/test_fast_paths.c). */
    CVM_FLAG_REFERENCE_PATHS = 1u << 6,
    /* The compiled tier (src/exec/jit/jit.h, in builds with LLVM): a shader
     * whose invocations never wait for one another (no barrier, subgroup
     * or cooperative instruction; the header lists what it takes) is compiled to native code at its first dispatch of at least
     * CVM_JIT_MIN_INVOCATIONS invocations, and its invocations run one after
     * the other.  A shader with barriers, subgroup instructions or Workgroup
     * variables (subgroup instructions where every invocation still running
     * reaches them together) is compiled so too, each invocation suspended
     * at each of them until all have reached it.  A shader of
     * CVM_JIT_ASYNC_INSNS instructions or more compiles on a thread of its
     * own while its dispatches run interpreted.  A shader with
     * cooperative-matrix instructions whose other
     * values are all equal across the workgroup (loop counters, tile
     * coordinates, tensor layouts: the usual GEMM) is compiled at its first
     * dispatch of CVM_JIT_MIN_SCOPE_GROUPS workgroups or of
     * CVM_JIT_MIN_INVOCATIONS invocations into code that runs once per
     * workgroup and hands each matrix instruction to the interpreter's
     * handler.  Leaf callbacks (a DecodeFunc, per-element or reduction
     * function of one block of pure instructions) are compiled once the
     * pipeline has made CVM_JIT_LEAF_MIN_CALLS calls of them, whatever the
     * entry point.  Results are the interpreter's, bit for bit; a failing
     * dispatch may stop at another invocation.  CVM_FLAG_JIT compiles at
     * every dispatch size and at the first leaf call (the tests compare the
     * tiers with it);
     * CVM_FLAG_NO_JIT never compiles.  CVM_FLAG_REFERENCE_PATHS, a trace or
     * DebugPrintf messages (cvm_pipeline_set_debug) keep the interpreter.
     * The environment variable COOPVM_JIT overrides these two flags
     * (cvm_context_create); cvm_pipeline_tier_info says what the tier did,
     * and why it did not take a shader. */
    CVM_FLAG_JIT = 1u << 7,
    CVM_FLAG_NO_JIT = 1u << 8,
    /* Differential testing of the two tiers (src/api/api.c "Comparing the
     * tiers").  Each dispatch runs twice from the same memory: first with
     * the compiled tier forced on everything it takes (as CVM_FLAG_JIT,
     * whatever the size or the number of callback calls), then on the
     * interpreter alone (as CVM_FLAG_NO_JIT), every buffer bound to the
     * pipeline and every cvm_buffer_create buffer restored in between.  When
     * compiled code ran in the first (workgroups or leaf callbacks), the two
     * runs must end alike: the same status and, when both succeed, the same
     * bytes in every buffer.  Otherwise the dispatch fails with
     * CVM_ERROR_TIERS_DIFFER and a message naming the first byte that
     * differs (set, binding and array element, or the address-only buffer;
     * byte offset; the value's place in the block and its type; both values;
     * the instructions that store to that buffer), or both statuses.  The
     * buffers are left as the interpreter wrote them; a dispatch that fails
     * on both tiers with the same status returns the interpreter's
     * diagnostic, without comparing memory (the tiers may stop at different
     * invocations: CVM_FLAG_JIT above).  When no compiled code ran (a shader
     * and callbacks the tier does not take) the first run stands alone: it
     * was the interpreter's.  DebugPrintf messages are delivered once, from
     * the run that stands.  A trace and CVM_FLAG_REFERENCE_PATHS keep the
     * interpreter (the dispatch runs once); in a build without LLVM every
     * dispatch runs once.  A shader whose result depends on the order of
     * its workgroups (a race, or atomics that allocate output slots) may
     * differ between any two runs, so compares unequal by nature; so does
     * one whose invocations race within a workgroup (one writes what
     * another reads or writes, unsynchronized): the compiled tier runs
     * them one after another, the interpreter in lockstep, and the memory
     * model allows both results.
     * cvm_pipeline_tier_info counts the dispatches compared.  Costs two
     * copies of the buffers and two runs per dispatch: a testing mode. */
    CVM_FLAG_COMPARE_TIERS = 1u << 9
} cvm_context_flags;

typedef struct cvm_context_desc {
    uint32_t threads;             /* worker threads for workgroups; 0 = all cores.  The
                                     thread that dispatches is one of them; the context
                                     starts the others (threads - 1 at most) at the first
                                     dispatch that wants them and keeps them until
                                     cvm_context_destroy.  Dispatches from several
                                     application threads at once share them, each
                                     dispatching thread working on its own dispatch */
    uint32_t subgroup_size;       /* lanes per subgroup, power of two 1..128; 0 = 32 */
    uint64_t instruction_budget;  /* per dispatch, counted per executed instruction of a
                                     subgroup, an instruction on large values counting
                                     one more per KiB of its largest value and per 1024
                                     multiply-adds of a matrix product; exhausted:
                                     CVM_ERROR_BUDGET_EXCEEDED; 0 = default
                                     (CVM_DEFAULT_BUDGET) */
    uint32_t max_call_depth;      /* 0 = default */
    uint64_t memory_limit;        /* bytes of engine memory per workgroup; 0 = default */
    uint32_t flags;               /* cvm_context_flags */
    uint64_t seed;                /* for the checking mode's shuffles */
    /* Receives the warnings of the validation cvm_module_create runs (NULL:
     * they are dropped); a warning never refuses a module. */
    cvm_warning_fn on_warning;
    void *warning_user;           /* passed to on_warning */
} cvm_context_desc;

/* `desc` may be NULL for defaults.
 *
 * The environment variable COOPVM_JIT, read here, overrides the choice of
 * tier that desc->flags make, so that a program (the Vulkan driver under
 * the CTS, a test) changes it without being rebuilt:
 *   always   as CVM_FLAG_JIT: compile every shader and leaf callback the
 *            compiled tier takes, whatever the dispatch's size or the calls
 *            made (CVM_FLAG_NO_JIT cleared)
 *   never    as CVM_FLAG_NO_JIT: the interpreter only (CVM_FLAG_JIT cleared)
 *   compare  as CVM_FLAG_COMPARE_TIERS: every dispatch on both tiers,
 *            compared (CVM_FLAG_JIT and CVM_FLAG_NO_JIT cleared)
 *   auto, or unset or empty: desc->flags decide
 * Any other value is CVM_ERROR_INVALID_ARGUMENT naming it (a misspelt
 * setting would otherwise test the wrong tier silently).
 * cvm_context_get_desc returns the flags in force. */
CVM_API CVM_NODISCARD cvm_result cvm_context_create(const cvm_context_desc *desc,
                                                    cvm_context **o_ctx,
                                                    cvm_diagnostic *o_diag);
CVM_API void cvm_context_destroy(cvm_context *ctx);
/* The settings in force (defaults resolved). */
CVM_API void cvm_context_get_desc(const cvm_context *ctx, cvm_context_desc *o_desc);

/* Where a context's dispatches spent their time, summed over every
 * dispatch run on it since its creation (a dispatch compared on both tiers,
 * CVM_FLAG_COMPARE_TIERS, counts its two runs): for finding why a dispatch
 * on T threads takes more than 1/T of its time on one thread.  Times are
 * CLOCK_MONOTONIC nanoseconds.
 *
 * A dispatch offers `threads` threads: desc.threads, or fewer when it has
 * fewer workgroups.  Its parallel section runs from the moment its job is
 * queued for them to the return of the last worker; each worker (the
 * dispatching thread is one) spends that section as
 *   wake      queued -> the worker starts on the job (thread wake-up; ~0
 *             for the dispatching thread),
 *   setup     creating its workgroup state (cvm_group),
 *   busy      taking workgroups and running them,
 *   teardown  merging its counts and freeing its state,
 *   tail      its return -> the section's end (waiting for the slowest),
 * and an offered thread that never joined (a busy pool, threads that
 * could not start) spends it all as `absent`.  So, exactly:
 *   thread_ns = wake + setup + busy + teardown + tail + absent,
 * thread_ns being the sum over dispatches of threads x parallel_ns.
 * wall_ns - parallel_ns is the dispatching thread's serial part (bindings,
 * the choice of tier, checks and messages after the run).  Comparing busy_ns
 * at T threads with busy_ns at one shows what running together costs each
 * workgroup (shared caches, memory bandwidth, clock speed). */
typedef struct cvm_dispatch_profile {
    uint64_t dispatches;
    uint64_t workgroups;
    uint64_t wall_ns;     /* each dispatch's run, entry to return */
    uint64_t parallel_ns; /* of it, its parallel section */
    uint64_t threads;     /* threads offered, summed over dispatches */
    uint64_t workers;     /* of them, those that joined */
    uint64_t thread_ns;   /* threads x parallel_ns, summed over dispatches */
    uint64_t wake_ns, setup_ns, busy_ns, teardown_ns, tail_ns, absent_ns;
} cvm_dispatch_profile;
/* Fills the caller's *o_profile (all zero for a NULL context; a NULL
 * o_profile does nothing).  Never fails; allocates nothing.  Safe at any
 * time, from any thread; dispatches running meanwhile may be in it in part. */
CVM_API void cvm_context_dispatch_profile(const cvm_context *ctx, cvm_dispatch_profile *o_profile);

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
 * for the "spv1.6" target (the rules of the SPIR-V texts; Vulkan's
 * VUID-RuntimeSpirv-* rules are left to cvm_validate with a "vulkan1.x"
 * target, as the engine lifts or checks at run time the device limits they
 * state), and an invalid module is refused with the validator's diagnostic;
 * the rules of warning severity (a SPIR-V version an extension's
 * Dependencies name) do not refuse it: they go to the context's on_warning.
 * Errors: CVM_ERROR_MALFORMED (header, truncation,
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
/* A storage or uniform buffer variable (a descriptor) of the pipeline's
 * module.  `statically_used` follows the Vulkan specification's "static
 * use": 1 when the variable is an operand of an instruction of a function in
 * the entry point's static call tree (or the initializer of a module-scope
 * variable), else 0; the tree includes the functions that instructions name
 * as callbacks (a per-element op's Func, a reduce's CombineFunc, a
 * DecodeFunc).  Only statically used descriptors must be bound for a
 * dispatch (Vulkan: only they must be valid, VUID-vkCmdDispatch-None-08114);
 * the engine never reads the others.  The test may count a literal operand
 * that equals the variable's id, so it can say 1 for a variable the entry
 * point does not reach, never 0 for one it does. */
typedef struct cvm_pipeline_resource {
    uint32_t set, binding;    /* the DescriptorSet (0 when absent) and Binding decorations */
    uint32_t array_size;      /* elements: 1 for a single block; a runtime array counts 64 */
    uint32_t storage_class;   /* SpvStorageClassStorageBuffer (12) or Uniform (2) */
    uint32_t statically_used; /* 1 or 0, as above */
} cvm_pipeline_resource;

/* The number of descriptors of the pipeline's module (0 for NULL); they are
 * numbered 0 .. count - 1 in the order the module declares them. */
CVM_API uint32_t cvm_pipeline_resource_count(const cvm_pipeline *pipeline);
/* Fills *o_resource with descriptor `index` and returns 1; returns 0 (and
 * leaves it) when pipeline or o_resource is NULL or index is past the
 * count. */
CVM_API int cvm_pipeline_get_resource(const cvm_pipeline *pipeline, uint32_t index,
                                      cvm_pipeline_resource *o_resource);
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

/* cvm_pipeline_dispatch whose workgroups have WorkgroupId base[d] ..
 * base[d] + groups_d - 1 in each dimension d (Vulkan's vkCmdDispatchBase);
 * NumWorkgroups is still (groups_x, groups_y, groups_z).  Errors as
 * cvm_pipeline_dispatch, and CVM_ERROR_INVALID_ARGUMENT when base is NULL or
 * an id would pass UINT32_MAX. */
CVM_API CVM_NODISCARD cvm_result cvm_pipeline_dispatch_base(cvm_pipeline *pipeline,
                                                            const uint32_t base[3],
                                                            uint32_t groups_x, uint32_t groups_y,
                                                            uint32_t groups_z,
                                                            cvm_diagnostic *o_diag);

/* What the compiled tier (CVM_FLAG_JIT) has done with a pipeline so far. */
typedef struct cvm_tier_info {
    /* The entry point: 1 compiled, 0 not tried (no dispatch has wanted it:
     * too small, the interpreter forced, no LLVM in this build) or still
     * compiling (a large shader compiles on a thread of its own while its
     * first dispatches run interpreted: cvm_config.h CVM_JIT_ASYNC_INSNS), -1 not
     * taken, entry_why saying why (CVM_ERROR_UNSUPPORTED, the first
     * instruction the tier does not take: word offset, opcode). */
    int32_t entry;
    uint32_t leaf_functions;   /* leaf callbacks the tier may compile (exec/jit/jit.h) */
    uint32_t leaf_compiled;    /* of them, those with compiled code */
    uint32_t leaf_not_taken;   /* of them, those the tier did not take: leaf_why says why
                                  of the first (by function order) */
    uint64_t dispatches;       /* dispatches run (a compared one counts once) */
    uint64_t compiled_dispatches; /* of them, those in which compiled code ran (workgroups
                                     or leaf callbacks) */
    uint64_t compared_dispatches; /* CVM_FLAG_COMPARE_TIERS: of those, the ones compared
                                     with the interpreter (equal, or the dispatch failed
                                     with CVM_ERROR_TIERS_DIFFER) */
    cvm_diagnostic entry_why;
    cvm_diagnostic leaf_why;
} cvm_tier_info;

/* Fills *o_info (all zero for a NULL pipeline).  Safe between dispatches;
 * counts of dispatches running meanwhile may or may not be in it. */
CVM_API void cvm_pipeline_tier_info(const cvm_pipeline *pipeline, cvm_tier_info *o_info);

/* ---------------------------------------------------------------------------
 * Debugging a dispatch: DebugPrintf output, and a trace of one invocation or
 * workgroup.  The library never prints: both go to functions the caller
 * gives (the coopvm tool writes them to stderr or files).
 */

/* One message of NonSemantic.DebugPrintf instruction 1 (GLSL's
 * debugPrintfEXT, GL_EXT_debug_printf).  The texts leave the format to the
 * client API; coopvm reads it as the Khronos validation layer's DebugPrintf
 * does (docs/debug_printf.md of KhronosGroup/Vulkan-ValidationLayers), a
 * subset of C's printf with additions:
 *   %d %i %u %o %x %X %c    integers: 32 bits unless `l` is given (%ld %lu
 *                           %lx %lX %lo, and the layer's %ul, printed in hex);
 *                           a signed type sign-extends for %d and %i, every
 *                           other case zero-extends (%u of an int8 -3 is
 *                           253, as the layer prints it); bool is 0 or 1
 *   %f %F %e %E %g %G %a %A floats of any width (f16, bf16, fp8 widen
 *                           exactly); an integer argument is reinterpreted as
 *                           a float of its width, as on the GPU
 *   %vNx                    a vector of N = 2..4 components, each with
 *                           conversion x, separated by ", " (e.g. %1.2v4f)
 *   %s                      a string literal argument (an OpString)
 *   %p                      a pointer (PhysicalStorageBuffer address)
 *   %%                      a percent sign
 * with C's flags (- + space # 0), width and precision.  Vector arguments are
 * flattened into their components first, so "%v3f" and "%f %f %f" take one
 * vec3 or three floats alike.  A specification coopvm cannot read is copied
 * as written; a conversion without an argument prints "(missing)". */
typedef struct cvm_printf_message {
    uint32_t workgroup[3];  /* WorkgroupId of the invocation that printed */
    uint32_t invocation[3]; /* its LocalInvocationId */
    uint32_t local_index;   /* its LocalInvocationIndex */
    /* 1 when a cooperative-matrix callback (DecodeFunc, DecodeVectorFunc,
     * per-element Func, CombineFunc; SPV_NV_cooperative_matrix2) printed it:
     * the call ran in the context of the invocation above, for matrix element
     * (row, column) of the instruction with opcode `caller_opcode` (for a
     * CombineFunc: the first element of the row, column or block it
     * reduces); else 0, 0, 0, 0. */
    uint32_t in_callback;
    uint32_t row, column;
    uint32_t caller_opcode;
    uint32_t word_offset;   /* of the OpExtInst in the module */
    uint32_t line;          /* its source line (OpLine / DebugLine), or 0 */
    const char *file;       /* its source file, or "" */
    const char *text;       /* the formatted message, NUL-terminated (a newline at its
                               end only when the format has one) */
    size_t length;          /* bytes of text */
    /* The note after the last message of a dispatch that reached the limit:
     * the number of messages not delivered (text is ""), else 0. */
    uint64_t dropped;
} cvm_printf_message;

/* Receives the messages of a dispatch, in the order (workgroup index x-fastest,
 * LocalInvocationIndex, the invocation's own order of execution), whatever
 * the number of threads.  With CVM_FLAG_CHECK_CALLBACKS a callback prints in
 * its first run only, in that run's (shuffled) order; the repeats and the
 * comparison runs print nothing.  Called from the thread that called
 * cvm_pipeline_dispatch, after the workgroups ran (also when the dispatch
 * failed: the messages printed before the error); pointers in `message` are
 * valid during the call only. */
typedef void (*cvm_printf_fn)(void *user, const cvm_printf_message *message);

/* Receives the trace, one line at a time (no newline at its end; `length`
 * bytes, NUL-terminated), from the worker thread that runs the traced
 * workgroup, while it runs; never from two threads at once. */
typedef void (*cvm_trace_fn)(void *user, const char *line, size_t length);

#define CVM_TRACE_WORKGROUP UINT32_MAX /* trace_invocation: every invocation */

typedef struct cvm_debug_desc {
    cvm_printf_fn printf_fn; /* NULL: DebugPrintf instructions do nothing */
    void *printf_user;
    uint64_t printf_limit;   /* messages delivered per dispatch, the first in the order
                                below; 0 = 100000, at most 2^30.  A note after them says
                                how many more there were */
    /* The trace: each instruction the chosen invocation (or every invocation
     * of the workgroup) executes, with its result's OpName and value per
     * lane, the active lanes of collective instructions, a cooperative
     * matrix's shape and a few of its elements, and source lines when the
     * module has them. */
    cvm_trace_fn trace_fn;   /* NULL: no trace */
    void *trace_user;
    uint32_t trace_workgroup[3];
    uint32_t trace_invocation; /* LocalInvocationIndex, or CVM_TRACE_WORKGROUP */
    uint64_t trace_limit;    /* lines per dispatch; 0 = 1000000; a last line says when it
                                was reached */
} cvm_debug_desc;

/* Sets (or, with desc NULL, clears) the debug sinks of later dispatches of
 * the pipeline; the desc is copied, the user pointers are the caller's.
 * Without sinks a dispatch costs what it did before.  Errors:
 * CVM_ERROR_INVALID_ARGUMENT (pipeline NULL). */
CVM_API CVM_NODISCARD cvm_result cvm_pipeline_set_debug(cvm_pipeline *pipeline,
                                                        const cvm_debug_desc *desc,
                                                        cvm_diagnostic *o_diag);

/* How the entry point lays cooperative matrices out in a buffer, as far as
 * the module says with constants: from its first OpCooperativeMatrixStoreKHR
 * (SPV_KHR_cooperative_matrix) whose Pointer is based on the variable at
 * (set, binding) and whose MemoryLayout and Stride are constants (after
 * specialization).  For pictures of a result (coopvm run --diff-image). */
typedef struct cvm_store_shape {
    uint64_t stride_bytes;        /* Stride times the size of the Pointer's pointee type:
                                     bytes from one row (RowMajor) or column (ColumnMajor)
                                     of a matrix to the next */
    uint32_t tile_rows, tile_cols; /* rows and columns of the stored matrix type */
    uint32_t column_major;        /* 1 for ColumnMajorKHR, 0 for RowMajorKHR */
    uint32_t component_bytes;     /* size of one matrix component */
} cvm_store_shape;

/* Returns 1 and fills *o_shape when such a store exists, else 0. */
CVM_API int cvm_pipeline_store_shape(const cvm_pipeline *pipeline, uint32_t set, uint32_t binding,
                                     cvm_store_shape *o_shape);

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
/* 1 when a device property named as AmberScript's DEVICE_PROPERTY names it
 * ("Struct.member", e.g. "FloatControlsProperties.shaderDenormPreserveFloat16")
 * holds for coopvm, else 0. */
CVM_API int cvm_supports_property(const char *name);

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
    /* VkPhysicalDeviceCooperativeVectorPropertiesNV (supported stages:
     * compute only, the one stage coopvm runs) */
    uint32_t max_cooperative_vector_components;
    uint32_t cooperative_vector_training_float16_accumulation; /* 1 = VK_TRUE */
    uint32_t cooperative_vector_training_float32_accumulation;
    /* VkPhysicalDeviceShaderLongVectorPropertiesEXT::maxVectorComponents:
     * components of one vector type (SPV_EXT_long_vector) */
    uint32_t max_vector_components;
} cvm_limits;

CVM_API void cvm_get_limits(cvm_limits *o_limits);

/* ---------------------------------------------------------------------------
 * Cooperative vectors (VK_NV_cooperative_vector, SPV_NV_cooperative_vector).
 */

/* VkComponentTypeKHR, which are also the values of SPIR-V's ComponentType
 * operands (InputInterpretation, MatrixInterpretation, BiasInterpretation of
 * OpCooperativeVectorMatrixMul(Add)NV). */
typedef enum cvm_component_type {
    CVM_COMPONENT_TYPE_FLOAT16 = 0,
    CVM_COMPONENT_TYPE_FLOAT32 = 1,
    CVM_COMPONENT_TYPE_FLOAT64 = 2,
    CVM_COMPONENT_TYPE_SINT8 = 3,
    CVM_COMPONENT_TYPE_SINT16 = 4,
    CVM_COMPONENT_TYPE_SINT32 = 5,
    CVM_COMPONENT_TYPE_SINT64 = 6,
    CVM_COMPONENT_TYPE_UINT8 = 7,
    CVM_COMPONENT_TYPE_UINT16 = 8,
    CVM_COMPONENT_TYPE_UINT32 = 9,
    CVM_COMPONENT_TYPE_UINT64 = 10,
    CVM_COMPONENT_TYPE_BFLOAT16 = 1000141000,
    CVM_COMPONENT_TYPE_SINT8_PACKED = 1000491000, /* four s8 in a uint32, lowest first */
    CVM_COMPONENT_TYPE_UINT8_PACKED = 1000491001,
    CVM_COMPONENT_TYPE_FLOAT_E4M3 = 1000491002,
    CVM_COMPONENT_TYPE_FLOAT_E5M2 = 1000491003
} cvm_component_type;

/* The name of a cvm_component_type without its prefix ("FLOAT16",
 * "SINT8_PACKED"...), or "unknown".  Never NULL. */
CVM_API const char *cvm_component_type_string(uint32_t component_type);

/* VkCooperativeVectorMatrixLayoutNV = SPIR-V CooperativeVectorMatrixLayout.
 * The optimal layouts are implementation-defined; coopvm's is the tightly
 * packed row-major order (element (r, c) of a R x C matrix at byte
 * (r * C + c) * element size), or, with CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS, a
 * fixed permutation of those element slots, followed by padding up to a
 * multiple of 64 bytes, so that matrices placed one after another by their
 * size keep the 64-byte alignment the Vulkan valid usage asks of them. */
typedef enum cvm_coopvec_matrix_layout {
    CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR = 0,
    CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR = 1,
    CVM_COOPVEC_MATRIX_LAYOUT_INFERENCING_OPTIMAL = 2,
    CVM_COOPVEC_MATRIX_LAYOUT_TRAINING_OPTIMAL = 3
} cvm_coopvec_matrix_layout;

/* VkCooperativeVectorPropertiesNV: one combination of component types that
 * OpCooperativeVectorMatrixMulNV / MulAddNV accept (cvm_component_type
 * values).  For integer types the signedness of input_type and result_type
 * is the one the instruction's MatrixBSignedComponentsKHR and
 * MatrixResultSignedComponentsKHR operands give (SPV_NV_cooperative_vector
 * "OpCooperativeVectorMatrixMulAddNV"). `transpose` is 1: every combination
 * may be transposed in the optimal layouts (never in row-/column-major,
 * which the text forbids). */
typedef struct cvm_coopvec_properties {
    uint32_t input_type;
    uint32_t input_interpretation;
    uint32_t matrix_interpretation;
    uint32_t bias_interpretation;
    uint32_t result_type;
    uint32_t transpose;
} cvm_coopvec_properties;

/* vkGetPhysicalDeviceCooperativeVectorPropertiesNV: with `o_properties` NULL,
 * sets *io_count to the number of combinations; otherwise writes at most
 * *io_count of them, sets *io_count to the number written, and returns
 * CVM_INCOMPLETE when that is fewer than there are.  Errors:
 * CVM_ERROR_INVALID_ARGUMENT (io_count NULL). */
CVM_API cvm_result cvm_get_cooperative_vector_properties(uint32_t *io_count,
                                                         cvm_coopvec_properties *o_properties);

/* VkConvertCooperativeVectorMatrixInfoNV (host addresses).  Sizes and strides
 * in bytes; `src_stride`/`dst_stride` are used only by the row- and
 * column-major layouts (bytes from one row, or column, to the next). */
typedef struct cvm_coopvec_convert_info {
    size_t src_size;          /* bytes readable at src_data */
    const void *src_data;     /* may be NULL when dst_data is NULL */
    size_t *dst_size;         /* in: bytes writable at dst_data; out: see below */
    void *dst_data;           /* NULL: size query */
    uint32_t src_component_type; /* cvm_component_type */
    uint32_t dst_component_type;
    uint32_t num_rows, num_columns;
    uint32_t src_layout;      /* cvm_coopvec_matrix_layout */
    size_t src_stride;
    uint32_t dst_layout;
    size_t dst_stride;
} cvm_coopvec_convert_info;

/* vkConvertCooperativeVectorMatrixNV on the host, for the layouts of
 * pipelines made from `ctx` (its CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS decides
 * the optimal layouts).  With dst_data NULL: *dst_size gets the bytes the
 * destination needs (a function of the destination layout only: R * C *
 * element size rounded up to a multiple of 64 for the optimal layouts, as
 * GPU drivers' sizes are and applications such as the Vulkan CTS assume;
 * (outer - 1) * stride + inner * element size for row-/column-major).
 * Otherwise, if *dst_size is smaller than that, nothing is written and
 * CVM_INCOMPLETE is returned; else the matrix is converted, *dst_size is set
 * to the bytes written (exactly the size query's answer: never more than
 * the *dst_size given), the padding at the end of an optimal layout is
 * zeroed, and bytes of the destination between elements (row/column
 * padding) are left as they were.  At most src_size bytes of src_data are
 * read: those of the source's elements (for a source in an optimal layout,
 * R * C * element size, its padding not needed).  A shader's matrix in an
 * optimal layout occupies the whole size the query reports (its buffer must
 * hold it).  Component types: the same type on both sides (any type the
 * properties list as a matrix_interpretation), or a conversion between any
 * two of FLOAT16, BFLOAT16, FLOAT32, FLOAT_E4M3, FLOAT_E5M2 with FLOAT16 or
 * FLOAT32 on one side, rounded to nearest even (overflow gives infinity, or
 * NaN for E4M3, which has no infinity).
 * Errors (VK_NV_cooperative_vector valid usage, nothing is written):
 * CVM_ERROR_INVALID_ARGUMENT for NULL pointers where data is needed, zero
 * rows or columns, a stride shorter than a row/column or not a multiple of
 * the element size, src_size too small, overlapping source and destination,
 * an E4M3/E5M2 destination in a non-optimal layout, or an unknown layout;
 * CVM_ERROR_UNSUPPORTED for a component type or pair not listed above;
 * CVM_ERROR_LIMIT for a destination larger than the address space. */
CVM_API CVM_NODISCARD cvm_result cvm_convert_cooperative_vector_matrix(
    const cvm_context *ctx, const cvm_coopvec_convert_info *info, cvm_diagnostic *o_diag);

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
 * are CVM_ERROR_SYNTAX with the 1-based line and column. `target_env` sets
 * the header version, e.g. "vulkan1.3" -> 1.6; NULL takes it as spirv-as
 * does (SPIRV-Tools spvReadEnvironmentFromText): from a "; Version: 1.D"
 * comment among the comment lines that open the text (D one digit, 0..6),
 * else 1.6. */
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
/* ---- the device and pipeline a module runs on ----------------------------
 *
 * What a Vulkan implementation reports and what a pipeline is created with,
 * for the Vulkan rules that depend on them (cvm_validation_rule.checked 2):
 * the VUIDs of the Vulkan specification's SPIR-V environment appendix that
 * name device properties, enabled features, limits or pipeline flags.  The
 * shapes are Vulkan's, without a Vulkan header: component types are
 * VkComponentTypeKHR values (cvm_component_type), scopes VkScopeKHR values
 * (CVM_SCOPE_*), stages VkShaderStageFlagBits (CVM_STAGE_*), booleans 0 or
 * 1 (VkBool32).  Lists are pointers and counts the caller owns (a NULL
 * pointer is an empty list, whatever its count); nothing is kept after
 * cvm_validate returns. */
#define CVM_SCOPE_WORKGROUP 2u /* VK_SCOPE_WORKGROUP_KHR */
#define CVM_SCOPE_SUBGROUP 3u  /* VK_SCOPE_SUBGROUP_KHR */
#define CVM_STAGE_COMPUTE 0x20u /* VK_SHADER_STAGE_COMPUTE_BIT; the others have Vulkan's
                                   values (vertex 0x1, fragment 0x10, task 0x40, mesh 0x80,
                                   ray generation 0x100 ...) */

/* VkCooperativeMatrixPropertiesKHR (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR),
 * also VkCooperativeMatrixPropertiesNV (version 1: result_type is DType,
 * saturating_accumulation 0). */
typedef struct cvm_coopmat_properties {
    uint32_t m_size, n_size, k_size;                 /* MSize, NSize, KSize */
    uint32_t a_type, b_type, c_type, result_type;    /* AType, BType, CType, ResultType */
    uint32_t saturating_accumulation;                /* saturatingAccumulation */
    uint32_t scope;                                  /* scope */
} cvm_coopmat_properties;

/* VkCooperativeMatrixFlexibleDimensionsPropertiesNV, and
 * VkCooperativeMatrixProperties2EXT together with the
 * VkPhysicalDeviceCooperativeMatrixInfo2EXT of the query that returned it
 * (its scope, invocations, subgroupSize and the
 * VK_COOPERATIVE_MATRIX_SATURATING_ACCUMULATION_BIT_EXT of its flags as
 * saturating_accumulation).  workgroup_invocations 0 with Workgroup scope,
 * and subgroup_size 0, stand for every value: the answer the device gives to
 * every such query (coopvm's own granularities hold for any workgroup and
 * subgroup size). */
typedef struct cvm_coopmat_granularity {
    uint32_t m_granularity, n_granularity, k_granularity; /* MGranularity ... */
    uint32_t a_type, b_type, c_type, result_type;
    uint32_t saturating_accumulation;
    uint32_t scope;
    uint32_t workgroup_invocations; /* workgroupInvocations (NV), invocations (EXT query) */
    uint32_t subgroup_size;         /* EXT query's subgroupSize; 0: any (NV: unused).  An
                                       entry of another size holds when it equals
                                       cvm_device_description.subgroup_size (the
                                       VUIDs' finer cases of ALLOW_VARYING_SUBGROUP_SIZE
                                       and SPIR-V 1.6 are not told apart) */
} cvm_coopmat_granularity;

typedef struct cvm_device_description {
    /* vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR */
    const cvm_coopmat_properties *coopmat_properties;
    uint32_t coopmat_property_count;
    /* vkGetPhysicalDeviceCooperativeMatrixPropertiesNV (SPV_NV_cooperative_matrix) */
    const cvm_coopmat_properties *coopmat_nv_properties;
    uint32_t coopmat_nv_property_count;
    /* vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV */
    const cvm_coopmat_granularity *flexible_properties;
    uint32_t flexible_property_count;
    /* vkGetPhysicalDeviceCooperativeMatrixProperties2EXT */
    const cvm_coopmat_granularity *properties2;
    uint32_t properties2_count;
    /* vkGetPhysicalDeviceCooperativeVectorPropertiesNV */
    const cvm_coopvec_properties *coopvec_properties;
    uint32_t coopvec_property_count;

    /* limits and properties (0: not reported, the rule is not checked) */
    uint32_t max_compute_shared_memory_size; /* VkPhysicalDeviceLimits::maxComputeSharedMemorySize */
    uint32_t cooperative_matrix_workgroup_scope_reserved_shared_memory; /* ...Cooperative-
                                          Matrix2PropertiesNV::cooperativeMatrixWorkgroupScope-
                                          ReservedSharedMemory */
    uint32_t cooperative_matrix_flexible_dimensions_max_dimension; /* ...Cooperative-
                                          Matrix2PropertiesNV::cooperativeMatrixFlexible-
                                          DimensionsMaxDimension */
    uint32_t max_cooperative_vector_components; /* ...CooperativeVectorPropertiesNV::
                                                   maxCooperativeVectorComponents */
    uint32_t subgroup_size;  /* the shader's subgroup size (VkPhysicalDeviceSubgroupProperties::
                                subgroupSize, or the required size a pipeline gives) */
    /* supported stages: masks of CVM_STAGE_* */
    uint32_t cooperative_matrix_supported_stages;    /* ...CooperativeMatrixPropertiesKHR */
    uint32_t cooperative_matrix_nv_supported_stages; /* ...CooperativeMatrixPropertiesNV */
    uint32_t cooperative_vector_supported_stages;    /* ...CooperativeVectorPropertiesNV */

    /* features enabled at vkCreateDevice (1 = VK_TRUE) */
    uint32_t cooperative_matrix_workgroup_scope;     /* VkPhysicalDeviceCooperativeMatrix2FeaturesNV */
    uint32_t cooperative_matrix_flexible_dimensions; /* VkPhysicalDeviceCooperativeMatrix2FeaturesNV */
    uint32_t cooperative_matrix_properties2;         /* VkPhysicalDeviceCooperativeMatrix-
                                                        Maintenance1FeaturesEXT */

    /* the pipeline (or shader object) */
    const char *entry_point;        /* its OpEntryPoint name; NULL: every entry point */
    uint32_t require_full_subgroups; /* VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
                                        (VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT) */
    uint32_t indexing_64bit;         /* VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT
                                        (VK_SHADER_CREATE_64_BIT_INDEXING_BIT_EXT) */
    uint32_t shader_object;          /* 1: a shader object (VK_EXT_shader_object), 0: a pipeline */
} cvm_device_description;

/* coopvm's own description: what its Vulkan driver reports (the same lists,
 * in the same order, as the driver's queries return; Properties2EXT as one
 * entry per combination with workgroup_invocations and subgroup_size 0),
 * every cooperative feature enabled, compute-only stages, the default
 * subgroup size, and no pipeline flags.  The lists are static, alive for
 * the program's life.  Never fails. */
CVM_API void cvm_get_device_description(cvm_device_description *o_description);

typedef enum cvm_validate_flags {
    /* Warnings are errors: a broken rule of warning severity refuses the
     * module like any other rule (`coopvm val --strict`). */
    CVM_VALIDATE_STRICT = 1u << 0
} cvm_validate_flags;

typedef struct cvm_validate_options {
    /* NULL = "spv1.6".  "spv1.0" .. "spv1.6" (universal), "vulkan1.0" ..
     * "vulkan1.4", "vulkan1.1spv1.4": the newest SPIR-V version accepted
     * (Vulkan 1.0: 1.0, 1.1: 1.3, 1.2: 1.5, 1.3 and 1.4: 1.6), and for the
     * vulkan targets the Vulkan environment rules. */
    const char *target_env;
    uint32_t flags;            /* cvm_validate_flags */
    cvm_warning_fn on_warning; /* each warning (see cvm_validate); NULL: dropped */
    void *user;                /* passed to on_warning */
    /* The device and pipeline the module is for (cvm_device_description);
     * NULL: the rules that depend on them are not run.  Otherwise the
     * rules cvm_validation_rule.checked marks 2 are checked against it:
     * the Vulkan ones (VUIDs) under a vulkan* target, the texts' own
     * (QCOM-CMC.Subgroup-Size, QCOM-CMC.SubArray-K) under any target.
     * Only read during the call. */
    const cvm_device_description *device;
} cvm_validate_options;

/* Validates `word_count` words (host byte order or byte-swapped); the words
 * are only read.  `options` may be NULL.
 *
 * Every rule has a severity (cvm_validation_rule.warning).  A broken error
 * rule refuses the module; a broken warning rule -- the texts' Dependencies,
 * "This extension requires SPIR-V 1.6" and the like, which describe the
 * environment an extension ships in, and KHR-CM.Signed-Components (which the
 * Vulkan CTS breaks on float matrices): spirv-val does not check them and
 * drivers run such modules -- is passed to options->on_warning, once per
 * place that breaks it, and validation goes on.  With CVM_VALIDATE_STRICT
 * warning rules are error rules.  Warnings found before the first error are
 * reported even when the module is then refused.
 *
 * Returns CVM_SUCCESS for a valid module (with or without warnings), else
 * the first broken error rule in `o_diag`: CVM_ERROR_MALFORMED (the
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
    int checked;          /* 1: checked on the module alone; 2: checked against a
                             device description (cvm_validate_options.device):
                             device properties, enabled features, pipeline flags;
                             3: a rule on run-time values, checked by the engine
                             while the module runs (`text` names the status, and
                             whether only the checking mode CVM_FLAG_CHECK_CALLBACKS
                             checks it); 0: a text erratum, listed; `text` says
                             why */
    int warning;          /* 1: warning severity, a module breaking it is not refused
                             (unless CVM_VALIDATE_STRICT); 0: error */
} cvm_validation_rule;

CVM_API uint32_t cvm_validation_rule_count(void);
/* CVM_ERROR_INVALID_ARGUMENT when index >= cvm_validation_rule_count(). */
CVM_API cvm_result cvm_validation_rule_get(uint32_t index, cvm_validation_rule *o_rule);

#ifdef __cplusplus
}
#endif

#endif /* COOPVM_H */
