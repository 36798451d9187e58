/* The coopvm command line: one function per sub-command, each a client of
 * coopvm.h only.  Each returns the process exit status (0 success, 1 a
 * failed check or run, 2 usage error). */
#ifndef CVM_CLI_H
#define CVM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "coopvm.h"

int cvm_cli_run(int argc, char **argv);  /* coopvm run FILE.amber | FILE.spv ... (cmd_run.c) */
int cvm_cli_dis(int argc, char **argv);  /* coopvm dis FILE.spv (cmd_text.c) */
int cvm_cli_as(int argc, char **argv);   /* coopvm as FILE.spvasm (cmd_text.c) */
int cvm_cli_info(int argc, char **argv); /* coopvm info (cmd_info.c) */
int cvm_cli_val(int argc, char **argv);  /* coopvm val FILE.spv (cmd_val.c) */

/* Reads the whole file `path` (standard input for "-" when allow_stdin)
 * into *o_data, a malloc'd buffer of *o_size bytes that the caller frees.
 * Returns 1, 0 when the file cannot be opened, -1 when it cannot be read or
 * memory runs out (*o_data untouched then).  Prints nothing (read_file.c). */
int cvm_cli_read_file(const char *path, int allow_stdin, unsigned char **o_data, size_t *o_size);

/* Scripts (run_scripts.c). */
typedef struct cvm_cli_batch {
    const char *junit;      /* --junit FILE, or NULL */
    uint32_t shard_index;   /* --shard I/N: run the scripts at positions I mod N */
    uint32_t shard_count;   /* 0: no sharding */
    int quiet;              /* print only failures, skips and the summary */
    int verbose;            /* print each failure's EXPECT lines and errors */
} cvm_cli_batch;

/* 1 when `path` is an AmberScript or VkScript (by its name or first line). */
int cvm_cli_is_script(const char *path);
/* One script, its EXPECT lines on stdout: exit status 0, 1 or 3. */
int cvm_cli_run_script(const char *path, const cvm_context_desc *desc);
/* Many scripts and folders of them (*.amber, *.vkscript, searched
 * recursively, in name order): one line per script, the summary
 * "N passed, N failed, N skipped"; exit status 1 when one failed, else 0
 * (skips are not failures), 2 when the inputs or the report cannot be
 * read or written. */
int cvm_cli_run_scripts(const char *const *inputs, int ninputs, const cvm_context_desc *desc,
                        const cvm_cli_batch *b);
/* One EXPECT's line: PASS/FAIL, the statement, where it fails. */
struct cvm_amber_script;
struct cvm_amber_expect_result;
void cvm_cli_print_result(FILE *f, const struct cvm_amber_script *s,
                          const struct cvm_amber_expect_result *r);
/* --verbose: what the compiled tier did with each dispatch (run_scripts.c),
 * and the totals for the last line. */
typedef struct cvm_cli_tiers {
    uint32_t flags;      /* the context's (CVM_FLAG_COMPARE_TIERS, CVM_FLAG_NO_JIT...) */
    uint64_t dispatches; /* reported so far */
    uint64_t compiled;   /* of them, with compiled code run */
    uint64_t compared;   /* ... and compared with the interpreter */
} cvm_cli_tiers;
/* One dispatch (`what`: "RUN name (line N)" or the shader) from its
 * pipeline's cvm_tier_info before and after, and its status:
 *   tiers: WHAT: compiled code compared with the interpreter: equal
 *   tiers: WHAT: interpreted only
 *   tiers:   entry point: not taken: REASON (word offset W, opcode O)
 *   tiers:   leaf callbacks: 2 of 3 compiled, 1 not taken: REASON */
void cvm_cli_print_tiers(FILE *f, cvm_cli_tiers *t, const char *what, const cvm_tier_info *before,
                         const cvm_tier_info *after, cvm_result r);
/*   tiers: N of M dispatches compared compiled code with the interpreter
 * (or "ran compiled code" without CVM_FLAG_COMPARE_TIERS). */
void cvm_cli_print_tiers_total(FILE *f, const cvm_cli_tiers *t);
/* Engine and script diagnostics: "file:line: message", or the module place. */
void cvm_cli_print_diag(FILE *f, const char *context_file, uint32_t context_line,
                        const cvm_diagnostic *d);

#endif /* CVM_CLI_H */
