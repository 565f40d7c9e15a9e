// SPDX-License-Identifier: Apache-2.0
/* The umbrella header alone is enough for a user: this file includes only
 * cosrod/cosrod.h, links the shared library and uses one function of every
 * public header (version, export, vec3 and profile are macros / inline functions). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/cosrod.h"

typedef void (*any_fn)(void);
static int failures = 0;
static void check(const char *what, int ok) {
  printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  failures += !ok;
}

int main(void) {
  /* status.h */
  check("status: cosrod_strerror(OK) is \"success\"", strcmp(cosrod_strerror(COSROD_OK), "success") == 0);
  /* quat.h, vec3.h: R(p) e1 = e2 for p the quarter turn about e3 */
  double p[4], e1[3] = {1, 0, 0}, e3[3] = {0, 0, 1}, w[3];
  cosrod_quat_from_axis_angle(p, e3, acos(-1.0) / 2);
  cosrod_quat_rotate(w, p, e1);
  check("quat: quarter turn about e3 maps e1 to e2", fabs(w[0]) < 1e-15 && fabs(w[1] - 1) < 1e-15 &&
                                                         fabs(w[2]) < 1e-15 && cosrod_vec3_dot(w, e1) < 1e-15);
  /* profile.h: ramp on [1, 3] is (t - 1) / 2 inside, 0 before, 1 after; active 1 only on [1, 3] */
  check("profile: ramp and active window",
        cosrod_profile_value(COSROD_PROFILE_RAMP, 1.0, 3.0, 2.5) == 0.75 &&
            cosrod_profile_value(COSROD_PROFILE_RAMP, 1.0, 3.0, 0.5) == 0.0 &&
            cosrod_profile_value(COSROD_PROFILE_RAMP, 1.0, 3.0, 4.0) == 1.0 &&
            cosrod_profile_value(COSROD_PROFILE_ACTIVE, 1.0, 3.0, 3.5) == 0.0 &&
            cosrod_profile_value(COSROD_PROFILE_ACTIVE, 1.0, 3.0, 2.0) == 1.0 &&
            cosrod_profile_value(COSROD_PROFILE_CONSTANT, 1.0, 3.0, 9.0) == 1.0);
  /* band.h, dense.h, sparse.h */
  cosrod_band *B = cosrod_band_create(4, 1, 1, NULL);
  cosrod_dense *D = cosrod_dense_create(3, NULL);
  int colptr[2] = {0, 1}, rowind[1] = {0};
  cosrod_sparse *S = cosrod_sparse_create(1, colptr, rowind, NULL);
  check("band, dense, sparse: created", B && D && S && cosrod_sparse_find(S, 0, 0) == 0);
  cosrod_band_free(B);
  cosrod_dense_free(D);
  cosrod_sparse_free(S);
  /* integrate.h */
  check("integrate: dopri5 is built", cosrod_step_type_by_name("dopri5") != NULL);
  /* rod.h */
  cosrod_rod_def def = cosrod_rod_def_default();
  cosrod_status st = COSROD_ERR_INTERNAL;
  cosrod_rod *rod = cosrod_rod_create(&def, &st);
  check("rod: the default rod has 10 segments", rod && st == COSROD_OK && cosrod_rod_nseg(rod) == 10);
  cosrod_rod_free(rod);
  /* body.h, statics.h, scenario.h, output.h, sim.h */
  /* read through volatile: the linker resolved them in the shared library */
  volatile any_fn mbs = (any_fn)cosrod_mbs_create, out = (any_fn)cosrod_output_create,
                  sim = (any_fn)cosrod_sim_create;
  check("body: cosrod_mbs_create linked", mbs != NULL);
  cosrod_statics_options so = cosrod_statics_default_options();
  check("statics: default options", so.increments > 0);
  cosrod_sc_builder *sb = cosrod_sc_builder_create(NULL);
  check("scenario: builder created", sb != NULL);
  cosrod_sc_builder_free(sb);
  check("output: cosrod_output_create linked", out != NULL);
  check("sim: cosrod_sim_create linked", sim != NULL);
  /* version.h */
  check("version: " COSROD_VERSION_STRING, COSROD_VERSION_MAJOR >= 0);
  return failures ? 1 : 0;
}
