/* SPV_KHR_cooperative_matrix (revision 10): the rules of its text, one
 * check per row of rules.h. */
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

/* ---- shared helpers of the cooperative families --------------------------------- */

int val_cm_declared(const val_ctx *v)
{
    return val_has_cap(v, SpvCapabilityCooperativeMatrixKHR);
}

/* The type of `id` as a cooperative matrix (0 when it is not one). */
int val_cm_of(const val_ctx *v, uint32_t id, val_coopmat *o)
{
    return val_coopmat_type(v, val_type_of(v, id), o);
}

const char *val_use_name(uint64_t use)
{
    switch (use) {
    case 0:
        return "MatrixAKHR";
    case 1:
        return "MatrixBKHR";
    case 2:
        return "MatrixAccumulatorKHR";
    default:
        return "an unknown Use";
    }
}

/* A Use check: 1 when the matrix's Use is known and equal, or unknown (a
 * specialization constant decides). */
int val_cm_use_is(const val_coopmat *cm, uint64_t use)
{
    return !cm->use_known || cm->use == use;
}

/* 1 when `ptr` (a pointer value) points into an array: it comes from an
 * access chain whose last index selects an array element, from
 * OpPtrAccessChain, or from something whose target is not known here
 * (a parameter, a converted integer, a loaded pointer).  Also 1 when it
 * points *to* an array (its pointee is OpTypeArray or OpTypeRuntimeArray:
 * the runtime array of a Block, as SPIRV-Tools' own tests of
 * OpCooperativeMatrixLoadTensorNV pass it; the memory is the array's either
 * way, and its first element is where the operation starts) and when it is
 * an untyped pointer (SPV_KHR_untyped_pointers: no pointee type says what
 * the memory is; an OpUntypedVariableKHR of a Block is the memory of its
 * runtime array).  0 when it is the address of a whole variable or of a
 * structure member or vector component that is not an array. */
int val_points_into_array(const val_ctx *v, uint32_t ptr)
{
    uint32_t ptype = val_type_of(v, ptr), pointee = 0;
    if (val_opcode(v, ptype) == SpvOpTypeUntypedPointerKHR)
        return 1;
    if (val_pointer_type(v, ptype, NULL, &pointee) &&
        (val_opcode(v, pointee) == SpvOpTypeArray ||
         val_opcode(v, pointee) == SpvOpTypeRuntimeArray))
        return 1;
    for (int steps = 0; steps < 64; steps++) {
        spv_inst in;
        if (!val_def(v, ptr, &in))
            return 1;
        switch (in.opcode) {
        case SpvOpCopyObject:
            ptr = in.words[3];
            continue;
        case SpvOpVariable:
        case SpvOpUntypedVariableKHR:
            return 0;
        case SpvOpPtrAccessChain:
        case SpvOpInBoundsPtrAccessChain:
        case SpvOpUntypedPtrAccessChainKHR:
        case SpvOpUntypedInBoundsPtrAccessChainKHR:
            return 1;
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain: {
            if (in.word_count <= 4) {
                ptr = in.words[3]; /* no index: the base itself */
                continue;
            }
            /* The composite the last index selects from. */
            uint32_t cur;
            if (!val_pointer_type(v, val_type_of(v, in.words[3]), NULL, &cur) || !cur)
                return 1;
            for (uint32_t i = 4; i + 1 < in.word_count; i++) {
                spv_inst t;
                uint64_t idx;
                uint32_t elem;
                switch (val_opcode(v, cur)) {
                case SpvOpTypeStruct:
                    if (!val_const_value(v, in.words[i], &idx) || !val_def(v, cur, &t) ||
                        idx + 2 >= t.word_count)
                        return 1;
                    cur = t.words[2 + idx];
                    break;
                case SpvOpTypeArray:
                case SpvOpTypeRuntimeArray:
                    val_array_type(v, cur, &elem, NULL);
                    cur = elem;
                    break;
                case SpvOpTypeVector:
                case SpvOpTypeMatrix:
                    if (!val_def(v, cur, &t))
                        return 1;
                    cur = t.words[2];
                    break;
                default:
                    return 1;
                }
            }
            uint16_t last = val_opcode(v, cur);
            return last == SpvOpTypeArray || last == SpvOpTypeRuntimeArray;
        }
        default:
            return 1;
        }
    }
    return 1;
}

/* ---- module rules ---------------------------------------------------------------- */

/* The module rules of this text apply when OpCapability CooperativeMatrixKHR
 * is declared explicitly.  BFloat16CooperativeMatrixKHR (SPV_KHR_bfloat16)
 * and Float8CooperativeMatrixEXT (SPV_EXT_float8) declare it implicitly:
 * a module declaring only those is under its own extension's Dependencies
 * (SPV_KHR_bfloat16 and SPV_EXT_float8 "interact with"
 * SPV_KHR_cooperative_matrix, they do not require it), and SPIRV-Tools' validator
 * tests accept such modules without OpExtension "SPV_KHR_cooperative_matrix"
 * or VulkanMemoryModel, with and without a cooperative matrix type
 * (tests/validate/README.md). */
static int khr_declared_explicitly(const val_ctx *v)
{
    return val_declares_cap(v, SpvCapabilityCooperativeMatrixKHR);
}

int khr_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (khr_declared_explicitly(v) && !val_version_at_least(v, 1, 3))
        return val_fail(v, "the module declares CooperativeMatrixKHR in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int khr_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (khr_declared_explicitly(v) && !val_has_ext(v, "SPV_KHR_cooperative_matrix"))
        return val_fail(v, "CooperativeMatrixKHR is declared without OpExtension "
                           "\"SPV_KHR_cooperative_matrix\"");
    return 1;
}

int khr_vulkan_memory_model(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (khr_declared_explicitly(v) && val_has_cap(v, SpvCapabilityShader) &&
        !val_has_cap(v, SpvCapabilityVulkanMemoryModel))
        return val_fail(v, "CooperativeMatrixKHR is declared without VulkanMemoryModel");
    return 1;
}

/* ---- allocation, operands, scope ---------------------------------------------------- */

int khr_variable_storage(val_ctx *v, const spv_inst *in)
{
    uint32_t sc, pointee;
    if (!val_pointer_type(v, in->words[1], &sc, &pointee) || !pointee)
        return 1;
    if (!val_type_contains(v, pointee, SpvOpTypeCooperativeMatrixKHR))
        return 1;
    if (sc != SpvStorageClassFunction && sc != SpvStorageClassPrivate) {
        char tmp[16];
        return val_fail(v, "a variable holding a cooperative matrix has storage class %s",
                        val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)));
    }
    return 1;
}

int khr_signed_components(val_ctx *v, const spv_inst *in)
{
    if (in->word_count < 7)
        return 1;
    uint32_t mask = in->words[6];
    static const struct {
        uint32_t bit;
        uint32_t word; /* 1: Result Type, else the operand word */
        const char *name;
    } m[] = {{SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask, 3, "A"},
             {SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask, 4, "B"},
             {SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask, 5, "C"},
             {SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask, 1, "Result"}};
    for (size_t i = 0; i < CVM_ARRAY_SIZE(m); i++) {
        if (!(mask & m[i].bit))
            continue;
        uint32_t t = m[i].word == 1 ? in->words[1] : val_type_of(v, in->words[m[i].word]);
        val_coopmat cm;
        if (val_coopmat_type(v, t, &cm) && !val_int_type(v, cm.component, NULL, NULL))
            return val_fail(v, "Matrix%sSignedComponentsKHR on a matrix whose components are "
                               "not integers",
                            m[i].name);
    }
    return 1;
}

int khr_scope_constant(val_ctx *v, const spv_inst *in)
{
    /* The Scope of OpTypeCooperativeMatrixKHR has its own row (Type-Scope). */
    if (!val_has_cap(v, SpvCapabilityShader) || in->opcode == SpvOpTypeCooperativeMatrixKHR)
        return 1;
    const val_operand *ops;
    const char *why;
    int n = val_operands(v, in, &ops, &why);
    for (int i = 0; i < n; i++) {
        if (ops[i].kind != SPV_OPERAND_IdScope)
            continue;
        uint32_t id = in->words[ops[i].word];
        if (!val_is_constant_inst(v, id) || !val_is_int_scalar(v, val_type_of(v, id), 32))
            return val_fail(v, "Scope %%%u is not a constant instruction of a 32-bit integer type",
                            id);
    }
    return 1;
}

int khr_semantics_constant(val_ctx *v, const spv_inst *in)
{
    if (!val_has_cap(v, SpvCapabilityShader))
        return 1;
    const val_operand *ops;
    const char *why;
    int n = val_operands(v, in, &ops, &why);
    for (int i = 0; i < n; i++) {
        if (ops[i].kind != SPV_OPERAND_IdMemorySemantics)
            continue;
        uint32_t id = in->words[ops[i].word];
        /* SPV_NV_cooperative_matrix relaxes the same sentence to "the
         * result of a constant instruction" (specialization constants
         * included) when CooperativeMatrixNV is declared. */
        int nv = val_has_cap(v, SpvCapabilityCooperativeMatrixNV);
        if (!(nv ? val_is_constant_inst(v, id) : val_opcode(v, id) == SpvOpConstant) ||
            !val_is_int_scalar(v, val_type_of(v, id), 32))
            return val_fail(v, "Memory Semantics %%%u is not %s of a 32-bit integer type", id,
                            nv ? "a constant instruction (CooperativeMatrixNV)" : "an OpConstant");
    }
    return 1;
}

/* The Memory Operand mask of a load/store, or 0. */
static uint32_t memory_operand(const spv_inst *in, uint32_t word)
{
    return word < in->word_count ? in->words[word] : 0;
}

int khr_load_make_available(val_ctx *v, const spv_inst *in)
{
    if (memory_operand(in, 6) & SpvMemoryAccessMakePointerAvailableMask)
        return val_fail(v, "MakePointerAvailable is not valid with OpCooperativeMatrixLoadKHR");
    return 1;
}

int khr_store_make_visible(val_ctx *v, const spv_inst *in)
{
    if (memory_operand(in, 5) & SpvMemoryAccessMakePointerVisibleMask)
        return val_fail(v, "MakePointerVisible is not valid with OpCooperativeMatrixStoreKHR");
    return 1;
}

/* ---- OpCooperativeMatrixLengthKHR ------------------------------------------------ */

int khr_length_result(val_ctx *v, const spv_inst *in)
{
    uint32_t w, s;
    if (!val_int_type(v, in->words[1], &w, &s) || w != 32 || s != 0)
        return val_fail(v, "the Result Type %%%u is not OpTypeInt 32 0", in->words[1]);
    return 1;
}

int khr_length_type(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[3]) != SpvOpTypeCooperativeMatrixKHR)
        return val_fail(v, "Type %%%u is not a cooperative matrix type", in->words[3]);
    return 1;
}

/* ---- OpTypeCooperativeMatrixKHR --------------------------------------------------- */

int khr_type_component(val_ctx *v, const spv_inst *in)
{
    if (!val_is_numeric_scalar(v, in->words[2]))
        return val_fail(v, "Component Type %%%u is not a scalar numerical type", in->words[2]);
    return 1;
}

static int const_int32(val_ctx *v, uint32_t id, const char *what)
{
    if (!val_is_constant_inst(v, id) || !val_is_int_scalar(v, val_type_of(v, id), 32))
        return val_fail(v, "%s %%%u is not a constant instruction of a scalar 32-bit integer type",
                        what, id);
    return 1;
}

int khr_type_scope(val_ctx *v, const spv_inst *in)
{
    return const_int32(v, in->words[3], "Scope");
}

int khr_type_rows(val_ctx *v, const spv_inst *in)
{
    return const_int32(v, in->words[4], "Rows");
}

int khr_type_columns(val_ctx *v, const spv_inst *in)
{
    return const_int32(v, in->words[5], "Columns");
}

int khr_type_use(val_ctx *v, const spv_inst *in)
{
    if (!const_int32(v, in->words[6], "Use"))
        return 0;
    uint64_t use;
    if (val_const_value(v, in->words[6], &use) && use > 2)
        return val_fail(v, "Use is %llu, not a Cooperative Matrix Use (0, 1 or 2)",
                        (unsigned long long)use);
    return 1;
}

/* ---- composites ------------------------------------------------------------------ */

static int one_constituent(val_ctx *v, const spv_inst *in)
{
    val_coopmat cm;
    if (!val_coopmat_type(v, in->words[1], &cm))
        return 1;
    uint32_t n = in->word_count - 3u;
    if (n != 1)
        return val_fail(v, "a cooperative matrix takes exactly one Constituent, not %u", n);
    if (val_type_of(v, in->words[3]) != cm.component)
        return val_fail(v, "the Constituent %%%u has type %%%u, not the Component Type %%%u",
                        in->words[3], val_type_of(v, in->words[3]), cm.component);
    return 1;
}

int khr_constant_composite(val_ctx *v, const spv_inst *in)
{
    return one_constituent(v, in);
}

int khr_composite_construct(val_ctx *v, const spv_inst *in)
{
    return one_constituent(v, in);
}

/* ---- load / store ----------------------------------------------------------------- */

/* Word positions: load has Result Type, Result, Pointer, MemoryLayout,
 * Stride, Memory Operand; store has Pointer, Object, MemoryLayout, Stride,
 * Memory Operand. */
typedef struct ls_words {
    uint32_t pointer, layout, stride;
} ls_words;

static ls_words ls_of(const spv_inst *in)
{
    ls_words w;
    if (in->opcode == SpvOpCooperativeMatrixLoadKHR) {
        w.pointer = 3;
        w.layout = 4;
        w.stride = 5;
    } else {
        w.pointer = 1;
        w.layout = 3;
        w.stride = 4;
    }
    return w;
}

int khr_load_result(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[1]) != SpvOpTypeCooperativeMatrixKHR)
        return val_fail(v, "the Result Type %%%u is not a cooperative matrix type", in->words[1]);
    return 1;
}

int khr_store_object(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, val_type_of(v, in->words[2])) != SpvOpTypeCooperativeMatrixKHR)
        return val_fail(v, "Object %%%u is not a cooperative matrix", in->words[2]);
    return 1;
}

int khr_ls_pointer(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    uint32_t ptr = in->words[w.pointer], pointee;
    uint16_t top = val_opcode(v, val_type_of(v, ptr));
    if (top == SpvOpTypeUntypedPointerKHR)
        return 1;
    if (top != SpvOpTypePointer || !val_pointer_type(v, val_type_of(v, ptr), NULL, &pointee))
        return val_fail(v, "Pointer %%%u is not an OpTypePointer", ptr);
    uint32_t comp, count;
    if (!val_is_numeric_scalar(v, pointee) && !val_is_bool(v, pointee) &&
        !val_vector_type(v, pointee, &comp, &count))
        return val_fail(v, "Pointer %%%u points to %%%u (%s), not to a scalar or vector", ptr,
                        pointee, val_op_name(val_opcode(v, pointee)));
    return 1;
}

int khr_ls_pointer_array(val_ctx *v, const spv_inst *in)
{
    if (!val_has_cap(v, SpvCapabilityShader))
        return 1;
    ls_words w = ls_of(in);
    if (!val_points_into_array(v, in->words[w.pointer]))
        return val_fail(v, "Pointer %%%u does not point into an array", in->words[w.pointer]);
    return 1;
}

int khr_ls_layout(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    uint32_t id = in->words[w.layout];
    if (!const_int32(v, id, "MemoryLayout"))
        return 0;
    uint64_t layout;
    if (!val_const_value(v, id, &layout))
        return 1;
    const spv_enumerant_desc *e =
        layout <= UINT32_MAX
            ? spv_grammar_enumerant(SPV_OPERAND_CooperativeMatrixLayout, (uint32_t)layout)
            : NULL;
    if (!e)
        return val_fail(v, "MemoryLayout is %llu, not a Cooperative Matrix Layout",
                        (unsigned long long)layout);
    for (uint16_t i = 0; i < e->num_capabilities; i++)
        if (!val_has_cap(v, e->capabilities[i])) {
            char tmp[16];
            return val_fail(v, "the layout %s needs the capability %s", e->name,
                            val_enum_name(SPV_OPERAND_Capability, e->capabilities[i], tmp,
                                          sizeof(tmp)));
        }
    return 1;
}

int khr_ls_stride_type(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    if (w.stride < in->word_count && !val_is_int_scalar(v, val_type_of(v, in->words[w.stride]), 0))
        return val_fail(v, "Stride %%%u is not of a scalar integer type", in->words[w.stride]);
    return 1;
}

int khr_ls_stride_required(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    uint64_t layout;
    if (w.stride >= in->word_count && val_const_value(v, in->words[w.layout], &layout) &&
        (layout == 0 || layout == 1))
        return val_fail(v, "the %s layout needs a Stride operand",
                        layout == 0 ? "RowMajorKHR" : "ColumnMajorKHR");
    return 1;
}

int khr_ls_stride_value(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    uint64_t layout, stride;
    uint32_t sign = 0;
    if (w.stride >= in->word_count || !val_const_value(v, in->words[w.layout], &layout) ||
        (layout != 0 && layout != 1) || !val_const_value(v, in->words[w.stride], &stride))
        return 1;
    val_int_type(v, val_type_of(v, in->words[w.stride]), NULL, &sign);
    int64_t s = (int64_t)stride;
    int negative = sign && s < 0;
    if (in->opcode == SpvOpCooperativeMatrixStoreKHR && (negative || stride == 0))
        return val_fail(v, "Stride is %lld; a store needs a Stride greater than 0",
                        (long long)(sign ? s : (int64_t)stride));
    if (in->opcode == SpvOpCooperativeMatrixLoadKHR && negative)
        return val_fail(v, "Stride is %lld; a load needs a Stride of at least 0", (long long)s);
    return 1;
}

/* ---- SPV_KHR_bfloat16, SPV_EXT_float8 --------------------------------------------- */

/* The FP encoding of the scalars of a scalar, vector, matrix or cooperative
 * matrix type: VAL_NONE for IEEE 754 (or not a float). */
static uint32_t float_encoding(const val_ctx *v, uint32_t type)
{
    if (val_opcode(v, type) == SpvOpTypeMatrix) {
        spv_inst m;
        if (!val_def(v, type, &m) || m.word_count < 3)
            return VAL_NONE;
        type = m.words[2];
    }
    uint32_t enc = VAL_NONE;
    if (!val_float_type(v, val_component_type(v, type), NULL, &enc))
        return VAL_NONE;
    return enc;
}

static int is_fp8(uint32_t enc)
{
    return enc == SpvFPEncodingFloat8E4M3EXT || enc == SpvFPEncodingFloat8E5M2EXT;
}

static int matrix_capability(val_ctx *v, const spv_inst *in, int fp8)
{
    val_coopmat cm;
    uint32_t enc = VAL_NONE;
    if (!val_coopmat_type(v, in->words[1], &cm) ||
        !val_float_type(v, cm.component, NULL, &enc) ||
        !(fp8 ? is_fp8(enc) : enc == SpvFPEncodingBFloat16KHR))
        return 1;
    uint32_t cap = fp8 ? SpvCapabilityFloat8CooperativeMatrixEXT
                       : SpvCapabilityBFloat16CooperativeMatrixKHR;
    if (!val_has_cap(v, cap))
        return val_fail(v, "a cooperative matrix of %s components needs the %s capability",
                        fp8 ? "8-bit float" : "bfloat16",
                        fp8 ? "Float8CooperativeMatrixEXT" : "BFloat16CooperativeMatrixKHR");
    return 1;
}

int bf16_matrix_capability(val_ctx *v, const spv_inst *in)
{
    return matrix_capability(v, in, 0);
}

int fp8_matrix_capability(val_ctx *v, const spv_inst *in)
{
    return matrix_capability(v, in, 1);
}

/* The floating-point arithmetic instructions, whose Result Type may hold
 * no bfloat16 or 8-bit float (the conversions, MulAdd, loads and stores,
 * composites and OpDot with BFloat16DotProductKHR are how those types are
 * used). */
static int special_arith(val_ctx *v, const spv_inst *in, int fp8)
{
    switch (in->opcode) {
    case SpvOpFNegate:
    case SpvOpFAdd:
    case SpvOpFSub:
    case SpvOpFMul:
    case SpvOpFDiv:
    case SpvOpFRem:
    case SpvOpFMod:
    case SpvOpVectorTimesScalar:
    case SpvOpMatrixTimesScalar:
    case SpvOpVectorTimesMatrix:
    case SpvOpMatrixTimesVector:
    case SpvOpMatrixTimesMatrix:
    case SpvOpOuterProduct:
        break;
    default:
        return 1;
    }
    uint32_t enc = float_encoding(v, in->words[1]);
    if (fp8 ? is_fp8(enc) : enc == SpvFPEncodingBFloat16KHR)
        return val_fail(v, "%s does not take %s values", val_op_name(in->opcode),
                        fp8 ? "8-bit float (Float8E4M3EXT, Float8E5M2EXT)" : "bfloat16");
    return 1;
}

int bf16_arith(val_ctx *v, const spv_inst *in)
{
    return special_arith(v, in, 0);
}

int fp8_arith(val_ctx *v, const spv_inst *in)
{
    return special_arith(v, in, 1);
}

/* ---- SPV_ARM_cooperative_matrix_layouts ------------------------------------------- */

/* 1 and the layout when MemoryLayout is a known RowBlockedInterleavedARM or
 * ColumnBlockedInterleavedARM. */
static int arm_layout(const val_ctx *v, const spv_inst *in, uint64_t *o_layout)
{
    return val_const_value(v, in->words[ls_of(in).layout], o_layout) &&
           (*o_layout == SpvCooperativeMatrixLayoutRowBlockedInterleavedARM ||
            *o_layout == SpvCooperativeMatrixLayoutColumnBlockedInterleavedARM);
}

static const char *arm_name(uint64_t layout)
{
    return layout == SpvCooperativeMatrixLayoutRowBlockedInterleavedARM
               ? "RowBlockedInterleavedARM"
               : "ColumnBlockedInterleavedARM";
}

int arm_ls_stride(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    uint64_t layout, stride;
    if (!arm_layout(v, in, &layout))
        return 1;
    if (w.stride >= in->word_count)
        return val_fail(v, "the %s layout needs a Stride operand", arm_name(layout));
    uint32_t id = in->words[w.stride];
    if (!val_is_constant_inst(v, id))
        return val_fail(v, "with the %s layout, Stride %%%u must come from a constant instruction",
                        arm_name(layout), id);
    if (val_const_value(v, id, &stride) && stride != 1 && stride != 2 && stride != 4)
        return val_fail(v, "with the %s layout, Stride is %llu, not 1, 2 or 4", arm_name(layout),
                        (unsigned long long)stride);
    return 1;
}

int arm_ls_shape(val_ctx *v, const spv_inst *in)
{
    ls_words w = ls_of(in);
    uint64_t layout, stride;
    if (!arm_layout(v, in, &layout) || w.stride >= in->word_count ||
        !val_const_value(v, in->words[w.stride], &stride) || stride == 0 || stride > 4)
        return 1;
    uint32_t t = in->opcode == SpvOpCooperativeMatrixLoadKHR ? in->words[1]
                                                              : val_type_of(v, in->words[2]);
    val_coopmat cm;
    uint32_t width = 0;
    if (!val_coopmat_type(v, t, &cm) ||
        !(val_int_type(v, cm.component, &width, NULL) ||
          val_float_type(v, cm.component, &width, NULL)) ||
        width < 8 || width > 128)
        return 1;
    uint64_t bcols = 16 / (width / 8);
    int rowb = layout == SpvCooperativeMatrixLayoutRowBlockedInterleavedARM;
    uint64_t rm = rowb ? 4 : 4 * stride, cmul = rowb ? bcols * stride : bcols;
    if ((cm.rows_known && cm.rows % rm) || (cm.cols_known && cm.cols % cmul))
        return val_fail(v, "a %llux%llu matrix of %u-bit components with %s and Stride %llu: "
                           "Rows must be a multiple of %llu and Columns of %llu",
                        (unsigned long long)cm.rows, (unsigned long long)cm.cols, width,
                        arm_name(layout), (unsigned long long)stride, (unsigned long long)rm,
                        (unsigned long long)cmul);
    return 1;
}

/* ---- conversions ------------------------------------------------------------------ */

static int is_conversion(uint16_t op)
{
    switch (op) {
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpFConvert:
    case SpvOpBitcast:
        return 1;
    default:
        return 0;
    }
}

int khr_convert_shape(val_ctx *v, const spv_inst *in)
{
    if (!is_conversion(in->opcode))
        return 1;
    val_coopmat r, o;
    int rm = val_coopmat_type(v, in->words[1], &r), om = val_cm_of(v, in->words[3], &o);
    if (!rm && !om)
        return 1;
    if (!rm || !om)
        return val_fail(v, "a cooperative matrix converts only to and from a cooperative matrix");
    if (val_same_dim(v, r.scope_id, o.scope_id) == 0)
        return val_fail(v, "the Scope of the result and of the operand differ");
    /* SPV_EXT_cooperative_matrix_maintenance1 3.49.11: with
     * CooperativeMatrixConversionsEXT a conversion (not OpBitcast) may be
     * decorated CooperativeMatrixTransposeEXT: rows and columns swap, and the
     * operand is an accumulator, the result MatrixAKHR or MatrixBKHR. */
    int ext = in->opcode != SpvOpBitcast &&
              val_has_cap(v, SpvCapabilityCooperativeMatrixConversionsEXT);
    int transposed = ext && val_has_decoration(v, in->words[2],
                                               SpvDecorationCooperativeMatrixTransposeEXT);
    if (transposed) {
        if (val_same_dim(v, r.rows_id, o.cols_id) == 0 || val_same_dim(v, r.cols_id, o.rows_id) == 0)
            return val_fail(v, "the result is %llux%llu, the operand %llux%llu: "
                               "CooperativeMatrixTransposeEXT swaps rows and columns",
                            (unsigned long long)r.rows, (unsigned long long)r.cols,
                            (unsigned long long)o.rows, (unsigned long long)o.cols);
        if (!(o.use_known && o.use == 2) || (r.use_known && r.use == 2))
            return val_fail(v, "a conversion decorated CooperativeMatrixTransposeEXT goes from "
                               "MatrixAccumulatorKHR to MatrixAKHR or MatrixBKHR, not %s to %s",
                            val_use_name(o.use), val_use_name(r.use));
        return 1;
    }
    if (val_same_dim(v, r.rows_id, o.rows_id) == 0 || val_same_dim(v, r.cols_id, o.cols_id) == 0)
        return val_fail(v, "the result is %llux%llu, the operand %llux%llu",
                        (unsigned long long)r.rows, (unsigned long long)r.cols,
                        (unsigned long long)o.rows, (unsigned long long)o.cols);
    if (val_same_dim(v, r.use_id, o.use_id) == 0) {
        /* SPV_NV_cooperative_matrix2 3.49.11: with CooperativeMatrixConversionsNV an
         * accumulator may become A or B (not through OpBitcast); with
         * CooperativeMatrixConversionsEXT, also A or B an accumulator. */
        int acc_to_ab = o.use_known && o.use == 2 && r.use_known && (r.use == 0 || r.use == 1);
        int ab_to_acc = r.use_known && r.use == 2 && o.use_known && (o.use == 0 || o.use == 1);
        int relaxed = in->opcode != SpvOpBitcast &&
                      ((val_has_cap(v, SpvCapabilityCooperativeMatrixConversionsNV) && acc_to_ab) ||
                       (ext && (acc_to_ab || ab_to_acc)));
        if (!relaxed)
            return val_fail(v, "the Use of the result is %s, of the operand %s",
                            val_use_name(r.use), val_use_name(o.use));
    }
    return 1;
}

int khr_convert_component(val_ctx *v, const spv_inst *in)
{
    if (!is_conversion(in->opcode))
        return 1;
    val_coopmat r, o;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &o))
        return 1;
    int rf = val_float_type(v, r.component, NULL, NULL), of = val_float_type(v, o.component, NULL, NULL);
    uint32_t rw = 0, ow = 0;
    int ri = val_int_type(v, r.component, &rw, NULL), oi = val_int_type(v, o.component, &ow, NULL);
    int ok;
    switch (in->opcode) {
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
        ok = of && ri;
        break;
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
        ok = oi && rf;
        break;
    case SpvOpUConvert:
    case SpvOpSConvert:
        ok = oi && ri;
        break;
    case SpvOpFConvert:
        ok = of && rf;
        break;
    default: /* OpBitcast: integer components of one width */
        ok = oi && ri && ow == rw;
        break;
    }
    if (!ok)
        return val_fail(v, "%s cannot convert components of %%%u to %%%u", val_op_name(in->opcode),
                        o.component, r.component);
    return 1;
}

/* ---- OpCooperativeMatrixMulAddKHR ----------------------------------------------------- */

int khr_muladd_result(val_ctx *v, const spv_inst *in)
{
    val_coopmat r;
    if (!val_coopmat_type(v, in->words[1], &r))
        return val_fail(v, "the Result Type is not a cooperative matrix type");
    if (!val_cm_use_is(&r, 2))
        return val_fail(v, "the Result Type's Use is %s", val_use_name(r.use));
    return 1;
}

static int muladd_operand(val_ctx *v, const spv_inst *in, uint32_t word, uint64_t use,
                          const char *name)
{
    val_coopmat m;
    if (!val_cm_of(v, in->words[word], &m))
        return val_fail(v, "'%s' %%%u is not a cooperative matrix", name, in->words[word]);
    if (!val_cm_use_is(&m, use))
        return val_fail(v, "the Use of '%s' is %s", name, val_use_name(m.use));
    return 1;
}

int khr_muladd_a(val_ctx *v, const spv_inst *in)
{
    return muladd_operand(v, in, 3, 0, "A");
}

int khr_muladd_b(val_ctx *v, const spv_inst *in)
{
    return muladd_operand(v, in, 4, 1, "B");
}

int khr_muladd_c(val_ctx *v, const spv_inst *in)
{
    return muladd_operand(v, in, 5, 2, "C");
}

int khr_muladd_shape(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, a, b, c;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &a) ||
        !val_cm_of(v, in->words[4], &b) || !val_cm_of(v, in->words[5], &c))
        return 1;
    /* M: rows of A, C, Result; N: columns of B, C, Result; K: columns of A, rows of B. */
    if (val_same_dim(v, a.rows_id, r.rows_id) == 0 || val_same_dim(v, c.rows_id, r.rows_id) == 0)
        return val_fail(v, "M differs: A has %llu rows, C %llu, Result %llu",
                        (unsigned long long)a.rows, (unsigned long long)c.rows,
                        (unsigned long long)r.rows);
    if (val_same_dim(v, b.cols_id, r.cols_id) == 0 || val_same_dim(v, c.cols_id, r.cols_id) == 0)
        return val_fail(v, "N differs: B has %llu columns, C %llu, Result %llu",
                        (unsigned long long)b.cols, (unsigned long long)c.cols,
                        (unsigned long long)r.cols);
    if (val_same_dim(v, a.cols_id, b.rows_id) == 0)
        return val_fail(v, "K differs: A has %llu columns, B %llu rows", (unsigned long long)a.cols,
                        (unsigned long long)b.rows);
    return 1;
}

int khr_muladd_scope(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, a, b, c;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &a) ||
        !val_cm_of(v, in->words[4], &b) || !val_cm_of(v, in->words[5], &c))
        return 1;
    if (val_same_dim(v, a.scope_id, r.scope_id) == 0 ||
        val_same_dim(v, b.scope_id, r.scope_id) == 0 || val_same_dim(v, c.scope_id, r.scope_id) == 0)
        return val_fail(v, "A, B, C and Result Type do not have one Scope");
    return 1;
}

/* ---- arithmetic ------------------------------------------------------------------- */

static int is_arith_kind(const spv_instruction_desc *d)
{
    return !strcmp(d->op_class, "Arithmetic") || !strcmp(d->op_class, "Bit") ||
           !strcmp(d->op_class, "Relational_and_Logical") || !strcmp(d->op_class, "Conversion") ||
           !strcmp(d->op_class, "Derivative");
}

/* 1 when the result or an <id> operand of `in` has type opcode `top`. */
int val_touches_type(val_ctx *v, const spv_inst *in, uint16_t top)
{
    const val_operand *ops;
    const char *why;
    int n = val_operands(v, in, &ops, &why);
    for (int i = 0; i < n; i++) {
        uint32_t id = in->words[ops[i].word];
        if (ops[i].kind == SPV_OPERAND_IdResultType) {
            if (val_opcode(v, id) == top)
                return 1;
        } else if (spv_operand_kinds[ops[i].kind].category == SPV_CATEGORY_ID &&
                   ops[i].kind != SPV_OPERAND_IdResult && id < v->bound && v->ids[id].type &&
                   val_opcode(v, v->ids[id].type) == top) {
            return 1;
        }
    }
    return 0;
}

int khr_arith_allowed(val_ctx *v, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!is_arith_kind(d) || !val_touches_type(v, in, SpvOpTypeCooperativeMatrixKHR))
        return 1;
    switch (in->opcode) {
    case SpvOpSNegate:
    case SpvOpFNegate:
    case SpvOpIAdd:
    case SpvOpFAdd:
    case SpvOpISub:
    case SpvOpFSub:
    case SpvOpFMul:
    case SpvOpIMul:
    case SpvOpFDiv:
    case SpvOpSDiv:
    case SpvOpUDiv:
    case SpvOpMatrixTimesScalar:
    case SpvOpCooperativeMatrixMulAddKHR:
    case SpvOpSelect: /* SPIR-V 1.4: any composite; a cooperative matrix is one */
    case SpvOpCooperativeMatrixConvertNV:
    case SpvOpCooperativeMatrixTransposeNV:
    case SpvOpBitCastArrayQCOM:
        return 1;
    default:
        if (is_conversion(in->opcode))
            return 1;
        return val_fail(v, "%s does not take cooperative matrices", d->name);
    }
}

static int is_float_op(uint16_t op)
{
    return op == SpvOpFNegate || op == SpvOpFAdd || op == SpvOpFSub || op == SpvOpFMul ||
           op == SpvOpFDiv;
}

static int is_int_op(uint16_t op)
{
    return op == SpvOpSNegate || op == SpvOpIAdd || op == SpvOpISub || op == SpvOpIMul ||
           op == SpvOpSDiv || op == SpvOpUDiv;
}

int khr_arith_component(val_ctx *v, const spv_inst *in)
{
    val_coopmat r;
    if ((!is_float_op(in->opcode) && !is_int_op(in->opcode)) ||
        !val_coopmat_type(v, in->words[1], &r))
        return 1;
    if (is_float_op(in->opcode) && !val_float_type(v, r.component, NULL, NULL))
        return val_fail(v, "%s on a cooperative matrix whose components are not floating-point",
                        val_op_name(in->opcode));
    if (is_int_op(in->opcode) && !val_int_type(v, r.component, NULL, NULL))
        return val_fail(v, "%s on a cooperative matrix whose components are not integers",
                        val_op_name(in->opcode));
    return 1;
}

int khr_arith_types(val_ctx *v, const spv_inst *in)
{
    if (!is_float_op(in->opcode) && !is_int_op(in->opcode))
        return 1;
    if (!val_touches_type(v, in, SpvOpTypeCooperativeMatrixKHR))
        return 1;
    for (uint32_t i = 3; i < in->word_count; i++)
        if (val_type_of(v, in->words[i]) != in->words[1])
            return val_fail(v, "operand %%%u has type %%%u; the operands and the result must "
                               "have one cooperative matrix type",
                            in->words[i], val_type_of(v, in->words[i]));
    return 1;
}

int khr_matrix_times_scalar(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!val_cm_of(v, in->words[3], &m))
        return 1;
    if (val_type_of(v, in->words[3]) != in->words[1])
        return val_fail(v, "the Result Type is not the type of Matrix");
    if (val_type_of(v, in->words[4]) != m.component)
        return val_fail(v, "Scalar has type %%%u, not the Component Type %%%u",
                        val_type_of(v, in->words[4]), m.component);
    return 1;
}
