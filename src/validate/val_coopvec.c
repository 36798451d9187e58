/* SPV_NV_cooperative_vector (revision 2): types, loads and stores,
 * arithmetic, matrix-vector multiplies and the training instructions.
 *
 * OpTypeCooperativeVectorNV shares opcode 5288 with OpTypeVectorIdEXT
 * (SPV_EXT_long_vector), whose vectors take every vector instruction.  The
 * restrictions of this text (which instructions take cooperative vectors,
 * where they may be allocated) apply when the module declares
 * CooperativeVectorNV and not LongVectorEXT; with both, the type is also a
 * long vector and only the rules both texts share are checked. */
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

static int cv_used(const val_ctx *v)
{
    return val_has_ext(v, "SPV_NV_cooperative_vector") ||
           val_has_cap(v, SpvCapabilityCooperativeVectorNV);
}

static int cv_restricted(const val_ctx *v)
{
    return val_has_cap(v, SpvCapabilityCooperativeVectorNV) &&
           !val_has_cap(v, SpvCapabilityLongVectorEXT);
}

static int is_cv_type(const val_ctx *v, uint32_t t)
{
    return val_opcode(v, t) == SpvOpTypeCooperativeVectorNV;
}

/* ---- module rules ------------------------------------------------------------------ */

int cv_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (cv_used(v) && !val_version_at_least(v, 1, 6))
        return val_fail(v, "SPV_NV_cooperative_vector is used in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int cv_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    for (uint32_t i = 0; i < v->ncaps_declared; i++)
        if ((v->caps[i] == SpvCapabilityCooperativeVectorNV ||
             v->caps[i] == SpvCapabilityCooperativeVectorTrainingNV) &&
            !val_has_ext(v, "SPV_NV_cooperative_vector"))
            return val_fail(v, "a cooperative vector capability is declared without OpExtension "
                               "\"SPV_NV_cooperative_vector\"");
    return 1;
}

int cv_vulkan_memory_model(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (val_has_cap(v, SpvCapabilityCooperativeVectorNV) && val_has_cap(v, SpvCapabilityShader) &&
        !val_has_cap(v, SpvCapabilityVulkanMemoryModel))
        return val_fail(v, "CooperativeVectorNV is declared without VulkanMemoryModel");
    return 1;
}

int cv_variable_storage(val_ctx *v, const spv_inst *in)
{
    if (!cv_restricted(v))
        return 1;
    uint32_t sc, pointee;
    if (!val_pointer_type(v, in->words[1], &sc, &pointee) || !pointee ||
        !val_type_contains(v, pointee, SpvOpTypeCooperativeVectorNV))
        return 1;
    if (sc != SpvStorageClassFunction && sc != SpvStorageClassPrivate) {
        char tmp[16];
        return val_fail(v, "a variable of storage class %s holds a cooperative vector",
                        val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)));
    }
    return 1;
}

/* ---- the type ---------------------------------------------------------------------- */

int cv_type_component(val_ctx *v, const spv_inst *in)
{
    if (!val_has_cap(v, SpvCapabilityCooperativeVectorNV))
        return 1; /* OpTypeVectorIdEXT: SPV_EXT_long_vector's rules */
    if (!val_is_numeric_scalar(v, in->words[2]))
        return val_fail(v, "Component Type %%%u is not a scalar numerical type", in->words[2]);
    return 1;
}

int cv_type_count(val_ctx *v, const spv_inst *in)
{
    uint32_t id = in->words[3];
    if (!val_is_constant_inst(v, id) || !val_is_int_scalar(v, val_type_of(v, id), 32))
        return val_fail(v, "Component Count %%%u is not a constant instruction of a scalar 32-bit "
                           "integer type",
                        id);
    uint64_t n;
    if (val_const_value(v, id, &n) && n == 0)
        return val_fail(v, "Component Count is 0; a cooperative vector has one or more components");
    return 1;
}

/* ---- loads and stores -------------------------------------------------------------- */

static uint32_t mem_operand(const spv_inst *in, uint32_t word)
{
    return word < in->word_count ? in->words[word] : 0;
}

int cv_load_make_available(val_ctx *v, const spv_inst *in)
{
    if (mem_operand(in, 5) & SpvMemoryAccessMakePointerAvailableMask)
        return val_fail(v, "MakePointerAvailable is not valid with OpCooperativeVectorLoadNV");
    return 1;
}

int cv_store_make_visible(val_ctx *v, const spv_inst *in)
{
    if (mem_operand(in, 4) & SpvMemoryAccessMakePointerVisibleMask)
        return val_fail(v, "MakePointerVisible is not valid with OpCooperativeVectorStoreNV");
    return 1;
}

int cv_load_result(val_ctx *v, const spv_inst *in)
{
    if (!is_cv_type(v, in->words[1]))
        return val_fail(v, "the Result Type %%%u is not a cooperative vector type", in->words[1]);
    return 1;
}

int cv_store_object(val_ctx *v, const spv_inst *in)
{
    if (!is_cv_type(v, val_type_of(v, in->words[3])))
        return val_fail(v, "Object %%%u is not a cooperative vector", in->words[3]);
    return 1;
}

/* A pointer to an array whose elements are scalars (or also vectors). */
static int array_pointer(val_ctx *v, uint32_t ptr, int vectors_too, const char *what)
{
    uint32_t pointee, elem, c, n;
    if (val_opcode(v, val_type_of(v, ptr)) != SpvOpTypePointer ||
        !val_pointer_type(v, val_type_of(v, ptr), NULL, &pointee))
        return val_fail(v, "%s %%%u is not an OpTypePointer", what, ptr);
    if (!val_array_type(v, pointee, &elem, NULL))
        return val_fail(v, "%s %%%u does not point to an array", what, ptr);
    if (!val_is_numeric_scalar(v, elem) && !val_is_bool(v, elem) &&
        !(vectors_too && val_vector_type(v, elem, &c, &n)))
        return val_fail(v, "%s %%%u points to an array of %%%u, not of %s", what, ptr, elem,
                        vectors_too ? "scalars or vectors" : "scalars");
    return 1;
}

/* The storage class of a pointer is one of `ok`. */
static int storage_in(val_ctx *v, uint32_t ptr, const uint32_t *ok, size_t nok, const char *what)
{
    uint32_t sc;
    if (!val_pointer_type(v, val_type_of(v, ptr), &sc, NULL))
        return 1;
    for (size_t i = 0; i < nok; i++)
        if (ok[i] == sc)
            return 1;
    char tmp[16];
    return val_fail(v, "%s is in storage class %u (%s): %%%u", what, sc,
                    val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)), ptr);
}

static const uint32_t ls_classes[] = {SpvStorageClassCrossWorkgroup, SpvStorageClassWorkgroup,
                                      SpvStorageClassStorageBuffer,
                                      SpvStorageClassPhysicalStorageBuffer};
static const uint32_t matrix_classes[] = {SpvStorageClassCrossWorkgroup,
                                          SpvStorageClassStorageBuffer,
                                          SpvStorageClassPhysicalStorageBuffer};

static uint32_t ls_pointer(const spv_inst *in)
{
    return in->opcode == SpvOpCooperativeVectorLoadNV ? in->words[3] : in->words[1];
}

static uint32_t ls_offset(const spv_inst *in)
{
    return in->opcode == SpvOpCooperativeVectorLoadNV ? in->words[4] : in->words[2];
}

int cv_ls_pointer(val_ctx *v, const spv_inst *in)
{
    return array_pointer(v, ls_pointer(in), 1, "Pointer");
}

int cv_ls_storage(val_ctx *v, const spv_inst *in)
{
    return storage_in(v, ls_pointer(in), ls_classes, CVM_ARRAY_SIZE(ls_classes), "Pointer");
}

static int int32_operand(val_ctx *v, uint32_t id, const char *what)
{
    if (!val_is_int_scalar(v, val_type_of(v, id), 32))
        return val_fail(v, "%s %%%u is not a 32-bit integer", what, id);
    return 1;
}

/* An offset (Offset, MatrixOffset, BiasOffset): SPV_NV_cooperative_vector
 * says "a 32 bit integer"; SPV_EXT_shader_64bit_indexing replaces that with
 * "a 32- or 64-bit integer".  A module need not declare that extension for
 * it: glslang declares it (and Shader64BitIndexingEXT) only for
 * `#pragma shader_64bit_indexing`, not for GL_EXT_shader_64bit_indexing's
 * 64-bit offsets, which Vulkan enables with the pipeline flag
 * VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT instead of the execution mode
 * (VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-11809, -MatrixMulAddNV-11808;
 * the Vulkan CTS's cooperative_vector.*.64b_indexing.* pipelines are built
 * so); spirv-val takes either width in every module.  Whether the pipeline
 * has 64-bit indexing a module does not say, so both widths are taken. */
static int offset_operand(val_ctx *v, uint32_t id, const char *what)
{
    if (val_is_int_scalar(v, val_type_of(v, id), 64))
        return 1;
    if (!val_is_int_scalar(v, val_type_of(v, id), 32))
        return val_fail(v, "%s %%%u is not a 32- or 64-bit integer", what, id);
    return 1;
}

int cv_ls_offset(val_ctx *v, const spv_inst *in)
{
    return offset_operand(v, ls_offset(in), "Offset");
}

/* ---- composites, conversions, arithmetic ------------------------------------------ */

int cv_vector_shuffle(val_ctx *v, const spv_inst *in)
{
    if (!cv_restricted(v))
        return 1;
    if (is_cv_type(v, val_type_of(v, in->words[3])) || is_cv_type(v, val_type_of(v, in->words[4])) ||
        is_cv_type(v, in->words[1]))
        return val_fail(v, "OpVectorShuffle does not take cooperative vectors");
    return 1;
}

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

int cv_convert(val_ctx *v, const spv_inst *in)
{
    /* a long vector (no CooperativeVectorNV) converts by the core rules, and
     * with LongVectorEXT also declared the type is a long vector too */
    if (!is_conversion(in->opcode) || !cv_restricted(v))
        return 1;
    uint32_t rt = in->words[1], ot = val_type_of(v, in->words[3]);
    int r = is_cv_type(v, rt), o = is_cv_type(v, ot);
    if (!r && !o)
        return 1;
    if (!r || !o)
        return val_fail(v, "a cooperative vector converts only to and from a cooperative vector");
    uint32_t rc, oc, rw = 0, ow = 0;
    uint64_t rn, on;
    int rk, ok;
    val_coopvec_type(v, rt, &rc, NULL, &rn, &rk);
    val_coopvec_type(v, ot, &oc, NULL, &on, &ok);
    if (rk && ok && rn != on)
        return val_fail(v, "the result has %llu components, the operand %llu",
                        (unsigned long long)rn, (unsigned long long)on);
    int rf = val_float_type(v, rc, &rw, NULL), of = val_float_type(v, oc, &ow, NULL);
    int ri = val_int_type(v, rc, &rw, NULL), oi = val_int_type(v, oc, &ow, NULL);
    int good;
    switch (in->opcode) {
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
        good = of && ri;
        break;
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
        good = oi && rf;
        break;
    case SpvOpUConvert:
    case SpvOpSConvert:
        good = oi && ri;
        break;
    case SpvOpFConvert:
        good = of && rf;
        break;
    default: /* OpBitcast: the same bits per component */
        good = rw == ow;
        break;
    }
    if (!good)
        return val_fail(v, "%s cannot convert components of %%%u to %%%u", val_op_name(in->opcode),
                        oc, rc);
    return 1;
}

static int is_arith_class(const spv_instruction_desc *d)
{
    return !strcmp(d->op_class, "Arithmetic") || !strcmp(d->op_class, "Bit") ||
           !strcmp(d->op_class, "Relational_and_Logical") || !strcmp(d->op_class, "Conversion") ||
           !strcmp(d->op_class, "Derivative");
}

int cv_arith_allowed(val_ctx *v, const spv_inst *in)
{
    if (!cv_restricted(v))
        return 1;
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!is_arith_class(d) || !val_touches_type(v, in, SpvOpTypeCooperativeVectorNV))
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
    case SpvOpVectorTimesScalar:
    case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic:
    case SpvOpShiftLeftLogical:
    case SpvOpBitwiseOr:
    case SpvOpBitwiseXor:
    case SpvOpBitwiseAnd:
    case SpvOpNot:
    case SpvOpSelect: /* SPIR-V 1.4: any composite */
        return 1;
    default:
        if (is_conversion(in->opcode))
            return 1;
        return val_fail(v, "%s does not take cooperative vectors", d->name);
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

int cv_arith_component(val_ctx *v, const spv_inst *in)
{
    if ((!is_float_op(in->opcode) && !is_int_op(in->opcode)) || !is_cv_type(v, in->words[1]))
        return 1;
    uint32_t comp = val_component_type(v, in->words[1]);
    if (is_float_op(in->opcode) && !val_float_type(v, comp, NULL, NULL))
        return val_fail(v, "%s on a cooperative vector whose components are not floating-point",
                        val_op_name(in->opcode));
    if (is_int_op(in->opcode) && !val_int_type(v, comp, NULL, NULL))
        return val_fail(v, "%s on a cooperative vector whose components are not integers",
                        val_op_name(in->opcode));
    return 1;
}

int cv_arith_types(val_ctx *v, const spv_inst *in)
{
    if (!is_float_op(in->opcode) && !is_int_op(in->opcode))
        return 1;
    if (!val_touches_type(v, in, SpvOpTypeCooperativeVectorNV))
        return 1;
    for (uint32_t i = 3; i < in->word_count; i++)
        if (val_type_of(v, in->words[i]) != in->words[1])
            return val_fail(v, "operand %%%u has type %%%u; the operands and the result must "
                               "have one cooperative vector type",
                            in->words[i], val_type_of(v, in->words[i]));
    return 1;
}

int cv_vector_times_scalar(val_ctx *v, const spv_inst *in)
{
    uint32_t vt = val_type_of(v, in->words[3]);
    if (!is_cv_type(v, vt))
        return 1;
    uint32_t comp = val_component_type(v, vt);
    if (!val_float_type(v, comp, NULL, NULL))
        return val_fail(v, "OpVectorTimesScalar takes floating-point cooperative vectors only");
    if (in->words[1] != vt)
        return val_fail(v, "the Result Type is not the type of Vector");
    if (val_type_of(v, in->words[4]) != comp)
        return val_fail(v, "Scalar has type %%%u, not the Component Type %%%u",
                        val_type_of(v, in->words[4]), comp);
    return 1;
}

int cv_glsl(val_ctx *v, const spv_inst *in)
{
    if (!cv_restricted(v) || in->words[3] != v->glsl_set || !v->glsl_set)
        return 1;
    if (!val_touches_type(v, in, SpvOpTypeCooperativeVectorNV))
        return 1;
    int want_float;
    switch (in->words[4]) {
    case SpvGLSLstd450FMin:
    case SpvGLSLstd450NMin:
    case SpvGLSLstd450FMax:
    case SpvGLSLstd450NMax:
    case SpvGLSLstd450FClamp:
    case SpvGLSLstd450NClamp:
    case SpvGLSLstd450Step:
    case SpvGLSLstd450Exp:
    case SpvGLSLstd450Log:
    case SpvGLSLstd450Tanh:
    case SpvGLSLstd450Atan:
    case SpvGLSLstd450Fma:
        want_float = 1;
        break;
    case SpvGLSLstd450UMin:
    case SpvGLSLstd450SMin:
    case SpvGLSLstd450UMax:
    case SpvGLSLstd450SMax:
    case SpvGLSLstd450UClamp:
    case SpvGLSLstd450SClamp:
        want_float = 0;
        break;
    default: {
        const spv_extinst_desc *x = spv_grammar_glsl_std450(in->words[4]);
        return val_fail(v, "GLSL.std.450 %s does not take cooperative vectors",
                        x ? x->name : "(unknown)");
    }
    }
    uint32_t comp = val_component_type(v, in->words[1]);
    int is_float = val_float_type(v, comp, NULL, NULL);
    if (want_float != is_float)
        return val_fail(v, "this GLSL.std.450 instruction needs %s components",
                        want_float ? "floating-point" : "integer");
    return 1;
}

/* ---- matrix-vector multiply ---------------------------------------------------------- */

/* Word positions of OpCooperativeVectorMatrixMulNV / MatrixMulAddNV. */
typedef struct mm_words {
    uint32_t input, input_interp, matrix, matrix_offset, matrix_interp;
    uint32_t bias, bias_offset, bias_interp; /* 0 for MatrixMulNV */
    uint32_t m, k, layout, transpose, stride;
} mm_words;

static mm_words mm_of(const spv_inst *in)
{
    mm_words w;
    memset(&w, 0, sizeof(w));
    w.input = 3;
    w.input_interp = 4;
    w.matrix = 5;
    w.matrix_offset = 6;
    w.matrix_interp = 7;
    uint32_t next = 8;
    if (in->opcode == SpvOpCooperativeVectorMatrixMulAddNV) {
        w.bias = 8;
        w.bias_offset = 9;
        w.bias_interp = 10;
        next = 11;
    }
    w.m = next;
    w.k = next + 1;
    w.layout = next + 2;
    w.transpose = next + 3;
    w.stride = next + 4;
    return w;
}

static int is_packed(uint64_t interp)
{
    return interp == SpvComponentTypeSignedInt8PackedNV ||
           interp == SpvComponentTypeUnsignedInt8PackedNV;
}

int cv_mm_result(val_ctx *v, const spv_inst *in)
{
    uint32_t comp, w;
    if (!val_coopvec_type(v, in->words[1], &comp, NULL, NULL, NULL))
        return val_fail(v, "the Result Type %%%u is not a cooperative vector type", in->words[1]);
    uint32_t enc;
    int ok = (val_int_type(v, comp, &w, NULL) && w == 32) ||
             (val_float_type(v, comp, &w, &enc) && enc == VAL_NONE && (w == 16 || w == 32));
    if (!ok)
        return val_fail(v, "the Result Type's components are not 32-bit integers or 16/32-bit "
                           "floats");
    return 1;
}

int cv_mm_result_count(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    uint64_t n, m;
    int known;
    if (!val_coopvec_type(v, in->words[1], NULL, NULL, &n, &known) || !known ||
        !val_const_value(v, in->words[w.m], &m))
        return 1;
    if (n != m)
        return val_fail(v, "the result has %llu components, M is %llu", (unsigned long long)n,
                        (unsigned long long)m);
    return 1;
}

int cv_mm_input(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    if (!is_cv_type(v, val_type_of(v, in->words[w.input])))
        return val_fail(v, "Input %%%u is not a cooperative vector", in->words[w.input]);
    return 1;
}

int cv_mm_input_size(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    uint32_t comp, cw = 0;
    uint64_t n, k, interp;
    int known;
    if (!val_coopvec_type(v, val_type_of(v, in->words[w.input]), &comp, NULL, &n, &known) ||
        !val_const_value(v, in->words[w.input_interp], &interp) ||
        !val_const_value(v, in->words[w.k], &k))
        return 1;
    if (!is_packed(interp)) {
        if (known && n != k)
            return val_fail(v, "Input has %llu components, K is %llu", (unsigned long long)n,
                            (unsigned long long)k);
        return 1;
    }
    uint32_t sign = 1;
    if (!val_int_type(v, comp, &cw, &sign) || cw != 32 || sign != 0)
        return val_fail(v, "with a Packed InputInterpretation, Input's components must be 32-bit "
                           "unsigned integers");
    if (known && n * 4 < k)
        return val_fail(v, "Input's %llu 32-bit components hold %llu packed 8-bit values, too "
                           "few to hold K = %llu packed values",
                        (unsigned long long)n, (unsigned long long)(n * 4), (unsigned long long)k);
    return 1;
}

int cv_mm_matrix(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    if (!array_pointer(v, in->words[w.matrix], 0, "Matrix"))
        return 0;
    return storage_in(v, in->words[w.matrix], matrix_classes, CVM_ARRAY_SIZE(matrix_classes),
                      "Matrix");
}

int cv_mm_bias(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    if (!w.bias)
        return 1;
    if (!array_pointer(v, in->words[w.bias], 0, "Bias"))
        return 0;
    return storage_in(v, in->words[w.bias], matrix_classes, CVM_ARRAY_SIZE(matrix_classes), "Bias");
}

int cv_mm_offsets(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    if (!offset_operand(v, in->words[w.matrix_offset], "MatrixOffset"))
        return 0;
    if (w.bias && !offset_operand(v, in->words[w.bias_offset], "BiasOffset"))
        return 0;
    return 1;
}

static int const_int32_op(val_ctx *v, uint32_t id, const char *what)
{
    if (!val_is_int_scalar(v, val_type_of(v, id), 32))
        return val_fail(v, "%s %%%u is not a 32-bit integer", what, id);
    if (!val_is_constant_inst(v, id))
        return val_fail(v, "%s must be a constant instruction; %%%u is not", what, id);
    return 1;
}

/* Component Type values the client API adds to SPIR-V's enumerants: "The set
 * of supported component types is defined by the client API" (2.2 Terms), and
 * Vulkan's VkComponentTypeKHR (vk.xml) names, beyond the values SPIR-V's
 * grammar lists (which equal Vulkan's), these: */
static const uint32_t client_component_types[] = {
    1000141000, /* VK_COMPONENT_TYPE_BFLOAT16_KHR (VK_KHR_shader_bfloat16) */
    1000672000, /* VK_COMPONENT_TYPE_FLOAT6_E2M3_EXT (VK_EXT_shader_ocp_microscaling_types) */
    1000672001, /* VK_COMPONENT_TYPE_FLOAT6_E3M2_EXT */
    1000672002, /* VK_COMPONENT_TYPE_FLOAT4_E2M1_EXT */
    1000672003, /* VK_COMPONENT_TYPE_FLOAT8_UNSIGNED_E8M0_EXT */
    1000672004, /* VK_COMPONENT_TYPE_MXINT8_EXT */
};

static int is_component_type(uint64_t x)
{
    if (x > UINT32_MAX)
        return 0;
    if (spv_grammar_enumerant(SPV_OPERAND_ComponentType, (uint32_t)x))
        return 1;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(client_component_types); i++)
        if (client_component_types[i] == x)
            return 1;
    return 0;
}

static int interpretation(val_ctx *v, uint32_t id, const char *what)
{
    if (!const_int32_op(v, id, what))
        return 0;
    uint64_t x;
    if (val_const_value(v, id, &x) && !is_component_type(x))
        return val_fail(v, "%s is %llu, not a Component Type (of SPIR-V's grammar or Vulkan's "
                           "VkComponentTypeKHR)",
                        what, (unsigned long long)x);
    return 1;
}

int cv_mm_interpretations(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    if (!interpretation(v, in->words[w.input_interp], "InputInterpretation") ||
        !interpretation(v, in->words[w.matrix_interp], "MatrixInterpretation"))
        return 0;
    if (w.bias && !interpretation(v, in->words[w.bias_interp], "BiasInterpretation"))
        return 0;
    return 1;
}

int cv_mm_dims(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    return const_int32_op(v, in->words[w.m], "M") && const_int32_op(v, in->words[w.k], "K");
}

/* Word of MatrixStride, or 0 when absent. */
uint32_t val_cv_mm_stride_word(const spv_inst *in)
{
    uint32_t w = mm_of(in).stride;
    return w < in->word_count ? w : 0;
}

uint32_t val_cv_mm_word(const spv_inst *in, int which)
{
    mm_words w = mm_of(in);
    switch (which) {
    case 0:
        return w.matrix_offset;
    case 1:
        return w.bias_offset;
    case 2:
        return w.matrix_interp;
    case 3:
        return w.layout;
    default:
        return 0;
    }
}

static int layout_operand(val_ctx *v, uint32_t id)
{
    if (!const_int32_op(v, id, "MemoryLayout"))
        return 0;
    uint64_t x;
    if (val_const_value(v, id, &x) &&
        (x > UINT32_MAX ||
         !spv_grammar_enumerant(SPV_OPERAND_CooperativeVectorMatrixLayout, (uint32_t)x)))
        return val_fail(v, "MemoryLayout is %llu, not a Cooperative Vector Matrix Layout",
                        (unsigned long long)x);
    return 1;
}

int cv_mm_layout(val_ctx *v, const spv_inst *in)
{
    return layout_operand(v, in->words[mm_of(in).layout]);
}

int cv_mm_transpose(val_ctx *v, const spv_inst *in)
{
    uint32_t id = in->words[mm_of(in).transpose];
    if (!val_is_bool(v, val_type_of(v, id)) || !val_is_constant_inst(v, id))
        return val_fail(v, "Transpose %%%u is not a constant instruction of a boolean type", id);
    return 1;
}

int cv_mm_transpose_layout(val_ctx *v, const spv_inst *in)
{
    mm_words w = mm_of(in);
    uint64_t t, layout;
    if (val_const_value(v, in->words[w.transpose], &t) && t &&
        val_const_value(v, in->words[w.layout], &layout) &&
        (layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ||
         layout == SpvCooperativeVectorMatrixLayoutColumnMajorNV))
        return val_fail(v, "Transpose with the %s layout",
                        layout ? "ColumnMajorNV" : "RowMajorNV");
    return 1;
}

/* ---- training --------------------------------------------------------------------- */

int cv_outer_types(val_ctx *v, const spv_inst *in)
{
    uint32_t ac, bc;
    if (!val_coopvec_type(v, val_type_of(v, in->words[3]), &ac, NULL, NULL, NULL) ||
        !val_coopvec_type(v, val_type_of(v, in->words[4]), &bc, NULL, NULL, NULL))
        return val_fail(v, "A and B must be cooperative vectors");
    if (ac != bc)
        return val_fail(v, "A has components %%%u, B %%%u; they must be the same", ac, bc);
    return 1;
}

int cv_outer_pointer(val_ctx *v, const spv_inst *in)
{
    if (!array_pointer(v, in->words[1], 1, "Pointer"))
        return 0;
    return storage_in(v, in->words[1], ls_classes, CVM_ARRAY_SIZE(ls_classes), "Pointer");
}

int cv_outer_offset(val_ctx *v, const spv_inst *in)
{
    return offset_operand(v, in->words[2], "Offset");
}

int cv_outer_layout(val_ctx *v, const spv_inst *in)
{
    return layout_operand(v, in->words[5]);
}

int cv_outer_interpretation(val_ctx *v, const spv_inst *in)
{
    return int32_operand(v, in->words[6], "MatrixInterpretation");
}

int cv_outer_stride(val_ctx *v, const spv_inst *in)
{
    if (in->word_count > 7)
        return int32_operand(v, in->words[7], "MatrixStride");
    return 1;
}

int cv_reduce_vector(val_ctx *v, const spv_inst *in)
{
    if (!is_cv_type(v, val_type_of(v, in->words[3])))
        return val_fail(v, "V %%%u is not a cooperative vector", in->words[3]);
    return 1;
}

int cv_reduce_pointer(val_ctx *v, const spv_inst *in)
{
    if (!array_pointer(v, in->words[1], 1, "Pointer"))
        return 0;
    return storage_in(v, in->words[1], ls_classes, CVM_ARRAY_SIZE(ls_classes), "Pointer");
}

int cv_reduce_offset(val_ctx *v, const spv_inst *in)
{
    return offset_operand(v, in->words[2], "Offset");
}
