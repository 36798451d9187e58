#!/usr/bin/env python3
"""Runs one case's vkrun manifest on the coopvm ICD and checks the outputs
against the case's expected outputs, as its AmberScript's EXPECT lines say.

Usage: vkrun_case.py VKRUN ICD_JSON CASE_DIR WORK_DIR

The case folder (<case>.run, <case>.amber, inputs, expected outputs) is
copied to WORK_DIR, because vkrun writes its outputs under the manifest's
`out` names, which are the expected files' own names.  vkrun (an independent
Vulkan program, ../shared/tools/vkrun) then runs in the copy through the
system's Vulkan loader with VK_DRIVER_FILES=ICD_JSON.  For each
`EXPECT A EQ_BUFFER B` / `EXPECT A RMSE_BUFFER B TOLERANCE t` of the script,
A's (set, binding) from its BIND line (or, for a buffer bound AS
device_address, the manifest's bda line for its host buffer and offset) names
the manifest buffer whose output vkrun wrote; it is compared with B's file in the original folder, element by
element of A's DATA_TYPE over B's SIZE elements: bit-equal, or with
sqrt(mean((a - b)^2)) <= t as google/amber (and coopvm run) decide it.
Exit status 0 when every EXPECT holds, 1 otherwise.  Standard library only.
"""
import math
import os
import shutil
import struct
import subprocess
import sys

FORMATS = {"float": "f", "float16": "e", "double": "d", "int8": "b", "uint8": "B",
           "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q",
           "uint64": "Q"}


def parse_amber(path):
    buffers, binds, expects = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "BUFFER" and "DATA_TYPE" in t:
                name, dtype = t[1], t[t.index("DATA_TYPE") + 1]
                size = int(t[t.index("SIZE") + 1]) if "SIZE" in t else None
                file = t[t.index("FILE") + 2] if "FILE" in t and t[t.index("FILE") + 1] == "BINARY" else None
                buffers[name] = (dtype, size, file)
            elif t[0] == "BIND" and t[1] == "BUFFER" and "DESCRIPTOR_SET" in t:
                binds[t[2]] = (int(t[t.index("DESCRIPTOR_SET") + 1]), int(t[t.index("BINDING") + 1]))
            elif t[0] == "BIND" and t[1] == "BUFFER" and t[3:5] == ["AS", "device_address"]:
                # its address sits in another buffer: (that buffer's name, byte offset)
                binds[t[2]] = (t[t.index("IN") + 1], int(t[t.index("OFFSET") + 1]))
            elif t[0] == "EXPECT" and len(t) >= 4 and t[2] in ("EQ_BUFFER", "RMSE_BUFFER"):
                tol = float(t[t.index("TOLERANCE") + 1]) if "TOLERANCE" in t else None
                if tol is not None:  # amber keeps the tolerance as a float
                    tol = struct.unpack("<f", struct.pack("<f", tol))[0]
                expects.append((t[1], t[2], t[3], tol))
    return buffers, binds, expects


def parse_manifest(path):
    """The manifest's buffers in order, as ((set, binding), out file or None),
    and its `bda DST OFFSET SRC` lines as {(DST, OFFSET): SRC}."""
    bufs, bda = [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            t = line.split()
            if t and t[0] == "buffer":
                bufs.append(((int(t[1]), int(t[2])), t[t.index("out") + 1] if "out" in t else None))
            elif t and t[0] == "bda":
                bda[(int(t[1]), int(t[2]))] = int(t[3])
    return bufs, bda


def output_of(name, binds, bufs, bda):
    """The file vkrun writes for the script's buffer `name`: found by its
    (set, binding), or for a buffer reached by address, through the manifest's
    bda line that writes its address into the host buffer at that offset."""
    b = binds.get(name)
    if b is None:
        return None
    if isinstance(b[0], str):
        host = binds.get(b[0])
        idx = [i for i, (sb, _) in enumerate(bufs) if sb == host]
        if not idx or (idx[0], b[1]) not in bda:
            return None
        return bufs[bda[(idx[0], b[1])]][1]
    for sb, out in bufs:
        if sb == b:
            return out
    return None


def main():
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    vkrun, icd, case_dir, work = [os.path.abspath(a) for a in sys.argv[1:]]
    case = os.path.basename(os.path.normpath(case_dir))
    if os.path.exists(work):
        shutil.rmtree(work)
    shutil.copytree(case_dir, work)
    env = dict(os.environ, VK_DRIVER_FILES=os.path.abspath(icd))
    env.setdefault("COOPVM_VK_LOG", "stderr")
    p = subprocess.run([vkrun, case + ".run"], cwd=work, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    sys.stdout.write("".join(l + "\n" for l in p.stdout.splitlines() if not l.startswith("info coopmat")
                             and not l.startswith("info flexdim")))
    sys.stderr.write(p.stderr)
    if p.returncode != 0 or "ok" not in p.stdout.split():
        print("%s: vkrun failed (exit status %d)" % (case, p.returncode))
        return 1
    buffers, binds, expects = parse_amber(os.path.join(case_dir, case + ".amber"))
    bufs, bda = parse_manifest(os.path.join(case_dir, case + ".run"))
    if not expects:
        print("%s: the script has no EXPECT to check" % case)
        return 1
    failed = 0
    for got_name, kind, exp_name, tol in expects:
        dtype, _, _ = buffers[got_name]
        _, size, exp_file = buffers[exp_name]
        fmt = FORMATS[dtype]
        width = struct.calcsize("<" + fmt)
        out_file = output_of(got_name, binds, bufs, bda)
        if out_file is None:
            print("%s: EXPECT %s: the manifest writes no output for its binding" % (case, got_name))
            failed += 1
            continue
        with open(os.path.join(work, out_file), "rb") as f:
            got = f.read()
        with open(os.path.join(case_dir, exp_file), "rb") as f:
            exp = f.read()
        n = size if size is not None else len(exp) // width
        if len(got) < n * width or len(exp) < n * width:
            print("%s: EXPECT %s: %d elements wanted, the files hold %d and %d bytes"
                  % (case, got_name, n, len(got), len(exp)))
            failed += 1
            continue
        if kind == "EQ_BUFFER":
            bad = [i for i in range(n) if got[i * width:(i + 1) * width] != exp[i * width:(i + 1) * width]]
            ok = not bad
            detail = "%d of %d elements differ%s" % (
                len(bad), n, (", first at %d" % bad[0]) if bad else "")
        else:
            g = struct.unpack("<%d%s" % (n, fmt), got[:n * width])
            e = struct.unpack("<%d%s" % (n, fmt), exp[:n * width])
            s = sum((float(a) - float(b)) ** 2 for a, b in zip(g, e))
            rmse = math.sqrt(s / n) if n else 0.0
            ok = not math.isnan(rmse) and not rmse > tol
            detail = "rmse %.6g, tolerance %.6g, %d elements" % (rmse, tol, n)
        print("%s: EXPECT %s %s %s: %s (%s)" % (case, got_name, kind, exp_name,
                                                "pass" if ok else "FAIL", detail))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
