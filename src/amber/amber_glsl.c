/* GLSL compute shaders of scripts, compiled to SPIR-V by glslang used as a
 * library through its C interface (glslang_c_interface.h), the way
 * google/amber hands GLSL to a compiler.  coopvm has no GLSL front end of
 * its own: a build without glslang (CVM_HAVE_GLSLANG undefined, set by
 * CMake when it finds glslang's package) refuses GLSL shaders as
 * unsupported, saying why. */
#include <stdio.h> /* snprintf only: this layer never prints */
#include <string.h>

#include "amber/amber_internal.h"
#include "cvm_common.h"

#ifdef CVM_HAVE_GLSLANG
#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <pthread.h>

/* TARGET_ENV values, as google/amber reads them: the Vulkan version the
 * shader is written for and the SPIR-V version to emit (no TARGET_ENV:
 * spv1.0). */
static const struct {
    const char *name;
    glslang_target_client_version_t vulkan;
    glslang_target_language_version_t spirv;
} target_envs[] = {
    {"spv1.0", GLSLANG_TARGET_VULKAN_1_0, GLSLANG_TARGET_SPV_1_0},
    {"spv1.1", GLSLANG_TARGET_VULKAN_1_1, GLSLANG_TARGET_SPV_1_1},
    {"spv1.2", GLSLANG_TARGET_VULKAN_1_1, GLSLANG_TARGET_SPV_1_2},
    {"spv1.3", GLSLANG_TARGET_VULKAN_1_1, GLSLANG_TARGET_SPV_1_3},
    {"spv1.4", GLSLANG_TARGET_VULKAN_1_2, GLSLANG_TARGET_SPV_1_4},
    {"spv1.5", GLSLANG_TARGET_VULKAN_1_2, GLSLANG_TARGET_SPV_1_5},
    {"spv1.6", GLSLANG_TARGET_VULKAN_1_3, GLSLANG_TARGET_SPV_1_6},
    {"vulkan1.0", GLSLANG_TARGET_VULKAN_1_0, GLSLANG_TARGET_SPV_1_0},
    {"vulkan1.1", GLSLANG_TARGET_VULKAN_1_1, GLSLANG_TARGET_SPV_1_3},
    {"vulkan1.1spv1.4", GLSLANG_TARGET_VULKAN_1_1, GLSLANG_TARGET_SPV_1_4},
    {"vulkan1.2", GLSLANG_TARGET_VULKAN_1_2, GLSLANG_TARGET_SPV_1_5},
    {"vulkan1.3", GLSLANG_TARGET_VULKAN_1_3, GLSLANG_TARGET_SPV_1_6},
};

static pthread_once_t glslang_once = PTHREAD_ONCE_INIT;
static int glslang_ready;

/* glslang's process state is set up once and kept for the life of the
 * process (glslang_finalize_process is not called: other users of glslang
 * in the same process may still need it). */
static void glslang_init(void)
{
    glslang_ready = glslang_initialize_process() != 0;
}

/* Copies the first lines of a glslang log into the diagnostic message. */
static cvm_result log_error(cvm_diagnostic *d, const char *what, const char *log)
{
    if (!log || !*log)
        log = "(no log)";
    /* glslang writes "ERROR: 0:12: 'x' : undeclared identifier\n..." */
    return cvm_diag_set(d, CVM_ERROR_SYNTAX, "GLSL %s failed: %.400s", what, log);
}

cvm_result cvm_amber_compile_glsl(const char *source, size_t length, const char *target_env,
                                  uint32_t **o_words, size_t *o_count, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    *o_words = NULL;
    *o_count = 0;
    size_t env = 0;
    if (target_env) {
        for (env = 0; env < CVM_ARRAY_SIZE(target_envs); env++)
            if (!strcmp(target_envs[env].name, target_env))
                break;
        if (env == CVM_ARRAY_SIZE(target_envs))
            return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED,
                                "TARGET_ENV %s is not one coopvm knows (spv1.0..spv1.6, "
                                "vulkan1.0..vulkan1.3, vulkan1.1spv1.4)",
                                target_env);
    }
    pthread_once(&glslang_once, glslang_init);
    if (!glslang_ready)
        return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED, "glslang could not be initialised");
    /* glslang reads a NUL-terminated string */
    char *text = cvm_malloc(length + 1);
    if (!text)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    memcpy(text, source, length);
    text[length] = 0;
    glslang_input_t input;
    memset(&input, 0, sizeof(input));
    input.language = GLSLANG_SOURCE_GLSL;
    input.stage = GLSLANG_STAGE_COMPUTE;
    input.client = GLSLANG_CLIENT_VULKAN;
    input.client_version = target_envs[env].vulkan;
    input.target_language = GLSLANG_TARGET_SPV;
    input.target_language_version = target_envs[env].spirv;
    input.code = text;
    input.default_version = 100; /* a shader without #version: glslang's default */
    input.default_profile = GLSLANG_NO_PROFILE;
    input.force_default_version_and_profile = 0;
    input.forward_compatible = 0;
    input.messages = (glslang_messages_t)(GLSLANG_MSG_SPV_RULES_BIT |
                                          GLSLANG_MSG_VULKAN_RULES_BIT);
    input.resource = glslang_default_resource();

    cvm_result r = CVM_SUCCESS;
    glslang_program_t *program = NULL;
    glslang_shader_t *shader = glslang_shader_create(&input);
    if (!shader) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "glslang could not create a shader");
        goto done;
    }
    if (!glslang_shader_preprocess(shader, &input)) {
        r = log_error(o_diag, "preprocessing", glslang_shader_get_info_log(shader));
        goto done;
    }
    if (!glslang_shader_parse(shader, &input)) {
        r = log_error(o_diag, "compilation", glslang_shader_get_info_log(shader));
        goto done;
    }
    program = glslang_program_create();
    if (!program) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "glslang could not create a program");
        goto done;
    }
    glslang_program_add_shader(program, shader);
    if (!glslang_program_link(program, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT)) {
        r = log_error(o_diag, "linking", glslang_program_get_info_log(program));
        goto done;
    }
    glslang_spv_options_t opts;
    memset(&opts, 0, sizeof(opts));
    opts.disable_optimizer = 1; /* what the shader says, not what an optimiser makes of it */
    glslang_program_SPIRV_generate_with_options(program, GLSLANG_STAGE_COMPUTE, &opts);
    size_t n = glslang_program_SPIRV_get_size(program);
    const char *msgs = glslang_program_SPIRV_get_messages(program);
    if (n == 0) {
        r = log_error(o_diag, "SPIR-V generation", msgs);
        goto done;
    }
    uint32_t *words = cvm_malloc(n * sizeof(uint32_t));
    if (!words) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    glslang_program_SPIRV_get(program, words);
    *o_words = words;
    *o_count = n;
done:
    if (program)
        glslang_program_delete(program);
    if (shader)
        glslang_shader_delete(shader);
    cvm_mem_free(text);
    return r;
}

int cvm_amber_have_glsl(void)
{
    return 1;
}

#else /* no glslang */

cvm_result cvm_amber_compile_glsl(const char *source, size_t length, const char *target_env,
                                  uint32_t **o_words, size_t *o_count, cvm_diagnostic *o_diag)
{
    (void)source;
    (void)length;
    (void)target_env;
    *o_words = NULL;
    *o_count = 0;
    return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED,
                        "GLSL shaders need glslang, and this coopvm was built without it "
                        "(install glslang-dev and rebuild, or give the shader as SPIR-V)");
}

int cvm_amber_have_glsl(void)
{
    return 0;
}

#endif
