#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown table from bench/auto/run.py CSV files (later files win per
scenario and method): per scenario auto's choice, CPU (min over the runs),
tip error, and the best fixed method two ways — the fastest that finished,
and the fastest with a tip error <= 1e-3 m — with auto's CPU ratio to each.

Usage: bench/auto/summarize.py RUN.csv [RUN2.csv ...]
"""
import csv
import sys


def main():
    runs = {}
    for name in sys.argv[1:]:
        seen = set()
        for r in csv.DictReader(open(name)):
            if r["method"].startswith("ref:"):
                continue
            key = (r["scenario"], r["method"])
            if key not in seen:  # a later file replaces a method's earlier rows
                runs[key] = []
                seen.add(key)
            runs[key].append(r)
    scen = []
    for s, _ in runs:
        if s not in scen:
            scen.append(s)
    print("| scenario | auto: method | CPU [s] | tip error [m] | fastest fixed (error) | auto/it "
          "| fastest fixed with error <= 1e-3 | auto/it | failed or capped |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in scen:
        best = {}
        failed = []
        for (sc, m), rows in runs.items():
            if sc != s:
                continue
            ok = [r for r in rows if r["status"] == "ok"]
            if not ok:
                failed.append("%s (%s)" % (m, rows[0]["status"]))
                continue
            best[m] = (min(float(r["cpu_s"]) for r in ok), float(ok[0]["error_m"]), ok[0]["chosen"], len(ok))
        a = best.pop("auto", None)
        fx = sorted(best.items(), key=lambda kv: kv[1][0])
        acc = [kv for kv in fx if kv[1][1] <= 1e-3 or kv[1][1] != kv[1][1]]
        cell = lambda kv: "%s %.3g s (%.2g m)" % (kv[0], kv[1][0], kv[1][1]) if kv else "—"
        ratio = lambda kv: "%.2f" % (a[0] / kv[1][0]) if a and kv else "—"
        f0 = fx[0] if fx else None
        f1 = acc[0] if acc else None
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s, a[2] if a else "—", "%.3g" % a[0] if a else "—", "%.2g" % a[1] if a else "—", cell(f0), ratio(f0),
            cell(f1), ratio(f1), ", ".join(failed) or "—"))


if __name__ == "__main__":
    main()
