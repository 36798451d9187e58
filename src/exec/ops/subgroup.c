/* Subgroup operations: OpGroupNonUniform* (SPIR-V 1.3 + SPV_KHR_subgroup_rotate)
 * and the older SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote instructions.
 *
 * Scope instances: with Execution scope Subgroup, lane l of the group is
 * invocation l % sg_size of subgroup l / sg_size (the last subgroup may be
 * partial); with Workgroup scope the whole group is one instance and an
 * invocation's id in it is its LocalInvocationIndex.
 *
 * Non-uniform semantics: only the ACTIVE lanes of an instance take part.
 * Inactive lanes contribute nothing and their result registers are left
 * untouched.  Reading a value from an inactive lane, or from an id outside the
 * instance (shuffles, broadcasts: undefined in the texts), gives zero.
 *
 * Partitions (SPV_EXT_shader_subgroup_partitioned): see h_partition.
 *
 * Arithmetic: values are combined in ascending lane order (the order is
 * implementation-defined in the texts; lane order makes results
 * deterministic), rounding to the value's format after every step: f32 and
 * f64 natively, f16/bf16/fp8 through double rounded once per step (double
 * holds every such sum or product exactly before that rounding, so each step
 * is the correctly rounded operation).  FMin/FMax choose the other operand
 * when one is NaN (the texts' rule).  Exclusive scans give the identity of the
 * SPIR-V table to the first active lane; Reduce/InclusiveScan/ClusteredReduce
 * combine only the values present (no identity is folded in, so -0.0 stays
 * -0.0 for FAdd of one value).
 *
 * Ballots are uvec4: bit i of the 128 is the invocation with id i of the
 * instance (ids past 127 of a workgroup-scope instance have no bit).
 * BallotFindLSB/MSB of a ballot with no bit set (undefined in the texts)
 * give 0xFFFFFFFF. */
#include <math.h>
#include <string.h>

#include "exec/program.h"

/* insn fields:
 *   a      Value (or Predicate)
 *   b      second operand id (Id, Mask, Delta, Index, Direction), 0 if none
 *   c      GroupOperation literal (arithmetic, BallotBitCount)
 *   d      cluster size (ClusteredReduce, RotateKHR with ClusterSize), 0 if none
 *   sk     component kind of Value; ncomp its components
 *   sk2    kind of the b operand
 *   flags  CVM_INSN_WORKGROUP_SCOPE for Workgroup execution scope
 *   type   the Value's (and for most, the result's) type id */

typedef struct inst_range {
    uint32_t first; /* first lane of the instance */
    uint32_t count; /* lanes that exist */
    uint32_t size;  /* nominal size: the subgroup size, or the workgroup's lanes */
} inst_range;

static uint32_t ninstances(const cvm_exec *ex, const cvm_insn *in)
{
    return (in->flags & CVM_INSN_WORKGROUP_SCOPE) ? 1u : ex->nsub;
}

static inst_range instance(const cvm_exec *ex, const cvm_insn *in, uint32_t i)
{
    inst_range r;
    if (in->flags & CVM_INSN_WORKGROUP_SCOPE) {
        r.first = 0;
        r.count = ex->nlanes;
        r.size = ex->nlanes;
    } else {
        r.first = i * ex->sg_size;
        r.count = CVM_MIN(ex->sg_size, ex->nlanes - r.first);
        r.size = ex->sg_size;
    }
    return r;
}

static uint32_t value_size(const cvm_exec *ex, const cvm_insn *in)
{
    return ex->prog->types[in->type].size;
}

/* ---- Elect, votes -------------------------------------------------------- */

static cvm_result h_elect(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result];
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        int first = 1;
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            *CVM_LANE(r, l) = (uint8_t)first;
            first = 0;
        }
    }
    return CVM_SUCCESS;
}

/* Component-wise equality of two values of the instruction's Value type. */
static int values_equal(const cvm_insn *in, const uint8_t *x, const uint8_t *y)
{
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    for (uint32_t c = 0; c < in->ncomp; c++) {
        const uint8_t *px = x + (size_t)c * es, *py = y + (size_t)c * es;
        if (k == CVM_SK_BOOL) {
            if ((px[0] & 1) != (py[0] & 1))
                return 0;
        } else if (cvm_sk_is_float(k)) {
            if (!(cvm_load_as_f64(k, px) == cvm_load_as_f64(k, py)))
                return 0;
        } else if (memcmp(px, py, es) != 0) {
            return 0;
        }
    }
    return 1;
}

/* All, Any, AllEqual (and the KHR forms). */
static cvm_result h_vote(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    uint32_t op = in->spv_op;
    int all = op == SpvOpGroupNonUniformAll || op == SpvOpSubgroupAllKHR;
    int eq = op == SpvOpGroupNonUniformAllEqual || op == SpvOpSubgroupAllEqualKHR;
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        uint32_t first = UINT32_MAX;
        uint8_t v = (uint8_t)(all || eq);
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            if (first == UINT32_MAX)
                first = l;
            if (eq) {
                if (!values_equal(in, CVM_LANE(a, first), CVM_LANE(a, l)))
                    v = 0;
            } else {
                uint8_t p = *CVM_LANE(a, l) & 1;
                v = all ? (uint8_t)(v & p) : (uint8_t)(v | p);
            }
        }
        for (uint32_t l = g.first; l < g.first + g.count; l++)
            if (ex->active[l])
                *CVM_LANE(r, l) = v;
    }
    return CVM_SUCCESS;
}

/* ---- ballots ----------------------------------------------------------------- */

static cvm_result h_ballot(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        uint32_t bits[4] = {0, 0, 0, 0};
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            uint32_t id = l - g.first;
            if (ex->active[l] && (*CVM_LANE(a, l) & 1) && id < 128)
                bits[id / 32] |= 1u << (id % 32);
        }
        for (uint32_t l = g.first; l < g.first + g.count; l++)
            if (ex->active[l])
                memcpy(CVM_LANE(r, l), bits, 16);
    }
    return CVM_SUCCESS;
}

static int ballot_bit(const uint8_t *v, uint64_t bit)
{
    if (bit >= 128)
        return 0;
    uint32_t w;
    memcpy(&w, v + (bit / 32) * 4, 4);
    return (int)((w >> (bit % 32)) & 1);
}

/* InverseBallot: the bit of the invocation's own id. BallotBitExtract: the
 * bit at Index. */
static cvm_result h_ballot_bit(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_val idx = in->b ? ex->vals[in->b] : a;
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            uint64_t bit = in->b ? cvm_load_as_u64((cvm_scalar_kind)in->sk2, CVM_LANE(idx, l))
                                 : l - g.first;
            *CVM_LANE(r, l) = (uint8_t)ballot_bit(CVM_LANE(a, l), bit);
        }
    }
    return CVM_SUCCESS;
}

/* BallotBitCount (Reduce / InclusiveScan / ExclusiveScan), BallotFindLSB,
 * BallotFindMSB: only the bits of ids below the instance's size count. */
static cvm_result h_ballot_count(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        uint32_t nbits = CVM_MIN(g.size, 128u);
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            uint32_t id = l - g.first, v;
            const uint8_t *b = CVM_LANE(a, l);
            /* the ballot's words with the bits at and past `end` (and
             * past the instance's size) cleared: counts and searches a
             * word at a time */
            uint32_t end = nbits;
            if (in->spv_op == SpvOpGroupNonUniformBallotBitCount)
                end = in->c == SpvGroupOperationInclusiveScan   ? CVM_MIN(id + 1, nbits)
                      : in->c == SpvGroupOperationExclusiveScan ? CVM_MIN(id, nbits)
                                                                : nbits;
            uint32_t w[4];
            memcpy(w, b, 16);
            for (uint32_t k = 0; k < 4; k++)
                w[k] &= end >= 32 * (k + 1) ? UINT32_MAX
                        : end > 32 * k      ? (1u << (end - 32 * k)) - 1
                                            : 0;
            if (in->spv_op == SpvOpGroupNonUniformBallotBitCount) {
                v = 0;
                for (uint32_t k = 0; k < 4; k++) { /* (SWAR: the x86-64 baseline has no popcnt) */
                    uint32_t x = w[k] - ((w[k] >> 1) & 0x55555555u);
                    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
                    v += (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
                }
            } else if (in->spv_op == SpvOpGroupNonUniformBallotFindLSB) {
                v = UINT32_MAX;
                for (uint32_t k = 0; k < 4 && v == UINT32_MAX; k++)
                    if (w[k])
                        v = 32 * k + (uint32_t)__builtin_ctz(w[k]);
            } else {
                v = UINT32_MAX;
                for (uint32_t k = 4; k-- > 0 && v == UINT32_MAX;)
                    if (w[k])
                        v = 32 * k + 31 - (uint32_t)__builtin_clz(w[k]);
            }
            cvm_store_from_u64((cvm_scalar_kind)in->sk, CVM_LANE(r, l), v, 0);
        }
    }
    return CVM_SUCCESS;
}

/* ---- data movement ------------------------------------------------------------ */

/* Broadcast, BroadcastFirst, Shuffle, ShuffleXor, ShuffleUp, ShuffleDown,
 * RotateKHR, QuadBroadcast, QuadSwap, SubgroupFirstInvocationKHR,
 * SubgroupReadInvocationKHR. */
static cvm_result h_move(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_val bv = in->b ? ex->vals[in->b] : a;
    uint32_t size = value_size(ex, in);
    uint32_t op = in->spv_op;
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        uint32_t first_active = UINT32_MAX;
        for (uint32_t l = g.first; l < g.first + g.count; l++)
            if (ex->active[l]) {
                first_active = l - g.first;
                break;
            }
        if (first_active == UINT32_MAX)
            continue;
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            uint64_t id = l - g.first;
            uint64_t x = in->b ? cvm_load_as_u64((cvm_scalar_kind)in->sk2, CVM_LANE(bv, l)) : 0;
            uint64_t src; /* UINT64_MAX: no such invocation */
            switch (op) {
            case SpvOpGroupNonUniformBroadcastFirst:
            case SpvOpSubgroupFirstInvocationKHR:
                src = first_active;
                break;
            case SpvOpGroupNonUniformShuffleXor:
                src = id ^ x;
                break;
            case SpvOpGroupNonUniformShuffleUp:
                src = x <= id ? id - x : UINT64_MAX;
                break;
            case SpvOpGroupNonUniformShuffleDown:
                src = x < g.size ? id + x : UINT64_MAX;
                break;
            case SpvOpGroupNonUniformRotateKHR: {
                uint64_t cs = in->d ? in->d : g.size;
                src = id - id % cs + (id % cs + x % cs) % cs;
                break;
            }
            case SpvOpGroupNonUniformQuadBroadcast:
                src = x < 4 ? (id & ~UINT64_C(3)) + x : UINT64_MAX;
                break;
            case SpvOpGroupNonUniformQuadSwap:
                src = x <= 2 ? id ^ (x + 1) : UINT64_MAX; /* 0: ^1, 1: ^2, 2: ^3 */
                break;
            default: /* Broadcast, Shuffle, ReadInvocationKHR: the id itself */
                src = x;
                break;
            }
            uint8_t *dst = CVM_LANE(r, l);
            if (src < g.count && ex->active[g.first + src])
                memcpy(dst, CVM_LANE(a, g.first + src), size);
            else
                memset(dst, 0, size);
        }
    }
    return CVM_SUCCESS;
}

/* ---- arithmetic ---------------------------------------------------------------- */

typedef struct acc {
    uint64_t u;
    double f;
    int have;
} acc;

static uint64_t kind_mask(unsigned es)
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

/* Rounds v to kind k (a no-op for f64). */
static double round_to(cvm_scalar_kind k, double v)
{
    if (k == CVM_SK_F64)
        return v;
    if (k == CVM_SK_F32)
        return (double)(float)v;
    uint8_t tmp[8];
    cvm_store_from_f64(k, tmp, v, 0);
    return cvm_load_as_f64(k, tmp);
}

static void acc_identity(uint32_t op, cvm_scalar_kind k, acc *s)
{
    unsigned es = cvm_sk_size(k);
    uint64_t m = kind_mask(es);
    s->have = 0;
    s->f = 0.0;
    s->u = 0;
    switch (op) {
    case SpvOpGroupNonUniformIMul: s->u = 1; break;
    case SpvOpGroupNonUniformFMul: s->f = 1.0; break;
    case SpvOpGroupNonUniformSMin: s->u = m >> 1; break;
    case SpvOpGroupNonUniformUMin: s->u = m; break;
    case SpvOpGroupNonUniformSMax: s->u = (m >> 1) + 1; break; /* the most negative */
    case SpvOpGroupNonUniformFMin: s->f = (double)INFINITY; break;
    case SpvOpGroupNonUniformFMax: s->f = -(double)INFINITY; break;
    case SpvOpGroupNonUniformBitwiseAnd: s->u = m; break;
    case SpvOpGroupNonUniformLogicalAnd: s->u = 1; break;
    default: break; /* IAdd, FAdd, UMax, Or, Xor, LogicalOr, LogicalXor: 0 */
    }
}

static void acc_add(uint32_t op, cvm_scalar_kind k, acc *s, const uint8_t *p)
{
    unsigned es = cvm_sk_size(k);
    if (cvm_sk_is_float(k)) {
        double x = cvm_load_as_f64(k, p);
        if (!s->have) {
            s->f = x;
        } else {
            switch (op) {
            case SpvOpGroupNonUniformFAdd: s->f = round_to(k, s->f + x); break;
            case SpvOpGroupNonUniformFMul: s->f = round_to(k, s->f * x); break;
            /* the earlier lane's value on a tie (+0 and -0 included) */
            case SpvOpGroupNonUniformFMin: s->f = cvm_fmin_text(s->f, x); break;
            default: s->f = cvm_fmax_text(s->f, x); break;
            }
        }
        s->have = 1;
        return;
    }
    uint64_t x = 0;
    memcpy(&x, p, es);
    if (k == CVM_SK_BOOL)
        x &= 1;
    if (!s->have) {
        s->u = x;
        s->have = 1;
        return;
    }
    uint64_t m = kind_mask(es);
    switch (op) {
    case SpvOpGroupNonUniformIAdd: s->u = (s->u + x) & m; break;
    case SpvOpGroupNonUniformIMul: s->u = (s->u * x) & m; break;
    case SpvOpGroupNonUniformSMin: if (sext(x, es) < sext(s->u, es)) s->u = x; break;
    case SpvOpGroupNonUniformSMax: if (sext(x, es) > sext(s->u, es)) s->u = x; break;
    case SpvOpGroupNonUniformUMin: if ((x & m) < (s->u & m)) s->u = x; break;
    case SpvOpGroupNonUniformUMax: if ((x & m) > (s->u & m)) s->u = x; break;
    case SpvOpGroupNonUniformBitwiseAnd: case SpvOpGroupNonUniformLogicalAnd: s->u &= x; break;
    case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformLogicalOr: s->u |= x; break;
    default: s->u ^= x; break; /* BitwiseXor, LogicalXor */
    }
}

/* Stores the accumulated value, or the identity when nothing was combined. */
static void acc_store(uint32_t op, cvm_scalar_kind k, const acc *s, uint8_t *dst)
{
    if (!s->have) {
        acc id;
        acc_identity(op, k, &id);
        if (cvm_sk_is_float(k))
            cvm_store_from_f64(k, dst, id.f, 0);
        else
            memcpy(dst, &id.u, cvm_sk_size(k));
        return;
    }
    if (cvm_sk_is_float(k)) {
        if (k == CVM_SK_F32) {
            float f = (float)s->f;
            memcpy(dst, &f, 4);
        } else {
            cvm_store_from_f64(k, dst, s->f, 0);
        }
    } else {
        memcpy(dst, &s->u, cvm_sk_size(k));
    }
}

static cvm_result h_arith(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    uint32_t op = in->spv_op;
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        for (uint32_t c = 0; c < in->ncomp; c++) {
            size_t off = (size_t)c * es;
            acc s;
            switch (in->c) {
            case SpvGroupOperationInclusiveScan:
            case SpvGroupOperationExclusiveScan:
                acc_identity(op, k, &s);
                for (uint32_t l = g.first; l < g.first + g.count; l++) {
                    if (!ex->active[l])
                        continue;
                    if (in->c == SpvGroupOperationExclusiveScan)
                        acc_store(op, k, &s, CVM_LANE(r, l) + off);
                    acc_add(op, k, &s, CVM_LANE(a, l) + off);
                    if (in->c == SpvGroupOperationInclusiveScan)
                        acc_store(op, k, &s, CVM_LANE(r, l) + off);
                }
                break;
            default: { /* Reduce, ClusteredReduce */
                uint32_t cs = in->c == SpvGroupOperationClusteredReduce && in->d ? in->d : g.size;
                for (uint32_t c0 = 0; c0 < g.count; c0 += cs) {
                    uint32_t c1 = CVM_MIN(c0 + cs, g.count);
                    acc_identity(op, k, &s);
                    for (uint32_t l = g.first + c0; l < g.first + c1; l++)
                        if (ex->active[l])
                            acc_add(op, k, &s, CVM_LANE(a, l) + off);
                    for (uint32_t l = g.first + c0; l < g.first + c1; l++)
                        if (ex->active[l])
                            acc_store(op, k, &s, CVM_LANE(r, l) + off);
                }
                break;
            }
            }
        }
    }
    return CVM_SUCCESS;
}

/* ---- partitions (SPV_EXT_shader_subgroup_partitioned) -------------------------------- *
 * OpGroupNonUniformPartitionEXT gives each active invocation the ballot of
 * the active invocations of its subgroup whose Value equals its own:
 * integers and booleans bit for bit, floats as numbers (so -0 and +0 share
 * a subset, and a NaN equals nothing: each NaN invocation is a subset of
 * its own, which the text allows: "or one must be a floating point NaN"),
 * vectors component by component.  The Partitioned{Reduce,InclusiveScan,
 * ExclusiveScan}EXT operations combine, in ascending invocation order, the
 * values of the invocations of the caller's subset (those whose bits its
 * ballot sets), the scans the ones up to (before) the caller.  A ballot
 * that is not a valid partition (its own bit clear, or a member whose
 * ballot differs: "must form a valid partition") is reported, not guessed
 * at.  Subgroup scope only: the ballot names subgroup invocations. */

static int partition_equal(cvm_scalar_kind k, uint32_t ncomp, const uint8_t *x, const uint8_t *y)
{
    unsigned es = cvm_sk_size(k);
    for (uint32_t c = 0; c < ncomp; c++) {
        const uint8_t *p = x + (size_t)c * es, *q = y + (size_t)c * es;
        if (cvm_sk_is_float(k)) {
            if (!(cvm_load_as_f64(k, p) == cvm_load_as_f64(k, q)))
                return 0;
        } else if (k == CVM_SK_BOOL) {
            if ((p[0] & 1) != (q[0] & 1))
                return 0;
        } else if (memcmp(p, q, es)) {
            return 0;
        }
    }
    return 1;
}

static cvm_result h_partition(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            uint32_t bits[4] = {0, 0, 0, 0};
            for (uint32_t j = g.first; j < g.first + g.count; j++) {
                uint32_t id = j - g.first;
                if (ex->active[j] && id < 128 &&
                    (j == l || partition_equal(k, in->ncomp, CVM_LANE(a, l), CVM_LANE(a, j))))
                    bits[id / 32] |= 1u << (id % 32);
            }
            memcpy(CVM_LANE(r, l), bits, 16);
        }
    }
    return CVM_SUCCESS;
}

static cvm_result h_arith_partitioned(cvm_exec *ex, const cvm_insn *in)
{
    cvm_val r = ex->vals[in->result], a = ex->vals[in->a], b = ex->vals[in->b];
    cvm_scalar_kind k = (cvm_scalar_kind)in->sk;
    unsigned es = cvm_sk_size(k);
    uint32_t op = in->spv_op;
    for (uint32_t i = 0; i < ninstances(ex, in); i++) {
        inst_range g = instance(ex, in, i);
        /* the partition must be valid before any result is written */
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            const uint8_t *mine = CVM_LANE(b, l);
            if (!ballot_bit(mine, l - g.first))
                return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_ARGUMENT,
                                     "subgroup %u: invocation %u's ballot does not contain it: "
                                     "not a valid partition",
                                     i, l - g.first);
            for (uint32_t j = g.first; j < g.first + g.count; j++)
                if (ex->active[j] && j != l && ballot_bit(mine, j - g.first) &&
                    memcmp(CVM_LANE(b, j), mine, 16))
                    return cvm_exec_fail(ex, in, CVM_ERROR_INVALID_ARGUMENT,
                                         "subgroup %u: invocations %u and %u are in one subset "
                                         "with different ballots: not a valid partition",
                                         i, l - g.first, j - g.first);
        }
        for (uint32_t l = g.first; l < g.first + g.count; l++) {
            if (!ex->active[l])
                continue;
            const uint8_t *mine = CVM_LANE(b, l);
            uint32_t last = in->c == SpvGroupOperationPartitionedReduceEXT ? g.first + g.count : l + 1;
            if (in->c == SpvGroupOperationPartitionedExclusiveScanEXT)
                last = l;
            for (uint32_t c = 0; c < in->ncomp; c++) {
                size_t off = (size_t)c * es;
                acc s;
                acc_identity(op, k, &s);
                for (uint32_t j = g.first; j < last; j++)
                    if (ex->active[j] && ballot_bit(mine, j - g.first))
                        acc_add(op, k, &s, CVM_LANE(a, j) + off);
                /* the result may be the ballot's or the value's register:
                 * everything is read before lane l's own result is written */
                uint8_t tmp[8];
                acc_store(op, k, &s, tmp);
                memcpy(CVM_LANE(r, l) + off, tmp, es);
            }
        }
    }
    return CVM_SUCCESS;
}

/* ---- lowering ---------------------------------------------------------------------- */

static cvm_result value_shape(cvm_lower *lw, const spv_inst *inst, cvm_insn *out, uint32_t id,
                              int numeric_only)
{
    uint32_t tid = cvm_lower_type_of(lw, id);
    const cvm_type *t = cvm_lower_type(lw, tid);
    out->type = tid;
    switch (t->tclass) {
    case CVM_TC_BOOL:
    case CVM_TC_INT:
    case CVM_TC_FLOAT:
        out->ncomp = 1;
        break;
    case CVM_TC_VECTOR:
        out->ncomp = t->count;
        break;
    case CVM_TC_POINTER:
    case CVM_TC_STRUCT:
    case CVM_TC_ARRAY:
    case CVM_TC_MATRIX:
        if (!numeric_only) {
            out->ncomp = 1;
            break;
        }
        /* fall through */
    default:
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED,
                              "subgroup operation on a value of this type");
    }
    out->sk = t->sk;
    return CVM_SUCCESS;
}

static cvm_result lower_scope(cvm_lower *lw, const spv_inst *inst, cvm_insn *out, uint32_t id)
{
    uint64_t scope;
    if (!cvm_lower_const_u64(lw, id, &scope))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "the Execution scope is not a constant");
    if (scope == SpvScopeWorkgroup)
        out->flags |= CVM_INSN_WORKGROUP_SCOPE;
    else if (scope != SpvScopeSubgroup)
        return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED,
                              "Execution scope %llu (only Subgroup and Workgroup)",
                              (unsigned long long)scope);
    return CVM_SUCCESS;
}

/* Id, Mask, Delta, Index, Direction: the handlers read it as an integer
 * scalar at its width (sk2). */
static cvm_result operand_b(cvm_lower *lw, const spv_inst *inst, cvm_insn *out, uint32_t id,
                            const char *name)
{
    CVM_TRY(cvm_lower_int_scalar(lw, inst, id, name, NULL));
    out->b = id;
    out->sk2 = cvm_lower_type(lw, cvm_lower_type_of(lw, id))->sk;
    return CVM_SUCCESS;
}

/* The handlers keep every operand and result in per-invocation slots of the
 * type's register size: types of the same id, or of the same shape (class,
 * component kind, size, components), have slots alike.  A cooperative
 * matrix is stored per scope instance, not per invocation. */
static int same_shape(cvm_lower *lw, uint32_t a, uint32_t b)
{
    const cvm_type *x = cvm_lower_type(lw, a), *y = cvm_lower_type(lw, b);
    if (x->tclass == CVM_TC_NONE || x->tclass == CVM_TC_COOPMAT)
        return 0;
    return a == b || (x->tclass == y->tclass && x->sk == y->sk && x->size == y->size &&
                      x->count == y->count);
}

/* h_move and h_arith write the Value's type into the result: "Result Type
 * must be the type of Value" (SPIR-V, OpGroupNonUniform*). */
static cvm_result result_is_value_type(cvm_lower *lw, const spv_inst *inst, uint32_t value)
{
    uint32_t rt = inst->words[1];
    if (!same_shape(lw, rt, cvm_lower_type_of(lw, value)))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Result Type %%%u is not the type of Value %%%u", rt, value);
    return CVM_SUCCESS;
}

/* A ballot: h_ballot writes, and the ballot readers read, 16 bytes. */
static int is_ballot_type(cvm_lower *lw, uint32_t tid)
{
    const cvm_type *t = cvm_lower_type(lw, tid);
    return t->tclass == CVM_TC_VECTOR && t->count == 4 && t->size == 16 &&
           cvm_lower_type(lw, t->elem)->tclass == CVM_TC_INT &&
           cvm_lower_type(lw, t->elem)->size == 4;
}

static cvm_result result_is_ballot(cvm_lower *lw, const spv_inst *inst)
{
    if (!is_ballot_type(lw, inst->words[1]))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Result Type %%%u is not a vector of four 32-bit integers",
                              inst->words[1]);
    return CVM_SUCCESS;
}

static cvm_result value_is_ballot(cvm_lower *lw, const spv_inst *inst, uint32_t value)
{
    if (!is_ballot_type(lw, cvm_lower_type_of(lw, value)))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Value %%%u is not a vector of four 32-bit integers", value);
    return CVM_SUCCESS;
}

/* Elect, votes, InverseBallot, BallotBitExtract write one byte: "Result
 * Type must be a Boolean type". */
static cvm_result result_is_bool(cvm_lower *lw, const spv_inst *inst)
{
    if (cvm_lower_type(lw, inst->words[1])->tclass != CVM_TC_BOOL)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Result Type %%%u is not a Boolean scalar", inst->words[1]);
    return CVM_SUCCESS;
}

/* h_ballot, h_vote (All, Any) read a byte of the Predicate. */
static cvm_result predicate_is_bool(cvm_lower *lw, const spv_inst *inst, uint32_t id)
{
    if (cvm_lower_type(lw, cvm_lower_type_of(lw, id))->tclass != CVM_TC_BOOL)
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Predicate %%%u is not a Boolean scalar", id);
    return CVM_SUCCESS;
}

/* h_ballot_count stores the count at the Result Type's integer width: "Result
 * Type must be a scalar of integer type". */
static cvm_result result_is_count(cvm_lower *lw, const spv_inst *inst)
{
    const cvm_type *t = cvm_lower_type(lw, inst->words[1]);
    if (t->tclass != CVM_TC_INT || (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "Result Type %%%u is not an integer scalar", inst->words[1]);
    return CVM_SUCCESS;
}

static cvm_result cluster_size(cvm_lower *lw, const spv_inst *inst, cvm_insn *out, uint32_t id)
{
    uint64_t cs;
    if (!cvm_lower_const_u64(lw, id, &cs))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "ClusterSize is not a constant");
    if (cs == 0 || (cs & (cs - 1)) || cs > (1u << 20))
        return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                              "ClusterSize %llu is not a power of two",
                              (unsigned long long)cs);
    out->d = (uint32_t)cs;
    return CVM_SUCCESS;
}

static const char *b_operand_name(uint32_t op)
{
    switch (op) {
    case SpvOpGroupNonUniformShuffleXor: return "Mask";
    case SpvOpGroupNonUniformShuffleUp:
    case SpvOpGroupNonUniformShuffleDown:
    case SpvOpGroupNonUniformRotateKHR: return "Delta";
    case SpvOpGroupNonUniformQuadBroadcast: return "Index";
    case SpvOpGroupNonUniformQuadSwap: return "Direction";
    default: return "Id"; /* Broadcast, Shuffle */
    }
}

static int is_arith(uint32_t op)
{
    return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor;
}

cvm_result cvm_lower_subgroup(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    const uint32_t *w = inst->words;
    uint32_t op = inst->opcode, n = inst->word_count;
    out->sk2 = CVM_SK_U32;
    if (is_arith(op)) {
        if (n < 6)
            return cvm_lower_fail(lw, inst, CVM_ERROR_MALFORMED, "too few operands");
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        out->c = w[4];
        out->a = w[5];
        CVM_TRY(value_shape(lw, inst, out, w[5], 1));
        CVM_TRY(result_is_value_type(lw, inst, w[5]));
        if (out->c == SpvGroupOperationClusteredReduce) {
            if (n < 7)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "ClusteredReduce needs a ClusterSize operand");
            CVM_TRY(cluster_size(lw, inst, out, w[6]));
        } else if (out->c >= SpvGroupOperationPartitionedReduceEXT &&
                   out->c <= SpvGroupOperationPartitionedExclusiveScanEXT) {
            if (n < 7 || !is_ballot_type(lw, cvm_lower_type_of(lw, w[6])))
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "a partitioned operation needs a ballot operand of four "
                                      "32-bit integers");
            if (out->flags & CVM_INSN_WORKGROUP_SCOPE)
                return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                      "a partitioned operation's ballot names subgroup "
                                      "invocations: Execution scope must be Subgroup");
            out->b = w[6];
        } else if (out->c > SpvGroupOperationClusteredReduce) {
            return cvm_lower_fail(lw, inst, CVM_ERROR_UNSUPPORTED, "group operation %u", out->c);
        }
        cvm_scalar_kind k = (cvm_scalar_kind)out->sk;
        int fop = op == SpvOpGroupNonUniformFAdd || op == SpvOpGroupNonUniformFMul ||
                  op == SpvOpGroupNonUniformFMin || op == SpvOpGroupNonUniformFMax;
        int lop = op >= SpvOpGroupNonUniformLogicalAnd;
        if (fop != cvm_sk_is_float(k) || lop != (k == CVM_SK_BOOL))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "operand component type does not suit the operation");
        out->fn = out->b ? h_arith_partitioned : h_arith;
        return CVM_SUCCESS;
    }
    switch (op) {
    case SpvOpGroupNonUniformPartitionEXT: {
        if (n != 4 || !is_ballot_type(lw, w[1]))
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "Result Type must be a vector of four 32-bit integers");
        out->a = w[3];
        CVM_TRY(value_shape(lw, inst, out, w[3], 1));
        out->fn = h_partition;
        return CVM_SUCCESS;
    }
    case SpvOpGroupNonUniformElect:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        CVM_TRY(result_is_bool(lw, inst));
        out->fn = h_elect;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformAll:
    case SpvOpGroupNonUniformAny:
    case SpvOpGroupNonUniformAllEqual:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        CVM_TRY(result_is_bool(lw, inst));
        out->a = w[4];
        CVM_TRY(value_shape(lw, inst, out, w[4], 1));
        if (op != SpvOpGroupNonUniformAllEqual)
            CVM_TRY(predicate_is_bool(lw, inst, w[4]));
        out->fn = h_vote;
        return CVM_SUCCESS;
    case SpvOpSubgroupAllKHR:
    case SpvOpSubgroupAnyKHR:
    case SpvOpSubgroupAllEqualKHR:
        CVM_TRY(result_is_bool(lw, inst));
        out->a = w[3];
        CVM_TRY(value_shape(lw, inst, out, w[3], 1));
        if (op != SpvOpSubgroupAllEqualKHR)
            CVM_TRY(predicate_is_bool(lw, inst, w[3]));
        out->fn = h_vote;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformBallot:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        CVM_TRY(result_is_ballot(lw, inst));
        CVM_TRY(predicate_is_bool(lw, inst, w[4]));
        out->a = w[4];
        out->fn = h_ballot;
        return CVM_SUCCESS;
    case SpvOpSubgroupBallotKHR:
        CVM_TRY(result_is_ballot(lw, inst));
        CVM_TRY(predicate_is_bool(lw, inst, w[3]));
        out->a = w[3];
        out->fn = h_ballot;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformInverseBallot:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        CVM_TRY(result_is_bool(lw, inst));
        CVM_TRY(value_is_ballot(lw, inst, w[4]));
        out->a = w[4];
        out->fn = h_ballot_bit;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformBallotBitExtract:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        CVM_TRY(result_is_bool(lw, inst));
        CVM_TRY(value_is_ballot(lw, inst, w[4]));
        out->a = w[4];
        CVM_TRY(operand_b(lw, inst, out, w[5], "Index"));
        out->fn = h_ballot_bit;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformBallotBitCount:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        out->c = w[4];
        out->a = w[5];
        if (out->c > SpvGroupOperationExclusiveScan)
            return cvm_lower_fail(lw, inst, CVM_ERROR_INVALID_MODULE,
                                  "BallotBitCount takes Reduce, InclusiveScan or ExclusiveScan");
        CVM_TRY(result_is_count(lw, inst));
        CVM_TRY(value_is_ballot(lw, inst, w[5]));
        out->sk = cvm_lower_type(lw, w[1])->sk;
        out->fn = h_ballot_count;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformBallotFindLSB:
    case SpvOpGroupNonUniformBallotFindMSB:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        CVM_TRY(result_is_count(lw, inst));
        CVM_TRY(value_is_ballot(lw, inst, w[4]));
        out->a = w[4];
        out->sk = cvm_lower_type(lw, w[1])->sk;
        out->fn = h_ballot_count;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformBroadcastFirst:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        out->a = w[4];
        CVM_TRY(value_shape(lw, inst, out, w[4], 0));
        CVM_TRY(result_is_value_type(lw, inst, w[4]));
        out->fn = h_move;
        return CVM_SUCCESS;
    case SpvOpSubgroupFirstInvocationKHR:
        out->a = w[3];
        CVM_TRY(value_shape(lw, inst, out, w[3], 0));
        CVM_TRY(result_is_value_type(lw, inst, w[3]));
        out->fn = h_move;
        return CVM_SUCCESS;
    case SpvOpSubgroupReadInvocationKHR:
        out->a = w[3];
        CVM_TRY(value_shape(lw, inst, out, w[3], 0));
        CVM_TRY(result_is_value_type(lw, inst, w[3]));
        CVM_TRY(operand_b(lw, inst, out, w[4], "Index"));
        out->fn = h_move;
        return CVM_SUCCESS;
    case SpvOpGroupNonUniformBroadcast:
    case SpvOpGroupNonUniformShuffle:
    case SpvOpGroupNonUniformShuffleXor:
    case SpvOpGroupNonUniformShuffleUp:
    case SpvOpGroupNonUniformShuffleDown:
    case SpvOpGroupNonUniformQuadBroadcast:
    case SpvOpGroupNonUniformQuadSwap:
    case SpvOpGroupNonUniformRotateKHR:
        CVM_TRY(lower_scope(lw, inst, out, w[3]));
        out->a = w[4];
        CVM_TRY(value_shape(lw, inst, out, w[4], 0));
        CVM_TRY(result_is_value_type(lw, inst, w[4]));
        CVM_TRY(operand_b(lw, inst, out, w[5], b_operand_name(op)));
        if (op == SpvOpGroupNonUniformRotateKHR && n > 6)
            CVM_TRY(cluster_size(lw, inst, out, w[6]));
        out->fn = h_move;
        return CVM_SUCCESS;
    default:
        return CVM_ERROR_NOT_FOUND;
    }
}
