/* Diagnostics, result names and the allocation wrappers: the bottom layer
 * ("core" in ARCHITECTURE.md), beside its header, used by every layer above. */
#include "cvm_common.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cvm_result_string(cvm_result result)
{
    switch (result) {
    case CVM_SUCCESS: return "CVM_SUCCESS";
    case CVM_ERROR_INVALID_ARGUMENT: return "CVM_ERROR_INVALID_ARGUMENT";
    case CVM_ERROR_OUT_OF_MEMORY: return "CVM_ERROR_OUT_OF_MEMORY";
    case CVM_ERROR_IO: return "CVM_ERROR_IO";
    case CVM_ERROR_MALFORMED: return "CVM_ERROR_MALFORMED";
    case CVM_ERROR_INVALID_MODULE: return "CVM_ERROR_INVALID_MODULE";
    case CVM_ERROR_UNSUPPORTED: return "CVM_ERROR_UNSUPPORTED";
    case CVM_ERROR_NOT_FOUND: return "CVM_ERROR_NOT_FOUND";
    case CVM_ERROR_MISSING_BINDING: return "CVM_ERROR_MISSING_BINDING";
    case CVM_ERROR_OUT_OF_BOUNDS: return "CVM_ERROR_OUT_OF_BOUNDS";
    case CVM_ERROR_BUDGET_EXCEEDED: return "CVM_ERROR_BUDGET_EXCEEDED";
    case CVM_ERROR_DIVERGENT_COLLECTIVE: return "CVM_ERROR_DIVERGENT_COLLECTIVE";
    case CVM_ERROR_LIMIT: return "CVM_ERROR_LIMIT";
    case CVM_ERROR_SYNTAX: return "CVM_ERROR_SYNTAX";
    case CVM_ERROR_EXPECTATION_FAILED: return "CVM_ERROR_EXPECTATION_FAILED";
    case CVM_ERROR_CALLBACK_MISMATCH: return "CVM_ERROR_CALLBACK_MISMATCH";
    case CVM_ERROR_INTERNAL: return "CVM_ERROR_INTERNAL";
    case CVM_INCOMPLETE: return "CVM_INCOMPLETE";
    case CVM_ERROR_TIERS_DIFFER: return "CVM_ERROR_TIERS_DIFFER";
    }
    return "CVM_ERROR_UNKNOWN";
}

void cvm_diag_clear(cvm_diagnostic *diag)
{
    if (!diag)
        return;
    memset(diag, 0, sizeof(*diag));
    diag->word_offset = UINT32_MAX;
}

cvm_result cvm_diag_vset(cvm_diagnostic *diag, cvm_result result, const char *fmt, va_list ap)
{
    if (!diag)
        return result;
    diag->result = result;
    vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
    /* The message is one line whatever it quotes (assembly text, script
     * names): control characters of the input become '?'. */
    for (char *c = diag->message; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return result;
}

cvm_result cvm_diag_set(cvm_diagnostic *diag, cvm_result result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cvm_diag_vset(diag, result, fmt, ap);
    va_end(ap);
    return result;
}

cvm_result cvm_diag_at(cvm_diagnostic *diag, cvm_result result, uint32_t word_offset,
                       uint32_t opcode, const char *fmt, ...)
{
    va_list ap;
    if (!diag)
        return result;
    diag->word_offset = word_offset;
    diag->opcode = opcode;
    va_start(ap, fmt);
    cvm_diag_vset(diag, result, fmt, ap);
    va_end(ap);
    return result;
}

/* Allocation ------------------------------------------------------------- */

static _Atomic uint64_t fail_countdown; /* 0: never fail */

void cvm_test_fail_allocation_after(uint64_t n)
{
    atomic_store(&fail_countdown, n);
}

static int allocation_should_fail(void)
{
    uint64_t c = atomic_load(&fail_countdown);
    if (c == 0)
        return 0;
    if (c == 1)
        return 1; /* stays at 1: every later allocation fails too */
    atomic_fetch_sub(&fail_countdown, 1);
    return 0;
}

void *cvm_malloc(size_t size)
{
    if (allocation_should_fail())
        return NULL;
    return malloc(size ? size : 1);
}

void *cvm_calloc(size_t count, size_t size)
{
    if (allocation_should_fail())
        return NULL;
    if (count == 0 || size == 0)
        count = size = 1;
    return calloc(count, size);
}

void *cvm_realloc(void *p, size_t size)
{
    if (allocation_should_fail())
        return NULL;
    return realloc(p, size ? size : 1);
}

void cvm_mem_free(void *p)
{
    free(p);
}

void cvm_free(void *p)
{
    free(p);
}

char *cvm_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cvm_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

cvm_result cvm_read_file(const char *path, void **o_data, size_t *o_size, cvm_diagnostic *diag)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, len = 0;
    if (!f)
        return cvm_diag_set(diag, CVM_ERROR_IO, "cannot open '%s': %s", path, strerror(errno));
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            unsigned char *nb = cvm_realloc(buf, ncap);
            if (!nb) {
                cvm_mem_free(buf);
                fclose(f);
                return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory reading '%s'",
                                    path);
            }
            buf = nb;
            cap = ncap;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f)) {
        cvm_mem_free(buf);
        fclose(f);
        return cvm_diag_set(diag, CVM_ERROR_IO, "error reading '%s'", path);
    }
    fclose(f);
    *o_data = buf;
    *o_size = len;
    return CVM_SUCCESS;
}
