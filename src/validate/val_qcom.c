/* SPV_QCOM_cooperative_matrix_conversion (revision 1): every Use, type and
 * length combination of its four instructions. */
#include "validate/val.h"
#include "validate/val_checks.h"

static int qcom_used(const val_ctx *v)
{
    return val_has_ext(v, "SPV_QCOM_cooperative_matrix_conversion") ||
           val_has_cap(v, SpvCapabilityCooperativeMatrixConversionQCOM);
}

int qcom_version(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (qcom_used(v) && !val_version_at_least(v, 1, 3))
        return val_fail(v, "SPV_QCOM_cooperative_matrix_conversion is used in SPIR-V %u.%u",
                        (v->version >> 16) & 0xff, (v->version >> 8) & 0xff);
    return 1;
}

int qcom_requires_khr(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (qcom_used(v) && !val_has_ext(v, "SPV_KHR_cooperative_matrix"))
        return val_fail(v, "SPV_QCOM_cooperative_matrix_conversion is used without OpExtension "
                           "\"SPV_KHR_cooperative_matrix\"");
    return 1;
}

int qcom_extension(val_ctx *v, const spv_inst *in)
{
    (void)in;
    for (uint32_t i = 0; i < v->ncaps_declared; i++)
        if (v->caps[i] == SpvCapabilityCooperativeMatrixConversionQCOM &&
            !val_has_ext(v, "SPV_QCOM_cooperative_matrix_conversion"))
            return val_fail(v, "CooperativeMatrixConversionQCOM is declared without OpExtension "
                               "\"SPV_QCOM_cooperative_matrix_conversion\"");
    return 1;
}

/* ---- element kinds ---------------------------------------------------------------- */

enum { K_OTHER, K_I8, K_U8, K_I32, K_U32, K_F16, K_F32 };

static int kind_of(const val_ctx *v, uint32_t t)
{
    uint32_t w, s, enc;
    if (val_int_type(v, t, &w, &s)) {
        if (w == 8)
            return s ? K_I8 : K_U8;
        if (w == 32)
            return s ? K_I32 : K_U32;
        return K_OTHER;
    }
    if (val_float_type(v, t, &w, &enc) && enc == VAL_NONE) {
        if (w == 16)
            return K_F16;
        if (w == 32)
            return K_F32;
    }
    return K_OTHER;
}

/* A one-dimensional array (OpTypeArray) and its element type and length. */
static int array_1d(const val_ctx *v, uint32_t t, uint32_t *o_elem, uint64_t *o_len, int *o_known)
{
    uint32_t elem, len_id;
    if (val_opcode(v, t) != SpvOpTypeArray || !val_array_type(v, t, &elem, &len_id))
        return 0;
    uint16_t eop = val_opcode(v, elem);
    if (eop == SpvOpTypeArray || eop == SpvOpTypeRuntimeArray)
        return 0;
    *o_elem = elem;
    *o_known = val_const_value(v, len_id, o_len);
    return 1;
}

/* Element type of the BitCastArray/ExtractSubArray arrays: 32-bit integer or
 * IEEE 754 16/32-bit float. */
static int plain_element(const val_ctx *v, uint32_t elem)
{
    int k = kind_of(v, elem);
    return k == K_I32 || k == K_U32 || k == K_F16 || k == K_F32;
}

static uint32_t bits_of(const val_ctx *v, uint32_t t)
{
    uint32_t w = 0;
    if (!val_int_type(v, t, &w, NULL))
        val_float_type(v, t, &w, NULL);
    return w;
}

/* ---- OpBitCastArrayQCOM --------------------------------------------------------------- */

int qcom_bitcast_result(val_ctx *v, const spv_inst *in)
{
    uint32_t elem;
    uint64_t len;
    int known;
    if (!array_1d(v, in->words[1], &elem, &len, &known) || !plain_element(v, elem))
        return val_fail(v, "the Result Type is not a one-dimensional array of 32-bit integers or "
                           "16/32-bit IEEE floats");
    return 1;
}

int qcom_bitcast_source(val_ctx *v, const spv_inst *in)
{
    uint32_t elem;
    uint64_t len;
    int known;
    if (!array_1d(v, val_type_of(v, in->words[3]), &elem, &len, &known) || !plain_element(v, elem))
        return val_fail(v, "Source Array is not a one-dimensional array of 32-bit integers or "
                           "16/32-bit IEEE floats");
    return 1;
}

int qcom_bitcast_size(val_ctx *v, const spv_inst *in)
{
    uint32_t re, se;
    uint64_t rl, sl;
    int rk, sk;
    if (!array_1d(v, in->words[1], &re, &rl, &rk) ||
        !array_1d(v, val_type_of(v, in->words[3]), &se, &sl, &sk) || !rk || !sk)
        return 1;
    if (rl * bits_of(v, re) != sl * bits_of(v, se))
        return val_fail(v, "the result has %llu bits, the source %llu",
                        (unsigned long long)(rl * bits_of(v, re)),
                        (unsigned long long)(sl * bits_of(v, se)));
    return 1;
}

/* ---- the shapes of OpCompositeConstructCoopMatQCOM / OpCompositeExtractCoopMatQCOM ------ */

/* Component types and the fixed K dimension (Columns of A, Rows of B) by
 * component type: f32 8, f16 16, s8 32, u8 32. */
static uint64_t fixed_k(int kind)
{
    switch (kind) {
    case K_F32:
        return 8;
    case K_F16:
        return 16;
    case K_I8:
    case K_U8:
        return 32;
    default:
        return 0;
    }
}

static int check_ab(val_ctx *v, const val_coopmat *m, const char *what)
{
    int k = kind_of(v, m->component);
    if (!fixed_k(k))
        return val_fail(v, "the %s's component type must be an 8-bit integer or a 16/32-bit IEEE "
                           "float",
                        what);
    uint64_t want = fixed_k(k);
    int use_b = m->use_known && m->use == 1;
    uint64_t have = use_b ? m->rows : m->cols;
    int known = use_b ? m->rows_known : m->cols_known;
    if (known && have != want)
        return val_fail(v, "a %s %s of this component type must have %llu %s, not %llu",
                        use_b ? "MatrixBKHR" : "MatrixAKHR", what, (unsigned long long)want,
                        use_b ? "rows" : "columns", (unsigned long long)have);
    return 1;
}

static int check_acc(val_ctx *v, const val_coopmat *m, const char *what)
{
    int k = kind_of(v, m->component);
    if (k != K_I32 && k != K_U32 && k != K_F16 && k != K_F32)
        return val_fail(v, "the %s's component type must be a 32-bit integer or a 16/32-bit IEEE "
                           "float",
                        what);
    return 1;
}

/* The array length the text requires for a matrix (by Use) and an element
 * kind; 0 when any. */
static int want_length(const val_ctx *v, const val_coopmat *m, uint32_t elem, uint64_t *o_len,
                       int *o_known)
{
    int u32 = kind_of(v, elem) == K_U32 && elem != m->component;
    int comp = kind_of(v, m->component);
    *o_known = 1;
    switch (m->use_known ? (int)m->use : -1) {
    case 0:
        if (u32) {
            *o_len = 8;
            return 1;
        }
        *o_len = m->cols;
        *o_known = m->cols_known;
        return 1;
    case 1:
        if (u32) {
            *o_len = 8;
            return 1;
        }
        *o_len = m->rows;
        *o_known = m->rows_known;
        return 1;
    case 2:
        *o_known = m->cols_known;
        if (u32 && comp == K_F16)
            *o_len = m->cols / 2;
        else
            *o_len = m->cols;
        return 1;
    default:
        return 0;
    }
}

int qcom_construct_result(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!val_coopmat_type(v, in->words[1], &m))
        return val_fail(v, "the Result Type is not a cooperative matrix type");
    if (m.scope_known && m.scope != SpvScopeSubgroup)
        return val_fail(v, "the Result Type must have Subgroup scope");
    return 1;
}

int qcom_construct_source(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    uint32_t elem;
    uint64_t len;
    int known;
    if (!val_coopmat_type(v, in->words[1], &m))
        return 1;
    if (!array_1d(v, val_type_of(v, in->words[3]), &elem, &len, &known))
        return val_fail(v, "Source Array is not a one-dimensional array");
    if (elem != m.component && kind_of(v, elem) != K_U32)
        return val_fail(v, "Source Array's element type must be the component type %%%u or a "
                           "32-bit unsigned integer",
                        m.component);
    return 1;
}

int qcom_construct_ab(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!val_coopmat_type(v, in->words[1], &m) || !m.use_known || m.use > 1)
        return 1;
    return check_ab(v, &m, "Result Type");
}

int qcom_construct_acc(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!val_coopmat_type(v, in->words[1], &m) || !m.use_known || m.use != 2)
        return 1;
    return check_acc(v, &m, "Result Type");
}

int qcom_construct_length(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    uint32_t elem;
    uint64_t len, want;
    int known, wknown;
    if (!val_coopmat_type(v, in->words[1], &m) ||
        !array_1d(v, val_type_of(v, in->words[3]), &elem, &len, &known) || !known)
        return 1;
    if (!want_length(v, &m, elem, &want, &wknown) || !wknown)
        return 1;
    if (len != want)
        return val_fail(v, "Source Array has length %llu; this %s needs length %llu",
                        (unsigned long long)len, val_use_name(m.use), (unsigned long long)want);
    return 1;
}

int qcom_extract_types(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (val_opcode(v, in->words[1]) != SpvOpTypeArray)
        return val_fail(v, "the Result Type is not an OpTypeArray");
    if (!val_cm_of(v, in->words[3], &m))
        return val_fail(v, "Source CoopMat %%%u is not a cooperative matrix", in->words[3]);
    return 1;
}

int qcom_extract_ab(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!val_cm_of(v, in->words[3], &m) || !m.use_known || m.use > 1)
        return 1;
    return check_ab(v, &m, "Source CoopMat");
}

int qcom_extract_acc(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!val_cm_of(v, in->words[3], &m) || !m.use_known || m.use != 2)
        return 1;
    return check_acc(v, &m, "Source CoopMat");
}

int qcom_extract_result(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    uint32_t elem;
    uint64_t len, want;
    int known, wknown;
    if (!val_cm_of(v, in->words[3], &m) || !array_1d(v, in->words[1], &elem, &len, &known))
        return 1;
    int u32 = kind_of(v, elem) == K_U32 && elem != m.component;
    if (elem != m.component && !u32)
        return val_fail(v, "the Result Type's element type must be the component type %%%u or a "
                           "32-bit unsigned integer",
                        m.component);
    /* An accumulator of 32-bit integers into a uint32 array: the text names
     * the lengths for f32 (Columns) and f16 (Columns/2) only; the
     * construct instruction allows the same pair with Length Columns, and
     * glslang emits it, so it is taken as one element a word, as f32. */
    if (!known || !want_length(v, &m, elem, &want, &wknown) || !wknown)
        return 1;
    if (len != want)
        return val_fail(v, "the Result Type has length %llu; this %s needs length %llu",
                        (unsigned long long)len, val_use_name(m.use), (unsigned long long)want);
    return 1;
}

/* ---- OpExtractSubArrayQCOM ----------------------------------------------------------- */

int qcom_subarray_result(val_ctx *v, const spv_inst *in)
{
    uint32_t re, se;
    uint64_t l;
    int k;
    if (!array_1d(v, in->words[1], &re, &l, &k))
        return val_fail(v, "the Result Type is not a one-dimensional array");
    if (array_1d(v, val_type_of(v, in->words[3]), &se, &l, &k) && re != se)
        return val_fail(v, "the Result Type's element type %%%u is not Source Array's element type "
                           "%%%u",
                        re, se);
    return 1;
}

int qcom_subarray_source(val_ctx *v, const spv_inst *in)
{
    uint32_t se;
    uint64_t l;
    int k;
    if (!array_1d(v, val_type_of(v, in->words[3]), &se, &l, &k) || !plain_element(v, se))
        return val_fail(v, "Source Array is not a one-dimensional array of 32-bit integers or "
                           "16/32-bit IEEE floats");
    return 1;
}

/* "Start Index is a signed 32-bit OpTypeInt value": read as a 32-bit
 * integer whose value is taken as signed.  An OpTypeInt of Signedness 0 is
 * accepted: SPIR-V 3.42.6 gives 0 as "unsigned, or no signedness
 * semantics", the GLSL declaration is `int start_index`, and glslang (and
 * the corpus case qcom_rows) pass a Signedness 0 constant. */
int qcom_subarray_index(val_ctx *v, const spv_inst *in)
{
    if (!val_is_int_scalar(v, val_type_of(v, in->words[4]), 32))
        return val_fail(v, "Start Index %%%u is not a 32-bit integer", in->words[4]);
    return 1;
}

int qcom_subarray_bounds(val_ctx *v, const spv_inst *in)
{
    uint32_t re, se;
    uint64_t rl, sl, start;
    int rk, sk;
    if (!array_1d(v, in->words[1], &re, &rl, &rk) ||
        !array_1d(v, val_type_of(v, in->words[3]), &se, &sl, &sk) || !rk || !sk ||
        !val_const_value(v, in->words[4], &start))
        return 1;
    int64_t s = (int64_t)start;
    if (s < 0 || (uint64_t)s + rl > sl)
        return val_fail(v, "Start Index %lld + %llu elements passes the %llu of Source Array",
                        (long long)s, (unsigned long long)rl, (unsigned long long)sl);
    return 1;
}

/* VUID-...-OpExtractSubArrayQCOM-12354: Start Index is a multiple of the
 * Result Type's length. */
int qcom_subarray_multiple(val_ctx *v, const spv_inst *in)
{
    uint32_t re;
    uint64_t rl, start;
    int rk;
    if (!array_1d(v, in->words[1], &re, &rl, &rk) || !rk || !rl ||
        !val_const_value(v, in->words[4], &start))
        return 1;
    if ((int64_t)start % (int64_t)rl)
        return val_fail(v, "Start Index %lld is not a multiple of the result length %llu",
                        (long long)(int64_t)start, (unsigned long long)rl);
    return 1;
}
