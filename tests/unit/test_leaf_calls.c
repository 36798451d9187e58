/* Leaf callbacks (cvm_function.leaf): a callback of one block of pure
 * instructions, loads and stores to its own dense variables runs each
 * instruction's handler over a whole batch, arguments and results in place,
 * instead of interpreting its calls.  tests/shaders/leaf_calls.comp reduces
 * a 16x16 f32 and a 16x16 u32 matrix per subgroup in every reduction mode
 * (Row, Column, Row|Column, 2x2) with leaves (max, min, +, a*b - a, the
 * first argument, a constant; u32 +, max, xor) and two non-leaves (a
 * branch; a DebugPrintf, an OpExtInst of another set than GLSL.std.450), and
 * applies per-element leaves (exp(v - m) * s, v / l, v + float(c)); and a
 * workgroup-scope 64x32 matrix, whose per-element operation is 2048 calls
 * (more than one batch of CVM_CALLBACK_BATCH), and whose row sums fold 32
 * elements in 64 calls.  It decodes 32x64 4-bit block-quantized weights
 * (2048 calls a load) with three leaf DecodeFuncs (loads through the block
 * pointer into dense variables; the block coordinates too; a push constant,
 * a value computed once for all lanes) and two non-leaves (a local array
 * indexed by a value; a Private variable of the caller), and a 16x48 window
 * of them starting inside a block.
 *
 * - The lowering marks exactly the leaves.
 * - dequantQ4's and dequantConst's outputs equal a model computed here.
 * - Every output equals the interpreted calls' (cvm_test_interpret_leaf_calls:
 *   the same fast kernels) bit for bit, for inputs with NaNs of several
 *   payloads, infinities, signed zeros, subnormals and large values, at
 *   subgroup sizes 8, 16 and 32 (4, 2 and 1 scope instances), three seeds.
 * - Every output equals the reference paths' (every call interpreted, the
 *   reference kernels) bit for bit for the same inputs without NaNs.  With
 *   NaNs the two kernel sets may return different payloads where two NaNs
 *   meet, depending on the compiler (seen at -O0: the f32 kernel and the
 *   double one take the other operand's NaN), which is the kernels' known
 *   difference, not the leaf path's; infinities still make NaNs there.
 * - Every output of compiled leaves (CVM_FLAG_JIT, exec/jit/jit.h: all 16
 *   leaves compiled in the form they run in, every leaf batch compiled) equals the interpreted
 *   leaves' (CVM_FLAG_NO_JIT) bit for bit, quiet NaNs apart where two NaNs
 *   meet (compare_bits); a weights buffer 7 bytes short fails the same way
 *   on both, and gives the same results in robust mode.
 * - The DecodeFunc loads whose elements are all in memory take the split
 *   plan (ops/tensor_ops.c decode_split), the reference paths never. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine_util.h"
#include "exec/exec.h"
#include "exec/jit/jit.h"
#include "program_util.h"

#define MAX_SG 4u /* subgroups of the 32 invocations at subgroup size 8 */
#define NX 2048u                  /* 4 x 256 per subgroup; 64x32 */
#define NO (MAX_SG * 2560u + 4096u) /* then 2 x 2048 of the 64x32 */
#define NOI (MAX_SG * 768u)
#define NQ (32u * 2u * 18u) /* 32x64 weights: 2 blocks of 18 bytes a row */
#define NOH (5u * 2048u + 16u * 48u)

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill(uint32_t *x, uint32_t *xi, uint8_t *q, uint64_t seed, int nans)
{
    static const uint32_t special[] = {
        0x7f800000u, 0xff800000u, 0x80000000u, 0x00000000u, /* infinities, zeros */
        0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu, /* subnormals, largest */
        0x7fc00000u, 0x7fc12345u, 0xffc00001u, 0x7f800001u, /* NaNs, one signalling */
    };
    uint32_t nspecial = nans ? 12 : 8;
    for (uint32_t i = 0; i < NX; i++) {
        uint64_t r = next(&seed);
        if ((r & 7) == 0) {
            x[i] = special[(r >> 3) % nspecial];
        } else {
            float f = (float)((int64_t)(r >> 20) % 20000) / 64.0f;
            memcpy(&x[i], &f, 4);
        }
        xi[i] = (uint32_t)(r >> 32);
    }
    /* blocks: random codes, scales any f16 (without NaNs: finite) */
    for (uint32_t i = 0; i < NQ; i++)
        q[i] = (uint8_t)next(&seed);
    for (uint32_t b = 0; b < NQ / 18u; b++)
        if (!nans && (q[b * 18u + 1] & 0x7c) == 0x7c)
            q[b * 18u + 1] &= 0xbf;
}

typedef struct outs {
    uint32_t o[NO], oi[NOI];
    uint16_t oh[NOH];
} outs;

/* One dispatch with the weights buffer `qbytes` long; its status, and the
 * message in *o_diag. */
static cvm_result run_module(const char *spv, uint32_t sg, uint32_t flags, const uint32_t *x,
                             const uint32_t *xi, const uint8_t *q, size_t qbytes, outs *out,
                             cvm_diagnostic *o_diag)
{
    cvm_context_desc d;
    memset(&d, 0, sizeof(d));
    d.subgroup_size = sg;
    d.threads = 1;
    d.flags = flags;
    cvm_diagnostic diag;
    memset(&diag, 0, sizeof(diag));
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    size_t n = 0;
    uint32_t *w = tu_read(spv, &n);
    assert_non_null(w);
    assert_int_equal(cvm_context_create(&d, &ctx, &diag), CVM_SUCCESS);
    if (cvm_module_create(ctx, w, n / 4, &mod, &diag) != CVM_SUCCESS ||
        cvm_pipeline_create(mod, "main", NULL, 0, &pipe, &diag) != CVM_SUCCESS)
        fail_msg("%s: %s", spv, diag.message);
    free(w);
    memset(out, 0x5a, sizeof *out);
    float s = 0.75f;
    if (cvm_pipeline_bind_buffer(pipe, 0, 0, 0, (void *)x, NX * 4, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 1, 0, (void *)xi, NX * 4, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 2, 0, out->o, sizeof out->o, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 3, 0, out->oi, sizeof out->oi, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 4, 0, (void *)q, qbytes, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 5, 0, out->oh, sizeof out->oh, &diag) != CVM_SUCCESS ||
        cvm_pipeline_set_push_constants(pipe, &s, sizeof s, &diag) != CVM_SUCCESS)
        fail_msg("subgroup size %u, flags 0x%x: %s", sg, flags, diag.message);
    cvm_result r = cvm_pipeline_dispatch(pipe, 1, 1, 1, &diag);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    *o_diag = diag;
    return r;
}

static cvm_result run_q(uint32_t sg, uint32_t flags, const uint32_t *x, const uint32_t *xi,
                        const uint8_t *q, size_t qbytes, outs *out, cvm_diagnostic *o_diag)
{
    return run_module("shaders/leaf_calls.spv", sg, flags, x, xi, q, qbytes, out, o_diag);
}

static void run(uint32_t sg, uint32_t flags, const uint32_t *x, const uint32_t *xi,
                const uint8_t *q, outs *out)
{
    cvm_diagnostic diag;
    if (run_q(sg, flags, x, xi, q, NQ, out, &diag) != CVM_SUCCESS)
        fail_msg("subgroup size %u, flags 0x%x: %s", sg, flags, diag.message);
}

static void test_leaf_marks(void **state)
{
    (void)state;
    static const char *const leaves[] = {"maxOf(f1;f1;", "minOf(f1;f1;", "sumOf(f1;f1;",
                                         "mulSub(f1;f1;", "firstOf(f1;f1;", "halfOf(f1;f1;",
                                         "usum(u1;u1;", "umaxOf(u1;u1;", "uxor(u1;u1;",
                                         "expScaled(u1;u1;f1;f1;f1;", "divide(u1;u1;f1;f1;",
                                         "affine(u1;u1;f1;f1;", "withCol(u1;u1;f1;",
                                         "dequantQ4(1;u1[2];u1[2];",
                                         "dequantCoords(1;u1[2];u1[2];",
                                         "dequantConst(1;u1[2];u1[2];"};
    static const char *const others[] = {"clampNeg(f1;f1;", "printedSum(f1;f1;",
                                         "dequantArray(1;u1[2];u1[2];",
                                         "dequantPrivate(1;u1[2];u1[2];", "main"};
    size_t size = 0;
    uint32_t *w = tu_read("shaders/leaf_calls.spv", &size);
    assert_non_null(w);
    spv_module mod;
    cvm_program *prog;
    tu_program(&w, size / 4, &mod, &prog);
    uint32_t found = 0;
    for (uint32_t f = 0; f < prog->nfuncs; f++) {
        const char *name = spv_module_name(&mod, prog->funcs[f].id);
        assert_non_null(name);
        int want = -1;
        for (size_t k = 0; k < sizeof leaves / sizeof leaves[0]; k++)
            if (!strcmp(name, leaves[k]))
                want = 1;
        for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
            if (!strcmp(name, others[k]))
                want = 0;
        if (want < 0)
            fail_msg("function %s is not in the lists", name);
        if ((int)prog->funcs[f].leaf != want)
            fail_msg("function %s: leaf %u, expected %d", name, prog->funcs[f].leaf, want);
        found++;
    }
    assert_int_equal(found, sizeof leaves / sizeof leaves[0] + sizeof others / sizeof others[0]);
    tu_program_release(&mod, prog);
    free(w);
}

/* f16 bits to float (exact), and float to f16 bits rounding to nearest
 * even: the test's own, so that the model below does not use the engine's */
static float h2f(uint16_t h)
{
    uint32_t e = (h >> 10) & 31u, m = h & 1023u;
    float v = e == 0 ? (float)m * (1.0f / 16777216.0f)
              : e == 31 ? (m ? __builtin_nanf("") : __builtin_inff())
                        : (float)(1024u + m) * ((float)(1u << e) / 33554432.0f);
    return (h & 0x8000u) ? -v : v;
}

static uint16_t f2h(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    float a = f < 0 ? -f : f;
    if (a != a)
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 65520.0f) /* rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    /* a multiple of the f16 ulp at a's binade, rounded to nearest even */
    int e;
    (void)__builtin_frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int q = e - 11 < -24 ? -24 : e - 11; /* the ulp is 2^q */
    float scaled = __builtin_ldexpf(a, -q);
    float fl = __builtin_floorf(scaled), rem = scaled - fl;
    uint32_t n = (uint32_t)fl + (rem > 0.5f || (rem == 0.5f && ((uint32_t)fl & 1u)));
    /* n * 2^q: n < 2048; a normal when n >= 1024 (q + 10 + 15 its exponent) */
    if (n >= 2048u) {
        n >>= 1;
        q++;
    }
    if (n < 1024u)
        return (uint16_t)(sign | n);
    return (uint16_t)(sign | (uint16_t)((uint32_t)(q + 25) << 10) | (n - 1024u));
}

/* dequantQ4's weights and dequantConst's value, computed here: weight
 * (r, c) is (code - 8) * d of block (r, c / 32), the product rounded once to
 * f16 */
static void check_model(const uint8_t *q, const uint16_t *oh)
{
    for (uint32_t r = 0; r < 32; r++) {
        for (uint32_t c = 0; c < 64; c++) {
            const uint8_t *blk = q + (r * 2u + c / 32u) * 18u;
            uint32_t j = c % 32u;
            int code = (int)((blk[2 + (j & 15u)] >> ((j >> 4) * 4u)) & 15u);
            float d = h2f((uint16_t)(blk[0] | blk[1] << 8));
            uint16_t want = f2h((float)(code - 8) * d), got = oh[r * 64u + c];
            if (d != d ? (got & 0x7c00u) != 0x7c00u || !(got & 0x3ffu) : got != want)
                fail_msg("dequantQ4 (%u, %u): 0x%04x, the model gives 0x%04x", r, c, got, want);
            if (oh[4096u + r * 64u + c] != 0x3a00u) /* 0.75 */
                fail_msg("dequantConst (%u, %u): 0x%04x", r, c, oh[4096u + r * 64u + c]);
        }
    }
}

enum { VS_INTERPRETED, VS_REFERENCE, VS_COMPILED };

/* The leaves of leaf_calls.comp (test_leaf_marks' list). */
#define LEAVES 16u

/* Every output bit for bit, except where both words are quiet NaNs: an
 * operation on two NaNs returns one of them, and which one is the operand
 * order the code generator picked for a commutative instruction (x86 keeps
 * the first source's), so LLVM's code and gcc's kernels may differ there
 * (test_jit.c accepts the same).  The reductions here fold rows holding
 * several NaNs (a signalling 0x7f800001 among them): seen, sumOf returning
 * the quieted 0x7fc00001 where the kernel returns 0xffc00001, and mulSub
 * the default NaN of inf * 0 where the kernel returns an input's. */
static int same_word(uint32_t a, uint32_t b, int half)
{
    if (a == b)
        return 1;
    if (half)
        return (a & 0x7e00u) == 0x7e00u && (b & 0x7e00u) == 0x7e00u;
    return (a & 0x7fc00000u) == 0x7fc00000u && (b & 0x7fc00000u) == 0x7fc00000u;
}

static void compare_bits(const outs *f, const outs *r, unsigned seed, uint32_t sg,
                         const char *what)
{
    uint32_t pairs = 0;
    for (uint32_t i = 0; i < NO; i++) {
        if (f->o[i] == r->o[i])
            continue;
        if (!same_word(f->o[i], r->o[i], 0))
            fail_msg("seed %u, subgroup %u: o[%u] is 0x%08x, the %s give 0x%08x", seed, sg, i,
                     f->o[i], what, r->o[i]);
        pairs++;
    }
    for (uint32_t i = 0; i < NOI; i++)
        if (f->oi[i] != r->oi[i])
            fail_msg("seed %u, subgroup %u: oi[%u] is 0x%08x, the %s give 0x%08x", seed, sg, i,
                     f->oi[i], what, r->oi[i]);
    for (uint32_t i = 0; i < NOH; i++) {
        if (f->oh[i] == r->oh[i])
            continue;
        if (!same_word(f->oh[i], r->oh[i], 1))
            fail_msg("seed %u, subgroup %u: oh[%u] is 0x%04x, the %s give 0x%04x", seed, sg, i,
                     f->oh[i], what, r->oh[i]);
        pairs++;
    }
    if (pairs)
        print_message("seed %u, subgroup %u: %u NaN outputs with other payloads\n", seed, sg,
                      pairs);
}

/* Leaves against interpreted calls (VS_INTERPRETED: the same kernels,
 * inputs with NaNs), against the reference paths (VS_REFERENCE: no NaN
 * inputs), or compiled (CVM_FLAG_JIT) against interpreted (CVM_FLAG_NO_JIT)
 * leaves (VS_COMPILED, inputs with NaNs). */
static void compare_outputs(int against)
{
    int against_reference = against == VS_REFERENCE;
    static const uint32_t sgs[] = {8, 16, 32};
    static uint32_t x[NX], xi[NX];
    static uint8_t q[NQ];
    static outs fast, ref;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        fill(x, xi, q, seed * 7919, !against_reference);
        for (size_t k = 0; k < sizeof sgs / sizeof sgs[0]; k++) {
            /* the fast run takes the leaf path, the other never */
            if (against == VS_COMPILED) {
                uint64_t c0 = cvm_test_jit_leaf_batches(), l0 = cvm_test_leaf_batches();
                uint64_t t0 = cvm_test_jit_tile_batches(), u0 = cvm_test_jit_unchecked_batches();
                uint32_t f0 = cvm_test_jit_forms_compiled();
                run(sgs[k], CVM_FLAG_JIT, x, xi, q, &fast);
                uint64_t c1 = cvm_test_jit_leaf_batches(), l1 = cvm_test_leaf_batches();
                /* the three leaf DecodeFuncs' loads (two batches of 1024 each
                 * for 32x64) and the 16x48 window (one) as tiles, all without
                 * checks: dequantQ4's and dequantCoords' block accesses have
                 * known ranges inside the buffer, dequantConst makes none */
                if (cvm_test_jit_tile_batches() - t0 != 7 ||
                    cvm_test_jit_unchecked_batches() - u0 != 7)
                    fail_msg("subgroup %u: %llu tile batches, %llu unchecked", sgs[k],
                             (unsigned long long)(cvm_test_jit_tile_batches() - t0),
                             (unsigned long long)(cvm_test_jit_unchecked_batches() - u0));
                run(sgs[k], CVM_FLAG_NO_JIT, x, xi, q, &ref);
                /* every leaf batch of the first run compiled, none of the other */
                if (c1 - c0 != l1 - l0 || c1 == c0 || cvm_test_jit_leaf_batches() != c1 ||
                    cvm_test_leaf_batches() == l1)
                    fail_msg("subgroup %u: %llu of %llu leaf batches compiled, then %llu",
                             sgs[k], (unsigned long long)(c1 - c0),
                             (unsigned long long)(l1 - l0),
                             (unsigned long long)(cvm_test_jit_leaf_batches() - c1));
                /* every leaf compiled in the form it ran in: the 13 called
                 * per element or per reduction step in batches, the three
                 * DecodeFuncs as unchecked tiles */
                if (cvm_test_jit_forms_compiled() - f0 != LEAVES)
                    fail_msg("%u forms compiled for the %u leaves",
                             cvm_test_jit_forms_compiled() - f0, LEAVES);
                compare_bits(&fast, &ref, (unsigned)seed, sgs[k], "interpreted leaves");
                continue;
            }
            uint64_t b0 = cvm_test_leaf_batches(), s0 = cvm_test_split_decodes();
            run(sgs[k], 0, x, xi, q, &fast);
            uint64_t b1 = cvm_test_leaf_batches(), s1 = cvm_test_split_decodes();
            /* the five whole-matrix loads and the window through the split plan
             * (decode_split); the reference paths never */
            if (s1 - s0 != 6)
                fail_msg("subgroup %u: %llu loads took the split plan", sgs[k],
                         (unsigned long long)(s1 - s0));
            if (against_reference) {
                run(sgs[k], CVM_FLAG_REFERENCE_PATHS, x, xi, q, &ref);
            } else {
                cvm_test_interpret_leaf_calls(1);
                run(sgs[k], 0, x, xi, q, &ref);
                cvm_test_interpret_leaf_calls(0);
            }
            if (against_reference && cvm_test_split_decodes() != s1)
                fail_msg("the reference paths took the split plan");
            if (b1 <= b0 || cvm_test_leaf_batches() != b1)
                fail_msg("subgroup %u: %llu leaf batches in the fast run, %llu in the other",
                         sgs[k], (unsigned long long)(b1 - b0),
                         (unsigned long long)(cvm_test_leaf_batches() - b1));
            for (uint32_t i = 0; i < NO; i++)
                if (fast.o[i] != ref.o[i])
                    fail_msg("seed %u, subgroup %u: o[%u] is 0x%08x, the %s give 0x%08x",
                             (unsigned)seed, sgs[k], i, fast.o[i],
                             against_reference ? "reference paths" : "interpreted calls",
                             ref.o[i]);
            for (uint32_t i = 0; i < NOI; i++)
                if (fast.oi[i] != ref.oi[i])
                    fail_msg("seed %u, subgroup %u: oi[%u] is 0x%08x, the %s give 0x%08x",
                             (unsigned)seed, sgs[k], i, fast.oi[i],
                             against_reference ? "reference paths" : "interpreted calls",
                             ref.oi[i]);
            check_model(q, fast.oh);
            for (uint32_t i = 0; i < NOH; i++)
                if (fast.oh[i] != ref.oh[i])
                    fail_msg("seed %u, subgroup %u: oh[%u] is 0x%04x, the %s give 0x%04x",
                             (unsigned)seed, sgs[k], i, fast.oh[i],
                             against_reference ? "reference paths" : "interpreted calls",
                             ref.oh[i]);
            /* the subgroups present wrote their results */
            uint32_t nsub = 32 / sgs[k];
            assert_int_not_equal(fast.o[(nsub - 1) * 2560 + 2559], 0x5a5a5a5au);
            assert_int_not_equal(fast.o[NO - 1], 0x5a5a5a5au);
            assert_int_not_equal(fast.oh[NOH - 1], 0x5a5au);
        }
    }
}

static void test_leaf_against_interpreted(void **state)
{
    (void)state;
    compare_outputs(0);
}

static void test_leaf_against_reference(void **state)
{
    (void)state;
    compare_outputs(VS_REFERENCE);
}

static void test_compiled_against_interpreted(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip(); /* a build without LLVM */
    compare_outputs(VS_COMPILED);
}

/* A weights buffer 7 bytes short: the last block's loads in dequantQ4 and
 * dequantCoords (its scale at byte 0 stays in bounds, its codes do not)
 * fail the same way compiled and interpreted (status and message: the
 * invocation, the size and the offset), and read zero in robust mode. */
static void test_compiled_out_of_bounds(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    static uint32_t x[NX], xi[NX];
    static uint8_t q[NQ];
    static outs a, b;
    fill(x, xi, q, 4242, 1);
    cvm_diagnostic da, db;
    uint64_t c0 = cvm_test_jit_tile_batches(), u0 = cvm_test_jit_unchecked_batches();
    cvm_result ra = run_q(32, CVM_FLAG_JIT, x, xi, q, NQ - 7, &a, &da);
    /* the failing batch ran compiled, a tile, with its checks: the tile
     * reaches past the buffer */
    assert_true(cvm_test_jit_tile_batches() > c0);
    assert_int_equal(cvm_test_jit_unchecked_batches(), u0);
    cvm_result rb = run_q(32, CVM_FLAG_NO_JIT, x, xi, q, NQ - 7, &b, &db);
    assert_int_equal(ra, CVM_ERROR_OUT_OF_BOUNDS);
    assert_int_equal(rb, ra);
    assert_string_equal(da.message, db.message);
    assert_int_equal(da.word_offset, db.word_offset);
    print_message("both: %s\n", da.message);
    ra = run_q(32, CVM_FLAG_JIT | CVM_FLAG_ROBUST_ACCESS, x, xi, q, NQ - 7, &a, &da);
    rb = run_q(32, CVM_FLAG_NO_JIT | CVM_FLAG_ROBUST_ACCESS, x, xi, q, NQ - 7, &b, &db);
    assert_int_equal(ra, CVM_SUCCESS);
    assert_int_equal(rb, CVM_SUCCESS);
    compare_bits(&a, &b, 4242, 32, "interpreted leaves (robust)");
}

/* leaf_calls_wide.spv: dequantQ4 reads q[((j & 48) >> 1) * 2 + 1], byte 19
 * of its 18-byte block at most, whose range the compiled tier bounds at
 * [1, 49] (its AND, shift, product and sum rules); dequantCoords reads
 * q[q[0]], byte 257 at most, bounded at [0, 255] (zero extension of a
 * byte).  The weights buffer, with `slack` bytes after the blocks:
 *   - 320: every tile's whole range lies in the buffer: all 7 decode
 *     batches run compiled without checks, giving the interpreted leaves'
 *     results;
 *   - 64: dequantQ4's tiles fit (2 unchecked batches), dequantCoords' do not:
 *     its tile runs with its checks, and a read past the buffer fails as the
 *     interpreted call does;
 *   - 0: dequantQ4's last block already reads past it: checked, the same
 *     failure as the interpreted calls. */
static void known_ranges_run(uint32_t slack, uint64_t unchecked, cvm_result want)
{
    static uint32_t x[NX], xi[NX];
    static uint8_t q[NQ + 320];
    static outs a, b;
    fill(x, xi, q, 777, 1);
    for (uint32_t i = NQ; i < NQ + 320; i++)
        q[i] = (uint8_t)(i * 37u);
    cvm_diagnostic da, db;
    const char *spv = "shaders/leaf_calls_wide.spv";
    uint64_t u0 = cvm_test_jit_unchecked_batches();
    cvm_result ra = run_module(spv, 32, CVM_FLAG_JIT, x, xi, q, NQ + slack, &a, &da);
    uint64_t u = cvm_test_jit_unchecked_batches() - u0;
    cvm_result rb = run_module(spv, 32, CVM_FLAG_NO_JIT, x, xi, q, NQ + slack, &b, &db);
    if (ra != want || rb != want || u != unchecked)
        fail_msg("slack %u: compiled %s, interpreted %s, %llu batches unchecked", slack,
                 cvm_result_string(ra), cvm_result_string(rb), (unsigned long long)u);
    if (want != CVM_SUCCESS) {
        assert_string_equal(da.message, db.message);
        print_message("slack %u, both: %s\n", slack, da.message);
        return;
    }
    compare_bits(&a, &b, 777, 32, "interpreted leaves (wide reads)");
    /* the wide reads changed what the two decode (the control for the
     * comparison above: the bytes read are other ones) */
    static outs c;
    assert_int_equal(run_q(32, CVM_FLAG_NO_JIT, x, xi, q, NQ, &c, &db), CVM_SUCCESS);
    assert_memory_not_equal(a.oh, c.oh, 2048 * 2);
    assert_memory_not_equal(a.oh + 2048, c.oh + 2048, 2048 * 2);
}

static void test_compiled_known_ranges(void **state)
{
    (void)state;
    if (!cvm_jit_available())
        skip();
    known_ranges_run(320, 7, CVM_SUCCESS);
    known_ranges_run(64, 2, CVM_ERROR_OUT_OF_BOUNDS);
    known_ranges_run(0, 0, CVM_ERROR_OUT_OF_BOUNDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leaf_marks),
        cmocka_unit_test(test_leaf_against_interpreted),
        cmocka_unit_test(test_leaf_against_reference),
        cmocka_unit_test(test_compiled_against_interpreted),
        cmocka_unit_test(test_compiled_out_of_bounds),
        cmocka_unit_test(test_compiled_known_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
