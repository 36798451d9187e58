/* OpSpecConstantOp: the inner operation lowered like an ordinary instruction
 * and run once on one lane over constant operands. */
#include <string.h>

#include "exec/program.h"

cvm_result cvm_eval_spec_op(cvm_lower *lw, const spv_inst *in, uint8_t *dst)
{
    const cvm_program *p = cvm_lower_program(lw);
    uint32_t words[64];
    if (in->word_count < 4 || in->word_count - 1u > CVM_ARRAY_SIZE(words))
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "OpSpecConstantOp operands");
    uint32_t n = in->word_count - 1u;
    words[0] = (n << 16) | (in->words[3] & 0xffffu);
    words[1] = in->words[1];
    words[2] = in->words[2];
    for (uint32_t i = 4; i < in->word_count; i++)
        words[i - 1] = in->words[i];
    spv_inst inner = {words, (uint16_t)in->words[3], (uint16_t)n, in->offset};
    cvm_insn insn;
    memset(&insn, 0, sizeof(insn));
    insn.spv_op = inner.opcode;
    insn.word_off = in->offset;
    insn.type = words[1];
    insn.result = words[2];
    static const cvm_lower_family_fn families[] = {cvm_lower_arith, cvm_lower_convert,
                                                   cvm_lower_composite};
    cvm_result r = CVM_ERROR_NOT_FOUND;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(families) && r == CVM_ERROR_NOT_FOUND; i++)
        r = families[i](lw, &inner, &insn);
    if (r == CVM_ERROR_NOT_FOUND)
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "OpSpecConstantOp with opcode %u",
                              inner.opcode);
    if (r != CVM_SUCCESS)
        return r;
    if (!insn.fn)
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "OpSpecConstantOp with opcode %u",
                              inner.opcode);
    if (inner.opcode == SpvOpCooperativeMatrixLengthKHR ||
        inner.opcode == SpvOpCooperativeMatrixLengthNV) {
        /* The elements one invocation owns, L = ceil(M*N / invocations in
         * the scope) (ops/composite.c): a subgroup-scope matrix's in a full
         * subgroup of the size the program runs at (run on one lane it was
         * M*N, and the Vulkan CTS's NV length tests converted 128 to int8).
         * A workgroup's invocation count is not known yet here. */
        const cvm_type *mt = cvm_lower_type(lw, insn.a);
        const char *name = inner.opcode == SpvOpCooperativeMatrixLengthNV
                               ? "CooperativeMatrixLengthNV"
                               : "CooperativeMatrixLengthKHR";
        if (mt->tclass != CVM_TC_COOPMAT || mt->scope != SpvScopeSubgroup)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                  "OpSpecConstantOp %s of a matrix that is not of subgroup scope",
                                  name);
        if (cvm_lower_type(lw, insn.type)->size != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "OpSpecConstantOp %s: the result is not a 32-bit integer", name);
        uint32_t sg = cvm_lower_subgroup_size(lw);
        uint32_t L = (uint32_t)(((uint64_t)mt->rows * mt->cols + sg - 1) / sg);
        memcpy(dst, &L, 4);
        return CVM_SUCCESS;
    }
    cvm_val *vals = cvm_calloc(p->bound, sizeof(cvm_val));
    if (!vals)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t id = 1; id < p->bound; id++)
        if (p->const_offset[id] != UINT64_MAX)
            vals[id].p = p->const_data + p->const_offset[id];
    vals[insn.result].p = dst;
    uint8_t one = 1;
    cvm_exec ex;
    memset(&ex, 0, sizeof(ex));
    ex.prog = p;
    ex.nlanes = 1;
    ex.sg_size = 1;
    ex.nsub = 1;
    ex.active = &one;
    ex.alive = &one;
    ex.nactive = 1;
    ex.vals = vals;
    cvm_diagnostic d;
    cvm_diag_clear(&d);
    ex.diag = &d;
    r = insn.fn(&ex, &insn);
    cvm_mem_free(vals);
    if (r != CVM_SUCCESS)
        return cvm_lower_fail(lw, in, r, "evaluating the constant: %s", d.message);
    return CVM_SUCCESS;
}
