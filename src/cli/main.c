/* coopvm: the command-line tool.  A client of coopvm.h, nothing more. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "coopvm.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm COMMAND [ARGS]\n"
            "\n"
            "commands:\n"
            "  run    run an AmberScript, or a .spv compute shader with flags\n"
            "  dis    disassemble SPIR-V into spirv-dis text\n"
            "  as     assemble spirv-as text into SPIR-V\n"
            "  val    validate a SPIR-V module (as spirv-val, with the extensions' rules)\n"
            "  info   what the engine supports, as the Vulkan queries report it\n"
            "\n"
            "'coopvm COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("coopvm %d.%d.%d\n", CVM_VERSION_MAJOR, CVM_VERSION_MINOR, CVM_VERSION_PATCH);
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cvm_cli_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "dis"))
        return cvm_cli_dis(argc - 1, argv + 1);
    if (!strcmp(cmd, "as"))
        return cvm_cli_as(argc - 1, argv + 1);
    if (!strcmp(cmd, "val"))
        return cvm_cli_val(argc - 1, argv + 1);
    if (!strcmp(cmd, "info"))
        return cvm_cli_info(argc - 1, argv + 1);
    fprintf(stderr, "coopvm: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
