# SPDX-License-Identifier: Apache-2.0
"""Independent planar discretisation of a geometrically exact (Reissner /
Simo) shear-deformable, extensible beam, written for the check of [LLA]
Test 1 (the rubber pendulum).  It shares no code with cosrod.

Discretisation (deliberately different from cosrod's staggered grid of
[LLA] §3, which puts quaternions on segments and curvatures on vertices):
two-node finite elements with linear interpolation of the positions
x = (y, z) *and* of the rotation angle theta at the *nodes*, one-point
(reduced) Gauss integration at the element midpoint (Simo & Vu-Quoc 1986;
Reissner 1972 strains):

  theta_m = (theta_i + theta_{i+1})/2,  t = (cos theta_m, sin theta_m),
  n = (-sin theta_m, cos theta_m),  x' = (x_{i+1} - x_i)/h,
  extension  Gamma_3 = t.x' - 1,  shear  Gamma_1 = n.x',
  curvature  kappa = (theta_{i+1} - theta_i)/h,
  V_e = h/2 (EA Gamma_3^2 + GA Gamma_1^2 + EI kappa^2).

Lumped (row-sum) masses rho A h and rotary inertias rho I h per node (half
at the end nodes); gravity on the lumped masses.  Equations of motion
M q'' = -grad V + f_g in the angle theta (planar rotations add, so no
quaternion or constraint), integrated with scipy's solve_ivp.  All of this
converges with O(h^2) to the same continuum Reissner beam as [LLA]'s
discretisation, so the two agree in the limit and nowhere else by
construction.
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.sparse import lil_matrix


class Beam2D:
    """Planar Reissner beam, node 0 pinned (position fixed, angle free),
    initially straight along +y, gravity g along -z."""

    def __init__(self, M, L, E, G, rho, A, I, g, ks=1.0):
        self.M, self.h = M, L / M
        self.EA, self.GA, self.EI = E * A, ks * G * A, E * I
        w = np.full(M + 1, self.h)
        w[0] = w[-1] = self.h / 2
        self.m = rho * A * w          # lumped masses
        self.J = rho * I * w          # lumped rotary inertias
        self.g = g
        self.x0 = np.stack([np.arange(M + 1) * self.h, np.zeros(M + 1)], axis=1)
        # free unknowns: y_1..y_M, z_1..z_M, theta_0..theta_M
        self.n = 3 * M + 1

    def unpack(self, q):
        M = self.M
        x = np.zeros((M + 1, 2))
        x[1:, 0], x[1:, 1] = q[:M], q[M:2 * M]
        return x, q[2 * M:]

    def forces(self, q):
        """Generalised force -grad V + f_g on the free unknowns."""
        x, th = self.unpack(q)
        h = self.h
        thm = 0.5 * (th[1:] + th[:-1])
        c, s = np.cos(thm), np.sin(thm)
        d = (x[1:] - x[:-1]) / h
        t_d = c * d[:, 0] + s * d[:, 1]
        n_d = -s * d[:, 0] + c * d[:, 1]
        g3, g1, kap = t_d - 1.0, n_d, (th[1:] - th[:-1]) / h
        # internal force dV/d(x_{i+1}-x_i) and moments
        Fy = self.EA * g3 * c - self.GA * g1 * s
        Fz = self.EA * g3 * s + self.GA * g1 * c
        dth_m = h * (self.EA * g3 * n_d - self.GA * g1 * t_d)
        mom = self.EI * kap
        fx = np.zeros((self.M + 1, 2))
        fx[:-1, 0] += Fy; fx[1:, 0] -= Fy
        fx[:-1, 1] += Fz; fx[1:, 1] -= Fz
        fth = np.zeros(self.M + 1)
        fth[:-1] -= 0.5 * dth_m - mom
        fth[1:] -= 0.5 * dth_m + mom
        fx[:, 1] -= self.m * self.g
        return np.concatenate([fx[1:, 0] / self.m[1:], fx[1:, 1] / self.m[1:], fth / self.J])

    def rhs(self, t, u):
        n = self.n
        return np.concatenate([u[n:], self.forces(u[:n])])

    def sparsity(self):
        """Jacobian pattern of rhs (each element couples its two nodes)."""
        n, M = self.n, self.M
        node = [[] for _ in range(M + 1)]          # unknown indices of each node
        for i in range(1, M + 1):
            node[i] += [i - 1, M + i - 1]
        for i in range(M + 1):
            node[i].append(2 * M + i)
        S = lil_matrix((2 * n, 2 * n), dtype=np.int8)
        for k in range(n):
            S[k, n + k] = 1
        for e in range(M):
            idx = node[e] + node[e + 1]
            for a in idx:
                for b in idx:
                    S[n + a, b] = 1
        return S.tocsr()

    def solve(self, t_end, t_eval, method="Radau", rtol=1e-8, atol=1e-10):
        u0 = np.zeros(2 * self.n)
        u0[:self.M] = self.x0[1:, 0]
        kw = dict(jac_sparsity=self.sparsity()) if method in ("Radau", "BDF") else {}
        sol = solve_ivp(self.rhs, (0.0, t_end), u0, method=method, t_eval=t_eval,
                        rtol=rtol, atol=atol, **kw)
        if not sol.success:
            raise RuntimeError(sol.message)
        M = self.M
        return sol.t, sol.y[M - 1], sol.y[2 * M - 1], sol.nfev

    def energy(self, u):
        """Total energy (kinetic + strain + gravity) of a state u."""
        n, M, h = self.n, self.M, self.h
        x, th = self.unpack(u[:n])
        v, om = self.unpack(u[n:])
        thm = 0.5 * (th[1:] + th[:-1])
        c, s = np.cos(thm), np.sin(thm)
        d = (x[1:] - x[:-1]) / h
        g3 = c * d[:, 0] + s * d[:, 1] - 1.0
        g1 = -s * d[:, 0] + c * d[:, 1]
        kap = (th[1:] - th[:-1]) / h
        V = 0.5 * h * np.sum(self.EA * g3 ** 2 + self.GA * g1 ** 2 + self.EI * kap ** 2)
        T = 0.5 * np.sum(self.m * (v ** 2).sum(axis=1) + self.J * om ** 2)
        return T + V + np.sum(self.m * self.g * x[:, 1])


def rubber_pendulum(M):
    """[LLA] Test 1 data (examples/rubber-pendulum.yaml): L = 1 m, E = 5e6 Pa,
    nu = 0.5 (G = E/3), rho = 1100 kg/m^3, circle r = 5 mm, shear
    correction 1, g = 9.81 m/s^2."""
    E, nu, rho, r = 5.0e6, 0.5, 1100.0, 5.0e-3
    A, I = np.pi * r ** 2, np.pi * r ** 4 / 4
    return Beam2D(M, 1.0, E, E / (2 * (1 + nu)), rho, A, I, 9.81)
