# Runs a generator of committed files into OUT and fails when a committed
# copy differs from what it makes now (tables are generated, never kept in
# sync by hand).
#   -DPYTHON=... -DSRC=<source root> -DGEN=tools/<script>.py -DINPUT=<its input>
#   -DDIR=<folder of the committed files, relative to SRC> -DFILES=a,b -DOUT=<scratch>
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PYTHON} ${SRC}/${GEN} ${INPUT} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GEN} failed (${rc})")
endif()
string(REPLACE "," ";" files "${FILES}")
foreach(f ${files})
  file(READ ${OUT}/${f} fresh)
  file(READ ${SRC}/${DIR}/${f} committed)
  if(NOT fresh STREQUAL committed)
    message(FATAL_ERROR "${DIR}/${f} is stale: run ${GEN} ${INPUT} ${DIR}")
  endif()
endforeach()
