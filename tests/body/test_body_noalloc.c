// SPDX-License-Identifier: Apache-2.0
/* No allocation in the time loop (STYLE.md §6) for rigid multibody models:
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc.  After the
 * model, data and integrator are created, integrating (right-hand side,
 * joint solves, analytic or finite-difference Jacobians, projection with
 * re-partitioning, dense output, reactions and energies in the output
 * callback) must allocate nothing. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "harness.h"

#include "alloc_count.h"

typedef struct ctx {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  double R[12], sum;
} ctx;

static int on_out(double t, const double *y, void *user) {
  ctx *c = user;
  double k, g, e, pe, pd, x[3], q[4], v[3], Om[3];
  cosrod_mbs_energy(c->m, c->d, t, y, &k, &g, &e);
  cosrod_mbs_power(c->m, c->d, t, y, &pe, &pd);
  cosrod_mbs_joint_reactions(c->m, c->d, t, y, c->R);
  cosrod_mbs_body_state(c->m, c->d, y, 0, x, q, v, Om);
  c->sum += k + g + e + pe + pd + c->R[0] + x[0];
  return 0;
}

/* the slider on a spinning arm (re-partitions) and, without joints, a body
 * with loads and a bushing (analytic Jacobian with radau5); with_joints = 2:
 * the slider with directors in the absolute formulation (multipliers) and a
 * rotational bushing (tangent Jacobian of body_tangent.c) */
static void check(int with_joints, const char *method) {
  cosrod_body_def b[2] = {{0}, {0}};
  b[0].mass = 2.0;
  cosrod_vec3_set(b[0].inertia, 0.1, 0.2, 0.25);
  b[0].omega[2] = 3.0;
  b[1].mass = 0.5;
  cosrod_vec3_set(b[1].inertia, 0.02, 0.03, 0.04);
  cosrod_vec3_set(b[1].position, 0.5, 0.0, 0.0);
  cosrod_vec3_set(b[1].velocity, 0.2, 1.5, 0.0);
  b[1].omega[2] = 3.0;
  cosrod_quat_identity(b[0].quaternion);
  cosrod_quat_identity(b[1].quaternion);
  cosrod_joint_def j[2] = {{0}, {0}};
  j[0].type = COSROD_JOINT_REVOLUTE, j[0].body[0] = 0, j[0].body[1] = -1;
  cosrod_vec3_set(j[0].axis, 0, 0, 1);
  j[1].type = COSROD_JOINT_PRISMATIC, j[1].body[0] = 1, j[1].body[1] = 0;
  cosrod_vec3_set(j[1].at[1], 0.5, 0, 0);
  cosrod_vec3_set(j[1].axis, 1, 0, 0);
  cosrod_body_load_def l = {0};
  l.body = 0, l.kind = COSROD_BODY_LOAD_FORCE, l.frame = COSROD_BODY_LOAD_BODY,
  l.profile = COSROD_BODY_LOAD_RAMP;
  cosrod_vec3_set(l.value, 0, 1, 0);
  cosrod_vec3_set(l.at, 0.2, 0, 0);
  l.t1 = 1.0;
  cosrod_bushing_def bu = {0};
  bu.body[0] = 1, bu.body[1] = -1, bu.k = 20, bu.c = 0.1;
  cosrod_mbs_def def = {0};
  def.nbodies = 2, def.bodies = b;
  if (with_joints == 2) {
    def.body_form = COSROD_BODY_ABSOLUTE, def.joint_form = COSROD_JOINTS_MULTIPLIERS;
    b[0].param = b[1].param = COSROD_BODY_DIRECTORS;
    bu.k_rot = 2.0, bu.c_rot = 0.05;
    def.nbushings = 1, def.bushings = &bu;
  }
  if (with_joints)
    def.njoints = 2, def.joints = j;
  else
    def.nloads = 1, def.loads = &l, def.nbushings = 1, def.bushings = &bu;
  def.gravity[2] = -9.81;
  cosrod_status st;
  long before = g_allocs;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  cosrod_mbs_data *d = m ? cosrod_mbs_data_create(m, NULL) : NULL;
  CHECK("create", m && d);
  CHECK("creation allocates (the counter works)", g_allocs > before);
  if (!d) return;
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  if (!strcmp(method, "galpha")) cosrod_mbs_lie_problem(&p, d); /* increments, tangent Jacobians */
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-8;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &st);
  CHECK("integrator", it != NULL);
  int n = cosrod_mbs_n(m);
  double *y = calloc((size_t)n, sizeof *y), tt[50];
  for (int i = 0; i < 50; ++i) tt[i] = 0.06 * (i + 1);
  ctx c = {m, d, {0}, 0.0};
  cosrod_output_spec out = {.t_out = tt, .n_out = 50, .output = on_out, .user = &c, .every_step = 1};
  cosrod_mbs_initial_state(m, y);
  CHECK("init", cosrod_integrator_init(it, 0.0, y, NULL) == COSROD_OK);
  before = g_allocs;
  st = cosrod_integrator_evolve(it, 3.0, &out);
  long during = g_allocs - before;
  NOTE("%s, %s: status %s, %ld allocations during the run, %ld repartitions",
       with_joints == 2 ? "joints, absolute directors"
       : with_joints    ? "joints"
                        : "free",
       method, cosrod_status_name(st), during, cosrod_mbs_data_repartitions(d));
  CHECK("run ok", st == COSROD_OK);
  CHECK("no allocation in the time loop", during == 0);
  free(y);
  cosrod_integrator_free(it);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
}

TEST(bodies_time_loop_does_not_allocate) {
  check(1, "dopri5");
  check(1, "radau5");
  check(2, "radau5");
  check(0, "radau5");
  check(0, "rodas");
}

/* generalized-α: increments (T w + ½ Ṫ w with the joints), tangent
 * Jacobians, the restart after a re-partition */
TEST(bodies_galpha_time_loop_does_not_allocate) {
  check(1, "galpha");
  check(2, "galpha");
  check(0, "galpha");
}

static const th_case cases[] = {TH_CASE(bodies_time_loop_does_not_allocate),
                                TH_CASE(bodies_galpha_time_loop_does_not_allocate)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
