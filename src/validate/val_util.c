/* What the checks ask of a module: instructions and their operands, types,
 * constants, tensor layout state, the control-flow graph. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "validate/val.h"

/* ---- failing ------------------------------------------------------------------ */

int val_fail(val_ctx *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->detail, sizeof(v->detail), fmt, ap);
    va_end(ap);
    return 0;
}

int val_fail_at(val_ctx *v, uint32_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->detail, sizeof(v->detail), fmt, ap);
    va_end(ap);
    v->blame_off = off;
    return 0;
}

/* ---- instructions ------------------------------------------------------------- */

int val_inst_at(const val_ctx *v, uint32_t off, spv_inst *o_inst)
{
    if (off < SPV_HEADER_WORDS || off >= v->nwords)
        return 0;
    uint32_t head = v->words[off];
    uint32_t wc = head >> 16;
    if (wc == 0 || wc > v->nwords - off)
        return 0;
    o_inst->words = v->words + off;
    o_inst->opcode = (uint16_t)(head & 0xffff);
    o_inst->word_count = (uint16_t)wc;
    o_inst->offset = off;
    return 1;
}

int val_def(const val_ctx *v, uint32_t id, spv_inst *o_inst)
{
    if (id == 0 || id >= v->bound || !v->ids[id].off)
        return 0;
    return val_inst_at(v, v->ids[id].off, o_inst);
}

uint16_t val_opcode(const val_ctx *v, uint32_t id)
{
    if (id == 0 || id >= v->bound)
        return 0;
    return v->ids[id].opcode;
}

uint32_t val_type_of(const val_ctx *v, uint32_t id)
{
    if (id == 0 || id >= v->bound)
        return 0;
    return v->ids[id].type;
}

uint32_t val_word(const spv_inst *in, uint32_t i)
{
    return i < in->word_count ? in->words[i] : 0;
}

const char *val_op_name(uint32_t opcode)
{
    const spv_instruction_desc *d = spv_grammar_instruction(opcode);
    return d ? d->name : "an unknown opcode";
}

const char *val_enum_name(spv_operand_kind kind, uint32_t value, char *tmp, size_t tmp_size)
{
    const spv_enumerant_desc *e = spv_grammar_enumerant(kind, value);
    if (e)
        return e->name;
    snprintf(tmp, tmp_size, "%u", value);
    return tmp;
}

/* ---- operands ----------------------------------------------------------------- */

static int push_op(val_ctx *v, uint32_t *n, uint16_t kind, uint32_t word, const char *name)
{
    if (*n == v->ops_cap) {
        uint32_t ncap = v->ops_cap ? v->ops_cap * 2 : 64;
        val_operand *no = cvm_realloc(v->ops, ncap * sizeof(val_operand));
        if (!no) {
            v->oom = 1;
            return 0;
        }
        v->ops = no;
        v->ops_cap = ncap;
    }
    v->ops[*n].kind = kind;
    v->ops[*n].word = (uint16_t)word;
    v->ops[*n].name = name;
    (*n)++;
    return 1;
}

typedef struct walker {
    val_ctx *v;
    const spv_inst *in;
    uint32_t pos;
    uint32_t n;
    const char *why;
    char why_buf[160];
} walker;

static int walk_operand(walker *w, uint16_t kind, const char *name);

static int walk_params(walker *w, const spv_enumerant_desc *e)
{
    for (uint16_t i = 0; i < e->num_params; i++)
        if (!walk_operand(w, e->params[i].kind, e->params[i].name))
            return 0;
    return 1;
}

static int missing(walker *w, const char *name)
{
    snprintf(w->why_buf, sizeof(w->why_buf), "the instruction ends before its operand %s%s%s",
             name ? "'" : "", name ? name : "", name ? "'" : "");
    w->why = w->why_buf;
    return 0;
}

/* Width in words of an OpSwitch literal: that of the selector's type. */
static uint32_t switch_literal_words(const val_ctx *v, const spv_inst *in)
{
    uint32_t width, sign;
    if (in->word_count > 1 && val_int_type(v, val_type_of(v, in->words[1]), &width, &sign))
        return width > 32 ? 2 : 1;
    return 1;
}

static int walk_operand(walker *w, uint16_t kind, const char *name)
{
    const spv_inst *in = w->in;
    const spv_operand_kind_desc *k = &spv_operand_kinds[kind];
    if (w->pos >= in->word_count)
        return missing(w, name ? name : k->name);
    switch (k->category) {
    case SPV_CATEGORY_ID:
        if (!push_op(w->v, &w->n, kind, w->pos, name))
            return 0;
        w->pos++;
        return 1;
    case SPV_CATEGORY_LITERAL:
        if (!push_op(w->v, &w->n, kind, w->pos, name))
            return 0;
        if (kind == SPV_OPERAND_LiteralString) {
            const char *s;
            uint32_t nw = spv_inst_string(in, w->pos, &s);
            if (!nw) {
                w->why = "a string operand has no terminating NUL inside the instruction";
                return 0;
            }
            w->pos += nw;
        } else if (kind == SPV_OPERAND_LiteralContextDependentNumber) {
            w->pos = in->word_count; /* its width is that of the result type */
        } else {
            w->pos++;
        }
        return 1;
    case SPV_CATEGORY_VALUE_ENUM: {
        uint32_t value = in->words[w->pos];
        const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)kind, value);
        if (!e) {
            snprintf(w->why_buf, sizeof(w->why_buf), "%u is not a %s", value, k->name);
            w->why = w->why_buf;
            return 0;
        }
        if (!push_op(w->v, &w->n, kind, w->pos, name))
            return 0;
        w->pos++;
        return walk_params(w, e);
    }
    case SPV_CATEGORY_BIT_ENUM: {
        uint32_t value = in->words[w->pos];
        if (!push_op(w->v, &w->n, kind, w->pos, name))
            return 0;
        w->pos++;
        for (uint32_t bit = 0; bit < 32; bit++) {
            if (!(value & (1u << bit)))
                continue;
            const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)kind, 1u << bit);
            if (!e) {
                snprintf(w->why_buf, sizeof(w->why_buf), "bit 0x%x is not a %s bit", 1u << bit,
                         k->name);
                w->why = w->why_buf;
                return 0;
            }
            if (!walk_params(w, e))
                return 0;
        }
        return 1;
    }
    case SPV_CATEGORY_COMPOSITE:
        if (kind == SPV_OPERAND_PairLiteralIntegerIdRef && in->opcode == SpvOpSwitch) {
            uint32_t lw = switch_literal_words(w->v, in);
            if (w->pos + lw >= in->word_count)
                return missing(w, "Target");
            if (!push_op(w->v, &w->n, SPV_OPERAND_LiteralContextDependentNumber, w->pos, name))
                return 0;
            w->pos += lw;
            return walk_operand(w, SPV_OPERAND_IdRef, "Target");
        }
        for (uint16_t i = 0; i < k->num_bases; i++)
            if (!walk_operand(w, k->bases[i], name))
                return 0;
        return 1;
    }
    return 1;
}

/* Operands of the operation inside OpSpecConstantOp: those of that
 * instruction's grammar after its Result Type and Result. */
static int walk_spec_constant_op(walker *w)
{
    uint32_t op = w->in->words[3];
    const spv_instruction_desc *d = spv_grammar_instruction(op);
    if (!d || !d->has_result_type || !d->has_result) {
        snprintf(w->why_buf, sizeof(w->why_buf),
                 "OpSpecConstantOp names opcode %u, not an instruction with a result", op);
        w->why = w->why_buf;
        return 0;
    }
    for (uint16_t i = 2; i < d->num_operands; i++) {
        const spv_operand_desc *o = &d->operands[i];
        if (o->quantifier == SPV_QUANT_VARIABLE) {
            while (w->pos < w->in->word_count)
                if (!walk_operand(w, o->kind, o->name))
                    return 0;
        } else if (o->quantifier == SPV_QUANT_OPTIONAL) {
            if (w->pos < w->in->word_count && !walk_operand(w, o->kind, o->name))
                return 0;
        } else if (!walk_operand(w, o->kind, o->name)) {
            return 0;
        }
    }
    return 1;
}

int val_operands(val_ctx *v, const spv_inst *in, const val_operand **o_ops, const char **o_why)
{
    walker w;
    w.v = v;
    w.in = in;
    w.pos = 1;
    w.n = 0;
    w.why = NULL;
    *o_ops = NULL;
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!d) {
        *o_why = "the opcode is not in the grammar";
        return -1;
    }
    for (uint16_t i = 0; i < d->num_operands; i++) {
        const spv_operand_desc *o = &d->operands[i];
        if (in->opcode == SpvOpExtInst && i == 4 && (in->words[3] != v->glsl_set || !v->glsl_set)) {
            /* Operands of an instruction of a set other than GLSL.std.450:
             * their kinds are the set's business. */
            while (w.pos < in->word_count) {
                if (!push_op(v, &w.n, SPV_OPERAND_LiteralInteger, w.pos, NULL))
                    goto fail;
                w.pos++;
            }
            break;
        }
        if (o->quantifier == SPV_QUANT_VARIABLE) {
            while (w.pos < in->word_count)
                if (!walk_operand(&w, o->kind, o->name))
                    goto fail;
        } else if (o->quantifier == SPV_QUANT_OPTIONAL) {
            if (w.pos < in->word_count && !walk_operand(&w, o->kind, o->name))
                goto fail;
        } else if (!walk_operand(&w, o->kind, o->name)) {
            goto fail;
        }
        if (in->opcode == SpvOpSpecConstantOp && o->kind == SPV_OPERAND_LiteralSpecConstantOpInteger) {
            if (!walk_spec_constant_op(&w))
                goto fail;
            break;
        }
    }
    if (w.pos < in->word_count) {
        *o_why = "the instruction has more words than its operands take";
        return -1;
    }
    *o_ops = v->ops;
    return (int)w.n;
fail:
    if (v->oom) {
        *o_why = "out of memory";
        return -1;
    }
    if (w.why) {
        /* Copy: the walker's buffer dies with it. */
        snprintf(v->why, sizeof(v->why), "%s", w.why);
        *o_why = v->why;
    } else {
        *o_why = "malformed operands";
    }
    return -1;
}

/* ---- module facts ------------------------------------------------------------- */

int val_has_cap(const val_ctx *v, uint32_t cap)
{
    for (uint32_t i = 0; i < v->ncaps; i++)
        if (v->caps[i] == cap)
            return 1;
    return 0;
}

int val_declares_cap(const val_ctx *v, uint32_t cap)
{
    for (uint32_t i = 0; i < v->ncaps_declared; i++)
        if (v->caps[i] == cap)
            return 1;
    return 0;
}

int val_has_ext(const val_ctx *v, const char *name)
{
    for (uint32_t i = 0; i < v->nexts; i++) {
        spv_inst in;
        const char *s;
        if (val_inst_at(v, v->ext_offs[i], &in) && spv_inst_string(&in, 1, &s) && !strcmp(s, name))
            return 1;
    }
    return 0;
}

int val_version_at_least(const val_ctx *v, uint32_t major, uint32_t minor)
{
    return v->version >= ((major << 16) | (minor << 8));
}

/* ---- types -------------------------------------------------------------------- */

static int def_with(const val_ctx *v, uint32_t id, uint16_t op, spv_inst *o)
{
    return val_opcode(v, id) == op && val_def(v, id, o);
}

int val_int_type(const val_ctx *v, uint32_t type, uint32_t *o_width, uint32_t *o_signed)
{
    spv_inst in;
    if (!def_with(v, type, SpvOpTypeInt, &in) || in.word_count < 4)
        return 0;
    if (o_width)
        *o_width = in.words[2];
    if (o_signed)
        *o_signed = in.words[3];
    return 1;
}

int val_float_type(const val_ctx *v, uint32_t type, uint32_t *o_width, uint32_t *o_encoding)
{
    spv_inst in;
    if (!def_with(v, type, SpvOpTypeFloat, &in) || in.word_count < 3)
        return 0;
    if (o_width)
        *o_width = in.words[2];
    if (o_encoding)
        *o_encoding = in.word_count > 3 ? in.words[3] : VAL_NONE;
    return 1;
}

int val_is_bool(const val_ctx *v, uint32_t type)
{
    return val_opcode(v, type) == SpvOpTypeBool;
}

int val_is_int_scalar(const val_ctx *v, uint32_t type, uint32_t width)
{
    uint32_t w;
    return val_int_type(v, type, &w, NULL) && (width == 0 || w == width);
}

int val_is_numeric_scalar(const val_ctx *v, uint32_t type)
{
    return val_int_type(v, type, NULL, NULL) || val_float_type(v, type, NULL, NULL);
}

int val_vector_type(const val_ctx *v, uint32_t type, uint32_t *o_comp, uint32_t *o_count)
{
    spv_inst in;
    uint16_t op = val_opcode(v, type);
    if (op == SpvOpTypeVector && val_def(v, type, &in) && in.word_count >= 4) {
        if (o_comp)
            *o_comp = in.words[2];
        if (o_count)
            *o_count = in.words[3];
        return 1;
    }
    uint64_t n;
    if (op == SpvOpTypeVectorIdEXT && val_def(v, type, &in) && in.word_count >= 4) {
        /* a count from a specialization constant: VAL_SPEC_COUNT of its id, so
         * that two vectors sized by one constant compare equal */
        if (!val_const_value(v, in.words[3], &n))
            n = VAL_SPEC_COUNT(in.words[3]);
        if (n > UINT32_MAX)
            return 0;
        if (o_comp)
            *o_comp = in.words[2];
        if (o_count)
            *o_count = (uint32_t)n;
        return 1;
    }
    return 0;
}

int val_pointer_type(const val_ctx *v, uint32_t type, uint32_t *o_storage, uint32_t *o_pointee)
{
    spv_inst in;
    uint16_t op = val_opcode(v, type);
    if (op == SpvOpTypePointer && val_def(v, type, &in) && in.word_count >= 4) {
        if (o_storage)
            *o_storage = in.words[2];
        if (o_pointee)
            *o_pointee = in.words[3];
        return 1;
    }
    if (op == SpvOpTypeUntypedPointerKHR && val_def(v, type, &in) && in.word_count >= 3) {
        if (o_storage)
            *o_storage = in.words[2];
        if (o_pointee)
            *o_pointee = 0;
        return 1;
    }
    return 0;
}

int val_array_type(const val_ctx *v, uint32_t type, uint32_t *o_elem, uint32_t *o_length_id)
{
    spv_inst in;
    uint16_t op = val_opcode(v, type);
    if (op == SpvOpTypeArray && val_def(v, type, &in) && in.word_count >= 4) {
        if (o_elem)
            *o_elem = in.words[2];
        if (o_length_id)
            *o_length_id = in.words[3];
        return 1;
    }
    if (op == SpvOpTypeRuntimeArray && val_def(v, type, &in) && in.word_count >= 3) {
        if (o_elem)
            *o_elem = in.words[2];
        if (o_length_id)
            *o_length_id = 0;
        return 1;
    }
    return 0;
}

int val_is_type(const val_ctx *v, uint32_t id)
{
    const spv_instruction_desc *d = spv_grammar_instruction(val_opcode(v, id));
    if (!d || !id)
        return 0;
    /* The grammar's class of type declarations, and the vendor types the
     * grammar files elsewhere (OpTypeForwardPointer declares nothing of its
     * own). */
    if (d->opcode == SpvOpTypeForwardPointer || !d->has_result || d->has_result_type)
        return 0;
    return !strcmp(d->op_class, "Type-Declaration") || !strncmp(d->name, "OpType", 6);
}

static int contains(const val_ctx *v, uint32_t type, uint16_t op, int depth)
{
    if (depth > 64)
        return 0;
    uint16_t top = val_opcode(v, type);
    if (top == op)
        return 1;
    spv_inst in;
    if ((top == SpvOpTypeArray || top == SpvOpTypeRuntimeArray) && val_def(v, type, &in) &&
        in.word_count >= 3)
        return contains(v, in.words[2], op, depth + 1);
    if (top == SpvOpTypeStruct && val_def(v, type, &in)) {
        for (uint32_t i = 2; i < in.word_count; i++)
            if (contains(v, in.words[i], op, depth + 1))
                return 1;
    }
    return 0;
}

int val_type_contains(const val_ctx *v, uint32_t type, uint16_t op)
{
    return contains(v, type, op, 0);
}

int val_coopmat_type(const val_ctx *v, uint32_t type, val_coopmat *o)
{
    spv_inst in;
    if (!def_with(v, type, SpvOpTypeCooperativeMatrixKHR, &in) || in.word_count < 7)
        return 0;
    memset(o, 0, sizeof(*o));
    o->component = in.words[2];
    o->scope_id = in.words[3];
    o->rows_id = in.words[4];
    o->cols_id = in.words[5];
    o->use_id = in.words[6];
    o->scope_known = (uint8_t)val_const_value(v, o->scope_id, &o->scope);
    o->rows_known = (uint8_t)val_const_value(v, o->rows_id, &o->rows);
    o->cols_known = (uint8_t)val_const_value(v, o->cols_id, &o->cols);
    o->use_known = (uint8_t)val_const_value(v, o->use_id, &o->use);
    return 1;
}

int val_coopvec_type(const val_ctx *v, uint32_t type, uint32_t *o_comp, uint32_t *o_count_id,
                     uint64_t *o_count, int *o_count_known)
{
    spv_inst in;
    if (!def_with(v, type, SpvOpTypeCooperativeVectorNV, &in) || in.word_count < 4)
        return 0;
    uint64_t n = 0;
    int known = val_const_value(v, in.words[3], &n);
    if (o_comp)
        *o_comp = in.words[2];
    if (o_count_id)
        *o_count_id = in.words[3];
    if (o_count)
        *o_count = n;
    if (o_count_known)
        *o_count_known = known;
    return 1;
}

int val_component_count(const val_ctx *v, uint32_t type, uint64_t *o_count)
{
    uint32_t n;
    int known;
    if (val_vector_type(v, type, NULL, &n)) {
        *o_count = n;
        return !(n & VAL_SPEC_COUNT(0)); /* a specialization constant's: not known */
    }
    if (val_coopvec_type(v, type, NULL, NULL, o_count, &known))
        return known;
    return 0;
}

uint32_t val_component_type(const val_ctx *v, uint32_t type)
{
    uint32_t comp;
    val_coopmat cm;
    if (val_vector_type(v, type, &comp, NULL))
        return comp;
    if (val_opcode(v, type) == SpvOpTypeVectorIdEXT) {
        spv_inst in;
        if (val_def(v, type, &in) && in.word_count >= 3)
            return in.words[2];
    }
    if (val_coopvec_type(v, type, &comp, NULL, NULL, NULL))
        return comp;
    if (val_coopmat_type(v, type, &cm))
        return cm.component;
    return type;
}

int val_same_dim(const val_ctx *v, uint32_t a_id, uint32_t b_id)
{
    if (a_id == b_id)
        return 1;
    uint64_t a, b;
    if (val_const_value(v, a_id, &a) && val_const_value(v, b_id, &b))
        return a == b;
    return -1; /* unknown: a specialization constant decides */
}

/* ---- constants ---------------------------------------------------------------- */

int val_is_constant_inst(const val_ctx *v, uint32_t id)
{
    switch (val_opcode(v, id)) {
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpConstant:
    case SpvOpConstantComposite:
    case SpvOpConstantSampler:
    case SpvOpConstantNull:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
    case SpvOpSpecConstant:
    case SpvOpSpecConstantComposite:
    case SpvOpSpecConstantOp:
    case SpvOpConstantCompositeReplicateEXT:
    case SpvOpSpecConstantCompositeReplicateEXT:
        return 1;
    default:
        return 0;
    }
}

static int scalar_value(const val_ctx *v, const spv_inst *in, uint64_t *o_value)
{
    uint32_t width, sign;
    if (val_int_type(v, in->words[1], &width, &sign)) {
        if (width == 0 || width > 64 || in->word_count < 4)
            return 0;
        uint64_t x = in->words[3];
        if (width > 32) {
            if (in->word_count < 5)
                return 0;
            x |= (uint64_t)in->words[4] << 32;
        }
        if (width < 64) {
            x &= (UINT64_C(1) << width) - 1;
            if (sign && (x >> (width - 1)) & 1)
                x |= ~((UINT64_C(1) << width) - 1);
        }
        *o_value = x;
        return 1;
    }
    return 0;
}

static int const_value(const val_ctx *v, uint32_t id, uint64_t *o_value, int spec)
{
    spv_inst in;
    if (!val_def(v, id, &in))
        return 0;
    switch (in.opcode) {
    case SpvOpConstantTrue:
        *o_value = 1;
        return 1;
    case SpvOpConstantFalse:
        *o_value = 0;
        return 1;
    case SpvOpConstantNull:
        if (val_is_bool(v, in.words[1]) || val_int_type(v, in.words[1], NULL, NULL)) {
            *o_value = 0;
            return 1;
        }
        return 0;
    case SpvOpConstant:
        return scalar_value(v, &in, o_value);
    case SpvOpSpecConstantTrue:
        *o_value = 1;
        return spec;
    case SpvOpSpecConstantFalse:
        *o_value = 0;
        return spec;
    case SpvOpSpecConstant:
        return spec && scalar_value(v, &in, o_value);
    default:
        return 0;
    }
}

int val_const_value(const val_ctx *v, uint32_t id, uint64_t *o_value)
{
    return const_value(v, id, o_value, 0);
}

int val_const_default(const val_ctx *v, uint32_t id, uint64_t *o_value)
{
    return const_value(v, id, o_value, 1);
}

/* ---- tensor layout state ------------------------------------------------------ */

/* The one value stored to a Function or Private variable whose address is
 * used for nothing but OpLoad and OpStore; 0 when there is not exactly one. */
static uint32_t single_stored_value(const val_ctx *v, uint32_t var)
{
    spv_inst vin;
    if (!def_with(v, var, SpvOpVariable, &vin) || vin.word_count < 4)
        return 0;
    uint32_t sc = vin.words[3];
    if (sc != SpvStorageClassFunction && sc != SpvStorageClassPrivate)
        return 0;
    if (vin.word_count > 4)
        return 0; /* an initializer is a second value */
    uint32_t begin = SPV_HEADER_WORDS, end = (uint32_t)v->nwords;
    if (sc == SpvStorageClassFunction && v->ids[var].func < v->nfuncs) {
        begin = v->funcs[v->ids[var].func].begin;
        end = v->funcs[v->ids[var].func].end;
    }
    uint32_t value = 0, stores = 0;
    spv_inst in;
    for (uint32_t off = begin; off < end && val_inst_at(v, off, &in); off += in.word_count) {
        if (in.opcode == SpvOpStore && in.word_count >= 3 && in.words[1] == var) {
            value = in.words[2];
            stores++;
            continue;
        }
        if (in.opcode == SpvOpLoad && in.word_count >= 4 && in.words[3] == var)
            continue;
        if (in.opcode == SpvOpName || in.opcode == SpvOpDecorate || in.offset == vin.offset)
            continue;
        /* Any other use of the address (a call, an access chain, a copy)
         * may write it. */
        for (uint32_t i = 1; i < in.word_count; i++)
            if (in.words[i] == var && in.opcode != SpvOpLine)
                return 0;
    }
    return stores == 1 ? value : 0;
}

static void layout_operands(const val_ctx *v, const spv_inst *in, uint32_t first, uint32_t step,
                            uint32_t dim, int64_t *o_val, uint8_t *o_known)
{
    for (uint32_t i = 0; i < dim && i < 5; i++) {
        uint64_t x;
        uint32_t w = first + i * step;
        o_known[i] = (uint8_t)(w < in->word_count && val_const_value(v, in->words[w], &x));
        o_val[i] = o_known[i] ? (int64_t)(uint32_t)x : 0;
    }
}

void val_trace_layout(const val_ctx *v, uint32_t id, val_layout_state *o)
{
    memset(o, 0, sizeof(*o));
    uint32_t chain[64];
    uint32_t n = 0, cur = id;
    for (int steps = 0; steps < 256; steps++) {
        spv_inst in;
        if (!val_def(v, cur, &in))
            return;
        switch (in.opcode) {
        case SpvOpCreateTensorLayoutNV:
            o->traced = 1;
            break;
        case SpvOpTensorLayoutSetBlockSizeNV:
        case SpvOpTensorLayoutSetDimensionNV:
        case SpvOpTensorLayoutSetStrideNV:
        case SpvOpTensorLayoutSliceNV:
        case SpvOpTensorLayoutSetClampValueNV:
            if (n == CVM_ARRAY_SIZE(chain) || in.word_count < 4)
                return;
            chain[n++] = in.offset;
            cur = in.words[3];
            continue;
        case SpvOpCopyObject:
            if (in.word_count < 4)
                return;
            cur = in.words[3];
            continue;
        case SpvOpLoad:
            if (in.word_count < 4 || !(cur = single_stored_value(v, in.words[3])))
                return;
            continue;
        default:
            return;
        }
        break;
    }
    if (!o->traced)
        return;
    spv_inst tin;
    uint64_t dim = 0;
    if (!def_with(v, val_type_of(v, id), SpvOpTypeTensorLayoutNV, &tin) || tin.word_count < 4 ||
        !val_const_value(v, tin.words[2], &dim) || dim < 1 || dim > 5) {
        o->traced = 0;
        return;
    }
    o->dim = (uint32_t)dim;
    for (uint32_t i = 0; i < 5; i++) {
        o->block[i] = 1;
        o->block_known[i] = 1;
        o->dimension_known[i] = 1;
        o->stride_known[i] = 1;
    }
    while (n) {
        spv_inst in;
        if (!val_inst_at(v, chain[--n], &in))
            continue;
        switch (in.opcode) {
        case SpvOpTensorLayoutSetBlockSizeNV:
            layout_operands(v, &in, 4, 1, o->dim, o->block, o->block_known);
            break;
        case SpvOpTensorLayoutSetDimensionNV: {
            layout_operands(v, &in, 4, 1, o->dim, o->dimension, o->dimension_known);
            /* stride[LDim-1] = 1; stride[i] = stride[i+1] * ceil(Dim[i+1] / blockSize[i+1]) */
            uint32_t last = o->dim - 1;
            o->stride[last] = 1;
            o->stride_known[last] = 1;
            for (int32_t i = (int32_t)last - 1; i >= 0; i--) {
                uint32_t j = (uint32_t)i + 1;
                o->stride_known[i] = o->stride_known[j] && o->dimension_known[j] &&
                                     o->block_known[j] && o->block[j] > 0;
                if (o->stride_known[i])
                    o->stride[i] = o->stride[j] * ((o->dimension[j] + o->block[j] - 1) / o->block[j]);
            }
            break;
        }
        case SpvOpTensorLayoutSetStrideNV:
            layout_operands(v, &in, 4, 1, o->dim, o->stride, o->stride_known);
            o->set_stride_off = in.offset;
            break;
        default:
            break;
        }
    }
}

/* ---- control flow ------------------------------------------------------------- */

uint32_t val_block_of_label(const val_ctx *v, uint32_t label)
{
    if (label == 0 || label >= v->bound || !v->block_of)
        return VAL_NONE;
    return v->block_of[label];
}

int val_dominates(const val_ctx *v, uint32_t a, uint32_t b)
{
    if (a >= v->nblocks || b >= v->nblocks)
        return 0;
    if (v->blocks[a].rpo == VAL_NONE || v->blocks[b].rpo == VAL_NONE)
        return 0;
    if (v->blocks[a].func != v->blocks[b].func)
        return 0;
    for (uint32_t x = b, steps = 0; x != VAL_NONE && steps <= v->nblocks; steps++) {
        if (x == a)
            return 1;
        x = v->blocks[x].idom;
    }
    return 0;
}

uint32_t val_func_at(const val_ctx *v, uint32_t off)
{
    uint32_t lo = 0, hi = v->nfuncs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v->funcs[mid].begin <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return VAL_NONE;
    const val_function *f = &v->funcs[lo - 1];
    return off < f->end ? lo - 1 : VAL_NONE;
}

uint32_t val_block_at(const val_ctx *v, uint32_t off)
{
    uint32_t lo = 0, hi = v->nblocks;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v->blocks[mid].begin <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return VAL_NONE;
    const val_block *b = &v->blocks[lo - 1];
    if (b->func == VAL_NONE || b->func != val_func_at(v, off))
        return VAL_NONE;
    if (b->term && off > b->term)
        return VAL_NONE;
    return lo - 1;
}

uint32_t val_function_index(const val_ctx *v, uint32_t id)
{
    for (uint32_t i = 0; i < v->nfuncs; i++)
        if (v->funcs[i].id == id)
            return i;
    return VAL_NONE;
}

void val_call_closure(const val_ctx *v, uint32_t f, uint8_t *o_seen)
{
    memset(o_seen, 0, v->nfuncs);
    if (f >= v->nfuncs)
        return;
    o_seen[f] = 1;
    /* Worklist over function indices; each function is scanned once. */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < v->nfuncs; i++) {
            if (o_seen[i] != 1)
                continue;
            o_seen[i] = 2;
            spv_inst in;
            for (uint32_t off = v->funcs[i].begin;
                 off < v->funcs[i].end && val_inst_at(v, off, &in); off += in.word_count) {
                if (in.opcode != SpvOpFunctionCall || in.word_count < 4)
                    continue;
                uint32_t callee = val_function_index(v, in.words[3]);
                if (callee != VAL_NONE && !o_seen[callee]) {
                    o_seen[callee] = 1;
                    changed = 1;
                }
            }
        }
    }
    for (uint32_t i = 0; i < v->nfuncs; i++)
        o_seen[i] = o_seen[i] ? 1 : 0;
}

int val_has_decoration(const val_ctx *v, uint32_t id, uint32_t decoration)
{
    for (uint32_t i = 0; i < v->ndecos; i++) {
        spv_inst d;
        if (val_inst_at(v, v->deco_offs[i], &d) && d.opcode == SpvOpDecorate &&
            d.word_count >= 3 && d.words[1] == id && d.words[2] == decoration)
            return 1;
    }
    return 0;
}

int val_is_terminator(uint16_t op)
{
    switch (op) {
    case SpvOpBranch:
    case SpvOpBranchConditional:
    case SpvOpSwitch:
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpKill:
    case SpvOpUnreachable:
    case SpvOpTerminateInvocation:
    case SpvOpIgnoreIntersectionKHR:
    case SpvOpTerminateRayKHR:
    case SpvOpEmitMeshTasksEXT:
        return 1;
    default:
        return 0;
    }
}
