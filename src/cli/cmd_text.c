/* coopvm dis / as: placeholders until the text form lands. */
#include <stdio.h>

#include "cli/cli.h"

int cvm_cli_dis(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "coopvm dis: not implemented yet\n");
    return 1;
}

int cvm_cli_as(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "coopvm as: not implemented yet\n");
    return 1;
}
