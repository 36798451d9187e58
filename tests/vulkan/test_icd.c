/* The ICD's API paths that vkrun does not take, through the system's Vulkan
 * loader (VK_DRIVER_FILES names the ICD): a dynamic storage-buffer offset,
 * push constants, a specialization constant, a required subgroup size,
 * vkCmdDispatchBase, vkCmdDispatchIndirect, fill/update/copy buffer,
 * timestamps, events, a timeline semaphore signalled by a submission and
 * waited for on the host, secondary command buffers, the cooperative-vector
 * queries and conversion, the refusal of graphics, and a shader error that
 * loses the device with the engine's message in vkGetDeviceFaultInfoEXT,
 * and the profile that COOPVM_VK_PROFILE writes.
 *
 * The shader is icd_api.comp (icd_api.spvasm, assembled here with
 * cvm_assemble): dst[i] = src[i] * mul + add + SubgroupSize * 65536 for
 * i = GlobalInvocationId.x.  Each expected value below is that formula on the
 * inputs the test writes. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkstemp */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static VkDevice make_device_with(const char *extra_extension);

static VkDevice make_device(void)
{
    return make_device_with(NULL);
}

/* The device of the tests, with `extra_extension` (when not NULL) enabled too. */
static VkDevice make_device_with(const char *extra_extension)
{
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    VkPhysicalDeviceVulkan13Features f13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.subgroupSizeControl = VK_TRUE;
    f13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
    f12.timelineSemaphore = VK_TRUE;
    f12.bufferDeviceAddress = VK_TRUE;
    const char *exts[] = {"VK_NV_cooperative_vector", "VK_EXT_device_fault", extra_extension};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12, 0, 1, &qci, 0, NULL,
                              extra_extension ? 3 : 2, exts, NULL};
    VkDevice dev;
    VK(vkCreateDevice(pd, &dci, NULL, &dev));
    return dev;
}

static char *read_shader_text(size_t *o_len)
{
    FILE *f = fopen(CVK_TEST_DIR "/icd_api.spvasm", "rb");
    if (!f) {
        fprintf(stderr, "cannot open icd_api.spvasm\n");
        exit(1);
    }
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = 0;
    *o_len = n;
    return text;
}

static uint32_t *assemble_text(const char *text, size_t n, size_t *o_words)
{
    uint32_t *words;
    cvm_diagnostic diag;
    if (cvm_assemble(text, n, 0, "vulkan1.3", &words, o_words, &diag) != CVM_SUCCESS) {
        fprintf(stderr, "icd_api.spvasm:%u: %s\n", diag.line, diag.message);
        exit(1);
    }
    return words;
}

static uint32_t *assemble(size_t *o_words)
{
    size_t n;
    const char *text = read_shader_text(&n);
    return assemble_text(text, n, o_words);
}

typedef struct pipeline {
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkPipeline pipe;
    VkDescriptorPool pool;
    VkDescriptorSet set, set2;
} pipeline;

/* The pipeline of `words` with a set layout of `nb` bindings, and two sets
 * of it (nothing written). */
static pipeline make_pipeline_with(VkDevice dev, const VkDescriptorSetLayoutBinding *b, uint32_t nb,
                                   const uint32_t *words, size_t nwords)
{
    pipeline p;
    VkDescriptorSetLayoutCreateInfo dci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL,
                                           0, nb, b};
    VK(vkCreateDescriptorSetLayout(dev, &dci, NULL, &p.dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1,
                                       &p.dsl, 1, &pcr};
    VK(vkCreatePipelineLayout(dev, &plci, NULL, &p.layout));
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                     nwords * 4, words};
    VkShaderModule sm;
    VK(vkCreateShaderModule(dev, &smci, NULL, &sm));
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
    VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 4},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}};
    VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL,
                                       VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, 2, 3, ps};
    VK(vkCreateDescriptorPool(dev, &dpci, NULL, &p.pool));
    VkDescriptorSetLayout layouts[2] = {p.dsl, p.dsl};
    VkDescriptorSet sets[2];
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, p.pool,
                                        2, layouts};
    VK(vkAllocateDescriptorSets(dev, &dsai, sets));
    p.set = sets[0];
    p.set2 = sets[1];
    return p;
}

/* The pipeline and a set with src (dynamic, `src_range` bytes) and dst. */
static pipeline make_pipeline(VkDevice dev, VkBuffer src, VkDeviceSize src_range, VkBuffer dst)
{
    VkDescriptorSetLayoutBinding b[2] = {
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    size_t nwords;
    uint32_t *words = assemble(&nwords);
    pipeline p = make_pipeline_with(dev, b, 2, words, nwords);
    cvm_free(words);
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
     * inferencing-optimal, coopvm's tight row-major, its size (12 bytes)
     * rounded up to 64 (coopvm.h), the padding zero */
    PFN_vkConvertCooperativeVectorMatrixNV convert =
        (PFN_vkConvertCooperativeVectorMatrixNV)vkGetDeviceProcAddr(dev,
                                                                    "vkConvertCooperativeVectorMatrixNV");
    CHECK(convert != NULL, "vkConvertCooperativeVectorMatrixNV");
    if (convert) {
        float m[6] = {1, -2, 0.5f, 3, 4, -0.25f};
        uint16_t out[32];
        memset(out, 0xff, sizeof(out));
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
        CHECK(convert(dev, &ci) == VK_SUCCESS && size == sizeof(out), "size query: %zu", size);
        ci.dstData.hostAddress = out;
        size_t room = sizeof(out) - 1; /* one byte short: nothing written */
        ci.pDstSize = &room;
        CHECK(convert(dev, &ci) == VK_INCOMPLETE && out[0] == 0xffff, "conversion into %zu bytes",
              room);
        ci.pDstSize = &size;
        CHECK(convert(dev, &ci) == VK_SUCCESS && size == sizeof(out), "conversion: %zu bytes",
              size);
        for (int i = 6; i < 32; i++)
            CHECK(out[i] == 0, "padding %d: %04x", i, out[i]);
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

/* ---- descriptors the pipeline does not use --------------------------------

 * A set shaped like ggml's shared one: the shader's bindings 0 (src,
 * dynamic) and 1 (dst), and bindings it never uses, of every buffer
 * descriptor type, which the tests below point at buffers that are then
 * destroyed and their memory freed.  Vulkan asks only the descriptors a
 * dispatch statically uses to be valid (VUID-vkCmdDispatch-None-08114), so
 * each dispatch must still give dst[i] = expected(src[i]). */
static const VkDescriptorSetLayoutBinding wide_bindings[] = {
    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {4, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};
#define WIDE_UNUSED 5 /* descriptors in bindings 2 .. 5 */
#define WIDE_DYNAMIC 3

typedef struct wide {
    VkDevice dev;
    VkQueue q;
    VkCommandPool cmd_pool;
    buffer src, dst;
    buffer junk[WIDE_UNUSED];
    pipeline p;
} wide;

static wide make_wide(void)
{
    wide w;
    w.dev = make_device();
    vkGetDeviceQueue(w.dev, 0, 0, &w.q);
    w.src = make_buffer(w.dev, 4 * N);
    w.dst = make_buffer(w.dev, 4 * N);
    for (uint32_t i = 0; i < N; i++)
        w.src.map[i] = 11 * i + 1;
    for (int i = 0; i < WIDE_UNUSED; i++)
        w.junk[i] = make_buffer(w.dev, 256);
    size_t nwords;
    uint32_t *words = assemble(&nwords);
    w.p = make_pipeline_with(w.dev, wide_bindings, 6, words, nwords);
    cvm_free(words);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VK(vkCreateCommandPool(w.dev, &cpci, NULL, &w.cmd_pool));
    return w;
}

/* Writes src and dst to bindings 0 and 1 of `set`. */
static void write_used(wide *w, VkDescriptorSet set, VkBuffer dst)
{
    VkDescriptorBufferInfo bi[2] = {{w->src.buf, 0, VK_WHOLE_SIZE}, {dst, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet wr[2] = {
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 0, 0, 1,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, NULL, &bi[0], NULL},
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 1, 0, 1,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[1], NULL}};
    vkUpdateDescriptorSets(w->dev, 2, wr, 0, NULL);
}

/* Points bindings 2 .. 5 of `set` at the junk buffers. */
static void write_unused(wide *w, VkDescriptorSet set)
{
    VkDescriptorBufferInfo bi[WIDE_UNUSED];
    for (int i = 0; i < WIDE_UNUSED; i++)
        bi[i] = (VkDescriptorBufferInfo){w->junk[i].buf, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet wr[4] = {
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 2, 0, 2,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[0], NULL},
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 3, 0, 1,
         VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, NULL, &bi[2], NULL},
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 4, 0, 1,
         VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, NULL, &bi[3], NULL},
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 5, 0, 1,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, NULL, &bi[4], NULL}};
    vkUpdateDescriptorSets(w->dev, 4, wr, 0, NULL);
}

static void free_junk(wide *w)
{
    for (int i = 0; i < WIDE_UNUSED; i++)
        free_buffer(w->dev, &w->junk[i]);
}

static PFN_vkCmdBindShadersEXT bind_shaders;

/* One dispatch over the N invocations with `set`, of the pipeline or (when
 * not VK_NULL_HANDLE) of `shader`; returns the submission's result. */
static VkResult dispatch_with(wide *w, VkDescriptorSet set, VkShaderEXT shader)
{
    VkCommandBuffer cb;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
                                       w->cmd_pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(w->dev, &cai, &cb));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cb, &cbi));
    if (shader) {
        VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
        bind_shaders(cb, 1, &stage, &shader);
    } else
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, w->p.pipe);
    uint32_t dyn[WIDE_DYNAMIC] = {0, 0, 0}, add = ADD;
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, w->p.layout, 0, 1, &set,
                            WIDE_DYNAMIC, dyn);
    vkCmdPushConstants(cb, w->p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
    vkCmdDispatch(cb, N / 4, 1, 1);
    VK(vkEndCommandBuffer(cb));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cb, 0, NULL};
    VkResult r = vkQueueSubmit(w->q, 1, &si, VK_NULL_HANDLE);
    if (r == VK_SUCCESS)
        r = vkQueueWaitIdle(w->q);
    vkFreeCommandBuffers(w->dev, w->cmd_pool, 1, &cb);
    return r;
}

static VkResult dispatch_wide(wide *w, VkDescriptorSet set)
{
    return dispatch_with(w, set, VK_NULL_HANDLE);
}

static void check_dst(const buffer *dst, const buffer *src, const char *what)
{
    int bad = 0;
    for (uint32_t i = 0; i < N && bad < 4; i++)
        if (dst->map[i] != expected(src->map[i])) {
            CHECK(0, "%s: dst[%u] = 0x%x, want 0x%x", what, i, dst->map[i], expected(src->map[i]));
            bad++;
        }
}

static void free_wide(wide *w)
{
    vkDestroyCommandPool(w->dev, w->cmd_pool, NULL);
    free_pipeline(w->dev, &w->p);
    free_buffer(w->dev, &w->src);
    free_buffer(w->dev, &w->dst);
    vkDestroyDevice(w->dev, NULL);
}

/* Unused bindings name buffers destroyed (memory freed) before the dispatch. */
static void test_unused_binding_freed(void)
{
    wide w = make_wide();
    write_used(&w, w.p.set, w.dst.buf);
    write_unused(&w, w.p.set);
    free_junk(&w);
    VkResult r = dispatch_wide(&w, w.p.set);
    CHECK(r == VK_SUCCESS, "dispatch with freed unused descriptors -> %d", (int)r);
    check_dst(&w.dst, &w.src, "freed unused descriptors");
    /* freeing the set and resetting the pool look at no buffer either */
    CHECK(vkFreeDescriptorSets(w.dev, w.p.pool, 1, &w.p.set) == VK_SUCCESS, "free the set");
    CHECK(vkResetDescriptorPool(w.dev, w.p.pool, 0) == VK_SUCCESS, "reset the pool");
    free_wide(&w);
}

/* A set copied (vkUpdateDescriptorSets' copies) from one whose unused
 * entries name freed buffers: the copy and the dispatch with it. */
static void test_copy_freed(void)
{
    wide w = make_wide();
    write_unused(&w, w.p.set);
    free_junk(&w);
    write_used(&w, w.p.set, w.dst.buf);
    VkCopyDescriptorSet c[6];
    for (uint32_t i = 0; i < 6; i++)
        c[i] = (VkCopyDescriptorSet){VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, NULL, w.p.set, i, 0,
                                     w.p.set2, i, 0, wide_bindings[i].descriptorCount};
    vkUpdateDescriptorSets(w.dev, 0, NULL, 6, c);
    memset(w.dst.map, 0, 4 * N);
    VkResult r = dispatch_wide(&w, w.p.set2);
    CHECK(r == VK_SUCCESS, "dispatch with a copied set -> %d", (int)r);
    check_dst(&w.dst, &w.src, "copied set");
    free_wide(&w);
}

/* Writes after the unused entries' buffers were destroyed: of the used
 * bindings (vkUpdateDescriptorSets, then an update template), then a
 * dispatch, then a write of the unused binding with a live buffer. */
static void test_update_after_destroy(void)
{
    wide w = make_wide();
    write_unused(&w, w.p.set);
    free_junk(&w);
    buffer dst2 = make_buffer(w.dev, 4 * N);
    write_used(&w, w.p.set, w.dst.buf);
    VkDescriptorUpdateTemplateEntry te = {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0,
                                          sizeof(VkDescriptorBufferInfo)};
    VkDescriptorUpdateTemplateCreateInfo tci = {
        VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, NULL, 0, 1, &te,
        VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET, w.p.dsl, VK_PIPELINE_BIND_POINT_COMPUTE,
        VK_NULL_HANDLE, 0};
    VkDescriptorUpdateTemplate t;
    VK(vkCreateDescriptorUpdateTemplate(w.dev, &tci, NULL, &t));
    VkDescriptorBufferInfo bi = {dst2.buf, 0, VK_WHOLE_SIZE};
    vkUpdateDescriptorSetWithTemplate(w.dev, w.p.set, t, &bi);
    vkDestroyDescriptorUpdateTemplate(w.dev, t, NULL);
    VkResult r = dispatch_wide(&w, w.p.set);
    CHECK(r == VK_SUCCESS, "dispatch after the updates -> %d", (int)r);
    check_dst(&dst2, &w.src, "dst written by the template");
    VkDescriptorBufferInfo live = {w.src.buf, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet wr = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, w.p.set, 2, 1, 1,
                               VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &live, NULL};
    vkUpdateDescriptorSets(w.dev, 1, &wr, 0, NULL);
    memset(dst2.map, 0, 4 * N);
    r = dispatch_wide(&w, w.p.set);
    CHECK(r == VK_SUCCESS, "dispatch after the unused write -> %d", (int)r);
    check_dst(&dst2, &w.src, "second dispatch");
    free_buffer(w.dev, &dst2);
    free_wide(&w);
}

/* A module that declares a buffer (set 0, binding 7) that only a function
 * the entry point never calls uses: the entry point does not statically use
 * it, so it needs no descriptor (the set layout lacks binding 7). */
static void test_static_use(void)
{
    size_t n;
    const char *text = read_shader_text(&n);
    static char edited[1 << 16];
    const char *deco = "OpDecorate %src Binding 0\n";
    const char *var = "%src = OpVariable %_ptr_StorageBuffer_In StorageBuffer\n";
    const char *at_deco = strstr(text, deco), *at_var = strstr(text, var);
    CHECK(at_deco && at_var && at_deco < at_var, "icd_api.spvasm has the lines to edit");
    if (!at_deco || !at_var || at_deco > at_var)
        return;
    at_deco += strlen(deco);
    at_var += strlen(var);
    snprintf(edited, sizeof(edited),
             "%.*sOpDecorate %%unused DescriptorSet 0\nOpDecorate %%unused Binding 7\n"
             "%.*s%%unused = OpVariable %%_ptr_StorageBuffer_Out StorageBuffer\n"
             "%s"
             "%%other = OpFunction %%void None %%3\n%%olabel = OpLabel\n"
             "%%optr = OpAccessChain %%_ptr_StorageBuffer_uint %%unused %%int_0 %%uint_0\n"
             "OpStore %%optr %%uint_1\nOpReturn\nOpFunctionEnd\n",
             (int)(at_deco - text), text, (int)(at_var - at_deco), at_deco, at_var);
    size_t nwords;
    uint32_t *words = assemble_text(edited, strlen(edited), &nwords);

    /* the engine's answer: src and dst used, unused not */
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    cvm_diagnostic diag;
    CHECK(cvm_context_create(NULL, &ctx, &diag) == CVM_SUCCESS, "context: %s", diag.message);
    CHECK(ctx && cvm_module_create(ctx, words, nwords, &mod, &diag) == CVM_SUCCESS, "module: %s",
          diag.message);
    CHECK(mod && cvm_pipeline_create(mod, "main", NULL, 0, &pipe, &diag) == CVM_SUCCESS,
          "pipeline: %s", diag.message);
    uint32_t count = cvm_pipeline_resource_count(pipe);
    CHECK(count == 3, "%u resources", count);
    int seen = 0;
    for (uint32_t i = 0; i < count; i++) {
        cvm_pipeline_resource res;
        CHECK(cvm_pipeline_get_resource(pipe, i, &res) == 1, "resource %u", i);
        CHECK(res.set == 0 && res.array_size == 1 && res.storage_class == 12,
              "resource %u: set %u, %u elements, storage class %u", i, res.set, res.array_size,
              res.storage_class);
        CHECK(res.statically_used == (res.binding != 7), "binding %u: statically used %u",
              res.binding, res.statically_used);
        seen |= 1 << res.binding;
    }
    CHECK(seen == (1 | 2 | 128), "bindings 0, 1, 7: mask 0x%x", seen);
    cvm_pipeline_resource res;
    CHECK(cvm_pipeline_get_resource(pipe, count, &res) == 0, "past the count");
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);

    /* through the ICD, with a layout without binding 7 */
    wide w;
    w.dev = make_device();
    vkGetDeviceQueue(w.dev, 0, 0, &w.q);
    w.src = make_buffer(w.dev, 4 * N);
    w.dst = make_buffer(w.dev, 4 * N);
    for (uint32_t i = 0; i < N; i++)
        w.src.map[i] = 5 * i + 2;
    w.p = make_pipeline_with(w.dev, wide_bindings, 6, words, nwords);
    cvm_free(words);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VK(vkCreateCommandPool(w.dev, &cpci, NULL, &w.cmd_pool));
    write_used(&w, w.p.set, w.dst.buf);
    VkResult r = dispatch_wide(&w, w.p.set);
    CHECK(r == VK_SUCCESS, "dispatch without binding 7 -> %d", (int)r);
    check_dst(&w.dst, &w.src, "binding 7 not statically used");
    free_wide(&w);
}

/* ---- VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819 ---------------------
 * "the pointer value of a memory access instruction in the
 * PhysicalStorageBuffer Storage Class must reference a buffer created with
 * the VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT usage flag set": only such
 * buffers get a device address.  A shader reads 4 words through the
 * PhysicalStorageBuffer pointer params[0] (a uint64) into dst.  On a robust
 * device (an address in no buffer reads 0) the address of the one buffer
 * with the usage bit reads its words, and every other address the engine
 * could give a buffer (spaced as cvm_buffer_device_address spaces them)
 * reads zero: never the words of the buffers created without the bit. */
static const char psb_shader[] =
    "OpCapability Shader\nOpCapability Int64\nOpCapability PhysicalStorageBufferAddresses\n"
    "OpMemoryModel PhysicalStorageBuffer64 GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %lid %dst %params\n"
    "OpExecutionMode %main LocalSize 4 1 1\n"
    "OpDecorate %lid BuiltIn LocalInvocationIndex\n"
    "OpDecorate %rt ArrayStride 4\nOpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %P Block\nOpMemberDecorate %P 0 Offset 0\n"
    "OpDecorate %dst DescriptorSet 0\nOpDecorate %dst Binding 0\n"
    "OpDecorate %params DescriptorSet 0\nOpDecorate %params Binding 1\n"
    "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n"
    "%rt = OpTypeRuntimeArray %uint\n%B = OpTypeStruct %rt\n%P = OpTypeStruct %ulong\n"
    "%pB = OpTypePointer StorageBuffer %B\n%pP = OpTypePointer StorageBuffer %P\n"
    "%pu = OpTypePointer StorageBuffer %uint\n%pl = OpTypePointer StorageBuffer %ulong\n"
    "%ppsb = OpTypePointer PhysicalStorageBuffer %uint\n%pin = OpTypePointer Input %uint\n"
    "%dst = OpVariable %pB StorageBuffer\n%params = OpVariable %pP StorageBuffer\n"
    "%lid = OpVariable %pin Input\n"
    "%c0 = OpConstant %uint 0\n%c4 = OpConstant %ulong 4\n"
    "%main = OpFunction %void None %fn\n%entry = OpLabel\n"
    "%li = OpLoad %uint %lid\n%pa = OpAccessChain %pl %params %c0\n%a = OpLoad %ulong %pa\n"
    "%li64 = OpUConvert %ulong %li\n%off = OpIMul %ulong %li64 %c4\n"
    "%ad = OpIAdd %ulong %a %off\n%p = OpConvertUToPtr %ppsb %ad\n"
    "%x = OpLoad %uint %p Aligned 4\n%pd = OpAccessChain %pu %dst %c0 %li\nOpStore %pd %x\n"
    "OpReturn\nOpFunctionEnd\n";

static buffer make_buffer_usage(VkDevice dev, VkDeviceSize size, VkBufferUsageFlags usage)
{
    buffer b;
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    VK(vkCreateBuffer(dev, &bci, NULL, &b.buf));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, b.buf, &mr);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, mr.size, 0};
    VK(vkAllocateMemory(dev, &mai, NULL, &b.mem));
    VK(vkBindBufferMemory(dev, b.buf, b.mem, 0));
    VK(vkMapMemory(dev, b.mem, 0, size, 0, (void **)&b.map));
    return b;
}

static void test_device_address_usage(void)
{
    /* the spacing of the engine's device addresses, from its public API */
    cvm_context *ctx = NULL;
    cvm_buffer *cb0 = NULL, *cb1 = NULL;
    static uint32_t mem0[4], mem1[4];
    VK(cvm_context_create(NULL, &ctx, NULL) == CVM_SUCCESS ? VK_SUCCESS : VK_ERROR_UNKNOWN);
    VK(cvm_buffer_create(ctx, mem0, sizeof(mem0), &cb0, NULL) == CVM_SUCCESS ? VK_SUCCESS
                                                                              : VK_ERROR_UNKNOWN);
    VK(cvm_buffer_create(ctx, mem1, sizeof(mem1), &cb1, NULL) == CVM_SUCCESS ? VK_SUCCESS
                                                                              : VK_ERROR_UNKNOWN);
    uint64_t spacing = cvm_buffer_device_address(cb1) - cvm_buffer_device_address(cb0);
    cvm_buffer_destroy(cb0);
    cvm_buffer_destroy(cb1);
    cvm_context_destroy(ctx);

    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.bufferDeviceAddress = VK_TRUE;
    VkPhysicalDeviceFeatures feats;
    memset(&feats, 0, sizeof(feats));
    feats.robustBufferAccess = VK_TRUE;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12, 0, 1, &qci, 0, NULL,
                              0, NULL, &feats};
    VkDevice dev;
    VK(vkCreateDevice(pd, &dci, NULL, &dev));
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    /* the buffers without the bit first: with it ignored they would take
     * the first addresses */
    const VkBufferUsageFlags plain = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    buffer x = make_buffer_usage(dev, 256, plain), dst = make_buffer_usage(dev, 256, plain),
           params = make_buffer_usage(dev, 256, plain),
           y = make_buffer_usage(dev, 256, plain | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    for (uint32_t i = 0; i < 64; i++) {
        x.map[i] = 0xC0FFEE00u + i;
        y.map[i] = 0x5EED0000u + i;
        params.map[i] = 0;
    }
    VkBufferDeviceAddressInfo ai = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, y.buf};
    VkDeviceAddress ay = vkGetBufferDeviceAddress(dev, &ai);
    CHECK(ay != 0 && spacing != 0, "address %llx, spacing %llx", (unsigned long long)ay,
          (unsigned long long)spacing);

    static const VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    size_t nwords;
    uint32_t *words = assemble_text(psb_shader, strlen(psb_shader), &nwords);
    pipeline p = make_pipeline_with(dev, b, 2, words, nwords);
    cvm_free(words);
    VkDescriptorBufferInfo bi[2] = {{dst.buf, 0, VK_WHOLE_SIZE}, {params.buf, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet wr[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, p.set, 0, 0, 1,
                                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[0], NULL},
                                  {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, p.set, 1, 0, 1,
                                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[1], NULL}};
    vkUpdateDescriptorSets(dev, 2, wr, 0, NULL);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VkCommandPool pool;
    VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cmd, &cbi));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 0, NULL);
    vkCmdDispatch(cmd, 1, 1, 1);
    VK(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cmd, 0, NULL};
    for (int j = -4; j <= 4; j++) {
        uint64_t a = ay + (uint64_t)(int64_t)j * spacing;
        memcpy(params.map, &a, 8);
        for (uint32_t i = 0; i < 4; i++)
            dst.map[i] = 0xFFFFFFFFu;
        VkResult r = vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE);
        CHECK(r == VK_SUCCESS, "address %llx: submit -> %d", (unsigned long long)a, (int)r);
        if (r != VK_SUCCESS)
            break;
        VK(vkQueueWaitIdle(q));
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t want = j == 0 ? 0x5EED0000u + i : 0;
            CHECK(dst.map[i] == want, "address %llx (%+d buffers from the one with the bit): "
                  "word %u = 0x%x, want 0x%x", (unsigned long long)a, j, i, dst.map[i], want);
        }
    }
    vkDestroyCommandPool(dev, pool, NULL);
    free_pipeline(dev, &p);
    free_buffer(dev, &x);
    free_buffer(dev, &dst);
    free_buffer(dev, &params);
    free_buffer(dev, &y);
    vkDestroyDevice(dev, NULL);
}

/* ---- VUID-OpCooperativeMatrix-12379 ------------------------------------------
 * "If any OpCooperativeMatrix* instructions accesses a descriptor, it must
 * not be a null descriptor": a KHR load through a descriptor written with
 * VK_NULL_HANDLE loses the device, the fault naming the VUID. */
static const char null_desc_shader[] =
    "OpCapability Shader\nOpCapability VulkanMemoryModel\nOpCapability CooperativeMatrixKHR\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpMemoryModel Logical Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %src %dst\nOpExecutionMode %main LocalSize 8 1 1\n"
    "OpDecorate %rt ArrayStride 4\nOpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0\n"
    "OpDecorate %src DescriptorSet 0\nOpDecorate %src Binding 0\n"
    "OpDecorate %dst DescriptorSet 0\nOpDecorate %dst Binding 1\n"
    "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n%c0 = OpConstant %uint 0\n%c2 = OpConstant %uint 2\n"
    "%c3 = OpConstant %uint 3\n%c8 = OpConstant %uint 8\n"
    "%rt = OpTypeRuntimeArray %float\n%B = OpTypeStruct %rt\n"
    "%pB = OpTypePointer StorageBuffer %B\n%pf = OpTypePointer StorageBuffer %float\n"
    "%src = OpVariable %pB StorageBuffer\n%dst = OpVariable %pB StorageBuffer\n"
    "%mat = OpTypeCooperativeMatrixKHR %float %c3 %c8 %c8 %c2\n"
    "%main = OpFunction %void None %fn\n%entry = OpLabel\n"
    "%ps = OpAccessChain %pf %src %c0 %c0\n%m = OpCooperativeMatrixLoadKHR %mat %ps %c0 %c8\n"
    "%pd = OpAccessChain %pf %dst %c0 %c0\nOpCooperativeMatrixStoreKHR %pd %m %c0 %c8\n"
    "OpReturn\nOpFunctionEnd\n";

static void test_null_descriptor_coopmat(void)
{
    VkDevice dev = make_device();
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    buffer src = make_buffer(dev, 256), dst = make_buffer(dev, 256);
    static const VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    size_t nwords;
    uint32_t *words = assemble_text(null_desc_shader, strlen(null_desc_shader), &nwords);
    pipeline p = make_pipeline_with(dev, b, 2, words, nwords);
    cvm_free(words);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VkCommandPool pool;
    VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cmd, 0, NULL};
    for (int null_src = 0; null_src < 2; null_src++) {
        /* first the twin (src a buffer: the tile copied), then src null */
        VkDescriptorBufferInfo bi[2] = {{null_src ? VK_NULL_HANDLE : src.buf, 0, VK_WHOLE_SIZE},
                                        {dst.buf, 0, VK_WHOLE_SIZE}};
        VkWriteDescriptorSet wr[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, p.set, 0, 0,
                                       1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[0], NULL},
                                      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, p.set, 1, 0,
                                       1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[1], NULL}};
        vkUpdateDescriptorSets(dev, 2, wr, 0, NULL);
        for (uint32_t i = 0; i < 64; i++) {
            src.map[i] = 1000 + i;
            dst.map[i] = 0;
        }
        VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        VK(vkBeginCommandBuffer(cmd, &cbi));
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipe);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 0,
                                NULL);
        vkCmdDispatch(cmd, 1, 1, 1);
        VK(vkEndCommandBuffer(cmd));
        VkResult r = vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE);
        if (!null_src) {
            CHECK(r == VK_SUCCESS, "the load through a buffer -> %d", (int)r);
            VK(vkQueueWaitIdle(q));
            CHECK(!memcmp(dst.map, src.map, 64 * 4), "the tile: dst[5] = %u", dst.map[5]);
            VK(vkResetCommandBuffer(cmd, 0));
            continue;
        }
        CHECK(r == VK_ERROR_DEVICE_LOST, "the load through a null descriptor -> %d", (int)r);
        PFN_vkGetDeviceFaultInfoEXT fault =
            (PFN_vkGetDeviceFaultInfoEXT)vkGetDeviceProcAddr(dev, "vkGetDeviceFaultInfoEXT");
        if (fault) {
            VkDeviceFaultCountsEXT counts = {VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
            VkDeviceFaultInfoEXT info = {VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
            CHECK(fault(dev, &counts, &info) == VK_SUCCESS, "fault query");
            CHECK(strstr(info.description, "VUID-OpCooperativeMatrix-12379") != NULL,
                  "description: %s", info.description);
        }
    }
    vkDestroyCommandPool(dev, pool, NULL);
    free_pipeline(dev, &p);
    free_buffer(dev, &src);
    free_buffer(dev, &dst);
    vkDestroyDevice(dev, NULL);
}

/* The cooperative-matrix combinations the CTS looks for
 * (vktComputeCooperativeMatrixTests.cpp's checkSupport): A = B = an input
 * type, C = Result = an output type, at subgroup scope in the KHR list and
 * at subgroup and workgroup scope in the flexible-dimension list, with
 * saturatingAccumulation VK_FALSE, and VK_TRUE too for integer pairs.  coopvm
 * runs every pair of its fourteen component types. */
static const VkComponentTypeKHR all_types[] = {
    VK_COMPONENT_TYPE_FLOAT16_KHR,     VK_COMPONENT_TYPE_FLOAT32_KHR,
    VK_COMPONENT_TYPE_FLOAT64_KHR,     VK_COMPONENT_TYPE_BFLOAT16_KHR,
    VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT, VK_COMPONENT_TYPE_FLOAT8_E5M2_EXT,
    VK_COMPONENT_TYPE_SINT8_KHR,       VK_COMPONENT_TYPE_SINT16_KHR,
    VK_COMPONENT_TYPE_SINT32_KHR,      VK_COMPONENT_TYPE_SINT64_KHR,
    VK_COMPONENT_TYPE_UINT8_KHR,       VK_COMPONENT_TYPE_UINT16_KHR,
    VK_COMPONENT_TYPE_UINT32_KHR,      VK_COMPONENT_TYPE_UINT64_KHR,
};
#define NALL (sizeof(all_types) / sizeof(all_types[0]))

static int is_int_type(VkComponentTypeKHR t)
{
    return (t >= VK_COMPONENT_TYPE_SINT8_KHR && t <= VK_COMPONENT_TYPE_SINT64_KHR) ||
           (t >= VK_COMPONENT_TYPE_UINT8_KHR && t <= VK_COMPONENT_TYPE_UINT64_KHR);
}

static void test_matrix_combinations(void)
{
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR cmp =
        (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)vkGetInstanceProcAddr(
            inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV flex =
        (PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)vkGetInstanceProcAddr(
            inst, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    CHECK(cmp && flex, "the queries");
    if (!cmp || !flex)
        return;
    uint32_t n = 0, nf = 0;
    CHECK(cmp(pd, &n, NULL) == VK_SUCCESS && n > 0, "KHR count %u", n);
    CHECK(flex(pd, &nf, NULL) == VK_SUCCESS && nf > 0, "flexible count %u", nf);
    VkCooperativeMatrixPropertiesKHR *p = calloc(n, sizeof(*p));
    VkCooperativeMatrixFlexibleDimensionsPropertiesNV *f = calloc(nf, sizeof(*f));
    if (!p || !f)
        exit(1);
    for (uint32_t i = 0; i < n; i++)
        p[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR;
    for (uint32_t i = 0; i < nf; i++)
        f[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV;
    CHECK(cmp(pd, &n, p) == VK_SUCCESS, "KHR list");
    CHECK(flex(pd, &nf, f) == VK_SUCCESS, "flexible list");
    int missing = 0;
    for (size_t a = 0; a < NALL; a++)
        for (size_t c = 0; c < NALL; c++)
            for (int sat = 0; sat <= (is_int_type(all_types[a]) && is_int_type(all_types[c])); sat++) {
                VkComponentTypeKHR in = all_types[a], out = all_types[c];
                int khr = 0, fsub = 0, fwg = 0;
                for (uint32_t i = 0; i < n; i++)
                    khr |= p[i].AType == in && p[i].BType == in && p[i].CType == out &&
                           p[i].ResultType == out && p[i].scope == VK_SCOPE_SUBGROUP_KHR &&
                           p[i].saturatingAccumulation == (VkBool32)sat && p[i].MSize &&
                           p[i].NSize && p[i].KSize;
                for (uint32_t i = 0; i < nf; i++)
                    if (f[i].AType == in && f[i].BType == in && f[i].CType == out &&
                        f[i].ResultType == out && f[i].saturatingAccumulation == (VkBool32)sat &&
                        f[i].MGranularity == 1 && f[i].NGranularity == 1 && f[i].KGranularity == 1) {
                        fsub |= f[i].scope == VK_SCOPE_SUBGROUP_KHR;
                        fwg |= f[i].scope == VK_SCOPE_WORKGROUP_KHR && f[i].workgroupInvocations;
                    }
                if ((!khr || !fsub || !fwg) && missing++ < 8)
                    CHECK(0, "A = B = %d, C = Result = %d, saturating %d: KHR %d, flexible %d %d",
                          (int)in, (int)out, sat, khr, fsub, fwg);
            }
    CHECK(missing == 0, "%d combinations missing", missing);
    free(p);
    free(f);
}

/* The NV (v1) list names only types of VkComponentTypeNV's own range, at
 * subgroup scope, with each A = B = in, C = D = out pair of them: no
 * bfloat16 or float8 (see cvk_GetPhysicalDeviceCooperativeMatrixPropertiesNV:
 * the CTS's NV shaders cannot declare such matrices), and VK_INCOMPLETE on
 * a short array. */
static int nv_type(uint32_t t)
{
    return t <= (uint32_t)VK_COMPONENT_TYPE_UINT64_NV;
}

static void test_matrix_combinations_nv(void)
{
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV nvp =
        (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)vkGetInstanceProcAddr(
            inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
    CHECK(nvp != NULL, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
    if (!nvp)
        return;
    uint32_t n = 0;
    CHECK(nvp(pd, &n, NULL) == VK_SUCCESS && n > 1, "NV count %u", n);
    if (n < 2)
        return;
    VkCooperativeMatrixPropertiesNV *p = calloc(n, sizeof(*p));
    if (!p)
        exit(1);
    for (uint32_t i = 0; i < n; i++)
        p[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
    uint32_t short_n = n - 1;
    CHECK(nvp(pd, &short_n, p) == VK_INCOMPLETE && short_n == n - 1, "NV short array: %u",
          short_n);
    CHECK(nvp(pd, &n, p) == VK_SUCCESS, "NV list");
    int bad = 0, missing = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!nv_type((uint32_t)p[i].AType) || !nv_type((uint32_t)p[i].BType) ||
            !nv_type((uint32_t)p[i].CType) || !nv_type((uint32_t)p[i].DType) ||
            p[i].scope != VK_SCOPE_SUBGROUP_NV || !p[i].MSize || !p[i].NSize || !p[i].KSize) {
            if (bad++ < 4)
                CHECK(0, "NV entry %u: A %d B %d C %d D %d scope %d", i, (int)p[i].AType,
                      (int)p[i].BType, (int)p[i].CType, (int)p[i].DType, (int)p[i].scope);
        }
    for (size_t a = 0; a < NALL; a++)
        for (size_t c = 0; c < NALL; c++) {
            uint32_t in = (uint32_t)all_types[a], out = (uint32_t)all_types[c];
            if (!nv_type(in) || !nv_type(out))
                continue;
            int found = 0;
            for (uint32_t i = 0; i < n; i++)
                found |= (uint32_t)p[i].AType == in && (uint32_t)p[i].BType == in &&
                         (uint32_t)p[i].CType == out && (uint32_t)p[i].DType == out;
            if (!found && missing++ < 4)
                CHECK(0, "NV list lacks A = B = %u, C = D = %u", in, out);
        }
    CHECK(bad == 0 && missing == 0, "NV list: %d bad entries, %d pairs missing", bad, missing);
    free(p);
}

static int has_device_extension(const char *name)
{
    uint32_t n = 0;
    VK(vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL));
    VkExtensionProperties *e = calloc(n ? n : 1, sizeof(*e));
    if (!e)
        exit(1);
    VK(vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e));
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        found |= !strcmp(e[i].extensionName, name);
    free(e);
    return found;
}

/* VK_EXT_shader_long_vector (SPV_EXT_long_vector, which the engine runs):
 * the extension, its feature, maxVectorComponents as cvm_get_limits gives it
 * and no smaller than the CTS's largest case (1024 components), and a device
 * created with the feature on. */
static void test_long_vector(void)
{
    CHECK(has_device_extension("VK_EXT_shader_long_vector"), "VK_EXT_shader_long_vector listed");
    VkPhysicalDeviceShaderLongVectorFeaturesEXT lvf = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &lvf};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    CHECK(lvf.longVector == VK_TRUE, "longVector %u", lvf.longVector);
    VkPhysicalDeviceShaderLongVectorPropertiesEXT lvp = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &lvp};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    cvm_limits lim;
    cvm_get_limits(&lim);
    CHECK(lvp.maxVectorComponents == lim.max_vector_components && lvp.maxVectorComponents >= 1024,
          "maxVectorComponents %u", lvp.maxVectorComponents);
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    VkPhysicalDeviceShaderLongVectorFeaturesEXT on = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_LONG_VECTOR_FEATURES_EXT, NULL, VK_TRUE};
    const char *ext = "VK_EXT_shader_long_vector";
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &on, 0, 1, &qci, 0, NULL, 1, &ext,
                              NULL};
    VkDevice dev = VK_NULL_HANDLE;
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev) == VK_SUCCESS, "device with longVector");
    if (dev)
        vkDestroyDevice(dev, NULL);
}

/* The integer dot product properties: the packed 4 x 8-bit forms
 * (OpSDot/OpUDot/OpSUDot with PackedVectorFormat4x8Bit, which ggml's
 * integer-dot paths ask for) accelerated, with and without accumulation,
 * in both structures that carry them; the rest as the engine says. */
static void test_integer_dot(void)
{
    VkPhysicalDeviceShaderIntegerDotProductProperties dp = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES};
    VkPhysicalDeviceVulkan13Properties p13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES,
                                              &dp};
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
    memset(&dp.integerDotProduct8BitUnsignedAccelerated, 0xAB,
           sizeof(dp) - offsetof(VkPhysicalDeviceShaderIntegerDotProductProperties,
                                 integerDotProduct8BitUnsignedAccelerated));
    vkGetPhysicalDeviceProperties2(pd, &p2);
    CHECK(dp.integerDotProduct4x8BitPackedSignedAccelerated == VK_TRUE &&
              dp.integerDotProduct4x8BitPackedUnsignedAccelerated == VK_TRUE &&
              dp.integerDotProduct4x8BitPackedMixedSignednessAccelerated == VK_TRUE &&
              dp.integerDotProductAccumulatingSaturating4x8BitPackedSignedAccelerated == VK_TRUE &&
              dp.integerDotProductAccumulatingSaturating4x8BitPackedUnsignedAccelerated == VK_TRUE &&
              dp.integerDotProductAccumulatingSaturating4x8BitPackedMixedSignednessAccelerated ==
                  VK_TRUE,
          "packed 4 x 8-bit dot products accelerated");
    CHECK(p13.integerDotProduct4x8BitPackedSignedAccelerated == VK_TRUE &&
              p13.integerDotProduct4x8BitPackedUnsignedAccelerated == VK_TRUE &&
              p13.integerDotProduct4x8BitPackedMixedSignednessAccelerated == VK_TRUE,
          "the same in VkPhysicalDeviceVulkan13Properties");
    /* every member 0 or 1 (none left as the 0xAB bytes written before),
     * and the two structures agree */
    const VkBool32 *a = &dp.integerDotProduct8BitUnsignedAccelerated;
    const VkBool32 *b = &p13.integerDotProduct8BitUnsignedAccelerated;
    for (int i = 0; i < 30; i++) {
        CHECK(a[i] == VK_TRUE || a[i] == VK_FALSE, "member %d is %u", i, a[i]);
        CHECK(a[i] == b[i], "member %d: %u and %u", i, a[i], b[i]);
    }
    CHECK(dp.integerDotProduct8BitSignedAccelerated ==
              (VkBool32)cvm_supports_property(
                  "ShaderIntegerDotProductProperties.integerDotProduct8BitSignedAccelerated"),
          "8-bit vectors as the engine says");
}

/* VK_EXT_shader_object for compute: the queries; a shader made from SPIR-V
 * with a specialization constant, a required subgroup size, push constants
 * and a set layout, dispatched through vkCmdBindShadersEXT; its binary
 * (size query, VK_INCOMPLETE for too small a buffer) made again into a
 * shader with no specialization or subgroup structure, which computes the
 * same and gives the same binary back; a damaged binary and a vertex shader
 * refused with a null handle. */
static void test_shader_object(void)
{
    CHECK(has_device_extension("VK_EXT_shader_object"), "VK_EXT_shader_object listed");
    VkPhysicalDeviceShaderObjectFeaturesEXT sof = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &sof};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    CHECK(sof.shaderObject == VK_TRUE, "shaderObject %u", sof.shaderObject);
    VkPhysicalDeviceShaderObjectPropertiesEXT sop = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_PROPERTIES_EXT};
    sop.shaderBinaryVersion = 12345;
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sop};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    static const uint8_t zero[VK_UUID_SIZE];
    CHECK(sop.shaderBinaryVersion == 1 && memcmp(sop.shaderBinaryUUID, zero, VK_UUID_SIZE),
          "shaderBinaryVersion %u and a nonzero UUID", sop.shaderBinaryVersion);

    wide w;
    w.dev = make_device_with("VK_EXT_shader_object");
    vkGetDeviceQueue(w.dev, 0, 0, &w.q);
    PFN_vkCreateShadersEXT create_shaders =
        (PFN_vkCreateShadersEXT)vkGetDeviceProcAddr(w.dev, "vkCreateShadersEXT");
    PFN_vkDestroyShaderEXT destroy_shader =
        (PFN_vkDestroyShaderEXT)vkGetDeviceProcAddr(w.dev, "vkDestroyShaderEXT");
    PFN_vkGetShaderBinaryDataEXT binary_data =
        (PFN_vkGetShaderBinaryDataEXT)vkGetDeviceProcAddr(w.dev, "vkGetShaderBinaryDataEXT");
    bind_shaders = (PFN_vkCmdBindShadersEXT)vkGetDeviceProcAddr(w.dev, "vkCmdBindShadersEXT");
    CHECK(create_shaders && destroy_shader && binary_data && bind_shaders, "the commands");
    if (!create_shaders || !destroy_shader || !binary_data || !bind_shaders) {
        vkDestroyDevice(w.dev, NULL);
        return;
    }
    w.src = make_buffer(w.dev, 4 * N);
    w.dst = make_buffer(w.dev, 4 * N);
    for (uint32_t i = 0; i < N; i++)
        w.src.map[i] = 3 * i + 7;
    size_t nwords;
    uint32_t *words = assemble(&nwords);
    w.p = make_pipeline_with(w.dev, wide_bindings, 6, words, nwords); /* its layout and sets */
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VK(vkCreateCommandPool(w.dev, &cpci, NULL, &w.cmd_pool));
    write_used(&w, w.p.set, w.dst.buf);

    uint32_t mul = MUL;
    VkSpecializationMapEntry me = {0, 0, 4};
    VkSpecializationInfo si = {1, &me, 4, &mul};
    VkShaderRequiredSubgroupSizeCreateInfoEXT rss = {
        VK_STRUCTURE_TYPE_SHADER_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT, NULL, SUBGROUP};
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkShaderCreateInfoEXT ci = {VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
                                &rss,
                                VK_SHADER_CREATE_DISPATCH_BASE_BIT_EXT,
                                VK_SHADER_STAGE_COMPUTE_BIT,
                                0,
                                VK_SHADER_CODE_TYPE_SPIRV_EXT,
                                nwords * 4,
                                words,
                                "main",
                                1,
                                &w.p.dsl,
                                1,
                                &pcr,
                                &si};
    VkShaderEXT sh = VK_NULL_HANDLE, sh2 = VK_NULL_HANDLE, bad = (VkShaderEXT)(uintptr_t)1;
    CHECK(create_shaders(w.dev, 1, &ci, NULL, &sh) == VK_SUCCESS && sh, "shader from SPIR-V");
    VkResult r = dispatch_with(&w, w.p.set, sh);
    CHECK(r == VK_SUCCESS, "dispatch of the shader -> %d", (int)r);
    check_dst(&w.dst, &w.src, "shader object");

    size_t size = 0;
    CHECK(binary_data(w.dev, sh, &size, NULL) == VK_SUCCESS && size > 0, "binary size %zu", size);
    uint8_t *bin = malloc(size + 1), *bin2 = malloc(size + 1);
    if (!bin || !bin2)
        exit(1);
    size_t small = size - 1;
    memset(bin, 0x5A, size);
    CHECK(binary_data(w.dev, sh, &small, bin) == VK_INCOMPLETE && bin[0] == 0x5A,
          "a buffer one byte short: VK_INCOMPLETE, nothing written");
    size_t got = size;
    CHECK(binary_data(w.dev, sh, &got, bin) == VK_SUCCESS && got == size, "binary");
    VkShaderCreateInfoEXT bci = ci;
    bci.pNext = NULL;
    bci.pSpecializationInfo = NULL;
    bci.codeType = VK_SHADER_CODE_TYPE_BINARY_EXT;
    bci.codeSize = size;
    bci.pCode = bin;
    CHECK(create_shaders(w.dev, 1, &bci, NULL, &sh2) == VK_SUCCESS && sh2, "shader from its binary");
    memset(w.dst.map, 0, 4 * N);
    r = dispatch_with(&w, w.p.set, sh2);
    CHECK(r == VK_SUCCESS, "dispatch of the binary's shader -> %d", (int)r);
    check_dst(&w.dst, &w.src, "shader object from the binary");
    got = size;
    CHECK(binary_data(w.dev, sh2, &got, bin2) == VK_SUCCESS && got == size &&
              !memcmp(bin, bin2, size),
          "the binary's shader gives the same binary back");

    bin[0] ^= 0xFF;
    CHECK(create_shaders(w.dev, 1, &bci, NULL, &bad) == VK_INCOMPATIBLE_SHADER_BINARY_EXT &&
              bad == VK_NULL_HANDLE,
          "a damaged binary");
    bin[0] ^= 0xFF;
    bci.codeSize = size - 4;
    bad = (VkShaderEXT)(uintptr_t)1;
    CHECK(create_shaders(w.dev, 1, &bci, NULL, &bad) == VK_INCOMPATIBLE_SHADER_BINARY_EXT &&
              bad == VK_NULL_HANDLE,
          "a truncated binary");
    VkShaderCreateInfoEXT vci = ci;
    vci.stage = VK_SHADER_STAGE_VERTEX_BIT;
    bad = (VkShaderEXT)(uintptr_t)1;
    CHECK(create_shaders(w.dev, 1, &vci, NULL, &bad) != VK_SUCCESS && bad == VK_NULL_HANDLE,
          "a vertex shader");
    free(bin);
    free(bin2);
    cvm_free(words);
    destroy_shader(w.dev, sh, NULL);
    destroy_shader(w.dev, sh2, NULL);
    free_wide(&w);
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

/* COOPVM_VK_PROFILE: one line for the destroyed pipeline, with its
 * dispatches and workgroups, and one for the device, with the transfers
 * (src/vulkan/icd_profile.c); the counts are those the commands give. */
static void test_profile(void)
{
    char path[] = "/tmp/coopvm_profile_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    setenv("COOPVM_VK_PROFILE", path, 1);
    VkDevice dev = make_device();
    unsetenv("COOPVM_VK_PROFILE"); /* read at creation: the device keeps profiling */
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    buffer src = make_buffer(dev, DYN + 4 * N), dst = make_buffer(dev, 4 * N),
           copy = make_buffer(dev, 4 * N);
    pipeline p = make_pipeline(dev, src.buf, 4 * N, dst.buf);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
    VkCommandPool pool;
    VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBuffer cb;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &cb));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cb, &cbi));
    vkCmdFillBuffer(cb, src.buf, 0, VK_WHOLE_SIZE, 1u);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipe);
    uint32_t dyn = DYN, add = ADD;
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 1, &dyn);
    vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
    vkCmdDispatch(cb, 3, 1, 1);
    vkCmdDispatch(cb, 2, 1, 1);
    VkBufferCopy region = {0, 0, 4 * N};
    vkCmdCopyBuffer(cb, dst.buf, copy.buf, 1, &region);
    VK(vkEndCommandBuffer(cb));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cb, 0, NULL};
    VK(vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE));
    VK(vkQueueWaitIdle(q));
    CHECK(copy.map[0] == expected(1), "copy[0] = %u", copy.map[0]);
    vkDestroyCommandPool(dev, pool, NULL);
    free_pipeline(dev, &p);
    free_buffer(dev, &src);
    free_buffer(dev, &dst);
    free_buffer(dev, &copy);
    vkDestroyDevice(dev, NULL);

    char text[4096] = "";
    FILE *f = fdopen(fd, "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    remove(path);
    const char *pl = strstr(text, "coopvm ICD profile: pipeline ");
    const char *dl = strstr(text, "coopvm ICD profile: device (destroyed): ");
    CHECK(pl && dl && pl < dl, "a pipeline line, then a device line: %s", text);
    if (!pl || !dl)
        return;
    /* 5 workgroups of 2 dispatches; 2 transfers of 4*N*2 bytes (the fill
     * covers the source, DYN + 4 * N bytes, and the copy 4 * N) */
    CHECK(strstr(pl, " main (") && strstr(pl, ", 2 dispatches ") && strstr(pl, " 5 workgroups, "),
          "pipeline line: %.*s", (int)(dl - pl), pl);
    CHECK(strstr(dl, " 1 pipelines ") && strstr(dl, " 2 dispatches ") && strstr(dl, " 2 transfers "),
          "device line: %s", dl);
    CHECK(strstr(text, "alive at exit") == NULL, "nothing left for the exit report: %s", text);
}

/* ---- the device rules at pipeline creation ------------------------------------------ */

/* A compute shader with one MulAdd of constant 16x16 matrices at `scope`
 * (3 Subgroup, 2 Workgroup). */
static uint32_t *muladd_module(const char *env, int scope, size_t *o_words)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "OpCapability Shader\n"
             "OpCapability Float16\n"
             "OpCapability VulkanMemoryModel\n"
             "OpCapability CooperativeMatrixKHR\n"
             "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
             "OpMemoryModel Logical Vulkan\n"
             "OpEntryPoint GLCompute %%main \"main\"\n"
             "OpExecutionMode %%main LocalSize 32 1 1\n"
             "%%void = OpTypeVoid\n"
             "%%fn = OpTypeFunction %%void\n"
             "%%uint = OpTypeInt 32 0\n"
             "%%float = OpTypeFloat 32\n"
             "%%half = OpTypeFloat 16\n"
             "%%u0 = OpConstant %%uint 0\n"
             "%%u1 = OpConstant %%uint 1\n"
             "%%u2 = OpConstant %%uint 2\n"
             "%%scope = OpConstant %%uint %d\n"
             "%%u16 = OpConstant %%uint 16\n"
             "%%f0 = OpConstant %%float 0\n"
             "%%h1 = OpConstant %%half 1\n"
             "%%mA = OpTypeCooperativeMatrixKHR %%half %%scope %%u16 %%u16 %%u0\n"
             "%%mB = OpTypeCooperativeMatrixKHR %%half %%scope %%u16 %%u16 %%u1\n"
             "%%mC = OpTypeCooperativeMatrixKHR %%float %%scope %%u16 %%u16 %%u2\n"
             "%%a = OpConstantComposite %%mA %%h1\n"
             "%%b = OpConstantComposite %%mB %%h1\n"
             "%%c = OpConstantComposite %%mC %%f0\n"
             "%%main = OpFunction %%void None %%fn\n"
             "%%entry = OpLabel\n"
             "%%d = OpCooperativeMatrixMulAddKHR %%mC %%a %%b %%c\n"
             "OpReturn\n"
             "OpFunctionEnd\n",
             scope);
    uint32_t *words;
    cvm_diagnostic diag;
    if (cvm_assemble(text, strlen(text), 0, env, &words, o_words, &diag) != CVM_SUCCESS) {
        fprintf(stderr, "muladd_module:%u: %s\n", diag.line, diag.message);
        exit(1);
    }
    return words;
}

/* Creates (and destroys) a compute pipeline of `words`; returns its result. */
static VkResult try_pipeline_next(VkDevice dev, const uint32_t *words, size_t nwords,
                                  VkPipelineShaderStageCreateFlags stage_flags, const void *next);

static VkResult try_pipeline(VkDevice dev, const uint32_t *words, size_t nwords,
                             VkPipelineShaderStageCreateFlags stage_flags)
{
    return try_pipeline_next(dev, words, nwords, stage_flags, NULL);
}

/* As try_pipeline, with `next` chained to the VkComputePipelineCreateInfo. */
static VkResult try_pipeline_next(VkDevice dev, const uint32_t *words, size_t nwords,
                                  VkPipelineShaderStageCreateFlags stage_flags, const void *next)
{
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkPipelineLayout layout;
    VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                     nwords * 4, words};
    VkShaderModule sm;
    VK(vkCreateShaderModule(dev, &smci, NULL, &sm));
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                   NULL, stage_flags, VK_SHADER_STAGE_COMPUTE_BIT,
                                                   sm, "main", NULL};
    cpci.layout = layout;
    cpci.pNext = next;
    VkPipeline pipe = VK_NULL_HANDLE;
    VkResult r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe);
    vkDestroyPipeline(dev, pipe, NULL);
    vkDestroyShaderModule(dev, sm, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    return r;
}

/* The log's text since the last call (the file is emptied). */
static void take_log(const char *path, char *out, size_t size)
{
    out[0] = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        size_t n = fread(out, 1, size - 1, f);
        out[n] = 0;
        fclose(f);
    }
    f = fopen(path, "wb");
    if (f)
        fclose(f);
}

/* The device rules (VUIDs that name device properties, enabled features
 * and creation flags) are checked at pipeline creation against what the
 * driver reports, the features the application enabled and the pipeline's
 * flags: a broken one is logged as a validation error (COOPVM_VK_LOG) and
 * the pipeline is still made. */
static void test_device_rules(void)
{
    char path[] = "/tmp/coopvm_icd_log_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    const char *old = getenv("COOPVM_VK_LOG");
    char saved[512] = "";
    if (old)
        snprintf(saved, sizeof(saved), "%s", old);
    setenv("COOPVM_VK_LOG", path, 1);
    char log[4096];
    VkDevice dev = make_device();
    size_t n;
    /* SPIR-V 1.5 with cooperative matrices: REQUIRE_FULL_SUBGROUPS (10770). */
    uint32_t *w15 = muladd_module("vulkan1.2", 3, &n);
    CHECK(try_pipeline(dev, w15, n, 0) == VK_SUCCESS, "a 1.5 pipeline without the flag is made");
    take_log(path, log, sizeof(log));
    CHECK(strstr(log, "Validation Error: [VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10770]"),
          "the log: %s", log);
    CHECK(try_pipeline(dev, w15, n, VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT) ==
              VK_SUCCESS,
          "with the flag");
    take_log(path, log, sizeof(log));
    CHECK(!strstr(log, "Validation Error"), "with REQUIRE_FULL_SUBGROUPS the log is: %s", log);
    vkDestroyDevice(dev, NULL);
    /* The same module as a shader object: 10771, and
     * VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT. */
    dev = make_device_with("VK_EXT_shader_object");
    PFN_vkCreateShadersEXT create_shaders =
        (PFN_vkCreateShadersEXT)vkGetDeviceProcAddr(dev, "vkCreateShadersEXT");
    PFN_vkDestroyShaderEXT destroy_shader =
        (PFN_vkDestroyShaderEXT)vkGetDeviceProcAddr(dev, "vkDestroyShaderEXT");
    CHECK(create_shaders && destroy_shader, "the shader-object commands");
    for (int full = 0; full < 2 && create_shaders && destroy_shader; full++) {
        VkShaderCreateInfoEXT ci = {VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT};
        ci.flags = full ? VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT : 0;
        ci.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        ci.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
        ci.codeSize = n * 4;
        ci.pCode = w15;
        ci.pName = "main";
        VkShaderEXT sh = VK_NULL_HANDLE;
        CHECK(create_shaders(dev, 1, &ci, NULL, &sh) == VK_SUCCESS, "a 1.5 shader object (%d)",
              full);
        destroy_shader(dev, sh, NULL);
        take_log(path, log, sizeof(log));
        if (full)
            CHECK(!strstr(log, "Validation Error"), "with the flag the log is: %s", log);
        else
            CHECK(strstr(log, "vkCreateShadersEXT: Validation Error: "
                              "[VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10771]"),
                  "a shader object without the flag: %s", log);
    }
    vkDestroyDevice(dev, NULL);
    dev = make_device();
    cvm_free(w15);
    /* A 64-bit cooperative-vector load offset: 11809, unless the pipeline
     * has VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT
     * (VkPipelineCreateFlags2CreateInfo, structure 1000470005). */
    static const char cv64[] =
        "OpCapability Shader\nOpCapability Float16\nOpCapability Int64\n"
        "OpCapability VulkanMemoryModel\nOpCapability CooperativeVectorNV\n"
        "OpExtension \"SPV_NV_cooperative_vector\"\nOpMemoryModel Logical Vulkan\n"
        "OpEntryPoint GLCompute %main \"main\" %buf\nOpExecutionMode %main LocalSize 32 1 1\n"
        "OpDecorate %rta ArrayStride 2\nOpDecorate %Buf Block\nOpMemberDecorate %Buf 0 Offset 0\n"
        "OpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
        "%ulong = OpTypeInt 64 0\n%half = OpTypeFloat 16\n%u0 = OpConstant %uint 0\n"
        "%u8 = OpConstant %uint 8\n%l0 = OpConstant %ulong 0\n%rta = OpTypeRuntimeArray %half\n"
        "%Buf = OpTypeStruct %rta\n%pBuf = OpTypePointer StorageBuffer %Buf\n"
        "%prta = OpTypePointer StorageBuffer %rta\n%vh8 = OpTypeCooperativeVectorNV %half %u8\n"
        "%buf = OpVariable %pBuf StorageBuffer\n%main = OpFunction %void None %fn\n"
        "%e = OpLabel\n%p = OpAccessChain %prta %buf %u0\n"
        "%v = OpCooperativeVectorLoadNV %vh8 %p %l0\nOpReturn\nOpFunctionEnd\n";
    uint32_t *wcv;
    cvm_diagnostic ad;
    if (cvm_assemble(cv64, strlen(cv64), 0, "vulkan1.3", &wcv, &n, &ad) != CVM_SUCCESS) {
        CHECK(0, "cv64: %s", ad.message);
    } else {
        struct {
            VkStructureType sType;
            const void *pNext;
            uint64_t flags;
        } flags2 = {(VkStructureType)1000470005, NULL, 1ull << 43};
        CHECK(try_pipeline(dev, wcv, n, 0) == VK_SUCCESS, "a 64-bit offset pipeline");
        take_log(path, log, sizeof(log));
        CHECK(strstr(log, "Validation Error: [VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-11809]"),
              "without the 64-bit indexing flag: %s", log);
        CHECK(try_pipeline_next(dev, wcv, n, 0, &flags2) == VK_SUCCESS, "with the flag");
        take_log(path, log, sizeof(log));
        CHECK(!strstr(log, "Validation Error"), "with 64-bit indexing the log is: %s", log);
        cvm_free(wcv);
    }
    /* A Workgroup-scope matrix: cooperativeMatrixWorkgroupScope (10164), as
     * the application enabled it or not. */
    uint32_t *wwg = muladd_module("vulkan1.3", 2, &n);
    CHECK(try_pipeline(dev, wwg, n, 0) == VK_SUCCESS, "workgroup scope, no feature");
    take_log(path, log, sizeof(log));
    CHECK(strstr(log, "Validation Error: [VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163]"),
          "without cooperativeMatrixFlexibleDimensions, the KHR list (Subgroup scope only): %s",
          log);
    vkDestroyDevice(dev, NULL);
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    for (int wg = 0; wg < 2; wg++) {
        VkPhysicalDeviceCooperativeMatrix2FeaturesNV f2 = {
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV};
        f2.cooperativeMatrixFlexibleDimensions = VK_TRUE;
        f2.cooperativeMatrixWorkgroupScope = wg ? VK_TRUE : VK_FALSE;
        const char *exts[] = {"VK_KHR_cooperative_matrix", "VK_NV_cooperative_matrix2"};
        VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2, 0, 1, &qci, 0, NULL,
                                  2, exts, NULL};
        VK(vkCreateDevice(pd, &dci, NULL, &dev));
        CHECK(try_pipeline(dev, wwg, n, 0) == VK_SUCCESS, "workgroup scope, feature %d", wg);
        take_log(path, log, sizeof(log));
        if (wg)
            CHECK(!strstr(log, "Validation Error"), "with the feature the log is: %s", log);
        else
            CHECK(strstr(log, "Validation Error: [VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-"
                              "10164]"),
                  "without cooperativeMatrixWorkgroupScope the log is: %s", log);
        vkDestroyDevice(dev, NULL);
    }
    cvm_free(wwg);
    if (saved[0])
        setenv("COOPVM_VK_LOG", saved, 1);
    else
        unsetenv("COOPVM_VK_LOG");
    remove(path);
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
    test_matrix_combinations();
    test_matrix_combinations_nv();
    test_long_vector();
    test_integer_dot();
    test_dispatches();
    test_device_lost();
    test_unused_binding_freed();
    test_copy_freed();
    test_update_after_destroy();
    test_static_use();
    test_shader_object();
    test_device_convert();
    test_device_address_usage();
    test_null_descriptor_coopmat();
    test_profile();
    test_device_rules();
    vkDestroyInstance(inst, NULL);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("all checks passed\n");
    return failures ? 1 : 0;
}
