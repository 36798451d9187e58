/* Lowering: a module and a specialization become a cvm_program.  Types get
 * their register and memory layouts, constants (specialization included)
 * their values, variables their regions, and every function an array of
 * internal instructions in structured block order. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/program.h"
#include "exec/uniform.h"

struct cvm_lower {
    cvm_program *prog;
    const spv_module *mod;
    cvm_diagnostic *diag;
    const cvm_specialization *specs;
    uint32_t nspecs;
    uint32_t *block_of_label; /* [bound]: block index in the function being lowered */
    uint64_t const_cap;
    uint64_t const_used;
    uint32_t types_cap;       /* entries allocated in prog->types */
    uint32_t *layout_of;      /* [bound]: see cvm_lower_layout_of */
    int wg_explicit;          /* WorkgroupMemoryExplicitLayoutKHR declared */
    int wg_blocks;            /* and the Workgroup variables are Blocks: explicitly laid
                                 out (the extension allows all or none to be) */
    uint64_t wg_block_offset; /* where the aliased Workgroup Block variables start,
                                 UINT64_MAX until the first */
    uint8_t *umarks;          /* [bound]: cvm_uniform_analyze's marks */
    uint8_t *dead;            /* [bound]: find_dead_loads' DEAD_LOAD and DEAD_VAR */
    uint32_t sg_size;         /* the subgroup size dispatches will use */
};

/* ---- helpers for families ------------------------------------------------- */

const cvm_program *cvm_lower_program(const cvm_lower *lw)
{
    return lw->prog;
}

uint32_t cvm_lower_subgroup_size(const cvm_lower *lw)
{
    return lw->sg_size;
}

const cvm_type *cvm_lower_type(const cvm_lower *lw, uint32_t type_id)
{
    static const cvm_type none;
    if (type_id == 0 || type_id >= lw->prog->ntypes)
        return &none;
    return &lw->prog->types[type_id];
}

uint32_t cvm_lower_layout_of(const cvm_lower *lw, uint32_t id)
{
    return id < lw->prog->bound ? lw->layout_of[id] : 0;
}

void cvm_lower_set_layout(cvm_lower *lw, uint32_t id, uint32_t layout_type)
{
    if (id < lw->prog->bound)
        lw->layout_of[id] = layout_type;
}

int cvm_lower_explicit_layout(const cvm_lower *lw, uint32_t sc)
{
    switch (sc) {
    case SpvStorageClassStorageBuffer:
    case SpvStorageClassUniform:
    case SpvStorageClassPushConstant:
    case 255: /* PhysicalStorageBuffer (cvm_type.storage_class caps at 255) */
        return 1;
    case SpvStorageClassWorkgroup:
        return lw->wg_blocks;
    default:
        return 0;
    }
}

uint32_t cvm_lower_type_of(const cvm_lower *lw, uint32_t id)
{
    if (id == 0 || id >= lw->mod->bound)
        return 0;
    return lw->mod->defs[id].type;
}

uint32_t cvm_lower_extra(cvm_lower *lw, const uint32_t *words, uint32_t n)
{
    cvm_program *p = lw->prog;
    if (p->nextra + n > p->extra_cap || !p->extra) {
        uint32_t ncap = p->extra_cap ? p->extra_cap * 2 : 256;
        while (ncap < p->nextra + n)
            ncap *= 2;
        uint32_t *ne = cvm_realloc(p->extra, ncap * sizeof(uint32_t));
        if (!ne)
            return UINT32_MAX;
        p->extra = ne;
        p->extra_cap = ncap;
    }
    uint32_t at = p->nextra;
    if (n)
        memcpy(p->extra + at, words, n * sizeof(uint32_t));
    p->nextra += n;
    return at;
}

int cvm_lower_const_u64(const cvm_lower *lw, uint32_t id, uint64_t *o_value)
{
    const cvm_program *p = lw->prog;
    if (id == 0 || id >= p->bound || p->const_offset[id] == UINT64_MAX)
        return 0;
    const cvm_type *t = &p->types[lw->mod->defs[id].type];
    const uint8_t *v = p->const_data + p->const_offset[id];
    switch (t->tclass) {
    case CVM_TC_BOOL:
        *o_value = v[0];
        return 1;
    case CVM_TC_INT:
        *o_value = cvm_load_as_u64((cvm_scalar_kind)t->sk, v);
        if (cvm_sk_is_signed_int((cvm_scalar_kind)t->sk))
            *o_value = (uint64_t)cvm_load_as_s64((cvm_scalar_kind)t->sk, v);
        return 1;
    default:
        return 0;
    }
}

cvm_result cvm_lower_int_scalar(cvm_lower *lw, const spv_inst *inst, uint32_t id,
                                const char *operand, uint32_t *o_width)
{
    const cvm_type *t = cvm_lower_type(lw, cvm_lower_type_of(lw, id));
    if (t->tclass != CVM_TC_INT || (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "%s %%%u is not an integer scalar of 8, 16, 32 or 64 bits", operand,
                              id);
    if (o_width)
        *o_width = t->size;
    return CVM_SUCCESS;
}

cvm_result cvm_lower_fail(cvm_lower *lw, const spv_inst *inst, cvm_result r, const char *fmt, ...)
{
    if (!lw->diag)
        return r;
    va_list ap;
    va_start(ap, fmt);
    char msg[600];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    const spv_instruction_desc *d = inst ? spv_grammar_instruction(inst->opcode) : NULL;
    if (inst)
        cvm_diag_at(lw->diag, r, inst->offset, inst->opcode, "%s (word %u): %s",
                    d ? d->name : "instruction", inst->offset, msg);
    else
        cvm_diag_set(lw->diag, r, "%s", msg);
    if (inst)
        spv_module_locate(lw->mod, inst->offset, lw->diag);
    return r;
}

/* ---- types ------------------------------------------------------------------ */

static uint32_t align_up32(uint32_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static cvm_result int_sk(uint32_t width, uint32_t sign, uint8_t *o_sk)
{
    switch (width) {
    case 8: *o_sk = sign ? CVM_SK_S8 : CVM_SK_U8; return CVM_SUCCESS;
    case 16: *o_sk = sign ? CVM_SK_S16 : CVM_SK_U16; return CVM_SUCCESS;
    case 32: *o_sk = sign ? CVM_SK_S32 : CVM_SK_U32; return CVM_SUCCESS;
    case 64: *o_sk = sign ? CVM_SK_S64 : CVM_SK_U64; return CVM_SUCCESS;
    default: return CVM_ERROR_UNSUPPORTED;
    }
}

static int decoration_u32(const spv_module *mod, uint32_t target, uint32_t member, uint32_t deco,
                          uint32_t *o_value)
{
    const spv_decoration *d = spv_module_find_decoration(mod, target, member, deco);
    if (!d)
        return 0;
    if (o_value)
        *o_value = spv_decoration_operand(mod, d, 0);
    return 1;
}

/* The scope whose instances each hold a copy of a variable of type `tid`:
 * 0 when it holds no cooperative matrix (a copy per invocation), 2 when its
 * matrices are all of workgroup scope (one copy), else 1 (a copy per
 * subgroup).  The rule of ops/memory.c matrix_scope_of for Function
 * variables. */
static int type_matrix_scope(const cvm_program *p, uint32_t tid)
{
    const cvm_type *t = &p->types[tid];
    switch (t->tclass) {
    case CVM_TC_COOPMAT:
        return t->scope == SpvScopeWorkgroup ? 2 : 1;
    case CVM_TC_ARRAY:
        return type_matrix_scope(p, t->elem);
    case CVM_TC_STRUCT: {
        int s = 0;
        for (uint32_t i = 0; i < t->nmembers; i++) {
            int m = type_matrix_scope(p, t->member_types[i]);
            if (m && (!s || m < s))
                s = m;
        }
        return s;
    }
    default:
        return 0;
    }
}

/* 1 when type `tid` is or includes a 4- or 6-bit float (Float4E2M1EXT,
 * Float6E2M3EXT, Float6E3M2EXT), which SPV_EXT_ocp_microscaling_types
 * allows "only ... with the Function and Private storage classes". */
static int type_has_sub_byte_float(const cvm_program *p, uint32_t tid, int depth)
{
    const cvm_type *t = &p->types[tid];
    if (depth > 32)
        return 0;
    switch (t->tclass) {
    case CVM_TC_FLOAT:
        return t->sk == CVM_SK_E2M1 || t->sk == CVM_SK_E2M3 || t->sk == CVM_SK_E3M2;
    case CVM_TC_VECTOR:
    case CVM_TC_MATRIX:
    case CVM_TC_ARRAY:
        return type_has_sub_byte_float(p, t->elem, depth + 1);
    case CVM_TC_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++)
            if (type_has_sub_byte_float(p, t->member_types[i], depth + 1))
                return 1;
        return 0;
    default:
        return 0;
    }
}

/* ---- layout variants ----------------------------------------------------
 * MatrixStride and RowMajor decorate the struct member that holds a matrix
 * (or an array of them), not the matrix type: one matrix type can be laid
 * out differently in two members.  Each such member gets a copy of its type
 * (a new id past the module's bound) whose memory layout says it, with the
 * register layout unchanged. */

/* A copy of type `from` at a new id; 0 when out of memory. */
static uint32_t new_type(cvm_lower *lw, uint32_t from)
{
    cvm_program *p = lw->prog;
    if (p->ntypes == lw->types_cap) {
        uint32_t ncap = lw->types_cap + lw->types_cap / 2 + 16;
        cvm_type *nt = cvm_realloc(p->types, (size_t)ncap * sizeof(cvm_type));
        if (!nt)
            return 0;
        p->types = nt;
        lw->types_cap = ncap;
    }
    uint32_t id = p->ntypes++;
    p->types[id] = p->types[from];
    /* only matrices, vectors and arrays are copied: no member arrays to share */
    p->types[id].member_types = NULL;
    p->types[id].member_offsets = NULL;
    p->types[id].member_mem_offsets = NULL;
    p->types[id].nmembers = 0;
    return id;
}

/* The type member `tid` has in memory with MatrixStride `stride` (0: none)
 * and RowMajor `row_major`: `tid` itself, or a variant. */
static cvm_result member_layout(cvm_lower *lw, const spv_inst *in, uint32_t tid, uint32_t stride,
                                int row_major, int depth, uint32_t *o_tid)
{
    cvm_program *p = lw->prog;
    *o_tid = tid;
    if (depth > 16)
        return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT, "arrays nested more than 16 deep");
    if (p->types[tid].tclass == CVM_TC_ARRAY) {
        uint32_t eid;
        CVM_TRY(member_layout(lw, in, p->types[tid].elem, stride, row_major, depth + 1, &eid));
        if (eid == p->types[tid].elem)
            return CVM_SUCCESS;
        uint32_t nid = new_type(lw, tid);
        if (!nid)
            return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        cvm_type *nt = &p->types[nid];
        nt->elem = eid;
        nt->has_layout = 1;
        nt->mem_size = nt->count ? (nt->count - 1) * nt->array_stride + p->types[eid].mem_size
                                 : 0;
        *o_tid = nid;
        return CVM_SUCCESS;
    }
    if (p->types[tid].tclass != CVM_TC_MATRIX)
        return CVM_SUCCESS;
    const cvm_type *col = &p->types[p->types[tid].elem];
    uint32_t R = col->count, C = p->types[tid].count, esize = p->types[col->elem].size;
    if (!stride)
        stride = (row_major ? C : R) * esize;
    if (stride < (row_major ? C : R) * esize)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "MatrixStride %u is smaller than a %s of %u bytes", stride,
                              row_major ? "row" : "column", (row_major ? C : R) * esize);
    if (!row_major && stride == p->types[tid].matrix_stride)
        return CVM_SUCCESS; /* the type's own layout */
    uint32_t col_id = p->types[tid].elem;
    uint32_t mid = new_type(lw, tid);
    if (!mid)
        return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t mem_col = col_id;
    if (row_major) {
        /* a column is a vector whose components are a row apart */
        mem_col = new_type(lw, col_id);
        if (!mem_col)
            return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        cvm_type *vt = &p->types[mem_col];
        vt->comp_stride = stride;
        vt->has_layout = 1;
        vt->mem_size = (R - 1) * stride + esize;
    }
    cvm_type *mt = &p->types[mid];
    mt->matrix_stride = stride;
    mt->row_major = (uint8_t)row_major;
    mt->mem_elem = mem_col;
    mt->has_layout = 1;
    mt->mem_size = row_major ? (R - 1) * stride + C * esize : (C - 1) * stride + R * esize;
    *o_tid = mid;
    return CVM_SUCCESS;
}

/* A size operand (`what`) of 0, which `rule` forbids.  When the size comes
 * from a specialization constant (the module's default, or a value the
 * pipeline gave) the module is valid and only this specialization is not:
 * say so, naming the SpecId, so the user knows to specialize it. */
static cvm_result spec_size_fail(cvm_lower *lw, const spv_inst *in, uint32_t size_id,
                                 const char *what, const char *rule)
{
    uint16_t op = size_id < lw->mod->bound ? lw->mod->defs[size_id].opcode : 0;
    uint32_t spec_id;
    if (op == SpvOpSpecConstant &&
        decoration_u32(lw->mod, size_id, SPV_NO_MEMBER, SpvDecorationSpecId, &spec_id))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s is 0, the value of specialization constant %u (SpecId); %s: "
                              "specialize it with a positive value",
                              what, spec_id, rule);
    if (op == SpvOpSpecConstantOp)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                              "%s is 0, computed (OpSpecConstantOp) from specialization constants; "
                              "%s: specialize them so that it is positive",
                              what, rule);
    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "%s is 0; %s", what, rule);
}

static cvm_result lower_type(cvm_lower *lw, const spv_inst *in)
{
    cvm_program *p = lw->prog;
    uint32_t id = in->words[1];
    cvm_type *t = &p->types[id];
    const uint32_t *w = in->words;
    switch (in->opcode) {
    case SpvOpTypeVoid:
        t->tclass = CVM_TC_NONE;
        return CVM_SUCCESS;
    case SpvOpTypeBool:
        t->tclass = CVM_TC_BOOL;
        t->sk = CVM_SK_BOOL;
        t->size = t->align = t->mem_size = 1;
        return CVM_SUCCESS;
    case SpvOpTypeInt:
        t->tclass = CVM_TC_INT;
        if (int_sk(w[2], w[3], &t->sk) != CVM_SUCCESS)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "%u-bit integers", w[2]);
        t->size = t->align = t->mem_size = w[2] / 8;
        return CVM_SUCCESS;
    case SpvOpTypeFloat: {
        uint32_t enc = in->word_count > 3 ? w[3] : UINT32_MAX;
        t->tclass = CVM_TC_FLOAT;
        if (w[2] == 16 && enc == UINT32_MAX)
            t->sk = CVM_SK_F16;
        else if (w[2] == 16 && enc == SpvFPEncodingBFloat16KHR)
            t->sk = CVM_SK_BF16;
        else if (w[2] == 32 && enc == UINT32_MAX)
            t->sk = CVM_SK_F32;
        else if (w[2] == 64 && enc == UINT32_MAX)
            t->sk = CVM_SK_F64;
        else if (w[2] == 8 && enc == SpvFPEncodingFloat8E4M3EXT)
            t->sk = CVM_SK_E4M3;
        else if (w[2] == 8 && enc == SpvFPEncodingFloat8E5M2EXT)
            t->sk = CVM_SK_E5M2;
        /* SPV_EXT_ocp_microscaling_types: one byte a value (FP4 and FP6
         * live only in Function and Private memory, where no layout shows) */
        else if (w[2] == 4 && enc == SpvFPEncodingFloat4E2M1EXT)
            t->sk = CVM_SK_E2M1;
        else if (w[2] == 6 && enc == SpvFPEncodingFloat6E2M3EXT)
            t->sk = CVM_SK_E2M3;
        else if (w[2] == 6 && enc == SpvFPEncodingFloat6E3M2EXT)
            t->sk = CVM_SK_E3M2;
        else if (w[2] == 8 && enc == SpvFPEncodingFloat8UnsignedE8M0EXT)
            t->sk = CVM_SK_E8M0;
        else if (w[2] == 8 && enc == SpvFPEncodingMXInt8EXT)
            t->sk = CVM_SK_MXINT8;
        else
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "%u-bit float with encoding %u",
                                  w[2], enc);
        t->size = t->align = t->mem_size = cvm_sk_size((cvm_scalar_kind)t->sk);
        return CVM_SUCCESS;
    }
    case SpvOpTypeVector:
    case SpvOpTypeVectorIdEXT: /* also OpTypeCooperativeVectorNV: the same opcode */ {
        const cvm_type *e = &p->types[w[2]];
        uint64_t n = w[3];
        if (in->opcode != SpvOpTypeVector && !cvm_lower_const_u64(lw, w[3], &n))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "component count is not a constant integer");
        if (e->tclass != CVM_TC_BOOL && e->tclass != CVM_TC_INT && e->tclass != CVM_TC_FLOAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "component type is not scalar");
        if (n == 0 && in->opcode == SpvOpTypeVectorIdEXT)
            return spec_size_fail(lw, in, w[3], "Component Count",
                                  "SPV_EXT_long_vector: \"must be greater than zero\"");
        if (n == 0 || n > 65536)
            return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT, "%llu components", (unsigned long long)n);
        t->tclass = CVM_TC_VECTOR;
        t->sk = e->sk;
        t->elem = w[2];
        t->count = (uint32_t)n;
        t->size = t->mem_size = e->size * t->count;
        t->align = e->align;
        if (in->opcode == SpvOpTypeVectorIdEXT)
            return cvm_coopvec_lower_type(lw, in, t);
        return CVM_SUCCESS;
    }
    case SpvOpTypeMatrix: {
        const cvm_type *c = &p->types[w[2]];
        if (c->tclass != CVM_TC_VECTOR || w[3] < 2 || w[3] > 4)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "a matrix has 2 to 4 columns of a vector type");
        t->tclass = CVM_TC_MATRIX;
        t->sk = c->sk;
        t->elem = w[2];
        t->count = w[3];
        t->size = t->mem_size = c->size * w[3];
        t->align = c->align;
        t->matrix_stride = c->mem_size; /* packed columns */
        t->mem_elem = w[2];
        return CVM_SUCCESS;
    }
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: {
        const cvm_type *e = &p->types[w[2]];
        uint64_t n = 0;
        if (in->opcode == SpvOpTypeArray && !cvm_lower_const_u64(lw, w[3], &n))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "array length is not a constant");
        if (in->opcode == SpvOpTypeArray && n == 0)
            return spec_size_fail(lw, in, w[3], "Length", "the SPIR-V specification: \"at least 1\"");
        if (in->opcode == SpvOpTypeArray && (n == 0 || n > (1u << 24)))
            return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT, "array length %llu", (unsigned long long)n);
        t->tclass = CVM_TC_ARRAY;
        t->sk = e->sk;
        t->elem = w[2];
        t->count = (uint32_t)n;
        t->align = e->align ? e->align : 1;
        uint32_t esize = align_up32(e->size, t->align);
        t->size = esize * t->count;
        uint32_t stride;
        if (decoration_u32(lw->mod, id, SPV_NO_MEMBER, SpvDecorationArrayStride, &stride)) {
            t->array_stride = stride;
            t->has_layout = stride != esize || e->has_layout;
        } else {
            t->array_stride = e->mem_size;
            t->has_layout = e->has_layout || e->mem_size != esize;
        }
        /* the bytes the array covers: the last element ends its footprint
         * (an array whose stride has room after each element does not own
         * the room after its last one, so a buffer may end there) */
        t->mem_size = t->count ? (t->count - 1) * t->array_stride + e->mem_size : 0;
        return CVM_SUCCESS;
    }
    case SpvOpTypeStruct: {
        uint32_t n = in->word_count - 2u;
        t->tclass = CVM_TC_STRUCT;
        t->nmembers = n;
        t->member_types = cvm_calloc(n ? n : 1, sizeof(uint32_t));
        t->member_offsets = cvm_calloc(n ? n : 1, sizeof(uint32_t));
        t->member_mem_offsets = cvm_calloc(n ? n : 1, sizeof(uint32_t));
        if (!t->member_types || !t->member_offsets || !t->member_mem_offsets)
            return cvm_lower_fail(lw, in, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        uint32_t off = 0, align = 1, mem_end = 0, mem_off = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t ms = 0, mid;
            decoration_u32(lw->mod, id, i, SpvDecorationMatrixStride, &ms);
            int rm = spv_module_find_decoration(lw->mod, id, i, SpvDecorationRowMajor) != NULL;
            CVM_TRY(member_layout(lw, in, w[2 + i], ms, rm, 0, &mid));
            t = &p->types[id]; /* member_layout may have moved the table */
            const cvm_type *m = &p->types[mid];
            t->member_types[i] = mid;
            uint32_t a = m->align ? m->align : 1;
            off = align_up32(off, a);
            t->member_offsets[i] = off;
            off += m->size;
            align = CVM_MAX(align, a);
            uint32_t mo;
            if (decoration_u32(lw->mod, id, i, SpvDecorationOffset, &mo))
                t->member_mem_offsets[i] = mo;
            else
                t->member_mem_offsets[i] = align_up32(mem_off, a);
            mem_off = t->member_mem_offsets[i] + m->mem_size;
            mem_end = CVM_MAX(mem_end, mem_off);
            if (t->member_mem_offsets[i] != t->member_offsets[i] || m->has_layout)
                t->has_layout = 1;
        }
        t->align = align;
        t->size = align_up32(off, align);
        t->mem_size = mem_end;
        if (t->mem_size != t->size)
            t->has_layout = 1;
        return CVM_SUCCESS;
    }
    case SpvOpTypePointer:
    case SpvOpTypeForwardPointer:
    case SpvOpTypeUntypedPointerKHR:
        t->tclass = CVM_TC_POINTER;
        if (in->opcode == SpvOpTypePointer) {
            t->storage_class = (uint8_t)(w[2] > 255 ? 255 : w[2]);
            t->elem = w[3];
            if (w[2] != SpvStorageClassFunction && w[2] != SpvStorageClassPrivate &&
                w[3] < p->ntypes && type_has_sub_byte_float(p, w[3], 0))
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "4- and 6-bit floats may only be in Function and Private "
                                      "memory (SPV_EXT_ocp_microscaling_types)");
        } else if (in->opcode == SpvOpTypeUntypedPointerKHR) {
            t->storage_class = (uint8_t)(w[2] > 255 ? 255 : w[2]);
        }
        t->size = t->align = t->mem_size = 8;
        return CVM_SUCCESS;
    case SpvOpTypeFunction:
        t->tclass = CVM_TC_FUNCTION;
        return CVM_SUCCESS;
    case SpvOpTypeCooperativeMatrixKHR:
    case SpvOpTypeCooperativeMatrixNV: /* SPV_NV_cooperative_matrix: no Use operand */ {
        const cvm_type *e = &p->types[w[2]];
        int nv = in->opcode == SpvOpTypeCooperativeMatrixNV;
        uint64_t scope, rows, cols, use = CVM_USE_NONE;
        if (in->word_count < (nv ? 6u : 7u) || !cvm_lower_const_u64(lw, w[3], &scope) ||
            !cvm_lower_const_u64(lw, w[4], &rows) || !cvm_lower_const_u64(lw, w[5], &cols) ||
            (!nv && !cvm_lower_const_u64(lw, w[6], &use)))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "scope, rows, columns%s must be constant integers",
                                  nv ? "" : " and use");
        if (e->tclass != CVM_TC_INT && e->tclass != CVM_TC_FLOAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "component type must be a numerical scalar");
        if (e->sk >= CVM_SK_E2M1 && e->sk <= CVM_SK_MXINT8)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "%s components: SPV_EXT_ocp_microscaling_types gives its "
                                  "formats no cooperative matrices (its issue 4)",
                                  cvm_sk_name((cvm_scalar_kind)e->sk));
        if (scope != SpvScopeSubgroup && scope != SpvScopeWorkgroup)
            return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                  "scope %llu (only Subgroup and Workgroup)",
                                  (unsigned long long)scope);
        if (rows == 0 || cols == 0 || rows > CVM_MAX_MATRIX_DIM || cols > CVM_MAX_MATRIX_DIM)
            return cvm_lower_fail(lw, in, CVM_ERROR_LIMIT, "%llux%llu matrix (limit %u)",
                                  (unsigned long long)rows, (unsigned long long)cols,
                                  CVM_MAX_MATRIX_DIM);
        if (!nv && use > 2)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "use %llu",
                                  (unsigned long long)use);
        t->tclass = CVM_TC_COOPMAT;
        t->sk = e->sk;
        t->elem = w[2];
        t->scope = (uint32_t)scope;
        t->rows = (uint32_t)rows;
        t->cols = (uint32_t)cols;
        t->use = (uint32_t)use;
        t->size = t->mem_size = (uint32_t)(rows * cols * e->size);
        t->align = e->align;
        return CVM_SUCCESS;
    }
    case SpvOpTypeTensorLayoutNV:
    case SpvOpTypeTensorViewNV: {
        uint64_t v;
        t->tclass = in->opcode == SpvOpTypeTensorLayoutNV ? CVM_TC_TENSOR_LAYOUT : CVM_TC_TENSOR_VIEW;
        if (!cvm_lower_const_u64(lw, w[2], &v) || v < 1 || v > 5)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "Dim must be a constant 1..5");
        t->dim = (uint32_t)v;
        if (in->opcode == SpvOpTypeTensorLayoutNV) {
            if (!cvm_lower_const_u64(lw, w[3], &v))
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "ClampMode not constant");
            t->clamp_mode = (uint32_t)v;
        } else {
            if (!cvm_lower_const_u64(lw, w[3], &v))
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "HasDimensions not constant");
            t->has_dimensions = v != 0;
            /* the engine indexes by the permutation: one of [0, Dim)
             * (SPV_NV_tensor_addressing, OpTypeTensorViewNV) */
            if (in->word_count != 4u + t->dim)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "a permutation of Dim %u entries is needed", t->dim);
            uint32_t seen = 0;
            for (uint32_t i = 0; i < t->dim; i++) {
                if (!cvm_lower_const_u64(lw, w[4 + i], &v))
                    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                          "permutation not constant");
                if (v >= t->dim || (seen & (1u << v)))
                    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                          "the permutation is not one of [0, Dim)");
                seen |= 1u << v;
                t->permutation[i] = (uint32_t)v;
            }
        }
        t->size = t->mem_size = CVM_TENSOR_VALUE_SIZE;
        t->align = 8;
        return CVM_SUCCESS;
    }
    default:
        t->tclass = CVM_TC_OPAQUE;
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "this type is not supported");
    }
}

/* ---- constants -------------------------------------------------------------- */

static cvm_result const_alloc(cvm_lower *lw, uint32_t id, uint32_t size, uint32_t align,
                              uint8_t **o_ptr)
{
    cvm_program *p = lw->prog;
    uint64_t off = (lw->const_used + 15) & ~UINT64_C(15);
    (void)align;
    if (off + size > CVM_MAX_CONSTANT_BYTES)
        return cvm_diag_set(lw->diag, CVM_ERROR_LIMIT,
                            "the module's constants need more than %llu bytes (constant %%%u "
                            "of %u bytes; coopvm's limit, CVM_MAX_CONSTANT_BYTES)",
                            (unsigned long long)CVM_MAX_CONSTANT_BYTES, id, size);
    if (off + size > lw->const_cap) {
        uint64_t ncap = lw->const_cap ? lw->const_cap * 2 : 4096;
        while (ncap < off + size)
            ncap *= 2;
        uint8_t *nd = cvm_realloc(p->const_data, ncap);
        if (!nd)
            return cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        memset(nd + lw->const_cap, 0, ncap - lw->const_cap);
        p->const_data = nd;
        lw->const_cap = ncap;
    }
    p->const_offset[id] = off;
    lw->const_used = off + size;
    *o_ptr = p->const_data + off;
    return CVM_SUCCESS;
}

static const uint8_t *const_ptr(const cvm_lower *lw, uint32_t id)
{
    if (id >= lw->prog->bound || lw->prog->const_offset[id] == UINT64_MAX)
        return NULL;
    return lw->prog->const_data + lw->prog->const_offset[id];
}

static const cvm_specialization *find_spec(const cvm_lower *lw, uint32_t id)
{
    uint32_t spec_id;
    if (!decoration_u32(lw->mod, id, SPV_NO_MEMBER, SpvDecorationSpecId, &spec_id))
        return NULL;
    for (uint32_t i = 0; i < lw->nspecs; i++)
        if (lw->specs[i].constant_id == spec_id)
            return &lw->specs[i];
    return NULL;
}

/* Builds a composite value from constituents in register layout. */
static cvm_result build_composite(cvm_lower *lw, const spv_inst *in, const cvm_type *t,
                                  uint8_t *dst, const uint32_t *ids, uint32_t n, int replicate)
{
    const cvm_program *p = lw->prog;
    if (replicate && n < 1)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "a replicated composite needs a constituent");
    switch (t->tclass) {
    case CVM_TC_VECTOR:
    case CVM_TC_MATRIX:
    case CVM_TC_ARRAY: {
        const cvm_type *e = &p->types[t->elem];
        uint32_t esize = t->tclass == CVM_TC_ARRAY ? align_up32(e->size, t->align) : e->size;
        /* A vector may be built from smaller vectors. */
        uint32_t at = 0;
        for (uint32_t i = 0; i < (replicate ? t->count : n); i++) {
            uint32_t cid = replicate ? ids[0] : ids[i];
            const uint8_t *src = const_ptr(lw, cid);
            if (!src)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "constituent %u is not a constant", cid);
            uint32_t csize = p->types[lw->mod->defs[cid].type].size;
            if (at + csize > t->size)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "too many constituents");
            memcpy(dst + at, src, csize);
            at += t->tclass == CVM_TC_ARRAY ? esize : csize;
        }
        /* After specialization the constituents must still fill the type (a
         * vector or array sized by a specialization constant: the module
         * cannot be checked before) */
        if (!replicate && at != (t->tclass == CVM_TC_ARRAY ? esize * t->count : t->size))
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "%u constituents for a composite of %u (as specialized)", n,
                                  t->count);
        return CVM_SUCCESS;
    }
    case CVM_TC_STRUCT:
        if (!replicate && n != t->nmembers)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "%u constituents for a struct of %u members", n, t->nmembers);
        for (uint32_t i = 0; i < t->nmembers; i++) {
            uint32_t cid = replicate ? ids[0] : ids[i];
            const uint8_t *src = const_ptr(lw, cid);
            if (!src)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "constituent is not a constant");
            /* a module that skipped validation may give a member a
             * constituent of another size: never copy past its data */
            uint32_t msize = p->types[t->member_types[i]].size;
            if (p->types[lw->mod->defs[cid].type].size != msize)
                return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                      "constituent %%%u is not of the size of member %u (%u bytes)",
                                      cid, i, msize);
            memcpy(dst + t->member_offsets[i], src, msize);
        }
        return CVM_SUCCESS;
    case CVM_TC_COOPMAT: {
        const uint8_t *src = n ? const_ptr(lw, ids[0]) : NULL;
        uint32_t esize = p->types[t->elem].size;
        if (!src || p->types[lw->mod->defs[ids[0]].type].size != esize)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                                  "matrix constant needs one constant constituent of its component type");
        for (uint32_t i = 0; i < t->rows * t->cols; i++)
            memcpy(dst + (size_t)i * esize, src, esize);
        return CVM_SUCCESS;
    }
    default:
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "composite of a non-composite type");
    }
}


static cvm_result lower_constant(cvm_lower *lw, const spv_inst *in)
{
    cvm_program *p = lw->prog;
    uint32_t rt = in->words[1], id = in->words[2];
    const cvm_type *t = &p->types[rt];
    uint8_t *dst = NULL;
    if (t->tclass == CVM_TC_NONE && in->opcode != SpvOpUndef)
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "constant of no type");
    CVM_TRY(const_alloc(lw, id, t->size ? t->size : 1, t->align, &dst));
    const cvm_specialization *sp;
    switch (in->opcode) {
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
        dst[0] = in->opcode == SpvOpConstantTrue || in->opcode == SpvOpSpecConstantTrue;
        if ((in->opcode == SpvOpSpecConstantTrue || in->opcode == SpvOpSpecConstantFalse) &&
            (sp = find_spec(lw, id)) != NULL)
            dst[0] = sp->bits != 0;
        return CVM_SUCCESS;
    case SpvOpConstant:
    case SpvOpSpecConstant: {
        uint32_t nw = in->word_count - 3u;
        uint64_t bits = nw > 0 ? in->words[3] : 0;
        if (nw > 1)
            bits |= (uint64_t)in->words[4] << 32;
        if (in->opcode == SpvOpSpecConstant && (sp = find_spec(lw, id)) != NULL)
            bits = sp->bits;
        if (t->tclass != CVM_TC_INT && t->tclass != CVM_TC_FLOAT)
            return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "scalar constant of a non-scalar type");
        memcpy(dst, &bits, t->size); /* little-endian host */
        return CVM_SUCCESS;
    }
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite:
        return build_composite(lw, in, t, dst, in->words + 3, in->word_count - 3u, 0);
    case SpvOpConstantCompositeReplicateEXT:
    case SpvOpSpecConstantCompositeReplicateEXT:
        return build_composite(lw, in, t, dst, in->words + 3, 1, 1);
    case SpvOpConstantNull:
    case SpvOpUndef:
        memset(dst, 0, t->size);
        return CVM_SUCCESS;
    case SpvOpSpecConstantOp:
        return cvm_eval_spec_op(lw, in, dst);
    default:
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "constant instruction");
    }
}

/* ---- variables -------------------------------------------------------------- */

static uint64_t align_up64(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static cvm_result add_descriptor(cvm_lower *lw, const spv_inst *in, uint32_t var, uint32_t sc,
                                 uint32_t pointee, uint32_t *next_region)
{
    cvm_program *p = lw->prog;
    uint32_t set = 0, binding = 0, n = 1;
    decoration_u32(lw->mod, var, SPV_NO_MEMBER, SpvDecorationDescriptorSet, &set);
    if (!decoration_u32(lw->mod, var, SPV_NO_MEMBER, SpvDecorationBinding, &binding))
        return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE, "buffer variable %u has no Binding",
                              var);
    const cvm_type *pt = &p->types[pointee];
    if (pt->tclass == CVM_TC_ARRAY && p->types[pt->elem].tclass == CVM_TC_STRUCT) {
        n = pt->count ? pt->count : 64; /* runtime descriptor arrays: up to 64 elements */
        p->var_region[var] = 0xfe;      /* marker: descriptor array */
    }
    cvm_descriptor *nd = cvm_realloc(p->descs, (p->ndescs + 1) * sizeof(cvm_descriptor));
    if (!nd)
        return cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    p->descs = nd;
    cvm_descriptor *d = &p->descs[p->ndescs++];
    d->set = set;
    d->binding = binding;
    d->array_size = n;
    d->var = var;
    d->storage_class = sc;
    d->first_region = *next_region;
    *next_region += n;
    p->var_offset[var] = CVM_ADDR(d->first_region, 0);
    return CVM_SUCCESS;
}

/* The 32-bit integer components a built-in of a compute shader has: 3
 * (the ids and sizes), 4 (the subgroup masks), 1 (the other integers the
 * engine writes, interp.c fill_builtins), 0 for one it does not write. */
static uint32_t builtin_components(uint32_t bi)
{
    switch (bi) {
    case SpvBuiltInGlobalInvocationId:
    case SpvBuiltInLocalInvocationId:
    case SpvBuiltInWorkgroupId:
    case SpvBuiltInNumWorkgroups:
    case SpvBuiltInWorkgroupSize:
        return 3;
    case SpvBuiltInSubgroupEqMask:
    case SpvBuiltInSubgroupGeMask:
    case SpvBuiltInSubgroupGtMask:
    case SpvBuiltInSubgroupLeMask:
    case SpvBuiltInSubgroupLtMask:
        return 4;
    case SpvBuiltInLocalInvocationIndex:
    case SpvBuiltInSubgroupId:
    case SpvBuiltInNumSubgroups:
    case SpvBuiltInSubgroupLocalInvocationId:
    case SpvBuiltInSubgroupSize:
        return 1;
    default:
        return 0;
    }
}

/* An Input built-in variable's type is the one the engine writes: a 32-bit
 * integer scalar, or a vector of 3 or 4 of them (Vulkan's built-in
 * variables chapter: "LocalInvocationIndex ... MUST be declared as a scalar
 * 32-bit integer value", "GlobalInvocationId ... as a three-component
 * vector of 32-bit integer values", the masks four).  fill_builtins writes
 * that many bytes at the variable. */
static cvm_result check_builtin_type(cvm_lower *lw, const spv_inst *in, uint32_t bi,
                                     uint32_t pointee)
{
    const cvm_program *p = lw->prog;
    uint32_t n = builtin_components(bi);
    if (!n)
        return CVM_SUCCESS;
    const cvm_type *t = &p->types[pointee];
    uint32_t comp = n == 1 ? pointee : t->elem;
    int ok = n == 1 ? t->tclass == CVM_TC_INT
                    : t->tclass == CVM_TC_VECTOR && !t->coopvec && t->count == n &&
                          comp < p->ntypes &&
                          p->types[comp].tclass == CVM_TC_INT;
    if (ok)
        ok = p->types[comp].size == 4;
    if (ok)
        return CVM_SUCCESS;
    const spv_enumerant_desc *e = spv_grammar_enumerant(SPV_OPERAND_BuiltIn, bi);
    return cvm_lower_fail(lw, in, CVM_ERROR_INVALID_MODULE,
                          "the BuiltIn %s variable %%%u must hold %s, not type %%%u",
                          e ? e->name : "(unknown)", in->words[2],
                          n == 1   ? "a 32-bit integer"
                          : n == 3 ? "a vector of three 32-bit integers"
                                   : "a vector of four 32-bit integers",
                          pointee);
}

/* A module-scope variable's initializer, set at the start of every
 * workgroup (cvm_group_run). */
static cvm_result record_initializer(cvm_lower *lw, const spv_inst *in)
{
    cvm_program *p = lw->prog;
    if (in->word_count <= 4)
        return CVM_SUCCESS;
    uint32_t init = in->words[4];
    if (init >= p->bound || p->const_offset[init] == UINT64_MAX)
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                              "the initializer %u is not a constant", init);
    uint32_t *nv = cvm_realloc(p->init_vars, (p->ninit_vars + 1) * 2 * sizeof(uint32_t));
    if (!nv)
        return cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    p->init_vars = nv;
    p->init_vars[2 * p->ninit_vars] = in->words[2];
    p->init_vars[2 * p->ninit_vars + 1] = init;
    p->ninit_vars++;
    return CVM_SUCCESS;
}

static cvm_result lower_global_variable(cvm_lower *lw, const spv_inst *in, uint32_t *next_region)
{
    cvm_program *p = lw->prog;
    uint32_t rt = in->words[1], id = in->words[2], sc = in->words[3];
    const cvm_type *pt = &p->types[rt];
    uint32_t pointee = pt->elem;
    const cvm_type *vt = &p->types[pointee];
    uint64_t size = vt->mem_size;
    CVM_TRY(cvm_coopvec_check_variable(lw, in, sc, pointee));
    switch (sc) {
    case SpvStorageClassStorageBuffer:
    case SpvStorageClassUniform:
        return add_descriptor(lw, in, id, sc, pointee, next_region);
    case SpvStorageClassPushConstant:
        p->var_region[id] = CVM_REGION_PUSH;
        p->var_offset[id] = CVM_ADDR(CVM_REGION_PUSH, 0);
        p->push_size = (uint32_t)size;
        return CVM_SUCCESS;
    case SpvStorageClassWorkgroup:
        p->var_region[id] = CVM_REGION_WORKGROUP;
        if (lw->wg_explicit && vt->tclass == CVM_TC_STRUCT &&
            spv_module_find_decoration(lw->mod, pointee, SPV_NO_MEMBER, SpvDecorationBlock)) {
            /* SPV_KHR_workgroup_memory_explicit_layout: "All the Workgroup
             * blocks share the same underlying storage" -- every Block
             * variable starts at the same place */
            if (lw->wg_block_offset == UINT64_MAX)
                lw->wg_block_offset = align_up64(p->wg_size, 16);
            lw->wg_blocks = 1;
            p->var_offset[id] = CVM_ADDR(CVM_REGION_WORKGROUP, lw->wg_block_offset);
            p->wg_size = CVM_MAX(p->wg_size, lw->wg_block_offset + size);
        } else {
            p->wg_size = align_up64(p->wg_size, 16);
            p->var_offset[id] = CVM_ADDR(CVM_REGION_WORKGROUP, p->wg_size);
            p->wg_size += size;
        }
        return record_initializer(lw, in);
    case SpvStorageClassPrivate:
    case SpvStorageClassInput: {
        int ms = type_matrix_scope(p, pointee);
        if (ms) {
            CVM_TRY(cvm_lower_alloc_variable(lw, id, size, ms));
            if (in->word_count > 4)
                return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                      "an initializer for a variable holding cooperative "
                                      "matrices");
            return CVM_SUCCESS;
        }
        p->inv_size = align_up64(p->inv_size, 16);
        p->var_region[id] = CVM_REGION_INVOCATION;
        p->var_offset[id] = p->inv_size; /* per-lane base added at run time */
        p->inv_size += size;
        if (sc == SpvStorageClassPrivate)
            return record_initializer(lw, in);
        if (sc == SpvStorageClassInput) {
            uint32_t bi;
            if (!decoration_u32(lw->mod, id, SPV_NO_MEMBER, SpvDecorationBuiltIn, &bi))
                return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED,
                                      "Input variable %u is not a built-in", id);
            CVM_TRY(check_builtin_type(lw, in, bi, pointee));
            uint32_t *nv = cvm_realloc(p->builtin_vars, (p->nbuiltins + 1) * sizeof(uint32_t));
            if (!nv)
                return cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            p->builtin_vars = nv;
            uint32_t *nk = cvm_realloc(p->builtin_kinds, (p->nbuiltins + 1) * sizeof(uint32_t));
            if (!nk)
                return cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            p->builtin_kinds = nk;
            p->builtin_vars[p->nbuiltins] = id;
            p->builtin_kinds[p->nbuiltins++] = bi;
        }
        return CVM_SUCCESS;
    }
    case SpvStorageClassOutput:
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "Output variables in a compute shader");
    default:
        return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "variables of storage class %u", sc);
    }
}

/* ---- the globals section ----------------------------------------------------- */

static int is_type_op(uint16_t op)
{
    switch (op) {
    case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
    case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeImage: case SpvOpTypeSampler:
    case SpvOpTypeSampledImage: case SpvOpTypeArray: case SpvOpTypeRuntimeArray:
    case SpvOpTypeStruct: case SpvOpTypeOpaque: case SpvOpTypePointer: case SpvOpTypeFunction:
    case SpvOpTypeEvent: case SpvOpTypeDeviceEvent: case SpvOpTypeReserveId: case SpvOpTypeQueue:
    case SpvOpTypePipe: case SpvOpTypeForwardPointer: case SpvOpTypeCooperativeMatrixKHR:
    case SpvOpTypeCooperativeMatrixNV:
    case SpvOpTypeTensorLayoutNV: case SpvOpTypeTensorViewNV:
    case SpvOpTypeVectorIdEXT: case SpvOpTypeUntypedPointerKHR:
        return 1;
    default:
        return 0;
    }
}

static int is_constant_op(uint16_t op)
{
    switch (op) {
    case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant:
    case SpvOpConstantComposite: case SpvOpConstantNull: case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse: case SpvOpSpecConstant: case SpvOpSpecConstantComposite:
    case SpvOpSpecConstantOp: case SpvOpConstantCompositeReplicateEXT:
    case SpvOpSpecConstantCompositeReplicateEXT:
        return 1;
    default:
        return 0;
    }
}

static cvm_result lower_globals(cvm_lower *lw)
{
    const spv_module *mod = lw->mod;
    size_t off = mod->globals_begin;
    spv_inst in;
    uint32_t next_region = CVM_REGION_FIRST_BUFFER;
    while (off < mod->globals_end && spv_next_inst(&mod->bin, &off, &in, lw->diag) == 1) {
        if (is_type_op(in.opcode)) {
            if (in.opcode == SpvOpTypeForwardPointer)
                continue;
            CVM_TRY(lower_type(lw, &in));
        } else if (is_constant_op(in.opcode) || in.opcode == SpvOpUndef) {
            CVM_TRY(lower_constant(lw, &in));
        } else if (in.opcode == SpvOpVariable) {
            CVM_TRY(lower_global_variable(lw, &in, &next_region));
        } else {
            /* the reader takes every constant-creation instruction as a
             * value; those above are the ones the engine gives a value
             * (OpSpecConstantTargetINTEL and the like would be used as
             * values that have no slot) */
            const spv_instruction_desc *d = spv_grammar_instruction(in.opcode);
            if (d && !strcmp(d->op_class, "Constant-Creation"))
                return cvm_lower_fail(lw, &in, CVM_ERROR_UNSUPPORTED,
                                      "this constant instruction is not supported");
        }
    }
    return CVM_SUCCESS;
}

/* ---- functions -------------------------------------------------------------- */

static cvm_insn *new_insn(cvm_lower *lw)
{
    cvm_program *p = lw->prog;
    if (p->ninsns == p->insns_cap) {
        uint32_t ncap = p->insns_cap ? p->insns_cap * 2 : 256;
        cvm_insn *ni = cvm_realloc(p->insns, ncap * sizeof(cvm_insn));
        if (!ni)
            return NULL;
        p->insns = ni;
        p->insns_cap = ncap;
    }
    cvm_insn *in = &p->insns[p->ninsns++];
    memset(in, 0, sizeof(*in));
    return in;
}

typedef struct blockinfo {
    uint32_t label;
    uint32_t begin, end;      /* word offsets of OpLabel and past the terminator */
    uint32_t merge, cont;     /* merge/continue labels, 0 if none */
    uint32_t succ[2];
    uint32_t *succs;          /* switch targets */
    uint32_t nsuccs;
    uint32_t order;           /* structured order, UINT32_MAX unreachable */
    uint8_t visited;
} blockinfo;

static cvm_result add_succ(blockinfo *b, uint32_t label)
{
    uint32_t *ns = cvm_realloc(b->succs, (b->nsuccs + 1) * sizeof(uint32_t));
    if (!ns)
        return CVM_ERROR_OUT_OF_MEMORY;
    b->succs = ns;
    b->succs[b->nsuccs++] = label;
    return CVM_SUCCESS;
}

/* Depth-first search that visits a header's merge block first and its
 * continue target second, so that in reverse post-order every block of a
 * construct comes before the construct's merge block and a loop's continue
 * target after its body: lanes waiting at a merge then always run last, which
 * is where structured SPIR-V reconverges. Iterative to bound stack use. */
static cvm_result structured_order(blockinfo *blocks, uint32_t nblocks, const uint32_t *index_of,
                                   uint32_t *o_order, uint32_t *o_count)
{
    uint32_t *stack = cvm_malloc((size_t)nblocks * 2 * sizeof(uint32_t) + 8);
    uint32_t *post = cvm_malloc((size_t)nblocks * sizeof(uint32_t) + 4);
    uint32_t sp = 0, npost = 0;
    if (!stack || !post) {
        cvm_mem_free(stack);
        cvm_mem_free(post);
        return CVM_ERROR_OUT_OF_MEMORY;
    }
    /* stack entries: block index, next successor position */
    stack[sp++] = 0;
    stack[sp++] = 0;
    blocks[0].visited = 1;
    while (sp) {
        uint32_t bi = stack[sp - 2], pos = stack[sp - 1];
        blockinfo *b = &blocks[bi];
        /* successor list in visiting order: merge, continue, then the rest */
        uint32_t cand = 0;
        uint32_t k = 0, found = 0;
        uint32_t total = 2 + b->nsuccs;
        for (; pos < total; pos++) {
            uint32_t lab = pos == 0 ? b->merge : pos == 1 ? b->cont : b->succs[pos - 2];
            if (!lab)
                continue;
            k = index_of[lab];
            if (k == UINT32_MAX || blocks[k].visited)
                continue;
            cand = k;
            found = 1;
            pos++;
            break;
        }
        stack[sp - 1] = pos;
        if (found) {
            blocks[cand].visited = 1;
            stack[sp++] = cand;
            stack[sp++] = 0;
        } else {
            post[npost++] = bi;
            sp -= 2;
        }
    }
    for (uint32_t i = 0; i < npost; i++)
        o_order[i] = post[npost - 1 - i];
    *o_count = npost;
    cvm_mem_free(stack);
    cvm_mem_free(post);
    return CVM_SUCCESS;
}


static cvm_result lower_inst(cvm_lower *lw, const spv_inst *in, cvm_insn *out)
{
    static const cvm_lower_family_fn families[] = {
        cvm_lower_memory, cvm_lower_arith,    cvm_lower_convert, cvm_lower_composite,
        cvm_lower_debug_printf, cvm_lower_glsl, cvm_lower_subgroup, cvm_lower_atomic,
        cvm_lower_coopmat, cvm_lower_coopmat2, cvm_lower_tensor, cvm_lower_qcom,
        cvm_lower_matrix,
        cvm_lower_coopvec,     cvm_lower_microscaling,
    };
    out->spv_op = in->opcode;
    out->word_off = in->offset;
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (d && d->has_result_type && in->word_count >= 3) {
        out->type = in->words[1];
        out->result = in->words[2];
    } else if (d && d->has_result && in->word_count >= 2) {
        out->result = in->words[1];
    }
    cvm_result r = cvm_microscaling_check_use(lw, in);
    if (r != CVM_SUCCESS)
        return r;
    r = cvm_lower_control(lw, in, out);
    if (r != CVM_ERROR_NOT_FOUND)
        return r;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(families); i++) {
        r = families[i](lw, in, out);
        if (r != CVM_ERROR_NOT_FOUND) {
            /* a copied pointer keeps the layout of what it points to */
            if (r == CVM_SUCCESS && in->opcode == SpvOpCopyObject && in->word_count > 3)
                cvm_lower_set_layout(lw, in->words[2], cvm_lower_layout_of(lw, in->words[3]));
            return r;
        }
    }
    return cvm_lower_fail(lw, in, CVM_ERROR_UNSUPPORTED, "instruction not supported by the engine");
}

uint32_t cvm_lower_block_index(const cvm_lower *lw, uint32_t label)
{
    if (label == 0 || label >= lw->mod->bound)
        return UINT32_MAX;
    return lw->block_of_label[label];
}

/* CVM_INSN_UNIFORM on a lowered instruction (exec/uniform.h): a value
 * the analysis marked, or a store of a uniform value through a uniform
 * pointer in a convergent block; a uniform Function variable gets its one
 * copy.  *io_ok goes to 0 when a marked value was lowered to a no-op (its
 * slot would never be written once). */
static cvm_result mark_uniform(cvm_lower *lw, uint32_t fidx, const spv_inst *in, cvm_insn *ins,
                               int convergent, int *io_ok)
{
    cvm_program *p = lw->prog;
    const uint32_t *w = in->words;
    if (in->opcode == SpvOpVariable && in->word_count >= 4 && w[2] < p->bound &&
        (lw->umarks[w[2]] & CVM_UNIFORM_VAR)) {
        const cvm_type *pt = cvm_lower_type(lw, w[1]);
        uint64_t size = cvm_lower_type(lw, pt->elem)->mem_size;
        p->scope_size = align_up64(p->scope_size, 16);
        p->var_uoffset[w[2]] = p->scope_size;
        p->scope_size += size ? size : 1;
        if (ins->fn) /* its initializer, a constant, written to the one copy once */
            ins->flags |= CVM_INSN_UNIFORM;
        return CVM_SUCCESS;
    }
    if (in->opcode == SpvOpVariable && in->word_count >= 4 && w[2] < p->bound &&
        (lw->umarks[w[2]] & CVM_UNIFORM_DENSE)) {
        /* lane by lane in one array, at the value slot's stride */
        const cvm_type *vt = cvm_lower_type(lw, cvm_lower_type(lw, w[1])->elem);
        if (vt->size && vt->size == vt->mem_size && !vt->has_layout) {
            p->var_doff[w[2]] = p->dense_size;
            p->dense_size += align_up64(vt->size, 16);
        }
        return CVM_SUCCESS;
    }
    if (in->opcode == SpvOpLoad && in->word_count >= 4 && w[2] < p->bound &&
        (lw->umarks[w[2]] & CVM_UNIFORM_ALIAS) && w[3] < p->bound &&
        p->var_doff[w[3]] != UINT64_MAX && ins->fn &&
        !(lw->umarks[w[2]] & CVM_UNIFORM_VALUE))
        ins->flags |= CVM_INSN_ALIAS;
    if (!convergent)
        return CVM_SUCCESS;
    if (in->opcode == SpvOpStore && in->word_count >= 3) {
        if (ins->fn && cvm_uniform_operand(p, fidx, lw->umarks, w[1]) &&
            cvm_uniform_operand(p, fidx, lw->umarks, w[2]))
            ins->flags |= CVM_INSN_UNIFORM;
        return CVM_SUCCESS;
    }
    uint32_t r = ins->result;
    if (r == 0 || r >= p->bound || !(lw->umarks[r] & CVM_UNIFORM_VALUE))
        return CVM_SUCCESS;
    if (!ins->fn && ins->cf != CVM_CF_PHI) {
        *io_ok = 0;
        return CVM_SUCCESS;
    }
    ins->flags |= CVM_INSN_UNIFORM;
    p->uniform[r] = 1;
    return CVM_SUCCESS;
}

static void unmark_function(cvm_lower *lw, uint32_t fidx, uint32_t first_insn)
{
    cvm_program *p = lw->prog;
    for (uint32_t k = first_insn; k < p->ninsns; k++)
        p->insns[k].flags &= (uint8_t)~CVM_INSN_UNIFORM;
    for (uint32_t id = 1; id < p->bound; id++)
        if (lw->mod->defs[id].func == fidx) {
            p->uniform[id] = 0;
            p->var_uoffset[id] = UINT64_MAX;
        }
}

/* cvm_function.leaf: see exec.h.  An operand `id` of instruction `in` of
 * function `fidx` that a leaf may name: a constant, a parameter, an
 * earlier result of the block, a module-scope variable every lane
 * addresses alike (not per-invocation: no caller context is bound for a
 * leaf), or, as the pointer of a load or store
 * (`as_var`), a dense or uniform Function variable of the function (never
 * read before written, so never cleared: exec/uniform.h). */
static int leaf_operand(const cvm_program *p, uint32_t fidx, const cvm_insn *in, uint32_t id,
                        int as_var)
{
    const cvm_function *f = &p->funcs[fidx];
    if (id == 0 || id >= p->bound)
        return 0;
    if (p->const_offset[id] != UINT64_MAX)
        return 1;
    for (uint32_t q = 0; q < f->nparams; q++)
        if (f->params[q] == id)
            return 1;
    const spv_def *d = &p->mod->defs[id];
    if (d->opcode != SpvOpVariable) /* defined in the one block, before `in` */
        return d->func == fidx && d->type && d->opcode != SpvOpFunction &&
               d->opcode != SpvOpFunctionParameter && d->off < in->word_off;
    if (d->func == fidx)
        return as_var && (p->var_doff[id] != UINT64_MAX || p->var_uoffset[id] != UINT64_MAX);
    if (d->func != UINT32_MAX)
        return 0;
    uint32_t reg = p->var_region[id] & 0x7fu;
    return reg != CVM_REGION_INVOCATION && reg != CVM_REGION_SCOPE;
}

/* An instruction a leaf may hold: a pure one (cvm_uniform_pure_operands),
 * a load, or a store to a Function variable of its own (above). */
static int leaf_insn(const cvm_program *p, uint32_t fidx, const cvm_insn *in)
{
    spv_inst si;
    uint32_t lo, hi;
    if (!in->fn || in->cf != CVM_CF_NONE || (in->flags & CVM_INSN_PER_INSTANCE) ||
        !spv_module_inst_at(p->mod, in->word_off, &si))
        return 0;
    if (si.opcode == SpvOpLoad)
        return si.word_count >= 4 && leaf_operand(p, fidx, in, si.words[3], 1);
    if (si.opcode == SpvOpStore) {
        uint32_t v = si.word_count >= 3 ? si.words[1] : 0;
        return v && v < p->bound && p->mod->defs[v].opcode == SpvOpVariable &&
               p->mod->defs[v].func == fidx && leaf_operand(p, fidx, in, v, 1) &&
               leaf_operand(p, fidx, in, si.words[2], 0);
    }
    if (!cvm_uniform_pure_operands(p, &si, &lo, &hi))
        return 0;
    for (uint32_t k = lo; k < hi; k++)
        if (!leaf_operand(p, fidx, in, si.words[k], 0))
            return 0;
    return 1;
}

static int leaf_function(const cvm_program *p, uint32_t fidx)
{
    const cvm_function *f = &p->funcs[fidx];
    if (f->nblocks != 1 || f->blocks[0].count == 0 || !f->return_type ||
        p->types[f->return_type].tclass == CVM_TC_NONE)
        return 0;
    const cvm_insn *first = p->insns + f->blocks[0].first;
    const cvm_insn *ret = first + f->blocks[0].count - 1;
    if (ret->cf != CVM_CF_RETURN_VALUE || !leaf_operand(p, fidx, ret, ret->a, 0))
        return 0;
    for (const cvm_insn *in = first; in < ret; in++)
        if (!leaf_insn(p, fidx, in))
            return 0;
    return 1;
}

/* ---- dead cooperative-matrix loads ------------------------------------------ */

/* Cooperative-matrix loads whose value nothing observes are not run, as a
 * GPU's compiler removes them.  This matters for shaders that load a matrix
 * they never use from out of bounds of workgroup memory: the Vulkan CTS's
 * cooperative-matrix tests with workgroup storage load matC from the shared
 * copy with the buffer's row stride (several times the shared one) in every
 * test that never uses matC.  An out-of-bounds access is undefined
 * behaviour, and stopping the dispatch there reports a fault that no
 * implementation that compiles the shader shows.
 *
 * Liveness over ids, conservatively: a "local" variable is a Private or
 * Function OpVariable whose pointers (itself and its access chains) appear
 * only as the Pointer of OpStore and OpLoad and the Base of
 * OpAccessChain (the CTS copies matC into an array it never reads in its
 * composite_array tests).  Every instruction is a root whose operands are
 * live, except
 *   - a non-Volatile OpCooperativeMatrixLoad{KHR,NV,TensorNV} (a tensor load
 *     only without a DecodeFunc, whose calls may write memory): its operands
 *     are live when its result is;
 *   - OpStore through a pointer into a local variable: its Object is live
 *     when the variable is;
 *   - OpLoad through such a pointer: the variable is live when the result is;
 *   - OpAccessChain into a local variable: its Indexes are live when the
 *     variable is (llama.cpp's q4_K/q5_K matrix multiply indexes a Function
 *     vector with an index kept in another Function variable, whose store
 *     was dropped while the index was not counted as a use).
 * (The tensor loads need the cycle: each takes the old matC as its Object.)
 * A dead load and the stores into a dead local variable are not lowered;
 * lw->dead[id] is DEAD_LOAD for such a load's result and DEAD_VAR for every
 * pointer into such a variable.  The <id> operands come from the grammar (id_operands). */
enum { DEAD_LOAD = 1, DEAD_VAR = 2 };

static int removable_load(const spv_inst *in)
{
    if (in->opcode != SpvOpCooperativeMatrixLoadKHR && in->opcode != SpvOpCooperativeMatrixLoadNV &&
        in->opcode != SpvOpCooperativeMatrixLoadTensorNV)
        return 0;
    if (in->word_count < 4)
        return 0;
    /* the Memory Operand: word 6 in all three (optional in KHR and NV) */
    uint32_t mo = in->word_count > 6 ? in->words[6] : 0;
    if (mo & SpvMemoryAccessVolatileMask)
        return 0;
    if (in->opcode == SpvOpCooperativeMatrixLoadTensorNV) {
        /* the Tensor Addressing Operands follow the Memory Operand's own
         * operands (Aligned, MakePointerAvailable/Visible, ...) */
        uint32_t ta = 7u + (uint32_t)__builtin_popcount(
                               mo & (SpvMemoryAccessAlignedMask | SpvMemoryAccessMakePointerAvailableMask |
                                     SpvMemoryAccessMakePointerVisibleMask |
                                     SpvMemoryAccessAliasScopeINTELMaskMask |
                                     SpvMemoryAccessNoAliasINTELMaskMask));
        if (ta >= in->word_count || (in->words[ta] & SpvTensorAddressingOperandsDecodeFuncMask))
            return 0;
    }
    return 1;
}

/* Marks in is_id[w] the words of `in` that are <id> operands (not its result
 * type or result), following the grammar; returns 0 where it cannot place
 * them (an unknown opcode or enumerant, OpSwitch's literals of the
 * selector's width, a malformed instruction): the caller then takes every
 * word for an id, which only keeps more alive. */
static int walk_operands(const spv_inst *in, const spv_operand_desc *ops, uint16_t nops,
                         uint32_t *io_w, uint8_t *is_id, int depth);

static int walk_one(const spv_inst *in, uint16_t kind, uint32_t *io_w, uint8_t *is_id, int depth)
{
    uint32_t w = *io_w;
    if (w >= in->word_count || kind >= SPV_OPERAND_KIND_COUNT || depth > 4)
        return 0;
    const spv_operand_kind_desc *kd = &spv_operand_kinds[kind];
    switch (kind) {
    case SPV_OPERAND_IdResultType: case SPV_OPERAND_IdResult:
        *io_w = w + 1;
        return 1;
    case SPV_OPERAND_LiteralString:
        for (; w < in->word_count; w++) {
            uint32_t v = in->words[w];
            if (!(v & 0xffu) || !(v & 0xff00u) || !(v & 0xff0000u) || !(v & 0xff000000u))
                break;
        }
        if (w >= in->word_count)
            return 0;
        *io_w = w + 1;
        return 1;
    case SPV_OPERAND_LiteralContextDependentNumber: case SPV_OPERAND_PairLiteralIntegerIdRef:
        return 0;
    case SPV_OPERAND_PairIdRefLiteralInteger:
        is_id[w] = 1;
        *io_w = w + 2;
        return w + 2 <= in->word_count;
    case SPV_OPERAND_PairIdRefIdRef:
        is_id[w] = 1;
        if (w + 1 < in->word_count)
            is_id[w + 1] = 1;
        *io_w = w + 2;
        return w + 2 <= in->word_count;
    default:
        break;
    }
    switch (kd->category) {
    case SPV_CATEGORY_ID:
        is_id[w] = 1;
        *io_w = w + 1;
        return 1;
    case SPV_CATEGORY_LITERAL:
        *io_w = w + 1;
        return 1;
    case SPV_CATEGORY_VALUE_ENUM: {
        const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)kind, in->words[w]);
        *io_w = w + 1;
        return e && walk_operands(in, e->params, e->num_params, io_w, is_id, depth + 1);
    }
    case SPV_CATEGORY_BIT_ENUM: {
        uint32_t mask = in->words[w];
        *io_w = w + 1;
        for (uint32_t b = 0; b < 32; b++) {
            if (!(mask & (1u << b)))
                continue;
            const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)kind, 1u << b);
            if (!e || !walk_operands(in, e->params, e->num_params, io_w, is_id, depth + 1))
                return 0;
        }
        return 1;
    }
    default:
        return 0;
    }
}

static int walk_operands(const spv_inst *in, const spv_operand_desc *ops, uint16_t nops,
                         uint32_t *io_w, uint8_t *is_id, int depth)
{
    for (uint16_t k = 0; k < nops; k++) {
        uint8_t q = ops[k].quantifier;
        if (*io_w >= in->word_count) {
            if (q == SPV_QUANT_ONE)
                return 0;
            continue;
        }
        do {
            if (!walk_one(in, ops[k].kind, io_w, is_id, depth))
                return 0;
        } while (q == SPV_QUANT_VARIABLE && *io_w < in->word_count);
    }
    return *io_w <= in->word_count;
}

/* is_id[] (in->word_count entries) for `in`: its <id> operands. */
static void id_operands(const spv_inst *in, uint8_t *is_id)
{
    memset(is_id, 0, in->word_count);
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    uint32_t w = 1;
    if (d && in->opcode != SpvOpSwitch &&
        walk_operands(in, d->operands, d->num_operands, &w, is_id, 0) && w == in->word_count)
        return;
    uint32_t first = 1u + (d ? (uint32_t)d->has_result_type + d->has_result : 0u);
    memset(is_id, 0, in->word_count);
    for (uint32_t k = first; k < in->word_count; k++)
        is_id[k] = 1;
}

/* Bytes of a value of type `tid` (a whole matrix per scope instance, an
 * array, a struct, a long vector), 0 for none or a pointer. */
static uint64_t value_bytes(const cvm_lower *lw, uint32_t tid)
{
    const cvm_program *p = lw->prog;
    if (tid == 0 || tid >= p->ntypes || p->types[tid].tclass == CVM_TC_POINTER)
        return 0;
    return p->types[tid].size;
}

/* The component count of a vector value `id` (1 for others). */
static uint64_t components_of(const cvm_lower *lw, uint32_t id)
{
    const cvm_program *p = lw->prog;
    uint32_t tid = cvm_lower_type_of(lw, id);
    if (tid == 0 || tid >= p->ntypes || p->types[tid].tclass != CVM_TC_VECTOR)
        return 1;
    return p->types[tid].count ? p->types[tid].count : 1;
}

/* The instruction budget's charge for `in` beyond its one
 * (cvm_block.cost, CVM_BUDGET_VALUE_BYTES and CVM_BUDGET_MACS in
 * cvm_config.h): its largest value (its result, an <id> operand's, or what
 * OpCopyMemory moves) per CVM_BUDGET_VALUE_BYTES, and a matrix product's
 * multiply-adds per CVM_BUDGET_MACS.  is_id has room for in->word_count. */
static uint64_t insn_extra_cost(const cvm_lower *lw, const spv_inst *in, const cvm_insn *ins,
                                uint8_t *is_id)
{
    const cvm_program *p = lw->prog;
    uint64_t bytes = value_bytes(lw, ins->type), macs = 0;
    id_operands(in, is_id);
    for (uint32_t w = 1; w < in->word_count; w++)
        if (is_id[w]) {
            uint64_t b = value_bytes(lw, cvm_lower_type_of(lw, in->words[w]));
            bytes = b > bytes ? b : bytes;
        }
    switch (in->opcode) {
    case SpvOpCopyMemory: case SpvOpCopyMemorySized: {
        uint32_t pt = in->word_count > 1 ? cvm_lower_type_of(lw, in->words[1]) : 0;
        if (pt && pt < p->ntypes && p->types[pt].tclass == CVM_TC_POINTER) {
            uint64_t b = value_bytes(lw, p->types[pt].elem);
            bytes = b > bytes ? b : bytes;
        }
        break;
    }
    case SpvOpCooperativeMatrixMulAddKHR: case SpvOpCooperativeMatrixMulAddNV:
        /* M x N result, A of M x K */
        if (in->word_count > 3 && ins->type < p->ntypes) {
            uint32_t at = cvm_lower_type_of(lw, in->words[3]);
            if (at && at < p->ntypes && p->types[at].tclass == CVM_TC_COOPMAT)
                macs = (uint64_t)p->types[ins->type].rows * p->types[ins->type].cols *
                       p->types[at].cols;
        }
        break;
    case SpvOpCooperativeVectorMatrixMulNV: case SpvOpCooperativeVectorMatrixMulAddNV:
        /* per invocation: M result components from K input components */
        if (in->word_count > 3)
            macs = components_of(lw, in->words[2]) * components_of(lw, in->words[3]);
        break;
    case SpvOpCooperativeVectorOuterProductAccumulateNV:
        /* Pointer, Offset, A (M), B (N): an M x N matrix added to memory */
        if (in->word_count > 4)
            macs = components_of(lw, in->words[3]) * components_of(lw, in->words[4]);
        break;
    default:
        break;
    }
    return bytes / CVM_BUDGET_VALUE_BYTES + macs / CVM_BUDGET_MACS;
}

static int mark_live(uint8_t *live, uint32_t bound, uint32_t id)
{
    if (id >= bound || live[id])
        return 0;
    live[id] = 1;
    return 1;
}

/* The local variable a pointer `id` reaches (itself, or the base of its
 * access chains), 0 for none. */
static uint32_t local_root(const uint32_t *root, uint32_t bound, uint32_t id)
{
    return id < bound ? root[id] : 0;
}

static cvm_result find_dead_loads(cvm_lower *lw)
{
    const spv_module *mod = lw->mod;
    const cvm_program *p = lw->prog;
    uint32_t bound = mod->bound;
    spv_inst in;
    int any = 0;
    for (uint32_t f = 0; f < mod->nfunctions && !any; f++) {
        const spv_function *sf = &mod->functions[f];
        for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
             off += in.word_count ? in.word_count : 1)
            any |= removable_load(&in);
    }
    if (!any)
        return CVM_SUCCESS;
    uint32_t *root = cvm_calloc(bound, sizeof(uint32_t));
    uint8_t *live = cvm_calloc(bound, 1), *is_id = cvm_malloc(65536);
    if (!root || !live || !is_id) {
        cvm_mem_free(root);
        cvm_mem_free(live);
        cvm_mem_free(is_id);
        return cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t id = 1; id < bound; id++) {
        const spv_def *vd = &mod->defs[id];
        if (vd->opcode != SpvOpVariable || vd->type >= p->ntypes)
            continue;
        uint32_t sc = p->types[vd->type].storage_class;
        if (sc == SpvStorageClassPrivate || sc == SpvStorageClassFunction)
            root[id] = id;
    }
    /* access chains into them, until none is added */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t f = 0; f < mod->nfunctions; f++) {
            const spv_function *sf = &mod->functions[f];
            for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
                 off += in.word_count ? in.word_count : 1) {
                if ((in.opcode != SpvOpAccessChain && in.opcode != SpvOpInBoundsAccessChain) ||
                    in.word_count < 4 || in.words[2] >= bound || root[in.words[2]])
                    continue;
                uint32_t r = local_root(root, bound, in.words[3]);
                if (r) {
                    root[in.words[2]] = r;
                    changed = 1;
                }
            }
        }
    }
    /* a variable whose pointers are used otherwise than to load, store or
     * chain is not local */
    uint8_t *other = live; /* reused: cleared below */
    for (uint32_t f = 0; f < mod->nfunctions; f++) {
        const spv_function *sf = &mod->functions[f];
        for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
             off += in.word_count ? in.word_count : 1) {
            uint32_t ptr_word = in.opcode == SpvOpStore                ? 1u
                                : in.opcode == SpvOpLoad               ? 3u
                                : in.opcode == SpvOpAccessChain        ? 3u
                                : in.opcode == SpvOpInBoundsAccessChain ? 3u
                                                                       : 0u;
            id_operands(&in, is_id);
            for (uint32_t w = 1; w < in.word_count; w++) {
                uint32_t r = is_id[w] && w != ptr_word ? local_root(root, bound, in.words[w]) : 0;
                if (r)
                    other[r] = 1;
            }
        }
    }
    for (uint32_t id = 1; id < bound; id++)
        if (root[id] && other[root[id]])
            root[id] = 0;
    memset(live, 0, bound);
    for (int changed = 1, pass = 0; changed; pass++) {
        changed = 0;
        for (uint32_t f = 0; f < mod->nfunctions; f++) {
            const spv_function *sf = &mod->functions[f];
            for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
                 off += in.word_count ? in.word_count : 1) {
                int mark;
                uint32_t r;
                if (removable_load(&in)) {
                    mark = in.words[2] < bound && live[in.words[2]];
                } else if (in.opcode == SpvOpStore && in.word_count >= 3 &&
                           (r = local_root(root, bound, in.words[1])) != 0) {
                    mark = live[r];
                } else if (in.opcode == SpvOpLoad && in.word_count >= 4 &&
                           (r = local_root(root, bound, in.words[3])) != 0) {
                    if (in.words[2] < bound && live[in.words[2]])
                        changed |= mark_live(live, bound, r);
                    continue;
                } else if ((in.opcode == SpvOpAccessChain ||
                            in.opcode == SpvOpInBoundsAccessChain) &&
                           in.word_count >= 4 &&
                           (r = local_root(root, bound, in.words[3])) != 0) {
                    /* a pointer into a local variable: its loads and stores
                     * decide whether the variable is live, and its Indexes
                     * are live with it (an index loaded from another local
                     * variable keeps that one's stores) */
                    if (live[r])
                        for (uint32_t w = 4; w < in.word_count; w++)
                            changed |= mark_live(live, bound, in.words[w]);
                    continue;
                } else {
                    mark = pass == 0; /* a root: once is enough */
                }
                if (!mark)
                    continue;
                id_operands(&in, is_id);
                for (uint32_t w = 1; w < in.word_count; w++)
                    if (is_id[w])
                        changed |= mark_live(live, bound, in.words[w]);
            }
        }
    }
    for (uint32_t f = 0; f < mod->nfunctions; f++) {
        const spv_function *sf = &mod->functions[f];
        for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
             off += in.word_count ? in.word_count : 1)
            if (removable_load(&in) && in.words[2] < bound && !live[in.words[2]])
                lw->dead[in.words[2]] = DEAD_LOAD;
    }
    /* every pointer into a dead variable: its stores are not lowered */
    for (uint32_t id = 1; id < bound; id++)
        if (root[id] && !live[root[id]])
            lw->dead[id] = DEAD_VAR;
    cvm_mem_free(root);
    cvm_mem_free(live);
    cvm_mem_free(is_id);
    return CVM_SUCCESS;
}

static cvm_result lower_function(cvm_lower *lw, uint32_t fidx)
{
    const spv_module *mod = lw->mod;
    cvm_program *p = lw->prog;
    const spv_function *sf = &mod->functions[fidx];
    cvm_function *f = &p->funcs[fidx];
    cvm_result r = CVM_SUCCESS;
    blockinfo *blocks = NULL;
    uint32_t nblocks = 0, cap = 0;
    uint32_t *order = NULL;
    cvm_uniform_block *ublocks = NULL;
    uint8_t *conv = NULL, *conv_sg = NULL, *sg_marks = NULL, *is_id = NULL;
    f->id = sf->id;
    f->return_type = sf->result_type;

    /* Pass 1: parameters and blocks. */
    size_t off = sf->begin;
    spv_inst in;
    spv_next_inst(&mod->bin, &off, &in, NULL); /* OpFunction */
    blockinfo *cur = NULL;
    while (off < sf->end && spv_next_inst(&mod->bin, &off, &in, lw->diag) == 1) {
        if (in.opcode == SpvOpFunctionParameter) {
            uint32_t *np = cvm_realloc(f->params, (f->nparams + 1) * sizeof(uint32_t));
            if (!np)
                goto oom;
            f->params = np;
            f->params[f->nparams++] = in.words[2];
        } else if (in.opcode == SpvOpLabel) {
            if (nblocks == cap) {
                cap = cap ? cap * 2 : 16;
                blockinfo *nb = cvm_realloc(blocks, cap * sizeof(blockinfo));
                if (!nb)
                    goto oom;
                blocks = nb;
            }
            cur = &blocks[nblocks];
            memset(cur, 0, sizeof(*cur));
            cur->label = in.words[1];
            cur->begin = in.offset;
            lw->block_of_label[cur->label] = nblocks;
            nblocks++;
        } else if (cur) {
            switch (in.opcode) {
            case SpvOpLoopMerge:
                cur->merge = in.words[1];
                cur->cont = in.words[2];
                break;
            case SpvOpSelectionMerge:
                cur->merge = in.words[1];
                break;
            case SpvOpBranch:
                if (add_succ(cur, in.words[1]))
                    goto oom;
                cur->end = (uint32_t)off;
                cur = NULL;
                break;
            case SpvOpBranchConditional:
                if (add_succ(cur, in.words[2]) || add_succ(cur, in.words[3]))
                    goto oom;
                cur->end = (uint32_t)off;
                cur = NULL;
                break;
            case SpvOpSwitch: {
                const cvm_type *st = &p->types[mod->defs[in.words[1]].type];
                uint32_t lw_words = st->size > 4 ? 2 : 1;
                if (add_succ(cur, in.words[2]))
                    goto oom;
                for (uint32_t i = 3; i + lw_words < in.word_count; i += lw_words + 1)
                    if (add_succ(cur, in.words[i + lw_words]))
                        goto oom;
                cur->end = (uint32_t)off;
                cur = NULL;
                break;
            }
            case SpvOpReturn:
            case SpvOpReturnValue:
            case SpvOpKill:
            case SpvOpUnreachable:
            case SpvOpTerminateInvocation:
                cur->end = (uint32_t)off;
                cur = NULL;
                break;
            default:
                break;
            }
        }
    }
    if (nblocks == 0) {
        r = cvm_lower_fail(lw, NULL, CVM_ERROR_UNSUPPORTED, "function %u has no body (linkage)", sf->id);
        goto done;
    }
    for (uint32_t i = 0; i < nblocks; i++) {
        if (!blocks[i].end) {
            spv_inst li;
            spv_module_inst_at(mod, blocks[i].begin, &li);
            r = cvm_lower_fail(lw, &li, CVM_ERROR_MALFORMED, "block %u has no terminator",
                               blocks[i].label);
            goto done;
        }
        for (uint32_t s = 0; s < blocks[i].nsuccs; s++) {
            uint32_t lab = blocks[i].succs[s];
            if (lab >= mod->bound || lw->block_of_label[lab] == UINT32_MAX ||
                mod->defs[lab].func != fidx) {
                spv_inst li;
                spv_module_inst_at(mod, blocks[i].begin, &li);
                r = cvm_lower_fail(lw, &li, CVM_ERROR_INVALID_MODULE,
                                   "branch to %u, which is not a block of this function", lab);
                goto done;
            }
        }
    }

    /* Structured order. */
    order = cvm_malloc(nblocks * sizeof(uint32_t));
    if (!order)
        goto oom;
    uint32_t norder = 0;
    if (structured_order(blocks, nblocks, lw->block_of_label, order, &norder) != CVM_SUCCESS)
        goto oom;
    for (uint32_t i = 0; i < nblocks; i++)
        lw->block_of_label[blocks[i].label] = UINT32_MAX;
    for (uint32_t i = 0; i < norder; i++)
        lw->block_of_label[blocks[order[i]].label] = i;

    f->blocks = cvm_calloc(norder, sizeof(cvm_block));
    if (!f->blocks)
        goto oom;
    f->nblocks = norder;

    /* Uniformity (exec/uniform.h). */
    ublocks = cvm_calloc(norder + 1, sizeof(cvm_uniform_block));
    conv = cvm_calloc(norder + 1, 1);
    if (!ublocks || !conv)
        goto oom;
    for (uint32_t i = 0; i < norder; i++) {
        const blockinfo *b = &blocks[order[i]];
        ublocks[i] = (cvm_uniform_block){b->label, b->begin, b->end, b->merge, b->cont,
                                         b->succs, b->nsuccs, 0};
    }
    if (cvm_uniform_dead_blocks(p, ublocks, norder, lw->block_of_label) != CVM_SUCCESS ||
        cvm_uniform_analyze(p, fidx, ublocks, norder, lw->block_of_label, lw->umarks, conv) !=
        CVM_SUCCESS)
        goto oom;
    /* (the subgroup level: only its blocks are kept, for the compiled tier) */
    conv_sg = cvm_calloc(norder + 1, 1);
    sg_marks = cvm_calloc(mod->bound ? mod->bound : 1, 1);
    if (!conv_sg || !sg_marks ||
        cvm_uniform_analyze_subgroup(p, fidx, ublocks, norder, lw->block_of_label, sg_marks,
                                     conv_sg) != CVM_SUCCESS)
        goto oom;
    int uniform_ok = 1;
    uint32_t first_insn = p->ninsns;
    if (!(is_id = cvm_malloc(65536)))
        goto oom;

    /* Pass 2: instructions, block by block in structured order. */
    for (uint32_t i = 0; i < norder; i++) {
        blockinfo *b = &blocks[order[i]];
        cvm_block *cb = &f->blocks[i];
        cb->label = b->label;
        cb->first = p->ninsns;
        uint64_t extra_cost = 0;
        size_t o2 = b->begin;
        spv_next_inst(&mod->bin, &o2, &in, NULL); /* OpLabel */
        while (o2 < b->end && spv_next_inst(&mod->bin, &o2, &in, lw->diag) == 1) {
            switch (in.opcode) {
            case SpvOpLine: case SpvOpNoLine: case SpvOpLoopMerge: case SpvOpSelectionMerge:
            case SpvOpNop: case SpvOpMemoryBarrier: case SpvOpModuleProcessed:
                continue;
            case SpvOpStore: /* into a variable nothing reads (find_dead_loads) */
                if (in.word_count >= 3 && in.words[1] < mod->bound && lw->dead[in.words[1]] == DEAD_VAR)
                    continue;
                break;
            default:
                if (in.word_count >= 3 && in.words[2] < mod->bound &&
                    lw->dead[in.words[2]] == DEAD_LOAD && removable_load(&in))
                    continue;
                break;
            }
            cvm_insn *ins = new_insn(lw);
            if (!ins)
                goto oom;
            if ((r = lower_inst(lw, &in, ins)) != CVM_SUCCESS)
                goto done;
            if ((r = mark_uniform(lw, fidx, &in, ins, conv[i], &uniform_ok)) != CVM_SUCCESS)
                goto done;
            if (ins->fn == NULL && ins->cf == CVM_CF_NONE)
                p->ninsns--; /* a no-op */
            else
                extra_cost += insn_extra_cost(lw, &in, ins, is_id);
        }
        cb->count = p->ninsns - cb->first;
        /* (at most 2^44: a charge times a subgroup size stays far from
         * overflowing the compiled tier's signed 64-bit budget) */
        cb->cost = cb->count + (extra_cost < (UINT64_C(1) << 44) ? extra_cost : (UINT64_C(1) << 44));
        cb->convergent = conv[i];
        cb->convergent_sg = conv_sg[i] | conv[i];
        cb->dead = ublocks[i].dead;
    }
    if (!uniform_ok) /* a marked value the lowering made a no-op: no marks in the function */
        unmark_function(lw, fidx, first_insn);
    /* OpReturnValue copies its value into the return slot, which has the
     * size of the function's return type: a module that skipped validation
     * may return a value of another size, or from a function returning no
     * value (no slot at all) */
    for (uint32_t k = first_insn; k < p->ninsns; k++) {
        const cvm_insn *ri = &p->insns[k];
        if (ri->cf != CVM_CF_RETURN_VALUE)
            continue;
        uint32_t rt = f->return_type, vt = ri->a < p->bound ? mod->defs[ri->a].type : 0;
        if (rt >= p->ntypes || vt >= p->ntypes || p->types[rt].tclass == CVM_TC_NONE ||
            p->types[vt].size != p->types[rt].size) {
            spv_inst ri_in;
            spv_module_inst_at(mod, ri->word_off, &ri_in);
            r = cvm_lower_fail(lw, &ri_in, CVM_ERROR_INVALID_MODULE,
                               "OpReturnValue of a value of type %u in a function returning %u",
                               vt, rt);
            goto done;
        }
    }
    f->lowered = 1;
    f->leaf = (uint32_t)leaf_function(p, fidx);
    goto done;
oom:
    r = cvm_diag_set(lw->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
done:
    for (uint32_t i = 0; i < nblocks; i++)
        cvm_mem_free(blocks[i].succs);
    cvm_mem_free(blocks);
    cvm_mem_free(order);
    cvm_mem_free(ublocks);
    cvm_mem_free(conv);
    cvm_mem_free(conv_sg);
    cvm_mem_free(sg_marks);
    cvm_mem_free(is_id);
    return r;
}

/* ---- the program ------------------------------------------------------------ */

void cvm_program_destroy(cvm_program *p)
{
    if (!p)
        return;
    if (p->types) {
        for (uint32_t i = 0; i < p->ntypes; i++) {
            cvm_mem_free(p->types[i].member_types);
            cvm_mem_free(p->types[i].member_offsets);
            cvm_mem_free(p->types[i].member_mem_offsets);
        }
    }
    cvm_mem_free(p->types);
    cvm_mem_free(p->const_data);
    cvm_mem_free(p->const_offset);
    cvm_mem_free(p->insns);
    cvm_mem_free(p->extra);
    if (p->funcs) {
        for (uint32_t i = 0; i < p->nfuncs; i++) {
            cvm_mem_free(p->funcs[i].params);
            cvm_mem_free(p->funcs[i].blocks);
            cvm_mem_free(p->funcs[i].local_ids);
        }
    }
    cvm_mem_free(p->funcs);
    cvm_mem_free(p->func_index);
    cvm_mem_free(p->var_offset);
    cvm_mem_free(p->var_region);
    cvm_mem_free(p->uniform);
    cvm_mem_free(p->var_uoffset);
    cvm_mem_free(p->var_doff);
    cvm_mem_free(p->descs);
    cvm_mem_free(p->builtin_vars);
    cvm_mem_free(p->builtin_kinds);
    cvm_mem_free(p->init_vars);
    cvm_mem_free(p);
}

static cvm_result find_local_size(cvm_lower *lw, uint32_t func)
{
    const spv_module *mod = lw->mod;
    cvm_program *p = lw->prog;
    int found = 0;
    for (uint32_t i = 0; i < mod->nmodes; i++) {
        const spv_exec_mode *m = &mod->modes[i];
        if (m->func != func || m->nops < 3)
            continue;
        if (m->mode == SpvExecutionModeLocalSize) {
            for (int k = 0; k < 3; k++)
                p->local_size[k] = mod->bin.words[m->off + k];
            found = 1;
        } else if (m->mode == SpvExecutionModeLocalSizeId) {
            for (int k = 0; k < 3; k++) {
                uint64_t v;
                if (!cvm_lower_const_u64(lw, mod->bin.words[m->off + k], &v))
                    return cvm_lower_fail(lw, NULL, CVM_ERROR_INVALID_MODULE,
                                          "LocalSizeId operand is not a constant");
                p->local_size[k] = (uint32_t)v;
            }
            found = 1;
        }
    }
    /* A constant decorated BuiltIn WorkgroupSize overrides the mode. */
    for (uint32_t i = 0; i < mod->ndecorations; i++) {
        const spv_decoration *d = &mod->decorations[i];
        if (d->decoration != SpvDecorationBuiltIn || d->member != SPV_NO_MEMBER ||
            spv_decoration_operand(mod, d, 0) != SpvBuiltInWorkgroupSize)
            continue;
        const uint8_t *v = const_ptr(lw, d->target);
        if (!v)
            continue;
        /* three 32-bit integers (VUID-WorkgroupSize-WorkgroupSize-04427) */
        uint32_t tid = d->target < mod->bound ? mod->defs[d->target].type : 0;
        const cvm_type *t = tid && tid < p->ntypes ? &p->types[tid] : NULL;
        if (!t || t->tclass != CVM_TC_VECTOR || t->coopvec || t->count != 3 ||
            t->elem >= p->ntypes || p->types[t->elem].tclass != CVM_TC_INT ||
            p->types[t->elem].size != 4)
            return cvm_lower_fail(lw, NULL, CVM_ERROR_INVALID_MODULE,
                                  "the BuiltIn WorkgroupSize constant %%%u must be a vector of "
                                  "three 32-bit integers, not type %%%u",
                                  d->target, tid);
        for (int k = 0; k < 3; k++)
            memcpy(&p->local_size[k], v + 4 * k, 4);
        found = 1;
    }
    if (!found)
        return cvm_lower_fail(lw, NULL, CVM_ERROR_INVALID_MODULE,
                              "the entry point declares no workgroup size");
    uint64_t n = (uint64_t)p->local_size[0] * p->local_size[1] * p->local_size[2];
    if (n == 0 || n > CVM_MAX_WORKGROUP_INVOCATIONS)
        return cvm_lower_fail(lw, NULL, CVM_ERROR_LIMIT, "workgroup size %ux%ux%u (limit %u invocations)",
                              p->local_size[0], p->local_size[1], p->local_size[2],
                              CVM_MAX_WORKGROUP_INVOCATIONS);
    return CVM_SUCCESS;
}

/* Whether a pointer id points into Private memory (by its type). */
static int is_private_pointer(const cvm_lower *lw, uint32_t id)
{
    if (id >= lw->prog->bound)
        return 0;
    const cvm_type *t = &lw->prog->types[lw->mod->defs[id].type];
    return t->tclass == CVM_TC_POINTER && t->storage_class == SpvStorageClassPrivate;
}

/* cvm_function.writes_private: a function that stores or atomically updates
 * through a Private pointer, or calls one that does.  Callbacks of such a
 * function must not run two calls of one invocation side by side
 * (cvm_callback_run).  Also cvm_function.fvar_lo/hi, the per-invocation
 * memory its Function variables (and its callees') occupy. */
static void find_private_writers(cvm_lower *lw)
{
    cvm_program *p = lw->prog;
    const spv_module *mod = lw->mod;
    for (uint32_t i = 0; i < mod->nfunctions; i++) {
        const spv_function *sf = &mod->functions[i];
        spv_inst in;
        for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
             off += in.word_count ? in.word_count : 1) {
            uint32_t ptr = 0;
            const spv_instruction_desc *d;
            switch (in.opcode) {
            case SpvOpStore: case SpvOpCopyMemory: case SpvOpCopyMemorySized:
            case SpvOpAtomicStore: case SpvOpCooperativeMatrixStoreKHR:
            case SpvOpCooperativeMatrixStoreNV:
            case SpvOpCooperativeMatrixStoreTensorNV: case SpvOpCooperativeVectorStoreNV:
                ptr = in.word_count > 1 ? in.words[1] : 0;
                break;
            default:
                d = spv_grammar_instruction(in.opcode);
                if (d && !strncmp(d->name, "OpAtomic", 8) && in.opcode != SpvOpAtomicLoad &&
                    in.word_count > 3)
                    ptr = in.words[3];
                break;
            }
            if (ptr && is_private_pointer(lw, ptr))
                p->funcs[i].writes_private = 1;
        }
    }
    /* Each function's own Function variables in per-invocation memory. */
    for (uint32_t i = 0; i < mod->nfunctions; i++) {
        p->funcs[i].fvar_lo = UINT64_MAX;
        p->funcs[i].fvar_hi = 0;
    }
    for (uint32_t id = 1; id < p->bound; id++) {
        const spv_def *d = &mod->defs[id];
        if (d->opcode != SpvOpVariable || d->func >= mod->nfunctions ||
            p->var_region[id] != CVM_REGION_INVOCATION)
            continue;
        const cvm_type *pt = &p->types[d->type];
        uint64_t lo = p->var_offset[id], hi = lo + p->types[pt->elem].mem_size;
        cvm_function *f = &p->funcs[d->func];
        f->fvar_lo = CVM_MIN(f->fvar_lo, lo);
        f->fvar_hi = CVM_MAX(f->fvar_hi, hi);
    }
    /* through calls, until nothing changes */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < mod->nfunctions; i++) {
            cvm_function *f = &p->funcs[i];
            const spv_function *sf = &mod->functions[i];
            spv_inst in;
            for (uint32_t off = sf->begin; off < sf->end && spv_module_inst_at(mod, off, &in);
                 off += in.word_count ? in.word_count : 1) {
                if (in.opcode != SpvOpFunctionCall || in.word_count < 4 || in.words[3] >= p->bound)
                    continue;
                uint32_t ci = p->func_index[in.words[3]];
                if (ci == UINT32_MAX || ci == i)
                    continue;
                const cvm_function *callee = &p->funcs[ci];
                if (callee->writes_private && !f->writes_private) {
                    f->writes_private = 1;
                    changed = 1;
                }
                if (callee->fvar_lo < callee->fvar_hi &&
                    (callee->fvar_lo < f->fvar_lo || callee->fvar_hi > f->fvar_hi)) {
                    f->fvar_lo = CVM_MIN(f->fvar_lo, callee->fvar_lo);
                    f->fvar_hi = CVM_MAX(f->fvar_hi, callee->fvar_hi);
                    changed = 1;
                }
            }
        }
    }
}

cvm_result cvm_program_build(const spv_module *mod, const char *entry_name,
                             const cvm_specialization *specs, uint32_t nspecs,
                             cvm_program **o_prog, cvm_diagnostic *diag)
{
    return cvm_program_build_sg(mod, entry_name, specs, nspecs, 0, o_prog, diag);
}

cvm_result cvm_program_build_sg(const spv_module *mod, const char *entry_name,
                                const cvm_specialization *specs, uint32_t nspecs,
                                uint32_t sg_size, cvm_program **o_prog, cvm_diagnostic *diag)
{
    cvm_lower lw;
    memset(&lw, 0, sizeof(lw));
    cvm_result r;
    cvm_program *p = cvm_calloc(1, sizeof(cvm_program));
    if (!p)
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    p->mod = mod;
    p->bound = mod->bound;
    lw.prog = p;
    lw.mod = mod;
    lw.diag = diag;
    lw.specs = specs;
    lw.nspecs = nspecs;
    lw.sg_size = sg_size ? sg_size : CVM_DEFAULT_SUBGROUP_SIZE;
    p->sg_size = lw.sg_size;
    /* the operand table exists from the start, so that `extra + in->extra`
     * of an instruction with no extra operands is never an offset applied
     * to a null pointer (undefined behaviour, reported by clang's UBSan in
     * h_tensor_state through fuzz_module_unvalidated) */
    if (cvm_lower_extra(&lw, NULL, 0) == UINT32_MAX) {
        cvm_program_destroy(p);
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    p->types = cvm_calloc(mod->bound, sizeof(cvm_type));
    p->ntypes = mod->bound;
    lw.types_cap = mod->bound;
    lw.layout_of = cvm_calloc(mod->bound, sizeof(uint32_t));
    lw.wg_block_offset = UINT64_MAX;
    for (uint32_t i = 0; i < mod->ncapabilities; i++)
        if (mod->capabilities[i] == SpvCapabilityWorkgroupMemoryExplicitLayoutKHR)
            lw.wg_explicit = 1;
    p->const_offset = cvm_malloc(mod->bound * sizeof(uint64_t));
    p->func_index = cvm_malloc(mod->bound * sizeof(uint32_t));
    p->var_offset = cvm_calloc(mod->bound, sizeof(uint64_t));
    p->var_region = cvm_calloc(mod->bound, 1);
    p->uniform = cvm_calloc(mod->bound, 1);
    p->var_uoffset = cvm_malloc(mod->bound * sizeof(uint64_t));
    p->var_doff = cvm_malloc(mod->bound * sizeof(uint64_t));
    lw.umarks = cvm_calloc(mod->bound, 1);
    lw.dead = cvm_calloc(mod->bound, 1);
    lw.block_of_label = cvm_malloc(mod->bound * sizeof(uint32_t));
    p->funcs = cvm_calloc(mod->nfunctions ? mod->nfunctions : 1, sizeof(cvm_function));
    if (!p->types || !p->const_offset || !p->func_index || !p->var_offset || !p->var_region ||
        !lw.block_of_label || !p->funcs || !lw.layout_of || !p->uniform || !p->var_uoffset || !p->var_doff ||
        !lw.umarks || !lw.dead) {
        r = cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < mod->bound; i++) {
        p->const_offset[i] = UINT64_MAX;
        p->func_index[i] = UINT32_MAX;
        lw.block_of_label[i] = UINT32_MAX;
        p->var_uoffset[i] = UINT64_MAX;
        p->var_doff[i] = UINT64_MAX;
    }
    p->nfuncs = mod->nfunctions;
    for (uint32_t i = 0; i < mod->nfunctions; i++)
        p->func_index[mod->functions[i].id] = i;
    p->glsl_ext = mod->glsl_ext;

    /* Entry point. */
    const spv_entry_point *ep = NULL;
    for (uint32_t i = 0; i < mod->nentries; i++) {
        const spv_entry_point *e = &mod->entries[i];
        if (e->model != SpvExecutionModelGLCompute)
            continue;
        if (entry_name ? !strcmp(entry_name, e->name) : ep == NULL) {
            ep = e;
            if (entry_name)
                break;
        }
    }
    if (!ep) {
        r = cvm_diag_set(diag, CVM_ERROR_NOT_FOUND, "no GLCompute entry point named '%s'",
                         entry_name ? entry_name : "(any)");
        goto fail;
    }
    p->entry = p->func_index[ep->func];

    if ((r = lower_globals(&lw)) != CVM_SUCCESS)
        goto fail;
    if ((r = find_local_size(&lw, ep->func)) != CVM_SUCCESS)
        goto fail;
    if ((r = find_dead_loads(&lw)) != CVM_SUCCESS)
        goto fail;
    for (uint32_t i = 0; i < mod->nfunctions; i++)
        if ((r = lower_function(&lw, i)) != CVM_SUCCESS)
            goto fail;
    find_private_writers(&lw);
    cvm_mem_free(lw.block_of_label);
    cvm_mem_free(lw.layout_of);
    cvm_mem_free(lw.umarks);
    cvm_mem_free(lw.dead);
    *o_prog = p;
    return CVM_SUCCESS;
fail:
    cvm_mem_free(lw.block_of_label);
    cvm_mem_free(lw.layout_of);
    cvm_mem_free(lw.umarks);
    cvm_mem_free(lw.dead);
    cvm_program_destroy(p);
    return r;
}

cvm_result cvm_lower_alloc_variable(cvm_lower *lw, uint32_t id, uint64_t size, int scope)
{
    cvm_program *p = lw->prog;
    if (scope) {
        p->scope_size = align_up64(p->scope_size, 16);
        p->var_region[id] = scope == 2 ? (CVM_REGION_SCOPE | 0x80) : CVM_REGION_SCOPE;
        p->var_offset[id] = p->scope_size;
        p->scope_size += size;
    } else {
        p->inv_size = align_up64(p->inv_size, 16);
        p->var_region[id] = CVM_REGION_INVOCATION;
        p->var_offset[id] = p->inv_size;
        p->inv_size += size;
    }
    return CVM_SUCCESS;
}
