// SPDX-License-Identifier: Apache-2.0
/* Fast exact number formatting for the CSV rows (so that writing output
 * does not dominate a run).  out_fmt_fast(buf, v, P) writes exactly what
 * snprintf(buf, 32, "%.<P>g", v) writes (C locale) for P = 15 or 17, or
 * returns -1 when it cannot be sure (then the caller uses snprintf):
 * the P significant digits are M = round(|v| 10^(P-1-e)), e = floor(log10 |v|),
 * computed in long double (64-bit significand; 10^k exact for k <= 27, two
 * factors up to |k| = 54), so the scaled value carries a relative error
 * <= 2^-63, i.e. < 0.011 units of the last digit for M < 10^17: M is the
 * correctly rounded one unless the
 * fraction lies within 0.02 of one half (fallback).  The %g layout (fixed for
 * -4 <= e < P, else d.ddde+XX, trailing zeros removed) is then built by hand.
 * out_fmt_shortest(buf, v) is out_fmt's rule -- "%.15g" if it reads back
 * exactly, else "%.17g" -- without strtod: the 15-digit candidate reads back
 * iff it lies within half an ulp of v (declined within 0.1 % of that bound,
 * at powers of two and for subnormals).
 * The decimal exponent comes from the binary one (no log10), floors are
 * integer truncations, and a 15-digit near-tie is decided without declining
 * (its distance ~50 units is far beyond half an ulp), and a 17-digit
 * near-tie is rounded exactly in 128-bit integers (round_exact) for
 * 1e-6 <~ |v| <~ 1e16: declines (each costing snprintf + strtod) fell from
 * 7.8 % to 0.4 % of random decimals, 121 -> 108 ns CPU per number here.
 * Costs a few hundred instructions instead of glibc's multi-precision printf. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

int out_fmt_fast(char *buf, double v, int P); /* declared in output_internal.h */
int out_fmt_shortest(char *buf, double v);

#if LDBL_MANT_DIG >= 64
static const long double P10[28] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
                                    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
                                    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
static const unsigned long long U10[19] = {1ULL,
                                           10ULL,
                                           100ULL,
                                           1000ULL,
                                           10000ULL,
                                           100000ULL,
                                           1000000ULL,
                                           10000000ULL,
                                           100000000ULL,
                                           1000000000ULL,
                                           10000000000ULL,
                                           100000000000ULL,
                                           1000000000000ULL,
                                           10000000000000ULL,
                                           100000000000000ULL,
                                           1000000000000000ULL,
                                           10000000000000000ULL,
                                           100000000000000000ULL,
                                           1000000000000000000ULL};

/* a 10^k for |k| <= 54 with at most two roundings (relative error <= 2^-63),
 * or -1 (declined) outside. */
static long double scaled(double a, int k) {
  if (k > 54 || k < -54) return -1.0L;
  long double s = a;
  int j = k < 0 ? -k : k;
  if (j > 27) {
    s = k > 0 ? s * P10[27] : s / P10[27];
    j -= 27;
  }
  return k > 0 ? s * P10[j] : s / P10[j];
}

/* The %g text of the P-digit decimal M 10^(e-P+1) (10^(P-1) <= M < 10^P). */
static int layout(char *buf, int neg, unsigned long long M, int e, int P) {
  char d[20];
  for (int i = P - 1; i >= 0; i--) {
    d[i] = (char)('0' + (int)(M % 10ULL));
    M /= 10ULL;
  }
  int nd = P; /* significant digits after removing trailing zeros */
  while (nd > 1 && d[nd - 1] == '0') nd--;
  int n = 0;
  if (neg) buf[n++] = '-';
  if (e < -4 || e >= P) {
    buf[n++] = d[0];
    if (nd > 1) {
      buf[n++] = '.';
      memcpy(buf + n, d + 1, (size_t)(nd - 1));
      n += nd - 1;
    }
    buf[n++] = 'e';
    buf[n++] = e < 0 ? '-' : '+';
    int x = e < 0 ? -e : e;
    if (x >= 100) buf[n++] = (char)('0' + x / 100);
    buf[n++] = (char)('0' + (x / 10) % 10);
    buf[n++] = (char)('0' + x % 10);
  } else if (e >= 0) {
    memcpy(buf + n, d, (size_t)(e + 1));
    n += e + 1;
    if (nd > e + 1) {
      buf[n++] = '.';
      memcpy(buf + n, d + e + 1, (size_t)(nd - e - 1));
      n += nd - e - 1;
    }
  } else {
    buf[n++] = '0';
    buf[n++] = '.';
    for (int i = 0; i < -e - 1; i++) buf[n++] = '0';
    memcpy(buf + n, d, (size_t)nd);
    n += nd;
  }
  buf[n] = '\0';
  return n;
}

/* floor(log10 a) up to one (corrected by the caller) from the binary
 * exponent: a = f 2^ex, f in [0.5, 1), so log10 a in [(ex-1) lg2, ex lg2). */
static int dec_exp_estimate(double a) {
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  int ex = (int)((bits >> 52) & 0x7ff) - 1022; /* normal numbers */
  double l = (double)(ex - 1) * 0.30102999566398120;
  int e = (int)l;
  return (double)e > l ? e - 1 : e; /* floor */
}

/* |v| scaled to P digits: s = |v| 10^(P-1-e) in [10^(P-1), 10^P), e set; -1 if declined. */
static long double scale_digits(double a, int P, int *e_out) {
  int e = dec_exp_estimate(a);
  long double s = scaled(a, P - 1 - e);
  /* the estimate may be off by one: 10^(P-1) <= s < 10^P */
  if (s < (long double)U10[P - 1]) s = scaled(a, P - 1 - --e);
  else if (s >= (long double)U10[P]) s = scaled(a, P - 1 - ++e);
  if (!(s >= (long double)U10[P - 1] && s < (long double)U10[P])) return -1.0L;
  *e_out = e;
  return s;
}

/* Round s (0 <= s < 2^63) to an integer unless within 0.02 of a tie (then 0: declined). */
static unsigned long long round_sure(long double s) {
  unsigned long long fl = (unsigned long long)s; /* truncation = floor for s >= 0 */
  long double fr = s - (long double)fl;
  if (fr > 0.48L && fr < 0.52L) return 0ULL;
  return fl + (fr > 0.5L ? 1ULL : 0ULL);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 fmt_u128;
/* round(a 10^k) exactly (ties to even, as printf), a = m 2^q normal, for
 * 0 <= k <= 22 (m 10^k < 2^53 2^74 = 2^127) and -127 < q < 0; 0 = cannot. */
static unsigned long long round_exact(double a, int k) {
  if (k < 0 || k > 22) return 0ULL;
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  const uint64_t m = (bits & 0xfffffffffffffULL) | (1ULL << 52);
  const int q = (int)((bits >> 52) & 0x7ff) - 1075;
  if (q >= 0 || q <= -127) return 0ULL;
  fmt_u128 p = m;
  for (int i = 0; i < k; i++) p *= 10U;
  const int sh = -q;
  const fmt_u128 ip = p >> sh, rem = p - (ip << sh), half = (fmt_u128)1 << (sh - 1);
  if (ip >> 63) return 0ULL;
  unsigned long long M = (unsigned long long)ip;
  if (rem > half || (rem == half && (M & 1ULL))) M++;
  return M;
}
#else
static unsigned long long round_exact(double a, int k) {
  (void)a, (void)k;
  return 0ULL;
}
#endif

int out_fmt_fast(char *buf, double v, int P) {
  if (!(v != 0.0) || !isfinite(v) || (P != 15 && P != 17)) return -1;
  int e;
  long double s = scale_digits(fabs(v), P, &e);
  if (s < 0) return -1;
  unsigned long long M = round_sure(s);
  if (M == 0ULL) return -1;
  if (M == U10[P]) { /* 9.99.. rounded up to 10.0.. */
    M = U10[P - 1];
    e++;
  }
  return layout(buf, v < 0, M, e, P);
}

int out_fmt_shortest(char *buf, double v) {
  if (v == 0.0) {
    int n = 0;
    if (signbit(v)) buf[n++] = '-';
    buf[n++] = '0';
    buf[n] = '\0';
    return n;
  }
  if (!isfinite(v)) return -1;
  const double a = fabs(v);
  if (a < DBL_MIN) return -1; /* subnormal: uneven gaps */
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  if ((bits & 0xfffffffffffffULL) == 0) return -1; /* power of two: uneven gaps */
  int e;
  long double s17 = scale_digits(a, 17, &e);
  if (s17 < 0) return -1;
  /* half an ulp of v in units of the 17th digit: s17 2^-54 / f, a = f 2^ex, f in [1, 2) / 2 */
  uint64_t fb = (bits & 0xfffffffffffffULL) | (1022ULL << 52);
  double f;
  memcpy(&f, &fb, sizeof f);
  const long double hu = s17 / ((long double)f * 18014398509481984.0L); /* 2^54 */
  /* the 15-digit candidate and its distance to v, in units of the 17th digit;
   * near a 15-digit tie the distance is ~50 >> hu (< 6): it cannot read back */
  const long double q = s17 / 100.0L;
  unsigned long long M15 = (unsigned long long)q;
  const long double fr15 = q - (long double)M15;
  M15 += fr15 > 0.5L ? 1ULL : 0ULL;
  const long double dist = fabsl((long double)M15 * 100.0L - s17);
  if (!(fr15 > 0.48L && fr15 < 0.52L) && dist < 0.999L * hu) { /* %.15g reads back: it is the answer */
    int e15 = e;
    if (M15 == U10[15]) {
      M15 = U10[14];
      e15++;
    }
    return layout(buf, v < 0, M15, e15, 15);
  }
  if (!(dist > 1.001L * hu)) return -1;
  unsigned long long M17 = round_sure(s17);
  if (M17 == 0ULL) M17 = round_exact(a, 16 - e); /* near a tie: exact integer arithmetic */
  if (M17 == 0ULL) return -1;
  if (M17 == U10[17]) {
    M17 = U10[16];
    e++;
  }
  return layout(buf, v < 0, M17, e, 17);
}
#else
int out_fmt_fast(char *buf, double v, int P) {
  (void)buf, (void)v, (void)P;
  return -1;
}
int out_fmt_shortest(char *buf, double v) {
  (void)buf, (void)v;
  return -1;
}
#endif
