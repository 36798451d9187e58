/* libFuzzer harness: bytes as SPIR-V words -> cvm_validate, for a target
 * environment taken from the input's length (universal 1.6, Vulkan 1.4,
 * universal 1.3), warnings strict or not by its parity.  Beyond the contract
 * every harness checks (fuzz_common.h): the diagnostic's word offset lies
 * inside the module, every warning's too and with the result CVM_SUCCESS,
 * and a module the validator accepts decodes (cvm_disassemble succeeds on
 * it): acceptance promises a well-formed binary. */
#include <stdlib.h>

#include "fuzz_common.h"

static size_t g_nwords;

static void check_warning(void *user, const cvm_diagnostic *w)
{
    (void)user;
    if (w->result != CVM_SUCCESS || w->message[0] != '[' ||
        (w->word_offset != UINT32_MAX && w->word_offset >= g_nwords && g_nwords))
        abort();
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
    cvm_result r = cvm_validate(words, nwords, &opt, &d);
    cvm_fuzz_check(r, &d);
    if (r != CVM_SUCCESS && d.word_offset != UINT32_MAX && d.word_offset >= nwords && nwords)
        abort();
    if (r == CVM_SUCCESS) {
        char *text = NULL;
        size_t len = 0;
        if (cvm_disassemble(words, nwords, 0, &text, &len, &d) != CVM_SUCCESS)
            abort();
        cvm_free(text);
    }
    free(words);
    return 0;
}
