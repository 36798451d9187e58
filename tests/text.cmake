# The CLI against SPIRV-Tools' references for every corpus and bench module:
# coopvm dis (friendly and --raw-id) byte for byte, coopvm as and
# as --preserve-numeric-ids word for word except the generator word.
file(GLOB CVM_TEXT_MODULES LIST_DIRECTORIES true ${CVM_SHARED_DIR}/corpus/* ${CVM_SHARED_DIR}/bench/*)
set(CVM_TEXT_OUT ${CMAKE_CURRENT_BINARY_DIR}/text_cli)
file(MAKE_DIRECTORY ${CVM_TEXT_OUT})
foreach(dir ${CVM_TEXT_MODULES})
  get_filename_component(name ${dir} NAME)
  if(NOT EXISTS ${dir}/${name}.spv)
    continue()
  endif()
  set(x ${dir}/${name})
  set(cmp ${CMAKE_CURRENT_SOURCE_DIR}/text/compare_cli.cmake)
  add_test(NAME text_cli_dis_${name}
    COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> "-DARGS=dis;${x}.spv"
            -DOUT=${CVM_TEXT_OUT}/${name}.spvasm -DREF=${x}.spvasm -DMODE=text -P ${cmp})
  add_test(NAME text_cli_dis_raw_${name}
    COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> "-DARGS=dis;--raw-id;${x}.spv"
            -DOUT=${CVM_TEXT_OUT}/${name}.raw.spvasm -DREF=${x}.raw.spvasm -DMODE=text -P ${cmp})
  add_test(NAME text_cli_as_${name}
    COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> "-DARGS=as;${x}.spvasm"
            -DOUT=${CVM_TEXT_OUT}/${name}.as.spv -DREF=${x}.as.spv -DMODE=words -P ${cmp})
  add_test(NAME text_cli_as_preserve_${name}
    COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
            "-DARGS=as;--preserve-numeric-ids;${x}.raw.spvasm"
            -DOUT=${CVM_TEXT_OUT}/${name}.preserve.spv -DREF=${x}.spv -DMODE=words -P ${cmp})
endforeach()
