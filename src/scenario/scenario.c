/* Scenario loader: YAML schema version 1 (SPEC §7) -> cosrod_scenario.
 *
 * Pipeline: read the file -> ynode tree (ynode.c, libyaml) -> apply
 * `--set key.path=value` overrides on the tree -> validate every key and
 * fill the plain description with defaults and derived constants:
 *   sections (SPEC §2): circle A = pi r^2, I1 = I2 = pi r^4/4, J = pi r^4/2;
 *     rectangle A = w h, I1 = w h^3/12, I2 = h w^3/12, J = I1 + I2 (or given);
 *   stiffness C_Gamma = diag(k1 GA, k2 GA, EA), C_K = diag(EI1, EI2, GJ);
 *   Kelvin-Voigt ([LLT] eq. 4): V_Gamma = diag(tS k1GA, tS k2GA, tE EA),
 *     V_K = diag(tE EI1, tE EI2, tS GJ), tE = ((1-2nu) tB + 2(1+nu) tS)/3;
 *   [LLA] coefficients c give V = 2c (`convention: lla`);
 *   3-1-3 Euler angles -> quaternion q = qz(phi) qx(theta) qz(psi) ([L] §6).
 * The first problem found ends validation with one message
 * "FILE:LINE: key.path: problem"; the validator unwinds with longjmp to a
 * single exit point that frees everything (the tree, the partial scenario).
 * Unknown keys are errors with the nearest valid key suggested (optimal
 * string alignment distance). */
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

typedef struct ctx {
  jmp_buf jb;
  const char *file;
  char *err;
  size_t errlen;
  cosrod_status status;
  char path[PATH_MAX_LEN];
  size_t plen[PATH_DEPTH];
  int depth;
  cosrod_scenario *sc;
} ctx;

/* ---- messages ------------------------------------------------------------ */

/* Copy s into a message, replacing control bytes so the message stays one line. */
static void sanitize(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f) *s = '?';
}

static void write_error(char *err, size_t errlen, const char *file, int line, const char *path,
                        const char *problem) {
  if (!err || errlen == 0) return;
  snprintf(err, errlen, "%s:%d: %s: %s%s", file, line, path, problem, line == 0 ? " (from --set)" : "");
  sanitize(err);
}

static void push(ctx *c, const char *comp) {
  if (c->depth >= PATH_DEPTH) return; /* schema depth is far below */
  size_t len = strlen(c->path);
  c->plen[c->depth++] = len;
  snprintf(c->path + len, sizeof c->path - len, "%s%.60s", len ? "." : "", comp);
}
static void push_idx(ctx *c, size_t i) {
  char b[32];
  snprintf(b, sizeof b, "%zu", i);
  push(c, b);
}
static void pop(ctx *c) {
  if (c->depth > 0) c->path[c->plen[--c->depth]] = '\0';
}

static int line_of(const ynode *n) {
  if (!n) return 1;
  return n->kind == YN_SCALAR ? n->line : n->key_line;
}

/* Report a problem about `key` (NULL: the current path) at node n and unwind. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static _Noreturn void
fail(ctx *c, const ynode *n, const char *key, const char *fmt, ...) {
  char problem[400], path[PATH_MAX_LEN + 80];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (key)
    snprintf(path, sizeof path, "%s%s%.60s", c->path, c->path[0] ? "." : "", key);
  else
    snprintf(path, sizeof path, "%s", c->path[0] ? c->path : "(root)");
  write_error(c->err, c->errlen, c->file, line_of(n), path, problem);
  c->status = COSROD_ERR_PARSE;
  longjmp(c->jb, 1);
}

static _Noreturn void nomem(ctx *c) {
  if (c->err && c->errlen) snprintf(c->err, c->errlen, "%s:0: (root): out of memory", c->file);
  c->status = COSROD_ERR_NOMEM;
  longjmp(c->jb, 1);
}

static void *xcalloc(ctx *c, size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) nomem(c);
  return p;
}

static char *xstrdup(ctx *c, const char *s) {
  size_t n = strlen(s);
  char *p = malloc(n + 1);
  if (!p) nomem(c);
  memcpy(p, s, n + 1);
  return p;
}

/* ---- edit distance and key checks ----------------------------------------- */

/* Optimal string alignment distance (Levenshtein plus adjacent swaps). */
static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63) return 99;
  int d[64][64];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    for (size_t j = 1; j <= lb; j++) {
      int cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
      int v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  }
  return d[la][lb];
}

/* Nearest candidate to s, or NULL when nothing is reasonably close. */
static const char *nearest(const char *s, const char *const *cand, size_t ncand) {
  const char *best = NULL;
  int bd = 99;
  for (size_t i = 0; i < ncand; i++) {
    int d = edit_distance(s, cand[i]);
    if (d < bd) {
      bd = d;
      best = cand[i];
    }
  }
  size_t l = strlen(s);
  int limit = l <= 3 ? 1 : (l <= 6 ? 2 : 3);
  return bd <= limit ? best : NULL;
}

static size_t count_list(const char *const *list) {
  size_t n = 0;
  while (list[n]) n++;
  return n;
}

static int in_list(const char *s, const char *const *list) {
  for (size_t i = 0; list[i]; i++)
    if (!strcmp(s, list[i])) return 1;
  return 0;
}

static void expect_map(ctx *c, const ynode *n, const char *key, const char *what) {
  if (!n || n->kind != YN_MAP)
    fail(c, n, key, "expected a mapping (%s), got %s", what,
         !n                  ? "nothing"
         : n->kind == YN_SEQ ? "a sequence"
         : n->null           ? "null"
                             : "a scalar");
}

/* Every key of map must be one of `allowed` (NULL-terminated). */
static void check_keys(ctx *c, ynode *map, const char *const *allowed) {
  for (size_t i = 0; i < map->n; i++) {
    ynode *k = map->ent[i].key;
    if (strlen(k->str) != k->len || !in_list(k->str, allowed)) {
      const char *s = nearest(k->str, allowed, count_list(allowed));
      if (s)
        fail(c, k, k->str, "unknown key (did you mean '%s'?)", s);
      else
        fail(c, k, k->str, "unknown key");
    }
  }
}

/* After a typed mapping was read: a known key that the type does not use. */
static void check_unused(ctx *c, ynode *map, const char *why) {
  for (size_t i = 0; i < map->n; i++)
    if (!map->ent[i].used) fail(c, map->ent[i].key, map->ent[i].key->str, "not used %s", why);
}

/* Value of key in map (marks it used) or NULL. */
static ynode *get(ynode *map, const char *key) {
  yentry *e = yn_find(map, key);
  if (!e) return NULL;
  e->used = 1;
  return e->val;
}

static ynode *require(ctx *c, ynode *map, const char *key, const char *what) {
  ynode *v = get(map, key);
  if (!v) fail(c, map, key, "missing (%s)", what);
  return v;
}

/* ---- scalars -------------------------------------------------------------- */

static const char *kind_name(const ynode *v) {
  return v->kind == YN_MAP ? "a mapping" : v->kind == YN_SEQ ? "a sequence" : v->null ? "null" : "a string";
}

static double to_num(ctx *c, const ynode *v, const char *key) {
  if (v->kind != YN_SCALAR || v->null || v->quoted)
    fail(c, v, key, "expected a number, got %s", kind_name(v));
  if (v->len == 0 || strlen(v->str) != v->len) fail(c, v, key, "expected a number");
  char *end;
  errno = 0;
  double x = strtod(v->str, &end);
  if (end != v->str + v->len || end == v->str) {
    static const char *const special[] = {".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF", "-.inf",
                                          "-.Inf", "-.INF", "+.inf", "+.Inf", "+.INF", NULL};
    if (in_list(v->str, special)) fail(c, v, key, "must be a finite number (got '%s')", v->str);
    fail(c, v, key, "expected a number, got '%.40s'", v->str);
  }
  if (isnan(x)) fail(c, v, key, "must be a finite number (got NaN)");
  if (isinf(x)) fail(c, v, key, "must be a finite number (got '%.40s')", v->str);
  return x;
}

static long to_int(ctx *c, const ynode *v, const char *key, long lo, long hi) {
  double x = to_num(c, v, key);
  if (x != floor(x)) fail(c, v, key, "expected an integer, got %.15g", x);
  if (x < (double)lo) fail(c, v, key, "must be >= %ld (got %.15g)", lo, x);
  if (x > (double)hi) fail(c, v, key, "must be <= %ld (got %.15g)", hi, x);
  return (long)x;
}

static int to_bool(ctx *c, const ynode *v, const char *key) {
  if (v->kind == YN_SCALAR && !v->quoted) {
    const char *s = v->str;
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) return 1;
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) return 0;
  }
  fail(c, v, key, "expected true or false");
}

static const char *to_str(ctx *c, const ynode *v, const char *key) {
  if (v->kind != YN_SCALAR || v->null) fail(c, v, key, "expected a string, got %s", kind_name(v));
  if (strlen(v->str) != v->len) fail(c, v, key, "string contains a NUL byte");
  return v->str;
}

static void to_name(ctx *c, const ynode *v, const char *key, char *out) {
  const char *s = to_str(c, v, key);
  size_t n = strlen(s);
  if (n == 0) fail(c, v, key, "must not be empty");
  if (n >= COSROD_SC_NAME_MAX) fail(c, v, key, "too long (at most %d characters)", COSROD_SC_NAME_MAX - 1);
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) fail(c, v, key, "contains a control character");
  memcpy(out, s, n + 1);
}

/* Enum: index of the value in `names`; unknown values get a suggestion. */
static int to_enum(ctx *c, const ynode *v, const char *key, const char *const *names) {
  const char *s = to_str(c, v, key);
  for (int i = 0; names[i]; i++)
    if (!strcmp(s, names[i])) return i;
  char list[300] = "";
  size_t used = 0;
  for (int i = 0; names[i]; i++) {
    int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0 || (size_t)w >= sizeof list - used) break;
    used += (size_t)w;
  }
  const char *near = nearest(s, names, count_list(names));
  if (near) fail(c, v, key, "unknown value '%.40s' (did you mean '%s'?)", s, near);
  fail(c, v, key, "unknown value '%.40s' (expected one of: %s)", s, list);
}

enum { R_ANY, R_POS, R_NONNEG };

static void check_range(ctx *c, const ynode *v, const char *key, double x, int range) {
  if (range == R_POS && !(x > 0)) fail(c, v, key, "must be > 0 (got %.15g)", x);
  if (range == R_NONNEG && !(x >= 0)) fail(c, v, key, "must be >= 0 (got %.15g)", x);
}

/* Optional number with default and range. */
static double num(ctx *c, ynode *map, const char *key, double def, int range) {
  ynode *v = get(map, key);
  if (!v) return def;
  double x = to_num(c, v, key);
  check_range(c, v, key, x, range);
  return x;
}

static double req_num(ctx *c, ynode *map, const char *key, int range, const char *what) {
  ynode *v = require(c, map, key, what);
  double x = to_num(c, v, key);
  check_range(c, v, key, x, range);
  return x;
}

/* Fixed-length numeric vector v (a sequence of n numbers) into out. */
static void to_vec(ctx *c, const ynode *v, const char *key, double *out, size_t n, int range) {
  if (v->kind != YN_SEQ) fail(c, v, key, "expected a list of %zu numbers, got %s", n, kind_name(v));
  if (v->n != n) fail(c, v, key, "expected %zu numbers, got %zu", n, v->n);
  if (key) push(c, key);
  for (size_t i = 0; i < n; i++) {
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", i);
    out[i] = to_num(c, v->item[i], idx);
    check_range(c, v->item[i], idx, out[i], range);
  }
  if (key) pop(c);
}

/* Optional vector: returns 1 if given. */
static int vec(ctx *c, ynode *map, const char *key, double *out, size_t n, int range) {
  ynode *v = get(map, key);
  if (!v) return 0;
  to_vec(c, v, key, out, n, range);
  return 1;
}

static double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* A nonzero direction, normalised in place. */
static void unit_vec(ctx *c, ynode *map, const char *key, double *out) {
  ynode *v = get(map, key);
  double n = norm3(out);
  if (n < 1e-12) fail(c, v ? v : map, key, "must be a nonzero vector");
  for (int i = 0; i < 3; i++) out[i] /= n;
}

static void qmul(double *r, const double *a, const double *b) {
  double t[4];
  t[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  t[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  t[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  t[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  memcpy(r, t, sizeof t);
}

/* Normalise a quaternion given at node v (error if ~zero). */
static void unit_quat(ctx *c, const ynode *v, const char *key, double *q) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 1e-8)) fail(c, v, key, "quaternion must be nonzero (|q| = %.3g)", n);
  for (int i = 0; i < 4; i++) q[i] /= n;
}

/* ---- enum names ------------------------------------------------------------ */

static const char *const MODEL_NAMES[] = {"cosserat", "kirchhoff-extensible", "kirchhoff-inextensible", NULL};
static const char *const CURVATURE_NAMES[] = {"sine-2", "sine-4", "tangent-2", "tangent-4", "angle", NULL};
static const char *const SECTION_NAMES[] = {"circle", "rectangle", "custom", NULL};
static const char *const SHAPE_NAMES[] = {"straight", "arc", "helix", "polyline", NULL};
static const char *const REFERENCE_NAMES[] = {"initial", "straight", NULL};
static const char *const END_NAMES[] = {"free", "pinned", "clamped", "prescribed", NULL};
static const char *const LOAD_NAMES[] = {"force", "moment", "distributed_force", NULL};
static const char *const FRAME_NAMES[] = {"spatial", "material", NULL};
static const char *const PARAM_NAMES[] = {"quaternion", "directors", "euler-angles", NULL};
static const char *const JOINT_NAMES[] = {"spherical", "revolute", "prismatic", "cylindrical",
                                          "planar",    "bushing",  NULL};
static const char *const ANALYSIS_NAMES[] = {"dynamic", "static", "modes", NULL};
static const char *const FORMULATION_NAMES[] = {"nullspace", "absolute", "dae", NULL};
static const char *const STAB_NAMES[] = {"projection", "baumgarte", "none", NULL};
static const char *const INTEGRATOR_NAMES[] = {"radau5", "rodas", "seulex", "dopri5",
                                               "dop853", "ida",   "cvode",  NULL};
static const char *const CONVENTION_NAMES[] = {"viscous", "lla", NULL};

const char *cosrod_sc_curvature_name(cosrod_sc_curvature v) {
  return (unsigned)v < 5 ? CURVATURE_NAMES[v] : "?";
}
const char *cosrod_sc_integrator_name(cosrod_sc_integrator v) {
  return (unsigned)v < 7 ? INTEGRATOR_NAMES[v] : "?";
}
const char *cosrod_sc_model_name(cosrod_sc_model v) { return (unsigned)v < 3 ? MODEL_NAMES[v] : "?"; }

/* ---- materials ------------------------------------------------------------- */

static void read_material(ctx *c, ynode *m, cosrod_sc_material *mat) {
  static const char *const keys[] = {"E", "G", "poisson", "density", NULL};
  expect_map(c, m, NULL, "E, poisson or G, density");
  check_keys(c, m, keys);
  mat->line = m->key_line;
  mat->E = req_num(c, m, "E", R_POS, "Young's modulus E [Pa]");
  ynode *vg = get(m, "G"), *vp = get(m, "poisson");
  if (vg && vp) fail(c, vg, "G", "give either 'G' or 'poisson', not both");
  if (!vg && !vp) fail(c, m, "poisson", "missing (Poisson ratio, or give shear modulus 'G')");
  if (vp) {
    double nu = to_num(c, vp, "poisson");
    if (!(nu >= 0.0 && nu <= 0.5)) fail(c, vp, "poisson", "must be in [0, 0.5] (got %.15g)", nu);
    mat->poisson = nu;
    mat->G = mat->E / (2.0 * (1.0 + nu));
  } else {
    double G = to_num(c, vg, "G");
    check_range(c, vg, "G", G, R_POS);
    double nu = mat->E / (2.0 * G) - 1.0;
    if (!(nu >= -1e-12 && nu <= 0.5 + 1e-12))
      fail(c, vg, "G", "gives Poisson ratio E/(2G) - 1 = %.6g outside [0, 0.5]", nu);
    mat->G = G;
    mat->poisson = nu < 0 ? 0 : (nu > 0.5 ? 0.5 : nu);
  }
  mat->density = req_num(c, m, "density", R_POS, "density [kg/m^3]");
}

static void read_materials(ctx *c, ynode *root) {
  ynode *ms = get(root, "materials");
  if (!ms) return;
  push(c, "materials");
  expect_map(c, ms, NULL, "name: {E, poisson, density}");
  cosrod_scenario *sc = c->sc;
  sc->materials = xcalloc(c, ms->n, sizeof *sc->materials);
  for (size_t i = 0; i < ms->n; i++) {
    ynode *k = ms->ent[i].key;
    push(c, k->str);
    to_name(c, k, NULL, sc->materials[i].name);
    read_material(c, ms->ent[i].val, &sc->materials[i]);
    sc->nmaterials++;
    pop(c);
  }
  pop(c);
}

/* ---- rods ------------------------------------------------------------------ */

static void read_section(ctx *c, ynode *m, cosrod_sc_section *s) {
  static const char *const keys[] = {"shape", "radius", "width", "height", "torsion_constant",
                                     "area",  "I1",     "I2",    "J",      NULL};
  expect_map(c, m, NULL, "shape: circle | rectangle | custom");
  check_keys(c, m, keys);
  s->shape = (cosrod_sc_section_shape)to_enum(c, require(c, m, "shape", "circle, rectangle or custom"),
                                              "shape", SECTION_NAMES);
  switch (s->shape) {
    case COSROD_SC_SECTION_CIRCLE: {
      double r = req_num(c, m, "radius", R_POS, "radius [m]");
      s->radius = r;
      s->area = SC_PI * r * r;
      s->I1 = s->I2 = SC_PI * r * r * r * r / 4.0;
      s->J = SC_PI * r * r * r * r / 2.0;
      check_unused(c, m, "with shape: circle");
      break;
    }
    case COSROD_SC_SECTION_RECTANGLE: {
      double w = req_num(c, m, "width", R_POS, "width along d1 [m]");
      double h = req_num(c, m, "height", R_POS, "height along d2 [m]");
      s->width = w;
      s->height = h;
      s->area = w * h;
      s->I1 = w * h * h * h / 12.0;
      s->I2 = h * w * w * w / 12.0;
      s->torsion_constant = num(c, m, "torsion_constant", 0.0, R_POS);
      s->J = s->torsion_constant > 0 ? s->torsion_constant : s->I1 + s->I2;
      check_unused(c, m, "with shape: rectangle");
      break;
    }
    default:
      s->area = req_num(c, m, "area", R_POS, "area [m^2]");
      s->I1 = req_num(c, m, "I1", R_POS, "second moment about d1 [m^4]");
      s->I2 = req_num(c, m, "I2", R_POS, "second moment about d2 [m^4]");
      s->J = req_num(c, m, "J", R_POS, "torsion constant [m^4]");
      check_unused(c, m, "with shape: custom");
      break;
  }
}

static void read_damping(ctx *c, ynode *m, cosrod_sc_rod *r) {
  static const char *const keys[] = {"kelvin_voigt", "coefficients", NULL};
  cosrod_sc_damping *d = &r->damping;
  expect_map(c, m, NULL, "kelvin_voigt or coefficients");
  check_keys(c, m, keys);
  ynode *kv = get(m, "kelvin_voigt"), *co = get(m, "coefficients");
  if (kv && co) fail(c, co, "coefficients", "give either 'kelvin_voigt' or 'coefficients', not both");
  if (!kv && !co) fail(c, m, "kelvin_voigt", "missing (or 'coefficients')");
  if (kv) {
    static const char *const kvk[] = {"tau_shear", "tau_bulk", NULL};
    push(c, "kelvin_voigt");
    expect_map(c, kv, NULL, "tau_shear, tau_bulk");
    check_keys(c, kv, kvk);
    d->kind = COSROD_SC_DAMPING_KELVIN_VOIGT;
    d->tau_shear = req_num(c, kv, "tau_shear", R_NONNEG, "shear retardation time [s]");
    d->tau_bulk = req_num(c, kv, "tau_bulk", R_NONNEG, "bulk retardation time [s]");
    pop(c);
  } else {
    static const char *const cok[] = {"shear", "extension", "bending", "torsion", "convention", NULL};
    push(c, "coefficients");
    expect_map(c, co, NULL, "shear, extension, bending, torsion");
    check_keys(c, co, cok);
    d->kind = COSROD_SC_DAMPING_COEFFICIENTS;
    vec(c, co, "shear", d->shear, 2, R_NONNEG);
    d->extension = num(c, co, "extension", 0.0, R_NONNEG);
    vec(c, co, "bending", d->bending, 2, R_NONNEG);
    d->torsion = num(c, co, "torsion", 0.0, R_NONNEG);
    ynode *cv = get(co, "convention");
    d->lla_convention = cv ? to_enum(c, cv, "convention", CONVENTION_NAMES) : 0;
    pop(c);
  }
}

/* Keyframes [[t, v...], ...] with strictly increasing t. */
static void read_keyframes(ctx *c, ynode *v, const char *key, size_t dim, cosrod_sc_keyframes *kf) {
  if (v->kind != YN_SEQ || v->n == 0)
    fail(c, v, key, "expected a non-empty list of [t, %s] rows", dim == 3 ? "x, y, z" : "q0, q1, q2, q3");
  push(c, key);
  kf->t = xcalloc(c, v->n, sizeof(double));
  kf->values = xcalloc(c, v->n * dim, sizeof(double));
  for (size_t i = 0; i < v->n; i++) {
    double row[5];
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", i);
    to_vec(c, v->item[i], idx, row, dim + 1, R_ANY);
    if (i > 0 && !(row[0] > kf->t[i - 1]))
      fail(c, v->item[i], idx, "keyframe times must increase strictly (%.15g after %.15g)", row[0],
           kf->t[i - 1]);
    if (dim == 4) {
      unit_quat(c, v->item[i], idx, row + 1);
      if (i > 0) {
        const double *p = kf->values + (i - 1) * 4;
        double s = 0;
        for (int k = 0; k < 4; k++) s += (p[k] + row[1 + k]) * (p[k] + row[1 + k]);
        if (s < 1e-16) fail(c, v->item[i], idx, "antipodal to the previous keyframe (slerp undefined)");
      }
    }
    kf->t[i] = row[0];
    memcpy(kf->values + i * dim, row + 1, dim * sizeof(double));
    kf->n++;
  }
  pop(c);
}

static int body_index(ctx *c, const ynode *v, const char *key, int allow_ground) {
  const char *s = to_str(c, v, key);
  if (allow_ground && !strcmp(s, "ground")) return -1;
  cosrod_scenario *sc = c->sc;
  const char *names[64];
  size_t nn = 0;
  for (size_t i = 0; i < sc->nbodies; i++) {
    if (!strcmp(sc->bodies[i].name, s)) return (int)i;
    if (nn < 63) names[nn++] = sc->bodies[i].name;
  }
  if (allow_ground) names[nn++] = "ground";
  const char *near = nearest(s, names, nn);
  if (near) fail(c, v, key, "no body named '%.40s' (did you mean '%s'?)", s, near);
  fail(c, v, key, "no body named '%.40s'%s", s,
       allow_ground ? " (bodies are listed under 'bodies'; 'ground' is fixed space)" : "");
}

static void read_end(ctx *c, ynode *m, cosrod_sc_end *e) {
  static const char *const keys[] = {"type", "slides_along", "body", "at", "position", "orientation", NULL};
  expect_map(c, m, NULL, "type: free | pinned | clamped | prescribed");
  check_keys(c, m, keys);
  e->line = m->key_line;
  e->body = -1;
  ynode *t = get(m, "type");
  e->type = t ? (cosrod_sc_end_type)to_enum(c, t, "type", END_NAMES) : COSROD_SC_END_FREE;
  if (e->type == COSROD_SC_END_FREE) {
    check_unused(c, m, "with type: free");
    return;
  }
  if (vec(c, m, "slides_along", e->slides_along, 3, R_ANY)) {
    e->slides = 1;
    unit_vec(c, m, "slides_along", e->slides_along);
  }
  if (e->type == COSROD_SC_END_PRESCRIBED) {
    ynode *p = get(m, "position"), *o = get(m, "orientation");
    if (!p && !o)
      fail(c, m, "position", "missing (a prescribed end needs position and/or orientation keyframes)");
    if (p) read_keyframes(c, p, "position", 3, &e->position);
    if (o) read_keyframes(c, o, "orientation", 4, &e->orientation);
    check_unused(c, m, "with type: prescribed");
    return;
  }
  ynode *b = get(m, "body");
  if (b) {
    e->body = body_index(c, b, "body", 0);
    vec(c, m, "at", e->at, 3, R_ANY);
  }
  check_unused(c, m, b ? "with this end type" : "without 'body'");
}

static void read_load(ctx *c, ynode *m, cosrod_sc_rod *r, cosrod_sc_load *ld) {
  static const char *const keys[] = {"type", "at", "value", "frame", "ramp", "active", "preload", NULL};
  expect_map(c, m, NULL, "type, at, value, frame");
  check_keys(c, m, keys);
  ld->line = m->key_line;
  ld->type = (cosrod_sc_load_type)to_enum(c, require(c, m, "type", "force, moment or distributed_force"),
                                          "type", LOAD_NAMES);
  to_vec(c, require(c, m, "value", "vector [N], [N m] or [N/m]"), "value", ld->value, 3, R_ANY);
  ynode *fr = get(m, "frame");
  ld->frame = fr ? (cosrod_sc_frame)to_enum(c, fr, "frame", FRAME_NAMES) : COSROD_SC_FRAME_SPATIAL;
  if (ld->type == COSROD_SC_LOAD_DISTRIBUTED_FORCE) {
    ld->vertex = -1;
  } else {
    ynode *at = require(c, m, "at", "start, end or a vertex index");
    if (at->kind == YN_SCALAR && !at->quoted && !strcmp(at->str, "start"))
      ld->vertex = 0;
    else if (at->kind == YN_SCALAR && !at->quoted && !strcmp(at->str, "end"))
      ld->vertex = (long)r->segments;
    else if (at->kind == YN_SCALAR && !at->quoted && !at->null &&
             (isdigit((unsigned char)at->str[0]) || at->str[0] == '-'))
      ld->vertex = to_int(c, at, "at", 0, (long)r->segments);
    else
      fail(c, at, "at", "expected start, end or a vertex index 0..%zu", r->segments);
  }
  ynode *rp = get(m, "ramp"), *ac = get(m, "active"), *pl = get(m, "preload");
  int preload = pl ? to_bool(c, pl, "preload") : 0;
  if (rp && ac) fail(c, ac, "active", "give either 'ramp' or 'active', not both");
  if (preload && (rp || ac)) fail(c, pl, "preload", "cannot be combined with 'ramp' or 'active'");
  ld->profile = COSROD_SC_PROFILE_CONSTANT;
  if (rp || ac) {
    double iv[2];
    to_vec(c, rp ? rp : ac, rp ? "ramp" : "active", iv, 2, R_ANY);
    if (!(iv[1] > iv[0]))
      fail(c, rp ? rp : ac, rp ? "ramp" : "active", "needs t0 < t1 (got [%.15g, %.15g])", iv[0], iv[1]);
    ld->t0 = iv[0];
    ld->t1 = iv[1];
    ld->profile = rp ? COSROD_SC_PROFILE_RAMP : COSROD_SC_PROFILE_ACTIVE;
  }
  if (preload) {
    const cosrod_sc_analysis *an = &c->sc->analysis;
    if (an->type != COSROD_SC_ANALYSIS_DYNAMIC || !an->start_from_equilibrium)
      fail(c, pl, "preload", "needs a dynamic analysis with start_from_equilibrium: true");
    ld->profile = COSROD_SC_PROFILE_PRELOAD;
  }
  check_unused(c, m, "with this load type (distributed loads act on the whole rod)");
}

static void read_shape(ctx *c, ynode *m, cosrod_sc_shape *sh) {
  static const char *const keys[] = {"type",      "start", "direction", "normal", "radius",
                                     "angle_deg", "pitch", "turns",     "points", NULL};
  sh->direction[2] = 1.0; /* default frame: d3 = e3, d1 = e1 */
  sh->normal[0] = 1.0;
  if (!m) return;
  expect_map(c, m, NULL, "type: straight | arc | helix | polyline");
  check_keys(c, m, keys);
  ynode *t = get(m, "type");
  sh->kind = t ? (cosrod_sc_shape_kind)to_enum(c, t, "type", SHAPE_NAMES) : COSROD_SC_SHAPE_STRAIGHT;
  vec(c, m, "normal", sh->normal, 3, R_ANY);
  unit_vec(c, m, "normal", sh->normal);
  if (sh->kind == COSROD_SC_SHAPE_POLYLINE) {
    ynode *p = require(c, m, "points", "list of [x, y, z]");
    if (!get(m, "normal")) fail(c, m, "normal", "missing (d1 at the first point)");
    if (p->kind != YN_SEQ || p->n < 2) fail(c, p, "points", "expected a list of at least 2 points [x, y, z]");
    push(c, "points");
    sh->points = xcalloc(c, p->n * 3, sizeof(double));
    for (size_t i = 0; i < p->n; i++) {
      char idx[24];
      snprintf(idx, sizeof idx, "%zu", i);
      to_vec(c, p->item[i], idx, sh->points + 3 * i, 3, R_ANY);
      sh->npoints++;
      if (i > 0) {
        double d[3];
        for (int k = 0; k < 3; k++) d[k] = sh->points[3 * i + k] - sh->points[3 * i - 3 + k];
        double l = norm3(d);
        if (!(l > 0)) fail(c, p->item[i], idx, "repeats the previous point");
        sh->length += l;
      }
    }
    pop(c);
    memcpy(sh->start, sh->points, 3 * sizeof(double));
    for (int k = 0; k < 3; k++) sh->direction[k] = sh->points[3 + k] - sh->points[k];
    double l = norm3(sh->direction);
    for (int k = 0; k < 3; k++) sh->direction[k] /= l;
  } else {
    vec(c, m, "start", sh->start, 3, R_ANY);
    vec(c, m, "direction", sh->direction, 3, R_ANY);
    unit_vec(c, m, "direction", sh->direction);
    if (sh->kind == COSROD_SC_SHAPE_ARC) {
      sh->radius = req_num(c, m, "radius", R_POS, "radius [m]");
      sh->angle_deg = req_num(c, m, "angle_deg", R_POS, "angle [deg]");
      sh->length = sh->radius * sh->angle_deg * SC_PI / 180.0;
    } else if (sh->kind == COSROD_SC_SHAPE_HELIX) {
      sh->radius = req_num(c, m, "radius", R_POS, "radius [m]");
      sh->pitch = req_num(c, m, "pitch", R_NONNEG, "rise per turn [m]");
      sh->turns = req_num(c, m, "turns", R_POS, "number of turns");
      double per = hypot(2.0 * SC_PI * sh->radius, sh->pitch);
      sh->length = sh->turns * per;
    }
  }
  double cs = dot3(sh->direction, sh->normal);
  if (fabs(cs) > 1e-6)
    fail(c, get(m, "normal") ? get(m, "normal") : m, "normal",
         "must be perpendicular to the direction (cos angle = %.3g)", cs);
  if (!isfinite(sh->length)) fail(c, m, NULL, "shape length is not finite");
  check_unused(c, m, "with this shape type");
}

static void read_rod(ctx *c, ynode *m, size_t index, cosrod_sc_rod *r) {
  static const char *const keys[] = {
      "name",      "model",   "length",    "segments", "grid",  "material",  "section", "shear_correction",
      "stiffness", "inertia", "curvature", "damping",  "shape", "reference", "ends",    "loads",
      NULL};
  cosrod_scenario *sc = c->sc;
  expect_map(c, m, NULL, "a rod");
  check_keys(c, m, keys);
  r->line = m->key_line;
  r->ends[0].body = r->ends[1].body = -1;
  ynode *v;
  if ((v = get(m, "name"))) {
    to_name(c, v, "name", r->name);
    for (size_t i = 0; i < index; i++)
      if (!strcmp(sc->rods[i].name, r->name)) fail(c, v, "name", "duplicate rod name '%s'", r->name);
  } else {
    snprintf(r->name, sizeof r->name, "rod%zu", index);
  }
  r->model =
      (v = get(m, "model")) ? (cosrod_sc_model)to_enum(c, v, "model", MODEL_NAMES) : COSROD_SC_MODEL_COSSERAT;
  r->curvature = (v = get(m, "curvature")) ? (cosrod_sc_curvature)to_enum(c, v, "curvature", CURVATURE_NAMES)
                                           : COSROD_SC_CURVATURE_TANGENT2;
  r->reference = (v = get(m, "reference")) ? (cosrod_sc_reference)to_enum(c, v, "reference", REFERENCE_NAMES)
                                           : COSROD_SC_REFERENCE_INITIAL;

  /* material: a name or an inline mapping */
  v = require(c, m, "material", "a material name or {E, poisson, density}");
  if (v->kind == YN_MAP) {
    push(c, "material");
    read_material(c, v, &r->material);
    pop(c);
  } else {
    const char *s = to_str(c, v, "material");
    size_t i;
    for (i = 0; i < sc->nmaterials; i++)
      if (!strcmp(sc->materials[i].name, s)) break;
    if (i == sc->nmaterials) {
      const char *names[64];
      size_t nn = 0;
      for (size_t j = 0; j < sc->nmaterials && nn < 64; j++) names[nn++] = sc->materials[j].name;
      const char *near = nearest(s, names, nn);
      if (near) fail(c, v, "material", "no material named '%.40s' (did you mean '%s'?)", s, near);
      fail(c, v, "material", "no material named '%.40s' under 'materials'", s);
    }
    r->material = sc->materials[i];
  }

  /* shape first: it may supply the length */
  push(c, "shape");
  read_shape(c, get(m, "shape"), &r->shape);
  pop(c);

  /* discretisation */
  ynode *vs = get(m, "segments"), *vg = get(m, "grid"), *vl = get(m, "length");
  if (vs && vg) fail(c, vg, "grid", "give either 'segments' or 'grid', not both");
  double length = 0;
  if (vl) {
    length = to_num(c, vl, "length");
    check_range(c, vl, "length", length, R_POS);
  }
  if (vg) {
    if (vg->kind != YN_SEQ || vg->n < 2)
      fail(c, vg, "grid", "expected a list of at least 2 arc lengths [s_0, ..., s_N]");
    if (vg->n - 1 > COSROD_SC_MAX_SEGMENTS)
      fail(c, vg, "grid", "too many segments (%zu > %d)", vg->n - 1, COSROD_SC_MAX_SEGMENTS);
    r->segments = vg->n - 1;
    r->grid_given = 1;
    r->grid = xcalloc(c, vg->n, sizeof(double));
    push(c, "grid");
    for (size_t i = 0; i < vg->n; i++) {
      char idx[24];
      snprintf(idx, sizeof idx, "%zu", i);
      r->grid[i] = to_num(c, vg->item[i], idx);
      if (i > 0 && !(r->grid[i] > r->grid[i - 1]))
        fail(c, vg->item[i], idx, "grid must increase strictly (%.15g after %.15g)", r->grid[i],
             r->grid[i - 1]);
    }
    pop(c);
    double lg = r->grid[r->segments] - r->grid[0];
    if (!isfinite(lg)) fail(c, vg, "grid", "length s_N - s_0 is not finite");
    if (vl && fabs(length - lg) > 1e-9 * lg)
      fail(c, vl, "length", "%.15g disagrees with the grid length s_N - s_0 = %.15g", length, lg);
    length = lg;
  } else {
    if (vs)
      r->segments = (size_t)to_int(c, vs, "segments", 1, COSROD_SC_MAX_SEGMENTS);
    else
      r->segments = r->shape.kind == COSROD_SC_SHAPE_POLYLINE ? r->shape.npoints - 1 : 10;
    if (r->segments > COSROD_SC_MAX_SEGMENTS)
      fail(c, m, "segments", "too many segments (%zu > %d)", r->segments, COSROD_SC_MAX_SEGMENTS);
    if (!vl) {
      if (r->reference == COSROD_SC_REFERENCE_INITIAL && r->shape.length > 0)
        length = r->shape.length;
      else
        fail(
            c, m, "length", "missing (give 'length' or 'grid'%s)",
            r->reference == COSROD_SC_REFERENCE_INITIAL ? "; a straight shape has no length of its own" : "");
    }
    r->grid = xcalloc(c, r->segments + 1, sizeof(double));
    for (size_t i = 0; i <= r->segments; i++) r->grid[i] = length * (double)i / (double)r->segments;
  }
  r->length = length;

  /* section, stiffness, inertia */
  r->shear_correction[0] = r->shear_correction[1] = 1.0;
  vec(c, m, "shear_correction", r->shear_correction, 2, R_POS);
  static const char *const stiff_keys[] = {"EA", "GA1", "GA2", "EI1", "EI2", "GJ", NULL};
  static const char *const inert_keys[] = {"rhoA", "rhoI1", "rhoI2", "rhoJ", NULL};
  ynode *vst = get(m, "stiffness"), *vin = get(m, "inertia");
  double stiff[6] = {0}, inert[4] = {0};
  if (vst) {
    push(c, "stiffness");
    expect_map(c, vst, NULL, "EA, GA1, GA2, EI1, EI2, GJ");
    check_keys(c, vst, stiff_keys);
    for (unsigned k = 0; k < 6; k++)
      if (get(vst, stiff_keys[k])) {
        stiff[k] = num(c, vst, stiff_keys[k], 0, R_POS);
        r->stiffness_overridden |= 1u << k;
      }
    pop(c);
  }
  if (vin) {
    push(c, "inertia");
    expect_map(c, vin, NULL, "rhoA, rhoI1, rhoI2, rhoJ");
    check_keys(c, vin, inert_keys);
    for (unsigned k = 0; k < 4; k++)
      if (get(vin, inert_keys[k])) {
        inert[k] = num(c, vin, inert_keys[k], 0, R_POS);
        r->inertia_overridden |= 1u << k;
      }
    pop(c);
  }
  ynode *vsec = get(m, "section");
  if (vsec) {
    push(c, "section");
    read_section(c, vsec, &r->section);
    pop(c);
  } else if (r->stiffness_overridden != 0x3fu || r->inertia_overridden != 0xfu) {
    fail(c, m, "section",
         "missing (circle, rectangle or custom; may be omitted only when all of stiffness "
         "and inertia are given)");
  }
  const cosrod_sc_section *s = &r->section;
  const cosrod_sc_material *mt = &r->material;
  double derived_s[6] = {mt->E * s->area,
                         r->shear_correction[0] * mt->G * s->area,
                         r->shear_correction[1] * mt->G * s->area,
                         mt->E * s->I1,
                         mt->E * s->I2,
                         mt->G * s->J};
  double derived_i[4] = {mt->density * s->area, mt->density * s->I1, mt->density * s->I2, mt->density * s->J};
  for (unsigned k = 0; k < 6; k++)
    if (r->stiffness_overridden & (1u << k)) derived_s[k] = stiff[k];
  for (unsigned k = 0; k < 4; k++)
    if (r->inertia_overridden & (1u << k)) derived_i[k] = inert[k];
  r->EA = derived_s[0];
  r->GA1 = derived_s[1];
  r->GA2 = derived_s[2];
  r->EI1 = derived_s[3];
  r->EI2 = derived_s[4];
  r->GJ = derived_s[5];
  r->rhoA = derived_i[0];
  r->rhoI1 = derived_i[1];
  r->rhoI2 = derived_i[2];
  r->rhoJ = derived_i[3];
  for (int k = 0; k < 6; k++)
    if (!isfinite(derived_s[k]) || !(derived_s[k] > 0))
      fail(c, m, "stiffness", "derived stiffness %s = %.6g is not a positive finite number", stiff_keys[k],
           derived_s[k]);
  for (int k = 0; k < 4; k++)
    if (!isfinite(derived_i[k]) || !(derived_i[k] > 0))
      fail(c, m, "inertia", "derived inertia %s = %.6g is not a positive finite number", inert_keys[k],
           derived_i[k]);

  /* damping */
  if ((v = get(m, "damping"))) {
    push(c, "damping");
    read_damping(c, v, r);
    pop(c);
    cosrod_sc_damping *d = &r->damping;
    if (d->kind == COSROD_SC_DAMPING_KELVIN_VOIGT) {
      double nu = mt->poisson;
      d->tau_extension = ((1.0 - 2.0 * nu) * d->tau_bulk + 2.0 * (1.0 + nu) * d->tau_shear) / 3.0;
      d->V_gamma[0] = d->tau_shear * r->GA1;
      d->V_gamma[1] = d->tau_shear * r->GA2;
      d->V_gamma[2] = d->tau_extension * r->EA;
      d->V_kappa[0] = d->tau_extension * r->EI1;
      d->V_kappa[1] = d->tau_extension * r->EI2;
      d->V_kappa[2] = d->tau_shear * r->GJ;
    } else {
      double f = d->lla_convention ? 2.0 : 1.0;
      d->V_gamma[0] = f * d->shear[0];
      d->V_gamma[1] = f * d->shear[1];
      d->V_gamma[2] = f * d->extension;
      d->V_kappa[0] = f * d->bending[0];
      d->V_kappa[1] = f * d->bending[1];
      d->V_kappa[2] = f * d->torsion;
    }
    for (int k = 0; k < 3; k++)
      if (!isfinite(d->V_gamma[k]) || !isfinite(d->V_kappa[k]))
        fail(c, v, "damping", "viscous coefficients are not finite");
  }

  /* ends */
  if ((v = get(m, "ends"))) {
    static const char *const ek[] = {"start", "end", NULL};
    push(c, "ends");
    expect_map(c, v, NULL, "start, end");
    check_keys(c, v, ek);
    for (int k = 0; k < 2; k++) {
      ynode *e = get(v, ek[k]);
      if (!e) continue;
      push(c, ek[k]);
      read_end(c, e, &r->ends[k]);
      pop(c);
    }
    pop(c);
  }

  /* loads */
  if ((v = get(m, "loads"))) {
    if (v->kind != YN_SEQ) fail(c, v, "loads", "expected a list of loads, got %s", kind_name(v));
    push(c, "loads");
    r->loads = xcalloc(c, v->n, sizeof *r->loads);
    for (size_t i = 0; i < v->n; i++) {
      push_idx(c, i);
      read_load(c, v->item[i], r, &r->loads[i]);
      r->nloads++;
      pop(c);
    }
    pop(c);
  }
}

static void read_rods(ctx *c, ynode *root) {
  ynode *rs = get(root, "rods");
  if (!rs) return;
  if (rs->kind != YN_SEQ) fail(c, rs, "rods", "expected a list of rods, got %s", kind_name(rs));
  push(c, "rods");
  cosrod_scenario *sc = c->sc;
  sc->rods = xcalloc(c, rs->n, sizeof *sc->rods);
  for (size_t i = 0; i < rs->n; i++) {
    push_idx(c, i);
    sc->nrods++;
    read_rod(c, rs->item[i], i, &sc->rods[i]);
    pop(c);
  }
  pop(c);
}

/* ---- bodies and joints ------------------------------------------------------ */

static void read_body(ctx *c, ynode *m, size_t index, cosrod_sc_body *b) {
  static const char *const keys[] = {"name",        "mass",     "inertia",          "position",
                                     "orientation", "velocity", "angular_velocity", "parametrisation",
                                     NULL};
  expect_map(c, m, NULL, "a rigid body");
  check_keys(c, m, keys);
  b->line = m->key_line;
  ynode *v = require(c, m, "name", "body name");
  to_name(c, v, "name", b->name);
  if (!strcmp(b->name, "ground")) fail(c, v, "name", "'ground' is reserved for fixed space");
  for (size_t i = 0; i < index; i++)
    if (!strcmp(c->sc->bodies[i].name, b->name)) fail(c, v, "name", "duplicate body name '%s'", b->name);
  b->mass = req_num(c, m, "mass", R_POS, "mass [kg]");
  v = require(c, m, "inertia", "principal moments [I1, I2, I3] about the centre of mass");
  to_vec(c, v, "inertia", b->inertia, 3, R_POS);
  for (int k = 0; k < 3; k++) {
    double a = b->inertia[k], o = b->inertia[(k + 1) % 3] + b->inertia[(k + 2) % 3];
    if (a > o * (1.0 + 1e-12))
      fail(c, v, "inertia", "violates the triangle inequality (I%d = %.6g > %.6g, the sum of the others)",
           k + 1, a, o);
  }
  vec(c, m, "position", b->position, 3, R_ANY);
  vec(c, m, "velocity", b->velocity, 3, R_ANY);
  vec(c, m, "angular_velocity", b->angular_velocity, 3, R_ANY);
  b->quaternion[0] = 1.0;
  if ((v = get(m, "orientation"))) {
    static const char *const ok[] = {"quaternion", "euler313", NULL};
    push(c, "orientation");
    expect_map(c, v, NULL, "quaternion: [q0, q1, q2, q3] or euler313: [phi, theta, psi]");
    check_keys(c, v, ok);
    ynode *q = get(v, "quaternion"), *e = get(v, "euler313");
    if (q && e) fail(c, e, "euler313", "give either 'quaternion' or 'euler313', not both");
    if (!q && !e) fail(c, v, "quaternion", "missing (or 'euler313')");
    if (q) {
      to_vec(c, q, "quaternion", b->quaternion, 4, R_ANY);
      unit_quat(c, q, "quaternion", b->quaternion);
    } else {
      to_vec(c, e, "euler313", b->euler313, 3, R_ANY);
      b->orientation_euler = 1;
      double a = b->euler313[0] / 2, t = b->euler313[1] / 2, p = b->euler313[2] / 2;
      double qz1[4] = {cos(a), 0, 0, sin(a)}, qx[4] = {cos(t), sin(t), 0, 0}, qz2[4] = {cos(p), 0, 0, sin(p)};
      qmul(b->quaternion, qz1, qx);
      qmul(b->quaternion, b->quaternion, qz2);
    }
    pop(c);
  }
  b->parametrisation = (v = get(m, "parametrisation"))
                           ? (cosrod_sc_parametrisation)to_enum(c, v, "parametrisation", PARAM_NAMES)
                           : COSROD_SC_PARAM_QUATERNION;
  if (b->parametrisation == COSROD_SC_PARAM_EULER_ANGLES) {
    /* 3-1-3 angles are singular where theta = 0 or pi, i.e. R33 = +-1. */
    const double *q = b->quaternion;
    double r33 = 1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]);
    if (1.0 - fabs(r33) < 1e-12)
      fail(c, v, "parametrisation", "euler-angles are at gimbal lock for this orientation (theta = 0 or pi)");
  }
}

static void read_bodies(ctx *c, ynode *root) {
  ynode *bs = get(root, "bodies");
  if (!bs) return;
  if (bs->kind != YN_SEQ) fail(c, bs, "bodies", "expected a list of bodies, got %s", kind_name(bs));
  push(c, "bodies");
  cosrod_scenario *sc = c->sc;
  sc->bodies = xcalloc(c, bs->n, sizeof *sc->bodies);
  for (size_t i = 0; i < bs->n; i++) {
    push_idx(c, i);
    read_body(c, bs->item[i], i, &sc->bodies[i]);
    sc->nbodies++;
    pop(c);
  }
  pop(c);
}

static void read_joint(ctx *c, ynode *m, cosrod_sc_joint *j) {
  static const char *const keys[] = {"type", "bodies", "at", "axis", "stiffness", "damping", NULL};
  expect_map(c, m, NULL, "a joint");
  check_keys(c, m, keys);
  j->line = m->key_line;
  j->type = (cosrod_sc_joint_type)to_enum(c, require(c, m, "type", "joint type"), "type", JOINT_NAMES);
  ynode *bs = require(c, m, "bodies", "[a, b]; 'ground' is fixed space");
  if (bs->kind != YN_SEQ || bs->n != 2) fail(c, bs, "bodies", "expected two body names [a, b]");
  push(c, "bodies");
  j->body[0] = body_index(c, bs->item[0], "0", 1);
  j->body[1] = body_index(c, bs->item[1], "1", 1);
  pop(c);
  if (j->body[0] == j->body[1])
    fail(c, bs, "bodies", "a joint needs two different bodies (got '%s' twice)",
         j->body[0] < 0 ? "ground" : c->sc->bodies[j->body[0]].name);
  ynode *at = get(m, "at");
  if (at) {
    if (at->kind != YN_SEQ || at->n != 2) fail(c, at, "at", "expected two points [[x, y, z], [x, y, z]]");
    push(c, "at");
    to_vec(c, at->item[0], "0", j->at[0], 3, R_ANY);
    to_vec(c, at->item[1], "1", j->at[1], 3, R_ANY);
    pop(c);
  }
  if (j->type == COSROD_SC_JOINT_BUSHING) {
    j->stiffness = req_num(c, m, "stiffness", R_POS, "spring constant [N/m]");
    j->damping = num(c, m, "damping", 0.0, R_NONNEG);
  } else if (j->type != COSROD_SC_JOINT_SPHERICAL) {
    to_vec(c, require(c, m, "axis", "joint axis in the first body's frame"), "axis", j->axis, 3, R_ANY);
    unit_vec(c, m, "axis", j->axis);
  }
  check_unused(c, m, "with this joint type");
}

static void read_joints(ctx *c, ynode *root) {
  ynode *js = get(root, "joints");
  if (!js) return;
  if (js->kind != YN_SEQ) fail(c, js, "joints", "expected a list of joints, got %s", kind_name(js));
  push(c, "joints");
  cosrod_scenario *sc = c->sc;
  sc->joints = xcalloc(c, js->n, sizeof *sc->joints);
  for (size_t i = 0; i < js->n; i++) {
    push_idx(c, i);
    read_joint(c, js->item[i], &sc->joints[i]);
    sc->njoints++;
    pop(c);
  }
  pop(c);
}

/* ---- analysis, solver, output --------------------------------------------- */

static void read_analysis(ctx *c, ynode *root) {
  static const char *const keys[] = {"type", "t_end", "increments", "count", "start_from_equilibrium", NULL};
  cosrod_sc_analysis *a = &c->sc->analysis;
  ynode *m = require(c, root, "analysis", "{type: dynamic, t_end: ...}");
  push(c, "analysis");
  expect_map(c, m, NULL, "type: dynamic | static | modes");
  check_keys(c, m, keys);
  a->line = m->key_line;
  ynode *v = get(m, "type");
  a->type = v ? (cosrod_sc_analysis_type)to_enum(c, v, "type", ANALYSIS_NAMES) : COSROD_SC_ANALYSIS_DYNAMIC;
  a->increments = 25;
  a->count = 10;
  a->t_end = 1.0;
  if (a->type == COSROD_SC_ANALYSIS_DYNAMIC) {
    a->t_end = req_num(c, m, "t_end", R_POS, "final time [s]");
    if ((v = get(m, "start_from_equilibrium")))
      a->start_from_equilibrium = to_bool(c, v, "start_from_equilibrium");
    check_unused(c, m, "with type: dynamic");
  } else if (a->type == COSROD_SC_ANALYSIS_STATIC) {
    if ((v = get(m, "increments"))) a->increments = to_int(c, v, "increments", 1, 10000000);
    check_unused(c, m, "with type: static (pseudo-time runs over [0, 1])");
  } else {
    if ((v = get(m, "count"))) a->count = to_int(c, v, "count", 1, 1000000);
    check_unused(c, m, "with type: modes");
  }
  pop(c);
}

static void read_solver(ctx *c, ynode *root) {
  static const char *const keys[] = {
      "formulation", "stabilisation", "baumgarte", "integrator", "rtol", "atol",
      "h0",          "hmax",          "max_steps", NULL};
  cosrod_sc_solver *s = &c->sc->solver;
  s->baumgarte_omega = s->baumgarte_r = 100.0;
  s->rtol = s->atol = 1e-6;
  s->max_steps = 100000;
  ynode *m = get(root, "solver");
  if (!m) return;
  push(c, "solver");
  expect_map(c, m, NULL, "formulation, integrator, rtol, ...");
  check_keys(c, m, keys);
  s->line = m->key_line;
  ynode *v;
  if ((v = get(m, "formulation")))
    s->formulation = (cosrod_sc_formulation)to_enum(c, v, "formulation", FORMULATION_NAMES);
  if ((v = get(m, "stabilisation")))
    s->stabilisation = (cosrod_sc_stabilisation)to_enum(c, v, "stabilisation", STAB_NAMES);
  ynode *vi = get(m, "integrator");
  if (vi) s->integrator = (cosrod_sc_integrator)to_enum(c, vi, "integrator", INTEGRATOR_NAMES);
  if ((v = get(m, "baumgarte"))) {
    static const char *const bk[] = {"omega", "r", NULL};
    /* Accepted (and validated) with any stabilisation, so that switching
     * with --set solver.stabilisation=... keeps a file valid. */
    push(c, "baumgarte");
    expect_map(c, v, NULL, "omega, r");
    check_keys(c, v, bk);
    s->baumgarte_omega = num(c, v, "omega", 100.0, R_POS);
    s->baumgarte_r = num(c, v, "r", 100.0, R_NONNEG);
    pop(c);
  }
  s->rtol = num(c, m, "rtol", 1e-6, R_POS);
  if (s->rtol >= 1.0) fail(c, get(m, "rtol"), "rtol", "must be < 1 (got %.15g)", s->rtol);
  s->atol = num(c, m, "atol", 1e-6, R_POS);
  s->h0 = num(c, m, "h0", 0.0, R_NONNEG);
  s->hmax = num(c, m, "hmax", 0.0, R_NONNEG);
  if (s->hmax > 0 && s->h0 > s->hmax)
    fail(c, get(m, "h0"), "h0", "initial step %.15g is larger than hmax = %.15g", s->h0, s->hmax);
  if ((v = get(m, "max_steps"))) s->max_steps = to_int(c, v, "max_steps", 1, 1000000000000L);
  if (s->formulation == COSROD_SC_FORMULATION_DAE &&
      (s->integrator == COSROD_SC_INTEGRATOR_DOPRI5 || s->integrator == COSROD_SC_INTEGRATOR_DOP853 ||
       s->integrator == COSROD_SC_INTEGRATOR_CVODE))
    fail(c, vi ? vi : m, "integrator",
         "%s cannot solve the index-1 DAE of formulation: dae (use radau5, rodas, seulex or ida)",
         INTEGRATOR_NAMES[s->integrator]);
  pop(c);
}

static void read_output(ctx *c, ynode *root) {
  static const char *const keys[] = {"dir", "every", "vtk", "plots", NULL};
  cosrod_sc_output *o = &c->sc->output;
  const cosrod_sc_analysis *a = &c->sc->analysis;
  double every = a->type == COSROD_SC_ANALYSIS_STATIC ? 1.0 / (double)a->increments : a->t_end / 100.0;
  o->vtk = o->plots = 1;
  ynode *m = get(root, "output");
  const char *dir = "out";
  if (m) {
    push(c, "output");
    expect_map(c, m, NULL, "dir, every, vtk, plots");
    check_keys(c, m, keys);
    o->line = m->key_line;
    ynode *v;
    if ((v = get(m, "dir"))) {
      dir = to_str(c, v, "dir");
      if (!dir[0]) fail(c, v, "dir", "must not be empty");
    }
    every = num(c, m, "every", every, R_POS);
    if ((v = get(m, "vtk"))) o->vtk = to_bool(c, v, "vtk");
    if ((v = get(m, "plots"))) o->plots = to_bool(c, v, "plots");
    pop(c);
  }
  o->every = every;
  o->dir = xstrdup(c, dir);
}

/* ---- --set overrides -------------------------------------------------------- */

static int all_digits(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return 0;
  return 1;
}

/* Stands for "the command line" in error reports (line 0). */
static const ynode CMDLINE_NODE = {YN_SCALAR, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL};

/* Apply one "key.path=value" to the tree; returns 0 or fails via ctx. */
static void apply_set(ctx *c, ynode **rootp, const char *set) {
  const char *eq = strchr(set, '=');
  char keypath[PATH_MAX_LEN];
  if (!eq || eq == set) {
    snprintf(keypath, sizeof keypath, "%.200s", set);
    sanitize(keypath);
    if (c->err && c->errlen)
      snprintf(c->err, c->errlen, "%s:0: %s: --set expects key.path=value", c->file,
               keypath[0] ? keypath : "(set)");
    c->status = COSROD_ERR_PARSE;
    longjmp(c->jb, 1);
  }
  size_t kl = (size_t)(eq - set);
  if (kl >= sizeof keypath) kl = sizeof keypath - 1;
  memcpy(keypath, set, kl);
  keypath[kl] = '\0';
  /* split into components */
  char *comp[PATH_DEPTH];
  int nc = 0;
  for (char *p = keypath;;) {
    char *dot = strchr(p, '.');
    if (dot) *dot = '\0';
    if (!*p || nc >= PATH_DEPTH) {
      char shown[PATH_MAX_LEN];
      snprintf(shown, sizeof shown, "%.*s", (int)kl, set);
      strcpy(c->path, "");
      sanitize(shown);
      if (c->err && c->errlen)
        snprintf(c->err, c->errlen, "%s:0: %s: malformed key path in --set", c->file, shown);
      c->status = COSROD_ERR_PARSE;
      longjmp(c->jb, 1);
    }
    comp[nc++] = p;
    if (!dot) break;
    p = dot + 1;
  }
  /* parse the value as YAML */
  ynode *val = NULL;
  char msg[400];
  const char *vtext = eq + 1;
  c->path[0] = '\0';
  c->depth = 0;
  for (int i = 0; i < nc; i++) push(c, comp[i]);
  if (yn_parse(vtext, strlen(vtext), 1, &val, msg, sizeof msg)) {
    const char *problem = strrchr(msg, '\t');
    fail(c, &CMDLINE_NODE, NULL, "bad value in --set: %s", problem ? problem + 1 : msg);
  }
  if (!val) val = yn_scalar("", 0, 0);
  if (!val) nomem(c);
  val->null = val->kind == YN_SCALAR && !val->quoted && val->len == 0 ? 1 : val->null;
  val->line = val->key_line = 0;
  if (!*rootp) {
    *rootp = yn_new(YN_MAP, 0);
    if (!*rootp) {
      yn_free(val);
      nomem(c);
    }
  }
  ynode *cur = *rootp;
  for (int i = 0; i < nc; i++) {
    int last = i == nc - 1;
    ynode **slot = NULL;
    if (cur->kind == YN_MAP) {
      yentry *e = yn_find(cur, comp[i]);
      if (!e) {
        ynode *k = yn_scalar(comp[i], strlen(comp[i]), 0);
        if (!k || yn_map_add(cur, k, NULL)) {
          yn_free(k);
          yn_free(val);
          nomem(c);
        }
        e = &cur->ent[cur->n - 1];
      }
      slot = &e->val;
    } else if (cur->kind == YN_SEQ && all_digits(comp[i]) && strlen(comp[i]) < 10 &&
               (size_t)atol(comp[i]) <= cur->n) {
      size_t idx = (size_t)atol(comp[i]);
      if (idx == cur->n) {
        if (yn_seq_add(cur, NULL)) {
          yn_free(val);
          nomem(c);
        }
      }
      slot = &cur->item[idx];
    } else {
      yn_free(val);
      c->path[c->plen[i]] = '\0'; /* path up to the container */
      c->depth = i;
      if (cur->kind == YN_SEQ)
        fail(c, &CMDLINE_NODE, comp[i], "no such list index (the list has %zu items; use 0..%zu)", cur->n,
             cur->n);
      fail(c, &CMDLINE_NODE, comp[i], "cannot set a key below a scalar value");
    }
    if (last) {
      yn_free(*slot);
      *slot = val;
      return;
    }
    if (!*slot || ((*slot)->kind == YN_SCALAR && (*slot)->null)) {
      yn_free(*slot);
      *slot = yn_new(all_digits(comp[i + 1]) ? YN_SEQ : YN_MAP, 0);
      if (!*slot) {
        yn_free(val);
        nomem(c);
      }
    }
    cur = *slot;
  }
}

/* ---- line table --------------------------------------------------------------- */

static void lines_add(ctx *c, cosrod_sc_lines *L, const char *path, int line) {
  if (L->n == L->cap) {
    size_t nc = L->cap ? 2 * L->cap : 64;
    char **p = realloc(L->path, nc * sizeof *p);
    if (!p) nomem(c);
    L->path = p;
    int *l = realloc(L->line, nc * sizeof *l);
    if (!l) nomem(c);
    L->line = l;
    L->cap = nc;
  }
  L->path[L->n] = xstrdup(c, path);
  L->line[L->n] = line;
  L->n++;
}

/* Record every mapping key and every container item (not scalar list items). */
static void lines_walk(ctx *c, cosrod_sc_lines *L, const ynode *n) {
  if (n->kind == YN_MAP) {
    for (size_t i = 0; i < n->n; i++) {
      push(c, n->ent[i].key->str);
      lines_add(c, L, c->path, n->ent[i].key->line);
      if (n->ent[i].val) lines_walk(c, L, n->ent[i].val);
      pop(c);
    }
  } else if (n->kind == YN_SEQ) {
    for (size_t i = 0; i < n->n; i++) {
      if (!n->item[i] || n->item[i]->kind == YN_SCALAR) continue;
      push_idx(c, i);
      lines_add(c, L, c->path, n->item[i]->line);
      lines_walk(c, L, n->item[i]);
      pop(c);
    }
  }
}

static void lines_free(cosrod_sc_lines *L) {
  if (!L) return;
  for (size_t i = 0; i < L->n; i++) free(L->path[i]);
  free(L->path);
  free(L->line);
  free(L);
}

int cosrod_scenario_line(const cosrod_scenario *sc, const char *key_path) {
  if (!sc || !sc->lines_ || !key_path) return 0;
  char p[PATH_MAX_LEN];
  snprintf(p, sizeof p, "%s", key_path);
  for (;;) {
    for (size_t i = 0; i < sc->lines_->n; i++)
      if (!strcmp(sc->lines_->path[i], p)) return sc->lines_->line[i];
    char *dot = strrchr(p, '.');
    if (!dot) return 0;
    *dot = '\0';
  }
}

int cosrod_scenario_format_error(const cosrod_scenario *sc, const char *key_path, const char *problem,
                                 char *buf, size_t buflen) {
  int line = cosrod_scenario_line(sc, key_path);
  return snprintf(buf, buflen, "%s:%d: %s: %s", sc && sc->file ? sc->file : "?", line,
                  key_path ? key_path : "(root)", problem ? problem : "");
}

/* ---- entry points --------------------------------------------------------------- */

void cosrod_scenario_free(cosrod_scenario *sc) {
  if (!sc) return;
  for (size_t i = 0; i < sc->nrods; i++) {
    cosrod_sc_rod *r = &sc->rods[i];
    free(r->grid);
    free(r->loads);
    free(r->shape.points);
    for (int k = 0; k < 2; k++) {
      free(r->ends[k].position.t);
      free(r->ends[k].position.values);
      free(r->ends[k].orientation.t);
      free(r->ends[k].orientation.values);
    }
  }
  free(sc->rods);
  free(sc->materials);
  free(sc->bodies);
  free(sc->joints);
  free(sc->output.dir);
  free(sc->title);
  free(sc->file);
  lines_free(sc->lines_);
  free(sc);
}

static void validate(ctx *c, ynode *root) {
  static const char *const keys[] = {"cosrod", "title",    "gravity", "materials", "rods", "bodies",
                                     "joints", "analysis", "solver",  "output",    NULL};
  cosrod_scenario *sc = c->sc;
  if (!root) fail(c, NULL, NULL, "empty file (a scenario starts with 'cosrod: 1')");
  if (root->kind != YN_MAP)
    fail(c, root, NULL, "expected a mapping of scenario keys, got %s", kind_name(root));
  check_keys(c, root, keys);
  ynode *v = require(c, root, "cosrod", "schema version: cosrod: 1");
  sc->version = (int)to_int(c, v, "cosrod", 0, 1000000);
  if (sc->version != COSROD_SC_SCHEMA_VERSION)
    fail(c, v, "cosrod", "unsupported schema version %d (this cosrod reads version %d)", sc->version,
         COSROD_SC_SCHEMA_VERSION);
  sc->title = xstrdup(c, (v = get(root, "title")) ? to_str(c, v, "title") : "");
  sanitize(sc->title);
  vec(c, root, "gravity", sc->gravity, 3, R_ANY);
  read_materials(c, root);
  read_analysis(c, root);
  read_bodies(c, root);
  read_rods(c, root);
  read_joints(c, root);
  read_solver(c, root);
  read_output(c, root);
  if (sc->nrods == 0 && sc->nbodies == 0) fail(c, root, NULL, "nothing to simulate: no rods and no bodies");
  /* a rod end attached to a body is checked above; record key lines */
  sc->lines_ = xcalloc(c, 1, sizeof *sc->lines_);
  c->path[0] = '\0';
  c->depth = 0;
  lines_walk(c, sc->lines_, root);
}

/* The only function that calls setjmp: everything it must free lives in c. */
static cosrod_status run(ctx *c, ynode **rootp, const char *const *sets, size_t nsets) {
  if (setjmp(c->jb)) return c->status;
  for (size_t i = 0; i < nsets; i++) {
    c->path[0] = '\0';
    c->depth = 0;
    if (sets[i]) apply_set(c, rootp, sets[i]);
  }
  c->path[0] = '\0';
  c->depth = 0;
  validate(c, *rootp);
  return COSROD_OK;
}

cosrod_status cosrod_scenario_parse(const char *text, size_t len, const char *file, const char *const *sets,
                                    size_t nsets, cosrod_scenario **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) return COSROD_ERR_INVALID;
  *out = NULL;
  if (!file) file = "<input>";
  if (!text && len) return COSROD_ERR_INVALID;
  ynode *root = NULL;
  char msg[600];
  if (yn_parse(text ? text : "", len, 0, &root, msg, sizeof msg)) {
    /* msg is "LINE\tPATH\tPROBLEM" */
    int line = atoi(msg);
    char *t1 = strchr(msg, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (t1 && t2) {
      *t2 = '\0';
      if (err && errlen) {
        snprintf(err, errlen, "%s:%d: %s: %s", file, line, t1 + 1, t2 + 1);
        sanitize(err);
      }
    } else if (err && errlen) {
      snprintf(err, errlen, "%s:%d: (root): %s", file, line, msg);
      sanitize(err);
    }
    return strstr(t2 ? t2 + 1 : msg, "out of memory") ? COSROD_ERR_NOMEM : COSROD_ERR_PARSE;
  }
  ctx *c = calloc(1, sizeof *c);
  cosrod_scenario *sc = calloc(1, sizeof *sc);
  char *fname = malloc(strlen(file) + 1);
  if (!c || !sc || !fname) {
    free(c);
    free(sc);
    free(fname);
    yn_free(root);
    if (err && errlen) snprintf(err, errlen, "%s:0: (root): out of memory", file);
    return COSROD_ERR_NOMEM;
  }
  strcpy(fname, file);
  sc->file = fname;
  c->file = file;
  c->err = err;
  c->errlen = errlen;
  c->sc = sc;
  cosrod_status st = run(c, &root, sets, nsets);
  yn_free(root);
  free(c);
  if (st != COSROD_OK) {
    cosrod_scenario_free(sc);
    return st;
  }
  *out = sc;
  return COSROD_OK;
}

cosrod_status cosrod_scenario_load(const char *path, const char *const *sets, size_t nsets,
                                   cosrod_scenario **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out || !path) return COSROD_ERR_INVALID;
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): cannot open: %s", path, strerror(errno));
    return COSROD_ERR_IO;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    fclose(f);
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): out of memory", path);
    return COSROD_ERR_NOMEM;
  }
  for (;;) {
    if (len == cap) {
      if (cap >= (size_t)COSROD_SC_MAX_FILE_SIZE) {
        free(buf);
        fclose(f);
        if (err && errlen)
          snprintf(err, errlen, "%s:0: (file): larger than %ld bytes", path, COSROD_SC_MAX_FILE_SIZE);
        return COSROD_ERR_PARSE;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        fclose(f);
        if (err && errlen) snprintf(err, errlen, "%s:0: (file): out of memory", path);
        return COSROD_ERR_NOMEM;
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): read error", path);
    return COSROD_ERR_IO;
  }
  cosrod_status st = cosrod_scenario_parse(buf, len, path, sets, nsets, out, err, errlen);
  free(buf);
  return st;
}

void cosrod_scenario_print(const cosrod_scenario *sc, FILE *f) {
  static const char *const end_short[] = {"free", "pinned", "clamped", "prescribed"};
  if (!sc || !f) return;
  fprintf(f, "%s: schema %d, \"%s\"\n", sc->file, sc->version, sc->title);
  fprintf(f, "  gravity [%g, %g, %g]\n", sc->gravity[0], sc->gravity[1], sc->gravity[2]);
  for (size_t i = 0; i < sc->nrods; i++) {
    const cosrod_sc_rod *r = &sc->rods[i];
    fprintf(
        f,
        "  rod %s: %s, L = %g m, N = %zu, E = %g Pa, G = %g Pa, rho = %g kg/m^3, curvature %s, ends %s/%s, "
        "%zu load(s)\n",
        r->name, MODEL_NAMES[r->model], r->length, r->segments, r->material.E, r->material.G,
        r->material.density, CURVATURE_NAMES[r->curvature], end_short[r->ends[0].type],
        end_short[r->ends[1].type], r->nloads);
  }
  for (size_t i = 0; i < sc->nbodies; i++) {
    const cosrod_sc_body *b = &sc->bodies[i];
    fprintf(f, "  body %s: m = %g kg, I = [%g, %g, %g] kg m^2, %s\n", b->name, b->mass, b->inertia[0],
            b->inertia[1], b->inertia[2], PARAM_NAMES[b->parametrisation]);
  }
  for (size_t i = 0; i < sc->njoints; i++) {
    const cosrod_sc_joint *j = &sc->joints[i];
    fprintf(f, "  joint %s: %s - %s\n", JOINT_NAMES[j->type],
            j->body[0] < 0 ? "ground" : sc->bodies[j->body[0]].name,
            j->body[1] < 0 ? "ground" : sc->bodies[j->body[1]].name);
  }
  fprintf(f, "  analysis %s, t_end = %g\n", ANALYSIS_NAMES[sc->analysis.type], sc->analysis.t_end);
  fprintf(f, "  solver %s/%s, %s, rtol = %g, atol = %g\n", FORMULATION_NAMES[sc->solver.formulation],
          STAB_NAMES[sc->solver.stabilisation], INTEGRATOR_NAMES[sc->solver.integrator], sc->solver.rtol,
          sc->solver.atol);
  fprintf(f, "  output %s every %g%s%s\n", sc->output.dir, sc->output.every, sc->output.vtk ? ", vtk" : "",
          sc->output.plots ? ", plots" : "");
}
