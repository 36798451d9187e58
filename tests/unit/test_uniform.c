/* The uniformity analysis (exec/uniform.h) and the interpreter's use of it:
 * tests/shaders/uniform_flow.comp, unoptimised (Function variables) and
 * through spirv-opt -O (phis; the early return becomes a break out of a
 * wrapper switch, so the lanes that leave wait instead of ending).
 *
 * - The marks: which of the shader's Function variables the analysis makes
 *   uniform (those equal in every lane at every point) and which it must
 *   not (stored under a divergent branch, in a loop lanes leave at
 *   different iterations, after a divergent break or continue): those are
 *   dense (one array of lanes), and some of their loads alias the array.
 * - The outputs: every lane's ten results against a C model of the
 *   shader, on the fast paths (uniform values computed once) and the
 *   reference paths (CVM_FLAG_REFERENCE_PATHS: every value per lane), at
 *   subgroup sizes 4, 16 and 64 (one subgroup), three workgroups, a partial last one (its
 *   lanes past `n` take the early return), and push constants m = 0..5
 *   (uniform loop trip counts and switch selectors).
 * - A phi of two uniform values after a divergent branch (written in SPIR-V:
 *   spirv-opt turns the GLSL form into a select), which is not uniform; a
 *   load of a dense variable used in the next block after a store to it
 *   (glslang reloads in every block), which must not alias the variable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"
#include "engine_util.h"
#include "program_util.h"

#define LOCAL 48u
#define GROUPS 3u
#define NOUT 10u

/* ---- the C model of uniform_flow.comp ---------------------------------- */

static uint32_t model_callee(uint32_t x, uint32_t lane, uint32_t m)
{
    uint32_t s = 0, t = 0;
    for (uint32_t j = 0; j < m; j++)
        s += j * 3u + x;
    for (uint32_t j = 0; j < (lane & 3u); j++)
        t += j + 1u;
    return s * 7u + t;
}

/* Fills out[idx * 10 ..] as the shader does (for an index past n: 0xdead
 * at idx * 10, and 1 at idx * 10 + 9 when lane % 3 == 0). */
static void model(uint32_t g, uint32_t lane, uint32_t n, uint32_t m, uint32_t *out)
{
    uint32_t base = g * 100u + m, idx = g * LOCAL + lane;
    uint32_t r[8];
    uint32_t w = 0, k = 0;
    for (; k < lane % 5u; k++)
        w = base * 2u + k;
    r[0] = w * 10u + k;
    uint32_t s = 0, i;
    for (i = 0; i < 8u; i++) {
        if (i == lane % 9u)
            break;
        s += i + base;
    }
    r[1] = s + i * 1000u;
    uint32_t s2 = 0;
    for (uint32_t q = 0; q < 6u; q++) {
        if ((lane >> q) & 1u)
            continue;
        s2 += q * base + 1u;
    }
    r[2] = s2;
    uint32_t u = lane < 5u ? 3u : base, u2 = u++;
    r[3] = u + u2 * 1000u;
    uint32_t v = m > 2u ? base + 1u : base + 2u, acc = 0;
    for (uint32_t j = 0; j < m; j++)
        acc += v * j;
    acc += (m & 3u) == 0 ? 11u : (m & 3u) == 1 ? 13u : 17u;
    uint32_t z = (lane & 3u) == 0 ? acc : (lane & 3u) == 1 ? acc * 2u : base;
    r[4] = acc + z;
    uint32_t tot = 0;
    for (uint32_t a = 0; a < 3u; a++) {
        uint32_t outer = base + a * 5u;
        for (uint32_t b = 0; b < (lane & 7u) + a; b++)
            tot += outer + b;
        tot += outer * 2u;
    }
    r[5] = tot;
    r[6] = (lane & 1u) ? model_callee(base, lane, m) : model_callee(lane, lane, m) + 1u;
    uint32_t c = m + 3u, steps = 0;
    while (c != 1u) {
        c = (c & 1u) ? 3u * c + 1u : c / 2u;
        steps++;
    }
    r[7] = steps * 100u + c;
    uint32_t ph;
    if (lane % 3u == 0) {
        ph = base * 3u;
        out[idx * NOUT + 9] = 1u;
    } else {
        ph = base + 7u;
    }
    if (idx >= n) {
        out[idx * NOUT] = 0xdeadu;
        return;
    }
    uint32_t late = 0;
    for (uint32_t j = 0; j < 4u; j++)
        late += base * j;
    memcpy(out + idx * NOUT, r, sizeof r);
    out[idx * NOUT + 8] = late;
    out[idx * NOUT + 9] = ph;
}

/* ---- runs ---------------------------------------------------------------- */

static void run(const char *spv, uint32_t sg, uint32_t flags, uint32_t n, uint32_t m,
                uint32_t *out, size_t words)
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
    size_t size = 0;
    uint32_t *w = tu_read(spv, &size);
    assert_non_null(w);
    if (cvm_context_create(&d, &ctx, &diag) != CVM_SUCCESS)
        fail_msg("context, subgroup size %u: %s", sg, diag.message);
    if (cvm_module_create(ctx, w, size / 4, &mod, &diag) != CVM_SUCCESS ||
        cvm_pipeline_create(mod, "main", NULL, 0, &pipe, &diag) != CVM_SUCCESS)
        fail_msg("%s: %s", spv, diag.message);
    free(w);
    for (size_t k = 0; k < words; k++)
        out[k] = 0x5a5a5a5au;
    uint32_t push[2] = {n, m};
    if (cvm_pipeline_bind_buffer(pipe, 0, 0, 0, out, words * 4, &diag) != CVM_SUCCESS ||
        cvm_pipeline_set_push_constants(pipe, push, sizeof push, &diag) != CVM_SUCCESS ||
        cvm_pipeline_dispatch(pipe, GROUPS, 1, 1, &diag) != CVM_SUCCESS)
        fail_msg("%s: %s", spv, diag.message);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
}

static void check_outputs(const char *spv)
{
    static const uint32_t sgs[] = {4, 16, 64};
    const size_t words = (size_t)GROUPS * LOCAL * NOUT;
    uint32_t *want = malloc(words * 4), *fast = malloc(words * 4), *ref = malloc(words * 4);
    assert_non_null(want);
    assert_non_null(fast);
    assert_non_null(ref);
    for (uint32_t m = 0; m <= 5; m++) {
        uint32_t n = GROUPS * LOCAL - 7u - m; /* the last group's last lanes return early */
        for (size_t k = 0; k < words; k++)
            want[k] = 0x5a5a5a5au;
        for (uint32_t g = 0; g < GROUPS; g++)
            for (uint32_t l = 0; l < LOCAL; l++)
                model(g, l, n, m, want);
        for (size_t s = 0; s < sizeof sgs / sizeof sgs[0]; s++) {
            run(spv, sgs[s], 0, n, m, fast, words);
            run(spv, sgs[s], CVM_FLAG_REFERENCE_PATHS, n, m, ref, words);
            for (size_t k = 0; k < words; k++) {
                if (ref[k] != want[k])
                    fail_msg("%s, m %u, subgroup %u, reference: word %zu (invocation %zu, "
                             "result %zu) is %u, the model says %u",
                             spv, m, sgs[s], k, k / NOUT, k % NOUT, ref[k], want[k]);
                if (fast[k] != want[k])
                    fail_msg("%s, m %u, subgroup %u: word %zu (invocation %zu, result %zu) is "
                             "%u, the model says %u",
                             spv, m, sgs[s], k, k / NOUT, k % NOUT, fast[k], want[k]);
            }
        }
    }
    free(want);
    free(fast);
    free(ref);
}

/* ---- the marks ------------------------------------------------------------ */

static const char *const uniform_vars[] = {"g", "base", "v", "acc", "a", "outer",
                                           "c", "steps", "late", "r7", "q"};
static const char *const divergent_vars[] = {"lane", "idx", "w", "k", "s", "i", "s2", "u", "u2",
                                             "z", "tot", "b", "r0", "r1", "r2", "r3",
                                             "r4", "r5", "r6", "t"};

static int listed(const char *name, const char *const *list, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(name, list[k]))
            return 1;
    return 0;
}

static void test_marks(void **state)
{
    (void)state;
    size_t size = 0;
    uint32_t *w = tu_read("shaders/uniform_flow.spv", &size);
    assert_non_null(w);
    spv_module mod;
    cvm_program *prog;
    tu_program(&w, size / 4, &mod, &prog);
    uint32_t seen_uniform = 0, seen_divergent = 0;
    for (uint32_t id = 1; id < prog->bound; id++) {
        const spv_def *def = &mod.defs[id];
        if (def->opcode != SpvOpVariable || def->func == UINT32_MAX)
            continue;
        const char *name = spv_module_name(&mod, id);
        if (!name)
            continue;
        int uni = prog->var_uoffset[id] != UINT64_MAX;
        int dense = prog->var_doff[id] != UINT64_MAX;
        if (uni && dense)
            fail_msg("variable %s (%%%u): both uniform and dense", name, id);
        if (listed(name, uniform_vars, sizeof uniform_vars / sizeof uniform_vars[0])) {
            if (!uni)
                fail_msg("variable %s (%%%u): not uniform, expected uniform", name, id);
            seen_uniform++;
        } else if (listed(name, divergent_vars,
                          sizeof divergent_vars / sizeof divergent_vars[0])) {
            if (uni)
                fail_msg("variable %s (%%%u): uniform, but its lanes differ", name, id);
            /* every one is stored before it is loaded: a dense array */
            if (!dense)
                fail_msg("variable %s (%%%u): not dense", name, id);
            seen_divergent++;
        }
    }
    /* every listed name was found (the callee has an s too; the j loop
     * counters are not listed: some are uniform, one is not) */
    assert_int_equal(seen_uniform, sizeof uniform_vars / sizeof uniform_vars[0]);
    assert_int_equal(seen_divergent, sizeof divergent_vars / sizeof divergent_vars[0] + 1);
    /* a uniform value's instruction runs once: some do; some loads of
     * dense variables alias them, not all (a value used in another block,
     * or after a store to its variable, must be a copy) */
    uint32_t flagged = 0, loads = 0, aliased = 0;
    for (uint32_t i = 0; i < prog->ninsns; i++) {
        const cvm_insn *in = &prog->insns[i];
        flagged += (in->flags & CVM_INSN_UNIFORM) != 0;
        if (in->spv_op == SpvOpLoad && in->a < prog->bound &&
            prog->var_doff[in->a] != UINT64_MAX) {
            loads++;
            aliased += (in->flags & CVM_INSN_ALIAS) != 0;
        }
    }
    assert_true(flagged > 20);
    if (!(aliased > 10 && aliased < loads))
        fail_msg("%u of %u loads of dense variables alias them", aliased, loads);
    tu_program_release(&mod, prog);
    free(w);
}

static void test_outputs_unoptimised(void **state)
{
    (void)state;
    check_outputs("shaders/uniform_flow.spv");
}

static void test_outputs_optimised(void **state)
{
    (void)state;
    check_outputs("shaders/uniform_flow.opt.spv");
}

/* %ph takes %ua (10) from the lanes that ran %t (even lanes) and %ub (35)
 * from the others: both uniform, the phi not. */
static const char phi_shader[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %lidv %out\n"
    "OpExecutionMode %main LocalSize 32 1 1\n"
    "OpDecorate %lidv BuiltIn LocalInvocationId\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpMemberDecorate %sb 0 Offset 0\n"
    "OpDecorate %sb Block\n"
    "OpDecorate %out DescriptorSet 0\n"
    "OpDecorate %out Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%bool = OpTypeBool\n"
    "%v3 = OpTypeVector %uint 3\n"
    "%pv3 = OpTypePointer Input %v3\n"
    "%pu_in = OpTypePointer Input %uint\n"
    "%rta = OpTypeRuntimeArray %uint\n"
    "%sb = OpTypeStruct %rta\n"
    "%psb = OpTypePointer StorageBuffer %sb\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%u0 = OpConstant %uint 0\n"
    "%u1 = OpConstant %uint 1\n"
    "%u5 = OpConstant %uint 5\n"
    "%u7 = OpConstant %uint 7\n"
    "%lidv = OpVariable %pv3 Input\n"
    "%out = OpVariable %psb StorageBuffer\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%lp = OpAccessChain %pu_in %lidv %u0\n"
    "%lid = OpLoad %uint %lp\n"
    "%bit = OpBitwiseAnd %uint %lid %u1\n"
    "%even = OpIEqual %bool %bit %u0\n"
    "%ua = OpIAdd %uint %u5 %u5\n"
    "%ub = OpIMul %uint %u5 %u7\n"
    "OpSelectionMerge %m None\n"
    "OpBranchConditional %even %t %m\n"
    "%t = OpLabel\n"
    "OpBranch %m\n"
    "%m = OpLabel\n"
    "%ph = OpPhi %uint %ua %t %ub %entry\n"
    "%po = OpAccessChain %pu %out %u0 %lid\n"
    "OpStore %po %ph\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* %v, loaded from the dense variable %x, is used in the next block after
 * a store to %x: it must be a copy (out = lid + 1, not 8). */
static const char cross_block_shader[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %lidv %out\n"
    "OpExecutionMode %main LocalSize 32 1 1\n"
    "OpDecorate %lidv BuiltIn LocalInvocationId\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpMemberDecorate %sb 0 Offset 0\n"
    "OpDecorate %sb Block\n"
    "OpDecorate %out DescriptorSet 0\n"
    "OpDecorate %out Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%v3 = OpTypeVector %uint 3\n"
    "%pv3 = OpTypePointer Input %v3\n"
    "%pu_in = OpTypePointer Input %uint\n"
    "%pu_fn = OpTypePointer Function %uint\n"
    "%rta = OpTypeRuntimeArray %uint\n"
    "%sb = OpTypeStruct %rta\n"
    "%psb = OpTypePointer StorageBuffer %sb\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%u0 = OpConstant %uint 0\n"
    "%u1 = OpConstant %uint 1\n"
    "%u7 = OpConstant %uint 7\n"
    "%lidv = OpVariable %pv3 Input\n"
    "%out = OpVariable %psb StorageBuffer\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%x = OpVariable %pu_fn Function\n"
    "%lp = OpAccessChain %pu_in %lidv %u0\n"
    "%lid = OpLoad %uint %lp\n"
    "OpStore %x %lid\n"
    "%v = OpLoad %uint %x\n"
    "OpBranch %next\n"
    "%next = OpLabel\n"
    "OpStore %x %u7\n"
    "%w = OpIAdd %uint %v %u1\n"
    "%po = OpAccessChain %pu %out %u0 %lid\n"
    "OpStore %po %w\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* Runs a 32-invocation SPIR-V shader writing out[invocation] on the fast and
 * reference paths; every invocation l must write want(l). */
static void run_lanes(const char *what, const char *text, uint32_t (*want)(uint32_t))
{
    for (int ref = 0; ref < 2; ref++) {
        uint32_t out[32];
        memset(out, 0, sizeof out);
        void *bufs[1] = {out};
        size_t sizes[1] = {sizeof out};
        asm_params p;
        memset(&p, 0, sizeof p);
        p.subgroup_size = 8;
        p.threads = 1;
        p.flags = ref ? CVM_FLAG_REFERENCE_PATHS : 0;
        asm_result rr = asm_run(text, &p, bufs, sizes, 1);
        ASM_OK(rr, what);
        for (uint32_t l = 0; l < 32; l++)
            if (out[l] != want(l))
                fail_msg("%s, %s paths: invocation %u wrote %u, expected %u", what,
                         ref ? "reference" : "fast", l, out[l], want(l));
    }
}

static uint32_t lid_plus_one(uint32_t l) { return l + 1; }
static uint32_t odd_35_even_10(uint32_t l) { return (l & 1) ? 35u : 10u; }

static void test_load_used_in_another_block(void **state)
{
    (void)state;
    run_lanes("cross-block shader", cross_block_shader, lid_plus_one);
}

static void test_phi_after_divergent_branch(void **state)
{
    (void)state;
    run_lanes("phi shader", phi_shader, odd_35_even_10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_outputs_unoptimised),
        cmocka_unit_test(test_outputs_optimised),
        cmocka_unit_test(test_phi_after_divergent_branch),
        cmocka_unit_test(test_load_used_in_another_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
