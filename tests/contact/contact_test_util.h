// SPDX-License-Identifier: Apache-2.0
/* Shared helpers of the contact tests: straight rods, a contact model around
 * them and sums of forces. */
#ifndef CONTACT_TEST_UTIL_H
#define CONTACT_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"

typedef struct test_rod {
  int nv;
  double *x, *v, *f, *sref;
} test_rod;

/* nv vertices from a along direction dir (unit), spacing ds. */
static inline void test_rod_line(test_rod *r, int nv, const double a[3], const double dir[3], double ds) {
  r->nv = nv;
  r->x = calloc(3 * (size_t)nv, sizeof(double));
  r->v = calloc(3 * (size_t)nv, sizeof(double));
  r->f = calloc(3 * (size_t)nv, sizeof(double));
  r->sref = calloc((size_t)nv, sizeof(double));
  for (int i = 0; i < nv; ++i) {
    r->sref[i] = i * ds;
    for (int k = 0; k < 3; ++k) r->x[3 * i + k] = a[k] + i * ds * dir[k];
  }
}

static inline void test_rod_free(test_rod *r) {
  free(r->x);
  free(r->v);
  free(r->f);
  free(r->sref);
}

static inline void test_rod_sum(const test_rod *r, double F[3]) {
  F[0] = F[1] = F[2] = 0.0;
  for (int i = 0; i < r->nv; ++i)
    for (int k = 0; k < 3; ++k) F[k] += r->f[3 * i + k];
}

static inline void test_rod_zero_f(test_rod *r) { memset(r->f, 0, 3 * (size_t)r->nv * sizeof(double)); }

/* A contact-rod description of r with radius, EI, rhoA. */
static inline cosrod_contact_rod test_contact_rod(const test_rod *r, double radius, double EI, double rhoA) {
  cosrod_contact_rod c = {.nv = r->nv, .radius = radius, .sref = r->sref, .EI = EI, .rhoA = rhoA};
  return c;
}

#endif /* CONTACT_TEST_UTIL_H */
