#!/usr/bin/env python3
"""An independent model of what the printf_* shaders of this folder print.

Each shader's messages are re-stated here from its GLSL, formatted with
Python's % operator (C's printf rules, and float.hex for %a), in the order
coopvm delivers them: workgroup, then invocation (LocalInvocationIndex),
then the invocation's own order.  Messages of cooperative-matrix callbacks
belong to the invocation that owns the element (with 32 invocations and a
16x16 matrix, element e = 16 * row + col is owned by invocation e // 8; a
CombineFunc's, to the owner of the first element of what it reduces).

  printf_model.py NAME              the lines `coopvm run --printf` writes
  printf_model.py --text NAME       the message texts alone (what a GPU prints)
  printf_model.py --write-inputs    writes blk.bin and combine_src.bin
  printf_model.py --check COOPVM    runs coopvm on every shader (1 thread, all
                                    threads, --check-callbacks) and compares
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def c_hexfloat(x, upper=False):
    """C's %a of a double: shortest hex digits, no trailing zeros."""
    if x == 0:
        s = ('-' if str(x).startswith('-') else '') + '0x0p+0'
    else:
        h = float.hex(x)  # [-]0x1.<13 digits>p<exp>
        sign = '-' if h.startswith('-') else ''
        h = h.lstrip('-')
        mant, exp = h[2:].split('p')
        if '.' in mant:
            ip, fp = mant.split('.')
            fp = fp.rstrip('0')
            mant = ip + ('.' + fp if fp else '')
        e = int(exp)
        s = '%s0x%sp%s%d' % (sign, mant, '+' if e >= 0 else '-', abs(e))
    return s.upper().replace('0X', '0X') if upper else s


def u32(x):
    return x & 0xffffffff


# ---- the shaders -------------------------------------------------------------------

def plain():
    out = []
    for g in range(2):
        for i in range(4):
            s = i - 2
            f = f32(f32(i * 1.25) - 0.5)
            f = f32(f + g)
            m = []
            m.append('int %d %i %u %x %X %o|\n' % (s, s, i + 7, 255 + i, 3054 * (i + 1), 8 + i))
            m.append('float %f %F %e %E %g %G %s %s|\n' % (
                f, f, f32(f * 1000.0), f, f32(f * f32(1e-5)), f32(f * f32(1e7)),
                c_hexfloat(f), c_hexfloat(f, True)))
            m.append('width [%5d] [%-5d] [%05u] [%8.3f] [%-10.2e] [%+d] [%.0f] 100%%\n' % (
                s, s, i, f, f, s, f))
            m.append('vec %f, %f | %u, %u, %u | %x, %x, %x, %x | %1.2f, %1.2f, %1.2f, %1.2f\n' % (
                f, -f, i, g, i + g, 10, 11 + i, 255, 4096, f32(1.2), f32(2.2), f32(3.2), f))
            big = 0x2000000000000001 + i
            m.append('long %d 0x%x %x wg %u\n' % (big, big, big, g))
            out += [(g, i, None, t) for t in m]
    return out


def divergent():
    out = []
    for g in range(2):
        for i in range(8):
            m = []
            if i % 2 == 0:
                m.append('even %u in wg %u\n' % (i, g))
                if i >= 4:
                    m.append('even and high %u\n' % i)
            else:
                m.append('odd %u: %d\n' % (i, i * -3))
            for k in range(i % 3):
                m.append('loop %u iteration %u\n' % (i, k))
            m.append('wg %u subgroup sum %u\n' % (g, sum(range(8)) + 80 * g))
            if i == 3:
                m.append('three in wg %u\n' % g)
            if i != 5:
                m.append('after %u\n' % i)
            out += [(g, i, None, t) for t in m]
    return out


def blk_values():
    return [3 * e + 1 for e in range(256)]


def callbacks():
    blk = blk_values()
    out = []
    for g in range(2):
        msgs = []  # (owner, order, (row, col), text)
        n = 0
        for r in range(16):  # the decode calls, element by element
            for c in range(16):
                if r == c:
                    msgs.append(((16 * r + c) // 8, n, (r, c),
                                 'decode block (%u,%u) slot %u: %u\n' % (r, c // 4, c % 4,
                                                                          blk[16 * r + c])))
                n += 1
        for r in range(16):  # then the per-element calls
            for c in range(16):
                if r + c == 15:
                    msgs.append(((16 * r + c) // 8, n, (r, c),
                                 'per-element (%u,%u): %u + %u\n' % (r, c, 2 * blk[16 * r + c],
                                                                     1000 * g)))
                n += 1
        msgs.sort(key=lambda m: (m[0], m[1]))
        out += [(g, o, e, t) for o, _, e, t in msgs]
    return out


def extra():
    out = []
    for i in range(2):
        c8 = -3 - i
        u16 = 65535 - i
        h = f16(2.5 + i)
        d = 1.0 / 3.0 + i
        neg = -5000000000 - i
        big = 0xfedcba9876543210
        m = ['chars %c%c%c and %s / %s\n' % (72, 105 + i, 33, 'literal', 'two'),
             'small %d %u %x %d %u bool %d %u\n' % (c8, c8 & 0xff, c8 & 0xff, -300, u16, i == 1,
                                                     i == 1),
             'wide %d %X %.3f %.10f %e\n' % (neg, big, h, d, d),
             'odd %q %5 %v1f %\n']
        out += [(0, i, None, t) for t in m]
    return out


def combine():
    # Row reduce, left to right: combine(acc, element) for row 3 prints
    acc = 300
    out = []
    for c in range(1, 8):
        out.append((0, 12, (3, 0), 'combine %u %u\n' % (acc, 300 + c)))
        acc += 300 + c
    return out


def combine_values():
    return [100 * (e // 8) + e % 8 for e in range(64)]


SHADERS = {
    # name: (model, local size x, workgroups, extra run arguments)
    'printf_plain': (plain, 4, 2, ['--buffer', '0:0=zero:64']),
    'printf_divergent': (divergent, 8, 2, ['--buffer', '0:0=zero:64']),
    'printf_callbacks': (callbacks, 32, 2, ['--buffer', '0:0=' + os.path.join(HERE, 'blk.bin'),
                                            '--buffer', '0:1=zero:2048']),
    'printf_extra': (extra, 2, 1, ['--buffer', '0:0=zero:64']),
    # the checking mode reduces in a tree (another order): not compared there
    'printf_combine': (combine, 32, 1, ['--buffer', '0:0=' + os.path.join(HERE, 'combine_src.bin'),
                                        '--buffer', '0:1=zero:256']),
}


def cli_lines(name):
    model = SHADERS[name][0]
    lines = []
    for g, inv, elem, text in model():
        pre = '[wg %u,0,0 inv %u,0,0' % (g, inv)
        if elem:
            pre += ' elem %u,%u' % elem
        lines.append(pre + '] ' + text)
    return ''.join(lines)


def check(coopvm):
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (model, _, groups, args) in SHADERS.items():
            want = cli_lines(name)
            modes = [['--threads', '1'], [], ['--check-callbacks']]
            for extra_args in modes[:2] if name == 'printf_combine' else modes:
                out = os.path.join(tmp, name + '.txt')
                cmd = [coopvm, 'run', os.path.join(HERE, name + '.spv'), '--dispatch',
                       '%u,1,1' % groups, '--printf', out] + args + extra_args
                p = subprocess.run(cmd, capture_output=True, text=True)
                got = open(out).read() if os.path.exists(out) else ''
                if p.returncode != 0 or got != want:
                    bad += 1
                    print('FAIL %s %s (exit %d)' % (name, ' '.join(extra_args), p.returncode))
                    print(p.stderr)
                    for k, (a, b) in enumerate(zip(want.splitlines(), got.splitlines())):
                        if a != b:
                            print('  line %d: want %r\n           got  %r' % (k + 1, a, b))
                            break
                    else:
                        print('  want %d lines, got %d' % (len(want.splitlines()),
                                                           len(got.splitlines())))
                else:
                    print('ok %s %s: %d messages' % (name, ' '.join(extra_args),
                                                     len(want.splitlines())))
    for name in ('printf_plain', 'printf_divergent', 'printf_callbacks'):
        path = os.path.join(HERE, 'device', 'expected_%s.txt' % name)
        text = ''.join(t for _, _, _, t in SHADERS[name][0]())
        same = os.path.exists(path) and open(path).read() == text
        print(('ok ' if same else 'FAIL ') + 'device/expected_%s.txt is the model\'s text' % name)
        bad += not same
    return 1 if bad else 0


def main():
    a = sys.argv[1:]
    if a[:1] == ['--write-inputs']:
        with open(os.path.join(HERE, 'blk.bin'), 'wb') as f:
            f.write(struct.pack('<256I', *blk_values()))
        with open(os.path.join(HERE, 'combine_src.bin'), 'wb') as f:
            f.write(struct.pack('<64I', *combine_values()))
        return 0
    if a[:1] == ['--check'] and len(a) == 2:
        return check(a[1])
    if a[:1] == ['--text'] and len(a) == 2:
        sys.stdout.write(''.join(t for _, _, _, t in SHADERS[a[1]][0]()))
        return 0
    if len(a) == 1 and a[0] in SHADERS:
        sys.stdout.write(cli_lines(a[0]))
        return 0
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main())
