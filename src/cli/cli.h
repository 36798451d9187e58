/* The coopvm command line: one function per sub-command, each a client of
 * coopvm.h only.  Each returns the process exit status (0 success, 1 a
 * failed check or run, 2 usage error). */
#ifndef CVM_CLI_H
#define CVM_CLI_H

int cvm_cli_run(int argc, char **argv);  /* coopvm run FILE.amber | FILE.spv ... (cmd_run.c) */
int cvm_cli_dis(int argc, char **argv);  /* coopvm dis FILE.spv (cmd_text.c) */
int cvm_cli_as(int argc, char **argv);   /* coopvm as FILE.spvasm (cmd_text.c) */
int cvm_cli_info(int argc, char **argv); /* coopvm info (cmd_info.c) */
int cvm_cli_val(int argc, char **argv);  /* coopvm val FILE.spv (cmd_val.c) */

#endif /* CVM_CLI_H */
