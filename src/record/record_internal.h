// SPDX-License-Identifier: Apache-2.0
/* The recorder's state (module-internal; see include/cosrod/record.h). */
#ifndef COSROD_RECORD_INTERNAL_H
#define COSROD_RECORD_INTERNAL_H
#include <locale.h>
#include <stdio.h>

#include "cosrod/record.h"
#include "cosrod/sim.h"

/* The files the recorder writes itself (not the output module): joints.csv,
 * contacts.csv, obstacles.csv, contact_forces.csv, vtk/contacts.pvd. */
#define RECORD_NOWN 5

struct cosrod_recorder {
  const cosrod_scenario *sc;
  const cosrod_sim *sim; /* the simulation recorded (contact state after accepted steps) */
  cosrod_output *out;
  size_t nrods;
  const char **names;  /* (nrods) rod names */
  const char **bnames; /* (nbodies) body names */
  double **s_mid;      /* (nrods) segment midpoints (N) */
  double *tips;        /* (3 nrods) tips at the end, for summary.json */
  double *reac;        /* (12 nrods) the last frame's end reactions */
  int *sup;            /* (2 nrods) their ends' support flags */
  int have_reac;       /* reac / sup hold the last frame's */
  double *semi;        /* (7 nbodies) ellipsoid semi-axes and axes of bodies without rods, or NULL */
  cosrod_status out_status;
  FILE *jf;           /* joints.csv while running (DIR/.joints.csv.tmp) */
  int jtab;           /* HDF5 runs: the joints table of run.h5 (instead of jf), else -1 */
  char *jtmp, *jfin;  /* its temporary and final names */
  int *jidx;          /* (njoints) scenario index of each joint */
  double *jR;         /* (6 njoints) reaction wrenches */
  char msg[1024];     /* cosrod_record_end.message */
  char err[512];      /* an error of the recorder's own files (joints.csv) */
  char *dir;          /* the output directory */
  char view_note[1200]; /* cosrod_record_end.view_note */
  double t_out;         /* wall time spent in the observer callbacks [s] (summary.json output_wall_time) */
  FILE *cf, *of;         /* contacts.csv, obstacles.csv while running (record_contact.c) */
  char *ctmp, *cfin, *otmp, *ofin;
  FILE *ff;              /* contact_forces.csv: per-frame totals per obstacle and of rod-rod contact */
  char *ftmp, *ffin;
  double *ftot;          /* (3 (nobstacles + 1)) sum Fn, sum |Ft|, count of the frame */
  /* summary.json "contact" (record_contact_track): largest penetration [m]
   * and / radius, missed pairs */
  double cpen, cpen_r;
  long cmissed;
  int ctracked;
  /* vtk/contacts.pvd (written as vtk/.contacts.pvd.tmp) and one
   * vtk/contacts_<frame>.vtp per output time: contact points with their
   * forces (record_contact.c); NULL without output.vtk */
  FILE *vf;
  char *vtmp, *vfin, *vpath;
  size_t vframe;
  locale_t vloc;
  /* restart checkpoints (record_resume.c) */
  int ck_on;                    /* 1: this run writes DIR/checkpoint.bin */
  int ck_first;                 /* 1: the next frame is a new run's first: a record is due */
  int ck_held;                  /* 1: that first record is held in memory, not yet written */
  double ck_every, ck_wall;     /* simulated / wall seconds between them (0: not used) */
  double ck_next;               /* next simulated time due */
  double ck_last, ck_start;     /* wall clock of the last one and of the start [s] */
  double ck_wall0;              /* wall seconds of the run before a resume */
  char *ck_yaml, *ck_file;      /* canonical scenario text, scenario file name */
  double *ck_sim;               /* (ck_nsim) the simulation's restart data */
  double *ck_rec;               /* the recorder's own numbers of the record (record_resume.c) */
  size_t ck_nsim, ck_npos;
  unsigned char *ck_pos;        /* (ck_npos) the output position */
  char *ck_path, *ck_tmp;       /* DIR/checkpoint.bin and its temporary name */
  double ck_own[RECORD_NOWN];   /* byte lengths of the recorder's own files at the last checkpoint (-1: none) */
};

/* record.c: cosrod_recorder_create, resuming when pos (npos bytes, an
 * output position) is given. */
cosrod_recorder *record_create_impl(cosrod_sim *sim, const char *dir, const char *scenario_file,
                                    double checkpoint_every, const void *pos, size_t npos, const double *own,
                                    cosrod_status *status, char *msg, size_t msglen);
/* record_resume.c: why sim's runs cannot be resumed (NULL: they can); the
 * set-up after the output is open (wall_default: seconds when
 * output.checkpoint is not set; a new run removes an older DIR/checkpoint.bin
 * and takes a record at its first frame); at a frame: a restart checkpoint
 * if due; between frames and at the end: the first record's write when it is
 * due (always: 1, else RECORD_FIRST_DELAY after the start); release. */
const char *record_resume_refusal(const cosrod_scenario *sc, const cosrod_sim *sim);
cosrod_status record_ckpt_setup(cosrod_recorder *r, const char *scenario_file, double wall_default, int resuming);
cosrod_status record_ckpt_frame(cosrod_recorder *r, const cosrod_sim *sim, double t);
cosrod_status record_ckpt_poll(cosrod_recorder *r, int always);
void record_ckpt_free(cosrod_recorder *r);
/* record_resume_own.c: a resume's own files.  Before they are opened: the
 * killed run's temporary files are kept aside (DIR/.NAME.tmp ->
 * DIR/.NAME.tmp.resume); after: each one opened is refilled with the first
 * own[k] bytes of the kept copy (or of the published DIR/NAME of an
 * interrupted run), its rows at the checkpoint.  At a checkpoint: flush and
 * sync them and note their lengths in r->ck_own. */
cosrod_status record_own_stash(const char *dir);
cosrod_status record_own_restore(cosrod_recorder *r, const double *own, char *msg, size_t len);
cosrod_status record_own_mark(cosrod_recorder *r);

/* record_contact.c: open both files when the scenario has contact:; close
 * (keep: rename into place, else remove); free the names. */
cosrod_status record_contact_open(cosrod_recorder *r, const char *dir);
cosrod_status record_contact_close(cosrod_recorder *r, int keep);
void record_contact_free(cosrod_recorder *r);
/* record_mode_bodies.c: modes_bodies.csv (buckling: buckling_bodies.csv)
 * when write and the run has bodies and modes; removes the names this run
 * does not write. */
cosrod_status record_mode_bodies(cosrod_recorder *r, const cosrod_sim *sim, int write, int buckling);
/* After an accepted step, a converged increment or a frame at t: fold the
 * contact state of the last evaluation into the summary; at the end: write
 * summary.json "contact" and the warnings on penetration and tunnelling. */
void record_contact_track(cosrod_recorder *r, const cosrod_sim *sim, double t);
void record_contact_summary(cosrod_recorder *r, const cosrod_sim *sim);

#endif
