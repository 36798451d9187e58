/* AmberScript parser and runner, against a fake engine (fake_engine.c): the
 * runner's logic is tested here; the engine's results are the corpus's job. */
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

static const cvm_amber_buffer *buf(const cvm_amber_script *s, const char *name)
{
    uint32_t i = cvm_amber_find_buffer(s, name);
    assert_int_not_equal(i, UINT32_MAX);
    return &s->buffers[i];
}

/* A session over a script whose shaders are fake; returns the session. */
static cvm_amber_session *session_ok(const cvm_amber_script *s)
{
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    cvm_result r = cvm_amber_session_create(s, NULL, &S, &d);
    if (r != CVM_SUCCESS)
        print_error("session: %s line %u: %s\n", cvm_result_string(r), d.line, d.message);
    assert_int_equal(r, CVM_SUCCESS);
    return S;
}

/* A SPIR-V file holding just a header: enough for the fake engine. */
static const char *spv_path(void)
{
    static char path[256];
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/cvm_test_amber_%d.spv", (int)getpid());
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        uint32_t w[5] = {0x07230203u, 0x00010600u, 0, 8, 0};
        assert_int_equal(fwrite(w, 4, 5, f), 5);
        fclose(f);
    }
    return path;
}

/* Parsing every construct ------------------------------------------------ */

static const char *all_constructs =
    "#!amber\n"
    "# a comment line\n"
    "DEVICE_EXTENSION VK_KHR_cooperative_matrix   # trailing comment\n"
    "DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl\n"
    "INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2\n"
    "SET ENGINE_DATA fence_timeout_ms 1000\n"
    "SHADER compute bin SPIRV-BIN FILE sub/x.spv\n"
    "SHADER compute asm SPIRV-ASM TARGET_ENV vulkan1.3\n"
    "               OpCapability Shader\n"
    "  OpMemoryModel Logical GLSL450\n"
    "END\n"
    "BUFFER d8 DATA_TYPE int8 DATA -128 127 -1 END\n"
    "BUFFER d16 DATA_TYPE uint16 DATA 0xffff 1\n"
    "  2 END\n"
    "BUFFER h DATA_TYPE float16 DATA 1.0 -2 0.1 65504 END\n"
    "BUFFER f DATA_TYPE float STD430 SIZE 4 FILL 1.5\n"
    "BUFFER s DATA_TYPE int32 SIZE 4 SERIES_FROM 10 INC_BY -3\n"
    "BUFFER sf DATA_TYPE double SIZE 3 SERIES_FROM 0.5 INC_BY 0.25\n"
    "BUFFER v3 DATA_TYPE vec3<float> DATA 1 2 3 4 5 6 END\n"
    "BUFFER m DATA_TYPE mat2x3<int32> SIZE 1 FILL 7\n"
    "BUFFER fb DATA_TYPE uint32 SIZE 16 FILE BINARY in.bin\n"
    "BUFFER ft DATA_TYPE float SIZE 2 FILE TEXT /abs/in.txt\n"
    "BUFFER fmt FORMAT R32G32_SFLOAT SIZE 2 FILL 0\n"
    "BUFFER pc DATA_TYPE uint32 DATA 1 2 END\n"
    "PIPELINE compute p\n"
    "  ATTACH bin ENTRY_POINT main SPECIALIZE 0 AS uint32 64 SPECIALIZE 1 AS float 1.5 "
    "SPECIALIZE 2 AS int16 -2 SPECIALIZE 3 AS uint64 0x100000000\n"
    "  SUBGROUP bin\n"
    "    REQUIRED_SIZE 16\n"
    "    FULLY_POPULATED on\n"
    "  END\n"
    "  BIND BUFFER fb AS storage DESCRIPTOR_SET 1 BINDING 2\n"
    "  BIND BUFFER f AS uniform DESCRIPTOR_SET 0 BINDING 0\n"
    "  BIND BUFFER_ARRAY d8 h AS storage DESCRIPTOR_SET 0 BINDING 5\n"
    "  BIND BUFFER pc AS push_constant\n"
    "  COMPILE_OPTIONS bin\n"
    "    --anything\n"
    "  END\n"
    "END\n"
    "DERIVE_PIPELINE q FROM p\n"
    "  BIND BUFFER s AS storage DESCRIPTOR_SET 1 BINDING 2\n"
    "END\n"
    "RUN p 1 2 3\n"
    "RUN TIMED_EXECUTION q 4 1 1\n"
    "COPY s TO fb\n"
    "EXPECT f EQ_BUFFER f\n"
    "EXPECT f RMSE_BUFFER f TOLERANCE 0.25\n"
    "EXPECT s IDX 4 EQ 7 4\n"
    "EXPECT f IDX 0 TOLERANCE 0.5 10% EQ 1.5 1.5\n"
    "EXPECT d8 IDX 1 GE 100\n";

static void test_parse_all_constructs(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok(all_constructs);
    assert_string_equal(s->dir, "/virtual");
    assert_int_equal(s->extension_count, 1);
    assert_string_equal(s->extensions[0].name, "VK_KHR_cooperative_matrix");
    assert_int_equal(s->extensions[0].line, 3);
    assert_int_equal(s->feature_count, 1);
    assert_string_equal(s->features[0].name, "SubgroupSizeControl.subgroupSizeControl");

    assert_int_equal(s->shader_count, 2);
    assert_int_equal(s->shaders[0].format, CVM_AMBER_SPIRV_BIN);
    assert_string_equal(s->shaders[0].path, "/virtual/sub/x.spv");
    assert_int_equal(s->shaders[1].format, CVM_AMBER_SPIRV_ASM);
    assert_string_equal(s->shaders[1].target_env, "vulkan1.3");
    assert_string_equal(s->shaders[1].text,
                        "               OpCapability Shader\n  OpMemoryModel Logical GLSL450\n");
    assert_int_equal(s->shaders[1].text_line, 9);

    /* int8 DATA: -128 127 -1 as bytes 0x80 0x7f 0xff */
    const cvm_amber_buffer *b = buf(s, "d8");
    assert_int_equal(b->elements, 3);
    assert_int_equal(b->size, 3);
    assert_memory_equal(b->data, "\x80\x7f\xff", 3);
    /* uint16 across lines, hex */
    b = buf(s, "d16");
    assert_int_equal(b->elements, 3);
    uint16_t u16[3];
    memcpy(u16, b->data, 6);
    assert_int_equal(u16[0], 0xffff);
    assert_int_equal(u16[1], 1);
    assert_int_equal(u16[2], 2);
    /* float16: 1.0 = 0x3c00, -2 = 0xc000, 0.1 = 0x2e66 (0.0999755859375 is the
     * nearest half), 65504 = 0x7bff (largest finite) */
    b = buf(s, "h");
    uint16_t h[4];
    memcpy(h, b->data, 8);
    assert_int_equal(h[0], 0x3c00);
    assert_int_equal(h[1], 0xc000);
    assert_int_equal(h[2], 0x2e66);
    assert_int_equal(h[3], 0x7bff);
    /* FILL 1.5 float: 0x3fc00000 x4 */
    b = buf(s, "f");
    assert_int_equal(b->size, 16);
    for (int i = 0; i < 4; i++) {
        uint32_t w;
        memcpy(&w, b->data + 4 * i, 4);
        assert_int_equal(w, 0x3fc00000u);
    }
    /* SERIES_FROM 10 INC_BY -3: 10 7 4 1 */
    b = buf(s, "s");
    int32_t i32[4];
    memcpy(i32, b->data, 16);
    assert_int_equal(i32[0], 10);
    assert_int_equal(i32[1], 7);
    assert_int_equal(i32[2], 4);
    assert_int_equal(i32[3], 1);
    b = buf(s, "sf");
    double d3[3];
    memcpy(d3, b->data, 24);
    assert_true(d3[0] == 0.5 && d3[1] == 0.75 && d3[2] == 1.0);
    /* vec3<float>: std430 stride 16, the 4th float of each element is padding */
    b = buf(s, "v3");
    assert_int_equal(b->elements, 2);
    assert_int_equal(b->size, 32);
    float v[8];
    memcpy(v, b->data, 32);
    assert_true(v[0] == 1.0f && v[1] == 2.0f && v[2] == 3.0f && v[3] == 0.0f);
    assert_true(v[4] == 4.0f && v[5] == 5.0f && v[6] == 6.0f && v[7] == 0.0f);
    /* mat2x3<int32>: 2 columns of vec3 padded to 4: 32 bytes, value slots at
     * 0,4,8 and 16,20,24 */
    b = buf(s, "m");
    assert_int_equal(b->type.columns, 2);
    assert_int_equal(b->type.rows, 3);
    assert_int_equal(b->size, 32);
    assert_int_equal(cvm_amber_value_offset(b->type, 3), 16);
    int32_t mm[8];
    memcpy(mm, b->data, 32);
    assert_true(mm[0] == 7 && mm[2] == 7 && mm[3] == 0 && mm[4] == 7 && mm[6] == 7 && mm[7] == 0);
    b = buf(s, "fb");
    assert_int_equal(b->init, CVM_AMBER_INIT_FILE_BINARY);
    assert_string_equal(b->path, "/virtual/in.bin");
    assert_int_equal(b->size, 64);
    b = buf(s, "ft");
    assert_int_equal(b->init, CVM_AMBER_INIT_FILE_TEXT);
    assert_string_equal(b->path, "/abs/in.txt");
    b = buf(s, "fmt");
    assert_int_equal(b->type.scalar, CVM_AMBER_FLOAT32);
    assert_int_equal(b->type.rows, 2);
    assert_int_equal(b->size, 16);

    assert_int_equal(s->pipeline_count, 2);
    const cvm_amber_pipeline *p = &s->pipelines[0];
    assert_string_equal(p->name, "p");
    assert_int_equal(p->shader, 0);
    assert_string_equal(p->entry_point, "main");
    assert_int_equal(p->subgroup_size, 16);
    assert_int_equal(p->spec_count, 4);
    assert_int_equal(p->specs[0].constant_id, 0);
    assert_int_equal(p->specs[0].size, 4);
    assert_int_equal(p->specs[0].bits, 64);
    assert_int_equal(p->specs[1].bits, 0x3fc00000u); /* 1.5f */
    assert_int_equal(p->specs[2].size, 4);
    assert_int_equal(p->specs[2].bits, 0xfffffffeu); /* int16 -2 widened to 32 bits */
    assert_int_equal(p->specs[3].size, 8);
    assert_int_equal(p->specs[3].bits, 0x100000000ull);
    assert_int_equal(p->binding_count, 5);
    assert_int_equal(p->bindings[0].kind, CVM_AMBER_BIND_STORAGE);
    assert_int_equal(p->bindings[0].set, 1);
    assert_int_equal(p->bindings[0].binding, 2);
    assert_int_equal(p->bindings[1].kind, CVM_AMBER_BIND_UNIFORM);
    assert_int_equal(p->bindings[2].array_element, 0);
    assert_int_equal(p->bindings[3].array_element, 1);
    assert_int_equal(p->bindings[3].buffer, cvm_amber_find_buffer(s, "h"));
    assert_int_equal(p->bindings[4].kind, CVM_AMBER_BIND_PUSH_CONSTANT);
    /* derived: same shader and specs, (1,2) rebound to s */
    const cvm_amber_pipeline *q = &s->pipelines[1];
    assert_int_equal(q->shader, 0);
    assert_int_equal(q->spec_count, 4);
    assert_int_equal(q->binding_count, 5);
    assert_int_equal(q->bindings[0].buffer, cvm_amber_find_buffer(s, "s"));

    assert_int_equal(s->run_count, 2);
    assert_int_equal(s->expect_count, 5);
    assert_int_equal(s->command_count, 8);
    const cvm_amber_command *c = &s->commands[0];
    assert_int_equal(c->kind, CVM_AMBER_CMD_RUN);
    assert_int_equal(c->groups[0], 1);
    assert_int_equal(c->groups[1], 2);
    assert_int_equal(c->groups[2], 3);
    assert_string_equal(c->text, "RUN p 1 2 3");
    assert_int_equal(s->commands[1].pipeline, 1);
    assert_int_equal(s->commands[2].kind, CVM_AMBER_CMD_COPY);
    c = &s->commands[4];
    assert_int_equal(c->expect, CVM_AMBER_EXPECT_RMSE_BUFFER);
    assert_true(c->tolerance == 0.25f);
    c = &s->commands[5];
    assert_int_equal(c->expect, CVM_AMBER_EXPECT_IDX);
    assert_int_equal(c->offset, 4);
    assert_int_equal(c->value_count, 2);
    assert_int_equal(c->ivalues[0], 7);
    c = &s->commands[6];
    assert_int_equal(c->tolerance_count, 2);
    assert_true(c->tolerances[0] == 0.5 && !c->tolerance_percent[0]);
    assert_true(c->tolerances[1] == 10.0 && c->tolerance_percent[1]);
    c = &s->commands[7];
    assert_int_equal(c->compare, CVM_AMBER_GE);
    assert_int_equal(c->line, 49);
    assert_string_equal(c->text, "EXPECT d8 IDX 1 GE 100");
    cvm_amber_script_destroy(s);
}

/* Every corpus and bench script parses, and with the fake engine its
 * buffers load (file sizes agree with SIZE) and pipelines bind as written. */
static void test_parse_shared_scripts(void **state)
{
    (void)state;
    static const char *cases[] = {
        "corpus/attention_softmax/attention_softmax",
        "corpus/coopvec_int8/coopvec_int8",
        "corpus/coopvec_mlp/coopvec_mlp",
        "corpus/coopvec_training/coopvec_training",
        "corpus/decode_q4_gemm/decode_q4_gemm",
        "corpus/decode_vector_q4_gemm/decode_vector_q4_gemm",
        "corpus/gemm_khr_f16/gemm_khr_f16",
        "corpus/gemm_khr_s8/gemm_khr_s8",
        "corpus/gemm_nv2_ragged/gemm_nv2_ragged",
        "corpus/gemm_nv2_workgroup/gemm_nv2_workgroup",
        "corpus/qcom_rows/qcom_rows",
        "corpus/reduce_convert/reduce_convert",
        "corpus/saxpy_loop/saxpy_loop",
        "corpus/tensor_clamp_view/tensor_clamp_view",
        "corpus/workgroup_reduce/workgroup_reduce",
        "bench/bench_attention_softmax/bench_attention_softmax",
        "bench/bench_coopvec_mlp/bench_coopvec_mlp",
        "bench/bench_gemm_khr_f16/bench_gemm_khr_f16",
        "bench/bench_gemm_nv2_workgroup/bench_gemm_nv2_workgroup",
        "bench/bench_saxpy_loop/bench_saxpy_loop",
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s.amber", CVM_SHARED_DIR, cases[i]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            print_error("missing %s\n", path);
            fail();
        }
        fclose(f);
        cvm_amber_script *s = NULL;
        cvm_diagnostic d;
        cvm_result r = cvm_amber_parse_file(path, &s, &d);
        if (r != CVM_SUCCESS)
            print_error("%s:%u:%u: %s\n", path, d.line, d.column, d.message);
        assert_int_equal(r, CVM_SUCCESS);
        assert_int_equal(s->pipeline_count, 1);
        assert_int_equal(s->run_count, 1);
        assert_true(s->expect_count >= 1);
        assert_int_equal(s->pipelines[0].subgroup_size, 32);
        fake_reset();
        cvm_amber_session *S = session_ok(s);
        assert_int_equal(fake.last_desc.subgroup_size, 32);
        /* every storage binding of the script reached the engine with the
         * buffer's size */
        cvm_pipeline *p = fake.last_pipeline;
        assert_non_null(p);
        const cvm_amber_pipeline *pl = &s->pipelines[0];
        assert_int_equal(p->spec_count, pl->spec_count);
        for (uint32_t k = 0; k < pl->binding_count; k++) {
            const cvm_amber_binding *bd = &pl->bindings[k];
            if (bd->kind == CVM_AMBER_BIND_PUSH_CONSTANT) {
                assert_int_equal(p->push_size, s->buffers[bd->buffer].size);
                continue;
            }
            fake_binding *fb = fake_find_binding(p, bd->set, bd->binding, 0);
            assert_non_null(fb);
            size_t sz;
            assert_ptr_equal(fb->data, cvm_amber_session_buffer(S, bd->buffer, &sz));
            assert_int_equal(fb->size, sz);
        }
        assert_int_equal(cvm_amber_session_run(S, 0, &d), CVM_SUCCESS);
        assert_int_equal(fake.dispatches, 1);
        cvm_amber_session_destroy(S);
        assert_int_equal(fake.contexts + fake.modules + fake.pipelines, 0);
        cvm_amber_script_destroy(s);
    }
}

/* The corpus values known by hand: gemm_khr_s8's six specialization
 * constants and saxpy_loop's push constants (1069547520 = 1.5f, 1000). */
static void test_shared_script_values(void **state)
{
    (void)state;
    char path[512];
    cvm_amber_script *s;
    cvm_diagnostic d;
    snprintf(path, sizeof(path), "%s/corpus/gemm_khr_s8/gemm_khr_s8.amber", CVM_SHARED_DIR);
    assert_int_equal(cvm_amber_parse_file(path, &s, &d), CVM_SUCCESS);
    static const uint32_t want[6] = {64, 64, 128, 16, 16, 32};
    assert_int_equal(s->pipelines[0].spec_count, 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s->pipelines[0].specs[i].constant_id, i);
        assert_int_equal(s->pipelines[0].specs[i].bits, want[i]);
    }
    assert_int_equal(s->commands[1].expect, CVM_AMBER_EXPECT_EQ_BUFFER);
    cvm_amber_script_destroy(s);

    snprintf(path, sizeof(path), "%s/corpus/saxpy_loop/saxpy_loop.amber", CVM_SHARED_DIR);
    assert_int_equal(cvm_amber_parse_file(path, &s, &d), CVM_SUCCESS);
    fake_reset();
    cvm_amber_session *S = session_ok(s);
    float a;
    uint32_t n;
    memcpy(&a, fake.last_pipeline->push, 4);
    memcpy(&n, fake.last_pipeline->push + 4, 4);
    assert_true(a == 1.5f);
    assert_int_equal(n, 1000);
    assert_int_equal(cvm_amber_session_run(S, 0, &d), CVM_SUCCESS);
    assert_int_equal(fake.last_groups[0], 16);
    assert_int_equal(fake.last_groups[1], 1);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
}

/* Syntax errors: line, column and what was expected ----------------------- */

typedef struct syntax_case {
    const char *text;
    cvm_result result;
    uint32_t line, column;
    const char *message_part;
} syntax_case;

static void test_syntax_errors(void **state)
{
    (void)state;
    static const syntax_case cases[] = {
        {"SHADER compute a SPIRV-BIN FILE a.spv\n", CVM_ERROR_SYNTAX, 1, 1, "#!amber"},
        {"#!amber\nFOO bar\n", CVM_ERROR_SYNTAX, 2, 1, "expected a command"},
        {"#!amber\nDEVICE_EXTENSION\n", CVM_ERROR_SYNTAX, 2, 17, "an extension name"},
        {"#!amber\nDEVICE_FEATURE a b\n", CVM_ERROR_SYNTAX, 2, 18, "end of line"},
        {"#!amber\nSHADER comput a SPIRV-BIN FILE a.spv\n", CVM_ERROR_SYNTAX, 2, 8,
         "shader type 'compute'"},
        {"#!amber\nSHADER vertex a GLSL\n", CVM_ERROR_UNSUPPORTED, 2, 8, "compute only"},
        {"#!amber\nSHADER compute a HLSL\nvoid main(){}\nEND\n", CVM_ERROR_UNSUPPORTED, 2, 18,
         "compiler coopvm does not use"},
        {"#!amber\nSHADER compute a OPENCL-C\nkernel void f() {}\nEND\n", CVM_ERROR_UNSUPPORTED,
         2, 18, "compiler coopvm does not use"},
        {"#!amber\nSHADER compute a SPIRV-BIN\n", CVM_ERROR_SYNTAX, 2, 27, "FILE"},
        {"#!amber\nSHADER compute a SPIRV-ASM\n OpNop\n", CVM_ERROR_SYNTAX, 4, 1,
         "expected END closing the shader 'a'"},
        {"#!amber\nSHADER compute a SPIRV-BIN FILE x\nSHADER compute a SPIRV-BIN FILE y\n",
         CVM_ERROR_SYNTAX, 3, 16, "already declared (line 2)"},
        {"#!amber\nBUFFER b DATA_TYPE floaty SIZE 1 FILL 0\n", CVM_ERROR_SYNTAX, 2, 20,
         "a data type"},
        {"#!amber\nBUFFER b DATA_TYPE float SIZE x FILL 0\n", CVM_ERROR_SYNTAX, 2, 31,
         "a size in elements"},
        {"#!amber\nBUFFER b DATA_TYPE float SIZE 4 FILL zz\n", CVM_ERROR_SYNTAX, 2, 38,
         "a float value"},
        {"#!amber\nBUFFER b DATA_TYPE uint8 DATA 1 256 END\n", CVM_ERROR_SYNTAX, 2, 33,
         "range of uint8"},
        {"#!amber\nBUFFER b DATA_TYPE int8 DATA -129 END\n", CVM_ERROR_SYNTAX, 2, 30,
         "range of int8"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 4294967296 END\n", CVM_ERROR_SYNTAX, 2, 32,
         "unsigned integer"},
        {"#!amber\nBUFFER b DATA_TYPE uint8 DATA -129 END\n", CVM_ERROR_SYNTAX, 2, 31,
         "range of uint8"},
        {"#!amber\nBUFFER b DATA_TYPE int32 DATA 1.5 END\n", CVM_ERROR_SYNTAX, 2, 31,
         "range of int32"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 2\n", CVM_ERROR_SYNTAX, 3, 1,
         "expected END closing the DATA of line 2"},
        {"#!amber\nBUFFER b DATA_TYPE vec2<float> DATA 1 2 3 END\n", CVM_ERROR_SYNTAX, 2, 32,
         "not a multiple"},
        {"#!amber\nBUFFER b DATA_TYPE float SIZE 4 FILE\n", CVM_ERROR_SYNTAX, 2, 37,
         "a file path"},
        {"#!amber\nBUFFER b DATA_TYPE float SIZE 4\n", CVM_ERROR_SYNTAX, 2, 32,
         "FILL, SERIES_FROM or FILE"},
        {"#!amber\nBUFFER b DATA_TYPE float SIZE 4 SERIES_FROM 1 BY 2\n", CVM_ERROR_SYNTAX, 2,
         47, "'INC_BY'"},
        {"#!amber\nBUFFER b FORMAT R32_FUNNY SIZE 1 FILL 0\n", CVM_ERROR_SYNTAX, 2, 17,
         "buffer format"},
        {"#!amber\nPIPELINE graphics p\nEND\n", CVM_ERROR_UNSUPPORTED, 2, 10, "compute only"},
        {"#!amber\nPIPELINE compute p\n  ATTACH nope\nEND\n", CVM_ERROR_NOT_FOUND, 3, 10,
         "no shader named 'nope'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\nEND\n",
         CVM_ERROR_SYNTAX, 4, 1, "ATTACH"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\n",
         CVM_ERROR_SYNTAX, 5, 1, "expected END closing PIPELINE 'p' of line 3"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s "
         "SPECIALIZE 0 AS uint32\nEND\n",
         CVM_ERROR_SYNTAX, 4, 33, "a value"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s "
         "SPECIALIZE 0 uint32 1\nEND\n",
         CVM_ERROR_SYNTAX, 4, 24, "'AS'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s "
         "SPECIALIZE 0 AS vec2<float> 1\nEND\n",
         CVM_ERROR_SYNTAX, 4, 27, "a scalar type"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\n "
         "SUBGROUP s\n  REQUIRED_SIZE 24\n END\nEND\n",
         CVM_ERROR_SYNTAX, 6, 17, "power of two"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\n "
         "SUBGROUP t\n END\nEND\n",
         CVM_ERROR_NOT_FOUND, 5, 11, "not the attached shader"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS storage DESCRIPTOR_SET 0\nEND\n",
         CVM_ERROR_SYNTAX, 6, 43, "'BINDING'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS strage DESCRIPTOR_SET 0 BINDING "
         "0\nEND\n",
         CVM_ERROR_SYNTAX, 6, 19,
         "storage, uniform, storage_dynamic, uniform_dynamic, push_constant or device_address"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS device_address b OFFSET 0\nEND\n",
         CVM_ERROR_SYNTAX, 6, 34, "'IN'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS device_address IN c OFFSET 0\nEND\n",
         CVM_ERROR_NOT_FOUND, 6, 37, "no buffer named 'c'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS device_address IN b OFFSET -8\nEND\n",
         CVM_ERROR_SYNTAX, 6, 46, "a byte offset"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "BUFFER c DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER_ARRAY b c AS device_address IN b OFFSET 0\n"
         "END\n",
         CVM_ERROR_SYNTAX, 7, 27, "device_address takes one buffer"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER c AS storage DESCRIPTOR_SET 0 BINDING "
         "0\nEND\n",
         CVM_ERROR_NOT_FOUND, 6, 14, "no buffer named 'c'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS push_constant\n BIND BUFFER b AS "
         "push_constant\nEND\n",
         CVM_ERROR_SYNTAX, 7, 2, "already has a push_constant"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\n "
         "FRAMEBUFFER_SIZE 8 8\nEND\n",
         CVM_ERROR_UNSUPPORTED, 5, 2, "graphics"},
        {"#!amber\nRUN nope 1 1 1\n", CVM_ERROR_NOT_FOUND, 2, 5, "no pipeline named 'nope'"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\nEND\n"
         "RUN p 1 1\n",
         CVM_ERROR_SYNTAX, 6, 10, "the workgroup count Z"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\nEND\n"
         "RUN p 0 1 1\n",
         CVM_ERROR_SYNTAX, 6, 7, "the workgroup count X"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nPIPELINE compute p\n ATTACH s\nEND\n"
         "RUN p 1 1 1 1\n",
         CVM_ERROR_SYNTAX, 6, 13, "end of line after RUN"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b RMSE_BUFFER b\n",
         CVM_ERROR_SYNTAX, 3, 23, "'TOLERANCE'"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b RMSE_BUFFER b TOLERANCE -1\n",
         CVM_ERROR_SYNTAX, 3, 34, "a tolerance"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b EQ_BUFFER c\n",
         CVM_ERROR_NOT_FOUND, 3, 20, "no buffer named 'c'"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b IDX 2 EQ 1\n",
         CVM_ERROR_SYNTAX, 3, 14, "multiple of 4"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b IDX 0 EQ\n",
         CVM_ERROR_SYNTAX, 3, 18, "values to compare"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b IDX 0 ABOUT 1\n",
         CVM_ERROR_SYNTAX, 3, 16, "a comparator"},
        {"#!amber\nBUFFER b DATA_TYPE float DATA 1 END\nEXPECT b IDX 0 TOLERANCE 1 LT 1\n",
         CVM_ERROR_SYNTAX, 3, 28, "EQ (a TOLERANCE only goes with EQ)"},
        {"#!amber\nBUFFER b DATA_TYPE float DATA 1 END\nEXPECT b IDX 0 TOLERANCE x% EQ 1\n",
         CVM_ERROR_SYNTAX, 3, 26, "a tolerance"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b\n", CVM_ERROR_SYNTAX, 3, 9,
         "IDX, EQ_BUFFER or RMSE_BUFFER"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nCOPY b b2\n", CVM_ERROR_SYNTAX, 3, 8,
         "'TO'"},
        {"#!amber\nBUFFER b FORMAT R8G8B8A8_UNORM SIZE 1 FILL 0\n", CVM_ERROR_UNSUPPORTED, 2,
         17, "normalized"},
        {"#!amber\nBUFFER b FORMAT R32_SFLOAT\n", CVM_ERROR_UNSUPPORTED, 2, 27,
         "graphics pipeline"},
        {"#!amber\nIMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 4\n",
         CVM_ERROR_UNSUPPORTED, 2, 1, "IMAGE"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b IDX 0 0 SIZE 1 1 EQ_RGBA 0 0 0 "
         "0\n",
         CVM_ERROR_UNSUPPORTED, 3, 14, "image"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS storage_image DESCRIPTOR_SET 0 "
         "BINDING 0\nEND\n",
         CVM_ERROR_UNSUPPORTED, 6, 19, "no images"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS uniform_dynamic DESCRIPTOR_SET 0 "
         "BINDING 0\nEND\n",
         CVM_ERROR_SYNTAX, 6, 19, "needs OFFSET"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "PIPELINE compute p\n ATTACH s\n BIND BUFFER b AS storage DESCRIPTOR_SET 0 "
         "BINDING 0 OFFSET 4\nEND\n",
         CVM_ERROR_SYNTAX, 6, 54, "DESCRIPTOR_OFFSET, DESCRIPTOR_RANGE or end of line"},
        {"#!amber\nSHADER compute s SPIRV-BIN FILE x\nBUFFER b DATA_TYPE uint32 DATA 1 END\n"
         "BUFFER c DATA_TYPE uint32 DATA 1 END\nPIPELINE compute p\n ATTACH s\n BIND "
         "BUFFER_ARRAY b c AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 4\nEND\n",
         CVM_ERROR_SYNTAX, 7, 78, "2 values after OFFSET"},
        {"#!amber\nDEVICE_PROPERTY\n", CVM_ERROR_SYNTAX, 2, 16, "a property name"},
        {"#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nBUFFER b DATA_TYPE uint32 DATA 1 END\n",
         CVM_ERROR_SYNTAX, 3, 8, "buffer 'b' is already declared (line 2)"},
        {"#!amber\nREPEAT 3\nEND\n", CVM_ERROR_UNSUPPORTED, 2, 1, "REPEAT"},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const syntax_case *c = &cases[i];
        cvm_amber_script *s = (cvm_amber_script *)1;
        cvm_diagnostic d;
        cvm_result r = cvm_amber_parse(c->text, strlen(c->text), "dir/e.amber", &s, &d);
        if (r != c->result || d.line != c->line || d.column != c->column ||
            !strstr(d.message, c->message_part)) {
            print_error("case %zu: got %s %u:%u '%s', wanted %s %u:%u '...%s...'\n", i,
                        cvm_result_string(r), d.line, d.column, d.message,
                        cvm_result_string(c->result), c->line, c->column, c->message_part);
            failures++;
            continue;
        }
        assert_null(s);
        assert_string_equal(d.file, "dir/e.amber");
    }
    assert_int_equal(failures, 0);
}

/* Comparisons ------------------------------------------------------------ */

/* Parses `text`, makes a session, lets `poke` change buffers, checks all
 * EXPECTs and returns the results (copied into `out`, up to `cap`). */
static uint32_t check_script(const char *text, void (*poke)(cvm_amber_session *, const cvm_amber_script *),
                             cvm_amber_expect_result *out, uint32_t cap)
{
    cvm_amber_script *s = parse_ok(text);
    fake_reset();
    cvm_amber_session *S = session_ok(s);
    if (poke)
        poke(S, s);
    const cvm_amber_expect_result *res;
    uint32_t n, failed = 0;
    cvm_result r = cvm_amber_session_check(S, &res, &n);
    assert_true(n <= cap);
    for (uint32_t i = 0; i < n; i++) {
        out[i] = res[i];
        out[i].text = NULL; /* the script goes away below */
        failed += !res[i].passed;
    }
    assert_int_equal(r, failed ? CVM_ERROR_EXPECTATION_FAILED : CVM_SUCCESS);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
    return n;
}

static void poke_half_bits(cvm_amber_session *S, const cvm_amber_script *s)
{
    /* a = {+0, NaN 0x7e00, NaN 0x7e00, 1.0}, b = {-0, NaN 0x7e01, NaN 0x7e00, 1.0} */
    uint16_t a[4] = {0x0000, 0x7e00, 0x7e00, 0x3c00}, b[4] = {0x8000, 0x7e01, 0x7e00, 0x3c00};
    memcpy(cvm_amber_session_buffer(S, cvm_amber_find_buffer(s, "a"), NULL), a, 8);
    memcpy(cvm_amber_session_buffer(S, cvm_amber_find_buffer(s, "b"), NULL), b, 8);
    /* c equals a bit for bit */
    memcpy(cvm_amber_session_buffer(S, cvm_amber_find_buffer(s, "c"), NULL), a, 8);
}

static void test_eq_buffer_float16_bits(void **state)
{
    (void)state;
    cvm_amber_expect_result r[3];
    uint32_t n = check_script("#!amber\n"
                              "BUFFER a DATA_TYPE float16 SIZE 4 FILL 0\n"
                              "BUFFER b DATA_TYPE float16 SIZE 4 FILL 0\n"
                              "BUFFER c DATA_TYPE float16 SIZE 4 FILL 0\n"
                              "EXPECT a EQ_BUFFER b\n"
                              "EXPECT a EQ_BUFFER c\n"
                              "EXPECT c EQ_BUFFER a\n",
                              poke_half_bits, r, 3);
    assert_int_equal(n, 3);
    /* +0 vs -0 differ in bits though equal as numbers; the NaN payloads
     * differ too: two mismatches, the first at 0 with error 0; the NaN pair
     * has no numeric difference (both NaN): worst error stays 0. */
    assert_false(r[0].passed);
    assert_int_equal(r[0].line, 5);
    assert_int_equal(r[0].mismatches, 2);
    assert_int_equal(r[0].compared, 4);
    assert_int_equal(r[0].first_index, 0);
    assert_int_equal(r[0].got_bits, 0x0000);
    assert_int_equal(r[0].expected_bits, 0x8000);
    assert_true(r[0].worst_error == 0.0);
    /* identical bits including the same NaN: pass */
    assert_true(r[1].passed);
    assert_int_equal(r[1].mismatches, 0);
    assert_true(r[2].passed);
}

static void test_eq_buffer_shape_mismatch(void **state)
{
    (void)state;
    cvm_amber_expect_result r[2];
    check_script("#!amber\n"
                 "BUFFER a DATA_TYPE float SIZE 4 FILL 0\n"
                 "BUFFER b DATA_TYPE float SIZE 5 FILL 0\n"
                 "BUFFER c DATA_TYPE uint32 SIZE 4 FILL 0\n"
                 "EXPECT a EQ_BUFFER b\n"
                 "EXPECT a RMSE_BUFFER c TOLERANCE 1\n",
                 NULL, r, 2);
    assert_false(r[0].passed);
    assert_non_null(strstr(r[0].message, "different sizes (4 vs 5 elements)"));
    assert_false(r[1].passed);
    assert_non_null(strstr(r[1].message, "different types"));
}

static void test_eq_buffer_values(void **state)
{
    (void)state;
    cvm_amber_expect_result r[2];
    /* int32: 5 vs 9 at index 2, -3 vs 4 at index 3 (error 7): first 2, worst 3 */
    check_script("#!amber\n"
                 "BUFFER got DATA_TYPE int32 DATA 1 2 5 -3 END\n"
                 "BUFFER want DATA_TYPE int32 DATA 1 2 9 4 END\n"
                 "EXPECT got EQ_BUFFER want\n"
                 "EXPECT got EQ_BUFFER got\n",
                 NULL, r, 2);
    assert_false(r[0].passed);
    assert_int_equal(r[0].mismatches, 2);
    assert_int_equal(r[0].first_index, 2);
    assert_true(r[0].expected_value == 9.0 && r[0].got_value == 5.0);
    assert_true(r[0].worst_error == 7.0);
    assert_int_equal(r[0].worst_index, 3);
    assert_true(r[1].passed);
}

static void test_rmse_boundary(void **state)
{
    (void)state;
    cvm_amber_expect_result r[6];
    /* diffs 0 0 0 2 -> mean square 4/4 = 1 -> rmse 1 exactly */
    check_script("#!amber\n"
                 "BUFFER got DATA_TYPE float DATA 1 2 3 4 END\n"
                 "BUFFER want DATA_TYPE float DATA 1 2 3 6 END\n"
                 "EXPECT got RMSE_BUFFER want TOLERANCE 1\n"
                 "EXPECT got RMSE_BUFFER want TOLERANCE 0.999\n"
                 /* diffs 0.5 x4 -> rmse 0.5: at the tolerance passes (amber fails
                  * only when rmse > tolerance) */
                 "BUFFER z DATA_TYPE float SIZE 4 FILL 0\n"
                 "BUFFER h DATA_TYPE float SIZE 4 FILL 0.5\n"
                 "EXPECT z RMSE_BUFFER h TOLERANCE 0.5\n"
                 "EXPECT z RMSE_BUFFER h TOLERANCE 0.4999\n"
                 /* float16: {1, 2} vs {1, 2.5}: rmse = sqrt(0.25 / 2) = 0.353553... */
                 "BUFFER ha DATA_TYPE float16 DATA 1 2 END\n"
                 "BUFFER hb DATA_TYPE float16 DATA 1 2.5 END\n"
                 "EXPECT ha RMSE_BUFFER hb TOLERANCE 0.35\n"
                 "EXPECT ha RMSE_BUFFER hb TOLERANCE 0.36\n",
                 NULL, r, 6);
    assert_true(r[0].passed);
    assert_true(r[0].rmse == 1.0);
    assert_false(r[1].passed);
    assert_true(r[1].rmse == 1.0);
    assert_true(r[1].worst_error == 2.0);
    assert_int_equal(r[1].first_index, 3); /* the only |diff| over the tolerance */
    assert_true(r[1].expected_value == 6.0 && r[1].got_value == 4.0);
    assert_int_equal(r[1].mismatches, 1);
    assert_true(r[2].passed);
    assert_true(r[2].rmse == 0.5);
    assert_false(r[3].passed);
    assert_false(r[4].passed);
    assert_float_equal(r[4].rmse, 0.35355339059327373, 1e-12);
    assert_int_equal(r[4].first_index, 1);
    assert_true(r[4].got_value == 2.0 && r[4].expected_value == 2.5);
    assert_true(r[5].passed);
}

static void poke_nan(cvm_amber_session *S, const cvm_amber_script *s)
{
    float nan = __builtin_nanf("");
    memcpy(cvm_amber_session_buffer(S, cvm_amber_find_buffer(s, "a"), NULL), &nan, 4);
}

static void test_rmse_nan_fails(void **state)
{
    (void)state;
    cvm_amber_expect_result r[1];
    check_script("#!amber\n"
                 "BUFFER a DATA_TYPE float SIZE 2 FILL 0\n"
                 "BUFFER b DATA_TYPE float SIZE 2 FILL 0\n"
                 "EXPECT a RMSE_BUFFER b TOLERANCE 100\n",
                 poke_nan, r, 1);
    assert_false(r[0].passed);
    assert_int_equal(r[0].first_index, 0);
    assert_true(isinf(r[0].worst_error));
}

static void test_idx_forms(void **state)
{
    (void)state;
    cvm_amber_expect_result r[12];
    uint32_t n = check_script(
        "#!amber\n"
        "BUFFER u DATA_TYPE uint32 DATA 1 2 3 4 END\n"
        "EXPECT u IDX 4 EQ 2 3\n"          /* 0 pass */
        "EXPECT u IDX 8 EQ 3 5\n"          /* 1 fail at slot 3: want 5 got 4 */
        "EXPECT u IDX 12 EQ 4 5\n"         /* 2 past the end */
        "EXPECT u IDX 0 LT 2 3 4 5\n"      /* 3 pass */
        "EXPECT u IDX 0 GE 1 3\n"          /* 4 fail at slot 1 (2 >= 3 false) */
        "BUFFER i DATA_TYPE int8 DATA -1 -128 END\n"
        "EXPECT i IDX 0 LT 0 -127\n"       /* 5 signed compare: pass */
        "BUFFER b DATA_TYPE uint8 DATA 255 END\n"
        "EXPECT b IDX 0 GT 1\n"            /* 6 unsigned: pass */
        "BUFFER f DATA_TYPE float DATA 1.0 2.0 END\n"
        "EXPECT f IDX 0 TOLERANCE 0.1 EQ 1.05 2.09\n"  /* 7 pass, errors .05 .09 */
        "EXPECT f IDX 0 TOLERANCE 10% EQ 1.05 2.3\n"   /* 8 fail at 1: .3 > .23 */
        "EXPECT f IDX 4 NE 2.5\n"                      /* 9 pass */
        "BUFFER v DATA_TYPE vec3<float> DATA 1 2 3 4 5 6 END\n"
        "EXPECT v IDX 16 EQ 4 5 6\n"       /* 10 pass: element 1 starts at byte 16 */
        "EXPECT v IDX 12 EQ 4\n",          /* 11 padding */
        NULL, r, 12);
    assert_int_equal(n, 12);
    assert_true(r[0].passed);
    assert_int_equal(r[0].compared, 2);
    assert_false(r[1].passed);
    assert_int_equal(r[1].first_index, 3);
    assert_true(r[1].expected_value == 5.0 && r[1].got_value == 4.0);
    assert_int_equal(r[1].mismatches, 1);
    assert_false(r[2].passed);
    assert_non_null(strstr(r[2].message, "past the end"));
    assert_true(r[3].passed);
    assert_false(r[4].passed);
    assert_int_equal(r[4].first_index, 1);
    assert_true(r[5].passed);
    assert_true(r[6].passed);
    assert_true(r[7].passed);
    assert_false(r[8].passed);
    assert_int_equal(r[8].first_index, 1);
    assert_float_equal(r[8].worst_error, 0.3, 1e-6);
    assert_true(r[9].passed);
    assert_true(r[10].passed);
    assert_false(r[11].passed);
    assert_non_null(strstr(r[11].message, "padding"));
}

/* Requirements, files, subgroup sizes --------------------------------------- */

static void test_unsupported_extension(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok("#!amber\n"
                                   "DEVICE_EXTENSION VK_KHR_cooperative_matrix\n"
                                   "DEVICE_EXTENSION VK_EXT_made_up\n");
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_UNSUPPORTED);
    assert_null(S);
    assert_non_null(strstr(d.message, "DEVICE_EXTENSION VK_EXT_made_up"));
    assert_int_equal(d.line, 3);
    cvm_amber_script_destroy(s);

    s = parse_ok("#!amber\nDEVICE_FEATURE Foo.bar\n");
    assert_int_equal(cvm_amber_check_requirements(s, &d), CVM_ERROR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "DEVICE_FEATURE Foo.bar"));
    assert_int_equal(d.line, 2);
    cvm_amber_script_destroy(s);
}

static void test_missing_file(void **state)
{
    (void)state;
    cvm_amber_script *s = NULL;
    cvm_diagnostic d;
    const char *text = "#!amber\nBUFFER a DATA_TYPE float SIZE 4 FILE BINARY missing.bin\n";
    assert_int_equal(cvm_amber_parse(text, strlen(text), "/nonexistent-cvm/t.amber", &s, &d),
                     CVM_SUCCESS);
    cvm_amber_session *S = NULL;
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_IO);
    assert_non_null(strstr(d.message, "/nonexistent-cvm/missing.bin"));
    assert_int_equal(d.line, 2);
    assert_string_equal(d.file, "/nonexistent-cvm/t.amber");
    cvm_amber_script_destroy(s);

    /* a missing shader file names it too */
    text = "#!amber\nSHADER compute x SPIRV-BIN FILE nope.spv\nPIPELINE compute p\n"
           " ATTACH x\nEND\n";
    assert_int_equal(cvm_amber_parse(text, strlen(text), "/nonexistent-cvm/t.amber", &s, &d),
                     CVM_SUCCESS);
    fake_reset();
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_IO);
    assert_non_null(strstr(d.message, "/nonexistent-cvm/nope.spv"));
    assert_int_equal(d.line, 2);
    assert_int_equal(fake.contexts, 0);
    cvm_amber_script_destroy(s);
}

static void test_file_size_mismatch(void **state)
{
    (void)state;
    char text[512];
    /* the .spv helper file has 20 bytes.  As google/amber does, the file
     * decides the size, whatever SIZE says: a uint32 buffer of SIZE 4 gets
     * its 5 words... */
    snprintf(text, sizeof(text), "#!amber\nBUFFER a DATA_TYPE uint32 SIZE 4 FILE BINARY %s\n",
             spv_path());
    cvm_amber_script *s = parse_ok(text);
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    fake_reset();
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_SUCCESS);
    size_t size = 0;
    const uint32_t *w = cvm_amber_session_buffer(S, 0, &size);
    assert_int_equal(size, 20);
    assert_int_equal(w[0], 0x07230203u);
    assert_int_equal(w[3], 8);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
    /* ...but 20 bytes are not whole elements of a vec3<float> (16 bytes) */
    snprintf(text, sizeof(text),
             "#!amber\nBUFFER a DATA_TYPE vec3<float> SIZE 1 FILE BINARY %s\n", spv_path());
    s = parse_ok(text);
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "has 20 bytes"));
    assert_non_null(strstr(d.message, "not whole elements of 16"));
    cvm_amber_script_destroy(s);
}

static void test_subgroup_sizes(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof(text),
             "#!amber\nSHADER compute x SPIRV-BIN FILE %s\n"
             "PIPELINE compute p\n ATTACH x\n SUBGROUP x\n  REQUIRED_SIZE 16\n END\nEND\n"
             "PIPELINE compute q\n ATTACH x\n SUBGROUP x\n  REQUIRED_SIZE 32\n END\nEND\n",
             spv_path());
    cvm_amber_script *s = parse_ok(text);
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    fake_reset();
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_UNSUPPORTED);
    assert_int_equal(d.line, 12);
    assert_non_null(strstr(d.message, "one subgroup size"));
    cvm_amber_script_destroy(s);

    snprintf(text, sizeof(text),
             "#!amber\nSHADER compute x SPIRV-BIN FILE %s\n"
             "PIPELINE compute p\n ATTACH x\n SUBGROUP x\n  REQUIRED_SIZE 16\n END\nEND\n",
             spv_path());
    s = parse_ok(text);
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.subgroup_size = 8;
    assert_int_equal(cvm_amber_session_create(s, &desc, &S, &d), CVM_ERROR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "requires subgroup size 16"));
    desc.subgroup_size = 0;
    desc.threads = 3;
    desc.flags = CVM_FLAG_ROBUST_ACCESS;
    fake_reset();
    S = NULL;
    assert_int_equal(cvm_amber_session_create(s, &desc, &S, &d), CVM_SUCCESS);
    assert_int_equal(fake.last_desc.subgroup_size, 16);
    assert_int_equal(fake.last_desc.threads, 3);
    assert_int_equal(fake.last_desc.flags, CVM_FLAG_ROBUST_ACCESS);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
}

/* Running ---------------------------------------------------------------- */

/* The fake shader: doubles every uint32 at (0, 0) and adds push constant 0. */
static cvm_result double_hook(cvm_pipeline *p, const uint32_t groups[3], cvm_diagnostic *d)
{
    (void)groups;
    fake_binding *b = fake_find_binding(p, 0, 0, 0);
    if (!b) {
        fake_diag(d, CVM_ERROR_MISSING_BINDING, "fake: no (0,0)");
        return CVM_ERROR_MISSING_BINDING;
    }
    uint32_t add = 0;
    if (p->push_size >= 4)
        memcpy(&add, p->push, 4);
    uint32_t *w = b->data;
    for (size_t i = 0; i < b->size / 4; i++)
        w[i] = w[i] * 2 + add;
    return CVM_SUCCESS;
}

static cvm_result failing_hook(cvm_pipeline *p, const uint32_t groups[3], cvm_diagnostic *d)
{
    (void)p, (void)groups;
    fake_diag(d, CVM_ERROR_OUT_OF_BOUNDS, "fake: store out of bounds");
    d->word_offset = 42;
    d->opcode = 62;
    return CVM_ERROR_OUT_OF_BOUNDS;
}

static const char *run_script(void)
{
    static char text[1024];
    snprintf(text, sizeof(text),
             "#!amber\nSHADER compute x SPIRV-BIN FILE %s\n"
             "BUFFER data DATA_TYPE uint32 DATA 1 2 3 END\n"
             "BUFFER pc DATA_TYPE uint32 DATA 10 END\n"
             "BUFFER pc2 DATA_TYPE uint32 DATA 100 END\n"
             "PIPELINE compute p\n ATTACH x\n"
             " BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0\n"
             " BIND BUFFER pc AS push_constant\nEND\n"
             "EXPECT data IDX 0 EQ 1 2 3\n"   /* before any RUN */
             "RUN p 2 1 1\n"
             "EXPECT data IDX 0 EQ 12 14 16\n" /* x*2+10 */
             "COPY pc2 TO pc\n"
             "RUN p 1 1 1\n"
             "EXPECT data IDX 0 EQ 124 128 132\n" /* x*2+100 */
             "EXPECT data IDX 0 EQ 0 0 0\n",      /* fails */
             spv_path());
    return text;
}

static void test_execute_in_order(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok(run_script());
    fake_reset();
    fake.dispatch_hook = double_hook;
    cvm_amber_report rep;
    cvm_diagnostic d;
    assert_int_equal(cvm_amber_execute(s, NULL, &rep, &d), CVM_ERROR_EXPECTATION_FAILED);
    assert_int_equal(rep.result_count, 4);
    assert_int_equal(rep.failed, 1);
    assert_true(rep.results[0].passed);
    assert_true(rep.results[1].passed);
    assert_true(rep.results[2].passed);
    assert_false(rep.results[3].passed);
    assert_int_equal(rep.results[3].line, 17);
    assert_string_equal(rep.results[3].text, "EXPECT data IDX 0 EQ 0 0 0");
    assert_true(rep.results[3].got_value == 124.0);
    assert_int_equal(fake.dispatches, 2);
    assert_int_equal(fake.contexts + fake.modules + fake.pipelines, 0);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
}

static void test_execute_engine_error(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok(run_script());
    fake_reset();
    fake.dispatch_hook = failing_hook;
    cvm_amber_report rep;
    cvm_diagnostic d;
    assert_int_equal(cvm_amber_execute(s, NULL, &rep, &d), CVM_ERROR_OUT_OF_BOUNDS);
    assert_int_equal(rep.error_line, 12);
    assert_int_equal(rep.result_count, 1); /* the EXPECT before the RUN */
    assert_int_equal(d.word_offset, 42);
    assert_int_equal(d.opcode, 62);
    cvm_amber_report_release(&rep);
    cvm_amber_script_destroy(s);
}

static void test_session_run_reset(void **state)
{
    (void)state;
    cvm_amber_script *s = parse_ok(run_script());
    fake_reset();
    fake.dispatch_hook = double_hook;
    cvm_amber_session *S = session_ok(s);
    cvm_diagnostic d;
    uint32_t *w = cvm_amber_session_buffer(S, cvm_amber_find_buffer(s, "data"), NULL);
    assert_int_equal(cvm_amber_session_run(S, 0, &d), CVM_SUCCESS);
    assert_int_equal(w[0], 12);
    assert_int_equal(cvm_amber_session_run(S, 0, &d), CVM_SUCCESS);
    assert_int_equal(w[0], 34);
    assert_int_equal(cvm_amber_session_run(S, 2, &d), CVM_ERROR_INVALID_ARGUMENT);
    cvm_amber_session_reset_buffers(S);
    assert_int_equal(w[0], 1);
    assert_int_equal(w[2], 3);
    /* session_check sees all EXPECTs at once against the current contents:
     * only the first (1 2 3) holds after the reset */
    const cvm_amber_expect_result *res;
    uint32_t n;
    assert_int_equal(cvm_amber_session_check(S, &res, &n), CVM_ERROR_EXPECTATION_FAILED);
    assert_int_equal(n, 4);
    assert_true(res[0].passed);
    assert_false(res[1].passed);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
}

static void test_asm_shader_error_line(void **state)
{
    (void)state;
    /* The fake assembler fails at text line 2: the diagnostic must point at
     * script line 3 + 2 - 1 = 4. */
    const char *text = "#!amber\nSHADER compute x SPIRV-ASM\n OpCapability Shader\n bogus\nEND\n"
                       "PIPELINE compute p\n ATTACH x\nEND\n";
    cvm_amber_script *s = parse_ok(text);
    cvm_amber_session *S = NULL;
    cvm_diagnostic d;
    fake_reset();
    assert_int_equal(cvm_amber_session_create(s, NULL, &S, &d), CVM_ERROR_SYNTAX);
    assert_int_equal(d.line, 4);
    assert_int_equal(fake.contexts, 0);
    cvm_amber_script_destroy(s);
}

static void test_spirv_hex_shader(void **state)
{
    (void)state;
    const char *text = "#!amber\nSHADER compute x SPIRV-HEX\n 03 02 23 07 00 06 01 00\n"
                       " 00 00 00 00 08 00 00 00 00 00 00 00\nEND\n"
                       "PIPELINE compute p\n ATTACH x\nEND\n";
    cvm_amber_script *s = parse_ok(text);
    fake_reset();
    cvm_amber_session *S = session_ok(s);
    assert_int_equal(fake.last_word_count, 5);
    cvm_amber_session_destroy(S);
    cvm_amber_script_destroy(s);
}

static void test_half_conversion(void **state)
{
    (void)state;
    /* Values from the binary16 definition: 1 = 0x3c00, 2^-24 = 0x0001 (the
     * smallest subnormal), 2^-14 = 0x0400, 65504 = 0x7bff, 65520 is the
     * midpoint to 2^16 and rounds (to even) to infinity 0x7c00, 1/3 ->
     * 0x3555, 1 + 2^-11 is the midpoint between 0x3c00 and 0x3c01 and rounds
     * to even 0x3c00. */
    assert_int_equal(cvm_amber_float_to_half(1.0f), 0x3c00);
    assert_int_equal(cvm_amber_float_to_half(0x1p-24f), 0x0001);
    assert_int_equal(cvm_amber_float_to_half(0x1p-14f), 0x0400);
    assert_int_equal(cvm_amber_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(cvm_amber_float_to_half(65520.0f), 0x7c00);
    assert_int_equal(cvm_amber_float_to_half(1.0f / 3.0f), 0x3555);
    assert_int_equal(cvm_amber_float_to_half(1.0f + 0x1p-11f), 0x3c00);
    assert_int_equal(cvm_amber_float_to_half(-0.0f), 0x8000);
    assert_true(cvm_amber_half_to_float(0x3555) == 0.333251953125f);
    assert_true(cvm_amber_half_to_float(0x0001) == 0x1p-24f);
    assert_true(cvm_amber_half_to_float(0xfbff) == -65504.0f);
    assert_true(isinf(cvm_amber_half_to_float(0x7c00)));
    assert_true(isnan(cvm_amber_half_to_float(0x7e00)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_all_constructs),
        cmocka_unit_test(test_parse_shared_scripts),
        cmocka_unit_test(test_shared_script_values),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_eq_buffer_float16_bits),
        cmocka_unit_test(test_eq_buffer_shape_mismatch),
        cmocka_unit_test(test_eq_buffer_values),
        cmocka_unit_test(test_rmse_boundary),
        cmocka_unit_test(test_rmse_nan_fails),
        cmocka_unit_test(test_idx_forms),
        cmocka_unit_test(test_unsupported_extension),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_file_size_mismatch),
        cmocka_unit_test(test_subgroup_sizes),
        cmocka_unit_test(test_execute_in_order),
        cmocka_unit_test(test_execute_engine_error),
        cmocka_unit_test(test_session_run_reset),
        cmocka_unit_test(test_asm_shader_error_line),
        cmocka_unit_test(test_spirv_hex_shader),
        cmocka_unit_test(test_half_conversion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
