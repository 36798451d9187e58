/* Pieces the AmberScript parser (amber_parse.c), the VkScript parser
 * (vkscript_parse.c), the runner (amber_run.c) and the GLSL front door
 * (amber_glsl.c) share.  Not part of amber.h's interface. */
#ifndef CVM_AMBER_INTERNAL_H
#define CVM_AMBER_INTERNAL_H

#include "amber/amber.h"

#include <string.h>

/* Whether the script byte `c` is one of the separators in `set`.  A NUL
 * byte is never a separator: strchr finds the set's own terminator for it,
 * which made a NUL in a script a zero-length word that the lexer returned
 * again and again without moving on (a hang found by fuzz_amber). */
static inline int cvm_amber_in_set(char c, const char *set)
{
    return c != '\0' && strchr(set, c) != NULL;
}

/* A number as a script writes it (`n` bytes at `s`, no NUL needed) turned
 * into a value of scalar type `t`: stored at `dst` (may be NULL) in the
 * scalar's bytes, and returned as a double (`o_d`, may be NULL) and as an
 * integer (`o_i`, may be NULL; signed types as int64, unsigned as uint64
 * bits, floats as their raw bits).  Integers may be written in decimal, hex
 * (0x...) or as a float literal with an integral value ("0.0", "-2.0", the
 * way google/amber takes `FILL 0.0` into an integer buffer), and as the bit
 * pattern of their width (-1 is 255 in a uint8).  float and double are
 * rounded once, to nearest even, from the decimal text; float16 as
 * cvm_amber_half_from_script says, except that an `expectation` (a value to
 * compare with) keeps the float's precision in `o_d`, as google/amber
 * compares.  Returns 1, or 0 when the text is not a number of the type or out
 * of its range. */
int cvm_amber_number(const char *s, size_t n, cvm_amber_scalar t, int expectation, void *dst,
                     double *o_d, int64_t *o_i);

/* A float16 the way google/amber makes one from a script's number (buffer
 * data, and values it compares with): rounded to a float, then the
 * mantissa cut to 10 bits, toward zero.  The CTS's float16 expectations were
 * computed from inputs converted so. */
uint16_t cvm_amber_half_from_script(double d);

/* The scalar type's name in messages ("a float value", "an integer in the
 * range of int8"). */
const char *cvm_amber_number_expectation(cvm_amber_scalar t, char *buf, size_t cap);

/* IEEE binary16 from a double, rounded once to nearest even. */
uint16_t cvm_amber_half_from_double(double d);

/* Grows the array at `*arr` (of `*count` items of `size` bytes) by one
 * zeroed item; returns it, or NULL when out of memory. */
void *cvm_amber_grow(void *arr, uint32_t *count, size_t size);

/* Parses VkScript text into `script` (allocated by the caller, `path`, `dir`
 * set).  Errors as cvm_amber_parse, with the script's file and line. */
cvm_result cvm_amber_parse_vkscript(const char *text, size_t length, cvm_amber_script *script,
                                    cvm_diagnostic *o_diag);

/* Compiles a GLSL compute shader to SPIR-V with glslang.  `target_env` is a
 * TARGET_ENV value ("spv1.3", "vulkan1.2", NULL for google/amber's default
 * spv1.0).  On success `*o_words` (release with cvm_mem_free) holds
 * `*o_count` words.  Errors: CVM_ERROR_UNSUPPORTED when coopvm was built
 * without glslang (the message says GLSL needs it) or for an unknown target
 * environment; CVM_ERROR_SYNTAX with glslang's log when the source does not
 * compile; CVM_ERROR_OUT_OF_MEMORY. */
cvm_result cvm_amber_compile_glsl(const char *source, size_t length, const char *target_env,
                                  uint32_t **o_words, size_t *o_count, cvm_diagnostic *o_diag);

/* 1 when this build compiles GLSL (glslang was found at configure time). */
int cvm_amber_have_glsl(void);

#endif /* CVM_AMBER_INTERNAL_H */
