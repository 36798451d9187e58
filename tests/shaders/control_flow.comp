#version 450
// Divergent structured control flow: nested if/else, loops with break and
// continue, switch with fallthrough, early return, function calls with
// out-parameters, phis through the ternary operator. Every invocation writes
// out[i]; tests/unit/test_engine.c models the same code in C.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int x[]; };
layout(std430, binding = 1) buffer Out { int y[]; };
layout(std430, binding = 2) buffer Trace { int t[]; };

int collatz_steps(int v, out int peak)
{
    int steps = 0;
    peak = v;
    while (v != 1 && steps < 200) {
        if ((v & 1) == 0)
            v /= 2;
        else
            v = 3 * v + 1;
        peak = max(peak, v);
        steps++;
    }
    return steps;
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    int v = x[i];
    int acc = 0;
    if (v < 0) {
        y[i] = -1;
        t[i] = 1;
        return; // early return of a subset of lanes
    }
    for (int k = 0; k < (v % 13); k++) {
        if (k == 7)
            break;
        if ((k & 1) == 1)
            continue;
        acc += k * v;
    }
    switch (v % 5) {
    case 0:
        acc += 100;
    case 1: // fallthrough from case 0
        acc += 10;
        break;
    case 3:
        acc -= 7;
        break;
    default:
        acc ^= 0x55;
        break;
    }
    int peak;
    int steps = collatz_steps(v % 50 + 1, peak);
    acc += steps * 3 + (peak > 100 ? 1 : 2);
    int j = 0;
    do {
        j += 3;
    } while (j < (v & 15));
    y[i] = acc + j;
    t[i] = 2;
}
