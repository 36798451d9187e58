#version 460
// bench_softmax_rows: y = softmax(x) along each row of a ROWS x COLS f32
// matrix, one workgroup of 256 invocations per row, each invocation taking
// COLS/256 elements. The row's maximum and sum are reduced in two stages:
// inside each subgroup (subgroupMax, subgroupAdd), then across the
// workgroup's subgroups through shared memory between barriers.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 256) in;
layout(constant_id = 0) const uint COLS = 1024;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

shared float part_max[256];
shared float part_sum[256];

const uint PER = COLS / 256;

void main()
{
    uint row = gl_WorkGroupID.x;
    uint base = row * COLS + gl_LocalInvocationIndex;
    float v[PER];
    float m = -3.402823466e38;
    for (uint i = 0; i < PER; i++) {
        v[i] = x[base + i * 256];
        m = max(m, v[i]);
    }
    m = subgroupMax(m);
    if (subgroupElect())
        part_max[gl_SubgroupID] = m;
    barrier();
    m = part_max[0];
    for (uint s = 1; s < gl_NumSubgroups; s++)
        m = max(m, part_max[s]);

    float sum = 0.0;
    for (uint i = 0; i < PER; i++) {
        v[i] = exp(v[i] - m);
        sum += v[i];
    }
    sum = subgroupAdd(sum);
    if (subgroupElect())
        part_sum[gl_SubgroupID] = sum;
    barrier();
    sum = 0.0;
    for (uint s = 0; s < gl_NumSubgroups; s++)
        sum += part_sum[s];

    float inv = 1.0 / sum;
    for (uint i = 0; i < PER; i++)
        y[base + i * 256] = v[i] * inv;
}
