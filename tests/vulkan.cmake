# The Vulkan ICD (src/vulkan).
#   vulkan.registry_fresh   the generated declarations match tools/gen_vulkan.py's output now;
#   vulkan.vkrun.<set>.<case>  ../shared/tools/vkrun (an independent Vulkan program, the one
#                           that recorded the corpus on an H200) runs each case's .run manifest
#                           through the system's Vulkan loader on the ICD, and its outputs meet
#                           the case's AmberScript EXPECTs (tests/vulkan/vkrun_case.py), for the
#                           shared corpus and the tests/cases that have a manifest;
#   vulkan.vulkaninfo       vulkaninfo lists the device, extensions and features, without error.
# The run tests exist only when the ICD is built and the loader (libvulkan.so.1) is found.
add_test(NAME vulkan.registry_fresh
  COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE} -DSRC=${CMAKE_SOURCE_DIR}
          -DGEN=tools/gen_vulkan.py -DINPUT=${CVM_SHARED_DIR}/specs/vulkan/vk.xml -DDIR=src/vulkan
          -DFILES=vk_registry.h,vk_registry.c -DOUT=${CMAKE_CURRENT_BINARY_DIR}/vulkan_fresh
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_fresh.cmake)

find_library(CVM_VULKAN_LOADER NAMES libvulkan.so.1 vulkan)
find_program(CVM_VULKANINFO vulkaninfo)
set(cvm_vkrun ${CVM_SHARED_DIR}/tools/vkrun/vkrun)
if(TARGET vulkan_coopvm AND CVM_VULKAN_LOADER)
  set(cvm_icd_json ${CMAKE_BINARY_DIR}/coopvm_icd.json)
  # One worker thread per dispatch (ctest runs tests side by side); in the
  # sanitizer build the ICD's runtime goes first into the uninstrumented
  # programs that load it, and their own leaks are not the ICD's.
  set(cvm_vk_env COOPVM_THREADS=1)
  if(CVM_SANITIZE)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE cvm_libasan OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND cvm_vk_env LD_PRELOAD=${cvm_libasan} ASAN_OPTIONS=detect_leaks=0)
  endif()
  if(EXISTS ${cvm_vkrun})
    foreach(set corpus cases)
      if(set STREQUAL corpus)
        file(GLOB cvm_vk_dirs LIST_DIRECTORIES true ${CVM_SHARED_DIR}/corpus/*)
      else()
        file(GLOB cvm_vk_dirs LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/cases/*)
      endif()
      foreach(dir ${cvm_vk_dirs})
        get_filename_component(case ${dir} NAME)
        if(NOT EXISTS ${dir}/${case}.run OR NOT EXISTS ${dir}/${case}.amber)
          continue()
        endif()
        add_test(NAME vulkan.vkrun.${set}.${case}
          COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/vkrun_case.py
                  ${cvm_vkrun} ${cvm_icd_json} ${dir} ${CMAKE_CURRENT_BINARY_DIR}/vulkan/${set}/${case})
        set_tests_properties(vulkan.vkrun.${set}.${case} PROPERTIES
          ENVIRONMENT "${cvm_vk_env}" TIMEOUT 600)
      endforeach()
    endforeach()
  endif()
  if(CVM_VULKANINFO)
    add_test(NAME vulkan.vulkaninfo
      COMMAND ${CMAKE_COMMAND} -DVULKANINFO=${CVM_VULKANINFO} -DICD=${cvm_icd_json}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_vulkaninfo.cmake)
    set_tests_properties(vulkan.vulkaninfo PROPERTIES ENVIRONMENT "${cvm_vk_env}" TIMEOUT 300)
  endif()
endif()

# The API paths vkrun does not take (tests/vulkan/test_icd.c), through the loader.
if(TARGET vulkan_coopvm AND CVM_VULKAN_LOADER)
  add_executable(test_icd ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/test_icd.c)
  target_include_directories(test_icd PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_include_directories(test_icd SYSTEM PRIVATE ${CVM_VULKAN_INCLUDE})
  # {sType} initializers, the Vulkan idiom, leave the other members zero
  target_compile_options(test_icd PRIVATE ${CVM_WARNINGS} -Wno-missing-field-initializers)
  target_compile_definitions(test_icd PRIVATE CVK_TEST_DIR="${CMAKE_CURRENT_SOURCE_DIR}/vulkan")
  target_link_libraries(test_icd PRIVATE coopvm ${CVM_VULKAN_LOADER})
  add_dependencies(test_icd vulkan_coopvm)
  add_test(NAME vulkan.api COMMAND test_icd)
  set_tests_properties(vulkan.api PROPERTIES
    ENVIRONMENT "${cvm_vk_env};VK_DRIVER_FILES=${cvm_icd_json}" TIMEOUT 300)
endif()
