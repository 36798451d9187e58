#!/usr/bin/env python3
"""Runs, on coopvm, shaders that do what three Vulkan CTS cooperative-matrix
tests do at the sizes a flexible-dimension granularity of 1 makes the CTS use,
and compares each output with two predictions:
  - "cts": what the CTS's result check expects (vktComputeCooperativeMatrixTests.cpp
    at VK-GL-CTS c57d29f9; lines quoted in ../cts-small-sizes.md);
  - "text": a model of the extension texts (SPV_KHR_cooperative_matrix load/store
    with a vector pointee; SPV_NV_cooperative_matrix2 tensor addressing with a
    block size and a DecodeFunc).
The shaders are written for this check (same addressing arithmetic as the
CTS's generated GLSL, not its text). Tensor layout as in the CTS: a grid of
8 x 8 matrices at subgroup scope (4 x 4 workgroups of 2 x 2 subgroups of 32
invocations), 4 x 4 at workgroup scope (4 x 4 workgroups of WG invocations).

    GLSLANG=/path/to/glslang (16.x; Debian's 12 lacks GL_KHR_cooperative_matrix)
    COOPVM=build/coopvm  python3 docs/cts-small-sizes/replicas.py
"""
import os, random, struct, subprocess, sys, tempfile

GLSLANG = os.environ.get('GLSLANG', 'glslang')
COOPVM = os.environ.get('COOPVM', 'build/coopvm')
TMP = tempfile.mkdtemp(prefix='cvm-cts-small-')

HEAD = """#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
layout(constant_id = 6) const int M = 1;
layout(constant_id = 7) const int N = 1;
layout(constant_id = 8) const int K = 1;
"""
# subgroup scope: 4 x 4 workgroups of 2 x 2 subgroups, one matrix per subgroup
SUBGROUP = """layout(local_size_x = 64, local_size_y = 2) in;
#define SCOPE gl_ScopeSubgroup
#define GRID 8
uvec2 tile() { return gl_WorkGroupID.xy * 2u + uvec2(gl_SubgroupID % 2u, gl_SubgroupID / 2u); }
"""
# workgroup scope: 4 x 4 workgroups of WG invocations, one matrix per workgroup
WORKGROUP = """layout(local_size_x_id = 9) in;
#define SCOPE gl_ScopeWorkgroup
#define GRID 4
uvec2 tile() { return gl_WorkGroupID.xy; }
"""


def compile_run(name, src, spec, bufs, out_binding, wg=0):
    """wg = 0: subgroup scope; else workgroup scope with wg invocations."""
    comp, spv = f'{TMP}/{name}.comp', f'{TMP}/{name}.spv'
    head = HEAD + (WORKGROUP if wg else SUBGROUP)
    open(comp, 'w').write(src.replace('//HEAD', head))
    if wg:
        spec = {**spec, 9: wg}
    subprocess.run([GLSLANG, '-V', '--target-env', 'vulkan1.3', comp, '-o', spv], check=True,
                   stdout=subprocess.DEVNULL)
    cmd = [COOPVM, 'run', spv, '--dispatch', '4,4,1', '--subgroup-size', '32']
    for k, v in spec.items():
        cmd += ['--spec', f'{k}={v}']
    for b, data in bufs.items():
        open(f'{TMP}/b{b}.bin', 'wb').write(data)
        cmd += ['--buffer', f'0:{b}={TMP}/b{b}.bin']
    cmd += ['--out', f'0:{out_binding}={TMP}/out.bin']
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f'{name}: coopvm exit {r.returncode}: {r.stderr}')
    return open(f'{TMP}/out.bin', 'rb').read()


def scope(wg):
    return f'workgroup({wg})' if wg else 'subgroup'


def halves(rnd, n):  # the CTS's float inputs: ((rand & 0xff) - 64) / 2
    return [((rnd.getrandbits(32) & 0xff) - 64.0) / 2.0 for _ in range(n)]


# ---- multicomponent: a vector-typed buffer, offsets and strides divided by the width
def multicomponent(width, save, M, N, wg=0):
    grid = 4 if wg else 8
    vec = f'f16vec{width}'
    a_type, o_type = ('float16_t', vec) if save else (vec, 'float16_t')
    a_div, o_div = ('', f'/{width}') if save else (f'/{width}', '')
    src = "//HEAD" + f"""
layout(binding = 0) buffer Src {{ {a_type} v[]; }} src;
layout(binding = 3) buffer Dst {{ {o_type} v[]; }} dst;
void main()
{{
    uvec2 t = tile();
    uint first = N * GRID * M * t.y + N * t.x;   // the tile's first scalar
    coopmat<float16_t, SCOPE, M, N, gl_MatrixUseA> m;
    coopMatLoad(m, src.v, first{a_div}, N * GRID{a_div}, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(m, dst.v, first{o_div}, N * GRID{o_div}, gl_CooperativeMatrixLayoutRowMajor);
}}
"""
    S = N * grid
    total = S * M * grid
    rnd = random.Random(1)
    A, O0 = halves(rnd, total), halves(rnd, total)
    ob = compile_run(f'mc{width}{"s" if save else "l"}', src, {6: M, 7: N},
                     {0: struct.pack(f'<{total}e', *A), 3: struct.pack(f'<{total}e', *O0)}, 3, wg)
    out = struct.unpack(f'<{total}e', ob)
    # the text: Pointer[i] of a vecW pointee starts at scalar W*i; row r of the
    # matrix is N consecutive scalars from Pointer[r*Stride]; integer division
    # in the shader truncates the offset
    text = list(O0)
    for ty in range(grid):
        for tx in range(grid):  # stores in the order coopvm runs the subgroups
            first = S * M * ty + N * tx
            vfirst = width * (first // width)
            for r in range(M):
                for c in range(N):
                    if save:
                        text[vfirst + r * S + c] = A[first + r * S + c]
                    else:
                        text[first + r * S + c] = A[vfirst + r * S + c]
    cts = sum(out[q] != A[q] for q in range(total))  # the CTS expects output == input
    txt = sum(out[q] != text[q] for q in range(total))
    return f'{scope(wg)} vec{width} {"save" if save else "load"} M={M} N={N}: differs from cts {cts}/{total}, from text {txt}/{total}'


# ---- negate of a matrix loaded through a 2x4-block layout with a DecodeFunc
DECODE_SRC = "//HEAD" + """
layout(binding = 0) buffer Src { float16_t v[]; } src;
layout(binding = 3) buffer Dst { float16_t v[]; } dst;
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Block { float16_t e[8]; };
float16_t decode(const in Block b, const in uint32_t blockCoord[2], const in uint32_t coordInBlock[2])
{
    return b.e[coordInBlock[0] * 4 + coordInBlock[1]] + float16_t((2 * blockCoord[0] + blockCoord[1]) & 3);
}
void main()
{
    uvec2 t = tile();
    tensorLayoutNV<2> in_l = createTensorLayoutNV(2);
    in_l = setTensorLayoutBlockSizeNV(in_l, 2, 4);
    in_l = setTensorLayoutDimensionNV(in_l, M * GRID, N * GRID);
    coopmat<float16_t, SCOPE, M, N, gl_MatrixUseA> m;
    coopMatLoadTensorNV(m, src.v, 0, sliceTensorLayoutNV(in_l, int(M * t.y), M, int(N * t.x), N), decode);
    m = -m;
    tensorLayoutNV<2> out_l = createTensorLayoutNV(2);
    out_l = setTensorLayoutDimensionNV(out_l, M * GRID, N * GRID);
    coopMatStoreTensorNV(m, dst.v, 0, sliceTensorLayoutNV(out_l, int(M * t.y), M, int(N * t.x), N));
}
"""


def decode_negate(M, N, wg=0):
    grid = 4 if wg else 8
    S = N * grid
    total = S * M * grid
    A = halves(random.Random(1), total)
    ob = compile_run('dec', DECODE_SRC, {6: M, 7: N},
                     {0: struct.pack(f'<{total}e', *A), 3: bytes(2 * total)}, 3, wg)
    cts_bad = txt_bad = 0
    for tx in range(grid):
        for ty in range(grid):
            for i in range(M):
                for j in range(N):
                    R, C = ty * M + i, tx * N + j          # tensor coordinate
                    got = struct.unpack_from('<e', ob, 2 * (C + S * R))[0]
                    bc0, bc1 = R // 2, C // 4
                    blk = bc1 + (S // 4) * bc0
                    # CTS: element inside the block from the matrix coordinate (i, j)
                    cts = -(A[blk * 8 + (i % 2) * 4 + j % 4] + ((2 * bc0 + bc1) & 3))
                    # text: coordInBlock = tensor coordinate % blockSize
                    txt = -(A[blk * 8 + (R % 2) * 4 + C % 4] + ((2 * bc0 + bc1) & 3))
                    cts_bad += got != cts
                    txt_bad += got != txt
    n = grid * grid * M * N
    return f'{scope(wg)} decode negate M={M} N={N}: differs from cts {cts_bad}/{n}, from text {txt_bad}/{n}'


# ---- MulAdd of A and B decoded from 4-bit codes in 2x4 blocks, f32 C
DEQUANT_SRC = "//HEAD" + """
layout(binding = 0) buffer SrcA { float16_t v[]; } a;
layout(binding = 1) buffer SrcB { float16_t v[]; } b;
layout(binding = 2) buffer SrcC { float v[]; } c;
layout(binding = 3) buffer Dst { float v[]; } dst;
layout(buffer_reference, std430, buffer_reference_align = 1) buffer Codes { uint8_t q[4]; };
float16_t decode(const in Codes blk, const in uint32_t blockCoord[2], const in uint32_t coordInBlock[2])
{
    uint32_t n = coordInBlock[0] * 4 + coordInBlock[1];
    int32_t code = (int32_t(blk.q[n / 2]) >> ((n & 1) * 4)) & 15;
    return float16_t(0.5 * float((code & 7) - 3) * (1 + code / 8));
}
void main()
{
    uvec2 t = tile();
    tensorLayoutNV<2> la = createTensorLayoutNV(2), lb = createTensorLayoutNV(2), lc = createTensorLayoutNV(2);
    la = setTensorLayoutDimensionNV(setTensorLayoutBlockSizeNV(la, 2, 4), M * GRID, K * GRID);
    lb = setTensorLayoutDimensionNV(setTensorLayoutBlockSizeNV(lb, 2, 4), K * GRID, N * GRID);
    lc = setTensorLayoutDimensionNV(lc, M * GRID, N * GRID);
    coopmat<float16_t, SCOPE, M, K, gl_MatrixUseA> ma;
    coopmat<float16_t, SCOPE, K, N, gl_MatrixUseB> mb;
    coopmat<float, SCOPE, M, N, gl_MatrixUseAccumulator> mc;
    coopMatLoadTensorNV(ma, a.v, 0, sliceTensorLayoutNV(la, int(M * t.y), M, int(K * t.x), K), decode);
    coopMatLoadTensorNV(mb, b.v, 0, sliceTensorLayoutNV(lb, int(K * t.y), K, int(N * t.x), N), decode);
    coopMatLoadTensorNV(mc, c.v, 0, sliceTensorLayoutNV(lc, int(M * t.y), M, int(N * t.x), N));
    mc = coopMatMulAdd(ma, mb, mc);
    coopMatStoreTensorNV(mc, dst.v, 0, sliceTensorLayoutNV(lc, int(M * t.y), M, int(N * t.x), N));
}
"""


def code(buf, n):
    v = (buf[n // 2] >> ((n & 1) * 4)) & 15
    return 0.5 * (((v & 7) - 3) * (1 + v // 8))


def dequant(M, N, K, wg=0):
    grid = 4 if wg else 8
    rnd = random.Random(1)
    SA, SB, SC = K * grid, N * grid, N * grid
    A = bytes(rnd.getrandbits(8) for _ in range(SA * M * grid // 2))
    B = bytes(rnd.getrandbits(8) for _ in range(SB * K * grid // 2))
    C = [((rnd.getrandbits(32) & 0xf) - 4.0) / 2.0 for _ in range(SC * M * grid)]
    ob = compile_run('deq', DEQUANT_SRC, {6: M, 7: N, 8: K},
                     {0: A, 1: B, 2: struct.pack(f'<{len(C)}f', *C), 3: bytes(4 * len(C))}, 3, wg)
    cts_bad = txt_bad = 0
    for tx in range(grid):
        for ty in range(grid):
            for i in range(M):
                for j in range(N):
                    cts = txt = 0.0
                    for k in range(K):
                        ra, ca, rb, cb = ty * M + i, tx * K + k, ty * K + k, tx * N + j
                        ba = ca // 4 + (SA // 4) * (ra // 2)
                        bb = cb // 4 + (SB // 4) * (rb // 2)
                        cts += code(A, ba * 8 + (i % 2) * 4 + k % 4) * code(B, bb * 8 + (k % 2) * 4 + j % 4)
                        txt += code(A, ba * 8 + (ra % 2) * 4 + ca % 4) * code(B, bb * 8 + (rb % 2) * 4 + cb % 4)
                    q = tx * N + j + SC * (ty * M + i)
                    got = struct.unpack_from('<f', ob, 4 * q)[0]
                    cts_bad += got != cts + C[q]  # every value is exact in f32
                    txt_bad += got != txt + C[q]
    n = grid * grid * M * N
    return f'{scope(wg)} dequant MulAdd M={M} N={N} K={K}: differs from cts {cts_bad}/{n}, from text {txt_bad}/{n}'


if __name__ == '__main__':
    for width in (2, 4):
        for save in (False, True):
            for M, N in ((1, 1), (1, 3), (3, 1), (16, 8)):
                print(multicomponent(width, save, M, N))
    for wg in (0, 32, 1024):
        for M, N in ((1, 1), (1, 3), (3, 1)) + (((16, 8), (16, 16)) if wg == 0 else ((4, 8),)):
            print(decode_negate(M, N, wg))
    for wg in (0, 32, 1024):
        for s in ((1, 1, 1), (1, 1, 3), (1, 3, 1), (2, 2, 3), (3, 1, 1)) + \
                 (((16, 8, 8), (16, 16, 16)) if wg == 0 else ((4, 8, 8),)):
            print(dequant(*s, wg))
