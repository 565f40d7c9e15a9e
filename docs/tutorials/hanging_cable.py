# SPDX-License-Identifier: Apache-2.0
"""Tutorial: a hanging cable.

A 1 m rubber cord, clamped at its upper end, is released horizontally and
falls under gravity; Kelvin-Voigt damping (retardation times of 10 ms) lets
its vibrations decay.  The scenario is written as Python data (the same
keys as a YAML file) and run; the energy balance must close.  Then the same
cord is solved for its static equilibrium (one changed key), where the
clamp carries exactly the weight of the cord.
"""
import numpy as np

import cosrod

MODEL = {
    "cosrod": 1,
    "title": "hanging cable",
    "gravity": [0, 0, -9.81],
    "materials": {"rubber": {"E": 5.0e6, "poisson": 0.5, "density": 1100}},
    "rods": [{
        "name": "cord", "length": 1.0, "segments": 10, "material": "rubber",
        "section": {"shape": "circle", "radius": 5.0e-3},
        "damping": {"kelvin_voigt": {"tau_shear": 0.01, "tau_bulk": 0.01}},
        "shape": {"type": "straight", "direction": [1, 0, 0], "normal": [0, 0, 1]},
        "ends": {"start": {"type": "clamped"}},
    }],
    "analysis": {"type": "dynamic", "t_end": 1.0},
    "solver": {"integrator": "radau5", "rtol": 1e-6, "atol": 1e-6},
    "output": {"every": 0.1},
}
scenario = cosrod.Scenario(MODEL)
res = cosrod.Sim(scenario).run()

print(f"steps {res.stats['naccept']}, status {res.stats['status']}")
for k in range(0, len(res.t), 2):
    print(f"t = {res.t[k]:.1f} s   tip = ({res.tip[k, 0]:+.4f}, {res.tip[k, 2]:+.4f}) m")

# energy balance: kinetic + elastic + gravity - external work + dissipated
# stays at its initial value up to the integration tolerance
e = res.energy
drift = np.max(np.abs(e["balance"] - e["balance"][0]))
scale = np.max(np.abs(e["gravity"]))
print(f"energy balance drift {drift:.2e} J of {scale:.3f} J moved")
assert drift < 1e-3 * scale

# the static equilibrium: change one key, as `--set analysis.type=static` would
res_s = cosrod.Scenario(dict(MODEL, analysis={"type": "static", "increments": 20})).run()
weight = 1100 * np.pi * 5.0e-3 ** 2 * 1.0 * 9.81
Fz = res_s.reactions["cord"][-1, 0, 2]
print(f"static tip = ({res_s.tip[-1, 0]:+.4f}, {res_s.tip[-1, 2]:+.4f}) m")
print(f"clamp force Fz = {Fz:.6f} N, weight = {weight:.6f} N")
assert abs(Fz - weight) < 1e-6 * weight
