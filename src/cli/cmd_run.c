/* coopvm run: placeholder until the AmberScript runner lands. */
#include <stdio.h>

#include "cli/cli.h"

int cvm_cli_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "coopvm run: not implemented yet\n");
    return 1;
}
