/* coopvm run over scripts: one AmberScript or VkScript with its EXPECT
 * lines, or many (files and folders) for CI, with a summary line, a JUnit
 * report, sharding and a progress line.  A client of coopvm.h and
 * amber/amber.h only. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, clock_gettime, nftw-free opendir */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "amber/amber.h"
#include "cli/cli.h"
#include "coopvm.h"

/* Printing ----------------------------------------------------------------- */

/* The reason a diagnostic gives, with its module place. */
static void print_why(FILE *f, const cvm_diagnostic *d)
{
    fprintf(f, "%s", d->message[0] ? d->message : "(no reason given)");
    if (d->word_offset != UINT32_MAX)
        fprintf(f, " (word offset %u, opcode %u)", d->word_offset, d->opcode);
    fprintf(f, "\n");
}

void cvm_cli_print_tiers(FILE *f, cvm_cli_tiers *t, const char *what, const cvm_tier_info *b,
                         const cvm_tier_info *a, cvm_result r)
{
    int compiled = a->compiled_dispatches > b->compiled_dispatches;
    int compared = a->compared_dispatches > b->compared_dispatches;
    t->dispatches++;
    t->compiled += (uint64_t)compiled;
    t->compared += (uint64_t)compared;
    fprintf(f, "tiers: %s: ", what);
    if (compared)
        fprintf(f, "compiled code compared with the interpreter: %s\n",
                r == CVM_ERROR_TIERS_DIFFER ? "they differ" : "alike");
    else if (compiled)
        fprintf(f, "compiled code ran\n");
    else
        fprintf(f, "interpreted only%s\n",
                t->flags & CVM_FLAG_COMPARE_TIERS ? ", nothing to compare" : "");
    if (a->entry > 0) {
        fprintf(f, "tiers:   entry point: compiled\n");
    } else if (a->entry < 0) {
        fprintf(f, "tiers:   entry point: not taken: ");
        print_why(f, &a->entry_why);
    } else {
        fprintf(f, "tiers:   entry point: not compiled (--no-jit, --reference-paths or --trace, "
                   "a build without LLVM, or a dispatch smaller than the tier waits for "
                   "without --jit)\n");
    }
    if (a->leaf_functions) {
        fprintf(f, "tiers:   leaf callbacks: %u, %u compiled, %u not taken", a->leaf_functions,
                a->leaf_compiled, a->leaf_not_taken);
        if (a->leaf_not_taken) {
            fprintf(f, ": ");
            print_why(f, &a->leaf_why);
        } else {
            fprintf(f, "\n");
        }
    }
}

void cvm_cli_print_tiers_total(FILE *f, const cvm_cli_tiers *t)
{
    if (t->flags & CVM_FLAG_COMPARE_TIERS)
        fprintf(f, "tiers: %" PRIu64 " of %" PRIu64 " dispatches compared compiled code with the "
                   "interpreter\n",
                t->compared, t->dispatches);
    else
        fprintf(f, "tiers: %" PRIu64 " of %" PRIu64 " dispatches ran compiled code\n", t->compiled,
                t->dispatches);
}

void cvm_cli_print_diag(FILE *f, const char *context_file, uint32_t context_line,
                        const cvm_diagnostic *d)
{
    if (d->file[0] && d->line && d->word_offset == UINT32_MAX) {
        if (d->column)
            fprintf(f, "%s:%u:%u: %s\n", d->file, d->line, d->column, d->message);
        else
            fprintf(f, "%s:%u: %s\n", d->file, d->line, d->message);
        return;
    }
    if (context_file && context_line)
        fprintf(f, "%s:%u: ", context_file, context_line);
    else if (context_file)
        fprintf(f, "%s: ", context_file);
    fprintf(f, "%s: %s", cvm_result_string(d->result), d->message);
    if (d->word_offset != UINT32_MAX)
        fprintf(f, " (word offset %u, opcode %u", d->word_offset, d->opcode);
    if (d->word_offset != UINT32_MAX && d->file[0] && d->line)
        fprintf(f, ", source %s:%u", d->file, d->line);
    if (d->word_offset != UINT32_MAX)
        fprintf(f, ")");
    fprintf(f, "\n");
}

static void print_value(FILE *f, cvm_amber_scalar s, double v, uint64_t bits, int with_bits)
{
    if (s >= CVM_AMBER_FLOAT16) {
        fprintf(f, "%.9g", v);
        if (with_bits)
            fprintf(f, " [0x%0*" PRIx64 "]", (int)cvm_amber_scalar_size(s) * 2, bits);
    } else {
        fprintf(f, "%.0f", v);
    }
}

void cvm_cli_print_result(FILE *f, const cvm_amber_script *s, const cvm_amber_expect_result *r)
{
    const cvm_amber_command *c = &s->commands[r->command];
    cvm_amber_scalar sc = c->expect == CVM_AMBER_EXPECT_IDX
                              ? c->value_type.scalar
                              : s->buffers[c->buffer].type.scalar;
    fprintf(f, "%s %s (line %u)", r->passed ? "PASS" : "FAIL", r->text, r->line);
    if (r->passed) {
        if (c->expect == CVM_AMBER_EXPECT_RMSE_BUFFER)
            fprintf(f, ": rmse %.3g", r->rmse);
        fprintf(f, "\n");
        return;
    }
    if (r->message[0]) {
        fprintf(f, ": %s\n", r->message);
        return;
    }
    fprintf(f, ": ");
    if (c->expect == CVM_AMBER_EXPECT_RMSE_BUFFER)
        fprintf(f,
                "rmse %.6g > tolerance %.6g, %" PRIu64 " of %" PRIu64
                " elements differ by more than the tolerance, ",
                r->rmse, (double)c->tolerance, r->mismatches, r->compared);
    else
        fprintf(f, "%" PRIu64 " of %" PRIu64 " elements differ, ", r->mismatches, r->compared);
    fprintf(f,
            "worst error %.6g at element %" PRIu64 ", first failing element %" PRIu64
            " (expected ",
            r->worst_error, r->worst_index, r->first_index);
    int bits = c->expect == CVM_AMBER_EXPECT_EQ_BUFFER;
    print_value(f, sc, r->expected_value, r->expected_bits, bits);
    fprintf(f, ", got ");
    print_value(f, sc, r->got_value, r->got_bits, bits);
    fprintf(f, ")\n");
}

/* One script ----------------------------------------------------------------- */

typedef enum outcome { OUT_PASS, OUT_FAIL, OUT_SKIP } outcome;

/* Runs the script at `path`; EXPECT lines go to `out`, errors to `err`.
 * Returns the exit status of a single-script run: 0 all EXPECTs held, 1 a
 * failure or an error, 3 unsupported.  `reason` (may be NULL) gets a one-line
 * summary. */
/* --verbose in batch runs: each RUN's tier report to the script's output,
 * and the totals over all scripts (cvm_cli_print_tiers). */
typedef struct batch_tiers {
    cvm_cli_tiers *tiers;
    const cvm_amber_script *script;
    FILE *out;
    cvm_tier_info before;
} batch_tiers;

static void batch_before_run(void *user, cvm_amber_session *S, uint32_t command)
{
    batch_tiers *bt = user;
    cvm_pipeline_tier_info(
        cvm_amber_session_pipeline(S, bt->script->commands[command].pipeline), &bt->before);
}

static void batch_after_run(void *user, cvm_amber_session *S, uint32_t command, cvm_result r)
{
    batch_tiers *bt = user;
    const cvm_amber_command *c = &bt->script->commands[command];
    cvm_tier_info now;
    cvm_pipeline_tier_info(cvm_amber_session_pipeline(S, c->pipeline), &now);
    char what[256];
    snprintf(what, sizeof(what), "RUN %s (line %u)", bt->script->pipelines[c->pipeline].name,
             c->line);
    cvm_cli_print_tiers(bt->out, bt->tiers, what, &bt->before, &now, r);
}

static int run_one(const char *path, const cvm_context_desc *desc, FILE *out, FILE *err,
                   char *reason, size_t reason_cap, cvm_cli_tiers *tiers)
{
    cvm_amber_script *s = NULL;
    cvm_diagnostic d;
    char dummy[4];
    if (!reason) {
        reason = dummy;
        reason_cap = sizeof(dummy);
    }
    reason[0] = 0;
    cvm_result r = cvm_amber_parse_file(path, &s, &d);
    if (r != CVM_SUCCESS) {
        cvm_cli_print_diag(err, path, 0, &d);
        if (d.line)
            snprintf(reason, reason_cap, "line %u: %.440s", d.line, d.message);
        else
            snprintf(reason, reason_cap, "%.460s", d.message);
        /* 3: the script needs something coopvm does not implement (yet);
         * test drivers report it as skipped, not as passed. */
        return r == CVM_ERROR_UNSUPPORTED ? 3 : 1;
    }
    cvm_amber_report rep;
    cvm_context_desc named;
    if (desc && desc->on_warning) {
        named = *desc; /* validator warnings name this script */
        named.warning_user = (void *)path;
        desc = &named;
    }
    batch_tiers bt = {tiers, s, out, {0}};
    cvm_amber_hooks hooks = {NULL, batch_before_run, NULL, &bt, batch_after_run};
    r = cvm_amber_execute_hooked(s, desc, tiers ? &hooks : NULL, &rep, &d);
    for (uint32_t i = 0; i < rep.result_count; i++)
        cvm_cli_print_result(out, s, &rep.results[i]);
    int status = 0;
    if (r == CVM_ERROR_EXPECTATION_FAILED) {
        status = 1;
        for (uint32_t i = 0; i < rep.result_count; i++)
            if (!rep.results[i].passed) {
                snprintf(reason, reason_cap, "line %u: %s failed (%u of %u EXPECT failed)",
                         rep.results[i].line, rep.results[i].text, rep.failed,
                         rep.result_count);
                break;
            }
    } else if (r != CVM_SUCCESS) {
        cvm_cli_print_diag(err, path, rep.error_line, &d);
        uint32_t line = d.line && d.word_offset == UINT32_MAX ? d.line : rep.error_line;
        if (line)
            snprintf(reason, reason_cap, "line %u: %.440s", line, d.message);
        else
            snprintf(reason, reason_cap, "%.460s", d.message);
        status = r == CVM_ERROR_UNSUPPORTED ? 3 : 1;
    }
    if (r == CVM_SUCCESS || r == CVM_ERROR_EXPECTATION_FAILED)
        fprintf(out, "%u of %u EXPECT passed\n", rep.result_count - rep.failed,
                rep.result_count);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
    return status;
}

/* Whether `path` is a script: .amber or .vkscript, or text starting with
 * #!amber or a VkScript section. */
int cvm_cli_is_script(const char *path)
{
    size_t n = strlen(path);
    if ((n > 6 && !strcmp(path + n - 6, ".amber")) ||
        (n > 9 && !strcmp(path + n - 9, ".vkscript")))
        return 1;
    FILE *f = fopen(path, "rb");
    char head[8] = {0};
    if (!f)
        return 0;
    size_t got = fread(head, 1, 7, f);
    fclose(f);
    return (got == 7 && !memcmp(head, "#!amber", 7)) || (got >= 1 && head[0] == '[');
}

/* Many scripts ---------------------------------------------------------------- */

typedef struct list {
    char **items;
    size_t n, cap;
} list;

static int list_add(list *l, const char *s)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        char **ni = realloc(l->items, nc * sizeof(char *));
        if (!ni)
            return 0;
        l->items = ni;
        l->cap = nc;
    }
    if (!(l->items[l->n] = strdup(s)))
        return 0;
    l->n++;
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The scripts under folder `dir` (*.amber and *.vkscript), in name order,
 * folder by folder. */
static int collect_dir(const char *dir, list *out, int depth)
{
    if (depth > 64)
        return 1;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "coopvm run: cannot read folder '%s': %s\n", dir, strerror(errno));
        return 0;
    }
    list here = {0};
    struct dirent *e;
    int ok = 1;
    while (ok && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(need);
        if (!p) {
            ok = 0;
            break;
        }
        snprintf(p, need, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        size_t n = strlen(p);
        if (is_dir(p) || (n > 6 && !strcmp(p + n - 6, ".amber")) ||
            (n > 9 && !strcmp(p + n - 9, ".vkscript")))
            ok = list_add(&here, p);
        free(p);
    }
    closedir(d);
    if (here.n)
        qsort(here.items, here.n, sizeof(char *), cmp_str);
    for (size_t i = 0; i < here.n; i++) {
        if (ok && is_dir(here.items[i]))
            ok = collect_dir(here.items[i], out, depth + 1);
        else if (ok)
            ok = list_add(out, here.items[i]);
        free(here.items[i]);
    }
    free(here.items);
    return ok;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct result {
    outcome what;
    double seconds;
    char *reason;  /* one line */
    char *details; /* what a single run would have printed */
} result;

/* XML text: & < > " and control characters escaped (a JUnit report must be
 * well-formed whatever a message holds). */
static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        default:
            if (c < 0x20)
                fprintf(f, "&#x%x;", 0xfffd);
            else
                fputc(c, f);
        }
    }
}

static int write_junit(const char *file, const list *scripts, const result *res, size_t n,
                       size_t npass, size_t nfail, size_t nskip, double total)
{
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "coopvm run: cannot write '%s': %s\n", file, strerror(errno));
        return 0;
    }
    (void)npass;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<testsuites name=\"coopvm\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
            "skipped=\"%zu\" time=\"%.3f\">\n",
            n, nfail, nskip, total);
    fprintf(f,
            "  <testsuite name=\"coopvm run\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
            "skipped=\"%zu\" time=\"%.3f\">\n",
            n, nfail, nskip, total);
    for (size_t i = 0; i < n; i++) {
        const char *path = scripts->items[i];
        const char *slash = strrchr(path, '/');
        const char *name = slash ? slash + 1 : path;
        fprintf(f, "    <testcase classname=\"");
        /* the folder, dotted, as JUnit classnames are */
        for (const char *q = path; slash && q < slash; q++)
            fputc(*q == '/' ? '.' : *q, f);
        if (!slash)
            fputs("coopvm", f);
        fprintf(f, "\" name=\"");
        xml_text(f, name);
        fprintf(f, "\" file=\"");
        xml_text(f, path);
        fprintf(f, "\" time=\"%.3f\"", res[i].seconds);
        if (res[i].what == OUT_PASS) {
            fprintf(f, "/>\n");
            continue;
        }
        fprintf(f, ">\n");
        if (res[i].what == OUT_SKIP) {
            fprintf(f, "      <skipped message=\"");
            xml_text(f, res[i].reason);
            fprintf(f, "\"/>\n");
        } else {
            fprintf(f, "      <failure message=\"");
            xml_text(f, res[i].reason);
            fprintf(f, "\">");
            xml_text(f, res[i].details);
            fprintf(f, "</failure>\n");
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    int ok = !ferror(f);
    if (fclose(f) || !ok) {
        fprintf(stderr, "coopvm run: cannot write '%s'\n", file);
        return 0;
    }
    return 1;
}

/* The progress line: on a terminal, once the run has taken a few seconds. */
typedef struct progress {
    int on;        /* stderr is a terminal */
    int shown;     /* a line is on the screen */
    double start;
} progress;

static void progress_clear(progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = 0;
    }
}

static void progress_show(progress *p, size_t done, size_t total, size_t np, size_t nf,
                          size_t ns, const char *next)
{
    if (!p->on || now_seconds() - p->start < 2.0)
        return;
    const char *name = strrchr(next, '/');
    fprintf(stderr, "\r\033[K[%zu/%zu] %zu passed, %zu failed, %zu skipped  %.40s", done,
            total, np, nf, ns, name ? name + 1 : next);
    fflush(stderr);
    p->shown = 1;
}

int cvm_cli_run_scripts(const char *const *inputs, int ninputs, const cvm_context_desc *desc,
                        const cvm_cli_batch *b)
{
    list all = {0};
    int status = 0;
    for (int i = 0; i < ninputs; i++) {
        if (is_dir(inputs[i])) {
            if (!collect_dir(inputs[i], &all, 0)) {
                status = 2;
                goto done;
            }
        } else if (!list_add(&all, inputs[i])) {
            status = 2;
            goto done;
        }
    }
    /* the shard: every script whose position in the whole list is I mod N */
    list mine = {0};
    for (size_t i = 0; i < all.n; i++)
        if (!b->shard_count || i % b->shard_count == b->shard_index)
            if (!list_add(&mine, all.items[i])) {
                status = 2;
                goto done_mine;
            }
    result *res = calloc(mine.n ? mine.n : 1, sizeof(result));
    if (!res) {
        status = 2;
        goto done_mine;
    }
    progress pr = {isatty(2), 0, now_seconds()};
    size_t np = 0, nf = 0, ns = 0;
    cvm_cli_tiers tiers;
    memset(&tiers, 0, sizeof(tiers));
    tiers.flags = desc ? desc->flags : 0;
    for (size_t i = 0; i < mine.n; i++) {
        progress_show(&pr, i, mine.n, np, nf, ns, mine.items[i]);
        char *buf = NULL;
        size_t len = 0;
        FILE *cap = open_memstream(&buf, &len);
        char reason[512];
        double t0 = now_seconds();
        int st = run_one(mine.items[i], desc, cap ? cap : stdout, cap ? cap : stderr, reason,
                         sizeof(reason), b->verbose ? &tiers : NULL);
        res[i].seconds = now_seconds() - t0;
        if (cap)
            fclose(cap);
        res[i].details = buf;
        res[i].reason = strdup(reason);
        res[i].what = st == 0 ? OUT_PASS : st == 3 ? OUT_SKIP : OUT_FAIL;
        np += st == 0;
        nf += st != 0 && st != 3;
        ns += st == 3;
        progress_clear(&pr);
        if (res[i].what == OUT_PASS) {
            if (!b->quiet)
                printf("PASS %s\n", mine.items[i]);
        } else {
            printf("%s %s: %s\n", res[i].what == OUT_SKIP ? "SKIP" : "FAIL", mine.items[i],
                   res[i].reason ? res[i].reason : "");
            if (b->verbose && res[i].details)
                fputs(res[i].details, stdout);
        }
        fflush(stdout);
    }
    progress_clear(&pr);
    double total = now_seconds() - pr.start;
    if (b->verbose)
        cvm_cli_print_tiers_total(stdout, &tiers);
    printf("%zu passed, %zu failed, %zu skipped\n", np, nf, ns);
    if (b->junit && !write_junit(b->junit, &mine, res, mine.n, np, nf, ns, total))
        status = 2;
    else
        status = nf ? 1 : 0;
    for (size_t i = 0; i < mine.n; i++) {
        free(res[i].reason);
        free(res[i].details);
    }
    free(res);
done_mine:
    for (size_t i = 0; i < mine.n; i++)
        free(mine.items[i]);
    free(mine.items);
done:
    for (size_t i = 0; i < all.n; i++)
        free(all.items[i]);
    free(all.items);
    return status;
}

int cvm_cli_run_script(const char *path, const cvm_context_desc *desc)
{
    return run_one(path, desc, stdout, stderr, NULL, 0, NULL);
}
