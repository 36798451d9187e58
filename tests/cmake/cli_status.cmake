# Runs coopvm with ARGS (a ;-list) and checks its exit status (RC), and that
# its output (stdout and stderr together) matches each regular expression of
# MATCH (a ;-list, optional).  With FILE and FILE_MATCH, also that FILE
# exists and matches each expression of FILE_MATCH.  Variables: COOPVM, ARGS,
# RC, MATCH, FILE, FILE_MATCH, WORKDIR.
if(FILE)
  file(REMOVE ${FILE})
endif()
execute_process(COMMAND ${COOPVM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err WORKING_DIRECTORY ${WORKDIR})
set(all "${out}${err}")
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "coopvm ${ARGS}: exit status ${rc}, wanted ${RC}:\n${all}")
endif()
foreach(re ${MATCH})
  if(NOT all MATCHES "${re}")
    message(FATAL_ERROR "coopvm ${ARGS}: output does not match '${re}':\n${all}")
  endif()
endforeach()
if(FILE)
  if(NOT EXISTS ${FILE})
    message(FATAL_ERROR "coopvm ${ARGS} did not write ${FILE}")
  endif()
  file(READ ${FILE} text)
  foreach(re ${FILE_MATCH})
    if(NOT text MATCHES "${re}")
      message(FATAL_ERROR "${FILE} does not match '${re}':\n${text}")
    endif()
  endforeach()
endif()
