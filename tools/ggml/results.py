#!/usr/bin/env python3
"""Where a sharded test-backend-ops campaign stands, over every results.tsv
of runner.py it has made (issue 34: the runs span several device calls).

  results.py JOBS TSV...            per op and path: shards complete, OK, FAIL,
                                    not supported, crash lines, wall seconds
  results.py JOBS TSV... --missing  the job lines (runner.py's --jobs format)
                                    of the shards not yet complete on some
                                    path, then '# PATH OP REGEX OK STATUS' for
                                    each, to run next

A shard counts as complete on a path when some run of it there exited 0;
otherwise its run with the most OK cases stands for it (a shard cut by a
call's deadline keeps what it got to).  Later files need not be sorted."""
import collections, sys

PATHS = ('cm2', 'cm1', 'scalar')

def main():
    args = [a for a in sys.argv[1:] if a != '--missing']
    if len(args) < 2:
        sys.exit(__doc__)
    jobs = [l.rstrip('\n').split('\t') for l in open(args[0]) if l.strip()]
    best = {}
    for f in args[1:]:
        for l in open(f):
            r = l.rstrip('\n').split('\t')
            if len(r) < 10:
                continue
            k, cur = (r[0], r[1], r[2]), best.get((r[0], r[1], r[2]))
            if cur is None or (r[8] == '0' and cur[8] != '0') or \
               (cur[8] != '0' and r[8] != '0' and int(r[4]) > int(cur[4])):
                best[k] = r
    if '--missing' in sys.argv:
        want, notes = [], []
        for j in jobs:
            for p in PATHS:
                r = best.get((p, j[0], j[1]))
                if r is None or r[8] != '0':
                    notes.append('# %s %s %s %s %s' % (p, j[0], j[1], r[4] if r else 0, r[8] if r else 'never'))
                    if j not in want:
                        want.append(j)
        for j in want:
            print('\t'.join(j))
        print('\n'.join(notes))
        return
    ops = collections.OrderedDict()
    for j in jobs:
        ops.setdefault(j[0], []).append(j[1])
    print('op\tpath\tshards\tcomplete\tOK\tFAIL\tNS\tcrash\twall_s')
    for op, rxs in ops.items():
        for p in PATHS:
            run = [best[(p, op, rx)] for rx in rxs if (p, op, rx) in best]
            print('\t'.join(map(str, (op, p, len(rxs), sum(r[8] == '0' for r in run),
                                      sum(int(r[4]) for r in run), sum(int(r[5]) for r in run),
                                      sum(int(r[6]) for r in run), sum(int(r[9]) for r in run),
                                      '%.1f' % sum(float(r[7]) for r in run)))))

main()
