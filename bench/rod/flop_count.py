#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Floating-point operation counts of one call from a callgrind profile
(valgrind --tool=callgrind --dump-instr=yes --compress-strings=no
--compress-pos=no): every executed instruction is looked up in the object's
disassembly (objdump -d) and classified by its mnemonic:
  + : add{s,p}d,  - : sub{s,p}d,  * : mul{s,p}d,  / : div{s,p}d,
  sqrt : sqrt{s,p}d, other : min/max/compare (ucomisd, comisd, cmp*sd),
packed (..pd, xmm) counting 2 operations, scalar (..sd) 1.  Sign flips and
absolute values (xorpd/andpd with a mask), moves and conversions are not
arithmetic and are not counted.  Calls into libm (sin, cos, acos, sqrt) are
counted by the instructions they execute, like all other code.

usage: flop_count.py LABEL PROFILE_A CALLS_A PROFILE_B CALLS_B [LABEL ...]
prints, per label, the counts per call, (B - A) / (CALLS_B - CALLS_A), which
removes the set-up.  Needs a build without -march=native (SSE2 only: no FMA, no AVX).
"""
import re, subprocess, sys
from collections import defaultdict

CLASS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "sqrt": "sqrt",
         "min": "other", "max": "other", "comi": "other", "ucomi": "other", "cmp": "other"}
MNEM = re.compile(r"^(v?)(add|sub|mul|div|sqrt|min|max|ucomi|comi|cmp[a-z]*?)(s|p)d$")


def profile(path):
    """{(object, address): executed count} of every instruction (self cost)."""
    cost = defaultdict(int)
    ob, skip = None, False
    obnames = {}
    with open(path) as f:
        for line in f:
            if line.startswith("ob="):
                v = line[3:].strip()
                m = re.match(r"\((\d+)\)\s*(.*)", v)
                if m:
                    if m.group(2):
                        obnames[m.group(1)] = m.group(2)
                    ob = obnames.get(m.group(1), m.group(2))
                else:
                    ob = v
                continue
            if line.startswith("calls="):
                skip = True  # the next cost line is the call's inclusive cost
                continue
            if line.startswith("0x"):
                if skip:
                    skip = False
                    continue
                parts = line.split()
                cost[(ob, int(parts[0], 16))] += int(parts[-1])
    return cost


_DIS = {}


def disasm(obj):
    """{address: mnemonic} from objdump -d (cached per object)."""
    if obj in _DIS:
        return _DIS[obj]
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
        if m:
            res[int(m.group(1), 16)] = m.group(2)
    _DIS[obj] = res
    return res


def classify(cost):
    tot = defaultdict(float)
    objs = {o for o, _ in cost}
    dis = {o: disasm(o) for o in objs if o and o.startswith("/")}
    for (o, a), n in cost.items():
        mn = dis.get(o, {}).get(a)
        if not mn:
            continue
        m = MNEM.match(mn)
        if not m:
            continue
        op = m.group(2)
        key = "cmp" if op.startswith("cmp") else op
        tot[CLASS[key]] += n * (2 if m.group(3) == "p" else 1)
    return tot


def main():
    args = sys.argv[1:]
    print("label,add,sub,mul,div,sqrt,compare_minmax,arith_total")
    for i in range(0, len(args), 5):
        lab, a, ca, b, cb = args[i], args[i + 1], int(args[i + 2]), args[i + 3], int(args[i + 4])
        ta, tb = classify(profile(a)), classify(profile(b))
        per = [(tb.get(k, 0) - ta.get(k, 0)) / (cb - ca) for k in ("+", "-", "*", "/", "sqrt", "other")]
        print("%s,%s,%.0f" % (lab, ",".join("%.0f" % v for v in per), sum(per[:5])), flush=True)


if __name__ == "__main__":
    main()
