// SPDX-License-Identifier: Apache-2.0
/* Helpers for the output tests: scratch directories, file reading, CSV
 * parsing, a small JSON reader (RFC 8259, strict) and an XML
 * well-formedness checker — written independently of src/output. */
#ifndef COSROD_TESTS_OUTTEST_H
#define COSROD_TESTS_OUTTEST_H

#include <stddef.h>

/* Fresh directory /tmp/cosrod_out_<tag>_XXXXXX (malloc'd path). */
char *ot_mkdtemp(const char *tag);
/* Recursive delete. */
void ot_rmtree(const char *path);
/* path = a + "/" + b in a static rotating buffer (8 slots). */
const char *ot_path(const char *a, const char *b);
int ot_exists(const char *path);
long ot_file_size(const char *path);
/* Whole file, NUL-terminated (malloc'd), or NULL. */
char *ot_read(const char *path, size_t *len);
/* Number of directory entries whose name ends with suffix (hidden included). */
int ot_count_suffix(const char *dir, const char *suffix);

/* CSV: header line (malloc'd copy without newline) and the data rows as
 * doubles (rows x ncol, malloc'd); returns the number of rows or -1 when a
 * row does not have ncol fields or a field is not a complete number. */
long ot_csv_read(const char *path, char **header, double **data, int ncol);

/* ---- JSON --------------------------------------------------------------- */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jnode {
  jtype type;
  char *key; /* member name inside an object */
  double num;
  char *str; /* decoded UTF-8 */
  int boolean;
  struct jnode **items;
  size_t n;
} jnode;
/* Parse a complete document; NULL on a syntax error (message in err). */
jnode *json_parse(const char *text, char *err, size_t errlen);
void json_free(jnode *n);
const jnode *json_get(const jnode *obj, const char *key); /* NULL if absent */

/* ---- XML ---------------------------------------------------------------- */
/* 1 if the document is well-formed (one root, balanced tags, quoted
 * attributes, no duplicate attributes, known entities); else 0 with err. */
int xml_wellformed(const char *text, char *err, size_t errlen);

#endif /* COSROD_TESTS_OUTTEST_H */
