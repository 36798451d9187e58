/* Buffers reached only through device addresses (cvm_buffer_create), with
 * tests/cases/bda_gemm: a GEMM whose four operands are buffer_reference
 * pointers in a uniform block.  The expected result is the case's recorded
 * output (checked against a closed-form model by tests/cases/models.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine_util.h"

#define M 64
#define N 48
#define K 80

typedef struct gemm {
    cvm_context *ctx;
    cvm_module *mod;
    cvm_pipeline *pipe;
    unsigned char params[48];
    void *a, *b, *c, *expected;
    float d[M * N];
    cvm_buffer *buf[4];
    cvm_diagnostic diag;
} gemm;

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void gemm_open(gemm *g, size_t d_size)
{
    memset(g, 0, sizeof(*g));
    size_t n;
    cvm_context_desc cd;
    memset(&cd, 0, sizeof(cd));
    cd.subgroup_size = 32;
    assert_int_equal(cvm_context_create(&cd, &g->ctx, &g->diag), CVM_SUCCESS);
    uint32_t *w = tu_read("cases/bda_gemm/bda_gemm.spv", &n);
    assert_non_null(w);
    assert_int_equal(cvm_module_create(g->ctx, w, n / 4, &g->mod, &g->diag), CVM_SUCCESS);
    free(w);
    assert_int_equal(cvm_pipeline_create(g->mod, NULL, NULL, 0, &g->pipe, &g->diag), CVM_SUCCESS);
    void *params = tu_read("cases/bda_gemm/params.bin", &n);
    assert_int_equal(n, sizeof(g->params));
    memcpy(g->params, params, n);
    free(params);
    g->a = tu_read("cases/bda_gemm/a.bin", &n);
    assert_int_equal(n, M * K * 2);
    g->b = tu_read("cases/bda_gemm/b.bin", &n);
    assert_int_equal(n, K * N * 2);
    g->c = tu_read("cases/bda_gemm/c.bin", &n);
    assert_int_equal(n, M * N * 4);
    g->expected = tu_read("cases/bda_gemm/d.expected.bin", &n);
    assert_int_equal(n, M * N * 4);
    void *mem[4] = {g->a, g->b, g->c, g->d};
    size_t size[4] = {M * K * 2, K * N * 2, M * N * 4, d_size};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(cvm_buffer_create(g->ctx, mem[i], size[i], &g->buf[i], &g->diag),
                         CVM_SUCCESS);
        uint64_t addr = cvm_buffer_device_address(g->buf[i]);
        assert_int_not_equal(addr, 0);
        put_u64(g->params + 8 * i, addr);
    }
    assert_int_equal(cvm_pipeline_bind_buffer(g->pipe, 0, 0, 0, g->params, sizeof(g->params),
                                              &g->diag),
                     CVM_SUCCESS);
}

static void gemm_close(gemm *g)
{
    cvm_pipeline_destroy(g->pipe);
    cvm_module_destroy(g->mod);
    for (int i = 0; i < 4; i++)
        cvm_buffer_destroy(g->buf[i]);
    cvm_context_destroy(g->ctx);
    free(g->a);
    free(g->b);
    free(g->c);
    free(g->expected);
}

static void test_gemm_through_addresses(void **state)
{
    (void)state;
    gemm g;
    gemm_open(&g, sizeof(g.d));
    /* the four addresses are distinct, and not those of descriptors */
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            assert_int_not_equal(cvm_buffer_device_address(g.buf[i]),
                                 cvm_buffer_device_address(g.buf[j]));
    assert_int_equal(cvm_pipeline_dispatch(g.pipe, 6, 1, 1, &g.diag), CVM_SUCCESS);
    assert_memory_equal(g.d, g.expected, sizeof(g.d));
    /* the same addresses work in a second pipeline of the context */
    cvm_pipeline *p2 = NULL;
    memset(g.d, 0, sizeof(g.d));
    assert_int_equal(cvm_pipeline_create(g.mod, NULL, NULL, 0, &p2, &g.diag), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(p2, 0, 0, 0, g.params, sizeof(g.params), &g.diag),
                     CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_dispatch(p2, 6, 1, 1, &g.diag), CVM_SUCCESS);
    assert_memory_equal(g.d, g.expected, sizeof(g.d));
    cvm_pipeline_destroy(p2);
    gemm_close(&g);
}

/* D registered one row short: the store of the last tile row goes past it,
 * reported like any other out-of-bounds access. */
static void test_out_of_bounds_through_address(void **state)
{
    (void)state;
    gemm g;
    gemm_open(&g, sizeof(g.d) - N * 4);
    assert_int_equal(cvm_pipeline_dispatch(g.pipe, 6, 1, 1, &g.diag), CVM_ERROR_OUT_OF_BOUNDS);
    assert_non_null(strstr(g.diag.message, "reached by its device address"));
    assert_int_not_equal(g.diag.word_offset, UINT32_MAX);
    gemm_close(&g);
}

/* A destroyed buffer's address reaches no memory any more. */
static void test_destroyed_buffer(void **state)
{
    (void)state;
    gemm g;
    gemm_open(&g, sizeof(g.d));
    cvm_buffer_destroy(g.buf[0]);
    g.buf[0] = NULL;
    assert_int_equal(cvm_pipeline_dispatch(g.pipe, 6, 1, 1, &g.diag), CVM_ERROR_OUT_OF_BOUNDS);
    assert_non_null(strstr(g.diag.message, "in no buffer"));
    gemm_close(&g);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    cvm_context *ctx = NULL;
    cvm_buffer *b = NULL;
    cvm_diagnostic d;
    char mem[16];
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    assert_int_equal(cvm_buffer_create(NULL, mem, 16, &b, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_buffer_create(ctx, NULL, 16, &b, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_buffer_create(ctx, mem, 16, NULL, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_buffer_device_address(NULL), 0);
    cvm_buffer_destroy(NULL);
    /* a freed slot is reused: the address stays nonzero */
    assert_int_equal(cvm_buffer_create(ctx, mem, 16, &b, &d), CVM_SUCCESS);
    uint64_t first = cvm_buffer_device_address(b);
    cvm_buffer_destroy(b);
    assert_int_equal(cvm_buffer_create(ctx, mem, 16, &b, &d), CVM_SUCCESS);
    assert_int_equal(cvm_buffer_device_address(b), first);
    cvm_buffer_destroy(b);
    /* allocation failure ends in a status */
    cvm_test_fail_allocation_after(1);
    assert_int_equal(cvm_buffer_create(ctx, mem, 16, &b, &d), CVM_ERROR_OUT_OF_MEMORY);
    cvm_test_fail_allocation_after(0);
    cvm_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_through_addresses),
        cmocka_unit_test(test_out_of_bounds_through_address),
        cmocka_unit_test(test_destroyed_buffer),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
