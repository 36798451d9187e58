/* Comparing the tiers (coopvm.h CVM_FLAG_COMPARE_TIERS, COOPVM_JIT,
 * cvm_pipeline_tier_info):
 * - a shader the compiled tier takes, compared: the interpreter's results,
 *   one dispatch compared, the entry point compiled;
 * - a difference (made by the test hook that flips a byte of the compiled
 *   run's copy) is reported as CVM_ERROR_TIERS_DIFFER naming the binding,
 *   the variable, the byte, the element, the type, both values and the
 *   store that writes there, and the buffers keep the interpreter's results;
 * - a race between invocations makes the tiers differ; the interpreter in
 *   the compiled tier's order (cvm_test_serial_invocations) agrees with
 *   it, and still finds a real difference;
 * - a shader the tier does not take runs once, compares nothing, and says
 *   why (the Workgroup variable, by name);
 * - by size (no flag): dispatches too small for the compiled tier add up,
 *   and the one that brings them to CVM_JIT_MIN_INVOCATIONS compiles;
 * - COOPVM_JIT: always compiles a dispatch far below the size threshold,
 *   never keeps the interpreter whatever the flags, compare sets the flag,
 *   anything else is refused by name. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "api/tiers.h"
#include "coopvm.h"
#include "cvm_config.h"
#include "exec/exec.h"
#include "exec/jit/jit.h"

/* o[g] = in[g] * 2 + 1 for g = GlobalInvocationId.x; o at binding 0, in at
 * binding 1; workgroups of 4. */
static const char saxpy_text[] =
    "; Version: 1.6\n"
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %o %in\n"
    "OpExecutionMode %main LocalSize 4 1 1\n"
    "OpName %o \"o\"\n"
    "OpName %in \"in\"\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %arr ArrayStride 4\n"
    "OpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %B Block\n"
    "OpDecorate %o DescriptorSet 0\n"
    "OpDecorate %o Binding 0\n"
    "OpDecorate %in DescriptorSet 0\n"
    "OpDecorate %in Binding 1\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%v3uint = OpTypeVector %uint 3\n"
    "%pin = OpTypePointer Input %v3uint\n"
    "%gid = OpVariable %pin Input\n"
    "%arr = OpTypeRuntimeArray %float\n"
    "%B = OpTypeStruct %arr\n"
    "%pB = OpTypePointer StorageBuffer %B\n"
    "%o = OpVariable %pB StorageBuffer\n"
    "%in = OpVariable %pB StorageBuffer\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%u0 = OpConstant %uint 0\n"
    "%f1 = OpConstant %float 1\n"
    "%f2 = OpConstant %float 2\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%id = OpLoad %v3uint %gid\n"
    "%x = OpCompositeExtract %uint %id 0\n"
    "%pi = OpAccessChain %pf %in %u0 %x\n"
    "%v = OpLoad %float %pi\n"
    "%m = OpFMul %float %v %f2\n"
    "%r = OpFAdd %float %m %f1\n"
    "%po = OpAccessChain %pf %o %u0 %x\n"
    "OpStore %po %r\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* The same with a Workgroup variable in the way: s = in[g]; o[g] = s * 2 + 1
 * (one invocation a workgroup), and a barrier in a function it calls
 * between the store and the load, under a branch on the invocation's id
 * (always taken), which the compiled tier does not take (its collective
 * form takes a callee's barrier only where every invocation makes the
 * call together, as the analysis shows). */
static const char shared_text[] =
    "; Version: 1.6\n"
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %o %in %s\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpName %s \"s_value\"\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %arr ArrayStride 4\n"
    "OpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %B Block\n"
    "OpDecorate %o DescriptorSet 0\n"
    "OpDecorate %o Binding 0\n"
    "OpDecorate %in DescriptorSet 0\n"
    "OpDecorate %in Binding 1\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%v3uint = OpTypeVector %uint 3\n"
    "%pin = OpTypePointer Input %v3uint\n"
    "%gid = OpVariable %pin Input\n"
    "%arr = OpTypeRuntimeArray %float\n"
    "%B = OpTypeStruct %arr\n"
    "%pB = OpTypePointer StorageBuffer %B\n"
    "%o = OpVariable %pB StorageBuffer\n"
    "%in = OpVariable %pB StorageBuffer\n"
    "%pw = OpTypePointer Workgroup %float\n"
    "%s = OpVariable %pw Workgroup\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%u0 = OpConstant %uint 0\n"
    "%f1 = OpConstant %float 1\n"
    "%f2 = OpConstant %float 2\n"
    "%u2 = OpConstant %uint 2\n"
    "%u264 = OpConstant %uint 264\n"
    "%u1000 = OpConstant %uint 1000\n"
    "%bool = OpTypeBool\n"
    "%sync = OpFunction %void None %fn\n"
    "%sync_entry = OpLabel\n"
    "OpControlBarrier %u2 %u2 %u264\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%id = OpLoad %v3uint %gid\n"
    "%x = OpCompositeExtract %uint %id 0\n"
    "%pi = OpAccessChain %pf %in %u0 %x\n"
    "%v = OpLoad %float %pi\n"
    "OpStore %s %v\n"
    "%c = OpULessThan %bool %x %u1000\n"
    "OpSelectionMerge %after None\n"
    "OpBranchConditional %c %do %after\n"
    "%do = OpLabel\n"
    "%call = OpFunctionCall %void %sync\n"
    "OpBranch %after\n"
    "%after = OpLabel\n"
    "%w = OpLoad %float %s\n"
    "%m = OpFMul %float %w %f2\n"
    "%r = OpFAdd %float %m %f1\n"
    "%po = OpAccessChain %pf %o %u0 %x\n"
    "OpStore %po %r\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* A race: every invocation of a workgroup of 4 adds 1 to o[0], unordered.
 * Side by side (the interpreter's lockstep) all four load before any
 * stores, and o[0] gains 1; one after another (the compiled tier's order,
 * and the interpreter's under cvm_test_serial_invocations) it gains 4. */
static const char race_text[] =
    "; Version: 1.6\n"
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %o\n"
    "OpExecutionMode %main LocalSize 4 1 1\n"
    "OpName %o \"o\"\n"
    "OpDecorate %arr ArrayStride 4\n"
    "OpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %B Block\n"
    "OpDecorate %o DescriptorSet 0\n"
    "OpDecorate %o Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%arr = OpTypeRuntimeArray %float\n"
    "%B = OpTypeStruct %arr\n"
    "%pB = OpTypePointer StorageBuffer %B\n"
    "%o = OpVariable %pB StorageBuffer\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%u0 = OpConstant %uint 0\n"
    "%f1 = OpConstant %float 1\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%p = OpAccessChain %pf %o %u0 %u0\n"
    "%v = OpLoad %float %p\n"
    "%r = OpFAdd %float %v %f1\n"
    "OpStore %p %r\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

#define N 8u

typedef struct setup {
    cvm_context *ctx;
    cvm_module *mod;
    cvm_pipeline *pipe;
    float o[N], in[N];
} setup;

/* Context with `flags`, module from `text`, buffers bound (o = 0x5a5a5a5a
 * patterns, in[i] = i + 0.5).  Returns the context creation's status; on
 * success everything is made. */
static cvm_result make(setup *s, const char *text, uint32_t flags, cvm_diagnostic *d)
{
    memset(s, 0, sizeof(*s));
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = 2;
    desc.flags = flags;
    cvm_result r = cvm_context_create(&desc, &s->ctx, d);
    if (r != CVM_SUCCESS)
        return r;
    uint32_t *words = NULL;
    size_t nw = 0;
    assert_int_equal(cvm_assemble(text, strlen(text), 0, NULL, &words, &nw, d), CVM_SUCCESS);
    assert_int_equal(cvm_module_create(s->ctx, words, nw, &s->mod, d), CVM_SUCCESS);
    cvm_free(words);
    assert_int_equal(cvm_pipeline_create(s->mod, NULL, NULL, 0, &s->pipe, d), CVM_SUCCESS);
    memset(s->o, 0x5a, sizeof(s->o));
    for (uint32_t i = 0; i < N; i++)
        s->in[i] = (float)i + 0.5f;
    assert_int_equal(cvm_pipeline_bind_buffer(s->pipe, 0, 0, 0, s->o, sizeof(s->o), d),
                     CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(s->pipe, 0, 1, 0, s->in, sizeof(s->in), d),
                     CVM_SUCCESS);
    return CVM_SUCCESS;
}

static void unmake(setup *s)
{
    cvm_pipeline_destroy(s->pipe);
    cvm_module_destroy(s->mod);
    cvm_context_destroy(s->ctx);
}

/* o holds in * 2 + 1, computed here. */
static void assert_results(const setup *s)
{
    for (uint32_t i = 0; i < N; i++)
        assert_true(s->o[i] == ((float)i + 0.5f) * 2.0f + 1.0f);
}

static void test_compare_alike(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, saxpy_text, CVM_FLAG_COMPARE_TIERS, &d), CVM_SUCCESS);
    uint64_t groups = cvm_test_jit_groups();
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    assert_results(&s);
    /* both workgroups ran compiled (the first run), far below
     * CVM_JIT_MIN_INVOCATIONS */
    assert_int_equal(cvm_test_jit_groups() - groups, N / 4);
    cvm_tier_info ti;
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, 1);
    assert_int_equal(ti.dispatches, 1);
    assert_int_equal(ti.compiled_dispatches, 1);
    assert_int_equal(ti.compared_dispatches, 1);
    assert_int_equal(ti.leaf_functions, 0);
    unmake(&s);
}

static void test_compare_reports(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, saxpy_text, CVM_FLAG_COMPARE_TIERS, &d), CVM_SUCCESS);
    cvm_test_tiers_flip(13); /* byte 12 of o: the low byte of o[3] = 8.0 */
    cvm_result r = cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d);
    cvm_test_tiers_flip(0);
    assert_int_equal(r, CVM_ERROR_TIERS_DIFFER);
    print_message("%s\n", d.message);
    assert_non_null(strstr(d.message, "set 0 binding 0 (o), byte 12 of 32"));
    assert_non_null(strstr(d.message, "(the block's member 0 [3], f32)"));
    /* 8.0 is 0x41000000: the compiled copy's low byte flipped */
    assert_non_null(strstr(d.message, "the compiled tier wrote 0x41000001 (8.00000095)"));
    assert_non_null(strstr(d.message, "the interpreter 0x41000000 (8)"));
    assert_non_null(strstr(d.message, "1 byte differs"));
    assert_non_null(strstr(d.message, "stored by OpStore at word"));
    assert_int_equal(d.opcode, 62); /* OpStore, placed */
    assert_int_not_equal(d.word_offset, UINT32_MAX);
    assert_results(&s); /* the interpreter's */
    cvm_tier_info ti;
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.compared_dispatches, 1);
    /* the next dispatch, without the hook, compares alike */
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    unmake(&s);
}

/* A race makes the tiers differ; the interpreter in the compiled tier's
 * order (the fuzz harness's race filter) agrees with it; a real difference
 * (the flip hook) is still one in that order. */
static void test_compare_race(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, race_text, CVM_FLAG_COMPARE_TIERS, &d), CVM_SUCCESS);
    s.o[0] = 0.0f;
    cvm_result r = cvm_pipeline_dispatch(s.pipe, 1, 1, 1, &d);
    assert_int_equal(r, CVM_ERROR_TIERS_DIFFER);
    print_message("%s\n", d.message);
    assert_non_null(strstr(d.message, "the compiled tier wrote 0x40800000 (4)"));
    assert_non_null(strstr(d.message, "the interpreter 0x3f800000 (1)"));
    assert_true(s.o[0] == 1.0f); /* the interpreter's */

    s.o[0] = 0.0f;
    cvm_test_serial_invocations(1);
    r = cvm_pipeline_dispatch(s.pipe, 1, 1, 1, &d);
    assert_int_equal(r, CVM_SUCCESS);
    assert_true(s.o[0] == 4.0f);
    s.o[0] = 0.0f;
    cvm_test_tiers_flip(1); /* the low byte of o[0] */
    r = cvm_pipeline_dispatch(s.pipe, 1, 1, 1, &d);
    cvm_test_tiers_flip(0);
    cvm_test_serial_invocations(0);
    assert_int_equal(r, CVM_ERROR_TIERS_DIFFER);
    assert_non_null(strstr(d.message, "the compiled tier wrote 0x40800001"));
    assert_non_null(strstr(d.message, "the interpreter 0x40800000 (4)"));
    unmake(&s);
}

static void test_compare_not_taken(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, shared_text, CVM_FLAG_COMPARE_TIERS, &d), CVM_SUCCESS);
    cvm_test_tiers_flip(1); /* nothing compiled: nothing compared, nothing flipped */
    cvm_result r = cvm_pipeline_dispatch(s.pipe, N, 1, 1, &d);
    cvm_test_tiers_flip(0);
    assert_int_equal(r, CVM_SUCCESS);
    assert_results(&s);
    cvm_tier_info ti;
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, -1);
    assert_int_equal(ti.entry_why.result, CVM_ERROR_UNSUPPORTED);
    print_message("%s\n", ti.entry_why.message);
    assert_non_null(strstr(ti.entry_why.message, "the compiled tier does not take a barrier or "
                                                 "subgroup instruction in a called function"));
    assert_int_equal(ti.entry_why.opcode, 224); /* OpControlBarrier */
    assert_int_equal(ti.dispatches, 1);
    assert_int_equal(ti.compiled_dispatches, 0);
    assert_int_equal(ti.compared_dispatches, 0);
    unmake(&s);
}

static void test_small_dispatches_add_up(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    unsetenv("COOPVM_JIT");
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, saxpy_text, 0, &d), CVM_SUCCESS);
    /* N invocations a dispatch: the sum reaches the threshold at dispatch
     * `need`, never before */
    const uint64_t need = (CVM_JIT_MIN_INVOCATIONS + N - 1) / N;
    cvm_tier_info ti;
    for (uint64_t k = 1; k < need; k++)
        assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, 0);
    assert_int_equal(ti.compiled_dispatches, 0);
    assert_int_equal(ti.dispatches, need - 1);
    assert_results(&s);
    memset(s.o, 0x5a, sizeof(s.o));
    uint64_t groups = cvm_test_jit_groups();
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    assert_results(&s);
    assert_int_equal(cvm_test_jit_groups() - groups, N / 4);
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, 1);
    assert_int_equal(ti.compiled_dispatches, 1);
    unmake(&s);
}

/* saxpy_text with K integer additions that cancel out in its way (o[g] =
 * in[g] * 2 + 1 + float((g + K) - g - K)): a shader of more than
 * CVM_JIT_ASYNC_INSNS instructions.  The caller frees it. */
static char *long_text(uint32_t K)
{
    size_t cap = strlen(saxpy_text) + (size_t)K * 64 + 1024;
    char *t = malloc(cap);
    assert_non_null(t);
    const char *body = strstr(saxpy_text, "%main = OpFunction");
    const char *store = strstr(saxpy_text, "OpStore %po %r\n");
    assert_non_null(body);
    assert_non_null(store);
    size_t n = (size_t)(body - saxpy_text);
    memcpy(t, saxpy_text, n);
    n += (size_t)snprintf(t + n, cap - n, "%%u1 = OpConstant %%uint 1\n%%uK = OpConstant %%uint %u\n", K);
    memcpy(t + n, body, (size_t)(store - body));
    n += (size_t)(store - body);
    n += (size_t)snprintf(t + n, cap - n, "%%a0 = OpIAdd %%uint %%x %%u1\n");
    for (uint32_t k = 1; k < K; k++)
        n += (size_t)snprintf(t + n, cap - n, "%%a%u = OpIAdd %%uint %%a%u %%u1\n", k, k - 1);
    n += (size_t)snprintf(t + n, cap - n,
                          "%%dk = OpISub %%uint %%a%u %%x\n%%z = OpISub %%uint %%dk %%uK\n"
                          "%%zf = OpConvertUToF %%float %%z\n%%r2 = OpFAdd %%float %%r %%zf\n"
                          "OpStore %%po %%r2\nOpReturn\nOpFunctionEnd\n",
                          K - 1);
    assert_true(n < cap);
    return t;
}

/* A shader of CVM_JIT_ASYNC_INSNS instructions or more compiles on a
 * thread of its own: the dispatches that reach the size rule's count go on
 * (interpreted until its code is ready), every result is right, and its
 * code runs later dispatches; a pipeline destroyed while its shader
 * compiles waits for the thread. */
static void test_large_shader_compiles_aside(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    unsetenv("COOPVM_JIT");
    char *text = long_text(CVM_JIT_ASYNC_INSNS + 64);
    for (int destroy_early = 0; destroy_early < 2; destroy_early++) {
        setup s;
        cvm_diagnostic d;
        assert_int_equal(make(&s, text, 0, &d), CVM_SUCCESS);
        const uint64_t need = (CVM_JIT_MIN_INVOCATIONS + N - 1) / N;
        cvm_tier_info ti;
        uint64_t k = 0;
        for (; k < need; k++)
            assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
        assert_results(&s);
        /* the dispatch that reached the count started the compilation and
         * ran interpreted (a shader compiled there and then would have run
         * it compiled) */
        cvm_pipeline_tier_info(s.pipe, &ti);
        assert_int_equal(ti.compiled_dispatches, 0);
        if (!destroy_early) {
            for (; k < need + 1000000; k++) {
                memset(s.o, 0x5a, sizeof(s.o));
                assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
                assert_results(&s);
                cvm_pipeline_tier_info(s.pipe, &ti);
                if (ti.compiled_dispatches)
                    break;
            }
            cvm_pipeline_tier_info(s.pipe, &ti);
            assert_int_equal(ti.entry, 1);
            assert_true(ti.compiled_dispatches >= 1);
            assert_int_equal(ti.dispatches, k + 1);
        }
        unmake(&s);
    }
    free(text);
}

/* Dispatches of N/4 workgroups (results checked each time), the k-th
 * onwards, until one has run compiled code or the size rule's count `need`
 * is one away; *io_ti the tier info after the last.  Returns where it
 * stopped (waits 1 ms between dispatches while the compilation's thread
 * gets on). */
static uint64_t until_compiled(setup *s, uint64_t k, uint64_t need, cvm_tier_info *io_ti)
{
    cvm_diagnostic d;
    for (; k + 1 < need && !io_ti->compiled_dispatches; k++) {
        memset(s->o, 0x5a, sizeof(s->o));
        assert_int_equal(cvm_pipeline_dispatch(s->pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
        assert_results(s);
        cvm_pipeline_tier_info(s->pipe, io_ti);
        if (!io_ti->compiled_dispatches) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    return k;
}

/* A dispatch too small for the size rule that runs interpreted past
 * CVM_JIT_LATE_NS (here set to 1 ns) begins compiling its shader on a
 * thread, and workgroups that start once the code is ready run it: the
 * pipeline's dispatches of 8 invocations go compiled well before their sum
 * reaches CVM_JIT_MIN_INVOCATIONS, with every result right. */
static void test_late_compile(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    unsetenv("COOPVM_JIT");
    cvm_test_jit_late_ns(1);
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, saxpy_text, 0, &d), CVM_SUCCESS);
    const uint64_t need = (CVM_JIT_MIN_INVOCATIONS + N - 1) / N;
    cvm_tier_info ti;
    memset(&ti, 0, sizeof(ti));
    uint64_t k = until_compiled(&s, 0, need, &ti);
    cvm_test_jit_late_ns(0);
    assert_int_equal(ti.entry, 1);
    assert_true(ti.compiled_dispatches >= 1);
    assert_true(k + 1 < need);
    unmake(&s);
}

/* The late rule for a shader of CVM_JIT_ASYNC_INSNS instructions or more
 * (api.c late_wait): however short CVM_JIT_LATE_NS is made, it does not
 * begin compiling before the pipeline has run about as long interpreted
 * as compiling it is estimated to take -- not at its first small dispatch,
 * as the small shader of test_late_compile does -- and it does begin
 * once that much has run; every result is right on the way. */
static void test_late_compile_weighs_cost(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    unsetenv("COOPVM_JIT");
    cvm_test_jit_late_ns(1);
    char *text = long_text(CVM_JIT_ASYNC_INSNS + 64);
    setup s;
    cvm_diagnostic d;
    assert_int_equal(make(&s, text, 0, &d), CVM_SUCCESS);
    cvm_tier_info ti;
    uint64_t begun = cvm_test_jit_compiles_begun();
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    assert_results(&s);
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, 0);
    assert_int_equal(ti.compiled_dispatches, 0);
    /* the small shader's first dispatch would have begun compiling */
    assert_int_equal(cvm_test_jit_compiles_begun(), begun);
    /* (well below the size rule's count, which this loop never reaches) */
    const uint64_t need = (CVM_JIT_MIN_INVOCATIONS + N - 1) / N;
    uint64_t k = until_compiled(&s, 1, need, &ti);
    cvm_test_jit_late_ns(0);
    assert_int_equal(ti.entry, 1);
    assert_true(ti.compiled_dispatches >= 1);
    assert_int_equal(cvm_test_jit_compiles_begun(), begun + 1);
    assert_true(k > 2);
    unmake(&s);
    free(text);
}

static void test_environment(void **state)
{
    (void)state;
    setup s;
    cvm_diagnostic d;
    cvm_context_desc desc;
    cvm_tier_info ti;
    /* always: compiled at a dispatch of 8 invocations, even against NO_JIT */
    setenv("COOPVM_JIT", "always", 1);
    assert_int_equal(make(&s, saxpy_text, CVM_FLAG_NO_JIT, &d), CVM_SUCCESS);
    cvm_context_get_desc(s.ctx, &desc);
    assert_int_equal(desc.flags & (CVM_FLAG_JIT | CVM_FLAG_NO_JIT | CVM_FLAG_COMPARE_TIERS),
                     CVM_FLAG_JIT);
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    assert_results(&s);
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, cvm_jit_available() ? 1 : 0);
    assert_int_equal(ti.compiled_dispatches, cvm_jit_available() ? 1 : 0);
    unmake(&s);
    /* never: interpreted against JIT */
    setenv("COOPVM_JIT", "never", 1);
    assert_int_equal(make(&s, saxpy_text, CVM_FLAG_JIT, &d), CVM_SUCCESS);
    cvm_context_get_desc(s.ctx, &desc);
    assert_int_equal(desc.flags & (CVM_FLAG_JIT | CVM_FLAG_NO_JIT | CVM_FLAG_COMPARE_TIERS),
                     CVM_FLAG_NO_JIT);
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    assert_results(&s);
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.entry, 0);
    assert_int_equal(ti.compiled_dispatches, 0);
    unmake(&s);
    /* compare */
    setenv("COOPVM_JIT", "compare", 1);
    assert_int_equal(make(&s, saxpy_text, 0, &d), CVM_SUCCESS);
    cvm_context_get_desc(s.ctx, &desc);
    assert_int_equal(desc.flags & (CVM_FLAG_JIT | CVM_FLAG_NO_JIT | CVM_FLAG_COMPARE_TIERS),
                     CVM_FLAG_COMPARE_TIERS);
    assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
    cvm_pipeline_tier_info(s.pipe, &ti);
    assert_int_equal(ti.compared_dispatches, cvm_jit_available() ? 1 : 0);
    unmake(&s);
    /* auto and empty: the flags decide (a small dispatch stays interpreted) */
    static const char *const autos[] = {"auto", ""};
    for (int k = 0; k < 2; k++) {
        setenv("COOPVM_JIT", autos[k], 1);
        assert_int_equal(make(&s, saxpy_text, 0, &d), CVM_SUCCESS);
        cvm_context_get_desc(s.ctx, &desc);
        assert_int_equal(desc.flags & (CVM_FLAG_JIT | CVM_FLAG_NO_JIT | CVM_FLAG_COMPARE_TIERS), 0);
        assert_int_equal(cvm_pipeline_dispatch(s.pipe, N / 4, 1, 1, &d), CVM_SUCCESS);
        cvm_pipeline_tier_info(s.pipe, &ti);
        assert_int_equal(ti.entry, 0);
        unmake(&s);
    }
    /* a misspelling is refused, by name */
    setenv("COOPVM_JIT", "alwyas", 1);
    cvm_context *ctx = NULL;
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_non_null(strstr(d.message, "COOPVM_JIT='alwyas'"));
    unsetenv("COOPVM_JIT");
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    cvm_context_destroy(ctx);
}

int main(void)
{
    /* the tests set COOPVM_JIT themselves: one from outside would change
     * what they compare */
    unsetenv("COOPVM_JIT");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_alike),
        cmocka_unit_test(test_compare_reports),
        cmocka_unit_test(test_compare_race),
        cmocka_unit_test(test_compare_not_taken),
        cmocka_unit_test(test_small_dispatches_add_up),
        cmocka_unit_test(test_large_shader_compiles_aside),
        cmocka_unit_test(test_late_compile),
        cmocka_unit_test(test_late_compile_weighs_cost),
        cmocka_unit_test(test_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
