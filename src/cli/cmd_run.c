/* coopvm run: an AmberScript through src/amber, or a .spv with its inputs
 * given as flags.  A client of coopvm.h and amber/amber.h only. */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "amber/amber.h"
#include "cli/cli.h"
#include "cli/diff_image.h"
#include "coopvm.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: coopvm run SCRIPT [OPTIONS]\n"
            "       coopvm run SCRIPT|FOLDER... [--junit FILE] [--shard I/N] [OPTIONS]\n"
            "       coopvm run SHADER.spv --dispatch X,Y,Z [--buffer S:B=FILE]... [OPTIONS]\n"
            "\n"
            "Runs an AmberScript or VkScript (google/amber's two formats, compute\n"
            "subset; GLSL shaders through glslang when coopvm was built with it) and\n"
            "prints one line per EXPECT:\n"
            "  PASS EXPECT c RMSE_BUFFER c_expected TOLERANCE 0.001 (line 23)\n"
            "  FAIL EXPECT ... (line N): worst error W at element i, first failing element j\n"
            "       (expected X, got Y)\n"
            "Element numbers are flat value indices from the start of the buffer (for a\n"
            "matrix stored row-major with C columns: row = j / C, column = j %% C).\n"
            "Exit status: 0 when every EXPECT holds, 1 when one fails or the run stops\n"
            "with an error (printed as file:line: message, with the engine's word offset\n"
            "and opcode), 2 for a usage error, 3 when the script needs an extension,\n"
            "feature, instruction or script form coopvm does not support.\n"
            "\n"
            "Many scripts (several inputs, or folders searched for *.amber and\n"
            "*.vkscript): one line per script (PASS, FAIL or SKIP with the reason), then\n"
            "'N passed, N failed, N skipped'; exit status 1 when one failed, else 0.\n"
            "  --junit FILE         also write a JUnit XML report (Jenkins, GitHub Actions)\n"
            "  --shard I/N          run only the scripts at positions I, I+N, I+2N... of\n"
            "                       the whole list (I from 0 to N-1), one shard per runner\n"
            "  --quiet              no PASS lines\n"
            "  --verbose            each failure's EXPECT lines and errors too; the\n"
            "                       validator's warnings (see coopvm val --help: rules of\n"
            "                       warning severity, which never stop a run), for a .spv\n"
            "                       too; and what the compiled tier did: per dispatch for\n"
            "                       one script or shader, a total line for many\n"
            "                       (--compare-tiers below)\n"
            "A progress line is shown on a terminal once a run takes a few seconds.  The\n"
            "debugging options below are for one script at a time.\n"
            "\n"
            "Engine options (both forms):\n"
            "  --threads N          worker threads (default: all cores)\n"
            "  --subgroup-size N    lanes per subgroup (default 32; a script's SUBGROUP\n"
            "                       REQUIRED_SIZE must agree)\n"
            "  --check-callbacks    the checking mode: shuffle and repeat cooperative-matrix\n"
            "                       callbacks and report order-dependent results; values\n"
            "                       the QCOM text leaves undefined are poison, not zero\n"
            "  --robust             out-of-bounds loads give zero, stores are dropped\n"
            "  --precise            MulAdd of f16/bf16/fp8 matrices accumulates in double and\n"
            "                       rounds once (default: f32, one FMA per k in order)\n"
            "  --bf16-pairs         bf16 MulAdd through the CPU's AVX512_BF16 dot product:\n"
            "                       its own numerics (pairs of products, no subnormals);\n"
            "                       faster only where the CPU issues it as fast as an FMA\n"
            "  --scramble-optimal-layouts  give the cooperative-vector optimal layouts a\n"
            "                       scrambled element order (a matrix the shader reads\n"
            "                       in an optimal layout must have been converted to it)\n"
            "  --no-validate        skip the validator (coopvm val) before the module is read\n"
            "  --reference-paths    the engine's per-lane reference paths only, without its\n"
            "                       fast paths (same results, slower; for comparisons)\n"
            "  --jit                compile every shader the compiled tier takes (see\n"
            "                       --verbose for why not), whatever the dispatch's size\n"
            "                       (default: dispatches of 65536 invocations or more, or\n"
            "                       256 workgroups of a cooperative-matrix shader), and leaf\n"
            "                       callbacks (DecodeFunc,\n"
            "                       per-element, reduction) at their first call (default:\n"
            "                       after 2^18 calls); same results\n"
            "  --no-jit             interpret every shader and callback\n"
            "  --compare-tiers      run every dispatch twice from the same buffers: on the\n"
            "                       compiled tier (as --jit) and on the interpreter alone;\n"
            "                       an error (CVM_ERROR_TIERS_DIFFER) names the first byte\n"
            "                       that differs, or the statuses when they do; the\n"
            "                       buffers keep the interpreter's results.  With --verbose,\n"
            "                       each dispatch says whether compiled code ran and was\n"
            "                       compared, or why the tier did not take the shader, and\n"
            "                       a last line counts the dispatches compared.  The\n"
            "                       environment variable COOPVM_JIT=always|never|compare|auto\n"
            "                       sets the same for any program using coopvm (coopvm.h)\n"
            "  --budget N           instructions per dispatch before it is stopped\n"
            "\n"
            "Debugging (both forms):\n"
            "  --printf FILE        where the shader's DebugPrintf messages (GLSL\n"
            "                       debugPrintfEXT) go (default: stderr), one per line:\n"
            "                         [wg X,Y,Z inv X,Y,Z] text\n"
            "                         [wg X,Y,Z inv X,Y,Z elem R,C] text  (in a cooperative-\n"
            "                       matrix callback: the element it ran for)\n"
            "                       in the order workgroup, invocation, then each\n"
            "                       invocation's own order, whatever the threads\n"
            "  --printf-limit N     messages printed per dispatch (default 100000); a\n"
            "                       note says how many more there were\n"
            "  --trace X,Y,Z[/LANE] log every instruction workgroup X,Y,Z runs (or only\n"
            "                       those of its invocation with LocalInvocationIndex LANE):\n"
            "                       source line (OpLine or DebugLine, glslang -g / -gVS),\n"
            "                       word offset, opcode, result name (OpName) and value per\n"
            "                       lane, active lanes of collective instructions, shape\n"
            "                       and first elements of cooperative matrices\n"
            "  --trace-file FILE    where the trace goes (default coopvm-trace.txt)\n"
            "  --trace-limit N      lines of trace per dispatch (default 1000000)\n"
            "  --diff-image FILE.png  for each failing EXPECT of a script, a heat map of\n"
            "                       |expected - got| (libpng): a square of S x S pixels per\n"
            "                       value (S = 512 / columns, from 1 to 8), matrix rows as\n"
            "                       picture rows; white passes, yellow to red fails (error\n"
            "                       over the largest), black a NaN or infinite error, gray\n"
            "                       not compared, blue the worst element.  The second\n"
            "                       failing EXPECT goes to FILE-2.png, and so on\n"
            "  --diff-width N       columns of that matrix (default: the row length the\n"
            "                       shader stored the buffer with, when it says; else the\n"
            "                       square root of the count, when it is a square)\n"
            "                       With a width, a failing EXPECT also names the row and\n"
            "                       column of its first and worst elements, and how many\n"
            "                       failing elements lie on the borders of the shader's\n"
            "                       cooperative-matrix tiles\n"
            "\n"
            "Without a script (a .spv file):\n"
            "  --dispatch X,Y,Z     workgroups to run (required)\n"
            "  --entry NAME         entry point (default: the only GLCompute one)\n"
            "  --buffer S:B[.E]=FILE  bind FILE's bytes at descriptor set S, binding B,\n"
            "                       array element E (default 0); FILE may be zero:BYTES\n"
            "                       for a zero-filled buffer of that size\n"
            "  --zero-buffers BYTES every statically used storage or uniform buffer\n"
            "                       descriptor (each array element; 64 of a runtime\n"
            "                       array) that no --buffer binds gets a zero-filled\n"
            "                       buffer of BYTES bytes (smoke runs of any shader;\n"
            "                       push constants: --push zero:BYTES)\n"
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

#define CVM_CLI_MAX_INPUTS 4096

typedef struct run_opts {
    cvm_context_desc desc;
    const char *input;         /* the first input */
    const char *inputs[CVM_CLI_MAX_INPUTS];
    int ninputs;
    cvm_cli_batch batch;
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
    uint64_t zero_buffers; /* --zero-buffers BYTES, 0 when not given */
    /* debugging */
    const char *printf_path;
    uint64_t printf_limit;
    int have_trace;
    uint32_t trace_group[3];
    uint32_t trace_lane;
    const char *trace_path;
    uint64_t trace_limit;
    const char *diff_image;
    uint32_t diff_width;
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

/* "X,Y,Z" or "X,Y,Z/LANE" */
static int parse_trace(const char *s, run_opts *o)
{
    char buf[96];
    if (strlen(s) >= sizeof(buf))
        return 0;
    strcpy(buf, s);
    char *slash = strchr(buf, '/');
    o->trace_lane = CVM_TRACE_WORKGROUP;
    if (slash) {
        *slash = 0;
        if (!parse_u32(slash + 1, &o->trace_lane) || o->trace_lane == CVM_TRACE_WORKGROUP)
            return 0;
    }
    char *p = buf;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(p, ',');
        if ((i < 2) != (comma != NULL))
            return 0;
        if (comma)
            *comma = 0;
        if (!parse_u32(p, &o->trace_group[i]))
            return 0;
        p = comma ? comma + 1 : p;
    }
    o->have_trace = 1;
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
        } else if (!strcmp(a, "--precise")) {
            o->desc.flags |= CVM_FLAG_PRECISE;
        } else if (!strcmp(a, "--bf16-pairs")) {
            o->desc.flags |= CVM_FLAG_BF16_PAIRS;
        } else if (!strcmp(a, "--reference-paths")) {
            o->desc.flags |= CVM_FLAG_REFERENCE_PATHS;
        } else if (!strcmp(a, "--jit")) {
            o->desc.flags = (o->desc.flags & ~(uint32_t)CVM_FLAG_NO_JIT) | CVM_FLAG_JIT;
        } else if (!strcmp(a, "--no-jit")) {
            o->desc.flags = (o->desc.flags & ~(uint32_t)CVM_FLAG_JIT) | CVM_FLAG_NO_JIT;
        } else if (!strcmp(a, "--compare-tiers")) {
            o->desc.flags |= CVM_FLAG_COMPARE_TIERS;
        } else if (!strcmp(a, "--printf")) {
            NEED_VALUE();
            o->printf_path = v;
        } else if (!strcmp(a, "--printf-limit")) {
            NEED_VALUE();
            if (!parse_u64(v, &o->printf_limit) || o->printf_limit == 0)
                return usage_error("--printf-limit: '%s' is not a positive number", v);
        } else if (!strcmp(a, "--trace")) {
            NEED_VALUE();
            if (!parse_trace(v, o))
                return usage_error("--trace: expected X,Y,Z or X,Y,Z/LANE (numbers), got '%s'", v);
        } else if (!strcmp(a, "--trace-file")) {
            NEED_VALUE();
            o->trace_path = v;
        } else if (!strcmp(a, "--trace-limit")) {
            NEED_VALUE();
            if (!parse_u64(v, &o->trace_limit) || o->trace_limit == 0)
                return usage_error("--trace-limit: '%s' is not a positive number", v);
        } else if (!strcmp(a, "--diff-image")) {
            NEED_VALUE();
            o->diff_image = v;
        } else if (!strcmp(a, "--diff-width")) {
            NEED_VALUE();
            if (!parse_u32(v, &o->diff_width) || o->diff_width == 0)
                return usage_error("--diff-width: '%s' is not a positive number", v);
        } else if (!strcmp(a, "--scramble-optimal-layouts")) {
            o->desc.flags |= CVM_FLAG_SCRAMBLE_OPTIMAL_LAYOUTS;
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
        } else if (!strcmp(a, "--zero-buffers")) {
            NEED_VALUE();
            if (!parse_u64(v, &o->zero_buffers) || o->zero_buffers == 0 ||
                o->zero_buffers > ((uint64_t)1 << 32))
                return usage_error("--zero-buffers: '%s' is not a size from 1 to 2^32 bytes", v);
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
        } else if (!strcmp(a, "--junit")) {
            NEED_VALUE();
            o->batch.junit = v;
        } else if (!strcmp(a, "--shard")) {
            NEED_VALUE();
            char num[32];
            const char *slash = strchr(v, '/');
            if (!slash || (size_t)(slash - v) >= sizeof(num))
                return usage_error("--shard: expected I/N (I from 0 to N-1), got '%s'", v);
            memcpy(num, v, (size_t)(slash - v));
            num[slash - v] = 0;
            if (!parse_u32(num, &o->batch.shard_index) ||
                !parse_u32(slash + 1, &o->batch.shard_count) || o->batch.shard_count == 0 ||
                o->batch.shard_index >= o->batch.shard_count)
                return usage_error("--shard: expected I/N (I from 0 to N-1), got '%s'", v);
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->batch.quiet = 1;
        } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            o->batch.verbose = 1;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else {
            if (o->ninputs == CVM_CLI_MAX_INPUTS)
                return usage_error("more than 4096 inputs ('%s' is one too many): give a "
                                   "folder",
                                   a);
            o->inputs[o->ninputs++] = a;
            if (!o->input)
                o->input = a;
        }
#undef NEED_VALUE
    }
    if (!o->input)
        return usage_error("%s", "missing a script, a folder of scripts or SHADER.spv");
    return 0;
}

/* Printing ----------------------------------------------------------------- */

/* Engine and script diagnostics: "file:line: message", or the module place. */
static void print_diag(const char *context_file, uint32_t context_line,
                       const cvm_diagnostic *d)
{
    cvm_cli_print_diag(stderr, context_file, context_line, d);
}

/* Debugging sinks ------------------------------------------------------------ */

typedef struct debug_sinks {
    FILE *printf_file; /* stderr unless --printf */
    FILE *trace_file;  /* NULL unless --trace */
    uint64_t printf_limit;
    cvm_debug_desc desc;
} debug_sinks;

static void on_printf(void *user, const cvm_printf_message *m)
{
    debug_sinks *d = user;
    FILE *f = d->printf_file;
    if (m->dropped) {
        fprintf(f,
                "coopvm: %" PRIu64 " more DebugPrintf messages of this dispatch were not printed "
                "(limit %" PRIu64 " per dispatch: --printf-limit N)\n",
                m->dropped, d->printf_limit);
        return;
    }
    fprintf(f, "[wg %u,%u,%u inv %u,%u,%u", m->workgroup[0], m->workgroup[1], m->workgroup[2],
            m->invocation[0], m->invocation[1], m->invocation[2]);
    if (m->in_callback && m->row != UINT32_MAX)
        fprintf(f, " elem %u,%u", m->row, m->column);
    fprintf(f, "] ");
    fwrite(m->text, 1, m->length, f);
    if (!m->length || m->text[m->length - 1] != '\n')
        fputc('\n', f);
}

static void on_trace(void *user, const char *line, size_t length)
{
    debug_sinks *d = user;
    fwrite(line, 1, length, d->trace_file);
    fputc('\n', d->trace_file);
}

/* Returns 0, or the exit status when a file cannot be opened. */
static int debug_open(const run_opts *o, debug_sinks *d)
{
    memset(d, 0, sizeof(*d));
    d->printf_file = stderr;
    if (o->printf_path && !(d->printf_file = fopen(o->printf_path, "w"))) {
        fprintf(stderr, "coopvm run: cannot write '%s': %s\n", o->printf_path, strerror(errno));
        d->printf_file = stderr;
        return 1;
    }
    d->printf_limit = o->printf_limit ? o->printf_limit : 100000;
    d->desc.printf_fn = on_printf;
    d->desc.printf_user = d;
    d->desc.printf_limit = d->printf_limit;
    if (o->have_trace) {
        const char *path = o->trace_path ? o->trace_path : "coopvm-trace.txt";
        if (!(d->trace_file = fopen(path, "w"))) {
            fprintf(stderr, "coopvm run: cannot write '%s': %s\n", path, strerror(errno));
            return 1;
        }
        d->desc.trace_fn = on_trace;
        d->desc.trace_user = d;
        memcpy(d->desc.trace_workgroup, o->trace_group, sizeof(o->trace_group));
        d->desc.trace_invocation = o->trace_lane;
        d->desc.trace_limit = o->trace_limit;
    }
    return 0;
}

/* Returns 1 when a file could not be written. */
static int debug_close(const run_opts *o, debug_sinks *d)
{
    int bad = 0;
    if (d->printf_file && d->printf_file != stderr && fclose(d->printf_file)) {
        fprintf(stderr, "coopvm run: cannot write '%s'\n", o->printf_path);
        bad = 1;
    }
    if (d->trace_file) {
        const char *path = o->trace_path ? o->trace_path : "coopvm-trace.txt";
        if (fclose(d->trace_file)) {
            fprintf(stderr, "coopvm run: cannot write '%s'\n", path);
            bad = 1;
        } else {
            printf("wrote the trace to %s\n", path);
        }
    }
    d->printf_file = NULL;
    d->trace_file = NULL;
    return bad;
}

typedef struct script_hooks {
    const run_opts *o;
    const cvm_amber_script *script;
    debug_sinks *sinks;
    uint32_t failed_seen;
    uint32_t expects_seen;
    char **notes; /* per EXPECT result: lines printed after its PASS/FAIL line */
    int status;   /* set to 1 when a picture could not be written */
    cvm_cli_tiers tiers; /* --verbose: what the compiled tier did */
    cvm_tier_info before; /* the running pipeline's, before its RUN */
} script_hooks;

/* Appends a line to the note of the current EXPECT. */
static void note(script_hooks *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(script_hooks *h, const char *fmt, ...)
{
    if (!h->notes || !h->expects_seen)
        return;
    char **n = &h->notes[h->expects_seen - 1];
    size_t have = *n ? strlen(*n) : 0;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0)
        return;
    char *nn = realloc(*n, have + (size_t)need + 1);
    if (!nn)
        return;
    va_start(ap, fmt);
    vsnprintf(nn + have, (size_t)need + 1, fmt, ap);
    va_end(ap);
    *n = nn;
}

static void before_run(void *user, cvm_amber_session *session, uint32_t command)
{
    script_hooks *h = user;
    const cvm_amber_command *rc = &h->script->commands[command];
    if (h->o->batch.verbose)
        cvm_pipeline_tier_info(cvm_amber_session_pipeline(session, rc->pipeline), &h->before);
    if (h->sinks->trace_file) {
        const cvm_amber_command *c = &h->script->commands[command];
        fprintf(h->sinks->trace_file, "== RUN %s %u %u %u (%s line %u)\n",
                h->script->pipelines[c->pipeline].name, c->groups[0], c->groups[1], c->groups[2],
                h->script->path, c->line);
    }
}

static void after_run(void *user, cvm_amber_session *session, uint32_t command, cvm_result r)
{
    script_hooks *h = user;
    const cvm_amber_command *c = &h->script->commands[command];
    if (!h->o->batch.verbose)
        return;
    cvm_tier_info now;
    cvm_pipeline_tier_info(cvm_amber_session_pipeline(session, c->pipeline), &now);
    char what[256];
    snprintf(what, sizeof(what), "RUN %s (line %u)", h->script->pipelines[c->pipeline].name,
             c->line);
    cvm_cli_print_tiers(stdout, &h->tiers, what, &h->before, &now, r);
}

/* The matrix shape of buffer `buf`: the row length the shader stores it
 * with (cvm_pipeline_store_shape, in value slots of the buffer), its tile. */
static int store_shape(const script_hooks *h, cvm_amber_session *S, uint32_t buf,
                       uint32_t *o_width, uint32_t *o_tr, uint32_t *o_tc, int *o_colmajor)
{
    const cvm_amber_script *s = h->script;
    const cvm_amber_buffer *b = &s->buffers[buf];
    uint32_t slot = cvm_amber_scalar_size(b->type.scalar);
    if (b->type.columns != 1 || b->type.rows == 3) /* std430 padding: slots are not bytes apart */
        return 0;
    for (uint32_t p = 0; p < s->pipeline_count; p++) {
        const cvm_amber_pipeline *pl = &s->pipelines[p];
        for (uint32_t k = 0; k < pl->binding_count; k++) {
            const cvm_amber_binding *bd = &pl->bindings[k];
            cvm_store_shape sh;
            if (bd->buffer != buf || (bd->kind != CVM_AMBER_BIND_STORAGE &&
                                      bd->kind != CVM_AMBER_BIND_UNIFORM))
                continue;
            if (!cvm_pipeline_store_shape(cvm_amber_session_pipeline(S, p), bd->set, bd->binding,
                                          &sh) ||
                sh.stride_bytes % slot || !sh.stride_bytes || sh.stride_bytes / slot > UINT32_MAX)
                continue;
            *o_width = (uint32_t)(sh.stride_bytes / slot);
            *o_tr = sh.tile_rows;
            *o_tc = sh.tile_cols;
            *o_colmajor = (int)sh.column_major;
            return 1;
        }
    }
    return 0;
}

/* A failing EXPECT: where its failing elements are in the matrix, and the
 * heat map. */
static void after_expect(void *user, cvm_amber_session *S, const cvm_amber_expect_result *res)
{
    script_hooks *h = user;
    h->expects_seen++;
    if (res->passed)
        return;
    const run_opts *o = h->o;
    const cvm_amber_command *c = &h->script->commands[res->command];
    uint32_t nth = ++h->failed_seen;
    double *err;
    uint8_t *st;
    uint64_t n;
    if (cvm_amber_session_differences(S, res->command, &err, &st, &n) != CVM_SUCCESS)
        return;
    uint32_t width = o->diff_width, tr = 0, tc = 0;
    int colmajor = 0;
    const char *from = "--diff-width";
    if (!width && store_shape(h, S, c->buffer, &width, &tr, &tc, &colmajor))
        from = "the shader's cooperative-matrix stores";
    if (!width) {
        uint64_t q = (uint64_t)sqrt((double)n);
        while (q * q > n)
            q--;
        while ((q + 1) * (q + 1) <= n)
            q++;
        if (q && q * q == n && q <= UINT32_MAX) {
            width = (uint32_t)q;
            from = "a square buffer";
        }
    }
    /* the matrix: with a column-major store, `width` counts rows */
    uint64_t lines = width ? (n + width - 1) / width : 0;
    uint64_t rows = colmajor ? width : lines;
    uint32_t cols = colmajor ? (uint32_t)lines : width;
    uint64_t worst = UINT64_MAX, nfail = 0, border = 0;
    double max_error = 0, worst_error = -1;
    for (uint64_t i = 0; i < n; i++) {
        if (st[i] != CVM_AMBER_SLOT_FAILED)
            continue;
        nfail++;
        double e = err[i];
        if (e <= HUGE_VAL && e > worst_error) { /* the first of the largest; inf counts */
            worst_error = e;
            worst = i;
        } else if (e != e && worst == UINT64_MAX) {
            worst = i;
        }
        if (e < HUGE_VAL && e > max_error)
            max_error = e;
        if (tr && tc && width) {
            uint64_t r = colmajor ? i % width : i / width, cc = colmajor ? i / width : i % width;
            if (r % tr == 0 || r % tr == tr - 1 || cc % tc == 0 || cc % tc == tc - 1)
                border++;
        }
    }
    if (width && worst != UINT64_MAX) {
        uint64_t fr = colmajor ? res->first_index % width : res->first_index / width;
        uint64_t fc = colmajor ? res->first_index / width : res->first_index % width;
        uint64_t wr = colmajor ? worst % width : worst / width;
        uint64_t wc = colmajor ? worst / width : worst % width;
        note(h, "  as a %" PRIu64 " x %u matrix (width from %s): first failing element at row "
             "%" PRIu64 ", column %" PRIu64 "; worst at row %" PRIu64 ", column %" PRIu64,
             rows, cols, from, fr, fc, wr, wc);
        if (tr && tc)
            note(h, "; %" PRIu64 " of the %" PRIu64 " failing elements lie on a border of the "
                 "%ux%u tiles",
                 border, nfail, tr, tc);
        note(h, "\n");
    }
    if (o->diff_image) {
        char path[4096], why[256];
        const char *dot = strrchr(o->diff_image, '.');
        if (nth == 1)
            snprintf(path, sizeof(path), "%s", o->diff_image);
        else if (dot && !strcmp(dot, ".png"))
            snprintf(path, sizeof(path), "%.*s-%u.png", (int)(dot - o->diff_image),
                     o->diff_image, nth);
        else
            snprintf(path, sizeof(path), "%s-%u", o->diff_image, nth);
        if (!width) {
            fprintf(stderr,
                    "coopvm run: %s line %u: no heat map: the matrix width is not known (give "
                    "--diff-width N)\n",
                    h->script->path, c->line);
            h->status = 1;
        } else {
            cvm_heat_map m = {err, st, n, rows, cols, colmajor, worst, max_error};
            if (cvm_heat_map_write(path, &m, why, sizeof(why))) {
                fprintf(stderr, "coopvm run: %s\n", why);
                h->status = 1;
            } else {
                uint32_t sc = cvm_heat_map_scale(cols);
                note(h, "  wrote %s: %u x %" PRIu64 " pixels, %u per value side\n", path,
                     cols * sc, rows * sc, sc);
            }
        }
    }
    cvm_free(err);
    cvm_free(st);
}

/* Script mode -------------------------------------------------------------- */

/* --verbose: the validator's warnings, "warning: FILE: [RULE] ...". */
static void print_warning(void *user, const cvm_diagnostic *w)
{
    fprintf(stderr, "warning: %s: %s\n", user ? (const char *)user : "", w->message);
}

static int run_script(const run_opts *o)
{
    cvm_amber_script *s = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_parse_file(o->input, &s, &d);
    if (r != CVM_SUCCESS) {
        print_diag(o->input, 0, &d);
        /* a form coopvm knows and does not support: skipped, not broken */
        return r == CVM_ERROR_UNSUPPORTED ? 3 : 1;
    }
    cvm_amber_report rep;
    debug_sinks sinks;
    if (debug_open(o, &sinks)) {
        debug_close(o, &sinks);
        cvm_amber_script_destroy(s);
        return 1;
    }
    script_hooks sh;
    memset(&sh, 0, sizeof(sh));
    sh.o = o;
    sh.script = s;
    sh.sinks = &sinks;
    sh.notes = calloc(s->expect_count + 1, sizeof(char *));
    sh.tiers.flags = o->desc.flags;
    cvm_amber_hooks hooks = {&sinks.desc, before_run, after_expect, &sh, after_run};
    r = cvm_amber_execute_hooked(s, &o->desc, &hooks, &rep, &d);
    if (debug_close(o, &sinks))
        sh.status = 1;
    for (uint32_t i = 0; i < rep.result_count; i++) {
        cvm_cli_print_result(stdout, s, &rep.results[i]);
        if (sh.notes && sh.notes[i])
            fputs(sh.notes[i], stdout);
    }
    for (uint32_t i = 0; sh.notes && i < s->expect_count; i++)
        free(sh.notes[i]);
    free(sh.notes);
    int status = 0;
    if (r == CVM_ERROR_EXPECTATION_FAILED) {
        status = 1;
    } else if (r != CVM_SUCCESS) {
        print_diag(o->input, rep.error_line, &d);
        /* 3: the script needs something coopvm does not implement (yet);
         * test drivers report it as skipped, not as passed. */
        status = r == CVM_ERROR_UNSUPPORTED ? 3 : 1;
    }
    if (o->batch.verbose)
        cvm_cli_print_tiers_total(stdout, &sh.tiers);
    if (r == CVM_SUCCESS || r == CVM_ERROR_EXPECTATION_FAILED)
        printf("%u of %u EXPECT passed\n", rep.result_count - rep.failed, rep.result_count);
    if (sh.status && !status)
        status = 1;
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
    return cvm_cli_read_file(path, 0, o_data, o_size) > 0;
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
    unsigned char *zero_bufs[1024];
    uint32_t zero_count = 0;
    int status = 1;
    debug_sinks sinks;
    memset(&sinks, 0, sizeof(sinks));
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
    if (debug_open(o, &sinks))
        goto done;
    if (cvm_pipeline_set_debug(pipe, &sinks.desc, &d) != CVM_SUCCESS) {
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
    /* --zero-buffers: every other statically used descriptor element. */
    for (uint32_t i = 0; o->zero_buffers && i < cvm_pipeline_resource_count(pipe); i++) {
        cvm_pipeline_resource r;
        if (!cvm_pipeline_get_resource(pipe, i, &r) || !r.statically_used)
            continue;
        for (uint32_t e = 0; e < r.array_size; e++) {
            int given = 0;
            for (uint32_t k = 0; k < o->buffer_count; k++)
                given |= o->buffers[k].set == r.set && o->buffers[k].binding == r.binding &&
                         o->buffers[k].element == e;
            if (given)
                continue;
            if (zero_count == sizeof(zero_bufs) / sizeof(zero_bufs[0])) {
                fprintf(stderr, "coopvm run: --zero-buffers: more than %zu descriptors\n",
                        sizeof(zero_bufs) / sizeof(zero_bufs[0]));
                goto done;
            }
            zero_bufs[zero_count] = calloc((size_t)o->zero_buffers, 1);
            if (!zero_bufs[zero_count]) {
                fprintf(stderr, "coopvm run: --zero-buffers: out of memory\n");
                goto done;
            }
            if (cvm_pipeline_bind_buffer(pipe, r.set, r.binding, e, zero_bufs[zero_count++],
                                         (size_t)o->zero_buffers, &d) != CVM_SUCCESS) {
                print_diag(o->input, 0, &d);
                goto done;
            }
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
    cvm_tier_info before, after;
    cvm_pipeline_tier_info(pipe, &before);
    cvm_result dr = cvm_pipeline_dispatch(pipe, o->groups[0], o->groups[1], o->groups[2], &d);
    if (o->batch.verbose) {
        cvm_cli_tiers tiers;
        memset(&tiers, 0, sizeof(tiers));
        tiers.flags = o->desc.flags;
        cvm_pipeline_tier_info(pipe, &after);
        cvm_cli_print_tiers(stdout, &tiers, o->input, &before, &after, dr);
        cvm_cli_print_tiers_total(stdout, &tiers);
    }
    if (debug_close(o, &sinks))
        goto done;
    if (dr != CVM_SUCCESS) {
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
    debug_close(o, &sinks);
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
    for (uint32_t i = 0; i < zero_count; i++)
        free(zero_bufs[i]);
    return status;
}

int cvm_cli_run(int argc, char **argv)
{
    static run_opts o; /* large: keep it off the stack */
    memset(&o, 0, sizeof(o));
    int st = parse_args(argc, argv, &o);
    if (st)
        return st < 0 ? 0 : st;
    if (o.batch.verbose) {
        o.desc.on_warning = print_warning;
        o.desc.warning_user = (void *)o.input; /* scripts in a batch name their own */
    }
    int batch = o.ninputs > 1 || o.batch.junit || o.batch.shard_count;
    for (int i = 0; i < o.ninputs && !batch; i++) {
        struct stat sb;
        batch = stat(o.inputs[i], &sb) == 0 && S_ISDIR(sb.st_mode);
    }
    if (batch || cvm_cli_is_script(o.input)) {
        if (o.have_dispatch || o.buffer_count || o.out_count || o.spec_count || o.push ||
            o.entry || o.named_count || o.address_count)
            return usage_error("%s: --dispatch, --buffer, --out, --spec, --push, --entry, "
                               "--address-buffer and --buffer-address are for .spv files; a "
                               "script says these itself",
                               o.input);
        if (batch) {
            if (o.printf_path || o.have_trace || o.diff_image || o.diff_width)
                return usage_error("%s: --printf, --trace, --diff-image and --diff-width are "
                                   "for one script at a time",
                                   o.input);
            return cvm_cli_run_scripts(o.inputs, o.ninputs, &o.desc, &o.batch);
        }
        return run_script(&o);
    }
    if (o.ninputs > 1)
        return usage_error("one .spv file only ('%s' is a second)", o.inputs[1]);
    if (o.batch.quiet)
        return usage_error("%s: --quiet is for scripts", o.input);
    if (o.diff_image || o.diff_width)
        return usage_error("%s: --diff-image and --diff-width picture the EXPECTs of a script",
                           o.input);
    return run_shader(&o);
}
