// SPDX-License-Identifier: Apache-2.0
/* Output directory object: CSV streams, output-time frames, checkpoints and
 * the crash-safe close ([manual: command line, output reference]).
 *
 * Every stream is a temporary file DIR/.name.tmp.  A frame's rows go to all
 * streams; frame_end flushes them and records each stream's byte count as
 * "committed".  Publishing a stream (close, checkpoint) means: truncate the
 * temporary file to its committed length (close) or copy that prefix to a
 * second temporary file (checkpoint), append the footer (.pvd only) and
 * rename(2) onto the final name, which is atomic within a directory.  So a
 * final name always holds a complete file: the previous one, a checkpoint,
 * or the finished run.  Row bookkeeping uses byte counts kept here (no
 * ftell), and the time-loop writers only format into a fixed line buffer.
 * Stream operations are in output_stream.c, frames, checkpoints and close in
 * output_frame.c. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "output_internal.h"
#include "core/error.h"

static const char *const file_names[OF_COUNT] = {
    "centerline.csv", "frames.csv", "strains.csv",    "curvatures.csv", "energy.csv",
    "bodies.csv",     "steps.csv",  "increments.csv", "modes.csv",      "reactions.csv",
    "tip.csv",        COSROD_OUTPUT_PVD_NAME};

/* Headers: [manual: command line, output reference] (a public contract). */
static const char *const file_headers[OF_COUNT] = {
    "t,rod,vertex,s,x,y,z\n",
    "t,rod,segment,s,q0,q1,q2,q3\n",
    "t,rod,segment,s,Gamma1,Gamma2,Gamma3,F1,F2,F3\n",
    "t,rod,vertex,s,K1,K2,K3,M1,M2,M3\n",
    "t,kinetic,elastic,gravity,external_work,dissipated,balance\n",
    "t,body,x,y,z,q0,q1,q2,q3,Omega1,Omega2,Omega3,vx,vy,vz,kinetic,potential\n",
    "t,h,accepted\n",
    "t,iterations,residual\n",
    "mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz\n",
    "t,rod,end,Fx,Fy,Fz,Mx,My,Mz\n",
    "t,rod,end,x,y,z,q0,q1,q2,q3\n",
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    "  <Collection>\n"};

/* buckling analyses write the OF_MODES stream as buckling.csv */
static const char buckling_header[] = "mode,load_factor,rod,vertex,dx,dy,dz,rx,ry,rz\n";

static const char pvd_footer[] = "  </Collection>\n</VTKFile>\n";

/* ---- small helpers -------------------------------------------------------- */

static char *dup_str(const char *s) {
  if (!s) s = "";
  size_t n = strlen(s) + 1;
  char *r = malloc(n);
  if (r) memcpy(r, s, n);
  return r;
}

static char *join_path(const char *dir, const char *prefix, const char *name, const char *suffix) {
  size_t n = strlen(dir) + strlen(prefix) + strlen(name) + strlen(suffix) + 2;
  char *r = malloc(n);
  if (r) snprintf(r, n, "%s/%s%s%s", dir, prefix, name, suffix);
  return r;
}

/* mkdir -p; returns 0 or an errno. */
static int make_dirs(const char *path) {
  size_t n = strlen(path);
  char *p = malloc(n + 1);
  if (!p) return ENOMEM;
  memcpy(p, path, n + 1);
  int err = 0;
  for (size_t i = 1; i <= n && !err; ++i) {
    if (p[i] != '/' && p[i] != '\0') continue;
    char c = p[i];
    p[i] = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) err = errno;
    p[i] = c;
  }
  struct stat sb;
  if (!err && (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))) err = ENOTDIR;
  free(p);
  return err;
}

/* ---- create / free -------------------------------------------------------- */

cosrod_output_config cosrod_output_default_config(void) {
  cosrod_output_config c;
  memset(&c, 0, sizeof c);
  c.vtk = 1;
  c.plots = 1;
  return c;
}

cosrod_output_result cosrod_output_default_result(void) {
  cosrod_output_result r;
  memset(&r, 0, sizeof r);
  r.run = COSROD_RUN_OK;
  r.code = COSROD_OK;
  r.t_reached = NAN;
  r.t_failed = NAN;
  r.h_last = NAN;
  r.wall_time = NAN;
  r.output_wall_time = NAN;
  return r;
}

const char *out_table_header(const cosrod_output *out, int i) {
  return i == OF_MODES && out->buckling           ? buckling_header
         : i == OF_INCREMENTS && out->arc_length ? out_increments_arc_header
                                                 : file_headers[i];
}

static void release(cosrod_output *out) {
  out_h5_free(out);
  for (int i = 0; i < OF_COUNT; ++i) {
    free(out->f[i].tmp_path);
    free(out->f[i].final_path);
  }
  for (size_t k = 0; out->rod_names && k < out->nrods; ++k) free(out->rod_names[k]);
  for (size_t k = 0; out->body_names && k < out->nbodies; ++k) free(out->body_names[k]);
  free(out->rod_names);
  free(out->body_names);
  free(out->dir);
  free(out->vtkdir);
  free(out->plotdir);
  free(out->title);
  free(out->scenario_file);
  free(out->analysis);
  free(out->integrator);
  free(out->gnuplot);
  free(out->path_a);
  free(out->path_b);
  free(out->rod_done);
  free(out->react_ends);
  free(out->body_done);
  free(out->rod_n);
  free(out->tips);
  free(out->tips_frame);
  free(out->body_x);
  free(out->body_geom);
  free(out->rod_radius);
  free(out->rod_sections);
  free(out->body_x_frame);
  free(out->body_q_frame);
  free(out->body_om_frame);
  free(out->mode_s);
  free(out->mode_nk);
  free(out->mode_rod);
  free(out->mode_freq);
  free(out->mode_omega);
  free(out->mode_type);
  free(out->mode_group);
  if (out->cloc != (locale_t)0) freelocale(out->cloc);
  free(out);
}

/* Close and delete the temporary files of an unfinished run. */
static void abandon(cosrod_output *out) {
  for (int i = 0; i < OF_COUNT; ++i) {
    out_file *f = &out->f[i];
    if (f->fp) {
      fclose(f->fp);
      f->fp = NULL;
      remove(f->tmp_path);
    }
  }
  if (out->in_frame && out->vtk && out->path_a) {
    for (size_t k = 0; k < out->nrods; ++k)
      if (out->rod_done[k]) {
        out_vtk_path(out, out->path_a, k, out->nframes, 1);
        remove(out->path_a);
      }
  }
  out->in_frame = 0;
}

static int has_suffix(const char *s, const char *suf) {
  size_t ls = strlen(s), lf = strlen(suf);
  return ls >= lf && strcmp(s + ls - lf, suf) == 0;
}

/* Is `name` a temporary file this module creates in the directory of kind
 * `kind` (0 = DIR, 1 = DIR/vtk, 2 = DIR/plots)? */
static int own_temp_name(const char *name, int kind) {
  if (name[0] != '.' || !(has_suffix(name, ".tmp") || has_suffix(name, ".ckpt"))) return 0;
  if (kind == 1)
    return !strncmp(name, ".rod", 4) || !strncmp(name, ".bodies_", 8) || !strncmp(name, ".mode", 5) ||
           !strncmp(name, "." COSROD_OUTPUT_PVD_NAME, 11) || !strcmp(name, ".cosrod.vtkhdf.tmp") ||
           !strcmp(name, ".cosrod.xdmf2.tmp");
  if (kind == 2)
    return has_suffix(name, ".png.tmp") || has_suffix(name, ".gp.tmp") || has_suffix(name, ".log.tmp");
  if (!strncmp(name, ".summary.json.", 14) || !strcmp(name, ".run.h5.tmp")) return 1;
  for (int i = 0; i < OF_PVD; ++i) {
    size_t n = strlen(file_names[i]);
    if (!strncmp(name + 1, file_names[i], n) && name[n + 1] == '.') return 1;
  }
  return 0;
}

/* Remove the temporary files a crashed earlier run left in our directories
 * (their names are ours; see the header comment). */
static void remove_stale_temps(cosrod_output *out) {
  const char *dirs[3] = {out->dir, out->vtkdir, out->plotdir};
  for (int kind = 0; kind < 3; ++kind) {
    DIR *d = opendir(dirs[kind]);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (!own_temp_name(e->d_name, kind)) continue;
      size_t n = strlen(dirs[kind]) + strlen(e->d_name) + 2;
      char *p = malloc(n);
      if (!p) break;
      snprintf(p, n, "%s/%s", dirs[kind], e->d_name);
      remove(p);
      free(p);
    }
    closedir(d);
  }
}

static void remove_in_dir(const char *dir, const char *name) {
  char *p = join_path(dir, "", name, "");
  if (p) remove(p);
  free(p);
}

/* The message of a failed cosrod_output_create (cosrod_last_error). */
static void set_errbuf(const cosrod_output_config *cfg, const char *msg) {
  (void)cfg;
  cosrod_error_set("%s", msg);
}

/* The configuration copied into out (sizes, flags, directory names, per-rod
 * and per-body arrays); non-zero when out of memory. */
static int copy_config(cosrod_output *out, const char *dir, const cosrod_output_config *cfg) {
  out->nrods = cfg->nrods;
  out->nbodies = cfg->nbodies;
  out->files = cfg->files ? cfg->files : COSROD_OUTPUT_DEFAULT;
  if (!cfg->files && cfg->nbodies == 0) out->files &= ~COSROD_OUTPUT_BODIES;
  out->vtk = cfg->vtk != 0;
  out->plots = cfg->plots != 0 && cfg->format != COSROD_OUTPUT_FORMAT_HDF5; /* gnuplot reads the CSV files */
  out->t_end = cfg->t_end;
  out->checkpoint_every = cfg->checkpoint_every;
  out->t_last = -INFINITY;
  out->snap_stride = 1;
  out->bal0 = out->bal_last = NAN;
  out->t_nonfinite = NAN;
  out->cloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  clock_gettime(CLOCK_MONOTONIC, &out->t0);
  out->t_ckpt = out->t0;

  size_t nr = out->nrods ? out->nrods : 1, nb = out->nbodies ? out->nbodies : 1;
  out->dir = dup_str(dir);
  out->vtkdir = join_path(dir, "", "vtk", "");
  out->plotdir = join_path(dir, "", "plots", "");
  out->title = dup_str(cfg->title);
  out->scenario_file = cfg->scenario_file ? dup_str(cfg->scenario_file) : NULL;
  out->analysis = dup_str(cfg->analysis ? cfg->analysis : "dynamic");
  out->buckling = cfg->analysis && !strcmp(cfg->analysis, "buckling");
  out->arc_length = cfg->arc_length != 0;
  out->integrator = cfg->integrator ? dup_str(cfg->integrator) : NULL;
  out->gnuplot = dup_str(cfg->gnuplot ? cfg->gnuplot : "gnuplot");
  out->path_cap = strlen(dir) + 96;
  out->path_a = malloc(out->path_cap);
  out->path_b = malloc(out->path_cap);
  out->rod_names = calloc(nr, sizeof *out->rod_names);
  out->body_names = calloc(nb, sizeof *out->body_names);
  out->rod_done = calloc(nr, 1);
  out->react_ends = calloc(nr, 1);
  out->body_done = calloc(nb, 1);
  out->rod_n = calloc(nr, sizeof *out->rod_n);
  out->tips = calloc(3 * nr, sizeof *out->tips);
  out->tips_frame = calloc(3 * nr, sizeof *out->tips_frame);
  out->body_x = calloc(3 * nb, sizeof *out->body_x);
  out->body_x_frame = calloc(3 * nb, sizeof *out->body_x_frame);
  out->body_q_frame = calloc(4 * nb, sizeof *out->body_q_frame);
  out->body_om_frame = calloc(3 * nb, sizeof *out->body_om_frame);
  return out->cloc == (locale_t)0 || !out->dir || !out->vtkdir || !out->plotdir || !out->title ||
         !out->analysis || !out->gnuplot || !out->path_a || !out->path_b || !out->rod_names ||
         !out->body_names || !out->rod_done || !out->react_ends || !out->body_done || !out->rod_n ||
         !out->tips || !out->tips_frame || !out->body_x || !out->body_x_frame || !out->body_q_frame ||
         !out->body_om_frame || (cfg->scenario_file && !out->scenario_file) ||
         (cfg->integrator && !out->integrator);
}

/* Rod and body names (defaults rodK, bodyK), radii, body geometry and the
 * paths of the files; non-zero when out of memory. */
static int copy_names(cosrod_output *out, const cosrod_output_config *cfg) {
  int nomem = 0;
  for (size_t k = 0; !nomem && k < out->nrods; ++k) {
    char def[32];
    snprintf(def, sizeof def, "rod%zu", k);
    out->rod_names[k] = dup_str(cfg->rod_names && cfg->rod_names[k] ? cfg->rod_names[k] : def);
    nomem = !out->rod_names[k];
  }
  if (!nomem && cfg->rod_radius && out->nrods > 0) { /* VTK point data "radius" */
    nomem = !(out->rod_radius = malloc(out->nrods * sizeof *out->rod_radius));
    if (!nomem) memcpy(out->rod_radius, cfg->rod_radius, out->nrods * sizeof *out->rod_radius);
  }
  if (!nomem && cfg->rod_sections && out->nrods > 0) { /* VTK section shape arrays */
    nomem = !(out->rod_sections = malloc(out->nrods * sizeof *out->rod_sections));
    if (!nomem) memcpy(out->rod_sections, cfg->rod_sections, out->nrods * sizeof *out->rod_sections);
  }
  if (!nomem && cfg->body_semi_axes && out->nbodies > 0) { /* ellipsoids in the VTK bodies file */
    nomem = !(out->body_geom = calloc(7 * out->nbodies, sizeof *out->body_geom));
    for (size_t k = 0; !nomem && k < out->nbodies; ++k) {
      double *g = out->body_geom + 7 * k;
      for (int c = 0; c < 3; ++c) {
        double a = cfg->body_semi_axes[3 * k + c];
        g[c] = isfinite(a) && a > 0.0 ? a : 0.0;
      }
      g[3] = 1.0;
      if (cfg->body_axes) memcpy(g + 3, cfg->body_axes + 4 * k, 4 * sizeof *g);
    }
  }
  for (size_t k = 0; !nomem && k < out->nbodies; ++k) {
    char def[32];
    snprintf(def, sizeof def, "body%zu", k);
    out->body_names[k] = dup_str(cfg->body_names && cfg->body_names[k] ? cfg->body_names[k] : def);
    nomem = !out->body_names[k];
  }
  for (int i = 0; !nomem && i < OF_COUNT; ++i) {
    out_file *f = &out->f[i];
    f->name = i == OF_MODES && out->buckling ? "buckling.csv" : file_names[i];
    f->footer = i == OF_PVD ? pvd_footer : NULL;
    const char *d = i == OF_PVD ? out->vtkdir : out->dir;
    f->tmp_path = join_path(d, ".", f->name, ".tmp");
    f->final_path = join_path(d, "", f->name, "");
    nomem = !f->tmp_path || !f->final_path;
  }
  return nomem;
}

/* The directories, then the temporary files with their headers (or run.h5);
 * on failure the message is set (cosrod_last_error) and out is left to release(). */
static cosrod_status open_files(cosrod_output *out, const cosrod_output_config *cfg) {
  const char *dirs[3] = {out->dir, out->vtk ? out->vtkdir : NULL, out->plots ? out->plotdir : NULL};
  for (int i = 0; i < 3; ++i) {
    if (!dirs[i]) continue;
    int err = make_dirs(dirs[i]);
    if (err) {
      char msg[600];
      snprintf(msg, sizeof msg, "%s: cannot create directory (%s)", dirs[i], strerror(err));
      set_errbuf(cfg, msg);
      return COSROD_ERR_IO;
    }
  }
  remove_stale_temps(out);
  if (cfg->format == COSROD_OUTPUT_FORMAT_HDF5) { /* the tables go to run.h5 (output_hdf5.c) */
    char msg[600] = "";
    cosrod_status hs = out_h5_open(out, cfg, msg, sizeof msg);
    if (hs != COSROD_OK) {
      set_errbuf(cfg, msg[0] ? msg : "output: cannot write HDF5");
      out_h5_free(out);
      if (!cfg->resume) remove_in_dir(out->dir, "run.h5"); /* resumed: the new file was the temporary one */
      return hs;
    }
  }
  if (cfg->resume) { /* a resumed run (output_resume.c) */
    char msg[600] = "";
    cosrod_status rs = out_resume(out, cfg, msg, sizeof msg);
    if (rs != COSROD_OK) {
      set_errbuf(cfg, msg);
      abandon(out);
      return rs;
    }
  }
  for (int i = 0; i < OF_COUNT; ++i) {
    out_file *f = &out->f[i];
    int on =
        i == OF_PVD ? out->vtk && (!out->h5 || out->nbodies > 0) : (out->files & (1u << i)) != 0 && !out->h5;
    if (!on || f->fp) continue;
    f->fp = fopen(f->tmp_path, "w");
    const char *hdr = out_table_header(out, i);
    if (!f->fp || fputs(hdr, f->fp) == EOF || fflush(f->fp) != 0) {
      char msg[600];
      snprintf(msg, sizeof msg, "%s: cannot write (%s)", f->tmp_path, strerror(errno ? errno : EIO));
      set_errbuf(cfg, msg);
      abandon(out);
      return COSROD_ERR_IO;
    }
    f->bytes = f->committed = f->safe = (long)strlen(hdr);
  }
  return COSROD_OK;
}

cosrod_output *cosrod_output_create(const char *dir, const cosrod_output_config *cfg, cosrod_status *st) {
  cosrod_status dummy;
  if (!st) st = &dummy;
  cosrod_error_clear();
  if (!dir || !*dir || !cfg) {
    set_errbuf(cfg, "output: no directory or configuration given");
    *st = COSROD_ERR_INVALID;
    return NULL;
  }
  if ((cfg->files & ~COSROD_OUTPUT_ALL) != 0 || cfg->nrods > (SIZE_MAX / 64) ||
      (cfg->format != COSROD_OUTPUT_FORMAT_CSV && cfg->format != COSROD_OUTPUT_FORMAT_HDF5) ||
      cfg->nbodies > (SIZE_MAX / 64) || !(cfg->checkpoint_every >= 0.0)) {
    set_errbuf(cfg, "output: invalid configuration (file bits, counts or checkpoint interval)");
    *st = COSROD_ERR_INVALID;
    return NULL;
  }
  cosrod_output *out = calloc(1, sizeof *out);
  if (!out) {
    set_errbuf(cfg, "output: out of memory");
    *st = COSROD_ERR_NOMEM;
    return NULL;
  }
  int nomem = copy_config(out, dir, cfg);
  if (!nomem) nomem = copy_names(out, cfg);
  if (nomem) {
    set_errbuf(cfg, "output: out of memory");
    release(out);
    *st = COSROD_ERR_NOMEM;
    return NULL;
  }

  cosrod_status os = open_files(out, cfg);
  if (os != COSROD_OK) {
    release(out);
    *st = os;
    return NULL;
  }
  *st = COSROD_OK;
  return out;
}

void cosrod_output_free(cosrod_output *out) {
  if (!out) return;
  if (!out->closed) abandon(out);
  release(out);
}

const char *cosrod_output_error(const cosrod_output *out) { return out ? out->err : ""; }
size_t cosrod_output_frames(const cosrod_output *out) { return out ? out->nframes : 0; }
void cosrod_output_add_warning(cosrod_output *out, const char *text) {
  if (out && text && !out->closed) out_warn(out, "%s", text);
}

size_t cosrod_output_nwarnings(const cosrod_output *out) { return out ? out->nwarn : 0; }
const char *cosrod_output_warning(const cosrod_output *out, size_t i) {
  return out && i < out->nwarn ? out->warnings[i] : "";
}
