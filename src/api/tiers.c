/* Comparing the tiers: finding and describing a difference (tiers.h). */
#include "api/tiers.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spirv/spirv_grammar.h"

static uint64_t flip_byte; /* cvm_test_tiers_flip */

void cvm_test_tiers_flip(uint64_t n)
{
    __atomic_store_n(&flip_byte, n, __ATOMIC_RELAXED);
}

uint64_t cvm_tier_flip_byte(void)
{
    return __atomic_load_n(&flip_byte, __ATOMIC_RELAXED);
}

int cvm_tier_area_before(const cvm_tier_area *a, const cvm_tier_area *b)
{
    if (a->set != b->set)
        return a->set < b->set;
    if (a->binding != b->binding)
        return a->binding < b->binding;
    return a->element < b->element;
}

void cvm_tier_status_text(char *buf, size_t size, cvm_result r, const cvm_diagnostic *d)
{
    if (r == CVM_SUCCESS || !d)
        snprintf(buf, size, "%s", cvm_result_string(r));
    else
        snprintf(buf, size, "%s (%.300s)", cvm_result_string(r), d->message);
}

/* Appends to buf (a text of `size` bytes) as snprintf would. */
static void add(char *buf, size_t size, const char *fmt, ...) CVM_PRINTF(3, 4);
static void add(char *buf, size_t size, const char *fmt, ...)
{
    size_t have = strlen(buf);
    if (have + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + have, size - have, fmt, ap);
    va_end(ap);
}

/* The descriptor of a binding area, or NULL (a buffer the shader does not
 * declare). */
static const cvm_descriptor *descriptor_of(const cvm_program *p, const cvm_tier_area *a)
{
    for (uint32_t i = 0; i < p->ndescs; i++)
        if (p->descs[i].set == a->set && p->descs[i].binding == a->binding &&
            a->element < p->descs[i].array_size)
            return &p->descs[i];
    return NULL;
}

/* Walks type `tid` (memory layout) down to the scalar that holds byte
 * `off`: appends its place ("member 1 [37]") to path; returns 1 with its
 * kind, size and first byte, or 0 when the walk ends elsewhere (padding, a
 * type without a memory layout). */
static int place_of(const cvm_program *p, uint32_t tid, uint64_t off, char *path, size_t n,
                    uint8_t *o_sk, uint32_t *o_size, uint64_t *o_start)
{
    uint64_t start = 0;
    for (int depth = 0; depth < 32 && tid && tid < p->ntypes; depth++) {
        const cvm_type *t = &p->types[tid];
        switch (t->tclass) {
        case CVM_TC_BOOL:
        case CVM_TC_INT:
        case CVM_TC_FLOAT: {
            uint32_t sz = t->mem_size ? t->mem_size : t->size;
            if (!sz || off >= sz)
                return 0;
            *o_sk = t->sk;
            *o_size = sz;
            *o_start = start;
            return 1;
        }
        case CVM_TC_STRUCT: {
            uint32_t best = UINT32_MAX;
            for (uint32_t m = 0; m < t->nmembers; m++)
                if (t->member_mem_offsets[m] <= off &&
                    (best == UINT32_MAX || t->member_mem_offsets[m] > t->member_mem_offsets[best]))
                    best = m;
            if (best == UINT32_MAX)
                return 0;
            add(path, n, " member %u", best);
            off -= t->member_mem_offsets[best];
            start += t->member_mem_offsets[best];
            tid = t->member_types[best];
            break;
        }
        case CVM_TC_ARRAY:
        case CVM_TC_VECTOR:
        case CVM_TC_MATRIX: {
            uint32_t et = t->tclass == CVM_TC_MATRIX && t->mem_elem ? t->mem_elem : t->elem;
            if (!et || et >= p->ntypes)
                return 0;
            const cvm_type *e = &p->types[et];
            uint64_t stride = t->tclass == CVM_TC_ARRAY    ? t->array_stride
                              : t->tclass == CVM_TC_MATRIX ? t->matrix_stride
                                                           : t->comp_stride;
            if (!stride)
                stride = e->mem_size ? e->mem_size : e->size;
            if (!stride)
                return 0;
            uint64_t i = off / stride;
            if (t->count && i >= t->count)
                return 0;
            add(path, n, " [%" PRIu64 "]", i);
            off -= i * stride;
            start += i * stride;
            tid = et;
            break;
        }
        default:
            return 0;
        }
    }
    return 0;
}

/* A value of kind sk (size bytes at v) as text: hex, and the number where
 * the kind has an obvious one. */
static void value_text(char *buf, size_t n, uint8_t sk, const uint8_t *v, uint32_t size)
{
    uint64_t bits = 0;
    memcpy(&bits, v, size < 8 ? size : 8);
    snprintf(buf, n, "0x%0*" PRIx64, (int)(size < 8 ? size : 8) * 2, bits);
    float f;
    double d;
    switch (sk) {
    case CVM_SK_F32:
        memcpy(&f, v, 4);
        add(buf, n, " (%.9g)", (double)f);
        break;
    case CVM_SK_F64:
        memcpy(&d, v, 8);
        add(buf, n, " (%.17g)", d);
        break;
    case CVM_SK_F16:
        add(buf, n, " (%.6g)", (double)cvm_f16_to_f32((uint16_t)bits));
        break;
    case CVM_SK_BF16:
        add(buf, n, " (%.4g)", (double)cvm_bf16_to_f32((uint16_t)bits));
        break;
    case CVM_SK_S8:
    case CVM_SK_S16:
    case CVM_SK_S32:
    case CVM_SK_S64: {
        int sh = 64 - 8 * (int)size;
        add(buf, n, " (%" PRId64 ")", (int64_t)(bits << sh) >> sh);
        break;
    }
    case CVM_SK_U8:
    case CVM_SK_U16:
    case CVM_SK_U32:
    case CVM_SK_U64:
    case CVM_SK_BOOL:
        add(buf, n, " (%" PRIu64 ")", bits);
        break;
    default:
        break;
    }
}

/* The word holding the pointer that instruction `si` writes through, or 0
 * when it writes no memory. */
static uint32_t stored_pointer(const spv_inst *si)
{
    switch (si->opcode) {
    case SpvOpStore:
    case SpvOpCopyMemory:
    case SpvOpCopyMemorySized:
    case SpvOpAtomicStore:
    case SpvOpAtomicFlagClear:
    case SpvOpCooperativeMatrixStoreKHR:
    case SpvOpCooperativeMatrixStoreNV:
    case SpvOpCooperativeMatrixStoreTensorNV:
    case SpvOpCooperativeVectorStoreNV:
    case SpvOpCooperativeVectorOuterProductAccumulateNV:
    case SpvOpCooperativeVectorReduceSumAccumulateNV:
        return si->word_count > 1 ? si->words[1] : 0;
    case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange:
    case SpvOpAtomicCompareExchangeWeak:
    case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement:
    case SpvOpAtomicIAdd:
    case SpvOpAtomicISub:
    case SpvOpAtomicSMin:
    case SpvOpAtomicUMin:
    case SpvOpAtomicSMax:
    case SpvOpAtomicUMax:
    case SpvOpAtomicAnd:
    case SpvOpAtomicOr:
    case SpvOpAtomicXor:
    case SpvOpAtomicFAddEXT:
    case SpvOpAtomicFMinEXT:
    case SpvOpAtomicFMaxEXT:
    case SpvOpAtomicFlagTestAndSet:
        return si->word_count > 3 ? si->words[3] : 0;
    default:
        return 0;
    }
}

/* The variable pointer `id` is based on (through access chains and copies). */
static uint32_t base_variable(const spv_module *mod, uint32_t id, uint32_t bound)
{
    for (int hops = 0; hops < 64 && id && id < bound; hops++) {
        uint16_t op = mod->defs[id].opcode;
        if (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain &&
            op != SpvOpPtrAccessChain && op != SpvOpInBoundsPtrAccessChain &&
            op != SpvOpCopyObject)
            break;
        spv_inst ai;
        if (!spv_module_def_inst(mod, id, &ai) || ai.word_count < 4)
            break;
        id = ai.words[3];
    }
    return id;
}

/* Appends which instructions store to variable `var` (found statically:
 * stores through a pointer based on it), and places diag at the first. */
static void writers(const cvm_program *p, uint32_t var, char *buf, size_t n,
                    cvm_diagnostic *diag)
{
    uint32_t count = 0;
    const cvm_insn *first = NULL;
    for (uint32_t i = 0; i < p->ninsns; i++) {
        spv_inst si;
        if (!spv_module_inst_at(p->mod, p->insns[i].word_off, &si))
            continue;
        uint32_t ptr = stored_pointer(&si);
        if (!ptr || base_variable(p->mod, ptr, p->bound) != var)
            continue;
        if (!count++)
            first = &p->insns[i];
    }
    if (!count) {
        add(buf, n, "; no instruction stores to it by name (a device address, or a pointer "
                    "the tier chose)");
        return;
    }
    const spv_instruction_desc *d = spv_grammar_instruction(first->spv_op);
    const char *file = "";
    uint32_t line = 0, col = 0;
    int has_line = spv_module_source_line(p->mod, first->word_off, &file, &line, &col);
    if (count == 1)
        add(buf, n, "; stored by %s at word %u", d ? d->name : "an instruction", first->word_off);
    else
        add(buf, n, "; stored by %u instructions, the first %s at word %u", count,
            d ? d->name : "an instruction", first->word_off);
    if (has_line)
        add(buf, n, " (%s:%u)", file[0] ? file : "?", line);
    if (diag) {
        diag->word_offset = first->word_off;
        diag->opcode = first->spv_op;
        if (has_line) {
            snprintf(diag->file, sizeof(diag->file), "%s", file);
            diag->line = line;
        }
    }
}

cvm_result cvm_tier_compare(const cvm_program *p, const cvm_tier_area *areas, uint32_t n,
                            const uint8_t *compiled, cvm_diagnostic *o_diag)
{
    for (uint32_t i = 0; i < n; i++) {
        const cvm_tier_area *a = &areas[i];
        const uint8_t *c = compiled + a->at, *r = a->data;
        if (!memcmp(c, r, a->size))
            continue;
        size_t off = 0, ndiff = 0;
        while (c[off] == r[off])
            off++;
        for (size_t k = off; k < a->size; k++)
            ndiff += c[k] != r[k];
        char msg[700] = "";
        const cvm_descriptor *d = a->device ? NULL : descriptor_of(p, a);
        if (a->device) {
            add(msg, sizeof(msg), "the address-only buffer at device address 0x%" PRIx64,
                (uint64_t)CVM_ADDR(CVM_REGION_FIRST_DEVICE + a->slot, 0));
        } else {
            const char *name = d ? spv_module_name(p->mod, d->var) : NULL;
            add(msg, sizeof(msg), "set %u binding %u", a->set, a->binding);
            if (d && d->array_size > 1)
                add(msg, sizeof(msg), " element %u", a->element);
            if (name && name[0])
                add(msg, sizeof(msg), " (%s)", name);
            else if (!d)
                add(msg, sizeof(msg), " (not a descriptor of the shader)");
        }
        add(msg, sizeof(msg), ", byte %zu of %zu", off, a->size);
        /* the value there, by the block's type */
        uint8_t sk = 0;
        uint32_t size = 0;
        uint64_t start = 0;
        char path[160] = "";
        int known = 0;
        if (d && d->var < p->bound) {
            uint32_t pt = p->mod->defs[d->var].type;
            uint32_t tid = pt < p->ntypes ? p->types[pt].elem : 0;
            /* an array of blocks (a descriptor array): one block per element */
            if (tid && tid < p->ntypes && p->types[tid].tclass == CVM_TC_ARRAY &&
                p->types[p->types[tid].elem].tclass == CVM_TC_STRUCT)
                tid = p->types[tid].elem;
            known = place_of(p, tid, off, path, sizeof(path), &sk, &size, &start) &&
                    start + size <= a->size;
        }
        char vc[80], vr[80];
        if (known) {
            add(msg, sizeof(msg), " (the block's%s, %s)", path[0] ? path : " value",
                cvm_sk_name((cvm_scalar_kind)sk));
            value_text(vc, sizeof(vc), sk, c + start, size);
            value_text(vr, sizeof(vr), sk, r + start, size);
        } else {
            snprintf(vc, sizeof(vc), "0x%02x", c[off]);
            snprintf(vr, sizeof(vr), "0x%02x", r[off]);
        }
        add(msg, sizeof(msg), ": the compiled tier wrote %s, the interpreter %s; %zu %s", vc, vr,
            ndiff, ndiff == 1 ? "byte differs" : "bytes differ");
        if (o_diag)
            cvm_diag_clear(o_diag);
        if (d)
            writers(p, d->var, msg, sizeof(msg), o_diag);
        /* (the place writers set stays) */
        return cvm_diag_set(o_diag, CVM_ERROR_TIERS_DIFFER, "the tiers differ at %s", msg);
    }
    return CVM_SUCCESS;
}
