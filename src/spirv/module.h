/* The module IR: a SPIR-V binary parsed once into per-id definitions,
 * decorations, entry points, execution modes and functions.  Knows nothing
 * of execution; specialization and type layout happen per pipeline
 * (exec/lower.c). */
#ifndef CVM_SPIRV_MODULE_H
#define CVM_SPIRV_MODULE_H

#include <stdint.h>

#include "cvm_common.h"
#include "spirv/spirv_grammar.h"
#include "spirv/spirv_reader.h"

#define SPV_NO_MEMBER UINT32_MAX

/* Where an id is defined: the defining instruction. */
typedef struct spv_def {
    uint32_t off;     /* word offset of the instruction; 0 = undefined */
    uint16_t opcode;
    uint16_t nwords;
    uint32_t type;    /* result type id, 0 if none */
    uint32_t func;    /* index of the function that defines it, UINT32_MAX for globals */
} spv_def;

typedef struct spv_decoration {
    uint32_t target;
    uint32_t member;      /* SPV_NO_MEMBER unless OpMemberDecorate */
    uint32_t decoration;  /* SpvDecoration */
    uint32_t off;         /* word offset of the decoration's first extra operand */
    uint32_t nops;        /* number of extra operand words */
} spv_decoration;

typedef struct spv_entry_point {
    uint32_t model;       /* SpvExecutionModel */
    uint32_t func;        /* function id */
    const char *name;     /* points into the module words */
    uint32_t off;         /* word offset of OpEntryPoint */
} spv_entry_point;

typedef struct spv_exec_mode {
    uint32_t func;
    uint32_t mode;        /* SpvExecutionMode */
    uint32_t off;         /* word offset of the mode's first operand */
    uint32_t nops;
    uint8_t is_id;        /* OpExecutionModeId: operands are ids */
} spv_exec_mode;

typedef struct spv_function {
    uint32_t id;
    uint32_t result_type;
    uint32_t control;
    uint32_t fn_type;
    uint32_t begin;       /* word offset of OpFunction */
    uint32_t end;         /* word offset just past OpFunctionEnd */
} spv_function;

/* Source positions of the function bodies, in word order: from `off` on
 * (until the next entry), instructions come from line `line`, column
 * `column` of the file named by OpString `file`; file 0 means no position
 * (OpNoLine, DebugNoLine, the end of a function).  Made from OpLine and from
 * NonSemantic.Shader.DebugInfo.100's DebugLine / DebugNoLine (glslang -g
 * and -gVS). */
typedef struct spv_line {
    uint32_t off;
    uint32_t file;
    uint32_t line, column;
} spv_line;

typedef struct spv_module {
    spv_binary bin;
    uint32_t bound;
    spv_def *defs;                 /* [bound] */
    uint32_t *capabilities;
    uint32_t ncapabilities;
    spv_decoration *decorations;
    uint32_t ndecorations;
    spv_entry_point *entries;
    uint32_t nentries;
    spv_exec_mode *modes;
    uint32_t nmodes;
    spv_function *functions;
    uint32_t nfunctions;
    uint32_t glsl_ext;             /* id of OpExtInstImport "GLSL.std.450", 0 if none */
    uint32_t printf_ext;           /* id of OpExtInstImport "NonSemantic.DebugPrintf", 0 if none */
    uint32_t debuginfo_ext;        /* "NonSemantic.Shader.DebugInfo.100" (or .101), 0 if none */
    spv_line *lines;               /* source positions, by word offset */
    uint32_t nlines;
    uint32_t addressing_model, memory_model;
    uint32_t globals_begin;        /* word offset of the first type/constant/global */
    uint32_t globals_end;          /* word offset of the first OpFunction */
} spv_module;

/* Parses and checks `bin` (ownership moves into the module on success).
 * Rejects: malformed stream, ids >= bound, ids defined twice, references to
 * ids never defined, unsupported capabilities or extensions (by name),
 * instructions outside their section.  Errors carry the word offset. */
cvm_result spv_module_parse(spv_module *o_mod, spv_binary *bin, cvm_diagnostic *diag);
void spv_module_release(spv_module *mod);

/* The instruction defining `id` (0 when id is not defined). */
int spv_module_def_inst(const spv_module *mod, uint32_t id, spv_inst *o_inst);
/* The instruction at a word offset. */
int spv_module_inst_at(const spv_module *mod, uint32_t off, spv_inst *o_inst);

/* Decoration lookup: returns the first matching decoration, or NULL. */
const spv_decoration *spv_module_find_decoration(const spv_module *mod, uint32_t target,
                                                 uint32_t member, uint32_t decoration);
/* First operand word of a decoration (e.g. the SpecId, Offset, Binding). */
uint32_t spv_decoration_operand(const spv_module *mod, const spv_decoration *d, uint32_t i);

/* The OpName of an id, or NULL. */
const char *spv_module_name(const spv_module *mod, uint32_t id);

/* Fills diag->file/line/column from the source position of the instruction
 * at `word_off` (OpLine or DebugLine), if it has one. */
void spv_module_locate(const spv_module *mod, uint32_t word_off, cvm_diagnostic *diag);

/* The source position of the instruction at `word_off`: returns 1 and sets
 * the file name (pointing into the module; "" when the OpString is
 * missing), line and column, or returns 0 when it has none. */
int spv_module_source_line(const spv_module *mod, uint32_t word_off, const char **o_file,
                           uint32_t *o_line, uint32_t *o_column);

/* Capability support of the engine: 1 when executing modules that declare it
 * is supported. */
int spv_capability_supported(uint32_t cap);
/* 1 when the module declares capability `cap` (OpCapability). */
int spv_module_has_capability(const spv_module *mod, uint32_t cap);

#endif /* CVM_SPIRV_MODULE_H */
