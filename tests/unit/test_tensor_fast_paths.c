/* The tensor load and store fast paths (the whole-tile path with its
 * blocked transpose, the bulk copy, plan reuse across scope instances, and
 * the tensor layout/view instructions' reuse of equal lanes) against the
 * literal per-element path (CVM_FLAG_REFERENCE_PATHS): the same module on
 * the same random inputs must give the same buffers bit for bit, the same
 * status and the same message.
 *
 * One shader per component type (1, 2, 4 and 8 bytes: int8, f16, bf16,
 * int16, f32, int32, f64, int64), clamp mode, view (none, the identity
 * permutation, the transposing one) and matrix size (sizes that leave
 * partial 8 x 8 blocks).  Each loads an M x N matrix through a layout whose
 * dimensions, strides, slice, clamp value and clip come from a parameter
 * buffer (tiles inside the tensor, across its edges, outside it, short
 * buffers, robust access or not), over an 'Object' loaded from the source,
 * stores it whole to `ld`, and stores it again through a second random
 * layout and view to `st`.  Two subgroups run each load and store; the
 * second loads one row further down (so the layout instructions see lanes
 * with different operands, and the load cannot reuse the first subgroup's
 * plan) and stores to the next M rows of `ld`; it alone slices the second
 * layout, in a branch that leaves the first subgroup's lanes inactive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"
#include "exec/ops/tensor_layout.h"

typedef struct comp_type {
    const char *name;
    const char *decl;  /* the OpType of %ct */
    const char *caps;  /* extra capabilities and extensions */
    uint32_t size;     /* bytes */
} comp_type;

static const comp_type types[] = {
    {"int8", "OpTypeInt 8 0", "OpCapability Int8\n", 1},
    {"f16", "OpTypeFloat 16", "OpCapability Float16\n", 2},
    {"bf16", "OpTypeFloat 16 BFloat16KHR",
     "OpCapability BFloat16TypeKHR\nOpCapability BFloat16CooperativeMatrixKHR\n"
     "OpExtension \"SPV_KHR_bfloat16\"\n",
     2},
    {"int16", "OpTypeInt 16 1", "OpCapability Int16\n", 2},
    {"f32", "OpTypeFloat 32", "", 4},
    {"int32", "OpTypeInt 32 1", "", 4},
    {"f64", "OpTypeFloat 64", "OpCapability Float64\n", 8},
    {"int64", "OpTypeInt 64 0", "OpCapability Int64\n", 8},
};

/* Parameter words (binding 0): the load's layout dimensions 0,1, strides
 * 2,3, offsets 4,5, spans 6,7, clamp value 8, clip 9..12; the store's
 * dimensions 13,14, strides 15,16, offsets 17,18, spans 19,20, clip
 * 21..24; 25 the invocations of each subgroup that end before the loads. */
enum { NP = 26, SRC_BYTES = 65536, ST_BYTES = 65536 };

static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
    assert_true(w >= 0 && (size_t)w < cap - n);
}

/* The view operands of a load or store: "" (none) or " TensorView %id". */
static void view_code(char *buf, size_t cap, const char *id, uint32_t kind, uint32_t clip0)
{
    if (!kind)
        return;
    append(buf, cap, "%%%s0 = OpCreateTensorViewNV %%V%u\n", id, kind);
    append(buf, cap, "%%%s = OpTensorViewSetClipNV %%V%u %%%s0 %%w%u %%w%u %%w%u %%w%u\n", id,
           kind, id, clip0, clip0 + 1, clip0 + 2, clip0 + 3);
}

static void make_shader(char *buf, size_t cap, const comp_type *ct, uint32_t M, uint32_t N,
                        uint32_t mode, uint32_t lview, uint32_t sview)
{
    buf[0] = 0;
    append(buf, cap,
           "OpCapability Shader\nOpCapability VulkanMemoryModel\n"
           "OpCapability CooperativeMatrixKHR\nOpCapability CooperativeMatrixTensorAddressingNV\n"
           "OpCapability TensorAddressingNV\n%s"
           "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
           "OpExtension \"SPV_NV_cooperative_matrix2\"\n"
           "OpExtension \"SPV_NV_tensor_addressing\"\n"
           "OpMemoryModel Logical Vulkan\n"
           "OpEntryPoint GLCompute %%main \"main\" %%p %%src %%ld %%st %%lidx\n"
           "OpExecutionMode %%main LocalSize 64 1 1\n"
           "OpDecorate %%lidx BuiltIn LocalInvocationIndex\n"
           "OpDecorate %%rt ArrayStride 4\nOpDecorate %%B Block\n"
           "OpMemberDecorate %%B 0 Offset 0\n",
           ct->caps);
    const char *vars[4] = {"p", "src", "ld", "st"};
    for (int i = 0; i < 4; i++)
        append(buf, cap, "OpDecorate %%%s DescriptorSet 0\nOpDecorate %%%s Binding %d\n", vars[i],
               vars[i], i);
    append(buf, cap,
           "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
           "%%uint = OpTypeInt 32 0\n%%int = OpTypeInt 32 1\n%%ct = %s\n"
           "%%false = OpConstantFalse %%bool\n%%int_0 = OpConstant %%int 0\n"
           "%%cM = OpConstant %%uint %u\n%%cN = OpConstant %%uint %u\n"
           "%%cM2 = OpConstant %%uint %u\n%%c31 = OpConstant %%uint 31\n%%c32 = OpConstant %%uint 32\n",
           ct->decl, M, N, 2 * M);
    for (uint32_t k = 0; k < NP; k++)
        append(buf, cap, "%%c%u = OpConstant %%uint %u\n", k, k);
    append(buf, cap,
           "%%rt = OpTypeRuntimeArray %%uint\n%%B = OpTypeStruct %%rt\n"
           "%%pB = OpTypePointer StorageBuffer %%B\n%%pu = OpTypePointer StorageBuffer %%uint\n"
           "%%p = OpVariable %%pB StorageBuffer\n%%src = OpVariable %%pB StorageBuffer\n"
           "%%ld = OpVariable %%pB StorageBuffer\n%%st = OpVariable %%pB StorageBuffer\n"
           "%%pin = OpTypePointer Input %%uint\n%%lidx = OpVariable %%pin Input\n"
           "%%mat = OpTypeCooperativeMatrixKHR %%ct %%c3 %%cM %%cN %%c2\n"
           "%%null = OpConstantNull %%mat\n"
           "%%LL = OpTypeTensorLayoutNV %%c2 %%c%u\n%%LS = OpTypeTensorLayoutNV %%c2 %%c0\n"
           "%%V1 = OpTypeTensorViewNV %%c2 %%false %%c0 %%c1\n"
           "%%V2 = OpTypeTensorViewNV %%c2 %%false %%c1 %%c0\n"
           "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n",
           mode);
    for (uint32_t k = 0; k < NP; k++)
        append(buf, cap, "%%a%u = OpAccessChain %%pu %%p %%int_0 %%c%u\n%%w%u = OpLoad %%uint %%a%u\n",
               k, k, k, k);
    append(buf, cap,
           "%%src0 = OpAccessChain %%pu %%src %%int_0 %%c0\n"
           "%%ld0 = OpAccessChain %%pu %%ld %%int_0 %%c0\n"
           "%%st0 = OpAccessChain %%pu %%st %%int_0 %%c0\n"
           /* the subgroup: the load's row offset and the row of ld it goes to */
           "%%li = OpLoad %%uint %%lidx\n%%sg = OpShiftRightLogical %%uint %%li %%c5\n"
           "%%w4s = OpIAdd %%uint %%w4 %%sg\n%%sgM = OpIMul %%uint %%sg %%cM\n"
           /* every layout and view first, while all lanes are active */
           "%%o0 = OpCreateTensorLayoutNV %%LS\n"
           "%%o1 = OpTensorLayoutSetDimensionNV %%LS %%o0 %%cM %%cN\n"
           "%%l0 = OpCreateTensorLayoutNV %%LL\n"
           "%%l1 = OpTensorLayoutSetDimensionNV %%LL %%l0 %%w0 %%w1\n"
           "%%l2 = OpTensorLayoutSetStrideNV %%LL %%l1 %%w2 %%w3\n"
           "%%l3 = OpTensorLayoutSliceNV %%LL %%l2 %%w4s %%w6 %%w5 %%w7\n"
           "%%l4 = OpTensorLayoutSetClampValueNV %%LL %%l3 %%w8\n"
           "%%d0 = OpCreateTensorLayoutNV %%LS\n"
           "%%d1 = OpTensorLayoutSetDimensionNV %%LS %%d0 %%cM2 %%cN\n"
           "%%d2 = OpTensorLayoutSliceNV %%LS %%d1 %%sgM %%cM %%c0 %%cN\n"
           "%%s0 = OpCreateTensorLayoutNV %%LS\n"
           "%%s1 = OpTensorLayoutSetDimensionNV %%LS %%s0 %%w13 %%w14\n"
           "%%s2 = OpTensorLayoutSetStrideNV %%LS %%s1 %%w15 %%w16\n");
    view_code(buf, cap, "lv", lview, 9);
    view_code(buf, cap, "sv", sview, 21);
    append(buf, cap,
           /* the second subgroup slices in a branch (lanes 32-63 active),
            * the first stores through the layout as it is */
           "%%hi = OpUGreaterThanEqual %%bool %%li %%c32\n"
           "OpSelectionMerge %%merge None\nOpBranchConditional %%hi %%then %%merge\n"
           "%%then = OpLabel\n"
           "%%s3t = OpTensorLayoutSliceNV %%LS %%s2 %%w17 %%w19 %%w18 %%w20\n"
           "OpBranch %%merge\n%%merge = OpLabel\n"
           "%%s3 = OpPhi %%LS %%s3t %%then %%s2 %%entry\n"
           /* the first w25 invocations of each subgroup end here: the
            * loads and stores then take the layouts of invocation w25 and
            * 32 + w25 */
           "%%lk = OpBitwiseAnd %%uint %%li %%c31\n"
           "%%dead = OpULessThan %%bool %%lk %%w25\n"
           "OpSelectionMerge %%cont None\nOpBranchConditional %%dead %%ret %%cont\n"
           "%%ret = OpLabel\nOpTerminateInvocation\n%%cont = OpLabel\n"
           /* the whole matrix, plainly: 'Object' of the load, and the store to ld */
           "%%obj = OpCooperativeMatrixLoadTensorNV %%mat %%src0 %%null %%o1 None None\n"
           "%%m = OpCooperativeMatrixLoadTensorNV %%mat %%src0 %%obj %%l4 None %s\n"
           "OpCooperativeMatrixStoreTensorNV %%ld0 %%m %%d2 None None\n"
           "OpCooperativeMatrixStoreTensorNV %%st0 %%m %%s3 None %s\n",
           lview ? "TensorView %lv" : "None", sview ? "TensorView %sv" : "None");
    append(buf, cap, "OpReturn\nOpFunctionEnd\n");
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(uint32_t n)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

/* One layout's parameters at w[0..] (dimensions, strides, offsets, spans)
 * and its clip at w[clip]: mostly a tile inside the tensor.  The matrix
 * columns walk layout dimension 1, or 0 through the transposing view. */
static void draw_layout(uint32_t *w, uint32_t clip, uint32_t M, uint32_t N, uint32_t view)
{
    uint32_t want[2];
    uint32_t cp = view == 2 ? 0 : 1; /* the dimension the columns walk */
    want[cp] = N;
    want[1 - cp] = M;
    if (view && rnd(2)) {
        w[clip] = rnd(4), w[clip + 1] = rnd(M + 3);
        w[clip + 2] = rnd(4), w[clip + 3] = rnd(N + 3);
    } else {
        w[clip] = 0, w[clip + 1] = 0xFFFFFFFFu, w[clip + 2] = 0, w[clip + 3] = 0xFFFFFFFFu;
    }
    for (int d = 0; d < 2; d++) {
        uint32_t span = rnd(6) ? want[d] : 1 + rnd(want[d] + 4);
        uint32_t dim = rnd(12) == 0 ? 1 + rnd(8) : span + rnd(12);
        int32_t off = rnd(6) && dim >= span ? (int32_t)rnd(dim - span + 1)
                                            : (int32_t)rnd(dim + 10) - 5;
        w[d] = dim;
        w[4 + d] = (uint32_t)off;
        w[6 + d] = span;
    }
    /* strides: the defaults of OpTensorLayoutSetDimensionNV, or others
     * (padded rows, a step in the inner dimension, overlapping rows) */
    w[3] = rnd(6) ? 1 : rnd(4);
    w[2] = rnd(5) ? w[1] * w[3] + (rnd(2) ? 0 : rnd(6)) : rnd(48);
}

/* Which fast path the engine's tile test picks for a load or store with
 * these words (counted, so the test shows it covered them): 0 not a tile,
 * 1 a tile of rows, 2 a transposed tile. */
static int tile_kind(const uint32_t *w, uint32_t clip, uint32_t mode, uint32_t view, uint32_t M,
                     uint32_t N)
{
    cvm_tensor_layout t;
    cvm_tensor_view v;
    uint32_t dims[2] = {w[0], w[1]}, strides[2] = {w[2], w[3]}, spans[2] = {w[6], w[7]};
    int32_t offs[2] = {(int32_t)w[4], (int32_t)w[5]};
    assert_int_equal(cvm_tensor_layout_create(2, mode, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_dimension(&t, dims, 2, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_stride(&t, strides, 2, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(&t, offs, spans, 2, &t), CVM_SUCCESS);
    if (view) {
        const uint32_t perm[2][2] = {{0, 1}, {1, 0}};
        assert_int_equal(cvm_tensor_view_create(2, false, perm[view - 1], 2, &v), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_view_set_clip(&v, w[clip], w[clip + 1], w[clip + 2],
                                                  w[clip + 3], &v),
                         CVM_SUCCESS);
    }
    cvm_tensor_tile tile;
    uint64_t rows[64];
    assert_true(M <= 64);
    if (!cvm_tensor_tile_plan(&t, view ? &v : NULL, M, N, &tile, rows))
        return 0;
    int transposed = tile.col_step != 1 && tile.row_count > 1;
    for (uint32_t r = 1; transposed && r < tile.row_count; r++)
        transposed = rows[r] == rows[r - 1] + 1;
    return transposed ? 2 : 1;
}

typedef struct counts {
    int kinds[2][3]; /* [store][tile_kind] */
    int passed, failed;
} counts;

static void run_case(const comp_type *ct, uint32_t M, uint32_t N, uint32_t mode, uint32_t lview,
                     uint32_t sview, uint32_t trials, counts *o_counts)
{
    static char text[32768];
    make_shader(text, sizeof text, ct, M, N, mode, lview, sview);
    static uint32_t params[NP];
    static uint8_t src[SRC_BYTES], ld[2][64 * 64 * 8], st[2][ST_BYTES], st_in[ST_BYTES];
    for (uint32_t t = 0; t < trials; t++) {
        draw_layout(params, 9, M, N, lview);
        params[8] = rnd(0xFFFFFFFFu);
        draw_layout(params + 13, 21 - 13, M, N, sview);
        params[25] = rnd(2) ? 0 : rnd(32);
        for (size_t i = 0; i < sizeof src; i++)
            src[i] = (uint8_t)rnd(256);
        for (size_t i = 0; i < sizeof st_in; i++)
            st_in[i] = (uint8_t)rnd(256);
        int robust = rnd(4) == 0;
        /* now and then a short source (never shorter than the plain load of
         * 'Object') or store buffer */
        size_t whole = (size_t)M * N * ct->size;
        size_t src_size = rnd(5) ? SRC_BYTES : (whole + rnd(4096) + 3) & ~(size_t)3;
        size_t st_size = rnd(5) ? ST_BYTES : (1 + rnd(8192)) * 4;
        if (src_size > SRC_BYTES)
            src_size = SRC_BYTES;
        o_counts->kinds[0][tile_kind(params, 9, mode, lview, M, N)]++;
        o_counts->kinds[1][tile_kind(params + 13, 21 - 13, 0, sview, M, N)]++;
        asm_result rr[2];
        for (int ref = 0; ref < 2; ref++) {
            memset(ld[ref], 0x5A, sizeof ld[ref]);
            memcpy(st[ref], st_in, sizeof st_in);
            void *bufs[4] = {params, src, ld[ref], st[ref]};
            size_t sizes[4] = {sizeof params, src_size, 2 * whole, st_size};
            asm_params p;
            memset(&p, 0, sizeof p);
            p.subgroup_size = 32;
            p.threads = 1;
            p.flags = (robust ? CVM_FLAG_ROBUST_ACCESS : 0) | (ref ? CVM_FLAG_REFERENCE_PATHS : 0);
            rr[ref] = asm_run(text, &p, bufs, sizes, 4);
            if (rr[ref].create != CVM_SUCCESS)
                fail_msg("%s %ux%u mode %u views %u/%u: %s", ct->name, M, N, mode, lview, sview,
                         rr[ref].message);
        }
        if (rr[0].dispatch != rr[1].dispatch || strcmp(rr[0].message, rr[1].message))
            fail_msg("%s %ux%u mode %u views %u/%u trial %u: fast %s '%s', reference %s '%s'",
                     ct->name, M, N, mode, lview, sview, t, cvm_result_string(rr[0].dispatch),
                     rr[0].message, cvm_result_string(rr[1].dispatch), rr[1].message);
        if (memcmp(ld[0], ld[1], 2 * whole) || memcmp(st[0], st[1], st_size))
            fail_msg("%s %ux%u mode %u views %u/%u trial %u robust %d: the %s buffer differs",
                     ct->name, M, N, mode, lview, sview, t, robust,
                     memcmp(ld[0], ld[1], 2 * whole) ? "ld" : "st");
        if (rr[0].dispatch == CVM_SUCCESS)
            o_counts->passed++;
        else
            o_counts->failed++;
    }
}

static void test_tensor_paths(void **state)
{
    (void)state;
    /* sizes with full and partial 8 x 8 (and 4 x 4) blocks either way */
    static const uint32_t sizes[][2] = {{19, 37}, {32, 16}};
    counts c;
    memset(&c, 0, sizeof c);
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (uint32_t mode = 0; mode < 5; mode++)
            for (uint32_t lview = 0; lview < 3; lview++)
                for (size_t si = 0; si < 2; si++)
                    run_case(&types[ti], sizes[si][0], sizes[si][1], mode, lview,
                             (lview + 2 * si + mode) % 3, 8, &c);
    print_message("loads: %d not tiles, %d row tiles, %d transposed tiles; stores: %d, %d, %d; "
                  "%d passed, %d failed\n",
                  c.kinds[0][0], c.kinds[0][1], c.kinds[0][2], c.kinds[1][0], c.kinds[1][1],
                  c.kinds[1][2], c.passed, c.failed);
    /* every kind of path was taken, and both outcomes occurred */
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++)
            assert_true(c.kinds[s][k] >= 100);
    assert_true(c.passed >= 500 && c.failed >= 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensor_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
