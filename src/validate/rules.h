/* THE RULE TABLE: every rule coopvm validates, one row each, with the text
 * and section it comes from and the function that checks it.  rules.c
 * builds val_rules[] from this list and val_checks.h declares the check
 * functions from it, so the table and the code cannot drift apart.
 *
 *   X(id, phase, on, opcode, env, severity, source, section, text, check)
 *
 *   phase   1 header, 2 syntax, 3 structure, 4 rules (val.h)
 *   on      VAL_MODULE: once; VAL_OPCODE: each instruction with `opcode`;
 *           VAL_EACH: each instruction (the check filters); VAL_DEVICE |
 *           one of those: a rule that depends on the device or the
 *           pipeline, run only against a cvm_device_description
 *           (cvm_validate_options.device; the env column still applies)
 *           (val_device.c); VAL_RUNTIME: a rule on run-time values, which
 *           the engine checks while the module runs (`text` names where
 *           and the status; tests/unit/test_runtime_rules.c tests each),
 *           never run by the validator; VAL_LISTED: a text erratum
 *           (`text` says why), listed so that the table covers the texts
 *   env     VAL_ENV_ANY, or VAL_ENV_VULKAN for the Vulkan environment rules
 *   severity VAL_ERROR: a broken rule refuses the module; VAL_WARNING: it is
 *           reported (cvm_validate_options.on_warning) and the run goes on,
 *           unless CVM_VALIDATE_STRICT makes it an error.  Warnings are the
 *           texts' "Dependencies" statements (a SPIR-V version, another
 *           extension): they describe the environment an extension ships
 *           in, spirv-val does not check them, and drivers run modules that
 *           break them (shared/docs/SPEC_NOTES.md, "Dependencies and
 *           versions"); and explicit rules that drivers and the Vulkan CTS
 *           ignore where breaking them changes nothing the engine does
 *           (each says why beside its row)
 *
 * Within a phase, module rules run first, then the instruction rules in
 * module order, each instruction against the rows in this order; the first
 * broken error rule is reported (warnings are reported as they are found).
 * Core rows come first so that the extension checks see well-formed
 * operands.
 *
 * Sources: SPIR-V 1.6 (unified) for the core rows; the five texts in
 * shared/specs/seeds (and their asciidoc in shared/specs) with
 * SPV_KHR_cooperative_matrix, SPV_NV_tensor_addressing and
 * SPV_ARM_cooperative_matrix_layouts; the Vulkan rows
 * are the VUIDs of shared/specs/vulkan/spirvenv_cooperative_vuids.adoc. */
#ifndef CVM_VALIDATE_RULES_H
#define CVM_VALIDATE_RULES_H

#define SRC_CORE "SPIR-V 1.6"
#define SRC_KHR "SPV_KHR_cooperative_matrix rev 10"
#define SRC_NV2 "SPV_NV_cooperative_matrix2 rev 2"
#define SRC_TA "SPV_NV_tensor_addressing rev 1"
#define SRC_DV "SPV_NV_cooperative_matrix_decode_vector rev 1"
#define SRC_QCOM "SPV_QCOM_cooperative_matrix_conversion rev 1"
#define SRC_CV "SPV_NV_cooperative_vector rev 2"
#define SRC_NV1 "SPV_NV_cooperative_matrix rev 3"
#define SRC_DI "NonSemantic.Shader.DebugInfo version 101 rev 2"
#define SRC_M1 "SPV_EXT_cooperative_matrix_maintenance1 rev 1"
#define SRC_ARM "SPV_ARM_cooperative_matrix_layouts rev 1"
#define SRC_BF16 "SPV_KHR_bfloat16"
#define SRC_FP8 "SPV_EXT_float8"
#define SRC_VK "Vulkan, Appendix: SPIR-V environment"
#define SRC_VK_BI "Vulkan, Built-In Variables"

#define OPC(name) SpvOp##name

/* clang-format off */
#define VAL_RULES(X) \
/* ---- core: the binary (phase 1) ---- */ \
X("CORE.Header", 1, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.3 Physical Layout", \
  "the module starts with the 5-word header: magic number, a version 1.0 to 1.6, generator, a bound above 0, schema 0", vc_header) \
X("CORE.Bound-Limit", 1, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.17 Universal Limits", \
  "the id bound is at most 4194303", vc_bound_limit) \
X("CORE.Version-Env", 1, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.3 Physical Layout (version) and the client API's SPIR-V versions", \
  "the module's SPIR-V version is one the target environment takes", vc_version_env) \
X("CORE.Stream", 1, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.3 Physical Layout", \
  "every instruction has a word count of at least 1 and ends inside the module", vc_stream) \
/* ---- core: the grammar (phase 2) ---- */ \
X("CORE.Opcode", 2, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3 Binary Form (the grammar)", \
  "the opcode is a SPIR-V instruction", vc_opcode) \
X("CORE.Operands", 2, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.3 Physical Layout, 3 Binary Form", \
  "the instruction's words are the operands its grammar gives, no fewer and no more; enumerants are known; strings end inside the instruction", vc_operands) \
X("CORE.Id-Bound", 2, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.3 Physical Layout", \
  "every <id> operand satisfies 0 < id < Bound", vc_id_in_bound) \
/* ---- core: structure (phase 3) ---- */ \
X("CORE.Memory-Model", 3, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.4 Logical Layout of a Module", \
  "the module has exactly one OpMemoryModel", vc_memory_model) \
X("CORE.Entry-Point-Required", 3, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.4 Logical Layout of a Module", \
  "the module has at least one OpEntryPoint unless it declares the Linkage capability", vc_entry_point_required) \
X("CORE.Function-Layout", 3, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.4 Logical Layout, 2.2.5 Control Flow (blocks)", \
  "a function is OpFunction, its parameters, blocks that each start with OpLabel and end with one termination instruction, and OpFunctionEnd", vc_function_layout) \
X("CORE.Layout", 3, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.4 Logical Layout of a Module", \
  "instructions come in the section order of the logical layout; module-scope instructions stay outside functions and function instructions inside", vc_layout) \
X("CORE.Id-Unique", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.2.2 Types (Result <id>), 2.16.1 Universal Validation Rules", \
  "a Result <id> is defined by one instruction only", vc_id_unique) \
X("CORE.Id-Defined", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.16.1 Universal Validation Rules", \
  "every <id> operand is the Result <id> of some instruction", vc_id_defined) \
X("CORE.Id-Forward", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.4 Logical Layout of a Module (forward references)", \
  "an <id> is defined before its use, except in names, decorations, entry points and execution modes, for labels, functions, OpPhi and forward-declared pointers", vc_forward_ref) \
X("CORE.Id-Function-Local", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.16.1 Universal Validation Rules", \
  "an <id> defined in a function is used only in that function", vc_function_local) \
X("CORE.Variable-Placement", 3, VAL_OPCODE, OPC(Variable), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.4 Logical Layout (function definitions), 3.42.8 OpVariable", \
  "variables inside a function have the Function storage class and come first in the function's first block", vc_variable_placement) \
X("CORE.Phi-Placement", 3, VAL_OPCODE, OPC(Phi), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.17 OpPhi", \
  "OpPhi comes before every other instruction of its block except OpLine", vc_phi_placement) \
X("CORE.Branch-Target", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.2.5 Control Flow, 3.42.17", \
  "branch targets, merge blocks, continue targets and OpPhi parents are blocks of the same function", vc_branch_targets) \
X("CORE.Merge-Placement", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.17 OpSelectionMerge, OpLoopMerge", \
  "OpSelectionMerge comes right before OpBranchConditional or OpSwitch, OpLoopMerge right before OpBranch or OpBranchConditional", vc_merge_placement) \
X("CORE.Merge-Unique", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.11 Structured Control Flow", \
  "a block is the merge block of one header at most", vc_merge_unique) \
X("CORE.Header-Dominates", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.11 Structured Control Flow", \
  "a header block dominates its reachable merge block, and a loop header its continue target", vc_merge_dominance) \
X("CORE.Back-Edge", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.11 Structured Control Flow", \
  "a back edge (to a block dominating the branch) goes to a loop header", vc_back_edge) \
X("CORE.Structured-Selection", 3, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.11 Structured Control Flow", \
  "with the Shader capability, a conditional branch to two blocks not seen before needs OpSelectionMerge, and OpSwitch always does", vc_structured_selection) \
X("CORE.Dominance", 3, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.16.1 Universal Validation Rules", \
  "the definition of an <id> dominates its uses (for OpPhi, the end of the parent block)", vc_dominance) \
/* ---- core: operands and types (phase 4) ---- */ \
X("CORE.Result-Type", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.2.1 Instructions (Result Type)", \
  "a Result Type is a type-declaration instruction, and not OpTypeVoid except for functions, calls and extended instructions", vc_result_type) \
X("CORE.Operand-Kind", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3 Binary Form (operand descriptions)", \
  "operands name what their position needs: a value, a type, a label, an extended instruction set", vc_operand_kinds) \
X("CORE.Type-Int", 4, VAL_OPCODE, OPC(TypeInt), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeInt", \
  "Width is 8, 16, 32 or 64 and Signedness 0 or 1", vc_type_int) \
X("CORE.Type-Float", 4, VAL_OPCODE, OPC(TypeFloat), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeFloat, 3.x FP Encoding", \
  "Width is 16, 32 or 64, or the width of the Floating Point Encoding", vc_type_float) \
X("CORE.Type-Vector", 4, VAL_OPCODE, OPC(TypeVector), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeVector", \
  "Component Type is a scalar numerical or boolean type and Component Count at least 2", vc_type_vector) \
X("CORE.Type-Matrix", 4, VAL_OPCODE, OPC(TypeMatrix), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeMatrix", \
  "Column Type is a floating-point vector and Column Count at least 2", vc_type_matrix) \
X("CORE.Type-Array", 4, VAL_OPCODE, OPC(TypeArray), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeArray", \
  "Element Type is a non-void type and Length an integer constant instruction of at least 1", vc_type_array) \
X("CORE.Type-Runtime-Array", 4, VAL_OPCODE, OPC(TypeRuntimeArray), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeRuntimeArray", \
  "Element Type is a non-void type", vc_type_array) \
X("CORE.Type-Struct", 4, VAL_OPCODE, OPC(TypeStruct), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeStruct", \
  "members are non-void types", vc_type_struct) \
X("CORE.Type-Pointer", 4, VAL_OPCODE, OPC(TypePointer), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypePointer", \
  "Type is a type", vc_type_pointer) \
X("CORE.Type-Function", 4, VAL_OPCODE, OPC(TypeFunction), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.6 OpTypeFunction", \
  "Return Type is a type and the parameters non-void types", vc_type_function) \
X("CORE.Constant", 4, VAL_OPCODE, OPC(Constant), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.7 OpConstant", \
  "the Result Type is an integer or floating-point scalar and the value takes its width in words", vc_constant_scalar) \
X("CORE.Spec-Constant", 4, VAL_OPCODE, OPC(SpecConstant), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.7 OpSpecConstant", \
  "the Result Type is an integer or floating-point scalar and the value takes its width in words", vc_constant_scalar) \
X("CORE.Constant-Bool", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.7 OpConstantTrue/False, OpSpecConstantTrue/False", \
  "the Result Type is OpTypeBool", vc_constant_bool_each) \
X("CORE.Constant-Composite", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.7 OpConstantComposite, OpSpecConstantComposite", \
  "the constituents are constants matching the composite Result Type in number and type", vc_constant_composite_each) \
X("CORE.Spec-Constant-Op", 4, VAL_OPCODE, OPC(SpecConstantOp), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.7 OpSpecConstantOp", \
  "the operation is one OpSpecConstantOp allows (the conversions, float arithmetic and access chains of the Kernel list only with Kernel)", vc_spec_constant_op) \
X("CORE.Constant-Null", 4, VAL_OPCODE, OPC(ConstantNull), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.7 OpConstantNull", \
  "the Result Type has a null value", vc_constant_null) \
X("CORE.Variable", 4, VAL_OPCODE, OPC(Variable), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.8 OpVariable", \
  "the Result Type is a pointer of the Storage Class operand; an Initializer has the pointee type; module-scope variables are not Function", vc_variable) \
X("CORE.Load", 4, VAL_OPCODE, OPC(Load), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.8 OpLoad", \
  "Pointer is a pointer and the Result Type its pointee type", vc_load) \
X("CORE.Store", 4, VAL_OPCODE, OPC(Store), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.8 OpStore", \
  "Pointer is a pointer and Object of its pointee type", vc_store) \
X("CORE.Access-Chain", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.8 OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain", \
  "Base is a pointer; indexes are integer scalars (constant for structures) that stay inside the type; the Result Type points to the type reached, in Base's storage class", vc_access_chain_each) \
X("CORE.Atomic", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.18 Atomic Instructions", \
  "Pointer is a pointer to a scalar; the Result Type, Value and Comparator have its pointee type", vc_atomic) \
X("CORE.Copy-Object", 4, VAL_OPCODE, OPC(CopyObject), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.12 OpCopyObject", \
  "the Result Type is the operand's type", vc_copy_object) \
X("CORE.Composite-Extract", 4, VAL_OPCODE, OPC(CompositeExtract), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.12 OpCompositeExtract", \
  "the indexes stay inside Composite's type, go through no run-time array, and reach the Result Type", vc_composite_extract) \
X("CORE.Composite-Insert", 4, VAL_OPCODE, OPC(CompositeInsert), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.12 OpCompositeInsert", \
  "Composite is of the Result Type; the indexes stay inside it, go through no run-time array, and reach Object's type", vc_composite_insert) \
X("CORE.Composite-Construct", 4, VAL_OPCODE, OPC(CompositeConstruct), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.12 OpCompositeConstruct", \
  "the constituents fill the composite Result Type in number and type", vc_composite_construct) \
X("CORE.Composite-Replicate", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, "SPV_EXT_replicated_composites", "OpCompositeConstructReplicateEXT, Op(Spec)ConstantCompositeReplicateEXT", \
  "Value has the element type of Result Type (the component, column, array element or cooperative matrix/vector Component Type)", vc_composite_replicate) \
X("CORE.Vector-Shuffle", 4, VAL_OPCODE, OPC(VectorShuffle), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.12 OpVectorShuffle", \
  "two vectors of the Result Type's component type; one component literal per result component, each selecting a component or 0xFFFFFFFF", vc_vector_shuffle) \
X("CORE.Vector-Dynamic", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.12 OpVectorExtractDynamic, OpVectorInsertDynamic", \
  "Vector is a vector; the component and Result Type match it; Index is an integer scalar", vc_vector_dynamic_each) \
X("CORE.Arith-Float", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.13 Arithmetic Instructions (OpF*)", \
  "the Result Type is a floating-point scalar or vector and the operands are of it", vc_arith_float_each) \
X("CORE.Arith-Int", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.13 Arithmetic, 3.42.14 Bit Instructions", \
  "the Result Type is an integer scalar or vector and the operands integers of its width and number of components", vc_arith_int_each) \
X("CORE.Shift", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.14 OpShiftRightLogical, OpShiftRightArithmetic, OpShiftLeftLogical", \
  "Base is an integer of the Result Type's width and size, Shift an integer of its size", vc_shift_each) \
X("CORE.Compare", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.15 Relational and Logical Instructions", \
  "a boolean Result Type with the operands' number of components; the operands of one kind and width", vc_compare_each) \
X("CORE.Select", 4, VAL_OPCODE, OPC(Select), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.15 OpSelect", \
  "Condition is a boolean (a vector of the result's size when a vector); both objects are of the Result Type", vc_select) \
X("CORE.Convert", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.11 Conversion Instructions", \
  "OpConvert*/OpUConvert/OpSConvert/OpFConvert go between the numeric kinds they name, keeping the number of components", vc_convert_each) \
X("CORE.Dot", 4, VAL_OPCODE, OPC(Dot), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.13 OpDot", \
  "the Result Type is a floating-point scalar; Vector 1 and Vector 2 are vectors of one type whose component type is the Result Type", vc_dot) \
X("CORE.Bit-Field", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.14 OpBitFieldInsert, OpBitFieldSExtract, OpBitFieldUExtract", \
  "the Result Type is an integer scalar or vector; Base (and Insert) are of the Result Type; Offset and Count are integer scalars", vc_bit_field_each) \
X("CORE.Group-Boolean", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.24 OpGroupNonUniformElect, OpGroupNonUniformAll, OpGroupNonUniformAny, OpGroupNonUniformAllEqual", \
  "the Result Type is a Boolean scalar; All's and Any's Predicate is a Boolean scalar; AllEqual's Value a scalar or vector of integers, floats or Booleans", vc_group_bool_each) \
X("CORE.Group-Ballot", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.24 OpGroupNonUniformBallot, OpGroupNonUniformInverseBallot, OpGroupNonUniformBallotBitExtract, OpGroupNonUniformBallotBitCount, OpGroupNonUniformBallotFindLSB, OpGroupNonUniformBallotFindMSB", \
  "the ballot (Ballot's Result Type, the others' Value) is a vector of four 32-bit unsigned integers; Ballot's Predicate is a Boolean scalar; InverseBallot's and BallotBitExtract's Result Type a Boolean scalar, BallotBitCount's an unsigned integer scalar, BallotFindLSB's and BallotFindMSB's an integer scalar; Index is an integer scalar", vc_group_ballot_each) \
X("CORE.Group-Value", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.24 OpGroupNonUniformBroadcast, BroadcastFirst, Shuffle, ShuffleXor, ShuffleUp, ShuffleDown, QuadBroadcast, QuadSwap, RotateKHR and the arithmetic instructions", \
  "the Result Type is a scalar or vector of integers, floats or Booleans (the arithmetic ones: of the class the opcode names) and Value is of the Result Type; Id, Mask, Delta, Index, Direction and ClusterSize are integer scalars", vc_group_value_each) \
X("CORE.Bit-Count", 4, VAL_OPCODE, OPC(BitCount), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.14 OpBitCount", \
  "the Result Type and Base are integer scalars or vectors with one number of components (the widths may differ)", vc_bit_count) \
X("CORE.Extended-Arith", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.13 OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended", \
  "the Result Type is an OpTypeStruct of two members of one integer scalar or vector type (unsigned but for OpSMulExtended, as spirv-val checks); Operand 1 and Operand 2 are of that member type", vc_extended_arith_each) \
X("CORE.Quantize-To-F16", 4, VAL_OPCODE, OPC(QuantizeToF16), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.11 OpQuantizeToF16", \
  "the Result Type is a scalar or vector of 32-bit floats; Value is of the Result Type", vc_quantize_to_f16) \
X("CORE.Matrix-Times-Scalar", 4, VAL_OPCODE, OPC(MatrixTimesScalar), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.13 OpMatrixTimesScalar", \
  "the Result Type is a floating-point OpTypeMatrix; Matrix is of the Result Type and Scalar of its component type (the cooperative forms are the KHR-CM/NV-CM1 rows')", vc_matrix_times_scalar) \
X("CORE.Function", 4, VAL_OPCODE, OPC(Function), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.9 OpFunction, OpFunctionParameter", \
  "Function Type is an OpTypeFunction whose return type is the Result Type and whose parameters the OpFunctionParameters match", vc_function) \
X("CORE.Function-Call", 4, VAL_OPCODE, OPC(FunctionCall), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.9 OpFunctionCall", \
  "Function is an OpFunction; the Result Type is its return type; the arguments match its parameters", vc_function_call) \
X("CORE.Return", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.17 OpReturn, OpReturnValue", \
  "OpReturn in void functions only; OpReturnValue's value has the function's return type", vc_return_each) \
X("CORE.Branch-Condition", 4, VAL_OPCODE, OPC(BranchConditional), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.17 OpBranchConditional", \
  "Condition is a boolean scalar", vc_branch_condition) \
X("CORE.Switch-Selector", 4, VAL_OPCODE, OPC(Switch), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.17 OpSwitch", \
  "Selector is an integer scalar", vc_switch_selector) \
X("CORE.Phi", 4, VAL_OPCODE, OPC(Phi), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.17 OpPhi", \
  "each value has the Result Type; the parents are the block's predecessors, each once", vc_phi) \
X("CORE.Entry-Point", 4, VAL_OPCODE, OPC(EntryPoint), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.5 OpEntryPoint", \
  "Entry Point is an OpFunction returning void with no parameters; Interface operands are variables", vc_entry_point) \
X("CORE.Execution-Mode", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.5 OpExecutionMode, OpExecutionModeId", \
  "Entry Point is the function of an OpEntryPoint", vc_execution_mode_each) \
X("CORE.Ext-Inst", 4, VAL_OPCODE, OPC(ExtInst), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "3.42.4 OpExtInst; GLSL.std.450", \
  "Set is an OpExtInstImport; a GLSL.std.450 instruction exists and has its number of operands", vc_ext_inst) \
X("CORE.GLSL-Types", 4, VAL_OPCODE, OPC(ExtInst), VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "GLSL.std.450 (version 1.00 rev 9), per instruction", \
  "element-wise float instructions: the Result Type is a floating-point scalar or vector and every operand is of it; integer ones (SAbs...FindUMsb): integer scalars or vectors of the Result Type's width and count (signedness may differ); Length/Distance: a float scalar, the component type of x; Normalize/Cross (3 components)/FaceForward/Reflect/Refract: operands of the Result Type, eta a float scalar; Determinant: the component type of a square matrix; MatrixInverse: a square matrix of x's type; ModfStruct/FrexpStruct: a struct of two members, x's type and x's type (Modf) or an integer of x's count (Frexp)", vc_glsl_types) \
X("CORE.Capability-Instruction", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.16.1 Universal Validation Rules; 3 Binary Form (Capability columns)", \
  "an instruction that needs capabilities has one of them declared (directly or implicitly)", vc_capability_instruction) \
X("CORE.Capability-Operand", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CORE, "2.16.1 Universal Validation Rules; 3 Binary Form (Enabling Capabilities)", \
  "an enumerant operand that needs capabilities has one of them declared (the texts' Enabling Capabilities columns, e.g. TensorView, DecodeFunc, DecodeVectorFunc)", vc_capability_operand) \
/* ---- dependencies of the texts: versions, OpExtension, required extensions; the extension a module uses comes before the ones it requires ---- */ \
/* an error, unlike the other Dependencies rows: spirv-val refuses the extension below SPIR-V 1.3 too */ \
X("QCOM-CMC.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "Dependencies", \
  "this extension requires SPIR-V 1.3", qcom_version) \
/* an error, unlike the other Dependencies: CooperativeMatrixConversionQCOM declares CooperativeMatrixKHR, whose OpExtension KHR-CM.Extension requires anyway */ \
X("QCOM-CMC.Requires-KHR", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "Dependencies", \
  "this extension requires SPV_KHR_cooperative_matrix", qcom_requires_khr) \
X("QCOM-CMC.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "Extension Name; Validation Rules", \
  "OpExtension \"SPV_QCOM_cooperative_matrix_conversion\" is present when CooperativeMatrixConversionQCOM is declared", qcom_extension) \
X("NV-DV.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_DV, "Dependencies", \
  "this extension requires SPIR-V 1.6", dv_version) \
X("NV-DV.Requires-NV2", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_DV, "Dependencies", \
  "this extension requires SPV_NV_cooperative_matrix2", dv_requires_nv2) \
X("NV-DV.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_DV, "Extension Name", \
  "OpExtension \"SPV_NV_cooperative_matrix_decode_vector\" is present when CooperativeMatrixDecodeVectorNV is declared", dv_extension) \
X("NV-CM2.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_NV2, "Dependencies", \
  "this extension requires SPIR-V 1.6", nv2_version) \
X("NV-CM2.Requires-KHR", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_NV2, "Dependencies", \
  "this extension requires SPV_KHR_cooperative_matrix", nv2_requires_khr) \
X("NV-CM2.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "Extension Name", \
  "OpExtension \"SPV_NV_cooperative_matrix2\" is present when its capabilities are declared", nv2_extension) \
X("NV-CM2.Requires-Tensor-Addressing", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_NV2, "Dependencies", \
  "if CooperativeMatrixTensorAddressingNV is used, SPV_NV_tensor_addressing is required", nv2_tensor_addressing_ext) \
X("NV-TA.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_TA, "Dependencies", \
  "this extension requires SPIR-V 1.6", ta_version) \
X("NV-TA.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_TA, "Extension Name", \
  "OpExtension \"SPV_NV_tensor_addressing\" is present when TensorAddressingNV is declared", ta_extension) \
X("NV-CV.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_CV, "Dependencies", \
  "this extension requires SPIR-V 1.6", cv_version) \
X("NV-CV.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "Extension Name", \
  "OpExtension \"SPV_NV_cooperative_vector\" is present when its capabilities are declared", cv_extension) \
X("NV-CV.Vulkan-Memory-Model", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "2.16.2 Validation Rules for Shader Capabilities", \
  "if the CooperativeVectorNV capability is declared (with Shader), VulkanMemoryModel is declared as well", cv_vulkan_memory_model) \
X("KHR-CM.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_KHR, "Dependencies", \
  "this extension requires SPIR-V 1.3", khr_version) \
X("KHR-CM.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "Extension Name", \
  "OpExtension \"SPV_KHR_cooperative_matrix\" is present when OpCapability CooperativeMatrixKHR is declared (BFloat16CooperativeMatrixKHR and Float8CooperativeMatrixEXT declaring it implicitly fall under their own extensions)", khr_extension) \
X("KHR-CM.Vulkan-Memory-Model", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "2.16.2 Validation Rules for Shader Capabilities; Dependencies", \
  "if OpCapability CooperativeMatrixKHR is declared (with Shader), VulkanMemoryModel is declared as well (not for an implicit declaration, as KHR-CM.Extension)", khr_vulkan_memory_model) \
X("NV-CM1.Version", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_WARNING, SRC_NV1, "Dependencies", \
  "this extension requires SPIR-V 1.3", nv1_version) \
X("NV-CM1.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "Extension Name", \
  "OpExtension \"SPV_NV_cooperative_matrix\" is present when CooperativeMatrixNV is declared", nv1_extension) \
/* ---- SPV_KHR_bfloat16 and SPV_EXT_float8 (their texts are not in shared/specs: the rules as GL_EXT_bfloat16, GL_EXT_float8_e5m2_e4m3 and spirv-val state them) ---- */ \
X("BF16.Matrix-Capability", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_BF16, "Capabilities (BFloat16CooperativeMatrixKHR)", \
  "a cooperative matrix type whose Component Type is a BFloat16KHR float needs the BFloat16CooperativeMatrixKHR capability", bf16_matrix_capability) \
X("FP8.Matrix-Capability", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_FP8, "Capabilities (Float8CooperativeMatrixEXT)", \
  "a cooperative matrix type whose Component Type is a Float8E4M3EXT or Float8E5M2EXT float needs the Float8CooperativeMatrixEXT capability", fp8_matrix_capability) \
X("BF16.Arith", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_BF16, "Validation Rules; GL_EXT_bfloat16 5.9 (\"Arithmetic operators are not supported on bfloat16_t, or vectors of that type, or cooperative matrices of that type\")", \
  "the floating-point arithmetic instructions (OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod, Op*Times*, OpOuterProduct) take no bfloat16 scalar, vector, matrix or cooperative matrix", bf16_arith) \
X("FP8.Arith", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_FP8, "Validation Rules; GL_EXT_float8_e5m2_e4m3 5.9", \
  "the floating-point arithmetic instructions (OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod, Op*Times*, OpOuterProduct) take no Float8E4M3EXT or Float8E5M2EXT scalar, vector, matrix or cooperative matrix", fp8_arith) \
/* ---- SPV_KHR_cooperative_matrix ---- */ \
X("KHR-CM.Scope-Constant", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "2.16.2 Validation Rules for Shader Capabilities (as modified)", \
  "every Scope <id> is the result of a constant instruction (of a 32-bit integer type)", khr_scope_constant) \
X("KHR-CM.Semantics-Constant", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "2.16.2 Validation Rules for Shader Capabilities (as modified)", \
  "every Memory Semantics <id> is an OpConstant (of a 32-bit integer type); with CooperativeMatrixNV, any constant instruction (SPV_NV_cooperative_matrix 2.16.2)", khr_semantics_constant) \
X("KHR-CM.Variable-Storage", 4, VAL_OPCODE, OPC(Variable), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "2.16.1 Universal Validation Rules", \
  "cooperative matrix types (or types containing them) are allocated in the Function or Private storage classes only", khr_variable_storage) \
/* a warning although the text is explicit: the Vulkan CTS (op_constant_null) sets the flags on float matrices, NVIDIA's driver runs them, spirv-val does not check it, and for a float the flag has no meaning to run by */ \
X("KHR-CM.Signed-Components", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_WARNING, SRC_KHR, "2.16.1 Universal Validation Rules", \
  "Matrix{A,B,C,Result}SignedComponentsKHR are used only when the corresponding matrix's component type is an integer type", khr_signed_components) \
X("KHR-CM.Length-Result", 4, VAL_OPCODE, OPC(CooperativeMatrixLengthKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.1 OpCooperativeMatrixLengthKHR", \
  "Result Type is an OpTypeInt with 32-bit Width and 0 Signedness", khr_length_result) \
X("KHR-CM.Length-Type", 4, VAL_OPCODE, OPC(CooperativeMatrixLengthKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.1 OpCooperativeMatrixLengthKHR", \
  "Type is a cooperative matrix type", khr_length_type) \
X("KHR-CM.Type-Component", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.6 OpTypeCooperativeMatrixKHR", \
  "Component Type is a scalar numerical type", khr_type_component) \
X("KHR-CM.Type-Scope", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.6 OpTypeCooperativeMatrixKHR", \
  "Scope is a constant instruction with scalar 32-bit integer type", khr_type_scope) \
X("KHR-CM.Type-Rows", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.6 OpTypeCooperativeMatrixKHR", \
  "Rows is a constant instruction with scalar 32-bit integer type", khr_type_rows) \
X("KHR-CM.Type-Columns", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.6 OpTypeCooperativeMatrixKHR", \
  "Columns is a constant instruction with scalar 32-bit integer type", khr_type_columns) \
X("KHR-CM.Type-Use", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.6 OpTypeCooperativeMatrixKHR", \
  "Use is a constant instruction with scalar 32-bit integer type whose value is a Cooperative Matrix Use", khr_type_use) \
X("KHR-CM.Constant-Composite", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.7 Constant-Creation Instructions", \
  "an OpConstantComposite (or OpSpecConstantComposite) of a cooperative matrix type has one Constituent, of the Component Type", khr_constant_composite_each) \
X("KHR-CM.Composite-Construct", 4, VAL_OPCODE, OPC(CompositeConstruct), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.12 Composite Instructions", \
  "an OpCompositeConstruct of a cooperative matrix type has one Constituent, of the Component Type", khr_composite_construct) \
X("KHR-CM.Load-Result", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixLoadKHR", \
  "Result Type is a cooperative matrix type", khr_load_result) \
X("KHR-CM.Load-Pointer", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixLoadKHR", \
  "Pointer's type is an OpTypePointer whose Type is a scalar or vector type", khr_ls_pointer) \
X("KHR-CM.Load-Pointer-Array", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixLoadKHR", \
  "with the Shader capability, Pointer points into an array", khr_ls_pointer_array) \
X("KHR-CM.Load-Layout", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixLoadKHR", \
  "MemoryLayout comes from a 32-bit integer constant instruction whose value is a Cooperative Matrix Layout", khr_ls_layout) \
X("KHR-CM.Load-Stride-Type", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixLoadKHR", \
  "Stride is a scalar integer type", khr_ls_stride_type) \
X("KHR-CM.Load-Stride-Required", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.X Cooperative Matrix Layout", \
  "RowMajorKHR and ColumnMajorKHR need the Stride operand", khr_ls_stride_required) \
X("KHR-CM.Load-Stride-Value", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.X Cooperative Matrix Layout", \
  "Stride is greater than or equal to 0 for a load", khr_ls_stride_value) \
X("ARM-CML.Load-Stride", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_ARM, "2.16.1 Universal Validation Rules", \
  "with RowBlockedInterleavedARM or ColumnBlockedInterleavedARM, Stride is present, comes from a constant instruction and is 1, 2 or 4", arm_ls_stride) \
X("ARM-CML.Load-Shape", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_ARM, "2.16.1 Universal Validation Rules", \
  "RowBlockedInterleavedARM: Rows a multiple of 4, Columns of 16 / sizeof(Component Type) x Stride; ColumnBlockedInterleavedARM: Rows a multiple of 4 x Stride, Columns of 16 / sizeof(Component Type)", arm_ls_shape) \
X("KHR-CM.Load-Make-Available", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.26 Memory Operands", \
  "MakePointerAvailable is not valid with OpCooperativeMatrixLoadKHR", khr_load_make_available) \
X("KHR-CM.Store-Object", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixStoreKHR", \
  "Object's type is an OpTypeCooperativeMatrixKHR", khr_store_object) \
X("KHR-CM.Store-Pointer", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixStoreKHR", \
  "Pointer's type is an OpTypePointer whose Type is a scalar or vector type", khr_ls_pointer) \
X("KHR-CM.Store-Pointer-Array", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixStoreKHR", \
  "with the Shader capability, Pointer points into an array", khr_ls_pointer_array) \
X("KHR-CM.Store-Layout", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixStoreKHR", \
  "MemoryLayout comes from a 32-bit integer constant instruction whose value is a Cooperative Matrix Layout", khr_ls_layout) \
X("KHR-CM.Store-Stride-Type", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8 OpCooperativeMatrixStoreKHR", \
  "Stride is a scalar integer type", khr_ls_stride_type) \
X("KHR-CM.Store-Stride-Required", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.X Cooperative Matrix Layout", \
  "RowMajorKHR and ColumnMajorKHR need the Stride operand", khr_ls_stride_required) \
X("KHR-CM.Store-Stride-Value", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.X Cooperative Matrix Layout", \
  "Stride is greater than 0 for a store", khr_ls_stride_value) \
X("ARM-CML.Store-Stride", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_ARM, "2.16.1 Universal Validation Rules", \
  "with RowBlockedInterleavedARM or ColumnBlockedInterleavedARM, Stride is present, comes from a constant instruction and is 1, 2 or 4", arm_ls_stride) \
X("ARM-CML.Store-Shape", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_ARM, "2.16.1 Universal Validation Rules", \
  "RowBlockedInterleavedARM: Rows a multiple of 4, Columns of 16 / sizeof(Component Type) x Stride; ColumnBlockedInterleavedARM: Rows a multiple of 4 x Stride, Columns of 16 / sizeof(Component Type)", arm_ls_shape) \
X("KHR-CM.Store-Make-Visible", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.26 Memory Operands", \
  "MakePointerVisible is not valid with OpCooperativeMatrixStoreKHR", khr_store_make_visible) \
X("KHR-CM.Convert-Shape", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.11 Conversion Instructions; SPV_NV_cooperative_matrix2 3.49.11", \
  "conversions and OpBitcast of cooperative matrices keep Scope, Rows, Columns and Use (with CooperativeMatrixConversionsNV, an accumulator may become MatrixA or MatrixB, except through OpBitcast)", khr_convert_shape) \
X("KHR-CM.Convert-Component", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.11 Conversion Instructions", \
  "the component types suit the conversion; OpBitcast only between integer component types of one Width", khr_convert_component) \
X("KHR-CM.MulAdd-Result", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 OpCooperativeMatrixMulAddKHR", \
  "Result Type is a cooperative matrix type whose Use is MatrixAccumulatorKHR", khr_muladd_result) \
X("KHR-CM.MulAdd-A", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 OpCooperativeMatrixMulAddKHR", \
  "A is a cooperative matrix whose Use is MatrixAKHR", khr_muladd_a) \
X("KHR-CM.MulAdd-B", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 OpCooperativeMatrixMulAddKHR", \
  "B is a cooperative matrix whose Use is MatrixBKHR", khr_muladd_b) \
X("KHR-CM.MulAdd-C", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 OpCooperativeMatrixMulAddKHR", \
  "C is a cooperative matrix whose Use is MatrixAccumulatorKHR", khr_muladd_c) \
X("KHR-CM.MulAdd-Shape", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 OpCooperativeMatrixMulAddKHR", \
  "M, N and K are consistent: A is MxK, B KxN, C and Result MxN", khr_muladd_shape) \
X("KHR-CM.MulAdd-Scope", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 OpCooperativeMatrixMulAddKHR", \
  "A, B, C and Result Type have the same scope", khr_muladd_scope) \
X("KHR-CM.Arith-Allowed", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.11, 3.42.13 (the instructions allowed on cooperative matrices)", \
  "arithmetic, bit, relational and conversion instructions take cooperative matrices only where the text allows it (negate, add, subtract, multiply, divide, OpMatrixTimesScalar, the conversions)", khr_arith_allowed) \
X("KHR-CM.Arith-Component", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 Arithmetic Instructions", \
  "OpF* take cooperative matrices of floating-point components, OpI*/OpS*/OpU* of integer components", khr_arith_component) \
X("KHR-CM.Arith-Types", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 Arithmetic Instructions", \
  "the cooperative matrices of a unary or binary arithmetic instruction and its result have one type", khr_arith_types) \
X("KHR-CM.Matrix-Times-Scalar", 4, VAL_OPCODE, OPC(MatrixTimesScalar), VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.13 (OpMatrixTimesScalar allowed)", \
  "OpMatrixTimesScalar of a cooperative matrix: the Result Type is Matrix's type and Scalar its Component Type", khr_matrix_times_scalar) \
X("KHR-CM.Uniform-Operands", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.8, 3.42.11, 3.42.13 (All the operands ... dynamically uniform)", \
  "run time, checked by the engine: the Pointer, MemoryLayout and Stride of OpCooperativeMatrixLoadKHR / StoreKHR and the Scalar of OpMatrixTimesScalar are the same in every active invocation of the Scope instance (CVM_ERROR_DIVERGENT_COLLECTIVE naming both invocations and values; the other instructions take only matrices and constants)", val_listed) \
X("KHR-CM.Scope-Active", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_KHR, "3.42.6 OpTypeCooperativeMatrixKHR", \
  "run time, checked by the engine: an instruction with a cooperative matrix operand or result runs with all invocations of the Scope instance active or none (CVM_ERROR_DIVERGENT_COLLECTIVE)", val_listed) \
/* ---- NonSemantic.Shader.DebugInfo: the debug types of cooperative matrices and vectors ---- */ \
X("DI.Version-101", 4, VAL_OPCODE, OPC(ExtInst), VAL_ENV_ANY, VAL_ERROR, SRC_DI, "Version 101 Extension", \
  "DebugTypeVectorIdEXT (109) and DebugTypeCooperativeMatrixKHR (110) are used only with the set imported as NonSemantic.Shader.DebugInfo.101 or later", di_version_101) \
X("DI.CoopMatrix-Component", 4, VAL_OPCODE, OPC(ExtInst), VAL_ENV_ANY, VAL_ERROR, SRC_DI, "DebugTypeCooperativeMatrixKHR", \
  "Component Type is a debugging instruction that describes the type of element in the matrix: a DebugTypeBasic (or DebugInfoNone in place of a removed one)", di_coop_matrix_component) \
X("DI.CoopMatrix-Operands", 4, VAL_OPCODE, OPC(ExtInst), VAL_ENV_ANY, VAL_ERROR, SRC_DI, "DebugTypeCooperativeMatrixKHR", \
  "Scope, Rows, Columns and Use are constant instructions with scalar integer type (OpSpecConstant included)", di_coop_matrix_operands) \
/* ---- SPV_NV_cooperative_matrix (version 1; the engine runs it, exec/lower.c) ---- */ \
X("NV-CM1.Type-Component", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.6 OpTypeCooperativeMatrixNV", \
  "Component Type is a scalar numerical type", nv1_type_component) \
X("NV-CM1.Type-Rows", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.6 OpTypeCooperativeMatrixNV", \
  "Rows is a constant instruction with scalar integer type", nv1_type_rows) \
X("NV-CM1.Type-Columns", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.6 OpTypeCooperativeMatrixNV", \
  "Columns is a constant instruction with scalar integer type", nv1_type_columns) \
X("NV-CM1.Variable-Storage", 4, VAL_OPCODE, OPC(Variable), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "2.16.1 Universal Validation Rules", \
  "cooperative matrix types (or types containing them) are allocated only in the Function or Private storage classes", nv1_variable_storage) \
X("NV-CM1.Length-Result", 4, VAL_OPCODE, OPC(CooperativeMatrixLengthNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.8 OpCooperativeMatrixLengthNV", \
  "Result Type is OpTypeInt with 32-bit Width and 0 Signedness", khr_length_result) \
X("NV-CM1.Length-Type", 4, VAL_OPCODE, OPC(CooperativeMatrixLengthNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.8 OpCooperativeMatrixLengthNV", \
  "Type is a cooperative matrix type (OpTypeCooperativeMatrixNV)", nv1_length_type) \
X("NV-CM1.Load-Make-Available", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.26 Memory Access", \
  "MakePointerAvailable is not valid with OpCooperativeMatrixLoadNV", nv1_load_make_available) \
X("NV-CM1.Store-Make-Visible", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.26 Memory Access", \
  "MakePointerVisible is not valid with OpCooperativeMatrixStoreNV", nv1_store_make_visible) \
X("NV-CM1.Composite", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.7 OpConstantComposite, 3.32.12 OpCompositeConstruct", \
  "a cooperative matrix is constructed from exactly one Constituent, a scalar of its Component Type", nv1_composite) \
X("NV-CM1.Convert-Shape", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.11 Conversion Instructions", \
  "a conversion of a cooperative matrix has a cooperative matrix result of the same scope, number of rows and number of columns", nv1_convert_shape) \
X("NV-CM1.MulAdd-Types", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.13 OpCooperativeMatrixMulAddNV", \
  "Result Type, A, B and C are cooperative matrices", nv1_muladd_types) \
X("NV-CM1.MulAdd-Shape", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.13 OpCooperativeMatrixMulAddNV", \
  "M, N and K are consistent: A is MxK, B KxN, C and Result Type MxN", nv1_muladd_shape) \
X("NV-CM1.MulAdd-Scope", 4, VAL_OPCODE, OPC(CooperativeMatrixMulAddNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.13 OpCooperativeMatrixMulAddNV", \
  "A, B, C and Result Type have the same scope", nv1_muladd_scope) \
X("NV-CM1.Arith-Allowed", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.13 Arithmetic Instructions, 3.32.11", \
  "arithmetic, bit, relational and conversion instructions take cooperative matrices only where the text allows it: OpSNegate, OpFNegate, OpIAdd, OpFAdd, OpISub, OpFSub, OpFDiv, OpSDiv, OpUDiv, OpMatrixTimesScalar, the conversions and OpBitcast (glslang emits it for a change of signedness; not OpFMul, OpIMul)", nv1_arith_allowed) \
X("NV-CM1.Arith-Types", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.13 Arithmetic Instructions", \
  "the cooperative matrices of an allowed unary or binary arithmetic instruction and its result have one type", nv1_arith_types) \
X("NV-CM1.Matrix-Times-Scalar", 4, VAL_OPCODE, OPC(MatrixTimesScalar), VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.13 (OpMatrixTimesScalar allowed)", \
  "OpMatrixTimesScalar of a cooperative matrix: the Result Type is Matrix's type and Scalar its Component Type", nv1_matrix_times_scalar) \
X("NV-CM1.Uniform-Operands", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV1, "3.32.8 OpCooperativeMatrixLoadNV, OpCooperativeMatrixStoreNV", \
  "run time, checked by the engine: the Pointer, Stride and Column Major operands of OpCooperativeMatrixLoadNV / StoreNV are the same in every active invocation of the Scope instance (CVM_ERROR_DIVERGENT_COLLECTIVE)", val_listed) \
/* ---- SPV_NV_cooperative_matrix2 ---- */ \
X("NV-CM2.Workgroup-Size", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "2.16.1 Universal Validation Rules", \
  "a Workgroup-scope cooperative matrix type comes after the workgroup size is specified, including the constants LocalSizeId uses", nv2_workgroup_size) \
X("NV-CM2.Callback-Tangled", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "2.16.1 Universal Validation Rules; 2.2 Terms (tangled instructions)", \
  "functions used as DecodeFunc, Func or CombineFunc, and the functions they call, contain no tangled instructions", nv2_callback_tangled) \
X("NV-CM2.Load-Result", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixLoadTensorNV", \
  "Result Type is a cooperative matrix type", nv2_load_result) \
X("NV-CM2.Load-Object", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixLoadTensorNV", \
  "Object has the same type as Result Type", nv2_load_object) \
X("NV-CM2.Load-Pointer-Array", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixLoadTensorNV", \
  "Pointer is a pointer; with the Shader capability it points into an array", nv2_tensor_pointer_array) \
X("NV-CM2.Load-Layout", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixLoadTensorNV", \
  "TensorLayout is a tensor layout", nv2_tensor_layout_operand) \
X("NV-CM2.Load-View", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Addressing Operands (TensorView)", \
  "the TensorView operand is a tensor view", nv2_tensor_view_operand) \
X("NV-CM2.Load-Make-Available", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.26 Memory Operands", \
  "MakePointerAvailable is not valid with OpCooperativeMatrixLoadTensorNV", nv2_load_make_available) \
X("NV-CM2.Decode-Storage", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixLoadTensorNV", \
  "with DecodeFunc, Pointer points to the PhysicalStorageBuffer or StorageBuffer storage class", nv2_decode_storage) \
X("NV-CM2.Decode-Function", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Addressing Operands (DecodeFunc)", \
  "the DecodeFunc operand is the <id> of a function", nv2_decode_function) \
X("NV-CM2.Decode-Return", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Layout and View", \
  "the decode function's return type is the component type of the result matrix type", nv2_decode_return) \
X("NV-CM2.Decode-Params", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Layout and View", \
  "the decode function takes a PhysicalStorageBuffer pointer, then two arrays of 32-bit integers whose dimension is the tensor dimension", nv2_decode_params) \
X("NV-CM2.Store-Object", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixStoreTensorNV", \
  "Object's type is an OpTypeCooperativeMatrixKHR", nv2_store_object) \
X("NV-CM2.Store-Pointer-Array", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixStoreTensorNV", \
  "Pointer is a pointer; with the Shader capability it points into an array", nv2_tensor_pointer_array) \
X("NV-CM2.Store-Layout", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 OpCooperativeMatrixStoreTensorNV", \
  "TensorLayout is a tensor layout", nv2_tensor_layout_operand) \
X("NV-CM2.Store-View", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Addressing Operands (TensorView)", \
  "the TensorView operand is a tensor view", nv2_tensor_view_operand) \
X("NV-CM2.Store-Make-Visible", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.26 Memory Operands", \
  "MakePointerVisible is not valid with OpCooperativeMatrixStoreTensorNV", nv2_store_make_visible) \
X("NV-CM2.Store-No-Decode", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Layout and View", \
  "DecodeFunc is not allowed with OpCooperativeMatrixStoreTensorNV", nv2_store_no_decode) \
X("NV-CM2.Store-Block-Size", 4, VAL_OPCODE, OPC(CooperativeMatrixStoreTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Layout and View", \
  "a block size larger than 1 is not used with OpCooperativeMatrixStoreTensorNV (checked where the layout's block sizes are known constants)", nv2_store_block_size) \
X("NV-CM2.Reduce-Types", 4, VAL_OPCODE, OPC(CooperativeMatrixReduceNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.13 OpCooperativeMatrixReduceNV", \
  "Result Type and the type of Matrix are OpTypeCooperativeMatrixKHR with the same Component Type", nv2_reduce_types) \
X("NV-CM2.Reduce-Use", 4, VAL_OPCODE, OPC(CooperativeMatrixReduceNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.13 OpCooperativeMatrixReduceNV", \
  "Matrix and Result Type each have Use MatrixAccumulatorKHR", nv2_reduce_use) \
X("NV-CM2.Reduce-Scope", 4, VAL_OPCODE, OPC(CooperativeMatrixReduceNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.13 OpCooperativeMatrixReduceNV", \
  "Matrix and Result Type have matching Scope", nv2_reduce_scope) \
X("NV-CM2.Reduce-Mode", 4, VAL_OPCODE, OPC(CooperativeMatrixReduceNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Cooperative Matrix Reduce Mode", \
  "Reduce has Row, Column or 2x2, and 2x2 is not combined with Row or Column", nv2_reduce_mode) \
X("NV-CM2.Reduce-Dims", 4, VAL_OPCODE, OPC(CooperativeMatrixReduceNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.13 OpCooperativeMatrixReduceNV", \
  "2x2: the result's dimensions are half of Matrix's; Row: the same number of rows; Column: the same number of columns", nv2_reduce_dims) \
X("NV-CM2.Reduce-Combine", 4, VAL_OPCODE, OPC(CooperativeMatrixReduceNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.13 OpCooperativeMatrixReduceNV", \
  "CombineFunc is an OpFunction with two parameters whose types and result type are Matrix's component type", nv2_reduce_combine) \
X("NV-CM2.Convert-Types", 4, VAL_OPCODE, OPC(CooperativeMatrixConvertNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.11 OpCooperativeMatrixConvertNV", \
  "Result Type and Matrix's type are cooperative matrix types with the same Component Type (integer types of one width may differ in Signedness, as spirv-val and drivers take it), Scope, Rows and Columns", nv2_convert_types) \
X("NV-CM2.Convert-Use", 4, VAL_OPCODE, OPC(CooperativeMatrixConvertNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.11 OpCooperativeMatrixConvertNV", \
  "the Use of Result Type is MatrixAKHR or MatrixBKHR, that of Matrix MatrixAccumulatorKHR (with maintenance1's conversions, one of them MatrixAccumulatorKHR); the two Uses are not the same <id>", nv2_convert_use) \
X("NV-CM2.Transpose-Types", 4, VAL_OPCODE, OPC(CooperativeMatrixTransposeNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.11 OpCooperativeMatrixTransposeNV", \
  "Result Type and Matrix's type are cooperative matrix types with the same Scope and Rows and Columns swapped", nv2_transpose_types) \
X("NV-CM2.Transpose-Use", 4, VAL_OPCODE, OPC(CooperativeMatrixTransposeNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.11 OpCooperativeMatrixTransposeNV", \
  "the Use of Result Type is MatrixBKHR, that of Matrix MatrixAccumulatorKHR (not the same <id>)", nv2_transpose_use) \
X("M1.Extension", 4, VAL_MODULE, 0, VAL_ENV_ANY, VAL_ERROR, SRC_M1, "Extension Name", \
  "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\" is present when CooperativeMatrixConversionsEXT or CooperativeMatrixGetCoordinateEXT is declared", m1_extension) \
X("M1.GetCoordinate-Result", 4, VAL_OPCODE, OPC(CooperativeMatrixGetCoordinateEXT), VAL_ENV_ANY, VAL_ERROR, SRC_M1, "3.49.1 OpCooperativeMatrixGetCoordinateEXT", \
  "Result Type is a vector type with two 32-bit integer components", m1_coord_result) \
X("M1.GetCoordinate-Matrix", 4, VAL_OPCODE, OPC(CooperativeMatrixGetCoordinateEXT), VAL_ENV_ANY, VAL_ERROR, SRC_M1, "3.49.1 OpCooperativeMatrixGetCoordinateEXT", \
  "Matrix has an OpTypeCooperativeMatrixKHR type", m1_coord_matrix) \
X("M1.GetCoordinate-Index", 4, VAL_OPCODE, OPC(CooperativeMatrixGetCoordinateEXT), VAL_ENV_ANY, VAL_ERROR, SRC_M1, "3.49.1 OpCooperativeMatrixGetCoordinateEXT", \
  "Index has a 32-bit integer type", m1_coord_index) \
X("M1.Transpose-Target", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_ANY, VAL_ERROR, SRC_M1, "3.2.19 Decoration; 3.49.11 Conversion Instructions", \
  "CooperativeMatrixTransposeEXT decorates the result of a conversion instruction (Op{F,S,U}Convert, OpConvert*, OpCooperativeMatrixConvertUseEXT) of a cooperative matrix", m1_transpose_target) \
X("NV-CM2.PerElement-Types", 4, VAL_OPCODE, OPC(CooperativeMatrixPerElementOpNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.9 OpCooperativeMatrixPerElementOpNV", \
  "Matrix is a cooperative matrix and Result Type its type", nv2_per_element_types) \
X("NV-CM2.PerElement-Func", 4, VAL_OPCODE, OPC(CooperativeMatrixPerElementOpNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.9 OpCooperativeMatrixPerElementOpNV", \
  "Func is an OpFunction returning the component type, taking two 32-bit integers, the component type, and one parameter per extra operand", nv2_per_element_func) \
X("NV-CM2.PerElement-Operands", 4, VAL_OPCODE, OPC(CooperativeMatrixPerElementOpNV), VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.9 OpCooperativeMatrixPerElementOpNV", \
  "extra operands have their parameter's type; extra cooperative matrices have Matrix's type and a component type matching their parameter", nv2_per_element_operands) \
X("NV-CM2.Uniform-Operands", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.49.8 (All the operands ... dynamically uniform)", \
  "run time, checked by the engine: the Pointer, TensorLayout and TensorView of OpCooperativeMatrixLoadTensorNV / StoreTensorNV are the same in every active invocation of the Scope instance (CVM_ERROR_DIVERGENT_COLLECTIVE)", val_listed) \
X("NV-CM2.Pointer-Alignment", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_NV2, "3.X Tensor Layout and View", \
  "run time, checked by the engine in its checking mode (CVM_FLAG_CHECK_CALLBACKS; CVM_ERROR_INVALID_MODULE): the Pointer of a tensor load or store is a multiple of 16 bytes. Not by default: ggml's mul_mm_cm2 and the Vulkan CTS's shared-memory tensor layouts break it and run on NVIDIA's driver", val_listed) \
/* ---- SPV_NV_tensor_addressing ---- */ \
X("NV-TA.Layout-Dim", 4, VAL_OPCODE, OPC(TypeTensorLayoutNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.49.6 OpTypeTensorLayoutNV", \
  "Dim is a constant instruction with scalar 32-bit integer type, greater than 0 and at most 5", ta_layout_dim) \
X("NV-TA.Layout-Clamp-Mode", 4, VAL_OPCODE, OPC(TypeTensorLayoutNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.49.6 OpTypeTensorLayoutNV", \
  "ClampMode is a constant instruction with scalar 32-bit integer type whose value is a Tensor Clamp Mode", ta_layout_clamp_mode) \
X("NV-TA.View-Dim", 4, VAL_OPCODE, OPC(TypeTensorViewNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.49.6 OpTypeTensorViewNV", \
  "Dim is a constant instruction with scalar 32-bit integer type, greater than 0 and at most 5", ta_view_dim) \
X("NV-TA.View-Has-Dimensions", 4, VAL_OPCODE, OPC(TypeTensorViewNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.49.6 OpTypeTensorViewNV", \
  "HasDimensions is a constant instruction with scalar boolean type", ta_view_has_dimensions) \
X("NV-TA.View-Permutation", 4, VAL_OPCODE, OPC(TypeTensorViewNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.49.6 OpTypeTensorViewNV", \
  "p0..p<Dim-1> are Dim constant instructions with scalar 32-bit integer type forming a permutation of [0, Dim)", ta_view_permutation) \
X("NV-TA.Create-Layout", 4, VAL_OPCODE, OPC(CreateTensorLayoutNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X OpCreateTensorLayoutNV", \
  "Result Type is OpTypeTensorLayoutNV", ta_create_layout) \
X("NV-TA.Create-View", 4, VAL_OPCODE, OPC(CreateTensorViewNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X OpCreateTensorViewNV", \
  "Result Type is OpTypeTensorViewNV", ta_create_view) \
X("NV-TA.Operand-Type", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X Tensor Layout and View Instructions", \
  "the type of the TensorLayout (TensorView) operand is the Result Type, a tensor layout (view) type", ta_operand_type) \
X("NV-TA.Operand-Count", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X Tensor Layout and View Instructions", \
  "the number of BlockSize, Dim, Stride (and Offset and Span) operands matches the dimension of the Result Type", ta_operand_count) \
X("NV-TA.Operand-Int32", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X Tensor Layout and View Instructions", \
  "BlockSize, Dim, Stride, Offset, Span, Value and Clip operands are each a scalar 32-bit integer type", ta_operand_int32) \
X("NV-TA.Set-Stride-Order", 4, VAL_OPCODE, OPC(TensorLayoutSetStrideNV), VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X OpTensorLayoutSetStrideNV", \
  "Stride<i> is at least Stride<i+1> * ceiling(layoutDimension[i+1] / blockSize[i+1]) (checked where those are known constants)", ta_set_stride_order) \
X("NV-TA.Slice-Stride", 4, VAL_LISTED, 0, VAL_ENV_ANY, VAL_ERROR, SRC_TA, "3.X OpTensorLayoutSliceNV", \
  "not checked, a text erratum: 'Stride<i> must be at least Stride<i+1> times layoutDimension[i+1]' names Stride operands OpTensorLayoutSliceNV does not have; read as the layout's strides it would reject the blocked layouts of the corpus (decode_q4_gemm), so it is taken as a copy of SetStride's sentence", val_listed) \
/* ---- SPV_NV_cooperative_matrix_decode_vector ---- */ \
X("NV-DV.Needs-DecodeFunc", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_DV, "3.49.8 Memory Instructions", \
  "with DecodeVectorFunc, DecodeFunc is also present in the same Tensor Addressing Operands", dv_needs_decode_func) \
X("NV-DV.Function", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_DV, "3.49.8.1 Tensor Addressing Operands", \
  "DecodeVectorFunc is the <id> of an OpFunction whose return type is a vector", dv_function) \
X("NV-DV.Return", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_DV, "3.49.8 Memory Instructions", \
  "DecodeVectorFunc's Result Type is a vector of the Component Type of Result Type with 2, 4 or 8 components", dv_return) \
X("NV-DV.Params", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_ANY, VAL_ERROR, SRC_DV, "3.49.8 Memory Instructions", \
  "DecodeVectorFunc takes the parameters DecodeFunc takes: a PhysicalStorageBuffer pointer, then two arrays of 32-bit integers of the tensor layout's dimension", dv_params) \
X("NV-DV.Same-Results", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_DV, "3.49.8 Memory Instructions", \
  "run time, checked by the engine in its checking mode (CVM_FLAG_CHECK_CALLBACKS: repeated calls and both decoders compared, CVM_ERROR_CALLBACK_MISMATCH): calls of the decode functions with the same operands return the same value", val_listed) \
X("VUID-OpCooperativeMatrixLoadTensorNV-12429", 4, VAL_OPCODE, OPC(CooperativeMatrixLoadTensorNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-OpCooperativeMatrixLoadTensorNV-12429 (the decode-vector text: undefined behaviour)", \
  "with DecodeVectorFunc, the innermost block size is a multiple of the number of components DecodeVectorFunc returns (checked where the block size is a known constant)", dv_block_multiple) \
/* ---- SPV_QCOM_cooperative_matrix_conversion ---- */ \
X("QCOM-CMC.BitCast-Result", 4, VAL_OPCODE, OPC(BitCastArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.11 OpBitCastArrayQCOM", \
  "Result Type is a one-dimensional array of 32-bit integers or of 32/16-bit floats of the default IEEE 754 encoding", qcom_bitcast_result) \
X("QCOM-CMC.BitCast-Source", 4, VAL_OPCODE, OPC(BitCastArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.11 OpBitCastArrayQCOM", \
  "Source Array is a one-dimensional array of 32-bit integers or of 32/16-bit IEEE floats", qcom_bitcast_source) \
X("QCOM-CMC.BitCast-Size", 4, VAL_OPCODE, OPC(BitCastArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.11 OpBitCastArrayQCOM", \
  "the size of Result Type equals the size of Source Array's type", qcom_bitcast_size) \
X("QCOM-CMC.Construct-Result", 4, VAL_OPCODE, OPC(CompositeConstructCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeConstructCoopMatQCOM", \
  "Result Type is a cooperative matrix type whose Scope is Subgroup", qcom_construct_result) \
X("QCOM-CMC.Construct-Source", 4, VAL_OPCODE, OPC(CompositeConstructCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeConstructCoopMatQCOM", \
  "Source Array is a one-dimensional array whose Element Type is the Result Type's Component Type or an unsigned 32-bit integer", qcom_construct_source) \
X("QCOM-CMC.Construct-AB", 4, VAL_OPCODE, OPC(CompositeConstructCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeConstructCoopMatQCOM (MatrixAKHR, MatrixBKHR)", \
  "a MatrixA (MatrixB) result has 8-bit integer or 32/16-bit IEEE float components and Columns (Rows) 8, 16, 32, 32 for f32, f16, s8, u8", qcom_construct_ab) \
X("QCOM-CMC.Construct-Acc", 4, VAL_OPCODE, OPC(CompositeConstructCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeConstructCoopMatQCOM (MatrixAccumulatorKHR)", \
  "an accumulator result has 32-bit integer or 32/16-bit IEEE float components", qcom_construct_acc) \
X("QCOM-CMC.Construct-Length", 4, VAL_OPCODE, OPC(CompositeConstructCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeConstructCoopMatQCOM", \
  "Source Array's Length is 8 for a uint32 array (A, B), Columns/2 or Columns for a uint32 array (accumulator of f16 or f32), else Columns (A, accumulator) or Rows (B)", qcom_construct_length) \
X("QCOM-CMC.Extract-Types", 4, VAL_OPCODE, OPC(CompositeExtractCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeExtractCoopMatQCOM", \
  "Result Type is an OpTypeArray and Source CoopMat a cooperative matrix", qcom_extract_types) \
X("QCOM-CMC.Extract-AB", 4, VAL_OPCODE, OPC(CompositeExtractCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeExtractCoopMatQCOM (MatrixAKHR, MatrixBKHR)", \
  "a MatrixA (MatrixB) source has 8-bit integer or 32/16-bit IEEE float components and Columns (Rows) 8, 16, 32, 32 for f32, f16, s8, u8", qcom_extract_ab) \
X("QCOM-CMC.Extract-Acc", 4, VAL_OPCODE, OPC(CompositeExtractCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeExtractCoopMatQCOM (MatrixAccumulatorKHR)", \
  "an accumulator source has 32-bit integer or 32/16-bit IEEE float components", qcom_extract_acc) \
X("QCOM-CMC.Extract-Result", 4, VAL_OPCODE, OPC(CompositeExtractCoopMatQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeExtractCoopMatQCOM", \
  "Result Type's Element Type is the Component Type with Length Columns (A, accumulator) or Rows (B), or an unsigned 32-bit integer with Length 8 (A, B), Columns (f32 or 32-bit integer accumulator) or Columns/2 (f16 accumulator)", qcom_extract_result) \
X("QCOM-CMC.SubArray-Result", 4, VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpExtractSubArrayQCOM", \
  "Result Type is a one-dimensional array whose element type is Source Array's", qcom_subarray_result) \
X("QCOM-CMC.SubArray-Source", 4, VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpExtractSubArrayQCOM", \
  "Source Array is a one-dimensional array of 32-bit integers or of 32/16-bit IEEE floats", qcom_subarray_source) \
X("QCOM-CMC.SubArray-Index", 4, VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpExtractSubArrayQCOM", \
  "Start Index is a 32-bit integer, read as signed (Signedness 0, 'no signedness semantics', is accepted: glslang emits it)", qcom_subarray_index) \
X("QCOM-CMC.SubArray-Bounds", 4, VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpExtractSubArrayQCOM", \
  "Start Index + the Result Type's Length is not greater than Source Array's Length (checked for constant Start Index)", qcom_subarray_bounds) \
X("QCOM-CMC.Subgroup-Size", 4, VAL_DEVICE | VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpCompositeConstructCoopMatQCOM, OpCompositeExtractCoopMatQCOM", \
  "device: SubgroupSize is a power of 2, and the matrix of OpCompositeConstructCoopMatQCOM / OpCompositeExtractCoopMatQCOM has Rows (MatrixA, accumulator) a supported row size (an MSize of the device's VkCooperativeMatrixPropertiesKHR) and Columns (MatrixB, accumulator) a supported column size (an NSize), each at most SubgroupSize (the description's subgroup_size)", dev_qcom_subgroup_size) \
X("QCOM-CMC.SubArray-K", 4, VAL_DEVICE | VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_ANY, VAL_ERROR, SRC_QCOM, "3.56.12 OpExtractSubArrayQCOM", \
  "device: a Start Index whose result is used for cooperative matrix operations is a multiple of a supported K (a KSize of the device); checked for a constant Start Index whose result is an operand of OpCompositeConstructCoopMatQCOM", dev_qcom_subarray_k) \
X("VUID-OpExtractSubArrayQCOM-12354", 4, VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-OpExtractSubArrayQCOM-12354", \
  "Start Index is a multiple of the length of the Result Type (checked for constant Start Index)", qcom_subarray_multiple) \
/* ---- SPV_NV_cooperative_vector ---- */ \
X("NV-CV.Variable-Storage", 4, VAL_OPCODE, OPC(Variable), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "2.16.1 Universal Validation Rules", \
  "cooperative vector types (or types containing them) are allocated in the Function or Private storage classes only", cv_variable_storage) \
X("NV-CV.Type-Component", 4, VAL_OPCODE, OPC(TypeCooperativeVectorNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.6 OpTypeCooperativeVectorNV", \
  "Component Type is a scalar numerical type", cv_type_component) \
X("NV-CV.Type-Count", 4, VAL_OPCODE, OPC(TypeCooperativeVectorNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.6 OpTypeCooperativeVectorNV; 2.2 Terms", \
  "Component Count is a constant instruction with scalar 32-bit integer type (and, as the term says, one or more)", cv_type_count) \
X("NV-CV.Load-Result", 4, VAL_OPCODE, OPC(CooperativeVectorLoadNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorLoadNV", \
  "Result Type is a cooperative vector type", cv_load_result) \
X("NV-CV.Load-Pointer", 4, VAL_OPCODE, OPC(CooperativeVectorLoadNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorLoadNV", \
  "Pointer's type is an OpTypePointer to an array of scalars or vectors", cv_ls_pointer) \
X("NV-CV.Load-Storage", 4, VAL_OPCODE, OPC(CooperativeVectorLoadNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorLoadNV", \
  "Pointer's storage class is CrossWorkgroup, Workgroup, StorageBuffer or PhysicalStorageBuffer", cv_ls_storage) \
X("NV-CV.Load-Offset", 4, VAL_OPCODE, OPC(CooperativeVectorLoadNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorLoadNV", \
  "Offset is a 32- or 64-bit integer (SPV_EXT_shader_64bit_indexing's wording, which needs no declaration in the module: Vulkan enables 64-bit offsets by a pipeline flag too)", cv_ls_offset) \
X("NV-CV.Load-Make-Available", 4, VAL_OPCODE, OPC(CooperativeVectorLoadNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.26 Memory Operands", \
  "MakePointerAvailable is not valid with OpCooperativeVectorLoadNV", cv_load_make_available) \
X("NV-CV.Store-Object", 4, VAL_OPCODE, OPC(CooperativeVectorStoreNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorStoreNV", \
  "Object's type is an OpTypeCooperativeVectorNV", cv_store_object) \
X("NV-CV.Store-Pointer", 4, VAL_OPCODE, OPC(CooperativeVectorStoreNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorStoreNV", \
  "Pointer's type is an OpTypePointer to an array of scalars or vectors", cv_ls_pointer) \
X("NV-CV.Store-Storage", 4, VAL_OPCODE, OPC(CooperativeVectorStoreNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorStoreNV", \
  "Pointer's storage class is CrossWorkgroup, Workgroup, StorageBuffer or PhysicalStorageBuffer", cv_ls_storage) \
X("NV-CV.Store-Offset", 4, VAL_OPCODE, OPC(CooperativeVectorStoreNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.8 OpCooperativeVectorStoreNV", \
  "Offset is a 32- or 64-bit integer (SPV_EXT_shader_64bit_indexing's wording, which needs no declaration in the module: Vulkan enables 64-bit offsets by a pipeline flag too)", cv_ls_offset) \
X("NV-CV.Store-Make-Visible", 4, VAL_OPCODE, OPC(CooperativeVectorStoreNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.26 Memory Operands", \
  "MakePointerVisible is not valid with OpCooperativeVectorStoreNV", cv_store_make_visible) \
X("NV-CV.Vector-Shuffle", 4, VAL_OPCODE, OPC(VectorShuffle), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "2.2 Terms (Composite)", \
  "cooperative vectors are not operands of OpVectorShuffle", cv_vector_shuffle) \
X("NV-CV.Convert", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.11 Conversion Instructions", \
  "conversions of cooperative vectors keep the Component Count and suit the component types; OpBitcast keeps the number of components and the bits per component", cv_convert) \
X("NV-CV.Arith-Allowed", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.11, 3.42.13, 3.42.14 (the instructions allowed on cooperative vectors)", \
  "arithmetic, bit, relational and conversion instructions take cooperative vectors only where the text allows it", cv_arith_allowed) \
X("NV-CV.Arith-Component", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.13 Arithmetic Instructions", \
  "OpF* take cooperative vectors of floating-point components, OpI*/OpS*/OpU* of integer components", cv_arith_component) \
X("NV-CV.Arith-Types", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.13 Arithmetic Instructions", \
  "the cooperative vectors of a binary arithmetic instruction and its result have one type", cv_arith_types) \
X("NV-CV.Vector-Times-Scalar", 4, VAL_OPCODE, OPC(VectorTimesScalar), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.13 Arithmetic Instructions", \
  "OpVectorTimesScalar takes floating-point cooperative vectors, with Scalar of the component type", cv_vector_times_scalar) \
X("NV-CV.GLSL", 4, VAL_OPCODE, OPC(ExtInst), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.13 Arithmetic Instructions (GLSL.std.450)", \
  "of GLSL.std.450 only FMin, UMin, SMin, NMin, FMax, UMax, SMax, NMax, FClamp, UClamp, SClamp, NClamp, Step, Exp, Log, Tanh, Atan and Fma take cooperative vectors, of suitable component types", cv_glsl) \
X("NV-CV.MatMul-Result", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "Result Type is a cooperative vector type whose component type is a 32-bit integer or a 16- or 32-bit float", cv_mm_result_each) \
X("NV-CV.MatMul-M", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "the number of components of Result Type equals M", cv_mm_result_count_each) \
X("NV-CV.MatMul-Input", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "Input is a cooperative vector", cv_mm_input_each) \
X("NV-CV.MatMul-K", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "Input has K components when InputInterpretation is not Packed; when it is, Input's components are uint32 and hold K packed values", cv_mm_input_size_each) \
X("NV-CV.MatMul-Matrix", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "Matrix is a pointer to an array of scalars in the CrossWorkgroup, StorageBuffer or PhysicalStorageBuffer storage class", cv_mm_matrix_each) \
X("NV-CV.MatMul-Bias", 4, VAL_OPCODE, OPC(CooperativeVectorMatrixMulAddNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "Bias is a pointer to an array of scalars in the CrossWorkgroup, StorageBuffer or PhysicalStorageBuffer storage class", cv_mm_bias) \
X("NV-CV.MatMul-Offsets", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "MatrixOffset and BiasOffset are 32- or 64-bit integers (SPV_EXT_shader_64bit_indexing's wording, which needs no declaration in the module: Vulkan enables 64-bit offsets by a pipeline flag too)", cv_mm_offsets_each) \
X("NV-CV.MatMul-Interpretations", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "InputInterpretation, MatrixInterpretation and BiasInterpretation are 32-bit integer constant instructions whose values are Component Types (SPIR-V's, or those the client API adds: Vulkan's VkComponentTypeKHR)", cv_mm_interpretations_each) \
X("NV-CV.MatMul-Dims", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "M and K are 32-bit integer constant instructions", cv_mm_dims_each) \
X("NV-CV.MatMul-Layout", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "MemoryLayout comes from a 32-bit integer constant instruction whose value is a Cooperative Vector Matrix Layout", cv_mm_layout_each) \
X("NV-CV.MatMul-Transpose", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "Transpose is a constant instruction with scalar boolean type", cv_mm_transpose_each) \
X("NV-CV.MatMul-Transpose-Layout", 4, VAL_EACH, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "transposing is not supported for the RowMajorNV and ColumnMajorNV layouts", cv_mm_transpose_layout_each) \
X("NV-CV.Outer-Types", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorOuterProductAccumulateNV", \
  "A and B have cooperative vector types with the same Component Type", cv_outer_types) \
X("NV-CV.Outer-Pointer", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorOuterProductAccumulateNV", \
  "Pointer is a pointer to an array of scalars or vectors in the Workgroup, CrossWorkgroup, StorageBuffer or PhysicalStorageBuffer storage class", cv_outer_pointer) \
X("NV-CV.Outer-Offset", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorOuterProductAccumulateNV", \
  "Offset is a 32- or 64-bit integer (SPV_EXT_shader_64bit_indexing's wording, which needs no declaration in the module: Vulkan enables 64-bit offsets by a pipeline flag too)", cv_outer_offset) \
X("NV-CV.Outer-Layout", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorOuterProductAccumulateNV", \
  "MemoryLayout comes from a 32-bit integer constant instruction whose value is a Cooperative Vector Matrix Layout", cv_outer_layout) \
X("NV-CV.Outer-Interpretation", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorOuterProductAccumulateNV", \
  "MatrixInterpretation is a 32-bit integer", cv_outer_interpretation) \
X("NV-CV.Outer-Stride", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorOuterProductAccumulateNV", \
  "MatrixStride is a scalar 32-bit integer", cv_outer_stride) \
X("NV-CV.Reduce-V", 4, VAL_OPCODE, OPC(CooperativeVectorReduceSumAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorReduceSumAccumulateNV", \
  "V has a cooperative vector type", cv_reduce_vector) \
X("NV-CV.Reduce-Pointer", 4, VAL_OPCODE, OPC(CooperativeVectorReduceSumAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorReduceSumAccumulateNV", \
  "Pointer is a pointer to an array of scalars or vectors in the Workgroup, CrossWorkgroup, StorageBuffer or PhysicalStorageBuffer storage class", cv_reduce_pointer) \
X("NV-CV.Reduce-Offset", 4, VAL_OPCODE, OPC(CooperativeVectorReduceSumAccumulateNV), VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorReduceSumAccumulateNV", \
  "Offset is a 32- or 64-bit integer (SPV_EXT_shader_64bit_indexing's wording, which needs no declaration in the module: Vulkan enables 64-bit offsets by a pipeline flag too)", cv_reduce_offset) \
X("NV-CV.Matrix-Unmodified", 4, VAL_RUNTIME, 0, VAL_ENV_ANY, VAL_ERROR, SRC_CV, "3.42.X OpCooperativeVectorMatrixMulAddNV", \
  "run time, checked by the engine in its checking mode (CVM_FLAG_CHECK_CALLBACKS; CVM_ERROR_INVALID_MODULE naming the byte): the matrix and bias bytes a MatMul reads are not changed by the dispatch", val_listed) \
/* ---- Vulkan environment (spirvenv_cooperative_vuids.adoc) ---- */ \
X("VUID-StandaloneSpirv-Scope-12243", 4, VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-StandaloneSpirv-Scope-12243", \
  "the Scope of OpTypeCooperativeMatrixKHR is Workgroup or Subgroup", vk_cm_scope) \
X("VUID-StandaloneSpirv-Pointer-08973", 4, VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-StandaloneSpirv-Pointer-08973", \
  "the storage class of Pointer of OpCooperativeMatrixLoadKHR / StoreKHR is Workgroup, StorageBuffer or PhysicalStorageBuffer", vk_cm_pointer_storage_each) \
X("VUID-StandaloneSpirv-None-12295", 4, VAL_OPCODE, OPC(TypeVector), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-StandaloneSpirv-None-12295", \
  "without LongVectorEXT, a vector type has 2 to 4 components", vk_vector_size) \
X("VUID-StandaloneSpirv-UniformConstant-04655", 4, VAL_OPCODE, OPC(Variable), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-StandaloneSpirv-UniformConstant-04655", \
  "a UniformConstant variable is an image, sampler, sampled image, acceleration structure or tensor, or an array of these", vk_uniform_constant) \
X("VUID-GlobalInvocationId-GlobalInvocationId-04238", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "GlobalInvocationId", \
  "the variable decorated BuiltIn GlobalInvocationId is a three-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_gid) \
X("VUID-LocalInvocationId-LocalInvocationId-04283", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "LocalInvocationId", \
  "the variable decorated BuiltIn LocalInvocationId is a three-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_lid) \
X("VUID-LocalInvocationIndex-LocalInvocationIndex-04286", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "LocalInvocationIndex", \
  "the variable decorated BuiltIn LocalInvocationIndex is a scalar 32-bit integer (the engine writes that many bytes there)", vk_builtin_lindex) \
X("VUID-NumWorkgroups-NumWorkgroups-04298", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "NumWorkgroups", \
  "the variable decorated BuiltIn NumWorkgroups is a three-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_nwg) \
X("VUID-WorkgroupId-WorkgroupId-04424", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "WorkgroupId", \
  "the variable decorated BuiltIn WorkgroupId is a three-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_wgid) \
X("VUID-WorkgroupSize-WorkgroupSize-04427", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "WorkgroupSize", \
  "the constant decorated BuiltIn WorkgroupSize is a three-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_wgsize) \
X("VUID-SubgroupId-SubgroupId-04369", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupId", \
  "the variable decorated BuiltIn SubgroupId is a scalar 32-bit integer (the engine writes that many bytes there)", vk_builtin_sgid) \
X("VUID-NumSubgroups-NumSubgroups-04295", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "NumSubgroups", \
  "the variable decorated BuiltIn NumSubgroups is a scalar 32-bit integer (the engine writes that many bytes there)", vk_builtin_nsg) \
X("VUID-SubgroupLocalInvocationId-SubgroupLocalInvocationId-04381", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupLocalInvocationId", \
  "the variable decorated BuiltIn SubgroupLocalInvocationId is a scalar 32-bit integer (the engine writes that many bytes there)", vk_builtin_sglid) \
X("VUID-SubgroupSize-SubgroupSize-04383", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupSize", \
  "the variable decorated BuiltIn SubgroupSize is a scalar 32-bit integer (the engine writes that many bytes there)", vk_builtin_sgsize) \
X("VUID-SubgroupEqMask-SubgroupEqMask-04371", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupEqMask", \
  "the variable decorated BuiltIn SubgroupEqMask is a four-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_eqmask) \
X("VUID-SubgroupGeMask-SubgroupGeMask-04373", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupGeMask", \
  "the variable decorated BuiltIn SubgroupGeMask is a four-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_gemask) \
X("VUID-SubgroupGtMask-SubgroupGtMask-04375", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupGtMask", \
  "the variable decorated BuiltIn SubgroupGtMask is a four-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_gtmask) \
X("VUID-SubgroupLeMask-SubgroupLeMask-04377", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupLeMask", \
  "the variable decorated BuiltIn SubgroupLeMask is a four-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_lemask) \
X("VUID-SubgroupLtMask-SubgroupLtMask-04379", 4, VAL_OPCODE, OPC(Decorate), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK_BI, "SubgroupLtMask", \
  "the variable decorated BuiltIn SubgroupLtMask is a four-component vector of 32-bit integers (the engine writes that many bytes there)", vk_builtin_ltmask) \
X("VUID-StandaloneSpirv-OpTypeImage-06924", 4, VAL_OPCODE, OPC(Store), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-StandaloneSpirv-OpTypeImage-06924", \
  "images, samplers, sampled images, acceleration structures, tensors and arrays of these are not stored to", vk_opaque_store) \
X("VUID-OpUndef-12464", 4, VAL_OPCODE, OPC(Undef), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-OpUndef-12464", \
  "OpUndef's Result Type is not an image, sampler, sampled image, acceleration structure or tensor", vk_undef_opaque) \
X("VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986", 4, VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986", \
  "the Stride of OpCooperativeMatrixLoadKHR / StoreKHR (in bytes) is a multiple of the lesser of 16 and the row (column) size of the matrix (checked for constant Stride and layout; Pointer alignment is a run-time value)", vk_cm_stride_alignment_each) \
X("VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090", 4, VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090", \
  "an E4M3 or E5M2 MatrixInterpretation uses the InferencingOptimalNV or TrainingOptimalNV layout", vk_cv_fp8_layout_each) \
X("VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10092", 4, VAL_OPCODE, OPC(CooperativeVectorReduceSumAccumulateNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10092", \
  "V's components are 16- or 32-bit floats and the pointer is StorageBuffer or PhysicalStorageBuffer (the accumulation limits are the device's)", vk_cv_reduce_sum) \
X("VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093", \
  "MatrixInterpretation is Float16 or Float32, A and B are 16-bit floats, the layout is training-optimal, the pointer StorageBuffer or PhysicalStorageBuffer", vk_cv_outer_product) \
X("VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10096", 4, VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10096", \
  "with a non-optimal layout, MatrixStride is a multiple of 16 (checked for constants)", vk_cv_stride_alignment_each) \
X("VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10097", 4, VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10097", \
  "MatrixOffset is a multiple of 64 (checked for constants; Matrix's alignment is a run-time value)", vk_cv_matrix_offset_alignment_each) \
X("VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulAddNV-10098", 4, VAL_OPCODE, OPC(CooperativeVectorMatrixMulAddNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulAddNV-10098", \
  "BiasOffset is a multiple of 16 (checked for constants)", vk_cv_bias_offset_alignment) \
X("VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-10099", 4, VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-10099", \
  "the Offset of OpCooperativeVectorLoadNV / StoreNV is a multiple of 16 (checked for constants)", vk_cv_ls_offset_alignment_each) \
X("VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10100", 4, VAL_OPCODE, OPC(CooperativeVectorReduceSumAccumulateNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10100", \
  "Offset is a multiple of 16 (checked for constants)", vk_cv_reduce_offset_alignment) \
X("VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10101", 4, VAL_OPCODE, OPC(CooperativeVectorOuterProductAccumulateNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10101", \
  "Offset is a multiple of 64 (checked for constants)", vk_cv_outer_offset_alignment) \
X("VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulAddNV-11808", 4, VAL_DEVICE | VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulAddNV-11808", \
  "pipeline flag: MatrixOffset and BiasOffset are 32-bit integers unless the pipeline has VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT (VK_SHADER_CREATE_64_BIT_INDEXING_BIT_EXT) or the entry point Shader64BitIndexingEXT", dev_cv_matmul_offsets_32) \
X("VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-11809", 4, VAL_DEVICE | VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorLoadNV-11809", \
  "pipeline flag: the Offset of OpCooperativeVectorLoadNV, StoreNV, OuterProductAccumulateNV and ReduceSumAccumulateNV is a 32-bit integer unless the pipeline has VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT (VK_SHADER_CREATE_64_BIT_INDEXING_BIT_EXT) or the entry point Shader64BitIndexingEXT", dev_cv_offsets_32) \
X("VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163", \
  "device property: without the cooperativeMatrixFlexibleDimensions and cooperativeMatrixProperties2 features, the component type, scope, rows and columns match a VkCooperativeMatrixPropertiesKHR (MatrixA: MSize x KSize of AType; MatrixB: KSize x NSize of BType; accumulator: MSize x NSize of CType or ResultType)", dev_cm_type) \
X("VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060", 4, VAL_DEVICE | VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060", \
  "device property: without the cooperativeMatrixFlexibleDimensions and cooperativeMatrixProperties2 features, the operands match one VkCooperativeMatrixPropertiesKHR: sizes, types, the Matrix*SignedComponents operands if and only if the type is a signed integer, SaturatingAccumulation if and only if saturatingAccumulation, and the scope", dev_cm_muladd) \
X("VUID-NSize-12352", 4, VAL_DEVICE | VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-NSize-12352", \
  "device property: OpExtractSubArrayQCOM's Source Array length is an NSize of the device's VkCooperativeMatrixPropertiesKHR", dev_qcom_nsize) \
X("VUID-KSize-12353", 4, VAL_DEVICE | VAL_OPCODE, OPC(ExtractSubArrayQCOM), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-KSize-12353", \
  "device property: OpExtractSubArrayQCOM's Result Type length is a KSize of the device's VkCooperativeMatrixPropertiesKHR", dev_qcom_ksize) \
X("VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-10164", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-10164", \
  "device feature: a Workgroup-scope OpTypeCooperativeMatrixKHR needs the cooperativeMatrixWorkgroupScope feature enabled", dev_cm_workgroup_scope) \
X("VUID-cooperativeMatrixProperties2-13382", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-cooperativeMatrixProperties2-13382", \
  "device property: with the cooperativeMatrixProperties2 feature, the type matches a VkCooperativeMatrixPropertiesKHR or a VkCooperativeMatrixProperties2EXT of its scope, the workgroup's invocations and the subgroup size: dimensions multiples of the granularities (equal to them without cooperativeMatrixFlexibleDimensions), the type AType, BType, CType or ResultType by Use", dev_cm_type_props2) \
X("VUID-cooperativeMatrixProperties2-13383", 4, VAL_DEVICE | VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-cooperativeMatrixProperties2-13383", \
  "device property: with the cooperativeMatrixProperties2 feature, the MulAdd operands match a VkCooperativeMatrixPropertiesKHR or a VkCooperativeMatrixProperties2EXT (granularities, types, signedness operands, saturation as the query's flags, scope, invocations, subgroup size)", dev_cm_muladd_props2) \
X("VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10165", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10165", \
  "device property: with the cooperativeMatrixFlexibleDimensions feature, the type matches a VkCooperativeMatrixPropertiesKHR or a VkCooperativeMatrixFlexibleDimensionsPropertiesNV (dimensions multiples of the granularities, type by Use, scope, workgroupInvocations for Workgroup scope)", dev_cm_type_flexible) \
X("VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10166", 4, VAL_DEVICE | VAL_OPCODE, OPC(CooperativeMatrixMulAddKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10166", \
  "device property: with the cooperativeMatrixFlexibleDimensions feature, the MulAdd operands match a VkCooperativeMatrixPropertiesKHR or a VkCooperativeMatrixFlexibleDimensionsPropertiesNV (granularities, types, signedness operands, saturatingAccumulation, scope, workgroupInvocations)", dev_cm_muladd_flexible) \
X("VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensionsMaxDimension-10167", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeMatrixKHR), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensionsMaxDimension-10167", \
  "device limit: the rows and columns of OpTypeCooperativeMatrixKHR are at most cooperativeMatrixFlexibleDimensionsMaxDimension", dev_cm_max_dimension) \
X("VUID-RuntimeSpirv-maxComputeSharedMemorySize-10168", 4, VAL_DEVICE | VAL_MODULE, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-maxComputeSharedMemorySize-10168", \
  "device limit: with a Workgroup-scope OpTypeCooperativeMatrixKHR, the Workgroup variables of a GLCompute entry point take at most maxComputeSharedMemorySize minus cooperativeMatrixWorkgroupScopeReservedSharedMemory bytes (scalars and vectors at their natural alignment)", dev_cm_shared_memory) \
X("VUID-RuntimeSpirv-cooperativeMatrixSupportedStages-08985", 4, VAL_DEVICE | VAL_MODULE, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-cooperativeMatrixSupportedStages-08985", \
  "device property: OpTypeCooperativeMatrixKHR and OpCooperativeMatrix* instructions are used only in stages of cooperativeMatrixSupportedStages (the execution model of each entry point that reaches them)", dev_cm_stages) \
X("VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10770", 4, VAL_DEVICE | VAL_MODULE, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10770", \
  "pipeline flag: a pipeline whose module has cooperative matrices is created with VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT, or the module is SPIR-V 1.6 or later", dev_cm_full_subgroups) \
X("VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10771", 4, VAL_DEVICE | VAL_MODULE, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10771", \
  "shader object flag: a shader object whose module has cooperative matrices is created with VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT, or the module is SPIR-V 1.6 or later", dev_cm_full_subgroups_object) \
X("VUID-OpCooperativeMatrix-12379", 4, VAL_RUNTIME, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-{refpage}-OpCooperativeMatrix-12379", \
  "run time, checked by the engine: a cooperative matrix load or store through a null descriptor (VK_NULL_HANDLE) is CVM_ERROR_OUT_OF_BOUNDS naming the VUID, in robust mode too", val_listed) \
X("VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089", 4, VAL_DEVICE | VAL_EACH, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089", \
  "device property: Input's component type, InputInterpretation, MatrixInterpretation, BiasInterpretation (MulAdd), the Result Type's component type and Transpose match one VkCooperativeVectorPropertiesNV (integer signedness from the MatrixB/ResultSignedComponentsKHR operands or the OpTypeInt)", dev_cv_matmul) \
X("VUID-RuntimeSpirv-cooperativeVectorSupportedStages-10091", 4, VAL_DEVICE | VAL_MODULE, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-cooperativeVectorSupportedStages-10091", \
  "device property: OpTypeCooperativeVectorNV and OpCooperativeVector* instructions are used only in stages of cooperativeVectorSupportedStages", dev_cv_stages) \
X("VUID-RuntimeSpirv-maxCooperativeVectorComponents-10094", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeVectorNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-maxCooperativeVectorComponents-10094", \
  "device limit: Component Count is at most maxCooperativeVectorComponents", dev_cv_max_components) \
X("VUID-RuntimeSpirv-OpTypeCooperativeVector-10095", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeVectorNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeVector-10095", \
  "device property: Component Type is a type vkGetPhysicalDeviceCooperativeVectorPropertiesNV reports (in any field of any entry)", dev_cv_component_type) \
X("VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819", 4, VAL_RUNTIME, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819", \
  "run time, checked by the driver and the engine: only buffers created with the shader-device-address usage have a device address; a PhysicalStorageBuffer access elsewhere is CVM_ERROR_OUT_OF_BOUNDS (\"in no buffer\")", val_listed) \
X("VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06316", 4, VAL_DEVICE | VAL_OPCODE, OPC(TypeCooperativeMatrixNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06316", \
  "device property: the component type, scope, rows and columns of OpTypeCooperativeMatrixNV match a matrix (A: MSize x KSize, B: KSize x NSize, C or D: MSize x NSize) of a VkCooperativeMatrixPropertiesNV", dev_nv_type) \
X("VUID-RuntimeSpirv-OpTypeCooperativeMatrixMulAddNV-10059", 4, VAL_DEVICE | VAL_OPCODE, OPC(CooperativeMatrixMulAddNV), VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeMatrixMulAddNV-10059", \
  "device property: OpCooperativeMatrixMulAddNV's A, B, C and Result match one VkCooperativeMatrixPropertiesNV (sizes, AType, BType, CType, DType with the OpTypeInt Signedness, Subgroup scope)", dev_nv_muladd) \
X("VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06322", 4, VAL_DEVICE | VAL_MODULE, 0, VAL_ENV_VULKAN, VAL_ERROR, SRC_VK, "VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06322", \
  "device property: OpTypeCooperativeMatrixNV and OpCooperativeMatrix*NV instructions are used only in stages of VkPhysicalDeviceCooperativeMatrixPropertiesNV::cooperativeMatrixSupportedStages", dev_nv_stages)
/* clang-format on */

#endif /* CVM_VALIDATE_RULES_H */
