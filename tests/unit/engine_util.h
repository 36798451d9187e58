/* Helpers for tests that run shaders through the public API. */
#ifndef CVM_TEST_ENGINE_UTIL_H
#define CVM_TEST_ENGINE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopvm.h"

/* Test hook from src/cvm_common.h (not public API). */
void cvm_test_fail_allocation_after(uint64_t n);

/* Reads a file under tests/ (CVM_TEST_DATA_DIR) into memory. */
static inline void *tu_read(const char *rel, size_t *o_size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", CVM_TEST_DATA_DIR, rel);
    FILE *f = fopen(path, "rb");
    *o_size = 0;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *o_size = (size_t)n;
    return p;
}

typedef struct tu_run {
    cvm_context *ctx;
    cvm_module *mod;
    cvm_pipeline *pipe;
    cvm_diagnostic diag;
} tu_run;

/* Context (subgroup size, threads, budget), module from tests/REL and a
 * pipeline for "main". Returns the first failing status. */
static inline cvm_result tu_open(tu_run *t, const char *rel, uint32_t sg, uint32_t threads,
                                 uint64_t budget, const cvm_specialization *specs, uint32_t nspecs)
{
    memset(t, 0, sizeof(*t));
    cvm_context_desc d;
    memset(&d, 0, sizeof(d));
    d.subgroup_size = sg;
    d.threads = threads;
    d.instruction_budget = budget;
    cvm_result r = cvm_context_create(&d, &t->ctx, &t->diag);
    if (r)
        return r;
    size_t n;
    uint32_t *w = tu_read(rel, &n);
    if (!w)
        return CVM_ERROR_IO;
    r = cvm_module_create(t->ctx, w, n / 4, &t->mod, &t->diag);
    free(w);
    if (r)
        return r;
    return cvm_pipeline_create(t->mod, "main", specs, nspecs, &t->pipe, &t->diag);
}

static inline void tu_close(tu_run *t)
{
    cvm_pipeline_destroy(t->pipe);
    cvm_module_destroy(t->mod);
    cvm_context_destroy(t->ctx);
}

#endif
