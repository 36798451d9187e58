/* NonSemantic.Shader.DebugInfo, version 101 (revision 2): the debug type of
 * a cooperative matrix (DebugTypeCooperativeMatrixKHR) and of a vector sized
 * by an <id> (DebugTypeVectorIdEXT, also cooperative vectors).  The rest of
 * the instruction set is left alone: it has no semantic impact, and the
 * engine reads only DebugLine / DebugNoLine from it (spirv/module.c). */
#include <stdlib.h>
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

/* Instruction numbers of the set (its Instruction Enumeration). */
enum {
    DI_INFO_NONE = 0,
    DI_TYPE_BASIC = 2,
    DI_TYPE_VECTOR_ID = 109,
    DI_TYPE_COOP_MATRIX = 110,
};

/* The version N of an OpExtInstImport "NonSemantic.Shader.DebugInfo.N"
 * (0 when `set` is not one). */
static unsigned long di_version(const val_ctx *v, uint32_t set)
{
    static const char prefix[] = "NonSemantic.Shader.DebugInfo.";
    spv_inst in;
    const char *s;
    if (!val_def(v, set, &in) || in.opcode != SpvOpExtInstImport || !spv_inst_string(&in, 2, &s) ||
        strncmp(s, prefix, sizeof(prefix) - 1))
        return 0;
    return strtoul(s + sizeof(prefix) - 1, NULL, 10);
}

/* The instruction number of `id` when it is an OpExtInst of `set`, else -1. */
static long di_inst(const val_ctx *v, uint32_t id, uint32_t set, spv_inst *o)
{
    if (!val_def(v, id, o) || o->opcode != SpvOpExtInst || o->word_count < 5 || o->words[3] != set)
        return -1;
    return (long)o->words[4];
}

int di_version_101(val_ctx *v, const spv_inst *in)
{
    if (in->word_count < 5)
        return 1;
    unsigned long ver = di_version(v, in->words[3]);
    uint32_t op = in->words[4];
    if (ver && ver < 101 && (op == DI_TYPE_VECTOR_ID || op == DI_TYPE_COOP_MATRIX))
        return val_fail(v, "%s is an instruction of version 101; the set is imported as version %lu",
                        op == DI_TYPE_VECTOR_ID ? "DebugTypeVectorIdEXT"
                                                : "DebugTypeCooperativeMatrixKHR",
                        ver);
    return 1;
}

int di_coop_matrix_component(val_ctx *v, const spv_inst *in)
{
    if (in->word_count < 6 || in->words[4] != DI_TYPE_COOP_MATRIX || !di_version(v, in->words[3]))
        return 1;
    /* "the type of element in the matrix": a matrix's Component Type is a
     * scalar, so its debug type is a DebugTypeBasic (spirv-val also refuses
     * a DebugTypedef of one); DebugInfoNone may stand for any removed
     * instruction ("Removing Instructions"). */
    spv_inst t;
    long k = di_inst(v, in->words[5], in->words[3], &t);
    if (k != DI_TYPE_BASIC && k != DI_INFO_NONE)
        return val_fail(v, "Component Type %%%u is not a DebugTypeBasic", in->words[5]);
    return 1;
}

int di_coop_matrix_operands(val_ctx *v, const spv_inst *in)
{
    if (in->word_count < 5 || in->words[4] != DI_TYPE_COOP_MATRIX || !di_version(v, in->words[3]))
        return 1;
    static const char *const names[] = {"Scope", "Rows", "Columns", "Use"};
    for (uint32_t i = 0; i < 4; i++) {
        if (6 + i >= in->word_count)
            return val_fail(v, "the %s operand is missing", names[i]);
        uint32_t id = in->words[6 + i];
        if (!val_is_constant_inst(v, id) || !val_int_type(v, val_type_of(v, id), NULL, NULL))
            return val_fail(v, "%s %%%u is not a constant instruction with scalar integer type",
                            names[i], id);
    }
    return 1;
}
