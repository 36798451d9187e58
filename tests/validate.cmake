# The validator's command line (the negative suite itself runs in
# tests/unit/test_validate.c): exit status 0 for a valid module, 1 for an
# invalid one with the rule, the place and the instruction on standard
# error, 2 for a usage error; --rules lists the table.
set(cvm_val_expect ${CMAKE_CURRENT_SOURCE_DIR}/validate/expect_cli.cmake)
add_test(NAME validate_cli_valid
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--target-env;vulkan1.3;${CVM_SHARED_DIR}/corpus/gemm_khr_f16/gemm_khr_f16.spv"
          -DSTATUS=0 -P ${cvm_val_expect})
add_test(NAME validate_cli_invalid
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;${CMAKE_CURRENT_SOURCE_DIR}/shaders/qcom_conv_a_s32_s32.spv"
          -DSTATUS=1
          "-DWANT=[QCOM-CMC.Construct-AB];SPV_QCOM_cooperative_matrix_conversion rev 1;word 337;  %44 = OpCompositeConstructCoopMatQCOM %30 %43"
          -P ${cvm_val_expect})
add_test(NAME validate_cli_usage
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> "-DARGS=val;--target-env;opencl1.2;${CVM_SHARED_DIR}/corpus/gemm_khr_f16/gemm_khr_f16.spv"
          -DSTATUS=2 "-DWANT=unknown target environment" -P ${cvm_val_expect})
add_test(NAME validate_cli_rules
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> "-DARGS=val;--rules"
          -DSTATUS=0 "-DWANT=KHR-CM.MulAdd-A;VUID-StandaloneSpirv-Scope-12243;checked;listed;device;error;warning"
          -P ${cvm_val_expect})
# The device rules (--device coopvm: coopvm's own description): a SPIR-V 1.5
# module with cooperative matrices needs REQUIRE_FULL_SUBGROUPS (VUID 10770,
# 10771 for a shader object); without --device those rules are not run.
set(cvm_val_spv15 ${CMAKE_CURRENT_SOURCE_DIR}/validate/device/khr_spv15.spv)
add_test(NAME validate_cli_device_valid
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--target-env;vulkan1.3;--device;coopvm;${CVM_SHARED_DIR}/corpus/gemm_khr_f16/gemm_khr_f16.spv"
          -DSTATUS=0 -P ${cvm_val_expect})
add_test(NAME validate_cli_device_full_subgroups
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--target-env;vulkan1.2;--device;coopvm;${cvm_val_spv15}"
          -DSTATUS=1 "-DWANT=[VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10770];SPIR-V 1.5"
          -P ${cvm_val_expect})
add_test(NAME validate_cli_device_shader_object
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--target-env;vulkan1.2;--device;coopvm;--pipeline-flags;shader-object;${cvm_val_spv15}"
          -DSTATUS=1 "-DWANT=[VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10771]"
          -P ${cvm_val_expect})
add_test(NAME validate_cli_device_flags
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--target-env;vulkan1.2;--device;coopvm;--pipeline-flags;full-subgroups,64-bit-indexing;${cvm_val_spv15}"
          -DSTATUS=0 -P ${cvm_val_expect})
add_test(NAME validate_cli_device_none
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--target-env;vulkan1.2;${cvm_val_spv15}" -DSTATUS=0 -P ${cvm_val_expect})
add_test(NAME validate_cli_device_usage
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--pipeline-flags;full-subgroups;${cvm_val_spv15}"
          -DSTATUS=2 "-DWANT=need --device" -P ${cvm_val_expect})
add_test(NAME validate_cli_device_unknown
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--device;h200;${cvm_val_spv15}"
          -DSTATUS=2 "-DWANT=unknown device" -P ${cvm_val_expect})
# Warnings (rules of warning severity: the texts' Dependencies): a SPIR-V 1.4
# cooperative-vector module, as the Vulkan CTS builds them, is valid with a
# warning, invalid under --strict, and runs (coopvm run --verbose prints the
# warning).
add_test(NAME validate_cli_warning
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;${CMAKE_CURRENT_SOURCE_DIR}/validate/spv14/coopvec_spv14.spv"
          -DSTATUS=0 "-DWANT=warning: ;[NV-CV.Version];SPIR-V 1.4" -P ${cvm_val_expect})
add_test(NAME validate_cli_strict
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=val;--strict;${CMAKE_CURRENT_SOURCE_DIR}/validate/spv14/coopvec_spv14.spv"
          -DSTATUS=1 "-DWANT=error: ;[NV-CV.Version]" -P ${cvm_val_expect})
add_test(NAME validate_run_spv14
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=run;--verbose;${CMAKE_CURRENT_SOURCE_DIR}/validate/spv14/coopvec_spv14.amber"
          -DSTATUS=0 "-DWANT=PASS EXPECT y IDX 0 EQ 1 10 12;warning: ;[NV-CV.Version]"
          -P ${cvm_val_expect})
set(cvm_v14 ${CMAKE_CURRENT_SOURCE_DIR}/validate/vulkan/coopvec_spv14)
add_test(NAME validate_run_spv14_spv
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
          "-DARGS=run;${cvm_v14}/coopvec_spv14.spv;--dispatch;1,1,1;--buffer;0:0=${cvm_v14}/x.bin;--buffer;0:1=${cvm_v14}/w.bin;--buffer;0:2=${cvm_v14}/y.bin;--verbose"
          -DSTATUS=0 "-DWANT=dispatched 1,1,1;warning: ;[NV-CV.Version]" -P ${cvm_val_expect})
# Modules the Vulkan CTS builds that coopvm refused though drivers run them
# (tests/validate/README.md): each script runs through coopvm run.
file(GLOB cvm_val_run_scripts CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/validate/run/*.amber)
foreach(script ${cvm_val_run_scripts})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME validate_run.${name} COMMAND coopvm_cli run ${script} --threads 2)
  add_test(NAME validate_run.${name}.sg4 COMMAND coopvm_cli run ${script} --threads 1 --subgroup-size 4)
  add_test(NAME validate_run.${name}.jit COMMAND coopvm_cli run ${script} --threads 1 --jit)
endforeach()
# The Vulkan driver (src/vulkan, through the API) runs it too: vkrun through
# the loader on the ICD (tests/vulkan.cmake's runner), as the CTS's pipelines.
find_library(CVM_VULKAN_LOADER NAMES libvulkan.so.1 vulkan)
if(TARGET vulkan_coopvm AND CVM_VULKAN_LOADER AND EXISTS ${CVM_SHARED_DIR}/tools/vkrun/vkrun)
  add_test(NAME validate_vulkan_spv14
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/vkrun_case.py
            ${CVM_SHARED_DIR}/tools/vkrun/vkrun ${CMAKE_BINARY_DIR}/coopvm_icd.json
            ${CMAKE_CURRENT_SOURCE_DIR}/validate/vulkan/coopvec_spv14
            ${CMAKE_CURRENT_BINARY_DIR}/validate_vulkan/coopvec_spv14)
  set(cvm_val_vk_env COOPVM_THREADS=1)
  if(CVM_SANITIZE) # the ICD's sanitizer runtime first, as tests/vulkan.cmake does
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE cvm_val_libasan OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND cvm_val_vk_env LD_PRELOAD=${cvm_val_libasan} ASAN_OPTIONS=detect_leaks=0)
  endif()
  set_tests_properties(validate_vulkan_spv14 PROPERTIES ENVIRONMENT "${cvm_val_vk_env}" TIMEOUT 300)
endif()
