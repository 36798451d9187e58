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

/* A pipeline kept for many dispatches (run_kept): the same shader and
 * specialization in a context of `flags`, created at the first call and
 * ended by kept_end; every call binds its own buffers.  (Building the
 * pipeline for each of a random test's cases would compile the same code
 * that often where the compiled tier takes it, COOPVM_JIT=compare.) */
typedef struct kept {
    cvm_context *ctx;
    cvm_module *mod;
    cvm_pipeline *pipe;
} kept;

static cvm_result run_kept(kept *k, const char *name, const cvm_specialization *specs,
                           uint32_t nspecs, uint32_t flags, const binding *b, uint32_t nb,
                           cvm_diagnostic *diag)
{
    cvm_result r = CVM_SUCCESS;
    if (!k->pipe) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/shaders/%s.spv", CVM_TEST_DATA_DIR, name);
        cvm_context_desc cd;
        memset(&cd, 0, sizeof(cd));
        cd.flags = flags;
        cd.threads = 1;
        assert_int_equal(cvm_context_create(&cd, &k->ctx, diag), CVM_SUCCESS);
        assert_int_equal(cvm_module_create_from_file(k->ctx, path, &k->mod, diag), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_create(k->mod, NULL, specs, nspecs, &k->pipe, diag),
                         CVM_SUCCESS);
    }
    for (uint32_t i = 0; r == CVM_SUCCESS && i < nb; i++)
        r = cvm_pipeline_bind_buffer(k->pipe, 0, b[i].binding, 0, b[i].data, b[i].size, diag);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_dispatch(k->pipe, 1, 1, 1, diag);
    return r;
}

static void kept_end(kept *k)
{
    cvm_pipeline_destroy(k->pipe);
    cvm_module_destroy(k->mod);
    cvm_context_destroy(k->ctx);
    memset(k, 0, sizeof(*k));
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

/* ---- tensor_tiles: random loads and stores against the literal model -------
 * See the comment at the top of tests/shaders/tensor_tiles.comp.  Random
 * parameters (clamp modes, offsets in and out of range, spans, strides,
 * views, clips, robust mode, buffers too short) run through the engine;
 * the model applies cvm_tensor_element_address (the literal reference)
 * element by element in row-major order.  Most draws are tiles inside
 * their tensor, which the engine takes through its whole-tile path
 * (counted with cvm_tensor_tile_plan, and required below). */

enum { TT_SRC = 512, TT_ST = 256, TT_PARAMS = 32 };

static uint64_t tt_state = 0x2545F4914F6CDD1Dull;

static uint32_t tt_rnd(uint32_t n)
{
    tt_state ^= tt_state << 13;
    tt_state ^= tt_state >> 7;
    tt_state ^= tt_state << 17;
    return (uint32_t)((tt_state >> 11) % n);
}

/* The layout and view of the load (store = 0) or the store, as the shader
 * builds them from the parameter words. */
static bool tt_layout(const uint32_t *w, int store, cvm_tensor_layout *t, cvm_tensor_view *v)
{
    uint32_t o = store ? 14 : 0; /* store words are 15.. for 1.. (dims, offsets, spans) */
    uint32_t dims[2] = {w[o + 1], w[o + 2]};
    int32_t offs[2] = {(int32_t)w[o + 3], (int32_t)w[o + 4]};
    uint32_t spans[2] = {w[o + 5], w[o + 6]};
    assert_int_equal(cvm_tensor_layout_create(2, store ? 0 : w[0], t), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_layout_set_dimension(t, dims, 2, t), CVM_SUCCESS);
    if (w[o + 7]) {
        uint32_t strides[2] = {w[o + 8], w[o + 9]};
        assert_int_equal(cvm_tensor_layout_set_stride(t, strides, 2, t), CVM_SUCCESS);
    }
    assert_int_equal(cvm_tensor_layout_slice(t, offs, spans, 2, t), CVM_SUCCESS);
    if (!store)
        assert_int_equal(cvm_tensor_layout_set_clamp_value(t, w[29], t), CVM_SUCCESS);
    uint32_t kind = w[o + 10];
    if (kind == 0)
        return false;
    const uint32_t perm[2][2] = {{0, 1}, {1, 0}};
    assert_int_equal(cvm_tensor_view_create(2, false, perm[kind - 1], 2, v), CVM_SUCCESS);
    assert_int_equal(cvm_tensor_view_set_clip(v, w[o + 11], w[o + 12], w[o + 13], w[o + 14], v),
                     CVM_SUCCESS);
    return true;
}

/* One dimension's parameters: mostly a tile inside the tensor. */
static void tt_dim(uint32_t *o_dim, uint32_t *o_off, uint32_t *o_span, uint32_t want_span)
{
    uint32_t span = tt_rnd(3) ? want_span : 1 + tt_rnd(10);
    uint32_t dim = tt_rnd(10) == 0 ? 1 + tt_rnd(6) : span + tt_rnd(16);
    int32_t off = tt_rnd(4) && dim >= span ? (int32_t)tt_rnd(dim - span + 1)
                                           : (int32_t)tt_rnd(dim + 8) - 4;
    *o_dim = dim;
    *o_off = (uint32_t)off;
    *o_span = span;
}

static void tt_params(uint32_t *w)
{
    memset(w, 0, TT_PARAMS * 4);
    w[0] = tt_rnd(5);
    for (int store = 0; store < 2; store++) {
        uint32_t o = store ? 14 : 0;
        uint32_t view = tt_rnd(3), clip = tt_rnd(2);
        uint32_t cr = clip ? tt_rnd(4) : 0, crs = clip ? tt_rnd(10) : 0xFFFFFFFFu;
        uint32_t cc = clip ? tt_rnd(4) : 0, ccs = clip ? tt_rnd(10) : 0xFFFFFFFFu;
        uint32_t width = view ? (ccs < 8 ? ccs : 8) : 8;
        uint32_t p = view == 2 ? 0 : 1; /* the dimension the columns walk */
        if (width == 0)
            width = 1;
        tt_dim(&w[o + 1 + p], &w[o + 3 + p], &w[o + 5 + p], width);
        tt_dim(&w[o + 2 - p], &w[o + 4 - p], &w[o + 6 - p], 8);
        if (tt_rnd(3) == 0) {
            w[o + 7] = 1;
            w[o + 9] = tt_rnd(3) ? 1 : tt_rnd(4);
            w[o + 8] = tt_rnd(3) ? w[o + 2] * w[o + 9] + tt_rnd(5) : tt_rnd(40);
        }
        w[o + 10] = view;
        w[o + 11] = cr, w[o + 12] = crs, w[o + 13] = cc, w[o + 14] = ccs;
    }
    w[29] = 0xC0000000u | tt_rnd(1000);
}

/* The model of one subgroup's run: returns CVM_SUCCESS or
 * CVM_ERROR_OUT_OF_BOUNDS; fills ld[64] and writes st (from `st_base`
 * words, `st_words` accessible from there). */
static cvm_result tt_model(const uint32_t *w, const uint32_t *src, uint32_t src_words, int robust,
                           uint32_t *ld, uint32_t *st, uint32_t st_words)
{
    cvm_tensor_layout t;
    cvm_tensor_view v;
    bool hv = tt_layout(w, 0, &t, &v);
    uint32_t m[64];
    for (uint32_t i = 0; i < 64; i++) {
        cvm_tensor_element e;
        assert_int_equal(cvm_tensor_element_address(&t, hv ? &v : NULL, CVM_TENSOR_LOAD, i / 8,
                                                    i % 8, 8, &e),
                         CVM_SUCCESS);
        switch (e.kind) {
        case CVM_TENSOR_ELEMENT_MEMORY:
            if (e.index < 0 || e.index >= (int64_t)src_words) {
                if (!robust)
                    return CVM_ERROR_OUT_OF_BOUNDS;
                m[i] = 0;
            } else {
                m[i] = src[e.index];
            }
            break;
        case CVM_TENSOR_ELEMENT_CLAMP_CONSTANT: m[i] = t.clampValue; break;
        default: m[i] = 0xAAAAAAAAu; break; /* clipped: 'Object' */
        }
    }
    memcpy(ld, m, sizeof m);
    hv = tt_layout(w, 1, &t, &v);
    for (uint32_t i = 0; i < 64; i++) {
        cvm_tensor_element e;
        assert_int_equal(cvm_tensor_element_address(&t, hv ? &v : NULL, CVM_TENSOR_STORE, i / 8,
                                                    i % 8, 8, &e),
                         CVM_SUCCESS);
        if (e.kind != CVM_TENSOR_ELEMENT_MEMORY)
            continue;
        if (e.index < 0 || e.index >= (int64_t)st_words) {
            if (!robust)
                return CVM_ERROR_OUT_OF_BOUNDS;
            continue;
        }
        st[e.index] = m[i];
    }
    return CVM_SUCCESS;
}

static int tt_tile(const uint32_t *w, int store)
{
    cvm_tensor_layout t;
    cvm_tensor_view v;
    bool hv = tt_layout(w, store, &t, &v);
    cvm_tensor_tile tile;
    uint64_t rows[8];
    return cvm_tensor_tile_plan(&t, hv ? &v : NULL, 8, 8, &tile, rows);
}

static void test_tiles_random(void **state)
{
    (void)state;
    enum { CASES = 1500 };
    static uint32_t params[TT_PARAMS], src[TT_SRC], ld[64], st[TT_ST];
    static uint32_t want_ld[64], want_st[TT_ST];
    for (uint32_t i = 0; i < TT_SRC; i++)
        src[i] = 0x10000u + i * 3u;
    const cvm_specialization spec = {0, 4, 32};
    int tiles[2] = {0}, errors = 0, passed = 0;
    kept pipes[2]; /* (plain, robust) */
    memset(pipes, 0, sizeof(pipes));
    for (int n = 0; n < CASES; n++) {
        tt_params(params);
        int robust = tt_rnd(4) == 0;
        /* a short source or store buffer now and then */
        uint32_t src_words = tt_rnd(6) ? TT_SRC : 1 + tt_rnd(TT_SRC);
        uint32_t st_words = tt_rnd(6) ? TT_ST : 1 + tt_rnd(TT_ST);
        fill_u32(ld, 64, SENTINEL);
        fill_u32(st, TT_ST, SENTINEL);
        memcpy(want_ld, ld, sizeof ld);
        memcpy(want_st, st, sizeof st);
        cvm_result want = tt_model(params, src, src_words, robust, want_ld, want_st, st_words);
        tiles[0] += tt_tile(params, 0);
        tiles[1] += tt_tile(params, 1);
        binding bb[4] = {{0, params, sizeof params},
                         {1, src, src_words * 4},
                         {2, ld, sizeof ld},
                         {3, st, st_words * 4}};
        cvm_diagnostic diag;
        cvm_result got = run_kept(&pipes[robust], "tensor_tiles", &spec, 1,
                                  robust ? CVM_FLAG_ROBUST_ACCESS : 0, bb, 4, &diag);
        if (got != want)
            fail_msg("case %d: engine %d, model %d (%s)", n, got, want, diag.message);
        if (want != CVM_SUCCESS) {
            errors++;
            /* the load failed before any output, or the store failed
             * part-way: what was written before the failing element */
            assert_memory_equal(st, want_st, st_words * 4);
            continue;
        }
        passed++;
        if (memcmp(ld, want_ld, sizeof ld) || memcmp(st, want_st, st_words * 4)) {
            for (int i = 0; i < 30; i++)
                print_message("w[%d] = %d\n", i, (int32_t)params[i]);
            assert_memory_equal(ld, want_ld, sizeof ld);
            assert_memory_equal(st, want_st, st_words * 4);
        }
    }
    kept_end(&pipes[0]);
    kept_end(&pipes[1]);
    print_message("tiles: %d loads and %d stores on the tile path of %d; %d errors\n", tiles[0],
                  tiles[1], CASES, errors);
    assert_true(tiles[0] > CASES / 4 && tiles[1] > CASES / 4);
    assert_true(tiles[0] < CASES && tiles[1] < CASES);
    assert_true(errors > 0 && passed > CASES / 2);
}

/* Two subgroups in one workgroup: the same layout values (the second
 * reuses the first's tile) and different ones (it must not). */
static void test_tiles_two_subgroups(void **state)
{
    (void)state;
    static uint32_t params[2 * TT_PARAMS], src[TT_SRC], ld[128], st[2 * TT_ST];
    static uint32_t want_ld[128], want_st[2 * TT_ST];
    for (uint32_t i = 0; i < TT_SRC; i++)
        src[i] = 0x20000u + i * 5u;
    const cvm_specialization spec = {0, 4, 64};
    int reuse_tested = 0;
    kept pipe;
    memset(&pipe, 0, sizeof(pipe));
    for (int n = 0; n < 200; n++) {
        tt_params(params);
        if (n % 2)
            memcpy(params + TT_PARAMS, params, TT_PARAMS * 4);
        else
            tt_params(params + TT_PARAMS);
        fill_u32(ld, 128, SENTINEL);
        fill_u32(st, 2 * TT_ST, SENTINEL);
        memcpy(want_ld, ld, sizeof ld);
        memcpy(want_st, st, sizeof st);
        /* in range for both subgroups only: the second's store may reach
         * into nothing but its own 256 words */
        cvm_result w0 = tt_model(params, src, TT_SRC, 0, want_ld, want_st, TT_ST);
        cvm_result w1 = tt_model(params + TT_PARAMS, src, TT_SRC, 0, want_ld + 64,
                                 want_st + TT_ST, TT_ST);
        if (w0 != CVM_SUCCESS || w1 != CVM_SUCCESS)
            continue;
        reuse_tested += n % 2 && tt_tile(params, 0) && tt_tile(params, 1);
        binding bb[4] = {{0, params, sizeof params},
                         {1, src, sizeof src},
                         {2, ld, sizeof ld},
                         {3, st, sizeof st}};
        cvm_diagnostic diag;
        assert_int_equal(run_kept(&pipe, "tensor_tiles", &spec, 1, 0, bb, 4, &diag), CVM_SUCCESS);
        assert_memory_equal(ld, want_ld, sizeof ld);
        assert_memory_equal(st, want_st, sizeof st);
    }
    kept_end(&pipe);
    assert_true(reuse_tested > 10);
}

/* tensor_undefined_state.comp: loads whose addressing the texts leave
 * undefined end in an error that names the state at fault in the
 * pseudo-code's words (before: one generic sentence for all of them, found
 * running glslang's spv.coopmat2_tensor.comp), and the valid case runs. */
static void test_undefined_state_named(void **state)
{
    (void)state;
    static const struct {
        cvm_result r;
        const char *words; /* must appear in the message */
    } cases[5] = {
        {CVM_ERROR_INVALID_ARGUMENT, "span[0] of the tensor layout is 0"},
        {CVM_ERROR_INVALID_ARGUMENT, "BlockSize1 is 0"},
        {CVM_ERROR_INVALID_ARGUMENT, "viewDimension[0] of the tensor view is 0"},
        {CVM_ERROR_INVALID_ARGUMENT, "layoutDimension[0] of the tensor layout is 0"},
        {CVM_ERROR_INVALID_MODULE, "but the tensor layout has LDim 2: t.span[2] does not exist"},
    };
    uint32_t src[64], dst[64];
    for (uint32_t i = 0; i < 64; i++)
        src[i] = 1000u + i * 7u;
    binding bb[2] = {{0, src, sizeof src}, {1, dst, sizeof dst}};
    for (uint32_t c = 0; c <= 5; c++) {
        cvm_specialization spec = {0, 4, c};
        cvm_diagnostic diag;
        memset(&diag, 0, sizeof diag);
        fill_u32(dst, 64, SENTINEL);
        cvm_result r = run_shader("tensor_undefined_state", &spec, 1, 0, 1, bb, 2, &diag);
        if (c == 5) {
            /* 8x8 layout, span = dimensions: element (row, col) is src[row * 8 + col]. */
            assert_int_equal(r, CVM_SUCCESS);
            assert_memory_equal(dst, src, sizeof src);
            continue;
        }
        assert_int_equal(r, cases[c].r);
        if (!strstr(diag.message, cases[c].words))
            fail_msg("case %u: '%s' does not say '%s'", c, diag.message, cases[c].words);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_scalar_blocks_and_clamp),
        cmocka_unit_test(test_decode_vector_matches_scalar),
        cmocka_unit_test(test_decode_vector_mismatch),
        cmocka_unit_test(test_views_3d_4d_5d_and_clip),
        cmocka_unit_test(test_views_out_of_bounds),
        cmocka_unit_test(test_tiles_random),
        cmocka_unit_test(test_tiles_two_subgroups),
        cmocka_unit_test(test_undefined_state_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
