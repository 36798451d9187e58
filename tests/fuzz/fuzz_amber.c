/* libFuzzer harness: bytes as an AmberScript or VkScript -> cvm_amber_parse,
 * and a script that parses runs (cvm_amber_execute) on one thread with an
 * instruction budget of 20000 and a 64 MiB memory limit.  Contract:
 * fuzz_common.h; a failed EXPECT is a status like any other. */
#include "amber/amber.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cvm_fuzz_text(data, size);
    if (!text)
        return 0;
    cvm_amber_script *script = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_parse(text, size, NULL, &script, &d);
    cvm_fuzz_check(r, &d);
    if (r == CVM_SUCCESS) {
        cvm_context_desc desc = {0};
        desc.threads = 1;
        desc.instruction_budget = 20000;
        desc.memory_limit = 64u << 20;
        cvm_amber_report report = {0};
        r = cvm_amber_execute(script, &desc, &report, &d);
        cvm_fuzz_check(r, &d);
        cvm_amber_report_release(&report);
        cvm_amber_script_destroy(script);
    }
    free(text);
    return 0;
}
