# tests/amber: scripts for the AmberScript and VkScript forms and the engine
# fixes of issue 14, each run through `coopvm run` (exit status 3, needing
# something this build lacks such as glslang, is a skip); their expectations
# are gen.py's models (checked by amber.generated); and the CLI's exit
# statuses and batch runs.
file(GLOB cvm_amber_scripts CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/amber/*.amber
     ${CMAKE_CURRENT_SOURCE_DIR}/amber/*.vkscript)
foreach(script ${cvm_amber_scripts})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME amber.${name} COMMAND coopvm_cli run ${script} --threads 2)
  add_test(NAME amber.${name}.sg4 COMMAND coopvm_cli run ${script} --threads 1 --subgroup-size 4)
  set_tests_properties(amber.${name} amber.${name}.sg4 PROPERTIES SKIP_RETURN_CODE 3 TIMEOUT 300)
endforeach()

add_test(NAME amber.generated
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/amber/gen.py --check)

set(cvm_cli_status -DCOOPVM=$<TARGET_FILE:coopvm_cli> -DWORKDIR=${CMAKE_CURRENT_SOURCE_DIR}/amber)

# Forms coopvm knows it does not support exit 3 naming what, never 1.
file(GLOB cvm_unsupported CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/amber/unsupported/*)
foreach(script ${cvm_unsupported})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME amber.unsupported.${name}
    COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;${script}" -DRC=3
            "-DMATCH=not supported|compute only|not one coopvm knows"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
endforeach()

# A folder: one line per script, the summary, exit status 1 for the failure,
# and a JUnit report.
add_test(NAME amber.batch
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;batch;--junit;${CMAKE_CURRENT_BINARY_DIR}/amber_batch.xml"
          -DRC=1
          "-DMATCH=FAIL batch/fail.amber: line 4;SKIP batch/nested/skip.vkscript: line 2;PASS batch/pass.amber;1 passed, 1 failed, 1 skipped"
          -DFILE=${CMAKE_CURRENT_BINARY_DIR}/amber_batch.xml
          "-DFILE_MATCH=<testsuites name=\"coopvm\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\";<testcase classname=\"batch\" name=\"pass.amber\";<skipped message=\"line 2: \\[vertex shader\\];<failure message=\"line 4: EXPECT b IDX 4 EQ 5 failed"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
# Shards: positions 0 and 2 of (fail, skip, pass), then position 1.
add_test(NAME amber.batch.shard0
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;batch;--shard;0/2" -DRC=1
          "-DMATCH=FAIL batch/fail.amber;PASS batch/pass.amber;1 passed, 1 failed, 0 skipped"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
add_test(NAME amber.batch.shard1
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;batch;--shard;1/2;--quiet" -DRC=0
          "-DMATCH=SKIP batch/nested/skip.vkscript;0 passed, 0 failed, 1 skipped"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
add_test(NAME amber.batch.badshard
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;batch;--shard;2/2" -DRC=2
          "-DMATCH=--shard: expected I/N"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
# Several files: the same batch mode, no folder needed.
add_test(NAME amber.batch.files
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;batch/pass.amber;unsupported/image.amber" -DRC=0
          "-DMATCH=PASS batch/pass.amber;SKIP unsupported/image.amber: line 3: IMAGE;1 passed, 0 failed, 1 skipped"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)

# Scripts that must stop with an error, and the message that names it.
add_test(NAME amber.errors.coopmat_live_oob
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;errors/coopmat_live_oob.amber" -DRC=1
          "-DMATCH=CVM_ERROR_OUT_OF_BOUNDS: OpCooperativeMatrixLoadKHR .* loads 16 bytes at byte offset 64 of a 64-byte workgroup memory"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
add_test(NAME amber.errors.coopmat_store_stride0_rows
  COMMAND ${CMAKE_COMMAND} ${cvm_cli_status} "-DARGS=run;errors/coopmat_store_stride0_rows.amber" -DRC=1
          "-DMATCH=OpCooperativeMatrixStoreKHR .*stride 0 is not allowed for a store of 2 rows"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
