/* Atomics (exec/ops/atomic.c) through the public API: hundreds of
 * workgroups on 8 threads counting into the same buffer (exact totals), the
 * values returned to each lane (ascending lane order inside a workgroup,
 * unique tickets across the dispatch), Workgroup-memory atomics, 64-bit and
 * float atomics.  Expected values are computed here in plain C.  f16 values
 * are rounded with the numeric module's f64->f16 (tested in test_numeric). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "numeric/numeric.h"
#include "ops_harness.h"

#define LANES 64
#define SENT 0xA5A5A5A5u

typedef struct totals {
    uint32_t add, inc, dec, sub;
    int32_t smin, smax;
    uint32_t umin, umax, and_, or_, xor_, next, pad0, pad1;
    uint64_t add64;
    int64_t smin64;
    uint64_t umax64, xor64;
} totals;

static void run_int(uint32_t groups, uint32_t threads)
{
    uint32_t n = groups * LANES;
    uint32_t *v = malloc(n * 4), *slot = malloc(groups * 5 * 4), *ret = malloc((size_t)n * 5 * 4);
    uint32_t *slot0 = malloc(groups * 5 * 4);
    assert_non_null(v);
    assert_non_null(slot);
    assert_non_null(ret);
    assert_non_null(slot0);
    for (uint32_t i = 0; i < n; i++)
        v[i] = ops_rng() % 4 == 0 ? (uint32_t)(ops_rng() % 50) : (uint32_t)ops_rng();
    for (uint32_t i = 0; i < groups * 5; i++)
        slot[i] = slot0[i] = (i % 5 == 2) ? 0 : (uint32_t)ops_rng();
    for (uint32_t i = 0; i < n * 5; i++)
        ret[i] = SENT;
    totals t = {0, 0, 0, 0, INT32_MAX, INT32_MIN, UINT32_MAX, 0, UINT32_MAX, 0, 0, 0, 0, 0,
                0, INT64_MAX, 0, 0};
    ops_buf bufs[] = {{0, &t, sizeof(t)}, {1, v, n * 4}, {2, slot, groups * 5 * 4},
                      {3, ret, (size_t)n * 5 * 4}};
    assert_int_equal(ops_run("atomic_ops", 32, threads, 0, bufs, 4, &n, 4, groups, NULL, 0),
                     CVM_SUCCESS);

    /* the model */
    totals e = {0, 0, 0, 0, INT32_MAX, INT32_MIN, UINT32_MAX, 0, UINT32_MAX, 0, 0, 0, 0, 0,
                0, INT64_MAX, 0, 0};
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = i % LANES, x = v[i];
        if (l % 3 == 0)
            continue;
        count++;
        e.add += x;
        e.inc += 1;
        e.dec -= 1;
        e.sub -= 34567u;
        if ((int32_t)x < e.smin) e.smin = (int32_t)x;
        if ((int32_t)x > e.smax) e.smax = (int32_t)x;
        if (x < e.umin) e.umin = x;
        if (x > e.umax) e.umax = x;
        e.and_ &= x | 0x0f0f0000u;
        e.or_ |= x & 0x00ff00ffu;
        e.xor_ ^= x;
        e.add64 += (uint64_t)x << 20;
        if ((int64_t)(int32_t)x * 4096 < e.smin64) e.smin64 = (int64_t)(int32_t)x * 4096;
        if ((uint64_t)x * 3 > e.umax64) e.umax64 = (uint64_t)x * 3;
        e.xor64 ^= ((uint64_t)x << 32) | i;
    }
    e.next = count;
    assert_int_equal(t.add, e.add);
    assert_int_equal(t.inc, e.inc);
    assert_int_equal(t.dec, e.dec);
    assert_int_equal(t.sub, e.sub);
    assert_int_equal(t.smin, e.smin);
    assert_int_equal(t.smax, e.smax);
    assert_int_equal(t.umin, e.umin);
    assert_int_equal(t.umax, e.umax);
    assert_int_equal(t.and_, e.and_);
    assert_int_equal(t.or_, e.or_);
    assert_int_equal(t.xor_, e.xor_);
    assert_int_equal(t.next, e.next);
    assert_true(t.add64 == e.add64);
    assert_true(t.smin64 == e.smin64);
    assert_true(t.umax64 == e.umax64);
    assert_true(t.xor64 == e.xor64);

    /* tickets: every active invocation a different one of 0..count-1 */
    uint8_t *seen = calloc(count ? count : 1, 1);
    assert_non_null(seen);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t tk = ret[0 * n + i];
        if (i % LANES % 3 == 0) {
            assert_int_equal(tk, SENT);
            continue;
        }
        assert_true(tk < count);
        assert_int_equal(seen[tk], 0);
        seen[tk] = 1;
    }
    free(seen);

    /* per workgroup: lanes applied in ascending order */
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t add = slot0[5 * g + 0], xchg = slot0[5 * g + 1], chain = 0, act = 0;
        for (uint32_t l = 0; l < LANES; l++) {
            uint32_t i = g * LANES + l;
            if (l % 3 == 0) {
                for (uint32_t k = 1; k <= 3; k++)
                    assert_int_equal(ret[k * n + i], SENT);
                continue;
            }
            act++;
            assert_int_equal(ret[1 * n + i], add);
            add += v[i] & 0xffffu;
            assert_int_equal(ret[2 * n + i], xchg);
            xchg = l + 1000u;
            uint32_t cmp = l / 3u * 2u + (l % 3u) - 1u;
            assert_int_equal(ret[3 * n + i], chain); /* equal to cmp: every swap succeeds */
            assert_int_equal(cmp, chain);
            chain = cmp + 1;
        }
        assert_int_equal(slot[5 * g + 0], add);
        assert_int_equal(slot[5 * g + 1], xchg);
        assert_int_equal(slot[5 * g + 2], chain);
        assert_int_equal(slot[5 * g + 3], act);
        assert_int_equal(slot[5 * g + 4], g * 7u + 1u);
    }
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(ret[4 * n + i], v[i ^ 1u]);
    free(v);
    free(slot);
    free(slot0);
    free(ret);
}

static void test_int_atomics_many_groups_threads(void **state)
{
    (void)state;
    run_int(3000, 8);
    run_int(37, 3);
}

static void test_int_atomics_one_thread(void **state)
{
    (void)state;
    run_int(5, 1);
}

typedef struct ftotals {
    float fsum, fmin_, fmax_;
    uint32_t pad;
    double dsum;
} ftotals;

static double h2d(uint16_t h)
{
    return (double)cvm_f16_to_f32(h);
}

static void test_float_atomics(void **state)
{
    (void)state;
    uint32_t groups = 250, n = groups * LANES;
    float *v = malloc(n * 4), *fslot = malloc(groups * 4), *fslot0 = malloc(groups * 4);
    float *fret = malloc(n * 4);
    uint16_t *hslot = malloc(groups * 2), *hslot0 = malloc(groups * 2), *hret = malloc(n * 2);
    assert_non_null(v);
    assert_non_null(fslot);
    assert_non_null(fslot0);
    assert_non_null(fret);
    assert_non_null(hslot);
    assert_non_null(hslot0);
    assert_non_null(hret);
    for (uint32_t i = 0; i < n; i++) {
        v[i] = (float)((int64_t)(ops_rng() % 2000001) - 1000000) / 100000.0f; /* (-10, 10) */
        fret[i] = -1234.5f;
        hret[i] = 0x7777;
    }
    for (uint32_t g = 0; g < groups; g++) {
        fslot[g] = fslot0[g] = (float)(ops_rng() % 1000) / 7.0f;
        hslot[g] = hslot0[g] = cvm_f64_to_f16((double)(ops_rng() % 100) / 3.0);
    }
    ftotals t = {0.0f, INFINITY, -INFINITY, 0, 0.0};
    ops_buf bufs[] = {{0, &t, sizeof(t)}, {1, v, n * 4}, {2, fslot, groups * 4},
                      {3, hslot, groups * 2}, {4, fret, n * 4}, {5, hret, n * 2}};
    assert_int_equal(ops_run("atomic_float", 32, 8, 0, bufs, 6, NULL, 0, groups, NULL, 0),
                     CVM_SUCCESS);
    float esum = 0.0f, emin = INFINITY, emax = -INFINITY;
    double edsum = 0.0;
    for (uint32_t g = 0; g < groups; g++) {
        float facc = fslot0[g];
        uint16_t hacc = hslot0[g];
        for (uint32_t l = 0; l < LANES; l++) {
            uint32_t i = g * LANES + l;
            float x = v[i];
            if (l & 4u) {
                assert_true(fret[i] == -1234.5f);
                assert_int_equal(hret[i], 0x7777);
                continue;
            }
            float w = floorf(fabsf(x) * 100.0f);
            esum += w;
            edsum += (double)w * 1024.0;
            emin = fminf(emin, x);
            emax = fmaxf(emax, x);
            assert_int_equal(ops_f2u(fret[i]), ops_f2u(facc));
            facc = facc + x;
            assert_int_equal(hret[i], hacc);
            hacc = cvm_f64_to_f16(h2d(hacc) + h2d(cvm_f64_to_f16((double)x)));
        }
        assert_int_equal(ops_f2u(fslot[g]), ops_f2u(facc));
        assert_int_equal(hslot[g], hacc);
    }
    assert_true(esum < 16777216.0f); /* exact in f32 whatever the order */
    assert_int_equal(ops_f2u(t.fsum), ops_f2u(esum));
    assert_true(t.dsum == edsum);
    assert_int_equal(ops_f2u(t.fmin_), ops_f2u(emin));
    assert_int_equal(ops_f2u(t.fmax_), ops_f2u(emax));
    free(v);
    free(fslot);
    free(fslot0);
    free(fret);
    free(hslot);
    free(hslot0);
    free(hret);
}

/* An atomic out of the buffer fails the dispatch with OUT_OF_BOUNDS, and in
 * robust mode is dropped. */
static void test_atomic_out_of_bounds(void **state)
{
    (void)state;
    uint32_t groups = 2, n = groups * LANES;
    uint32_t *v = calloc(n, 4), *slot = calloc(groups * 5, 4), *ret = calloc((size_t)n * 5, 4);
    totals t;
    memset(&t, 0, sizeof(t));
    assert_non_null(v);
    assert_non_null(slot);
    assert_non_null(ret);
    /* the slot buffer one workgroup short */
    ops_buf bufs[] = {{0, &t, sizeof(t)}, {1, v, n * 4}, {2, slot, 5 * 4}, {3, ret, (size_t)n * 5 * 4}};
    char msg[800];
    assert_int_equal(ops_run("atomic_ops", 32, 1, 0, bufs, 4, &n, 4, groups, msg, sizeof(msg)),
                     CVM_ERROR_OUT_OF_BOUNDS);
    assert_non_null(strstr(msg, "OpAtomicIAdd"));
    memset(&t, 0, sizeof(t));
    assert_int_equal(ops_run("atomic_ops", 32, 1, CVM_FLAG_ROBUST_ACCESS, bufs, 4, &n, 4, groups,
                             NULL, 0),
                     CVM_SUCCESS);
    /* the device-wide counters still saw every active lane of both groups */
    assert_int_equal(t.inc, 2 * 42);
    /* robust: the dropped add read zero */
    assert_int_equal(ret[1 * n + LANES + 1], 0);
    free(v);
    free(slot);
    free(ret);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_atomics_one_thread),
        cmocka_unit_test(test_int_atomics_many_groups_threads),
        cmocka_unit_test(test_float_atomics),
        cmocka_unit_test(test_atomic_out_of_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
