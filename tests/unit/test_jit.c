/* The compiled tier (src/exec/jit, CVM_FLAG_JIT) against the interpreter
 * (CVM_FLAG_NO_JIT): the same scripts run on both, every buffer compared
 * bit for bit afterwards, on random inputs full of special values; the
 * same failures (out of bounds, the instruction budget) and robust
 * results; and the shaders the tier does not take staying interpreted.
 * cvm_test_jit_groups shows which tier ran.  In a build without LLVM the
 * tests are skipped. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "amber/amber.h"
#include "api/tiers.h"
#include "cvm_config.h"
#include "exec/exec.h"
#include "exec/jit/jit.h"

typedef struct outcome {
    cvm_result r;
    cvm_diagnostic d;
    uint8_t **bufs;
    size_t *sizes;
    uint32_t n;
    uint64_t jit_groups; /* workgroups the run took compiled */
    cvm_tier_info tier;  /* what the tier did with the script's first pipeline */
} outcome;

static void outcome_free(outcome *o)
{
    for (uint32_t i = 0; i < o->n; i++)
        free(o->bufs[i]);
    free(o->bufs);
    free(o->sizes);
    memset(o, 0, sizeof(*o));
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Random 32-bit words, a quarter of them values whose float or integer
 * reading is an edge case. */
static void fill_random(uint8_t *p, size_t size, uint64_t seed)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
        0xff800123u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x3f800000u, 0xbf800000u,
        0x3f000000u, 0x4f000000u, 0xcf000000u, 0x4f800000u, 0x7f7fffffu, 0xffffffffu,
        0x0000001fu, 0x00000020u, 0x00000021u, 0x0000003fu, 0x00000040u, 0x7fffffffu,
        0x3fc00000u, 0xbfc00000u, 0x40490fdbu, 0x00000002u,
    };
    uint64_t s = seed;
    for (size_t at = 0; at + 4 <= size; at += 4) {
        uint64_t r = rng_next(&s);
        uint32_t w = (r & 3) == 0 ? special[(r >> 8) % (sizeof(special) / sizeof(special[0]))]
                                  : (uint32_t)(r >> 32);
        memcpy(p + at, &w, 4);
    }
}

/* The contexts' max_call_depth (0: the default), for test_calls. */
static uint32_t max_call_depth;
/* The contexts' subgroup size (0: the default), for test_collective. */
static uint32_t collective_sg;

/* Runs every RUN of `path` with context flags `flags`; with `seed`, the
 * buffers named in `randomize` (NULL-terminated) get random contents first;
 * `push` (may be NULL) replaces the push-constant buffer's first words. */
static void run_script(const char *path, uint32_t flags, uint64_t budget, uint64_t seed,
                       const char *const *randomize, const uint32_t *push, uint32_t npush,
                       outcome *o)
{
    memset(o, 0, sizeof(*o));
    cvm_amber_script *s = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_parse_file(path, &s, &d);
    if (r != CVM_SUCCESS)
        fail_msg("%s: %s: %s", path, cvm_result_string(r), d.message);
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = 2;
    desc.flags = flags;
    desc.instruction_budget = budget;
    desc.max_call_depth = max_call_depth;
    desc.subgroup_size = collective_sg;
    cvm_amber_session *S = NULL;
    r = cvm_amber_session_create(s, &desc, &S, &d);
    if (r != CVM_SUCCESS)
        fail_msg("%s: session: %s: %s", path, cvm_result_string(r), d.message);
    for (uint32_t k = 0; randomize && randomize[k]; k++) {
        uint32_t bi = cvm_amber_find_buffer(s, randomize[k]);
        assert_int_not_equal(bi, UINT32_MAX);
        size_t size = 0;
        uint8_t *p = cvm_amber_session_buffer(S, bi, &size);
        fill_random(p, size, seed * 1000003u + k);
    }
    if (push) {
        uint32_t bi = cvm_amber_find_buffer(s, "push");
        assert_int_not_equal(bi, UINT32_MAX);
        size_t size = 0;
        uint8_t *p = cvm_amber_session_buffer(S, bi, &size);
        assert_true(size >= npush * 4u);
        memcpy(p, push, npush * 4u);
    }
    uint64_t before = cvm_test_jit_groups();
    o->r = CVM_SUCCESS;
    for (uint32_t k = 0; k < s->run_count && o->r == CVM_SUCCESS; k++)
        o->r = cvm_amber_session_run(S, k, &o->d);
    o->jit_groups = cvm_test_jit_groups() - before;
    cvm_pipeline_tier_info(cvm_amber_session_pipeline(S, 0), &o->tier);
    o->n = s->buffer_count;
    o->bufs = calloc(o->n ? o->n : 1, sizeof(uint8_t *));
    o->sizes = calloc(o->n ? o->n : 1, sizeof(size_t));
    assert_non_null(o->bufs);
    assert_non_null(o->sizes);
    for (uint32_t i = 0; i < o->n; i++) {
        const uint8_t *p = cvm_amber_session_buffer(S, i, &o->sizes[i]);
        o->bufs[i] = malloc(o->sizes[i] ? o->sizes[i] : 1);
        assert_non_null(o->bufs[i]);
        if (o->sizes[i])
            memcpy(o->bufs[i], p, o->sizes[i]);
    }
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
}

/* The two outcomes agree: status, message, and after a success every
 * buffer's bytes (the first difference named); with `exact_nans`, NaNs
 * too (a script whose every NaN the tiers must make alike).  A failed
 * dispatch leaves the buffers as far as each tier got (jit.h: the
 * compiled tier runs the failing workgroup's earlier invocations to their
 * end). */
static void assert_alike(const char *what, const outcome *interp, const outcome *jit,
                         int exact_nans)
{
    if (interp->r != jit->r)
        fail_msg("%s: interpreter %s '%s', compiled %s '%s'", what, cvm_result_string(interp->r),
                 interp->d.message, cvm_result_string(jit->r), jit->d.message);
    if (interp->r != CVM_SUCCESS) {
        /* where a runaway loop is stopped follows how the budget is
         * charged (per block of a subgroup, or of an invocation) */
        if (interp->r != CVM_ERROR_BUDGET_EXCEEDED && strcmp(interp->d.message, jit->d.message))
            fail_msg("%s: interpreter '%s', compiled '%s'", what, interp->d.message,
                     jit->d.message);
        return;
    }
    assert_int_equal(interp->n, jit->n);
    uint64_t nan_pairs = 0;
    for (uint32_t b = 0; b < interp->n; b++) {
        assert_int_equal(interp->sizes[b], jit->sizes[b]);
        for (size_t at = 0; at + 4 <= interp->sizes[b]; at += 4) {
            uint32_t x, y;
            memcpy(&x, interp->bufs[b] + at, 4);
            memcpy(&y, jit->bufs[b] + at, 4);
            if (x == y)
                continue;
            /* Two NaNs: which operand's NaN an operation with two NaN
             * operands returns is left open by the texts, and in the
             * interpreter's kernels it is whichever operand the C compiler
             * put first (x + y and x * y are commutative to it).  Words of
             * an f32 quiet NaN each, or of one f64 quiet NaN each, are such
             * results. */
            size_t at8 = at & ~(size_t)7;
            uint64_t x8 = 0, y8 = 0;
            if (at8 + 8 <= interp->sizes[b]) {
                memcpy(&x8, interp->bufs[b] + at8, 8);
                memcpy(&y8, jit->bufs[b] + at8, 8);
            }
            /* such a result is quiet (an operand's NaN, quieted): a
             * signalling NaN on either side is a real difference */
            int nan32 = (x & 0x7fc00000u) == 0x7fc00000u && (y & 0x7fc00000u) == 0x7fc00000u;
            int nan64 = (x8 & UINT64_C(0x7ff8000000000000)) == UINT64_C(0x7ff8000000000000) &&
                        (y8 & UINT64_C(0x7ff8000000000000)) == UINT64_C(0x7ff8000000000000);
            if ((nan32 || nan64) && !exact_nans) {
                nan_pairs++;
                continue;
            }
            fail_msg("%s: buffer %u word %zu: interpreter 0x%08x, compiled 0x%08x", what, b,
                     at / 4, x, y);
        }
    }
    if (nan_pairs)
        print_message("%s: %llu words NaN on both tiers with other payloads\n", what,
                      (unsigned long long)nan_pairs);
}

/* assert_alike, two NaNs of other payloads let go (see there). */
static void assert_same(const char *what, const outcome *interp, const outcome *jit)
{
    assert_alike(what, interp, jit, 0);
}

static int skip_without_llvm(void)
{
    if (cvm_jit_available())
        return 0;
    print_message("no compiled tier in this build (LLVM): skipped\n");
    return 1;
}

static void path_of(char *dst, size_t n, const char *rel)
{
    snprintf(dst, n, "%s/%s", CVM_TEST_DATA_DIR, rel);
}

/* `rel` with the buffers `inputs` random, seeds 1 to 7, on both tiers: bit
 * for bit (NaNs too with `exact_nans`), all `groups` workgroups compiled.
 * The last seed's interpreter run takes the reference paths (which never
 * compile, CVM_FLAG_JIT or not): the tier matches the interpreter's
 * definition, not only its fast paths. */
static void random_alike(const char *rel, const char *const *inputs, uint64_t groups,
                         int exact_nans)
{
    char path[512];
    path_of(path, sizeof(path), rel);
    for (uint64_t seed = 1; seed <= 7; seed++) {
        outcome a, b;
        uint32_t interp = seed == 7 ? CVM_FLAG_JIT | CVM_FLAG_REFERENCE_PATHS : CVM_FLAG_NO_JIT;
        run_script(path, interp, 0, seed, inputs, NULL, 0, &a);
        run_script(path, CVM_FLAG_JIT, 0, seed, inputs, NULL, 0, &b);
        assert_int_equal(a.jit_groups, 0);
        assert_int_equal(b.jit_groups, groups);
        char what[96];
        snprintf(what, sizeof(what), "%s seed %u", rel, (unsigned)seed);
        assert_alike(what, &a, &b, exact_nans);
        outcome_free(&a);
        outcome_free(&b);
    }
}

static void random_on_both(const char *rel, const char *const *inputs, uint64_t groups)
{
    random_alike(rel, inputs, groups, 0);
}

/* Every instruction kind the tier takes, on random inputs. */
static void test_ops_random(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"fin", "uin", "dbl", "vec", "vin", NULL};
    random_on_both("jit/ops.amber", inputs, 32); /* 4 x 2 x 4 workgroups, all compiled */
    static const char *const vinputs[] = {"fin", "uin", NULL};
    random_on_both("jit/ops_vector.amber", vinputs, 2);
    static const char *const dinputs[] = {"uin", NULL};
    random_on_both("jit/idot.amber", dinputs, 2);
    static const char *const ainputs[] = {"m", "uin", "mi", NULL};
    random_on_both("jit/atomics.amber", ainputs, 4); /* 2 runs of 2 workgroups */
    /* OpDot, the bit-field, bit-count and bit-reverse instructions, the
     * pack and unpack instructions and OpBitcast (pointers too): every
     * NaN alike as well (where a dot product's sum is one, the tier
     * takes the interpreter's own code) */
    static const char *const binputs[] = {"uin", "fin", "dbl", "data", NULL};
    random_alike("jit/ops_bits.amber", binputs, 4, 1); /* 2 runs of 2 workgroups */
    /* OpConvertUToPtr and OpConvertPtrToU */
    static const char *const pinputs[] = {"data", NULL};
    random_on_both("jit/convert_ptr.amber", pinputs, 1);
}

/* f16 values: the arithmetic the tier does inline and the kernels it
 * calls, on random halves. */
static void test_f16_random(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"hin", "hio", NULL};
    random_on_both("jit/ops_f16.amber", inputs, 8); /* 4 x 2 workgroups, all compiled */
}

/* Runs `rel` (under tests/, or an absolute path) on the interpreter and
 * compiled, with `flags` besides, checks that the two agree and that the
 * compiled run took `groups` workgroups compiled (UINT64_MAX: at least
 * one); returns the status.  The compiled run's outcome goes to *o_jit
 * when it is not NULL (the caller frees it). */
static cvm_result both_tiers(const char *rel, uint32_t flags, uint64_t budget,
                             const uint32_t *push, uint32_t npush, uint64_t groups,
                             outcome *o_jit)
{
    char path[512];
    if (rel[0] == '/')
        snprintf(path, sizeof(path), "%s", rel);
    else
        path_of(path, sizeof(path), rel);
    outcome a, b;
    run_script(path, flags | CVM_FLAG_NO_JIT, budget, 0, NULL, push, npush, &a);
    run_script(path, flags | CVM_FLAG_JIT, budget, 0, NULL, push, npush, &b);
    assert_int_equal(a.jit_groups, 0);
    if (groups == UINT64_MAX)
        assert_true(b.jit_groups >= 1);
    else
        assert_int_equal(b.jit_groups, groups);
    assert_same(rel, &a, &b);
    cvm_result r = b.r;
    outcome_free(&a);
    if (o_jit)
        *o_jit = b;
    else
        outcome_free(&b);
    return r;
}

/* `rel` alike on both tiers with `groups` workgroups compiled (both_tiers),
 * then on random `inputs` (random_on_both). */
static void alike_and_random(const char *rel, const char *const *inputs, uint64_t groups)
{
    assert_int_equal(both_tiers(rel, 0, 0, NULL, 0, groups, NULL), CVM_SUCCESS);
    random_on_both(rel, inputs, groups);
}

/* 1 when COOPVM_JIT picks the tier itself (it overrides the flags the
 * tests of the choice by size need unset). */
static int jit_env_set(void)
{
    const char *env = getenv("COOPVM_JIT");
    return env && env[0] && strcmp(env, "auto");
}

/* The budget charges work (tests/jit/budget_muladd.amber works out its
 * 16,900): enough, and every element of the 256x256 product is 256 on
 * both tiers; one short, and neither starts the block. */
static void test_budget_work(void **state)
{
    (void)state;
    const char *rel = "jit/budget_muladd.amber";
    outcome b;
    assert_int_equal(both_tiers(rel, 0, 16900, NULL, 0, UINT64_MAX, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 256u * 256u; i += 257) {
        float v;
        memcpy(&v, b.bufs[0] + (size_t)i * 4, 4);
        assert_true(v == 256.0f);
    }
    outcome_free(&b);
    assert_int_equal(both_tiers(rel, 0, 16899, NULL, 0, UINT64_MAX, &b),
                     CVM_ERROR_BUDGET_EXCEEDED);
    assert_non_null(strstr(b.d.message, "budget"));
    outcome_free(&b);
}

/* Chains of blocks charged at their head (jit_flow.c chain_charges) charge
 * what the interpreter charges: the least budget the interpreter completes
 * tests/jit/budget_chains.amber with (found by bisection on the
 * interpreter alone) completes it on the compiled tier, and one less stops
 * both. */
static void test_budget_chains(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    char path[512];
    path_of(path, sizeof(path), "jit/budget_chains.amber");
    uint64_t lo = 1, hi = 1u << 20; /* the interpreter fails at lo - 1 ... */
    outcome a;
    run_script(path, CVM_FLAG_NO_JIT, hi, 0, NULL, NULL, 0, &a);
    assert_int_equal(a.r, CVM_SUCCESS);
    outcome_free(&a);
    while (lo < hi) { /* ... and completes at hi */
        uint64_t mid = lo + (hi - lo) / 2;
        run_script(path, CVM_FLAG_NO_JIT, mid, 0, NULL, NULL, 0, &a);
        if (a.r == CVM_SUCCESS)
            hi = mid;
        else
            lo = mid + 1;
        outcome_free(&a);
    }
    /* (a few hundred blocks run: the chains are many) */
    assert_true(hi > 300);
    assert_int_equal(both_tiers("jit/budget_chains.amber", 0, hi, NULL, 0, 1, NULL), CVM_SUCCESS);
    assert_int_equal(both_tiers("jit/budget_chains.amber", 0, hi - 1, NULL, 0, 1, NULL),
                     CVM_ERROR_BUDGET_EXCEEDED);
}

/* Out of bounds: the same failure and message; robust: the same zeros;
 * a runaway loop: the budget runs out on both tiers. */
static void test_errors(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    const char *rel = "jit/errors.amber";
    assert_int_equal(both_tiers(rel, 0, 0, NULL, 0, 4, NULL), CVM_SUCCESS); /* in bounds */
    /* the last 5 invocations read past the end */
    const uint32_t past[2] = {5, 0};
    assert_int_equal(both_tiers(rel, 0, 0, past, 2, UINT64_MAX, NULL), CVM_ERROR_OUT_OF_BOUNDS);
    outcome b;
    assert_int_equal(both_tiers(rel, CVM_FLAG_ROBUST_ACCESS, 0, past, 2, 4, &b), CVM_SUCCESS);
    /* the robust zeros reached the output: o[255] = 0 * 2 + 1 */
    uint32_t last;
    memcpy(&last, b.bufs[1] + 255 * 4, 4); /* buffer 1 is o */
    assert_int_equal(last, 1);
    outcome_free(&b);
    /* spinning */
    const uint32_t spin[2] = {0, 1};
    assert_int_equal(both_tiers(rel, 0, 200000, spin, 2, UINT64_MAX, NULL),
                     CVM_ERROR_BUDGET_EXCEEDED);
}

/* A DecodeFunc on two threads (decode_threads.amber), against the
 * interpreter bit for bit.  At the default threshold: interpreted while
 * cold (the run's 64 workgroups x 8 loads make 1024 batches of 1024 calls;
 * the first 127 loads' 254 batches are interpreted, the 128th load's 2048
 * calls bring the count to 2^18), then compiled by one thread while the
 * other goes on interpreting, then tiles.  With CVM_FLAG_JIT: compiled at
 * the first call, tiles from then on. */
static void test_decode_threads(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    char path[512];
    path_of(path, sizeof(path), "jit/decode_threads.amber");
    outcome a, b;
    run_script(path, CVM_FLAG_NO_JIT, 0, 0, NULL, NULL, 0, &a);
    uint64_t t0 = cvm_test_jit_tile_batches(), l0 = cvm_test_leaf_batches();
    run_script(path, 0, 0, 0, NULL, NULL, 0, &b);
    uint64_t tiles = cvm_test_jit_tile_batches() - t0, leaves = cvm_test_leaf_batches() - l0;
    print_message("decode_threads, default threshold: %llu of %llu leaf batches ran as "
                  "compiled tiles\n",
                  (unsigned long long)tiles, (unsigned long long)leaves);
    assert_int_equal(leaves, 1024);
    assert_true(tiles <= 1024 - 254);
    assert_same("decode_threads.amber", &a, &b);
    /* the result is not all zeros */
    uint32_t nonzero = 0;
    for (size_t at = 0; at + 4 <= b.sizes[2]; at += 4)
        nonzero += b.bufs[2][at] | b.bufs[2][at + 1] | b.bufs[2][at + 2] | b.bufs[2][at + 3];
    assert_true(nonzero > 0);
    outcome_free(&b);
    t0 = cvm_test_jit_tile_batches();
    run_script(path, CVM_FLAG_JIT, 0, 0, NULL, NULL, 0, &b);
    tiles = cvm_test_jit_tile_batches() - t0;
    print_message("decode_threads, CVM_FLAG_JIT: %llu of 1024 leaf batches ran as compiled "
                  "tiles\n",
                  (unsigned long long)tiles);
    assert_true(tiles >= 1);
    assert_same("decode_threads.amber (CVM_FLAG_JIT)", &a, &b);
    outcome_free(&a);
    outcome_free(&b);
}

/* A DecodeFunc that reads its block through pointers bit cast to other
 * pointee types, and to two words and back (decode_bitcast.amber, as
 * ggml's DecodeFuncs do): compiled (as tiles under CVM_FLAG_JIT) and
 * alike on both tiers; the script's EXPECT, the corpus's result, holds on
 * both (tests/tiers.cmake). */
static void test_decode_bitcast(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    uint64_t t0 = cvm_test_jit_tile_batches();
    assert_int_equal(both_tiers("jit/decode_bitcast.amber", 0, 0, NULL, 0, UINT64_MAX, NULL),
                     CVM_SUCCESS);
    uint64_t tiles = cvm_test_jit_tile_batches() - t0;
    print_message("decode_bitcast: %llu leaf batches ran as compiled tiles\n",
                  (unsigned long long)tiles);
    assert_true(tiles >= 1);
}

/* A subgroup instruction in a called function (jit/not_taken.amber) keeps
 * its shader on the interpreter under CVM_FLAG_JIT. */
static void test_not_taken(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    assert_int_equal(both_tiers("jit/not_taken.amber", 0, 0, NULL, 0, 0, NULL), CVM_SUCCESS);
}

/* random_on_both at the default subgroup size (32) and at 4. */
static void at_32_and_4(const char *rel, const char *const *inputs, uint64_t groups)
{
    random_on_both(rel, inputs, groups);
    collective_sg = 4;
    random_on_both(rel, inputs, groups);
    collective_sg = 0;
}

/* The collective form (jit.h cvm_jit_collective_form): a barrier between
 * invocations' writes to Workgroup memory and their reads of each other's
 * (jit/barrier.amber, both workgroups compiled); subgroup instructions of
 * every family, a barrier in a loop and lanes that return early, from
 * random inputs (jit/collective.amber), at subgroup sizes 32 and 4 (four
 * subgroups, and thirty-two, in a workgroup of 128); subgroup instructions
 * in blocks convergent within subgroups only (jit/collective_sg.amber) and
 * in blocks not convergent at all (jit/collective_ordered.amber, the
 * block-ordered form) and in called functions (jit/collective_call.amber),
 * from random inputs at both sizes; barriers in a loop
 * the analysis cannot show uniform (jit/barrier_dynamic.amber), and one
 * that an invocation skips: the same failure on both tiers. */
static void test_collective(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    assert_int_equal(both_tiers("jit/barrier.amber", 0, 0, NULL, 0, 2, NULL), CVM_SUCCESS);
    static const char *const inputs[] = {"v", "f", NULL};
    at_32_and_4("jit/collective.amber", inputs, 2);
    /* blocks convergent within subgroups only, at 32 and at 4 a subgroup */
    static const char *const sinputs[] = {"v", NULL};
    at_32_and_4("jit/collective_sg.amber", sinputs, 2);
    /* blocks not convergent at all: the block-ordered form, at 32 and 4 */
    at_32_and_4("jit/collective_ordered.amber", sinputs, 2);
    /* the ballot instructions computed inline, one lane at a time, at 32
     * and 4; random ballots from memory too (bits past the subgroup) */
    static const char *const binputs[] = {"v", "w", NULL};
    at_32_and_4("jit/ballot_lane.amber", binputs, 1);
    /* in called functions every invocation calls together, at 32 and 4 */
    at_32_and_4("jit/collective_call.amber", sinputs, 2);
    /* barriers the analysis cannot show convergent: taken, and checked */
    assert_int_equal(both_tiers("jit/barrier_dynamic.amber", 0, 0, NULL, 0, 1, NULL),
                     CVM_SUCCESS);
    const uint32_t stray[1] = {1};
    outcome b;
    assert_int_equal(both_tiers("jit/barrier_dynamic.amber", 0, 0, stray, 1, 1, &b),
                     CVM_ERROR_DIVERGENT_COLLECTIVE);
    outcome_free(&b);
}

/* The plain-compute scripts of the test suite and the benchmark that the
 * tier takes, on both tiers. */
static void test_scripts(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const scripts[] = {
        "amber/glsl_shader.amber",
        "jit/ops.amber",
    };
    uint64_t groups[] = {4, 32};
    for (size_t k = 0; k < sizeof(scripts) / sizeof(scripts[0]); k++)
        assert_int_equal(both_tiers(scripts[k], 0, 0, NULL, 0, groups[k], NULL), CVM_SUCCESS);
    char saxpy[512];
    snprintf(saxpy, sizeof(saxpy), "%s/bench/bench_saxpy_loop/bench_saxpy_loop.amber",
             CVM_SHARED_DIR);
    FILE *f = fopen(saxpy, "rb");
    if (f) {
        fclose(f);
        outcome a, b;
        run_script(saxpy, CVM_FLAG_NO_JIT, 0, 0, NULL, NULL, 0, &a);
        run_script(saxpy, 0, 0, 0, NULL, NULL, 0, &b); /* large enough to compile by default */
        assert_int_equal(b.jit_groups, 4096);
        assert_same("bench_saxpy_loop", &a, &b);
        outcome_free(&a);
        outcome_free(&b);
    }
}

/* The scope form (jit.h cvm_jit_scope_form): cooperative-matrix shaders
 * whose values outside the matrices are uniform across the workgroup, run
 * once per workgroup with the matrix instructions by the interpreter's
 * handlers.  Each shader as glslang makes it (matrices in Function
 * variables) and through spirv-opt -O (matrices, tensor layouts and views
 * in phis), on random inputs against the interpreter and its reference
 * paths; and the failures: a load out of bounds (the same message), robust
 * zeros, a runaway loop. */
static void test_scope_khr(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"a", "b", NULL};
    random_on_both("jit/scope_khr.amber", inputs, 16);
    random_on_both("jit/scope_khr_opt.amber", inputs, 16);
    /* A's offset one element further: the last row of tiles reads past the
     * end of a (4096 halves) in its last step */
    const uint32_t past[4] = {64, 1, 0, 0x3fc00000u};
    outcome b;
    assert_int_equal(both_tiers("jit/scope_khr.amber", 0, 0, past, 4, UINT64_MAX, &b),
                     CVM_ERROR_OUT_OF_BOUNDS);
    print_message("scope_khr out of bounds: %s\n", b.d.message);
    outcome_free(&b);
    assert_int_equal(both_tiers("jit/scope_khr_opt.amber", 0, 0, past, 4, UINT64_MAX, NULL),
                     CVM_ERROR_OUT_OF_BOUNDS);
    assert_int_equal(both_tiers("jit/scope_khr.amber", CVM_FLAG_ROBUST_ACCESS, 0, past, 4, 16,
                                NULL),
                     CVM_SUCCESS);
    const uint32_t spin[4] = {64, 0, 1, 0x3fc00000u};
    assert_int_equal(both_tiers("jit/scope_khr_opt.amber", 0, 200000, spin, 4, UINT64_MAX, NULL),
                     CVM_ERROR_BUDGET_EXCEEDED);
}

static void test_scope_nv2(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"a", "b", NULL};
    random_on_both("jit/scope_nv2.amber", inputs, 6);
    random_on_both("jit/scope_nv2_opt.amber", inputs, 6);
    const uint32_t spin[4] = {60, 90, 40, 1};
    assert_int_equal(both_tiers("jit/scope_nv2.amber", 0, 200000, spin, 4, UINT64_MAX, NULL),
                     CVM_ERROR_BUDGET_EXCEEDED);
    /* ggml's shape (exec/uniform.h): indices in Private globals, variables
     * with initializers, a block only a specialization constant reaches;
     * with that constant set, the block runs: a loop over each
     * invocation's own index, divergent */
    random_on_both("jit/scope_globals.amber", inputs, 6);
    assert_int_equal(both_tiers("jit/scope_globals_mode1.amber", 0, 0, NULL, 0, 6, NULL),
                     CVM_SUCCESS);
}

/* A cooperative-matrix shader whose other values differ between
 * invocations (tests/shaders/scope_lanes.comp): the scope form runs those
 * by their handlers over the workgroup, its loop-carried values as phis
 * of slots once spirv-opt has made them (the .opt.spv); on random matrices
 * too.  With a partial last subgroup, Length differs between subgroups and
 * the loop over it between invocations: a divergent loop. */
static void test_scope_lanes(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"v", NULL};
    assert_int_equal(both_tiers("jit/scope_lanes.amber", 0, 0, NULL, 0, 2, NULL), CVM_SUCCESS);
    assert_int_equal(both_tiers("jit/scope_lanes_opt.amber", 0, 0, NULL, 0, 2, NULL), CVM_SUCCESS);
    random_on_both("jit/scope_lanes_opt.amber", inputs, 2);
    assert_int_equal(both_tiers("jit/scope_lanes_partial.amber", 0, 0, NULL, 0, 2, NULL),
                     CVM_SUCCESS);
    random_on_both("jit/scope_lanes_partial.amber", inputs, 2);
}

/* Branches on values that differ between invocations in a cooperative-
 * matrix shader (tests/shaders/scope_branches.comp): each arm with the
 * lanes that take it, nested, empty, taken by none, matrix stores in the
 * first subgroup's arm, phis after them (the .opt.spv); on random inputs
 * too. */
static void test_scope_branches(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"v", "p", NULL};
    alike_and_random("jit/scope_branches.amber", inputs, 2);
    alike_and_random("jit/scope_branches_opt.amber", inputs, 2);
}

/* Loops whose trip count differs between invocations in a cooperative-
 * matrix shader (tests/shaders/scope_loops.comp): a for loop, a do-while,
 * one entered by none, one with an if/else inside, their values merged
 * after them (the .opt.spv); on random inputs too (k: trip counts that
 * differ).  A loop inside such a branch stays interpreted
 * (scope_not_taken). */
static void test_scope_loops(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const inputs[] = {"v", "p", NULL};
    alike_and_random("jit/scope_loops.amber", inputs, 2);
    alike_and_random("jit/scope_loops_opt.amber", inputs, 2);
    assert_int_equal(both_tiers("jit/scope_not_taken.amber", 0, 0, NULL, 0, 0, NULL), CVM_SUCCESS);
}

/* By size (no flag: a dispatch of CVM_JIT_MIN_SCOPE_GROUPS workgroups),
 * divergent branches in a cooperative-matrix shader are not compiled at
 * all (jit.h CVM_JIT_FASTER_ONLY): the entry point is refused, naming the
 * first divergent branch, and the interpreter runs every workgroup; where
 * asked (CVM_FLAG_JIT) the same dispatch runs compiled, alike. */
static void test_scope_by_size(void **state)
{
    (void)state;
    if (skip_without_llvm() || jit_env_set())
        skip();
    const char *rel = "jit/scope_branches_by_size.amber";
    outcome b;
    assert_int_equal(both_tiers(rel, 0, 0, NULL, 0, CVM_JIT_MIN_SCOPE_GROUPS, &b), CVM_SUCCESS);
    assert_int_equal(b.tier.entry, 1);
    outcome_free(&b);
    char path[512];
    path_of(path, sizeof(path), rel);
    outcome a;
    run_script(path, 0, 0, 0, NULL, NULL, 0, &a);
    assert_int_equal(a.r, CVM_SUCCESS);
    assert_int_equal(a.jit_groups, 0);
    assert_int_equal(a.tier.entry, -1);
    assert_int_equal(a.tier.entry_why.result, CVM_ERROR_UNSUPPORTED);
    assert_non_null(strstr(a.tier.entry_why.message, "divergent branches or loops"));
    assert_int_equal(a.tier.entry_why.opcode, 250); /* OpBranchConditional */
    assert_int_equal(a.tier.dispatches, 1);
    outcome_free(&a);
}

/* Cooperative-vector shaders take the scope form (jit.h): their
 * instructions run by their handlers over the whole group, so each matrix
 * product stays one product for the group, compiled alike with the
 * interpreter, on random inputs and weights too (integer products: int8 in
 * and out, packed and wide; the optimal layouts and their conversions). */
static void test_scope_coopvec(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const char *const int8_inputs[] = {"packed", "wide", "w", "bias", NULL};
    static const char *const optimal_inputs[] = {"xi", "wi", "wc", NULL};
    alike_and_random("corpus/coopvec_int8/coopvec_int8.amber", int8_inputs, 2);
    alike_and_random("cases/coopvec_optimal/coopvec_optimal.amber", optimal_inputs, 2);
}

/* By size (no flag) a cooperative-vector shader is not compiled
 * (CVM_JIT_FASTER_ONLY): the late compilation a dispatch begins
 * (cvm_test_jit_late_ns) refuses its entry point, naming its first
 * cooperative-vector instruction, and every dispatch stays interpreted. */
static void test_scope_coopvec_by_size(void **state)
{
    (void)state;
    if (skip_without_llvm() || jit_env_set())
        skip();
    char path[512];
    path_of(path, sizeof(path), "corpus/coopvec_int8/coopvec_int8.amber");
    cvm_amber_script *sc = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_amber_parse_file(path, &sc, &d), CVM_SUCCESS);
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = 2;
    cvm_amber_session *S = NULL;
    assert_int_equal(cvm_amber_session_create(sc, &desc, &S, &d), CVM_SUCCESS);
    cvm_test_jit_late_ns(1);
    cvm_tier_info ti;
    memset(&ti, 0, sizeof(ti));
    uint64_t before = cvm_test_jit_groups();
    for (int k = 0; k < 200 && ti.entry != -1; k++) {
        assert_int_equal(cvm_amber_session_run(S, 0, &d), CVM_SUCCESS);
        cvm_pipeline_tier_info(cvm_amber_session_pipeline(S, 0), &ti);
        struct timespec ms = {0, 1000000}; /* (the compilation's thread) */
        nanosleep(&ms, NULL);
    }
    cvm_test_jit_late_ns(0);
    assert_int_equal(ti.entry, -1);
    assert_int_equal(ti.entry_why.result, CVM_ERROR_UNSUPPORTED);
    assert_non_null(strstr(ti.entry_why.message, "cooperative vectors by size"));
    assert_int_equal(ti.entry_why.opcode, 5302); /* OpCooperativeVectorLoadNV */
    assert_int_equal(ti.compiled_dispatches, 0);
    assert_int_equal(cvm_test_jit_groups() - before, 0);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(sc);
}

/* An instruction the tier runs by a lane kernel whose operands are wider
 * than its kernel slots (OpIsInf of a 16-component f64 vector) keeps the
 * shader interpreted, with the interpreter's result. */
static void test_wide_operands_not_taken(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    assert_int_equal(both_tiers("jit/wide_operands.amber", CVM_FLAG_NO_VALIDATION, 0, NULL, 0, 0,
                                NULL),
                     CVM_SUCCESS);
}

/* Word k of buffer b of an outcome. */
static uint32_t word_of(const outcome *o, uint32_t b, size_t k)
{
    uint32_t w;
    assert_true(b < o->n && (k + 1) * 4 <= o->sizes[b]);
    memcpy(&w, o->bufs[b] + k * 4, 4);
    return w;
}

/* Function calls (inlined) and Private variables on the compiled tier,
 * every workgroup compiled, the interpreter's bytes, and the values the
 * scripts' headers work out: calls.amber (glslang without its optimizer:
 * helpers returning values, nested, called from several sites and in
 * loops, an early return from a loop, Private variables with and without
 * initializers, a Private array indexed dynamically), calls_ptr.amber
 * (pointer parameters: a buffer's access chain, a Function variable with
 * an initializer, a Private variable; a callee's loop of phis inlined
 * twice), calls_kill.amber (OpKill in a callee), aggregates.amber (arrays
 * and structs copied whole, passed by value), dynamic_vector.amber
 * (Function and Private vectors indexed by values); and the failure of a
 * call deeper than max_call_depth. */
static void test_calls(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    outcome b;
    assert_int_equal(both_tiers("jit/calls.amber", 0, 0, NULL, 0, 2, &b), CVM_SUCCESS);
    static const uint32_t primes[4] = {2, 3, 5, 7};
    for (uint32_t i = 0; i < 64; i++) { /* buffers a, o, b */
        uint32_t x = i + 1;
        assert_int_equal(word_of(&b, 1, 4 * i), x * x + (x + 1) * (x + 1) + 2);
        assert_int_equal(word_of(&b, 1, 4 * i + 1), 2 * x + 102);
        assert_int_equal(word_of(&b, 1, 4 * i + 2), (2 * x) % 8);
        assert_int_equal(word_of(&b, 1, 4 * i + 3), 18 + primes[x % 4]);
        assert_int_equal(word_of(&b, 2, i), 5 + x + 1);
    }
    outcome_free(&b);
    assert_int_equal(both_tiers("jit/calls_ptr.amber", 0, 0, NULL, 0, 2, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t n = i % 5, tri = n ? n * (n - 1) / 2 : 0; /* tri(i % 5) */
        assert_int_equal(word_of(&b, 0, i), 1020 + 2 * i + tri + 3);
    }
    outcome_free(&b);
    assert_int_equal(both_tiers("jit/calls_kill.amber", CVM_FLAG_NO_VALIDATION, 0, NULL, 0, 2, &b),
                     CVM_SUCCESS);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(word_of(&b, 0, i), i % 4 == 3 ? 7 : 1017 + 2 * i);
    outcome_free(&b);
    assert_int_equal(both_tiers("jit/aggregates.amber", 0, 0, NULL, 0, 4, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t k = (i + 1) % 4;
        assert_int_equal(word_of(&b, 0, 2 * i), 7 * i + 1);
        assert_int_equal(word_of(&b, 0, 2 * i + 1), k * k + i + 3 * i);
    }
    outcome_free(&b);
    assert_int_equal(both_tiers("jit/dynamic_vector.amber", 0, 0, NULL, 0, 4, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t v[4] = {i, 2, 3, 4}, pv[4] = {9, 8, 7, 6};
        v[(i + 1) % 4] += 10;
        pv[i % 3] += i;
        assert_int_equal(word_of(&b, 0, i), v[i % 4] + pv[(i + 2) % 4]);
    }
    outcome_free(&b);
    /* sumsq calls sq: depth 2, over a limit of 1, on both tiers alike */
    max_call_depth = 1;
    assert_int_equal(both_tiers("jit/calls.amber", 0, 0, NULL, 0, UINT64_MAX, &b), CVM_ERROR_LIMIT);
    max_call_depth = 0;
    print_message("calls.amber at max_call_depth 1: %s\n", b.d.message);
    assert_non_null(strstr(b.d.message, "call depth over 1"));
    outcome_free(&b);
}

static uint32_t fastdiv_ref(uint32_t n, uint32_t mp, uint32_t l)
{
    return (uint32_t)(((uint64_t)n * mp >> 32) + n) >> l;
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended and OpSMulExtended (struct
 * results, whose members the tier keeps apart): the script's inputs
 * against values computed here, then random inputs against the
 * interpreter. */
static void test_extended(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    outcome b;
    assert_int_equal(both_tiers("jit/extended.amber", 0, 0, NULL, 0, 4, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t x = 1u + i * 0x12345677u, y = 0xfffffff0u + i * 0x00010003u;
        uint64_t xy = (uint64_t)x * y, yx9 = (uint64_t)y * (x ^ 0x9e3779b9u);
        int64_t sxy = (int64_t)(int32_t)x * (int32_t)y;
        int64_t s0 = (int64_t)(int32_t)x * (int32_t)(y ^ x);
        int64_t s1 = (int64_t)(-(int32_t)y) * (int32_t)x;
        uint32_t want[16] = {x + y, x + y < x, x - y, x < y,
                             (uint32_t)((uint64_t)sxy >> 32), (uint32_t)sxy,
                             (uint32_t)(xy >> 32), (uint32_t)(yx9 >> 32), (uint32_t)xy,
                             (uint32_t)yx9, fastdiv_ref(x, y, i & 31u),
                             fastdiv_ref(y, x | 1u, (i + 7u) & 31u), (uint32_t)((uint64_t)s0 >> 32),
                             (uint32_t)((uint64_t)s1 >> 32), (uint32_t)s0 ^ (uint32_t)s1,
                             x - 1u + (x != 0)};
        for (uint32_t k = 0; k < 16; k++)
            if (word_of(&b, 2, 16 * i + k) != want[k])
                fail_msg("extended.amber o[%u]: 0x%08x, expected 0x%08x", 16 * i + k,
                         word_of(&b, 2, 16 * i + k), want[k]);
    }
    outcome_free(&b);
    static const char *const inputs[] = {"a", "b", NULL};
    random_on_both("jit/extended.amber", inputs, 4);
}

/* Whole structs and arrays through memory with an explicit layout
 * (agg_layout.amber: glslang without its optimizer; ggml's rope shaders
 * read their parameters so): loaded from the push constants, a uniform
 * buffer (std140) and a storage buffer (std430), nested, OpCopyLogical,
 * a struct stored whole; every workgroup compiled, the interpreter's
 * bytes and the values the script's header works out.  Then p.w past 7
 * moves r[at] past the buffer's end for the last invocations: the same
 * failure on both tiers, or in robust mode the stores dropped and zeros
 * read back.  And agg_compose.amber, agg_insert.amber: arrays and structs
 * taken apart, built and changed part by part; agg_matrix.amber: a
 * matrix's row-major and column-major layouts (the headers' values). */
static void test_agg_layout(void **state)
{
    (void)state;
    if (skip_without_llvm())
        skip();
    static const uint32_t v[3] = {10, 20, 30}, ub[4] = {1, 2, 3, 4}, ud[2] = {6, 7};
    static const uint32_t sb[4] = {100, 200, 300, 400}, sd[2] = {600, 700};
    for (int pass = 0; pass < 2; pass++) {
        /* push: a, v[3], f (0.5f), w; w = 12 puts at = i + 5 past the 64
         * elements of r for i >= 59 */
        uint32_t w = pass ? 12 : 7;
        const uint32_t push[6] = {3, 10, 20, 30, 0x3f000000u, w};
        outcome b;
        if (pass)
            assert_int_equal(both_tiers("jit/agg_layout.amber", 0, 0, push, 6, UINT64_MAX, NULL),
                             CVM_ERROR_OUT_OF_BOUNDS);
        assert_int_equal(both_tiers("jit/agg_layout.amber", pass ? CVM_FLAG_ROBUST_ACCESS : 0, 0,
                                    push, 6, 4, &b),
                         CVM_SUCCESS);
        for (uint32_t i = 0; i < 64; i++) { /* buffers push, ubo, ssbo, o, r */
            uint32_t k = i % 4, m = i % 2, at = i + w - 7;
            assert_int_equal(word_of(&b, 3, 4 * i), 3 * i + v[i % 3] + 2 + w);
            assert_int_equal(word_of(&b, 3, 4 * i + 1), ub[k] + 5 * i + ud[m] + 2);
            assert_int_equal(word_of(&b, 3, 4 * i + 2), sb[k] + sd[m] + 4 * i);
            assert_int_equal(word_of(&b, 3, 4 * i + 3), 1800 + (at < 64 ? 9 + i : 0));
            if (at >= 64)
                continue;
            const uint32_t q[8] = {i, i + 1, i + 2, i + 3, 9 + i, 0, 0, 0x3f800000u};
            for (uint32_t c = 0; c < 8; c++)
                assert_int_equal(word_of(&b, 4, 8 * at + c), q[c]);
        }
        if (pass) /* r[0 .. 4], which no invocation stores to, stay zero */
            for (uint32_t c = 0; c < 5 * 8; c++)
                assert_int_equal(word_of(&b, 4, c), 0);
        outcome_free(&b);
    }
    /* SPIR-V 1.3: the loaded struct taken apart (OpCompositeExtract of
     * arrays and a nested struct), struct constructors, a constant array */
    static const uint32_t tbl[4] = {5, 6, 7, 8};
    outcome b;
    assert_int_equal(both_tiers("jit/agg_compose.amber", 0, 0, NULL, 0, 4, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) { /* buffers push, o, r */
        assert_int_equal(word_of(&b, 1, 2 * i), 36 + i);
        assert_int_equal(word_of(&b, 1, 2 * i + 1), 6 * i + 18 + tbl[i % 4] + tbl[(i + 1) % 4]);
        const uint32_t q[8] = {i, i + 1, tbl[i % 4], 2 * i, 9 + i, 7, i, 0x3f800000u};
        for (uint32_t c = 0; c < 8; c++)
            assert_int_equal(word_of(&b, 2, 8 * i + c), q[c]);
    }
    outcome_free(&b);
    /* a struct with a matrix, row-major (strided columns) in a uniform
     * buffer, column-major in a storage buffer: words 0..11 of o[i] */
    assert_int_equal(both_tiers("jit/agg_matrix.amber", 0, 0, NULL, 0, 1, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 4; i++) {
        const float want[12] = {1, 4, 2, 5, 3, 6, 0, 0, 7, 8, 9, 10.0f + (float)i};
        for (uint32_t c = 0; c < 12; c++) {
            float got;
            uint32_t wd = word_of(&b, 1, 12 * i + c);
            memcpy(&got, &wd, 4);
            assert_true(got == want[c]);
        }
    }
    outcome_free(&b);
    /* OpCompositeInsert into arrays and structs, parts of constants */
    assert_int_equal(both_tiers("jit/agg_insert.amber", 0, 0, NULL, 0, 4, &b), CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) {
        const uint32_t want[6] = {3 * i, i + 1, 40, 10, 20, i};
        for (uint32_t c = 0; c < 6; c++)
            assert_int_equal(word_of(&b, 0, 6 * i + c), want[c]);
    }
    outcome_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ops_random), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_budget_work),
        cmocka_unit_test(test_budget_chains),
        cmocka_unit_test(test_collective),
        cmocka_unit_test(test_not_taken),  cmocka_unit_test(test_scripts),
        cmocka_unit_test(test_f16_random), cmocka_unit_test(test_decode_threads),
        cmocka_unit_test(test_decode_bitcast),
        cmocka_unit_test(test_scope_khr),  cmocka_unit_test(test_scope_nv2),
        cmocka_unit_test(test_scope_lanes),
        cmocka_unit_test(test_scope_branches),
        cmocka_unit_test(test_scope_loops),
        cmocka_unit_test(test_scope_by_size),
        cmocka_unit_test(test_scope_coopvec),
        cmocka_unit_test(test_scope_coopvec_by_size),
        cmocka_unit_test(test_wide_operands_not_taken),
        cmocka_unit_test(test_calls),         cmocka_unit_test(test_extended),
        cmocka_unit_test(test_agg_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
