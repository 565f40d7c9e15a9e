// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: messages ("FILE:LINE: key.path: problem"), the key path
 * stack, unknown-key checks with nearest-key suggestions (optimal string
 * alignment distance) and typed value readers with range checks. */
#include <float.h>

#include "scenario_internal.h"
/* ---- messages ------------------------------------------------------------ */

/* Copy s into a message, replacing control bytes so the message stays one line. */
void sc_sanitize(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f) *s = '?';
}

static void write_error(char *err, size_t errlen, const char *file, int line, const char *path,
                        const char *problem) {
  if (!err || errlen == 0) return;
  if (line == 0) /* a --set override: the command line, not the file, holds the value */
    snprintf(err, errlen, "--set %s: %s", path, problem);
  else
    snprintf(err, errlen, "%s:%d: %s: %s", file, line, path, problem);
  sc_sanitize(err);
}

void sc_push(ctx *c, const char *comp) {
  if (c->depth >= PATH_DEPTH) return; /* schema depth is far below */
  size_t len = strlen(c->path);
  c->plen[c->depth++] = len;
  snprintf(c->path + len, sizeof c->path - len, "%s%.60s", len ? "." : "", comp);
}
void sc_push_idx(ctx *c, size_t i) {
  char b[32];
  snprintf(b, sizeof b, "%zu", i);
  sc_push(c, b);
}
void sc_pop(ctx *c) {
  if (c->depth > 0) c->path[c->plen[--c->depth]] = '\0';
}

int sc_line_of(const ynode *n) {
  if (!n) return 1;
  return n->kind == YN_SCALAR ? n->line : n->key_line;
}

/* Format "FILE:LINE: key.path: problem" for `key` (NULL: the current path) at
 * node n and append it as one more line of c->err. */
static void record(ctx *c, const ynode *n, const char *key, const char *fmt, va_list ap) {
  char problem[400], path[PATH_MAX_LEN + 80], line[PATH_MAX_LEN + 1024];
  vsnprintf(problem, sizeof problem, fmt, ap);
  if (key)
    snprintf(path, sizeof path, "%s%s%.60s", c->path, c->path[0] ? "." : "", key);
  else
    snprintf(path, sizeof path, "%s", c->path[0] ? c->path : "(root)");
  write_error(line, sizeof line, c->file, sc_line_of(n), path, problem);
  c->status = COSROD_ERR_PARSE;
  c->nerr++;
  if (!c->err || c->errlen == 0) return;
  size_t used = strlen(c->err), len = strlen(line);
  if (used == 0) /* the first problem, cut to the buffer if it must be */
    snprintf(c->err, c->errlen, "%s", line);
  else if (used + 1 + len < c->errlen) /* later ones only whole */
    snprintf(c->err + used, c->errlen - used, "\n%s", line);
}

/* Unwind to the innermost recovery point (SC_TRY), or to the exit point when
 * there is none or SC_MAX_ERRORS problems are recorded. */
static _Noreturn void unwind(ctx *c) {
  if (c->rec && c->nerr < SC_MAX_ERRORS) longjmp(*c->rec, 1);
  longjmp(c->jb, 1);
}

/* Report a problem and unwind (see unwind). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
_Noreturn void
sc_fail(ctx *c, const ynode *n, const char *key, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(c, n, key, fmt, ap);
  va_end(ap);
  unwind(c);
}

/* Report a problem and go on (unwinds only at the error limit). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void sc_note(ctx *c, const ynode *n, const char *key, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(c, n, key, fmt, ap);
  va_end(ap);
  if (c->nerr >= SC_MAX_ERRORS) longjmp(c->jb, 1);
}

void sc_recover(ctx *c, jmp_buf *prev, int depth) {
  c->rec = prev;
  if (c->depth > depth) c->path[c->plen[depth]] = '\0';
  c->depth = depth;
}

_Noreturn void sc_nomem(ctx *c) {
  if (c->err && c->errlen) snprintf(c->err, c->errlen, "%s:0: (root): out of memory", c->file);
  c->status = COSROD_ERR_NOMEM;
  longjmp(c->jb, 1);
}

void *sc_xcalloc(ctx *c, size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) sc_nomem(c);
  return p;
}

char *sc_xstrdup(ctx *c, const char *s) {
  size_t n = strlen(s);
  char *p = malloc(n + 1);
  if (!p) sc_nomem(c);
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
const char *sc_nearest(const char *s, const char *const *cand, size_t ncand) {
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

void sc_expect_map(ctx *c, const ynode *n, const char *key, const char *what) {
  if (!n || n->kind != YN_MAP)
    sc_fail(c, n, key, "expected a mapping (%s), got %s", what,
         !n                  ? "nothing"
         : n->kind == YN_SEQ ? "a sequence"
         : n->null           ? "null"
                             : "a scalar");
}

/* Every key of map must be one of `allowed` (NULL-terminated).  All unknown
 * keys of the map are reported, then the map's part ends: a misspelled key
 * makes the map's other problems (e.g. the correct key "missing") follow
 * from it, so they are not reported. */
void sc_check_keys(ctx *c, ynode *map, const char *const *allowed) {
  int nerr = c->nerr;
  for (size_t i = 0; i < map->n; i++) {
    ynode *k = map->ent[i].key;
    if (strlen(k->str) != k->len || !in_list(k->str, allowed)) {
      const char *s = sc_nearest(k->str, allowed, count_list(allowed));
      if (s)
        sc_note(c, k, k->str, "unknown key (did you mean '%s'?)", s);
      else
        sc_note(c, k, k->str, "unknown key");
    }
  }
  if (c->nerr > nerr) unwind(c);
}

/* After a typed mapping was read: a known key that the type does not use. */
void sc_check_unused(ctx *c, ynode *map, const char *why) {
  for (size_t i = 0; i < map->n; i++)
    if (!map->ent[i].used) sc_fail(c, map->ent[i].key, map->ent[i].key->str, "not used %s", why);
}

/* Value of key in map (marks it used) or NULL. */
ynode *sc_get(ynode *map, const char *key) {
  yentry *e = yn_find(map, key);
  if (!e) return NULL;
  e->used = 1;
  return e->val;
}

ynode *sc_require(ctx *c, ynode *map, const char *key, const char *what) {
  ynode *v = sc_get(map, key);
  if (!v) sc_fail(c, map, key, "missing (%s)", what);
  return v;
}

/* ---- scalars -------------------------------------------------------------- */

const char *sc_kind_name(const ynode *v) {
  return v->kind == YN_MAP ? "a mapping" : v->kind == YN_SEQ ? "a sequence" : v->null ? "null" : "a string";
}

double sc_to_num(ctx *c, const ynode *v, const char *key) {
  if (v->kind != YN_SCALAR || v->null || v->quoted)
    sc_fail(c, v, key, "expected a number, got %s", sc_kind_name(v));
  if (v->len == 0 || strlen(v->str) != v->len) sc_fail(c, v, key, "expected a number");
  char *end;
  errno = 0;
  double x = strtod(v->str, &end);
  if (end != v->str + v->len || end == v->str) {
    static const char *const special[] = {".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF", "-.inf",
                                          "-.Inf", "-.INF", "+.inf", "+.Inf", "+.INF", NULL};
    if (in_list(v->str, special)) sc_fail(c, v, key, "must be a finite number (got '%s')", v->str);
    sc_fail(c, v, key, "expected a number, got '%.40s'", v->str);
  }
  if (isnan(x)) sc_fail(c, v, key, "must be a finite number (got NaN)");
  if (isinf(x)) sc_fail(c, v, key, "must be a finite number (got '%.40s')", v->str);
  return x;
}

long sc_to_int(ctx *c, const ynode *v, const char *key, long lo, long hi) {
  double x = sc_to_num(c, v, key);
  if (x != floor(x)) sc_fail(c, v, key, "expected an integer, got %.15g", x);
  if (x < (double)lo) sc_fail(c, v, key, "must be >= %ld (got %.15g)", lo, x);
  if (x > (double)hi) sc_fail(c, v, key, "must be <= %ld (got %.15g)", hi, x);
  return (long)x;
}

int sc_to_bool(ctx *c, const ynode *v, const char *key) {
  if (v->kind == YN_SCALAR && !v->quoted) {
    const char *s = v->str;
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) return 1;
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) return 0;
  }
  sc_fail(c, v, key, "expected true or false");
}

const char *sc_to_str(ctx *c, const ynode *v, const char *key) {
  if (v->kind != YN_SCALAR || v->null) sc_fail(c, v, key, "expected a string, got %s", sc_kind_name(v));
  if (strlen(v->str) != v->len) sc_fail(c, v, key, "string contains a NUL byte");
  return v->str;
}

void sc_to_name(ctx *c, const ynode *v, const char *key, char *out) {
  const char *s = sc_to_str(c, v, key);
  size_t n = strlen(s);
  if (n == 0) sc_fail(c, v, key, "must not be empty");
  if (n >= COSROD_SC_NAME_MAX) sc_fail(c, v, key, "too long (at most %d characters)", COSROD_SC_NAME_MAX - 1);
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) sc_fail(c, v, key, "contains a control character");
  memcpy(out, s, n + 1);
}

/* Enum: index of the value in `names`; unknown values get a suggestion. */
int sc_to_enum(ctx *c, const ynode *v, const char *key, const char *const *names) {
  const char *s = sc_to_str(c, v, key);
  for (int i = 0; names[i]; i++)
    if (!strcmp(s, names[i])) return i;
  char list[300] = "";
  size_t used = 0;
  for (int i = 0; names[i]; i++) {
    int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0 || (size_t)w >= sizeof list - used) break;
    used += (size_t)w;
  }
  const char *near = sc_nearest(s, names, count_list(names));
  if (near) sc_fail(c, v, key, "unknown value '%.40s' (did you mean '%s'?)", s, near);
  sc_fail(c, v, key, "unknown value '%.40s' (expected one of: %s)", s, list);
}


void sc_check_range(ctx *c, const ynode *v, const char *key, double x, int range) {
  if (range == R_POS && !(x > 0)) sc_fail(c, v, key, "must be > 0 (got %.15g)", x);
  if (range == R_NONNEG && !(x >= 0)) sc_fail(c, v, key, "must be >= 0 (got %.15g)", x);
}

/* Optional number with default and range. */
double sc_num(ctx *c, ynode *map, const char *key, double def, int range) {
  ynode *v = sc_get(map, key);
  if (!v) return def;
  double x = sc_to_num(c, v, key);
  sc_check_range(c, v, key, x, range);
  return x;
}

double sc_req_num(ctx *c, ynode *map, const char *key, int range, const char *what) {
  ynode *v = sc_require(c, map, key, what);
  double x = sc_to_num(c, v, key);
  sc_check_range(c, v, key, x, range);
  return x;
}

/* Fixed-length numeric vector v (a sequence of n numbers) into out. */
void sc_to_vec(ctx *c, const ynode *v, const char *key, double *out, size_t n, int range) {
  if (v->kind != YN_SEQ) sc_fail(c, v, key, "expected a list of %zu numbers, got %s", n, sc_kind_name(v));
  if (v->n != n) sc_fail(c, v, key, "expected %zu numbers, got %zu", n, v->n);
  if (key) sc_push(c, key);
  for (size_t i = 0; i < n; i++) {
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", i);
    out[i] = sc_to_num(c, v->item[i], idx);
    sc_check_range(c, v->item[i], idx, out[i], range);
  }
  if (key) sc_pop(c);
}

/* Optional vector: returns 1 if given. */
int sc_vec(ctx *c, ynode *map, const char *key, double *out, size_t n, int range) {
  ynode *v = sc_get(map, key);
  if (!v) return 0;
  sc_to_vec(c, v, key, out, n, range);
  return 1;
}


/* A nonzero direction, normalised in place. */
void sc_unit_vec(ctx *c, ynode *map, const char *key, double *out) {
  ynode *v = sc_get(map, key);
  double n = norm3(out);
  if (n < 1e-12) sc_fail(c, v ? v : map, key, "must be a nonzero vector");
  for (int i = 0; i < 3; i++) out[i] /= n;
}

/* Normalise a quaternion given at node v (error if ~zero).  One that is
 * already of unit length to round-off (|n - 1| <= 4 eps) is kept bit for
 * bit, so that a written scenario (%.17g) reads back to the same numbers. */
void sc_unit_quat(ctx *c, const ynode *v, const char *key, double *q) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 1e-8)) sc_fail(c, v, key, "quaternion must be nonzero (|q| = %.3g)", n);
  if (fabs(n - 1.0) <= 4.0 * DBL_EPSILON) return;
  for (int i = 0; i < 4; i++) q[i] /= n;
}

/* ---- enum names ------------------------------------------------------------ */

const char *const SC_MODEL_NAMES[] = {"cosserat", "kirchhoff-extensible", "kirchhoff-inextensible", NULL};
const char *const SC_CURVATURE_NAMES[] = {"sine-2", "sine-4", "tangent-2", "tangent-4", "angle", NULL};
const char *const SC_SECTION_NAMES[] = {"circle", "rectangle", "custom", "tube", NULL};
const char *const SC_SHAPE_NAMES[] = {"straight", "arc", "helix", "polyline", NULL};
const char *const SC_REFERENCE_NAMES[] = {"initial", "straight", NULL};
const char *const SC_END_NAMES[] = {"free", "pinned", "clamped", "prescribed", NULL};
const char *const SC_LOAD_NAMES[] = {"force", "moment", "distributed_force", NULL};
const char *const SC_FRAME_NAMES[] = {"spatial", "material", NULL};
const char *const SC_PARAM_NAMES[] = {"quaternion", "directors", "euler-angles", NULL};
const char *const SC_JOINT_NAMES[] = {"spherical", "revolute", "prismatic", "cylindrical",
                                          "planar",    "bushing",  "universal", "fixed", NULL};
const char *const SC_ANALYSIS_NAMES[] = {"dynamic", "static", "modes", "buckling", NULL};
const char *const SC_FORMULATION_NAMES[] = {"nullspace", "absolute", "dae", NULL};
const char *const SC_STAB_NAMES[] = {"projection", "baumgarte", "none", NULL};
const char *const SC_INTEGRATOR_NAMES[] = {"radau5", "rodas", "seulex", "dopri5",
                                               "dop853", "ida",   "cvode",  "galpha", "odex", "auto", NULL};
const char *const SC_CONVENTION_NAMES[] = {"viscous", "lla", NULL};
const char *const SC_DAMPING_VARIANT_NAMES[] = {"lla", "no-ds", "no-ds-se", "bushing", "no-weight", "shear-e", NULL};
const char *const SC_ROTARY_INERTIA_NAMES[] = {"disc", "cylinder", NULL};
const char *const SC_LINSOLVE_NAMES[] = {"auto", "band", "sparse", NULL};

const char *cosrod_sc_curvature_name(cosrod_sc_curvature v) {
  return (unsigned)v < 5 ? SC_CURVATURE_NAMES[v] : "?";
}
const char *cosrod_sc_integrator_name(cosrod_sc_integrator v) {
  return (unsigned)v < sizeof SC_INTEGRATOR_NAMES / sizeof SC_INTEGRATOR_NAMES[0] - 1 ? SC_INTEGRATOR_NAMES[v] : "?";
}
const char *cosrod_sc_model_name(cosrod_sc_model v) { return (unsigned)v < 3 ? SC_MODEL_NAMES[v] : "?"; }

int sc_body_index(ctx *c, const ynode *v, const char *key, int allow_ground) {
  const char *s = sc_to_str(c, v, key);
  if (allow_ground && !strcmp(s, "ground")) return -1;
  cosrod_scenario *sc = c->sc;
  const char *names[64];
  size_t nn = 0;
  for (size_t i = 0; i < sc->nbodies; i++) {
    if (!strcmp(sc->bodies[i].name, s)) return (int)i;
    if (nn < 63) names[nn++] = sc->bodies[i].name;
  }
  if (allow_ground) names[nn++] = "ground";
  const char *near = sc_nearest(s, names, nn);
  if (near) sc_fail(c, v, key, "no body named '%.40s' (did you mean '%s'?)", s, near);
  sc_fail(c, v, key, "no body named '%.40s'%s", s,
       allow_ground ? " (bodies are listed under 'bodies'; 'ground' is fixed space)" : "");
}

/* The time profile of a load from its `ramp` / `active` nodes (either may be
 * NULL; the caller has refused both at once): constant, or [t0, t1] with t0 < t1. */
void sc_read_profile(ctx *c, const ynode *ramp, const ynode *active, cosrod_sc_profile *profile, double *t0,
                     double *t1) {
  *profile = COSROD_SC_PROFILE_CONSTANT;
  const ynode *v = ramp ? ramp : active;
  if (!v) return;
  const char *key = ramp ? "ramp" : "active";
  double iv[2];
  sc_to_vec(c, v, key, iv, 2, R_ANY);
  if (!(iv[1] > iv[0])) sc_fail(c, v, key, "needs t0 < t1 (got [%.15g, %.15g])", iv[0], iv[1]);
  *t0 = iv[0];
  *t1 = iv[1];
  *profile = ramp ? COSROD_SC_PROFILE_RAMP : COSROD_SC_PROFILE_ACTIVE;
}

double cosrod_sc_section_radius(const cosrod_sc_section *s) {
  switch (s->shape) {
  case COSROD_SC_SECTION_RECTANGLE: return 0.5 * hypot(s->width, s->height);
  case COSROD_SC_SECTION_TUBE: return s->outer_radius;
  case COSROD_SC_SECTION_CIRCLE: return s->radius;
  default: return s->area > 0 ? sqrt(s->area / 3.14159265358979323846) : 0.0;
  }
}
