#!/usr/bin/env python3
"""Writes the input buffers of the benchmark cases in this folder.

Deterministic (a 64-bit xorshift from a fixed seed per case): running this
again reproduces the same bytes.  Usage: make_inputs.py [--check] [DIR]
With --check nothing is written; each file is compared with what would be
written and the exit status is 1 if any differs.  Output buffers have no
input file: the AmberScripts FILL them with zeros and vkrun zero-fills them.
"""
import os
import struct
import sys

M = N = K = 1024
SOFTMAX_ROWS = SOFTMAX_COLS = 512


class XorShift:
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF or 1

    def next64(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        self.s = s
        return s

    def bytes(self, n):
        out = bytearray()
        while len(out) < n:
            out += self.next64().to_bytes(8, "little")
        return bytes(out[:n])

    def uniform(self):
        """[-1, 1) with 24 random bits."""
        return ((self.next64() >> 40) - (1 << 23)) / float(1 << 23)


def f16_values(r, n):
    return struct.pack("<%de" % n, *[r.uniform() for _ in range(n)])


def bf16_values(r, n):
    """Uniform [-1, 1) rounded to bfloat16 (nearest, ties to even)."""
    out = bytearray()
    for _ in range(n):
        (u,) = struct.unpack("<I", struct.pack("<f", r.uniform()))
        u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
        out += struct.pack("<H", u)
    return bytes(out)


def q4_blocks(r, rows, k):
    """rows * k/32 blocks: f16 scale in [0.002, 0.02), then 16 bytes of codes."""
    out = bytearray()
    for _ in range(rows * (k // 32)):
        d = 0.002 + 0.009 * (r.uniform() + 1.0)
        out += struct.pack("<e", d)
        out += r.bytes(16)
    return bytes(out)


CHECK = False
MISMATCHES = []


def write(path, data):
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

    d = os.path.join(root, "bench_gemm_decode_q4")
    r = XorShift(0x51A7E0C4D3B2A190)
    write(os.path.join(d, "a.bin"), q4_blocks(r, M, K))
    write(os.path.join(d, "x.bin"), f16_values(r, N * K))

    d = os.path.join(root, "bench_gemm_s8_workgroup")
    r = XorShift(0x5EED0008A1B2C3D4)
    write(os.path.join(d, "a.bin"), r.bytes(M * K))
    write(os.path.join(d, "b.bin"), r.bytes(N * K))

    d = os.path.join(root, "bench_gemm_bf16_workgroup")
    r = XorShift(0xBF16BF16C0FFEE11)
    write(os.path.join(d, "a.bin"), bf16_values(r, M * K))
    write(os.path.join(d, "b.bin"), bf16_values(r, N * K))

    d = os.path.join(root, "bench_softmax_rows")
    r = XorShift(0x50F7A3A7C0FFEE22)
    n = SOFTMAX_ROWS * SOFTMAX_COLS
    write(os.path.join(d, "x.bin"), struct.pack("<%df" % n, *[4.0 * r.uniform() for _ in range(n)]))

    if MISMATCHES:
        for p in MISMATCHES:
            print("differs: %s" % p)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
