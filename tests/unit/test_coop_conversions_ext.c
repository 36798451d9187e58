/* The conversions of SPV_EXT_cooperative_matrix_maintenance1
 * (CooperativeMatrixConversionsEXT): OpCooperativeMatrixConvertUseEXT from
 * MatrixAKHR to MatrixAccumulatorKHR (the direction SPV_NV_cooperative_matrix2
 * does not have) and between integer types that differ in signedness, and
 * the CooperativeMatrixTransposeEXT decoration on OpFConvert and on
 * OpCooperativeMatrixConvertUseEXT ("element (r,c) of the source is
 * converted and stored in result element (c,r)").  The model is the plain
 * loop over (r, c) with the f32 -> f16 rounding of numeric.h.  Also OpBitcast
 * of cooperative matrices (SPV_KHR_cooperative_matrix: integer components of
 * one width, the same Scope, Rows, Columns and Use). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"
#include "numeric/numeric.h"

enum { M = 5, N = 7 };

static const char shader[] =
    "OpCapability Shader\n"
    "OpCapability Float16\n"
    "OpCapability StorageBuffer16BitAccess\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpCapability CooperativeMatrixConversionsEXT\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %in %ini %o1 %o2 %o3 %o4\n"
    "OpExecutionMode %main LocalSize 8 1 1\n"
    "OpDecorate %t1 CooperativeMatrixTransposeEXT\n"
    "OpDecorate %t4 CooperativeMatrixTransposeEXT\n"
    "OpDecorate %rtf ArrayStride 4\n"
    "OpDecorate %rth ArrayStride 2\n"
    "OpDecorate %Bf Block\n"
    "OpMemberDecorate %Bf 0 Offset 0\n"
    "OpDecorate %Bh Block\n"
    "OpMemberDecorate %Bh 0 Offset 0\n"
    "OpDecorate %in DescriptorSet 0\n"
    "OpDecorate %in Binding 0\n"
    "OpDecorate %ini DescriptorSet 0\n"
    "OpDecorate %ini Binding 1\n"
    "OpDecorate %o1 DescriptorSet 0\n"
    "OpDecorate %o1 Binding 2\n"
    "OpDecorate %o2 DescriptorSet 0\n"
    "OpDecorate %o2 Binding 3\n"
    "OpDecorate %o3 DescriptorSet 0\n"
    "OpDecorate %o3 Binding 4\n"
    "OpDecorate %o4 DescriptorSet 0\n"
    "OpDecorate %o4 Binding 5\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%float = OpTypeFloat 32\n"
    "%half = OpTypeFloat 16\n"
    "%rtf = OpTypeRuntimeArray %float\n"
    "%rth = OpTypeRuntimeArray %half\n"
    "%Bf = OpTypeStruct %rtf\n"
    "%Bh = OpTypeStruct %rth\n"
    "%pBf = OpTypePointer StorageBuffer %Bf\n"
    "%pBh = OpTypePointer StorageBuffer %Bh\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%ph = OpTypePointer StorageBuffer %half\n"
    "%in = OpVariable %pBf StorageBuffer\n"
    "%ini = OpVariable %pBf StorageBuffer\n"
    "%o1 = OpVariable %pBh StorageBuffer\n"
    "%o2 = OpVariable %pBh StorageBuffer\n"
    "%o3 = OpVariable %pBh StorageBuffer\n"
    "%o4 = OpVariable %pBf StorageBuffer\n"
    "%c0 = OpConstant %uint 0\n"
    "%c1 = OpConstant %uint 1\n"
    "%c2 = OpConstant %uint 2\n"
    "%c3 = OpConstant %uint 3\n"
    "%cM = OpConstant %uint 5\n"
    "%cN = OpConstant %uint 7\n"
    "%accf32 = OpTypeCooperativeMatrixKHR %float %c3 %cM %cN %c2\n"
    "%accu32 = OpTypeCooperativeMatrixKHR %uint %c3 %cM %cN %c2\n"
    "%as32 = OpTypeCooperativeMatrixKHR %int %c3 %cM %cN %c0\n"
    "%af16 = OpTypeCooperativeMatrixKHR %half %c3 %cM %cN %c0\n"
    "%accf16 = OpTypeCooperativeMatrixKHR %half %c3 %cM %cN %c2\n"
    "%bf16T = OpTypeCooperativeMatrixKHR %half %c3 %cN %cM %c1\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%pin = OpAccessChain %pf %in %c0 %c0\n"
    "%m0 = OpCooperativeMatrixLoadKHR %accf32 %pin %c0 %cN\n"
    /* f32 accumulator -> f16 B, transposed */
    "%t1 = OpFConvert %bf16T %m0\n"
    "%p1 = OpAccessChain %ph %o1 %c0 %c0\n"
    "OpCooperativeMatrixStoreKHR %p1 %t1 %c0 %cM\n"
    /* f32 accumulator -> f16 A, then A -> accumulator */
    "%a2 = OpFConvert %af16 %m0\n"
    "%c3m = OpCooperativeMatrixConvertUseEXT %accf16 %a2\n"
    "%p2 = OpAccessChain %ph %o2 %c0 %c0\n"
    "OpCooperativeMatrixStoreKHR %p2 %c3m %c0 %cN\n"
    /* accumulator -> B, transposed */
    "%t4 = OpCooperativeMatrixConvertUseEXT %bf16T %c3m\n"
    "%p3 = OpAccessChain %ph %o3 %c0 %c0\n"
    "OpCooperativeMatrixStoreKHR %p3 %t4 %c0 %cM\n"
    /* u32 accumulator -> s32 A: the same bits */
    "%pini = OpAccessChain %pf %ini %c0 %c0\n"
    "%mi = OpCooperativeMatrixLoadKHR %accu32 %pini %c0 %cN\n"
    "%ci = OpCooperativeMatrixConvertUseEXT %as32 %mi\n"
    "%p4 = OpAccessChain %pf %o4 %c0 %c0\n"
    "OpCooperativeMatrixStoreKHR %p4 %ci %c0 %cN\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_conversions(void **state)
{
    (void)state;
    float in[M * N];
    uint32_t ini[M * N];
    uint16_t o1[M * N], o2[M * N], o3[M * N];
    uint32_t o4[M * N];
    for (int i = 0; i < M * N; i++) {
        in[i] = (float)(i * 37 % 101) / 7.0f - 5.0f; /* values that round in f16 */
        ini[i] = 0x80000000u + (uint32_t)i * 0x01010101u;
    }
    memset(o1, 0, sizeof(o1));
    memset(o2, 0, sizeof(o2));
    memset(o3, 0, sizeof(o3));
    memset(o4, 0, sizeof(o4));
    void *bufs[6] = {in, ini, o1, o2, o3, o4};
    size_t sizes[6] = {sizeof(in), sizeof(ini), sizeof(o1), sizeof(o2), sizeof(o3), sizeof(o4)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 4;
    asm_result rr = asm_run(shader, &p, bufs, sizes, 6);
    ASM_OK(rr, "conversions");
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            uint16_t h = cvm_f32_to_f16(in[r * N + c]);
            if (o1[c * M + r] != h)
                fail_msg("transposed FConvert (%d,%d): 0x%04x, expected 0x%04x", c, r,
                         o1[c * M + r], h);
            if (o2[r * N + c] != h)
                fail_msg("A -> accumulator (%d,%d): 0x%04x, expected 0x%04x", r, c,
                         o2[r * N + c], h);
            if (o3[c * M + r] != h)
                fail_msg("transposed ConvertUse (%d,%d): 0x%04x, expected 0x%04x", c, r,
                         o3[c * M + r], h);
            if (o4[r * N + c] != ini[r * N + c])
                fail_msg("u32 -> s32 (%d,%d): 0x%08x, expected 0x%08x", r, c, o4[r * N + c],
                         ini[r * N + c]);
        }
}

/* `text` with the first `from` replaced by `to` (malloc'd). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return s;
}

/* What the rules refuse: the shader with one or two edits. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *edits[3][2]; /* (from, to) pairs, applied in order */
        const char *message;
    } cases[] = {
        /* the decoration needs the capability */
        {{{"OpCapability CooperativeMatrixConversionsEXT\n",
           "OpCapability CooperativeMatrixConversionsNV\nOpExtension \"SPV_NV_cooperative_matrix2\"\n"}},
         "needs the CooperativeMatrixConversionsEXT capability"},
        /* without the capability, ConvertUse keeps SPV_NV_cooperative_matrix2's
         * rules (the first transpose made a plain conversion to A) */
        {{{"OpCapability CooperativeMatrixConversionsEXT\n",
           "OpCapability CooperativeMatrixConversionsNV\nOpExtension \"SPV_NV_cooperative_matrix2\"\n"},
          {"OpDecorate %t1 CooperativeMatrixTransposeEXT\n", ""},
          {"%t1 = OpFConvert %bf16T %m0", "%t1 = OpFConvert %af16 %m0"}},
         "Matrix must be MatrixAccumulatorKHR"},
        /* transposed: the dimensions must swap */
        {{{"%t1 = OpFConvert %bf16T %m0", "%t1 = OpFConvert %af16 %m0"}}, "swap rows and columns"},
        /* transposed: accumulator to A or B only */
        {{{"%t4 = OpCooperativeMatrixConvertUseEXT %bf16T %c3m",
           "%t4 = OpCooperativeMatrixConvertUseEXT %bf16T %a2"}},
         "MatrixAccumulatorKHR"},
        /* A to A is no Use conversion of the text */
        {{{"%c3m = OpCooperativeMatrixConvertUseEXT %accf16 %a2",
           "%c3m = OpCooperativeMatrixConvertUseEXT %af16 %a2"}},
         "one of the two"},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char *text = replaced(shader, cases[k].edits[0][0], cases[k].edits[0][1]);
        for (int e = 1; e < 3 && cases[k].edits[e][0]; e++) {
            char *t2 = replaced(text, cases[k].edits[e][0], cases[k].edits[e][1]);
            free(text);
            text = t2;
        }
        uint8_t buf[6][256];
        void *bufs[6] = {buf[0], buf[1], buf[2], buf[3], buf[4], buf[5]};
        size_t sizes[6] = {256, 256, 256, 256, 256, 256};
        char what[32];
        snprintf(what, sizeof(what), "case %zu", k);
        asm_expect_refused(what, text, NULL, bufs, sizes, 6, cases[k].message);
        free(text);
    }
}

/* u8 accumulator 16 x 12 at workgroup scope -> s8 (OpBitcast) -> s32 (OpSConvert):
 * each byte sign-extended. */
static const char bitcast_shader[] =
    "OpCapability Shader\n"
    "OpCapability Int8\n"
    "OpCapability StorageBuffer8BitAccess\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_KHR_8bit_storage\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %in %out\n"
    "OpExecutionMode %main LocalSize 48 1 1\n"
    "OpDecorate %rtb ArrayStride 1\n"
    "OpDecorate %rti ArrayStride 4\n"
    "OpDecorate %Bb Block\n"
    "OpMemberDecorate %Bb 0 Offset 0\n"
    "OpDecorate %Bi Block\n"
    "OpMemberDecorate %Bi 0 Offset 0\n"
    "OpDecorate %in DescriptorSet 0\n"
    "OpDecorate %in Binding 0\n"
    "OpDecorate %out DescriptorSet 0\n"
    "OpDecorate %out Binding 1\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%uchar = OpTypeInt 8 0\n"
    "%char = OpTypeInt 8 1\n"
    "%rtb = OpTypeRuntimeArray %uchar\n"
    "%rti = OpTypeRuntimeArray %int\n"
    "%Bb = OpTypeStruct %rtb\n"
    "%Bi = OpTypeStruct %rti\n"
    "%pBb = OpTypePointer StorageBuffer %Bb\n"
    "%pBi = OpTypePointer StorageBuffer %Bi\n"
    "%pb = OpTypePointer StorageBuffer %uchar\n"
    "%pi = OpTypePointer StorageBuffer %int\n"
    "%in = OpVariable %pBb StorageBuffer\n"
    "%out = OpVariable %pBi StorageBuffer\n"
    "%c0 = OpConstant %uint 0\n"
    "%c2 = OpConstant %uint 2\n"
    "%cR = OpConstant %uint 16\n"
    "%cC = OpConstant %uint 12\n"
    "%mu8 = OpTypeCooperativeMatrixKHR %uchar %c2 %cR %cC %c2\n"
    "%ms8 = OpTypeCooperativeMatrixKHR %char %c2 %cR %cC %c2\n"
    "%ms32 = OpTypeCooperativeMatrixKHR %int %c2 %cR %cC %c2\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%p0 = OpAccessChain %pb %in %c0 %c0\n"
    "%m = OpCooperativeMatrixLoadKHR %mu8 %p0 %c0 %cC\n"
    "%s = OpBitcast %ms8 %m\n"
    "%w = OpSConvert %ms32 %s\n"
    "%q0 = OpAccessChain %pi %out %c0 %c0\n"
    "OpCooperativeMatrixStoreKHR %q0 %w %c0 %cC\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_matrix_bitcast(void **state)
{
    (void)state;
    uint8_t in[16 * 12];
    int32_t out[16 * 12];
    for (int i = 0; i < 16 * 12; i++)
        in[i] = (uint8_t)(i * 37 + 5);
    memset(out, 0, sizeof(out));
    void *bufs[2] = {in, out};
    size_t sizes[2] = {sizeof(in), sizeof(out)};
    asm_result rr = asm_run(bitcast_shader, NULL, bufs, sizes, 2);
    ASM_OK(rr, "matrix bit cast");
    for (int i = 0; i < 16 * 12; i++)
        if (out[i] != (int8_t)in[i])
            fail_msg("element %d: %d, expected %d", i, out[i], (int8_t)in[i]);
    /* not the same Use, or not integers: refused */
    static const char *const bad[][2] = {
        {"%ms8 = OpTypeCooperativeMatrixKHR %char %c2 %cR %cC %c2",
         "%ms8 = OpTypeCooperativeMatrixKHR %char %c2 %cR %cC %c0"},
        {"%ms8 = OpTypeCooperativeMatrixKHR %char %c2 %cR %cC %c2",
         "%ms8 = OpTypeCooperativeMatrixKHR %uint %c2 %cR %cC %c2"},
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        char *text = replaced(bitcast_shader, bad[k][0], bad[k][1]);
        char what[32];
        snprintf(what, sizeof(what), "bit cast case %zu", k);
        asm_expect_refused(what, text, NULL, bufs, sizes, 2, "cooperative matrix bit cast");
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_matrix_bitcast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
