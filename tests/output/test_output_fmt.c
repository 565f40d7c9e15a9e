// SPDX-License-Identifier: Apache-2.0
/* Fast number formatting of the CSV rows (src/output/output_fmt.c):
 * out_fmt_fast(buf, v, P) must write exactly snprintf's "%.<P>g" text
 * (C locale) whenever it does not decline (-1), for P = 15 and 17, on
 * random doubles over 10^-30 .. 10^30, random bit patterns and edge cases
 * (powers of ten, 9.99..., short decimals, integers, the %g switch points
 * 1e-5 / 1e15 / 1e17); and it must decline rarely (it is the fast path).
 * out_fmt_shortest must write the old rule's text ("%.15g" when strtod reads
 * it back exactly, else "%.17g") whenever it answers. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

int out_fmt_fast(char *buf, double v, int P); /* internal to the output module */
int out_fmt_shortest(char *buf, double v);
int out_fmt(char *buf, double v);

static long nmis_short, ndec_short;

static long nmismatch, ndecline, ntotal, ndecline_r, ntotal_r;

static void one(double v) {
  { /* shortest: "%.15g" if it reads back, else "%.17g" (the old out_fmt) */
    char a[40], b[40];
    int n = out_fmt_shortest(a, v);
    if (n < 0) {
      ndec_short++;
    } else {
      snprintf(b, sizeof b, "%.15g", v);
      if (strtod(b, NULL) != v) snprintf(b, sizeof b, "%.17g", v);
      if (strcmp(a, b) != 0 || n != (int)strlen(b)) {
        if (nmis_short++ < 10) NOTE("v = %a: shortest '%s' vs reference '%s'", v, a, b);
      }
    }
  }
  for (int P = 15; P <= 17; P += 2) {
    char a[40], b[40];
    int n = out_fmt_fast(a, v, P);
    ntotal++;
    if (n < 0) {
      ndecline++;
      continue;
    }
    snprintf(b, sizeof b, P == 15 ? "%.15g" : "%.17g", v);
    if (strcmp(a, b) != 0 || n != (int)strlen(b)) {
      if (nmismatch++ < 10) NOTE("v = %a: fast '%s' vs printf '%s' (P = %d)", v, a, b, P);
    }
  }
}

TEST(fast_format_equals_printf) {
  th_rng rng;
  th_rng_seed(&rng, 12345);
  for (int i = 0; i < 400000; i++) {
    double m = th_rng_uniform(&rng, 1.0, 10.0), e = floor(th_rng_uniform(&rng, -30.0, 30.0));
    double v = m * pow(10.0, e) * (i % 2 ? -1.0 : 1.0);
    long d0 = ndecline, t0 = ntotal;
    one(v);
    ndecline_r += ndecline - d0, ntotal_r += ntotal - t0;
    uint64_t bits = th_rng_u64(&rng);
    double w;
    memcpy(&w, &bits, sizeof w);
    if (isfinite(w)) one(w);
  }
  for (int e = -30; e <= 30; e++) {
    double p = pow(10.0, e);
    one(p), one(nextafter(p, 0)), one(nextafter(p, 1e300)), one(-p);
    one(9.9999999999999995 * p), one(9.999999999999999 * p), one(1.5 * p), one(0.1 * p);
  }
  for (int i = 1; i < 20000; i++) one(i * 0.01), one(i * 1e-3), one((double)i), one(1.0 / i);
  one(1e-5), one(1e-4), one(9.99999e-5), one(1e15), one(1e16), one(1e17), one(123456789012345678.0);
  one(0.1), one(0.2), one(0.3), one(2.0 / 3.0), one(-1.0 / 3.0), one(3.14159265358979323846);
  NOTE("%ld formatted, %ld declined (%.3f %%), %ld mismatches", ntotal, ndecline,
       100.0 * (double)ndecline / (double)ntotal, nmismatch);
  CHECK("identical to snprintf whenever it answers", nmismatch == 0);
  NOTE("shortest: %ld declined, %ld mismatches", ndec_short, nmis_short);
  CHECK("shortest form identical to the %.15g-or-%.17g rule whenever it answers", nmis_short == 0);
  one(0.0), one(-0.0);
  /* over 1e-30 .. 1e30 it declines only within 0.02 of a rounding tie
   * (~4 % of the values); bit patterns beyond ~1e±38 decline by design */
  NOTE("random decimals: %ld of %ld declined", ndecline_r, ntotal_r);
  CHECK_LE("declines rarely (1e-30 .. 1e30)", (double)ndecline_r / (double)ntotal_r, 0.06);
  char buf[40];
  CHECK("0 declined", out_fmt_fast(buf, 0.0, 15) < 0);
  CHECK("nan declined", out_fmt_fast(buf, NAN, 15) < 0);
  CHECK("inf declined", out_fmt_fast(buf, INFINITY, 17) < 0);
}

/* Significant digits of a %g text: mantissa digits without leading and
 * trailing zeros (47678000000 has 5). */
static int sig_digits(const char *s) {
  int n = 0, lead = 1, zeros = 0;
  for (; *s && *s != 'e'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (lead && *s == '0') continue;
    lead = 0, n++;
    zeros = *s == '0' ? zeros + 1 : 0;
  }
  return n - zeros > 0 ? n - zeros : 1;
}

static long nrt_bad, nshort_bad, nrt;

/* out_fmt (the writer's full path, fallbacks included): strtod reads the
 * text back bit for bit; with k <= 15 digits no shorter decimal reads back
 * (brute force over every j < k: the nearest j-digit decimal and its two
 * neighbours); with 17 digits no decimal of <= 15 digits reads back (the
 * documented rule writes %.17g when 16 digits would do).  Subnormals (fewer
 * than 53 significant bits) are only checked to read back: %.15g may be
 * longer than needed there. */
static void roundtrip(double v) {
  char a[40], b[48];
  out_fmt(a, v);
  nrt++;
  double r = strtod(a, NULL);
  if (memcmp(&r, &v, sizeof r) != 0) {
    if (nrt_bad++ < 10) NOTE("v = %a: '%s' reads back as %a", v, a, r);
    return;
  }
  if (fabs(v) < DBL_MIN) return; /* 0 and subnormals: exact, but the 15-or-17 rule is not shortest there */
  int k = sig_digits(a), jmax = k <= 15 ? k - 1 : 15;
  for (int j = 1; j <= jmax; j++) {
    snprintf(b, sizeof b, "%.*e", j - 1, v);
    double m = strtod(b, NULL);
    char *ep = strchr(b, 'e');
    int e10 = atoi(ep + 1);
    for (int d = -1; d <= 1; d++) {
      double c = m + d * pow(10.0, e10 - (j - 1)); /* neighbours: approximate, then re-read as j digits */
      snprintf(b, sizeof b, "%.*e", j - 1, c);
      if (strtod(b, NULL) == v) {
        if (nshort_bad++ < 10) NOTE("v = %a: '%s' is shorter than '%s' and reads back", v, b, a);
        return;
      }
    }
  }
}

TEST(roundtrip_and_shortest) {
  th_rng rng;
  th_rng_seed(&rng, 777);
  for (int i = 0; i < 25000; i++) {
    uint64_t bits = th_rng_u64(&rng);
    double w;
    memcpy(&w, &bits, sizeof w);
    if (isfinite(w)) roundtrip(w);
    bits &= 0x800fffffffffffffULL; /* subnormals */
    memcpy(&w, &bits, sizeof w);
    roundtrip(w);
    double m = th_rng_uniform(&rng, 1.0, 10.0), e = floor(th_rng_uniform(&rng, -12.0, 12.0));
    roundtrip(m * pow(10.0, e));
    roundtrip(floor(m * 1e4) * pow(10.0, e)); /* short decimals */
  }
  const double edge[] = {0.0, -0.0, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, 5e-324, 1e308, 1e-308,
                         2.2250738585072009e-308, 0.1, 0.3, 1.0 / 3.0, 9007199254740993.0, 1e23, 8.41e21};
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) roundtrip(edge[i]);
  NOTE("%ld values: %ld do not read back, %ld have a shorter form", nrt, nrt_bad, nshort_bad);
  CHECK("every value reads back exactly", nrt_bad == 0);
  CHECK("no shorter decimal reads back", nshort_bad == 0);
  char a[40];
  out_fmt(a, -0.0);
  CHECK("-0 keeps its sign", strcmp(a, "-0") == 0);
}

static const th_case cases[] = {TH_CASE(fast_format_equals_printf), TH_CASE(roundtrip_and_shortest)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
