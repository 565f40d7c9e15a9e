// SPDX-License-Identifier: Apache-2.0
/* Expected CSV volume of one output time (for `cosrod check`'s estimate):
 * bytes per row of each file as measured on the examples with the number
 * format of out_fmt (about 18 characters per value, 7 for short ones), per
 * segment / vertex / rod, from the scenario's output.fields.  steps.csv is
 * not counted (one row per step, unknown before the run). */
#ifndef COSROD_OUTPUT_ESTIMATE_H
#define COSROD_OUTPUT_ESTIMATE_H
#include "cosrod/scenario.h"

static inline double out_estimate_frame_bytes(const cosrod_scenario *sc, double nseg) {
  const unsigned f = sc->output.fields;
  const double nrods = (double)sc->nrods, nvtx = nseg + nrods;
  double b = 0.0;
  if (f & COSROD_SC_FIELD_CENTERLINE) b += 80.0 * nvtx;  /* t,rod,vertex,s,x,y,z */
  if (f & COSROD_SC_FIELD_FRAMES) b += 102.0 * nseg;     /* t,rod,segment,s,q0..q3 */
  if (f & COSROD_SC_FIELD_STRAINS) b += 156.0 * nseg;    /* t,rod,segment,s,Gamma1..3,F1..3 */
  if (f & COSROD_SC_FIELD_CURVATURES) b += 138.0 * nvtx; /* t,rod,vertex,s,K1..3,M1..3 */
  if (f & COSROD_SC_FIELD_TIP) b += 2.0 * 127.0 * nrods; /* both ends of each rod */
  if (f & COSROD_SC_FIELD_ENERGY) b += 110.0;            /* one row */
  if (f & COSROD_SC_FIELD_REACTIONS) b += 140.0 * nrods; /* one supported end per rod assumed */
  return b;
}

/* VTK output of CSV runs per frame, measured on perf-steel (10 segments,
 * 13.2 kB per .vtp) and the pulsed cantilever (40 segments, 42.5 kB): per
 * segment (point and cell arrays in ASCII) and per rod (header, field data,
 * the rod's constant arrays), plus its cosrod.pvd entry. */
static inline double out_estimate_frame_bytes_vtk(const cosrod_scenario *sc, double nseg) {
  if (!sc->output.vtk || sc->nrods == 0) return 0.0;
  return 975.0 * nseg + 3500.0 * (double)sc->nrods + 90.0;
}

/* HDF5 (output.format: hdf5): run.h5 stores 8 bytes per value of the same
 * rows (columns as in the CSV), vtk/cosrod.vtkhdf per step the points
 * (x, s, K, M, radius: 11 values per vertex), the cells (s, Gamma, F, q: 11
 * per segment, connectivity 2, offset 1, type 1 byte) and 9 + 8 offsets.
 * Each dataset's last chunk is allocated whole: half a chunk on average,
 * plus about 1 kB of metadata per dataset.  vtk/cosrod.xdmf2 (the VTKHDF
 * file's XDMF 2 index, output_xdmf.c) holds per step a grid of about 750
 * characters (time, topology, geometry) and 350 per array (10 arrays). */
#define OUT_H5_CHUNK_BYTES 16384u
#define OUT_XDMF_STEP_BYTES 4250.0
static inline double out_estimate_frame_bytes_hdf5(const cosrod_scenario *sc, double nseg) {
  const unsigned f = sc->output.fields;
  const double nrods = (double)sc->nrods, nvtx = nseg + nrods;
  double v = 0.0;
  if (f & COSROD_SC_FIELD_CENTERLINE) v += 7.0 * nvtx;
  if (f & COSROD_SC_FIELD_FRAMES) v += 8.0 * nseg;
  if (f & COSROD_SC_FIELD_STRAINS) v += 10.0 * nseg;
  if (f & COSROD_SC_FIELD_CURVATURES) v += 10.0 * nvtx;
  if (f & COSROD_SC_FIELD_TIP) v += 2.0 * 10.0 * nrods;
  if (f & COSROD_SC_FIELD_ENERGY) v += 7.0;
  if (f & COSROD_SC_FIELD_REACTIONS) v += 9.0 * nrods; /* one supported end per rod assumed */
  v += 17.0 * (double)sc->nbodies;                      /* bodies table */
  double b = 8.0 * v;
  if (sc->output.vtk && sc->nrods > 0)
    b += 8.0 * (11.0 * nvtx + 14.0 * nseg + 1.0 + 17.0) + nseg + OUT_XDMF_STEP_BYTES;
  return b;
}
static inline double out_estimate_fixed_bytes_hdf5(const cosrod_scenario *sc) {
  double ntab = 0.0;
  for (unsigned k = 0; k < 8; k++) ntab += (sc->output.fields >> k) & 1u;
  ntab += sc->nbodies > 0 ? 1.0 : 0.0;
  if (sc->output.vtk && sc->nrods > 0) ntab += 31.0;
  return ntab * (0.5 * OUT_H5_CHUNK_BYTES + 1024.0) + 4096.0;
}
#endif
