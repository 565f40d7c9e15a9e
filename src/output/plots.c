/* Figures in DIR/plots/ (SPEC §8): gnuplot scripts that read the published
 * CSV files, run once at close.
 *   tip.gp    -> tip.png    x, y, z of the last vertex of every rod vs t (centerline.csv)
 *   energy.gp -> energy.png energy terms and balance vs t; balance - balance(t0) (energy.csv)
 *   steps.gp  -> steps.png  step size vs t, rejected steps marked (steps.csv)
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
static void gp_quoted(FILE *fp, const char *s) {
  fputc('\'', fp);
  for (; *s; ++s) {
    if (*s == '\'')
      fputs("''", fp);
    else if ((unsigned char)*s >= 0x20)
      fputc(*s, fp);
  }
  fputc('\'', fp);
}

static void gp_preamble(FILE *fp, const char *what, const char *png, int w, int h) {
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
  gp_preamble(fp, "tip trajectories (vertex N of every rod) from ../centerline.csv", "tip.png", 1000, 900);
  fputs("set multiplot layout 3,1 title ", fp);
  gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs("\nset xlabel 't [s]'\n", fp);
  for (int c = 0; c < 3; ++c) {
    fprintf(fp, "set ylabel '%s tip [m]'\nplot ", comp[c]);
    for (size_t k = 0; k < out->nrods; ++k) {
      fprintf(
          fp,
          "%s'../centerline.csv' skip 1 using 1:(($2==%zu && $3==%zu) ? $%d : NaN) with lines lw 2 title ",
          k ? ", \\\n     " : "", k, out->rod_n[k], 5 + c);
      gp_quoted(fp, out->rod_names[k]);
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
  gp_preamble(fp, "energy terms and balance from ../energy.csv (SPEC 8)", "energy.png", 1000, 800);
  fputs("set multiplot layout 2,1 title ", fp);
  gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs("\nset xlabel 't [s]'\nset ylabel 'energy [J]'\nplot ", fp);
  for (int c = 0; c < 6; ++c)
    fprintf(fp, "%s'../energy.csv' skip 1 using 1:%d with lines lw %d title '%s'", c ? ", \\\n     " : "",
            c + 2, c == 5 ? 3 : 1, names[c]);
  fprintf(fp,
          "\nb0 = %s\nset ylabel 'balance - balance(t0) [J]'\n"
          "plot '../energy.csv' skip 1 using 1:($7 - b0) with lines lw 2 title 'balance drift'\n",
          b0);
  fputs("unset multiplot\n", fp);
}

static void script_steps(const cosrod_output *out, FILE *fp) {
  gp_preamble(fp, "step-size history from ../steps.csv", "steps.png", 1000, 600);
  fputs("set title ", fp);
  gp_quoted(fp, *out->title ? out->title : "cosrod");
  /* markers on every accepted step only while they stay distinguishable */
  const char *style = out->f[OF_STEPS].rows_committed > 500 ? "lines" : "linespoints pt 7 ps 0.4";
  fprintf(fp,
          "\nset logscale y\nset format y '%%.0e'\nset xlabel 't [s]'\nset ylabel 'h [s]'\n"
          "plot '../steps.csv' skip 1 using 1:($3==1 ? $2 : NaN) with %s title 'accepted', \\\n"
          "     '../steps.csv' skip 1 using 1:($3==0 ? $2 : NaN) with points pt 2 ps 1.2 lc rgb 'red' "
          "title 'rejected'\n",
          style);
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
  struct {
    const char *name;
    void (*gen)(const cosrod_output *, FILE *);
    int want;
  } figs[3] = {
      {"tip", script_tip, out->f[OF_CENTERLINE].published && out->nframes > 0 && out->nrods > 0},
      {"energy", script_energy, out->f[OF_ENERGY].published && out->f[OF_ENERGY].rows_committed > 0},
      {"steps", script_steps, out->f[OF_STEPS].published && out->f[OF_STEPS].rows_committed > 0},
  };
  char log[4200], logfinal[4200];
  snprintf(log, sizeof log, "%s/.gnuplot.log.tmp", out->plotdir);
  snprintf(logfinal, sizeof logfinal, "%s/gnuplot.log", out->plotdir);
  remove(log);
  int failed = 0, missing = 0;
  for (int i = 0; i < 3; ++i) {
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
