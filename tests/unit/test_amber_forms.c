/* The script forms added for real inputs (issue 14), against the fake engine
 * (fake_engine.c): VkScript, google/amber's number and float16 conventions,
 * STD140, DEVICE_PROPERTY, dynamic buffers and descriptor ranges, FILE TEXT
 * with comments, EXPECT TOLERANCE per component, EQ on floats, GLSL shaders.
 * Every expected value here is worked out by hand or by a small model in
 * this file, never taken from a run. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "amber/amber.h"
#include "amber/amber_internal.h"
#include "fake_engine.c"

/* Helpers ----------------------------------------------------------------- */

static cvm_amber_script *parse_ok(const char *text)
{
    cvm_amber_script *s = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_parse(text, strlen(text), "/virtual/t.amber", &s, &d);
    if (r != CVM_SUCCESS)
        print_error("unexpected parse error %s at %u:%u: %s\n", cvm_result_string(r), d.line,
                    d.column, d.message);
    assert_int_equal(r, CVM_SUCCESS);
    assert_non_null(s);
    return s;
}

static void parse_fails(const char *text, cvm_result want, uint32_t line, const char *part)
{
    cvm_amber_script *s = (cvm_amber_script *)1;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_parse(text, strlen(text), "/virtual/t.amber", &s, &d);
    if (r != want || d.line != line || !strstr(d.message, part))
        print_error("got %s line %u '%s', wanted %s line %u '...%s...'\n", cvm_result_string(r),
                    d.line, d.message, cvm_result_string(want), line, part);
    assert_int_equal(r, want);
    assert_int_equal(d.line, line);
    assert_non_null(strstr(d.message, part));
    assert_null(s);
}

static uint32_t buffer_index(const cvm_amber_script *s, const char *name)
{
    uint32_t i = cvm_amber_find_buffer(s, name);
    if (i == UINT32_MAX)
        print_error("no buffer '%s'\n", name);
    assert_int_not_equal(i, UINT32_MAX);
    return i;
}

static uint32_t u32_at(const void *p, size_t byte)
{
    uint32_t v;
    memcpy(&v, (const char *)p + byte, 4);
    return v;
}

static float f32_at(const void *p, size_t byte)
{
    float v;
    memcpy(&v, (const char *)p + byte, 4);
    return v;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* Runs `text` through cvm_amber_execute with `hook` as the shader; returns
 * the report (the caller releases it) and the result. */
static cvm_result execute(const char *text,
                          cvm_result (*hook)(cvm_pipeline *, const uint32_t *, cvm_diagnostic *),
                          cvm_amber_report *rep, cvm_amber_script **o_s)
{
    cvm_amber_script *s = parse_ok(text);
    fake_reset();
    fake.dispatch_hook = hook;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_execute(s, NULL, rep, &d);
    if (r != CVM_SUCCESS && r != CVM_ERROR_EXPECTATION_FAILED)
        print_error("execute: %s line %u: %s\n", cvm_result_string(r), d.line, d.message);
    *o_s = s;
    return r;
}

/* A SPIR-V header as a hex shader (enough for the fake engine). */
#define HEX_SHADER "03 02 23 07 00 06 01 00 00 00 00 00 08 00 00 00 00 00 00 00\n"

/* VkScript ------------------------------------------------------------------ */

static const char *vk_all =
    "# comment before the first section\n"
    "\n"
    "[require]\n"
    "VK_KHR_cooperative_matrix   # an extension\n"
    "CooperativeMatrixFeaturesKHR.cooperativeMatrix\n"
    "SubgroupSizeControl.subgroupSizeControl\n"
    "fence_timeout 2000\n"
    "\n"
    "[compute shader spirv hex]\n" HEX_SHADER
    "\n"
    "[test]\n"
    "ssbo 0:1 4\n"                                 /* 4 elements of its format, uint: 16 bytes */
    "ssbo 2 subdata int 8 -1 -2\n"                 /* set 0, binding 2: bytes 8..16 */
    "uniform ubo 0:3 mat2 0 1 2 3 4\n"             /* std140 mat2: columns 16 apart */
    "uniform int 4 7\n"                            /* push constants, bytes 4..8 */
    "compute 1 1 1\n"
    "tolerance 0.5\n"
    "probe ssbo uint 0:1 0 == 1 2 \\\n"
    "   3 4\n"                                     /* continued */
    "probe ssbo ivec3 0:2 0 ~= 0 0 -1\n"          /* ivec3: 12 of its 16 bytes */
    "tolerance 1 2 3% 4 %\n"
    "probe ssbo vec4 0:3 0 ~= 1.5 3.5 0 0\n"
    "compute entrypoint other\n"
    "compute 2 3 4\n"
    "probe ssbo float 0:3 16 >= 3\n"
    "ssbo 0:1 subdata uint 4 9\n";

static void test_vkscript_parse(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok(vk_all);
    assert_true(s->vkscript);
    assert_int_equal(s->extension_count, 1);
    assert_string_equal(s->extensions[0].name, "VK_KHR_cooperative_matrix");
    assert_int_equal(s->extensions[0].line, 4);
    assert_int_equal(s->feature_count, 2);
    assert_string_equal(s->features[0].name, "CooperativeMatrixFeaturesKHR.cooperativeMatrix");
    assert_string_equal(s->features[1].name, "SubgroupSizeControl.subgroupSizeControl");
    assert_int_equal(s->shader_count, 1);
    assert_int_equal(s->shaders[0].format, CVM_AMBER_SPIRV_HEX);
    assert_int_equal(s->shaders[0].line, 9);

    /* buffers: one per binding, sized as google/amber sizes them */
    const cvm_amber_buffer *b1 = &s->buffers[buffer_index(s, "ssbo 0:1")];
    assert_int_equal(b1->size, 16);
    const cvm_amber_buffer *b2 = &s->buffers[buffer_index(s, "ssbo 0:2")];
    assert_int_equal(b2->size, 16);
    const cvm_amber_buffer *b3 = &s->buffers[buffer_index(s, "ubo 0:3")];
    assert_int_equal(b3->size, 32); /* a std140 mat2: two 16-byte columns */
    const cvm_amber_buffer *pc = &s->buffers[buffer_index(s, "push")];
    assert_int_equal(pc->size, 8);

    /* one pipeline per entry point, each binding every buffer */
    assert_int_equal(s->pipeline_count, 2);
    assert_string_equal(s->pipelines[0].entry_point, "main");
    assert_string_equal(s->pipelines[1].entry_point, "other");
    assert_int_equal(s->pipelines[1].binding_count, 4);

    /* the commands, in order */
    static const cvm_amber_command_kind kinds[] = {
        CVM_AMBER_CMD_WRITE, CVM_AMBER_CMD_WRITE, CVM_AMBER_CMD_WRITE, CVM_AMBER_CMD_RUN,
        CVM_AMBER_CMD_EXPECT, CVM_AMBER_CMD_EXPECT, CVM_AMBER_CMD_EXPECT, CVM_AMBER_CMD_RUN,
        CVM_AMBER_CMD_EXPECT, CVM_AMBER_CMD_WRITE};
    assert_int_equal(s->command_count, CVM_FAKE_ARRAY_SIZE(kinds));
    for (size_t i = 0; i < CVM_FAKE_ARRAY_SIZE(kinds); i++)
        assert_int_equal(s->commands[i].kind, kinds[i]);
    const cvm_amber_command *c = s->commands;
    assert_int_equal(c[0].offset, 8);
    assert_int_equal(c[0].data_size, 8);
    assert_int_equal((int32_t)u32_at(c[0].data, 4), -2);
    assert_int_equal(c[1].data_size, 32);
    assert_true(f32_at(c[1].data, 16) == 3.0f && f32_at(c[1].data, 20) == 4.0f);
    assert_int_equal(c[2].offset, 4);
    assert_int_equal(c[3].pipeline, 0);
    assert_int_equal(c[7].pipeline, 1);
    assert_true(c[7].groups[0] == 2 && c[7].groups[1] == 3 && c[7].groups[2] == 4);
    /* probes carry their own type; ~= takes the tolerances in force */
    assert_int_equal(c[4].value_count, 4);
    assert_int_equal(c[4].line, 19);
    assert_string_equal(c[4].text, "probe ssbo uint 0:1 0 == 1 2 3 4");
    assert_int_equal(c[4].tolerance_count, 0); /* == ignores tolerances */
    assert_int_equal(c[5].value_count, 3);
    assert_int_equal(c[5].value_type.rows, 3);
    assert_int_equal(c[5].value_type.scalar, CVM_AMBER_INT32);
    assert_int_equal(c[5].tolerance_count, 1);
    assert_true(c[5].tolerances[0] == 0.5);
    assert_int_equal(c[6].tolerance_count, 4);
    assert_true(c[6].tolerances[2] == 3.0 && c[6].tolerance_percent[2]);
    assert_true(c[6].tolerances[3] == 4.0 && c[6].tolerance_percent[3]);
    assert_false(c[6].tolerance_percent[0]);
    assert_true(c[6].value_type.std140); /* a probe of a uniform buffer */
    assert_int_equal(c[8].compare, CVM_AMBER_GE);
    assert_int_equal(s->run_count, 2);
    assert_int_equal(s->expect_count, 4);
    cvm_amber_script_destroy(s);

    /* [require]: VkPhysicalDeviceFeatures members and Struct.member names are
     * features, other names extensions (google/amber's rule) */
    s = parse_ok("[require]\nshaderInt16\nVK_KHR_spirv_1_4\nrobustBufferAccess\n"
                 "Storage8BitFeatures.storageBuffer8BitAccess\n"
                 "[compute shader spirv hex]\n" HEX_SHADER);
    assert_int_equal(s->feature_count, 3);
    assert_string_equal(s->features[0].name, "shaderInt16");
    assert_string_equal(s->features[1].name, "robustBufferAccess");
    assert_int_equal(s->extension_count, 1);
    assert_string_equal(s->extensions[0].name, "VK_KHR_spirv_1_4");
    assert_int_equal(s->run_count, 0);
    cvm_amber_script_destroy(s);
}

/* The fake shader for vk_all: on the first dispatch checks that the writes
 * before it landed, then stores 1..4 into binding 1 and doubles the two
 * ints of binding 2; on the second checks its entry point. */
static int vk_dispatches;
static cvm_result vk_hook(cvm_pipeline *p, const uint32_t groups[3], cvm_diagnostic *d)
{
    (void)groups;
    fake_binding *b1 = fake_find_binding(p, 0, 1, 0), *b2 = fake_find_binding(p, 0, 2, 0);
    fake_binding *b3 = fake_find_binding(p, 0, 3, 0);
    if (!b1 || !b2 || !b3 || b1->size != 16 || b2->size != 16 || b3->size != 32 ||
        p->push_size != 8) {
        fake_diag(d, CVM_ERROR_MISSING_BINDING, "fake: bindings");
        return CVM_ERROR_MISSING_BINDING;
    }
    if (vk_dispatches++ == 1) {
        if (strcmp(p->entry, "other")) {
            fake_diag(d, CVM_ERROR_NOT_FOUND, "fake: the second RUN is not entry 'other'");
            return CVM_ERROR_NOT_FOUND;
        }
        return CVM_SUCCESS;
    }
    int32_t pushed;
    memcpy(&pushed, p->push + 4, 4);
    if ((int32_t)u32_at(b2->data, 8) != -1 || (int32_t)u32_at(b2->data, 12) != -2 ||
        pushed != 7 || f32_at(b3->data, 4) != 2.0f || f32_at(b3->data, 16) != 3.0f ||
        strcmp(p->entry, "main")) {
        fake_diag(d, CVM_ERROR_INVALID_ARGUMENT, "fake: the writes did not land");
        return CVM_ERROR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t v = i + 1;
        memcpy((char *)b1->data + 4 * i, &v, 4);
    }
    int32_t w[2] = {(int32_t)u32_at(b2->data, 8) * 2, (int32_t)u32_at(b2->data, 12) * 2};
    memcpy((char *)b2->data + 8, w, 8);
    return CVM_SUCCESS;
}

static void test_vkscript_execute(void **state)
{
    (void)state;
    cvm_amber_report rep;
    cvm_amber_script *s;
    vk_dispatches = 0;
    assert_int_equal(execute(vk_all, vk_hook, &rep, &s), CVM_ERROR_EXPECTATION_FAILED);
    assert_int_equal(vk_dispatches, 2);
    assert_int_equal(rep.result_count, 4);
    /* uint 1 2 3 4 */
    assert_true(rep.results[0].passed);
    /* ivec3 (0 0 -2) after doubling, against (0 0 -1) within 0.5 */
    assert_false(rep.results[1].passed);
    assert_int_equal(rep.results[1].mismatches, 1);
    assert_int_equal(rep.results[1].first_index, 2);
    assert_true(rep.results[1].got_value == -2.0);
    /* the ubo's first column, 1 2 (0 0 padding), against 1.5 3.5 0 0 with
     * tolerances 1, 2, 3%, 4%: each within its own */
    assert_true(rep.results[2].passed);
    assert_true(rep.results[3].passed);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
}

static void test_vkscript_errors(void **state)
{
    (void)state;
    parse_fails("[vertex shader]\nvoid main(){}\n", CVM_ERROR_UNSUPPORTED, 1, "graphics");
    parse_fails("[require]\nframebuffer R8G8B8A8_UNORM\n[compute shader spirv hex]\n" HEX_SHADER,
                CVM_ERROR_UNSUPPORTED, 2, "graphics");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\ndraw rect 0 0 1 1\n",
                CVM_ERROR_UNSUPPORTED, 4, "graphics command");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nprobe rgba 0 0 1 1 1 1\n",
                CVM_ERROR_UNSUPPORTED, 4, "probe ssbo is supported");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nfrobnicate 1\n",
                CVM_ERROR_SYNTAX, 4, "expected a command");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nprobe ssbo int 0:5 0 == 1\n",
                CVM_ERROR_NOT_FOUND, 4, "binding 5");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nssbo 0 subdata quad 0 1\n",
                CVM_ERROR_SYNTAX, 4, "a data type");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nssbo 0 subdata int 2 1\n",
                CVM_ERROR_SYNTAX, 4, "not a multiple of 4");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nssbo 0 subdata vec2 0 1\n",
                CVM_ERROR_SYNTAX, 4, "multiple of the 2");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nssbo x:1 4\n",
                CVM_ERROR_SYNTAX, 4, "SET:BINDING");
    /* the script's buffers and push constants hold 512 MiB in all
     * (CVM_AMBER_MAX_BUFFER_BYTES): each alone, and the second of two */
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nssbo 0:1 4000000000\n",
                CVM_ERROR_UNSUPPORTED, 4,
                "buffer ssbo 0:1: 4000000000 bytes, with the 0 before it more than the 536870912");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER
                "[test]\nssbo 0:1 300000000\nssbo 0:2 300000000\n",
                CVM_ERROR_UNSUPPORTED, 5, "300000000 bytes, with the 300000000 before it more");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nuniform float 1099511627776 1\n",
                CVM_ERROR_UNSUPPORTED, 4, "1099511627780 bytes, with the 0 before it more");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\ntolerance 1 2\n",
                CVM_ERROR_SYNTAX, 4, "1 or 4 values");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\nssbo 0 4\nprobe ssbo int 0 0 "
                "=~ 1\n",
                CVM_ERROR_SYNTAX, 5, "a comparator");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[test]\ncompute 1 1\n",
                CVM_ERROR_SYNTAX, 4, "compute X Y Z");
    parse_fails("[test]\nssbo 0 4\n", CVM_ERROR_SYNTAX, 1, "no [compute shader]");
    parse_fails("hello\n[test]\n", CVM_ERROR_SYNTAX, 1, "section header");
    parse_fails("[tests]\n", CVM_ERROR_SYNTAX, 1, "unknown section [tests]");
    parse_fails("[require]\nVK_KHR-bad\n", CVM_ERROR_SYNTAX, 2, "unknown feature or extension");
    parse_fails("[compute shader spirv hex]\n" HEX_SHADER "[compute shader spirv hex]\n" HEX_SHADER,
                CVM_ERROR_SYNTAX, 3, "a second [compute shader]");
}

/* Numbers as google/amber takes them ------------------------------------------ */

/* google/amber's float16 from a number: round to float, cut the mantissa to
 * 10 bits, rebase the exponent (float16_helper.cc); below 2^-14 zero. */
static uint16_t model_half(double d)
{
    uint32_t b = f32_bits((float)d);
    uint32_t e = (b >> 23) & 0xff;
    uint16_t sign = (uint16_t)((b >> 31) << 15);
    if (e < 113)
        return sign;
    return (uint16_t)(sign | ((e - 112) << 10) | ((b & 0x7fffff) >> 13));
}

static void test_numbers(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok("#!amber\n"
                                   "BUFFER i DATA_TYPE int32 SIZE 2 FILL 0.0\n"
                                   "BUFFER j DATA_TYPE int32 DATA -3.0 1e3 0xffffffff END\n"
                                   "BUFFER k DATA_TYPE int16 DATA 40206 -32768 END\n"
                                   "BUFFER u DATA_TYPE uint8 DATA -1 255 END\n"
                                   "BUFFER h DATA_TYPE float16 DATA 1.00146484375 0.1 1e-6 "
                                   "-2.5 END\n"
                                   "BUFFER hs DATA_TYPE float16 SIZE 3 SERIES_FROM 1.00146484375 "
                                   "INC_BY 1\n");
    const cvm_amber_buffer *b = &s->buffers[buffer_index(s, "i")];
    assert_int_equal(u32_at(b->data, 0), 0);
    b = &s->buffers[buffer_index(s, "j")];
    assert_int_equal((int32_t)u32_at(b->data, 0), -3);
    assert_int_equal((int32_t)u32_at(b->data, 4), 1000);
    assert_int_equal((int32_t)u32_at(b->data, 8), -1);
    b = &s->buffers[buffer_index(s, "k")];
    int16_t k[2];
    memcpy(k, b->data, 4);
    assert_int_equal(k[0], 40206 - 65536);
    assert_int_equal(k[1], -32768);
    b = &s->buffers[buffer_index(s, "u")];
    assert_int_equal(((const uint8_t *)b->data)[0], 255);
    b = &s->buffers[buffer_index(s, "h")];
    uint16_t h[4];
    memcpy(h, b->data, 8);
    static const double hv[4] = {1.00146484375, 0.1, 1e-6, -2.5};
    for (int i = 0; i < 4; i++)
        assert_int_equal(h[i], model_half(hv[i]));
    /* 1 + 1.5 ulp: cut toward zero, where rounding to nearest even would give
     * 1 + 2 ulp */
    assert_int_equal(h[0], 0x3c01);
    assert_int_equal(h[2], 0x0000); /* below the normal range: zero */
    b = &s->buffers[buffer_index(s, "hs")];
    memcpy(h, b->data, 6);
    for (int i = 0; i < 3; i++)
        assert_int_equal(h[i], model_half(1.00146484375 + i));
    cvm_amber_script_destroy(s);

    /* an expectation on float16 keeps the float's precision, as amber
     * compares: 0x3c01 (1.0009765625) is not 1.00146484375, but within 0.001 */
    cvm_amber_report rep;
    assert_int_equal(execute("#!amber\nBUFFER h DATA_TYPE float16 DATA 1.00146484375 END\n"
                             "EXPECT h IDX 0 EQ 1.00146484375\n"
                             "EXPECT h IDX 0 EQ 1.0009765625\n"
                             "EXPECT h IDX 0 TOLERANCE 0.001 EQ 1.00146484375\n",
                             NULL, &rep, &s),
                     CVM_ERROR_EXPECTATION_FAILED);
    assert_false(rep.results[0].passed);
    assert_true(rep.results[1].passed);
    assert_true(rep.results[2].passed);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
}

/* EXPECT comparisons ------------------------------------------------------------ */

static void test_tolerance_per_component(void **state)
{
    (void)state;
    cvm_amber_report rep;
    cvm_amber_script *s;
    assert_int_equal(
        execute("#!amber\n"
                "BUFFER v DATA_TYPE vec4<float> DATA 1 2 3 4  10 20 30 40 END\n"
                /* one tolerance: every component (issue 14: only the first had it) */
                "EXPECT v IDX 0 TOLERANCE 0.1 EQ 1.05 2.05 3.05 4.05 10.05 19.95 30 40\n"
                /* four: component k uses tolerance k, percentages of the expected value */
                "EXPECT v IDX 0 TOLERANCE 0.1 0.2 10% 1 EQ 1.05 2.15 3.2 4.9\n"
                "EXPECT v IDX 0 TOLERANCE 0.1 0.2 10% 1 EQ 1.05 2.25 3.2 4.9\n"
                "EXPECT v IDX 0 TOLERANCE 0.1 0.2 1% 1 EQ 1.05 2.15 3.2 4.9\n"
                /* two: components 2 and 3 compare as EQ does */
                "EXPECT v IDX 16 TOLERANCE 1 2 EQ 10.5 21.5 30 40\n"
                "EXPECT v IDX 16 TOLERANCE 1 2 EQ 10.5 21.5 30.5 40\n"
                /* matrix columns: the component is the row */
                "BUFFER m DATA_TYPE mat2x3<float> DATA 1 2 3  4 5 6 END\n"
                "EXPECT m IDX 0 TOLERANCE 0.1 0.2 0.3 EQ 1.05 2.15 3.25 4.05 5.15 6.25\n"
                "EXPECT m IDX 0 TOLERANCE 0.1 0.2 0.3 EQ 1.05 2.15 3.25 4.15 5.15 6.25\n",
                NULL, &rep, &s),
        CVM_ERROR_EXPECTATION_FAILED);
    assert_int_equal(rep.result_count, 8);
    assert_true(rep.results[0].passed);
    assert_true(rep.results[1].passed);
    assert_false(rep.results[2].passed); /* 2.25 - 2 > 0.2 */
    assert_int_equal(rep.results[2].first_index, 1);
    assert_false(rep.results[3].passed); /* 0.2 > 1% of 3.2 */
    assert_int_equal(rep.results[3].first_index, 2);
    assert_true(rep.results[4].passed);
    assert_false(rep.results[5].passed); /* 30.5 vs 30: no tolerance for component 2 */
    assert_int_equal(rep.results[5].first_index, 6);
    assert_true(rep.results[6].passed);
    assert_false(rep.results[7].passed); /* row 0 of column 1: 0.15 > 0.1 */
    assert_int_equal(rep.results[7].first_index, 3);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
}

static void test_float_eq(void **state)
{
    (void)state;
    cvm_amber_report rep;
    cvm_amber_script *s;
    /* EQ on floats as google/amber's verifier: within a relative 1e-8;
     * 1 + 1e-9 is within, 1 + 1e-7 is not; NaN equals NaN */
    assert_int_equal(execute("#!amber\n"
                             "BUFFER d DATA_TYPE double DATA 1.000000001 1.0000001 END\n"
                             "EXPECT d IDX 0 EQ 1\n"
                             "EXPECT d IDX 8 EQ 1\n"
                             "EXPECT d IDX 8 NE 1\n"
                             "EXPECT d IDX 0 NE 1\n"
                             "BUFFER n DATA_TYPE float DATA nan END\n"
                             "EXPECT n IDX 0 EQ nan\n"
                             "EXPECT n IDX 0 LT 1\n",
                             NULL, &rep, &s),
                     CVM_ERROR_EXPECTATION_FAILED);
    assert_true(rep.results[0].passed);
    assert_false(rep.results[1].passed);
    assert_true(rep.results[2].passed);
    assert_false(rep.results[3].passed);
    assert_true(rep.results[4].passed);
    assert_false(rep.results[5].passed); /* NaN is not less than anything */
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
}

/* Layouts, files, bindings --------------------------------------------------------- */

static void test_std140(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok("#!amber\n"
                                   "BUFFER m DATA_TYPE mat2x2<float> STD140 DATA 1 2 3 4 END\n"
                                   "BUFFER a DATA_TYPE float[] STD140 DATA 5 6 END\n"
                                   "BUFFER b DATA_TYPE float[] STD430 DATA 5 6 END\n"
                                   "BUFFER v DATA_TYPE vec3<int32> STD140 DATA 1 2 3 END\n"
                                   "BUFFER w DATA_TYPE vec2<float>[] STD140 DATA 1 2 3 4 END\n");
    const cvm_amber_buffer *b = &s->buffers[buffer_index(s, "m")];
    assert_int_equal(b->size, 32); /* columns padded to 4 components */
    assert_true(f32_at(b->data, 0) == 1.0f && f32_at(b->data, 4) == 2.0f);
    assert_true(f32_at(b->data, 16) == 3.0f && f32_at(b->data, 20) == 4.0f);
    b = &s->buffers[buffer_index(s, "a")];
    assert_int_equal(b->size, 32); /* array elements 16 bytes apart */
    assert_true(f32_at(b->data, 16) == 6.0f);
    b = &s->buffers[buffer_index(s, "b")];
    assert_int_equal(b->size, 8);
    b = &s->buffers[buffer_index(s, "v")];
    assert_int_equal(b->size, 16);
    b = &s->buffers[buffer_index(s, "w")];
    assert_int_equal(b->size, 32);
    assert_true(f32_at(b->data, 16) == 3.0f);
    cvm_amber_script_destroy(s);
}

static void test_file_text(void **state)
{
    (void)state;
    char path[128], text[512];
    snprintf(path, sizeof(path), "/tmp/cvm_test_forms_%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# one\n0x3F800000 # a comment after a value\n2, 3\n#four\n0xFFFFFFFF\n", f);
    fclose(f);
    /* SIZE 2, but the file has 4 values: the file decides */
    snprintf(text, sizeof(text),
             "#!amber\nBUFFER t DATA_TYPE uint32 SIZE 2 FILE TEXT %s\n"
             "EXPECT t IDX 0 EQ 0x3F800000 2 3 4294967295\n",
             path);
    cvm_amber_report rep;
    cvm_amber_script *s;
    assert_int_equal(execute(text, NULL, &rep, &s), CVM_SUCCESS);
    assert_true(rep.results[0].passed);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
    unlink(path);
}

static void test_descriptor_ranges(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof(text),
             "#!amber\nSHADER compute x SPIRV-HEX\n" HEX_SHADER "END\n"
             "BUFFER u DATA_TYPE uint32 SIZE 16 FILL 0\n"
             "BUFFER v DATA_TYPE uint32 SIZE 16 FILL 0\n"
             "PIPELINE compute p\n ATTACH x\n"
             " BIND BUFFER u AS uniform_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 16 "
             "DESCRIPTOR_OFFSET 8 DESCRIPTOR_RANGE 16\n"
             " BIND BUFFER v AS storage DESCRIPTOR_SET 0 BINDING 1 DESCRIPTOR_OFFSET 4\n"
             " BIND BUFFER_ARRAY u v AS storage_dynamic DESCRIPTOR_SET 1 BINDING 0 OFFSET 0 32 "
             "DESCRIPTOR_RANGE -1 8\n"
             "END\n");
    cvm_amber_script *s = parse_ok(text);
    fake_reset();
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_SUCCESS);
    char *u = cvm_amber_session_buffer(S, buffer_index(s, "u"), NULL);
    char *v = cvm_amber_session_buffer(S, buffer_index(s, "v"), NULL);
    cvm_pipeline *p = fake.last_pipeline;
    fake_binding *b = fake_find_binding(p, 0, 0, 0);
    assert_true(b->data == u + 24 && b->size == 16);
    b = fake_find_binding(p, 0, 1, 0);
    assert_true(b->data == v + 4 && b->size == 60);
    b = fake_find_binding(p, 1, 0, 0);
    assert_true(b->data == u && b->size == 64);
    b = fake_find_binding(p, 1, 0, 1);
    assert_true(b->data == v + 32 && b->size == 8);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);

    /* a range past the buffer's end */
    snprintf(text, sizeof(text),
             "#!amber\nSHADER compute x SPIRV-HEX\n" HEX_SHADER "END\n"
             "BUFFER u DATA_TYPE uint32 SIZE 4 FILL 0\nPIPELINE compute p\n ATTACH x\n"
             " BIND BUFFER u AS uniform_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 8 "
             "DESCRIPTOR_RANGE 16\nEND\n");
    s = parse_ok(text);
    fake_reset();
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_int_equal(d.line, 8);
    assert_non_null(strstr(d.message, "DESCRIPTOR_RANGE 16"));
    cvm_amber_script_destroy(s);
}

static void test_device_property(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok("#!amber\n"
                                   "DEVICE_PROPERTY FloatControlsProperties.shaderDenormPreserveFloat32\n"
                                   "DEVICE_PROPERTY FloatControlsProperties.shaderRoundingModeRTZFloat32\n");
    assert_int_equal(s->property_count, 2);
    cvm_diagnostic d;
    assert_int_equal(cvm_amber_check_requirements(s, &d), CVM_ERROR_UNSUPPORTED);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.message, "DEVICE_PROPERTY "
                                      "FloatControlsProperties.shaderRoundingModeRTZFloat32"));
    cvm_amber_script_destroy(s);
}

/* GLSL ---------------------------------------------------------------------------- */

static void test_glsl(void **state)
{
    (void)state;
    const char *ok = "#!amber\nSHADER compute s GLSL TARGET_ENV spv1.3\n"
                     "#version 450\nlayout(local_size_x = 4) in;\n"
                     "layout(set = 0, binding = 0) buffer B { uint v[]; };\n"
                     "void main() { v[gl_LocalInvocationIndex] *= 2u; }\nEND\n"
                     "PIPELINE compute p\n ATTACH s\nEND\n";
    const char *bad = "#!amber\nSHADER compute s GLSL\n#version 450\nvoid main() { x = 1; }\nEND\n"
                      "PIPELINE compute p\n ATTACH s\nEND\n";
    cvm_amber_script *s = parse_ok(ok);
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    fake_reset();
    cvm_result r = cvm_amber_session_create(s, NULL, &S, &d);
    if (cvm_amber_have_glsl()) {
        /* compiled by glslang: a module of more than a header */
        assert_int_equal(r, CVM_SUCCESS);
        assert_true(fake.last_word_count > 20);
        cvm_amber_session_destroy(S);
        cvm_amber_script_destroy(s);
        s = parse_ok(bad);
        assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_SYNTAX);
        assert_non_null(strstr(d.message, "SHADER s: GLSL compilation failed"));
        assert_non_null(strstr(d.message, "'x'"));
        assert_int_equal(d.line, 2);
    } else {
        /* without glslang: unsupported, saying so */
        assert_int_equal(r, CVM_ERROR_UNSUPPORTED);
        assert_non_null(strstr(d.message, "glslang"));
        assert_int_equal(d.line, 2);
    }
    cvm_amber_script_destroy(s);
    /* an unknown TARGET_ENV is unsupported either way */
    s = parse_ok("#!amber\nSHADER compute s GLSL TARGET_ENV opengl4.5\nvoid main() {}\nEND\n"
                 "PIPELINE compute p\n ATTACH s\nEND\n");
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_UNSUPPORTED);
    cvm_amber_script_destroy(s);
}

/* Parsing never crashes: mutated scripts (bytes changed, inserted, cut) of
 * both formats end in a status (the sanitizer build checks the accesses). */
static void test_parse_fuzz(void **state)
{
    (void)state;
    static const char *const seeds[] = {
        NULL, /* vk_all */
        "#!amber\nSHADER compute s SPIRV-HEX\n" HEX_SHADER "END\n"
        "BUFFER u DATA_TYPE vec3<float16>[] STD140 DATA 1 2 3 4 5 6 END\n"
        "BUFFER v DATA_TYPE mat2x3<int8> SIZE 3 SERIES_FROM -2.0 INC_BY 1\n"
        "DEVICE_PROPERTY FloatControlsProperties.shaderDenormPreserveFloat32\n"
        "PIPELINE compute p\n ATTACH s ENTRY_POINT main SPECIALIZE 1 AS int16 40206\n"
        " BIND BUFFER_ARRAY u v AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 0 4 "
        "DESCRIPTOR_OFFSET 4 0 DESCRIPTOR_RANGE -1 4\nEND\n"
        "RUN p 1 1 1\nEXPECT u IDX 8 TOLERANCE 1 2% 3 4 EQ 1 2 3\n"
        "EXPECT v EQ_BUFFER v\n"};
    uint64_t rng = 0x1234567u;
    char buf[4096];
    for (size_t k = 0; k < CVM_FAKE_ARRAY_SIZE(seeds); k++) {
        const char *seed = seeds[k] ? seeds[k] : vk_all;
        size_t len = strlen(seed);
        for (int round = 0; round < 3000; round++) {
            memcpy(buf, seed, len);
            size_t n = len;
            int edits = 1 + round % 4;
            for (int e = 0; e < edits; e++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                size_t at = (size_t)(rng >> 33) % (n ? n : 1);
                unsigned kind = (unsigned)(rng >> 20) % 3;
                char c = " \n[]#:%-.0123456789xEND\\~=<"[(rng >> 8) % 28];
                if (kind == 0 && n) {
                    buf[at] = c;
                } else if (kind == 1 && n + 1 < sizeof(buf)) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = c;
                    n++;
                } else if (n) {
                    size_t cut = 1 + (size_t)(rng >> 40) % 8;
                    if (cut > n - at)
                        cut = n - at;
                    memmove(buf + at, buf + at + cut, n - at - cut);
                    n -= cut;
                }
            }
            cvm_amber_script *s = NULL;
            cvm_diagnostic d;
            cvm_result r = cvm_amber_parse(buf, n, "/virtual/f.amber", &s, &d);
            if (r == CVM_SUCCESS) {
                assert_non_null(s);
                cvm_amber_script_destroy(s);
            } else {
                assert_null(s);
                assert_true(d.message[0] != 0);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vkscript_parse),
        cmocka_unit_test(test_vkscript_execute),
        cmocka_unit_test(test_vkscript_errors),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_tolerance_per_component),
        cmocka_unit_test(test_float_eq),
        cmocka_unit_test(test_std140),
        cmocka_unit_test(test_file_text),
        cmocka_unit_test(test_descriptor_ranges),
        cmocka_unit_test(test_device_property),
        cmocka_unit_test(test_glsl),
        cmocka_unit_test(test_parse_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
