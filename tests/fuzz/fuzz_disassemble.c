/* libFuzzer harness: bytes as SPIR-V words -> cvm_disassemble (friendly or
 * numeric names, with or without the header comment, by the input's
 * length); text that comes out is assembled again.  Contract: fuzz_common.h. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t nwords;
    uint32_t *words = cvm_fuzz_words(data, size, &nwords);
    if (!words)
        return 0;
    uint32_t flags = size & (CVM_TEXT_RAW_ID | CVM_TEXT_NO_HEADER);
    char *text = NULL;
    size_t len = 0;
    cvm_diagnostic d;
    cvm_result r = cvm_disassemble(words, nwords, flags, &text, &len, &d);
    cvm_fuzz_check(r, &d);
    if (r == CVM_SUCCESS) {
        uint32_t *back = NULL;
        size_t nback = 0;
        r = cvm_assemble(text, len, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &back, &nback, &d);
        cvm_fuzz_check(r, &d);
        cvm_free(back);
    }
    cvm_free(text);
    free(words);
    return 0;
}
