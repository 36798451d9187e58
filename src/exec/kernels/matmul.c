/* MulAdd dispatch: which variant runs a MulAdd on this CPU, and its working
 * memory.  The variants are in matmul_avx512.c (AVX-512: f32 with FMA, int8
 * with VNNI, the opt-in bf16 pairs) and matmul_avx2.c (the same numerics
 * with AVX2 + FMA + F16C, and the double-accumulating one); the reference,
 * which defines the numerics of each mode, in matmul_ref.c.
 *
 * The CPU's extensions are read once from CPUID and XGETBV (the OS must save
 * the YMM / ZMM state: XCR0 bits 1-2 for AVX, 5-7 for AVX-512); racing first
 * calls store the same value. */
#include <stdatomic.h>
#include <string.h>

#include "cvm_common.h"
#include "exec/kernels/matmul_internal.h"

#if CVM_MM_HAVE_X86
#include <cpuid.h>
#endif

static int mm_int8_kind(cvm_scalar_kind k)
{
    return k == CVM_SK_S8 || k == CVM_SK_U8;
}

static int mm_int_kind(cvm_scalar_kind k)
{
    return !cvm_sk_is_float(k) && k != CVM_SK_BOOL && k < CVM_SK_COUNT;
}

/* CPU features -------------------------------------------------------------- */

#if CVM_MM_HAVE_X86
static uint64_t mm_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static unsigned mm_probe(void)
{
    unsigned eax, ebx, ecx, edx, isa = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return 0;
    int fma = (ecx & bit_FMA) != 0, f16c = (ecx & bit_F16C) != 0;
    if (!(ecx & bit_OSXSAVE) || !(ecx & bit_AVX))
        return 0;
    uint64_t xcr0 = mm_xgetbv0();
    if ((xcr0 & 6) != 6 || __get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    if ((ebx & bit_AVX2) && fma && f16c)
        isa |= CVM_MM_ISA_AVX2;
    unsigned avx512 = bit_AVX512F | bit_AVX512BW | bit_AVX512DQ | bit_AVX512VL;
    if ((isa & CVM_MM_ISA_AVX2) && (ebx & avx512) == avx512 && (xcr0 & 0xe6) == 0xe6) {
        isa |= CVM_MM_ISA_AVX512;
        if (ecx & bit_AVX512VNNI)
            isa |= CVM_MM_ISA_AVX512_VNNI;
        unsigned eax1, ebx1, ecx1, edx1;
        __cpuid_count(7, 1, eax1, ebx1, ecx1, edx1);
        (void)ebx1, (void)ecx1, (void)edx1;
        if (eax >= 1 && (eax1 & (1u << 5))) /* CPUID.(7,1):EAX[5] AVX512_BF16 */
            isa |= CVM_MM_ISA_AVX512_BF16;
    }
    return isa;
}
#endif

/* 0 = not probed yet; else the mask with bit 31 set. */
static _Atomic unsigned mm_isa_state;

unsigned cvm_muladd_cpu_isa(void)
{
    unsigned s = atomic_load_explicit(&mm_isa_state, memory_order_relaxed);
    if (s == 0) {
#if CVM_MM_HAVE_X86
        s = mm_probe() | 0x80000000u;
#else
        s = 0x80000000u;
#endif
        atomic_store_explicit(&mm_isa_state, s, memory_order_relaxed);
    }
    return s & ~0x80000000u;
}

/* Dispatch ------------------------------------------------------------------- */

typedef enum mm_variant {
    MM_REFERENCE,
    MM_AVX512_F32,
    MM_AVX2_F32,
    MM_AVX2_F64,
    MM_AVX512_VNNI_I8,
    MM_AVX2_I8,
    MM_AVX512_BF16
} mm_variant;

static mm_variant mm_choose(const cvm_muladd_desc *d, unsigned isa)
{
    if (d->m == 0 || d->n == 0)
        return MM_REFERENCE;
    if (cvm_sk_is_float(d->r_kind)) {
        if (cvm_mm_uses_f32(d)) {
            if (d->mode == CVM_MULADD_BF16_PAIRS && d->a_kind == CVM_SK_BF16 &&
                d->b_kind == CVM_SK_BF16 && (isa & CVM_MM_ISA_AVX512) &&
                (isa & CVM_MM_ISA_AVX512_BF16))
                return MM_AVX512_BF16;
            if (isa & CVM_MM_ISA_AVX512)
                return MM_AVX512_F32;
            if (isa & CVM_MM_ISA_AVX2)
                return MM_AVX2_F32;
            return MM_REFERENCE;
        }
        if ((isa & CVM_MM_ISA_AVX2) && cvm_mm_narrow_float(d->a_kind) &&
            cvm_mm_narrow_float(d->b_kind) && cvm_sk_is_float(d->c_kind))
            return MM_AVX2_F64;
        return MM_REFERENCE;
    }
    if (mm_int8_kind(d->a_kind) && mm_int8_kind(d->b_kind) && mm_int_kind(d->c_kind) &&
        mm_int_kind(d->r_kind) && d->k <= CVM_MM_I8_MAX_K) {
        if ((isa & CVM_MM_ISA_AVX512) && (isa & CVM_MM_ISA_AVX512_VNNI))
            return MM_AVX512_VNNI_I8;
        if (isa & CVM_MM_ISA_AVX2)
            return MM_AVX2_I8;
    }
    return MM_REFERENCE;
}

/* Bytes of working memory, before alignment. */
static size_t mm_work(mm_variant v, const cvm_muladd_desc *d)
{
    switch (v) {
#if CVM_MM_HAVE_X86
    case MM_AVX512_F32: return cvm_mm_avx512_f32_work(d);
    case MM_AVX2_F32: return cvm_mm_avx2_f32_work(d);
    case MM_AVX2_F64: return cvm_mm_avx2_f64_work(d);
    case MM_AVX512_VNNI_I8: return cvm_mm_avx512_vnni_i8_work(d);
    case MM_AVX2_I8: return cvm_mm_avx2_i8_work(d);
    case MM_AVX512_BF16: return cvm_mm_avx512_bf16_work(d);
#endif
    default: return 0;
    }
}

static const char *mm_name(mm_variant v)
{
    switch (v) {
    case MM_AVX512_F32: return "avx512_f32";
    case MM_AVX2_F32: return "avx2_f32";
    case MM_AVX2_F64: return "avx2_f64";
    case MM_AVX512_VNNI_I8: return "avx512_vnni_i8";
    case MM_AVX2_I8: return "avx2_i8";
    case MM_AVX512_BF16: return "avx512_bf16_pairs";
    case MM_REFERENCE: break;
    }
    return "reference";
}

#define MM_ALIGN 64

const char *cvm_muladd_variant_isa(const cvm_muladd_desc *d, unsigned isa)
{
    return mm_name(mm_choose(d, isa & cvm_muladd_cpu_isa()));
}

const char *cvm_muladd_variant(const cvm_muladd_desc *d)
{
    return cvm_muladd_variant_isa(d, ~0u);
}

size_t cvm_muladd_work_size(const cvm_muladd_desc *d)
{
    size_t w = mm_work(mm_choose(d, cvm_muladd_cpu_isa()), d);
    return w ? w + MM_ALIGN : 0;
}

static void mm_run(const cvm_muladd_desc *d, mm_variant v, size_t need);

void cvm_muladd_isa(const cvm_muladd_desc *d, unsigned isa)
{
    mm_variant v = mm_choose(d, isa & cvm_muladd_cpu_isa());
    mm_run(d, v, v == MM_REFERENCE ? 0 : mm_work(v, d) + MM_ALIGN);
}

cvm_muladd_plan cvm_muladd_plan_for(const cvm_muladd_desc *d)
{
    mm_variant v = mm_choose(d, cvm_muladd_cpu_isa());
    cvm_muladd_plan plan = {(uint32_t)v, v == MM_REFERENCE ? 0 : mm_work(v, d) + MM_ALIGN};
    return plan;
}

void cvm_muladd_planned(const cvm_muladd_desc *d, const cvm_muladd_plan *plan)
{
    mm_run(d, (mm_variant)plan->variant, plan->work_size);
}

/* Variant v with `need` bytes of working memory (its own, before
 * alignment). */
static void mm_run(const cvm_muladd_desc *d, mm_variant v, size_t need)
{
    if (v == MM_REFERENCE) {
        cvm_muladd_reference(d);
        return;
    }
    void *mem = NULL;
    uint8_t *w = d->work;
    if (!w || d->work_size < need) {
        mem = cvm_malloc(need);
        if (!mem) {
            cvm_muladd_reference(d); /* same results, no memory */
            return;
        }
        w = mem;
    }
    w = (uint8_t *)(((uintptr_t)w + MM_ALIGN - 1) & ~(uintptr_t)(MM_ALIGN - 1));
    switch (v) {
#if CVM_MM_HAVE_X86
    case MM_AVX512_F32: cvm_mm_avx512_f32(d, w); break;
    case MM_AVX2_F32: cvm_mm_avx2_f32(d, w); break;
    case MM_AVX2_F64: cvm_mm_avx2_f64(d, w); break;
    case MM_AVX512_VNNI_I8: cvm_mm_avx512_vnni_i8(d, w); break;
    case MM_AVX2_I8: cvm_mm_avx2_i8(d, w); break;
    case MM_AVX512_BF16: cvm_mm_avx512_bf16(d, w); break;
#endif
    default: cvm_muladd_reference(d); break;
    }
    cvm_mem_free(mem);
}

void cvm_muladd(const cvm_muladd_desc *d)
{
    cvm_muladd_isa(d, ~0u);
}
