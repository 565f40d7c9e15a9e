// SPDX-License-Identifier: Apache-2.0
/* [LA] §4 experiments that need more than one CSV row of bench_papers:
 *
 *   la_experiments conv SCENARIO NREF N1 N2 ... [--set k=v]...
 *     [LA] Fig. 2: spatial convergence.  Runs SCENARIO (examples/convergence.yaml:
 *     damped rubber pendulum, DAE form with projection, radau5 at a tight
 *     tolerance) with rods.0.segments = N for every N and for the reference
 *     NREF, and compares at t_end the positions x, velocities ẋ and
 *     accelerations ẍ of the vertices at the arc lengths s = k L / N1
 *     (k = 0 .. N1), which are vertices of every grid when each N is a
 *     multiple of N1 and divides NREF (no interpolation needed).  ẍ is the
 *     rod's vertex acceleration from one evaluation of the right-hand side at
 *     the final state (cosrod_rod_data.xdd).  Prints
 *       N,err_x,err_v,err_a   (max-norm over the common vertices and components)
 *     and a final comment line with the least-squares slopes of
 *     log10(err) against log10(N).
 *
 *   la_experiments energy SCENARIO [--set k=v]...
 *     [LA] Fig. 5: accumulated rotational energy defect of the projection.
 *     The projection hook of the sim's integrator problem is wrapped: before
 *     and after each call of the original hook ([LA] eq. 27: p <- p/|p|,
 *     ṗ <- ṗ - <p, ṗ>p in the absolute form) the right-hand side is evaluated
 *     at the state, which leaves the rod's rotational kinetic energy
 *     T_R = ½ Σ ρΔs ṗᵀμ(p)ṗ (cosrod_rod_energy.kinetic_rot) of that state in the
 *     rod data.  δT_R = T_R(after) - T_R(before) ([LA]: δT_R = T_R - T_R⋆) is
 *     summed over the accepted steps.  Prints the header
 *       t,sum_dTR,sum_abs_dTR,max_quat_drift     (every 1/100 of t_end)
 *     and a last line "#total,sum_dTR,sum_abs_dTR,max_drift,projections,steps,nfev,wall_s,status".
 *     max_quat_drift = max over steps and segments of | |p⋆| - 1 | before the
 *     projection.
 *
 * A benchmark program, not library code: the wrapper reaches the sim's
 * problem through cosrod_sim_problem() and replaces its `project` pointer
 * (the struct is owned by the sim and not const there). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "sim/sim_hooks.h"

static void usage(const char *a0) {
  fprintf(stderr,
          "usage: %s conv SCENARIO NREF N1 N2 ... [--set k=v]...\n"
          "       %s energy SCENARIO [--set k=v]...\n",
          a0, a0);
}

static cosrod_sim *load_sim(const char *file, const char **sets, size_t nsets, cosrod_scenario **sc) {
  if (!(*sc = cosrod_scenario_load(file, sets, nsets, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return NULL;
  }
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(*sc, &st);
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    cosrod_scenario_free(*sc);
  }
  return sim;
}

/* ---- Fig. 2 -------------------------------------------------------------- */

/* Run with N segments; store x, ẋ, ẍ of all N+1 vertices (3 each). */
static int conv_run(const char *file, const char **sets, size_t nsets, int N, double *x, double *v,
                    double *a) {
  char seg[64];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  sets[nsets] = seg;
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = load_sim(file, sets, nsets + 1, &sc);
  if (!sim) return 1;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  if (st != COSROD_OK) {
    fprintf(stderr, "N = %d: %s at t = %g\n", N, cosrod_sim_message(sim), cosrod_sim_fail_time(sim));
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    return 1;
  }
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  double *ydot = malloc((size_t)cosrod_sim_ny(sim) * sizeof *ydot);
  int rc = p->f(cosrod_sim_t(sim), cosrod_sim_state(sim), ydot, p->user);
  free(ydot);
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  if (rc == 0) {
    memcpy(x, d->x, (size_t)(N + 1) * 3 * sizeof *x);
    memcpy(v, d->xd, (size_t)(N + 1) * 3 * sizeof *v);
    memcpy(a, d->xdd, (size_t)(N + 1) * 3 * sizeof *a);
  }
  fprintf(stderr, "N = %d: %ld steps, %ld f, wall %.3g s\n", N, cosrod_sim_stats(sim)->nsteps,
          cosrod_sim_stats(sim)->nfev, cosrod_sim_stats(sim)->wall_time);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return rc != 0;
}

static double maxdiff(const double *u, int Nu, const double *r, int Nr, int N1) {
  double e = 0.0;
  for (int k = 0; k <= N1; k++) {
    const double *a = u + 3 * (k * (Nu / N1)), *b = r + 3 * (k * (Nr / N1));
    for (int j = 0; j < 3; j++) e = fmax(e, fabs(a[j] - b[j]));
  }
  return e;
}

static double slope(const double *lx, const double *ly, int n) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (int i = 0; i < n; i++) mx += lx[i] / n, my += ly[i] / n;
  for (int i = 0; i < n; i++) sxy += (lx[i] - mx) * (ly[i] - my), sxx += (lx[i] - mx) * (lx[i] - mx);
  return sxy / sxx;
}

static int conv_main(const char *file, int nN, const int *Ns, const char **sets, size_t nsets) {
  int Nref = Ns[0], N1 = Ns[1];
  for (int i = 1; i < nN; i++)
    if (Ns[i] % N1 || Nref % Ns[i]) {
      fprintf(stderr, "every N must be a multiple of N1 = %d and divide NREF = %d\n", N1, Nref);
      return 2;
    }
  size_t nr = (size_t)(Nref + 1) * 3;
  double *xr = malloc(nr * sizeof *xr), *vr = malloc(nr * sizeof *vr), *ar = malloc(nr * sizeof *ar);
  double *x = malloc(nr * sizeof *x), *v = malloc(nr * sizeof *v), *a = malloc(nr * sizeof *a);
  double lx[64], le[3][64];
  int rc = conv_run(file, sets, nsets, Nref, xr, vr, ar);
  if (rc == 0) printf("N,err_x,err_v,err_a\n");
  int m = 0;
  for (int i = 1; rc == 0 && i < nN && m < 64; i++) {
    rc = conv_run(file, sets, nsets, Ns[i], x, v, a);
    if (rc) break;
    double e[3] = {maxdiff(x, Ns[i], xr, Nref, N1), maxdiff(v, Ns[i], vr, Nref, N1),
                   maxdiff(a, Ns[i], ar, Nref, N1)};
    printf("%d,%.6e,%.6e,%.6e\n", Ns[i], e[0], e[1], e[2]);
    lx[m] = log10((double)Ns[i]);
    for (int j = 0; j < 3; j++) le[j][m] = log10(e[j]);
    m++;
  }
  if (rc == 0 && m >= 2)
    printf(
        "# least-squares slopes of log10(err) vs log10(N) (reference N = %d): all N: x %.3f, v %.3f, a "
        "%.3f\n",
        Nref, -slope(lx, le[0], m), -slope(lx, le[1], m), -slope(lx, le[2], m));
  if (rc == 0 && m >= 4) /* without the two coarsest grids (pre-asymptotic) */
    printf("# slopes over the %d finest N: x %.3f, v %.3f, a %.3f\n", m - 2, -slope(lx + 2, le[0] + 2, m - 2),
           -slope(lx + 2, le[1] + 2, m - 2), -slope(lx + 2, le[2] + 2, m - 2));
  free(xr), free(vr), free(ar), free(x), free(v), free(a);
  return rc;
}

/* ---- Fig. 5 -------------------------------------------------------------- */

static struct {
  cosrod_sim *sim;
  cosrod_ode_project orig;
  double *ydot;
  double sum, sumabs, drift, t_end, next_out;
  long n;
} E;

/* [LA]'s measure in both formulations: T_R = ½ Σ ρΔs ṗᵀμ(p)ṗ = 2 Σ Ī·(Im p̄ṗ)²
 * of the state, with ṗ = ½ p Ω in the null-space form ([LA] §4: v = T(p)ν).
 * (The null-space equations themselves conserve ½ Σ ΩᵀĪΩ, which the
 * projection of p leaves unchanged; cosrod_rod_energy.kinetic_rot reports that
 * one, so it cannot show [LA]'s defect.) */
static double tr_at(double t, const double *y) {
  const cosrod_ode_problem *p = cosrod_sim_problem(E.sim);
  if (p->f(t, y, E.ydot, p->user) != 0) return NAN;
  const cosrod_rod_data *d = cosrod_sim_rod_data(E.sim, 0);
  const double *Ib = cosrod_rod_segment_inertia(cosrod_sim_rod(E.sim, 0));
  double Tr = 0.0;
  for (int k = 0; k < d->N; k++) {
    const double *q = d->p + 4 * k, *qd = d->pd + 4 * k;
    double w[4];
    cosrod_quat_conj_mul(w, q, qd);
    Tr += 2.0 * (Ib[3 * k] * w[1] * w[1] + Ib[3 * k + 1] * w[2] * w[2] + Ib[3 * k + 2] * w[3] * w[3]);
  }
  return Tr;
}

static int wrap_project(double t, double *y, void *user) {
  double before = tr_at(t, y);
  const cosrod_rod_data *d = cosrod_sim_rod_data(E.sim, 0);
  for (int k = 0; k < d->N; k++) {
    const double *q = d->p + 4 * k;
    E.drift = fmax(E.drift, fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1.0));
  }
  int rc = E.orig(t, y, user);
  if (rc) return rc;
  double dT = tr_at(t, y) - before;
  E.sum += dT;
  E.sumabs += fabs(dT);
  E.n++;
  while (t >= E.next_out - 1e-12 * E.t_end) {
    printf("%.6g,%.6e,%.6e,%.3e\n", E.next_out, E.sum, E.sumabs, E.drift);
    E.next_out += E.t_end / 100;
  }
  return 0;
}

static int energy_main(const char *file, const char **sets, size_t nsets) {
  cosrod_scenario *sc = NULL;
  E.sim = load_sim(file, sets, nsets, &sc);
  if (!E.sim) return 1;
  cosrod_ode_problem *p = (cosrod_ode_problem *)cosrod_sim_problem(E.sim);
  if (!p->project) {
    fprintf(stderr,
            "no projection in this configuration (solver.stabilisation: projection, one-step method)\n");
    return 1;
  }
  int ml, mu;
  cosrod_sim_bandwidth(E.sim, &ml, &mu, NULL, NULL);
  fprintf(stderr, "%s: ny %d, %s layout, bandwidths %d/%d\n", cosrod_sim_integrator_name(E.sim), p->n,
          cosrod_sim_split_layout(E.sim) ? "split (M1 reduction)" : "node", ml, mu);
  E.orig = p->project;
  p->project = wrap_project;
  E.ydot = malloc((size_t)p->n * sizeof *E.ydot);
  E.t_end = sc->analysis.t_end;
  E.next_out = E.t_end / 100;
  printf("t,sum_dTR,sum_abs_dTR,max_quat_drift\n");
  cosrod_status st = cosrod_sim_run(E.sim, NULL);
  const cosrod_integrate_stats *s = cosrod_sim_stats(E.sim);
  if (st != COSROD_OK)
    fprintf(stderr, "%s at t = %g\n", cosrod_sim_message(E.sim), cosrod_sim_fail_time(E.sim));
  printf("#total,%.6e,%.6e,%.3e,%ld,%ld,%ld,%.3g,%s\n", E.sum, E.sumabs, E.drift, E.n, s->nsteps, s->nfev,
         s->wall_time, st == COSROD_OK ? "ok" : "failed");
  free(E.ydot);
  cosrod_sim_free(E.sim);
  cosrod_scenario_free(sc);
  return st != COSROD_OK;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    usage(argv[0]);
    return 2;
  }
  const char *sets[70];
  size_t nsets = 0;
  int Ns[64], nN = 0;
  for (int a = 3; a < argc; a++) {
    if (a + 1 < argc && !strcmp(argv[a], "--set") && nsets < 64)
      sets[nsets++] = argv[++a];
    else if (!strcmp(argv[1], "conv") && atoi(argv[a]) > 0 && nN < 64)
      Ns[nN++] = atoi(argv[a]);
    else {
      fprintf(stderr, "unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  if (!strcmp(argv[1], "conv") && nN >= 3) return conv_main(argv[2], nN, Ns, sets, nsets);
  if (!strcmp(argv[1], "energy")) return energy_main(argv[2], sets, nsets);
  usage(argv[0]);
  return 2;
}
