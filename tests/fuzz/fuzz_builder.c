// SPDX-License-Identifier: Apache-2.0
/* libFuzzer target for the C builder API (`make fuzz FUZZ_TARGET=fuzz_builder`),
 * and a replay test over tests/fuzz/regress_builder/.
 *
 * Input: a byte program.  Each operation is one byte (the call, modulo 10)
 * followed by argument bytes: key paths are taken from the loader's schema
 * table (cosrod_sc_key_at) with N / NAME replaced by small indices / names,
 * values from a pool of YAML texts and numbers (also NaN, inf, huge and
 * negative), enums and indices from a byte (also out of range).  Then
 * cosrod_sc_builder_finish.  Invariants (a broken one traps): a setter
 * returns OK, ERR_INVALID or ERR_NOMEM; finish gives a scenario or a status
 * with a message; an accepted scenario written by cosrod_scenario_to_yaml
 * reads back, and writing that again gives the same text (round trip). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"

static void require(int cond) {
  if (!cond) __builtin_trap();
}

typedef struct reader {
  const uint8_t *p;
  size_t n, i;
} reader;

static unsigned byte(reader *r) { return r->i < r->n ? r->p[r->i++] : 0u; }

static const char *const VALUES[] = {"1",        "0",      "-1",     "0.01",   "1e300", "-1e-300", ".nan", ".inf",
                                     "20",       "true",   "false",  "steel",  "circle", "dynamic", "static",
                                     "modes",    "radau5", "galpha", "[0, 0, 1]", "[1, 0]", "{shape: circle, radius: 0.01}",
                                     "{type: clamped}", "{type: force, value: [0, 0, -1], at: 1.0}", "[]", "{}", "",
                                     "\"x\"", "[[0, 0, 0, 0], [1, 0, 0, 1]]", "kirchhoff-inextensible", "arc"};
#define NVALUES (sizeof VALUES / sizeof VALUES[0])

/* A key path from the schema table: "rods.N" -> "rods.<i>", "materials.NAME" -> "materials.m<i>". */
static void key_path(reader *r, char *out, size_t len) {
  size_t nk = cosrod_sc_key_count();
  const cosrod_sc_keyinfo *k = nk ? cosrod_sc_key_at((byte(r) << 8 | byte(r)) % nk) : NULL;
  if (!k) {
    snprintf(out, len, "x");
    return;
  }
  char sec[256];
  size_t o = 0;
  for (const char *s = k->section; *s && o + 8 < sizeof sec; s++) {
    if (s[0] == 'N' && (s[1] == '.' || s[1] == '\0') && (s == k->section || s[-1] == '.'))
      o += (size_t)snprintf(sec + o, sizeof sec - o, "%u", byte(r) % 3);
    else if (!strncmp(s, "NAME", 4)) {
      o += (size_t)snprintf(sec + o, sizeof sec - o, "m%u", byte(r) % 2);
      s += 3;
    } else
      sec[o++] = *s;
  }
  sec[o] = '\0';
  snprintf(out, len, "%s%s%s", sec, sec[0] ? "." : "", k->key);
}

static double number(reader *r) {
  static const double special[] = {0.0, 1.0, -1.0, 1e-3, 2.1e11, 7850, 0.3, 1e308, -1e308, 5e-324};
  unsigned b = byte(r);
  if (b < 200) return special[b % 10];
  if (b < 220) return NAN;
  if (b < 240) return b & 1 ? INFINITY : -INFINITY;
  return (double)(int8_t)byte(r) * 0.125;
}

static int check_status(cosrod_status s) {
  require(s == COSROD_OK || s == COSROD_ERR_INVALID || s == COSROD_ERR_NOMEM);
  return s == COSROD_OK;
}

static char *to_text(const cosrod_scenario *sc, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f) return NULL;
  cosrod_status s = cosrod_scenario_to_yaml(sc, f);
  fclose(f);
  if (s != COSROD_OK) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* Returns 1 when finish accepted the program (for the replay's count). */
static int run_one(const uint8_t *data, size_t size) {
  reader r = {data, size, 0};
  cosrod_sc_builder *b = cosrod_sc_builder_create(NULL);
  if (!b) return 0;
  char key[400];
  for (int ops = 0; r.i < r.n && ops < 64; ops++) {
    unsigned op = byte(&r) % 10;
    long rod = (long)(byte(&r) % 4) - 1; /* -1 .. 2: also out of range */
    switch (op) {
      case 0:
        key_path(&r, key, sizeof key);
        check_status(cosrod_sc_builder_set(b, key, VALUES[byte(&r) % NVALUES]));
        break;
      case 1:
        key_path(&r, key, sizeof key);
        check_status(cosrod_sc_builder_set_num(b, key, number(&r)));
        break;
      case 2:
        key_path(&r, key, sizeof key);
        check_status(cosrod_sc_builder_set_int(b, key, (long)(int8_t)byte(&r)));
        break;
      case 3: {
        double v[4] = {number(&r), number(&r), number(&r), number(&r)};
        key_path(&r, key, sizeof key);
        check_status(cosrod_sc_builder_set_vec(b, key, v, byte(&r) % 5));
        break;
      }
      case 4:
        key_path(&r, key, sizeof key);
        check_status(cosrod_sc_builder_set_str(b, key, VALUES[byte(&r) % NVALUES]));
        break;
      case 5:
        check_status(cosrod_sc_builder_material(b, byte(&r) & 1 ? "steel" : "m0", number(&r), number(&r),
                                                number(&r)));
        break;
      case 6:
        cosrod_sc_builder_add_rod(b, byte(&r) & 1 ? NULL : "rod");
        break;
      case 7:
        check_status(cosrod_sc_builder_rod_set(b, rod, "segments", VALUES[byte(&r) % NVALUES]));
        break;
      case 8:
        check_status(cosrod_sc_builder_end(b, rod, (int)(byte(&r) % 3), (cosrod_sc_end_type)(byte(&r) % 4)));
        break;
      default: {
        double v[3] = {number(&r), number(&r), number(&r)};
        cosrod_sc_builder_add_load(b, rod, (cosrod_sc_load_type)(byte(&r) % 3), (long)(int8_t)byte(&r), v,
                                   (cosrod_sc_frame)(byte(&r) % 2));
        break;
      }
    }
  }
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_sc_builder_finish(b, &st);
  cosrod_sc_builder_free(b);
  if (!sc) {
    require(st != COSROD_OK && (st == COSROD_ERR_NOMEM || cosrod_last_error()[0] != '\0'));
    return 0;
  }
  size_t l1 = 0, l2 = 0;
  char *t1 = to_text(sc, &l1);
  cosrod_scenario_free(sc);
  require(t1 != NULL);
  cosrod_scenario *back = NULL;
  back = cosrod_scenario_parse(t1, l1, "roundtrip.yaml", NULL, 0, &st);
  if (st != COSROD_OK) fprintf(stderr, "round trip refused: %s\n%s\n", cosrod_last_error(), t1);
  require(st == COSROD_OK);
  char *t2 = to_text(back, &l2);
  cosrod_scenario_free(back);
  require(t2 != NULL && l1 == l2 && memcmp(t1, t2, l1) == 0);
  free(t1);
  free(t2);
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  run_one(data, size);
  return 0;
}

#ifdef COSROD_FUZZ_REPLAY_MAIN
#include "fuzz_replay.h"

TEST(replay_builder) {
  int accepted = 0;
  int nr = fuzz_replay_dir("tests/fuzz/regress_builder", run_one, &accepted);
  NOTE("replayed %d builder programs (%d accepted and round-tripped)", nr, accepted);
  CHECK("regression programs replayed", nr >= 1);
}

static const th_case cases[] = {TH_CASE(replay_builder)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
#endif
