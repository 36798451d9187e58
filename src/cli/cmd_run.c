/* coopvm run: an AmberScript through src/amber, or a .spv with its inputs
 * given as flags.  A client of coopvm.h and amber/amber.h only. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amber/amber.h"
#include "cli/cli.h"
#include "coopvm.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm run FILE.amber [OPTIONS]\n"
            "       coopvm run SHADER.spv --dispatch X,Y,Z [--buffer S:B=FILE]... [OPTIONS]\n"
            "\n"
            "Runs an AmberScript (compute subset) and prints one line per EXPECT:\n"
            "  PASS EXPECT c RMSE_BUFFER c_expected TOLERANCE 0.001 (line 23)\n"
            "  FAIL EXPECT ... (line N): worst error W at element i, first failing element j\n"
            "       (expected X, got Y)\n"
            "Element numbers are flat value indices from the start of the buffer (for a\n"
            "matrix stored row-major with C columns: row = j / C, column = j %% C).\n"
            "Exit status: 0 when every EXPECT holds, 1 when one fails or the run stops\n"
            "with an error (printed as file:line: message, with the engine's word offset\n"
            "and opcode), 2 for a usage error, 3 when the script needs an extension,\n"
            "feature or instruction coopvm does not support.\n"
            "\n"
            "Engine options (both forms):\n"
            "  --threads N          worker threads (default: all cores)\n"
            "  --subgroup-size N    lanes per subgroup (default 32; a script's SUBGROUP\n"
            "                       REQUIRED_SIZE must agree)\n"
            "  --check-callbacks    the checking mode: shuffle and repeat cooperative-matrix\n"
            "                       callbacks and report order-dependent results; values\n"
            "                       the QCOM text leaves undefined are poison, not zero\n"
            "  --robust             out-of-bounds loads give zero, stores are dropped\n"
            "  --no-validate        skip the validator (coopvm val) before the module is read\n"
            "  --budget N           instructions per dispatch before it is stopped\n"
            "\n"
            "Without a script (a .spv file):\n"
            "  --dispatch X,Y,Z     workgroups to run (required)\n"
            "  --entry NAME         entry point (default: the only GLCompute one)\n"
            "  --buffer S:B[.E]=FILE  bind FILE's bytes at descriptor set S, binding B,\n"
            "                       array element E (default 0); FILE may be zero:BYTES\n"
            "                       for a zero-filled buffer of that size\n"
            "  --spec ID=VALUE      specialization constant: uint32 by default, or\n"
            "                       u:, i:, f: (float), d: (double), u64:, i64:, b: (bool)\n"
            "                       before the value, e.g. 2=f:0.5\n"
            "  --push FILE          push-constant bytes\n"
            "  --out S:B[.E]=FILE   after the dispatch, write that buffer to FILE (or\n"
            "                       --out NAME=FILE for an --address-buffer)\n"
            "\n"
            "Buffers reached through device addresses (buffer_reference pointers):\n"
            "  --address-buffer NAME=FILE  a buffer no descriptor names, reachable only\n"
            "                       through its device address (FILE as for --buffer)\n"
            "  --buffer-address DEST[+OFFSET]=SRC  before the dispatch, write the 8-byte\n"
            "                       device address of SRC (a NAME, or S:B[.E] of a --buffer)\n"
            "                       at byte OFFSET (default 0) of DEST: S:B[.E] of a\n"
            "                       --buffer, a NAME, or 'push' for the push constants\n");
}

/* Options ------------------------------------------------------------------ */

typedef struct binding_arg {
    uint32_t set, binding, element;
    const char *file;
    unsigned char *data;
    size_t size;
} binding_arg;

/* --address-buffer NAME=FILE */
typedef struct named_arg {
    char name[64];
    const char *file;
    unsigned char *data;
    size_t size;
} named_arg;

/* --buffer-address DEST[+OFFSET]=SRC: each side a "S:B[.E]", a NAME, or (DEST) "push". */
typedef struct address_arg {
    char dest[64], src[64];
    uint64_t offset;
} address_arg;

typedef struct run_opts {
    cvm_context_desc desc;
    const char *input;
    int have_dispatch;
    uint32_t groups[3];
    const char *entry;
    const char *push;
    binding_arg buffers[64];
    uint32_t buffer_count;
    binding_arg outs[64];
    uint32_t out_count;
    const char *out_names[64]; /* per out: a NAME instead of S:B, else NULL */
    named_arg named[64];
    uint32_t named_count;
    address_arg addresses[64];
    uint32_t address_count;
    cvm_specialization specs[64];
    uint32_t spec_count;
} run_opts;

static int parse_u64(const char *s, uint64_t *o)
{
    char *e;
    if (!s || !*s || *s == '-')
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 0);
    if (*e || errno)
        return 0;
    *o = v;
    return 1;
}

static int parse_u32(const char *s, uint32_t *o)
{
    uint64_t v;
    if (!parse_u64(s, &v) || v > UINT32_MAX)
        return 0;
    *o = (uint32_t)v;
    return 1;
}

/* "S:B[.E]=FILE" */
static int parse_binding(const char *arg, binding_arg *o)
{
    char buf[64];
    const char *eq = strchr(arg, '=');
    if (!eq || (size_t)(eq - arg) >= sizeof(buf) || !eq[1])
        return 0;
    memcpy(buf, arg, (size_t)(eq - arg));
    buf[eq - arg] = 0;
    char *colon = strchr(buf, ':');
    if (!colon)
        return 0;
    *colon = 0;
    char *dot = strchr(colon + 1, '.');
    o->element = 0;
    if (dot) {
        *dot = 0;
        if (!parse_u32(dot + 1, &o->element))
            return 0;
    }
    o->file = eq + 1;
    return parse_u32(buf, &o->set) && parse_u32(colon + 1, &o->binding);
}

/* "NAME=FILE": a name of letters, digits, '_', '-' and '.' (not "push"). */
static int parse_named(const char *arg, named_arg *o)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(o->name) || !eq[1])
        return 0;
    for (const char *c = arg; c < eq; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.'))
            return 0;
    memcpy(o->name, arg, (size_t)(eq - arg));
    o->name[eq - arg] = 0;
    o->file = eq + 1;
    return strcmp(o->name, "push") != 0;
}

/* "DEST[+OFFSET]=SRC" */
static int parse_address(const char *arg, address_arg *o)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1] || strlen(eq + 1) >= sizeof(o->src))
        return 0;
    const char *plus = memchr(arg, '+', (size_t)(eq - arg));
    const char *dend = plus ? plus : eq;
    if (dend == arg || (size_t)(dend - arg) >= sizeof(o->dest))
        return 0;
    memcpy(o->dest, arg, (size_t)(dend - arg));
    o->dest[dend - arg] = 0;
    strcpy(o->src, eq + 1);
    o->offset = 0;
    if (plus) {
        char num[32];
        if ((size_t)(eq - plus - 1) >= sizeof(num))
            return 0;
        memcpy(num, plus + 1, (size_t)(eq - plus - 1));
        num[eq - plus - 1] = 0;
        if (!parse_u64(num, &o->offset))
            return 0;
    }
    return 1;
}

/* "ID=VALUE", VALUE uint32 unless prefixed with a type. */
static int parse_spec(const char *arg, cvm_specialization *o)
{
    char idbuf[32];
    const char *eq = strchr(arg, '=');
    if (!eq || (size_t)(eq - arg) >= sizeof(idbuf))
        return 0;
    memcpy(idbuf, arg, (size_t)(eq - arg));
    idbuf[eq - arg] = 0;
    if (!parse_u32(idbuf, &o->constant_id))
        return 0;
    const char *v = eq + 1, *colon = strchr(v, ':');
    char type[8] = "u";
    if (colon) {
        if ((size_t)(colon - v) >= sizeof(type))
            return 0;
        memcpy(type, v, (size_t)(colon - v));
        type[colon - v] = 0;
        v = colon + 1;
    }
    char *e;
    errno = 0;
    if (!*v)
        return 0;
    if (!strcmp(type, "u") || !strcmp(type, "u64")) {
        uint64_t x;
        if (!parse_u64(v, &x))
            return 0;
        o->size = type[1] ? 8 : 4;
        if (o->size == 4 && x > UINT32_MAX)
            return 0;
        o->bits = x;
    } else if (!strcmp(type, "i") || !strcmp(type, "i64")) {
        long long x = strtoll(v, &e, 0);
        if (*e || errno)
            return 0;
        o->size = type[1] ? 8 : 4;
        if (o->size == 4) {
            if (x < INT32_MIN || x > INT32_MAX)
                return 0;
            o->bits = (uint32_t)(int32_t)x;
        } else {
            o->bits = (uint64_t)x;
        }
    } else if (!strcmp(type, "f")) {
        float f = strtof(v, &e);
        if (*e)
            return 0;
        uint32_t b;
        memcpy(&b, &f, 4);
        o->size = 4;
        o->bits = b;
    } else if (!strcmp(type, "d")) {
        double d = strtod(v, &e);
        if (*e)
            return 0;
        memcpy(&o->bits, &d, 8);
        o->size = 8;
    } else if (!strcmp(type, "b")) {
        o->size = 4;
        if (!strcmp(v, "true") || !strcmp(v, "1"))
            o->bits = 1;
        else if (!strcmp(v, "false") || !strcmp(v, "0"))
            o->bits = 0;
        else
            return 0;
    } else {
        return 0;
    }
    return 1;
}

static int parse_dispatch(const char *s, uint32_t g[3])
{
    char buf[96];
    if (strlen(s) >= sizeof(buf))
        return 0;
    strcpy(buf, s);
    char *p = buf;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(p, ',');
        if ((i < 2) != (comma != NULL))
            return 0;
        if (comma)
            *comma = 0;
        if (!parse_u32(p, &g[i]) || g[i] == 0)
            return 0;
        p = comma ? comma + 1 : p;
    }
    return 1;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "coopvm run: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(coopvm run --help for the options)\n");
    return 2;
}

/* Returns 0 on success, else the exit status. */
static int parse_args(int argc, char **argv, run_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
#define NEED_VALUE()                                              \
    do {                                                          \
        if (!v)                                                   \
            return usage_error("%s needs a value", a);            \
        i++;                                                      \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return -1;
        } else if (!strcmp(a, "--threads")) {
            NEED_VALUE();
            if (!parse_u32(v, &o->desc.threads))
                return usage_error("--threads: '%s' is not a number", v);
        } else if (!strcmp(a, "--subgroup-size")) {
            NEED_VALUE();
            if (!parse_u32(v, &o->desc.subgroup_size) || o->desc.subgroup_size == 0)
                return usage_error("--subgroup-size: '%s' is not a positive number", v);
        } else if (!strcmp(a, "--budget")) {
            NEED_VALUE();
            if (!parse_u64(v, &n) || n == 0)
                return usage_error("--budget: '%s' is not a positive number", v);
            o->desc.instruction_budget = n;
        } else if (!strcmp(a, "--check-callbacks")) {
            o->desc.flags |= CVM_FLAG_CHECK_CALLBACKS;
        } else if (!strcmp(a, "--robust")) {
            o->desc.flags |= CVM_FLAG_ROBUST_ACCESS;
        } else if (!strcmp(a, "--no-validate")) {
            o->desc.flags |= CVM_FLAG_NO_VALIDATION;
        } else if (!strcmp(a, "--dispatch")) {
            NEED_VALUE();
            if (!parse_dispatch(v, o->groups))
                return usage_error("--dispatch: expected X,Y,Z (positive numbers), got '%s'", v);
            o->have_dispatch = 1;
        } else if (!strcmp(a, "--entry")) {
            NEED_VALUE();
            o->entry = v;
        } else if (!strcmp(a, "--push")) {
            NEED_VALUE();
            o->push = v;
        } else if (!strcmp(a, "--buffer") || !strcmp(a, "--out")) {
            NEED_VALUE();
            int out = a[2] == 'o';
            binding_arg *arr = out ? o->outs : o->buffers;
            uint32_t *count = out ? &o->out_count : &o->buffer_count;
            if (*count == 64)
                return usage_error("too many %s options", a);
            named_arg nm;
            if (out && !strchr(v, ':') && parse_named(v, &nm)) {
                o->out_names[*count] = v; /* resolved against --address-buffer below */
                arr[*count].file = strchr(v, '=') + 1;
            } else if (!parse_binding(v, &arr[*count])) {
                return usage_error("expected SET:BINDING[.ELEMENT]=FILE, got '%s'", v);
            }
            (*count)++;
        } else if (!strcmp(a, "--address-buffer")) {
            NEED_VALUE();
            if (o->named_count == 64)
                return usage_error("too many %s options", a);
            if (!parse_named(v, &o->named[o->named_count]))
                return usage_error("--address-buffer: expected NAME=FILE (NAME of letters, "
                                   "digits, '_', '-', '.', not 'push'), got '%s'",
                                   v);
            for (uint32_t k = 0; k < o->named_count; k++)
                if (!strcmp(o->named[k].name, o->named[o->named_count].name))
                    return usage_error("--address-buffer: the name in '%s' is used twice", v);
            o->named_count++;
        } else if (!strcmp(a, "--buffer-address")) {
            NEED_VALUE();
            if (o->address_count == 64)
                return usage_error("too many %s options", a);
            if (!parse_address(v, &o->addresses[o->address_count]))
                return usage_error("--buffer-address: expected DEST[+OFFSET]=SRC, got '%s'", v);
            o->address_count++;
        } else if (!strcmp(a, "--spec")) {
            NEED_VALUE();
            if (o->spec_count == 64)
                return usage_error("too many %s options", a);
            if (!parse_spec(v, &o->specs[o->spec_count]))
                return usage_error("--spec: expected ID=VALUE or ID=TYPE:VALUE (u, i, f, d, "
                                   "u64, i64, b), got '%s'",
                                   v);
            o->spec_count++;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (!o->input) {
            o->input = a;
        } else {
            return usage_error("one input file only ('%s' is a second)", a);
        }
#undef NEED_VALUE
    }
    if (!o->input)
        return usage_error("%s", "missing FILE.amber or SHADER.spv");
    return 0;
}

/* Printing ----------------------------------------------------------------- */

/* Engine and script diagnostics: "file:line: message", or the module place. */
static void print_diag(const char *context_file, uint32_t context_line,
                       const cvm_diagnostic *d)
{
    if (d->file[0] && d->line && d->word_offset == UINT32_MAX) {
        if (d->column)
            fprintf(stderr, "%s:%u:%u: %s\n", d->file, d->line, d->column, d->message);
        else
            fprintf(stderr, "%s:%u: %s\n", d->file, d->line, d->message);
        return;
    }
    if (context_file && context_line)
        fprintf(stderr, "%s:%u: ", context_file, context_line);
    else if (context_file)
        fprintf(stderr, "%s: ", context_file);
    fprintf(stderr, "%s: %s", cvm_result_string(d->result), d->message);
    if (d->word_offset != UINT32_MAX)
        fprintf(stderr, " (word offset %u, opcode %u", d->word_offset, d->opcode);
    if (d->word_offset != UINT32_MAX && d->file[0] && d->line)
        fprintf(stderr, ", source %s:%u", d->file, d->line);
    if (d->word_offset != UINT32_MAX)
        fprintf(stderr, ")");
    fprintf(stderr, "\n");
}

static void print_value(const cvm_amber_buffer *b, double v, uint64_t bits, int with_bits)
{
    cvm_amber_scalar s = b->type.scalar;
    if (s >= CVM_AMBER_FLOAT16) {
        printf("%.9g", v);
        if (with_bits)
            printf(" [0x%0*" PRIx64 "]", (int)cvm_amber_scalar_size(s) * 2, bits);
    } else if (s <= CVM_AMBER_INT64) {
        printf("%.0f", v);
    } else {
        printf("%.0f", v);
    }
}

static void print_result(const cvm_amber_script *s, const cvm_amber_expect_result *r)
{
    const cvm_amber_command *c = &s->commands[r->command];
    const cvm_amber_buffer *b = &s->buffers[c->buffer];
    printf("%s %s (line %u)", r->passed ? "PASS" : "FAIL", r->text, r->line);
    if (r->passed) {
        if (c->expect == CVM_AMBER_EXPECT_RMSE_BUFFER)
            printf(": rmse %.3g", r->rmse);
        printf("\n");
        return;
    }
    if (r->message[0]) {
        printf(": %s\n", r->message);
        return;
    }
    printf(": ");
    if (c->expect == CVM_AMBER_EXPECT_RMSE_BUFFER)
        printf("rmse %.6g > tolerance %.6g, %" PRIu64 " of %" PRIu64
               " elements differ by more than the tolerance, ",
               r->rmse, (double)c->tolerance, r->mismatches, r->compared);
    else
        printf("%" PRIu64 " of %" PRIu64 " elements differ, ", r->mismatches, r->compared);
    printf("worst error %.6g at element %" PRIu64 ", first failing element %" PRIu64
           " (expected ",
           r->worst_error, r->worst_index, r->first_index);
    int bits = c->expect == CVM_AMBER_EXPECT_EQ_BUFFER;
    print_value(b, r->expected_value, r->expected_bits, bits);
    printf(", got ");
    print_value(b, r->got_value, r->got_bits, bits);
    printf(")\n");
}

/* Script mode -------------------------------------------------------------- */

static int run_script(const run_opts *o)
{
    cvm_amber_script *s = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_parse_file(o->input, &s, &d);
    if (r != CVM_SUCCESS) {
        print_diag(o->input, 0, &d);
        return 1;
    }
    cvm_amber_report rep;
    r = cvm_amber_execute(s, &o->desc, &rep, &d);
    for (uint32_t i = 0; i < rep.result_count; i++)
        print_result(s, &rep.results[i]);
    int status = 0;
    if (r == CVM_ERROR_EXPECTATION_FAILED) {
        status = 1;
    } else if (r != CVM_SUCCESS) {
        print_diag(o->input, rep.error_line, &d);
        /* 3: the script needs something coopvm does not implement (yet);
         * test drivers report it as skipped, not as passed. */
        status = r == CVM_ERROR_UNSUPPORTED ? 3 : 1;
    }
    if (r == CVM_SUCCESS || r == CVM_ERROR_EXPECTATION_FAILED)
        printf("%u of %u EXPECT passed\n", rep.result_count - rep.failed, rep.result_count);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
    return status;
}

/* Shader mode -------------------------------------------------------------- */

static int read_whole(const char *path, unsigned char **o_data, size_t *o_size)
{
    uint64_t zero;
    if (!strncmp(path, "zero:", 5)) {
        if (!parse_u64(path + 5, &zero) || zero == 0 || zero > ((uint64_t)1 << 40))
            return 0;
        *o_data = calloc((size_t)zero, 1);
        *o_size = (size_t)zero;
        return *o_data != NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int ok = buf && !ferror(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return 0;
    }
    *o_data = buf;
    *o_size = n;
    return 1;
}

/* The memory a --buffer-address side names: "S:B[.E]" of a --buffer, a NAME
 * of an --address-buffer, or "push"; with its registered device buffer. */
static unsigned char *resolve_buffer(run_opts *o, const char *spec, unsigned char *push,
                                     size_t push_size, cvm_buffer *const *bound,
                                     cvm_buffer *const *named, size_t *o_size,
                                     cvm_buffer **o_buf)
{
    *o_buf = NULL;
    if (!strcmp(spec, "push")) {
        *o_size = push_size;
        return push;
    }
    if (strchr(spec, ':')) {
        char tmp[80];
        binding_arg b;
        snprintf(tmp, sizeof(tmp), "%s=x", spec);
        if (!parse_binding(tmp, &b))
            return NULL;
        for (uint32_t k = 0; k < o->buffer_count; k++)
            if (o->buffers[k].set == b.set && o->buffers[k].binding == b.binding &&
                o->buffers[k].element == b.element) {
                *o_size = o->buffers[k].size;
                *o_buf = bound[k];
                return o->buffers[k].data;
            }
        return NULL;
    }
    for (uint32_t k = 0; k < o->named_count; k++)
        if (!strcmp(o->named[k].name, spec)) {
            *o_size = o->named[k].size;
            *o_buf = named[k];
            return o->named[k].data;
        }
    return NULL;
}

static int run_shader(run_opts *o)
{
    cvm_buffer *bound_bufs[64] = {0}, *named_bufs[64] = {0};
    int status = 1;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    unsigned char *push = NULL;
    size_t push_size = 0;
    cvm_diagnostic d;
    if (!o->have_dispatch)
        return usage_error("%s: --dispatch X,Y,Z is required without a script", o->input);
    for (uint32_t i = 0; i < o->buffer_count; i++) {
        binding_arg *b = &o->buffers[i];
        if (!read_whole(b->file, &b->data, &b->size) || b->size == 0) {
            fprintf(stderr, "coopvm run: cannot read '%s' (or it is empty): %s\n", b->file,
                    errno ? strerror(errno) : "bad zero:BYTES");
            goto done;
        }
    }
    for (uint32_t i = 0; i < o->named_count; i++) {
        named_arg *b = &o->named[i];
        if (!read_whole(b->file, &b->data, &b->size) || b->size == 0) {
            fprintf(stderr, "coopvm run: cannot read '%s' (or it is empty): %s\n", b->file,
                    errno ? strerror(errno) : "bad zero:BYTES");
            goto done;
        }
    }
    if (o->push && !read_whole(o->push, &push, &push_size)) {
        fprintf(stderr, "coopvm run: cannot read '%s': %s\n", o->push, strerror(errno));
        goto done;
    }
    for (uint32_t i = 0; i < o->out_count; i++) {
        binding_arg *out = &o->outs[i];
        int found = 0;
        if (o->out_names[i]) {
            for (uint32_t k = 0; k < o->named_count; k++)
                found |= !strncmp(o->out_names[i], o->named[k].name, strlen(o->named[k].name)) &&
                         o->out_names[i][strlen(o->named[k].name)] == '=';
            if (!found) {
                fprintf(stderr, "coopvm run: --out %s names no --address-buffer\n",
                        o->out_names[i]);
                status = 2;
                goto done;
            }
            continue;
        }
        for (uint32_t k = 0; k < o->buffer_count; k++)
            found |= o->buffers[k].set == out->set && o->buffers[k].binding == out->binding &&
                     o->buffers[k].element == out->element;
        if (!found) {
            fprintf(stderr,
                    "coopvm run: --out %u:%u.%u has no --buffer to read back (give one, e.g. "
                    "--buffer %u:%u=zero:BYTES)\n",
                    out->set, out->binding, out->element, out->set, out->binding);
            status = 2;
            goto done;
        }
    }
    if (cvm_context_create(&o->desc, &ctx, &d) != CVM_SUCCESS) {
        print_diag("context", 0, &d);
        goto done;
    }
    if (cvm_module_create_from_file(ctx, o->input, &mod, &d) != CVM_SUCCESS) {
        print_diag(o->input, 0, &d);
        goto done;
    }
    if (cvm_pipeline_create(mod, o->entry, o->specs, o->spec_count, &pipe, &d) != CVM_SUCCESS) {
        print_diag(o->input, 0, &d);
        goto done;
    }
    for (uint32_t i = 0; i < o->buffer_count; i++) {
        binding_arg *b = &o->buffers[i];
        if (cvm_pipeline_bind_buffer(pipe, b->set, b->binding, b->element, b->data, b->size,
                                     &d) != CVM_SUCCESS) {
            print_diag(b->file, 0, &d);
            goto done;
        }
    }
    /* Device addresses: every buffer has one (a bound one also through its
     * descriptor); write the asked-for ones before anything is copied. */
    for (uint32_t i = 0; i < o->buffer_count + o->named_count; i++) {
        int nm = i >= o->buffer_count;
        uint32_t k = nm ? i - o->buffer_count : i;
        if (cvm_buffer_create(ctx, nm ? o->named[k].data : o->buffers[k].data,
                              nm ? o->named[k].size : o->buffers[k].size,
                              nm ? &named_bufs[k] : &bound_bufs[k], &d) != CVM_SUCCESS) {
            print_diag(nm ? o->named[k].file : o->buffers[k].file, 0, &d);
            goto done;
        }
    }
    for (uint32_t i = 0; i < o->address_count; i++) {
        address_arg *a = &o->addresses[i];
        size_t dsize = 0, ssize = 0;
        cvm_buffer *dbuf, *sbuf;
        unsigned char *dst = resolve_buffer(o, a->dest, push, push_size, bound_bufs, named_bufs,
                                            &dsize, &dbuf);
        unsigned char *src = !strcmp(a->src, "push")
                                 ? NULL
                                 : resolve_buffer(o, a->src, push, push_size, bound_bufs,
                                                  named_bufs, &ssize, &sbuf);
        if (!dst || !src) {
            fprintf(stderr, "coopvm run: --buffer-address: '%s' is not a --buffer, "
                    "--address-buffer%s\n", dst ? a->src : a->dest, dst ? "" : " or push");
            status = 2;
            goto done;
        }
        if (a->offset > dsize || dsize - a->offset < 8) {
            fprintf(stderr, "coopvm run: --buffer-address: 8 bytes at offset %" PRIu64
                    " do not fit in the %zu bytes of %s\n", a->offset, dsize, a->dest);
            status = 2;
            goto done;
        }
        uint64_t addr = cvm_buffer_device_address(sbuf);
        for (int b = 0; b < 8; b++)
            dst[a->offset + (uint64_t)b] = (unsigned char)(addr >> (8 * b));
    }
    if (push && cvm_pipeline_set_push_constants(pipe, push, push_size, &d) != CVM_SUCCESS) {
        print_diag(o->push, 0, &d);
        goto done;
    }
    if (cvm_pipeline_dispatch(pipe, o->groups[0], o->groups[1], o->groups[2], &d) !=
        CVM_SUCCESS) {
        print_diag(o->input, 0, &d);
        goto done;
    }
    for (uint32_t i = 0; i < o->out_count; i++) {
        binding_arg *out = &o->outs[i];
        if (o->out_names[i]) {
            for (uint32_t k = 0; k < o->named_count; k++) {
                named_arg *b = &o->named[k];
                size_t n = strlen(b->name);
                if (strncmp(o->out_names[i], b->name, n) || o->out_names[i][n] != '=')
                    continue;
                FILE *f = fopen(out->file, "wb");
                int ok = f && fwrite(b->data, 1, b->size, f) == b->size;
                if (f && fclose(f))
                    ok = 0;
                if (!ok) {
                    fprintf(stderr, "coopvm run: cannot write '%s': %s\n", out->file,
                            strerror(errno));
                    goto done;
                }
                printf("wrote %s (%zu bytes) to %s\n", b->name, b->size, out->file);
            }
            continue;
        }
        for (uint32_t k = 0; k < o->buffer_count; k++) {
            binding_arg *b = &o->buffers[k];
            if (b->set != out->set || b->binding != out->binding || b->element != out->element)
                continue;
            FILE *f = fopen(out->file, "wb");
            if (!f || fwrite(b->data, 1, b->size, f) != b->size) {
                fprintf(stderr, "coopvm run: cannot write '%s': %s\n", out->file,
                        strerror(errno));
                if (f)
                    fclose(f);
                goto done;
            }
            if (fclose(f)) {
                fprintf(stderr, "coopvm run: cannot write '%s': %s\n", out->file,
                        strerror(errno));
                goto done;
            }
            printf("wrote %u:%u.%u (%zu bytes) to %s\n", out->set, out->binding, out->element,
                   b->size, out->file);
        }
    }
    printf("dispatched %u,%u,%u workgroups of %s\n", o->groups[0], o->groups[1], o->groups[2],
           o->input);
    status = 0;
done:
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    for (uint32_t i = 0; i < 64; i++) {
        cvm_buffer_destroy(bound_bufs[i]);
        cvm_buffer_destroy(named_bufs[i]);
    }
    cvm_context_destroy(ctx);
    for (uint32_t i = 0; i < o->buffer_count; i++)
        free(o->buffers[i].data);
    for (uint32_t i = 0; i < o->named_count; i++)
        free(o->named[i].data);
    free(push);
    return status;
}

static int is_script(const char *path)
{
    size_t n = strlen(path);
    if (n > 6 && !strcmp(path + n - 6, ".amber"))
        return 1;
    FILE *f = fopen(path, "rb");
    char head[8] = {0};
    if (!f)
        return 0;
    size_t got = fread(head, 1, 7, f);
    fclose(f);
    return got == 7 && !memcmp(head, "#!amber", 7);
}

int cvm_cli_run(int argc, char **argv)
{
    static run_opts o; /* large: keep it off the stack */
    memset(&o, 0, sizeof(o));
    int st = parse_args(argc, argv, &o);
    if (st)
        return st < 0 ? 0 : st;
    if (is_script(o.input)) {
        if (o.have_dispatch || o.buffer_count || o.out_count || o.spec_count || o.push ||
            o.entry || o.named_count || o.address_count)
            return usage_error("%s: --dispatch, --buffer, --out, --spec, --push, --entry, "
                               "--address-buffer and --buffer-address are for .spv files; a "
                               "script says these itself",
                               o.input);
        return run_script(&o);
    }
    return run_shader(&o);
}
