/* The host side of VK_NV_cooperative_vector: the list of supported
 * combinations (vkGetPhysicalDeviceCooperativeVectorPropertiesNV) and the
 * matrix conversion (vkConvertCooperativeVectorMatrixNV), over
 * exec/kernels/coopvec_kernels.h, which also defines the layouts the engine
 * reads. */
#include <string.h>

#include "cvm_common.h"
#include "exec/kernels/coopvec_kernels.h"

const char *cvm_component_type_string(uint32_t component_type)
{
    return cvm_coopvec_component_name(component_type);
}

cvm_result cvm_get_cooperative_vector_properties(uint32_t *io_count,
                                                 cvm_coopvec_properties *o_properties)
{
    if (!io_count)
        return CVM_ERROR_INVALID_ARGUMENT;
    uint32_t total = cvm_coopvec_combinations(NULL, 0);
    if (!o_properties) {
        *io_count = total;
        return CVM_SUCCESS;
    }
    uint32_t n = cvm_coopvec_combinations(o_properties, *io_count);
    (void)n;
    if (*io_count < total)
        return CVM_INCOMPLETE;
    *io_count = total;
    return CVM_SUCCESS;
}

/* A matrix_interpretation of some listed combination (valid usage 10079 and
 * 10080 allow those, and FLOAT32). */
static int listed_matrix_type(uint32_t t)
{
    if (t == CVM_COMPONENT_TYPE_FLOAT32)
        return 1;
    uint32_t n = cvm_coopvec_combinations(NULL, 0);
    cvm_coopvec_properties all[512];
    if (n > 512)
        n = 512;
    cvm_coopvec_combinations(all, n);
    for (uint32_t i = 0; i < n; i++)
        if (all[i].matrix_interpretation == t)
            return 1;
    return 0;
}

static int float_type(uint32_t t)
{
    return t == CVM_COMPONENT_TYPE_FLOAT16 || t == CVM_COMPONENT_TYPE_FLOAT32 ||
           t == CVM_COMPONENT_TYPE_BFLOAT16 || t == CVM_COMPONENT_TYPE_FLOAT_E4M3 ||
           t == CVM_COMPONENT_TYPE_FLOAT_E5M2;
}

static cvm_result check_side(const char *side, uint32_t layout, uint32_t rows, uint32_t cols,
                             size_t stride, uint32_t esize, cvm_diagnostic *o_diag)
{
    if (layout > CVM_COOPVEC_MATRIX_LAYOUT_TRAINING_OPTIMAL)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "%s layout %u is not a layout",
                            side, layout);
    if (layout == CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR || layout == CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR) {
        uint64_t line = (uint64_t)(layout == CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR ? cols : rows) * esize;
        if (stride < line || stride % esize != 0)
            return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                                "%s stride %zu: it must be at least the %llu bytes of a %s and a "
                                "multiple of the %u-byte element (valid usage 10077/10078)",
                                side, stride, (unsigned long long)line,
                                layout == CVM_COOPVEC_MATRIX_LAYOUT_ROW_MAJOR ? "row" : "column",
                                esize);
    }
    return CVM_SUCCESS;
}

cvm_result cvm_convert_cooperative_vector_matrix(const cvm_context *ctx,
                                                 const cvm_coopvec_convert_info *info,
                                                 cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!ctx || !info || !info->dst_size)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL context, info or dst_size");
    uint32_t st = info->src_component_type, dt = info->dst_component_type;
    cvm_scalar_kind sk = cvm_coopvec_component_kind(st), dk = cvm_coopvec_component_kind(dt);
    if (sk == CVM_SK_COUNT || dk == CVM_SK_COUNT || st == CVM_COMPONENT_TYPE_SINT8_PACKED ||
        st == CVM_COMPONENT_TYPE_UINT8_PACKED || dt == CVM_COMPONENT_TYPE_SINT8_PACKED ||
        dt == CVM_COMPONENT_TYPE_UINT8_PACKED || !listed_matrix_type(st) || !listed_matrix_type(dt))
        return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED,
                            "component types %s -> %s: each must be a matrix interpretation of "
                            "`coopvm info` or FLOAT32",
                            cvm_coopvec_component_name(st), cvm_coopvec_component_name(dt));
    if (st != dt && !(float_type(st) && float_type(dt) &&
                      (st == CVM_COMPONENT_TYPE_FLOAT16 || st == CVM_COMPONENT_TYPE_FLOAT32 ||
                       dt == CVM_COMPONENT_TYPE_FLOAT16 || dt == CVM_COMPONENT_TYPE_FLOAT32)))
        return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED,
                            "conversion %s -> %s: different types must be floating-point with "
                            "FLOAT16 or FLOAT32 on one side (valid usage 10081)",
                            cvm_coopvec_component_name(st), cvm_coopvec_component_name(dt));
    if (info->num_rows == 0 || info->num_columns == 0)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "a %u x %u matrix", info->num_rows,
                            info->num_columns);
    uint32_t ses = cvm_sk_size(sk), des = cvm_sk_size(dk);
    CVM_TRY(check_side("destination", info->dst_layout, info->num_rows, info->num_columns,
                       info->dst_stride, des, o_diag));
    if (dk == CVM_SK_E4M3 || dk == CVM_SK_E5M2) {
        if (info->dst_layout <= CVM_COOPVEC_MATRIX_LAYOUT_COLUMN_MAJOR)
            return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                                "an E4M3/E5M2 destination must use an optimal layout (valid usage "
                                "10082)");
    }
    cvm_context_desc desc;
    cvm_context_get_desc(ctx, &desc);
    int scramble = (desc.flags & CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS) != 0;
    cvm_coopvec_layout dl;
    cvm_coopvec_layout_init(&dl, info->dst_layout, info->num_rows, info->num_columns,
                            info->dst_stride, des, scramble);
    /* what the conversion writes (the optimal layouts padded to 64 bytes:
     * cvm_coopvec_conversion_size says why) */
    uint64_t need = cvm_coopvec_conversion_size(&dl);
    if (need > SIZE_MAX || need == UINT64_MAX)
        return cvm_diag_set(o_diag, CVM_ERROR_LIMIT,
                            "the destination (%u x %u, stride %zu) needs more than %zu bytes",
                            info->num_rows, info->num_columns, info->dst_stride, SIZE_MAX);
    if (!info->dst_data) {
        *info->dst_size = (size_t)need; /* the size query */
        return CVM_SUCCESS;
    }
    if (!info->src_data)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "src_data is NULL but dst_data is not (valid usage 10073)");
    CVM_TRY(check_side("source", info->src_layout, info->num_rows, info->num_columns,
                       info->src_stride, ses, o_diag));
    cvm_coopvec_layout sl;
    cvm_coopvec_layout_init(&sl, info->src_layout, info->num_rows, info->num_columns,
                            info->src_stride, ses, scramble);
    /* the source's elements (a source in an optimal layout may come with or
     * without its padding: valid usage 10074 allows "the standard matrix
     * layout" or the size this command reports) */
    uint64_t have = cvm_coopvec_layout_extent(&sl);
    if (info->src_size < have)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "src_size %zu is less than the %llu bytes of the source matrix (valid "
                            "usage 10074)",
                            info->src_size, (unsigned long long)have);
    if (*info->dst_size < need)
        return CVM_INCOMPLETE; /* nothing written */
    /* overlap of [s0, s0 + have) and [d0, d0 + need), without forming an
     * address past either */
    uintptr_t s0 = (uintptr_t)info->src_data, d0 = (uintptr_t)info->dst_data;
    if (s0 >= d0 ? s0 - d0 < need : d0 - s0 < have)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "the source and destination overlap (valid usage 10076)");
    if (cvm_coopvec_convert(&sl, sk, info->src_data, info->src_size, &dl, dk, info->dst_data,
                            *info->dst_size) != 0)
        return cvm_diag_set(o_diag, CVM_ERROR_INTERNAL,
                            "cvm_coopvec_convert refused sizes the checks above accepted");
    *info->dst_size = (size_t)need;
    return CVM_SUCCESS;
}
