/* Core SPIR-V rules the engine relies on: the binary, the grammar, ids and
 * their definitions, the logical layout, functions and blocks, structured
 * control flow, and the types of the operands of the instructions the
 * engine executes.  The rest of core SPIR-V is spirv-val's (SPIRV-Tools)
 * business; rules.c lists what is checked here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

/* ---- helpers ----------------------------------------------------------------- */

static int is_id_kind(uint16_t kind)
{
    return spv_operand_kinds[kind].category == SPV_CATEGORY_ID;
}

/* The operands of an instruction that passed phase 2 (cannot fail then,
 * except for memory). */
static int operands(val_ctx *v, const spv_inst *in, const val_operand **o_ops)
{
    const char *why;
    int n = val_operands(v, in, o_ops, &why);
    return n < 0 ? 0 : n;
}

static uint32_t inst_result_id(const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (!d || !d->has_result)
        return 0;
    return d->has_result_type ? val_word(in, 2) : val_word(in, 1);
}

static uint32_t inst_result_type(const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    return d && d->has_result_type ? val_word(in, 1) : 0;
}

/* ---- phase 1: the binary ------------------------------------------------------- */

int vc_header(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (v->nwords < SPV_HEADER_WORDS)
        return val_fail(v, "the module has %zu words, fewer than the 5 of the header", v->nwords);
    if (v->words[0] != SPV_MAGIC_NUMBER)
        return val_fail(v, "the magic number is 0x%08x, not 0x07230203 in either byte order",
                        v->words[0]);
    uint32_t ver = v->words[1];
    if ((ver & 0xff0000ffu) || ((ver >> 16) & 0xff) != 1 || ((ver >> 8) & 0xff) > 6)
        return val_fail(v, "version word 0x%08x is not a SPIR-V version 1.0 to 1.6", ver);
    if (v->words[3] == 0)
        return val_fail(v, "the id bound is 0");
    if (v->words[4] != 0)
        return val_fail(v, "the schema word is %u, not 0", v->words[4]);
    return 1;
}

int vc_bound_limit(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (v->words[3] > 4194303u)
        return val_fail(v, "the id bound %u is more than 4194303", v->words[3]);
    return 1;
}

int vc_version_env(val_ctx *v, const spv_inst *in)
{
    (void)in;
    uint32_t ver = v->words[1];
    if (ver > v->env_max_version)
        return val_fail(v, "the module is SPIR-V %u.%u; %s takes SPIR-V %u.%u at most",
                        (ver >> 16) & 0xff, (ver >> 8) & 0xff, v->env_name,
                        (v->env_max_version >> 16) & 0xff, (v->env_max_version >> 8) & 0xff);
    return 1;
}

int vc_stream(val_ctx *v, const spv_inst *in)
{
    (void)in;
    size_t off = SPV_HEADER_WORDS;
    while (off < v->nwords) {
        uint32_t wc = v->words[off] >> 16;
        if (wc == 0)
            return val_fail(v, "the instruction at word %zu has a word count of 0", off);
        if (wc > v->nwords - off)
            return val_fail(v, "the instruction at word %zu (%s) has %u words; the module ends "
                               "%zu words later",
                            off, val_op_name(v->words[off] & 0xffff), wc, v->nwords - off);
        off += wc;
    }
    return 1;
}

/* ---- phase 2: the grammar ------------------------------------------------------ */

int vc_opcode(val_ctx *v, const spv_inst *in)
{
    if (!spv_grammar_instruction(in->opcode))
        return val_fail(v, "unknown opcode %u (not in the SPIR-V grammar)", in->opcode);
    return 1;
}

int vc_operands(val_ctx *v, const spv_inst *in)
{
    const val_operand *ops;
    const char *why;
    if (val_operands(v, in, &ops, &why) < 0)
        return v->oom ? 1 : val_fail(v, "%s", why);
    return 1;
}

int vc_id_in_bound(val_ctx *v, const spv_inst *in)
{
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        if (!is_id_kind(ops[i].kind))
            continue;
        uint32_t id = in->words[ops[i].word];
        if (id == 0 || id >= v->bound)
            return val_fail(v, "id %u (word %u of the instruction) is outside the bound %u", id,
                            ops[i].word, v->bound);
    }
    return 1;
}

/* ---- phase 3: ids ---------------------------------------------------------------- */

int vc_id_unique(val_ctx *v, const spv_inst *in)
{
    uint32_t id = inst_result_id(in);
    if (id && v->ids[id].off != in->offset)
        return val_fail(v, "%%%u is defined already, at word %u", id, v->ids[id].off);
    return 1;
}

int vc_id_defined(val_ctx *v, const spv_inst *in)
{
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        if (!is_id_kind(ops[i].kind) || ops[i].kind == SPV_OPERAND_IdResult)
            continue;
        uint32_t id = in->words[ops[i].word];
        if (!v->ids[id].off)
            return val_fail(v, "%%%u is used but never defined", id);
    }
    return 1;
}

static int forward_declared_pointer(const val_ctx *v, uint32_t id, uint32_t before)
{
    spv_inst in;
    for (uint32_t off = SPV_HEADER_WORDS; off < before && val_inst_at(v, off, &in);
         off += in.word_count)
        if (in.opcode == SpvOpTypeForwardPointer && in.word_count >= 2 && in.words[1] == id)
            return 1;
    return 0;
}

/* 2.4 Logical Layout: ids are defined before they are used, except in
 * debug and annotation instructions, entry points and execution modes,
 * branch targets and merge blocks (labels), OpPhi, references to
 * functions, and pointers declared by OpTypeForwardPointer. */
int vc_forward_ref(val_ctx *v, const spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpName:
    case SpvOpMemberName:
    case SpvOpDecorate:
    case SpvOpDecorateId:
    case SpvOpDecorateString:
    case SpvOpMemberDecorate:
    case SpvOpMemberDecorateString:
    case SpvOpMemberDecorateIdEXT:
    case SpvOpGroupDecorate:
    case SpvOpGroupMemberDecorate:
    case SpvOpEntryPoint:
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
    case SpvOpPhi:
    case SpvOpTypeForwardPointer:
    case SpvOpExtInstWithForwardRefsKHR:
        return 1;
    default:
        break;
    }
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        if (!is_id_kind(ops[i].kind) || ops[i].kind == SPV_OPERAND_IdResult)
            continue;
        uint32_t id = in->words[ops[i].word];
        const val_id *d = &v->ids[id];
        if (d->off < in->offset)
            continue;
        if (d->opcode == SpvOpLabel || d->opcode == SpvOpFunction)
            continue;
        if ((d->opcode == SpvOpTypePointer || d->opcode == SpvOpTypeUntypedPointerKHR) &&
            forward_declared_pointer(v, id, in->offset))
            continue;
        return val_fail(v, "%%%u is used before its definition at word %u", id, d->off);
    }
    return 1;
}

static int is_debug_or_annotation(uint16_t op)
{
    const spv_instruction_desc *d = spv_grammar_instruction(op);
    return d && (!strcmp(d->op_class, "Debug") || !strcmp(d->op_class, "Annotation"));
}

int vc_function_local(val_ctx *v, const spv_inst *in)
{
    if (is_debug_or_annotation(in->opcode))
        return 1;
    uint32_t here = val_func_at(v, in->offset);
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        if (!is_id_kind(ops[i].kind) || ops[i].kind == SPV_OPERAND_IdResult)
            continue;
        uint32_t id = in->words[ops[i].word];
        const val_id *d = &v->ids[id];
        /* Labels are the control-flow rules' (CORE.Branch-Target). */
        if (d->func == VAL_NONE || d->opcode == SpvOpFunction || d->opcode == SpvOpLabel)
            continue;
        if (d->func != here)
            return val_fail(v, "%%%u belongs to function %%%u and cannot be used outside it", id,
                            v->funcs[d->func].id);
    }
    return 1;
}

int vc_dominance(val_ctx *v, const spv_inst *in)
{
    uint32_t u = val_block_at(v, in->offset);
    if (u == VAL_NONE || v->blocks[u].rpo == VAL_NONE || in->opcode == SpvOpLabel)
        return 1;
    if (in->opcode == SpvOpPhi) {
        for (uint32_t w = 3; w + 1 < in->word_count; w += 2) {
            uint32_t id = in->words[w];
            const val_id *d = &v->ids[id];
            if (d->func != v->blocks[u].func || d->block == VAL_NONE)
                continue;
            uint32_t p = val_block_of_label(v, in->words[w + 1]);
            if (p == VAL_NONE || v->blocks[p].rpo == VAL_NONE)
                continue;
            if (d->block != p && !val_dominates(v, d->block, p))
                return val_fail(v, "%%%u (defined at word %u) does not dominate the end of its "
                                   "parent block %%%u",
                                id, d->off, in->words[w + 1]);
        }
        return 1;
    }
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        if (!is_id_kind(ops[i].kind) || ops[i].kind == SPV_OPERAND_IdResult)
            continue;
        uint32_t id = in->words[ops[i].word];
        const val_id *d = &v->ids[id];
        if (d->func != v->blocks[u].func || d->block == VAL_NONE)
            continue;
        int ok = d->block == u ? d->off < in->offset : val_dominates(v, d->block, u);
        if (!ok)
            return val_fail(v, "%%%u (defined at word %u) does not dominate this use", id, d->off);
    }
    return 1;
}

/* ---- phase 3: layout ------------------------------------------------------------- */

enum {
    SEC_CAPABILITY,
    SEC_EXTENSION,
    SEC_IMPORT,
    SEC_MEMORY_MODEL,
    SEC_ENTRY_POINT,
    SEC_EXECUTION_MODE,
    SEC_DEBUG_SOURCE,
    SEC_DEBUG_NAME,
    SEC_DEBUG_PROCESSED,
    SEC_ANNOTATION,
    SEC_GLOBAL,     /* types, constants, global variables */
    SEC_FUNCTION,
    SEC_ANYWHERE,   /* OpLine, OpNoLine, OpExtInst: global section or functions */
    SEC_BOTH,       /* OpVariable, OpUndef: global section or functions */
    SEC_IN_FUNCTION /* everything else */
};

static const char *const section_names[] = {
    "capabilities", "extensions", "extended instruction set imports", "the memory model",
    "entry points", "execution modes", "debug source instructions", "debug names",
    "OpModuleProcessed", "annotations", "types, constants and global variables", "functions",
};

static int section_of(uint16_t op)
{
    switch (op) {
    case SpvOpCapability:
        return SEC_CAPABILITY;
    case SpvOpExtension:
        return SEC_EXTENSION;
    case SpvOpExtInstImport:
        return SEC_IMPORT;
    case SpvOpMemoryModel:
        return SEC_MEMORY_MODEL;
    case SpvOpEntryPoint:
        return SEC_ENTRY_POINT;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
        return SEC_EXECUTION_MODE;
    case SpvOpString:
    case SpvOpSource:
    case SpvOpSourceExtension:
    case SpvOpSourceContinued:
        return SEC_DEBUG_SOURCE;
    case SpvOpName:
    case SpvOpMemberName:
        return SEC_DEBUG_NAME;
    case SpvOpModuleProcessed:
        return SEC_DEBUG_PROCESSED;
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpExtInst:
    case SpvOpExtInstWithForwardRefsKHR:
    case SpvOpNop:
        return SEC_ANYWHERE;
    case SpvOpVariable:
    case SpvOpUntypedVariableKHR:
    case SpvOpUndef:
        return SEC_BOTH;
    case SpvOpFunction:
    case SpvOpFunctionEnd:
    case SpvOpFunctionParameter:
        return SEC_FUNCTION;
    case SpvOpTypeForwardPointer:
        return SEC_GLOBAL;
    default:
        break;
    }
    const spv_instruction_desc *d = spv_grammar_instruction(op);
    if (!d)
        return SEC_IN_FUNCTION;
    if (!strcmp(d->op_class, "Annotation"))
        return SEC_ANNOTATION;
    if (!strcmp(d->op_class, "Constant-Creation") || !strcmp(d->op_class, "Type-Declaration") ||
        (!strncmp(d->name, "OpType", 6) && d->has_result && !d->has_result_type))
        return SEC_GLOBAL;
    return SEC_IN_FUNCTION;
}

int vc_layout(val_ctx *v, const spv_inst *unused)
{
    (void)unused;
    int cur = SEC_CAPABILITY;
    spv_inst in;
    for (uint32_t off = SPV_HEADER_WORDS; off < v->nwords && val_inst_at(v, off, &in);
         off += in.word_count) {
        int sec = section_of(in.opcode);
        int inside = val_func_at(v, off) != VAL_NONE;
        if (inside) {
            if (sec < SEC_GLOBAL || sec == SEC_GLOBAL)
                return val_fail_at(v, off, "%s belongs to %s, not inside a function",
                                   val_op_name(in.opcode), section_names[sec]);
            continue;
        }
        if (sec == SEC_IN_FUNCTION)
            return val_fail_at(v, off, "%s must be inside a function", val_op_name(in.opcode));
        if (sec == SEC_ANYWHERE) {
            if (cur < SEC_ANNOTATION)
                cur = SEC_ANNOTATION; /* OpLine and non-semantic instructions start the globals */
            continue;
        }
        if (sec == SEC_BOTH)
            sec = SEC_GLOBAL;
        if (sec < cur)
            return val_fail_at(v, off, "%s belongs to %s, which come before %s",
                               val_op_name(in.opcode), section_names[sec], section_names[cur]);
        cur = sec;
    }
    return 1;
}

int vc_memory_model(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (v->nmemory_models != 1)
        return val_fail(v, "the module has %u OpMemoryModel instructions", v->nmemory_models);
    return 1;
}

int vc_entry_point_required(val_ctx *v, const spv_inst *in)
{
    (void)in;
    if (!v->nentries && !val_has_cap(v, SpvCapabilityLinkage))
        return val_fail(v, "the module has no OpEntryPoint and does not declare Linkage");
    return 1;
}

/* 2.4: a function is OpFunction, its OpFunctionParameters, its blocks (each
 * OpLabel ... one terminator) or none (a declaration), and OpFunctionEnd. */
int vc_function_layout(val_ctx *v, const spv_inst *unused)
{
    (void)unused;
    enum { OUT, PARAMS, BLOCK, AFTER } st = OUT;
    uint32_t func_off = 0, block_off = 0;
    spv_inst in;
    for (uint32_t off = SPV_HEADER_WORDS; off < v->nwords && val_inst_at(v, off, &in);
         off += in.word_count) {
        uint16_t op = in.opcode;
        if (op == SpvOpLine || op == SpvOpNoLine)
            continue;
        switch (st) {
        case OUT:
            if (op == SpvOpFunction) {
                st = PARAMS;
                func_off = off;
            } else if (op == SpvOpFunctionParameter || op == SpvOpFunctionEnd || op == SpvOpLabel ||
                       val_is_terminator(op)) {
                return val_fail_at(v, off, "%s outside a function", val_op_name(op));
            }
            break;
        case PARAMS:
            if (op == SpvOpFunctionParameter)
                break;
            if (op == SpvOpFunctionEnd) {
                st = OUT;
                break;
            }
            if (op == SpvOpLabel) {
                st = BLOCK;
                block_off = off;
                break;
            }
            return val_fail_at(v, off, "%s where the function at word %u needs "
                                       "OpFunctionParameter, OpLabel or OpFunctionEnd",
                               val_op_name(op), func_off);
        case BLOCK:
            if (val_is_terminator(op)) {
                st = AFTER;
                break;
            }
            if (op == SpvOpLabel || op == SpvOpFunctionEnd)
                return val_fail_at(v, block_off, "the block has no terminator before the %s at "
                                                 "word %u",
                                   val_op_name(op), off);
            if (op == SpvOpFunction || op == SpvOpFunctionParameter)
                return val_fail_at(v, off, "%s inside a block", val_op_name(op));
            break;
        case AFTER:
            if (op == SpvOpLabel) {
                st = BLOCK;
                block_off = off;
            } else if (op == SpvOpFunctionEnd) {
                st = OUT;
            } else {
                return val_fail_at(v, off, "%s after the terminator of its block, before the "
                                           "next OpLabel",
                                   val_op_name(op));
            }
            break;
        }
    }
    if (st != OUT)
        return val_fail_at(v, func_off, "the function has no OpFunctionEnd");
    return 1;
}

/* Instructions before `in` in its block (after OpLabel) are all of `ok`. */
static int only_before(const val_ctx *v, const spv_inst *in, const uint16_t *ok, size_t nok,
                       uint32_t *o_bad)
{
    uint32_t b = val_block_at(v, in->offset);
    if (b == VAL_NONE)
        return 1;
    spv_inst x;
    for (uint32_t off = v->blocks[b].begin; off < in->offset && val_inst_at(v, off, &x);
         off += x.word_count) {
        if (off == v->blocks[b].begin)
            continue;
        size_t i = 0;
        while (i < nok && ok[i] != x.opcode)
            i++;
        if (i == nok) {
            *o_bad = off;
            return 0;
        }
    }
    return 1;
}

int vc_variable_placement(val_ctx *v, const spv_inst *in)
{
    if (in->word_count < 4 || in->words[3] != SpvStorageClassFunction) {
        if (in->word_count >= 4 && val_func_at(v, in->offset) != VAL_NONE)
            return val_fail(v, "a variable inside a function must have the Function storage "
                               "class");
        return 1;
    }
    uint32_t f = val_func_at(v, in->offset);
    uint32_t b = val_block_at(v, in->offset);
    if (f == VAL_NONE)
        return val_fail(v, "a Function variable outside a function");
    if (b == VAL_NONE || b != v->funcs[f].first_block)
        return val_fail(v, "a Function variable must be in the first block of its function");
    static const uint16_t ok[] = {SpvOpVariable, SpvOpLine, SpvOpNoLine, SpvOpExtInst};
    uint32_t bad;
    if (!only_before(v, in, ok, CVM_ARRAY_SIZE(ok), &bad))
        return val_fail(v, "a Function variable must come before the other instructions of the "
                           "block (the %s at word %u)",
                        val_op_name(v->words[bad] & 0xffff), bad);
    return 1;
}

int vc_phi_placement(val_ctx *v, const spv_inst *in)
{
    static const uint16_t ok[] = {SpvOpPhi, SpvOpLine, SpvOpNoLine};
    uint32_t bad;
    if (!only_before(v, in, ok, CVM_ARRAY_SIZE(ok), &bad))
        return val_fail(v, "OpPhi must come before the other instructions of its block (the %s "
                           "at word %u)",
                        val_op_name(v->words[bad] & 0xffff), bad);
    return 1;
}

/* ---- phase 3: control flow ------------------------------------------------------- */

static int check_label(val_ctx *v, const spv_inst *in, uint32_t label, const char *what)
{
    uint32_t b = val_block_of_label(v, label);
    if (b == VAL_NONE || v->blocks[b].func != val_func_at(v, in->offset))
        return val_fail(v, "the %s %%%u is not a block of this function", what, label);
    return 1;
}

int vc_branch_targets(val_ctx *v, const spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpBranch:
        return check_label(v, in, in->words[1], "target");
    case SpvOpBranchConditional:
        return check_label(v, in, in->words[2], "true label") &&
               check_label(v, in, in->words[3], "false label");
    case SpvOpSwitch: {
        const val_operand *ops;
        int n = operands(v, in, &ops);
        for (int i = 1; i < n; i++)
            if (ops[i].kind == SPV_OPERAND_IdRef &&
                !check_label(v, in, in->words[ops[i].word], i == 1 ? "default" : "target"))
                return 0;
        return 1;
    }
    case SpvOpSelectionMerge:
        return check_label(v, in, in->words[1], "merge block");
    case SpvOpLoopMerge:
        return check_label(v, in, in->words[1], "merge block") &&
               check_label(v, in, in->words[2], "continue target");
    case SpvOpPhi:
        for (uint32_t w = 4; w < in->word_count; w += 2)
            if (!check_label(v, in, in->words[w], "parent"))
                return 0;
        return 1;
    default:
        return 1;
    }
}

int vc_merge_placement(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpSelectionMerge && in->opcode != SpvOpLoopMerge)
        return 1;
    spv_inst next;
    int have = val_inst_at(v, in->offset + in->word_count, &next);
    int ok = have && (in->opcode == SpvOpSelectionMerge
                          ? next.opcode == SpvOpBranchConditional || next.opcode == SpvOpSwitch
                          : next.opcode == SpvOpBranch || next.opcode == SpvOpBranchConditional);
    if (!ok)
        return val_fail(v, "%s must come right before %s, as the second-to-last instruction of "
                           "its block",
                        val_op_name(in->opcode),
                        in->opcode == SpvOpSelectionMerge ? "OpBranchConditional or OpSwitch"
                                                          : "OpBranch or OpBranchConditional");
    return 1;
}

int vc_merge_unique(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpSelectionMerge && in->opcode != SpvOpLoopMerge)
        return 1;
    uint32_t b = val_block_of_label(v, in->words[1]);
    if (b == VAL_NONE)
        return 1;
    /* The first merge instruction naming each block, found once per run. */
    if (!v->first_merge) {
        v->first_merge = cvm_calloc(v->nblocks + 1, sizeof(uint32_t));
        if (!v->first_merge) {
            v->oom = 1;
            return 1;
        }
        for (uint32_t h = 0; h < v->nblocks; h++) {
            const val_block *hb = &v->blocks[h];
            uint32_t m = hb->merge_off ? val_block_of_label(v, hb->merge) : VAL_NONE;
            if (m != VAL_NONE && !v->first_merge[m])
                v->first_merge[m] = hb->merge_off;
        }
    }
    uint32_t first = v->first_merge[b];
    if (first && first != in->offset) {
        uint32_t h = val_block_at(v, first);
        return val_fail(v, "%%%u is the merge block of the header %%%u already", in->words[1],
                        h != VAL_NONE ? v->blocks[h].label : 0);
    }
    return 1;
}

int vc_merge_dominance(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpSelectionMerge && in->opcode != SpvOpLoopMerge)
        return 1;
    uint32_t h = val_block_at(v, in->offset);
    if (h == VAL_NONE || v->blocks[h].rpo == VAL_NONE)
        return 1;
    uint32_t m = val_block_of_label(v, in->words[1]);
    if (m != VAL_NONE && v->blocks[m].rpo != VAL_NONE && m != h && !val_dominates(v, h, m))
        return val_fail(v, "the header %%%u does not dominate its merge block %%%u",
                        v->blocks[h].label, in->words[1]);
    if (in->opcode == SpvOpLoopMerge) {
        uint32_t c = val_block_of_label(v, in->words[2]);
        if (c != VAL_NONE && v->blocks[c].rpo != VAL_NONE && !val_dominates(v, h, c))
            return val_fail(v, "the loop header %%%u does not dominate its continue target %%%u",
                            v->blocks[h].label, in->words[2]);
    }
    return 1;
}

/* 2.11: a back edge (to a block that dominates the branch) targets a loop
 * header. */
int vc_back_edge(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpBranch && in->opcode != SpvOpBranchConditional &&
        in->opcode != SpvOpSwitch)
        return 1;
    uint32_t b = val_block_at(v, in->offset);
    if (b == VAL_NONE || v->blocks[b].rpo == VAL_NONE)
        return 1;
    const val_block *blk = &v->blocks[b];
    for (uint32_t s = 0; s < blk->nsucc; s++) {
        uint32_t t = val_block_of_label(v, v->succs[blk->first_succ + s]);
        if (t == VAL_NONE || v->blocks[t].func != blk->func)
            continue;
        if (!val_dominates(v, t, b))
            continue;
        spv_inst m;
        if (!v->blocks[t].merge_off || !val_inst_at(v, v->blocks[t].merge_off, &m) ||
            m.opcode != SpvOpLoopMerge)
            return val_fail(v, "the back edge to %%%u does not go to a loop header",
                            v->blocks[t].label);
    }
    return 1;
}

/* 2.11 as spirv-val checks it: walking the blocks in reverse post-order, a
 * conditional branch without a selection merge must have one target that
 * was seen before (a merge block, a continue target or an earlier target);
 * OpSwitch always needs OpSelectionMerge. */
int vc_structured_selection(val_ctx *v, const spv_inst *unused)
{
    (void)unused;
    if (!val_has_cap(v, SpvCapabilityShader))
        return 1;
    uint8_t *seen = cvm_calloc(v->bound, 1);
    uint32_t *order = cvm_malloc((size_t)v->nblocks * sizeof(uint32_t) + 4);
    int ok = 1;
    if (!seen || !order) {
        v->oom = 1;
        goto done;
    }
    for (uint32_t f = 0; f < v->nfuncs && ok; f++) {
        const val_function *fn = &v->funcs[f];
        uint32_t n = 0;
        for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++)
            if (v->blocks[b].rpo != VAL_NONE)
                n++;
        for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++)
            if (v->blocks[b].rpo != VAL_NONE && v->blocks[b].rpo < n)
                order[v->blocks[b].rpo] = b;
        for (uint32_t i = 0; i < n && ok; i++) {
            const val_block *blk = &v->blocks[order[i]];
            spv_inst term, merge;
            if (!blk->term || !val_inst_at(v, blk->term, &term))
                continue;
            /* A merge instruction anywhere in the block counts here; where it
             * stands is CORE.Merge-Placement's business. */
            int have_merge = blk->merge_off != 0;
            int selection = 0;
            if (have_merge && val_inst_at(v, blk->merge_off, &merge)) {
                seen[merge.words[1]] = 1;
                if (merge.opcode == SpvOpLoopMerge)
                    seen[merge.words[2]] = 1;
                else
                    selection = 1;
            }
            if (term.opcode == SpvOpBranchConditional) {
                int t_unseen = !seen[term.words[2]], f_unseen = !seen[term.words[3]];
                seen[term.words[2]] = seen[term.words[3]] = 1;
                if (!selection && t_unseen && f_unseen) {
                    ok = val_fail_at(v, blk->term, "a conditional branch to two new blocks needs "
                                                   "an OpSelectionMerge");
                }
            } else if (term.opcode == SpvOpSwitch) {
                if (!selection) {
                    ok = val_fail_at(v, blk->term, "OpSwitch needs an OpSelectionMerge right "
                                                   "before it");
                    break;
                }
                for (uint32_t s = 0; s < blk->nsucc; s++)
                    seen[v->succs[blk->first_succ + s]] = 1;
            }
        }
    }
done:
    cvm_mem_free(seen);
    cvm_mem_free(order);
    return ok;
}

/* ---- phase 4: operands and types ---------------------------------------------------- */

int vc_result_type(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = inst_result_type(in);
    if (!rt)
        return 1;
    if (!val_is_type(v, rt))
        return val_fail(v, "the Result Type %%%u is not a type (it is defined by %s)", rt,
                        val_op_name(val_opcode(v, rt)));
    if (val_opcode(v, rt) == SpvOpTypeVoid && in->opcode != SpvOpFunction &&
        in->opcode != SpvOpFunctionCall && in->opcode != SpvOpExtInst &&
        in->opcode != SpvOpExtInstWithForwardRefsKHR)
        return val_fail(v, "the Result Type cannot be OpTypeVoid for %s", val_op_name(in->opcode));
    return 1;
}

/* What an operand position expects, by the grammar's operand name. */
enum { WANT_VALUE, WANT_TYPE, WANT_LABEL, WANT_SET, WANT_ANY };

static int operand_want(const spv_inst *in, const val_operand *op)
{
    const char *n = op->name;
    if (in->opcode == SpvOpPhi)
        return ((op->word - 3) % 2) ? WANT_LABEL : WANT_VALUE;
    if (in->opcode == SpvOpSwitch && op->word >= 2)
        return WANT_LABEL;
    if (!n)
        return WANT_ANY;
    if (!strcmp(n, "Type") || !strcmp(n, "Base Type") || !strcmp(n, "Data Type") ||
        !strcmp(n, "Pointer Type") || !strcmp(n, "Element Type"))
        return WANT_TYPE;
    if (!strcmp(n, "Target Label") || !strcmp(n, "True Label") || !strcmp(n, "False Label") ||
        !strcmp(n, "Merge Block") || !strcmp(n, "Continue Target") || !strcmp(n, "Default"))
        return WANT_LABEL; /* not "Target": OpCopyMemory's is a pointer (OpSwitch's are above) */
    if (!strcmp(n, "Set"))
        return WANT_SET;
    if (!strcmp(n, "Function") || !strcmp(n, "Func") || !strcmp(n, "CombineFunc") ||
        !strcmp(n, "Invoke"))
        return WANT_ANY;
    return WANT_VALUE;
}

static int is_value_def(const val_ctx *v, uint32_t id)
{
    const val_id *d = &v->ids[id];
    return d->type != 0 && d->opcode != SpvOpFunction;
}

/* Operands of instructions that compute (in functions, and the operands
 * of constants and global variables) refer to the kind of definition their
 * position names: values, types, labels, an extended instruction set. */
int vc_operand_kinds(val_ctx *v, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    const char *cls = d->op_class;
    if (!strcmp(cls, "Debug") || !strcmp(cls, "Annotation") || !strcmp(cls, "Mode-Setting") ||
        !strcmp(cls, "Type-Declaration") || !strcmp(cls, "Extension") ||
        in->opcode == SpvOpFunction || !strncmp(d->name, "OpType", 6))
        if (in->opcode != SpvOpExtInst)
            return 1;
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        uint16_t kind = ops[i].kind;
        if (kind != SPV_OPERAND_IdRef && kind != SPV_OPERAND_IdScope &&
            kind != SPV_OPERAND_IdMemorySemantics)
            continue;
        uint32_t id = in->words[ops[i].word];
        int want = kind == SPV_OPERAND_IdRef ? operand_want(in, &ops[i]) : WANT_VALUE;
        uint16_t dop = v->ids[id].opcode;
        switch (want) {
        case WANT_VALUE:
            if (dop == SpvOpFunction)
                break; /* function operands are checked by the rules of their instruction */
            if (!is_value_def(v, id))
                return val_fail(v, "operand '%s' is %%%u, a %s, where a value is needed",
                                ops[i].name ? ops[i].name : "?", id, val_op_name(dop));
            break;
        case WANT_TYPE:
            if (!val_is_type(v, id))
                return val_fail(v, "operand '%s' is %%%u (%s), not a type", ops[i].name, id,
                                val_op_name(dop));
            break;
        case WANT_LABEL:
            if (dop != SpvOpLabel)
                return val_fail(v, "operand '%s' is %%%u (%s), not a label",
                                ops[i].name ? ops[i].name : "label", id, val_op_name(dop));
            break;
        case WANT_SET:
            if (dop != SpvOpExtInstImport)
                return val_fail(v, "the Set operand %%%u is not an OpExtInstImport", id);
            break;
        default:
            break;
        }
    }
    return 1;
}

/* ---- phase 4: type declarations ------------------------------------------------------ */

int vc_type_int(val_ctx *v, const spv_inst *in)
{
    uint32_t w = in->words[2], s = in->words[3];
    int arbitrary = val_has_cap(v, SpvCapabilityArbitraryPrecisionIntegersALTERA);
    if (w != 8 && w != 16 && w != 32 && w != 64 && !arbitrary &&
        !(w == 4 && val_has_cap(v, SpvCapabilityInt4TypeINTEL)))
        return val_fail(v, "Width %u is not 8, 16, 32 or 64", w);
    if (s > 1)
        return val_fail(v, "Signedness %u is not 0 or 1", s);
    return 1;
}

int vc_type_float(val_ctx *v, const spv_inst *in)
{
    uint32_t w = in->words[2];
    if (in->word_count < 4) {
        if (w != 16 && w != 32 && w != 64)
            return val_fail(v, "Width %u is not 16, 32 or 64", w);
        return 1;
    }
    uint32_t want = 0;
    switch (in->words[3]) {
    case SpvFPEncodingBFloat16KHR:
        want = 16;
        break;
    case SpvFPEncodingFloat8E4M3EXT:
    case SpvFPEncodingFloat8E5M2EXT:
    case SpvFPEncodingFloat8UnsignedE8M0EXT:
    case SpvFPEncodingMXInt8EXT:
        want = 8;
        break;
    case SpvFPEncodingFloat6E2M3EXT:
    case SpvFPEncodingFloat6E3M2EXT:
        want = 6;
        break;
    case SpvFPEncodingFloat4E2M1EXT:
        want = 4;
        break;
    default:
        return 1;
    }
    if (w != want)
        return val_fail(v, "an encoding of %u bits with Width %u", want, w);
    return 1;
}

int vc_type_vector(val_ctx *v, const spv_inst *in)
{
    uint32_t comp = in->words[2];
    if (!val_is_numeric_scalar(v, comp) && !val_is_bool(v, comp))
        return val_fail(v, "the Component Type %%%u is not a scalar numerical or boolean type",
                        comp);
    /* SPV_EXT_long_vector: "Modify OpTypeVector to allow a Component Count of 1" */
    if (in->opcode == SpvOpTypeVector && in->words[3] < 2 &&
        !(in->words[3] == 1 && val_has_cap(v, SpvCapabilityLongVectorEXT)))
        return val_fail(v, "Component Count %u is less than 2", in->words[3]);
    return 1;
}

int vc_type_matrix(val_ctx *v, const spv_inst *in)
{
    uint32_t comp, count, w;
    if (!val_vector_type(v, in->words[2], &comp, &count) || !val_float_type(v, comp, &w, NULL))
        return val_fail(v, "the Column Type %%%u is not a vector of a floating-point type",
                        in->words[2]);
    if (in->words[3] < 2)
        return val_fail(v, "Column Count %u is less than 2", in->words[3]);
    return 1;
}

static int storable_type(const val_ctx *v, uint32_t t)
{
    uint16_t op = val_opcode(v, t);
    return val_is_type(v, t) && op != SpvOpTypeVoid && op != SpvOpTypeFunction;
}

int vc_type_array(val_ctx *v, const spv_inst *in)
{
    uint32_t elem = in->words[2];
    if (!storable_type(v, elem))
        return val_fail(v, "the Element Type %%%u is not a type that can be an element", elem);
    if (in->opcode == SpvOpTypeRuntimeArray)
        return 1;
    uint32_t len = in->words[3];
    if (!val_is_constant_inst(v, len) || !val_is_int_scalar(v, val_type_of(v, len), 0))
        return val_fail(v, "Length %%%u is not a constant instruction of an integer type", len);
    uint64_t x;
    uint32_t sign = 0;
    val_int_type(v, val_type_of(v, len), NULL, &sign);
    if (val_const_value(v, len, &x) && (x == 0 || (sign && (int64_t)x < 0)))
        return val_fail(v, "Length is %lld; it must be at least 1", (long long)x);
    return 1;
}

int vc_type_struct(val_ctx *v, const spv_inst *in)
{
    for (uint32_t i = 2; i < in->word_count; i++) {
        uint32_t m = in->words[i];
        if (!storable_type(v, m) && !forward_declared_pointer(v, m, in->offset))
            return val_fail(v, "member %u, %%%u, is not a type that can be a member", i - 2, m);
    }
    return 1;
}

int vc_type_pointer(val_ctx *v, const spv_inst *in)
{
    uint32_t t = in->words[3];
    if (!val_is_type(v, t) && !forward_declared_pointer(v, t, in->offset))
        return val_fail(v, "the pointee %%%u is not a type", t);
    return 1;
}

int vc_type_function(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[2];
    if (!val_is_type(v, rt) || val_opcode(v, rt) == SpvOpTypeFunction)
        return val_fail(v, "the Return Type %%%u is not a type a function can return", rt);
    for (uint32_t i = 3; i < in->word_count; i++)
        if (!storable_type(v, in->words[i]))
            return val_fail(v, "parameter %u, %%%u, is not a type a parameter can have", i - 3,
                            in->words[i]);
    return 1;
}

/* ---- phase 4: constants --------------------------------------------------------------- */

int vc_constant_scalar(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], w = 0;
    if (!val_int_type(v, rt, &w, NULL) && !val_float_type(v, rt, &w, NULL))
        return val_fail(v, "the Result Type %%%u is not an integer or floating-point scalar", rt);
    uint32_t want = w <= 32 ? 1 : (w + 31) / 32;
    if (in->word_count - 3u != want)
        return val_fail(v, "a %u-bit value takes %u literal word%s, not %u", w, want,
                        want == 1 ? "" : "s", in->word_count - 3u);
    return 1;
}

int vc_constant_bool(val_ctx *v, const spv_inst *in)
{
    if (!val_is_bool(v, in->words[1]))
        return val_fail(v, "the Result Type %%%u is not OpTypeBool", in->words[1]);
    return 1;
}

/* The type of constituent i of a composite type, or 0; *o_count gets the
 * number of constituents when known (UINT64_MAX when not). */
static uint32_t member_type(const val_ctx *v, uint32_t type, uint64_t i, uint64_t *o_count)
{
    spv_inst in;
    uint32_t comp, count, elem, len;
    *o_count = UINT64_MAX;
    switch (val_opcode(v, type)) {
    case SpvOpTypeVector:
    case SpvOpTypeVectorIdEXT:
        if (val_vector_type(v, type, &comp, &count) && !(count & VAL_SPEC_COUNT(0)))
            *o_count = count; /* (a specialization constant's count is not known) */
        return val_component_type(v, type);
    case SpvOpTypeMatrix:
        if (!val_def(v, type, &in))
            return 0;
        *o_count = in.words[3];
        return in.words[2];
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: {
        uint64_t n;
        val_array_type(v, type, &elem, &len);
        if (len && val_const_value(v, len, &n))
            *o_count = n;
        return elem;
    }
    case SpvOpTypeStruct:
        if (!val_def(v, type, &in))
            return 0;
        *o_count = in.word_count - 2u;
        return i < *o_count ? in.words[2 + i] : 0;
    case SpvOpTypeCooperativeMatrixKHR:
        return val_component_type(v, type);
    case SpvOpTypeCooperativeMatrixNV:
        return val_def(v, type, &in) ? in.words[2] : 0;
    default:
        return 0;
    }
}

static int is_composite_type(const val_ctx *v, uint32_t t)
{
    switch (val_opcode(v, t)) {
    case SpvOpTypeVector:
    case SpvOpTypeVectorIdEXT:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
    case SpvOpTypeStruct:
    case SpvOpTypeCooperativeMatrixKHR:
    case SpvOpTypeCooperativeMatrixNV: /* OpTypeVectorIdEXT is also OpTypeCooperativeVectorNV */
        return 1;
    default:
        return 0;
    }
}

/* Constituents of OpConstantComposite / OpSpecConstantComposite /
 * OpCompositeConstruct against the Result Type (cooperative matrices have
 * their own rule, KHR-CM). */
static int check_constituents(val_ctx *v, const spv_inst *in, int constant)
{
    uint32_t rt = in->words[1];
    if (!is_composite_type(v, rt))
        return val_fail(v, "the Result Type %%%u is not a composite type", rt);
    uint16_t top = val_opcode(v, rt);
    if (top == SpvOpTypeCooperativeMatrixKHR || top == SpvOpTypeCooperativeMatrixNV)
        return 1;
    uint32_t n = in->word_count - 3u;
    if (constant) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = in->words[3 + i];
            if (!val_is_constant_inst(v, c) && val_opcode(v, c) != SpvOpUndef)
                return val_fail(v, "constituent %u, %%%u, is not a constant", i, c);
        }
    }
    uint64_t count;
    member_type(v, rt, 0, &count);
    if (top == SpvOpTypeVector || top == SpvOpTypeVectorIdEXT ||
        top == SpvOpTypeCooperativeVectorNV) {
        /* Scalars of the component type, or vectors of it (not for constants). */
        uint32_t comp = val_component_type(v, rt);
        uint64_t total = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t ct = val_type_of(v, in->words[3 + i]);
            uint32_t cc, cn;
            if (ct == comp) {
                total++;
            } else if (!constant && top != SpvOpTypeCooperativeVectorNV &&
                       val_vector_type(v, ct, &cc, &cn) && cc == comp) {
                total += cn;
            } else {
                return val_fail(v, "constituent %u, %%%u, is not of the component type %%%u", i,
                                in->words[3 + i], comp);
            }
        }
        if (count != UINT64_MAX && total != count)
            return val_fail(v, "the constituents make %llu components; the type has %llu",
                            (unsigned long long)total, (unsigned long long)count);
        return 1;
    }
    if (count != UINT64_MAX && n != count)
        return val_fail(v, "%u constituents for a type of %llu", n, (unsigned long long)count);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t dummy;
        uint32_t want = member_type(v, rt, i, &dummy);
        uint32_t got = val_type_of(v, in->words[3 + i]);
        if (want && got != want)
            return val_fail(v, "constituent %u, %%%u, has type %%%u; the type needs %%%u", i,
                            in->words[3 + i], got, want);
    }
    return 1;
}

int vc_constant_composite(val_ctx *v, const spv_inst *in)
{
    return check_constituents(v, in, 1);
}

/* The operations OpSpecConstantOp may name (SPIR-V 3.42.7 OpSpecConstantOp,
 * with SPV_KHR_cooperative_matrix's OpCooperativeMatrixLengthKHR): the
 * Shader list, and the ones that need the Kernel capability. */
int vc_spec_constant_op(val_ctx *v, const spv_inst *in)
{
    static const uint16_t any[] = {
        SpvOpSConvert, SpvOpFConvert, SpvOpUConvert, SpvOpSNegate, SpvOpNot, SpvOpIAdd,
        SpvOpISub, SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod,
        SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, SpvOpShiftLeftLogical,
        SpvOpBitwiseOr, SpvOpBitwiseAnd, SpvOpBitwiseXor, SpvOpVectorShuffle,
        SpvOpCompositeExtract, SpvOpCompositeInsert, SpvOpLogicalOr, SpvOpLogicalAnd,
        SpvOpLogicalNot, SpvOpLogicalEqual, SpvOpLogicalNotEqual, SpvOpSelect, SpvOpIEqual,
        SpvOpINotEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpUGreaterThan, SpvOpSGreaterThan,
        SpvOpULessThanEqual, SpvOpSLessThanEqual, SpvOpUGreaterThanEqual,
        SpvOpSGreaterThanEqual, SpvOpQuantizeToF16, SpvOpCooperativeMatrixLengthKHR,
        SpvOpCooperativeMatrixLengthNV};
    static const uint16_t kernel[] = {
        SpvOpConvertFToS, SpvOpConvertSToF, SpvOpConvertFToU, SpvOpConvertUToF,
        SpvOpConvertPtrToU, SpvOpConvertUToPtr, SpvOpGenericCastToPtr, SpvOpPtrCastToGeneric,
        SpvOpBitcast, SpvOpFNegate, SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv, SpvOpFRem,
        SpvOpFMod, SpvOpAccessChain, SpvOpInBoundsAccessChain, SpvOpPtrAccessChain,
        SpvOpInBoundsPtrAccessChain, SpvOpUntypedAccessChainKHR,
        SpvOpUntypedInBoundsAccessChainKHR, SpvOpUntypedPtrAccessChainKHR,
        SpvOpUntypedInBoundsPtrAccessChainKHR};
    uint32_t op = in->words[3];
    for (size_t i = 0; i < CVM_ARRAY_SIZE(any); i++)
        if (any[i] == op)
            return 1;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(kernel); i++)
        if (kernel[i] == op) {
            if (val_has_cap(v, SpvCapabilityKernel))
                return 1;
            return val_fail(v, "%s in OpSpecConstantOp needs the Kernel capability",
                            val_op_name(op));
        }
    return val_fail(v, "%s is not an operation OpSpecConstantOp may name", val_op_name(op));
}

int vc_constant_null(val_ctx *v, const spv_inst *in)
{
    uint16_t op = val_opcode(v, in->words[1]);
    if (op == SpvOpTypeVoid || op == SpvOpTypeFunction)
        return val_fail(v, "there is no null value of %s", val_op_name(op));
    return 1;
}

/* ---- phase 4: memory --------------------------------------------------------------- */

int vc_variable(val_ctx *v, const spv_inst *in)
{
    uint32_t sc, pointee;
    if (!val_pointer_type(v, in->words[1], &sc, &pointee))
        return val_fail(v, "the Result Type %%%u is not a pointer type", in->words[1]);
    if (sc != in->words[3]) {
        char a[16], b[16];
        return val_fail(v, "Storage Class %s differs from the pointer type's %s",
                        val_enum_name(SPV_OPERAND_StorageClass, in->words[3], a, sizeof(a)),
                        val_enum_name(SPV_OPERAND_StorageClass, sc, b, sizeof(b)));
    }
    if (in->word_count > 4 && pointee && val_type_of(v, in->words[4]) != pointee)
        return val_fail(v, "the Initializer %%%u has type %%%u, not the pointee type %%%u",
                        in->words[4], val_type_of(v, in->words[4]), pointee);
    if (val_func_at(v, in->offset) == VAL_NONE && sc == SpvStorageClassFunction)
        return val_fail(v, "a module-scope variable cannot have the Function storage class");
    return 1;
}

int vc_load(val_ctx *v, const spv_inst *in)
{
    uint32_t pointee;
    if (!val_pointer_type(v, val_type_of(v, in->words[3]), NULL, &pointee))
        return val_fail(v, "Pointer %%%u is not a pointer", in->words[3]);
    if (pointee && pointee != in->words[1])
        return val_fail(v, "the Result Type %%%u is not the pointee type %%%u", in->words[1],
                        pointee);
    return 1;
}

int vc_store(val_ctx *v, const spv_inst *in)
{
    uint32_t pointee;
    if (!val_pointer_type(v, val_type_of(v, in->words[1]), NULL, &pointee))
        return val_fail(v, "Pointer %%%u is not a pointer", in->words[1]);
    if (pointee && pointee != val_type_of(v, in->words[2]))
        return val_fail(v, "Object %%%u has type %%%u, not the pointee type %%%u", in->words[2],
                        val_type_of(v, in->words[2]), pointee);
    return 1;
}

/* One step into a composite type by an index (`literal`: the index value is
 * known, `known`). */
static uint32_t step_into(val_ctx *v, uint32_t type, uint64_t index, int known, int *o_err)
{
    uint64_t count;
    *o_err = 0;
    uint16_t op = val_opcode(v, type);
    if (op == SpvOpTypeStruct) {
        uint32_t m = member_type(v, type, index, &count);
        if (!known || index >= count) {
            *o_err = 1;
            return 0;
        }
        return m;
    }
    if (!is_composite_type(v, type) && op != SpvOpTypeRuntimeArray) {
        *o_err = 2;
        return 0;
    }
    uint32_t m = member_type(v, type, index, &count);
    if (known && count != UINT64_MAX && op != SpvOpTypeCooperativeMatrixKHR &&
        op != SpvOpTypeCooperativeMatrixNV && op != SpvOpTypeArray && index >= count) {
        *o_err = 3;
        return 0;
    }
    return m;
}

int vc_access_chain(val_ctx *v, const spv_inst *in)
{
    uint32_t base_sc, base_pointee, res_sc, res_pointee;
    if (!val_pointer_type(v, val_type_of(v, in->words[3]), &base_sc, &base_pointee))
        return val_fail(v, "Base %%%u is not a pointer", in->words[3]);
    if (!val_pointer_type(v, in->words[1], &res_sc, &res_pointee))
        return val_fail(v, "the Result Type %%%u is not a pointer type", in->words[1]);
    if (res_sc != base_sc)
        return val_fail(v, "the Result Type's storage class differs from Base's");
    if (!base_pointee || !res_pointee)
        return 1;
    uint32_t first = 4;
    if (in->opcode == SpvOpPtrAccessChain || in->opcode == SpvOpInBoundsPtrAccessChain) {
        if (in->word_count < 5 || !val_is_int_scalar(v, val_type_of(v, in->words[4]), 0))
            return val_fail(v, "Element is not an integer scalar");
        first = 5;
    }
    uint32_t cur = base_pointee;
    for (uint32_t i = first; i < in->word_count; i++) {
        uint32_t idx = in->words[i];
        if (!val_is_int_scalar(v, val_type_of(v, idx), 0))
            return val_fail(v, "index %u, %%%u, is not an integer scalar", i - first, idx);
        uint64_t value;
        int known = val_const_value(v, idx, &value);
        int err;
        uint32_t next = step_into(v, cur, value, known, &err);
        if (err == 1)
            return val_fail(v, "index %u into the structure %%%u must be a constant member "
                               "number in range",
                            i - first, cur);
        if (err == 2)
            return val_fail(v, "index %u goes into %%%u, which is not a composite", i - first,
                            cur);
        if (err == 3)
            return val_fail(v, "index %u is %llu, past the end of %%%u", i - first,
                            (unsigned long long)value, cur);
        cur = next;
    }
    if (cur != res_pointee)
        return val_fail(v, "the indexes reach type %%%u; the Result Type points to %%%u", cur,
                        res_pointee);
    return 1;
}

int vc_copy_object(val_ctx *v, const spv_inst *in)
{
    if (val_type_of(v, in->words[3]) != in->words[1])
        return val_fail(v, "Operand %%%u has type %%%u, not the Result Type %%%u", in->words[3],
                        val_type_of(v, in->words[3]), in->words[1]);
    return 1;
}

/* The atomic instructions: Pointer is a pointer to a scalar (or vector),
 * and the Result Type, Value and Comparator have its pointee type. */
int vc_atomic(val_ctx *v, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (strcmp(d->op_class, "Atomic") != 0)
        return 1;
    const val_operand *ops;
    int n = operands(v, in, &ops);
    uint32_t ptr = 0;
    for (int i = 0; i < n; i++)
        if (ops[i].name && !strcmp(ops[i].name, "Pointer"))
            ptr = in->words[ops[i].word];
    uint32_t pointee;
    if (!ptr)
        return 1;
    if (!val_pointer_type(v, val_type_of(v, ptr), NULL, &pointee))
        return val_fail(v, "Pointer %%%u is not a pointer", ptr);
    if (!pointee)
        return 1;
    uint32_t comp, cnt;
    if (!val_is_numeric_scalar(v, pointee) && !val_vector_type(v, pointee, &comp, &cnt))
        return val_fail(v, "Pointer %%%u points to %%%u, not to a scalar", ptr, pointee);
    if (d->has_result_type && in->opcode != SpvOpAtomicFlagTestAndSet && in->words[1] != pointee)
        return val_fail(v, "the Result Type %%%u is not the pointee type %%%u", in->words[1],
                        pointee);
    for (int i = 0; i < n; i++)
        if (ops[i].name && (!strcmp(ops[i].name, "Value") || !strcmp(ops[i].name, "Comparator")) &&
            val_type_of(v, in->words[ops[i].word]) != pointee)
            return val_fail(v, "%s %%%u has type %%%u, not the pointee type %%%u", ops[i].name,
                            in->words[ops[i].word], val_type_of(v, in->words[ops[i].word]),
                            pointee);
    return 1;
}

/* ---- phase 4: composites --------------------------------------------------------------- */

static int walk_literal_indexes(val_ctx *v, uint32_t type, const spv_inst *in, uint32_t first,
                                uint32_t *o_type)
{
    uint32_t cur = type;
    for (uint32_t i = first; i < in->word_count; i++) {
        int err;
        if (val_opcode(v, cur) == SpvOpTypeRuntimeArray)
            return val_fail(v, "index %u goes into the run-time array %%%u, which is not a "
                               "composite",
                            i - first, cur);
        uint32_t next = step_into(v, cur, in->words[i], 1, &err);
        if (err == 2)
            return val_fail(v, "index %u goes into %%%u, which is not a composite", i - first, cur);
        if (err)
            return val_fail(v, "index %u is %u, past the end of %%%u", i - first, in->words[i],
                            cur);
        uint64_t n;
        if (val_opcode(v, cur) == SpvOpTypeArray) {
            member_type(v, cur, 0, &n);
            if (n != UINT64_MAX && in->words[i] >= n)
                return val_fail(v, "index %u is %u, past the end of %%%u", i - first, in->words[i],
                                cur);
        }
        cur = next;
    }
    *o_type = cur;
    return 1;
}

int vc_composite_extract(val_ctx *v, const spv_inst *in)
{
    uint32_t t;
    if (!walk_literal_indexes(v, val_type_of(v, in->words[3]), in, 4, &t))
        return 0;
    if (t != in->words[1])
        return val_fail(v, "the indexes reach type %%%u, not the Result Type %%%u", t,
                        in->words[1]);
    return 1;
}

int vc_composite_insert(val_ctx *v, const spv_inst *in)
{
    uint32_t t;
    if (val_type_of(v, in->words[4]) != in->words[1])
        return val_fail(v, "Composite %%%u is not of the Result Type %%%u", in->words[4],
                        in->words[1]);
    if (!walk_literal_indexes(v, in->words[1], in, 5, &t))
        return 0;
    if (t != val_type_of(v, in->words[3]))
        return val_fail(v, "Object %%%u has type %%%u; the indexes reach %%%u", in->words[3],
                        val_type_of(v, in->words[3]), t);
    return 1;
}

int vc_composite_construct(val_ctx *v, const spv_inst *in)
{
    return check_constituents(v, in, 0);
}

int vc_vector_shuffle(val_ctx *v, const spv_inst *in)
{
    uint32_t rc, rn, ac, an, bc, bn;
    if (!val_vector_type(v, in->words[1], &rc, &rn))
        return val_fail(v, "the Result Type is not a vector");
    if (!val_vector_type(v, val_type_of(v, in->words[3]), &ac, &an) ||
        !val_vector_type(v, val_type_of(v, in->words[4]), &bc, &bn))
        return val_fail(v, "Vector 1 and Vector 2 must be vectors");
    if (ac != rc || bc != rc)
        return val_fail(v, "the vectors' component types differ from the Result Type's");
    if ((rn | an | bn) & VAL_SPEC_COUNT(0))
        return 1; /* sizes a specialization constant decides */
    if (in->word_count - 5u != rn)
        return val_fail(v, "%u components for a result of %u", in->word_count - 5u, rn);
    for (uint32_t i = 5; i < in->word_count; i++)
        if (in->words[i] != 0xffffffffu && in->words[i] >= an + bn)
            return val_fail(v, "component %u selects %u, past the %u of the two vectors", i - 5,
                            in->words[i], an + bn);
    return 1;
}

int vc_vector_dynamic(val_ctx *v, const spv_inst *in)
{
    uint32_t vt = val_type_of(v, in->words[3]);
    uint16_t op = val_opcode(v, vt);
    if (op != SpvOpTypeVector && op != SpvOpTypeVectorIdEXT && op != SpvOpTypeCooperativeVectorNV)
        return val_fail(v, "Vector %%%u is not a vector", in->words[3]);
    uint32_t comp = val_component_type(v, vt);
    if (in->opcode == SpvOpVectorExtractDynamic) {
        if (in->words[1] != comp)
            return val_fail(v, "the Result Type is not the vector's component type %%%u", comp);
        if (!val_is_int_scalar(v, val_type_of(v, in->words[4]), 0))
            return val_fail(v, "Index is not an integer scalar");
    } else {
        if (in->words[1] != vt)
            return val_fail(v, "the Result Type is not the type of Vector");
        if (val_type_of(v, in->words[4]) != comp)
            return val_fail(v, "Component is not of the vector's component type %%%u", comp);
        if (!val_is_int_scalar(v, val_type_of(v, in->words[5]), 0))
            return val_fail(v, "Index is not an integer scalar");
    }
    return 1;
}

/* ---- phase 4: arithmetic, bits, relations, conversions ----------------------------------- */

static int is_coop(const val_ctx *v, uint32_t t)
{
    uint16_t op = val_opcode(v, t);
    return op == SpvOpTypeCooperativeMatrixKHR || op == SpvOpTypeCooperativeMatrixNV ||
           op == SpvOpTypeCooperativeVectorNV;
}

/* Scalar or vector shape: component type and count (1 for scalars). */
static int shape(const val_ctx *v, uint32_t t, uint32_t *o_comp, uint32_t *o_count)
{
    if (val_vector_type(v, t, o_comp, o_count))
        return 1;
    if (val_is_numeric_scalar(v, t) || val_is_bool(v, t)) {
        *o_comp = t;
        *o_count = 1;
        return 1;
    }
    return 0;
}

static int num_operands_from(const spv_inst *in, uint32_t first)
{
    return in->word_count > first ? (int)(in->word_count - first) : 0;
}

/* True when the result or an operand is a cooperative matrix or vector:
 * those forms are the extensions' (KHR-CM.*, NV-CV.* rules). */
static int touches_coop(const val_ctx *v, const spv_inst *in)
{
    if (is_coop(v, in->words[1]))
        return 1;
    for (uint32_t i = 3; i < in->word_count; i++)
        if (in->words[i] < v->bound && is_coop(v, val_type_of(v, in->words[i])))
            return 1;
    return 0;
}

int vc_arith_float(val_ctx *v, const spv_inst *in)
{
    if (touches_coop(v, in))
        return 1;
    uint32_t rt = in->words[1];
    if (!val_float_type(v, val_component_type(v, rt), NULL, NULL))
        return val_fail(v, "the Result Type %%%u is not a floating-point scalar, vector or "
                           "cooperative type",
                        rt);
    for (int i = 0; i < num_operands_from(in, 3); i++)
        if (val_type_of(v, in->words[3 + i]) != rt)
            return val_fail(v, "operand %%%u has type %%%u, not the Result Type %%%u",
                            in->words[3 + i], val_type_of(v, in->words[3 + i]), rt);
    return 1;
}

/* Integer arithmetic and bitwise operations: operands of the Result Type's
 * shape and width (signedness may differ); cooperative types must match
 * exactly. */
int vc_arith_int(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], rc, rn, rw;
    if (touches_coop(v, in))
        return 1;
    if (!shape(v, rt, &rc, &rn) || !val_int_type(v, rc, &rw, NULL))
        return val_fail(v, "the Result Type %%%u is not an integer scalar or vector", rt);
    for (int i = 0; i < num_operands_from(in, 3); i++) {
        uint32_t ot = val_type_of(v, in->words[3 + i]), oc, on, ow;
        if (!shape(v, ot, &oc, &on) || !val_int_type(v, oc, &ow, NULL) || on != rn || ow != rw)
            return val_fail(v, "operand %%%u (type %%%u) is not an integer scalar or vector of "
                               "the Result Type's width and size",
                            in->words[3 + i], ot);
    }
    return 1;
}

int vc_shift(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], rc, rn, rw, bc, bn, bw, sc, sn;
    if (touches_coop(v, in))
        return 1;
    if (!shape(v, rt, &rc, &rn) || !val_int_type(v, rc, &rw, NULL))
        return val_fail(v, "the Result Type is not an integer scalar or vector");
    if (!shape(v, val_type_of(v, in->words[3]), &bc, &bn) || !val_int_type(v, bc, &bw, NULL) ||
        bn != rn || bw != rw)
        return val_fail(v, "Base is not an integer of the Result Type's width and size");
    if (!shape(v, val_type_of(v, in->words[4]), &sc, &sn) || !val_int_type(v, sc, NULL, NULL) ||
        sn != rn)
        return val_fail(v, "Shift is not an integer with the Result Type's number of components");
    return 1;
}

static int bool_result_count(const val_ctx *v, uint32_t rt, uint32_t *o_n)
{
    uint32_t c;
    return shape(v, rt, &c, o_n) && val_is_bool(v, c);
}

int vc_compare(val_ctx *v, const spv_inst *in)
{
    if (touches_coop(v, in))
        return 1;
    uint32_t rn, ac, an, aw, bc, bn, bw;
    if (!bool_result_count(v, in->words[1], &rn))
        return val_fail(v, "the Result Type is not a boolean scalar or vector");
    uint32_t at = val_type_of(v, in->words[3]), bt = val_type_of(v, in->words[4]);
    int fl = val_float_type(v, val_component_type(v, at), NULL, NULL);
    if (!shape(v, at, &ac, &an) || !shape(v, bt, &bc, &bn) || an != rn || bn != rn)
        return val_fail(v, "the operands must be scalars or vectors with the Result Type's "
                           "number of components");
    if (in->opcode >= SpvOpFOrdEqual && in->opcode <= SpvOpFUnordGreaterThanEqual) {
        if (!fl || at != bt)
            return val_fail(v, "the operands must be floating-point values of one type");
        return 1;
    }
    if (in->opcode == SpvOpLogicalEqual || in->opcode == SpvOpLogicalNotEqual ||
        in->opcode == SpvOpLogicalOr || in->opcode == SpvOpLogicalAnd) {
        if (at != in->words[1] || bt != in->words[1])
            return val_fail(v, "the operands must be of the Result Type");
        return 1;
    }
    if (!val_int_type(v, ac, &aw, NULL) || !val_int_type(v, bc, &bw, NULL) || aw != bw)
        return val_fail(v, "the operands must be integers of one width");
    return 1;
}

int vc_select(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], cc, cn;
    uint32_t ct = val_type_of(v, in->words[3]);
    if (!shape(v, ct, &cc, &cn) || !val_is_bool(v, cc))
        return val_fail(v, "Condition is not a boolean scalar or vector");
    if (cn > 1) {
        uint32_t rc, rn;
        if (!val_vector_type(v, rt, &rc, &rn) || rn != cn)
            return val_fail(v, "a vector Condition needs a vector Result Type of its size");
    }
    if (val_type_of(v, in->words[4]) != rt || val_type_of(v, in->words[5]) != rt)
        return val_fail(v, "Object 1 and Object 2 must be of the Result Type");
    return 1;
}

/* OpConvert*: the numeric kinds of the scalar/vector forms (the cooperative
 * forms have their extension rules). */
int vc_convert(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], ot = val_type_of(v, in->words[3]);
    if (is_coop(v, rt) || is_coop(v, ot))
        return 1;
    uint32_t rc, rn, oc, on;
    if (!shape(v, rt, &rc, &rn) || !shape(v, ot, &oc, &on))
        return val_fail(v, "the Result Type and the operand must be scalars or vectors");
    if (rn != on)
        return val_fail(v, "the Result Type has %u components, the operand %u", rn, on);
    int rf = val_float_type(v, rc, NULL, NULL), ri = val_int_type(v, rc, NULL, NULL);
    int of = val_float_type(v, oc, NULL, NULL), oi = val_int_type(v, oc, NULL, NULL);
    int ok = 1;
    switch (in->opcode) {
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
        ok = of && ri;
        break;
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
        ok = oi && rf;
        break;
    case SpvOpUConvert:
    case SpvOpSConvert:
        ok = oi && ri;
        break;
    case SpvOpFConvert:
        ok = of && rf;
        break;
    default:
        break;
    }
    if (!ok)
        return val_fail(v, "%s does not convert %%%u to %%%u", val_op_name(in->opcode), ot, rt);
    return 1;
}

/* OpDot: a floating-point scalar from two vectors of one type whose
 * component type is the Result Type. */
int vc_dot(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], comp, n;
    if (touches_coop(v, in))
        return 1;
    if (!val_float_type(v, rt, NULL, NULL))
        return val_fail(v, "the Result Type %%%u is not a floating-point scalar", rt);
    uint32_t at = val_type_of(v, in->words[3]), bt = val_type_of(v, in->words[4]);
    if (!val_vector_type(v, at, &comp, &n) || comp != rt)
        return val_fail(v, "Vector 1 %%%u (type %%%u) is not a vector of the Result Type %%%u",
                        in->words[3], at, rt);
    if (bt != at)
        return val_fail(v, "Vector 2 %%%u has type %%%u, not Vector 1's type %%%u", in->words[4],
                        bt, at);
    return 1;
}

/* OpBitFieldInsert / OpBitFieldSExtract / OpBitFieldUExtract: Base (and
 * Insert) of the integer Result Type; Offset and Count integer scalars. */
int vc_bit_field(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], rc, rn;
    if (touches_coop(v, in))
        return 1;
    if (!shape(v, rt, &rc, &rn) || !val_int_type(v, rc, NULL, NULL))
        return val_fail(v, "the Result Type %%%u is not an integer scalar or vector", rt);
    uint32_t first = in->opcode == SpvOpBitFieldInsert ? 5 : 4;
    for (uint32_t i = 3; i < first && i < in->word_count; i++)
        if (val_type_of(v, in->words[i]) != rt)
            return val_fail(v, "%s %%%u has type %%%u, not the Result Type %%%u",
                            i == 3 ? "Base" : "Insert", in->words[i],
                            val_type_of(v, in->words[i]), rt);
    for (uint32_t i = first; i < first + 2 && i < in->word_count; i++)
        if (!val_is_int_scalar(v, val_type_of(v, in->words[i]), 0))
            return val_fail(v, "%s %%%u is not an integer scalar", i == first ? "Offset" : "Count",
                            in->words[i]);
    return 1;
}

/* OpBitCount: integer scalars or vectors with one number of components
 * (the widths may differ). */
int vc_bit_count(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], rc, rn, bc, bn;
    if (touches_coop(v, in))
        return 1;
    if (!shape(v, rt, &rc, &rn) || !val_int_type(v, rc, NULL, NULL))
        return val_fail(v, "the Result Type %%%u is not an integer scalar or vector", rt);
    uint32_t bt = val_type_of(v, in->words[3]);
    if (!shape(v, bt, &bc, &bn) || !val_int_type(v, bc, NULL, NULL) || bn != rn)
        return val_fail(v, "Base %%%u (type %%%u) is not an integer scalar or vector with the "
                           "Result Type's number of components",
                        in->words[3], bt);
    return 1;
}

/* OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended: a struct
 * of two members of one integer scalar or vector type (unsigned but for
 * OpSMulExtended, as spirv-val checks), and operands of that type. */
int vc_extended_arith(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], mc, mn, sgn;
    spv_inst st;
    if (val_opcode(v, rt) != SpvOpTypeStruct || !val_def(v, rt, &st))
        return val_fail(v, "the Result Type %%%u is not an OpTypeStruct", rt);
    if (st.word_count != 4)
        return val_fail(v, "the Result Type %%%u has %u members, not two", rt, st.word_count - 2u);
    uint32_t m = st.words[2];
    if (st.words[3] != m)
        return val_fail(v, "the Result Type's members %%%u and %%%u differ", m, st.words[3]);
    if (!shape(v, m, &mc, &mn) || !val_int_type(v, mc, NULL, &sgn))
        return val_fail(v, "the member type %%%u is not an integer scalar or vector", m);
    if (sgn && in->opcode != SpvOpSMulExtended)
        return val_fail(v, "the member type %%%u of %s is signed", m, val_op_name(in->opcode));
    for (uint32_t i = 3; i < 5 && i < in->word_count; i++)
        if (val_type_of(v, in->words[i]) != m)
            return val_fail(v, "Operand %u %%%u has type %%%u, not the member type %%%u", i - 2,
                            in->words[i], val_type_of(v, in->words[i]), m);
    return 1;
}

/* OpQuantizeToF16: 32-bit floats, Value of the Result Type. */
int vc_quantize_to_f16(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], rc, rn, w;
    if (!shape(v, rt, &rc, &rn) || !val_float_type(v, rc, &w, NULL) || w != 32)
        return val_fail(v, "the Result Type %%%u is not a scalar or vector of 32-bit floats", rt);
    if (val_type_of(v, in->words[3]) != rt)
        return val_fail(v, "Value %%%u has type %%%u, not the Result Type %%%u", in->words[3],
                        val_type_of(v, in->words[3]), rt);
    return 1;
}

/* OpMatrixTimesScalar of an OpTypeMatrix (the cooperative forms are the
 * extensions' rows): Matrix of the Result Type, Scalar its component type. */
int vc_matrix_times_scalar(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1];
    if (touches_coop(v, in))
        return 1;
    spv_inst mt;
    uint32_t comp = 0;
    if (val_opcode(v, rt) == SpvOpTypeMatrix && val_def(v, rt, &mt) && mt.word_count >= 3)
        comp = val_component_type(v, mt.words[2]);
    if (!comp || !val_float_type(v, comp, NULL, NULL))
        return val_fail(v, "the Result Type %%%u is not a floating-point matrix", rt);
    if (val_type_of(v, in->words[3]) != rt)
        return val_fail(v, "Matrix %%%u has type %%%u, not the Result Type %%%u", in->words[3],
                        val_type_of(v, in->words[3]), rt);
    if (val_type_of(v, in->words[4]) != comp)
        return val_fail(v, "Scalar %%%u has type %%%u, not the matrix's component type %%%u",
                        in->words[4], val_type_of(v, in->words[4]), comp);
    return 1;
}

/* ---- phase 4: functions ----------------------------------------------------------------- */

int vc_function(val_ctx *v, const spv_inst *in)
{
    spv_inst ft;
    if (val_opcode(v, in->words[4]) != SpvOpTypeFunction || !val_def(v, in->words[4], &ft))
        return val_fail(v, "Function Type %%%u is not an OpTypeFunction", in->words[4]);
    if (ft.words[2] != in->words[1])
        return val_fail(v, "the Result Type %%%u is not the function type's return type %%%u",
                        in->words[1], ft.words[2]);
    uint32_t f = val_func_at(v, in->offset);
    if (f == VAL_NONE)
        return 1;
    const val_function *fn = &v->funcs[f];
    uint32_t want = ft.word_count - 3u;
    if (fn->nparams != want)
        return val_fail(v, "the function has %u OpFunctionParameter, its type %u parameters",
                        fn->nparams, want);
    for (uint32_t i = 0; i < want; i++) {
        uint32_t p = v->params[fn->first_param + i];
        if (val_type_of(v, p) != ft.words[3 + i])
            return val_fail_at(v, v->ids[p].off, "parameter %u has type %%%u; the function type "
                                                 "says %%%u",
                               i, val_type_of(v, p), ft.words[3 + i]);
    }
    return 1;
}

int vc_function_call(val_ctx *v, const spv_inst *in)
{
    uint32_t callee = in->words[3];
    spv_inst f, ft;
    if (val_opcode(v, callee) != SpvOpFunction || !val_def(v, callee, &f))
        return val_fail(v, "Function %%%u is not an OpFunction", callee);
    if (f.words[1] != in->words[1])
        return val_fail(v, "the Result Type is not the return type %%%u of %%%u", f.words[1],
                        callee);
    if (!val_def(v, f.words[4], &ft) || ft.opcode != SpvOpTypeFunction)
        return 1;
    uint32_t nargs = in->word_count - 4u, nparams = ft.word_count - 3u;
    if (nargs != nparams)
        return val_fail(v, "%u arguments for a function of %u parameters", nargs, nparams);
    for (uint32_t i = 0; i < nargs; i++)
        if (val_type_of(v, in->words[4 + i]) != ft.words[3 + i])
            return val_fail(v, "argument %u, %%%u, has type %%%u; the parameter is %%%u", i,
                            in->words[4 + i], val_type_of(v, in->words[4 + i]), ft.words[3 + i]);
    return 1;
}

int vc_return(val_ctx *v, const spv_inst *in)
{
    uint32_t f = val_func_at(v, in->offset);
    if (f == VAL_NONE)
        return 1;
    uint32_t rt = v->funcs[f].result_type;
    int is_void = val_opcode(v, rt) == SpvOpTypeVoid;
    if (in->opcode == SpvOpReturn && !is_void)
        return val_fail(v, "OpReturn in a function that returns %%%u", rt);
    if (in->opcode == SpvOpReturnValue) {
        if (is_void)
            return val_fail(v, "OpReturnValue in a function that returns void");
        if (val_type_of(v, in->words[1]) != rt)
            return val_fail(v, "Value has type %%%u; the function returns %%%u",
                            val_type_of(v, in->words[1]), rt);
    }
    return 1;
}

/* ---- phase 4: control ----------------------------------------------------------------- */

int vc_branch_condition(val_ctx *v, const spv_inst *in)
{
    if (!val_is_bool(v, val_type_of(v, in->words[1])))
        return val_fail(v, "Condition %%%u is not a boolean scalar", in->words[1]);
    return 1;
}

int vc_switch_selector(val_ctx *v, const spv_inst *in)
{
    if (!val_is_int_scalar(v, val_type_of(v, in->words[1]), 0))
        return val_fail(v, "Selector %%%u is not an integer scalar", in->words[1]);
    return 1;
}

int vc_phi(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1];
    for (uint32_t w = 3; w + 1 < in->word_count; w += 2)
        if (val_type_of(v, in->words[w]) != rt)
            return val_fail(v, "Variable %%%u has type %%%u, not the Result Type %%%u",
                            in->words[w], val_type_of(v, in->words[w]), rt);
    uint32_t b = val_block_at(v, in->offset);
    if (b == VAL_NONE)
        return 1;
    /* Each predecessor once, and nothing else. */
    uint32_t npairs = (in->word_count - 3u) / 2;
    uint32_t ndistinct = 0;
    for (uint32_t k = v->pred_first[b]; k < v->pred_first[b + 1]; k++) {
        uint32_t p = v->preds[k], dup = 0;
        for (uint32_t j = v->pred_first[b]; j < k; j++)
            if (v->preds[j] == p)
                dup = 1;
        if (dup)
            continue;
        ndistinct++;
        uint32_t found = 0;
        for (uint32_t w = 4; w < in->word_count; w += 2)
            if (in->words[w] == v->blocks[p].label)
                found++;
        if (found != 1)
            return val_fail(v, "the predecessor %%%u appears %u times among the parents",
                            v->blocks[p].label, found);
    }
    if (npairs != ndistinct)
        return val_fail(v, "%u (value, parent) pairs for a block of %u predecessors", npairs,
                        ndistinct);
    return 1;
}

/* ---- phase 4: entry points -------------------------------------------------------------- */

int vc_entry_point(val_ctx *v, const spv_inst *in)
{
    uint32_t f = in->words[2];
    spv_inst fi, ft;
    if (val_opcode(v, f) != SpvOpFunction || !val_def(v, f, &fi))
        return val_fail(v, "Entry Point %%%u is not an OpFunction", f);
    if (val_opcode(v, fi.words[1]) != SpvOpTypeVoid)
        return val_fail(v, "the entry point function must return void");
    if (val_def(v, fi.words[4], &ft) && ft.opcode == SpvOpTypeFunction && ft.word_count > 3)
        return val_fail(v, "the entry point function must take no parameters");
    const char *name;
    uint32_t nw = spv_inst_string(in, 3, &name);
    for (uint32_t i = 3 + nw; i < in->word_count; i++) {
        uint16_t op = val_opcode(v, in->words[i]);
        if (op != SpvOpVariable && op != SpvOpUntypedVariableKHR)
            return val_fail(v, "Interface %%%u is not a variable", in->words[i]);
    }
    return 1;
}

int vc_execution_mode(val_ctx *v, const spv_inst *in)
{
    for (uint32_t i = 0; i < v->nentries; i++) {
        spv_inst e;
        if (val_inst_at(v, v->entry_offs[i], &e) && e.words[2] == in->words[1])
            return 1;
    }
    return val_fail(v, "%%%u is not the function of an OpEntryPoint", in->words[1]);
}

/* ---- phase 4: extended instructions ----------------------------------------------------- */

int vc_ext_inst(val_ctx *v, const spv_inst *in)
{
    if (val_opcode(v, in->words[3]) != SpvOpExtInstImport)
        return val_fail(v, "Set %%%u is not an OpExtInstImport", in->words[3]);
    if (in->words[3] != v->glsl_set)
        return 1;
    const spv_extinst_desc *x = spv_grammar_glsl_std450(in->words[4]);
    if (!x)
        return val_fail(v, "%u is not a GLSL.std.450 instruction", in->words[4]);
    uint32_t n = in->word_count - 5u;
    if (n != x->num_operands)
        return val_fail(v, "GLSL.std.450 %s takes %u operands, not %u", x->name, x->num_operands,
                        n);
    return 1;
}

/* GLSL.std.450's own typing rules ("Result Type and the type of all operands
 * must be the same type", ...), as spirv-val checks them.  The Pack*,
 * Unpack*, Ldexp, pointer (Modf, Frexp) and interpolation forms are not
 * checked here; the cooperative forms are the extensions' rows'. */
static int glsl_float_sv(const val_ctx *v, uint32_t t, uint32_t *o_comp, uint32_t *o_n)
{
    return shape(v, t, o_comp, o_n) && val_float_type(v, *o_comp, NULL, NULL);
}

static int glsl_int_sv(const val_ctx *v, uint32_t t, uint32_t *o_comp, uint32_t *o_n)
{
    return shape(v, t, o_comp, o_n) && val_int_type(v, *o_comp, NULL, NULL);
}

/* A floating-point OpTypeMatrix: its column count and column type. */
static int glsl_matrix(const val_ctx *v, uint32_t t, uint32_t *o_cols, uint32_t *o_col)
{
    spv_inst m;
    uint32_t comp, n;
    if (!val_def(v, t, &m) || m.opcode != SpvOpTypeMatrix || m.word_count < 4)
        return 0;
    if (!glsl_float_sv(v, m.words[2], &comp, &n) || n < 2)
        return 0;
    *o_col = m.words[2];
    *o_cols = m.words[3];
    return 1;
}

int vc_glsl_types(val_ctx *v, const spv_inst *in)
{
    if (!v->glsl_set || in->words[3] != v->glsl_set || in->word_count < 5)
        return 1;
    const spv_extinst_desc *x = spv_grammar_glsl_std450(in->words[4]);
    if (!x || in->word_count - 5u != x->num_operands || touches_coop(v, in))
        return 1;
    const char *name = x->name;
    uint32_t rt = in->words[1], nops = in->word_count - 5u, rc, rn, oc, on;
    uint32_t ot = nops ? val_type_of(v, in->words[5]) : 0;
    switch (in->words[4]) {
    case SpvGLSLstd450Round: case SpvGLSLstd450RoundEven: case SpvGLSLstd450Trunc:
    case SpvGLSLstd450FAbs: case SpvGLSLstd450FSign: case SpvGLSLstd450Floor:
    case SpvGLSLstd450Ceil: case SpvGLSLstd450Fract: case SpvGLSLstd450Radians:
    case SpvGLSLstd450Degrees: case SpvGLSLstd450Sin: case SpvGLSLstd450Cos:
    case SpvGLSLstd450Tan: case SpvGLSLstd450Asin: case SpvGLSLstd450Acos:
    case SpvGLSLstd450Atan: case SpvGLSLstd450Sinh: case SpvGLSLstd450Cosh:
    case SpvGLSLstd450Tanh: case SpvGLSLstd450Asinh: case SpvGLSLstd450Acosh:
    case SpvGLSLstd450Atanh: case SpvGLSLstd450Atan2: case SpvGLSLstd450Pow:
    case SpvGLSLstd450Exp: case SpvGLSLstd450Log: case SpvGLSLstd450Exp2:
    case SpvGLSLstd450Log2: case SpvGLSLstd450Sqrt: case SpvGLSLstd450InverseSqrt:
    case SpvGLSLstd450FMin: case SpvGLSLstd450FMax: case SpvGLSLstd450FClamp:
    case SpvGLSLstd450FMix: case SpvGLSLstd450Step: case SpvGLSLstd450SmoothStep:
    case SpvGLSLstd450Fma: case SpvGLSLstd450NMin: case SpvGLSLstd450NMax:
    case SpvGLSLstd450NClamp:
        if (!glsl_float_sv(v, rt, &rc, &rn))
            return val_fail(v, "GLSL.std.450 %s: the Result Type %%%u is not a floating-point "
                            "scalar or vector", name, rt);
        for (uint32_t i = 5; i < in->word_count; i++)
            if (val_type_of(v, in->words[i]) != rt)
                return val_fail(v, "GLSL.std.450 %s: operand %%%u has type %%%u, not the Result "
                                "Type %%%u", name, in->words[i], val_type_of(v, in->words[i]), rt);
        return 1;
    case SpvGLSLstd450SAbs: case SpvGLSLstd450SSign: case SpvGLSLstd450UMin:
    case SpvGLSLstd450SMin: case SpvGLSLstd450UMax: case SpvGLSLstd450SMax:
    case SpvGLSLstd450UClamp: case SpvGLSLstd450SClamp: case SpvGLSLstd450FindILsb:
    case SpvGLSLstd450FindSMsb: case SpvGLSLstd450FindUMsb: {
        uint32_t rw, ow;
        if (!glsl_int_sv(v, rt, &rc, &rn))
            return val_fail(v, "GLSL.std.450 %s: the Result Type %%%u is not an integer "
                            "scalar or vector", name, rt);
        val_int_type(v, rc, &rw, NULL);
        for (uint32_t i = 5; i < in->word_count; i++) {
            uint32_t t = val_type_of(v, in->words[i]);
            if (!glsl_int_sv(v, t, &oc, &on) || on != rn || !val_int_type(v, oc, &ow, NULL) ||
                ow != rw)
                return val_fail(v, "GLSL.std.450 %s: operand %%%u (type %%%u) is not an integer "
                                "scalar or vector of the Result Type's width and component count",
                                name, in->words[i], t);
        }
        return 1;
    }
    case SpvGLSLstd450Length: case SpvGLSLstd450Distance:
        if (!val_float_type(v, rt, NULL, NULL))
            return val_fail(v, "GLSL.std.450 %s: the Result Type %%%u is not a floating-point "
                            "scalar", name, rt);
        for (uint32_t i = 5; i < in->word_count; i++) {
            uint32_t t = val_type_of(v, in->words[i]);
            if (!glsl_float_sv(v, t, &oc, &on) || oc != rt || (i > 5 && t != ot))
                return val_fail(v, "GLSL.std.450 %s: operand %%%u (type %%%u) is not a "
                                "floating-point scalar or vector of components of the Result "
                                "Type%s", name, in->words[i], t, i > 5 ? " and of P0's type" : "");
        }
        return 1;
    case SpvGLSLstd450Normalize: case SpvGLSLstd450Cross: case SpvGLSLstd450FaceForward:
    case SpvGLSLstd450Reflect: case SpvGLSLstd450Refract: {
        uint32_t last = in->word_count;
        if (!glsl_float_sv(v, rt, &rc, &rn))
            return val_fail(v, "GLSL.std.450 %s: the Result Type %%%u is not a floating-point "
                            "scalar or vector", name, rt);
        if (in->words[4] == SpvGLSLstd450Cross && rn != 3)
            return val_fail(v, "GLSL.std.450 Cross: the Result Type %%%u is not a vector of 3 "
                            "components", rt);
        if (in->words[4] == SpvGLSLstd450Refract) {
            last--;
            if (!val_float_type(v, val_type_of(v, in->words[last]), NULL, NULL))
                return val_fail(v, "GLSL.std.450 Refract: eta %%%u is not a floating-point scalar",
                                in->words[last]);
        }
        for (uint32_t i = 5; i < last; i++)
            if (val_type_of(v, in->words[i]) != rt)
                return val_fail(v, "GLSL.std.450 %s: operand %%%u has type %%%u, not the Result "
                                "Type %%%u", name, in->words[i], val_type_of(v, in->words[i]), rt);
        return 1;
    }
    case SpvGLSLstd450Determinant: {
        uint32_t cols, col;
        if (!glsl_matrix(v, ot, &cols, &col) || !val_vector_type(v, col, &oc, &on) || on != cols)
            return val_fail(v, "GLSL.std.450 Determinant: x %%%u (type %%%u) is not a square "
                            "floating-point matrix", in->words[5], ot);
        if (rt != oc)
            return val_fail(v, "GLSL.std.450 Determinant: the Result Type %%%u is not x's "
                            "component type %%%u", rt, oc);
        return 1;
    }
    case SpvGLSLstd450MatrixInverse: {
        uint32_t cols, col;
        if (!glsl_matrix(v, rt, &cols, &col) || !val_vector_type(v, col, &oc, &on) || on != cols)
            return val_fail(v, "GLSL.std.450 MatrixInverse: the Result Type %%%u is not a square "
                            "floating-point matrix", rt);
        if (ot != rt)
            return val_fail(v, "GLSL.std.450 MatrixInverse: x %%%u has type %%%u, not the Result "
                            "Type %%%u", in->words[5], ot, rt);
        return 1;
    }
    case SpvGLSLstd450ModfStruct: case SpvGLSLstd450FrexpStruct: {
        spv_inst s;
        int modf = in->words[4] == SpvGLSLstd450ModfStruct;
        if (!val_def(v, rt, &s) || s.opcode != SpvOpTypeStruct || s.word_count != 4)
            return val_fail(v, "GLSL.std.450 %s: the Result Type %%%u is not a structure of two "
                            "members", name, rt);
        if (!glsl_float_sv(v, s.words[2], &rc, &rn))
            return val_fail(v, "GLSL.std.450 %s: the first member %%%u is not a floating-point "
                            "scalar or vector", name, s.words[2]);
        if (ot != s.words[2])
            return val_fail(v, "GLSL.std.450 %s: x %%%u has type %%%u, not the first member's "
                            "type %%%u", name, in->words[5], ot, s.words[2]);
        if (modf ? s.words[3] != s.words[2]
                 : !glsl_int_sv(v, s.words[3], &oc, &on) || on != rn)
            return val_fail(v, "GLSL.std.450 %s: the second member %%%u is not %s", name,
                            s.words[3], modf ? "of x's type"
                                             : "an integer scalar or vector of x's component count");
        return 1;
    }
    default:
        return 1;
    }
}

/* ---- phase 4: capabilities -------------------------------------------------------------- */

static int caps_ok(const val_ctx *v, const uint16_t *caps, uint16_t n)
{
    if (!n)
        return 1;
    for (uint16_t i = 0; i < n; i++)
        if (val_has_cap(v, caps[i]))
            return 1;
    return 0;
}

static const char *cap_list(const uint16_t *caps, uint16_t n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint16_t i = 0; i < n && len + 1 < size; i++) {
        char tmp[16];
        int k = snprintf(buf + len, size - len, "%s%s", i ? " or " : "",
                         val_enum_name(SPV_OPERAND_Capability, caps[i], tmp, sizeof(tmp)));
        if (k < 0)
            break;
        len += (size_t)k;
    }
    return buf;
}

int vc_capability_instruction(val_ctx *v, const spv_inst *in)
{
    const spv_instruction_desc *d = spv_grammar_instruction(in->opcode);
    if (caps_ok(v, d->capabilities, d->num_capabilities))
        return 1;
    char buf[200];
    return val_fail(v, "%s needs the capability %s", d->name,
                    cap_list(d->capabilities, d->num_capabilities, buf, sizeof(buf)));
}

int vc_capability_operand(val_ctx *v, const spv_inst *in)
{
    if (in->opcode == SpvOpCapability)
        return 1;
    const val_operand *ops;
    int n = operands(v, in, &ops);
    for (int i = 0; i < n; i++) {
        const spv_operand_kind_desc *k = &spv_operand_kinds[ops[i].kind];
        uint32_t value = in->words[ops[i].word];
        if (k->category == SPV_CATEGORY_VALUE_ENUM) {
            const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)ops[i].kind,
                                                                value);
            if (e && !caps_ok(v, e->capabilities, e->num_capabilities)) {
                char buf[200];
                return val_fail(v, "%s %s needs the capability %s", k->name, e->name,
                                cap_list(e->capabilities, e->num_capabilities, buf, sizeof(buf)));
            }
        } else if (k->category == SPV_CATEGORY_BIT_ENUM) {
            for (uint32_t bit = 0; bit < 32; bit++) {
                if (!(value & (1u << bit)))
                    continue;
                const spv_enumerant_desc *e =
                    spv_grammar_enumerant((spv_operand_kind)ops[i].kind, 1u << bit);
                if (e && !caps_ok(v, e->capabilities, e->num_capabilities)) {
                    char buf[200];
                    return val_fail(v, "%s %s needs the capability %s", k->name, e->name,
                                    cap_list(e->capabilities, e->num_capabilities, buf,
                                             sizeof(buf)));
                }
            }
        }
    }
    return 1;
}

/* SPV_EXT_replicated_composites: OpCompositeConstructReplicateEXT,
 * OpConstantCompositeReplicateEXT and OpSpecConstantCompositeReplicateEXT
 * fill every element of Result Type with Value, so Value has the element
 * type (a vector's component type, a matrix's column type, an array's
 * element type, a cooperative matrix's or vector's Component Type).  A
 * structure's members may differ in type and are left to the other rows. */
int vc_composite_replicate(val_ctx *v, const spv_inst *in)
{
    if ((in->opcode != SpvOpCompositeConstructReplicateEXT &&
         in->opcode != SpvOpConstantCompositeReplicateEXT &&
         in->opcode != SpvOpSpecConstantCompositeReplicateEXT) ||
        in->word_count < 4)
        return 1;
    uint32_t rt = in->words[1], elem = 0;
    spv_inst t;
    switch (val_opcode(v, rt)) {
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeCooperativeMatrixKHR:
    case SpvOpTypeCooperativeMatrixNV:
    case SpvOpTypeVectorIdEXT: /* also OpTypeCooperativeVectorNV */
        if (val_def(v, rt, &t) && t.word_count >= 3)
            elem = t.words[2];
        break;
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
        val_array_type(v, rt, &elem, NULL);
        break;
    default:
        return 1;
    }
    if (elem && val_type_of(v, in->words[3]) != elem)
        return val_fail(v, "Value %%%u has type %%%u, not the element type %%%u of Result Type",
                        in->words[3], val_type_of(v, in->words[3]), elem);
    return 1;
}

/* ---- 3.42.24 Non-Uniform Instructions (OpGroupNonUniform*) ---- */

/* A vector of four 32-bit integers (spirv-val: unsigned ones). */
static int ballot_type(const val_ctx *v, uint32_t t)
{
    uint32_t comp, n, w, sgn;
    return val_vector_type(v, t, &comp, &n) && n == 4 && val_int_type(v, comp, &w, &sgn) &&
           w == 32 && !sgn;
}

static int bool_scalar(const val_ctx *v, uint32_t t)
{
    return val_is_bool(v, t) && !val_vector_type(v, t, NULL, NULL);
}

/* OpGroupNonUniformElect / All / Any / AllEqual: a Boolean scalar Result
 * Type; All's and Any's Predicate a Boolean scalar; AllEqual's Value a
 * scalar or vector of integers, floats or Booleans. */
int vc_group_bool(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], c, n;
    if (!bool_scalar(v, rt))
        return val_fail(v, "the Result Type %%%u of %s is not a Boolean scalar", rt,
                        val_op_name(in->opcode));
    if (in->opcode == SpvOpGroupNonUniformElect || in->word_count < 5)
        return 1;
    uint32_t t = val_type_of(v, in->words[4]);
    if (in->opcode == SpvOpGroupNonUniformAllEqual) {
        if (!shape(v, t, &c, &n))
            return val_fail(v, "Value %%%u (type %%%u) is not a scalar or vector of integers, "
                               "floats or Booleans",
                            in->words[4], t);
        return 1;
    }
    if (!bool_scalar(v, t))
        return val_fail(v, "Predicate %%%u (type %%%u) is not a Boolean scalar", in->words[4], t);
    return 1;
}

/* OpGroupNonUniformBallot / InverseBallot / BallotBitExtract /
 * BallotBitCount / BallotFindLSB / BallotFindMSB: the ballot is a vector
 * of four 32-bit unsigned integers; Ballot's Predicate a Boolean scalar;
 * InverseBallot's and BallotBitExtract's Result Type a Boolean scalar,
 * the count's an unsigned integer scalar (as spirv-val checks), the finds'
 * an integer scalar; Index an integer scalar. */
int vc_group_ballot(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1];
    uint32_t vi = in->opcode == SpvOpGroupNonUniformBallotBitCount ? 5 : 4;
    if (in->word_count <= vi)
        return 1;
    uint32_t val = in->words[vi], t = val_type_of(v, val);
    if (in->opcode == SpvOpGroupNonUniformBallot) {
        if (!ballot_type(v, rt))
            return val_fail(v, "the Result Type %%%u is not a vector of four 32-bit unsigned "
                               "integers",
                            rt);
        if (!bool_scalar(v, t))
            return val_fail(v, "Predicate %%%u (type %%%u) is not a Boolean scalar", val, t);
        return 1;
    }
    if (in->opcode == SpvOpGroupNonUniformInverseBallot ||
        in->opcode == SpvOpGroupNonUniformBallotBitExtract) {
        if (!bool_scalar(v, rt))
            return val_fail(v, "the Result Type %%%u of %s is not a Boolean scalar", rt,
                            val_op_name(in->opcode));
    } else if (!val_is_int_scalar(v, rt, 0)) {
        return val_fail(v, "the Result Type %%%u of %s is not an integer scalar", rt,
                        val_op_name(in->opcode));
    } else if (in->opcode == SpvOpGroupNonUniformBallotBitCount) {
        uint32_t sgn = 0;
        val_int_type(v, rt, NULL, &sgn);
        if (sgn)
            return val_fail(v, "the Result Type %%%u of OpGroupNonUniformBallotBitCount is "
                               "signed",
                            rt);
    }
    if (!ballot_type(v, t))
        return val_fail(v, "Value %%%u (type %%%u) is not a vector of four 32-bit unsigned "
                           "integers",
                        val, t);
    if (in->opcode == SpvOpGroupNonUniformBallotBitExtract && in->word_count > 5 &&
        !val_is_int_scalar(v, val_type_of(v, in->words[5]), 0))
        return val_fail(v, "Index %%%u is not an integer scalar", in->words[5]);
    return 1;
}

/* OpGroupNonUniformBroadcast / BroadcastFirst / Shuffle* / QuadBroadcast /
 * QuadSwap / RotateKHR and the arithmetic ones: Value of the Result Type,
 * a scalar or vector of integers, floats or Booleans (of the class the
 * arithmetic opcode names); Id, Mask, Delta, Index, Direction and
 * ClusterSize integer scalars. */
int vc_group_value(val_ctx *v, const spv_inst *in)
{
    uint32_t rt = in->words[1], rc, rn, vi = 4, id = 5, cluster = 0;
    int cls = 0; /* 0 any, 1 integer, 2 float, 3 Boolean */
    const char *id_name = "Id";
    switch (in->opcode) {
    case SpvOpGroupNonUniformBroadcastFirst:
        id = 0;
        break;
    case SpvOpGroupNonUniformShuffleXor:
        id_name = "Mask";
        break;
    case SpvOpGroupNonUniformShuffleUp:
    case SpvOpGroupNonUniformShuffleDown:
        id_name = "Delta";
        break;
    case SpvOpGroupNonUniformRotateKHR:
        id_name = "Delta";
        cluster = 6;
        break;
    case SpvOpGroupNonUniformQuadBroadcast:
        id_name = "Index";
        break;
    case SpvOpGroupNonUniformQuadSwap:
        id_name = "Direction";
        break;
    case SpvOpGroupNonUniformIAdd:
    case SpvOpGroupNonUniformIMul:
    case SpvOpGroupNonUniformSMin:
    case SpvOpGroupNonUniformUMin:
    case SpvOpGroupNonUniformSMax:
    case SpvOpGroupNonUniformUMax:
    case SpvOpGroupNonUniformBitwiseAnd:
    case SpvOpGroupNonUniformBitwiseOr:
    case SpvOpGroupNonUniformBitwiseXor:
        cls = 1, vi = 5, id = 0, cluster = 6;
        break;
    case SpvOpGroupNonUniformFAdd:
    case SpvOpGroupNonUniformFMul:
    case SpvOpGroupNonUniformFMin:
    case SpvOpGroupNonUniformFMax:
        cls = 2, vi = 5, id = 0, cluster = 6;
        break;
    case SpvOpGroupNonUniformLogicalAnd:
    case SpvOpGroupNonUniformLogicalOr:
    case SpvOpGroupNonUniformLogicalXor:
        cls = 3, vi = 5, id = 0, cluster = 6;
        break;
    default:
        break;
    }
    static const char *const cls_name[] = {"integers, floats or Booleans", "integers", "floats",
                                           "Booleans"};
    int ok = shape(v, rt, &rc, &rn);
    if (ok && cls == 1)
        ok = val_int_type(v, rc, NULL, NULL);
    else if (ok && cls == 2)
        ok = val_float_type(v, rc, NULL, NULL);
    else if (ok && cls == 3)
        ok = val_is_bool(v, rc);
    if (!ok)
        return val_fail(v, "the Result Type %%%u of %s is not a scalar or vector of %s", rt,
                        val_op_name(in->opcode), cls_name[cls]);
    if (in->word_count > vi && val_type_of(v, in->words[vi]) != rt)
        return val_fail(v, "Value %%%u has type %%%u, not the Result Type %%%u", in->words[vi],
                        val_type_of(v, in->words[vi]), rt);
    if (id && in->word_count > id && !val_is_int_scalar(v, val_type_of(v, in->words[id]), 0))
        return val_fail(v, "%s %%%u is not an integer scalar", id_name, in->words[id]);
    /* The arithmetic ones' extra operand is ClusterSize for ClusteredReduce
     * only (the Partitioned*NV operations take a ballot there). */
    if (cls && in->word_count > 4 && in->words[4] != SpvGroupOperationClusteredReduce)
        cluster = 0;
    if (cluster && in->word_count > cluster &&
        !val_is_int_scalar(v, val_type_of(v, in->words[cluster]), 0))
        return val_fail(v, "ClusterSize %%%u is not an integer scalar", in->words[cluster]);
    return 1;
}
