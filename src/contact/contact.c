// SPDX-License-Identifier: Apache-2.0
/* Contact model and data: creation, the evaluation driver, the friction
 * commit, the finite-difference twin and the getters.
 *
 * Model (constant): per rod the effective law (k, delta, c, k_t after "auto",
 * contact_law.c), the self-contact exclusion and the offsets of its friction
 * slots; the obstacles' shapes; Gauss points.  Data (mutable): obstacle poses,
 * friction anchors, broad-phase grid, results.  All arrays are sized at
 * creation; the block and point lists grow geometrically only when an
 * evaluation has more contacts than any before (sized for 8 blocks per
 * segment at creation), so a steady run does not allocate.
 *
 * Self-contact exclusion.  Segments i < j of one rod are skipped when the arc
 * length between them, g = s_j - s_{i+1}, is below pi r.  Derivation: on a
 * straight rod the two segments are g apart, so they are not in contact iff
 * g >= 2r.  Bending shortens the chord: for a circular arc of curvature
 * radius rho the chord of an arc g <= pi rho is at least (2/pi) g (Jordan's
 * inequality sin x >= 2x/pi).  A rod cannot bend tighter than rho = r (the
 * section would intersect itself), so with g >= pi r the chord is >= 2r and
 * excluded pairs never touch; conversely a genuine self-contact closes a loop
 * and needs an arc of at least pi rho >= pi r, so no real contact is excluded.
 * Adjacent segments (g = 0) are always excluded.  In index terms for a
 * uniform grid: |i - j| <= max(1, ceil(pi r / ds)). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact_internal.h"
#include "cosrod/quat.h"
#include "core/error.h"

static const double gl_x[4][4] = {
    {0.0},
    {-0.5773502691896258, 0.5773502691896258},
    {-0.7745966692414834, 0.0, 0.7745966692414834},
    {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526}};
static const double gl_w[4][4] = {
    {2.0},
    {1.0, 1.0},
    {0.5555555555555556, 0.8888888888888888, 0.5555555555555556},
    {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538}};

void cosrod_contact_model_free(cosrod_contact_model *m) {
  if (!m) return;
  for (int r = 0; r < m->nrods; ++r) free(m->rods[r].sref);
  free(m->rods);
  free(m->obs);
  free(m);
}

static cosrod_status fail(cosrod_contact_model *m, char *err, size_t errlen, const char *msg, int idx) {
  if (err && errlen) snprintf(err, errlen, msg, idx);
  cosrod_contact_model_free(m);
  return COSROD_ERR_INVALID;
}

static cosrod_status contact_model_create(cosrod_contact_model **out, const cosrod_contact_def *def, char *err,
                                          size_t errlen) {
  *out = NULL;
  cosrod_contact_model *m = calloc(1, sizeof(*m));
  if (!m) return COSROD_ERR_NOMEM;
  const cosrod_contact_law *L = &def->law;
  m->nrods = def->nrods;
  m->nobs = def->nobstacles;
  m->nq = def->quadrature > 0 ? def->quadrature : 2;
  if (m->nq > 4) return fail(m, err, errlen, "contact: quadrature %d: at most 4 Gauss points", m->nq);
  if (L->mu_static < 0.0 || L->mu_kinetic < 0.0 || L->mu_kinetic > L->mu_static)
    return fail(m, err, errlen, "contact: friction: need 0 <= kinetic <= static%.0d", 0);
  m->mu_s = L->mu_static;
  m->mu_k = L->mu_kinetic;
  m->vstick = L->stick_velocity > 0.0 ? L->stick_velocity : 1e-3;
  m->rods_contact = def->rods_contact;
  m->self_contact = def->self_contact;
  for (int q = 0; q < m->nq; ++q) {
    m->gx[q] = 0.5 * (1.0 + gl_x[m->nq - 1][q]);
    m->gw[q] = 0.5 * gl_w[m->nq - 1][q];
  }
  m->rods = calloc((size_t)(m->nrods > 0 ? m->nrods : 1), sizeof(contact_rod_m));
  m->obs = calloc((size_t)(m->nobs > 0 ? m->nobs : 1), sizeof(cosrod_contact_obstacle));
  if (!m->rods || !m->obs) return fail(m, err, errlen, "contact: out of memory%.0d", 0);
  for (int k = 0; k < m->nobs; ++k) {
    const cosrod_shape *s = &def->obstacles[k].shape;
    int bad = (int)s->type < 0 || s->type >= COSROD_SHAPE_COUNT ||
              ((s->type == COSROD_SHAPE_SPHERE || s->type == COSROD_SHAPE_CYLINDER ||
                s->type == COSROD_SHAPE_CAPSULE) &&
               !(s->radius > 0.0)) ||
              (s->type == COSROD_SHAPE_CAPSULE && !(s->half_length >= 0.0)) ||
              (s->type == COSROD_SHAPE_BOX && !(s->half[0] > 0.0 && s->half[1] > 0.0 && s->half[2] > 0.0)) ||
              (s->type == COSROD_SHAPE_MESH && !s->mesh);
    if (bad) return fail(m, err, errlen, "contact: obstacle %d: invalid shape parameters", k);
    m->obs[k] = def->obstacles[k];
  }
  double Rwrap = INFINITY; /* smallest radius of a curved obstacle (the wrap rule, contact_law.c) */
  for (int k = 0; k < m->nobs; ++k) {
    const cosrod_shape *s = &m->obs[k].shape;
    if (s->type == COSROD_SHAPE_SPHERE || s->type == COSROD_SHAPE_CYLINDER || s->type == COSROD_SHAPE_CAPSULE)
      Rwrap = fmin(Rwrap, s->radius);
  }
  size_t slot = 0;
  for (int r = 0; r < m->nrods; ++r) {
    const cosrod_contact_rod *R = &def->rods[r];
    contact_rod_m *q = &m->rods[r];
    if (R->nv < 2 || !(R->radius > 0.0) || !R->sref)
      return fail(m, err, errlen, "contact: rod %d: need >= 2 vertices, radius > 0 and sref", r);
    q->nv = R->nv;
    q->nseg = R->nv - 1;
    q->radius = R->radius;
    q->sref = malloc((size_t)R->nv * sizeof(double));
    if (!q->sref) return fail(m, err, errlen, "contact: out of memory%.0d", 0);
    double dsmin = INFINITY;
    for (int i = 0; i < R->nv; ++i) {
      q->sref[i] = R->sref[i];
      if (i > 0) {
        double ds = R->sref[i] - R->sref[i - 1];
        if (!(ds > 0.0)) return fail(m, err, errlen, "contact: rod %d: sref must increase", r);
        dsmin = fmin(dsmin, ds);
      }
    }
    const double kbase = cosrod_contact_auto_stiffness(R->EI, R->rhoA, def->gravity, R->radius, dsmin);
    q->k = L->stiffness > 0.0 ? L->stiffness
                              : fmax(kbase, cosrod_contact_auto_wrap_stiffness(R->tension, R->radius, Rwrap));
    q->delta = L->onset > 0.0 ? L->onset : 0.01 * R->radius;
    q->c = L->damping > 0.0 ? L->damping : (L->damping < 0.0 ? 0.0 : 2.0 * sqrt(q->k * R->rhoA));
    q->kt = L->tangent_stiffness > 0.0 ? L->tangent_stiffness : (L->stiffness > 0.0 ? q->k : kbase);
    q->krr = L->stiffness > 0.0 ? L->stiffness
                                : cosrod_contact_auto_pair_stiffness(R->EI, R->rhoA, def->gravity, R->radius,
                                                                     (R->sref[R->nv - 1] - R->sref[0]) / q->nseg);
    q->crr = L->damping > 0.0 ? L->damping : (L->damping < 0.0 ? 0.0 : 2.0 * sqrt(q->krr * R->rhoA));
    q->excl = COSROD_QUAT_PI * R->radius;
    q->seg0 = m->nseg;
    q->slot0 = slot;
    m->nseg += q->nseg;
    slot += (size_t)q->nseg * (size_t)m->nobs * (size_t)m->nq;
    m->rmax = fmax(m->rmax, R->radius);
  }
  m->nslots = slot;
  m->margin = def->margin > 0.0 ? def->margin : 0.0;
  *out = m;
  return COSROD_OK;
}

cosrod_contact_model *cosrod_contact_model_create(const cosrod_contact_def *def, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_contact_model *m = NULL;
  cosrod_error_clear();
  if (!def) return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_contact_model_create: no definition (NULL)");
  cosrod_status st = contact_model_create(&m, def, msg, sizeof msg);
  return cosrod_error_result(m, status, st, msg);
}

void cosrod_contact_model_law(const cosrod_contact_model *m, int rod, double *k, double *delta, double *c,
                              double *kt) {
  const contact_rod_m *q = &m->rods[rod];
  if (k) *k = q->k;
  if (delta) *delta = q->delta;
  if (c) *c = q->c;
  if (kt) *kt = q->kt;
}

double cosrod_contact_model_self_exclusion(const cosrod_contact_model *m, int rod) {
  return m->rods[rod].excl;
}

void cosrod_contact_data_free(cosrod_contact_data *d) {
  if (!d) return;
  free(d->pose);
  free(d->wrench);
  free(d->anchor);
  free(d->trial_anchor);
  free(d->state);
  free(d->trial_state);
  free(d->cell);
  free(d->box);
  free(d->bucket);
  free(d->entry);
  free(d->blocks);
  free(d->pblocks);
  free(d->points);
  free(d);
}

static cosrod_status contact_data_create(cosrod_contact_data **out, const cosrod_contact_model *m) {
  *out = NULL;
  cosrod_contact_data *d = calloc(1, sizeof(*d));
  if (!d) return COSROD_ERR_NOMEM;
  size_t no = (size_t)(m->nobs > 0 ? m->nobs : 1), ns = m->nslots > 0 ? m->nslots : 1;
  size_t nseg = (size_t)(m->nseg > 0 ? m->nseg : 1);
  d->nbucket = 16;
  while (d->nbucket < 2 * nseg) d->nbucket *= 2;
  d->pose = calloc(no, sizeof(cosrod_pose));
  d->wrench = calloc(no * 6, sizeof(double));
  d->anchor = calloc(ns * 3, sizeof(double));
  d->trial_anchor = calloc(ns * 3, sizeof(double));
  d->state = calloc(ns, 1);
  d->trial_state = calloc(ns, 1);
  d->cell = calloc(nseg * 3, sizeof(int));
  d->box = calloc(nseg * 6, sizeof(double));
  d->bucket = calloc(d->nbucket + 1, sizeof(int));
  d->entry = calloc(nseg, sizeof(int));
  d->capblocks = 8 * nseg;
  d->cappoints = 4 * nseg;
  d->cappblocks = 2 * nseg;
  d->pblocks = malloc(d->cappblocks * sizeof(cosrod_contact_pose_block));
  d->blocks = malloc(d->capblocks * sizeof(cosrod_contact_block));
  d->points = malloc(d->cappoints * sizeof(cosrod_contact_point));
  if (!d->pose || !d->wrench || !d->anchor || !d->trial_anchor || !d->state || !d->trial_state || !d->cell ||
      !d->box || !d->bucket || !d->entry || !d->blocks || !d->points || !d->pblocks) {
    cosrod_contact_data_free(d);
    return COSROD_ERR_NOMEM;
  }
  for (int k = 0; k < m->nobs; ++k) d->pose[k] = m->obs[k].pose;
  *out = d;
  return COSROD_OK;
}

cosrod_contact_data *cosrod_contact_data_create(const cosrod_contact_model *model, cosrod_status *status) {
  cosrod_contact_data *d = NULL;
  cosrod_error_clear();
  if (!model) return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_contact_data_create: no model (NULL)");
  cosrod_status st = contact_data_create(&d, model);
  return cosrod_error_result(d, status, st, st == COSROD_ERR_NOMEM ? "cosrod_contact_data_create: out of memory" : "");
}

void cosrod_contact_set_pose(cosrod_contact_data *d, int k, const cosrod_pose *pose) { d->pose[k] = *pose; }
void cosrod_contact_get_pose(const cosrod_contact_data *d, int k, cosrod_pose *pose) { *pose = d->pose[k]; }

cosrod_contact_block *cosrod_contact_block_push(cosrod_contact_data *d) {
  if (d->nblocks == d->capblocks) {
    cosrod_contact_block *b = realloc(d->blocks, 2 * d->capblocks * sizeof(*b));
    if (!b) return NULL;
    d->blocks = b;
    d->capblocks *= 2;
  }
  return d->blocks + d->nblocks++;
}

cosrod_contact_pose_block *cosrod_contact_pose_block_push(cosrod_contact_data *d) {
  if (d->npblocks == d->cappblocks) {
    cosrod_contact_pose_block *b = realloc(d->pblocks, 2 * d->cappblocks * sizeof(*b));
    if (!b) return NULL;
    d->pblocks = b;
    d->cappblocks *= 2;
  }
  return d->pblocks + d->npblocks++;
}

cosrod_contact_point *cosrod_contact_point_push(cosrod_contact_data *d) {
  if (d->npoints == d->cappoints) {
    cosrod_contact_point *p = realloc(d->points, 2 * d->cappoints * sizeof(*p));
    if (!p) return NULL;
    d->points = p;
    d->cappoints *= 2;
  }
  return d->points + d->npoints++;
}

cosrod_status cosrod_contact_eval(const cosrod_contact_model *m, cosrod_contact_data *d,
                                  const double *const *x, const double *const *v, double *const *f,
                                  int flags) {
  d->nblocks = d->npoints = d->npblocks = 0;
  d->energy = d->power = 0.0;
  d->ncand = d->nactive = d->nmissed = 0;
  d->max_pen = 0.0;
  d->want_jac = (flags & COSROD_CONTACT_JAC) != 0;
  memset(d->wrench, 0, (size_t)(m->nobs > 0 ? m->nobs : 1) * 6 * sizeof(double));
  memset(d->trial_state, 0, m->nslots > 0 ? m->nslots : 1);
  for (int r = 0; r < m->nrods; ++r)
    for (int i = 0; i < 3 * m->rods[r].nv; ++i)
      if (!isfinite(x[r][i]) || (v && v[r] && !isfinite(v[r][i]))) return COSROD_ERR_NONFINITE;
  if (!cosrod_contact_obstacles(m, d, x, v, f)) return COSROD_ERR_NOMEM;
  if ((m->rods_contact || m->self_contact) && !cosrod_contact_broad_rods(m, d, x, v, f))
    return COSROD_ERR_NOMEM;
  return COSROD_OK;
}

void cosrod_contact_commit(const cosrod_contact_model *m, cosrod_contact_data *d) {
  for (size_t i = 0; i < m->nslots; ++i) {
    d->state[i] = d->trial_state[i];
    if (d->trial_state[i]) memcpy(d->anchor + 3 * i, d->trial_anchor + 3 * i, 3 * sizeof(double));
  }
}

size_t cosrod_contact_state_size(const cosrod_contact_model *m) { return 4 * m->nslots; }

void cosrod_contact_state_save(const cosrod_contact_model *m, const cosrod_contact_data *d, double *b) {
  memcpy(b, d->anchor, 3 * m->nslots * sizeof *b);
  for (size_t i = 0; i < m->nslots; ++i) b[3 * m->nslots + i] = d->state[i];
}

int cosrod_contact_state_load(const cosrod_contact_model *m, cosrod_contact_data *d, const double *b) {
  for (size_t i = 0; i < m->nslots; ++i) {
    const double s = b[3 * m->nslots + i];
    if (!(s == 0.0 || s == 1.0 || s == 2.0)) return -1;
    for (int k = 0; k < 3; ++k)
      if (!isfinite(b[3 * i + (size_t)k])) return -1;
  }
  memcpy(d->anchor, b, 3 * m->nslots * sizeof *b);
  memcpy(d->trial_anchor, b, 3 * m->nslots * sizeof *b);
  for (size_t i = 0; i < m->nslots; ++i) d->state[i] = d->trial_state[i] = (unsigned char)b[3 * m->nslots + i];
  return 0;
}

size_t cosrod_contact_nblocks(const cosrod_contact_data *d) { return d->nblocks; }
const cosrod_contact_block *cosrod_contact_blocks(const cosrod_contact_data *d) { return d->blocks; }
size_t cosrod_contact_npose_blocks(const cosrod_contact_data *d) { return d->npblocks; }
const cosrod_contact_pose_block *cosrod_contact_pose_blocks(const cosrod_contact_data *d) {
  return d->pblocks;
}

void cosrod_contact_pose_jac_dense(const cosrod_contact_data *d, int ri, int k, int nv, double *J) {
  size_t ld = 3 * (size_t)nv;
  memset(J, 0, ld * 12 * sizeof(double));
  for (size_t b = 0; b < d->npblocks; ++b) {
    const cosrod_contact_pose_block *B = d->pblocks + b;
    if (B->rod != ri || B->obstacle != k) continue;
    const double *src[4] = {B->Kc, B->Kr, B->Dv, B->Dw};
    for (int q = 0; q < 4; ++q)
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) J[(3 * (size_t)B->vertex + r) + ld * (3 * q + c)] += src[q][r + 3 * c];
  }
}

cosrod_status cosrod_contact_pose_jac_fd(const cosrod_contact_model *m, cosrod_contact_data *d,
                                         const double *const *x, const double *const *v, int ri, int k,
                                         double h, double *J) {
  size_t n = 3 * (size_t)m->rods[ri].nv;
  double *fp = calloc(n, sizeof(double)), *fm = calloc(n, sizeof(double));
  double **fs = calloc((size_t)m->nrods, sizeof(double *));
  cosrod_status st = fp && fm && fs ? COSROD_OK : COSROD_ERR_NOMEM;
  for (int r = 0; r < m->nrods && st == COSROD_OK; ++r)
    if (!(fs[r] = calloc(3 * (size_t)m->rods[r].nv, sizeof(double)))) st = COSROD_ERR_NOMEM;
  cosrod_pose p0 = d->pose[k];
  for (int col = 0; col < 12 && st == COSROD_OK; ++col)
    for (int sgn = 0; sgn < 2 && st == COSROD_OK; ++sgn) {
      double e = sgn ? -h : h;
      cosrod_pose p = p0;
      int q = col / 3, c = col % 3;
      if (q == 0) p.position[c] += e;
      if (q == 2) p.v[c] += e;
      if (q == 3) p.omega[c] += e;
      if (q == 1) {
        double dq[4] = {cos(0.5 * e), 0.0, 0.0, 0.0};
        dq[1 + c] = sin(0.5 * e);
        cosrod_quat_mul(p.q, dq, p0.q);
      }
      d->pose[k] = p;
      for (int r = 0; r < m->nrods; ++r) memset(fs[r], 0, 3 * (size_t)m->rods[r].nv * sizeof(double));
      st = cosrod_contact_eval(m, d, x, v, fs, 0);
      memcpy(sgn ? fm : fp, fs[ri], n * sizeof(double));
      if (sgn)
        for (size_t r = 0; r < n; ++r) J[r + n * (size_t)col] = (fp[r] - fm[r]) / (2.0 * h);
    }
  d->pose[k] = p0;
  free(fp);
  free(fm);
  for (int r = 0; r < m->nrods && fs; ++r) free(fs[r]);
  free(fs);
  return st;
}

size_t cosrod_contact_npoints(const cosrod_contact_data *d) { return d->npoints; }
const cosrod_contact_point *cosrod_contact_points(const cosrod_contact_data *d) { return d->points; }
double cosrod_contact_energy(const cosrod_contact_data *d) { return d->energy; }
double cosrod_contact_dissipation(const cosrod_contact_data *d) { return d->power; }
void cosrod_contact_counts(const cosrod_contact_data *d, size_t *cand, size_t *active) {
  if (cand) *cand = d->ncand;
  if (active) *active = d->nactive;
}
void cosrod_contact_warnings(const cosrod_contact_data *d, size_t *missed, double *max_penetration) {
  if (missed) *missed = d->nmissed;
  if (max_penetration) *max_penetration = d->max_pen;
}
void cosrod_contact_obstacle_wrench(const cosrod_contact_data *d, int k, double F[3], double M[3]) {
  memcpy(F, d->wrench + 6 * k, 3 * sizeof(double));
  memcpy(M, d->wrench + 6 * k + 3, 3 * sizeof(double));
}

void cosrod_contact_jac_dense(const cosrod_contact_model *m, const cosrod_contact_data *d, int ri, int rj,
                              double *K, double *D) {
  size_t ld = 3 * (size_t)m->rods[ri].nv, nc = 3 * (size_t)m->rods[rj].nv;
  memset(K, 0, ld * nc * sizeof(double));
  memset(D, 0, ld * nc * sizeof(double));
  for (size_t b = 0; b < d->nblocks; ++b) {
    const cosrod_contact_block *B = d->blocks + b;
    if (B->rod_i != ri || B->rod_j != rj) continue;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) {
        size_t at = (3 * (size_t)B->vertex_i + r) + ld * (3 * (size_t)B->vertex_j + c);
        K[at] += B->K[r + 3 * c];
        D[at] += B->D[r + 3 * c];
      }
  }
}

/* Forces of rod ri after setting coordinate (which: 0 x, 1 v) idx of rod rj. */
static cosrod_status fd_forces(const cosrod_contact_model *m, cosrod_contact_data *d, double **xs,
                               double **vs, double **fs, int ri) {
  for (int r = 0; r < m->nrods; ++r) memset(fs[r], 0, 3 * (size_t)m->rods[r].nv * sizeof(double));
  (void)ri;
  return cosrod_contact_eval(m, d, (const double *const *)xs, (const double *const *)vs, fs, 0);
}

cosrod_status cosrod_contact_jac_fd(const cosrod_contact_model *m, cosrod_contact_data *d,
                                    const double *const *x, const double *const *v, int ri, int rj, double h,
                                    double *K, double *D) {
  int nr = m->nrods;
  double **xs = calloc((size_t)nr, sizeof(double *)), **vs = calloc((size_t)nr, sizeof(double *)),
         **fs = calloc((size_t)nr, sizeof(double *));
  cosrod_status st = COSROD_OK;
  if (!xs || !vs || !fs) st = COSROD_ERR_NOMEM;
  for (int r = 0; r < nr && st == COSROD_OK; ++r) {
    size_t n = 3 * (size_t)m->rods[r].nv;
    xs[r] = malloc(n * sizeof(double));
    vs[r] = calloc(n, sizeof(double));
    fs[r] = malloc(n * sizeof(double));
    if (!xs[r] || !vs[r] || !fs[r]) {
      st = COSROD_ERR_NOMEM;
      break;
    }
    memcpy(xs[r], x[r], n * sizeof(double));
    if (v && v[r]) memcpy(vs[r], v[r], n * sizeof(double));
  }
  size_t ni = 3 * (size_t)m->rods[ri].nv, nj = 3 * (size_t)m->rods[rj].nv;
  double *fp = malloc(ni * sizeof(double));
  if (!fp) st = COSROD_ERR_NOMEM;
  for (int which = 0; which < 2 && st == COSROD_OK; ++which) {
    double *J = which ? D : K, *z = which ? vs[rj] : xs[rj];
    for (size_t c = 0; c < nj && st == COSROD_OK; ++c) {
      double z0 = z[c];
      z[c] = z0 + h;
      st = fd_forces(m, d, xs, vs, fs, ri);
      memcpy(fp, fs[ri], ni * sizeof(double));
      z[c] = z0 - h;
      if (st == COSROD_OK) st = fd_forces(m, d, xs, vs, fs, ri);
      z[c] = z0;
      for (size_t r = 0; r < ni; ++r) J[r + ni * c] = (fp[r] - fs[ri][r]) / (2.0 * h);
    }
  }
  free(fp);
  for (int r = 0; r < nr && xs && vs && fs; ++r) {
    free(xs[r]);
    free(vs[r]);
    free(fs[r]);
  }
  free(xs);
  free(vs);
  free(fs);
  return st;
}
