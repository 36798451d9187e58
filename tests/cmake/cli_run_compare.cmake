# Runs `coopvm run` on a .spv with flags and compares one written buffer with
# its expected bytes.  Variables: COOPVM, ARGS (a ;-list), OUT, REF.
execute_process(COMMAND ${COOPVM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "coopvm ${ARGS} failed (${rc}): ${out}${err}")
endif()
file(READ ${OUT} got HEX)
file(READ ${REF} want HEX)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${OUT} differs from ${REF}")
endif()
