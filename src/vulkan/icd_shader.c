/* Shader objects (VK_EXT_shader_object) for the compute stage: a thin layer
 * over the compute pipelines.  vkCreateShadersEXT builds the same engine
 * pipeline vkCreateComputePipelines does, from the create info's SPIR-V,
 * entry point, specialization constants, required subgroup size and push
 * constant ranges (the set layouts need nothing: descriptors are found by
 * set and binding at dispatch); vkCmdBindShadersEXT binds it as
 * vkCmdBindPipeline would (icd_cmd.c).
 *
 * The binary (vkGetShaderBinaryDataEXT, VK_SHADER_CODE_TYPE_BINARY_EXT) is
 * what a pipeline is made from, little-endian:
 *
 *   bytes 0..7    "coopvmSO"
 *   u32           CVK_SHADER_BINARY_VERSION
 *   u32           log2 of the subgroup size
 *   u32 nspecs    specialization constants
 *   u32 nname     bytes of the entry point name, its NUL and padding to 4
 *   u32 nwords    SPIR-V words
 *   u32           0
 *   nspecs x      {u32 constant id, u32 size, u64 bits} (cvm_specialization)
 *   nname bytes   the entry point name
 *   nwords x u32  the SPIR-V module
 *
 * so that a binary made again into a shader gives the same pipeline; the
 * binary path takes the push constant ranges from its create info, as the
 * SPIR-V path does.  A binary that is not of this form (or of another
 * version) is refused with VK_INCOMPATIBLE_SHADER_BINARY_EXT. */
#include <stdlib.h>
#include <string.h>

#include "vulkan/icd.h"

typedef struct cvk_proc {
    const char *name;
    PFN_vkVoidFunction fn;
} cvk_proc;

static const char magic[8] = {'c', 'o', 'o', 'p', 'v', 'm', 'S', 'O'};
#define HEADER_BYTES 32
#define SPEC_BYTES 16

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The binary of a shader made from `words`; NULL when out of memory. */
static uint8_t *make_binary(const uint32_t *words, size_t nwords, const char *name,
                            const cvm_specialization *specs, uint32_t nspecs, uint32_t sg_log2,
                            size_t *o_size)
{
    size_t len = strlen(name);
    size_t nname = (len + 1 + 3) & ~(size_t)3;
    size_t size = HEADER_BYTES + (size_t)nspecs * SPEC_BYTES + nname + nwords * 4;
    uint8_t *b = calloc(1, size);
    if (!b)
        return NULL;
    memcpy(b, magic, sizeof(magic));
    put32(b + 8, CVK_SHADER_BINARY_VERSION);
    put32(b + 12, sg_log2);
    put32(b + 16, nspecs);
    put32(b + 20, (uint32_t)nname);
    put32(b + 24, (uint32_t)nwords);
    uint8_t *at = b + HEADER_BYTES;
    for (uint32_t i = 0; i < nspecs; i++, at += SPEC_BYTES) {
        put32(at, specs[i].constant_id);
        put32(at + 4, specs[i].size);
        put32(at + 8, (uint32_t)specs[i].bits);
        put32(at + 12, (uint32_t)(specs[i].bits >> 32));
    }
    memcpy(at, name, len);
    at += nname;
    for (size_t i = 0; i < nwords; i++)
        put32(at + 4 * i, words[i]);
    *o_size = size;
    return b;
}

/* A binary read back: the parts point into `b` except `words` and `specs`,
 * new arrays (the binary need not be aligned).  0 when `b` is not a binary
 * of this version, or (with *o_nomem set) when out of memory. */
typedef struct binary_parts {
    uint32_t sg_log2, nspecs;
    cvm_specialization *specs;
    const char *name;
    uint32_t *words;
    size_t nwords;
} binary_parts;

static int read_binary(const uint8_t *b, size_t size, binary_parts *o, int *o_nomem)
{
    memset(o, 0, sizeof(*o));
    *o_nomem = 0;
    if (!b || size < HEADER_BYTES || memcmp(b, magic, sizeof(magic)) ||
        get32(b + 8) != CVK_SHADER_BINARY_VERSION)
        return 0;
    uint64_t nspecs = get32(b + 16), nname = get32(b + 20), nwords = get32(b + 24);
    o->sg_log2 = get32(b + 12);
    if (o->sg_log2 >= CVK_SUBGROUP_SIZES || nname == 0 || nname % 4 || nwords == 0 ||
        HEADER_BYTES + nspecs * SPEC_BYTES + nname + nwords * 4 != (uint64_t)size)
        return 0;
    const uint8_t *at = b + HEADER_BYTES + nspecs * SPEC_BYTES;
    if (!memchr(at, 0, (size_t)nname))
        return 0;
    o->name = (const char *)at;
    o->nspecs = (uint32_t)nspecs;
    o->nwords = (size_t)nwords;
    o->words = malloc((size_t)nwords * 4);
    o->specs = calloc(nspecs ? (size_t)nspecs : 1, sizeof(*o->specs));
    if (!o->words || !o->specs) {
        free(o->words);
        free(o->specs);
        *o_nomem = 1;
        return 0;
    }
    for (uint32_t i = 0; i < o->nspecs; i++) {
        const uint8_t *s = b + HEADER_BYTES + (size_t)i * SPEC_BYTES;
        o->specs[i].constant_id = get32(s);
        o->specs[i].size = get32(s + 4);
        o->specs[i].bits = get32(s + 8) | (uint64_t)get32(s + 12) << 32;
    }
    for (size_t i = 0; i < o->nwords; i++)
        o->words[i] = get32(at + nname + 4 * i);
    return 1;
}

static void destroy_shader(struct VkShaderEXT_T *s)
{
    if (!s)
        return;
    cvk_pipeline_destroy(s->pipeline);
    free(s->binary);
    free(s);
}

static VkResult create_shader(struct VkDevice_T *d, const VkShaderCreateInfoEXT *ci,
                              struct VkShaderEXT_T **o)
{
    if (ci->stage != VK_SHADER_STAGE_COMPUTE_BIT)
        return VK_ERROR_INITIALIZATION_FAILED; /* no other stage runs here */
    uint32_t push_size = 0;
    for (uint32_t i = 0; i < ci->pushConstantRangeCount; i++) {
        uint32_t end = ci->pPushConstantRanges[i].offset + ci->pPushConstantRanges[i].size;
        if (end > push_size)
            push_size = end;
    }
    binary_parts bp;
    memset(&bp, 0, sizeof(bp));
    VkResult r;
    uint32_t pipe_flags = CVK_PIPE_SHADER_OBJECT;
    if (ci->flags & VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT)
        pipe_flags |= CVK_PIPE_FULL_SUBGROUPS;
    if (ci->flags & VK_SHADER_CREATE_64_BIT_INDEXING_BIT_EXT)
        pipe_flags |= CVK_PIPE_64BIT_INDEXING;
    if (ci->codeType == VK_SHADER_CODE_TYPE_BINARY_EXT) {
        int nomem;
        if (!read_binary(ci->pCode, ci->codeSize, &bp, &nomem))
            return nomem ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_INCOMPATIBLE_SHADER_BINARY_EXT;
    } else if (ci->codeType == VK_SHADER_CODE_TYPE_SPIRV_EXT) {
        if (!ci->pCode || !ci->pName)
            return VK_ERROR_INITIALIZATION_FAILED;
        r = cvk_required_subgroup(ci->pNext, &bp.sg_log2);
        if (r != VK_SUCCESS)
            return VK_ERROR_INITIALIZATION_FAILED;
        r = cvk_specializations(ci->pSpecializationInfo, &bp.specs, &bp.nspecs);
        if (r != VK_SUCCESS)
            return r;
        bp.nwords = ci->codeSize / 4;
        bp.words = malloc(bp.nwords ? bp.nwords * 4 : 4);
        if (!bp.words) {
            free(bp.specs);
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(bp.words, ci->pCode, bp.nwords * 4);
        bp.name = ci->pName;
    } else
        return VK_ERROR_INITIALIZATION_FAILED;
    struct VkShaderEXT_T *s = calloc(1, sizeof(*s));
    r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (s) {
        s->binary = make_binary(bp.words, bp.nwords, bp.name, bp.specs, bp.nspecs, bp.sg_log2,
                                &s->binary_size);
        if (s->binary)
            r = cvk_pipeline_build(d, bp.words, bp.nwords, bp.name, bp.specs, bp.nspecs,
                                   bp.sg_log2, push_size, pipe_flags, "vkCreateShadersEXT",
                                   &s->pipeline);
    }
    free(bp.words);
    free(bp.specs);
    if (r != VK_SUCCESS) {
        destroy_shader(s);
        return r;
    }
    *o = s;
    return VK_SUCCESS;
}

/* Each shader is made on its own: one that fails gets VK_NULL_HANDLE and
 * the first failure is returned, the others are made. */
static VKAPI_ATTR VkResult VKAPI_CALL cvk_CreateShadersEXT(VkDevice device, uint32_t n,
                                                           const VkShaderCreateInfoEXT *infos,
                                                           const VkAllocationCallbacks *pA,
                                                           VkShaderEXT *pShaders)
{
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < n; i++) {
        struct VkShaderEXT_T *s = NULL;
        VkResult r = create_shader(device, &infos[i], &s);
        pShaders[i] = s;
        if (r != VK_SUCCESS && result == VK_SUCCESS)
            result = r;
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL cvk_DestroyShaderEXT(VkDevice device, VkShaderEXT shader,
                                                       const VkAllocationCallbacks *pA)
{
    destroy_shader(shader);
}

static VKAPI_ATTR VkResult VKAPI_CALL cvk_GetShaderBinaryDataEXT(VkDevice device, VkShaderEXT shader,
                                                                 size_t *pDataSize, void *pData)
{
    if (!pData) {
        *pDataSize = shader->binary_size;
        return VK_SUCCESS;
    }
    if (*pDataSize < shader->binary_size) {
        *pDataSize = 0; /* nothing is written */
        return VK_INCOMPLETE;
    }
    memcpy(pData, shader->binary, shader->binary_size);
    *pDataSize = shader->binary_size;
    return VK_SUCCESS;
}

#define P(name) {"vk" #name, (PFN_vkVoidFunction)cvk_##name}
static const cvk_proc shader_procs[] = {
    P(CreateShadersEXT),
    P(DestroyShaderEXT),
    P(GetShaderBinaryDataEXT),
};
#undef P

PFN_vkVoidFunction cvk_shader_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(shader_procs) / sizeof(shader_procs[0]); i++)
        if (!strcmp(shader_procs[i].name, name))
            return shader_procs[i].fn;
    return NULL;
}
