// SPDX-License-Identifier: Apache-2.0
/* No allocation in repeated contact evaluations: after the first evaluation
 * (which may grow the block and point lists once), evaluations with the same
 * or fewer contacts, their Jacobians and the friction commit allocate nothing
 * (counting allocator via --wrap, as tests/noalloc). */
#include <math.h>
#include <stdlib.h>

#include "alloc_count.h"
#include "contact_test_util.h"
#include "cosrod/quat.h"
#include "harness.h"

TEST(repeated_evaluations_do_not_allocate) {
  double r = 0.005, ds = 0.004, Rc = 0.03, pitch = 1.9 * r;
  test_rod h;
  int nv = 600;
  test_rod_line(&h, nv, (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, ds);
  double c = sqrt(4 * COSROD_QUAT_PI * COSROD_QUAT_PI * Rc * Rc + pitch * pitch);
  for (int i = 0; i < nv; ++i) { /* a coil resting on the floor: self-contact and obstacle contact */
    double th = 2 * COSROD_QUAT_PI * i * ds / c;
    cosrod_vec3_set(h.x + 3 * i, Rc * cos(th), Rc * sin(th), r * 0.99 + pitch * th / (2 * COSROD_QUAT_PI));
  }
  cosrod_contact_rod cr = test_contact_rod(&h, r, 1e-3, 0.1);
  cosrod_contact_obstacle floor = {.shape = {.type = COSROD_SHAPE_PLANE}};
  cosrod_pose_identity(&floor.pose);
  cosrod_contact_def def = {.nrods = 1, .rods = &cr, .nobstacles = 1, .obstacles = &floor, .self_contact = 1,
                            .gravity = 9.81, .law = {.mu_static = 0.5, .mu_kinetic = 0.4}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  cosrod_contact_eval(m, d, (const double *const[]){h.x}, (const double *const[]){h.v}, (double *const[]){h.f},
                      COSROD_CONTACT_JAC);
  cosrod_contact_commit(m, d);
  long before = g_allocs;
  for (int it = 0; it < 5; ++it) {
    test_rod_zero_f(&h);
    cosrod_contact_eval(m, d, (const double *const[]){h.x}, (const double *const[]){h.v}, (double *const[]){h.f},
                        COSROD_CONTACT_JAC);
    cosrod_contact_commit(m, d);
  }
  size_t act;
  cosrod_contact_counts(d, NULL, &act);
  NOTE("%zu active contacts, %zu blocks", act, cosrod_contact_nblocks(d));
  CHECK("contacts active", act > 1000);
  CHECK("no allocation in 5 evaluations with Jacobian and commit", g_allocs == before);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&h);
}

static const th_case cases[] = {TH_CASE(repeated_evaluations_do_not_allocate)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
