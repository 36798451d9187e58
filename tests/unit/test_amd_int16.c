/* SPV_AMD_gpu_shader_int16 through tests/shaders/amd_int16 (GLSL,
 * GL_AMD_gpu_shader_int16): Frexp of f16 values with 16-bit integer
 * exponents (the struct form), and OpSpecConstantOp UConvert to 16 bits, at
 * the module's default specialization (70000, which a 16-bit UConvert wraps
 * to 4464) and at another.  The model: C's frexp of the f16-rounded value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "engine_util.h"
#include "numeric/numeric.h"

static void run(const cvm_specialization *sp, uint32_t nsp, uint32_t want_sc)
{
    float x[8] = {1.0f, -6.5f, 0.0f, 1000.0f, 0.001f, -0.75f, 65504.0f, 3.0f};
    float m[24];
    int32_t e[32];
    memset(m, 0, sizeof(m));
    memset(e, 0, sizeof(e));
    tu_run r;
    if (tu_open(&r, "shaders/amd_int16.spv", 8, 1, 0, sp, nsp) != CVM_SUCCESS)
        fail_msg("open: %s", r.diag.message);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 0, 0, x, sizeof(x), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 1, 0, m, sizeof(m), NULL), CVM_SUCCESS);
    assert_int_equal(cvm_pipeline_bind_buffer(r.pipe, 0, 2, 0, e, sizeof(e), NULL), CVM_SUCCESS);
    if (cvm_pipeline_dispatch(r.pipe, 1, 1, 1, &r.diag) != CVM_SUCCESS)
        fail_msg("dispatch: %s", r.diag.message);
    for (int i = 0; i < 8; i++) {
        /* the shader's f16 operands: x, x * 3 and -x / 1024, each rounded to f16 */
        double in[3] = {(double)cvm_f16_to_f32(cvm_f32_to_f16(x[i])),
                        (double)cvm_f16_to_f32(cvm_f32_to_f16(x[i] * 3.0f)),
                        (double)cvm_f16_to_f32(cvm_f32_to_f16(-x[i] / 1024.0f))};
        for (int k = 0; k < 3; k++) {
            int ex = 0;
            double mant = isfinite(in[k]) ? frexp(in[k], &ex) : in[k];
            if ((double)m[3 * i + k] != mant || e[4 * i + k] != ex)
                fail_msg("x[%d] part %d (%g): %g * 2^%d, expected %g * 2^%d", i, k, in[k],
                         (double)m[3 * i + k], e[4 * i + k], mant, ex);
        }
        assert_int_equal(e[4 * i + 3], want_sc);
    }
    tu_close(&r);
}

static void test_frexp_and_spec_op(void **state)
{
    (void)state;
    run(NULL, 0, 70000u & 0xffffu);
    cvm_specialization sp = {0, 4, 5};
    run(&sp, 1, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_frexp_and_spec_op)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
