// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: `--set key.path=value` overrides applied to the ynode tree
 * before validation, and the key -> line table behind cosrod_scenario_line. */
#include "scenario_internal.h"
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
void sc_apply_set(ctx *c, ynode **rootp, const char *set) {
  const char *eq = strchr(set, '=');
  char keypath[PATH_MAX_LEN];
  if (!eq || eq == set) {
    snprintf(keypath, sizeof keypath, "%.200s", set);
    sc_sanitize(keypath);
    if (c->err && c->errlen)
      snprintf(c->err, c->errlen, "--set %s: expects key.path=value", keypath[0] ? keypath : "(set)");
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
      sc_sanitize(shown);
      if (c->err && c->errlen)
        snprintf(c->err, c->errlen, "--set %s: malformed key path", shown);
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
  for (int i = 0; i < nc; i++) sc_push(c, comp[i]);
  if (yn_parse(vtext, strlen(vtext), 1, &val, msg, sizeof msg)) {
    const char *problem = strrchr(msg, '\t');
    sc_fail(c, &CMDLINE_NODE, NULL, "bad value: %s", problem ? problem + 1 : msg);
  }
  if (!val) val = yn_scalar("", 0, 0);
  if (!val) sc_nomem(c);
  val->null = val->kind == YN_SCALAR && !val->quoted && val->len == 0 ? 1 : val->null;
  val->line = val->key_line = 0;
  if (!*rootp) {
    *rootp = yn_new(YN_MAP, 0);
    if (!*rootp) {
      yn_free(val);
      sc_nomem(c);
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
          sc_nomem(c);
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
          sc_nomem(c);
        }
      }
      slot = &cur->item[idx];
    } else {
      yn_free(val);
      c->path[c->plen[i]] = '\0'; /* path up to the container */
      c->depth = i;
      if (cur->kind == YN_SEQ)
        sc_fail(c, &CMDLINE_NODE, comp[i],
                "no such list index (the list has %zu item%s: use 0..%zu to change one, or %zu to append one)",
                cur->n, cur->n == 1 ? "" : "s", cur->n ? cur->n - 1 : 0, cur->n);
      sc_fail(c, &CMDLINE_NODE, comp[i], "cannot set a key below a scalar value");
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
        sc_nomem(c);
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
    if (!p) sc_nomem(c);
    L->path = p;
    int *l = realloc(L->line, nc * sizeof *l);
    if (!l) sc_nomem(c);
    L->line = l;
    L->cap = nc;
  }
  L->path[L->n] = sc_xstrdup(c, path);
  L->line[L->n] = line;
  L->n++;
}

/* Record every mapping key and every container item (not scalar list items). */
void sc_lines_walk(ctx *c, cosrod_sc_lines *L, const ynode *n) {
  if (n->kind == YN_MAP) {
    for (size_t i = 0; i < n->n; i++) {
      sc_push(c, n->ent[i].key->str);
      lines_add(c, L, c->path, n->ent[i].key->line);
      if (n->ent[i].val) sc_lines_walk(c, L, n->ent[i].val);
      sc_pop(c);
    }
  } else if (n->kind == YN_SEQ) {
    for (size_t i = 0; i < n->n; i++) {
      if (!n->item[i] || n->item[i]->kind == YN_SCALAR) continue;
      sc_push_idx(c, i);
      lines_add(c, L, c->path, n->item[i]->line);
      sc_lines_walk(c, L, n->item[i]);
      sc_pop(c);
    }
  }
}

void sc_lines_free(cosrod_sc_lines *L) {
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
