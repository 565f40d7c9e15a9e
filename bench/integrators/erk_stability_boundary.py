#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Real-axis stability boundary of dopri5 and dop853 from their tableaus.

Reads the coefficients from src/integrate/dopri5.c and dop853.c and finds the
first z < 0 (step 1e-3) with |R(z)| > 1, R the stability function of the
propagated solution.  Used for the stiffness thresholds (README "dopri5,
dop853").  Result: dopri5 3.307, dop853 6.394.  Usage: run from the root."""
import re


def parse(path):
    d = {}
    for m in re.finditer(r"\b([A-Z][A-Z0-9]*)\s*=\s*([-+0-9.eE/ ]+?)\s*[,;]", open(path).read()):
        try:
            d[m.group(1)] = eval(m.group(2).replace(" ", ""))
        except Exception:
            pass
    return d


def stab(A, b, z):
    g = []
    for i in range(len(b)):
        g.append(1 + z * sum(A[i][j] * g[j] for j in range(i)))
    return 1 + z * sum(bi * gi for bi, gi in zip(b, g))


def boundary(A, b):
    z = -0.001
    while abs(stab(A, b, z)) <= 1:
        z -= 0.001
    return -z


d = parse("src/integrate/dopri5.c")
A = [[d.get(f"A{i}{j}", 0.0) for j in range(1, 7)] for i in range(1, 7)]
b = [d["A71"], 0.0, d["A73"], d["A74"], d["A75"], d["A76"]]
print(f"dopri5 {boundary(A, b):.3f}")
d = parse("src/integrate/dop853.c")
A = [[d.get(f"A{i}{j}", 0.0) for j in range(1, 13)] for i in range(1, 13)]
b = [d.get(f"B{j}", 0.0) for j in range(1, 13)]
print(f"dop853 {boundary(A, b):.3f}")
