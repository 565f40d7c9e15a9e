/* Private state of the simulation driver (module sim), shared by sim.c
 * (scenario -> rods, layouts, integrator problem, creation) and sim_run.c
 * (runs, energy accounting, static analyses, queries). */
#ifndef COSROD_SIM_INTERNAL_H
#define COSROD_SIM_INTERNAL_H

#include "cosrod/sim.h"
#include "cosrod/statics.h"

struct cosrod_sim {
  const cosrod_scenario *sc;
  size_t nrods;
  cosrod_rod **rods;
  cosrod_rod_data **data;
  int analysis;          /* COSROD_SC_ANALYSIS_* */
  cosrod_rod **srods;    /* (nrods) start_from_equilibrium: the rods with their preloads */
  cosrod_statics **stat; /* (nrods) statics solvers (static / modes: of rods; equilibrium: of srods) */
  cosrod_integrate_stats sstats; /* static / modes: the statics counters in integrator terms */
  cosrod_statics *land;          /* static: solver landing on output times between increments */
  double *qprev, *qland;         /* static: (nq) last converged state, landing state */
  double tprev;                  /* static: pseudo-time of qprev */
  size_t iout;                   /* static: next output time (index into tout) */
  double out_tol;                /* |t - tout| below which t is that output time */
  cosrod_statics_stats lstats;   /* static: landing work */
  cosrod_status land_failed;     /* static: status of a failed landing (OK if none) */
  int nmodes;
  double *omega, *freq, *shapes; /* modes: (nmodes), (nmodes), (nmodes x (N+1) x 6) */
  cosrod_rod_form form;          /* form of the rod state vectors */
  int split;                     /* SPLIT layout (M1 reduction) */
  int dae_mass;                  /* DAE as M y' = f with algebraic λ equations */
  int dae_res;                   /* DAE via the residual (ida) */
  int baumgarte;
  int ny;
  int *ny_r;   /* (nrods) rod state sizes */
  int *off_r;  /* (nrods) offsets into map */
  int *qoff_r; /* (nrods) SPLIT: offset of the rod's q in the q part; NODE: of the rod's block */
  int nq_tot;  /* SPLIT: size of the q part */
  int *map;    /* (ny) */
  int *perm;   /* (ny) NODE: per rod its local banded ordering (map - block offset) */
  double *yl;  /* (max ny_r) gathered rod state */
  double *ypl; /* (max ny_r) gathered derivative */
  double *fl;  /* (max ny_r) rod result */
  double *y;   /* (ny) current state (frame / final) */
  double *y0;  /* (ny) initial state */
  double *yd;  /* (ny) dense-output scratch */
  double *dae_id;
  double *tout;
  size_t nout;
  int ml, mu, ml_q, mu_q;
  cosrod_ode_problem prob;
  cosrod_integrate_options opts;
  const cosrod_step_type *type;
  cosrod_integrator *integ;
  const cosrod_sim_observer *obs;
  /* energy accounting */
  double acc_t, acc_W, acc_D; /* integrals of external power and dissipation over [0, acc_t] */
  double rW_prev, rD_prev;    /* rates at acc_t */
  int need_rates;             /* 0: no damping, loads or moving ends: both rates vanish identically;
                                 -1: they do not, but the accounting is off (cosrod_sim_set_energy_accounting) */
  cosrod_sim_energy energy;
  double t_now, h_last, t_fail;
  double t_frame; /* time of the last frame (-inf before the first) */
  int ran;
  int frame_rc; /* static runs: what the last frame callback returned */
  int stepping; /* cosrod_sim_advance: the integrator is initialised at (t_now, y) */
  char msg[512];
};

/* Gather rod r's components of the global y into yl (ny_r) and back. */
static inline void sim_gather(const cosrod_sim *s, size_t r, const double *y, double *yl) {
  const int *m = s->map + s->off_r[r];
  for (int i = 0; i < s->ny_r[r]; i++) yl[i] = y[m[i]];
}

static inline void sim_scatter(const cosrod_sim *s, size_t r, const double *yl, double *y) {
  const int *m = s->map + s->off_r[r];
  for (int i = 0; i < s->ny_r[r]; i++) y[m[i]] = yl[i];
}

/* sim_run.c: evaluate every rod at (t, y) (ny); summed external power and
 * dissipation rate in *rW, *rD (may be NULL). */
cosrod_status sim_eval_all(cosrod_sim *s, double t, const double *y, double *rW, double *rD);
/* sim_run.c: energy terms from the rods' last evaluation plus the integrals W, D. */
void sim_energy_from_data(cosrod_sim *s, double W, double D);

/* sim_run.c: step-history callback of dynamic runs (energy accounting,
 * observer, stop flag); start_from_equilibrium's initial state into y0. */
int sim_step_cb(double t, double h, int accepted, void *user);
cosrod_status equilibrium_start(cosrod_sim *s);

#endif /* COSROD_SIM_INTERNAL_H */
