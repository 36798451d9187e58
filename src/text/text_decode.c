/* Operand decoding for the disassembler.
 *
 * The expected operands of an instruction are a stack (top = next): the
 * grammar's operands pushed in reverse, then, as words are consumed, the
 * parameters of enumerants, the operands of an extended instruction or of the
 * opcode named by OpSpecConstantOp are pushed on top.  A "*" operand stays on
 * the stack and yields one optional element each time; a pair kind expands
 * into its two parts.  Decoding stops when the instruction's words run out;
 * the instruction is malformed when a required operand is then still
 * expected, or when words remain with nothing expected. */
#include "text/text_decode.h"

#include <string.h>

static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

cvm_result txt_decoder_init(txt_decoder *d, const uint32_t *words, size_t word_count,
                            cvm_diagnostic *diag)
{
    memset(d, 0, sizeof(*d));
    if (!words || word_count < SPV_HEADER_WORDS)
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, 0, 0,
                           "module has an incomplete header: %zu words instead of 5",
                           words ? word_count : (size_t)0);
    if (words[0] == bswap32(SPV_MAGIC_NUMBER)) {
        uint32_t *copy = cvm_malloc(word_count * sizeof(uint32_t));
        if (!copy)
            return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0; i < word_count; i++)
            copy[i] = bswap32(words[i]);
        d->owned = copy;
        words = copy;
    } else if (words[0] != SPV_MAGIC_NUMBER) {
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, 0, 0, "invalid SPIR-V magic number 0x%08x",
                           words[0]);
    }
    d->words = words;
    d->word_count = word_count;
    d->version = words[1];
    d->generator = words[2];
    d->bound = words[3];
    d->schema = words[4];
    d->next = SPV_HEADER_WORDS;
    return CVM_SUCCESS;
}

void txt_decoder_free(txt_decoder *d)
{
    cvm_mem_free(d->owned);
    txt_map_free(&d->id_type);
    txt_map_free(&d->type_num);
    txt_map_free(&d->type_width);
    txt_map_free(&d->ext_sets);
    txt_map_free(&d->defined);
    cvm_mem_free(d->ops);
    cvm_mem_free(d->expect);
    memset(d, 0, sizeof(*d));
}

int txt_opcode_generates_type(const spv_instruction_desc *desc)
{
    if (!desc || !desc->has_result)
        return 0;
    if (!strcmp(desc->op_class, "Type-Declaration"))
        return strcmp(desc->name, "OpTypeBufferSurfaceINTEL") != 0;
    return !strcmp(desc->name, "OpTypeNodePayloadArrayAMDX");
}

/* The expected-operand stack ------------------------------------------------ */

static int expect_push(txt_decoder *d, uint16_t kind, uint8_t quant)
{
    if (d->expect_len == d->expect_cap) {
        size_t ncap = d->expect_cap ? d->expect_cap * 2 : 32;
        txt_expect *n = cvm_realloc(d->expect, ncap * sizeof(*n));
        if (!n)
            return -1;
        d->expect = n;
        d->expect_cap = ncap;
    }
    d->expect[d->expect_len].kind = kind;
    d->expect[d->expect_len].quant = quant;
    d->expect_len++;
    return 0;
}

/* Pushes operands so that ops[0] ends on top. */
static int expect_push_list(txt_decoder *d, const spv_operand_desc *ops, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (expect_push(d, ops[i].kind, ops[i].quantifier) != 0)
            return -1;
    return 0;
}

/* Takes the next concrete operand, expanding "*" and pair kinds. */
static int expect_take(txt_decoder *d, txt_expect *o)
{
    for (;;) {
        txt_expect e = d->expect[--d->expect_len];
        const spv_operand_kind_desc *k = &spv_operand_kinds[e.kind];
        if (k->category == SPV_CATEGORY_COMPOSITE && k->num_bases == 2) {
            /* A pair: in a "*" list the first part is optional (the list may
             * end), the second is then required. */
            uint16_t first = k->bases[0], second = k->bases[1];
            /* The literal of an OpSwitch pair takes the selector's type. */
            if (e.kind == SPV_OPERAND_PairLiteralIntegerIdRef)
                first = SPV_OPERAND_LiteralContextDependentNumber;
            if ((e.quant == SPV_QUANT_VARIABLE && expect_push(d, e.kind, e.quant) != 0) ||
                expect_push(d, second, SPV_QUANT_ONE) != 0 ||
                expect_push(d, first, e.quant == SPV_QUANT_ONE ? SPV_QUANT_ONE
                                                               : SPV_QUANT_OPTIONAL) != 0)
                return -1;
            continue;
        }
        if (e.quant == SPV_QUANT_VARIABLE) {
            if (expect_push(d, e.kind, e.quant) != 0)
                return -1;
            e.quant = SPV_QUANT_OPTIONAL;
        }
        *o = e;
        return 0;
    }
}

static int add_operand(txt_decoder *d, txt_inst *inst, const txt_operand *op)
{
    if (inst->num_ops == d->ops_cap) {
        size_t ncap = d->ops_cap ? d->ops_cap * 2 : 32;
        txt_operand *n = cvm_realloc(d->ops, ncap * sizeof(*n));
        if (!n)
            return -1;
        d->ops = n;
        d->ops_cap = ncap;
        inst->ops = n;
    }
    d->ops[inst->num_ops++] = *op;
    return 0;
}

/* Sets the number fields of `op` from numeric type `type_id`. */
static int number_type(txt_decoder *d, uint32_t type_id, txt_operand *op, txt_inst *inst,
                       cvm_diagnostic *diag)
{
    uint32_t info, width = 0;
    if (!txt_map_get(&d->type_num, type_id, &info))
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, inst->offset, inst->opcode,
                           "type id %u is not a type", type_id),
               -1;
    if ((info & 0xff) == TXT_NUM_NONE)
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, inst->offset, inst->opcode,
                           "type id %u is not a scalar numeric type", type_id),
               -1;
    txt_map_get(&d->type_width, type_id, &width);
    op->num_kind = (uint8_t)(info & 0xff);
    op->fp = (uint8_t)(info >> 8);
    op->width = width;
    uint64_t nw = ((uint64_t)width + 31) / 32;
    if (nw == 0 || nw > 0xffff)
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, inst->offset, inst->opcode,
                           "literal of %u bits cannot be encoded", width),
               -1;
    op->num_words = (uint16_t)nw;
    return 0;
}

#define DECODE_FAIL(...)                                                                 \
    do {                                                                                 \
        cvm_diag_at(diag, CVM_ERROR_MALFORMED, inst->offset, inst->opcode, __VA_ARGS__); \
        return -1;                                                                       \
    } while (0)
#define DECODE_OOM()                                                         \
    do {                                                                     \
        cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");       \
        return -1;                                                           \
    } while (0)

/* Decodes the operands of `inst`.  Returns 0, 1 when it must be shown raw
 * (unknown enumerant or extended instruction), -1 on error. */
static int decode_operands(txt_decoder *d, txt_inst *inst, cvm_diagnostic *diag)
{
    const uint32_t *w = inst->words;
    const spv_instruction_desc *desc = inst->desc;
    uint32_t idx = 1;

    d->expect_len = 0;
    if (expect_push_list(d, desc->operands, desc->num_operands) != 0)
        DECODE_OOM();

    while (idx < inst->num_words) {
        if (d->expect_len == 0)
            DECODE_FAIL("invalid instruction %s at word %u: expected no more operands after %u "
                        "words, but its word count is %u",
                        desc->name, inst->offset, idx, inst->num_words);
        txt_expect e;
        if (expect_take(d, &e) != 0)
            DECODE_OOM();
        txt_operand op = {e.kind, (uint16_t)idx, 1, TXT_NUM_NONE, 0, 0};
        const uint32_t word = w[idx];
        const spv_operand_kind_desc *kd = &spv_operand_kinds[e.kind];

        switch (e.kind) {
        case SPV_OPERAND_IdResultType:
            if (!word)
                DECODE_FAIL("type id is 0");
            inst->type_id = word;
            break;
        case SPV_OPERAND_IdResult:
            if (!word)
                DECODE_FAIL("result id is 0");
            if (txt_map_get(&d->defined, word, NULL))
                DECODE_FAIL("id %u is defined more than once", word);
            inst->result_id = word;
            break;
        case SPV_OPERAND_IdRef:
        case SPV_OPERAND_IdScope:
        case SPV_OPERAND_IdMemorySemantics:
            if (!word && (inst->opcode == SpvOpExtInst ||
                          inst->opcode == SpvOpExtInstWithForwardRefsKHR) &&
                idx > 4 && inst->ext_set != TXT_EXT_GLSL) {
                /* An operand of a set without a grammar here (glslang's
                 * -gVS debug information has zeros among them): the
                 * validator takes these as the set's business, so the
                 * text shows the number. */
                op.kind = SPV_OPERAND_LiteralInteger;
                op.num_kind = TXT_NUM_UINT;
                op.width = 32;
                break;
            }
            if (!word)
                DECODE_FAIL("id is 0");
            if ((inst->opcode == SpvOpExtInst ||
                 inst->opcode == SpvOpExtInstWithForwardRefsKHR) &&
                idx == 3) {
                uint32_t set;
                if (!txt_map_get(&d->ext_sets, word, &set))
                    DECODE_FAIL("OpExtInst set id %u does not reference an OpExtInstImport "
                                "result id",
                                word);
                inst->ext_set = (uint8_t)set;
            }
            break;
        case SPV_OPERAND_LiteralExtInstInteger:
            if (inst->ext_set == TXT_EXT_GLSL) {
                const spv_extinst_desc *x = spv_grammar_glsl_std450(word);
                if (!x)
                    return 1;
                if (expect_push_list(d, x->operands, x->num_operands) != 0)
                    DECODE_OOM();
            } else {
                /* A set without a grammar here: the number, then ids. */
                if (expect_push(d, SPV_OPERAND_IdRef, SPV_QUANT_VARIABLE) != 0)
                    DECODE_OOM();
            }
            break;
        case SPV_OPERAND_LiteralSpecConstantOpInteger: {
            const spv_instruction_desc *x = spv_grammar_instruction(word);
            if (!x || !x->has_result_type || !x->has_result || x->num_operands < 2)
                DECODE_FAIL("invalid OpSpecConstantOp opcode %u", word);
            if (expect_push_list(d, x->operands + 2, x->num_operands - 2u) != 0)
                DECODE_OOM();
            break;
        }
        case SPV_OPERAND_LiteralInteger:
            op.num_kind = TXT_NUM_UINT;
            op.width = 32;
            break;
        case SPV_OPERAND_LiteralFloat:
            op.num_kind = TXT_NUM_FLOAT;
            op.fp = TXT_FP_F32;
            op.width = 32;
            break;
        case SPV_OPERAND_LiteralContextDependentNumber:
            if (inst->opcode == SpvOpSwitch) {
                uint32_t type_id = 0;
                if (!txt_map_get(&d->id_type, w[1], &type_id) || type_id == 0)
                    DECODE_FAIL("invalid OpSwitch: selector id %u has no type", w[1]);
                if (type_id == w[1])
                    DECODE_FAIL("invalid OpSwitch: selector id %u is a type, not a value",
                                w[1]);
                if (number_type(d, type_id, &op, inst, diag) != 0)
                    return -1;
                if (op.num_kind != TXT_NUM_UINT && op.num_kind != TXT_NUM_SINT)
                    DECODE_FAIL("invalid OpSwitch: selector id %u is not a scalar integer",
                                w[1]);
            } else {
                if (!inst->type_id)
                    DECODE_FAIL("%s has a typed literal but no result type", desc->name);
                if (number_type(d, inst->type_id, &op, inst, diag) != 0)
                    return -1;
            }
            break;
        case SPV_OPERAND_LiteralString: {
            /* The string ends at a NUL inside the instruction. */
            size_t max_bytes = (size_t)(inst->num_words - idx) * 4;
            const char *s = (const char *)(w + idx);
            const char *nul = memchr(s, 0, max_bytes);
            if (!nul)
                DECODE_FAIL("end of input reached while decoding %s at word %u: string is "
                            "not terminated",
                            desc->name, inst->offset);
            op.num_words = (uint16_t)((size_t)(nul - s) / 4 + 1);
            if (inst->opcode == SpvOpExtInstImport) {
                uint32_t set = strcmp(s, "GLSL.std.450") == 0 ? TXT_EXT_GLSL : TXT_EXT_OTHER;
                if (inst->result_id && txt_map_put(&d->ext_sets, inst->result_id, set) != 0)
                    DECODE_OOM();
            }
            break;
        }
        default:
            if (kd->category == SPV_CATEGORY_VALUE_ENUM) {
                const spv_enumerant_desc *en = spv_grammar_enumerant(e.kind, word);
                if (!en)
                    return 1;
                if (expect_push_list(d, en->params, en->num_params) != 0)
                    DECODE_OOM();
            } else if (kd->category == SPV_CATEGORY_BIT_ENUM) {
                /* Parameters of the lowest set bit come first. */
                for (int bit = 31; bit >= 0; bit--) {
                    uint32_t m = 1u << bit;
                    if (!(word & m))
                        continue;
                    const spv_enumerant_desc *en = spv_grammar_enumerant(e.kind, m);
                    if (!en)
                        return 1;
                    if (expect_push_list(d, en->params, en->num_params) != 0)
                        DECODE_OOM();
                }
                if (word == 0) {
                    const spv_enumerant_desc *en = spv_grammar_enumerant(e.kind, 0);
                    if (en && expect_push_list(d, en->params, en->num_params) != 0)
                        DECODE_OOM();
                }
            } else {
                DECODE_FAIL("unhandled operand kind %s", kd->name);
            }
            break;
        }
        if ((uint32_t)op.num_words > inst->num_words - idx)
            DECODE_FAIL("end of input reached while decoding %s at word %u: operand %s needs "
                        "%u words",
                        desc->name, inst->offset, kd->name, op.num_words);
        if (add_operand(d, inst, &op) != 0)
            DECODE_OOM();
        idx += op.num_words;
    }
    if (d->expect_len > 0 && d->expect[d->expect_len - 1].quant == SPV_QUANT_ONE)
        DECODE_FAIL("end of input reached while decoding %s at word %u: expected more operands "
                    "after %u words",
                    desc->name, inst->offset, inst->num_words);
    return 0;
}

/* Records what later instructions need: defined ids, value types, numeric
 * types. */
static int record(txt_decoder *d, const txt_inst *inst)
{
    if (inst->result_id) {
        if (txt_map_put(&d->defined, inst->result_id, 1) != 0)
            return -1;
        if (txt_opcode_generates_type(inst->desc)) {
            if (txt_map_put(&d->id_type, inst->result_id, inst->result_id) != 0)
                return -1;
            uint32_t kind = TXT_NUM_NONE, fp = TXT_FP_UNKNOWN, width = 0;
            if (inst->opcode == SpvOpTypeInt && inst->num_words >= 4) {
                kind = inst->words[3] ? TXT_NUM_SINT : TXT_NUM_UINT;
                width = inst->words[2];
            } else if (inst->opcode == SpvOpTypeFloat && inst->num_words >= 3) {
                kind = TXT_NUM_FLOAT;
                width = inst->words[2];
                fp = txt_fp_for_type(width, inst->num_words >= 4,
                                     inst->num_words >= 4 ? inst->words[3] : 0);
            }
            if (txt_map_put(&d->type_num, inst->result_id, kind | fp << 8) != 0 ||
                txt_map_put(&d->type_width, inst->result_id, width) != 0)
                return -1;
        } else if (inst->type_id) {
            if (txt_map_put(&d->id_type, inst->result_id, inst->type_id) != 0)
                return -1;
        }
    }
    return 0;
}

int txt_decoder_next(txt_decoder *d, txt_inst *inst, cvm_diagnostic *diag)
{
    size_t off = d->next;
    if (off >= d->word_count)
        return 0;
    uint32_t first = d->words[off];
    uint32_t count = first >> 16;
    memset(inst, 0, sizeof(*inst));
    inst->offset = (uint32_t)off;
    inst->opcode = (uint16_t)(first & 0xffffu);
    inst->words = d->words + off;
    inst->ops = d->ops;
    if (count == 0)
        DECODE_FAIL("invalid instruction word count 0 at word %zu", off);
    if (count > d->word_count - off)
        DECODE_FAIL("truncated binary: instruction at word %zu claims %u words but the "
                    "binary ends at %zu",
                    off, count, d->word_count);
    inst->num_words = (uint16_t)count;
    d->next = off + count;
    inst->desc = spv_grammar_instruction(inst->opcode);
    if (!inst->desc) {
        inst->unknown = 1;
        return 1;
    }
    int r = decode_operands(d, inst, diag);
    if (r < 0)
        return -1;
    if (r > 0) {
        inst->unknown = 1;
        inst->num_ops = 0;
        inst->result_id = 0;
        inst->type_id = 0;
        return 1;
    }
    inst->ops = d->ops;
    if (record(d, inst) != 0) {
        cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        return -1;
    }
    return 1;
}

void txt_format_number(txt_buf *b, const txt_inst *inst, const txt_operand *op)
{
    const uint32_t *w = inst->words + op->offset;
    if (op->num_words == 1) {
        switch (op->num_kind) {
        case TXT_NUM_SINT: txt_printf(b, "%d", (int32_t)w[0]); break;
        case TXT_NUM_UINT: txt_printf(b, "%u", w[0]); break;
        case TXT_NUM_FLOAT: {
            txt_fp fp = (txt_fp)op->fp;
            if (fp == TXT_FP_UNKNOWN && op->width == 16)
                fp = TXT_FP_F16;
            if (fp == TXT_FP_UNKNOWN && op->width == 32)
                fp = TXT_FP_F32;
            txt_format_float(b, fp, w[0]);
            break;
        }
        default: break;
        }
    } else if (op->num_words == 2) {
        uint64_t bits = (uint64_t)w[0] | (uint64_t)w[1] << 32;
        switch (op->num_kind) {
        case TXT_NUM_SINT: txt_printf(b, "%lld", (long long)(int64_t)bits); break;
        case TXT_NUM_UINT: txt_printf(b, "%llu", (unsigned long long)bits); break;
        case TXT_NUM_FLOAT: txt_format_float(b, TXT_FP_F64, bits); break;
        default: break;
        }
    }
}
