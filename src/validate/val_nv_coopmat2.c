/* SPV_NV_cooperative_matrix2 (revision 2; revision 1 states the same rules
 * with less detail): tensor loads and stores, reductions, per-element
 * operations, Use conversion and transpose, callbacks, workgroup scope. */
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

/* ---- shared: the operands of OpCooperativeMatrixLoadTensorNV / StoreTensorNV ---- */

int val_tensor_operands(val_ctx *v, const spv_inst *in, val_tensor_ops *o)
{
    memset(o, 0, sizeof(*o));
    int load = in->opcode == SpvOpCooperativeMatrixLoadTensorNV;
    uint32_t base = load ? 3 : 1;
    o->pointer = val_word(in, base);
    o->object = val_word(in, base + 1);
    o->layout = val_word(in, base + 2);
    o->memory_mask = val_word(in, base + 3);
    const val_operand *ops;
    const char *why;
    int n = val_operands(v, in, &ops, &why);
    for (int i = 0; i < n; i++) {
        if (ops[i].kind != SPV_OPERAND_TensorAddressingOperands)
            continue;
        o->ta_mask = in->words[ops[i].word];
        int k = i + 1;
        static const uint32_t bits[] = {SpvTensorAddressingOperandsTensorViewMask,
                                        SpvTensorAddressingOperandsDecodeFuncMask,
                                        SpvTensorAddressingOperandsDecodeVectorFuncMask};
        uint32_t *dst[] = {&o->view, &o->decode, &o->decode_vector};
        for (size_t b = 0; b < CVM_ARRAY_SIZE(bits); b++)
            if ((o->ta_mask & bits[b]) && k < n)
                *dst[b] = in->words[ops[k++].word];
        return 1;
    }
    return 0;
}

/* A function's signature: return type and parameter types. */
int val_fn_signature(const val_ctx *v, uint32_t func, uint32_t *o_ret, const uint32_t **o_params,
                     uint32_t *o_nparams)
{
    spv_inst f, t;
    if (val_opcode(v, func) != SpvOpFunction || !val_def(v, func, &f) ||
        !val_def(v, f.words[4], &t) || t.opcode != SpvOpTypeFunction)
        return 0;
    *o_ret = f.words[1];
    *o_params = t.words + 3;
    *o_nparams = t.word_count - 3u;
    return 1;
}

/* Dim of a tensor layout / view type, when known. */
int val_tensor_type_dim(const val_ctx *v, uint32_t type, uint16_t op, uint64_t *o_dim)
{
    spv_inst t;
    if (val_opcode(v, type) != op || !val_def(v, type, &t))
        return 0;
    return val_const_value(v, t.words[2], o_dim);
}

/* The parameter requirements DecodeFunc and DecodeVectorFunc share:
 * three parameters, a PhysicalStorageBuffer pointer, then two arrays of
 * 32-bit integers of the tensor layout's dimension. */
int val_decode_params(val_ctx *v, const spv_inst *in, uint32_t func, uint32_t layout,
                      const char *what)
{
    uint32_t ret, np;
    const uint32_t *params;
    if (!val_fn_signature(v, func, &ret, &params, &np))
        return 1;
    if (np != 3)
        return val_fail(v, "the %s %%%u has %u parameters; it needs three", what, func, np);
    uint32_t sc;
    if (!val_pointer_type(v, params[0], &sc, NULL) || sc != SpvStorageClassPhysicalStorageBuffer)
        return val_fail(v, "the first parameter of the %s %%%u is not a PhysicalStorageBuffer "
                           "pointer",
                        what, func);
    uint64_t dim = 0;
    int dim_known = val_tensor_type_dim(v, val_type_of(v, layout), SpvOpTypeTensorLayoutNV, &dim);
    for (uint32_t i = 1; i < 3; i++) {
        uint32_t elem, len_id;
        uint64_t len;
        if (val_opcode(v, params[i]) != SpvOpTypeArray ||
            !val_array_type(v, params[i], &elem, &len_id) || !val_is_int_scalar(v, elem, 32))
            return val_fail(v, "parameter %u of the %s %%%u is not an array of 32-bit integers", i,
                            what, func);
        if (dim_known && val_const_value(v, len_id, &len) && len != dim)
            return val_fail(v, "parameter %u of the %s %%%u has %llu elements; the tensor layout "
                               "has %llu dimensions",
                            i, what, func, (unsigned long long)len, (unsigned long long)dim);
    }
    (void)in;
    return 1;
}

/* ---- module rules -------------------------------------------------------------- */

/* The module uses SPV_NV_cooperative_matrix2: it declares the extension or
 * one of its own capabilities (explicitly: CooperativeMatrixDecodeVectorNV
 * declares CooperativeMatrixBlockLoadsNV implicitly, and that is the
 * decode-vector text's dependency, not a use of this one). */
static int nv2_used(const val_ctx *v)
{
    if (val_has_ext(v, "SPV_NV_cooperative_matrix2"))
        return 1;
    for (uint32_t i = 0; i < v->ncaps_declared; i++)
        if (v->caps[i] == SpvCapabilityCooperativeMatrixConversionsNV ||
            v->caps[i] == SpvCapabilityCooperativeMatrixTensorAddressingNV ||
            v->caps[i] == SpvCapabilityCooperativeMatrixBlockLoadsNV)
            return 1;
    return 0;
}

int nv2_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (nv2_used(v) && !val_version_at_least(v, 1, 6))
        return val_fail(v, "SPV_NV_cooperative_matrix2 is used in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int nv2_requires_khr(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (nv2_used(v) && !val_has_ext(v, "SPV_KHR_cooperative_matrix"))
        return val_fail(v, "SPV_NV_cooperative_matrix2 is used without OpExtension "
                           "\"SPV_KHR_cooperative_matrix\"");
    return 1;
}

int nv2_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    static const uint32_t own[] = {SpvCapabilityCooperativeMatrixConversionsNV,
                                   SpvCapabilityCooperativeMatrixTensorAddressingNV,
                                   SpvCapabilityCooperativeMatrixBlockLoadsNV};
    /* Reductions and per-element operations are also SPV_EXT_cooperative_matrix_maintenance1's. */
    static const uint32_t shared[] = {SpvCapabilityCooperativeMatrixReductionsNV,
                                      SpvCapabilityCooperativeMatrixPerElementOperationsNV};
    int nv = val_has_ext(v, "SPV_NV_cooperative_matrix2");
    int ext = nv || val_has_ext(v, "SPV_EXT_cooperative_matrix_maintenance1");
    for (uint32_t i = 0; i < v->ncaps_declared; i++) {
        for (size_t k = 0; k < CVM_ARRAY_SIZE(own); k++)
            if (v->caps[i] == own[k] && !nv)
                goto missing;
        for (size_t k = 0; k < CVM_ARRAY_SIZE(shared); k++)
            if (v->caps[i] == shared[k] && !ext)
                goto missing;
        continue;
    missing: {
        char tmp[16];
        return val_fail(v, "the capability %s is declared without OpExtension "
                           "\"SPV_NV_cooperative_matrix2\"",
                        val_enum_name(SPV_OPERAND_Capability, v->caps[i], tmp, sizeof(tmp)));
    }
    }
    return 1;
}

int nv2_tensor_addressing_ext(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (val_has_cap(v, SpvCapabilityCooperativeMatrixTensorAddressingNV) &&
        !val_has_ext(v, "SPV_NV_tensor_addressing"))
        return val_fail(v, "CooperativeMatrixTensorAddressingNV is declared without OpExtension "
                           "\"SPV_NV_tensor_addressing\"");
    return 1;
}

/* ---- workgroup scope ----------------------------------------------------------- */

int nv2_workgroup_size(val_ctx *v, const spv_inst *in)
{
    uint64_t scope;
    if (!val_const_value(v, in->words[3], &scope) || scope != SpvScopeWorkgroup)
        return 1;
    for (uint32_t i = 0; i < v->nmodes; i++) {
        spv_inst m;
        if (!val_inst_at(v, v->mode_offs[i], &m))
            continue;
        if (m.words[2] == SpvExecutionModeLocalSize)
            return 1;
        if (m.words[2] == SpvExecutionModeLocalSizeId && m.word_count >= 6) {
            int before = 1;
            for (uint32_t k = 3; k < 6; k++)
                if (!v->ids[m.words[k]].off || v->ids[m.words[k]].off > in->offset)
                    before = 0;
            if (before)
                return 1;
        }
    }
    for (uint32_t i = 0; i < v->ndecos; i++) {
        spv_inst d;
        if (!val_inst_at(v, v->deco_offs[i], &d) || d.opcode != SpvOpDecorate || d.word_count < 4 ||
            d.words[2] != SpvDecorationBuiltIn || d.words[3] != SpvBuiltInWorkgroupSize)
            continue;
        uint32_t id = d.words[1];
        if (val_is_constant_inst(v, id) && v->ids[id].off < in->offset)
            return 1;
    }
    return val_fail(v, "a Workgroup-scope cooperative matrix type before the workgroup size is "
                       "specified (LocalSize, LocalSizeId with earlier constants, or a "
                       "WorkgroupSize constant)");
}

/* ---- callbacks: no tangled instructions -------------------------------------------- */

static int is_cm_conversion_or_arith(val_ctx *v, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (strcmp(d->op_class, "Conversion") && strcmp(d->op_class, "Arithmetic") &&
        in->opcode != SpvOpCompositeConstruct && in->opcode != SpvOpCompositeConstructReplicateEXT)
        return 0;
    return val_touches_type(v, in, SpvOpTypeCooperativeMatrixKHR);
}

/* Tangled instructions: SPIR-V 2.2.5 (barriers, group and non-uniform
 * operations, derivatives, implicit-LOD image instructions) with the lists
 * SPV_KHR_cooperative_matrix and SPV_NV_cooperative_matrix2 add. */
int val_is_tangled(val_ctx *v, const spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpControlBarrier:
    case SpvOpControlBarrierArriveEXT:
    case SpvOpControlBarrierWaitEXT:
    case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleProjImplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSparseSampleImplicitLod:
    case SpvOpImageSparseSampleDrefImplicitLod:
    case SpvOpImageSparseSampleProjImplicitLod:
    case SpvOpImageSparseSampleProjDrefImplicitLod:
    case SpvOpImageQueryLod:
    case SpvOpCooperativeMatrixLoadKHR:
    case SpvOpCooperativeMatrixStoreKHR:
    case SpvOpCooperativeMatrixMulAddKHR:
    case SpvOpCooperativeMatrixLoadTensorNV:
    case SpvOpCooperativeMatrixStoreTensorNV:
    case SpvOpCooperativeMatrixReduceNV:
    case SpvOpCooperativeMatrixConvertNV:
    case SpvOpCooperativeMatrixTransposeNV:
    case SpvOpCooperativeMatrixPerElementOpNV:
        return 1;
    default:
        break;
    }
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!strcmp(d->op_class, "Group") || !strcmp(d->op_class, "Non-Uniform") ||
        !strcmp(d->op_class, "Derivative") || !strncmp(d->name, "OpSubgroup", 10))
        return 1;
    return is_cm_conversion_or_arith(v, in);
}

int nv2_callback_tangled(val_ctx *v, const spv_inst *unused)
{
    (void)unused;
    if (!v->nfuncs)
        return 1;
    uint8_t *seen = cvm_calloc(v->nfuncs, 1), *one = cvm_calloc(v->nfuncs, 1);
    uint32_t *user = cvm_calloc(v->nfuncs, sizeof(uint32_t));
    int ok = 1;
    if (!seen || !one || !user) {
        v->oom = 1;
        goto done;
    }
    /* Functions used as DecodeFunc, Func or CombineFunc, and their callees. */
    spv_inst in;
    for (uint32_t off = SPV_HEADER_WORDS; off < v->nwords && val_inst_at(v, off, &in);
         off += in.word_count) {
        uint32_t cb = 0;
        if (in.opcode == SpvOpCooperativeMatrixReduceNV && in.word_count >= 6)
            cb = in.words[5];
        else if (in.opcode == SpvOpCooperativeMatrixPerElementOpNV && in.word_count >= 5)
            cb = in.words[4];
        else if (in.opcode == SpvOpCooperativeMatrixLoadTensorNV) {
            val_tensor_ops t;
            if (val_tensor_operands(v, &in, &t))
                cb = t.decode;
        }
        uint32_t f = cb ? val_function_index(v, cb) : VAL_NONE;
        if (f == VAL_NONE)
            continue;
        val_call_closure(v, f, one);
        for (uint32_t i = 0; i < v->nfuncs; i++)
            if (one[i] && !seen[i]) {
                seen[i] = 1;
                user[i] = off;
            }
    }
    for (uint32_t f = 0; f < v->nfuncs && ok; f++) {
        if (!seen[f])
            continue;
        for (uint32_t off = v->funcs[f].begin; off < v->funcs[f].end && val_inst_at(v, off, &in);
             off += in.word_count)
            if (val_is_tangled(v, &in)) {
                ok = val_fail_at(v, off, "%s is tangled, in function %%%u, which the %s at word %u "
                                         "uses as a callback (or calls one)",
                                 val_op_name(in.opcode), v->funcs[f].id,
                                 val_op_name(v->words[user[f]] & 0xffff), user[f]);
                break;
            }
    }
done:
    cvm_mem_free(seen);
    cvm_mem_free(one);
    cvm_mem_free(user);
    return ok;
}

/* ---- tensor loads and stores ------------------------------------------------------- */

int nv2_load_make_available(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (t.memory_mask & SpvMemoryAccessMakePointerAvailableMask)
        return val_fail(v, "MakePointerAvailable is not valid with OpCooperativeMatrixLoadTensorNV");
    return 1;
}

int nv2_store_make_visible(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (t.memory_mask & SpvMemoryAccessMakePointerVisibleMask)
        return val_fail(v, "MakePointerVisible is not valid with OpCooperativeMatrixStoreTensorNV");
    return 1;
}

int nv2_load_result(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[1]) != SpvOpTypeCooperativeMatrixKHR)
        return val_fail(v, "the Result Type %%%u is not a cooperative matrix type", in->words[1]);
    return 1;
}

int nv2_load_object(val_ctx *v, const spv_inst *in)
{
    if (val_type_of(v, in->words[4]) != in->words[1])
        return val_fail(v, "Object %%%u has type %%%u, not the Result Type %%%u", in->words[4],
                        val_type_of(v, in->words[4]), in->words[1]);
    return 1;
}

int nv2_store_object(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, val_type_of(v, in->words[2])) != SpvOpTypeCooperativeMatrixKHR)
        return val_fail(v, "Object %%%u is not a cooperative matrix", in->words[2]);
    return 1;
}

int nv2_tensor_pointer_array(val_ctx *v, const spv_inst *in)
{
    if (!val_has_cap(v, SpvCapabilityShader))
        return 1;
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (!val_pointer_type(v, val_type_of(v, t.pointer), NULL, NULL))
        return val_fail(v, "Pointer %%%u is not a pointer", t.pointer);
    if (!val_points_into_array(v, t.pointer))
        return val_fail(v, "Pointer %%%u does not point into an array", t.pointer);
    return 1;
}

int nv2_tensor_layout_operand(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (val_opcode(v, val_type_of(v, t.layout)) != SpvOpTypeTensorLayoutNV)
        return val_fail(v, "TensorLayout %%%u is not a tensor layout", t.layout);
    return 1;
}

int nv2_tensor_view_operand(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (t.view && val_opcode(v, val_type_of(v, t.view)) != SpvOpTypeTensorViewNV)
        return val_fail(v, "the TensorView operand %%%u is not a tensor view", t.view);
    return 1;
}

int nv2_store_no_decode(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (t.ta_mask & (SpvTensorAddressingOperandsDecodeFuncMask |
                     SpvTensorAddressingOperandsDecodeVectorFuncMask))
        return val_fail(v, "a decode function with OpCooperativeMatrixStoreTensorNV");
    return 1;
}

int nv2_store_block_size(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    val_layout_state s;
    val_trace_layout(v, t.layout, &s);
    if (!s.traced)
        return 1;
    for (uint32_t i = 0; i < s.dim; i++)
        if (s.block_known[i] && s.block[i] > 1)
            return val_fail(v, "the tensor layout %%%u has block size %lld in dimension %u",
                            t.layout, (long long)s.block[i], i);
    return 1;
}

int nv2_decode_storage(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (!(t.ta_mask & SpvTensorAddressingOperandsDecodeFuncMask))
        return 1;
    uint32_t sc;
    if (!val_pointer_type(v, val_type_of(v, t.pointer), &sc, NULL))
        return 1;
    if (sc != SpvStorageClassPhysicalStorageBuffer && sc != SpvStorageClassStorageBuffer) {
        char tmp[16];
        return val_fail(v, "with DecodeFunc, Pointer must point to PhysicalStorageBuffer or "
                           "StorageBuffer, not %s",
                        val_enum_name(SPV_OPERAND_StorageClass, sc, tmp, sizeof(tmp)));
    }
    return 1;
}

int nv2_decode_function(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (t.decode && val_opcode(v, t.decode) != SpvOpFunction)
        return val_fail(v, "DecodeFunc %%%u is not an OpFunction", t.decode);
    return 1;
}

int nv2_decode_return(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    uint32_t ret, np;
    const uint32_t *params;
    val_coopmat r;
    if (!t.decode || !val_fn_signature(v, t.decode, &ret, &params, &np) ||
        !val_coopmat_type(v, in->words[1], &r))
        return 1;
    if (ret != r.component)
        return val_fail(v, "DecodeFunc %%%u returns %%%u, not the Component Type %%%u", t.decode,
                        ret, r.component);
    return 1;
}

int nv2_decode_params(val_ctx *v, const spv_inst *in)
{
    val_tensor_ops t;
    val_tensor_operands(v, in, &t);
    if (!t.decode)
        return 1;
    return val_decode_params(v, in, t.decode, t.layout, "DecodeFunc");
}

/* ---- OpCooperativeMatrixReduceNV ------------------------------------------------------ */

int nv2_reduce_types(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r))
        return val_fail(v, "the Result Type is not a cooperative matrix type");
    if (!val_cm_of(v, in->words[3], &m))
        return val_fail(v, "Matrix %%%u is not a cooperative matrix", in->words[3]);
    if (m.component != r.component)
        return val_fail(v, "Matrix has Component Type %%%u; the Result Type %%%u", m.component,
                        r.component);
    return 1;
}

int nv2_reduce_use(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &m))
        return 1;
    if (!val_cm_use_is(&r, 2) || !val_cm_use_is(&m, 2))
        return val_fail(v, "the Use of the Result Type is %s and of Matrix %s; both must be "
                           "MatrixAccumulatorKHR",
                        val_use_name(r.use), val_use_name(m.use));
    return 1;
}

int nv2_reduce_scope(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &m))
        return 1;
    if (val_same_dim(v, r.scope_id, m.scope_id) == 0)
        return val_fail(v, "Matrix and the Result Type have different scopes");
    return 1;
}

int nv2_reduce_mode(val_ctx *v, const spv_inst *in)
{
    uint32_t mode = in->words[4];
    /* The text defines the result for Row, Column, both and 2x2 only; with
     * none of them there is nothing to compute. */
    if (!(mode & (SpvCooperativeMatrixReduce2x2Mask | SpvCooperativeMatrixReduceRowMask |
                  SpvCooperativeMatrixReduceColumnMask)))
        return val_fail(v, "Reduce has none of Row, Column and 2x2");
    if ((mode & SpvCooperativeMatrixReduce2x2Mask) &&
        (mode & (SpvCooperativeMatrixReduceRowMask | SpvCooperativeMatrixReduceColumnMask)))
        return val_fail(v, "2x2 is combined with Row or Column");
    return 1;
}

static int dims_half(const val_ctx *v, const val_coopmat *r, const val_coopmat *m)
{
    if (r->rows_known && m->rows_known && r->rows * 2 != m->rows)
        return 0;
    if (r->cols_known && m->cols_known && r->cols * 2 != m->cols)
        return 0;
    (void)v;
    return 1;
}

int nv2_reduce_dims(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &m))
        return 1;
    uint32_t mode = in->words[4];
    int row = !!(mode & SpvCooperativeMatrixReduceRowMask);
    int col = !!(mode & SpvCooperativeMatrixReduceColumnMask);
    if (mode & SpvCooperativeMatrixReduce2x2Mask) {
        if (!dims_half(v, &r, &m))
            return val_fail(v, "a 2x2 reduction of a %llux%llu matrix must give %llux%llu, not "
                               "%llux%llu",
                            (unsigned long long)m.rows, (unsigned long long)m.cols,
                            (unsigned long long)(m.rows / 2), (unsigned long long)(m.cols / 2),
                            (unsigned long long)r.rows, (unsigned long long)r.cols);
    } else if (row && !col) {
        if (val_same_dim(v, r.rows_id, m.rows_id) == 0)
            return val_fail(v, "a Row reduction keeps the %llu rows of Matrix; the result has %llu",
                            (unsigned long long)m.rows, (unsigned long long)r.rows);
    } else if (col && !row) {
        if (val_same_dim(v, r.cols_id, m.cols_id) == 0)
            return val_fail(v, "a Column reduction keeps the %llu columns of Matrix; the result "
                               "has %llu",
                            (unsigned long long)m.cols, (unsigned long long)r.cols);
    }
    return 1;
}

int nv2_reduce_combine(val_ctx *v, const spv_inst *in)
{
    uint32_t f = in->words[5], ret, np;
    const uint32_t *params;
    if (val_opcode(v, f) != SpvOpFunction)
        return val_fail(v, "CombineFunc %%%u is not an OpFunction", f);
    val_coopmat m;
    if (!val_fn_signature(v, f, &ret, &params, &np) || !val_cm_of(v, in->words[3], &m))
        return 1;
    if (np != 2)
        return val_fail(v, "CombineFunc %%%u has %u parameters, not two", f, np);
    if (ret != m.component || params[0] != m.component || params[1] != m.component)
        return val_fail(v, "CombineFunc %%%u must take and return the Component Type %%%u", f,
                        m.component);
    return 1;
}

/* ---- conversion and transpose ---------------------------------------------------- */

/* The opcode is also OpCooperativeMatrixConvertUseEXT: in a module that
 * declares CooperativeMatrixConversionsEXT, SPV_EXT_cooperative_matrix_maintenance1's
 * rules (3.49.11): integer component types may differ in Signedness; the
 * instruction may be decorated CooperativeMatrixTransposeEXT (rows and
 * columns swapped, accumulator to A or B); else the Use goes from
 * accumulator to A or B or from A or B to accumulator. */
static int convert_use_ext(const val_ctx *v, const spv_inst *in, int *o_transposed)
{
    int ext = val_has_cap(v, SpvCapabilityCooperativeMatrixConversionsEXT);
    *o_transposed = ext && val_has_decoration(v, in->words[2],
                                              SpvDecorationCooperativeMatrixTransposeEXT);
    return ext;
}

int nv2_convert_types(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r))
        return val_fail(v, "the Result Type is not a cooperative matrix type");
    if (!val_cm_of(v, in->words[3], &m))
        return val_fail(v, "Matrix %%%u is not a cooperative matrix", in->words[3]);
    int tr;
    (void)convert_use_ext(v, in, &tr);
    /* Integer component types of one width that differ only in Signedness
     * count as the same: maintenance1 says so, and without it the value is
     * the same bits; glslang emits such a conversion for a GLSL constructor
     * from a u16 accumulator to an s16 A (the GLSL text maps "coopmat
     * constructor changing component type or Use" to this instruction),
     * spirv-val accepts it, and the Vulkan CTS runs it on NVIDIA's driver. */
    uint32_t rw, mw;
    int same_comp = r.component == m.component ||
                    (val_int_type(v, r.component, &rw, NULL) &&
                     val_int_type(v, m.component, &mw, NULL) && rw == mw);
    int dims = tr ? val_same_dim(v, r.rows_id, m.cols_id) != 0 &&
                        val_same_dim(v, r.cols_id, m.rows_id) != 0
                  : val_same_dim(v, r.rows_id, m.rows_id) != 0 &&
                        val_same_dim(v, r.cols_id, m.cols_id) != 0;
    if (!same_comp || val_same_dim(v, r.scope_id, m.scope_id) == 0 || !dims)
        return val_fail(v, "Matrix and the Result Type differ in Component Type, Scope, Rows or "
                           "Columns%s",
                        tr ? " (CooperativeMatrixTransposeEXT: Rows and Columns swapped)" : "");
    return 1;
}

int nv2_convert_use(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &m))
        return 1;
    /* Every reading needs two different Uses; one <id> for both (a
     * specialization constant included) is one Use, whatever its value. */
    if (r.use_id == m.use_id)
        return val_fail(v, "Matrix and the Result Type take their Use from the same <id> %%%u",
                        r.use_id);
    int tr;
    if (convert_use_ext(v, in, &tr) && !tr) {
        int r_acc = val_cm_use_is(&r, 2), m_acc = val_cm_use_is(&m, 2);
        if (r.use_known && m.use_known && r_acc == m_acc)
            return val_fail(v, "Matrix's Use is %s and the Result Type's %s: one is "
                               "MatrixAccumulatorKHR, the other MatrixAKHR or MatrixBKHR",
                            val_use_name(m.use), val_use_name(r.use));
        return 1;
    }
    if (r.use_known && r.use != 0 && r.use != 1)
        return val_fail(v, "the Result Type's Use is %s, not MatrixAKHR or MatrixBKHR",
                        val_use_name(r.use));
    if (!val_cm_use_is(&m, 2))
        return val_fail(v, "Matrix's Use is %s, not MatrixAccumulatorKHR", val_use_name(m.use));
    return 1;
}

int nv2_transpose_types(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r))
        return val_fail(v, "the Result Type is not a cooperative matrix type");
    if (!val_cm_of(v, in->words[3], &m))
        return val_fail(v, "Matrix %%%u is not a cooperative matrix", in->words[3]);
    if (val_same_dim(v, r.scope_id, m.scope_id) == 0)
        return val_fail(v, "Matrix and the Result Type have different scopes");
    if (val_same_dim(v, r.rows_id, m.cols_id) == 0 || val_same_dim(v, r.cols_id, m.rows_id) == 0)
        return val_fail(v, "Matrix is %llux%llu; its transpose cannot be %llux%llu",
                        (unsigned long long)m.rows, (unsigned long long)m.cols,
                        (unsigned long long)r.rows, (unsigned long long)r.cols);
    return 1;
}

int nv2_transpose_use(val_ctx *v, const spv_inst *in)
{
    val_coopmat r, m;
    if (!val_coopmat_type(v, in->words[1], &r) || !val_cm_of(v, in->words[3], &m))
        return 1;
    if (r.use_id == m.use_id)
        return val_fail(v, "Matrix and the Result Type take their Use from the same <id> %%%u",
                        r.use_id);
    if (!val_cm_use_is(&r, 1))
        return val_fail(v, "the Result Type's Use is %s, not MatrixBKHR", val_use_name(r.use));
    if (!val_cm_use_is(&m, 2))
        return val_fail(v, "Matrix's Use is %s, not MatrixAccumulatorKHR", val_use_name(m.use));
    return 1;
}

/* ---- OpCooperativeMatrixPerElementOpNV --------------------------------------------- */

int nv2_per_element_types(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, val_type_of(v, in->words[3])) != SpvOpTypeCooperativeMatrixKHR)
        return val_fail(v, "Matrix %%%u is not a cooperative matrix", in->words[3]);
    if (val_type_of(v, in->words[3]) != in->words[1])
        return val_fail(v, "the Result Type %%%u is not the type of Matrix", in->words[1]);
    return 1;
}

int nv2_per_element_func(val_ctx *v, const spv_inst *in)
{
    uint32_t f = in->words[4], ret, np;
    const uint32_t *params;
    if (val_opcode(v, f) != SpvOpFunction)
        return val_fail(v, "Func %%%u is not an OpFunction", f);
    val_coopmat m;
    if (!val_fn_signature(v, f, &ret, &params, &np) || !val_cm_of(v, in->words[3], &m))
        return 1;
    if (ret != m.component)
        return val_fail(v, "Func %%%u returns %%%u, not the Component Type %%%u", f, ret,
                        m.component);
    uint32_t extra = in->word_count - 5u;
    if (np != 3 + extra)
        return val_fail(v, "Func %%%u has %u parameters; it needs 3 and one per extra operand "
                           "(%u)",
                        f, np, 3 + extra);
    if (!val_is_int_scalar(v, params[0], 32) || !val_is_int_scalar(v, params[1], 32))
        return val_fail(v, "the first two parameters of Func %%%u must be 32-bit integers", f);
    if (params[2] != m.component)
        return val_fail(v, "the third parameter of Func %%%u is %%%u, not the Component Type %%%u",
                        f, params[2], m.component);
    return 1;
}

int nv2_per_element_operands(val_ctx *v, const spv_inst *in)
{
    uint32_t f = in->words[4], ret, np;
    const uint32_t *params;
    if (!val_fn_signature(v, f, &ret, &params, &np))
        return 1;
    uint32_t mt = val_type_of(v, in->words[3]);
    for (uint32_t i = 5; i < in->word_count && i - 2 < np; i++) {
        uint32_t op = in->words[i], ot = val_type_of(v, op), want = params[i - 2];
        val_coopmat cm;
        if (val_opcode(v, ot) == SpvOpTypeCooperativeMatrixNV)
            return val_fail(v, "the extra operand %%%u is an SPV_NV_cooperative_matrix matrix, "
                               "not one of Matrix's type",
                            op);
        if (val_coopmat_type(v, ot, &cm)) {
            if (ot != mt)
                return val_fail(v, "the extra operand %%%u is a cooperative matrix of another "
                                   "type than Matrix",
                                op);
            if (cm.component != want)
                return val_fail(v, "the extra operand %%%u has Component Type %%%u; the "
                                   "parameter is %%%u",
                                op, cm.component, want);
        } else if (ot != want) {
            return val_fail(v, "the extra operand %%%u has type %%%u; the parameter is %%%u", op,
                            ot, want);
        }
    }
    return 1;
}
