# SPDX-License-Identifier: Apache-2.0
"""Tutorial: a cable pendulum with a rigid body.

examples/cable-pendulum.yaml: a 1 m nylon cable, pinned at the origin, with
a 1 kg bob clamped to its lower end, released 30 degrees from the vertical.
The rod and the body are integrated together (null-space formulation,
RADAU5).  We compare the swing period with that of a rigid pendulum of the
same geometry, T = 2 pi sqrt(I_O / (m g d)), which the light, stiff cable
should reproduce closely.
"""
import math
import os

import numpy as np

import cosrod

examples = os.environ.get("COSROD_EXAMPLES", "examples")
res = cosrod.load(os.path.join(examples, "cable-pendulum.yaml"), overrides={"analysis.t_end": 2.5}).run()

x = res.bodies["bob"].x                 # (n_t, 3) centre of mass [m]
t = res.t
# period from the zero crossings of the bob's horizontal position
s = np.sign(x[:, 0])
cross = [t[k] - x[k, 0] * (t[k + 1] - t[k]) / (x[k + 1, 0] - x[k, 0]) for k in range(len(t) - 1) if s[k] != s[k + 1]]
period = 2 * (cross[1] - cross[0])

m, d = 1.0, math.hypot(0.5, 0.9160254037844386)  # bob mass, pivot-to-centre distance
I_O = 2.0e-3 + m * d ** 2                         # bob inertia about the pivot (cable neglected)
amp = math.radians(30)
T_small = 2 * math.pi * math.sqrt(I_O / (m * 9.81 * d))
T_rigid = T_small * (1 + amp ** 2 / 16 + 11 * amp ** 4 / 3072)  # finite-amplitude correction
print(f"steps {res.stats['naccept']}   period {period:.4f} s   rigid pendulum {T_rigid:.4f} s")
assert abs(period / T_rigid - 1) < 0.02
