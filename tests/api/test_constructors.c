// SPDX-License-Identifier: Apache-2.0
/* The constructor convention of include/cosrod/status.h, checked on every
 * public constructor through the shared library: on invalid input NULL, a
 * non-OK *status and a one-line cosrod_last_error() naming the problem; on
 * success *status = OK and the message ""; status may be NULL; the message
 * belongs to the calling thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/cosrod.h"
#include "harness.h"

/* A refused creation: obj NULL, status `want` (or any non-OK with want ==
 * COSROD_OK), message non-empty, one line unless lines > 1, containing `names`. */
static void refused(const char *what, const void *obj, cosrod_status st, cosrod_status want, const char *names) {
  const char *msg = cosrod_last_error();
  char label[256];
  NOTE("%s -> %s: %s", what, cosrod_status_name(st), msg);
  snprintf(label, sizeof label, "%s: NULL", what);
  CHECK(label, obj == NULL);
  snprintf(label, sizeof label, "%s: status %s", what, want == COSROD_OK ? "not OK" : cosrod_status_name(want));
  CHECK(label, want == COSROD_OK ? st != COSROD_OK : st == want);
  snprintf(label, sizeof label, "%s: message names '%s'", what, names);
  CHECK(label, msg && msg[0] && strstr(msg, names) != NULL);
}

/* A successful creation: status OK and the message cleared. */
static void created(const char *what, const void *obj, cosrod_status st) {
  char label[256];
  snprintf(label, sizeof label, "%s: created, status OK, message \"\"", what);
  CHECK(label, obj != NULL && st == COSROD_OK && cosrod_last_error()[0] == '\0');
}

static char *example(const char *name) {
  const char *d = getenv("COSROD_EXAMPLES");
  size_t n = strlen(d ? d : "examples") + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", d ? d : "examples", name);
  return p;
}

TEST(linalg) {
  cosrod_status st = COSROD_OK;
  void *o = cosrod_band_create(0, 1, 1, &st);
  refused("cosrod_band_create(n = 0)", o, st, COSROD_ERR_INVALID, "n = 0");
  o = cosrod_band_create(4, -1, 1, &st);
  refused("cosrod_band_create(ml = -1)", o, st, COSROD_ERR_INVALID, "ml = -1");
  o = cosrod_zband_create(-3, 0, 0, &st);
  refused("cosrod_zband_create(n = -3)", o, st, COSROD_ERR_INVALID, "n = -3");
  o = cosrod_dense_create(0, &st);
  refused("cosrod_dense_create(n = 0)", o, st, COSROD_ERR_INVALID, "n = 0");
  o = cosrod_zdense_create(-1, &st);
  refused("cosrod_zdense_create(n = -1)", o, st, COSROD_ERR_INVALID, "n = -1");
  /* column 1 has its rows descending */
  int colptr[3] = {0, 1, 3}, rowind[3] = {0, 1, 0};
  int klu = cosrod_sparse_available();
  o = cosrod_sparse_create(2, colptr, rowind, &st);
  refused("cosrod_sparse_create(bad pattern)", o, st, klu ? COSROD_ERR_INVALID : COSROD_ERR_UNSUPPORTED,
          klu ? "column 1" : "KLU");
  o = cosrod_sparse_create_complex(2, colptr, rowind, &st);
  refused("cosrod_sparse_create_complex(bad pattern)", o, st, klu ? COSROD_ERR_INVALID : COSROD_ERR_UNSUPPORTED,
          klu ? "column 1" : "KLU");
  /* success clears the message of the failure before; status may be NULL */
  cosrod_band *B = cosrod_band_create(5, 1, 2, &st);
  created("cosrod_band_create(5, 1, 2)", B, st);
  cosrod_band_free(B);
  CHECK("status NULL: still NULL and a message", cosrod_dense_create(0, NULL) == NULL && cosrod_last_error()[0]);
}

TEST(rod_body_contact) {
  cosrod_status st = COSROD_OK;
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 0;
  void *o = cosrod_rod_create(&def, &st);
  refused("cosrod_rod_create(nseg = 0)", o, st, COSROD_ERR_INVALID, "segment");
  o = cosrod_rod_create(NULL, &st);
  refused("cosrod_rod_create(NULL)", o, st, COSROD_ERR_INVALID, "no definition");
  o = cosrod_rod_data_create(NULL, &st);
  refused("cosrod_rod_data_create(NULL)", o, st, COSROD_ERR_INVALID, "no rod");
  def = cosrod_rod_def_default();
  cosrod_rod *rod = cosrod_rod_create(&def, &st);
  created("cosrod_rod_create(default)", rod, st);
  o = cosrod_rod_order_create(rod, (cosrod_rod_form)77, &st);
  refused("cosrod_rod_order_create(form 77)", o, st, COSROD_ERR_INVALID, "form");
  o = cosrod_statics_create(NULL, NULL, &st);
  refused("cosrod_statics_create(NULL rod)", o, st, COSROD_ERR_INVALID, "no rod");
  cosrod_statics_options so = cosrod_statics_default_options();
  so.increments = 0;
  o = cosrod_statics_create(rod, &so, &st);
  refused("cosrod_statics_create(increments = 0)", o, st, COSROD_ERR_INVALID, "increments");
  const cosrod_rod *rods[1] = {rod};
  o = cosrod_statics_create_system(rods, 0, NULL, &st);
  refused("cosrod_statics_create_system(nrods = 0)", o, st, COSROD_ERR_INVALID, "no rods");
  o = cosrod_statics_create_coupled(NULL, 1, NULL, NULL, &st);
  refused("cosrod_statics_create_coupled(NULL rods)", o, st, COSROD_ERR_INVALID, "no rods");
  cosrod_rod_free(rod);

  cosrod_mbs_def md;
  memset(&md, 0, sizeof md);
  o = cosrod_mbs_create(&md, &st);
  refused("cosrod_mbs_create(no bodies)", o, st, COSROD_ERR_INVALID, "at least one body");
  o = cosrod_mbs_data_create(NULL, &st);
  refused("cosrod_mbs_data_create(NULL)", o, st, COSROD_ERR_INVALID, "no model");

  cosrod_contact_def cd;
  memset(&cd, 0, sizeof cd);
  cd.quadrature = 7;
  o = cosrod_contact_model_create(&cd, &st);
  refused("cosrod_contact_model_create(quadrature 7)", o, st, COSROD_ERR_INVALID, "quadrature 7");
  o = cosrod_contact_data_create(NULL, &st);
  refused("cosrod_contact_data_create(NULL)", o, st, COSROD_ERR_INVALID, "no model");
  double v[6] = {0, 0, 0, 1, 0, 0};
  int t[3] = {0, 1, 0};
  o = cosrod_mesh_create(v, 2, t, 1, 0, "two-points", &st);
  refused("cosrod_mesh_create(2 vertices)", o, st, COSROD_ERR_INVALID, "two-points: empty mesh");
  o = cosrod_mesh_load("no-such-mesh.stl", 0, &st);
  refused("cosrod_mesh_load(missing file)", o, st, COSROD_ERR_IO, "no-such-mesh.stl: cannot open");
  o = cosrod_mesh_load("mesh.txt", 0, &st);
  refused("cosrod_mesh_load(.txt)", o, st, COSROD_ERR_PARSE, "unknown mesh format");
}

TEST(integrate_output) {
  cosrod_status st = COSROD_OK;
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  void *o = cosrod_integrator_create(NULL, &p, NULL, &st);
  refused("cosrod_integrator_create(no method)", o, st, COSROD_ERR_INVALID, "no method");
  o = cosrod_integrator_create(cosrod_step_type_by_name("dopri5"), &p, NULL, &st);
  refused("cosrod_integrator_create(n = 0)", o, st, COSROD_ERR_INVALID, "n = 0");
  cosrod_output_config cfg = cosrod_output_default_config();
  o = cosrod_output_create(NULL, &cfg, &st);
  refused("cosrod_output_create(no directory)", o, st, COSROD_ERR_INVALID, "no directory");
  o = cosrod_output_create("/proc/self/cosrod-constructors", &cfg, &st);
  refused("cosrod_output_create(/proc)", o, st, COSROD_ERR_IO, "/proc/self/cosrod-constructors");
}

TEST(scenario_sim_record) {
  cosrod_status st = COSROD_OK;
  void *o = cosrod_scenario_load("no-such-scenario.yaml", NULL, 0, &st);
  refused("cosrod_scenario_load(missing file)", o, st, COSROD_ERR_IO, "no-such-scenario.yaml:0: (file): cannot open");
  static const char bad[] = "cosrod: 1\nanalysis: {type: dynamic, t_end: -1}\n";
  o = cosrod_scenario_parse(bad, sizeof bad - 1, "bad.yaml", NULL, 0, &st);
  refused("cosrod_scenario_parse(t_end = -1)", o, st, COSROD_ERR_PARSE, "bad.yaml:2: analysis.t_end");

  cosrod_sc_builder *b = cosrod_sc_builder_create(&st);
  created("cosrod_sc_builder_create", b, st);
  o = cosrod_sc_builder_finish(NULL, &st);
  refused("cosrod_sc_builder_finish(NULL)", o, st, COSROD_ERR_INVALID, "no builder");
  cosrod_sc_builder_set_num(b, "analysis.t_end", -2.0);
  o = cosrod_sc_builder_finish(b, &st);
  refused("cosrod_sc_builder_finish(t_end = -2)", o, st, COSROD_ERR_PARSE, "analysis.t_end");
  cosrod_sc_builder_free(b);

  o = cosrod_sim_create(NULL, &st);
  refused("cosrod_sim_create(NULL)", o, st, COSROD_ERR_INVALID, "no scenario");
  o = cosrod_sim_prepare(NULL, 0.0, NULL, &st);
  refused("cosrod_sim_prepare(NULL)", o, st, COSROD_ERR_INVALID, "no scenario");
  char *path = example("rubber-pendulum.yaml");
  const char *sets[1] = {"rods.0.segments=100000"};
  cosrod_scenario *sc = path ? cosrod_scenario_load(path, sets, 1, &st) : NULL;
  created("cosrod_scenario_load(rubber-pendulum, 10^5 segments)", sc, st);
  if (sc) {
    o = cosrod_sim_prepare(sc, 1e6, NULL, &st);
    refused("cosrod_sim_prepare(1 MB limit)", o, st, COSROD_ERR_INVALID, "rods.0.segments: needs ~");
    cosrod_scenario_free(sc);
  }
  sc = path ? cosrod_scenario_load(path, NULL, 0, &st) : NULL;
  cosrod_sim *sim = sc ? cosrod_sim_create(sc, &st) : NULL;
  created("cosrod_sim_create(rubber-pendulum)", sim, st);
  o = cosrod_recorder_create(NULL, "out", NULL, 0.0, &st);
  refused("cosrod_recorder_create(no sim)", o, st, COSROD_ERR_INVALID, "no simulation");
  if (sim) {
    o = cosrod_recorder_create(sim, "/proc/self/cosrod-constructors", NULL, 0.0, &st);
    refused("cosrod_recorder_create(/proc)", o, st, COSROD_ERR_IO, "/proc/self/cosrod-constructors");
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  free(path);
}

static void *fail_in_thread(void *arg) {
  (void)arg;
  cosrod_dense *D = cosrod_dense_create(-7, NULL);
  return D == NULL && strstr(cosrod_last_error(), "n = -7") ? (void *)1 : NULL;
}

TEST(message_per_thread) {
  cosrod_band *B = cosrod_band_create(0, 0, 0, NULL);
  CHECK("main thread: band refused", B == NULL && strstr(cosrod_last_error(), "cosrod_band_create") != NULL);
  pthread_t th;
  void *ok = NULL;
  CHECK("thread started", pthread_create(&th, NULL, fail_in_thread, NULL) == 0 && pthread_join(th, &ok) == 0);
  CHECK("the other thread sees its own message", ok != NULL);
  CHECK("the main thread's message is unchanged", strstr(cosrod_last_error(), "cosrod_band_create: n = 0") != NULL);
}

static const th_case cases[] = {TH_CASE(linalg), TH_CASE(rod_body_contact), TH_CASE(integrate_output),
                                TH_CASE(scenario_sim_record), TH_CASE(message_per_thread)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
