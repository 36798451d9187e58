/* libFuzzer harness: bytes as SPIR-V words -> cvm_validate, for a target
 * environment taken from the input's length (universal 1.6, Vulkan 1.4,
 * universal 1.3), warnings strict or not by its parity; then again against
 * each of three device descriptions (cvm_validate_options.device): coopvm's
 * own, a restrictive one (one short list of each kind, small limits), and
 * an empty one whose lists are NULL (with nonzero counts too), with the
 * features and pipeline flags taken from more bits of the length.  Beyond
 * the contract every harness checks (fuzz_common.h): the diagnostic's word
 * offset lies inside the module, every warning's too and with the result
 * CVM_SUCCESS, and a module the validator accepts decodes (cvm_disassemble
 * succeeds on it): acceptance promises a well-formed binary. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static size_t g_nwords;

static void check_warning(void *user, const cvm_diagnostic *w)
{
    (void)user;
    if (w->result != CVM_SUCCESS || w->message[0] != '[' ||
        (w->word_offset != UINT32_MAX && w->word_offset >= g_nwords && g_nwords))
        abort();
}

static const cvm_coopmat_properties small_khr[] = {
    {16, 16, 16, CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT32,
     CVM_COMPONENT_TYPE_FLOAT32, 0, CVM_SCOPE_SUBGROUP}};
static const cvm_coopmat_granularity small_gran[] = {
    {16, 16, 16, CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT32,
     CVM_COMPONENT_TYPE_FLOAT32, 0, CVM_SCOPE_WORKGROUP, 64, 32}};
static const cvm_coopvec_properties small_cv[] = {
    {CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT16,
     CVM_COMPONENT_TYPE_FLOAT16, CVM_COMPONENT_TYPE_FLOAT16, 0}};

/* Description `which` (0 coopvm's own, 1 restrictive, 2 empty), with the
 * features and pipeline flags of `bits`. */
static void description(int which, size_t bits, cvm_device_description *d)
{
    if (which == 0) {
        cvm_get_device_description(d);
    } else {
        memset(d, 0, sizeof(*d));
        if (which == 1) {
            d->coopmat_properties = d->coopmat_nv_properties = small_khr;
            d->coopmat_property_count = d->coopmat_nv_property_count = 1;
            d->flexible_properties = d->properties2 = small_gran;
            d->flexible_property_count = d->properties2_count = 1;
            d->coopvec_properties = small_cv;
            d->coopvec_property_count = 1;
            d->max_compute_shared_memory_size = 256;
            d->cooperative_matrix_workgroup_scope_reserved_shared_memory = 512;
            d->cooperative_matrix_flexible_dimensions_max_dimension = 32;
            d->max_cooperative_vector_components = 8;
            d->subgroup_size = 24; /* not a power of 2 */
            d->cooperative_matrix_supported_stages = CVM_STAGE_COMPUTE;
        } else {
            /* NULL lists, some with counts: taken as empty */
            d->coopmat_property_count = 7;
            d->properties2_count = 3;
            d->coopvec_property_count = 1;
        }
    }
    d->cooperative_matrix_workgroup_scope = bits & 1;
    d->cooperative_matrix_flexible_dimensions = (bits >> 1) & 1;
    d->cooperative_matrix_properties2 = (bits >> 2) & 1;
    d->require_full_subgroups = (bits >> 3) & 1;
    d->indexing_64bit = (bits >> 4) & 1;
    d->shader_object = (bits >> 5) & 1;
    d->entry_point = (bits >> 6) & 1 ? "main" : NULL;
}

static void check_result(const uint32_t *words, size_t nwords, cvm_result r, cvm_diagnostic *d)
{
    cvm_fuzz_check(r, d);
    if (r != CVM_SUCCESS && d->word_offset != UINT32_MAX && d->word_offset >= nwords && nwords)
        abort();
    if (r == CVM_SUCCESS) {
        char *text = NULL;
        size_t len = 0;
        if (cvm_disassemble(words, nwords, 0, &text, &len, d) != CVM_SUCCESS)
            abort();
        cvm_free(text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t nwords;
    uint32_t *words = cvm_fuzz_words(data, size, &nwords);
    if (!words)
        return 0;
    static const char *const envs[] = {NULL, "vulkan1.4", "spv1.3"};
    g_nwords = nwords;
    cvm_validate_options opt = {envs[size % 3], (size / 3) % 2 ? CVM_VALIDATE_STRICT : 0,
                                check_warning, NULL, NULL};
    cvm_diagnostic d;
    check_result(words, nwords, cvm_validate(words, nwords, &opt, &d), &d);
    /* The device rules: Vulkan ones under vulkan1.4, the QCOM text's under
     * any target. */
    for (int which = 0; which < 3; which++) {
        cvm_device_description dev;
        description(which, size / 6 + (size_t)which, &dev);
        opt.target_env = which == 2 && size % 2 ? "spv1.6" : "vulkan1.4";
        opt.device = &dev;
        check_result(words, nwords, cvm_validate(words, nwords, &opt, &d), &d);
    }
    free(words);
    return 0;
}
