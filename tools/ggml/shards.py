#!/usr/bin/env python3
"""shards.py SUPPORT_LOG MAX > jobs.txt: test-backend-ops cases (from `support` mode output), grouped per op
into shards of at most MAX cases by leading parameters (a shard that no prefix splits stays larger);
each line: OP<TAB>REGEX (for -p, empty: the whole op)<TAB>NCASES."""
import re, sys
from collections import defaultdict
cases = defaultdict(list)
for l in open(sys.argv[1], errors='replace'):
    m = re.match(r'^  ([A-Z_0-9]+)\((.*)\): ', l)
    if m: cases[m.group(1)].append(m.group(2))
MAX = int(sys.argv[2])
def params(s):  # split on commas outside brackets
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == '[': depth += 1
        if ch == ']': depth -= 1
        if ch == ',' and depth == 0: out.append(cur); cur = ''
        else: cur += ch
    out.append(cur); return out
def split(items, k, prefix):
    n = max(len(params(it)) for it in items)
    if len(items) <= MAX or k > n:
        return [(prefix, items)]
    groups = defaultdict(list)
    for it in items: groups[','.join(params(it)[:k])].append(it)
    if len(groups) == 1:
        return split(items, k + 1, prefix)
    res = []
    for pre, its in groups.items():
        res += split(its, k + 1, pre)
    return res
for op in sorted(cases, key=lambda o: -len(cases[o])):
    for pre, its in split(cases[op], 1, None):
        rx = '' if pre is None else '^' + re.escape(pre) + '(,|$)'
        print(f"{op}\t{rx}\t{len(its)}")
