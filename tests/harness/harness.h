// SPDX-License-Identifier: Apache-2.0
/* A small dependency-free test harness.
 *
 * A test file defines cases with TEST(name) and lists them in a table:
 *
 *   TEST(quat_product) { CHECK_NEAR("p*1 = p", x, 1.0, 1e-15); }
 *   static const th_case cases[] = { TH_CASE(quat_product) };
 *   int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
 *
 * Command line:  test_x [--list] [--exact NAME | FILTER]
 *   FILTER selects cases whose name contains it; --exact selects one case.
 * tests/CMakeLists.txt registers every TEST(name) as its own CTest case.
 *
 * Every check prints one line saying what it compared, the value seen and the
 * tolerance, so a log documents the evidence, not only pass/fail.  Checks over
 * many random samples should reduce to one number (e.g. the maximum error)
 * and check that once. */
#ifndef COSROD_TEST_HARNESS_H
#define COSROD_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct th_case {
  const char *name;
  void (*fn)(void);
} th_case;

#define TEST(name) static void name(void)
#define TH_CASE(name) {#name, name}
#define TH_MAIN(argc, argv, cases) th_main((argc), (argv), (cases), sizeof(cases) / sizeof((cases)[0]))

int th_main(int argc, char **argv, const th_case *cases, size_t ncases);

/* Low-level recorders; return 1 when the check passed. */
int th_check(int ok, const char *file, int line, const char *what);
int th_check_close(const char *file, int line, const char *what, double got, double want, double rtol,
                   double atol);
int th_check_vec(const char *file, int line, const char *what, const double *got, const double *want,
                 size_t n, double rtol, double atol);
int th_check_mat(const char *file, int line, const char *what, const double *got, const double *want,
                 size_t rows, size_t cols, size_t ld_got, size_t ld_want, double rtol, double atol);
int th_check_le(const char *file, int line, const char *what, double value, double bound);
void th_note(const char *fmt, ...);

/* CHECK(label, cond) */
#define CHECK(what, cond) th_check(!!(cond), __FILE__, __LINE__, (what))
/* |got - want| <= atol */
#define CHECK_NEAR(what, got, want, atol) th_check_close(__FILE__, __LINE__, (what), (got), (want), 0.0, (atol))
/* |got - want| <= rtol * |want| */
#define CHECK_REL(what, got, want, rtol) th_check_close(__FILE__, __LINE__, (what), (got), (want), (rtol), 0.0)
/* |got - want| <= atol + rtol * |want| */
#define CHECK_CLOSE(what, got, want, rtol, atol)                                                       \
  th_check_close(__FILE__, __LINE__, (what), (got), (want), (rtol), (atol))
/* value <= bound (e.g. a maximum error against its tolerance) */
#define CHECK_LE(what, value, bound) th_check_le(__FILE__, __LINE__, (what), (value), (bound))
/* element-wise |got_i - want_i| <= atol + rtol * |want_i| */
#define CHECK_VEC(what, got, want, n, rtol, atol)                                                      \
  th_check_vec(__FILE__, __LINE__, (what), (got), (want), (n), (rtol), (atol))
/* column-major matrices with leading dimensions */
#define CHECK_MAT(what, got, want, rows, cols, ldg, ldw, rtol, atol)                                  \
  th_check_mat(__FILE__, __LINE__, (what), (got), (want), (rows), (cols), (ldg), (ldw), (rtol), (atol))
/* printf-style note in the log */
#define NOTE(...) th_note(__VA_ARGS__)

/* Deterministic random numbers (xoshiro256**), seeded per test case. */
typedef struct th_rng {
  uint64_t s[4];
} th_rng;
void th_rng_seed(th_rng *r, uint64_t seed);
uint64_t th_rng_u64(th_rng *r);
double th_rng_uniform(th_rng *r, double lo, double hi); /* in [lo, hi) */
double th_rng_normal(th_rng *r);                          /* standard normal */

/* Whether a shared object whose name contains lib is mapped into this
 * process (Linux /proc/self/maps; -1 if that cannot be read). */
int th_mapped(const char *lib);

#endif /* COSROD_TEST_HARNESS_H */
