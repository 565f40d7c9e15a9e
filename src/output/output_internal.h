// SPDX-License-Identifier: Apache-2.0
/* Private state of the output module (output*.c, vtk.c, json.c, plots.c). */
#ifndef COSROD_OUTPUT_INTERNAL_H
#define COSROD_OUTPUT_INTERNAL_H

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cosrod/output.h"
#include "output_hdf5.h"

/* Streams written through a temporary name: the nine CSV files and the .pvd. */
enum {
  OF_CENTERLINE,
  OF_FRAMES,
  OF_STRAINS,
  OF_CURVATURES,
  OF_ENERGY,
  OF_BODIES,
  OF_STEPS,
  OF_INCREMENTS,
  OF_MODES,
  OF_REACTIONS,
  OF_TIP,
  OF_PVD,
  OF_COUNT
};

typedef struct out_file {
  const char *name;   /* final base name, e.g. "centerline.csv" */
  const char *footer; /* appended when published (the .pvd closing tags) or NULL */
  FILE *fp;           /* open temporary file, NULL when disabled or closed */
  char *tmp_path;     /* DIR/.name.tmp */
  char *final_path;   /* DIR/name */
  long bytes;         /* bytes handed to fp */
  long committed;     /* bytes up to the last finished output time / row */
  long rows;          /* data rows handed to fp */
  long rows_committed;
  long safe;      /* committed bytes known to be on disk (after a successful fflush) */
  long rows_safe; /* data rows in those bytes */
  int error;      /* errno of the first failure (EIO if unknown), 0 = fine */
  int published;  /* renamed into place at close */
} out_file;

#define OUT_MAX_WARNINGS 16
#define OUT_MAX_CRITICAL 64 /* critical points kept for summary.json */
#define OUT_SNAP_CAP 64
#define OUT_WARNING_LEN 512

struct cosrod_output {
  char *dir, *vtkdir, *plotdir;
  char *title, *scenario_file, *analysis, *integrator, *gnuplot;
  char **rod_names;  /* (nrods) */
  char **body_names; /* (nbodies) */
  size_t nrods, nbodies;
  unsigned files;
  int vtk, plots;
  double t_end, checkpoint_every;

  out_file f[OF_COUNT];
  char *path_a, *path_b; /* scratch paths (vtk frame files, checkpoint copies) */
  size_t path_cap;
  char line[2048]; /* one CSV row */

  /* frames */
  int in_frame;
  double t_frame, t_last;
  size_t nframes;
  unsigned char *rod_done;  /* (nrods) written in the current frame */
  unsigned char *react_ends; /* (nrods) bit e: reactions.csv has rows of end e (plots) */
  unsigned char *body_done; /* (nbodies) */
  int energy_done;
  size_t *rod_n;         /* (nrods) segments, 0 = not yet known */
  double *tips;          /* (nrods, 3) tip x_N at the last finished frame */
  double *tips_frame;    /* (nrods, 3) tips of the current frame */
  double *body_x;        /* (nbodies, 3) positions at the last finished frame */
  double *rod_radius;    /* (nrods) section radius for the VTK files [m]; NULL: not written */
  cosrod_output_section *rod_sections; /* (nrods) section shapes for the VTK files; NULL: not written */
  double *body_geom;     /* (nbodies, 7) ellipsoid semi-axes (3) and axes quaternion (4); NULL: centres only */
  double *body_x_frame;  /* (nbodies, 3) current frame: position */
  double *body_q_frame;  /* (nbodies, 4) orientation */
  double *body_om_frame; /* (nbodies, 3) angular velocity */
  int vtk_error;

  /* energy */
  long nenergy;
  double bal0, bal_last, bal_maxdev, bal_scale;
  double bal_frame, scale_frame; /* of the current frame */

  /* non-finite values written */
  long nonfinite, nonfinite_frame;
  double t_nonfinite;

  /* frame times for the centerline plot: every snap_stride-th frame, at
   * most OUT_SNAP_CAP (halved and the stride doubled when full), no
   * allocation in the time loop */
  double snap_t[OUT_SNAP_CAP];
  size_t nsnap, snap_stride;

  /* modes (cosrod_output_write_modes): for plots/modes.png */
  int nmodes;        /* modes written (0 = none) */
  int buckling;      /* analysis "buckling": buckling.csv, load factors instead of frequencies */
  size_t mode_n;     /* largest N of the modes' rods */
  double *mode_s;    /* (nmodes x (mode_n+1)) arc length of the vertices of each mode's rod [m] */
  size_t *mode_nk;   /* (nmodes) N of each mode's rod */
  size_t *mode_rod;  /* (nmodes) rod of each mode */
  double *mode_freq; /* (nmodes) [Hz] */
  double *mode_omega; /* (nmodes) [rad/s] (summary.json) */
  char (*mode_type)[16]; /* (nmodes) type names or "" (summary.json) */
  int *mode_group;       /* (nmodes) degenerate group, -1 if not given (summary.json) */

  /* static arc-length runs (output_arclen.c): increments.csv with the
   * path columns, critical points for summary.json */
  int arc_length;
  size_t ncrit;
  struct out_critical {
    char type[16]; /* "limit", "bifurcation" */
    double t, load_factor, displacement;
  } crit[OUT_MAX_CRITICAL];

  /* summary.json "solver" (cosrod_output_set_solver; output_contact.c) when solver_chosen[0] */
  char solver_chosen[32], solver_reason[400];
  size_t nswitch;
  char switches[4][400];
  /* contact (output_contact.c): summary.json "contact" when has_contact */
  int has_contact;
  cosrod_output_contact_summary contact;

  char warnings[OUT_MAX_WARNINGS][OUT_WARNING_LEN];
  size_t nwarn;
  char err[512];
  int closed;
  locale_t cloc; /* "C" numeric locale for all formatting */
  struct out_h5 *h5; /* format hdf5 (output_hdf5.c), else NULL */
  struct timespec t0, t_ckpt;
};

/* ---- numbers ---------------------------------------------------------------
 * %.15g if strtod reads it back exactly, else %.17g (always exact); nan, inf,
 * -inf for non-finite values.  buf has at least 32 bytes.  Returns length. */
/* Locale guard: every public entry point formats numbers in the C locale. */
#define LOCALE_ENTER(out) locale_t saved_locale_ = uselocale((out)->cloc)
#define LOCALE_LEAVE() uselocale(saved_locale_)

/* output_fmt.c: snprintf(buf, 32, "%.<P>g", v) for P = 15, 17 without printf,
 * or -1 when unsure (0, non-finite, extreme exponents, near-half rounding). */
int out_fmt_fast(char *buf, double v, int P);
/* plots.c: the common head of every gnuplot script; a gnuplot '...' string. */
void out_gp_preamble(FILE *fp, const char *what, const char *png, int w, int h);
void out_gp_quoted(FILE *fp, const char *s);
/* plots_contact.c: DIR/contact_forces.csv (written by the recorder before
 * the output is closed) has a header and rows; the script of contact.png. */
int out_contact_plot_wanted(const cosrod_output *out);
void out_script_contact(const cosrod_output *out, FILE *fp);
/* output_fmt.c: out_fmt's text ("%.15g" if it reads back, else "%.17g")
 * without printf or strtod, or -1 when unsure. */
int out_fmt_shortest(char *buf, double v);

/* Stream helpers (output_stream.c), used by the row writers (output_rows.c)
 * and the frame/close logic (output_frame.c). */

void out_file_commit(out_file *f);

int out_file_enabled(const out_file *f);
cosrod_status out_file_put(cosrod_output *out, out_file *f, const char *s, int is_row);
/* Record an I/O failure (errno err, 0 = EIO) on stream f; returns ERR_IO. */
cosrod_status out_file_io_error(cosrod_output *out, out_file *f, int err);
/* Discard the uncommitted bytes of f (flush, truncate, reposition). */
cosrod_status out_file_rollback(cosrod_output *out, out_file *f);
/* fflush; on success everything committed so far is on disk ("safe"). */
cosrod_status out_file_flush(cosrod_output *out, out_file *f);
/* Publish the committed prefix (+ footer) under the final name by a copy. */
cosrod_status out_file_checkpoint(cosrod_output *out, out_file *f);
/* At close: truncate to committed, footer, close, rename (salvage after errors). */
cosrod_status out_file_publish(cosrod_output *out, out_file *f);

/* output_resume.c: start every stream of a resumed run from its final name
 * cut to cfg->resume's rows and restore the frame summaries; msg on failure. */
cosrod_status out_resume(cosrod_output *out, const cosrod_output_config *cfg, char *msg, size_t len);

void out_count_nonfinite(cosrod_output *out, const double *v, size_t n);

int out_fmt(char *buf, double v);

/* Append ",<number>" to a line at position pos (capacity cap). */
size_t out_append_num(char *line, size_t pos, size_t cap, double v);

/* Record a warning (deduplicated; at most OUT_MAX_WARNINGS kept). */
void out_warn(cosrod_output *out, const char *fmt, ...);
/* Set the error message and return st. */
cosrod_status out_fail(cosrod_output *out, cosrod_status st, const char *fmt, ...);

double out_elapsed(const struct timespec *since);
const char *out_run_name(cosrod_output_run run);

/* XML attribute/text escaping to fp. */
void out_xml_escaped(FILE *fp, const char *s);

/* vtk.c: write a complete rod / bodies .vtp file to `path` (a temporary name). */
cosrod_status out_vtk_rod(cosrod_output *out, const char *path, size_t rod, double t,
                          const cosrod_output_rod_frame *fr);
cosrod_status out_vtk_bodies(cosrod_output *out, const char *path, double t, const double *x, const double *q,
                             const double *Om);
/* Scratch-path builders: DIR/vtk/[.]rod<k>_<frame>.vtp[.tmp], bodies likewise
 * (rod == (size_t)-1). */
void out_vtk_path(const cosrod_output *out, char *buf, size_t rod, size_t frame, int tmp);
void out_vtk_base(char *buf, size_t cap, size_t rod, size_t frame);
/* Base name of mode k's file (k from 0): "mode_001.vtp", ... */
void out_mode_base(char *buf, size_t cap, int k);

/* Geometry of mode k of m: its rod, N, vertex arc lengths s, centerline x
 * and shape (N+1) x 6. */
static inline void out_mode_geom(const cosrod_output_modes *m, int k, size_t *rod, size_t *N, const double **s,
                                 const double **x, const double **sh) {
  if (m->mode_rod) {
    size_t r = m->mode_rod[k];
    *rod = r, *N = m->rod_n[r], *s = m->rod_s[r], *x = m->rod_x[r];
    *sh = m->shapes + (size_t)k * m->stride;
  } else {
    *rod = m->rod, *N = m->n, *s = m->s, *x = m->x;
    *sh = m->shapes + (size_t)k * (m->n + 1) * 6;
  }
}

/* vtk.c: one mode shape as a .vtp file at `path` (a temporary name): the
 * centerline of m as points, mode k's displacement / rotation as point data. */
cosrod_status out_vtk_mode(cosrod_output *out, const char *path, const cosrod_output_modes *m, int k);

/* output.c: the CSV header of table i (an OF_* index) for this run. */
const char *out_table_header(const cosrod_output *out, int i);

/* output_arclen.c: header of increments.csv in arc-length runs. */
extern const char out_increments_arc_header[];

/* json.c: write summary.json (through a temporary name). */
cosrod_status out_write_summary(cosrod_output *out, cosrod_output_run run, const cosrod_output_result *res);
/* The two halves: the text under DIR/.summary.json.tmp (out->path_a), then its rename. */
cosrod_status out_write_summary_tmp(cosrod_output *out, cosrod_output_run run, const cosrod_output_result *res);
cosrod_status out_publish_summary(cosrod_output *out);

/* output_clean.c: at close, remove files of an earlier run under our names
 * that this run did not write (tables, VTK frames and modes, plots). */
void out_remove_previous_run(cosrod_output *out);

/* plots.c: write the gnuplot scripts and run gnuplot (warnings on failure). */
void out_make_plots(cosrod_output *out);

#endif /* COSROD_OUTPUT_INTERNAL_H */
