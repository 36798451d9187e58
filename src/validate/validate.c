/* cvm_validate: reads a module into a val_ctx and runs the rule table
 * (rules.c) phase by phase; the first broken rule becomes the diagnostic. */
#include <stdio.h>
#include <string.h>

#include "text/disassemble.h"
#include "validate/val.h"
#include "validate/val_checks.h"

/* ---- target environments ------------------------------------------------------ */

typedef struct val_env {
    const char *name;
    int vulkan;
    uint32_t max_version; /* newest SPIR-V version the environment accepts */
} val_env;

/* SPIR-V versions per Vulkan version: Vulkan 1.0 takes 1.0, 1.1 takes 1.3
 * (1.4 with VK_KHR_spirv_1_4, spirv-val's "vulkan1.1spv1.4"), 1.2 takes 1.5,
 * 1.3 and 1.4 take 1.6 (the Vulkan specification, appendix "Versions and
 * Formats"). */
static const val_env envs[] = {
    {"spv1.0", 0, 0x10000},     {"spv1.1", 0, 0x10100},    {"spv1.2", 0, 0x10200},
    {"spv1.3", 0, 0x10300},     {"spv1.4", 0, 0x10400},    {"spv1.5", 0, 0x10500},
    {"spv1.6", 0, 0x10600},     {"vulkan1.0", 1, 0x10000}, {"vulkan1.1", 1, 0x10300},
    {"vulkan1.1spv1.4", 1, 0x10400}, {"vulkan1.2", 1, 0x10500}, {"vulkan1.3", 1, 0x10600},
    {"vulkan1.4", 1, 0x10600},
};

/* ---- growable arrays ---------------------------------------------------------- */

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *np = cvm_realloc(*p, (size_t)ncap * elem);
    if (!np)
        return 0;
    *p = np;
    *cap = ncap;
    return 1;
}

typedef struct val_caps_t {
    uint32_t caps, exts, entries, modes, decos, funcs, blocks, succs, params;
} val_caps_t;

static int push_u32(uint32_t **arr, uint32_t *n, uint32_t *cap, uint32_t x)
{
    if (!grow((void **)arr, cap, *n + 1, sizeof(uint32_t)))
        return 0;
    (*arr)[(*n)++] = x;
    return 1;
}

/* ---- reading the module (after each instruction passed phase 2) --------------- */

typedef struct reader {
    val_caps_t cap;
    uint32_t cur_func;
    uint32_t cur_block;
} reader;

static int record(val_ctx *v, reader *rd, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    uint32_t rt = 0, id = 0;
    if (d->has_result_type && d->has_result) {
        rt = in->words[1];
        id = in->words[2];
    } else if (d->has_result) {
        id = in->words[1];
    }
    switch (in->opcode) {
    case SpvOpCapability:
        if (!push_u32(&v->caps, &v->ncaps, &rd->cap.caps, in->words[1]))
            return 0;
        v->ncaps_declared = v->ncaps;
        break;
    case SpvOpExtension:
        if (!push_u32(&v->ext_offs, &v->nexts, &rd->cap.exts, in->offset))
            return 0;
        break;
    case SpvOpExtInstImport: {
        const char *s;
        if (spv_inst_string(in, 2, &s) && !strcmp(s, "GLSL.std.450") && !v->glsl_set)
            v->glsl_set = in->words[1];
        break;
    }
    case SpvOpMemoryModel:
        if (!v->nmemory_models++) {
            v->memory_model_off = in->offset;
            v->addressing_model = in->words[1];
            v->memory_model = in->words[2];
        }
        break;
    case SpvOpEntryPoint:
        if (!push_u32(&v->entry_offs, &v->nentries, &rd->cap.entries, in->offset))
            return 0;
        break;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
        if (!push_u32(&v->mode_offs, &v->nmodes, &rd->cap.modes, in->offset))
            return 0;
        break;
    case SpvOpDecorate:
    case SpvOpDecorateId:
    case SpvOpDecorateString:
    case SpvOpMemberDecorate:
    case SpvOpMemberDecorateString:
        if (!push_u32(&v->deco_offs, &v->ndecos, &rd->cap.decos, in->offset))
            return 0;
        break;
    case SpvOpFunction: {
        if (!grow((void **)&v->funcs, &rd->cap.funcs, v->nfuncs + 1, sizeof(val_function)))
            return 0;
        val_function *f = &v->funcs[v->nfuncs];
        memset(f, 0, sizeof(*f));
        f->id = id;
        f->result_type = rt;
        f->fn_type = in->words[4];
        f->begin = in->offset;
        f->end = in->offset + in->word_count;
        f->first_param = v->nparams;
        f->first_block = v->nblocks;
        rd->cur_func = v->nfuncs++;
        rd->cur_block = VAL_NONE;
        break;
    }
    case SpvOpFunctionParameter:
        if (rd->cur_func != VAL_NONE) {
            if (!push_u32(&v->params, &v->nparams, &rd->cap.params, id))
                return 0;
            v->funcs[rd->cur_func].nparams++;
        }
        break;
    case SpvOpFunctionEnd:
        if (rd->cur_func != VAL_NONE)
            v->funcs[rd->cur_func].end = in->offset + in->word_count;
        rd->cur_func = VAL_NONE;
        rd->cur_block = VAL_NONE;
        break;
    case SpvOpLabel: {
        if (!grow((void **)&v->blocks, &rd->cap.blocks, v->nblocks + 1, sizeof(val_block)))
            return 0;
        val_block *b = &v->blocks[v->nblocks];
        memset(b, 0, sizeof(*b));
        b->label = id;
        b->func = rd->cur_func;
        b->begin = in->offset;
        b->first_succ = v->nsuccs;
        b->idom = VAL_NONE;
        b->rpo = VAL_NONE;
        rd->cur_block = v->nblocks++;
        if (rd->cur_func != VAL_NONE)
            v->funcs[rd->cur_func].nblocks++;
        break;
    }
    case SpvOpSelectionMerge:
    case SpvOpLoopMerge:
        if (rd->cur_block != VAL_NONE) {
            val_block *b = &v->blocks[rd->cur_block];
            b->merge_off = in->offset;
            b->merge = in->words[1];
            b->cont = in->opcode == SpvOpLoopMerge ? in->words[2] : 0;
        }
        break;
    default:
        break;
    }
    if (val_is_terminator(in->opcode) && rd->cur_block != VAL_NONE) {
        val_block *b = &v->blocks[rd->cur_block];
        if (!b->term) {
            b->term = in->offset;
            uint32_t first = in->opcode == SpvOpBranchConditional ? 2 : 1;
            if (in->opcode == SpvOpBranch || in->opcode == SpvOpBranchConditional) {
                for (uint32_t i = first; i < in->word_count && i < first + 2u; i++) {
                    if (!push_u32(&v->succs, &v->nsuccs, &rd->cap.succs, in->words[i]))
                        return 0;
                    b->nsucc++;
                }
            } else if (in->opcode == SpvOpSwitch) {
                const val_operand *ops;
                const char *why;
                int n = val_operands(v, in, &ops, &why);
                for (int i = 1; i < n; i++) {
                    if (ops[i].kind != SPV_OPERAND_IdRef)
                        continue;
                    if (!push_u32(&v->succs, &v->nsuccs, &rd->cap.succs, in->words[ops[i].word]))
                        return 0;
                    b->nsucc++;
                }
            }
        }
        rd->cur_block = VAL_NONE;
    }
    if (id) {
        val_id *x = &v->ids[id];
        if (!x->ndefs++) {
            x->off = in->offset;
            x->opcode = in->opcode;
            x->nwords = in->word_count;
            x->type = rt;
            x->func = rd->cur_func;
            x->block = in->opcode == SpvOpLabel ? VAL_NONE : rd->cur_block;
        }
    }
    return 1;
}

/* Adds the capabilities the declared ones declare implicitly (the grammar's
 * "capabilities" of each Capability enumerant), to a fixed point. */
static int close_capabilities(val_ctx *v, reader *rd)
{
    for (uint32_t i = 0; i < v->ncaps; i++) {
        const spv_enumerant_desc *e = spv_grammar_enumerant(SPV_OPERAND_Capability, v->caps[i]);
        if (!e)
            continue;
        for (uint16_t k = 0; k < e->num_capabilities; k++)
            if (!val_has_cap(v, e->capabilities[k]) &&
                !push_u32(&v->caps, &v->ncaps, &rd->cap.caps, e->capabilities[k]))
                return 0;
    }
    return 1;
}

/* ---- the control-flow graph --------------------------------------------------- */

/* Successor `s` of block `b` as a block index of the same function. */
static uint32_t succ_block(const val_ctx *v, uint32_t b, uint32_t s)
{
    uint32_t t = val_block_of_label(v, v->succs[v->blocks[b].first_succ + s]);
    if (t == VAL_NONE || v->blocks[t].func != v->blocks[b].func)
        return VAL_NONE;
    return t;
}

static uint32_t intersect(const val_ctx *v, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (v->blocks[a].rpo > v->blocks[b].rpo)
            a = v->blocks[a].idom;
        while (v->blocks[b].rpo > v->blocks[a].rpo)
            b = v->blocks[b].idom;
    }
    return a;
}

static int build_cfg(val_ctx *v)
{
    v->block_of = cvm_malloc((size_t)v->bound * sizeof(uint32_t));
    v->pred_first = cvm_calloc((size_t)v->nblocks + 1, sizeof(uint32_t));
    if (!v->block_of || !v->pred_first)
        return 0;
    for (uint32_t i = 0; i < v->bound; i++)
        v->block_of[i] = VAL_NONE;
    for (uint32_t b = 0; b < v->nblocks; b++)
        if (v->blocks[b].func != VAL_NONE && v->block_of[v->blocks[b].label] == VAL_NONE)
            v->block_of[v->blocks[b].label] = b;
    /* Predecessors, grouped per block (each edge once per successor slot). */
    for (uint32_t b = 0; b < v->nblocks; b++)
        for (uint32_t s = 0; s < v->blocks[b].nsucc; s++) {
            uint32_t t = succ_block(v, b, s);
            if (t != VAL_NONE)
                v->pred_first[t + 1]++;
        }
    for (uint32_t b = 0; b < v->nblocks; b++)
        v->pred_first[b + 1] += v->pred_first[b];
    uint32_t total = v->pred_first[v->nblocks];
    v->preds = cvm_malloc((size_t)total * sizeof(uint32_t) + 4);
    uint32_t *fill = cvm_malloc((size_t)v->nblocks * sizeof(uint32_t) + 4);
    uint32_t *stack = cvm_malloc((size_t)v->nblocks * 2 * sizeof(uint32_t) + 8);
    uint32_t *order = cvm_malloc((size_t)v->nblocks * sizeof(uint32_t) + 4);
    if (!v->preds || !fill || !stack || !order) {
        cvm_mem_free(fill);
        cvm_mem_free(stack);
        cvm_mem_free(order);
        return 0;
    }
    for (uint32_t b = 0; b < v->nblocks; b++)
        fill[b] = v->pred_first[b];
    for (uint32_t b = 0; b < v->nblocks; b++)
        for (uint32_t s = 0; s < v->blocks[b].nsucc; s++) {
            uint32_t t = succ_block(v, b, s);
            if (t != VAL_NONE)
                v->preds[fill[t]++] = b;
        }
    /* Per function: reverse post-order from the entry block, then the
     * dominator tree (Cooper, Harvey and Kennedy's iteration). */
    for (uint32_t f = 0; f < v->nfuncs; f++) {
        val_function *fn = &v->funcs[f];
        if (!fn->nblocks)
            continue;
        uint32_t entry = fn->first_block;
        uint32_t sp = 0, npost = 0;
        uint8_t *seen = (uint8_t *)fill; /* reuse: one byte per block would do, a word is fine */
        for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++)
            fill[b] = 0;
        (void)seen;
        stack[sp++] = entry;
        stack[sp++] = 0;
        fill[entry] = 1;
        while (sp) {
            uint32_t b = stack[sp - 2], pos = stack[sp - 1];
            if (pos < v->blocks[b].nsucc) {
                stack[sp - 1] = pos + 1;
                uint32_t t = succ_block(v, b, pos);
                if (t != VAL_NONE && !fill[t]) {
                    fill[t] = 1;
                    stack[sp++] = t;
                    stack[sp++] = 0;
                }
            } else {
                order[npost++] = b;
                sp -= 2;
            }
        }
        /* order[] is the post-order; rpo numbers count from the entry. */
        for (uint32_t i = 0; i < npost; i++)
            v->blocks[order[i]].rpo = npost - 1 - i;
        v->blocks[entry].idom = entry;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t i = npost; i-- > 0;) {
                uint32_t b = order[i];
                if (b == entry)
                    continue;
                uint32_t nd = VAL_NONE;
                for (uint32_t k = v->pred_first[b]; k < v->pred_first[b + 1]; k++) {
                    uint32_t p = v->preds[k];
                    if (v->blocks[p].rpo == VAL_NONE || v->blocks[p].idom == VAL_NONE)
                        continue;
                    nd = nd == VAL_NONE ? p : intersect(v, p, nd);
                }
                if (nd != v->blocks[b].idom) {
                    v->blocks[b].idom = nd;
                    changed = 1;
                }
            }
        }
        v->blocks[entry].idom = VAL_NONE;
    }
    cvm_mem_free(fill);
    cvm_mem_free(stack);
    cvm_mem_free(order);
    return 1;
}

/* ---- reporting ---------------------------------------------------------------- */

/* The source line of the instruction at `off`: the last OpLine before it in
 * its block. */
static void locate(const val_ctx *v, uint32_t off, cvm_diagnostic *diag)
{
    spv_inst in;
    uint32_t file = 0, line = 0, col = 0;
    for (uint32_t o = SPV_HEADER_WORDS; o < off && val_inst_at(v, o, &in); o += in.word_count) {
        if (in.opcode == SpvOpLine && in.word_count >= 4) {
            file = in.words[1];
            line = in.words[2];
            col = in.words[3];
        } else if (in.opcode == SpvOpNoLine || in.opcode == SpvOpFunctionEnd ||
                   val_is_terminator(in.opcode)) {
            file = line = col = 0;
        }
    }
    if (!line)
        return;
    diag->line = line;
    diag->column = col;
    spv_inst s;
    const char *name;
    if (val_opcode(v, file) == SpvOpString && val_def(v, file, &s) &&
        spv_inst_string(&s, 2, &name)) {
        strncpy(diag->file, name, sizeof(diag->file) - 1);
        diag->file[sizeof(diag->file) - 1] = 0;
    }
}

static cvm_result report(val_ctx *v, const val_rule *r, const spv_inst *in, cvm_diagnostic *diag)
{
    /* Phases 1 and 2 are about the binary being SPIR-V at all; an opcode
     * outside coopvm's grammar (a newer extension) is something coopvm
     * cannot check rather than proof of a broken module. */
    cvm_result result = r->phase <= 2 ? CVM_ERROR_MALFORMED : CVM_ERROR_INVALID_MODULE;
    if (r->check == vc_opcode)
        result = CVM_ERROR_UNSUPPORTED;
    if (!diag)
        return result;
    const char *detail = v->detail[0] ? v->detail : NULL;
    uint32_t off = v->blame_off ? v->blame_off : in ? in->offset : 0;
    spv_inst at;
    if (!off || !val_inst_at(v, off, &at)) {
        /* The header, or a module-wide rule with no instruction to blame. */
        cvm_diag_at(diag, result, off, 0, "[%s] %s%s%s (%s, %s)", r->id, r->text,
                    detail ? ": " : "", detail ? detail : "", r->source, r->section);
        return result;
    }
    /* Quote the instruction as spirv-val does once the module decodes
     * (phase 3 on); before that, its opcode name. */
    char dis[400];
    dis[0] = 0;
    if (r->phase >= 3 &&
        txt_disassemble_instruction(v->words, v->nwords, off, dis, sizeof(dis)) != CVM_SUCCESS)
        dis[0] = 0;
    cvm_diag_at(diag, result, off, at.opcode, "[%s] %s%s%s (%s, %s) at word %u: %s", r->id,
                r->text, detail ? ": " : "", detail ? detail : "", r->source, r->section, off,
                dis[0] ? dis : val_op_name(at.opcode));
    locate(v, off, diag);
    return result;
}

/* ---- running the rules -------------------------------------------------------- */

/* A broken rule of warning severity: reported to the caller, and the run
 * goes on. */
static void warn(val_ctx *v, const val_rule *r, const spv_inst *in)
{
    if (!v->on_warning)
        return;
    cvm_diagnostic w;
    cvm_diag_clear(&w);
    report(v, r, in, &w);
    w.result = CVM_SUCCESS;
    v->on_warning(v->warning_user, &w);
}

static int rule_applies(const val_ctx *v, const val_rule *r, uint32_t phase)
{
    if ((r->on & VAL_DEVICE) && !v->device)
        return 0;
    return r->phase == phase && r->on != VAL_LISTED && r->on != VAL_RUNTIME && r->check &&
           (r->env == VAL_ENV_ANY || v->vulkan);
}

/* 1 when the rule holds (or memory ran out: the caller reports that), or
 * when it is a warning, which is then reported; 0 for a broken error rule. */
static int run_check(val_ctx *v, const val_rule *r, const spv_inst *in)
{
    v->detail[0] = 0;
    v->blame_off = 0;
    int ok = r->check(v, in);
    if (ok || v->oom)
        return 1;
    if (r->severity == VAL_WARNING && !v->strict) {
        warn(v, r, in);
        return 1;
    }
    return 0;
}

static cvm_result out_of_memory(cvm_diagnostic *diag)
{
    return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
}

/* Runs the module rules of `phase`, then its instruction rules over every
 * instruction in module order; phase 2 also records each instruction. */
static cvm_result run_phase(val_ctx *v, uint32_t phase, reader *rd, cvm_diagnostic *diag)
{
    for (uint32_t i = 0; i < val_rule_count; i++) {
        const val_rule *r = &val_rules[i];
        if (rule_applies(v, r, phase) && VAL_KIND(r->on) == VAL_MODULE && !run_check(v, r, NULL))
            return report(v, r, NULL, diag);
        if (v->oom)
            return out_of_memory(diag);
    }
    /* The instruction rules of the phase that apply: those on every
     * instruction, and those on one opcode ordered by (opcode, rule), so that
     * an instruction meets its own in table order without a pass over the
     * whole table (which was most of a small module's validation). */
    uint32_t *each = cvm_malloc((size_t)val_rule_count * 2 * sizeof(uint32_t) + 1);
    if (!each)
        return out_of_memory(diag);
    uint32_t *byop = each + val_rule_count, neach = 0, nbyop = 0;
    for (uint32_t i = 0; i < val_rule_count; i++) {
        const val_rule *r = &val_rules[i];
        if (!rule_applies(v, r, phase) || VAL_KIND(r->on) == VAL_MODULE)
            continue;
        if (VAL_KIND(r->on) == VAL_OPCODE) {
            uint32_t k = nbyop++; /* insertion: stable, by opcode */
            while (k > 0 && val_rules[byop[k - 1]].opcode > r->opcode) {
                byop[k] = byop[k - 1];
                k--;
            }
            byop[k] = i;
        } else {
            each[neach++] = i;
        }
    }
    cvm_result res = CVM_SUCCESS;
    if (!neach && !nbyop && !rd)
        goto out;
    spv_inst in;
    for (uint32_t off = SPV_HEADER_WORDS; off < v->nwords; off += in.word_count) {
        if (!val_inst_at(v, off, &in))
            break; /* phase 1 has reported a broken stream already */
        uint32_t lo = 0, hi = nbyop;
        while (lo < hi) { /* the first of the opcode's rules */
            uint32_t mid = lo + (hi - lo) / 2;
            if (val_rules[byop[mid]].opcode < in.opcode)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint32_t a = 0, b = lo;
        for (;;) {
            int from_op = b < nbyop && val_rules[byop[b]].opcode == in.opcode;
            if (a >= neach && !from_op)
                break;
            uint32_t i = from_op && (a >= neach || byop[b] < each[a]) ? byop[b++] : each[a++];
            const val_rule *r = &val_rules[i];
            if (!run_check(v, r, &in)) {
                res = report(v, r, &in, diag);
                goto out;
            }
            if (v->oom) {
                res = out_of_memory(diag);
                goto out;
            }
        }
        if (rd && !record(v, rd, &in)) {
            res = out_of_memory(diag);
            goto out;
        }
    }
out:
    cvm_mem_free(each);
    return res;
}

static void release(val_ctx *v)
{
    cvm_mem_free(v->ids);
    cvm_mem_free(v->caps);
    cvm_mem_free(v->ext_offs);
    cvm_mem_free(v->entry_offs);
    cvm_mem_free(v->mode_offs);
    cvm_mem_free(v->deco_offs);
    cvm_mem_free(v->funcs);
    cvm_mem_free(v->blocks);
    cvm_mem_free(v->succs);
    cvm_mem_free(v->params);
    cvm_mem_free(v->block_of);
    cvm_mem_free(v->preds);
    cvm_mem_free(v->first_merge);
    cvm_mem_free(v->pred_first);
    cvm_mem_free(v->ops);
    cvm_mem_free(v->qcom_sources);
}

static uint32_t bswap32(uint32_t x)
{
    return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

cvm_result cvm_validate(const uint32_t *words, size_t word_count,
                        const cvm_validate_options *options, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!words && word_count)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "words is NULL");
    const char *env_name = options && options->target_env ? options->target_env : "spv1.6";
    const val_env *env = NULL;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(envs); i++)
        if (!strcmp(envs[i].name, env_name))
            env = &envs[i];
    if (!env)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT,
                            "unknown target environment '%s' (spv1.0..spv1.6, vulkan1.0..vulkan1.4)",
                            env_name);
    if (options && (options->flags & ~(uint32_t)CVM_VALIDATE_STRICT))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "unknown validation flags 0x%x",
                            options->flags & ~(uint32_t)CVM_VALIDATE_STRICT);

    val_ctx v;
    memset(&v, 0, sizeof(v));
    v.env_name = env->name;
    v.vulkan = env->vulkan;
    v.env_max_version = env->max_version;
    if (options) {
        v.strict = (options->flags & CVM_VALIDATE_STRICT) != 0;
        v.on_warning = options->on_warning;
        v.warning_user = options->user;
        v.device = options->device;
    }
    v.words = words;
    v.nwords = word_count;
    uint32_t *swapped = NULL;
    if (word_count >= 1 && words[0] == bswap32(SPV_MAGIC_NUMBER)) {
        swapped = cvm_malloc(word_count * sizeof(uint32_t));
        if (!swapped)
            return out_of_memory(o_diag);
        for (size_t i = 0; i < word_count; i++)
            swapped[i] = bswap32(words[i]);
        v.words = swapped;
    }
    if (v.nwords > UINT32_MAX)
        v.nwords = UINT32_MAX; /* offsets are 32-bit; the header rule reports it */
    cvm_result r = run_phase(&v, 1, NULL, o_diag);
    if (r != CVM_SUCCESS)
        goto done;
    v.version = v.words[1];
    v.bound = v.words[3];
    v.ids = cvm_calloc(v.bound, sizeof(val_id));
    if (!v.ids) {
        r = out_of_memory(o_diag);
        goto done;
    }
    reader rd;
    memset(&rd, 0, sizeof(rd));
    rd.cur_func = VAL_NONE;
    rd.cur_block = VAL_NONE;
    if ((r = run_phase(&v, 2, &rd, o_diag)) != CVM_SUCCESS)
        goto done;
    if (!close_capabilities(&v, &rd) || !build_cfg(&v)) {
        r = out_of_memory(o_diag);
        goto done;
    }
    if ((r = run_phase(&v, 3, NULL, o_diag)) != CVM_SUCCESS)
        goto done;
    r = run_phase(&v, 4, NULL, o_diag);
done:
    release(&v);
    cvm_mem_free(swapped);
    return r;
}

/* ---- the rule list, for users ------------------------------------------------- */

uint32_t cvm_validation_rule_count(void)
{
    return val_rule_count;
}

cvm_result cvm_validation_rule_get(uint32_t index, cvm_validation_rule *o_rule)
{
    if (!o_rule || index >= val_rule_count)
        return CVM_ERROR_INVALID_ARGUMENT;
    const val_rule *r = &val_rules[index];
    o_rule->id = r->id;
    o_rule->source = r->source;
    o_rule->section = r->section;
    o_rule->text = r->text;
    o_rule->vulkan_only = r->env == VAL_ENV_VULKAN;
    o_rule->checked = r->on == VAL_LISTED    ? 0
                      : r->on == VAL_RUNTIME ? 3
                      : (r->on & VAL_DEVICE) ? 2
                                             : 1;
    o_rule->warning = r->severity == VAL_WARNING;
    return CVM_SUCCESS;
}
