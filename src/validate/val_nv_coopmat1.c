/* SPV_NV_cooperative_matrix (version 1, revision 3): the rules of its text,
 * one check per row of rules.h.  The engine runs these matrices
 * (exec/lower.c), so the validator holds them to their own text, which
 * differs from SPV_KHR_cooperative_matrix's: no Use, any integer type for
 * Rows and Columns, no OpFMul/OpIMul, a boolean ColumnMajor operand. */
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

/* The shape of an OpTypeCooperativeMatrixNV (0 when `type` is not one). */
typedef struct nv1_mat {
    uint32_t component, scope_id, rows_id, cols_id;
} nv1_mat;

static int nv1_type(const val_ctx *v, uint32_t type, nv1_mat *o)
{
    spv_inst in;
    if (val_opcode(v, type) != SpvOpTypeCooperativeMatrixNV || !val_def(v, type, &in) ||
        in.word_count < 6)
        return 0;
    o->component = in.words[2];
    o->scope_id = in.words[3];
    o->rows_id = in.words[4];
    o->cols_id = in.words[5];
    return 1;
}

static int nv1_of(const val_ctx *v, uint32_t id, nv1_mat *o)
{
    return nv1_type(v, val_type_of(v, id), o);
}

/* ---- module rules -------------------------------------------------------------------- */

int nv1_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (val_declares_cap(v, SpvCapabilityCooperativeMatrixNV) && !val_version_at_least(v, 1, 3))
        return val_fail(v, "the module declares CooperativeMatrixNV in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int nv1_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (val_declares_cap(v, SpvCapabilityCooperativeMatrixNV) &&
        !val_has_ext(v, "SPV_NV_cooperative_matrix"))
        return val_fail(v, "CooperativeMatrixNV is declared without OpExtension "
                           "\"SPV_NV_cooperative_matrix\"");
    return 1;
}

/* ---- OpTypeCooperativeMatrixNV --------------------------------------------------------- */

int nv1_type_component(val_ctx *v, const spv_inst *in)
{
    if (!val_is_numeric_scalar(v, in->words[2]))
        return val_fail(v, "Component Type %%%u is not a scalar numerical type", in->words[2]);
    return 1;
}

/* "a constant instruction with scalar integer type": any width. */
static int const_int(val_ctx *v, uint32_t id, const char *what)
{
    if (!val_is_constant_inst(v, id) || !val_int_type(v, val_type_of(v, id), NULL, NULL))
        return val_fail(v, "%s %%%u is not a constant instruction with scalar integer type", what,
                        id);
    return 1;
}

int nv1_type_rows(val_ctx *v, const spv_inst *in)
{
    return const_int(v, in->words[4], "Rows");
}

int nv1_type_columns(val_ctx *v, const spv_inst *in)
{
    return const_int(v, in->words[5], "Columns");
}

/* ---- allocation ---------------------------------------------------------------------- */

int nv1_variable_storage(val_ctx *v, const spv_inst *in)
{
    uint32_t sc, pointee;
    if (!val_pointer_type(v, in->words[1], &sc, &pointee) || !pointee ||
        !val_type_contains(v, pointee, SpvOpTypeCooperativeMatrixNV))
        return 1;
    if (sc != SpvStorageClassFunction && sc != SpvStorageClassPrivate) {
        char tmp[16];
        return val_fail(v, "a variable holding an OpTypeCooperativeMatrixNV matrix has storage "
                           "class %s",
                        val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)));
    }
    return 1;
}

/* ---- OpCooperativeMatrixLengthNV ------------------------------------------------------ */

/* The Result Type rule is the KHR one's (khr_length_result): the same words. */

int nv1_length_type(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[3]) != SpvOpTypeCooperativeMatrixNV)
        return val_fail(v, "Type %%%u is not an OpTypeCooperativeMatrixNV", in->words[3]);
    return 1;
}

/* ---- load / store: the Memory Access operand ------------------------------------------- */

/* Load: Result Type, Result, Pointer, Stride, ColumnMajor, Memory Access;
 * store: Pointer, Object, Stride, ColumnMajor, Memory Access. */
int nv1_load_make_available(val_ctx *v, const spv_inst *in)
{
    if (in->word_count > 6 && (in->words[6] & SpvMemoryAccessMakePointerAvailableMask))
        return val_fail(v, "MakePointerAvailable is not valid with OpCooperativeMatrixLoadNV");
    return 1;
}

int nv1_store_make_visible(val_ctx *v, const spv_inst *in)
{
    if (in->word_count > 5 && (in->words[5] & SpvMemoryAccessMakePointerVisibleMask))
        return val_fail(v, "MakePointerVisible is not valid with OpCooperativeMatrixStoreNV");
    return 1;
}

/* ---- composites ---------------------------------------------------------------------- */

int nv1_composite(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpConstantComposite && in->opcode != SpvOpSpecConstantComposite &&
        in->opcode != SpvOpCompositeConstruct)
        return 1;
    nv1_mat m;
    if (in->word_count < 3 || !nv1_type(v, in->words[1], &m))
        return 1;
    uint32_t n = in->word_count - 3u;
    if (n != 1)
        return val_fail(v, "a cooperative matrix takes exactly one Constituent, not %u", n);
    if (val_type_of(v, in->words[3]) != m.component)
        return val_fail(v, "the Constituent %%%u has type %%%u, not the Component Type %%%u",
                        in->words[3], val_type_of(v, in->words[3]), m.component);
    return 1;
}

/* ---- conversions ---------------------------------------------------------------------- */

/* The text's seven conversions, and OpBitcast: glslang emits it for a
 * GL_NV_integer_cooperative_matrix constructor that changes only the
 * signedness (icoopmatNV from ucoopmatNV), and spirv-val accepts it. */
static int is_nv1_conversion(uint16_t op)
{
    switch (op) {
    case SpvOpBitcast:
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpFConvert:
        return 1;
    default:
        return 0;
    }
}

int nv1_convert_shape(val_ctx *v, const spv_inst *in)
{
    if (!is_nv1_conversion(in->opcode) || in->word_count < 4)
        return 1;
    nv1_mat r, o;
    int rm = nv1_type(v, in->words[1], &r), om = nv1_of(v, in->words[3], &o);
    if (!rm && !om)
        return 1;
    if (!rm || !om)
        return val_fail(v, "an OpTypeCooperativeMatrixNV matrix converts only to and from one");
    if (val_same_dim(v, r.scope_id, o.scope_id) == 0)
        return val_fail(v, "the Scope of the result and of the operand differ");
    if (val_same_dim(v, r.rows_id, o.rows_id) == 0 || val_same_dim(v, r.cols_id, o.cols_id) == 0)
        return val_fail(v, "the result and the operand differ in their number of rows or columns");
    return 1;
}

/* ---- OpCooperativeMatrixMulAddNV ----------------------------------------------------- */

static int muladd_mats(val_ctx *v, const spv_inst *in, nv1_mat *r, nv1_mat *a, nv1_mat *b,
                       nv1_mat *c)
{
    return nv1_type(v, in->words[1], r) && nv1_of(v, in->words[3], a) &&
           nv1_of(v, in->words[4], b) && nv1_of(v, in->words[5], c);
}

int nv1_muladd_types(val_ctx *v, const spv_inst *in)
{
    nv1_mat m;
    if (!nv1_type(v, in->words[1], &m))
        return val_fail(v, "the Result Type is not an OpTypeCooperativeMatrixNV");
    static const char *const names[] = {"A", "B", "C"};
    for (uint32_t i = 0; i < 3; i++)
        if (!nv1_of(v, in->words[3 + i], &m))
            return val_fail(v, "'%s' %%%u is not an OpTypeCooperativeMatrixNV matrix", names[i],
                            in->words[3 + i]);
    return 1;
}

int nv1_muladd_shape(val_ctx *v, const spv_inst *in)
{
    nv1_mat r, a, b, c;
    if (!muladd_mats(v, in, &r, &a, &b, &c))
        return 1;
    /* M: rows of A, C, Result; N: columns of B, C, Result; K: columns of A, rows of B. */
    if (val_same_dim(v, a.rows_id, r.rows_id) == 0 || val_same_dim(v, c.rows_id, r.rows_id) == 0)
        return val_fail(v, "M differs between A, C and Result Type");
    if (val_same_dim(v, b.cols_id, r.cols_id) == 0 || val_same_dim(v, c.cols_id, r.cols_id) == 0)
        return val_fail(v, "N differs between B, C and Result Type");
    if (val_same_dim(v, a.cols_id, b.rows_id) == 0)
        return val_fail(v, "K differs between A's columns and B's rows");
    return 1;
}

int nv1_muladd_scope(val_ctx *v, const spv_inst *in)
{
    nv1_mat r, a, b, c;
    if (!muladd_mats(v, in, &r, &a, &b, &c))
        return 1;
    if (val_same_dim(v, a.scope_id, r.scope_id) == 0 ||
        val_same_dim(v, b.scope_id, r.scope_id) == 0 || val_same_dim(v, c.scope_id, r.scope_id) == 0)
        return val_fail(v, "A, B, C and Result Type do not have one Scope");
    return 1;
}

/* ---- arithmetic ---------------------------------------------------------------------- */

int nv1_arith_allowed(val_ctx *v, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!d || !val_touches_type(v, in, SpvOpTypeCooperativeMatrixNV))
        return 1;
    if (strcmp(d->op_class, "Arithmetic") && strcmp(d->op_class, "Bit") &&
        strcmp(d->op_class, "Relational_and_Logical") && strcmp(d->op_class, "Derivative") &&
        strcmp(d->op_class, "Conversion"))
        return 1;
    switch (in->opcode) {
    case SpvOpSNegate:
    case SpvOpFNegate:
    case SpvOpIAdd:
    case SpvOpFAdd:
    case SpvOpISub:
    case SpvOpFSub:
    case SpvOpFDiv:
    case SpvOpSDiv:
    case SpvOpUDiv:
    case SpvOpMatrixTimesScalar:
    case SpvOpCooperativeMatrixMulAddNV:
    case SpvOpSelect: /* SPIR-V 1.4: any composite; a cooperative matrix is one */
        return 1;
    default:
        if (is_nv1_conversion(in->opcode))
            return 1;
        return val_fail(v, "%s does not take OpTypeCooperativeMatrixNV matrices", d->name);
    }
}

int nv1_arith_types(val_ctx *v, const spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpSNegate:
    case SpvOpFNegate:
    case SpvOpIAdd:
    case SpvOpFAdd:
    case SpvOpISub:
    case SpvOpFSub:
    case SpvOpFDiv:
    case SpvOpSDiv:
    case SpvOpUDiv:
        break;
    default:
        return 1;
    }
    if (!val_touches_type(v, in, SpvOpTypeCooperativeMatrixNV))
        return 1;
    for (uint32_t i = 3; i < in->word_count; i++)
        if (val_type_of(v, in->words[i]) != in->words[1])
            return val_fail(v, "operand %%%u has type %%%u; the operands and the result must "
                               "have one cooperative matrix type",
                            in->words[i], val_type_of(v, in->words[i]));
    return 1;
}

int nv1_matrix_times_scalar(val_ctx *v, const spv_inst *in)
{
    nv1_mat m;
    if (in->word_count < 5 || !nv1_of(v, in->words[3], &m))
        return 1;
    if (val_type_of(v, in->words[3]) != in->words[1])
        return val_fail(v, "the Result Type is not the type of Matrix");
    if (val_type_of(v, in->words[4]) != m.component)
        return val_fail(v, "Scalar has type %%%u, not the Component Type %%%u",
                        val_type_of(v, in->words[4]), m.component);
    return 1;
}
