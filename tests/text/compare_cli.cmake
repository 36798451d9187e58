# Runs one coopvm text command and compares its output with a reference.
#   MODE=text: byte-identical files.
#   MODE=words: identical SPIR-V words except word 2 (the generator word,
#   which is coopvm's own).
# Variables: COOPVM, ARGS (a ;-list), OUT, REF, MODE.
execute_process(COMMAND ${COOPVM} ${ARGS} -o ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "coopvm ${ARGS} failed (${rc}): ${err}")
endif()
file(READ ${OUT} got HEX)
file(READ ${REF} want HEX)
if(MODE STREQUAL "words")
  string(LENGTH "${got}" gl)
  string(LENGTH "${want}" wl)
  if(NOT gl EQUAL wl OR gl LESS 40)
    message(FATAL_ERROR "${OUT}: ${gl} hex digits, reference ${wl}")
  endif()
  # Word 2 is hex digits 16..23.
  string(SUBSTRING "${got}" 0 16 g0)
  string(SUBSTRING "${got}" 24 -1 g1)
  string(SUBSTRING "${want}" 0 16 w0)
  string(SUBSTRING "${want}" 24 -1 w1)
  set(got "${g0}${g1}")
  set(want "${w0}${w1}")
endif()
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${OUT} differs from ${REF}")
endif()
