/* libFuzzer harness: bytes as SPIR-V assembly text -> cvm_assemble (the
 * target environment and the numeric-id flag taken from the input's
 * length); what assembles is disassembled again, both directions under the
 * contract of fuzz_common.h. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cvm_fuzz_text(data, size);
    if (!text)
        return 0;
    static const char *const envs[] = {NULL, "vulkan1.3", "spv1.0"};
    uint32_t flags = (size & 4) ? CVM_TEXT_PRESERVE_NUMERIC_IDS : 0;
    uint32_t *words = NULL;
    size_t nwords = 0;
    cvm_diagnostic d;
    cvm_result r = cvm_assemble(text, size, flags, envs[size % 3], &words, &nwords, &d);
    cvm_fuzz_check(r, &d);
    if (r == CVM_SUCCESS) {
        char *back = NULL;
        r = cvm_disassemble(words, nwords, 0, &back, NULL, &d);
        cvm_fuzz_check(r, &d);
        cvm_free(back);
    }
    cvm_free(words);
    free(text);
    return 0;
}
