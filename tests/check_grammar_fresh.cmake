# Regenerates the grammar tables into OUT and fails when the committed copy in
# src/spirv differs.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PYTHON} ${SRC}/tools/gen_grammar.py ${GRAMMAR} ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_grammar.py failed (${rc})")
endif()
foreach(f spirv_grammar.h spirv_grammar.c)
  file(READ ${OUT}/${f} fresh)
  file(READ ${SRC}/src/spirv/${f} committed)
  if(NOT fresh STREQUAL committed)
    message(FATAL_ERROR "src/spirv/${f} is stale: run tools/gen_grammar.py ../shared/grammar src/spirv")
  endif()
endforeach()
