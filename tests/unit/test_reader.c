/* SPIR-V binary reader: header checks and the bounded instruction stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "spirv/spirv_grammar.h"
#include "spirv/spirv_reader.h"

static void test_header_too_short(void **state)
{
    (void)state;
    uint32_t w[4] = {SPV_MAGIC_NUMBER, 0x00010600, 0, 10};
    spv_binary b;
    cvm_diagnostic d;
    cvm_diag_clear(&d);
    assert_int_equal(spv_binary_open(&b, w, 4, &d), CVM_ERROR_MALFORMED);
    assert_int_equal(d.word_offset, 0);
}

static void test_bad_magic(void **state)
{
    (void)state;
    uint32_t w[5] = {0x12345678, 0x00010600, 0, 10, 0};
    spv_binary b;
    cvm_diagnostic d;
    assert_int_equal(spv_binary_open(&b, w, 5, &d), CVM_ERROR_MALFORMED);
    assert_non_null(strstr(d.message, "magic"));
}

static void test_swapped_magic(void **state)
{
    (void)state;
    uint32_t w[6] = {0x03022307, 0x00060100, 0, 0x0a000000, 0, 0x00000100 /* OpNop, swapped */};
    spv_binary b;
    assert_int_equal(spv_binary_open(&b, w, 6, NULL), CVM_SUCCESS);
    assert_int_equal(b.header.bound, 10);
    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    assert_int_equal(spv_next_inst(&b, &off, &in, NULL), 1);
    assert_int_equal(in.opcode, SpvOpNop);
    assert_int_equal(spv_next_inst(&b, &off, &in, NULL), 0);
    spv_binary_release(&b);
}

static void test_truncated_instruction(void **state)
{
    (void)state;
    /* OpCapability claims 3 words, 1 remains after it. */
    uint32_t w[7] = {SPV_MAGIC_NUMBER, 0x00010600, 0, 10, 0, (3u << 16) | SpvOpCapability, 1};
    spv_binary b;
    cvm_diagnostic d;
    assert_int_equal(spv_binary_open(&b, w, 7, NULL), CVM_SUCCESS);
    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    assert_int_equal(spv_next_inst(&b, &off, &in, &d), -1);
    assert_int_equal(d.word_offset, 5);
    spv_binary_release(&b);
}

static void test_zero_word_count(void **state)
{
    (void)state;
    uint32_t w[6] = {SPV_MAGIC_NUMBER, 0x00010600, 0, 10, 0, 0};
    spv_binary b;
    cvm_diagnostic d;
    assert_int_equal(spv_binary_open(&b, w, 6, NULL), CVM_SUCCESS);
    size_t off = SPV_HEADER_WORDS;
    spv_inst in;
    assert_int_equal(spv_next_inst(&b, &off, &in, &d), -1);
    spv_binary_release(&b);
}

static void test_unterminated_string(void **state)
{
    (void)state;
    uint32_t w[3] = {(3u << 16) | SpvOpExtension, 0x41414141, 0x41414141};
    spv_inst in = {w, SpvOpExtension, 3, 5};
    const char *s = NULL;
    assert_int_equal(spv_inst_string(&in, 1, &s), 0);
    w[2] = 0x00414141;
    assert_int_equal(spv_inst_string(&in, 1, &s), 2);
    assert_string_equal(s, "AAAAAAA");
}

static void test_grammar_lookup(void **state)
{
    (void)state;
    const spv_instruction_desc *d = spv_grammar_instruction(5366);
    assert_non_null(d);
    assert_string_equal(d->name, "OpCooperativeMatrixReduceEXT");
    const char *alias = "OpCooperativeMatrixReduceNV";
    assert_ptr_equal(spv_grammar_instruction_by_name(alias, strlen(alias)), d);
    const spv_enumerant_desc *e =
        spv_grammar_enumerant(SPV_OPERAND_Capability, SpvCapabilityCooperativeMatrixKHR);
    assert_non_null(e);
    assert_string_equal(e->name, "CooperativeMatrixKHR");
    assert_null(spv_grammar_instruction(0xfffe));
}

/* The plain reference for the lookups by name: a scan in table order, first
 * match by name or alias wins. */
static int same_name(const char *a, const char *key, size_t len)
{
    return strlen(a) == len && memcmp(a, key, len) == 0;
}

static const spv_instruction_desc *scan_instruction(const char *key, size_t len)
{
    for (size_t i = 0; i < spv_instruction_count; i++) {
        const spv_instruction_desc *d = &spv_instructions[i];
        if (same_name(d->name, key, len))
            return d;
        for (uint16_t a = 0; a < d->num_aliases; a++)
            if (same_name(d->aliases[a], key, len))
                return d;
    }
    return NULL;
}

static const spv_enumerant_desc *scan_enumerant(spv_operand_kind kind, const char *key, size_t len)
{
    const spv_operand_kind_desc *k = &spv_operand_kinds[kind];
    for (size_t i = 0; i < k->num_enumerants; i++) {
        const spv_enumerant_desc *e = &k->enumerants[i];
        if (same_name(e->name, key, len))
            return e;
        for (uint16_t a = 0; a < e->num_aliases; a++)
            if (same_name(e->aliases[a], key, len))
                return e;
    }
    return NULL;
}

/* Every name and alias, and keys one byte short, one byte long, with a NUL
 * inside or a changed last byte, give what the scan gives. */
static void check_keys(const char *name, spv_operand_kind kind, int *checked)
{
    char key[256];
    size_t n = strlen(name);
    assert_true(n + 2 < sizeof(key));
    const size_t lens[] = {n, n - (n > 0), n + 1};
    for (int variant = 0; variant < 5; variant++) {
        memcpy(key, name, n + 1);
        size_t len = variant < 3 ? lens[variant] : n;
        if (variant == 2)
            key[n] = 'X';
        if (variant == 3 && n > 1)
            key[n / 2] = '\0';
        if (variant == 4 && n > 0)
            key[n - 1] ^= 0x20;
        if ((int)kind < 0) {
            assert_ptr_equal(spv_grammar_instruction_by_name(key, len), scan_instruction(key, len));
        } else {
            assert_ptr_equal(spv_grammar_enumerant_by_name(kind, key, len),
                             scan_enumerant(kind, key, len));
        }
        (*checked)++;
    }
}

static void test_grammar_lookup_by_name(void **state)
{
    (void)state;
    int checked = 0, found = 0;
    for (size_t i = 0; i < spv_instruction_count; i++) {
        const spv_instruction_desc *d = &spv_instructions[i];
        check_keys(d->name, (spv_operand_kind)-1, &checked);
        found += spv_grammar_instruction_by_name(d->name, strlen(d->name)) == d;
        for (uint16_t a = 0; a < d->num_aliases; a++)
            check_keys(d->aliases[a], (spv_operand_kind)-1, &checked);
    }
    assert_int_equal(found, (int)spv_instruction_count);
    for (int k = 0; k < SPV_OPERAND_KIND_COUNT; k++) {
        const spv_operand_kind_desc *kd = &spv_operand_kinds[k];
        for (size_t i = 0; i < kd->num_enumerants; i++) {
            check_keys(kd->enumerants[i].name, (spv_operand_kind)k, &checked);
            for (uint16_t a = 0; a < kd->enumerants[i].num_aliases; a++)
                check_keys(kd->enumerants[i].aliases[a], (spv_operand_kind)k, &checked);
        }
    }
    for (size_t i = 0; i < spv_glsl_std450_count; i++) {
        const char *n = spv_glsl_std450[i].name;
        assert_ptr_equal(spv_grammar_glsl_std450_by_name(n, strlen(n)), &spv_glsl_std450[i]);
        assert_ptr_not_equal(spv_grammar_glsl_std450_by_name(n, strlen(n) - 1),
                             &spv_glsl_std450[i]);
    }
    assert_null(spv_grammar_instruction_by_name("", 0));
    assert_null(spv_grammar_enumerant_by_name(SPV_OPERAND_KIND_COUNT, "Shader", 6));
    assert_true(checked > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_too_short),    cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_swapped_magic),       cmocka_unit_test(test_truncated_instruction),
        cmocka_unit_test(test_zero_word_count),     cmocka_unit_test(test_unterminated_string),
        cmocka_unit_test(test_grammar_lookup),      cmocka_unit_test(test_grammar_lookup_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
