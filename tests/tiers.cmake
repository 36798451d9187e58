# The two tiers compared (issue 33; coopvm.h CVM_FLAG_COMPARE_TIERS), in
# builds with the compiled tier (LLVM): every dispatch runs on the compiled
# tier (forced on everything it takes, whatever the size) and on the
# interpreter from the same buffers, and must leave the same bytes, bit for
# bit, with no tolerance.
#
# 1. Every AmberScript and VkScript under tests/ through
#    `coopvm run SCRIPT --compare-tiers --verbose` (tests/cmake/compare_tiers.cmake):
#    it must pass, and its last line must show at least one dispatch that
#    compared compiled code -- except the scripts listed below as ones the
#    tier takes nothing of, whose `--verbose` output says why (the
#    instruction or variable it does not take), and which must compare none.
# 2. The unit tests whose dispatches run compiled code, with
#    COOPVM_JIT=compare, so each dispatch they make is compared (below).
if(NOT CVM_HAVE_LLVM)
  return()
endif()

# Not run: scripts that do not pass by design.
set(cvm_tier_scripts_left_out
  # its EXPECT fails on purpose (amber.batch checks the failure's report)
  amber/batch/fail.amber
  # scripts coopvm refuses (exit status 3) before anything is dispatched
  amber/unsupported/clear.vkscript amber/unsupported/feature.amber
  amber/unsupported/graphics.amber amber/unsupported/image.amber
  amber/unsupported/property.amber
  # fuzz inputs that once crashed the parser: their statuses are fuzz.cmake's
  fuzz/regress/amber/expect_failed_no_message.amber fuzz/regress/amber/nul_byte_in_word.amber
  fuzz/regress/amber/buffer_size_2tib.amber fuzz/regress/amber/vkscript_ssbo_4gib.vkscript
  # scripts that end in an error on purpose (exit status 1; amber.cmake checks it)
  amber/errors/coopmat_live_oob.amber amber/errors/coopmat_store_stride0_rows.amber
  # OpKill in a compute shader, which spirv-val refuses: test_jit runs it
  # without validation on both tiers
  jit/calls_kill.amber)

# Scripts the compiled tier takes nothing of (`coopvm run --verbose` says
# why for each: the first variable or instruction it does not take), so no
# dispatch compares compiled code; the test fails when one starts to.
set(cvm_tier_scripts_interpreted
  corpus/coopvec_mlp/coopvec_mlp.amber          # a return in a branch on a value of each invocation
  cases/qcom_s8_gemm/qcom_s8_gemm.amber         # a loop in a branch on a value of each invocation
  jit/scope_not_taken.amber                     # (the same, its point)
  jit/wide_operands.amber                       # an operand type of OpIsInf (its point)
  amber/descriptor_arrays.amber                 # descriptor arrays ('ubos')
  amber/matrix_layout.amber                     # a Function variable of this type ('m')
  amber/matrix_ops.amber                        # a load (OpLoad) of a matrix it does not take
  amber/matrix_ops_f64.amber                    # a load (OpLoad) it does not take
  amber/matrix_stride.amber                     # a Function variable of this type ('m')
  amber/tolerance_components.amber              # no RUN at all
  amber/batch/pass.amber                        # no RUN at all
  amber/hints_init.vkscript                     # OpExpectKHR
  jit/not_taken.amber                           # a subgroup instruction in a called function (its point)
  amber/batch/nested/skip.vkscript)             # refused (exit status 3: skipped)

# Scripts compared on one thread: their workgroups add floats into the same
# memory (OpCooperativeVectorOuterProductAccumulateNV, ReduceSumAccumulateNV:
# atomic adds in no order the texts fix), so on several threads the order
# of those adds, and so the bits, change from run to run on either tier; on
# one thread both tiers add in workgroup order.
set(cvm_tier_scripts_one_thread
  corpus/coopvec_training/coopvec_training.amber)

file(GLOB_RECURSE cvm_tier_scripts RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_SOURCE_DIR}/*.amber ${CMAKE_CURRENT_SOURCE_DIR}/*.vkscript)
foreach(rel ${cvm_tier_scripts})
  if(rel IN_LIST cvm_tier_scripts_left_out)
    continue()
  endif()
  set(compared 1)
  if(rel IN_LIST cvm_tier_scripts_interpreted)
    set(compared 0)
  endif()
  set(threads 2)
  if(rel IN_LIST cvm_tier_scripts_one_thread)
    set(threads 1)
  endif()
  string(REGEX REPLACE "\\.(amber|vkscript)$" "" name ${rel})
  string(REPLACE "/" "." name ${name})
  add_test(NAME tiers.${name}
    COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli>
            -DSCRIPT=${CMAKE_CURRENT_SOURCE_DIR}/${rel} -DCOMPARED=${compared} -DTHREADS=${threads}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/compare_tiers.cmake)
  set_tests_properties(tiers.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "coopvm-skip" TIMEOUT 300)
endforeach()

# The batch form (a folder) counts over all its scripts (on one thread: the
# corpus holds coopvec_training, above); the .spv form reports its one
# dispatch, here one the tier does not take, with the instruction that
# stops it.
add_test(NAME tiers.batch.corpus
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> -DWORKDIR=${CMAKE_CURRENT_SOURCE_DIR}
          "-DARGS=run;corpus;--compare-tiers;--verbose;--quiet;--threads;1" -DRC=0
          "-DMATCH=tiers: [1-9][0-9]* of [0-9]+ dispatches compared compiled code with the interpreter;[0-9]+ passed, 0 failed"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)
set(cvm_sl ${CMAKE_CURRENT_SOURCE_DIR}/shaders/scope_not_taken.spv)
add_test(NAME tiers.spv.not_taken
  COMMAND ${CMAKE_COMMAND} -DCOOPVM=$<TARGET_FILE:coopvm_cli> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}
          "-DARGS=run;${cvm_sl};--dispatch;1,1,1;--buffer;0:0=zero:1024;--buffer;0:1=zero:128;--compare-tiers;--verbose"
          -DRC=0
          "-DMATCH=scope_not_taken.spv: interpreted only, nothing to compare;entry point: not taken: the compiled tier does not take this branch out of a branch or loop on a value that differs between invocations, or a loop in one .OpBranch at word [0-9]+.;tiers: 0 of 1 dispatches compared"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/cli_status.cmake)

# Unit tests run with COOPVM_JIT=compare: those in which compiled code runs
# and is compared (counted when this list was made: test_fast_paths 208
# dispatches, test_matrix_transfer_paths 300, test_coopmat2 77,
# test_coop_nv_arm 28, test_uniform 20, test_tensor_ops 14, test_engine 6,
# test_coopvec 2,039 (since cooperative-vector shaders take the scope form),
# test_debug 5, test_matrix_alias 4, test_coop_conversions_ext 2, one each in
# test_coopmat_khr, test_indexing64 and test_long_vector).  The others
# dispatch nothing the tier takes (or nothing at all), so compared they
# would only run twice; and these three are not run so:
#   test_jit         compares the tiers itself with CVM_FLAG_JIT and
#                    CVM_FLAG_NO_JIT and counts which tier ran each
#                    workgroup: COOPVM_JIT overrides those flags;
#   test_leaf_calls  the same for leaf callbacks; and its inputs meet two
#                    NaNs of different payloads in one f32 operation (max,
#                    +), whose result's payload IEEE 754 (6.2.3) and the
#                    texts leave open: the interpreter's C kernels and
#                    LLVM's code pick different operands (seen: 0x7fc12345
#                    against 0x7fc00001).  It states that exception itself
#                    (compare_bits), for those words only;
#   test_tiers       sets COOPVM_JIT itself.
set(cvm_tier_units test_fast_paths test_matrix_transfer_paths test_coopmat2 test_coop_nv_arm
    test_uniform test_tensor_ops test_engine test_debug test_matrix_alias
    test_coop_conversions_ext test_coopmat_khr test_indexing64 test_long_vector test_coopvec)
foreach(name ${cvm_tier_units})
  add_test(NAME tiers.unit.${name} COMMAND ${name})
  set_tests_properties(tiers.unit.${name} PROPERTIES ENVIRONMENT COOPVM_JIT=compare TIMEOUT 600)
endforeach()
