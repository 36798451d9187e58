/* Subgroup operations (exec/ops/subgroup.c) through the public API: the
 * shader tests/shaders/subgroup_ops.comp runs every operation under
 * divergent masks (all lanes, odd lanes, random lanes, a prefix of the
 * workgroup) on subgroup sizes 4, 8, 32, 64 and 128 with a workgroup of 100
 * (partial last subgroups), and a plain-loop model of each operation over
 * the lanes here gives the expected values.
 *
 * Where the texts leave a result undefined, the model states coopvm's
 * documented choice: reading an inactive or nonexistent invocation gives 0,
 * BallotFindLSB/MSB of an empty ballot give 0xFFFFFFFF. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "ops_harness.h"

#define WG 100
#define GROUPS 3
#define N (WG * GROUPS)
#define SLOTS 93
#define SENTINEL 0xDEADBEEFu

/* The model's view of one subgroup. */
typedef struct sg {
    const uint32_t *u, *act;
    const float *f;
    uint32_t base; /* global index of id 0 */
    uint32_t cnt;  /* invocations that exist */
    uint32_t size; /* the subgroup size */
} sg;

static int A(const sg *s, uint64_t id)
{
    return id < s->cnt && s->act[s->base + id] != 0;
}

/* Reading another invocation's x: 0 when it is inactive or does not exist. */
static uint32_t rd(const sg *s, uint64_t id)
{
    return A(s, id) ? s->u[s->base + id] : 0u;
}

enum { M_REDUCE, M_INCL, M_EXCL, M_CLUSTER4 };

/* Is j among the invocations whose values lane `id` combines? */
static int in_set(int mode, uint32_t id, uint32_t j)
{
    switch (mode) {
    case M_REDUCE: return 1;
    case M_INCL: return j <= id;
    case M_EXCL: return j < id;
    default: return (j & ~3u) == (id & ~3u);
    }
}

enum { O_ADD, O_MUL, O_SMIN, O_UMIN, O_SMAX, O_UMAX, O_AND, O_OR, O_XOR };

static uint32_t int_op(int op, int mode, const sg *s, uint32_t id)
{
    int have = 0;
    uint32_t acc = 0;
    for (uint32_t j = 0; j < s->cnt; j++) {
        if (!A(s, j) || !in_set(mode, id, j))
            continue;
        uint32_t v = s->u[s->base + j];
        if (!have) {
            acc = v;
            have = 1;
            continue;
        }
        switch (op) {
        case O_ADD: acc += v; break;
        case O_MUL: acc *= v; break;
        case O_SMIN: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
        case O_UMIN: acc = v < acc ? v : acc; break;
        case O_SMAX: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
        case O_UMAX: acc = v > acc ? v : acc; break;
        case O_AND: acc &= v; break;
        case O_OR: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    if (have)
        return acc;
    /* identities of the SPIR-V table */
    switch (op) {
    case O_MUL: return 1;
    case O_SMIN: return 0x7fffffffu;
    case O_UMIN: return 0xffffffffu;
    case O_SMAX: return 0x80000000u;
    case O_AND: return 0xffffffffu;
    default: return 0;
    }
}

static uint32_t float_op(int op, int mode, const sg *s, uint32_t id)
{
    int have = 0;
    float acc = 0.0f;
    for (uint32_t j = 0; j < s->cnt; j++) {
        if (!A(s, j) || !in_set(mode, id, j))
            continue;
        float v = s->f[s->base + j];
        if (!have) {
            acc = v;
            have = 1;
            continue;
        }
        switch (op) {
        case O_ADD: acc = acc + v; break;
        case O_MUL: acc = acc * v; break;
        /* FMin/FMax keep the earlier lane's value on a tie (coopvm's
         * choice, GLSL.std.450's rule; the texts leave it open): of +0 and
         * -0 the first */
        case O_SMIN: acc = v < acc ? v : acc; break;
        default: acc = acc < v ? v : acc; break;
        }
    }
    if (!have)
        acc = op == O_ADD ? 0.0f : op == O_MUL ? 1.0f : op == O_SMIN ? INFINITY : -INFINITY;
    return ops_f2u(acc);
}

static uint32_t bool_op(int op, int mode, const sg *s, uint32_t id)
{
    int have = 0;
    uint32_t acc = 0;
    for (uint32_t j = 0; j < s->cnt; j++) {
        if (!A(s, j) || !in_set(mode, id, j))
            continue;
        uint32_t v = s->u[s->base + j] & 1u;
        if (!have) {
            acc = v;
            have = 1;
            continue;
        }
        acc = op == O_AND ? (acc & v) : op == O_OR ? (acc | v) : (acc ^ v);
    }
    if (!have)
        return op == O_AND ? 1u : 0u;
    return acc;
}

static uint32_t ballot_word(const sg *s, uint32_t w)
{
    uint32_t bits = 0;
    for (uint32_t j = w * 32; j < w * 32 + 32 && j < s->cnt; j++)
        if (A(s, j) && (s->u[s->base + j] & 1u))
            bits |= 1u << (j % 32);
    return bits;
}

static int ballot_has(const sg *s, uint32_t bit)
{
    return bit < 128 && ((ballot_word(s, bit / 32) >> (bit % 32)) & 1u);
}

static void model(uint32_t S, const uint32_t *u, const float *f, const uint32_t *act,
                  const uint32_t *src, uint32_t *e)
{
    for (uint32_t i = 0; i < SLOTS * N; i++)
        e[i] = SENTINEL;
    for (uint32_t g = 0; g < GROUPS; g++) {
        for (uint32_t s0 = 0; s0 < WG; s0 += S) {
            sg s = {u, act, f, g * WG + s0, WG - s0 < S ? WG - s0 : S, S};
            uint32_t first = UINT32_MAX;
            for (uint32_t j = 0; j < s.cnt && first == UINT32_MAX; j++)
                if (A(&s, j))
                    first = j;
            for (uint32_t id = 0; id < s.cnt; id++) {
                if (!A(&s, id))
                    continue;
                uint32_t i = s.base + id, x = u[i];
#define E(slot) e[(slot) * N + i]
                E(0) = id == first;
                uint32_t all = 1, any = 0, eq = 1;
                for (uint32_t j = 0; j < s.cnt; j++) {
                    if (!A(&s, j))
                        continue;
                    all &= u[s.base + j] & 1u;
                    any |= u[s.base + j] & 1u;
                    eq &= (u[s.base + j] & 3u) == (u[s.base + first] & 3u);
                }
                E(1) = all;
                E(2) = any;
                E(3) = eq;
                E(4) = rd(&s, 3);
                E(5) = rd(&s, first);
                for (uint32_t w = 0; w < 4; w++)
                    E(6 + w) = ballot_word(&s, w);
                uint32_t inv[4] = {x, x * 3u, ~x, x ^ 0x5555u};
                E(10) = id < 128 ? (inv[id / 32] >> (id % 32)) & 1u : 0u;
                E(11) = (uint32_t)ballot_has(&s, src[i] & 127u);
                uint32_t cnt = 0, incl = 0, excl = 0, lsb = UINT32_MAX, msb = UINT32_MAX;
                for (uint32_t bit = 0; bit < S && bit < 128; bit++) {
                    if (!ballot_has(&s, bit))
                        continue;
                    cnt++;
                    incl += bit <= id;
                    excl += bit < id;
                    if (lsb == UINT32_MAX)
                        lsb = bit;
                    msb = bit;
                }
                E(12) = cnt;
                E(13) = incl;
                E(14) = excl;
                E(15) = lsb;
                E(16) = msb;
                E(17) = rd(&s, src[i]);
                E(18) = rd(&s, id ^ 5u);
                E(19) = id >= 3 ? rd(&s, id - 3) : 0u;
                E(20) = id + 3 < S ? rd(&s, id + 3) : 0u;
                E(21) = rd(&s, (id + 5) % S);                       /* rotate by 5 */
                E(22) = rd(&s, (id & ~3u) + ((id + 3) & 3u));       /* by 3 in clusters of 4 */
                E(23) = rd(&s, (id & ~3u) + 2);
                E(24) = rd(&s, id ^ 1u);
                E(25) = rd(&s, id ^ 2u);
                E(26) = rd(&s, id ^ 3u);
                static const int iops[] = {O_ADD, O_MUL, O_SMIN, O_UMIN, O_SMAX, O_UMAX, O_AND, O_OR, O_XOR};
                for (int k = 0; k < 9; k++)
                    for (int m = 0; m < 4; m++)
                        E(27 + 4 * k + m) = int_op(iops[k], m, &s, id);
                static const int fops[] = {O_ADD, O_MUL, O_SMIN, O_SMAX};
                for (int k = 0; k < 4; k++)
                    for (int m = 0; m < 4; m++)
                        E(63 + 4 * k + m) = float_op(fops[k], m, &s, id);
                static const int bops[] = {O_AND, O_OR, O_XOR};
                for (int k = 0; k < 3; k++)
                    for (int m = 0; m < 4; m++)
                        E(79 + 4 * k + m) = bool_op(bops[k], m, &s, id);
                uint32_t v0 = 0, v1 = 0;
                for (uint32_t j = 0; j <= id; j++)
                    if (A(&s, j)) {
                        v0 += u[s.base + j];
                        v1 += u[s.base + j] * 7u;
                    }
                E(91) = v0;
                E(92) = v1;
#undef E
            }
        }
    }
}

static const char *slot_name(uint32_t slot)
{
    static const char *names[] = {
        "Elect", "All", "Any", "AllEqual", "Broadcast", "BroadcastFirst", "Ballot.x", "Ballot.y",
        "Ballot.z", "Ballot.w", "InverseBallot", "BallotBitExtract", "BitCount", "InclBitCount",
        "ExclBitCount", "FindLSB", "FindMSB", "Shuffle", "ShuffleXor", "ShuffleUp", "ShuffleDown",
        "Rotate", "ClusteredRotate", "QuadBroadcast", "QuadSwapH", "QuadSwapV", "QuadSwapD"};
    if (slot < sizeof(names) / sizeof(names[0]))
        return names[slot];
    static const char *ar[] = {"IAdd", "IMul", "SMin", "UMin", "SMax", "UMax", "And", "Or",
                               "Xor", "FAdd", "FMul", "FMin", "FMax", "LAnd", "LOr", "LXor"};
    if (slot < 91)
        return ar[(slot - 27) / 4];
    return "vec2 InclusiveAdd";
}

enum { P_ALL, P_ODD, P_RANDOM, P_PREFIX, P_NONE_FIRST_SG };

static void run_case(uint32_t S, int pattern)
{
    uint32_t *u = malloc(N * 4), *act = malloc(N * 4), *src = malloc(N * 4);
    float *f = malloc(N * 4);
    uint32_t *out = malloc((size_t)SLOTS * N * 4), *e = malloc((size_t)SLOTS * N * 4);
    assert_non_null(u);
    assert_non_null(act);
    assert_non_null(src);
    assert_non_null(f);
    assert_non_null(out);
    assert_non_null(e);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t l = i % WG;
        u[i] = (uint32_t)ops_rng();
        if (i / WG == 1)
            u[i] = (u[i] & ~3u) | 2u; /* AllEqual(x & 3) true in group 1 */
        if (i / WG == 2 && (i % 3) == 0)
            u[i] |= 1u;
        if (ops_rng() % 4 == 0)
            u[i] = (uint32_t)(ops_rng() % 5); /* small values: products and minima vary */
        float mag = 0.5f + (float)(ops_rng() % 1000) / 1000.0f;
        f[i] = (ops_rng() & 1) ? -mag : mag;
        if (ops_rng() % 3 == 0) /* zeros of both signs: ties for min and max */
            f[i] = (ops_rng() & 1) ? -0.0f : 0.0f;
        src[i] = ops_rng() % 8 == 0 ? (uint32_t)ops_rng() : (uint32_t)(ops_rng() % (S + 6));
        switch (pattern) {
        case P_ALL: act[i] = 1; break;
        case P_ODD: act[i] = l & 1; break;
        case P_RANDOM: act[i] = ops_rng() % 10 < 7; break;
        case P_PREFIX: act[i] = l < 37; break;
        default: act[i] = l >= S && l % 5 != 0; break;
        }
    }
    for (uint32_t i = 0; i < SLOTS * N; i++)
        out[i] = SENTINEL;
    ops_buf bufs[] = {{0, u, N * 4}, {1, f, N * 4}, {2, act, N * 4}, {3, src, N * 4},
                      {4, out, (size_t)SLOTS * N * 4}};
    uint32_t n = N;
    assert_int_equal(ops_run("subgroup_ops", S, 3, 0, bufs, 5, &n, 4, GROUPS, NULL, 0), CVM_SUCCESS);
    model(S, u, f, act, src, e);
    uint32_t bad = 0;
    for (uint32_t slot = 0; slot < SLOTS; slot++)
        for (uint32_t i = 0; i < N; i++)
            if (out[slot * N + i] != e[slot * N + i] && bad++ < 10)
                fprintf(stderr, "S=%u pattern %d slot %u (%s) invocation %u: got 0x%08x want 0x%08x\n",
                        S, pattern, slot, slot_name(slot), i, out[slot * N + i], e[slot * N + i]);
    assert_int_equal(bad, 0);
    free(u);
    free(act);
    free(src);
    free(f);
    free(out);
    free(e);
}

static void test_subgroup_all_sizes_all_masks(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {4, 8, 32, 64, 128};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
        for (int p = P_ALL; p <= P_NONE_FIRST_SG; p++)
            run_case(sizes[k], p);
}

/* The model itself, on a case worked by hand: subgroup of 4 with ids 1 and 3
 * active, x = {_, 5, _, 6}. */
static void test_model_by_hand(void **state)
{
    (void)state;
    uint32_t u[4] = {100, 5, 200, 6}, act[4] = {0, 1, 0, 1};
    float f[4] = {9.0f, 1.5f, 9.0f, 2.0f};
    sg s = {u, act, f, 0, 4, 4};
    assert_int_equal(int_op(O_ADD, M_REDUCE, &s, 1), 11);
    assert_int_equal(int_op(O_ADD, M_EXCL, &s, 1), 0);
    assert_int_equal(int_op(O_ADD, M_EXCL, &s, 3), 5);
    assert_int_equal(int_op(O_MUL, M_EXCL, &s, 1), 1);
    assert_int_equal(int_op(O_UMIN, M_EXCL, &s, 1), 0xffffffffu);
    assert_int_equal(int_op(O_SMAX, M_INCL, &s, 3), 6);
    assert_int_equal(float_op(O_MUL, M_REDUCE, &s, 3), ops_f2u(3.0f));
    assert_int_equal(float_op(O_SMIN, M_EXCL, &s, 1), ops_f2u(INFINITY));
    assert_int_equal(rd(&s, 0), 0);
    assert_int_equal(rd(&s, 3), 6);
    assert_int_equal(rd(&s, 4), 0);
    assert_int_equal(ballot_word(&s, 0), (1u << 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_by_hand),
        cmocka_unit_test(test_subgroup_all_sizes_all_masks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
