/* Aggregates that hold cooperative matrices (exec/ops/composite.c): arrays
 * and structs of KHR and NV matrices of subgroup and workgroup scope built,
 * read and written by OpCompositeConstruct, OpCompositeExtract,
 * OpCompositeInsert (a whole matrix, and one element of a matrix member by
 * invocation), OpCompositeConstructReplicateEXT, OpCopyObject, OpCopyLogical,
 * OpPhi, OpSelect, a function's argument and return value, and
 * OpLoad/OpStore of Function and Private variables (with access chains into
 * them); and the GLSL pattern of an array of two accumulators, each
 * MulAdd'ed, stored.  Every scope instance
 * has matrices of its own (from the buffer at its instance index), so a
 * value taken from the wrong instance shows.  The expected values are
 * computed here from the inputs with plain loops.  These once wrote past
 * the value slots (heap-buffer-overflow in h_construct; shared/fuzz
 * hbo_*.spv, replayed by tests/fuzz.cmake). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"

#define LANES 64 /* LocalSize */
#define E 64     /* elements of an 8x8 matrix */
#define NREG 14  /* output matrices per scope instance */

typedef struct sb {
    char *p;
    size_t n, cap;
} sb;

static void emit(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    assert_true(k >= 0 && (size_t)k < b->cap - b->n);
    b->n += (size_t)k;
}

/* A matrix of type T from In-buffer variable `buf` at element `at` (an id),
 * row-major, `stride` (an int id) elements between rows. */
static void load(sb *b, int nv, const char *res, const char *T, const char *buf, const char *at,
                 const char *stride)
{
    emit(b, "%%p_%s = OpAccessChain %%pf %s %%c0 %s\n", res, buf, at);
    if (nv)
        emit(b, "%%%s = OpCooperativeMatrixLoadNV %s %%p_%s %s %%false\n", res, T, res, stride);
    else
        emit(b, "%%%s = OpCooperativeMatrixLoadKHR %s %%p_%s %%c0 %s\n", res, T, res, stride);
}

/* Matrix %val to output region `reg` of the instance. */
static void store_region(sb *b, int nv, const char *val, int reg)
{
    emit(b, "%%o%d = OpIAdd %%uint %%obase %%c%d\n", reg, reg * E);
    emit(b, "%%q%d = OpAccessChain %%pf %%Out %%c0 %%o%d\n", reg, reg);
    if (nv)
        emit(b, "OpCooperativeMatrixStoreNV %%q%d %s %%s8 %%false\n", reg, val);
    else
        emit(b, "OpCooperativeMatrixStoreKHR %%q%d %s %%c0 %%s8\n", reg, val);
}

/* The shader: `nv` the SPV_NV_cooperative_matrix types, `wg` workgroup
 * scope (KHR only). */
static char *make_shader(int nv, int wg)
{
    sb b = {malloc(1 << 16), 0, 1 << 16};
    assert_non_null(b.p);
    emit(&b, "OpCapability Shader\nOpCapability VulkanMemoryModel\n"
             "OpCapability GroupNonUniform\nOpCapability ReplicatedCompositesEXT\n");
    if (nv)
        emit(&b, "OpCapability CooperativeMatrixNV\nOpExtension \"SPV_NV_cooperative_matrix\"\n");
    else
        emit(&b, "OpCapability CooperativeMatrixKHR\nOpExtension \"SPV_KHR_cooperative_matrix\"\n");
    emit(&b, "OpExtension \"SPV_EXT_replicated_composites\"\n");
    emit(&b, "OpMemoryModel Logical Vulkan\n"
             "OpEntryPoint GLCompute %%main \"main\" %%lidx %%sgid %%In %%In2 %%Out %%Lane "
             "%%vpriv\n"
             "OpExecutionMode %%main LocalSize %d 1 1\n"
             "OpDecorate %%lidx BuiltIn LocalInvocationIndex\n"
             "OpDecorate %%sgid BuiltIn SubgroupId\n"
             "OpDecorate %%rtf ArrayStride 4\n"
             "OpDecorate %%Sf Block\nOpMemberDecorate %%Sf 0 Offset 0\n",
         LANES);
    const char *vars[4] = {"In", "In2", "Out", "Lane"};
    for (int k = 0; k < 4; k++)
        emit(&b, "OpDecorate %%%s DescriptorSet 0\nOpDecorate %%%s Binding %d\n", vars[k],
             vars[k], k);
    emit(&b, "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
             "%%uint = OpTypeInt 32 0\n%%int = OpTypeInt 32 1\n%%float = OpTypeFloat 32\n"
             "%%rtf = OpTypeRuntimeArray %%float\n%%Sf = OpTypeStruct %%rtf\n"
             "%%pSf = OpTypePointer StorageBuffer %%Sf\n%%pf = OpTypePointer StorageBuffer "
             "%%float\n%%pin = OpTypePointer Input %%uint\n");
    for (int k = 0; k < 4; k++)
        emit(&b, "%%%s = OpVariable %%pSf StorageBuffer\n", vars[k]);
    emit(&b, "%%lidx = OpVariable %%pin Input\n%%sgid = OpVariable %%pin Input\n"
             "%%false = OpConstantFalse %%bool\n%%s8 = OpConstant %%int 8\n"
             "%%s16 = OpConstant %%int 16\n%%scope = OpConstant %%uint %d\n",
         wg ? 2 : 3);
    /* the integer constants the offsets need */
    emit(&b, "%%c1 = OpConstant %%uint 1\n%%c2 = OpConstant %%uint 2\n%%c8 = OpConstant %%uint 8\n"
             "%%c16 = OpConstant %%uint 16\n%%c%d = OpConstant %%uint %d\n",
         NREG * E, NREG * E);
    for (int r = 0; r < NREG; r++) /* 0, 64, 128, 192, 256, ... */
        emit(&b, "%%c%d = OpConstant %%uint %d\n", r * E, r * E);
    if (nv)
        emit(&b, "%%mat = OpTypeCooperativeMatrixNV %%float %%scope %%c8 %%c8\n"
                 "%%mA = OpTypeCooperativeMatrixNV %%float %%scope %%c8 %%c16\n"
                 "%%mB = OpTypeCooperativeMatrixNV %%float %%scope %%c16 %%c8\n");
    else
        emit(&b, "%%mat = OpTypeCooperativeMatrixKHR %%float %%scope %%c8 %%c8 %%c2\n"
                 "%%mA = OpTypeCooperativeMatrixKHR %%float %%scope %%c8 %%c16 %%c0\n"
                 "%%mB = OpTypeCooperativeMatrixKHR %%float %%scope %%c16 %%c8 %%c1\n");
    emit(&b, "%%arr2 = OpTypeArray %%mat %%c2\n"
             "%%arr2b = OpTypeArray %%mat %%c2\n" /* the same, for OpCopyLogical */
             "%%st = OpTypeStruct %%mat %%float\n"
             "%%pfarr = OpTypePointer Function %%arr2\n%%pfmat = OpTypePointer Function %%mat\n"
             "%%pparr = OpTypePointer Private %%arr2\n%%ppmat = OpTypePointer Private %%mat\n"
             "%%fnswap = OpTypeFunction %%arr2 %%arr2\n"
             "%%vpriv = OpVariable %%pparr Private\n");
    /* swap(a) = {a[1], a[0]} */
    emit(&b, "%%swap = OpFunction %%arr2 None %%fnswap\n%%sa = OpFunctionParameter %%arr2\n"
             "%%sl = OpLabel\n%%se0 = OpCompositeExtract %%mat %%sa 0\n"
             "%%se1 = OpCompositeExtract %%mat %%sa 1\n"
             "%%sr = OpCompositeConstruct %%arr2 %%se1 %%se0\nOpReturnValue %%sr\n"
             "OpFunctionEnd\n");
    emit(&b, "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n"
             "%%va = OpVariable %%pfarr Function\n%%vacc = OpVariable %%pfarr Function\n"
             "%%lid = OpLoad %%uint %%lidx\n");
    if (wg)
        emit(&b, "%%inst = OpCopyObject %%uint %%c0\n");
    else
        emit(&b, "%%inst = OpLoad %%uint %%sgid\n");
    emit(&b, "%%base = OpIMul %%uint %%inst %%c128\n%%base64 = OpIAdd %%uint %%base %%c64\n"
             "%%base2 = OpIMul %%uint %%inst %%c256\n%%base2b = OpIAdd %%uint %%base2 %%c128\n"
             "%%obase = OpIMul %%uint %%inst %%c%d\n",
         NREG * E);
    load(&b, nv, "A", "%mat", "%In", "%base", "%s8");
    load(&b, nv, "B", "%mat", "%In", "%base64", "%s8");
    emit(&b, "%%arr = OpCompositeConstruct %%arr2 %%A %%B\n"
             "%%fl = OpConvertUToF %%float %%lid\n"
             "%%st1 = OpCompositeConstruct %%st %%B %%fl\n"
             "%%x0 = OpCompositeExtract %%mat %%arr 1\n");
    store_region(&b, nv, "%x0", 0); /* B */
    emit(&b, "%%ins = OpCompositeInsert %%arr2 %%A %%arr 1\n"
             "%%x1 = OpCompositeExtract %%mat %%ins 1\n");
    store_region(&b, nv, "%x1", 1); /* A */
    emit(&b, "%%cp = OpCopyObject %%arr2 %%arr\n%%cl = OpCopyLogical %%arr2b %%cp\n"
             "%%x2 = OpCompositeExtract %%mat %%cl 1\n");
    store_region(&b, nv, "%x2", 2); /* B */
    emit(&b, "%%odd = OpBitwiseAnd %%uint %%inst %%c1\n%%isodd = OpIEqual %%bool %%odd %%c1\n"
             "OpSelectionMerge %%merge None\nOpBranchConditional %%isodd %%then %%merge\n"
             "%%then = OpLabel\n%%sw = OpCompositeConstruct %%arr2 %%B %%A\nOpBranch %%merge\n"
             "%%merge = OpLabel\n%%ph = OpPhi %%arr2 %%arr %%entry %%sw %%then\n"
             "%%x3 = OpCompositeExtract %%mat %%ph 0\n");
    store_region(&b, nv, "%x3", 3); /* odd instance: B, even: A */
    emit(&b, "%%fr = OpFunctionCall %%arr2 %%swap %%arr\n%%x4 = OpCompositeExtract %%mat %%fr 0\n");
    store_region(&b, nv, "%x4", 4); /* B */
    emit(&b, "OpStore %%va %%arr\n%%pv1 = OpAccessChain %%pfmat %%va %%c1\n"
             "%%x5 = OpLoad %%mat %%pv1\n");
    store_region(&b, nv, "%x5", 5); /* B */
    emit(&b, "%%ld = OpLoad %%arr2 %%va\n%%x6 = OpCompositeExtract %%mat %%ld 0\n");
    store_region(&b, nv, "%x6", 6); /* A */
    emit(&b, "%%x7 = OpCompositeExtract %%mat %%st1 0\n");
    store_region(&b, nv, "%x7", 7); /* B */
    /* per-invocation: the struct's float member, and element 0 of arr[1] */
    emit(&b, "%%sf = OpCompositeExtract %%float %%st1 1\n%%l4 = OpIMul %%uint %%lid %%c2\n"
             "%%pl0 = OpAccessChain %%pf %%Lane %%c0 %%l4\nOpStore %%pl0 %%sf\n"
             "%%ne = OpCompositeExtract %%float %%arr 1 0\n%%l41 = OpIAdd %%uint %%l4 %%c1\n"
             "%%pl1 = OpAccessChain %%pf %%Lane %%c0 %%l41\nOpStore %%pl1 %%ne\n");
    /* element 0 of each invocation's part of arr[0] := its index */
    emit(&b, "%%ni = OpCompositeInsert %%arr2 %%fl %%arr 0 0\n"
             "%%x8 = OpCompositeExtract %%mat %%ni 0\n");
    store_region(&b, nv, "%x8", 8);
    emit(&b, "%%sel = OpSelect %%arr2 %%isodd %%arr %%ins\n"
             "%%x9 = OpCompositeExtract %%mat %%sel 1\n");
    store_region(&b, nv, "%x9", 9); /* odd: B, even: A */
    emit(&b, "OpStore %%vpriv %%ins\n%%pp1 = OpAccessChain %%ppmat %%vpriv %%c1\n"
             "%%x10 = OpLoad %%mat %%pp1\n");
    store_region(&b, nv, "%x10", 10); /* A */
    /* the GLSL pattern: coopmat acc[2] = {A, B}; acc[i] = MulAdd(P, Q, acc[i]) */
    load(&b, nv, "P", "%mA", "%In2", "%base2", "%s16");
    load(&b, nv, "Q", "%mB", "%In2", "%base2b", "%s8");
    emit(&b, "%%acc = OpCompositeConstruct %%arr2 %%A %%B\n"
             "%%a0 = OpCompositeExtract %%mat %%acc 0\n%%a1 = OpCompositeExtract %%mat %%acc 1\n");
    if (nv)
        emit(&b, "%%r0 = OpCooperativeMatrixMulAddNV %%mat %%P %%Q %%a0\n"
                 "%%r1 = OpCooperativeMatrixMulAddNV %%mat %%P %%Q %%a1\n");
    else
        emit(&b, "%%r0 = OpCooperativeMatrixMulAddKHR %%mat %%P %%Q %%a0\n"
                 "%%r1 = OpCooperativeMatrixMulAddKHR %%mat %%P %%Q %%a1\n");
    emit(&b, "%%accs = OpCompositeConstruct %%arr2 %%r0 %%r1\nOpStore %%vacc %%accs\n"
             "%%pr0 = OpAccessChain %%pfmat %%vacc %%c0\n%%y0 = OpLoad %%mat %%pr0\n"
             "%%pr1 = OpAccessChain %%pfmat %%vacc %%c1\n%%y1 = OpLoad %%mat %%pr1\n");
    store_region(&b, nv, "%y0", 11);
    store_region(&b, nv, "%y1", 12);
    emit(&b, "%%rep = OpCompositeConstructReplicateEXT %%arr2 %%B\n"
             "%%x13 = OpCompositeExtract %%mat %%rep 1\n");
    store_region(&b, nv, "%x13", 13); /* B */
    emit(&b, "OpReturn\nOpFunctionEnd\n");
    return b.p;
}


/* ---- cooperative vectors and long vectors ------------------------------------
 * Per-invocation values of any size: an array of two cooperative vectors
 * of CV floats and a struct of one and a long vector of LV uints, through
 * construct, extract (a whole vector and one component through two
 * indexes), insert, copy, a phi whose lanes come from different blocks, a
 * function, and a Function variable with an access chain; every component
 * of every result is written to Out per invocation. */
#define CV 20
#define LV 9
#define NOUT 8 /* cooperative vectors written per invocation */
#define OUTN (NOUT * CV + LV + 1) /* floats written per invocation */

static char *make_vector_shader(void)
{
    sb b = {malloc(1 << 16), 0, 1 << 16};
    assert_non_null(b.p);
    emit(&b, "OpCapability Shader\nOpCapability VulkanMemoryModel\n"
             "OpCapability CooperativeVectorNV\nOpCapability LongVectorEXT\n"
             "OpExtension \"SPV_NV_cooperative_vector\"\nOpExtension \"SPV_EXT_long_vector\"\n"
             "OpMemoryModel Logical Vulkan\n"
             "OpEntryPoint GLCompute %%main \"main\" %%lidx %%Out\n"
             "OpExecutionMode %%main LocalSize %d 1 1\n"
             "OpDecorate %%lidx BuiltIn LocalInvocationIndex\n"
             "OpDecorate %%rtf ArrayStride 4\n"
             "OpDecorate %%Sf Block\nOpMemberDecorate %%Sf 0 Offset 0\n"
             "OpDecorate %%Out DescriptorSet 0\nOpDecorate %%Out Binding 0\n"
             "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
             "%%uint = OpTypeInt 32 0\n%%float = OpTypeFloat 32\n"
             "%%rtf = OpTypeRuntimeArray %%float\n%%Sf = OpTypeStruct %%rtf\n"
             "%%pSf = OpTypePointer StorageBuffer %%Sf\n%%pf = OpTypePointer StorageBuffer "
             "%%float\n%%pin = OpTypePointer Input %%uint\n"
             "%%Out = OpVariable %%pSf StorageBuffer\n%%lidx = OpVariable %%pin Input\n",
         LANES);
    for (int k = 0; k <= OUTN; k++)
        emit(&b, "%%c%d = OpConstant %%uint %d\n", k, k);
    emit(&b, "%%cCV = OpConstant %%uint %d\n%%cLV = OpConstant %%uint %d\n"
             "%%f2 = OpConstant %%float 2\n"
             "%%cv = OpTypeCooperativeVectorNV %%float %%cCV\n"
             "%%lv = OpTypeVectorIdEXT %%uint %%cLV\n"
             "%%arr2 = OpTypeArray %%cv %%c2\n%%st = OpTypeStruct %%cv %%lv\n"
             "%%pfarr = OpTypePointer Function %%arr2\n%%pfcv = OpTypePointer Function %%cv\n"
             "%%fnswap = OpTypeFunction %%arr2 %%arr2\n",
         CV, LV);
    emit(&b, "%%swap = OpFunction %%arr2 None %%fnswap\n%%sa = OpFunctionParameter %%arr2\n"
             "%%sl = OpLabel\n%%se0 = OpCompositeExtract %%cv %%sa 0\n"
             "%%se1 = OpCompositeExtract %%cv %%sa 1\n"
             "%%sr = OpCompositeConstruct %%arr2 %%se1 %%se0\nOpReturnValue %%sr\n"
             "OpFunctionEnd\n");
    emit(&b, "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n"
             "%%va = OpVariable %%pfarr Function\n%%lid = OpLoad %%uint %%lidx\n"
             "%%l100 = OpIMul %%uint %%lid %%c100\n%%obase = OpIMul %%uint %%lid %%c%d\n",
         OUTN);
    /* v[k] = lid * 100 + k; u[k] = lid + k */
    for (int k = 0; k < CV; k++)
        emit(&b, "%%vi%d = OpIAdd %%uint %%l100 %%c%d\n%%vf%d = OpConvertUToF %%float %%vi%d\n",
             k, k, k, k);
    emit(&b, "%%v = OpCompositeConstruct %%cv");
    for (int k = 0; k < CV; k++)
        emit(&b, " %%vf%d", k);
    emit(&b, "\n");
    for (int k = 0; k < LV; k++)
        emit(&b, "%%ui%d = OpIAdd %%uint %%lid %%c%d\n", k, k);
    emit(&b, "%%u = OpCompositeConstruct %%lv");
    for (int k = 0; k < LV; k++)
        emit(&b, " %%ui%d", k);
    emit(&b, "\n");
    emit(&b, "%%w = OpVectorTimesScalar %%cv %%v %%f2\n"
             "%%arr = OpCompositeConstruct %%arr2 %%v %%w\n"
             "%%st1 = OpCompositeConstruct %%st %%w %%u\n"
             "%%x0 = OpCompositeExtract %%cv %%arr 1\n"                        /* w */
             "%%ins = OpCompositeInsert %%arr2 %%v %%arr 1\n"
             "%%x1 = OpCompositeExtract %%cv %%ins 1\n"                        /* v */
             "%%cp = OpCopyObject %%arr2 %%arr\n%%x2 = OpCompositeExtract %%cv %%cp 0\n" /* v */
             "%%odd = OpBitwiseAnd %%uint %%lid %%c1\n%%isodd = OpIEqual %%bool %%odd %%c1\n"
             "OpSelectionMerge %%merge None\nOpBranchConditional %%isodd %%then %%merge\n"
             "%%then = OpLabel\n%%sw = OpCompositeConstruct %%arr2 %%w %%v\nOpBranch %%merge\n"
             "%%merge = OpLabel\n%%ph = OpPhi %%arr2 %%arr %%entry %%sw %%then\n"
             "%%x3 = OpCompositeExtract %%cv %%ph 0\n"                         /* odd: w */
             "%%fr = OpFunctionCall %%arr2 %%swap %%arr\n"
             "%%x4 = OpCompositeExtract %%cv %%fr 0\n"                         /* w */
             "OpStore %%va %%arr\n%%pv1 = OpAccessChain %%pfcv %%va %%c1\n"
             "%%x5 = OpLoad %%cv %%pv1\n"                                      /* w */
             "%%x6 = OpCompositeExtract %%cv %%st1 0\n"                        /* w */
             /* component 3 of arr[1] := 7, then the array's arr[1] */
             "%%f7 = OpConvertUToF %%float %%c7\n"
             "%%ic = OpCompositeInsert %%arr2 %%f7 %%arr 1 3\n"
             "%%x7 = OpCompositeExtract %%cv %%ic 1\n");
    /* out[at] = float value %val */
    int at = 0;
    for (int o = 0; o < NOUT; o++)
        for (int k = 0; k < CV; k++, at++)
            emit(&b, "%%e%d = OpCompositeExtract %%float %%x%d %d\n", at, o, k);
    /* the long vector's components, out of the struct through two indexes */
    for (int k = 0; k < LV; k++, at++)
        emit(&b, "%%eu%d = OpCompositeExtract %%uint %%st1 1 %d\n"
                 "%%e%d = OpConvertUToF %%float %%eu%d\n",
             k, k, at, k);
    /* a cooperative-vector component through two indexes: arr[1][5] */
    emit(&b, "%%e%d = OpCompositeExtract %%float %%arr 1 5\n", at++);
    for (int k = 0; k < at; k++)
        emit(&b, "%%a%d = OpIAdd %%uint %%obase %%c%d\n%%p%d = OpAccessChain %%pf %%Out %%c0 %%a%d\n"
                 "OpStore %%p%d %%e%d\n",
             k, k, k, k, k, k);
    emit(&b, "OpReturn\nOpFunctionEnd\n");
    return b.p;
}

static float a_val(int i, int e) { return (float)(i * 1000 + e); }
static float b_val(int i, int e) { return (float)(i * 1000 + 500 + e); }

static void run(int nv, int wg, uint32_t sg, uint32_t flags)
{
    char *text = make_shader(nv, wg);
    uint32_t ninst = wg ? 1 : (LANES + sg - 1) / sg;
    uint32_t per = wg ? LANES : (sg < LANES ? sg : LANES); /* invocations per instance */
    float *in = calloc((size_t)ninst * 128, sizeof(float));
    float *in2 = calloc((size_t)ninst * 256, sizeof(float));
    float *out = calloc((size_t)ninst * NREG * E, sizeof(float));
    float *lane = calloc(LANES * 2, sizeof(float));
    assert_true(in && in2 && out && lane);
    for (uint32_t i = 0; i < ninst; i++) {
        for (int e = 0; e < E; e++) {
            in[i * 128 + e] = a_val((int)i, e);
            in[i * 128 + 64 + e] = b_val((int)i, e);
        }
        for (int e = 0; e < 128; e++) {
            in2[i * 256 + e] = (float)((e % 7) - 3 + (int)i); /* P, 8 x 16 */
            in2[i * 256 + 128 + e] = (float)((e % 5) - 2);    /* Q, 16 x 8 */
        }
    }
    void *bufs[4] = {in, in2, out, lane};
    size_t sizes[4] = {(size_t)ninst * 128 * 4, (size_t)ninst * 256 * 4,
                       (size_t)ninst * NREG * E * 4, LANES * 2 * 4};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = sg;
    p.flags = flags;
    asm_result rr = asm_run(text, &p, bufs, sizes, 4);
    char what[64];
    snprintf(what, sizeof(what), "%s %s scope, subgroup size %u, flags 0x%x", nv ? "NV" : "KHR",
             wg ? "workgroup" : "subgroup", sg, flags);
    ASM_OK(rr, what);
    uint32_t L = (E + per - 1) / per;
    for (uint32_t i = 0; i < ninst; i++) {
        int odd = (int)(i & 1);
        for (int r = 0; r < NREG; r++) {
            for (int e = 0; e < E; e++) {
                float A = a_val((int)i, e), B = b_val((int)i, e), want;
                switch (r) {
                case 0: case 2: case 4: case 5: case 7: case 13: want = B; break;
                case 1: case 6: case 10: want = A; break;
                case 3: case 9: want = odd ? B : A; break;
                case 8: /* element 0 of invocation k's part (flat k * L) is k's index */
                    want = A;
                    if ((uint32_t)e % L == 0 && (uint32_t)e / L < per)
                        want = (float)(i * per + (uint32_t)e / L);
                    break;
                default: { /* 11, 12: P Q + A / B, exact in f32 */
                    int row = e / 8, col = e % 8;
                    float acc = r == 11 ? A : B;
                    for (int k = 0; k < 16; k++)
                        acc += in2[i * 256 + row * 16 + k] * in2[i * 256 + 128 + k * 8 + col];
                    want = acc;
                    break;
                }
                }
                float got = out[(i * NREG + (uint32_t)r) * E + (uint32_t)e];
                if (got != want)
                    fail_msg("%s: instance %u, region %d, element %d: %g, expected %g", what, i, r,
                             e, (double)got, (double)want);
            }
        }
    }
    for (uint32_t l = 0; l < LANES; l++) {
        uint32_t i = l / per, k = l % per;
        float want_ne = k * L < E ? b_val((int)i, (int)(k * L)) : 0.0f;
        if (lane[2 * l] != (float)l || lane[2 * l + 1] != want_ne)
            fail_msg("%s: invocation %u: struct member %g (expected %u), element %g (expected %g)",
                     what, l, (double)lane[2 * l], l, (double)lane[2 * l + 1], (double)want_ne);
    }
    free(text);
    free(in);
    free(in2);
    free(out);
    free(lane);
}

static void test_vectors(void **state)
{
    (void)state;
    char *text = make_vector_shader();
    float *out = calloc((size_t)LANES * OUTN, sizeof(float));
    assert_non_null(out);
    void *bufs[1] = {out};
    size_t sizes[1] = {(size_t)LANES * OUTN * 4};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 16;
    asm_result rr = asm_run(text, &p, bufs, sizes, 1);
    ASM_OK(rr, "cooperative and long vectors");
    for (int l = 0; l < LANES; l++) {
        for (int o = 0; o < NOUT; o++) {
            /* x0 w, x1 v, x2 v, x3 odd ? w : v, x4 w, x5 w, x6 w, x7 w with [3] = 7 */
            int twice = o == 0 || o == 4 || o == 5 || o == 6 || o == 7 || (o == 3 && (l & 1));
            for (int k = 0; k < CV; k++) {
                float want = (float)(l * 100 + k) * (twice ? 2.0f : 1.0f);
                if (o == 7 && k == 3)
                    want = 7.0f;
                float got = out[l * OUTN + o * CV + k];
                if (got != want)
                    fail_msg("invocation %d, vector %d, component %d: %g, expected %g", l, o, k,
                             (double)got, (double)want);
            }
        }
        for (int k = 0; k < LV; k++)
            if (out[l * OUTN + NOUT * CV + k] != (float)(l + k))
                fail_msg("invocation %d, long vector component %d: %g", l, k,
                         (double)out[l * OUTN + NOUT * CV + k]);
        if (out[l * OUTN + NOUT * CV + LV] != (float)(l * 100 + 5) * 2.0f)
            fail_msg("invocation %d, arr[1][5]: %g", l, (double)out[l * OUTN + NOUT * CV + LV]);
    }
    free(out);
    free(text);
}


/* A Private variable holding a workgroup-scope matrix (and an array of
 * them) is one copy for the workgroup: stored whole, then read element by
 * element through access chains by every invocation, of every subgroup.
 * (Private variables holding matrices had one copy per subgroup whatever
 * the matrices' scope: the subgroups past the first read a copy nothing
 * had written.) */
static const char private_wg_shader[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %lidx %In %Out %vm %va\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %rtf ArrayStride 4\n"
    "OpDecorate %Sf Block\n"
    "OpMemberDecorate %Sf 0 Offset 0\n"
    "OpDecorate %In DescriptorSet 0\n"
    "OpDecorate %In Binding 0\n"
    "OpDecorate %Out DescriptorSet 0\n"
    "OpDecorate %Out Binding 1\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%float = OpTypeFloat 32\n"
    "%rtf = OpTypeRuntimeArray %float\n"
    "%Sf = OpTypeStruct %rtf\n"
    "%pSf = OpTypePointer StorageBuffer %Sf\n"
    "%pf = OpTypePointer StorageBuffer %float\n"
    "%pin = OpTypePointer Input %uint\n"
    "%In = OpVariable %pSf StorageBuffer\n"
    "%Out = OpVariable %pSf StorageBuffer\n"
    "%lidx = OpVariable %pin Input\n"
    "%c0 = OpConstant %uint 0\n"
    "%c1 = OpConstant %uint 1\n"
    "%c2 = OpConstant %uint 2\n"
    "%c8 = OpConstant %uint 8\n"
    "%c64 = OpConstant %uint 64\n"
    "%s8 = OpConstant %int 8\n"
    "%wg = OpConstant %uint 2\n"
    "%mat = OpTypeCooperativeMatrixKHR %float %wg %c8 %c8 %c2\n"
    "%arr = OpTypeArray %mat %c2\n"
    "%ppm = OpTypePointer Private %mat\n"
    "%ppa = OpTypePointer Private %arr\n"
    "%ppf = OpTypePointer Private %float\n"
    "%vm = OpVariable %ppm Private\n"
    "%va = OpVariable %ppa Private\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%lid = OpLoad %uint %lidx\n"
    "%pA = OpAccessChain %pf %In %c0 %c0\n"
    "%A = OpCooperativeMatrixLoadKHR %mat %pA %c0 %s8\n"
    "%pB = OpAccessChain %pf %In %c0 %c64\n"
    "%B = OpCooperativeMatrixLoadKHR %mat %pB %c0 %s8\n"
    "OpStore %vm %A\n"
    "%ar = OpCompositeConstruct %arr %A %B\n"
    "OpStore %va %ar\n"
    /* element 0 of each invocation's part: flat index lid (64 lanes, L = 1) */
    "%pe = OpAccessChain %ppf %vm %c0\n"
    "%e = OpLoad %float %pe\n"
    "%o0 = OpAccessChain %pf %Out %c0 %lid\n"
    "OpStore %o0 %e\n"
    "%pe1 = OpAccessChain %ppf %va %c1 %c0\n"
    "%e1 = OpLoad %float %pe1\n"
    "%l64 = OpIAdd %uint %lid %c64\n"
    "%o1 = OpAccessChain %pf %Out %c0 %l64\n"
    "OpStore %o1 %e1\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_private_workgroup_matrix(void **state)
{
    (void)state;
    float in[128], out[128];
    for (int i = 0; i < 128; i++)
        in[i] = (float)(i + 1);
    memset(out, 0, sizeof(out));
    void *bufs[2] = {in, out};
    size_t sizes[2] = {sizeof(in), sizeof(out)};
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = 16;
    asm_result rr = asm_run(private_wg_shader, &p, bufs, sizes, 2);
    ASM_OK(rr, "Private variables holding workgroup matrices");
    for (int l = 0; l < 64; l++)
        if (out[l] != in[l] || out[64 + l] != in[64 + l])
            fail_msg("invocation %d: %g and %g, expected %g and %g", l, (double)out[l],
                     (double)out[64 + l], (double)in[l], (double)in[64 + l]);
}

static void test_khr_subgroup_8(void **s) { (void)s; run(0, 0, 8, 0); }
static void test_khr_subgroup_32(void **s) { (void)s; run(0, 0, 32, 0); }
static void test_khr_subgroup_64(void **s) { (void)s; run(0, 0, 64, 0); }
static void test_khr_workgroup(void **s) { (void)s; run(0, 1, 16, 0); }
static void test_nv_subgroup_16(void **s) { (void)s; run(1, 0, 16, 0); }
static void test_nv_subgroup_32(void **s) { (void)s; run(1, 0, 32, 0); }
/* the reference paths (no aliasing of matrix loads, no fast copies) and the
 * interpreter alone */
static void test_khr_reference_paths(void **s)
{
    (void)s;
    run(0, 0, 16, CVM_FLAG_REFERENCE_PATHS);
    run(0, 1, 32, CVM_FLAG_REFERENCE_PATHS);
}
static void test_khr_tiers(void **s)
{
    (void)s;
    run(0, 0, 16, CVM_FLAG_NO_JIT);
    run(0, 0, 16, CVM_FLAG_JIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_khr_subgroup_8),  cmocka_unit_test(test_khr_subgroup_32),
        cmocka_unit_test(test_khr_subgroup_64), cmocka_unit_test(test_khr_workgroup),
        cmocka_unit_test(test_nv_subgroup_16),  cmocka_unit_test(test_nv_subgroup_32),
        cmocka_unit_test(test_khr_reference_paths), cmocka_unit_test(test_khr_tiers),
        cmocka_unit_test(test_vectors),           cmocka_unit_test(test_private_workgroup_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
