# `coopvm run SCRIPT --compare-tiers --verbose` (tests/tiers.cmake): exit
# status 0 (every dispatch alike on both tiers, every EXPECT held), and the
# verbose total line: with COMPARED 1 at least one dispatch compared
# compiled code (the tier really ran), with COMPARED 0 none did (the script
# is listed as one the tier does not take: a change there is news).  Exit
# status 3 (the script needs what this build lacks, e.g. glslang) prints
# "coopvm-skip" for SKIP_REGULAR_EXPRESSION.  Variables: COOPVM, SCRIPT,
# COMPARED, THREADS (worker threads; 2 when not set).
if(NOT THREADS)
  set(THREADS 2)
endif()
execute_process(COMMAND ${COOPVM} run ${SCRIPT} --compare-tiers --verbose --threads ${THREADS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(rc EQUAL 3)
  message("coopvm-skip: ${all}")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "coopvm run ${SCRIPT} --compare-tiers: exit status ${rc}:\n${all}")
endif()
if(NOT all MATCHES "tiers: ([0-9]+) of ([0-9]+) dispatches compared compiled code")
  message(FATAL_ERROR "no tiers total line:\n${all}")
endif()
set(n ${CMAKE_MATCH_1})
if(COMPARED AND n EQUAL 0)
  message(FATAL_ERROR "no dispatch of ${SCRIPT} compared compiled code (the tier did not run):\n${all}")
endif()
if(NOT COMPARED AND NOT n EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} is listed as interpreted only, but ${n} dispatches compared "
                      "compiled code: move it to the compared ones in tests/tiers.cmake:\n${all}")
endif()
message("${all}")
