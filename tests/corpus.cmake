# The conformance corpus (tests/corpus, copied from shared/corpus with its
# README): each case runs through `coopvm run` with one worker thread, with
# all cores, and with the callback checking mode.  Exit status 3 means the
# case needs something coopvm does not implement yet: ctest reports it as
# skipped, never as passed.
file(GLOB CVM_CORPUS_CASES LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/corpus/*)
foreach(dir ${CVM_CORPUS_CASES})
  if(NOT IS_DIRECTORY ${dir})
    continue()
  endif()
  get_filename_component(case ${dir} NAME)
  set(script ${dir}/${case}.amber)
  add_test(NAME corpus.${case}.threads1 COMMAND coopvm_cli run ${script} --threads 1)
  add_test(NAME corpus.${case}.threadsall COMMAND coopvm_cli run ${script})
  add_test(NAME corpus.${case}.checkcallbacks COMMAND coopvm_cli run ${script} --check-callbacks)
  set_tests_properties(corpus.${case}.threads1 corpus.${case}.threadsall
                       corpus.${case}.checkcallbacks PROPERTIES SKIP_RETURN_CODE 3 TIMEOUT 600)
endforeach()
