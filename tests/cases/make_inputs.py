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

    if CHECK:
        for path in MISMATCHES:
            print("differs from its generator: %s" % path)
        print("%d input files differ" % len(MISMATCHES))
        return 1 if MISMATCHES else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
