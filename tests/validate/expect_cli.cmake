# Runs `coopvm ARGS` and checks its exit status and that its standard error
# contains every entry of WANT (a ;-list; none: empty).
# Variables: COOPVM, ARGS (a ;-list), STATUS, WANT.
execute_process(COMMAND ${COOPVM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL STATUS)
  message(FATAL_ERROR "coopvm ${ARGS}: exit status ${rc}, expected ${STATUS}\n${out}${err}")
endif()
foreach(w ${WANT})
  string(FIND "${out}${err}" "${w}" at)
  if(at LESS 0)
    message(FATAL_ERROR "coopvm ${ARGS}: '${w}' not in the output:\n${out}${err}")
  endif()
endforeach()
