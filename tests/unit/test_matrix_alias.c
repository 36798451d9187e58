/* Loads of whole cooperative matrices from Function variables that alias the
 * variable instead of copying it (CVM_INSN_ALIAS, ops/memory.c
 * load_may_alias): which loads the lowering marks, and that the results
 * equal the reference path's (CVM_FLAG_REFERENCE_PATHS copies every load)
 * and the values the shader defines, at subgroup sizes with one, several
 * and a partial last scope instance, and at workgroup scope.
 *
 * The shader, per scope instance, with m0 = the 16x16 f32 tile of src:
 *   v = m0
 *   a = v;            out0 = a        a: aliases (no store to v before its use)
 *   b = v; v = -m0;   out1 = b        b: copies (v is stored while b is live)
 *   s = v; v = s                      s: aliases (the store is its last use)
 *   c = v; branch;    out2 = c        c: copies (used in another block)
 *   x = m0; copy w <- x; d = x; out3 = d
 *                                     d: copies (x is named by OpCopyMemory)
 * so out0 = out1 = out3 = src and out2 = -src. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"
#include "program_util.h"

static const char shader_fmt[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %%main \"main\" %%src %%out\n"
    "OpExecutionMode %%main LocalSize %u 1 1\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpMemberDecorate %%sb 0 Offset 0\n"
    "OpDecorate %%sb Block\n"
    "OpDecorate %%src DescriptorSet 0\n"
    "OpDecorate %%src Binding 0\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 1\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%float = OpTypeFloat 32\n"
    "%%rta = OpTypeRuntimeArray %%float\n"
    "%%sb = OpTypeStruct %%rta\n"
    "%%psb = OpTypePointer StorageBuffer %%sb\n"
    "%%pf = OpTypePointer StorageBuffer %%float\n"
    "%%u0 = OpConstant %%uint 0\n"
    "%%u16 = OpConstant %%uint 16\n"
    "%%u256 = OpConstant %%uint 256\n"
    "%%u512 = OpConstant %%uint 512\n"
    "%%u768 = OpConstant %%uint 768\n"
    "%%scope = OpConstant %%uint %u\n"
    "%%use = OpConstant %%uint 2\n"
    "%%mat = OpTypeCooperativeMatrixKHR %%float %%scope %%u16 %%u16 %%use\n"
    "%%pfm = OpTypePointer Function %%mat\n"
    "%%src = OpVariable %%psb StorageBuffer\n"
    "%%out = OpVariable %%psb StorageBuffer\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%v = OpVariable %%pfm Function\n"
    "%%w = OpVariable %%pfm Function\n"
    "%%x = OpVariable %%pfm Function\n"
    "%%ps = OpAccessChain %%pf %%src %%u0 %%u0\n"
    "%%po0 = OpAccessChain %%pf %%out %%u0 %%u0\n"
    "%%po1 = OpAccessChain %%pf %%out %%u0 %%u256\n"
    "%%po2 = OpAccessChain %%pf %%out %%u0 %%u512\n"
    "%%po3 = OpAccessChain %%pf %%out %%u0 %%u768\n"
    "%%m0 = OpCooperativeMatrixLoadKHR %%mat %%ps %%u0 %%u16\n"
    "OpStore %%v %%m0\n"
    "%%a = OpLoad %%mat %%v\n"
    "OpCooperativeMatrixStoreKHR %%po0 %%a %%u0 %%u16\n"
    "%%b = OpLoad %%mat %%v\n"
    "%%neg = OpFNegate %%mat %%m0\n"
    "OpStore %%v %%neg\n"
    "OpCooperativeMatrixStoreKHR %%po1 %%b %%u0 %%u16\n"
    "%%s = OpLoad %%mat %%v\n"
    "OpStore %%v %%s\n"
    "%%c = OpLoad %%mat %%v\n"
    "OpBranch %%next\n"
    "%%next = OpLabel\n"
    "OpCooperativeMatrixStoreKHR %%po2 %%c %%u0 %%u16\n"
    "OpStore %%x %%m0\n"
    "OpCopyMemory %%w %%x\n"
    "%%d = OpLoad %%mat %%x\n"
    "OpCooperativeMatrixStoreKHR %%po3 %%d %%u0 %%u16\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* The lowering's marks on the shader's five matrix loads, in module order. */
static void check_marks(const char *text)
{
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(cvm_assemble(text, strlen(text), 0, NULL, &words, &nw, &d), CVM_SUCCESS);
    spv_module mod;
    cvm_program *prog;
    tu_program(&words, nw, &mod, &prog);
    static const int expect[5] = {1, 0, 1, 0, 0}; /* a b s c d */
    uint32_t k = 0;
    for (uint32_t i = 0; i < prog->ninsns; i++) {
        const cvm_insn *in = &prog->insns[i];
        if (in->spv_op != SpvOpLoad || prog->types[in->type].tclass != CVM_TC_COOPMAT)
            continue;
        assert_true(k < 5);
        if (!!(in->flags & CVM_INSN_ALIAS) != expect[k])
            fail_msg("matrix load %u: alias mark %d, expected %d", k, !!(in->flags & CVM_INSN_ALIAS),
                     expect[k]);
        k++;
    }
    assert_int_equal(k, 5);
    tu_program_release(&mod, prog);
    cvm_free(words);
}

static void run_case(uint32_t local_size, uint32_t subgroup_size, int workgroup)
{
    char text[sizeof(shader_fmt) + 64];
    snprintf(text, sizeof(text), shader_fmt, local_size, workgroup ? 2u : 3u);
    check_marks(text);
    float src[256], out[2][1024];
    for (int i = 0; i < 256; i++)
        src[i] = (float)(i * 7 % 61) - 30.5f;
    for (int f = 0; f < 2; f++) {
        memset(out[f], 0xa5, sizeof(out[f]));
        void *bufs[2] = {src, out[f]};
        size_t sizes[2] = {sizeof(src), sizeof(out[f])};
        asm_params p;
        memset(&p, 0, sizeof(p));
        p.subgroup_size = subgroup_size;
        p.threads = 1;
        p.flags = f ? CVM_FLAG_REFERENCE_PATHS : 0;
        asm_result r = asm_run(text, &p, bufs, sizes, 2);
        if (r.create != CVM_SUCCESS || r.dispatch != CVM_SUCCESS)
            fail_msg("local size %u, subgroup %u, %s: %s", local_size, subgroup_size,
                     f ? "reference" : "default", r.message);
        for (int i = 0; i < 256; i++) {
            const float want[4] = {src[i], src[i], -src[i], src[i]};
            for (int o = 0; o < 4; o++)
                if (memcmp(&out[f][o * 256 + i], &want[o], 4) != 0)
                    fail_msg("local size %u, subgroup %u, %s: out%d[%d] = %g, expected %g",
                             local_size, subgroup_size, f ? "reference" : "default", o, i,
                             (double)out[f][o * 256 + i], (double)want[o]);
        }
    }
    assert_memory_equal(out[0], out[1], sizeof(out[0]));
}

/* MulAdds whose result goes straight into the variable the next
 * instruction stores it to (CVM_INSN_ALIAS on a MulAdd,
 * cvm_lower_result_to_variable), per scope instance with m0 = the 16x16
 * tile of src, as A, B and C:
 *   acc = m0;
 *   r1 = m0 * m0 + acc;  acc = r1      into acc, C aliasing acc (in place)
 *   r2 = m0 * m0 + acc;  acc2 = r2     into acc2, C from acc
 *   r3 = m0 * m0 + acc2; acc2 = r3; out2 = r3    r3 named twice: a copy
 *   out0 = acc; out1 = acc2
 * so out0 = m0*m0 + m0 and out1 = out2 = 3 (m0*m0) + m0 (every sum exact:
 * src holds multiples of 1/8, so the order of the additions cannot show). */
static const char muladd_fmt[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %%main \"main\" %%src %%out\n"
    "OpExecutionMode %%main LocalSize %u 1 1\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpMemberDecorate %%sb 0 Offset 0\n"
    "OpDecorate %%sb Block\n"
    "OpDecorate %%src DescriptorSet 0\n"
    "OpDecorate %%src Binding 0\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 1\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%float = OpTypeFloat 32\n"
    "%%rta = OpTypeRuntimeArray %%float\n"
    "%%sb = OpTypeStruct %%rta\n"
    "%%psb = OpTypePointer StorageBuffer %%sb\n"
    "%%pf = OpTypePointer StorageBuffer %%float\n"
    "%%u0 = OpConstant %%uint 0\n"
    "%%u1 = OpConstant %%uint 1\n"
    "%%u2 = OpConstant %%uint 2\n"
    "%%u16 = OpConstant %%uint 16\n"
    "%%u256 = OpConstant %%uint 256\n"
    "%%u512 = OpConstant %%uint 512\n"
    "%%scope = OpConstant %%uint %u\n"
    "%%ma = OpTypeCooperativeMatrixKHR %%float %%scope %%u16 %%u16 %%u0\n"
    "%%mb = OpTypeCooperativeMatrixKHR %%float %%scope %%u16 %%u16 %%u1\n"
    "%%mc = OpTypeCooperativeMatrixKHR %%float %%scope %%u16 %%u16 %%u2\n"
    "%%pfm = OpTypePointer Function %%mc\n"
    "%%src = OpVariable %%psb StorageBuffer\n"
    "%%out = OpVariable %%psb StorageBuffer\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%acc = OpVariable %%pfm Function\n"
    "%%acc2 = OpVariable %%pfm Function\n"
    "%%ps = OpAccessChain %%pf %%src %%u0 %%u0\n"
    "%%po0 = OpAccessChain %%pf %%out %%u0 %%u0\n"
    "%%po1 = OpAccessChain %%pf %%out %%u0 %%u256\n"
    "%%po2 = OpAccessChain %%pf %%out %%u0 %%u512\n"
    "%%a = OpCooperativeMatrixLoadKHR %%ma %%ps %%u0 %%u16\n"
    "%%b = OpCooperativeMatrixLoadKHR %%mb %%ps %%u0 %%u16\n"
    "%%c = OpCooperativeMatrixLoadKHR %%mc %%ps %%u0 %%u16\n"
    "OpStore %%acc %%c\n"
    "%%c1 = OpLoad %%mc %%acc\n"
    "%%r1 = OpCooperativeMatrixMulAddKHR %%mc %%a %%b %%c1\n"
    "OpStore %%acc %%r1\n"
    "%%c2 = OpLoad %%mc %%acc\n"
    "%%r2 = OpCooperativeMatrixMulAddKHR %%mc %%a %%b %%c2\n"
    "OpStore %%acc2 %%r2\n"
    "%%c3 = OpLoad %%mc %%acc2\n"
    "%%r3 = OpCooperativeMatrixMulAddKHR %%mc %%a %%b %%c3\n"
    "OpStore %%acc2 %%r3\n"
    "OpCooperativeMatrixStoreKHR %%po2 %%r3 %%u0 %%u16\n"
    "%%f0 = OpLoad %%mc %%acc\n"
    "OpCooperativeMatrixStoreKHR %%po0 %%f0 %%u0 %%u16\n"
    "%%f1 = OpLoad %%mc %%acc2\n"
    "OpCooperativeMatrixStoreKHR %%po1 %%f1 %%u0 %%u16\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* The marks on the three MulAdds: into acc, into acc2, and a copy. */
static void check_muladd_marks(const char *text)
{
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(cvm_assemble(text, strlen(text), 0, NULL, &words, &nw, &d), CVM_SUCCESS);
    spv_module mod;
    cvm_program *prog;
    tu_program(&words, nw, &mod, &prog);
    static const int expect[3] = {1, 1, 0};
    uint32_t k = 0;
    for (uint32_t i = 0; i < prog->ninsns; i++) {
        const cvm_insn *in = &prog->insns[i];
        if (in->spv_op != SpvOpCooperativeMatrixMulAddKHR)
            continue;
        assert_true(k < 3);
        if (!!(in->flags & CVM_INSN_ALIAS) != expect[k])
            fail_msg("MulAdd %u: into-variable mark %d, expected %d", k,
                     !!(in->flags & CVM_INSN_ALIAS), expect[k]);
        k++;
    }
    assert_int_equal(k, 3);
    tu_program_release(&mod, prog);
    cvm_free(words);
}

static void run_muladd_case(uint32_t local_size, uint32_t subgroup_size, int workgroup)
{
    char text[sizeof(muladd_fmt) + 64];
    snprintf(text, sizeof(text), muladd_fmt, local_size, workgroup ? 2u : 3u);
    check_muladd_marks(text);
    float src[256], out[2][768];
    for (int i = 0; i < 256; i++)
        src[i] = (float)(i * 7 % 61 - 30) / 8.0f; /* exact products and sums */
    /* the model: sums of products of multiples of 1/8 below 2^24 / 64, exact */
    float mm[256];
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            double acc = 0;
            for (int k = 0; k < 16; k++)
                acc += (double)src[r * 16 + k] * (double)src[k * 16 + c];
            mm[r * 16 + c] = (float)acc;
        }
    for (int f = 0; f < 2; f++) {
        memset(out[f], 0xa5, sizeof(out[f]));
        void *bufs[2] = {src, out[f]};
        size_t sizes[2] = {sizeof(src), sizeof(out[f])};
        asm_params p;
        memset(&p, 0, sizeof(p));
        p.subgroup_size = subgroup_size;
        p.threads = 1;
        p.flags = f ? CVM_FLAG_REFERENCE_PATHS : 0;
        asm_result r = asm_run(text, &p, bufs, sizes, 2);
        if (r.create != CVM_SUCCESS || r.dispatch != CVM_SUCCESS)
            fail_msg("MulAdds, local size %u, subgroup %u, %s: %s", local_size, subgroup_size,
                     f ? "reference" : "default", r.message);
        for (int i = 0; i < 256; i++) {
            const float want[3] = {mm[i] + src[i], 3 * mm[i] + src[i], 3 * mm[i] + src[i]};
            for (int o = 0; o < 3; o++)
                if (out[f][o * 256 + i] != want[o])
                    fail_msg("MulAdds, local size %u, subgroup %u, %s: out%d[%d] = %g, "
                             "expected %g",
                             local_size, subgroup_size, f ? "reference" : "default", o, i,
                             (double)out[f][o * 256 + i], (double)want[o]);
        }
    }
    assert_memory_equal(out[0], out[1], sizeof(out[0]));
}

static void test_muladd_into_variable(void **s)
{
    (void)s;
    run_muladd_case(32, 32, 0);  /* one subgroup instance */
    run_muladd_case(128, 32, 0); /* several */
    run_muladd_case(40, 16, 0);  /* a partial last one */
    run_muladd_case(96, 32, 1);  /* workgroup scope */
}

static void test_subgroup_one_instance(void **s) { (void)s; run_case(32, 32, 0); }
static void test_subgroup_instances(void **s) { (void)s; run_case(128, 32, 0); }
static void test_subgroup_partial(void **s) { (void)s; run_case(40, 16, 0); }
static void test_workgroup(void **s) { (void)s; run_case(96, 32, 1); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subgroup_one_instance),
        cmocka_unit_test(test_subgroup_instances),
        cmocka_unit_test(test_subgroup_partial),
        cmocka_unit_test(test_workgroup),
        cmocka_unit_test(test_muladd_into_variable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
