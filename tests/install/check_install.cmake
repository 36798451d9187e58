# The install test (tests/install.cmake): installs the build BIN into a
# prefix under OUT, checks what lands where and what the shared library
# exports, then builds tests/install/consumer.c against it through
# pkg-config and through find_package(coopvm) (shared and static) and runs
# each.  CC and FLAGS: the compiler and sanitizer flags of the build.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${OUT}/prefix)
file(REMOVE_RECURSE ${OUT})
run("cmake --install" ${CMAKE_COMMAND} --install ${BIN} --prefix ${prefix})

file(GLOB_RECURSE pc ${prefix}/*/coopvm.pc)
file(GLOB_RECURSE so ${prefix}/*/libcoopvm.so.0)
file(GLOB_RECURSE ar ${prefix}/*/libcoopvm.a)
file(GLOB_RECURSE cfg ${prefix}/*/cmake/coopvm/coopvmConfig.cmake)
foreach(f pc so ar cfg)
  if(NOT ${f})
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()
foreach(f include/coopvm.h bin/coopvm)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()
get_filename_component(libdir ${so} DIRECTORY)

# The shared library: its SONAME, and nothing exported but cvm_ functions.
run("readelf -d" readelf -d ${so})
if(NOT run_out MATCHES "SONAME[^\n]*\\[libcoopvm\\.so\\.0\\]")
  message(FATAL_ERROR "libcoopvm.so.0 has no SONAME libcoopvm.so.0:\n${run_out}")
endif()
run("nm -D" nm -D --defined-only ${so})
string(REPLACE "\n" ";" lines "${run_out}")
set(count 0)
foreach(line ${lines})
  if(line MATCHES " ([^ ]+)$")
    set(sym ${CMAKE_MATCH_1})
    if(NOT sym MATCHES "^cvm_")
      message(FATAL_ERROR "libcoopvm.so exports ${sym}, not a CVM_API function")
    endif()
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count LESS 20)
  message(FATAL_ERROR "libcoopvm.so exports only ${count} symbols")
endif()
message(STATUS "libcoopvm.so.0 exports ${count} cvm_ symbols and nothing else")

separate_arguments(flags UNIX_COMMAND "${FLAGS}")
# pkg-config
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${libdir}/pkgconfig)
  run("pkg-config" ${PKG_CONFIG} --cflags --libs coopvm)
  separate_arguments(pc_flags UNIX_COMMAND "${run_out}")
  run("cc consumer.c (pkg-config)" ${CC} ${flags} ${SRC}/consumer.c ${pc_flags}
      -Wl,-rpath,${libdir} -o ${OUT}/consumer_pc)
  run("consumer (pkg-config)" ${OUT}/consumer_pc)
  message(STATUS "pkg-config: ${run_out}")
endif()
# find_package
run("configure the consumer" ${CMAKE_COMMAND} -S ${SRC} -B ${OUT}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${CC} "-DCMAKE_C_FLAGS=${FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}")
run("build the consumer" ${CMAKE_COMMAND} --build ${OUT}/consumer)
foreach(kind shared static)
  run("consumer (find_package, ${kind})" ${OUT}/consumer/consumer_${kind})
  message(STATUS "find_package, ${kind}: ${run_out}")
endforeach()
