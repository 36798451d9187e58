/* Operand decoding of a SPIR-V binary for the disassembler: splits each
 * instruction into typed operands the way SPIRV-Tools' binary parser does
 * (grammar operands, enumerant parameters, extended instructions, the
 * opcode operand of OpSpecConstantOp, literals sized by their type). */
#ifndef CVM_TEXT_DECODE_H
#define CVM_TEXT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "cvm_common.h"
#include "spirv/spirv_grammar.h"
#include "spirv/spirv_reader.h"
#include "text/text_util.h"

/* Number kinds of literal operands. */
enum { TXT_NUM_NONE = 0, TXT_NUM_UINT, TXT_NUM_SINT, TXT_NUM_FLOAT };

/* Extended instruction sets an OpExtInstImport may name. */
enum { TXT_EXT_NONE = 0, TXT_EXT_GLSL = 1, TXT_EXT_OTHER = 2 };

typedef struct txt_operand {
    uint16_t kind;      /* spv_operand_kind of the concrete operand */
    uint16_t offset;    /* first word, counted from the opcode word */
    uint16_t num_words;
    uint8_t num_kind;   /* TXT_NUM_* for literal numbers */
    uint8_t fp;         /* txt_fp when num_kind is TXT_NUM_FLOAT */
    uint32_t width;     /* bits of the literal number */
} txt_operand;

typedef struct txt_inst {
    const uint32_t *words;
    uint32_t offset;    /* word offset in the module */
    uint16_t opcode;
    uint16_t num_words;
    uint32_t type_id;
    uint32_t result_id;
    uint8_t ext_set;    /* TXT_EXT_* of an OpExtInst */
    uint8_t unknown;    /* opcode, enumerant or extended instruction unknown:
                           printed raw as OpUnknown */
    const spv_instruction_desc *desc;
    txt_operand *ops;
    uint16_t num_ops;
} txt_inst;

typedef struct txt_expect {
    uint16_t kind;
    uint8_t quant;
} txt_expect;

/* State that lives across the instructions of one module. */
typedef struct txt_decoder {
    const uint32_t *words; /* host byte order */
    size_t word_count;
    size_t next;           /* offset of the next instruction */
    uint32_t *owned;       /* byte-swapped copy, when the module needed one */
    uint32_t version, generator, bound, schema;
    txt_map id_type;       /* value id -> its type id; type id -> itself */
    txt_map type_num;      /* numeric type id -> num_kind | fp << 8 */
    txt_map type_width;    /* numeric type id -> width in bits */
    txt_map ext_sets;      /* OpExtInstImport result -> TXT_EXT_* */
    txt_map defined;       /* result ids seen */
    txt_operand *ops;
    size_t ops_cap;
    txt_expect *expect;
    size_t expect_len, expect_cap;
} txt_decoder;

/* Checks the header (5 words, magic in either byte order).  Errors:
 * CVM_ERROR_MALFORMED, CVM_ERROR_OUT_OF_MEMORY. */
cvm_result txt_decoder_init(txt_decoder *d, const uint32_t *words, size_t word_count,
                            cvm_diagnostic *diag);
void txt_decoder_free(txt_decoder *d);

/* Decodes the next instruction into *o_inst (valid until the next call).
 * Returns 1 for an instruction, 0 at the end, -1 on an error (diag set). */
int txt_decoder_next(txt_decoder *d, txt_inst *o_inst, cvm_diagnostic *diag);

/* True for the opcodes whose result is a type (SPIRV-Tools'
 * spvOpcodeGeneratesType). */
int txt_opcode_generates_type(const spv_instruction_desc *desc);

/* Appends a literal number operand as spirv-dis prints it.  Appends nothing
 * for numbers it has no form for (wider than 64 bits, unknown encodings). */
void txt_format_number(txt_buf *b, const txt_inst *inst, const txt_operand *op);

#endif /* CVM_TEXT_DECODE_H */
