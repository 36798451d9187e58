#!/usr/bin/env python3
"""Writes the input buffers of the cases in this folder.

The data is deterministic (a 64-bit xorshift from a fixed seed per case), so
running this again reproduces the committed .bin files byte for byte.
Usage: make_inputs.py [--check] [CASES_DIR]
With --check nothing is written: each file is compared with what would be
written, and the exit status is 1 if any differs (a ctest runs this).
"""
import os
import struct
import sys


class XorShift:
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF or 1

    def next32(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        self.s = s
        return s >> 32

    def int_in(self, lo, hi):
        return lo + self.next32() % (hi - lo + 1)


def e4m3_bits(v):
    """The E4M3 pattern of v, which must be exactly representable (|v| <= 448)."""
    if v == 0.0:
        return 0x80 if str(v).startswith("-") else 0
    sign = 0x80 if v < 0 else 0
    a = abs(v)
    for bits in range(0x7F):
        e, m = bits >> 3, bits & 7
        val = (m / 8.0) * 2.0 ** -6 if e == 0 else (1 + m / 8.0) * 2.0 ** (e - 7)
        if val == a:
            return sign | bits
    raise ValueError("%r is not an E4M3 value" % v)


CHECK = False
MISMATCHES = []


def write(path, fmt, values):
    if len(fmt) == 1:
        fmt = "%d%s" % (len(values), fmt)
    data = struct.pack("<" + fmt, *values)
    if CHECK:
        try:
            with open(path, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            MISMATCHES.append(path)
        return
    with open(path, "wb") as f:
        f.write(data)


def main():
    global CHECK
    args = sys.argv[1:]
    if args and args[0] == "--check":
        CHECK = True
        args = args[1:]
    root = args[0] if args else os.path.dirname(os.path.abspath(__file__))

    d = os.path.join(root, "tensor_view_nd")
    r = XorShift(0x7E50F4D1)
    write(os.path.join(d, "src.bin"), "I", [r.next32() for _ in range(480)])
    write(os.path.join(d, "dst.bin"), "I", [0] * (8 * 256))
    write(os.path.join(d, "st4.bin"), "I", [r.next32() for _ in range(480)])
    write(os.path.join(d, "st5.bin"), "I", [r.next32() for _ in range(480)])

    # decode_block2d and decode_vector_block2d read the same blocks
    r = XorShift(0xB10C2D)
    wq = [r.next32() for _ in range(572)]
    for case in ("decode_block2d", "decode_vector_block2d"):
        d = os.path.join(root, case)
        write(os.path.join(d, "wq.bin"), "I", wq)
        write(os.path.join(d, "dst.bin"), "I", [0] * (9 * 256))

    d = os.path.join(root, "reduce_resize")
    r = XorShift(0x5EDCE)
    write(os.path.join(d, "a.bin"), "f", [float(r.int_in(-16, 16)) for _ in range(32 * 32)])
    write(os.path.join(d, "h.bin"), "e", [float(r.int_in(-4, 4)) for _ in range(16 * 16)])
    write(os.path.join(d, "o.bin"), "f", [0.0] * 4160)
    write(os.path.join(d, "oh.bin"), "e", [0.0] * 832)

    d = os.path.join(root, "workgroup_flex")
    r = XorShift(0xF1E8)
    M, N, K, P = 48, 80, 32, 16
    write(os.path.join(d, "a.bin"), "e", [float(r.int_in(-2, 2)) for _ in range(M * K)])
    write(os.path.join(d, "b.bin"), "e", [float(r.int_in(-2, 2)) for _ in range(K * N)])
    write(os.path.join(d, "c.bin"), "f", [float(r.int_in(-16, 16)) for _ in range(M * N)])
    write(os.path.join(d, "b2.bin"), "e", [float(r.int_in(-1, 1)) for _ in range(N * P)])
    write(os.path.join(d, "r.bin"), "f", [0.0] * (M * N))
    write(os.path.join(d, "t.bin"), "e", [0.0] * (N * M))
    write(os.path.join(d, "d.bin"), "f", [0.0] * (M * P))

    d = os.path.join(root, "tensor_pointee_size")
    r = XorShift(0x90147EE)
    write(os.path.join(d, "w32.bin"), "I", [r.next32() for _ in range(512)])
    write(os.path.join(d, "w16.bin"), "H", [r.next32() & 0xFFFF for _ in range(1024)])
    write(os.path.join(d, "d8.bin"), "B", [0] * 256)
    write(os.path.join(d, "d32.bin"), "I", [0] * 256)
    write(os.path.join(d, "s32.bin"), "I", [r.next32() for _ in range(512)])
    write(os.path.join(d, "s16.bin"), "H", [r.next32() & 0xFFFF for _ in range(1024)])

    d = os.path.join(root, "callback_private")
    r = XorShift(0xCA11E4)
    write(os.path.join(d, "src.bin"), "I", [r.int_in(0, 65535) for _ in range(32 * 32)])
    write(os.path.join(d, "blk.bin"), "I", [r.int_in(0, 65535) for _ in range(32 * 32)])
    write(os.path.join(d, "params.bin"), "I", [r.int_in(1, 999) for _ in range(2)])
    write(os.path.join(d, "dst.bin"), "I", [0] * (2 * 3 * 4608))

    # bda_gemm: the uniform block's four addresses are written at run time
    d = os.path.join(root, "bda_gemm")
    r = XorShift(0xBDA6E)
    M, N, K = 64, 48, 80
    write(os.path.join(d, "params.bin"), "QQQQIIIf", [0, 0, 0, 0, M, N, K, 2.0])
    write(os.path.join(d, "a.bin"), "e", [float(r.int_in(-3, 3)) for _ in range(M * K)])
    write(os.path.join(d, "b.bin"), "e", [float(r.int_in(-3, 3)) for _ in range(K * N)])
    write(os.path.join(d, "c.bin"), "f", [float(r.int_in(-8, 8)) for _ in range(M * N)])
    write(os.path.join(d, "d.bin"), "f", [0.0] * (M * N))

    # qcom_s8_gemm: 2 workgroups x 64 invocations, per-invocation arrays
    d = os.path.join(root, "qcom_s8_gemm")
    r = XorShift(0x0C0E5A)
    n = 2 * 64
    write(os.path.join(d, "a.bin"), "I", [r.next32() for _ in range(n * 8)])
    write(os.path.join(d, "b.bin"), "b", [r.int_in(0, 255) - 128 for _ in range(n * 32)])
    write(os.path.join(d, "c.bin"), "i", [r.int_in(0, 1 << 21) - (1 << 20) for _ in range(n * 24)])
    write(os.path.join(d, "fa.bin"), "f", [float(r.int_in(0, 8) - 4) for _ in range(n * 8)])
    write(os.path.join(d, "fb.bin"), "f", [float(r.int_in(0, 8) - 4) for _ in range(n * 32)])
    write(os.path.join(d, "st.bin"), "i", [r.int_in(0, 24) for _ in range(n)])
    write(os.path.join(d, "d.bin"), "i", [0] * (4 * 16 * 24))
    write(os.path.join(d, "r.bin"), "I", [0] * (4 * 16 * 24))
    write(os.path.join(d, "e.bin"), "f", [0.0] * (4 * 16 * 16))
    write(os.path.join(d, "h.bin"), "I", [0] * (4 * 16 * 8))
    write(os.path.join(d, "h2.bin"), "I", [0] * (4 * 16 * 8))

    d = os.path.join(root, "coopvec_optimal")
    r = XorShift(0xC00B7EC)
    n = 64
    sa = [0.0, 0.125, 0.25, 0.375, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5]
    sw = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0]

    def pick(vals):
        v = vals[r.int_in(0, len(vals) - 1)]
        return -v if r.int_in(0, 1) else v

    def pad(vals, count, zero=0):
        return vals + [zero] * (count - len(vals))

    write(os.path.join(d, "xa.bin"), "e", [pick(sa) for _ in range(n * 16)])
    write(os.path.join(d, "xb.bin"), "e", [r.int_in(-32, 32) / 8.0 for _ in range(n * 16)])
    # o3's operands are small enough that every partial sum, in any order, is
    # exact in f16 (multiples of 1/64 below 32 in magnitude): the H100 computes
    # this transposed f16 product with partial sums of less than f32 precision
    # (4 of 1536 results one ulp off the exact, f16-representable sum when
    # they needed 13 bits), which the cooperative-vector text leaves open
    write(os.path.join(d, "xh.bin"), "e", [r.int_in(-8, 8) / 8.0 for _ in range(n * 32)])
    write(os.path.join(d, "xi.bin"), "b", [r.int_in(-128, 127) for _ in range(n * 32)])
    special = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.49, 3.5, 4.5, 126.5, 127.49, 127.5, 128.0,
               300.25, -127.5, -128.5, -129.0, -1000.0, 0.0, -0.0, 7.0, -7.0, 1.0000001,
               2.4999998]
    xf = []
    for _ in range(n * 32):
        k = r.int_in(0, 2)
        xf.append(special[r.int_in(0, len(special) - 1)] if k == 0 else
                  float(r.int_in(-20, 20)) if k == 1 else r.int_in(-400, 400) / 4.0)
    write(os.path.join(d, "xf.bin"), "f", xf)
    # matrices: row-major as stored (vkrun converts them to the optimal layouts)
    write(os.path.join(d, "we.bin"), "B", pad([e4m3_bits(pick(sw)) for _ in range(24 * 16)], 4096))
    write(os.path.join(d, "wh.bin"), "e", pad([r.int_in(-6, 6) / 8.0 for _ in range(32 * 24)],
                                              2048, 0.0))
    write(os.path.join(d, "wi.bin"), "b", pad([r.int_in(-128, 127) for _ in range(24 * 32)], 4096))
    # column-major, stride 32: column c holds rows 0..23 in bytes c*32 .. c*32+23, then 8
    # bytes of padding the product must not read
    write(os.path.join(d, "wc.bin"), "b", [r.int_in(-128, 127) for _ in range(32 * 32)])
    write(os.path.join(d, "bh.bin"), "e", [r.int_in(-256, 256) / 32.0 for _ in range(24 * 3)])
    write(os.path.join(d, "bi.bin"), "i", [r.int_in(0, 2000000) - 1000000 for _ in range(48)])
    for name, fmt, count in (("o1.bin", "e", 24), ("o2.bin", "e", 24), ("o3.bin", "e", 24),
                             ("o4.bin", "i", 24), ("o5.bin", "i", 24)):
        write(os.path.join(d, name), fmt, [0] * (n * count))

    if CHECK:
        for path in MISMATCHES:
            print("differs from its generator: %s" % path)
        print("%d input files differ" % len(MISMATCHES))
        return 1 if MISMATCHES else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
