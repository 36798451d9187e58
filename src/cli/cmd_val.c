/* coopvm val: the validator, interchangeable with SPIRV-Tools' spirv-val for
 * the modules both check (exit status 0 valid, 1 invalid, 2 usage). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coopvm.h"

static void val_usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm val FILE.spv [--target-env ENV] [--strict] [--device coopvm]\n"
            "                  [--pipeline-flags FLAGS] [--entry-point NAME]\n"
            "       coopvm val --rules\n"
            "\n"
            "Validates a SPIR-V module against the rules of the cooperative matrix and\n"
            "cooperative vector extensions, their Vulkan environment rules, and the core\n"
            "structure coopvm's engine relies on.  Exit status 0 when the module is\n"
            "valid, 1 when it is not (the first broken rule is printed as spirv-val\n"
            "prints errors: the rule, the source line if the module has OpLine, and\n"
            "the instruction), 2 for a usage or file error.\n"
            "\n"
            "Rules have a severity.  A few are warnings: the extensions' Dependencies\n"
            "(\"This extension requires SPIR-V 1.6\", another extension), which describe\n"
            "the environment an extension ships in, and KHR-CM.Signed-Components (the\n"
            "signedness flags on float matrices); spirv-val does not check them, and\n"
            "drivers run modules that break them (--rules lists every rule's\n"
            "severity).  A broken warning is printed in the same form as an error,\n"
            "starting with \"warning:\", and does not make the module invalid (coopvm\n"
            "run and the Vulkan driver run it too).\n"
            "\n"
            "  --target-env ENV  spv1.0 .. spv1.6 (default spv1.6), vulkan1.0 .. vulkan1.4,\n"
            "                    vulkan1.1spv1.4; vulkan targets add the Vulkan rules\n"
            "  --device coopvm   also check the rules that depend on the device and the\n"
            "                    pipeline (--rules marks them \"device\"): the Vulkan\n"
            "                    property lists, limits, supported stages and features\n"
            "                    as coopvm's Vulkan driver reports them (every optional\n"
            "                    cooperative feature enabled), for a vulkan* target;\n"
            "                    without it those rules are not checked\n"
            "  --pipeline-flags FLAGS  with --device: how the pipeline is created, a\n"
            "                    comma-separated list of full-subgroups\n"
            "                    (REQUIRE_FULL_SUBGROUPS), 64-bit-indexing\n"
            "                    (VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT),\n"
            "                    shader-object (a VK_EXT_shader_object shader)\n"
            "  --entry-point NAME  with --device: the pipeline's entry point (default:\n"
            "                    every entry point)\n"
            "  --strict          warnings are errors: the first broken rule of either\n"
            "                    severity makes the module invalid\n"
            "  --rules           list every rule: id, checked or not, environment,\n"
            "                    severity (error or warning), text and section, what\n"
            "                    must hold\n"
            "  -h, --help        show this help\n");
}

static int list_rules(void)
{
    uint32_t n = cvm_validation_rule_count(), checked = 0, device = 0;
    for (uint32_t i = 0; i < n; i++) {
        cvm_validation_rule r;
        if (cvm_validation_rule_get(i, &r) != CVM_SUCCESS)
            return 1;
        checked += r.checked ? 1 : 0;
        device += r.checked == 2 ? 1 : 0;
        printf("%s\t%s\t%s\t%s\t%s, %s\t%s\n", r.id,
               r.checked == 2 ? "device" : r.checked ? "checked" : "listed",
               r.vulkan_only ? "vulkan" : "any", r.warning ? "warning" : "error", r.source,
               r.section, r.text);
    }
    printf("# %u rules, %u checked (%u of them against a device description: --device), %u "
           "listed (run-time values, a text erratum)\n",
           n, checked, device, n - checked);
    return 0;
}

static int read_words(const char *path, uint32_t **o_words, size_t *o_count)
{
    unsigned char *buf;
    size_t len;
    int r = cvm_cli_read_file(path, 1, &buf, &len);
    if (r <= 0) {
        fprintf(stderr, "coopvm val: cannot %s '%s'\n", r == 0 ? "open" : "read", path);
        return 0;
    }
    if (len % 4) {
        free(buf);
        fprintf(stderr, "error: %s: %zu bytes is not a whole number of words\n", path, len);
        return -1;
    }
    uint32_t *words = malloc(len ? len : 4);
    if (!words) {
        free(buf);
        fprintf(stderr, "coopvm val: out of memory\n");
        return 0;
    }
    memcpy(words, buf, len);
    free(buf);
    *o_words = words;
    *o_count = len / 4;
    return 1;
}

/* One diagnostic as spirv-val prints its errors: "KIND: FILE: word N (file:
 * line:column): message", then the instruction on its own line, indented
 * (the message ends in " at word N: <instruction>"). */
static void print_diag(const char *kind, const char *path, const cvm_diagnostic *diag)
{
    char tail[32];
    snprintf(tail, sizeof(tail), " at word %u: ", diag->word_offset);
    const char *cut = diag->word_offset != UINT32_MAX ? strstr(diag->message, tail) : NULL;
    int head = cut ? (int)(cut - diag->message) : (int)strlen(diag->message);
    fprintf(stderr, "%s: %s", kind, path);
    if (diag->word_offset != UINT32_MAX && cut)
        fprintf(stderr, ": word %u", diag->word_offset);
    if (diag->line)
        fprintf(stderr, " (%s:%u:%u)", diag->file[0] ? diag->file : "line", diag->line,
                diag->column);
    fprintf(stderr, ": %.*s\n", head, diag->message);
    if (cut)
        fprintf(stderr, "  %s\n", cut + strlen(tail));
}

static void print_warning(void *user, const cvm_diagnostic *warning)
{
    print_diag("warning", (const char *)user, warning);
}

int cvm_cli_val(int argc, char **argv)
{
    const char *in = NULL;
    cvm_validate_options opt = {NULL, 0, NULL, NULL, NULL};
    cvm_device_description dev;
    const char *device = NULL, *flags = NULL, *entry = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            val_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--rules")) {
            return list_rules();
        } else if (!strcmp(a, "--strict")) {
            opt.flags |= CVM_VALIDATE_STRICT;
        } else if (!strcmp(a, "--target-env") && i + 1 < argc) {
            opt.target_env = argv[++i];
        } else if (!strncmp(a, "--target-env=", 13)) {
            opt.target_env = a + 13;
        } else if (!strcmp(a, "--device") && i + 1 < argc) {
            device = argv[++i];
        } else if (!strncmp(a, "--device=", 9)) {
            device = a + 9;
        } else if (!strcmp(a, "--pipeline-flags") && i + 1 < argc) {
            flags = argv[++i];
        } else if (!strncmp(a, "--pipeline-flags=", 17)) {
            flags = a + 17;
        } else if (!strcmp(a, "--entry-point") && i + 1 < argc) {
            entry = argv[++i];
        } else if (!strncmp(a, "--entry-point=", 14)) {
            entry = a + 14;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "coopvm val: unknown option '%s'\n", a);
            val_usage(stderr);
            return 2;
        } else if (!in) {
            in = a;
        } else {
            fprintf(stderr, "coopvm val: more than one input file\n");
            return 2;
        }
    }
    if (!in) {
        val_usage(stderr);
        return 2;
    }
    if (device) {
        if (strcmp(device, "coopvm") != 0) {
            fprintf(stderr, "coopvm val: unknown device '%s' (coopvm)\n", device);
            return 2;
        }
        cvm_get_device_description(&dev);
        dev.entry_point = entry;
        for (const char *f = flags; f && *f;) {
            size_t len = strcspn(f, ",");
            if (len == 14 && !strncmp(f, "full-subgroups", len))
                dev.require_full_subgroups = 1;
            else if (len == 15 && !strncmp(f, "64-bit-indexing", len))
                dev.indexing_64bit = 1;
            else if (len == 13 && !strncmp(f, "shader-object", len))
                dev.shader_object = 1;
            else {
                fprintf(stderr, "coopvm val: unknown pipeline flag '%.*s' (full-subgroups, "
                                "64-bit-indexing, shader-object)\n",
                        (int)len, f);
                return 2;
            }
            f += len + (f[len] == ',');
        }
        opt.device = &dev;
    } else if (flags || entry) {
        fprintf(stderr, "coopvm val: --pipeline-flags and --entry-point need --device\n");
        return 2;
    }
    uint32_t *words = NULL;
    size_t count = 0;
    int got = read_words(in, &words, &count);
    if (got <= 0)
        return got < 0 ? 1 : 2;
    cvm_diagnostic diag;
    opt.on_warning = print_warning;
    opt.user = (void *)in;
    cvm_result r = cvm_validate(words, count, &opt, &diag);
    free(words);
    if (r == CVM_SUCCESS)
        return 0;
    if (r == CVM_ERROR_INVALID_ARGUMENT || r == CVM_ERROR_OUT_OF_MEMORY) {
        fprintf(stderr, "coopvm val: %s\n", diag.message);
        return 2;
    }
    print_diag("error", in, &diag);
    return 1;
}
