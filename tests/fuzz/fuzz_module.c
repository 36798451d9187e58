/* libFuzzer harness: the engine on any binary.  The bytes, as 32-bit words,
 * go to cvm_module_create (validation on, as users get it); a module that
 * is accepted gets a pipeline for its entry point, a zeroed 4096-byte
 * buffer at every (set 0..3, binding 0..3), 256 zero bytes of push
 * constants, and an instruction budget of 20000, robust access off: an
 * access out of bounds, a runaway loop or an oversized workgroup must come
 * back as a status (fuzz_common.h).  By its length in words, one input in
 * four runs with CVM_FLAG_JIT, so that a module the compiled tier takes is
 * compiled and run (src/exec/jit): the translation and LLVM's verifier meet
 * the fuzzed modules too; and half the inputs run three workgroups on a
 * context of two worker threads instead of one workgroup on one, so that the
 * thread pool and the split of a dispatch among workers are fuzzed too (the
 * three workgroups race on the same buffers, which may give any values but
 * never a crash).
 *
 * Built with CVM_FUZZ_UNVALIDATED (the module_unvalidated harness) the
 * context has CVM_FLAG_NO_VALIDATION: the reader, the lowering and the
 * interpreter meet broken modules themselves and must refuse them with a
 * status too.
 *
 * Built with CVM_FUZZ_TIERS (the module_tiers harness) every input runs with
 * CVM_FLAG_COMPARE_TIERS: a module the compiled tier takes (the entry point,
 * or a leaf callback) runs on it and on the interpreter from the same
 * buffers, which hold a pattern of ordinary numbers instead of zeros (no
 * NaNs: which of two NaN operands' payloads an operation returns is open,
 * and the tiers' code may pick differently).  CVM_ERROR_TIERS_DIFFER is a
 * finding, except where one tier ran out of the instruction budget and the
 * other did not: the tiers charge it differently by design (exec/jit/jit.h:
 * per block of an invocation, not of a subgroup), so a module near the
 * budget may end on one side only.  This harness keeps one thread (two
 * workgroups' races would make the tiers' results depend on the order the
 * workers run them in) and runs one workgroup or, for half the inputs,
 * three, one after another.  Invocations of one workgroup that race (a
 * mutated LocalSize giving three invocations the same GlobalInvocationId.x,
 * each updating y[x], or a mutated ArrayStride of 3 making neighbours'
 * 4-byte stores overlap) still make the tiers differ, legitimately
 * (coopvm.h CVM_FLAG_COMPARE_TIERS; one input in about 4 to 10 million on
 * d3f5c46 and b91b34f).  So a difference is rerun with the interpreter in
 * the compiled tier's order, one invocation after another
 * (cvm_test_serial_invocations), and is a finding only when the tiers
 * still differ (check_tiers).  A module the compiled tier runs in its
 * collective form (barriers, subgroup instructions, Workgroup memory:
 * exec/jit/jit.h) has no such rerun: the interpreter has no schedule that
 * runs each invocation to its next barrier in turn, and it refuses the
 * serial one for such a module.  Its invocations' races between barriers
 * (a mutated index making two write one Workgroup element) make the tiers
 * differ legitimately, so a difference there is not a finding; the
 * collective form's results are compared with the interpreter's by
 * test_jit (random inputs), the tiers tests (every script) and ggml's
 * test-backend-ops with COOPVM_JIT=compare instead.  Its crashes and
 * sanitizer reports still are findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/jit/jit.h"
#include "fuzz_common.h"

enum { SETS = 4, BINDINGS = 4, BUFFER_BYTES = 4096, PUSH_BYTES = 256 };

/* The context of an input: [jit][several workers]. */
static cvm_context *context(int jit, int workers)
{
    static cvm_context *ctxs[2][2];
    cvm_context **ctx = &ctxs[jit][workers];
    if (!*ctx) {
        cvm_context_desc desc = {0};
#ifdef CVM_FUZZ_TIERS
        desc.threads = 1;
#else
        desc.threads = workers ? 2 : 1;
#endif
        desc.instruction_budget = 20000;
        desc.memory_limit = 64u << 20;
        desc.flags = jit ? CVM_FLAG_JIT : 0;
#ifdef CVM_FUZZ_TIERS
        desc.flags = CVM_FLAG_COMPARE_TIERS;
#endif
#ifdef CVM_FUZZ_UNVALIDATED
        desc.flags |= CVM_FLAG_NO_VALIDATION;
#endif
        cvm_diagnostic d;
        if (cvm_context_create(&desc, ctx, &d) != CVM_SUCCESS)
            abort();
    }
    return *ctx;
}

#ifdef CVM_FUZZ_TIERS
/* Word k of every buffer and of the push constants: small integers, as
 * 32-bit integers and as floats (1.0, -2.5, ...), none a NaN. */
static uint32_t pattern(uint32_t k)
{
    static const uint32_t words[8] = {3u, 0x3f800000u, 0xc0200000u, 17u,
                                      0x41100000u, 0xfffffffeu, 0x00000000u, 0x3e800000u};
    return words[k % 8u] + (k / 8u) % 5u;
}

static void fill(uint8_t *p, size_t bytes)
{
    for (size_t at = 0; at + 4 <= bytes; at += 4) {
        uint32_t w = pattern((uint32_t)(at / 4));
        memcpy(p + at, &w, 4);
    }
}

/* A difference of the tiers that is not the budget's. */
static int tiers_differ(cvm_result r, const cvm_diagnostic *d)
{
    return r == CVM_ERROR_TIERS_DIFFER && !strstr(d->message, "CVM_ERROR_BUDGET_EXCEEDED");
}

/* Fills every buffer with the pattern and runs the dispatch compared. */
static cvm_result dispatch_filled(cvm_pipeline *pipeline, uint8_t *buffers, uint32_t groups,
                                  cvm_diagnostic *d)
{
    for (size_t k = 0; k < (size_t)SETS * BINDINGS; k++)
        fill(buffers + k * BUFFER_BYTES, BUFFER_BYTES);
    return cvm_pipeline_dispatch(pipeline, groups, 1, 1, d);
}

/* The race filter.  A difference of the tiers (r, d) is a finding unless
 * the same dispatch, from the same buffers, compares alike with the
 * interpreter running each invocation to its end in turn
 * (cvm_test_serial_invocations: the order of the compiled tier's
 * per-invocation form).  Then the compiled tier agrees with the
 * interpreter, and the two schedules differ only because the shader's
 * invocations race, which the memory model lets come out either way.  A
 * dispatch that ran in the collective form (`collective`) is let go (see
 * the top of this file). */
static void check_tiers(cvm_pipeline *pipeline, uint8_t *buffers, uint32_t groups, cvm_result r,
                        const cvm_diagnostic *d, int collective)
{
    if (!tiers_differ(r, d) || collective)
        return;
    cvm_diagnostic ds;
    cvm_test_serial_invocations(1);
    cvm_result rs = dispatch_filled(pipeline, buffers, groups, &ds);
    cvm_test_serial_invocations(0);
    if (!tiers_differ(rs, &ds))
        return;
    fprintf(stderr, "fuzz finding: the tiers differ: %s\n", d->message);
    abort();
}
#endif

/* With CVM_FUZZ_KEEP_INPUT=DIR, each input is written to DIR/input-<pid>
 * before it runs: a crash that also breaks the sanitizer's report (a
 * smashed stack, found as "SEGV on unknown address 0x11" with no input
 * saved) still leaves its input behind. */
static void keep_input(const uint8_t *data, size_t size)
{
    static char path[512];
    static int state; /* 0 unknown, 1 on, 2 off */
    if (!state) {
        const char *dir = getenv("CVM_FUZZ_KEEP_INPUT");
        state = dir && *dir ? 1 : 2;
        if (state == 1)
            snprintf(path, sizeof(path), "%s/input-%ld", dir, (long)getpid());
    }
    if (state != 1)
        return;
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keep_input(data, size);
    static uint8_t buffers[SETS][BINDINGS][BUFFER_BYTES];
#ifdef CVM_FUZZ_TIERS
    static uint8_t push[PUSH_BYTES];
    fill(push, sizeof(push));
#else
    static const uint8_t push[PUSH_BYTES];
#endif
    size_t nwords;
    uint32_t *words = cvm_fuzz_words(data, size, &nwords);
    if (!words)
        return 0;
    cvm_diagnostic d;
    cvm_module *module = NULL;
    cvm_pipeline *pipeline = NULL;
    int several = (nwords / 4) % 2 == 1;
    cvm_result r = cvm_module_create(context(nwords % 4 == 0, several), words, nwords, &module, &d);
    free(words); /* the module keeps its own copy */
    cvm_fuzz_check(r, &d);
    if (r != CVM_SUCCESS)
        return 0;
    r = cvm_pipeline_create(module, NULL, NULL, 0, &pipeline, &d);
    cvm_fuzz_check(r, &d);
    if (r != CVM_SUCCESS)
        goto done;
    memset(buffers, 0, sizeof(buffers));
#ifdef CVM_FUZZ_TIERS
    for (uint32_t s = 0; s < SETS; s++)
        for (uint32_t b = 0; b < BINDINGS; b++)
            fill(buffers[s][b], BUFFER_BYTES);
#endif
    for (uint32_t s = 0; s < SETS; s++)
        for (uint32_t b = 0; b < BINDINGS; b++) {
            r = cvm_pipeline_bind_buffer(pipeline, s, b, 0, buffers[s][b], BUFFER_BYTES, &d);
            cvm_fuzz_check(r, &d);
        }
    r = cvm_pipeline_set_push_constants(pipeline, push, sizeof(push), &d);
    cvm_fuzz_check(r, &d);
#ifdef CVM_FUZZ_TIERS
    uint64_t collective = cvm_test_jit_collective_groups();
#endif
    r = cvm_pipeline_dispatch(pipeline, several ? 3 : 1, 1, 1, &d);
    cvm_fuzz_check(r, &d);
#ifdef CVM_FUZZ_TIERS
    check_tiers(pipeline, &buffers[0][0][0], several ? 3 : 1, r, &d,
                cvm_test_jit_collective_groups() != collective);
#endif
done:
    cvm_pipeline_destroy(pipeline);
    cvm_module_destroy(module);
    return 0;
}
