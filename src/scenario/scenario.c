// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: YAML schema version 1 ([manual: scenario reference]) -> cosrod_scenario.
 *
 * Pipeline: read the file -> ynode tree (ynode.c, libyaml) -> apply
 * `--set key.path=value` overrides on the tree -> validate every key and
 * fill the plain description with defaults and derived constants:
 *   sections ([manual: theory]): circle A = pi r^2, I1 = I2 = pi r^4/4, J = pi r^4/2;
 *     rectangle A = w h, I1 = w h^3/12, I2 = h w^3/12, J = I1 + I2 (or given);
 *   stiffness C_Gamma = diag(k1 GA, k2 GA, EA), C_K = diag(EI1, EI2, GJ);
 *   Kelvin-Voigt ([LLT] eq. 4): V_Gamma = diag(tS k1GA, tS k2GA, tE EA),
 *     V_K = diag(tE EI1, tE EI2, tS GJ), tE = ((1-2nu) tB + 2(1+nu) tS)/3;
 *   [LLA] coefficients c give V = 2c (`convention: lla`);
 *   3-1-3 Euler angles -> quaternion q = qz(phi) qx(theta) qz(psi) ([L] §6).
 * Every problem is one line "FILE:LINE: key.path: problem".  Problems in
 * independent parts (list entries, top-level sections, unknown keys) are
 * all reported, up to SC_MAX_ERRORS lines; a part that depends on a part
 * with a problem is not checked (the rule is in validate()).  Inside one
 * part the first problem ends it: the validator unwinds with longjmp to the
 * part's recovery point (SC_TRY) or to a single exit point that frees
 * everything (the tree, the partial scenario).
 * Unknown keys are errors with the nearest valid key suggested (optimal
 * string alignment distance). */
#include "scenario_contact.h"
#include "scenario_internal.h"
#include "core/error.h"

void cosrod_scenario_free(cosrod_scenario *sc) {
  if (!sc) return;
  for (size_t i = 0; i < sc->nrods; i++) {
    cosrod_sc_rod *r = &sc->rods[i];
    free(r->grid);
    free(r->loads);
    free(r->shape.points);
    for (int k = 0; k < 2; k++) {
      free(r->ends[k].position.t);
      free(r->ends[k].position.values);
      free(r->ends[k].orientation.t);
      free(r->ends[k].orientation.values);
    }
  }
  free(sc->rods);
  free(sc->materials);
  for (size_t i = 0; sc->bodies && i < sc->nbodies; i++) {
    free(sc->bodies[i].loads);
    free(sc->bodies[i].motion_position.t);
    free(sc->bodies[i].motion_position.values);
    free(sc->bodies[i].motion_orientation.t);
    free(sc->bodies[i].motion_orientation.values);
  }
  free(sc->bodies);
  free(sc->joints);
  cosrod_sc_contact_clear(&sc->contact);
  free(sc->output.dir);
  free(sc->title);
  free(sc->file);
  sc_lines_free(sc->lines_);
  free(sc);
}

static void validate(ctx *c, ynode *root) {
  cosrod_scenario *sc = c->sc;
  if (!root) sc_fail(c, NULL, NULL, "empty file (a scenario starts with 'cosrod: 1')");
  if (root->kind != YN_MAP)
    sc_fail(c, root, NULL, "expected a mapping of scenario keys, got %s", sc_kind_name(root));
  sc_check_section(c, root, "");
  ynode *v = sc_require(c, root, "cosrod", "schema version: cosrod: 1");
  sc->version = (int)sc_to_int(c, v, "cosrod", 0, 1000000);
  if (sc->version != COSROD_SC_SCHEMA_VERSION)
    sc_fail(c, v, "cosrod", "unsupported schema version %d (this cosrod reads version %d)", sc->version,
         COSROD_SC_SCHEMA_VERSION);
  /* Independent parts are all checked and every problem reported (up to
   * SC_MAX_ERRORS); a part is read only when every part it reads from was
   * accepted: rods need materials, analysis (preload) and bodies (attached
   * ends); contact and joints need bodies; output needs analysis; the static
   * path and support checks and "nothing to simulate" need everything. */
  SC_TRY(c, sc->title = sc_xstrdup(c, (v = sc_get(root, "title")) ? sc_to_str(c, v, "title") : "");
         sc_sanitize(sc->title));
  SC_TRY(c, sc_vec(c, root, "gravity", sc->gravity, 3, R_ANY));
  volatile int e0 = c->nerr; /* volatile: read after SC_TRY (setjmp) */
  SC_TRY(c, sc_read_materials(c, root)); /* and each entry in its own SC_TRY */
  volatile int materials_ok = c->nerr == e0;
  e0 = c->nerr;
  SC_TRY(c, sc_read_analysis(c, root));
  volatile int analysis_ok = c->nerr == e0;
  e0 = c->nerr;
  SC_TRY(c, sc_read_bodies(c, root));
  volatile int bodies_ok = c->nerr == e0;
  if (bodies_ok) SC_TRY(c, sc_read_contact(c, root)); /* obstacles:, contact:, bodies.N.shape (scenario_contact.c) */
  if (materials_ok && analysis_ok && bodies_ok) SC_TRY(c, sc_read_rods(c, root));
  if (c->nerr == 0) sc_check_static_path(c, root); /* path: keyframes sets t_end from the rods' keyframes */
  if (bodies_ok) SC_TRY(c, sc_read_joints(c, root));
  if (c->nerr == 0) sc_check_static_support(c, root); /* static: every part held against rigid-body motion */
  SC_TRY(c, sc_read_solver(c, root));
  if (analysis_ok) SC_TRY(c, sc_read_output(c, root));
  if (c->nerr) longjmp(c->jb, 1); /* status COSROD_ERR_PARSE, the messages in err */
  if (sc->nrods == 0 && sc->nbodies == 0) sc_fail(c, root, NULL, "nothing to simulate: no rods and no bodies");
  /* a rod end attached to a body is checked above; record key lines */
  sc->lines_ = sc_xcalloc(c, 1, sizeof *sc->lines_);
  c->path[0] = '\0';
  c->depth = 0;
  sc_lines_walk(c, sc->lines_, root);
}

/* The only function that calls setjmp: everything it must free lives in c. */
static cosrod_status run(ctx *c, ynode **rootp, const char *const *sets, size_t nsets) {
  if (setjmp(c->jb)) return c->status;
  for (size_t i = 0; i < nsets; i++) {
    c->path[0] = '\0';
    c->depth = 0;
    if (sets[i]) sc_apply_set(c, rootp, sets[i]);
  }
  c->path[0] = '\0';
  c->depth = 0;
  validate(c, *rootp);
  return COSROD_OK;
}

static cosrod_status scenario_parse(const char *text, size_t len, const char *file, const char *const *sets,
                                    size_t nsets, cosrod_scenario **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) return COSROD_ERR_INVALID;
  *out = NULL;
  if (!file) file = "<input>";
  if (!text && len) return COSROD_ERR_INVALID;
  ynode *root = NULL;
  char msg[600];
  if (yn_parse(text ? text : "", len, 0, &root, msg, sizeof msg)) {
    /* msg is "LINE\tPATH\tPROBLEM" */
    int line = atoi(msg);
    char *t1 = strchr(msg, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (t1 && t2) {
      *t2 = '\0';
      if (err && errlen) {
        snprintf(err, errlen, "%s:%d: %s: %s", file, line, t1 + 1, t2 + 1);
        sc_sanitize(err);
      }
    } else if (err && errlen) {
      snprintf(err, errlen, "%s:%d: (root): %s", file, line, msg);
      sc_sanitize(err);
    }
    return strstr(t2 ? t2 + 1 : msg, "out of memory") ? COSROD_ERR_NOMEM : COSROD_ERR_PARSE;
  }
  ctx *c = calloc(1, sizeof *c);
  cosrod_scenario *sc = calloc(1, sizeof *sc);
  char *fname = malloc(strlen(file) + 1);
  if (!c || !sc || !fname) {
    free(c);
    free(sc);
    free(fname);
    yn_free(root);
    if (err && errlen) snprintf(err, errlen, "%s:0: (root): out of memory", file);
    return COSROD_ERR_NOMEM;
  }
  strcpy(fname, file);
  sc->file = fname;
  c->file = file;
  c->err = err;
  c->errlen = errlen;
  c->sc = sc;
  cosrod_status st = run(c, &root, sets, nsets);
  yn_free(root);
  free(c);
  if (st != COSROD_OK) {
    cosrod_scenario_free(sc);
    return st;
  }
  *out = sc;
  return COSROD_OK;
}

static cosrod_status scenario_load(const char *path, const char *const *sets, size_t nsets, cosrod_scenario **out,
                                   char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out || !path) return COSROD_ERR_INVALID;
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): cannot open: %s", path, strerror(errno));
    return COSROD_ERR_IO;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    fclose(f);
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): out of memory", path);
    return COSROD_ERR_NOMEM;
  }
  for (;;) {
    if (len == cap) {
      if (cap >= (size_t)COSROD_SC_MAX_FILE_SIZE) {
        free(buf);
        fclose(f);
        if (err && errlen)
          snprintf(err, errlen, "%s:0: (file): larger than %ld bytes", path, COSROD_SC_MAX_FILE_SIZE);
        return COSROD_ERR_PARSE;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        fclose(f);
        if (err && errlen) snprintf(err, errlen, "%s:0: (file): out of memory", path);
        return COSROD_ERR_NOMEM;
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int bad = ferror(f), eno = errno;
  fclose(f);
  if (bad) {
    free(buf);
    if (err && errlen)
      snprintf(err, errlen, "%s:0: (file): %s", path,
               eno == EISDIR ? "is a directory, not a scenario file" : "read error");
    return COSROD_ERR_IO;
  }
  cosrod_status st = scenario_parse(buf, len, path, sets, nsets, out, err, errlen);
  free(buf);
  return st;
}

cosrod_scenario *cosrod_scenario_parse(const char *text, size_t len, const char *file, const char *const *sets,
                                       size_t nsets, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_scenario *sc = NULL;
  cosrod_error_clear();
  cosrod_status st = scenario_parse(text, len, file, sets, nsets, &sc, msg, sizeof msg);
  return cosrod_error_result(sc, status, st, msg);
}

cosrod_scenario *cosrod_scenario_load(const char *path, const char *const *sets, size_t nsets,
                                      cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_scenario *sc = NULL;
  cosrod_error_clear();
  cosrod_status st = scenario_load(path, sets, nsets, &sc, msg, sizeof msg);
  return cosrod_error_result(sc, status, st, msg);
}

void cosrod_scenario_print(const cosrod_scenario *sc, FILE *f) {
  static const char *const end_short[] = {"free", "pinned", "clamped", "prescribed"};
  if (!sc || !f) return;
  fprintf(f, "%s: schema %d, \"%s\"\n", sc->file, sc->version, sc->title);
  fprintf(f, "  gravity [%g, %g, %g]\n", sc->gravity[0], sc->gravity[1], sc->gravity[2]);
  for (size_t i = 0; i < sc->nrods; i++) {
    const cosrod_sc_rod *r = &sc->rods[i];
    char mat[160];
    if (r->has_material)
      snprintf(mat, sizeof mat, "E = %g Pa, G = %g Pa, rho = %g kg/m^3", r->material.E, r->material.G,
               r->material.density);
    else /* no material: the given values, not zeros */
      snprintf(mat, sizeof mat, "EA = %g N, EI = %g/%g N m^2, GJ = %g N m^2, rhoA = %g kg/m", r->EA, r->EI1,
               r->EI2, r->GJ, r->rhoA);
    fprintf(f, "  rod %s: %s, L = %g m, N = %zu, %s, curvature %s, ends %s/%s, %zu load(s)\n", r->name,
            SC_MODEL_NAMES[r->model], r->length, r->segments, mat, SC_CURVATURE_NAMES[r->curvature],
            end_short[r->ends[0].type], end_short[r->ends[1].type], r->nloads);
  }
  for (size_t i = 0; i < sc->nbodies; i++) {
    const cosrod_sc_body *b = &sc->bodies[i];
    fprintf(f, "  body %s: m = %g kg, I = [%g, %g, %g] kg m^2, %s\n", b->name, b->mass, b->inertia[0],
            b->inertia[1], b->inertia[2], SC_PARAM_NAMES[b->parametrisation]);
  }
  for (size_t i = 0; i < sc->njoints; i++) {
    const cosrod_sc_joint *j = &sc->joints[i];
    fprintf(f, "  joint %s: %s - %s\n", SC_JOINT_NAMES[j->type],
            j->body[0] < 0 ? "ground" : sc->bodies[j->body[0]].name,
            j->body[1] < 0 ? "ground" : sc->bodies[j->body[1]].name);
  }
  for (size_t i = 0; i < sc->contact.nobstacles; i++) {
    const cosrod_sc_obstacle *o = &sc->contact.obstacles[i];
    const double *x = o->pose.position;
    fprintf(f, "  %s %s: %s at [%g, %g, %g]%s%s%s\n", o->body_shape ? "body shape" : "obstacle", o->name,
            cosrod_sc_shape_type_name(o->shape.type), x[0], x[1], x[2], o->body >= 0 ? " on body " : "",
            o->body >= 0 ? sc->bodies[o->body].name : "", o->has_motion ? ", moved by keyframes" : "");
  }
  if (sc->contact.enabled) {
    const cosrod_contact_law *L = &sc->contact.law;
    char k[32] = "auto", d[32] = "auto";
    if (L->stiffness > 0) snprintf(k, sizeof k, "%g", L->stiffness);
    if (L->damping != 0) snprintf(d, sizeof d, L->damping < 0 ? "none" : "%g", L->damping);
    fprintf(f, "  contact: stiffness %s, damping %s, friction %g/%g, rods %s, self %s\n", k, d, L->mu_static,
            L->mu_kinetic, sc->contact.rods ? "on" : "off", sc->contact.self ? "on" : "off");
  }
  fprintf(f, "  analysis %s, t_end = %g%s%s\n", SC_ANALYSIS_NAMES[sc->analysis.type], sc->analysis.t_end,
          sc->analysis.arc_length ? ", control arc-length (t = arc length of the path)" : "",
          sc->analysis.keyframe_path ? ", path keyframes" : "");
  fprintf(f, "  solver %s/%s, %s, rtol = %g, atol = %g\n", SC_FORMULATION_NAMES[sc->solver.formulation],
          SC_STAB_NAMES[sc->solver.stabilisation], SC_INTEGRATOR_NAMES[sc->solver.integrator], sc->solver.rtol,
          sc->solver.atol);
  fprintf(f, "  output %s every %g%s%s\n", sc->output.dir, sc->output.every, sc->output.vtk ? ", vtk" : "",
          sc->output.plots ? ", plots" : "");
}
