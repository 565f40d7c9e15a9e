// SPDX-License-Identifier: Apache-2.0
/* The partition driver of the SPIKE solvers (spike_core.c), shared by the
 * real (band_spike.c) and complex (zband_spike.c) ones: block sizes, storage,
 * thread dispatch, spikes, reduced system, recovery and fallback.  The
 * element type enters only through spike_ops (not installed). */
#ifndef COSROD_SPIKE_CORE_H
#define COSROD_SPIKE_CORE_H

#include <stddef.h>

#include "cosrod/band.h"

typedef struct spike_part {
  int off, n;   /* first row and rows of the block */
  int kind;     /* 0 first (LU), 1 inner (LU, full spikes), 2 last (flipped LU) */
  void *F;      /* factors of A_i (kind 0, 1) or of J A_i J (kind 2) */
  void *V, *W;  /* kind 1: n x ku and n x kl spikes, column-major */
  void *corner; /* kind 0: V^B (kl x ku); kind 2: W^T (ku x kl), column-major */
  void *y, *g;  /* (n) forward-swept b (kinds 0, 2) and g */
  cosrod_status st;
  double growth;
} spike_part;

/* A band matrix's storage (cosrod_band or cosrod_zband, dgbtrf layout):
 * entry (i, j) is element j*ld + smu + i - j of data. */
typedef struct spike_band {
  char *data;
  int n, ml, mu, smu, ld;
} spike_band;

/* The element kernels.  Vectors are arrays of es-byte elements; F, R and A
 * are band matrices of the element type (cosrod_band or cosrod_zband). */
typedef struct spike_ops {
  size_t es;       /* bytes per element, a multiple of sizeof(double) */
  const void *one; /* the element 1 */
  void *(*create)(int n, int ml, int mu);
  void (*destroy)(void *F);
  cosrod_status (*factor)(void *F);
  cosrod_status (*factor_own)(void *R); /* with the own backend */
  cosrod_status (*solve)(const void *F, void *b);
  void (*zero)(void *R);
  spike_band (*view)(const void *F);
  void (*reset)(void *F, const void *A);             /* F unfactored, to be factored by A's backend */
  void (*sweep_fwd)(const void *F, void *b, int j0); /* b <- L^{-1} P b, columns >= j0 */
  void (*sweep_bwd)(const void *F, void *b, int r1); /* b <- U^{-1} b, rows n-1 .. r1 */
  double (*max_abs)(const void *x, size_t m);        /* NaN propagates */
  void (*axpy_sub)(int m, const void *t, const void *x, void *y); /* y -= t x */
  void (*sub)(int m, const void *d, void *y);                     /* y -= d */
  void (*madd)(void *d, const void *a, const void *x);            /* d += a x */
} spike_ops;

typedef struct spike_core {
  const spike_ops *ops;
  int n, kl, ku, p, nthreads;
  spike_part *part;
  void *R; /* reduced system */
  void *z; /* (R->n) */
  void *A; /* matrix of the last factor() */
  int factored, fallback;
  double growth;
} spike_core;

/* C (zero-filled) <- the layout and storage for n >= 1, ml, mu >= 0 and at
 * most `partitions` blocks; COSROD_OK or COSROD_ERR_NOMEM (then C's storage
 * is released). */
cosrod_status spike_core_init(spike_core *C, const spike_ops *ops, int n, int ml, int mu, int partitions);
/* Frees C's storage (not C itself). */
void spike_core_release(spike_core *C);
/* Rows of block i (first row in *first_row); 0 for no such block. */
int spike_core_block(const spike_core *C, int i, int *first_row);
/* Factors A (checked by the caller: unfactored, of C's order and
 * bandwidths) by SPIKE, or globally on the fallback; A is kept for solve. */
cosrod_status spike_core_factor(spike_core *C, void *A);
/* b <- A^{-1} b after a successful spike_core_factor. */
cosrod_status spike_core_solve(spike_core *C, void *b);

#endif /* COSROD_SPIKE_CORE_H */
