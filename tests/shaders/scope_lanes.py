#!/usr/bin/env python3
"""The EXPECT lines of tests/jit/scope_lanes*.amber, from a model of
scope_lanes.comp written from its GLSL alone: f32 arithmetic rounded as the
shader's, coopvm's element ownership (an invocation's element i of a
subgroup matrix is the row-major element lane * Length + i, Length =
ceil(256 / invocations of the subgroup); docs of ops/composite.c), atomics
in invocation order within a workgroup.
usage: scope_lanes.py INVOCATIONS   (64: two full subgroups; 48: one partial)
"""
import struct, sys
def f2u(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def f32(x): return struct.unpack('<f', struct.pack('<f', x))[0]
def run(local, groups=2, sg=32):
    nsub = (local + sg - 1)//sg
    v = [float(i) for i in range(groups*nsub*256)]
    out_v = list(v); o = {}; c = [0]*groups
    for wg in range(groups):
        for s in range(nsub):
            lanes = min(sg, local - s*sg); L = (256 + lanes - 1)//lanes
            tile = (wg*nsub + s)*256
            m = [v[tile+k] for k in range(256)]
            res = list(m)
            for lane in range(lanes):
                li = s*sg + lane
                mine = [f32((li*8+i)*0.5) for i in range(8)]
                for i in range(L):
                    flat = lane*L + i
                    if flat < 256: res[flat] = f32(f32(m[flat]*2.0) + mine[i % 8])
            for r in range(16):
                for cc in range(16):
                    out_v[tile + cc*16 + r] = res[r*16+cc]
            ssum = sum(s*sg + lane for lane in range(lanes))
            for lane in range(lanes):
                li = s*sg + lane; gi = wg*local + li
                mine = [f32((li*8+i)*0.5) for i in range(8)]
                acc = gi
                for k in range(5): acc = (acc*3 + k + int(mine[k])) & 0xffffffff
                o[gi*8+0] = li*3; o[gi*8+1] = acc; o[gi*8+2] = ssum; o[gi*8+3] = li
                o[gi*8+4] = L; o[gi*8+5] = f2u(mine[li % 8])
                c[wg] += 1
    return out_v, o, c
local = int(sys.argv[1])
vv, o, c = run(local)
picks_v = [0, 144, 256+144, 512+7*16+3, 1023]
if local == 48: picks_v = [0, 144, 256+16*16-1, 512+256+144, 767]
for k in picks_v: print("EXPECT v IDX %d EQ %r" % (k*4, vv[k]))
gis = [0, 1, 33, 2*local-1] if local==64 else [0, 33, 47, 48+40]
for gi in gis:
    print("EXPECT o IDX %d EQ %s" % (gi*32, " ".join(str(o[gi*8+k]) for k in range(6))))
print("EXPECT c IDX 0 EQ %d %d" % (c[0], c[1]))
