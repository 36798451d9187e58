/* The SPIR-V text form against SPIRV-Tools' own output.
 *
 * Corpus: for the 20 modules of shared/corpus and shared/bench, the
 * references were written by SPIRV-Tools 47c74f48 (spirv-dis, spirv-dis
 * --raw-id, spirv-as):
 *   dis(X.spv) == X.spvasm, dis --raw-id(X.spv) == X.raw.spvasm (bytes),
 *   as(X.spvasm) == X.as.spv, as --preserve(X.raw.spvasm) == X.spv (words,
 *   except word 2, the generator), and as(dis --raw-id(m)) == m.
 * Golden files in tests/text: operand kinds the corpus lacks, with
 * references from the Debian spirv-tools (v2023.1) or computed by hand from
 * the format definitions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coopvm.h"
#include "cvm_common.h"
#include "text_test_util.h"

/* The generator word coopvm writes: tool 0, version major << 8 | minor. */
#define COOPVM_GENERATOR ((uint32_t)((CVM_VERSION_MAJOR << 8) | CVM_VERSION_MINOR))

static char g_modules[TT_MAX_MODULES][512];
static int g_module_count;

static int setup(void **state)
{
    (void)state;
    g_module_count = tt_list_modules(g_modules);
    return 0;
}

/* Words equal except word 2 (the generator). */
static void assert_words_equal_but_generator(const uint32_t *got, size_t got_n,
                                             const void *want_bytes, size_t want_size,
                                             const char *what)
{
    const uint32_t *want = want_bytes;
    if (got_n * 4 != want_size)
        fail_msg("%s: %zu words, want %zu", what, got_n, want_size / 4);
    for (size_t i = 0; i < got_n; i++)
        if (i != 2 && got[i] != want[i])
            fail_msg("%s: word %zu is 0x%08x, want 0x%08x", what, i, got[i], want[i]);
    assert_int_equal(got[2], COOPVM_GENERATOR);
}

static void assert_text_equal(const char *got, size_t got_len, const char *want,
                              size_t want_len, const char *what)
{
    if (got_len == want_len && memcmp(got, want, want_len) == 0)
        return;
    size_t i = 0;
    while (i < got_len && i < want_len && got[i] == want[i])
        i++;
    size_t line = 1;
    for (size_t k = 0; k < i; k++)
        line += want[k] == '\n';
    fail_msg("%s: differs at byte %zu (line %zu), lengths %zu vs %zu", what, i, line, got_len,
             want_len);
}

static void test_corpus_found(void **state)
{
    (void)state;
    /* 15 corpus cases and 5 benchmarks. */
    assert_int_equal(g_module_count, 20);
}

static void test_corpus_disassemble(void **state)
{
    (void)state;
    for (int m = 0; m < g_module_count; m++) {
        size_t spv_size, ref_size, raw_size;
        char *spv = tt_read_ext(g_modules[m], ".spv", &spv_size);
        char *ref = tt_read_ext(g_modules[m], ".spvasm", &ref_size);
        char *raw = tt_read_ext(g_modules[m], ".raw.spvasm", &raw_size);
        assert_non_null(spv);
        assert_non_null(ref);
        assert_non_null(raw);
        char *text = NULL;
        size_t len = 0;
        cvm_diagnostic d;
        assert_int_equal(cvm_disassemble((const uint32_t *)spv, spv_size / 4, 0, &text, &len, &d),
                         CVM_SUCCESS);
        assert_text_equal(text, len, ref, ref_size, g_modules[m]);
        assert_int_equal(strlen(text), len);
        cvm_free(text);
        assert_int_equal(cvm_disassemble((const uint32_t *)spv, spv_size / 4, CVM_TEXT_RAW_ID,
                                         &text, &len, &d),
                         CVM_SUCCESS);
        assert_text_equal(text, len, raw, raw_size, g_modules[m]);
        cvm_free(text);
        free(spv);
        free(ref);
        free(raw);
    }
}

static void test_corpus_assemble(void **state)
{
    (void)state;
    for (int m = 0; m < g_module_count; m++) {
        size_t ref_size, as_size, raw_size, spv_size;
        char *ref = tt_read_ext(g_modules[m], ".spvasm", &ref_size);
        char *as = tt_read_ext(g_modules[m], ".as.spv", &as_size);
        char *raw = tt_read_ext(g_modules[m], ".raw.spvasm", &raw_size);
        char *spv = tt_read_ext(g_modules[m], ".spv", &spv_size);
        assert_non_null(ref);
        assert_non_null(as);
        assert_non_null(raw);
        assert_non_null(spv);
        uint32_t *words = NULL;
        size_t n = 0;
        cvm_diagnostic d;
        cvm_result r = cvm_assemble(ref, ref_size, 0, NULL, &words, &n, &d);
        if (r != CVM_SUCCESS)
            fail_msg("%s.spvasm:%u:%u: %s", g_modules[m], d.line, d.column, d.message);
        assert_words_equal_but_generator(words, n, as, as_size, g_modules[m]);
        cvm_free(words);
        r = cvm_assemble(raw, raw_size, CVM_TEXT_PRESERVE_NUMERIC_IDS, "spv1.6", &words, &n, &d);
        if (r != CVM_SUCCESS)
            fail_msg("%s.raw.spvasm:%u:%u: %s", g_modules[m], d.line, d.column, d.message);
        assert_words_equal_but_generator(words, n, spv, spv_size, g_modules[m]);
        cvm_free(words);
        free(ref);
        free(as);
        free(raw);
        free(spv);
    }
}

/* as(dis(m)) == m with ids preserved, through the API only. */
static void test_corpus_round_trip(void **state)
{
    (void)state;
    for (int m = 0; m < g_module_count; m++) {
        size_t spv_size;
        char *spv = tt_read_ext(g_modules[m], ".spv", &spv_size);
        assert_non_null(spv);
        char *text = NULL;
        size_t len = 0;
        uint32_t *words = NULL;
        size_t n = 0;
        assert_int_equal(cvm_disassemble((const uint32_t *)spv, spv_size / 4, CVM_TEXT_RAW_ID,
                                         &text, &len, NULL),
                         CVM_SUCCESS);
        assert_int_equal(cvm_assemble(text, len, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &words, &n,
                                      NULL),
                         CVM_SUCCESS);
        assert_words_equal_but_generator(words, n, spv, spv_size, g_modules[m]);
        cvm_free(text);
        cvm_free(words);
        free(spv);
    }
}

/* Golden: tests/text/golden_kinds.* (64-bit and 16-bit integers, f16/f64
 * constants incl. subnormals, -0, OpSwitch on a 64-bit selector, masks with
 * parameters, strings with escapes, OpSpecConstantOp, name sanitising). */
static void test_golden_kinds(void **state)
{
    (void)state;
    size_t src_size, spv_size, raw_size, friendly_size;
    char *src = tt_read(CVM_TEST_DATA_DIR "/text/golden_kinds.spvasm", &src_size);
    char *spv = tt_read(CVM_TEST_DATA_DIR "/text/golden_kinds.spv", &spv_size);
    char *raw = tt_read(CVM_TEST_DATA_DIR "/text/golden_kinds.dis.spvasm", &raw_size);
    char *friendly = tt_read(CVM_TEST_DATA_DIR "/text/golden_kinds.friendly.spvasm",
                             &friendly_size);
    assert_non_null(src);
    assert_non_null(spv);
    assert_non_null(raw);
    assert_non_null(friendly);
    uint32_t *words = NULL;
    size_t n = 0;
    cvm_diagnostic d;
    cvm_result r =
        cvm_assemble(src, src_size, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &words, &n, &d);
    if (r != CVM_SUCCESS)
        fail_msg("golden_kinds.spvasm:%u:%u: %s", d.line, d.column, d.message);
    assert_words_equal_but_generator(words, n, spv, spv_size, "golden_kinds");
    cvm_free(words);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(cvm_disassemble((const uint32_t *)spv, spv_size / 4, CVM_TEXT_RAW_ID, &text,
                                     &len, &d),
                     CVM_SUCCESS);
    assert_text_equal(text, len, raw, raw_size, "golden_kinds raw");
    cvm_free(text);
    assert_int_equal(
        cvm_disassemble((const uint32_t *)spv, spv_size / 4, 0, &text, &len, &d), CVM_SUCCESS);
    assert_text_equal(text, len, friendly, friendly_size, "golden_kinds friendly");
    cvm_free(text);
    free(src);
    free(spv);
    free(raw);
    free(friendly);
}

/* bfloat16 and fp8 constants.  Expected bits from the format definitions:
 * bf16 1.5 = 0 01111111 1000000 = 0x3fc0; bf16 -2^-133 is the smallest
 * negative subnormal 0x8001; E4M3 1.5 = 0 0111 100 = 0x3c; E4M3 448 =
 * 0 1111 110 = 0x7e; E5M2 -2 = 1 10000 00 = 0xc0.  Expected text: spirv-dis
 * prints these formats as hex floats (SPIRV-Tools hex_float.h). */
static void test_bf16_fp8(void **state)
{
    (void)state;
    static const char src[] = "OpCapability Shader\n"
                              "OpCapability Float8EXT\n"
                              "OpCapability BFloat16TypeKHR\n"
                              "OpMemoryModel Logical GLSL450\n"
                              "%1 = OpTypeFloat 16 BFloat16KHR\n"
                              "%2 = OpTypeFloat 8 Float8E4M3EXT\n"
                              "%3 = OpTypeFloat 8 Float8E5M2EXT\n"
                              "%4 = OpConstant %1 1.5\n"
                              "%5 = OpConstant %2 1.5\n"
                              "%6 = OpConstant %3 -2.0\n"
                              "%7 = OpConstant %2 0x1.cp+8\n"
                              "%8 = OpConstant %1 -0x1p-133\n";
    uint32_t *w = NULL;
    size_t n = 0;
    cvm_diagnostic d;
    cvm_result r = cvm_assemble(src, sizeof(src) - 1, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &w,
                                &n, &d);
    if (r != CVM_SUCCESS)
        fail_msg("%u:%u: %s", d.line, d.column, d.message);
    /* 5 header + 2 + 2 + 3 + 3 + 4 + 4 + 4 + 4 + 4 + 4 + 4 + 4 words */
    assert_int_equal(n, 5 + 2 + 2 + 2 + 3 + 4 + 4 + 4 + 4 * 5);
    const uint32_t *c = w + n - 5 * 4; /* the five OpConstants */
    const uint32_t want[5] = {0x3fc0, 0x3c, 0xc0, 0x7e, 0x8001};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(c[i * 4] & 0xffff, 43 /* OpConstant */);
        assert_int_equal(c[i * 4 + 3], want[i]);
    }
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(cvm_disassemble(w, n, CVM_TEXT_NO_HEADER, &text, &len, &d), CVM_SUCCESS);
    static const char *const lines[] = {
        "  %bfloat16 = OpTypeFloat 16 BFloat16KHR\n",
        "   %fp8e4m3 = OpTypeFloat 8 Float8E4M3EXT\n",
        "   %fp8e5m2 = OpTypeFloat 8 Float8E5M2EXT\n",
        "%bfloat16_0x1_8p_0 = OpConstant %bfloat16 0x1.8p+0\n",
        "%fp8e4m3_0x1_8p_0 = OpConstant %fp8e4m3 0x1.8p+0\n",
        "%fp8e5m2_n0x1p_1 = OpConstant %fp8e5m2 -0x1p+1\n",
        "%fp8e4m3_0x1_cp_8 = OpConstant %fp8e4m3 0x1.cp+8\n",
        "%bfloat16_n0x1pn133 = OpConstant %bfloat16 -0x1p-133\n",
    };
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
        if (!strstr(text, lines[i]))
            fail_msg("missing line: %s in:\n%s", lines[i], text);
    cvm_free(text);
    cvm_free(w);
}

/* Round trip of raw words: unknown opcodes and enumerants print as OpUnknown
 * and assemble back to the same words. */
static void test_unknown_round_trip(void **state)
{
    (void)state;
    const uint32_t m[] = {0x07230203, 0x00010600, 0, 10, 0,
                          0x00020011, 1,              /* OpCapability Shader */
                          0x00031234, 7, 9,           /* opcode 0x1234: unknown */
                          0x00020011, 0x7ffffff0};    /* unknown capability */
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(cvm_disassemble(m, sizeof(m) / 4, CVM_TEXT_RAW_ID, &text, &len, NULL),
                     CVM_SUCCESS);
    assert_non_null(strstr(text, "OpUnknown(4660, 3) 7 9"));
    assert_non_null(strstr(text, "OpUnknown(17, 2) 2147483632"));
    uint32_t *w = NULL;
    size_t n = 0;
    assert_int_equal(cvm_assemble(text, len, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &w, &n, NULL),
                     CVM_SUCCESS);
    assert_int_equal(n, sizeof(m) / 4);
    for (size_t i = 5; i < n; i++)
        assert_int_equal(w[i], m[i]);
    cvm_free(w);
    cvm_free(text);
}

/* Malformed binaries end in CVM_ERROR_MALFORMED with the word offset. */
static void test_dis_errors(void **state)
{
    (void)state;
    char *text = NULL;
    cvm_diagnostic d;
    const uint32_t short_header[] = {0x07230203, 0x00010600, 0};
    assert_int_equal(cvm_disassemble(short_header, 3, 0, &text, NULL, &d), CVM_ERROR_MALFORMED);
    const uint32_t bad_magic[] = {0x12345678, 0x00010600, 0, 5, 0};
    assert_int_equal(cvm_disassemble(bad_magic, 5, 0, &text, NULL, &d), CVM_ERROR_MALFORMED);
    const uint32_t truncated[] = {0x07230203, 0x00010600, 0, 5, 0, 0x00040015, 1, 32};
    assert_int_equal(cvm_disassemble(truncated, 8, 0, &text, NULL, &d), CVM_ERROR_MALFORMED);
    assert_int_equal(d.word_offset, 5);
    const uint32_t zero_count[] = {0x07230203, 0x00010600, 0, 5, 0, 0x00000011};
    assert_int_equal(cvm_disassemble(zero_count, 6, 0, &text, NULL, &d), CVM_ERROR_MALFORMED);
    /* OpTypeInt missing its signedness operand. */
    const uint32_t missing[] = {0x07230203, 0x00010600, 0, 5, 0, 0x00030015, 1, 32};
    assert_int_equal(cvm_disassemble(missing, 8, 0, &text, NULL, &d), CVM_ERROR_MALFORMED);
    /* OpConstant whose type is not a numeric type. */
    const uint32_t bad_type[] = {0x07230203, 0x00010600, 0, 5, 0, 0x00020013, 1,
                                 0x0004002b, 1, 2, 7};
    assert_int_equal(cvm_disassemble(bad_type, 11, 0, &text, NULL, &d), CVM_ERROR_MALFORMED);
    assert_int_equal(d.word_offset, 7);
    assert_null(text);
}

/* Assembler errors: one test per message, checking line and column (the
 * expected column is where the offending word starts in the source). */
typedef struct error_case {
    const char *src;
    const char *at;       /* the word the error points at (first match) */
    const char *message;  /* a substring of the message */
} error_case;

static void expect_error(const error_case *e, uint32_t flags)
{
    uint32_t *w = NULL;
    size_t n = 0;
    cvm_diagnostic d;
    cvm_result r = cvm_assemble(e->src, strlen(e->src), flags, NULL, &w, &n, &d);
    if (r != CVM_ERROR_SYNTAX)
        fail_msg("'%s': result %s, want CVM_ERROR_SYNTAX", e->src, cvm_result_string(r));
    assert_null(w);
    const char *p = strstr(e->src, e->at);
    assert_non_null(p);
    uint32_t line = 1, col = 1;
    for (const char *q = e->src; q < p; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (d.line != line || d.column != col || !strstr(d.message, e->message))
        fail_msg("'%s': got %u:%u '%s', want %u:%u '%s'", e->src, d.line, d.column, d.message,
                 line, col, e->message);
}

static const error_case error_cases[] = {
    /* unknown opcode */
    {"OpCapability Shader\n%1 = OpFooBar\n", "OpFooBar", "Invalid Opcode name 'OpFooBar'"},
    /* too few operands: the next instruction comes first */
    {"%1 = OpTypeInt 32\n%2 = OpTypeVoid\n", "%2", "Expected operand for OpTypeInt"},
    /* too few operands at the end of the text */
    {"OpMemoryModel Logical", "", "found the end of the stream"},
    /* too many operands: the extra word cannot start an instruction */
    {"OpCapability Shader Float16\n", "Float16", "Expected <opcode> or <result-id>"},
    /* bad literals */
    {"%1 = OpTypeInt 32 x\n", "x", "Invalid unsigned integer literal: x"},
    {"%1 = OpTypeInt 8 0\n%2 = OpConstant %1 256\n", "256",
     "Integer 256 does not fit in a 8-bit unsigned integer"},
    {"%1 = OpTypeInt 32 0\n%2 = OpConstant %1 -1\n", "-1",
     "Cannot put a negative number in an unsigned literal"},
    {"%1 = OpTypeInt 16 1\n%2 = OpConstant %1 0x10000\n", "0x10000",
     "Integer 0x10000 does not fit in a 16-bit signed integer"},
    {"%1 = OpTypeFloat 32\n%2 = OpConstant %1 1.5x\n", "1.5x",
     "Invalid 32-bit float literal: 1.5x"},
    {"%1 = OpTypeFloat 16\n%2 = OpConstant %1 1e9\n", "1e9", "Invalid 16-bit float literal"},
    {"%v = OpTypeVoid\n%c = OpConstant %v 1\n", "1\n", "must be a scalar floating point or integer"},
    {"OpExtension foo\n", "foo", "Invalid literal string 'foo'."},
    {"OpExtension 12\n", "12", "Expected literal string, found literal number '12'."},
    {"%1 = OpTypeInt !x 0\n", "!x", "Invalid immediate integer: !x"},
    /* undefined and redefined ids */
    {"OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n",
     "%main", "ID %main is used but never defined"},
    {"%1 = OpTypeVoid\n%1 = OpTypeBool\n", "%1 = OpTypeBool", "ID %1 has already been defined"},
    /* ids */
    {"%1 = OpTypeInt 32 0\n%2 = OpTypePointer Function 5\n", "5", "Expected id to start with %"},
    {"%1 = OpTypeInt 32 0\n%2 = OpTypePointer Function %a-b\n", "%a-b", "Invalid ID a-b"},
    /* enumerants and masks */
    {"OpCapability Shaderz\n", "Shaderz", "Invalid Capability 'Shaderz'."},
    {"%1 = OpTypeVoid\n%2 = OpTypeFunction %1\n%3 = OpFunction %1 Inline|Bogus %2\n",
     "Inline|Bogus", "Invalid FunctionControl operand 'Inline|Bogus'."},
    /* result ids */
    {"%1 = OpCapability Shader\n", "%1", "Cannot set ID %1 because OpCapability does not"},
    {"OpTypeVoid\n", "OpTypeVoid", "Expected <result-id> at the beginning"},
    {"%1 OpTypeVoid\n", "OpTypeVoid", "'=' expected after result id but found 'OpTypeVoid'."},
    {"%1 = TypeVoid\n", "TypeVoid", "Invalid Opcode prefix 'TypeVoid'."},
    {"foo\n", "foo", "Expected <opcode> or <result-id> at the beginning of an instruction"},
    /* extended instructions */
    {"%1 = OpExtInstImport \"GLSL.std.450\"\n%2 = OpTypeFloat 32\n%3 = OpUndef %2\n"
     "%4 = OpExtInst %2 %1 Foo %3\n",
     "Foo", "Invalid extended instruction name 'Foo'."},
    {"%2 = OpTypeFloat 32\n%3 = OpUndef %2\n%4 = OpExtInst %2 %3 Sqrt %3\n", "%3 Sqrt",
     "Invalid extended instruction import Id"},
    /* OpSpecConstantOp with an unknown opcode */
    {"%1 = OpTypeInt 32 0\n%2 = OpSpecConstantOp %1 Frobnicate %1\n", "Frobnicate",
     "Invalid LiteralSpecConstantOpInteger 'Frobnicate'."},
    /* OpUnknown */
    {"OpUnknown(12 3) 1 2\n", "3)", "',' expected after opcode enumerant"},
    {"OpUnknown(12, 0)\n", ")", "must be greater than zero"},
    {"OpUnknown(12, 3) 1\nOpCapability Shader\n", "OpCapability",
     "Unexpected start of new instruction"},
};

static void test_assembler_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++) {
        const error_case *e = &error_cases[i];
        if (e->at[0] == '\0') {
            /* The error is at the end of the text: line 1, after the last
             * character. */
            cvm_diagnostic d;
            uint32_t *w = NULL;
            assert_int_equal(cvm_assemble(e->src, strlen(e->src), 0, NULL, &w, NULL, &d),
                             CVM_ERROR_SYNTAX);
            assert_int_equal(d.line, 1);
            assert_int_equal(d.column, strlen(e->src) + 1);
            assert_non_null(strstr(d.message, e->message));
            continue;
        }
        expect_error(e, 0);
        expect_error(e, CVM_TEXT_PRESERVE_NUMERIC_IDS);
    }
}

static void test_assemble_arguments(void **state)
{
    (void)state;
    uint32_t *w = NULL;
    size_t n = 0;
    cvm_diagnostic d;
    assert_int_equal(cvm_assemble("", 0, 0, "spv9.9", &w, &n, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cvm_assemble("", 0, 0, NULL, NULL, &n, &d), CVM_ERROR_INVALID_ARGUMENT);
    /* Empty text: a header only, bound 1, version from the environment. */
    assert_int_equal(cvm_assemble("; nothing\n", 10, 0, "vulkan1.1", &w, &n, &d), CVM_SUCCESS);
    assert_int_equal(n, 5);
    assert_int_equal(w[0], 0x07230203);
    assert_int_equal(w[1], 0x00010300);
    assert_int_equal(w[3], 1);
    cvm_free(w);
}

/* Without a target environment the header version comes from a
 * "; Version: 1.D" comment at the top, as spirv-as takes it (the expected
 * versions are what spirv-as wrote for the same texts). */
static void test_assemble_version_comment(void **state)
{
    (void)state;
    static const struct {
        const char *text, *env;
        uint32_t version;
    } cases[] = {
        {"; SPIR-V\n; Version: 1.3\n", NULL, 0x10300},
        {"; Version: 1.0", NULL, 0x10000},          /* no newline at the end */
        {"; Version: 1.7\n", NULL, 0x10600},        /* past 1.6: the default */
        {"; Version: 1.33\n", NULL, 0x10600},       /* two digits: no match */
        {"; Version: 1.2x\n", NULL, 0x10200},       /* a letter after the digit is fine */
        {"OpCapability Shader\n; Version: 1.2\n", NULL, 0x10600}, /* after the header */
        {"\n  \t; Version: 1.4\n", NULL, 0x10400},  /* blanks before it */
        {";Version: 1.2\n", NULL, 0x10600},
        {"; a\n; Version: 1.5\n; Version: 1.1\n", NULL, 0x10500}, /* the first wins */
        {"; Version: 1.", NULL, 0x10600},
        {"; Version: 1.2\n", "spv1.5", 0x10500},   /* the environment wins */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t *w = NULL;
        size_t n = 0;
        cvm_diagnostic d;
        assert_int_equal(
            cvm_assemble(cases[i].text, strlen(cases[i].text), 0, cases[i].env, &w, &n, &d),
            CVM_SUCCESS);
        assert_true(n >= 5);
        if (w[1] != cases[i].version)
            fail_msg("case %zu: version 0x%x, expected 0x%x", i, w[1], cases[i].version);
        cvm_free(w);
    }
}

/* Out of memory at every allocation: a status, no crash, no leak (the
 * sanitizer build checks leaks). */
static void test_out_of_memory(void **state)
{
    (void)state;
    assert_true(g_module_count > 0);
    size_t spv_size, src_size;
    char *spv = tt_read_ext(g_modules[0], ".spv", &spv_size);
    char *src = tt_read_ext(g_modules[0], ".spvasm", &src_size);
    assert_non_null(spv);
    assert_non_null(src);
    int dis_ok = 0, as_ok = 0;
    for (uint64_t k = 1; k < 4000 && !(dis_ok && as_ok); k++) {
        char *text = NULL;
        uint32_t *w = NULL;
        cvm_test_fail_allocation_after(k);
        cvm_result r1 = cvm_disassemble((const uint32_t *)spv, spv_size / 4, 0, &text, NULL, NULL);
        cvm_test_fail_allocation_after(k);
        cvm_result r2 =
            cvm_assemble(src, src_size, CVM_TEXT_PRESERVE_NUMERIC_IDS, NULL, &w, NULL, NULL);
        cvm_test_fail_allocation_after(0);
        assert_true(r1 == CVM_SUCCESS || r1 == CVM_ERROR_OUT_OF_MEMORY);
        if (r2 != CVM_SUCCESS && r2 != CVM_ERROR_OUT_OF_MEMORY)
            fail_msg("allocation %llu: assemble gave %s", (unsigned long long)k,
                     cvm_result_string(r2));
        dis_ok |= r1 == CVM_SUCCESS;
        as_ok |= r2 == CVM_SUCCESS;
        cvm_free(text);
        cvm_free(w);
    }
    assert_true(dis_ok && as_ok);
    free(spv);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_found),
        cmocka_unit_test(test_corpus_disassemble),
        cmocka_unit_test(test_corpus_assemble),
        cmocka_unit_test(test_corpus_round_trip),
        cmocka_unit_test(test_golden_kinds),
        cmocka_unit_test(test_bf16_fp8),
        cmocka_unit_test(test_unknown_round_trip),
        cmocka_unit_test(test_dis_errors),
        cmocka_unit_test(test_assembler_errors),
        cmocka_unit_test(test_assemble_arguments),
        cmocka_unit_test(test_assemble_version_comment),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
