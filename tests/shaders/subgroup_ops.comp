#version 450
// Subgroup operations under divergence: only invocations with act[i] != 0
// execute them; every result goes to out[slot * N + i] (N = total
// invocations, from the push constant).  Inactive invocations write nothing.
// Workgroup of 100: the last subgroup is partial for sizes 8, 32, 64, 128.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
#extension GL_KHR_shader_subgroup_clustered : enable
#extension GL_KHR_shader_subgroup_quad : enable
layout(local_size_x = 100) in;
layout(std430, binding = 0) readonly buffer In { uint u[]; };
layout(std430, binding = 1) readonly buffer InF { float f[]; };
layout(std430, binding = 2) readonly buffer Act { uint act[]; };
layout(std430, binding = 3) readonly buffer Src { uint src[]; };
layout(std430, binding = 4) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint n; } pc;

void put(uint slot, uint v) { o[slot * pc.n + gl_GlobalInvocationID.x] = v; }
void putf(uint slot, float v) { put(slot, floatBitsToUint(v)); }
void putb(uint slot, bool v) { put(slot, v ? 1u : 0u); }

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (act[i] == 0u)
        return;
    uint x = u[i];
    int s = int(x);
    float y = f[i];
    bool b = (x & 1u) != 0u;
    uint k = 0u;
    putb(k++, subgroupElect());                        // 0
    putb(k++, subgroupAll(b));                         // 1
    putb(k++, subgroupAny(b));                         // 2
    putb(k++, subgroupAllEqual(x & 3u));               // 3
    put(k++, subgroupBroadcast(x, 3u));                // 4
    put(k++, subgroupBroadcastFirst(x));               // 5
    uvec4 bal = subgroupBallot(b);
    put(k++, bal.x); put(k++, bal.y); put(k++, bal.z); put(k++, bal.w); // 6..9
    putb(k++, subgroupInverseBallot(uvec4(x, x * 3u, ~x, x ^ 0x5555u))); // 10
    putb(k++, subgroupBallotBitExtract(bal, src[i] & 127u));              // 11
    put(k++, subgroupBallotBitCount(bal));             // 12
    put(k++, subgroupBallotInclusiveBitCount(bal));    // 13
    put(k++, subgroupBallotExclusiveBitCount(bal));    // 14
    put(k++, subgroupBallotFindLSB(bal));              // 15
    put(k++, subgroupBallotFindMSB(bal));              // 16
    put(k++, subgroupShuffle(x, src[i]));              // 17
    put(k++, subgroupShuffleXor(x, 5u));               // 18
    put(k++, subgroupShuffleUp(x, 3u));                // 19
    put(k++, subgroupShuffleDown(x, 3u));              // 20
    // 21, 22: glslang 12 has no subgroupRotate; build.sh rewrites these two
    // into OpGroupNonUniformRotateKHR x 5 and x 3 ClusterSize 4.
    put(k++, subgroupShuffleDown(x, 5u));              // 21
    put(k++, subgroupShuffleDown(x, 6u));              // 22
    put(k++, subgroupQuadBroadcast(x, 2u));            // 23
    put(k++, subgroupQuadSwapHorizontal(x));           // 24
    put(k++, subgroupQuadSwapVertical(x));             // 25
    put(k++, subgroupQuadSwapDiagonal(x));             // 26
    // arithmetic: Reduce, InclusiveScan, ExclusiveScan, ClusteredReduce(4)
    put(k++, subgroupAdd(x)); put(k++, subgroupInclusiveAdd(x)); put(k++, subgroupExclusiveAdd(x)); put(k++, subgroupClusteredAdd(x, 4u)); // 27..30
    put(k++, subgroupMul(x)); put(k++, subgroupInclusiveMul(x)); put(k++, subgroupExclusiveMul(x)); put(k++, subgroupClusteredMul(x, 4u)); // 31..34
    put(k++, uint(subgroupMin(s))); put(k++, uint(subgroupInclusiveMin(s))); put(k++, uint(subgroupExclusiveMin(s))); put(k++, uint(subgroupClusteredMin(s, 4u))); // 35..38
    put(k++, subgroupMin(x)); put(k++, subgroupInclusiveMin(x)); put(k++, subgroupExclusiveMin(x)); put(k++, subgroupClusteredMin(x, 4u)); // 39..42
    put(k++, uint(subgroupMax(s))); put(k++, uint(subgroupInclusiveMax(s))); put(k++, uint(subgroupExclusiveMax(s))); put(k++, uint(subgroupClusteredMax(s, 4u))); // 43..46
    put(k++, subgroupMax(x)); put(k++, subgroupInclusiveMax(x)); put(k++, subgroupExclusiveMax(x)); put(k++, subgroupClusteredMax(x, 4u)); // 47..50
    put(k++, subgroupAnd(x)); put(k++, subgroupInclusiveAnd(x)); put(k++, subgroupExclusiveAnd(x)); put(k++, subgroupClusteredAnd(x, 4u)); // 51..54
    put(k++, subgroupOr(x)); put(k++, subgroupInclusiveOr(x)); put(k++, subgroupExclusiveOr(x)); put(k++, subgroupClusteredOr(x, 4u)); // 55..58
    put(k++, subgroupXor(x)); put(k++, subgroupInclusiveXor(x)); put(k++, subgroupExclusiveXor(x)); put(k++, subgroupClusteredXor(x, 4u)); // 59..62
    putf(k++, subgroupAdd(y)); putf(k++, subgroupInclusiveAdd(y)); putf(k++, subgroupExclusiveAdd(y)); putf(k++, subgroupClusteredAdd(y, 4u)); // 63..66
    putf(k++, subgroupMul(y)); putf(k++, subgroupInclusiveMul(y)); putf(k++, subgroupExclusiveMul(y)); putf(k++, subgroupClusteredMul(y, 4u)); // 67..70
    putf(k++, subgroupMin(y)); putf(k++, subgroupInclusiveMin(y)); putf(k++, subgroupExclusiveMin(y)); putf(k++, subgroupClusteredMin(y, 4u)); // 71..74
    putf(k++, subgroupMax(y)); putf(k++, subgroupInclusiveMax(y)); putf(k++, subgroupExclusiveMax(y)); putf(k++, subgroupClusteredMax(y, 4u)); // 75..78
    putb(k++, subgroupAnd(b)); putb(k++, subgroupInclusiveAnd(b)); putb(k++, subgroupExclusiveAnd(b)); putb(k++, subgroupClusteredAnd(b, 4u)); // 79..82
    putb(k++, subgroupOr(b)); putb(k++, subgroupInclusiveOr(b)); putb(k++, subgroupExclusiveOr(b)); putb(k++, subgroupClusteredOr(b, 4u)); // 83..86
    putb(k++, subgroupXor(b)); putb(k++, subgroupInclusiveXor(b)); putb(k++, subgroupExclusiveXor(b)); putb(k++, subgroupClusteredXor(b, 4u)); // 87..90
    // vector operand: component-wise
    uvec2 v2 = subgroupInclusiveAdd(uvec2(x, x * 7u));
    put(k++, v2.x); put(k++, v2.y);                     // 91, 92
}
