/* OpCooperativeMatrixGetCoordinateEXT (SPV_EXT_cooperative_matrix_maintenance1)
 * against the element mapping: a shader loads an M x N matrix whose element
 * (r, c) holds r * N + c + 1, and every invocation writes, for each of its
 * elements e < OpCooperativeMatrixLengthKHR, the element's value (read through
 * an access chain) next to the (row, column) the instruction gives.  The
 * model below is ARCHITECTURE.md's mapping written out: n invocations in the
 * scope instance (the subgroup, a partial last subgroup's own count, or the
 * workgroup), L = ceil(M*N / n), invocation i's element e is flat index
 * i*L + e.  Checked: Length, every coordinate, that the value read at index e
 * is the matrix element at the coordinate (so the instruction agrees with the
 * access chain), padding (flat index >= M*N) reads zero and lies at row >= M,
 * and each element of each instance is owned exactly once.  Subgroup scope at
 * subgroup sizes 4 to 128 with full and partial last subgroups; workgroup
 * scope at several workgroup sizes; matrices smaller than, equal to and
 * larger than the scope. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"

static const char shader_fmt[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpCapability CooperativeMatrixGetCoordinateEXT\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %%main \"main\" %%lidx %%in %%out %%len\n"
    "OpExecutionMode %%main LocalSize %u 1 1\n"
    "OpDecorate %%lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpDecorate %%Buf Block\n"
    "OpMemberDecorate %%Buf 0 Offset 0\n"
    "OpDecorate %%in DescriptorSet 0\n"
    "OpDecorate %%in Binding 0\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 1\n"
    "OpDecorate %%len DescriptorSet 0\n"
    "OpDecorate %%len Binding 2\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%int = OpTypeInt 32 1\n"
    "%%bool = OpTypeBool\n"
    "%%v2uint = OpTypeVector %%uint 2\n"
    "%%rta = OpTypeRuntimeArray %%uint\n"
    "%%Buf = OpTypeStruct %%rta\n"
    "%%pbuf = OpTypePointer StorageBuffer %%Buf\n"
    "%%psb = OpTypePointer StorageBuffer %%uint\n"
    "%%pin = OpTypePointer Input %%uint\n"
    "%%in = OpVariable %%pbuf StorageBuffer\n"
    "%%out = OpVariable %%pbuf StorageBuffer\n"
    "%%len = OpVariable %%pbuf StorageBuffer\n"
    "%%lidx = OpVariable %%pin Input\n"
    "%%c0 = OpConstant %%uint 0\n"
    "%%c1 = OpConstant %%uint 1\n"
    "%%c2 = OpConstant %%uint 2\n"
    "%%c3 = OpConstant %%uint 3\n"
    "%%cM = OpConstant %%uint %u\n"
    "%%cN = OpConstant %%uint %u\n"
    "%%scope = OpConstant %%uint %u\n"
    "%%use = OpConstant %%uint %u\n"
    "%%cap = OpConstant %%uint %u\n"
    "%%mat = OpTypeCooperativeMatrixKHR %%uint %%scope %%cM %%cN %%use\n"
    "%%pmat = OpTypePointer Function %%mat\n"
    "%%pfu = OpTypePointer Function %%uint\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%var = OpVariable %%pmat Function\n"
    "%%ev = OpVariable %%pfu Function\n"
    "%%p0 = OpAccessChain %%psb %%in %%c0 %%c0\n"
    "%%m = OpCooperativeMatrixLoadKHR %%mat %%p0 %%c0 %%cN\n"
    "OpStore %%var %%m\n"
    "%%L = OpCooperativeMatrixLengthKHR %%uint %%mat\n"
    "%%li = OpLoad %%uint %%lidx\n"
    "%%lp = OpAccessChain %%psb %%len %%c0 %%li\n"
    "OpStore %%lp %%L\n"
    "%%base = OpIMul %%uint %%li %%cap\n"
    "OpStore %%ev %%c0\n"
    "OpBranch %%head\n"
    "%%head = OpLabel\n"
    "OpLoopMerge %%exit %%cont None\n"
    "OpBranch %%check\n"
    "%%check = OpLabel\n"
    "%%e = OpLoad %%uint %%ev\n"
    "%%more = OpULessThan %%bool %%e %%L\n"
    "OpBranchConditional %%more %%body %%exit\n"
    "%%body = OpLabel\n"
    "%%ep = OpAccessChain %%pfu %%var %%e\n"
    "%%val = OpLoad %%uint %%ep\n"
    "%%es = OpBitcast %%int %%e\n"
    "%%rc = OpCooperativeMatrixGetCoordinateEXT %%v2uint %%m %%%s\n"
    "%%row = OpCompositeExtract %%uint %%rc 0\n"
    "%%col = OpCompositeExtract %%uint %%rc 1\n"
    "%%slot = OpIAdd %%uint %%base %%e\n"
    "%%o = OpIMul %%uint %%slot %%c3\n"
    "%%o1 = OpIAdd %%uint %%o %%c1\n"
    "%%o2 = OpIAdd %%uint %%o %%c2\n"
    "%%q0 = OpAccessChain %%psb %%out %%c0 %%o\n"
    "OpStore %%q0 %%val\n"
    "%%q1 = OpAccessChain %%psb %%out %%c0 %%o1\n"
    "OpStore %%q1 %%row\n"
    "%%q2 = OpAccessChain %%psb %%out %%c0 %%o2\n"
    "OpStore %%q2 %%col\n"
    "OpBranch %%cont\n"
    "%%cont = OpLabel\n"
    "%%e1 = OpIAdd %%uint %%e %%c1\n"
    "OpStore %%ev %%e1\n"
    "OpBranch %%head\n"
    "%%exit = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

enum { SCOPE_WORKGROUP = 2, SCOPE_SUBGROUP = 3 };

/* One run: an M x N matrix of Use `use` at `scope`, `lanes` invocations in
 * the workgroup, subgroups of `sg`; `signed_index`: the Index operand is a
 * signed 32-bit integer. */
static void check_mapping(uint32_t M, uint32_t N, uint32_t scope, uint32_t use, uint32_t lanes,
                          uint32_t sg, int signed_index)
{
    uint32_t total = M * N, cap = total;
    char *text = malloc(sizeof(shader_fmt) + 256);
    assert_non_null(text);
    snprintf(text, sizeof(shader_fmt) + 256, shader_fmt, lanes, M, N, scope, use, cap,
             signed_index ? "es" : "e");
    uint32_t *in = malloc((size_t)total * 4);
    size_t out_size = (size_t)lanes * cap * 3 * 4, len_size = (size_t)lanes * 4;
    uint32_t *out = malloc(out_size), *len = malloc(len_size);
    assert_true(in && out && len);
    for (uint32_t f = 0; f < total; f++)
        in[f] = f + 1;
    memset(out, 0xAB, out_size); /* slots the shader does not write keep this */
    memset(len, 0xAB, len_size);
    void *bufs[3] = {in, out, len};
    size_t sizes[3] = {(size_t)total * 4, out_size, len_size};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = sg;
    p.threads = 1;
    asm_result rr = asm_run(text, &p, bufs, sizes, 3);
    char what[160];
    snprintf(what, sizeof(what), "%ux%u %s matrix, %u invocations, subgroup %u", M, N,
             scope == SCOPE_WORKGROUP ? "workgroup" : "subgroup", lanes, sg);
    ASM_OK(rr, what);

    uint8_t *owned = calloc(total, 1);
    assert_non_null(owned);
    uint32_t instance_first = UINT32_MAX;
    for (uint32_t l = 0; l < lanes; l++) {
        /* the model */
        uint32_t first = scope == SCOPE_WORKGROUP ? 0 : l / sg * sg;
        uint32_t n = scope == SCOPE_WORKGROUP ? lanes : (lanes - first < sg ? lanes - first : sg);
        uint32_t i = l - first;
        uint32_t L = (total + n - 1) / n;
        if (first != instance_first) { /* a new scope instance: its own ownership count */
            if (instance_first != UINT32_MAX)
                for (uint32_t f = 0; f < total; f++)
                    if (owned[f] != 1)
                        fail_msg("%s: element %u owned %u times in the instance at lane %u", what,
                                 f, owned[f], instance_first);
            memset(owned, 0, total);
            instance_first = first;
        }
        if (len[l] != L)
            fail_msg("%s: lane %u: Length %u, the model %u", what, l, len[l], L);
        for (uint32_t e = 0; e < L; e++) {
            const uint32_t *o = out + ((size_t)l * cap + e) * 3;
            uint32_t flat = i * L + e;
            uint32_t row = flat / N, col = flat % N;
            if (o[1] != row || o[2] != col)
                fail_msg("%s: lane %u element %u: coordinate (%u, %u), the model (%u, %u)", what,
                         l, e, o[1], o[2], row, col);
            if (flat < total) {
                /* the value at index e is the matrix element at that coordinate */
                if (o[0] != row * N + col + 1)
                    fail_msg("%s: lane %u element %u at (%u, %u) reads %u, the matrix holds %u",
                             what, l, e, row, col, o[0], row * N + col + 1);
                owned[flat]++;
            } else {
                if (o[0] != 0 || row < M)
                    fail_msg("%s: lane %u padding element %u reads %u at row %u", what, l, e,
                             o[0], row);
            }
        }
        /* slots past Length stay unwritten */
        if (L < cap && out[((size_t)l * cap + L) * 3] != 0xABABABABu)
            fail_msg("%s: lane %u wrote past its Length", what, l);
    }
    for (uint32_t f = 0; f < total; f++)
        if (owned[f] != 1)
            fail_msg("%s: element %u owned %u times in the last instance", what, f, owned[f]);
    free(owned);
    free(in);
    free(out);
    free(len);
    free(text);
}

static const uint32_t shapes[][2] = {{16, 16}, {5, 7}, {8, 24}, {1, 1}, {33, 3}, {2, 64}};

/* Subgroup scope: subgroup sizes 4 to 128, two full subgroups, and two and
 * a partial one (of 1 and of sg/2 + 1 invocations). */
static void test_subgroup_scope(void **state)
{
    (void)state;
    for (uint32_t sg = 4; sg <= 128; sg *= 2) {
        const uint32_t lane_counts[] = {2 * sg, 2 * sg + 1, 2 * sg + sg / 2 + 1};
        for (size_t k = 0; k < sizeof(lane_counts) / sizeof(lane_counts[0]); k++)
            for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
                check_mapping(shapes[s][0], shapes[s][1], SCOPE_SUBGROUP, (uint32_t)(s % 3),
                              lane_counts[k], sg, 0);
    }
}

/* Workgroup scope: 1 to 256 invocations, with subgroups that do not matter
 * to the mapping (it divides by the workgroup). */
static void test_workgroup_scope(void **state)
{
    (void)state;
    const uint32_t lane_counts[] = {1, 7, 64, 100, 256};
    for (size_t k = 0; k < sizeof(lane_counts) / sizeof(lane_counts[0]); k++)
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
            check_mapping(shapes[s][0], shapes[s][1], SCOPE_WORKGROUP, (uint32_t)(s % 3),
                          lane_counts[k], k % 2 ? 16 : 32, 0);
    check_mapping(64, 64, SCOPE_WORKGROUP, 2, 128, 32, 0);
}

/* The Index operand may be a signed 32-bit integer ("a 32-bit integer type"). */
static void test_signed_index(void **state)
{
    (void)state;
    check_mapping(5, 7, SCOPE_SUBGROUP, 2, 12, 8, 1);
    check_mapping(16, 16, SCOPE_WORKGROUP, 0, 48, 16, 1);
}

/* An Index of Length or more gives a value the text leaves undefined:
 * coopvm's (0xFFFFFFFF, 0xFFFFFFFF), outside every matrix. */
static const char oob_shader[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpCapability CooperativeMatrixGetCoordinateEXT\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %lidx %out\n"
    "OpExecutionMode %main LocalSize 8 1 1\n"
    "OpDecorate %lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpDecorate %Buf Block\n"
    "OpMemberDecorate %Buf 0 Offset 0\n"
    "OpDecorate %out DescriptorSet 0\n"
    "OpDecorate %out Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%v2uint = OpTypeVector %uint 2\n"
    "%rta = OpTypeRuntimeArray %uint\n"
    "%Buf = OpTypeStruct %rta\n"
    "%pbuf = OpTypePointer StorageBuffer %Buf\n"
    "%psb = OpTypePointer StorageBuffer %uint\n"
    "%pin = OpTypePointer Input %uint\n"
    "%out = OpVariable %pbuf StorageBuffer\n"
    "%lidx = OpVariable %pin Input\n"
    "%c0 = OpConstant %uint 0\n"
    "%c1 = OpConstant %uint 1\n"
    "%c2 = OpConstant %uint 2\n"
    "%c4 = OpConstant %uint 4\n"
    "%c8 = OpConstant %uint 8\n"
    "%cm1 = OpConstant %int -1\n"
    "%scope = OpConstant %uint 3\n"
    "%f7 = OpConstant %uint 7\n"
    "%mat = OpTypeCooperativeMatrixKHR %uint %scope %c4 %c4 %c2\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%m = OpCompositeConstruct %mat %f7\n"
    "%li = OpLoad %uint %lidx\n"
    "%a = OpCooperativeMatrixGetCoordinateEXT %v2uint %m %c2\n"  /* Length is 2: past it */
    "%b = OpCooperativeMatrixGetCoordinateEXT %v2uint %m %cm1\n" /* negative */
    "%o = OpIMul %uint %li %c4\n"
    "%a0 = OpCompositeExtract %uint %a 0\n"
    "%a1 = OpCompositeExtract %uint %a 1\n"
    "%b0 = OpCompositeExtract %uint %b 0\n"
    "%b1 = OpCompositeExtract %uint %b 1\n"
    "%q0 = OpAccessChain %psb %out %c0 %o\n"
    "OpStore %q0 %a0\n"
    "%o1 = OpIAdd %uint %o %c1\n"
    "%q1 = OpAccessChain %psb %out %c0 %o1\n"
    "OpStore %q1 %a1\n"
    "%o2 = OpIAdd %uint %o %c2\n"
    "%q2 = OpAccessChain %psb %out %c0 %o2\n"
    "OpStore %q2 %b0\n"
    "%o3 = OpIAdd %uint %o2 %c1\n"
    "%q3 = OpAccessChain %psb %out %c0 %o3\n"
    "OpStore %q3 %b1\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_index_out_of_range(void **state)
{
    (void)state;
    uint32_t out[32];
    memset(out, 0, sizeof(out));
    void *bufs[1] = {out};
    size_t sizes[1] = {sizeof(out)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 8;
    asm_result rr = asm_run(oob_shader, &p, bufs, sizes, 1);
    ASM_OK(rr, "index out of range");
    for (int i = 0; i < 32; i++)
        if (out[i] != 0xFFFFFFFFu)
            fail_msg("slot %d: %u, expected 0xFFFFFFFF", i, out[i]);
}

/* Malformed operands end in a status naming the instruction (the
 * validator's, and the engine's own without validation). */
static void test_bad_operands(void **state)
{
    (void)state;
    static const struct {
        const char *from, *to, *message;
    } cases[] = {
        {"%a = OpCooperativeMatrixGetCoordinateEXT %v2uint %m %c2",
         "%a = OpCooperativeMatrixGetCoordinateEXT %uint %m %c2", "two 32-bit integers"},
        {"%a = OpCooperativeMatrixGetCoordinateEXT %v2uint %m %c2",
         "%a = OpCooperativeMatrixGetCoordinateEXT %v2uint %c4 %c2", "cooperative matrix"},
        {"%a = OpCooperativeMatrixGetCoordinateEXT %v2uint %m %c2",
         "%a = OpCooperativeMatrixGetCoordinateEXT %v2uint %m %m", "32-bit integer"},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const char *at = strstr(oob_shader, cases[k].from);
        assert_non_null(at);
        size_t n = sizeof(oob_shader) + strlen(cases[k].to);
        char *text = malloc(n);
        assert_non_null(text);
        snprintf(text, n, "%.*s%s%s", (int)(at - oob_shader), oob_shader, cases[k].to,
                 at + strlen(cases[k].from));
        uint32_t out[32];
        void *bufs[1] = {out};
        size_t sizes[1] = {sizeof(out)};
        char what[32];
        snprintf(what, sizeof(what), "case %zu", k);
        asm_expect_refused(what, text, NULL, bufs, sizes, 1, cases[k].message);
        asm_params q;
        memset(&q, 0, sizeof(q));
        q.flags = CVM_FLAG_NO_VALIDATION;
        asm_result rr = asm_run(text, &q, bufs, sizes, 1);
        if (!strstr(rr.message, "OpCooperativeMatrixGetCoordinateEXT"))
            fail_msg("case %zu: the message does not name the instruction: %s", k, rr.message);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subgroup_scope),      cmocka_unit_test(test_workgroup_scope),
        cmocka_unit_test(test_signed_index),        cmocka_unit_test(test_index_out_of_range),
        cmocka_unit_test(test_bad_operands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
