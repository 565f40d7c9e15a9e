# SPDX-License-Identifier: Apache-2.0
"""What the peer comparisons (pendulum.py, hose_drop.py) share: the cosrod
CLI of a build directory, and a child process timed by its CPU."""
import os
import resource
import subprocess
import sys


def cli_of(build, who):
    """The cosrod binary of build (src/cli/cosrod or cosrod), or exit naming who asked."""
    for c in (os.path.join(build, "src", "cli", "cosrod"), os.path.join(build, "cosrod")):
        if os.access(c, os.X_OK):
            return c
    sys.exit("%s: no cosrod CLI in %s" % (who, build))


def child_cpu(args, env=None):
    """Run args to completion (output captured): (CompletedProcess, its user + system CPU seconds)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
