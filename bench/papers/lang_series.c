// SPDX-License-Identifier: Apache-2.0
/* [L] §6-7 time series, Figs. 6 and 8-12: one rigid-body run of a shipped
 * example written row by row (after every accepted step, or thinned to rows
 * at least DT apart; DT = 0: every step):
 *   t, h          time and the accepted step size (Figs. 8, 9)
 *   g_int, gd_int internal constraint of the rotation parameters and its time
 *                 derivative: quaternion |p|^2 - 1 and 2 p.pdot, directors
 *                 max |D^T D - I| and max |Ddot^T D + D^T Ddot|, Euler 0 (Fig. 6)
 *   g_j, gd_j     max-norm of the joint residuals g and gdot (Fig. 6)
 *   energy        kinetic + gravity + elastic (Fig. 10)
 *   d1..d3, Om    the directors (spatial) and Omega of body 0 (Figs. 11, 12)
 * PROJECT = 0 runs without the projection hook ([L] Fig. 6 shows the
 * drift-off of the unprojected formulations).
 * Usage: lang_series EXAMPLE.yaml FORM PAR METHOD TOL PROJECT DT [--set K=V ...] > series.csv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_bench.h"
#include "cosrod/quat.h"

typedef struct series {
  body_bench *b;
  double dt, t_last, h_last;
  double *ydot, *g, *gd;
  long rows;
} series;

static void internal(const series *s, const double *y, double *gi, double *gdi) {
  const cosrod_mbs *m = s->b->m;
  int o = cosrod_mbs_pos_offset(m, 0) + 3;
  const double *r = y + o, *rd = s->ydot + o;
  *gi = *gdi = 0.0;
  if (cosrod_mbs_body_param(m, 0) == COSROD_BODY_QUATERNION) {
    double pp = 0.0, ppd = 0.0;
    for (int i = 0; i < 4; ++i) pp += r[i] * r[i], ppd += r[i] * rd[i];
    *gi = pp - 1.0, *gdi = 2.0 * ppd;
  } else if (cosrod_mbs_body_param(m, 0) == COSROD_BODY_DIRECTORS) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double a = (i == j) ? -1.0 : 0.0, ad = 0.0;
        for (int k = 0; k < 3; ++k)
          a += r[3 * i + k] * r[3 * j + k], ad += rd[3 * i + k] * r[3 * j + k] + r[3 * i + k] * rd[3 * j + k];
        *gi = fmax(*gi, fabs(a)), *gdi = fmax(*gdi, fabs(ad));
      }
  }
}

static int on_step(double t, double h, int accepted, void *user) {
  (void)t;
  if (accepted) ((series *)user)->h_last = h;
  return 0;
}

static int on_output(double t, const double *y, void *user) {
  series *s = user;
  if (s->rows > 0 && t - s->t_last < s->dt) return 0;
  const cosrod_mbs *m = s->b->m;
  cosrod_mbs_data *d = s->b->d;
  if (cosrod_mbs_rhs(m, d, t, y, s->ydot) != 0) return -1;
  double gi, gdi, gj = 0.0, gdj = 0.0, ek, eg, ee, x[3], q[4], v[3], Om[3], R[9];
  internal(s, y, &gi, &gdi);
  int nc = cosrod_mbs_nconstr(m);
  if (nc > 0) {
    cosrod_mbs_constraints(m, d, y, s->g, s->gd);
    for (int i = 0; i < nc; ++i) gj = fmax(gj, fabs(s->g[i])), gdj = fmax(gdj, fabs(s->gd[i]));
  }
  cosrod_mbs_energy(m, d, t, y, &ek, &eg, &ee);
  cosrod_mbs_body_state(m, d, y, 0, x, q, v, Om);
  cosrod_quat_to_matrix(R, q);
  printf("%.9g,%.6e,%.6e,%.6e,%.6e,%.6e,%.12e", t, s->rows ? s->h_last : 0.0, gi, gdi, gj, gdj, ek + eg + ee);
  for (int i = 0; i < 9; ++i) printf(",%.8f", R[i]); /* column-major: d1, d2, d3 */
  printf(",%.8g,%.8g,%.8g\n", Om[0], Om[1], Om[2]);
  s->t_last = t, s->rows++;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 8) {
    fprintf(stderr, "usage: lang_series EXAMPLE.yaml FORM PAR METHOD TOL PROJECT DT [--set K=V ...] > series.csv\n");
    return 2;
  }
  char buf[8][64];
  const char *sets[24];
  size_t ns = body_bench_form_sets(buf, sets, argv[2], argv[3], 1);
  for (int i = 8; i + 1 < argc && ns < 24; i += 2)
    if (!strcmp(argv[i], "--set")) sets[ns++] = argv[i + 1];
  body_bench b;
  if (body_bench_open(&b, argv[1], sets, ns)) return 1;
  if (!atoi(argv[6])) b.p.project = NULL;
  double tol = atof(argv[5]);
  int nc = cosrod_mbs_nconstr(b.m);
  series s = {&b, atof(argv[7]), 0.0, 0.0, calloc((size_t)b.n, sizeof(double)),
              calloc((size_t)nc + 1, sizeof(double)), calloc((size_t)nc + 1, sizeof(double)), 0};
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  o.max_steps = 5000000;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(argv[4]), &b.p, &o, &st);
  if (!it) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  printf("t,h,g_int,gd_int,g_joint,gd_joint,energy,d1x,d1y,d1z,d2x,d2y,d2z,d3x,d3y,d3z,Om1,Om2,Om3\n");
  cosrod_output_spec out = {.every_step = 1, .include_t0 = 1, .output = on_output, .step_history = on_step, .user = &s};
  st = cosrod_integrate(it, 0.0, b.y0, b.sc->analysis.t_end, &out, b.y);
  const cosrod_integrate_stats *S = cosrod_integrator_stats(it);
  fprintf(stderr, "lang_series %s %s %s %s %s project=%s: %s nsteps %ld nfev %ld\n", argv[1], argv[2], argv[3],
          argv[4], argv[5], argv[6], cosrod_status_name(st), S->nsteps, S->nfev);
  cosrod_integrator_free(it);
  free(s.ydot), free(s.g), free(s.gd);
  body_bench_close(&b);
  return st == COSROD_OK ? 0 : 1;
}
