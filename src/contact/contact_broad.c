// SPDX-License-Identifier: Apache-2.0
/* Broad phase for rod-rod and self-contact: a uniform grid stored as a spatial
 * hash (Teschner et al., "Optimized spatial hashing for collision detection
 * of deformable objects", VMV 2003; Ericson, Real-Time Collision Detection
 * §7.1), rebuilt at every evaluation by a counting sort.
 *
 * Each segment is filed under the cell of its midpoint.  The cell size
 * h = max segment length + 2 r_max + margin bounds the distance of the
 * midpoints of any two segments that can touch (|m_i - m_j| <= l_i/2 + l_j/2 +
 * r_i + r_j), so all partners of a segment lie in the 27 cells around its own.
 * Entries carry their cell coordinates, so hash collisions never produce
 * false or duplicate pairs; each pair (i < j) is visited once.  Candidates are
 * filtered by their AABBs inflated by the radius, then by the self-contact
 * exclusion (contact.c), then passed to the narrow phase.  Cost: O(N) to build
 * and, for a bounded number of segments per cell (rods do not pile up
 * arbitrarily densely at the segment scale), O(N) to query. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "contact/contact_internal.h"

static size_t cell_hash(const int c[3], size_t nb) {
  uint64_t h = (uint64_t)(uint32_t)c[0] * 73856093u ^ (uint64_t)(uint32_t)c[1] * 19349663u ^
               (uint64_t)(uint32_t)c[2] * 83492791u;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  return (size_t)(h & (nb - 1));
}

/* Global segment g -> rod and local index. */
static void seg_of(const cosrod_contact_model *m, int g, int *r, int *s) {
  int lo = 0, hi = m->nrods - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (m->rods[mid].seg0 <= g)
      lo = mid;
    else
      hi = mid - 1;
  }
  *r = lo;
  *s = g - m->rods[lo].seg0;
}

int cosrod_contact_broad_rods(const cosrod_contact_model *m, cosrod_contact_data *d, const double *const *x,
                              const double *const *v, double *const *f) {
  int n = m->nseg;
  if (n < 2) return 1;
  double lmax = 0.0;
  for (int r = 0; r < m->nrods; ++r)
    for (int s = 0; s < m->rods[r].nseg; ++s) {
      const double *a = x[r] + 3 * s, *b = a + 3;
      double l =
          sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
      lmax = fmax(lmax, l);
      double *box = d->box + 6 * (m->rods[r].seg0 + s), rr = m->rods[r].radius + 0.5 * m->margin;
      for (int k = 0; k < 3; ++k) {
        box[k] = fmin(a[k], b[k]) - rr;
        box[3 + k] = fmax(a[k], b[k]) + rr;
      }
    }
  double h = lmax + 2.0 * m->rmax + m->margin;
  d->h = h;
  memset(d->bucket, 0, (d->nbucket + 1) * sizeof(int));
  for (int g = 0; g < n; ++g) {
    const double *box = d->box + 6 * g;
    int *c = d->cell + 3 * g;
    for (int k = 0; k < 3; ++k) c[k] = (int)floor(0.5 * (box[k] + box[3 + k]) / h);
    d->bucket[cell_hash(c, d->nbucket) + 1]++;
  }
  for (size_t b = 0; b < d->nbucket; ++b) d->bucket[b + 1] += d->bucket[b];
  /* fill: entry positions from the running starts (restored afterwards) */
  for (int g = 0; g < n; ++g) d->entry[d->bucket[cell_hash(d->cell + 3 * g, d->nbucket)]++] = g;
  for (size_t b = d->nbucket; b > 0; --b) d->bucket[b] = d->bucket[b - 1];
  d->bucket[0] = 0;
  for (int g = 0; g < n; ++g) {
    const int *c = d->cell + 3 * g;
    const double *bg = d->box + 6 * g;
    int rg, sg;
    seg_of(m, g, &rg, &sg);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int cc[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
          size_t b = cell_hash(cc, d->nbucket);
          for (int e = d->bucket[b]; e < d->bucket[b + 1]; ++e) {
            int o = d->entry[e];
            if (o <= g) continue;
            const int *co = d->cell + 3 * o;
            if (co[0] != cc[0] || co[1] != cc[1] || co[2] != cc[2]) continue;
            const double *bo = d->box + 6 * o;
            if (bg[0] > bo[3] || bo[0] > bg[3] || bg[1] > bo[4] || bo[1] > bg[4] || bg[2] > bo[5] ||
                bo[2] > bg[5])
              continue;
            int ro, so;
            seg_of(m, o, &ro, &so);
            if (ro == rg) {
              if (!m->self_contact) continue;
              const contact_rod_m *R = &m->rods[rg];
              if (R->sref[so] - R->sref[sg + 1] < R->excl) continue; /* so > sg */
            } else if (!m->rods_contact) {
              continue;
            }
            d->ncand++;
            if (!cosrod_contact_pair(m, d, rg, sg, ro, so, x, v, f)) return 0;
          }
        }
  }
  return 1;
}
