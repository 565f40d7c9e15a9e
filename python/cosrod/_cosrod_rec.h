// SPDX-License-Identifier: Apache-2.0
/* The recording of a Python run (module-internal to the extension _cosrod):
 * frames of the rods, bodies, joints and reactions in growing buffers, and
 * their hand-over to Python as bytearrays of doubles. */
#ifndef COSROD_PY_REC_H
#define COSROD_PY_REC_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cosrod/contact.h"
#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"

typedef struct rec {
  size_t nrods;
  size_t *N; /* (nrods) segments */
  size_t nframes, cap;
  double *t;      /* (cap) */
  double *energy; /* (cap x 6) kinetic, elastic, gravity, external_work, dissipated, balance */
  double **rod;   /* (nrods) (cap x rod_block) */
  size_t nsteps, scap;
  double *steps; /* (scap x 3) t, h, accepted */
  size_t ninc, icap;
  double *inc; /* (icap x 3) t, iterations, residual */
  size_t nbodies, njoints;
  double *body;  /* (cap x nbodies x BODY_COLS) x, q, Omega, v, kinetic, potential (bodies.csv) */
  double *joint; /* (cap x njoints x 6) F, M (joints.csv) */
  double *reac;  /* (cap x nrods x 12) start F, M | end F, M (reactions.csv); NaN: end not supported */
  int contact;   /* the scenario has contact: */
  size_t nobs;   /* obstacles (and body shapes) */
  double *obs;   /* (cap x nobs x 6) F, M on each obstacle (obstacles.csv) */
  size_t ncpt, ccap;
  double *cpt;   /* (ccap x CPT_COLS) active contact points of every frame (contacts.csv) */
  int nomem;
} rec;

enum { BODY_COLS = 15 };
/* t, rod, segment, other_kind (0 obstacle, 1 rod), other, other_segment,
 * px, py, pz, nx, ny, nz, gap, Fn, Ftx, Fty, Ftz, slip */
enum { CPT_COLS = 18 };

/* Doubles per rod and frame: x (N+1)x3 | p Nx4 | Gamma Nx3 | F Nx3 | K (N+1)x3 | M (N+1)x3. */
size_t cosrod_py_rod_block(size_t N);
void cosrod_py_rec_free(rec *r);
int cosrod_py_grow(double **p, size_t *cap, size_t need, size_t width);
int cosrod_py_rec_frame_grow(rec *r);
void cosrod_py_copy_rod_frame(double *b, const cosrod_rod_data *d, size_t N);
void cosrod_py_record_bodies(rec *r, const cosrod_sim *sim, const cosrod_recorder *files, size_t f);
PyObject *cosrod_py_bytes(const double *p, size_t n);
int cosrod_py_mode_info(PyObject *modes, const cosrod_sim *sim, const double *load);
int cosrod_py_add_bodies(PyObject *out, const rec *r, const cosrod_scenario *sc);
PyObject *cosrod_py_modes(const cosrod_sim *sim, size_t N0);

#endif
