// SPDX-License-Identifier: Apache-2.0
/* solver.integrator: auto (sim_auto.c): the method and its settings chosen
 * from the problem at creation, and the switch to the next candidate when
 * the method struggles during a run. */
#ifndef COSROD_SIM_AUTO_H
#define COSROD_SIM_AUTO_H

#include "cosrod/integrate.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"

struct cosrod_sim;
typedef struct sim_auto sim_auto;

/* What the rules look at (sim_auto_features fills it from a scenario). */
typedef struct sim_auto_features {
  int dynamic; /* analysis.type: dynamic */
  size_t nrods, nbodies;
  int kirchhoff;  /* some rod is inextensible Kirchhoff (constraints) */
  int dae;        /* solver.formulation: dae */
  int contact;    /* contact: enabled */
  double h_user;  /* solver.h > 0: the user's fixed step */
  double rho_user; /* solver.rho_inf when given (galpha keeps it), else < 0 */
  double lam_max; /* largest |eigenvalue| of df/dy at t = 0 [1/s] (power iteration) */
  double tau;     /* largest extensional retardation time of the rods [s] (0: undamped) */
  double t_end, every, rtol, atol;
} sim_auto_features;

#define SIM_AUTO_MAXCAND 4
/* The choice: candidates in order (the first runs; a struggle switches to
 * the next), each with its settings, and the reason of the first. */
typedef struct sim_auto_choice {
  int n;
  cosrod_sc_integrator method[SIM_AUTO_MAXCAND];
  double rtol[SIM_AUTO_MAXCAND], atol[SIM_AUTO_MAXCAND];
  double h, rho_inf; /* galpha: fixed step (0: adaptive) and rho_inf */
  int statics;       /* static / modal / buckling analysis: no time integrator */
  char reason[320];
} sim_auto_choice;

/* The rules (no model is built: a pure function of the features). */
void sim_auto_rules(const sim_auto_features *f, sim_auto_choice *c);
/* The features of sc; lam_max by a few power iterations on finite
 * differences of the right-hand side of a probe model (dopri5's layout) at
 * t = 0; NaN if the probe cannot be built (then the run's own creation
 * reports why).  COSROD_OK. */
cosrod_status sim_auto_features_of(const cosrod_scenario *sc, sim_auto_features *f, char *err, size_t errlen);

#define SIM_AUTO_MAXSWITCH SIM_AUTO_MAXCAND
struct sim_auto {
  const cosrod_scenario *user; /* the user's scenario */
  cosrod_scenario sc;          /* shallow copy with the solver resolved */
  sim_auto_features f;
  sim_auto_choice c;
  int cur;     /* candidate in use */
  int nswitch; /* switches so far and their one-line reports */
  char sw[SIM_AUTO_MAXSWITCH][400];
  char chosen[32]; /* the method in use ("statics" for static analyses) */
  /* the user's load callbacks per rod (cosrod_sim_set_load_fn), re-applied
   * to the rods a switch re-creates; NULL until the first one is set */
  cosrod_rod_load_fn *load_fn;
  void **load_user;
  size_t nload;
};
/* Remember rod r's load callback for a switch (0, or COSROD_ERR_NOMEM). */
cosrod_status sim_auto_note_load(sim_auto *a, size_t nrods, size_t r, cosrod_rod_load_fn fn, void *user);
/* The copy's solver for candidate i (method, tolerances; galpha: step,
 * rho_inf and the null-space form; a fallback of a null-space run keeps it). */
void sim_auto_apply(sim_auto *a, int i);

/* The auto state of a sim: the user's scenario, the copy the sim runs (the
 * solver's fields filled in by the choice), the choice and the switches. */
sim_auto *sim_auto_create(const cosrod_scenario *sc, cosrod_status *st, char *err, size_t errlen);
void sim_auto_free(sim_auto *a);
const cosrod_scenario *sim_auto_scenario(const sim_auto *a);
const cosrod_scenario *sim_auto_user(const sim_auto *a);
const sim_auto_choice *sim_auto_get_choice(const sim_auto *a);

/* After a dynamic run's pieces ended with st: when the method struggled
 * (max_steps, step size too small, Newton or non-finite failures) and a
 * candidate is left, re-create the sim in place with it, continue from the
 * last accepted state to T with the same output spec and return the new
 * status (repeated while candidates are left); st otherwise. */
cosrod_status sim_auto_recover(struct cosrod_sim *s, cosrod_status st, double T, cosrod_output_spec *spec);

#endif /* COSROD_SIM_AUTO_H */
