/* The module IR: one pass over the binary, bounded, every id checked. */
#include "spirv/module.h"

#include <stdlib.h>
#include <string.h>

/* ---- capabilities --------------------------------------------------------- */

static const uint32_t supported_caps[] = {
    SpvCapabilityMatrix, SpvCapabilityShader, SpvCapabilityFloat16, SpvCapabilityFloat64,
    SpvCapabilityInt64, SpvCapabilityInt64Atomics, SpvCapabilityInt16, SpvCapabilityInt8,
    SpvCapabilityFloat16Buffer, SpvCapabilityStorageBufferArrayDynamicIndexing,
    SpvCapabilityGroupNonUniform, SpvCapabilityGroupNonUniformVote,
    SpvCapabilityGroupNonUniformArithmetic, SpvCapabilityGroupNonUniformBallot,
    SpvCapabilityGroupNonUniformShuffle, SpvCapabilityGroupNonUniformShuffleRelative,
    SpvCapabilityGroupNonUniformClustered, SpvCapabilityGroupNonUniformQuad,
    SpvCapabilityGroupNonUniformRotateKHR, SpvCapabilitySubgroupBallotKHR,
    SpvCapabilitySubgroupVoteKHR, SpvCapabilityStorageBuffer16BitAccess,
    SpvCapabilityUniformAndStorageBuffer16BitAccess, SpvCapabilityStoragePushConstant16,
    SpvCapabilityStorageBuffer8BitAccess, SpvCapabilityUniformAndStorageBuffer8BitAccess,
    SpvCapabilityStoragePushConstant8, SpvCapabilityWorkgroupMemoryExplicitLayoutKHR,
    SpvCapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR,
    SpvCapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR, SpvCapabilityVariablePointers,
    SpvCapabilityVariablePointersStorageBuffer, SpvCapabilityShaderNonUniform,
    SpvCapabilityRuntimeDescriptorArray, SpvCapabilityStorageBufferArrayNonUniformIndexing,
    SpvCapabilityUniformBufferArrayNonUniformIndexing, SpvCapabilityVulkanMemoryModel,
    SpvCapabilityVulkanMemoryModelDeviceScope, SpvCapabilityPhysicalStorageBufferAddresses,
    SpvCapabilityDotProduct, SpvCapabilityDotProductInputAll, SpvCapabilityDotProductInput4x8Bit,
    SpvCapabilityDotProductInput4x8BitPacked, SpvCapabilityCooperativeMatrixKHR,
    SpvCapabilityCooperativeMatrixReductionsNV, SpvCapabilityCooperativeMatrixConversionsNV,
    SpvCapabilityCooperativeMatrixPerElementOperationsNV,
    SpvCapabilityCooperativeMatrixTensorAddressingNV, SpvCapabilityCooperativeMatrixBlockLoadsNV,
    SpvCapabilityTensorAddressingNV, SpvCapabilityCooperativeMatrixDecodeVectorNV,
    SpvCapabilityCooperativeMatrixConversionQCOM, SpvCapabilityCooperativeVectorNV,
    SpvCapabilityCooperativeVectorTrainingNV, SpvCapabilityBFloat16TypeKHR,
    SpvCapabilityBFloat16CooperativeMatrixKHR, SpvCapabilityBFloat16DotProductKHR,
    SpvCapabilityFloat8EXT, SpvCapabilityFloat8CooperativeMatrixEXT,
    SpvCapabilityReplicatedCompositesEXT, SpvCapabilityAtomicFloat32AddEXT,
    SpvCapabilityAtomicFloat16AddEXT, SpvCapabilityAtomicFloat64AddEXT,
    SpvCapabilityAtomicFloat16VectorNV, SpvCapabilityLongVectorEXT,
    SpvCapabilityAtomicFloat16MinMaxEXT, SpvCapabilityAtomicFloat32MinMaxEXT,
    SpvCapabilityAtomicFloat64MinMaxEXT,
    /* SPV_KHR_float_controls: the modes the engine's arithmetic already
     * keeps (IEEE, round to nearest even, denormals kept); not
     * DenormFlushToZero or RoundingModeRTZ, which it does not implement */
    SpvCapabilityDenormPreserve, SpvCapabilitySignedZeroInfNanPreserve,
    SpvCapabilityRoundingModeRTE,
    SpvCapabilityExpectAssumeKHR, /* OpAssumeTrueKHR, OpExpectKHR: hints */
    SpvCapabilityUniformBufferArrayDynamicIndexing, /* as storage buffer arrays are */
    /* SPV_EXT_cooperative_matrix_maintenance1 (Reductions and
     * PerElementOperations share their values with the NV names above) */
    SpvCapabilityCooperativeMatrixConversionsEXT, SpvCapabilityCooperativeMatrixGetCoordinateEXT,
    /* SPV_EXT_ocp_microscaling_types */
    SpvCapabilityFloat4EXT, SpvCapabilityFloat6EXT, SpvCapabilityFloat8UnsignedE8M0EXT,
    SpvCapabilityMXInt8EXT, SpvCapabilityBitcastExtractEXT,
    SpvCapabilityCooperativeMatrixNV,          /* on the KHR machinery (coopmat.c) */
    SpvCapabilityCooperativeMatrixLayoutsARM,  /* the two blocked interleaved layouts */
    SpvCapabilityShader64BitIndexingEXT, /* the engine's address arithmetic is 64-bit always */
    SpvCapabilityGroupNonUniformPartitionedEXT, /* OpGroupNonUniformPartitionEXT, Partitioned* */
};

int spv_capability_supported(uint32_t cap)
{
    for (size_t i = 0; i < CVM_ARRAY_SIZE(supported_caps); i++)
        if (supported_caps[i] == cap)
            return 1;
    return 0;
}

int spv_module_has_capability(const spv_module *mod, uint32_t cap)
{
    for (uint32_t i = 0; i < mod->ncapabilities; i++)
        if (mod->capabilities[i] == cap)
            return 1;
    return 0;
}

static const char *const supported_exts[] = {
    "SPV_KHR_cooperative_matrix", "SPV_NV_cooperative_matrix2", "SPV_NV_tensor_addressing",
    "SPV_NV_cooperative_matrix_decode_vector", "SPV_QCOM_cooperative_matrix_conversion",
    "SPV_NV_cooperative_vector", "SPV_KHR_vulkan_memory_model", "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_8bit_storage", "SPV_KHR_16bit_storage", "SPV_KHR_physical_storage_buffer",
    "SPV_EXT_physical_storage_buffer", "SPV_KHR_shader_ballot", "SPV_KHR_subgroup_vote",
    "SPV_KHR_variable_pointers", "SPV_EXT_descriptor_indexing", "SPV_KHR_bfloat16",
    "SPV_EXT_float8", "SPV_KHR_workgroup_memory_explicit_layout", "SPV_KHR_integer_dot_product",
    "SPV_EXT_replicated_composites", "SPV_KHR_subgroup_rotate", "SPV_EXT_shader_atomic_float_add",
    "SPV_NV_shader_atomic_fp16_vector", "SPV_KHR_non_semantic_info", "SPV_EXT_long_vector",
    "SPV_EXT_cooperative_matrix_maintenance1", "SPV_KHR_shader_draw_parameters",
    "SPV_GOOGLE_decorate_string", "SPV_GOOGLE_hlsl_functionality1", "SPV_GOOGLE_user_type",
    "SPV_KHR_relaxed_extended_instruction", "SPV_KHR_uniform_group_instructions",
    "SPV_EXT_shader_atomic_float_min_max", "SPV_EXT_shader_atomic_float16_add",
    "SPV_KHR_float_controls", "SPV_KHR_subgroup_uniform_control_flow",
    "SPV_KHR_expect_assume", "SPV_EXT_ocp_microscaling_types", "SPV_NV_cooperative_matrix",
    "SPV_ARM_cooperative_matrix_layouts", "SPV_EXT_shader_64bit_indexing",
    "SPV_EXT_shader_subgroup_partitioned", "SPV_NV_shader_subgroup_partitioned",
    "SPV_AMD_gpu_shader_int16", /* 16-bit Frexp exponents (glsl.c takes every integer width)
                                   and OpUConvert in OpSpecConstantOp (specop.c) */
};

static int extension_supported(const char *name)
{
    for (size_t i = 0; i < CVM_ARRAY_SIZE(supported_exts); i++)
        if (!strcmp(supported_exts[i], name))
            return 1;
    return 0;
}

/* ---- growable arrays ------------------------------------------------------ */

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *np = cvm_realloc(*p, (size_t)ncap * elem);
    if (!np)
        return 0;
    *p = np;
    *cap = ncap;
    return 1;
}

/* ---- operand walk: every id operand checked against the bound -------------- */

typedef struct walk {
    const spv_inst *inst;
    uint32_t pos;
    uint32_t bound;
    cvm_diagnostic *diag;
    /* The second pass (check_uses): the module with every definition known,
     * and the function index of the instruction (UINT32_MAX: global). */
    const spv_module *m;
    uint32_t func;
    int kinds;              /* check what each position needs (values, types, labels) */
    int constants;          /* values must be constants defined before (constant
                               instructions: they are evaluated in order) */
    uint32_t *max_id;       /* the first pass: the largest id met so far, or NULL */
} walk;

static cvm_result walk_operand(walk *w, uint16_t kind, int optional, const char *name);
static cvm_result check_use(walk *w, uint16_t kind, const char *name, uint32_t id);

static cvm_result check_id(walk *w, uint32_t id)
{
    if (id == 0 || id >= w->bound)
        return cvm_diag_at(w->diag, CVM_ERROR_MALFORMED, w->inst->offset, w->inst->opcode,
                           "id %u at word %u is outside the bound %u", id,
                           w->inst->offset + w->pos, w->bound);
    if (w->max_id && id > *w->max_id)
        *w->max_id = id;
    return CVM_SUCCESS;
}

static cvm_result walk_params(walk *w, const spv_enumerant_desc *e)
{
    for (uint16_t i = 0; i < e->num_params; i++)
        CVM_TRY(walk_operand(w, e->params[i].kind, 0, e->params[i].name));
    return CVM_SUCCESS;
}

static cvm_result truncated(walk *w)
{
    return cvm_diag_at(w->diag, CVM_ERROR_MALFORMED, w->inst->offset, w->inst->opcode,
                       "instruction at word %u (opcode %u) ends before its operands do",
                       w->inst->offset, w->inst->opcode);
}

static cvm_result walk_operand(walk *w, uint16_t kind, int optional, const char *name)
{
    const spv_operand_kind_desc *k = &spv_operand_kinds[kind];
    if (w->pos >= w->inst->word_count)
        return optional ? CVM_SUCCESS : truncated(w);
    switch (k->category) {
    case SPV_CATEGORY_ID:
        CVM_TRY(check_id(w, w->inst->words[w->pos]));
        if (w->m)
            CVM_TRY(check_use(w, kind, name, w->inst->words[w->pos]));
        w->pos++;
        return CVM_SUCCESS;
    case SPV_CATEGORY_LITERAL:
        if (kind == SPV_OPERAND_LiteralString) {
            const char *s;
            uint32_t n = spv_inst_string(w->inst, w->pos, &s);
            if (!n)
                return cvm_diag_at(w->diag, CVM_ERROR_MALFORMED, w->inst->offset,
                                   w->inst->opcode, "unterminated string in instruction at word %u",
                                   w->inst->offset);
            w->pos += n;
        } else if (kind == SPV_OPERAND_LiteralContextDependentNumber) {
            w->pos = w->inst->word_count; /* the rest: width from the type */
        } else {
            w->pos++;
        }
        return CVM_SUCCESS;
    case SPV_CATEGORY_VALUE_ENUM: {
        uint32_t v = w->inst->words[w->pos++];
        const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)kind, v);
        if (!e)
            return cvm_diag_at(w->diag, CVM_ERROR_MALFORMED, w->inst->offset, w->inst->opcode,
                               "unknown %s value %u in instruction at word %u", k->name, v,
                               w->inst->offset);
        return walk_params(w, e);
    }
    case SPV_CATEGORY_BIT_ENUM: {
        uint32_t v = w->inst->words[w->pos++];
        for (uint32_t bit = 0; bit < 32; bit++) {
            if (!(v & (1u << bit)))
                continue;
            const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)kind, 1u << bit);
            if (!e)
                return cvm_diag_at(w->diag, CVM_ERROR_MALFORMED, w->inst->offset,
                                   w->inst->opcode, "unknown %s bit 0x%x in instruction at word %u",
                                   k->name, 1u << bit, w->inst->offset);
            CVM_TRY(walk_params(w, e));
        }
        return CVM_SUCCESS;
    }
    case SPV_CATEGORY_COMPOSITE:
        for (uint16_t i = 0; i < k->num_bases; i++)
            CVM_TRY(walk_operand(w, k->bases[i], 0, name));
        return CVM_SUCCESS;
    }
    return CVM_SUCCESS;
}

static cvm_result walk_inst_with(walk w, const spv_instruction_desc *d, int nonsemantic)
{
    const spv_inst *inst = w.inst;
    cvm_diagnostic *diag = w.diag;
    /* OpExtInst operands past the instruction number belong to the extended
     * set; they are ids for GLSL.std.450 and are checked like ids.  Those of
     * a NonSemantic.* set are the set's business (and the instruction may be
     * dropped): glslang -gVS has been seen to write a 0 there, so they are
     * not checked here; what coopvm reads of them (DebugPrintf,
     * DebugLine) is checked where it is read. */
    for (uint16_t i = 0; i < d->num_operands; i++) {
        const spv_operand_desc *o = &d->operands[i];
        if (nonsemantic && w.pos >= 5)
            break;
        if (o->quantifier == SPV_QUANT_VARIABLE) {
            while (w.pos < inst->word_count) {
                uint32_t before = w.pos;
                CVM_TRY(walk_operand(&w, o->kind, 0, o->name));
                if (w.pos == before)
                    break;
            }
        } else {
            CVM_TRY(walk_operand(&w, o->kind, o->quantifier == SPV_QUANT_OPTIONAL, o->name));
        }
    }
    /* OpSpecConstantOp: the operands of the inner operation follow the
     * opcode literal; they are ids (OpSpecConstantOp takes no literals except
     * CompositeExtract/Insert indices and VectorShuffle components, which the
     * lowering checks). */
    if (inst->opcode == SpvOpSpecConstantOp)
        w.pos = inst->word_count;
    if (w.pos < inst->word_count && inst->opcode != SpvOpExtInst &&
        inst->opcode != SpvOpExtInstWithForwardRefsKHR)
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, inst->offset, inst->opcode,
                           "%s at word %u has %u words, more than its operands take", d->name,
                           inst->offset, inst->word_count);
    return CVM_SUCCESS;
}

static cvm_result walk_inst(const spv_inst *inst, const spv_instruction_desc *d, uint32_t bound,
                            int nonsemantic, uint32_t *max_id, cvm_diagnostic *diag)
{
    walk w = {inst, 1, bound, diag, NULL, UINT32_MAX, 0, 0, max_id};
    return walk_inst_with(w, d, nonsemantic);
}

/* ---- uses: every id operand names a definition of the kind its position
 * needs, reachable from where it is used ------------------------------------
 *
 * The engine gives a value slot to each constant, global variable and
 * result of the function being run; an operand naming a type, a label, an
 * undefined id or a result of another function has none, and a handler that
 * read it would read nothing.  The validator checks the same (CORE rules of
 * ids, operand kinds and dominance); this check is the reader's own, so
 * that a module that skipped validation (CVM_FLAG_NO_VALIDATION) is refused
 * with a message rather than run. */

enum { USE_VALUE, USE_TYPE, USE_LABEL, USE_SET, USE_FUNCTION_OR_VALUE, USE_ANY };

/* What an <id> operand position needs, by the grammar's operand name (as
 * the validator's operand_want). */
static int use_wanted(const spv_inst *in, uint32_t word, uint16_t kind, const char *n)
{
    if (kind == SPV_OPERAND_IdResultType)
        return USE_TYPE;
    if (kind == SPV_OPERAND_IdScope || kind == SPV_OPERAND_IdMemorySemantics)
        return USE_VALUE;
    if (in->opcode == SpvOpPhi)
        return ((word - 3) % 2) ? USE_LABEL : USE_VALUE;
    if (in->opcode == SpvOpSwitch)
        return word == 1 ? USE_VALUE : USE_ANY; /* targets: checked by the lowering */
    if (in->opcode == SpvOpExtInst || in->opcode == SpvOpExtInstWithForwardRefsKHR)
        return word == 3 ? USE_SET : USE_VALUE;
    if (!n) /* parameters of enumerants (TensorView, DecodeFunc, image operands...) */
        return USE_FUNCTION_OR_VALUE;
    if (!strcmp(n, "Type") || !strcmp(n, "Base Type") || !strcmp(n, "Data Type") ||
        !strcmp(n, "Pointer Type") || !strcmp(n, "Element Type"))
        return USE_TYPE;
    if (!strcmp(n, "Target Label") || !strcmp(n, "True Label") || !strcmp(n, "False Label") ||
        !strcmp(n, "Merge Block") || !strcmp(n, "Continue Target") || !strcmp(n, "Default"))
        return USE_LABEL; /* not "Target": OpCopyMemory's is a pointer (OpSwitch's targets are above) */
    if (strstr(n, "Func") || !strcmp(n, "Invoke"))
        return USE_FUNCTION_OR_VALUE;
    return USE_VALUE;
}

static int is_type_def(const spv_module *m, uint32_t id)
{
    const spv_instruction_desc *d = spv_grammar_instruction(m->defs[id].opcode);
    return d && !strcmp(d->op_class, "Type-Declaration") && d->has_result && !d->has_result_type;
}

/* The results outside functions that hold values: constants and variables
 * (a computation there is out of its section, and has no value slot). */
static int is_global_value(const spv_def *def)
{
    const spv_instruction_desc *d = spv_grammar_instruction(def->opcode);
    return def->opcode == SpvOpVariable || def->opcode == SpvOpUndef ||
           (d && !strcmp(d->op_class, "Constant-Creation"));
}

static int is_pointer_type(const spv_module *m, uint32_t type)
{
    uint16_t op = type < m->bound ? m->defs[type].opcode : 0;
    return op == SpvOpTypePointer || op == SpvOpTypeUntypedPointerKHR;
}

static int is_access_chain(uint16_t op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
           op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
}

/* Operands the memory handlers read as addresses (8 bytes a lane). */
static int names_pointer(uint16_t op, const char *name)
{
    return !strcmp(name, "Pointer") || (is_access_chain(op) && !strcmp(name, "Base")) ||
           ((op == SpvOpCopyMemory || op == SpvOpCopyMemorySized) &&
            (!strcmp(name, "Target") || !strcmp(name, "Source")));
}

/* Operands copied whole into the result (its slot has the Result Type's
 * size): OpCopyObject, OpSelect's objects, OpPhi's values. */
static int copies_value(const spv_inst *in, uint32_t word)
{
    switch (in->opcode) {
    case SpvOpCopyObject:
        return word == 3;
    case SpvOpSelect:
        return word == 4 || word == 5;
    case SpvOpPhi:
        return word >= 3 && (word - 3) % 2 == 0;
    default:
        return 0;
    }
}

/* The same type: one id, or two declarations with the same words. */
static int same_type(const spv_module *m, uint32_t a, uint32_t b)
{
    if (a == b)
        return 1;
    if (!a || !b || a >= m->bound || b >= m->bound || !m->defs[a].off || !m->defs[b].off)
        return 0;
    const spv_def *da = &m->defs[a], *db = &m->defs[b];
    if (da->opcode != db->opcode || da->nwords != db->nwords || da->nwords < 2)
        return 0;
    const uint32_t *wa = m->bin.words + da->off, *wb = m->bin.words + db->off;
    return memcmp(wa + 2, wb + 2, (da->nwords - 2u) * sizeof(uint32_t)) == 0;
}

/* Operands the handlers read as integer indices, at their type's width. */
static int names_index(uint16_t op, const char *name)
{
    if (is_access_chain(op))
        return !strcmp(name, "Indexes") || !strcmp(name, "Element");
    if (op == SpvOpVectorExtractDynamic || op == SpvOpVectorInsertDynamic)
        return !strcmp(name, "Index");
    return 0;
}

static int is_constant(const spv_def *def)
{
    const spv_instruction_desc *d = spv_grammar_instruction(def->opcode);
    return def->opcode == SpvOpUndef || (d && !strcmp(d->op_class, "Constant-Creation"));
}

/* 1 for the instructions that declare a type (OpType*). */
static int in_type_declaration(uint16_t opcode)
{
    const spv_instruction_desc *d = spv_grammar_instruction(opcode);
    return d && !strcmp(d->op_class, "Type-Declaration");
}

/* 1 when an OpTypeForwardPointer before word `before` declares the pointer
 * type `id`: the one use of a type ahead of its definition that the texts
 * allow (SPIR-V 1.6 section 2.4 "Logical Layout of a Module", item 9: the
 * operands of type, constant and global variable declarations are declared
 * before they are used; OpTypeForwardPointer is the exception).  Without this
 * rule a mutated module can build a type out of itself (%s = OpTypeStruct
 * %s), and every walk over its members recurses without end. */
static int forward_declared(const spv_module *m, uint32_t id, uint32_t before)
{
    if (m->defs[id].opcode != SpvOpTypePointer)
        return 0;
    size_t off = m->globals_begin ? m->globals_begin : SPV_HEADER_WORDS;
    spv_inst in;
    while (off < before && spv_next_inst(&m->bin, &off, &in, NULL) == 1)
        if (in.opcode == SpvOpTypeForwardPointer && in.word_count >= 2 && in.words[1] == id &&
            in.offset < before)
            return 1;
    return 0;
}

static cvm_result check_use(walk *w, uint16_t kind, const char *name, uint32_t id)
{
    const spv_module *m = w->m;
    const spv_inst *in = w->inst;
    const spv_def *def = &m->defs[id];
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    const char *iname = d ? d->name : "the instruction";
    if (kind == SPV_OPERAND_IdResult)
        return CVM_SUCCESS;
    int want = use_wanted(in, w->pos, kind, name);
    if (!name)
        name = kind == SPV_OPERAND_IdResultType ? "Result Type" : "?";
    if (!def->off)
        return cvm_diag_at(w->diag, CVM_ERROR_INVALID_MODULE, in->offset, in->opcode,
                           "operand '%s' of %s at word %u is %%%u, which is never defined", name,
                           iname, in->offset, id);
    if (w->func == UINT32_MAX && def->off >= in->offset && in->opcode != SpvOpTypeForwardPointer &&
        (in_type_declaration(in->opcode) || kind == SPV_OPERAND_IdResultType) &&
        !forward_declared(m, id, in->offset))
        return cvm_diag_at(w->diag, CVM_ERROR_INVALID_MODULE, in->offset, in->opcode,
                           "operand '%s' of %s at word %u is %%%u, which is not defined before it "
                           "(its definition is at word %u): a type and what it is built from "
                           "are declared before use",
                           name, iname, in->offset, id, def->off);
    if (w->func != UINT32_MAX && def->func != UINT32_MAX && def->func != w->func)
        return cvm_diag_at(w->diag, CVM_ERROR_INVALID_MODULE, in->offset, in->opcode,
                           "operand '%s' of %s at word %u is %%%u, a result of another function",
                           name, iname, in->offset, id);
    if (!w->kinds)
        return CVM_SUCCESS;
    if (w->func == UINT32_MAX && def->func != UINT32_MAX)
        return cvm_diag_at(w->diag, CVM_ERROR_INVALID_MODULE, in->offset, in->opcode,
                           "operand '%s' of %s at word %u is %%%u, a result of a function, "
                           "used outside functions",
                           name, iname, in->offset, id);
    const spv_instruction_desc *dd = spv_grammar_instruction(def->opcode);
    const char *dname = dd ? dd->name : "an instruction";
    int value = def->type != 0 && def->opcode != SpvOpFunction && def->opcode != SpvOpLabel;
    const char *need = NULL;
    switch (want) {
    case USE_VALUE:
        if (!value)
            need = "a value";
        else if (!is_type_def(m, def->type))
            need = "a value of a type";
        else if (def->func == UINT32_MAX && !is_global_value(def))
            need = "a value (a constant or a variable outside functions)";
        else if (w->constants && (!is_constant(def) || def->off >= in->offset))
            need = "a constant defined before";
        else if (names_pointer(in->opcode, name) && !is_pointer_type(m, def->type))
            need = "a pointer";
        else if (names_index(in->opcode, name) &&
                 (def->type >= m->bound || m->defs[def->type].opcode != SpvOpTypeInt))
            need = "an integer scalar";
        else if (copies_value(in, w->pos) && !same_type(m, def->type, in->words[1]))
            need = "a value of the Result Type";
        break;
    case USE_FUNCTION_OR_VALUE:
        if (def->opcode == SpvOpFunction)
            break;
        if (!value || (def->func == UINT32_MAX && !is_global_value(def)))
            need = "a function or a value";
        break;
    case USE_TYPE:
        if (!is_type_def(m, id))
            need = "a type";
        break;
    case USE_LABEL:
        if (def->opcode != SpvOpLabel)
            need = "a label";
        break;
    case USE_SET:
        if (def->opcode != SpvOpExtInstImport)
            need = "an OpExtInstImport";
        break;
    default:
        break;
    }
    if (need)
        return cvm_diag_at(w->diag, CVM_ERROR_INVALID_MODULE, in->offset, in->opcode,
                           "operand '%s' of %s at word %u is %%%u (%s), where %s is needed", name,
                           iname, in->offset, id, dname, need);
    return CVM_SUCCESS;
}

/* 1 for instructions whose operands name what their positions say
 * (computations, constants, variables); declarations of types, names,
 * decorations and modes only need their ids defined. */
static int uses_kinds(const spv_instruction_desc *d, uint16_t opcode)
{
    const char *cls = d->op_class;
    if (opcode == SpvOpExtInst || opcode == SpvOpExtInstWithForwardRefsKHR)
        return 1;
    return strcmp(cls, "Debug") && strcmp(cls, "Annotation") && strcmp(cls, "Mode-Setting") &&
           strcmp(cls, "Type-Declaration") && strcmp(cls, "Extension") &&
           opcode != SpvOpFunction && strncmp(d->name, "OpType", 6) != 0;
}

static int is_nonsemantic_set(const spv_module *m, uint32_t id);

/* The second pass of spv_module_parse, once every definition is known. */
static cvm_result check_uses(const spv_module *m, cvm_diagnostic *diag)
{
    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    uint32_t func = UINT32_MAX, nfunc = 0;
    while (spv_next_inst(&m->bin, &off, &in, NULL) == 1) {
        const spv_instruction_desc *d = spv_grammar_instruction(in.opcode);
        if (in.opcode == SpvOpFunction)
            func = nfunc++;
        int nonsemantic = (in.opcode == SpvOpExtInst ||
                           in.opcode == SpvOpExtInstWithForwardRefsKHR) &&
                          in.word_count >= 4 && is_nonsemantic_set(m, in.words[3]);
        /* OpSpecConstantOp's inner operands are walked by the lowering;
         * OpSwitch literals may be 64-bit (not what the grammar walk
         * assumes); the definitions of OpFunctionParameter/OpLabel etc. are
         * all there is to them. */
        if (in.opcode == SpvOpSpecConstantOp && in.word_count >= 4 && in.word_count <= 64) {
            /* The inner operation, as the lowering builds it (exec/specop.c):
             * its operands are constants. */
            uint32_t words[64];
            const spv_instruction_desc *id = spv_grammar_instruction(in.words[3] & 0xffffu);
            if (id && id->has_result_type && id->has_result) {
                words[0] = ((uint32_t)(in.word_count - 1u) << 16) | (in.words[3] & 0xffffu);
                words[1] = in.words[1];
                words[2] = in.words[2];
                for (uint32_t i = 4; i < in.word_count; i++)
                    words[i - 1] = in.words[i];
                spv_inst inner = {words, (uint16_t)(in.words[3] & 0xffffu),
                                  (uint16_t)(in.word_count - 1u), in.offset};
                walk w = {&inner, 1, m->bound, diag, m, func, 1, 1, NULL};
                cvm_result r = walk_inst_with(w, id, 0);
                if (r == CVM_SUCCESS)
                    continue;
                if (diag) /* name the instruction as it stands in the module */
                    diag->opcode = SpvOpSpecConstantOp;
                return r;
            }
        } else if (in.opcode != SpvOpSpecConstantOp && in.opcode != SpvOpSwitch) {
            /* Results that the handlers write as addresses need a pointer type. */
            if ((is_access_chain(in.opcode) || in.opcode == SpvOpVariable) && in.word_count >= 3 &&
                !is_pointer_type(m, in.words[1]))
                return cvm_diag_at(diag, CVM_ERROR_INVALID_MODULE, in.offset, in.opcode,
                                   "%s at word %u: the Result Type %%%u is not a pointer type",
                                   d->name, in.offset, in.words[1]);
            walk w = {&in, 1, m->bound, diag, m, func, uses_kinds(d, in.opcode),
                      func == UINT32_MAX && !strcmp(d->op_class, "Constant-Creation"), NULL};
            CVM_TRY(walk_inst_with(w, d, nonsemantic));
        } else if (in.opcode == SpvOpSwitch && in.word_count >= 3) {
            walk w = {&in, 1, m->bound, diag, m, func, 1, 0, NULL};
            CVM_TRY(check_use(&w, SPV_OPERAND_IdRef, "Selector", in.words[1]));
        }
        if (in.opcode == SpvOpFunctionEnd)
            func = UINT32_MAX;
    }
    return CVM_SUCCESS;
}

/* 1 when `id` is an OpExtInstImport of a NonSemantic.* set. */
static int is_nonsemantic_set(const spv_module *m, uint32_t id)
{
    spv_inst imp;
    const char *name;
    return id < m->bound && m->defs[id].opcode == SpvOpExtInstImport &&
           spv_module_inst_at(m, m->defs[id].off, &imp) && spv_inst_string(&imp, 2, &name) &&
           !strncmp(name, "NonSemantic.", 12);
}

/* ---- source positions -------------------------------------------------------- */

/* NonSemantic.Shader.DebugInfo.100 instruction numbers. */
enum { DEBUGINFO_SOURCE = 35, DEBUGINFO_LINE = 103, DEBUGINFO_NO_LINE = 104 };

/* The value of an OpConstant of 32 bits or less, or 0. */
static uint32_t const_u32(const spv_module *m, uint32_t id)
{
    spv_inst c;
    if (id >= m->bound || !m->defs[id].off || m->defs[id].opcode != SpvOpConstant ||
        !spv_module_inst_at(m, m->defs[id].off, &c) || c.word_count < 4)
        return 0;
    return c.words[3];
}

/* A line-table entry for OpLine, OpNoLine, the end of a function, and the
 * DebugInfo set's DebugLine (Source, Line Start, Line End, Column Start,
 * Column End: ids of constants; Source a DebugSource whose File is an
 * OpString) and DebugNoLine.  Returns 0 for any other instruction.  Operands
 * that are not what the text says give position 0 (no line) rather than an
 * error: the set is non-semantic. */
static int line_entry(const spv_module *m, const spv_inst *in, spv_line *o)
{
    const uint32_t *w = in->words;
    memset(o, 0, sizeof(*o));
    o->off = in->offset;
    switch (in->opcode) {
    case SpvOpLine:
        if (in->word_count < 4)
            return 0;
        o->file = w[1];
        o->line = w[2];
        o->column = w[3];
        return 1;
    case SpvOpNoLine:
    case SpvOpFunctionEnd:
        return 1;
    case SpvOpExtInst:
        if (!m->debuginfo_ext || in->word_count < 5 || w[3] != m->debuginfo_ext)
            return 0;
        if (w[4] == DEBUGINFO_NO_LINE)
            return 1;
        if (w[4] != DEBUGINFO_LINE)
            return 0;
        if (in->word_count >= 10) {
            spv_inst src;
            uint32_t s = w[5];
            if (s < m->bound && m->defs[s].off && spv_module_inst_at(m, m->defs[s].off, &src) &&
                src.opcode == SpvOpExtInst && src.word_count >= 6 && src.words[3] == m->debuginfo_ext &&
                src.words[4] == DEBUGINFO_SOURCE && src.words[5] < m->bound &&
                m->defs[src.words[5]].opcode == SpvOpString) {
                o->file = src.words[5];
                o->line = const_u32(m, w[6]);
                o->column = const_u32(m, w[8]);
            }
        }
        if (!o->line)
            o->file = 0;
        return 1;
    default:
        return 0;
    }
}

/* ---- the parse ------------------------------------------------------------- */

static int in_function_section(uint16_t op)
{
    (void)op;
    return 1;
}

cvm_result spv_module_parse(spv_module *o_mod, spv_binary *bin, cvm_diagnostic *diag)
{
    spv_module m;
    memset(&m, 0, sizeof(m));
    m.bin = *bin;
    m.bound = bin->header.bound;
    cvm_result r = CVM_SUCCESS;
    uint32_t cap_caps = 0, cap_decos = 0, cap_entries = 0, cap_modes = 0, cap_funcs = 0;
    uint32_t cap_lines = 0;
    uint32_t cur_func = UINT32_MAX;
    uint32_t max_id = 0; /* the largest id any instruction defines or names */

    if (m.bound > (1u << 22)) {
        r = cvm_diag_at(diag, CVM_ERROR_LIMIT, 3, 0, "id bound %u is larger than coopvm's limit",
                        m.bound);
        goto fail;
    }
    m.defs = cvm_calloc(m.bound, sizeof(spv_def));
    if (!m.defs) {
        r = cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto fail;
    }

    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    int got;
    while ((got = spv_next_inst(&m.bin, &off, &in, diag)) == 1) {
        const spv_instruction_desc *d = spv_grammar_instruction(in.opcode);
        if (!d) {
            r = cvm_diag_at(diag, CVM_ERROR_UNSUPPORTED, in.offset, in.opcode,
                            "unknown opcode %u at word %u", in.opcode, in.offset);
            goto fail;
        }
        int nonsemantic = (in.opcode == SpvOpExtInst || in.opcode == SpvOpExtInstWithForwardRefsKHR) &&
                          in.word_count >= 4 && is_nonsemantic_set(&m, in.words[3]);
        if ((r = walk_inst(&in, d, m.bound, nonsemantic, &max_id, diag)) != CVM_SUCCESS)
            goto fail;
        uint32_t rt = 0, id = 0;
        if (d->has_result_type && d->has_result) {
            rt = in.words[1];
            id = in.words[2];
        } else if (d->has_result) {
            id = in.words[1];
        }
        if (id) {
            if (m.defs[id].off) {
                r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, in.offset, in.opcode,
                                "id %u defined twice (at words %u and %u)", id, m.defs[id].off,
                                in.offset);
                goto fail;
            }
            m.defs[id].off = in.offset;
            m.defs[id].opcode = in.opcode;
            m.defs[id].nwords = in.word_count;
            m.defs[id].type = rt;
            m.defs[id].func = cur_func;
        }
        if (cur_func != UINT32_MAX || in.opcode == SpvOpFunctionEnd) {
            spv_line ln;
            if (line_entry(&m, &in, &ln)) {
                if (!grow((void **)&m.lines, &cap_lines, m.nlines + 1, sizeof(spv_line)))
                    goto oom;
                m.lines[m.nlines++] = ln;
            }
        }
        switch (in.opcode) {
        case SpvOpCapability: {
            uint32_t cap = in.words[1];
            if (!spv_capability_supported(cap)) {
                const spv_enumerant_desc *e = spv_grammar_enumerant(SPV_OPERAND_Capability, cap);
                r = cvm_diag_at(diag, CVM_ERROR_UNSUPPORTED, in.offset, in.opcode,
                                "capability %s is not supported by coopvm",
                                e ? e->name : "(unknown)");
                goto fail;
            }
            if (!grow((void **)&m.capabilities, &cap_caps, m.ncapabilities + 1, sizeof(uint32_t)))
                goto oom;
            m.capabilities[m.ncapabilities++] = cap;
            break;
        }
        case SpvOpExtension: {
            const char *s;
            spv_inst_string(&in, 1, &s);
            if (!extension_supported(s)) {
                r = cvm_diag_at(diag, CVM_ERROR_UNSUPPORTED, in.offset, in.opcode,
                                "extension %s is not supported by coopvm", s);
                goto fail;
            }
            break;
        }
        case SpvOpExtInstImport: {
            const char *s;
            spv_inst_string(&in, 2, &s);
            if (!strcmp(s, "GLSL.std.450"))
                m.glsl_ext = in.words[1];
            else if (!strcmp(s, "NonSemantic.DebugPrintf"))
                m.printf_ext = in.words[1];
            else if (!strcmp(s, "NonSemantic.Shader.DebugInfo.100") ||
                     !strcmp(s, "NonSemantic.Shader.DebugInfo.101")) /* glslang with forward
                                                                          references; the same
                                                                          DebugLine/DebugSource */
                m.debuginfo_ext = in.words[1];
            else if (strncmp(s, "NonSemantic.", 12) != 0) {
                r = cvm_diag_at(diag, CVM_ERROR_UNSUPPORTED, in.offset, in.opcode,
                                "extended instruction set \"%s\" is not supported", s);
                goto fail;
            }
            break;
        }
        case SpvOpMemoryModel:
            m.addressing_model = in.words[1];
            m.memory_model = in.words[2];
            break;
        case SpvOpEntryPoint: {
            if (!grow((void **)&m.entries, &cap_entries, m.nentries + 1, sizeof(spv_entry_point)))
                goto oom;
            spv_entry_point *e = &m.entries[m.nentries++];
            e->model = in.words[1];
            e->func = in.words[2];
            spv_inst_string(&in, 3, &e->name);
            e->off = in.offset;
            break;
        }
        case SpvOpExecutionMode:
        case SpvOpExecutionModeId: {
            if (!grow((void **)&m.modes, &cap_modes, m.nmodes + 1, sizeof(spv_exec_mode)))
                goto oom;
            spv_exec_mode *em = &m.modes[m.nmodes++];
            em->func = in.words[1];
            em->mode = in.words[2];
            em->off = in.offset + 3;
            em->nops = in.word_count - 3u;
            em->is_id = in.opcode == SpvOpExecutionModeId;
            break;
        }
        case SpvOpDecorate:
        case SpvOpMemberDecorate:
        case SpvOpDecorateId:
        case SpvOpDecorateString:
        case SpvOpMemberDecorateString: {
            if (!grow((void **)&m.decorations, &cap_decos, m.ndecorations + 1,
                      sizeof(spv_decoration)))
                goto oom;
            spv_decoration *dd = &m.decorations[m.ndecorations++];
            int member = in.opcode == SpvOpMemberDecorate || in.opcode == SpvOpMemberDecorateString;
            dd->target = in.words[1];
            dd->member = member ? in.words[2] : SPV_NO_MEMBER;
            dd->decoration = in.words[member ? 3 : 2];
            dd->off = in.offset + (member ? 4u : 3u);
            dd->nops = in.word_count - (member ? 4u : 3u);
            break;
        }
        case SpvOpGroupDecorate:
        case SpvOpGroupMemberDecorate:
        case SpvOpDecorationGroup:
            r = cvm_diag_at(diag, CVM_ERROR_UNSUPPORTED, in.offset, in.opcode,
                            "decoration groups are not supported");
            goto fail;
        case SpvOpFunction: {
            if (cur_func != UINT32_MAX) {
                r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, in.offset, in.opcode,
                                "OpFunction inside a function");
                goto fail;
            }
            if (!m.globals_end)
                m.globals_end = in.offset;
            if (!grow((void **)&m.functions, &cap_funcs, m.nfunctions + 1, sizeof(spv_function)))
                goto oom;
            spv_function *f = &m.functions[m.nfunctions];
            f->id = in.words[2];
            f->result_type = in.words[1];
            f->control = in.words[3];
            f->fn_type = in.words[4];
            f->begin = in.offset;
            cur_func = m.nfunctions++;
            m.defs[f->id].func = UINT32_MAX;
            break;
        }
        case SpvOpFunctionEnd:
            if (cur_func == UINT32_MAX) {
                r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, in.offset, in.opcode,
                                "OpFunctionEnd outside a function");
                goto fail;
            }
            m.functions[cur_func].end = (uint32_t)off;
            cur_func = UINT32_MAX;
            break;
        default:
            if (!in_function_section(in.opcode))
                break;
            if (!m.globals_begin && cur_func == UINT32_MAX &&
                (d->has_result || in.opcode == SpvOpTypeForwardPointer))
                m.globals_begin = in.offset;
            break;
        }
    }
    if (got < 0) {
        r = diag ? diag->result : CVM_ERROR_MALFORMED;
        goto fail;
    }
    if (cur_func != UINT32_MAX) {
        r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, m.functions[cur_func].begin, SpvOpFunction,
                        "function %u has no OpFunctionEnd", m.functions[cur_func].id);
        goto fail;
    }
    /* The header's bound is only an upper limit (SPIR-V 2.3: "all <id>s in
     * this module are guaranteed to satisfy 0 < id < Bound"), and a module
     * may declare up to 4194303 while naming a few hundred ids.  Everything
     * below sizes its tables by the bound -- the definitions here, the
     * lowering's types and offsets, the interpreter's value slots per call
     * -- so it is the ids the module really uses, not the header's word. */
    if (max_id + 1 < m.bound) {
        spv_def *defs = cvm_realloc(m.defs, ((size_t)max_id + 1) * sizeof(spv_def));
        if (defs)
            m.defs = defs;
        m.bound = max_id + 1;
    }
    if ((r = check_uses(&m, diag)) != CVM_SUCCESS)
        goto fail;
    if (!m.globals_end)
        m.globals_end = (uint32_t)m.bin.word_count;
    if (!m.globals_begin)
        m.globals_begin = m.globals_end;
    for (uint32_t i = 0; i < m.nentries; i++) {
        uint32_t f = m.entries[i].func;
        if (m.defs[f].opcode != SpvOpFunction) {
            r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, m.entries[i].off, SpvOpEntryPoint,
                            "entry point '%s' names id %u, which is not a function",
                            m.entries[i].name, f);
            goto fail;
        }
    }
    *o_mod = m;
    memset(bin, 0, sizeof(*bin));
    return CVM_SUCCESS;
oom:
    r = cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
fail:
    cvm_mem_free(m.defs);
    cvm_mem_free(m.lines);
    cvm_mem_free(m.capabilities);
    cvm_mem_free(m.decorations);
    cvm_mem_free(m.entries);
    cvm_mem_free(m.modes);
    cvm_mem_free(m.functions);
    return r;
}

void spv_module_release(spv_module *mod)
{
    if (!mod)
        return;
    spv_binary_release(&mod->bin);
    cvm_mem_free(mod->defs);
    cvm_mem_free(mod->lines);
    cvm_mem_free(mod->capabilities);
    cvm_mem_free(mod->decorations);
    cvm_mem_free(mod->entries);
    cvm_mem_free(mod->modes);
    cvm_mem_free(mod->functions);
    memset(mod, 0, sizeof(*mod));
}

int spv_module_inst_at(const spv_module *mod, uint32_t off, spv_inst *o_inst)
{
    size_t o = off;
    return spv_next_inst(&mod->bin, &o, o_inst, NULL) == 1;
}

int spv_module_def_inst(const spv_module *mod, uint32_t id, spv_inst *o_inst)
{
    if (id == 0 || id >= mod->bound || !mod->defs[id].off)
        return 0;
    return spv_module_inst_at(mod, mod->defs[id].off, o_inst);
}

const spv_decoration *spv_module_find_decoration(const spv_module *mod, uint32_t target,
                                                 uint32_t member, uint32_t decoration)
{
    for (uint32_t i = 0; i < mod->ndecorations; i++) {
        const spv_decoration *d = &mod->decorations[i];
        if (d->target == target && d->member == member && d->decoration == decoration)
            return d;
    }
    return NULL;
}

uint32_t spv_decoration_operand(const spv_module *mod, const spv_decoration *d, uint32_t i)
{
    if (i >= d->nops)
        return 0;
    return mod->bin.words[d->off + i];
}

const char *spv_module_name(const spv_module *mod, uint32_t id)
{
    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    /* debug names precede every type and function; OpString (which has a
     * result) may come first, so look up to the first function */
    while (off < mod->globals_end && spv_next_inst(&mod->bin, &off, &in, NULL) == 1) {
        if (in.opcode == SpvOpName && in.word_count >= 3 && in.words[1] == id) {
            const char *s;
            if (spv_inst_string(&in, 2, &s))
                return s;
        }
    }
    return NULL;
}

int spv_module_source_line(const spv_module *mod, uint32_t word_off, const char **o_file,
                           uint32_t *o_line, uint32_t *o_column)
{
    /* the last entry at or before word_off */
    uint32_t lo = 0, hi = mod->nlines;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (mod->lines[mid].off <= word_off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    const spv_line *l = &mod->lines[lo - 1];
    if (!l->file || !l->line)
        return 0;
    spv_inst s;
    const char *name = "";
    if (!spv_module_def_inst(mod, l->file, &s) || s.opcode != SpvOpString ||
        !spv_inst_string(&s, 2, &name))
        name = "";
    *o_file = name;
    *o_line = l->line;
    *o_column = l->column;
    return 1;
}

void spv_module_locate(const spv_module *mod, uint32_t word_off, cvm_diagnostic *diag)
{
    const char *name;
    uint32_t line, col;
    if (!diag || !mod->bin.words || !spv_module_source_line(mod, word_off, &name, &line, &col))
        return;
    diag->line = line;
    diag->column = col;
    strncpy(diag->file, name, sizeof(diag->file) - 1);
    diag->file[sizeof(diag->file) - 1] = 0;
}
