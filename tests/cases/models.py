#!/usr/bin/env python3
"""Closed-form models of the cases whose results are plain arithmetic.

reduce_resize and workgroup_flex use small integers, so every sum is exact
and the result does not depend on the order an implementation combines
elements in; coopvec_optimal's values are chosen so that its sums are exact
too; tensor_pointee_size only moves bytes. This script computes their outputs from the inputs and the
extension texts alone (no engine code) and compares them with the recorded
expected outputs, so a wrongly recorded or wrongly copied expectation fails a
test of its own. Exit status 1 on any difference.
Usage: models.py [CASES_DIR]
"""
import os
import struct
import sys


def load(path, fmt):
    data = open(path, "rb").read()
    return struct.unpack("<%d%s" % (len(data) // struct.calcsize(fmt), fmt), data)


def reduce(m, mode, op, rows, cols):
    """OpCooperativeMatrixReduceNV of matrix m (a list of rows) into rows x cols."""
    if mode == "row":        # same rows, each holds its row's reduction
        v = [op(r) for r in m]
        return [[v[i]] * cols for i in range(rows)]
    if mode == "column":     # same columns, each holds its column's reduction
        v = [op([r[j] for r in m]) for j in range(len(m[0]))]
        return [[v[j] for j in range(cols)] for _ in range(rows)]
    if mode == "all":        # any size, every element holds the whole reduction
        v = op([x for r in m for x in r])
        return [[v] * cols for _ in range(rows)]
    # 2x2: result (r, c) combines (2r, 2c), (2r+1, 2c), (2r, 2c+1), (2r+1, 2c+1)
    return [[op([m[2 * i][2 * j], m[2 * i + 1][2 * j], m[2 * i][2 * j + 1], m[2 * i + 1][2 * j + 1]])
             for j in range(cols)] for i in range(rows)]


def flat(ms):
    return [x for m in ms for r in m for x in r]


def reduce_resize(d):
    a = load(os.path.join(d, "a.bin"), "f")
    h = load(os.path.join(d, "h.bin"), "e")

    def sub(src, width, r0, c0, rows, cols):
        return [[src[(r0 + i) * width + c0 + j] for j in range(cols)] for i in range(rows)]

    m, big = sub(a, 32, 0, 0, 16, 16), sub(a, 32, 0, 0, 32, 32)
    tall, wide = sub(a, 32, 0, 16, 32, 16), sub(a, 32, 16, 0, 16, 32)
    mh = sub(h, 16, 0, 0, 16, 16)
    o = flat([reduce(m, "row", sum, 16, 8), reduce(m, "row", max, 16, 32),
              reduce(m, "column", sum, 8, 16), reduce(m, "column", min, 32, 16),
              reduce(m, "all", sum, 8, 8), reduce(m, "all", max, 32, 16),
              reduce(big, "all", sum, 16, 16), reduce(tall, "2x2", sum, 16, 8),
              reduce(wide, "2x2", max, 8, 16),
              # workgroup scope
              reduce(big, "row", sum, 32, 16), reduce(big, "all", min, 16, 32),
              reduce(big, "column", max, 16, 32), reduce(big, "2x2", sum, 16, 16)])
    oh = flat([reduce(mh, "row", sum, 16, 32), reduce(mh, "all", sum, 8, 16),
               reduce(mh, "column", min, 8, 16), reduce(mh, "2x2", max, 8, 8)])
    return {"o.expected.bin": ("f", o), "oh.expected.bin": ("e", oh)}


def workgroup_flex(d):
    M, N, K, P = 48, 80, 32, 16
    a = load(os.path.join(d, "a.bin"), "e")
    b = load(os.path.join(d, "b.bin"), "e")
    c = load(os.path.join(d, "c.bin"), "f")
    b2 = load(os.path.join(d, "b2.bin"), "e")
    acc = [[sum(a[i * K + k] * b[k * N + j] for k in range(K)) for j in range(N)] for i in range(M)]
    # mix4(row, col, e, other, s = 3, k = 5) = e*s + row - 2*col + other + k
    r = [[acc[i][j] * 3 + i - 2 * j + c[i * N + j] + 5 for j in range(N)] for i in range(M)]
    t = [[r[i][j] for i in range(M)] for j in range(N)]
    dd = [[sum(r[i][n] * b2[n * P + j] for n in range(N)) for j in range(P)] for i in range(M)]
    return {"r.expected.bin": ("f", flat([r])), "t.expected.bin": ("e", flat([t])),
            "d.expected.bin": ("f", flat([dd]))}


def tensor_pointee_size(d):
    """Element index times the size of the matrix's component type (not of the
    buffer's element type) is the byte offset from the pointer."""
    w32 = open(os.path.join(d, "w32.bin"), "rb").read()
    w16 = open(os.path.join(d, "w16.bin"), "rb").read()
    s32 = bytearray(open(os.path.join(d, "s32.bin"), "rb").read())
    s16 = bytearray(open(os.path.join(d, "s16.bin"), "rb").read())
    # 20x24 layout; 8-bit matrix at slice (1, 3) from word 4 (byte 16),
    # 32-bit matrix at slice (2, 5) from half 8 (byte 16)
    i8 = [(1 + r) * 24 + 3 + c for r in range(16) for c in range(16)]
    i32 = [(2 + r) * 24 + 5 + c for r in range(16) for c in range(16)]
    d8 = [w32[16 + i] for i in i8]
    d32 = [struct.unpack_from("<I", w16, 16 + 4 * i)[0] for i in i32]
    for i, v in zip(i8, d8):
        s32[16 + i] = v
    for i, v in zip(i32, d32):
        struct.pack_into("<I", s16, 16 + 4 * i, v)
    return {"d8.expected.bin": ("B", d8), "d32.expected.bin": ("I", d32),
            "s32.expected.bin": ("B", list(s32)), "s16.expected.bin": ("B", list(s16))}


def e4m3_value(b):
    """The value of an E4M3 byte (OCP FP8: bias 7, no infinities; 0x7f/0xff are NaN)."""
    sign = -1.0 if b & 0x80 else 1.0
    e, m = (b >> 3) & 15, b & 7
    if e == 0:
        return sign * (m / 8.0) * 2.0 ** -6
    return sign * (1 + m / 8.0) * 2.0 ** (e - 7)


def round_half_even_sat8(x):
    """SPV_NV_cooperative_vector float -> s8 input conversion: nearest even, saturating."""
    return max(-128, min(127, round(x)))  # Python's round() ties to even


def coopvec_optimal(d):
    """Products of SPV_NV_cooperative_vector.  Every product and partial sum is
    exact (the inputs were chosen so), so the order of the additions does not
    matter, and the float results are the exact sums rounded once to f16.  The
    optimal layouts hold the matrices as vkrun's row-major files (coopvm's
    definition; vkrun converts them for the hardware).  The E4M3 interpretation
    of f16 inputs keeps their f16 precision (SPEC_NOTES.md): o2's inputs have
    bits E4M3 cannot hold."""
    n = 64
    xa, xb = load(os.path.join(d, "xa.bin"), "e"), load(os.path.join(d, "xb.bin"), "e")
    xh, xi = load(os.path.join(d, "xh.bin"), "e"), load(os.path.join(d, "xi.bin"), "b")
    xf = load(os.path.join(d, "xf.bin"), "f")
    we = [e4m3_value(b) for b in open(os.path.join(d, "we.bin"), "rb").read()[:24 * 16]]
    wh = load(os.path.join(d, "wh.bin"), "e")[:32 * 24]
    wi = load(os.path.join(d, "wi.bin"), "b")[:24 * 32]
    wc = load(os.path.join(d, "wc.bin"), "b")
    bh, bi = load(os.path.join(d, "bh.bin"), "e"), load(os.path.join(d, "bi.bin"), "i")
    o1, o2, o3, o4, o5 = [], [], [], [], []
    for i in range(n):
        a, b = xa[i * 16:(i + 1) * 16], xb[i * 16:(i + 1) * 16]
        h, q = xh[i * 32:(i + 1) * 32], xi[i * 32:(i + 1) * 32]
        f = [round_half_even_sat8(v) for v in xf[i * 32:(i + 1) * 32]]
        for j in range(24):
            o1.append(bh[j] + sum(we[j * 16 + k] * a[k] for k in range(16)))
            o2.append(bh[24 + j] + sum(we[j * 16 + k] * b[k] for k in range(16)))
            # transposed: the stored matrix is 32 x 24, element (j, k) of the
            # product's 24 x 32 matrix is stored element (k, j)
            o3.append(bh[48 + j] + sum(wh[k * 24 + j] * h[k] for k in range(32)))
            s4 = bi[j] + sum(wi[j * 32 + k] * q[k] for k in range(32))
            s5 = bi[24 + j] + sum(wc[k * 32 + j] * f[k] for k in range(32))
            o4.append((s4 + 2 ** 31) % 2 ** 32 - 2 ** 31)
            o5.append((s5 + 2 ** 31) % 2 ** 32 - 2 ** 31)
    def f16(values):  # the exact sums rounded once to f16, to nearest even
        return [struct.unpack("<e", struct.pack("<e", v))[0] for v in values]

    return {"o1.expected.bin": ("e", f16(o1)), "o2.expected.bin": ("e", f16(o2)),
            "o3.expected.bin": ("e", f16(o3)), "o4.expected.bin": ("i", o4),
            "o5.expected.bin": ("i", o5)}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    bad = 0
    for case, model in (("reduce_resize", reduce_resize), ("workgroup_flex", workgroup_flex),
                        ("tensor_pointee_size", tensor_pointee_size),
                        ("coopvec_optimal", coopvec_optimal)):
        d = os.path.join(root, case)
        for name, (fmt, values) in model(d).items():
            got = load(os.path.join(d, name), fmt)
            diff = [i for i, (x, y) in enumerate(zip(values, got)) if x != y]
            if len(got) != len(values) or diff:
                bad += 1
                print("%s/%s: %d of %d values differ from the model (first at %s)"
                      % (case, name, len(diff), len(values), diff[:1]))
            else:
                print("%s/%s: %d values equal the model" % (case, name, len(values)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
