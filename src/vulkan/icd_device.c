/* The device and its objects: queue, memory, buffers with their device
 * addresses, descriptor sets, pipeline layouts, shader modules, compute
 * pipelines, pipeline caches, fences, semaphores, events, query pools, and
 * the device fault query. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_cond_timedwait */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vulkan/icd.h"

typedef struct cvk_proc {
    const char *name;
    PFN_vkVoidFunction fn;
} cvk_proc;

/* Worker threads of a dispatch: COOPVM_THREADS, else every core. */
uint32_t cvk_threads(void)
{
    const char *s = getenv("COOPVM_THREADS");
    if (s && *s) {
        long n = strtol(s, NULL, 10);
        if (n > 0 && n <= 256)
            return (uint32_t)n;
    }
    return 0;
}

/* Marks the device lost with the engine's message: kept for
 * vkGetDeviceFaultInfoEXT and appended to the file COOPVM_VK_LOG names
 * ("stderr" for the standard error). */
void cvk_device_fail(struct VkDevice_T *device, const char *what, const cvm_diagnostic *diag)
{
    char msg[sizeof(device->fault)];
    if (diag && diag->word_offset != UINT32_MAX && diag->result != CVM_SUCCESS)
        snprintf(msg, sizeof(msg), "%s: %s at word %u (opcode %u): %s", what,
                 cvm_result_string(diag->result), diag->word_offset, diag->opcode, diag->message);
    else if (diag)
        snprintf(msg, sizeof(msg), "%s: %s: %s", what, cvm_result_string(diag->result),
                 diag->message);
    else
        snprintf(msg, sizeof(msg), "%s", what);
    if (!device->lost) {
        device->lost = 1;
        memcpy(device->fault, msg, sizeof(msg));
    }
    const char *log = getenv("COOPVM_VK_LOG");
    if (log && *log) {
        FILE *f = !strcmp(log, "stderr") ? stderr : fopen(log, "a");
        if (f) {
            fprintf(f, "coopvm ICD: device lost: %s\n", msg);
            if (f != stderr)
                fclose(f);
        }
    }
}

/* ---- device and queue ---------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EnumerateDeviceExtensionProperties_check(
    VkPhysicalDevice pd, const char *name)
{
    PFN_vkEnumerateDeviceExtensionProperties fn =
        (PFN_vkEnumerateDeviceExtensionProperties)cvk_lookup("vkEnumerateDeviceExtensionProperties");
    uint32_t n = 0;
    fn(pd, NULL, &n, NULL);
    VkExtensionProperties *p = calloc(n ? n : 1, sizeof(*p));
    if (!p)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    fn(pd, NULL, &n, p);
    VkResult r = VK_ERROR_EXTENSION_NOT_PRESENT;
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(p[i].extensionName, name))
            r = VK_SUCCESS;
    free(p);
    return r;
}

static void destroy_device(struct VkDevice_T *d)
{
    cvk_profile_device_done(d);
    for (int i = 0; i < CVK_SUBGROUP_SIZES; i++)
        cvm_context_destroy(d->ctx[i]);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->cond);
    free(d->buffers);
    free(d->queue);
    free(d);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateDevice(VkPhysicalDevice physicalDevice,
                                                       const VkDeviceCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkDevice *pDevice)
{
    for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
        VkResult r = cvk_EnumerateDeviceExtensionProperties_check(
            physicalDevice, pCreateInfo->ppEnabledExtensionNames[i]);
        if (r != VK_SUCCESS)
            return r;
    }
    for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; i++) {
        const VkDeviceQueueCreateInfo *q = &pCreateInfo->pQueueCreateInfos[i];
        if (q->queueFamilyIndex != 0 || q->queueCount != 1)
            return VK_ERROR_INITIALIZATION_FAILED;
    }
    /* Requested features must be ones the device has. */
    {
        VkPhysicalDeviceFeatures have;
        VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, NULL, {0}};
        cvk_fill_features((VkBaseOutStructure *)&f2);
        have = f2.features;
        const VkPhysicalDeviceFeatures *want = pCreateInfo->pEnabledFeatures;
        for (const VkBaseInStructure *s = pCreateInfo->pNext; s && !want; s = s->pNext)
            if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
                want = &((const VkPhysicalDeviceFeatures2 *)s)->features;
        if (want) {
            const VkBool32 *w = (const VkBool32 *)want, *h = (const VkBool32 *)&have;
            for (size_t k = 0; k < sizeof(have) / sizeof(VkBool32); k++)
                if (w[k] && !h[k])
                    return VK_ERROR_FEATURE_NOT_PRESENT;
        }
    }
    int robust = 0;
    if (pCreateInfo->pEnabledFeatures && pCreateInfo->pEnabledFeatures->robustBufferAccess)
        robust = 1;
    for (const VkBaseInStructure *s = pCreateInfo->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 &&
            ((const VkPhysicalDeviceFeatures2 *)s)->features.robustBufferAccess)
            robust = 1;
    struct VkDevice_T *d = calloc(1, sizeof(*d));
    if (!d)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    /* The cooperative features enabled, for the device rules. */
    for (const VkBaseInStructure *s = pCreateInfo->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV) {
            const VkPhysicalDeviceCooperativeMatrix2FeaturesNV *f =
                (const VkPhysicalDeviceCooperativeMatrix2FeaturesNV *)s;
            d->cm_workgroup_scope = f->cooperativeMatrixWorkgroupScope ? 1 : 0;
            d->cm_flexible_dimensions = f->cooperativeMatrixFlexibleDimensions ? 1 : 0;
        } else if (s->sType ==
                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_MAINTENANCE_1_FEATURES_EXT) {
            d->cm_properties2 =
                ((const VkPhysicalDeviceCooperativeMatrixMaintenance1FeaturesEXT *)s)
                        ->cooperativeMatrixProperties2
                    ? 1
                    : 0;
        }
    }
    d->queue = calloc(1, sizeof(*d->queue));
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->cond, NULL);
    d->loader.loaderMagic = ICD_LOADER_MAGIC;
    d->physical = physicalDevice;
    cvk_profile_device_start(d);
    if (!d->queue) {
        destroy_device(d);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    d->queue->loader.loaderMagic = ICD_LOADER_MAGIC;
    d->queue->device = d;
    for (int i = 0; i < CVK_SUBGROUP_SIZES; i++) {
        cvm_context_desc cd;
        memset(&cd, 0, sizeof(cd));
        cd.threads = cvk_threads();
        cd.subgroup_size = 1u << i;
        cd.flags = robust ? CVM_FLAG_ROBUST_ACCESS : 0;
        if (cvm_context_create(&cd, &d->ctx[i], NULL) != CVM_SUCCESS) {
            destroy_device(d);
            return VK_ERROR_INITIALIZATION_FAILED;
        }
    }
    *pDevice = d;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyDevice(VkDevice device,
                                                    const VkAllocationCallbacks *pAllocator)
{
    if (device)
        destroy_device(device);
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetDeviceQueue(VkDevice device, uint32_t family,
                                                     uint32_t index, VkQueue *pQueue)
{
    *pQueue = family == 0 && index == 0 ? device->queue : NULL;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetDeviceQueue2(VkDevice device,
                                                      const VkDeviceQueueInfo2 *info, VkQueue *pQueue)
{
    cvk_GetDeviceQueue(device, info->queueFamilyIndex, info->queueIndex, pQueue);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_DeviceWaitIdle(VkDevice device)
{
    /* submissions run to completion inside vkQueueSubmit */
    return device->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetDeviceFaultInfoEXT(VkDevice device,
                                                                VkDeviceFaultCountsEXT *pCounts,
                                                                VkDeviceFaultInfoEXT *pInfo)
{
    pthread_mutex_lock(&device->lock);
    int lost = device->lost;
    pCounts->addressInfoCount = 0;
    pCounts->vendorInfoCount = 0;
    pCounts->vendorBinarySize = 0;
    if (pInfo) {
        memset(pInfo->description, 0, sizeof(pInfo->description));
        /* the message, cut to the description's 256 bytes */
        const char *msg = lost ? device->fault : "no fault";
        size_t n = strlen(msg);
        if (n > sizeof(pInfo->description) - 1)
            n = sizeof(pInfo->description) - 1;
        memcpy(pInfo->description, msg, n);
    }
    pthread_mutex_unlock(&device->lock);
    return VK_SUCCESS;
}

/* ---- memory and buffers -------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_AllocateMemory(VkDevice device,
                                                         const VkMemoryAllocateInfo *pInfo,
                                                         const VkAllocationCallbacks *pAllocator,
                                                         VkDeviceMemory *pMemory)
{
    if (pInfo->memoryTypeIndex != 0 || pInfo->allocationSize > CVK_MAX_BUFFER_SIZE)
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    struct VkDeviceMemory_T *m = calloc(1, sizeof(*m));
    if (!m)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    size_t size = (size_t)((pInfo->allocationSize + 63) & ~(VkDeviceSize)63);
    m->data = aligned_alloc(64, size ? size : 64);
    if (!m->data) {
        free(m);
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    memset(m->data, 0, size ? size : 64);
    m->size = pInfo->allocationSize;
    *pMemory = m;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_FreeMemory(VkDevice device, VkDeviceMemory memory,
                                                 const VkAllocationCallbacks *pAllocator)
{
    if (!memory)
        return;
    free(memory->data);
    free(memory);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_MapMemory(VkDevice device, VkDeviceMemory memory,
                                                    VkDeviceSize offset, VkDeviceSize size,
                                                    VkMemoryMapFlags flags, void **ppData)
{
    *ppData = memory->data + offset;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_FlushMappedMemoryRanges(VkDevice device, uint32_t n,
                                                                  const VkMappedMemoryRange *r)
{
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetDeviceMemoryCommitment(VkDevice device,
                                                                VkDeviceMemory memory,
                                                                VkDeviceSize *pBytes)
{
    *pBytes = memory->size;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateBuffer(VkDevice device,
                                                       const VkBufferCreateInfo *pInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkBuffer *pBuffer)
{
    if (pInfo->size > CVK_MAX_BUFFER_SIZE)
        return VK_ERROR_OUT_OF_DEVICE_MEMORY; /* past the engine's addressing */
    struct VkBuffer_T *b = calloc(1, sizeof(*b));
    if (!b)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    b->size = pInfo->size;
    b->usage = pInfo->usage;
    *pBuffer = b;
    return VK_SUCCESS;
}

static void unregister_buffer(struct VkDevice_T *d, struct VkBuffer_T *b)
{
    pthread_mutex_lock(&d->lock);
    for (int i = 0; i < CVK_SUBGROUP_SIZES; i++) {
        cvm_buffer_destroy(b->bda[i]);
        b->bda[i] = NULL;
    }
    for (uint32_t i = 0; i < d->nbuffers; i++)
        if (d->buffers[i] == b) {
            d->buffers[i] = d->buffers[--d->nbuffers];
            break;
        }
    pthread_mutex_unlock(&d->lock);
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyBuffer(VkDevice device, VkBuffer buffer,
                                                    const VkAllocationCallbacks *pAllocator)
{
    if (!buffer)
        return;
    unregister_buffer(device, buffer);
    free(buffer);
}

static void buffer_requirements(VkDeviceSize size, VkMemoryRequirements *r)
{
    r->size = (size + 63) & ~(VkDeviceSize)63;
    r->alignment = 64;
    r->memoryTypeBits = 1;
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetBufferMemoryRequirements(VkDevice device, VkBuffer buffer,
                                                                  VkMemoryRequirements *r)
{
    buffer_requirements(buffer->size, r);
}

static void dedicated(void *chain)
{
    for (VkBaseOutStructure *s = chain; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
            ((VkMemoryDedicatedRequirements *)s)->prefersDedicatedAllocation = VK_FALSE;
            ((VkMemoryDedicatedRequirements *)s)->requiresDedicatedAllocation = VK_FALSE;
        }
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetBufferMemoryRequirements2(
    VkDevice device, const VkBufferMemoryRequirementsInfo2 *info, VkMemoryRequirements2 *r)
{
    buffer_requirements(info->buffer->size, &r->memoryRequirements);
    dedicated(r->pNext);
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetDeviceBufferMemoryRequirements(
    VkDevice device, const VkDeviceBufferMemoryRequirements *info, VkMemoryRequirements2 *r)
{
    buffer_requirements(info->pCreateInfo->size, &r->memoryRequirements);
    dedicated(r->pNext);
}

/* Gives the buffer a device address: it is registered in every context
 * (one per subgroup size) in the same order, so it gets the same address
 * in each (cvm_buffer_create takes the lowest free slot).  Only a buffer
 * created with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT has one
 * (VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819: PhysicalStorageBuffer
 * pointers reference such buffers; vkGetBufferDeviceAddress asks for the
 * bit too): the memory of any other buffer is reached through descriptors
 * alone, and a PhysicalStorageBuffer access to it is out of bounds. */
static VkResult bind_buffer(struct VkDevice_T *d, struct VkBuffer_T *b, struct VkDeviceMemory_T *m,
                            VkDeviceSize offset)
{
    unregister_buffer(d, b);
    b->memory = m;
    b->offset = offset;
    b->address = 0;
    if (!(b->usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT))
        return VK_SUCCESS;
    VkResult r = VK_SUCCESS;
    pthread_mutex_lock(&d->lock);
    for (int i = 0; i < CVK_SUBGROUP_SIZES && r == VK_SUCCESS; i++) {
        if (cvm_buffer_create(d->ctx[i], m->data + offset, (size_t)b->size, &b->bda[i], NULL) !=
            CVM_SUCCESS)
            r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
        else if (i > 0 && cvm_buffer_device_address(b->bda[i]) != cvm_buffer_device_address(b->bda[0]))
            r = VK_ERROR_OUT_OF_DEVICE_MEMORY; /* cannot happen while every context is in step */
    }
    if (r == VK_SUCCESS && d->nbuffers == d->cap_buffers) {
        uint32_t cap = d->cap_buffers ? 2 * d->cap_buffers : 64;
        struct VkBuffer_T **nb = realloc(d->buffers, cap * sizeof(*nb));
        if (!nb)
            r = VK_ERROR_OUT_OF_HOST_MEMORY;
        else {
            d->buffers = nb;
            d->cap_buffers = cap;
        }
    }
    if (r == VK_SUCCESS) {
        d->buffers[d->nbuffers++] = b;
        b->address = cvm_buffer_device_address(b->bda[0]);
    }
    pthread_mutex_unlock(&d->lock);
    if (r != VK_SUCCESS)
        unregister_buffer(d, b);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_BindBufferMemory(VkDevice device, VkBuffer buffer,
                                                           VkDeviceMemory memory, VkDeviceSize offset)
{
    return bind_buffer(device, buffer, memory, offset);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_BindBufferMemory2(VkDevice device, uint32_t n,
                                                            const VkBindBufferMemoryInfo *infos)
{
    for (uint32_t i = 0; i < n; i++) {
        VkResult r = bind_buffer(device, infos[i].buffer, infos[i].memory, infos[i].memoryOffset);
        if (r != VK_SUCCESS)
            return r;
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR VkDeviceAddress VKAPI_CALL cvk_GetBufferDeviceAddress(
    VkDevice device, const VkBufferDeviceAddressInfo *info)
{
    return info->buffer->address;
}

static VKAPI_ATTR uint64_t VKAPI_CALL cvk_GetBufferOpaqueCaptureAddress(
    VkDevice device, const VkBufferDeviceAddressInfo *info)
{
    return 0;
}

static VKAPI_ATTR uint64_t VKAPI_CALL cvk_GetDeviceMemoryOpaqueCaptureAddress(
    VkDevice device, const VkDeviceMemoryOpaqueCaptureAddressInfo *info)
{
    return 0;
}

/* The buffer holding a device address, and the offset in it. */
struct VkBuffer_T *cvk_buffer_at_address(struct VkDevice_T *d, uint64_t address,
                                         VkDeviceSize *o_offset)
{
    struct VkBuffer_T *found = NULL;
    pthread_mutex_lock(&d->lock);
    for (uint32_t i = 0; i < d->nbuffers && !found; i++) {
        struct VkBuffer_T *b = d->buffers[i];
        if (address >= b->address && address - b->address < b->size) {
            found = b;
            *o_offset = address - b->address;
        }
    }
    pthread_mutex_unlock(&d->lock);
    return found;
}

/* ---- descriptors --------------------------------------------------------------- */

static int is_dynamic(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
           t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

static int cmp_binding(const void *a, const void *b)
{
    uint32_t x = ((const cvk_layout_binding *)a)->binding, y = ((const cvk_layout_binding *)b)->binding;
    return x < y ? -1 : x > y;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateDescriptorSetLayout(
    VkDevice device, const VkDescriptorSetLayoutCreateInfo *pInfo,
    const VkAllocationCallbacks *pAllocator, VkDescriptorSetLayout *pLayout)
{
    struct VkDescriptorSetLayout_T *l = calloc(1, sizeof(*l));
    if (!l)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    l->bindings = calloc(pInfo->bindingCount ? pInfo->bindingCount : 1, sizeof(*l->bindings));
    if (!l->bindings) {
        free(l);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    l->nbindings = pInfo->bindingCount;
    for (uint32_t i = 0; i < pInfo->bindingCount; i++) {
        const VkDescriptorSetLayoutBinding *b = &pInfo->pBindings[i];
        l->bindings[i] = (cvk_layout_binding){b->binding, b->descriptorType, b->descriptorCount, 0, 0};
    }
    /* Dynamic offsets are consumed in binding-number order. */
    qsort(l->bindings, l->nbindings, sizeof(*l->bindings), cmp_binding);
    for (uint32_t i = 0; i < l->nbindings; i++) {
        cvk_layout_binding *b = &l->bindings[i];
        if (b->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            b->count = 0; /* not supported: no descriptors */
        b->first = l->ndescriptors;
        b->dyn_first = l->ndynamic;
        l->ndescriptors += b->count;
        if (is_dynamic(b->type))
            l->ndynamic += b->count;
    }
    *pLayout = l;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyDescriptorSetLayout(VkDevice device,
                                                                 VkDescriptorSetLayout layout,
                                                                 const VkAllocationCallbacks *pA)
{
    if (!layout)
        return;
    free(layout->bindings);
    free(layout);
}

static VKAPI_ATTR void VKAPI_CALL cvk_GetDescriptorSetLayoutSupport(
    VkDevice device, const VkDescriptorSetLayoutCreateInfo *pInfo,
    VkDescriptorSetLayoutSupport *pSupport)
{
    pSupport->supported = VK_TRUE;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateDescriptorPool(
    VkDevice device, const VkDescriptorPoolCreateInfo *pInfo, const VkAllocationCallbacks *pA,
    VkDescriptorPool *pPool)
{
    struct VkDescriptorPool_T *p = calloc(1, sizeof(*p));
    if (!p)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    *pPool = p;
    return VK_SUCCESS;
}

static void free_set(struct VkDescriptorSet_T *s)
{
    free(s->layout.bindings);
    free(s->descriptors);
    free(s);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_ResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                              VkDescriptorPoolResetFlags flags)
{
    while (pool->sets) {
        struct VkDescriptorSet_T *s = pool->sets;
        pool->sets = s->next_in_pool;
        free_set(s);
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                            const VkAllocationCallbacks *pA)
{
    if (!pool)
        return;
    cvk_ResetDescriptorPool(device, pool, 0);
    free(pool);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_FreeDescriptorSets(VkDevice device, VkDescriptorPool pool,
                                                             uint32_t n, const VkDescriptorSet *sets)
{
    for (uint32_t i = 0; i < n; i++) {
        struct VkDescriptorSet_T *s = sets[i];
        if (!s)
            continue;
        for (struct VkDescriptorSet_T **pp = &pool->sets; *pp; pp = &(*pp)->next_in_pool)
            if (*pp == s) {
                *pp = s->next_in_pool;
                break;
            }
        free_set(s);
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_AllocateDescriptorSets(
    VkDevice device, const VkDescriptorSetAllocateInfo *pInfo, VkDescriptorSet *pSets)
{
    uint32_t i;
    for (i = 0; i < pInfo->descriptorSetCount; i++) {
        const struct VkDescriptorSetLayout_T *l = pInfo->pSetLayouts[i];
        struct VkDescriptorSet_T *s = calloc(1, sizeof(*s));
        if (!s)
            goto fail;
        s->layout = *l;
        s->layout.bindings = calloc(l->nbindings ? l->nbindings : 1, sizeof(*l->bindings));
        s->descriptors = calloc(l->ndescriptors ? l->ndescriptors : 1, sizeof(*s->descriptors));
        if (!s->layout.bindings || !s->descriptors) {
            free(s->layout.bindings);
            free(s->descriptors);
            free(s);
            goto fail;
        }
        memcpy(s->layout.bindings, l->bindings, l->nbindings * sizeof(*l->bindings));
        s->pool = pInfo->descriptorPool;
        s->next_in_pool = s->pool->sets;
        s->pool->sets = s;
        pSets[i] = s;
    }
    return VK_SUCCESS;
fail:
    cvk_FreeDescriptorSets(device, pInfo->descriptorPool, i, pSets);
    for (uint32_t k = 0; k < pInfo->descriptorSetCount; k++)
        pSets[k] = NULL;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static cvk_layout_binding *find_binding(struct VkDescriptorSet_T *s, uint32_t binding)
{
    for (uint32_t i = 0; i < s->layout.nbindings; i++)
        if (s->layout.bindings[i].binding == binding)
            return &s->layout.bindings[i];
    return NULL;
}

/* The descriptor at (binding, element), following on into the next
 * bindings as vkUpdateDescriptorSets does for counts past a binding's end. */
static cvk_descriptor *descriptor_at(struct VkDescriptorSet_T *s, uint32_t binding, uint32_t element)
{
    cvk_layout_binding *b = find_binding(s, binding);
    if (!b)
        return NULL;
    uint32_t idx = (uint32_t)(b - s->layout.bindings);
    while (idx < s->layout.nbindings && element >= s->layout.bindings[idx].count) {
        element -= s->layout.bindings[idx].count;
        idx++;
    }
    if (idx >= s->layout.nbindings)
        return NULL;
    return &s->descriptors[s->layout.bindings[idx].first + element];
}

/* The descriptor types the ICD keeps descriptors of: buffers.  Writes of
 * the others (images, texel buffers, inline uniform blocks, whose
 * pBufferInfo is ignored and may be anything) change nothing. */
static int is_buffer_descriptor(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
           is_dynamic(t);
}

/* Writes a buffer descriptor: the buffer is read now, while it is valid
 * (VK_NULL_HANDLE, the null descriptor, writes an empty one). */
static void write_buffer(cvk_descriptor *d, const VkDescriptorBufferInfo *bi)
{
    struct VkBuffer_T *b = bi->buffer;
    d->data = b && b->memory ? b->memory->data + b->offset : NULL;
    d->buffer_size = d->data ? b->size : 0;
    d->offset = bi->offset;
    d->range = bi->range;
}

static VKAPI_ATTR void VKAPI_CALL cvk_UpdateDescriptorSets(VkDevice device, uint32_t nwrites,
                                                           const VkWriteDescriptorSet *writes,
                                                           uint32_t ncopies,
                                                           const VkCopyDescriptorSet *copies)
{
    for (uint32_t i = 0; i < nwrites; i++) {
        const VkWriteDescriptorSet *w = &writes[i];
        if (!is_buffer_descriptor(w->descriptorType) || !w->pBufferInfo)
            continue;
        for (uint32_t k = 0; k < w->descriptorCount; k++) {
            cvk_descriptor *d = descriptor_at(w->dstSet, w->dstBinding, w->dstArrayElement + k);
            if (!d)
                break;
            write_buffer(d, &w->pBufferInfo[k]);
        }
    }
    /* A copy moves what was written, never looking at the buffers. */
    for (uint32_t i = 0; i < ncopies; i++) {
        const VkCopyDescriptorSet *c = &copies[i];
        const cvk_layout_binding *sb = find_binding(c->srcSet, c->srcBinding);
        if (!sb || !is_buffer_descriptor(sb->type))
            continue;
        for (uint32_t k = 0; k < c->descriptorCount; k++) {
            cvk_descriptor *from = descriptor_at(c->srcSet, c->srcBinding, c->srcArrayElement + k);
            cvk_descriptor *to = descriptor_at(c->dstSet, c->dstBinding, c->dstArrayElement + k);
            if (!from || !to)
                break;
            *to = *from;
        }
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateDescriptorUpdateTemplate(
    VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *pInfo,
    const VkAllocationCallbacks *pA, VkDescriptorUpdateTemplate *pTemplate)
{
    VkDescriptorUpdateTemplateCreateInfo *t = calloc(1, sizeof(*t));
    VkDescriptorUpdateTemplateEntry *e =
        calloc(pInfo->descriptorUpdateEntryCount ? pInfo->descriptorUpdateEntryCount : 1, sizeof(*e));
    if (!t || !e) {
        free(t);
        free(e);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    *t = *pInfo;
    memcpy(e, pInfo->pDescriptorUpdateEntries, pInfo->descriptorUpdateEntryCount * sizeof(*e));
    t->pDescriptorUpdateEntries = e;
    *pTemplate = (VkDescriptorUpdateTemplate)t;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyDescriptorUpdateTemplate(
    VkDevice device, VkDescriptorUpdateTemplate tmpl, const VkAllocationCallbacks *pA)
{
    VkDescriptorUpdateTemplateCreateInfo *t = (VkDescriptorUpdateTemplateCreateInfo *)tmpl;
    if (!t)
        return;
    free((void *)t->pDescriptorUpdateEntries);
    free(t);
}

static VKAPI_ATTR void VKAPI_CALL cvk_UpdateDescriptorSetWithTemplate(
    VkDevice device, VkDescriptorSet set, VkDescriptorUpdateTemplate tmpl, const void *pData)
{
    const VkDescriptorUpdateTemplateCreateInfo *t = (const VkDescriptorUpdateTemplateCreateInfo *)tmpl;
    for (uint32_t i = 0; i < t->descriptorUpdateEntryCount; i++) {
        const VkDescriptorUpdateTemplateEntry *e = &t->pDescriptorUpdateEntries[i];
        if (!is_buffer_descriptor(e->descriptorType))
            continue;
        for (uint32_t k = 0; k < e->descriptorCount; k++) {
            const VkDescriptorBufferInfo *bi =
                (const VkDescriptorBufferInfo *)((const uint8_t *)pData + e->offset + k * e->stride);
            cvk_descriptor *d = descriptor_at(set, e->dstBinding, e->dstArrayElement + k);
            if (!d)
                break;
            write_buffer(d, bi);
        }
    }
}

/* ---- pipelines ----------------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreatePipelineLayout(
    VkDevice device, const VkPipelineLayoutCreateInfo *pInfo, const VkAllocationCallbacks *pA,
    VkPipelineLayout *pLayout)
{
    struct VkPipelineLayout_T *l = calloc(1, sizeof(*l));
    if (!l)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < pInfo->pushConstantRangeCount; i++) {
        uint32_t end = pInfo->pPushConstantRanges[i].offset + pInfo->pPushConstantRanges[i].size;
        if (end > l->push_size)
            l->push_size = end;
    }
    *pLayout = l;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
                                                            const VkAllocationCallbacks *pA)
{
    free(layout);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateShaderModule(VkDevice device,
                                                             const VkShaderModuleCreateInfo *pInfo,
                                                             const VkAllocationCallbacks *pA,
                                                             VkShaderModule *pModule)
{
    struct VkShaderModule_T *m = calloc(1, sizeof(*m));
    if (!m)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    m->nwords = pInfo->codeSize / 4;
    m->words = malloc(m->nwords ? m->nwords * 4 : 4);
    if (!m->words) {
        free(m);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(m->words, pInfo->pCode, m->nwords * 4);
    *pModule = m;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyShaderModule(VkDevice device, VkShaderModule module,
                                                          const VkAllocationCallbacks *pA)
{
    if (!module)
        return;
    free(module->words);
    free(module);
}

void cvk_pipeline_destroy(struct VkPipeline_T *p)
{
    if (!p)
        return;
    cvk_profile_pipeline_done(p);
    cvm_pipeline_destroy(p->pipeline);
    cvm_module_destroy(p->module);
    free(p);
}

static void log_failure(const char *what, const cvm_diagnostic *diag)
{
    const char *log = getenv("COOPVM_VK_LOG");
    if (!log || !*log)
        return;
    FILE *f = !strcmp(log, "stderr") ? stderr : fopen(log, "a");
    if (!f)
        return;
    fprintf(f, "coopvm ICD: %s: %s: %s (word %u)\n", what, cvm_result_string(diag->result),
            diag->message, diag->word_offset);
    if (f != stderr)
        fclose(f);
}

/* The subgroup size a stage's chain requires (a
 * VkPipelineShaderStageRequiredSubgroupSizeCreateInfo, also
 * VkShaderRequiredSubgroupSizeCreateInfoEXT) as its log2, or the default;
 * VK_ERROR_FEATURE_NOT_PRESENT for a size coopvm lacks. */
VkResult cvk_required_subgroup(const void *chain, uint32_t *o_log2)
{
    *o_log2 = CVK_DEFAULT_SUBGROUP_LOG2;
    for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)
            continue;
        uint32_t n = ((const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *)s)->requiredSubgroupSize;
        if (!n || (n & (n - 1)) || n > 128)
            return VK_ERROR_FEATURE_NOT_PRESENT;
        *o_log2 = 0;
        while ((1u << *o_log2) < n)
            (*o_log2)++;
    }
    return VK_SUCCESS;
}

/* The specialization constants of `si` (NULL: none) as the engine takes
 * them, in a new array (*o_specs NULL when there are none); entries past
 * the data or wider than 8 bytes are left out. */
VkResult cvk_specializations(const VkSpecializationInfo *si, cvm_specialization **o_specs,
                             uint32_t *o_count)
{
    *o_specs = NULL;
    *o_count = 0;
    if (!si || !si->mapEntryCount)
        return VK_SUCCESS;
    cvm_specialization *specs = calloc(si->mapEntryCount, sizeof(*specs));
    if (!specs)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t n = 0;
    for (uint32_t i = 0; i < si->mapEntryCount; i++) {
        const VkSpecializationMapEntry *e = &si->pMapEntries[i];
        if (e->size > 8 || e->offset + e->size > si->dataSize)
            continue;
        specs[n].constant_id = e->constantID;
        specs[n].size = (uint32_t)e->size;
        memcpy(&specs[n].bits, (const uint8_t *)si->pData + e->offset, e->size);
        n++;
    }
    *o_specs = specs;
    *o_count = n;
    return VK_SUCCESS;
}

/* The rules that depend on the device and the pipeline (the VUIDs of the
 * SPIR-V environment that name device properties, enabled features, limits
 * and creation flags): checked against what this driver reports, the
 * features the application enabled, the pipeline's flags, entry point and
 * subgroup size.  A broken rule is logged as a validation layer reports it
 * ("Validation Error: [VUID-...]", to the COOPVM_VK_LOG file) and changes
 * nothing: the pipeline is still made when the engine can run it (the
 * Vulkan CTS never breaks these rules on purpose, and refusing what runs
 * would only risk its results).  cvm_validate reports the first broken
 * rule; it is logged when it is a device rule (the engine reports the
 * others, as before).  Nothing is checked unless COOPVM_VK_LOG is set. */
static void check_device_rules(const struct VkDevice_T *d, const uint32_t *words, size_t nwords,
                               const char *name, uint32_t sg_log2, uint32_t pipe_flags,
                               const char *what)
{
    const char *log = getenv("COOPVM_VK_LOG");
    if (!log || !*log)
        return; /* nobody would read it */
    cvm_device_description dd;
    cvm_get_device_description(&dd);
    dd.cooperative_matrix_workgroup_scope = d->cm_workgroup_scope;
    dd.cooperative_matrix_flexible_dimensions = d->cm_flexible_dimensions;
    dd.cooperative_matrix_properties2 = d->cm_properties2;
    dd.subgroup_size = 1u << sg_log2;
    dd.entry_point = name;
    dd.require_full_subgroups = (pipe_flags & CVK_PIPE_FULL_SUBGROUPS) ? 1 : 0;
    dd.indexing_64bit = (pipe_flags & CVK_PIPE_64BIT_INDEXING) ? 1 : 0;
    dd.shader_object = (pipe_flags & CVK_PIPE_SHADER_OBJECT) ? 1 : 0;
    cvm_validate_options vo = {"vulkan1.4", 0, NULL, NULL, &dd};
    cvm_diagnostic diag;
    if (cvm_validate(words, nwords, &vo, &diag) != CVM_ERROR_INVALID_MODULE)
        return; /* valid, or refused by the engine below with its own message */
    /* Only the device rules: the others are the engine's to report. */
    char id[128];
    size_t len = strcspn(diag.message + 1, "]");
    if (diag.message[0] != '[' || len >= sizeof(id))
        return;
    memcpy(id, diag.message + 1, len);
    id[len] = 0;
    int device_rule = 0;
    for (uint32_t i = 0; i < cvm_validation_rule_count() && !device_rule; i++) {
        cvm_validation_rule r;
        device_rule = cvm_validation_rule_get(i, &r) == CVM_SUCCESS && r.checked == 2 &&
                      !strcmp(r.id, id);
    }
    if (!device_rule)
        return;
    FILE *f = !strcmp(log, "stderr") ? stderr : fopen(log, "a");
    if (!f)
        return;
    fprintf(f, "coopvm ICD: %s: Validation Error: %s\n", what, diag.message);
    if (f != stderr)
        fclose(f);
}

/* A compute pipeline of SPIR-V `words` (copied), entry point `name`, at the
 * subgroup size 2^sg_log2, with `push_size` bytes of push constants and the
 * CVK_PIPE_* `pipe_flags`; `what` names the command in the log. */
VkResult cvk_pipeline_build(struct VkDevice_T *d, const uint32_t *words, size_t nwords,
                            const char *name, const cvm_specialization *specs, uint32_t nspecs,
                            uint32_t sg_log2, uint32_t push_size, uint32_t pipe_flags,
                            const char *what, struct VkPipeline_T **o)
{
    if (!words || sg_log2 >= CVK_SUBGROUP_SIZES)
        return VK_ERROR_INITIALIZATION_FAILED;
    check_device_rules(d, words, nwords, name, sg_log2, pipe_flags, what);
    struct VkPipeline_T *p = calloc(1, sizeof(*p));
    if (!p)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    p->push_size = push_size;
    uint64_t t0 = d->profile.on ? cvk_now_ns() : 0;
    cvm_diagnostic diag;
    cvm_result r = cvm_module_create(d->ctx[sg_log2], words, nwords, &p->module, &diag);
    if (r != CVM_SUCCESS) {
        log_failure(what, &diag);
        free(p);
        return r == CVM_ERROR_OUT_OF_MEMORY ? VK_ERROR_OUT_OF_HOST_MEMORY
                                            : VK_ERROR_INITIALIZATION_FAILED;
    }
    r = cvm_pipeline_create(p->module, name, specs, nspecs, &p->pipeline, &diag);
    if (r != CVM_SUCCESS) {
        log_failure(what, &diag);
        cvk_pipeline_destroy(p);
        return r == CVM_ERROR_OUT_OF_MEMORY ? VK_ERROR_OUT_OF_HOST_MEMORY
                                            : VK_ERROR_INITIALIZATION_FAILED;
    }
    if (d->profile.on)
        cvk_profile_pipeline_start(d, p, cvk_now_ns() - t0, words, nwords, name, nspecs);
    *o = p;
    return VK_SUCCESS;
}

/* VkPipelineCreateFlags2CreateInfo, which the system's Vulkan headers may
 * predate (vk.xml: VK_KHR_maintenance5, structure 1000470005). */
#define CVK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO 1000470005u
typedef struct cvk_pipeline_create_flags2 {
    VkStructureType sType;
    const void *pNext;
    uint64_t flags;
} cvk_pipeline_create_flags2;

static VkResult create_compute_pipeline(struct VkDevice_T *d, const VkComputePipelineCreateInfo *ci,
                                        struct VkPipeline_T **o)
{
    const VkPipelineShaderStageCreateInfo *st = &ci->stage;
    if (st->stage != VK_SHADER_STAGE_COMPUTE_BIT)
        return VK_ERROR_FEATURE_NOT_PRESENT;
    const struct VkShaderModule_T *sm = st->module;
    const VkShaderModuleCreateInfo *inline_module = NULL;
    for (const VkBaseInStructure *s = st->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
            inline_module = (const VkShaderModuleCreateInfo *)s;
    uint32_t sg_log2;
    VkResult vr = cvk_required_subgroup(st->pNext, &sg_log2);
    if (vr != VK_SUCCESS)
        return vr;
    const uint32_t *words = sm ? sm->words : inline_module ? inline_module->pCode : NULL;
    size_t nwords = sm ? sm->nwords : inline_module ? inline_module->codeSize / 4 : 0;
    cvm_specialization *specs;
    uint32_t nspecs;
    vr = cvk_specializations(st->pSpecializationInfo, &specs, &nspecs);
    if (vr != VK_SUCCESS)
        return vr;
    /* VkPipelineCreateFlags2CreateInfo (VK_KHR_maintenance5, Vulkan 1.4),
     * whose flags replace ci->flags, carries the 64-bit indexing flag. */
    uint32_t pipe_flags = 0;
    if (st->flags & VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT)
        pipe_flags |= CVK_PIPE_FULL_SUBGROUPS;
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
        if ((uint32_t)s->sType == CVK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO &&
            (((const cvk_pipeline_create_flags2 *)s)->flags &
             (1ull << 43) /* VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT */))
            pipe_flags |= CVK_PIPE_64BIT_INDEXING;
    vr = cvk_pipeline_build(d, words, nwords, st->pName, specs, nspecs, sg_log2,
                            ci->layout ? ci->layout->push_size : 0, pipe_flags,
                            "vkCreateComputePipelines", o);
    free(specs);
    return vr;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateComputePipelines(
    VkDevice device, VkPipelineCache cache, uint32_t n, const VkComputePipelineCreateInfo *infos,
    const VkAllocationCallbacks *pA, VkPipeline *pPipelines)
{
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < n; i++) {
        pPipelines[i] = NULL;
        VkResult r = create_compute_pipeline(device, &infos[i], &pPipelines[i]);
        if (r != VK_SUCCESS && result == VK_SUCCESS)
            result = r;
    }
    return result;
}

/* Graphics: this driver has no graphics queue or pipelines. */
static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateGraphicsPipelines(
    VkDevice device, VkPipelineCache cache, uint32_t n, const VkGraphicsPipelineCreateInfo *infos,
    const VkAllocationCallbacks *pA, VkPipeline *pPipelines)
{
    for (uint32_t i = 0; i < n; i++)
        pPipelines[i] = NULL;
    return VK_ERROR_FEATURE_NOT_PRESENT;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateImage(VkDevice device, const VkImageCreateInfo *info,
                                                      const VkAllocationCallbacks *pA, VkImage *pImage)
{
    *pImage = VK_NULL_HANDLE;
    return VK_ERROR_FEATURE_NOT_PRESENT;
}

/* The other graphics and image objects: refused the same way, so that a
 * program asking for them gets an error rather than a missing entry point. */
#define REFUSE_CREATE(Name, Info, Handle)                                                          \
    static VKAPI_ATTR VkResult VKAPI_CALL cvk_Create##Name(VkDevice device, const Info *pInfo,     \
                                                           const VkAllocationCallbacks *pA,        \
                                                           Handle *pHandle)                        \
    {                                                                                              \
        *pHandle = VK_NULL_HANDLE;                                                                 \
        return VK_ERROR_FEATURE_NOT_PRESENT;                                                       \
    }
#define REFUSE_DESTROY(Name, Handle)                                                               \
    static VKAPI_ATTR void VKAPI_CALL cvk_Destroy##Name(VkDevice device, Handle handle,            \
                                                        const VkAllocationCallbacks *pA)           \
    {                                                                                              \
    }
REFUSE_CREATE(ImageView, VkImageViewCreateInfo, VkImageView)
REFUSE_DESTROY(ImageView, VkImageView)
REFUSE_CREATE(BufferView, VkBufferViewCreateInfo, VkBufferView)
REFUSE_DESTROY(BufferView, VkBufferView)
REFUSE_CREATE(Sampler, VkSamplerCreateInfo, VkSampler)
REFUSE_DESTROY(Sampler, VkSampler)
REFUSE_CREATE(RenderPass, VkRenderPassCreateInfo, VkRenderPass)
REFUSE_CREATE(RenderPass2, VkRenderPassCreateInfo2, VkRenderPass)
REFUSE_DESTROY(RenderPass, VkRenderPass)
REFUSE_CREATE(Framebuffer, VkFramebufferCreateInfo, VkFramebuffer)
REFUSE_DESTROY(Framebuffer, VkFramebuffer)
#undef REFUSE_CREATE
#undef REFUSE_DESTROY

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyImage(VkDevice device, VkImage image,
                                                   const VkAllocationCallbacks *pA)
{
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                                      const VkAllocationCallbacks *pA)
{
    cvk_pipeline_destroy(pipeline);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreatePipelineCache(VkDevice device,
                                                              const VkPipelineCacheCreateInfo *pInfo,
                                                              const VkAllocationCallbacks *pA,
                                                              VkPipelineCache *pCache)
{
    struct VkPipelineCache_T *c = calloc(1, sizeof(*c));
    if (!c)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    *pCache = c;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyPipelineCache(VkDevice device, VkPipelineCache cache,
                                                           const VkAllocationCallbacks *pA)
{
    free(cache);
}

/* A cache holds nothing: its data is the header alone. */
static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetPipelineCacheData(VkDevice device,
                                                               VkPipelineCache cache,
                                                               size_t *pSize, void *pData)
{
    VkPipelineCacheHeaderVersionOne h;
    memset(&h, 0, sizeof(h));
    h.headerSize = sizeof(h);
    h.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
    VkPhysicalDeviceProperties props;
    ((PFN_vkGetPhysicalDeviceProperties)cvk_lookup("vkGetPhysicalDeviceProperties"))(device->physical,
                                                                                   &props);
    h.vendorID = props.vendorID;
    h.deviceID = props.deviceID;
    memcpy(h.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE);
    if (!pData) {
        *pSize = sizeof(h);
        return VK_SUCCESS;
    }
    if (*pSize < sizeof(h)) {
        *pSize = 0;
        return VK_INCOMPLETE;
    }
    memcpy(pData, &h, sizeof(h));
    *pSize = sizeof(h);
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_MergePipelineCaches(VkDevice device, VkPipelineCache dst,
                                                              uint32_t n, const VkPipelineCache *src)
{
    return VK_SUCCESS;
}

/* ---- synchronization ----------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateFence(VkDevice device, const VkFenceCreateInfo *pInfo,
                                                      const VkAllocationCallbacks *pA, VkFence *pFence)
{
    struct VkFence_T *f = calloc(1, sizeof(*f));
    if (!f)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    f->signaled = (pInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0;
    *pFence = f;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyFence(VkDevice device, VkFence fence,
                                                   const VkAllocationCallbacks *pA)
{
    free(fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_ResetFences(VkDevice device, uint32_t n, const VkFence *f)
{
    pthread_mutex_lock(&device->lock);
    for (uint32_t i = 0; i < n; i++)
        f[i]->signaled = 0;
    pthread_mutex_unlock(&device->lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetFenceStatus(VkDevice device, VkFence fence)
{
    if (device->lost)
        return VK_ERROR_DEVICE_LOST;
    pthread_mutex_lock(&device->lock);
    int s = fence->signaled;
    pthread_mutex_unlock(&device->lock);
    return s ? VK_SUCCESS : VK_NOT_READY;
}

/* Waits on the device's condition until done() holds or the timeout (ns)
 * passes; the caller holds the lock. */
static VkResult wait_until(struct VkDevice_T *d, int (*done)(const void *), const void *arg,
                           uint64_t timeout)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    if (timeout > (uint64_t)INT32_MAX * 1000000000ull)
        timeout = (uint64_t)INT32_MAX * 1000000000ull;
    end.tv_sec += (time_t)(timeout / 1000000000ull);
    end.tv_nsec += (long)(timeout % 1000000000ull);
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    while (!done(arg)) {
        if (d->lost)
            return VK_ERROR_DEVICE_LOST;
        if (timeout == 0)
            return VK_TIMEOUT;
        if (pthread_cond_timedwait(&d->cond, &d->lock, &end) == ETIMEDOUT && !done(arg))
            return VK_TIMEOUT;
    }
    return VK_SUCCESS;
}

typedef struct fence_wait {
    uint32_t n;
    const VkFence *fences;
    int all;
} fence_wait;

static int fences_done(const void *arg)
{
    const fence_wait *w = arg;
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->n; i++)
        k += w->fences[i]->signaled != 0;
    return w->all ? k == w->n : k > 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_WaitForFences(VkDevice device, uint32_t n,
                                                        const VkFence *fences, VkBool32 waitAll,
                                                        uint64_t timeout)
{
    fence_wait w = {n, fences, waitAll != VK_FALSE};
    pthread_mutex_lock(&device->lock);
    VkResult r = wait_until(device, fences_done, &w, timeout);
    pthread_mutex_unlock(&device->lock);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateSemaphore(VkDevice device,
                                                          const VkSemaphoreCreateInfo *pInfo,
                                                          const VkAllocationCallbacks *pA,
                                                          VkSemaphore *pSemaphore)
{
    struct VkSemaphore_T *s = calloc(1, sizeof(*s));
    if (!s)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    for (const VkBaseInStructure *p = pInfo->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) {
            const VkSemaphoreTypeCreateInfo *t = (const VkSemaphoreTypeCreateInfo *)p;
            s->timeline = t->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
            s->value = t->initialValue;
        }
    *pSemaphore = s;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroySemaphore(VkDevice device, VkSemaphore s,
                                                       const VkAllocationCallbacks *pA)
{
    free(s);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetSemaphoreCounterValue(VkDevice device, VkSemaphore s,
                                                                   uint64_t *pValue)
{
    pthread_mutex_lock(&device->lock);
    *pValue = s->value;
    pthread_mutex_unlock(&device->lock);
    return device->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

typedef struct sem_wait {
    const VkSemaphoreWaitInfo *info;
} sem_wait;

static int semaphores_done(const void *arg)
{
    const VkSemaphoreWaitInfo *w = ((const sem_wait *)arg)->info;
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->semaphoreCount; i++)
        k += w->pSemaphores[i]->value >= w->pValues[i];
    return (w->flags & VK_SEMAPHORE_WAIT_ANY_BIT) ? k > 0 || !w->semaphoreCount
                                                  : k == w->semaphoreCount;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_WaitSemaphores(VkDevice device,
                                                         const VkSemaphoreWaitInfo *pInfo,
                                                         uint64_t timeout)
{
    sem_wait w = {pInfo};
    pthread_mutex_lock(&device->lock);
    VkResult r = wait_until(device, semaphores_done, &w, timeout);
    pthread_mutex_unlock(&device->lock);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_SignalSemaphore(VkDevice device,
                                                          const VkSemaphoreSignalInfo *pInfo)
{
    pthread_mutex_lock(&device->lock);
    pInfo->semaphore->value = pInfo->value;
    pthread_cond_broadcast(&device->cond);
    pthread_mutex_unlock(&device->lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateEvent(VkDevice device, const VkEventCreateInfo *pInfo,
                                                      const VkAllocationCallbacks *pA, VkEvent *pEvent)
{
    struct VkEvent_T *e = calloc(1, sizeof(*e));
    if (!e)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    *pEvent = e;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyEvent(VkDevice device, VkEvent e,
                                                   const VkAllocationCallbacks *pA)
{
    free(e);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetEventStatus(VkDevice device, VkEvent e)
{
    if (device->lost)
        return VK_ERROR_DEVICE_LOST;
    pthread_mutex_lock(&device->lock);
    int set = e->set;
    pthread_mutex_unlock(&device->lock);
    return set ? VK_EVENT_SET : VK_EVENT_RESET;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_SetEvent(VkDevice device, VkEvent e)
{
    pthread_mutex_lock(&device->lock);
    e->set = 1;
    pthread_cond_broadcast(&device->cond);
    pthread_mutex_unlock(&device->lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_ResetEvent(VkDevice device, VkEvent e)
{
    pthread_mutex_lock(&device->lock);
    e->set = 0;
    pthread_mutex_unlock(&device->lock);
    return VK_SUCCESS;
}

/* ---- queries ------------------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateQueryPool(VkDevice device,
                                                          const VkQueryPoolCreateInfo *pInfo,
                                                          const VkAllocationCallbacks *pA,
                                                          VkQueryPool *pPool)
{
    if (pInfo->queryType != VK_QUERY_TYPE_TIMESTAMP)
        return VK_ERROR_FEATURE_NOT_PRESENT;
    struct VkQueryPool_T *q = calloc(1, sizeof(*q));
    if (!q)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    q->type = pInfo->queryType;
    q->count = pInfo->queryCount;
    q->values = calloc(q->count ? q->count : 1, sizeof(*q->values));
    q->available = calloc(q->count ? q->count : 1, 1);
    if (!q->values || !q->available) {
        free(q->values);
        free(q->available);
        free(q);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    *pPool = q;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyQueryPool(VkDevice device, VkQueryPool q,
                                                       const VkAllocationCallbacks *pA)
{
    if (!q)
        return;
    free(q->values);
    free(q->available);
    free(q);
}

static VKAPI_ATTR void VKAPI_CALL cvk_ResetQueryPool(VkDevice device, VkQueryPool q, uint32_t first,
                                                     uint32_t count)
{
    pthread_mutex_lock(&device->lock);
    for (uint32_t i = first; i < first + count && i < q->count; i++)
        q->available[i] = 0;
    pthread_mutex_unlock(&device->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetQueryPoolResults(VkDevice device, VkQueryPool q,
                                                              uint32_t first, uint32_t count,
                                                              size_t dataSize, void *pData,
                                                              VkDeviceSize stride,
                                                              VkQueryResultFlags flags)
{
    VkResult r = VK_SUCCESS;
    pthread_mutex_lock(&device->lock);
    for (uint32_t i = 0; i < count && first + i < q->count; i++) {
        uint8_t *out = (uint8_t *)pData + i * stride;
        int avail = q->available[first + i];
        if (!avail)
            r = VK_NOT_READY; /* every submission has finished: it was never written */
        if (avail || (flags & VK_QUERY_RESULT_PARTIAL_BIT)) {
            if (flags & VK_QUERY_RESULT_64_BIT)
                memcpy(out, &q->values[first + i], 8);
            else {
                uint32_t v = (uint32_t)q->values[first + i];
                memcpy(out, &v, 4);
            }
        }
        if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) {
            uint64_t a = avail;
            if (flags & VK_QUERY_RESULT_64_BIT)
                memcpy(out + 8, &a, 8);
            else {
                uint32_t a32 = (uint32_t)a;
                memcpy(out + 4, &a32, 4);
            }
        }
    }
    pthread_mutex_unlock(&device->lock);
    return device->lost ? VK_ERROR_DEVICE_LOST : r;
}

/* ---- cooperative vectors ------------------------------------------------------- */

/* vkConvertCooperativeVectorMatrixNV on host addresses. */
static VKAPI_ATTR VkResult VKAPI_CALL cvk_ConvertCooperativeVectorMatrixNV(
    VkDevice device, const VkConvertCooperativeVectorMatrixInfoNV *pInfo)
{
    cvm_coopvec_convert_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.src_size = pInfo->srcSize;
    ci.src_data = pInfo->srcData.hostAddress;
    ci.dst_size = pInfo->pDstSize;
    ci.dst_data = pInfo->dstData.hostAddress;
    ci.src_component_type = (uint32_t)pInfo->srcComponentType;
    ci.dst_component_type = (uint32_t)pInfo->dstComponentType;
    ci.num_rows = pInfo->numRows;
    ci.num_columns = pInfo->numColumns;
    ci.src_layout = (uint32_t)pInfo->srcLayout;
    ci.src_stride = pInfo->srcStride;
    ci.dst_layout = (uint32_t)pInfo->dstLayout;
    ci.dst_stride = pInfo->dstStride;
    cvm_diagnostic diag;
    cvm_result r = cvm_convert_cooperative_vector_matrix(device->ctx[CVK_DEFAULT_SUBGROUP_LOG2],
                                                         &ci, &diag);
    if (r == CVM_SUCCESS)
        return VK_SUCCESS;
    if (r == CVM_INCOMPLETE)
        return VK_INCOMPLETE;
    log_failure("vkConvertCooperativeVectorMatrixNV", &diag);
    return r == CVM_ERROR_OUT_OF_MEMORY ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_ERROR_FORMAT_NOT_SUPPORTED;
}

/* ---- the entry points ---------------------------------------------------------- */

#define P(name) {"vk" #name, (PFN_vkVoidFunction)cvk_##name}
static const cvk_proc device_procs[] = {
    P(CreateDevice),
    P(DestroyDevice),
    P(GetDeviceQueue),
    P(GetDeviceQueue2),
    P(DeviceWaitIdle),
    P(GetDeviceFaultInfoEXT),
    P(AllocateMemory),
    P(FreeMemory),
    P(MapMemory),
    P(UnmapMemory),
    P(FlushMappedMemoryRanges),
    {"vkInvalidateMappedMemoryRanges", (PFN_vkVoidFunction)cvk_FlushMappedMemoryRanges},
    P(GetDeviceMemoryCommitment),
    P(CreateBuffer),
    P(DestroyBuffer),
    P(GetBufferMemoryRequirements),
    P(GetBufferMemoryRequirements2),
    P(GetDeviceBufferMemoryRequirements),
    P(BindBufferMemory),
    P(BindBufferMemory2),
    P(GetBufferDeviceAddress),
    P(GetBufferOpaqueCaptureAddress),
    P(GetDeviceMemoryOpaqueCaptureAddress),
    P(CreateDescriptorSetLayout),
    P(DestroyDescriptorSetLayout),
    P(GetDescriptorSetLayoutSupport),
    P(CreateDescriptorPool),
    P(DestroyDescriptorPool),
    P(ResetDescriptorPool),
    P(AllocateDescriptorSets),
    P(FreeDescriptorSets),
    P(UpdateDescriptorSets),
    P(CreateDescriptorUpdateTemplate),
    P(DestroyDescriptorUpdateTemplate),
    P(UpdateDescriptorSetWithTemplate),
    P(CreatePipelineLayout),
    P(DestroyPipelineLayout),
    P(CreateShaderModule),
    P(DestroyShaderModule),
    P(CreateComputePipelines),
    P(CreateGraphicsPipelines),
    P(CreateImage),
    P(DestroyImage),
    P(CreateImageView),
    P(DestroyImageView),
    P(CreateBufferView),
    P(DestroyBufferView),
    P(CreateSampler),
    P(DestroySampler),
    P(CreateRenderPass),
    P(DestroyRenderPass),
    P(CreateRenderPass2),
    P(CreateFramebuffer),
    P(DestroyFramebuffer),
    P(DestroyPipeline),
    P(CreatePipelineCache),
    P(DestroyPipelineCache),
    P(GetPipelineCacheData),
    P(MergePipelineCaches),
    P(CreateFence),
    P(DestroyFence),
    P(ResetFences),
    P(GetFenceStatus),
    P(WaitForFences),
    P(CreateSemaphore),
    P(DestroySemaphore),
    P(GetSemaphoreCounterValue),
    P(WaitSemaphores),
    P(SignalSemaphore),
    P(CreateEvent),
    P(DestroyEvent),
    P(GetEventStatus),
    P(SetEvent),
    P(ResetEvent),
    P(CreateQueryPool),
    P(DestroyQueryPool),
    P(ResetQueryPool),
    P(GetQueryPoolResults),
    P(ConvertCooperativeVectorMatrixNV),
};
#undef P

PFN_vkVoidFunction cvk_cmd_lookup(const char *name);
PFN_vkVoidFunction cvk_device_lookup(const char *name);

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL cvk_GetDeviceProcAddr(VkDevice device,
                                                                     const char *pName)
{
    return cvk_lookup(pName);
}

PFN_vkVoidFunction cvk_device_lookup(const char *name)
{
    if (!strcmp(name, "vkGetDeviceProcAddr"))
        return (PFN_vkVoidFunction)cvk_GetDeviceProcAddr;
    for (size_t i = 0; i < sizeof(device_procs) / sizeof(device_procs[0]); i++)
        if (!strcmp(device_procs[i].name, name))
            return device_procs[i].fn;
    PFN_vkVoidFunction f = cvk_shader_lookup(name);
    return f ? f : cvk_cmd_lookup(name);
}
