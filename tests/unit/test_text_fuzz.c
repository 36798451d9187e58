/* Deterministic mutation fuzzing of the disassembler and the assembler.
 *
 * Seeds: the 20 corpus and bench modules (.spv) and their texts (.spvasm,
 * .raw.spvasm).  A fixed-seed xorshift generator mutates them (bit flips,
 * interesting words and tokens, insertions, deletions, truncation) and each
 * mutant goes through cvm_disassemble / cvm_assemble; the only property
 * checked is that a documented status comes back (the sanitizer build adds
 * "no crash, no undefined behaviour, no leak").  Successful results are fed
 * to the other direction as well.
 *
 * Each direction runs for CVM_FUZZ_SECONDS seconds (default 3) or
 * CVM_FUZZ_ITERATIONS mutants (default 1000000), whichever ends first; the
 * sequence of mutants is the same on every run. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "coopvm.h"
#include "text_test_util.h"

static char g_modules[TT_MAX_MODULES][512];
static int g_module_count;

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 2685821657736338717ull;
}

static size_t rnd_below(size_t n)
{
    return n ? (size_t)(rnd() % n) : 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double budget_seconds(void)
{
    const char *s = getenv("CVM_FUZZ_SECONDS");
    return s ? atof(s) : 3.0;
}

static long max_iterations(void)
{
    const char *s = getenv("CVM_FUZZ_ITERATIONS");
    return s ? atol(s) : 1000000L;
}

static int setup(void **state)
{
    (void)state;
    g_module_count = tt_list_modules(g_modules);
    return 0;
}

static const uint32_t interesting_words[] = {
    0,          1,          2,          3,          4,          0xffffffffu, 0x80000000u,
    0x7fffffffu, 0x00010000u, 0xffff0000u, 0x0000ffffu, 16,         32,          64,
    0x00040015u, /* OpTypeInt, 4 words */ 0x0004002bu, /* OpConstant, 4 words */
    0x000400fbu, /* OpSwitch */ 0x0005000cu, /* OpExtInst */ 0x00030034u, /* SpecConstantOp */
    0x00040016u, /* OpTypeFloat, 4 words */ 4214, 4215, 5366, 5369, 5293,
};

static void check_text_result(cvm_result r)
{
    if (r != CVM_SUCCESS && r != CVM_ERROR_SYNTAX && r != CVM_ERROR_OUT_OF_MEMORY)
        fail_msg("assemble returned %s", cvm_result_string(r));
}

static void check_binary_result(cvm_result r)
{
    if (r != CVM_SUCCESS && r != CVM_ERROR_MALFORMED && r != CVM_ERROR_OUT_OF_MEMORY)
        fail_msg("disassemble returned %s", cvm_result_string(r));
}

static void test_fuzz_disassembler(void **state)
{
    (void)state;
    assert_int_equal(g_module_count, 20);
    uint32_t *seeds[TT_MAX_MODULES];
    size_t seed_words[TT_MAX_MODULES];
    for (int m = 0; m < g_module_count; m++) {
        size_t size;
        seeds[m] = (uint32_t *)tt_read_ext(g_modules[m], ".spv", &size);
        assert_non_null(seeds[m]);
        seed_words[m] = size / 4;
    }
    const double end = now_seconds() + budget_seconds();
    const long max_it = max_iterations();
    long it = 0, ok = 0;
    uint32_t *buf = NULL;
    for (; it < max_it && now_seconds() < end; it++) {
        int m = (int)rnd_below((size_t)g_module_count);
        size_t n = seed_words[m];
        buf = realloc(buf, (n + 16) * sizeof(uint32_t));
        assert_non_null(buf);
        memcpy(buf, seeds[m], n * sizeof(uint32_t));
        int mutations = 1 + (int)rnd_below(4);
        for (int k = 0; k < mutations; k++) {
            /* Mostly past the header, so decoding gets somewhere. */
            size_t at = n > 5 && rnd_below(8) ? 5 + rnd_below(n - 5) : rnd_below(n ? n : 1);
            switch (rnd_below(7)) {
            case 0: /* flip a bit */
                if (n)
                    buf[at] ^= 1u << rnd_below(32);
                break;
            case 1: /* an interesting word */
                if (n)
                    buf[at] = interesting_words[rnd_below(
                        sizeof(interesting_words) / sizeof(interesting_words[0]))];
                break;
            case 2: /* a random word */
                if (n)
                    buf[at] = (uint32_t)rnd();
                break;
            case 3: /* change a word count */
                if (n)
                    buf[at] = (buf[at] & 0xffffu) | (uint32_t)rnd_below(12) << 16;
                break;
            case 4: /* truncate */
                n = rnd_below(n + 1);
                break;
            case 5: /* insert a word */
                if (n < seed_words[m] + 15) {
                    memmove(buf + at + 1, buf + at, (n - at) * sizeof(uint32_t));
                    buf[at] = (uint32_t)rnd();
                    n++;
                }
                break;
            default: /* delete a word */
                if (n && at < n) {
                    memmove(buf + at, buf + at + 1, (n - at - 1) * sizeof(uint32_t));
                    n--;
                }
                break;
            }
        }
        char *text = NULL;
        size_t len = 0;
        cvm_result r = cvm_disassemble(buf, n, 0, &text, &len, NULL);
        check_binary_result(r);
        cvm_free(text);
        text = NULL;
        r = cvm_disassemble(buf, n, CVM_TEXT_RAW_ID, &text, &len, NULL);
        check_binary_result(r);
        if (r == CVM_SUCCESS) {
            ok++;
            assert_int_equal(strlen(text), len);
            uint32_t *w = NULL;
            size_t wn = 0;
            check_text_result(
                cvm_assemble(text, len, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &w, &wn, NULL));
            cvm_free(w);
        }
        cvm_free(text);
    }
    free(buf);
    for (int m = 0; m < g_module_count; m++)
        free(seeds[m]);
    printf("disassembler: %ld mutants, %ld disassembled\n", it, ok);
    assert_true(it >= 100);
}

static const char *const tokens[] = {
    "%",       "%1",         "%x",        "Op",          "OpUnknown(", "OpUnknown(1, 3)",
    "!",       "!4294967296", "!7",       "\"",          "\\",         ";",
    "\n",      "|",          "-",         ".",           "0x",         "=",
    " ",       "(",          ")",         ",",           "OpConstant", "0x1p+999",
    "1e39",    "-0",         "\t",        "OpSwitch",    "None",       "Aligned",
    "%uint",   "%float",     "\"GLSL.std.450\"", "OpExtInst", "OpSpecConstantOp %uint IAdd",
    "-0x1.8p-3", "99999999999999999999", "%main = OpFunction", "OpTypeFloat 16 BFloat16KHR",
};

static void test_fuzz_assembler(void **state)
{
    (void)state;
    assert_int_equal(g_module_count, 20);
    char *seeds[2 * TT_MAX_MODULES];
    size_t seed_len[2 * TT_MAX_MODULES];
    int nseeds = 0;
    for (int m = 0; m < g_module_count; m++) {
        seeds[nseeds] = tt_read_ext(g_modules[m], ".spvasm", &seed_len[nseeds]);
        assert_non_null(seeds[nseeds]);
        nseeds++;
        seeds[nseeds] = tt_read_ext(g_modules[m], ".raw.spvasm", &seed_len[nseeds]);
        assert_non_null(seeds[nseeds]);
        nseeds++;
    }
    const double end = now_seconds() + budget_seconds();
    const long max_it = max_iterations();
    long it = 0, ok = 0;
    char *buf = NULL;
    for (; it < max_it && now_seconds() < end; it++) {
        int s = (int)rnd_below((size_t)nseeds);
        size_t n = seed_len[s];
        size_t cap = n + 4096;
        buf = realloc(buf, cap);
        assert_non_null(buf);
        memcpy(buf, seeds[s], n);
        int mutations = 1 + (int)rnd_below(6);
        for (int k = 0; k < mutations; k++) {
            size_t at = rnd_below(n + 1);
            switch (rnd_below(6)) {
            case 0: /* replace a byte */
                if (at < n)
                    buf[at] = (char)rnd_below(256);
                break;
            case 1: { /* insert a token */
                const char *t = tokens[rnd_below(sizeof(tokens) / sizeof(tokens[0]))];
                size_t tl = strlen(t);
                if (n + tl < cap) {
                    memmove(buf + at + tl, buf + at, n - at);
                    memcpy(buf + at, t, tl);
                    n += tl;
                }
                break;
            }
            case 2: { /* delete a range */
                size_t len = rnd_below(64);
                if (at + len > n)
                    len = n - at;
                memmove(buf + at, buf + at + len, n - at - len);
                n -= len;
                break;
            }
            case 3: /* truncate */
                n = at;
                break;
            case 4: /* a NUL or a newline */
                if (at < n)
                    buf[at] = rnd_below(2) ? '\0' : '\n';
                break;
            default: { /* copy a piece of the seed text elsewhere */
                size_t from = rnd_below(seed_len[s] + 1), len = rnd_below(80);
                if (len > seed_len[s] - from)
                    len = seed_len[s] - from;
                if (n + len < cap) {
                    memmove(buf + at + len, buf + at, n - at);
                    memcpy(buf + at, seeds[s] + from, len);
                    n += len;
                }
                break;
            }
            }
        }
        uint32_t flags = rnd_below(2) ? CVM_TEXT_PRESERVE_NUMERIC_IDS : 0;
        uint32_t *w = NULL;
        size_t wn = 0;
        cvm_diagnostic d;
        /* Give the exact length: the text is not NUL-terminated. */
        char *exact = malloc(n ? n : 1);
        assert_non_null(exact);
        memcpy(exact, buf, n);
        cvm_result r = cvm_assemble(exact, n, flags, NULL, &w, &wn, &d);
        free(exact);
        check_text_result(r);
        if (r == CVM_SUCCESS) {
            ok++;
            assert_true(wn >= 5);
            char *text = NULL;
            check_binary_result(cvm_disassemble(w, wn, 0, &text, NULL, NULL));
            cvm_free(text);
        } else {
            assert_true(d.line >= 1 && d.column >= 1);
        }
        cvm_free(w);
    }
    free(buf);
    for (int i = 0; i < nseeds; i++)
        free(seeds[i]);
    printf("assembler: %ld mutants, %ld assembled\n", it, ok);
    assert_true(it >= 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_disassembler),
        cmocka_unit_test(test_fuzz_assembler),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
