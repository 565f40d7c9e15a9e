# SPDX-License-Identifier: Apache-2.0
"""Tutorial: buckling and modes.

examples/buckling.yaml holds a clamped-free flagpole and a pinned-pinned
strut of steel (L = 1 m, r = 5 mm) under a unit compressive end force.  The
buckling analysis returns critical load factors, i.e. critical loads in N;
Euler's formulas are P = pi^2 EI / (4 L^2) (flagpole) and pi^2 EI / L^2
(strut).  Then a modal analysis of the same flagpole without the load gives
its bending frequencies, compared with the Euler-Bernoulli cantilever
values f_k = (beta_k L)^2 / (2 pi L^2) sqrt(EI / rho A).
"""
import math
import os

import numpy as np

import cosrod

examples = os.environ.get("COSROD_EXAMPLES", "examples")
EI = 2.1e11 * math.pi * 0.005 ** 4 / 4
rhoA = 7850 * math.pi * 0.005 ** 2

res = cosrod.load(os.path.join(examples, "buckling.yaml")).run()
lf = res.modes["load_factor"]
rods = res.modes["rod"]
for name, rod, euler in (("flagpole", 0, math.pi ** 2 * EI / 4), ("strut", 1, math.pi ** 2 * EI)):
    first = min(lf[rods == rod])
    print(f"{name:9s} critical load {first:9.3f} N   Euler {euler:9.3f} N   rel. diff {first / euler - 1:+.1e}")
    assert abs(first / euler - 1) < 5e-3

modes = cosrod.load(os.path.join(examples, "buckling.yaml"),
                    overrides={"analysis.type": "modes", "analysis.count": 8}).run()
m = modes.modes
# a round section bends alike about d1 and d2: each bending frequency comes as a pair
f = np.unique(np.round([fk for fk, r, ty in zip(m["frequency_hz"], m["rod"], m["type"])
                        if r == 0 and ty.startswith("bending")], 6))
beta = np.array([1.8751041, 4.6940911])
euler_bernoulli = beta ** 2 / (2 * math.pi) * math.sqrt(EI / rhoA)
print("flagpole bending frequencies [Hz]:", np.round(f[:2], 3), " Euler-Bernoulli:", np.round(euler_bernoulli, 3))
assert np.all(np.abs(f[:2] / euler_bernoulli - 1) < 1e-2)
