// SPDX-License-Identifier: Apache-2.0
/* Helpers for the output tests (see outtest.h). */
#define _POSIX_C_SOURCE 200809L
#include "outtest.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ot_mkdtemp(const char *tag) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  size_t n = strlen(base) + strlen(tag) + 32;
  char *p = malloc(n);
  snprintf(p, n, "%s/cosrod_out_%s_XXXXXX", base, tag);
  if (!mkdtemp(p)) {
    free(p);
    return NULL;
  }
  return p;
}

void ot_rmtree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) return;
  if (S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(path);
    if (d) {
      struct dirent *e;
      while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *c = malloc(n);
        snprintf(c, n, "%s/%s", path, e->d_name);
        ot_rmtree(c);
        free(c);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

const char *ot_path(const char *a, const char *b) {
  static char buf[8][1024];
  static int slot = 0;
  char *r = buf[slot++ & 7];
  snprintf(r, 1024, "%s/%s", a, b);
  return r;
}

int ot_exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0;
}

long ot_file_size(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

char *ot_read(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, fp)) > 0) {
    n += got;
    if (cap - n - 1 == 0) buf = realloc(buf, cap *= 2);
  }
  fclose(fp);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

int ot_count_suffix(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int count = 0;
  size_t ls = strlen(suffix);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l >= ls && strcmp(e->d_name + l - ls, suffix) == 0) count++;
  }
  closedir(d);
  return count;
}

long ot_csv_read(const char *path, char **header, double **data, int ncol) {
  char *text = ot_read(path, NULL);
  *header = NULL;
  *data = NULL;
  if (!text) return -1;
  char *nl = strchr(text, '\n');
  if (!nl) {
    free(text);
    return -1;
  }
  *nl = '\0';
  *header = strdup(text);
  long rows = 0, cap = 64;
  double *d = malloc((size_t)cap * (size_t)ncol * sizeof *d);
  char *p = nl + 1;
  long result = 0;
  while (*p) {
    char *end = strchr(p, '\n');
    if (!end) { /* a last line without newline is a truncated row */
      result = -1;
      break;
    }
    *end = '\0';
    if (rows == cap) d = realloc(d, (size_t)(cap *= 2) * (size_t)ncol * sizeof *d);
    char *q = p;
    for (int c = 0; c < ncol; ++c) {
      char *e;
      errno = 0;
      double v = strtod(q, &e);
      if (e == q || (c + 1 < ncol ? *e != ',' : *e != '\0')) {
        result = -1;
        break;
      }
      d[rows * ncol + c] = v;
      q = e + 1;
    }
    if (result < 0) break;
    rows++;
    p = end + 1;
  }
  free(text);
  if (result < 0) {
    free(d);
    return -1;
  }
  *data = d;
  return rows;
}

/* ---- JSON reader ---------------------------------------------------------- */

typedef struct jp {
  const char *s;
  char *err;
  size_t errlen;
  int failed;
  int depth;
} jp;

static void jfail(jp *p, const char *msg) {
  if (!p->failed) snprintf(p->err, p->errlen, "%s at offset ...%.20s", msg, p->s);
  p->failed = 1;
}

static void jws(jp *p) {
  while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r') p->s++;
}

static jnode *jnew(jtype t) {
  jnode *n = calloc(1, sizeof *n);
  n->type = t;
  return n;
}

void json_free(jnode *n) {
  if (!n) return;
  for (size_t i = 0; i < n->n; ++i) json_free(n->items[i]);
  free(n->items);
  free(n->key);
  free(n->str);
  free(n);
}

static void put_utf8(char **buf, size_t *len, size_t *cap, unsigned cp) {
  if (*len + 5 >= *cap) *buf = realloc(*buf, *cap *= 2);
  char *o = *buf + *len;
  if (cp < 0x80) {
    o[0] = (char)cp;
    *len += 1;
  } else if (cp < 0x800) {
    o[0] = (char)(0xc0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3f));
    *len += 2;
  } else if (cp < 0x10000) {
    o[0] = (char)(0xe0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[2] = (char)(0x80 | (cp & 0x3f));
    *len += 3;
  } else {
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    *len += 4;
  }
}

static int hex4(const char *s, unsigned *v) {
  *v = 0;
  for (int i = 0; i < 4; ++i) {
    int c = s[i], d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return 0;
    *v = *v * 16 + (unsigned)d;
  }
  return 1;
}

static char *jstring(jp *p) {
  if (*p->s != '"') {
    jfail(p, "expected string");
    return NULL;
  }
  p->s++;
  size_t cap = 32, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    unsigned char c = (unsigned char)*p->s;
    if (c == '\0' || c < 0x20) {
      jfail(p, "unterminated string or raw control character");
      free(buf);
      return NULL;
    }
    p->s++;
    if (c == '"') break;
    if (c == '\\') {
      char e = *p->s++;
      unsigned cp;
      switch (e) {
        case '"':
          cp = '"';
          break;
        case '\\':
          cp = '\\';
          break;
        case '/':
          cp = '/';
          break;
        case 'b':
          cp = '\b';
          break;
        case 'f':
          cp = '\f';
          break;
        case 'n':
          cp = '\n';
          break;
        case 'r':
          cp = '\r';
          break;
        case 't':
          cp = '\t';
          break;
        case 'u':
          if (!hex4(p->s, &cp)) {
            jfail(p, "bad \\u escape");
            free(buf);
            return NULL;
          }
          p->s += 4;
          if (cp >= 0xd800 && cp < 0xdc00 && p->s[0] == '\\' && p->s[1] == 'u') {
            unsigned lo;
            if (hex4(p->s + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
              cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
              p->s += 6;
            }
          }
          break;
        default:
          jfail(p, "bad escape");
          free(buf);
          return NULL;
      }
      put_utf8(&buf, &len, &cap, cp);
    } else {
      if (len + 2 >= cap) buf = realloc(buf, cap *= 2);
      buf[len++] = (char)c;
    }
  }
  buf[len] = '\0';
  return buf;
}

static jnode *jvalue(jp *p);

static jnode *jnumber(jp *p) {
  const char *s = p->s;
  if (*s == '-') s++;
  if (*s == '0') {
    s++;
  } else if (*s >= '1' && *s <= '9') {
    while (isdigit((unsigned char)*s)) s++;
  } else {
    jfail(p, "bad number");
    return NULL;
  }
  if (*s == '.') {
    s++;
    if (!isdigit((unsigned char)*s)) {
      jfail(p, "bad fraction");
      return NULL;
    }
    while (isdigit((unsigned char)*s)) s++;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!isdigit((unsigned char)*s)) {
      jfail(p, "bad exponent");
      return NULL;
    }
    while (isdigit((unsigned char)*s)) s++;
  }
  jnode *n = jnew(J_NUM);
  n->num = strtod(p->s, NULL);
  p->s = s;
  return n;
}

static void jpush(jnode *parent, jnode *child) {
  parent->items = realloc(parent->items, (parent->n + 1) * sizeof *parent->items);
  parent->items[parent->n++] = child;
}

static jnode *jvalue(jp *p) {
  jws(p);
  if (++p->depth > 64) {
    jfail(p, "too deep");
    return NULL;
  }
  jnode *n = NULL;
  char c = *p->s;
  if (c == '{' || c == '[') {
    int obj = c == '{';
    n = jnew(obj ? J_OBJ : J_ARR);
    p->s++;
    jws(p);
    if (*p->s == (obj ? '}' : ']')) {
      p->s++;
    } else {
      for (;;) {
        char *key = NULL;
        jws(p);
        if (obj) {
          key = jstring(p);
          if (!key) break;
          jws(p);
          if (*p->s != ':') {
            free(key);
            jfail(p, "expected ':'");
            break;
          }
          p->s++;
        }
        jnode *v = jvalue(p);
        if (!v) {
          free(key);
          break;
        }
        v->key = key;
        jpush(n, v);
        jws(p);
        if (*p->s == ',') {
          p->s++;
          continue;
        }
        if (*p->s == (obj ? '}' : ']')) {
          p->s++;
          break;
        }
        jfail(p, "expected ',' or end of container");
        break;
      }
    }
  } else if (c == '"') {
    char *s = jstring(p);
    if (s) {
      n = jnew(J_STR);
      n->str = s;
    }
  } else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
    n = jnew(J_BOOL);
    n->boolean = c == 't';
    p->s += n->boolean ? 4 : 5;
  } else if (!strncmp(p->s, "null", 4)) {
    n = jnew(J_NULL);
    p->s += 4;
  } else {
    n = jnumber(p);
  }
  p->depth--;
  if (p->failed) {
    json_free(n);
    return NULL;
  }
  return n;
}

jnode *json_parse(const char *text, char *err, size_t errlen) {
  jp p = {text, err, errlen, 0, 0};
  if (err && errlen) err[0] = '\0';
  jnode *n = jvalue(&p);
  if (!n) return NULL;
  jws(&p);
  if (*p.s) {
    jfail(&p, "trailing characters");
    json_free(n);
    return NULL;
  }
  return n;
}

const jnode *json_get(const jnode *obj, const char *key) {
  if (!obj || obj->type != J_OBJ) return NULL;
  for (size_t i = 0; i < obj->n; ++i)
    if (obj->items[i]->key && !strcmp(obj->items[i]->key, key)) return obj->items[i];
  return NULL;
}

/* ---- XML well-formedness ---------------------------------------------------- */

static int xname_start(int c) { return isalpha(c) || c == '_' || c == ':'; }
static int xname_char(int c) { return isalnum(c) || c == '_' || c == ':' || c == '-' || c == '.'; }

static int xfail(char *err, size_t errlen, const char *msg, const char *at) {
  snprintf(err, errlen, "%s near '%.30s'", msg, at);
  return 0;
}

/* Text or attribute value: '<' forbidden (and '"' ends attributes), entities checked. */
static int xtext(const char **ps, char stop, char *err, size_t errlen) {
  const char *s = *ps;
  while (*s && *s != stop) {
    if (*s == '<' && stop != '<') return xfail(err, errlen, "'<' in attribute", s);
    if (*s == '&') {
      static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
      int ok = 0;
      for (int i = 0; i < 5 && !ok; ++i) ok = !strncmp(s, ents[i], strlen(ents[i]));
      if (!ok && s[1] == '#') {
        const char *e = s + 2;
        while (isalnum((unsigned char)*e)) e++;
        ok = *e == ';' && e > s + 2;
      }
      if (!ok) return xfail(err, errlen, "bad entity", s);
    }
    s++;
  }
  *ps = s;
  return 1;
}

int xml_wellformed(const char *text, char *err, size_t errlen) {
  const char *s = text;
  char stack[64][64];
  int depth = 0, roots = 0;
  if (!strncmp(s, "<?xml", 5)) {
    s = strstr(s, "?>");
    if (!s) return xfail(err, errlen, "unterminated declaration", text);
    s += 2;
  }
  while (*s) {
    if (*s != '<') {
      if (depth == 0 && !isspace((unsigned char)*s)) return xfail(err, errlen, "text outside the root", s);
      if (!xtext(&s, '<', err, errlen)) return 0;
      continue;
    }
    if (!strncmp(s, "<!--", 4)) {
      const char *e = strstr(s, "-->");
      if (!e) return xfail(err, errlen, "unterminated comment", s);
      s = e + 3;
      continue;
    }
    if (s[1] == '/') {
      s += 2;
      const char *n0 = s;
      while (xname_char((unsigned char)*s)) s++;
      size_t ln = (size_t)(s - n0);
      while (isspace((unsigned char)*s)) s++;
      if (*s != '>') return xfail(err, errlen, "bad end tag", n0);
      if (depth == 0 || strlen(stack[depth - 1]) != ln || strncmp(stack[depth - 1], n0, ln))
        return xfail(err, errlen, "mismatched end tag", n0);
      depth--;
      s++;
      continue;
    }
    s++;
    if (!xname_start((unsigned char)*s)) return xfail(err, errlen, "bad tag name", s);
    const char *n0 = s;
    while (xname_char((unsigned char)*s)) s++;
    size_t ln = (size_t)(s - n0);
    if (ln >= 64) return xfail(err, errlen, "tag name too long", n0);
    char attrs[32][64];
    int na = 0;
    for (;;) {
      int sp = 0;
      while (isspace((unsigned char)*s)) s++, sp = 1;
      if (*s == '>' || (s[0] == '/' && s[1] == '>')) break;
      if (!sp || !xname_start((unsigned char)*s)) return xfail(err, errlen, "bad attribute", s);
      const char *a0 = s;
      while (xname_char((unsigned char)*s)) s++;
      size_t la = (size_t)(s - a0);
      if (la >= 64 || na >= 32) return xfail(err, errlen, "attribute too long or too many", a0);
      for (int i = 0; i < na; ++i)
        if (strlen(attrs[i]) == la && !strncmp(attrs[i], a0, la))
          return xfail(err, errlen, "duplicate attribute", a0);
      memcpy(attrs[na], a0, la);
      attrs[na++][la] = '\0';
      while (isspace((unsigned char)*s)) s++;
      if (*s != '=') return xfail(err, errlen, "expected '='", s);
      s++;
      while (isspace((unsigned char)*s)) s++;
      char q = *s;
      if (q != '"' && q != '\'') return xfail(err, errlen, "unquoted attribute", s);
      s++;
      if (!xtext(&s, q, err, errlen)) return 0;
      if (*s != q) return xfail(err, errlen, "unterminated attribute", a0);
      s++;
    }
    if (depth == 0 && ++roots > 1) return xfail(err, errlen, "second root element", n0);
    if (*s == '/') {
      s += 2;
    } else {
      if (depth >= 64) return xfail(err, errlen, "too deep", n0);
      memcpy(stack[depth], n0, ln);
      stack[depth++][ln] = '\0';
      s++;
    }
  }
  if (depth != 0) return xfail(err, errlen, "unclosed element", stack[depth - 1]);
  if (roots != 1) return xfail(err, errlen, "no root element", text);
  return 1;
}
