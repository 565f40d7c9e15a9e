// SPDX-License-Identifier: Apache-2.0
/* Contact of rods with obstacles, other rods and themselves (contact module).
 *
 * Formulation-independent: the module sees a rod only as its vertex positions
 * x_0..x_N and velocities (a chain of capsules: segments of radius r; a
 * non-circular section uses its circumscribed radius, so contact is
 * conservative: it starts no later than the true section touches).  The caller
 * (the assembled system) scatters the returned vertex forces and the 3x3
 * Jacobian blocks into its own vectors and band/sparse matrices.
 *
 * Pipeline (one evaluation, cosrod_contact_eval):
 *   broad phase  -> uniform hash grid of segment bounding boxes (rod-rod, self)
 *                   and box tests of segment AABBs against obstacle AABBs;
 *   narrow phase -> obstacles: signed distance functions per shape type (a
 *                   table indexed by cosrod_shape_type) evaluated at Gauss
 *                   points along each segment ("line contact");
 *                   rods: closest points of two segments ("point contact");
 *   contact law  -> smooth penalty per unit length with onset delta, normal
 *                   damping switched on smoothly, Coulomb friction with a
 *                   tangential spring and a persistent anchor (stick/slip);
 *   outputs      -> vertex forces, Jacobian blocks dF/dx, dF/dv, contact
 *                   potential, dissipated power, wrench on each obstacle and a
 *                   list of contact points.
 * The model and its derivations are in the design comments of
 * src/contact/contact_law.c (law, automatic stiffness), contact_shape.c
 * (distances), contact.c (line/point contact, Jacobians, friction state).
 *
 * Wiring into an assembled system (next step; nothing here depends on it):
 *   create   one model from the system's rods (nv, circumscribed radius, sref
 *            = reference arc length of the vertices, EI = min(EI1, EI2), rhoA)
 *            and obstacles (cosrod_sc_contact of the scenario, meshes loaded
 *            with cosrod_mesh_load), one data per integrator instance;
 *   f(t, y)  set the poses of keyframed / body-fixed obstacles
 *            (cosrod_contact_set_pose, with v and omega), then
 *            cosrod_contact_eval(x, v, f) adds the forces to the vertex loads;
 *   J        blocks with band = 1 stay inside each rod's band (obstacles);
 *            band = 0 blocks (rod-rod, self) need the sparse path, so the
 *            linear solver is chosen from cosrod_contact_counts / the blocks
 *            at each Jacobian update; pose blocks couple rods and bodies;
 *   accept   cosrod_contact_commit after each accepted step or increment;
 *   energy   cosrod_contact_energy is elastic energy, the integral of
 *            cosrod_contact_dissipation is dissipated;
 *   outputs  cosrod_contact_points -> contacts.csv, cosrod_contact_obstacle_wrench
 *            -> obstacles.csv, cosrod_contact_warnings -> summary.json;
 *   explicit methods: the contact frequency sqrt(k / rhoA) bounds the step.
 *
 * Conventions: SI units; arrays of 3-vectors are row-interleaved,
 * x[3*i + k]; 3x3 blocks are column-major (A[r + 3*c]); quaternions
 * scalar-first.  Outputs first where a function has several. */
#ifndef COSROD_CONTACT_H
#define COSROD_CONTACT_H

#include "cosrod/export.h"
#include <stddef.h>

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- shapes -------------------------------------------------------------- */

typedef enum cosrod_shape_type {
  COSROD_SHAPE_PLANE = 0, /* half-space z_local <= 0; normal = local e_z */
  COSROD_SHAPE_SPHERE,    /* radius */
  COSROD_SHAPE_CYLINDER,  /* axis local e_z, radius, half_length (<= 0: infinite) */
  COSROD_SHAPE_CAPSULE,   /* segment [-h, h] e_z, radius, half_length h */
  COSROD_SHAPE_BOX,       /* half-sizes half[3] */
  COSROD_SHAPE_MESH,      /* closed triangle mesh (cosrod_mesh) */
  COSROD_SHAPE_COUNT
} cosrod_shape_type;

typedef struct cosrod_mesh cosrod_mesh;

/* A shape in its local frame (see cosrod_shape_type for each type's fields). */
typedef struct cosrod_shape {
  cosrod_shape_type type;
  double radius;           /* sphere, cylinder, capsule [m] */
  double half_length;      /* cylinder (<= 0: infinite), capsule [m] */
  double half[3];          /* box half-sizes [m] */
  const cosrod_mesh *mesh; /* mesh (not owned) */
} cosrod_shape;

/* Pose and velocity of a shape's local frame: p_world = position + R(q) p_local;
 * velocity of a point = v + omega x (p - position). */
typedef struct cosrod_pose {
  double position[3];
  double q[4]; /* unit quaternion, scalar first */
  double v[3];
  double omega[3]; /* spatial angular velocity [rad/s] */
} cosrod_pose;

/* Identity pose at rest. */
COSROD_API void cosrod_pose_identity(cosrod_pose *pose);

/* Signed distance of a world point from a posed shape (negative inside), its
 * gradient (the outward unit normal) grad[3] and Hessian hess[9] (3x3).
 * grad/hess may be NULL.  Returns the distance [m]. */
COSROD_API double cosrod_shape_sdf(double grad[3], double hess[9], const cosrod_shape *shape, const cosrod_pose *pose,
                        const double p[3]);

/* Closest point of segment [a, b] to a posed shape: returns the signed distance
 * min_t sdf(a + t (b - a)) and its parameter *t in [0, 1].  Exact (safeguarded
 * Newton on the convex restriction) for the convex shapes; for meshes the
 * minimum over triangles of exact segment-triangle distances (unsigned, 0 when
 * the segment crosses the surface). */
COSROD_API double cosrod_shape_segment_closest(double *t, const cosrod_shape *shape, const cosrod_pose *pose,
                                    const double a[3], const double b[3]);

/* Closest points of segments [p0, p1] and [q0, q1]: parameters s, u in [0, 1]
 * of the closest pair; returns the distance.  Robust for parallel and
 * zero-length segments (then a minimising pair is returned). */
COSROD_API double cosrod_segment_segment_closest(double *s, double *u, const double p0[3], const double p1[3],
                                      const double q0[3], const double q1[3]);

/* ---- meshes -------------------------------------------------------------- */

/* Load a triangle mesh from an STL (ascii or binary) or OBJ file (by extension,
 * case-insensitive).  require_closed: refuse a mesh that is not a closed,
 * consistently oriented 2-manifold (needed for the inside/outside sign).  On
 * failure returns NULL, *status (may be NULL) ERR_IO (unreadable) or
 * ERR_PARSE (not a valid mesh) and cosrod_last_error() one line
 * `FILE:LINE: problem` (LINE omitted when not applicable; status.h). */
COSROD_API cosrod_mesh *cosrod_mesh_load(const char *path, int require_closed, cosrod_status *status);
/* A mesh from arrays (vertices nv x 3, triangles nt x 3, counter-clockwise seen
 * from outside); same checks and messages (name used in them), ERR_INVALID. */
COSROD_API cosrod_mesh *cosrod_mesh_create(const double *vertices, int nv, const int *triangles, int nt,
                                           int require_closed, const char *name, cosrod_status *status);
COSROD_API void cosrod_mesh_free(cosrod_mesh *mesh);
COSROD_API int cosrod_mesh_ntriangles(const cosrod_mesh *mesh);
COSROD_API int cosrod_mesh_nvertices(const cosrod_mesh *mesh);
/* Vertices (nv x 3, local frame) and triangles (nt x 3, 0-based, counter-
 * clockwise seen from outside) as stored (duplicate vertices merged). */
COSROD_API const double *cosrod_mesh_vertices(const cosrod_mesh *mesh);
COSROD_API const int *cosrod_mesh_triangles(const cosrod_mesh *mesh);
/* 1 if every edge is shared by exactly two triangles with opposite orientation. */
COSROD_API int cosrod_mesh_is_closed(const cosrod_mesh *mesh);

/* ---- contact law --------------------------------------------------------- */

/* Settings; zero means "auto" (a zero-initialised struct is a frictionless
 * contact with automatic stiffness, onset and damping). */
typedef struct cosrod_contact_law {
  double stiffness;         /* k [N/m per m]; <= 0: auto (cosrod_contact_auto_stiffness; rod-rod and
                               self-contact: cosrod_contact_auto_pair_stiffness) */
  double onset;             /* delta [m]; <= 0: auto = 0.01 r */
  double damping;           /* c [N s/m per m]; 0: auto = 2 sqrt(k rhoA) (critical); < 0: none */
  double mu_static;         /* 0: frictionless */
  double mu_kinetic;        /* <= mu_static */
  double tangent_stiffness; /* k_t [N/m per m]; <= 0: = k (auto k: the auto k without the wrap rule) */
  double stick_velocity;    /* v_s of rod-rod friction [m/s]; <= 0: 1e-3 */
} cosrod_contact_law;

/* Normal force per unit length f(p) >= 0 of the penetration p = -gap, its
 * derivative df/dp and the potential psi(p) = integral_0^p f (may be NULL). */
COSROD_API double cosrod_contact_penalty(double *dfdp, double *psi, double k, double delta, double p);
/* The penetration at which the law carries the load q per unit length. */
COSROD_API double cosrod_contact_penalty_inverse(double k, double delta, double q);
/* Automatic stiffness per unit length for a rod: max(4 EI / ds^4,
 * rhoA |g| / (0.01 r)) (derivation in src/contact/contact_law.c). */
COSROD_API double cosrod_contact_auto_stiffness(double EI, double rhoA, double g, double radius, double ds);
/* Automatic rod-rod / self-contact stiffness per unit length (ds: the mean
 * segment length): max(EI / (eps r R^2 ds), the rod-obstacle value), R =
 * max(r, ds), eps = COSROD_CONTACT_PAIR_PEN: a crossing loaded by the bending
 * force EI / R^2 of the tightest loop sinks at most (eps + 0.005) r. */
#define COSROD_CONTACT_PAIR_PEN 0.1
COSROD_API double cosrod_contact_auto_pair_stiffness(double EI, double rhoA, double g, double radius, double ds);
/* Automatic stiffness per unit length for a rod of radius r wrapped under
 * the tension T [N] over a curved obstacle of radius R [m] (line load
 * T / (R + r)): T / ((R + r) eps r), eps = COSROD_CONTACT_WRAP_PEN, so the
 * wrap sinks at most (eps + 0.005) r; 0 when T <= 0 or R is not finite. */
#define COSROD_CONTACT_WRAP_PEN 0.05
COSROD_API double cosrod_contact_auto_wrap_stiffness(double T, double radius, double R);

/* ---- model and data ------------------------------------------------------ */

typedef struct cosrod_contact_rod {
  int nv;             /* vertices (N + 1) */
  double radius;      /* contact radius r [m] */
  const double *sref; /* (nv) arc length of the vertices in the reference state [m], increasing */
  double EI;          /* bending stiffness [N m^2] (for auto stiffness) */
  double rhoA;        /* mass per length [kg/m] (for auto stiffness and damping) */
  double tension;     /* estimated largest tension [N] for the auto wrap stiffness; 0: not estimated */
} cosrod_contact_rod;

typedef struct cosrod_contact_obstacle {
  cosrod_shape shape;
  cosrod_pose pose; /* initial pose; cosrod_contact_set_pose moves it */
} cosrod_contact_obstacle;

typedef struct cosrod_contact_def {
  int nrods;
  const cosrod_contact_rod *rods;
  int nobstacles;
  const cosrod_contact_obstacle *obstacles;
  cosrod_contact_law law;
  double gravity;   /* |g| [m/s^2] for the auto stiffness */
  int rods_contact; /* rod-rod contact between different rods */
  int self_contact; /* self-contact of each rod */
  int quadrature;   /* Gauss points per segment for obstacles; 0: 2 */
  double margin;    /* broad-phase margin added to the segment boxes [m]; <= 0: none */
} cosrod_contact_def;

typedef struct cosrod_contact_model cosrod_contact_model;
typedef struct cosrod_contact_data cosrod_contact_data;

/* Create the constant model (copies the definition; meshes are not owned).
 * NULL on failure: *status (may be NULL) and cosrod_last_error() (status.h). */
COSROD_API cosrod_contact_model *cosrod_contact_model_create(const cosrod_contact_def *def, cosrod_status *status);
COSROD_API void cosrod_contact_model_free(cosrod_contact_model *model);
/* Effective per-rod law parameters after "auto" (k, delta, c, k_t). */
COSROD_API void cosrod_contact_model_law(const cosrod_contact_model *model, int rod, double *k, double *delta, double *c,
                              double *kt);
/* Neighbour exclusion of self-contact: segments i < j of one rod are skipped
 * when the arc length between them is below this value [m]. */
COSROD_API double cosrod_contact_model_self_exclusion(const cosrod_contact_model *model, int rod);

/* Mutable contact state and workspace of one model (NULL when out of memory,
 * status.h); _free releases it. */
COSROD_API cosrod_contact_data *cosrod_contact_data_create(const cosrod_contact_model *model, cosrod_status *status);
COSROD_API void cosrod_contact_data_free(cosrod_contact_data *data);

/* Set the pose (and velocity) of obstacle k for the next evaluations. */
COSROD_API void cosrod_contact_set_pose(cosrod_contact_data *data, int obstacle, const cosrod_pose *pose);
/* The current pose of obstacle k (the model's initial one until set). */
COSROD_API void cosrod_contact_get_pose(const cosrod_contact_data *data, int obstacle, cosrod_pose *pose);

/* What cosrod_contact_eval computes besides forces. */
enum { COSROD_CONTACT_JAC = 1 };

/* Evaluate: x[r], v[r] are rod r's vertex positions / velocities (nv x 3; v may
 * be NULL: at rest); f[r] (nv x 3) receives the contact forces ADDED to it.
 * With COSROD_CONTACT_JAC the Jacobian blocks are stored in data (see
 * cosrod_contact_blocks).  Friction uses the anchors of the last commit. */
COSROD_API cosrod_status cosrod_contact_eval(const cosrod_contact_model *model, cosrod_contact_data *data,
                                  const double *const *x, const double *const *v, double *const *f,
                                  int flags);

/* Accept the last evaluation's friction state: anchors of sliding contacts are
 * dragged to the slip limit, new contacts get an anchor, lost ones are cleared.
 * Call once per accepted step (dynamics) or converged increment (statics). */
COSROD_API void cosrod_contact_commit(const cosrod_contact_model *model, cosrod_contact_data *data);
/* The committed friction state (anchors and stick / slip flags) as doubles,
 * the restart data of a resumed run: its size, save into b, load from b
 * (also as the trial state; -1 if b holds no valid state). */
COSROD_API size_t cosrod_contact_state_size(const cosrod_contact_model *model);
COSROD_API void cosrod_contact_state_save(const cosrod_contact_model *model, const cosrod_contact_data *data,
                                          double *b);
COSROD_API int cosrod_contact_state_load(const cosrod_contact_model *model, cosrod_contact_data *data,
                                         const double *b);

/* One Jacobian block: dF(rod_i, vertex i)/dx(rod_j, vertex j) = K, and
 * d/dv = D, 3x3 column-major.  Blocks of the same (i, j) may repeat: the
 * caller sums them.  band = 1 when both vertices belong to one segment;
 * obstacle: the obstacle of a rod-obstacle contact, -1 for rod-rod and
 * self-contact (the caller of shapes on bodies routes the reaction on the
 * body by it). */
typedef struct cosrod_contact_block {
  int rod_i, vertex_i, rod_j, vertex_j;
  int band;
  int obstacle;
  double K[9];
  double D[9];
} cosrod_contact_block;

/* Number of Jacobian blocks of the last evaluation. */
COSROD_API size_t cosrod_contact_nblocks(const cosrod_contact_data *data);
/* Derivatives of rod vertex forces with respect to an obstacle's pose (for
 * shapes on moving bodies): dF(rod, vertex)/d position (Kc), / d rotation
 * (Kr; spatial increment: R <- (I + [dtheta]x) R), / d v (Dv), / d omega (Dw),
 * each 3x3 column-major.  Derived at each Gauss point from the invariance of
 * the contact under rigid motions of rod and obstacle together:
 *   Kc = -J_x,  Kr = -[F]x + J_x [x - c]x + J_v [v_k]x - J_v [v_o]x + J_v [x - c]x [omega]x,
 *   Dv = -J_v,  Dw = J_v [x - c]x.
 * The force on the obstacle is minus the sum of the vertex forces, so its
 * derivatives are minus sums of these blocks and of cosrod_contact_blocks. */
typedef struct cosrod_contact_pose_block {
  int rod, vertex, obstacle;
  double Kc[9], Kr[9], Dv[9], Dw[9];
} cosrod_contact_pose_block;
COSROD_API size_t cosrod_contact_npose_blocks(const cosrod_contact_data *data);
COSROD_API const cosrod_contact_pose_block *cosrod_contact_pose_blocks(const cosrod_contact_data *data);
/* Dense (3 nv) x 12 derivative of rod ri's vertex forces with respect to
 * obstacle k's (position, rotation, v, omega): from the blocks of the last
 * eval with COSROD_CONTACT_JAC, and its central-difference twin (rotation
 * steps as exp([h e_i]x) R). */
COSROD_API void cosrod_contact_pose_jac_dense(const cosrod_contact_data *data, int ri, int obstacle, int nv, double *J);
COSROD_API cosrod_status cosrod_contact_pose_jac_fd(const cosrod_contact_model *model, cosrod_contact_data *data,
                                         const double *const *x, const double *const *v, int ri, int obstacle,
                                         double h, double *J);
COSROD_API const cosrod_contact_block *cosrod_contact_blocks(const cosrod_contact_data *data);

/* Finite-difference twin: the dense derivative of rod ri's vertex forces with
 * respect to rod rj's positions (K) and velocities (D) by central differences
 * with step h; K and D are (3 nv_i) x (3 nv_j) column-major.  Friction anchors
 * are those of the last commit (as in eval); the data's results (blocks,
 * points, counters) are those of the last perturbed evaluation afterwards. */
COSROD_API cosrod_status cosrod_contact_jac_fd(const cosrod_contact_model *model, cosrod_contact_data *data,
                                    const double *const *x, const double *const *v, int ri, int rj, double h,
                                    double *K, double *D);
/* The analytic blocks of the last eval with COSROD_CONTACT_JAC, summed into the
 * same dense layout (for comparison with the twin). */
COSROD_API void cosrod_contact_jac_dense(const cosrod_contact_model *model, const cosrod_contact_data *data, int ri,
                              int rj, double *K, double *D);

/* Contact potential [J] (integral of the penalty force, elastic energy plus the
 * friction springs' energy) and dissipated power [W] (>= 0: damping + friction
 * work rate, relative velocities) of the last evaluation. */
COSROD_API double cosrod_contact_energy(const cosrod_contact_data *data);
COSROD_API double cosrod_contact_dissipation(const cosrod_contact_data *data);

/* Resultant force [N] and moment [N m] about the obstacle's pose position that
 * the rods exert on obstacle k (last evaluation). */
COSROD_API void cosrod_contact_obstacle_wrench(const cosrod_contact_data *data, int obstacle, double F[3], double M[3]);

/* One active contact (gap below the onset) of the last evaluation. */
typedef struct cosrod_contact_point {
  int rod, segment;
  int other_kind; /* 0 obstacle, 1 rod */
  int other, other_segment;
  double point[3];  /* on the rod's axis [m] */
  double normal[3]; /* from the other towards the rod */
  double gap;       /* distance - radii [m] */
  double fn;        /* normal force [N] (damping included) */
  double ft[3];     /* friction force on the rod [N] */
  int slip;         /* 0 stick, 1 slip */
} cosrod_contact_point;

/* Active contact points of the last evaluation: their count and the array. */
COSROD_API size_t cosrod_contact_npoints(const cosrod_contact_data *data);
COSROD_API const cosrod_contact_point *cosrod_contact_points(const cosrod_contact_data *data);

/* Counters of the last evaluation: candidate pairs from the broad phase and
 * narrow-phase pairs in contact. */
COSROD_API void cosrod_contact_counts(const cosrod_contact_data *data, size_t *candidates, size_t *active);

/* Warnings of the last evaluation for summary.json: segment-obstacle pairs
 * whose exact closest distance penetrates while no Gauss point does (a
 * feature thinner than the Gauss spacing: raise the quadrature or refine the
 * rod), and the largest penetration as a fraction of the radius (the auto law
 * gives <= 0.015 under the rod's weight; tunnelling shows as missed contacts
 * or as a jump of this value). */
COSROD_API void cosrod_contact_warnings(const cosrod_contact_data *data, size_t *missed, double *max_penetration);

#ifdef __cplusplus
}
#endif

#endif /* COSROD_CONTACT_H */
