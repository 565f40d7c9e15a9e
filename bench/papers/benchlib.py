# SPDX-License-Identifier: Apache-2.0
"""Shared helpers of the paper scripts in bench/papers: the step counts of
[LLA] Tables 2-3, one `cosrod run` call, the output files it writes
(summary.json, centerline.csv, frames.csv), the commit stamp and the
matplotlib set-up (Agg back end, no display)."""
import csv
import json
import os
import subprocess

LLA_TOLS = ["1e-2", "1e-3", "1e-4", "1e-5", "1e-6", "1e-7", "1e-8"]
LLA_METHODS = ["radau5", "seulex", "rodas", "ida", "dopri5"]  # ida stands in for DASPK

# [LLA] Table 2 (perf-rubber) and Table 3 (perf-steel): per method a list over
# LLA_TOLS of (#f, #Jacobians, #steps); the paper's DASPK column is keyed "ida".
LLA_TABLES = {
    "rubber": {
        "radau5": [(12089, 821, 1645), (12555, 877, 1714), (14679, 1071, 2050), (21187, 1507, 2910),
                   (26285, 1809, 3354), (27463, 2020, 3224), (33829, 2584, 3813)],
        "seulex": [(2725, 335, 453), (8882, 433, 584), (14066, 463, 487), (22311, 443, 473),
                   (38742, 551, 628), (46864, 654, 659), (59751, 895, 899)],
        "rodas": [(4050, 600, 688), (4764, 769, 799), (7242, 1202, 1208), (12990, 2165, 2165),
                  (25440, 4240, 4240), (54588, 9098, 9098), (125382, 20897, 20897)],
        "ida": [(1408, 319, 478), (3358, 458, 1508), (4403, 427, 2299), (6075, 437, 3263),
                (7301, 438, 3948), (9659, 443, 5551), (12952, 471, 7703)],
        "dopri5": [(331610, 0, 55268), (331610, 0, 55268), (331622, 0, 55270), (331694, 0, 55282),
                   (332228, 0, 55371), (337184, 0, 56179), (364376, 0, 60729)],
    },
    "steel": {
        "radau5": [(30804, 2096, 4210), (31355, 2146, 4323), (35087, 2296, 5007), (44426, 2985, 6715),
                   (74581, 4218, 12075), (107035, 6915, 15972), (129280, 7853, 17272)],
        "seulex": [(11450, 1539, 2667), (19073, 2136, 3062), (39904, 3669, 4190), (77994, 3374, 4428),
                   (127326, 4247, 4342), (533384, 17868, 18010), (1720395, 57654, 57780)],
        "rodas": [(10423, 1568, 1771), (15040, 2430, 2522), (24183, 3963, 4044), (47438, 7848, 2918),
                  (153475, 25525, 25590), (449887, 74862, 75005), (1146392, 190917, 191095)],
        "ida": [(6810, 1670, 1865), (6450, 1973, 1697), (10019, 2544, 3499), (30288, 9144, 11417),
                (81948, 33502, 26983), (69220, 20244, 31517), (138874, 5961, 98652)],
        "dopri5": [(9211232, 0, 1535205), (9211244, 0, 1535207), (9211256, 0, 1535209), (9211268, 0, 1535211),
                   (9211298, 0, 1535216), (9211304, 0, 1535217), (9211310, 0, 1535218)],
    },
}


def sets_args(sets):
    """["key=value", ...] -> ["--set", "key=value", ...]"""
    out = []
    for s in sets:
        out += ["--set", s]
    return out


def cosrod_run(cosrod, scenario, out, sets=(), check=True, quiet=False):
    """`cosrod run SCENARIO -o OUT --set ...` without VTK files and plots;
    returns OUT.  check=False: a failed run is left for summary() to report."""
    args = [cosrod, "run", scenario, "-o", out] + (["-q"] if quiet else [])
    args += sets_args(["output.vtk=false", "output.plots=false"] + list(sets))
    err = None if check else subprocess.DEVNULL
    subprocess.run(args, check=check, stdout=subprocess.DEVNULL, stderr=err)
    return out


def tol_sets(method, tol, max_steps=None):
    """the --set values of one integrator at rtol = atol = tol"""
    s = [f"solver.integrator={method}", f"solver.rtol={tol}", f"solver.atol={tol}"]
    return s + ([f"solver.max_steps={max_steps}"] if max_steps else [])


def summary(out):
    """summary.json of a run directory, None if the run wrote none"""
    try:
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rows(out, name):
    """the rows of OUT/NAME (a CSV file the run wrote) as dicts"""
    with open(os.path.join(out, name)) as f:
        return list(csv.DictReader(f))


def tip(out, cols=("x", "y", "z")):
    """(t, [col values]) of the last centreline vertex, from centerline.csv"""
    cl = rows(out, "centerline.csv")
    nv = max(int(r["vertex"]) for r in cl)
    return [(float(r["t"]), *(float(r[c]) for c in cols)) for r in cl if int(r["vertex"]) == nv]


def commit():
    """the commit bench/run.sh was started from (COSROD_COMMIT), else git's HEAD"""
    c = os.environ.get("COSROD_COMMIT")
    if c:
        return c
    try:
        return subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short",
                               "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def pyplot():
    """matplotlib.pyplot on the Agg back end (files only, no display)"""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
