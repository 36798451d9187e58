/* Helpers shared by the assembler and the disassembler: a growable text
 * buffer, small hash tables keyed by id or by string, and the number formats
 * of the SPIR-V text form (SPIRV-Tools' spelling of floats of every width). */
#ifndef CVM_TEXT_UTIL_H
#define CVM_TEXT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cvm_common.h"

/* ---------------------------------------------------------------------------
 * Growable, always NUL-terminated text.  After an allocation failure `oom`
 * is set and further appends are ignored, so callers check once at the end.
 */
typedef struct txt_buf {
    char *data;
    size_t len;
    size_t cap;
    int oom;
} txt_buf;

void txt_buf_free(txt_buf *b);
void txt_put(txt_buf *b, const char *s, size_t n);
void txt_puts(txt_buf *b, const char *s);
void txt_putc(txt_buf *b, char c);
void txt_printf(txt_buf *b, const char *fmt, ...) CVM_PRINTF(2, 3);
void txt_spaces(txt_buf *b, size_t n);

/* ---------------------------------------------------------------------------
 * uint32 -> uint32 map (open addressing).  Returns 0 on success, -1 when out
 * of memory.
 */
typedef struct txt_map {
    uint32_t *keys;
    uint32_t *vals;
    uint8_t *used;
    size_t cap;   /* power of two or 0 */
    size_t count;
} txt_map;

void txt_map_free(txt_map *m);
int txt_map_put(txt_map *m, uint32_t key, uint32_t val);
/* 1 and *o_val when present, else 0. */
int txt_map_get(const txt_map *m, uint32_t key, uint32_t *o_val);

/* A set of strings (copies owned by the set), with a uint32 value each. */
typedef struct txt_strmap {
    char **keys;
    uint32_t *vals;
    size_t cap;
    size_t count;
} txt_strmap;

void txt_strmap_free(txt_strmap *m);
/* Inserts (copy of) key[0..len) -> val unless present.  Returns 1 when
 * inserted, 0 when it was already there (val untouched), -1 when out of
 * memory. */
int txt_strmap_insert(txt_strmap *m, const char *key, size_t len, uint32_t val);
int txt_strmap_get(const txt_strmap *m, const char *key, size_t len, uint32_t *o_val);

/* ---------------------------------------------------------------------------
 * Numbers.
 */

/* Floating-point encodings the text form knows. */
typedef enum txt_fp {
    TXT_FP_UNKNOWN = 0,
    TXT_FP_F16,
    TXT_FP_F32,
    TXT_FP_F64,
    TXT_FP_BF16,
    TXT_FP_E4M3,
    TXT_FP_E5M2,
    TXT_FP_E2M3,
    TXT_FP_E3M2,
    TXT_FP_E2M1,
    TXT_FP_E8M0,
    TXT_FP_MXINT8
} txt_fp;

/* The encoding named by an OpTypeFloat: `has_encoding` tells whether the
 * FPEncoding operand is present. */
txt_fp txt_fp_for_type(uint32_t width, int has_encoding, uint32_t encoding);

/* Appends the value with `bits` (low bits) of encoding `fp` as spirv-dis
 * prints it: f32/f64 zero and normal numbers in shortest-round-trip decimal
 * ("%.9g"/"%.17g"), every other value and every narrower format as a hex
 * float ("0x1.8p+3").  Returns 0 when the encoding has no printed form (then
 * nothing is appended). */
int txt_format_float(txt_buf *b, txt_fp fp, uint64_t bits);

/* Parses `text` (NUL-terminated) as a floating-point literal of encoding `fp`
 * the way spirv-as does: hex floats are truncated to the format; decimals go
 * through float (double for f64) and narrower formats are then rounded toward
 * zero.  Returns 1 and *o_bits on success, 0 on invalid text or overflow,
 * -1 when the encoding cannot be written in text. */
int txt_parse_float(const char *text, txt_fp fp, uint64_t *o_bits);

/* The name spirv-as uses in "Invalid <name> float literal". */
const char *txt_fp_literal_name(txt_fp fp);

/* Parses a whole string as an integer with C's base prefixes (0x hex,
 * leading 0 octal, else decimal) as istream >> setbase(0) does.  Returns 1 on
 * success (value fits), else 0. */
int txt_parse_u64(const char *text, uint64_t *o_val);
int txt_parse_i64(const char *text, int64_t *o_val);

#endif /* CVM_TEXT_UTIL_H */
