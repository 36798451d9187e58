/* Uniformity analysis: see uniform.h for what it proves and why that is
 * enough for one value slot per group. */
#include <stdlib.h>
#include <string.h>

#include "exec/uniform.h"

#define MAX_BLOCKS 4096u
#define MAX_INSTS 65536u
#define MAX_STORES_PER_VAR 64u
/* Steps (dominator walks, region searches, rule evaluations) before the
 * analysis gives up on a function: bounds its time on any module. */
#define MAX_WORK 20000000u
/* Loads and stores of candidate variables the store-before-load check
 * takes (it compares them pairwise). */
#define MAX_ACCESSES 4096u

typedef struct ua_inst {
    uint32_t off;   /* word offset */
    uint32_t block; /* structured index */
} ua_inst;

typedef struct ua_access {
    uint32_t var, block, off, value; /* value: the stored id (stores) */
} ua_access;

typedef struct ua {
    const cvm_program *p;
    const spv_module *mod;
    uint32_t fidx;
    const cvm_uniform_block *b;
    uint32_t nb;
    const uint32_t *bol;
    uint8_t *U;
    uint8_t *conv;
    ua_inst *insts;
    uint32_t ninsts;
    uint32_t *term_off;  /* per block: the terminator's word offset */
    uint32_t words;     /* 64-bit words of a bitset of the blocks */
    uint64_t work;      /* steps taken, up to MAX_WORK */
    uint32_t *idom;
    uint32_t *pred_first, *preds;
    uint32_t *queue;
    uint64_t *seen;
    int subgroup; /* cvm_uniform_analyze_subgroup: SubgroupId is uniform too */
} ua;

static int bit_get(const uint64_t *s, uint32_t i)
{
    return (int)((s[i >> 6] >> (i & 63)) & 1u);
}

static void bit_set(uint64_t *s, uint32_t i)
{
    s[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* The structured index of a label of this function, or UINT32_MAX. */
static uint32_t block_index(const ua *a, uint32_t label)
{
    if (label == 0 || label >= a->mod->bound)
        return UINT32_MAX;
    uint32_t i = a->bol[label];
    return i < a->nb && a->b[i].label == label ? i : UINT32_MAX;
}

static int type_ok(const cvm_program *p, uint32_t tid)
{
    if (tid == 0 || tid >= p->ntypes)
        return 0;
    const cvm_type *t = &p->types[tid];
    switch (t->tclass) {
    case CVM_TC_BOOL: case CVM_TC_INT: case CVM_TC_FLOAT: case CVM_TC_POINTER:
    case CVM_TC_TENSOR_LAYOUT: case CVM_TC_TENSOR_VIEW:
        return 1;
    case CVM_TC_VECTOR:
        return !t->coopvec;
    default:
        return 0;
    }
}

static int is_uniform_builtin(const cvm_program *p, uint32_t var, int subgroup)
{
    for (uint32_t k = 0; k < p->nbuiltins; k++) {
        if (p->builtin_vars[k] != var)
            continue;
        switch (p->builtin_kinds[k]) {
        case SpvBuiltInWorkgroupId: case SpvBuiltInNumWorkgroups: case SpvBuiltInWorkgroupSize:
        case SpvBuiltInSubgroupSize: case SpvBuiltInNumSubgroups:
            return 1;
        case SpvBuiltInSubgroupId:
            return subgroup;
        default:
            return 0;
        }
    }
    return 0;
}

int cvm_uniform_operand(const cvm_program *p, uint32_t fidx, const uint8_t *marks, uint32_t id)
{
    if (id == 0 || id >= p->bound)
        return 0;
    const spv_def *d = &p->mod->defs[id];
    if (d->func == fidx) {
        if (d->opcode == SpvOpVariable)
            return (marks[id] & CVM_UNIFORM_VAR) != 0;
        return (marks[id] & CVM_UNIFORM_VALUE) != 0;
    }
    if (p->const_offset[id] != UINT64_MAX)
        return 1;
    /* (a variable holding cooperative matrices, one copy per subgroup or,
     * flagged 0x80, one for the workgroup, is not: access chains into its
     * matrices' elements point somewhere else in every lane) */
    if (d->func == UINT32_MAX && d->opcode == SpvOpVariable)
        return p->var_region[id] != CVM_REGION_INVOCATION &&
               (p->var_region[id] & 0x7fu) != CVM_REGION_SCOPE;
    return 0;
}

static int is_uni(const ua *a, uint32_t id)
{
    return cvm_uniform_operand(a->p, a->fidx, a->U, id);
}

/* A pointer whose every lane's copy holds the same value: a uniform
 * built-in of the entry function, or a constant access chain into one. */
static int builtin_ptr(const ua *a, uint32_t id)
{
    const cvm_program *p = a->p;
    if (a->fidx != p->entry || id == 0 || id >= p->bound)
        return 0;
    if (is_uniform_builtin(p, id, a->subgroup))
        return 1;
    const spv_def *d = &a->mod->defs[id];
    if (d->func != a->fidx || (d->opcode != SpvOpAccessChain && d->opcode != SpvOpInBoundsAccessChain))
        return 0;
    spv_inst in;
    if (!spv_module_inst_at(a->mod, d->off, &in) || in.word_count < 4 ||
        !is_uniform_builtin(p, in.words[3], a->subgroup))
        return 0;
    for (uint32_t k = 4; k < in.word_count; k++)
        if (in.words[k] >= p->bound || p->const_offset[in.words[k]] == UINT64_MAX)
            return 0;
    return 1;
}

int cvm_uniform_pure_operands(const cvm_program *p, const spv_inst *in, uint32_t *o_lo, uint32_t *o_hi)
{
    uint32_t op = in->opcode, wc = in->word_count;
    if (wc < 3)
        return 0;
    *o_lo = 3;
    *o_hi = wc;
    switch (op) {
    case SpvOpExtInst:
        if (wc < 5 || in->words[3] != p->glsl_ext || p->glsl_ext == 0)
            return 0;
        switch (in->words[4]) {
        case 35: case 51: /* Modf, Frexp: pointer operands */
        case 76: case 77: case 78: /* InterpolateAt* */
            return 0;
        default:
            break;
        }
        *o_lo = 5;
        return 1;
    case SpvOpCompositeExtract:
        *o_hi = wc > 4 ? 4 : wc;
        return 1;
    case SpvOpCooperativeMatrixLengthKHR: case SpvOpCooperativeMatrixLengthNV:
        /* the same in every lane where every scope instance has as many
         * invocations (cvm_matrix_length_fixed: not so for a subgroup-scope
         * matrix of a workgroup with a partial last subgroup) */
        *o_hi = 3;
        return wc == 4 && in->words[3] < p->ntypes &&
               cvm_matrix_length_fixed(p, &p->types[in->words[3]]) != 0;
    case SpvOpCompositeInsert: case SpvOpVectorShuffle:
        *o_hi = wc > 5 ? 5 : wc;
        return 1;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
    case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic: case SpvOpCompositeConstruct:
    case SpvOpCopyObject:
    case SpvOpVectorTimesScalar: case SpvOpDot: case SpvOpBitcast:
    case SpvOpCreateTensorLayoutNV: case SpvOpTensorLayoutSetDimensionNV:
    case SpvOpTensorLayoutSetStrideNV: case SpvOpTensorLayoutSliceNV:
    case SpvOpTensorLayoutSetClampValueNV: case SpvOpCreateTensorViewNV:
    case SpvOpTensorViewSetDimensionNV: case SpvOpTensorViewSetStrideNV:
    case SpvOpTensorViewSetClipNV: case SpvOpTensorLayoutSetBlockSizeNV:
        return 1;
    default:
        break;
    }
    if ((op >= SpvOpConvertFToU && op <= SpvOpQuantizeToF16) || /* 109..116 */
        (op >= SpvOpSNegate && op <= SpvOpFMod) ||              /* 126..141 */
        (op >= SpvOpIsNan && op <= SpvOpUnordered) ||           /* 156..163 */
        op == SpvOpAny || op == SpvOpAll ||
        (op >= SpvOpLogicalEqual && op <= SpvOpFUnordGreaterThanEqual) || /* 164..191 */
        (op >= SpvOpShiftRightLogical && op <= SpvOpBitCount))            /* 194..205 */
        return 1;
    return 0;
}

/* ---- convergence ---------------------------------------------------------- */

static void bits_clear(ua *a)
{
    memset(a->seen, 0, (size_t)a->words * 8);
}

/* Block d dominates block i (d == i included). */
static int dominates(const ua *a, uint32_t d, uint32_t i)
{
    for (;;) {
        ((ua *)a)->work++;
        if (i == d)
            return 1;
        if (i == 0 || a->idom[i] == UINT32_MAX || a->idom[i] == i)
            return 0;
        i = a->idom[i];
    }
}

static uint32_t enclosing_construct(const ua *a, uint32_t i);

/* Block x lies in the construct of header h: dominated by h, not by its
 * merge block (SPIR-V 2.11's definition). */
static int in_construct(const ua *a, uint32_t h, uint32_t x)
{
    uint32_t m = block_index(a, a->b[h].merge);
    if (m == UINT32_MAX || !dominates(a, h, x) || dominates(a, m, x))
        return 0;
    /* less the continue construct of a loop around h (a selection inside
     * a loop body dominates the continue target when every path to it
     * passes the selection) */
    for (uint32_t l = 0; l < h; l++) {
        if (!a->b[l].cont || !dominates(a, l, h))
            continue;
        uint32_t c = block_index(a, a->b[l].cont);
        if (c != UINT32_MAX && c != l && dominates(a, c, x))
            return 0;
    }
    return 1;
}

/* The construct that `x` is an exit of: h (its merge block), or one
 * around h (its merge block, or a loop's continue target); UINT32_MAX when
 * none. */
static uint32_t exit_of(const ua *a, uint32_t h, uint32_t x)
{
    if (x == block_index(a, a->b[h].merge))
        return h;
    for (uint32_t e = enclosing_construct(a, h); e != UINT32_MAX; e = enclosing_construct(a, e))
        if (x == block_index(a, a->b[e].merge) ||
            (a->b[e].cont && x == block_index(a, a->b[e].cont)))
            return e;
    return UINT32_MAX;
}

/* The innermost construct holding block i other than i's own: the header
 * of largest index whose construct holds i, or UINT32_MAX. */
static uint32_t enclosing_construct(const ua *a, uint32_t i)
{
    for (uint32_t h = i; h-- > 0;)
        if (a->b[h].merge && in_construct(a, h, i))
            return h;
    return UINT32_MAX;
}

/* The divergent branch at block i: the blocks its lanes run apart, until
 * the point where they all wait again (rp).  That is i's merge block, or,
 * when the region lets lanes leave an enclosing construct (a break to its
 * merge, a continue to its continue target), that construct's merge or
 * continue target, the lanes taking the other way reaching it too.  A branch
 * without a merge instruction (a conditional break or continue) starts from
 * its innermost enclosing construct.  Marks the region not convergent;
 * returns 0 when the structure is outside what the analysis handles. */
static int diverge(ua *a, uint32_t i)
{
    uint32_t h = i, rp;
    if (!a->b[i].merge) {
        h = enclosing_construct(a, i);
        if (h == UINT32_MAX)
            return 0;
    }
    rp = block_index(a, a->b[h].merge);
    if (rp == UINT32_MAX || rp <= i)
        return 0;
    for (uint32_t rounds = 0;; rounds++) {
        if (rounds > a->nb)
            return 0;
        bits_clear(a);
        uint32_t qh = 0, qt = 0, escape = UINT32_MAX;
        for (uint32_t s = 0; s < a->b[i].nsuccs; s++) {
            uint32_t j = block_index(a, a->b[i].succs[s]);
            if (j == UINT32_MAX)
                return 0;
            if (j != rp && !bit_get(a->seen, j)) {
                bit_set(a->seen, j);
                a->queue[qt++] = j;
            }
        }
        uint32_t esc_c = UINT32_MAX;
        while (qh < qt && escape == UINT32_MAX) {
            uint32_t j = a->queue[qh++];
            if ((esc_c = exit_of(a, h, j)) != UINT32_MAX) {
                escape = j;
                break;
            }
            if (!in_construct(a, h, j))
                return 0;
            for (uint32_t s = 0; s < a->b[j].nsuccs; s++) {
                uint32_t k = block_index(a, a->b[j].succs[s]);
                if (k == UINT32_MAX)
                    return 0;
                if (k != rp && !bit_get(a->seen, k)) {
                    bit_set(a->seen, k);
                    a->queue[qt++] = k;
                }
            }
        }
        if (escape == UINT32_MAX) {
            /* the region: every block seen waits for rp, which the
             * scheduler runs only after them (a lower index runs first) */
            for (uint32_t k = 0; k < qt; k++) {
                if (a->queue[k] >= rp)
                    return 0;
                a->conv[a->queue[k]] = 0;
            }
            return 1;
        }
        /* lanes leave construct h for `escape`, an exit of the construct
         * esc_c around it, where the others arrive too */
        rp = escape;
        h = esc_c;
    }
}

/* Recomputes conv[] from the current marks; returns 0 when the function's
 * control flow is outside what the analysis handles (give up). */
static int compute_conv(ua *a)
{
    memset(a->conv, 1, a->nb);
    for (uint32_t i = 0; i < a->nb; i++) {
        spv_inst t;
        if (!spv_module_inst_at(a->mod, a->term_off[i], &t))
            return 0;
        uint32_t sel;
        int multi = 0;
        if (t.opcode == SpvOpBranchConditional && t.word_count >= 4) {
            sel = t.words[1];
            multi = t.words[2] != t.words[3];
        } else if (t.opcode == SpvOpSwitch && t.word_count >= 3) {
            sel = t.words[1];
            for (uint32_t s = 0; s < a->b[i].nsuccs; s++)
                multi |= a->b[i].succs[s] != a->b[i].succs[0];
        } else {
            continue;
        }
        if (multi && !is_uni(a, sel) && !diverge(a, i))
            return 0;
        if (a->work > MAX_WORK)
            return 0;
    }
    return 1;
}

/* Immediate dominators over the structured order (a reverse post-order):
 * the iterative algorithm of Cooper, Harvey and Kennedy. */
static int build_dominators(ua *a)
{
    uint32_t nb = a->nb, npred = 0;
    a->pred_first = cvm_calloc(nb + 1, sizeof(uint32_t));
    a->idom = cvm_malloc((nb + 1) * sizeof(uint32_t));
    if (!a->pred_first || !a->idom)
        return -1;
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t s = 0; s < a->b[i].nsuccs; s++) {
            uint32_t k = block_index(a, a->b[i].succs[s]);
            if (k == UINT32_MAX)
                return 0;
            a->pred_first[k + 1]++;
            npred++;
        }
    for (uint32_t i = 0; i < nb; i++)
        a->pred_first[i + 1] += a->pred_first[i];
    a->preds = cvm_malloc((npred + 1) * sizeof(uint32_t));
    uint32_t *fill = cvm_calloc(nb + 1, sizeof(uint32_t));
    if (!a->preds || !fill) {
        cvm_mem_free(fill);
        return -1;
    }
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t s = 0; s < a->b[i].nsuccs; s++) {
            uint32_t k = block_index(a, a->b[i].succs[s]);
            a->preds[a->pred_first[k] + fill[k]++] = i;
        }
    cvm_mem_free(fill);
    for (uint32_t i = 0; i < nb; i++)
        a->idom[i] = UINT32_MAX;
    a->idom[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 1; i < nb; i++) {
            uint32_t nd = UINT32_MAX;
            for (uint32_t k = a->pred_first[i]; k < a->pred_first[i + 1]; k++) {
                uint32_t q = a->preds[k];
                if (a->idom[q] == UINT32_MAX)
                    continue;
                if (nd == UINT32_MAX) {
                    nd = q;
                    continue;
                }
                uint32_t x = q, y = nd;
                while (x != y) {
                    while (x > y)
                        x = a->idom[x];
                    while (y > x)
                        y = a->idom[y];
                }
                nd = x;
            }
            if (nd != UINT32_MAX && a->idom[i] != nd) {
                a->idom[i] = nd;
                changed = 1;
            }
        }
    }
    return 1;
}

/* ---- the analysis --------------------------------------------------------- */

/* `in` has a result, words[2] (its definition). */
static int defines(const ua *a, const spv_inst *in)
{
    return in->word_count >= 3 && in->words[2] < a->mod->bound &&
           a->mod->defs[in->words[2]].off == in->offset &&
           a->mod->defs[in->words[2]].func == a->fidx;
}

typedef struct ua_alias {
    uint32_t res, block, off, next_store; /* next_store: offset, UINT32_MAX none */
} ua_alias;

static int alias_cmp(const void *x, const void *y)
{
    uint32_t a = ((const ua_alias *)x)->res, b = ((const ua_alias *)y)->res;
    return a < b ? -1 : a > b;
}

/* CVM_UNIFORM_ALIAS on the loads of dense, not uniform, variables whose
 * value is named only later in the load's block and before the next store
 * to the variable in it (acc: the candidates' accesses in block order, and
 * in each block in order).  -1 when out of memory. */
static int mark_aliases(ua *a, const ua_access *acc, uint32_t nacc)
{
    const spv_module *mod = a->mod;
    ua_alias *rec = cvm_malloc((size_t)(nacc + 1) * sizeof(ua_alias));
    if (!rec)
        return -1;
    uint32_t n = 0;
    for (uint32_t x = 0; x < nacc; x++) {
        uint8_t vm = a->U[acc[x].var];
        if (acc[x].value || !(vm & CVM_UNIFORM_DENSE) || (vm & CVM_UNIFORM_VAR))
            continue;
        spv_inst in;
        if (!spv_module_inst_at(mod, acc[x].off, &in) || !defines(a, &in))
            continue;
        uint32_t next = UINT32_MAX;
        for (uint32_t y = x + 1; y < nacc && acc[y].block == acc[x].block; y++)
            if (acc[y].value && acc[y].var == acc[x].var) {
                next = acc[y].off;
                break;
            }
        rec[n++] = (ua_alias){in.words[2], acc[x].block, acc[x].off, next};
        a->U[in.words[2]] |= CVM_UNIFORM_ALIAS;
    }
    if (n) {
        qsort(rec, n, sizeof rec[0], alias_cmp);
        for (uint32_t k = 0; k < a->ninsts; k++) {
            spv_inst in;
            if (!spv_module_inst_at(mod, a->insts[k].off, &in))
                continue;
            for (uint32_t w = 1; w < in.word_count; w++) {
                uint32_t id = in.words[w];
                if (id >= mod->bound || !(a->U[id] & CVM_UNIFORM_ALIAS))
                    continue;
                ua_alias key = {id, 0, 0, 0};
                const ua_alias *r = bsearch(&key, rec, n, sizeof rec[0], alias_cmp);
                if (!r || in.offset == r->off)
                    continue;
                if (a->insts[k].block != r->block || in.offset < r->off ||
                    in.offset >= r->next_store)
                    a->U[id] &= (uint8_t)~CVM_UNIFORM_ALIAS;
            }
        }
    }
    cvm_mem_free(rec);
    return 0;
}

/* Clears CVM_UNIFORM_VAR from the candidates some load of which may run
 * before any store to them (its value would be whatever a lane's own copy
 * held), or with over MAX_STORES_PER_VAR stores.  Returns -1 when out of
 * memory. */
static int stored_before_loads(ua *a, const ua_access *acc, uint32_t nacc)
{
    uint32_t nb = a->nb, nv = 0;
    if (nacc > MAX_ACCESSES) { /* not worth the quadratic checks below */
        for (uint32_t x = 0; x < nacc; x++)
            a->U[acc[x].var] &= (uint8_t)~CVM_UNIFORM_VAR;
        return 0;
    }
    /* the candidates, numbered by their first access */
    uint32_t *vars = cvm_malloc((size_t)(nacc + 1) * sizeof(uint32_t));
    uint32_t *vidx = cvm_malloc((size_t)(nacc + 1) * sizeof(uint32_t));
    if (!vars || !vidx) {
        cvm_mem_free(vars);
        cvm_mem_free(vidx);
        return -1;
    }
    for (uint32_t x = 0; x < nacc; x++) {
        uint32_t k = 0;
        while (k < nv && vars[k] != acc[x].var)
            k++;
        if (k == nv)
            vars[nv++] = acc[x].var;
        vidx[x] = k;
    }
    uint32_t vw = (nv + 63) / 64;
    uint64_t *out = cvm_malloc((size_t)nb * (vw ? vw : 1) * 8);
    uint64_t *gen = cvm_calloc((size_t)nb * (vw ? vw : 1), 8);
    uint64_t *in = cvm_malloc((size_t)(vw ? vw : 1) * 8);
    if (!out || !in || !gen) {
        cvm_mem_free(vars);
        cvm_mem_free(vidx);
        cvm_mem_free(out);
        cvm_mem_free(gen);
        cvm_mem_free(in);
        return -1;
    }
    memset(out, 0xff, (size_t)nb * vw * 8);
    for (uint32_t x = 0; x < nacc; x++)
        if (acc[x].value)
            gen[(size_t)acc[x].block * vw + (vidx[x] >> 6)] |= UINT64_C(1) << (vidx[x] & 63);
    /* in(b): the intersection of the predecessors' out (nothing at the
     * entry); out(b) = in(b) plus b's stores (gen) */
    for (int changed = 1; changed && a->work <= MAX_WORK;) {
        changed = 0;
        for (uint32_t b = 0; b < nb; b++) {
            if (b == 0 || a->pred_first[b] == a->pred_first[b + 1]) {
                memset(in, 0, (size_t)vw * 8);
            } else {
                memset(in, 0xff, (size_t)vw * 8);
                for (uint32_t k = a->pred_first[b]; k < a->pred_first[b + 1]; k++)
                    for (uint32_t w = 0; w < vw; w++)
                        in[w] &= out[(size_t)a->preds[k] * vw + w];
            }
            for (uint32_t w = 0; w < vw; w++)
                in[w] |= gen[(size_t)b * vw + w];
            a->work += (uint64_t)vw * (a->pred_first[b + 1] - a->pred_first[b] + 2);
            if (memcmp(in, out + (size_t)b * vw, (size_t)vw * 8)) {
                memcpy(out + (size_t)b * vw, in, (size_t)vw * 8);
                changed = 1;
            }
        }
    }
    for (uint32_t x = 0; x < nacc; x++) {
        const ua_access *ld = &acc[x];
        if (a->work > MAX_WORK) { /* not a fixpoint: no uniform variable */
            a->U[ld->var] &= (uint8_t)~CVM_UNIFORM_VAR;
            continue;
        }
        if (ld->value)
            continue;
        /* stored before the load: earlier in its block, or on entry */
        int ok = 0;
        for (uint32_t y = 0; y < nacc && !ok; y++)
            ok = acc[y].value && acc[y].var == ld->var && acc[y].block == ld->block &&
                 acc[y].off < ld->off;
        uint32_t b = ld->block, v = vidx[x];
        if (!ok && b != 0 && a->pred_first[b] < a->pred_first[b + 1]) {
            ok = 1;
            for (uint32_t k = a->pred_first[b]; k < a->pred_first[b + 1]; k++)
                ok &= (int)((out[(size_t)a->preds[k] * vw + (v >> 6)] >> (v & 63)) & 1u);
        }
        if (!ok)
            a->U[ld->var] &= (uint8_t)~CVM_UNIFORM_VAR;
    }
    for (uint32_t k = 0; k < nv; k++) {
        uint32_t nstores = 0;
        for (uint32_t x = 0; x < nacc; x++)
            nstores += acc[x].value && acc[x].var == vars[k];
        if (nstores > MAX_STORES_PER_VAR)
            a->U[vars[k]] &= (uint8_t)~CVM_UNIFORM_VAR;
    }
    cvm_mem_free(vars);
    cvm_mem_free(vidx);
    cvm_mem_free(out);
    cvm_mem_free(gen);
    cvm_mem_free(in);
    return 0;
}

static int var_candidate(const ua *a, const spv_inst *in)
{
    const cvm_program *p = a->p;
    /* (an initializer, a constant, is the variable's first store) */
    if (in->opcode != SpvOpVariable || in->word_count < 4 || in->word_count > 5 ||
        in->words[3] != SpvStorageClassFunction ||
        (in->word_count == 5 && (in->words[4] >= p->bound || p->const_offset[in->words[4]] == UINT64_MAX)))
        return 0;
    uint32_t pt = in->words[1];
    if (pt >= p->ntypes || p->types[pt].tclass != CVM_TC_POINTER)
        return 0;
    uint32_t vt = p->types[pt].elem;
    return type_ok(p, vt) && p->types[vt].tclass != CVM_TC_POINTER;
}

/* A Private variable of the module read the same in every lane: the entry
 * function's own candidate (uniform.h: a uniform Private variable).  Every
 * lane keeps its copy, and the stores still write each one; only the loads
 * the analysis proves uniform read one. */
static int private_uni(const ua *a, uint32_t id)
{
    return a->fidx == a->p->entry && id != 0 && id < a->mod->bound &&
           a->mod->defs[id].func == UINT32_MAX && a->mod->defs[id].opcode == SpvOpVariable &&
           (a->U[id] & CVM_UNIFORM_VAR);
}

/* Marks the entry function's Private candidates: scalar or vector
 * variables without initializer that no other function names but as the
 * pointer of OpLoad (a callee or callback reads its lane's copy; a store
 * there would make the copies differ behind the entry's back).  A word of
 * another function equal to the id by chance (a literal) only loses the
 * variable. */
static void private_candidates(ua *a)
{
    const cvm_program *p = a->p;
    const spv_module *mod = a->mod;
    if (a->fidx != p->entry)
        return;
    uint32_t n = 0;
    for (uint32_t id = 1; id < mod->bound; id++) {
        const spv_def *d = &mod->defs[id];
        spv_inst in;
        if (d->func != UINT32_MAX || d->opcode != SpvOpVariable ||
            !spv_module_inst_at(mod, d->off, &in) || in.word_count != 4 ||
            in.words[3] != SpvStorageClassPrivate)
            continue;
        uint32_t pt = in.words[1];
        if (pt >= p->ntypes || p->types[pt].tclass != CVM_TC_POINTER)
            continue;
        uint32_t vt = p->types[pt].elem;
        if (!type_ok(p, vt) || p->types[vt].tclass == CVM_TC_POINTER)
            continue;
        a->U[id] |= CVM_UNIFORM_VAR;
        n++;
    }
    for (uint32_t f = 0; n && f < mod->nfunctions; f++) {
        if (f == a->fidx)
            continue;
        spv_inst in;
        for (uint32_t off = mod->functions[f].begin; off < mod->functions[f].end; off += in.word_count) {
            if (!spv_module_inst_at(mod, off, &in) || in.word_count == 0)
                break;
            a->work += in.word_count;
            for (uint32_t w = 1; w < in.word_count; w++) {
                uint32_t v = in.words[w];
                if (v < mod->bound && mod->defs[v].func == UINT32_MAX && (a->U[v] & CVM_UNIFORM_VAR) &&
                    !(in.opcode == SpvOpLoad && w == 3))
                    a->U[v] &= (uint8_t)~CVM_UNIFORM_VAR;
            }
        }
    }
}

/* Clears the marks private_candidates left on module-scope ids. */
static void private_unmark(ua *a)
{
    if (a->fidx != a->p->entry)
        return;
    for (uint32_t id = 1; id < a->mod->bound; id++)
        if (a->mod->defs[id].func == UINT32_MAX && a->mod->defs[id].opcode == SpvOpVariable)
            a->U[id] = 0;
}

static int value_candidate(const ua *a, const spv_inst *in)
{
    uint32_t lo, hi;
    if (in->word_count < 3 || !type_ok(a->p, in->words[1]))
        return 0;
    return in->opcode == SpvOpLoad || in->opcode == SpvOpPhi || cvm_uniform_pure_operands(a->p, in, &lo, &hi);
}

/* The value rule for instruction `in` in block bi. */
static int value_rule(const ua *a, const spv_inst *in, uint32_t bi)
{
    if (!a->conv[bi])
        return 0;
    if (in->opcode == SpvOpLoad)
        return in->word_count >= 4 && (is_uni(a, in->words[3]) || builtin_ptr(a, in->words[3]) ||
                                       private_uni(a, in->words[3]));
    if (in->opcode == SpvOpPhi) {
        for (uint32_t k = 3; k + 1 < in->word_count; k += 2) {
            uint32_t pb = block_index(a, in->words[k + 1]);
            if (pb != UINT32_MAX && a->b[pb].dead)
                continue; /* (never the value: cvm_uniform_dead_blocks) */
            if (pb == UINT32_MAX || !a->conv[pb] || !is_uni(a, in->words[k]))
                return 0;
        }
        return in->word_count >= 5;
    }
    uint32_t lo, hi;
    if (!cvm_uniform_pure_operands(a->p, in, &lo, &hi))
        return 0;
    for (uint32_t k = lo; k < hi; k++)
        if (!is_uni(a, in->words[k]))
            return 0;
    return 1;
}

static int analyze(ua *a)
{
    const spv_module *mod = a->mod;
    uint32_t nb = a->nb;
    a->words = (nb + 63) / 64;
    a->term_off = cvm_calloc(nb + 1, sizeof(uint32_t));
    a->queue = cvm_malloc((nb + 1) * sizeof(uint32_t));
    a->seen = cvm_calloc(a->words + 1, 8);
    if (!a->term_off || !a->queue || !a->seen)
        return -1;
    /* instructions in structured order */
    uint32_t cap = 0;
    for (uint32_t i = 0; i < nb; i++) {
        spv_inst in;
        for (uint32_t off = a->b[i].begin; off < a->b[i].end; off += in.word_count) {
            if (!spv_module_inst_at(mod, off, &in) || in.word_count == 0)
                return 0; /* malformed */
            if (a->ninsts == cap) {
                if (cap >= MAX_INSTS)
                    return 0;
                cap = cap ? cap * 2 : 256;
                ua_inst *ni = cvm_realloc(a->insts, cap * sizeof(ua_inst));
                if (!ni)
                    return -1;
                a->insts = ni;
            }
            a->insts[a->ninsts++] = (ua_inst){off, i};
            a->term_off[i] = off;
        }
    }
    int ok = build_dominators(a);
    if (ok <= 0)
        return ok;

    /* candidates */
    private_candidates(a);
    for (uint32_t k = 0; k < a->ninsts; k++) {
        spv_inst in;
        spv_module_inst_at(mod, a->insts[k].off, &in);
        if (defines(a, &in) && var_candidate(a, &in))
            a->U[in.words[2]] |= CVM_UNIFORM_VAR;
        else if (defines(a, &in) && value_candidate(a, &in))
            a->U[in.words[2]] |= CVM_UNIFORM_VALUE;
    }
    /* the variables' uses: loads and stores only; their accesses */
    ua_access *acc = NULL;
    uint32_t nacc = 0, acap = 0;
    for (uint32_t k = 0; k < a->ninsts; k++) {
        spv_inst in;
        if (a->b[a->insts[k].block].dead)
            continue; /* (never run: cvm_uniform_dead_blocks) */
        spv_module_inst_at(mod, a->insts[k].off, &in);
        for (uint32_t w = 1; w < in.word_count; w++) {
            uint32_t v = in.words[w];
            if (v >= mod->bound || !(a->U[v] & CVM_UNIFORM_VAR))
                continue;
            if (in.opcode == SpvOpVariable && w == 2 && in.word_count < 5)
                continue;
            int load = in.opcode == SpvOpLoad && w == 3;
            int store = in.opcode == SpvOpStore && w == 1 && in.word_count >= 3;
            int init = in.opcode == SpvOpVariable && w == 2; /* its initializer */
            if (!load && !store && !init) {
                a->U[v] &= (uint8_t)~CVM_UNIFORM_VAR;
                continue;
            }
            if (nacc == acap) {
                acap = acap ? acap * 2 : 64;
                ua_access *na = cvm_realloc(acc, acap * sizeof(ua_access));
                if (!na) {
                    cvm_mem_free(acc);
                    return -1;
                }
                acc = na;
            }
            acc[nacc++] = (ua_access){v, a->insts[k].block, in.offset,
                                      store ? in.words[2] : init ? in.words[4] : 0};
        }
    }
    /* a store before every load, on every path from the entry: the
     * variables stored for sure at the end of each block, intersected over
     * the predecessors (a forward must-analysis over the candidates) */
    int r = stored_before_loads(a, acc, nacc);
    if (r < 0) {
        cvm_mem_free(acc);
        return -1;
    }

    /* the candidates left are dense variables, uniform or not (the
     * Private ones keep their lanes' copies where they are) */
    for (uint32_t x = 0; x < nacc; x++)
        if ((a->U[acc[x].var] & CVM_UNIFORM_VAR) && a->mod->defs[acc[x].var].func == a->fidx)
            a->U[acc[x].var] |= CVM_UNIFORM_DENSE;

    /* the fixpoint: marks only ever go from set to clear */
    int gave_up = 0;
    for (int changed = 1; changed && !gave_up;) {
        changed = 0;
        if (!compute_conv(a)) { /* no uniform value or variable */
            gave_up = 1;
            for (uint32_t k = 0; k < a->ninsts; k++) {
                spv_inst in;
                if (spv_module_inst_at(mod, a->insts[k].off, &in) && defines(a, &in))
                    a->U[in.words[2]] &= (uint8_t)~(CVM_UNIFORM_VALUE | CVM_UNIFORM_VAR);
            }
            memset(a->conv, 0, a->nb);
            break;
        }
        a->work += a->ninsts;
        for (uint32_t k = 0; k < a->ninsts; k++) {
            spv_inst in;
            spv_module_inst_at(mod, a->insts[k].off, &in);
            if (!defines(a, &in) || !(a->U[in.words[2]] & CVM_UNIFORM_VALUE) ||
                in.opcode == SpvOpVariable)
                continue;
            if (!value_rule(a, &in, a->insts[k].block)) {
                a->U[in.words[2]] &= (uint8_t)~CVM_UNIFORM_VALUE;
                changed = 1;
            }
        }
        for (uint32_t y = 0; y < nacc; y++) {
            const ua_access *st = &acc[y];
            if (!st->value || !(a->U[st->var] & CVM_UNIFORM_VAR))
                continue;
            if (!a->conv[st->block] || !is_uni(a, st->value)) {
                a->U[st->var] &= (uint8_t)~CVM_UNIFORM_VAR;
                changed = 1;
            }
        }
    }
    r = mark_aliases(a, acc, nacc);
    cvm_mem_free(acc);
    if (r < 0)
        return -1;
    return gave_up ? 2 : 1;
}

/* ---- blocks no invocation reaches ------------------------------------------- */

enum { DB_UNDEF = 0, DB_CONST = 1, DB_VARYING = 2 };

typedef struct db_state {
    const cvm_program *p;
    const cvm_uniform_block *b;
    uint32_t nb;
    const uint32_t *bol;
    uint8_t *st;     /* per id: DB_* of a phi of the function */
    uint64_t *val;   /* per id: its value when DB_CONST */
    uint8_t *live;   /* per block */
} db_state;

static uint32_t db_block(const db_state *d, uint32_t label)
{
    if (label == 0 || label >= d->p->bound)
        return UINT32_MAX;
    uint32_t i = d->bol[label];
    return i < d->nb && d->b[i].label == label ? i : UINT32_MAX;
}

/* The state of value `id` (a boolean or an integer of up to 64 bits):
 * a constant's, a phi's as far as known, else varying. */
static int db_value(const db_state *d, uint32_t id, uint64_t *o_v)
{
    const cvm_program *p = d->p;
    if (id == 0 || id >= p->bound)
        return DB_VARYING;
    if (p->const_offset[id] != UINT64_MAX) {
        uint32_t t = p->mod->defs[id].type;
        if (t == 0 || t >= p->ntypes)
            return DB_VARYING;
        const cvm_type *ty = &p->types[t];
        if ((ty->tclass != CVM_TC_BOOL && ty->tclass != CVM_TC_INT) || ty->size == 0 || ty->size > 8)
            return DB_VARYING;
        uint64_t v = 0;
        memcpy(&v, p->const_data + p->const_offset[id], ty->size); /* (little-endian) */
        *o_v = ty->tclass == CVM_TC_BOOL ? (v & 0xff) != 0 : v;
        return DB_CONST;
    }
    if (d->st[id] == DB_CONST)
        *o_v = d->val[id];
    return d->st[id] == DB_UNDEF && p->mod->defs[id].opcode != SpvOpPhi ? DB_VARYING : d->st[id];
}

/* The labels block `bi`'s terminator may go to now; their count (at most
 * `cap`, else every successor). */
static uint32_t db_targets(const db_state *d, uint32_t bi, uint32_t *out, uint32_t cap)
{
    const spv_module *mod = d->p->mod;
    const cvm_uniform_block *b = &d->b[bi];
    spv_inst in, last;
    last.word_count = 0;
    for (uint32_t off = b->begin; off < b->end; off += in.word_count) {
        if (!spv_module_inst_at(mod, off, &in) || in.word_count == 0)
            return UINT32_MAX;
        last = in;
    }
    uint64_t v = 0;
    if (last.opcode == SpvOpBranchConditional && last.word_count >= 4) {
        int s = db_value(d, last.words[1], &v);
        if (s == DB_UNDEF)
            return 0;
        if (s == DB_CONST) {
            out[0] = v ? last.words[2] : last.words[3];
            return 1;
        }
    } else if (last.opcode == SpvOpSwitch && last.word_count >= 3) {
        int s = db_value(d, last.words[1], &v);
        if (s == DB_UNDEF)
            return 0;
        uint32_t t = last.words[1] < mod->bound ? mod->defs[last.words[1]].type : 0;
        uint32_t size = t < d->p->ntypes ? d->p->types[t].size : 4, lw = size == 8 ? 2 : 1;
        /* (a literal narrower than a word is sign-extended into it for a
         * signed selector: the selector's own bits compare) */
        uint64_t bits = size >= 8 ? UINT64_MAX : (UINT64_C(1) << (size * 8)) - 1;
        if (s == DB_CONST) {
            uint32_t to = last.words[2];
            for (uint32_t k = 3; k + lw < last.word_count; k += lw + 1) {
                uint64_t lit = last.words[k];
                if (lw == 2)
                    lit |= (uint64_t)last.words[k + 1] << 32;
                if ((lit & bits) == (v & bits)) {
                    to = last.words[k + lw];
                    break;
                }
            }
            out[0] = to;
            return 1;
        }
    }
    if (b->nsuccs > cap)
        return UINT32_MAX;
    for (uint32_t k = 0; k < b->nsuccs; k++) /* (none: succs may be NULL) */
        out[k] = b->succs[k];
    return b->nsuccs;
}

/* Whether the edge from block `from` (its label) to block `to` may be
 * taken now. */
static int db_edge(const db_state *d, uint32_t from_label, uint32_t to)
{
    uint32_t fi = db_block(d, from_label);
    if (fi == UINT32_MAX || !d->live[fi])
        return 0;
    uint32_t t[64];
    uint32_t n = db_targets(d, fi, t, 64);
    if (n == UINT32_MAX)
        return 1;
    for (uint32_t k = 0; k < n; k++)
        if (t[k] == d->b[to].label)
            return 1;
    return 0;
}

cvm_result cvm_uniform_dead_blocks(const cvm_program *p, cvm_uniform_block *blocks,
                                   uint32_t nblocks, const uint32_t *block_of_label)
{
    for (uint32_t i = 0; i < nblocks; i++)
        blocks[i].dead = 0;
    if (nblocks < 2 || nblocks > MAX_BLOCKS)
        return CVM_SUCCESS;
    db_state d = {p, blocks, nblocks, block_of_label, NULL, NULL, NULL};
    d.st = cvm_calloc(p->bound + 1, 1);
    d.val = cvm_calloc(p->bound + 1, sizeof(uint64_t));
    d.live = cvm_calloc(nblocks, 1);
    if (!d.st || !d.val || !d.live) {
        cvm_mem_free(d.st);
        cvm_mem_free(d.val);
        cvm_mem_free(d.live);
        return CVM_ERROR_OUT_OF_MEMORY;
    }
    d.live[0] = 1;
    int ok = 1;
    uint64_t work = 0;
    /* a fixpoint: blocks only become live, phis only go from undefined to
     * one constant to varying */
    for (int changed = 1; changed && ok;) {
        changed = 0;
        for (uint32_t bi = 0; bi < nblocks && ok; bi++) {
            if (!d.live[bi])
                continue;
            uint32_t t[64];
            uint32_t n = db_targets(&d, bi, t, 64);
            if (n == UINT32_MAX) {
                ok = 0;
                break;
            }
            for (uint32_t k = 0; k < n; k++) {
                uint32_t ti = db_block(&d, t[k]);
                if (ti != UINT32_MAX && !d.live[ti]) {
                    d.live[ti] = 1;
                    changed = 1;
                }
            }
            /* its phis, over the edges that may be taken */
            spv_inst in;
            for (uint32_t off = blocks[bi].begin; off < blocks[bi].end; off += in.word_count) {
                if (!spv_module_inst_at(p->mod, off, &in) || in.word_count == 0) {
                    ok = 0;
                    break;
                }
                if (in.opcode == SpvOpLabel)
                    continue;
                if (in.opcode != SpvOpPhi)
                    break;
                uint32_t id = in.words[2];
                if (id >= p->bound || d.st[id] == DB_VARYING)
                    continue;
                int s = DB_UNDEF;
                uint64_t c = 0;
                for (uint32_t k = 3; k + 1 < in.word_count && s != DB_VARYING; k += 2) {
                    if (++work > MAX_WORK) {
                        ok = 0;
                        break;
                    }
                    if (!db_edge(&d, in.words[k + 1], bi))
                        continue;
                    uint64_t v = 0;
                    int vs = db_value(&d, in.words[k], &v);
                    if (vs == DB_UNDEF)
                        continue;
                    if (vs == DB_VARYING || (s == DB_CONST && v != c))
                        s = DB_VARYING;
                    else {
                        s = DB_CONST;
                        c = v;
                    }
                }
                if (s > d.st[id] || (s == DB_CONST && d.st[id] == DB_CONST && c != d.val[id])) {
                    d.st[id] = s == DB_CONST && d.st[id] == DB_CONST ? DB_VARYING : (uint8_t)s;
                    d.val[id] = c;
                    changed = 1;
                }
            }
        }
    }
    for (uint32_t i = 1; ok && i < nblocks; i++)
        blocks[i].dead = !d.live[i];
    cvm_mem_free(d.st);
    cvm_mem_free(d.val);
    cvm_mem_free(d.live);
    return CVM_SUCCESS;
}

static cvm_result uniform_analyze(const cvm_program *p, uint32_t fidx,
                                  const cvm_uniform_block *blocks, uint32_t nblocks,
                                  const uint32_t *block_of_label, uint8_t *o_marks,
                                  uint8_t *o_convergent, int subgroup)
{
    ua a;
    memset(&a, 0, sizeof a);
    a.subgroup = subgroup;
    a.p = p;
    a.mod = p->mod;
    a.fidx = fidx;
    a.b = blocks;
    a.nb = nblocks;
    a.bol = block_of_label;
    a.U = o_marks;
    a.conv = o_convergent;
    memset(o_convergent, 0, nblocks);
    int ok = nblocks > 0 && nblocks <= MAX_BLOCKS ? analyze(&a) : 0;
    private_unmark(&a); /* (also where analyze returned early) */
    if (ok == 2) /* given up on convergence: dense variables only */
        memset(o_convergent, 0, nblocks);
    if (ok <= 0) { /* given up, or out of memory: no marks at all */
        for (uint32_t k = 0; k < a.ninsts; k++) {
            spv_inst in;
            if (spv_module_inst_at(a.mod, a.insts[k].off, &in) && defines(&a, &in))
                o_marks[in.words[2]] = 0;
        }
        memset(o_convergent, 0, nblocks);
    }
    cvm_mem_free(a.insts);
    cvm_mem_free(a.term_off);
    cvm_mem_free(a.idom);
    cvm_mem_free(a.pred_first);
    cvm_mem_free(a.preds);
    cvm_mem_free(a.queue);
    cvm_mem_free(a.seen);
    return ok < 0 ? CVM_ERROR_OUT_OF_MEMORY : CVM_SUCCESS;
}

cvm_result cvm_uniform_analyze(const cvm_program *p, uint32_t fidx,
                               const cvm_uniform_block *blocks, uint32_t nblocks,
                               const uint32_t *block_of_label, uint8_t *o_marks,
                               uint8_t *o_convergent)
{
    return uniform_analyze(p, fidx, blocks, nblocks, block_of_label, o_marks, o_convergent, 0);
}

cvm_result cvm_uniform_analyze_subgroup(const cvm_program *p, uint32_t fidx,
                                        const cvm_uniform_block *blocks, uint32_t nblocks,
                                        const uint32_t *block_of_label, uint8_t *o_marks,
                                        uint8_t *o_convergent)
{
    return uniform_analyze(p, fidx, blocks, nblocks, block_of_label, o_marks, o_convergent, 1);
}
