/* The disassembler: SPIR-V binary -> spirv-dis text, byte for byte.
 *
 * Layout of a line (spirv-dis with its default indent of 15):
 *
 *     "               OpStore %x %y"        no result: 15 spaces, opcode
 *     "     %uint_0 = OpConstant %uint 0"   result: "%name" right-aligned to
 *                                           end at column 12, then " = "
 *     "%_ptr_Function_uint = OpTypePointer" longer names are not padded
 *
 * Friendly names (the default) are chosen in a first pass over the whole
 * module, as SPIRV-Tools' FriendlyNameMapper does: the first name given to an
 * id wins (OpName, then BuiltIn decorations, then names derived from types
 * and constants, else the number); names are sanitised to [A-Za-z0-9_] and
 * made unique with suffixes _0, _1, ...  With CVM_TEXT_RAW_ID every id is
 * its number.
 *
 * Instructions with an unknown opcode, enumerant or extended instruction are
 * printed as "OpUnknown(opcode, words) w1 w2 ..." (spirv-dis
 * --handle-unknown-opcodes), which the assembler reads back.  Structural
 * errors (truncation, missing operands) end in CVM_ERROR_MALFORMED. */
#include <stdio.h>
#include <string.h>

#include "cvm_common.h"
#include "spirv/spirv_grammar.h"
#include "text/disassemble.h"
#include "text/text_decode.h"
#include "text/text_util.h"

/* Vendor and tool of the generator word's high half, from the SPIR-V
 * registry (spir-v.xml, <ids type="vendor">) as SPIRV-Tools 47c74f48 pins
 * it: "vendor tool", or the vendor alone. */
static const struct {
    uint32_t id;
    const char *name;
} generator_names[] = {
    {0, "Khronos"},
    {1, "LunarG"},
    {2, "Valve"},
    {3, "Codeplay"},
    {4, "NVIDIA"},
    {5, "ARM"},
    {6, "Khronos LLVM/SPIR-V Translator"},
    {7, "Khronos SPIR-V Tools Assembler"},
    {8, "Khronos Glslang Reference Front End"},
    {9, "Qualcomm"},
    {10, "AMD"},
    {11, "Intel"},
    {12, "Imagination"},
    {13, "Google Shaderc over Glslang"},
    {14, "Google spiregg"},
    {15, "Google rspirv"},
    {16, "X-LEGEND Mesa3D GLSL-IR/SPIR-V Translator"},
    {17, "Khronos SPIR-V Tools Linker"},
    {18, "Wine VKD3D Shader Compiler"},
    {19, "Tellusim Clay Shader Compiler"},
    {20, "W3C WebGPU Group WHLSL Shader Translator"},
    {21, "Google Clspv"},
    {22, "LLVM MLIR SPIR-V Serializer"},
    {23, "Google Tint Compiler"},
    {24, "Google ANGLE Shader Compiler"},
    {25, "Netease Games Messiah Shader Compiler"},
    {26, "Xenia Xenia Emulator Microcode Translator"},
    {27, "Embark Studios Rust GPU Compiler Backend"},
    {28, "gfx-rs community Naga"},
    {29, "Mikkosoft Productions MSP Shader Compiler"},
    {30, "SpvGenTwo community SpvGenTwo SPIR-V IR Tools"},
    {31, "Google Skia SkSL"},
    {32, "TornadoVM Beehive SPIRV Toolkit"},
    {33, "DragonJoker ShaderWriter"},
    {34, "Rayan Hatout SPIRVSmith"},
    {35, "Saarland University Shady"},
    {36, "Taichi Graphics Taichi"},
    {37, "heroseh Hero C Compiler"},
    {38, "Meta SparkSL"},
    {39, "SirLynix Nazara ShaderLang Compiler"},
    {40, "Khronos Slang Compiler"},
    {41, "Zig Software Foundation Zig Compiler"},
    {42, "Rendong Liang spq"},
    {43, "LLVM LLVM SPIR-V Backend"},
    {44, "Robert Konrad Kongruent"},
    {45, "Kitsunebi Games Nuvk SPIR-V Emitter and DLSL compiler"},
    {46, "Nintendo"},
    {47, "ARM"},
    {48, "Goopax"},
    {49, "Icyllis Milica Arc3D Shader Compiler"},
    {50, "Isochron Pred"},
    {51, "apilatosba Apila Jai Compiler"},
};

/* Built-ins that name the variable they decorate, as spirv-dis names them. */
static const struct {
    const char *builtin;
    const char *name;
} builtin_names[] = {
    {"Position", "gl_Position"},
    {"PointSize", "gl_PointSize"},
    {"ClipDistance", "gl_ClipDistance"},
    {"CullDistance", "gl_CullDistance"},
    {"VertexId", "gl_VertexID"},
    {"InstanceId", "gl_InstanceID"},
    {"PrimitiveId", "gl_PrimitiveID"},
    {"InvocationId", "gl_InvocationID"},
    {"Layer", "gl_Layer"},
    {"ViewportIndex", "gl_ViewportIndex"},
    {"TessLevelOuter", "gl_TessLevelOuter"},
    {"TessLevelInner", "gl_TessLevelInner"},
    {"TessCoord", "gl_TessCoord"},
    {"PatchVertices", "gl_PatchVertices"},
    {"FragCoord", "gl_FragCoord"},
    {"PointCoord", "gl_PointCoord"},
    {"FrontFacing", "gl_FrontFacing"},
    {"SampleId", "gl_SampleID"},
    {"SamplePosition", "gl_SamplePosition"},
    {"SampleMask", "gl_SampleMask"},
    {"FragDepth", "gl_FragDepth"},
    {"HelperInvocation", "gl_HelperInvocation"},
    {"NumWorkgroups", "gl_NumWorkGroups"},
    {"WorkgroupSize", "gl_WorkGroupSize"},
    {"WorkgroupId", "gl_WorkGroupID"},
    {"LocalInvocationId", "gl_LocalInvocationID"},
    {"GlobalInvocationId", "gl_GlobalInvocationID"},
    {"LocalInvocationIndex", "gl_LocalInvocationIndex"},
    {"WorkDim", "WorkDim"},
    {"GlobalSize", "GlobalSize"},
    {"EnqueuedWorkgroupSize", "EnqueuedWorkgroupSize"},
    {"GlobalOffset", "GlobalOffset"},
    {"GlobalLinearId", "GlobalLinearId"},
    {"SubgroupSize", "SubgroupSize"},
    {"SubgroupMaxSize", "SubgroupMaxSize"},
    {"NumSubgroups", "NumSubgroups"},
    {"NumEnqueuedSubgroups", "NumEnqueuedSubgroups"},
    {"SubgroupId", "SubgroupId"},
    {"SubgroupLocalInvocationId", "SubgroupLocalInvocationId"},
    {"VertexIndex", "gl_VertexIndex"},
    {"InstanceIndex", "gl_InstanceIndex"},
    {"BaseInstance", "gl_BaseInstance"},
    {"SubgroupEqMask", "SubgroupEqMaskKHR"},
    {"SubgroupGeMask", "SubgroupGeMaskKHR"},
    {"SubgroupGtMask", "SubgroupGtMaskKHR"},
    {"SubgroupLeMask", "SubgroupLeMaskKHR"},
    {"SubgroupLtMask", "SubgroupLtMaskKHR"},
};

/* Longest suggested name kept; longer ones fall back to the id number. */
#define NAME_MAX_SUGGESTED 256
/* Column where "%name = " ends (spirv-dis: indent 15 minus " = "). */
#define RESULT_COLUMN 12
#define INDENT 15

typedef struct names {
    txt_strmap used;  /* names taken */
    txt_map by_id;    /* id -> index into `list` */
    char **list;
    size_t count, cap;
    int oom;
} names;

static void names_free(names *n)
{
    txt_strmap_free(&n->used);
    txt_map_free(&n->by_id);
    for (size_t i = 0; i < n->count; i++)
        cvm_mem_free(n->list[i]);
    cvm_mem_free(n->list);
    memset(n, 0, sizeof(*n));
}

/* The name of `id` if it has one, else NULL. */
static const char *names_get(const names *n, uint32_t id)
{
    uint32_t i;
    if (!txt_map_get(&n->by_id, id, &i))
        return NULL;
    return n->list[i];
}

/* Appends the name spirv-dis would use for `id` (the number when unnamed). */
static void put_name(txt_buf *b, const names *n, uint32_t id)
{
    const char *s = n ? names_get(n, id) : NULL;
    if (s)
        txt_puts(b, s);
    else
        txt_printf(b, "%u", id);
}

static int valid_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Gives `id` the sanitised, de-duplicated form of `suggested` unless it is
 * named already. */
static void save_name(names *n, uint32_t id, const char *suggested, size_t len)
{
    if (n->oom || txt_map_get(&n->by_id, id, NULL))
        return;
    txt_buf base = {0};
    if (len > NAME_MAX_SUGGESTED) {
        txt_printf(&base, "%u", id);
    } else if (len == 0) {
        txt_putc(&base, '_');
    } else {
        for (size_t i = 0; i < len; i++)
            txt_putc(&base, valid_name_char(suggested[i]) ? suggested[i] : '_');
    }
    if (base.oom) {
        n->oom = 1;
        txt_buf_free(&base);
        return;
    }
    txt_buf name = {0};
    txt_put(&name, base.data, base.len);
    int r = txt_strmap_insert(&n->used, name.data ? name.data : "", name.len, 1);
    for (uint32_t index = 0; r == 0; index++) {
        name.len = 0;
        txt_put(&name, base.data, base.len);
        txt_printf(&name, "_%u", index);
        if (name.oom)
            break;
        r = txt_strmap_insert(&n->used, name.data, name.len, 1);
    }
    txt_buf_free(&base);
    if (r < 0 || name.oom) {
        n->oom = 1;
        txt_buf_free(&name);
        return;
    }
    if (n->count == n->cap) {
        size_t ncap = n->cap ? n->cap * 2 : 64;
        char **l = cvm_realloc(n->list, ncap * sizeof(char *));
        if (!l) {
            n->oom = 1;
            txt_buf_free(&name);
            return;
        }
        n->list = l;
        n->cap = ncap;
    }
    if (txt_map_put(&n->by_id, id, (uint32_t)n->count) != 0) {
        n->oom = 1;
        txt_buf_free(&name);
        return;
    }
    n->list[n->count++] = name.data; /* ownership moves to the list */
}

static void save_name_str(names *n, uint32_t id, const char *s)
{
    save_name(n, id, s, strlen(s));
}

static void save_name_buf(names *n, uint32_t id, txt_buf *b)
{
    if (b->oom)
        n->oom = 1;
    else
        save_name(n, id, b->data ? b->data : "", b->len);
    txt_buf_free(b);
}

static const char *enum_name(spv_operand_kind kind, uint32_t value, char *tmp, size_t tmp_size)
{
    const spv_enumerant_desc *e = spv_grammar_enumerant(kind, value);
    if (e)
        return e->name;
    /* SPIRV-Tools says "StorageClass" whatever the kind. */
    snprintf(tmp, tmp_size, "StorageClass%u", value);
    return tmp;
}

/* The string operand starting at word `at` (checked by the decoder). */
static const char *string_at(const txt_inst *inst, uint32_t at)
{
    return (const char *)(inst->words + at);
}

/* One instruction's contribution to the friendly names. */
static void name_instruction(names *n, const txt_inst *inst)
{
    const uint32_t *w = inst->words;
    const uint32_t id = inst->result_id;
    txt_buf b = {0};
    char tmp[32];

    if (inst->num_ops == 0)
        return;
    switch (inst->opcode) {
    case SpvOpName:
        if (inst->num_words >= 3)
            save_name_str(n, w[1], string_at(inst, 2));
        return;
    case SpvOpDecorate:
        if (inst->num_words > 3 && w[2] == SpvDecorationBuiltIn) {
            const spv_enumerant_desc *e = spv_grammar_enumerant(SPV_OPERAND_BuiltIn, w[3]);
            for (size_t i = 0; e && i < CVM_ARRAY_SIZE(builtin_names); i++)
                if (!strcmp(builtin_names[i].builtin, e->name)) {
                    save_name_str(n, w[1], builtin_names[i].name);
                    break;
                }
        }
        return;
    case SpvOpTypeVoid: save_name_str(n, id, "void"); return;
    case SpvOpTypeBool: save_name_str(n, id, "bool"); return;
    case SpvOpTypeInt: {
        const char *root = NULL, *sign = "";
        switch (w[2]) {
        case 8: root = "char"; break;
        case 16: root = "short"; break;
        case 32: root = "int"; break;
        case 64: root = "long"; break;
        default: sign = "i"; break;
        }
        if (w[3] == 0)
            sign = "u";
        txt_puts(&b, sign);
        if (root)
            txt_puts(&b, root);
        else
            txt_printf(&b, "%u", w[2]);
        save_name_buf(n, id, &b);
        return;
    }
    case SpvOpTypeFloat: {
        if (inst->num_words > 3) {
            const char *s = NULL;
            switch (w[3]) {
            case 0: s = "bfloat16"; break;
            case 4214: s = "fp8e4m3"; break;
            case 4215: s = "fp8e5m2"; break;
            case 4223: s = "fp6e2m3"; break;
            case 4224: s = "fp6e3m2"; break;
            case 4225: s = "fp4e2m1"; break;
            case 4226: s = "fp8e8m0"; break;
            case 4227: s = "mxint8"; break;
            default: break;
            }
            if (s) {
                save_name_str(n, id, s);
                return;
            }
        }
        switch (w[2]) {
        case 16: save_name_str(n, id, "half"); return;
        case 32: save_name_str(n, id, "float"); return;
        case 64: save_name_str(n, id, "double"); return;
        default:
            txt_printf(&b, "fp%u", w[2]);
            save_name_buf(n, id, &b);
            return;
        }
    }
    case SpvOpTypeVector:
        txt_printf(&b, "v%u", w[3]);
        put_name(&b, n, w[2]);
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypeMatrix:
        txt_printf(&b, "mat%u", w[3]);
        put_name(&b, n, w[2]);
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypeArray:
        txt_puts(&b, "_arr_");
        put_name(&b, n, w[2]);
        txt_putc(&b, '_');
        put_name(&b, n, w[3]);
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypeRuntimeArray:
        txt_puts(&b, "_runtimearr_");
        put_name(&b, n, w[2]);
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypeNodePayloadArrayAMDX:
        txt_puts(&b, "_payloadarr_");
        put_name(&b, n, w[2]);
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypePointer:
        txt_puts(&b, "_ptr_");
        txt_puts(&b, enum_name(SPV_OPERAND_StorageClass, w[2], tmp, sizeof(tmp)));
        txt_putc(&b, '_');
        put_name(&b, n, w[3]);
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypeUntypedPointerKHR:
        txt_puts(&b, "_ptr_");
        txt_puts(&b, enum_name(SPV_OPERAND_StorageClass, w[2], tmp, sizeof(tmp)));
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypePipe:
        txt_puts(&b, "Pipe");
        txt_puts(&b, enum_name(SPV_OPERAND_AccessQualifier, w[2], tmp, sizeof(tmp)));
        save_name_buf(n, id, &b);
        return;
    case SpvOpTypeEvent: save_name_str(n, id, "Event"); return;
    case SpvOpTypeDeviceEvent: save_name_str(n, id, "DeviceEvent"); return;
    case SpvOpTypeReserveId: save_name_str(n, id, "ReserveId"); return;
    case SpvOpTypeQueue: save_name_str(n, id, "Queue"); return;
    case SpvOpTypeOpaque: {
        const char *s = string_at(inst, 2);
        txt_puts(&b, "Opaque_");
        if (!*s)
            txt_putc(&b, '_');
        for (; *s; s++)
            txt_putc(&b, valid_name_char(*s) ? *s : '_');
        save_name_buf(n, id, &b);
        return;
    }
    case SpvOpTypePipeStorage: save_name_str(n, id, "PipeStorage"); return;
    case SpvOpTypeNamedBarrier: save_name_str(n, id, "NamedBarrier"); return;
    case SpvOpTypeStruct:
        txt_printf(&b, "_struct_%u", id);
        save_name_buf(n, id, &b);
        return;
    case SpvOpConstantTrue: save_name_str(n, id, "true"); return;
    case SpvOpConstantFalse: save_name_str(n, id, "false"); return;
    case SpvOpConstant: {
        put_name(&b, n, inst->type_id);
        txt_putc(&b, '_');
        size_t start = b.len;
        if (inst->num_ops > 2)
            txt_format_number(&b, inst, &inst->ops[2]);
        for (size_t i = start; i < b.len && !b.oom; i++)
            if (b.data[i] == '-')
                b.data[i] = 'n';
        save_name_buf(n, id, &b);
        return;
    }
    default:
        if (id && !txt_map_get(&n->by_id, id, NULL)) {
            txt_printf(&b, "%u", id);
            save_name_buf(n, id, &b);
        }
        return;
    }
}

/* First pass: the names of every id.  A malformed module keeps the names
 * found before the error (the second pass reports it). */
static cvm_result collect_names(const uint32_t *words, size_t word_count, names *n,
                                cvm_diagnostic *diag)
{
    txt_decoder d;
    cvm_result r = txt_decoder_init(&d, words, word_count, diag);
    if (r != CVM_SUCCESS)
        return r;
    txt_inst inst;
    cvm_diagnostic scratch;
    int k;
    while ((k = txt_decoder_next(&d, &inst, &scratch)) > 0 && !n->oom)
        if (!inst.unknown)
            name_instruction(n, &inst);
    txt_decoder_free(&d);
    if (n->oom || (k < 0 && scratch.result == CVM_ERROR_OUT_OF_MEMORY))
        return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    return CVM_SUCCESS;
}

/* Printing ---------------------------------------------------------------- */

static void put_mask(txt_buf *b, spv_operand_kind kind, uint32_t word)
{
    int emitted = 0;
    for (uint32_t bit = 0; bit < 32; bit++) {
        uint32_t m = 1u << bit;
        if (!(word & m))
            continue;
        const spv_enumerant_desc *e = spv_grammar_enumerant(kind, m);
        if (emitted++)
            txt_putc(b, '|');
        txt_puts(b, e ? e->name : "?");
    }
    if (!emitted) {
        const spv_enumerant_desc *e = spv_grammar_enumerant(kind, 0);
        if (e)
            txt_puts(b, e->name);
    }
}

static void put_operand(txt_buf *b, const txt_inst *inst, const txt_operand *op,
                        const names *n)
{
    const uint32_t word = inst->words[op->offset];
    const spv_operand_kind_desc *kd = &spv_operand_kinds[op->kind];
    switch (op->kind) {
    case SPV_OPERAND_IdResultType:
    case SPV_OPERAND_IdRef:
    case SPV_OPERAND_IdScope:
    case SPV_OPERAND_IdMemorySemantics:
        txt_putc(b, '%');
        put_name(b, n, word);
        return;
    case SPV_OPERAND_LiteralExtInstInteger: {
        const spv_extinst_desc *x =
            inst->ext_set == TXT_EXT_GLSL ? spv_grammar_glsl_std450(word) : NULL;
        if (x)
            txt_puts(b, x->name);
        else
            txt_printf(b, "%u", word);
        return;
    }
    case SPV_OPERAND_LiteralSpecConstantOpInteger: {
        const spv_instruction_desc *x = spv_grammar_instruction(word);
        txt_puts(b, x ? x->name + 2 : "?"); /* without "Op" */
        return;
    }
    case SPV_OPERAND_LiteralInteger:
    case SPV_OPERAND_LiteralFloat:
    case SPV_OPERAND_LiteralContextDependentNumber:
        txt_format_number(b, inst, op);
        return;
    case SPV_OPERAND_LiteralString: {
        const char *s = string_at(inst, op->offset);
        txt_putc(b, '"');
        for (; *s; s++) {
            if (*s == '"' || *s == '\\')
                txt_putc(b, '\\');
            txt_putc(b, *s);
        }
        txt_putc(b, '"');
        return;
    }
    default:
        if (kd->category == SPV_CATEGORY_BIT_ENUM) {
            put_mask(b, (spv_operand_kind)op->kind, word);
        } else {
            const spv_enumerant_desc *e = spv_grammar_enumerant((spv_operand_kind)op->kind, word);
            if (e)
                txt_puts(b, e->name);
            else
                txt_printf(b, "%u", word);
        }
        return;
    }
}

static void put_header(txt_buf *b, const txt_decoder *d)
{
    const uint32_t tool = d->generator >> 16;
    const char *gen = NULL;
    for (size_t i = 0; i < CVM_ARRAY_SIZE(generator_names); i++)
        if (generator_names[i].id == tool)
            gen = generator_names[i].name;
    txt_puts(b, "; SPIR-V\n");
    txt_printf(b, "; Version: %u.%u\n", (d->version >> 16) & 0xff, (d->version >> 8) & 0xff);
    if (gen)
        txt_printf(b, "; Generator: %s; %u\n", gen, d->generator & 0xffff);
    else
        txt_printf(b, "; Generator: Unknown(%u); %u\n", tool, d->generator & 0xffff);
    txt_printf(b, "; Bound: %u\n", d->bound);
    txt_printf(b, "; Schema: %u\n", d->schema);
}

static void put_instruction(txt_buf *b, const txt_inst *inst, const names *n)
{
    if (inst->unknown) {
        txt_spaces(b, INDENT);
        txt_printf(b, "OpUnknown(%u, %u)", inst->opcode, inst->num_words);
        for (uint32_t i = 1; i < inst->num_words; i++)
            txt_printf(b, " %u", inst->words[i]);
        txt_puts(b, "  ; note: ID bound may be incorrect after reassembly\n");
        return;
    }
    if (inst->result_id) {
        size_t start = b->len;
        txt_putc(b, '%');
        put_name(b, n, inst->result_id);
        size_t name_len = b->len - start - 1;
        if (!b->oom && name_len + 1 < RESULT_COLUMN) {
            /* Right-align "%name" so that it ends at RESULT_COLUMN. */
            size_t pad = RESULT_COLUMN - name_len - 1;
            txt_spaces(b, pad);
            if (!b->oom) {
                memmove(b->data + start + pad, b->data + start, name_len + 1);
                memset(b->data + start, ' ', pad);
            }
        }
        txt_puts(b, " = ");
    } else {
        txt_spaces(b, INDENT);
    }
    txt_puts(b, inst->desc->name);
    for (uint16_t i = 0; i < inst->num_ops; i++) {
        if (inst->ops[i].kind == SPV_OPERAND_IdResult)
            continue;
        txt_putc(b, ' ');
        put_operand(b, inst, &inst->ops[i], n);
    }
    txt_putc(b, '\n');
}

cvm_result cvm_disassemble(const uint32_t *words, size_t word_count, uint32_t flags,
                           char **o_text, size_t *o_length, cvm_diagnostic *o_diag)
{
    /* Errors are read back from the diagnostic, so keep one when the caller
     * passes none. */
    cvm_diagnostic scratch;
    if (!o_diag)
        o_diag = &scratch;
    cvm_diag_clear(o_diag);
    if (!o_text)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "o_text is NULL");
    *o_text = NULL;
    if (o_length)
        *o_length = 0;
    if (!words && word_count)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "words is NULL");

    names n = {0};
    txt_buf b = {0};
    txt_decoder d;
    cvm_result r;
    if (!(flags & CVM_TEXT_RAW_ID)) {
        r = collect_names(words, word_count, &n, o_diag);
        if (r != CVM_SUCCESS)
            goto fail_names;
    }
    r = txt_decoder_init(&d, words, word_count, o_diag);
    if (r != CVM_SUCCESS)
        goto fail_names;
    if (!(flags & CVM_TEXT_NO_HEADER))
        put_header(&b, &d);
    txt_inst inst;
    int k;
    while ((k = txt_decoder_next(&d, &inst, o_diag)) > 0 && !b.oom)
        put_instruction(&b, &inst, (flags & CVM_TEXT_RAW_ID) ? NULL : &n);
    if (k < 0) {
        r = o_diag->result;
        if (r == CVM_SUCCESS)
            r = CVM_ERROR_MALFORMED;
        goto fail;
    }
    if (b.oom) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto fail;
    }
    if (!b.data) {
        b.data = cvm_malloc(1);
        if (!b.data) {
            r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
            goto fail;
        }
        b.data[0] = '\0';
    }
    txt_decoder_free(&d);
    names_free(&n);
    *o_text = b.data; /* allocated by cvm_malloc/cvm_realloc: cvm_free releases it */
    if (o_length)
        *o_length = b.len;
    return CVM_SUCCESS;

fail:
    txt_decoder_free(&d);
fail_names:
    names_free(&n);
    txt_buf_free(&b);
    return r;
}

cvm_result txt_disassemble_instruction(const uint32_t *words, size_t word_count,
                                       uint32_t word_offset, char *out, size_t out_size)
{
    if (!out || !out_size)
        return CVM_ERROR_INVALID_ARGUMENT;
    out[0] = '\0';
    cvm_diagnostic scratch;
    names n = {0};
    txt_buf b = {0};
    txt_decoder d;
    cvm_result r = collect_names(words, word_count, &n, &scratch);
    if (r != CVM_SUCCESS)
        goto done_names;
    r = txt_decoder_init(&d, words, word_count, &scratch);
    if (r != CVM_SUCCESS)
        goto done_names;
    txt_inst inst;
    int k;
    r = CVM_ERROR_NOT_FOUND;
    while ((k = txt_decoder_next(&d, &inst, &scratch)) > 0) {
        if (inst.offset < word_offset)
            continue;
        if (inst.offset == word_offset) {
            put_instruction(&b, &inst, &n);
            r = b.oom ? CVM_ERROR_OUT_OF_MEMORY : CVM_SUCCESS;
        }
        break;
    }
    if (k < 0)
        r = scratch.result == CVM_ERROR_OUT_OF_MEMORY ? CVM_ERROR_OUT_OF_MEMORY
                                                      : CVM_ERROR_MALFORMED;
    if (r == CVM_SUCCESS) {
        /* spirv-val quotes the instruction without spirv-dis's alignment. */
        const char *s = b.data;
        size_t len = b.len;
        while (len && *s == ' ') {
            s++;
            len--;
        }
        while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
            len--;
        if (len >= out_size) {
            size_t keep = out_size > 4 ? out_size - 4 : 0;
            memcpy(out, s, keep);
            memcpy(out + keep, "...", out_size - 1 - keep);
            out[out_size - 1] = '\0';
        } else {
            memcpy(out, s, len);
            out[len] = '\0';
        }
    }
    txt_decoder_free(&d);
done_names:
    names_free(&n);
    txt_buf_free(&b);
    return r;
}
