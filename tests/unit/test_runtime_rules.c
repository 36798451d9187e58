/* The rules of the texts whose truth depends on values at run time, which
 * the engine checks while running (issue 31): each shader breaks one rule
 * and must end the dispatch with its status and a message naming the rule
 * and the instruction; its twin keeps the rule and must run, with results
 * computed here from the text.  Every case also runs with
 * CVM_FLAG_COMPARE_TIERS: the compiled tier, where it takes the shader,
 * must end the same way (a difference would be CVM_ERROR_TIERS_DIFFER).
 *
 *   KHR-CM.Uniform-Operands   Load, Store (Pointer, Stride), MatrixTimesScalar
 *                             (the scalar), at Subgroup and Workgroup scope
 *   NV-CM1.Uniform-Operands   OpCooperativeMatrixLoadNV (Stride)
 *   NV-CM2.Uniform-Operands   tensor load/store (Pointer, TensorLayout,
 *                             TensorView)
 *   NV-CM2.Pointer-Alignment  (checking mode) tensor load/store at a Pointer
 *                             4 or 8 bytes past a multiple of 16
 *   KHR-CM.Scope-Active       Load, MulAdd run by half a subgroup
 *   VUID-OpCooperativeMatrix-12379  Load, tensor load through a null
 *                             descriptor (scalar loads keep their meaning:
 *                             out of bounds, or zero in robust mode)
 *   NV-CV.Matrix-Unmodified   (checking mode) stores into a MatMul's matrix
 *                             or bias during the dispatch
 *   NV-DV.Same-Results        (checking mode) a DecodeFunc whose repeated
 *                             calls return other values
 *
 * Every shader has a workgroup of 64 invocations in subgroups of 32. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"
#include "exec/jit/jit.h"

enum { SRC = 1024, DST = 1024 };

static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
    assert_true(w >= 0 && (size_t)w < cap - n);
}

/* A module with buffers %src (binding 0) and %dst (binding 1) of floats,
 * %li (LocalInvocationIndex) and %sg (SubgroupId) loaded, 8x8 f32
 * accumulator type %mat at scope `scope` (3 Subgroup, 2 Workgroup), A and B
 * types %ma, %mb, 2-D tensor layout type %L and view type %V (with
 * `tensor`), and `body` as the rest of main. */
/* 1 when `body` names %`id` (not as the start of a longer name). */
static int names(const char *body, const char *id)
{
    size_t n = strlen(id);
    for (const char *p = body; (p = strstr(p, id)) != NULL; p += n) {
        char c = p[n];
        if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
              (c >= 'A' && c <= 'Z')))
            return 1;
    }
    return 0;
}

static void make_shader(char *buf, size_t cap, int tensor, int nv, uint32_t scope,
                        const char *body)
{
    buf[0] = 0;
    append(buf, cap,
           "OpCapability Shader\nOpCapability VulkanMemoryModel\n"
           "OpCapability GroupNonUniform\n%s%s%s%s"
           "OpMemoryModel Logical Vulkan\n"
           "OpEntryPoint GLCompute %%main \"main\" %%src %%dst %%lidx %%sgid\n"
           "OpExecutionMode %%main LocalSize 64 1 1\n"
           "OpDecorate %%lidx BuiltIn LocalInvocationIndex\n"
           "OpDecorate %%sgid BuiltIn SubgroupId\n"
           "OpDecorate %%rt ArrayStride 4\nOpDecorate %%B Block\n"
           "OpMemberDecorate %%B 0 Offset 0\n"
           "OpDecorate %%src DescriptorSet 0\nOpDecorate %%src Binding 0\n"
           "OpDecorate %%dst DescriptorSet 0\nOpDecorate %%dst Binding 1\n"
           "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
           "%%uint = OpTypeInt 32 0\n%%float = OpTypeFloat 32\n"
           "%%false = OpConstantFalse %%bool\n%%true = OpConstantTrue %%bool\n",
           nv ? "OpCapability CooperativeMatrixNV\n" : "OpCapability CooperativeMatrixKHR\n",
           tensor ? "OpCapability CooperativeMatrixTensorAddressingNV\n"
                    "OpCapability TensorAddressingNV\n"
                  : "",
           nv ? "OpExtension \"SPV_NV_cooperative_matrix\"\n"
              : "OpExtension \"SPV_KHR_cooperative_matrix\"\n",
           tensor ? "OpExtension \"SPV_NV_cooperative_matrix2\"\n"
                    "OpExtension \"SPV_NV_tensor_addressing\"\n"
                  : "");
    static const uint32_t consts[] = {0, 1, 2, 3, 4, 5, 6, 8, 16, 32, 64};
    for (size_t k = 0; k < sizeof(consts) / sizeof(consts[0]); k++)
        append(buf, cap, "%%c%u = OpConstant %%uint %u\n", consts[k], consts[k]);
    append(buf, cap,
           "%%rt = OpTypeRuntimeArray %%float\n%%B = OpTypeStruct %%rt\n"
           "%%pB = OpTypePointer StorageBuffer %%B\n%%pf = OpTypePointer StorageBuffer %%float\n"
           "%%src = OpVariable %%pB StorageBuffer\n%%dst = OpVariable %%pB StorageBuffer\n"
           "%%pin = OpTypePointer Input %%uint\n%%lidx = OpVariable %%pin Input\n"
           "%%sgid = OpVariable %%pin Input\n");
    if (nv)
        append(buf, cap, "%%mat = OpTypeCooperativeMatrixNV %%float %%c%u %%c8 %%c8\n", scope);
    else
        append(buf, cap,
               "%%mat = OpTypeCooperativeMatrixKHR %%float %%c%u %%c8 %%c8 %%c2\n"
               "%%ma = OpTypeCooperativeMatrixKHR %%float %%c%u %%c8 %%c8 %%c0\n"
               "%%mb = OpTypeCooperativeMatrixKHR %%float %%c%u %%c8 %%c8 %%c1\n"
               "%%null = OpConstantNull %%mat\n",
               scope, scope, scope);
    if (tensor)
        append(buf, cap,
               "%%L = OpTypeTensorLayoutNV %%c2 %%c0\n"
               "%%V = OpTypeTensorViewNV %%c2 %%false %%c0 %%c1\n");
    /* Values that differ between invocations only where the body names
     * them, so that a body of uniform values is one the compiled tier
     * takes: %lodd 0, 1, 0, 1, ... (not uniform), %lodd8 eight times that,
     * %lzero 0 in every lane but computed lane by lane. */
    int lodd = names(body, "%lodd") || names(body, "%lodd8"), lzero = names(body, "%lzero");
    append(buf, cap, "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n");
    if (lodd || lzero || names(body, "%li"))
        append(buf, cap, "%%li = OpLoad %%uint %%lidx\n");
    if (names(body, "%sg"))
        append(buf, cap, "%%sg = OpLoad %%uint %%sgid\n");
    if (lodd)
        append(buf, cap,
               "%%lodd = OpBitwiseAnd %%uint %%li %%c1\n%%lodd8 = OpIMul %%uint %%lodd %%c8\n");
    if (lzero)
        append(buf, cap, "%%lzero = OpShiftRightLogical %%uint %%li %%c6\n");
    append(buf, cap, "%sOpReturn\nOpFunctionEnd\n", body);
}

static float src[SRC], dst[DST];

static asm_result run_text(const char *text, uint32_t flags, void *src_data, size_t src_size)
{
    for (int i = 0; i < SRC; i++)
        src[i] = (float)i;
    for (int i = 0; i < DST; i++)
        dst[i] = -1.0f;
    void *bufs[2] = {src_data, dst};
    size_t sizes[2] = {src_size, sizeof(dst)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 32;
    p.threads = 1;
    p.flags = flags;
    return asm_run(text, &p, bufs, sizes, 2);
}

/* Runs `text` with each flag set of `flags` (0-terminated after the first)
 * plus CVM_FLAG_COMPARE_TIERS, expecting `want` and (on failure) every
 * string of `msgs` in the message. */
static void expect(const char *what, const char *text, uint32_t flags, void *src_data,
                   size_t src_size, cvm_result want, const char *const *msgs)
{
    for (int tiers = 0; tiers < 2; tiers++) {
        uint32_t f = flags | (tiers ? CVM_FLAG_COMPARE_TIERS : 0);
        asm_result rr = run_text(text, f, src_data, src_size);
        if (rr.create != CVM_SUCCESS)
            fail_msg("%s: creation: %s: %s", what, cvm_result_string(rr.create), rr.message);
        if (rr.dispatch != want)
            fail_msg("%s (flags 0x%x): %s, expected %s: %s", what, f,
                     cvm_result_string(rr.dispatch), cvm_result_string(want), rr.message);
        for (int k = 0; msgs && msgs[k]; k++)
            if (!strstr(rr.message, msgs[k]))
                fail_msg("%s (flags 0x%x): \"%s\" not in: %s", what, f, msgs[k], rr.message);
    }
}

static void expect_ok(const char *what, const char *text)
{
    expect(what, text, 0, src, sizeof(src), CVM_SUCCESS, NULL);
}

/* dst[base + r*8 + c] == src[off + r*stride + c] * scale for the 8x8 tile */
static void check_tile(const char *what, uint32_t base, uint32_t off, uint32_t stride, float scale)
{
    for (uint32_t r = 0; r < 8; r++)
        for (uint32_t c = 0; c < 8; c++) {
            float want = (float)(off + r * stride + c) * scale;
            if (dst[base + r * 8 + c] != want)
                fail_msg("%s: dst[%u] = %g, expected %g", what, base + r * 8 + c,
                         (double)dst[base + r * 8 + c], (double)want);
        }
}

static char text[1 << 15];

/* ---- KHR-CM.Uniform-Operands ------------------------------------------------ */

/* Load at `off` with Stride `stride`, store at dst[sg * 64] (Subgroup
 * scope) or dst[0] (Workgroup) with Stride 8. */
static void khr_load(uint32_t scope, const char *off, const char *stride)
{
    char body[2048];
    snprintf(body, sizeof(body),
             "%%off = %s\n%%stride = %s\n"
             "%%ps = OpAccessChain %%pf %%src %%c0 %%off\n"
             "%%m = OpCooperativeMatrixLoadKHR %%mat %%ps %%c0 %%stride\n"
             "%%dbase = OpIMul %%uint %%sg %%c64\n"
             "%%db = OpSelect %%uint %%%s %%dbase %%c0\n"
             "%%pd = OpAccessChain %%pf %%dst %%c0 %%db\n"
             "OpCooperativeMatrixStoreKHR %%pd %%m %%c0 %%c8\n",
             off, stride, scope == 3 ? "true" : "false");
    make_shader(text, sizeof(text), 0, 0, scope, body);
}

static void test_khr_load_pointer(void **s)
{
    (void)s;
    const char *msgs[] = {"[KHR-CM.Uniform-Operands]", "Pointer", "invocations 0 and 1 of subgroup 0",
                          "OpCooperativeMatrixLoadKHR", NULL};
    khr_load(3, "OpIMul %uint %lodd %c8", "OpCopyObject %uint %c8");
    expect("Pointer differing in a subgroup", text, 0, src, sizeof(src),
           CVM_ERROR_DIVERGENT_COLLECTIVE, msgs);
    /* the twin: each subgroup's own Pointer, uniform within it */
    khr_load(3, "OpIMul %uint %sg %c8", "OpCopyObject %uint %c8");
    expect_ok("Pointer uniform in each subgroup", text);
    check_tile("subgroup 0", 0, 0, 8, 1.0f);
    check_tile("subgroup 1", 64, 8, 8, 1.0f);
}

/* The scope instance decides: SubgroupId differs within a workgroup. */
static void test_khr_load_pointer_workgroup(void **s)
{
    (void)s;
    const char *msgs[] = {"[KHR-CM.Uniform-Operands]", "Pointer",
                          "invocations 0 and 32 of workgroup 0", NULL};
    khr_load(2, "OpIMul %uint %sg %c8", "OpCopyObject %uint %c8");
    expect("Workgroup scope, Pointer from SubgroupId", text, 0, src, sizeof(src),
           CVM_ERROR_DIVERGENT_COLLECTIVE, msgs);
    /* computed lane by lane, yet equal in every lane */
    khr_load(2, "OpIMul %uint %lzero %c8", "OpIAdd %uint %lzero %c16");
    expect_ok("Workgroup scope, Pointer and Stride equal in every lane", text);
    check_tile("workgroup", 0, 0, 16, 1.0f);
}

static void test_khr_load_stride(void **s)
{
    (void)s;
    const char *msgs[] = {"[KHR-CM.Uniform-Operands]", "Stride", "(0x8 and 0x10)", NULL};
    khr_load(3, "OpCopyObject %uint %c0", "OpIAdd %uint %c8 %lodd8");
    expect("Stride differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE, msgs);
}

static void test_khr_store_pointer(void **s)
{
    (void)s;
    const char *msgs[] = {"[KHR-CM.Uniform-Operands]", "OpCooperativeMatrixStoreKHR", "Pointer",
                          NULL};
    make_shader(text, sizeof(text), 0, 0, 3,
                "%ps = OpAccessChain %pf %src %c0 %c0\n"
                "%m = OpCooperativeMatrixLoadKHR %mat %ps %c0 %c8\n"
                "%db = OpIMul %uint %lodd %c64\n"
                "%pd = OpAccessChain %pf %dst %c0 %db\n"
                "OpCooperativeMatrixStoreKHR %pd %m %c0 %c8\n");
    expect("store Pointer differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE,
           msgs);
    for (int i = 0; i < DST; i++)
        assert_true(dst[i] == -1.0f); /* nothing stored */
}

static void matrix_times_scalar(const char *scalar)
{
    char body[2048];
    snprintf(body, sizeof(body),
             "%%ps = OpAccessChain %%pf %%src %%c0 %%c0\n"
             "%%m = OpCooperativeMatrixLoadKHR %%mat %%ps %%c0 %%c8\n"
             "%%su = %s\n%%s = OpConvertUToF %%float %%su\n"
             "%%r = OpMatrixTimesScalar %%mat %%m %%s\n"
             "%%db = OpIMul %%uint %%sg %%c64\n"
             "%%pd = OpAccessChain %%pf %%dst %%c0 %%db\n"
             "OpCooperativeMatrixStoreKHR %%pd %%r %%c0 %%c8\n",
             scalar);
    make_shader(text, sizeof(text), 0, 0, 3, body);
}

static void test_matrix_times_scalar(void **s)
{
    (void)s;
    const char *msgs[] = {"[KHR-CM.Uniform-Operands]", "OpMatrixTimesScalar", "Scalar",
                          "(0x0 and 0x3f800000)", NULL};
    matrix_times_scalar("OpCopyObject %uint %lodd");
    expect("scalar differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE, msgs);
    matrix_times_scalar("OpIAdd %uint %sg %c2");
    expect_ok("scalar uniform in each subgroup", text);
    check_tile("subgroup 0 times 2", 0, 0, 8, 2.0f);
    check_tile("subgroup 1 times 3", 64, 0, 8, 3.0f);
}

/* SPV_NV_cooperative_matrix: "all operands of this instruction must be the
 * same for all invocations in a given scope instance". */
static void test_nv_load_stride(void **s)
{
    (void)s;
    const char *msgs[] = {"[NV-CM1.Uniform-Operands]", "Stride", NULL};
    static const char body[] = "%stride = OpIAdd %uint %c8 %lodd8\n"
                               "%ps = OpAccessChain %pf %src %c0 %c0\n"
                               "%m = OpCooperativeMatrixLoadNV %mat %ps %stride %false\n"
                               "%pd = OpAccessChain %pf %dst %c0 %c0\n"
                               "OpCooperativeMatrixStoreNV %pd %m %c8 %false\n";
    make_shader(text, sizeof(text), 0, 1, 3, body);
    expect("NV Stride differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE, msgs);
    static const char twin[] = "%stride = OpIAdd %uint %c8 %lzero\n"
                               "%ps = OpAccessChain %pf %src %c0 %c0\n"
                               "%m = OpCooperativeMatrixLoadNV %mat %ps %stride %false\n"
                               "%pd = OpAccessChain %pf %dst %c0 %c0\n"
                               "OpCooperativeMatrixStoreNV %pd %m %c8 %false\n";
    make_shader(text, sizeof(text), 0, 1, 3, twin);
    expect_ok("NV Stride equal in every lane", text);
    check_tile("NV", 0, 0, 8, 1.0f);
}

/* ---- NV-CM2.Uniform-Operands and NV-CM2.Pointer-Alignment ------------------- */

/* A tensor load of an 8x8 tile of an R x 8 tensor (R from `rows`) at
 * Pointer src[`off`], with a view when `view` (clip from `clip`), stored
 * through a tensor store to dst[`doff`]. */
static void tensor_shader(const char *off, const char *rows, int view, const char *clip,
                          const char *doff)
{
    char body[4096];
    snprintf(body, sizeof(body),
             "%%off = %s\n%%rows = %s\n%%doff = %s\n"
             "%%l0 = OpCreateTensorLayoutNV %%L\n"
             "%%l1 = OpTensorLayoutSetDimensionNV %%L %%l0 %%rows %%c8\n"
             "%%d1 = OpTensorLayoutSetDimensionNV %%L %%l0 %%c8 %%c8\n"
             "%%ps = OpAccessChain %%pf %%src %%c0 %%off\n"
             "%%pd = OpAccessChain %%pf %%dst %%c0 %%doff\n"
             "%s"
             "OpCooperativeMatrixStoreTensorNV %%pd %%m %%d1 None None\n",
             off, rows, doff,
             view ? "%v0 = OpCreateTensorViewNV %V\n"
                    "%clip = CLIP\n"
                    "%v1 = OpTensorViewSetClipNV %V %v0 %c0 %clip %c0 %c8\n"
                    "%m = OpCooperativeMatrixLoadTensorNV %mat %ps %null %l1 None TensorView %v1\n"
                  : "%m = OpCooperativeMatrixLoadTensorNV %mat %ps %null %l1 None None\n");
    /* only a view has a clip to put in (gcc -O3 cannot see that `clip`
     * is set whenever "CLIP" is in the body) */
    char *at = view && clip ? strstr(body, "CLIP") : NULL;
    if (at) {
        char rest[4096];
        snprintf(rest, sizeof(rest), "%s%s", clip, at + 4);
        snprintf(at, sizeof(body) - (size_t)(at - body), "%s", rest);
    }
    make_shader(text, sizeof(text), 1, 0, 3, body);
}

static void test_tensor_uniform_operands(void **s)
{
    (void)s;
    const char *layout[] = {"[NV-CM2.Uniform-Operands]", "TensorLayout", "OpCooperativeMatrixLoadTensorNV",
                            "invocations 0 and 1", NULL};
    tensor_shader("OpCopyObject %uint %c0", "OpIAdd %uint %c8 %lodd", 0, NULL,
                  "OpCopyObject %uint %c0");
    expect("layout differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE, layout);
    const char *view[] = {"[NV-CM2.Uniform-Operands]", "TensorView", NULL};
    tensor_shader("OpCopyObject %uint %c0", "OpCopyObject %uint %c8", 1, "OpIAdd %uint %c4 %lodd",
                  "OpCopyObject %uint %c0");
    expect("view differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE, view);
    const char *ptr[] = {"[NV-CM2.Uniform-Operands]", "Pointer", NULL};
    tensor_shader("OpIMul %uint %lodd %c8", "OpCopyObject %uint %c8", 0, NULL,
                  "OpCopyObject %uint %c0");
    expect("Pointer differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE, ptr);
    const char *store[] = {"[NV-CM2.Uniform-Operands]", "OpCooperativeMatrixStoreTensorNV",
                           "Pointer", NULL};
    tensor_shader("OpCopyObject %uint %c0", "OpCopyObject %uint %c8", 0, NULL,
                  "OpIMul %uint %lodd %c64");
    expect("store Pointer differing", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE,
           store);
    /* the twin: every operand computed lane by lane, equal in every lane;
     * the view clips the tile to rows [0, 5) */
    tensor_shader("OpIMul %uint %lzero %c8", "OpIAdd %uint %c8 %lzero", 1,
                  "OpIAdd %uint %c5 %lzero", "OpIMul %uint %lzero %c64");
    expect_ok("tensor operands equal in every lane", text);
    for (uint32_t e = 0; e < 64; e++) {
        float want = e / 8 < 5 ? (float)e : 0.0f; /* clipped elements: Object, null */
        if (dst[e] != want)
            fail_msg("tensor twin: dst[%u] = %g, expected %g", e, (double)dst[e], (double)want);
    }
}

static void test_tensor_pointer_alignment(void **s)
{
    (void)s;
    const char *load[] = {"[NV-CM2.Pointer-Alignment]", "OpCooperativeMatrixLoadTensorNV",
                          "byte 4 of", NULL};
    tensor_shader("OpCopyObject %uint %c1", "OpCopyObject %uint %c8", 0, NULL,
                  "OpCopyObject %uint %c0");
    uint64_t jit0 = cvm_test_jit_groups();
    expect("load 4 bytes in", text, CVM_FLAG_CHECK_CALLBACKS, src, sizeof(src),
           CVM_ERROR_INVALID_MODULE, load);
    if (cvm_jit_available()) /* uniform values only: the scope form took it */
        assert_true(cvm_test_jit_groups() > jit0);
    /* the default mode runs it as written (as NVIDIA's driver does) */
    expect_ok("load 4 bytes in, default mode", text);
    check_tile("misaligned tensor load", 0, 1, 8, 1.0f);
    const char *store[] = {"[NV-CM2.Pointer-Alignment]", "OpCooperativeMatrixStoreTensorNV",
                           "byte 72 of", NULL};
    tensor_shader("OpCopyObject %uint %c0", "OpCopyObject %uint %c8", 0, NULL,
                  "OpIAdd %uint %c16 %c2");
    expect("store 72 bytes in", text, CVM_FLAG_CHECK_CALLBACKS, src, sizeof(src),
           CVM_ERROR_INVALID_MODULE, store);
    /* the twin: 16 bytes in (src[4]), stored 64 bytes in (dst[16]) */
    tensor_shader("OpCopyObject %uint %c4", "OpCopyObject %uint %c16", 0, NULL,
                  "OpCopyObject %uint %c16");
    expect("16 bytes in", text, CVM_FLAG_CHECK_CALLBACKS, src, sizeof(src), CVM_SUCCESS, NULL);
    check_tile("aligned tensor load", 16, 4, 8, 1.0f);
}

/* ---- KHR-CM.Scope-Active ------------------------------------------------------ */

static void scope_active(const char *cond, int muladd)
{
    char body[4096];
    snprintf(body, sizeof(body),
             "%%ps = OpAccessChain %%pf %%src %%c0 %%c0\n"
             "%%a = OpCooperativeMatrixLoadKHR %%ma %%ps %%c0 %%c8\n"
             "%%b = OpCooperativeMatrixLoadKHR %%mb %%ps %%c0 %%c8\n"
             "%%cnd = %s\n"
             "OpSelectionMerge %%join None\n"
             "OpBranchConditional %%cnd %%then %%join\n"
             "%%then = OpLabel\n"
             "%s"
             "%%db = OpIMul %%uint %%sg %%c64\n"
             "%%pd = OpAccessChain %%pf %%dst %%c0 %%db\n"
             "OpCooperativeMatrixStoreKHR %%pd %%m %%c0 %%c8\n"
             "OpBranch %%join\n"
             "%%join = OpLabel\n",
             cond,
             muladd ? "%m = OpCooperativeMatrixMulAddKHR %mat %a %b %null\n"
                    : "%m = OpCooperativeMatrixLoadKHR %mat %ps %c0 %c8\n");
    make_shader(text, sizeof(text), 0, 0, 3, body);
}

static void test_scope_active(void **s)
{
    (void)s;
    const char *load[] = {"OpCooperativeMatrixLoadKHR", "[KHR-CM.Scope-Active]",
                          "only 16 of the 32 live invocations of subgroup 0 reached this "
                          "collective instruction together",
                          NULL};
    scope_active("OpULessThan %bool %li %c16", 0);
    expect("load by half a subgroup", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE,
           load);
    const char *muladd[] = {"OpCooperativeMatrixMulAddKHR", "only 16 of the 32", NULL};
    scope_active("OpULessThan %bool %li %c16", 1);
    expect("MulAdd by half a subgroup", text, 0, src, sizeof(src), CVM_ERROR_DIVERGENT_COLLECTIVE,
           muladd);
    /* the twins: the whole of subgroup 0 (invocations 0..31), none of 1 */
    scope_active("OpULessThan %bool %li %c32", 0);
    expect_ok("load by subgroup 0", text);
    check_tile("load by subgroup 0", 0, 0, 8, 1.0f);
    assert_true(dst[64] == -1.0f);
    scope_active("OpULessThan %bool %li %c32", 1);
    expect_ok("MulAdd by subgroup 0", text);
    for (uint32_t r = 0; r < 8; r++)
        for (uint32_t c = 0; c < 8; c++) {
            float want = 0; /* A = B = src as 8x8 row-major: exact in f32 */
            for (uint32_t k = 0; k < 8; k++)
                want += (float)(r * 8 + k) * (float)(k * 8 + c);
            assert_true(dst[r * 8 + c] == want);
        }
}

/* ---- VUID-OpCooperativeMatrix-12379 -------------------------------------------- */

static void test_null_descriptor(void **s)
{
    (void)s;
    const char *vuid[] = {"[VUID-OpCooperativeMatrix-12379]", "OpCooperativeMatrixLoadKHR",
                          "null descriptor of set 0 binding 0", NULL};
    /* uniform values only: the compiled tier takes it (scope form) */
    static const char khr[] = "%ps = OpAccessChain %pf %src %c0 %c0\n"
                              "%m = OpCooperativeMatrixLoadKHR %mat %ps %c0 %c8\n"
                              "%pd = OpAccessChain %pf %dst %c0 %c0\n"
                              "OpCooperativeMatrixStoreKHR %pd %m %c0 %c8\n";
    make_shader(text, sizeof(text), 0, 0, 3, khr);
    uint64_t jit0 = cvm_test_jit_groups();
    expect("KHR load, null descriptor", text, 0, NULL, 0, CVM_ERROR_OUT_OF_BOUNDS, vuid);
    if (cvm_jit_available())
        assert_true(cvm_test_jit_groups() > jit0);
    /* robust access does not make it valid */
    expect("KHR load, null descriptor, robust", text, CVM_FLAG_ROBUST_ACCESS, NULL, 0,
           CVM_ERROR_OUT_OF_BOUNDS, vuid);
    const char *tvuid[] = {"[VUID-OpCooperativeMatrix-12379]", "OpCooperativeMatrixLoadTensorNV",
                           NULL};
    tensor_shader("OpCopyObject %uint %c0", "OpCopyObject %uint %c8", 0, NULL,
                  "OpCopyObject %uint %c0");
    expect("tensor load, null descriptor", text, CVM_FLAG_ROBUST_ACCESS, NULL, 0,
           CVM_ERROR_OUT_OF_BOUNDS, tvuid);
    /* a zero-sized buffer that is not null: out of bounds, robust zero */
    make_shader(text, sizeof(text), 0, 0, 3, khr);
    const char *oob[] = {"of a 0-byte buffer", NULL};
    static float empty[1];
    expect("KHR load, empty buffer", text, 0, empty, 0, CVM_ERROR_OUT_OF_BOUNDS, oob);
    asm_result rr = run_text(text, CVM_FLAG_ROBUST_ACCESS, empty, 0);
    ASM_OK(rr, "KHR load, empty buffer, robust");
    /* scalar loads of the null descriptor: as any empty buffer */
    make_shader(text, sizeof(text), 0, 0, 3,
                "%ps = OpAccessChain %pf %src %c0 %li\n%x = OpLoad %float %ps\n"
                "%pd = OpAccessChain %pf %dst %c0 %li\nOpStore %pd %x\n");
    const char *none[] = {"OpLoad", "which is in no buffer", NULL};
    expect("scalar load, null descriptor", text, 0, NULL, 0, CVM_ERROR_OUT_OF_BOUNDS, none);
    rr = run_text(text, 0, NULL, 0);
    assert_null(strstr(rr.message, "12379"));
    rr = run_text(text, CVM_FLAG_ROBUST_ACCESS, NULL, 0);
    ASM_OK(rr, "scalar load, null descriptor, robust");
    for (int i = 0; i < 64; i++)
        assert_true(dst[i] == 0.0f);
    assert_true(dst[64] == -1.0f);
}

/* ---- NV-CV.Matrix-Unmodified (the checking mode) ------------------------------- */

/* Every invocation: r = M x + bias with M the 8 x 8 f16 row-major matrix at
 * byte 0 of b1 (stride 16), bias the 8 f16 at byte 128 of b1, x the 8 f16
 * of b0; r stored at byte 16 * invocation of b2.  `store` (before or after
 * the product, by `before`) writes one word of b1. */
static void coopvec_shader(const char *store, int before)
{
    char body[2048];
    snprintf(body, sizeof(body), "%s%s%s", before ? store : "",
             "%x = OpCooperativeVectorLoadNV %cv %p0 %c0\n"
             "%r = OpCooperativeVectorMatrixMulAddNV %cv %x %f16 %p1 %c0 %f16 %p1 %c128 %f16 %c8 "
             "%c8 %rowmajor %false %c16\n"
             "%o = OpIMul %uint %li %c16\n"
             "OpCooperativeVectorStoreNV %p2 %o %r\n",
             before ? "" : store);
    snprintf(text, sizeof(text),
             "OpCapability Shader\nOpCapability Float16\nOpCapability VulkanMemoryModel\n"
             "OpCapability CooperativeVectorNV\nOpExtension \"SPV_NV_cooperative_vector\"\n"
             "OpMemoryModel Logical Vulkan\n"
             "OpEntryPoint GLCompute %%main \"main\" %%lidx %%b0 %%b1 %%b2\n"
             "OpExecutionMode %%main LocalSize 32 1 1\n"
             "OpDecorate %%lidx BuiltIn LocalInvocationIndex\n"
             "OpDecorate %%rt ArrayStride 4\nOpDecorate %%B Block\nOpMemberDecorate %%B 0 Offset 0\n"
             "OpDecorate %%b0 DescriptorSet 0\nOpDecorate %%b0 Binding 0\n"
             "OpDecorate %%b1 DescriptorSet 0\nOpDecorate %%b1 Binding 1\n"
             "OpDecorate %%b2 DescriptorSet 0\nOpDecorate %%b2 Binding 2\n"
             "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
             "%%uint = OpTypeInt 32 0\n%%int = OpTypeInt 32 1\n%%half = OpTypeFloat 16\n"
             "%%false = OpConstantFalse %%bool\n"
             "%%c0 = OpConstant %%uint 0\n%%c8 = OpConstant %%uint 8\n%%c16 = OpConstant %%uint 16\n"
             "%%c33 = OpConstant %%uint 33\n%%c3 = OpConstant %%uint 3\n%%c64 = OpConstant %%uint 64\n"
             "%%c128 = OpConstant %%uint 128\n%%v1 = OpConstant %%uint 0x40004000\n"
             "%%v2 = OpConstant %%uint 0x3c003c00\n"
             "%%f16 = OpConstant %%int 0\n%%rowmajor = OpConstant %%int 0\n"
             "%%cv = OpTypeCooperativeVectorNV %%half %%c8\n"
             "%%rt = OpTypeRuntimeArray %%uint\n%%B = OpTypeStruct %%rt\n"
             "%%pB = OpTypePointer StorageBuffer %%B\n%%prt = OpTypePointer StorageBuffer %%rt\n"
             "%%pu = OpTypePointer StorageBuffer %%uint\n"
             "%%pin = OpTypePointer Input %%uint\n%%lidx = OpVariable %%pin Input\n"
             "%%b0 = OpVariable %%pB StorageBuffer\n%%b1 = OpVariable %%pB StorageBuffer\n"
             "%%b2 = OpVariable %%pB StorageBuffer\n"
             "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n"
             "%%li = OpLoad %%uint %%lidx\n"
             "%%p0 = OpAccessChain %%prt %%b0 %%c0\n%%p1 = OpAccessChain %%prt %%b1 %%c0\n"
             "%%p2 = OpAccessChain %%prt %%b2 %%c0\n"
             "%sOpReturn\nOpFunctionEnd\n",
             body);
}

static uint16_t cv_x[8], cv_w[256], cv_out[256];

static asm_result coopvec_run(uint32_t flags)
{
    static const uint16_t xs[8] = {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800};
    memcpy(cv_x, xs, sizeof(xs)); /* 1 .. 8 */
    memset(cv_w, 0, sizeof(cv_w));
    for (int j = 0; j < 8; j++) {
        cv_w[j * 8 + j] = 0x3C00; /* the identity */
        cv_w[64 + j] = 0x3800;    /* bias 0.5 */
    }
    memset(cv_out, 0xff, sizeof(cv_out));
    void *bufs[3] = {cv_x, cv_w, cv_out};
    size_t sizes[3] = {sizeof(cv_x), sizeof(cv_w), sizeof(cv_out)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 32;
    p.threads = 1;
    p.flags = flags;
    return asm_run(text, &p, bufs, sizes, 3);
}

static void test_coopvec_matrix_unmodified(void **s)
{
    (void)s;
    static const struct {
        const char *store;
        int before;
        const char *piece;
    } cases[] = {
        /* word 3 (bytes 12..15, row 0) of the matrix, after the product */
        {"%w = OpAccessChain %pu %b1 %c0 %c3\nOpStore %w %v1\n", 0,
         "byte 13 of the buffer of set 0 binding 1, in the matrix this instruction read (bytes 0 "
         "to 127)"},
        /* the same before it */
        {"%w = OpAccessChain %pu %b1 %c0 %c3\nOpStore %w %v1\n", 1, "byte 13 of the buffer"},
        /* word 33 (bytes 132..135) of the bias */
        {"%w = OpAccessChain %pu %b1 %c0 %c33\nOpStore %w %v2\n", 0,
         "byte 133 of the buffer of set 0 binding 1, in the bias this instruction read (bytes "
         "128 to 143)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        coopvec_shader(cases[i].store, cases[i].before);
        for (int tiers = 0; tiers < 2; tiers++) {
            asm_result rr = coopvec_run(CVM_FLAG_CHECK_CALLBACKS | (tiers ? CVM_FLAG_COMPARE_TIERS : 0));
            if (rr.create != CVM_SUCCESS || rr.dispatch != CVM_ERROR_INVALID_MODULE ||
                !strstr(rr.message, "[NV-CV.Matrix-Unmodified]") ||
                !strstr(rr.message, "OpCooperativeVectorMatrixMulAddNV") ||
                !strstr(rr.message, cases[i].piece))
                fail_msg("case %zu: %s/%s: %s", i, cvm_result_string(rr.create),
                         cvm_result_string(rr.dispatch), rr.message);
        }
        /* the default mode does not look (the check costs a copy of the buffers) */
        asm_result rr = coopvec_run(0);
        ASM_OK(rr, "the default mode");
    }
    /* the twin: a store past the matrix and the bias (word 64, byte 256) */
    coopvec_shader("%w = OpAccessChain %pu %b1 %c0 %c64\nOpStore %w %v1\n", 0);
    asm_result rr = coopvec_run(CVM_FLAG_CHECK_CALLBACKS);
    ASM_OK(rr, "a store past the matrix and bias");
    static const uint16_t want[8] = {0x3E00, 0x4100, 0x4300, 0x4480, 0x4580, 0x4680, 0x4780, 0x4840};
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 8; j++)
            if (cv_out[l * 8 + j] != want[j])
                fail_msg("invocation %d, r[%d] = 0x%04x, expected 0x%04x", l, j, cv_out[l * 8 + j],
                         want[j]);
    assert_int_equal(cv_w[128], 0x4000); /* the twin's store happened */
}

/* ---- NV-DV.Same-Results (the checking mode) --------------------------------------
 * "Multiple invocations of the same function with the same operand values
 * are expected to return the same value": a DecodeFunc that returns its
 * element plus a counter it bumps in a buffer returns another value each
 * time.  The checking mode repeats the calls (in another order) and
 * compares; its twin bumps the counter too but returns the element alone. */
static void decode_shader(int bad)
{
    snprintf(text, sizeof(text),
             "OpCapability Shader\nOpCapability VulkanMemoryModel\n"
             "OpCapability PhysicalStorageBufferAddresses\nOpCapability CooperativeMatrixKHR\n"
             "OpCapability CooperativeMatrixTensorAddressingNV\n"
             "OpCapability CooperativeMatrixBlockLoadsNV\nOpCapability TensorAddressingNV\n"
             "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
             "OpExtension \"SPV_NV_cooperative_matrix2\"\nOpExtension \"SPV_NV_tensor_addressing\"\n"
             "OpMemoryModel PhysicalStorageBuffer64 Vulkan\n"
             "OpEntryPoint GLCompute %%main \"main\" %%src %%dst %%cnt\n"
             "OpExecutionMode %%main LocalSize 32 1 1\n"
             "OpDecorate %%rt ArrayStride 4\nOpDecorate %%B Block\nOpMemberDecorate %%B 0 Offset 0\n"
             "OpDecorate %%src DescriptorSet 0\nOpDecorate %%src Binding 0\n"
             "OpDecorate %%dst DescriptorSet 0\nOpDecorate %%dst Binding 1\n"
             "OpDecorate %%cnt DescriptorSet 0\nOpDecorate %%cnt Binding 2\n"
             "%%void = OpTypeVoid\n%%fnv = OpTypeFunction %%void\n"
             "%%uint = OpTypeInt 32 0\n%%int = OpTypeInt 32 1\n%%int_0 = OpConstant %%int 0\n"
             "%%c0 = OpConstant %%uint 0\n%%c1 = OpConstant %%uint 1\n%%c2 = OpConstant %%uint 2\n"
             "%%c3 = OpConstant %%uint 3\n%%c8 = OpConstant %%uint 8\n"
             "%%arr2 = OpTypeArray %%uint %%c2\n%%rt = OpTypeRuntimeArray %%uint\n"
             "%%B = OpTypeStruct %%rt\n%%pB = OpTypePointer StorageBuffer %%B\n"
             "%%pu = OpTypePointer StorageBuffer %%uint\n"
             "%%ppsb = OpTypePointer PhysicalStorageBuffer %%uint\n"
             "%%src = OpVariable %%pB StorageBuffer\n%%dst = OpVariable %%pB StorageBuffer\n"
             "%%cnt = OpVariable %%pB StorageBuffer\n"
             "%%fn_dec = OpTypeFunction %%uint %%ppsb %%arr2 %%arr2\n"
             "%%mat = OpTypeCooperativeMatrixKHR %%uint %%c3 %%c8 %%c8 %%c2\n"
             "%%null = OpConstantNull %%mat\n%%L = OpTypeTensorLayoutNV %%c2 %%c0\n"
             "%%dec = OpFunction %%uint None %%fn_dec\n%%p = OpFunctionParameter %%ppsb\n"
             "%%bc = OpFunctionParameter %%arr2\n%%cb = OpFunctionParameter %%arr2\n"
             "%%lab = OpLabel\n%%v = OpLoad %%uint %%p Aligned 4\n"
             "%%pc = OpAccessChain %%pu %%cnt %%int_0 %%c0\n%%n = OpLoad %%uint %%pc\n"
             "%%n1 = OpIAdd %%uint %%n %%c1\nOpStore %%pc %%n1\n"
             "%%r = %s\nOpReturnValue %%r\nOpFunctionEnd\n"
             "%%main = OpFunction %%void None %%fnv\n%%e = OpLabel\n"
             "%%l0 = OpCreateTensorLayoutNV %%L\n"
             "%%l1 = OpTensorLayoutSetDimensionNV %%L %%l0 %%c8 %%c8\n"
             "%%ps = OpAccessChain %%pu %%src %%int_0 %%c0\n"
             "%%m = OpCooperativeMatrixLoadTensorNV %%mat %%ps %%null %%l1 None DecodeFunc %%dec\n"
             "%%pd = OpAccessChain %%pu %%dst %%int_0 %%c0\n"
             "OpCooperativeMatrixStoreKHR %%pd %%m %%c0 %%c8\nOpReturn\nOpFunctionEnd\n",
             bad ? "OpIAdd %uint %v %n" : "OpCopyObject %uint %v");
}

static void test_decode_same_results(void **s)
{
    (void)s;
    static uint32_t dsrc[64], ddst[64], cnt[1];
    void *bufs[3] = {dsrc, ddst, cnt};
    size_t sizes[3] = {sizeof(dsrc), sizeof(ddst), sizeof(cnt)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 32;
    p.threads = 1;
    for (int bad = 1; bad >= 0; bad--) {
        decode_shader(bad);
        for (int check = 0; check < 2; check++) {
            for (uint32_t i = 0; i < 64; i++)
                dsrc[i] = 3 * i + 1;
            memset(ddst, 0, sizeof(ddst));
            cnt[0] = 0;
            p.flags = check ? CVM_FLAG_CHECK_CALLBACKS : 0;
            asm_result rr = asm_run(text, &p, bufs, sizes, 3);
            if (bad && check) {
                if (rr.create != CVM_SUCCESS || rr.dispatch != CVM_ERROR_CALLBACK_MISMATCH ||
                    !strstr(rr.message, "OpCooperativeMatrixLoadTensorNV") ||
                    !strstr(rr.message, "returned different values") ||
                    !strstr(rr.message, "another order"))
                    fail_msg("counter DecodeFunc, checking mode: %s/%s: %s",
                             cvm_result_string(rr.create), cvm_result_string(rr.dispatch),
                             rr.message);
                continue;
            }
            ASM_OK(rr, bad ? "counter DecodeFunc, default mode" : "the twin");
            assert_true(cnt[0] >= 1); /* the calls ran (in lockstep: not one bump per call) */
            if (!bad)
                for (uint32_t i = 0; i < 64; i++)
                    assert_int_equal(ddst[i], 3 * i + 1);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_khr_load_pointer),
        cmocka_unit_test(test_khr_load_pointer_workgroup),
        cmocka_unit_test(test_khr_load_stride),
        cmocka_unit_test(test_khr_store_pointer),
        cmocka_unit_test(test_matrix_times_scalar),
        cmocka_unit_test(test_nv_load_stride),
        cmocka_unit_test(test_tensor_uniform_operands),
        cmocka_unit_test(test_tensor_pointer_alignment),
        cmocka_unit_test(test_scope_active),
        cmocka_unit_test(test_null_descriptor),
        cmocka_unit_test(test_coopvec_matrix_unmodified),
        cmocka_unit_test(test_decode_same_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
