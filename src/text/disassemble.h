/* The disassembler's entry points beyond the public cvm_disassemble. */
#ifndef CVM_TEXT_DISASSEMBLE_H
#define CVM_TEXT_DISASSEMBLE_H

#include <stddef.h>
#include <stdint.h>

#include "cvm_common.h"

/* Writes the instruction that starts at word `word_offset` of the module as
 * spirv-val quotes it in a diagnostic: spirv-dis's text with friendly names,
 * without the indentation and the newline ("%23 = OpIAdd %uint %a %b").
 * `out` (out_size > 0) always gets a NUL-terminated string; text longer than
 * out_size - 1 bytes ends in "...".  Errors: CVM_ERROR_NOT_FOUND when no
 * instruction starts at that offset, CVM_ERROR_MALFORMED when the module
 * cannot be decoded up to it, CVM_ERROR_OUT_OF_MEMORY (then `out` is ""). */
cvm_result txt_disassemble_instruction(const uint32_t *words, size_t word_count,
                                       uint32_t word_offset, char *out, size_t out_size);

#endif /* CVM_TEXT_DISASSEMBLE_H */
