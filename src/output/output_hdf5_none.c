// SPDX-License-Identifier: Apache-2.0
/* Built without HDF5 (CMake found no libhdf5-dev, or COSROD_WITH_HDF5=OFF):
 * format hdf5 is refused at create (the scenario loader refuses the key
 * first); out->h5 stays NULL, so the other hooks are never reached. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "output_internal.h"

int cosrod_output_hdf5_available(void) { return 0; }

cosrod_status out_h5_open(cosrod_output *out, const cosrod_output_config *cfg, char *err, size_t cap) {
  (void)out;
  (void)cfg;
  snprintf(err, cap, "output.format: hdf5 needs cosrod built with HDF5 (Debian libhdf5-dev)");
  return COSROD_ERR_UNSUPPORTED;
}
void out_h5_free(cosrod_output *out) { (void)out; }
void out_h5_position(const cosrod_output *out, out_h5_pos *p) { (void)out, memset(p, 0, sizeof *p); }
cosrod_status out_h5_resume(cosrod_output *out, const out_h5_pos *p, char *msg, size_t len) {
  (void)p, snprintf(msg, len, "output: HDF5 output is not available in this build");
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
void out_h5_commit(cosrod_output *out) { (void)out; }
void out_h5_rollback(cosrod_output *out) { (void)out; }
cosrod_status out_h5_flush(cosrod_output *out) { return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID; }
cosrod_status out_h5_close(cosrod_output *out) { return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID; }
cosrod_status out_h5_attach_summary(cosrod_output *out, const char *json_path) {
  (void)json_path;
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
cosrod_status out_vtkhdf_frame_end(cosrod_output *out) { return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID; }
cosrod_status out_h5_rod(cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr) {
  (void)rod;
  (void)fr;
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
cosrod_status out_h5_body(cosrod_output *out, size_t body, const double x[3], const double q[4], const double Om[3],
                          const double v[3], double kinetic, double potential) {
  (void)body, (void)x, (void)q, (void)Om, (void)v, (void)kinetic, (void)potential;
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
cosrod_status out_h5_energy(cosrod_output *out, const double v[6]) {
  (void)v;
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
cosrod_status out_h5_reaction(cosrod_output *out, size_t rod, int end, const double F[3], const double M[3]) {
  (void)rod, (void)end, (void)F, (void)M;
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
cosrod_status out_h5_committed_row(cosrod_output *out, int tab, const double *v, size_t n) {
  (void)tab, (void)v, (void)n;
  return out ? COSROD_ERR_UNSUPPORTED : COSROD_ERR_INVALID;
}
int cosrod_output_add_table(cosrod_output *out, const char *name, const char *columns, const char *units) {
  (void)out, (void)name, (void)columns, (void)units;
  return -1;
}
cosrod_status cosrod_output_table_row(cosrod_output *out, int table, const double *row) {
  (void)out, (void)table, (void)row;
  return COSROD_ERR_INVALID;
}
