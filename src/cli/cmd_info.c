/* coopvm info: placeholder until the engine's capability report lands. */
#include <stdio.h>

#include "cli/cli.h"

int cvm_cli_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "coopvm info: not implemented yet\n");
    return 1;
}
