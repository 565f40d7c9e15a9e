// SPDX-License-Identifier: Apache-2.0
/* The on-first-use loader (core/lazylib.h) against the C maths library:
 * required names all or nothing, optional names served independently (a
 * missing one is NULL and named in the message, the others work), a missing
 * library one error line.  The functions found are called and checked
 * against exact values: cos(0) = 1 and sqrt(6.25) = 2.5 (both exactly
 * representable; sqrt is correctly rounded by IEEE 754, cos(0) = 1 by every
 * libm), so the tolerance is zero. */
#include <string.h>

#include "core/lazylib.h"
#include "harness.h"

#define LIBM "libm.so.6"
#define NOSUCH "cosrod_no_such_function"

typedef double (*fn1)(double);

/* The function behind p, called at x (a void * becomes a function pointer
 * by memcpy: ISO C has no such cast). */
static double call(void *p, double x) {
  fn1 f;
  memcpy(&f, &p, sizeof f);
  return f(x);
}

TEST(lazylib_required_all_found) {
  const char *const libs[] = {LIBM}, *const names[] = {"cos", "sqrt"};
  void *fns[2];
  char msg[256];
  CHECK("resolved", cosrod_lazylib_resolve(libs, 1, names, fns, 2, msg, sizeof msg) == 0);
  CHECK("cos(0) = 1", fns[0] && call(fns[0], 0.0) == 1.0);
  CHECK("sqrt(6.25) = 2.5", fns[1] && call(fns[1], 6.25) == 2.5);
}

TEST(lazylib_optional_missing_keeps_the_others) {
  const char *const libs[] = {LIBM}, *const names[] = {"cos", NOSUCH, "sqrt"};
  void *fns[3];
  char msg[256];
  const int r = cosrod_lazylib_resolve_some(libs, 1, names, fns, 3, 1, msg, sizeof msg);
  NOTE("returned %d: %s", r, msg);
  CHECK("one optional name missing", r == 1);
  CHECK("the missing one is NULL", fns[1] == NULL);
  CHECK("the required one before it works", fns[0] && call(fns[0], 0.0) == 1.0);
  CHECK("the optional one after it works", fns[2] && call(fns[2], 6.25) == 2.5);
  CHECK("message names it", strcmp(msg, "no function " NOSUCH " in " LIBM " or the libraries after it") == 0);
}

TEST(lazylib_required_missing_is_one_error) {
  const char *const libs[] = {LIBM}, *const names[] = {"cos", NOSUCH, "sqrt"};
  void *fns[3];
  char msg[256];
  const int r = cosrod_lazylib_resolve_some(libs, 1, names, fns, 3, 2, msg, sizeof msg);
  NOTE("returned %d: %s", r, msg);
  CHECK("error", r == -1);
  CHECK("nothing served", !fns[0] && !fns[1] && !fns[2]);
  CHECK("one line naming it",
        strcmp(msg, "no function " NOSUCH " in " LIBM " or the libraries after it") == 0);
  CHECK("all-required form: error too",
        cosrod_lazylib_resolve(libs, 1, names, fns, 3, msg, sizeof msg) == -1);
}

TEST(lazylib_missing_library_is_one_error) {
  const char *const libs[] = {"libcosrod_no_such_library.so.0"}, *const names[] = {"cos"};
  void *fns[1];
  char msg[256];
  const int r = cosrod_lazylib_resolve_some(libs, 1, names, fns, 1, 0, msg, sizeof msg);
  NOTE("returned %d: %s", r, msg);
  CHECK("error even for optional names", r == -1 && fns[0] == NULL);
  CHECK("says which library", strncmp(msg, "cannot load libcosrod_no_such_library.so.0: ", 44) == 0);
  CHECK("one line", strchr(msg, '\n') == NULL);
}

static const th_case cases[] = {
    TH_CASE(lazylib_required_all_found), TH_CASE(lazylib_optional_missing_keeps_the_others),
    TH_CASE(lazylib_required_missing_is_one_error), TH_CASE(lazylib_missing_library_is_one_error)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
