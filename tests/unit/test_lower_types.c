/* The lowering refuses, by itself, an instruction whose types are not the
 * ones its handler reads and writes (a module run with
 * CVM_FLAG_NO_VALIDATION meets no validator first).  Each case takes a
 * module of tests/ in SPIR-V text and adds one instruction after a given
 * line: with the types the texts require (the twin) the pipeline is made;
 * with one type changed, pipeline creation fails with
 * CVM_ERROR_INVALID_MODULE and the lowering's message.  Without the check
 * the handler would write or read past the value's slot (the class of
 * fuzz findings in tests/fuzz/regress/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coopvm.h"

typedef struct lower_case {
    const char *file;  /* under tests/ */
    const char *after; /* the instructions are added after the first line holding this */
    const char *good;  /* the added instructions, as the texts want them */
    const char *bad;   /* the same with a type changed */
    const char *want;  /* a part of the lowering's message */
    const char *types; /* NULL, or type declarations added after TYPES_AFTER */
} lower_case;

#define SPLAT "amber/shaders/coopmat_splat_nonuniform.spvasm"
/* tests/lower/base.spvasm: 64 invocations whose values (%li, %lf, %ld,
 * %lh, %lb, %ll, %lv4f, %lv2f, %lv4d, %lm4) come from LocalInvocationIndex,
 * types of every width, 1x1 and 8x8 float matrices of both scopes; cases
 * add instructions after its OpNop and types after TYPES_AFTER. */
#define BASE "lower/base.spvasm"
#define BODY "OpNop"
#define TYPES_AFTER "%float_1 = OpConstant %float 1"

static const lower_case cases[] = {
    /* "Result Type must be an OpTypeInt with 32-bit Width" */
    {SPLAT, "%47 = OpCooperativeMatrixLengthKHR %uint %11",
     "%zz = OpCooperativeMatrixLengthKHR %uint %11", "%zz = OpCooperativeMatrixLengthKHR %bool %11",
     "is not a 32-bit integer", NULL},
};

static char *read_text(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", CVM_TEST_DATA_DIR, rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

/* The module's text with `add` as a line of its own after the line holding
 * `after`. */
static char *with_line(const char *text, const char *after, const char *add)
{
    const char *at = strstr(text, after);
    assert_non_null(at);
    const char *eol = strchr(at, '\n');
    assert_non_null(eol);
    size_t head = (size_t)(eol + 1 - text);
    char *out = malloc(strlen(text) + strlen(add) + 2);
    assert_non_null(out);
    memcpy(out, text, head);
    sprintf(out + head, "%s\n%s", add, eol + 1);
    return out;
}

/* Pipeline creation of `text` without validation: its status, and its
 * message in `msg`. */
static cvm_result make_pipeline(const char *text, char *msg, size_t msg_size)
{
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(cvm_assemble(text, strlen(text), 0, NULL, &words, &nw, &d), CVM_SUCCESS);
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = 1;
    desc.flags = CVM_FLAG_NO_VALIDATION;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    cvm_result r = cvm_module_create(ctx, words, nw, &mod, &d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, &d);
    snprintf(msg, msg_size, "%s", r == CVM_SUCCESS ? "" : d.message);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    cvm_free(words);
    return r;
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const lower_case *c = &cases[i];
        char *text = read_text(c->file);
        if (c->types) {
            char *t = with_line(text, TYPES_AFTER, c->types);
            free(text);
            text = t;
        }
        char msg[1024];
        char *good = with_line(text, c->after, c->good);
        cvm_result r = make_pipeline(good, msg, sizeof(msg));
        if (r != CVM_SUCCESS)
            print_message("twin of case %zu (%s): %s\n", i, c->bad, msg);
        assert_int_equal(r, CVM_SUCCESS);
        char *bad = with_line(text, c->after, c->bad);
        r = make_pipeline(bad, msg, sizeof(msg));
        print_message("%s: %s\n", c->bad, msg);
        assert_int_equal(r, CVM_ERROR_INVALID_MODULE);
        assert_non_null(strstr(msg, c->want));
        free(good);
        free(bad);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
