#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// A matrix built from a value that differs between invocations (each one's
// own element 0 of another matrix), as the Vulkan CTS's composite tests do:
// reading element 0 back must give each invocation its own value, whatever
// the number of elements it owns.  At subgroup and at workgroup scope.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { float x[]; } a;
layout(set = 0, binding = 1) buffer B { float x[]; } b;
layout(set = 0, binding = 2) buffer O { float x[]; } o;
layout(set = 0, binding = 3) buffer W { float x[]; } w;
#define SG coopmat<float, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator>
#define WG coopmat<float, gl_ScopeWorkgroup, 8, 8, gl_MatrixUseAccumulator>
void main()
{
    SG mA, mB, mO;
    coopMatLoad(mA, a.x, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mB, b.x, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    SG t = SG(mB[0]);
    mO = mA;
    for (int i = 1; i < mA.length(); ++i)
        mO[i] = mA[i] + mB[i];
    if (mA.length() > 0)
        mO[0] = mA[0] + t[0];
    if (gl_SubgroupID == 0)
        coopMatStore(mO, o.x, 0, 8, gl_CooperativeMatrixLayoutRowMajor);

    WG wA, wB, wO;
    coopMatLoad(wA, a.x, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(wB, b.x, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    WG u = WG(wB[0]);
    wO = wA;
    for (int i = 1; i < wA.length(); ++i)
        wO[i] = wA[i] + wB[i];
    if (wA.length() > 0)
        wO[0] = wA[0] + u[0];
    coopMatStore(wO, w.x, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
}
