# coopvm run on a .spv without a script: --zero-buffers binds a zero-filled
# buffer to every statically used descriptor no --buffer names (how glslang's
# test shaders were smoke-run, project issues 31 and 33).
set(_shader ${CMAKE_CURRENT_SOURCE_DIR}/shaders/tensor_undefined_state.spv)
add_test(NAME cli.run.zero_buffers
         COMMAND coopvm_cli run ${_shader} --dispatch 1,1,1 --zero-buffers 256 --threads 1)
set_tests_properties(cli.run.zero_buffers PROPERTIES
                     PASS_REGULAR_EXPRESSION "dispatched 1,1,1 workgroups of" TIMEOUT 60)
# A --buffer keeps its own bytes: 16 bytes are too few for the 8x8 uint load.
add_test(NAME cli.run.zero_buffers_keeps_given
         COMMAND coopvm_cli run ${_shader} --dispatch 1,1,1 --zero-buffers 256
                 --buffer 0:0=zero:16 --threads 1)
set_tests_properties(cli.run.zero_buffers_keeps_given PROPERTIES
                     PASS_REGULAR_EXPRESSION "CVM_ERROR_OUT_OF_BOUNDS: OpCooperativeMatrixLoadTensorNV"
                     TIMEOUT 60)
# An undefined tensor state is named through the CLI too.
add_test(NAME cli.run.tensor_span_zero
         COMMAND coopvm_cli run ${_shader} --dispatch 1,1,1 --zero-buffers 256 --spec 0=0
                 --threads 1)
set_tests_properties(cli.run.tensor_span_zero PROPERTIES
                     PASS_REGULAR_EXPRESSION "span\\[0\\] of the tensor layout is 0"
                     TIMEOUT 60)
