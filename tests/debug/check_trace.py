#!/usr/bin/env python3
"""Checks `coopvm run --trace`, source lines in errors and traces (shaders
compiled with glslang -g: OpLine, and -gVS: NonSemantic.Shader.DebugInfo
DebugLine), and the DebugPrintf and trace limits.

Expected line numbers come from searching the GLSL text; expected values
from the shaders' arithmetic (see printf_model.py for the inputs).

  check_trace.py COOPVM
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []
passes = []


def line_of(comp, text):
    for n, line in enumerate(open(os.path.join(HERE, comp)), 1):
        if text in line:
            return n
    raise SystemExit('%s has no line with %r' % (comp, text))


def expect(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    (passes if cond else failures).append(what)


def run(coopvm, args):
    p = subprocess.run([coopvm, 'run'] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def find(lines, *needles):
    """The first line holding every needle, or None."""
    for line in lines:
        if all(n in line for n in needles):
            return line
    return None


def main():
    coopvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    trace = os.path.join(tmp, 'trace.txt')

    # ---- errors name the source line, from OpLine and from DebugLine
    oob = line_of('oob_lines.comp', 'o.data[gl_LocalInvocationIndex')
    for spv in ('oob_lines_g.spv', 'oob_lines_gvs.spv'):
        rc, out, err = run(coopvm, [os.path.join(HERE, spv), '--dispatch', '1,1,1',
                                    '--buffer', '0:0=zero:16'])
        expect(rc == 1 and 'CVM_ERROR_OUT_OF_BOUNDS' in err and
               'source oob_lines.comp:%d)' % oob in err,
               '%s: the out-of-bounds error names oob_lines.comp:%d (%s)' % (spv, oob, err.strip()))

    # ---- an invocation trace through divergent code (-gVS)
    div = os.path.join(HERE, 'printf_divergent_gvs.spv')
    rc, out, err = run(coopvm, [div, '--dispatch', '1,1,1', '--buffer', '0:0=zero:64',
                                '--printf', os.devnull, '--trace', '0,0,0/5',
                                '--trace-file', trace])
    lines = open(trace).read().splitlines() if rc == 0 else []
    expect(rc == 0 and lines and lines[0].startswith(
        'trace of workgroup (0,0,0), invocation (5,0,0) (local index 5'),
        'divergent /5: the header names the invocation')
    odd = line_of('printf_divergent.comp', 'debugPrintfEXT("odd')
    expect(find(lines, 'printf_divergent.comp:%d ' % odd, 'DebugPrintf "odd 5: -15\\n"'),
           'divergent /5: the odd branch prints "odd 5: -15" at line %d' % odd)
    expect(find(lines, '-- block', 'lanes 1,3,5,7 of 8 active'),
           'divergent /5: the odd branch runs with lanes 1,3,5,7 active')
    expect(not find(lines, 'DebugPrintf "even'),
           'divergent /5: nothing of the even branch, where invocation 5 is not active')
    loop = line_of('printf_divergent.comp', 'debugPrintfEXT("loop')
    expect(find(lines, 'printf_divergent.comp:%d ' % loop, '"loop 5 iteration 1\\n"') and
           not find(lines, '"loop 5 iteration 2'),
           'divergent /5: two loop iterations (5 %% 3), at line %d' % loop)
    add = line_of('printf_divergent.comp', 'subgroupAdd')
    expect(find(lines, 'printf_divergent.comp:%d ' % add, 'OpGroupNonUniformIAdd', '= 28',
                '[active: subgroup 0 0x000000ff (8 of 8)]'),
           'divergent /5: subgroupAdd gives 28 with its active-lane mask, at line %d' % add)
    expect(not find(lines, '"after 5'), 'divergent /5: no "after" (invocation 5 returned)')
    expect(lines and lines[-1] == 'end of workgroup (0,0,0)', 'divergent /5: the end line')
    expect(find(lines, 'OpStore %i <- ', '= 5'), 'divergent /5: OpName of the stored variable')

    # ---- a workgroup trace: values per lane, equal runs once
    rc, out, err = run(coopvm, [div, '--dispatch', '1,1,1', '--buffer', '0:0=zero:64',
                                '--printf', os.devnull, '--trace', '0,0,0', '--trace-file', trace])
    lines = open(trace).read().splitlines() if rc == 0 else []
    expect(lines and lines[0].startswith('trace of workgroup (0,0,0), all 8 invocations'),
           'divergent workgroup: header')
    expect(find(lines, 'OpIEqual', 'lane 0: true; lane 1: false; lane 2: true'),
           'divergent workgroup: (i & 1) == 0 per lane')
    expect(find(lines, 'OpStore %g <- ', 'lanes 0-7: 0'),
           'divergent workgroup: a uniform value printed once for lanes 0-7')

    # ---- callbacks and cooperative matrices (-gVS)
    cb = os.path.join(HERE, 'printf_callbacks_gvs.spv')
    cbargs = ['--dispatch', '2,1,1', '--buffer', '0:0=' + os.path.join(HERE, 'blk.bin'),
              '--buffer', '0:1=zero:2048', '--printf', os.devnull]
    rc, out, err = run(coopvm, [cb] + cbargs + ['--trace', '1,0,0/5', '--trace-file', trace])
    lines = open(trace).read().splitlines() if rc == 0 else []
    blk = [3 * e + 1 for e in range(256)]
    load = line_of('printf_callbacks.comp', 'coopMatLoadTensorNV(m')
    excerpt = '16x16 u32 Accumulator (subgroup 0): [0,0..3] %s | [1,0..3] %s ...' % (
        ' '.join(str(2 * blk[c]) for c in range(4)), ' '.join(str(2 * blk[16 + c]) for c in range(4)))
    expect(find(lines, 'printf_callbacks.comp:%d ' % load, 'OpCooperativeMatrixLoadTensorNV',
                excerpt, '[active: subgroup 0 0xffffffff (32 of 32)]'),
           'callbacks /5: the decoded matrix, shape and excerpt, at line %d' % load)
    # invocation 5 owns elements 40..47: row 2, columns 8..15
    want = '; '.join('element (2,%d): %d' % (c, blk[32 + c]) for c in range(8, 16))
    dec = line_of('printf_callbacks.comp', 'uint32_t v = b.q[')
    expect(find(lines, '| printf_callbacks.comp:%d ' % dec, 'OpLoad', want),
           'callbacks /5: the decode calls made for invocation 5, per element, at line %d' % dec)
    expect(find(lines, '(callback of OpCooperativeMatrixPerElementOpEXT): 1 call'),
           'callbacks /5: one per-element call of invocation 5 prints (element (2,13))')
    per = '[0,0..3] %s' % ' '.join(str(2 * blk[c] + 1000) for c in range(4))
    expect(find(lines, 'OpCooperativeMatrixPerElementOpEXT', per),
           'callbacks /5: the per-element result in workgroup 1 (+1000)')

    # ---- limits and misuse
    rc, out, err = run(coopvm, [div, '--dispatch', '1,1,1', '--buffer', '0:0=zero:64',
                                '--printf', os.devnull, '--trace', '0,0,0', '--trace-file', trace,
                                '--trace-limit', '5'])
    lines = open(trace).read().splitlines() if rc == 0 else []
    expect(len(lines) == 6 and 'the limit of 5 lines was reached' in lines[5],
           'trace limit: 5 lines and a note')
    rc, out, err = run(coopvm, [div, '--dispatch', '1,1,1', '--buffer', '0:0=zero:64',
                                '--printf', os.devnull, '--trace', '3,0,0', '--trace-file', trace])
    text = open(trace).read() if rc == 0 else ''
    expect('workgroup (3,0,0) is not in this dispatch of 1,1,1' in text,
           'trace of a workgroup the dispatch does not have: a note')
    rc, out, err = run(coopvm, [div, '--dispatch', '1,1,1', '--buffer', '0:0=zero:64',
                                '--trace', '0,0,0/8', '--trace-file', trace])
    expect(rc == 1 and 'trace invocation 8 is not in a workgroup of 8 invocations' in err,
           'trace of an invocation past the workgroup: an error')
    pf = os.path.join(tmp, 'printf.txt')
    rc, out, err = run(coopvm, [os.path.join(HERE, 'printf_plain.spv'), '--dispatch', '2,1,1',
                                '--buffer', '0:0=zero:64', '--printf', pf, '--printf-limit', '7'])
    got = open(pf).read().splitlines() if rc == 0 else []
    expect(len(got) == 8 and got[6].startswith('[wg 0,0,0 inv 1,0,0] float ') and
           got[7].startswith('coopvm: 33 more DebugPrintf messages of this dispatch were not '
                             'printed (limit 7'),
           'printf limit 7: the first 7 of 40 messages in order, then a note of 33 more')

    print('%d passed, %d failed' % (len(passes), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
