// SPDX-License-Identifier: Apache-2.0
/* summary.json ([manual: command line, output reference]) through a tiny JSON emitter.
 *
 * Emitter: nested objects/arrays with a fixed depth, two-space indentation,
 * strings escaped per RFC 8259 (", \, control characters as \n, \t, ... or
 * \u00XX; invalid UTF-8 bytes replaced by U+FFFD), numbers in round-trip form
 * (out_fmt) and non-finite numbers as null.
 *
 * Summary keys: version, title, scenario, analysis, status ("ok", "failed",
 * "interrupted", "running" at checkpoints), reason (status name or null),
 * message, t_end, t_reached, t_failed, wall_time, outputs, stats {integrator,
 * nfev, njev, nsteps, naccept, nreject, nconvfail (attempts that failed for
 * convergence, not counted in nreject: integrate.h), ndecomp, nsolve, nnewton, nstiff,
 * nproject, nfail_rhs, npattern (sparse pattern rebuilds, when > 0), solver_wall_time},
 * energy {balance_initial,
 * balance_final, balance_max_drift, energy_scale}, modes [{mode,
 * frequency_hz, omega, rod, type, group}] (modal runs) or buckling [{mode,
 * load_factor, rod, type}] (buckling runs), rods [{name, segments,
 * tip}], critical_points [{type, t, load_factor, displacement}] (static
 * arc-length runs), bodies [{name, position}], last_state (failed/interrupted runs: t,
 * h, tips, max_abs, nonfinite), files {name: data rows}, vtk_frames,
 * warnings [...]. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cosrod/version.h"
#include "output_internal.h"

#define JW_MAX_DEPTH 16

typedef struct jw {
  FILE *fp;
  int depth;
  int count[JW_MAX_DEPTH]; /* items written at each level */
} jw;

static void jw_indent(jw *w) {
  fputc('\n', w->fp);
  for (int i = 0; i < w->depth; ++i) fputs("  ", w->fp);
}

/* Length of a valid UTF-8 sequence at s, 0 if invalid. */
static int utf8_len(const unsigned char *s) {
  if (s[0] < 0x80) return 1;
  int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
  if (n == 0) return 0;
  for (int i = 1; i < n; ++i)
    if ((s[i] & 0xc0) != 0x80) return 0;
  if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;  /* overlong */
  if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0; /* surrogates */
  if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;  /* overlong */
  if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0; /* > U+10FFFF */
  return n;
}

static void jw_string(jw *w, const char *s) {
  FILE *fp = w->fp;
  fputc('"', fp);
  const unsigned char *u = (const unsigned char *)(s ? s : "");
  while (*u) {
    unsigned char c = *u;
    switch (c) {
      case '"':
        fputs("\\\"", fp);
        break;
      case '\\':
        fputs("\\\\", fp);
        break;
      case '\b':
        fputs("\\b", fp);
        break;
      case '\f':
        fputs("\\f", fp);
        break;
      case '\n':
        fputs("\\n", fp);
        break;
      case '\r':
        fputs("\\r", fp);
        break;
      case '\t':
        fputs("\\t", fp);
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          fprintf(fp, "\\u%04x", c);
        } else if (c >= 0x80) {
          int n = utf8_len(u);
          if (n == 0) {
            fputs("\\ufffd", fp);
            n = 1;
          } else {
            fwrite(u, 1, (size_t)n, fp);
          }
          u += n;
          continue;
        } else {
          fputc(c, fp);
        }
    }
    ++u;
  }
  fputc('"', fp);
}

/* Start an item: comma, newline and indentation, and "key": inside objects. */
static void jw_item(jw *w, const char *key) {
  if (w->count[w->depth]++ > 0) fputc(',', w->fp);
  if (w->depth > 0) jw_indent(w);
  if (key) {
    jw_string(w, key);
    fputs(": ", w->fp);
  }
}

static void jw_open(jw *w, const char *key, char c) {
  jw_item(w, key);
  fputc(c, w->fp);
  if (w->depth + 1 < JW_MAX_DEPTH) w->count[++w->depth] = 0;
}

static void jw_close(jw *w, char c) {
  int had = w->count[w->depth] > 0;
  if (w->depth > 0) w->depth--;
  if (had) jw_indent(w);
  fputc(c, w->fp);
}

static void jw_num(jw *w, const char *key, double v) {
  jw_item(w, key);
  if (!isfinite(v)) {
    fputs("null", w->fp);
  } else {
    char b[32];
    out_fmt(b, v);
    fputs(b, w->fp);
  }
}

static void jw_long(jw *w, const char *key, long v) {
  jw_item(w, key);
  fprintf(w->fp, "%ld", v);
}

static void jw_str(jw *w, const char *key, const char *s) {
  jw_item(w, key);
  if (s)
    jw_string(w, s);
  else
    fputs("null", w->fp);
}

static void jw_null(jw *w, const char *key) {
  jw_item(w, key);
  fputs("null", w->fp);
}

/* Short numeric array on one line: [a, b, c]. */
static void jw_vec(jw *w, const char *key, const double *v, size_t n) {
  jw_item(w, key);
  fputc('[', w->fp);
  for (size_t i = 0; i < n; ++i) {
    if (i) fputs(", ", w->fp);
    if (!isfinite(v[i])) {
      fputs("null", w->fp);
    } else {
      char b[32];
      out_fmt(b, v[i]);
      fputs(b, w->fp);
    }
  }
  fputc(']', w->fp);
}

static void write_stats(jw *w, const cosrod_output *out, const cosrod_integrate_stats *s) {
  jw_open(w, "stats", '{');
  if (out->integrator) jw_str(w, "integrator", out->integrator);
  jw_long(w, "nfev", s->nfev);
  jw_long(w, "njev", s->njev);
  jw_long(w, "nsteps", s->nsteps);
  jw_long(w, "naccept", s->naccept);
  jw_long(w, "nreject", s->nreject);
  jw_long(w, "nconvfail", s->nconvfail);
  jw_long(w, "ndecomp", s->ndecomp);
  jw_long(w, "nsolve", s->nsolve);
  jw_long(w, "nnewton", s->nnewton);
  jw_long(w, "nstiff", s->nstiff);
  jw_long(w, "nproject", s->nproject);
  jw_long(w, "nfail_rhs", s->nfail_rhs);
  if (s->npattern > 0) jw_long(w, "npattern", s->npattern); /* only runs whose sparse pattern grew */
  jw_num(w, "solver_wall_time", s->wall_time);
  jw_close(w, '}');
}

/* Energy balance, contact summary, modes / buckling factors, critical points. */
static void write_results(jw *w, const cosrod_output *out) {
  if (out->nenergy > 0) {
    jw_open(w, "energy", '{');
    jw_num(w, "balance_initial", out->bal0);
    jw_num(w, "balance_final", out->bal_last);
    jw_num(w, "balance_max_drift", out->bal_maxdev);
    jw_num(w, "energy_scale", out->bal_scale);
    jw_close(w, '}');
  }
  if (out->solver_chosen[0]) { /* the method and why (cosrod_output_set_solver) */
    jw_open(w, "solver", '{');
    jw_str(w, "chosen", out->solver_chosen);
    jw_str(w, "reason", out->solver_reason);
    jw_open(w, "switches", '[');
    for (size_t i = 0; i < out->nswitch; ++i) jw_str(w, NULL, out->switches[i]);
    jw_close(w, ']');
    jw_close(w, '}');
  }
  if (out->has_contact) { /* runs with contact (cosrod_output_set_contact_summary) */
    jw_open(w, "contact", '{');
    jw_long(w, "contacts_end", out->contact.contacts_end);
    jw_num(w, "max_penetration", out->contact.max_penetration);
    jw_num(w, "max_penetration_radius", out->contact.max_penetration_radius);
    jw_long(w, "missed", out->contact.missed);
    jw_num(w, "dissipated", out->contact.dissipated);
    jw_close(w, '}');
  }
  if (out->nmodes > 0) { /* modal analyses: frequency, type and degenerate group per mode */
    jw_open(w, out->buckling ? "buckling" : "modes", '[');
    for (int k = 0; k < out->nmodes; ++k) {
      jw_open(w, NULL, '{');
      jw_long(w, "mode", k + 1);
      if (out->buckling) { /* buckling analyses: critical load factor */
        jw_num(w, "load_factor", out->mode_freq[k]);
      } else {
        jw_num(w, "frequency_hz", out->mode_freq[k]);
        jw_num(w, "omega", out->mode_omega[k]);
      }
      jw_long(w, "rod", (long)out->mode_rod[k]);
      if (out->mode_type[k][0]) jw_str(w, "type", out->mode_type[k]);
      if (out->mode_group[k] >= 0) jw_long(w, "group", out->mode_group[k] + 1);
      jw_close(w, '}');
    }
    jw_close(w, ']');
  }
  if (out->arc_length) { /* static arc-length runs: limit and bifurcation points on the path */
    jw_open(w, "critical_points", '[');
    for (size_t k = 0; k < out->ncrit; ++k) {
      jw_open(w, NULL, '{');
      jw_str(w, "type", out->crit[k].type);
      jw_num(w, "t", out->crit[k].t);
      jw_num(w, "load_factor", out->crit[k].load_factor);
      jw_num(w, "displacement", out->crit[k].displacement);
      jw_close(w, '}');
    }
    jw_close(w, ']');
  }
}

/* Per rod its tip, per body its position at the last frame. */
static void write_rods_bodies(jw *w, const cosrod_output *out) {
  jw_open(w, "rods", '[');
  for (size_t k = 0; k < out->nrods; ++k) {
    jw_open(w, NULL, '{');
    jw_str(w, "name", out->rod_names[k]);
    jw_long(w, "segments", (long)out->rod_n[k]);
    if (out->nframes > 0) {
      jw_vec(w, "tip", out->tips + 3 * k, 3);
    } else {
      jw_null(w, "tip");
    }
    jw_close(w, '}');
  }
  jw_close(w, ']');
  jw_open(w, "bodies", '[');
  for (size_t k = 0; k < out->nbodies; ++k) {
    jw_open(w, NULL, '{');
    jw_str(w, "name", out->body_names[k]);
    if (out->nframes > 0) {
      jw_vec(w, "position", out->body_x + 3 * k, 3);
    } else {
      jw_null(w, "position");
    }
    jw_close(w, '}');
  }
  jw_close(w, ']');
}

/* A failed run's last state: time, step, tips and a digest of the state vector. */
static void write_last_state(jw *w, const cosrod_output *out, const cosrod_output_result *res,
                             double t_reached) {
  jw_open(w, "last_state", '{');
  jw_num(w, "t", t_reached);
  jw_num(w, "h", res->h_last);
  jw_open(w, "tips", '[');
  for (size_t k = 0; k < out->nrods; ++k) {
    if (res->last_tips)
      jw_vec(w, NULL, res->last_tips + 3 * k, 3);
    else if (out->nframes > 0)
      jw_vec(w, NULL, out->tips + 3 * k, 3);
    else
      jw_null(w, NULL);
  }
  jw_close(w, ']');
  if (res->last_state && res->nlast_state > 0) {
    double mx = 0.0;
    long nbad = 0;
    for (size_t i = 0; i < res->nlast_state; ++i) {
      double a = fabs(res->last_state[i]);
      if (!isfinite(a))
        nbad++;
      else if (a > mx)
        mx = a;
    }
    jw_long(w, "size", (long)res->nlast_state);
    jw_num(w, "max_abs", mx);
    jw_long(w, "nonfinite", nbad);
  }
  jw_close(w, '}');
}

/* Rows per file written (or, while running, being written). */
static void write_files(jw *w, const cosrod_output *out, cosrod_output_run run) {
  jw_open(w, "files", '{');
  for (int i = 0; i < OF_COUNT; ++i) {
    const out_file *f = &out->f[i];
    int live = run == COSROD_RUN_RUNNING ? (f->fp && !f->error) : f->published;
    if (i == OF_PVD || !live) continue;
    jw_long(w, f->name, f->rows_committed);
  }
  if (out->h5) { /* HDF5: "run.h5/<table>": data rows */
    char key[48];
    for (size_t i = 0; i < sizeof out->h5->t / sizeof out->h5->t[0] + out->h5->nextra; ++i) {
      const out_h5tab *t = i < OUT_H5_NTAB ? &out->h5->t[i] : &out->h5->extra[i - OUT_H5_NTAB];
      if (!t->name[0]) continue;
      snprintf(key, sizeof key, "run.h5/%s", t->name);
      jw_long(w, key, (long)(t->written + t->ncommit));
    }
  }
  jw_close(w, '}');
}

static void write_body(jw *w, cosrod_output *out, cosrod_output_run run, const cosrod_output_result *res) {
  double t_reached = isnan(res->t_reached) ? (out->nframes ? out->t_last : NAN) : res->t_reached;
  double wall = res->wall_time > 0.0 ? res->wall_time : out_elapsed(&out->t0);
  int failed = run == COSROD_RUN_FAILED || run == COSROD_RUN_INTERRUPTED;
  cosrod_status code = res->code;
  if (run == COSROD_RUN_INTERRUPTED && code == COSROD_OK) code = COSROD_ERR_INTERRUPTED;

  jw_open(w, NULL, '{');
  jw_str(w, "version", COSROD_VERSION_STRING);
  jw_str(w, "title", out->title);
  if (out->scenario_file) jw_str(w, "scenario", out->scenario_file);
  jw_str(w, "analysis", out->analysis);
  if (out->h5) jw_str(w, "format", "hdf5"); /* CSV runs: no key (the default) */
  jw_str(w, "status", out_run_name(run));
  if (failed || code != COSROD_OK) {
    jw_str(w, "reason", cosrod_status_name(code));
    jw_str(w, "message", res->message ? res->message : cosrod_strerror(code));
  } else {
    jw_null(w, "reason");
    jw_null(w, "message");
  }
  jw_num(w, "t_end", out->t_end);
  jw_num(w, "t_reached", t_reached);
  jw_num(w, "t_failed", res->t_failed);
  jw_num(w, "wall_time", wall);
  if (!isnan(res->output_wall_time)) jw_num(w, "output_wall_time", res->output_wall_time);
  jw_long(w, "outputs", (long)out->nframes);
  if (res->stats) {
    write_stats(w, out, res->stats);
  } else if (out->integrator) {
    jw_open(w, "stats", '{');
    jw_str(w, "integrator", out->integrator);
    jw_close(w, '}');
  }
  write_results(w, out);
  write_rods_bodies(w, out);
  if (failed) write_last_state(w, out, res, t_reached);
  write_files(w, out, run);
  long vtk_frames = out->vtk && out->f[OF_PVD].rows_committed > 0 ? (long)out->nframes : 0;
  if (out->h5 && out->vtk && out->h5->vtk_steps > 0) vtk_frames = out->h5->vtk_steps;
  jw_long(w, "vtk_frames", vtk_frames);
  jw_open(w, "warnings", '[');
  for (size_t i = 0; i < out->nwarn; ++i) jw_str(w, NULL, out->warnings[i]);
  jw_close(w, ']');
  jw_close(w, '}');
  fputc('\n', w->fp);
}

/* DIR/.summary.json.tmp (its path left in out->path_a, the final one in
 * out->path_b); out_publish_summary renames it onto summary.json.  At the
 * close the rename is the last act, so "status": "ok" implies complete files
 * (output_frame.c). */
cosrod_status out_write_summary_tmp(cosrod_output *out, cosrod_output_run run, const cosrod_output_result *res) {
  size_t n = strlen(out->dir) + 32;
  if (n > out->path_cap) return COSROD_ERR_INTERNAL;
  snprintf(out->path_a, out->path_cap, "%s/.summary.json.tmp", out->dir);
  snprintf(out->path_b, out->path_cap, "%s/summary.json", out->dir);
  FILE *fp = fopen(out->path_a, "w");
  if (!fp) {
    int err = errno;
    return out_fail(out, COSROD_ERR_IO, "%s: cannot write (%s)", out->path_a, strerror(err));
  }
  jw w;
  memset(&w, 0, sizeof w);
  w.fp = fp;
  write_body(&w, out, run, res);
  int bad = ferror(fp);
  int err = errno;
  if (fclose(fp) != 0) bad = 1, err = errno;
  if (bad) {
    remove(out->path_a);
    return out_fail(out, COSROD_ERR_IO, "%s: write failed (%s)", out->path_b, strerror(err ? err : EIO));
  }
  return COSROD_OK;
}

cosrod_status out_publish_summary(cosrod_output *out) {
  if (rename(out->path_a, out->path_b) == 0) return COSROD_OK;
  int err = errno;
  remove(out->path_a);
  return out_fail(out, COSROD_ERR_IO, "%s: write failed (%s)", out->path_b, strerror(err ? err : EIO));
}

cosrod_status out_write_summary(cosrod_output *out, cosrod_output_run run, const cosrod_output_result *res) {
  cosrod_status st = out_write_summary_tmp(out, run, res);
  return st == COSROD_OK ? out_publish_summary(out) : st;
}
