/* The assembler: spirv-as text -> SPIR-V words, word for word what spirv-as
 * writes (except the generator word).
 *
 * The text is split into words as spirv-as splits it: a word ends at a blank,
 * ';' (comment to end of line), ',', '(' or ')', except inside "..." or after
 * a backslash.  An instruction is "[%result =] OpName operand...", the operands
 * read one word each against the expected-operand stack of the grammar
 * (see text_decode.c for the stack; here optional operands end the
 * instruction when the next word starts a new one).  "!<integer>" puts a raw
 * word anywhere; "OpUnknown(opcode, count) words..." a raw instruction.
 *
 * Ids: named and numeric ids get numbers in order of first appearance; with
 * CVM_TEXT_PRESERVE_NUMERIC_IDS every %N keeps N and the other ids fill the
 * gaps from 1.  The bound is the largest id + 1.
 *
 * Stricter than spirv-as, to catch mistakes early: an id defined twice, and
 * an id used but never defined (unless raw words may define it), are errors.
 *
 * Header generator word: coopvm is not a registered SPIR-V tool, so the high
 * 16 bits (tool id) are 0 and the low 16 bits carry coopvm's version as
 * (major << 8 | minor): CVM_TEXT_GENERATOR. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cvm_common.h"
#include "spirv/spirv_grammar.h"
#include "spirv/spirv_reader.h"
#include "text/text_decode.h"
#include "text/text_util.h"

#define CVM_TEXT_GENERATOR ((uint32_t)((CVM_VERSION_MAJOR << 8) | CVM_VERSION_MINOR))
#define MAX_INSTRUCTION_WORDS 0xffffu
#define MAX_STRING_BYTES 0xffffu

/* Result codes of the operand encoders. */
#define AS_OK 0
#define AS_NO_MATCH 1 /* an optional literal did not match: end the instruction */
#define AS_ERROR (-1)

/* Classes of the type an id defines, for literals sized by type. */
enum { TY_OTHER = 1, TY_INT = 2, TY_FLOAT = 3 };

typedef struct as_pos {
    size_t index;
    uint32_t line;   /* 0-based */
    uint32_t column; /* 0-based */
} as_pos;

typedef struct as_use {
    uint32_t id;
    as_pos pos;
} as_use;

typedef struct as_ctx {
    const char *text;
    size_t len;
    as_pos cur;
    cvm_diagnostic *diag;

    /* ids */
    txt_map preserved;      /* numeric ids kept as they are */
    txt_strmap named;       /* id text -> id */
    txt_strmap numeric_seen; /* first pass of preserve: numeric id texts */
    uint32_t next_id;
    uint32_t bound;
    txt_map defined;        /* id -> 1 */
    txt_map first_use;      /* id -> index in uses */
    as_use *uses;
    size_t uses_len, uses_cap;
    int saw_raw;            /* OpUnknown or ! instruction: ids may be defined raw */

    /* types */
    txt_map type_class;     /* type id -> TY_* | signed << 8 | fp << 16 */
    txt_map type_width;
    txt_map value_type;     /* value id -> type id */
    txt_map ext_sets;       /* import id -> TXT_EXT_* */

    /* output */
    uint32_t *out;
    size_t out_len, out_cap;

    /* the instruction being encoded */
    uint32_t *inst;
    size_t inst_len, inst_cap;
    int opcode;             /* -1 until known */
    uint32_t result_type_id;
    uint8_t ext_set;

    txt_expect *expect;
    size_t expect_len, expect_cap;

    char *word;             /* the current word, NUL-terminated */
    size_t word_cap;
    int oom;
} as_ctx;

/* Diagnostics -------------------------------------------------------------- */

static int as_error_at(as_ctx *c, as_pos p, const char *fmt, ...) CVM_PRINTF(3, 4);
static int as_error_at(as_ctx *c, as_pos p, const char *fmt, ...)
{
    if (c->diag) {
        va_list ap;
        va_start(ap, fmt);
        cvm_diag_vset(c->diag, CVM_ERROR_SYNTAX, fmt, ap);
        va_end(ap);
        c->diag->line = p.line + 1;
        c->diag->column = p.column + 1;
    }
    return AS_ERROR;
}

#define as_error(c, ...) as_error_at((c), (c)->cur, __VA_ARGS__)

static int as_oom(as_ctx *c)
{
    c->oom = 1;
    if (c->diag)
        cvm_diag_set(c->diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    return AS_ERROR;
}

/* Lexing -------------------------------------------------------------------- */

/* Skips blanks and comments.  Returns 1 at the end of the text (or a NUL). */
static int as_advance_pos(const as_ctx *c, as_pos *p)
{
    for (;;) {
        if (p->index >= c->len)
            return 1;
        char ch = c->text[p->index];
        switch (ch) {
        case '\0':
            return 1;
        case ';':
            while (p->index < c->len && c->text[p->index] != '\0' && c->text[p->index] != '\n') {
                p->index++;
                p->column++;
            }
            if (p->index >= c->len || c->text[p->index] == '\0')
                return 1;
            p->index++;
            p->line++;
            p->column = 0;
            continue;
        case ' ':
        case '\t':
        case '\r':
            p->index++;
            p->column++;
            continue;
        case '\n':
            p->index++;
            p->line++;
            p->column = 0;
            continue;
        default:
            return 0;
        }
    }
}

static int as_advance(as_ctx *c)
{
    return as_advance_pos(c, &c->cur);
}

/* The word at `*p`: moves *p past it and returns its length; the word is
 * c->text[start .. start + length). */
static size_t as_word_span(const as_ctx *c, as_pos *p)
{
    const size_t start = p->index;
    int quoting = 0, escaping = 0;
    for (;;) {
        if (p->index >= c->len)
            return p->index - start;
        char ch = c->text[p->index];
        if (ch == '\\') {
            escaping = !escaping;
        } else {
            switch (ch) {
            case '"':
                if (!escaping)
                    quoting = !quoting;
                break;
            case ' ':
            case ';':
            case ',':
            case '(':
            case ')':
            case '\t':
            case '\n':
            case '\r':
                if (escaping || quoting)
                    break;
                return p->index - start;
            case '\0':
                return p->index - start;
            default:
                break;
            }
            escaping = 0;
        }
        p->index++;
        p->column++;
    }
}

/* Copies the word at the current position into c->word; *o_next gets the
 * position after it.  Returns 0, or AS_ERROR when out of memory. */
static int as_get_word(as_ctx *c, as_pos *o_next)
{
    *o_next = c->cur;
    size_t n = as_word_span(c, o_next);
    if (n + 1 > c->word_cap) {
        size_t cap = c->word_cap ? c->word_cap : 64;
        while (cap < n + 1)
            cap *= 2;
        char *w = cvm_realloc(c->word, cap);
        if (!w)
            return as_oom(c);
        c->word = w;
        c->word_cap = cap;
    }
    memcpy(c->word, c->text + c->cur.index, n);
    c->word[n] = '\0';
    return 0;
}

static int starts_with_op_at(const as_ctx *c, const as_pos *p)
{
    if (c->len < p->index + 3)
        return 0;
    const char *s = c->text + p->index;
    return s[0] == 'O' && s[1] == 'p' && s[2] >= 'A' && s[2] <= 'Z';
}

/* Whether the text at the current position begins an instruction:
 * "Op..." or "%id = Op...". */
static int as_is_start_of_new_inst(const as_ctx *c)
{
    as_pos p = c->cur;
    if (as_advance_pos(c, &p))
        return 0;
    if (starts_with_op_at(c, &p))
        return 1;
    p = c->cur;
    size_t start = p.index;
    size_t n = as_word_span(c, &p);
    if (n == 0 || c->text[start] != '%')
        return 0;
    if (as_advance_pos(c, &p))
        return 0;
    start = p.index;
    n = as_word_span(c, &p);
    if (n != 1 || c->text[start] != '=')
        return 0;
    if (as_advance_pos(c, &p))
        return 0;
    return starts_with_op_at(c, &p);
}

/* Emitting --------------------------------------------------------------------- */

static int as_emit(as_ctx *c, uint32_t w)
{
    if (c->inst_len == c->inst_cap) {
        size_t cap = c->inst_cap ? c->inst_cap * 2 : 16;
        uint32_t *n = cvm_realloc(c->inst, cap * sizeof(uint32_t));
        if (!n)
            return as_oom(c);
        c->inst = n;
        c->inst_cap = cap;
    }
    c->inst[c->inst_len++] = w;
    return 0;
}

static int as_expect_push(as_ctx *c, uint16_t kind, uint8_t quant)
{
    if (c->expect_len == c->expect_cap) {
        size_t cap = c->expect_cap ? c->expect_cap * 2 : 32;
        txt_expect *n = cvm_realloc(c->expect, cap * sizeof(*n));
        if (!n)
            return as_oom(c);
        c->expect = n;
        c->expect_cap = cap;
    }
    c->expect[c->expect_len].kind = kind;
    c->expect[c->expect_len].quant = quant;
    c->expect_len++;
    return 0;
}

static int as_expect_push_list(as_ctx *c, const spv_operand_desc *ops, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (as_expect_push(c, ops[i].kind, ops[i].quantifier) != 0)
            return AS_ERROR;
    return 0;
}

/* Ids ----------------------------------------------------------------------- */

static int valid_id_text(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++) {
        char ch = *s;
        if (!(ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9')))
            return 0;
    }
    return 1;
}

static int numeric_id(const char *s, uint32_t *o_id)
{
    uint64_t v;
    if (!txt_parse_u64(s, &v) || v > UINT32_MAX)
        return 0;
    *o_id = (uint32_t)v;
    return 1;
}

/* The number of id `name` (without '%'), assigning one on first sight. */
static int as_id(as_ctx *c, const char *name, uint32_t *o_id)
{
    uint32_t id;
    size_t len = strlen(name);
    if (c->preserved.count && numeric_id(name, &id) && txt_map_get(&c->preserved, id, NULL)) {
        if (id >= c->bound)
            c->bound = id + 1;
        *o_id = id;
        return 0;
    }
    if (txt_strmap_get(&c->named, name, len, &id)) {
        *o_id = id;
        return 0;
    }
    if (c->next_id == UINT32_MAX)
        return as_error(c, "too many ids");
    id = c->next_id++;
    while (c->preserved.count && txt_map_get(&c->preserved, id, NULL)) {
        if (c->next_id == UINT32_MAX)
            return as_error(c, "too many ids");
        id = c->next_id++;
    }
    if (txt_strmap_insert(&c->named, name, len, id) < 0)
        return as_oom(c);
    if (numeric_id(name, &(uint32_t){0}) &&
        txt_strmap_insert(&c->numeric_seen, name, len, 1) < 0)
        return as_oom(c);
    if (id >= c->bound)
        c->bound = id + 1;
    *o_id = id;
    return 0;
}

static int as_note_use(as_ctx *c, uint32_t id, as_pos at)
{
    if (txt_map_get(&c->first_use, id, NULL))
        return 0;
    if (c->uses_len == c->uses_cap) {
        size_t cap = c->uses_cap ? c->uses_cap * 2 : 64;
        as_use *n = cvm_realloc(c->uses, cap * sizeof(*n));
        if (!n)
            return as_oom(c);
        c->uses = n;
        c->uses_cap = cap;
    }
    c->uses[c->uses_len].id = id;
    c->uses[c->uses_len].pos = at;
    if (txt_map_put(&c->first_use, id, (uint32_t)c->uses_len) != 0)
        return as_oom(c);
    c->uses_len++;
    return 0;
}

/* Numbers ------------------------------------------------------------------- */

typedef struct as_numtype {
    int cls;       /* 0 unknown (inferred from the text), TY_INT, TY_FLOAT */
    uint32_t width;
    int is_signed;
    txt_fp fp;     /* TY_FLOAT: encoding, TXT_FP_UNKNOWN = by width */
} as_numtype;

static as_numtype as_type_of(const as_ctx *c, uint32_t type_id)
{
    as_numtype t = {0, 0, 0, TXT_FP_UNKNOWN};
    uint32_t info;
    if (!txt_map_get(&c->type_class, type_id, &info)) {
        t.cls = 0;
        return t;
    }
    t.cls = (int)(info & 0xff);
    t.is_signed = (int)((info >> 8) & 1);
    t.fp = (txt_fp)((info >> 16) & 0xff);
    txt_map_get(&c->type_width, type_id, &t.width);
    return t;
}

/* Encodes a numeric literal of type `t` (cls 0: inferred as spirv-as infers:
 * a '.' makes a 32-bit float, a leading '-' a signed 32-bit integer, else an
 * unsigned one).  Invalid text returns `bad_text` (AS_NO_MATCH for optional
 * operands). */
static int as_encode_number(as_ctx *c, const char *s, as_numtype t, int bad_text)
{
    if (t.cls == TY_OTHER)
        return as_error(c, "unexpected numeric literal type");
    if (t.cls == 0) {
        t.width = 32;
        if (strchr(s, '.')) {
            t.cls = TY_FLOAT;
            t.fp = TXT_FP_F32;
        } else {
            t.cls = TY_INT;
            t.is_signed = s[0] == '-';
        }
    }
#define BAD_TEXT(...) \
    return (bad_text == AS_NO_MATCH) ? AS_NO_MATCH : as_error(c, __VA_ARGS__)

    if (t.cls == TY_FLOAT) {
        txt_fp fp = t.fp;
        if (fp == TXT_FP_UNKNOWN)
            fp = t.width == 16 ? TXT_FP_F16
                 : t.width == 32 ? TXT_FP_F32
                 : t.width == 64 ? TXT_FP_F64
                                 : TXT_FP_UNKNOWN;
        uint64_t bits;
        int r = fp == TXT_FP_UNKNOWN ? -1 : txt_parse_float(s, fp, &bits);
        if (r < 0)
            return as_error(c, "Unsupported %u-bit float literals", t.width);
        if (r == 0)
            BAD_TEXT("Invalid %s literal: %s", txt_fp_literal_name(fp), s);
        if (as_emit(c, (uint32_t)bits) != 0)
            return AS_ERROR;
        if (fp == TXT_FP_F64 && as_emit(c, (uint32_t)(bits >> 32)) != 0)
            return AS_ERROR;
        return AS_OK;
    }

    /* Integers. */
    const uint32_t width = t.width;
    if (width > 64)
        return as_error(c, "Unsupported %u-bit integer literals", width);
    const int negative = s[0] == '-';
    if (negative && !t.is_signed)
        return as_error(c, "Cannot put a negative number in an unsigned literal");
    const int is_hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    uint64_t magnitude_mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
    uint64_t sign_mask = 0;
    uint64_t overflow_mask = ~magnitude_mask;
    uint64_t bits;
    if (negative) {
        int64_t v;
        if (!txt_parse_i64(s, &v))
            BAD_TEXT("Invalid signed integer literal: %s", s);
        magnitude_mask >>= 1;
        sign_mask = magnitude_mask + 1;
        uint64_t u = (uint64_t)v;
        if ((u & overflow_mask) != overflow_mask || (u & sign_mask) != sign_mask)
            BAD_TEXT("Integer %lld does not fit in a %u-bit %s integer", (long long)v, width,
                     t.is_signed ? "signed" : "unsigned");
        bits = u;
    } else {
        uint64_t v;
        if (!txt_parse_u64(s, &v))
            BAD_TEXT("Invalid unsigned integer literal: %s", s);
        if (t.is_signed) {
            magnitude_mask >>= 1;
            sign_mask = magnitude_mask + 1;
        }
        int failed = is_hex ? (v & overflow_mask) != 0 : (v & magnitude_mask) != v;
        if (failed) {
            if (is_hex)
                BAD_TEXT("Integer %#llx does not fit in a %u-bit %s integer",
                         (unsigned long long)v, width, t.is_signed ? "signed" : "unsigned");
            BAD_TEXT("Integer %llu does not fit in a %u-bit %s integer", (unsigned long long)v,
                     width, t.is_signed ? "signed" : "unsigned");
        }
        if (is_hex && (v & sign_mask))
            v |= overflow_mask;
        bits = v;
    }
#undef BAD_TEXT
    if (as_emit(c, (uint32_t)bits) != 0)
        return AS_ERROR;
    if (width > 32 && as_emit(c, (uint32_t)(bits >> 32)) != 0)
        return AS_ERROR;
    return AS_OK;
}

/* Strings ------------------------------------------------------------------- */

/* spirv-as' literal classification: a word of digits and dots (with at most
 * one leading '-') is a number; anything else must be a quoted string. */
static int looks_numeric(const char *s)
{
    size_t len = strlen(s);
    int periods = 0, is_string = 0, is_signed = 0;
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch >= '0' && ch <= '9')
            continue;
        if (ch == '.') {
            periods++;
        } else if (ch == '-' && i == 0) {
            is_signed = 1;
        } else {
            is_string = 1;
            break;
        }
    }
    return !(is_string || periods > 1 || (is_signed && len == 1));
}

/* Decodes a quoted string word into `o` (unescaped).  Returns 1, 0 when the
 * word is not a quoted string, -1 when out of memory or too long. */
static int unquote(const char *s, txt_buf *o)
{
    size_t len = strlen(s);
    if (len < 2 || s[0] != '"' || s[len - 1] != '"')
        return 0;
    int escaping = 0;
    for (size_t i = 1; i + 1 < len; i++) {
        if (s[i] == '\\' && !escaping) {
            escaping = 1;
        } else {
            if (o->len >= MAX_STRING_BYTES)
                return -1;
            txt_putc(o, s[i]);
            escaping = 0;
        }
    }
    if (!o->data)
        txt_put(o, "", 0);
    return o->oom ? -1 : 1;
}

static int as_encode_string_words(as_ctx *c, const char *s, size_t len)
{
    size_t nwords = len / 4 + 1;
    if (c->inst_len + nwords > MAX_INSTRUCTION_WORDS)
        return as_error(c, "Instruction too long: more than %u words.", MAX_INSTRUCTION_WORDS);
    for (size_t i = 0; i < nwords; i++) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4; k++) {
            size_t at = i * 4 + k;
            if (at < len)
                w |= (uint32_t)(unsigned char)s[at] << (8 * k);
        }
        if (as_emit(c, w) != 0)
            return AS_ERROR;
    }
    return AS_OK;
}

/* Returns AS_OK, AS_NO_MATCH (optional and not a string) or AS_ERROR. */
static int as_encode_string(as_ctx *c, const char *s, int optional)
{
    if (looks_numeric(s))
        return as_error(c, "Expected literal string, found literal number '%s'.", s);
    txt_buf b = {0};
    int r = unquote(s, &b);
    if (r < 0) {
        int oom = b.oom;
        txt_buf_free(&b);
        return oom ? as_oom(c) : as_error(c, "Literal string is too long.");
    }
    if (r == 0) {
        txt_buf_free(&b);
        return optional ? AS_NO_MATCH : as_error(c, "Invalid literal string '%s'.", s);
    }
    if (c->opcode == SpvOpExtInstImport && c->inst_len >= 2) {
        uint32_t set = strcmp(b.data, "GLSL.std.450") == 0 ? TXT_EXT_GLSL : TXT_EXT_OTHER;
        if (txt_map_put(&c->ext_sets, c->inst[1], set) != 0) {
            txt_buf_free(&b);
            return as_oom(c);
        }
    }
    r = as_encode_string_words(c, b.data, b.len);
    txt_buf_free(&b);
    return r;
}

/* Operands ------------------------------------------------------------------- */

static int as_encode_operand(as_ctx *c, uint16_t kind, uint8_t quant, const char *s,
                             as_pos at);

/* "!<integer>": a raw word.  After it the rest of the instruction is read as
 * raw words too (literal numbers, strings or ids), keeping a result id that
 * is still to come. */
static int as_encode_immediate(as_ctx *c, const char *s)
{
    uint64_t v;
    if (!txt_parse_u64(s + 1, &v) || v > UINT32_MAX)
        return as_error(c, "Invalid immediate integer: %s", s);
    if (as_emit(c, (uint32_t)v) != 0)
        return AS_ERROR;
    c->saw_raw = 1;
    return AS_OK;
}

/* A word of a raw instruction: a number, a string or an id. */
#define KIND_CIV 0xffffu

static int as_encode_civ(as_ctx *c, const char *s, as_pos at)
{
    if (s[0] == '!')
        return as_encode_immediate(c, s);
    as_numtype unknown = {0, 0, 0, TXT_FP_UNKNOWN};
    size_t mark = c->inst_len;
    int r = as_encode_number(c, s, unknown, AS_NO_MATCH);
    if (r == AS_OK)
        return AS_OK;
    if (r == AS_ERROR) {
        /* A hard number error (e.g. a negative where unsigned) still may be
         * another form; fall through like spirv-as only for plain mismatch. */
        c->inst_len = mark;
        return as_error_at(c, at, "Invalid word following !<integer>: %s", s);
    }
    r = as_encode_string(c, s, 1);
    if (r == AS_OK)
        return AS_OK;
    if (r == AS_ERROR && !looks_numeric(s))
        return AS_ERROR;
    if (s[0] == '%' && valid_id_text(s + 1)) {
        uint32_t id;
        if (as_id(c, s + 1, &id) != 0)
            return AS_ERROR;
        return as_emit(c, id);
    }
    return as_error_at(c, at, "Invalid word following !<integer>: %s", s);
}

static int as_encode_mask(as_ctx *c, uint16_t kind, const char *s)
{
    uint32_t value = 0;
    const char *p = s;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        const spv_enumerant_desc *e = spv_grammar_enumerant_by_name(kind, p, n);
        if (!e)
            return as_error(c, "Invalid %s operand '%s'.", spv_operand_kinds[kind].name, s);
        value |= e->value;
        if (!bar)
            break;
        p = bar + 1;
    }
    if (as_emit(c, value) != 0)
        return AS_ERROR;
    /* Parameters of the lowest set bit come first. */
    for (int bit = 31; bit >= 0; bit--) {
        uint32_t m = 1u << bit;
        if (!(value & m))
            continue;
        const spv_enumerant_desc *e = spv_grammar_enumerant(kind, m);
        if (e && as_expect_push_list(c, e->params, e->num_params) != 0)
            return AS_ERROR;
    }
    if (value == 0) {
        const spv_enumerant_desc *e = spv_grammar_enumerant(kind, 0);
        if (e && as_expect_push_list(c, e->params, e->num_params) != 0)
            return AS_ERROR;
    }
    return AS_OK;
}

static int as_encode_operand(as_ctx *c, uint16_t kind, uint8_t quant, const char *s, as_pos at)
{
    const int optional = quant != SPV_QUANT_ONE;
    const int bad_text = optional ? AS_NO_MATCH : AS_ERROR;

    if (s[0] == '!') {
        if (as_encode_immediate(c, s) != AS_OK)
            return AS_ERROR;
        /* The rest: raw words; a result id still expected stays in place. */
        size_t result_at = SIZE_MAX;
        for (size_t i = c->expect_len; i-- > 0;)
            if (c->expect[i].kind == SPV_OPERAND_IdResult) {
                result_at = i;
                break;
            }
        if (result_at != SIZE_MAX) {
            size_t n = c->expect_len - result_at + 1;
            c->expect_len = 0;
            for (size_t i = 0; i < n; i++)
                if (as_expect_push(c, i == 1 ? SPV_OPERAND_IdResult : KIND_CIV,
                                   SPV_QUANT_OPTIONAL) != 0)
                    return AS_ERROR;
        } else {
            c->expect_len = 0;
            if (as_expect_push(c, KIND_CIV, SPV_QUANT_OPTIONAL) != 0)
                return AS_ERROR;
        }
        return AS_OK;
    }

    if (kind == KIND_CIV) {
        if (as_encode_civ(c, s, at) != AS_OK)
            return AS_ERROR;
        if (c->expect_len == 0 && as_expect_push(c, KIND_CIV, SPV_QUANT_OPTIONAL) != 0)
            return AS_ERROR;
        return AS_OK;
    }

    switch (kind) {
    case SPV_OPERAND_IdResultType:
    case SPV_OPERAND_IdResult:
    case SPV_OPERAND_IdRef:
    case SPV_OPERAND_IdScope:
    case SPV_OPERAND_IdMemorySemantics: {
        if (s[0] != '%')
            return as_error(c, "Expected id to start with %%.");
        if (!valid_id_text(s + 1))
            return as_error(c, "Invalid ID %s", s + 1);
        uint32_t id;
        if (as_id(c, s + 1, &id) != 0)
            return AS_ERROR;
        if (kind == SPV_OPERAND_IdResultType)
            c->result_type_id = id;
        if (kind == SPV_OPERAND_IdResult) {
            if (txt_map_get(&c->defined, id, NULL))
                return as_error_at(c, at, "ID %s has already been defined", s);
            if (txt_map_put(&c->defined, id, 1) != 0)
                return as_oom(c);
        } else if (as_note_use(c, id, at) != 0) {
            return AS_ERROR;
        }
        if (as_emit(c, id) != 0)
            return AS_ERROR;
        if ((c->opcode == SpvOpExtInst || c->opcode == SpvOpExtInstWithForwardRefsKHR) &&
            c->inst_len == 4) {
            uint32_t set;
            if (!txt_map_get(&c->ext_sets, c->inst[3], &set))
                return as_error(c, "Invalid extended instruction import Id %s", s);
            c->ext_set = (uint8_t)set;
        }
        return AS_OK;
    }
    case SPV_OPERAND_LiteralExtInstInteger: {
        if (c->ext_set == TXT_EXT_GLSL) {
            const spv_extinst_desc *x = spv_grammar_glsl_std450_by_name(s, strlen(s));
            if (!x)
                return as_error(c, "Invalid extended instruction name '%s'.", s);
            if (as_emit(c, x->opcode) != 0)
                return AS_ERROR;
            return as_expect_push_list(c, x->operands, x->num_operands);
        }
        /* A set without a grammar here: the instruction number, then ids. */
        uint64_t v;
        if (!looks_numeric(s) || s[0] == '-' || strchr(s, '.') || !txt_parse_u64(s, &v) ||
            v > UINT32_MAX)
            return as_error(c,
                            "Couldn't translate unknown extended instruction name '%s' to "
                            "unsigned integer.",
                            s);
        if (as_emit(c, (uint32_t)v) != 0)
            return AS_ERROR;
        return as_expect_push(c, SPV_OPERAND_IdRef, SPV_QUANT_VARIABLE);
    }
    case SPV_OPERAND_LiteralSpecConstantOpInteger: {
        /* The opcode's name without "Op". */
        size_t n = strlen(s);
        char name[128];
        const spv_instruction_desc *x = NULL;
        if (n + 3 <= sizeof(name)) {
            memcpy(name, "Op", 2);
            memcpy(name + 2, s, n + 1);
            x = spv_grammar_instruction_by_name(name, n + 2);
        }
        if (!x || !x->has_result_type || !x->has_result || x->num_operands < 2)
            return as_error(c, "Invalid %s '%s'.", spv_operand_kinds[kind].name, s);
        if (as_emit(c, x->opcode) != 0)
            return AS_ERROR;
        return as_expect_push_list(c, x->operands + 2, x->num_operands - 2u);
    }
    case SPV_OPERAND_LiteralInteger: {
        as_numtype t = {TY_INT, 32, 0, TXT_FP_UNKNOWN};
        return as_encode_number(c, s, t, bad_text);
    }
    case SPV_OPERAND_LiteralFloat: {
        as_numtype t = {TY_FLOAT, 32, 0, TXT_FP_F32};
        return as_encode_number(c, s, t, bad_text);
    }
    case SPV_OPERAND_LiteralContextDependentNumber: {
        as_numtype t = {0, 0, 0, TXT_FP_UNKNOWN};
        if (c->opcode == SpvOpConstant || c->opcode == SpvOpSpecConstant) {
            t = as_type_of(c, c->result_type_id);
            if (t.cls != TY_INT && t.cls != TY_FLOAT) {
                const spv_instruction_desc *d = spv_grammar_instruction((uint32_t)c->opcode);
                return as_error(c, "Type for %s must be a scalar floating point or integer type",
                                d ? d->name : "opcode");
            }
        } else if (c->opcode == SpvOpSwitch) {
            uint32_t type_id = 0;
            if (c->inst_len >= 2)
                txt_map_get(&c->value_type, c->inst[1], &type_id);
            t = as_type_of(c, type_id);
            if (t.cls != TY_INT)
                return as_error(c, "The selector operand for OpSwitch must be the result of an "
                                   "instruction that generates an integer scalar");
        }
        return as_encode_number(c, s, t, bad_text);
    }
    case SPV_OPERAND_LiteralString:
        return as_encode_string(c, s, optional);
    default:
        break;
    }

    const spv_operand_kind_desc *kd = &spv_operand_kinds[kind];
    if (kd->category == SPV_CATEGORY_BIT_ENUM)
        return as_encode_mask(c, kind, s);
    if (kd->category == SPV_CATEGORY_VALUE_ENUM) {
        const spv_enumerant_desc *e = spv_grammar_enumerant_by_name(kind, s, strlen(s));
        if (!e)
            return as_error(c, "Invalid %s '%s'.", kd->name, s);
        if (as_emit(c, e->value) != 0)
            return AS_ERROR;
        return as_expect_push_list(c, e->params, e->num_params);
    }
    return as_error(c, "Internal error: unhandled operand kind %s", kd->name);
}

/* Takes the next operand to read, expanding "*" lists and pairs the way
 * spirv-as does: each element of a list is optional, and in a list of pairs
 * the second part of a pair is required once the first is there. */
static int as_expect_take(as_ctx *c, txt_expect *o)
{
    for (;;) {
        txt_expect e = c->expect[--c->expect_len];
        if (e.kind != KIND_CIV) {
            const spv_operand_kind_desc *k = &spv_operand_kinds[e.kind];
            if (k->category == SPV_CATEGORY_COMPOSITE && k->num_bases == 2) {
                uint16_t first = k->bases[0], second = k->bases[1];
                if (e.kind == SPV_OPERAND_PairLiteralIntegerIdRef)
                    first = SPV_OPERAND_LiteralContextDependentNumber;
                if ((e.quant == SPV_QUANT_VARIABLE && as_expect_push(c, e.kind, e.quant) != 0) ||
                    as_expect_push(c, second, SPV_QUANT_ONE) != 0 ||
                    as_expect_push(c, first, e.quant == SPV_QUANT_ONE ? SPV_QUANT_ONE
                                                                      : SPV_QUANT_OPTIONAL) != 0)
                    return AS_ERROR;
                continue;
            }
        }
        if (e.quant == SPV_QUANT_VARIABLE) {
            if (as_expect_push(c, e.kind, e.quant) != 0)
                return AS_ERROR;
            e.quant = SPV_QUANT_OPTIONAL;
        }
        *o = e;
        return 0;
    }
}

/* Instructions ---------------------------------------------------------------- */

/* Reads raw words until the next instruction (after "!<integer>" at the start
 * of an instruction). */
static int as_encode_raw_instruction(as_ctx *c)
{
    as_pos next;
    c->saw_raw = 1;
    if (as_get_word(c, &next) != 0)
        return AS_ERROR;
    if (as_encode_immediate(c, c->word) != AS_OK)
        return AS_ERROR;
    c->cur = next;
    while (!as_advance(c)) {
        if (as_is_start_of_new_inst(c))
            return AS_OK;
        as_pos at = c->cur;
        if (as_get_word(c, &next) != 0)
            return AS_ERROR;
        if (!strcmp(c->word, "="))
            return as_error(c, "!<integer> not allowed before =.");
        if (as_encode_civ(c, c->word, at) != AS_OK)
            return AS_ERROR;
        c->cur = next;
    }
    return AS_OK;
}

/* Reads one decimal-or-hex number word for OpUnknown's header. */
static int as_unknown_number(as_ctx *c, const char *what, uint32_t max, uint32_t *o_val)
{
    as_pos next;
    if (as_advance(c))
        return as_error(c, "Expected %s, found end of stream.", what);
    if (as_get_word(c, &next) != 0)
        return AS_ERROR;
    uint64_t v;
    if (!txt_parse_u64(c->word, &v) || v > max)
        return as_error(c, "Invalid %s: \"%s\".", what, c->word);
    *o_val = (uint32_t)v;
    c->cur = next;
    return AS_OK;
}

static int as_expect_char(as_ctx *c, char ch, const char *after)
{
    if (as_advance(c))
        return as_error(c, "Expected '%c', found end of stream.", ch);
    if (c->text[c->cur.index] != ch)
        return as_error(c, "'%c' expected after %s but found '%c'.", ch, after,
                        c->text[c->cur.index]);
    c->cur.index++;
    c->cur.column++;
    return AS_OK;
}

/* "OpUnknown(opcode, count) word..." */
static int as_encode_unknown(as_ctx *c)
{
    uint32_t opcode, count;
    c->saw_raw = 1;
    if (as_expect_char(c, '(', "OpUnknown") != AS_OK ||
        as_unknown_number(c, "opcode enumerant", 0xffff, &opcode) != AS_OK ||
        as_expect_char(c, ',', "opcode enumerant") != AS_OK ||
        as_unknown_number(c, "number of words", 0xffff, &count) != AS_OK)
        return AS_ERROR;
    if (count == 0)
        return as_error(c, "Number of words (which includes the opcode) must be greater than "
                           "zero.");
    if (as_expect_char(c, ')', "number of words") != AS_OK)
        return AS_ERROR;
    c->opcode = (int)opcode;
    if (as_emit(c, count << 16 | opcode) != 0)
        return AS_ERROR;
    for (uint32_t left = count - 1; left > 0; left--) {
        if (as_advance(c))
            return as_error(c, "Expected %u more operands, found end of stream.", left);
        if (as_is_start_of_new_inst(c)) {
            as_pos next;
            if (as_get_word(c, &next) != 0)
                return AS_ERROR;
            return as_error(c, "Unexpected start of new instruction: \"%s\". Expected %u more "
                               "operands",
                            c->word, left);
        }
        as_pos at = c->cur, next;
        if (as_get_word(c, &next) != 0)
            return AS_ERROR;
        if (!strcmp(c->word, "="))
            return as_error(c, "OpUnknown not allowed before =.");
        /* Like spirv-as, each operand word of the text counts as one word of
         * the instruction (a string operand is kept to one word by the
         * disassembler). */
        if (as_encode_civ(c, c->word, at) != AS_OK)
            return AS_ERROR;
        c->cur = next;
    }
    return AS_OK;
}

static int as_record_types(as_ctx *c, const spv_instruction_desc *desc)
{
    if (txt_opcode_generates_type(desc)) {
        uint32_t id = c->inst[1];
        if (txt_map_get(&c->type_class, id, NULL))
            return as_error(c, "Value %u has already been used to generate a type", id);
        uint32_t info = TY_OTHER, width = 0;
        if (c->opcode == SpvOpTypeInt) {
            if (c->inst_len != 4)
                return as_error(c, "Invalid OpTypeInt instruction");
            info = TY_INT | (c->inst[3] != 0) << 8;
            width = c->inst[2];
        } else if (c->opcode == SpvOpTypeFloat) {
            if (c->inst_len != 3 && c->inst_len != 4)
                return as_error(c, "Invalid OpTypeFloat instruction");
            txt_fp fp = TXT_FP_UNKNOWN;
            width = c->inst[2];
            if (c->inst_len == 4) {
                const spv_enumerant_desc *e =
                    spv_grammar_enumerant(SPV_OPERAND_FPEncoding, c->inst[3]);
                if (!e)
                    return as_error(c, "Invalid OpTypeFloat encoding");
                fp = txt_fp_for_type(width, 1, c->inst[3]);
                uint32_t expected = 0;
                switch (fp) {
                case TXT_FP_BF16: expected = 16; break;
                case TXT_FP_E2M1: expected = 4; break;
                case TXT_FP_E2M3:
                case TXT_FP_E3M2: expected = 6; break;
                case TXT_FP_E4M3:
                case TXT_FP_E5M2:
                case TXT_FP_E8M0:
                case TXT_FP_MXINT8: expected = 8; break;
                default: break;
                }
                if (expected && expected != width)
                    return as_error(c,
                                    "Invalid bit width %u for floating point encoding %s; "
                                    "expected %u",
                                    width, e->name, expected);
            }
            info = TY_FLOAT | (uint32_t)fp << 16;
        }
        if (txt_map_put(&c->type_class, id, info) != 0 ||
            txt_map_put(&c->type_width, id, width) != 0)
            return as_oom(c);
    } else if (desc->has_result_type && c->inst_len >= 3) {
        if (txt_map_put(&c->value_type, c->inst[2], c->inst[1]) != 0)
            return as_oom(c);
    }
    return AS_OK;
}

static int as_encode_instruction(as_ctx *c)
{
    c->inst_len = 0;
    c->opcode = -1;
    c->result_type_id = 0;
    c->ext_set = TXT_EXT_NONE;
    c->expect_len = 0;

    if (c->text[c->cur.index] == '!')
        return as_encode_raw_instruction(c);

    as_pos next, result_pos = c->cur, first_pos = c->cur;
    if (as_get_word(c, &next) != 0)
        return AS_ERROR;
    char *result_id = NULL;
    const char *opname;
    char *first_word = NULL;
    int r = AS_ERROR;

    if (starts_with_op_at(c, &c->cur)) {
        opname = c->word;
    } else {
        if (c->word[0] != '%')
            return as_error(c,
                            "Expected <opcode> or <result-id> at the beginning of an "
                            "instruction, found '%s'.",
                            c->word);
        result_id = cvm_strdup(c->word);
        if (!result_id)
            return as_oom(c);
        c->cur = next;
        if (as_advance(c)) {
            as_error(c, "Expected '=', found end of stream.");
            goto done;
        }
        if (as_get_word(c, &next) != 0)
            goto done;
        if (strcmp(c->word, "=") != 0) {
            as_error(c, "'=' expected after result id but found '%s'.", c->word);
            goto done;
        }
        c->cur = next;
        if (as_advance(c)) {
            as_error(c, "Expected opcode, found end of stream.");
            goto done;
        }
        if (as_get_word(c, &next) != 0)
            goto done;
        if (!starts_with_op_at(c, &c->cur)) {
            as_error(c, "Invalid Opcode prefix '%s'.", c->word);
            goto done;
        }
        opname = c->word;
    }

    if (!strcmp(opname, "OpUnknown")) {
        if (result_id) {
            as_error(c, "OpUnknown not allowed in assignment. Use an explicit result id "
                        "operand instead.");
            goto done;
        }
        c->cur = next;
        r = as_encode_unknown(c);
        goto done;
    }

    const spv_instruction_desc *desc = spv_grammar_instruction_by_name(opname, strlen(opname));
    if (!desc) {
        as_error(c, "Invalid Opcode name '%s'", opname);
        goto done;
    }
    if (desc->has_result && !result_id) {
        as_error_at(c, first_pos,
                    "Expected <result-id> at the beginning of an instruction, found '%s'.",
                    opname);
        goto done;
    }
    if (!desc->has_result && result_id) {
        as_error_at(c, result_pos, "Cannot set ID %s because %s does not produce a result ID.",
                    result_id, opname);
        goto done;
    }
    first_word = cvm_strdup(opname);
    if (!first_word) {
        as_oom(c);
        goto done;
    }
    c->opcode = (int)desc->opcode;
    c->cur = next;
    if (as_emit(c, 0) != 0 || as_expect_push_list(c, desc->operands, desc->num_operands) != 0)
        goto done;

    while (c->expect_len > 0) {
        txt_expect e;
        if (as_expect_take(c, &e) != 0)
            goto done;
        const int optional = e.quant != SPV_QUANT_ONE;
        if (e.kind == SPV_OPERAND_IdResult && result_id) {
            if (as_encode_operand(c, e.kind, SPV_QUANT_ONE, result_id, result_pos) != AS_OK)
                goto done;
            continue;
        }
        if (as_advance(c)) {
            if (optional)
                break;
            as_error(c, "Expected operand for %s instruction, but found the end of the stream.",
                     first_word);
            goto done;
        }
        if (as_is_start_of_new_inst(c)) {
            if (optional)
                break;
            if (e.kind == SPV_OPERAND_LiteralSpecConstantOpInteger) {
                if (as_get_word(c, &next) != 0)
                    goto done;
                const spv_instruction_desc *x =
                    spv_grammar_instruction_by_name(c->word, strlen(c->word));
                if (x) {
                    as_error(c, "Invalid %s opcode '%s'. Did you mean '%s'?", first_word,
                             c->word, c->word + 2);
                    goto done;
                }
            }
            as_error(c, "Expected operand for %s instruction, but found the next instruction "
                        "instead.",
                     first_word);
            goto done;
        }
        as_pos at = c->cur;
        if (as_get_word(c, &next) != 0)
            goto done;
        int k = as_encode_operand(c, e.kind, e.quant, c->word, at);
        if (k == AS_NO_MATCH && optional) {
            r = AS_OK; /* the word begins something else: end the instruction here */
            goto finish;
        }
        if (k != AS_OK)
            goto done;
        c->cur = next;
    }
finish:
    if (as_record_types(c, desc) != AS_OK)
        goto done;
    if (c->inst_len > MAX_INSTRUCTION_WORDS) {
        as_error(c, "%s Instruction too long: %zu words, but the limit is %u", first_word,
                 c->inst_len, MAX_INSTRUCTION_WORDS);
        goto done;
    }
    c->inst[0] = (uint32_t)c->inst_len << 16 | desc->opcode;
    r = AS_OK;
done:
    cvm_mem_free(result_id);
    cvm_mem_free(first_word);
    return r;
}

static int as_append_instruction(as_ctx *c)
{
    if (c->out_len + c->inst_len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 1024;
        while (cap < c->out_len + c->inst_len)
            cap *= 2;
        uint32_t *n = cvm_realloc(c->out, cap * sizeof(uint32_t));
        if (!n)
            return as_oom(c);
        c->out = n;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, c->inst, c->inst_len * sizeof(uint32_t));
    c->out_len += c->inst_len;
    return AS_OK;
}

static void as_ctx_free(as_ctx *c)
{
    txt_map_free(&c->preserved);
    txt_strmap_free(&c->named);
    txt_strmap_free(&c->numeric_seen);
    txt_map_free(&c->defined);
    txt_map_free(&c->first_use);
    cvm_mem_free(c->uses);
    txt_map_free(&c->type_class);
    txt_map_free(&c->type_width);
    txt_map_free(&c->value_type);
    txt_map_free(&c->ext_sets);
    cvm_mem_free(c->out);
    cvm_mem_free(c->inst);
    cvm_mem_free(c->expect);
    cvm_mem_free(c->word);
}

/* One pass over the text.  Leaves the words (from index 5) in c->out. */
static cvm_result as_run(as_ctx *c)
{
    c->next_id = 1;
    c->bound = 1;
    c->out_len = 0;
    for (int i = 0; i < SPV_HEADER_WORDS; i++) {
        c->inst_len = 0;
        if (as_emit(c, 0) != 0 || as_append_instruction(c) != 0)
            return CVM_ERROR_OUT_OF_MEMORY;
    }
    as_advance(c);
    while (c->cur.index < c->len) {
        if (as_encode_instruction(c) != AS_OK || as_append_instruction(c) != AS_OK)
            return c->oom ? CVM_ERROR_OUT_OF_MEMORY : CVM_ERROR_SYNTAX;
        if (as_advance(c))
            break;
    }
    if (!c->saw_raw) {
        /* Report the first id (in text order) that is never defined. */
        const as_use *first = NULL;
        for (size_t i = 0; i < c->uses_len; i++)
            if (!txt_map_get(&c->defined, c->uses[i].id, NULL) &&
                (!first || c->uses[i].pos.index < first->pos.index))
                first = &c->uses[i];
        if (first) {
            as_pos p = first->pos;
            c->cur = p;
            as_pos next;
            if (as_get_word(c, &next) != 0)
                return CVM_ERROR_OUT_OF_MEMORY;
            as_error_at(c, p, "ID %s is used but never defined", c->word);
            return CVM_ERROR_SYNTAX;
        }
    }
    return CVM_SUCCESS;
}

static int target_env_version(const char *env, uint32_t *o_version)
{
    static const struct {
        const char *name;
        uint32_t version;
    } envs[] = {
        {"spv1.0", 0x10000},       {"spv1.1", 0x10100},       {"spv1.2", 0x10200},
        {"spv1.3", 0x10300},       {"spv1.4", 0x10400},       {"spv1.5", 0x10500},
        {"spv1.6", 0x10600},       {"vulkan1.0", 0x10000},    {"vulkan1.1", 0x10300},
        {"vulkan1.1spv1.4", 0x10400}, {"vulkan1.2", 0x10500}, {"vulkan1.3", 0x10600},
        {"vulkan1.4", 0x10600},    {"opengl4.0", 0x10000},    {"opengl4.1", 0x10000},
        {"opengl4.2", 0x10000},    {"opengl4.3", 0x10000},    {"opengl4.5", 0x10000},
        {"universal1.0", 0x10000}, {"universal1.1", 0x10100}, {"universal1.2", 0x10200},
        {"universal1.3", 0x10300}, {"universal1.4", 0x10400}, {"universal1.5", 0x10500},
        {"universal1.6", 0x10600},
    };
    if (!env) {
        *o_version = 0x10600;
        return 1;
    }
    for (size_t i = 0; i < CVM_ARRAY_SIZE(envs); i++)
        if (!strcmp(env, envs[i].name)) {
            *o_version = envs[i].version;
            return 1;
        }
    return 0;
}

/* The version a "; Version: 1.D" comment of the text's header names, as
 * spirv-as reads it when no target environment is given: only comment lines
 * and blanks before the first other character count, D is a single digit
 * naming a version up to 1.6 (a second digit, or 1.7 and above, is no
 * match), and the first comment that matches wins.  Returns 0 when there is
 * none (the caller keeps its default). */
static int version_from_header(const char *text, size_t len, uint32_t *o_version)
{
    static const char prefix[] = "; Version: 1.";
    const size_t plen = sizeof(prefix) - 1;
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (ch == ';') {
            if (i + plen >= len)
                return 0;
            size_t j = 1;
            while (j < plen && text[i + j] == prefix[j])
                j++;
            if (j == plen) {
                char minor = text[i + plen];
                char next = i + plen + 1 < len ? text[i + plen + 1] : 0;
                if (minor >= '0' && minor <= '6' && !(next >= '0' && next <= '9')) {
                    *o_version = 0x10000u | ((uint32_t)(minor - '0') << 8);
                    return 1;
                }
            }
            /* not a version comment: skip to the end of its line */
            for (i += j; i < len && text[i] != '\n'; i++)
                ;
        } else if (!(ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' ||
                     ch == '\f')) {
            return 0; /* the header ended */
        }
    }
    return 0;
}

cvm_result cvm_assemble(const char *text, size_t length, uint32_t flags, const char *target_env,
                        uint32_t **o_words, size_t *o_word_count, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!o_words)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "o_words is NULL");
    *o_words = NULL;
    if (o_word_count)
        *o_word_count = 0;
    if (!text && length)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "text is NULL");
    uint32_t version;
    if (!target_env_version(target_env, &version))
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "unknown target environment '%s'",
                            target_env);

    if (!target_env && text)
        version_from_header(text, length, &version);

    as_ctx c;
    memset(&c, 0, sizeof(c));
    c.text = text ? text : "";
    c.len = length;
    c.diag = o_diag;
    cvm_result r;

    if (flags & CVM_TEXT_PRESERVE_NUMERIC_IDS) {
        /* First pass: which ids are written as numbers. */
        r = as_run(&c);
        if (r != CVM_SUCCESS)
            goto fail;
        for (size_t i = 0; i < c.numeric_seen.cap; i++) {
            uint32_t id;
            if (c.numeric_seen.keys[i] && numeric_id(c.numeric_seen.keys[i], &id) &&
                txt_map_put(&c.preserved, id, 1) != 0) {
                r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
                goto fail;
            }
        }
        txt_map preserved = c.preserved;
        memset(&c.preserved, 0, sizeof(c.preserved));
        as_ctx_free(&c);
        memset(&c, 0, sizeof(c));
        c.preserved = preserved;
        c.text = text ? text : "";
        c.len = length;
        c.diag = o_diag;
    }
    r = as_run(&c);
    if (r != CVM_SUCCESS)
        goto fail;
    c.out[0] = SPV_MAGIC_NUMBER;
    c.out[1] = version;
    c.out[2] = CVM_TEXT_GENERATOR;
    c.out[3] = c.bound;
    c.out[4] = 0;
    *o_words = c.out; /* from cvm_realloc: released with cvm_free */
    if (o_word_count)
        *o_word_count = c.out_len;
    c.out = NULL;
    as_ctx_free(&c);
    return CVM_SUCCESS;

fail:
    if (r == CVM_ERROR_OUT_OF_MEMORY && o_diag)
        cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    as_ctx_free(&c);
    return r;
}
