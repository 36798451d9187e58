/* Internal helpers shared by every layer: diagnostics, allocation, macros. */
#ifndef CVM_COMMON_H
#define CVM_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "coopvm.h"
#include "cvm_config.h"

#if defined(__GNUC__)
#define CVM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define CVM_LIKELY(x) __builtin_expect(!!(x), 1)
#define CVM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CVM_INTERNAL __attribute__((visibility("hidden")))
#else
#define CVM_PRINTF(a, b)
#define CVM_LIKELY(x) (x)
#define CVM_UNLIKELY(x) (x)
#define CVM_INTERNAL
#endif

#define CVM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define CVM_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CVM_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Error propagation: functions return cvm_result and clean up through
 * `goto fail`; CVM_TRY keeps that pattern short. */
#define CVM_TRY(expr)                   \
    do {                                \
        cvm_result cvm_try_r_ = (expr); \
        if (cvm_try_r_ != CVM_SUCCESS)  \
            return cvm_try_r_;          \
    } while (0)

/* Clears a diagnostic (NULL is fine). */
void cvm_diag_clear(cvm_diagnostic *diag);

/* Fills `diag` (if not NULL) with `result` and a formatted message and returns
 * `result`, so callers can write `return cvm_diag_set(d, CVM_ERROR_..., ...)`. */
cvm_result cvm_diag_set(cvm_diagnostic *diag, cvm_result result, const char *fmt, ...)
    CVM_PRINTF(3, 4);
cvm_result cvm_diag_vset(cvm_diagnostic *diag, cvm_result result, const char *fmt, va_list ap);

/* As cvm_diag_set, also recording the module place (word offset, opcode). */
cvm_result cvm_diag_at(cvm_diagnostic *diag, cvm_result result, uint32_t word_offset,
                       uint32_t opcode, const char *fmt, ...) CVM_PRINTF(5, 6);

/* Allocation wrappers, so a test build can fail the N-th allocation. */
void *cvm_malloc(size_t size);
void *cvm_calloc(size_t count, size_t size);
void *cvm_realloc(void *p, size_t size);
void cvm_mem_free(void *p);
char *cvm_strdup(const char *s);

/* Test hook: make the allocation with ordinal `n` (1-based, counted from this
 * call) and every later one fail; 0 disables. */
void cvm_test_fail_allocation_after(uint64_t n);

/* Reads a whole file into memory (freed with cvm_mem_free). */
cvm_result cvm_read_file(const char *path, void **o_data, size_t *o_size, cvm_diagnostic *diag);

#endif /* CVM_COMMON_H */
