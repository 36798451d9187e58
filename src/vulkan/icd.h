/* coopvm as a Vulkan installable client driver (ICD) for compute: the
 * objects behind the handles, shared by the files of src/vulkan.
 *
 * The ICD is a client of include/coopvm.h only.  Handles are pointers to the
 * structures below; dispatchable ones (instance, physical device, device,
 * queue, command buffer) start with the loader's slot (VK_LOADER_DATA, set to
 * ICD_LOADER_MAGIC), which the loader overwrites with its dispatch table.
 *
 * Execution: command buffers record commands; vkQueueSubmit replays them in
 * order on the calling thread (one queue), each dispatch a
 * cvm_pipeline_dispatch.  A dispatch that fails (out of bounds, budget, ...)
 * marks the device lost; the engine's message is kept for
 * vkGetDeviceFaultInfoEXT and written to the log that COOPVM_VK_LOG names. */
#ifndef CVK_ICD_H
#define CVK_ICD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vk_icd.h>

#include "coopvm.h"
#include "vulkan/vk_registry.h"

#if defined(__GNUC__)
#define CVK_EXPORT __attribute__((visibility("default")))
#else
#define CVK_EXPORT
#endif

/* Subgroup sizes 1, 2, 4 .. 128: one engine context each (a pipeline's
 * required subgroup size picks its context). */
#define CVK_SUBGROUP_SIZES 8
#define CVK_DEFAULT_SUBGROUP_LOG2 5 /* 32, the size the corpus was recorded at */
#define CVK_MAX_SETS 32
#define CVK_MAX_PUSH_CONSTANTS 256
/* cvm_buffer_create and cvm_pipeline_bind_buffer take less than 2^40 bytes */
#define CVK_MAX_BUFFER_SIZE (((VkDeviceSize)1 << 40) - 64)
#define CVK_API_VERSION VK_MAKE_API_VERSION(0, 1, 3, 239)

struct VkInstance_T {
    VK_LOADER_DATA loader;
    struct VkPhysicalDevice_T *physical;
};

struct VkPhysicalDevice_T {
    VK_LOADER_DATA loader;
    struct VkInstance_T *instance;
};

struct VkQueue_T {
    VK_LOADER_DATA loader;
    struct VkDevice_T *device;
};

/* COOPVM_VK_PROFILE's counters (icd_profile.c); `on` is set at creation. */
typedef struct cvk_device_profile {
    int on, done;
    char *path;                      /* COOPVM_VK_PROFILE when the device was created */
    pthread_mutex_t lock;            /* the list of live profiled pipelines */
    struct VkPipeline_T *live;
    struct VkDevice_T *next;         /* the profiled devices (icd_profile.c) */
    _Atomic uint64_t pipelines, compiled_pipelines, create_ns, dispatches, dispatch_ns;
    _Atomic uint64_t transfers, transfer_bytes, transfer_ns, conversions, conversion_ns;
} cvk_device_profile;

typedef struct cvk_pipeline_profile {
    int on;
    struct VkDevice_T *device;
    struct VkPipeline_T *prev, *next; /* the device's live list */
    uint64_t hash, create_ns;
    size_t nwords;
    uint32_t nspecs;
    char entry[64];
    _Atomic uint64_t dispatches, dispatch_ns, workgroups;
} cvk_pipeline_profile;

struct VkDevice_T {
    VK_LOADER_DATA loader;
    struct VkPhysicalDevice_T *physical;
    struct VkQueue_T *queue;
    cvm_context *ctx[CVK_SUBGROUP_SIZES];
    pthread_mutex_t lock;   /* buffers' addresses, submissions, sync objects */
    pthread_cond_t cond;    /* a fence, timeline semaphore or event changed */
    struct VkBuffer_T **buffers; /* buffers with a device address, for address lookups */
    uint32_t nbuffers, cap_buffers;
    int lost;
    char fault[1024];       /* the engine's message when lost */
    cvk_device_profile profile;
    /* cooperative features the application enabled at vkCreateDevice, for
     * the device rules of pipeline creation (cvk_pipeline_build) */
    uint32_t cm_workgroup_scope, cm_flexible_dimensions, cm_properties2;
};

struct VkDeviceMemory_T {
    uint8_t *data;
    VkDeviceSize size;
};

struct VkBuffer_T {
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    struct VkDeviceMemory_T *memory;
    VkDeviceSize offset;
    cvm_buffer *bda[CVK_SUBGROUP_SIZES]; /* registered once bound, same address in each */
    uint64_t address;
};

/* One binding of a set layout: descriptors [first, first + count) of a set;
 * a dynamic binding takes the set's dynamic offsets [dyn_first, dyn_first +
 * count) (dynamic offsets go in binding-number order). */
typedef struct cvk_layout_binding {
    uint32_t binding;
    VkDescriptorType type;
    uint32_t count;
    uint32_t first;
    uint32_t dyn_first;
} cvk_layout_binding;

struct VkDescriptorSetLayout_T {
    cvk_layout_binding *bindings; /* by binding number */
    uint32_t nbindings;
    uint32_t ndescriptors;
    uint32_t ndynamic;
};

/* A buffer descriptor as written.  It keeps the memory the buffer was bound
 * to (a buffer is bound before it is written to a set, and its binding never
 * changes), never the VkBuffer: the application may destroy the buffer, and
 * free its memory, while the set still names it, as long as no dispatch
 * statically uses the descriptor (VUID-vkCmdDispatch-None-08114).  Nothing
 * reads through `data` except a dispatch whose pipeline statically uses the
 * binding. */
typedef struct cvk_descriptor {
    uint8_t *data;            /* the buffer's first byte; NULL: nothing written, or no memory */
    VkDeviceSize buffer_size; /* the buffer's size in bytes */
    VkDeviceSize offset, range;
} cvk_descriptor;

struct VkDescriptorSet_T {
    struct VkDescriptorPool_T *pool;
    struct VkDescriptorSet_T *next_in_pool;
    struct VkDescriptorSetLayout_T layout; /* a copy: the layout may be destroyed first */
    cvk_descriptor *descriptors;
};

struct VkDescriptorPool_T {
    struct VkDescriptorSet_T *sets;
};

struct VkPipelineLayout_T {
    uint32_t push_size; /* the end of the last push-constant range */
};

struct VkShaderModule_T {
    uint32_t *words;
    size_t nwords;
};

struct VkPipeline_T {
    cvm_module *module;
    cvm_pipeline *pipeline;
    uint32_t push_size;
    cvk_pipeline_profile profile;
};

/* A shader object (VK_EXT_shader_object), compute stage only: a pipeline
 * as vkCreateComputePipelines makes it, and its binary (vkGetShaderBinaryDataEXT),
 * which vkCreateShadersEXT takes back with VK_SHADER_CODE_TYPE_BINARY_EXT. */
struct VkShaderEXT_T {
    struct VkPipeline_T *pipeline;
    uint8_t *binary;
    size_t binary_size;
};

struct VkPipelineCache_T {
    int unused;
};

struct VkFence_T {
    int signaled;
};

struct VkSemaphore_T {
    int timeline;
    uint64_t value;
};

struct VkEvent_T {
    int set;
};

struct VkQueryPool_T {
    VkQueryType type;
    uint32_t count;
    uint64_t *values;
    uint8_t *available;
};

struct VkCommandPool_T {
    struct VkCommandBuffer_T *buffers;
};

typedef struct cvk_cmd cvk_cmd;

struct VkCommandBuffer_T {
    VK_LOADER_DATA loader;
    struct VkDevice_T *device;
    struct VkCommandPool_T *pool;
    struct VkCommandBuffer_T *next_in_pool;
    cvk_cmd **cmds;
    uint32_t ncmds, cap;
    int failed; /* out of memory while recording: vkEndCommandBuffer reports it */
};

/* icd_instance.c */
void cvk_fill_features(VkBaseOutStructure *chain);

/* icd_device.c */
void cvk_device_fail(struct VkDevice_T *device, const char *what, const cvm_diagnostic *diag);
VkResult cvk_required_subgroup(const void *chain, uint32_t *o_log2);
VkResult cvk_specializations(const VkSpecializationInfo *si, cvm_specialization **o_specs,
                             uint32_t *o_count);
/* How a pipeline or shader object is created, for the device rules
 * cvk_pipeline_build checks (cvm_device_description's pipeline facts). */
enum {
    CVK_PIPE_FULL_SUBGROUPS = 1u << 0, /* ..._REQUIRE_FULL_SUBGROUPS_BIT(_EXT) */
    CVK_PIPE_64BIT_INDEXING = 1u << 1, /* VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT, or
                                          VK_SHADER_CREATE_64_BIT_INDEXING_BIT_EXT */
    CVK_PIPE_SHADER_OBJECT = 1u << 2   /* a VkShaderEXT */
};
VkResult cvk_pipeline_build(struct VkDevice_T *d, const uint32_t *words, size_t nwords,
                            const char *name, const cvm_specialization *specs, uint32_t nspecs,
                            uint32_t sg_log2, uint32_t push_size, uint32_t pipe_flags,
                            const char *what, struct VkPipeline_T **o);
void cvk_pipeline_destroy(struct VkPipeline_T *p);
struct VkBuffer_T *cvk_buffer_at_address(struct VkDevice_T *device, uint64_t address,
                                         VkDeviceSize *o_offset);
uint32_t cvk_threads(void);

/* icd_profile.c: COOPVM_VK_PROFILE (the file says what it writes). */
uint64_t cvk_now_ns(void);
void cvk_profile_device_start(struct VkDevice_T *d);
void cvk_profile_pipeline_start(struct VkDevice_T *d, struct VkPipeline_T *p, uint64_t create_ns,
                                const uint32_t *words, size_t nwords, const char *entry,
                                uint32_t nspecs);
void cvk_profile_pipeline_done(struct VkPipeline_T *p);
void cvk_profile_device_done(struct VkDevice_T *d);

/* icd_cmd.c: executes a command buffer's commands in order; returns
 * VK_ERROR_DEVICE_LOST after a failed dispatch (the device is lost). */
VkResult cvk_execute(struct VkCommandBuffer_T *cb);
void cvk_cmds_free(struct VkCommandBuffer_T *cb);

/* icd_shader.c: the shader-object commands, by name (NULL for others), and
 * the shader binary format's version (VkPhysicalDeviceShaderObjectPropertiesEXT). */
PFN_vkVoidFunction cvk_shader_lookup(const char *name);
#define CVK_SHADER_BINARY_VERSION 1

/* The entry points, by name; NULL for names the ICD lacks. */
PFN_vkVoidFunction cvk_lookup(const char *name);

#endif /* CVK_ICD_H */
