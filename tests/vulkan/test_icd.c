/* The ICD's API paths that vkrun does not take, through the system's Vulkan
 * loader (VK_DRIVER_FILES names the ICD): a dynamic storage-buffer offset,
 * push constants, a specialization constant, a required subgroup size,
 * vkCmdDispatchBase, vkCmdDispatchIndirect, fill/update/copy buffer,
 * timestamps, events, a timeline semaphore signalled by a submission and
 * waited for on the host, secondary command buffers, the cooperative-vector
 * queries and conversion, the refusal of graphics, and a shader error that
 * loses the device with the engine's message in vkGetDeviceFaultInfoEXT.
 *
 * The shader is icd_api.comp (icd_api.spvasm, assembled here with
 * cvm_assemble): dst[i] = src[i] * mul + add + SubgroupSize * 65536 for
 * i = GlobalInvocationId.x.  Each expected value below is that formula on the
 * inputs the test writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopvm.h"
#include "vulkan/vk_registry.h"

static int failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);           \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)
#define VK(x)                                                                                  \
    do {                                                                                       \
        VkResult r_ = (x);                                                                     \
        if (r_ != VK_SUCCESS) {                                                                \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, (int)r_);             \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define N 64          /* uints in each buffer */
#define DYN 256       /* the dynamic offset of the source, bytes */
#define MUL 3u        /* specialization constant 0 */
#define ADD 5u        /* the push constant */
#define SUBGROUP 8u   /* the required subgroup size */

static VkInstance inst;
static VkPhysicalDevice pd;

typedef struct buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    uint32_t *map;
} buffer;

static buffer make_buffer(VkDevice dev, VkDeviceSize size)
{
    buffer b;
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    VK(vkCreateBuffer(dev, &bci, NULL, &b.buf));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, b.buf, &mr);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, mr.size, 0};
    VK(vkAllocateMemory(dev, &mai, NULL, &b.mem));
    VK(vkBindBufferMemory(dev, b.buf, b.mem, 0));
    VK(vkMapMemory(dev, b.mem, 0, size, 0, (void **)&b.map));
    return b;
}

static void free_buffer(VkDevice dev, buffer *b)
{
    vkDestroyBuffer(dev, b->buf, NULL);
    vkFreeMemory(dev, b->mem, NULL);
}

static VkDevice make_device(void)
{
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    VkPhysicalDeviceVulkan13Features f13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.subgroupSizeControl = VK_TRUE;
    f13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
    f12.timelineSemaphore = VK_TRUE;
    f12.bufferDeviceAddress = VK_TRUE;
    const char *exts[] = {"VK_NV_cooperative_vector", "VK_EXT_device_fault"};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12, 0, 1, &qci, 0, NULL, 2, exts,
                              NULL};
    VkDevice dev;
    VK(vkCreateDevice(pd, &dci, NULL, &dev));
    return dev;
}

static uint32_t *assemble(size_t *o_words)
{
    FILE *f = fopen(CVK_TEST_DIR "/icd_api.spvasm", "rb");
    if (!f) {
        fprintf(stderr, "cannot open icd_api.spvasm\n");
        exit(1);
    }
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    uint32_t *words;
    cvm_diagnostic diag;
    if (cvm_assemble(text, n, 0, "vulkan1.3", &words, o_words, &diag) != CVM_SUCCESS) {
        fprintf(stderr, "icd_api.spvasm:%u: %s\n", diag.line, diag.message);
        exit(1);
    }
    return words;
}

typedef struct pipeline {
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkPipeline pipe;
    VkDescriptorPool pool;
    VkDescriptorSet set;
} pipeline;

/* The pipeline and a set with src (dynamic, `src_range` bytes) and dst. */
static pipeline make_pipeline(VkDevice dev, VkBuffer src, VkDeviceSize src_range, VkBuffer dst)
{
    pipeline p;
    VkDescriptorSetLayoutBinding b[2] = {
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo dci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL,
                                           0, 2, b};
    VK(vkCreateDescriptorSetLayout(dev, &dci, NULL, &p.dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1,
                                       &p.dsl, 1, &pcr};
    VK(vkCreatePipelineLayout(dev, &plci, NULL, &p.layout));
    size_t nwords;
    uint32_t *words = assemble(&nwords);
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                     nwords * 4, words};
    VkShaderModule sm;
    VK(vkCreateShaderModule(dev, &smci, NULL, &sm));
    cvm_free(words);
    uint32_t mul = MUL;
    VkSpecializationMapEntry me = {0, 0, 4};
    VkSpecializationInfo si = {1, &me, 4, &mul};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss = {
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, NULL, SUBGROUP};
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                   &rss, 0, VK_SHADER_STAGE_COMPUTE_BIT, sm, "main",
                                                   &si};
    cpci.layout = p.layout;
    VkPipelineCacheCreateInfo pcci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache;
    VK(vkCreatePipelineCache(dev, &pcci, NULL, &cache));
    VK(vkCreateComputePipelines(dev, cache, 1, &cpci, NULL, &p.pipe));
    vkDestroyPipelineCache(dev, cache, NULL);
    vkDestroyShaderModule(dev, sm, NULL);
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
    VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1,
                                       &ps};
    VK(vkCreateDescriptorPool(dev, &dpci, NULL, &p.pool));
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, p.pool,
                                        1, &p.dsl};
    VK(vkAllocateDescriptorSets(dev, &dsai, &p.set));
    /* the layout may go once the set exists */
    VkDescriptorBufferInfo bi[2] = {{src, 0, src_range}, {dst, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[2] = {
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, p.set, 0, 0, 1,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, NULL, &bi[0], NULL},
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, p.set, 1, 0, 1,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[1], NULL}};
    vkUpdateDescriptorSets(dev, 2, w, 0, NULL);
    return p;
}

static void free_pipeline(VkDevice dev, pipeline *p)
{
    vkDestroyPipeline(dev, p->pipe, NULL);
    vkDestroyPipelineLayout(dev, p->layout, NULL);
    vkDestroyDescriptorSetLayout(dev, p->dsl, NULL);
    vkDestroyDescriptorPool(dev, p->pool, NULL);
}

static uint32_t expected(uint32_t src)
{
    return src * MUL + ADD + SUBGROUP * 65536u;
}

static void test_dispatches(void)
{
    VkDevice dev = make_device();
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    buffer src = make_buffer(dev, DYN + 4 * N), dst = make_buffer(dev, 4 * N),
           copy = make_buffer(dev, 4 * N), ind = make_buffer(dev, 16);
    for (uint32_t i = 0; i < (DYN + 4 * N) / 4; i++)
        src.map[i] = 0xDEAD0000u + i; /* overwritten past DYN by vkCmdUpdateBuffer */
    uint32_t upd[N];
    for (uint32_t i = 0; i < N; i++)
        upd[i] = 1000 + 7 * i;
    uint32_t groups[3] = {1, 1, 1};
    memcpy(ind.map, groups, sizeof(groups));
    pipeline p = make_pipeline(dev, src.buf, 4 * N, dst.buf);

    VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, NULL, 0,
                                  VK_QUERY_TYPE_TIMESTAMP, 2};
    VkQueryPool qp;
    VK(vkCreateQueryPool(dev, &qpci, NULL, &qp));
    VkEventCreateInfo eci = {VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent ev;
    VK(vkCreateEvent(dev, &eci, NULL, &ev));
    VkSemaphoreTypeCreateInfo stci = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
                                      VK_SEMAPHORE_TYPE_TIMELINE, 1};
    VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &stci};
    VkSemaphore sem;
    VK(vkCreateSemaphore(dev, &sci, NULL, &sem));
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK(vkCreateFence(dev, &fci, NULL, &fence));

    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VkCommandPool pool;
    VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBuffer cb[2];
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &cb[0]));
    cai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
    VK(vkAllocateCommandBuffers(dev, &cai, &cb[1]));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};

    /* the secondary: copy dst to copy */
    VkCommandBufferInheritanceInfo inh = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo cbi2 = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, 0, &inh};
    VK(vkBeginCommandBuffer(cb[1], &cbi2));
    VkBufferCopy region = {0, 0, 4 * N};
    vkCmdCopyBuffer(cb[1], dst.buf, copy.buf, 1, &region);
    VK(vkEndCommandBuffer(cb[1]));

    VK(vkBeginCommandBuffer(cb[0], &cbi));
    vkCmdResetQueryPool(cb[0], qp, 0, 2);
    vkCmdFillBuffer(cb[0], dst.buf, 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);
    vkCmdUpdateBuffer(cb[0], src.buf, DYN, sizeof(upd), upd);
    VkMemoryBarrier2 mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, NULL,
                           VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT};
    VkDependencyInfo dep = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO, NULL, 0, 1, &mb, 0, NULL, 0, NULL};
    vkCmdPipelineBarrier2(cb[0], &dep);
    vkCmdBindPipeline(cb[0], VK_PIPELINE_BIND_POINT_COMPUTE, p.pipe);
    uint32_t dyn = DYN;
    vkCmdBindDescriptorSets(cb[0], VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 1, &dyn);
    uint32_t add = ADD;
    vkCmdPushConstants(cb[0], p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
    vkCmdWriteTimestamp(cb[0], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
    vkCmdDispatchBase(cb[0], 2, 0, 0, 3, 1, 1); /* invocations 8 .. 19 */
    vkCmdDispatchIndirect(cb[0], ind.buf, 0);   /* invocations 0 .. 3 */
    vkCmdWriteTimestamp(cb[0], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
    vkCmdExecuteCommands(cb[0], 1, &cb[1]);
    vkCmdSetEvent(cb[0], ev, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    VK(vkEndCommandBuffer(cb[0]));

    VkCommandBufferSubmitInfo cbsi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, NULL, cb[0], 0};
    VkSemaphoreSubmitInfo ssi = {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, NULL, sem, 7,
                                 VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0};
    VkSubmitInfo2 si = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2, NULL, 0, 0, NULL, 1, &cbsi, 1, &ssi};
    VK(vkQueueSubmit2(q, 1, &si, fence));
    VK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
    uint64_t v = 0;
    VK(vkGetSemaphoreCounterValue(dev, sem, &v));
    CHECK(v == 7, "timeline value %llu", (unsigned long long)v);
    uint64_t seven = 7;
    VkSemaphoreWaitInfo swi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, NULL, 0, 1, &sem, &seven};
    CHECK(vkWaitSemaphores(dev, &swi, 0) == VK_SUCCESS, "wait for value 7");
    uint64_t eight = 8;
    swi.pValues = &eight;
    CHECK(vkWaitSemaphores(dev, &swi, 1000) == VK_TIMEOUT, "value 8 never comes");
    CHECK(vkGetEventStatus(dev, ev) == VK_EVENT_SET, "event");

    for (uint32_t i = 0; i < N; i++) {
        int ran = i < 4 || (i >= 8 && i < 20);
        uint32_t want = ran ? expected(upd[i]) : 0xFFFFFFFFu;
        CHECK(dst.map[i] == want, "dst[%u] = 0x%x, want 0x%x", i, dst.map[i], want);
        CHECK(copy.map[i] == dst.map[i], "copy[%u] = 0x%x", i, copy.map[i]);
    }
    uint64_t ts[2] = {0, 0};
    CHECK(vkGetQueryPoolResults(dev, qp, 0, 2, sizeof(ts), ts, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS,
          "timestamps");
    CHECK(ts[0] > 0 && ts[1] >= ts[0], "timestamps %llu %llu", (unsigned long long)ts[0],
          (unsigned long long)ts[1]);

    /* a second submission (vkQueueSubmit) waiting on the timeline */
    VK(vkResetFences(dev, 1, &fence));
    CHECK(vkGetFenceStatus(dev, fence) == VK_NOT_READY, "reset fence");
    VK(vkResetCommandBuffer(cb[0], 0));
    VK(vkBeginCommandBuffer(cb[0], &cbi));
    vkCmdFillBuffer(cb[0], dst.buf, 4, 8, 0x12345678u);
    VK(vkEndCommandBuffer(cb[0]));
    uint64_t wait_value = 7, signal_value = 9;
    VkTimelineSemaphoreSubmitInfo tssi = {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, NULL, 1,
                                          &wait_value, 1, &signal_value};
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo s1 = {VK_STRUCTURE_TYPE_SUBMIT_INFO, &tssi, 1, &sem, &stage, 1, &cb[0], 1, &sem};
    VK(vkQueueSubmit(q, 1, &s1, fence));
    VK(vkQueueWaitIdle(q));
    CHECK(vkGetFenceStatus(dev, fence) == VK_SUCCESS, "fence after the second submission");
    CHECK(dst.map[0] == expected(upd[0]) && dst.map[1] == 0x12345678u &&
              dst.map[2] == 0x12345678u && dst.map[3] == expected(upd[3]),
          "fill of 8 bytes at 4: %x %x %x %x", dst.map[0], dst.map[1], dst.map[2], dst.map[3]);
    VK(vkGetSemaphoreCounterValue(dev, sem, &v));
    CHECK(v == 9, "timeline value %llu after the second submission", (unsigned long long)v);

    /* buffer device addresses: distinct, nonzero, fixed */
    VkBufferDeviceAddressInfo ai = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, src.buf};
    VkDeviceAddress a0 = vkGetBufferDeviceAddress(dev, &ai);
    ai.buffer = dst.buf;
    VkDeviceAddress a1 = vkGetBufferDeviceAddress(dev, &ai);
    CHECK(a0 && a1 && a0 != a1, "addresses %llx %llx", (unsigned long long)a0,
          (unsigned long long)a1);

    /* graphics is refused */
    VkGraphicsPipelineCreateInfo gpci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    VkPipeline gp = (VkPipeline)1;
    CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, NULL, &gp) ==
              VK_ERROR_FEATURE_NOT_PRESENT && gp == VK_NULL_HANDLE,
          "graphics pipeline");

    /* vkConvertCooperativeVectorMatrixNV: 2 x 3 f32 row-major to f16
     * inferencing-optimal, coopvm's tight row-major padded with zeros to 64
     * bytes (optimal matrices placed by their size stay 64-byte aligned) */
    PFN_vkConvertCooperativeVectorMatrixNV convert =
        (PFN_vkConvertCooperativeVectorMatrixNV)vkGetDeviceProcAddr(dev,
                                                                    "vkConvertCooperativeVectorMatrixNV");
    CHECK(convert != NULL, "vkConvertCooperativeVectorMatrixNV");
    if (convert) {
        float m[6] = {1, -2, 0.5f, 3, 4, -0.25f};
        uint16_t out[32];
        memset(out, 0x55, sizeof(out));
        size_t size = 0;
        VkConvertCooperativeVectorMatrixInfoNV ci = {
            VK_STRUCTURE_TYPE_CONVERT_COOPERATIVE_VECTOR_MATRIX_INFO_NV};
        ci.srcSize = sizeof(m);
        ci.srcData.hostAddress = m;
        ci.pDstSize = &size;
        ci.srcComponentType = VK_COMPONENT_TYPE_FLOAT32_KHR;
        ci.dstComponentType = VK_COMPONENT_TYPE_FLOAT16_KHR;
        ci.numRows = 2;
        ci.numColumns = 3;
        ci.srcLayout = VK_COOPERATIVE_VECTOR_MATRIX_LAYOUT_ROW_MAJOR_NV;
        ci.srcStride = 12;
        ci.dstLayout = VK_COOPERATIVE_VECTOR_MATRIX_LAYOUT_INFERENCING_OPTIMAL_NV;
        CHECK(convert(dev, &ci) == VK_SUCCESS && size == 64, "size query: %zu", size);
        ci.dstData.hostAddress = out;
        CHECK(convert(dev, &ci) == VK_SUCCESS, "conversion");
        /* IEEE half bits of the six values */
        static const uint16_t want[6] = {0x3C00, 0xC000, 0x3800, 0x4200, 0x4400, 0xB400};
        CHECK(!memcmp(out, want, sizeof(want)), "converted %04x %04x %04x %04x %04x %04x",
              out[0], out[1], out[2], out[3], out[4], out[5]);
        for (int i = 6; i < 32; i++)
            CHECK(out[i] == 0, "padding half %d: %04x", i, out[i]);
    }

    vkDestroyCommandPool(dev, pool, NULL);
    vkDestroyFence(dev, fence, NULL);
    vkDestroySemaphore(dev, sem, NULL);
    vkDestroyEvent(dev, ev, NULL);
    vkDestroyQueryPool(dev, qp, NULL);
    free_pipeline(dev, &p);
    free_buffer(dev, &src);
    free_buffer(dev, &dst);
    free_buffer(dev, &copy);
    free_buffer(dev, &ind);
    vkDestroyDevice(dev, NULL);
}

/* A source descriptor of 8 bytes read at index 2 and on: out of bounds. */
static void test_device_lost(void)
{
    VkDevice dev = make_device();
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    buffer src = make_buffer(dev, 4 * N), dst = make_buffer(dev, 4 * N);
    pipeline p = make_pipeline(dev, src.buf, 8, dst.buf);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VkCommandPool pool;
    VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBuffer cb;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &cb));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cb, &cbi));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipe);
    uint32_t dyn = 0, add = ADD;
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 1, &dyn);
    vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
    vkCmdDispatch(cb, 1, 1, 1);
    VK(vkEndCommandBuffer(cb));
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK(vkCreateFence(dev, &fci, NULL, &fence));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cb, 0, NULL};
    VkResult r = vkQueueSubmit(q, 1, &si, fence);
    CHECK(r == VK_ERROR_DEVICE_LOST, "submit -> %d", (int)r);
    CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, 1000000) == VK_ERROR_DEVICE_LOST, "fence wait");
    CHECK(vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE) == VK_ERROR_DEVICE_LOST, "lost stays lost");
    PFN_vkGetDeviceFaultInfoEXT fault =
        (PFN_vkGetDeviceFaultInfoEXT)vkGetDeviceProcAddr(dev, "vkGetDeviceFaultInfoEXT");
    CHECK(fault != NULL, "vkGetDeviceFaultInfoEXT");
    if (fault) {
        VkDeviceFaultCountsEXT counts = {VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
        VkDeviceFaultInfoEXT info = {VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
        CHECK(fault(dev, &counts, &info) == VK_SUCCESS, "fault query");
        CHECK(strstr(info.description, "CVM_ERROR_OUT_OF_BOUNDS") != NULL, "description: %s",
              info.description);
        printf("device fault: %s\n", info.description);
    }
    vkDestroyFence(dev, fence, NULL);
    vkDestroyCommandPool(dev, pool, NULL);
    free_pipeline(dev, &p);
    free_buffer(dev, &src);
    free_buffer(dev, &dst);
    vkDestroyDevice(dev, NULL);
}

static void test_queries(void)
{
    PFN_vkGetPhysicalDeviceCooperativeVectorPropertiesNV cvp =
        (PFN_vkGetPhysicalDeviceCooperativeVectorPropertiesNV)vkGetInstanceProcAddr(
            inst, "vkGetPhysicalDeviceCooperativeVectorPropertiesNV");
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR cmp =
        (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)vkGetInstanceProcAddr(
            inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    CHECK(cvp && cmp, "the cooperative queries through the loader");
    if (cvp) {
        uint32_t n = 0, engine = 0;
        CHECK(cvp(pd, &n, NULL) == VK_SUCCESS, "count");
        CHECK(cvm_get_cooperative_vector_properties(&engine, NULL) == CVM_SUCCESS, "engine count");
        CHECK(n == engine && n > 0, "%u combinations, the engine has %u", n, engine);
        VkCooperativeVectorPropertiesNV two[2];
        uint32_t k = 2;
        memset(two, 0, sizeof(two));
        CHECK(n <= 2 || cvp(pd, &k, two) == VK_INCOMPLETE, "VK_INCOMPLETE for 2 of %u", n);
    }
    if (cmp) {
        uint32_t n = 0;
        CHECK(cmp(pd, &n, NULL) == VK_SUCCESS && n > 0, "%u KHR combinations", n);
    }
    VkPhysicalDeviceCooperativeVectorPropertiesNV cv = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_PROPERTIES_NV};
    VkPhysicalDeviceCooperativeMatrix2PropertiesNV c2 = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_PROPERTIES_NV, &cv};
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &c2};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    cvm_limits lim;
    cvm_get_limits(&lim);
    CHECK(c2.cooperativeMatrixFlexibleDimensionsMaxDimension == lim.max_matrix_dimension &&
              cv.maxCooperativeVectorComponents == lim.max_cooperative_vector_components,
          "limits as cvm_get_limits gives them");
    VkPhysicalDeviceCooperativeVectorFeaturesNV cvf = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_FEATURES_NV};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &cvf};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    CHECK(cvf.cooperativeVector == (VkBool32)cvm_supports_feature(
                                       "CooperativeVectorFeaturesNV.cooperativeVector") &&
              cvf.cooperativeVectorTraining ==
                  (VkBool32)cvm_supports_feature("CooperativeVectorFeaturesNV.cooperativeVectorTraining"),
          "cooperative-vector features as the engine says");
    /* VK_EXT_shader_long_vector (SPV_EXT_long_vector, which the engine
     * runs): listed, its feature on, maxVectorComponents the engine's bound,
     * at least the 1024 components the CTS's cooperative_vector.longvec.*
     * use, and a device created with the feature enabled */
    uint32_t next = 0;
    CHECK(vkEnumerateDeviceExtensionProperties(pd, NULL, &next, NULL) == VK_SUCCESS, "count");
    VkExtensionProperties *ep = calloc(next ? next : 1, sizeof(*ep));
    int listed = 0;
    if (ep && vkEnumerateDeviceExtensionProperties(pd, NULL, &next, ep) == VK_SUCCESS)
        for (uint32_t i = 0; i < next; i++)
            listed |= !strcmp(ep[i].extensionName, "VK_EXT_shader_long_vector");
    free(ep);
    CHECK(listed, "VK_EXT_shader_long_vector listed");
    VkPhysicalDeviceShaderLongVectorFeaturesEXT lvf = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 lf2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &lvf};
    vkGetPhysicalDeviceFeatures2(pd, &lf2);
    CHECK(lvf.longVector == VK_TRUE, "longVector");
    VkPhysicalDeviceShaderLongVectorPropertiesEXT lvp = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 lp2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &lvp};
    vkGetPhysicalDeviceProperties2(pd, &lp2);
    CHECK(lvp.maxVectorComponents == lim.max_cooperative_vector_components &&
              lvp.maxVectorComponents >= 1024,
          "maxVectorComponents %u", lvp.maxVectorComponents);
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    const char *lext[] = {"VK_EXT_shader_long_vector"};
    lvf.longVector = VK_TRUE;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &lvf, 0, 1, &qci, 0, NULL, 1, lext,
                              NULL};
    VkDevice ldev = VK_NULL_HANDLE;
    CHECK(vkCreateDevice(pd, &dci, NULL, &ldev) == VK_SUCCESS, "a device with longVector");
    if (ldev)
        vkDestroyDevice(ldev, NULL);
}

/* vkCmdConvertCooperativeVectorMatrixNV into weight sets laid out as the
 * CTS's cooperative_vector.matmul.* lay them out: each set a row-major
 * source, then the converted matrix at the next multiple of 64 bytes, the
 * set's size the source plus the reported size rounded up to 64.  With the
 * reported size a multiple of 64 the last set's matrix ends at the buffer's
 * end (with the 200 bytes of a tight 5 x 40 int8 matrix it ended past it,
 * and the command failed with CVM_INCOMPLETE); pDstSize is read when the
 * command is recorded, its variable gone by the submission. */
static void record_convert(VkCommandBuffer cb, PFN_vkCmdConvertCooperativeVectorMatrixNV cmd,
                           VkDeviceAddress base, size_t set, size_t raw, size_t opt, size_t size)
{
    size_t dst_size = size;
    VkConvertCooperativeVectorMatrixInfoNV ci[2];
    for (int w = 0; w < 2; w++) {
        memset(&ci[w], 0, sizeof(ci[w]));
        ci[w].sType = VK_STRUCTURE_TYPE_CONVERT_COOPERATIVE_VECTOR_MATRIX_INFO_NV;
        ci[w].srcSize = raw;
        ci[w].srcData.deviceAddress = base + w * set;
        ci[w].pDstSize = &dst_size;
        ci[w].dstData.deviceAddress = base + w * set + opt;
        ci[w].srcComponentType = ci[w].dstComponentType = VK_COMPONENT_TYPE_SINT8_KHR;
        ci[w].numRows = 5;
        ci[w].numColumns = 40;
        ci[w].srcLayout = VK_COOPERATIVE_VECTOR_MATRIX_LAYOUT_ROW_MAJOR_NV;
        ci[w].srcStride = 48;
        ci[w].dstLayout = VK_COOPERATIVE_VECTOR_MATRIX_LAYOUT_TRAINING_OPTIMAL_NV;
    }
    cmd(cb, 2, ci);
}

static void test_device_convert(void)
{
    VkDevice dev = make_device();
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    PFN_vkConvertCooperativeVectorMatrixNV convert =
        (PFN_vkConvertCooperativeVectorMatrixNV)vkGetDeviceProcAddr(
            dev, "vkConvertCooperativeVectorMatrixNV");
    PFN_vkCmdConvertCooperativeVectorMatrixNV cmd =
        (PFN_vkCmdConvertCooperativeVectorMatrixNV)vkGetDeviceProcAddr(
            dev, "vkCmdConvertCooperativeVectorMatrixNV");
    CHECK(convert && cmd, "the conversion commands");
    if (!convert || !cmd) {
        vkDestroyDevice(dev, NULL);
        return;
    }
    size_t size = 0;
    VkConvertCooperativeVectorMatrixInfoNV qi = {
        VK_STRUCTURE_TYPE_CONVERT_COOPERATIVE_VECTOR_MATRIX_INFO_NV};
    qi.pDstSize = &size;
    qi.srcComponentType = qi.dstComponentType = VK_COMPONENT_TYPE_SINT8_KHR;
    qi.numRows = 5;
    qi.numColumns = 40;
    qi.srcLayout = VK_COOPERATIVE_VECTOR_MATRIX_LAYOUT_ROW_MAJOR_NV;
    qi.srcStride = 48;
    qi.dstLayout = VK_COOPERATIVE_VECTOR_MATRIX_LAYOUT_TRAINING_OPTIMAL_NV;
    CHECK(convert(dev, &qi) == VK_SUCCESS && size == 256, "size query: %zu (200 padded to 256)",
          size);
    size_t raw = 5 * 48, opt = (raw + 63) / 64 * 64, set = (raw + size + 63) / 64 * 64;
    buffer b = make_buffer(dev, 2 * set);
    uint8_t *m = (uint8_t *)b.map;
    memset(m, 0xEE, 2 * set);
    for (size_t w = 0; w < 2; w++)
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 40; c++)
                m[w * set + r * 48 + c] = (uint8_t)(w * 101 + r * 40 + c);
    VkBufferDeviceAddressInfo ai = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, b.buf};
    VkDeviceAddress base = vkGetBufferDeviceAddress(dev, &ai);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VkCommandPool pool;
    VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBuffer cb;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &cb));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cb, &cbi));
    record_convert(cb, cmd, base, set, raw, opt, size);
    VK(vkEndCommandBuffer(cb));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cb, 0, NULL};
    VkResult r = vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE);
    CHECK(r == VK_SUCCESS, "submit -> %d", (int)r);
    if (r == VK_SUCCESS)
        VK(vkQueueWaitIdle(q));
    /* coopvm's training-optimal layout: the elements in tight row-major
     * order (coopvm.h), then zeros up to the reported size */
    int bad = 0;
    for (size_t w = 0; w < 2 && r == VK_SUCCESS; w++)
        for (size_t i = 0; i < size; i++) {
            uint8_t want = i < 200 ? (uint8_t)(w * 101 + i) : 0;
            if (m[w * set + opt + i] != want && bad++ < 4)
                CHECK(0, "set %zu byte %zu: %02x, want %02x", w, i, m[w * set + opt + i], want);
        }
    vkDestroyCommandPool(dev, pool, NULL);
    free_buffer(dev, &b);
    vkDestroyDevice(dev, NULL);
}

int main(void)
{
    VkApplicationInfo ai = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "test_icd", 1, NULL, 0,
                            VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &ai};
    VK(vkCreateInstance(&ici, NULL, &inst));
    uint32_t n = 1;
    VK(vkEnumeratePhysicalDevices(inst, &n, &pd));
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (strcmp(props.deviceName, "coopvm (CPU)")) {
        fprintf(stderr, "the first device is %s: set VK_DRIVER_FILES to coopvm_icd.json\n",
                props.deviceName);
        return 1;
    }
    test_queries();
    test_dispatches();
    test_device_lost();
    test_device_convert();
    vkDestroyInstance(inst, NULL);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("all checks passed\n");
    return failures ? 1 : 0;
}
