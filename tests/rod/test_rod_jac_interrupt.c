// SPDX-License-Identifier: Apache-2.0
/* Interrupt polling in the rod Jacobian assembly (rod_jac.c): at N = 10000
 * segments an installed, set flag stops cosrod_rod_stiffness (and the
 * null-space Jacobian) with ERR_INTERRUPTED at the first poll (node 2047);
 * installed but clear, the matrix is bit-identical to the one assembled
 * without a flag (the poll must not change the result). */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/rod.h"
#include "cosrod/status.h"
#include "harness.h"

static volatile sig_atomic_t g_flag;

TEST(stiffness_assembly_interrupted) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 10000;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  CHECK("rod created", rod != NULL);
  if (!rod) return;
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  const int nq = cosrod_rod_nq(rod);
  int ml, mu;
  cosrod_status st =
      cosrod_rod_jac_pattern_bandwidth(rod, d, COSROD_FORM_ABSOLUTE, 1, 0, 0, nq, nq, &ml, &mu);
  CHECK("bandwidths", st == COSROD_OK);
  double *y = malloc((size_t)cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE) * sizeof *y);
  cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, y);
  cosrod_band *K0 = cosrod_band_create(nq, ml, mu, NULL), *K = cosrod_band_create(nq, ml, mu, NULL);
  CHECK("reference assembly (no flag)", cosrod_rod_stiffness(rod, d, 0.0, y, K0) == COSROD_OK);

  const volatile sig_atomic_t *prev = cosrod_interrupt_install(&g_flag);
  g_flag = 1;
  st = cosrod_rod_stiffness(rod, d, 0.0, y, K);
  CHECK("flag set -> ERR_INTERRUPTED", st == COSROD_ERR_INTERRUPTED);
  /* the nodes after the first poll are not written: the last vertex rows are zero */
  double last = 0.0;
  for (int j = nq - 20; j < nq; ++j) last = fmax(last, fabs(cosrod_band_col(K, j)[0]));
  CHECK_LE("assembly stopped before the end of the rod (last diagonal entries 0)", last, 0.0);
  g_flag = 0;
  CHECK("flag clear -> OK", cosrod_rod_stiffness(rod, d, 0.0, y, K) == COSROD_OK);
  CHECK_LE("same matrix as without a flag (memcmp of K and K0)",
           fabs((double)memcmp(K->data, K0->data, sizeof(double) * (size_t)K->ld * (size_t)nq)), 0.0);
  cosrod_interrupt_install(prev);
  free(y);
  cosrod_band_free(K), cosrod_band_free(K0);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {
    TH_CASE(stiffness_assembly_interrupted),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
