// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: analysis, solver and output sections ([manual: scenario reference]). */
#include "scenario_internal.h"

/* ---- analysis, solver, output --------------------------------------------- */

void sc_read_analysis(ctx *c, ynode *root) {
  cosrod_sc_analysis *a = &c->sc->analysis;
  ynode *m = sc_require(c, root, "analysis", "{type: dynamic, t_end: ...}");
  sc_push(c, "analysis");
  sc_expect_map(c, m, NULL, "type: dynamic | static | modes | buckling");
  sc_check_section(c, m, "analysis");
  a->line = m->key_line;
  ynode *v = sc_get(m, "type");
  a->type = (cosrod_sc_analysis_type)(v ? sc_to_enum(c, v, "type", SC_ANALYSIS_NAMES)
                                         : sc_key_default_enum("analysis.type", SC_ANALYSIS_NAMES));
  a->increments = (long)sc_key_default_num("analysis.increments");
  a->count = (long)sc_key_default_num("analysis.count");
  a->t_end = 1.0;
  if (a->type == COSROD_SC_ANALYSIS_DYNAMIC) {
    a->t_end = sc_req_num(c, m, "t_end", R_POS, "final time [s]");
    if ((v = sc_get(m, "start_from_equilibrium")))
      a->start_from_equilibrium = sc_to_bool(c, v, "start_from_equilibrium");
    sc_check_unused(c, m, "with type: dynamic");
  } else if (a->type == COSROD_SC_ANALYSIS_STATIC) {
    if ((v = sc_get(m, "increments"))) a->increments = sc_to_int(c, v, "increments", 1, 10000000);
    if ((v = sc_get(m, "gravity"))) {
      static const char *const gnames[] = {"ramp", "constant", NULL};
      a->gravity_constant = sc_to_enum(c, v, "gravity", gnames);
    }
    sc_read_static_control(c, m); /* control: arc-length, path: keyframes (scenario_static.c) */
    sc_check_unused(c, m, "with type: static (pseudo-time runs over [0, 1])");
  } else if (a->type == COSROD_SC_ANALYSIS_BUCKLING) {
    a->count = 3;
    if ((v = sc_get(m, "count"))) a->count = sc_to_int(c, v, "count", 1, 1000);
    sc_check_unused(c, m, "with type: buckling");
  } else {
    if ((v = sc_get(m, "count"))) a->count = sc_to_int(c, v, "count", 1, 1000000);
    sc_check_unused(c, m, "with type: modes");
  }
  sc_pop(c);
}

/* solver.realtime: galpha with a fixed step and bounded work per step. */
static void read_realtime(ctx *c, ynode *m, ynode *v, ynode *vi) {
  cosrod_sc_solver *s = &c->sc->solver;
  sc_push(c, "realtime");
  sc_expect_map(c, v, NULL, "h, newton_max, jac_budget");
  sc_check_section(c, v, "solver.realtime");
  s->realtime = 1;
  ynode *w;
  if ((w = sc_get(v, "h"))) {
    double h = sc_num(c, v, "h", 0.0, R_POS);
    if (s->h > 0.0 && h != s->h)
      sc_fail(c, w, "h", "differs from solver.h = %.15g (give one of them)", s->h);
    s->h = h;
  } else if (!(s->h > 0.0)) {
    s->h = 1e-3;
  }
  if ((w = sc_get(v, "newton_max"))) s->rt_newton_max = (int)sc_to_int(c, w, "newton_max", 1, 100);
  if ((w = sc_get(v, "jac_budget"))) s->rt_jac_budget = (int)sc_to_int(c, w, "jac_budget", 0, 100);
  sc_pop(c);
  if (s->integrator != COSROD_SC_INTEGRATOR_GALPHA)
    sc_fail(c, vi ? vi : m, "integrator", "solver.realtime needs integrator: galpha (got %s)",
            SC_INTEGRATOR_NAMES[s->integrator]);
}

void sc_read_solver(ctx *c, ynode *root) {
  cosrod_sc_solver *s = &c->sc->solver;
  /* the defaults of the key table (scenario_keys.c) */
  s->formulation = (cosrod_sc_formulation)sc_key_default_enum("solver.formulation", SC_FORMULATION_NAMES);
  s->stabilisation = (cosrod_sc_stabilisation)sc_key_default_enum("solver.stabilisation", SC_STAB_NAMES);
  s->integrator = (cosrod_sc_integrator)sc_key_default_enum("solver.integrator", SC_INTEGRATOR_NAMES);
  s->linear_solver = (cosrod_sc_linear_solver)sc_key_default_enum("solver.linear_solver", SC_LINSOLVE_NAMES);
  s->baumgarte_omega = sc_key_default_num("solver.baumgarte.omega");
  s->baumgarte_r = sc_key_default_num("solver.baumgarte.r");
  s->rtol = sc_key_default_num("solver.rtol");
  s->atol = sc_key_default_num("solver.atol");
  s->h0 = sc_key_default_num("solver.h0");
  s->hmax = sc_key_default_num("solver.hmax");
  s->rho_inf = sc_key_default_num("solver.rho_inf");
  s->h = sc_key_default_num("solver.h");
  s->max_steps = (long)sc_key_default_num("solver.max_steps");
  s->realtime = 0;
  s->threads = (int)sc_key_default_num("solver.threads");
  s->rt_newton_max = (int)sc_key_default_num("solver.realtime.newton_max");
  s->rt_jac_budget = (int)sc_key_default_num("solver.realtime.jac_budget");
  ynode *m = sc_get(root, "solver");
  if (!m) return;
  sc_push(c, "solver");
  sc_expect_map(c, m, NULL, "formulation, integrator, rtol, ...");
  sc_check_section(c, m, "solver");
  s->line = m->key_line;
  ynode *v;
  if ((v = sc_get(m, "formulation")))
    s->formulation = (cosrod_sc_formulation)sc_to_enum(c, v, "formulation", SC_FORMULATION_NAMES);
  if ((v = sc_get(m, "stabilisation")))
    s->stabilisation = (cosrod_sc_stabilisation)sc_to_enum(c, v, "stabilisation", SC_STAB_NAMES);
  ynode *vi = sc_get(m, "integrator");
  if (vi) s->integrator = (cosrod_sc_integrator)sc_to_enum(c, vi, "integrator", SC_INTEGRATOR_NAMES);
  if ((v = sc_get(m, "baumgarte"))) {
    /* Accepted (and validated) with any stabilisation, so that switching
     * with --set solver.stabilisation=... keeps a file valid. */
    sc_push(c, "baumgarte");
    sc_expect_map(c, v, NULL, "omega, r");
    sc_check_section(c, v, "solver.baumgarte");
    s->baumgarte_omega = sc_num(c, v, "omega", s->baumgarte_omega, R_POS);
    s->baumgarte_r = sc_num(c, v, "r", s->baumgarte_r, R_NONNEG);
    sc_pop(c);
  }
  s->rtol = sc_num(c, m, "rtol", s->rtol, R_POS);
  if (s->rtol >= 1.0) sc_fail(c, sc_get(m, "rtol"), "rtol", "must be < 1 (got %.15g)", s->rtol);
  s->atol = sc_num(c, m, "atol", s->atol, R_POS);
  s->h0 = sc_num(c, m, "h0", s->h0, R_NONNEG);
  s->hmax = sc_num(c, m, "hmax", s->hmax, R_NONNEG);
  if (s->hmax > 0 && s->h0 > s->hmax)
    sc_fail(c, sc_get(m, "h0"), "h0", "initial step %.15g is larger than hmax = %.15g", s->h0, s->hmax);
  if ((v = sc_get(m, "max_steps"))) s->max_steps = sc_to_int(c, v, "max_steps", 1, 1000000000000L);
  s->rho_inf = sc_num(c, m, "rho_inf", s->rho_inf, R_NONNEG);
  if (sc_get(m, "rho_inf")) s->rho_inf_given = 1;
  if (s->rho_inf > 1.0) sc_fail(c, sc_get(m, "rho_inf"), "rho_inf", "must be in [0, 1] (got %.15g)", s->rho_inf);
  s->h = sc_num(c, m, "h", s->h, R_NONNEG);
  if ((v = sc_get(m, "realtime"))) read_realtime(c, m, v, vi);
  if ((v = sc_get(m, "threads"))) s->threads = (int)sc_to_int(c, v, "threads", 0, 1024);
  if ((v = sc_get(m, "linear_solver")))
    s->linear_solver = (cosrod_sc_linear_solver)sc_to_enum(c, v, "linear_solver", SC_LINSOLVE_NAMES);
  if (s->h > 0.0 && s->integrator != COSROD_SC_INTEGRATOR_GALPHA && s->integrator != COSROD_SC_INTEGRATOR_AUTO)
    sc_fail(c, sc_get(m, "h"), "h", "a fixed step needs integrator: galpha (got %s)",
            SC_INTEGRATOR_NAMES[s->integrator]);
  if (s->formulation == COSROD_SC_FORMULATION_DAE &&
      (s->integrator == COSROD_SC_INTEGRATOR_DOPRI5 || s->integrator == COSROD_SC_INTEGRATOR_DOP853 ||
       s->integrator == COSROD_SC_INTEGRATOR_CVODE || s->integrator == COSROD_SC_INTEGRATOR_ODEX))
    sc_fail(c, vi ? vi : m, "integrator",
         "%s cannot solve the index-1 DAE of formulation: dae (use radau5, rodas, seulex or ida)",
         SC_INTEGRATOR_NAMES[s->integrator]);
  /* the SUNDIALS multistep methods have no projection step: an absolute run
   * would let |p| drift silently ([LA] eq. 27 is the projection it lacks) */
  if (s->formulation == COSROD_SC_FORMULATION_ABSOLUTE && s->stabilisation == COSROD_SC_STAB_PROJECTION &&
      (s->integrator == COSROD_SC_INTEGRATOR_IDA || s->integrator == COSROD_SC_INTEGRATOR_CVODE))
    sc_fail(c, vi ? vi : m, "integrator",
            "%s (a multistep method) cannot project the quaternions of formulation: absolute back to |p| = 1 "
            "(use stabilisation: baumgarte, formulation: nullspace or dae, or a one-step method)",
            SC_INTEGRATOR_NAMES[s->integrator]);
  sc_pop(c);
}

/* Default output folder: out/<file stem> (the file name without its folder
 * and a .yaml / .yml extension), so scenarios run from one folder do not
 * overwrite each other's results; plain "out" for a name that is not a file
 * name ("<input>", empty, starting with '.' or containing control bytes). */
static void default_dir(const char *file, char *out, size_t len) {
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file ? file : "";
  size_t n = strlen(base);
  if (n > 5 && !strcmp(base + n - 5, ".yaml"))
    n -= 5;
  else if (n > 4 && !strcmp(base + n - 4, ".yml"))
    n -= 4;
  int ok = n > 0 && n < 200 && base[0] != '.' && base[0] != '<';
  for (size_t i = 0; ok && i < n; i++) ok = (unsigned char)base[i] >= 0x20 && base[i] != 0x7f;
  if (ok)
    snprintf(out, len, "out/%.*s", (int)n, base);
  else
    snprintf(out, len, "out");
}

void sc_read_output(ctx *c, ynode *root) {
  static const char *const field_names[] = {"tip",    "centerline", "frames", "strains", "curvatures",
                                            "energy", "steps",      "reactions", NULL};
  cosrod_sc_output *o = &c->sc->output;
  const cosrod_sc_analysis *a = &c->sc->analysis;
  double every = a->type == COSROD_SC_ANALYSIS_STATIC ? a->t_end / (double)a->increments : a->t_end / 100.0;
  o->vtk = sc_key_default_bool("output.vtk");
  o->plots = sc_key_default_bool("output.plots");
  o->fields = COSROD_SC_FIELDS_DEFAULT;
  ynode *m = sc_get(root, "output");
  char def[PATH_MAX_LEN];
  default_dir(c->file, def, sizeof def);
  const char *dir = def;
  if (m) {
    sc_push(c, "output");
    sc_expect_map(c, m, NULL, "dir, every, vtk, plots");
    sc_check_section(c, m, "output");
    o->line = m->key_line;
    ynode *v;
    if ((v = sc_get(m, "dir"))) {
      dir = sc_to_str(c, v, "dir");
      if (!dir[0]) sc_fail(c, v, "dir", "must not be empty");
    }
    double every_default = every;
    every = sc_num(c, m, "every", every, R_POS);
    /* static runs: output pseudo-times finer than the nominal increment 1/K (typically a
     * dynamic file's every in seconds, 0.01 = 100 extra landing solves) fall back to the
     * static default, a frame per nominal increment */
    if (a->type == COSROD_SC_ANALYSIS_STATIC && every < every_default * (1.0 - 1e-9)) every = every_default;
    if ((v = sc_get(m, "vtk"))) o->vtk = sc_to_bool(c, v, "vtk");
    if ((v = sc_get(m, "plots"))) o->plots = sc_to_bool(c, v, "plots");
    if ((v = sc_get(m, "fields"))) {
      if (v->kind != YN_SEQ)
        sc_fail(c, v, "fields", "expected a list of [tip, centerline, frames, strains, curvatures, energy, steps, reactions]");
      if (v->n == 0) sc_fail(c, v, "fields", "must name at least one field");
      o->fields = 0;
      for (size_t i = 0; i < v->n; i++) o->fields |= 1u << sc_to_enum(c, v->item[i], "fields", field_names);
    }
    if ((v = sc_get(m, "steps")) && !sc_to_bool(c, v, "steps")) o->fields &= ~(unsigned)COSROD_SC_FIELD_STEPS;
    if ((v = sc_get(m, "checkpoint"))) { /* {every: simulated s, wall: wall-clock s} */
      sc_push(c, "checkpoint");
      sc_expect_map(c, v, NULL, "every, wall");
      sc_check_section(c, v, "output.checkpoint");
      ynode *e; /* both optional (0: not set) */
      if ((e = sc_get(v, "every"))) {
        o->checkpoint_every = sc_to_num(c, e, "every");
        sc_check_range(c, e, "every", o->checkpoint_every, R_POS);
      }
      if ((e = sc_get(v, "wall"))) {
        o->checkpoint_wall = sc_to_num(c, e, "wall");
        sc_check_range(c, e, "wall", o->checkpoint_wall, R_POS);
      }
      sc_pop(c);
    }
    if ((v = sc_get(m, "format"))) {
      static const char *const formats[] = {"csv", "hdf5", NULL};
      o->format = sc_to_enum(c, v, "format", formats);
#ifndef COSROD_HAVE_HDF5
      if (o->format == COSROD_SC_FORMAT_HDF5)
        sc_fail(c, v, "format", "hdf5 needs cosrod built with HDF5 (Debian libhdf5-dev; CMake COSROD_WITH_HDF5); use csv");
#endif
    }
    sc_pop(c);
  }
  o->every = every;
  o->dir = sc_xstrdup(c, dir);
}
