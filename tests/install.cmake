# `cmake --install` into a prefix inside the build, then a consumer program
# built against it through pkg-config and find_package(coopvm), shared and
# static (tests/install/check_install.cmake).
find_program(CVM_PKG_CONFIG pkg-config)
find_program(CVM_NM nm)
find_program(CVM_READELF readelf)
if(CVM_NM AND CVM_READELF)
  set(cvm_install_flags "")
  if(CVM_SANITIZE)
    set(cvm_install_flags "-fsanitize=address,undefined")
  endif()
  add_test(NAME install_consumer
    COMMAND ${CMAKE_COMMAND} -DBIN=${CMAKE_BINARY_DIR} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/install_test
            -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/install -DCC=${CMAKE_C_COMPILER}
            "-DFLAGS=${cvm_install_flags}" -DPKG_CONFIG=${CVM_PKG_CONFIG}
            -DGENERATOR=${CMAKE_GENERATOR}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/install/check_install.cmake)
  set_tests_properties(install_consumer PROPERTIES TIMEOUT 300)
endif()
