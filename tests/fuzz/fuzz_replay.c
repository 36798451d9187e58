/* Runs a harness of tests/fuzz on saved inputs without libFuzzer: one line
 * per file, "FILE: STATUS: message" with the last status the harness saw.
 * The regression tests (tests/fuzz.cmake) match these lines; a crash or a
 * broken contract (an abort in cvm_fuzz_check) ends the run before its
 * line is printed. */
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "%s: cannot open\n", argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, size = 0;
        uint8_t *data = malloc(cap);
        size_t got;
        while (data && (got = fread(data + size, 1, cap - size, f)) > 0) {
            size += got;
            if (size == cap) {
                cap *= 2;
                uint8_t *nd = realloc(data, cap);
                if (!nd)
                    free(data);
                data = nd;
            }
        }
        fclose(f);
        if (!data) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            return 2;
        }
        cvm_fuzz_last_result = CVM_SUCCESS;
        memset(&cvm_fuzz_last_diag, 0, sizeof(cvm_fuzz_last_diag));
        LLVMFuzzerTestOneInput(data, size);
        free(data);
        printf("%s: %s: %s\n", argv[i], cvm_result_string(cvm_fuzz_last_result),
               cvm_fuzz_last_result == CVM_SUCCESS ? "" : cvm_fuzz_last_diag.message);
    }
    return 0;
}
