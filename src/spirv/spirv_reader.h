/* Bounded reading of a SPIR-V binary: the header and the instruction stream.
 * Every read stays inside [words, words + word_count). */
#ifndef CVM_SPIRV_READER_H
#define CVM_SPIRV_READER_H

#include <stddef.h>
#include <stdint.h>

#include "cvm_common.h"

#define SPV_HEADER_WORDS 5

typedef struct spv_header {
    uint32_t magic;     /* 0x07230203 once normalised */
    uint32_t version;   /* 0x00MMmm00 */
    uint32_t generator;
    uint32_t bound;     /* every id is < bound */
    uint32_t schema;    /* 0 */
} spv_header;

/* A binary in host byte order.  `words` is owned (freed by
 * spv_binary_release) when `owned` is set. */
typedef struct spv_binary {
    const uint32_t *words;
    size_t word_count;
    uint32_t *owned;
    spv_header header;
} spv_binary;

/* Checks the header (at least 5 words, magic in either byte order, schema 0,
 * bound > 0) and byte-swaps into an owned copy when the magic is reversed.
 * Errors: CVM_ERROR_MALFORMED with word_offset set. */
cvm_result spv_binary_open(spv_binary *o_bin, const uint32_t *words, size_t word_count,
                           cvm_diagnostic *diag);
void spv_binary_release(spv_binary *bin);

/* One instruction: words[0] is the opcode/word-count word. */
typedef struct spv_inst {
    const uint32_t *words;
    uint16_t opcode;
    uint16_t word_count;
    uint32_t offset; /* word offset in the module */
} spv_inst;

/* Iterates instructions from word 5. Returns 1 and fills *o_inst for the
 * next instruction, 0 at the end, -1 on a malformed stream (word count 0 or
 * past the end; *diag says where).  `*io_offset` starts at SPV_HEADER_WORDS. */
int spv_next_inst(const spv_binary *bin, size_t *io_offset, spv_inst *o_inst,
                  cvm_diagnostic *diag);

/* Decodes a literal string operand starting at word `first` of `inst`: checks
 * that a NUL lies inside the instruction; returns the number of words it
 * takes (>= 1) and sets *o_str (pointing into the module), or 0 when it is
 * unterminated. */
uint32_t spv_inst_string(const spv_inst *inst, uint32_t first, const char **o_str);

#endif /* CVM_SPIRV_READER_H */
