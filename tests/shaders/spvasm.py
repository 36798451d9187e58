#!/usr/bin/env python3
"""Minimal SPIR-V assembler for the test shaders of tests/shaders.

The spirv-as on the development machine (SPIRV-Tools 2023.1) predates
SPV_KHR_cooperative_matrix, SPV_NV_cooperative_matrix2 and
SPV_NV_tensor_addressing, so it rejects these shaders.  This script reads the
same text format (spirv-as syntax: `%name = OpX operands`, enumerant names,
`A|B` masks, "strings", integer and float literals) and encodes it from
shared/grammar/spirv.core.grammar.json, assigning ids in order of first
appearance as spirv-as does.  Checked against the corpus: for every
shared/corpus/*/*.spvasm it reproduces <case>.as.spv word for word apart
from the generator word (run with --self-test).

Usage: spvasm.py in.spvasm -o out.spv       (standard library only)
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("CVM_SHARED_DIR", os.path.join(HERE, "..", "..", "..", "shared"))


def load_grammar():
    with open(os.path.join(SHARED, "grammar", "spirv.core.grammar.json")) as f:
        g = json.load(f)
    insts = {}
    for i in g["instructions"]:
        insts[i["opname"]] = i
        for a in i.get("aliases", []):
            insts[a] = i
    kinds = {}
    for k in g["operand_kinds"]:
        e = {}
        for en in k.get("enumerants", []):
            v = en["value"]
            v = int(v, 0) if isinstance(v, str) else v
            e[en["enumerant"]] = (v, en.get("parameters", []))
            for a in en.get("aliases", []):
                e[a] = (v, en.get("parameters", []))
        kinds[k["kind"]] = (k["category"], e, k.get("bases"))
    glsl = {}
    with open(os.path.join(SHARED, "grammar", "extinst.glsl.std.450.grammar.json")) as f:
        for i in json.load(f)["instructions"]:
            glsl[i["opname"]] = i["opcode"]
    return insts, kinds, glsl


def tokenize(line):
    toks, i = [], 0
    while i < len(line):
        c = line[i]
        if c == ";":
            break
        if c.isspace():
            i += 1
            continue
        if c == '"':
            j, s = i + 1, ""
            while line[j] != '"':
                if line[j] == "\\":
                    j += 1
                s += line[j]
                j += 1
            toks.append(("str", s))
            i = j + 1
            continue
        j = i
        while j < len(line) and not line[j].isspace() and line[j] != ";":
            j += 1
        toks.append(("word", line[i:j]))
        i = j
    return toks


def string_words(s):
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 4)
    return list(struct.unpack("<%dI" % (len(b) // 4), b))


class Assembler:
    def __init__(self):
        self.insts, self.kinds, self.glsl = load_grammar()
        self.ids = {}
        self.types = {}  # type id -> ("int"|"float", width)
        self.ext_sets = {}

    def id(self, tok):
        if not tok.startswith("%"):
            raise ValueError("expected an id, got %r" % tok)
        if tok not in self.ids:
            self.ids[tok] = len(self.ids) + 1
        return self.ids[tok]

    def number(self, tok, kind="int", width=32):
        if kind == "float":
            v = float.fromhex(tok) if "0x" in tok.lower() else float(tok)
            if width == 16:
                return [struct.unpack("<H", struct.pack("<e", v))[0]]
            if width == 64:
                return list(struct.unpack("<2I", struct.pack("<d", v)))
            return [struct.unpack("<I", struct.pack("<f", v))[0]]
        v = int(tok, 0)
        if width == 64:
            v &= (1 << 64) - 1
            return [v & 0xFFFFFFFF, v >> 32]
        if v < 0:
            v &= (1 << width) - 1
            if width < 32:  # sign-extended into the word, as spirv-as does
                v |= 0xFFFFFFFF & ~((1 << width) - 1)
        return [v & 0xFFFFFFFF]

    def operand(self, kind, toks, ctx):
        """Encodes one operand of `kind` from toks (consumed); returns words."""
        if kind in ("IdResultType", "IdResult", "IdRef", "IdScope", "IdMemorySemantics"):
            return [self.id(toks.pop(0)[1])]
        if kind in ("LiteralInteger", "LiteralSpecConstantOpInteger"):
            t = toks.pop(0)[1]
            if ctx.get("op") == "OpSpecConstantOp" and t in self.insts:
                return [self.insts[t]["opcode"]]
            return self.number(t)
        if kind == "LiteralExtInstInteger":
            t = toks.pop(0)[1]
            return [self.glsl[t]] if t in self.glsl else self.number(t)
        if kind == "LiteralString":
            return string_words(toks.pop(0)[1])
        if kind == "LiteralFloat":
            return self.number(toks.pop(0)[1], "float", 32)
        if kind == "LiteralContextDependentNumber":
            tk, width = self.types.get(ctx.get("type"), ("int", 32))
            return self.number(toks.pop(0)[1], tk, width)
        if kind.startswith("Pair"):
            parts = kind[4:]
            out, names = [], []
            while parts:
                for p in ("LiteralInteger", "IdRef"):
                    if parts.startswith(p):
                        names.append(p)
                        parts = parts[len(p):]
            for p in names:
                out += self.operand(p, toks, ctx)
            return out
        cat, enums, _ = self.kinds[kind]
        t = toks.pop(0)[1]
        if cat == "BitEnum":
            value, params = 0, []
            for name in t.split("|"):
                if name in enums:
                    v, ps = enums[name]
                else:
                    v, ps = int(name, 0), []
                value |= v
                params.append((v, ps))
            out = [value]
            for v, ps in sorted(params):
                for p in ps:
                    out += self.operand(p["kind"], toks, ctx)
            return out
        if t in enums:
            v, ps = enums[t]
        else:
            v, ps = int(t, 0), []
        out = [v]
        for p in ps:
            out += self.operand(p["kind"], toks, ctx)
        return out

    def line(self, text):
        toks = tokenize(text)
        if not toks:
            return []
        result = None
        if len(toks) > 2 and toks[1][1] == "=":
            result = toks[0][1]
            toks = toks[2:]
        name = toks.pop(0)[1]
        if name.startswith("!"):  # raw words
            return [int(name[1:], 0)] + [int(t[1][1:], 0) for t in toks]
        inst = self.insts[name]
        ctx = {"op": name}
        words = []
        ops = inst.get("operands", [])
        for o in ops:
            q = o.get("quantifier")
            kind = o["kind"]
            if kind == "IdResult":
                words += [self.id(result)]
                continue
            if kind == "IdResultType":
                ctx["type"] = self.id(toks[0][1])
            if q == "?" and not toks:
                continue
            if q == "*":
                while toks:
                    if name == "OpSwitch" and kind.startswith("Pair"):
                        tk = self.types.get(ctx.get("sel_type"), ("int", 32))
                        words += self.number(toks.pop(0)[1], *tk)
                        words += [self.id(toks.pop(0)[1])]
                    else:
                        words += self.operand(kind, toks, ctx)
                continue
            words += self.operand(kind, toks, ctx)
        if toks:
            raise ValueError("unused operands %r" % toks)
        if name == "OpTypeInt":
            self.types[words[0]] = ("int", words[1])
        elif name == "OpTypeFloat":
            self.types[words[0]] = ("float", words[1])
        return [(len(words) + 1) << 16 | inst["opcode"]] + words

    def assemble(self, text):
        body = []
        for n, ln in enumerate(text.splitlines(), 1):
            try:
                body += self.line(ln)
            except (ValueError, KeyError, IndexError) as e:
                raise SystemExit("line %d: %s: %s" % (n, ln.strip(), e))
        return [0x07230203, 0x00010600, 0, len(self.ids) + 1, 0] + body


def main():
    if sys.argv[1:] == ["--self-test"]:
        import glob
        bad = 0
        for p in sorted(glob.glob(os.path.join(SHARED, "corpus", "*", "*.spvasm"))):
            if p.endswith(".raw.spvasm"):
                continue
            ref = p[: -len(".spvasm")] + ".as.spv"
            words = Assembler().assemble(open(p).read())
            refw = list(struct.unpack("<%dI" % (os.path.getsize(ref) // 4), open(ref, "rb").read()))
            ok = words[:2] == refw[:2] and words[3:] == refw[3:]
            print(("ok   " if ok else "FAIL ") + os.path.basename(p))
            bad += not ok
        sys.exit(1 if bad else 0)
    src, out = sys.argv[1], sys.argv[sys.argv.index("-o") + 1]
    words = Assembler().assemble(open(src).read())
    with open(out, "wb") as f:
        f.write(struct.pack("<%dI" % len(words), *words))


if __name__ == "__main__":
    main()
