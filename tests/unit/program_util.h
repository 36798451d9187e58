/* Lowering a module in a test, to look at the program the engine would run
 * (its instructions' marks, its variables' placement).  Include after
 * cmocka.h. */
#ifndef CVM_TEST_PROGRAM_UTIL_H
#define CVM_TEST_PROGRAM_UTIL_H

#include <stdint.h>
#include <string.h>

#include "exec/program.h"
#include "spirv/module.h"

/* Lowers the `nw` words of *io_words (cvm_malloc'd or malloc'd: the module
 * takes them over when it does not copy them, and *io_words becomes NULL)
 * for its only GLCompute entry point without specialization: *o_mod and
 * *o_prog, released with tu_program_release.  Fails the test on an error,
 * naming the stage. */
static inline void tu_program(uint32_t **io_words, size_t nw, spv_module *o_mod,
                              cvm_program **o_prog)
{
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    spv_binary bin;
    if (spv_binary_open(&bin, *io_words, nw, &d) != CVM_SUCCESS)
        fail_msg("binary: %s", d.message);
    if (!bin.owned) { /* the module takes an owned copy, as cvm_module_create gives it */
        bin.owned = *io_words;
        bin.words = *io_words;
        *io_words = NULL;
    }
    if (spv_module_parse(o_mod, &bin, &d) != CVM_SUCCESS)
        fail_msg("module: %s", d.message);
    *o_prog = NULL;
    if (cvm_program_build(o_mod, NULL, NULL, 0, o_prog, &d) != CVM_SUCCESS)
        fail_msg("lowering: %s", d.message);
}

static inline void tu_program_release(spv_module *mod, cvm_program *prog)
{
    cvm_program_destroy(prog);
    spv_module_release(mod);
}

#endif /* CVM_TEST_PROGRAM_UTIL_H */
