# SPDX-License-Identifier: Apache-2.0
"""Tutorial: static sag and support reactions.

The inextensible steel cable of examples/catenary-static.yaml (10 m long,
pinned at two points 8 m apart) sags under its own weight.  A static
analysis ramps gravity over the pseudo-time t in [0, 1]; we read the sag
and the pin reactions and compare them with the closed-form catenary
(a string without bending stiffness): L = 2a sinh(D/2a).
"""
import math
import os

import cosrod

examples = os.environ.get("COSROD_EXAMPLES", "examples")
res = cosrod.load(os.path.join(examples, "catenary-static.yaml")).run()

x = res.centerline[-1]
sag = x[0, 2] - x[:, 2].min()
F = res.reactions["cable"][-1]            # (end, [Fx, Fy, Fz, Mx, My, Mz]) on the rod
w = 7850 * math.pi * 2e-3 ** 2 * 9.81     # weight per length [N/m]
L, D = 10.0, 8.0

a = 3.0                                   # solve L = 2a sinh(D/2a) by Newton
for _ in range(50):
    f = 2 * a * math.sinh(D / (2 * a)) - L
    df = 2 * math.sinh(D / (2 * a)) - D / a * math.cosh(D / (2 * a))
    a -= f / df
sag_string = a * (math.cosh(D / (2 * a)) - 1)

print(f"pseudo-time steps: {len(res.t)} output frames")
print(f"sag            {sag:.4f} m   (string catenary {sag_string:.4f} m)")
print(f"pin Fz         {F[0, 2]:.4f} N and {F[1, 2]:.4f} N   (half the weight {w * L / 2:.4f} N)")
print(f"horizontal pull {abs(F[0, 0]):.4f} N   (string catenary {w * a:.4f} N)")
# vertical equilibrium is exact; the bending stiffness makes the cable sag
# slightly less than a string (EI / (w L^3) = 0.3 %)
assert abs(F[0, 2] + F[1, 2] - w * L) < 1e-6 * w * L
assert abs(sag - sag_string) < 0.03 * sag_string
