// SPDX-License-Identifier: Apache-2.0
/* Figures in DIR/plots/ ([manual: command line, output reference]): gnuplot scripts that read the published
 * CSV files, run once at close.
 *   tip.gp    -> tip.png    x, y, z of the last vertex of every rod vs t (centerline.csv)
 *   energy.gp -> energy.png energy terms and balance vs t; balance - balance(t0) (energy.csv)
 *   steps.gp  -> steps.png  step size vs t, rejected steps marked (steps.csv)
 *   centerline.gp -> centerline.png  the centerline at up to 6 output times
 *             (all of them if <= 9; static runs: e.g. t = 0, 0.25, ..., 1):
 *             (x2, x3), (x1, x2), (x1, x3) projections with equal axis
 *             scales and a 3D view (centerline.csv)
 *   modes.gp  -> modes.png  the first (up to 6) mode shapes, displacement and
 *             rotation components vs s (modes.csv; modal analyses)
 *   bodies.gp -> bodies.png centre of mass x, y, z of every rigid body vs t
 *             and their 3D trajectories (bodies.csv)
 *   reactions.gp -> reactions.png  force and moment components of every
 *             supported end vs t (reactions.csv; the mounting loads)
 *   contact.gp -> contact.png  total normal and friction force per obstacle
 *             (and of rod-rod contact) and the number of active contact
 *             points vs t (contact_forces.csv; plots_contact.c)
 * A script is written only when its CSV file has rows.  The scripts stay in
 * plots/ and can be re-run by hand (cd DIR/plots && gnuplot tip.gp).
 * gnuplot runs as a child process (posix_spawnp, PATH search) with its
 * output in plots/gnuplot.log (kept only when something failed); each PNG is
 * rendered to a temporary name and renamed when gnuplot succeeded.  A
 * missing or failing gnuplot is a warning in summary.json, never an error. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output_internal.h"

extern char **environ;

/* gnuplot single-quoted string: ' is doubled, control characters dropped. */
void out_gp_quoted(FILE *fp, const char *s) {
  fputc('\'', fp);
  for (; *s; ++s) {
    if (*s == '\'')
      fputs("''", fp);
    else if ((unsigned char)*s >= 0x20)
      fputc(*s, fp);
  }
  fputc('\'', fp);
}

void out_gp_preamble(FILE *fp, const char *what, const char *png, int w, int h) {
  fprintf(fp, "# cosrod: %s\n# Re-run by hand: cd plots && gnuplot %.*s.gp\n", what, (int)(strlen(png) - 4),
          png);
  fprintf(fp, "if (!exists(\"outfile\")) outfile = '%s'\n", png);
  fprintf(fp,
          "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size %d,%d noenhanced } "
          "else { set terminal png size %d,%d noenhanced }\n",
          w, h, w, h);
  fputs(
      "set output outfile\nset datafile separator comma\nset datafile missing NaN\nset grid\nset key outside "
      "right\n",
      fp);
}

static void script_tip(const cosrod_output *out, FILE *fp) {
  static const char *const comp[3] = {"x", "y", "z"};
  out_gp_preamble(fp, "tip trajectories (vertex N of every rod) from ../centerline.csv", "tip.png", 1000, 900);
  /* a component that varies by less than 1e-9 of the geometry's extent is
   * round-off, not signal: drawn flat in a range of ±5 % of the extent */
  fputs("mx(a, b) = a > b ? a : b\n"
        "stats '../centerline.csv' skip 1 using 5 nooutput name 'A1'\n"
        "stats '../centerline.csv' skip 1 using 6 nooutput name 'A2'\n"
        "stats '../centerline.csv' skip 1 using 7 nooutput name 'A3'\n"
        "ext = mx(mx(A1_max - A1_min, A2_max - A2_min), A3_max - A3_min)\n"
        "ext = ext > 0 ? ext : 1\n"
        "tipsel(dummy) = (0",
        fp);
  for (size_t k = 0; k < out->nrods; ++k)
    fprintf(fp, " || (column(2) == %zu && column(3) == %zu)", k, out->rod_n[k]);
  fputs(")\n", fp);
  fputs("set multiplot layout 3,1 title ", fp);
  out_gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs(strcmp(out->analysis, "dynamic") ? "\nset xlabel 'pseudo-time t'\n" : "\nset xlabel 't [s]'\n", fp);
  for (int c = 0; c < 3; ++c) {
    fprintf(fp,
            "set autoscale y\nstats '../centerline.csv' skip 1 using (tipsel(0) ? column(%d) : NaN) nooutput name 'T'\n"
            "if (T_max - T_min < 1e-9 * ext) { set yrange [T_mean - 0.05 * ext : T_mean + 0.05 * ext] } "
            "else { set autoscale y }\n",
            5 + c);
    fprintf(fp, "set ylabel '%s tip [m]'\nplot ", comp[c]);
    for (size_t k = 0; k < out->nrods; ++k) {
      fprintf(
          fp,
          "%s'../centerline.csv' skip 1 using 1:(($2==%zu && $3==%zu) ? $%d : NaN) with lines lw 2 title ",
          k ? ", \\\n     " : "", k, out->rod_n[k], 5 + c);
      out_gp_quoted(fp, out->rod_names[k]);
    }
    fputc('\n', fp);
  }
  fputs("unset multiplot\n", fp);
}

static void script_energy(const cosrod_output *out, FILE *fp) {
  static const char *const names[6] = {"kinetic",       "elastic",    "gravity",
                                       "external work", "dissipated", "balance"};
  char b0[32];
  out_fmt(b0, out->bal0);
  out_gp_preamble(fp, "energy terms and balance from ../energy.csv (manual: output reference)", "energy.png", 1000, 800);
  fputs("set multiplot layout 2,1 title ", fp);
  out_gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs(strcmp(out->analysis, "dynamic") ? "\nset xlabel 'pseudo-time t'" : "\nset xlabel 't [s]'", fp);
  fputs("\nset ylabel 'energy [J]'\nplot ", fp);
  for (int c = 0; c < 6; ++c)
    fprintf(fp, "%s'../energy.csv' skip 1 using 1:%d with lines lw %d title '%s'", c ? ", \\\n     " : "",
            c + 2, c == 5 ? 3 : 1, names[c]);
  /* a drift below 1e-13 of the energy scale is round-off: drawn flat */
  char sc[32];
  out_fmt(sc, out->bal_scale > 0 ? out->bal_scale : 1.0);
  fprintf(fp,
          "\nb0 = %s\nescale = %s\nset ylabel 'balance - balance(t0) [J]'\n"
          "set autoscale y\nstats '../energy.csv' skip 1 using ($7 - b0) nooutput name 'B'\n"
          "if (abs(B_max) + abs(B_min) < 1e-13 * escale) { set yrange [-1e-12 * escale : 1e-12 * escale]; "
          "set title 'balance drift below 1e-13 of the energy scale (round-off)' } else { unset title }\n"
          "plot '../energy.csv' skip 1 using 1:($7 - b0) with lines lw 2 title 'balance drift'\n",
          b0, sc);
  fputs("unset multiplot\n", fp);
}

static void script_steps(const cosrod_output *out, FILE *fp) {
  out_gp_preamble(fp, "step-size history from ../steps.csv", "steps.png", 1000, 600);
  fputs("set title ", fp);
  out_gp_quoted(fp, *out->title ? out->title : "cosrod");
  /* markers on every accepted step only while they stay distinguishable */
  const char *style = out->f[OF_STEPS].rows_committed > 500 ? "lines" : "linespoints pt 7 ps 0.4";
  fprintf(fp,
          "\nset logscale y\nset format y '%%.0e'\nset xlabel 't [s]'\nset ylabel 'h [s]'\n"
          "plot '../steps.csv' skip 1 using 1:($3==1 ? $2 : NaN) with %s title 'accepted', \\\n"
          "     '../steps.csv' skip 1 using 1:($3==0 ? $2 : NaN) with points pt 2 ps 1.2 lc rgb 'red' "
          "title 'rejected'\n",
          style);
}

/* Up to 6 frame times for the centerline snapshots (all of them if <= 9):
 * from the recorded every-stride-th frames plus the last frame, evenly
 * spaced by index, first and last included.  Returns the count. */
static int centerline_times(const cosrod_output *out, double *sel) {
  double all[OUT_SNAP_CAP + 1];
  size_t n = out->nsnap;
  memcpy(all, out->snap_t, n * sizeof *all);
  if (n == 0 || all[n - 1] != out->t_last) all[n++] = out->t_last;
  if (n <= 9) {
    memcpy(sel, all, n * sizeof *all);
    return (int)n;
  }
  for (int i = 0; i < 6; ++i) sel[i] = all[(size_t)((double)i * (double)(n - 1) / 5.0 + 0.5)];
  return 6;
}

/* The centerline at a few output times: three projections (equal axis
 * scales) and a 3D view, one colour per time, one dash type per rod. */
static void script_centerline(const cosrod_output *out, FILE *fp) {
  static const char *const ax[3] = {"x1", "x2", "x3"};
  /* panels: horizontal, vertical axis (0 = x1, 1 = x2, 2 = x3) */
  static const int pan[3][2] = {{1, 2}, {1, 0}, {0, 2}};
  static const char *const view[3] = {"front view: (x2, x3) plane", "top view: (x1, x2) plane",
                                      "side view: (x1, x3) plane"};
  double ts[9];
  int nt = centerline_times(out, ts);
  int stat = !strcmp(out->analysis, "static") || !strcmp(out->analysis, "modes") ||
             !strcmp(out->analysis, "buckling");
  out_gp_preamble(fp, "centerline at selected output times from ../centerline.csv", "centerline.png", 1200, 1000);
  fputs("sel(t, r) = abs(column(1) - t) <= 1e-12 * (1 + abs(t)) && column(2) == r\n", fp);
  /* axis ranges: the data's extent per axis over all output times, but at
   * least 10 % of the largest extent (a planar motion's roundoff-sized
   * off-plane coordinates must not blow up an axis), 5 % margins */
  fputs(
      "mx(a, b) = a > b ? a : b\n"
      "stats '../centerline.csv' skip 1 using 5 nooutput name 'A1'\n"
      "stats '../centerline.csv' skip 1 using 6 nooutput name 'A2'\n"
      "stats '../centerline.csv' skip 1 using 7 nooutput name 'A3'\n"
      "ext = mx(mx(A1_max - A1_min, A2_max - A2_min), A3_max - A3_min)\n"
      "ext = ext > 0 ? ext : 1\n"
      "half(lo, hi) = 0.55 * mx(hi - lo, 0.1 * ext)\n"
      "nice(x) = (e10 = 10.0**floor(log10(x)), m10 = x / e10, (m10 < 1.5 ? 1 : m10 < 3.5 ? 2 : m10 < 7.5 ? 5 "
      ": "
      "10) * "
      "e10)\n"
      "lo1 = 0.5 * (A1_min + A1_max) - half(A1_min, A1_max); hi1 = 0.5 * (A1_min + A1_max) + half(A1_min, "
      "A1_max)\n"
      "lo2 = 0.5 * (A2_min + A2_max) - half(A2_min, A2_max); hi2 = 0.5 * (A2_min + A2_max) + half(A2_min, "
      "A2_max)\n"
      "lo3 = 0.5 * (A3_min + A3_max) - half(A3_min, A3_max); hi3 = 0.5 * (A3_min + A3_max) + half(A3_min, "
      "A3_max)\n",
      fp);
  fputs("set multiplot layout 2,2 title ", fp);
  char title[600];
  snprintf(title, sizeof title, "%s: centerline at %s", *out->title ? out->title : "cosrod",
           stat ? "pseudo-times t" : "times t");
  out_gp_quoted(fp, title);
  fputs(
      "\nunset key\nset size ratio -1\nset format x '%.3g'\nset format y '%.3g'\nset xtics rotate by 45 "
      "right\n",
      fp);
  for (int p = 0; p < 4; ++p) {
    if (p < 3) {
      fprintf(fp,
              "set title '%s'\nset xlabel '%s [m]'\nset ylabel '%s [m]'\nset xrange [lo%d:hi%d]\n"
              "set yrange [lo%d:hi%d]\nset xtics nice((hi%d - lo%d) / 3)\nset ytics nice((hi%d - lo%d) / "
              "3)\nplot ",
              view[p], ax[pan[p][0]], ax[pan[p][1]], pan[p][0] + 1, pan[p][0] + 1, pan[p][1] + 1,
              pan[p][1] + 1, pan[p][0] + 1, pan[p][0] + 1, pan[p][1] + 1, pan[p][1] + 1);
    } else {
      fputs(
          "set title '3D view'\nset size noratio\nset format z '%.3g'\nset xtics norotate nice((hi1 - lo1) / "
          "3)\n"
          "set ytics nice((hi2 - lo2) / 3)\n"
          "set key outside right top\nset xlabel 'x1 [m]'\nset ylabel 'x2 [m]'\nset zlabel 'x3 [m]' rotate "
          "parallel\nset xyplane 0\nset xrange [lo1:hi1]\nset yrange [lo2:hi2]\nset zrange [lo3:hi3]\nsplot ",
          fp);
    }
    for (int i = 0; i < nt; ++i)
      for (size_t k = 0; k < out->nrods; ++k) {
        char tb[32];
        out_fmt(tb, ts[i]);
        if (p < 3)
          fprintf(fp, "%s'../centerline.csv' skip 1 using (sel(%s, %zu) ? $%d : NaN):%d",
                  i || k ? ", \\\n     " : "", tb, k, 5 + pan[p][0], 5 + pan[p][1]);
        else
          fprintf(fp, "%s'../centerline.csv' skip 1 using (sel(%s, %zu) ? $5 : NaN):6:7",
                  i || k ? ", \\\n     " : "", tb, k);
        fprintf(fp, " with linespoints lw 2 pt 7 ps 0.5 lc %d dt %zu ", i + 1, k % 5 + 1);
        if (k == 0 || out->nrods > 1) {
          char name[400];
          snprintf(name, sizeof name, "t = %s%s%s%s", tb, stat ? "" : " s", out->nrods > 1 ? ", " : "",
                   out->nrods > 1 ? out->rod_names[k] : "");
          fputs("title ", fp);
          out_gp_quoted(fp, name);
        } else {
          fputs("notitle", fp);
        }
      }
    fputc('\n', fp);
  }
  fputs("unset multiplot\n", fp);
}

/* The first (up to 6) mode shapes from ../modes.csv (../buckling.csv):
 * displacement and rotation components vs the arc length s of the vertices
 * of each mode's rod (the rows of that rod: a mode of coupled rods has rows
 * of the other rods too). */
static void script_modes(const cosrod_output *out, FILE *fp) {
  static const char *const comp[6] = {"dx", "dy", "dz", "rx", "ry", "rz"};
  const int nk = out->nmodes < 6 ? out->nmodes : 6, bk = out->buckling;
  const char *csv = bk ? "../buckling.csv" : "../modes.csv";
  const int cv = bk ? 4 : 5, cd = cv + 1; /* columns of the vertex and of dx */
  char what[64];
  snprintf(what, sizeof what, "%s shapes from %s", bk ? "buckling mode" : "mode", csv);
  out_gp_preamble(fp, what, bk ? "buckling.png" : "modes.png", 1200, 300 + 300 * ((nk + 1) / 2));
  fputs("set multiplot layout ", fp);
  fprintf(fp, "%d,%d title ", (nk + 1) / 2, nk > 1 ? 2 : 1);
  char title[600];
  /* the shapes are normalised (mass or unit length: values of any size); the
   * plot scales each mode so that max(|d|, L |r|) = 1: displacement and
   * rotation times the rod length L, both dimensionless and comparable */
  snprintf(title, sizeof title, "%s: %s shapes, scaled to max(|d|, L |r|) = 1", *out->title ? out->title : "cosrod",
           bk ? "buckling mode" : "mode");
  out_gp_quoted(fp, title);
  fputs("\nmx(a, b) = a > b ? a : b\nset xlabel 's [m]'\nset ylabel 'd / scale (solid), L r / scale (dashed)'\n"
        "set key outside right\n",
        fp);
  for (int k = 0; k < nk; ++k) {
    const size_t N = out->mode_nk[k];
    const double *sv = out->mode_s + (size_t)k * (out->mode_n + 1);
    fprintf(fp, "array S[%zu] = [", N + 1);
    for (size_t n = 0; n <= N; ++n) {
      char b[32];
      out_fmt(b, sv[n]);
      fprintf(fp, "%s%s", n ? ", " : "", b);
    }
    fprintf(fp, "]\nLrod = S[%zu] - S[1]\nLrod = Lrod > 0 ? Lrod : 1\n", N + 1);
    fputs("nk = 0\nset autoscale y\n", fp); /* stats must see every point */
    for (int c = 0; c < 6; ++c)
      fprintf(fp,
              "stats '%s' skip 1 using (column(1) == %d && column(%d) == %zu ? abs(column(%d)) * %s : NaN) "
              "nooutput name 'M'\n"
              "nk = mx(nk, M_max)\n",
              csv, k + 1, cv - 1, out->mode_rod[k], cd + c, c < 3 ? "1" : "Lrod");
    fputs("nk = nk > 0 ? nk : 1\nset yrange [-1.1:1.1]\n", fp);
    if (bk)
      fprintf(fp, "set title 'mode %d (rod %zu): load factor %.6g'\nplot ", k + 1, out->mode_rod[k],
              out->mode_freq[k]);
    else
      fprintf(fp, "set title 'mode %d (rod %zu): %.6g Hz'\nplot ", k + 1, out->mode_rod[k], out->mode_freq[k]);
    for (int c = 0; c < 6; ++c)
      fprintf(fp,
              "%s'%s' skip 1 using (column(1) == %d && column(%d) == %zu ? S[int(column(%d)) + 1] : NaN):"
              "(column(%d) * %s / nk) with linespoints lw 2 pt 7 ps 0.4 lc %d dt %d title '%s%s'",
              c ? ", \\\n     " : "", csv, k + 1, cv - 1, out->mode_rod[k], cv, cd + c, c < 3 ? "1" : "Lrod", c % 3 + 1, c < 3 ? 1 : 2,
              c < 3 ? "" : "L ", comp[c]);
    fputc('\n', fp);
  }
  fputs("unset multiplot\n", fp);
}

static void script_bodies(const cosrod_output *out, FILE *fp) {
  static const char *const comp[3] = {"x", "y", "z"};
  out_gp_preamble(fp, "rigid-body trajectories (centres of mass) from ../bodies.csv", "bodies.png", 1200, 900);
  fputs("set multiplot layout 2,2 title ", fp);
  out_gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs("\nset xlabel 't [s]'\n", fp);
  for (int c = 0; c < 4; ++c) {
    if (c < 3)
      fprintf(fp, "set ylabel '%s [m]'\nplot ", comp[c]);
    else
      fputs("set title '3D trajectories'\nset xlabel 'x'\nset ylabel 'y'\nset zlabel 'z'\nsplot ", fp);
    for (size_t k = 0; k < out->nbodies; ++k) {
      if (c < 3)
        fprintf(fp, "%s'../bodies.csv' skip 1 using 1:($2==%zu ? $%d : NaN) with lines lw 2 title ",
                k ? ", \\\n     " : "", k, 3 + c);
      else
        /* points: the long-format rows of one body are not consecutive, so lines would break */
        fprintf(fp, "%s'../bodies.csv' skip 1 using ($2==%zu ? $3 : NaN):4:5 with points pt 7 ps 0.4 title ",
                k ? ", \\\n     " : "", k);
      out_gp_quoted(fp, out->body_names[k]);
    }
    fputc('\n', fp);
  }
  fputs("unset multiplot\n", fp);
}

static void script_reactions(const cosrod_output *out, FILE *fp) {
  static const char *const comp[6] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz"};
  static const char *const endname[2] = {"start", "end"};
  out_gp_preamble(fp, "support reactions (force and moment on the rod, spatial) from ../reactions.csv",
              "reactions.png", 1100, 900);
  fputs("set multiplot layout 2,1 title ", fp);
  out_gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs(strcmp(out->analysis, "dynamic") ? "\nset xlabel 'pseudo-time t'\n" : "\nset xlabel 't [s]'\n", fp);
  for (int part = 0; part < 2; ++part) {
    fputs(part ? "set ylabel 'moment [N m]'\nplot " : "set ylabel 'force [N]'\nplot ", fp);
    int first = 1;
    for (size_t k = 0; k < out->nrods; ++k)
      for (int e = 0; e < 2; ++e) {
        if (!(out->react_ends[k] & (1u << e))) continue;
        for (int c = 0; c < 3; ++c) {
          /* colour by component, dash type by rod end */
          fprintf(fp,
                  "%s'../reactions.csv' skip 1 using 1:(($2==%zu && $3==%d) ? $%d : NaN) with lines lw 2 lc %d "
                  "dt %d title ",
                  first ? "" : ", \\\n     ", k, e, 4 + 3 * part + c, c + 1, (int)(2 * k + (size_t)e) % 5 + 1);
          first = 0;
          char name[160];
          snprintf(name, sizeof name, "%s %s %s", out->rod_names[k] ? out->rod_names[k] : "rod", endname[e],
                   comp[3 * part + c]);
          out_gp_quoted(fp, name);
        }
      }
    fputc('\n', fp);
  }
  fputs("unset multiplot\n", fp);
}

/* Any supported end with rows in reactions.csv. */
static int have_reactions(const cosrod_output *out) {
  for (size_t k = 0; k < out->nrods; ++k)
    if (out->react_ends[k]) return 1;
  return 0;
}

/* Write plots/<name>.gp through a temporary name. */
static int write_script(cosrod_output *out, const char *name, void (*gen)(const cosrod_output *, FILE *)) {
  snprintf(out->path_a, out->path_cap, "%s/.%s.gp.tmp", out->plotdir, name);
  snprintf(out->path_b, out->path_cap, "%s/%s.gp", out->plotdir, name);
  FILE *fp = fopen(out->path_a, "w");
  if (!fp) {
    out_warn(out, "%s: cannot write (%s); no plot", out->path_a, strerror(errno));
    return 0;
  }
  gen(out, fp);
  int bad = ferror(fp);
  if (fclose(fp) != 0) bad = 1;
  if (bad || rename(out->path_a, out->path_b) != 0) {
    remove(out->path_a);
    out_warn(out, "%s: cannot write; no plot", out->path_b);
    return 0;
  }
  return 1;
}

/* Run gnuplot on plots/<name>.gp rendering to plots/.<name>.png.tmp.
 * Returns 0 ok, 1 gnuplot failed, 2 gnuplot not found. */
static int run_gnuplot(cosrod_output *out, const char *name, const char *log) {
  char cd[4200], of[128], script[96];
  size_t m = 0;
  m += (size_t)snprintf(cd, sizeof cd, "cd '");
  for (const char *s = out->plotdir; *s && m + 4 < sizeof cd; ++s) {
    if (*s == '\'') cd[m++] = '\'';
    cd[m++] = *s;
  }
  cd[m++] = '\'';
  cd[m] = '\0';
  snprintf(of, sizeof of, "outfile='.%s.png.tmp'", name);
  snprintf(script, sizeof script, "%s.gp", name);
  char *argv[] = {out->gnuplot, "-e", cd, "-e", of, script, NULL};

  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) return 1;
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, out->gnuplot, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return rc == ENOENT || rc == EACCES ? 2 : 1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return 2; /* exec failed in the child */
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

void out_make_plots(cosrod_output *out) {
  /* time series need two output times: a modal or buckling analysis (one
   * state) gets no empty tip / energy / bodies / reactions figure */
  const int series = out->nframes > 1;
  struct {
    const char *name;
    void (*gen)(const cosrod_output *, FILE *);
    int want;
  } figs[8] = {
      {"tip", script_tip, series && out->f[OF_CENTERLINE].published && out->nrods > 0},
      {"energy", script_energy, series && out->f[OF_ENERGY].published && out->f[OF_ENERGY].rows_committed > 0},
      {"steps", script_steps, out->f[OF_STEPS].published && out->f[OF_STEPS].rows_committed > 0},
      {"centerline", script_centerline,
       out->f[OF_CENTERLINE].published && out->nframes > 0 && out->nrods > 0},
      {out->buckling ? "buckling" : "modes", script_modes, out->f[OF_MODES].published && out->nmodes > 0},
      {"bodies", script_bodies, series && out->f[OF_BODIES].published && out->f[OF_BODIES].rows_committed > 0},
      {"reactions", script_reactions,
       series && out->f[OF_REACTIONS].published && out->f[OF_REACTIONS].rows_committed > 0 && have_reactions(out)},
      {"contact", out_script_contact, series && out_contact_plot_wanted(out)},
  };
  char log[4200], logfinal[4200];
  snprintf(log, sizeof log, "%s/.gnuplot.log.tmp", out->plotdir);
  snprintf(logfinal, sizeof logfinal, "%s/gnuplot.log", out->plotdir);
  remove(log);
  int failed = 0, missing = 0;
  for (int i = 0; i < 8; ++i) {
    if (!figs[i].want || !write_script(out, figs[i].name, figs[i].gen)) continue;
    if (missing) continue;
    int rc = run_gnuplot(out, figs[i].name, log);
    snprintf(out->path_a, out->path_cap, "%s/.%s.png.tmp", out->plotdir, figs[i].name);
    snprintf(out->path_b, out->path_cap, "%s/%s.png", out->plotdir, figs[i].name);
    struct stat sb;
    if (rc == 2) {
      missing = 1;
      out_warn(out, "gnuplot not found (%s): plots/*.gp written, no PNG figures", out->gnuplot);
    } else if (rc != 0 || stat(out->path_a, &sb) != 0 || sb.st_size == 0 ||
               rename(out->path_a, out->path_b) != 0) {
      failed = 1;
      out_warn(out, "gnuplot failed on plots/%s.gp (see plots/gnuplot.log); no %s.png", figs[i].name,
               figs[i].name);
    }
    remove(out->path_a);
  }
  if (failed && rename(log, logfinal) == 0) return;
  remove(log);
}
