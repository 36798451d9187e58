# Regenerates the fuzz dictionaries into OUT and fails when the committed
# copies in tests/fuzz differ (as check_grammar_fresh.cmake does for the
# grammar tables).
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PYTHON} ${SRC}/tools/gen_fuzz_dict.py ${GRAMMAR} ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_fuzz_dict.py failed (${rc})")
endif()
foreach(f spirv_binary.dict spirv_text.dict)
  file(READ ${OUT}/${f} fresh)
  file(READ ${SRC}/tests/fuzz/${f} committed)
  if(NOT fresh STREQUAL committed)
    message(FATAL_ERROR "tests/fuzz/${f} is stale: run tools/gen_fuzz_dict.py ../shared/grammar tests/fuzz")
  endif()
endforeach()
