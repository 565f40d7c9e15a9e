# SPDX-License-Identifier: Apache-2.0
"""`cosrod sweep` (the C command hands its arguments over to this module):

    cosrod sweep SCENARIO --param KEY=V1,V2,... --param KEY=START:STOP:COUNT
                 [--zip] [--samples FILE.csv] [--set KEY=VALUE]... [--jobs N]
                 [--scheduler ADDRESS] [--timeout S] [--plot] [--quiet] -o DIR

Exit status: 0 every run ok, 1 some runs failed or were invalid (the table
says which and why), 2 invalid arguments, 130 interrupted (Ctrl-C; rerun the
same command to resume)."""
import argparse
import math
import os
import re
import sys

USAGE_ERROR = 2


class _Usage(Exception):
    pass


def _split_top(text):
    """Split at commas outside brackets: '[0,0,1],[0,1,0]' -> two values."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [v.strip() for v in out]


def _scalar(v):
    """A value as written: int, float, or the YAML text itself."""
    if re.fullmatch(r"[+-]?\d+", v):
        return int(v)
    try:
        x = float(v)
        if math.isfinite(x):
            return x
    except ValueError:
        pass
    return v


def parse_param(text):
    """'KEY=V1,V2,...' or 'KEY=START:STOP:COUNT' -> (key, [values])."""
    key, eq, vals = text.partition("=")
    key = key.strip()
    if not eq or not key or not vals.strip():
        raise _Usage(f"--param {text}: expected KEY=V1,V2,... or KEY=START:STOP:COUNT")
    m = re.fullmatch(r"\s*([^:,\[\]]+):([^:,\[\]]+):(\d+)\s*", vals)
    if m:
        a, b, n = _scalar(m.group(1)), _scalar(m.group(2)), int(m.group(3))
        if isinstance(a, str) or isinstance(b, str) or n < 1:
            raise _Usage(f"--param {text}: START:STOP:COUNT needs numbers and COUNT >= 1")
        if n == 1:
            return key, [a]
        step = (b - a) / (n - 1)
        if isinstance(a, int) and isinstance(b, int) and float(step).is_integer():
            return key, [a + int(step) * k for k in range(n)]
        return key, [float(a + (b - a) * k / (n - 1)) for k in range(n)]
    vals = [_scalar(v) for v in _split_top(vals)]
    if any(v == "" for v in vals):
        raise _Usage(f"--param {text}: empty value")
    return key, vals


def _args(argv):
    p = argparse.ArgumentParser(prog="cosrod sweep", description="Run a design study: one `cosrod run` per "
                                "parameter combination; DIR/sweep.csv has one row per run.")
    p.add_argument("scenario")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUES",
                   help="KEY=V1,V2,... or KEY=START:STOP:COUNT (COUNT values, ends included); several "
                   "--param: every combination (or --zip)")
    p.add_argument("--zip", action="store_true", help="pair the --param lists element by element")
    p.add_argument("--samples", metavar="FILE.csv", help="a table of samples: one column per key path")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="fixed override")
    p.add_argument("--jobs", "-j", type=int, default=None, help="concurrent runs (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (tcp://host:8786)")
    p.add_argument("--timeout", type=float, default=None, help="seconds per run")
    p.add_argument("--plot", action="store_true", help="DIR/plots/<metric>.png: each metric vs each parameter")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no summary")
    p.add_argument("-o", "--output", required=True, metavar="DIR")
    return p.parse_args(argv)


def _grid(a):
    from .study import product, zipped

    if a.samples:
        import pandas as pd

        if a.param:
            raise _Usage("--samples and --param: give one of them")
        try:
            return pd.read_csv(a.samples)
        except (OSError, ValueError) as e:
            raise _Usage(f"--samples {a.samples}: {e}") from e
    if not a.param:
        raise _Usage("no --param (or --samples) given")
    d = dict(parse_param(t) for t in a.param)
    if len(d) < len(a.param):
        raise _Usage("the same key in two --param options")
    if a.zip:
        try:
            return zipped(d)
        except ValueError as e:
            raise _Usage(f"--zip: {e}") from e
    return product(d)


def _sets(a):
    out = {}
    for t in a.set:
        k, eq, v = t.partition("=")
        if not eq or not k.strip():
            raise _Usage(f"--set {t}: expected KEY=VALUE")
        out[k.strip()] = v.strip()
    return out


def _plot(df, pnames, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from . import plot

    d = os.path.join(out, "plots")
    os.makedirs(d, exist_ok=True)
    skip = set(pnames) | {"run", "status", "message", "dir", "hash"}
    metrics = [c for c in df.columns if c not in skip and df[c].dtype.kind in "fiu"]
    num = [p for p in pnames if df[p].dtype.kind in "fiu"] or pnames
    files = []
    for m in metrics:
        fig, axes = plt.subplots(1, len(num), figsize=(4.5 * len(num), 3.6), squeeze=False)
        for ax, x in zip(axes[0], num):
            others = [p for p in num if p != x]
            plot.sweep(df, x=x, y=m, hue=others[0] if others else None, ax=ax)
        fig.tight_layout()
        path = os.path.join(d, f"{m}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        files.append(path)
    return files


def main(argv=None):
    try:
        a = _args(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return USAGE_ERROR if e.code else 0
    import signal

    from . import CosrodError
    from .study import sweep

    # SIGTERM / SIGHUP stop the study like Ctrl-C (consistent sweep.csv)
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.default_int_handler)
    client = None
    try:
        grid = _grid(a)
        sets = _sets(a)
        if a.jobs is not None and a.jobs < 1:
            raise _Usage("--jobs must be >= 1")
        if not os.path.exists(a.scenario):
            raise _Usage(f"{a.scenario}: no such file")
        if a.scheduler:
            from distributed import Client

            try:
                client = Client(a.scheduler, timeout="20s")
            except OSError as e:
                raise _Usage(f"--scheduler {a.scheduler}: {e}") from e
        df = sweep(a.scenario, grid, client=client, out=a.output, jobs=a.jobs, set=sets, timeout=a.timeout,
                   progress=None if not a.quiet else False)
    except _Usage as e:
        print(f"cosrod sweep: {e}", file=sys.stderr)
        return USAGE_ERROR
    except CosrodError as e:
        print(f"cosrod sweep: {e}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print(f"\ncosrod sweep: interrupted; {os.path.join(a.output, 'sweep.csv')} holds the runs done "
              "(rerun the same command to resume)", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
    pnames = list(grid.columns) if hasattr(grid, "columns") else list(dict.fromkeys(k for r in grid for k in r))
    bad = df[df["status"] != "ok"]
    if not a.quiet:
        print(f"{len(df)} runs: {len(df) - len(bad)} ok, {len(bad)} not ok, {df.attrs['executed']} executed "
              f"(the others reused or invalid); {os.path.join(a.output, 'sweep.csv')}")
        for _, r in bad.iterrows():
            print(f"  run {r['run']} ({', '.join(f'{p}={r[p]}' for p in pnames)}): {r['status']}: {r['message']}")
    if a.plot:
        files = _plot(df, pnames, os.path.abspath(a.output))
        if not a.quiet:
            print(f"plots: {len(files)} files in {os.path.join(a.output, 'plots')}")
    return 0 if bad.empty else 1


if __name__ == "__main__":
    sys.exit(main())
