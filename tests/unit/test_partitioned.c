/* Partitioned subgroup operations (SPV_EXT/NV_shader_subgroup_partitioned,
 * GroupNonUniformPartitionedEXT) through tests/shaders/subgroup_partitioned
 * (GLSL, GL_NV_shader_subgroup_partitioned): OpGroupNonUniformPartitionEXT of
 * integers (with invocations inactive) and of floats (NaN, -0 and +0), and
 * the PartitionedReduceEXT, InclusiveScanEXT and ExclusiveScanEXT operations,
 * against a model written here from the text: a subset is the active
 * invocations of the subgroup with an equal value (floats numerically, a NaN
 * alone), the operations combine the subset's values in invocation order.
 * 48 invocations at subgroup sizes 8, 16, 32 (a partial last subgroup of 16)
 * and 64 (one partial subgroup).  A ballot that is not a valid partition is
 * reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "ops_harness.h"

enum { LANES = 48 };

static void ballot_of(uint32_t first, uint32_t count, const int *member, uint32_t out[4])
{
    memset(out, 0, 16);
    for (uint32_t j = 0; j < count; j++)
        if (member[first + j])
            out[j / 32] |= 1u << (j % 32);
}

static void run_sg(uint32_t sg)
{
    uint32_t key[LANES], part[LANES * 3 * 4], res[LANES * 5];
    float fv[LANES], fres[LANES * 2];
    uint64_t s = sg * 7919u;
    for (uint32_t i = 0; i < LANES; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        key[i] = (uint32_t)(s >> 33) % 4u;
        const float fs[] = {1.5f, -0.0f, 0.0f, NAN, 2.25f, 1.5f};
        fv[i] = fs[(s >> 40) % 6u];
    }
    memset(part, 0xAB, sizeof(part));
    memset(res, 0, sizeof(res));
    memset(fres, 0, sizeof(fres));
    ops_buf bufs[5] = {{0, key, sizeof(key)},
                       {1, fv, sizeof(fv)},
                       {2, part, sizeof(part)},
                       {3, res, sizeof(res)},
                       {4, fres, sizeof(fres)}};
    char msg[1024];
    cvm_result r = ops_run("subgroup_partitioned", sg, 1, 0, bufs, 5, NULL, 0, 1, msg, sizeof(msg));
    if (r != CVM_SUCCESS)
        fail_msg("subgroup %u: %s: %s", sg, cvm_result_string(r), msg);
    int member[LANES];
    for (uint32_t first = 0; first < LANES; first += sg) {
        uint32_t count = LANES - first < sg ? LANES - first : sg;
        for (uint32_t i = first; i < first + count; i++) {
            /* integer partition */
            for (uint32_t j = 0; j < LANES; j++)
                member[j] = j >= first && j < first + count && key[j] == key[i];
            uint32_t want[4];
            ballot_of(first, count, member, want);
            if (memcmp(&part[(3 * i + 0) * 4], want, 16))
                fail_msg("sg %u lane %u: integer partition %08x %08x, expected %08x %08x", sg, i,
                         part[(3 * i) * 4], part[(3 * i) * 4 + 1], want[0], want[1]);
            uint32_t sum = 0, mx = 0, ex = 0, x = 0, mn = UINT32_MAX;
            int have_mx = 0;
            for (uint32_t j = first; j < first + count; j++) {
                if (!member[j])
                    continue;
                sum += key[j] * 3u + 1u;
                x ^= j * 7u;
                if (j <= i) {
                    if (!have_mx || (key[j] ^ j) > mx)
                        mx = key[j] ^ j;
                    have_mx = 1;
                    if (j * 5u % 11u < mn)
                        mn = j * 5u % 11u;
                }
                if (j < i)
                    ex += j;
            }
            const uint32_t w5[5] = {sum, mx, ex, x, mn};
            for (int k = 0; k < 5; k++)
                if (res[5 * i + k] != w5[k])
                    fail_msg("sg %u lane %u result %d: %u, expected %u", sg, i, k, res[5 * i + k],
                             w5[k]);
            /* float partition: numeric equality, a NaN alone */
            for (uint32_t j = 0; j < LANES; j++)
                member[j] = j >= first && j < first + count && (j == i || fv[j] == fv[i]);
            ballot_of(first, count, member, want);
            if (memcmp(&part[(3 * i + 1) * 4], want, 16))
                fail_msg("sg %u lane %u (%g): float partition %08x %08x, expected %08x %08x", sg,
                         i, (double)fv[i], part[(3 * i + 1) * 4], part[(3 * i + 1) * 4 + 1],
                         want[0], want[1]);
            float fsum = 0.0f, prod = 1.0f;
            int have = 0;
            for (uint32_t j = first; j < first + count; j++) {
                if (!member[j])
                    continue;
                fsum = have ? fsum + fv[j] * 2.0f : fv[j] * 2.0f;
                have = 1;
                if (j < i)
                    prod *= (float)(j % 3u) + 1.0f;
            }
            if (!(fres[2 * i] == fsum || (isnan(fres[2 * i]) && isnan(fsum))) ||
                signbit(fres[2 * i]) != signbit(fsum))
                fail_msg("sg %u lane %u: float sum %g, expected %g", sg, i, (double)fres[2 * i],
                         (double)fsum);
            if (fres[2 * i + 1] != prod)
                fail_msg("sg %u lane %u: exclusive product %g, expected %g", sg, i,
                         (double)fres[2 * i + 1], (double)prod);
            /* the partition of the active invocations only */
            for (uint32_t j = 0; j < LANES; j++)
                member[j] = j >= first && j < first + count && j % 5u != 2u && key[j] == key[i];
            if (i % 5u == 2u) {
                const uint32_t all[4] = {~0u, ~0u, ~0u, ~0u};
                memcpy(want, all, 16);
            } else {
                ballot_of(first, count, member, want);
            }
            if (memcmp(&part[(3 * i + 2) * 4], want, 16))
                fail_msg("sg %u lane %u: partition with inactive lanes %08x %08x, expected %08x "
                         "%08x",
                         sg, i, part[(3 * i + 2) * 4], part[(3 * i + 2) * 4 + 1], want[0], want[1]);
        }
    }
}

static void test_partitions(void **state)
{
    (void)state;
    const uint32_t sizes[] = {8, 16, 32, 64};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
        run_sg(sizes[k]);
}

static void test_invalid_partition(void **state)
{
    (void)state;
    uint32_t res[8];
    ops_buf bufs[1] = {{0, res, sizeof(res)}};
    char msg[1024];
    cvm_result r = ops_run("subgroup_partitioned_bad", 8, 1, 0, bufs, 1, NULL, 0, 1, msg, sizeof(msg));
    assert_int_equal(r, CVM_ERROR_INVALID_ARGUMENT);
    if (!strstr(msg, "not a valid partition") || !strstr(msg, "OpGroupNonUniformIAdd"))
        fail_msg("%s", msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partitions),
        cmocka_unit_test(test_invalid_partition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
