#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LA] Fig. 4: spy plots of the patterns that bench/papers/la_sparsity dumps
(N = 10): (a) the mass-constraint matrix of an inextensible Kirchhoff rod,
(b) its inverse, (c) the Jacobian of the absolute Cosserat form, (d) the
Jacobian of the null-space Cosserat form.  Writes la-fig4.png and
la-fig4.csv (matrix, size, non-zeros, half bandwidths of the blocks).
usage: la_fig4.py LA_SPARSITY EXAMPLES_DIR RESULTS_DIR [N]
"""
import csv
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import pyplot  # noqa: E402

TITLES = {"mass_constraint": "(a) mass-constraint matrix, inextensible Kirchhoff",
          "mass_constraint_inverse": "(b) its inverse",
          "jac_absolute": "(c) Jacobian d(qdot, vdot)/d(q, v), Cosserat absolute",
          "jac_nullspace": "(d) Jacobian d(qdot, nudot)/d(q, nu), Cosserat null space"}


def parse(text):
    mats, nqs, cur = {}, {}, None
    for line in text.splitlines():
        if line.startswith("#"):
            _, name, nr, nc, nq = line.split()
            cur = np.zeros((int(nr), int(nc)), dtype=bool)
            mats[name], nqs[name] = cur, int(nq)
        elif cur is not None and line:
            i, j, _ = line.split(",")
            cur[int(i), int(j)] = True
    return mats, nqs


def bandwidths(A):
    i, j = np.nonzero(A)
    return (int((i - j).max()), int((j - i).max())) if len(i) else (0, 0)


def main():
    exe, ex, res = sys.argv[1:4]
    N = sys.argv[4] if len(sys.argv) > 4 else "10"
    mats, nqs = parse(subprocess.run([exe, ex, N], check=True, capture_output=True, text=True).stdout)
    plt = pyplot()
    fig, ax = plt.subplots(2, 2, figsize=(11, 11))
    rows = []
    for a, name in zip(ax.flat, ("mass_constraint", "mass_constraint_inverse", "jac_absolute", "jac_nullspace")):
        A = mats.get(name)
        if A is None:
            a.set_title(TITLES[name] + ": not produced")
            continue
        a.spy(A, markersize=1.5)
        n = A.shape[0]
        a.set_title(f"{TITLES[name]}\n{n} x {A.shape[1]}, {int(A.sum())} non-zeros", fontsize=9)
        lo, up = bandwidths(A)
        blk = ""
        nq = nqs[name]
        if name.startswith("jac"):  # the acceleration rows: d(vdot)/dq and d(vdot)/dv (q first in y)
            blk = "dvdot/dq %d/%d, dvdot/dv %d/%d" % (bandwidths(A[nq:, :nq]) + bandwidths(A[nq:, nq:]))
        rows.append([name, f"{n}x{A.shape[1]}", nq, int(A.sum()), f"{A.sum() / A.size:.3f}", lo, up, blk])
    fig.suptitle(f"[LA] Fig. 4 from today's code, N = {N}")
    fig.tight_layout()
    fig.savefig(os.path.join(res, "la-fig4.png"), dpi=110)
    with open(os.path.join(res, "la-fig4.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["matrix", "size", "nq", "nonzeros", "density", "lower_bandwidth", "upper_bandwidth",
                    "block_bandwidths_lower_upper"])
        w.writerows(rows)
    for r in rows:
        print(",".join(map(str, r)))


if __name__ == "__main__":
    main()
