/* Conversions: OpConvert*, OpSConvert/UConvert/FConvert (which may also
 * change a cooperative matrix's Use: SPV_NV_cooperative_matrix2, and
 * transpose it: CooperativeMatrixTransposeEXT of
 * SPV_EXT_cooperative_matrix_maintenance1),
 * OpQuantizeToF16, OpSatConvert*, OpBitcast (of scalars, vectors of any length,
 * pointers, cooperative matrices, and the sub-byte floats' bit strings). */
#include <string.h>

#include "exec/ops/ewise.h"

static cvm_scalar_kind with_sign(cvm_scalar_kind k, int is_signed)
{
    switch (k) {
    case CVM_SK_S8: case CVM_SK_U8: return is_signed ? CVM_SK_S8 : CVM_SK_U8;
    case CVM_SK_S16: case CVM_SK_U16: return is_signed ? CVM_SK_S16 : CVM_SK_U16;
    case CVM_SK_S32: case CVM_SK_U32: return is_signed ? CVM_SK_S32 : CVM_SK_U32;
    case CVM_SK_S64: case CVM_SK_U64: return is_signed ? CVM_SK_S64 : CVM_SK_U64;
    default: return k;
    }
}

/* A broadcast operand (CVM_EW_A_BCAST: one value for every element, as
 * cvm_ew_run_elementwise passes a uniform scalar over all lanes) is
 * converted once and copied. */
static void k_convert(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                      const uint8_t *c, uint32_t n)
{
    if (!(in->flags & CVM_EW_A_BCAST) || n == 0) {
        cvm_convert_array((cvm_scalar_kind)in->sk, r, (cvm_scalar_kind)in->sk2, a, n, in->d);
        return;
    }
    unsigned rs = cvm_sk_size((cvm_scalar_kind)in->sk);
    cvm_convert_array((cvm_scalar_kind)in->sk, r, (cvm_scalar_kind)in->sk2, a, 1, in->d);
    for (uint32_t i = 1; i < n; i++)
        memcpy(r + (size_t)i * rs, r, rs);
}

static void k_quantize(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                       const uint8_t *c, uint32_t n)
{
    unsigned sa = (in->flags & CVM_EW_A_BCAST) ? 0 : 4;
    for (uint32_t i = 0; i < n; i++) {
        float f;
        memcpy(&f, a + sa * i, 4);
        float q = cvm_f16_to_f32(cvm_f32_to_f16(f));
        memcpy(r + 4 * i, &q, 4);
    }
}

/* The hot conversions without the per-element kind dispatch of
 * cvm_convert_array, with its results: integers to integers without
 * saturation (the source sign- or zero-extended by its signedness, then cut
 * to the result's width), and 32-bit integers to f32 (the C conversion
 * rounds once, to nearest, as nm_store_int does).  Others go to k_convert. */
static int int_kind(cvm_scalar_kind k)
{
    return k >= CVM_SK_S8 && k <= CVM_SK_U64;
}

static void k_convert_fast(const cvm_insn *in, uint8_t *r, const uint8_t *a, const uint8_t *b,
                           const uint8_t *c, uint32_t n)
{
    cvm_scalar_kind dk = (cvm_scalar_kind)in->sk, sk = (cvm_scalar_kind)in->sk2;
    if ((in->flags & CVM_EW_A_BCAST) || in->d) {
        k_convert(in, r, a, b, c, n);
        return;
    }
    if (int_kind(dk) && int_kind(sk)) {
        unsigned ss = cvm_sk_size(sk), ds = cvm_sk_size(dk);
        int sgn = cvm_sk_is_signed_int(sk);
        /* one loop per pair of sizes and signedness, so that each
         * vectorizes: C's conversion of an ST to the unsigned DT is the
         * value sign- or zero-extended by ST's signedness, then reduced
         * modulo 2^width, i.e. cut to DT's low bytes */
#define CONV_LOOP(ST, DT)                                                                      \
    for (uint32_t i = 0; i < n; i++) {                                                         \
        ST x;                                                                                  \
        memcpy(&x, a + sizeof(ST) * (size_t)i, sizeof(ST));                                    \
        DT y = (DT)x;                                                                          \
        memcpy(r + sizeof(DT) * (size_t)i, &y, sizeof(DT));                                    \
    }
#define CONV_TO(ST)                                                                            \
    switch (ds) {                                                                              \
    case 1: CONV_LOOP(ST, uint8_t) break;                                                      \
    case 2: CONV_LOOP(ST, uint16_t) break;                                                     \
    case 4: CONV_LOOP(ST, uint32_t) break;                                                     \
    default: CONV_LOOP(ST, uint64_t) break;                                                    \
    }
        switch (ss) {
        case 1: if (sgn) { CONV_TO(int8_t) } else { CONV_TO(uint8_t) } break;
        case 2: if (sgn) { CONV_TO(int16_t) } else { CONV_TO(uint16_t) } break;
        case 4: if (sgn) { CONV_TO(int32_t) } else { CONV_TO(uint32_t) } break;
        default: CONV_TO(uint64_t) break;
        }
#undef CONV_TO
#undef CONV_LOOP
        return;
    }
    if (dk == CVM_SK_F32 && sk == CVM_SK_S32) {
        for (uint32_t i = 0; i < n; i++) {
            int32_t x;
            memcpy(&x, a + 4 * (size_t)i, 4);
            float f = (float)x;
            memcpy(r + 4 * (size_t)i, &f, 4);
        }
        return;
    }
    if (dk == CVM_SK_F32 && sk == CVM_SK_U32) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t x;
            memcpy(&x, a + 4 * (size_t)i, 4);
            float f = (float)x;
            memcpy(r + 4 * (size_t)i, &f, 4);
        }
        return;
    }
    k_convert(in, r, a, b, c, n);
}

static cvm_result h_convert(cvm_exec *ex, const cvm_insn *in)
{
    return cvm_ew_run_elementwise(ex, in, (ex->flags & CVM_FLAG_REFERENCE_PATHS) ? k_convert
                                                                                : k_convert_fast);
}
static cvm_result h_quantize(cvm_exec *ex, const cvm_insn *in) { return cvm_ew_run_elementwise(ex, in, k_quantize); }

/* ewise.h; k_convert_fast is the fast paths' kernel, with k_convert's
 * results. */
int cvm_convert_eval_lane(const cvm_insn *in, uint8_t *r, const uint8_t *a)
{
    if (in->fn != h_convert && in->fn != h_quantize)
        return 0;
    if (r)
        (in->fn == h_convert ? k_convert_fast : k_quantize)(in, r, a, a, a, in->ncomp);
    return 1;
}

/* A matrix conversion decorated CooperativeMatrixTransposeEXT
 * (SPV_EXT_cooperative_matrix_maintenance1): "element (r,c) of the source
 * is converted and stored in result element (c,r)".  in->type is the result
 * (R x C), the source C x R; in->sk/sk2/d as for h_convert. */
cvm_result cvm_op_convert_transpose(cvm_exec *ex, const cvm_insn *in)
{
    const cvm_type *tr = &ex->prog->types[in->type];
    cvm_val vr = ex->vals[in->result], va = ex->vals[in->a];
    unsigned rs = cvm_sk_size((cvm_scalar_kind)in->sk), as = cvm_sk_size((cvm_scalar_kind)in->sk2);
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk == 0)
            continue;
        const uint8_t *src = va.p + (size_t)i * va.stride; /* tr->cols x tr->rows */
        uint8_t *dst = vr.p + (size_t)i * vr.stride;
        for (uint32_t r = 0; r < tr->rows; r++)
            for (uint32_t c = 0; c < tr->cols; c++)
                cvm_convert_array((cvm_scalar_kind)in->sk, dst + ((size_t)r * tr->cols + c) * rs,
                                  (cvm_scalar_kind)in->sk2,
                                  src + ((size_t)c * tr->rows + r) * as, 1, in->d);
    }
    return CVM_SUCCESS;
}

static cvm_result h_bitcast(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    switch (in->ncomp) { /* the common sizes copied with their size known */
    case 4: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l), 4); break;
    case 8: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l), 8); break;
    default: CVM_FOR_ACTIVE(ex, l) memcpy(CVM_LANE(r, l), CVM_LANE(a, l), in->ncomp); break;
    }
    return CVM_SUCCESS;
}

/* OpBitcast of cooperative matrices (integer components of one width,
 * SPV_KHR_cooperative_matrix): the same bytes, per scope instance; in->c
 * the matrix's register size. */
static cvm_result h_bitcast_matrix(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    for (uint32_t i = 0; i < cvm_scope_instances(ex, in); i++) {
        int chk = cvm_scope_instance_check(ex, in, i);
        if (chk < 0)
            return CVM_ERROR_DIVERGENT_COLLECTIVE;
        if (chk > 0 && r.p + (size_t)i * r.stride != a.p + (size_t)i * a.stride)
            memcpy(r.p + (size_t)i * r.stride, a.p + (size_t)i * a.stride, in->c);
    }
    return CVM_SUCCESS;
}

/* Bits [pos, pos + n) (n <= 64) of a vector of `count` components of
 * `bits` bits each, held one per `bytes` bytes (the low bits of each). */
static uint64_t packed_bits(const uint8_t *v, unsigned bits, unsigned bytes, uint64_t pos,
                            unsigned n)
{
    uint64_t out = 0;
    for (unsigned got = 0; got < n;) {
        uint64_t k = (pos + got) / bits;
        unsigned at = (unsigned)((pos + got) % bits);
        unsigned take = CVM_MIN(bits - at, n - got);
        uint64_t c = 0;
        memcpy(&c, v + k * bytes, bytes);
        uint64_t m = take >= 64 ? UINT64_MAX : (UINT64_C(1) << take) - 1;
        out |= ((c >> at) & m) << got;
        got += take;
    }
    return out;
}

/* OpBitcast where a component is not a whole number of bytes (the 4- and
 * 6-bit floats of SPV_EXT_ocp_microscaling_types): the core rule, "any
 * single component of S (mapping to multiple components of L) maps its
 * lower-ordered bits to the lower-numbered components of L", is the source
 * read as one bit string, component 0 lowest.  in->sk/sk2 the result's and
 * the source's component kinds, in->ncomp the result's components, in->d
 * the source's. */
static cvm_result h_bitcast_bits(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    unsigned rbits = cvm_sk_bits((cvm_scalar_kind)in->sk), rbytes = cvm_sk_size((cvm_scalar_kind)in->sk);
    unsigned sbits = cvm_sk_bits((cvm_scalar_kind)in->sk2), sbytes = cvm_sk_size((cvm_scalar_kind)in->sk2);
    CVM_FOR_ACTIVE(ex, l) {
        uint8_t *dst = CVM_LANE(r, l);
        const uint8_t *src = CVM_LANE(a, l);
        if (dst == src)
            return cvm_exec_fail(ex, in, CVM_ERROR_INTERNAL, "bit cast in place");
        for (uint32_t k = 0; k < in->ncomp; k++) {
            uint64_t v = packed_bits(src, sbits, sbytes, (uint64_t)k * rbits, rbits);
            memcpy(dst + (size_t)k * rbytes, &v, rbytes); /* little-endian host */
        }
    }
    return CVM_SUCCESS;
}

/* The bit width of a scalar, vector or pointer value of type t (0 for
 * others), and its component kind and count. */
static uint64_t value_bits(cvm_lower *lw, const cvm_type *t, uint8_t *o_sk, uint32_t *o_n)
{
    *o_sk = t->sk;
    *o_n = 1;
    switch (t->tclass) {
    case CVM_TC_INT:
    case CVM_TC_FLOAT:
        return cvm_sk_bits((cvm_scalar_kind)t->sk);
    case CVM_TC_POINTER:
        *o_sk = CVM_SK_U64;
        return 64;
    case CVM_TC_VECTOR:
        *o_sk = cvm_lower_type(lw, t->elem)->sk;
        *o_n = t->count;
        return (uint64_t)t->count * cvm_sk_bits((cvm_scalar_kind)*o_sk);
    default:
        return 0;
    }
}

cvm_result cvm_lower_convert(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    const cvm_type *rt = cvm_lower_type(lw, w[1]);
    const cvm_type *st = in->word_count > 3 ? cvm_lower_type(lw, cvm_lower_type_of(lw, w[3])) : rt;
    cvm_scalar_kind rk = (cvm_scalar_kind)rt->sk, sk = (cvm_scalar_kind)st->sk;
    switch (in->opcode) {
    case SpvOpConvertFToU: rk = with_sign(rk, 0); break;
    case SpvOpConvertFToS: rk = with_sign(rk, 1); break;
    case SpvOpConvertSToF: sk = with_sign(sk, 1); break;
    case SpvOpConvertUToF: sk = with_sign(sk, 0); break;
    case SpvOpUConvert: sk = with_sign(sk, 0); break;
    case SpvOpSConvert: sk = with_sign(sk, 1); rk = with_sign(rk, 1); break;
    case SpvOpFConvert: break;
    case SpvOpSatConvertSToU: sk = with_sign(sk, 1); rk = with_sign(rk, 0); out->d = 1; break;
    case SpvOpSatConvertUToS: sk = with_sign(sk, 0); rk = with_sign(rk, 1); out->d = 1; break;
    case SpvOpQuantizeToF16:
        out->a = w[3];
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 1));
        /* "Result Type must be a scalar or vector of floating-point type.
         * The component width must be 32 bits. The type of Value must be
         * the same as Result Type" (k_quantize reads and writes f32) */
        if (rt->tclass == CVM_TC_COOPMAT || cvm_lower_type_of(lw, w[3]) != w[1] ||
            (rt->tclass == CVM_TC_VECTOR ? cvm_lower_type(lw, rt->elem) : rt)->sk != CVM_SK_F32)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Result Type %%%u must be a 32-bit float scalar or vector and "
                                  "Value %%%u of that type",
                                  w[1], w[3]);
        out->fn = h_quantize;
        return CVM_SUCCESS;
    case SpvOpBitcast: {
        out->a = w[3];
        if (rt->tclass == CVM_TC_COOPMAT || st->tclass == CVM_TC_COOPMAT) {
            /* SPV_KHR_cooperative_matrix: "on objects of cooperative matrix
             * type whose 'Component Type' are integer types with the same
             * 'Width'. ... the same 'Scope', number of 'Rows', number of
             * 'Columns', and 'Use'." */
            const cvm_type *re = cvm_lower_type(lw, rt->elem), *se = cvm_lower_type(lw, st->elem);
            if (rt->tclass != st->tclass || re->tclass != CVM_TC_INT || se->tclass != CVM_TC_INT ||
                re->size != se->size || rt->scope != st->scope || rt->rows != st->rows ||
                rt->cols != st->cols || rt->use != st->use)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "a cooperative matrix bit cast needs integer components of "
                                      "one width and the same Scope, Rows, Columns and Use");
            out->c = rt->size;
            out->flags = CVM_INSN_PER_INSTANCE |
                         (rt->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
            out->fn = h_bitcast_matrix;
            return CVM_SUCCESS;
        }
        uint8_t rsk, ssk;
        uint32_t rn, sn;
        uint64_t rbits = value_bits(lw, rt, &rsk, &rn), sbits = value_bits(lw, st, &ssk, &sn);
        if (rbits && sbits) {
            if (rbits != sbits)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "bit cast between %llu and %llu bits",
                                      (unsigned long long)sbits, (unsigned long long)rbits);
            if (cvm_sk_bits((cvm_scalar_kind)rsk) % 8 || cvm_sk_bits((cvm_scalar_kind)ssk) % 8) {
                out->sk = rsk;
                out->sk2 = ssk;
                out->ncomp = rn;
                out->d = sn;
                out->fn = h_bitcast_bits;
                return CVM_SUCCESS;
            }
        } else if (rt->size != st->size) {
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "bit cast between sizes %u and %u", st->size, rt->size);
        }
        out->ncomp = rt->size;
        out->fn = h_bitcast;
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
    out->a = w[3];
    out->sk = (uint8_t)rk;
    out->sk2 = (uint8_t)sk;
    const spv_module *mod = cvm_lower_program(lw)->mod;
    int transpose = rt->tclass == CVM_TC_COOPMAT &&
                    spv_module_find_decoration(mod, w[2], SPV_NO_MEMBER,
                                               SpvDecorationCooperativeMatrixTransposeEXT) != NULL;
    if (transpose) {
        if (!spv_module_has_capability(mod, SpvCapabilityCooperativeMatrixConversionsEXT))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "CooperativeMatrixTransposeEXT needs the "
                                  "CooperativeMatrixConversionsEXT capability");
        if (st->tclass != CVM_TC_COOPMAT || st->rows != rt->cols || st->cols != rt->rows)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a conversion decorated CooperativeMatrixTransposeEXT must swap "
                                  "rows and columns");
        if (st->use != CVM_USE_ACC || rt->use == CVM_USE_ACC)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a conversion decorated CooperativeMatrixTransposeEXT goes from "
                                  "MatrixAccumulatorKHR to MatrixAKHR or MatrixBKHR");
    } else if (rt->tclass == CVM_TC_COOPMAT) {
        if (st->tclass != CVM_TC_COOPMAT || st->rows != rt->rows || st->cols != rt->cols)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "matrix conversion between different dimensions");
    }
    if (rt->tclass == CVM_TC_COOPMAT) {
        if (st->scope != rt->scope)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "matrix conversion between different scopes");
        /* float to fp8 may saturate by decoration (SPV_EXT_float8) */
    }
    if (rt->tclass == CVM_TC_COOPMAT) {
        out->ncomp = rt->rows * rt->cols;
        out->flags = CVM_INSN_PER_INSTANCE | (rt->scope == SpvScopeWorkgroup ? CVM_INSN_WORKGROUP_SCOPE : 0);
    } else {
        CVM_TRY(cvm_ew_shape(lw, in, out, w[1], &w[3], 1));
    }
    if ((rk == CVM_SK_E4M3 || rk == CVM_SK_E5M2) &&
        spv_module_find_decoration(cvm_lower_program(lw)->mod, w[2], SPV_NO_MEMBER,
                                   SpvDecorationSaturatedToLargestFloat8NormalConversionEXT))
        out->d = 1;
    out->fn = transpose ? cvm_op_convert_transpose : h_convert;
    return CVM_SUCCESS;
}
