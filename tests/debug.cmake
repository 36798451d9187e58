# Debugging: DebugPrintf output against an independent model of the
# shaders (tests/debug/printf_model.py), the trace, source lines, and the
# heat map of a failing EXPECT.
set(cvm_dbg ${CMAKE_CURRENT_SOURCE_DIR}/debug)
add_test(NAME debug.printf
  COMMAND ${Python3_EXECUTABLE} ${cvm_dbg}/printf_model.py --check $<TARGET_FILE:coopvm_cli>)
add_test(NAME debug.trace_and_lines
  COMMAND ${Python3_EXECUTABLE} ${cvm_dbg}/check_trace.py $<TARGET_FILE:coopvm_cli>)
# The heat map, read back with libpng (tests/debug/png_probe.c); without
# libpng, the option must say that it needs it.
find_package(PNG)
if(PNG_FOUND)
  add_executable(png_probe ${cvm_dbg}/png_probe.c)
  target_link_libraries(png_probe PRIVATE PNG::PNG)
  set(cvm_png_probe $<TARGET_FILE:png_probe>)
else()
  set(cvm_png_probe -)
endif()
add_test(NAME debug.diff_image
  COMMAND ${Python3_EXECUTABLE} ${cvm_dbg}/check_diff_image.py $<TARGET_FILE:coopvm_cli>
          ${cvm_png_probe})
