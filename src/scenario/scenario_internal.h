// SPDX-License-Identifier: Apache-2.0
/* Scenario loader internals shared by scenario.c (entry points, validation
 * order), scenario_bodies.c (bodies, joints), scenario_control.c (analysis,
 * solver, output), scenario_set.c (--set, line table), scenario_material.c
 * (materials, sections, damping), scenario_rod.c and scenario_rod_parts.c
 * (rods: ends, loads, shapes, keyframes) and scenario_util.c (messages, key
 * checks, typed value readers).
 * The validator unwinds with longjmp from sc_fail()/sc_nomem() to the single
 * exit point in scenario.c. */
#ifndef COSROD_SCENARIO_INTERNAL_H
#define COSROD_SCENARIO_INTERNAL_H
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "ynode.h"

#define SC_PI 3.14159265358979323846
#define PATH_MAX_LEN 512
#define PATH_DEPTH 128

struct cosrod_sc_lines {
  size_t n, cap;
  char **path;
  int *line;
};

/* At most this many problems are reported for one file. */
#define SC_MAX_ERRORS 20

typedef struct ctx {
  jmp_buf jb;   /* the exit point (fatal problems, the error limit) */
  jmp_buf *rec; /* innermost recovery point (SC_TRY) or NULL */
  int nerr;     /* problems recorded in err (one line each) */
  const char *file;
  char *err;
  size_t errlen;
  cosrod_status status;
  char path[PATH_MAX_LEN];
  size_t plen[PATH_DEPTH];
  int depth;
  cosrod_scenario *sc;
} ctx;

/* Value ranges for sc_num/sc_check_range (see scenario_util.c). */

enum { R_ANY, R_POS, R_NONNEG };

/* Small vector helpers. */
static inline double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
static inline double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
/* Hamilton product r = a b (r may alias a or b). */
static inline void qmul(double *r, const double *a, const double *b) {
  double t[4];
  t[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  t[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  t[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  t[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  memcpy(r, t, sizeof t);
}

/* Enum name tables (NULL-terminated). */
extern const char *const SC_MODEL_NAMES[];
extern const char *const SC_CURVATURE_NAMES[];
extern const char *const SC_SECTION_NAMES[];
extern const char *const SC_SHAPE_NAMES[];
extern const char *const SC_REFERENCE_NAMES[];
extern const char *const SC_END_NAMES[];
extern const char *const SC_LOAD_NAMES[];
extern const char *const SC_FRAME_NAMES[];
extern const char *const SC_PARAM_NAMES[];
extern const char *const SC_JOINT_NAMES[];
extern const char *const SC_ANALYSIS_NAMES[];
extern const char *const SC_FORMULATION_NAMES[];
extern const char *const SC_STAB_NAMES[];
extern const char *const SC_LINSOLVE_NAMES[];
extern const char *const SC_INTEGRATOR_NAMES[];
extern const char *const SC_CONVENTION_NAMES[];
extern const char *const SC_DAMPING_VARIANT_NAMES[];
extern const char *const SC_ROTARY_INERTIA_NAMES[];

/* scenario_util.c: messages and unwinding, key checks, typed readers;
 * scenario_rod.c: sc_read_materials, sc_read_rods. */
void sc_sanitize(char *s);
void sc_push(ctx *c, const char *comp);
void sc_push_idx(ctx *c, size_t i);
void sc_pop(ctx *c);
int sc_line_of(const ynode *n);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
_Noreturn void sc_fail(ctx *c, const ynode *n, const char *key, const char *fmt, ...);
_Noreturn void sc_nomem(ctx *c);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void sc_note(ctx *c, const ynode *n, const char *key, const char *fmt, ...);
void sc_recover(ctx *c, jmp_buf *prev, int depth);
/* Run stmt (a statement that does not change the caller's locals); a
 * problem reported inside it is recorded and the caller goes on after it
 * with the key path restored: for parts of a file that are independent of
 * each other (list entries, top-level sections).  sc_nomem and the error
 * limit still unwind to the exit point. */
#define SC_TRY(c, stmt)                      \
  do {                                       \
    jmp_buf sc_jb_, *sc_prev_ = (c)->rec;    \
    int sc_depth_ = (c)->depth;              \
    (c)->rec = &sc_jb_;                      \
    if (!setjmp(sc_jb_)) {                   \
      stmt;                                  \
    }                                        \
    sc_recover((c), sc_prev_, sc_depth_);    \
  } while (0)
void *sc_xcalloc(ctx *c, size_t n, size_t size);
char *sc_xstrdup(ctx *c, const char *s);
const char *sc_nearest(const char *s, const char *const *cand, size_t ncand);
void sc_expect_map(ctx *c, const ynode *n, const char *key, const char *what);
void sc_check_keys(ctx *c, ynode *map, const char *const *allowed);
/* sc_check_keys with the keys of `section` in the schema table (scenario_keys.c). */
void sc_check_section(ctx *c, ynode *map, const char *section);
/* Defaults from the table, by full path ("solver.rtol", "joints.N.damping"):
 * a number (NaN if not plain), a bool (-1 if not) or an enum index (-1). */
double sc_key_default_num(const char *path);
int sc_key_default_bool(const char *path);
const char *sc_key_default_str(const char *path);
int sc_key_default_enum(const char *path, const char *const *names);
void sc_check_unused(ctx *c, ynode *map, const char *why);
ynode *sc_get(ynode *map, const char *key);
ynode *sc_require(ctx *c, ynode *map, const char *key, const char *what);
const char *sc_kind_name(const ynode *v);
double sc_to_num(ctx *c, const ynode *v, const char *key);
long sc_to_int(ctx *c, const ynode *v, const char *key, long lo, long hi);
int sc_to_bool(ctx *c, const ynode *v, const char *key);
const char *sc_to_str(ctx *c, const ynode *v, const char *key);
void sc_to_name(ctx *c, const ynode *v, const char *key, char *out);
int sc_to_enum(ctx *c, const ynode *v, const char *key, const char *const *names);
void sc_check_range(ctx *c, const ynode *v, const char *key, double x, int range);
double sc_num(ctx *c, ynode *map, const char *key, double def, int range);
double sc_req_num(ctx *c, ynode *map, const char *key, int range, const char *what);
void sc_to_vec(ctx *c, const ynode *v, const char *key, double *out, size_t n, int range);
int sc_vec(ctx *c, ynode *map, const char *key, double *out, size_t n, int range);
void sc_unit_vec(ctx *c, ynode *map, const char *key, double *out);
void sc_unit_quat(ctx *c, const ynode *v, const char *key, double *q);
void sc_read_profile(ctx *c, const ynode *ramp, const ynode *active, cosrod_sc_profile *profile, double *t0,
                     double *t1);
int sc_body_index(ctx *c, const ynode *v, const char *key, int allow_ground);
/* Keyframes [[t, v...], ...] (dim 3 or 4) with strictly increasing t (scenario_rod.c). */
void sc_read_keyframes(ctx *c, ynode *v, const char *key, size_t dim, cosrod_sc_keyframes *kf);
void sc_read_materials(ctx *c, ynode *root);
void sc_read_rods(ctx *c, ynode *root);
/* scenario_material.c: one material map, a section map, rods.N.damping. */
void sc_read_material(ctx *c, ynode *m, cosrod_sc_material *mat);
void sc_read_section(ctx *c, ynode *m, cosrod_sc_section *s);
void sc_read_damping(ctx *c, ynode *m, cosrod_sc_rod *r);
/* scenario_rod_parts.c: parts of one rod entry. */
void sc_check_kirchhoff_keys(ctx *c, ynode *m, const cosrod_sc_rod *r);
void sc_read_end(ctx *c, ynode *m, cosrod_sc_end *e);
void sc_read_load(ctx *c, ynode *m, cosrod_sc_rod *r, cosrod_sc_load *ld);
void sc_read_shape(ctx *c, ynode *m, cosrod_sc_shape *sh);
/* scenario_bodies.c, scenario_control.c: top-level sections. */
void sc_read_bodies(ctx *c, ynode *root);
void sc_read_joints(ctx *c, ynode *root);
void sc_read_analysis(ctx *c, ynode *root);
void sc_read_solver(ctx *c, ynode *root);
void sc_read_output(ctx *c, ynode *root);
/* scenario_set.c: one --set override on the tree; the key -> line table. */
void sc_apply_set(ctx *c, ynode **rootp, const char *set);
void sc_lines_walk(ctx *c, cosrod_sc_lines *L, const ynode *n);
void sc_lines_free(cosrod_sc_lines *L);
/* scenario_static.c: analysis keys control, path, max_steps of a static
 * analysis (m the analysis map); after the rods: the checks of arc-length
 * control and t_end of a keyframe path. */
void sc_read_static_control(ctx *c, ynode *m);
/* scenario_contact.c: obstacles:, contact: and bodies.N.shape into c->sc->contact
 * (after the bodies: sets their has_shape / shape_obstacle). */
void sc_read_contact(ctx *c, ynode *root);
void sc_check_static_path(ctx *c, ynode *root);
void sc_check_static_support(ctx *c, ynode *root); /* after joints: unsupported parts refused */

#endif
