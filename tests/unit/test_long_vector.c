/* SPV_EXT_long_vector: vectors of any size, including sizes taken from
 * specialization constants (OpTypeVectorIdEXT, and OpTypeArray lengths from
 * OpSpecConstantOp), OpBitcast between long vectors of the same total size
 * and different component counts, dynamic access, element-wise arithmetic,
 * a 7-component OpTypeVector in a buffer, and the refusal of a size that
 * specializes to zero.  The model is plain C over the same inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "asm_run.h"

/* Per invocation l of 4, with n = N (SpecId 0) and base = l * N:
 *   v   = vector<uint, N>(7), then v[i] = In[base + i] (OpVectorInsertDynamic)
 *   w   = v + v
 *   h   = bitcast vector<ushort, 2N>(w); b = bitcast vector<uint, N>(h)
 *   a   = uint[N] (length from the SpecId), a[i] = In[base + i] * 3
 *   Out[3 * (base + i) + 0] = b[i]
 *   Out[3 * (base + i) + 1] = h[2i] | h[2i + 1] << 16 (the halves of w[i])
 *   Out[3 * (base + i) + 2] = a[i]
 *   Len[l] = the vector's component count, through OpSpecConstantOp */
static const char shader[] =
    "OpCapability Shader\n"
    "OpCapability Int16\n"
    "OpCapability LongVectorEXT\n"
    "OpCapability ReplicatedCompositesEXT\n"
    "OpExtension \"SPV_EXT_long_vector\"\n"
    "OpExtension \"SPV_EXT_replicated_composites\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %lidx\n"
    "OpExecutionMode %main LocalSize 4 1 1\n"
    "OpDecorate %lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %N SpecId 0\n"
    "OpDecorate %rtu ArrayStride 4\n"
    "OpDecorate %Bu Block\n"
    "OpMemberDecorate %Bu 0 Offset 0\n"
    "OpDecorate %In DescriptorSet 0\n"
    "OpDecorate %In Binding 0\n"
    "OpDecorate %Out DescriptorSet 0\n"
    "OpDecorate %Out Binding 1\n"
    "OpDecorate %Len DescriptorSet 0\n"
    "OpDecorate %Len Binding 2\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%uint = OpTypeInt 32 0\n"
    "%ushort = OpTypeInt 16 0\n"
    "%N = OpSpecConstant %uint 1\n"
    "%c0 = OpConstant %uint 0\n"
    "%c1 = OpConstant %uint 1\n"
    "%c2 = OpConstant %uint 2\n"
    "%c3 = OpConstant %uint 3\n"
    "%c7 = OpConstant %uint 7\n"
    "%c16 = OpConstant %uint 16\n"
    "%N2 = OpSpecConstantOp %uint IMul %N %c2\n"
    "%vN = OpTypeVectorIdEXT %uint %N\n"
    "%vH = OpTypeVectorIdEXT %ushort %N2\n"
    "%arrN = OpTypeArray %uint %N\n"
    "%N1 = OpSpecConstantOp %uint IAdd %N %c0\n"
    "%rtu = OpTypeRuntimeArray %uint\n"
    "%Bu = OpTypeStruct %rtu\n"
    "%pBu = OpTypePointer StorageBuffer %Bu\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%pin = OpTypePointer Input %uint\n"
    "%pfv = OpTypePointer Function %vN\n"
    "%pfa = OpTypePointer Function %arrN\n"
    "%pfu = OpTypePointer Function %uint\n"
    "%In = OpVariable %pBu StorageBuffer\n"
    "%Out = OpVariable %pBu StorageBuffer\n"
    "%Len = OpVariable %pBu StorageBuffer\n"
    "%lidx = OpVariable %pin Input\n"
    "%rep = OpConstantCompositeReplicateEXT %vN %c7\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%vv = OpVariable %pfv Function\n"
    "%av = OpVariable %pfa Function\n"
    "%iv = OpVariable %pfu Function\n"
    "%l = OpLoad %uint %lidx\n"
    "%base = OpIMul %uint %l %N\n"
    "%lp = OpAccessChain %pu %Len %c0 %l\n"
    "OpStore %lp %N1\n"
    "OpStore %vv %rep\n"
    "OpStore %iv %c0\n"
    "OpBranch %h1\n"
    "%h1 = OpLabel\n"
    "OpLoopMerge %x1 %k1 None\n"
    "OpBranch %t1\n"
    "%t1 = OpLabel\n"
    "%i = OpLoad %uint %iv\n"
    "%more = OpULessThan %bool %i %N\n"
    "OpBranchConditional %more %b1 %x1\n"
    "%b1 = OpLabel\n"
    "%gi = OpIAdd %uint %base %i\n"
    "%pi = OpAccessChain %pu %In %c0 %gi\n"
    "%x = OpLoad %uint %pi\n"
    "%v0 = OpLoad %vN %vv\n"
    "%v1 = OpVectorInsertDynamic %vN %v0 %x %i\n"
    "OpStore %vv %v1\n"
    "%x3 = OpIMul %uint %x %c3\n"
    "%pa = OpAccessChain %pfu %av %i\n"
    "OpStore %pa %x3\n"
    "OpBranch %k1\n"
    "%k1 = OpLabel\n"
    "%i1 = OpIAdd %uint %i %c1\n"
    "OpStore %iv %i1\n"
    "OpBranch %h1\n"
    "%x1 = OpLabel\n"
    "%v = OpLoad %vN %vv\n"
    "%w = OpIAdd %vN %v %v\n"
    "%h = OpBitcast %vH %w\n"
    "%b = OpBitcast %vN %h\n"
    "OpStore %iv %c0\n"
    "OpBranch %h2\n"
    "%h2 = OpLabel\n"
    "OpLoopMerge %x2 %k2 None\n"
    "OpBranch %t2\n"
    "%t2 = OpLabel\n"
    "%j = OpLoad %uint %iv\n"
    "%more2 = OpULessThan %bool %j %N\n"
    "OpBranchConditional %more2 %b2 %x2\n"
    "%b2 = OpLabel\n"
    "%bj = OpVectorExtractDynamic %uint %b %j\n"
    "%j2 = OpIMul %uint %j %c2\n"
    "%j21 = OpIAdd %uint %j2 %c1\n"
    "%hl = OpVectorExtractDynamic %ushort %h %j2\n"
    "%hh = OpVectorExtractDynamic %ushort %h %j21\n"
    "%hl32 = OpUConvert %uint %hl\n"
    "%hh32 = OpUConvert %uint %hh\n"
    "%hhs = OpShiftLeftLogical %uint %hh32 %c16\n"
    "%hw = OpBitwiseOr %uint %hl32 %hhs\n"
    "%paj = OpAccessChain %pfu %av %j\n"
    "%aj = OpLoad %uint %paj\n"
    "%gj = OpIAdd %uint %base %j\n"
    "%o = OpIMul %uint %gj %c3\n"
    "%o1 = OpIAdd %uint %o %c1\n"
    "%o2 = OpIAdd %uint %o %c2\n"
    "%q0 = OpAccessChain %pu %Out %c0 %o\n"
    "OpStore %q0 %bj\n"
    "%q1 = OpAccessChain %pu %Out %c0 %o1\n"
    "OpStore %q1 %hw\n"
    "%q2 = OpAccessChain %pu %Out %c0 %o2\n"
    "OpStore %q2 %aj\n"
    "OpBranch %k2\n"
    "%k2 = OpLabel\n"
    "%j1 = OpIAdd %uint %j %c1\n"
    "OpStore %iv %j1\n"
    "OpBranch %h2\n"
    "%x2 = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void run_n(uint32_t n)
{
    size_t count = (size_t)4 * n;
    uint32_t *in = malloc(count * 4), *out = calloc(count * 3, 4), len[4] = {0, 0, 0, 0};
    assert_true(in && out);
    uint32_t s = n * 2654435761u;
    for (size_t i = 0; i < count; i++) {
        s = s * 1664525u + 1013904223u;
        in[i] = s;
    }
    void *bufs[3] = {in, out, len};
    size_t sizes[3] = {count * 4, count * 12, sizeof(len)};
    cvm_specialization sp = {0, 4, n};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.specs = &sp;
    p.nspecs = 1;
    asm_result rr = asm_run(shader, &p, bufs, sizes, 3);
    char what[64];
    snprintf(what, sizeof(what), "N = %u", n);
    ASM_OK(rr, what);
    for (int l = 0; l < 4; l++)
        if (len[l] != n)
            fail_msg("N = %u: lane %d: length %u", n, l, len[l]);
    for (size_t i = 0; i < count; i++) {
        uint32_t w = in[i] * 2u;
        if (out[3 * i] != w || out[3 * i + 1] != w || out[3 * i + 2] != in[i] * 3u)
            fail_msg("N = %u element %zu: %08x %08x %08x, expected %08x %08x %08x", n, i,
                     out[3 * i], out[3 * i + 1], out[3 * i + 2], w, w, in[i] * 3u);
    }
    free(in);
    free(out);
}

static void test_spec_sizes(void **state)
{
    (void)state;
    const uint32_t sizes[] = {1, 2, 3, 4, 5, 8, 17, 64, 301};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        run_n(sizes[i]);
}

/* The module's default (1) also runs; zero is refused naming the SpecId. */
static void test_zero_size(void **state)
{
    (void)state;
    uint32_t buf[64];
    void *bufs[3] = {buf, buf + 16, buf + 48};
    size_t sizes[3] = {64, 128, 16};
    asm_result rr = asm_run(shader, NULL, bufs, sizes, 3);
    ASM_OK(rr, "the default specialization");
    cvm_specialization sp = {0, 4, 0};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.specs = &sp;
    p.nspecs = 1;
    rr = asm_run(shader, &p, bufs, sizes, 3);
    assert_int_equal(rr.create, CVM_ERROR_INVALID_MODULE);
    if (!strstr(rr.message, "OpTypeVectorIdEXT") || !strstr(rr.message, "specialization constant 0"))
        fail_msg("%s", rr.message);
}

/* A 7-component OpTypeVector in a buffer block, element-wise arithmetic and
 * a GLSL.std.450 function on it, a shuffle across two of them. */
static const char fixed_shader[] =
    "OpCapability Shader\n"
    "OpCapability LongVectorEXT\n"
    "OpExtension \"SPV_EXT_long_vector\"\n"
    "%std = OpExtInstImport \"GLSL.std.450\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpDecorate %S Block\n"
    "OpMemberDecorate %S 0 Offset 0\n"
    "OpMemberDecorate %S 1 Offset 32\n"
    "OpMemberDecorate %S 2 Offset 64\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%float = OpTypeFloat 32\n"
    "%int = OpTypeInt 32 1\n"
    "%v7 = OpTypeVector %float 7\n"
    "%v9 = OpTypeVector %float 9\n"
    "%S = OpTypeStruct %v7 %v7 %v9\n"
    "%pS = OpTypePointer StorageBuffer %S\n"
    "%p7 = OpTypePointer StorageBuffer %v7\n"
    "%p9 = OpTypePointer StorageBuffer %v9\n"
    "%buf = OpVariable %pS StorageBuffer\n"
    "%i0 = OpConstant %int 0\n"
    "%i1 = OpConstant %int 1\n"
    "%i2 = OpConstant %int 2\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%pa = OpAccessChain %p7 %buf %i0\n"
    "%pb = OpAccessChain %p7 %buf %i1\n"
    "%a = OpLoad %v7 %pa\n"
    "%b = OpLoad %v7 %pb\n"
    "%m = OpFMul %v7 %a %b\n"
    "%x = OpExtInst %v7 %std FMax %m %b\n"
    "OpStore %pa %x\n"
    "%s = OpVectorShuffle %v9 %a %b 6 13 0 7 1 8 2 9 3\n"
    "%pc = OpAccessChain %p9 %buf %i2\n"
    "OpStore %pc %s\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_fixed_long_vector(void **state)
{
    (void)state;
    float b[8 + 8 + 9];
    for (int i = 0; i < 7; i++) {
        b[i] = (float)i - 3.0f;
        b[8 + i] = 0.5f * (float)i - 1.0f;
    }
    float a0[7];
    memcpy(a0, b, sizeof(a0));
    void *bufs[1] = {b};
    size_t sizes[1] = {sizeof(b)};
    asm_result rr = asm_run(fixed_shader, NULL, bufs, sizes, 1);
    ASM_OK(rr, "vector of 7");
    for (int i = 0; i < 7; i++) {
        float m = a0[i] * b[8 + i], want = fmaxf(m, b[8 + i]);
        if (b[i] != want)
            fail_msg("component %d: %g, expected %g", i, (double)b[i], (double)want);
    }
    const int sel[9] = {6, 13, 0, 7, 1, 8, 2, 9, 3};
    for (int k = 0; k < 9; k++) {
        float want = sel[k] < 7 ? a0[sel[k]] : b[8 + sel[k] - 7];
        if (b[16 + k] != want)
            fail_msg("shuffle %d: %g, expected %g", k, (double)b[16 + k], (double)want);
    }
}

/* A composite of a vector sized by a specialization constant has as many
 * constituents as the specialized size; glslang writes such vectors'
 * constants with the constituents of the default size (its own tests: none,
 * for a default of 0), which no check before specialization can see. */
static const char composite_shader[] =
    "OpCapability Shader\n"
    "OpCapability LongVectorEXT\n"
    "OpExtension \"SPV_EXT_long_vector\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpDecorate %N SpecId 0\n"
    "OpDecorate %S Block\n"
    "OpMemberDecorate %S 0 Offset 0\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%N = OpSpecConstant %uint 3\n"
    "%c0 = OpConstant %uint 0\n"
    "%c5 = OpConstant %uint 5\n"
    "%vN = OpTypeVectorIdEXT %uint %N\n"
    "%S = OpTypeStruct %uint\n"
    "%pS = OpTypePointer StorageBuffer %S\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%buf = OpVariable %pS StorageBuffer\n"
    "%k = OpConstantComposite %vN %c5 %c5 %c5\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%e = OpCompositeExtract %uint %k 2\n"
    "%p = OpAccessChain %pu %buf %c0\n"
    "OpStore %p %e\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_spec_sized_composite(void **state)
{
    (void)state;
    uint32_t out = 0;
    void *bufs[1] = {&out};
    size_t sizes[1] = {4};
    asm_result rr = asm_run(composite_shader, NULL, bufs, sizes, 1);
    ASM_OK(rr, "three constituents for the default of 3");
    assert_int_equal(out, 5);
    cvm_specialization sp = {0, 4, 4};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.specs = &sp;
    p.nspecs = 1;
    rr = asm_run(composite_shader, &p, bufs, sizes, 1);
    assert_int_equal(rr.create, CVM_ERROR_INVALID_MODULE);
    if (!strstr(rr.message, "OpConstantComposite") || !strstr(rr.message, "as specialized"))
        fail_msg("%s", rr.message);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_sizes),
        cmocka_unit_test(test_zero_size),
        cmocka_unit_test(test_fixed_long_vector),
        cmocka_unit_test(test_spec_sized_composite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
