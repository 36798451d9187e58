/* Atomic instructions: OpAtomicLoad, Store, Exchange, CompareExchange(Weak),
 * IIncrement, IDecrement, IAdd, ISub, SMin, UMin, SMax, UMax, And, Or, Xor
 * on 8/16/32/64-bit integers, and OpAtomicFAddEXT / FMinEXT / FMaxEXT (and
 * Load, Store, Exchange) on f16, bf16, f32 and f64 scalars and, for
 * SPV_NV_shader_atomic_fp16_vector, f16 vectors (each component its own
 * atomic operation), on any memory a pointer reaches (StorageBuffer,
 * Workgroup, PhysicalStorageBuffer, Function...).
 *
 * The lanes of a group run in one OS thread, but different workgroups run on
 * different threads over the same buffers, so every operation is a real
 * atomic read-modify-write on the host memory (__atomic builtins; compare-
 * and-swap loops for min/max and floats), sequentially consistent whatever
 * the Memory Semantics say (stronger than any of them).  The active lanes of
 * an instruction are applied one after another in ascending lane order: the
 * value each gets back is the one its own operation replaced.
 *
 * Floats: FAdd of f32/f64 is the native operation; f16/bf16 add in double
 * and round once (exact before rounding).  FMin/FMax follow GLSL.std.450's
 * comparisons (cvm_fmin_text: the memory's value on a tie, +0 and -0
 * included) and return the other operand when one is NaN.  Addresses must
 * be aligned to the value size (the texts require it); a misaligned one
 * fails the dispatch. */
#include <math.h>
#include <string.h>

#include "exec/program.h"

/* insn fields: a pointer, b value (0 if none), c comparator (CompareExchange);
 * sk the value's component kind; ncomp its components (vectors: fp16 NV);
 * type the value type. */

static uint64_t load_n(const uint8_t *p, unsigned es)
{
    switch (es) {
    case 1: return __atomic_load_n(p, __ATOMIC_SEQ_CST);
    case 2: return __atomic_load_n((const uint16_t *)(const void *)p, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n((const uint32_t *)(const void *)p, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_SEQ_CST);
    }
}

static void store_n(uint8_t *p, uint64_t v, unsigned es)
{
    switch (es) {
    case 1: __atomic_store_n(p, (uint8_t)v, __ATOMIC_SEQ_CST); break;
    case 2: __atomic_store_n((uint16_t *)(void *)p, (uint16_t)v, __ATOMIC_SEQ_CST); break;
    case 4: __atomic_store_n((uint32_t *)(void *)p, (uint32_t)v, __ATOMIC_SEQ_CST); break;
    default: __atomic_store_n((uint64_t *)(void *)p, v, __ATOMIC_SEQ_CST); break;
    }
}

/* Compare-and-swap: on failure *expected gets the current value. */
static int cas_n(uint8_t *p, uint64_t *expected, uint64_t desired, unsigned es)
{
    switch (es) {
    case 1: {
        uint8_t e = (uint8_t)*expected;
        int ok = __atomic_compare_exchange_n(p, &e, (uint8_t)desired, 0, __ATOMIC_SEQ_CST,
                                             __ATOMIC_SEQ_CST);
        *expected = e;
        return ok;
    }
    case 2: {
        uint16_t e = (uint16_t)*expected;
        int ok = __atomic_compare_exchange_n((uint16_t *)(void *)p, &e, (uint16_t)desired, 0,
                                             __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        *expected = e;
        return ok;
    }
    case 4: {
        uint32_t e = (uint32_t)*expected;
        int ok = __atomic_compare_exchange_n((uint32_t *)(void *)p, &e, (uint32_t)desired, 0,
                                             __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        *expected = e;
        return ok;
    }
    default:
        return __atomic_compare_exchange_n((uint64_t *)(void *)p, expected, desired, 0,
                                           __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
}

static uint64_t mask_of(unsigned es)
{
    return es >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (es * 8)) - 1;
}

static int64_t sext(uint64_t v, unsigned es)
{
    if (es >= 8)
        return (int64_t)v;
    unsigned sh = 64 - es * 8;
    return (int64_t)(v << sh) >> sh;
}

/* The new value of a read-modify-write given the old one (bit patterns). */
static uint64_t combine(uint32_t op, cvm_scalar_kind k, uint64_t old, uint64_t v)
{
    unsigned es = cvm_sk_size(k);
    uint64_t m = mask_of(es);
    switch (op) {
    case SpvOpAtomicExchange: return v;
    case SpvOpAtomicIIncrement: return (old + 1) & m;
    case SpvOpAtomicIDecrement: return (old - 1) & m;
    case SpvOpAtomicIAdd: return (old + v) & m;
    case SpvOpAtomicISub: return (old - v) & m;
    case SpvOpAtomicSMin: return sext(v, es) < sext(old, es) ? v : old;
    case SpvOpAtomicSMax: return sext(v, es) > sext(old, es) ? v : old;
    case SpvOpAtomicUMin: return (v & m) < (old & m) ? v : old;
    case SpvOpAtomicUMax: return (v & m) > (old & m) ? v : old;
    case SpvOpAtomicAnd: return old & v;
    case SpvOpAtomicOr: return old | v;
    case SpvOpAtomicXor: return old ^ v;
    default: break;
    }
    /* floats */
    uint8_t bo[8], bv[8], br[8];
    memcpy(bo, &old, 8);
    memcpy(bv, &v, 8);
    uint64_t res = 0;
    if (k == CVM_SK_F32) {
        float x, y, z;
        memcpy(&x, bo, 4);
        memcpy(&y, bv, 4);
        z = op == SpvOpAtomicFAddEXT ? x + y
            : op == SpvOpAtomicFMinEXT ? (float)cvm_fmin_text((double)x, (double)y)
                                       : (float)cvm_fmax_text((double)x, (double)y);
        memcpy(&res, &z, 4);
        return res;
    }
    double x = cvm_load_as_f64(k, bo), y = cvm_load_as_f64(k, bv);
    /* the memory's value on a tie (+0 and -0 included), as GLSL.std.450's
     * FMin and FMax give their first operand */
    double z = op == SpvOpAtomicFAddEXT    ? x + y
               : op == SpvOpAtomicFMinEXT ? cvm_fmin_text(x, y)
                                          : cvm_fmax_text(x, y);
    if (k == CVM_SK_F64) {
        memcpy(&res, &z, 8);
        return res;
    }
    cvm_store_from_f64(k, br, z, 0);
    memcpy(&res, br, es);
    return res;
}

/* Lane l's operation of atomic instruction `in` at address `addr` (exec.h's
 * form), Value at vp and Comparator at cp (register layout, NULL when the
 * instruction has none), the value it replaced to rp (NULL: no result). */
static cvm_result atomic_lane(cvm_exec *ex, const cvm_insn *in, uint32_t l, uint64_t addr,
                              const uint8_t *vp, const uint8_t *cp, uint8_t *rp)
{
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    uint32_t op = in->spv_op;
    int write = op != SpvOpAtomicLoad;
    int skip;
    uint8_t *m = cvm_mem_access(ex, in, addr, (uint64_t)es * in->ncomp, write, l, &skip);
    if (!m) {
        if (!skip)
            return ex->diag ? ex->diag->result : CVM_ERROR_OUT_OF_BOUNDS;
        if (rp) /* robust mode: the access is dropped and reads zero */
            memset(rp, 0, (size_t)es * in->ncomp);
        return CVM_SUCCESS;
    }
    if (((uintptr_t)m) % es != 0)
        return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_MODULE,
                             "invocation %u: atomic access to %u-byte value at misaligned "
                             "address 0x%llx",
                             l, es, (unsigned long long)addr);
    for (uint32_t i = 0; i < in->ncomp; i++) {
        uint8_t *p = m + (size_t)i * es;
        uint64_t v = 0, c = 0, old;
        if (vp)
            memcpy(&v, vp + (size_t)i * es, es);
        if (cp)
            memcpy(&c, cp + (size_t)i * es, es);
        switch (op) {
        case SpvOpAtomicLoad:
            old = load_n(p, es);
            break;
        case SpvOpAtomicStore:
            store_n(p, v, es);
            continue;
        case SpvOpAtomicCompareExchange:
        case SpvOpAtomicCompareExchangeWeak:
            old = c;
            cas_n(p, &old, v, es); /* old: the value found, equal to c on success */
            break;
        case SpvOpAtomicIAdd:
        case SpvOpAtomicISub:
        case SpvOpAtomicIIncrement:
        case SpvOpAtomicIDecrement:
        case SpvOpAtomicAnd:
        case SpvOpAtomicOr:
        case SpvOpAtomicXor:
        case SpvOpAtomicExchange:
            if (es == 4 || es == 8) { /* the native instructions */
                uint64_t d = op == SpvOpAtomicIIncrement ? 1 : op == SpvOpAtomicIDecrement ? mask_of(es) : v;
                if (op == SpvOpAtomicISub)
                    d = (0 - v) & mask_of(es);
                if (es == 4) {
                    uint32_t *q = (uint32_t *)(void *)p, d32 = (uint32_t)d;
                    old = op == SpvOpAtomicAnd   ? __atomic_fetch_and(q, d32, __ATOMIC_SEQ_CST)
                          : op == SpvOpAtomicOr  ? __atomic_fetch_or(q, d32, __ATOMIC_SEQ_CST)
                          : op == SpvOpAtomicXor ? __atomic_fetch_xor(q, d32, __ATOMIC_SEQ_CST)
                          : op == SpvOpAtomicExchange
                              ? __atomic_exchange_n(q, d32, __ATOMIC_SEQ_CST)
                              : __atomic_fetch_add(q, d32, __ATOMIC_SEQ_CST);
                } else {
                    uint64_t *q = (uint64_t *)(void *)p;
                    old = op == SpvOpAtomicAnd   ? __atomic_fetch_and(q, d, __ATOMIC_SEQ_CST)
                          : op == SpvOpAtomicOr  ? __atomic_fetch_or(q, d, __ATOMIC_SEQ_CST)
                          : op == SpvOpAtomicXor ? __atomic_fetch_xor(q, d, __ATOMIC_SEQ_CST)
                          : op == SpvOpAtomicExchange
                              ? __atomic_exchange_n(q, d, __ATOMIC_SEQ_CST)
                              : __atomic_fetch_add(q, d, __ATOMIC_SEQ_CST);
                }
                break;
            }
            /* 8- and 16-bit: compare-and-swap */
            /* fall through */
        default:
            old = load_n(p, es);
            while (!cas_n(p, &old, combine(op, k, old, v), es))
                ;
            break;
        }
        if (rp)
            memcpy(rp + (size_t)i * es, &old, es);
    }
    return CVM_SUCCESS;
}

static cvm_result h_atomic(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val ptr = ex->vals[in->a];
    cvm_val val = in->b ? ex->vals[in->b] : ptr;
    cvm_val cmp = in->c ? ex->vals[in->c] : ptr;
    cvm_val r = in->result ? ex->vals[in->result] : ptr;
    CVM_FOR_ACTIVE(ex, l) {
        uint64_t addr;
        memcpy(&addr, CVM_LANE(ptr, l), 8);
        cvm_result res = atomic_lane(ex, in, l, addr, in->b ? CVM_LANE(val, l) : NULL,
                                     in->c ? CVM_LANE(cmp, l) : NULL,
                                     in->result ? CVM_LANE(r, l) : NULL);
        if (res != CVM_SUCCESS)
            return res;
    }
    return CVM_SUCCESS;
}

int cvm_atomic_insn(const cvm_insn *in)
{
    return in->fn == h_atomic;
}

cvm_result cvm_atomic_lane(cvm_exec *ex, const cvm_insn *in, uint32_t lane, uint64_t addr,
                           const uint8_t *value, const uint8_t *comparator, uint8_t *result)
{
    return atomic_lane(ex, in, lane, addr, value, comparator, result);
}

/* h_atomic reads Value and Comparator at the Result Type's width and
 * components: "The type of Value must be the same as Result Type" (and of
 * Comparator).  Types of one id, or of the same shape, have slots alike. */
static cvm_result operand_has_type(cvm_lower *lw, const spv_inst *inst, uint32_t id,
                                   const char *name, uint32_t tid)
{
    uint32_t vt = cvm_lower_type_of(lw, id);
    const cvm_type *x = cvm_lower_type(lw, vt), *y = cvm_lower_type(lw, tid);
    if (vt != tid && (x->tclass != y->tclass || x->sk != y->sk || x->size != y->size ||
                      x->count != y->count))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Result Type %%%u is not the type of %s %%%u", tid, name, id);
    return CVM_SUCCESS;
}

cvm_result cvm_lower_atomic(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    const uint32_t *w = inst->words;
    uint32_t op = inst->opcode, n = inst->word_count;
    uint32_t vtype;
    switch (op) {
    case SpvOpAtomicLoad:
    case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement:
        if (n < 6)
            return cvm_lower_fail(lw, inst, CVM_ERROR_MALFORMED, "too few operands");
        out->a = w[3];
        vtype = w[1];
        break;
    case SpvOpAtomicStore:
        if (n < 5)
            return cvm_lower_fail(lw, inst, CVM_ERROR_MALFORMED, "too few operands");
        out->a = w[1];
        out->b = w[4];
        out->result = 0;
        out->type = 0;
        vtype = cvm_lower_type_of(lw, w[4]);
        break;
    case SpvOpAtomicExchange: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax:
    case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
    case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT: case SpvOpAtomicFMaxEXT:
        if (n < 7)
            return cvm_lower_fail(lw, inst, CVM_ERROR_MALFORMED, "too few operands");
        out->a = w[3];
        out->b = w[6];
        vtype = w[1];
        break;
    case SpvOpAtomicCompareExchange:
    case SpvOpAtomicCompareExchangeWeak:
        if (n < 9)
            return cvm_lower_fail(lw, inst, CVM_ERROR_MALFORMED, "too few operands");
        out->a = w[3];
        out->b = w[7];
        out->c = w[8];
        vtype = w[1];
        break;
    case SpvOpAtomicFlagTestAndSet:
    case SpvOpAtomicFlagClear:
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED,
                              "atomic flags belong to the Kernel capability");
    default:
        return CVM_ERROR_NOT_FOUND;
    }
    const cvm_type *t = cvm_lower_type(lw, vtype);
    const cvm_type *pt = cvm_lower_type(lw, cvm_lower_type_of(lw, out->a));
    if (pt->tclass != CVM_TC_POINTER)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE, "Pointer is not a pointer");
    out->ncomp = t->tclass == CVM_TC_VECTOR ? t->count : 1;
    out->sk = t->sk;
    cvm_scalar_kind k = (cvm_scalar_kind)t->sk;
    int is_float = cvm_sk_is_float(k);
    int fop = op == SpvOpAtomicFAddEXT || op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT;
    int any = op == SpvOpAtomicLoad || op == SpvOpAtomicStore || op == SpvOpAtomicExchange;
    if (t->tclass != CVM_TC_INT && t->tclass != CVM_TC_FLOAT &&
        !(t->tclass == CVM_TC_VECTOR && is_float && (fop || any)))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "atomic operation on a value of this type");
    if (k == CVM_SK_E4M3 || k == CVM_SK_E5M2 || k == CVM_SK_BOOL)
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED, "atomics on %s",
                              cvm_sk_name(k));
    if (!any && fop != is_float)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "the operation does not suit the %s value type", cvm_sk_name(k));
    if (op != SpvOpAtomicStore && out->b)
        CVM_TRY(operand_has_type(lw, inst, out->b, "Value", vtype));
    if (out->c)
        CVM_TRY(operand_has_type(lw, inst, out->c, "Comparator", vtype));
    /* "The type of the value pointed to by Pointer must be the same as Result
     * Type" (of Value for OpAtomicStore); untyped pointers have no pointee */
    if (pt->elem) {
        const cvm_type *et = cvm_lower_type(lw, pt->elem);
        if (et->tclass != CVM_TC_NONE && et->size != t->size)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "Pointer %%%u points to a value of %u bytes, not one of the %u "
                                  "bytes of type %%%u",
                                  out->a, et->size, t->size, vtype);
    }
    out->fn = h_atomic;
    return CVM_SUCCESS;
}
