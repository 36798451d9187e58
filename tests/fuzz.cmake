# The fuzz harnesses of tests/fuzz (see fuzz_common.h).
#   replay_<h>  every build: runs saved inputs through harness <h> and prints
#               "FILE: STATUS: message" per input; the regression tests below.
#   fuzz_<h>    CVM_FUZZ builds (clang): the libFuzzer binaries that
#               tools/fuzz.sh runs from their seeds (tools/check.sh does, for
#               a bounded time, whenever clang's libFuzzer is installed).
#   module_unvalidated is fuzz_module.c with CVM_FLAG_NO_VALIDATION: the
#   reader, lowering and interpreter on their own.
#   coopvec_convert is cvm_convert_cooperative_vector_matrix; its seeds are
#   fuzz/coopvec_convert/*.cvconv (the input format: its header comment).
#   module_tiers is fuzz_module.c with CVM_FLAG_COMPARE_TIERS: a module the
#   compiled tier takes whose tiers differ is a finding.
set(CVM_FUZZ_HARNESSES module module_unvalidated module_tiers validate disassemble assemble amber
    coopvec_convert)
foreach(h ${CVM_FUZZ_HARNESSES})
  set(src ${h})
  if(h STREQUAL "module_unvalidated" OR h STREQUAL "module_tiers")
    set(src module)
  endif()
  set(targets replay_${h})
  add_executable(replay_${h} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${src}.c
                 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_common.c
                 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_replay.c)
  if(CVM_FUZZ)
    add_executable(fuzz_${h} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${src}.c
                   ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_common.c)
    target_link_options(fuzz_${h} PRIVATE -fsanitize=fuzzer)
    list(APPEND targets fuzz_${h})
  endif()
  foreach(t ${targets})
    target_include_directories(${t} PRIVATE ${CMAKE_SOURCE_DIR}/src)
    target_compile_options(${t} PRIVATE ${CVM_WARNINGS})
    target_link_libraries(${t} PRIVATE coopvm)
    if(h STREQUAL "module_unvalidated")
      target_compile_definitions(${t} PRIVATE CVM_FUZZ_UNVALIDATED=1)
    endif()
    if(h STREQUAL "module_tiers")
      target_compile_definitions(${t} PRIVATE CVM_FUZZ_TIERS=1)
    endif()
  endforeach()
endforeach()

# Regressions: each input that once crashed (fuzz/regress/<harness>/, see its
# README) must end in a failure status and a message saying what is wrong.
# The status line is printed only after the input ran, so a crash or a
# broken contract cannot match.
function(cvm_fuzz_regression harness file regex)
  get_filename_component(name ${file} NAME_WE)
  set(dir ${harness})
  if(harness STREQUAL "module_unvalidated" OR harness STREQUAL "module_tiers")
    set(dir module)
  endif()
  add_test(NAME fuzz.regress.${harness}.${name}
           COMMAND replay_${harness} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regress/${dir}/${file})
  set_tests_properties(fuzz.regress.${harness}.${name} PROPERTIES
                       PASS_REGULAR_EXPRESSION ": CVM_ERROR_[A-Z_]+: [^\n]*${regex}"
                       FAIL_REGULAR_EXPRESSION ": CVM_SUCCESS:"
                       TIMEOUT 60)
endfunction()
cvm_fuzz_regression(module uaf_byteswapped_header.spv "version word 0x26000601 is not a SPIR-V version")
cvm_fuzz_regression(module segv_elementwise.spv "OpSpecConstantOp")
cvm_fuzz_regression(module null_slot_load.spv "OpTypeRuntimeArray")
# ... and without the validator, the reader refuses them itself.
cvm_fuzz_regression(module_unvalidated uaf_byteswapped_header.spv "unsupported SPIR-V version 0x26000601")
cvm_fuzz_regression(module_unvalidated segv_elementwise.spv "instruction at word 342 .opcode 128. ends before its operands do")
cvm_fuzz_regression(module_unvalidated null_slot_load.spv "operand 'Object' of OpStore at word 633 is %52 .OpTypeCooperativeMatrixKHR., where a value is needed")
cvm_fuzz_regression(module_unvalidated global_load_no_slot.spv "operand 'Pointer' of OpLoad at word 71 is %10 .OpAccessChain., where a value .a constant or a variable outside functions. is needed")
cvm_fuzz_regression(module global_load_no_slot.spv "OpAccessChain must be inside a function")
# a function typed to return %18 (no type) returning an int: the return slot
# did not exist (a null-pointer copy under UBSan, found by fuzz_module_unvalidated)
# an OpShiftRightArithmetic of half-float operands: the compiled tier's tile
# form asked LLVM for the integer width of a float type and built a compare
# of it (SEGV inside LLVM, found by tools/check.sh's 20 s run on c094819);
# the tier now refuses such operands and the interpreter runs the shader
# (the lowering now refuses the float operands of an integer shift before
# anything runs: the JIT's refusal stays as a second guard)
cvm_fuzz_regression(module_unvalidated jit_shift_vector_count.spv "OpShiftRightArithmetic .word 1143.: Result Type %7 must have integer components")
# OpCopyLogical of an array of 2 cooperative matrices into an array of 384:
# h_copy read the result's 98,304 bytes from the operand's 512-byte slot
# (memcpy-param-overlap, found by tools/check.sh's 20 s run on 32536b4)
cvm_fuzz_regression(module_unvalidated copy_logical_wider_result.spv "OpCopyLogical .word 479.: Operand %84 is a 512-byte value where one like the Result Type's 98304 bytes is needed")
# a constant array sized by a specialization constant to 5,767,170 elements
# (1.4 GB): the lowering grew the constant data to 2 GB before finding two
# constituents (an out-of-memory of fuzz_module_tiers on 136a7af, 600 s run)
cvm_fuzz_regression(module constant_array_2gb.spv "the module's constants need more than 268435456 bytes .constant %21 of 1476395520 bytes")
# a storage buffer variable mutated into OpSpecConstantTargetINTEL, then the
# Base of an access chain: a constant-creation instruction the reader takes
# as a value and the lowering gave no slot (a null read in
# access_chain_all_lanes, a 720 s local run on a2cb0e9)
# a valid module whose one MulAdd of 3600x3600 matrices (47 billion
# multiply-adds) ran for five minutes under the harness's budget of 20,000
# instructions (a timeout of fuzz_module_tiers, 16-core run on b776a09):
# the budget now charges a matrix product's work (cvm_block.cost)
cvm_fuzz_regression(module muladd_3600_budget.spv "instruction budget of the dispatch ran out")
cvm_fuzz_regression(module_tiers muladd_3600_budget.spv "instruction budget of the dispatch ran out")
cvm_fuzz_regression(module_unvalidated spec_constant_target_intel_base.spv "OpSpecConstantTargetINTEL .word 581.: this constant instruction is not supported")
cvm_fuzz_regression(module_unvalidated return_value_wrong_type.spv "OpReturnValue of a value of type 9 in a function returning 18")
cvm_fuzz_regression(module_unvalidated specop_operand_no_value.spv "operand 'Unsigned Value' of OpUConvert at word 391 is %23, a result of a function, used outside functions")
cvm_fuzz_regression(module specop_operand_no_value.spv "OpSpecConstantOp names opc")
cvm_fuzz_regression(module_unvalidated ewise_width_mismatch.spv "OpIAdd .word 80.: %13 has 8-byte components where 4-byte ones are needed")
cvm_fuzz_regression(module_unvalidated access_chain_result_not_pointer.spv "OpAccessChain at word 816: the Result Type %48 is not a pointer type")
cvm_fuzz_regression(module_unvalidated copy_object_wider_result.spv "operand 'Operand' of OpCopyObject at word 97 is %15 .OpIAdd., where a value of the Result Type is needed")
cvm_fuzz_regression(module_unvalidated access_chain_index_not_integer.spv "operand 'Indexes' of OpAccessChain at word 330 is %50 .OpCooperativeMatrixLoadKHR., where an integer scalar is needed")
cvm_fuzz_regression(module_unvalidated shuffle_scalar_operands.spv "OpVectorShuffle .word 501.: Result Type, Vector 1 and Vector 2 must be vectors")
cvm_fuzz_regression(module shuffle_scalar_operands.spv "the Result Type %6 is not the pointee type %26")
cvm_fuzz_regression(module_unvalidated coopmat_load_operand_not_integer.spv "OpCooperativeMatrixStoreKHR .word 332.: MemoryLayout %49 is not an integer scalar")
cvm_fuzz_regression(module coopmat_load_operand_not_integer.spv "%49 is used before its definition")
cvm_fuzz_regression(module_unvalidated access_chain_index_16core.spv "operand .Indexes. of OpAccessChain at word 709 is %103 .OpLoad., where an integer scalar is needed")
cvm_fuzz_regression(module access_chain_index_16core.spv "%103 is used before its definition")
cvm_fuzz_regression(module_unvalidated idot_result_not_integer.spv "OpUDotAccSat .word 344.: Result %39 is not an integer scalar")
cvm_fuzz_regression(module idot_result_not_integer.spv "OpUDotAccSat needs the capability DotProduct")
cvm_fuzz_regression(module_unvalidated branch_condition_not_bool.spv "OpBranchConditional .word 704.: Condition %97 is not a Boolean scalar")
# an OpSelect whose Condition is a cooperative matrix (defined after it):
# h_select read one byte per invocation from a slot of one matrix per scope
# instance (heap-buffer-overflow, fuzz_module_unvalidated on d3f5c46)
cvm_fuzz_regression(module_unvalidated select_condition_coopmat.spv "OpSelect .word 326.: Condition %63 must be a bool scalar, or a bool vector with as many components as Result Type")
cvm_fuzz_regression(module select_condition_coopmat.spv "%63 is used before its definition")
# an OpConstantComposite of a 2-member struct given 3 constituents, the
# second a 4-byte constant for an 8,196-byte member: build_composite copied
# the member's size from the constituent's data (memcpy-param-overlap in the
# lowering, fuzz_module_unvalidated in a 16-core run on 47aa6cb)
cvm_fuzz_regression(module_unvalidated constant_struct_member_size.spv "OpConstantComposite .word 410.: 3 constituents for a struct of 2 members")
cvm_fuzz_regression(module constant_struct_member_size.spv "3 constituents for a type of 2")
cvm_fuzz_regression(module branch_condition_not_bool.spv "%97 is used before its definition")
cvm_fuzz_regression(module_unvalidated copy_memory_source_not_pointer.spv "operand 'Target' of OpCopyMemory at word 444 is %53 .OpLabel., where a value is needed")
cvm_fuzz_regression(module_unvalidated type_struct_of_itself.spv "operand 'Member 0 type, member 1 type, ...' of OpTypeStruct at word 399 is %18, which is not defined before it")
cvm_fuzz_regression(module type_struct_of_itself.spv "%18 is used before its definition at word 399")
cvm_fuzz_regression(module_unvalidated type_struct_member_defined_later.spv "of OpTypeStruct at word 827 is %63, which is not defined before it .its definition is at word 920.")
cvm_fuzz_regression(module type_struct_member_defined_later.spv "%63 is used before its definition at word 920")
cvm_fuzz_regression(assemble newline_in_message.spvasm "Invalid Opcode name 'OpTypeBoatrix\"[?]OpExtension")
cvm_fuzz_regression(amber expect_failed_no_message.amber "1 of 1 EXPECT commands failed, the first at line 4")
cvm_fuzz_regression(amber nul_byte_in_word.amber "expected END closing SHADER_OPTIMIZATION of line 4, got end of file")
cvm_fuzz_regression(amber buffer_size_2tib.amber "BUFFER sout: 999999999996 elements of 2 bytes: more than the 536870912 bytes")
cvm_fuzz_regression(amber vkscript_ssbo_4gib.vkscript "buffer ssbo 0:1: 4000000000 bytes, with the 0 before it more than the 536870912 bytes")

# Valid modules that once crashed (fuzz/regress/module/hbo_*.spv, see its
# README): each must now run to the end, validated or not.
function(cvm_fuzz_regression_valid harness file)
  get_filename_component(name ${file} NAME_WE)
  add_test(NAME fuzz.regress.${harness}.${name}
           COMMAND replay_${harness} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regress/module/${file})
  set_tests_properties(fuzz.regress.${harness}.${name} PROPERTIES
                       PASS_REGULAR_EXPRESSION "${file}: CVM_SUCCESS: \n"
                       TIMEOUT 60)
endfunction()
foreach(f hbo_construct_array_of_coopmat.spv hbo_construct_struct_with_coopmat.spv
          hbo_insert_coopmat_into_array.spv hbo_write_extract_from_array_of_coopmat.spv)
  cvm_fuzz_regression_valid(module ${f})
  cvm_fuzz_regression_valid(module_unvalidated ${f})
endforeach()
# a valid module whose compiled code LLVM lowered to a memset call the JIT
# could not resolve: LLVM printed "JIT session error: Symbols not found:
# [ memset ]" and the message of the failed lookup was read after the JIT
# that it names was freed (heap-use-after-free in llvm_error,
# fuzz_module_tiers in a 16-core run on b91b34f); the JIT now defines
# memset, memcpy and memmove and keeps LLVM's reports off stderr
cvm_fuzz_regression_valid(module_tiers hbo_jit_memset_lookup.spv)
# a Workgroup variable every invocation reads, adds 1 to and writes back
# before a barrier (a race; written by hand in SPIR-V assembly): the
# collective form runs the invocations one after the other between
# barriers (the value becomes 4), the interpreter side by side (1), and the
# interpreter has no serial schedule for a shader with a barrier.  The
# difference is the dispatch's status, not a finding (fuzz_module.c).
add_test(NAME fuzz.regress.module_tiers.collective_race
         COMMAND replay_module_tiers ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regress/module/collective_race.spv)
set_tests_properties(fuzz.regress.module_tiers.collective_race PROPERTIES
                     PASS_REGULAR_EXPRESSION "collective_race.spv: CVM_ERROR_TIERS_DIFFER: "
                     TIMEOUT 60)
set_tests_properties(fuzz.regress.module_tiers.hbo_jit_memset_lookup PROPERTIES
                     FAIL_REGULAR_EXPRESSION "JIT session error|tiers differ")
# a tensor view loaded from a variable the module stored other bytes into
# (unvalidated): the view's hasDimensions byte was 4, read as a bool (UBSan
# at tensor_ops.c, fuzz_module_unvalidated in a 16-core run on b91b34f);
# a view's register must now match its type (hasDimensions, Dim and the
# permutation, itself now checked to be one of [0, Dim))
cvm_fuzz_regression(module_unvalidated tensor_view_bytes_not_a_view.spv "tensor view 174 is not initialized")
cvm_fuzz_regression(module tensor_view_bytes_not_a_view.spv "the Result Type %78 is not the pointee type %61")
# an OpStore of a 4-byte uint through a pointer to a 2-byte half (a Function
# variable): the dense copy wrote the Object's size into the variable's
# slot (memcpy-param-overlap in dense_copy, fuzz_module_unvalidated, local
# run on 60d5f1e); OpLoad and OpStore now want a value of the pointee's size
cvm_fuzz_regression(module_unvalidated store_object_wider_than_pointee.spv "OpStore .word 459.: %9 points to a value of 2 bytes, not one of the 4 bytes of type 23")
cvm_fuzz_regression(module store_object_wider_than_pointee.spv "Object %53 has type %23, not the pointee type %29")
# a variable decorated BuiltIn LocalInvocationIndex whose pointee is void
# (size 0): the interpreter wrote the invocation's index into the 4 bytes
# past it, the Function variable %i that the shader read uninitialized,
# while the compiled tier's %i was 0, so the tiers differed in status
# (fuzz_module_tiers, 16-core run on 0dd1577); the lowering now wants each
# built-in it writes to be the 32-bit integer scalar or vector Vulkan says
# (VUID-LocalInvocationIndex-LocalInvocationIndex-04286 and the like, which
# the validator checks for Vulkan targets)
foreach(h module module_unvalidated)
  cvm_fuzz_regression(${h} builtin_index_of_void.spv "the BuiltIn LocalInvocationIndex variable %10 must hold a 32-bit integer, not type %2")
endforeach()
# an OpCompositeConstruct of a cooperative matrix from two Constituents, one
# narrower than the Component Type: h_matrix_splat compared each lane's
# 4-byte element with memcmp past the 2-byte slot block (heap-buffer-
# overflow read, fuzz_module_unvalidated, 16-core run on 4f7e7fa); the
# lowering now wants one scalar Constituent of the Component Type's size
cvm_fuzz_regression(module_unvalidated coopmat_construct_two_scalars.spv "a cooperative matrix is constructed from one scalar, not 2 Constituents")
# an OpUMod of floats: the compiled tier built its integer division on float
# values (SEGV inside LLVM's IRBuilder, fuzz_module_unvalidated, local run
# on 1151366); the lowering now wants integer operations on integers, and
# the compiled tier builds integer operations only on integer values
cvm_fuzz_regression(module_unvalidated umod_float_jit.spv "OpUMod .word 397.: Result Type %17 must have integer components")
# a race between invocations (a mutated ArrayStride of 3: neighbours' 4-byte
# stores overlap) that made the tiers differ legitimately and was reported
# as a finding (fuzz_module_tiers, 16-core run on 47aa6cb); the harness now
# reruns a difference with the interpreter in the compiled tier's order
# (its race filter), where they agree, and prints the first run's status
if(CVM_HAVE_LLVM)
  cvm_fuzz_regression(module_tiers race_array_stride_3.spv "the tiers differ at set 0 binding 2, byte 3 of 4096")
endif()

# The seeds themselves run clean through the harnesses (a crash or a broken
# contract fails the test; fuzz_validate's contract includes "what the
# validator accepts, the disassembler decodes", which
# tests/debug/printf_callbacks_gvs.spv once broke: an OpExtInst operand 0 of
# glslang's debug information).
file(GLOB_RECURSE cvm_seed_spv ${CMAKE_CURRENT_SOURCE_DIR}/*.spv)
list(FILTER cvm_seed_spv EXCLUDE REGEX "/fuzz/regress/")
add_test(NAME fuzz.seeds.module COMMAND replay_module ${cvm_seed_spv})
add_test(NAME fuzz.seeds.module_unvalidated COMMAND replay_module_unvalidated ${cvm_seed_spv})
add_test(NAME fuzz.seeds.validate COMMAND replay_validate ${cvm_seed_spv})
add_test(NAME fuzz.seeds.disassemble COMMAND replay_disassemble ${cvm_seed_spv})
file(GLOB_RECURSE cvm_seed_spvasm ${CMAKE_CURRENT_SOURCE_DIR}/*.spvasm)
list(FILTER cvm_seed_spvasm EXCLUDE REGEX "/fuzz/regress/")
add_test(NAME fuzz.seeds.assemble COMMAND replay_assemble ${cvm_seed_spvasm})
file(GLOB_RECURSE cvm_seed_scripts ${CMAKE_CURRENT_SOURCE_DIR}/*.amber
     ${CMAKE_CURRENT_SOURCE_DIR}/*.vkscript)
list(FILTER cvm_seed_scripts EXCLUDE REGEX "/fuzz/regress/")
add_test(NAME fuzz.seeds.amber COMMAND replay_amber ${cvm_seed_scripts})

file(GLOB cvm_seed_cvconv ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/coopvec_convert/*.cvconv)
add_test(NAME fuzz.seeds.coopvec_convert COMMAND replay_coopvec_convert ${cvm_seed_cvconv})

# The dictionaries are what tools/gen_fuzz_dict.py makes from the grammar now.
add_test(NAME fuzz_dict_fresh
  COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE} -DSRC=${CMAKE_SOURCE_DIR}
          -DGEN=tools/gen_fuzz_dict.py -DINPUT=${CVM_SHARED_DIR}/grammar -DDIR=tests/fuzz
          -DFILES=spirv_binary.dict,spirv_text.dict -DOUT=${CMAKE_CURRENT_BINARY_DIR}/fuzz_dict_fresh
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_fresh.cmake)

# module_tiers over the project's own modules (every .spv under tests/): the
# harness aborts, failing the test, on a module whose tiers differ.
if(CVM_HAVE_LLVM)
  file(GLOB_RECURSE cvm_fuzz_tier_modules CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.spv)
  list(FILTER cvm_fuzz_tier_modules EXCLUDE REGEX "/fuzz/regress/")
  add_test(NAME fuzz.tiers.project_modules COMMAND replay_module_tiers ${cvm_fuzz_tier_modules})
  set_tests_properties(fuzz.tiers.project_modules PROPERTIES TIMEOUT 300)
endif()
