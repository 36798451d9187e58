/* Tensor addressing in the engine (src/exec/ops/tensor_ops.c): shaders of
 * tests/shaders run through the public API and their buffers compared with
 * plain-C models written from the texts.
 *
 * The models take element addresses from cvm_tensor_element_address (the
 * pure module, tested on its own in test_tensor_layout.c) and do everything
 * else themselves: which memory an element reads or writes, the clamp value,
 * clipping, the decode arithmetic (from the shader's comment), and the
 * buffer contents.  Nothing expected is read back from the engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coopvm.h"
#include "exec/ops/tensor_layout.h"

#define SENTINEL 0xAAAAAAAAu

typedef struct binding {
    uint32_t binding;
    void *data;
    size_t size;
} binding;

/* Runs shaders/<name>.spv as one workgroup; returns the dispatch result. */
static cvm_result run_shader(const char *name, const cvm_specialization *specs, uint32_t nspecs,
                             uint32_t flags, uint32_t threads, const binding *b, uint32_t nb,
                             cvm_diagnostic *diag)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/shaders/%s.spv", CVM_TEST_DATA_DIR, name);
    cvm_context_desc cd;
    memset(&cd, 0, sizeof(cd));
    cd.flags = flags;
    cd.threads = threads;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    assert_int_equal(cvm_context_create(&cd, &ctx, diag), CVM_SUCCESS);
    cvm_result r = cvm_module_create_from_file(ctx, path, &mod, diag);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, specs, nspecs, &pipe, diag);
    for (uint32_t i = 0; r == CVM_SUCCESS && i < nb; i++)
        r = cvm_pipeline_bind_buffer(pipe, 0, b[i].binding, 0, b[i].data, b[i].size, diag);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_dispatch(pipe, 1, 1, 1, diag);
    if (r != CVM_SUCCESS)
        print_message("%s: %s\n", name, diag->message);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    return r;
}

static void fill_u32(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

/* ---- tensor_decode ---------------------------------------------------------
 * See the comment at the top of tests/shaders/tensor_decode.spvasm. */

enum { DEC_BLOCKS = 3 * 4, DEC_BLOCK_WORDS = 17, DEC_M = 8, DEC_N = 16, DEC_OUT_ROWS = 32 };

typedef struct decode_bufs {
    uint32_t wq[DEC_BLOCKS * DEC_BLOCK_WORDS];
    uint32_t out[DEC_OUT_ROWS * DEC_N];
    uint32_t hits[32 * 32];
    uint32_t vhits[32 * 32];
} decode_bufs;

static void decode_inputs(decode_bufs *b)
{
    uint32_t s = 12345;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(b->wq); i++) {
        s = s * 1103515245u + 12345u;
        b->wq[i] = (s >> 16) & 0xFFFF;
    }
    fill_u32(b->out, CVM_ARRAY_SIZE(b->out), SENTINEL);
    memset(b->hits, 0, sizeof(b->hits));
    memset(b->vhits, 0, sizeof(b->vhits));
}

/* The 6x32 layout with blocks 2x8 and clampValue 0xC1A4, sliced. */
static cvm_tensor_layout decode_layout(int32_t row_off, int32_t col_off)
{
    cvm_tensor_layout t;
    const uint32_t bs[2] = {2, 8}, dims[2] = {6, 32}, spans[2] = {8, 16};
    const int32_t offs[2] = {row_off, col_off};
    assert_int_equal(cvm_tensor_layout_create(2, CVM_TENSOR_CLAMP_CONSTANT, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_block_size(&t, bs, 2, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_dimension(&t, dims, 2, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_clamp_value(&t, 0xC1A4, &t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(&t, offs, spans, 2, &t), CVM_SUCCESS);
    return t;
}

/* decode(element) of the shader, from the block data. */
static uint32_t decode_model(const uint32_t *wq, const cvm_tensor_element *e)
{
    const uint32_t *blk = wq + (size_t)e->index * DEC_BLOCK_WORDS;
    uint32_t q = blk[1 + e->coordInBlock[0] * 8 + e->coordInBlock[1]];
    return blk[0] + 3 * q + 7 * e->blockCoord[0] + 11 * e->blockCoord[1];
}

/* Models load k (rows [8k, 8k+8) of out): returns the matrix in m. */
static void model_load(const uint32_t *wq, const cvm_tensor_layout *t, const cvm_tensor_view *v,
                       const uint32_t *object, uint32_t *m, uint32_t *hits)
{
    for (uint32_t r = 0; r < DEC_M; r++) {
        for (uint32_t c = 0; c < DEC_N; c++) {
            cvm_tensor_element e;
            assert_int_equal(cvm_tensor_element_address(t, v, CVM_TENSOR_LOAD, r, c, DEC_N, &e),
                             CVM_SUCCESS);
            uint32_t *dst = &m[r * DEC_N + c];
            switch (e.kind) {
            case CVM_TENSOR_ELEMENT_MEMORY:
                *dst = decode_model(wq, &e);
                if (hits)
                    hits[(e.blockCoord[0] * 2 + e.coordInBlock[0]) * 32 + e.blockCoord[1] * 8 +
                         e.coordInBlock[1]] = 1;
                break;
            case CVM_TENSOR_ELEMENT_CLAMP_CONSTANT:
                *dst = 0xC1A4; /* all 32 bits of clampValue: the component is 32-bit */
                break;
            case CVM_TENSOR_ELEMENT_CLIPPED:
                *dst = object ? object[r * DEC_N + c] : 0; /* Object is OpConstantNull */
                break;
            default:
                fail_msg("a load has no dropped elements");
            }
        }
    }
}

/* The engine's documented choice: DecodeVectorFunc for every group of V
 * elements along a matrix row that are all read from memory (in range, not
 * clipped), share blockCoord and coordInBlock[0], and whose coordInBlock[1]
 * runs from a multiple of V up by one.  Marks vhits as the shader does. */
static void model_vhits(const cvm_tensor_layout *t, const cvm_tensor_view *v, uint32_t V,
                        uint32_t *vhits)
{
    cvm_tensor_element e[DEC_M * DEC_N];
    for (uint32_t i = 0; i < DEC_M * DEC_N; i++)
        assert_int_equal(cvm_tensor_element_address(t, v, CVM_TENSOR_LOAD, i / DEC_N, i % DEC_N,
                                                     DEC_N, &e[i]),
                         CVM_SUCCESS);
    for (uint32_t r = 0; r < DEC_M; r++) {
        for (uint32_t c = 0; c + V <= DEC_N; c++) {
            const cvm_tensor_element *e0 = &e[r * DEC_N + c];
            if (e0->kind != CVM_TENSOR_ELEMENT_MEMORY || e0->coordInBlock[1] % V)
                continue;
            int whole = 1;
            for (uint32_t k = 1; k < V; k++) {
                const cvm_tensor_element *ek = &e[r * DEC_N + c + k];
                whole &= ek->kind == CVM_TENSOR_ELEMENT_MEMORY && ek->index == e0->index &&
                         ek->blockCoord[0] == e0->blockCoord[0] &&
                         ek->blockCoord[1] == e0->blockCoord[1] &&
                         ek->coordInBlock[0] == e0->coordInBlock[0] &&
                         ek->coordInBlock[1] == e0->coordInBlock[1] + k;
            }
            if (whole)
                vhits[(e0->blockCoord[0] * 2 + e0->coordInBlock[0]) * 32 +
                      e0->blockCoord[1] * 8 + e0->coordInBlock[1]] = V;
        }
    }
}

static cvm_tensor_view decode_clip_view(void)
{
    cvm_tensor_view v;
    const uint32_t perm[2] = {0, 1};
    assert_int_equal(cvm_tensor_view_create(2, false, perm, 2, &v), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_view_set_clip(&v, 1, 4, 0, 16, &v), CVM_SUCCESS);
    return v;
}

static uint32_t run_decode(decode_bufs *b, int all, uint32_t bug, uint32_t flags, uint32_t threads,
                           cvm_diagnostic *diag)
{
    cvm_specialization sp[4] = {{1, 4, (uint64_t)all}, {2, 4, (uint64_t)all},
                                {3, 4, (uint64_t)all}, {4, 4, bug}};
    binding bb[4] = {{0, b->wq, sizeof(b->wq)},
                     {1, b->out, sizeof(b->out)},
                     {2, b->hits, sizeof(b->hits)},
                     {3, b->vhits, sizeof(b->vhits)}};
    return (uint32_t)run_shader("tensor_decode", sp, 4, flags, threads, bb, 4, diag);
}

/* DecodeFunc over 2-D blocks, Constant clamp without a decode call: only
 * load 0 runs; hits must mark exactly the in-range tensor elements. */
static void test_decode_scalar_blocks_and_clamp(void **state)
{
    (void)state;
    static decode_bufs b, want;
    cvm_diagnostic diag;
    decode_inputs(&b);
    want = b;
    cvm_tensor_layout t0 = decode_layout(-1, 4);
    model_load(b.wq, &t0, NULL, NULL, want.out, want.hits);
    assert_int_equal(run_decode(&b, 0, 0, 0, 0, &diag), CVM_SUCCESS);
    assert_memory_equal(b.out, want.out, sizeof(b.out));
    assert_memory_equal(b.hits, want.hits, sizeof(b.hits));
    /* the model decoded something, clamped rows -1 and 6, and nothing else */
    uint32_t nhits = 0, nclamp = 0;
    for (uint32_t i = 0; i < 32 * 32; i++)
        nhits += want.hits[i];
    for (uint32_t i = 0; i < DEC_M * DEC_N; i++)
        nclamp += want.out[i] == 0xC1A4;
    assert_int_equal(nhits, 6 * 16);
    assert_int_equal(nclamp, 2 * 16);
    assert_memory_equal(b.vhits, want.vhits, sizeof(b.vhits)); /* no vector decoder ran */
}

/* All four loads: V = 2, 4 and 8 must give exactly the scalar model, with
 * and without the checking mode, on one thread and on several. */
static void test_decode_vector_matches_scalar(void **state)
{
    (void)state;
    static decode_bufs b, want;
    const uint32_t modes[4][2] = {{0, 0}, {CVM_FLAG_CHECK_CALLBACKS, 0}, {0, 1},
                                  {CVM_FLAG_CHECK_CALLBACKS, 1}};
    for (int mode = 0; mode < 4; mode++) {
        cvm_diagnostic diag;
        decode_inputs(&b);
        want = b;
        cvm_tensor_layout t0 = decode_layout(-1, 4), t2 = decode_layout(1, 18),
                          t3 = decode_layout(0, 0);
        cvm_tensor_view v3 = decode_clip_view();
        model_load(b.wq, &t0, NULL, NULL, want.out, NULL);
        model_load(b.wq, &t0, NULL, NULL, want.out + 8 * DEC_N, NULL);
        model_load(b.wq, &t2, NULL, NULL, want.out + 16 * DEC_N, NULL);
        model_load(b.wq, &t3, &v3, want.out, want.out + 24 * DEC_N, NULL);
        model_vhits(&t0, NULL, 2, want.vhits);
        model_vhits(&t2, NULL, 4, want.vhits);
        model_vhits(&t3, &v3, 8, want.vhits);
        assert_int_equal(run_decode(&b, 1, 0, modes[mode][0], modes[mode][1], &diag),
                         CVM_SUCCESS);
        assert_memory_equal(b.out, want.out, sizeof(b.out));
        assert_memory_equal(b.vhits, want.vhits, sizeof(b.vhits));
        /* each V ran at least once (the model is not vacuous) */
        int seen[9] = {0};
        for (uint32_t i = 0; i < 32 * 32; i++)
            if (want.vhits[i] <= 8)
                seen[want.vhits[i]] = 1;
        assert_true(seen[2] && seen[4] && seen[8]);
        /* load 3 kept Object (load 0) in rows 0 and 5..7 */
        assert_memory_equal(b.out + 24 * DEC_N, b.out, DEC_N * 4);
    }
}

/* A V = 4 decoder that disagrees with DecodeFunc: the checking mode names
 * the element; without it the vector value is what the engine uses. */
static void test_decode_vector_mismatch(void **state)
{
    (void)state;
    static decode_bufs b, want;
    cvm_diagnostic diag;
    decode_inputs(&b);
    assert_int_equal(run_decode(&b, 1, 5, CVM_FLAG_CHECK_CALLBACKS, 0, &diag),
                     CVM_ERROR_CALLBACK_MISMATCH);
    assert_non_null(strstr(diag.message, "DecodeVectorFunc"));
    assert_non_null(strstr(diag.message, "matrix element ("));

    decode_inputs(&b);
    want = b;
    cvm_tensor_layout t0 = decode_layout(-1, 4), t2 = decode_layout(1, 18),
                      t3 = decode_layout(0, 0);
    cvm_tensor_view v3 = decode_clip_view();
    model_load(b.wq, &t0, NULL, NULL, want.out, NULL);
    model_load(b.wq, &t0, NULL, NULL, want.out + 8 * DEC_N, NULL);
    model_load(b.wq, &t2, NULL, NULL, want.out + 16 * DEC_N, NULL);
    model_load(b.wq, &t3, &v3, want.out, want.out + 24 * DEC_N, NULL);
    /* component 1 of every V = 4 group of load 2 is 5 more */
    uint32_t vh[32 * 32] = {0}, bumped = 0;
    model_vhits(&t2, NULL, 4, vh);
    for (uint32_t r = 0; r < DEC_M; r++)
        for (uint32_t c = 0; c < DEC_N; c++) {
            cvm_tensor_element e;
            assert_int_equal(cvm_tensor_element_address(&t2, NULL, CVM_TENSOR_LOAD, r, c, DEC_N, &e),
                             CVM_SUCCESS);
            if (e.kind == CVM_TENSOR_ELEMENT_MEMORY && e.coordInBlock[1] % 4 == 1 &&
                vh[(e.blockCoord[0] * 2 + e.coordInBlock[0]) * 32 + e.blockCoord[1] * 8 +
                   e.coordInBlock[1] - 1] == 4) {
                want.out[(16 + r) * DEC_N + c] += 5;
                bumped++;
            }
        }
    assert_true(bumped > 0);
    assert_int_equal(run_decode(&b, 1, 5, 0, 0, &diag), CVM_SUCCESS);
    assert_memory_equal(b.out, want.out, sizeof(b.out));
}


/* ---- tensor_views ----------------------------------------------------------
 * See the comment at the top of tests/shaders/tensor_views.spvasm. */

enum { VW_N = 8 };

/* One matrix element through layout t and view v: the model of a load. */
static uint32_t model_load_element(const uint32_t *src, const cvm_tensor_layout *t,
                                   const cvm_tensor_view *v, uint32_t object, uint32_t r,
                                   uint32_t c)
{
    cvm_tensor_element e;
    assert_int_equal(cvm_tensor_element_address(t, v, CVM_TENSOR_LOAD, r, c, VW_N, &e),
                     CVM_SUCCESS);
    switch (e.kind) {
    case CVM_TENSOR_ELEMENT_MEMORY:
        assert_true(e.index >= 0 && e.index < 256);
        return src[e.index]; /* byte offset index * 4 (uint component) */
    case CVM_TENSOR_ELEMENT_CLAMP_CONSTANT:
        return t->clampValue;
    case CVM_TENSOR_ELEMENT_CLIPPED:
        return object;
    default:
        fail_msg("a load has no dropped elements");
    }
    return 0;
}

static void test_views_3d_4d_5d_and_clip(void **state)
{
    (void)state;
    for (int threads = 0; threads < 2; threads++) {
        static uint32_t src[256], dst[24 * VW_N], st[4 * 4 * 8];
        static uint32_t want_dst[24 * VW_N], want_st[4 * 4 * 8];
        for (uint32_t i = 0; i < 256; i++)
            src[i] = 0x1000u + i * 7u;
        fill_u32(dst, CVM_ARRAY_SIZE(dst), SENTINEL);
        fill_u32(st, CVM_ARRAY_SIZE(st), SENTINEL);
        memcpy(want_dst, dst, sizeof(dst));
        memcpy(want_st, st, sizeof(st));

        /* load 1 */
        cvm_tensor_layout a;
        const uint32_t ad[3] = {3, 5, 7}, asp[3] = {2, 4, 8};
        const int32_t aoff[3] = {1, -1, 2};
        assert_int_equal(cvm_tensor_layout_create(3, CVM_TENSOR_CLAMP_CONSTANT, &a), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_set_dimension(&a, ad, 3, &a), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_set_clamp_value(&a, 0xDEADBEEF, &a), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_slice(&a, aoff, asp, 3, &a), CVM_SUCCESS);
        cvm_tensor_view va;
        const uint32_t pa[3] = {1, 0, 2};
        assert_int_equal(cvm_tensor_view_create(3, false, pa, 3, &va), CVM_SUCCESS);
        /* load 2 */
        cvm_tensor_layout b;
        const uint32_t bd[4] = {2, 3, 4, 5}, bst[4] = {130, 40, 8, 1}, bsp[4] = {2, 2, 4, 4};
        const int32_t boff[4] = {0, 1, -1, 2};
        assert_int_equal(cvm_tensor_layout_create(4, CVM_TENSOR_CLAMP_CLAMP_TO_EDGE, &b),
                         CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_set_dimension(&b, bd, 4, &b), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_set_stride(&b, bst, 4, &b), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_slice(&b, boff, bsp, 4, &b), CVM_SUCCESS);
        cvm_tensor_view vb;
        const uint32_t pb[4] = {2, 0, 3, 1}, vbd[4] = {2, 4, 2, 4}, vbs[4] = {1, 2, 8, 16};
        assert_int_equal(cvm_tensor_view_create(4, true, pb, 4, &vb), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_view_set_dimension(&vb, vbd, 4, &vb), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_view_set_stride(&vb, vbs, 4, &vb), CVM_SUCCESS);
        /* load 3 */
        cvm_tensor_layout d;
        const uint32_t dd[5] = {2, 2, 3, 2, 4}, dsp[5] = {2, 2, 3, 2, 4};
        const int32_t doff[5] = {1, 0, -1, 1, 3};
        assert_int_equal(cvm_tensor_layout_create(5, CVM_TENSOR_CLAMP_REPEAT, &d), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_set_dimension(&d, dd, 5, &d), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_slice(&d, doff, dsp, 5, &d), CVM_SUCCESS);
        cvm_tensor_view vd;
        const uint32_t pd[5] = {4, 3, 2, 1, 0};
        assert_int_equal(cvm_tensor_view_create(5, false, pd, 5, &vd), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_view_set_clip(&vd, 1, 5, 2, 4, &vd), CVM_SUCCESS);
        /* store */
        cvm_tensor_layout e;
        const uint32_t ed[3] = {4, 4, 8}, esp[3] = {4, 4, 8};
        const int32_t eoff[3] = {1, 2, -3};
        assert_int_equal(cvm_tensor_layout_create(3, CVM_TENSOR_CLAMP_CONSTANT, &e), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_set_dimension(&e, ed, 3, &e), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_layout_slice(&e, eoff, esp, 3, &e), CVM_SUCCESS);
        cvm_tensor_view ve;
        const uint32_t pe[3] = {0, 1, 2};
        assert_int_equal(cvm_tensor_view_create(3, false, pe, 3, &ve), CVM_SUCCESS);
        assert_int_equal(cvm_tensor_view_set_clip(&ve, 0, 6, 1, 6, &ve), CVM_SUCCESS);

        uint32_t m1[64], m2[64];
        uint32_t kinds[4] = {0};
        for (uint32_t r = 0; r < 8; r++)
            for (uint32_t c = 0; c < 8; c++) {
                m1[r * 8 + c] = model_load_element(src, &a, &va, 0, r, c);
                m2[r * 8 + c] = model_load_element(src, &b, &vb, 0, r, c);
                want_dst[r * 8 + c] = m1[r * 8 + c];
                want_dst[(8 + r) * 8 + c] = m2[r * 8 + c];
                want_dst[(16 + r) * 8 + c] = model_load_element(src, &d, &vd, m1[r * 8 + c], r, c);
                cvm_tensor_element el;
                assert_int_equal(cvm_tensor_element_address(&e, &ve, CVM_TENSOR_STORE, r, c, 8, &el),
                                 CVM_SUCCESS);
                kinds[el.kind]++;
                if (el.kind == CVM_TENSOR_ELEMENT_MEMORY) {
                    assert_true(el.index >= 0 && el.index < 128);
                    want_st[el.index] = m2[r * 8 + c];
                }
            }
        /* the store has written, dropped and clipped elements; load 1 clamped ones */
        assert_true(kinds[CVM_TENSOR_ELEMENT_MEMORY] && kinds[CVM_TENSOR_ELEMENT_DROPPED] &&
                    kinds[CVM_TENSOR_ELEMENT_CLIPPED]);
        uint32_t nclamp = 0;
        for (int i = 0; i < 64; i++)
            nclamp += m1[i] == 0xDEADBEEF;
        assert_true(nclamp > 0 && nclamp < 64);

        binding bb[3] = {{0, src, sizeof(src)}, {1, dst, sizeof(dst)}, {2, st, sizeof(st)}};
        cvm_diagnostic diag;
        assert_int_equal(run_shader("tensor_views", NULL, 0,
                                    threads ? CVM_FLAG_CHECK_CALLBACKS : 0, threads, bb, 3, &diag),
                         CVM_SUCCESS);
        assert_memory_equal(dst, want_dst, sizeof(dst));
        assert_memory_equal(st, want_st, sizeof(st));
    }
}

/* Out-of-bounds tensor loads and stores (tensor_views with short src / st
 * buffers): the failing element is the first in row-major order, reported
 * with the memory layer's message for that element; stores before it are
 * done, after it not; in robust mode out-of-bounds loads read zero and
 * stores are dropped.  (The engine copies a whole plan at once only when no
 * element can fail, so these pin the per-element fallback.) */
static void views_layouts(cvm_tensor_layout *a, cvm_tensor_view *va, cvm_tensor_layout *e,
                          cvm_tensor_view *ve)
{
    const uint32_t ad[3] = {3, 5, 7}, asp[3] = {2, 4, 8}, pa[3] = {1, 0, 2};
    const int32_t aoff[3] = {1, -1, 2};
    assert_int_equal(cvm_tensor_layout_create(3, CVM_TENSOR_CLAMP_CONSTANT, a), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_dimension(a, ad, 3, a), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_clamp_value(a, 0xDEADBEEF, a), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(a, aoff, asp, 3, a), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_view_create(3, false, pa, 3, va), CVM_SUCCESS);
    const uint32_t ed[3] = {4, 4, 8}, esp[3] = {4, 4, 8}, pe[3] = {0, 1, 2};
    const int32_t eoff[3] = {1, 2, -3};
    assert_int_equal(cvm_tensor_layout_create(3, CVM_TENSOR_CLAMP_CONSTANT, e), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_dimension(e, ed, 3, e), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_slice(e, eoff, esp, 3, e), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_view_create(3, false, pe, 3, ve), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_view_set_clip(ve, 0, 6, 1, 6, ve), CVM_SUCCESS);
}

static void test_views_out_of_bounds(void **state)
{
    (void)state;
    cvm_tensor_layout a, e;
    cvm_tensor_view va, ve;
    views_layouts(&a, &va, &e, &ve);
    static uint32_t src[256], dst[24 * VW_N], st[4 * 4 * 8];
    for (uint32_t i = 0; i < 256; i++)
        src[i] = 0x1000u + i * 7u;
    cvm_diagnostic diag;
    char want[256];

    /* load 1 with src cut to 64 words: its first element past word 63 fails */
    uint32_t bad = UINT32_MAX;
    for (uint32_t i = 0; i < 64 && bad == UINT32_MAX; i++) {
        cvm_tensor_element el;
        assert_int_equal(cvm_tensor_element_address(&a, &va, CVM_TENSOR_LOAD, i / 8, i % 8, 8, &el),
                         CVM_SUCCESS);
        if (el.kind == CVM_TENSOR_ELEMENT_MEMORY && el.index >= 64)
            bad = (uint32_t)el.index;
    }
    assert_true(bad != UINT32_MAX);
    binding bb[3] = {{0, src, 64 * 4}, {1, dst, sizeof(dst)}, {2, st, sizeof(st)}};
    assert_int_equal(run_shader("tensor_views", NULL, 0, 0, 1, bb, 3, &diag),
                     CVM_ERROR_OUT_OF_BOUNDS);
    snprintf(want, sizeof want, "loads 4 bytes at byte offset %u of a 256-byte buffer", bad * 4);
    if (!strstr(diag.message, want))
        fail_msg("message '%s' lacks '%s'", diag.message, want);

    /* robust: the same load reads zero past the end */
    fill_u32(dst, CVM_ARRAY_SIZE(dst), SENTINEL);
    assert_int_equal(run_shader("tensor_views", NULL, 0, CVM_FLAG_ROBUST_ACCESS, 1, bb, 3, &diag),
                     CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) {
        cvm_tensor_element el;
        assert_int_equal(cvm_tensor_element_address(&a, &va, CVM_TENSOR_LOAD, i / 8, i % 8, 8, &el),
                         CVM_SUCCESS);
        if (el.kind == CVM_TENSOR_ELEMENT_MEMORY)
            assert_int_equal(dst[i], el.index >= 64 ? 0u : src[el.index]);
    }

    /* the store with st cut to 64 words: elements before the first failing
     * one (row-major) are written, none after */
    static uint32_t full_st[4 * 4 * 8];
    fill_u32(full_st, CVM_ARRAY_SIZE(full_st), SENTINEL);
    binding full[3] = {{0, src, sizeof(src)}, {1, dst, sizeof(dst)}, {2, full_st, sizeof(full_st)}};
    assert_int_equal(run_shader("tensor_views", NULL, 0, 0, 1, full, 3, &diag), CVM_SUCCESS);
    static uint32_t want_st[4 * 4 * 8];
    fill_u32(want_st, CVM_ARRAY_SIZE(want_st), SENTINEL);
    bad = UINT32_MAX;
    for (uint32_t i = 0; i < 64 && bad == UINT32_MAX; i++) {
        cvm_tensor_element el;
        assert_int_equal(cvm_tensor_element_address(&e, &ve, CVM_TENSOR_STORE, i / 8, i % 8, 8, &el),
                         CVM_SUCCESS);
        if (el.kind != CVM_TENSOR_ELEMENT_MEMORY)
            continue;
        if (el.index >= 64)
            bad = (uint32_t)el.index;
        else
            want_st[el.index] = full_st[el.index];
    }
    assert_true(bad != UINT32_MAX);
    fill_u32(st, CVM_ARRAY_SIZE(st), SENTINEL);
    binding cut[3] = {{0, src, sizeof(src)}, {1, dst, sizeof(dst)}, {2, st, 64 * 4}};
    assert_int_equal(run_shader("tensor_views", NULL, 0, 0, 1, cut, 3, &diag),
                     CVM_ERROR_OUT_OF_BOUNDS);
    snprintf(want, sizeof want, "stores 4 bytes at byte offset %u of a 256-byte buffer", bad * 4);
    if (!strstr(diag.message, want))
        fail_msg("message '%s' lacks '%s'", diag.message, want);
    assert_memory_equal(st, want_st, sizeof(st));

    /* robust: out-of-bounds stores dropped, the rest written */
    fill_u32(st, CVM_ARRAY_SIZE(st), SENTINEL);
    assert_int_equal(run_shader("tensor_views", NULL, 0, CVM_FLAG_ROBUST_ACCESS, 1, cut, 3, &diag),
                     CVM_SUCCESS);
    assert_memory_equal(st, full_st, 64 * 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_scalar_blocks_and_clamp),
        cmocka_unit_test(test_decode_vector_matches_scalar),
        cmocka_unit_test(test_decode_vector_mismatch),
        cmocka_unit_test(test_views_3d_4d_5d_and_clip),
        cmocka_unit_test(test_views_out_of_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
