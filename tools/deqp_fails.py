#!/usr/bin/env python3
"""The Vulkan CTS cases coopvm fails because the CTS is wrong, as a Mesa-style
fails list (tests/cts/coopvm-fails.txt), made from a run of the deqp kit
(../shared/tools/deqp, tools/icd_package.sh).

usage: tools/deqp_fails.py RESULTS_DIR... > tests/cts/coopvm-fails.txt

Each RESULTS_DIR is a runner.py output folder (res-*.tsv: case, status,
message; details-*.txt: each case's log block).  Every case whose status is
not Pass or NotSupported is put to the rules below in order; the first that
matches gives its reason (docs/cts-defects.md explains each, with the CTS
lines and the texts' words).  A rule that needs the sizes a case failed at
reads them from its log block ("failed with M = .., N = .."): "small" means
every failed size (for a crash or a lost device: the size it was testing)
has M or N below 8, the sizes the CTS derives from a flexible-dimension
granularity of 1 and gets wrong.  A case no rule takes is
coopvm's to fix: it is not listed, and this script names it on stderr and
exits 1.  Standard library only."""
import glob
import os
import re
import sys

SMALL = 8


def load(dirs):
    status, msg, failed, tested = {}, {}, {}, {}
    for d in dirs:
        for f in glob.glob(os.path.join(d, 'res-*.tsv')):
            for line in open(f, encoding='utf-8', errors='replace'):
                p = line.rstrip('\n').split('\t')
                if len(p) >= 2:
                    status[p[0]] = p[1]
                    msg[p[0]] = p[2] if len(p) > 2 else ''
        for f in glob.glob(os.path.join(d, 'details-*.txt')):
            case = None
            for line in open(f, encoding='utf-8', errors='replace'):
                m = re.match(r'^=== (\S+) \[', line)
                if m:
                    case = m.group(1)
                    failed.setdefault(case, [])
                    continue
                m = re.search(r'Testing M = (\d+), N = (\d+)', line)
                if m and case:
                    tested[case] = (int(m.group(1)), int(m.group(2)))
                m = re.search(r'failed with M = (\d+), N = (\d+)', line)
                if m and case:
                    failed[case].append((int(m.group(1)), int(m.group(2))))
    failed['#tested'] = tested
    return status, msg, failed


def died_small(case, failed):
    """A case that ended (crash, lost device) while testing a small size."""
    last = failed['#tested'].get(case)
    return last is not None and (last[0] < SMALL or last[1] < SMALL)


def small_only(case, failed):
    sizes = failed.get(case)
    return bool(sizes) and all(m < SMALL or n < SMALL for m, n in sizes)


def out_type(case):
    # ...<op>.<input>_<output>.<storage>...: the output component type
    m = re.search(r'\.(?:matrixmuladd[a-z0-9_]*)\.([a-z0-9]+)_([a-z0-9]+)\.', case)
    return m.group(2) if m else None


# (reason, statuses, predicate(case, message, failed))
RULES = [
    ('multicomponent-truncated-offsets', {'Fail', 'DeviceLost'},
     lambda c, m, f: '.multicomponent.' in c and small_only(c, f)),
    ('decode-coordinblock-from-matrix', {'Fail'},
     lambda c, m, f: ('.negate.' in c or '.matrixmuladd_dequant.' in c) and c.endswith('.decode')
     and small_only(c, f)),
    ('dequant-bf16-reference-unrounded', {'Fail'},
     lambda c, m, f: '.matrixmuladd_dequant.bfloat16_bfloat16.' in c),
    ('clamp-negative-dimension', {'Crash', 'DeviceLost'},
     lambda c, m, f: re.search(r'\.clamp(toedge|repeat|mirrorrepeat|constant)[a-z]*\.', c) is not None
     and died_small(c, f)),
    ('length-expects-zero', {'QualityWarning'},
     lambda c, m, f: '.length.' in c and small_only(c, f)),
    ('sint8-result-masked-reference', {'Fail'},
     lambda c, m, f: out_type(c) == 'sint8'),
    ('null-c-reference-unrounded', {'Fail'},
     lambda c, m, f: c.endswith('.op_constant_null.null_c')),
    ('coopvec-unsigned-bias-unwrapped', {'Fail'},
     lambda c, m, f: re.search(r'\.cooperative_vector\.matmul\.matrixmuladd(transpose)?\.uint[0-9]+_'
                               r'[a-z0-9_]*_uint32\.[a-z]+\.[0-9x]+\.acthardgelu\.', c) is not None),
    ('cts-glsl-does-not-compile', {'InternalError'},
     lambda c, m, f: 'Compiling GLSL to SPIR-V failed' in m),
]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    status, msg, failed = load(sys.argv[1:])
    listed = {r[0]: [] for r in RULES}
    left = []
    for c in sorted(status):
        s = status[c]
        if s in ('Pass', 'NotSupported'):
            continue
        for reason, sts, pred in RULES:
            if s in sts and pred(c, msg[c], failed):
                listed[reason].append((c, s))
                break
        else:
            left.append((c, s, msg[c]))
    print('# Vulkan CTS (VK-GL-CTS c57d29f9) cases that fail on coopvm\'s ICD because the CTS is')
    print('# wrong, one per line (Mesa\'s fails-list form: case,status), grouped by reason; each')
    print('# reason is explained with the CTS lines and the texts\' words in docs/cts-defects.md.')
    print('# Generated by tools/deqp_fails.py from a kit run; do not edit by hand.')
    for reason, _, _ in RULES:
        if not listed[reason]:
            continue
        print('\n# %s (%d)' % (reason, len(listed[reason])))
        for c, s in listed[reason]:
            print('%s,%s' % (c, s))
    for c, s, m in left:
        print('not a listed CTS defect: %s %s %s' % (c, s, m[:120]), file=sys.stderr)
    print('%d listed, %d left for coopvm' % (sum(len(v) for v in listed.values()), len(left)),
          file=sys.stderr)
    return 1 if left else 0


if __name__ == '__main__':
    sys.exit(main())
