/* What every libFuzzer harness of tests/fuzz shares.
 *
 * A harness is one file defining LLVMFuzzerTestOneInput.  It is linked
 * either with libFuzzer (clang -fsanitize=fuzzer: the fuzz_* targets of a
 * CVM_FUZZ build) or with fuzz_replay.c (any compiler: the replay_* targets
 * that run saved inputs as regression tests).  The contract checked on every
 * input is the library's promise: a status from the documented set, never a
 * crash; a failure carries its own status and a non-empty one-line message;
 * CVM_ERROR_INTERNAL (a bug in coopvm by definition) is a finding.  A broken
 * contract aborts, which libFuzzer reports as a crash. */
#ifndef CVM_FUZZ_COMMON_H
#define CVM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "coopvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as 32-bit words in host order (a trailing partial word is
 * dropped); free() it.  NULL only when out of memory. */
uint32_t *cvm_fuzz_words(const uint8_t *data, size_t size, size_t *o_word_count);

/* The input as a NUL-terminated string (the text APIs take a length, the
 * copy keeps reads past it visible to the address sanitizer); free() it. */
char *cvm_fuzz_text(const uint8_t *data, size_t size);

/* Checks the contract on one step's result (aborts on a breach) and records
 * it as the input's last status, which fuzz_replay.c prints. */
void cvm_fuzz_check(cvm_result r, const cvm_diagnostic *d);

/* The last status cvm_fuzz_check saw, and its diagnostic. */
extern cvm_result cvm_fuzz_last_result;
extern cvm_diagnostic cvm_fuzz_last_diag;

#endif
