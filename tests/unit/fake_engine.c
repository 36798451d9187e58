/* A stand-in for the coopvm.h engine functions, for tests of the layers
 * above it (AmberScript runner, CLI) while the engine is written elsewhere.
 * Test-only: included by a test file, never part of the library.
 *
 * It records what it is given (context settings, specialization constants,
 * bindings, push constants, dispatches) in `fake` so tests can check the
 * runner's calls, and runs `fake.dispatch_hook` in place of a shader.
 * cvm_result_string and cvm_free come from the library (src/cvm_common.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopvm.h"

#define FAKE_MAX_BINDINGS 32
#define CVM_FAKE_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef struct fake_binding {
    uint32_t set, binding, element;
    void *data;
    size_t size;
} fake_binding;

struct cvm_context {
    cvm_context_desc desc;
};
struct cvm_module {
    size_t word_count;
};
struct cvm_pipeline {
    char entry[64];
    cvm_specialization specs[64];
    uint32_t spec_count;
    fake_binding bindings[FAKE_MAX_BINDINGS];
    uint32_t binding_count;
    unsigned char push[256];
    size_t push_size;
};

static struct {
    cvm_context_desc last_desc;
    int contexts, modules, pipelines;  /* live objects */
    size_t last_word_count;
    cvm_pipeline *last_pipeline;
    uint32_t dispatches;
    uint32_t last_groups[3];
    /* Runs instead of a shader; may return an error. */
    cvm_result (*dispatch_hook)(cvm_pipeline *p, const uint32_t groups[3], cvm_diagnostic *d);
} fake;

static void fake_reset(void)
{
    memset(&fake, 0, sizeof(fake));
}

static void fake_diag(cvm_diagnostic *d, cvm_result r, const char *msg)
{
    if (!d)
        return;
    memset(d, 0, sizeof(*d));
    d->word_offset = UINT32_MAX;
    d->result = r;
    strncpy(d->message, msg, sizeof(d->message) - 1);
}

/* The memory bound at (set, binding, element), or NULL. */
static fake_binding *fake_find_binding(cvm_pipeline *p, uint32_t set, uint32_t binding,
                                       uint32_t element)
{
    for (uint32_t i = 0; i < p->binding_count; i++)
        if (p->bindings[i].set == set && p->bindings[i].binding == binding &&
            p->bindings[i].element == element)
            return &p->bindings[i];
    return NULL;
}

cvm_result cvm_context_create(const cvm_context_desc *desc, cvm_context **o_ctx,
                              cvm_diagnostic *o_diag)
{
    cvm_context *c = calloc(1, sizeof(*c));
    if (!c) {
        fake_diag(o_diag, CVM_ERROR_OUT_OF_MEMORY, "fake: out of memory");
        return CVM_ERROR_OUT_OF_MEMORY;
    }
    if (desc)
        c->desc = *desc;
    if (!c->desc.subgroup_size)
        c->desc.subgroup_size = 32;
    fake.last_desc = c->desc;
    fake.contexts++;
    *o_ctx = c;
    return CVM_SUCCESS;
}

void cvm_context_destroy(cvm_context *ctx)
{
    if (ctx)
        fake.contexts--;
    free(ctx);
}

void cvm_context_get_desc(const cvm_context *ctx, cvm_context_desc *o_desc)
{
    *o_desc = ctx->desc;
}

cvm_result cvm_module_create(cvm_context *ctx, const uint32_t *words, size_t word_count,
                             cvm_module **o_module, cvm_diagnostic *o_diag)
{
    (void)ctx;
    if (word_count < 5 || words[0] != 0x07230203u) {
        fake_diag(o_diag, CVM_ERROR_MALFORMED, "fake: not SPIR-V (magic)");
        if (o_diag)
            o_diag->word_offset = 0;
        return CVM_ERROR_MALFORMED;
    }
    cvm_module *m = calloc(1, sizeof(*m));
    if (!m)
        return CVM_ERROR_OUT_OF_MEMORY;
    m->word_count = word_count;
    fake.last_word_count = word_count;
    fake.modules++;
    *o_module = m;
    return CVM_SUCCESS;
}

cvm_result cvm_module_create_from_file(cvm_context *ctx, const char *path,
                                       cvm_module **o_module, cvm_diagnostic *o_diag)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fake_diag(o_diag, CVM_ERROR_IO, "fake: cannot open file");
        return CVM_ERROR_IO;
    }
    static uint32_t words[1 << 16];
    size_t n = fread(words, 4, CVM_FAKE_ARRAY_SIZE(words), f);
    fclose(f);
    return cvm_module_create(ctx, words, n, o_module, o_diag);
}

void cvm_module_destroy(cvm_module *module)
{
    if (module)
        fake.modules--;
    free(module);
}

cvm_result cvm_pipeline_create(cvm_module *module, const char *entry_point,
                               const cvm_specialization *specs, uint32_t spec_count,
                               cvm_pipeline **o_pipeline, cvm_diagnostic *o_diag)
{
    (void)module;
    if (entry_point && !strcmp(entry_point, "missing")) {
        fake_diag(o_diag, CVM_ERROR_NOT_FOUND, "fake: no entry point 'missing'");
        return CVM_ERROR_NOT_FOUND;
    }
    cvm_pipeline *p = calloc(1, sizeof(*p));
    if (!p || spec_count > 64) {
        free(p);
        return CVM_ERROR_OUT_OF_MEMORY;
    }
    if (entry_point)
        strncpy(p->entry, entry_point, sizeof(p->entry) - 1);
    memcpy(p->specs, specs, spec_count * sizeof(*specs));
    p->spec_count = spec_count;
    fake.pipelines++;
    fake.last_pipeline = p;
    *o_pipeline = p;
    return CVM_SUCCESS;
}

void cvm_pipeline_destroy(cvm_pipeline *pipeline)
{
    if (pipeline)
        fake.pipelines--;
    if (fake.last_pipeline == pipeline)
        fake.last_pipeline = NULL;
    free(pipeline);
}

void cvm_pipeline_local_size(const cvm_pipeline *pipeline, uint32_t o_size[3])
{
    (void)pipeline;
    o_size[0] = 32;
    o_size[1] = o_size[2] = 1;
}

cvm_result cvm_pipeline_bind_buffer(cvm_pipeline *p, uint32_t set, uint32_t binding,
                                    uint32_t array_element, void *data, size_t size,
                                    cvm_diagnostic *o_diag)
{
    fake_binding *b = fake_find_binding(p, set, binding, array_element);
    if (!b) {
        if (p->binding_count == FAKE_MAX_BINDINGS) {
            fake_diag(o_diag, CVM_ERROR_LIMIT, "fake: too many bindings");
            return CVM_ERROR_LIMIT;
        }
        b = &p->bindings[p->binding_count++];
    }
    b->set = set;
    b->binding = binding;
    b->element = array_element;
    b->data = data;
    b->size = size;
    return CVM_SUCCESS;
}

struct cvm_buffer {
    void *data;
    size_t size;
};

/* Address-only buffers: the fake's address is the host pointer. */
cvm_result cvm_buffer_create(cvm_context *ctx, void *data, size_t size, cvm_buffer **o_buffer,
                             cvm_diagnostic *o_diag)
{
    cvm_buffer *b = calloc(1, sizeof(*b));
    if (!ctx || !o_buffer || !b) {
        free(b);
        fake_diag(o_diag, CVM_ERROR_INVALID_ARGUMENT, "fake: bad buffer");
        return CVM_ERROR_INVALID_ARGUMENT;
    }
    b->data = data;
    b->size = size;
    *o_buffer = b;
    return CVM_SUCCESS;
}

void cvm_buffer_destroy(cvm_buffer *buffer)
{
    free(buffer);
}

uint64_t cvm_buffer_device_address(const cvm_buffer *buffer)
{
    return buffer ? (uint64_t)(uintptr_t)buffer->data : 0;
}

uint64_t cvm_pipeline_buffer_address(const cvm_pipeline *p, uint32_t set, uint32_t binding,
                                     uint32_t array_element)
{
    fake_binding *b = fake_find_binding((cvm_pipeline *)p, set, binding, array_element);
    return b ? (uint64_t)(uintptr_t)b->data : 0;
}

cvm_result cvm_pipeline_set_push_constants(cvm_pipeline *p, const void *data, size_t size,
                                           cvm_diagnostic *o_diag)
{
    if (size > sizeof(p->push)) {
        fake_diag(o_diag, CVM_ERROR_LIMIT, "fake: push constants too large");
        return CVM_ERROR_LIMIT;
    }
    memcpy(p->push, data, size);
    p->push_size = size;
    return CVM_SUCCESS;
}

cvm_result cvm_pipeline_dispatch(cvm_pipeline *p, uint32_t x, uint32_t y, uint32_t z,
                                 cvm_diagnostic *o_diag)
{
    uint32_t g[3] = {x, y, z};
    fake.dispatches++;
    memcpy(fake.last_groups, g, sizeof(g));
    fake.last_pipeline = p;
    if (fake.dispatch_hook)
        return fake.dispatch_hook(p, g, o_diag);
    return CVM_SUCCESS;
}

cvm_result cvm_pipeline_set_debug(cvm_pipeline *p, const cvm_debug_desc *desc,
                                  cvm_diagnostic *o_diag)
{
    (void)desc;
    if (!p) {
        fake_diag(o_diag, CVM_ERROR_INVALID_ARGUMENT, "fake: pipeline is NULL");
        return CVM_ERROR_INVALID_ARGUMENT;
    }
    return CVM_SUCCESS;
}

/* Extensions and features as coopvm will advertise them (ARCHITECTURE.md). */
int cvm_supports_extension(const char *name)
{
    static const char *const ext[] = {"VK_KHR_cooperative_matrix", "VK_NV_cooperative_matrix2",
                                      "VK_NV_cooperative_matrix_decode_vector",
                                      "VK_QCOM_cooperative_matrix_conversion",
                                      "VK_NV_cooperative_vector"};
    for (size_t i = 0; i < CVM_FAKE_ARRAY_SIZE(ext); i++)
        if (!strcmp(name, ext[i]))
            return 1;
    return 0;
}

int cvm_supports_feature(const char *name)
{
    static const char *const feat[] = {"SubgroupSizeControl.subgroupSizeControl",
                                       "SubgroupSizeControl.computeFullSubgroups",
                                       "CooperativeMatrixFeaturesKHR.cooperativeMatrix"};
    for (size_t i = 0; i < CVM_FAKE_ARRAY_SIZE(feat); i++)
        if (!strcmp(name, feat[i]))
            return 1;
    return 0;
}

int cvm_supports_property(const char *name)
{
    return !strcmp(name, "FloatControlsProperties.shaderDenormPreserveFloat32");
}

cvm_result cvm_disassemble(const uint32_t *words, size_t word_count, uint32_t flags,
                           char **o_text, size_t *o_length, cvm_diagnostic *o_diag)
{
    (void)words, (void)word_count, (void)flags, (void)o_text, (void)o_length;
    fake_diag(o_diag, CVM_ERROR_UNSUPPORTED, "fake: no disassembler");
    return CVM_ERROR_UNSUPPORTED;
}

cvm_result cvm_assemble(const char *text, size_t length, uint32_t flags, const char *target_env,
                        uint32_t **o_words, size_t *o_word_count, cvm_diagnostic *o_diag)
{
    (void)text, (void)length, (void)flags, (void)target_env, (void)o_words, (void)o_word_count;
    fake_diag(o_diag, CVM_ERROR_SYNTAX, "fake: no assembler");
    if (o_diag) {
        o_diag->line = 2;
        o_diag->column = 1;
    }
    return CVM_ERROR_SYNTAX;
}
