/* Shared by the test_ops_* suites: runs a test shader from tests/shaders/
 * through the public API (context, module, pipeline, buffers, push
 * constants, dispatch).  Include after cmocka.h. */
#ifndef OPS_HARNESS_H
#define OPS_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coopvm.h"

typedef struct ops_buf {
    uint32_t binding;
    void *data;
    size_t size;
} ops_buf;

/* Runs shaders/<name>.spv with the given subgroup size and thread count
 * over `groups` workgroups; returns the dispatch result (asserts that the
 * setup works) and copies the diagnostic message to `o_msg` if not NULL. */
static inline cvm_result ops_run(const char *name, uint32_t sg_size, uint32_t threads, uint32_t flags,
                                 const ops_buf *bufs, uint32_t nbufs, const void *push, size_t push_size,
                          uint32_t groups, char *o_msg, size_t msg_size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/shaders/%s.spv", CVM_TEST_DATA_DIR, name);
    cvm_context_desc d;
    memset(&d, 0, sizeof(d));
    d.subgroup_size = sg_size;
    d.threads = threads;
    d.flags = flags;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    cvm_diagnostic diag;
    memset(&diag, 0, sizeof(diag));
    assert_int_equal(cvm_context_create(&d, &ctx, &diag), CVM_SUCCESS);
    cvm_result r = cvm_module_create_from_file(ctx, path, &mod, &diag);
    if (r != CVM_SUCCESS)
        fprintf(stderr, "%s: %s\n", path, diag.message);
    assert_int_equal(r, CVM_SUCCESS);
    r = cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, &diag);
    if (r != CVM_SUCCESS)
        fprintf(stderr, "%s: %s\n", path, diag.message);
    assert_int_equal(r, CVM_SUCCESS);
    for (uint32_t i = 0; i < nbufs; i++)
        assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, bufs[i].binding, 0, bufs[i].data,
                                                  bufs[i].size, &diag),
                         CVM_SUCCESS);
    if (push_size)
        assert_int_equal(cvm_pipeline_set_push_constants(pipe, push, push_size, &diag),
                         CVM_SUCCESS);
    r = cvm_pipeline_dispatch(pipe, groups, 1, 1, &diag);
    if (o_msg)
        snprintf(o_msg, msg_size, "%s", diag.message);
    else if (r != CVM_SUCCESS)
        fprintf(stderr, "%s: %s\n", path, diag.message);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    return r;
}

static uint64_t ops_rng_state = 0x243f6a8885a308d3ull;

static inline uint64_t ops_rng(void)
{
    uint64_t z = (ops_rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint32_t ops_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float ops_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
