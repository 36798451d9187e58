#!/usr/bin/env python3
"""Closed-form models of the cases whose results are plain arithmetic.

reduce_resize and workgroup_flex use small integers, so every sum is exact
and the result does not depend on the order an implementation combines
elements in; coopvec_optimal's values are chosen so that its sums are exact
too; tensor_pointee_size only moves bytes. This script computes their outputs from the inputs and the
extension texts alone (no engine code) and compares them with the recorded
expected outputs, so a wrongly recorded or wrongly copied expectation fails a
test of its own. Exit status 1 on any difference.
qcom_s8_gemm has no hardware to record it: `models.py --write qcom_s8_gemm`
wrote its expected outputs, and the same comparison keeps them honest.
Usage: models.py [CASES_DIR] | models.py --write CASE...
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


def callback_private(d):
    """Callbacks that read Private variables set in main: with values uniform
    over the scope instance, each call sees the values of the loop iteration
    and workgroup (and subgroup) it is called from."""
    M32 = 0xFFFFFFFF
    src = load(os.path.join(d, "src.bin"), "I")
    blk = load(os.path.join(d, "blk.bin"), "I")
    bias = load(os.path.join(d, "params.bin"), "I")
    out = []
    for wg in range(2):
        for it in range(3):
            wg_base = wg * 100000 + it * 1000
            sec = [0] * 4608
            ps = {}
            for sg in range(2):
                sg_base = sg * 10000000 + it
                for r in range(16):
                    for c in range(16):
                        e = src[(sg * 16 + r) * 32 + c]
                        ps[sg, r, c] = (e * 3 + wg_base + sg_base + (r << 8) + c) & M32
                        sec[sg * 256 + r * 16 + c] = ps[sg, r, c]
                        # decode: tensor element (row, col) of a 32x32 tensor in 1x4 blocks,
                        # block (row, col / 4) holds the words blk[(row * 8 + col / 4) * 4 ...]
                        row, col = 8 * sg + it + r, 4 * it + c
                        q = blk[(row * 8 + col // 4) * 4 + col % 4]
                        sec[1536 + sg * 256 + r * 16 + c] = (q + wg_base + sg_base + ((col // 4) << 12)) & M32
                for r in range(16):
                    v = (sum(ps[sg, r, c] for c in range(16)) + 15 * bias[wg]) & M32
                    for c in range(16):
                        sec[3072 + sg * 256 + r * 16 + c] = v
            total = (sum(src) + 1023 * bias[wg]) & M32
            for r in range(32):
                for c in range(32):
                    sec[512 + r * 32 + c] = (src[r * 32 + c] * 5 + wg_base + (c << 8) + r) & M32
                    q = blk[(r * 8 + c // 4) * 4 + c % 4]
                    sec[2048 + r * 32 + c] = (q * 7 + wg_base + (r << 12)) & M32
                    sec[3584 + r * 32 + c] = total
            out += sec
    return {"dst.expected.bin": ("I", out)}


def bda_gemm(d):
    """D = alpha * (A * B + C), A row-major M x K, B column-major K x N."""
    M, N, K, alpha = 64, 48, 80, 2.0
    a = load(os.path.join(d, "a.bin"), "e")
    b = load(os.path.join(d, "b.bin"), "e")
    c = load(os.path.join(d, "c.bin"), "f")
    out = [alpha * (sum(a[i * K + k] * b[j * K + k] for k in range(K)) + c[i * N + j])
           for i in range(M) for j in range(N)]
    return {"d.expected.bin": ("f", out)}
def qcom_s8_gemm(d):
    """SPV_QCOM_cooperative_matrix_conversion, read from the text alone: the
    array of invocation i of a subgroup is row i of a MatrixA or accumulator
    and column i of a MatrixB, arrays of the invocations past the rows or
    columns are ignored, and a uint32 array holds the elements packed, the
    lowest element in the lowest bits. extractSubArrayQCOM(src, s, dst) is
    dst[i] = src[s + i]; bitcastQCOM keeps the bits. No hardware runs this
    extension: the recorded outputs were written by this model
    (models.py --write qcom_s8_gemm)."""
    a = load(os.path.join(d, "a.bin"), "I")
    b = load(os.path.join(d, "b.bin"), "b")
    c = load(os.path.join(d, "c.bin"), "i")
    fa = load(os.path.join(d, "fa.bin"), "I")
    fb = load(os.path.join(d, "fb.bin"), "f")
    st = load(os.path.join(d, "st.bin"), "i")

    def s8(v):
        return v - 256 if v >= 128 else v

    def f16_bits(x):
        return struct.unpack("<H", struct.pack("<e", x))[0]

    out = {"d": [], "r": [], "e": [], "h": []}
    for sub in range(4):                 # 2 workgroups x 2 subgroups of 32
        inv = [sub * 32 + i for i in range(32)]
        # A 16x32: row i is invocation i's 8 words, four s8 a word
        A = [[s8((a[inv[i] * 8 + k // 4] >> (8 * (k % 4))) & 0xFF) for k in range(32)]
             for i in range(16)]
        # B 32x24: column j is invocation j's 32 s8
        B = [[b[inv[j] * 32 + k] for j in range(24)] for k in range(32)]
        C = [[c[inv[i] * 24 + j] for j in range(24)] for i in range(16)]
        D = [[C[i][j] + sum(A[i][k] * B[k][j] for k in range(32)) for j in range(24)]
             for i in range(16)]
        out["d"] += [x for row in D for x in row]
        out["r"] += [x & 0xFFFFFFFF for row in D for x in row]   # s32 as uint32 words
        # f32 A 16x8 from packed words (one f32 a word: the word is the float's bits)
        FA = [[struct.unpack("<f", struct.pack("<I", fa[inv[i] * 8 + k]))[0] for k in range(8)]
              for i in range(16)]
        # B 8x16: column j is invocation j's 32 floats from st[j] on
        FB = [[fb[inv[j] * 32 + st[inv[j]] + k] for j in range(16)] for k in range(8)]
        E = [[sum(FA[i][k] * FB[k][j] for k in range(8)) for j in range(16)] for i in range(16)]
        out["e"] += [x for row in E for x in row]
        out["h"] += [f16_bits(E[i][2 * w]) | f16_bits(E[i][2 * w + 1]) << 16
                     for i in range(16) for w in range(8)]
    return {"d.expected.bin": ("i", out["d"]), "r.expected.bin": ("I", out["r"]),
            "e.expected.bin": ("f", out["e"]), "h.expected.bin": ("I", out["h"]),
            "h2.expected.bin": ("I", out["h"])}


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


MODELS = (("reduce_resize", reduce_resize), ("workgroup_flex", workgroup_flex),
          ("tensor_pointee_size", tensor_pointee_size), ("qcom_s8_gemm", qcom_s8_gemm),
          ("callback_private", callback_private), ("bda_gemm", bda_gemm),
          ("coopvec_optimal", coopvec_optimal))
# Cases no hardware can record: their expected outputs are this model's.
MODEL_ONLY = ("qcom_s8_gemm",)
# Cases prepared without the hardware and not recorded yet: their expected
# outputs are this model's until the recording replaces them.
PENDING_RECORDING = ()


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    if args and args[0] == "--write":
        # writes the expected outputs of a case no hardware can record
        for case in args[1:]:
            if case not in MODEL_ONLY + PENDING_RECORDING:
                sys.exit("%s is recorded on hardware; the model only checks it" % case)
            d = os.path.join(here, case)
            for name, (fmt, values) in dict(MODELS)[case](d).items():
                with open(os.path.join(d, name), "wb") as f:
                    f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
        return 0
    root = args[0] if args else here
    bad = 0
    for case, model in MODELS:
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
