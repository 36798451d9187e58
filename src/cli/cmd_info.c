/* coopvm info: what the engine supports, printed in the shape of the Vulkan
 * queries (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR,
 * ...FlexibleDimensionsPropertiesNV, the cooperative-matrix-2 features and
 * properties, vkGetPhysicalDeviceCooperativeMatrixProperties2EXT, the
 * cooperative-vector features, properties and
 * vkGetPhysicalDeviceCooperativeVectorPropertiesNV combinations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coopvm.h"

static const char *const types[] = {
    "FLOAT16", "BFLOAT16", "FLOAT32", "FLOAT64", "FLOAT_E4M3", "FLOAT_E5M2",
    "SINT8", "SINT16", "SINT32", "SINT64", "UINT8", "UINT16", "UINT32", "UINT64",
};

/* vkGetPhysicalDeviceCooperativeVectorPropertiesNV, one line a combination. */
static void print_coopvec_combinations(void)
{
    uint32_t n = 0;
    if (cvm_get_cooperative_vector_properties(&n, NULL) != CVM_SUCCESS)
        return;
    cvm_coopvec_properties *p = calloc(n ? n : 1, sizeof(*p));
    if (!p || cvm_get_cooperative_vector_properties(&n, p) != CVM_SUCCESS) {
        free(p);
        return;
    }
    printf("\nVkCooperativeVectorPropertiesNV (%u combinations; VK_COMPONENT_TYPE_*; transpose\n"
           "applies to the optimal layouts; integer signedness from the Matrix*SignedComponents\n"
           "operands):\n",
           n);
    printf("  %-14s %-20s %-20s %-18s %-10s %s\n", "inputType", "inputInterpretation",
           "matrixInterpretation", "biasInterpretation", "resultType", "transpose");
    for (uint32_t i = 0; i < n; i++)
        printf("  %-14s %-20s %-20s %-18s %-10s %s\n", cvm_component_type_string(p[i].input_type),
               cvm_component_type_string(p[i].input_interpretation), cvm_component_type_string(p[i].matrix_interpretation),
               cvm_component_type_string(p[i].bias_interpretation), cvm_component_type_string(p[i].result_type),
               p[i].transpose ? "VK_TRUE" : "VK_FALSE");
    free(p);
}

/* VK_EXT_cooperative_matrix_maintenance1: the features, and what
 * vkGetPhysicalDeviceCooperativeMatrixProperties2EXT returns for each
 * VkPhysicalDeviceCooperativeMatrixInfo2EXT (scope, invocations,
 * subgroupSize, flags), with the element mapping the invocations see. */
static void print_maintenance1(const cvm_limits *lim)
{
    static const char *const feats[] = {
        "cooperativeMatrixProperties2", "cooperativeMatrixReductions",
        "cooperativeMatrixConversions", "cooperativeMatrixPerElementOperations",
        "cooperativeMatrixGetCoordinate"};
    printf("\nVkPhysicalDeviceCooperativeMatrixMaintenance1FeaturesEXT:\n");
    for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
        char name[128];
        snprintf(name, sizeof(name), "CooperativeMatrixMaintenance1FeaturesEXT.%s", feats[i]);
        printf("  %-42s %s\n", feats[i], cvm_supports_feature(name) ? "VK_TRUE" : "VK_FALSE");
    }
    printf("\nvkGetPhysicalDeviceCooperativeMatrixProperties2EXT, per\n"
           "VkPhysicalDeviceCooperativeMatrixInfo2EXT (flags 0: every combination below;\n"
           "VK_COOPERATIVE_MATRIX_SATURATING_ACCUMULATION_BIT_EXT: those with integer CType and\n"
           "ResultType):\n");
    printf("  %-24s %-13s %-22s %s\n", "scope", "invocations", "subgroupSize",
           "VkCooperativeMatrixProperties2EXT");
    printf("  %-24s %-13s 0 (varying), %u..%-5u M/N/KGranularity %u, every AType, BType,\n",
           "VK_SCOPE_SUBGROUP_KHR", "(ignored)", lim->min_subgroup_size, lim->max_subgroup_size,
           lim->flexible_dimension_granularity);
    printf("  %-24s %-13s %-22s CType, ResultType of the component types below\n", "", "", "");
    printf("  %-24s 1..%-10u 0 (varying), %u..%-5u the same\n", "VK_SCOPE_WORKGROUP_KHR",
           lim->max_workgroup_invocations, lim->min_subgroup_size, lim->max_subgroup_size);
    printf("  (subgroup sizes are powers of two; a shader created without a required size\n"
           "  runs at the context's subgroup size, 32 by default; M, N, K up to %u)\n",
           lim->max_matrix_dimension);
    printf("  Element mapping (OpCooperativeMatrixLengthKHR, OpCompositeExtract, access chains,\n"
           "  OpCooperativeMatrixGetCoordinateEXT): with n the invocations of the scope instance\n"
           "  (the subgroup, a partial last subgroup's own count, or the workgroup) and\n"
           "  L = ceil(M*N / n), invocation i owns row-major elements i*L .. i*L+L-1; index e\n"
           "  is at (row, column) = ((i*L+e) / N, (i*L+e) %% N), a row of M or more for the\n"
           "  padding past M*N\n");
}

int cvm_cli_info(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: coopvm info\n\nPrints what the engine supports, in the shape of the Vulkan\n"
               "cooperative matrix and vector queries: extensions, features, flexible\n"
               "dimensions (any M, N, K that is a multiple of the granularity up to the\n"
               "maximum), scopes, limits, and every cooperative-vector type combination.\n");
        return 0;
    }
    cvm_limits lim;
    cvm_get_limits(&lim);
    printf("coopvm %d.%d.%d\n\n", CVM_VERSION_MAJOR, CVM_VERSION_MINOR, CVM_VERSION_PATCH);
    static const char *const exts[] = {"VK_KHR_cooperative_matrix", "VK_NV_cooperative_matrix2",
                                       "VK_NV_cooperative_matrix_decode_vector",
                                       "VK_QCOM_cooperative_matrix_conversion",
                                       "VK_NV_cooperative_vector",
                                       "VK_EXT_cooperative_matrix_maintenance1"};
    printf("device extensions:\n");
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
        printf("  %-42s %s\n", exts[i], cvm_supports_extension(exts[i]) ? "supported" : "not yet");
    printf("\nVkPhysicalDeviceCooperativeMatrix2FeaturesNV:\n");
    static const char *const feats[] = {
        "cooperativeMatrixWorkgroupScope", "cooperativeMatrixFlexibleDimensions",
        "cooperativeMatrixReductions", "cooperativeMatrixConversions",
        "cooperativeMatrixPerElementOperations", "cooperativeMatrixTensorAddressing",
        "cooperativeMatrixBlockLoads"};
    for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
        printf("  %-42s VK_TRUE\n", feats[i]);
    print_maintenance1(&lim);
    printf("\nVkPhysicalDeviceCooperativeMatrixConversionFeaturesQCOM:\n");
    printf("  %-42s %s\n", "cooperativeMatrixConversion",
           cvm_supports_feature("CooperativeMatrixConversionFeaturesQCOM.cooperativeMatrixConversion")
               ? "VK_TRUE"
               : "VK_FALSE");
    printf("\nVkPhysicalDeviceCooperativeMatrix2PropertiesNV:\n");
    printf("  cooperativeMatrixWorkgroupScopeMaxWorkgroupSize       %u\n", lim.max_workgroup_invocations);
    printf("  cooperativeMatrixFlexibleDimensionsMaxDimension       %u\n", lim.max_matrix_dimension);
    printf("  cooperativeMatrixWorkgroupScopeReservedSharedMemory   0\n");
    printf("\nVkCooperativeMatrixFlexibleDimensionsPropertiesNV (every combination):\n");
    printf("  MGranularity = NGranularity = KGranularity = %u\n", lim.flexible_dimension_granularity);
    printf("  AType, BType: any of the component types below\n");
    printf("  CType, ResultType: any of the component types below\n");
    printf("  saturatingAccumulation: VK_TRUE and VK_FALSE (integer types)\n");
    printf("  scope: VK_SCOPE_SUBGROUP_KHR, VK_SCOPE_WORKGROUP_KHR\n");
    printf("  workgroupInvocations: 1 .. %u\n", lim.max_workgroup_invocations);
    printf("\ncomponent types:");
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        printf(" VK_COMPONENT_TYPE_%s_KHR", types[i]);
    printf("\n\nsubgroup sizes: %u .. %u (powers of two), default 32\n", lim.min_subgroup_size,
           lim.max_subgroup_size);
    printf("\nVkPhysicalDeviceCooperativeVectorFeaturesNV:\n");
    printf("  %-42s %s\n", "cooperativeVector",
           cvm_supports_feature("CooperativeVectorFeaturesNV.cooperativeVector") ? "VK_TRUE" : "VK_FALSE");
    printf("  %-42s %s\n", "cooperativeVectorTraining",
           cvm_supports_feature("CooperativeVectorFeaturesNV.cooperativeVectorTraining") ? "VK_TRUE"
                                                                                         : "VK_FALSE");
    printf("\nVkPhysicalDeviceCooperativeVectorPropertiesNV:\n");
    printf("  cooperativeVectorSupportedStages                VK_SHADER_STAGE_COMPUTE_BIT\n");
    printf("  cooperativeVectorTrainingFloat16Accumulation    %s\n",
           lim.cooperative_vector_training_float16_accumulation ? "VK_TRUE" : "VK_FALSE");
    printf("  cooperativeVectorTrainingFloat32Accumulation    %s\n",
           lim.cooperative_vector_training_float32_accumulation ? "VK_TRUE" : "VK_FALSE");
    printf("  maxCooperativeVectorComponents                  %u\n",
           lim.max_cooperative_vector_components);
    print_coopvec_combinations();
    printf("callbacks run in batches of %u element lanes\n", lim.callback_batch);
    return 0;
}
