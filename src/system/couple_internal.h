// SPDX-License-Identifier: Apache-2.0
/* The coupling state of rods attached to rigid bodies (module system, private):
 * shared by couple.c (model, layout, right-hand side) and
 * couple_jac.c (analytic Jacobian). */
#ifndef COSROD_SYSTEM_COUPLE_INTERNAL_H
#define COSROD_SYSTEM_COUPLE_INTERNAL_H

#include <stddef.h>

#include "cosrod/body.h"
#include "system/couple.h"

typedef struct sim_attach {
  struct sim_couple *cp;
  size_t rod;
  int end;
  int body;       /* scenario body index */
  double at[3];   /* attachment point, body frame [m] */
  double qrel[4]; /* end frame in the body frame */
  double me;      /* mass of the end vertex [kg] (in a dynamic body's mass, couple.c) */
  double acc[3];  /* Kirchhoff rods: the end's acceleration given to the rod (couple_kirchhoff.c) [m/s^2] */
} sim_attach;

struct sim_couple {
  cosrod_mbs *m; /* dynamic bodies (NULL if all are kinematic) */
  cosrod_mbs_data *d;
  int nm;             /* multibody state size */
  int *mmap;          /* (nm) position in y of each multibody state entry */
  int nblk;           /* placement units: each dynamic body (one unit for all with null-space joints) */
  int *blk_r, *blk_e; /* (nblk) anchor: rod and end (-1: none, placed last) */
  int *blk_placed;    /* (nblk) */
  int *ent;           /* (nm) entries of the units, unit u at ent[ent0[u] .. ent0[u + 1]) */
  int *ent0;          /* (nblk + 1) */
  int *bmap;          /* (nb) scenario body -> model index or -1 (kinematic) */
  size_t nb, na;
  sim_attach *att;
  double **kpos, **krot;     /* (nb) kinematic bodies: keyframe rows (t, x, y, z) / (t, q) or NULL */
  double *bx, *bq, *bv, *bw; /* (nb x 3/4/3/3) body poses at the last prepare: x, q, v, w (spatial) */
  double *F;                 /* (nb x 6) wrench on the dynamic bodies (force, torque about x_b) */
  double *ym, *fm;           /* (nm) */
  double *jw;                /* (3 ny) finite-difference Jacobian: perturbed y, f(y), f(y + d) */
  double Pc;                 /* power of the wrenches on the dynamic bodies [W] */
  double kin_end;            /* kinetic energy of the attached end vertices [J] */
  double *shift;             /* (nb x 3) centre of a dynamic body with its end vertices from its own, body frame */
  int lumped;                /* dynamic run: the end vertices' masses are in the bodies (couple.c) */
  double grav_end, pgrav_end; /* gravity energy of the end vertices on dynamic bodies [J] and its rate [W] */
  int lie_nb, lie_q0,
      lie_w0; /* galpha: bodies, offsets of their q in y and of their ν in w (sim_couple_lie_place) */
  double Tb, Gb, Eb, Wb, Db; /* body kinetic, gravity, bushing energies, load power, bushing dissipation */
  double t;                  /* time of the last prepare */
  struct sim_cjac *cj;       /* analytic Jacobian workspace (couple_jac.c) or NULL */
  struct sim_cjac_sp *cjs;   /* its sparse (KLU) values (couple_jac_sp.c) or NULL */
  int stat, stat_off;        /* static analyses: dynamic bodies' poses (x, q) at rest from sxq, in y at stat_off */
  const double *sxq;         /* (ndyn x 7) model order (sim_couple_static.c) */
};

#endif
