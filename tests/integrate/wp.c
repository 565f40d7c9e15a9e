// SPDX-License-Identifier: Apache-2.0
/* Work–precision points, CSV storage and the curve comparison; see wp.h. */
#define _POSIX_C_SOURCE 200809L
#include "wp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "itest.h"

const char *const wp_problems[] = {"vdp", "robertson", "hires", "orego", "pleiades", "arenstorf"};
const size_t wp_problem_count = sizeof wp_problems / sizeof wp_problems[0];

int wp_method_runs(const cosrod_step_type *T, const itest_problem *P) {
  if (strcmp(P->name, "arenstorf") == 0) return !(T->flags & COSROD_STEP_IMPLICIT);
  return itest_applies(T, P);
}

double wp_error(const itest_problem *P, const double *y) {
  double m = 0.0;
  for (int i = 0; i < P->n; i++) m = fmax(m, fabs(y[i] - P->yref[i]) / (fabs(P->yref[i]) + P->atol_per_rtol));
  return m;
}

double wp_work(const wp_point *p) {
  return (double)p->nfev + (double)p->n * (double)p->njev + (double)p->ndecomp;
}

double wp_work_of(const wp_point *p, wp_work_kind k) {
  return k == WP_WORK_NFEV ? (double)p->nfev : wp_work(p);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

cosrod_status wp_run(const cosrod_step_type *T, const itest_problem *P, double rtol, double min_wall,
                     wp_point *pt) {
  memset(pt, 0, sizeof *pt);
  snprintf(pt->method, sizeof pt->method, "%s", T->name);
  snprintf(pt->problem, sizeof pt->problem, "%s", P->name);
  pt->n = P->n;
  pt->rtol = rtol;
  pt->atol = rtol * P->atol_per_rtol;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = pt->rtol;
  o.atol = pt->atol;
  o.max_steps = 2000000;
  double y[64];
  cosrod_integrate_stats s;
  double t0 = now();
  cosrod_status st = itest_run(T, P, &o, NULL, y, &s, NULL, 0);
  double dt = now() - t0;
  int reps = 1;
  if (min_wall > 0.0 && st == COSROD_OK && dt < min_wall) {
    reps = (int)fmin(10000.0, ceil(min_wall / fmax(dt, 1e-7)));
    t0 = now();
    for (int q = 0; q < reps; q++) itest_run(T, P, &o, NULL, y, NULL, NULL, 0);
    dt = now() - t0;
  }
  pt->wall = min_wall > 0.0 ? dt / reps : NAN;
  pt->err = st == COSROD_OK ? wp_error(P, y) : NAN;
  pt->nfev = s.nfev, pt->njev = s.njev, pt->nsteps = s.nsteps;
  pt->naccept = s.naccept, pt->nreject = s.nreject, pt->ndecomp = s.ndecomp;
  snprintf(pt->status, sizeof pt->status, "%s", st == COSROD_OK ? "ok" : cosrod_status_name(st));
  return st;
}

const char wp_csv_header[] =
    "method,problem,n,rtol,atol,error,nfev,njev,nsteps,naccept,nreject,ndecomp,work,wall_s,status";

void wp_csv_write(FILE *f, const wp_point *p) {
  fprintf(f, "%s,%s,%d,%.1e,%.1e,%.6e,%ld,%ld,%ld,%ld,%ld,%ld,%.0f,%.4e,%s\n", p->method, p->problem, p->n,
          p->rtol, p->atol, p->err, p->nfev, p->njev, p->nsteps, p->naccept, p->nreject, p->ndecomp,
          wp_work(p), p->wall, p->status);
}

/* Split one CSV line in place into at most max fields; returns the count. */
static int split(char *line, char **fld, int max) {
  int k = 0;
  char *s = line;
  while (k < max) {
    fld[k++] = s;
    char *c = strchr(s, ',');
    if (!c) break;
    *c = '\0';
    s = c + 1;
  }
  char *e = fld[k - 1] + strcspn(fld[k - 1], "\r\n");
  *e = '\0';
  return k;
}

static int parse_double(const char *s, double *v) {
  char *end;
  *v = strtod(s, &end);
  return end != s && *end == '\0';
}
static int parse_long(const char *s, long *v) {
  char *end;
  *v = strtol(s, &end, 10);
  return end != s && *end == '\0';
}

int wp_csv_read(const char *path, wp_point *pts, int max, char *msg, size_t msg_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msg_size, "%s:0: cannot open", path);
    return -1;
  }
  char line[512];
  int np = 0, ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    if (ln == 1) {
      if (strncmp(line, wp_csv_header, strlen(wp_csv_header)) != 0) {
        snprintf(msg, msg_size, "%s:1: header: expected \"%s\"", path, wp_csv_header);
        fclose(f);
        return -1;
      }
      continue;
    }
    if (line[0] == '\n' || line[0] == '#') continue;
    if (np >= max) {
      snprintf(msg, msg_size, "%s:%d: more than %d points", path, ln, max);
      fclose(f);
      return -1;
    }
    char *fld[16];
    wp_point *p = &pts[np];
    memset(p, 0, sizeof *p);
    long n = 0;
    double work;
    int ok = split(line, fld, 16) == 15;
    /* names longer than their fields are a parse error, not a silent cut */
    ok = ok && strlen(fld[0]) < sizeof p->method && strlen(fld[1]) < sizeof p->problem &&
         strlen(fld[14]) < sizeof p->status;
    if (ok) {
      snprintf(p->method, sizeof p->method, "%.*s", (int)sizeof p->method - 1, fld[0]);
      snprintf(p->problem, sizeof p->problem, "%.*s", (int)sizeof p->problem - 1, fld[1]);
      snprintf(p->status, sizeof p->status, "%.*s", (int)sizeof p->status - 1, fld[14]);
      ok = parse_long(fld[2], &n) && parse_double(fld[3], &p->rtol) && parse_double(fld[4], &p->atol) &&
           parse_double(fld[5], &p->err) && parse_long(fld[6], &p->nfev) && parse_long(fld[7], &p->njev) &&
           parse_long(fld[8], &p->nsteps) && parse_long(fld[9], &p->naccept) &&
           parse_long(fld[10], &p->nreject) && parse_long(fld[11], &p->ndecomp) &&
           parse_double(fld[12], &work) && parse_double(fld[13], &p->wall);
      p->n = (int)n;
    }
    if (!ok) {
      snprintf(msg, msg_size, "%s:%d: row: expected 15 fields (%s)", path, ln, wp_csv_header);
      fclose(f);
      return -1;
    }
    np++;
  }
  fclose(f);
  return np;
}

typedef struct ew {
  double r, e, w;
} ew;
/* loosest tolerance first: the order in which the curve is traced */
static int cmp_rtol_desc(const void *a, const void *b) {
  double x = ((const ew *)a)->r, y = ((const ew *)b)->r;
  return (x < y) - (x > y);
}

int wp_compare(const wp_point *curve, int ncurve, const char *method, const char *problem, double err,
               double work, wp_work_kind kind, wp_cmp *out) {
  ew *c = malloc(sizeof(ew) * (size_t)(ncurve > 0 ? ncurve : 1));
  if (!c) return 0;
  int m = 0;
  for (int i = 0; i < ncurve; i++) {
    const wp_point *p = &curve[i];
    if (strcmp(p->method, method) != 0 || strcmp(p->problem, problem) != 0 || strcmp(p->status, "ok") != 0 ||
        !(p->err > 0.0))
      continue;
    c[m].r = p->rtol;
    c[m].e = p->err;
    c[m].w = wp_work_of(p, kind);
    m++;
  }
  if (m == 0) {
    free(c);
    return 0;
  }
  qsort(c, (size_t)m, sizeof *c, cmp_rtol_desc);
  int imin = 0, imax = 0;
  for (int i = 1; i < m; i++) {
    if (c[i].e < c[imin].e) imin = i;
    if (c[i].e > c[imax].e) imax = i;
  }
  double wref = 0.0;
  /* the stored errors carry 7 digits: equal to an end point within that is on the curve */
  const double eq = 1e-6;
  if (err < c[imin].e * (1.0 - eq)) {
    wref = c[imin].w;
    out->where = -1;
  } else if (err > c[imax].e * (1.0 + eq)) {
    wref = c[imax].w;
    out->where = 1;
  } else {
    out->where = 0;
    err = fmin(fmax(err, c[imin].e), c[imax].e);
    const double le = log(err);
    if (m == 1) wref = c[0].w;
    for (int i = 0; i + 1 < m; i++) {
      double e0 = c[i].e, e1 = c[i + 1].e;
      if (err < fmin(e0, e1) || err > fmax(e0, e1)) continue;
      double s = e0 == e1 ? 0.0 : (le - log(e0)) / (log(e1) - log(e0));
      double w = exp(log(c[i].w) + s * (log(c[i + 1].w) - log(c[i].w)));
      if (e0 == e1) w = fmax(c[i].w, c[i + 1].w);
      wref = fmax(wref, w);
    }
  }
  out->work_ref = wref;
  out->ratio = work / wref;
  free(c);
  return m;
}
