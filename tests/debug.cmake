# Debugging: DebugPrintf output against an independent model of the
# shaders (tests/debug/printf_model.py), the trace, source lines, and the
# heat map of a failing EXPECT.
set(cvm_dbg ${CMAKE_CURRENT_SOURCE_DIR}/debug)
add_test(NAME debug.printf
  COMMAND ${Python3_EXECUTABLE} ${cvm_dbg}/printf_model.py --check $<TARGET_FILE:coopvm_cli>)
