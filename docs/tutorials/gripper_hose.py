# SPDX-License-Identifier: Apache-2.0
"""Tutorial: a hose on a moving robot gripper.

examples/gripper-hose.yaml: a rubber hose (0.6 m, r = 1 cm) clamped at the
origin; a gripper moves its other end by (-0.15, 0.15, 0) m in 0.42 s
(a prescribed end following position keyframes) and holds still.  We look
at the largest bending strain r |K| at the hose surface, where it occurs,
and the work the gripper did, which the energy balance accounts for.
Then we change one parameter, the hose length, the way `--set` does.
"""
import os

import numpy as np

import cosrod

examples = os.environ.get("COSROD_EXAMPLES", "examples")
path = os.path.join(examples, "gripper-hose.yaml")


def study(length):
    res = cosrod.load(path, overrides={"rods.0.length": length,
                                 "rods.0.ends.end.position": [[0, length, 0, 0], [0.4243, length - 0.15, 0.15, 0]]}).run()
    K = res.curvatures                                   # (n_t, N+1, 3) [1/m]
    bend = 1.0e-2 * np.hypot(K[:, :, 0], K[:, :, 1])     # surface bending strain
    k, n = np.unravel_index(np.argmax(bend), bend.shape)
    e = res.energy
    work = e["external_work"][-1]
    stored = e["kinetic"][-1] + e["elastic"][-1] + e["dissipated"][-1]
    print(f"L = {length:.1f} m: max bending strain {bend[k, n]:.4f} at s = {res.s[n]:.3f} m, t = {res.t[k]:.2f} s;"
          f" gripper work {work:.4f} J, kinetic + elastic + dissipated {stored:.4f} J")
    # the balance closes to the integration tolerance (rtol 1e-5 per step)
    assert abs(work - stored) < 1e-2 * abs(work)
    return bend[k, n]


short, long_ = study(0.6), study(0.8)
# the same end displacement bends a longer hose less
assert long_ < short
