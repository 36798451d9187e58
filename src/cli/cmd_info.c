/* coopvm info: what the engine supports, printed in the shape of the Vulkan
 * queries (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR,
 * ...FlexibleDimensionsPropertiesNV, the cooperative-matrix-2 features and
 * properties). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "coopvm.h"

static const char *const types[] = {
    "FLOAT16", "BFLOAT16", "FLOAT32", "FLOAT64", "FLOAT_E4M3", "FLOAT_E5M2",
    "SINT8", "SINT16", "SINT32", "SINT64", "UINT8", "UINT16", "UINT32", "UINT64",
};

int cvm_cli_info(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: coopvm info\n\nPrints what the engine supports, in the shape of the Vulkan\n"
               "cooperative matrix queries: extensions, features, flexible dimensions\n"
               "(any M, N, K that is a multiple of the granularity up to the maximum),\n"
               "scopes and limits.\n");
        return 0;
    }
    cvm_limits lim;
    cvm_get_limits(&lim);
    printf("coopvm %d.%d.%d\n\n", CVM_VERSION_MAJOR, CVM_VERSION_MINOR, CVM_VERSION_PATCH);
    static const char *const exts[] = {"VK_KHR_cooperative_matrix", "VK_NV_cooperative_matrix2",
                                       "VK_NV_cooperative_matrix_decode_vector",
                                       "VK_QCOM_cooperative_matrix_conversion",
                                       "VK_NV_cooperative_vector"};
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
    printf("callbacks run in batches of %u element lanes\n", lim.callback_batch);
    return 0;
}
