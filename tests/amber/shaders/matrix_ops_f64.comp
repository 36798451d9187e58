#version 450
// Determinant and inverse of double matrices: the engine computes the
// determinant in double-double and rounds once, and the inverse as
// adjugate / determinant, so both come out the doubles nearest the exact
// values the script's expectations give.
layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer In {
    dmat3 m3[4];
    dmat4 m4[2];
};

layout(std430, set = 0, binding = 1) buffer Out {
    double det3[4];
    double det4[2];
    dmat3 inv3[4];
};

void main()
{
    for (int i = 0; i < 4; i++) {
        det3[i] = determinant(m3[i]);
        inv3[i] = inverse(m3[i]);
    }
    for (int i = 0; i < 2; i++)
        det4[i] = determinant(m4[i]);
}
