// SPDX-License-Identifier: Apache-2.0
/* Discrete Cosserat rod model: definition defaults and creation (grid,
 * material constants, initial shape, reference configuration, boundary
 * conditions, index maps); queries, state packing and prescribed end motion
 * are in rod_state.c.
 *
 * Grid and masses: [LLA] §3 (Δs on segments, trapezoidal weights δs on
 * vertices, lumped masses ρAδs_n, [LLA] eq. 27).  Constants: [manual: theory], [LLT]
 * eq. 4.  Shapes of constant material curvature K (straight, arc, helix):
 * p(σ) = p(0) exp(Kσ/2), x(σ) = x(0) + R(p(0)) ∫ exp(K̂σ) e3.  Polyline frames by
 * parallel transport.  Ghost quaternions of clamped ends: [LLA] Remark 3.1. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "rod/rod_internal.h"
#include "core/error.h"

static const char *const curv_names[] = {"sine-2", "sine-4", "tangent-2", "tangent-4", "angle"};

const char *cosrod_curvature_name(cosrod_curvature c) {
  if ((int)c < 0 || (int)c > 4) return "unknown";
  return curv_names[c];
}

int cosrod_curvature_parse(const char *name) {
  if (!name) return -1;
  for (int i = 0; i < 5; ++i)
    if (strcmp(name, curv_names[i]) == 0) return i;
  return -1;
}

cosrod_rod_def cosrod_rod_def_default(void) {
  cosrod_rod_def d;
  memset(&d, 0, sizeof d);
  d.nseg = 10;
  d.length = 1.0;
  d.E = 5.0e6;
  d.poisson = 0.5;
  d.density = 1100.0;
  d.section = COSROD_SECTION_CIRCLE;
  d.radius = 5.0e-3;
  d.shear_correction[0] = d.shear_correction[1] = 1.0;
  d.curvature = COSROD_CURV_TANGENT2;
  d.shape = COSROD_SHAPE_STRAIGHT;
  d.direction[2] = 1.0;
  d.normal[0] = 1.0;
  d.reference = COSROD_REFERENCE_INITIAL;
  return d;
}

/* ---- small helpers --------------------------------------------------------- */

/* Unit quaternion of the frame (d1, d2, d3) = columns of R (column-major). */
static void frame_to_quat(double p[4], const double R[9]) {
  /* R(i,j) = R[i + 3j] */
  double tr = R[0] + R[4] + R[8];
  if (tr > 0.0) {
    double s = 2.0 * sqrt(1.0 + tr);
    p[0] = 0.25 * s;
    p[1] = (R[5] - R[7]) / s;
    p[2] = (R[6] - R[2]) / s;
    p[3] = (R[1] - R[3]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    p[0] = (R[5] - R[7]) / s;
    p[1] = 0.25 * s;
    p[2] = (R[3] + R[1]) / s;
    p[3] = (R[6] + R[2]) / s;
  } else if (R[4] > R[8]) {
    double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
    p[0] = (R[6] - R[2]) / s;
    p[1] = (R[3] + R[1]) / s;
    p[2] = 0.25 * s;
    p[3] = (R[7] + R[5]) / s;
  } else {
    double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
    p[0] = (R[1] - R[3]) / s;
    p[1] = (R[6] + R[2]) / s;
    p[2] = (R[7] + R[5]) / s;
    p[3] = 0.25 * s;
  }
  cosrod_quat_normalise(p, p);
}

/* Orthonormal frame from d3 = dir and d1 ~ normal; ERR_INVALID if degenerate. */
static cosrod_status make_frame(double p[4], const double dir[3], const double normal[3]) {
  double d3[3], d1[3], d2[3];
  if (!(cosrod_vec3_normalise(d3, dir) > 0.0)) return COSROD_ERR_INVALID;
  double n[3];
  cosrod_vec3_copy(n, normal);
  cosrod_vec3_axpy(n, -cosrod_vec3_dot(n, d3), d3);
  if (!(cosrod_vec3_normalise(d1, n) > 1e-12)) {
    /* any normal perpendicular to d3 */
    double e[3] = {1.0, 0.0, 0.0};
    if (fabs(d3[0]) > 0.9) e[0] = 0.0, e[1] = 1.0;
    cosrod_vec3_axpy(e, -cosrod_vec3_dot(e, d3), d3);
    cosrod_vec3_normalise(d1, e);
  }
  cosrod_vec3_cross(d2, d3, d1);
  double R[9] = {d1[0], d1[1], d1[2], d2[0], d2[1], d2[2], d3[0], d3[1], d3[2]};
  frame_to_quat(p, R);
  return COSROD_OK;
}

/* Constant material curvature K: frame and centroid at shape arc length σ. */
static void cc_eval(double x[3], double p[4], const double x0[3], const double p0[4], const double K[3],
                    double sig) {
  double om = cosrod_vec3_norm(K);
  double g[3];
  double e[4];
  if (om < 1e-14) {
    cosrod_vec3_set(g, 0.0, 0.0, sig);
    cosrod_quat_identity(e);
  } else {
    double k[3] = {K[0] / om, K[1] / om, K[2] / om};
    double k3 = k[2];
    double sn = sin(om * sig) / om, cs = (1.0 - cos(om * sig)) / om;
    double kxe[3] = {k[1], -k[0], 0.0}; /* k x e3 */
    for (int i = 0; i < 3; ++i)
      g[i] = sig * k3 * k[i] + sn * ((i == 2 ? 1.0 : 0.0) - k3 * k[i]) + cs * kxe[i];
    double h = 0.5 * om * sig;
    cosrod_quat_set(e, cos(h), sin(h) * k[0], sin(h) * k[1], sin(h) * k[2]);
  }
  double gs[3];
  cosrod_quat_rotate(gs, p0, g);
  cosrod_vec3_add(x, x0, gs);
  cosrod_quat_mul(p, p0, e);
}

static int end_has_pos(const rod_end_model *e) { return e->fixpos; }

/* ---- creation ---------------------------------------------------------------- */

void cosrod_rod_free(cosrod_rod *rod) {
  if (!rod) return;
  free(rod->s);
  free(rod->ds);
  free(rod->w);
  free(rod->mv);
  free(rod->Ib);
  free(rod->G0);
  free(rod->K0);
  free(rod->x_init);
  free(rod->p_init);
  free(rod->qv);
  free(rod->qs);
  free(rod->nd);
  free(rod->vv_ns);
  free(rod->vs_ns);
  free(rod->loads);
  for (int e = 0; e < 2; ++e) {
    free(rod->end[e].pos);
    free(rod->end[e].rot);
  }
  free(rod);
}

/* A failed cosrod_rod_create: frees rod, sets *st and the message naming
 * what was rejected (cosrod_last_error). */
static cosrod_status fail(cosrod_rod *rod, cosrod_status *st, cosrod_status code, const char *what) {
  cosrod_rod_free(rod);
  cosrod_error_fail(st, code, "cosrod_rod_create: %s (%s)", what, cosrod_strerror(code));
  return code;
}

/* Initial shape on the material grid. */
static cosrod_status build_shape(cosrod_rod *rod, const cosrod_rod_def *def, double Ls) {
  int N = rod->N;
  double L = rod->L;
  double sc = Ls / L; /* shape arc length per material length */
  if (def->shape == COSROD_SHAPE_POLYLINE) {
    int np = def->npoints;
    const double *P = def->points;
    double *X = rod->x_init;
    if (np == N + 1) {
      memcpy(X, P, sizeof(double) * 3 * (size_t)(N + 1));
    } else {
      /* resample by arc length: cumulative length of the polyline */
      double total = Ls;
      int seg = 0;
      double acc = 0.0;
      for (int n = 0; n <= N; ++n) {
        double target = (rod->s[n] - rod->s[0]) / L * total;
        for (;;) {
          double d[3];
          cosrod_vec3_sub(d, P + 3 * (seg + 1), P + 3 * seg);
          double l = cosrod_vec3_norm(d);
          if (target <= acc + l || seg == np - 2) {
            double f = l > 0.0 ? (target - acc) / l : 0.0;
            if (f > 1.0) f = 1.0;
            for (int i = 0; i < 3; ++i) X[3 * n + i] = P[3 * seg + i] + f * d[i];
            break;
          }
          acc += l;
          ++seg;
        }
      }
    }
    /* frames: parallel transport of normal along the chords */
    double t[3], tprev[3], pprev[4] = {1.0, 0.0, 0.0, 0.0}; /* frame of segment k-1 */
    for (int k = 0; k < N; ++k) {
      double d[3];
      cosrod_vec3_sub(d, X + 3 * (k + 1), X + 3 * k);
      if (!(cosrod_vec3_normalise(t, d) > 0.0)) return COSROD_ERR_INVALID;
      double *p = rod->p_init + 4 * k;
      if (k == 0) {
        if (make_frame(p, t, def->normal) != COSROD_OK) return COSROD_ERR_INVALID;
      } else {
        double c = cosrod_vec3_dot(tprev, t);
        if (1.0 + c < 1e-12) return COSROD_ERR_INVALID;
        double ax[3];
        cosrod_vec3_cross(ax, tprev, t);
        double r[4] = {1.0 + c, ax[0], ax[1], ax[2]};
        cosrod_quat_normalise(r, r);
        cosrod_quat_mul(p, r, pprev);
        cosrod_quat_normalise(p, p);
      }
      cosrod_quat_copy(pprev, p);
      cosrod_vec3_copy(tprev, t);
    }
    cosrod_quat_copy(rod->end[0].p0, rod->p_init);
    cosrod_quat_copy(rod->end[1].p0, rod->p_init + 4 * (N - 1));
    return COSROD_OK;
  }
  double p0[4], K[3] = {0.0, 0.0, 0.0};
  if (make_frame(p0, def->direction, def->normal) != COSROD_OK) return COSROD_ERR_INVALID;
  if (def->shape == COSROD_SHAPE_ARC) {
    K[1] = 1.0 / def->shape_radius;
  } else if (def->shape == COSROD_SHAPE_HELIX) {
    double r = def->shape_radius, c = def->pitch / (2.0 * ROD_PI);
    K[1] = r / (r * r + c * c);
    K[2] = c / (r * r + c * c);
  }
  for (int n = 0; n <= N; ++n) {
    double pp[4];
    cc_eval(rod->x_init + 3 * n, pp, def->start, p0, K, (rod->s[n] - rod->s[0]) * sc);
  }
  for (int k = 0; k < N; ++k) {
    double xx[3];
    double sm = 0.5 * (rod->s[k] + rod->s[k + 1]) - rod->s[0];
    cc_eval(xx, rod->p_init + 4 * k, def->start, p0, K, sm * sc);
  }
  double xx[3];
  cosrod_quat_copy(rod->end[0].p0, p0);
  cc_eval(xx, rod->end[1].p0, def->start, p0, K, Ls);
  return COSROD_OK;
}

static double shape_length(const cosrod_rod_def *def) {
  switch (def->shape) {
    case COSROD_SHAPE_ARC:
      return def->shape_radius * def->arc_angle;
    case COSROD_SHAPE_HELIX: {
      double c = def->pitch / (2.0 * ROD_PI);
      return def->turns * 2.0 * ROD_PI * sqrt(def->shape_radius * def->shape_radius + c * c);
    }
    case COSROD_SHAPE_POLYLINE: {
      double l = 0.0;
      for (int i = 0; i + 1 < def->npoints; ++i) {
        double d[3];
        cosrod_vec3_sub(d, def->points + 3 * (i + 1), def->points + 3 * i);
        l += cosrod_vec3_norm(d);
      }
      return l;
    }
    default:
      return def->length;
  }
}

static cosrod_status copy_end(rod_end_model *e, const cosrod_rod_end *d) {
  e->kind = d->kind;
  e->fixpos = d->kind != COSROD_END_FREE;
  e->fixrot = d->kind == COSROD_END_CLAMPED || d->kind == COSROD_END_PRESCRIBED;
  e->slides = e->fixpos && d->slides;
  if (e->slides && !(cosrod_vec3_normalise(e->axis, d->slide_axis) > 0.0)) return COSROD_ERR_INVALID;
  e->cubic = d->cubic != 0;
  /* a pinned end may move along position keyframes (its rotation stays free) */
  if (d->kind == COSROD_END_PINNED && d->nrot > 0) return COSROD_ERR_INVALID;
  if (d->kind == COSROD_END_PRESCRIBED || (d->kind == COSROD_END_PINNED && d->npos > 0)) {
    if (d->npos < 0 || d->nrot < 0 || (d->npos > 0 && !d->pos) || (d->nrot > 0 && !d->rot))
      return COSROD_ERR_INVALID;
    if (d->npos > 0) {
      e->pos = malloc(sizeof(double) * 4 * (size_t)d->npos);
      if (!e->pos) return COSROD_ERR_NOMEM;
      memcpy(e->pos, d->pos, sizeof(double) * 4 * (size_t)d->npos);
      e->npos = d->npos;
      for (int i = 1; i < e->npos; ++i)
        if (!(e->pos[4 * i] > e->pos[4 * (i - 1)])) return COSROD_ERR_INVALID;
    }
    if (d->nrot > 0) {
      e->rot = malloc(sizeof(double) * 5 * (size_t)d->nrot);
      if (!e->rot) return COSROD_ERR_NOMEM;
      memcpy(e->rot, d->rot, sizeof(double) * 5 * (size_t)d->nrot);
      e->nrot = d->nrot;
      for (int i = 0; i < e->nrot; ++i) {
        double *q = e->rot + 5 * i + 1;
        if (!(cosrod_quat_normalise(q, q) > 0.0)) return COSROD_ERR_INVALID;
        if (i > 0) {
          if (!(e->rot[5 * i] > e->rot[5 * (i - 1)])) return COSROD_ERR_INVALID;
          if (cosrod_quat_dot(q, q - 5) < -1.0 + 1e-12) return COSROD_ERR_INVALID;
        }
      }
    }
  }
  return COSROD_OK;
}

/* Area and second moments of the cross-section of def (m², m⁴). */
static void section_constants(const cosrod_rod_def *def, double *A, double *I1, double *I2, double *J) {
  switch (def->section) {
    case COSROD_SECTION_CIRCLE: {
      double r = def->radius;
      *A = ROD_PI * r * r;
      *I1 = *I2 = 0.25 * ROD_PI * r * r * r * r;
      *J = 2.0 * *I1;
      break;
    }
    case COSROD_SECTION_RECTANGLE: {
      double b = def->width, h = def->height;
      *A = b * h;
      *I1 = b * h * h * h / 12.0;
      *I2 = h * b * b * b / 12.0;
      *J = def->torsion_constant > 0.0 ? def->torsion_constant : *I1 + *I2;
      break;
    }
    default:
      *A = def->area;
      *I1 = def->I1;
      *I2 = def->I2;
      *J = def->J > 0.0 ? def->J : *I1 + *I2;
      break;
  }
}

/* Grid s (given, or uniform over the length), Δs and the vertex weights;
 * *Ls: the shape length, the grid length if the shape has none. */
static cosrod_status set_grid(cosrod_rod *rod, const cosrod_rod_def *def, double *Ls) {
  const int N = rod->N;
  if (def->grid) {
    for (int n = 0; n <= N; ++n) {
      rod->s[n] = def->grid[n];
      if (!isfinite(rod->s[n]) || (n > 0 && !(rod->s[n] > rod->s[n - 1]))) return COSROD_ERR_INVALID;
    }
  } else {
    double L = def->length > 0.0 ? def->length : *Ls;
    if (!(L > 0.0)) return COSROD_ERR_INVALID;
    for (int n = 0; n <= N; ++n) rod->s[n] = L * (double)n / (double)N;
  }
  rod->L = rod->s[N] - rod->s[0];
  if (!(*Ls > 0.0)) *Ls = rod->L;
  for (int k = 0; k < N; ++k) rod->ds[k] = rod->s[k + 1] - rod->s[k];
  for (int n = 0; n <= N; ++n)
    rod->w[n] = 0.5 * ((n > 0 ? rod->ds[n - 1] : 0.0) + (n < N ? rod->ds[n] : 0.0));

  return COSROD_OK;
}

/* Material constants CG, CK, ρA, ρI, damping (Kelvin-Voigt [LLT] eq. 4 or
 * coefficients), the Kirchhoff model, the medium, lumped masses and inertias. */
static cosrod_status set_material(cosrod_rod *rod, const cosrod_rod_def *def) {
  const int N = rod->N;
  double E = def->E, G = def->G, nu = def->poisson;
  if (G <= 0.0)
    G = E / (2.0 * (1.0 + nu));
  else
    nu = E / (2.0 * G) - 1.0;
  double A, I1, I2, J;
  section_constants(def, &A, &I1, &I2, &J);
  double k1 = def->shear_correction[0] > 0.0 ? def->shear_correction[0] : 1.0;
  double k2 = def->shear_correction[1] > 0.0 ? def->shear_correction[1] : 1.0;
  rod->CG[0] = def->GA1 > 0.0 ? def->GA1 : k1 * G * A;
  rod->CG[1] = def->GA2 > 0.0 ? def->GA2 : k2 * G * A;
  rod->CG[2] = def->EA > 0.0 ? def->EA : E * A;
  rod->CK[0] = def->EI1 > 0.0 ? def->EI1 : E * I1;
  rod->CK[1] = def->EI2 > 0.0 ? def->EI2 : E * I2;
  rod->CK[2] = def->GJ > 0.0 ? def->GJ : G * J;
  rod->rhoA = def->rhoA > 0.0 ? def->rhoA : def->density * A;
  rod->rhoI[0] = def->rhoI1 > 0.0 ? def->rhoI1 : def->density * I1;
  rod->rhoI[1] = def->rhoI2 > 0.0 ? def->rhoI2 : def->density * I2;
  rod->rhoI[2] = def->rhoJ > 0.0 ? def->rhoJ : def->density * J;
  for (int i = 0; i < 3; ++i)
    if (!(rod->CG[i] > 0.0) || !(rod->CK[i] > 0.0) || !(rod->rhoI[i] > 0.0) || !isfinite(rod->CG[i]) ||
        !isfinite(rod->CK[i]))
      return COSROD_ERR_INVALID;
  if (!(rod->rhoA > 0.0)) return COSROD_ERR_INVALID;
  if (def->damping == COSROD_DAMPING_KELVIN_VOIGT) {
    double tS = def->tau_shear, tB = def->tau_bulk;
    if (tS < 0.0 || tB < 0.0) return COSROD_ERR_INVALID;
    double tE = ((1.0 - 2.0 * nu) * tB + 2.0 * (1.0 + nu) * tS) / 3.0;
    rod->VG[0] = tS * rod->CG[0];
    rod->VG[1] = tS * rod->CG[1];
    rod->VG[2] = tE * rod->CG[2];
    rod->VK[0] = tE * rod->CK[0];
    rod->VK[1] = tE * rod->CK[1];
    rod->VK[2] = tS * rod->CK[2];
  } else if (def->damping == COSROD_DAMPING_COEFFICIENTS) {
    for (int i = 0; i < 3; ++i) {
      rod->VG[i] = def->visc_gamma[i];
      rod->VK[i] = def->visc_kappa[i];
      if (rod->VG[i] < 0.0 || rod->VK[i] < 0.0) return COSROD_ERR_INVALID;
    }
  }
  /* Kirchhoff models: the constrained strain components carry no elastic or
   * viscous force (their multipliers replace it, rod_kirchhoff.c) */
  if ((unsigned)def->model > (unsigned)COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE) return COSROD_ERR_INVALID;
  rod->model = def->model;
  for (int i = 0; i < cosrod_rod_kirchhoff_m(rod); ++i) rod->CG[i] = rod->VG[i] = 0.0;
  rod->has_damping = 0;
  for (int i = 0; i < 3; ++i)
    if (rod->VG[i] > 0.0 || rod->VK[i] > 0.0) rod->has_damping = 1;
  rod->cmed_t = def->medium_translational;
  rod->cmed_r = def->medium_rotational;
  if (!(rod->cmed_t >= 0.0) || !(rod->cmed_r >= 0.0) || !isfinite(rod->cmed_t) || !isfinite(rod->cmed_r))
    return COSROD_ERR_INVALID;
  if (rod->cmed_t > 0.0 || rod->cmed_r > 0.0) rod->has_damping = 1;
  rod->curv = def->curvature;
  for (int n = 0; n <= N; ++n) rod->mv[n] = rod->rhoA * rod->w[n];
  for (int k = 0; k < N; ++k)
    for (int i = 0; i < 3; ++i) rod->Ib[3 * k + i] = rod->rhoI[i] * rod->ds[k];

  return COSROD_OK;
}

/* Index maps of the node state: q offsets of vertices and segments, their
 * velocity offsets in the null-space form, free coordinates per vertex. */
static void set_index_maps(cosrod_rod *rod) {
  const int N = rod->N;
  int off = 0, offv = 0;
  for (int n = 0; n <= N; ++n) {
    int nd = 3;
    if (n == 0 || n == N) {
      const rod_end_model *em = &rod->end[n == 0 ? 0 : 1];
      if (end_has_pos(em)) nd = em->slides ? 1 : 0;
    }
    rod->nd[n] = nd;
    rod->qv[n] = nd ? off : -1;
    rod->vv_ns[n] = nd ? offv : -1;
    off += nd;
    offv += nd;
    if (n < N) {
      rod->qs[n] = off;
      rod->vs_ns[n] = offv;
      off += 4;
      offv += 3;
    }
  }
  rod->nq = off;
  rod->nv_ns = offv;
}

/* Gravity, the loads (copied; vertex -1: the end vertex N) and the load callback. */
static cosrod_status set_loads(cosrod_rod *rod, const cosrod_rod_def *def) {
  const int N = rod->N;
  cosrod_vec3_copy(rod->gravity, def->gravity);
  if (def->nloads > 0) {
    if (!def->loads) return COSROD_ERR_INVALID;
    rod->loads = malloc(sizeof(cosrod_rod_load) * (size_t)def->nloads);
    if (!rod->loads) return COSROD_ERR_NOMEM;
    memcpy(rod->loads, def->loads, sizeof(cosrod_rod_load) * (size_t)def->nloads);
    rod->nloads = def->nloads;
    for (int i = 0; i < rod->nloads; ++i) {
      cosrod_rod_load *l = &rod->loads[i];
      if (l->vertex < 0) l->vertex = N;
      if (l->vertex > N) return COSROD_ERR_INVALID;
    }
  }
  rod->load_fn = def->load_fn;
  rod->load_user = def->load_user;

  return COSROD_OK;
}

/* Reference strains Γ0, K0 from the discrete initial state (reference:
 * initial): the shape is stress free. */
static void reference_from_initial(cosrod_rod *rod) {
  const int N = rod->N;
  double zero4[4] = {0, 0, 0, 0}, zero3[3] = {0, 0, 0}, Vd = 0.0, Dd = 0.0;
  double Gd[3], F[3], fs[3], fq[4];
  for (int k = 0; k < N; ++k) {
    double dx[3];
    cosrod_vec3_sub(dx, rod->x_init + 3 * (k + 1), rod->x_init + 3 * k);
    rod_seg_kernel(dx, zero3, rod->p_init + 4 * k, zero4, 1.0 / rod->ds[k], rod->ds[k], zero3, rod->CG,
                   rod->VG, 0, rod->G0 + 3 * k, Gd, F, fs, fq, &Vd, &Dd);
  }
  double Kd[3], M[3], fm[4], fp[4];
  for (int n = 0; n <= N; ++n) {
    const double *pm, *pp;
    double g[4], gd[4];
    double alpha;
    if (n > 0 && n < N) {
      pm = rod->p_init + 4 * (n - 1);
      pp = rod->p_init + 4 * n;
      alpha = 1.0 / rod->w[n];
      alpha *= 2.0;
    } else {
      int e = n == 0 ? 0 : 1;
      if (!rod->end[e].fixrot) continue;
      const double *pseg = rod->p_init + 4 * (e == 0 ? 0 : N - 1);
      rod_ghost(g, gd, rod->end[e].p0, zero4, pseg, zero4);
      pm = e == 0 ? g : pseg;
      pp = e == 0 ? pseg : g;
      alpha = 2.0 / rod->ds[e == 0 ? 0 : N - 1];
    }
    rod_vtx_kernel(rod->curv, pm, pp, zero4, zero4, alpha, 1.0, zero3, rod->CK, rod->VK, 0, rod->K0 + 3 * n,
                   Kd, M, fm, fp, &Vd, &Dd);
  }
}

cosrod_rod *cosrod_rod_create(const cosrod_rod_def *def, cosrod_status *st) {
  if (st) *st = COSROD_OK;
  cosrod_error_clear();
  if (!def) return cosrod_error_fail(st, COSROD_ERR_INVALID, "cosrod_rod_create: no definition (NULL)");
  cosrod_rod *rod = calloc(1, sizeof *rod);
  if (!rod) return cosrod_error_fail(st, COSROD_ERR_NOMEM, "cosrod_rod_create: out of memory");
  int N = def->grid ? def->ngrid - 1 : def->nseg;
  if (N < 1) return fail(rod, st, COSROD_ERR_INVALID, "fewer than 1 segment (nseg, or ngrid - 1)"), NULL;
  if ((int)def->curvature < 0 || (int)def->curvature > 4)
    return fail(rod, st, COSROD_ERR_INVALID, "curvature: not a cosrod_curvature"), NULL;
  if (def->shape == COSROD_SHAPE_POLYLINE && (def->npoints < 2 || !def->points))
    return fail(rod, st, COSROD_ERR_INVALID, "polyline shape: needs at least 2 points"), NULL;
  if ((def->shape == COSROD_SHAPE_ARC || def->shape == COSROD_SHAPE_HELIX) && !(def->shape_radius > 0.0))
    return fail(rod, st, COSROD_ERR_INVALID, "arc / helix shape: shape_radius must be > 0"), NULL;
  double Ls = shape_length(def);
  rod->N = N;
  size_t n1 = (size_t)N + 1, n0 = (size_t)N;
  rod->s = malloc(sizeof(double) * n1);
  rod->ds = malloc(sizeof(double) * n0);
  rod->w = malloc(sizeof(double) * n1);
  rod->mv = malloc(sizeof(double) * n1);
  rod->Ib = malloc(sizeof(double) * 3 * n0);
  rod->G0 = calloc(3 * n0, sizeof(double));
  rod->K0 = calloc(3 * n1, sizeof(double));
  rod->x_init = malloc(sizeof(double) * 3 * n1);
  rod->p_init = malloc(sizeof(double) * 4 * n0);
  rod->qv = malloc(sizeof(int) * n1);
  rod->qs = malloc(sizeof(int) * n0);
  rod->nd = malloc(sizeof(int) * n1);
  rod->vv_ns = malloc(sizeof(int) * n1);
  rod->vs_ns = malloc(sizeof(int) * n0);
  if (!rod->s || !rod->ds || !rod->w || !rod->mv || !rod->Ib || !rod->G0 || !rod->K0 || !rod->x_init ||
      !rod->p_init || !rod->qv || !rod->qs || !rod->nd || !rod->vv_ns || !rod->vs_ns)
    return fail(rod, st, COSROD_ERR_NOMEM, "arrays of the grid"), NULL;

  cosrod_status s1 = set_grid(rod, def, &Ls);
  if (s1 != COSROD_OK)
    return fail(rod, st, s1, "grid: need finite, strictly increasing arc lengths and a length > 0"), NULL;
  s1 = set_material(rod, def);
  if (s1 != COSROD_OK)
    return fail(rod, st, s1,
                "material: need stiffness and inertia > 0, damping >= 0 and a known model / section"),
           NULL;

  /* ends */
  for (int e = 0; e < 2; ++e) {
    cosrod_status s2 = copy_end(&rod->end[e], &def->ends[e]);
    if (s2 != COSROD_OK)
      return fail(rod, st, s2,
                  e == 0 ? "ends[0]: slide axis, keyframe times (increasing) or rotations invalid"
                         : "ends[1]: slide axis, keyframe times (increasing) or rotations invalid"),
             NULL;
  }

  /* shape */
  cosrod_status ss = build_shape(rod, def, Ls);
  if (ss != COSROD_OK) return fail(rod, st, ss, "shape: direction, normal or polyline points degenerate"), NULL;
  cosrod_vec3_copy(rod->end[0].x0, rod->x_init);
  cosrod_vec3_copy(rod->end[1].x0, rod->x_init + 3 * N);
  cosrod_vec3_copy(rod->vel0, def->velocity);
  cosrod_vec3_copy(rod->om0, def->omega);

  set_index_maps(rod);
  s1 = set_loads(rod, def);
  if (s1 != COSROD_OK) return fail(rod, st, s1, "loads: vertex outside 0..N or no load array"), NULL;
  if (def->reference == COSROD_REFERENCE_INITIAL) reference_from_initial(rod);
  for (int i = 0; i < 3 * N; ++i)
    if (!isfinite(rod->G0[i]))
      return fail(rod, st, COSROD_ERR_INVALID, "reference strains of the initial shape not finite"), NULL;
  for (int i = 0; i < 3 * (N + 1); ++i)
    if (!isfinite(rod->K0[i]))
      return fail(rod, st, COSROD_ERR_INVALID, "reference curvatures of the initial shape not finite"), NULL;
  return rod;
}
