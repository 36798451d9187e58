/* SPV_NV_cooperative_matrix (the predecessor of the KHR extension) on the
 * engine's KHR machinery, and SPV_ARM_cooperative_matrix_layouts.
 *
 * NV: a subgroup loads A (s8, row-major) and B (u8, column-major) with
 * OpCooperativeMatrixLoadNV, C (s32), multiplies with
 * OpCooperativeMatrixMulAddNV (signedness from the component types: A
 * signed, B unsigned), converts the result to f32 and stores it; every
 * invocation stores OpCooperativeMatrixLengthNV.  Checked against the plain
 * triple loop and the element mapping.
 *
 * ARM: matrices of 1-, 2-, 4- and 8-byte components loaded from and stored
 * to RowBlockedInterleavedARM and ColumnBlockedInterleavedARM memory with
 * Stride 1, 2 and 4, against a model of coopvm's reading of the text (see
 * arm_offset); a load from the blocked layout then a row-major store gives
 * the matrix, and a row-major load then a blocked store gives the blocked
 * bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"

enum { M = 16, N = 8, K = 32, SG = 8 };

static const char nv_shader[] =
    "OpCapability Shader\n"
    "OpCapability Int8\n"
    "OpCapability StorageBuffer8BitAccess\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixNV\n"
    "OpExtension \"SPV_NV_cooperative_matrix\"\n"
    "OpExtension \"SPV_KHR_8bit_storage\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %lidx %A %B %C %R %L\n"
    "OpExecutionMode %main LocalSize 16 1 1\n"
    "OpDecorate %lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %rtb ArrayStride 1\n"
    "OpDecorate %rtc ArrayStride 1\n"
    "OpDecorate %rti ArrayStride 4\n"
    "OpDecorate %rtf ArrayStride 4\n"
    "OpDecorate %rtu ArrayStride 4\n"
    "OpDecorate %Sb Block\n"
    "OpMemberDecorate %Sb 0 Offset 0\n"
    "OpDecorate %Sc Block\n"
    "OpMemberDecorate %Sc 0 Offset 0\n"
    "OpDecorate %Si Block\n"
    "OpMemberDecorate %Si 0 Offset 0\n"
    "OpDecorate %Sf Block\n"
    "OpMemberDecorate %Sf 0 Offset 0\n"
    "OpDecorate %Su Block\n"
    "OpMemberDecorate %Su 0 Offset 0\n"
    "OpDecorate %A DescriptorSet 0\n"
    "OpDecorate %A Binding 0\n"
    "OpDecorate %B DescriptorSet 0\n"
    "OpDecorate %B Binding 1\n"
    "OpDecorate %C DescriptorSet 0\n"
    "OpDecorate %C Binding 2\n"
    "OpDecorate %R DescriptorSet 0\n"
    "OpDecorate %R Binding 3\n"
    "OpDecorate %L DescriptorSet 0\n"
    "OpDecorate %L Binding 4\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%char = OpTypeInt 8 1\n"
    "%uchar = OpTypeInt 8 0\n"
    "%float = OpTypeFloat 32\n"
    "%rtb = OpTypeRuntimeArray %char\n"
    "%rtc = OpTypeRuntimeArray %uchar\n"
    "%rti = OpTypeRuntimeArray %int\n"
    "%rtf = OpTypeRuntimeArray %float\n"
    "%rtu = OpTypeRuntimeArray %uint\n"
    "%Sb = OpTypeStruct %rtb\n"
    "%Sc = OpTypeStruct %rtc\n"
    "%Si = OpTypeStruct %rti\n"
    "%Sf = OpTypeStruct %rtf\n"
    "%Su = OpTypeStruct %rtu\n"
    "%pSb = OpTypePointer StorageBuffer %Sb\n"
    "%pSc = OpTypePointer StorageBuffer %Sc\n"
    "%pSi = OpTypePointer StorageBuffer %Si\n"
    "%pSf = OpTypePointer StorageBuffer %Sf\n"
    "%pSu = OpTypePointer StorageBuffer %Su\n"
    "%pb = OpTypePointer StorageBuffer %char\n"
    "%pc = OpTypePointer StorageBuffer %uchar\n"
    "%pi = OpTypePointer StorageBuffer %int\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%pin = OpTypePointer Input %uint\n"
    "%A = OpVariable %pSb StorageBuffer\n"
    "%B = OpVariable %pSc StorageBuffer\n"
    "%C = OpVariable %pSi StorageBuffer\n"
    "%R = OpVariable %pSf StorageBuffer\n"
    "%L = OpVariable %pSu StorageBuffer\n"
    "%lidx = OpVariable %pin Input\n"
    "%c0 = OpConstant %uint 0\n"
    "%sub = OpSpecConstant %uint 3\n" /* the scope may be a specialization constant */
    "%cM = OpConstant %uint 16\n"
    "%cN = OpConstant %uint 8\n"
    "%cK = OpConstant %uint 32\n"
    "%sK = OpConstant %int 32\n"
    "%sN = OpConstant %int 8\n"
    "%false = OpConstantFalse %bool\n"
    "%true = OpConstantTrue %bool\n"
    "%mA = OpTypeCooperativeMatrixNV %char %sub %cM %cK\n"
    "%mB = OpTypeCooperativeMatrixNV %uchar %sub %cK %cN\n"
    "%mC = OpTypeCooperativeMatrixNV %int %sub %cM %cN\n"
    "%mF = OpTypeCooperativeMatrixNV %float %sub %cM %cN\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%pa = OpAccessChain %pb %A %c0 %c0\n"
    "%a = OpCooperativeMatrixLoadNV %mA %pa %cK %false\n"
    "%pbb = OpAccessChain %pc %B %c0 %c0\n"
    "%b = OpCooperativeMatrixLoadNV %mB %pbb %sK %true None\n"
    "%pcc = OpAccessChain %pi %C %c0 %c0\n"
    "%c = OpCooperativeMatrixLoadNV %mC %pcc %cN %false\n"
    "%r = OpCooperativeMatrixMulAddNV %mC %a %b %c\n"
    "%rf = OpConvertSToF %mF %r\n"
    "%pr = OpAccessChain %pf %R %c0 %c0\n"
    "OpCooperativeMatrixStoreNV %pr %rf %sN %false\n"
    "%len = OpCooperativeMatrixLengthNV %uint %mF\n"
    "%li = OpLoad %uint %lidx\n"
    "%pl = OpAccessChain %pu %L %c0 %li\n"
    "OpStore %pl %len\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_nv(void **state)
{
    (void)state;
    int8_t a[M * K];
    uint8_t b[K * N]; /* column-major: b[n * K + k] = B[k][n] */
    int32_t c[M * N];
    float r[M * N];
    uint32_t len[16];
    for (int i = 0; i < M * K; i++)
        a[i] = (int8_t)(i * 29 + 3);
    for (int i = 0; i < K * N; i++)
        b[i] = (uint8_t)(i * 53 + 200);
    for (int i = 0; i < M * N; i++)
        c[i] = i * 1000 - 50000;
    memset(r, 0, sizeof(r));
    memset(len, 0, sizeof(len));
    void *bufs[5] = {a, b, c, r, len};
    size_t sizes[5] = {sizeof(a), sizeof(b), sizeof(c), sizeof(r), sizeof(len)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = SG;
    asm_result rr = asm_run(nv_shader, &p, bufs, sizes, 5);
    ASM_OK(rr, "SPV_NV_cooperative_matrix");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int64_t s = c[i * N + j];
            for (int k = 0; k < K; k++)
                s += (int64_t)a[i * K + k] * (int64_t)b[j * K + k];
            if (r[i * N + j] != (float)(int32_t)s)
                fail_msg("R[%d][%d] = %g, expected %g", i, j, (double)r[i * N + j],
                         (double)(float)(int32_t)s);
        }
    for (int l = 0; l < 16; l++)
        assert_int_equal(len[l], (M * N + SG - 1) / SG);
}

/* ---- ARM blocked interleaved layouts --------------------------------------- */

/* coopvm's reading (coopmat.c arm_transfer): 64-byte blocks of 4 rows and
 * 16/es columns, row-major inside; blocks in row-major (row-blocked) or
 * column-major order; S consecutive blocks interleaved by 4-byte words. */
static size_t arm_offset(int rowblocked, uint32_t rows, uint32_t cols, uint32_t es, uint32_t S,
                         uint32_t r, uint32_t c, uint32_t byte)
{
    uint32_t bc = 16 / es;
    uint32_t br = r / 4, bcn = c / bc;
    uint32_t b = rowblocked ? br * (cols / bc) + bcn : bcn * (rows / 4) + br;
    uint32_t o = ((r % 4) * bc + c % bc) * es + byte;
    return (size_t)(b / S) * 64 * S + ((size_t)(o / 4) * S + b % S) * 4 + o % 4;
}

static const char arm_fmt[] =
    "OpCapability Shader\n"
    "OpCapability Int8\n"
    "OpCapability Int16\n"
    "OpCapability Int64\n"
    "OpCapability StorageBuffer8BitAccess\n"
    "OpCapability StorageBuffer16BitAccess\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpCapability CooperativeMatrixLayoutsARM\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_ARM_cooperative_matrix_layouts\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %%main \"main\" %%blk %%rm %%out1 %%out2\n"
    "OpExecutionMode %%main LocalSize 4 1 1\n"
    "OpDecorate %%rt ArrayStride %u\n"
    "OpDecorate %%S Block\n"
    "OpMemberDecorate %%S 0 Offset 0\n"
    "OpDecorate %%blk DescriptorSet 0\n"
    "OpDecorate %%blk Binding 0\n"
    "OpDecorate %%rm DescriptorSet 0\n"
    "OpDecorate %%rm Binding 1\n"
    "OpDecorate %%out1 DescriptorSet 0\n"
    "OpDecorate %%out1 Binding 2\n"
    "OpDecorate %%out2 DescriptorSet 0\n"
    "OpDecorate %%out2 Binding 3\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%e = OpTypeInt %u 0\n"
    "%%rt = OpTypeRuntimeArray %%e\n"
    "%%S = OpTypeStruct %%rt\n"
    "%%pS = OpTypePointer StorageBuffer %%S\n"
    "%%pe = OpTypePointer StorageBuffer %%e\n"
    "%%blk = OpVariable %%pS StorageBuffer\n"
    "%%rm = OpVariable %%pS StorageBuffer\n"
    "%%out1 = OpVariable %%pS StorageBuffer\n"
    "%%out2 = OpVariable %%pS StorageBuffer\n"
    "%%c0 = OpConstant %%uint 0\n"
    "%%c3 = OpConstant %%uint 3\n"
    "%%rows = OpConstant %%uint %u\n"
    "%%cols = OpConstant %%uint %u\n"
    "%%use = OpConstant %%uint %u\n"
    "%%layout = OpConstant %%uint %u\n"
    "%%stride = OpConstant %%uint %u\n"
    "%%mat = OpTypeCooperativeMatrixKHR %%e %%c3 %%rows %%cols %%use\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%p0 = OpAccessChain %%pe %%blk %%c0 %%c0\n"
    "%%m = OpCooperativeMatrixLoadKHR %%mat %%p0 %%layout %%stride\n"
    "%%p1 = OpAccessChain %%pe %%out1 %%c0 %%c0\n"
    "OpCooperativeMatrixStoreKHR %%p1 %%m %%c0 %%cols\n"
    "%%p2 = OpAccessChain %%pe %%rm %%c0 %%c0\n"
    "%%n = OpCooperativeMatrixLoadKHR %%mat %%p2 %%c0 %%cols\n"
    "%%p3 = OpAccessChain %%pe %%out2 %%c0 %%c0\n"
    "OpCooperativeMatrixStoreKHR %%p3 %%n %%layout %%stride\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void arm_case(int rowblocked, uint32_t es, uint32_t S, uint32_t rows, uint32_t cols)
{
    size_t total = (size_t)rows * cols * es;
    uint8_t *blk = malloc(total), *rm = malloc(total), *o1 = calloc(total, 1), *o2 = calloc(total, 1);
    assert_true(blk && rm && o1 && o2);
    for (size_t i = 0; i < total; i++) {
        blk[i] = (uint8_t)(i * 7 + 1);
        rm[i] = (uint8_t)(i * 13 + 5);
    }
    char text[sizeof(arm_fmt) + 256];
    snprintf(text, sizeof(text), arm_fmt, es, 8 * es, rows, cols, rowblocked ? 2u : 0u,
             rowblocked ? 4202u : 4203u, S);
    void *bufs[4] = {blk, rm, o1, o2};
    size_t sizes[4] = {total, total, total, total};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 4;
    asm_result rr = asm_run(text, &p, bufs, sizes, 4);
    char what[96];
    snprintf(what, sizeof(what), "%s, %u-byte, Stride %u, %ux%u",
             rowblocked ? "RowBlockedInterleavedARM" : "ColumnBlockedInterleavedARM", es, S, rows,
             cols);
    ASM_OK(rr, what);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++)
            for (uint32_t k = 0; k < es; k++) {
                size_t at = arm_offset(rowblocked, rows, cols, es, S, r, c, k);
                size_t flat = ((size_t)r * cols + c) * es + k;
                if (o1[flat] != blk[at])
                    fail_msg("%s: load (%u,%u) byte %u: 0x%02x, the model 0x%02x", what, r, c, k,
                             o1[flat], blk[at]);
                if (o2[at] != rm[flat])
                    fail_msg("%s: store (%u,%u) byte %u: 0x%02x, the model 0x%02x", what, r, c,
                             k, o2[at], rm[flat]);
            }
    free(blk);
    free(rm);
    free(o1);
    free(o2);
}

static void test_arm_layouts(void **state)
{
    (void)state;
    const uint32_t sizes[] = {1, 2, 4, 8};
    for (int rb = 0; rb < 2; rb++)
        for (size_t si = 0; si < 4; si++)
            for (uint32_t S = 1; S <= 4; S *= 2) {
                uint32_t es = sizes[si], bc = 16 / es;
                uint32_t rows = rb ? 8 : 4 * S * 2, cols = rb ? bc * S * 2 : bc * 3;
                arm_case(rb, es, S, rows, cols);
            }
}

/* The text's rules: Stride 1, 2 or 4; the dimensions multiples of the
 * block (times Stride); the capability.  The validator refuses such a
 * module (the ARM-CML rules); without validation the engine refuses the
 * dispatch itself. */
static void test_arm_refused(void **state)
{
    (void)state;
    static const struct {
        int rowblocked;
        uint32_t es, S, rows, cols;
        const char *message, *rule;
    } cases[] = {
        {1, 4, 3, 4, 12, "Stride 3", "[ARM-CML.Load-Stride]"},
        {1, 4, 2, 4, 4, "columns of 8", "[ARM-CML.Load-Shape]"},  /* 16/4 * 2 */
        {0, 2, 2, 4, 8, "rows must be a multiple of 8", "[ARM-CML.Load-Shape]"},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char text[sizeof(arm_fmt) + 256];
        uint32_t es = cases[k].es;
        snprintf(text, sizeof(text), arm_fmt, es, 8 * es, cases[k].rows, cases[k].cols, 2u,
                 cases[k].rowblocked ? 4202u : 4203u, cases[k].S);
        uint8_t buf[4][4096];
        void *bufs[4] = {buf[0], buf[1], buf[2], buf[3]};
        size_t sizes[4] = {4096, 4096, 4096, 4096};
        asm_result rr = asm_run(text, NULL, bufs, sizes, 4);
        if (rr.create != CVM_ERROR_INVALID_MODULE || !strstr(rr.message, cases[k].rule))
            fail_msg("case %zu: %s: %s", k, cvm_result_string(rr.create), rr.message);
        asm_params np;
        memset(&np, 0, sizeof(np));
        np.flags = CVM_FLAG_NO_VALIDATION;
        rr = asm_run(text, &np, bufs, sizes, 4);
        if (rr.dispatch != CVM_ERROR_INVALID_MODULE || !strstr(rr.message, cases[k].message))
            fail_msg("case %zu: %s: %s", k, cvm_result_string(rr.dispatch), rr.message);
    }
    /* without the capability */
    char text[sizeof(arm_fmt) + 256];
    snprintf(text, sizeof(text), arm_fmt, 4u, 32u, 4u, 4u, 2u, 4202u, 1u);
    char *cap = strstr(text, "OpCapability CooperativeMatrixLayoutsARM\n");
    assert_non_null(cap);
    memmove(cap, cap + strlen("OpCapability CooperativeMatrixLayoutsARM\n"),
            strlen(cap + strlen("OpCapability CooperativeMatrixLayoutsARM\n")) + 1);
    uint8_t buf[4][256];
    void *bufs[4] = {buf[0], buf[1], buf[2], buf[3]};
    size_t sizes[4] = {256, 256, 256, 256};
    asm_expect_refused("no capability", text, NULL, bufs, sizes, 4, "CooperativeMatrixLayoutsARM");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nv),
        cmocka_unit_test(test_arm_layouts),
        cmocka_unit_test(test_arm_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
