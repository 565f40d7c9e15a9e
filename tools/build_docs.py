#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build the cosrod manual (`make docs`, CTest docs.build).

    tools/build_docs.py BUILD_DIR

1. copies docs/ to BUILD_DIR/docs/src (the sources stay untouched);
2. generates pages into BUILD_DIR/docs/src/_gen:
   scenario.md   the scenario reference, printed by `cosrod help --reference`
                 from the loader's own key table (src/scenario/scenario_keys.c);
   capi/*.md     the C API from include/cosrod/*.h (tools/docs_capi.py; a
                 public function without a comment is an error);
   validation.md the validation table (tools/docs_validation.py);
   tutorials/*.out  the output of every tutorial, which is run here: a
                 tutorial that fails fails the build;
3. runs sphinx-build -W (warnings are errors) into BUILD_DIR/docs/html.
Exit status 0 when the manual was built without warnings, 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import docs_capi  # noqa: E402
import docs_validation  # noqa: E402


def fail(msg):
    print(f"build_docs: {msg}", file=sys.stderr)
    sys.exit(1)


def run_tutorials(build, src, gen, env):
    """Run docs/tutorials/*.py, *.sh and *.c (compiled against the build tree);
    write each one's stdout to _gen/tutorials/NAME.out."""
    tdir = os.path.join(src, "tutorials")
    out_dir = os.path.join(gen, "tutorials")
    work = os.path.join(build, "docs", "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    for name in sorted(os.listdir(tdir)):
        path = os.path.join(tdir, name)
        stem, ext = os.path.splitext(name)
        if ext == ".py":
            cmd = [sys.executable, path]
        elif ext == ".sh":
            cmd = ["sh", path]
        elif ext == ".c":
            exe = os.path.join(work, stem)
            cc = [os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                  "-I" + os.path.join(ROOT, "include"), "-I" + os.path.join(build, "include"), path,
                  "-o", exe, "-L" + build, "-Wl,-rpath," + build, "-lcosrod", "-lm"]
            r = subprocess.run(cc, capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"tutorial {name} does not compile:\n{r.stderr}")
            cmd = [exe]
        else:
            continue
        t0 = time.time()
        r = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            fail(f"tutorial {name} failed (exit {r.returncode}):\n{r.stdout}\n{r.stderr}")
        with open(os.path.join(out_dir, stem + ".out"), "w") as f:
            f.write(r.stdout)
        print(f"build_docs: tutorial {name} ok ({time.time() - t0:.1f} s)")


def check_example_index():
    """Every examples/*.yaml has a row in docs/examples.md, and every row names one."""
    with open(os.path.join(ROOT, "docs", "examples.md")) as f:
        rows = set(re.findall(r"^\| `([A-Za-z0-9_-]+)` \|", f.read(), re.M))
    files = {n[:-5] for n in os.listdir(os.path.join(ROOT, "examples")) if n.endswith(".yaml")}
    for n in sorted(files - rows):
        print(f"build_docs: examples/{n}.yaml has no row in docs/examples.md", file=sys.stderr)
    for n in sorted(rows - files):
        print(f"build_docs: docs/examples.md lists {n}, which is not in examples/", file=sys.stderr)
    if files != rows:
        fail("the example index and examples/ differ")


def main():
    if len(sys.argv) != 2:
        fail("usage: build_docs.py BUILD_DIR")
    build = os.path.abspath(sys.argv[1])
    for mod, pkg in (("sphinx", "python3-sphinx"), ("myst_parser", "python3-myst-parser")):
        try:
            __import__(mod)
        except ImportError:
            fail(f"{sys.executable} has no {mod}: apt-get install --no-install-recommends {pkg} "
                 "(tools/install-deps.sh installs it)")
    cli = os.path.join(build, "src", "cli", "cosrod")
    if not os.access(cli, os.X_OK):
        fail(f"{cli} is missing: build first (make build)")
    src = os.path.join(build, "docs", "src")
    html = os.path.join(build, "docs", "html")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "docs"), src)
    os.makedirs(os.path.join(src, "_static"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "viewer", "screenshot.png"), os.path.join(src, "_static", "screenshot.png"))
    gen = os.path.join(src, "_gen")
    os.makedirs(gen, exist_ok=True)

    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(build, "python") + os.pathsep + env.get("PYTHONPATH", "")
    env["PATH"] = os.path.dirname(cli) + os.pathsep + env.get("PATH", "")
    env["COSROD_EXAMPLES"] = os.path.join(ROOT, "examples")
    env["MPLBACKEND"] = "Agg"
    env.pop("LD_LIBRARY_PATH", None)

    check_example_index()
    r = subprocess.run([cli, "help", "--reference"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"cosrod help --reference failed:\n{r.stderr}")
    with open(os.path.join(gen, "scenario.md"), "w") as f:
        f.write(r.stdout)
    n_undoc = docs_capi.generate(os.path.join(ROOT, "include", "cosrod"), os.path.join(gen, "capi"))
    if n_undoc:
        fail(f"{n_undoc} public C function(s) without a comment (see above)")
    docs_validation.generate(ROOT, build, os.path.join(gen, "validation.md"))
    run_tutorials(build, src, gen, env)

    env["COSROD_VERSION"] = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.split()[-1]
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d",
           os.path.join(build, "docs", "doctrees"), src, html]
    r = subprocess.run(cmd, env=env)
    if r.returncode != 0:
        fail("sphinx-build reported warnings or errors (above)")
    print(f"build_docs: manual in {os.path.join(html, 'index.html')}")


if __name__ == "__main__":
    main()
