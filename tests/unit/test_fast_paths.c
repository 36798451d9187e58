/* The engine's fast paths against its reference paths (CVM_FLAG_REFERENCE_PATHS):
 * the same module on the same random inputs must give the same buffers bit
 * for bit, the same status and the same message (an out-of-bounds access is
 * reported naming the same invocation and address), with and without
 * robust access, at subgroup sizes that leave a partial last subgroup.
 *
 * The inputs are drawn so that every shape of access the fast paths tell
 * apart occurs: consecutive lanes at consecutive addresses (block copies),
 * every lane at one address (a store's last lane wins), scattered
 * addresses, lanes out of bounds, and a divergent branch that leaves only
 * some lanes active. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm_run.h"

/* Per invocation g (GlobalInvocationId.x), with a = idx[g]:
 *   t = a (a Function variable)
 *   if a is even (a divergent branch):
 *       j = a >> 1:  dst[j] = src[j] + g;  k = a >> 3:  dst4[k] = src4[k] + g
 *       f = fsrc[j] * 0.5 + float(g);  fdst[j] = f < 8.0 ? -f : f
 *   out[g] = t + src[g]            (every lane)
 * Bindings: 0 idx, 1 src, 2 dst, 3 src4, 4 dst4, 5 out, 6 fsrc, 7 fdst. */
static const char shader_fmt[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %%main \"main\" %%gid %%idx %%src %%dst %%src4 %%dst4 %%out %%fsrc "
    "%%fdst\n"
    "OpExecutionMode %%main LocalSize %u 1 1\n"
    "OpDecorate %%gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpMemberDecorate %%sb 0 Offset 0\n"
    "OpDecorate %%sb Block\n"
    "OpDecorate %%rta4 ArrayStride 16\n"
    "OpMemberDecorate %%sb4 0 Offset 0\n"
    "OpDecorate %%sb4 Block\n"
    "OpDecorate %%rtaf ArrayStride 4\n"
    "OpMemberDecorate %%sbf 0 Offset 0\n"
    "OpDecorate %%sbf Block\n"
    "OpDecorate %%idx DescriptorSet 0\n"
    "OpDecorate %%idx Binding 0\n"
    "OpDecorate %%src DescriptorSet 0\n"
    "OpDecorate %%src Binding 1\n"
    "OpDecorate %%dst DescriptorSet 0\n"
    "OpDecorate %%dst Binding 2\n"
    "OpDecorate %%src4 DescriptorSet 0\n"
    "OpDecorate %%src4 Binding 3\n"
    "OpDecorate %%dst4 DescriptorSet 0\n"
    "OpDecorate %%dst4 Binding 4\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 5\n"
    "OpDecorate %%fsrc DescriptorSet 0\n"
    "OpDecorate %%fsrc Binding 6\n"
    "OpDecorate %%fdst DescriptorSet 0\n"
    "OpDecorate %%fdst Binding 7\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%float = OpTypeFloat 32\n"
    "%%bool = OpTypeBool\n"
    "%%v3 = OpTypeVector %%uint 3\n"
    "%%v4 = OpTypeVector %%uint 4\n"
    "%%rta = OpTypeRuntimeArray %%uint\n"
    "%%sb = OpTypeStruct %%rta\n"
    "%%rta4 = OpTypeRuntimeArray %%v4\n"
    "%%sb4 = OpTypeStruct %%rta4\n"
    "%%rtaf = OpTypeRuntimeArray %%float\n"
    "%%sbf = OpTypeStruct %%rtaf\n"
    "%%psb = OpTypePointer StorageBuffer %%sb\n"
    "%%psb4 = OpTypePointer StorageBuffer %%sb4\n"
    "%%psbf = OpTypePointer StorageBuffer %%sbf\n"
    "%%pu = OpTypePointer StorageBuffer %%uint\n"
    "%%pv4 = OpTypePointer StorageBuffer %%v4\n"
    "%%pf = OpTypePointer StorageBuffer %%float\n"
    "%%pin = OpTypePointer Input %%v3\n"
    "%%pinu = OpTypePointer Input %%uint\n"
    "%%pfu = OpTypePointer Function %%uint\n"
    "%%gid = OpVariable %%pin Input\n"
    "%%idx = OpVariable %%psb StorageBuffer\n"
    "%%src = OpVariable %%psb StorageBuffer\n"
    "%%dst = OpVariable %%psb StorageBuffer\n"
    "%%src4 = OpVariable %%psb4 StorageBuffer\n"
    "%%dst4 = OpVariable %%psb4 StorageBuffer\n"
    "%%out = OpVariable %%psb StorageBuffer\n"
    "%%fsrc = OpVariable %%psbf StorageBuffer\n"
    "%%fdst = OpVariable %%psbf StorageBuffer\n"
    "%%c0 = OpConstant %%uint 0\n"
    "%%c1 = OpConstant %%uint 1\n"
    "%%c3 = OpConstant %%uint 3\n"
    "%%half = OpConstant %%float 0.5\n"
    "%%eight = OpConstant %%float 8\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%t = OpVariable %%pfu Function\n"
    "%%gp = OpAccessChain %%pinu %%gid %%c0\n"
    "%%g = OpLoad %%uint %%gp\n"
    "%%ip = OpAccessChain %%pu %%idx %%c0 %%g\n"
    "%%a = OpLoad %%uint %%ip\n"
    "OpStore %%t %%a\n"
    "%%bit = OpBitwiseAnd %%uint %%a %%c1\n"
    "%%even = OpIEqual %%bool %%bit %%c0\n"
    "OpSelectionMerge %%merge None\n"
    "OpBranchConditional %%even %%then %%merge\n"
    "%%then = OpLabel\n"
    "%%j = OpShiftRightLogical %%uint %%a %%c1\n"
    "%%sp = OpAccessChain %%pu %%src %%c0 %%j\n"
    "%%x = OpLoad %%uint %%sp\n"
    "%%xg = OpIAdd %%uint %%x %%g\n"
    "%%dp = OpAccessChain %%pu %%dst %%c0 %%j\n"
    "OpStore %%dp %%xg\n"
    "%%k = OpShiftRightLogical %%uint %%a %%c3\n"
    "%%sp4 = OpAccessChain %%pv4 %%src4 %%c0 %%k\n"
    "%%w = OpLoad %%v4 %%sp4\n"
    "%%gv = OpCompositeConstruct %%v4 %%g %%g %%g %%g\n"
    "%%wg = OpIAdd %%v4 %%w %%gv\n"
    "%%dp4 = OpAccessChain %%pv4 %%dst4 %%c0 %%k\n"
    "OpStore %%dp4 %%wg\n"
    "%%fp = OpAccessChain %%pf %%fsrc %%c0 %%j\n"
    "%%fv = OpLoad %%float %%fp\n"
    "%%fh = OpFMul %%float %%fv %%half\n"
    "%%gf = OpConvertUToF %%float %%g\n"
    "%%f = OpFAdd %%float %%fh %%gf\n"
    "%%lt = OpFOrdLessThan %%bool %%f %%eight\n"
    "%%nf = OpFNegate %%float %%f\n"
    "%%sel = OpSelect %%float %%lt %%nf %%f\n"
    "%%fq = OpAccessChain %%pf %%fdst %%c0 %%j\n"
    "OpStore %%fq %%sel\n"
    "OpBranch %%merge\n"
    "%%merge = OpLabel\n"
    "%%tv = OpLoad %%uint %%t\n"
    "%%sg = OpAccessChain %%pu %%src %%c0 %%g\n"
    "%%y = OpLoad %%uint %%sg\n"
    "%%ty = OpIAdd %%uint %%tv %%y\n"
    "%%og = OpAccessChain %%pu %%out %%c0 %%g\n"
    "OpStore %%og %%ty\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* out[g * 20 + i] = r<i> */
#define STORE_AT(i)                                                                   \
    "%%k" #i " = OpIAdd %%uint %%base %%c" #i "\n"                                    \
    "%%o" #i " = OpAccessChain %%pu %%out %%c0 %%k" #i "\n"                            \
    "OpStore %%o" #i " %%r" #i "\n"

/* Arithmetic under divergence: per invocation g, with a = ia[g], b = ib[g],
 * x = fa[g], y = fb[g] (random bits, zero divisors, shifts past 31, NaNs),
 * in lanes where (a ^ g) & 3 is not 0 (a divergent branch), out[g * 20 + i] =
 * the i-th result below (16 and 17 fold in conversions between 8-, 16-,
 * 32- and 64-bit integers of both signednesses); other lanes leave out
 * alone.  Then a loop of
 * (b & 7) iterations, its last value at out[g * 20 + 19]. */
static const char arith_fmt[] =
    "OpCapability Shader\n"
    "OpCapability Int16\n"
    "OpCapability Int8\n"
    "OpCapability Int64\n"
    "OpCapability Float16\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %%main \"main\" %%gid %%ia %%ib %%fa %%fb %%out\n"
    "OpExecutionMode %%main LocalSize %u 1 1\n"
    "OpDecorate %%gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpMemberDecorate %%sb 0 Offset 0\n"
    "OpDecorate %%sb Block\n"
    "OpDecorate %%ia DescriptorSet 0\n"
    "OpDecorate %%ia Binding 0\n"
    "OpDecorate %%ib DescriptorSet 0\n"
    "OpDecorate %%ib Binding 1\n"
    "OpDecorate %%fa DescriptorSet 0\n"
    "OpDecorate %%fa Binding 2\n"
    "OpDecorate %%fb DescriptorSet 0\n"
    "OpDecorate %%fb Binding 3\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 4\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%int = OpTypeInt 32 1\n"
    "%%short = OpTypeInt 16 1\n"
    "%%ushort = OpTypeInt 16 0\n"
    "%%char = OpTypeInt 8 1\n"
    "%%uchar = OpTypeInt 8 0\n"
    "%%long = OpTypeInt 64 1\n"
    "%%ulong = OpTypeInt 64 0\n"
    "%%float = OpTypeFloat 32\n"
    "%%half = OpTypeFloat 16\n"
    "%%v4f = OpTypeVector %%float 4\n"
    "%%v4h = OpTypeVector %%half 4\n"
    "%%bool = OpTypeBool\n"
    "%%v3 = OpTypeVector %%uint 3\n"
    "%%rta = OpTypeRuntimeArray %%uint\n"
    "%%sb = OpTypeStruct %%rta\n"
    "%%psb = OpTypePointer StorageBuffer %%sb\n"
    "%%pu = OpTypePointer StorageBuffer %%uint\n"
    "%%pin = OpTypePointer Input %%v3\n"
    "%%pinu = OpTypePointer Input %%uint\n"
    "%%gid = OpVariable %%pin Input\n"
    "%%ia = OpVariable %%psb StorageBuffer\n"
    "%%ib = OpVariable %%psb StorageBuffer\n"
    "%%fa = OpVariable %%psb StorageBuffer\n"
    "%%fb = OpVariable %%psb StorageBuffer\n"
    "%%out = OpVariable %%psb StorageBuffer\n"
    "%%c0 = OpConstant %%uint 0\n"
    "%%c1 = OpConstant %%uint 1\n"
    "%%c3 = OpConstant %%uint 3\n"
    "%%c16 = OpConstant %%uint 16\n"
    "%%c17 = OpConstant %%uint 17\n"
    "%%c18 = OpConstant %%uint 18\n"
    "%%c19 = OpConstant %%uint 19\n"
    "%%c20 = OpConstant %%uint 20\n"
    "%%c2 = OpConstant %%uint 2\n"
    "%%c4 = OpConstant %%uint 4\n"
    "%%c6 = OpConstant %%uint 6\n"
    "%%c7 = OpConstant %%uint 7\n"
    "%%c8 = OpConstant %%uint 8\n"
    "%%c9 = OpConstant %%uint 9\n"
    "%%c10 = OpConstant %%uint 10\n"
    "%%c11 = OpConstant %%uint 11\n"
    "%%c12 = OpConstant %%uint 12\n"
    "%%c13 = OpConstant %%uint 13\n"
    "%%c14 = OpConstant %%uint 14\n"
    "%%c15 = OpConstant %%uint 15\n"
    "%%c5 = OpConstant %%uint 5\n"
    "%%c32 = OpConstant %%uint 32\n"
    "%%c64 = OpConstant %%uint 64\n"
    "%%fc = OpConstant %%float 0.75\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%entry = OpLabel\n"
    "%%gp = OpAccessChain %%pinu %%gid %%c0\n"
    "%%g = OpLoad %%uint %%gp\n"
    "%%pa = OpAccessChain %%pu %%ia %%c0 %%g\n"
    "%%a = OpLoad %%uint %%pa\n"
    "%%pb = OpAccessChain %%pu %%ib %%c0 %%g\n"
    "%%b = OpLoad %%uint %%pb\n"
    "%%pxa = OpAccessChain %%pu %%fa %%c0 %%g\n"
    "%%xu = OpLoad %%uint %%pxa\n"
    "%%pya = OpAccessChain %%pu %%fb %%c0 %%g\n"
    "%%yu = OpLoad %%uint %%pya\n"
    "%%ag = OpBitwiseXor %%uint %%a %%g\n"
    "%%a3 = OpBitwiseAnd %%uint %%ag %%c3\n"
    "%%on = OpINotEqual %%bool %%a3 %%c0\n"
    "OpSelectionMerge %%merge None\n"
    "OpBranchConditional %%on %%then %%merge\n"
    "%%then = OpLabel\n"
    "%%x = OpBitcast %%float %%xu\n"
    "%%y = OpBitcast %%float %%yu\n"
    "%%sa = OpBitcast %%int %%a\n"
    "%%sbv = OpBitcast %%int %%b\n"
    "%%r0a = OpUDiv %%uint %%a %%b\n"
    "%%r1a = OpUMod %%uint %%a %%b\n"
    /* signed division of 32-bit integers, folded into r0 and r1 */
    "%%sd = OpSDiv %%int %%sa %%sbv\n"
    "%%sr = OpSRem %%int %%sa %%sbv\n"
    "%%sm = OpSMod %%int %%sa %%sbv\n"
    "%%sdu = OpBitcast %%uint %%sd\n"
    "%%sru = OpBitcast %%uint %%sr\n"
    "%%smu = OpBitcast %%uint %%sm\n"
    "%%smr = OpShiftLeftLogical %%uint %%smu %%c1\n"
    "%%r0 = OpBitwiseXor %%uint %%r0a %%sdu\n"
    "%%r1b = OpBitwiseXor %%uint %%r1a %%sru\n"
    "%%r1 = OpBitwiseXor %%uint %%r1b %%smr\n"
    "%%r2 = OpShiftLeftLogical %%uint %%a %%b\n"
    "%%r3 = OpShiftRightLogical %%uint %%a %%b\n"
    "%%r4s = OpShiftRightArithmetic %%int %%sa %%b\n"
    "%%r4 = OpBitcast %%uint %%r4s\n"
    "%%r5 = OpIMul %%uint %%a %%c5\n"
    "%%b6 = OpSLessThan %%bool %%sa %%sbv\n"
    "%%b7 = OpUGreaterThanEqual %%bool %%a %%b\n"
    "%%b8 = OpFOrdLessThan %%bool %%x %%y\n"
    "%%b9 = OpFUnordGreaterThanEqual %%bool %%x %%y\n"
    "%%b10 = OpFOrdNotEqual %%bool %%x %%y\n"
    "%%b11 = OpFUnordEqual %%bool %%x %%fc\n"
    "%%r6a = OpSelect %%uint %%b6 %%c1 %%c0\n"
    /* logical operations on bools, as bits of r6 */
    "%%lg1 = OpLogicalAnd %%bool %%b6 %%b7\n"
    "%%lg2 = OpLogicalOr %%bool %%b8 %%b9\n"
    "%%lg3 = OpLogicalEqual %%bool %%b10 %%b11\n"
    "%%lg4 = OpLogicalNotEqual %%bool %%b6 %%b9\n"
    "%%lg5 = OpLogicalNot %%bool %%b7\n"
    "%%q1 = OpSelect %%uint %%lg1 %%c2 %%c0\n"
    "%%q2 = OpSelect %%uint %%lg2 %%c4 %%c0\n"
    "%%q3 = OpSelect %%uint %%lg3 %%c8 %%c0\n"
    "%%q4 = OpSelect %%uint %%lg4 %%c16 %%c0\n"
    "%%q5 = OpSelect %%uint %%lg5 %%c32 %%c0\n"
    "%%q12 = OpBitwiseOr %%uint %%q1 %%q2\n"
    "%%q34 = OpBitwiseOr %%uint %%q3 %%q4\n"
    "%%q15 = OpBitwiseOr %%uint %%q12 %%q5\n"
    "%%q = OpBitwiseOr %%uint %%q15 %%q34\n"
    "%%r6 = OpBitwiseOr %%uint %%r6a %%q\n"
    "%%r7 = OpSelect %%uint %%b7 %%c1 %%c0\n"
    "%%r8 = OpSelect %%uint %%b8 %%c1 %%c0\n"
    "%%r9 = OpSelect %%uint %%b9 %%c1 %%c0\n"
    "%%r10 = OpSelect %%uint %%b10 %%c1 %%c0\n"
    "%%r11 = OpSelect %%uint %%b11 %%c1 %%c0\n"
    "%%f12 = OpFDiv %%float %%x %%y\n"
    "%%f13 = OpFSub %%float %%x %%fc\n"
    "%%f14 = OpFMul %%float %%x %%y\n"
    "%%f15 = OpConvertUToF %%float %%a\n"
    "%%r12 = OpBitcast %%uint %%f12\n"
    "%%r13 = OpBitcast %%uint %%f13\n"
    "%%r14a = OpBitcast %%uint %%f14\n"
    /* a vector times its own lane's scalar (f32 and f16), folded into r14 */
    "%%vv = OpCompositeConstruct %%v4f %%x %%y %%fc %%f13\n"
    "%%vs = OpVectorTimesScalar %%v4f %%vv %%y\n"
    "%%hqx = OpFConvert %%half %%x\n"
    "%%hqy = OpFConvert %%half %%y\n"
    "%%vh = OpCompositeConstruct %%v4h %%hqx %%hqy %%hqy %%hqx\n"
    "%%vhs = OpVectorTimesScalar %%v4h %%vh %%hqy\n"
    "%%vhf = OpFConvert %%v4f %%vhs\n"
    "%%vsum = OpFAdd %%v4f %%vs %%vhf\n"
    "%%e0 = OpCompositeExtract %%float %%vsum 0\n"
    "%%e1 = OpCompositeExtract %%float %%vsum 1\n"
    "%%e2 = OpCompositeExtract %%float %%vsum 2\n"
    "%%e3 = OpCompositeExtract %%float %%vsum 3\n"
    "%%e0u = OpBitcast %%uint %%e0\n"
    "%%e1u = OpBitcast %%uint %%e1\n"
    "%%e2u = OpBitcast %%uint %%e2\n"
    "%%e3u = OpBitcast %%uint %%e3\n"
    "%%e01 = OpBitwiseXor %%uint %%e0u %%e1u\n"
    "%%e23 = OpBitwiseXor %%uint %%e2u %%e3u\n"
    "%%e23r = OpShiftRightLogical %%uint %%e23 %%c3\n"
    "%%ex = OpBitwiseXor %%uint %%e01 %%e23r\n"
    "%%r14 = OpBitwiseXor %%uint %%r14a %%ex\n"
    "%%r15 = OpBitcast %%uint %%f15\n"
    "%%h16 = OpSConvert %%short %%sa\n"
    "%%s16 = OpSConvert %%int %%h16\n"
    "%%r16a = OpBitcast %%uint %%s16\n"
    "%%u16 = OpUConvert %%ushort %%b\n"
    "%%r17a = OpUConvert %%uint %%u16\n"
    /* 8- and 64-bit conversions, both ways, folded into r16 and r17 */
    "%%sc8 = OpSConvert %%char %%sa\n"
    "%%sc8s = OpSConvert %%int %%sc8\n"
    "%%sc8l = OpSConvert %%long %%sc8\n"
    "%%sc8h = OpSConvert %%short %%sc8\n"
    "%%u8 = OpUConvert %%uchar %%b\n"
    "%%u8u = OpUConvert %%uint %%u8\n"
    "%%u8l = OpUConvert %%ulong %%u8\n"
    "%%u8h = OpUConvert %%ushort %%u8\n"
    "%%l64 = OpSConvert %%long %%sa\n"
    "%%ul64 = OpUConvert %%ulong %%b\n"
    "%%ul64s = OpBitcast %%long %%ul64\n"
    "%%l3 = OpShiftLeftLogical %%long %%l64 %%c3\n"
    "%%lsum0 = OpIAdd %%long %%l3 %%ul64s\n"
    "%%lsum1 = OpIAdd %%long %%lsum0 %%sc8l\n"
    "%%lsum = OpBitcast %%ulong %%lsum1\n"
    "%%lhi = OpShiftRightLogical %%ulong %%lsum %%c16\n"
    "%%lsum2 = OpIAdd %%ulong %%lhi %%u8l\n"
    "%%l32 = OpUConvert %%uint %%lsum2\n"
    "%%l16 = OpSConvert %%short %%lsum1\n"
    "%%l8 = OpUConvert %%uchar %%lsum2\n"
    "%%h8 = OpSConvert %%char %%h16\n"
    "%%h8s = OpSConvert %%int %%h8\n"
    "%%l16s = OpSConvert %%int %%l16\n"
    "%%l8u = OpUConvert %%uint %%l8\n"
    "%%hx = OpBitwiseXor %%short %%sc8h %%l16\n"
    "%%hxs = OpSConvert %%int %%hx\n"
    "%%ux = OpBitwiseXor %%ushort %%u8h %%u16\n"
    "%%uxu = OpUConvert %%uint %%ux\n"
    "%%x16a = OpBitwiseXor %%int %%sc8s %%h8s\n"
    "%%x16b = OpBitwiseXor %%int %%x16a %%l16s\n"
    "%%x16c = OpBitwiseXor %%int %%x16b %%hxs\n"
    "%%x16 = OpBitcast %%uint %%x16c\n"
    "%%r16 = OpBitwiseXor %%uint %%r16a %%x16\n"
    "%%x17a = OpBitwiseXor %%uint %%u8u %%l32\n"
    "%%x17b = OpBitwiseXor %%uint %%x17a %%l8u\n"
    "%%x17c = OpBitwiseXor %%uint %%x17b %%uxu\n"
    "%%r17 = OpBitwiseXor %%uint %%r17a %%x17c\n"
    "%%f18 = OpConvertSToF %%float %%sa\n"
    "%%r18 = OpBitcast %%uint %%f18\n"
    "%%base = OpIMul %%uint %%g %%c20\n"
    "%%o0 = OpAccessChain %%pu %%out %%c0 %%base\n"
    "OpStore %%o0 %%r0\n"
    STORE_AT(1) STORE_AT(2) STORE_AT(3) STORE_AT(4) STORE_AT(5) STORE_AT(6) STORE_AT(7)
    STORE_AT(8) STORE_AT(9) STORE_AT(10) STORE_AT(11) STORE_AT(12) STORE_AT(13) STORE_AT(14)
    STORE_AT(15) STORE_AT(16) STORE_AT(17) STORE_AT(18)
    "OpBranch %%merge\n"
    "%%merge = OpLabel\n"
    /* a loop that lanes leave at different iterations: h, computed in the
     * header, keeps in each lane the value of its last iteration */
    /* lanes arrive from two blocks: the phi's per-lane path */
    "%%pm = OpPhi %%uint %%a %%entry %%r5 %%then\n"
    "%%n7 = OpBitwiseAnd %%uint %%b %%c7\n"
    "OpBranch %%header\n"
    "%%header = OpLabel\n"
    "%%i = OpPhi %%uint %%c0 %%merge %%i1 %%body\n"
    "%%acc = OpPhi %%uint %%pm %%merge %%acc1 %%body\n"
    "%%h = OpIMul %%uint %%acc %%c3\n"
    "%%more = OpULessThan %%bool %%i %%n7\n"
    "OpLoopMerge %%exit %%body None\n"
    "OpBranchConditional %%more %%body %%exit\n"
    "%%body = OpLabel\n"
    "%%acc1 = OpIAdd %%uint %%h %%i\n"
    "%%i1 = OpIAdd %%uint %%i %%c1\n"
    "OpBranch %%header\n"
    "%%exit = OpLabel\n"
    "%%base2 = OpIMul %%uint %%g %%c20\n"
    "%%k19 = OpIAdd %%uint %%base2 %%c19\n"
    "%%o19 = OpAccessChain %%pu %%out %%c0 %%k19\n"
    "OpStore %%o19 %%h\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

enum { NSRC = 256, NSRC4 = 64, NBUF = 8 };

static uint64_t rng_state;

static uint32_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

/* idx values of one trial for `n` invocations, by pattern. */
static void fill_idx(uint32_t *idx, uint32_t n, uint32_t pattern)
{
    uint32_t base = rnd() % 64;
    for (uint32_t g = 0; g < n; g++) {
        switch (pattern) {
        case 0: /* consecutive even: every lane in the branch, consecutive addresses */
            idx[g] = 2 * (base + g);
            break;
        case 1: /* one address for all */
            idx[g] = 2 * base;
            break;
        case 2: /* scattered, in bounds, about half the lanes in the branch */
            idx[g] = rnd() % (2 * NSRC);
            break;
        case 3: /* scattered, an occasional lane past the end */
            idx[g] = rnd() % 97 == 0 ? 2 * NSRC + 2 * (rnd() % 8) : rnd() % (2 * NSRC);
            break;
        case 4: /* consecutive, every other lane left out of the branch */
            idx[g] = 2 * (base + g) + (g % 3 == 1);
            break;
        default: /* consecutive, one lane far out of bounds */
            idx[g] = g == n / 2 ? 0xfffffff0u : 2 * (base + g);
            break;
        }
    }
}

typedef struct trial_out {
    asm_result rr;
    uint8_t *bufs[NBUF];
} trial_out;

static void run_trial(const char *text, uint32_t nlanes_total, uint32_t sg, uint32_t flags,
                      uint8_t *const inputs[NBUF], const size_t sizes[NBUF], trial_out *o)
{
    void *bufs[NBUF];
    for (int i = 0; i < NBUF; i++) {
        o->bufs[i] = malloc(sizes[i]);
        assert_non_null(o->bufs[i]);
        memcpy(o->bufs[i], inputs[i], sizes[i]);
        bufs[i] = o->bufs[i];
    }
    asm_params p;
    memset(&p, 0, sizeof(p));
    p.subgroup_size = sg;
    p.threads = 1; /* workgroups racing on one address would make the buffers differ */
    p.flags = flags;
    (void)nlanes_total;
    p.groups[0] = 2;
    o->rr = asm_run(text, &p, bufs, sizes, NBUF);
}

static void compare_paths(uint32_t local, uint32_t sg, uint32_t flags, uint32_t trials)
{
    char text[sizeof(shader_fmt) + 32];
    snprintf(text, sizeof(text), shader_fmt, local);
    uint32_t n = 2 * local;
    size_t sizes[NBUF] = {n * 4, NSRC * 4, NSRC * 4, NSRC4 * 16, NSRC4 * 16, n * 4 + 64,
                          NSRC * 4, NSRC * 4};
    uint8_t *inputs[NBUF];
    for (int i = 0; i < NBUF; i++) {
        inputs[i] = malloc(sizes[i]);
        assert_non_null(inputs[i]);
    }
    uint32_t failures_seen = 0, passes_seen = 0;
    for (uint32_t t = 0; t < trials; t++) {
        for (int i = 0; i < NBUF; i++)
            for (size_t b = 0; b < sizes[i]; b += 4) {
                uint32_t v = rnd();
                if (i == 6) { /* floats: finite values around the branch's threshold */
                    float f = (float)(int32_t)(v % 4001 - 2000) / 64.0f;
                    memcpy(&v, &f, 4);
                }
                memcpy(inputs[i] + b, &v, 4);
            }
        fill_idx((uint32_t *)(void *)inputs[0], n, t % 6);
        trial_out fast, ref;
        run_trial(text, n, sg, flags, inputs, sizes, &fast);
        run_trial(text, n, sg, flags | CVM_FLAG_REFERENCE_PATHS, inputs, sizes, &ref);
        if (fast.rr.create != CVM_SUCCESS)
            fail_msg("local %u: %s", local, fast.rr.message);
        if (fast.rr.dispatch != ref.rr.dispatch || strcmp(fast.rr.message, ref.rr.message))
            fail_msg("local %u sg %u flags %u trial %u: fast %s '%s', reference %s '%s'", local,
                     sg, flags, t, cvm_result_string(fast.rr.dispatch), fast.rr.message,
                     cvm_result_string(ref.rr.dispatch), ref.rr.message);
        if (fast.rr.dispatch == CVM_SUCCESS)
            passes_seen++;
        else
            failures_seen++;
        for (int i = 0; i < NBUF; i++) {
            if (memcmp(fast.bufs[i], ref.bufs[i], sizes[i]))
                fail_msg("local %u sg %u flags %u trial %u: buffer %d differs", local, sg, flags,
                         t, i);
            free(fast.bufs[i]);
            free(ref.bufs[i]);
        }
    }
    /* the trials covered both outcomes (without robust access, the
     * out-of-bounds patterns fail) */
    assert_true(passes_seen > 0);
    if (!(flags & CVM_FLAG_ROBUST_ACCESS))
        assert_true(failures_seen > 0);
    for (int i = 0; i < NBUF; i++)
        free(inputs[i]);
}

static void test_memory_paths(void **state)
{
    (void)state;
    rng_state = 1;
    compare_paths(64, 32, 0, 24);
    compare_paths(48, 32, 0, 24); /* a partial last subgroup */
    compare_paths(7, 4, 0, 24);
    compare_paths(1, 1, 0, 12);
}

static void test_memory_paths_robust(void **state)
{
    (void)state;
    rng_state = 2;
    compare_paths(64, 32, CVM_FLAG_ROBUST_ACCESS, 24);
    compare_paths(48, 16, CVM_FLAG_ROBUST_ACCESS, 24);
    compare_paths(5, 4, CVM_FLAG_ROBUST_ACCESS, 12);
}

/* Access chains with every lane active run one pass per step without a
 * bounds branch per lane (exec/ops/memory.c access_chain_all_lanes); an
 * offset that leaves its region, through a constant index (one offset for
 * all lanes) or a per-lane index, must still end in the reference path's
 * status, message and buffers, with and without robust access.  src is an
 * array of uint[4]; per invocation g, with q = int(g >> 2):
 *   out[g] = src[q][CIDX] + src[q + BIAS][1]
 * (the constant index is a step after a per-lane one, so that its base
 * differs per lane and the chain is not computed once for all lanes). */
static const char chain_fmt[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %%main \"main\" %%gid %%src %%out\n"
    "OpExecutionMode %%main LocalSize 8 1 1\n"
    "OpDecorate %%gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %%rta ArrayStride 4\n"
    "OpDecorate %%arr4 ArrayStride 4\n"
    "OpDecorate %%rta4 ArrayStride 16\n"
    "OpMemberDecorate %%sb 0 Offset 0\n"
    "OpDecorate %%sb Block\n"
    "OpMemberDecorate %%sb4 0 Offset 0\n"
    "OpDecorate %%sb4 Block\n"
    "OpDecorate %%src DescriptorSet 0\n"
    "OpDecorate %%src Binding 0\n"
    "OpDecorate %%out DescriptorSet 0\n"
    "OpDecorate %%out Binding 1\n"
    "%%void = OpTypeVoid\n"
    "%%fn = OpTypeFunction %%void\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%int = OpTypeInt 32 1\n"
    "%%v3 = OpTypeVector %%uint 3\n"
    "%%rta = OpTypeRuntimeArray %%uint\n"
    "%%sb = OpTypeStruct %%rta\n"
    "%%c4 = OpConstant %%uint 4\n"
    "%%arr4 = OpTypeArray %%uint %%c4\n"
    "%%rta4 = OpTypeRuntimeArray %%arr4\n"
    "%%sb4 = OpTypeStruct %%rta4\n"
    "%%psb4 = OpTypePointer StorageBuffer %%sb4\n"
    "%%psb = OpTypePointer StorageBuffer %%sb\n"
    "%%pu = OpTypePointer StorageBuffer %%uint\n"
    "%%pin = OpTypePointer Input %%v3\n"
    "%%pinu = OpTypePointer Input %%uint\n"
    "%%gid = OpVariable %%pin Input\n"
    "%%src = OpVariable %%psb4 StorageBuffer\n"
    "%%out = OpVariable %%psb StorageBuffer\n"
    "%%c0 = OpConstant %%int 0\n"
    "%%c1 = OpConstant %%int 1\n"
    "%%c2 = OpConstant %%int 2\n"
    "%%cidx = OpConstant %%int %d\n"
    "%%cbias = OpConstant %%int %d\n"
    "%%main = OpFunction %%void None %%fn\n"
    "%%e = OpLabel\n"
    "%%gp = OpAccessChain %%pinu %%gid %%c0\n"
    "%%g = OpLoad %%uint %%gp\n"
    "%%gi = OpBitcast %%int %%g\n"
    "%%q = OpShiftRightLogical %%int %%gi %%c2\n"
    "%%li = OpIAdd %%int %%q %%cbias\n"
    "%%p1 = OpAccessChain %%pu %%src %%c0 %%q %%cidx\n"
    "%%v1 = OpLoad %%uint %%p1\n"
    "%%p2 = OpAccessChain %%pu %%src %%c0 %%li %%c1\n"
    "%%v2 = OpLoad %%uint %%p2\n"
    "%%s = OpIAdd %%uint %%v1 %%v2\n"
    "%%po = OpAccessChain %%pu %%out %%c0 %%g\n"
    "OpStore %%po %%s\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_chain_offsets_outside(void **state)
{
    (void)state;
    static const struct {
        int32_t cidx, bias;
        int in_bounds;
    } cases[] = {
        {3, 0, 1},          /* both in bounds */
        {-1, 0, 0},         /* a constant offset below the region's start */
        {-(1 << 30), 0, 0}, /* far below */
        {-5, 0, 0},         /* below for the first lanes only */
        {3, -1000, 0},      /* every lane's index negative */
        {3, -2, 0},         /* some lanes' */
        {1 << 30, 0, 0},    /* a constant offset far past the end */
        {3, 1 << 29, 0},    /* every lane's index past the end */
    };
    enum { NSRCW = 16, NOUT = 16 };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
        for (int robust = 0; robust < 2; robust++) {
            char text[sizeof(chain_fmt) + 64];
            snprintf(text, sizeof(text), chain_fmt, cases[c].cidx, cases[c].bias);
            uint32_t src[NSRCW], out_fast[NOUT], out_ref[NOUT];
            for (uint32_t i = 0; i < NSRCW; i++)
                src[i] = 1000u * (i + 1);
            memset(out_fast, 0xab, sizeof(out_fast));
            memset(out_ref, 0xab, sizeof(out_ref));
            uint32_t src_ref[NSRCW];
            memcpy(src_ref, src, sizeof(src));
            size_t sizes[2] = {sizeof(src), sizeof(out_fast)};
            void *bf[2] = {src, out_fast}, *br[2] = {src_ref, out_ref};
            asm_params p;
            memset(&p, 0, sizeof(p));
            p.subgroup_size = 4;
            p.threads = 1;
            p.groups[0] = 2;
            p.flags = robust ? CVM_FLAG_ROBUST_ACCESS : 0;
            asm_result rf = asm_run(text, &p, bf, sizes, 2);
            p.flags |= CVM_FLAG_REFERENCE_PATHS;
            asm_result rr = asm_run(text, &p, br, sizes, 2);
            if (rf.create != CVM_SUCCESS)
                fail_msg("case %zu: %s", c, rf.message);
            if (rf.dispatch != rr.dispatch || strcmp(rf.message, rr.message))
                fail_msg("case %zu robust %d: fast %s '%s', reference %s '%s'", c, robust,
                         cvm_result_string(rf.dispatch), rf.message,
                         cvm_result_string(rr.dispatch), rr.message);
            cvm_result want = robust || cases[c].in_bounds ? CVM_SUCCESS : CVM_ERROR_OUT_OF_BOUNDS;
            if (rf.dispatch != want)
                fail_msg("case %zu robust %d: %s '%s'", c, robust, cvm_result_string(rf.dispatch),
                         rf.message);
            if (memcmp(out_fast, out_ref, sizeof(out_fast)))
                fail_msg("case %zu robust %d: outputs differ", c, robust);
            if (cases[c].in_bounds)
                for (uint32_t g = 0; g < NOUT; g++)
                    assert_int_equal(out_fast[g], src[(g >> 2) * 4 + 3] + src[(g >> 2) * 4 + 1]);
        }
}

static uint32_t rnd_special(int int_operand)
{
    switch (rnd() % 8) {
    case 0: return 0;
    case 1: return rnd() % 40; /* shifts past 31, small divisors */
    case 2: return 0x7fc00000u; /* NaN */
    case 3: return 0x3f400000u; /* 0.75 */
    case 4: return 0x80000000u;
    /* -1, a signed division's own case, in the integer buffers only:
     * as a float it is a second NaN payload, and which of two NaNs an
     * operation returns is left open (SPIR-V 2.14), so the fast and the
     * reference kernels may differ there */
    case 5: return int_operand ? 0xffffffffu : rnd();
    default: return rnd();
    }
}

static void compare_arith(uint32_t local, uint32_t sg, uint32_t trials)
{
    char text[sizeof(arith_fmt) + 32];
    snprintf(text, sizeof(text), arith_fmt, local);
    uint32_t n = 2 * local;
    enum { NB = 5 };
    size_t sizes[NB] = {n * 4, n * 4, n * 4, n * 4, n * 80};
    for (uint32_t t = 0; t < trials; t++) {
        uint8_t *in[NB], *fast[NB], *ref[NB];
        void *bf[NB], *br[NB];
        for (int i = 0; i < NB; i++) {
            in[i] = malloc(sizes[i]);
            fast[i] = malloc(sizes[i]);
            ref[i] = malloc(sizes[i]);
            assert_true(in[i] && fast[i] && ref[i]);
            for (size_t b = 0; b < sizes[i]; b += 4) {
                uint32_t v = rnd_special(i < 2);
                memcpy(in[i] + b, &v, 4);
            }
            memcpy(fast[i], in[i], sizes[i]);
            memcpy(ref[i], in[i], sizes[i]);
            bf[i] = fast[i];
            br[i] = ref[i];
        }
        asm_params p;
        memset(&p, 0, sizeof(p));
        p.subgroup_size = sg;
        p.groups[0] = 2;
        asm_result rf = asm_run(text, &p, bf, sizes, NB);
        p.flags = CVM_FLAG_REFERENCE_PATHS;
        asm_result rr = asm_run(text, &p, br, sizes, NB);
        ASM_OK(rf, "fast paths");
        ASM_OK(rr, "reference paths");
        if (memcmp(fast[4], ref[4], sizes[4]))
            fail_msg("local %u sg %u trial %u: results differ", local, sg, t);
        /* the branch left some lanes out and took others */
        uint32_t changed = 0;
        for (uint32_t g = 0; g < n; g++)
            changed += memcmp(fast[4] + g * 80, in[4] + g * 80, 76) != 0;
        assert_true(changed > 0 && changed < n);
        for (int i = 0; i < NB; i++) {
            free(in[i]);
            free(fast[i]);
            free(ref[i]);
        }
    }
}

static void test_arith_paths(void **state)
{
    (void)state;
    rng_state = 3;
    compare_arith(64, 32, 16);
    compare_arith(48, 32, 16);
    compare_arith(13, 8, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_paths),
        cmocka_unit_test(test_memory_paths_robust),
        cmocka_unit_test(test_chain_offsets_outside),
        cmocka_unit_test(test_arith_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
