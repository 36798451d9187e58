/* The debug sinks of the public API (cvm_pipeline_set_debug): DebugPrintf
 * messages with their fields, the same sequence whatever the thread count,
 * callbacks naming their element and caller, source lines, malformed
 * DebugPrintf instructions, other NonSemantic sets, argument errors, and
 * allocation failures while printing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine_util.h"

typedef struct msg {
    uint32_t wg[3], inv[3], local_index, in_callback, row, col, caller_op, word_offset, line;
    char file[64];
    char text[160];
    uint64_t dropped;
} msg;

typedef struct sink {
    msg m[512];
    uint32_t n;
} sink;

static void on_printf(void *user, const cvm_printf_message *p)
{
    sink *s = user;
    assert_true(s->n < 512);
    msg *m = &s->m[s->n++];
    memset(m, 0, sizeof(*m));
    memcpy(m->wg, p->workgroup, sizeof(m->wg));
    memcpy(m->inv, p->invocation, sizeof(m->inv));
    m->local_index = p->local_index;
    m->in_callback = p->in_callback;
    m->row = p->row;
    m->col = p->column;
    m->caller_op = p->caller_opcode;
    m->word_offset = p->word_offset;
    m->line = p->line;
    snprintf(m->file, sizeof(m->file), "%s", p->file);
    assert_true(p->text[p->length] == 0 && strlen(p->text) == p->length);
    snprintf(m->text, sizeof(m->text), "%s", p->text);
    m->dropped = p->dropped;
}

static int check_callbacks; /* run_spv with CVM_FLAG_CHECK_CALLBACKS */

/* Runs tests/debug/NAME.spv over `groups` workgroups with the sink. */
static cvm_result run_spv(const char *name, uint32_t groups, uint32_t threads, sink *s,
                          const cvm_debug_desc *extra, cvm_diagnostic *d)
{
    cvm_context_desc cd;
    memset(&cd, 0, sizeof(cd));
    cd.threads = threads;
    cd.flags = check_callbacks ? CVM_FLAG_CHECK_CALLBACKS : 0;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    char rel[128];
    snprintf(rel, sizeof(rel), "debug/%s.spv", name);
    size_t n;
    uint32_t *w = tu_read(rel, &n);
    assert_non_null(w);
    static uint32_t blk[256], out[1024];
    for (uint32_t e = 0; e < 256; e++)
        blk[e] = !strcmp(name, "printf_combine") ? 100 * (e / 8) + e % 8 : 3 * e + 1;
    cvm_result r = cvm_context_create(&cd, &ctx, d);
    if (r == CVM_SUCCESS)
        r = cvm_module_create(ctx, w, n / 4, &mod, d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, d);
    if (r == CVM_SUCCESS && (!strncmp(name, "printf_callbacks", 16) ||
                             !strcmp(name, "printf_combine"))) {
        r = cvm_pipeline_bind_buffer(pipe, 0, 0, 0, blk, sizeof(blk), d);
        if (r == CVM_SUCCESS)
            r = cvm_pipeline_bind_buffer(pipe, 0, 1, 0, out, sizeof(out), d);
    } else if (r == CVM_SUCCESS) {
        r = cvm_pipeline_bind_buffer(pipe, 0, 0, 0, out, sizeof(out), d);
    }
    cvm_debug_desc dd;
    memset(&dd, 0, sizeof(dd));
    if (extra)
        dd = *extra;
    dd.printf_fn = on_printf;
    dd.printf_user = s;
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_set_debug(pipe, &dd, d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_dispatch(pipe, groups, 1, 1, d);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    free(w);
    return r;
}

static int same_messages(const sink *a, const sink *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (memcmp(&a->m[i], &b->m[i], sizeof(msg)))
            return 0;
    return 1;
}

static void test_fields_and_threads(void **state)
{
    (void)state;
    static sink one, many;
    cvm_diagnostic d;
    memset(&one, 0, sizeof(one));
    memset(&many, 0, sizeof(many));
    assert_int_equal(run_spv("printf_divergent", 2, 1, &one, NULL, &d), CVM_SUCCESS);
    for (int rep = 0; rep < 5; rep++) { /* workgroups finish in any order on 4 threads */
        memset(&many, 0, sizeof(many));
        assert_int_equal(run_spv("printf_divergent", 2, 4, &many, NULL, &d), CVM_SUCCESS);
        assert_true(same_messages(&one, &many));
    }
    assert_int_equal(one.n, 66); /* as tests/debug/printf_model.py counts */
    /* sorted: workgroup, then invocation */
    for (uint32_t i = 1; i < one.n; i++) {
        const msg *p = &one.m[i - 1], *q = &one.m[i];
        assert_true(p->wg[0] < q->wg[0] || (p->wg[0] == q->wg[0] && p->local_index <= q->local_index));
    }
    const msg *m = &one.m[0];
    assert_int_equal(m->wg[0], 0);
    assert_int_equal(m->inv[0], 0);
    assert_string_equal(m->text, "even 0 in wg 0\n");
    assert_int_equal(m->in_callback, 0);
    assert_true(m->word_offset > 5);
    assert_int_equal(m->line, 0); /* no debug information in this module */
    assert_string_equal(m->file, "");
    assert_int_equal(one.m[one.n - 1].wg[0], 1);
    assert_int_equal(one.m[one.n - 1].local_index, 7);
}

static void test_source_lines(void **state)
{
    (void)state;
    static sink s;
    cvm_diagnostic d;
    memset(&s, 0, sizeof(s));
    assert_int_equal(run_spv("printf_divergent_gvs", 1, 1, &s, NULL, &d), CVM_SUCCESS);
    uint32_t found = 0;
    for (uint32_t i = 0; i < s.n; i++) {
        if (strncmp(s.m[i].text, "odd ", 4))
            continue;
        /* debugPrintfEXT("odd ...") is line 19 of printf_divergent.comp */
        assert_int_equal(s.m[i].line, 19);
        assert_string_equal(s.m[i].file, "printf_divergent.comp");
        found++;
    }
    assert_int_equal(found, 4);
}

static void test_callbacks_name_elements(void **state)
{
    (void)state;
    static sink s;
    cvm_diagnostic d;
    memset(&s, 0, sizeof(s));
    assert_int_equal(run_spv("printf_callbacks", 1, 1, &s, NULL, &d), CVM_SUCCESS);
    assert_int_equal(s.n, 32);
    uint32_t dec = 0, per = 0;
    for (uint32_t i = 0; i < s.n; i++) {
        const msg *m = &s.m[i];
        assert_int_equal(m->in_callback, 1);
        /* the owner of element (r, c) of a 16x16 subgroup matrix: (16r + c) / 8 */
        assert_int_equal(m->local_index, (16 * m->row + m->col) / 8);
        if (!strncmp(m->text, "decode", 6)) {
            assert_int_equal(m->row, m->col);
            assert_int_equal(m->caller_op, 5367); /* OpCooperativeMatrixLoadTensorNV */
            dec++;
        } else {
            assert_int_equal(m->row + m->col, 15);
            assert_int_equal(m->caller_op, 5369); /* OpCooperativeMatrixPerElementOpNV */
            per++;
        }
    }
    assert_int_equal(dec, 16);
    assert_int_equal(per, 16);
}

/* A CombineFunc's messages: the first element of the reduced row, and its
 * owner; in the checking mode the comparison reduction prints nothing. */
static void test_combine(void **state)
{
    (void)state;
    static sink s, c;
    cvm_diagnostic d;
    memset(&s, 0, sizeof(s));
    memset(&c, 0, sizeof(c));
    assert_int_equal(run_spv("printf_combine", 1, 1, &s, NULL, &d), CVM_SUCCESS);
    assert_int_equal(s.n, 7);
    uint32_t acc = 300;
    for (uint32_t i = 0; i < s.n; i++) {
        char want[64];
        snprintf(want, sizeof(want), "combine %u %u\n", acc, 301 + i);
        acc += 301 + i;
        assert_string_equal(s.m[i].text, want);
        assert_int_equal(s.m[i].row, 3);
        assert_int_equal(s.m[i].col, 0);
        assert_int_equal(s.m[i].local_index, 12); /* (8 * 3 + 0) / 2 */
        assert_int_equal(s.m[i].caller_op, 5366); /* OpCooperativeMatrixReduceNV */
    }
    cvm_debug_desc dd;
    memset(&dd, 0, sizeof(dd));
    check_callbacks = 1;
    assert_int_equal(run_spv("printf_combine", 1, 1, &c, &dd, &d), CVM_SUCCESS);
    check_callbacks = 0;
    /* the tree of the checking mode folds row 3's elements pairwise first:
     * (301, 300), (303, 302), ... print; the comparison fold prints nothing */
    assert_true(c.n > 0 && c.n < 14);
    for (uint32_t i = 0; i < c.n; i++)
        assert_int_equal(c.m[i].row, 3);
}

static void test_limit_note(void **state)
{
    (void)state;
    static sink s;
    cvm_diagnostic d;
    memset(&s, 0, sizeof(s));
    cvm_debug_desc dd;
    memset(&dd, 0, sizeof(dd));
    dd.printf_limit = 10;
    assert_int_equal(run_spv("printf_divergent", 2, 3, &s, &dd, &d), CVM_SUCCESS);
    assert_int_equal(s.n, 11);
    assert_int_equal(s.m[10].dropped, 56);
    assert_string_equal(s.m[10].text, "");
    assert_int_equal(s.m[9].local_index, 2); /* invocations 0, 1 print 3 and 4 messages */
}

/* Assembles `body` after a common header and creates its pipeline. */
static cvm_result make_pipeline(const char *body, int past_bound, cvm_diagnostic *d)
{
    char text[4096];
    snprintf(text, sizeof(text),
             "OpCapability Shader\n"
             "OpExtension \"SPV_KHR_non_semantic_info\"\n"
             "%%pf = OpExtInstImport \"NonSemantic.DebugPrintf\"\n"
             "%%other = OpExtInstImport \"NonSemantic.Something.Else\"\n"
             "OpMemoryModel Logical GLSL450\n"
             "OpEntryPoint GLCompute %%main \"main\"\n"
             "OpExecutionMode %%main LocalSize 1 1 1\n"
             "%%fmt = OpString \"x=%%d\"\n"
             "%%void = OpTypeVoid\n"
             "%%fn = OpTypeFunction %%void\n"
             "%%int = OpTypeInt 32 1\n"
             "%%st = OpTypeStruct %%int %%int\n"
             "%%one = OpConstant %%int 1\n"
             "%%pair = OpConstantComposite %%st %%one %%one\n"
             "%%main = OpFunction %%void None %%fn\n"
             "%%entry = OpLabel\n"
             "%s\n"
             "OpReturn\n"
             "OpFunctionEnd\n",
             body);
    uint32_t *w = NULL;
    size_t nw = 0;
    cvm_result r = cvm_assemble(text, strlen(text), 0, "vulkan1.3", &w, &nw, d);
    if (r != CVM_SUCCESS)
        fail_msg("%s", d->message);
    if (past_bound) { /* the last operand of the first DebugPrintf: an id past the bound */
        for (size_t i = 5; i < nw; i += w[i] >> 16 ? w[i] >> 16 : 1)
            if ((w[i] & 0xffff) == 12 /* OpExtInst */ && (w[i] >> 16) >= 7) {
                w[i + (w[i] >> 16) - 1] = 4000;
                break;
            }
    }
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    assert_int_equal(cvm_context_create(NULL, &ctx, d), CVM_SUCCESS);
    r = cvm_module_create(ctx, w, nw, &mod, d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, d);
    if (r == CVM_SUCCESS) {
        static sink s;
        memset(&s, 0, sizeof(s));
        cvm_debug_desc dd;
        memset(&dd, 0, sizeof(dd));
        dd.printf_fn = on_printf;
        dd.printf_user = &s;
        assert_int_equal(cvm_pipeline_set_debug(pipe, &dd, d), CVM_SUCCESS);
        r = cvm_pipeline_dispatch(pipe, 1, 1, 1, d);
        if (r == CVM_SUCCESS && strstr(body, "%pf 1 %fmt %one")) {
            assert_int_equal(s.n, 1);
            assert_string_equal(s.m[0].text, "x=1");
        }
    }
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    cvm_free(w);
    return r;
}

static void test_malformed_and_ignored(void **state)
{
    (void)state;
    cvm_diagnostic d;
    assert_int_equal(make_pipeline("%p = OpExtInst %void %pf 1 %fmt %one", 0, &d), CVM_SUCCESS);
    /* the format is not an OpString */
    assert_int_equal(make_pipeline("%p = OpExtInst %void %pf 1 %one %one", 0, &d),
                     CVM_ERROR_INVALID_MODULE);
    assert_non_null(strstr(d.message, "Format"));
    /* a struct argument */
    assert_int_equal(make_pipeline("%p = OpExtInst %void %pf 1 %fmt %pair", 0, &d),
                     CVM_ERROR_INVALID_MODULE);
    assert_non_null(strstr(d.message, "DebugPrintf argument 1"));
    /* no Format operand */
    assert_int_equal(make_pipeline("%p = OpExtInst %void %pf 1", 0, &d), CVM_ERROR_INVALID_MODULE);
    /* an id past the bound among the operands */
    assert_int_equal(make_pipeline("%p = OpExtInst %void %pf 1 %fmt %one", 1, &d),
                     CVM_ERROR_INVALID_MODULE);
    assert_non_null(strstr(d.message, "not a defined id (4000)"));
    /* instruction 2 of the set, and another NonSemantic set: no effect */
    assert_int_equal(make_pipeline("%p = OpExtInst %void %pf 2 %one", 0, &d), CVM_SUCCESS);
    assert_int_equal(make_pipeline("%p = OpExtInst %void %other 7 %one %pair", 0, &d),
                     CVM_SUCCESS);
}

static void test_arguments(void **state)
{
    (void)state;
    cvm_diagnostic d;
    cvm_debug_desc dd;
    memset(&dd, 0, sizeof(dd));
    assert_int_equal(cvm_pipeline_set_debug(NULL, &dd, &d), CVM_ERROR_INVALID_ARGUMENT);
    static sink s;
    memset(&s, 0, sizeof(s));
    /* a trace of an invocation the workgroup (8) does not have */
    dd.trace_fn = (cvm_trace_fn)(void (*)(void))on_printf; /* never called */
    dd.trace_invocation = 8;
    assert_int_equal(run_spv("printf_divergent", 1, 1, &s, &dd, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "trace invocation 8"));
}

/* Every allocation of a printing dispatch failing in turn: an error or
 * success, never a crash or a leak (the sanitizer build checks). */
static void test_allocation_failures(void **state)
{
    (void)state;
    static sink s;
    cvm_diagnostic d;
    int ok = 0, oom = 0;
    for (uint64_t n = 1; n < 400 && !ok; n++) {
        memset(&s, 0, sizeof(s));
        cvm_context_desc cd;
        memset(&cd, 0, sizeof(cd));
        cd.threads = 1;
        cvm_context *ctx = NULL;
        cvm_module *mod = NULL;
        cvm_pipeline *pipe = NULL;
        size_t nb;
        uint32_t *w = tu_read("debug/printf_plain.spv", &nb);
        static uint32_t out[64];
        assert_int_equal(cvm_context_create(&cd, &ctx, &d), CVM_SUCCESS);
        assert_int_equal(cvm_module_create(ctx, w, nb / 4, &mod, &d), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, &d), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 0, 0, out, sizeof(out), &d), CVM_SUCCESS);
        cvm_debug_desc dd;
        memset(&dd, 0, sizeof(dd));
        dd.printf_fn = on_printf;
        dd.printf_user = &s;
        assert_int_equal(cvm_pipeline_set_debug(pipe, &dd, &d), CVM_SUCCESS);
        cvm_test_fail_allocation_after(n);
        cvm_result r = cvm_pipeline_dispatch(pipe, 2, 1, 1, &d);
        cvm_test_fail_allocation_after(0);
        if (r == CVM_SUCCESS)
            ok = s.n == 40 || (s.n && s.m[s.n - 1].dropped); /* all, or a note of those lost */
        else
            oom += r == CVM_ERROR_OUT_OF_MEMORY;
        assert_true(r == CVM_SUCCESS || r == CVM_ERROR_OUT_OF_MEMORY);
        cvm_pipeline_destroy(pipe);
        cvm_module_destroy(mod);
        cvm_context_destroy(ctx);
        free(w);
    }
    assert_true(ok);
    assert_true(oom > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_and_threads),
        cmocka_unit_test(test_source_lines),
        cmocka_unit_test(test_callbacks_name_elements),
        cmocka_unit_test(test_combine),
        cmocka_unit_test(test_limit_note),
        cmocka_unit_test(test_malformed_and_ignored),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
