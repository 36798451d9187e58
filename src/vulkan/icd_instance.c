/* The loader-ICD interface, the instance and the physical device: what
 * coopvm supports, in Vulkan's queries.  Every feature and extension comes
 * from the engine's own answers (cvm_supports_extension, cvm_supports_feature,
 * cvm_get_limits, cvm_get_cooperative_vector_properties: what `coopvm info`
 * prints), plus what the ICD itself implements (timeline semaphores,
 * synchronization2, maintenance4, the device fault query). */
#define _DEFAULT_SOURCE /* sysinfo */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "vulkan/icd.h"

typedef struct cvk_proc {
    const char *name;
    PFN_vkVoidFunction fn;
} cvk_proc;

#define F(name) (cvm_supports_feature(name) ? VK_TRUE : VK_FALSE)
#define E(name) (cvm_supports_extension(name) ? VK_TRUE : VK_FALSE)

/* ---- extensions ---------------------------------------------------------------- */

/* Extensions the ICD implements itself (API behaviour, no shader support). */
static const char *const icd_extensions[] = {
    "VK_KHR_timeline_semaphore",  "VK_KHR_synchronization2",      "VK_KHR_maintenance1",
    "VK_KHR_maintenance2",        "VK_KHR_maintenance3",          "VK_KHR_maintenance4",
    "VK_KHR_get_memory_requirements2", "VK_KHR_bind_memory2",     "VK_KHR_dedicated_allocation",
    "VK_KHR_driver_properties",   "VK_KHR_copy_commands2",        "VK_EXT_host_query_reset",
    "VK_EXT_device_fault",        "VK_EXT_pipeline_creation_cache_control",
    "VK_EXT_shader_object", /* compute shaders only: icd_shader.c */
};

/* Extensions coopvm lists whose feature structure the ICD does not fill
 * (the system headers lack its 1.4 core structure). */
static const char *const withheld_extensions[] = {"VK_KHR_shader_expect_assume"};

static int device_extension_supported(const char *name)
{
    for (size_t i = 0; i < sizeof(withheld_extensions) / sizeof(withheld_extensions[0]); i++)
        if (!strcmp(name, withheld_extensions[i]))
            return 0;
    for (size_t i = 0; i < sizeof(icd_extensions) / sizeof(icd_extensions[0]); i++)
        if (!strcmp(name, icd_extensions[i]))
            return 1;
    return cvm_supports_extension(name);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumerateDeviceExtensionProperties(
    VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
    VkExtensionProperties *pProperties)
{
    if (pLayerName)
        return VK_ERROR_LAYER_NOT_PRESENT;
    uint32_t n = 0, version;
    const char *name;
    VkResult r = VK_SUCCESS;
    for (uint32_t i = 0; (name = cvk_extension_name(i, &version)) != NULL; i++) {
        if (!device_extension_supported(name))
            continue;
        if (pProperties) {
            if (n == *pPropertyCount) {
                r = VK_INCOMPLETE;
                break;
            }
            memset(&pProperties[n], 0, sizeof(pProperties[n]));
            strncpy(pProperties[n].extensionName, name, VK_MAX_EXTENSION_NAME_SIZE - 1);
            pProperties[n].specVersion = version;
        }
        n++;
    }
    *pPropertyCount = n;
    return r;
}

static const char *const instance_extensions[] = {
    "VK_KHR_get_physical_device_properties2", "VK_KHR_external_memory_capabilities", "VK_KHR_external_fence_capabilities",
    "VK_KHR_external_semaphore_capabilities",
};
static const uint32_t instance_extension_versions[] = {2, 1, 1, 1};

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumerateInstanceExtensionProperties(
    const char *pLayerName, uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
    if (pLayerName)
        return VK_ERROR_LAYER_NOT_PRESENT;
    uint32_t total = sizeof(instance_extensions) / sizeof(instance_extensions[0]);
    if (!pProperties) {
        *pPropertyCount = total;
        return VK_SUCCESS;
    }
    uint32_t n = *pPropertyCount < total ? *pPropertyCount : total;
    for (uint32_t i = 0; i < n; i++) {
        memset(&pProperties[i], 0, sizeof(pProperties[i]));
        strcpy(pProperties[i].extensionName, instance_extensions[i]);
        pProperties[i].specVersion = instance_extension_versions[i];
    }
    *pPropertyCount = n;
    return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumerateInstanceLayerProperties(
    uint32_t *pPropertyCount, VkLayerProperties *pProperties)
{
    *pPropertyCount = 0;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumerateDeviceLayerProperties(
    VkPhysicalDevice physicalDevice, uint32_t *pPropertyCount, VkLayerProperties *pProperties)
{
    *pPropertyCount = 0;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
    *pApiVersion = CVK_API_VERSION;
    return VK_SUCCESS;
}

/* ---- instance ---------------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                         const VkAllocationCallbacks *pAllocator,
                                                         VkInstance *pInstance)
{
    for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
        int found = 0;
        for (size_t k = 0; k < sizeof(instance_extensions) / sizeof(instance_extensions[0]); k++)
            found |= !strcmp(pCreateInfo->ppEnabledExtensionNames[i], instance_extensions[k]);
        if (!found)
            return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    struct VkInstance_T *inst = calloc(1, sizeof(*inst));
    struct VkPhysicalDevice_T *pd = calloc(1, sizeof(*pd));
    if (!inst || !pd) {
        free(inst);
        free(pd);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    inst->loader.loaderMagic = ICD_LOADER_MAGIC;
    pd->loader.loaderMagic = ICD_LOADER_MAGIC;
    pd->instance = inst;
    inst->physical = pd;
    *pInstance = inst;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyInstance(VkInstance instance,
                                                      const VkAllocationCallbacks *pAllocator)
{
    if (!instance)
        return;
    free(instance->physical);
    free(instance);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumeratePhysicalDevices(
    VkInstance instance, uint32_t *pPhysicalDeviceCount, VkPhysicalDevice *pPhysicalDevices)
{
    if (!pPhysicalDevices) {
        *pPhysicalDeviceCount = 1;
        return VK_SUCCESS;
    }
    if (*pPhysicalDeviceCount < 1)
        return VK_INCOMPLETE;
    pPhysicalDevices[0] = instance->physical;
    *pPhysicalDeviceCount = 1;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumeratePhysicalDeviceGroups(
    VkInstance instance, uint32_t *pCount, VkPhysicalDeviceGroupProperties *pProps)
{
    if (!pProps) {
        *pCount = 1;
        return VK_SUCCESS;
    }
    if (*pCount < 1)
        return VK_INCOMPLETE;
    *pCount = 1;
    pProps[0].physicalDeviceCount = 1;
    memset(pProps[0].physicalDevices, 0, sizeof(pProps[0].physicalDevices));
    pProps[0].physicalDevices[0] = instance->physical;
    pProps[0].subsetAllocation = VK_FALSE;
    return VK_SUCCESS;
}

/* ---- features ---------------------------------------------------------------- */

static void core_features(VkPhysicalDeviceFeatures *f)
{
    memset(f, 0, sizeof(*f));
    f->robustBufferAccess = F("robustBufferAccess");
    f->shaderFloat64 = F("shaderFloat64");
    f->shaderInt64 = F("shaderInt64");
    f->shaderInt16 = F("shaderInt16");
    f->shaderUniformBufferArrayDynamicIndexing = F("shaderUniformBufferArrayDynamicIndexing");
    f->shaderStorageBufferArrayDynamicIndexing = F("shaderStorageBufferArrayDynamicIndexing");
}

#define SET(p, type, member, value) (((type *)(p))->member = (value))

/* Sets every member after sType and pNext of a structure whose members
 * coopvm supports none of, to zero (VK_FALSE); the size comes from its sType. */
static void zero_members(VkBaseOutStructure *s)
{
    size_t size = 0;
    switch ((int)s->sType) {
#define Z(type, stype)                                                                             \
    case stype:                                                                                    \
        size = sizeof(type);                                                                       \
        break;
        Z(VkPhysicalDeviceDepthStencilResolveProperties,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES)
        Z(VkPhysicalDeviceInlineUniformBlockProperties,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES)
        Z(VkPhysicalDeviceMultiviewProperties, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES)
        Z(VkPhysicalDeviceProtectedMemoryProperties,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES)
        Z(VkPhysicalDeviceSamplerFilterMinmaxProperties,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES)
        Z(VkPhysicalDeviceTexelBufferAlignmentProperties,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES)
        Z(VkPhysicalDeviceDynamicRenderingFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES)
        Z(VkPhysicalDeviceImageRobustnessFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES)
        Z(VkPhysicalDeviceImagelessFramebufferFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES)
        Z(VkPhysicalDeviceInlineUniformBlockFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES)
        Z(VkPhysicalDeviceMultiviewFeatures, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES)
        Z(VkPhysicalDevicePrivateDataFeatures, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES)
        Z(VkPhysicalDeviceProtectedMemoryFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES)
        Z(VkPhysicalDeviceSamplerYcbcrConversionFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES)
        Z(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES)
        Z(VkPhysicalDeviceShaderAtomicInt64Features,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES)
        Z(VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES)
        Z(VkPhysicalDeviceShaderDrawParametersFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES)
        Z(VkPhysicalDeviceShaderTerminateInvocationFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES)
        Z(VkPhysicalDeviceTextureCompressionASTCHDRFeatures,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES)
#undef Z
    default:
        return;
    }
    memset((uint8_t *)s + sizeof(VkBaseOutStructure), 0, size - sizeof(VkBaseOutStructure));
}

/* Fills every structure of the chain that the ICD knows; others are left. */
void cvk_fill_features(VkBaseOutStructure *s)
{
    const VkBool32 sb16 = F("Storage16BitFeatures.storageBuffer16BitAccess");
    const VkBool32 ub16 = F("Storage16BitFeatures.uniformAndStorageBuffer16BitAccess");
    const VkBool32 pc16 = F("Storage16BitFeatures.storagePushConstant16");
    const VkBool32 sb8 = F("Storage8BitFeatures.storageBuffer8BitAccess");
    const VkBool32 ub8 = F("Storage8BitFeatures.uniformAndStorageBuffer8BitAccess");
    const VkBool32 pc8 = F("Storage8BitFeatures.storagePushConstant8");
    const VkBool32 vp = F("VariablePointerFeatures.variablePointers");
    const VkBool32 vpsb = F("VariablePointerFeatures.variablePointersStorageBuffer");
    const VkBool32 f16 = F("Float16Int8Features.shaderFloat16");
    const VkBool32 i8 = F("Float16Int8Features.shaderInt8");
    const VkBool32 vmm = F("VulkanMemoryModelFeatures.vulkanMemoryModel");
    const VkBool32 vmmd = F("VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope");
    const VkBool32 bda = F("BufferDeviceAddressFeatures.bufferDeviceAddress");
    const VkBool32 sgsc = F("SubgroupSizeControl.subgroupSizeControl");
    const VkBool32 cfs = F("SubgroupSizeControl.computeFullSubgroups");
    const VkBool32 zi = F("ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory");
    const VkBool32 idx = E("VK_EXT_descriptor_indexing");
    const VkBool32 scalar = E("VK_EXT_scalar_block_layout");
    const VkBool32 ubsl = E("VK_KHR_uniform_buffer_standard_layout");
    const VkBool32 ext_types = E("VK_KHR_shader_subgroup_extended_types");
    const VkBool32 dot = E("VK_KHR_shader_integer_dot_product");
    for (; s; s = s->pNext) {
        switch ((int)s->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
            core_features(&((VkPhysicalDeviceFeatures2 *)s)->features);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
            VkPhysicalDeviceVulkan11Features *f = (VkPhysicalDeviceVulkan11Features *)s;
            f->storageBuffer16BitAccess = sb16;
            f->uniformAndStorageBuffer16BitAccess = ub16;
            f->storagePushConstant16 = pc16;
            f->storageInputOutput16 = VK_FALSE;
            f->multiview = f->multiviewGeometryShader = f->multiviewTessellationShader = VK_FALSE;
            f->variablePointersStorageBuffer = vpsb;
            f->variablePointers = vp;
            f->protectedMemory = VK_FALSE;
            f->samplerYcbcrConversion = VK_FALSE;
            f->shaderDrawParameters = VK_FALSE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
            VkPhysicalDeviceVulkan12Features *f = (VkPhysicalDeviceVulkan12Features *)s;
            void *next = f->pNext;
            memset(f, 0, sizeof(*f));
            f->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
            f->pNext = next;
            f->storageBuffer8BitAccess = sb8;
            f->uniformAndStorageBuffer8BitAccess = ub8;
            f->storagePushConstant8 = pc8;
            f->shaderFloat16 = f16;
            f->shaderInt8 = i8;
            f->shaderUniformBufferArrayNonUniformIndexing = idx;
            f->shaderStorageBufferArrayNonUniformIndexing = idx;
            f->descriptorBindingUniformBufferUpdateAfterBind = idx;
            f->descriptorBindingStorageBufferUpdateAfterBind = idx;
            f->descriptorBindingUpdateUnusedWhilePending = idx;
            f->descriptorBindingPartiallyBound = idx;
            f->descriptorBindingVariableDescriptorCount = idx;
            f->runtimeDescriptorArray = idx;
            f->scalarBlockLayout = scalar;
            f->uniformBufferStandardLayout = ubsl;
            f->shaderSubgroupExtendedTypes = ext_types;
            f->hostQueryReset = VK_TRUE;
            f->timelineSemaphore = VK_TRUE;
            f->bufferDeviceAddress = bda;
            f->vulkanMemoryModel = vmm;
            f->vulkanMemoryModelDeviceScope = vmmd;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
            VkPhysicalDeviceVulkan13Features *f = (VkPhysicalDeviceVulkan13Features *)s;
            void *next = f->pNext;
            memset(f, 0, sizeof(*f));
            f->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
            f->pNext = next;
            f->pipelineCreationCacheControl = VK_TRUE;
            f->subgroupSizeControl = sgsc;
            f->computeFullSubgroups = cfs;
            f->synchronization2 = VK_TRUE;
            f->shaderZeroInitializeWorkgroupMemory = zi;
            f->shaderIntegerDotProduct = dot;
            f->maintenance4 = VK_TRUE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES:
            zero_members(s);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
            SET(s, VkPhysicalDevice16BitStorageFeatures, storageBuffer16BitAccess, sb16);
            SET(s, VkPhysicalDevice16BitStorageFeatures, uniformAndStorageBuffer16BitAccess, ub16);
            SET(s, VkPhysicalDevice16BitStorageFeatures, storagePushConstant16, pc16);
            SET(s, VkPhysicalDevice16BitStorageFeatures, storageInputOutput16, VK_FALSE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES:
            SET(s, VkPhysicalDevice8BitStorageFeatures, storageBuffer8BitAccess, sb8);
            SET(s, VkPhysicalDevice8BitStorageFeatures, uniformAndStorageBuffer8BitAccess, ub8);
            SET(s, VkPhysicalDevice8BitStorageFeatures, storagePushConstant8, pc8);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES:
            SET(s, VkPhysicalDeviceShaderFloat16Int8Features, shaderFloat16, f16);
            SET(s, VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8, i8);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES:
            SET(s, VkPhysicalDeviceVariablePointersFeatures, variablePointersStorageBuffer, vpsb);
            SET(s, VkPhysicalDeviceVariablePointersFeatures, variablePointers, vp);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES:
            SET(s, VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModel, vmm);
            SET(s, VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModelDeviceScope, vmmd);
            SET(s, VkPhysicalDeviceVulkanMemoryModelFeatures,
                vulkanMemoryModelAvailabilityVisibilityChains, VK_FALSE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
            SET(s, VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddress, bda);
            SET(s, VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddressCaptureReplay,
                VK_FALSE);
            SET(s, VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddressMultiDevice,
                VK_FALSE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
            SET(s, VkPhysicalDeviceTimelineSemaphoreFeatures, timelineSemaphore, VK_TRUE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
            SET(s, VkPhysicalDeviceSynchronization2Features, synchronization2, VK_TRUE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
            SET(s, VkPhysicalDeviceMaintenance4Features, maintenance4, VK_TRUE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
            SET(s, VkPhysicalDeviceHostQueryResetFeatures, hostQueryReset, VK_TRUE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES:
            SET(s, VkPhysicalDevicePipelineCreationCacheControlFeatures,
                pipelineCreationCacheControl, VK_TRUE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES:
            SET(s, VkPhysicalDeviceSubgroupSizeControlFeatures, subgroupSizeControl, sgsc);
            SET(s, VkPhysicalDeviceSubgroupSizeControlFeatures, computeFullSubgroups, cfs);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES:
            SET(s, VkPhysicalDeviceShaderIntegerDotProductFeatures, shaderIntegerDotProduct, dot);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
            SET(s, VkPhysicalDeviceScalarBlockLayoutFeatures, scalarBlockLayout, scalar);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
            SET(s, VkPhysicalDeviceUniformBufferStandardLayoutFeatures, uniformBufferStandardLayout,
                ubsl);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
            SET(s, VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures, shaderSubgroupExtendedTypes,
                ext_types);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES:
            SET(s, VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures,
                shaderZeroInitializeWorkgroupMemory, zi);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES: {
            VkPhysicalDeviceDescriptorIndexingFeatures *f =
                (VkPhysicalDeviceDescriptorIndexingFeatures *)s;
            void *next = f->pNext;
            memset(f, 0, sizeof(*f));
            f->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES;
            f->pNext = next;
            f->shaderUniformBufferArrayNonUniformIndexing = idx;
            f->shaderStorageBufferArrayNonUniformIndexing = idx;
            f->descriptorBindingUniformBufferUpdateAfterBind = idx;
            f->descriptorBindingStorageBufferUpdateAfterBind = idx;
            f->descriptorBindingUpdateUnusedWhilePending = idx;
            f->descriptorBindingPartiallyBound = idx;
            f->descriptorBindingVariableDescriptorCount = idx;
            f->runtimeDescriptorArray = idx;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR: {
            VkBool32 on = E("VK_KHR_workgroup_memory_explicit_layout");
            VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *f =
                (VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *)s;
            f->workgroupMemoryExplicitLayout = on;
            f->workgroupMemoryExplicitLayoutScalarBlockLayout = on && scalar;
            f->workgroupMemoryExplicitLayout8BitAccess = on && sb8;
            f->workgroupMemoryExplicitLayout16BitAccess = on && sb16;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR:
            SET(s, VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR,
                shaderSubgroupUniformControlFlow,
                E("VK_KHR_shader_subgroup_uniform_control_flow"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT:
            SET(s, VkPhysicalDeviceFaultFeaturesEXT, deviceFault, VK_TRUE);
            SET(s, VkPhysicalDeviceFaultFeaturesEXT, deviceFaultVendorBinary, VK_FALSE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV:
            SET(s, VkPhysicalDeviceCooperativeMatrixFeaturesNV, cooperativeMatrix,
                F("CooperativeMatrixFeaturesNV.cooperativeMatrix"));
            SET(s, VkPhysicalDeviceCooperativeMatrixFeaturesNV, cooperativeMatrixRobustBufferAccess,
                F("CooperativeMatrixFeaturesNV.cooperativeMatrix"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR:
            /* robust buffer access applies to every load and store alike */
            SET(s, VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrix,
                F("CooperativeMatrixFeaturesKHR.cooperativeMatrix"));
            SET(s, VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrixRobustBufferAccess,
                F("CooperativeMatrixFeaturesKHR.cooperativeMatrix") && F("robustBufferAccess"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV: {
            /* coopvm info: all seven features with the extension */
            VkBool32 on = E("VK_NV_cooperative_matrix2");
            VkPhysicalDeviceCooperativeMatrix2FeaturesNV *f =
                (VkPhysicalDeviceCooperativeMatrix2FeaturesNV *)s;
            f->cooperativeMatrixWorkgroupScope = on;
            f->cooperativeMatrixFlexibleDimensions = on;
            f->cooperativeMatrixReductions = on;
            f->cooperativeMatrixConversions = on;
            f->cooperativeMatrixPerElementOperations = on;
            f->cooperativeMatrixTensorAddressing = on;
            f->cooperativeMatrixBlockLoads = on;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_DECODE_VECTOR_FEATURES_NV:
            SET(s, VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV,
                cooperativeMatrixDecodeVector, E("VK_NV_cooperative_matrix_decode_vector"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_CONVERSION_FEATURES_QCOM:
            SET(s, VkPhysicalDeviceCooperativeMatrixConversionFeaturesQCOM,
                cooperativeMatrixConversion,
                F("CooperativeMatrixConversionFeaturesQCOM.cooperativeMatrixConversion"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_MAINTENANCE_1_FEATURES_EXT: {
            VkPhysicalDeviceCooperativeMatrixMaintenance1FeaturesEXT *f =
                (VkPhysicalDeviceCooperativeMatrixMaintenance1FeaturesEXT *)s;
            f->cooperativeMatrixProperties2 =
                F("CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixProperties2");
            f->cooperativeMatrixReductions =
                F("CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixReductions");
            f->cooperativeMatrixConversions =
                F("CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixConversions");
            f->cooperativeMatrixPerElementOperations =
                F("CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixPerElementOperations");
            f->cooperativeMatrixGetCoordinate =
                F("CooperativeMatrixMaintenance1FeaturesEXT.cooperativeMatrixGetCoordinate");
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_FEATURES_NV:
            SET(s, VkPhysicalDeviceCooperativeVectorFeaturesNV, cooperativeVector,
                F("CooperativeVectorFeaturesNV.cooperativeVector"));
            SET(s, VkPhysicalDeviceCooperativeVectorFeaturesNV, cooperativeVectorTraining,
                F("CooperativeVectorFeaturesNV.cooperativeVectorTraining"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR: {
            /* the bfloat16 type, its cooperative matrices (coopvm info lists
             * BFLOAT16 among the component types) and OpDot on it */
            VkBool32 on = E("VK_KHR_shader_bfloat16");
            SET(s, VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16Type, on);
            SET(s, VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16DotProduct, on);
            SET(s, VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16CooperativeMatrix, on);
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT8_FEATURES_EXT: {
            VkBool32 on = E("VK_EXT_shader_float8");
            SET(s, VkPhysicalDeviceShaderFloat8FeaturesEXT, shaderFloat8, on);
            SET(s, VkPhysicalDeviceShaderFloat8FeaturesEXT, shaderFloat8CooperativeMatrix, on);
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OCP_MICROSCALING_TYPES_FEATURES_EXT:
            SET(s, VkPhysicalDeviceShaderOCPMicroscalingTypesFeaturesEXT, shaderFloat4,
                F("ShaderOCPMicroscalingTypesFeaturesEXT.shaderFloat4"));
            SET(s, VkPhysicalDeviceShaderOCPMicroscalingTypesFeaturesEXT, shaderFloat6,
                F("ShaderOCPMicroscalingTypesFeaturesEXT.shaderFloat6"));
            SET(s, VkPhysicalDeviceShaderOCPMicroscalingTypesFeaturesEXT, shaderFloat8UnsignedE8M0,
                F("ShaderOCPMicroscalingTypesFeaturesEXT.shaderFloat8UnsignedE8M0"));
            SET(s, VkPhysicalDeviceShaderOCPMicroscalingTypesFeaturesEXT, shaderMXInt8,
                F("ShaderOCPMicroscalingTypesFeaturesEXT.shaderMXInt8"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_64_BIT_INDEXING_FEATURES_EXT:
            SET(s, VkPhysicalDeviceShader64BitIndexingFeaturesEXT, shader64BitIndexing,
                F("Shader64BitIndexingFeaturesEXT.shader64BitIndexing"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_FEATURES_EXT:
            SET(s, VkPhysicalDeviceShaderLongVectorFeaturesEXT, longVector,
                F("ShaderLongVectorFeaturesEXT.longVector"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_PARTITIONED_FEATURES_EXT:
            SET(s, VkPhysicalDeviceShaderSubgroupPartitionedFeaturesEXT, shaderSubgroupPartitioned,
                E("VK_EXT_shader_subgroup_partitioned"));
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT:
            SET(s, VkPhysicalDeviceShaderObjectFeaturesEXT, shaderObject, VK_TRUE);
            break;
        default:
            break;
        }
    }
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceFeatures(VkPhysicalDevice pd,
                                                                VkPhysicalDeviceFeatures *pFeatures)
{
    core_features(pFeatures);
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd,
                                                                 VkPhysicalDeviceFeatures2 *pFeatures)
{
    cvk_fill_features((VkBaseOutStructure *)pFeatures);
}

/* ---- properties ---------------------------------------------------------------- */

static void uuid(uint8_t o[VK_UUID_SIZE], uint8_t kind)
{
    static const char id[] = "coopvm-cpu-0.1";
    memset(o, 0, VK_UUID_SIZE);
    memcpy(o, id, sizeof(id) - 1);
    o[VK_UUID_SIZE - 1] = kind;
}

static VkSubgroupFeatureFlags subgroup_operations(void)
{
    static const struct {
        const char *name;
        VkSubgroupFeatureFlags bit;
    } ops[] = {
        {"SubgroupSupportedOperations.basic", VK_SUBGROUP_FEATURE_BASIC_BIT},
        {"SubgroupSupportedOperations.vote", VK_SUBGROUP_FEATURE_VOTE_BIT},
        {"SubgroupSupportedOperations.arithmetic", VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
        {"SubgroupSupportedOperations.ballot", VK_SUBGROUP_FEATURE_BALLOT_BIT},
        {"SubgroupSupportedOperations.shuffle", VK_SUBGROUP_FEATURE_SHUFFLE_BIT},
        {"SubgroupSupportedOperations.shuffleRelative", VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},
        {"SubgroupSupportedOperations.clustered", VK_SUBGROUP_FEATURE_CLUSTERED_BIT},
        {"SubgroupSupportedOperations.quad", VK_SUBGROUP_FEATURE_QUAD_BIT},
    };
    VkSubgroupFeatureFlags f = 0;
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (cvm_supports_feature(ops[i].name))
            f |= ops[i].bit;
    if (cvm_supports_extension("VK_NV_shader_subgroup_partitioned"))
        f |= VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV;
    return f;
}

static void core_properties(VkPhysicalDeviceProperties *p)
{
    cvm_limits lim;
    cvm_get_limits(&lim);
    memset(p, 0, sizeof(*p));
    p->apiVersion = CVK_API_VERSION;
    p->driverVersion = VK_MAKE_VERSION(CVM_VERSION_MAJOR, CVM_VERSION_MINOR, CVM_VERSION_PATCH);
    p->vendorID = 0;
    p->deviceID = 0;
    p->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
    strcpy(p->deviceName, "coopvm (CPU)");
    uuid(p->pipelineCacheUUID, 'P');
    VkPhysicalDeviceLimits *l = &p->limits;
    l->maxImageDimension1D = 0;
    l->maxUniformBufferRange = UINT32_MAX;
    l->maxStorageBufferRange = UINT32_MAX;
    l->maxPushConstantsSize = CVK_MAX_PUSH_CONSTANTS;
    l->maxMemoryAllocationCount = UINT32_MAX;
    l->maxSamplerAllocationCount = 0;
    l->bufferImageGranularity = 1;
    l->maxBoundDescriptorSets = CVK_MAX_SETS;
    l->maxPerStageDescriptorUniformBuffers = 1u << 20;
    l->maxPerStageDescriptorStorageBuffers = 1u << 20;
    l->maxPerStageResources = 1u << 20;
    l->maxDescriptorSetUniformBuffers = 1u << 20;
    l->maxDescriptorSetUniformBuffersDynamic = 1u << 16;
    l->maxDescriptorSetStorageBuffers = 1u << 20;
    l->maxDescriptorSetStorageBuffersDynamic = 1u << 16;
    /* coopvm's device description holds the limit (cvm_config.h says why
     * 256 KiB). */
    {
        cvm_device_description dd;
        cvm_get_device_description(&dd);
        l->maxComputeSharedMemorySize = dd.max_compute_shared_memory_size;
    }
    l->maxComputeWorkGroupCount[0] = UINT32_MAX;
    l->maxComputeWorkGroupCount[1] = 65535;
    l->maxComputeWorkGroupCount[2] = 65535;
    l->maxComputeWorkGroupInvocations = lim.max_workgroup_invocations;
    l->maxComputeWorkGroupSize[0] = lim.max_workgroup_invocations;
    l->maxComputeWorkGroupSize[1] = lim.max_workgroup_invocations;
    l->maxComputeWorkGroupSize[2] = 64;
    l->subPixelPrecisionBits = 0;
    l->maxDrawIndexedIndexValue = 0;
    l->maxDrawIndirectCount = 1; /* vkCmdDispatchIndirect */
    l->minMemoryMapAlignment = 64;
    l->minTexelBufferOffsetAlignment = 16;
    l->minUniformBufferOffsetAlignment = 16;
    l->minStorageBufferOffsetAlignment = 16;
    l->timestampComputeAndGraphics = VK_TRUE;
    l->timestampPeriod = 1.0f; /* nanoseconds of CLOCK_MONOTONIC */
    l->discreteQueuePriorities = 2;
    l->optimalBufferCopyOffsetAlignment = 1;
    l->optimalBufferCopyRowPitchAlignment = 1;
    l->nonCoherentAtomSize = 1;
    l->maxSamplerAnisotropy = 1.0f;
    l->maxViewports = 1;
}

/* The cooperative-matrix lists come from coopvm's device description
 * (cvm_get_device_description, src/api/device_desc.c), the one table the
 * driver and the validator's device rules share. */
static void copy_khr(VkCooperativeMatrixPropertiesKHR *p, const cvm_coopmat_properties *c)
{
    p->MSize = c->m_size;
    p->NSize = c->n_size;
    p->KSize = c->k_size;
    p->AType = (VkComponentTypeKHR)c->a_type;
    p->BType = (VkComponentTypeKHR)c->b_type;
    p->CType = (VkComponentTypeKHR)c->c_type;
    p->ResultType = (VkComponentTypeKHR)c->result_type;
    p->saturatingAccumulation = c->saturating_accumulation ? VK_TRUE : VK_FALSE;
    p->scope = (VkScopeKHR)c->scope;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceCooperativeMatrixPropertiesKHR(
    VkPhysicalDevice pd, uint32_t *pCount, VkCooperativeMatrixPropertiesKHR *pProps)
{
    cvm_device_description dd;
    cvm_get_device_description(&dd);
    uint32_t total = dd.coopmat_property_count;
    if (!pProps) {
        *pCount = total;
        return VK_SUCCESS;
    }
    uint32_t n = *pCount < total ? *pCount : total;
    for (uint32_t i = 0; i < n; i++)
        copy_khr(&pProps[i], &dd.coopmat_properties[i]);
    *pCount = n;
    return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

/* VK_NV_cooperative_matrix: the description's NV list (the KHR list without
 * bfloat16, float8 and saturation; device_desc.c says why). */
static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceCooperativeMatrixPropertiesNV(
    VkPhysicalDevice pd, uint32_t *pCount, VkCooperativeMatrixPropertiesNV *pProps)
{
    cvm_device_description dd;
    cvm_get_device_description(&dd);
    uint32_t total = dd.coopmat_nv_property_count;
    if (!pProps) {
        *pCount = total;
        return VK_SUCCESS;
    }
    for (uint32_t i = 0; i < total; i++) {
        if (i == *pCount)
            return VK_INCOMPLETE; /* *pCount, as given, is the number written */
        const cvm_coopmat_properties *c = &dd.coopmat_nv_properties[i];
        VkCooperativeMatrixPropertiesNV *p = &pProps[i];
        p->MSize = c->m_size;
        p->NSize = c->n_size;
        p->KSize = c->k_size;
        p->AType = (VkComponentTypeNV)c->a_type;
        p->BType = (VkComponentTypeNV)c->b_type;
        p->CType = (VkComponentTypeNV)c->c_type;
        p->DType = (VkComponentTypeNV)c->result_type;
        p->scope = (VkScopeNV)c->scope;
    }
    *pCount = total;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(
    VkPhysicalDevice pd, uint32_t *pCount, VkCooperativeMatrixFlexibleDimensionsPropertiesNV *pProps)
{
    cvm_device_description dd;
    cvm_get_device_description(&dd);
    uint32_t total = dd.flexible_property_count;
    if (!pProps) {
        *pCount = total;
        return VK_SUCCESS;
    }
    uint32_t n = *pCount < total ? *pCount : total;
    for (uint32_t i = 0; i < n; i++) {
        const cvm_coopmat_granularity *g = &dd.flexible_properties[i];
        VkCooperativeMatrixFlexibleDimensionsPropertiesNV *p = &pProps[i];
        p->MGranularity = g->m_granularity;
        p->NGranularity = g->n_granularity;
        p->KGranularity = g->k_granularity;
        p->AType = (VkComponentTypeKHR)g->a_type;
        p->BType = (VkComponentTypeKHR)g->b_type;
        p->CType = (VkComponentTypeKHR)g->c_type;
        p->ResultType = (VkComponentTypeKHR)g->result_type;
        p->saturatingAccumulation = g->saturating_accumulation ? VK_TRUE : VK_FALSE;
        p->scope = (VkScopeKHR)g->scope;
        p->workgroupInvocations = g->workgroup_invocations;
    }
    *pCount = n;
    return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

/* The description lists each combination once per scope, for any
 * invocation count and subgroup size (0); a query takes the entries of its
 * scope and saturation. */
static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceCooperativeMatrixProperties2EXT(
    VkPhysicalDevice pd, const VkPhysicalDeviceCooperativeMatrixInfo2EXT *pInfo, uint32_t *pCount,
    VkCooperativeMatrixProperties2EXT *pProps)
{
    cvm_limits lim;
    cvm_get_limits(&lim);
    cvm_device_description dd;
    cvm_get_device_description(&dd);
    int ok = pInfo && (pInfo->scope == VK_SCOPE_SUBGROUP_KHR ||
                       (pInfo->scope == VK_SCOPE_WORKGROUP_KHR && pInfo->invocations >= 1 &&
                        pInfo->invocations <= lim.max_workgroup_invocations));
    if (ok && pInfo->subgroupSize &&
        (pInfo->subgroupSize < lim.min_subgroup_size || pInfo->subgroupSize > lim.max_subgroup_size ||
         (pInfo->subgroupSize & (pInfo->subgroupSize - 1))))
        ok = 0;
    int saturating = pInfo && (pInfo->flags & VK_COOPERATIVE_MATRIX_SATURATING_ACCUMULATION_BIT_EXT);
    uint32_t total = 0;
    for (uint32_t k = 0; ok && k < dd.properties2_count; k++) {
        const cvm_coopmat_granularity *g = &dd.properties2[k];
        if ((g->saturating_accumulation ? 1 : 0) != (saturating ? 1 : 0) ||
            g->scope != (uint32_t)pInfo->scope ||
            (g->workgroup_invocations && g->workgroup_invocations != pInfo->invocations) ||
            (g->subgroup_size && g->subgroup_size != pInfo->subgroupSize))
            continue;
        if (pProps) {
            if (total == *pCount)
                return VK_INCOMPLETE; /* *pCount, as given, is the number written */
            VkCooperativeMatrixProperties2EXT *p = &pProps[total];
            p->MGranularity = g->m_granularity;
            p->NGranularity = g->n_granularity;
            p->KGranularity = g->k_granularity;
            p->AType = (VkComponentTypeKHR)g->a_type;
            p->BType = (VkComponentTypeKHR)g->b_type;
            p->CType = (VkComponentTypeKHR)g->c_type;
            p->ResultType = (VkComponentTypeKHR)g->result_type;
        }
        total++;
    }
    *pCount = total;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceCooperativeVectorPropertiesNV(
    VkPhysicalDevice pd, uint32_t *pCount, VkCooperativeVectorPropertiesNV *pProps)
{
    uint32_t n = 0;
    if (cvm_get_cooperative_vector_properties(&n, NULL) != CVM_SUCCESS)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    if (!pProps) {
        *pCount = n;
        return VK_SUCCESS;
    }
    uint32_t want = *pCount < n ? *pCount : n;
    cvm_coopvec_properties *p = calloc(want ? want : 1, sizeof(*p));
    if (!p)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    cvm_result r = cvm_get_cooperative_vector_properties(&want, p);
    for (uint32_t i = 0; i < want; i++) {
        pProps[i].inputType = (VkComponentTypeKHR)p[i].input_type;
        pProps[i].inputInterpretation = (VkComponentTypeKHR)p[i].input_interpretation;
        pProps[i].matrixInterpretation = (VkComponentTypeKHR)p[i].matrix_interpretation;
        pProps[i].biasInterpretation = (VkComponentTypeKHR)p[i].bias_interpretation;
        pProps[i].resultType = (VkComponentTypeKHR)p[i].result_type;
        pProps[i].transpose = p[i].transpose ? VK_TRUE : VK_FALSE;
    }
    free(p);
    *pCount = want;
    return r == CVM_INCOMPLETE || want < n ? VK_INCOMPLETE : VK_SUCCESS;
}

/* The integer dot product properties (VkPhysicalDeviceShaderIntegerDotProductProperties,
 * also in VkPhysicalDeviceVulkan13Properties): each member is VK_TRUE when
 * the engine says it holds (cvm_supports_property of
 * "ShaderIntegerDotProductProperties.<member>"). */
#define DOT_KINDS(X)                                                                               \
    X(8BitUnsigned)                                                                                \
    X(8BitSigned)                                                                                  \
    X(8BitMixedSignedness)                                                                         \
    X(4x8BitPackedUnsigned)                                                                        \
    X(4x8BitPackedSigned)                                                                          \
    X(4x8BitPackedMixedSignedness)                                                                 \
    X(16BitUnsigned)                                                                               \
    X(16BitSigned)                                                                                 \
    X(16BitMixedSignedness)                                                                        \
    X(32BitUnsigned)                                                                               \
    X(32BitSigned)                                                                                 \
    X(32BitMixedSignedness)                                                                        \
    X(64BitUnsigned)                                                                               \
    X(64BitSigned)                                                                                 \
    X(64BitMixedSignedness)
#define DOT_PROPERTY(member)                                                                       \
    (cvm_supports_property("ShaderIntegerDotProductProperties." member) ? VK_TRUE : VK_FALSE)
#define DOT_SET(kind)                                                                              \
    p->integerDotProduct##kind##Accelerated = DOT_PROPERTY("integerDotProduct" #kind "Accelerated"); \
    p->integerDotProductAccumulatingSaturating##kind##Accelerated =                                \
        DOT_PROPERTY("integerDotProductAccumulatingSaturating" #kind "Accelerated");

/* VkPhysicalDeviceVulkan12Properties; the float-controls and
 * descriptor-indexing structures copy their members from it. */
static void vulkan12_properties(VkPhysicalDeviceVulkan12Properties *p)
{
    void *next = p->pNext;
    memset(p, 0, sizeof(*p));
    p->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
    p->pNext = next;
    p->driverID = (VkDriverId)0;
    strcpy(p->driverName, "coopvm");
    strcpy(p->driverInfo, "coopvm 0.1.0: SPIR-V compute on the CPU");
    p->denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
    p->roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
    p->shaderSignedZeroInfNanPreserveFloat16 =
        cvm_supports_property("FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat16");
    p->shaderSignedZeroInfNanPreserveFloat32 =
        cvm_supports_property("FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat32");
    p->shaderSignedZeroInfNanPreserveFloat64 =
        cvm_supports_property("FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat64");
    p->shaderDenormPreserveFloat16 =
        cvm_supports_property("FloatControlsProperties.shaderDenormPreserveFloat16");
    p->shaderDenormPreserveFloat32 =
        cvm_supports_property("FloatControlsProperties.shaderDenormPreserveFloat32");
    p->shaderDenormPreserveFloat64 =
        cvm_supports_property("FloatControlsProperties.shaderDenormPreserveFloat64");
    p->shaderRoundingModeRTEFloat16 =
        cvm_supports_property("FloatControlsProperties.shaderRoundingModeRTEFloat16");
    p->shaderRoundingModeRTEFloat32 =
        cvm_supports_property("FloatControlsProperties.shaderRoundingModeRTEFloat32");
    p->shaderRoundingModeRTEFloat64 =
        cvm_supports_property("FloatControlsProperties.shaderRoundingModeRTEFloat64");
    p->maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
    p->shaderUniformBufferArrayNonUniformIndexingNative = VK_TRUE;
    p->shaderStorageBufferArrayNonUniformIndexingNative = VK_TRUE;
    p->maxPerStageDescriptorUpdateAfterBindUniformBuffers = 1u << 20;
    p->maxPerStageDescriptorUpdateAfterBindStorageBuffers = 1u << 20;
    p->maxPerStageUpdateAfterBindResources = 1u << 20;
    p->maxDescriptorSetUpdateAfterBindUniformBuffers = 1u << 20;
    p->maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = 1u << 16;
    p->maxDescriptorSetUpdateAfterBindStorageBuffers = 1u << 20;
    p->maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = 1u << 16;
    p->maxTimelineSemaphoreValueDifference = UINT64_MAX;
}

static void fill_properties(VkBaseOutStructure *s)
{
    cvm_limits lim;
    cvm_get_limits(&lim);
    VkSubgroupFeatureFlags sg_ops = subgroup_operations();
    const uint32_t sg = 1u << CVK_DEFAULT_SUBGROUP_LOG2;
    for (; s; s = s->pNext) {
        switch ((int)s->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2:
            core_properties(&((VkPhysicalDeviceProperties2 *)s)->properties);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES: {
            VkPhysicalDeviceVulkan11Properties *p = (VkPhysicalDeviceVulkan11Properties *)s;
            uuid(p->deviceUUID, 'D');
            uuid(p->driverUUID, 'R');
            memset(p->deviceLUID, 0, sizeof(p->deviceLUID));
            p->deviceNodeMask = 0;
            p->deviceLUIDValid = VK_FALSE;
            p->subgroupSize = sg;
            p->subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
            p->subgroupSupportedOperations = sg_ops;
            p->subgroupQuadOperationsInAllStages = VK_FALSE;
            p->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
            p->maxMultiviewViewCount = 0;
            p->maxMultiviewInstanceIndex = 0;
            p->protectedNoFault = VK_FALSE;
            p->maxPerSetDescriptors = 1u << 20;
            p->maxMemoryAllocationSize = CVK_MAX_BUFFER_SIZE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES:
            vulkan12_properties((VkPhysicalDeviceVulkan12Properties *)s);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES: {
            VkPhysicalDeviceVulkan12Properties v;
            memset(&v, 0, sizeof(v));
            vulkan12_properties(&v);
            VkPhysicalDeviceFloatControlsProperties *p = (VkPhysicalDeviceFloatControlsProperties *)s;
            /* the members from denormBehaviorIndependence on, in the same order */
            memcpy(&p->denormBehaviorIndependence, &v.denormBehaviorIndependence,
                   sizeof(*p) - offsetof(VkPhysicalDeviceFloatControlsProperties, denormBehaviorIndependence));
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES: {
            VkPhysicalDeviceVulkan12Properties v;
            memset(&v, 0, sizeof(v));
            vulkan12_properties(&v);
            VkPhysicalDeviceDescriptorIndexingProperties *p =
                (VkPhysicalDeviceDescriptorIndexingProperties *)s;
            memcpy(&p->maxUpdateAfterBindDescriptorsInAllPools, &v.maxUpdateAfterBindDescriptorsInAllPools,
                   sizeof(*p) - offsetof(VkPhysicalDeviceDescriptorIndexingProperties,
                                         maxUpdateAfterBindDescriptorsInAllPools));
            break;
        }
        /* Structures of Vulkan 1.1 to 1.3 that describe graphics, images or
         * what the ICD lacks: every member zero (false) */
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES:
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES:
            zero_members(s);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES: {
            VkPhysicalDeviceShaderIntegerDotProductProperties *p =
                (VkPhysicalDeviceShaderIntegerDotProductProperties *)s;
            DOT_KINDS(DOT_SET)
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES:
            SET(s, VkPhysicalDevicePointClippingProperties, pointClippingBehavior,
                VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES: {
            VkPhysicalDeviceVulkan13Properties *p = (VkPhysicalDeviceVulkan13Properties *)s;
            void *next = p->pNext;
            memset(p, 0, sizeof(*p));
            p->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
            p->pNext = next;
            p->minSubgroupSize = lim.min_subgroup_size;
            p->maxSubgroupSize = lim.max_subgroup_size;
            p->maxComputeWorkgroupSubgroups = lim.max_workgroup_invocations;
            p->requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
            p->storageTexelBufferOffsetAlignmentBytes = 16;
            p->uniformTexelBufferOffsetAlignmentBytes = 16;
            p->maxBufferSize = CVK_MAX_BUFFER_SIZE;
            DOT_KINDS(DOT_SET)
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: {
            VkPhysicalDeviceSubgroupProperties *p = (VkPhysicalDeviceSubgroupProperties *)s;
            p->subgroupSize = sg;
            p->supportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
            p->supportedOperations = sg_ops;
            p->quadOperationsInAllStages = VK_FALSE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES: {
            VkPhysicalDeviceSubgroupSizeControlProperties *p =
                (VkPhysicalDeviceSubgroupSizeControlProperties *)s;
            p->minSubgroupSize = lim.min_subgroup_size;
            p->maxSubgroupSize = lim.max_subgroup_size;
            p->maxComputeWorkgroupSubgroups = lim.max_workgroup_invocations;
            p->requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES: {
            VkPhysicalDeviceDriverProperties *p = (VkPhysicalDeviceDriverProperties *)s;
            p->driverID = (VkDriverId)0;
            memset(p->driverName, 0, sizeof(p->driverName));
            memset(p->driverInfo, 0, sizeof(p->driverInfo));
            strcpy(p->driverName, "coopvm");
            strcpy(p->driverInfo, "coopvm 0.1.0: SPIR-V compute on the CPU");
            memset(&p->conformanceVersion, 0, sizeof(p->conformanceVersion));
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES: {
            VkPhysicalDeviceIDProperties *p = (VkPhysicalDeviceIDProperties *)s;
            uuid(p->deviceUUID, 'D');
            uuid(p->driverUUID, 'R');
            memset(p->deviceLUID, 0, sizeof(p->deviceLUID));
            p->deviceNodeMask = 0;
            p->deviceLUIDValid = VK_FALSE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES:
            SET(s, VkPhysicalDeviceMaintenance3Properties, maxPerSetDescriptors, 1u << 20);
            SET(s, VkPhysicalDeviceMaintenance3Properties, maxMemoryAllocationSize,
                CVK_MAX_BUFFER_SIZE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES:
            SET(s, VkPhysicalDeviceMaintenance4Properties, maxBufferSize, CVK_MAX_BUFFER_SIZE);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES:
            SET(s, VkPhysicalDeviceTimelineSemaphoreProperties, maxTimelineSemaphoreValueDifference,
                UINT64_MAX);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_KHR:
            SET(s, VkPhysicalDeviceCooperativeMatrixPropertiesKHR, cooperativeMatrixSupportedStages,
                VK_SHADER_STAGE_COMPUTE_BIT);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_NV:
            SET(s, VkPhysicalDeviceCooperativeMatrixPropertiesNV, cooperativeMatrixSupportedStages,
                VK_SHADER_STAGE_COMPUTE_BIT);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_PROPERTIES_NV:
            SET(s, VkPhysicalDeviceCooperativeMatrix2PropertiesNV,
                cooperativeMatrixWorkgroupScopeMaxWorkgroupSize, lim.max_workgroup_invocations);
            SET(s, VkPhysicalDeviceCooperativeMatrix2PropertiesNV,
                cooperativeMatrixFlexibleDimensionsMaxDimension, lim.max_matrix_dimension);
            SET(s, VkPhysicalDeviceCooperativeMatrix2PropertiesNV,
                cooperativeMatrixWorkgroupScopeReservedSharedMemory, 0);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_PROPERTIES_EXT: {
            VkPhysicalDeviceShaderObjectPropertiesEXT *p = (VkPhysicalDeviceShaderObjectPropertiesEXT *)s;
            uuid(p->shaderBinaryUUID, 'S');
            p->shaderBinaryVersion = CVK_SHADER_BINARY_VERSION;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_PROPERTIES_EXT:
            SET(s, VkPhysicalDeviceShaderLongVectorPropertiesEXT, maxVectorComponents,
                lim.max_vector_components);
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_PROPERTIES_NV:
            SET(s, VkPhysicalDeviceCooperativeVectorPropertiesNV, cooperativeVectorSupportedStages,
                VK_SHADER_STAGE_COMPUTE_BIT);
            SET(s, VkPhysicalDeviceCooperativeVectorPropertiesNV,
                cooperativeVectorTrainingFloat16Accumulation,
                lim.cooperative_vector_training_float16_accumulation ? VK_TRUE : VK_FALSE);
            SET(s, VkPhysicalDeviceCooperativeVectorPropertiesNV,
                cooperativeVectorTrainingFloat32Accumulation,
                lim.cooperative_vector_training_float32_accumulation ? VK_TRUE : VK_FALSE);
            SET(s, VkPhysicalDeviceCooperativeVectorPropertiesNV, maxCooperativeVectorComponents,
                lim.max_cooperative_vector_components);
            break;
        default:
            break;
        }
    }
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceProperties(VkPhysicalDevice pd,
                                                                  VkPhysicalDeviceProperties *pProperties)
{
    core_properties(pProperties);
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceProperties2(
    VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *pProperties)
{
    fill_properties((VkBaseOutStructure *)pProperties);
}

static const VkQueueFamilyProperties queue_family = {
    VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 1, 64, {1, 1, 1}};

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceQueueFamilyProperties(
    VkPhysicalDevice pd, uint32_t *pCount, VkQueueFamilyProperties *pProps)
{
    if (!pProps) {
        *pCount = 1;
        return;
    }
    if (*pCount >= 1) {
        pProps[0] = queue_family;
        *pCount = 1;
    }
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceQueueFamilyProperties2(
    VkPhysicalDevice pd, uint32_t *pCount, VkQueueFamilyProperties2 *pProps)
{
    if (!pProps) {
        *pCount = 1;
        return;
    }
    if (*pCount >= 1) {
        pProps[0].queueFamilyProperties = queue_family;
        *pCount = 1;
    }
}

static void memory_properties(VkPhysicalDeviceMemoryProperties *p)
{
    memset(p, 0, sizeof(*p));
    struct sysinfo si;
    VkDeviceSize ram = (VkDeviceSize)1 << 32;
    if (sysinfo(&si) == 0)
        ram = (VkDeviceSize)si.totalram * si.mem_unit;
    p->memoryTypeCount = 1;
    p->memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                      VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    p->memoryTypes[0].heapIndex = 0;
    p->memoryHeapCount = 1;
    p->memoryHeaps[0].size = ram / 2;
    p->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties *p)
{
    memory_properties(p);
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceMemoryProperties2(
    VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties2 *p)
{
    memory_properties(&p->memoryProperties);
}

/* No images: every format lacks every feature. */
static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceFormatProperties(
    VkPhysicalDevice pd, VkFormat format, VkFormatProperties *p)
{
    memset(p, 0, sizeof(*p));
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceFormatProperties2(
    VkPhysicalDevice pd, VkFormat format, VkFormatProperties2 *p)
{
    memset(&p->formatProperties, 0, sizeof(p->formatProperties));
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice pd, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties *p)
{
    memset(p, 0, sizeof(*p));
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice pd, const VkPhysicalDeviceImageFormatInfo2 *info, VkImageFormatProperties2 *p)
{
    memset(&p->imageFormatProperties, 0, sizeof(p->imageFormatProperties));
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice pd, VkFormat format, VkImageType type, VkSampleCountFlagBits samples,
    VkImageUsageFlags usage, VkImageTiling tiling, uint32_t *pCount, VkSparseImageFormatProperties *p)
{
    *pCount = 0;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice pd, const VkPhysicalDeviceSparseImageFormatInfo2 *info, uint32_t *pCount,
    VkSparseImageFormatProperties2 *p)
{
    *pCount = 0;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice pd, const VkPhysicalDeviceExternalBufferInfo *info,
    VkExternalBufferProperties *p)
{
    memset(&p->externalMemoryProperties, 0, sizeof(p->externalMemoryProperties));
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice pd, const VkPhysicalDeviceExternalFenceInfo *info, VkExternalFenceProperties *p)
{
    p->exportFromImportedHandleTypes = 0;
    p->compatibleHandleTypes = 0;
    p->externalFenceFeatures = 0;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice pd, const VkPhysicalDeviceExternalSemaphoreInfo *info,
    VkExternalSemaphoreProperties *p)
{
    p->exportFromImportedHandleTypes = 0;
    p->compatibleHandleTypes = 0;
    p->externalSemaphoreFeatures = 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPhysicalDeviceToolProperties(
    VkPhysicalDevice pd, uint32_t *pCount, VkPhysicalDeviceToolProperties *p)
{
    *pCount = 0;
    return VK_SUCCESS;
}

/* ---- the entry points ---------------------------------------------------------- */

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL cvk_GetInstanceProcAddr(VkInstance instance,
                                                                       const char *pName);

#define P(name) {"vk" #name, (PFN_vkVoidFunction)cvk_##name}
static const cvk_proc instance_procs[] = {
    P(CreateInstance),
    P(DestroyInstance),
    P(EnumerateInstanceExtensionProperties),
    P(EnumerateInstanceLayerProperties),
    P(EnumerateInstanceVersion),
    P(GetInstanceProcAddr),
    P(EnumeratePhysicalDevices),
    P(EnumeratePhysicalDeviceGroups),
    P(EnumerateDeviceExtensionProperties),
    P(EnumerateDeviceLayerProperties),
    P(GetPhysicalDeviceFeatures),
    P(GetPhysicalDeviceFeatures2),
    P(GetPhysicalDeviceProperties),
    P(GetPhysicalDeviceProperties2),
    P(GetPhysicalDeviceQueueFamilyProperties),
    P(GetPhysicalDeviceQueueFamilyProperties2),
    P(GetPhysicalDeviceMemoryProperties),
    P(GetPhysicalDeviceMemoryProperties2),
    P(GetPhysicalDeviceFormatProperties),
    P(GetPhysicalDeviceFormatProperties2),
    P(GetPhysicalDeviceImageFormatProperties),
    P(GetPhysicalDeviceImageFormatProperties2),
    P(GetPhysicalDeviceSparseImageFormatProperties),
    P(GetPhysicalDeviceSparseImageFormatProperties2),
    P(GetPhysicalDeviceExternalBufferProperties),
    P(GetPhysicalDeviceExternalFenceProperties),
    P(GetPhysicalDeviceExternalSemaphoreProperties),
    P(GetPhysicalDeviceToolProperties),
    P(GetPhysicalDeviceCooperativeMatrixPropertiesKHR),
    P(GetPhysicalDeviceCooperativeMatrixPropertiesNV),
    P(GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV),
    P(GetPhysicalDeviceCooperativeMatrixProperties2EXT),
    P(GetPhysicalDeviceCooperativeVectorPropertiesNV),
};
#undef P

static PFN_vkVoidFunction find(const cvk_proc *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return t[i].fn;
    return NULL;
}

PFN_vkVoidFunction cvk_device_lookup(const char *name);

/* Entry points by name.  A name with a KHR or EXT suffix that the table
 * lacks is looked up without it: the promoted command behaves the same. */
PFN_vkVoidFunction cvk_lookup(const char *name)
{
    if (!name || strncmp(name, "vk", 2))
        return NULL;
    PFN_vkVoidFunction f =
        find(instance_procs, sizeof(instance_procs) / sizeof(instance_procs[0]), name);
    if (!f)
        f = cvk_device_lookup(name);
    if (f)
        return f;
    size_t len = strlen(name);
    if (len > 3 && len < 128 &&
        (!strcmp(name + len - 3, "KHR") || !strcmp(name + len - 3, "EXT"))) {
        char core[128];
        memcpy(core, name, len - 3);
        core[len - 3] = 0;
        f = find(instance_procs, sizeof(instance_procs) / sizeof(instance_procs[0]), core);
        return f ? f : cvk_device_lookup(core);
    }
    return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL cvk_GetInstanceProcAddr(VkInstance instance,
                                                                       const char *pName)
{
    return cvk_lookup(pName);
}

/* ---- the loader-ICD interface ------------------------------------------------- */

CVK_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pVersion)
{
    /* 5: the loader calls vk_icdGetPhysicalDeviceProcAddr and checks the
     * apiVersion; 6 adds only a Windows entry point. */
    if (*pVersion > 5)
        *pVersion = 5;
    return VK_SUCCESS;
}

CVK_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                              const char *pName)
{
    return cvk_lookup(pName);
}

CVK_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                    const char *pName)
{
    /* Physical-device commands the loader does not know by name (the
     * cooperative-matrix and cooperative-vector queries) */
    if (!pName || strncmp(pName, "vkGetPhysicalDevice", 19))
        return NULL;
    return find(instance_procs, sizeof(instance_procs) / sizeof(instance_procs[0]), pName);
}
