/* libFuzzer harness: cvm_convert_cooperative_vector_matrix (the host side of
 * vkConvertCooperativeVectorMatrixNV) on every field the input gives.
 *
 * Input: a 32-byte header, then the source bytes.
 *   0      source component type   (an index into `ctypes`, past it: the byte itself)
 *   1      destination component type
 *   2, 3   source, destination layout (the byte mod 6: 4 and 5 are no layout)
 *   4..5   rows (little-endian, mod 300)        6..7  columns (mod 300)
 *   8..15  source stride (u64)                  16..23 destination stride (u64)
 *   24     destination room: the size query's answer + (byte mod 5) - 2
 *   25     bit 0: a context with CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS;
 *          bit 1: src_data NULL; bit 2: the source one byte shorter than given
 *   26..31 unused
 * The source buffer is the rest of the input, allocated at exactly that
 * size, and the destination at exactly the room above, so a read past
 * src_size or a write past *dst_size is a sanitizer finding.  Beyond the
 * contract of every harness (fuzz_common.h): the size query and a
 * successful conversion report the same size, no larger than the room; a
 * conversion that does not succeed writes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static const uint32_t ctypes[] = {
    CVM_COMPONENT_TYPE_FLOAT16,      CVM_COMPONENT_TYPE_FLOAT32,      CVM_COMPONENT_TYPE_FLOAT64,
    CVM_COMPONENT_TYPE_SINT8,        CVM_COMPONENT_TYPE_SINT16,       CVM_COMPONENT_TYPE_SINT32,
    CVM_COMPONENT_TYPE_SINT64,       CVM_COMPONENT_TYPE_UINT8,        CVM_COMPONENT_TYPE_UINT16,
    CVM_COMPONENT_TYPE_UINT32,       CVM_COMPONENT_TYPE_UINT64,       CVM_COMPONENT_TYPE_BFLOAT16,
    CVM_COMPONENT_TYPE_SINT8_PACKED, CVM_COMPONENT_TYPE_UINT8_PACKED, CVM_COMPONENT_TYPE_FLOAT_E4M3,
    CVM_COMPONENT_TYPE_FLOAT_E5M2,
};

static uint32_t ctype(uint8_t b)
{
    return b < sizeof(ctypes) / sizeof(ctypes[0]) ? ctypes[b] : b;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Contexts live for the process (creating one per input would dominate). */
static cvm_context *context(int scramble)
{
    static cvm_context *ctx[2];
    if (!ctx[scramble]) {
        cvm_context_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.threads = 1;
        desc.flags = scramble ? CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS : 0;
        cvm_diagnostic d;
        if (cvm_context_create(&desc, &ctx[scramble], &d) != CVM_SUCCESS)
            abort();
    }
    return ctx[scramble];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 32)
        return 0;
    cvm_coopvec_convert_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.src_component_type = ctype(data[0]);
    ci.dst_component_type = ctype(data[1]);
    ci.src_layout = data[2] % 6u;
    ci.dst_layout = data[3] % 6u;
    ci.num_rows = (uint32_t)(le(data + 4, 2) % 300u);
    ci.num_columns = (uint32_t)(le(data + 6, 2) % 300u);
    ci.src_stride = (size_t)le(data + 8, 8);
    ci.dst_stride = (size_t)le(data + 16, 8);
    int room_delta = (int)(data[24] % 5u) - 2;
    uint8_t flags = data[25];
    cvm_context *ctx = context(flags & 1);
    cvm_diagnostic d;

    /* the size query */
    size_t query = 0;
    ci.dst_size = &query;
    cvm_result r = cvm_convert_cooperative_vector_matrix(ctx, &ci, &d);
    cvm_fuzz_check(r, &d);
    if (r != CVM_SUCCESS || query > ((size_t)1 << 24))
        return 0;

    /* the conversion, into exactly `room` bytes */
    size_t src_size = size - 32;
    if ((flags & 4) && src_size)
        src_size--;
    uint8_t *src = malloc(src_size ? src_size : 1);
    size_t room = room_delta < 0 && query < (size_t)-room_delta ? 0 : query + (size_t)room_delta;
    uint8_t *dst = malloc(room ? room : 1);
    uint8_t *before = malloc(room ? room : 1);
    if (!src || !dst || !before)
        abort();
    memcpy(src, data + 32, src_size);
    for (size_t i = 0; i < room; i++)
        dst[i] = (uint8_t)(i * 131u + 7u);
    memcpy(before, dst, room);
    size_t got = room;
    ci.src_size = src_size;
    ci.src_data = (flags & 2) ? NULL : src;
    ci.dst_size = &got;
    ci.dst_data = dst;
    r = cvm_convert_cooperative_vector_matrix(ctx, &ci, &d);
    cvm_fuzz_check(r, &d);
    if (r == CVM_SUCCESS) {
        if (got != query || got > room) /* the size query's answer, within the room */
            abort();
    } else {
        if (r == CVM_INCOMPLETE && room >= query)
            abort();
        if (memcmp(dst, before, room) != 0) /* nothing written */
            abort();
    }
    free(before);
    free(dst);
    free(src);
    return 0;
}
