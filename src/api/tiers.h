/* Comparing the tiers (coopvm.h CVM_FLAG_COMPARE_TIERS): what api.c's
 * compared dispatch needs to find and describe the first difference between
 * the compiled tier's results and the interpreter's. */
#ifndef CVM_API_TIERS_H
#define CVM_API_TIERS_H

#include "exec/exec.h"

/* Memory a dispatch may write: a buffer bound at (set, binding, element),
 * or (device) the context's address-only buffer `slot`; its bytes lie at
 * `at` of the copies api.c keeps. */
typedef struct cvm_tier_area {
    uint8_t *data;
    size_t size;
    uint32_t set, binding, element;
    int device;
    uint32_t slot;
    size_t at;
} cvm_tier_area;

/* 1 when binding area a sorts before b: (set, binding, element). */
int cvm_tier_area_before(const cvm_tier_area *a, const cvm_tier_area *b);

/* "CVM_SUCCESS", or "CVM_ERROR_X (message)", into buf. */
void cvm_tier_status_text(char *buf, size_t size, cvm_result r, const cvm_diagnostic *d);

/* Compares each area's bytes now (the interpreter's) with the compiled
 * tier's at compiled + area.at, in area order.  CVM_SUCCESS when all are
 * equal; else CVM_ERROR_TIERS_DIFFER with o_diag naming the first byte that
 * differs: the buffer (set, binding, element and the variable's OpName, or
 * the address-only buffer's device address), the byte offset, the value's
 * place in the block's type (members, array indices) and its type, both
 * values, how many bytes differ, and the instructions of `prog` that store
 * to that buffer (word offset, opcode, source line), and places o_diag at
 * the first of them. */
cvm_result cvm_tier_compare(const cvm_program *prog, const cvm_tier_area *areas, uint32_t n,
                            const uint8_t *compiled, cvm_diagnostic *o_diag);

/* Test hook: nonzero n makes every compared dispatch flip byte n - 1 of
 * the compiled run's copy of its first area (a difference to report, for
 * the tests of the report); 0 (the default) stops. */
void cvm_test_tiers_flip(uint64_t n);
uint64_t cvm_tier_flip_byte(void); /* the hook's n, for api.c */

/* Test hook: how long (ns) a dispatch runs interpreted before it begins
 * compiling its shader (cvm_config.h CVM_JIT_LATE_NS; 0 restores it). */
void cvm_test_jit_late_ns(uint64_t ns);
/* Compilations of entry points begun in this process (at a dispatch or on
 * a thread of their own), for tests of when the tier choice compiles. */
uint64_t cvm_test_jit_compiles_begun(void);

/* Test hook (api.c, not of the tiers): the worker threads dispatches have
 * started so far in this process, pool threads and others. */
uint64_t cvm_test_threads_started(void);

#endif /* CVM_API_TIERS_H */
