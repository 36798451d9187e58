/* A program that uses coopvm as an installed library would: only <coopvm.h>
 * and the public API.  Assembles a compute shader that writes
 * out[i] = i * i + 3 for each global invocation i, runs 2 workgroups of 4
 * invocations, and checks the 8 values against the same formula computed
 * here.  Prints "consumer: ok" and exits 0 on success. */
#include <coopvm.h>
#include <stdio.h>
#include <string.h>

static const char shader[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %buf\n"
    "OpExecutionMode %main LocalSize 4 1 1\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %rt ArrayStride 4\n"
    "OpMemberDecorate %st 0 Offset 0\n"
    "OpDecorate %st Block\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%u32 = OpTypeInt 32 0\n"
    "%v3 = OpTypeVector %u32 3\n"
    "%pin = OpTypePointer Input %v3\n"
    "%gid = OpVariable %pin Input\n"
    "%rt = OpTypeRuntimeArray %u32\n"
    "%st = OpTypeStruct %rt\n"
    "%pbuf = OpTypePointer StorageBuffer %st\n"
    "%buf = OpVariable %pbuf StorageBuffer\n"
    "%pu = OpTypePointer StorageBuffer %u32\n"
    "%c0 = OpConstant %u32 0\n"
    "%c3 = OpConstant %u32 3\n"
    "%main = OpFunction %void None %fn\n"
    "%l = OpLabel\n"
    "%g = OpLoad %v3 %gid\n"
    "%x = OpCompositeExtract %u32 %g 0\n"
    "%sq = OpIMul %u32 %x %x\n"
    "%v = OpIAdd %u32 %sq %c3\n"
    "%p = OpAccessChain %pu %buf %c0 %x\n"
    "OpStore %p %v\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static int fail(const char *what, cvm_result r, const cvm_diagnostic *d)
{
    fprintf(stderr, "consumer: %s: %s: %s\n", what, cvm_result_string(r), d->message);
    return 1;
}

int main(void)
{
    cvm_diagnostic d;
    uint32_t *words = NULL;
    size_t nwords = 0;
    cvm_result r = cvm_assemble(shader, strlen(shader), 0, NULL, &words, &nwords, &d);
    if (r != CVM_SUCCESS)
        return fail("cvm_assemble", r, &d);
    cvm_context *ctx = NULL;
    if ((r = cvm_context_create(NULL, &ctx, &d)) != CVM_SUCCESS)
        return fail("cvm_context_create", r, &d);
    cvm_module *module = NULL;
    r = cvm_module_create(ctx, words, nwords, &module, &d);
    cvm_free(words);
    if (r != CVM_SUCCESS)
        return fail("cvm_module_create", r, &d);
    cvm_pipeline *pipeline = NULL;
    if ((r = cvm_pipeline_create(module, NULL, NULL, 0, &pipeline, &d)) != CVM_SUCCESS)
        return fail("cvm_pipeline_create", r, &d);
    uint32_t out[8];
    memset(out, 0xff, sizeof(out));
    if ((r = cvm_pipeline_bind_buffer(pipeline, 0, 0, 0, out, sizeof(out), &d)) != CVM_SUCCESS)
        return fail("cvm_pipeline_bind_buffer", r, &d);
    if ((r = cvm_pipeline_dispatch(pipeline, 2, 1, 1, &d)) != CVM_SUCCESS)
        return fail("cvm_pipeline_dispatch", r, &d);
    int bad = 0;
    for (uint32_t i = 0; i < 8; i++)
        if (out[i] != i * i + 3) {
            fprintf(stderr, "consumer: out[%u] = %u, expected %u\n", i, out[i], i * i + 3);
            bad = 1;
        }
    cvm_pipeline_destroy(pipeline);
    cvm_module_destroy(module);
    cvm_context_destroy(ctx);
    if (bad)
        return 1;
    printf("consumer: ok\n");
    return 0;
}
