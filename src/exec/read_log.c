/* NV-CV.Matrix-Unmodified in the checking mode (exec.h cvm_read_log).
 *
 * SPV_NV_cooperative_vector, OpCooperativeVectorMatrixMul(Add)NV: "Memory
 * loads performed by these functions are performed as if the Memory
 * Operands were None, and the memory object were NonWritable and Restrict.
 * This means the matrix and bias values must not be modified while a
 * shader might be using them."  Within one dispatch every invocation may
 * be using them, so a store by any invocation, before or after the read,
 * to bytes some MatMul reads as its matrix or bias breaks the rule.
 *
 * How: the dispatch copies its buffers before it runs (cvm_mem_copy_make);
 * each MatMul logs the byte ranges it reads (cvm_read_log_add: its whole
 * matrix as the size query reports it, stride gaps included, and its
 * bias); after the dispatch each logged range must hold the bytes of the
 * copy (cvm_read_log_check).  A store of the bytes already there, or one
 * undone before the dispatch ends, changes nothing and is not seen.  The
 * copy costs the size of the buffers, and the log a few words per distinct
 * range, so this runs in the checking mode only. */
#include <stdio.h>
#include <string.h>

#include "exec/exec.h"
#include "spirv/spirv_grammar.h"

void cvm_read_log_add(cvm_exec *ex, const cvm_insn *in, uint64_t addr, uint64_t size,
                      uint32_t bias)
{
    cvm_read_log *log = ex->cv_reads;
    uint32_t reg = CVM_ADDR_REGION(addr);
    uint64_t lo = CVM_ADDR_OFFSET(addr);
    const cvm_region *rg = cvm_region_of(ex, reg);
    if (!log || reg < CVM_REGION_FIRST_BUFFER || !rg || !rg->base || lo >= rg->size)
        return;
    uint64_t hi = size > rg->size - lo ? rg->size : lo + size;
    /* the invocations of a workgroup mostly read the same few ranges */
    for (uint32_t k = log->n; k > 0 && k + 8 > log->n; k--) {
        const cvm_read_range *e = &log->r[k - 1];
        if (e->region == reg && e->lo == lo && e->hi == hi && e->bias == bias &&
            e->word_off == in->word_off)
            return;
    }
    if (log->n == log->cap) {
        uint32_t cap = log->cap ? 2 * log->cap : 64;
        cvm_read_range *nr = cap > log->cap ? cvm_realloc(log->r, (size_t)cap * sizeof(*nr)) : NULL;
        if (!nr) {
            log->oom = 1;
            return;
        }
        log->r = nr;
        log->cap = cap;
    }
    log->r[log->n++] = (cvm_read_range){reg, bias, in->word_off, in->spv_op, lo, hi};
}

void cvm_read_log_merge(cvm_read_log *into, cvm_read_log *from)
{
    into->oom |= from->oom;
    uint32_t need = into->n + from->n;
    if (need < into->n) { /* past 2^32 ranges */
        into->oom = 1;
    } else if (from->n) {
        if (need > into->cap) {
            cvm_read_range *nr = cvm_realloc(into->r, (size_t)need * sizeof(*nr));
            if (nr) {
                into->r = nr;
                into->cap = need;
            }
        }
        if (need <= into->cap) {
            memcpy(into->r + into->n, from->r, (size_t)from->n * sizeof(*from->r));
            into->n = need;
        } else {
            into->oom = 1;
        }
    }
    cvm_read_log_free(from);
}

void cvm_read_log_free(cvm_read_log *log)
{
    cvm_mem_free(log->r);
    memset(log, 0, sizeof(*log));
}

cvm_result cvm_mem_copy_make(cvm_mem_copy *o, const cvm_region *regions, uint32_t nregions,
                             const cvm_region *device, uint32_t ndevice)
{
    memset(o, 0, sizeof(*o));
    o->copy = cvm_calloc((size_t)nregions + ndevice + 1, sizeof(uint8_t *));
    if (!o->copy)
        return CVM_ERROR_OUT_OF_MEMORY;
    o->nregions = nregions;
    o->ndevice = ndevice;
    for (uint32_t i = 0; i < nregions + ndevice; i++) {
        const cvm_region *rg = i < nregions ? &regions[i] : &device[i - nregions];
        if (!rg->base || !rg->size)
            continue;
        /* a region that another one already copied (the same memory bound
         * twice) shares its copy */
        for (uint32_t j = 0; j < i && !o->copy[i]; j++) {
            const cvm_region *rj = j < nregions ? &regions[j] : &device[j - nregions];
            if (rj->base == rg->base && rj->size == rg->size)
                o->copy[i] = o->copy[j];
        }
        if (o->copy[i])
            continue;
        if (!(o->copy[i] = cvm_malloc((size_t)rg->size))) {
            cvm_mem_copy_free(o);
            return CVM_ERROR_OUT_OF_MEMORY;
        }
        memcpy(o->copy[i], rg->base, (size_t)rg->size);
    }
    return CVM_SUCCESS;
}

void cvm_mem_copy_free(cvm_mem_copy *c)
{
    uint32_t n = c->nregions + c->ndevice;
    for (uint32_t i = 0; c->copy && i < n; i++) {
        if (!c->copy[i])
            continue;
        for (uint32_t j = i + 1; j < n; j++) /* shared copies: freed once */
            if (c->copy[j] == c->copy[i])
                c->copy[j] = NULL;
        cvm_mem_free(c->copy[i]);
    }
    cvm_mem_free(c->copy);
    memset(c, 0, sizeof(*c));
}

/* The buffer of region `reg`, in words. */
static void buffer_name(const cvm_program *prog, uint32_t reg, char *out, size_t cap)
{
    if (reg >= CVM_REGION_FIRST_DEVICE) {
        snprintf(out, cap, "the buffer at device address 0x%llx",
                 (unsigned long long)CVM_ADDR(reg, 0));
        return;
    }
    for (uint32_t k = 0; k < prog->ndescs; k++) {
        const cvm_descriptor *d = &prog->descs[k];
        if (reg >= d->first_region && reg - d->first_region < d->array_size) {
            if (d->array_size > 1)
                snprintf(out, cap, "the buffer of set %u binding %u element %u", d->set,
                         d->binding, reg - d->first_region);
            else
                snprintf(out, cap, "the buffer of set %u binding %u", d->set, d->binding);
            return;
        }
    }
    snprintf(out, cap, "memory region %u", reg);
}

cvm_result cvm_read_log_check(const cvm_read_log *log, const cvm_mem_copy *c,
                              const cvm_region *regions, const cvm_region *device,
                              const cvm_program *prog, cvm_diagnostic *diag)
{
    for (uint32_t k = 0; k < log->n; k++) {
        const cvm_read_range *e = &log->r[k];
        uint32_t i = e->region < CVM_REGION_FIRST_DEVICE ? e->region - CVM_REGION_FIRST_BUFFER
                                                         : c->nregions + (e->region - CVM_REGION_FIRST_DEVICE);
        if (i >= c->nregions + c->ndevice || !c->copy[i])
            continue;
        const cvm_region *rg = i < c->nregions ? &regions[i] : &device[i - c->nregions];
        if (!rg->base || e->hi > rg->size)
            continue;
        const uint8_t *now = rg->base, *was = c->copy[i];
        if (!memcmp(now + e->lo, was + e->lo, (size_t)(e->hi - e->lo)))
            continue;
        uint64_t at = e->lo;
        while (now[at] == was[at])
            at++;
        char name[96];
        buffer_name(prog, e->region, name, sizeof(name));
        const spv_instruction_desc *d = spv_grammar_instruction(e->spv_op);
        cvm_diag_at(diag, CVM_ERROR_INVALID_MODULE, e->word_off, e->spv_op,
                    "%s (word %u): [NV-CV.Matrix-Unmodified] byte %llu of %s, in the %s this "
                    "instruction read (bytes %llu to %llu), changed during the dispatch "
                    "(0x%02x, then 0x%02x): the matrix and bias values must not be modified "
                    "while a shader might be using them",
                    d ? d->name : "instruction", e->word_off, (unsigned long long)at, name,
                    e->bias ? "bias" : "matrix", (unsigned long long)e->lo,
                    (unsigned long long)e->hi - 1, was[at], now[at]);
        spv_module_locate(prog->mod, e->word_off, diag);
        return CVM_ERROR_INVALID_MODULE;
    }
    return CVM_SUCCESS;
}
