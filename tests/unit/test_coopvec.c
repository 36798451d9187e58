/* SPV_NV_cooperative_vector through the public API (ops/coopvec.c,
 * kernels/coopvec_kernels.c, api/coopvec_api.c), against plain-loop models
 * written here from the texts and from coopvm's documented choices:
 *
 *  - every combination cvm_get_cooperative_vector_properties lists, in each
 *    layout it allows (row-major, column-major, the optimal layouts
 *    transposed and not), with odd M and K, non-zero matrix and bias offsets
 *    and padded strides, MulNV and MulAddNV, one matrix for all invocations
 *    (the batched product) and one per invocation (the per-invocation path),
 *    which must give the same bits;
 *  - the training instructions with contention from several threads;
 *  - Load/Store (buffers, workgroup memory, robust mode);
 *  - the host conversion and its size query, the scrambled optimal layouts;
 *  - each bad-input case, with the status and a piece of the message.
 *
 * The model decodes and rounds with its own code (a search over the values
 * of each narrow format), not with src/numeric. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "coopvm.h"

#define DINF ((double)INFINITY)
#define DNAN ((double)NAN)

/* ---- random numbers --------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- the model's number formats ----------------------------------------------
 * kinds: cvm_component_type values; bytes little-endian. */

enum { F16 = CVM_COMPONENT_TYPE_FLOAT16, F32 = CVM_COMPONENT_TYPE_FLOAT32,
       F64 = CVM_COMPONENT_TYPE_FLOAT64, S8 = CVM_COMPONENT_TYPE_SINT8,
       S16 = CVM_COMPONENT_TYPE_SINT16, S32 = CVM_COMPONENT_TYPE_SINT32,
       U8 = CVM_COMPONENT_TYPE_UINT8, U16 = CVM_COMPONENT_TYPE_UINT16,
       U32 = CVM_COMPONENT_TYPE_UINT32, BF16 = CVM_COMPONENT_TYPE_BFLOAT16,
       S8P = CVM_COMPONENT_TYPE_SINT8_PACKED, U8P = CVM_COMPONENT_TYPE_UINT8_PACKED,
       E4M3 = CVM_COMPONENT_TYPE_FLOAT_E4M3, E5M2 = CVM_COMPONENT_TYPE_FLOAT_E5M2 };

static int is_float(uint32_t t)
{
    return t == F16 || t == F32 || t == F64 || t == BF16 || t == E4M3 || t == E5M2;
}

static int is_signed_int(uint32_t t)
{
    return t == S8 || t == S16 || t == S32;
}

static unsigned size_of(uint32_t t)
{
    switch (t) {
    case S8: case U8: case E4M3: case E5M2: return 1;
    case F16: case BF16: case S16: case U16: return 2;
    case F64: return 8;
    default: return 4;
    }
}

/* The exact value of a narrow float pattern (NaN for NaN patterns). */
static double decode_bits(uint32_t t, uint32_t v)
{
    int mb, eb, bias;
    switch (t) {
    case F16: mb = 10; eb = 5; bias = 15; break;
    case BF16: mb = 7; eb = 8; bias = 127; break;
    case E4M3: mb = 3; eb = 4; bias = 7; break;
    default: mb = 2; eb = 5; bias = 15; break; /* E5M2 */
    }
    int sign = (v >> (mb + eb)) & 1;
    int e = (int)((v >> mb) & ((1u << eb) - 1));
    uint32_t m = v & ((1u << mb) - 1);
    double r;
    if (t == E4M3 && e == 15 && m == 7)
        return DNAN;
    if (t != E4M3 && e == (1 << eb) - 1)
        return m ? DNAN : (sign ? -DINF : DINF);
    if (e == 0)
        r = ldexp((double)m, 1 - bias - mb);
    else
        r = ldexp((double)(m | (1u << mb)), e - bias - mb);
    return sign ? -r : r;
}

static double load_value(uint32_t t, const uint8_t *p)
{
    switch (t) {
    case F32: { float f; memcpy(&f, p, 4); return (double)f; }
    case F64: { double d; memcpy(&d, p, 8); return d; }
    case F16: case BF16: { uint16_t h; memcpy(&h, p, 2); return decode_bits(t, h); }
    case E4M3: case E5M2: return decode_bits(t, p[0]);
    case S8: return (int8_t)p[0];
    case U8: return p[0];
    case S16: { int16_t v; memcpy(&v, p, 2); return v; }
    case U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case S32: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { uint32_t v; memcpy(&v, p, 4); return v; }
    }
}

/* Finite non-negative patterns of a narrow format, ascending by value (the
 * patterns are monotonic), and the pattern count. */
static uint32_t narrow_max_pattern(uint32_t t)
{
    switch (t) {
    case F16: return 0x7bff;
    case BF16: return 0x7f7f;
    case E4M3: return 0x7e;
    default: return 0x7b; /* E5M2 */
    }
}

static uint32_t sign_bit(uint32_t t)
{
    return t == E4M3 || t == E5M2 ? 0x80u : 0x8000u;
}

/* v rounded to nearest, ties to even, into format t (f16, bf16, fp8):
 * binary search over its finite values; past the largest by half an ulp or
 * more: infinity (NaN for E4M3). */
static uint32_t round_narrow(uint32_t t, double v)
{
    uint32_t sb = sign_bit(t);
    if (isnan(v))
        return t == E4M3 ? 0x7fu : (t == F16 ? 0x7e00u : t == BF16 ? 0x7fc0u : 0x7eu);
    uint32_t sgn = signbit(v) ? sb : 0;
    double a = fabs(v);
    uint32_t maxp = narrow_max_pattern(t);
    double maxv = decode_bits(t, maxp), ulp = maxv - decode_bits(t, maxp - 1);
    if (a >= maxv + ulp / 2)
        return sgn | (t == E4M3 ? 0x7fu : maxp + 1); /* infinity follows the max pattern */
    uint32_t lo = 0, hi = maxp; /* largest pattern with value <= a */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (decode_bits(t, mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint32_t p = lo;
    if (p < maxp || a > maxv) {
        double below = decode_bits(t, p), above = decode_bits(t, p + 1);
        if (a - below > above - a || (a - below == above - a && (p & 1)))
            p++;
    }
    return sgn | p;
}

static double round_half_even(double v)
{
    double f = floor(v), d = v - f;
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0))
        f += 1.0;
    return f;
}

/* The input conversion of the text into interpretation kind `to` (an integer
 * or float kind), as a double. */
static double convert_input(uint32_t from, double v, uint32_t to)
{
    if (!is_float(to)) {
        double lo = to == S8 ? -128 : 0, hi = to == S8 ? 127 : 255;
        if (isnan(v))
            return 0;
        if (is_float(from))
            v = round_half_even(v);
        return v < lo ? lo : v > hi ? hi : v;
    }
    if (to == F32)
        return (double)(float)v;
    return decode_bits(to, round_narrow(to, v));
}

static void store_result(uint32_t t, uint8_t *p, double v)
{
    if (t == F32) {
        float f = isnan(v) ? NAN : (float)v;
        memcpy(p, &f, 4);
    } else {
        uint16_t h = (uint16_t)round_narrow(F16, v);
        memcpy(p, &h, 2);
    }
}

/* ---- one MatMul case ------------------------------------------------------------ */

typedef struct mm_case {
    uint32_t in_type, ii, mi, bi, rt; /* bi UINT32_MAX: OpCooperativeVectorMatrixMulNV */
    uint32_t m, k, layout, transpose, nl;
    uint32_t moff, boff, stride;      /* bytes */
    int per_lane;                     /* odd invocations read a second copy of the matrix */
    uint32_t flags;                   /* context flags */
    int via_api;                      /* fill the matrix with cvm_convert_cooperative_vector_matrix
                                         (from tight row-major) instead of placing each element */
    int tight_despite_flags;          /* with via_api 0: place optimal layouts tight even when
                                         the flags scramble them (the model then differs) */
    size_t mat_size;                  /* bytes of the matrix buffer; 0: all it needs */
    size_t bias_size;                 /* bytes of the bias buffer; 0: all it needs */
    int specials;                     /* put infinities and NaNs among the float values */
    /* bad-input variations of the shader */
    uint32_t in_count, res_count;     /* 0: K (or K/4 packed), M */
    int omit_stride;
    const char *ii_text;              /* replaces the InputInterpretation operand */
} mm_case;

static const char *type_id(uint32_t t)
{
    switch (t) {
    case F16: return "%half";
    case F32: return "%float";
    case BF16: return "%bf16";
    case E4M3: return "%e4m3";
    case E5M2: return "%e5m2";
    case S8: case U8: return "%char";
    case S32: case U32: return "%uint";
    default: return "%uint";
    }
}

static int packed_type(uint32_t t)
{
    return t == S8P || t == U8P;
}

static uint32_t input_count(const mm_case *c)
{
    if (c->in_count)
        return c->in_count;
    return packed_type(c->ii) ? (c->k + 3) / 4 : c->k;
}

static size_t align16(size_t v)
{
    return (v + 15) & ~(size_t)15;
}

/* Byte offset, from the matrix start, of element (r, c) of the M x K matrix
 * the product uses (stored K x M when transposed). */
static size_t model_offset(const mm_case *c, uint32_t r, uint32_t q)
{
    size_t es = size_of(c->mi);
    switch (c->layout) {
    case 0: return (size_t)r * c->stride + q * es;
    case 1: return (size_t)q * c->stride + r * es + 0;
    default:
        return c->transpose ? ((size_t)q * c->m + r) * es : ((size_t)r * c->k + q) * es;
    }
}

static size_t matrix_extent(const mm_case *c)
{
    size_t es = size_of(c->mi);
    switch (c->layout) {
    case 0: return (size_t)(c->m - 1) * c->stride + c->k * es;
    case 1: return (size_t)(c->k - 1) * c->stride + c->m * es;
    default: return ((size_t)c->m * c->k * es + 63) / 64 * 64; /* padded to 64 bytes */
    }
}

/* SPIR-V text of the case. */
static char *mm_shader(const mm_case *c)
{
    size_t cap = 16384;
    char *s = malloc(cap);
    assert_non_null(s);
    int in_signed = is_signed_int(c->in_type);
    int res_signed = c->rt == S32;
    uint32_t ops = (in_signed ? 2u : 0u) | (res_signed ? 8u : 0u);
    char opstr[64] = "";
    if (ops)
        snprintf(opstr, sizeof(opstr), " %s%s%s", (ops & 2) ? "MatrixBSignedComponentsKHR" : "",
                 (ops & 2) && (ops & 8) ? "|" : "", (ops & 8) ? "MatrixResultSignedComponentsKHR" : "");
    int add = c->bi != UINT32_MAX;
    uint32_t in_stride = (uint32_t)align16(input_count(c) * size_of(packed_type(c->ii) ? U32 : c->in_type));
    uint32_t out_stride = (uint32_t)align16(c->m * size_of(c->rt));
    uint32_t copy = (uint32_t)((matrix_extent(c) + 63) / 64 * 64);
    char bias_part[256] = "";
    if (add)
        snprintf(bias_part, sizeof(bias_part), " %%pb %%c_boff %%c_bi");
    int n = snprintf(
        s, cap,
        "OpCapability Shader\n"
        "OpCapability Float16\n"
        "OpCapability Int8\n"
        "OpCapability BFloat16TypeKHR\n"
        "OpCapability Float8EXT\n"
        "OpCapability VulkanMemoryModel\n"
        "OpCapability CooperativeVectorNV\n"
        "OpExtension \"SPV_NV_cooperative_vector\"\n"
        "OpExtension \"SPV_KHR_bfloat16\"\n"
        "OpExtension \"SPV_EXT_float8\"\n"
        "OpMemoryModel Logical Vulkan\n"
        "OpEntryPoint GLCompute %%main \"main\" %%lid %%bin %%bmat %%bbias %%bout\n"
        "OpExecutionMode %%main LocalSize %u 1 1\n"
        "OpDecorate %%lid BuiltIn LocalInvocationIndex\n"
        "OpDecorate %%rt ArrayStride 4\n"
        "OpDecorate %%B Block\n"
        "OpMemberDecorate %%B 0 Offset 0\n"
        "OpDecorate %%bin DescriptorSet 0\nOpDecorate %%bin Binding 0\n"
        "OpDecorate %%bmat DescriptorSet 0\nOpDecorate %%bmat Binding 1\n"
        "OpDecorate %%bbias DescriptorSet 0\nOpDecorate %%bbias Binding 2\n"
        "OpDecorate %%bout DescriptorSet 0\nOpDecorate %%bout Binding 3\n"
        "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
        "%%uint = OpTypeInt 32 0\n%%int = OpTypeInt 32 1\n%%char = OpTypeInt 8 0\n"
        "%%half = OpTypeFloat 16\n%%float = OpTypeFloat 32\n"
        "%%bf16 = OpTypeFloat 16 BFloat16KHR\n%%e4m3 = OpTypeFloat 8 Float8E4M3EXT\n"
        "%%e5m2 = OpTypeFloat 8 Float8E5M2EXT\n"
        "%%rt = OpTypeRuntimeArray %%uint\n%%B = OpTypeStruct %%rt\n"
        "%%pB = OpTypePointer StorageBuffer %%B\n%%prt = OpTypePointer StorageBuffer %%rt\n"
        "%%pin = OpTypePointer Input %%uint\n%%lid = OpVariable %%pin Input\n"
        "%%bin = OpVariable %%pB StorageBuffer\n%%bmat = OpVariable %%pB StorageBuffer\n"
        "%%bbias = OpVariable %%pB StorageBuffer\n%%bout = OpVariable %%pB StorageBuffer\n"
        "%%c_0 = OpConstant %%uint 0\n%%c_1 = OpConstant %%uint 1\n"
        "%%c_incount = OpConstant %%uint %u\n%%c_M = OpConstant %%uint %u\n"
        "%%c_K = OpConstant %%uint %u\n%%c_rescount = OpConstant %%uint %u\n"
        "%%vin = OpTypeCooperativeVectorNV %s %%c_incount\n"
        "%%vres = OpTypeVectorIdEXT %s %%c_rescount\n"
        "%%c_ii = OpConstant %%int %d\n%%c_mi = OpConstant %%int %d\n%%c_bi = OpConstant %%int %d\n"
        "%%c_layout = OpConstant %%int %u\n%%c_tr = %s %%bool\n"
        "%%c_moff = OpConstant %%uint %u\n%%c_boff = OpConstant %%uint %u\n"
        "%%c_stride = OpConstant %%uint %u\n%%c_copy = OpConstant %%uint %u\n"
        "%%c_instride = OpConstant %%uint %u\n%%c_outstride = OpConstant %%uint %u\n"
        "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n"
        "%%l = OpLoad %%uint %%lid\n"
        "%%pi = OpAccessChain %%prt %%bin %%c_0\n"
        "%%ioff = OpIMul %%uint %%l %%c_instride\n"
        "%%x = OpCooperativeVectorLoadNV %%vin %%pi %%ioff\n"
        "%%pm = OpAccessChain %%prt %%bmat %%c_0\n"
        "%%par = OpBitwiseAnd %%uint %%l %%c_1\n"
        "%%sel = OpIMul %%uint %%par %%c_copy\n"
        "%%mo = OpIAdd %%uint %%c_moff %s\n"
        "%%pb = OpAccessChain %%prt %%bbias %%c_0\n"
        "%%r = %s %%vres %%x %s %%pm %%mo %%c_mi%s %%c_M %%c_K %%c_layout %%c_tr%s%s\n"
        "%%po = OpAccessChain %%prt %%bout %%c_0\n"
        "%%ooff = OpIMul %%uint %%l %%c_outstride\n"
        "OpCooperativeVectorStoreNV %%po %%ooff %%r\n"
        "OpReturn\nOpFunctionEnd\n",
        c->nl, input_count(c), c->m, c->k, c->res_count ? c->res_count : c->m,
        packed_type(c->ii) ? "%uint" : type_id(c->in_type),
        type_id(c->rt), (int)c->ii, (int)c->mi, add ? (int)c->bi : 0, c->layout,
        c->transpose ? "OpConstantTrue" : "OpConstantFalse", c->moff, c->boff, c->stride, copy,
        in_stride, out_stride, c->per_lane ? "%sel" : "%c_0",
        add ? "OpCooperativeVectorMatrixMulAddNV" : "OpCooperativeVectorMatrixMulNV",
        c->ii_text ? c->ii_text : "%c_ii", bias_part, c->omit_stride ? "" : " %c_stride", opstr);
    assert_true(n > 0 && (size_t)n < cap);
    return s;
}

typedef struct run_result {
    cvm_result create, dispatch;
    char message[768];
} run_result;

/* When set, run_text writes the PhysicalStorageBuffer address of binding 0
 * into the first 8 bytes of binding 2 before dispatching. */
static int patch_address;

/* Assembles `text`, binds bufs[i] (binding i) and dispatches `groups`. */
static run_result run_text(const char *text, uint32_t flags, uint32_t threads, void **bufs,
                           const size_t *sizes, uint32_t nbufs, uint32_t groups)
{
    run_result rr;
    memset(&rr, 0, sizeof(rr));
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    cvm_result r = cvm_assemble(text, strlen(text), 0, "spv1.6", &words, &nw, &d);
    if (r != CVM_SUCCESS) {
        print_error("assembly failed: %s (line %u): %s\n%s\n", d.message, d.line, cvm_result_string(r), text);
        fail();
    }
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = threads;
    desc.flags = flags;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    rr.create = cvm_module_create(ctx, words, nw, &mod, &d);
    if (rr.create == CVM_SUCCESS)
        rr.create = cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, &d);
    if (rr.create != CVM_SUCCESS) {
        snprintf(rr.message, sizeof(rr.message), "%s", d.message);
    } else {
        for (uint32_t i = 0; i < nbufs; i++)
            assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, i, 0, bufs[i], sizes[i], &d),
                             CVM_SUCCESS);
        if (patch_address) {
            uint64_t addr = cvm_pipeline_buffer_address(pipe, 0, 0, 0);
            assert_true(addr != 0);
            memcpy(bufs[2], &addr, 8);
        }
        rr.dispatch = cvm_pipeline_dispatch(pipe, groups, 1, 1, &d);
        if (rr.dispatch != CVM_SUCCESS)
            snprintf(rr.message, sizeof(rr.message), "%s", d.message);
    }
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    cvm_free(words);
    return rr;
}

/* A random value of kind t that the model handles (finite floats of modest
 * size, so that the interesting rounding happens in the sums). */
static void random_value(uint32_t t, uint8_t *p, int for_int_interp)
{
    uint64_t r = rng();
    switch (t) {
    case F16: case F32: case BF16: {
        double v;
        if (for_int_interp) {
            static const double special[] = {0.5, 1.5, 2.5, -2.5, -0.5, 127.5, 128.0, 200.25,
                                             -129.0, -128.5, 255.5, 256.0, 1e6, -1e6, 3.49, DNAN,
                                             DINF, -DINF, -0.0};
            v = (r % 3 == 0) ? special[(r >> 8) % (sizeof special / sizeof special[0])]
                             : (double)((int64_t)((r >> 8) % 600) - 300) / 4.0;
        } else {
            v = ldexp((double)((r >> 8) % 2048) / 2048.0 + 0.25, (int)((r >> 20) % 7) - 3);
            if (r & 1)
                v = -v;
        }
        if (t == F32) {
            float f = (float)v;
            memcpy(p, &f, 4);
        } else {
            uint16_t h = (uint16_t)round_narrow(t, v);
            memcpy(p, &h, 2);
        }
        return;
    }
    case E4M3: {
        uint8_t b = (uint8_t)r;
        if ((b & 0x7f) == 0x7f)
            b ^= 1;
        p[0] = b;
        return;
    }
    case E5M2: {
        uint8_t b = (uint8_t)r;
        if ((b & 0x7c) == 0x7c)
            b &= 0xf3;
        p[0] = b;
        return;
    }
    case S8: case U8: p[0] = (uint8_t)r; return;
    case S32: case U32: {
        /* small and out-of-8-bit-range values, and for float interpretations
         * integers that f16 rounds */
        int32_t v = (int32_t)((r >> 8) % 700) - 350;
        if (r % 5 == 0)
            v = (int32_t)((r >> 16) % 8192) - 4096;
        if (t == U32 && r % 7 == 0)
            v = (int32_t)(0x80000000u + (uint32_t)(r >> 40));
        memcpy(p, &v, 4);
        return;
    }
    default: {
        uint32_t v = (uint32_t)r;
        memcpy(p, &v, 4);
        return;
    }
    }
}

/* A float value v stored in kind t (f32 as is, narrow kinds rounded). */
static void store_any(uint32_t t, uint8_t *p, double v)
{
    if (t == F32) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else if (t == F16 || t == BF16) {
        uint16_t h = (uint16_t)round_narrow(t, v);
        memcpy(p, &h, 2);
    } else if (t == E4M3 || t == E5M2) {
        p[0] = (uint8_t)round_narrow(t, v);
    }
}

/* Fills the matrix buffer from the stored (before Transpose) matrix `logical`
 * (srows x scols, tight row-major). */
static void place_matrix(const mm_case *c, const uint8_t *logical, uint8_t *dst, size_t room)
{
    size_t es = size_of(c->mi);
    uint32_t srows = c->transpose ? c->k : c->m, scols = c->transpose ? c->m : c->k;
    if (c->via_api) {
        cvm_context_desc d;
        memset(&d, 0, sizeof(d));
        d.flags = c->flags;
        cvm_context *ctx = NULL;
        cvm_diagnostic diag;
        assert_int_equal(cvm_context_create(&d, &ctx, &diag), CVM_SUCCESS);
        size_t need = 0;
        cvm_coopvec_convert_info ci;
        memset(&ci, 0, sizeof(ci));
        ci.src_size = (size_t)srows * scols * es;
        ci.src_data = logical;
        ci.dst_size = &need;
        ci.src_component_type = ci.dst_component_type = c->mi;
        ci.num_rows = srows;
        ci.num_columns = scols;
        ci.src_layout = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR;
        ci.src_stride = scols * es;
        ci.dst_layout = c->layout;
        ci.dst_stride = c->stride;
        assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &diag), CVM_SUCCESS);
        assert_true(need <= room);
        ci.dst_data = dst;
        assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &diag), CVM_SUCCESS);
        /* the optimal layouts' size: a multiple of 64 bytes (coopvm.h) */
        assert_int_equal(need, c->layout >= 2 ? (matrix_extent(c) + 63) / 64 * 64
                                              : matrix_extent(c));
        cvm_context_destroy(ctx);
        return;
    }
    for (uint32_t r = 0; r < srows; r++)
        for (uint32_t q = 0; q < scols; q++) {
            /* (r, q) of the stored matrix is (q, r) of the used one when transposed */
            size_t off = c->transpose ? model_offset(c, q, r) : model_offset(c, r, q);
            if (off + es <= room)
                memcpy(dst + off, logical + ((size_t)r * scols + q) * es, es);
        }
}

typedef struct mm_out {
    run_result rr;
    uint8_t *out, *want;
    size_t size, stride;
} mm_out;

/* Runs the case and computes the model's outputs. */
static mm_out mm_run(const mm_case *c)
{
    int add = c->bi != UINT32_MAX;
    int packed = packed_type(c->ii);
    uint32_t in_es = size_of(packed ? U32 : c->in_type), cnt = input_count(c);
    size_t in_stride = align16(cnt * in_es), out_stride = align16(c->m * size_of(c->rt));
    size_t extent = matrix_extent(c), copy = (extent + 63) / 64 * 64;
    size_t es = size_of(c->mi);
    size_t in_size = in_stride * c->nl;
    size_t mat_size = c->mat_size ? c->mat_size : c->moff + 2 * copy + 16;
    size_t bias_size = c->bias_size ? c->bias_size
                                    : c->boff + align16(c->m * (add ? size_of(c->bi) : 4)) + 16;
    size_t out_size = out_stride * c->nl;
    uint32_t srows = c->transpose ? c->k : c->m, scols = c->transpose ? c->m : c->k;
    uint8_t *in = calloc(1, in_size), *mat = malloc(mat_size + 1), *bias = malloc(bias_size);
    uint8_t *out = malloc(out_size), *want = malloc(out_size);
    uint8_t *logical = malloc((size_t)srows * scols * es);
    assert_true(in && mat && bias && out && want && logical);
    for (uint32_t l = 0; l < c->nl; l++)
        for (uint32_t i = 0; i < cnt; i++)
            random_value(packed ? U32 : c->in_type, in + l * in_stride + i * in_es,
                         !is_float(c->mi));
    for (size_t i = 0; i < mat_size; i++)
        mat[i] = (uint8_t)rng(); /* padding and strides hold garbage */
    for (size_t i = 0; i < (size_t)srows * scols; i++)
        random_value(c->mi, logical + i * es, 0);
    for (size_t i = 0; i < bias_size; i++)
        bias[i] = (uint8_t)rng();
    if (add)
        for (uint32_t r = 0; r < c->m && c->boff + (r + 1) * size_of(c->bi) <= bias_size; r++)
            random_value(c->bi, bias + c->boff + r * size_of(c->bi), 0);
    if (c->specials) {
        /* a few infinities and NaNs among the matrix, bias and input values,
         * and inputs large enough to overflow f16 sums */
        static const double sp[] = {DINF, -DINF, DNAN, 60000.0, -60000.0};
        for (size_t i = 0; i < (size_t)srows * scols; i++)
            if (rng() % 9 == 0)
                store_any(c->mi, logical + i * es, sp[rng() % 5]);
        for (uint32_t r = 0; add && r < c->m; r++)
            if (rng() % 4 == 0)
                store_any(c->bi, bias + c->boff + r * size_of(c->bi), sp[rng() % 5]);
        for (uint32_t l = 0; l < c->nl; l++)
            for (uint32_t i = 0; i < cnt; i++)
                if (rng() % 6 == 0)
                    store_any(c->in_type, in + l * in_stride + i * in_es, sp[rng() % 5]);
    }
    if (c->moff < mat_size) {
        place_matrix(c, logical, mat + c->moff, mat_size - c->moff);
        if (c->moff + copy < mat_size)
            place_matrix(c, logical, mat + c->moff + copy, mat_size - c->moff - copy);
    }
    memset(out, 0xcd, out_size);
    memcpy(want, out, out_size);

    /* the model: matrix elements from `logical`, or zero where robust access
     * drops them (past the buffer) */
    uint32_t eff = packed ? (c->ii == S8P ? S8 : U8) : c->ii;
    if ((c->ii == E4M3 || c->ii == E5M2) && c->in_type != c->ii)
        eff = F16; /* fp8 interpretations of wider inputs keep f16 precision */
    int f32acc = (eff == F16 || eff == E4M3 || eff == E5M2) &&
                 (c->mi == F16 || c->mi == E4M3 || c->mi == E5M2) &&
                 !(c->flags & CVM_FLAG_PRECISE); /* the precise mode: double accumulators */
    double *x = malloc((size_t)c->k * sizeof(double)), *wv = malloc((size_t)c->k * sizeof(double));
    assert_true(x && wv);
    for (uint32_t l = 0; l < c->nl; l++) {
        const uint8_t *iv = in + l * in_stride;
        for (uint32_t q = 0; q < c->k; q++) {
            if (packed) {
                uint8_t b = iv[q]; /* little-endian: byte q of the words */
                x[q] = c->ii == S8P ? (double)(int8_t)b : (double)b;
            } else {
                double v = load_value(c->in_type, iv + q * in_es);
                x[q] = convert_input(c->in_type, v, eff);
            }
        }
        size_t base = c->moff + (c->per_lane && (l & 1) ? copy : 0);
        for (uint32_t r = 0; r < c->m; r++) {
            uint8_t *dst = want + l * out_stride + r * size_of(c->rt);
            size_t bo = c->boff + r * size_of(c->bi);
            double b = add && bo + size_of(c->bi) <= bias_size ? load_value(c->bi, bias + bo) : 0.0;
            for (uint32_t q = 0; q < c->k; q++) {
                size_t li = c->transpose ? (size_t)q * scols + r : (size_t)r * scols + q;
                int dropped = base + model_offset(c, r, q) + es > mat_size;
                wv[q] = dropped ? 0.0 : load_value(c->mi, logical + li * es);
            }
            if (!is_float(c->mi)) {
                uint32_t acc = add ? (uint32_t)(int64_t)b : 0u;
                for (uint32_t q = 0; q < c->k; q++)
                    acc += (uint32_t)((int64_t)wv[q] * (int64_t)x[q]);
                memcpy(dst, &acc, 4);
            } else if (f32acc) {
                float acc = (float)b;
                for (uint32_t q = 0; q < c->k; q++)
                    acc = acc + (float)(wv[q] * x[q]);
                store_result(c->rt, dst, (double)acc);
            } else {
                double acc = b;
                for (uint32_t q = 0; q < c->k; q++)
                    acc = acc + wv[q] * x[q];
                store_result(c->rt, dst, acc);
            }
        }
    }
    free(x);
    free(wv);
    char *text = mm_shader(c);
    void *bufs[4] = {in, mat, bias, out};
    size_t sizes[4] = {in_size, mat_size, bias_size, out_size};
    mm_out o;
    o.rr = run_text(text, c->flags, 2, bufs, sizes, 4, 1);
    o.out = out;
    o.want = want;
    o.size = out_size;
    o.stride = out_stride;
    free(text);
    free(in);
    free(mat);
    free(bias);
    free(logical);
    return o;
}

static void mm_free(mm_out *o)
{
    free(o->out);
    free(o->want);
}

static void describe(const mm_case *c, char *buf, size_t cap)
{
    snprintf(buf, cap, "in %s ii %s mi %s bi %s rt %s M %u K %u layout %u tr %u per_lane %d",
             cvm_component_type_string(c->in_type), cvm_component_type_string(c->ii),
             cvm_component_type_string(c->mi),
             c->bi != UINT32_MAX ? cvm_component_type_string(c->bi) : "-",
             cvm_component_type_string(c->rt), c->m, c->k, c->layout, c->transpose, c->per_lane);
}

/* Runs the case and compares every output byte with the model. */
static void mm_check(const mm_case *c)
{
    mm_out o = mm_run(c);
    char what[256];
    describe(c, what, sizeof(what));
    if (o.rr.create || o.rr.dispatch) {
        print_error("%s: %s / %s: %s\n", what, cvm_result_string(o.rr.create),
                    cvm_result_string(o.rr.dispatch), o.rr.message);
        fail();
    }
    for (size_t i = 0; i < o.size; i++) {
        if (o.out[i] != o.want[i]) {
            print_error("%s: invocation %zu element %zu byte %zu: got 0x%02x want 0x%02x\n", what,
                        i / o.stride, (i % o.stride) / size_of(c->rt), i % o.stride, o.out[i],
                        o.want[i]);
            fail();
        }
    }
    mm_free(&o);
}

/* Expects the case to fail (at pipeline creation when `at_create`, else in
 * the dispatch) with `want` and a message containing `piece`; outputs must be
 * unchanged when the failure is in the dispatch and nothing was written. */
static void mm_expect_error(const mm_case *c, int at_create, cvm_result want, const char *piece)
{
    mm_out o = mm_run(c);
    char what[256];
    describe(c, what, sizeof(what));
    cvm_result got = at_create ? o.rr.create : o.rr.dispatch;
    if (got != want || (at_create == 0 && o.rr.create != CVM_SUCCESS) || !strstr(o.rr.message, piece)) {
        print_error("%s: want %s with \"%s\", got create %s dispatch %s: %s\n", what,
                    cvm_result_string(want), piece, cvm_result_string(o.rr.create),
                    cvm_result_string(o.rr.dispatch), o.rr.message);
        fail();
    }
    mm_free(&o);
}

static mm_case base_case(const cvm_coopvec_properties *p, uint32_t layout, uint32_t tr)
{
    mm_case c;
    memset(&c, 0, sizeof(c));
    c.in_type = p->input_type;
    c.ii = p->input_interpretation;
    c.mi = p->matrix_interpretation;
    c.bi = p->bias_interpretation;
    c.rt = p->result_type;
    c.m = 5;
    c.k = 7;
    c.layout = layout;
    c.transpose = tr;
    c.nl = 37;
    c.moff = 128;
    c.boff = 48;
    uint32_t line = (layout == 0 ? c.k : c.m) * size_of(c.mi);
    c.stride = (uint32_t)align16(line) + 32;
    return c;
}

/* Every listed combination, every layout it may use, transposed and not;
 * MulNV and the per-invocation path on one layout each. */
static void test_every_combination(void **state)
{
    (void)state;
    uint32_t n = 0;
    assert_int_equal(cvm_get_cooperative_vector_properties(&n, NULL), CVM_SUCCESS);
    cvm_coopvec_properties *p = calloc(n, sizeof(*p));
    assert_non_null(p);
    assert_int_equal(cvm_get_cooperative_vector_properties(&n, p), CVM_SUCCESS);
    uint32_t runs = 0;
    for (uint32_t i = 0; i < n; i++) {
        int fp8 = p[i].matrix_interpretation == E4M3 || p[i].matrix_interpretation == E5M2;
        assert_int_equal(p[i].transpose, 1);
        for (uint32_t layout = fp8 ? 2 : 0; layout < 4; layout++) {
            for (uint32_t tr = 0; tr < (layout >= 2 ? 2u : 1u); tr++) {
                mm_case c = base_case(&p[i], layout, tr);
                mm_check(&c);
                runs++;
            }
        }
        uint32_t layout = fp8 ? 2 : i % 2;
        mm_case c = base_case(&p[i], layout, 0);
        c.bi = UINT32_MAX;
        mm_check(&c);
        c = base_case(&p[i], layout, 0);
        c.per_lane = 1;
        mm_check(&c);
        runs += 2;
    }
    print_message("%u combinations, %u runs\n", n, runs);
    free(p);
}

static cvm_coopvec_properties props(uint32_t in, uint32_t ii, uint32_t mi, uint32_t bi, uint32_t rt)
{
    cvm_coopvec_properties p = {in, ii, mi, bi, rt, 1};
    return p;
}

/* Larger and degenerate shapes: the kernels' register tiles and their
 * remainders (M, K, invocation counts that are not multiples of 4 or 8),
 * M = K = 1, and a full 1024-invocation workgroup; each with one matrix for
 * all invocations and with one per invocation.  Then a product large enough
 * to run in blocks of rows and of invocations (ops/coopvec.c keeps its
 * scratch near 4 MB). */
static void test_shapes(void **state)
{
    (void)state;
    static const uint32_t shapes[][3] = {{1, 1, 1}, {1, 1, 9}, {33, 65, 64}, {17, 3, 37},
                                         {4, 96, 8}, {64, 32, 1024}, {3, 129, 13}};
    cvm_coopvec_properties ps[] = {props(F16, F16, F16, F16, F16), props(F32, F32, F32, F32, F32),
                                   props(S8, S8, S8, S32, S32), props(U32, S8P, S8, S32, S32),
                                   props(F16, E4M3, E4M3, F16, F16), props(BF16, BF16, BF16, BF16, F32)};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
            int fp8 = ps[pi].matrix_interpretation == E4M3;
            for (uint32_t layout = fp8 ? 2 : 0; layout < 4; layout += fp8 ? 1 : 2) {
                for (int per_lane = 0; per_lane < 2; per_lane++) {
                    mm_case c = base_case(&ps[pi], layout, layout >= 2 && per_lane);
                    c.m = shapes[si][0];
                    c.k = shapes[si][1];
                    c.nl = shapes[si][2];
                    c.stride = (uint32_t)align16((layout == 0 ? c.k : c.m) * size_of(c.mi)) + 16;
                    c.per_lane = per_lane;
                    mm_check(&c);
                }
            }
        }
    }
    cvm_coopvec_properties big[] = {props(F32, F32, F32, F32, F32), props(F16, F16, F16, F16, F16)};
    for (size_t pi = 0; pi < 2; pi++) {
        mm_case c = base_case(&big[pi], 2, pi);
        c.m = pi ? 300 : 160; /* f64 accumulators: 128 rows a block; f32: 256 */
        c.k = 4096;
        c.nl = 130;           /* about 123 (f64) or 240 (f32) invocations a block */
        mm_check(&c);
    }
}

/* NaN and infinity in the matrix, the bias and the inputs, and sums that
 * overflow: NaN results are the canonical quiet NaN whichever path runs. */
static void test_special_values(void **state)
{
    (void)state;
    cvm_coopvec_properties ps[] = {props(F16, F16, F16, F16, F16), props(F16, F16, F16, F32, F32),
                                   props(F32, F32, F32, F32, F16), props(F16, E5M2, E5M2, F16, F16),
                                   props(BF16, BF16, BF16, BF16, F32)};
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
        for (int per_lane = 0; per_lane < 2; per_lane++) {
            mm_case c = base_case(&ps[pi], 2, (uint32_t)per_lane);
            c.m = 9;
            c.k = 11;
            c.nl = 24;
            c.per_lane = per_lane;
            c.specials = 1;
            mm_check(&c);
        }
    }
}

/* The precise mode: f16 and fp8 products accumulate in double; a case whose
 * f32 and double sums differ shows the flag acts. */
static void test_precise(void **state)
{
    (void)state;
    cvm_coopvec_properties ps[] = {props(F16, F16, F16, F16, F16), props(F16, F16, F16, F32, F32),
                                   props(F16, E4M3, E4M3, F16, F32), props(E5M2, E5M2, E5M2, F32, F32)};
    int differs = 0;
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
        for (int per_lane = 0; per_lane < 2; per_lane++) {
            mm_case c = base_case(&ps[pi], 2, 0);
            c.k = 301;
            c.nl = 20;
            c.per_lane = per_lane;
            c.flags = CVM_FLAG_PRECISE;
            uint64_t keep = rng_state;
            mm_check(&c);
            /* the same data without the flag: f32 sums */
            rng_state = keep;
            c.flags = 0;
            mm_out o = mm_run(&c);
            rng_state = keep;
            c.flags = CVM_FLAG_PRECISE;
            mm_out p = mm_run(&c);
            assert_int_equal(o.rr.dispatch, CVM_SUCCESS);
            differs |= memcmp(o.out, p.out, o.size) != 0;
            mm_free(&o);
            mm_free(&p);
        }
    }
    assert_true(differs);
}

/* Scrambled optimal layouts: a matrix converted with the host call reads
 * back right; one placed tight without the conversion does not. */
static void test_scrambled_layouts(void **state)
{
    (void)state;
    cvm_coopvec_properties ps[] = {props(F16, F16, F16, F16, F16), props(S8, S8, S8, S32, S32),
                                   props(F16, E5M2, E5M2, F16, F32)};
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
        for (uint32_t layout = 2; layout < 4; layout++) {
            for (uint32_t tr = 0; tr < 2; tr++) {
                mm_case c = base_case(&ps[pi], layout, tr);
                c.flags = CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS;
                c.via_api = 1;
                mm_check(&c); /* converted: right */
                c.flags = 0;
                mm_check(&c); /* converted without the flag: tight, also right */
                /* tight data read through the scrambled layout: wrong */
                c.via_api = 0;
                c.flags = CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS;
                mm_out o = mm_run(&c);
                assert_int_equal(o.rr.dispatch, CVM_SUCCESS);
                assert_true(memcmp(o.out, o.want, o.size) != 0);
                mm_free(&o);
            }
        }
        /* row-/column-major are never scrambled */
        mm_case c = base_case(&ps[pi], ps[pi].matrix_interpretation == E5M2 ? 2 : 0, 0);
        c.flags = CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS;
        c.via_api = 1;
        mm_check(&c);
    }
}

/* Robust access: matrix elements past the buffer read as zero, element by
 * element; without it the same case fails and names the matrix. */
static void test_robust_matrix(void **state)
{
    (void)state;
    cvm_coopvec_properties ps[] = {props(F16, F16, F16, F16, F32), props(S8, S8, S8, S32, S32)};
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
        for (uint32_t layout = 0; layout < 3; layout++) {
            mm_case c = base_case(&ps[pi], layout, 0);
            c.mat_size = c.moff + matrix_extent(&c) / 2 + 1;
            c.flags = CVM_FLAG_ROBUST_ACCESS;
            mm_check(&c);
            c.flags = 0;
            mm_expect_error(&c, 0, CVM_ERROR_OUT_OF_BOUNDS, "the matrix spans bytes");
        }
    }
}

/* Bad input: each case ends in its status, naming what is wrong. */
static void test_bad_input(void **state)
{
    (void)state;
    cvm_coopvec_properties f16 = props(F16, F16, F16, F16, F16);
    cvm_coopvec_properties s8 = props(S8, S8, S8, S32, S32);
    mm_case c;

    c = base_case(&f16, 0, 1); /* transpose with row-major */
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "Transpose with the RowMajorNV layout");
    c = base_case(&f16, 1, 1);
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "Transpose with the ColumnMajorNV layout");
    cvm_coopvec_properties e4 = props(F16, E4M3, E4M3, F16, F16);
    c = base_case(&e4, 0, 0); /* fp8 matrix, row-major */
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "fp8 matrices must use an optimal layout");
    cvm_coopvec_properties bad = props(F16, F16, S8, F16, F16);
    c = base_case(&bad, 2, 0); /* a combination that is not listed */
    mm_expect_error(&c, 1, CVM_ERROR_UNSUPPORTED, "matrixInterpretation SINT8");
    bad = props(F16, F16, F16, S32, F16);
    c = base_case(&bad, 2, 0);
    mm_expect_error(&c, 1, CVM_ERROR_UNSUPPORTED, "biasInterpretation SINT32");
    bad = props(U32, S8P, S8, S32, F32);
    c = base_case(&bad, 2, 0);
    mm_expect_error(&c, 1, CVM_ERROR_UNSUPPORTED, "result FLOAT32");
    c = base_case(&f16, 2, 0); /* Input of K + 1 components */
    c.in_count = c.k + 1;
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "Input has 8 components, K is 7");
    cvm_coopvec_properties pk = props(U32, S8P, S8, S32, S32);
    c = base_case(&pk, 2, 0); /* too few packed words */
    c.in_count = 1;
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "too few to hold K = 7 packed values");
    c = base_case(&f16, 2, 0); /* result of M + 2 components */
    c.res_count = c.m + 2;
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "the result has 7 components, M is 5");
    c = base_case(&f16, 0, 0); /* row-major without MatrixStride */
    c.omit_stride = 1;
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "needs MatrixStride");
    c = base_case(&f16, 2, 0); /* a non-constant interpretation */
    c.ii_text = "%l";
    mm_expect_error(&c, 1, CVM_ERROR_INVALID_MODULE, "InputInterpretation must be a constant");
    c = base_case(&f16, 2, 0);
    c.ii_text = "%c_layout"; /* 2 = Float64NV: not listed */
    mm_expect_error(&c, 1, CVM_ERROR_UNSUPPORTED, "inputInterpretation FLOAT64");

    /* in the dispatch: bounds, alignment; nothing is written */
    for (uint32_t layout = 0; layout < 3; layout++) {
        c = base_case(&s8, layout, 0);
        c.mat_size = c.moff + matrix_extent(&c) - 1;
        mm_expect_error(&c, 0, CVM_ERROR_OUT_OF_BOUNDS, "invocation 0: the matrix spans bytes");
    }
    c = base_case(&f16, 2, 0);
    c.moff = 0xffffffc0u; /* 64-aligned, far past the buffer */
    c.mat_size = 256;
    mm_expect_error(&c, 0, CVM_ERROR_OUT_OF_BOUNDS, "the matrix spans bytes 4294967232");
    c = base_case(&f16, 2, 0);
    c.moff = 100;
    mm_expect_error(&c, 0, CVM_ERROR_INVALID_MODULE, "MatrixOffset 100) is not 64-byte aligned");
    c = base_case(&f16, 0, 0);
    c.stride = 40;
    mm_expect_error(&c, 0, CVM_ERROR_INVALID_MODULE, "MatrixStride 40 of a RowMajorNV matrix");
    c = base_case(&f16, 2, 0);
    c.boff = 8;
    mm_expect_error(&c, 0, CVM_ERROR_INVALID_MODULE, "BiasOffset 8) is not 16-byte aligned");
    c = base_case(&f16, 2, 0);
    c.boff = 4096;
    c.bias_size = 4096;
    mm_expect_error(&c, 0, CVM_ERROR_OUT_OF_BOUNDS, "the bias spans bytes 4096");
}

/* ---- small modules: a common header, then the case's own declarations and
 * body.  Buffers b0..b3 at bindings 0..3 (uint runtime arrays); %l is the
 * local invocation index, %g the workgroup id (x), %gl the global index. */
static char *module(uint32_t local_size, const char *decls, const char *body)
{
    size_t cap = 8192 + strlen(decls) + strlen(body);
    char *s = malloc(cap);
    assert_non_null(s);
    int n = snprintf(
        s, cap,
        "OpCapability Shader\nOpCapability Float16\nOpCapability Int8\nOpCapability Int64\n"
        "OpCapability VulkanMemoryModel\nOpCapability CooperativeVectorNV\n"
        "OpCapability CooperativeVectorTrainingNV\nOpCapability PhysicalStorageBufferAddresses\n"
        "OpExtension \"SPV_NV_cooperative_vector\"\n"
        "OpExtension \"SPV_KHR_physical_storage_buffer\"\n"
        "%%glsl = OpExtInstImport \"GLSL.std.450\"\n"
        "OpMemoryModel PhysicalStorageBuffer64 Vulkan\n"
        "OpEntryPoint GLCompute %%main \"main\" %%lidv %%gidv %%b0 %%b1 %%b2 %%b3 %%shared\n"
        "OpExecutionMode %%main LocalSize %u 1 1\n"
        "OpDecorate %%lidv BuiltIn LocalInvocationIndex\n"
        "OpDecorate %%gidv BuiltIn WorkgroupId\n"
        "OpDecorate %%rt ArrayStride 4\nOpDecorate %%B Block\nOpMemberDecorate %%B 0 Offset 0\n"
        "OpDecorate %%b0 DescriptorSet 0\nOpDecorate %%b0 Binding 0\n"
        "OpDecorate %%b1 DescriptorSet 0\nOpDecorate %%b1 Binding 1\n"
        "OpDecorate %%b2 DescriptorSet 0\nOpDecorate %%b2 Binding 2\n"
        "OpDecorate %%b3 DescriptorSet 0\nOpDecorate %%b3 Binding 3\n"
        "OpDecorate %%prt_psb ArrayStride 4\n"
        "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
        "%%uint = OpTypeInt 32 0\n%%int = OpTypeInt 32 1\n%%ulong = OpTypeInt 64 0\n"
        "%%char = OpTypeInt 8 1\n%%half = OpTypeFloat 16\n%%float = OpTypeFloat 32\n"
        "%%v3 = OpTypeVector %%uint 3\n"
        "%%rt = OpTypeRuntimeArray %%uint\n%%B = OpTypeStruct %%rt\n"
        "%%pB = OpTypePointer StorageBuffer %%B\n%%prt = OpTypePointer StorageBuffer %%rt\n"
        "%%prt_psb = OpTypePointer PhysicalStorageBuffer %%rt\n"
        "%%pin = OpTypePointer Input %%uint\n%%pin3 = OpTypePointer Input %%v3\n"
        "%%lidv = OpVariable %%pin Input\n%%gidv = OpVariable %%pin3 Input\n"
        "%%b0 = OpVariable %%pB StorageBuffer\n%%b1 = OpVariable %%pB StorageBuffer\n"
        "%%b2 = OpVariable %%pB StorageBuffer\n%%b3 = OpVariable %%pB StorageBuffer\n"
        "%%c_0 = OpConstant %%uint 0\n%%c_1 = OpConstant %%uint 1\n%%c_2 = OpConstant %%uint 2\n"
        "%%c_16 = OpConstant %%uint 16\n%%c_64 = OpConstant %%uint 64\n"
        "%%c_256 = OpConstant %%uint 256\n%%c_wg = OpConstant %%uint 2\n"
        "%%c_sem = OpConstant %%uint 264\n"
        "%%arr_sh = OpTypeArray %%uint %%c_256\n%%psh = OpTypePointer Workgroup %%arr_sh\n"
        "%%shared = OpVariable %%psh Workgroup\n%%c_ls = OpConstant %%uint %u\n"
        "%s\n"
        "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n"
        "%%l = OpLoad %%uint %%lidv\n%%gv = OpLoad %%v3 %%gidv\n"
        "%%g = OpCompositeExtract %%uint %%gv 0\n"
        "%%gbase = OpIMul %%uint %%g %%c_ls\n%%gl = OpIAdd %%uint %%gbase %%l\n"
        "%%p0 = OpAccessChain %%prt %%b0 %%c_0\n%%p1 = OpAccessChain %%prt %%b1 %%c_0\n"
        "%%p2 = OpAccessChain %%prt %%b2 %%c_0\n%%p3 = OpAccessChain %%prt %%b3 %%c_0\n"
        "%s\nOpReturn\nOpFunctionEnd\n",
        local_size, local_size, decls, body);
    assert_true(n > 0 && (size_t)n < cap);
    return s;
}

static void expect_run(const char *text, uint32_t flags, uint32_t threads, void **bufs,
                       const size_t *sizes, uint32_t groups, cvm_result create, cvm_result dispatch,
                       const char *piece)
{
    run_result rr = run_text(text, flags, threads, bufs, sizes, 4, groups);
    if (rr.create != create || (create == CVM_SUCCESS && rr.dispatch != dispatch) ||
        (piece && !strstr(rr.message, piece))) {
        print_error("want %s/%s \"%s\", got %s/%s: %s\n%s\n", cvm_result_string(create),
                    cvm_result_string(dispatch), piece ? piece : "", cvm_result_string(rr.create),
                    cvm_result_string(rr.dispatch), rr.message, text);
        fail();
    }
}

/* f16 value of pattern h, for the training models. */
static double h2d(uint16_t h)
{
    return decode_bits(F16, h);
}

/* OuterProductAccumulate and ReduceSumAccumulate: many workgroups on
 * several threads accumulate into one matrix.  Values chosen so that every
 * partial sum is exact (non-negative, small totals): any order gives the
 * model's exact totals.  Every layout, f16 and f32 accumulation. */
static void test_training_contention(void **state)
{
    (void)state;
    enum { M = 7, N = 9, LS = 32, G = 40 };
    for (uint32_t layout = 0; layout < 4; layout++) {
        for (int acc32 = 0; acc32 < 2; acc32++) {
            uint32_t es = acc32 ? 4 : 2;
            uint32_t stride = layout == 0 ? (uint32_t)align16(N * es) + 16
                              : layout == 1 ? (uint32_t)align16(M * es) + 32
                                            : 0;
            char decls[1024], body[2048];
            snprintf(decls, sizeof(decls),
                     "%%c_M = OpConstant %%uint %u\n%%c_N = OpConstant %%uint %u\n"
                     "%%vm = OpTypeCooperativeVectorNV %%half %%c_M\n"
                     "%%vn = OpTypeCooperativeVectorNV %%half %%c_N\n"
                     "%%c_layout = OpConstant %%int %u\n%%c_interp = OpConstant %%int %d\n"
                     "%%c_stride = OpConstant %%uint %u\n%%c_moff = OpConstant %%uint 128\n"
                     "%%c_roff = OpConstant %%uint 32\n",
                     M, N, layout, acc32 ? F32 : F16, stride);
            snprintf(body, sizeof(body),
                     "%%o = OpIMul %%uint %%gl %%c_64\n"
                     "%%a = OpCooperativeVectorLoadNV %%vm %%p0 %%o\n"
                     "%%b = OpCooperativeVectorLoadNV %%vn %%p1 %%o\n"
                     "OpCooperativeVectorOuterProductAccumulateNV %%p2 %%c_moff %%a %%b %%c_layout "
                     "%%c_interp%s\n"
                     "OpCooperativeVectorReduceSumAccumulateNV %%p3 %%c_roff %%a\n",
                     layout < 2 || (layout & 1) ? " %c_stride" : "");
            char *text = module(LS, decls, body);
            size_t inv = (size_t)LS * G;
            uint16_t *a = calloc(inv * 32, 2), *b = calloc(inv * 32, 2);
            size_t msize = 128 + (layout == 0 ? (size_t)(M - 1) * stride + N * es
                                  : layout == 1 ? (size_t)(N - 1) * stride + M * es
                                                : ((size_t)M * N * es + 63) / 64 * 64);
            uint8_t *mat = calloc(1, msize), *sums = calloc(1, 32 + 16 * 2);
            double want[M][N], wsum[M];
            memset(want, 0, sizeof(want));
            memset(wsum, 0, sizeof(wsum));
            for (size_t i = 0; i < inv; i++) {
                for (int r = 0; r < M; r++)
                    a[i * 32 + r] = rng() % 3 == 0 ? 0x3c00 : 0; /* 1.0 or 0 */
                for (int q = 0; q < N; q++)
                    b[i * 32 + q] = rng() % 2 ? 0x3c00 : 0x0000;
                for (int r = 0; r < M; r++) {
                    wsum[r] += h2d(a[i * 32 + r]);
                    for (int q = 0; q < N; q++)
                        want[r][q] += h2d(a[i * 32 + r]) * h2d(b[i * 32 + q]);
                }
            }
            void *bufs[4] = {a, b, mat, sums};
            size_t sizes[4] = {inv * 64, inv * 64, msize, 32 + 16 * 2};
            expect_run(text, 0, 4, bufs, sizes, G, CVM_SUCCESS, CVM_SUCCESS, NULL);
            for (int r = 0; r < M; r++) {
                for (int q = 0; q < N; q++) {
                    size_t off = 128 + (layout == 0 ? (size_t)r * stride + q * es
                                        : layout == 1 ? (size_t)q * stride + r * es
                                                      : ((size_t)r * N + q) * es);
                    double got;
                    if (acc32) {
                        float f;
                        memcpy(&f, mat + off, 4);
                        got = (double)f;
                    } else {
                        uint16_t h;
                        memcpy(&h, mat + off, 2);
                        got = h2d(h);
                    }
                    if (got != want[r][q]) {
                        print_error("layout %u acc32 %d: element (%d,%d) got %g want %g\n", layout,
                                    acc32, r, q, got, want[r][q]);
                        fail();
                    }
                }
                uint16_t h;
                memcpy(&h, sums + 32 + r * 2, 2);
                assert_true(h2d(h) == wsum[r]);
            }
            free(text);
            free(a);
            free(b);
            free(mat);
            free(sums);
        }
    }
}

/* With one thread the order is fixed (workgroups, then invocations, then
 * elements in row-major order): the model replays it with f16 values whose
 * sums do round, checking that each add rounds once to nearest even. */
static void test_training_rounding(void **state)
{
    (void)state;
    enum { M = 5, N = 6, LS = 16, G = 12 };
    for (int acc32 = 0; acc32 < 2; acc32++) {
        char decls[1024];
        snprintf(decls, sizeof(decls),
                 "%%c_M = OpConstant %%uint %u\n%%c_N = OpConstant %%uint %u\n"
                 "%%vm = OpTypeCooperativeVectorNV %%half %%c_M\n"
                 "%%vn = OpTypeCooperativeVectorNV %%half %%c_N\n"
                 "%%c_layout = OpConstant %%int 3\n%%c_interp = OpConstant %%int %d\n",
                 M, N, acc32 ? F32 : F16);
        const char *body = "%o = OpIMul %uint %gl %c_16\n"
                           "%a = OpCooperativeVectorLoadNV %vm %p0 %o\n"
                           "%b = OpCooperativeVectorLoadNV %vn %p1 %o\n"
                           "OpCooperativeVectorOuterProductAccumulateNV %p2 %c_0 %a %b %c_layout "
                           "%c_interp\n"
                           "OpCooperativeVectorReduceSumAccumulateNV %p3 %c_0 %b\n";
        char *text = module(LS, decls, body);
        size_t inv = (size_t)LS * G;
        uint16_t *a = calloc(inv * 8, 2), *b = calloc(inv * 8, 2);
        /* the training-optimal matrix with its padding to 64 bytes */
        size_t msize = ((size_t)M * N * (acc32 ? 4 : 2) + 63) / 64 * 64;
        uint8_t *mat = calloc(1, msize), *sums = calloc(1, N * 2);
        for (size_t i = 0; i < inv * 8; i++) {
            /* |v| in [2^-4, 4): products and sums are exact in double */
            double v = ldexp(1.0 + (double)(rng() % 1024) / 1024.0, (int)(rng() % 6) - 4);
            a[i] = (uint16_t)round_narrow(F16, rng() % 2 ? v : -v);
            v = ldexp(1.0 + (double)(rng() % 1024) / 1024.0, (int)(rng() % 6) - 4);
            b[i] = (uint16_t)round_narrow(F16, rng() % 3 ? v : -v);
        }
        double acc[M * N];
        float accf[M * N];
        double sum[N];
        memset(acc, 0, sizeof(acc));
        memset(accf, 0, sizeof(accf));
        memset(sum, 0, sizeof(sum));
        for (size_t i = 0; i < inv; i++) {
            for (int r = 0; r < M; r++)
                for (int q = 0; q < N; q++) {
                    double p = h2d(a[i * 8 + r]) * h2d(b[i * 8 + q]);
                    if (acc32)
                        accf[r * N + q] = (float)((double)accf[r * N + q] + p);
                    else
                        acc[r * N + q] = decode_bits(F16, round_narrow(F16, acc[r * N + q] + p));
                }
            for (int q = 0; q < N; q++)
                sum[q] = decode_bits(F16, round_narrow(F16, sum[q] + h2d(b[i * 8 + q])));
        }
        void *bufs[4] = {a, b, mat, sums};
        size_t sizes[4] = {inv * 16, inv * 16, msize, (size_t)N * 2};
        expect_run(text, 0, 1, bufs, sizes, G, CVM_SUCCESS, CVM_SUCCESS, NULL);
        for (int e = 0; e < M * N; e++) {
            double got;
            if (acc32) {
                float f;
                memcpy(&f, mat + e * 4, 4);
                assert_true(f == accf[e]);
            } else {
                uint16_t h;
                memcpy(&h, mat + e * 2, 2);
                got = h2d(h);
                if (got != acc[e]) {
                    print_error("element %d: got %.10g want %.10g\n", e, got, acc[e]);
                    fail();
                }
            }
        }
        for (int q = 0; q < N; q++) {
            uint16_t h;
            memcpy(&h, sums + q * 2, 2);
            assert_true(h2d(h) == sum[q]);
        }
        free(text);
        free(a);
        free(b);
        free(mat);
        free(sums);
    }
}

/* Load and Store: byte offsets into buffers, workgroup memory (a vector
 * passed between invocations through it), physical addresses, f16 and s8
 * vectors of lengths that are not multiples of 16 bytes. */
static void test_load_store(void **state)
{
    (void)state;
    enum { LS = 16, G = 3 };
    const char *decls = "%c_12 = OpConstant %uint 12\n%c_20 = OpConstant %uint 20\n"
                        "%c_15 = OpConstant %uint 15\n"
                        "%vh = OpTypeCooperativeVectorNV %half %c_12\n"
                        "%vc = OpTypeCooperativeVectorNV %char %c_20\n";
    const char *body =
        "%o = OpIMul %uint %gl %c_64\n"
        "%h = OpCooperativeVectorLoadNV %vh %p0 %o\n"
        "%o2 = OpIAdd %uint %o %c_16\n"
        "%o3 = OpIAdd %uint %o2 %c_16\n"
        "%cv = OpCooperativeVectorLoadNV %vc %p0 %o3 None\n"
        "%so = OpIMul %uint %l %c_64\n"
        "OpCooperativeVectorStoreNV %shared %so %h\n"
        "%so2 = OpIAdd %uint %so %c_16\n%so3 = OpIAdd %uint %so2 %c_16\n"
        "OpCooperativeVectorStoreNV %shared %so3 %cv Aligned 16\n"
        "OpControlBarrier %c_wg %c_wg %c_sem\n"
        "%n1 = OpIAdd %uint %l %c_1\n%nb = OpBitwiseAnd %uint %n1 %c_15\n"
        "%no = OpIMul %uint %nb %c_64\n"
        "%hn = OpCooperativeVectorLoadNV %vh %shared %no\n"
        "%no2 = OpIAdd %uint %no %c_16\n%no3 = OpIAdd %uint %no2 %c_16\n"
        "%cn = OpCooperativeVectorLoadNV %vc %shared %no3\n"
        "OpCooperativeVectorStoreNV %p1 %o %hn\n"
        "OpCooperativeVectorStoreNV %p1 %o3 %cn\n"
        /* through the physical address of b0 (stored in b2 by the test) */
        "%pa = OpAccessChain %ptr_u %b2 %c_0 %c_0\n%pb2 = OpAccessChain %ptr_u %b2 %c_0 %c_1\n"
        "%lo = OpLoad %uint %pa\n%hi = OpLoad %uint %pb2\n"
        "%lo64 = OpUConvert %ulong %lo\n%hi64 = OpUConvert %ulong %hi\n"
        "%hish = OpShiftLeftLogical %ulong %hi64 %c_32\n"
        "%addr = OpBitwiseOr %ulong %lo64 %hish\n"
        "%pp = OpConvertUToPtr %prt_psb %addr\n"
        "%hp = OpCooperativeVectorLoadNV %vh %pp %o Aligned 16\n"
        "%pq = OpAccessChain %prt %b3 %c_0\n"
        "OpCooperativeVectorStoreNV %pq %o %hp\n";
    char d2[1024];
    snprintf(d2, sizeof(d2), "%s%%c_32 = OpConstant %%uint 32\n%%ptr_u = OpTypePointer StorageBuffer %%uint\n", decls);
    char *text = module(LS, d2, body);
    size_t n = (size_t)LS * G * 64;
    uint8_t *in = malloc(n), *out = malloc(n), *addr = calloc(1, 64), *out2 = malloc(n);
    for (size_t i = 0; i < n; i++)
        in[i] = (uint8_t)rng();
    memset(out, 0x5a, n);
    memset(out2, 0x5a, n);
    void *bufs[4] = {in, out, addr, out2};
    size_t sizes[4] = {n, n, 64, n};
    patch_address = 1;
    expect_run(text, 0, 2, bufs, sizes, G, CVM_SUCCESS, CVM_SUCCESS, NULL);
    patch_address = 0;
    for (size_t inv = 0; inv < (size_t)LS * G; inv++) {
        size_t g = inv / LS, l = inv % LS, src = g * LS + (l + 1) % LS;
        assert_memory_equal(out + inv * 64, in + src * 64, 24);            /* 12 halves */
        assert_memory_equal(out + inv * 64 + 32, in + src * 64 + 32, 20);  /* 20 s8 */
        for (size_t b = 24; b < 32; b++)
            assert_int_equal(out[inv * 64 + b], 0x5a);
        for (size_t b = 52; b < 64; b++)
            assert_int_equal(out[inv * 64 + b], 0x5a);
        assert_memory_equal(out2 + inv * 64, in + inv * 64, 24);
    }
    free(text);
    free(in);
    free(out);
    free(addr);
    free(out2);
}

/* Load/Store bounds: robust mode loads the elements inside the buffer and
 * zeros for the rest, stores only the elements inside; without it the
 * access fails and nothing is written.  Misaligned offsets fail in both. */
static void test_load_store_bounds(void **state)
{
    (void)state;
    const char *decls = "%c_12 = OpConstant %uint 12\n%c_32 = OpConstant %uint 32\n"
                        "%vh = OpTypeCooperativeVectorNV %half %c_12\n%c_8 = OpConstant %uint 8\n"
                        "%c_big = OpConstant %uint 4294967280\n";
    const char *load_body = "%h = OpCooperativeVectorLoadNV %vh %p0 %c_32\n"
                            "OpCooperativeVectorStoreNV %p1 %c_0 %h\n";
    const char *store_body = "%h = OpCooperativeVectorLoadNV %vh %p1 %c_0\n"
                             "OpCooperativeVectorStoreNV %p0 %c_32 %h\n";
    uint8_t in[64], out[64], guard[64];
    for (int i = 0; i < 64; i++)
        in[i] = (uint8_t)(i * 7 + 1);
    void *bufs[4] = {in, out, guard, guard};
    size_t sizes[4] = {40, 64, 64, 64}; /* b0 ends 8 bytes into the vector at 32 */
    char *t = module(1, decls, load_body);
    memset(out, 0x5a, 64);
    expect_run(t, CVM_FLAG_ROBUST_ACCESS, 1, bufs, sizes, 1, CVM_SUCCESS, CVM_SUCCESS, NULL);
    assert_memory_equal(out, in + 32, 8);
    for (int i = 8; i < 24; i++)
        assert_int_equal(out[i], 0);
    assert_int_equal(out[24], 0x5a);
    memset(out, 0x5a, 64);
    expect_run(t, 0, 1, bufs, sizes, 1, CVM_SUCCESS, CVM_ERROR_OUT_OF_BOUNDS,
               "the loaded vector spans bytes 32 to 56 of a 40-byte buffer");
    assert_int_equal(out[0], 0x5a);
    free(t);

    t = module(1, decls, store_body);
    uint8_t big[64];
    memset(big, 0x33, 64);
    for (int i = 0; i < 64; i++)
        out[i] = (uint8_t)(200 - i);
    void *bufs2[4] = {big, out, guard, guard};
    expect_run(t, CVM_FLAG_ROBUST_ACCESS, 1, bufs2, sizes, 1, CVM_SUCCESS, CVM_SUCCESS, NULL);
    assert_memory_equal(big + 32, out, 8);
    for (int i = 40; i < 64; i++)
        assert_int_equal(big[i], 0x33); /* past the bound size: untouched */
    memset(big, 0x33, 64);
    expect_run(t, 0, 1, bufs2, sizes, 1, CVM_SUCCESS, CVM_ERROR_OUT_OF_BOUNDS,
               "the stored vector spans bytes 32 to 56");
    for (int i = 0; i < 64; i++)
        assert_int_equal(big[i], 0x33);
    free(t);

    static const char *const bad_bodies[][2] = {
        {"%h = OpCooperativeVectorLoadNV %vh %p0 %c_8\n", "Offset (8) is not 16-byte aligned"},
        {"%h = OpCooperativeVectorLoadNV %vh %p1 %c_0\nOpCooperativeVectorStoreNV %p0 %c_8 %h\n",
         "Offset (8) is not 16-byte aligned"},
        {"%h = OpCooperativeVectorLoadNV %vh %p0 %c_big\n", "the loaded vector spans bytes 4294967280"},
        {"%h = OpCooperativeVectorLoadNV %vh %shared %c_8\n", "Offset (8) is not 16-byte aligned"},
    };
    for (size_t i = 0; i < sizeof bad_bodies / sizeof bad_bodies[0]; i++) {
        t = module(1, decls, bad_bodies[i][0]);
        expect_run(t, 0, 1, bufs, sizes, 1, CVM_SUCCESS,
                   strstr(bad_bodies[i][1], "aligned") ? CVM_ERROR_INVALID_MODULE
                                                       : CVM_ERROR_OUT_OF_BOUNDS,
                   bad_bodies[i][1]);
        if (strstr(bad_bodies[i][1], "aligned")) /* robust mode does not excuse it */
            expect_run(t, CVM_FLAG_ROBUST_ACCESS, 1, bufs, sizes, 1, CVM_SUCCESS,
                       CVM_ERROR_INVALID_MODULE, bad_bodies[i][1]);
        free(t);
    }
}

/* The rules on the type and on the training instructions' operands. */
static void test_type_and_training_rules(void **state)
{
    (void)state;
    uint8_t b[4][256];
    memset(b, 0, sizeof(b));
    void *bufs[4] = {b[0], b[1], b[2], b[3]};
    size_t sizes[4] = {256, 256, 256, 256};
    static const struct {
        const char *decls, *body;
        cvm_result create, dispatch;
        const char *piece;
    } cases[] = {
        /* a cooperative vector in a buffer block or in workgroup memory */
        {"%cv = OpTypeCooperativeVectorNV %half %c_16\n%S = OpTypeStruct %cv\n"
         "%pS = OpTypePointer StorageBuffer %S\n%bad = OpVariable %pS StorageBuffer\n",
         "", CVM_ERROR_INVALID_MODULE, 0, "holds a cooperative vector"},
        {"%cv = OpTypeCooperativeVectorNV %half %c_16\n%A = OpTypeArray %cv %c_2\n"
         "%pW = OpTypePointer Workgroup %A\n%bad = OpVariable %pW Workgroup\n",
         "", CVM_ERROR_INVALID_MODULE, 0, "holds a cooperative vector"},
        /* Private is allowed: store, load back, store out */
        {"%cv = OpTypeCooperativeVectorNV %half %c_16\n%pP = OpTypePointer Private %cv\n"
         "%priv = OpVariable %pP Private\n",
         "%h = OpCooperativeVectorLoadNV %cv %p0 %c_0\nOpStore %priv %h\n%h2 = OpLoad %cv %priv\n"
         "OpCooperativeVectorStoreNV %p1 %c_0 %h2\n",
         CVM_SUCCESS, CVM_SUCCESS, NULL},
        /* more components than maxCooperativeVectorComponents */
        {"%c_5000 = OpConstant %uint 5000\n%cv = OpTypeCooperativeVectorNV %half %c_5000\n", "",
         CVM_ERROR_LIMIT, 0, "5000 components (maxCooperativeVectorComponents is 4096)"},
        /* Load from Private memory, MatMul from workgroup memory */
        {"%pP = OpTypePointer Private %arr_sh\n%priv = OpVariable %pP Private\n"
         "%cv = OpTypeCooperativeVectorNV %half %c_16\n",
         "%h = OpCooperativeVectorLoadNV %cv %priv %c_0\n", CVM_ERROR_INVALID_MODULE, 0,
         "Pointer is in storage class 6"},
        {"%cv = OpTypeCooperativeVectorNV %half %c_16\n%c_ii = OpConstant %int 0\n"
         "%c_lay = OpConstant %int 2\n%f = OpConstantFalse %bool\n",
         "%h = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "%r = OpCooperativeVectorMatrixMulNV %cv %h %c_ii %shared %c_0 %c_ii %c_16 %c_16 %c_lay %f\n",
         CVM_ERROR_INVALID_MODULE, 0, "Matrix is in storage class 4"},
        /* training: vector types, interpretation, stride, alignment, bounds */
        {"%cv = OpTypeCooperativeVectorNV %float %c_2\n%c_lay = OpConstant %int 3\n"
         "%c_f16 = OpConstant %int 0\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorOuterProductAccumulateNV %p2 %c_0 %a %a %c_lay %c_f16\n",
         CVM_ERROR_UNSUPPORTED, 0, "must be 16-bit floating-point"},
        {"%cv = OpTypeCooperativeVectorNV %half %c_2\n%c_lay = OpConstant %int 3\n"
         "%c_s8 = OpConstant %int 3\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorOuterProductAccumulateNV %p2 %c_0 %a %a %c_lay %c_s8\n",
         CVM_ERROR_UNSUPPORTED, 0, "MatrixInterpretation SINT8"},
        {"%cv = OpTypeCooperativeVectorNV %half %c_2\n%c_lay = OpConstant %int 0\n"
         "%c_f16 = OpConstant %int 0\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorOuterProductAccumulateNV %p2 %c_0 %a %a %c_lay %c_f16\n",
         CVM_ERROR_INVALID_MODULE, 0, "RowMajorNV matrix needs MatrixStride"},
        {"%cv = OpTypeCooperativeVectorNV %half %c_2\n%c_lay = OpConstant %int 3\n"
         "%c_f16 = OpConstant %int 0\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorOuterProductAccumulateNV %p2 %c_16 %a %a %c_lay %c_f16\n",
         CVM_SUCCESS, CVM_ERROR_INVALID_MODULE, "(Offset 16) is not 64-byte aligned"},
        {"%cv = OpTypeCooperativeVectorNV %half %c_16\n%c_lay = OpConstant %int 3\n"
         "%c_f32 = OpConstant %int 1\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorOuterProductAccumulateNV %p2 %c_0 %a %a %c_lay %c_f32\n",
         CVM_SUCCESS, CVM_ERROR_OUT_OF_BOUNDS, "the matrix spans bytes 0 to 1024 of a 256-byte"},
        {"%cv = OpTypeCooperativeVectorNV %uint %c_2\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorReduceSumAccumulateNV %p3 %c_0 %a\n",
         CVM_ERROR_UNSUPPORTED, 0, "it must be 16- or 32-bit floating-point"},
        {"%cv = OpTypeCooperativeVectorNV %float %c_2\n%c_4 = OpConstant %uint 4\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorReduceSumAccumulateNV %p3 %c_4 %a\n",
         CVM_SUCCESS, CVM_ERROR_INVALID_MODULE, "Offset (4) is not 16-byte aligned"},
        {"%cv = OpTypeCooperativeVectorNV %float %c_2\n",
         "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
         "OpCooperativeVectorReduceSumAccumulateNV %p3 %c_256 %a\n",
         CVM_SUCCESS, CVM_ERROR_OUT_OF_BOUNDS, "the array spans bytes 256 to 264"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = module(4, cases[i].decls, cases[i].body);
        expect_run(t, 0, 1, bufs, sizes, 1, cases[i].create, cases[i].dispatch, cases[i].piece);
        free(t);
    }
    /* robust mode drops the accumulations that fall outside, keeps the rest */
    char *t = module(1, "%cv = OpTypeCooperativeVectorNV %float %c_2\n%c_248 = OpConstant %uint 256\n",
                     "%a = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
                     "%c_240 = OpISub %uint %c_256 %c_16\n"
                     "OpCooperativeVectorReduceSumAccumulateNV %p3 %c_240 %a\n");
    float two[2] = {1.5f, -2.0f};
    memcpy(b[0], two, 8);
    sizes[3] = 244; /* the second float at 244 is outside */
    expect_run(t, CVM_FLAG_ROBUST_ACCESS, 1, bufs, sizes, 1, CVM_SUCCESS, CVM_SUCCESS, NULL);
    float got[2];
    memcpy(got, b[3] + 240, 8);
    assert_true(got[0] == 1.5f && got[1] == 0.0f);
    free(t);
}

/* vkGetPhysicalDeviceCooperativeVectorPropertiesNV's counting contract, and
 * every combination the Vulkan text requires is listed. */
static void test_properties(void **state)
{
    (void)state;
    uint32_t n = 0;
    assert_int_equal(cvm_get_cooperative_vector_properties(NULL, NULL), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_get_cooperative_vector_properties(&n, NULL), CVM_SUCCESS);
    assert_true(n > 6);
    cvm_coopvec_properties *all = calloc(n + 2, sizeof(*all));
    uint32_t k = n + 2;
    assert_int_equal(cvm_get_cooperative_vector_properties(&k, all), CVM_SUCCESS);
    assert_int_equal(k, n);
    cvm_coopvec_properties few[3];
    memset(few, 0xee, sizeof(few));
    k = 2;
    assert_int_equal(cvm_get_cooperative_vector_properties(&k, few), CVM_INCOMPLETE);
    assert_int_equal(k, 2);
    assert_memory_equal(few, all, 2 * sizeof(*few));
    assert_int_equal(few[2].input_type, 0xeeeeeeeeu); /* nothing past the count */
    /* the rows of VkCooperativeVectorPropertiesNV's "must be supported" table */
    static const uint32_t required[][5] = {
        {F16, F16, F16, F16, F16},     {U32, S8P, S8, S32, S32},
        {S8, S8, S8, S32, S32},        {F32, S8, S8, S32, S32},
        {F16, E4M3, E4M3, F16, F16},   {F16, E5M2, E5M2, F16, F16},
    };
    for (size_t r = 0; r < 6; r++) {
        int found = 0;
        for (uint32_t i = 0; i < n; i++)
            found |= all[i].input_type == required[r][0] &&
                     all[i].input_interpretation == required[r][1] &&
                     all[i].matrix_interpretation == required[r][2] &&
                     all[i].bias_interpretation == required[r][3] &&
                     all[i].result_type == required[r][4];
        assert_true(found);
    }
    /* packed types only as inputInterpretation */
    for (uint32_t i = 0; i < n; i++) {
        assert_false(packed_type(all[i].input_type) || packed_type(all[i].matrix_interpretation) ||
                     packed_type(all[i].bias_interpretation) || packed_type(all[i].result_type));
        for (uint32_t j = 0; j < i; j++)
            assert_false(memcmp(&all[i], &all[j], sizeof(*all)) == 0); /* no duplicates */
    }
    free(all);
}

/* Optimal matrices placed one after another by the size the conversion's
 * query reports, as applications (and the Vulkan CTS) place them, keep the
 * 64-byte alignment the valid usage asks of each matrix and stay inside a
 * buffer sized from the same reports.  (1) OuterProductAccumulate into the
 * training-optimal matrix of invocation i at i times the size (CTS
 * training.outerproduct.*: the offsets must be multiples of 64, VUID 10101).
 * (2) Weight sets of [row-major source, then the converted matrix at the
 * next 64-byte boundary], each set the source and the reported size
 * together rounded up to 64 bytes (CTS matmul.*.inferencingOptimal/
 * trainingOptimal): the last set's matrix must end inside the buffer. */
static size_t optimal_size(uint32_t type, uint32_t layout, uint32_t rows, uint32_t cols)
{
    cvm_context *ctx = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    size_t size = 0;
    cvm_coopvec_convert_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.dst_size = &size;
    ci.src_component_type = ci.dst_component_type = type;
    ci.num_rows = rows;
    ci.num_columns = cols;
    ci.src_layout = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR;
    ci.src_stride = cols * size_of(type);
    ci.dst_layout = layout;
    assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &d), CVM_SUCCESS);
    cvm_context_destroy(ctx);
    return size;
}

static void test_optimal_packing(void **state)
{
    (void)state;
    enum { LS = 4, G = 2, INV = LS * G };
    /* (1) 3 x 5 f32 outer products, one matrix per invocation */
    {
        enum { M = 3, N = 5 };
        size_t S = optimal_size(F32, CVM_COOPVEC_MATRIX_LAYOUT_TRAINING_OPTIMAL, M, N);
        assert_int_equal(S, 64); /* 60 bytes of elements, padded to 64 */
        char decls[1024];
        snprintf(decls, sizeof(decls),
                 "%%k_M = OpConstant %%uint %u\n%%k_N = OpConstant %%uint %u\n"
                 "%%k_vm = OpTypeCooperativeVectorNV %%half %%k_M\n"
                 "%%k_vn = OpTypeCooperativeVectorNV %%half %%k_N\n"
                 "%%k_layout = OpConstant %%int 3\n%%k_interp = OpConstant %%int %d\n"
                 "%%k_S = OpConstant %%uint %zu\n",
                 M, N, F32, S);
        const char *body = "%o = OpIMul %uint %gl %c_16\n"
                           "%a = OpCooperativeVectorLoadNV %k_vm %p0 %o\n"
                           "%b = OpCooperativeVectorLoadNV %k_vn %p1 %o\n"
                           "%mo = OpIMul %uint %gl %k_S\n"
                           "OpCooperativeVectorOuterProductAccumulateNV %p2 %mo %a %b %k_layout "
                           "%k_interp\n";
        char *text = module(LS, decls, body);
        uint16_t a[INV * 8], b[INV * 8];
        for (int i = 0; i < INV * 8; i++) {
            a[i] = (uint16_t)round_narrow(F16, (double)((int)(rng() % 7) - 3));
            b[i] = (uint16_t)round_narrow(F16, (double)((int)(rng() % 9) - 4));
        }
        uint8_t *mat = calloc(INV, S), sink[16] = {0};
        void *bufs[4] = {a, b, mat, sink};
        size_t sizes[4] = {sizeof(a), sizeof(b), INV * S, sizeof(sink)};
        expect_run(text, 0, 2, bufs, sizes, G, CVM_SUCCESS, CVM_SUCCESS, NULL);
        for (int i = 0; i < INV; i++)
            for (int r = 0; r < M; r++)
                for (int q = 0; q < N; q++) {
                    float f;
                    memcpy(&f, mat + (size_t)i * S + ((size_t)r * N + q) * 4, 4);
                    double want = h2d(a[i * 8 + r]) * h2d(b[i * 8 + q]);
                    if ((double)f != want) {
                        print_error("invocation %d (%d,%d): got %g want %g\n", i, r, q, (double)f, want);
                        fail();
                    }
                }
        free(mat);
        free(text);
    }
    /* (2) 2 x 3 f16 weights, two sets, invocation i uses set i / 4 */
    for (uint32_t layout = 2; layout < 4; layout++) {
        enum { M = 2, K = 3, SETS = INV / 4 };
        size_t S = optimal_size(F16, layout, M, K);
        assert_int_equal(S, 64); /* 12 bytes of elements, padded to 64 */
        size_t raw_stride = 16, raw = M * raw_stride;       /* 32 */
        size_t opt = (raw + 63) / 64 * 64;                   /* 64 */
        size_t set = (raw + S + 63) / 64 * 64;               /* 128 */
        uint8_t *mat = calloc(SETS, set);
        double w[SETS][M][K];
        cvm_context *ctx = NULL;
        cvm_diagnostic d;
        assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
        for (int s = 0; s < SETS; s++) {
            uint8_t *src = mat + (size_t)s * set;
            for (int j = 0; j < M; j++)
                for (int q = 0; q < K; q++) {
                    w[s][j][q] = (double)((int)(rng() % 11) - 5);
                    uint16_t h = (uint16_t)round_narrow(F16, w[s][j][q]);
                    memcpy(src + j * raw_stride + q * 2, &h, 2);
                }
            size_t room = S;
            cvm_coopvec_convert_info ci;
            memset(&ci, 0, sizeof(ci));
            ci.src_size = raw;
            ci.src_data = src;
            ci.dst_size = &room;
            ci.dst_data = src + opt;
            ci.src_component_type = ci.dst_component_type = F16;
            ci.num_rows = M;
            ci.num_columns = K;
            ci.src_layout = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR;
            ci.src_stride = raw_stride;
            ci.dst_layout = layout;
            assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &d), CVM_SUCCESS);
        }
        cvm_context_destroy(ctx);
        char decls[1024];
        snprintf(decls, sizeof(decls),
                 "%%k_M = OpConstant %%uint %u\n%%k_K = OpConstant %%uint %u\n"
                 "%%k_vk = OpTypeCooperativeVectorNV %%half %%k_K\n"
                 "%%k_vr = OpTypeCooperativeVectorNV %%float %%k_M\n"
                 "%%k_ii = OpConstant %%int %d\n%%k_layout = OpConstant %%int %u\n"
                 "%%k_false = OpConstantFalse %%bool\n%%k_4 = OpConstant %%uint 4\n"
                 "%%k_set = OpConstant %%uint %zu\n%%k_opt = OpConstant %%uint %zu\n",
                 M, K, F16, layout, set, opt);
        const char *body = "%o = OpIMul %uint %gl %c_16\n"
                           "%x = OpCooperativeVectorLoadNV %k_vk %p0 %o\n"
                           "%ws = OpUDiv %uint %gl %k_4\n"
                           "%wo = OpIMul %uint %ws %k_set\n"
                           "%mo = OpIAdd %uint %wo %k_opt\n"
                           "%r = OpCooperativeVectorMatrixMulNV %k_vr %x %k_ii %p1 %mo %k_ii %k_M "
                           "%k_K %k_layout %k_false\n"
                           "OpCooperativeVectorStoreNV %p3 %o %r\n";
        char *text = module(LS, decls, body);
        uint16_t x[INV * 8];
        for (int i = 0; i < INV * 8; i++)
            x[i] = (uint16_t)round_narrow(F16, (double)((int)(rng() % 9) - 4));
        float out[INV * 4];
        memset(out, 0, sizeof(out));
        uint8_t sink[16] = {0};
        void *bufs[4] = {x, mat, sink, out};
        size_t sizes[4] = {sizeof(x), SETS * set, sizeof(sink), sizeof(out)};
        expect_run(text, 0, 2, bufs, sizes, G, CVM_SUCCESS, CVM_SUCCESS, NULL);
        for (int i = 0; i < INV; i++)
            for (int j = 0; j < M; j++) {
                double want = 0;
                for (int q = 0; q < K; q++)
                    want += w[i / 4][j][q] * h2d(x[i * 8 + q]);
                if ((double)out[i * 4 + j] != want) {
                    print_error("layout %u invocation %d row %d: got %g want %g\n", layout, i, j,
                                (double)out[i * 4 + j], want);
                    fail();
                }
            }
        free(mat);
        free(text);
    }
}

/* The host conversion: size query, VK_INCOMPLETE, conversions between
 * layouts (round trips through every layout), between types (rounded to
 * nearest even, against the model), and each valid-usage error. */
static void test_convert(void **state)
{
    (void)state;
    cvm_context *ctx = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    enum { R = 5, C = 7 };
    float src[R * C];
    for (int i = 0; i < R * C; i++)
        src[i] = (float)ldexp((double)(rng() % 100000) / 7.0 - 7000.0, (int)(rng() % 9) - 12);
    src[3] = 1e9f;   /* overflows every narrow type */
    src[4] = -0.0f;
    cvm_coopvec_convert_info ci;
    memset(&ci, 0, sizeof(ci));
    size_t need = 0;
    ci.dst_size = &need;
    ci.src_component_type = F32;
    ci.num_rows = R;
    ci.num_columns = C;
    ci.src_layout = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR;
    ci.src_stride = C * 4;
    ci.src_size = sizeof(src);
    ci.src_data = src;
    /* size query for each destination layout (source ignored) */
    static const uint32_t dtypes[] = {F16, BF16, E4M3, E5M2, F32};
    for (size_t ti = 0; ti < 5; ti++) {
        uint32_t es = size_of(dtypes[ti]);
        for (uint32_t lay = 0; lay < 4; lay++) {
            if (lay < 2 && (dtypes[ti] == E4M3 || dtypes[ti] == E5M2))
                continue;
            ci.dst_component_type = dtypes[ti];
            ci.dst_layout = lay;
            ci.dst_stride = lay == 0 ? C * es + 16 : R * es + 32;
            ci.dst_data = NULL;
            need = 0;
            assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &d), CVM_SUCCESS);
            size_t want = lay == 0 ? (R - 1) * ci.dst_stride + C * es
                          : lay == 1 ? (C - 1) * ci.dst_stride + R * es
                                     : ((size_t)R * C * es + 63) / 64 * 64;
            assert_int_equal(need, want);
            uint8_t *dst = malloc(need + 8);
            memset(dst, 0x77, need + 8);
            size_t small = need - 1;
            ci.dst_size = &small;
            ci.dst_data = dst;
            assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &d), CVM_INCOMPLETE);
            for (size_t i = 0; i < need + 8; i++)
                assert_int_equal(dst[i], 0x77);
            size_t have = need + 8;
            ci.dst_size = &have;
            assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ci, &d), CVM_SUCCESS);
            assert_int_equal(have, need);
            for (int r = 0; r < R; r++)
                for (int q = 0; q < C; q++) {
                    size_t off = lay == 0 ? r * ci.dst_stride + q * es
                                 : lay == 1 ? q * ci.dst_stride + r * es
                                            : ((size_t)r * C + q) * es;
                    uint32_t got = 0, wantv;
                    memcpy(&got, dst + off, es);
                    if (dtypes[ti] == F32) {
                        memcpy(&wantv, &src[r * C + q], 4);
                    } else {
                        wantv = round_narrow(dtypes[ti], (double)src[r * C + q]);
                    }
                    if (got != wantv) {
                        print_error("%s layout %u (%d,%d): got 0x%x want 0x%x\n",
                                    cvm_component_type_string(dtypes[ti]), lay, r, q, got, wantv);
                        fail();
                    }
                }
            if (lay < 2) /* padding between rows/columns untouched */
                assert_int_equal(dst[lay == 0 ? C * es : R * es], 0x77);
            else /* the optimal layouts' padding after the elements: zeros */
                for (size_t i = (size_t)R * C * es; i < need; i++)
                    assert_int_equal(dst[i], 0);
            assert_int_equal(dst[need], 0x77);
            /* and back to f32: the rounded values, exactly */
            if (dtypes[ti] != F32) {
                float back[R * C];
                size_t bs = sizeof(back);
                cvm_coopvec_convert_info bi = ci;
                bi.src_component_type = dtypes[ti];
                bi.src_layout = lay;
                bi.src_stride = ci.dst_stride;
                bi.src_size = need;
                bi.src_data = dst;
                bi.dst_component_type = F32;
                bi.dst_layout = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR;
                bi.dst_stride = C * 4;
                bi.dst_size = &bs;
                bi.dst_data = back;
                assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &bi, &d), CVM_SUCCESS);
                for (int i = 0; i < R * C; i++) {
                    double w = decode_bits(dtypes[ti], round_narrow(dtypes[ti], (double)src[i]));
                    assert_true((isnan(w) && isnan(back[i])) || (double)back[i] == w);
                }
            }
            free(dst);
            ci.dst_size = &need;
        }
    }
    /* integer matrices: the same type only, any layout pair */
    uint8_t s8[R * C], tmp[R * C * 2], back[R * C];
    for (int i = 0; i < R * C; i++)
        s8[i] = (uint8_t)rng();
    cvm_coopvec_convert_info ii = ci;
    size_t sz = sizeof(tmp);
    ii.src_component_type = ii.dst_component_type = S8;
    ii.src_stride = C;
    ii.src_size = sizeof(s8);
    ii.src_data = s8;
    ii.dst_layout = CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR;
    ii.dst_stride = R + 3;
    ii.dst_size = &sz;
    ii.dst_data = tmp;
    assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ii, &d), CVM_SUCCESS);
    cvm_coopvec_convert_info ib = ii;
    size_t bs = sizeof(back);
    ib.src_layout = CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR;
    ib.src_stride = R + 3;
    ib.src_size = sz;
    ib.src_data = tmp;
    ib.dst_layout = CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR;
    ib.dst_stride = C;
    ib.dst_size = &bs;
    ib.dst_data = back;
    assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ib, &d), CVM_SUCCESS);
    assert_memory_equal(back, s8, sizeof(s8));

    /* errors */
    struct {
        cvm_coopvec_convert_info info;
        cvm_result want;
        const char *piece;
    } bad[12];
    size_t nb = 0;
    uint8_t out[4096];
    size_t outsz = sizeof(out);
    cvm_coopvec_convert_info ok = ci;
    ok.dst_component_type = F16;
    ok.dst_layout = CVM_COOPVEC_MATRIX_LAYOUT_INFERENCING_OPTIMAL;
    ok.dst_size = &outsz;
    ok.dst_data = out;
    assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &ok, &d), CVM_SUCCESS);
    outsz = sizeof(out);
    bad[nb].info = ok; bad[nb].info.src_stride = C * 4 - 4; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "source stride 24";
    bad[nb].info = ok; bad[nb].info.src_stride = C * 4 + 2; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "multiple of the 4-byte element";
    bad[nb].info = ok; bad[nb].info.src_size = sizeof(src) - 1; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "src_size 139";
    bad[nb].info = ok; bad[nb].info.dst_data = (uint8_t *)src + 4; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "overlap";
    bad[nb].info = ok; bad[nb].info.dst_component_type = E4M3; bad[nb].info.dst_layout = 0; bad[nb].info.dst_stride = 16; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "must use an optimal layout";
    bad[nb].info = ok; bad[nb].info.dst_layout = 4; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "layout 4 is not a layout";
    bad[nb].info = ok; bad[nb].info.src_component_type = S8; bad[nb].info.src_stride = C; bad[nb].want = CVM_ERROR_UNSUPPORTED; bad[nb++].piece = "SINT8 -> FLOAT16";
    bad[nb].info = ok; bad[nb].info.dst_component_type = F64; bad[nb].want = CVM_ERROR_UNSUPPORTED; bad[nb++].piece = "FLOAT32 -> FLOAT64";
    bad[nb].info = ok; bad[nb].info.num_rows = 0; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "a 0 x 7 matrix";
    bad[nb].info = ok; bad[nb].info.src_data = NULL; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "src_data is NULL";
    bad[nb].info = ok; bad[nb].info.dst_size = NULL; bad[nb].want = CVM_ERROR_INVALID_ARGUMENT; bad[nb++].piece = "dst_size";
    bad[nb].info = ok; bad[nb].info.src_component_type = E4M3; bad[nb].info.dst_component_type = E5M2; bad[nb].info.src_stride = C; bad[nb].want = CVM_ERROR_UNSUPPORTED; bad[nb++].piece = "FLOAT16 or FLOAT32 on one side";
    for (size_t i = 0; i < nb; i++) {
        memset(out, 0x11, sizeof(out));
        outsz = sizeof(out);
        cvm_result r = cvm_convert_cooperative_vector_matrix(ctx, &bad[i].info, &d);
        if (r != bad[i].want || !strstr(d.message, bad[i].piece)) {
            print_error("error case %zu: got %s \"%s\", want %s \"%s\"\n", i, cvm_result_string(r),
                        d.message, cvm_result_string(bad[i].want), bad[i].piece);
            fail();
        }
        if (bad[i].info.dst_data == out)
            for (size_t q = 0; q < sizeof(out); q++)
                assert_int_equal(out[q], 0x11);
    }
    assert_int_equal(cvm_convert_cooperative_vector_matrix(NULL, &ok, &d), CVM_ERROR_INVALID_ARGUMENT);
    /* the scrambled layouts: a permutation of the same slots */
    cvm_context *sc = NULL;
    cvm_context_desc sd;
    memset(&sd, 0, sizeof(sd));
    sd.flags = CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS;
    assert_int_equal(cvm_context_create(&sd, &sc, &d), CVM_SUCCESS);
    uint8_t a1[64], a2[64]; /* R * C bytes padded to 64 */
    size_t s1 = sizeof(a1), s2 = sizeof(a2);
    uint8_t idx[R * C];
    for (int i = 0; i < R * C; i++)
        idx[i] = (uint8_t)i;
    cvm_coopvec_convert_info p1 = ii;
    p1.src_data = idx;
    p1.dst_layout = CVM_COOPVEC_MATRIX_LAYOUT_TRAINING_OPTIMAL;
    p1.dst_size = &s1;
    p1.dst_data = a1;
    assert_int_equal(cvm_convert_cooperative_vector_matrix(ctx, &p1, &d), CVM_SUCCESS);
    p1.dst_size = &s2;
    p1.dst_data = a2;
    assert_int_equal(cvm_convert_cooperative_vector_matrix(sc, &p1, &d), CVM_SUCCESS);
    assert_int_equal(s1, s2);
    assert_int_equal(s1, 64);
    assert_memory_equal(a1, idx, sizeof(idx)); /* default: tight row-major */
    int seen[R * C] = {0}, moved = 0;
    for (int i = 0; i < R * C; i++) {
        seen[a2[i]]++;
        moved += a2[i] != i;
    }
    for (int i = 0; i < R * C; i++)
        assert_int_equal(seen[i], 1);
    assert_true(moved >= R * C - 2);
    cvm_context_destroy(sc);
    cvm_context_destroy(ctx);
}

/* ---- values: tests/shaders/coopvec_ops.comp against a model ------------------- */

static float hop(double v) /* one f16 operation: the exact result rounded to f16 */
{
    return (float)decode_bits(F16, round_narrow(F16, v));
}

static uint32_t hbits(float v)
{
    return round_narrow(F16, (double)v);
}

static uint32_t fbits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

static void value_ops_model(uint32_t i, const uint16_t *inh, const float *inf32, const uint16_t *w,
                            float s, int32_t si, uint32_t nspec, uint32_t *o)
{
    float a[8], f[8], b[8], fa[8], h[8], g[8];
    for (int k = 0; k < 8; k++) {
        a[k] = (float)decode_bits(F16, inh[i * 8 + k]);
        f[k] = inf32[i * 8 + k];
        b[k] = hop((double)f[k]);
        fa[k] = a[k];
    }
    for (int k = 0; k < 8; k++) {
        float t3 = hop((double)hop((double)a[k] + (double)b[k]) * (double)hop((double)a[k] - (double)b[k]));
        float t5 = hop((double)hop((double)b[k] * (double)b[k]) + 4.0);
        h[k] = hop((double)hop((double)t3 / (double)t5) + (double)a[k]);
        *o++ = hbits(h[k]);
    }
    for (int k = 0; k < 8; k++) {
        float num = fa[k] * f[k] + fa[k], den = f[k] * f[k] + 1.0f;
        g[k] = (num / den + f[k]) * 0.75f;
        *o++ = fbits(g[k]);
    }
    for (int k = 0; k < 8; k++) { /* e1 = max(min(a, b), -0.5) */
        float mn = b[k] < a[k] ? b[k] : a[k];
        *o++ = hbits(-0.5f > mn ? -0.5f : mn);
    }
    for (int k = 0; k < 8; k++) { /* e2 = clamp(a, b, b + 1) */
        float hi = hop((double)b[k] + 1.0), v = b[k] > a[k] ? b[k] : a[k];
        *o++ = hbits(hi < v ? hi : v);
    }
    for (int k = 0; k < 8; k++) /* e3 = step(a, b) */
        *o++ = hbits(b[k] < a[k] ? 0.0f : 1.0f);
    for (int k = 0; k < 8; k++) /* e4 = fma(a, b, h), in double, rounded once */
        *o++ = hbits(hop(fma((double)a[k], (double)b[k], (double)h[k])));
    for (int k = 0; k < 8; k++) /* e5 = tanh(a) + atan(b) */
        *o++ = hbits(hop((double)hop(tanh((double)a[k])) + (double)hop(atan((double)b[k]))));
    for (int k = 0; k < 8; k++) { /* e6 = exp(a * 0.25) + log(b * b + 1) */
        float ex = hop(exp((double)hop((double)a[k] * 0.25)));
        float lg = hop(log((double)hop((double)hop((double)b[k] * (double)b[k]) + 1.0)));
        *o++ = hbits(hop((double)ex + (double)lg));
    }
    for (int k = 0; k < 8; k++) { /* fma(fa, f, g) + tanh(f) - exp(fa * 0.125) + max(f, fa) * step(f, fa) */
        float st = fa[k] < f[k] ? 0.0f : 1.0f, mx = fmaxf(f[k], fa[k]);
        float v = fmaf(fa[k], f[k], g[k]) + tanhf(f[k]);
        v = v - expf(fa[k] * 0.125f);
        v = v + mx * st;
        *o++ = fbits(v);
    }
    for (int k = 0; k < 8; k++) { /* integers */
        int32_t n = (int32_t)(f[k] * 100.0f);
        uint32_t u = (uint32_t)n;
        u = ((u & 0xff0fu) | (u >> 3)) ^ ~(u << 2);
        u = u * 3u + (uint32_t)si;
        int8_t n8 = (int8_t)(uint8_t)(uint32_t)n;
        int32_t back = (int32_t)n8 - n / 7;
        *o++ = u + (uint32_t)back;
    }
    float c1[8] = {a[7], a[6], b[0], b[1], 1.0f, a[0], a[0], a[0]};
    uint32_t dyn = i % 8u;
    c1[dyn] = hop((double)s);
    c1[(dyn + 1) & 7] = hop((double)c1[(dyn + 1) & 7] + (double)(nspec + 8));
    for (int k = 0; k < 8; k++)
        *o++ = hbits(c1[k]);
    float m[8];
    for (int k = 0; k < 8; k++) {
        float priv = hop((double)hop((double)a[k] * 2.0) + 0.5);
        m[k] = (i & 1u) ? priv : hop((double)b[k] - (double)priv);
        for (uint32_t t = 0; t < i % 3u; t++)
            m[k] = hop((double)m[k] * 0.5);
    }
    for (int r = 0; r < 8; r++) {
        float acc = 0.0f;
        for (int k = 0; k < 8; k++)
            acc = acc + (float)(decode_bits(F16, w[r * 8 + k]) * (double)m[k]);
        *o++ = hbits(acc);
    }
}

static void test_value_ops(void **state)
{
    (void)state;
    enum { LS = 48, G = 3, SLOTS = 96 };
    char path[1024];
    snprintf(path, sizeof(path), "%s/shaders/coopvec_ops.spv", CVM_TEST_DATA_DIR);
    for (uint32_t nspec = 5; nspec <= 13; nspec += 8) {
        cvm_context_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.threads = 2;
        cvm_context *ctx = NULL;
        cvm_module *mod = NULL;
        cvm_pipeline *pipe = NULL;
        cvm_diagnostic d;
        assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
        cvm_result r = cvm_module_create_from_file(ctx, path, &mod, &d);
        if (r)
            print_error("%s: %s\n", path, d.message);
        assert_int_equal(r, CVM_SUCCESS);
        cvm_specialization sp = {0, 4, nspec};
        r = cvm_pipeline_create(mod, NULL, &sp, 1, &pipe, &d);
        if (r)
            print_error("%s: %s\n", path, d.message);
        assert_int_equal(r, CVM_SUCCESS);
        size_t inv = (size_t)LS * G;
        uint16_t *inh = malloc(inv * 16), w[64];
        float *inf32 = malloc(inv * 32);
        uint32_t *out = calloc(inv * SLOTS, 4), *want = calloc(inv * SLOTS, 4);
        for (size_t k = 0; k < inv * 8; k++) {
            inh[k] = (uint16_t)round_narrow(F16, ((double)(rng() % 6000) - 3000.0) / 1000.0);
            inf32[k] = (float)(((double)(rng() % 6000000) - 3000000.0) / 1000000.0);
        }
        for (int k = 0; k < 64; k++)
            w[k] = (uint16_t)round_narrow(F16, ((double)(rng() % 2000) - 1000.0) / 700.0);
        struct { float s; int32_t si; } push = {1.75f, 5};
        assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 0, 0, inh, inv * 16, &d), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 1, 0, inf32, inv * 32, &d), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 2, 0, w, sizeof(w), &d), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 3, 0, out, inv * SLOTS * 4, &d), CVM_SUCCESS);
        assert_int_equal(cvm_pipeline_set_push_constants(pipe, &push, sizeof(push), &d), CVM_SUCCESS);
        r = cvm_pipeline_dispatch(pipe, G, 1, 1, &d);
        if (r)
            print_error("dispatch: %s\n", d.message);
        assert_int_equal(r, CVM_SUCCESS);
        for (uint32_t i = 0; i < inv; i++)
            value_ops_model(i, inh, inf32, w, push.s, push.si, nspec, want + (size_t)i * SLOTS);
        for (size_t k = 0; k < inv * SLOTS; k++) {
            if (out[k] != want[k]) {
                print_error("N %u invocation %zu slot %zu: got 0x%08x want 0x%08x\n", nspec,
                            k / SLOTS, k % SLOTS, out[k], want[k]);
                fail();
            }
        }
        free(inh);
        free(inf32);
        free(out);
        free(want);
        cvm_pipeline_destroy(pipe);
        cvm_module_destroy(mod);
        cvm_context_destroy(ctx);
    }
}

/* OpSelect and OpPhi on cooperative vectors, and a constant built with
 * OpConstantComposite, in hand-written SPIR-V (glslang makes neither). */
static void test_select_phi(void **state)
{
    (void)state;
    const char *decls =
        "%c_4 = OpConstant %uint 4\n%cv = OpTypeCooperativeVectorNV %uint %c_4\n"
        "%c_3 = OpConstant %uint 3\n%c_7 = OpConstant %uint 7\n"
        "%kv = OpConstantComposite %cv %c_1 %c_2 %c_3 %c_7\n"
        "%zv = OpConstantNull %cv\n%fv4 = OpTypeCooperativeVectorNV %float %c_4\n"
        "%c_128 = OpConstant %uint 128\n";
    const char *body =
        "%x = OpCooperativeVectorLoadNV %cv %p0 %c_0\n"
        "%odd = OpBitwiseAnd %uint %l %c_1\n%isodd = OpINotEqual %bool %odd %c_0\n"
        "%sel = OpSelect %cv %isodd %x %kv\n"
        "OpBranch %head\n"
        "%head = OpLabel\n"
        "%acc = OpPhi %cv %zv %entry %acc2 %cont\n"
        "%t = OpPhi %uint %c_0 %entry %t2 %cont\n"
        "%done = OpUGreaterThanEqual %bool %t %l\n"
        "OpLoopMerge %exit %cont None\n"
        "OpBranchConditional %done %exit %body\n"
        "%body = OpLabel\n%acc2 = OpIAdd %cv %acc %sel\n%t2 = OpIAdd %uint %t %c_1\nOpBranch %cont\n"
        "%cont = OpLabel\nOpBranch %head\n"
        "%exit = OpLabel\n"
        "%oo = OpIMul %uint %l %c_16\n"
        "%ins = OpCompositeInsert %cv %l %acc 3\n"
        "%e2 = OpCompositeExtract %uint %ins 2\n%d = OpVectorInsertDynamic %cv %ins %e2 %odd\n"
        "%cp = OpCopyObject %cv %d\n"
        "OpCooperativeVectorStoreNV %p1 %oo %cp\n"
        /* GLSL.std.450 integer functions, OpVectorExtractDynamic, OpBitcast */
        "%mn = OpExtInst %cv %glsl UMin %cp %kv\n%mx = OpExtInst %cv %glsl SMax %mn %sel\n"
        "%cl = OpExtInst %cv %glsl SClamp %x %kv %mx\n"
        "%ex = OpVectorExtractDynamic %uint %cl %odd\n"
        "%cl2 = OpCompositeInsert %cv %ex %cl 0\n"
        "%fv = OpBitcast %fv4 %cl2\n%fneg = OpFNegate %fv4 %fv\n%bk = OpBitcast %cv %fneg\n"
        "%o2 = OpIAdd %uint %oo %c_128\n"
        "OpCooperativeVectorStoreNV %p1 %o2 %bk\n";
    char *t = module(8, decls, body);
    uint32_t in[4] = {10, 20, 30, 0xfffffff0u}, out[64];
    memset(out, 0xff, sizeof(out));
    uint8_t dummy[16];
    void *bufs[4] = {in, out, dummy, dummy};
    size_t sizes[4] = {16, sizeof(out), 16, 16};
    expect_run(t, 0, 1, bufs, sizes, 1, CVM_SUCCESS, CVM_SUCCESS, NULL);
    for (uint32_t l = 0; l < 8; l++) {
        uint32_t v[4], k[4] = {1, 2, 3, 7};
        for (int c = 0; c < 4; c++)
            v[c] = l * ((l & 1) ? in[c] : k[c]);
        v[3] = l;
        v[l & 1] = v[2];
        assert_memory_equal(out + l * 4, v, 16);
        /* UMin with (1,2,3,7), SMax with the selected vector, SClamp of the
         * input between (1,2,3,7) and that, component `odd` into 0, negated
         * as floats (the sign bit flips) */
        uint32_t sel[4], w2[4];
        for (int c = 0; c < 4; c++) {
            sel[c] = (l & 1) ? in[c] : k[c];
            uint32_t mn = v[c] < k[c] ? v[c] : k[c];
            int32_t mx = (int32_t)mn > (int32_t)sel[c] ? (int32_t)mn : (int32_t)sel[c];
            int32_t lo = (int32_t)k[c], x = (int32_t)in[c];
            int32_t cl = x < lo ? lo : x;
            cl = cl > mx ? mx : cl;
            w2[c] = (uint32_t)cl;
        }
        w2[0] = w2[l & 1];
        for (int c = 0; c < 4; c++)
            w2[c] ^= 0x80000000u;
        assert_memory_equal(out + 32 + l * 4, w2, 16);
    }
    free(t);
}

/* Regression (found writing these tests): a conversion whose operand is a
 * constant scalar, run over all lanes at once, converted the first lane's
 * value and read past the constant for the others (convert.c). */
static void test_convert_constant_operand(void **state)
{
    (void)state;
    const char *decls = "%c_300 = OpConstant %uint 300\n%f_half = OpConstant %float 0.333\n"
                        "%cv = OpTypeCooperativeVectorNV %half %c_2\n"
                        "%v2h = OpTypeVector %half 2\n";
    const char *body =
        "%wide = OpUConvert %ulong %c_300\n%lo = OpUConvert %uint %wide\n"
        "%hf = OpFConvert %half %f_half\n%q = OpQuantizeToF16 %float %f_half\n"
        "%qb = OpBitcast %uint %q\n"
        /* A cooperative vector bitcasts only to a cooperative vector of as
         * many components of as many bits (SPV_NV_cooperative_vector 3.42.11;
         * the validator refuses %uint here, as spirv-val does): its halves
         * go through an ordinary vector to make one 32-bit word. */
        "%v = OpCompositeConstruct %cv %hf %hf\n"
        "%v0 = OpCompositeExtract %half %v 0\n%v1 = OpCompositeExtract %half %v 1\n"
        "%vv = OpCompositeConstruct %v2h %v0 %v1\n%vb = OpBitcast %uint %vv\n"
        "%o = OpIMul %uint %l %c_16\n"
        "%pa = OpAccessChain %ptr_u %b1 %c_0 %l\nOpStore %pa %lo\n"
        "%pb = OpAccessChain %ptr_u %b2 %c_0 %l\nOpStore %pb %vb\n"
        "%pc = OpAccessChain %ptr_u %b3 %c_0 %l\nOpStore %pc %qb\n";
    char d2[512];
    snprintf(d2, sizeof(d2), "%s%%ptr_u = OpTypePointer StorageBuffer %%uint\n", decls);
    char *t = module(16, d2, body);
    uint32_t o1[16], o2[16], o3[16], dummy[4];
    memset(o1, 0, sizeof(o1));
    memset(o2, 0, sizeof(o2));
    memset(o3, 0, sizeof(o3));
    void *bufs[4] = {dummy, o1, o2, o3};
    size_t sizes[4] = {16, sizeof(o1), sizeof(o2), sizeof(o3)};
    expect_run(t, 0, 1, bufs, sizes, 1, CVM_SUCCESS, CVM_SUCCESS, NULL);
    uint32_t h = round_narrow(F16, (double)0.333f);
    float qf = (float)decode_bits(F16, h);
    for (int l = 0; l < 16; l++) {
        assert_int_equal(o1[l], 300);
        assert_int_equal(o2[l], h | (h << 16));
        assert_int_equal(o3[l], fbits(qf));
    }
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_combination),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_precise),
        cmocka_unit_test(test_scrambled_layouts),
        cmocka_unit_test(test_robust_matrix),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_training_contention),
        cmocka_unit_test(test_training_rounding),
        cmocka_unit_test(test_optimal_packing),
        cmocka_unit_test(test_load_store),
        cmocka_unit_test(test_load_store_bounds),
        cmocka_unit_test(test_type_and_training_rules),
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_convert),
        cmocka_unit_test(test_value_ops),
        cmocka_unit_test(test_select_phi),
        cmocka_unit_test(test_convert_constant_operand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
