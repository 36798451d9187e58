# Two sets of AmberScript cases, each run through `coopvm run` with one
# worker thread, with all cores, with the callback checking mode, in the
# precise numerics (double accumulation in MulAdd, `--precise`), and on the
# engine's reference paths (`--reference-paths`):
#   tests/corpus  the shared conformance corpus (copied with its README);
#   tests/cases   the project's own cases for what the corpus does not reach
#                 (see tests/cases/README.md for how each expectation was made).
# Exit status 3 means the case needs something coopvm does not implement
# yet: ctest reports it as skipped, never as passed.
foreach(set corpus cases)
  file(GLOB cvm_case_dirs LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/${set}/*)
  foreach(dir ${cvm_case_dirs})
    if(NOT IS_DIRECTORY ${dir})
      continue()
    endif()
    get_filename_component(case ${dir} NAME)
    set(script ${dir}/${case}.amber)
    add_test(NAME ${set}.${case}.threads1 COMMAND coopvm_cli run ${script} --threads 1)
    add_test(NAME ${set}.${case}.threadsall COMMAND coopvm_cli run ${script})
    add_test(NAME ${set}.${case}.checkcallbacks COMMAND coopvm_cli run ${script} --check-callbacks)
    add_test(NAME ${set}.${case}.precise COMMAND coopvm_cli run ${script} --precise)
    # the engine's reference paths (CVM_FLAG_REFERENCE_PATHS) meet the same
    # expectations as its fast paths
    add_test(NAME ${set}.${case}.reference COMMAND coopvm_cli run ${script} --reference-paths)
    set_tests_properties(${set}.${case}.threads1 ${set}.${case}.threadsall
                         ${set}.${case}.checkcallbacks ${set}.${case}.precise
                         ${set}.${case}.reference
                         PROPERTIES SKIP_RETURN_CODE 3 TIMEOUT 600)
  endforeach()
endforeach()

# The inputs of tests/cases are what their generator writes.
add_test(NAME cases.inputs_reproducible
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cases/make_inputs.py --check)

# The recorded outputs of the cases that are plain integer arithmetic equal a
# closed-form model of them (tests/cases/models.py).
add_test(NAME cases.expected_models
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cases/models.py)

# bda_gemm through the CLI alone: its operands are --address-buffer buffers
# that no descriptor names, their addresses written into the uniform block.
set(cvm_bda ${CMAKE_CURRENT_SOURCE_DIR}/cases/bda_gemm)
add_test(NAME cases.bda_gemm.cli
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=run;${cvm_bda}/bda_gemm.spv;--dispatch;6,1,1;--buffer;0:0=${cvm_bda}/params.bin;--address-buffer;A=${cvm_bda}/a.bin;--address-buffer;B=${cvm_bda}/b.bin;--address-buffer;C=${cvm_bda}/c.bin;--address-buffer;D=zero:12288;--buffer-address;0:0=A;--buffer-address;0:0+8=B;--buffer-address;0:0+16=C;--buffer-address;0:0+24=D;--out;D=${CMAKE_CURRENT_BINARY_DIR}/bda_gemm_d.bin"
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/bda_gemm_d.bin -DREF=${cvm_bda}/d.expected.bin
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_run_compare.cmake)

# The inputs of bench/cases are what their generator writes.
add_test(NAME bench.inputs_reproducible
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/cases/make_inputs.py --check)

# bench_softmax_rows is small enough to check in every build: barriers,
# shared memory and subgroup reductions against the H200's output, at the
# default subgroup size and at 8 and 64 lanes, on one thread and on all.
set(cvm_softmax ${CMAKE_SOURCE_DIR}/bench/cases/bench_softmax_rows/bench_softmax_rows.amber)
add_test(NAME bench.softmax_rows.threads1 COMMAND coopvm_cli run ${cvm_softmax} --threads 1)
add_test(NAME bench.softmax_rows.threadsall COMMAND coopvm_cli run ${cvm_softmax})
add_test(NAME bench.softmax_rows.subgroup8 COMMAND coopvm_cli run ${cvm_softmax} --subgroup-size 8)
add_test(NAME bench.softmax_rows.subgroup64 COMMAND coopvm_cli run ${cvm_softmax} --subgroup-size 64)
