/* Cooperative-matrix callbacks run in the context of an invocation of the
 * scope instance (exec.h, cvm_callback_run): they read and write that
 * invocation's Private variables.  tests/shaders/callback_context.comp stores
 * gl_LocalInvocationIndex in a Private variable, reads it in a per-element
 * function and counts the calls in another Private variable.
 *
 * The model: with the element mapping of the engine (ARCHITECTURE.md:
 * L = ceil(M*N / invocations in the scope instance), invocation i owns flat
 * elements [i*L, (i+1)*L)), element e's call runs in the context of the
 * invocation e / L of its instance; each invocation then counts L calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine_util.h"

typedef struct result {
    uint32_t res[512];
    uint32_t calls[64];
    cvm_result r;
    cvm_diagnostic diag;
} result;

static void run_case(uint32_t workgroup_scope, uint32_t read_lane, uint32_t flags, result *o)
{
    cvm_context_desc d;
    memset(&d, 0, sizeof(d));
    d.subgroup_size = 32;
    d.threads = 1;
    d.flags = flags;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    memset(o, 0xAB, sizeof(o->res) + sizeof(o->calls));
    assert_int_equal(cvm_context_create(&d, &ctx, &o->diag), CVM_SUCCESS);
    size_t n;
    uint32_t *w = tu_read("shaders/callback_context.spv", &n);
    assert_non_null(w);
    assert_int_equal(cvm_module_create(ctx, w, n / 4, &mod, &o->diag), CVM_SUCCESS);
    free(w);
    cvm_specialization specs[2] = {{0, 4, workgroup_scope}, {1, 4, read_lane}};
    assert_int_equal(cvm_pipeline_create(mod, "main", specs, 2, &pipe, &o->diag), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 0, 0, o->res, sizeof(o->res), &o->diag),
                     CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 1, 0, o->calls, sizeof(o->calls), &o->diag),
                     CVM_SUCCESS);
    o->r = cvm_pipeline_dispatch(pipe, 1, 1, 1, &o->diag);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
}

/* Subgroup scope: 16x16 over 32 invocations, L = 8. */
static void test_subgroup_owner_context(void **state)
{
    (void)state;
    result o;
    run_case(0, 1, 0, &o);
    assert_int_equal(o.r, CVM_SUCCESS);
    for (uint32_t sg = 0; sg < 2; sg++)
        for (uint32_t e = 0; e < 256; e++) {
            uint32_t owner = sg * 32 + e / 8;
            assert_int_equal(o.res[sg * 256 + e], owner * 1000 + e);
        }
    for (uint32_t l = 0; l < 64; l++)
        assert_int_equal(o.calls[l], 8); /* the callback's writes landed in its invocation */
}

/* Workgroup scope: 16x16 over 64 invocations, L = 4. */
static void test_workgroup_owner_context(void **state)
{
    (void)state;
    result o;
    run_case(1, 1, 0, &o);
    assert_int_equal(o.r, CVM_SUCCESS);
    for (uint32_t e = 0; e < 256; e++)
        assert_int_equal(o.res[e], (e / 4) * 1000 + e);
    for (uint32_t l = 0; l < 64; l++)
        assert_int_equal(o.calls[l], 4);
}

/* The checking mode runs each call in another invocation's context too: a
 * result that reads non-uniform Private state is reported. */
static void test_check_reports_nonuniform_state(void **state)
{
    (void)state;
    for (uint32_t wg = 0; wg < 2; wg++) {
        result o;
        run_case(wg, 1, CVM_FLAG_CHECK_CALLBACKS, &o);
        assert_int_equal(o.r, CVM_ERROR_CALLBACK_MISMATCH);
        assert_non_null(strstr(o.diag.message, "in the context of invocation"));
        assert_non_null(strstr(o.diag.message, "not uniform"));
    }
}

/* A callback that only writes Private state passes the checking mode, and
 * the checking mode leaves the state the default mode leaves (its extra
 * passes are undone). */
static void test_check_keeps_private_writes(void **state)
{
    (void)state;
    for (uint32_t wg = 0; wg < 2; wg++) {
        result plain, checked;
        run_case(wg, 0, 0, &plain);
        run_case(wg, 0, CVM_FLAG_CHECK_CALLBACKS, &checked);
        assert_int_equal(plain.r, CVM_SUCCESS);
        assert_int_equal(checked.r, CVM_SUCCESS);
        assert_memory_equal(plain.calls, checked.calls, sizeof(plain.calls));
        assert_memory_equal(plain.res, checked.res, sizeof(plain.res));
        for (uint32_t l = 0; l < 64; l++)
            assert_int_equal(plain.calls[l], wg ? 4 : 8);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subgroup_owner_context),
        cmocka_unit_test(test_workgroup_owner_context),
        cmocka_unit_test(test_check_reports_nonuniform_state),
        cmocka_unit_test(test_check_keeps_private_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
