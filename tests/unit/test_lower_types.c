/* The lowering refuses, by itself, an instruction whose types are not the
 * ones its handler reads and writes (a module run with
 * CVM_FLAG_NO_VALIDATION meets no validator first).  Each case takes a
 * module of tests/ in SPIR-V text and adds one instruction after a given
 * line: with the types the texts require (the twin) the pipeline is made;
 * with one type changed, pipeline creation fails with
 * CVM_ERROR_INVALID_MODULE and the lowering's message.  Without the check
 * the handler would write or read past the value's slot (the class of
 * fuzz findings in tests/fuzz/regress/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coopvm.h"

typedef struct lower_case {
    const char *file;  /* under tests/ */
    const char *after; /* the instructions are added after the first line holding this */
    const char *good;  /* the added instructions, as the texts want them */
    const char *bad;   /* the same with a type changed */
    const char *want;  /* a part of the lowering's message */
    const char *types; /* NULL, or type declarations added after TYPES_AFTER */
} lower_case;

#define SPLAT "amber/shaders/coopmat_splat_nonuniform.spvasm"
/* tests/lower/base.spvasm: 64 invocations whose values (%li, %lf, %ld,
 * %lh, %lb, %ll, %lv4f, %lv2f, %lv4d, %lm4) come from LocalInvocationIndex,
 * types of every width, 1x1 and 8x8 float matrices of both scopes; cases
 * add instructions after its OpNop and types after TYPES_AFTER. */
#define BASE "lower/base.spvasm"
#define BODY "OpNop"
#define TYPES_AFTER "%rta = OpTypeRuntimeArray %uint"

static const lower_case cases[] = {
    /* "Result Type must be an OpTypeInt with 32-bit Width" */
    {SPLAT, "%47 = OpCooperativeMatrixLengthKHR %uint %11",
     "%zz = OpCooperativeMatrixLengthKHR %uint %11", "%zz = OpCooperativeMatrixLengthKHR %bool %11",
     "is not a 32-bit integer", NULL},
    /* arith.c, ewise.c, convert.c, composite.c */
    /* integer operations want integer components (SPIR-V 3.42.13): a float
     * UMod reached the compiled tier's integer division (SEGV in LLVM) */
    {BASE, BODY, "%zz = OpUMod %uint %li %li", "%zz = OpUMod %float %lf %lf",
     "must have integer components", NULL},
    {BASE, BODY, "%zz = OpFAdd %float %lf %lf", "%zz = OpFAdd %uint %li %li",
     "must have float components", NULL},
    {BASE, BODY, "%zz = OpIEqual %bool %li %li", "%zz = OpIEqual %bool %lf %lf",
     "must have integer components", NULL},
    /* a matrix operand read per invocation, and one of the other scope */
    {BASE, BODY, "%m = OpCompositeConstruct %cm_sg11 %float_1\n%zz = OpFAdd %cm_sg11 %m %m",
     "%m = OpCompositeConstruct %cm_sg11 %float_1\n%zz = OpFAdd %float %m %lf",
     "is a cooperative matrix, the result is not one of its scope and shape", NULL},
    {BASE, BODY, "%m = OpCompositeConstruct %cm_sg11 %float_1\n%zz = OpFAdd %cm_sg11 %m %m",
     "%m = OpCompositeConstruct %cm_wg11 %float_1\n%zz = OpFAdd %cm_sg11 %m %m",
     "is a cooperative matrix, the result is not one of its scope and shape", NULL},
    {BASE, BODY, "%zz = OpConvertFToU %uint %lf",
     "%m = OpCompositeConstruct %cm_wg11 %float_1\n%zz = OpConvertFToU %uint %m",
     "is a cooperative matrix, the result is not one of its scope and shape", NULL},
    /* OpDot: "their component type must be Result Type" */
    {BASE, BODY, "%zz = OpDot %float %lv4f %lv4f", "%zz = OpDot %double %lv4f %lv4f",
     "must be float vectors of one type whose component type is Result Type", NULL},
    /* bit fields: Result Type and Base of one type */
    {BASE, BODY, "%zz = OpBitFieldUExtract %uint %li %uint_1 %uint_2",
     "%zz = OpBitFieldUExtract %uchar %li %uint_1 %uint_2",
     "1-byte components where 4-byte ones are needed", NULL},
    {BASE, BODY, "%zz = OpBitFieldInsert %uint %li %li %uint_1 %uint_2",
     "%zz = OpBitFieldInsert %uint %li %ll %uint_1 %uint_2",
     "8-byte components where 4-byte ones are needed", NULL},
    /* "two members ... the same type" as the operands */
    {BASE, BODY, "%zz = OpIAddCarry %carry %li %li", "%zz = OpIAddCarry %carry8 %li %li",
     "must be of one integer scalar or vector type",
     "%carry = OpTypeStruct %uint %uint\n%carry8 = OpTypeStruct %uchar %uchar"},
    /* OpTypeMatrix times a scalar of its Component Type */
    {BASE, BODY, "%zz = OpMatrixTimesScalar %mat4 %lm4 %lf",
     "%zz = OpMatrixTimesScalar %mat4 %lm4 %ld", "its Component Type", NULL},
    /* "The component width must be 32 bits" */
    {BASE, BODY, "%zz = OpQuantizeToF16 %float %lf", "%zz = OpQuantizeToF16 %half %lh",
     "must be a 32-bit float scalar or vector", NULL},
    /* a per-invocation Result Type or Object of the right size but a matrix */
    {BASE, BODY, "%zz = OpCompositeExtract %float %lv4f 0",
     "%zz = OpCompositeExtract %cm_wg11 %lv4f 0",
     "is a workgroup cooperative matrix where a per-invocation value is needed", NULL},
    {BASE, BODY, "%zz = OpVectorExtractDynamic %float %lv4f %li",
     "%zz = OpVectorExtractDynamic %cm_wg11 %lv4f %li",
     "is a workgroup cooperative matrix where a per-invocation value is needed", NULL},
    {BASE, BODY, "%m = OpCompositeConstruct %cm_wg11 %float_1\n%zz = OpCompositeInsert %v4float %lf %lv4f 0",
     "%m = OpCompositeConstruct %cm_wg11 %float_1\n%zz = OpCompositeInsert %v4float %m %lv4f 0",
     "is a workgroup cooperative matrix where a per-invocation value is needed", NULL},
    /* a matrix member extracted as a matrix of the other scope */
    {BASE, BODY, "%u = OpUndef %sm\n%zz = OpCompositeExtract %cm_sg88 %u 0",
     "%u = OpUndef %sm\n%zz = OpCompositeExtract %cm_wg88 %u 0",
     "is a workgroup cooperative matrix where a subgroup cooperative matrix is needed",
     "%sm = OpTypeStruct %cm_sg88"},
    /* a runtime array is no value: its index had no bound */
    {BASE, BODY, "%u = OpUndef %v4float\n%zz = OpCompositeExtract %float %u 1",
     "%u = OpUndef %rta\n%zz = OpCompositeExtract %uint %u 1000",
     "a runtime array is not a value to index", NULL},
    /* glsl.c */
    /* element-wise: "Result Type and the type of x must be the same type" */
    {BASE, BODY, "%zz = OpExtInst %double %glsl FAbs %ld", "%zz = OpExtInst %half %glsl FAbs %ld",
     "FAbs: Result Type", NULL},
    /* the other operands: the type of x */
    {BASE, BODY, "%zz = OpExtInst %double %glsl FMin %ld %ld", "%zz = OpExtInst %double %glsl FMin %ld %lf",
     "FMin: y %", NULL},
    /* integer kernels: the width of x */
    {BASE, BODY, "%zz = OpExtInst %uint %glsl UMin %li %li", "%zz = OpExtInst %uint %glsl UMin %li %ll",
     "UMin: y %", NULL},
    {BASE, BODY, "%zz = OpExtInst %uint %glsl SAbs %li", "%zz = OpExtInst %ulong %glsl SAbs %li",
     "SAbs: Result Type", NULL},
    /* ModfStruct: members of the type of x */
    {BASE, BODY, "%zz = OpExtInst %st_ff %glsl ModfStruct %lf",
     "%zz = OpExtInst %st_fh %glsl ModfStruct %lf", "ModfStruct: Result Type",
     "%st_ff = OpTypeStruct %float %float\n%st_fh = OpTypeStruct %float %half"},
    /* FrexpStruct: the exponent 32-bit (or 16-bit) integers, as many as x's components */
    {BASE, BODY, "%zz = OpExtInst %st_fi %glsl FrexpStruct %lf",
     "%zz = OpExtInst %st_fs %glsl FrexpStruct %lf", "FrexpStruct: Result Type",
     "%st_fi = OpTypeStruct %float %int\n%st_fs = OpTypeStruct %float %ulong"},
    /* Frexp: Result Type the type of x; exp points to as many integers */
    {BASE, BODY, "%zz = OpExtInst %float %glsl Frexp %lf %pp", "%zz = OpExtInst %double %glsl Frexp %lf %pp",
     "Frexp: Result Type", NULL},
    {BASE, BODY, "%zz = OpExtInst %float %glsl Frexp %lf %pp", "%zz = OpExtInst %v2float %glsl Frexp %lv2f %pp",
     "does not point to", NULL},
    /* Length: the component type; Distance: operands of one type */
    {BASE, BODY, "%zz = OpExtInst %double %glsl Length %lv4d", "%zz = OpExtInst %v4double %glsl Length %lv4d",
     "Length: Result Type", NULL},
    {BASE, BODY, "%zz = OpExtInst %double %glsl Distance %lv4d %lv4d",
     "%zz = OpExtInst %double %glsl Distance %lv4d %lv4f", "Distance: p1 %", NULL},
    /* Normalize, Cross: the type of x */
    {BASE, BODY, "%zz = OpExtInst %v4double %glsl Normalize %lv4d",
     "%zz = OpExtInst %bool %glsl Normalize %lv4d", "Normalize: Result Type", NULL},
    {BASE, BODY,
     "%lv3d = OpCompositeConstruct %v3double %ld %ld %ld\n%zz = OpExtInst %v3double %glsl Cross %lv3d %lv3d",
     "%lv3d = OpCompositeConstruct %v3double %ld %ld %ld\n%zz = OpExtInst %bool %glsl Cross %lv3d %lv3d",
     "Cross: Result Type", "%v3double = OpTypeVector %double 3"},
    /* Determinant: the component type; MatrixInverse: the type of x */
    {BASE, BODY, "%zz = OpExtInst %float %glsl Determinant %lm4",
     "%zz = OpExtInst %v4float %glsl Determinant %lm4", "Determinant: Result Type", NULL},
    {BASE, BODY, "%zz = OpExtInst %mat4 %glsl MatrixInverse %lm4",
     "%zz = OpExtInst %float %glsl MatrixInverse %lm4", "MatrixInverse: Result Type", NULL},
    /* subgroup.c, atomic.c */
    /* group arithmetic: "The type of Value must be the same as Result Type" */
    {BASE, BODY, "%zz = OpGroupNonUniformFAdd %v4double %uint_3 Reduce %lv4d",
     "%zz = OpGroupNonUniformFAdd %bool %uint_3 Reduce %lv4d", "is not the type of Value", NULL},
    /* BroadcastFirst (h_move writes the Value's size) */
    {BASE, BODY, "%zz = OpGroupNonUniformBroadcastFirst %v4double %uint_3 %lv4d",
     "%zz = OpGroupNonUniformBroadcastFirst %bool %uint_3 %lv4d", "is not the type of Value",
     NULL},
    /* Shuffle: "Id must be a scalar of integer type" */
    {BASE, BODY, "%zz = OpGroupNonUniformShuffle %float %uint_3 %lf %li",
     "%zz = OpGroupNonUniformShuffle %float %uint_3 %lf %lv4d",
     "is not an integer scalar of 8, 16, 32 or 64 bits", NULL},
    /* Ballot: "Result Type must be a vector of four components of integer
     * type scalar, whose Width operand is 32" (h_ballot writes 16 bytes) */
    {BASE, BODY, "%zz = OpGroupNonUniformBallot %v4uint %uint_3 %lb",
     "%zz = OpGroupNonUniformBallot %bool %uint_3 %lb", "is not a vector of four 32-bit integers",
     NULL},
    {BASE, BODY, "%zz = OpGroupNonUniformBallot %v4uint %uint_3 %lb",
     "%zz = OpGroupNonUniformBallot %cm_wg11 %uint_3 %lb",
     "is not a vector of four 32-bit integers", NULL},
    /* Elect: "Result Type must be a Boolean type" */
    {BASE, BODY, "%zz = OpGroupNonUniformElect %bool %uint_3",
     "%zz = OpGroupNonUniformElect %cm_wg11 %uint_3", "is not a Boolean scalar", NULL},
    /* All: the same, and "Predicate must be a Boolean type" */
    {BASE, BODY, "%zz = OpGroupNonUniformAll %bool %uint_3 %lb",
     "%zz = OpGroupNonUniformAll %bool %uint_3 %lv4d", "is not a Boolean scalar", NULL},
    /* InverseBallot: "Value must be a vector of four components of integer
     * type scalar, whose Width operand is 32" */
    {BASE, BODY,
     "%zb = OpGroupNonUniformBallot %v4uint %uint_3 %lb\n"
     "%zz = OpGroupNonUniformInverseBallot %bool %uint_3 %zb",
     "%zb = OpGroupNonUniformBallot %v4uint %uint_3 %lb\n"
     "%zz = OpGroupNonUniformInverseBallot %bool %uint_3 %lb",
     "is not a vector of four 32-bit integers", NULL},
    /* BallotBitCount: the same Value */
    {BASE, BODY,
     "%zb = OpGroupNonUniformBallot %v4uint %uint_3 %lb\n"
     "%zz = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %zb",
     "%zb = OpGroupNonUniformBallot %v4uint %uint_3 %lb\n"
     "%zz = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %lb",
     "is not a vector of four 32-bit integers", NULL},
    /* BallotFindLSB: "Result Type must be a scalar of integer type" */
    {BASE, BODY,
     "%zb = OpGroupNonUniformBallot %v4uint %uint_3 %lb\n"
     "%zz = OpGroupNonUniformBallotFindLSB %uint %uint_3 %zb",
     "%zb = OpGroupNonUniformBallot %v4uint %uint_3 %lb\n"
     "%zz = OpGroupNonUniformBallotFindLSB %v4double %uint_3 %zb",
     "is not an integer scalar", NULL},
    /* atomics: "The type of Value must be the same as Result Type" */
    {BASE, BODY, "%zz = OpAtomicIAdd %uint %pp %uint_1 %uint_0 %li",
     "%zz = OpAtomicIAdd %uint %pp %uint_1 %uint_0 %ll", "is not the type of Value", NULL},
    /* "The type of the value pointed to by Pointer must be the same as
     * Result Type" */
    {BASE, BODY, "%zz = OpAtomicIAdd %uint %pp %uint_1 %uint_0 %li",
     "%zz = OpAtomicIAdd %ulong %pp %uint_1 %uint_0 %ll", "points to a value of 4 bytes", NULL},
};

static char *read_text(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", CVM_TEST_DATA_DIR, rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

/* The module's text with `add` as a line of its own after the line holding
 * `after`. */
static char *with_line(const char *text, const char *after, const char *add)
{
    const char *at = strstr(text, after);
    assert_non_null(at);
    const char *eol = strchr(at, '\n');
    assert_non_null(eol);
    size_t head = (size_t)(eol + 1 - text);
    char *out = malloc(strlen(text) + strlen(add) + 2);
    assert_non_null(out);
    memcpy(out, text, head);
    sprintf(out + head, "%s\n%s", add, eol + 1);
    return out;
}

/* Pipeline creation of `text` without validation: its status, and its
 * message in `msg`. */
static cvm_result make_pipeline(const char *text, char *msg, size_t msg_size)
{
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(cvm_assemble(text, strlen(text), 0, NULL, &words, &nw, &d), CVM_SUCCESS);
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = 1;
    desc.flags = CVM_FLAG_NO_VALIDATION;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    cvm_result r = cvm_module_create(ctx, words, nw, &mod, &d);
    if (r == CVM_SUCCESS)
        r = cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, &d);
    snprintf(msg, msg_size, "%s", r == CVM_SUCCESS ? "" : d.message);
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    cvm_free(words);
    return r;
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const lower_case *c = &cases[i];
        char *text = read_text(c->file);
        if (c->types) {
            char *t = with_line(text, TYPES_AFTER, c->types);
            free(text);
            text = t;
        }
        char msg[1024];
        char *good = with_line(text, c->after, c->good);
        cvm_result r = make_pipeline(good, msg, sizeof(msg));
        if (r != CVM_SUCCESS)
            print_message("twin of case %zu (%s): %s\n", i, c->bad, msg);
        assert_int_equal(r, CVM_SUCCESS);
        char *bad = with_line(text, c->after, c->bad);
        r = make_pipeline(bad, msg, sizeof(msg));
        print_message("%s: %s\n", c->bad, msg);
        assert_int_equal(r, CVM_ERROR_INVALID_MODULE);
        assert_non_null(strstr(msg, c->want));
        free(good);
        free(bad);
        free(text);
    }
}

/* OpBitCount whose Result is narrower or wider than Base ("The components
 * must be wide enough to hold the unsigned Width of Base"): each invocation
 * stores pop8 + 8 * pop64, the counts of its index taken through a 64-bit
 * Base into an 8-bit Result and a 32-bit Base into a 64-bit Result, on both
 * tiers (compared) where the compiled one exists. */
static void test_bitcount_widths(void **state)
{
    (void)state;
    char *text = read_text(BASE);
    char *body = with_line(text, BODY,
                           "%c8 = OpBitCount %uchar %ll\n"
                           "%c64 = OpBitCount %ulong %li\n"
                           "%c8u = OpUConvert %uint %c8\n"
                           "%c64u = OpUConvert %uint %c64\n"
                           "%k = OpIMul %uint %c64u %uint_8\n"
                           "%v = OpIAdd %uint %c8u %k");
    char *st = strstr(body, "OpStore %pp %li");
    assert_non_null(st);
    memcpy(st, "OpStore %pp %v ", 15);
    uint32_t *words = NULL;
    size_t nw = 0;
    cvm_diagnostic d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(cvm_assemble(body, strlen(body), 0, NULL, &words, &nw, &d), CVM_SUCCESS);
    cvm_context_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.threads = 1;
    desc.flags = CVM_FLAG_COMPARE_TIERS;
    cvm_context *ctx = NULL;
    cvm_module *mod = NULL;
    cvm_pipeline *pipe = NULL;
    uint32_t o[64];
    memset(o, 0xff, sizeof(o));
    assert_int_equal(cvm_context_create(&desc, &ctx, &d), CVM_SUCCESS);
    assert_int_equal(cvm_module_create(ctx, words, nw, &mod, &d), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_create(mod, NULL, NULL, 0, &pipe, &d), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(pipe, 0, 0, 0, o, sizeof(o), &d), CVM_SUCCESS);
    cvm_result r = cvm_pipeline_dispatch(pipe, 1, 1, 1, &d);
    if (r != CVM_SUCCESS)
        print_message("%s\n", d.message);
    assert_int_equal(r, CVM_SUCCESS);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t pop = 0;
        for (uint32_t b = i; b; b >>= 1)
            pop += b & 1;
        assert_int_equal(o[i], 9 * pop);
    }
    cvm_pipeline_destroy(pipe);
    cvm_module_destroy(mod);
    cvm_context_destroy(ctx);
    cvm_free(words);
    free(body);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_bitcount_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
