// SPDX-License-Identifier: Apache-2.0
/* A small YAML node tree (private to the scenario module).
 *
 * libyaml's event parser is turned into a tree of mappings, sequences and
 * scalars that remembers the line of every node and of every mapping key.
 * The builder is iterative with a depth limit, rejects aliases, duplicate
 * keys, non-scalar keys and more than one document, so that the validator
 * only ever sees a finite, acyclic tree. */
#ifndef COSROD_SCENARIO_YNODE_H
#define COSROD_SCENARIO_YNODE_H

#include <stddef.h>

enum { YN_SCALAR, YN_MAP, YN_SEQ };

/* Maximum nesting depth accepted from a file (the schema needs 6). */
#define YN_MAX_DEPTH 64
/* Maximum number of nodes in one document (keeps fuzzed inputs bounded). */
#define YN_MAX_NODES 2500000

typedef struct ynode ynode;
typedef struct yentry {
  ynode *key; /* always a scalar */
  ynode *val;
  int used; /* set by the validator when it reads the key */
} yentry;

struct ynode {
  int kind;
  int line;     /* 1-based line of the node itself; 0 = from the command line */
  int key_line; /* line of the mapping key or sequence item introducing it */
  int quoted;   /* scalar written quoted or tagged !!str: never a number */
  int null;     /* plain scalar "", "~", "null", "Null", "NULL" */
  char *str;    /* scalar text, NUL-terminated */
  size_t len;   /* scalar length (may contain NUL bytes) */
  size_t n, cap;
  yentry *ent;  /* YN_MAP: n entries */
  ynode **item; /* YN_SEQ: n items */
};

/* Parse `len` bytes of YAML.  On success returns 0 and *root (NULL for an
 * empty document).  On failure returns -1 and writes "LINE\tPATH\tPROBLEM"
 * into msg (the caller formats the final message).  With from_cmdline (a
 * --set value) every node gets line 0. */
int yn_parse(const char *text, size_t len, int from_cmdline, ynode **root, char *msg, size_t msglen);

void yn_free(ynode *n);

/* Entry of a mapping by key, or NULL. */
yentry *yn_find(ynode *map, const char *key);

/* Add (key, val) to a mapping or val to a sequence; returns 0 or -1 (memory). */
int yn_map_add(ynode *map, ynode *key, ynode *val);
int yn_seq_add(ynode *seq, ynode *val);

/* New empty node of a kind (line 0) / scalar copy of a string. */
ynode *yn_new(int kind, int line);
ynode *yn_scalar(const char *s, size_t len, int line);

#endif
