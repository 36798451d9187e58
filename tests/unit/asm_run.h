/* Runs SPIR-V text through the public API: assembled at test time
 * (cvm_assemble, what `coopvm as` does), a context of the given subgroup
 * size, a pipeline for "main" with specializations, buffers bound at set 0,
 * bindings 0..n-1, one dispatch.  Include after cmocka.h. */
#ifndef ASM_RUN_H
#define ASM_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coopvm.h"

typedef struct asm_result {
    cvm_result create;   /* assembly, module or pipeline creation */
    cvm_result dispatch; /* the dispatch (when create succeeded) */
    char message[1024];
} asm_result;

typedef struct asm_params {
    uint32_t subgroup_size; /* 0: the default */
    uint32_t threads;       /* 0: all cores */
    uint32_t flags;         /* cvm_context_flags */
    const cvm_specialization *specs;
    uint32_t nspecs;
    uint32_t groups[3];     /* {0,0,0}: one workgroup */
    const void *push;
    size_t push_size;
} asm_params;

static inline asm_result asm_run(const char *text, const asm_params *p, void **bufs,
                                 const size_t *sizes, uint32_t nbufs)
{
    asm_result rr;
    memset(&rr, 0, sizeof(rr));
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    rr.create = cvm_assemble(text, strlen(text), 0, NULL, &words, &nw, &d);
    if (rr.create != CVM_SUCCESS) {
        snprintf(rr.message, sizeof(rr.message), "assembly, line %u: %s", d.line, d.message);
        return rr;
    }
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.subgroup_size = p ? p->subgroup_size : 0;
    desc.threads = p ? p->threads : 0;
    desc.flags = p ? p->flags : 0;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    rr.create = cvm_context_create(&desc, &ctx, &d);
    if (rr.create == CVM_SUCCESS)
        rr.create = cvm_module_create(ctx, words, nw, &mod, &d);
    if (rr.create == CVM_SUCCESS)
        rr.create = cvm_pipeline_create(mod, NULL, p ? p->specs : NULL, p ? p->nspecs : 0, &pipe,
                                        &d);
    if (rr.create != CVM_SUCCESS) {
        snprintf(rr.message, sizeof(rr.message), "%s", d.message);
    } else {
        for (uint32_t i = 0; i < nbufs && rr.dispatch == CVM_SUCCESS; i++)
            rr.dispatch = cvm_pipeline_bind_buffer(pipe, 0, i, 0, bufs[i], sizes[i], &d);
        if (rr.dispatch == CVM_SUCCESS && p && p->push_size)
            rr.dispatch = cvm_pipeline_set_push_constants(pipe, p->push, p->push_size, &d);
        if (rr.dispatch == CVM_SUCCESS) {
            uint32_t gx = 1, gy = 1, gz = 1;
            if (p && p->groups[0]) {
                gx = p->groups[0];
                gy = p->groups[1] ? p->groups[1] : 1;
                gz = p->groups[2] ? p->groups[2] : 1;
            }
            rr.dispatch = cvm_pipeline_dispatch(pipe, gx, gy, gz, &d);
        }
        if (rr.dispatch != CVM_SUCCESS)
            snprintf(rr.message, sizeof(rr.message), "%s", d.message);
    }
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    cvm_free(words);
    return rr;
}

/* Fails the test with the message unless both steps succeeded. */
#define ASM_OK(rr, what)                                                                  \
    do {                                                                                  \
        if ((rr).create != CVM_SUCCESS || (rr).dispatch != CVM_SUCCESS)                    \
            fail_msg("%s: %s / %s: %s", (what), cvm_result_string((rr).create),            \
                     cvm_result_string((rr).dispatch), (rr).message);                     \
    } while (0)

/* A module the texts forbid: refused by the validator (which the engine
 * runs first) and, with CVM_FLAG_NO_VALIDATION, by the engine's own checks,
 * whose message must contain `engine_message`.  Fails the test otherwise;
 * `what` names the case. */
static inline void asm_expect_refused(const char *what, const char *text, const asm_params *p,
                                      void **bufs, const size_t *sizes, uint32_t nbufs,
                                      const char *engine_message)
{
    asm_params q;
    if (p)
        q = *p;
    else
        memset(&q, 0, sizeof(q));
    asm_result rr = asm_run(text, &q, bufs, sizes, nbufs);
    cvm_result r = rr.create != CVM_SUCCESS ? rr.create : rr.dispatch;
    if (r != CVM_ERROR_INVALID_MODULE)
        fail_msg("%s: the validator gave %s: %s", what, cvm_result_string(r), rr.message);
    q.flags |= CVM_FLAG_NO_VALIDATION;
    rr = asm_run(text, &q, bufs, sizes, nbufs);
    r = rr.create != CVM_SUCCESS ? rr.create : rr.dispatch;
    if (r != CVM_ERROR_INVALID_MODULE || !strstr(rr.message, engine_message))
        fail_msg("%s: the engine gave %s: %s (expected \"%s\")", what, cvm_result_string(r),
                 rr.message, engine_message);
}

#endif
