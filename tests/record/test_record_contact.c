// SPDX-License-Identifier: Apache-2.0
/* The recorder's contact files ([manual: contact]) from a contact evaluation of known
 * result: a straight rod of length L sunk by p below its radius into a
 * frictionless floor (penalty f(p) = k (p - delta/2) per length for p >=
 * delta, the law's closed form) -> contacts.csv rows whose normal forces sum
 * to f L, obstacles.csv F_z = -f L on the floor and, about the floor's
 * point at the rod's start, M_y = f L^2 / 2 (uniform line load), about the
 * rod's midpoint 0; scene.json lists obstacles with their world fields, a
 * body's shape in its entry, and a keyframed obstacle's motion.
 * contact_plot: a rod sliding down a frictional slope, recorded with plots on:
 * contact_forces.csv has one row per output time whose columns equal the sums
 * of contacts.csv at that time (sum Fn, sum |Ft|, count per obstacle; the
 * rods group empty), and plots/contact.png is a PNG drawn from it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cosrod/contact.h"
#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "record/record_scene.h"

static const char *SCEN =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: hose\n"
    "    length: 1.0\n"
    "    segments: 8\n"
    "    material: {E: 1.0e7, poisson: 0.5, density: 1000}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    shape: {type: straight, start: [0, 0, 0.009], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "  - name: pusher\n"
    "    shape: capsule\n"
    "    a: [5, 0, 0.3]\n"
    "    b: [5, 0, 0.5]\n"
    "    radius: 0.05\n"
    "    motion: {position: [[0, 5, 0, 0.4], [1, 6, 0, 0.4]]}\n"
    "contact: {stiffness: 1.0e5, onset: 1.0e-4}\n"
    "analysis: {type: dynamic, t_end: 1}\n"
    "output: {vtk: false, plots: false}\n";

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

TEST(contact_files) {
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(SCEN, strlen(SCEN), "rec.yaml", NULL, 0, &st);
  if (st) NOTE("%s", cosrod_last_error());
  CHECK("scenario", st == COSROD_OK);
  if (st) return;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) NOTE("%s", cosrod_last_error());
  CHECK("sim", sim != NULL);
  if (!sim) {
    cosrod_scenario_free(sc);
    return;
  }
  const double L = 1.0, r = 0.01, p = 0.001, k = 1e5, delta = 1e-4;
  const int N = 8;
  /* the contact model of the scenario: one rod, its obstacles in order */
  double sref[N + 1], x[3 * (N + 1)], f[3 * (N + 1)];
  for (int i = 0; i <= N; i++) {
    sref[i] = L * i / N;
    x[3 * i] = sref[i], x[3 * i + 1] = 0, x[3 * i + 2] = r - p;
    f[3 * i] = f[3 * i + 1] = f[3 * i + 2] = 0;
  }
  cosrod_contact_rod cr = {N + 1, r, sref, 1.0, 1.0, 0.0};
  cosrod_contact_obstacle obs[2];
  for (size_t i = 0; i < sc->contact.nobstacles; i++) {
    obs[i].shape = sc->contact.obstacles[i].shape;
    obs[i].pose = sc->contact.obstacles[i].pose;
    int b = sc->contact.obstacles[i].body;
    if (b >= 0) /* the crate's box: body pose (translation only here) */
      for (int c = 0; c < 3; c++) obs[i].pose.position[c] += sc->bodies[b].position[c];
  }
  cosrod_contact_def def = {0};
  def.nrods = 1, def.rods = &cr, def.nobstacles = (int)sc->contact.nobstacles, def.obstacles = obs;
  def.law = sc->contact.law;
  cosrod_contact_model *m = NULL;
  cosrod_contact_data *d = NULL;
  CHECK("2 obstacles", sc->contact.nobstacles == 2);
  CHECK("model", (m = cosrod_contact_model_create(&def, NULL)) != NULL);
  CHECK("data", (d = cosrod_contact_data_create(m, NULL)) != NULL);
  const double *xs[1] = {x};
  double *fs[1] = {f};
  CHECK("eval", cosrod_contact_eval(m, d, xs, NULL, fs, 0) == COSROD_OK);
  mkdir("rec_contact_out", 0777);
  cosrod_recorder *rec = cosrod_recorder_create(sim, "rec_contact_out", "rec.yaml", 0, &st);
  if (!rec) NOTE("%s", cosrod_last_error());
  CHECK("recorder", rec != NULL);
  double ref[6] = {0.5, 0, 0, 5, 0, 0.4};
  /* (no cosrod_recorder_frame: it would add the simulation's own contact rows) */
  CHECK("contacts at t = 0 (moments about the origins)", rec && cosrod_recorder_contacts(rec, 0.0, d, NULL) == 0);
  CHECK("contacts at t = 1 (about the rod's midpoint)", rec && cosrod_recorder_contacts(rec, 1.0, d, ref) == 0);
  cosrod_record_end end;
  if (rec) cosrod_recorder_finish(rec, sim, COSROD_OK, 0.1, NULL, &end);
  cosrod_recorder_free(rec);
  /* contacts.csv */
  FILE *fc = fopen("rec_contact_out/contacts.csv", "r");
  CHECK("contacts.csv in place", fc != NULL);
  char line[1024];
  double sumfn = 0, gapmin = 1, nz = 0;
  int rows = 0, stick = 0;
  if (fc && fgets(line, sizeof line, fc))
    CHECK("header", !strcmp(line, "t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state\n"));
  while (fc && fgets(line, sizeof line, fc)) {
    double t, v[12];
    int rod, seg;
    char other[64], state[16];
    if (sscanf(line, "%lf,%d,%d,%63[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%15s", &t, &rod, &seg, other,
               v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7, v + 8, v + 9, v + 10, state) != 16)
      continue;
    if (t != 0.0) continue;
    rows++;
    CHECK("other = floor, rod 0", rod == 0 && !strcmp(other, "floor"));
    sumfn += v[7];
    nz = v[5];
    if (v[6] < gapmin) gapmin = v[6];
    stick += !strcmp(state, "stick");
  }
  if (fc) fclose(fc);
  const double fl = k * (p - 0.5 * delta); /* per length */
  NOTE("%d rows at t = 0, sum Fn = %.12g (f L = %.12g), gap %.6g", rows, sumfn, fl * L, gapmin);
  CHECK("two Gauss points per segment", rows == 2 * N);
  CHECK_NEAR("sum of normal forces = f L", sumfn, fl * L, 1e-9 * fl * L);
  CHECK_NEAR("gap = -p", gapmin, -p, 1e-15);
  CHECK_NEAR("normal from the floor towards the rod", nz, 1.0, 1e-15);
  CHECK("frictionless: no slip", stick == rows);
  /* obstacles.csv */
  FILE *fo = fopen("rec_contact_out/obstacles.csv", "r");
  CHECK("obstacles.csv in place", fo != NULL);
  int orow = 0;
  if (fo && fgets(line, sizeof line, fo)) CHECK("header", !strcmp(line, "t,obstacle,Fx,Fy,Fz,Mx,My,Mz\n"));
  while (fo && fgets(line, sizeof line, fo)) {
    double t, w[6];
    char name[64];
    if (sscanf(line, "%lf,%63[^,],%lf,%lf,%lf,%lf,%lf,%lf", &t, name, w, w + 1, w + 2, w + 3, w + 4, w + 5) != 8)
      continue;
    orow++;
    if (!strcmp(name, "floor")) {
      CHECK_NEAR("floor: Fz = -f L", w[2], -fl * L, 1e-9 * fl * L);
      CHECK_NEAR("floor: Fx = 0", w[0], 0.0, 1e-12 * fl);
      if (t == 0.0) CHECK_NEAR("floor: My = f L^2 / 2 about its point (origin)", w[4], fl * L * L / 2, 1e-9 * fl);
      if (t == 1.0) CHECK_NEAR("floor: My = 0 about the rod's midpoint", w[4], 0.0, 1e-9 * fl);
    } else {
      CHECK("pusher untouched", !strcmp(name, "pusher") && w[2] == 0.0);
    }
  }
  if (fo) fclose(fo);
  CHECK("2 obstacles x 2 times", orow == 4);
  /* scene.json */
  char *js = slurp("rec_contact_out/scene.json");
  CHECK("scene.json", js != NULL);
  if (js) {
    NOTE("%s", js);
    CHECK("floor: plane with point and normal, no body, no motion",
          strstr(js, "{\"name\": \"floor\", \"shape\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1], "
                     "\"body\": null, \"motion\": null}") != NULL);
    CHECK("pusher: capsule a, b at t = 0, motion keyframes",
          strstr(js, "\"shape\": \"capsule\", \"a\": [5, 0, 0.30000000000000004], \"b\": [5, 0, 0.5], \"radius\": "
                     "0.050000000000000003, \"body\": null, \"motion\": {\"t\": [0, 1], \"position\": [[5, 0, "
                     "0.40000000000000002], [6, 0, 0.40000000000000002]], \"orientation\": [[1, 0, 0, 0], [1, 0, 0, "
                     "0]]}}") != NULL);
    free(js);
  }
  /* a body's shape in its entry of scene.json (body frame), not an obstacle */
  const char *with_body =
      "cosrod: 1\nbodies:\n  - {name: crate, mass: 2, inertia: [1, 1, 1], position: [3, 0, 0.5],\n"
      "     shape: {type: box, size: [0.2, 0.4, 0.6]}}\ncontact: {}\nanalysis: {t_end: 1}\n";
  cosrod_scenario *sb = NULL;
  CHECK("scenario with a body shape",
        (sb = cosrod_scenario_parse(with_body, strlen(with_body), "b.yaml", NULL, 0, NULL)) != NULL);
  CHECK("scene.json written", sb && record_write_scene("rec_contact_out", sb) == 0);
  js = slurp("rec_contact_out/scene.json");
  CHECK("crate: shape in its entry (body frame)",
        js && strstr(js, "\"keyframes\": false, \"shape\": {\"shape\": \"box\", \"center\": [0, 0, 0], \"size\": "
                         "[0.20000000000000001, 0.40000000000000002, 0.59999999999999998], \"orientation\": [1, 0, 0, "
                         "0]}}") != NULL);
  CHECK("the body shape is not an obstacle", js && !strstr(js, "{\"name\": \"crate\", \"shape\"") &&
                                                 strstr(js, "\"obstacles\": []"));
  free(js);
  cosrod_scenario_free(sb);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Sums of contacts.csv at time t for `other` == name: Fn, |Ft|, count. */
typedef struct csum {
  double t, fn, ft;
  int n;
} csum;

static int contacts_sums(const char *path, const char *name, csum *out, int cap) {
  FILE *f = fopen(path, "r");
  char line[1024];
  int n = 0;
  if (!f) return 0;
  if (!fgets(line, sizeof line, f)) n = 0;
  while (fgets(line, sizeof line, f)) {
    double t, v[12];
    int rod, seg;
    char other[64];
    if (sscanf(line, "%lf,%d,%d,%63[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &rod, &seg, other, v, v + 1,
               v + 2, v + 3, v + 4, v + 5, v + 6, v + 7, v + 8, v + 9, v + 10) != 15 || strcmp(other, name))
      continue;
    if (n == 0 || out[n - 1].t != t) {
      if (n == cap) break;
      out[n++] = (csum){t, 0, 0, 0};
    }
    out[n - 1].fn += v[7];
    out[n - 1].ft += sqrt(v[8] * v[8] + v[9] * v[9] + v[10] * v[10]);
    out[n - 1].n++;
  }
  fclose(f);
  return n;
}

TEST(contact_plot) {
  const char *slope =
      "cosrod: 1\ntitle: slide\ngravity: [0, 0, -9.81]\nrods:\n  - name: rod\n    length: 0.5\n    segments: 6\n"
      "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n    section: {shape: circle, radius: 0.01}\n"
      "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
      "    shape: {type: straight, start: [-0.0062, 0, 0.0078], direction: [0.7809, 0, 0.6247], normal: [-0.6247, 0, "
      "0.7809]}\nobstacles:\n  - {name: slope, shape: plane, point: [0, 0, 0], normal: [-0.6247, 0, 0.7809]}\n"
      "contact: {friction: {static: 0.5, kinetic: 0.4}}\nanalysis: {type: dynamic, t_end: 0.1}\n"
      "output: {every: 0.02, vtk: false, plots: true}\n";
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(slope, strlen(slope), "slide.yaml", NULL, 0, &st);
  if (st) NOTE("%s", cosrod_last_error());
  CHECK("scenario", st == COSROD_OK);
  if (st) return;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("sim", sim != NULL);
  mkdir("rec_contact_plot", 0777);
  cosrod_recorder *rec = sim ? cosrod_recorder_create(sim, "rec_contact_plot", "slide.yaml", 0, &st) : NULL;
  if (!rec) NOTE("%s", cosrod_last_error());
  CHECK("recorder", rec != NULL);
  if (rec) {
    cosrod_sim_observer obs = cosrod_recorder_observer(rec, NULL);
    cosrod_status rs = cosrod_sim_run(sim, &obs);
    CHECK("run", rs == COSROD_OK);
    cosrod_record_end end;
    cosrod_recorder_finish(rec, sim, rs, 0.1, NULL, &end);
  }
  cosrod_recorder_free(rec);
  csum ref[64];
  int nref = contacts_sums("rec_contact_plot/contacts.csv", "slope", ref, 64);
  FILE *f = fopen("rec_contact_plot/contact_forces.csv", "r");
  CHECK("contact_forces.csv in place", f != NULL);
  char line[1024];
  int rows = 0, matched = 0, slid = 0;
  if (f && fgets(line, sizeof line, f))
    CHECK("header: t, active, per obstacle and rods: Fn, Ft, n",
          !strcmp(line, "t,active,Fn_slope,Ft_slope,n_slope,Fn_rods,Ft_rods,n_rods\n"));
  while (f && fgets(line, sizeof line, f)) {
    double t, fn, ft, fnr, ftr;
    int act, n, nr;
    if (sscanf(line, "%lf,%d,%lf,%lf,%d,%lf,%lf,%d", &t, &act, &fn, &ft, &n, &fnr, &ftr, &nr) != 8) continue;
    rows++;
    CHECK("no rod-rod contact", fnr == 0 && ftr == 0 && nr == 0 && act == n);
    int found = 0;
    for (int i = 0; i < nref; i++)
      if (ref[i].t == t) {
        found = 1;
        double sc_ = fmax(ref[i].fn, 1e-300);
        if (fabs(fn - ref[i].fn) <= 1e-12 * sc_ && fabs(ft - ref[i].ft) <= 1e-12 * sc_ && n == ref[i].n) matched++;
        else NOTE("t = %g: Fn %.17g vs %.17g, Ft %.17g vs %.17g, n %d vs %d", t, fn, ref[i].fn, ft, ref[i].ft, n,
                  ref[i].n);
        slid += ft > 0.1 * fn && fn > 0;
      }
    if (!found) CHECK("no contacts.csv rows: zero totals", n == 0 && fn == 0 && ft == 0);
  }
  if (f) fclose(f);
  NOTE("%d rows, %d times with contacts in contacts.csv, %d agree, %d with friction > 0.1 Fn", rows, nref, matched,
       slid);
  CHECK("a row per output time (t = 0, 0.02, ..., 0.1)", rows == 6);
  CHECK("every time with contacts agrees with the sums of contacts.csv", nref > 0 && matched == nref);
  CHECK("the slope's friction is in the data (the rod slides: mu_k Fn)", slid > 0);
  char *gp = slurp("rec_contact_plot/plots/contact.gp");
  CHECK("plots/contact.gp", gp && strstr(gp, "'../contact_forces.csv' skip 1 using 1:3 ") &&
                                 strstr(gp, "title 'Fn slope'") && strstr(gp, "using 1:4 ") &&
                                 strstr(gp, "title 'Ft slope'") && strstr(gp, "using 1:5 ") &&
                                 strstr(gp, "title 'n slope'") && strstr(gp, "using 1:2 "));
  free(gp);
  char *png = slurp("rec_contact_plot/plots/contact.png");
  if (png) {
    CHECK("contact.png is a PNG", !memcmp(png, "\x89PNG", 4));
  } else {
    char *js = slurp("rec_contact_plot/summary.json");
    NOTE("no contact.png: gnuplot missing?");
    CHECK("no PNG only without gnuplot (warning in summary.json)", js && strstr(js, "gnuplot not found"));
    free(js);
  }
  free(png);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(contact_files), TH_CASE(contact_plot)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
