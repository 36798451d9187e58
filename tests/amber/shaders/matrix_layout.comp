#version 450
// Matrices in buffers laid out with MatrixStride and RowMajor (issue 14:
// a mat3 with MatrixStride 16 was read with 12-byte column spacing).
// Every component is written out flat, column by column, so the script can
// check each against the std430 layout the data was written in.
layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer In {
    mat3 m3[2];                    // MatrixStride 16, ArrayStride 48
    layout(row_major) mat3 r3;     // rows of 3 floats, MatrixStride 16
    layout(row_major) mat2x3 r23;  // 2 columns, 3 rows: 3 rows of vec2, MatrixStride 8
    mat4x3 c43;                    // 4 columns of vec3, MatrixStride 16
    dmat3 d3;                      // MatrixStride 32
    layout(row_major) dmat2x3 rd23; // 3 rows of dvec2, MatrixStride 16
};

layout(std430, set = 0, binding = 1) buffer Out {
    float o[];
};

layout(std430, set = 0, binding = 2) buffer Written {
    layout(row_major) mat3 w_r3;
    mat3 w_c3;
    layout(row_major) mat4x3 w_r43;
};

void main()
{
    int k = 0;
    for (int i = 0; i < 2; i++) {
        mat3 m = m3[i];                    // whole-matrix load, MatrixStride 16
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                o[k++] = m[c][r];
        o[k++] = determinant(m);
    }
    mat3 r = r3;                           // whole row-major load
    for (int c = 0; c < 3; c++)
        for (int r2 = 0; r2 < 3; r2++)
            o[k++] = r[c][r2];
    vec3 col = r3[2];                      // a column of a row-major matrix: strided
    o[k++] = col.x; o[k++] = col.y; o[k++] = col.z;
    o[k++] = r3[1][2];                     // one element through the chain
    mat2x3 q = r23;
    for (int c = 0; c < 2; c++)
        for (int r2 = 0; r2 < 3; r2++)
            o[k++] = q[c][r2];
    mat4x3 f = c43;
    for (int c = 0; c < 4; c++)
        for (int r2 = 0; r2 < 3; r2++)
            o[k++] = f[c][r2];
    dmat3 d = d3;
    for (int c = 0; c < 3; c++)
        for (int r2 = 0; r2 < 3; r2++)
            o[k++] = float(d[c][r2]);
    dmat2x3 e = rd23;
    for (int c = 0; c < 2; c++)
        for (int r2 = 0; r2 < 3; r2++)
            o[k++] = float(e[c][r2]);
    // stores: a whole row-major matrix, then one column and one element of it
    w_r3 = r;
    w_r3[2] = vec3(70.0, 80.0, 90.0);
    w_r3[0][1] = 100.0;
    w_c3 = m3[1];
    w_r43 = f;
}
