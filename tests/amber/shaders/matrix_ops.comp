#version 450
// OpMatrixTimesVector, OpVectorTimesMatrix, OpMatrixTimesMatrix,
// OpOuterProduct, OpTranspose, OpMatrixTimesScalar and OpDot on operands read
// from a buffer (so that nothing is folded at compile time), every result
// written out flat, column by column.
layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer In {
    mat3 a;       // 3x3
    mat2x3 b;     // 2 columns, 3 rows
    mat3x2 c;     // 3 columns, 2 rows
    mat4 d;       // 4x4
    vec4 v4;
    vec3 v3;
    vec2 v2;
    float s;
};

layout(std430, set = 0, binding = 1) buffer Out {
    float o[];
};

int k = 0;
void put3(vec3 x) { o[k++] = x.x; o[k++] = x.y; o[k++] = x.z; }
void put2(vec2 x) { o[k++] = x.x; o[k++] = x.y; }
void put4(vec4 x) { o[k++] = x.x; o[k++] = x.y; o[k++] = x.z; o[k++] = x.w; }

void main()
{
    put3(a * v3);                 // MatrixTimesVector 3x3
    put3(b * v2);                 // MatrixTimesVector 3x2 (mat2x3)
    put2(v3 * b);                 // VectorTimesMatrix: vec3 * mat2x3 = vec2
    put3(v2 * c);                 // VectorTimesMatrix: vec2 * mat3x2 = vec3
    put4(v4 * d);                 // VectorTimesMatrix 4x4
    mat3 ab = a * mat3(b[0], b[1], v3); // MatrixTimesMatrix 3x3
    for (int i = 0; i < 3; i++) put3(ab[i]);
    mat2 cb = c * b;              // MatrixTimesMatrix: mat3x2 * mat2x3 = mat2
    for (int i = 0; i < 2; i++) put2(cb[i]);
    mat3 bc = b * c;              // mat2x3 * mat3x2 = mat3
    for (int i = 0; i < 3; i++) put3(bc[i]);
    mat2x3 op = outerProduct(v3, v2); // OuterProduct: 2 columns of vec3
    for (int i = 0; i < 2; i++) put3(op[i]);
    mat3x2 t = transpose(b);      // Transpose
    for (int i = 0; i < 3; i++) put2(t[i]);
    mat4 dt = transpose(d);
    for (int i = 0; i < 4; i++) put4(dt[i]);
    mat2x3 bs = b * s;            // MatrixTimesScalar
    for (int i = 0; i < 2; i++) put3(bs[i]);
    o[k++] = dot(v4, d[1]);       // Dot
}
