/* SPV_NV_cooperative_vector: OpCooperativeVectorLoadNV, StoreNV,
 * MatrixMulNV, MatrixMulAddNV, OuterProductAccumulateNV and
 * ReduceSumAccumulateNV, and the rules on the type itself.
 *
 * A cooperative vector is a CVM_TC_VECTOR value of its invocation (the type
 * has `coopvec` set), so composite, arithmetic, conversion, bit and
 * GLSL.std.450 instructions, constants, OpSelect, OpPhi, parameters and
 * variables handle it as they handle any vector.  The instructions here run
 * per invocation; none is collective, and none needs uniform control flow.
 *
 * Matrix-vector products (cvm_coopvec_matmul_*, kernels/coopvec_kernels.h
 * for the numerics): when every active invocation names the same matrix (its
 * address, offset and stride) and the same bias, the products of all of them
 * run as one matrix-matrix product; otherwise each invocation's runs alone.
 * Both go through the same kernels with the same per-element order of
 * additions, so the results are the same bits either way.
 *
 * Conversions of Input to InputInterpretation (the text's rules): integer to
 * integer saturates; float to integer rounds to nearest even and saturates
 * (NaN gives 0); integer to float and float to float round to nearest even;
 * packed interpretations are bit-casts, four 8-bit values a 32-bit component,
 * the lowest-numbered in the lowest bits.  An E4M3/E5M2 interpretation of an
 * input of another float (or integer) type keeps f16 precision instead of
 * rounding to 8 bits, as the Vulkan text allows and NVIDIA's H200 does
 * (SPEC_NOTES.md).  Integer inputs are signed when MatrixBSignedComponentsKHR
 * is given, integer results when MatrixResultSignedComponentsKHR is.
 *
 * Rules checked (texts: SPV_NV_cooperative_vector, GLSL_NV_cooperative_vector,
 * the Vulkan valid usage of VK_NV_cooperative_vector):
 *   when lowering (CVM_ERROR_INVALID_MODULE, or CVM_ERROR_UNSUPPORTED for a
 *   combination of types coopvm does not list): result and operand types,
 *   constant interpretations / M / K / layout / transpose, K against Input,
 *   Transpose with RowMajorNV/ColumnMajorNV, E4M3/E5M2 matrices outside the
 *   optimal layouts, a row/column-major matrix without MatrixStride, pointer
 *   storage classes, a cooperative vector in memory other than Function and
 *   Private, more than CVM_MAX_COOPVEC_COMPONENTS components;
 *   when running (naming the instruction and invocation): alignment (vector
 *   load/store and ReduceSum offsets 16 bytes, matrices 64, biases 16,
 *   row/column-major strides multiples of 16, OuterProduct matrices 64) and
 *   bounds: every byte a matrix, bias or vector occupies must lie in its
 *   buffer (CVM_ERROR_OUT_OF_BOUNDS; in robust mode out-of-range elements
 *   read as zero and writes to them are dropped, element by element).
 *
 * Training: each element of an outer product, and each component of a
 * ReduceSum, is its own atomic add (a compare-and-swap loop on the host
 * memory, so many workgroups on many threads may accumulate into one matrix),
 * rounded once into the element's type; the order of the adds is the order
 * of the lanes and of the elements, which the texts leave open. */
#include <math.h>
#include <string.h>

#include "exec/kernels/coopvec_kernels.h"
#include "exec/program.h"

/* ---- the type -------------------------------------------------------------- */

static int module_has_cap(const spv_module *mod, uint32_t cap)
{
    for (uint32_t i = 0; i < mod->ncapabilities; i++)
        if (mod->capabilities[i] == cap)
            return 1;
    return 0;
}

cvm_result cvm_coopvec_lower_type(cvm_lower *lw, const spv_inst *in, cvm_type *t)
{
    const spv_module *mod = cvm_lower_program(lw)->mod;
    if (!module_has_cap(mod, SpvCapabilityCooperativeVectorNV))
        return CVM_SUCCESS; /* a long vector (SPV_EXT_long_vector) */
    t->coopvec = 1;
    if (t->count > CVM_MAX_COOPVEC_COMPONENTS && !module_has_cap(mod, SpvCapabilityLongVectorEXT))
        return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT,
                              "a cooperative vector of %u components (maxCooperativeVectorComponents "
                              "is %u)",
                              t->count, CVM_MAX_COOPVEC_COMPONENTS);
    return CVM_SUCCESS;
}

static int type_holds_coopvec(const cvm_program *p, uint32_t tid, int depth)
{
    const cvm_type *t = &p->types[tid];
    if (depth > 64)
        return 0;
    switch (t->tclass) {
    case CVM_TC_VECTOR:
        return t->coopvec;
    case CVM_TC_ARRAY:
        return type_holds_coopvec(p, t->elem, depth + 1);
    case CVM_TC_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++)
            if (type_holds_coopvec(p, t->member_types[i], depth + 1))
                return 1;
        return 0;
    default:
        return 0;
    }
}

cvm_result cvm_coopvec_check_variable(cvm_lower *lw, const spv_inst *in, uint32_t storage_class,
                                      uint32_t pointee)
{
    const cvm_program *p = cvm_lower_program(lw);
    if (storage_class == SpvStorageClassFunction || storage_class == SpvStorageClassPrivate)
        return CVM_SUCCESS;
    /* SPV_EXT_long_vector lets the same type live in buffers and shared memory. */
    if (module_has_cap(p->mod, SpvCapabilityLongVectorEXT) || !type_holds_coopvec(p, pointee, 0))
        return CVM_SUCCESS;
    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                          "a variable of storage class %u holds a cooperative vector; cooperative "
                          "vectors can only be allocated in Function or Private storage "
                          "(SPV_NV_cooperative_vector 2.16.1)",
                          storage_class);
}

/* ---- lowered operands ----------------------------------------------------------- */

enum { DOMAIN_F32 = 0, DOMAIN_F64 = 1, DOMAIN_I32 = 2 };

/* OpCooperativeVectorMatrixMul(Add)NV, in cvm_program.extra (insn.extra). */
typedef struct cv_mm {
    uint32_t input, matrix, matrix_offset, bias, bias_offset, stride; /* ids; bias 0: MatMulNV;
                                                                         stride 0: absent */
    uint32_t offset_size, bias_offset_size, stride_size; /* bytes of those integers */
    uint32_t m, k, layout, transpose;
    uint32_t input_interp, matrix_interp, bias_interp; /* cvm_component_type */
    uint32_t input_sk;    /* Input's component kind, signedness as MatrixBSigned says */
    uint32_t eff_sk;      /* the kind Input is converted to (packed: the 8-bit kind) */
    uint32_t packed;
    uint32_t matrix_sk, bias_sk, result_sk;
    uint32_t domain;      /* DOMAIN_* */
} cv_mm;

/* Load / Store: insn.a pointer, b offset id, c offset size (bytes), d the
 * stored object; sk, ncomp: component kind and count of the vector.
 * ReduceSumAccumulate: a pointer, b offset id, c the vector, d offset size.
 * OuterProductAccumulate: a pointer, b offset id, c A, d B; sk their
 * component kind, sk2 the accumulation kind; extra: M, N, layout, stride id
 * (0: none), offset size, stride size.
 * flags bit 0 (all four): the pointer is in Workgroup storage. */
enum { CV_WORKGROUP_POINTER = 1 };

/* ---- helpers ---------------------------------------------------------------------- */

static uint64_t lane_uint(const cvm_exec *ex, uint32_t id, uint32_t lane, uint32_t size)
{
    const uint8_t *p = CVM_LANE(ex->vals[id], lane);
    if (size == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t lane_ptr(const cvm_exec *ex, uint32_t id, uint32_t lane)
{
    uint64_t a;
    memcpy(&a, CVM_LANE(ex->vals[id], lane), 8);
    return a;
}

/* ptr + byte offset, or UINT64_MAX when it leaves the address's region. */
static uint64_t add_offset(uint64_t ptr, uint64_t off)
{
    uint64_t o = CVM_ADDR_OFFSET(ptr);
    if (off >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS) ||
        o + off >= (UINT64_C(1) << CVM_ADDR_OFFSET_BITS))
        return UINT64_MAX;
    return ptr + off;
}

/* Scratch memory of the group, grown on demand. */
static void *scratch(cvm_exec *ex, size_t size)
{
    if (size > ex->scratch_size) {
        uint8_t *n = cvm_realloc(ex->scratch, size);
        if (!n)
            return NULL;
        ex->scratch = n;
        ex->scratch_size = size;
    }
    return ex->scratch;
}

static size_t align16(size_t v)
{
    return (v + 15) & ~(size_t)15;
}

static const char *layout_name(uint32_t layout)
{
    static const char *const names[] = {"RowMajorNV", "ColumnMajorNV", "InferencingOptimalNV",
                                        "TrainingOptimalNV"};
    return layout < 4 ? names[layout] : "unknown layout";
}

/* The byte offset inside its region where an access starts, for alignment
 * checks: buffers and physical addresses count from the buffer's start
 * (which the client API aligns); workgroup memory counts the Offset operand
 * only, the placement of shared variables being the implementation's. */
static int misaligned(uint64_t addr, uint64_t offset, int workgroup, uint32_t align)
{
    uint64_t at = workgroup ? offset : CVM_ADDR_OFFSET(addr);
    return at % align != 0;
}

/* Fails for an access of `size` bytes at `addr` (UINT64_MAX: past the
 * region) that does not fit, with the message of cvm_mem_access and what
 * the bytes were for. */
static cvm_result out_of_bounds(cvm_exec *ex, const cvm_insn *in, uint32_t lane, const char *what,
                                uint64_t addr, uint64_t size)
{
    uint32_t reg = addr == UINT64_MAX ? 0 : CVM_ADDR_REGION(addr);
    uint64_t rsize = reg < ex->nregions ? ex->regions[reg].size : 0;
    if (addr == UINT64_MAX)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                             "invocation %u: the offset of the %s leaves the address space", lane,
                             what);
    if (reg == CVM_REGION_NULL)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                             "invocation %u: the %s is read or written through a null pointer",
                             lane, what);
    if (reg >= ex->nregions || !ex->regions[reg].base)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                             "invocation %u: the %s (%llu bytes at address 0x%llx) is in no buffer",
                             lane, what, (unsigned long long)size, (unsigned long long)addr);
    return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_BOUNDS,
                         "invocation %u: the %s spans bytes %llu to %llu of a %llu-byte %s", lane,
                         what, (unsigned long long)CVM_ADDR_OFFSET(addr),
                         (unsigned long long)(CVM_ADDR_OFFSET(addr) + size),
                         (unsigned long long)rsize,
                         reg >= CVM_REGION_FIRST_BUFFER ? "buffer"
                         : reg == CVM_REGION_WORKGROUP  ? "workgroup memory"
                                                        : "memory region");
}

/* Host pointer to `size` bytes at addr, or NULL (never a diagnostic). */
static uint8_t *peek(const cvm_exec *ex, uint64_t addr, uint64_t size, int write)
{
    if (addr == UINT64_MAX)
        return NULL;
    return cvm_mem_peek(ex, addr, size, write);
}

static int robust(const cvm_exec *ex)
{
    return (ex->flags & CVM_FLAG_ROBUST_ACCESS) != 0;
}

/* A write that fits but lands in read-only memory is an error in every
 * mode, as for OpStore. */
static cvm_result check_writable(cvm_exec *ex, const cvm_insn *in, uint32_t lane, uint64_t addr)
{
    uint32_t reg = CVM_ADDR_REGION(addr);
    if (reg < ex->nregions && ex->regions[reg].base && !ex->regions[reg].writable)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "invocation %u writes to read-only memory (region %u)", lane, reg);
    return CVM_SUCCESS;
}

/* ---- Load and Store ------------------------------------------------------------- */

static cvm_result h_load(cvm_exec *ex, const cvm_insn *in)
{
    uint32_t es = cvm_sk_size((cvm_scalar_kind)in->sk);
    uint64_t size = (uint64_t)es * in->ncomp;
    cvm_val r = ex->vals[in->result];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t off = lane_uint(ex, in->b, l, in->c);
        uint64_t addr = add_offset(lane_ptr(ex, in->a, l), off);
        if (addr != UINT64_MAX && misaligned(addr, off, in->flags & CV_WORKGROUP_POINTER, 16))
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "invocation %u: Pointer + Offset (%llu) is not 16-byte aligned "
                                 "(VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-10099)",
                                 l, (unsigned long long)off);
        const uint8_t *m = peek(ex, addr, size, 0);
        uint8_t *dst = CVM_LANE(r, l);
        if (m) {
            memcpy(dst, m, size);
            continue;
        }
        if (!robust(ex))
            return out_of_bounds(ex, in, l, "loaded vector", addr, size);
        for (uint32_t i = 0; i < in->ncomp; i++) {
            uint64_t ea = addr == UINT64_MAX ? addr : add_offset(addr, (uint64_t)i * es);
            const uint8_t *e = peek(ex, ea, es, 0);
            if (e)
                memcpy(dst + (size_t)i * es, e, es);
            else
                memset(dst + (size_t)i * es, 0, es);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_store(cvm_exec *ex, const cvm_insn *in)
{
    uint32_t es = cvm_sk_size((cvm_scalar_kind)in->sk);
    uint64_t size = (uint64_t)es * in->ncomp;
    cvm_val v = ex->vals[in->d];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t off = lane_uint(ex, in->b, l, in->c);
        uint64_t addr = add_offset(lane_ptr(ex, in->a, l), off);
        if (addr != UINT64_MAX && misaligned(addr, off, in->flags & CV_WORKGROUP_POINTER, 16))
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "invocation %u: Pointer + Offset (%llu) is not 16-byte aligned "
                                 "(VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-10099)",
                                 l, (unsigned long long)off);
        const uint8_t *src = CVM_LANE(v, l);
        uint8_t *m = peek(ex, addr, size, 0);
        if (m) {
            CVM_TRY(check_writable(ex, in, l, addr));
            memcpy(m, src, size);
            continue;
        }
        if (!robust(ex))
            return out_of_bounds(ex, in, l, "stored vector", addr, size);
        for (uint32_t i = 0; i < in->ncomp; i++) {
            uint64_t ea = addr == UINT64_MAX ? addr : add_offset(addr, (uint64_t)i * es);
            uint8_t *e = peek(ex, ea, es, 0);
            if (e) {
                CVM_TRY(check_writable(ex, in, l, ea));
                memcpy(e, src + (size_t)i * es, es);
            }
        }
    }
    return CVM_SUCCESS;
}

/* ---- matrix-vector products --------------------------------------------------------- */

/* Where one invocation's matrix and bias are. */
typedef struct cv_operands {
    uint64_t maddr, moff, stride, baddr, boff;
} cv_operands;

/* One value of kind k at p in the accumulator's domain. */
static void to_domain(uint32_t domain, cvm_scalar_kind k, const uint8_t *p, void *out)
{
    switch (domain) {
    case DOMAIN_F32: {
        float f;
        switch (k) {
        case CVM_SK_F16: { uint16_t h; memcpy(&h, p, 2); f = cvm_f16_to_f32(h); break; }
        case CVM_SK_E4M3: f = cvm_e4m3_to_f32(p[0]); break;
        case CVM_SK_E5M2: f = cvm_e5m2_to_f32(p[0]); break;
        case CVM_SK_F32: memcpy(&f, p, 4); break;
        default: f = (float)cvm_load_as_f64(k, p); break; /* bf16: exact */
        }
        memcpy(out, &f, 4);
        return;
    }
    case DOMAIN_F64: {
        double d = cvm_load_as_f64(k, p);
        memcpy(out, &d, 8);
        return;
    }
    default: {
        /* integer kinds as their value, modulo 2^32 */
        uint32_t v = (uint32_t)(cvm_sk_is_signed_int(k) ? (uint64_t)cvm_load_as_s64(k, p)
                                                        : cvm_load_as_u64(k, p));
        memcpy(out, &v, 4);
        return;
    }
    }
}

static size_t domain_size(uint32_t domain)
{
    return domain == DOMAIN_F64 ? 8 : 4;
}

/* Invocation's Input as K values of the domain, x[k * l_stride]. */
static void input_column(const cv_mm *mm, const uint8_t *input, uint8_t *x, size_t l_stride)
{
    size_t ds = domain_size(mm->domain);
    cvm_scalar_kind ik = (cvm_scalar_kind)mm->input_sk, ek = (cvm_scalar_kind)mm->eff_sk;
    uint32_t is = cvm_sk_size(ik);
    for (uint32_t q = 0; q < mm->k; q++) {
        uint8_t *dst = x + (size_t)q * l_stride * ds;
        if (mm->packed) {
            uint32_t word;
            memcpy(&word, input + (size_t)(q / 4) * 4, 4);
            uint8_t byte = (uint8_t)(word >> (8 * (q % 4)));
            to_domain(mm->domain, ek, &byte, dst);
            continue;
        }
        const uint8_t *src = input + (size_t)q * is;
        if (ik == ek) {
            to_domain(mm->domain, ek, src, dst);
            continue;
        }
        uint8_t tmp[8];
        if (cvm_sk_is_float(ik))
            cvm_store_from_f64_nearest(ek, tmp, cvm_load_as_f64(ik, src));
        else if (cvm_sk_is_signed_int(ik))
            cvm_store_from_s64(ek, tmp, cvm_load_as_s64(ik, src), 1);
        else
            cvm_store_from_u64(ek, tmp, cvm_load_as_u64(ik, src), 1);
        to_domain(mm->domain, ek, tmp, dst);
    }
}

/* A result element from the domain into the result kind; a NaN becomes the
 * kind's canonical quiet NaN (which NaN an addition passes on differs
 * between scalar and vector code, and the texts do not fix it). */
static void from_domain(const cv_mm *mm, const uint8_t *v, uint8_t *out)
{
    cvm_scalar_kind rk = (cvm_scalar_kind)mm->result_sk;
    if (mm->domain == DOMAIN_I32) {
        memcpy(out, v, 4);
        return;
    }
    double d;
    if (mm->domain == DOMAIN_F32) {
        float f;
        memcpy(&f, v, 4);
        if (rk == CVM_SK_F32) {
            if (isnan(f))
                f = NAN;
            memcpy(out, &f, 4);
            return;
        }
        if (rk == CVM_SK_F16) {
            uint16_t h = isnan(f) ? 0x7e00u : cvm_f32_to_f16(f);
            memcpy(out, &h, 2);
            return;
        }
        d = (double)f;
    } else {
        memcpy(&d, v, 8);
    }
    if (isnan(d))
        d = (double)NAN;
    cvm_store_from_f64(rk, out, d, 0);
}

/* Where an invocation's matrix is: its layout, and a host pointer to the
 * whole of it (NULL in robust mode when part of it is outside its buffer). */
typedef struct cv_matrix {
    cvm_coopvec_layout L;
    const uint8_t *base;
    uint64_t addr;
} cv_matrix;

/* Checks the alignment and bounds of the M x K matrix (after Transpose) of
 * the invocation `lane`, or fails. */
static cvm_result locate_matrix(cvm_exec *ex, const cvm_insn *in, const cv_mm *mm, uint32_t lane,
                                const cv_operands *op, cv_matrix *o)
{
    uint32_t es = cvm_sk_size((cvm_scalar_kind)mm->matrix_sk);
    int rm_cm = mm->layout <= CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR;
    if (op->maddr != UINT64_MAX && misaligned(op->maddr, op->moff, 0, 64))
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "invocation %u: the matrix (MatrixOffset %llu) is not 64-byte aligned "
                             "(VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10097)",
                             lane, (unsigned long long)op->moff);
    if (rm_cm && op->stride % 16 != 0)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "invocation %u: MatrixStride %llu of a %s matrix is not a multiple of "
                             "16 bytes (VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10096)",
                             lane, (unsigned long long)op->stride, layout_name(mm->layout));
    /* The matrix as stored: K x M when transposed. */
    uint32_t srows = mm->transpose ? mm->k : mm->m, scols = mm->transpose ? mm->m : mm->k;
    cvm_coopvec_layout_init(&o->L, mm->layout, srows, scols, op->stride, es,
                            (ex->flags & CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS) != 0);
    /* the whole matrix the size query reports (optimal layouts: padded) */
    uint64_t extent = cvm_coopvec_conversion_size(&o->L);
    o->addr = op->maddr;
    o->base = peek(ex, op->maddr, extent, 0);
    if (!o->base && !robust(ex))
        return out_of_bounds(ex, in, lane, "matrix", op->maddr, extent);
    return CVM_SUCCESS;
}

/* Rows j0 .. j0 + rows - 1 of the M x K matrix into w (domain values,
 * row-major); in robust mode elements outside the buffer read as zero. */
static void read_matrix_rows(cvm_exec *ex, const cv_mm *mm, const cv_matrix *mx, uint32_t j0,
                             uint32_t rows, uint8_t *w)
{
    cvm_scalar_kind mk = (cvm_scalar_kind)mm->matrix_sk;
    uint32_t es = cvm_sk_size(mk);
    size_t ds = domain_size(mm->domain);
    static const uint8_t zero[8];
    for (uint32_t j = j0; j < j0 + rows; j++) {
        for (uint32_t q = 0; q < mm->k; q++) {
            uint64_t eo = mm->transpose ? cvm_coopvec_element_offset(&mx->L, q, j)
                                        : cvm_coopvec_element_offset(&mx->L, j, q);
            uint8_t *dst = w + ((size_t)(j - j0) * mm->k + q) * ds;
            const uint8_t *e =
                mx->base ? mx->base + eo
                         : peek(ex, mx->addr == UINT64_MAX ? mx->addr : add_offset(mx->addr, eo),
                                es, 0);
            to_domain(mm->domain, mk, e ? e : zero, dst);
        }
    }
}

static cvm_result read_bias(cvm_exec *ex, const cvm_insn *in, const cv_mm *mm, uint32_t lane,
                            const cv_operands *op, uint8_t *b)
{
    cvm_scalar_kind bk = (cvm_scalar_kind)mm->bias_sk;
    uint32_t es = cvm_sk_size(bk);
    size_t ds = domain_size(mm->domain);
    if (op->baddr != UINT64_MAX && misaligned(op->baddr, op->boff, 0, 16))
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "invocation %u: the bias (BiasOffset %llu) is not 16-byte aligned "
                             "(VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulAddNV-10098)",
                             lane, (unsigned long long)op->boff);
    uint64_t extent = (uint64_t)mm->m * es;
    const uint8_t *base = peek(ex, op->baddr, extent, 0);
    if (!base && !robust(ex))
        return out_of_bounds(ex, in, lane, "bias", op->baddr, extent);
    for (uint32_t j = 0; j < mm->m; j++) {
        static const uint8_t zero[8];
        const uint8_t *e =
            base ? base + (size_t)j * es
                 : peek(ex, op->baddr == UINT64_MAX ? op->baddr : add_offset(op->baddr, (uint64_t)j * es),
                        es, 0);
        to_domain(mm->domain, bk, e ? e : zero, b + (size_t)j * ds);
    }
    return CVM_SUCCESS;
}

static void run_kernel(const cv_mm *mm, uint32_t rows, uint32_t nl, const uint8_t *w,
                       const uint8_t *x, const uint8_t *b, uint8_t *r)
{
    switch (mm->domain) {
    case DOMAIN_F32:
        cvm_coopvec_matmul_f32(rows, mm->k, nl, (const float *)(const void *)w,
                               (const float *)(const void *)x, (const float *)(const void *)b,
                               (float *)(void *)r);
        break;
    case DOMAIN_F64:
        cvm_coopvec_matmul_f64(rows, mm->k, nl, (const double *)(const void *)w,
                               (const double *)(const void *)x, (const double *)(const void *)b,
                               (double *)(void *)r);
        break;
    default:
        cvm_coopvec_matmul_i32(rows, mm->k, nl, (const int32_t *)(const void *)w,
                               (const int32_t *)(const void *)x, (const int32_t *)(const void *)b,
                               (int32_t *)(void *)r);
        break;
    }
}

/* Scratch areas of one h_matmul: a block of matrix rows, the inputs of a
 * block of invocations, the bias, the results of both blocks (all in the
 * accumulator's domain), and a row of f16/f32 for the bulk conversions.
 * Blocks keep the scratch near CV_BLOCK_BYTES however large M, K and the
 * workgroup are (4096 x 4096 matrices over 1024 invocations would otherwise
 * need hundreds of megabytes). */
#define CV_BLOCK_BYTES (UINT64_C(1) << 22)

typedef struct cv_work {
    uint32_t rb, lb; /* rows, invocations per block */
    uint8_t *w, *x, *b, *r, *tmp;
} cv_work;

static void work_blocks(const cv_mm *mm, uint32_t nl, uint32_t *o_rb, uint32_t *o_lb)
{
    size_t ds = domain_size(mm->domain);
    uint64_t rb = CV_BLOCK_BYTES / ((uint64_t)mm->k * ds);
    uint64_t lb = CV_BLOCK_BYTES / ((uint64_t)(mm->k + mm->m) * ds);
    *o_rb = (uint32_t)CVM_MAX(1, CVM_MIN(rb, (uint64_t)mm->m));
    *o_lb = (uint32_t)CVM_MAX(1, CVM_MIN(lb, (uint64_t)nl));
}

static size_t work_size(const cv_mm *mm, uint32_t nl)
{
    size_t ds = domain_size(mm->domain);
    uint32_t rb, lb;
    work_blocks(mm, nl, &rb, &lb);
    return align16((size_t)rb * mm->k * ds) + align16((size_t)mm->k * lb * ds) +
           align16((size_t)mm->m * ds) + align16((size_t)rb * lb * ds) +
           align16((size_t)CVM_MAX(CVM_MAX(mm->m, mm->k), lb) * 4);
}

static cv_work work_split(const cv_mm *mm, uint32_t nl, uint8_t *mem)
{
    size_t ds = domain_size(mm->domain);
    cv_work wk;
    work_blocks(mm, nl, &wk.rb, &wk.lb);
    wk.w = mem;
    wk.x = wk.w + align16((size_t)wk.rb * mm->k * ds);
    wk.b = wk.x + align16((size_t)mm->k * wk.lb * ds);
    wk.r = wk.b + align16((size_t)mm->m * ds);
    wk.tmp = wk.r + align16((size_t)wk.rb * wk.lb * ds);
    return wk;
}

/* The invocations' Inputs as the columns of x (K x nl). */
static void gather_inputs(cvm_exec *ex, const cv_mm *mm, const uint32_t *lanes, uint32_t nl,
                          const cv_work *wk)
{
    cvm_val vin = ex->vals[mm->input];
    size_t ds = domain_size(mm->domain);
    if (mm->domain == DOMAIN_F32 && !mm->packed && mm->input_sk == CVM_SK_F16 &&
        mm->eff_sk == CVM_SK_F16) {
        /* f16 inputs (the common case): exact bulk conversion, then a
         * transpose into the columns */
        float *tmp = (float *)(void *)wk->tmp, *x = (float *)(void *)wk->x;
        for (uint32_t i = 0; i < nl; i++) {
            cvm_coopvec_f16_to_f32((const uint16_t *)(const void *)CVM_LANE(vin, lanes[i]), tmp,
                                   mm->k);
            for (uint32_t q = 0; q < mm->k; q++)
                x[(size_t)q * nl + i] = tmp[q];
        }
        return;
    }
    for (uint32_t i = 0; i < nl; i++)
        input_column(mm, CVM_LANE(vin, lanes[i]), wk->x + (size_t)i * ds, nl);
}

/* Results of rows j0 .. j0 + rows - 1 (rows x nl in wk->r) into the
 * invocations' result values. */
static void scatter_results(cvm_exec *ex, const cvm_insn *in, const cv_mm *mm,
                            const uint32_t *lanes, uint32_t nl, uint32_t j0, uint32_t rows,
                            const cv_work *wk)
{
    cvm_val vr = ex->vals[in->result];
    size_t ds = domain_size(mm->domain);
    uint32_t rs = cvm_sk_size((cvm_scalar_kind)mm->result_sk);
    if (mm->domain == DOMAIN_F32 && mm->result_sk == CVM_SK_F16) {
        uint16_t *tmp = (uint16_t *)(void *)wk->tmp;
        const float *r = (const float *)(const void *)wk->r;
        for (uint32_t j = 0; j < rows; j++) {
            cvm_coopvec_f32_to_f16(r + (size_t)j * nl, tmp, nl);
            for (uint32_t i = 0; i < nl; i++)
                memcpy(CVM_LANE(vr, lanes[i]) + (size_t)(j0 + j) * 2, &tmp[i], 2);
        }
        return;
    }
    for (uint32_t i = 0; i < nl; i++) {
        uint8_t *dst = CVM_LANE(vr, lanes[i]);
        for (uint32_t j = 0; j < rows; j++)
            from_domain(mm, wk->r + ((size_t)j * nl + i) * ds, dst + (size_t)(j0 + j) * rs);
    }
}

/* The products of the invocations lanes[0..nl) which share the operands
 * `op` (read from lanes[0]), block by block. */
static cvm_result matmul_batch(cvm_exec *ex, const cvm_insn *in, const cv_mm *mm,
                               const uint32_t *lanes, uint32_t nl, const cv_operands *op,
                               uint8_t *mem)
{
    cv_work wk = work_split(mm, nl, mem);
    size_t ds = domain_size(mm->domain);
    cv_matrix mx;
    CVM_TRY(locate_matrix(ex, in, mm, lanes[0], op, &mx));
    if (mm->bias)
        CVM_TRY(read_bias(ex, in, mm, lanes[0], op, wk.b));
    if (ex->cv_reads) { /* the checking mode: NV-CV.Matrix-Unmodified (exec/read_log.c) */
        cvm_read_log_add(ex, in, mx.addr, cvm_coopvec_conversion_size(&mx.L), 0);
        if (mm->bias)
            cvm_read_log_add(ex, in, op->baddr,
                             (uint64_t)mm->m * cvm_sk_size((cvm_scalar_kind)mm->bias_sk), 1);
    }
    for (uint32_t i0 = 0; i0 < nl; i0 += wk.lb) {
        uint32_t ln = CVM_MIN(wk.lb, nl - i0);
        gather_inputs(ex, mm, lanes + i0, ln, &wk);
        for (uint32_t j0 = 0; j0 < mm->m; j0 += wk.rb) {
            uint32_t rows = CVM_MIN(wk.rb, mm->m - j0);
            read_matrix_rows(ex, mm, &mx, j0, rows, wk.w);
            run_kernel(mm, rows, ln, wk.w, wk.x, mm->bias ? wk.b + (size_t)j0 * ds : NULL, wk.r);
            scatter_results(ex, in, mm, lanes + i0, ln, j0, rows, &wk);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_matmul(cvm_exec *ex, const cvm_insn *in)
{
    cv_mm mm;
    memcpy(&mm, ex->prog->extra + in->extra, sizeof(mm));
    if ((ex->flags & CVM_FLAG_PRECISE) && mm.domain == DOMAIN_F32)
        mm.domain = DOMAIN_F64; /* the precise mode: double accumulators (exact products) */
    uint32_t nl = 0;
    size_t lanes_bytes = align16((size_t)ex->nlanes * 4);
    size_t ops_bytes = align16((size_t)ex->nlanes * sizeof(cv_operands));
    uint8_t *mem = scratch(ex, lanes_bytes + ops_bytes + work_size(&mm, ex->nlanes));
    if (!mem)
        return cvm_exec_fail(ex, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory for %u x %u products",
                             mm.m, mm.k);
    uint32_t *lanes = (uint32_t *)(void *)mem;
    cv_operands *ops = (cv_operands *)(void *)(mem + lanes_bytes);
    uint8_t *wk = mem + lanes_bytes + ops_bytes;
    int uniform = 1;
    CVM_FOR_ACTIVE(ex, l) {
        cv_operands *o = &ops[nl];
        o->moff = lane_uint(ex, mm.matrix_offset, l, mm.offset_size);
        o->maddr = add_offset(lane_ptr(ex, mm.matrix, l), o->moff);
        o->stride = mm.stride ? lane_uint(ex, mm.stride, l, mm.stride_size) : 0;
        o->boff = mm.bias ? lane_uint(ex, mm.bias_offset, l, mm.bias_offset_size) : 0;
        o->baddr = mm.bias ? add_offset(lane_ptr(ex, mm.bias, l), o->boff) : 0;
        if (mm.layout > CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR)
            o->stride = 0; /* ignored by the optimal layouts */
        if (nl && (o->maddr != ops[0].maddr || o->moff != ops[0].moff ||
                   o->stride != ops[0].stride || o->baddr != ops[0].baddr ||
                   o->boff != ops[0].boff))
            uniform = 0;
        lanes[nl++] = l;
    }
    if (nl == 0)
        return CVM_SUCCESS;
    if (uniform)
        return matmul_batch(ex, in, &mm, lanes, nl, &ops[0], wk);
    for (uint32_t i = 0; i < nl; i++)
        CVM_TRY(matmul_batch(ex, in, &mm, &lanes[i], 1, &ops[i], wk));
    return CVM_SUCCESS;
}

/* ---- training ----------------------------------------------------------------------- */

/* Atomically adds the exact value v (a double holding it exactly) to the
 * element of kind k (f16 or f32) at p, rounding the sum once. */
static void atomic_add(cvm_scalar_kind k, uint8_t *p, double v)
{
    if (k == CVM_SK_F16) {
        uint16_t *q = (uint16_t *)(void *)p;
        uint16_t old = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
        do {
            double s = cvm_f64_add_round_to_odd((double)cvm_f16_to_f32(old), v);
            nv = cvm_f64_to_f16(s);
        } while (!__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    } else {
        uint32_t *q = (uint32_t *)(void *)p;
        uint32_t old = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
        do {
            float f;
            memcpy(&f, &old, 4);
            float s = (float)cvm_f64_add_round_to_odd((double)f, v);
            memcpy(&nv, &s, 4);
        } while (!__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    }
}

/* extra of the outer product: M, N, layout, stride id, offset size, stride size */
static cvm_result h_outer_product(cvm_exec *ex, const cvm_insn *in)
{
    const uint32_t *x = ex->prog->extra + in->extra;
    uint32_t m = x[0], n = x[1], layout = x[2], stride_id = x[3], osize = x[4], ssize = x[5];
    cvm_scalar_kind vk = (cvm_scalar_kind)in->sk, ak = (cvm_scalar_kind)in->sk2;
    uint32_t ves = cvm_sk_size(vk), aes = cvm_sk_size(ak);
    int scramble = (ex->flags & CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS) != 0;
    cvm_val va = ex->vals[in->c], vb = ex->vals[in->d];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t off = lane_uint(ex, in->b, l, osize);
        uint64_t addr = add_offset(lane_ptr(ex, in->a, l), off);
        uint64_t stride = stride_id ? lane_uint(ex, stride_id, l, ssize) : 0;
        if (addr != UINT64_MAX && misaligned(addr, off, in->flags & CV_WORKGROUP_POINTER, 64))
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "invocation %u: the matrix (Offset %llu) is not 64-byte aligned "
                                 "(VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-"
                                 "10101)",
                                 l, (unsigned long long)off);
        if (layout <= CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR && stride % aes != 0)
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "invocation %u: MatrixStride %llu is not a multiple of the %u-byte "
                                 "elements",
                                 l, (unsigned long long)stride, aes);
        cvm_coopvec_layout L;
        cvm_coopvec_layout_init(&L, layout, m, n, stride, aes, scramble);
        uint64_t extent = cvm_coopvec_conversion_size(&L); /* optimal: padded */
        uint8_t *base = peek(ex, addr, extent, 0);
        if (!base && !robust(ex))
            return out_of_bounds(ex, in, l, "matrix", addr, extent);
        CVM_TRY(check_writable(ex, in, l, addr));
        const uint8_t *a = CVM_LANE(va, l), *b = CVM_LANE(vb, l);
        for (uint32_t i = 0; i < m; i++) {
            double ai = cvm_load_as_f64(vk, a + (size_t)i * ves);
            for (uint32_t j = 0; j < n; j++) {
                double p = ai * cvm_load_as_f64(vk, b + (size_t)j * ves); /* exact */
                uint64_t eo = cvm_coopvec_element_offset(&L, i, j);
                uint8_t *e = base ? base + eo : peek(ex, addr == UINT64_MAX ? addr : add_offset(addr, eo), aes, 0);
                if (e)
                    atomic_add(ak, e, p);
            }
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_reduce_sum(cvm_exec *ex, const cvm_insn *in)
{
    cvm_scalar_kind vk = (cvm_scalar_kind)in->sk;
    uint32_t es = cvm_sk_size(vk);
    uint64_t size = (uint64_t)es * in->ncomp;
    cvm_val v = ex->vals[in->c];
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t off = lane_uint(ex, in->b, l, in->d);
        uint64_t addr = add_offset(lane_ptr(ex, in->a, l), off);
        if (addr != UINT64_MAX && misaligned(addr, off, in->flags & CV_WORKGROUP_POINTER, 16))
            return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                                 "invocation %u: Pointer + Offset (%llu) is not 16-byte aligned "
                                 "(VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10100)",
                                 l, (unsigned long long)off);
        uint8_t *base = peek(ex, addr, size, 0);
        if (!base && !robust(ex))
            return out_of_bounds(ex, in, l, "array", addr, size);
        CVM_TRY(check_writable(ex, in, l, addr));
        const uint8_t *src = CVM_LANE(v, l);
        for (uint32_t i = 0; i < in->ncomp; i++) {
            uint8_t *e = base ? base + (size_t)i * es
                              : peek(ex, addr == UINT64_MAX ? addr : add_offset(addr, (uint64_t)i * es), es, 0);
            if (e)
                atomic_add(vk, e, cvm_load_as_f64(vk, src + (size_t)i * es));
        }
    }
    return CVM_SUCCESS;
}

/* ---- lowering ------------------------------------------------------------------------ */

/* The cooperative vector type of id `id`'s value, or NULL. */
static const cvm_type *coopvec_of(cvm_lower *lw, uint32_t id)
{
    const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
    return t->tclass == CVM_TC_VECTOR && t->coopvec ? t : NULL;
}

/* A 32- or 64-bit integer operand: its size in bytes, or 0. */
static uint32_t int_operand(cvm_lower *lw, uint32_t id)
{
    const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
    return t->tclass == CVM_TC_INT && (t->size == 4 || t->size == 8) ? t->size : 0;
}

/* The storage class of pointer value `id` (its OpTypePointer's operand), and
 * whether it points to an array of scalars (or of vectors when `vectors`). */
static cvm_result pointer_operand(cvm_lower *lw, const spv_inst *in, uint32_t id, const char *what,
                                  int allow_workgroup, int vectors, uint32_t *o_sc)
{
    const cvm_program *p = cvm_lower_program(lw);
    uint32_t tid = cvm_lower_type_of(lw, id);
    spv_inst ti;
    if (!tid || !spv_module_def_inst(p->mod, tid, &ti) || ti.opcode != SpvOpTypePointer ||
        ti.word_count < 4)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s is not a pointer", what);
    uint32_t sc = ti.words[2];
    const cvm_type *pointee = cvm_lower_type(lw, ti.words[3]);
    const cvm_type *e = cvm_lower_type(lw, pointee->elem);
    if (pointee->tclass != CVM_TC_ARRAY ||
        !(e->tclass == CVM_TC_INT || e->tclass == CVM_TC_FLOAT ||
          (vectors && e->tclass == CVM_TC_VECTOR && !e->coopvec)))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s must point to an array of %s", what,
                              vectors ? "scalars or vectors" : "scalars");
    int ok = sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassPhysicalStorageBuffer ||
             sc == SpvStorageClassCrossWorkgroup || (allow_workgroup && sc == SpvStorageClassWorkgroup);
    if (!ok)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s is in storage class %u; it must be %sStorageBuffer, "
                              "PhysicalStorageBuffer or CrossWorkgroup",
                              what, sc, allow_workgroup ? "Workgroup, " : "");
    *o_sc = sc;
    return CVM_SUCCESS;
}

static cvm_result const_operand(cvm_lower *lw, const spv_inst *in, uint32_t id, const char *what,
                                uint64_t *o_v)
{
    if (!cvm_lower_const_u64(lw, id, o_v))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s must be a constant instruction (after specialization)", what);
    return CVM_SUCCESS;
}

static int is_fp8(uint32_t ct)
{
    return ct == CVM_COMPONENT_TYPE_FLOAT_E4M3 || ct == CVM_COMPONENT_TYPE_FLOAT_E5M2;
}

/* The cvm_component_type of a scalar kind, signedness taken from `is_signed`
 * for integers. */
static uint32_t component_type_of(cvm_scalar_kind k, int is_signed)
{
    switch (k) {
    case CVM_SK_F16: return CVM_COMPONENT_TYPE_FLOAT16;
    case CVM_SK_BF16: return CVM_COMPONENT_TYPE_BFLOAT16;
    case CVM_SK_F32: return CVM_COMPONENT_TYPE_FLOAT32;
    case CVM_SK_F64: return CVM_COMPONENT_TYPE_FLOAT64;
    case CVM_SK_E4M3: return CVM_COMPONENT_TYPE_FLOAT_E4M3;
    case CVM_SK_E5M2: return CVM_COMPONENT_TYPE_FLOAT_E5M2;
    case CVM_SK_S8: case CVM_SK_U8:
        return is_signed ? CVM_COMPONENT_TYPE_SINT8 : CVM_COMPONENT_TYPE_UINT8;
    case CVM_SK_S16: case CVM_SK_U16:
        return is_signed ? CVM_COMPONENT_TYPE_SINT16 : CVM_COMPONENT_TYPE_UINT16;
    case CVM_SK_S32: case CVM_SK_U32:
        return is_signed ? CVM_COMPONENT_TYPE_SINT32 : CVM_COMPONENT_TYPE_UINT32;
    case CVM_SK_S64: case CVM_SK_U64:
        return is_signed ? CVM_COMPONENT_TYPE_SINT64 : CVM_COMPONENT_TYPE_UINT64;
    default: return UINT32_MAX;
    }
}

/* The integer kind of the same width with the given signedness. */
static cvm_scalar_kind int_kind(cvm_scalar_kind k, int is_signed)
{
    switch (cvm_sk_size(k)) {
    case 1: return is_signed ? CVM_SK_S8 : CVM_SK_U8;
    case 2: return is_signed ? CVM_SK_S16 : CVM_SK_U16;
    case 4: return is_signed ? CVM_SK_S32 : CVM_SK_U32;
    default: return is_signed ? CVM_SK_S64 : CVM_SK_U64;
    }
}

static int narrow_float(cvm_scalar_kind k)
{
    return k == CVM_SK_F16 || k == CVM_SK_E4M3 || k == CVM_SK_E5M2;
}

static cvm_result lower_matmul(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    int add = in->opcode == SpvOpCooperativeVectorMatrixMulAddNV;
    uint32_t fixed = add ? 15u : 12u; /* words up to and including Transpose */
    if (in->word_count < fixed)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
    cv_mm mm;
    memset(&mm, 0, sizeof(mm));
    uint32_t at = 3;
    mm.input = w[at++];
    uint32_t ii_id = w[at++];
    mm.matrix = w[at++];
    mm.matrix_offset = w[at++];
    uint32_t mi_id = w[at++];
    uint32_t bi_id = 0;
    if (add) {
        mm.bias = w[at++];
        mm.bias_offset = w[at++];
        bi_id = w[at++];
    }
    uint32_t m_id = w[at++], k_id = w[at++], layout_id = w[at++], tr_id = w[at++];
    mm.stride = at < in->word_count ? w[at++] : 0;
    uint32_t operands = at < in->word_count ? w[at++] : 0;

    const cvm_type *rt = cvm_lower_type(lw, w[1]);
    const cvm_type *it = coopvec_of(lw, mm.input);
    if (rt->tclass != CVM_TC_VECTOR || !rt->coopvec)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Result Type must be a cooperative vector type");
    if (!it)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Input must be a cooperative vector");
    uint64_t ii, mi, bi = UINT32_MAX, m, k, layout, tr;
    CVM_TRY(const_operand(lw, in, ii_id, "InputInterpretation", &ii));
    CVM_TRY(const_operand(lw, in, mi_id, "MatrixInterpretation", &mi));
    if (add)
        CVM_TRY(const_operand(lw, in, bi_id, "BiasInterpretation", &bi));
    CVM_TRY(const_operand(lw, in, m_id, "M", &m));
    CVM_TRY(const_operand(lw, in, k_id, "K", &k));
    CVM_TRY(const_operand(lw, in, layout_id, "MemoryLayout", &layout));
    CVM_TRY(const_operand(lw, in, tr_id, "Transpose", &tr));
    if (m == 0 || k == 0 || m > CVM_MAX_COOPVEC_COMPONENTS || k > CVM_MAX_COOPVEC_COMPONENTS)
        return cvm_lower_fail(lw, in, m == 0 || k == 0 ? CVM_ERROR_INVALID_MODULE : CVM_ERROR_LIMIT,
                              "M = %llu, K = %llu (each from 1 to %u)", (unsigned long long)m,
                              (unsigned long long)k, CVM_MAX_COOPVEC_COMPONENTS);
    if (rt->count != m)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "the result has %u components, M is %llu", rt->count,
                              (unsigned long long)m);
    if (layout > CVM_COOPVEC_MATRIX_LAYOUT_TRAINING_OPTIMAL)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "MemoryLayout %llu",
                              (unsigned long long)layout);
    int rm_cm = layout <= CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR;
    if (tr && rm_cm)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "Transpose with the %s layout (\"Transposing is not supported for the "
                              "RowMajorNV/ColumnMajorNV layouts\")",
                              layout_name((uint32_t)layout));
    if (is_fp8((uint32_t)mi) && rm_cm)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "an E4M3/E5M2 matrix in the %s layout: fp8 matrices must use an "
                              "optimal layout (VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090)",
                              layout_name((uint32_t)layout));
    if (rm_cm && !mm.stride)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "a %s matrix needs MatrixStride", layout_name((uint32_t)layout));
    int in_signed = (operands & SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask) != 0;
    int res_signed = (operands & SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask) != 0;
    cvm_scalar_kind isk = (cvm_scalar_kind)it->sk, rsk = (cvm_scalar_kind)rt->sk;
    int packed = ii == CVM_COMPONENT_TYPE_SINT8_PACKED || ii == CVM_COMPONENT_TYPE_UINT8_PACKED;
    uint32_t in_ct, res_ct;
    if (packed) {
        if (cvm_sk_is_float(isk) || cvm_sk_size(isk) != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a packed InputInterpretation needs 32-bit integer Input components");
        if ((uint64_t)it->count * 4 < k)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Input has %u components, too few to hold K = %llu packed values",
                                  it->count, (unsigned long long)k);
        in_ct = CVM_COMPONENT_TYPE_UINT32; /* a bit-cast: signedness does not matter */
    } else {
        if (it->count != k)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Input has %u components, K is %llu", it->count,
                                  (unsigned long long)k);
        in_ct = component_type_of(isk, in_signed);
    }
    res_ct = component_type_of(rsk, res_signed);
    if (!cvm_coopvec_combination_supported(in_ct, (uint32_t)ii, (uint32_t)mi, (uint32_t)bi, res_ct))
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                              "the combination input %s, inputInterpretation %s, matrixInterpretation "
                              "%s, biasInterpretation %s, result %s is not one coopvm supports (see "
                              "`coopvm info`)",
                              cvm_coopvec_component_name(in_ct),
                              cvm_coopvec_component_name((uint32_t)ii),
                              cvm_coopvec_component_name((uint32_t)mi),
                              add ? cvm_coopvec_component_name((uint32_t)bi) : "(none)",
                              cvm_coopvec_component_name(res_ct));
    uint32_t sc;
    CVM_TRY(pointer_operand(lw, in, mm.matrix, "Matrix", 0, 0, &sc));
    if (!(mm.offset_size = int_operand(lw, mm.matrix_offset)))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "MatrixOffset must be a 32-bit integer");
    if (add) {
        CVM_TRY(pointer_operand(lw, in, mm.bias, "Bias", 0, 0, &sc));
        if (!(mm.bias_offset_size = int_operand(lw, mm.bias_offset)))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "BiasOffset must be a 32-bit integer");
    }
    if (mm.stride && !(mm.stride_size = int_operand(lw, mm.stride)))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "MatrixStride must be an integer");
    mm.m = (uint32_t)m;
    mm.k = (uint32_t)k;
    mm.layout = (uint32_t)layout;
    mm.transpose = tr != 0;
    mm.input_interp = (uint32_t)ii;
    mm.matrix_interp = (uint32_t)mi;
    mm.bias_interp = (uint32_t)bi;
    mm.packed = (uint32_t)packed;
    mm.input_sk = cvm_sk_is_float(isk) ? isk : int_kind(isk, in_signed);
    mm.eff_sk = cvm_coopvec_component_kind((uint32_t)ii);
    /* fp8 interpretations of wider inputs keep f16 precision (SPEC_NOTES.md) */
    if (is_fp8((uint32_t)ii) && mm.input_sk != mm.eff_sk)
        mm.eff_sk = CVM_SK_F16;
    mm.matrix_sk = cvm_coopvec_component_kind((uint32_t)mi);
    mm.bias_sk = add ? cvm_coopvec_component_kind((uint32_t)bi) : CVM_SK_F32;
    mm.result_sk = rsk;
    if (!cvm_sk_is_float((cvm_scalar_kind)mm.matrix_sk))
        mm.domain = DOMAIN_I32;
    else if (narrow_float((cvm_scalar_kind)mm.eff_sk) && narrow_float((cvm_scalar_kind)mm.matrix_sk))
        mm.domain = DOMAIN_F32;
    else
        mm.domain = DOMAIN_F64;
    uint32_t words[sizeof(cv_mm) / 4];
    memcpy(words, &mm, sizeof(mm));
    out->extra = cvm_lower_extra(lw, words, (uint32_t)(sizeof(mm) / 4));
    if (out->extra == UINT32_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    out->nextra = (uint32_t)(sizeof(mm) / 4);
    out->fn = h_matmul;
    return CVM_SUCCESS;
}

/* Skips an optional Memory Operand and checks that nothing follows it. */
static cvm_result memory_operand(cvm_lower *lw, const spv_inst *in, uint32_t at)
{
    if (at >= in->word_count)
        return CVM_SUCCESS;
    uint32_t mask = in->words[at++];
    if (mask & SpvMemoryAccessAlignedMask)
        at++;
    if (mask & SpvMemoryAccessMakePointerAvailableMask)
        at++;
    if (mask & SpvMemoryAccessMakePointerVisibleMask)
        at++;
    if (at > in->word_count)
        return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "truncated memory operands");
    if (mask & SpvMemoryAccessMakePointerAvailableMask && in->opcode == SpvOpCooperativeVectorLoadNV)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "MakePointerAvailable is not valid with OpCooperativeVectorLoadNV");
    if (mask & SpvMemoryAccessMakePointerVisibleMask && in->opcode == SpvOpCooperativeVectorStoreNV)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "MakePointerVisible is not valid with OpCooperativeVectorStoreNV");
    return CVM_SUCCESS;
}

cvm_result cvm_lower_coopvec(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    const uint32_t *w = in->words;
    uint32_t sc = 0;
    switch (in->opcode) {
    case SpvOpCooperativeVectorLoadNV:
    case SpvOpCooperativeVectorStoreNV: {
        int load = in->opcode == SpvOpCooperativeVectorLoadNV;
        if (in->word_count < (load ? 5u : 4u))
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
        uint32_t ptr = load ? w[3] : w[1], off = load ? w[4] : w[2];
        const cvm_type *t = load ? cvm_lower_type(lw, w[1]) : coopvec_of(lw, w[3]);
        if (!t || t->tclass != CVM_TC_VECTOR || !t->coopvec)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s must be a cooperative vector",
                                  load ? "Result Type" : "Object");
        CVM_TRY(pointer_operand(lw, in, ptr, "Pointer", 1, 1, &sc));
        if (!(out->c = int_operand(lw, off)))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Offset must be a 32-bit integer");
        CVM_TRY(memory_operand(lw, in, load ? 5 : 4));
        out->a = ptr;
        out->b = off;
        out->d = load ? 0 : w[3];
        out->nextra = 0;
        out->sk = t->sk;
        out->ncomp = t->count;
        out->flags = sc == SpvStorageClassWorkgroup ? CV_WORKGROUP_POINTER : 0;
        out->extra = 0;
        if (!load)
            out->result = 0;
        out->fn = load ? h_load : h_store;
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeVectorMatrixMulNV:
    case SpvOpCooperativeVectorMatrixMulAddNV:
        return lower_matmul(lw, in, out);
    case SpvOpCooperativeVectorOuterProductAccumulateNV: {
        if (in->word_count < 7)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too few operands");
        const cvm_type *ta = coopvec_of(lw, w[3]), *tb = coopvec_of(lw, w[4]);
        if (!ta || !tb)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "A and B must be cooperative vectors");
        if (ta->sk != tb->sk)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "A and B must have the same component type");
        if (ta->sk != CVM_SK_F16)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                  "A and B of component type %s: the component types must be 16-bit "
                                  "floating-point (VUID-RuntimeSpirv-OpCooperativeVectorOuterProduct"
                                  "AccumulateNV-10093)",
                                  cvm_sk_name((cvm_scalar_kind)ta->sk));
        uint64_t layout, mi;
        CVM_TRY(const_operand(lw, in, w[5], "MemoryLayout", &layout));
        CVM_TRY(const_operand(lw, in, w[6], "MatrixInterpretation", &mi));
        if (layout > CVM_COOPVEC_MATRIX_LAYOUT_TRAINING_OPTIMAL)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "MemoryLayout %llu",
                                  (unsigned long long)layout);
        if (mi != CVM_COMPONENT_TYPE_FLOAT16 && mi != CVM_COMPONENT_TYPE_FLOAT32)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                  "MatrixInterpretation %s: accumulation is in FLOAT16 or FLOAT32 "
                                  "(VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093)",
                                  cvm_coopvec_component_name((uint32_t)mi));
        uint32_t stride = in->word_count > 7 ? w[7] : 0;
        if (layout <= CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR && !stride)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a %s matrix needs MatrixStride", layout_name((uint32_t)layout));
        if (in->word_count > 8)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "too many operands");
        CVM_TRY(pointer_operand(lw, in, w[1], "Pointer", 1, 1, &sc));
        uint32_t osize = int_operand(lw, w[2]), ssize = stride ? int_operand(lw, stride) : 4;
        if (!osize || !ssize)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "Offset and MatrixStride must be 32-bit integers");
        if (ta->count > CVM_MAX_COOPVEC_COMPONENTS || tb->count > CVM_MAX_COOPVEC_COMPONENTS)
            return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT, "vectors of %u and %u components",
                                  ta->count, tb->count);
        uint32_t x[6] = {ta->count, tb->count, (uint32_t)layout, stride, osize, ssize};
        out->extra = cvm_lower_extra(lw, x, 6);
        if (out->extra == UINT32_MAX)
            return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        out->nextra = 6;
        out->a = w[1];
        out->b = w[2];
        out->c = w[3];
        out->d = w[4];
        out->sk = ta->sk;
        out->sk2 = mi == CVM_COMPONENT_TYPE_FLOAT16 ? CVM_SK_F16 : CVM_SK_F32;
        out->flags = sc == SpvStorageClassWorkgroup ? CV_WORKGROUP_POINTER : 0;
        out->result = 0;
        out->fn = h_outer_product;
        return CVM_SUCCESS;
    }
    case SpvOpCooperativeVectorReduceSumAccumulateNV: {
        if (in->word_count != 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_MALFORMED, "takes three operands");
        const cvm_type *t = coopvec_of(lw, w[3]);
        if (!t)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "V must be a cooperative vector");
        if (t->sk != CVM_SK_F16 && t->sk != CVM_SK_F32)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                  "V of component type %s: it must be 16- or 32-bit floating-point "
                                  "(VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10092)",
                                  cvm_sk_name((cvm_scalar_kind)t->sk));
        CVM_TRY(pointer_operand(lw, in, w[1], "Pointer", 1, 1, &sc));
        if (!(out->d = int_operand(lw, w[2])))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Offset must be a 32-bit integer");
        out->a = w[1];
        out->b = w[2];
        out->c = w[3];
        out->nextra = 0;
        out->sk = t->sk;
        out->ncomp = t->count;
        out->flags = sc == SpvStorageClassWorkgroup ? CV_WORKGROUP_POINTER : 0;
        out->extra = 0;
        out->result = 0;
        out->fn = h_reduce_sum;
        return CVM_SUCCESS;
    }
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
