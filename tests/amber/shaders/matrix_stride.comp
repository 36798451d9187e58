#version 450
// mat3 in a buffer: std430 gives its columns MatrixStride 16 (issue 14).
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { mat3 m3[2]; };
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main()
{
    int k = 0;
    for (int i = 0; i < 2; i++) {
        mat3 m = m3[i];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                o[k++] = m[c][r];
        o[k++] = determinant(m);
    }
}
