/* SPV_QCOM_cooperative_matrix_conversion through the public API, against
 * plain models written from the text (SPIR-V extension, GLSL extension):
 *
 *   construct  invocation i's array is row i (MatrixA, Accumulator) or
 *              column i (MatrixB); a uint32 array holds the elements packed,
 *              the lowest element in the lowest bits;
 *   extract    the inverse; invocations at or past the row (column) count
 *              get the undefined value, which coopvm defines as zero, or a
 *              poison value in the checking mode;
 *   sub-array  dst[i] = src[start + i];
 *   bit cast   the same bytes.
 *
 * Every (Use, component type, unpacked/packed) form runs at subgroup sizes
 * 8, 16, 32, 64 and 128 with lines (rows or columns) equal to and fewer than
 * the subgroup size, in full and partial subgroups, in the default and the
 * checking mode.  The shaders come from tests/shaders/qcom_gen.py.  Buffers
 * are compared byte for byte; the models read and write them as
 * little-endian bytes, never through the engine's layouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "coopvm.h"
#include "exec/program.h"
#include "spirv/module.h"

#define LINE 512u      /* bytes between the arrays of two invocations (qcom_gen.py) */
#define SENTINEL 0xA5u /* bytes no instruction should write */
#define USE_A 0u
#define USE_B 1u
#define USE_ACC 2u

/* ---- running a shader ---------------------------------------------------------- */

typedef struct run_args {
    char shader[64];
    cvm_specialization specs[8];
    uint32_t nspecs;
    uint8_t *bufs[8];
    size_t sizes[8];
    uint32_t nbufs;
    uint32_t sg, flags;
} run_args;

static void spec(run_args *a, uint32_t id, uint32_t value)
{
    a->specs[a->nspecs].constant_id = id;
    a->specs[a->nspecs].size = 4;
    a->specs[a->nspecs].bits = value;
    a->nspecs++;
}

static uint8_t *buf(run_args *a, size_t size)
{
    uint8_t *p = malloc(size ? size : 1);
    assert_non_null(p);
    memset(p, SENTINEL, size);
    a->bufs[a->nbufs] = p;
    a->sizes[a->nbufs] = size;
    a->nbufs++;
    return p;
}

static void free_bufs(run_args *a)
{
    for (uint32_t i = 0; i < a->nbufs; i++)
        free(a->bufs[i]);
    a->nbufs = 0;
}

/* `stage`: 0 when the pipeline could not be created, 1 when the dispatch
 * failed or passed. */
static cvm_result run(const run_args *a, cvm_diagnostic *d, int *stage)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/shaders/%s.spv", CVM_TEST_DATA_DIR, a->shader);
    cvm_context_desc cd;
    memset(&cd, 0, sizeof(cd));
    cd.threads = 1;
    cd.subgroup_size = a->sg;
    cd.flags = a->flags;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pl = NULL;
    memset(d, 0, sizeof(*d));
    *stage = 0;
    cvm_result r = cvm_context_create(&cd, &ctx, d);
    if (r == CVM_SUCCESS)
        r = cvm_module_create_from_file(ctx, path, &mod, d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, a->specs, a->nspecs, &pl, d);
    for (uint32_t i = 0; i < a->nbufs && r == CVM_SUCCESS; i++)
        r = cvm_pipeline_bind_buffer(pl, 0, i, 0, a->bufs[i], a->sizes[i], d);
    if (r == CVM_SUCCESS) {
        *stage = 1;
        r = cvm_pipeline_dispatch(pl, 1, 1, 1, d);
    }
    cvm_pipeline_destroy(pl);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    return r;
}

static void run_ok(const run_args *a)
{
    cvm_diagnostic d;
    int stage;
    cvm_result r = run(a, &d, &stage);
    if (r != CVM_SUCCESS)
        print_error("%s (subgroup %u): %s: %s\n", a->shader, a->sg, cvm_result_string(r),
                    d.message);
    assert_int_equal(r, CVM_SUCCESS);
}

/* Expects status `want` at `stage` (0 pipeline creation, 1 dispatch) with a
 * message that names `insn` and contains `words`. */
static void run_fails(const run_args *a, cvm_result want, int want_stage, const char *insn,
                      const char *words)
{
    cvm_diagnostic d;
    int stage;
    cvm_result r = run(a, &d, &stage);
    if (r != want || stage != want_stage || !strstr(d.message, insn) ||
        (words && !strstr(d.message, words)))
        print_error("%s: got %s at stage %d: %s\n", a->shader, cvm_result_string(r), stage,
                    d.message);
    assert_int_equal(r, want);
    assert_int_equal(stage, want_stage);
    assert_non_null(strstr(d.message, insn));
    if (words)
        assert_non_null(strstr(d.message, words));
}

/* ---- data and bytes ---------------------------------------------------------------- */

static uint32_t rng_state = 12345u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rnd() >> 7);
}

static uint32_t get_le(const uint8_t *p, uint32_t n)
{
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static void put_le(uint8_t *p, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void expect_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *what,
                         const run_args *a)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            print_error("%s: %s differs at byte %zu: got 0x%02x, want 0x%02x (subgroup %u, "
                        "flags %u)\n",
                        a->shader, what, i, got[i], want[i], a->sg, a->flags);
            fail();
        }
    }
}

/* Element sizes and names of the component / array kinds of qcom_gen.py. */
typedef enum kind { S8, U8, F16, F32, S32, U32 } kind;
static const char *const kind_names[] = {"s8", "u8", "f16", "f32", "s32", "u32"};
static const uint32_t kind_size[] = {1, 1, 2, 4, 4, 4};
static const char *const use_names[] = {"a", "b", "acc"};

/* The value the checking mode gives what the text leaves undefined
 * (documented in src/exec/ops/qcom.c); zero otherwise. */
static uint32_t undefined_value(kind k, int check)
{
    if (!check)
        return 0;
    switch (k) {
    case F32: return 0x7FC0DEADu;
    case F16: return 0x7EADu;
    case S8:
    case U8: return 0xDEu;
    default: return 0xDEADBEEFu;
    }
}

/* The fixed K of MatrixA (columns) and MatrixB (rows) by component type:
 * 8, 16, 32 and 32 for f32, f16, s8 and u8. */
static uint32_t text_k(kind c)
{
    return c == F32 ? 8u : c == F16 ? 16u : 32u;
}

/* ---- construct and extract --------------------------------------------------------------- */

typedef struct conv_case {
    kind c, e;             /* component, array element */
    uint32_t use, rows, cols;
    uint32_t sg, wg, flags;
} conv_case;

/* Element k of invocation `lane`'s line as the text reads the array: the
 * element itself, or bits [k*w, (k+1)*w) of the uint32 words. */
static uint32_t array_element(const uint8_t *arr, kind c, kind e, uint32_t k)
{
    uint32_t cs = kind_size[c];
    if (e == c)
        return get_le(arr + k * cs, cs);
    uint32_t bit = k * cs * 8;
    uint32_t word = get_le(arr + bit / 32 * 4, 4);
    uint32_t v = word >> (bit % 32);
    return cs == 4 ? v : v & ((1u << (8 * cs)) - 1u);
}

static void check_conv(const conv_case *t)
{
    uint32_t cs = kind_size[t->c], es = kind_size[t->e];
    int check = (t->flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    uint32_t lines = t->use == USE_B ? t->cols : t->rows;
    uint32_t len = t->use == USE_B ? t->rows : t->cols; /* elements per line */
    uint32_t alen = t->e == t->c ? len : len * cs / 4;  /* array length */
    uint32_t nsub = (t->wg + t->sg - 1) / t->sg, mn = t->rows * t->cols;
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_conv_%s_%s_%s", use_names[t->use],
             kind_names[t->c], kind_names[t->e]);
    a.sg = t->sg;
    a.flags = t->flags;
    spec(&a, 0, t->rows);
    spec(&a, 1, t->cols);
    spec(&a, 2, alen);
    spec(&a, 4, t->wg);
    spec(&a, 5, 3);
    uint8_t *ain = buf(&a, (size_t)t->wg * LINE);
    uint8_t *mout = buf(&a, (size_t)nsub * mn * cs);
    uint8_t *min = buf(&a, (size_t)nsub * mn * cs);
    uint8_t *aout = buf(&a, (size_t)t->wg * LINE);
    fill_random(ain, (size_t)t->wg * LINE);
    fill_random(min, (size_t)nsub * mn * cs);
    run_ok(&a);

    /* construct: element (r, c) of subgroup s's matrix */
    uint8_t *want = malloc((size_t)nsub * mn * cs);
    assert_non_null(want);
    for (uint32_t s = 0; s < nsub; s++) {
        uint32_t here = t->wg - s * t->sg < t->sg ? t->wg - s * t->sg : t->sg;
        for (uint32_t r = 0; r < t->rows; r++) {
            for (uint32_t c = 0; c < t->cols; c++) {
                uint32_t i = t->use == USE_B ? c : r, k = t->use == USE_B ? r : c;
                uint32_t v = i < here ? array_element(ain + (size_t)(s * t->sg + i) * LINE, t->c,
                                                      t->e, k)
                                      : undefined_value(t->c, check);
                put_le(want + ((size_t)s * mn + (size_t)r * t->cols + c) * cs, cs, v);
            }
        }
    }
    expect_bytes(mout, want, (size_t)nsub * mn * cs, "constructed matrix", &a);
    free(want);

    /* extract: invocation g of subgroup s gets line g - s*sg */
    uint8_t *wa = malloc((size_t)t->wg * LINE);
    assert_non_null(wa);
    memset(wa, SENTINEL, (size_t)t->wg * LINE);
    for (uint32_t g = 0; g < t->wg; g++) {
        uint32_t s = g / t->sg, i = g % t->sg;
        uint8_t *dst = wa + (size_t)g * LINE;
        const uint8_t *m = min + (size_t)s * mn * cs;
        if (i >= lines) {
            for (uint32_t k = 0; k < alen; k++)
                put_le(dst + k * es, es, undefined_value(t->e, check));
            continue;
        }
        for (uint32_t k = 0; k < len; k++) {
            uint32_t r = t->use == USE_B ? k : i, c = t->use == USE_B ? i : k;
            uint32_t v = get_le(m + ((size_t)r * t->cols + c) * cs, cs);
            if (t->e == t->c) {
                put_le(dst + k * cs, cs, v);
            } else { /* OR the element into its word */
                uint32_t bit = k * cs * 8;
                uint32_t w = k * cs % 4 == 0 ? 0 : get_le(dst + bit / 32 * 4, 4);
                put_le(dst + bit / 32 * 4, 4, w | v << (bit % 32));
            }
        }
    }
    expect_bytes(aout, wa, (size_t)t->wg * LINE, "extracted arrays", &a);
    free(wa);
    free_bufs(&a);
}

/* Shapes per Use for subgroup size sg: lines equal to sg and fewer. */
static void conv_shapes(kind c, kind e, uint32_t use, uint32_t sg)
{
    uint32_t shapes[3][2];
    uint32_t n = 0;
    if (use == USE_A) {
        uint32_t k = text_k(c);
        uint32_t r[3] = {sg, 5 < sg ? 5 : sg - 1, 1};
        for (uint32_t i = 0; i < 3; i++) {
            shapes[n][0] = r[i] ? r[i] : 1;
            shapes[n++][1] = k;
        }
    } else if (use == USE_B) {
        uint32_t k = text_k(c);
        uint32_t cl[3] = {sg, 5 < sg ? 5 : sg - 1, 1};
        for (uint32_t i = 0; i < 3; i++) {
            shapes[n][0] = k;
            shapes[n++][1] = cl[i] ? cl[i] : 1;
        }
    } else {
        /* rows and columns up to sg; even columns so f16 packs in words */
        shapes[0][0] = sg;
        shapes[0][1] = sg;
        shapes[1][0] = 5;
        shapes[1][1] = 6;
        shapes[2][0] = 1;
        shapes[2][1] = 2;
        n = 3;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t wgs[2] = {2 * sg, 2 * sg + sg / 2}; /* full; the last subgroup partial */
        for (uint32_t w = 0; w < 2; w++) {
            for (uint32_t f = 0; f < 2; f++) {
                conv_case t = {c, e, use, shapes[i][0], shapes[i][1], sg, wgs[w],
                               f ? (uint32_t)CVM_FLAG_CHECK_CALLBACKS : 0u};
                check_conv(&t);
            }
        }
    }
}

static const uint32_t sizes[] = {8, 16, 32, 64, 128};

static void test_matrix_a_b(void **state)
{
    (void)state;
    static const kind comps[] = {S8, U8, F16, F32};
    uint32_t forms = 0;
    for (size_t s = 0; s < 5; s++)
        for (size_t ci = 0; ci < 4; ci++)
            for (int packed = 0; packed < 2; packed++)
                for (uint32_t use = USE_A; use <= USE_B; use++) {
                    conv_shapes(comps[ci], packed ? U32 : comps[ci], use, sizes[s]);
                    forms++;
                }
    assert_int_equal(forms, 5 * 4 * 2 * 2);
}

static void test_accumulator(void **state)
{
    (void)state;
    /* s32, u32, f16, f32 unpacked; s32, f16, f32 packed (u32 packed is u32) */
    static const kind forms[][2] = {{S32, S32}, {U32, U32}, {F16, F16}, {F32, F32},
                                    {S32, U32}, {F16, U32}, {F32, U32}};
    for (size_t s = 0; s < 5; s++)
        for (size_t i = 0; i < 7; i++)
            conv_shapes(forms[i][0], forms[i][1], USE_ACC, sizes[s]);
}

/* The subgroup sizes below 8 that the engine also supports: the shapes that
 * fit still work (MatrixA f32 with 8 columns, 4 rows at subgroup size 4). */
static void test_small_subgroups(void **state)
{
    (void)state;
    for (uint32_t sg = 1; sg <= 4; sg *= 2) {
        conv_case a = {F32, U32, USE_A, sg, 8, sg, 3 * sg, 0};
        check_conv(&a);
        conv_case acc = {F16, U32, USE_ACC, sg, sg == 1 ? 2 : sg, sg, 3 * sg, 0};
        if (sg > 1)
            check_conv(&acc);
    }
}

/* Invocations that returned from the entry point before the construct: the
 * rest did not reach it as the whole subgroup, which the engine reports as
 * for the KHR collective instructions (the returned invocations are still
 * live for it). */
static void test_returned_invocations(void **state)
{
    (void)state;
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_ended");
    a.sg = 8;
    spec(&a, 4, 16);
    buf(&a, 16 * LINE);
    buf(&a, 2 * 64 * 4);
    run_fails(&a, CVM_ERROR_DIVERGENT_COLLECTIVE, 1, "OpCompositeConstructCoopMatQCOM",
              "only 6 of the 8");
    free_bufs(&a);
}

/* ---- bad input -------------------------------------------------------------------------------- */

static void bad_conv(kind c, kind e, uint32_t use, uint32_t rows, uint32_t cols, uint32_t len,
                     uint32_t scope, uint32_t sg, cvm_result want, int stage, const char *insn,
                     const char *words)
{
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_conv_%s_%s_%s", use_names[use], kind_names[c],
             kind_names[e]);
    a.sg = sg;
    spec(&a, 0, rows);
    spec(&a, 1, cols);
    spec(&a, 2, len);
    spec(&a, 4, 2 * sg);
    spec(&a, 5, scope);
    uint32_t nsub = 2, mn = rows * cols;
    buf(&a, 2 * sg * LINE);
    buf(&a, (size_t)nsub * mn * kind_size[c]);
    buf(&a, (size_t)nsub * mn * kind_size[c]);
    buf(&a, 2 * sg * LINE);
    run_fails(&a, want, stage, insn, words);
    free_bufs(&a);
}

#define CONSTRUCT "OpCompositeConstructCoopMatQCOM"
#define EXTRACT "OpCompositeExtractCoopMatQCOM"

static void test_bad_shapes(void **state)
{
    (void)state;
    cvm_result inv = CVM_ERROR_INVALID_MODULE;
    /* array lengths the text does not allow */
    bad_conv(F16, F16, USE_A, 8, 16, 8, 3, 32, inv, 0, CONSTRUCT, "length 16");
    bad_conv(F16, U32, USE_A, 8, 16, 16, 3, 32, inv, 0, CONSTRUCT, "length 8");
    bad_conv(S8, U32, USE_B, 32, 8, 32, 3, 32, inv, 0, CONSTRUCT, "length 8");
    bad_conv(F16, U32, USE_ACC, 8, 8, 8, 3, 32, inv, 0, CONSTRUCT, "length 4");
    bad_conv(F32, F32, USE_ACC, 8, 8, 4, 3, 32, inv, 0, CONSTRUCT, "length 8");
    /* Acc f16 packed with an odd number of columns */
    bad_conv(F16, U32, USE_ACC, 8, 5, 2, 3, 32, inv, 0, CONSTRUCT, "packed");
    /* K other than 8/16/32/32 */
    bad_conv(F16, F16, USE_A, 8, 8, 8, 3, 32, inv, 0, CONSTRUCT, "16 columns");
    bad_conv(S8, S8, USE_B, 16, 8, 16, 3, 32, inv, 0, CONSTRUCT, "32 rows");
    bad_conv(U8, U8, USE_A, 8, 16, 16, 3, 32, inv, 0, CONSTRUCT, "32 columns");
    bad_conv(F32, U32, USE_B, 16, 8, 16, 3, 32, inv, 0, CONSTRUCT, "8 rows");
    /* component types the text does not allow for the Use */
    bad_conv(S32, S32, USE_A, 8, 8, 8, 3, 32, inv, 0, CONSTRUCT, "component type");
    bad_conv(U32, U32, USE_B, 8, 8, 8, 3, 32, inv, 0, CONSTRUCT, "component type");
    bad_conv(S8, S8, USE_ACC, 8, 8, 8, 3, 32, inv, 0, CONSTRUCT, "component type");
    bad_conv(U8, U8, USE_ACC, 8, 8, 8, 3, 32, inv, 0, CONSTRUCT, "component type");
    /* array element types the text does not allow */
    bad_conv(F16, S32, USE_A, 8, 16, 8, 3, 32, inv, 0, CONSTRUCT, "element type");
    bad_conv(S8, U8, USE_A, 8, 32, 32, 3, 32, inv, 0, CONSTRUCT, "element type");
    /* Workgroup scope */
    bad_conv(F32, F32, USE_A, 8, 8, 8, 2, 32, inv, 0, CONSTRUCT, "Subgroup scope");
    /* lines past SubgroupSize: found when the instruction runs */
    bad_conv(F32, F32, USE_A, 64, 8, 8, 3, 32, inv, 1, CONSTRUCT, "SubgroupSize (32)");
    bad_conv(F32, F32, USE_B, 8, 16, 8, 3, 8, inv, 1, CONSTRUCT, "SubgroupSize (8)");
    bad_conv(S32, S32, USE_ACC, 8, 32, 32, 3, 16, inv, 1, CONSTRUCT, "SubgroupSize (16)");
    bad_conv(S32, S32, USE_ACC, 32, 8, 8, 3, 16, inv, 1, CONSTRUCT, "SubgroupSize (16)");
    /* ... in the text's words (glslang's spv.qcom.coopmatConversion.1.comp) */
    bad_conv(F32, F32, USE_A, 64, 8, 8, 3, 32, inv, 1, CONSTRUCT,
             "\"its Rows must be one of the supported cooperative matrix row sizes that are "
             "less than or equal to SubgroupSize\"");
    bad_conv(F32, F32, USE_B, 8, 16, 8, 3, 8, inv, 1, CONSTRUCT,
             "\"its Columns must be one of the supported cooperative matrix column sizes that "
             "are less than or equal to SubgroupSize\"");
    bad_conv(S32, S32, USE_ACC, 32, 8, 8, 3, 16, inv, 1, CONSTRUCT,
             "\"its Rows and Columns must be one of the supported cooperative matrix row and "
             "column sizes, respectively, that are less than or equal to SubgroupSize\"");
}

/* The extract's own rules: qcom_chain's f16 accumulator extracted packed
 * into HALF words, HALF not COLS/2. */
static void test_bad_extract(void **state)
{
    (void)state;
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_chain");
    a.sg = 32;
    spec(&a, 0, 8);
    spec(&a, 1, 8);
    spec(&a, 2, 8);
    spec(&a, 4, 32);
    for (int i = 0; i < 7; i++)
        buf(&a, 32 * LINE);
    run_fails(&a, CVM_ERROR_INVALID_MODULE, 0, EXTRACT, "length 4");
    free_bufs(&a);
}

static void test_divergent(void **state)
{
    (void)state;
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_divergent");
    a.sg = 32;
    buf(&a, 32 * LINE);
    buf(&a, 64 * 4);
    run_fails(&a, CVM_ERROR_DIVERGENT_COLLECTIVE, 1, CONSTRUCT, "only 5 of the 32");
    free_bufs(&a);
}

/* A subgroup size that is not a power of two cannot come through the API
 * (cvm_context_create refuses it); the engine still refuses to run the
 * instruction under one: a group of 32 lanes in subgroups of 24. */
static void test_subgroup_not_power_of_two(void **state)
{
    (void)state;
    size_t n = 0;
    char path[512];
    snprintf(path, sizeof(path), "%s/shaders/qcom_const.spv", CVM_TEST_DATA_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint32_t words[4096];
    n = fread(words, 4, 4096, f);
    fclose(f);
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    spv_binary bin;
    spv_module mod;
    cvm_program *prog = NULL;
    cvm_group *g = NULL;
    assert_int_equal(spv_binary_open(&bin, words, n, &d), CVM_SUCCESS);
    assert_int_equal(spv_module_parse(&mod, &bin, &d), CVM_SUCCESS);
    assert_int_equal(cvm_program_build(&mod, NULL, NULL, 0, &prog, &d), CVM_SUCCESS);
    for (uint32_t sg = 24; sg <= 32; sg += 8) {
        cvm_group_desc gd = {32, sg, 0, 16, UINT64_C(1) << 26, NULL, 0, NULL, NULL};
        assert_int_equal(cvm_group_create(prog, &gd, NULL, 0, NULL, 0, &g, &d), CVM_SUCCESS);
        uint32_t gid[3] = {0, 0, 0}, ng[3] = {1, 1, 1};
        uint64_t budget = 1000000;
        cvm_result r = cvm_group_run(g, gid, ng, &budget, &d);
        if (sg == 24) {
            assert_int_equal(r, CVM_ERROR_INVALID_ARGUMENT);
            assert_non_null(strstr(d.message, CONSTRUCT));
            assert_non_null(strstr(d.message, "not a power of two"));
        } else {
            assert_int_equal(r, CVM_SUCCESS); /* the same module at 32 */
        }
        cvm_group_destroy(g);
    }
    cvm_program_destroy(prog);
    spv_module_release(&mod);
}

/* ---- bit cast ------------------------------------------------------------------------------------ */

static void test_bitcast(void **state)
{
    (void)state;
    static const kind ks[] = {U32, S32, F32, F16};
    static const uint32_t bytes[] = {32, 128, 256, 4};
    for (size_t s = 0; s < 4; s++) {
        for (size_t d = 0; d < 4; d++) {
            for (size_t b = 0; b < 4; b++) {
                run_args a;
                memset(&a, 0, sizeof(a));
                snprintf(a.shader, sizeof(a.shader), "qcom_bitcast_%s_%s", kind_names[ks[s]],
                         kind_names[ks[d]]);
                a.sg = 16;
                spec(&a, 0, bytes[b] / kind_size[ks[s]]);
                spec(&a, 1, bytes[b] / kind_size[ks[d]]);
                spec(&a, 4, 24);
                uint8_t *in = buf(&a, 24 * LINE);
                uint8_t *out = buf(&a, 24 * LINE);
                fill_random(in, 24 * LINE);
                run_ok(&a);
                uint8_t *want = malloc(24 * LINE);
                assert_non_null(want);
                memset(want, SENTINEL, 24 * LINE);
                for (uint32_t g = 0; g < 24; g++)
                    memcpy(want + g * LINE, in + g * LINE, bytes[b]);
                expect_bytes(out, want, 24 * LINE, "bit cast", &a);
                free(want);
                free_bufs(&a);
            }
        }
    }
}

static void bad_bitcast(const char *shader, uint32_t slen, uint32_t dlen, const char *words)
{
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "%s", shader);
    a.sg = 32;
    spec(&a, 0, slen);
    spec(&a, 1, dlen);
    buf(&a, 32 * LINE);
    buf(&a, 32 * LINE);
    run_fails(&a, CVM_ERROR_INVALID_MODULE, 0, "OpBitCastArrayQCOM", words);
    free_bufs(&a);
}

static void test_bad_bitcast(void **state)
{
    (void)state;
    bad_bitcast("qcom_bitcast_u32_f16", 8, 8, "same size");
    bad_bitcast("qcom_bitcast_f16_f32", 6, 2, "same size");
    bad_bitcast("qcom_bitcast_u8_u32", 32, 8, "Source Array");
}

/* ---- sub-array ---------------------------------------------------------------------------------- */

static void check_subarray(kind t, uint32_t slen, uint32_t dlen, uint32_t start_const, uint32_t wg,
                           uint32_t sg)
{
    uint32_t es = kind_size[t];
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_subarray_%s", kind_names[t]);
    a.sg = sg;
    spec(&a, 0, slen);
    spec(&a, 1, dlen);
    spec(&a, 2, start_const);
    spec(&a, 4, wg);
    uint8_t *in = buf(&a, (size_t)wg * LINE);
    uint8_t *idx = buf(&a, (size_t)wg * 4);
    uint8_t *out = buf(&a, (size_t)wg * LINE);
    uint8_t *cout = buf(&a, (size_t)wg * LINE);
    fill_random(in, (size_t)wg * LINE);
    for (uint32_t g = 0; g < wg; g++)
        put_le(idx + g * 4, 4, rnd() % (slen - dlen + 1));
    run_ok(&a);
    uint8_t *want = malloc((size_t)wg * LINE), *wantc = malloc((size_t)wg * LINE);
    assert_non_null(want);
    assert_non_null(wantc);
    memset(want, SENTINEL, (size_t)wg * LINE);
    memset(wantc, SENTINEL, (size_t)wg * LINE);
    for (uint32_t g = 0; g < wg; g++) {
        uint32_t s = get_le(idx + g * 4, 4);
        for (uint32_t i = 0; i < dlen; i++) { /* dst[i] = src[start + i] */
            memcpy(want + (size_t)g * LINE + i * es, in + (size_t)g * LINE + (s + i) * es, es);
            memcpy(wantc + (size_t)g * LINE + i * es,
                   in + (size_t)g * LINE + (start_const + i) * es, es);
        }
    }
    expect_bytes(out, want, (size_t)wg * LINE, "sub-array (run-time start)", &a);
    expect_bytes(cout, wantc, (size_t)wg * LINE, "sub-array (constant start)", &a);
    free(want);
    free(wantc);
    free_bufs(&a);
}

static void test_subarray(void **state)
{
    (void)state;
    static const kind ks[] = {U32, S32, F32, F16};
    for (size_t k = 0; k < 4; k++) {
        uint32_t slen = 128 / kind_size[ks[k]] * 2; /* 64 words or 128 halves */
        check_subarray(ks[k], slen, 8, 0, 40, 32);
        check_subarray(ks[k], slen, 16, slen - 16, 40, 8);
        check_subarray(ks[k], slen, 8, 3, 24, 16); /* not a multiple of the length */
        check_subarray(ks[k], slen, slen, 0, 16, 16);
        check_subarray(ks[k], slen, 1, slen - 1, 16, 128);
    }
}

static void bad_subarray(const char *shader, uint32_t slen, uint32_t dlen, uint32_t start_const,
                         int32_t lane3_start, cvm_result want, int stage, const char *words)
{
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "%s", shader);
    a.sg = 32;
    spec(&a, 0, slen);
    spec(&a, 1, dlen);
    spec(&a, 2, start_const);
    spec(&a, 4, 32);
    buf(&a, 32 * LINE);
    uint8_t *idx = buf(&a, 32 * 4);
    buf(&a, 32 * LINE);
    buf(&a, 32 * LINE);
    memset(idx, 0, 32 * 4);
    put_le(idx + 3 * 4, 4, (uint32_t)lane3_start);
    run_fails(&a, want, stage, "OpExtractSubArrayQCOM", words);
    free_bufs(&a);
}

static void test_bad_subarray(void **state)
{
    (void)state;
    cvm_result oob = CVM_ERROR_OUT_OF_BOUNDS;
    bad_subarray("qcom_subarray_f32", 16, 8, 0, 9, oob, 1, "invocation 3: Start Index 9");
    bad_subarray("qcom_subarray_f32", 16, 8, 0, -1, oob, 1, "invocation 3: Start Index -1");
    bad_subarray("qcom_subarray_f16", 16, 8, 0, INT32_MIN, oob, 1, "Start Index -2147483648");
    /* a specialization-constant start past the end (uint, as glslang emits it) */
    bad_subarray("qcom_subarray_u32", 16, 8, 12, 0, oob, 1, "invocation 0: Start Index 12");
    bad_subarray("qcom_subarray_u32", 16, 8, 0x80000000u, 0, oob, 1, "Start Index 2147483648");
    /* a result longer than the source: no start index fits */
    bad_subarray("qcom_subarray_s32", 8, 16, 0, 0, oob, 1, "length 8");
    bad_subarray("qcom_subarray_u32_f32", 16, 8, 0, 0, CVM_ERROR_INVALID_MODULE, 0,
                 "Source Array's element type");
    bad_subarray("qcom_subarray_fstart", 16, 8, 0, 0, CVM_ERROR_INVALID_MODULE, 0,
                 "32-bit integer");
}

/* ---- together with MulAdd, load/store, element access and matrix-2 -------------------------------- */

/* f16 bits of a small integer (|v| <= 2048, exact). */
static uint16_t f16_of_int(int v)
{
    if (v == 0)
        return 0;
    uint16_t sign = v < 0 ? 0x8000u : 0;
    uint32_t m = (uint32_t)(v < 0 ? -v : v);
    int e = 0;
    while ((m >> e) > 1)
        e++;
    uint32_t frac = (m - (1u << e)) << (10 - e);
    return (uint16_t)(sign | (uint32_t)(e + 15) << 10 | frac);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void check_chain(uint32_t sg, uint32_t rows, uint32_t cols, uint32_t wg, uint32_t flags)
{
    int check = (flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    uint32_t nsub = (wg + sg - 1) / sg, mn = rows * cols;
    run_args a;
    memset(&a, 0, sizeof(a));
    snprintf(a.shader, sizeof(a.shader), "qcom_chain");
    a.sg = sg;
    a.flags = flags;
    spec(&a, 0, rows);
    spec(&a, 1, cols);
    spec(&a, 2, cols / 2);
    spec(&a, 4, wg);
    uint8_t *ain = buf(&a, (size_t)wg * LINE), *bin = buf(&a, (size_t)wg * LINE);
    uint8_t *cin = buf(&a, (size_t)nsub * mn * 4);
    uint8_t *dout = buf(&a, (size_t)wg * LINE), *hout = buf(&a, (size_t)wg * LINE);
    uint8_t *eout = buf(&a, (size_t)wg * 4), *tout = buf(&a, (size_t)nsub * mn * 4);
    /* small integers: every sum is exact whatever the order */
    int *av = malloc(sizeof(int) * wg * 16), *bv = malloc(sizeof(int) * wg * 16);
    int *cv = malloc(sizeof(int) * nsub * mn);
    assert_true(av && bv && cv);
    for (uint32_t g = 0; g < wg; g++) {
        for (uint32_t k = 0; k < 16; k++) {
            av[g * 16 + k] = (int)(rnd() % 7) - 3;
            bv[g * 16 + k] = (int)(rnd() % 7) - 3;
            put_le(ain + (size_t)g * LINE + k * 2, 2, f16_of_int(av[g * 16 + k]));
        }
        for (uint32_t w = 0; w < 8; w++) /* two f16 a word, the lower first */
            put_le(bin + (size_t)g * LINE + w * 4, 4,
                   f16_of_int(bv[g * 16 + 2 * w]) |
                       (uint32_t)f16_of_int(bv[g * 16 + 2 * w + 1]) << 16);
    }
    for (uint32_t i = 0; i < nsub * mn; i++) {
        cv[i] = (int)(rnd() % 17) - 8;
        put_le(cin + (size_t)i * 4, 4, f32_bits((float)cv[i]));
    }
    run_ok(&a);

    uint8_t *wd = malloc((size_t)wg * LINE), *wh = malloc((size_t)wg * LINE);
    uint8_t *we = malloc((size_t)wg * 4), *wt = malloc((size_t)nsub * mn * 4);
    int *dv = malloc(sizeof(int) * nsub * mn);
    assert_true(wd && wh && we && wt && dv);
    memset(wd, SENTINEL, (size_t)wg * LINE);
    memset(wh, SENTINEL, (size_t)wg * LINE);
    memset(wt, SENTINEL, (size_t)nsub * mn * 4);
    for (uint32_t s = 0; s < nsub; s++) {
        uint32_t here = wg - s * sg < sg ? wg - s * sg : sg;
        for (uint32_t r = 0; r < rows; r++) {
            for (uint32_t c = 0; c < cols; c++) {
                /* A row r from invocation r, B column c from invocation c;
                 * rows/columns without an invocation are zero */
                int sum = cv[s * mn + r * cols + c];
                for (uint32_t k = 0; k < 16; k++) {
                    int x = r < here ? av[(s * sg + r) * 16 + k] : 0;
                    int y = c < here ? bv[(s * sg + c) * 16 + k] : 0;
                    sum += x * y;
                }
                dv[s * mn + r * cols + c] = sum;
                /* transpose: (c, r) of a cols x rows matrix, stride rows */
                put_le(wt + ((size_t)s * mn + (size_t)c * rows + r) * 4, 4, f32_bits((float)sum));
            }
        }
    }
    for (uint32_t g = 0; g < wg; g++) {
        uint32_t s = g / sg, i = g % sg, here = wg - s * sg < sg ? wg - s * sg : sg;
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t v = i < rows ? f32_bits((float)dv[s * mn + i * cols + c])
                                  : undefined_value(F32, check);
            put_le(wd + (size_t)g * LINE + c * 4, 4, v);
        }
        for (uint32_t w = 0; w < cols / 2; w++) {
            uint32_t v = i < rows ? (uint32_t)f16_of_int(dv[s * mn + i * cols + 2 * w]) |
                                        (uint32_t)f16_of_int(dv[s * mn + i * cols + 2 * w + 1])
                                            << 16
                                  : undefined_value(U32, check);
            put_le(wh + (size_t)g * LINE + w * 4, 4, v);
        }
        /* element 0 of the invocation's share: flat index i * L, with L =
         * ceil(M*N / invocations of the subgroup) (ARCHITECTURE.md) */
        uint32_t L = (mn + here - 1) / here;
        uint32_t flat = i * L;
        put_le(we + (size_t)g * 4, 4, flat < mn ? f32_bits((float)dv[s * mn + flat]) : 0);
    }
    expect_bytes(dout, wd, (size_t)wg * LINE, "f32 rows of D", &a);
    expect_bytes(hout, wh, (size_t)wg * LINE, "packed f16 rows of D", &a);
    expect_bytes(eout, we, (size_t)wg * 4, "element 0 of D", &a);
    expect_bytes(tout, wt, (size_t)nsub * mn * 4, "transposed D", &a);
    free(av);
    free(bv);
    free(cv);
    free(dv);
    free(wd);
    free(wh);
    free(we);
    free(wt);
    free_bufs(&a);
}

static void test_chain(void **state)
{
    (void)state;
    for (size_t s = 0; s < 5; s++) {
        uint32_t sg = sizes[s];
        uint32_t shapes[3][2] = {{sg, sg}, {5, sg}, {sg, 6}};
        for (int i = 0; i < 3; i++) {
            check_chain(sg, shapes[i][0], shapes[i][1], 2 * sg, 0);
            check_chain(sg, shapes[i][0], shapes[i][1], 2 * sg, CVM_FLAG_CHECK_CALLBACKS);
            /* a partial last subgroup: its missing rows and columns are
             * zero in the default mode (poison NaNs in the checking mode
             * would leave NaN payloads to the arithmetic) */
            check_chain(sg, shapes[i][0], shapes[i][1], 2 * sg + sg / 2, 0);
        }
    }
}

/* coopvm info and AmberScript's DEVICE_EXTENSION / DEVICE_FEATURE ask these. */
static void test_advertised(void **state)
{
    (void)state;
    assert_int_equal(cvm_supports_extension("VK_QCOM_cooperative_matrix_conversion"), 1);
    assert_int_equal(
        cvm_supports_feature("CooperativeMatrixConversionFeaturesQCOM.cooperativeMatrixConversion"),
        1);
    assert_int_equal(cvm_supports_feature("CooperativeMatrixConversionFeaturesQCOM.other"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_a_b),
        cmocka_unit_test(test_accumulator),
        cmocka_unit_test(test_small_subgroups),
        cmocka_unit_test(test_returned_invocations),
        cmocka_unit_test(test_bad_shapes),
        cmocka_unit_test(test_bad_extract),
        cmocka_unit_test(test_divergent),
        cmocka_unit_test(test_subgroup_not_power_of_two),
        cmocka_unit_test(test_bitcast),
        cmocka_unit_test(test_bad_bitcast),
        cmocka_unit_test(test_subarray),
        cmocka_unit_test(test_bad_subarray),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_advertised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
