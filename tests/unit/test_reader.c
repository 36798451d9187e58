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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_too_short),    cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_swapped_magic),       cmocka_unit_test(test_truncated_instruction),
        cmocka_unit_test(test_zero_word_count),     cmocka_unit_test(test_unterminated_string),
        cmocka_unit_test(test_grammar_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
