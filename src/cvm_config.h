/* All compile-time configuration of coopvm, one #ifndef block each. */
#ifndef CVM_CONFIG_H
#define CVM_CONFIG_H

/* Lanes per subgroup when the context does not say. */
#ifndef CVM_DEFAULT_SUBGROUP_SIZE
#define CVM_DEFAULT_SUBGROUP_SIZE 32
#endif

/* A module's constants together (their values as the engine holds them):
 * a larger sum is CVM_ERROR_LIMIT at pipeline creation.  Constants are
 * written word by word or made by OpConstantNull and replicated
 * composites; a 600-byte module declaring a 1.4 GB array constant made the
 * lowering allocate 2 GB before it found the constituents missing. */
#ifndef CVM_MAX_CONSTANT_BYTES
#define CVM_MAX_CONSTANT_BYTES (UINT64_C(256) << 20)
#endif

/* The instruction budget's charge for an instruction on large values
 * (cvm_block.cost): besides its one, one more per CVM_BUDGET_VALUE_BYTES
 * bytes of its largest operand or result (a whole cooperative matrix per
 * scope instance, an array, a long vector, the bytes OpCopyMemory moves)
 * and one per CVM_BUDGET_MACS multiply-adds of a matrix product
 * (cooperative-matrix MulAdd, cooperative-vector MatMul).  A subgroup
 * instruction on 32 lanes of 32-bit values moves 128 bytes, so a value of
 * 1 KiB costs about what the instructions that would compute it one
 * subgroup at a time cost; a 16x16x16 MulAdd charges 1 + 1 + 4.  Before,
 * a 560-byte module's one MulAdd of 3600x3600 matrices ran for five
 * minutes under ASan with a budget of 20,000 (fuzz_module_tiers). */
#ifndef CVM_BUDGET_VALUE_BYTES
#define CVM_BUDGET_VALUE_BYTES 1024u
#endif
#ifndef CVM_BUDGET_MACS
#define CVM_BUDGET_MACS 1024u
#endif

/* Largest subgroup size a context accepts. */
#ifndef CVM_MAX_SUBGROUP_SIZE
#define CVM_MAX_SUBGROUP_SIZE 128
#endif

/* Largest workgroup (invocations), as Vulkan's maxComputeWorkGroupInvocations. */
#ifndef CVM_MAX_WORKGROUP_INVOCATIONS
#define CVM_MAX_WORKGROUP_INVOCATIONS 1024
#endif

/* Dispatches this large (invocations) run a shader the compiled tier takes
 * compiled (coopvm.h CVM_FLAG_JIT): compiling costs tens of milliseconds,
 * which a smaller dispatch does not win back. */
#ifndef CVM_JIT_MIN_INVOCATIONS
#define CVM_JIT_MIN_INVOCATIONS (UINT64_C(1) << 16)
#endif

/* ... or this many workgroups, for a shader with cooperative-matrix
 * instructions (the scope form, exec/jit/jit.h cvm_jit_scope_form): each
 * of its workgroups runs far more instructions than its invocation count
 * says (bench_gemm_khr_f16: 1,024 workgroups of 32 invocations, 32 matrix
 * loops each; a 1024^3 GEMM in 64x64 tiles, bench_gemm_nv2_workgroup: 256
 * of 128). */
#ifndef CVM_JIT_MIN_SCOPE_GROUPS
#define CVM_JIT_MIN_SCOPE_GROUPS (UINT64_C(1) << 8)
#endif

/* A shader of this many lowered instructions or more (cvm_program.ninsns)
 * that the size rule above sends to the compiled tier is compiled on a
 * thread of its own, while the dispatches that come before its code is
 * ready run on the interpreter: compiling one takes up to seconds (ggml's
 * 20,000-word softmax shaders), longer than many of its dispatches
 * together.  A smaller one compiles at the
 * dispatch that asks for it, as before. */
#ifndef CVM_JIT_ASYNC_INSNS
#define CVM_JIT_ASYNC_INSNS 2048
#endif

/* A dispatch too small for the size rule above that has run interpreted
 * this long (wall nanoseconds, from its start) starts its shader compiling
 * on a thread of its own, and its workgroups that start once the code is
 * ready run compiled: a shader whose invocations each do much (ggml's
 * SSM_SCAN: 9,984 workgroups in 7 dispatches, 48 s interpreted) pays for
 * compiling within its first dispatches. */
#ifndef CVM_JIT_LATE_NS
#define CVM_JIT_LATE_NS (UINT64_C(200) * 1000 * 1000)
#endif

/* What compiling costs a lowered instruction of a large shader (wall
 * nanoseconds), until the process has compiled one and knows its own
 * (api.c compile_ns_per_insn; measured 390-550 us wall for ggml's
 * 2,900-instruction scalar flash attention shaders on a loaded 2-core
 * machine): a shader of CVM_JIT_ASYNC_INSNS or more instructions starts
 * compiling by the late rule only once its pipeline has run that long
 * interpreted (api.c late_wait). */
#ifndef CVM_JIT_COMPILE_NS_PER_INSN
#define CVM_JIT_COMPILE_NS_PER_INSN (UINT64_C(300) * 1000)
#endif

/* Leaf callbacks (a DecodeFunc, a per-element or reduction function: exec.h
 * cvm_function.leaf) are compiled once a pipeline has made this many calls
 * of them (all dispatches, all threads): by then the interpreter has spent
 * about as long on them as compiling takes. */
#ifndef CVM_JIT_LEAF_MIN_CALLS
#define CVM_JIT_LEAF_MIN_CALLS (UINT64_C(1) << 18)
#endif

/* Instructions one dispatch may execute (counted per instruction of a
 * workgroup, whatever its active lanes) before it ends with
 * CVM_ERROR_BUDGET_EXCEEDED. */
#ifndef CVM_DEFAULT_BUDGET
#define CVM_DEFAULT_BUDGET (UINT64_C(1) << 40)
#endif

/* Function call depth. */
#ifndef CVM_DEFAULT_MAX_CALL_DEPTH
#define CVM_DEFAULT_MAX_CALL_DEPTH 64
#endif

/* Engine memory per workgroup (registers, private and workgroup memory). */
#ifndef CVM_DEFAULT_MEMORY_LIMIT
#define CVM_DEFAULT_MEMORY_LIMIT (UINT64_C(1) << 31)
#endif

/* Largest cooperative matrix dimension (rows or columns) the engine accepts. */
#ifndef CVM_MAX_MATRIX_DIM
#define CVM_MAX_MATRIX_DIM 4096
#endif

/* Largest component count of a cooperative vector
 * (maxCooperativeVectorComponents), and so the largest M and K of a
 * cooperative-vector matrix-vector product. */
#ifndef CVM_MAX_COOPVEC_COMPONENTS
#define CVM_MAX_COOPVEC_COMPONENTS 4096
#endif

/* maxComputeSharedMemorySize the Vulkan driver reports (and coopvm's
 * device description, cvm_get_device_description).  Workgroup memory is one
 * heap allocation per workgroup in flight (one per worker thread), so the
 * limit is no hardware's: 256 KiB lets the CTS's cooperative-matrix tests
 * through workgroup memory run at every size the engine offers (at 64 KiB
 * some were "Not enough shared memory supported") while a 16-thread
 * dispatch still holds at most 4 MiB. */
#ifndef CVM_VK_MAX_SHARED_MEMORY
#define CVM_VK_MAX_SHARED_MEMORY (256u * 1024u)
#endif

/* Lanes per batch when callbacks run over matrix elements. */
#ifndef CVM_CALLBACK_BATCH
#define CVM_CALLBACK_BATCH 1024
#endif

/* DebugPrintf messages delivered per dispatch (cvm_debug_desc.printf_limit),
 * bytes of one message, and trace lines per dispatch. */
#ifndef CVM_DEFAULT_PRINTF_LIMIT
#define CVM_DEFAULT_PRINTF_LIMIT 100000
#endif
#ifndef CVM_PRINTF_MAX_MESSAGE
#define CVM_PRINTF_MAX_MESSAGE 16384
#endif
#ifndef CVM_DEFAULT_TRACE_LIMIT
#define CVM_DEFAULT_TRACE_LIMIT 1000000
#endif

/* The bytes an AmberScript's buffers given by SIZE may hold in all
 * (amber_parse.c alloc_sized: each is allocated whole when parsed). */
#ifndef CVM_AMBER_MAX_BUFFER_BYTES
#define CVM_AMBER_MAX_BUFFER_BYTES (UINT64_C(1) << 29)
#endif

#endif /* CVM_CONFIG_H */
