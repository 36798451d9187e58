/* SPV_EXT_shader_64bit_indexing (Shader64BitIndexingEXT): the engine's
 * address arithmetic is 64-bit, so an index times ArrayStride (access
 * chains), row times Stride (cooperative matrix loads) reaches the byte it
 * names and is reported out of bounds there, never wrapped to 32 bits (with
 * a 16-byte buffer, element 0x40000001 of a uint array would wrap to
 * element 1) nor carried into the next buffer; OpArrayLength may have a
 * 64-bit result; cooperative-vector offsets may be 64-bit integers, with or
 * without the capability (a Vulkan pipeline flag may enable them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"

/* out[0] = uint length, out[1..2] = ulong length, out[3] = in[%idx] */
static const char shader_fmt[] =
    "OpCapability Shader\n"
    "OpCapability Int64\n"
    "OpCapability Shader64BitIndexingEXT\n"
    "OpExtension \"SPV_EXT_shader_64bit_indexing\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %%main \"main\"\n"
    "OpExecutionMode %%main LocalSize 1 1 1\n"
    "OpExecutionMode %%main Shader64BitIndexingEXT\n"
    "OpDecorate %%idx SpecId 0\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpDecorate %%B Block\n"
    "OpMemberDecorate %%B 0 Offset 0\n"
    "OpDecorate %%in DescriptorSet 0\n"
    "OpDecorate %%in Binding 0\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 1\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%ulong = OpTypeInt 64 0\n"
    "%%long = OpTypeInt 64 1\n"
    "%%rta = OpTypeRuntimeArray %%uint\n"
    "%%B = OpTypeStruct %%rta\n"
    "%%pB = OpTypePointer StorageBuffer %%B\n"
    "%%pu = OpTypePointer StorageBuffer %%uint\n"
    "%%pl = OpTypePointer StorageBuffer %%ulong\n"
    "%%in = OpVariable %%pB StorageBuffer\n"
    "%%out = OpVariable %%pB StorageBuffer\n"
    "%%c0 = OpConstant %%uint 0\n"
    "%%c1 = OpConstant %%uint 1\n"
    "%%c3 = OpConstant %%uint 3\n"
    "%%idx = OpSpecConstant %%long 1\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%n32 = OpArrayLength %%uint %%in 0\n"
    "%%n64 = OpArrayLength %%ulong %%in 0\n"
    "%%p0 = OpAccessChain %%pu %%out %%c0 %%c0\n"
    "OpStore %%p0 %%n32\n"
    "%%p1 = OpAccessChain %%pu %%out %%c0 %%c1\n"
    "%%n64lo = OpUConvert %%uint %%n64\n"
    "OpStore %%p1 %%n64lo\n"
    "%%pe = OpAccessChain %%pu %%in %%c0 %%%s\n"
    "%%e = OpLoad %%uint %%pe\n"
    "%%p3 = OpAccessChain %%pu %%out %%c0 %%c3\n"
    "OpStore %%p3 %%e\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static asm_result run_index(int64_t index, uint32_t flags, uint32_t *out)
{
    char text[sizeof(shader_fmt) + 64];
    snprintf(text, sizeof(text), shader_fmt, "idx");
    uint32_t in[4] = {11, 22, 33, 44};
    memset(out, 0, 16);
    void *bufs[2] = {in, out};
    size_t sizes[2] = {sizeof(in), 16};
    cvm_specialization sp = {0, 8, (uint64_t)index};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.specs = &sp;
    p.nspecs = 1;
    p.flags = flags;
    return asm_run(text, &p, bufs, sizes, 2);
}

static void test_index(void **state)
{
    (void)state;
    uint32_t out[4];
    asm_result rr = run_index(2, 0, out);
    ASM_OK(rr, "index 2");
    assert_int_equal(out[0], 4); /* OpArrayLength, 32-bit */
    assert_int_equal(out[1], 4); /* OpArrayLength, 64-bit */
    assert_int_equal(out[3], 33);
    /* 0x40000001 * 4 = 0x100000004 bytes: out of bounds there, not element 1 */
    rr = run_index(0x40000001, 0, out);
    assert_int_equal(rr.dispatch, CVM_ERROR_OUT_OF_BOUNDS);
    if (!strstr(rr.message, "4294967300"))
        fail_msg("the offset is not the unwrapped one: %s", rr.message);
    rr = run_index(0x40000001, CVM_FLAG_ROBUST_ACCESS, out);
    ASM_OK(rr, "robust");
    assert_int_equal(out[3], 0);
    /* past the 40-bit offsets of a buffer, and below 0: never another buffer */
    const int64_t far[] = {INT64_C(1) << 38, (INT64_C(1) << 38) + 1, -(INT64_C(1) << 38),
                           INT64_MAX / 4 + 1, INT64_MIN};
    for (size_t k = 0; k < sizeof(far) / sizeof(far[0]); k++) {
        rr = run_index(far[k], 0, out);
        if (rr.dispatch != CVM_ERROR_OUT_OF_BOUNDS)
            fail_msg("index %lld: %s: %s", (long long)far[k], cvm_result_string(rr.dispatch),
                     rr.message);
        rr = run_index(far[k], CVM_FLAG_ROBUST_ACCESS, out);
        ASM_OK(rr, "robust, far index");
        assert_int_equal(out[3], 0);
    }
}

/* Row 1 of a cooperative matrix at Stride 0x40000000 uint elements lies at
 * byte 2^32: out of bounds, not row 0 again. */
static const char matrix_shader[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpCapability Shader64BitIndexingEXT\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_EXT_shader_64bit_indexing\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %in\n"
    "OpExecutionMode %main LocalSize 4 1 1\n"
    "OpExecutionMode %main Shader64BitIndexingEXT\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpDecorate %B Block\n"
    "OpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %in DescriptorSet 0\n"
    "OpDecorate %in Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%rta = OpTypeRuntimeArray %uint\n"
    "%B = OpTypeStruct %rta\n"
    "%pB = OpTypePointer StorageBuffer %B\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%in = OpVariable %pB StorageBuffer\n"
    "%c0 = OpConstant %uint 0\n"
    "%c2 = OpConstant %uint 2\n"
    "%c3 = OpConstant %uint 3\n"
    "%stride = OpConstant %uint 0x40000000\n"
    "%mat = OpTypeCooperativeMatrixKHR %uint %c3 %c2 %c2 %c2\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%p = OpAccessChain %pu %in %c0 %c0\n"
    "%m = OpCooperativeMatrixLoadKHR %mat %p %c0 %stride\n"
    "OpCooperativeMatrixStoreKHR %p %m %c0 %c2\n" /* used: a dead load is not run */
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_matrix_stride(void **state)
{
    (void)state;
    uint32_t in[4] = {1, 2, 3, 4};
    void *bufs[1] = {in};
    size_t sizes[1] = {sizeof(in)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 4;
    asm_result rr = asm_run(matrix_shader, &p, bufs, sizes, 1);
    assert_int_equal(rr.dispatch, CVM_ERROR_OUT_OF_BOUNDS);
    if (!strstr(rr.message, "4294967296"))
        fail_msg("row 1 is not at byte 2^32: %s", rr.message);
}

/* A cooperative-vector load at a 64-bit Offset (allowed with
 * SPV_EXT_shader_64bit_indexing) reads where it says. */
static const char coopvec_shader[] =
    "OpCapability Shader\n"
    "OpCapability Int64\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeVectorNV\n"
    "OpCapability Shader64BitIndexingEXT\n"
    "OpExtension \"SPV_NV_cooperative_vector\"\n"
    "OpExtension \"SPV_EXT_shader_64bit_indexing\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %in %out\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpExecutionMode %main Shader64BitIndexingEXT\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpDecorate %B Block\n"
    "OpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %in DescriptorSet 0\n"
    "OpDecorate %in Binding 0\n"
    "OpDecorate %out DescriptorSet 0\n"
    "OpDecorate %out Binding 1\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%ulong = OpTypeInt 64 0\n"
    "%c0 = OpConstant %uint 0\n"
    "%c4 = OpConstant %uint 4\n"
    "%off = OpConstant %ulong 16\n"
    "%rta = OpTypeRuntimeArray %uint\n"
    "%B = OpTypeStruct %rta\n"
    "%pB = OpTypePointer StorageBuffer %B\n"
    "%pa = OpTypePointer StorageBuffer %rta\n"
    "%in = OpVariable %pB StorageBuffer\n"
    "%out = OpVariable %pB StorageBuffer\n"
    "%cv = OpTypeCooperativeVectorNV %uint %c4\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%pi = OpAccessChain %pa %in %c0\n"
    "%po = OpAccessChain %pa %out %c0\n"
    "%v = OpCooperativeVectorLoadNV %cv %pi %off\n"
    "OpCooperativeVectorStoreNV %po %c0 %v\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_coopvec_offset(void **state)
{
    (void)state;
    uint32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4] = {0, 0, 0, 0};
    void *bufs[2] = {in, out};
    size_t sizes[2] = {sizeof(in), sizeof(out)};
    asm_result rr = asm_run(coopvec_shader, NULL, bufs, sizes, 2);
    ASM_OK(rr, "64-bit cooperative-vector offset");
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], in[4 + i]);
    /* Without the capability, its extension and the execution mode -- what
     * glslang emits for GL_EXT_shader_64bit_indexing's 64-bit offsets, which
     * Vulkan enables with VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT (the
     * CTS's cooperative_vector.*.64b_indexing.*) -- the module is still valid
     * and reads the same elements. */
    char text[sizeof(coopvec_shader)];
    snprintf(text, sizeof(text), "%s", coopvec_shader);
    const char *cut[] = {"OpCapability Shader64BitIndexingEXT\n",
                         "OpExtension \"SPV_EXT_shader_64bit_indexing\"\n",
                         "OpExecutionMode %main Shader64BitIndexingEXT\n"};
    for (int k = 0; k < 3; k++) {
        char *c = strstr(text, cut[k]);
        assert_non_null(c);
        memmove(c, c + strlen(cut[k]), strlen(c + strlen(cut[k])) + 1);
    }
    memset(out, 0, sizeof(out));
    rr = asm_run(text, NULL, bufs, sizes, 2);
    ASM_OK(rr, "64-bit cooperative-vector offset, no Shader64BitIndexingEXT");
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], in[4 + i]);
    /* a 16-bit Offset is neither 32- nor 64-bit */
    char *ul = strstr(text, "%ulong = OpTypeInt 64 0");
    assert_non_null(ul);
    memcpy(ul, "%ulong = OpTypeInt 16 0", strlen("%ulong = OpTypeInt 16 0"));
    char *cap = strstr(text, "OpCapability Int64");
    assert_non_null(cap);
    memcpy(cap, "OpCapability Int16", strlen("OpCapability Int16"));
    rr = asm_run(text, NULL, bufs, sizes, 2);
    if (rr.create != CVM_ERROR_INVALID_MODULE || !strstr(rr.message, "Offset"))
        fail_msg("%s: %s", cvm_result_string(rr.create), rr.message);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_matrix_stride),
        cmocka_unit_test(test_coopvec_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
