/* coopvm dis / coopvm as: the SPIR-V text form, interchangeable with
 * SPIRV-Tools' spirv-dis and spirv-as. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coopvm.h"

static void dis_usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm dis FILE.spv [-o OUT] [--raw-id] [--no-header]\n"
            "\n"
            "Disassembles a SPIR-V binary into the text form of spirv-dis (same bytes).\n"
            "\n"
            "  -o OUT        write the text to OUT (default: standard output; '-' too)\n"
            "  --raw-id      show ids as %%N instead of friendly names\n"
            "  --no-header   omit the '; SPIR-V' comment block\n"
            "  -h, --help    show this help\n");
}

static void as_usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm as FILE.spvasm [-o OUT] [--preserve-numeric-ids] [--target-env ENV]\n"
            "\n"
            "Assembles spirv-as text into a SPIR-V binary.  The header's generator word is\n"
            "coopvm's: tool 0 (unregistered) in the high 16 bits, (major << 8 | minor) of\n"
            "the coopvm version in the low 16 bits.\n"
            "\n"
            "  -o OUT                  write the binary to OUT (default: out.spv, as spirv-as)\n"
            "  --preserve-numeric-ids  %%N keeps the number N (other ids fill the gaps)\n"
            "  --target-env ENV        sets the header version: spv1.0 .. spv1.6,\n"
            "                          vulkan1.0 .. vulkan1.4 (default: the version of a\n"
            "                          '; Version: 1.N' comment at the top of the text,\n"
            "                          as spirv-dis writes it, else spv1.6)\n"
            "  -h, --help              show this help\n");
}

static int read_file(const char *path, char **o_data, size_t *o_size)
{
    unsigned char *buf;
    int r = cvm_cli_read_file(path, 1, &buf, o_size);
    if (r <= 0) {
        fprintf(stderr, "coopvm: cannot %s '%s'\n", r == 0 ? "open" : "read", path);
        return 0;
    }
    *o_data = (char *)buf;
    return 1;
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f) {
        fprintf(stderr, "coopvm: cannot open '%s' for writing\n", path);
        return 0;
    }
    int ok = fwrite(data, 1, size, f) == size;
    if (f != stdout)
        ok = (fclose(f) == 0) && ok;
    else
        ok = (fflush(f) == 0) && ok;
    if (!ok)
        fprintf(stderr, "coopvm: cannot write '%s'\n", path);
    return ok;
}

int cvm_cli_dis(int argc, char **argv)
{
    const char *in = NULL, *out = "-";
    uint32_t flags = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            dis_usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--raw-id")) {
            flags |= CVM_TEXT_RAW_ID;
        } else if (!strcmp(a, "--no-header")) {
            flags |= CVM_TEXT_NO_HEADER;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "coopvm dis: unknown option '%s'\n", a);
            dis_usage(stderr);
            return 2;
        } else if (!in) {
            in = a;
        } else {
            fprintf(stderr, "coopvm dis: more than one input file\n");
            return 2;
        }
    }
    if (!in) {
        dis_usage(stderr);
        return 2;
    }
    char *data;
    size_t size;
    if (!read_file(in, &data, &size))
        return 1;
    if (size % 4 != 0) {
        fprintf(stderr, "coopvm dis: '%s' is %zu bytes, not a whole number of words\n", in, size);
        free(data);
        return 1;
    }
    size_t count = size / 4;
    uint32_t *words = malloc(count ? count * 4 : 4);
    if (!words) {
        free(data);
        fprintf(stderr, "coopvm dis: out of memory\n");
        return 1;
    }
    memcpy(words, data, size);
    free(data);
    char *text = NULL;
    size_t len = 0;
    cvm_diagnostic diag;
    cvm_result r = cvm_disassemble(words, count, flags, &text, &len, &diag);
    free(words);
    if (r != CVM_SUCCESS) {
        fprintf(stderr, "%s: error: %s (%s)\n", in, diag.message, cvm_result_string(r));
        return 1;
    }
    int ok = write_file(out, text, len);
    cvm_free(text);
    return ok ? 0 : 1;
}

int cvm_cli_as(int argc, char **argv)
{
    const char *in = NULL, *out = "out.spv", *env = NULL;
    uint32_t flags = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            as_usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--preserve-numeric-ids")) {
            flags |= CVM_TEXT_PRESERVE_NUMERIC_IDS;
        } else if (!strcmp(a, "--target-env") && i + 1 < argc) {
            env = argv[++i];
        } else if (!strncmp(a, "--target-env=", 13)) {
            env = a + 13;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "coopvm as: unknown option '%s'\n", a);
            as_usage(stderr);
            return 2;
        } else if (!in) {
            in = a;
        } else {
            fprintf(stderr, "coopvm as: more than one input file\n");
            return 2;
        }
    }
    if (!in) {
        as_usage(stderr);
        return 2;
    }
    char *text;
    size_t size;
    if (!read_file(in, &text, &size))
        return 1;
    uint32_t *words = NULL;
    size_t count = 0;
    cvm_diagnostic diag;
    cvm_result r = cvm_assemble(text, size, flags, env, &words, &count, &diag);
    free(text);
    if (r != CVM_SUCCESS) {
        if (diag.line)
            fprintf(stderr, "%s:%u:%u: error: %s\n", in, diag.line, diag.column, diag.message);
        else
            fprintf(stderr, "%s: error: %s (%s)\n", in, diag.message, cvm_result_string(r));
        return 1;
    }
    int ok = write_file(out, words, count * sizeof(uint32_t));
    cvm_free(words);
    return ok ? 0 : 1;
}
