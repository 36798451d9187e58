/* KHR cooperative-matrix loads and stores on their fast path (one range
 * check for the whole matrix, rows copied at once, columns through the
 * blocked transpose: ops/coopmat.c whole_transfer) against the per-line
 * reference (CVM_FLAG_REFERENCE_PATHS): the same module on the same inputs
 * must leave the same buffers bit for bit, with the same status and
 * message, with and without robust access.
 *
 * Each case loads a rows x cols matrix of 1-, 2-, 4- or 8-byte integers
 * from src (layout, stride and element offset drawn at random) and stores
 * it to dst (its own layout, stride and offset).  The draws cover shapes
 * that are and are not multiples of the transpose's blocks, strides below
 * a line (overlapping loads; a store with overlapping lines, where the
 * order of the writes decides), stride 0 loads, and offsets that put some
 * lines, or all, outside the buffer.  Every kind of case is counted, and
 * each must occur. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"

static const char shader_fmt[] =
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability CooperativeMatrixKHR\n"
    "%s"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %%main \"main\" %%src %%dst\n"
    "OpExecutionMode %%main LocalSize %u 1 1\n"
    "OpDecorate %%rta ArrayStride %u\n"
    "OpMemberDecorate %%sb 0 Offset 0\n"
    "OpDecorate %%sb Block\n"
    "OpDecorate %%src DescriptorSet 0\n"
    "OpDecorate %%src Binding 0\n"
    "OpDecorate %%dst DescriptorSet 0\n"
    "OpDecorate %%dst Binding 1\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%el = OpTypeInt %u 0\n"
    "%%rta = OpTypeRuntimeArray %%el\n"
    "%%sb = OpTypeStruct %%rta\n"
    "%%psb = OpTypePointer StorageBuffer %%sb\n"
    "%%pe = OpTypePointer StorageBuffer %%el\n"
    "%%u0 = OpConstant %%uint 0\n"
    "%%rows = OpConstant %%uint %u\n"
    "%%cols = OpConstant %%uint %u\n"
    "%%scope = OpConstant %%uint 3\n"
    "%%use = OpConstant %%uint 2\n"
    "%%lin = OpConstant %%uint %u\n"
    "%%sin = OpConstant %%uint %u\n"
    "%%oin = OpConstant %%uint %u\n"
    "%%lout = OpConstant %%uint %u\n"
    "%%sout = OpConstant %%uint %u\n"
    "%%oout = OpConstant %%uint %u\n"
    "%%mat = OpTypeCooperativeMatrixKHR %%el %%scope %%rows %%cols %%use\n"
    "%%src = OpVariable %%psb StorageBuffer\n"
    "%%dst = OpVariable %%psb StorageBuffer\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%ps = OpAccessChain %%pe %%src %%u0 %%oin\n"
    "%%pd = OpAccessChain %%pe %%dst %%u0 %%oout\n"
    "%%m = OpCooperativeMatrixLoadKHR %%mat %%ps %%lin %%sin\n"
    "OpCooperativeMatrixStoreKHR %%pd %%m %%lout %%sout\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

enum { K_IN, K_OUT_OF_BOUNDS, K_OVERLAP_LOAD, K_OVERLAP_STORE, K_ODD_SHAPE, K_COLUMN, K_ROW,
       K_COUNT };

static void test_fast_vs_reference(void **state)
{
    (void)state;
    static const unsigned sizes[4] = {1, 2, 4, 8};
    static const char *caps[4] = {"OpCapability Int8\nOpCapability StorageBuffer8BitAccess\n",
                                  "OpCapability Int16\nOpCapability StorageBuffer16BitAccess\n", "",
                                  "OpCapability Int64\n"};
    enum { ELEMS = 4096 };
    unsigned counts[K_COUNT] = {0};
    uint64_t seed = 0x9e3779b97f4a7c15u;
    uint8_t *src = malloc(ELEMS * 8), *dst[2] = {malloc(ELEMS * 8), malloc(ELEMS * 8)};
    char *text = malloc(sizeof(shader_fmt) + 512);
    for (unsigned trial = 0; trial < 300; trial++) {
        unsigned ti = (unsigned)(next(&seed) % 4), es = sizes[ti];
        unsigned rows = 1 + (unsigned)(next(&seed) % 24), cols = 1 + (unsigned)(next(&seed) % 24);
        if (next(&seed) % 2) { /* often whole 8 x 8 blocks */
            rows = 8 * (1 + (unsigned)(next(&seed) % 3));
            cols = 8 * (1 + (unsigned)(next(&seed) % 3));
        }
        unsigned lin = (unsigned)(next(&seed) % 2), lout = (unsigned)(next(&seed) % 2);
        unsigned line_in = lin ? rows : cols, line_out = lout ? rows : cols;
        unsigned outer_in = lin ? cols : rows, outer_out = lout ? cols : rows;
        unsigned r = (unsigned)(next(&seed) % 8);
        unsigned sin = r == 0 ? 0 : r == 1 ? line_in / 2 : line_in + (unsigned)(next(&seed) % 9);
        r = (unsigned)(next(&seed) % 8);
        unsigned sout = r == 0 ? 1 + line_out / 2 : line_out + (unsigned)(next(&seed) % 9);
        unsigned limit = ELEMS * 8 / es; /* elements in a buffer */
        unsigned oin = (unsigned)(next(&seed) % (limit / 2)), oout = (unsigned)(next(&seed) % (limit / 2));
        if (next(&seed) % 6 == 0) /* near the end: some lines outside */
            oin = limit - (unsigned)(next(&seed) % (sin * outer_in + line_in + 1));
        if (next(&seed) % 6 == 0)
            oout = limit - (unsigned)(next(&seed) % (sout * outer_out + line_out + 1));
        int robust = (int)(next(&seed) % 2);
        uint64_t need_in = (uint64_t)oin + (uint64_t)sin * (outer_in - 1) + line_in;
        uint64_t need_out = (uint64_t)oout + (uint64_t)sout * (outer_out - 1) + line_out;
        counts[need_in > limit || need_out > limit ? K_OUT_OF_BOUNDS : K_IN]++;
        counts[K_OVERLAP_LOAD] += sin < line_in && outer_in > 1;
        counts[K_OVERLAP_STORE] += sout < line_out && outer_out > 1;
        counts[K_ODD_SHAPE] += rows % 8 != 0 || cols % 8 != 0;
        counts[K_COLUMN] += lin || lout;
        counts[K_ROW] += !lin || !lout;
        snprintf(text, sizeof(shader_fmt) + 512, shader_fmt, caps[ti], 32u, es, es * 8, rows,
                 cols, lin, sin, oin, lout, sout, oout);
        for (size_t i = 0; i < ELEMS * 8; i++)
            src[i] = (uint8_t)next(&seed);
        asm_result res[2];
        for (int f = 0; f < 2; f++) {
            memset(dst[f], 0x5a, ELEMS * 8);
            void *bufs[2] = {src, dst[f]};
            size_t bsizes[2] = {ELEMS * 8, ELEMS * 8};
            asm_params p;
            memset(&p, 0, sizeof(p));
            p.subgroup_size = 32;
            p.threads = 1;
            p.flags = (f ? CVM_FLAG_REFERENCE_PATHS : 0) | (robust ? CVM_FLAG_ROBUST_ACCESS : 0);
            res[f] = asm_run(text, &p, bufs, bsizes, 2);
            if (res[f].create != CVM_SUCCESS)
                fail_msg("trial %u: %s", trial, res[f].message);
        }
        if (res[0].dispatch != res[1].dispatch || strcmp(res[0].message, res[1].message) != 0 ||
            memcmp(dst[0], dst[1], ELEMS * 8) != 0)
            fail_msg("trial %u (%ux%u of %u bytes, layouts %u/%u, strides %u/%u, offsets %u/%u, "
                     "robust %d): fast %d '%s', reference %d '%s', buffers %s",
                     trial, rows, cols, es, lin, lout, sin, sout, oin, oout, robust,
                     res[0].dispatch, res[0].message, res[1].dispatch, res[1].message,
                     memcmp(dst[0], dst[1], ELEMS * 8) ? "differ" : "equal");
    }
    for (int k = 0; k < K_COUNT; k++)
        if (counts[k] < 10)
            fail_msg("case kind %d occurred %u times", k, counts[k]);
    free(text);
    free(src);
    free(dst[0]);
    free(dst[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
