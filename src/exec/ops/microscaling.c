/* SPV_EXT_ocp_microscaling_types: the rule on where values of the OCP MX
 * formats may go, and OpBitcastExtractEXT.
 *
 * The formats themselves (Float4E2M1EXT, Float6E2M3EXT, Float6E3M2EXT,
 * Float8UnsignedE8M0EXT, MXInt8EXT) are scalar kinds of numeric.h, one byte
 * a value in registers and in memory.  Conversions from them run through
 * convert.c like every float; conversions into them are refused there
 * (the text leaves them to the client API, which forbids them).  OpBitcast
 * packs and unpacks their 4- and 6-bit patterns (convert.c).
 *
 * The text's validation rule: an object whose type is or includes one of
 * these formats "must only be used with" constant creation, memory,
 * function, conversion, composite, annotation, debug, miscellaneous,
 * extension and mode-setting instructions, OpSelect, OpPhi, OpReturnValue,
 * OpLifetimeStart and OpLifetimeStop.  No arithmetic, no comparison, no
 * atomics, no subgroup operations, and no cooperative matrices ("Should this
 * extension add support for cooperative matrix operations?  RESOLVED: No"):
 * the engine refuses those at lowering, naming the instruction, rather than
 * computing with values the text gives no arithmetic for. */
#include <string.h>

#include "exec/program.h"

static int is_mx_kind(uint8_t sk)
{
    return sk == CVM_SK_E2M1 || sk == CVM_SK_E2M3 || sk == CVM_SK_E3M2 || sk == CVM_SK_E8M0 ||
           sk == CVM_SK_MXINT8;
}

/* 1 when type `tid` is or includes (vectors, arrays, structs, matrices;
 * not through pointers) a microscaling format; *o_kind gets one. */
static int type_has_mx(const cvm_lower *lw, uint32_t tid, int depth, uint8_t *o_kind)
{
    const cvm_type *t = cvm_lower_type(lw, tid);
    if (depth > 32)
        return 0;
    switch (t->tclass) {
    case CVM_TC_FLOAT:
        if (is_mx_kind(t->sk)) {
            *o_kind = t->sk;
            return 1;
        }
        return 0;
    case CVM_TC_VECTOR:
    case CVM_TC_MATRIX:
    case CVM_TC_ARRAY:
    case CVM_TC_COOPMAT:
        return type_has_mx(lw, t->elem, depth + 1, o_kind);
    case CVM_TC_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++)
            if (type_has_mx(lw, t->member_types[i], depth + 1, o_kind))
                return 1;
        return 0;
    default:
        return 0;
    }
}

static const char *encoding_name(uint8_t sk)
{
    switch (sk) {
    case CVM_SK_E2M1: return "Float4E2M1EXT";
    case CVM_SK_E2M3: return "Float6E2M3EXT";
    case CVM_SK_E3M2: return "Float6E3M2EXT";
    case CVM_SK_E8M0: return "Float8UnsignedE8M0EXT";
    default: return "MXInt8EXT";
    }
}

static int class_allowed(const char *c)
{
    static const char *const ok[] = {"Constant-Creation", "Memory", "Function", "Conversion",
                                     "Composite", "Annotation", "Debug", "Miscellaneous",
                                     "Extension", "Mode-Setting"};
    for (size_t i = 0; i < CVM_ARRAY_SIZE(ok); i++)
        if (!strcmp(c, ok[i]))
            return 1;
    return 0;
}

cvm_result cvm_microscaling_check_use(cvm_lower *lw, const spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpSelect: case SpvOpPhi: case SpvOpReturnValue: case SpvOpLifetimeStart:
    case SpvOpLifetimeStop:
        return CVM_SUCCESS;
    default:
        break;
    }
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!d || class_allowed(d->op_class ? d->op_class : ""))
        return CVM_SUCCESS;
    /* The result type and the leading id operands (every operand that an
     * arithmetic, relational, atomic, group or matrix instruction gives a
     * value through comes before its first literal). */
    uint32_t w = 1;
    uint8_t kind = 0;
    int found = 0;
    for (uint16_t k = 0; k < d->num_operands && w < in->word_count && !found; k++) {
        uint16_t kd = d->operands[k].kind;
        if (kd == SPV_OPERAND_IdResult) {
            w++;
            continue;
        }
        if (kd != SPV_OPERAND_IdResultType && kd != SPV_OPERAND_IdRef &&
            kd != SPV_OPERAND_IdScope && kd != SPV_OPERAND_IdMemorySemantics)
            break;
        do {
            uint32_t id = in->words[w++];
            uint32_t tid = kd == SPV_OPERAND_IdResultType ? id : cvm_lower_type_of(lw, id);
            found = type_has_mx(lw, tid, 0, &kind);
        } while (!found && d->operands[k].quantifier == SPV_QUANT_VARIABLE && w < in->word_count);
    }
    if (!found)
        return CVM_SUCCESS;
    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                          "values of %s may only be used with constant, memory, function, "
                          "conversion, composite and a few other instructions "
                          "(SPV_EXT_ocp_microscaling_types)",
                          encoding_name(kind));
}

/* ---- OpBitcastExtractEXT ---------------------------------------------------- */

/* in->a Base, in->b Offset, in->sk the result component kind, in->sk2
 * Base's, in->ncomp components.  "The bits of 'Base' numbered in
 * ['Offset', 'Offset' + Bitwidth(ComponentsOf('Result Type')) - 1] become
 * the bits of the result.  Results are computed per component."  Past
 * Base's width the text leaves the value undefined: coopvm gives 0. */
static cvm_result h_bitcast_extract(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_program *p = ex->prog;
    cvm_val r = ex->vals[in->result], base = ex->vals[in->a], off = ex->vals[in->b];
    unsigned rs = cvm_sk_size((cvm_scalar_kind)in->sk), bs = cvm_sk_size((cvm_scalar_kind)in->sk2);
    unsigned rbits = cvm_sk_bits((cvm_scalar_kind)in->sk), bbits = 8 * bs;
    unsigned os = p->types[p->mod->defs[in->b].type].size;
    uint64_t mask = rbits >= 64 ? UINT64_MAX : (UINT64_C(1) << rbits) - 1;
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t o = 0;
        memcpy(&o, CVM_LANE(off, l), os);
        for (uint32_t k = 0; k < in->ncomp; k++) {
            uint64_t v = 0;
            memcpy(&v, CVM_LANE(base, l) + (size_t)k * bs, bs);
            uint64_t bits = (o < bbits && o + rbits <= bbits) ? (v >> o) & mask : 0;
            memcpy(CVM_LANE(r, l) + (size_t)k * rs, &bits, rs);
        }
    }
    return CVM_SUCCESS;
}

static uint32_t components(const cvm_type *t)
{
    return t->tclass == CVM_TC_VECTOR ? t->count : 1;
}

cvm_result cvm_lower_microscaling(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    if (in->opcode != SpvOpBitcastExtractEXT)
        return CVM_ERROR_NOT_FOUND;
    const uint32_t *w = in->words;
    if (in->word_count != 5)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "wrong operand count");
    const cvm_type *rt = cvm_lower_type(lw, w[1]);
    const cvm_type *bt = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
    const cvm_type *ot = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]));
    const cvm_type *re = rt->tclass == CVM_TC_VECTOR ? cvm_lower_type(lw, rt->elem) : rt;
    const cvm_type *be = bt->tclass == CVM_TC_VECTOR ? cvm_lower_type(lw, bt->elem) : bt;
    if ((re->tclass != CVM_TC_INT && re->tclass != CVM_TC_FLOAT) ||
        (be->tclass != CVM_TC_INT && be->tclass != CVM_TC_FLOAT))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Result Type and Base must be scalars or vectors of numerical type");
    if (components(rt) != components(bt))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Result Type has %u components, Base %u", components(rt),
                              components(bt));
    if (cvm_sk_bits((cvm_scalar_kind)be->sk) <= cvm_sk_bits((cvm_scalar_kind)re->sk))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Base components (%u bits) must be wider than the result's (%u)",
                              cvm_sk_bits((cvm_scalar_kind)be->sk),
                              cvm_sk_bits((cvm_scalar_kind)re->sk));
    if (ot->tclass != CVM_TC_INT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Offset must be a scalar integer");
    out->a = w[3];
    out->b = w[4];
    out->sk = re->sk;
    out->sk2 = be->sk;
    out->ncomp = components(rt);
    out->fn = h_bitcast_extract;
    return CVM_SUCCESS;
}
