/* SPV_QCOM_cooperative_matrix_conversion: OpBitCastArrayQCOM,
 * OpCompositeConstructCoopMatQCOM, OpCompositeExtractCoopMatQCOM and
 * OpExtractSubArrayQCOM (the SPIR-V text, with GLSL_QCOM_cooperative_matrix_
 * conversion and the Vulkan proposal beside it).
 *
 * Arrays are per-invocation values (register layout: elements back to back);
 * a cooperative matrix is one dense row-major array per subgroup (exec.h).
 *
 *   line      what one invocation gives or gets: row i of a MatrixAKHR or
 *             MatrixAccumulatorKHR, column i of a MatrixBKHR, for the
 *             invocation with SubgroupLocalInvocationId i.
 *   packed    an array of unsigned 32-bit integers holding the line's
 *             elements bit for bit, the lowest element in the lowest bits
 *             (4 s8/u8 or 2 f16 a word; 32-bit components one a word).
 *
 * Which shapes are allowed (checked when the pipeline is built, after
 * specialization; CVM_ERROR_INVALID_MODULE names the rule):
 *
 *   Use   component     K (the line length)     array
 *   A     s8 u8 f16 f32 Columns 32 32 16 8      component[Columns] or uint32[8]
 *   B     s8 u8 f16 f32 Rows    32 32 16 8      component[Rows]    or uint32[8]
 *   Acc   s32 u32 f16 f32  Columns (any)        component[Columns], or uint32 of
 *                                               Columns/2 (f16) or Columns (32-bit)
 *
 * Matrices must have Subgroup scope.  The dimensions the text bounds by
 * SubgroupSize (Rows of A, Columns of B, both of Acc) are checked when the
 * instruction runs, because the subgroup size is a setting of the context:
 * a larger one, or a subgroup size that is not a power of two (behaviour
 * undefined by the text; the API does not let one through, this guards the
 * engine), ends the dispatch with a status and a message naming the
 * instruction.
 *
 * Construct and extract are collective over the subgroup: every live
 * invocation of a subgroup must reach them together, else
 * CVM_ERROR_DIVERGENT_COLLECTIVE (like the KHR instructions).
 *
 * What the texts leave undefined, and how it is fixed here:
 *   - extract: invocations at or past the line count get "an OpUndef value"
 *     of the array type.  coopvm gives zero (the engine's OpUndef), and in
 *     the checking mode (CVM_FLAG_CHECK_CALLBACKS) a poison value instead:
 *     f32 0x7FC0DEAD and f16 0x7EAD (quiet NaNs, so arithmetic on them
 *     shows), integers the leading bits of 0xDEADBEEF (0xDEADBEEF for 32-bit
 *     elements, 0xDE for 8-bit ones).
 *   - construct in a partial subgroup (the workgroup size is not a multiple
 *     of the subgroup size): a line whose invocation does not exist has no
 *     source.  It is zero, or the poison value of the component type in the
 *     checking mode; SubgroupSize is still the full size.  The same holds
 *     for an invocation that is no longer live (OpKill, OpUnreachable); one
 *     that returned from the entry point early is still live for the
 *     engine, so the instruction is divergent, as a KHR one would be.
 *   - OpExtractSubArrayQCOM: a Start Index with (Start Index + Result
 *     length) past the Source length, or a negative one, is an error
 *     (CVM_ERROR_OUT_OF_BOUNDS naming the invocation), never a read past the
 *     array.  Any other start index is allowed: the rule that it be a
 *     multiple of a supported K holds for every index here (coopvm supports
 *     any K), and the Vulkan rule that it be a multiple of the result length
 *     (VUID-RuntimeSpirv-OpExtractSubArrayQCOM-12354) is a Vulkan validation
 *     rule the proposal's own example (start 3, length 8) breaks.  Start
 *     Index may have either signedness (glslang emits an unsigned constant);
 *     it is read as a value of its type.
 *
 * OpBitCastArrayQCOM is per invocation: it copies the bits (little-endian
 * host, as the rest of the engine), so element 0 of an f16 array lands in
 * the low bits of word 0 of a uint32 array, the same convention as packed
 * lines. */
#include <string.h>

#include "exec/program.h"

/* ---- shapes ------------------------------------------------------------------ */

static const char *use_name(uint32_t use)
{
    return use == CVM_USE_A ? "MatrixAKHR" : use == CVM_USE_B ? "MatrixBKHR" : "MatrixAccumulatorKHR";
}

/* One-dimensional array whose element is a scalar of `allowed` kinds. */
static int is_flat_array(const cvm_lower *lw, const cvm_type *t)
{
    if (t->tclass != CVM_TC_ARRAY || t->count == 0)
        return 0;
    const cvm_type *e = cvm_lower_type(lw, t->elem);
    return e->tclass == CVM_TC_INT || e->tclass == CVM_TC_FLOAT;
}

/* 32-bit integer (either signedness), f32 or f16 with the IEEE encoding: the
 * element types of OpBitCastArrayQCOM and OpExtractSubArrayQCOM. */
static int is_array_scalar(cvm_scalar_kind k)
{
    return k == CVM_SK_S32 || k == CVM_SK_U32 || k == CVM_SK_F32 || k == CVM_SK_F16;
}

/* The K a MatrixAKHR (Columns) or MatrixBKHR (Rows) of component `k` must
 * have, 0 when the component is not allowed. */
static uint32_t ab_line_length(cvm_scalar_kind k)
{
    switch (k) {
    case CVM_SK_F32: return 8;
    case CVM_SK_F16: return 16;
    case CVM_SK_S8:
    case CVM_SK_U8: return 32;
    default: return 0;
    }
}

/* Checks a (matrix, array) pair of OpCompositeConstructCoopMatQCOM or
 * OpCompositeExtractCoopMatQCOM against the rules of the text and fills
 * out->sk (component), out->sk2 (array element), out->ncomp (array length),
 * out->c (1: packed uint32), out->type (matrix type). */
static cvm_result check_pair(cvm_lower *lw, const spv_inst *in, uint32_t mtid, uint32_t atid,
                             const char *mname, const char *aname, cvm_insn *out)
{
    const cvm_type *mt = cvm_lower_type(lw, mtid);
    const cvm_type *at = cvm_lower_type(lw, atid);
    if (mt->tclass != CVM_TC_COOPMAT)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s is not a cooperative matrix",
                              mname);
    if (mt->scope != SpvScopeSubgroup)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s must have Subgroup scope (it has scope %u)", mname, mt->scope);
    if (!is_flat_array(lw, at))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s must be a one-dimensional array of scalars", aname);
    cvm_scalar_kind ck = (cvm_scalar_kind)mt->sk;
    cvm_scalar_kind ak = (cvm_scalar_kind)cvm_lower_type(lw, at->elem)->sk;
    uint32_t es = cvm_sk_size(ck);
    const char *use = use_name(mt->use);
    uint32_t len; /* elements of one line */
    if (mt->use == CVM_USE_ACC) {
        if (ck != CVM_SK_S32 && ck != CVM_SK_U32 && ck != CVM_SK_F32 && ck != CVM_SK_F16)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a %s must have a 32-bit integer, f32 or f16 component type "
                                  "(it has %s)",
                                  use, cvm_sk_name(ck));
        len = mt->cols;
    } else {
        uint32_t k = ab_line_length(ck);
        if (k == 0)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a %s must have an 8-bit integer, f16 or f32 component type "
                                  "(it has %s)",
                                  use, cvm_sk_name(ck));
        len = mt->use == CVM_USE_A ? mt->cols : mt->rows;
        if (len != k)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a %s of %s must have %u %s (it has %u)", use, cvm_sk_name(ck), k,
                                  mt->use == CVM_USE_A ? "columns" : "rows", len);
    }
    int packed;
    if (ak == ck)
        packed = 0;
    else if (ak == CVM_SK_U32)
        packed = 1;
    else
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "the element type of %s must be the component type of the %s (%s) "
                              "or an unsigned 32-bit integer (it is %s)",
                              aname, use, cvm_sk_name(ck), cvm_sk_name(ak));
    uint32_t want = len;
    if (packed) {
        if ((uint64_t)len * es % 4u != 0)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a %ux%u %s of %s cannot be packed in uint32 words (odd "
                                  "number of columns)",
                                  mt->rows, mt->cols, use, cvm_sk_name(ck));
        want = len * es / 4u;
    }
    if (at->count != want)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s must have length %u for a %ux%u %s of %s from %s elements (it "
                              "has length %u)",
                              aname, want, mt->rows, mt->cols, use, cvm_sk_name(ck),
                              cvm_sk_name(ak), at->count);
    out->sk = (uint8_t)ck;
    out->sk2 = (uint8_t)ak;
    out->ncomp = at->count;
    out->c = (uint32_t)packed;
    out->type = mtid;
    out->flags = CVM_INSN_PER_INSTANCE; /* Subgroup scope */
    return CVM_SUCCESS;
}

/* ---- values the text leaves undefined ------------------------------------------ */

/* Writes `count` elements of kind `k`, `step` bytes apart: zero, or the
 * poison value when `poison`. */
static void fill_undefined(uint8_t *dst, size_t step, cvm_scalar_kind k, uint32_t count, int poison)
{
    uint32_t es = cvm_sk_size(k);
    uint32_t bits = 0;
    if (poison) {
        if (k == CVM_SK_F32)
            bits = 0x7FC0DEADu;
        else if (k == CVM_SK_F16)
            bits = 0x7EADu;
        else
            bits = 0xDEADBEEFu >> (32u - 8u * es);
    }
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *e = dst + i * step;
        if (es == 1) {
            e[0] = (uint8_t)bits;
        } else if (es == 2) {
            uint16_t h = (uint16_t)bits;
            memcpy(e, &h, 2);
        } else {
            memcpy(e, &bits, 4);
        }
    }
}

/* ---- lines ---------------------------------------------------------------------- */

/* Array -> matrix line: `len` elements of `es` bytes go to m, m + step, ...
 * The array holds them one per element, or packed in uint32 words. */
static void line_from_array(uint8_t *m, size_t step, uint32_t es, uint32_t len, const uint8_t *arr,
                            int packed)
{
    if (!packed || es == 4) {
        for (uint32_t k = 0; k < len; k++)
            memcpy(m + k * step, arr + (size_t)k * es, es);
        return;
    }
    uint32_t per = 4u / es, bits = 8u * es;
    for (uint32_t k = 0; k < len; k++) {
        uint32_t w;
        memcpy(&w, arr + (size_t)(k / per) * 4u, 4);
        uint32_t v = w >> (k % per * bits);
        if (es == 1) {
            m[k * step] = (uint8_t)v;
        } else {
            uint16_t h = (uint16_t)v;
            memcpy(m + k * step, &h, 2);
        }
    }
}

/* Matrix line -> array: the inverse of line_from_array. */
static void line_to_array(uint8_t *arr, const uint8_t *m, size_t step, uint32_t es, uint32_t len,
                          int packed)
{
    if (!packed || es == 4) {
        for (uint32_t k = 0; k < len; k++)
            memcpy(arr + (size_t)k * es, m + k * step, es);
        return;
    }
    uint32_t per = 4u / es, bits = 8u * es;
    for (uint32_t wi = 0; wi < len / per; wi++) {
        uint32_t w = 0;
        for (uint32_t j = 0; j < per; j++) {
            const uint8_t *e = m + (size_t)(wi * per + j) * step;
            uint32_t v;
            if (es == 1) {
                v = e[0];
            } else {
                uint16_t h;
                memcpy(&h, e, 2);
                v = h;
            }
            w |= v << (j * bits);
        }
        memcpy(arr + (size_t)wi * 4u, &w, 4);
    }
}

/* Line geometry of a matrix type: `lines` (one per invocation), `len`
 * elements each, `step` bytes between the elements of a line and `line_step`
 * bytes between lines. */
typedef struct qcom_lines {
    uint32_t lines, len, es;
    size_t step, line_step;
} qcom_lines;

static qcom_lines lines_of(const cvm_type *mt)
{
    qcom_lines g;
    g.es = cvm_sk_size((cvm_scalar_kind)mt->sk);
    if (mt->use == CVM_USE_B) {
        g.lines = mt->cols;
        g.len = mt->rows;
        g.step = (size_t)mt->cols * g.es;
        g.line_step = g.es;
    } else {
        g.lines = mt->rows;
        g.len = mt->cols;
        g.step = g.es;
        g.line_step = (size_t)mt->cols * g.es;
    }
    return g;
}

/* The run-time rules: a power-of-two SubgroupSize that bounds the rows of a
 * MatrixAKHR, the columns of a MatrixBKHR and both of a
 * MatrixAccumulatorKHR. */
static cvm_result check_subgroup_size(cvm_exec *ex, const cvm_insn *in, const cvm_type *mt)
{
    uint32_t sg = ex->sg_size;
    if (sg == 0 || (sg & (sg - 1)) != 0)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_ARGUMENT,
                             "SubgroupSize %u is not a power of two (the text leaves the "
                             "behaviour undefined)",
                             sg);
    int rows = mt->use != CVM_USE_B, cols = mt->use != CVM_USE_A;
    if ((rows && mt->rows > sg) || (cols && mt->cols > sg))
        return cvm_exec_fail(
            ex, in, CVM_ERROR_INVALID_MODULE,
            "a %ux%u %s needs %s of at most SubgroupSize (%u): SPV_QCOM_cooperative_matrix_"
            "conversion: \"%s\"",
            mt->rows, mt->cols, use_name(mt->use),
            rows && cols ? "rows and columns" : rows ? "rows" : "columns", sg,
            rows && cols ? "its Rows and Columns must be one of the supported cooperative matrix "
                           "row and column sizes, respectively, that are less than or equal to "
                           "SubgroupSize"
            : rows       ? "its Rows must be one of the supported cooperative matrix row sizes "
                           "that are less than or equal to SubgroupSize"
                         : "its Columns must be one of the supported cooperative matrix column "
                           "sizes that are less than or equal to SubgroupSize");
    return CVM_SUCCESS;
}

/* ---- handlers ----------------------------------------------------------------------- */

/* Construct: a = Source Array, type = the matrix type, c = packed. */
static cvm_result h_construct(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *mt = &ex->prog->types[in->type];
    CVM_TRY(check_subgroup_size(ex, in, mt));
    qcom_lines g = lines_of(mt);
    int poison = (ex->flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    cvm_val src = ex->vals[in->a], res = ex->vals[in->result];
    for (uint32_t i = 0; i < ex->nsub; i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        uint32_t first = cvm_scope_first_lane(ex, in, i), n = cvm_scope_lane_count(ex, in, i);
        uint8_t *mat = res.p + (size_t)i * res.stride;
        for (uint32_t r = 0; r < g.lines; r++) {
            uint8_t *line = mat + r * g.line_step;
            if (r < n && ex->active[first + r])
                line_from_array(line, g.step, g.es, g.len, CVM_LANE(src, first + r), (int)in->c);
            else
                fill_undefined(line, g.step, (cvm_scalar_kind)in->sk, g.len, poison);
        }
    }
    return CVM_SUCCESS;
}

/* Extract: a = Source CoopMat, type = its type, c = packed, sk2/ncomp = the
 * result array's element kind and length. */
static cvm_result h_extract(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *mt = &ex->prog->types[in->type];
    CVM_TRY(check_subgroup_size(ex, in, mt));
    qcom_lines g = lines_of(mt);
    int poison = (ex->flags & CVM_FLAG_CHECK_CALLBACKS) != 0;
    cvm_scalar_kind ak = (cvm_scalar_kind)in->sk2;
    uint32_t aes = cvm_sk_size(ak);
    cvm_val src = ex->vals[in->a], res = ex->vals[in->result];
    for (uint32_t i = 0; i < ex->nsub; i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        uint32_t first = cvm_scope_first_lane(ex, in, i), n = cvm_scope_lane_count(ex, in, i);
        const uint8_t *mat = src.p + (size_t)i * src.stride;
        for (uint32_t r = 0; r < n; r++) {
            uint32_t l = first + r;
            if (!ex->active[l])
                continue;
            if (r < g.lines)
                line_to_array(CVM_LANE(res, l), mat + r * g.line_step, g.step, g.es, g.len,
                              (int)in->c);
            else
                fill_undefined(CVM_LANE(res, l), aes, ak, in->ncomp, poison);
        }
    }
    return CVM_SUCCESS;
}

/* Bit cast: a = Source Array, c = bytes. */
static cvm_result h_bitcast(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val src = ex->vals[in->a], res = ex->vals[in->result];
    CVM_FOR_ACTIVE(ex, l)
        memcpy(CVM_LANE(res, l), CVM_LANE(src, l), in->c);
    return CVM_SUCCESS;
}

/* Sub-array: a = Source Array, b = Start Index, c = element bytes, d = result
 * length, ncomp = source length, sk2 = Start Index kind. */
static cvm_result h_sub_array(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val src = ex->vals[in->a], start = ex->vals[in->b], res = ex->vals[in->result];
    int is_signed = in->sk2 == CVM_SK_S32;
    CVM_FOR_ACTIVE(ex, l) {
        uint32_t u;
        memcpy(&u, CVM_LANE(start, l), 4);
        int64_t s = is_signed ? (int64_t)(int32_t)u : (int64_t)u;
        if (s < 0 || (uint64_t)s + in->d > in->ncomp)
            return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                                 "invocation %u: Start Index %lld with a Result length of %u runs "
                                 "past the Source Array's length %u",
                                 l, (long long)s, in->d, in->ncomp);
        memcpy(CVM_LANE(res, l), CVM_LANE(src, l) + (size_t)s * in->c, (size_t)in->d * in->c);
    }
    return CVM_SUCCESS;
}

/* ---- lowering ------------------------------------------------------------------------- */

cvm_result cvm_lower_qcom(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    switch (in->opcode) {
    case SpvOpBitCastArrayQCOM: {
        if (in->word_count != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "expected 4 words, got %u",
                                  in->word_count);
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        const cvm_type *st = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        if (!is_flat_array(lw, rt) || !is_array_scalar((cvm_scalar_kind)rt->sk))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type must be a one-dimensional array of 32-bit "
                                  "integers, f32 or f16");
        if (!is_flat_array(lw, st) || !is_array_scalar((cvm_scalar_kind)st->sk))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Source Array must be a one-dimensional array of 32-bit "
                                  "integers, f32 or f16");
        if (rt->size != st->size)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type (%s[%u], %u bytes) and Source Array (%s[%u], %u "
                                  "bytes) must have the same size",
                                  cvm_sk_name((cvm_scalar_kind)rt->sk), rt->count, rt->size,
                                  cvm_sk_name((cvm_scalar_kind)st->sk), st->count, st->size);
        out->a = w[3];
        out->c = rt->size;
        out->fn = h_bitcast;
        return CVM_SUCCESS;
    }
    case SpvOpExtractSubArrayQCOM: {
        if (in->word_count != 5)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "expected 5 words, got %u",
                                  in->word_count);
        const cvm_type *rt = cvm_lower_type(lw, w[1]);
        const cvm_type *st = cvm_lower_type(lw, cvm_lower_type_of(lw, w[3]));
        const cvm_type *it = cvm_lower_type(lw, cvm_lower_type_of(lw, w[4]));
        if (!is_flat_array(lw, st) || !is_array_scalar((cvm_scalar_kind)st->sk))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Source Array must be a one-dimensional array of 32-bit "
                                  "integers, f32 or f16");
        if (!is_flat_array(lw, rt) || rt->sk != st->sk)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type must be a one-dimensional array of the Source "
                                  "Array's element type (%s)",
                                  cvm_sk_name((cvm_scalar_kind)st->sk));
        if (it->tclass != CVM_TC_INT || it->size != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Start Index must be a 32-bit integer");
        out->a = w[3];
        out->b = w[4];
        out->c = cvm_sk_size((cvm_scalar_kind)st->sk);
        out->d = rt->count;
        out->ncomp = st->count;
        out->sk2 = it->sk;
        out->fn = h_sub_array;
        return CVM_SUCCESS;
    }
    case SpvOpCompositeConstructCoopMatQCOM:
        if (in->word_count != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "expected 4 words, got %u",
                                  in->word_count);
        CVM_TRY(check_pair(lw, in, w[1], cvm_lower_type_of(lw, w[3]), "Result Type",
                           "Source Array", out));
        out->a = w[3];
        out->fn = h_construct;
        return CVM_SUCCESS;
    case SpvOpCompositeExtractCoopMatQCOM:
        if (in->word_count != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "expected 4 words, got %u",
                                  in->word_count);
        CVM_TRY(check_pair(lw, in, cvm_lower_type_of(lw, w[3]), w[1], "Source CoopMat",
                           "Result Type", out));
        out->a = w[3];
        out->fn = h_extract;
        return CVM_SUCCESS;
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
