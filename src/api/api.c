/* The public handles: context, module, pipeline; dispatch over a pool of
 * worker threads (each workgroup is independent). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec/debug.h"
#include "exec/program.h"
#include "exec/jit/jit.h"
#include "api/tiers.h"

/* Address-only buffers (cvm_buffer_create): slot k is region
 * CVM_REGION_FIRST_DEVICE + k.  A dispatch copies the table under the lock,
 * so buffers may be created and destroyed from other threads meanwhile (a
 * buffer destroyed during a dispatch that uses it is the caller's error, as
 * in Vulkan). */
typedef struct device_slot {
    uint8_t *data;
    size_t size;
    int used;
} device_slot;

/* Worker threads kept from one dispatch to the next: starting and joining
 * them per dispatch cost about 20 us a thread (a third of a millisecond
 * for sixteen), and each new thread's memory came back page by page.
 * Dispatches from several application threads at once share them: each
 * dispatch queues its job (pool_job, on the dispatching thread's stack)
 * with as many tickets as it wants helpers, a free pool thread takes a
 * ticket of the oldest job that has one, and the dispatching thread works
 * on its own job meanwhile, so every job progresses even when all pool
 * threads are busy elsewhere.  No more than desc.threads - 1 threads are
 * ever started for a context. */
typedef struct pool_job {
    struct dispatch_job *job;
    uint32_t tickets; /* threads still to join it */
    uint32_t running; /* threads that joined it and have not finished */
    struct pool_job *next;
} pool_job;

typedef struct thread_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* tickets to take, or stop */
    pthread_cond_t done; /* some job's running fell to 0 */
    pthread_t *threads;  /* desc.threads - 1 entries */
    uint32_t nthreads;   /* started so far (on demand) */
    int stop;            /* cvm_context_destroy */
    pool_job *jobs;      /* the dispatches under way, oldest first */
    pid_t pid;           /* the process whose threads these are: a child
                            after fork() has none of them, and leaves the
                            pool (and its lock, which a thread may have held
                            at the fork) alone */
} thread_pool;

static uint64_t threads_started; /* cvm_test_threads_started */

uint64_t cvm_test_threads_started(void)
{
    return __atomic_load_n(&threads_started, __ATOMIC_RELAXED);
}

/* pthread_create, counted for cvm_test_threads_started. */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
    int r = pthread_create(t, NULL, fn, arg);
    if (r == 0)
        __atomic_add_fetch(&threads_started, 1, __ATOMIC_RELAXED);
    return r;
}

struct cvm_context {
    cvm_context_desc desc;
    pthread_mutex_t lock;
    device_slot *slots;
    uint32_t nslots;
    thread_pool pool;
    int have_pool; /* its mutex and conditions exist */
    cvm_dispatch_profile prof; /* cvm_context_dispatch_profile: atomic adds */
};

struct cvm_buffer {
    cvm_context *ctx;
    uint32_t slot;
};

struct cvm_module {
    cvm_context *ctx;
    spv_module mod;
};

typedef struct binding {
    uint32_t set, binding, element;
    uint8_t *data;
    size_t size;
} binding;

struct cvm_pipeline {
    cvm_module *module;
    cvm_program *prog;
    binding *bindings;
    uint32_t nbindings;
    uint8_t *push;
    uint32_t push_size;
    cvm_debug_desc debug; /* sinks of cvm_pipeline_set_debug; all zero when off */
    uint8_t *desc_used;   /* per prog->descs entry: statically used by the entry point */
    /* The compiled tier (exec/jit/jit.h), tried at the first dispatch that
     * wants it: jit_state 0 untried, 1 compiled (jit), -1 not taken, 2
     * compiling on jit_thread (CVM_JIT_ASYNC_INSNS; joined when the
     * pipeline is destroyed, jit_thread_live). */
    pthread_mutex_t jit_lock;
    int jit_state;
    pthread_t jit_thread;
    int jit_thread_live;
    cvm_jit *jit;
    cvm_diagnostic jit_why; /* jit_state -1: why (cvm_jit_compile's diagnostic) */
    uint32_t jit_opts; /* cvm_jit_compile's opts: CVM_JIT_FASTER_ONLY by size */
    /* invocations and workgroups of the dispatches run interpreted for their
     * size (atomic): many small dispatches add up to a large one */
    uint64_t small_invocations, small_groups;
    /* Nanoseconds its workers spent busy in dispatches that started without
     * compiled code, summed over them (atomic): what the late rule weighs against the cost of
     * compiling a large shader (late_wait) */
    uint64_t interp_ns;
    int has_coop; /* it holds cooperative-matrix instructions (the scope form's shaders) */
    /* Its leaf callbacks, compiled once they have been called often enough
     * (exec/jit/jit.h); NULL when it has none. */
    cvm_jit_leaves *leaves;
    /* cvm_pipeline_tier_info's counts (atomic) */
    uint64_t n_dispatches, n_compiled, n_compared;
};

/* ---- the choice of tier -------------------------------------------------------
 * The one place that decides which tier runs a dispatch (exec/jit/jit.h for
 * what the compiled tier takes):
 *   - the interpreter only: CVM_FLAG_NO_JIT (COOPVM_JIT=never),
 *     CVM_FLAG_REFERENCE_PATHS (the reference paths are the interpreter's),
 *     a trace (cvm_pipeline_set_debug: the interpreter traces), a build or
 *     CPU without LLVM's native target;
 *   - the compiled tier on everything it takes, whatever the size:
 *     CVM_FLAG_JIT (COOPVM_JIT=always; the first run of a compared dispatch,
 *     CVM_FLAG_COMPARE_TIERS): the entry point at the first dispatch, leaf
 *     callbacks at their first call (interp.c passes the flag on to
 *     cvm_jit_leaf_ready and cvm_jit_tile_ready as `eager`);
 *   - else by size: the entry point at the first dispatch of
 *     CVM_JIT_MIN_INVOCATIONS invocations or, for a shader with
 *     cooperative-matrix instructions, of CVM_JIT_MIN_SCOPE_GROUPS
 *     workgroups, or at the dispatch that brings the pipeline's smaller
 *     dispatches to that many in all (an application that dispatches a
 *     shader many times on small tensors, as ggml does); leaf callbacks once the pipeline has made
 *     CVM_JIT_LEAF_MIN_CALLS calls of them (cvm_config.h; that count is kept
 *     by jit_leaf.c's leaves_hot, across the pipeline's dispatches and threads);
 *     by size, code measured slower than the interpreter is not compiled
 *     (exec/jit/jit.h CVM_JIT_FASTER_ONLY: divergent branches and loops of
 *     a matrix shader).
 * The environment variable COOPVM_JIT sets these flags for a context
 * (cvm_context_create). */
typedef enum tier_mode { TIER_NEVER, TIER_BY_SIZE, TIER_ALWAYS } tier_mode;

/* COOPVM_JIT (coopvm.h cvm_context_create) applied to *io_flags. */
static cvm_result tier_from_environment(uint32_t *io_flags, cvm_diagnostic *o_diag)
{
    const char *v = getenv("COOPVM_JIT");
    const uint32_t tiers = CVM_FLAG_JIT | CVM_FLAG_NO_JIT | CVM_FLAG_COMPARE_TIERS;
    if (!v || !v[0] || !strcmp(v, "auto"))
        return CVM_SUCCESS;
    if (!strcmp(v, "always"))
        *io_flags = (*io_flags & ~tiers) | CVM_FLAG_JIT;
    else if (!strcmp(v, "never"))
        *io_flags = (*io_flags & ~tiers) | CVM_FLAG_NO_JIT;
    else if (!strcmp(v, "compare"))
        *io_flags = (*io_flags & ~tiers) | CVM_FLAG_COMPARE_TIERS;
    else
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "COOPVM_JIT='%.64s': expected always, never, compare or auto", v);
    return CVM_SUCCESS;
}

/* ---- context ---------------------------------------------------------------- */

cvm_result cvm_context_create(const cvm_context_desc *desc, cvm_context **o_ctx,
                              cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!o_ctx)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "o_ctx is NULL");
    cvm_context_desc d;
    memset(&d, 0, sizeof(d));
    if (desc)
        d = *desc;
    if (d.threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        d.threads = n > 0 ? (uint32_t)n : 1;
    }
    if (d.threads > 256)
        d.threads = 256;
    if (d.subgroup_size == 0)
        d.subgroup_size = CVM_DEFAULT_SUBGROUP_SIZE;
    if (d.subgroup_size > CVM_MAX_SUBGROUP_SIZE || (d.subgroup_size & (d.subgroup_size - 1)))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "subgroup size %u is not a power of two from 1 to %u", d.subgroup_size,
                            CVM_MAX_SUBGROUP_SIZE);
    if (d.instruction_budget == 0)
        d.instruction_budget = CVM_DEFAULT_BUDGET;
    if (d.max_call_depth == 0)
        d.max_call_depth = CVM_DEFAULT_MAX_CALL_DEPTH;
    if (d.memory_limit == 0)
        d.memory_limit = CVM_DEFAULT_MEMORY_LIMIT;
    CVM_TRY(tier_from_environment(&d.flags, o_diag));
    cvm_context *c = cvm_calloc(1, sizeof(*c));
    if (!c)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    c->desc = d;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        cvm_mem_free(c);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "could not create a mutex");
    }
    /* (without a pool, dispatches start their threads themselves) */
    thread_pool *tp = &c->pool;
    if (d.threads > 1 && (tp->threads = cvm_calloc(d.threads - 1, sizeof(pthread_t)))) {
        int m = pthread_mutex_init(&tp->lock, NULL) == 0;
        int w = m && pthread_cond_init(&tp->wake, NULL) == 0;
        int e = w && pthread_cond_init(&tp->done, NULL) == 0;
        c->have_pool = e;
        tp->pid = getpid();
        if (!e) {
            if (w)
                pthread_cond_destroy(&tp->wake);
            if (m)
                pthread_mutex_destroy(&tp->lock);
            cvm_mem_free(tp->threads);
            tp->threads = NULL;
        }
    }
    *o_ctx = c;
    return CVM_SUCCESS;
}

void cvm_context_destroy(cvm_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->have_pool && ctx->pool.pid != getpid()) {
        cvm_mem_free(ctx->pool.threads); /* a forked child's copy */
    } else if (ctx->have_pool) {
        thread_pool *tp = &ctx->pool;
        pthread_mutex_lock(&tp->lock);
        tp->stop = 1;
        pthread_cond_broadcast(&tp->wake);
        pthread_mutex_unlock(&tp->lock);
        for (uint32_t i = 0; i < tp->nthreads; i++)
            pthread_join(tp->threads[i], NULL);
        pthread_cond_destroy(&tp->done);
        pthread_cond_destroy(&tp->wake);
        pthread_mutex_destroy(&tp->lock);
        cvm_mem_free(tp->threads);
    }
    pthread_mutex_destroy(&ctx->lock);
    cvm_mem_free(ctx->slots);
    cvm_mem_free(ctx);
}

/* ---- address-only buffers ------------------------------------------------------ */

cvm_result cvm_buffer_create(cvm_context *ctx, void *data, size_t size, cvm_buffer **o_buffer,
                             cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!ctx || !o_buffer || (!data && size))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL argument");
    if (size >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS))
        return cvm_diag_set(o_diag, CVM_ERROR_LIMIT, "buffer of %zu bytes is too large", size);
    cvm_buffer *b = cvm_calloc(1, sizeof(*b));
    if (!b)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    pthread_mutex_lock(&ctx->lock);
    uint32_t k = 0;
    while (k < ctx->nslots && ctx->slots[k].used)
        k++;
    if (k == ctx->nslots) {
        uint32_t limit = (UINT32_C(1) << (64 - CVM_ADDR_OFFSET_BITS)) - CVM_REGION_FIRST_DEVICE;
        device_slot *ns = k < limit ? cvm_realloc(ctx->slots, ((size_t)k + 1) * sizeof(*ns)) : NULL;
        if (!ns) {
            pthread_mutex_unlock(&ctx->lock);
            cvm_mem_free(b);
            return cvm_diag_set(o_diag, k < limit ? CVM_ERROR_OUT_OF_MEMORY : CVM_ERROR_LIMIT,
                                "no room for another buffer (%u exist)", k);
        }
        ctx->slots = ns;
        ctx->nslots++;
    }
    ctx->slots[k] = (device_slot){data, size, 1};
    pthread_mutex_unlock(&ctx->lock);
    b->ctx = ctx;
    b->slot = k;
    *o_buffer = b;
    return CVM_SUCCESS;
}

void cvm_buffer_destroy(cvm_buffer *buffer)
{
    if (!buffer)
        return;
    cvm_context *ctx = buffer->ctx;
    pthread_mutex_lock(&ctx->lock);
    ctx->slots[buffer->slot] = (device_slot){NULL, 0, 0};
    pthread_mutex_unlock(&ctx->lock);
    cvm_mem_free(buffer);
}

uint64_t cvm_buffer_device_address(const cvm_buffer *buffer)
{
    return buffer ? CVM_ADDR(CVM_REGION_FIRST_DEVICE + buffer->slot, 0) : 0;
}

void cvm_context_get_desc(const cvm_context *ctx, cvm_context_desc *o_desc)
{
    if (ctx && o_desc)
        *o_desc = ctx->desc;
}

/* ---- module ------------------------------------------------------------------ */

cvm_result cvm_module_create(cvm_context *ctx, const uint32_t *words, size_t word_count,
                             cvm_module **o_module, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!ctx || !o_module)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL context or output");
    if (!(ctx->desc.flags & CVM_FLAG_NO_VALIDATION)) {
        /* The rules of the SPIR-V texts (universal environment, SPIR-V up to
         * 1.6).  Vulkan's environment rules (VUID-RuntimeSpirv-*) are limits
         * of Vulkan devices, several of which the engine lifts (any matrix
         * layout for training) or checks itself at run time with the values
         * in hand (offset alignments): coopvm val --target-env vulkan1.x
         * applies them.  Warnings (the texts' Dependencies) never refuse a
         * module here: they go to the context's on_warning. */
        cvm_validate_options vo = {"spv1.6", 0, ctx->desc.on_warning, ctx->desc.warning_user, NULL};
        CVM_TRY(cvm_validate(words, word_count, &vo, o_diag));
    }
    spv_binary bin;
    CVM_TRY(spv_binary_open(&bin, words, word_count, o_diag));
    if (!bin.owned) {
        uint32_t *copy = cvm_malloc(word_count * sizeof(uint32_t));
        if (!copy)
            return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        memcpy(copy, words, word_count * sizeof(uint32_t));
        bin.owned = copy;
        bin.words = copy;
    }
    cvm_module *m = cvm_calloc(1, sizeof(*m));
    if (!m) {
        spv_binary_release(&bin);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    cvm_result r = spv_module_parse(&m->mod, &bin, o_diag);
    if (r != CVM_SUCCESS) {
        spv_binary_release(&bin);
        cvm_mem_free(m);
        return r;
    }
    m->ctx = ctx;
    *o_module = m;
    return CVM_SUCCESS;
}

cvm_result cvm_module_create_from_file(cvm_context *ctx, const char *path, cvm_module **o_module,
                                       cvm_diagnostic *o_diag)
{
    void *data;
    size_t size;
    cvm_diag_clear(o_diag);
    if (!path)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "path is NULL");
    CVM_TRY(cvm_read_file(path, &data, &size, o_diag));
    if (size % 4) {
        cvm_mem_free(data);
        return cvm_diag_set(o_diag, CVM_ERROR_MALFORMED, "'%s' has %zu bytes, not a multiple of 4",
                            path, size);
    }
    cvm_result r = cvm_module_create(ctx, data, size / 4, o_module, o_diag);
    cvm_mem_free(data);
    if (r != CVM_SUCCESS && o_diag && !o_diag->file[0]) {
        strncpy(o_diag->file, path, sizeof(o_diag->file) - 1);
        o_diag->file[sizeof(o_diag->file) - 1] = 0;
    }
    return r;
}

void cvm_module_destroy(cvm_module *module)
{
    if (!module)
        return;
    spv_module_release(&module->mod);
    cvm_mem_free(module);
}

/* ---- pipeline ---------------------------------------------------------------- */

/* Marks the descriptors that the entry point statically uses (Vulkan's
 * "static use"): the variable's id is an operand of an instruction in a
 * function of the entry point's static call tree, or the initializer of a
 * module-scope variable.  The call tree takes every function whose id is an
 * operand, not only OpFunctionCall's callee: the callbacks of
 * cooperative-matrix-2 (the Func of OpCooperativeMatrixPerElementOpNV, the
 * CombineFunc of OpCooperativeMatrixReduceNV, a tensor load's DecodeFunc)
 * run as part of the instruction that names them, and a descriptor that only
 * a callback reads is used (llama.cpp's flash attention reads its attention
 * sinks in a per-element callback only).  Any operand word equal to an id
 * counts, literals included, so the set found may be larger than the true
 * one, never smaller: a descriptor left unmarked is one the entry point
 * cannot reach. */
static cvm_result mark_static_use(cvm_pipeline *p, cvm_diagnostic *o_diag)
{
    const spv_module *mod = &p->module->mod;
    const cvm_program *prog = p->prog;
    p->desc_used = cvm_calloc(prog->ndescs ? prog->ndescs : 1, 1);
    uint32_t *desc_of = cvm_calloc(mod->bound ? mod->bound : 1, sizeof(uint32_t)); /* index + 1 */
    uint8_t *seen = cvm_calloc(mod->nfunctions ? mod->nfunctions : 1, 1);
    uint32_t *stack = cvm_malloc((mod->nfunctions ? mod->nfunctions : 1) * sizeof(uint32_t));
    cvm_result r = CVM_SUCCESS;
    if (!p->desc_used || !desc_of || !seen || !stack) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < prog->ndescs; i++)
        if (prog->descs[i].var < mod->bound)
            desc_of[prog->descs[i].var] = i + 1;
    spv_inst in;
    size_t off = mod->globals_begin;
    while (off < mod->globals_end && spv_next_inst(&mod->bin, &off, &in, NULL) == 1)
        if (in.opcode == SpvOpVariable && in.word_count > 4 && in.words[4] < mod->bound &&
            desc_of[in.words[4]])
            p->desc_used[desc_of[in.words[4]] - 1] = 1;
    uint32_t sp = 0;
    if (prog->entry < mod->nfunctions) {
        seen[prog->entry] = 1;
        stack[sp++] = prog->entry;
    }
    while (sp) {
        const spv_function *f = &mod->functions[stack[--sp]];
        off = f->begin;
        while (off < f->end && spv_next_inst(&mod->bin, &off, &in, NULL) == 1) {
            for (uint32_t k = 1; k < in.word_count; k++) {
                if (in.words[k] >= mod->bound)
                    continue;
                if (desc_of[in.words[k]])
                    p->desc_used[desc_of[in.words[k]] - 1] = 1;
                uint32_t callee = prog->func_index[in.words[k]];
                if (callee < mod->nfunctions && !seen[callee]) {
                    seen[callee] = 1;
                    stack[sp++] = callee;
                }
            }
        }
    }
done:
    cvm_mem_free(desc_of);
    cvm_mem_free(seen);
    cvm_mem_free(stack);
    return r;
}

cvm_result cvm_pipeline_create(cvm_module *module, const char *entry_point,
                               const cvm_specialization *specs, uint32_t spec_count,
                               cvm_pipeline **o_pipeline, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!module || !o_pipeline || (spec_count && !specs))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL argument");
    for (uint32_t i = 0; i < spec_count; i++)
        if (specs[i].size != 1 && specs[i].size != 2 && specs[i].size != 4 && specs[i].size != 8)
            return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                                "specialization constant %u has size %u", specs[i].constant_id,
                                specs[i].size);
    cvm_pipeline *p = cvm_calloc(1, sizeof(*p));
    if (!p)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    p->module = module;
    cvm_result r = cvm_program_build_sg(&module->mod, entry_point, specs, spec_count,
                                        module->ctx->desc.subgroup_size, &p->prog, o_diag);
    if (r != CVM_SUCCESS) {
        cvm_mem_free(p);
        return r;
    }
    r = mark_static_use(p, o_diag);
    if (r != CVM_SUCCESS) {
        cvm_program_destroy(p->prog);
        cvm_mem_free(p->desc_used);
        cvm_mem_free(p);
        return r;
    }
    pthread_mutex_init(&p->jit_lock, NULL);
    for (uint32_t i = 0; i < p->prog->ninsns; i++)
        if (p->prog->insns[i].flags & CVM_INSN_PER_INSTANCE)
            p->has_coop = 1;
    p->leaves = cvm_jit_leaves_create(p->prog); /* (NULL is fine: leaves interpreted) */
    *o_pipeline = p;
    return CVM_SUCCESS;
}

void cvm_pipeline_destroy(cvm_pipeline *pipeline)
{
    if (!pipeline)
        return;
    if (pipeline->jit_thread_live)
        pthread_join(pipeline->jit_thread, NULL);
    cvm_jit_destroy(pipeline->jit);
    cvm_jit_leaves_destroy(pipeline->leaves);
    pthread_mutex_destroy(&pipeline->jit_lock);
    cvm_program_destroy(pipeline->prog);
    cvm_mem_free(pipeline->bindings);
    cvm_mem_free(pipeline->push);
    cvm_mem_free(pipeline->desc_used);
    cvm_mem_free(pipeline);
}

void cvm_pipeline_local_size(const cvm_pipeline *pipeline, uint32_t o_size[3])
{
    for (int i = 0; i < 3; i++)
        o_size[i] = pipeline ? pipeline->prog->local_size[i] : 0;
}

cvm_result cvm_pipeline_bind_buffer(cvm_pipeline *pipeline, uint32_t set, uint32_t binding_no,
                                    uint32_t array_element, void *data, size_t size,
                                    cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!pipeline || (!data && size))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL argument");
    if (size >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS))
        return cvm_diag_set(o_diag, CVM_ERROR_LIMIT, "buffer of %zu bytes is too large", size);
    for (uint32_t i = 0; i < pipeline->nbindings; i++) {
        binding *b = &pipeline->bindings[i];
        if (b->set == set && b->binding == binding_no && b->element == array_element) {
            b->data = data;
            b->size = size;
            return CVM_SUCCESS;
        }
    }
    binding *nb = cvm_realloc(pipeline->bindings, (pipeline->nbindings + 1) * sizeof(binding));
    if (!nb)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    pipeline->bindings = nb;
    nb[pipeline->nbindings++] = (binding){set, binding_no, array_element, data, size};
    return CVM_SUCCESS;
}

uint64_t cvm_pipeline_buffer_address(const cvm_pipeline *pipeline, uint32_t set,
                                     uint32_t binding_no, uint32_t array_element)
{
    if (!pipeline)
        return 0;
    const cvm_program *prog = pipeline->prog;
    for (uint32_t i = 0; i < prog->ndescs; i++) {
        const cvm_descriptor *d = &prog->descs[i];
        if (d->set == set && d->binding == binding_no && array_element < d->array_size)
            return CVM_ADDR(d->first_region + array_element, 0);
    }
    return 0;
}

uint32_t cvm_pipeline_resource_count(const cvm_pipeline *pipeline)
{
    return pipeline ? pipeline->prog->ndescs : 0;
}

int cvm_pipeline_get_resource(const cvm_pipeline *pipeline, uint32_t index,
                              cvm_pipeline_resource *o_resource)
{
    if (!pipeline || !o_resource || index >= pipeline->prog->ndescs)
        return 0;
    const cvm_descriptor *d = &pipeline->prog->descs[index];
    o_resource->set = d->set;
    o_resource->binding = d->binding;
    o_resource->array_size = d->array_size;
    o_resource->storage_class = d->storage_class;
    o_resource->statically_used = pipeline->desc_used[index];
    return 1;
}

cvm_result cvm_pipeline_set_push_constants(cvm_pipeline *pipeline, const void *data, size_t size,
                                           cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!pipeline || (!data && size))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL argument");
    if (size > 65536)
        return cvm_diag_set(o_diag, CVM_ERROR_LIMIT, "push constants of %zu bytes", size);
    uint8_t *np = cvm_realloc(pipeline->push, size + 1);
    if (!np)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    memcpy(np, data, size);
    pipeline->push = np;
    pipeline->push_size = (uint32_t)size;
    return CVM_SUCCESS;
}

cvm_result cvm_pipeline_set_debug(cvm_pipeline *pipeline, const cvm_debug_desc *desc,
                                  cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!pipeline)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "pipeline is NULL");
    if (!desc) {
        memset(&pipeline->debug, 0, sizeof(pipeline->debug));
        return CVM_SUCCESS;
    }
    const uint32_t *ls = pipeline->prog->local_size;
    uint64_t inv = (uint64_t)ls[0] * ls[1] * ls[2];
    if (desc->trace_fn && desc->trace_invocation != CVM_TRACE_WORKGROUP &&
        desc->trace_invocation >= inv)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "trace invocation %u is not in a workgroup of %llu invocations",
                            desc->trace_invocation, (unsigned long long)inv);
    pipeline->debug = *desc;
    if (!pipeline->debug.printf_limit)
        pipeline->debug.printf_limit = CVM_DEFAULT_PRINTF_LIMIT;
    if (pipeline->debug.printf_limit > (UINT64_C(1) << 30)) /* counts fit 32 bits */
        pipeline->debug.printf_limit = UINT64_C(1) << 30;
    if (!pipeline->debug.trace_limit)
        pipeline->debug.trace_limit = CVM_DEFAULT_TRACE_LIMIT;
    return CVM_SUCCESS;
}

/* The constant value of `id` (after specialization), or 0 when it has none. */
static int const_value(const cvm_program *p, uint32_t id, uint64_t *o)
{
    if (id == 0 || id >= p->bound || p->const_offset[id] == UINT64_MAX)
        return 0;
    const cvm_type *t = &p->types[p->mod->defs[id].type];
    if (t->tclass != CVM_TC_INT || t->size > 8)
        return 0;
    *o = 0;
    memcpy(o, p->const_data + p->const_offset[id], t->size);
    return 1;
}

int cvm_pipeline_store_shape(const cvm_pipeline *pipeline, uint32_t set, uint32_t binding_no,
                             cvm_store_shape *o_shape)
{
    if (!pipeline || !o_shape)
        return 0;
    const cvm_program *p = pipeline->prog;
    const spv_module *mod = p->mod;
    for (uint32_t i = 0; i < p->ninsns; i++) {
        const cvm_insn *in = &p->insns[i];
        spv_inst si;
        if (in->spv_op != SpvOpCooperativeMatrixStoreKHR ||
            !spv_module_inst_at(mod, in->word_off, &si) || si.word_count < 5)
            continue;
        uint32_t ptr = si.words[1], obj = si.words[2];
        uint64_t layout, stride;
        if (!const_value(p, si.words[3], &layout) || layout > 1 ||
            !const_value(p, si.words[4], &stride))
            continue;
        /* the variable the pointer is based on */
        uint32_t base = ptr;
        for (int hops = 0; hops < 64 && base < p->bound; hops++) {
            uint16_t op = mod->defs[base].opcode;
            if (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain &&
                op != SpvOpPtrAccessChain && op != SpvOpInBoundsPtrAccessChain &&
                op != SpvOpCopyObject)
                break;
            spv_inst ai;
            if (!spv_module_def_inst(mod, base, &ai) || ai.word_count < 4)
                break;
            base = ai.words[3];
        }
        int found = 0;
        for (uint32_t k = 0; k < p->ndescs; k++)
            found |= p->descs[k].var == base && p->descs[k].set == set &&
                     p->descs[k].binding == binding_no;
        if (!found)
            continue;
        const cvm_type *pt = &p->types[mod->defs[ptr].type];
        const cvm_type *mt = &p->types[mod->defs[obj].type];
        if (pt->tclass != CVM_TC_POINTER || mt->tclass != CVM_TC_COOPMAT)
            continue;
        const cvm_type *pointee = &p->types[pt->elem];
        o_shape->stride_bytes = stride * (pointee->mem_size ? pointee->mem_size : pointee->size);
        o_shape->tile_rows = mt->rows;
        o_shape->tile_cols = mt->cols;
        o_shape->column_major = (uint32_t)layout;
        o_shape->component_bytes = p->types[mt->elem].size;
        return 1;
    }
    return 0;
}

/* ---- dispatch ------------------------------------------------------------------ */

/* A DebugPrintf message kept for delivery: its workgroup (linear index) and
 * a copy of its text. */
typedef struct kept_message {
    uint64_t wg;
    cvm_printf_rec rec;
    char *text;
} kept_message;

typedef struct dispatch_job {
    cvm_pipeline *pipe;
    cvm_context_desc desc;
    cvm_region *regions;
    uint32_t nregions;
    cvm_region *device_regions; /* the context's address-only buffers, copied */
    uint32_t ndevice_regions;
    const cvm_jit *jit;     /* compiled code the workgroups run, or NULL */
    /* By size, the shader not compiled yet (nor refused): after
     * CVM_JIT_LATE_NS from t0 a worker begins compiling it, and the
     * workgroups that start once its code is ready run it (worker) */
    int late;
    uint32_t nthreads; /* threads offered to it (dispatch_run) */
    uint64_t t0;
    cvm_jit_leaves *leaves; /* leaf callbacks that may run compiled, or NULL */
    uint32_t groups[3];
    uint32_t base[3];       /* WorkgroupId of the first workgroup (vkCmdDispatchBase) */
    uint64_t total;
    uint64_t next;          /* atomic: next workgroup index */
    uint64_t budget;        /* atomic */
    int failed;             /* atomic */
    pthread_mutex_t lock;
    cvm_result result;
    cvm_diagnostic diag;
    uint64_t failed_index;
    /* debugging (pipe->debug): messages gathered from the workgroups, under
     * `lock`; the trace, used by the one worker that runs its workgroup */
    kept_message *msgs;
    uint64_t nmsgs, msgs_cap;
    uint64_t dropped;        /* messages past the limit */
    uint64_t last_kept_wg;   /* after a trim: workgroups past it are dropped whole */
    int trimmed;
    int oom;                 /* a message could not be kept for want of memory */
    cvm_trace trace;
    int tracing, traced;
    uint64_t counts[CVM_COUNT_N]; /* the workers' events (cvm_group_add_counts), under lock */
    /* CVM_FLAG_CHECK_CALLBACKS with cooperative-vector MatMul instructions:
     * NV-CV.Matrix-Unmodified (exec/read_log.c): the buffers before the
     * run, and the ranges the workers' MatMuls read (merged under lock) */
    int check_reads;
    cvm_mem_copy before;
    cvm_read_log reads;
    /* cvm_dispatch_profile: when the job was queued, and the workers' sums
     * of their timestamps (atomic adds) */
    uint64_t t_queued;
    uint64_t workers, sum_enter, sum_ready, sum_done, sum_exit;
} dispatch_job;

static int kept_before(const kept_message *a, const kept_message *b)
{
    if (a->wg != b->wg)
        return a->wg < b->wg;
    if (a->rec.inv != b->rec.inv)
        return a->rec.inv < b->rec.inv;
    return a->rec.seq < b->rec.seq;
}

static int kept_cmp(const void *x, const void *y)
{
    const kept_message *a = x, *b = y;
    return kept_before(a, b) ? -1 : kept_before(b, a) ? 1 : 0;
}

/* Keeps at most `limit` messages, the first in delivery order. */
static void trim_messages(dispatch_job *job, uint64_t limit)
{
    if (job->nmsgs > 1)
        qsort(job->msgs, (size_t)job->nmsgs, sizeof(kept_message), kept_cmp);
    if (job->nmsgs <= limit)
        return;
    for (uint64_t i = limit; i < job->nmsgs; i++)
        cvm_mem_free(job->msgs[i].text);
    job->dropped += job->nmsgs - limit;
    job->nmsgs = limit;
    job->last_kept_wg = limit ? job->msgs[limit - 1].wg : 0;
    job->trimmed = 1;
}

/* Takes the messages of workgroup `wg` (sorted) into the job. */
static void gather_messages(dispatch_job *job, uint64_t wg, cvm_printf_buf *pb)
{
    uint64_t limit = job->pipe->debug.printf_limit;
    cvm_printf_buf_sort(pb);
    pthread_mutex_lock(&job->lock);
    job->dropped += pb->dropped;
    for (uint32_t i = 0; i < pb->n; i++) {
        if ((job->trimmed && wg > job->last_kept_wg) || job->oom) {
            job->dropped += pb->n - i;
            break;
        }
        if (job->nmsgs == job->msgs_cap) {
            uint64_t nc = job->msgs_cap ? job->msgs_cap * 2 : 256;
            kept_message *nm = nc < (UINT64_C(1) << 40) / sizeof(*nm)
                                   ? cvm_realloc(job->msgs, (size_t)nc * sizeof(*nm))
                                   : NULL;
            if (!nm) {
                job->oom = 1;
                job->dropped++;
                continue;
            }
            job->msgs = nm;
            job->msgs_cap = nc;
        }
        const cvm_printf_rec *r = &pb->recs[i];
        char *t = cvm_malloc((size_t)r->text_len + 1);
        if (!t) {
            job->oom = 1;
            job->dropped++;
            continue;
        }
        memcpy(t, pb->text + r->text_off, r->text_len);
        t[r->text_len] = 0;
        job->msgs[job->nmsgs++] = (kept_message){wg, *r, t};
        if (job->nmsgs >= 2 * limit + 1024)
            trim_messages(job, limit);
    }
    pthread_mutex_unlock(&job->lock);
}

/* Hands the kept messages to the caller's function, in order, then the
 * note when some were dropped. */
static void deliver_messages(dispatch_job *job)
{
    const cvm_debug_desc *dbg = &job->pipe->debug;
    const cvm_program *prog = job->pipe->prog;
    const uint32_t *ls = prog->local_size;
    trim_messages(job, dbg->printf_limit);
    for (uint64_t i = 0; i < job->nmsgs; i++) {
        const kept_message *k = &job->msgs[i];
        cvm_printf_message m;
        memset(&m, 0, sizeof(m));
        m.workgroup[0] = (uint32_t)(k->wg % job->groups[0]);
        m.workgroup[1] = (uint32_t)((k->wg / job->groups[0]) % job->groups[1]);
        m.workgroup[2] = (uint32_t)(k->wg / ((uint64_t)job->groups[0] * job->groups[1]));
        m.local_index = k->rec.inv;
        m.invocation[0] = k->rec.inv % ls[0];
        m.invocation[1] = (k->rec.inv / ls[0]) % ls[1];
        m.invocation[2] = k->rec.inv / (ls[0] * ls[1]);
        if (k->rec.caller_op) {
            m.in_callback = 1;
            m.row = k->rec.row;
            m.column = k->rec.col;
            m.caller_opcode = k->rec.caller_op;
        }
        m.word_offset = k->rec.word_off;
        m.file = "";
        uint32_t col;
        if (!spv_module_source_line(prog->mod, k->rec.word_off, &m.file, &m.line, &col)) {
            m.file = "";
            m.line = 0;
        }
        m.text = k->text;
        m.length = k->rec.text_len;
        dbg->printf_fn(dbg->printf_user, &m);
    }
    if (job->dropped) { /* past the limit, or lost for want of memory */
        cvm_printf_message m;
        memset(&m, 0, sizeof(m));
        m.file = m.text = "";
        m.dropped = job->dropped;
        dbg->printf_fn(dbg->printf_user, &m);
    }
    for (uint64_t i = 0; i < job->nmsgs; i++)
        cvm_mem_free(job->msgs[i].text);
    cvm_mem_free(job->msgs);
    job->msgs = NULL;
    job->nmsgs = 0;
}

/* The tier a dispatch with context flags `flags` may use (above). */
static tier_mode tier_of(const cvm_pipeline *pipe, uint32_t flags)
{
    if ((flags & (CVM_FLAG_NO_JIT | CVM_FLAG_REFERENCE_PATHS)) || pipe->debug.trace_fn ||
        !cvm_jit_available())
        return TIER_NEVER;
    return (flags & CVM_FLAG_JIT) ? TIER_ALWAYS : TIER_BY_SIZE;
}

static uint64_t jit_late_ns = CVM_JIT_LATE_NS; /* cvm_test_jit_late_ns */

void cvm_test_jit_late_ns(uint64_t ns)
{
    __atomic_store_n(&jit_late_ns, ns ? ns : CVM_JIT_LATE_NS, __ATOMIC_RELAXED);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The process's compiles so far (atomic): wall nanoseconds and lowered
 * instructions of the large shaders they took, whose ratio estimates what the
 * next costs a instruction (CVM_JIT_COMPILE_NS_PER_INSN until a large one
 * has been compiled). */
static uint64_t compiled_ns, compiled_insns;

static void note_compile(const cvm_program *prog, uint64_t ns)
{
    if (prog->ninsns < CVM_JIT_ASYNC_INSNS) /* (small ones cost mostly their fixed part) */
        return;
    __atomic_fetch_add(&compiled_ns, ns, __ATOMIC_RELAXED);
    __atomic_fetch_add(&compiled_insns, prog->ninsns, __ATOMIC_RELAXED);
}

static uint64_t compile_ns_per_insn(void)
{
    uint64_t n = __atomic_load_n(&compiled_insns, __ATOMIC_RELAXED);
    return n ? __atomic_load_n(&compiled_ns, __ATOMIC_RELAXED) / n : CVM_JIT_COMPILE_NS_PER_INSN;
}

/* A large shader's compilation, off the dispatching thread
 * (CVM_JIT_ASYNC_INSNS): its code, or why not, published under the lock. */
static void *jit_compile_main(void *arg)
{
    cvm_pipeline *pipe = arg;
    cvm_jit *jit = NULL;
    cvm_diagnostic why;
    cvm_diag_clear(&why);
    uint64_t t = now_ns();
    int ok = cvm_jit_compile(pipe->prog, pipe->jit_opts, &jit, &why) == CVM_SUCCESS;
    if (ok)
        note_compile(pipe->prog, now_ns() - t);
    pthread_mutex_lock(&pipe->jit_lock);
    pipe->jit = jit;
    pipe->jit_why = why;
    /* (workers read the state without the lock: dispatch_late_jit) */
    __atomic_store_n(&pipe->jit_state, ok ? 1 : -1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pipe->jit_lock);
    return NULL;
}

/* Under jit_lock, with jit_state 0: the compilation begun, on a thread of
 * its own when `aside` and one can be had (jit_state 2), else here. */
static uint64_t compiles_begun; /* cvm_test_jit_compiles_begun */

uint64_t cvm_test_jit_compiles_begun(void)
{
    return __atomic_load_n(&compiles_begun, __ATOMIC_RELAXED);
}

static void jit_begin(cvm_pipeline *pipe, tier_mode mode, int aside)
{
    __atomic_fetch_add(&compiles_begun, 1, __ATOMIC_RELAXED);
    cvm_diag_clear(&pipe->jit_why);
    pipe->jit_opts = mode == TIER_BY_SIZE ? CVM_JIT_FASTER_ONLY : 0;
    if (aside && pthread_create(&pipe->jit_thread, NULL, jit_compile_main, pipe) == 0) {
        pipe->jit_thread_live = 1;
        __atomic_store_n(&pipe->jit_state, 2, __ATOMIC_RELEASE);
        return;
    }
    uint64_t t = now_ns();
    int ok = cvm_jit_compile(pipe->prog, pipe->jit_opts, &pipe->jit, &pipe->jit_why) == CVM_SUCCESS;
    if (ok)
        note_compile(pipe->prog, now_ns() - t);
    __atomic_store_n(&pipe->jit_state, ok ? 1 : -1, __ATOMIC_RELEASE);
}

/* The compiled code a dispatch of `groups` workgroups runs in `mode`, or
 * NULL for the interpreter.  Compiled once per pipeline (by size, a large
 * shader on a thread of its own: NULL until its code is ready); a shader
 * the tier does not take is not tried again (jit_why keeps why). */
static const cvm_jit *dispatch_jit(cvm_pipeline *pipe, tier_mode mode, uint64_t groups)
{
    const cvm_program *prog = pipe->prog;
    uint64_t inv = groups * prog->local_size[0] * prog->local_size[1] * prog->local_size[2];
    /* (a shader with DebugPrintf is not one the tier takes) */
    if (mode == TIER_NEVER)
        return NULL;
    if (mode == TIER_BY_SIZE && inv < CVM_JIT_MIN_INVOCATIONS &&
        !(pipe->has_coop && groups >= CVM_JIT_MIN_SCOPE_GROUPS)) {
        /* (the sums stop counting once they pass: no wrap-around) */
        uint64_t si = __atomic_load_n(&pipe->small_invocations, __ATOMIC_RELAXED);
        uint64_t sg = __atomic_load_n(&pipe->small_groups, __ATOMIC_RELAXED);
        if (si < CVM_JIT_MIN_INVOCATIONS)
            si = __atomic_add_fetch(&pipe->small_invocations, inv, __ATOMIC_RELAXED);
        if (sg < CVM_JIT_MIN_SCOPE_GROUPS)
            sg = __atomic_add_fetch(&pipe->small_groups, groups, __ATOMIC_RELAXED);
        if (si < CVM_JIT_MIN_INVOCATIONS && !(pipe->has_coop && sg >= CVM_JIT_MIN_SCOPE_GROUPS))
            return NULL;
    }
    pthread_mutex_lock(&pipe->jit_lock);
    if (pipe->jit_state == 0)
        jit_begin(pipe, mode, mode == TIER_BY_SIZE && prog->ninsns >= CVM_JIT_ASYNC_INSNS);
    const cvm_jit *j = pipe->jit_state == 1 ? pipe->jit : NULL;
    pthread_mutex_unlock(&pipe->jit_lock);
    return j;
}

/* The pipeline's leaf callbacks, when the compiled tier may run them (how
 * often they are called decides, cvm_jit_leaf_ready). */
static cvm_jit_leaves *dispatch_leaves(cvm_pipeline *pipe, tier_mode mode)
{
    return mode == TIER_NEVER ? NULL : pipe->leaves;
}

void cvm_pipeline_tier_info(const cvm_pipeline *pipeline, cvm_tier_info *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof(*o));
    cvm_diag_clear(&o->entry_why);
    cvm_diag_clear(&o->leaf_why);
    if (!pipeline)
        return;
    cvm_pipeline *p = (cvm_pipeline *)pipeline; /* (its lock) */
    pthread_mutex_lock(&p->jit_lock);
    o->entry = p->jit_state == 2 ? 0 : p->jit_state; /* (compiling: not yet) */
    if (p->jit_state < 0)
        o->entry_why = p->jit_why;
    pthread_mutex_unlock(&p->jit_lock);
    cvm_jit_leaves_report(p->leaves, &o->leaf_functions, &o->leaf_compiled, &o->leaf_not_taken,
                          &o->leaf_why);
    o->dispatches = __atomic_load_n(&p->n_dispatches, __ATOMIC_RELAXED);
    o->compiled_dispatches = __atomic_load_n(&p->n_compiled, __ATOMIC_RELAXED);
    o->compared_dispatches = __atomic_load_n(&p->n_compared, __ATOMIC_RELAXED);
}

/* How long (wall nanoseconds from its start) a dispatch too small for the
 * size rule runs interpreted before its shader starts compiling: the
 * late rule's CVM_JIT_LATE_NS; for a shader of CVM_JIT_ASYNC_INSNS
 * instructions or more, also until the pipeline's interpreted time
 * (earlier dispatches', and this one's on its `nthreads` threads) reaches
 * the estimated cost of compiling it (compile_ns_per_insn a
 * instruction): a compile that costs more than the interpretation it
 * replaces is not begun before the interpretation has cost as much.  In
 * ggml's scalar flash attention, 24 pipelines of about 2,900 instructions
 * took 1.1-1.6 s each to compile for two dispatches that ran 0.6 s
 * interpreted, and its test ran 1.8x longer than on the interpreter. */
static uint64_t late_wait(const cvm_pipeline *pipe, uint32_t nthreads)
{
    uint64_t late = __atomic_load_n(&jit_late_ns, __ATOMIC_RELAXED);
    uint64_t insns = pipe->prog->ninsns;
    if (insns < CVM_JIT_ASYNC_INSNS)
        return late;
    uint64_t est = insns * compile_ns_per_insn();
    uint64_t spent = __atomic_load_n(&pipe->interp_ns, __ATOMIC_RELAXED);
    uint64_t left = spent >= est ? 0 : (est - spent) / (nthreads ? nthreads : 1);
    return left > late ? left : late;
}

/* A dispatch still interpreting its shader (job->late): the shader's code
 * for this worker's next workgroups once it is ready; the compilation begun
 * once the dispatch has run late_wait. */
static void dispatch_late_jit(dispatch_job *job, cvm_group *g, cvm_group_desc *gd)
{
    cvm_pipeline *pipe = job->pipe;
    int st = __atomic_load_n(&pipe->jit_state, __ATOMIC_ACQUIRE);
    if (st == 1) {
        gd->jit = pipe->jit; /* (written before the state: jit_compile_main) */
        cvm_group_set_jit(g, gd->jit);
        return;
    }
    if (st == 0 && now_ns() - job->t0 >= late_wait(pipe, job->nthreads)) {
        pthread_mutex_lock(&pipe->jit_lock);
        if (pipe->jit_state == 0)
            jit_begin(pipe, TIER_BY_SIZE, 1);
        pthread_mutex_unlock(&pipe->jit_lock);
    }
}

static void *worker(void *arg)
{
    dispatch_job *job = arg;
    uint64_t t_enter = now_ns();
    cvm_group *g = NULL;
    cvm_diagnostic diag;
    cvm_diag_clear(&diag);
    const cvm_program *prog = job->pipe->prog;
    cvm_group_desc gd = {prog->local_size[0] * prog->local_size[1] * prog->local_size[2],
                         job->desc.subgroup_size, job->desc.flags, job->desc.max_call_depth,
                         job->desc.memory_limit, job->device_regions, job->ndevice_regions,
                         job->jit, job->leaves};
    cvm_result r = cvm_group_create(prog, &gd, job->regions, job->nregions, job->pipe->push,
                                    job->pipe->push_size, &g, &diag);
    const cvm_debug_desc *dbg = &job->pipe->debug;
    cvm_printf_buf pb;
    memset(&pb, 0, sizeof(pb)); /* freed below even when never set up */
    int printing = dbg->printf_fn != NULL;
    if (r == CVM_SUCCESS && printing) {
        if (cvm_printf_buf_init(&pb, dbg->printf_limit) != CVM_SUCCESS)
            r = cvm_diag_set(&diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        else
            cvm_group_exec(g)->printf = &pb;
    }
    cvm_read_log reads;
    memset(&reads, 0, sizeof(reads));
    if (r == CVM_SUCCESS && job->check_reads)
        cvm_group_exec(g)->cv_reads = &reads;
    uint64_t idx = 0, t_ready = now_ns();
    while (r == CVM_SUCCESS) {
        if (__atomic_load_n(&job->failed, __ATOMIC_RELAXED))
            break;
        idx = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (idx >= job->total)
            break;
        uint32_t gid[3] = {job->base[0] + (uint32_t)(idx % job->groups[0]),
                           job->base[1] + (uint32_t)((idx / job->groups[0]) % job->groups[1]),
                           job->base[2] +
                               (uint32_t)(idx / ((uint64_t)job->groups[0] * job->groups[1]))};
        int traced = job->tracing && !memcmp(gid, dbg->trace_workgroup, sizeof(gid));
        if (printing)
            cvm_printf_buf_reset(&pb);
        if (traced) {
            const uint32_t *ls = prog->local_size;
            uint32_t li = dbg->trace_invocation;
            if (li == CVM_TRACE_WORKGROUP)
                cvm_trace_text(&job->trace,
                               "trace of workgroup (%u,%u,%u), all %u invocations (subgroups of "
                               "%u)",
                               gid[0], gid[1], gid[2], gd.nlanes, gd.sg_size);
            else
                cvm_trace_text(&job->trace,
                               "trace of workgroup (%u,%u,%u), invocation (%u,%u,%u) (local "
                               "index %u, subgroup %u, lane %u of %u)",
                               gid[0], gid[1], gid[2], li % ls[0], (li / ls[0]) % ls[1],
                               li / (ls[0] * ls[1]), li, li / gd.sg_size, li % gd.sg_size,
                               gd.sg_size);
            cvm_group_exec(g)->trace = &job->trace;
            job->traced = 1;
        }
        if (job->late && !gd.jit)
            dispatch_late_jit(job, g, &gd);
        r = cvm_group_run(g, gid, job->groups, &job->budget, &diag);
        if (traced) {
            cvm_group_exec(g)->trace = NULL;
            if (r == CVM_SUCCESS)
                cvm_trace_text(&job->trace, "end of workgroup (%u,%u,%u)", gid[0], gid[1], gid[2]);
            else
                cvm_trace_text(&job->trace, "workgroup (%u,%u,%u) stopped: %s: %s", gid[0], gid[1],
                               gid[2], cvm_result_string(r), diag.message);
        }
        if (printing && (pb.n || pb.dropped))
            gather_messages(job, idx, &pb);
    }
    uint64_t t_done = now_ns();
    if (printing)
        cvm_printf_buf_free(&pb);
    if (r != CVM_SUCCESS) {
        pthread_mutex_lock(&job->lock);
        /* Keep the error of the lowest workgroup index for a stable report. */
        if (!job->failed || idx < job->failed_index) {
            job->result = r;
            job->diag = diag;
            job->failed_index = idx;
        }
        __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&job->lock);
    }
    pthread_mutex_lock(&job->lock);
    cvm_group_add_counts(g, job->counts);
    cvm_read_log_merge(&job->reads, &reads);
    pthread_mutex_unlock(&job->lock);
    cvm_group_destroy(g);
    uint64_t t_exit = now_ns();
    __atomic_fetch_add(&job->workers, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&job->sum_enter, t_enter, __ATOMIC_RELAXED);
    __atomic_fetch_add(&job->sum_ready, t_ready, __ATOMIC_RELAXED);
    __atomic_fetch_add(&job->sum_done, t_done, __ATOMIC_RELAXED);
    __atomic_fetch_add(&job->sum_exit, t_exit, __ATOMIC_RELAXED);
    return NULL;
}

/* A pool thread: joins the oldest job that has a ticket, until stop. */
static void *pool_main(void *arg)
{
    thread_pool *tp = arg;
    pthread_mutex_lock(&tp->lock);
    for (;;) {
        pool_job *pj = NULL;
        while (!tp->stop) {
            for (pj = tp->jobs; pj && pj->tickets == 0; pj = pj->next)
                ;
            if (pj)
                break;
            pthread_cond_wait(&tp->wake, &tp->lock);
        }
        if (tp->stop)
            break;
        pj->tickets--;
        pj->running++;
        pthread_mutex_unlock(&tp->lock);
        worker(pj->job);
        pthread_mutex_lock(&tp->lock);
        if (--pj->running == 0)
            pthread_cond_broadcast(&tp->done);
    }
    pthread_mutex_unlock(&tp->lock);
    return NULL;
}

/* Queues `job` (as *pj, the caller's) for `want` pool threads, starting
 * threads now while the context has fewer than that and desc.threads - 1;
 * 0 when the context has no pool. */
static int pool_start(cvm_context *ctx, pool_job *pj, struct dispatch_job *job, uint32_t want)
{
    if (!ctx->have_pool || ctx->pool.pid != getpid())
        return 0;
    thread_pool *tp = &ctx->pool;
    pthread_mutex_lock(&tp->lock);
    if (tp->stop) {
        pthread_mutex_unlock(&tp->lock);
        return 0;
    }
    while (tp->nthreads < want && tp->nthreads < ctx->desc.threads - 1 &&
           start_thread(&tp->threads[tp->nthreads], pool_main, tp) == 0)
        tp->nthreads++;
    pj->job = job;
    pj->tickets = want < tp->nthreads ? want : tp->nthreads;
    pj->running = 0;
    pj->next = NULL;
    pool_job **at = &tp->jobs;
    while (*at)
        at = &(*at)->next;
    *at = pj;
    pthread_cond_broadcast(&tp->wake);
    pthread_mutex_unlock(&tp->lock);
    return 1;
}

/* After the dispatching thread's own worker returned (every workgroup
 * taken): tickets nobody took are withdrawn, it waits for the threads
 * still running the job, which lives on its stack, and takes the job off
 * the queue. */
static void pool_finish(cvm_context *ctx, pool_job *pj)
{
    thread_pool *tp = &ctx->pool;
    pthread_mutex_lock(&tp->lock);
    pj->tickets = 0;
    while (pj->running > 0)
        pthread_cond_wait(&tp->done, &tp->lock);
    pool_job **at = &tp->jobs;
    while (*at != pj)
        at = &(*at)->next;
    *at = pj->next;
    pthread_mutex_unlock(&tp->lock);
}

cvm_result cvm_pipeline_dispatch(cvm_pipeline *pipeline, uint32_t gx, uint32_t gy, uint32_t gz,
                                 cvm_diagnostic *o_diag)
{
    const uint32_t base[3] = {0, 0, 0};
    return cvm_pipeline_dispatch_base(pipeline, base, gx, gy, gz, o_diag);
}

/* One run of a dispatch of gx * gy * gz workgroups with context flags
 * `flags`, into `job` (the caller's memory, set up here).  The DebugPrintf
 * messages it gathered stay in the job for end_messages. */
/* One dispatch's times into the context's cvm_dispatch_profile: its
 * workers' sums of timestamps become the sums of their phases (unsigned
 * differences: each is a sum of nonnegative intervals). */
static void add_profile(cvm_context *ctx, const dispatch_job *job, uint32_t nthreads,
                        uint64_t t_entry, uint64_t t_parallel_end, uint64_t t_exit)
{
    cvm_dispatch_profile *pr = &ctx->prof;
    uint64_t w = job->workers, par = t_parallel_end - job->t_queued;
    uint64_t absent = nthreads > w ? (nthreads - w) * par : 0;
    __atomic_fetch_add(&pr->dispatches, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->workgroups, job->total, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->wall_ns, t_exit - t_entry, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->parallel_ns, par, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->threads, nthreads > w ? nthreads : w, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->workers, w, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->thread_ns, (nthreads > w ? nthreads : w) * par, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->wake_ns, job->sum_enter - w * job->t_queued, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->setup_ns, job->sum_ready - job->sum_enter, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->busy_ns, job->sum_done - job->sum_ready, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->teardown_ns, job->sum_exit - job->sum_done, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->tail_ns, w * t_parallel_end - job->sum_exit, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pr->absent_ns, absent, __ATOMIC_RELAXED);
}

void cvm_context_dispatch_profile(const cvm_context *ctx, cvm_dispatch_profile *o_profile)
{
    if (!o_profile)
        return;
    memset(o_profile, 0, sizeof(*o_profile));
    if (!ctx)
        return;
    /* (every field a uint64_t, each read atomically) */
    const uint64_t *from = (const uint64_t *)(const void *)&ctx->prof;
    uint64_t *to = (uint64_t *)(void *)o_profile;
    for (size_t k = 0; k < sizeof(*o_profile) / sizeof(uint64_t); k++)
        to[k] = __atomic_load_n(&from[k], __ATOMIC_RELAXED);
}

static cvm_result dispatch_run(cvm_pipeline *pipeline, const uint32_t base[3], uint32_t gx,
                               uint32_t gy, uint32_t gz, uint32_t flags, dispatch_job *job,
                               cvm_diagnostic *o_diag)
{
    const cvm_program *prog = pipeline->prog;
    uint64_t t_entry = now_ns();
    memset(job, 0, sizeof(*job));
    job->pipe = pipeline;
    job->desc = pipeline->module->ctx->desc;
    job->desc.flags = flags;
    job->groups[0] = gx;
    job->groups[1] = gy;
    job->groups[2] = gz;
    memcpy(job->base, base, sizeof(job->base));
    job->total = (uint64_t)gx * gy * gz;
    job->budget = job->desc.instruction_budget;
    if (prog->push_size > pipeline->push_size)
        return cvm_diag_set(o_diag, CVM_ERROR_MISSING_BINDING,
                            "the shader reads %u bytes of push constants, %u were given",
                            prog->push_size, pipeline->push_size);
    /* Regions of the bound buffers, in descriptor order. */
    uint32_t nregions = 0;
    for (uint32_t i = 0; i < prog->ndescs; i++)
        nregions = CVM_MAX(nregions, prog->descs[i].first_region + prog->descs[i].array_size -
                                         CVM_REGION_FIRST_BUFFER);
    job->regions = cvm_calloc(nregions ? nregions : 1, sizeof(cvm_region));
    if (!job->regions)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    job->nregions = nregions;
    for (uint32_t i = 0; i < prog->ndescs; i++) {
        const cvm_descriptor *d = &prog->descs[i];
        int any = 0;
        for (uint32_t e = 0; e < d->array_size; e++) {
            for (uint32_t k = 0; k < pipeline->nbindings; k++) {
                binding *b = &pipeline->bindings[k];
                if (b->set == d->set && b->binding == d->binding && b->element == e) {
                    cvm_region *rg = &job->regions[d->first_region - CVM_REGION_FIRST_BUFFER + e];
                    rg->base = b->data;
                    rg->size = b->size;
                    rg->writable = !spv_module_find_decoration(&pipeline->module->mod, d->var,
                                                               SPV_NO_MEMBER, SpvDecorationNonWritable) &&
                                   d->storage_class != SpvStorageClassUniform;
                    /* NonWritable on the block's members also marks read-only
                     * access, but stores are then invalid SPIR-V: allow. */
                    rg->writable = 1;
                    any = 1;
                }
            }
        }
        if (!any && pipeline->desc_used[i]) {
            const char *name = spv_module_name(&pipeline->module->mod, d->var);
            cvm_mem_free(job->regions);
            return cvm_diag_set(o_diag, CVM_ERROR_MISSING_BINDING,
                                "the shader uses descriptor set %u binding %u (%s), which has no "
                                "buffer bound",
                                d->set, d->binding, name && name[0] ? name : "unnamed");
        }
    }
    /* The context's address-only buffers as they are now. */
    cvm_context *ctx = pipeline->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int no_room = 0;
    if (ctx->nslots) {
        job->device_regions = cvm_calloc(ctx->nslots, sizeof(cvm_region));
        if (job->device_regions) {
            job->ndevice_regions = ctx->nslots;
            for (uint32_t k = 0; k < ctx->nslots; k++)
                if (ctx->slots[k].used)
                    job->device_regions[k] = (cvm_region){ctx->slots[k].data, ctx->slots[k].size, 1};
        }
        no_room = !job->device_regions;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (no_room) {
        cvm_mem_free(job->regions);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    /* NV-CV.Matrix-Unmodified in the checking mode: the buffers as they
     * are before the run */
    for (uint32_t i = 0; (flags & CVM_FLAG_CHECK_CALLBACKS) && i < prog->ninsns; i++)
        if (prog->insns[i].spv_op == SpvOpCooperativeVectorMatrixMulNV ||
            prog->insns[i].spv_op == SpvOpCooperativeVectorMatrixMulAddNV)
            job->check_reads = 1;
    if (job->check_reads && cvm_mem_copy_make(&job->before, job->regions, job->nregions,
                                              job->device_regions,
                                              job->ndevice_regions) != CVM_SUCCESS) {
        cvm_mem_free(job->regions);
        cvm_mem_free(job->device_regions);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY,
                            "out of memory for the checking mode's copy of the buffers");
    }
    tier_mode mode = tier_of(pipeline, flags);
    job->jit = dispatch_jit(pipeline, mode, job->total);
    job->late = mode == TIER_BY_SIZE && !job->jit &&
                __atomic_load_n(&pipeline->jit_state, __ATOMIC_ACQUIRE) >= 0;
    job->t0 = now_ns();
    job->leaves = dispatch_leaves(pipeline, mode);
    pthread_mutex_init(&job->lock, NULL);
    if (pipeline->debug.trace_fn) {
        if (cvm_trace_init(&job->trace, pipeline->debug.trace_fn, pipeline->debug.trace_user,
                           pipeline->debug.trace_invocation,
                           pipeline->debug.trace_limit) != CVM_SUCCESS) {
            pthread_mutex_destroy(&job->lock);
            cvm_mem_copy_free(&job->before);
            cvm_mem_free(job->regions);
            cvm_mem_free(job->device_regions);
            return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        }
        job->tracing = 1;
    }
    uint32_t nthreads = job->desc.threads;
    if (nthreads > job->total)
        nthreads = (uint32_t)job->total;
    job->nthreads = nthreads;
    pool_job pj;
    job->t_queued = now_ns();
    int pooled = nthreads > 1 && pool_start(ctx, &pj, job, nthreads - 1);
    pthread_t *th = NULL;
    uint32_t started = 0;
    if (!pooled && nthreads > 1 && (th = cvm_calloc(nthreads, sizeof(pthread_t)))) {
        for (uint32_t i = 1; i < nthreads; i++) {
            if (start_thread(&th[i], worker, job) != 0)
                break;
            started++;
        }
    }
    worker(job);
    if (pooled)
        pool_finish(ctx, &pj);
    for (uint32_t i = 1; i <= started; i++)
        pthread_join(th[i], NULL);
    cvm_mem_free(th);
    uint64_t t_parallel_end = now_ns();
    if (job->tracing) {
        const uint32_t *tw = pipeline->debug.trace_workgroup;
        if (!job->traced && !job->failed)
            cvm_trace_text(&job->trace,
                           "trace: workgroup (%u,%u,%u) is not in this dispatch of %u,%u,%u "
                           "workgroups",
                           tw[0], tw[1], tw[2], gx, gy, gz);
        else if (!job->traced)
            cvm_trace_text(&job->trace,
                           "trace: workgroup (%u,%u,%u) did not run: the dispatch stopped on an "
                           "error first",
                           tw[0], tw[1], tw[2]);
        cvm_trace_free(&job->trace);
    }
    pthread_mutex_destroy(&job->lock);
    if (job->check_reads && !job->failed) {
        cvm_result cr =
            job->reads.oom
                ? cvm_diag_set(&job->diag, CVM_ERROR_OUT_OF_MEMORY,
                               "out of memory for the checking mode's log of matrix reads")
                : cvm_read_log_check(&job->reads, &job->before, job->regions,
                                     job->device_regions, prog, &job->diag);
        if (cr != CVM_SUCCESS) {
            job->failed = 1;
            job->result = cr;
        }
    }
    cvm_read_log_free(&job->reads);
    cvm_mem_copy_free(&job->before);
    cvm_mem_free(job->regions);
    cvm_mem_free(job->device_regions);
    add_profile(ctx, job, nthreads, t_entry, t_parallel_end, now_ns());
    if (!job->jit) /* (the workers' busy time interpreting, summed) */
        __atomic_fetch_add(&pipeline->interp_ns, job->sum_done - job->sum_ready, __ATOMIC_RELAXED);
    if (job->failed) {
        if (o_diag)
            *o_diag = job->diag;
        return job->result;
    }
    return CVM_SUCCESS;
}

/* Delivers the messages a run kept (`deliver`), or drops them. */
static void end_messages(dispatch_job *job, int deliver)
{
    if (deliver && job->pipe->debug.printf_fn) {
        deliver_messages(job);
        return;
    }
    for (uint64_t i = 0; i < job->nmsgs; i++)
        cvm_mem_free(job->msgs[i].text);
    cvm_mem_free(job->msgs);
    job->msgs = NULL;
    job->nmsgs = 0;
}

/* Compiled code ran in the run of `job`: workgroups or leaf batches. */
static int ran_compiled(const dispatch_job *job)
{
    return job->counts[CVM_COUNT_JIT_GROUPS] + job->counts[CVM_COUNT_JIT_LEAF_BATCHES] != 0;
}

/* ---- comparing the tiers ---------------------------------------------------------
 * CVM_FLAG_COMPARE_TIERS (coopvm.h): the memory a dispatch may write is
 * every buffer bound to the pipeline and every address-only buffer of the
 * context (a shader reaches nothing else that outlives it; push constants
 * are read only).  Its bytes are copied before the first run (the compiled
 * tier forced), copied again after it, restored, and the interpreter's run
 * is compared with the second copy.  Describing a difference is tiers.c's. */

/* The areas a compared dispatch keeps copies of: the pipeline's bindings in
 * (set, binding, element) order, then the address-only buffers (an area
 * with the same bytes as an earlier one is left out: the CLI and the
 * AmberScript runner make each bound buffer an address-only one too). */
static cvm_result tier_areas(cvm_pipeline *pipe, cvm_tier_area **o_areas, uint32_t *o_n,
                             size_t *o_total)
{
    cvm_context *ctx = pipe->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    uint32_t cap = pipe->nbindings + ctx->nslots, n = 0;
    cvm_tier_area *a = cvm_calloc(cap ? cap : 1, sizeof(*a));
    if (!a) {
        pthread_mutex_unlock(&ctx->lock);
        return CVM_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < pipe->nbindings; i++) {
        const binding *b = &pipe->bindings[i];
        a[n++] = (cvm_tier_area){b->data, b->size, b->set, b->binding, b->element, 0, 0, 0};
    }
    /* (insertion sort: a handful of bindings) */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t k = i; k > 0 && cvm_tier_area_before(&a[k], &a[k - 1]); k--) {
            cvm_tier_area t = a[k];
            a[k] = a[k - 1];
            a[k - 1] = t;
        }
    for (uint32_t k = 0; k < ctx->nslots; k++)
        if (ctx->slots[k].used)
            a[n++] = (cvm_tier_area){ctx->slots[k].data, ctx->slots[k].size, 0, 0, 0, 1, k, 0};
    pthread_mutex_unlock(&ctx->lock);
    uint32_t kept = 0;
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        int dup = !a[i].size;
        for (uint32_t k = 0; k < kept && !dup; k++)
            dup = a[k].data == a[i].data && a[k].size == a[i].size;
        if (dup)
            continue;
        a[kept] = a[i];
        a[kept].at = total;
        if (__builtin_add_overflow(total, a[i].size, &total)) {
            cvm_mem_free(a);
            return CVM_ERROR_OUT_OF_MEMORY;
        }
        kept++;
    }
    *o_areas = a;
    *o_n = kept;
    *o_total = total;
    return CVM_SUCCESS;
}

static void tier_copy_out(const cvm_tier_area *a, uint32_t n, uint8_t *to)
{
    for (uint32_t i = 0; i < n; i++)
        memcpy(to + a[i].at, a[i].data, a[i].size);
}

static void tier_copy_in(const cvm_tier_area *a, uint32_t n, const uint8_t *from)
{
    for (uint32_t i = 0; i < n; i++)
        memcpy(a[i].data, from + a[i].at, a[i].size);
}

/* A compared dispatch (the caller checked that the compiled tier can run). */
static cvm_result dispatch_compared(cvm_pipeline *pipe, const uint32_t base[3], uint32_t gx,
                                    uint32_t gy, uint32_t gz, uint32_t flags,
                                    cvm_diagnostic *o_diag)
{
    cvm_tier_area *areas = NULL;
    uint32_t nareas = 0;
    size_t total = 0;
    uint8_t *before = NULL, *compiled = NULL;
    if (tier_areas(pipe, &areas, &nareas, &total) != CVM_SUCCESS ||
        !(before = cvm_malloc(total ? total : 1)) || !(compiled = cvm_malloc(total ? total : 1))) {
        cvm_mem_free(areas);
        cvm_mem_free(before);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY,
                            "out of memory for the copies of a compared dispatch (%zu bytes)",
                            total);
    }
    tier_copy_out(areas, nareas, before);
    const uint32_t tiers = CVM_FLAG_JIT | CVM_FLAG_NO_JIT | CVM_FLAG_COMPARE_TIERS;
    dispatch_job job;
    cvm_diagnostic dc;
    cvm_diag_clear(&dc);
    cvm_result rc = dispatch_run(pipe, base, gx, gy, gz, (flags & ~tiers) | CVM_FLAG_JIT, &job,
                                 &dc);
    int ran = ran_compiled(&job);
    __atomic_fetch_add(&pipe->n_dispatches, 1, __ATOMIC_RELAXED);
    if (!ran) { /* the interpreter's run: it stands */
        end_messages(&job, 1);
        if (rc != CVM_SUCCESS && o_diag)
            *o_diag = dc;
        goto done;
    }
    __atomic_fetch_add(&pipe->n_compiled, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pipe->n_compared, 1, __ATOMIC_RELAXED);
    end_messages(&job, 0);
    tier_copy_out(areas, nareas, compiled);
    tier_copy_in(areas, nareas, before);
    uint64_t flip = cvm_tier_flip_byte(); /* (a test's) */
    if (flip && nareas && flip <= areas[0].size)
        compiled[areas[0].at + flip - 1] ^= 0x01;
    cvm_diagnostic di;
    cvm_diag_clear(&di);
    cvm_result ri = dispatch_run(pipe, base, gx, gy, gz, (flags & ~tiers) | CVM_FLAG_NO_JIT, &job,
                                 &di);
    end_messages(&job, 1);
    if (rc != ri) {
        char sc[400], si[400];
        cvm_tier_status_text(sc, sizeof(sc), rc, &dc);
        cvm_tier_status_text(si, sizeof(si), ri, &di);
        rc = cvm_diag_set(o_diag, CVM_ERROR_TIERS_DIFFER,
                          "the tiers differ: the compiled tier ended with %s, the interpreter "
                          "with %s",
                          sc, si);
        goto done;
    }
    if (ri != CVM_SUCCESS) { /* both failed alike: the interpreter's diagnostic */
        if (o_diag)
            *o_diag = di;
        rc = ri;
        goto done;
    }
    rc = cvm_tier_compare(pipe->prog, areas, nareas, compiled, o_diag);
done:
    cvm_mem_free(areas);
    cvm_mem_free(before);
    cvm_mem_free(compiled);
    return rc;
}

cvm_result cvm_pipeline_dispatch_base(cvm_pipeline *pipeline, const uint32_t base[3], uint32_t gx,
                                      uint32_t gy, uint32_t gz, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!base)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "base is NULL");
    for (int i = 0; i < 3; i++) {
        uint32_t n = i == 0 ? gx : i == 1 ? gy : gz;
        if (n && base[i] > UINT32_MAX - (n - 1))
            return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                                "workgroup ids from %u past %u workgroups overflow 32 bits",
                                base[i], n);
    }
    if (!pipeline)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "pipeline is NULL");
    if (gx == 0 || gy == 0 || gz == 0)
        return CVM_SUCCESS;
    uint32_t flags = pipeline->module->ctx->desc.flags;
    if ((flags & CVM_FLAG_COMPARE_TIERS) &&
        tier_of(pipeline, (flags & ~(uint32_t)CVM_FLAG_NO_JIT) | CVM_FLAG_JIT) != TIER_NEVER)
        return dispatch_compared(pipeline, base, gx, gy, gz, flags, o_diag);
    dispatch_job job;
    cvm_result r = dispatch_run(pipeline, base, gx, gy, gz, flags & ~(uint32_t)CVM_FLAG_COMPARE_TIERS,
                                &job, o_diag);
    end_messages(&job, 1);
    __atomic_fetch_add(&pipeline->n_dispatches, 1, __ATOMIC_RELAXED);
    if (ran_compiled(&job))
        __atomic_fetch_add(&pipeline->n_compiled, 1, __ATOMIC_RELAXED);
    return r;
}

/* ---- capabilities ---------------------------------------------------------------- */

/* What the engine implements, in the names Vulkan (and AmberScript's
 * DEVICE_EXTENSION / DEVICE_FEATURE / DEVICE_PROPERTY) use.  A name is here
 * only when the engine runs what it enables; each line says what that is. */
static const char *const device_extensions[] = {
    "VK_KHR_cooperative_matrix",  "VK_NV_cooperative_matrix2", "VK_KHR_shader_float16_int8",
    "VK_KHR_16bit_storage",       "VK_KHR_8bit_storage",       "VK_KHR_vulkan_memory_model",
    "VK_EXT_subgroup_size_control", "VK_KHR_shader_subgroup_extended_types",
    "VK_KHR_buffer_device_address", "VK_KHR_shader_integer_dot_product",
    "VK_KHR_shader_bfloat16",     "VK_EXT_shader_float8",      "VK_KHR_storage_buffer_storage_class",
    "VK_NV_cooperative_matrix_decode_vector", "VK_QCOM_cooperative_matrix_conversion",
    "VK_KHR_spirv_1_4",                   /* modules up to SPIR-V 1.6 load */
    "VK_KHR_variable_pointers",           /* pointers selected, compared, passed */
    "VK_EXT_descriptor_indexing",         /* runtime and non-uniform descriptor arrays */
    "VK_KHR_zero_initialize_workgroup_memory", /* workgroup variable initializers */
    "VK_KHR_workgroup_memory_explicit_layout", /* Block workgroup variables, aliased */
    "VK_KHR_shader_float_controls",       /* the modes of FloatControlsProperties below */
    "VK_KHR_shader_subgroup_uniform_control_flow", /* an execution-mode hint */
    "VK_KHR_shader_expect_assume",        /* OpAssumeTrueKHR, OpExpectKHR */
    "VK_KHR_shader_non_semantic_info",    /* NonSemantic.* instruction sets, ignored */
    "VK_KHR_uniform_buffer_standard_layout", /* any explicit layout in uniform blocks */
    "VK_EXT_scalar_block_layout",         /* any Offset / ArrayStride */
    "VK_NV_cooperative_vector",
    "VK_EXT_cooperative_matrix_maintenance1", /* reductions, Use conversions with transpose,
                                                 per-element operations, GetCoordinate */
    "VK_EXT_shader_ocp_microscaling_types", /* FP4, FP6, E8M0, MXINT8 values, conversions
                                               from them, OpBitcastExtractEXT */
    "VK_NV_cooperative_matrix",           /* SPV_NV_cooperative_matrix on the KHR machinery */
    "VK_EXT_shader_64bit_indexing",       /* address arithmetic is 64-bit in every mode */
    "VK_EXT_shader_subgroup_partitioned", "VK_NV_shader_subgroup_partitioned", /* partitions */
    "VK_AMD_gpu_shader_int16",            /* 16-bit Frexp exponents */
    "VK_EXT_shader_long_vector",          /* SPV_EXT_long_vector: vectors of any size,
                                             OpTypeVectorIdEXT, up to max_vector_components */
};

int cvm_supports_extension(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(device_extensions); i++)
        if (!strcmp(device_extensions[i], name))
            return 1;
    return 0;
}

/* VkPhysicalDeviceFeatures members by their own name, the others as
 * AmberScript writes them (the structure's name without VkPhysicalDevice
 * and the vendor suffix, a dot, the member). */
static const char *const device_features[] = {
    "robustBufferAccess",                 /* CVM_FLAG_ROBUST_ACCESS */
    "shaderFloat64", "shaderInt64", "shaderInt16",
    "shaderUniformBufferArrayDynamicIndexing", "shaderStorageBufferArrayDynamicIndexing",
    "SubgroupSizeControl.subgroupSizeControl", "SubgroupSizeControl.computeFullSubgroups",
    "CooperativeMatrixFeaturesKHR.cooperativeMatrix", "Float16Int8Features.shaderFloat16",
    "Float16Int8Features.shaderInt8",
    "Storage16BitFeatures.storageBuffer16BitAccess",
    "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
    "Storage16BitFeatures.storagePushConstant16",
    "Storage8BitFeatures.storageBuffer8BitAccess",
    "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
    "Storage8BitFeatures.storagePushConstant8",
    "VulkanMemoryModelFeatures.vulkanMemoryModel",
    "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
    "BufferDeviceAddressFeatures.bufferDeviceAddress",
    "CooperativeMatrixConversionFeaturesQCOM.cooperativeMatrixConversion",
    "VariablePointerFeatures.variablePointers",
    "VariablePointerFeatures.variablePointersStorageBuffer",
    "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
    "SubgroupSupportedOperations.basic", "SubgroupSupportedOperations.vote",
    "SubgroupSupportedOperations.arithmetic", "SubgroupSupportedOperations.ballot",
    "SubgroupSupportedOperations.shuffle", "SubgroupSupportedOperations.shuffleRelative",
    "SubgroupSupportedOperations.clustered", "SubgroupSupportedOperations.quad",
    "SubgroupSupportedStages.compute",
    "CooperativeVectorFeaturesNV.cooperativeVector",
    "CooperativeVectorFeaturesNV.cooperativeVectorTraining",
    "CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixProperties2",
    "CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixReductions",
    "CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixConversions",
    "CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixPerElementOperations",
    "CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixGetCoordinate",
    "ShaderOCPMicroscalingTypesFeaturesEXT.shaderFloat4",
    "ShaderOCPMicroscalingTypesFeaturesEXT.shaderFloat6",
    "ShaderOCPMicroscalingTypesFeaturesEXT.shaderFloat8UnsignedE8M0",
    "ShaderOCPMicroscalingTypesFeaturesEXT.shaderMXInt8",
    "CooperativeMatrixFeaturesNV.cooperativeMatrix",
    "Shader64BitIndexingFeaturesEXT.shader64BitIndexing",
    "ShaderLongVectorFeaturesEXT.longVector",
};

int cvm_supports_feature(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(device_features); i++)
        if (!strcmp(device_features[i], name))
            return 1;
    return 0;
}

/* Properties that hold: the engine computes in IEEE arithmetic of the
 * host, rounding to nearest even, keeping denormals, signed zeros, infinities
 * and NaNs (it has no flush-to-zero or round-toward-zero mode). */
static const char *const device_properties[] = {
    "FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat16",
    "FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat32",
    "FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat64",
    "FloatControlsProperties.shaderDenormPreserveFloat16",
    "FloatControlsProperties.shaderDenormPreserveFloat32",
    "FloatControlsProperties.shaderDenormPreserveFloat64",
    "FloatControlsProperties.shaderRoundingModeRTEFloat16",
    "FloatControlsProperties.shaderRoundingModeRTEFloat32",
    "FloatControlsProperties.shaderRoundingModeRTEFloat64",
    /* OpSDot, OpUDot, OpSUDot (and their AccSat forms) on 32-bit scalars
     * holding four 8-bit values run as one instruction, four to five times
     * faster than the same sum written with OpBitFieldSExtract, OpIMul and
     * OpIAdd (64 invocations of 2048 dot products, one thread: OpSDot 0.8 s,
     * OpSDotAccSat 1.0 s, the emulation with a wrapping add 3.6 to 4.1 s);
     * the other shapes are not measured, so not claimed */
    "ShaderIntegerDotProductProperties.integerDotProduct4x8BitPackedUnsignedAccelerated",
    "ShaderIntegerDotProductProperties.integerDotProduct4x8BitPackedSignedAccelerated",
    "ShaderIntegerDotProductProperties.integerDotProduct4x8BitPackedMixedSignednessAccelerated",
    "ShaderIntegerDotProductProperties."
    "integerDotProductAccumulatingSaturating4x8BitPackedUnsignedAccelerated",
    "ShaderIntegerDotProductProperties."
    "integerDotProductAccumulatingSaturating4x8BitPackedSignedAccelerated",
    "ShaderIntegerDotProductProperties."
    "integerDotProductAccumulatingSaturating4x8BitPackedMixedSignednessAccelerated",
};

int cvm_supports_property(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(device_properties); i++)
        if (!strcmp(device_properties[i], name))
            return 1;
    return 0;
}

void cvm_get_limits(cvm_limits *o)
{
    if (!o)
        return;
    o->max_matrix_dimension = CVM_MAX_MATRIX_DIM;
    o->flexible_dimension_granularity = 1;
    o->max_workgroup_invocations = CVM_MAX_WORKGROUP_INVOCATIONS;
    o->min_subgroup_size = 1;
    o->max_subgroup_size = CVM_MAX_SUBGROUP_SIZE;
    o->callback_batch = CVM_CALLBACK_BATCH;
    o->max_cooperative_vector_components = CVM_MAX_COOPVEC_COMPONENTS;
    o->cooperative_vector_training_float16_accumulation = 1;
    o->cooperative_vector_training_float32_accumulation = 1;
    /* Lowering takes vectors of up to 65536 components; the limit offered is
     * the cooperative vectors' (the same types, OpTypeVectorIdEXT), which the
     * tests run at its largest. */
    o->max_vector_components = CVM_MAX_COOPVEC_COMPONENTS;
}
