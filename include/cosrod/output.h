// SPDX-License-Identifier: Apache-2.0
/* Output directory of a cosrod run: CSV files, VTK/ParaView series,
 * summary.json and gnuplot figures ([manual: command line, output reference]), written crash-safely.
 *
 * Layout of DIR after cosrod_output_close:
 *   summary.json                       run status, statistics, final tips
 *   centerline.csv  t,rod,vertex,s,x,y,z
 *   frames.csv      t,rod,segment,s,q0,q1,q2,q3
 *   strains.csv     t,rod,segment,s,Gamma1,Gamma2,Gamma3,F1,F2,F3
 *   curvatures.csv  t,rod,vertex,s,K1,K2,K3,M1,M2,M3
 *   energy.csv      t,kinetic,elastic,gravity,external_work,dissipated,balance
 *   bodies.csv      t,body,x,y,z,q0,q1,q2,q3,Omega1,Omega2,Omega3
 *   steps.csv       t,h,accepted
 *   increments.csv  t,iterations,residual             (static runs; arc-length runs add
 *                   load_factor,displacement,stability_index,critical)
 *   modes.csv       mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz
 *   buckling.csv    mode,load_factor,rod,vertex,dx,dy,dz,rx,ry,rz  (buckling analyses,
 *                   instead of modes.csv; config.analysis "buckling")
 *   tip.csv         t,rod,end,x,y,z,q0,q1,q2,q3       (both ends of every rod; opt-in)
 *   vtk/rod<k>_<frame>.vtp, vtk/bodies_<frame>.vtp, vtk/cosrod.pvd
 *   vtk/mode_<k>.vtp, vtk/modes.pvd                    (modal and buckling analyses)
 *   plots/tip.png, plots/energy.png, plots/steps.png, plots/centerline.png,
 *   plots/modes.png (modal analyses), plots/buckling.png (buckling analyses),
 *   plots/bodies.png (runs with bodies) (+ the .gp scripts)
 *
 * Crash safety.  Every file is written under a temporary name in its own
 * directory (".centerline.csv.tmp", "vtk/.rod0_000003.vtp.tmp") and renamed to
 * its final name only when complete: CSV files, the .pvd index and
 * summary.json at cosrod_output_close (whatever the run status) or at a
 * checkpoint (a complete copy up to the last finished output time), each .vtp
 * at the end of its output time.  Close truncates the CSV files to the last
 * finished output time, so a run that fails or is interrupted leaves valid
 * files under the final names.  cosrod_output_free without close abandons the
 * run: it deletes its temporary files and leaves the final names as they were
 * (the last checkpoint, or a previous run).  A hard crash leaves only the
 * ".*.tmp" files (the CSV ones hold every finished output time, possibly
 * followed by part of the next); the next cosrod_output_create in the
 * same directory deletes this module's temporary names.  Nothing is
 * written to DIR before cosrod_output_create.  Files not produced by this run
 * (e.g. bodies.csv of an older run) are not removed.
 *
 * Numbers: C locale whatever the process locale; %.15g when that reads back
 * (strtod) to the same double, else %.17g, so every value round-trips.  Non-finite values
 * are written as nan, inf, -inf in CSV and VTK (strtod reads them back;
 * counted and reported as a warning in summary.json) and as null in JSON.
 *
 * summary.json keys: version, title, scenario, analysis, status ("ok",
 * "failed", "interrupted"; "running" in checkpoints), reason (status name or
 * null), message, t_end, t_reached, t_failed, wall_time, outputs, stats
 * {integrator, nfev, njev, nsteps, naccept, nreject, ndecomp, nsolve,
 * nnewton, nstiff, nproject, nfail_rhs, npattern (when > 0), solver_wall_time}, energy
 * {balance_initial, balance_final, balance_max_drift, energy_scale}, rods
 * [{name, segments, tip [x, y, z]}], bodies [{name, position}], last_state
 * {t, h, tips, size, max_abs, nonfinite} (failed/interrupted runs only),
 * contact {contacts_end, max_penetration, max_penetration_radius, missed,
 * dissipated} (runs with contact), files {"centerline.csv": data rows, ...},
 * vtk_frames, warnings [...].
 *
 * Time loop: the writers below allocate no memory themselves (all buffers
 * are sized at create; only the per-output-time .vtp files are fopen'ed).  Writing to a file that the
 * configuration did not enable is a no-op returning COSROD_OK, so a driver can call every writer
 * unconditionally. */
#ifndef COSROD_OUTPUT_H
#define COSROD_OUTPUT_H

#include "cosrod/export.h"

#include <stddef.h>

#include "cosrod/integrate.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* File selection bits for cosrod_output_config.files. */
#define COSROD_OUTPUT_CENTERLINE 0x001u /* centerline.csv */
#define COSROD_OUTPUT_FRAMES 0x002u     /* frames.csv */
#define COSROD_OUTPUT_STRAINS 0x004u    /* strains.csv */
#define COSROD_OUTPUT_CURVATURES 0x008u /* curvatures.csv */
#define COSROD_OUTPUT_ENERGY 0x010u     /* energy.csv */
#define COSROD_OUTPUT_BODIES 0x020u     /* bodies.csv */
#define COSROD_OUTPUT_STEPS 0x040u      /* steps.csv */
#define COSROD_OUTPUT_INCREMENTS 0x080u /* increments.csv */
#define COSROD_OUTPUT_MODES 0x100u      /* modes.csv */
#define COSROD_OUTPUT_REACTIONS 0x200u  /* reactions.csv */
#define COSROD_OUTPUT_TIP 0x400u        /* tip.csv: t,rod,end,x,y,z,q0,q1,q2,q3 (end 0: x_0, p_{1/2};
                                           end 1: x_N, p_{N-1/2}) */
/* Rod files + energy + steps (+ bodies.csv when nbodies > 0). */
#define COSROD_OUTPUT_DEFAULT 0x05fu
#define COSROD_OUTPUT_ALL 0x7ffu

/* Name of the ParaView index in DIR/vtk/, and of the mode shapes' index. */
#define COSROD_OUTPUT_PVD_NAME "cosrod.pvd"
#define COSROD_OUTPUT_MODES_PVD_NAME "modes.pvd"

typedef struct cosrod_output cosrod_output; /* opaque */

/* Section shape codes of cosrod_output_section.shape (VTK field data
 * "section_shape"). */
#define COSROD_OUTPUT_SECTION_CIRCLE 0
#define COSROD_OUTPUT_SECTION_RECTANGLE 1
#define COSROD_OUTPUT_SECTION_TUBE 2

/* A rod's cross-section as the VTK files describe it: shape code, the half
 * widths along the directors d1 and d2 [m] (circle and tube: the outer
 * radius twice; rectangle: width / 2, height / 2), the inner radius of a
 * tube [m] (else 0) and radius_derived = 1 when the scenario gives no
 * section and the radius is a display radius derived from the stiffnesses
 * (2 sqrt(EI / EA), see the manual's output reference). */
typedef struct cosrod_output_section {
  int shape;
  double half_width[2];
  double inner_radius;
  int radius_derived;
} cosrod_output_section;

typedef struct cosrod_output_config {
  unsigned files;                /* COSROD_OUTPUT_* bits; 0 = COSROD_OUTPUT_DEFAULT */
  int vtk;                       /* 1: write vtk/ (default 1) */
  int plots;                     /* 1: run gnuplot at close and write plots/ (default 1) */
  size_t nrods;                  /* number of rods (may be 0) */
  const char *const *rod_names;  /* (nrods) or NULL: "rod0", "rod1", ... */
  size_t nbodies;                /* number of rigid bodies (may be 0) */
  const char *const *body_names; /* (nbodies) or NULL: "body0", ... */
  const double *body_semi_axes;  /* (nbodies x 3) [m] or NULL: ellipsoid drawn per body in the VTK files
                                    (e.g. cosrod_mbs_body_ellipsoid); NULL: centres only */
  const double *body_axes;       /* (nbodies x 4) or NULL (identity): unit quaternion of the ellipsoid's
                                    axes in the body frame */
  const char *title;             /* scenario title for summary.json (NULL = "") */
  const char *scenario_file;     /* scenario file name for summary.json (NULL = omitted) */
  const char *analysis;          /* "dynamic" (default) or "static" */
  const char *integrator;        /* integrator name for summary.json (NULL = omitted) */
  double t_end;                  /* requested end time [s] (static: 1) */
  double checkpoint_every;       /* wall-clock seconds between automatic checkpoints; 0 = none */
  const char *gnuplot;           /* gnuplot command (NULL = "gnuplot", searched in PATH) */
  const double *rod_radius;      /* (nrods) [m] or NULL: section radius (rectangle: half diagonal) written
                                    as VTK point data "radius" (ParaView Tube: Vary Radius By Absolute Scalar) */
  const cosrod_output_section *rod_sections; /* (nrods) or NULL: each rod's section shape written as VTK
                                    point data (section_half_widths, section_inner_radius, section_d1) and
                                    field data (section_shape, radius_derived), see cosrod_output_section */
  int format;                    /* COSROD_OUTPUT_FORMAT_CSV (default) or _HDF5: the tables go to DIR/run.h5
                                    and, with vtk, the rods to DIR/vtk/cosrod.vtkhdf (see below) */
  const char *scenario_text;     /* the scenario as YAML, stored in run.h5 (attribute "scenario"), or NULL */
  int arc_length;                /* 1: a static arc-length run: increments.csv has the columns
                                    t,iterations,residual,load_factor,displacement,stability_index,critical
                                    (cosrod_output_write_increment_arc) and summary.json "critical_points" */
  const void *resume;            /* NULL, or a position of cosrod_output_position (resume_size bytes): continue
                                    that run in DIR (see cosrod_output_position) */
  size_t resume_size;
} cosrod_output_config;

/* Output formats (cosrod_output_config.format; scenario key output.format).
 * HDF5: DIR/run.h5 holds every table the CSV path writes as a 2-D float64
 * dataset named like the CSV file without ".csv" (rows x the CSV's columns,
 * indices as exact doubles; attributes "columns", "units"), root attributes
 * format = "cosrod-hdf5", format_version, title, analysis, scenario and (at
 * close) summary; no CSV tables and no plots/ (gnuplot reads CSV).  With vtk
 * the rods go to DIR/vtk/cosrod.vtkhdf (VTKHDF UnstructuredGrid time series,
 * output_vtkhdf.c) instead of the rod .vtp files; bodies stay .vtp.  run.h5
 * is written in place: buffered rows reach the file at checkpoints, when a
 * buffer is full and at close; from the first checkpoint on in SWMR mode, so
 * a killed run leaves it readable (h5py: swmr=True) up to the last write. */
#define COSROD_OUTPUT_FORMAT_CSV 0
#define COSROD_OUTPUT_FORMAT_HDF5 1

/* 1 if this build can write HDF5 (built with it and the library loads). */
COSROD_API int cosrod_output_hdf5_available(void);

/* Defaults: files 0 (= DEFAULT), vtk 1, plots 1, no rods/bodies, t_end 0. */
COSROD_API cosrod_output_config cosrod_output_default_config(void);

/* Create DIR (with parents), DIR/vtk and DIR/plots as enabled, open the
 * temporary files and write the CSV headers.  Returns NULL and *st != OK on
 * failure (ERR_IO, the message naming the path; ERR_INVALID; ERR_NOMEM) with
 * the one-line cosrod_last_error() (status.h); temporary files created
 * before the failure are removed. */
COSROD_API cosrod_output *cosrod_output_create(const char *dir, const cosrod_output_config *cfg, cosrod_status *st);

/* Abandon (if not closed) and release.  NULL is a no-op.  See the header
 * comment: temporary files are deleted, final names are left alone. */
COSROD_API void cosrod_output_free(cosrod_output *out);

/* Message of the last error of `out` ("" when none). */
COSROD_API const char *cosrod_output_error(const cosrod_output *out);

/* ---- per output time ------------------------------------------------------
 * An output time is framed by begin/end; t must increase strictly from frame
 * to frame.  Within a frame every rod and every body must be written exactly
 * once (any order) and energy at most once.  frame_end commits the rows of
 * all files together (and renames the frame's .vtp files into place); if a
 * rod or body is missing it returns ERR_INVALID and discards the frame. */
COSROD_API cosrod_status cosrod_output_frame_begin(cosrod_output *out, double t);
COSROD_API cosrod_status cosrod_output_frame_end(cosrod_output *out);

/* One rod at the current output time.  All arrays are required.  Rows go to
 * centerline.csv (N+1 vertices), frames.csv and strains.csv (N segments),
 * curvatures.csv (N+1 vertices); a .vtp file if vtk is on. */
typedef struct cosrod_output_rod_frame {
  size_t n;                 /* N, number of segments (>= 1; same for every frame of the rod) */
  const double *s_vertices; /* (N+1) arc length of the vertices [m] */
  const double *x;          /* (N+1, 3) centerline x_n, spatial [m] */
  const double *s_segments; /* (N) arc length of the segment midpoints [m] */
  const double *p;          /* (N, 4) quaternions p_{n-1/2}, scalar first (directors from p/|p|) */
  const double *gamma;      /* (N, 3) strains Gamma, material [-] */
  const double *F;          /* (N, 3) stress resultants F, material [N] */
  const double *K;          /* (N+1, 3) curvatures K, material [1/m] */
  const double *M;          /* (N+1, 3) stress couples M, material [N m] */
} cosrod_output_rod_frame;
COSROD_API cosrod_status cosrod_output_write_rod(cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr);

/* One rigid body at the current output time: position x (3) [m], orientation
 * q (4, scalar first), material angular velocity Omega (3) [1/s], velocity
 * v (3, spatial) [m/s], kinetic and potential (gravity) energy [J]. */
COSROD_API cosrod_status cosrod_output_write_body(cosrod_output *out, size_t body, const double x[3], const double q[4],
                                                  const double Omega[3], const double v[3], double kinetic, double potential);

/* Energy terms [J] at the current output time; the balance column is
 * kinetic + elastic + gravity + dissipated - external_work ([manual: command line, output reference]). */
typedef struct cosrod_output_energy {
  double kinetic, elastic, gravity; /* current values */
  double external_work;             /* work done by external loads on [t0, t] */
  double dissipated;                /* energy dissipated by damping on [t0, t] */
} cosrod_output_energy;
COSROD_API cosrod_status cosrod_output_write_energy(cosrod_output *out, const cosrod_output_energy *e);

/* ---- independent streams (no frame needed) ------------------------------- */

/* Step-size history: step [t, t+h] attempted at t, accepted (1) or rejected (0). */
COSROD_API cosrod_status cosrod_output_write_step(cosrod_output *out, double t, double h, int accepted);

/* Static analysis: pseudo-time increment reaching t in `iterations` Newton
 * iterations with final residual norm `residual`. */
COSROD_API cosrod_status cosrod_output_write_increment(cosrod_output *out, double t, long iterations, double residual);
/* reactions.csv row (inside a frame): the force F (N) and moment M (N m),
 * spatial, that the support of end `end` (0 start, 1 end) of rod `rod`
 * exerts on the rod. */
COSROD_API cosrod_status cosrod_output_write_reaction(cosrod_output *out, size_t rod, int end, const double F[3],
                                                      const double M[3]);

/* One row of modes.csv: mode number, frequency [Hz], omega [1/s], rod and
 * vertex, displacement dx (3) [m] and rotation rx (3) [rad] of the mode shape. */
COSROD_API cosrod_status cosrod_output_write_mode(cosrod_output *out, int mode, double frequency_hz, double omega,
                                                  size_t rod, size_t vertex, const double dx[3], const double rx[3]);

/* Modal analysis results of one rod, all at once (after the run; this
 * allocates): the rows of modes.csv (as cosrod_output_write_mode), with vtk
 * the ParaView files vtk/mode_<k>.vtp (k = 001 ... count: the centerline x
 * as points, PointData s, displacement (dx, dy, dz) [m] and rotation (rx,
 * ry, rz) [rad] of the mode shape, FieldData mode, frequency_hz, omega,
 * warp_scale, rod) and vtk/modes.pvd (timestep = mode number, attributes
 * frequency_hz and omega), and with plots plots/modes.png at close.  Call at
 * most once.  The shapes are as given (cosrod_statics_modes: mass-normalised,
 * so warp_scale suggests a Warp By Vector factor: 0.1 L / max |d|). */
typedef struct cosrod_output_modes {
  size_t rod;            /* rod index */
  size_t n;              /* N, segments of the rod */
  const double *s;       /* (N+1) arc length of the vertices [m] */
  const double *x;       /* (N+1, 3) centerline about which the rod was linearised [m] */
  int count;             /* number of modes */
  const double *freq_hz; /* (count) [Hz] */
  const double *omega;   /* (count) [rad/s] (negative: unstable direction) */
  const double *shapes;  /* (count x (N+1) x 6) per mode and vertex dx, dy, dz, rx, ry, rz */
  const char *const *type; /* (count) mode types ("bending-1", ...) or NULL; summary.json "modes" */
  const int *group;        /* (count) degenerate group (0-based) or NULL; summary.json "modes" */
  /* Several rods (optional; mode_rod NULL: every mode is of `rod`, with n, s, x
   * above): the rod of each mode and the geometry of every rod of the output,
   * shapes with `stride` doubles per mode (>= (N_r + 1) x 6 of its rod). */
  const size_t *mode_rod;     /* (count) */
  const size_t *rod_n;        /* (nrods) N_r */
  const double *const *rod_s; /* (nrods) each (N_r+1) */
  const double *const *rod_x; /* (nrods) each (N_r+1, 3) */
  size_t stride;
  /* The other rods' parts of a mode of coupled rods (optional, with
   * mode_rod): rod_shapes[k nrods + r] is rod r's part of mode k ((N_r+1) x 6)
   * or NULL (the rod does not move in mode k); modes.csv / buckling.csv get
   * rows for mode_rod[k] and for every rod r != mode_rod[k] with an entry. */
  const double *const *rod_shapes;
  /* Buckling analyses (config.analysis "buckling"): the critical load factors
   * (count), written instead of freq_hz / omega (which may then be NULL) into
   * buckling.csv, the .vtp FieldData / .pvd attributes (load_factor),
   * summary.json "buckling" and plots/buckling.png. */
  const double *load_factor;
} cosrod_output_modes;
COSROD_API cosrod_status cosrod_output_write_modes(cosrod_output *out, const cosrod_output_modes *m);

/* Publish complete copies of all files written so far (up to the last
 * finished output time) under their final names, with summary.json status
 * "running".  Costs one copy of the CSV files; also called automatically at
 * frame_end every cfg.checkpoint_every wall-clock seconds. */
COSROD_API cosrod_status cosrod_output_checkpoint(cosrod_output *out);

/* Resuming.  The position of the output right after cosrod_output_checkpoint
 * (outside a frame): data rows of every stream, frames written (the next VTK
 * frame index), the last output time and the summaries kept over the frames,
 * (HDF5: the rows of every dataset), as bytes (layout private, versioned).
 * Returns the size; writes it to buf if cap is large enough.  cosrod_output_create with
 * cfg.resume = that position (same configuration) continues the run in the
 * same DIR: every file is started from its final name cut to the
 * position's rows (later rows, e.g. of a later checkpoint of a killed run,
 * are dropped), so the continued files hold neither duplicate nor missing
 * rows; a file shorter than its rows fails (ERR_IO, naming it).  HDF5:
 * new files are written under temporary names, the datasets' rows copied
 * from DIR's files and the new files renamed over them at the first
 * checkpoint or at close (a kill before leaves DIR's files as they were);
 * extra tables (cosrod_output_add_table) are copied when the caller adds
 * them again, before the first checkpoint. */
COSROD_API size_t cosrod_output_position(const cosrod_output *out, void *buf, size_t cap);

/* Checkpoint if cfg.checkpoint_every wall-clock seconds have passed since
 * the last one (or since create), also between output times: call it often
 * (e.g. after every step; it costs one clock read) so that a run stuck
 * between output times still publishes its files.  OK if nothing was due. */
COSROD_API cosrod_status cosrod_output_checkpoint_poll(cosrod_output *out);

/* Static arc-length runs (cfg.arc_length): one increments.csv row per
 * converged step: t the normalised arc length (the run's pseudo-time),
 * Newton iterations, scaled residual, load factor λ, displacement of the
 * monitored vertex [m], stability index of the stiffness (number of negative
 * eigenvalues, or the parity of det K for non-conservative loads; -1
 * singular), critical (0 none, 1 limit point, 2 bifurcation point inside
 * the step ending here). */
COSROD_API cosrod_status cosrod_output_write_increment_arc(cosrod_output *out, double t, long iterations, double residual,
                                                           double load_factor, double displacement, int stability_index,
                                                           int critical);
/* Record a critical point for summary.json "critical_points" (type "limit"
 * or "bifurcation", pseudo-time, load factor, displacement [m]); at most 64
 * are kept (a warning notes the rest). */
COSROD_API void cosrod_output_add_critical_point(cosrod_output *out, const char *type, double t, double load_factor,
                                                 double displacement);

/* ---- finishing ------------------------------------------------------------ */

typedef enum cosrod_output_run {
  COSROD_RUN_OK = 0,      /* "ok" */
  COSROD_RUN_FAILED,      /* "failed": solver or model failure */
  COSROD_RUN_INTERRUPTED, /* "interrupted": SIGINT or user stop */
  COSROD_RUN_RUNNING      /* "running" (checkpoints only; not valid for close) */
} cosrod_output_run;

typedef struct cosrod_output_result {
  cosrod_output_run run;               /* final run status */
  cosrod_status code;                  /* status that ended the run (COSROD_OK on success) */
  const char *message;                 /* reason in words (NULL = cosrod_strerror(code) if failed) */
  double t_reached;                    /* last accepted time [s] (NaN = time of the last frame) */
  double t_failed;                     /* time where the failure happened (NaN = unknown) */
  double h_last;                       /* last step size [s] (NaN = unknown) */
  double wall_time;                    /* [s]; <= 0 or NaN: measured from create to close */
  const cosrod_integrate_stats *stats; /* solver counters (NULL = omitted) */
  const double *last_tips;             /* (nrods, 3) tips at t_reached, or NULL (= last frame) */
  const double *last_state;            /* optional state vector at t_reached ... */
  size_t nlast_state;                  /* ... and its length: max |y_i| and #non-finite reported */
  double output_wall_time;             /* [s] spent recording frames/steps (NaN = not measured) */
} cosrod_output_result;

/* run OK, code OK, everything else unknown (NaN/NULL). */
COSROD_API cosrod_output_result cosrod_output_default_result(void);

/* Finish the run: discard an unfinished frame, truncate and rename the CSV
 * files, finish and rename the .pvd, run gnuplot (a missing or failing
 * gnuplot is a warning in summary.json, not an error), write summary.json.
 * res NULL = success.  Returns OK, or ERR_IO if some file could not be
 * written (that file's final name is left untouched; message in
 * cosrod_output_error and in summary.json "warnings").  Call once; then free. */
COSROD_API cosrod_status cosrod_output_close(cosrod_output *out, const cosrod_output_result *res);

/* HDF5 runs: an extra table of the caller in run.h5 (e.g. the recorder's
 * joints), created before the first output time (a resumed output: before
 * its first checkpoint, in the order of the killed run): name, CSV-style columns
 * ("t,joint,Fx,...") and units (or NULL).  Returns its id, or -1 (CSV runs,
 * too late, too many).  table_row appends one row of as many doubles as
 * columns; rows written inside a frame are committed with it. */
COSROD_API int cosrod_output_add_table(cosrod_output *out, const char *name, const char *columns, const char *units);
COSROD_API cosrod_status cosrod_output_table_row(cosrod_output *out, int table, const double *row);

/* Number of finished output times so far. */
COSROD_API size_t cosrod_output_frames(const cosrod_output *out);

/* Record a warning of the caller (e.g. the simulation's monitor): it goes
 * to summary.json "warnings" (duplicates dropped).  Call before close. */
COSROD_API void cosrod_output_add_warning(cosrod_output *out, const char *text);

/* summary.json "solver": the time integrator in use (`chosen`: the method,
 * "statics" for static analyses), one line why (`reason`) and the switches
 * of `solver.integrator: auto` during the run (nswitch lines).  Call before close. */
COSROD_API void cosrod_output_set_solver(cosrod_output *out, const char *chosen, const char *reason, size_t nswitch,
                                         const char *const *switches);

/* Number of warnings recorded so far and the i-th one. */
COSROD_API size_t cosrod_output_nwarnings(const cosrod_output *out);
COSROD_API const char *cosrod_output_warning(const cosrod_output *out, size_t i);

/* ---- contact rows (output_contact.c) ---------------------------------------
 * One row of contacts.csv / obstacles.csv ([manual: output reference]) into
 * buf[cap] with the format of every other CSV of a run (shortest text that
 * reads back exactly, C locale of out; out may be NULL: the caller's
 * locale), ending in a newline.  Returns the row's length, or -1 when it
 * does not fit or a name is empty or holds a comma, quote or line break.
 * The caller (the recorder) owns the files. */
typedef struct cosrod_output_contact {
  int rod, segment;
  const char *other; /* obstacle or body name, or "rod:segment" of the other rod */
  double point[3];   /* on the rod's axis [m] */
  double normal[3];  /* from the other towards the rod */
  double gap;        /* distance - radii [m] */
  double fn;         /* normal force [N] */
  double ft[3];      /* friction force on the rod [N] */
  int slip;          /* 0 stick, 1 slip */
} cosrod_output_contact;
#define COSROD_OUTPUT_CONTACTS_HEADER "t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state\n"
#define COSROD_OUTPUT_OBSTACLES_HEADER "t,obstacle,Fx,Fy,Fz,Mx,My,Mz\n"
COSROD_API int cosrod_output_contact_row(const cosrod_output *out, char *buf, size_t cap, double t,
                                         const cosrod_output_contact *c);
/* summary.json "contact" (omitted unless set): contacts of the last state,
 * the largest penetration over the run [m] and as a fraction of the radius,
 * the most segment-obstacle pairs of one evaluation that penetrate between
 * their Gauss points (thin features, tunnelling), and the
 * energy dissipated by contact damping and friction [J]. */
typedef struct cosrod_output_contact_summary {
  long contacts_end;
  double max_penetration, max_penetration_radius;
  long missed;
  double dissipated;
} cosrod_output_contact_summary;
COSROD_API void cosrod_output_set_contact_summary(cosrod_output *out, const cosrod_output_contact_summary *s);
/* One number as every CSV of the output module writes it ("%.15g" when it
 * reads back exactly, else "%.17g"; nan, inf, -inf), C locale, into buf of
 * at least 32 bytes; returns the length. */
COSROD_API int cosrod_output_format_number(char *buf, double v);
/* t, obstacle name, resultant force F [N] and moment M [N m] on it. */
COSROD_API int cosrod_output_obstacle_row(const cosrod_output *out, char *buf, size_t cap, double t, const char *name,
                                          const double F[3], const double M[3]);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_OUTPUT_H */
