/* Command pools and buffers: vkCmd* record commands, vkQueueSubmit replays
 * them in order.  A dispatch binds the descriptors of the bound sets (with
 * their dynamic offsets) and the push constants to the engine pipeline, then
 * runs cvm_pipeline_dispatch_base.  Barriers and event waits need no work:
 * commands run one after the other, each to completion. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_cond_timedwait */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vulkan/icd.h"

typedef struct cvk_proc {
    const char *name;
    PFN_vkVoidFunction fn;
} cvk_proc;

typedef enum cvk_cmd_type {
    CMD_BIND_PIPELINE,
    CMD_BIND_SETS,
    CMD_PUSH_CONSTANTS,
    CMD_DISPATCH,
    CMD_DISPATCH_INDIRECT,
    CMD_COPY_BUFFER,
    CMD_FILL_BUFFER,
    CMD_UPDATE_BUFFER,
    CMD_WRITE_TIMESTAMP,
    CMD_RESET_QUERIES,
    CMD_COPY_QUERY_RESULTS,
    CMD_SET_EVENT,
    CMD_EXECUTE_COMMANDS,
    CMD_CONVERT_COOPVEC
} cvk_cmd_type;

/* One recorded command; `data` holds its arrays (sets, offsets, regions,
 * bytes), sized by the recorder. */
struct cvk_cmd {
    cvk_cmd_type type;
    union {
        struct VkPipeline_T *pipeline;
        struct {
            uint32_t first, count, ndynamic;
        } sets;
        struct {
            uint32_t offset, size;
        } push;
        struct {
            uint32_t base[3], groups[3];
        } dispatch;
        struct {
            struct VkBuffer_T *buffer;
            VkDeviceSize offset;
        } indirect;
        struct {
            struct VkBuffer_T *src, *dst;
            uint32_t count;
        } copy;
        struct {
            struct VkBuffer_T *dst;
            VkDeviceSize offset, size;
            uint32_t value;
        } fill;
        struct {
            struct VkQueryPool_T *pool;
            uint32_t first, count;
            struct VkBuffer_T *dst;
            VkDeviceSize offset, stride;
            VkQueryResultFlags flags;
        } query;
        struct {
            struct VkEvent_T *event;
            int set;
        } event;
        struct {
            uint32_t count;
        } execute;
        struct {
            uint32_t count;
        } convert;
    } u;
    size_t ndata;
    uint8_t data[];
};

/* ---- pools and buffers --------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateCommandPool(VkDevice device,
                                                            const VkCommandPoolCreateInfo *pInfo,
                                                            const VkAllocationCallbacks *pA,
                                                            VkCommandPool *pPool)
{
    struct VkCommandPool_T *p = calloc(1, sizeof(*p));
    if (!p)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    *pPool = p;
    return VK_SUCCESS;
}

void cvk_cmds_free(struct VkCommandBuffer_T *cb)
{
    for (uint32_t i = 0; i < cb->ncmds; i++)
        free(cb->cmds[i]);
    cb->ncmds = 0;
    cb->failed = 0;
}

static void free_command_buffer(struct VkCommandBuffer_T *cb)
{
    cvk_cmds_free(cb);
    free(cb->cmds);
    free(cb);
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyCommandPool(VkDevice device, VkCommandPool pool,
                                                         const VkAllocationCallbacks *pA)
{
    if (!pool)
        return;
    while (pool->buffers) {
        struct VkCommandBuffer_T *cb = pool->buffers;
        pool->buffers = cb->next_in_pool;
        free_command_buffer(cb);
    }
    free(pool);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_ResetCommandPool(VkDevice device, VkCommandPool pool,
                                                           VkCommandPoolResetFlags flags)
{
    for (struct VkCommandBuffer_T *cb = pool->buffers; cb; cb = cb->next_in_pool)
        cvk_cmds_free(cb);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL cvk_TrimCommandPool(VkDevice device, VkCommandPool pool,
                                                      VkCommandPoolTrimFlags flags)
{
}

static VKAPI_ATTR void VKAPI_CALL cvk_FreeCommandBuffers(VkDevice device, VkCommandPool pool,
                                                         uint32_t n, const VkCommandBuffer *cbs)
{
    for (uint32_t i = 0; i < n; i++) {
        struct VkCommandBuffer_T *cb = cbs[i];
        if (!cb)
            continue;
        for (struct VkCommandBuffer_T **pp = &pool->buffers; *pp; pp = &(*pp)->next_in_pool)
            if (*pp == cb) {
                *pp = cb->next_in_pool;
                break;
            }
        free_command_buffer(cb);
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_AllocateCommandBuffers(
    VkDevice device, const VkCommandBufferAllocateInfo *pInfo, VkCommandBuffer *pCbs)
{
    uint32_t i;
    for (i = 0; i < pInfo->commandBufferCount; i++) {
        struct VkCommandBuffer_T *cb = calloc(1, sizeof(*cb));
        if (!cb) {
            cvk_FreeCommandBuffers(device, pInfo->commandPool, i, pCbs);
            for (uint32_t k = 0; k < pInfo->commandBufferCount; k++)
                pCbs[k] = NULL;
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
        cb->loader.loaderMagic = ICD_LOADER_MAGIC;
        cb->device = device;
        cb->pool = pInfo->commandPool;
        cb->next_in_pool = cb->pool->buffers;
        cb->pool->buffers = cb;
        pCbs[i] = cb;
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_BeginCommandBuffer(VkCommandBuffer cb,
                                                             const VkCommandBufferBeginInfo *pInfo)
{
    cvk_cmds_free(cb);
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_EndCommandBuffer(VkCommandBuffer cb)
{
    return cb->failed ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_ResetCommandBuffer(VkCommandBuffer cb,
                                                             VkCommandBufferResetFlags flags)
{
    cvk_cmds_free(cb);
    return VK_SUCCESS;
}

/* A new command with `ndata` bytes of data, appended; NULL (and the buffer
 * marked failed) when out of memory. */
static cvk_cmd *record(struct VkCommandBuffer_T *cb, cvk_cmd_type type, size_t ndata)
{
    if (cb->failed)
        return NULL;
    if (cb->ncmds == cb->cap) {
        uint32_t cap = cb->cap ? 2 * cb->cap : 16;
        cvk_cmd **n = realloc(cb->cmds, cap * sizeof(*n));
        if (!n) {
            cb->failed = 1;
            return NULL;
        }
        cb->cmds = n;
        cb->cap = cap;
    }
    cvk_cmd *c = calloc(1, sizeof(*c) + ndata);
    if (!c) {
        cb->failed = 1;
        return NULL;
    }
    c->type = type;
    c->ndata = ndata;
    cb->cmds[cb->ncmds++] = c;
    return c;
}

/* ---- recording ----------------------------------------------------------------- */

static VKAPI_ATTR void VKAPI_CALL cvk_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                      VkPipeline pipeline)
{
    if (bp != VK_PIPELINE_BIND_POINT_COMPUTE)
        return;
    cvk_cmd *c = record(cb, CMD_BIND_PIPELINE, 0);
    if (c)
        c->u.pipeline = pipeline;
}

/* VK_EXT_shader_object: a compute shader binds its pipeline (VK_NULL_HANDLE
 * unbinds); the other stages have nothing to bind here. */
static VKAPI_ATTR void VKAPI_CALL cvk_CmdBindShadersEXT(VkCommandBuffer cb, uint32_t n,
                                                        const VkShaderStageFlagBits *stages,
                                                        const VkShaderEXT *shaders)
{
    for (uint32_t i = 0; i < n; i++) {
        if (stages[i] != VK_SHADER_STAGE_COMPUTE_BIT)
            continue;
        cvk_cmd *c = record(cb, CMD_BIND_PIPELINE, 0);
        if (c)
            c->u.pipeline = shaders && shaders[i] ? shaders[i]->pipeline : NULL;
    }
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdBindDescriptorSets(
    VkCommandBuffer cb, VkPipelineBindPoint bp, VkPipelineLayout layout, uint32_t first,
    uint32_t count, const VkDescriptorSet *sets, uint32_t ndynamic, const uint32_t *dynamic)
{
    if (bp != VK_PIPELINE_BIND_POINT_COMPUTE)
        return;
    size_t n = count * sizeof(VkDescriptorSet) + ndynamic * sizeof(uint32_t);
    cvk_cmd *c = record(cb, CMD_BIND_SETS, n);
    if (!c)
        return;
    c->u.sets.first = first;
    c->u.sets.count = count;
    c->u.sets.ndynamic = ndynamic;
    memcpy(c->data, sets, count * sizeof(VkDescriptorSet));
    if (ndynamic)
        memcpy(c->data + count * sizeof(VkDescriptorSet), dynamic, ndynamic * sizeof(uint32_t));
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                                       VkShaderStageFlags stages, uint32_t offset,
                                                       uint32_t size, const void *values)
{
    if (offset > CVK_MAX_PUSH_CONSTANTS || size > CVK_MAX_PUSH_CONSTANTS - offset)
        return;
    cvk_cmd *c = record(cb, CMD_PUSH_CONSTANTS, size);
    if (!c)
        return;
    c->u.push.offset = offset;
    c->u.push.size = size;
    memcpy(c->data, values, size);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by,
                                                      uint32_t bz, uint32_t gx, uint32_t gy,
                                                      uint32_t gz)
{
    cvk_cmd *c = record(cb, CMD_DISPATCH, 0);
    if (!c)
        return;
    c->u.dispatch.base[0] = bx;
    c->u.dispatch.base[1] = by;
    c->u.dispatch.base[2] = bz;
    c->u.dispatch.groups[0] = gx;
    c->u.dispatch.groups[1] = gy;
    c->u.dispatch.groups[2] = gz;
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdDispatch(VkCommandBuffer cb, uint32_t gx, uint32_t gy,
                                                  uint32_t gz)
{
    cvk_CmdDispatchBase(cb, 0, 0, 0, gx, gy, gz);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buffer,
                                                          VkDeviceSize offset)
{
    cvk_cmd *c = record(cb, CMD_DISPATCH_INDIRECT, 0);
    if (!c)
        return;
    c->u.indirect.buffer = buffer;
    c->u.indirect.offset = offset;
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst,
                                                   uint32_t n, const VkBufferCopy *regions)
{
    cvk_cmd *c = record(cb, CMD_COPY_BUFFER, n * sizeof(VkBufferCopy));
    if (!c)
        return;
    c->u.copy.src = src;
    c->u.copy.dst = dst;
    c->u.copy.count = n;
    memcpy(c->data, regions, n * sizeof(VkBufferCopy));
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdCopyBuffer2(VkCommandBuffer cb,
                                                    const VkCopyBufferInfo2 *info)
{
    cvk_cmd *c = record(cb, CMD_COPY_BUFFER, info->regionCount * sizeof(VkBufferCopy));
    if (!c)
        return;
    c->u.copy.src = info->srcBuffer;
    c->u.copy.dst = info->dstBuffer;
    c->u.copy.count = info->regionCount;
    VkBufferCopy *r = (VkBufferCopy *)c->data;
    for (uint32_t i = 0; i < info->regionCount; i++)
        r[i] = (VkBufferCopy){info->pRegions[i].srcOffset, info->pRegions[i].dstOffset,
                              info->pRegions[i].size};
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdFillBuffer(VkCommandBuffer cb, VkBuffer dst,
                                                   VkDeviceSize offset, VkDeviceSize size,
                                                   uint32_t value)
{
    cvk_cmd *c = record(cb, CMD_FILL_BUFFER, 0);
    if (!c)
        return;
    c->u.fill.dst = dst;
    c->u.fill.offset = offset;
    c->u.fill.size = size;
    c->u.fill.value = value;
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer dst,
                                                     VkDeviceSize offset, VkDeviceSize size,
                                                     const void *data)
{
    cvk_cmd *c = record(cb, CMD_UPDATE_BUFFER, (size_t)size);
    if (!c)
        return;
    c->u.fill.dst = dst;
    c->u.fill.offset = offset;
    c->u.fill.size = size;
    memcpy(c->data, data, (size_t)size);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdPipelineBarrier(
    VkCommandBuffer cb, VkPipelineStageFlags src, VkPipelineStageFlags dst, VkDependencyFlags dep,
    uint32_t nm, const VkMemoryBarrier *m, uint32_t nb, const VkBufferMemoryBarrier *b, uint32_t ni,
    const VkImageMemoryBarrier *im)
{
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdPipelineBarrier2(VkCommandBuffer cb,
                                                         const VkDependencyInfo *info)
{
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdWriteTimestamp(VkCommandBuffer cb,
                                                       VkPipelineStageFlagBits stage,
                                                       VkQueryPool pool, uint32_t query)
{
    cvk_cmd *c = record(cb, CMD_WRITE_TIMESTAMP, 0);
    if (!c)
        return;
    c->u.query.pool = pool;
    c->u.query.first = query;
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdWriteTimestamp2(VkCommandBuffer cb,
                                                        VkPipelineStageFlags2 stage,
                                                        VkQueryPool pool, uint32_t query)
{
    cvk_CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdResetQueryPool(VkCommandBuffer cb, VkQueryPool pool,
                                                       uint32_t first, uint32_t count)
{
    cvk_cmd *c = record(cb, CMD_RESET_QUERIES, 0);
    if (!c)
        return;
    c->u.query.pool = pool;
    c->u.query.first = first;
    c->u.query.count = count;
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdCopyQueryPoolResults(
    VkCommandBuffer cb, VkQueryPool pool, uint32_t first, uint32_t count, VkBuffer dst,
    VkDeviceSize offset, VkDeviceSize stride, VkQueryResultFlags flags)
{
    cvk_cmd *c = record(cb, CMD_COPY_QUERY_RESULTS, 0);
    if (!c)
        return;
    c->u.query.pool = pool;
    c->u.query.first = first;
    c->u.query.count = count;
    c->u.query.dst = dst;
    c->u.query.offset = offset;
    c->u.query.stride = stride;
    c->u.query.flags = flags;
}

static void record_event(VkCommandBuffer cb, VkEvent event, int set)
{
    cvk_cmd *c = record(cb, CMD_SET_EVENT, 0);
    if (!c)
        return;
    c->u.event.event = event;
    c->u.event.set = set;
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdSetEvent(VkCommandBuffer cb, VkEvent event,
                                                 VkPipelineStageFlags stage)
{
    record_event(cb, event, 1);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdSetEvent2(VkCommandBuffer cb, VkEvent event,
                                                  const VkDependencyInfo *info)
{
    record_event(cb, event, 1);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdResetEvent(VkCommandBuffer cb, VkEvent event,
                                                   VkPipelineStageFlags stage)
{
    record_event(cb, event, 0);
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdResetEvent2(VkCommandBuffer cb, VkEvent event,
                                                    VkPipelineStageFlags2 stage)
{
    record_event(cb, event, 0);
}

/* Commands before the wait have completed when it runs; an event that only
 * the host sets later cannot be waited for inside a submission that runs to
 * completion, and is not. */
static VKAPI_ATTR void VKAPI_CALL cvk_CmdWaitEvents(
    VkCommandBuffer cb, uint32_t n, const VkEvent *events, VkPipelineStageFlags src,
    VkPipelineStageFlags dst, uint32_t nm, const VkMemoryBarrier *m, uint32_t nb,
    const VkBufferMemoryBarrier *b, uint32_t ni, const VkImageMemoryBarrier *im)
{
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdWaitEvents2(VkCommandBuffer cb, uint32_t n,
                                                    const VkEvent *events,
                                                    const VkDependencyInfo *infos)
{
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdExecuteCommands(VkCommandBuffer cb, uint32_t n,
                                                        const VkCommandBuffer *cbs)
{
    cvk_cmd *c = record(cb, CMD_EXECUTE_COMMANDS, n * sizeof(VkCommandBuffer));
    if (!c)
        return;
    c->u.execute.count = n;
    memcpy(c->data, cbs, n * sizeof(VkCommandBuffer));
}

static VKAPI_ATTR void VKAPI_CALL cvk_CmdConvertCooperativeVectorMatrixNV(
    VkCommandBuffer cb, uint32_t n, const VkConvertCooperativeVectorMatrixInfoNV *infos)
{
    cvk_cmd *c = record(cb, CMD_CONVERT_COOPVEC, n * sizeof(*infos));
    if (!c)
        return;
    c->u.convert.count = n;
    memcpy(c->data, infos, n * sizeof(*infos));
    VkConvertCooperativeVectorMatrixInfoNV *ci = (VkConvertCooperativeVectorMatrixInfoNV *)c->data;
    for (uint32_t i = 0; i < n; i++)
        ci[i].pNext = NULL; /* pDstSize is device memory-free here: see replay */
}

/* ---- replay -------------------------------------------------------------------- */

typedef struct replay_state {
    struct VkPipeline_T *pipeline;
    struct VkDescriptorSet_T *sets[CVK_MAX_SETS];
    uint32_t *dynamic[CVK_MAX_SETS]; /* each set's dynamic offsets, in binding order */
    uint8_t push[CVK_MAX_PUSH_CONSTANTS];
} replay_state;

static uint8_t *buffer_data(struct VkBuffer_T *b)
{
    return b && b->memory ? b->memory->data + b->offset : NULL;
}

static VkResult lose(struct VkDevice_T *d, const char *what, const cvm_diagnostic *diag)
{
    pthread_mutex_lock(&d->lock);
    cvk_device_fail(d, what, diag);
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
    return VK_ERROR_DEVICE_LOST;
}

static VkResult run_dispatch(struct VkDevice_T *d, replay_state *st, const uint32_t base[3],
                             const uint32_t groups[3])
{
    struct VkPipeline_T *p = st->pipeline;
    cvm_diagnostic diag;
    if (!p) {
        diag.result = CVM_ERROR_INVALID_ARGUMENT;
        diag.word_offset = UINT32_MAX;
        strcpy(diag.message, "vkCmdDispatch with no compute pipeline bound");
        return lose(d, "dispatch", &diag);
    }
    /* Only the descriptors the pipeline statically uses are looked at (the
     * others may name buffers long destroyed: Vulkan asks validity of the
     * statically used ones alone, VUID-vkCmdDispatch-None-08114).  Every
     * element of such a binding is bound again, an element the set lacks or
     * that was never written as an empty buffer, so that no buffer of an
     * earlier dispatch stays behind in the pipeline. */
    uint32_t nres = cvm_pipeline_resource_count(p->pipeline);
    for (uint32_t r = 0; r < nres; r++) {
        cvm_pipeline_resource res;
        if (!cvm_pipeline_get_resource(p->pipeline, r, &res) || !res.statically_used)
            continue;
        struct VkDescriptorSet_T *set = res.set < CVK_MAX_SETS ? st->sets[res.set] : NULL;
        const cvk_layout_binding *lb = NULL;
        for (uint32_t i = 0; set && i < set->layout.nbindings && !lb; i++)
            if (set->layout.bindings[i].binding == res.binding)
                lb = &set->layout.bindings[i];
        if (!lb) {
            diag.result = CVM_ERROR_MISSING_BINDING;
            diag.word_offset = UINT32_MAX;
            snprintf(diag.message, sizeof(diag.message),
                     "the shader uses descriptor set %u binding %u, which %s", res.set,
                     res.binding, set ? "the bound set's layout lacks" : "no bound set has");
            return lose(d, "dispatch", &diag);
        }
        int dynamic = lb->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
                      lb->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
        for (uint32_t e = 0; e < res.array_size; e++) {
            uint8_t *data = NULL;
            VkDeviceSize size = 0;
            const cvk_descriptor *desc = e < lb->count ? &set->descriptors[lb->first + e] : NULL;
            if (desc && desc->data) {
                VkDeviceSize off = desc->offset;
                if (dynamic && st->dynamic[res.set])
                    off += st->dynamic[res.set][lb->dyn_first + e];
                if (off <= desc->buffer_size) {
                    size = desc->range == VK_WHOLE_SIZE ? desc->buffer_size - off : desc->range;
                    if (size > desc->buffer_size - off)
                        size = desc->buffer_size - off;
                    data = desc->data + off;
                }
            }
            if (cvm_pipeline_bind_buffer(p->pipeline, res.set, res.binding, e, data, (size_t)size,
                                         &diag) != CVM_SUCCESS)
                return lose(d, "binding a descriptor", &diag);
        }
    }
    if (cvm_pipeline_set_push_constants(p->pipeline, st->push, p->push_size, &diag) != CVM_SUCCESS)
        return lose(d, "push constants", &diag);
    uint64_t t0 = p->profile.on ? cvk_now_ns() : 0;
    if (cvm_pipeline_dispatch_base(p->pipeline, base, groups[0], groups[1], groups[2], &diag) !=
        CVM_SUCCESS)
        return lose(d, "dispatch", &diag);
    if (p->profile.on) {
        atomic_fetch_add(&p->profile.dispatch_ns, cvk_now_ns() - t0);
        atomic_fetch_add(&p->profile.dispatches, 1);
        atomic_fetch_add(&p->profile.workgroups, (uint64_t)groups[0] * groups[1] * groups[2]);
    }
    return VK_SUCCESS;
}

static VkResult convert_coopvec(struct VkDevice_T *d, const VkConvertCooperativeVectorMatrixInfoNV *in)
{
    /* Device addresses: find the buffers that hold them. */
    VkDeviceSize soff = 0, doff = 0;
    struct VkBuffer_T *sb = cvk_buffer_at_address(d, in->srcData.deviceAddress, &soff);
    struct VkBuffer_T *db = cvk_buffer_at_address(d, in->dstData.deviceAddress, &doff);
    cvm_diagnostic diag;
    if (!sb || !db) {
        diag.result = CVM_ERROR_OUT_OF_BOUNDS;
        diag.word_offset = UINT32_MAX;
        strcpy(diag.message, "a device address that is in no buffer");
        return lose(d, "vkCmdConvertCooperativeVectorMatrixNV", &diag);
    }
    size_t dst_size = (size_t)(db->size - doff);
    cvm_coopvec_convert_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.src_size = in->srcSize;
    ci.src_data = buffer_data(sb) + soff;
    ci.dst_size = &dst_size;
    ci.dst_data = buffer_data(db) + doff;
    ci.src_component_type = (uint32_t)in->srcComponentType;
    ci.dst_component_type = (uint32_t)in->dstComponentType;
    ci.num_rows = in->numRows;
    ci.num_columns = in->numColumns;
    ci.src_layout = (uint32_t)in->srcLayout;
    ci.src_stride = in->srcStride;
    ci.dst_layout = (uint32_t)in->dstLayout;
    ci.dst_stride = in->dstStride;
    /* The destination holds at most *pDstSize bytes (valid usage), which
     * the command reads at record time in Vulkan: the buffer's end bounds it. */
    cvm_result r = cvm_convert_cooperative_vector_matrix(d->ctx[CVK_DEFAULT_SUBGROUP_LOG2], &ci, &diag);
    if (r != CVM_SUCCESS) {
        if (r == CVM_INCOMPLETE) {
            diag.result = r;
            diag.word_offset = UINT32_MAX;
            strcpy(diag.message, "the destination buffer is too small");
        }
        return lose(d, "vkCmdConvertCooperativeVectorMatrixNV", &diag);
    }
    return VK_SUCCESS;
}

static VkResult execute(struct VkCommandBuffer_T *cb, replay_state *st, int depth)
{
    struct VkDevice_T *d = cb->device;
    for (uint32_t i = 0; i < cb->ncmds; i++) {
        cvk_cmd *c = cb->cmds[i];
        VkResult r = VK_SUCCESS;
        uint64_t t0 = d->profile.on ? cvk_now_ns() : 0, bytes = 0;
        switch (c->type) {
        case CMD_BIND_PIPELINE:
            st->pipeline = c->u.pipeline;
            break;
        case CMD_BIND_SETS: {
            struct VkDescriptorSet_T **sets = (struct VkDescriptorSet_T **)c->data;
            uint32_t *dyn = (uint32_t *)(c->data + c->u.sets.count * sizeof(VkDescriptorSet));
            uint32_t used = 0;
            for (uint32_t k = 0; k < c->u.sets.count && c->u.sets.first + k < CVK_MAX_SETS; k++) {
                uint32_t s = c->u.sets.first + k;
                st->sets[s] = sets[k];
                st->dynamic[s] = NULL;
                if (sets[k] && sets[k]->layout.ndynamic &&
                    used + sets[k]->layout.ndynamic <= c->u.sets.ndynamic) {
                    st->dynamic[s] = dyn + used;
                    used += sets[k]->layout.ndynamic;
                }
            }
            break;
        }
        case CMD_PUSH_CONSTANTS:
            memcpy(st->push + c->u.push.offset, c->data, c->u.push.size);
            break;
        case CMD_DISPATCH:
            r = run_dispatch(d, st, c->u.dispatch.base, c->u.dispatch.groups);
            break;
        case CMD_DISPATCH_INDIRECT: {
            uint8_t *data = buffer_data(c->u.indirect.buffer);
            uint32_t g[3] = {0, 0, 0};
            const uint32_t base[3] = {0, 0, 0};
            if (data && c->u.indirect.offset + 12 <= c->u.indirect.buffer->size)
                memcpy(g, data + c->u.indirect.offset, 12);
            r = run_dispatch(d, st, base, g);
            break;
        }
        case CMD_COPY_BUFFER: {
            uint8_t *src = buffer_data(c->u.copy.src), *dst = buffer_data(c->u.copy.dst);
            const VkBufferCopy *rg = (const VkBufferCopy *)c->data;
            for (uint32_t k = 0; src && dst && k < c->u.copy.count; k++)
                if (rg[k].srcOffset + rg[k].size <= c->u.copy.src->size &&
                    rg[k].dstOffset + rg[k].size <= c->u.copy.dst->size) {
                    memmove(dst + rg[k].dstOffset, src + rg[k].srcOffset, (size_t)rg[k].size);
                    bytes += rg[k].size;
                }
            break;
        }
        case CMD_FILL_BUFFER: {
            uint8_t *dst = buffer_data(c->u.fill.dst);
            VkDeviceSize size = c->u.fill.size;
            if (!dst || c->u.fill.offset > c->u.fill.dst->size)
                break;
            if (size == VK_WHOLE_SIZE)
                size = (c->u.fill.dst->size - c->u.fill.offset) & ~(VkDeviceSize)3;
            if (size > c->u.fill.dst->size - c->u.fill.offset)
                break;
            for (VkDeviceSize k = 0; k + 4 <= size; k += 4)
                memcpy(dst + c->u.fill.offset + k, &c->u.fill.value, 4);
            bytes = size;
            break;
        }
        case CMD_UPDATE_BUFFER: {
            uint8_t *dst = buffer_data(c->u.fill.dst);
            if (dst && c->u.fill.offset + c->u.fill.size <= c->u.fill.dst->size) {
                memcpy(dst + c->u.fill.offset, c->data, (size_t)c->u.fill.size);
                bytes = c->u.fill.size;
            }
            break;
        }
        case CMD_WRITE_TIMESTAMP:
            pthread_mutex_lock(&d->lock);
            if (c->u.query.first < c->u.query.pool->count) {
                c->u.query.pool->values[c->u.query.first] = cvk_now_ns();
                c->u.query.pool->available[c->u.query.first] = 1;
            }
            pthread_mutex_unlock(&d->lock);
            break;
        case CMD_RESET_QUERIES:
            pthread_mutex_lock(&d->lock);
            for (uint32_t k = c->u.query.first;
                 k < c->u.query.first + c->u.query.count && k < c->u.query.pool->count; k++)
                c->u.query.pool->available[k] = 0;
            pthread_mutex_unlock(&d->lock);
            break;
        case CMD_COPY_QUERY_RESULTS: {
            uint8_t *dst = buffer_data(c->u.query.dst);
            struct VkQueryPool_T *q = c->u.query.pool;
            int wide = (c->u.query.flags & VK_QUERY_RESULT_64_BIT) != 0;
            int avail = (c->u.query.flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
            VkDeviceSize need = (VkDeviceSize)(wide ? 8 : 4) * (avail ? 2 : 1);
            pthread_mutex_lock(&d->lock);
            for (uint32_t k = 0; dst && k < c->u.query.count && c->u.query.first + k < q->count; k++) {
                VkDeviceSize at = c->u.query.offset + k * c->u.query.stride;
                if (at + need > c->u.query.dst->size)
                    break;
                uint64_t v = q->values[c->u.query.first + k], a = q->available[c->u.query.first + k];
                if (wide) {
                    memcpy(dst + at, &v, 8);
                    if (avail)
                        memcpy(dst + at + 8, &a, 8);
                } else {
                    uint32_t v32 = (uint32_t)v, a32 = (uint32_t)a;
                    memcpy(dst + at, &v32, 4);
                    if (avail)
                        memcpy(dst + at + 4, &a32, 4);
                }
            }
            pthread_mutex_unlock(&d->lock);
            break;
        }
        case CMD_SET_EVENT:
            pthread_mutex_lock(&d->lock);
            c->u.event.event->set = c->u.event.set;
            pthread_cond_broadcast(&d->cond);
            pthread_mutex_unlock(&d->lock);
            break;
        case CMD_EXECUTE_COMMANDS: {
            /* secondary command buffers inherit nothing of the state */
            struct VkCommandBuffer_T **cbs = (struct VkCommandBuffer_T **)c->data;
            for (uint32_t k = 0; k < c->u.execute.count && r == VK_SUCCESS && depth < 2; k++) {
                replay_state sub;
                memset(&sub, 0, sizeof(sub));
                r = execute(cbs[k], &sub, depth + 1);
            }
            break;
        }
        case CMD_CONVERT_COOPVEC: {
            const VkConvertCooperativeVectorMatrixInfoNV *ci =
                (const VkConvertCooperativeVectorMatrixInfoNV *)c->data;
            for (uint32_t k = 0; k < c->u.convert.count && r == VK_SUCCESS; k++)
                r = convert_coopvec(d, &ci[k]);
            break;
        }
        }
        if (d->profile.on && (c->type == CMD_COPY_BUFFER || c->type == CMD_FILL_BUFFER ||
                              c->type == CMD_UPDATE_BUFFER)) {
            atomic_fetch_add(&d->profile.transfers, 1);
            atomic_fetch_add(&d->profile.transfer_bytes, bytes);
            atomic_fetch_add(&d->profile.transfer_ns, cvk_now_ns() - t0);
        } else if (d->profile.on && c->type == CMD_CONVERT_COOPVEC) {
            atomic_fetch_add(&d->profile.conversions, c->u.convert.count);
            atomic_fetch_add(&d->profile.conversion_ns, cvk_now_ns() - t0);
        }
        if (r != VK_SUCCESS)
            return r;
    }
    return VK_SUCCESS;
}

VkResult cvk_execute(struct VkCommandBuffer_T *cb)
{
    replay_state *st = calloc(1, sizeof(*st));
    if (!st)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    VkResult r = execute(cb, st, 0);
    free(st);
    return r;
}

/* ---- submission ---------------------------------------------------------------- */

typedef struct timeline_wait {
    struct VkSemaphore_T *sem;
    uint64_t value;
} timeline_wait;

static int timeline_done(const void *arg)
{
    const timeline_wait *w = arg;
    return w->sem->value >= w->value;
}

/* Waits (without limit) for a timeline semaphore another thread signals. */
static VkResult wait_timeline(struct VkDevice_T *d, struct VkSemaphore_T *s, uint64_t value)
{
    if (!s->timeline)
        return VK_SUCCESS; /* binary: its signal was submitted earlier, and has run */
    timeline_wait w = {s, value};
    pthread_mutex_lock(&d->lock);
    while (!timeline_done(&w) && !d->lost)
        pthread_cond_wait(&d->cond, &d->lock);
    pthread_mutex_unlock(&d->lock);
    return d->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

static void signal_semaphore(struct VkDevice_T *d, struct VkSemaphore_T *s, uint64_t value)
{
    pthread_mutex_lock(&d->lock);
    if (s->timeline)
        s->value = value;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
}

static void signal_fence(struct VkDevice_T *d, struct VkFence_T *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&d->lock);
    f->signaled = 1;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_QueueSubmit(VkQueue queue, uint32_t n,
                                                      const VkSubmitInfo *submits, VkFence fence)
{
    struct VkDevice_T *d = queue->device;
    VkResult r = d->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
    for (uint32_t i = 0; i < n && r == VK_SUCCESS; i++) {
        const VkSubmitInfo *s = &submits[i];
        const VkTimelineSemaphoreSubmitInfo *tl = NULL;
        for (const VkBaseInStructure *p = s->pNext; p; p = p->pNext)
            if (p->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
                tl = (const VkTimelineSemaphoreSubmitInfo *)p;
        for (uint32_t k = 0; k < s->waitSemaphoreCount && r == VK_SUCCESS; k++) {
            uint64_t v = tl && k < tl->waitSemaphoreValueCount ? tl->pWaitSemaphoreValues[k] : 0;
            r = wait_timeline(d, s->pWaitSemaphores[k], v);
        }
        for (uint32_t k = 0; k < s->commandBufferCount && r == VK_SUCCESS; k++)
            r = cvk_execute(s->pCommandBuffers[k]);
        for (uint32_t k = 0; k < s->signalSemaphoreCount && r == VK_SUCCESS; k++) {
            uint64_t v = tl && k < tl->signalSemaphoreValueCount ? tl->pSignalSemaphoreValues[k] : 0;
            signal_semaphore(d, s->pSignalSemaphores[k], v);
        }
    }
    if (r == VK_SUCCESS)
        signal_fence(d, fence);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_QueueSubmit2(VkQueue queue, uint32_t n,
                                                       const VkSubmitInfo2 *submits, VkFence fence)
{
    struct VkDevice_T *d = queue->device;
    VkResult r = d->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
    for (uint32_t i = 0; i < n && r == VK_SUCCESS; i++) {
        const VkSubmitInfo2 *s = &submits[i];
        for (uint32_t k = 0; k < s->waitSemaphoreInfoCount && r == VK_SUCCESS; k++)
            r = wait_timeline(d, s->pWaitSemaphoreInfos[k].semaphore,
                              s->pWaitSemaphoreInfos[k].value);
        for (uint32_t k = 0; k < s->commandBufferInfoCount && r == VK_SUCCESS; k++)
            r = cvk_execute(s->pCommandBufferInfos[k].commandBuffer);
        for (uint32_t k = 0; k < s->signalSemaphoreInfoCount && r == VK_SUCCESS; k++)
            signal_semaphore(d, s->pSignalSemaphoreInfos[k].semaphore,
                             s->pSignalSemaphoreInfos[k].value);
    }
    if (r == VK_SUCCESS)
        signal_fence(d, fence);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_QueueWaitIdle(VkQueue queue)
{
    return queue->device->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_QueueBindSparse(VkQueue queue, uint32_t n,
                                                          const VkBindSparseInfo *info, VkFence fence)
{
    return VK_ERROR_FEATURE_NOT_PRESENT;
}

/* ---- the entry points ---------------------------------------------------------- */

#define P(name) {"vk" #name, (PFN_vkVoidFunction)cvk_##name}
static const cvk_proc cmd_procs[] = {
    P(CreateCommandPool),
    P(DestroyCommandPool),
    P(ResetCommandPool),
    P(TrimCommandPool),
    P(AllocateCommandBuffers),
    P(FreeCommandBuffers),
    P(BeginCommandBuffer),
    P(EndCommandBuffer),
    P(ResetCommandBuffer),
    P(CmdBindPipeline),
    P(CmdBindShadersEXT),
    P(CmdBindDescriptorSets),
    P(CmdPushConstants),
    P(CmdDispatch),
    P(CmdDispatchBase),
    P(CmdDispatchIndirect),
    P(CmdCopyBuffer),
    P(CmdCopyBuffer2),
    P(CmdFillBuffer),
    P(CmdUpdateBuffer),
    P(CmdPipelineBarrier),
    P(CmdPipelineBarrier2),
    P(CmdWriteTimestamp),
    P(CmdWriteTimestamp2),
    P(CmdResetQueryPool),
    P(CmdCopyQueryPoolResults),
    P(CmdSetEvent),
    P(CmdSetEvent2),
    P(CmdResetEvent),
    P(CmdResetEvent2),
    P(CmdWaitEvents),
    P(CmdWaitEvents2),
    P(CmdExecuteCommands),
    P(CmdConvertCooperativeVectorMatrixNV),
    P(QueueSubmit),
    P(QueueSubmit2),
    P(QueueWaitIdle),
    P(QueueBindSparse),
};
#undef P

PFN_vkVoidFunction cvk_cmd_lookup(const char *name);

PFN_vkVoidFunction cvk_cmd_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(cmd_procs) / sizeof(cmd_procs[0]); i++)
        if (!strcmp(cmd_procs[i].name, name))
            return cmd_procs[i].fn;
    return NULL;
}
