#!/usr/bin/env python3
"""Measures coopvm against the SPIR-V modules of glslang's own tests (issue 14).

Compiles the cooperative-matrix, cooperative-vector, long-vector and
small-float compute shaders of a glslang checkout's Test/ folder with the
flags glslang's test runner (gtests/Spv.FromFile.cpp) uses for each -- the
Vulkan target of its test group, bindings and locations mapped automatically
-- into a temporary folder (nothing is written into this repository), then,
for each module:

  run   coopvm run with every descriptor bound to a zero-filled buffer, 128
        zero bytes of push constants, the specializations and subgroup size a
        module needs to be valid (below); a module that stops at a null
        buffer_reference pointer (read from a zero-filled buffer) is run
        again with --robust
  as    coopvm as of spirv-dis's text against spirv-as of the same text,
        word for word except the generator word
  rt    coopvm as --preserve-numeric-ids of spirv-dis --raw-id against the
        module itself
  dis   coopvm dis against spirv-dis, byte for byte

The descriptors to bind are read from spirv-dis --raw-id's Binding
decorations, so --tools must hold a spirv-dis (and spirv-as, glslang) of the
checkout's age: an older one (Debian 12's 2023.1) cannot disassemble the newer
modules, finds no binding, and their runs stop at CVM_ERROR_MISSING_BINDING.

Usage: tools/glslang_modules.py [--glslang-src DIR] [--tools DIR] [--coopvm PATH] [--verbose]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Test groups of gtests/Spv.FromFile.cpp: CompileToSpirv16Test (Vulkan 1.3,
# SPIR-V 1.6), CompileVulkanToSpirv13TestQCOM and CompileVulkan1_1ToSpirvTest
# (Vulkan 1.1, SPIR-V 1.3).
SPV16 = ["spv.coopmat2_constructor.comp", "spv.coopmat2_tensor.comp",
         "spv.coopmat2_decode_vector.comp", "spv.coopmat2_decode_vector_b.comp",
         "spv.floate4m3.comp", "spv.floate4m3.const.comp", "spv.floate5m2.comp",
         "spv.floate5m2.const.comp", "spv.floate2m1.comp", "spv.floate2m1.const.comp",
         "spv.floate3m2.comp", "spv.floate3m2.const.comp", "spv.floate2m3.comp",
         "spv.floate2m3.const.comp", "spv.floatue8m0.comp", "spv.floatue8m0.const.comp",
         "spv.floatmxint8.comp", "spv.floatmxint8.const.comp", "spv.64bit_indexing.comp"]
PATTERNS = ["spv.coop*.comp", "spv.longVector*.comp", "spv.bfloat16*.comp",
            "spv.intcoopmat*.comp", "spv.qcom.coopmatConversion*.comp", "spv.1.3.coopmat.comp",
            "spv.subgroupPartitioned.comp", "spv.subgroupExtendedTypesPartitioned.comp"]

# What a module needs to be valid when it runs: the spec-constant-sized
# long vectors' size (their default, 0, is no size), a subgroup that holds a
# 64-row QCOM matrix, the elements of a descriptor array.
SPECS = {n: ["--spec", "0=8"] for n in [
    "spv.longVectorSpecConst.comp", "spv.longVectorBuiltinsSpecConst.comp",
    "spv.longVectorBuiltinsSpecConstint32.comp", "spv.longVectorStorage.comp"]}
EXTRA = {"spv.qcom.coopmatConversion.1.comp": ["--subgroup-size", "64"]}
for _n in ("spv.subgroupPartitioned.comp", "spv.subgroupExtendedTypesPartitioned.comp"):
    EXTRA[_n] = sum([["--buffer", "0:0.%d=zero:65536" % e] for e in range(1, 4)], [])


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def same_but_generator(a, b):
    return len(a) == len(b) and a[:8] == b[:8] and a[12:] == b[12:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--glslang-src", default="/work/ext/src/glslang")
    ap.add_argument("--tools", default="/work/ext/install/bin")
    ap.add_argument("--coopvm", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                     "coopvm"))
    ap.add_argument("--verbose", action="store_true")
    o = ap.parse_args()
    test = os.path.join(o.glslang_src, "Test")
    glslang = os.path.join(o.tools, "glslang")
    names = set(SPV16)
    for p in PATTERNS:
        names.update(os.path.basename(f) for f in glob.glob(os.path.join(test, p)))
    tmp = tempfile.mkdtemp(prefix="coopvm-glslang-")
    mods = []
    for n in sorted(names):
        env = "vulkan1.3" if n in SPV16 else "vulkan1.1"
        out = os.path.join(tmp, n + ".spv")
        r = sh([glslang, "-V", "--amb", "--aml", "--target-env", env, "-o", out,
                os.path.join(test, n)])
        if r.returncode == 0:
            mods.append((n, out))  # the *_Error / BadParams tests do not compile, as meant
    counts = dict(run=0, robust=0, as_=0, rt=0, dis=0)
    for n, m in mods:
        raw = sh([os.path.join(o.tools, "spirv-dis"), "--raw-id", m]).stdout
        sets = dict(re.findall(r"OpDecorate %(\d+) DescriptorSet (\d+)", raw))
        args = [o.coopvm, "run", m, "--dispatch", "1,1,1", "--threads", "1"]
        seen = set()
        for v, b in re.findall(r"OpDecorate %(\d+) Binding (\d+)", raw):
            key = (sets.get(v, "0"), b)
            if key not in seen:
                seen.add(key)
                args += ["--buffer", "%s:%s=zero:%d" % (key[0], key[1], 16 << 20)]
        if "PushConstant" in raw:
            args += ["--push", "zero:128"]
        args += SPECS.get(n, []) + EXTRA.get(n, [])
        r = sh(args)
        ok, note = r.returncode == 0, ""
        if not ok and "null pointer" in r.stderr + r.stdout:
            if sh(args + ["--robust"]).returncode == 0:
                ok, note = True, " (--robust: a null buffer_reference pointer)"
                counts["robust"] += 1
        counts["run"] += ok
        text = sh([os.path.join(o.tools, "spirv-dis"), m]).stdout
        src = os.path.join(tmp, "t.spvasm")
        open(src, "w").write(text)
        a = sh([o.coopvm, "as", src, "-o", os.path.join(tmp, "c.spv")])
        b = sh([os.path.join(o.tools, "spirv-as"), src, "-o", os.path.join(tmp, "r.spv")])
        as_same = (a.returncode == 0 and b.returncode == 0 and
                   same_but_generator(open(os.path.join(tmp, "c.spv"), "rb").read(),
                                      open(os.path.join(tmp, "r.spv"), "rb").read()))
        counts["as_"] += as_same
        open(src, "w").write(raw)
        c = sh([o.coopvm, "as", "--preserve-numeric-ids", src, "-o", os.path.join(tmp, "rt.spv")])
        rt = c.returncode == 0 and same_but_generator(
            open(os.path.join(tmp, "rt.spv"), "rb").read(), open(m, "rb").read())
        counts["rt"] += rt
        d = sh([o.coopvm, "dis", m])
        counts["dis"] += d.returncode == 0 and d.stdout == text
        if o.verbose or not ok or not as_same or not rt:
            msg = (r.stderr + r.stdout).strip().splitlines()
            print("%-48s run %s%s%s%s" % (
                n, "ok" if ok else "FAIL", note,
                "" if ok else ": " + (msg[-1][:160] if msg else ""),
                "" if as_same else "; as differs from spirv-as" +
                ("" if b.returncode == 0 else " (spirv-as: %s)" % b.stderr.strip()[:80])))
    shutil.rmtree(tmp, ignore_errors=True)
    k = len(mods)
    print("%d modules: run %d (%d with --robust), as == spirv-as %d, as(dis --raw-id) == "
          "module %d, dis == spirv-dis %d" % (k, counts["run"], counts["robust"], counts["as_"],
                                               counts["rt"], counts["dis"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
