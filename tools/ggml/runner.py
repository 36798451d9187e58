#!/usr/bin/env python3
"""runner.py --bin TBO --jobs jobs.txt --paths cm2,cm1 --workers W --threads T --timeout S --deadline EPOCH --out DIR
Runs test-backend-ops test -b Vulkan0 -o OP [-p REGEX] per job line (shards.py) and path, W at a time,
COOPVM_THREADS=T; longest shards first; writes DIR/results.tsv: path op regex ncases ok fail notsup wall rc crash,
DIR/profile-*.txt (COOPVM_VK_PROFILE device lines) and the logs of jobs that failed, crashed or timed out."""
import argparse, os, re, subprocess, sys, time, threading, queue
ap = argparse.ArgumentParser()
for a in ('bin', 'jobs', 'paths', 'out', 'icd'): ap.add_argument('--' + a, required=True)
ap.add_argument('--workers', type=int, default=8); ap.add_argument('--threads', type=int, default=2)
ap.add_argument('--timeout', type=int, default=300); ap.add_argument('--deadline', type=float, default=0)
ap.add_argument('--ops', default='')
ap.add_argument('--order', default='large', help='large: longest shards first; small: smallest ops first')
ap.add_argument('--env', action='append', default=[])
ap.add_argument('--path-major', action='store_true', help='every shard on the first path, then on the next')
A = ap.parse_args()
os.makedirs(A.out, exist_ok=True)
jobs = [l.rstrip('\n').split('\t') for l in open(A.jobs) if l.strip()]
if A.ops: jobs = [j for j in jobs if j[0] in A.ops.split(',')]
tot = {}
for j in jobs: tot[j[0]] = tot.get(j[0], 0) + int(j[2])
key = (lambda j: -int(j[2])) if A.order == 'large' else (lambda j: (tot[j[0]], j[0], -int(j[2])))
work = [(p, j) for j in sorted(jobs, key=key) for p in A.paths.split(',')]
if A.path_major: work = [(p, j) for p in A.paths.split(',') for j in sorted(jobs, key=key)]
q = queue.Queue()
for w in work: q.put(w)
lock = threading.Lock(); res = open(os.path.join(A.out, 'results.tsv'), 'a'); n = [0]
OKR = re.compile(r'^\s+[A-Z_0-9]+\(.*\): .*OK'); FR = re.compile(r'\): .*FAIL'); NSR = re.compile(r'not supported \[[^]]*Vulkan0')
def worker(wi):
    while True:
        try: path, (op, rx, nc) = q.get_nowait()
        except queue.Empty: return
        left = A.deadline - time.time() if A.deadline else A.timeout
        if left < 20: continue
        env = dict(os.environ, VK_DRIVER_FILES=A.icd, GGML_VK_VISIBLE_DEVICES='0', COOPVM_THREADS=str(A.threads),
                   COOPVM_VK_LOG='stderr')
        for e in A.env: k, v = e.split('=', 1); env[k] = v
        if path in ('cm1', 'scalar'): env['GGML_VK_DISABLE_COOPMAT2'] = '1'
        if path == 'scalar': env['GGML_VK_DISABLE_COOPMAT'] = '1'
        with lock: n[0] += 1; k = n[0]
        prof = os.path.join(A.out, f'profile-{k}.txt'); env['COOPVM_VK_PROFILE'] = prof
        cmd = [A.bin, 'test', '-b', 'Vulkan0', '-o', op] + (['-p', rx] if rx else [])
        t0 = time.time()
        try:
            p = subprocess.run(['stdbuf', '-oL', '-eL'] + cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=min(A.timeout, left - 10))
            out, rc = p.stdout.decode(errors='replace'), p.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.stdout or b'').decode(errors='replace'), 'timeout'
        wall = time.time() - t0
        lines = out.splitlines()
        ok = sum(1 for l in lines if OKR.search(l)); fail = sum(1 for l in lines if FR.search(l))
        ns = sum(1 for l in lines if NSR.search(l))
        crash = sum(1 for l in lines if re.search(r'AddressSanitizer|runtime error|Segmentation|DEVICE_LOST|device lost|terminate called|Aborted', l))
        with lock:
            res.write('\t'.join(map(str, (path, op, rx, nc, ok, fail, ns, '%.1f' % wall, rc, crash))) + '\n'); res.flush()
            print(path, op, rx[:40], nc, ok, fail, ns, '%.1f' % wall, rc, crash, flush=True)
        if fail or crash or rc not in (0,):
            open(os.path.join(A.out, f'log-{k}-{path}-{op}.txt'), 'w').write(' '.join(cmd) + '\n' + out[-200000:])
ts = [threading.Thread(target=worker, args=(i,)) for i in range(A.workers)]
for t in ts: t.start()
for t in ts: t.join()
print('left in queue:', q.qsize())
