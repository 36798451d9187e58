#!/usr/bin/env python3
"""The heat map of a deliberately wrong result (coopvm run --diff-image).

copy_tiles.spv copies a 32 x 48 f32 matrix (values 0, 1, 2 ... row-major)
in 16 x 16 cooperative-matrix tiles stored with stride 48.  The script
written here expects three elements to be different:
    (row 17, column 5)  +100   the worst, inside a tile
    (row 15, column 3)  +2     on a tile border (row 15 = 16 - 1)
    (row 0, column 40)  +1     on a tile border (row 0)
so the run fails, and the picture and text must say where.  The width, 48,
comes from the shader's store (nothing on the command line says it); the
picture has max(1, min(8, 512 // 48)) = 8 pixels per value side.  The PNG is
read back with libpng (png_probe).

  check_diff_image.py COOPVM PNG_PROBE|-   ("-": coopvm was built without
                                            libpng; the option must say so)
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS, COLS, TILE = 32, 48, 16
WRONG = {(17, 5): 100.0, (15, 3): 2.0, (0, 40): 1.0}
results = []


def expect(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    results.append(bool(cond))


def main():
    coopvm, probe = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp()
    values = [float(i) for i in range(ROWS * COLS)]
    wrong = list(values)
    for (r, c), d in WRONG.items():
        wrong[r * COLS + c] += d
    with open(os.path.join(tmp, 'src.bin'), 'wb') as f:
        f.write(struct.pack('<%df' % len(values), *values))
    with open(os.path.join(tmp, 'wrong.bin'), 'wb') as f:
        f.write(struct.pack('<%df' % len(wrong), *wrong))
    script = os.path.join(tmp, 'wrong.amber')
    with open(script, 'w') as f:
        f.write('#!amber\n'
                'DEVICE_EXTENSION VK_KHR_cooperative_matrix\n'
                'SHADER compute copy SPIRV-BIN FILE %s\n'
                'BUFFER src DATA_TYPE float SIZE %d FILE BINARY src.bin\n'
                'BUFFER dst DATA_TYPE float SIZE %d FILL 0\n'
                'BUFFER want DATA_TYPE float SIZE %d FILE BINARY wrong.bin\n'
                'PIPELINE compute p\n'
                '  ATTACH copy\n'
                '  BIND BUFFER src AS storage DESCRIPTOR_SET 0 BINDING 0\n'
                '  BIND BUFFER dst AS storage DESCRIPTOR_SET 0 BINDING 1\n'
                'END\n'
                'RUN p 1 1 1\n'
                'EXPECT dst EQ_BUFFER want\n' % (os.path.join(HERE, 'copy_tiles.spv'),
                                                 ROWS * COLS, ROWS * COLS, ROWS * COLS))
    png = os.path.join(tmp, 'diff.png')
    p = subprocess.run([coopvm, 'run', script, '--diff-image', png], capture_output=True,
                       text=True)
    out = p.stdout + p.stderr
    print(out)
    if probe == '-':
        expect(p.returncode == 1 and '--diff-image needs libpng' in out,
               'without libpng the option says it needs libpng')
        print('%d passed, %d failed' % (results.count(True), results.count(False)))
        return 0 if all(results) else 1

    # the text report: rows, columns, tile borders
    first = min(r * COLS + c for r, c in WRONG)
    fr, fc = divmod(first, COLS)
    worst = max(WRONG, key=WRONG.get)
    border = sum(1 for r, c in WRONG if r % TILE in (0, TILE - 1) or c % TILE in (0, TILE - 1))
    line = ('as a %d x %d matrix (width from the shader\'s cooperative-matrix stores): first '
            'failing element at row %d, column %d; worst at row %d, column %d; %d of the %d '
            'failing elements lie on a border of the %dx%d tiles' % (
                ROWS, COLS, fr, fc, worst[0], worst[1], border, len(WRONG), TILE, TILE))
    expect(p.returncode == 1 and line in out, 'text: ' + line)

    scale = max(1, min(8, 512 // COLS))
    w, h = COLS * scale, ROWS * scale
    expect('wrote %s: %d x %d pixels, %d per value side' % (png, w, h, scale) in out,
           'the tool says what it wrote')
    # read it back: size, the blue worst cell, the colours of the others
    pts = []
    centre = lambda r, c: (c * scale + scale // 2, r * scale + scale // 2)
    for cell in list(WRONG) + [(0, 0), (31, 47)]:
        pts += centre(*cell)
    q = subprocess.run([probe, png] + [str(v) for v in pts], capture_output=True, text=True)
    info = q.stdout.splitlines()
    print(q.stdout + q.stderr)
    expect(q.returncode == 0 and info[0] == 'size %d %d' % (w, h), 'PNG size %d x %d' % (w, h))
    wr, wc = worst
    box = 'blue %d %d %d %d %d' % (wc * scale, wr * scale, wc * scale + scale - 1,
                                   wr * scale + scale - 1, scale * scale)
    expect(len(info) > 1 and info[1] == box,
           'exactly the worst element (row %d, column %d) is blue: %s' % (wr, wc, box))
    pixels = {}
    for ln in info[2:]:
        f = ln.split()
        pixels[(int(f[1]), int(f[2]))] = tuple(int(v) for v in f[3:6])
    maxe = max(d for d in WRONG.values())
    for cell, d in WRONG.items():
        if cell == worst:
            continue
        g = int(255.0 * (1.0 - d / maxe) + 0.5)
        expect(pixels.get(centre(*cell)) == (255, g, 0),
               'failing element %s with error %g: (255, %d, 0)' % (cell, d, g))
    for cell in ((0, 0), (31, 47)):
        expect(pixels.get(centre(*cell)) == (255, 255, 255), 'passing element %s: white'
               % (cell,))
    print('%d passed, %d failed' % (results.count(True), results.count(False)))
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
