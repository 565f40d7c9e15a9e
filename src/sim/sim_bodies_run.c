/* Runs of scenarios with rigid bodies and no rods (see cosrod_sim_bodies_run
 * in include/cosrod/sim.h): scenario -> cosrod_mbs (sim_bodies.c) ->
 * integrator -> cosrod_output + joints.csv.
 * Energy (SPEC §8): kinetic, elastic (bushing springs) and gravity are
 * evaluated at each output time; the external work of the loads and the
 * damper dissipation are integrated by the trapezoidal rule over the
 * accepted steps and a grid of 20 points per output interval (dense
 * output; the powers come from cosrod_mbs_power). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/body.h"
#include "cosrod/output.h"
#include "cosrod/sim.h"
#include "sim/sim_bodies.h"

typedef struct brun {
  const cosrod_scenario *sc; /* body i of the model is scenario body i (no keyframe bodies here) */
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  cosrod_output *out;
  FILE *jf;
  const int *jidx; /* (nj) scenario index of each model joint */
  size_t nj;
  double *R; /* (6 nj) reactions */
  const double *tout;
  const unsigned char *isframe; /* (nout) 1: write a frame, 0: quadrature point only */
  size_t nout, k;
  double tprev, peprev, pdprev, work, diss;
  int have;
  double *ylast; /* (n) */
  double tlast;
  double balance0, balance;
  cosrod_status ost;
  const volatile sig_atomic_t *stop;
} brun;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int write_frame(brun *b, double t, const double *y) {
  cosrod_status st = cosrod_output_frame_begin(b->out, t);
  for (size_t i = 0; st == COSROD_OK && i < cosrod_mbs_nbodies(b->m); ++i) {
    double x[3], q[4], v[3], Om[3], ke, pe;
    cosrod_mbs_body_state(b->m, b->d, y, i, x, q, v, Om);
    cosrod_sc_body_energy(&b->sc->bodies[i], b->sc->gravity, x, v, Om, &ke, &pe);
    st = cosrod_output_write_body(b->out, i, x, q, Om, v, ke, pe);
  }
  cosrod_output_energy e = {0};
  cosrod_mbs_energy(b->m, b->d, t, y, &e.kinetic, &e.gravity, &e.elastic);
  e.external_work = b->work;
  e.dissipated = b->diss;
  b->balance = e.kinetic + e.elastic + e.gravity + e.dissipated - e.external_work;
  if (t == 0.0) b->balance0 = b->balance;
  if (st == COSROD_OK) st = cosrod_output_write_energy(b->out, &e);
  if (st == COSROD_OK) st = cosrod_output_frame_end(b->out);
  if (st == COSROD_OK && b->nj > 0) {
    if (cosrod_mbs_joint_reactions(b->m, b->d, t, y, b->R) == 0)
      for (size_t j = 0; j < b->nj; ++j) {
        const double *r = b->R + 6 * j;
        fprintf(b->jf, "%.15g,%d,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g\n", t, b->jidx[j], r[0], r[1], r[2],
                r[3], r[4], r[5]);
      }
    if (ferror(b->jf)) st = COSROD_ERR_IO;
  }
  if (st != COSROD_OK) {
    b->ost = st;
    return -1;
  }
  return 0;
}

static int on_out(double t, const double *y, void *user) {
  brun *b = user;
  double pe, pd;
  cosrod_mbs_power(b->m, b->d, t, y, &pe, &pd);
  if (b->have && t > b->tprev) {
    b->work += 0.5 * (t - b->tprev) * (pe + b->peprev);
    b->diss += 0.5 * (t - b->tprev) * (pd + b->pdprev);
  }
  b->tprev = t, b->peprev = pe, b->pdprev = pd, b->have = 1;
  memcpy(b->ylast, y, (size_t)cosrod_mbs_n(b->m) * sizeof *y);
  b->tlast = t;
  if (b->k < b->nout && fabs(t - b->tout[b->k]) <= 1e-12 * fmax(1.0, fabs(t))) {
    if (b->isframe[b->k++] && write_frame(b, t, y)) return -1;
  }
  if (b->stop && *b->stop) return 1;
  return 0;
}

static int on_step(double t, double h, int accepted, void *user) {
  brun *b = user;
  cosrod_status st = cosrod_output_write_step(b->out, t, h, accepted);
  if (st != COSROD_OK) {
    b->ost = st;
    return -1;
  }
  return 0;
}

/* The input checks of a bodies-only run that precede the model (shared by
 * cosrod_sim_bodies_run and cosrod_sim_bodies_check). */
static cosrod_status check_run_inputs(const cosrod_scenario *sc, const cosrod_step_type **type, char *err,
                                      size_t errlen) {
  const char *iname = cosrod_sc_integrator_name(sc->solver.integrator);
  *type = cosrod_step_type_by_name(iname);
  if (!*type) {
    cosrod_scenario_format_error(sc, "solver.integrator", "integrator not built into this library", err,
                                 errlen);
    return COSROD_ERR_PARSE;
  }
  if (sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC) {
    cosrod_scenario_format_error(sc, "analysis.type", "rigid bodies without rods: only dynamic analysis", err,
                                 errlen);
    return COSROD_ERR_PARSE;
  }
  return COSROD_OK;
}

cosrod_status cosrod_sim_bodies_check(const cosrod_scenario *sc, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  const cosrod_step_type *type = NULL;
  cosrod_status st = check_run_inputs(sc, &type, err, errlen);
  if (st != COSROD_OK) return st;
  cosrod_mbs *m = cosrod_sim_bodies_create(sc, &st, err, errlen);
  if (!m) return st == COSROD_ERR_NOMEM ? st : COSROD_ERR_PARSE;
  cosrod_mbs_free(m);
  return COSROD_OK;
}

cosrod_status cosrod_sim_bodies_run(const cosrod_scenario *sc, const char *file, const char *dir,
                                    const volatile sig_atomic_t *stop, cosrod_sim_bodies_result *res,
                                    char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  res->t_failed = NAN;
  if (err && errlen) err[0] = '\0';
  double wall0 = now();
  const cosrod_step_type *type = NULL;
  cosrod_status st = check_run_inputs(sc, &type, err, errlen);
  if (st != COSROD_OK) return res->status = st;
  cosrod_mbs *m = cosrod_sim_bodies_create(sc, &st, err, errlen);
  if (!m) return res->status = st == COSROD_ERR_NOMEM ? st : COSROD_ERR_PARSE;
  cosrod_mbs_data *d = cosrod_mbs_data_create(m);
  brun b = {0};
  b.sc = sc, b.m = m, b.d = d, b.stop = stop;
  int n = cosrod_mbs_n(m);
  double T = sc->analysis.t_end, every = sc->output.every > 0 ? sc->output.every : T / 100;
  /* the quadrature of the powers uses QSUB points per output interval */
  enum { QSUB = 20 };
  size_t nout = ((size_t)floor(T / every + 1e-9) + 2) * QSUB;
  double *tout = calloc(nout, sizeof *tout), *y0 = calloc((size_t)n, sizeof *y0);
  unsigned char *isframe = calloc(nout, 1);
  double *yend = calloc((size_t)n, sizeof *yend);
  int *jidx = calloc(sc->njoints + 1, sizeof *jidx);
  b.ylast = calloc((size_t)n, sizeof *b.ylast);
  b.R = calloc(6 * sc->njoints + 1, sizeof *b.R);
  const char **names = calloc(sc->nbodies + 1, sizeof *names);
  double *semi = calloc(7 * sc->nbodies + 1, sizeof *semi); /* inertia ellipsoids (VTK): 3 + 4 per body */
  char jtmp[4096], jfin[4096];
  cosrod_integrator *it = NULL;
  if (!d || !tout || !isframe || !y0 || !yend || !jidx || !b.ylast || !b.R || !names || !semi) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  size_t k = 0;
  for (size_t j = 0; (double)j * every / QSUB < T * (1.0 - 1e-12) && k + 1 < nout; ++j, ++k) {
    tout[k] = (double)j * every / QSUB;
    isframe[k] = j % QSUB == 0;
  }
  tout[k] = T;
  isframe[k++] = 1;
  b.tout = tout, b.nout = k, b.isframe = isframe;
  for (size_t j = 0; j < sc->njoints; ++j)
    if (sc->joints[j].type != COSROD_SC_JOINT_BUSHING) jidx[b.nj++] = (int)j;
  b.jidx = jidx;
  for (size_t i = 0; i < sc->nbodies; ++i) names[i] = sc->bodies[i].name;
  for (size_t i = 0; i < sc->nbodies; ++i)
    cosrod_mbs_body_ellipsoid(m, i, semi + 3 * i, semi + 3 * sc->nbodies + 4 * i);
  /* integrator */
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = sc->solver.rtol;
  o.atol = sc->solver.atol;
  o.h0 = sc->solver.h0;
  o.hmax = sc->solver.hmax;
  o.max_steps = sc->solver.max_steps;
  if (sc->solver.stabilisation == COSROD_SC_STAB_NONE) p.project = NULL;
  if (type == cosrod_step_galpha) { /* Lie-group generalized-α (body_galpha.c) */
    cosrod_mbs_lie_problem(&p, d);
    o.rho_inf = sc->solver.rho_inf;
    if (sc->solver.h > 0.0) {
      o.fixed_step = 1;
      o.h0 = sc->solver.h;
      double nst = T / sc->solver.h + 10.0;
      if (nst > (double)o.max_steps) o.max_steps = nst < 1e15 ? (long)nst : (long)1e15;
    }
  }
  it = cosrod_integrator_create(type, &p, &o, &st);
  if (!it && st == COSROD_ERR_UNSUPPORTED && p.project) {
    /* multistep methods (ida, cvode) cannot project after steps ([L] §6):
     * run without; the null-space form drifts only linearly */
    p.project = NULL;
    it = cosrod_integrator_create(type, &p, &o, &st);
  }
  if (!it) {
    char msg[256];
    snprintf(msg, sizeof msg, "integrator '%s' cannot integrate this model: %s", type->name, cosrod_strerror(st));
    cosrod_scenario_format_error(sc, "solver.integrator", msg, err, errlen);
    st = COSROD_ERR_PARSE;
    goto done;
  }
  /* output */
  cosrod_output_config cfg = cosrod_output_default_config();
  char oerr[1024] = "";
  cfg.files = COSROD_OUTPUT_ENERGY | COSROD_OUTPUT_BODIES | COSROD_OUTPUT_STEPS;
  cfg.vtk = sc->output.vtk;
  cfg.plots = sc->output.plots;
  cfg.nbodies = sc->nbodies;
  cfg.body_names = names;
  cfg.body_semi_axes = semi;
  cfg.body_axes = semi + 3 * sc->nbodies;
  cfg.title = sc->title;
  cfg.scenario_file = file;
  cfg.analysis = "dynamic";
  cfg.integrator = type->name;
  cfg.t_end = T;
  cfg.checkpoint_every = 30.0;
  cfg.errbuf = oerr;
  cfg.errbuf_size = sizeof oerr;
  b.out = cosrod_output_create(dir, &cfg, &st);
  if (!b.out) {
    snprintf(res->message, sizeof res->message, "cannot write the output directory %.200s: %.250s", dir,
             oerr[0] ? oerr : cosrod_strerror(st));
    goto done;
  }
  snprintf(jtmp, sizeof jtmp, "%s/.joints.csv.tmp", dir);
  snprintf(jfin, sizeof jfin, "%s/joints.csv", dir);
  if (b.nj > 0) {
    b.jf = fopen(jtmp, "w");
    if (!b.jf) {
      snprintf(res->message, sizeof res->message, "cannot write %.400s", jtmp);
      st = COSROD_ERR_IO;
      goto done;
    }
    fprintf(b.jf, "t,joint,Fx,Fy,Fz,Mx,My,Mz\n");
  }
  /* run */
  cosrod_mbs_initial_state(m, y0);
  cosrod_output_spec spec = {0};
  spec.t_out = tout, spec.n_out = b.nout;
  spec.every_step = 1, spec.include_t0 = 1;
  spec.output = on_out, spec.step_history = on_step, spec.user = &b;
  st = cosrod_integrate(it, 0.0, y0, T, &spec, yend);
  res->stats = *cosrod_integrator_stats(it);
  res->t_reached = b.have ? b.tlast : 0.0;
  if (st != COSROD_OK) {
    const char *mm = cosrod_mbs_data_message(d);
    if (b.ost != COSROD_OK)
      snprintf(res->message, sizeof res->message, "writing the output failed: %s",
               cosrod_output_error(b.out));
    else if (st == COSROD_ERR_INTERRUPTED)
      snprintf(res->message, sizeof res->message, "interrupted");
    else
      snprintf(res->message, sizeof res->message, "%s", mm[0] ? mm : cosrod_integrator_message(it));
    res->t_failed = cosrod_integrator_fail_time(it);
    if (b.ost != COSROD_OK) st = b.ost;
  }
  {
    cosrod_output_result r = cosrod_output_default_result();
    r.code = st;
    r.run = st == COSROD_OK                ? COSROD_RUN_OK
            : st == COSROD_ERR_INTERRUPTED ? COSROD_RUN_INTERRUPTED
                                           : COSROD_RUN_FAILED;
    r.message = st == COSROD_OK ? NULL : res->message;
    r.t_reached = res->t_reached;
    r.t_failed = res->t_failed;
    r.h_last = cosrod_integrator_h(it);
    r.wall_time = now() - wall0;
    r.stats = &res->stats;
    if (st != COSROD_OK) {
      r.last_state = b.ylast;
      r.nlast_state = (size_t)n;
    }
    cosrod_status cst = cosrod_output_close(b.out, &r);
    if (b.jf) {
      int bad = fclose(b.jf) != 0;
      b.jf = NULL;
      if (bad || rename(jtmp, jfin) != 0) cst = COSROD_ERR_IO;
    }
    if (cst != COSROD_OK && st == COSROD_OK) {
      st = cst;
      snprintf(res->message, sizeof res->message, "writing the output failed: %s",
               cosrod_output_error(b.out));
    }
  }
done:
  if (b.jf) {
    fclose(b.jf);
    remove(jtmp);
  }
  res->status = st;
  res->energy_balance0 = b.balance0;
  res->energy_balance = b.balance;
  res->wall_time = now() - wall0;
  cosrod_output_free(b.out);
  cosrod_integrator_free(it);
  free(tout), free(isframe), free(y0), free(yend), free(jidx), free(b.ylast), free(b.R), free(names), free(semi);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
  return st;
}
