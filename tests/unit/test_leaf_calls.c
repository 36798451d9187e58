/* Leaf callbacks (cvm_function.leaf): a CombineFunc or per-element function
 * of one block of element-wise instructions runs each instruction's handler
 * over a whole batch, arguments and results in place, instead of
 * interpreting its calls.  tests/shaders/leaf_calls.comp reduces a 16x16 f32
 * and a 16x16 u32 matrix per subgroup in every reduction mode (Row, Column,
 * Row|Column, 2x2) with leaves (max, min, +, a*b - a, the first argument, a
 * constant; u32 +, max, xor) and two non-leaves (a branch; a DebugPrintf,
 * an OpExtInst of another set than GLSL.std.450), and applies
 * per-element leaves (exp(v - m) * s, v / l) and one non-leaf (a
 * coordinate converted to float); and a workgroup-scope 64x32 matrix, whose
 * per-element operation is 2048 calls (more than one batch of
 * CVM_CALLBACK_BATCH), and whose row sums fold 32 elements in 64 calls.
 *
 * - The lowering marks exactly the leaves.
 * - Every output equals the interpreted calls' (cvm_test_interpret_leaf_calls:
 *   the same fast kernels) bit for bit, for inputs with NaNs of several
 *   payloads, infinities, signed zeros, subnormals and large values, at
 *   subgroup sizes 8, 16 and 32 (4, 2 and 1 scope instances), three seeds.
 * - Every output equals the reference paths' (every call interpreted, the
 *   reference kernels) bit for bit for the same inputs without NaNs.  With
 *   NaNs the two kernel sets may return different payloads where two NaNs
 *   meet, depending on the compiler (seen at -O0: the f32 kernel and the
 *   double one take the other operand's NaN), which is the kernels' known
 *   difference, not the leaf path's; infinities still make NaNs there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine_util.h"
#include "exec/exec.h"
#include "program_util.h"

#define MAX_SG 4u /* subgroups of the 32 invocations at subgroup size 8 */
#define NX 2048u                  /* 4 x 256 per subgroup; 64x32 */
#define NO (MAX_SG * 2560u + 4096u) /* then 2 x 2048 of the 64x32 */
#define NOI (MAX_SG * 768u)

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill(uint32_t *x, uint32_t *xi, uint64_t seed, int nans)
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
}

typedef struct outs {
    uint32_t o[NO], oi[NOI];
} outs;

static void run(uint32_t sg, uint32_t flags, const uint32_t *x, const uint32_t *xi, outs *out)
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
    uint32_t *w = tu_read("shaders/leaf_calls.spv", &n);
    assert_non_null(w);
    assert_int_equal(cvm_context_create(&d, &ctx, &diag), CVM_SUCCESS);
    if (cvm_module_create(ctx, w, n / 4, &mod, &diag) != CVM_SUCCESS ||
        cvm_pipeline_create(mod, "main", NULL, 0, &pipe, &diag) != CVM_SUCCESS)
        fail_msg("leaf_calls.spv: %s", diag.message);
    free(w);
    memset(out, 0x5a, sizeof *out);
    float s = 0.75f;
    if (cvm_pipeline_bind_buffer(pipe, 0, 0, 0, (void *)x, NX * 4, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 1, 0, (void *)xi, NX * 4, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 2, 0, out->o, sizeof out->o, &diag) != CVM_SUCCESS ||
        cvm_pipeline_bind_buffer(pipe, 0, 3, 0, out->oi, sizeof out->oi, &diag) != CVM_SUCCESS ||
        cvm_pipeline_set_push_constants(pipe, &s, sizeof s, &diag) != CVM_SUCCESS ||
        cvm_pipeline_dispatch(pipe, 1, 1, 1, &diag) != CVM_SUCCESS)
        fail_msg("subgroup size %u, flags 0x%x: %s", sg, flags, diag.message);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
}

static void test_leaf_marks(void **state)
{
    (void)state;
    static const char *const leaves[] = {"maxOf(f1;f1;", "minOf(f1;f1;", "sumOf(f1;f1;",
                                         "mulSub(f1;f1;", "firstOf(f1;f1;", "halfOf(f1;f1;",
                                         "usum(u1;u1;", "umaxOf(u1;u1;", "uxor(u1;u1;",
                                         "expScaled(u1;u1;f1;f1;f1;", "divide(u1;u1;f1;f1;",
                                         "affine(u1;u1;f1;f1;"};
    static const char *const others[] = {"withCol(u1;u1;f1;", "clampNeg(f1;f1;", "printedSum(f1;f1;",
                                         "main"};
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

/* Leaves against interpreted calls (against_reference 0: the same kernels,
 * inputs with NaNs) or against the reference paths (1: no NaN inputs). */
static void compare_outputs(int against_reference)
{
    static const uint32_t sgs[] = {8, 16, 32};
    static uint32_t x[NX], xi[NX];
    static outs fast, ref;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        fill(x, xi, seed * 7919, !against_reference);
        for (size_t k = 0; k < sizeof sgs / sizeof sgs[0]; k++) {
            /* the fast run takes the leaf path, the other never */
            uint64_t b0 = cvm_test_leaf_batches();
            run(sgs[k], 0, x, xi, &fast);
            uint64_t b1 = cvm_test_leaf_batches();
            if (against_reference) {
                run(sgs[k], CVM_FLAG_REFERENCE_PATHS, x, xi, &ref);
            } else {
                cvm_test_interpret_leaf_calls(1);
                run(sgs[k], 0, x, xi, &ref);
                cvm_test_interpret_leaf_calls(0);
            }
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
            /* the subgroups present wrote their results */
            uint32_t nsub = 32 / sgs[k];
            assert_int_not_equal(fast.o[(nsub - 1) * 2560 + 2559], 0x5a5a5a5au);
            assert_int_not_equal(fast.o[NO - 1], 0x5a5a5a5au);
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
    compare_outputs(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leaf_marks),
        cmocka_unit_test(test_leaf_against_interpreted),
        cmocka_unit_test(test_leaf_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
