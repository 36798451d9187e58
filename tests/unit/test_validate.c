/* The validator (src/validate): the negative suite of tests/validate (.cases
 * files: for every rule a module that breaks it, named in the diagnostic, and
 * its valid twin), every module of the corpus, the bench and the project's tests
 * accepted, the diagnostic's place and quoted instruction, the rule table,
 * byte order, allocation failures, options, and the engine refusing an
 * invalid module unless told not to validate. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "coopvm.h"
#include "cvm_common.h"
#include "spirv/spirv_grammar.h"

/* ---- small helpers ------------------------------------------------------------------ */

static char *read_text(const char *path, size_t *o_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (o_len)
            *o_len = (size_t)n;
    }
    return buf;
}

static uint32_t *read_words(const char *path, size_t *o_count)
{
    size_t n;
    *o_count = 0; /* set on every path (gcc -O3 sees the NULL return's) */
    char *b = read_text(path, &n);
    if (!b)
        return NULL;
    uint32_t *w = malloc(n + 4);
    memcpy(w, b, n);
    free(b);
    *o_count = n / 4;
    return w;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    memcpy(d, s, n + 1);
    return d;
}

static char *dup_trim(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    char *d = malloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* ---- the .cases files ------------------------------------------------------------------ */

typedef struct lines {
    char **v;
    size_t n, cap;
} lines;

static void lines_push(lines *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof(char *));
    }
    l->v[l->n++] = s;
}

static void lines_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

static lines lines_copy(const lines *l)
{
    lines c = {0};
    for (size_t i = 0; i < l->n; i++)
        lines_push(&c, dup_str(l->v[i]));
    return c;
}

typedef struct edit {
    int twin;       /* 1: ~ edit, 0: - edit */
    char *old;      /* trimmed */
    lines repl;
} edit;

typedef struct patch {
    char at[64], value[64];
} patch;

typedef struct vcase {
    char id[96];
    char base[32];
    char env[32];
    char file[64];
    char device[160]; /* the @device line's words: how the case's description
                         differs from the restrictive one (test_device) */
    edit *edits;
    size_t nedits;
    patch *patches;
    size_t npatches;
} vcase;

typedef struct vbase {
    char name[32];
    char env[32];
    lines text;
} vbase;

typedef struct suite {
    vbase bases[32];
    size_t nbases;
    vcase *cases;
    size_t ncases, cap;
} suite;

static void parse_cases(suite *s, const char *path, const char *fname)
{
    char *text = read_text(path, NULL);
    assert_non_null(text);
    enum { NONE, BASE, CASE } mode = NONE;
    vbase *b = NULL;
    vcase *c = NULL;
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *raw = malloc(len + 1);
        memcpy(raw, p, len);
        raw[len] = 0;
        p = e ? e + 1 : p + len;
        if (!strncmp(raw, "@base ", 6)) {
            assert_true(s->nbases < 32);
            b = &s->bases[s->nbases++];
            memset(b, 0, sizeof(*b));
            assert_int_equal(sscanf(raw + 6, "%31s %31s", b->name, b->env), 2);
            mode = BASE;
        } else if (!strncmp(raw, "@case ", 6)) {
            if (s->ncases == s->cap) {
                s->cap = s->cap ? s->cap * 2 : 64;
                s->cases = realloc(s->cases, s->cap * sizeof(vcase));
            }
            c = &s->cases[s->ncases++];
            memset(c, 0, sizeof(*c));
            int k = sscanf(raw + 6, "%95s %31s %31s", c->id, c->base, c->env);
            assert_true(k >= 2);
            snprintf(c->file, sizeof(c->file), "%.63s", fname);
            mode = CASE;
        } else if (!strcmp(raw, "@end")) {
            mode = NONE;
        } else if (mode == BASE) {
            lines_push(&b->text, dup_str(raw));
            raw[0] = 0;
        } else if (mode == CASE) {
            if (!strncmp(raw, "~> ", 3) || !strcmp(raw, "~>") || !strncmp(raw, "+ ", 2)) {
                assert_true(c->nedits > 0);
                size_t skip = raw[0] == '~' ? 3 : 2;
                lines_push(&c->edits[c->nedits - 1].repl, dup_str(strlen(raw) > skip ? raw + skip : ""));
            } else if (!strncmp(raw, "~ ", 2) || !strncmp(raw, "- ", 2)) {
                c->edits = realloc(c->edits, (c->nedits + 1) * sizeof(edit));
                edit *ed = &c->edits[c->nedits++];
                memset(ed, 0, sizeof(*ed));
                ed->twin = raw[0] == '~';
                ed->old = dup_trim(raw + 2, strlen(raw + 2));
            } else if (!strncmp(raw, "@device", 7) && (raw[7] == ' ' || !raw[7])) {
                snprintf(c->device, sizeof(c->device), "%s", raw + 7);
            } else if (!strncmp(raw, "@patch ", 7)) {
                c->patches = realloc(c->patches, (c->npatches + 1) * sizeof(patch));
                patch *pt = &c->patches[c->npatches++];
                assert_int_equal(sscanf(raw + 7, "%63s %63s", pt->at, pt->value), 2);
            } else if (raw[0] && raw[0] != '#') {
                print_error("%s: a line the case format does not know: '%s'\n", fname, raw);
                fail();
            }
        }
        free(raw);
    }
    free(text);
}

static int load_suite(suite *s)
{
    memset(s, 0, sizeof(*s));
    char dir[600];
    snprintf(dir, sizeof(dir), "%s/validate", CVM_TEST_DATA_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char names[32][64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 32) {
        size_t len = strlen(e->d_name);
        if (len > 6 && len < 64 && !strcmp(e->d_name + len - 6, ".cases"))
            memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%.600s/%.63s", dir, names[i]);
        parse_cases(s, path, names[i]);
    }
    return n;
}

static void free_suite(suite *s)
{
    for (size_t i = 0; i < s->nbases; i++)
        lines_free(&s->bases[i].text);
    for (size_t i = 0; i < s->ncases; i++) {
        for (size_t k = 0; k < s->cases[i].nedits; k++) {
            free(s->cases[i].edits[k].old);
            lines_free(&s->cases[i].edits[k].repl);
        }
        free(s->cases[i].edits);
        free(s->cases[i].patches);
    }
    free(s->cases);
}

/* Applies the edits of one kind; 0 when an edit finds no line to change. */
static int apply_edits(lines *t, const vcase *c, int twin)
{
    for (size_t k = 0; k < c->nedits; k++) {
        const edit *ed = &c->edits[k];
        if (ed->twin != twin)
            continue;
        size_t i = 0;
        for (; i < t->n; i++) {
            char *tr = dup_trim(t->v[i], strlen(t->v[i]));
            int same = !strcmp(tr, ed->old);
            free(tr);
            if (same)
                break;
        }
        if (i == t->n) {
            print_error("%s %s: no line '%s' to edit\n", c->file, c->id, ed->old);
            return 0;
        }
        lines out = {0};
        for (size_t j = 0; j < i; j++)
            lines_push(&out, t->v[j]);
        free(t->v[i]);
        for (size_t j = 0; j < ed->repl.n; j++)
            lines_push(&out, dup_str(ed->repl.v[j]));
        for (size_t j = i + 1; j < t->n; j++)
            lines_push(&out, t->v[j]);
        free(t->v);
        *t = out;
    }
    return 1;
}

static uint32_t *assemble(const lines *t, const char *env, size_t *o_count, const char *what)
{
    size_t len = 0;
    for (size_t i = 0; i < t->n; i++)
        len += strlen(t->v[i]) + 1;
    char *text = malloc(len + 1), *p = text;
    for (size_t i = 0; i < t->n; i++) {
        size_t n = strlen(t->v[i]);
        memcpy(p, t->v[i], n);
        p += n;
        *p++ = '\n';
    }
    *p = 0;
    uint32_t *words = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_assemble(text, len, 0, env, &words, o_count, &d);
    if (r != CVM_SUCCESS)
        print_error("%s: the assembler says: %u:%u: %s\n", what, d.line, d.column, d.message);
    free(text);
    assert_int_equal(r, CVM_SUCCESS);
    return words;
}

/* "N" (negative: from the end) or "OpName[@K]+W": the word's index. */
static size_t locate(const uint32_t *w, size_t n, const char *at)
{
    if (strncmp(at, "Op", 2) != 0) {
        long v = strtol(at, NULL, 0);
        return v < 0 ? (size_t)((long)n + v) : (size_t)v;
    }
    const char *plus = strchr(at, '+'), *amp = strchr(at, '@');
    assert_non_null(plus);
    size_t namelen = (size_t)((amp && amp < plus ? amp : plus) - at);
    const spv_instruction_desc *d = spv_grammar_instruction_by_name(at, namelen);
    assert_non_null(d);
    long nth = amp && amp < plus ? strtol(amp + 1, NULL, 10) : 1;
    for (size_t i = 5; i < n && (w[i] >> 16);) {
        if ((w[i] & 0xffff) == d->opcode && --nth == 0)
            return i + (size_t)strtol(plus + 1, NULL, 10);
        i += w[i] >> 16;
    }
    print_error("patch: no instruction for '%s'\n", at);
    fail();
    return 0;
}

static void apply_patches(uint32_t *w, size_t n, const vcase *c)
{
    for (size_t i = 0; i < c->npatches; i++) {
        size_t at = locate(w, n, c->patches[i].at);
        uint32_t value = strncmp(c->patches[i].value, "Op", 2) == 0
                             ? w[locate(w, n, c->patches[i].value)]
                             : (uint32_t)strtoul(c->patches[i].value, NULL, 0);
        assert_true(at < n);
        w[at] = value;
    }
}

/* ---- warnings ------------------------------------------------------------------------------ */

/* What a warning callback saw: how many warnings, and whether one named
 * `want` ("[RULE-ID]") with the result CVM_SUCCESS. */
typedef struct warnings {
    const char *want;
    int count, named;
    char first[768];
} warnings;

static void collect_warning(void *user, const cvm_diagnostic *w)
{
    warnings *c = user;
    if (!c->count++)
        snprintf(c->first, sizeof(c->first), "%s", w->message);
    if (c->want && w->result == CVM_SUCCESS && !strncmp(w->message, c->want, strlen(c->want)))
        c->named++;
}

static int rule_is_warning(const char *id)
{
    for (uint32_t r = 0; r < cvm_validation_rule_count(); r++) {
        cvm_validation_rule info;
        if (cvm_validation_rule_get(r, &info) == CVM_SUCCESS && !strcmp(info.id, id))
            return info.warning;
    }
    return 0;
}

/* ---- the device rules' description ------------------------------------------------------ */

/* The restrictive device the cases of the device rules (checked 2) run
 * against, unless their @device line changes it: a short property list of
 * each kind, small limits, compute-only stages, no optional feature
 * enabled, no pipeline flag. */
#define F16 CVM_COMPONENT_TYPE_FLOAT16
#define F32 CVM_COMPONENT_TYPE_FLOAT32
#define S8 CVM_COMPONENT_TYPE_SINT8
#define S32 CVM_COMPONENT_TYPE_SINT32
#define U32 CVM_COMPONENT_TYPE_UINT32
#define SG CVM_SCOPE_SUBGROUP
#define WG CVM_SCOPE_WORKGROUP
static const cvm_coopmat_properties test_khr[] = {
    {16, 16, 16, F16, F16, F16, F16, 0, SG}, {16, 16, 16, F16, F16, F32, F32, 0, SG},
    {16, 16, 16, S8, S8, S32, S32, 0, SG},   {16, 8, 16, F16, F16, F16, F16, 0, SG},
    {32, 16, 16, F16, F16, F16, F16, 0, SG},
};
static const cvm_coopmat_properties test_nv[] = {
    {16, 16, 16, F16, F16, F16, F16, 0, SG},
    {16, 16, 16, F32, F32, F32, F32, 0, SG},
};
static const cvm_coopmat_granularity test_flexible[] = {
    {16, 16, 16, F16, F16, F32, F32, 0, SG, 0, 0},
    {16, 16, 16, S8, S8, S32, S32, 0, SG, 0, 0},
    {16, 16, 16, F16, F16, F32, F32, 0, WG, 32, 0},
};
static const cvm_coopmat_granularity test_props2[] = {
    {32, 32, 32, F16, F16, F32, F32, 0, SG, 0, 32},
    {32, 32, 32, S8, S8, S32, S32, 0, SG, 0, 32},
    {32, 32, 32, F16, F16, F32, F32, 0, WG, 32, 0},
};
static const cvm_coopvec_properties test_coopvec[] = {
    {F16, F16, F16, F16, F16, 0},
    {F32, F16, F16, F16, F32, 1},
    {U32, CVM_COMPONENT_TYPE_SINT8_PACKED, S8, S32, S32, 0},
};

/* The restrictive description, changed by `mods` (an @device line):
 * wgscope, flexible, props2 (features), full-subgroups, indexing64,
 * shader-object (pipeline), subgroup=N. */
static void test_device(cvm_device_description *d, const char *mods)
{
    memset(d, 0, sizeof(*d));
    d->coopmat_properties = test_khr;
    d->coopmat_property_count = (uint32_t)(sizeof(test_khr) / sizeof(test_khr[0]));
    d->coopmat_nv_properties = test_nv;
    d->coopmat_nv_property_count = (uint32_t)(sizeof(test_nv) / sizeof(test_nv[0]));
    d->flexible_properties = test_flexible;
    d->flexible_property_count = (uint32_t)(sizeof(test_flexible) / sizeof(test_flexible[0]));
    d->properties2 = test_props2;
    d->properties2_count = (uint32_t)(sizeof(test_props2) / sizeof(test_props2[0]));
    d->coopvec_properties = test_coopvec;
    d->coopvec_property_count = (uint32_t)(sizeof(test_coopvec) / sizeof(test_coopvec[0]));
    d->max_compute_shared_memory_size = 1024;
    d->cooperative_matrix_flexible_dimensions_max_dimension = 64;
    d->max_cooperative_vector_components = 32;
    d->subgroup_size = 32;
    d->cooperative_matrix_supported_stages = CVM_STAGE_COMPUTE;
    d->cooperative_matrix_nv_supported_stages = CVM_STAGE_COMPUTE;
    d->cooperative_vector_supported_stages = CVM_STAGE_COMPUTE;
    char buf[160];
    snprintf(buf, sizeof(buf), "%s", mods ? mods : "");
    for (char *w = strtok(buf, " \t"); w; w = strtok(NULL, " \t")) {
        if (!strcmp(w, "wgscope"))
            d->cooperative_matrix_workgroup_scope = 1;
        else if (!strcmp(w, "flexible"))
            d->cooperative_matrix_flexible_dimensions = 1;
        else if (!strcmp(w, "props2"))
            d->cooperative_matrix_properties2 = 1;
        else if (!strcmp(w, "full-subgroups"))
            d->require_full_subgroups = 1;
        else if (!strcmp(w, "indexing64"))
            d->indexing_64bit = 1;
        else if (!strcmp(w, "shader-object"))
            d->shader_object = 1;
        else if (!strncmp(w, "subgroup=", 9))
            d->subgroup_size = (uint32_t)strtoul(w + 9, NULL, 0);
        else {
            print_error("@device: unknown word '%s'\n", w);
            fail();
        }
    }
}

static int rule_checked(const char *id)
{
    for (uint32_t r = 0; r < cvm_validation_rule_count(); r++) {
        cvm_validation_rule info;
        if (cvm_validation_rule_get(r, &info) == CVM_SUCCESS && !strcmp(info.id, id))
            return info.checked;
    }
    return 0;
}

/* ---- the negative suite ------------------------------------------------------------------ */

static void test_negative_suite(void **state)
{
    (void)state;
    suite s;
    int files = load_suite(&s);
    assert_true(files >= 5);
    assert_true(s.ncases > 0);
    uint32_t nrules = cvm_validation_rule_count();
    uint32_t *cases_of = calloc(nrules, sizeof(uint32_t));
    int failures = 0;
    cvm_context *ctx;
    cvm_diagnostic cd;
    assert_int_equal(cvm_context_create(NULL, &ctx, &cd), CVM_SUCCESS);
    for (size_t i = 0; i < s.ncases; i++) {
        const vcase *c = &s.cases[i];
        const vbase *b = NULL;
        for (size_t k = 0; k < s.nbases; k++)
            if (!strcmp(s.bases[k].name, c->base))
                b = &s.bases[k];
        if (!b) {
            print_error("%s %s: no base '%s'\n", c->file, c->id, c->base);
            failures++;
            continue;
        }
        const char *env = c->env[0] ? c->env : b->env;
        lines twin = lines_copy(&b->text);
        if (!apply_edits(&twin, c, 1)) {
            failures++;
            lines_free(&twin);
            continue;
        }
        lines broken = lines_copy(&twin);
        if (!apply_edits(&broken, c, 0)) {
            failures++;
            lines_free(&twin);
            lines_free(&broken);
            continue;
        }
        size_t tn, bn;
        uint32_t *tw = assemble(&twin, env, &tn, c->id);
        uint32_t *bw = assemble(&broken, env, &bn, c->id);
        apply_patches(bw, bn, c);
        /* Strict: every rule an error, so the twin breaks no rule at all
         * (no warning either) and the broken module is refused for the
         * case's rule, whatever its severity. */
        /* A device rule's case runs against the restrictive description
         * (with its @device changes); without a description the rule is
         * not run, so the broken module breaks no other rule. */
        int device_rule = rule_checked(c->id) == 2;
        cvm_device_description dev;
        test_device(&dev, c->device);
        const cvm_device_description *devp = device_rule || c->device[0] ? &dev : NULL;
        cvm_validate_options opt = {env, CVM_VALIDATE_STRICT, NULL, NULL, devp};
        cvm_diagnostic td, bd;
        cvm_result tr = cvm_validate(tw, tn, &opt, &td);
        cvm_result br = cvm_validate(bw, bn, &opt, &bd);
        if (device_rule) {
            cvm_validate_options nodev = {env, CVM_VALIDATE_STRICT, NULL, NULL, NULL};
            cvm_diagnostic nd;
            if (cvm_validate(bw, bn, &nodev, &nd) != CVM_SUCCESS) {
                print_error("%s %s: without a device description the broken module is "
                            "rejected: %s\n",
                            c->file, c->id, nd.message);
                failures++;
            }
        }
        char want[120];
        snprintf(want, sizeof(want), "[%s]", c->id);
        if (tr != CVM_SUCCESS) {
            print_error("%s %s: the twin is rejected: %s\n", c->file, c->id, td.message);
            failures++;
        }
        if (br == CVM_SUCCESS || strncmp(bd.message, want, strlen(want)) != 0) {
            print_error("%s %s: the broken module is %s: %s\n", c->file, c->id,
                        br == CVM_SUCCESS ? "accepted" : "rejected for another rule",
                        br == CVM_SUCCESS ? "" : bd.message);
            failures++;
        }
        /* Without --strict: an error rule still refuses the module for the
         * same rule; a warning rule is reported as a warning naming it and
         * refuses nothing, in cvm_validate and in the engine. */
        warnings seen = {want, 0, 0, ""};
        cvm_validate_options lax = {env, 0, collect_warning, &seen, devp};
        cvm_diagnostic ld;
        cvm_result lr = cvm_validate(bw, bn, &lax, &ld);
        if (!rule_is_warning(c->id)) {
            if (lr == CVM_SUCCESS || strncmp(ld.message, want, strlen(want)) != 0) {
                print_error("%s %s: without strict, the broken module is %s: %s\n", c->file,
                            c->id, lr == CVM_SUCCESS ? "accepted" : "rejected for another rule",
                            lr == CVM_SUCCESS ? "" : ld.message);
                failures++;
            }
        } else {
            if (lr != CVM_SUCCESS || seen.named != 1) {
                print_error("%s %s: a warning rule: the broken module is %s (%d warnings "
                            "naming it; first warning: %s)\n",
                            c->file, c->id, lr == CVM_SUCCESS ? "accepted" : ld.message,
                            seen.named, seen.first);
                failures++;
            }
            warnings eng = {want, 0, 0, ""};
            cvm_context_desc wd;
            memset(&wd, 0, sizeof(wd));
            wd.on_warning = collect_warning;
            wd.warning_user = &eng;
            cvm_context *wctx;
            cvm_module *m = NULL;
            cvm_diagnostic ed;
            assert_int_equal(cvm_context_create(&wd, &wctx, &ed), CVM_SUCCESS);
            cvm_result er = cvm_module_create(wctx, bw, bn, &m, &ed);
            if (er == CVM_ERROR_INVALID_MODULE || eng.named != 1) {
                print_error("%s %s: a warning rule: the engine %s (%d warnings naming it)\n",
                            c->file, c->id, er == CVM_SUCCESS ? "takes the module" : ed.message,
                            eng.named);
                failures++;
            }
            cvm_module_destroy(m);
            cvm_context_destroy(wctx);
        }
        if (!strncmp(c->id, "VUID-", 5)) {
            /* Vulkan's rules hold under a Vulkan target only, and the engine
             * validates by the SPIR-V texts' rules alone. */
            cvm_validate_options spv = {"spv1.6", 0, NULL, NULL, NULL};
            cvm_diagnostic sd, ed;
            if (cvm_validate(bw, bn, &spv, &sd) != CVM_SUCCESS) {
                print_error("%s %s: the broken module is rejected under spv1.6: %s\n", c->file,
                            c->id, sd.message);
                failures++;
            }
            cvm_module *m = NULL;
            cvm_result er = cvm_module_create(ctx, bw, bn, &m, &ed);
            if (er != CVM_SUCCESS && ed.message[0] == '[') {
                print_error("%s %s: the engine's validation rejects it: %s\n", c->file, c->id,
                            ed.message);
                failures++;
            }
            cvm_module_destroy(m);
        }
        for (uint32_t r = 0; r < nrules; r++) {
            cvm_validation_rule info;
            assert_int_equal(cvm_validation_rule_get(r, &info), CVM_SUCCESS);
            if (!strcmp(info.id, c->id))
                cases_of[r]++;
        }
        cvm_free(tw);
        cvm_free(bw);
        lines_free(&twin);
        lines_free(&broken);
    }
    /* Every rule that can be checked has a case. */
    uint32_t checked = 0, covered = 0;
    for (uint32_t r = 0; r < nrules; r++) {
        cvm_validation_rule info;
        assert_int_equal(cvm_validation_rule_get(r, &info), CVM_SUCCESS);
        if (!info.checked)
            continue;
        checked++;
        if (cases_of[r])
            covered++;
        else {
            print_error("rule %s has no case in tests/validate\n", info.id);
            failures++;
        }
    }
    print_message("negative suite: %zu cases in %d files, %u rules (%u checked, all with a case: "
                  "%u)\n",
                  s.ncases, files, nrules, checked, covered);
    free(cases_of);
    cvm_context_destroy(ctx);
    free_suite(&s);
    assert_int_equal(failures, 0);
}

/* ---- no false positive ------------------------------------------------------------------- */

static int walk_spv(const char *dir, int depth, int (*fn)(const char *path, void *ctx), void *ctx)
{
    if (depth > 4)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "fuzz"))
            continue; /* fuzz inputs are not meant to be valid */
        char path[1024];
        snprintf(path, sizeof(path), "%.700s/%.255s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            count += walk_spv(path, depth + 1, fn, ctx);
        } else {
            size_t len = strlen(e->d_name);
            if (len > 4 && !strcmp(e->d_name + len - 4, ".spv"))
                count += fn(path, ctx);
        }
    }
    closedir(d);
    return count;
}

/* tests/validate/invalid_modules.txt: "path-under-tests rule-id" lines. */
typedef struct known_invalid {
    char path[256];
    char rule[96];
    int seen;
} known_invalid;

typedef struct accept_ctx {
    known_invalid list[64];
    int nlist;
    int failures;
    int own_device; /* modules checked against coopvm's own description */
} accept_ctx;

static void load_invalid_list(accept_ctx *a)
{
    char path[600];
    snprintf(path, sizeof(path), "%s/validate/invalid_modules.txt", CVM_TEST_DATA_DIR);
    char *text = read_text(path, NULL);
    assert_non_null(text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0] || a->nlist == 64)
            continue;
        known_invalid *k = &a->list[a->nlist];
        if (sscanf(line, "%255s %95s", k->path, k->rule) == 2)
            a->nlist++;
    }
    free(text);
}

static int accept_module(const char *path, void *ctx)
{
    accept_ctx *a = ctx;
    size_t n;
    uint32_t *w = read_words(path, &n);
    if (!w)
        return 0;
    const known_invalid *bad = NULL;
    size_t root = strlen(CVM_TEST_DATA_DIR);
    for (int i = 0; i < a->nlist; i++)
        if (!strncmp(path, CVM_TEST_DATA_DIR, root) && !strcmp(path + root + 1, a->list[i].path)) {
            bad = &a->list[i];
            a->list[i].seen = 1;
        }
    static const char *const envs[] = {"vulkan1.4", "spv1.6"};
    for (size_t i = 0; i < 2; i++) {
        cvm_validate_options opt = {envs[i], 0, NULL, NULL, NULL};
        cvm_diagnostic d;
        cvm_result r = cvm_validate(w, n, &opt, &d);
        char want[120];
        snprintf(want, sizeof(want), "[%s]", bad ? bad->rule : "");
        if (!bad && r != CVM_SUCCESS) {
            print_error("%s (%s): %s\n", path, envs[i], d.message);
            a->failures++;
        } else if (bad && (r == CVM_SUCCESS || strncmp(d.message, want, strlen(want)))) {
            print_error("%s (%s) should break %s: %s\n", path, envs[i], bad->rule,
                        r == CVM_SUCCESS ? "accepted" : d.message);
            a->failures++;
        }
    }
    /* coopvm's own device description (what its Vulkan driver reports,
     * `coopvm val --device coopvm`) takes every module it runs: the device
     * rules find nothing to refuse in them. */
    if (!bad) {
        cvm_device_description own;
        cvm_get_device_description(&own);
        /* Pipeline flags are the application's, not the device's: taken
         * as REQUIRE_FULL_SUBGROUPS (VUID 10770 for modules before SPIR-V
         * 1.6, device/khr_spv15.spv; the CLI tests check it). */
        own.require_full_subgroups = 1;
        cvm_validate_options opt = {"vulkan1.4", 0, NULL, NULL, &own};
        cvm_diagnostic d;
        if (cvm_validate(w, n, &opt, &d) != CVM_SUCCESS) {
            print_error("%s (vulkan1.4, coopvm's device description): %s\n", path, d.message);
            a->failures++;
        }
        a->own_device++;
    }
    free(w);
    return 1;
}

static void test_known_modules_valid(void **state)
{
    (void)state;
    accept_ctx *a = calloc(1, sizeof(accept_ctx));
    load_invalid_list(a);
    int n = 0;
    n += walk_spv(CVM_SHARED_DIR "/corpus", 0, accept_module, a);
    n += walk_spv(CVM_SHARED_DIR "/bench", 0, accept_module, a);
    n += walk_spv(CVM_TEST_DATA_DIR, 0, accept_module, a);
    print_message("%d modules of the corpus, the bench and tests/ validated (%d invalid on "
                  "purpose; %d also against coopvm's device description)\n",
                  n, a->nlist, a->own_device);
    for (int i = 0; i < a->nlist; i++)
        if (!a->list[i].seen) {
            print_error("invalid_modules.txt names %s, which is not there\n", a->list[i].path);
            a->failures++;
        }
    assert_true(n > 20);
    assert_true(a->own_device > 20);
    int failures = a->failures;
    free(a);
    assert_int_equal(failures, 0);
}

/* ---- the diagnostic ------------------------------------------------------------------------ */

static const char small[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "%file = OpString \"small.comp\"\n"
    "OpName %main \"main\"\n"
    "OpName %sum \"sum\"\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%uint_1 = OpConstant %uint 1\n"
    "%float_1 = OpConstant %float 1\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "OpLine %file 42 7\n"
    "%sum = OpIAdd %uint %uint_1 %ARG\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static uint32_t *small_module(const char *arg, size_t *o_n)
{
    char text[2048];
    const char *at = strstr(small, "%ARG");
    snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - small), small, arg, at + 4);
    uint32_t *w = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_assemble(text, strlen(text), 0, "spv1.6", &w, o_n, &d), CVM_SUCCESS);
    return w;
}

static void test_diagnostic(void **state)
{
    (void)state;
    size_t n;
    uint32_t *ok = small_module("%uint_1", &n);
    cvm_diagnostic d;
    assert_int_equal(cvm_validate(ok, n, NULL, &d), CVM_SUCCESS);
    cvm_free(ok);

    uint32_t *w = small_module("%float_1", &n);
    assert_int_equal(cvm_validate(w, n, NULL, &d), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(strncmp(d.message, "[CORE.Arith-Int]", 16), 0);
    /* The place: the OpIAdd, its source line, and the instruction quoted as
     * the disassembler prints it (spirv-dis's friendly names). */
    assert_int_equal(d.opcode, SpvOpIAdd);
    assert_true(d.word_offset > 5 && d.word_offset < n);
    assert_int_equal(w[d.word_offset] & 0xffff, SpvOpIAdd);
    assert_int_equal(d.line, 42);
    assert_int_equal(d.column, 7);
    assert_string_equal(d.file, "small.comp");
    char tail[64];
    snprintf(tail, sizeof(tail), " at word %u: ", d.word_offset);
    const char *q = strstr(d.message, tail);
    assert_non_null(q);
    q += strlen(tail);
    assert_string_equal(q, "%sum = OpIAdd %uint %uint_1 %float_1");
    /* The same text is a line of cvm_disassemble's output. */
    char *dis = NULL;
    assert_int_equal(cvm_disassemble(w, n, 0, &dis, NULL, &d), CVM_SUCCESS);
    assert_non_null(strstr(dis, "%sum = OpIAdd %uint %uint_1 %float_1\n"));
    cvm_free(dis);

    /* Byte-swapped words: the same verdict. */
    for (size_t i = 0; i < n; i++)
        w[i] = (w[i] >> 24) | ((w[i] >> 8) & 0xff00u) | ((w[i] << 8) & 0xff0000u) | (w[i] << 24);
    cvm_diagnostic d2;
    assert_int_equal(cvm_validate(w, n, NULL, &d2), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(strncmp(d2.message, "[CORE.Arith-Int]", 16), 0);
    cvm_free(w);
}

static void test_arguments(void **state)
{
    (void)state;
    size_t n;
    uint32_t *w = small_module("%uint_1", &n);
    cvm_diagnostic d;
    cvm_validate_options bad_env = {"vulkan9.9", 0, NULL, NULL, NULL}, bad_flags = {NULL, 2, NULL, NULL, NULL};
    assert_int_equal(cvm_validate(w, n, &bad_env, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "vulkan9.9"));
    assert_int_equal(cvm_validate(w, n, &bad_flags, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_validate(NULL, 5, NULL, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_validate(NULL, 0, NULL, &d), CVM_ERROR_MALFORMED);
    assert_int_equal(strncmp(d.message, "[CORE.Header]", 13), 0);
    assert_int_equal(d.word_offset, 0);
    /* Every prefix of a valid module is refused without a crash. */
    for (size_t k = 0; k < n; k++) {
        cvm_result r = cvm_validate(w, k, NULL, &d);
        assert_int_not_equal(r, CVM_SUCCESS);
    }
    /* The target environment's version limit: SPIR-V 1.6 is too new for
     * Vulkan 1.1. */
    cvm_validate_options vk11 = {"vulkan1.1", 0, NULL, NULL, NULL};
    assert_int_equal(cvm_validate(w, n, &vk11, &d), CVM_ERROR_MALFORMED);
    assert_int_equal(strncmp(d.message, "[CORE.Version-Env]", 18), 0);
    assert_int_equal(cvm_validate(w, n, NULL, NULL), CVM_SUCCESS);
    cvm_free(w);
}

static void test_rule_table(void **state)
{
    (void)state;
    uint32_t n = cvm_validation_rule_count();
    assert_true(n > 200);
    cvm_validation_rule r;
    assert_int_equal(cvm_validation_rule_get(n, &r), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_validation_rule_get(0, NULL), CVM_ERROR_INVALID_ARGUMENT);
    uint32_t listed = 0;
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(cvm_validation_rule_get(i, &r), CVM_SUCCESS);
        assert_true(r.id[0] && r.source[0] && r.section[0] && r.text[0]);
        listed += r.checked ? 0 : 1;
        for (uint32_t j = 0; j < i; j++) {
            cvm_validation_rule o;
            assert_int_equal(cvm_validation_rule_get(j, &o), CVM_SUCCESS);
            if (!strcmp(o.id, r.id)) {
                print_error("rule id %s appears twice\n", r.id);
                fail();
            }
        }
    }
    assert_true(listed > 0 && listed < n);
    /* The rules checked against a device description (issue 31), each by
     * its id: checked 2, and no other. */
    static const char *const device_rules[] = {
        "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163",
        "VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060",
        "VUID-NSize-12352",
        "VUID-KSize-12353",
        "QCOM-CMC.Subgroup-Size",
        "QCOM-CMC.SubArray-K",
        "VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-10164",
        "VUID-cooperativeMatrixProperties2-13382",
        "VUID-cooperativeMatrixProperties2-13383",
        "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10165",
        "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10166",
        "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensionsMaxDimension-10167",
        "VUID-RuntimeSpirv-maxComputeSharedMemorySize-10168",
        "VUID-RuntimeSpirv-cooperativeMatrixSupportedStages-08985",
        "VUID-RuntimeSpirv-cooperativeVectorSupportedStages-10091",
        "VUID-RuntimeSpirv-maxCooperativeVectorComponents-10094",
        "VUID-RuntimeSpirv-OpTypeCooperativeVector-10095",
        "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089",
        "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulAddNV-11808",
        "VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-11809",
        "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10770",
        "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10771",
        "VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06316",
        "VUID-RuntimeSpirv-OpTypeCooperativeMatrixMulAddNV-10059",
        "VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06322",
    };
    uint32_t device = 0;
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(cvm_validation_rule_get(i, &r), CVM_SUCCESS);
        int want = 0;
        for (size_t k = 0; k < sizeof(device_rules) / sizeof(device_rules[0]); k++)
            want |= !strcmp(r.id, device_rules[k]);
        if (want != (r.checked == 2)) {
            print_error("rule %s: checked %d\n", r.id, r.checked);
            fail();
        }
        device += r.checked == 2;
    }
    assert_int_equal(device, sizeof(device_rules) / sizeof(device_rules[0]));
}

/* Every allocation the validator makes may fail: it then reports
 * CVM_ERROR_OUT_OF_MEMORY (or succeeds when the failing one was not
 * needed), never crashes or leaks (the sanitizer build checks). */
static void test_allocation_failures(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof(path), "%s/corpus/attention_softmax/attention_softmax.spv",
             CVM_SHARED_DIR);
    size_t nw, nbad;
    uint32_t *w = read_words(path, &nw);
    assert_non_null(w);
    /* An invalid module too, so that the report path (which disassembles)
     * runs out of memory as well. */
    uint32_t *bad = small_module("%float_1", &nbad);
    cvm_diagnostic d;
    /* The third run: the device rules' allocations (the stage rule's, with
     * no stage supported, so that the module is then refused for it). */
    cvm_device_description dev;
    cvm_get_device_description(&dev);
    dev.cooperative_matrix_supported_stages = 0;
    cvm_validate_options with_device = {"vulkan1.4", 0, NULL, NULL, &dev};
    for (int which = 0; which < 3; which++) {
        const uint32_t *words = which == 1 ? bad : w;
        size_t count = which == 1 ? nbad : nw;
        cvm_result want = which ? CVM_ERROR_INVALID_MODULE : CVM_SUCCESS;
        int done = 0;
        uint64_t k = 1;
        for (; k < 100000 && !done; k++) {
            cvm_test_fail_allocation_after(k);
            cvm_result r = cvm_validate(words, count, which == 2 ? &with_device : NULL, &d);
            cvm_test_fail_allocation_after(0);
            if (r == want)
                done = 1; /* k is past the last allocation */
            else
                assert_int_equal(r, CVM_ERROR_OUT_OF_MEMORY);
        }
        assert_true(done);
        assert_true(k > 2); /* at least one allocation was made to fail */
        if (which == 2)
            assert_non_null(strstr(d.message, "[VUID-RuntimeSpirv-cooperativeMatrixSupportedStages-"
                                              "08985]"));
    }
    free(w);
    cvm_free(bad);
}

/* ---- warnings: a SPIR-V 1.4 cooperative-vector module ---------------------------------------- */

/* tests/validate/spv14/coopvec_spv14.spv: what the Vulkan CTS's
 * cooperative-vector pipelines are, a module whose version is below the
 * "requires SPIR-V 1.6" of SPV_NV_cooperative_vector's Dependencies.  That
 * is a warning: reported, never a refusal, except under
 * CVM_VALIDATE_STRICT; and the engine runs the module. */
static void test_warnings(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof(path), "%s/validate/spv14/coopvec_spv14.spv", CVM_TEST_DATA_DIR);
    size_t n;
    uint32_t *w = read_words(path, &n);
    assert_non_null(w);
    assert_int_equal(w[1], 0x00010400u);
    /* The committed binary is its .spvasm, assembled. */
    snprintf(path, sizeof(path), "%s/validate/spv14/coopvec_spv14.spvasm", CVM_TEST_DATA_DIR);
    size_t tlen, an;
    char *text = read_text(path, &tlen);
    assert_non_null(text);
    uint32_t *a = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_assemble(text, tlen, 0, NULL, &a, &an, &d), CVM_SUCCESS);
    assert_int_equal(an, n);
    assert_memory_equal(a, w, n * 4);
    cvm_free(a);
    free(text);
    /* The Vulkan driver's test runs a copy (tests/validate/vulkan). */
    snprintf(path, sizeof(path), "%s/validate/vulkan/coopvec_spv14/coopvec_spv14.spv",
             CVM_TEST_DATA_DIR);
    size_t cn;
    uint32_t *copy = read_words(path, &cn);
    assert_non_null(copy);
    assert_int_equal(cn, n);
    assert_memory_equal(copy, w, n * 4);
    free(copy);

    /* cvm_validate: valid, one warning naming the rule, CVM_SUCCESS in it. */
    warnings seen = {"[NV-CV.Version]", 0, 0, ""};
    cvm_validate_options opt = {NULL, 0, collect_warning, &seen, NULL};
    assert_int_equal(cvm_validate(w, n, &opt, &d), CVM_SUCCESS);
    assert_int_equal(seen.count, 1);
    assert_int_equal(seen.named, 1);
    assert_non_null(strstr(seen.first, "SPIR-V 1.4"));
    assert_int_equal(cvm_validate(w, n, NULL, &d), CVM_SUCCESS);
    assert_int_equal(cvm_validate(w, n, NULL, NULL), CVM_SUCCESS);
    /* Strict: the first broken rule, a warning one, refuses it. */
    warnings none = {NULL, 0, 0, ""};
    cvm_validate_options strict = {NULL, CVM_VALIDATE_STRICT, collect_warning, &none, NULL};
    assert_int_equal(cvm_validate(w, n, &strict, &d), CVM_ERROR_INVALID_MODULE);
    assert_int_equal(strncmp(d.message, "[NV-CV.Version]", 15), 0);
    assert_int_equal(none.count, 0);
    /* The rule table says which rules are warnings. */
    assert_true(rule_is_warning("NV-CV.Version"));
    assert_true(rule_is_warning("KHR-CM.Version"));
    assert_true(rule_is_warning("NV-CM2.Version"));
    assert_false(rule_is_warning("KHR-CM.MulAdd-A"));
    assert_false(rule_is_warning("NV-CV.Extension"));
    /* SPV_QCOM_cooperative_matrix_conversion's "requires SPIR-V 1.3" is an
     * error: spirv-val refuses the extension below 1.3 too (SPIRV-Tools'
     * SpirvVersionCoopMatConversionQCOM), unlike the 1.6 dependencies. */
    assert_false(rule_is_warning("QCOM-CMC.Version"));

    /* The engine (cvm_module_create, what coopvm run and the Vulkan driver
     * call) takes the module, passes the warning to the context's callback,
     * and runs it: y = W x, hand-computed. */
    warnings eng = {"[NV-CV.Version]", 0, 0, ""};
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.on_warning = collect_warning;
    desc.warning_user = &eng;
    cvm_context *ctx;
    cvm_module *m = NULL;
    cvm_pipeline *p = NULL;
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    assert_int_equal(cvm_module_create(ctx, w, n, &m, &d), CVM_SUCCESS);
    assert_int_equal(eng.count, 1);
    assert_int_equal(eng.named, 1);
    assert_int_equal(cvm_pipeline_create(m, "main", NULL, 0, &p, &d), CVM_SUCCESS);
    float x[4] = {1, 2, 3, 4};
    float mat[12] = {1, 0, 0, 0, 1, 1, 1, 1, 2, -1, 0, 3};
    float y[3] = {0, 0, 0};
    assert_int_equal(cvm_pipeline_bind_buffer(p, 0, 0, 0, x, sizeof(x), &d), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(p, 0, 1, 0, mat, sizeof(mat), &d), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(p, 0, 2, 0, y, sizeof(y), &d), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_dispatch(p, 1, 1, 1, &d), CVM_SUCCESS);
    assert_true(y[0] == 1.0f && y[1] == 10.0f && y[2] == 12.0f);
    cvm_pipeline_destroy(p);
    cvm_module_destroy(m);
    cvm_context_destroy(ctx);
    free(w);
}

/* ---- the engine validates ---------------------------------------------------------------- */

static void test_engine_refuses_invalid(void **state)
{
    (void)state;
    size_t n;
    uint32_t *w = small_module("%float_1", &n);
    cvm_context *ctx;
    cvm_module *m = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_context_create(NULL, &ctx, &d), CVM_SUCCESS);
    assert_int_equal(cvm_module_create(ctx, w, n, &m, &d), CVM_ERROR_INVALID_MODULE);
    assert_null(m);
    assert_int_equal(strncmp(d.message, "[CORE.Arith-Int]", 16), 0);
    assert_int_equal(d.line, 42);
    cvm_context_destroy(ctx);
    /* With validation off, the reader takes the module (the engine meets the
     * mismatch later, if at all). */
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.flags = CVM_FLAG_NO_VALIDATION;
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    assert_int_equal(cvm_module_create(ctx, w, n, &m, &d), CVM_SUCCESS);
    cvm_module_destroy(m);
    cvm_context_destroy(ctx);
    cvm_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative_suite),     cmocka_unit_test(test_known_modules_valid),
        cmocka_unit_test(test_diagnostic),         cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_rule_table),         cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_engine_refuses_invalid), cmocka_unit_test(test_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
