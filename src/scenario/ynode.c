// SPDX-License-Identifier: Apache-2.0
/* YAML text -> ynode tree, built from libyaml parser events (see ynode.h). */
#include "ynode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Mappings in the schema are small; a bound keeps duplicate detection cheap. */
#define YN_MAX_MAP_ENTRIES 4096

ynode *yn_new(int kind, int line) {
  ynode *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->kind = kind;
  n->line = line;
  n->key_line = line;
  return n;
}

ynode *yn_scalar(const char *s, size_t len, int line) {
  ynode *n = yn_new(YN_SCALAR, line);
  if (!n) return NULL;
  n->str = malloc(len + 1);
  if (!n->str) {
    free(n);
    return NULL;
  }
  if (len) memcpy(n->str, s, len);
  n->str[len] = '\0';
  n->len = len;
  return n;
}

void yn_free(ynode *n) {
  if (!n) return;
  /* Depth is bounded by YN_MAX_DEPTH (plus the few levels --set may add). */
  if (n->kind == YN_MAP) {
    for (size_t i = 0; i < n->n; i++) {
      yn_free(n->ent[i].key);
      yn_free(n->ent[i].val);
    }
    free(n->ent);
  } else if (n->kind == YN_SEQ) {
    for (size_t i = 0; i < n->n; i++) yn_free(n->item[i]);
    free(n->item);
  }
  free(n->str);
  free(n);
}

yentry *yn_find(ynode *map, const char *key) {
  if (!map || map->kind != YN_MAP) return NULL;
  size_t kl = strlen(key);
  for (size_t i = 0; i < map->n; i++) {
    ynode *k = map->ent[i].key;
    if (k->len == kl && memcmp(k->str, key, kl) == 0) return &map->ent[i];
  }
  return NULL;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 4;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, nc * elem);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

int yn_map_add(ynode *map, ynode *key, ynode *val) {
  if (grow((void **)&map->ent, &map->cap, map->n + 1, sizeof(yentry))) return -1;
  map->ent[map->n].key = key;
  map->ent[map->n].val = val;
  map->ent[map->n].used = 0;
  map->n++;
  return 0;
}

int yn_seq_add(ynode *seq, ynode *val) {
  if (grow((void **)&seq->item, &seq->cap, seq->n + 1, sizeof(ynode *))) return -1;
  seq->item[seq->n++] = val;
  return 0;
}

/* ---- builder ------------------------------------------------------------ */

typedef struct frame {
  ynode *node;
  ynode *key; /* YN_MAP: pending key (scalar) awaiting its value, else NULL */
} frame;

typedef struct builder {
  frame stack[YN_MAX_DEPTH + 1];
  int depth;
  size_t nodes;
  int cmdline;
  char *msg;
  size_t msglen;
} builder;

/* Dotted path of the position being built, e.g. "rods.0.section". */
static void path_of(const builder *b, char *out, size_t outlen) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < b->depth; i++) {
    const frame *f = &b->stack[i];
    char comp[80];
    if (i == 8 && b->depth > 10) { /* keep messages short for absurd nesting */
      snprintf(out + used, outlen - used, "%s", ".(...)");
      used += strlen(out + used);
      i = b->depth - 2;
      continue;
    }
    if (f->node->kind == YN_MAP) {
      if (!f->key) break;
      snprintf(comp, sizeof comp, "%.70s", f->key->str);
    } else {
      snprintf(comp, sizeof comp, "%zu", f->node->n);
    }
    int w = snprintf(out + used, outlen - used, "%s%s", used ? "." : "", comp);
    if (w < 0 || (size_t)w >= outlen - used) break;
    used += (size_t)w;
  }
  if (!out[0]) snprintf(out, outlen, "(root)");
}

static int fail(builder *b, int line, const char *problem) {
  char path[256];
  path_of(b, path, sizeof path);
  snprintf(b->msg, b->msglen, "%d\t%s\t%s", line, path, problem);
  return -1;
}

static int is_null_text(const char *s, size_t len) {
  return len == 0 || (len == 1 && s[0] == '~') ||
         (len == 4 && (!strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL")));
}

/* Attach a finished node to the container on top of the stack (or make it
 * the root).  Takes ownership of n. */
static int attach(builder *b, ynode *n, ynode **root) {
  if (b->depth == 0) {
    *root = n;
    return 0;
  }
  frame *f = &b->stack[b->depth - 1];
  if (f->node->kind == YN_SEQ) {
    n->key_line = n->line;
    if (yn_seq_add(f->node, n)) {
      int line = n->line;
      yn_free(n);
      return fail(b, line, "out of memory");
    }
    return 0;
  }
  if (!f->key) { /* n is a key */
    if (n->kind != YN_SCALAR) {
      int line = n->line;
      yn_free(n);
      return fail(b, line, "mapping keys must be plain scalars");
    }
    for (size_t i = 0; i < f->node->n; i++) {
      ynode *k = f->node->ent[i].key;
      if (k->len == n->len && memcmp(k->str, n->str, n->len) == 0) {
        char m[160];
        snprintf(m, sizeof m, "duplicate key '%.60s' (first at line %d)", n->str, k->line);
        int line = n->line;
        f->key = n; /* so the path names the duplicate key */
        int r = fail(b, line, m);
        f->key = NULL;
        yn_free(n);
        return r;
      }
    }
    if (f->node->n >= YN_MAX_MAP_ENTRIES) {
      int line = n->line;
      yn_free(n);
      return fail(b, line, "mapping has too many keys");
    }
    f->key = n;
    return 0;
  }
  n->key_line = f->key->line;
  if (yn_map_add(f->node, f->key, n)) {
    yn_free(n);
    return fail(b, 0, "out of memory");
  }
  f->key = NULL;
  return 0;
}

static int push(builder *b, ynode *n) {
  if (b->depth >= YN_MAX_DEPTH) {
    int line = n->line;
    yn_free(n);
    return fail(b, line, "nesting too deep");
  }
  b->stack[b->depth].node = n;
  b->stack[b->depth].key = NULL;
  b->depth++;
  return 0;
}

/* Pop the top container and attach it to its parent. */
static int pop(builder *b, ynode **root) {
  frame f = b->stack[--b->depth];
  if (f.key) { /* cannot happen with a conforming parser; be safe */
    yn_free(f.key);
  }
  return attach(b, f.node, root);
}

static int tag_is_str(const yaml_char_t *tag) {
  return tag && (!strcmp((const char *)tag, YAML_STR_TAG) || !strcmp((const char *)tag, "!!str"));
}

static void unwind(builder *b) {
  while (b->depth > 0) {
    frame *f = &b->stack[--b->depth];
    yn_free(f->key);
    yn_free(f->node);
  }
}

int yn_parse(const char *text, size_t len, int from_cmdline, ynode **root_out, char *msg, size_t msglen) {
  yaml_parser_t parser;
  builder b;
  ynode *root = NULL;
  int docs = 0, rc = 0, done = 0;
  memset(&b, 0, sizeof b);
  b.cmdline = from_cmdline;
  b.msg = msg;
  b.msglen = msglen;
  *root_out = NULL;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(msg, msglen, "0\t(root)\tout of memory");
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  while (!done && rc == 0) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      char m[256];
      int line = (int)parser.problem_mark.line + 1;
      if (parser.context)
        snprintf(m, sizeof m, "YAML syntax error: %s %s", parser.problem ? parser.problem : "error",
                 parser.context);
      else
        snprintf(m, sizeof m, "YAML syntax error: %s", parser.problem ? parser.problem : "error");
      if (from_cmdline) line = 0;
      rc = fail(&b, line, m);
      break;
    }
    int line = from_cmdline ? 0 : (int)ev.start_mark.line + 1;
    switch (ev.type) {
      case YAML_STREAM_END_EVENT:
        done = 1;
        break;
      case YAML_DOCUMENT_START_EVENT:
        if (++docs > 1) rc = fail(&b, line, "more than one YAML document");
        break;
      case YAML_ALIAS_EVENT:
        rc = fail(&b, line, "YAML aliases (*name) are not supported");
        break;
      case YAML_SCALAR_EVENT:
      case YAML_MAPPING_START_EVENT:
      case YAML_SEQUENCE_START_EVENT: {
        if (++b.nodes > YN_MAX_NODES) {
          rc = fail(&b, line, "document too large");
          break;
        }
        ynode *n;
        if (ev.type == YAML_SCALAR_EVENT) {
          n = yn_scalar((const char *)ev.data.scalar.value, ev.data.scalar.length, line);
          if (n) {
            n->quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE || tag_is_str(ev.data.scalar.tag);
            n->null = !n->quoted && is_null_text(n->str, n->len);
          }
        } else {
          n = yn_new(ev.type == YAML_MAPPING_START_EVENT ? YN_MAP : YN_SEQ, line);
        }
        if (!n) {
          rc = fail(&b, line, "out of memory");
          break;
        }
        rc = ev.type == YAML_SCALAR_EVENT ? attach(&b, n, &root) : push(&b, n);
        break;
      }
      case YAML_MAPPING_END_EVENT:
      case YAML_SEQUENCE_END_EVENT:
        if (b.depth > 0) rc = pop(&b, &root);
        break;
      default:
        break;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&parser);
  unwind(&b);
  if (rc) {
    yn_free(root);
    return -1;
  }
  *root_out = root;
  return 0;
}
