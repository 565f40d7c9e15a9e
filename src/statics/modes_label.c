// SPDX-License-Identifier: Apache-2.0
/* Mode types and degenerate groups for the modal analysis.
 *
 * Type of a mode φ (minimal coordinates: δx per vertex, material δθ per
 * segment): its kinetic energy ½ φᵀ M φ split over the material directions
 * of the rod, translations δx in the frame of an adjacent segment
 * (d1, d2, d3) with the vertex mass, rotations with the segment inertias:
 *   bending-1 (in the d1–d3 plane): δx·d1 and δθ2,
 *   bending-2 (in the d2–d3 plane): δx·d2 and δθ1,
 *   torsion: δθ3,   axial: δx·d3.
 * The type is the largest share (for a straight rod the modes separate
 * exactly; for curved or prestressed rods it names the dominant part).
 * Groups: modes whose ω agree to 1e-6 relative (a round section's bending
 * pairs, degenerate up to roundoff) share a group number. */
#include <math.h>
#include <string.h>

#include "statics/statics_internal.h"

const char *cosrod_mode_kind_name(cosrod_mode_kind k) {
  switch (k) {
    case COSROD_MODE_BENDING_1:
      return "bending-1";
    case COSROD_MODE_BENDING_2:
      return "bending-2";
    case COSROD_MODE_TORSION:
      return "torsion";
    case COSROD_MODE_AXIAL:
      return "axial";
  }
  return "?";
}

cosrod_status cosrod_statics_mode_kinds(const struct cosrod_rod *rod, const double *q, int count,
                                        const double *minimal, int *kind, double *share) {
  if (!rod || !q || !minimal || count < 0 || !kind) return COSROD_ERR_INVALID;
  cosrod_rod_view view;
  cosrod_rod_view_get(rod, &view);
  const cosrod_rod_view *rv = &view;
  const int N = rv->N, nv = rv->nv_ns;
  for (int c = 0; c < count; ++c) {
    const double *phi = minimal + (size_t)c * (size_t)nv;
    double e[4] = {0.0, 0.0, 0.0, 0.0};
    for (int n = 0; n <= N; ++n) {
      int nd = rv->nd[n];
      if (!nd) continue;
      double dx[3];
      if (nd == 3)
        cosrod_vec3_copy(dx, phi + rv->vv_ns[n]);
      else
        cosrod_vec3_scale(dx, phi[rv->vv_ns[n]], rv->end[n == 0 ? 0 : 1].axis);
      const double *p = q + rv->qs[n < N ? n : N - 1];
      double a[3];
      cosrod_quat_rotate_inv(a, p, dx); /* material components */
      e[COSROD_MODE_BENDING_1] += rv->mv[n] * a[0] * a[0];
      e[COSROD_MODE_BENDING_2] += rv->mv[n] * a[1] * a[1];
      e[COSROD_MODE_AXIAL] += rv->mv[n] * a[2] * a[2];
    }
    for (int k = 0; k < N; ++k) {
      const double *th = phi + rv->vs_ns[k], *I = rv->Ib + 3 * k;
      e[COSROD_MODE_BENDING_2] += I[0] * th[0] * th[0];
      e[COSROD_MODE_BENDING_1] += I[1] * th[1] * th[1];
      e[COSROD_MODE_TORSION] += I[2] * th[2] * th[2];
    }
    double tot = e[0] + e[1] + e[2] + e[3];
    int best = 0;
    for (int j = 1; j < 4; ++j)
      if (e[j] > e[best]) best = j;
    kind[c] = best;
    if (share)
      for (int j = 0; j < 4; ++j) share[4 * c + j] = tot > 0.0 ? e[j] / tot : 0.0;
  }
  return COSROD_OK;
}

int cosrod_statics_mode_groups(int count, const double *omega, double rel, int *group) {
  if (count <= 0 || !omega || !group) return 0;
  int g = 0;
  group[0] = 0;
  for (int c = 1; c < count; ++c) {
    double a = fabs(omega[c]), b = fabs(omega[c - 1]);
    if (!(fabs(omega[c] - omega[c - 1]) <= rel * fmax(a, b))) ++g;
    group[c] = g;
  }
  return g + 1;
}
