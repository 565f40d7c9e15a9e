// SPDX-License-Identifier: Apache-2.0
/* Scenario builder: a scenario from function calls (scenario.h).
 *
 * The calls record (key path, YAML value) pairs; cosrod_sc_builder_finish
 * applies them in order to an empty document (`cosrod: 1`) with the loader's
 * own --set mechanism, so a built scenario goes through exactly the
 * validation of a file (same defaults, same checks, same messages), and an
 * error names the key path: "key.path: problem". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "core/error.h"

#define BUILDER_FILE "<builder>"

struct cosrod_sc_builder {
  char **sets; /* "key.path=value" */
  size_t n, cap;
  size_t nrods;
  size_t *nloads; /* (cap_rods) loads per rod */
  size_t cap_rods;
  int nomem; /* an allocation failed: finish reports ERR_NOMEM */
};

cosrod_sc_builder *cosrod_sc_builder_create(cosrod_status *status) {
  cosrod_error_clear();
  cosrod_sc_builder *b = calloc(1, sizeof(cosrod_sc_builder));
  if (!b) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_sc_builder_create: out of memory");
  if (status) *status = COSROD_OK;
  return b;
}

void cosrod_sc_builder_free(cosrod_sc_builder *b) {
  if (!b) return;
  for (size_t i = 0; i < b->n; i++) free(b->sets[i]);
  free(b->sets);
  free(b->nloads);
  free(b);
}

static cosrod_status add(cosrod_sc_builder *b, const char *fmt, ...) {
  if (!b) return COSROD_ERR_INVALID;
  if (b->n == b->cap) {
    size_t nc = b->cap ? 2 * b->cap : 32;
    char **s = realloc(b->sets, nc * sizeof *s);
    if (!s) {
      b->nomem = 1;
      return COSROD_ERR_NOMEM;
    }
    b->sets = s;
    b->cap = nc;
  }
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  int len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (!s) {
    va_end(aq);
    b->nomem = 1;
    return COSROD_ERR_NOMEM;
  }
  vsnprintf(s, (size_t)len + 1, fmt, aq);
  va_end(aq);
  b->sets[b->n++] = s;
  return COSROD_OK;
}

/* Shortest of %.15g / %.17g that reads back to v. */
static void fmt_num(char *buf, size_t n, double v) {
  snprintf(buf, n, "%.15g", v);
  if (strtod(buf, NULL) != v) snprintf(buf, n, "%.17g", v);
}

cosrod_status cosrod_sc_builder_set(cosrod_sc_builder *b, const char *key, const char *yaml_value) {
  if (!key || !yaml_value) return COSROD_ERR_INVALID;
  return add(b, "%s=%s", key, yaml_value);
}

cosrod_status cosrod_sc_builder_set_num(cosrod_sc_builder *b, const char *key, double v) {
  char buf[40];
  fmt_num(buf, sizeof buf, v);
  return key ? add(b, "%s=%s", key, buf) : COSROD_ERR_INVALID;
}

cosrod_status cosrod_sc_builder_set_int(cosrod_sc_builder *b, const char *key, long v) {
  return key ? add(b, "%s=%ld", key, v) : COSROD_ERR_INVALID;
}

cosrod_status cosrod_sc_builder_set_bool(cosrod_sc_builder *b, const char *key, int v) {
  return key ? add(b, "%s=%s", key, v ? "true" : "false") : COSROD_ERR_INVALID;
}

cosrod_status cosrod_sc_builder_set_vec(cosrod_sc_builder *b, const char *key, const double *v, size_t n) {
  if (!key || (n && !v) || n > 64) return COSROD_ERR_INVALID;
  char buf[64 * 42 + 4];
  size_t o = 0;
  buf[o++] = '[';
  for (size_t i = 0; i < n; i++) {
    char num[40];
    fmt_num(num, sizeof num, v[i]);
    o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "", num);
  }
  snprintf(buf + o, sizeof buf - o, "]");
  return add(b, "%s=%s", key, buf);
}

/* A double-quoted YAML string. */
cosrod_status cosrod_sc_builder_set_str(cosrod_sc_builder *b, const char *key, const char *s) {
  if (!key || !s) return COSROD_ERR_INVALID;
  size_t n = strlen(s);
  char *q = malloc(4 * n + 3);
  if (!q) {
    if (b) b->nomem = 1;
    return COSROD_ERR_NOMEM;
  }
  size_t o = 0;
  q[o++] = '"';
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') {
      q[o++] = '\\';
      q[o++] = (char)ch;
    } else if (ch < 0x20) {
      o += (size_t)snprintf(q + o, 5, "\\x%02x", ch);
    } else {
      q[o++] = (char)ch;
    }
  }
  q[o++] = '"';
  q[o] = '\0';
  cosrod_status st = add(b, "%s=%s", key, q);
  free(q);
  return st;
}

cosrod_status cosrod_sc_builder_material(cosrod_sc_builder *b, const char *name, double E, double poisson,
                                         double density) {
  if (!name || !name[0] || strchr(name, '.') || strchr(name, '=')) return COSROD_ERR_INVALID;
  char e[40], p[40], d[40];
  fmt_num(e, sizeof e, E);
  fmt_num(p, sizeof p, poisson);
  fmt_num(d, sizeof d, density);
  return add(b, "materials.%s={E: %s, poisson: %s, density: %s}", name, e, p, d);
}

long cosrod_sc_builder_add_rod(cosrod_sc_builder *b, const char *name) {
  if (!b) return -1;
  if (b->nrods == b->cap_rods) {
    size_t nc = b->cap_rods ? 2 * b->cap_rods : 4;
    size_t *l = realloc(b->nloads, nc * sizeof *l);
    if (!l) {
      b->nomem = 1;
      return -1;
    }
    b->nloads = l;
    b->cap_rods = nc;
  }
  size_t r = b->nrods;
  char key[64];
  snprintf(key, sizeof key, "rods.%zu.name", r);
  cosrod_status st = name ? cosrod_sc_builder_set_str(b, key, name) : add(b, "rods.%zu={}", r);
  if (st != COSROD_OK) return -1;
  b->nloads[r] = 0;
  b->nrods++;
  return (long)r;
}

cosrod_status cosrod_sc_builder_rod_set(cosrod_sc_builder *b, long rod, const char *key,
                                        const char *yaml_value) {
  if (!b || rod < 0 || (size_t)rod >= b->nrods || !key || !yaml_value) return COSROD_ERR_INVALID;
  return add(b, "rods.%ld.%s=%s", rod, key, yaml_value);
}

cosrod_status cosrod_sc_builder_end(cosrod_sc_builder *b, long rod, int end, cosrod_sc_end_type type) {
  static const char *const names[] = {"free", "pinned", "clamped", "prescribed"};
  if (!b || rod < 0 || (size_t)rod >= b->nrods || end < 0 || end > 1 || (int)type < 0 || (int)type > 3)
    return COSROD_ERR_INVALID;
  return add(b, "rods.%ld.ends.%s.type=%s", rod, end ? "end" : "start", names[type]);
}

long cosrod_sc_builder_add_load(cosrod_sc_builder *b, long rod, cosrod_sc_load_type type, long vertex,
                                const double value[3], cosrod_sc_frame frame) {
  static const char *const names[] = {"force", "moment", "distributed_force"};
  if (!b || rod < 0 || (size_t)rod >= b->nrods || (int)type < 0 || (int)type > 2 || !value) return -1;
  char v[3][40], at[32] = "";
  for (int k = 0; k < 3; k++) fmt_num(v[k], sizeof v[k], value[k]);
  if (type != COSROD_SC_LOAD_DISTRIBUTED_FORCE) snprintf(at, sizeof at, "at: %ld, ", vertex);
  size_t i = b->nloads[rod];
  if (add(b, "rods.%ld.loads.%zu={type: %s, %svalue: [%s, %s, %s], frame: %s}", rod, i, names[type], at, v[0],
          v[1], v[2], frame == COSROD_SC_FRAME_MATERIAL ? "material" : "spatial") != COSROD_OK)
    return -1;
  b->nloads[rod]++;
  return (long)i;
}

static cosrod_scenario *sc_builder_finish(const cosrod_sc_builder *b, cosrod_status *status, char *err,
                                          size_t errlen) {
  cosrod_status st;
  cosrod_scenario *sc = NULL;
  if (err && errlen) err[0] = '\0';
  if (!b) {
    st = COSROD_ERR_INVALID;
    if (err && errlen) snprintf(err, errlen, "cosrod_sc_builder_finish: no builder (NULL)");
  } else if (b->nomem) {
    st = COSROD_ERR_NOMEM;
    if (err && errlen) snprintf(err, errlen, "cosrod_sc_builder_finish: out of memory while building");
  } else {
    static const char doc[] = "cosrod: 1\n";
    sc = cosrod_scenario_parse(doc, sizeof doc - 1, BUILDER_FILE, (const char *const *)b->sets, b->n, &st);
    if (st != COSROD_OK && err && errlen) {
      snprintf(err, errlen, "%s", cosrod_last_error());
      /* "--set key: problem" -> "key: problem" */
      static const char pre[] = "--set ";
      size_t n = strlen(err);
      if (!strncmp(err, pre, sizeof pre - 1)) {
        memmove(err, err + sizeof pre - 1, n - (sizeof pre - 1) + 1);
        n -= sizeof pre - 1;
      }
    }
  }
  if (status) *status = st;
  return st == COSROD_OK ? sc : NULL;
}

cosrod_scenario *cosrod_sc_builder_finish(const cosrod_sc_builder *b, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  cosrod_scenario *obj = sc_builder_finish(b, &st, msg, sizeof msg);
  return cosrod_error_result(obj, status, st, msg);
}
