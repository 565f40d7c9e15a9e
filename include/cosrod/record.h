// SPDX-License-Identifier: Apache-2.0
#ifndef COSROD_RECORD_H
#define COSROD_RECORD_H
/* The recorder: a running or finished simulation -> every output file of a
 * run ([manual: command line, output reference]): summary.json, centerline / frames / strains / curvatures /
 * energy / steps / tip / reactions / bodies / joints / increments / modes /
 * buckling CSV, VTK and plots, chosen by the scenario's output.* keys and
 * analysis type.  The CLI (`cosrod run`) and the Python package
 * (`Sim.run(output=DIR)`) write their files through it, so both write the
 * same files.  Layer: above sim (reads the simulation) and output (the file
 * formats).
 *
 *   cosrod_recorder *r = cosrod_recorder_create(sim, dir, file, 0, &st);
 *   cosrod_sim_observer obs = cosrod_recorder_observer(r, NULL);
 *   cosrod_status run = cosrod_sim_run(sim, &obs);
 *   cosrod_record_end end;
 *   cosrod_recorder_finish(r, sim, run, wall, NULL, &end);
 *   cosrod_recorder_free(r);
 */
#include "cosrod/export.h"
#include <signal.h>
#include <stddef.h>

#include "cosrod/contact.h"
#include "cosrod/output.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cosrod_recorder cosrod_recorder; /* opaque */

/* Opens (creates) DIR for the outputs of sim's scenario.  scenario_file: the
 * path named in summary.json (may be NULL).  checkpoint_every: wall seconds
 * between publications of complete files during a run (<= 0: 30 s).  When
 * output.fields leaves out the energy, the simulation's dissipation / work
 * quadrature is switched off (so call before cosrod_sim_run).  NULL on
 * failure: *status (may be NULL) and the one-line cosrod_last_error(). */
COSROD_API cosrod_recorder *cosrod_recorder_create(cosrod_sim *sim, const char *dir, const char *scenario_file,
                                                   double checkpoint_every, cosrod_status *status);
COSROD_API void cosrod_recorder_free(cosrod_recorder *r);

/* The three hooks of a run; each returns 0, or -1 after an output error
 * (then cosrod_recorder_error says which).  frame: one output time (rods,
 * reactions, bodies, joints, energy); step: one attempted step (steps.csv);
 * increment: one static increment (increments.csv, arc-length columns). */
COSROD_API int cosrod_recorder_frame(cosrod_recorder *r, const cosrod_sim *sim, double t);
COSROD_API int cosrod_recorder_step(cosrod_recorder *r, double t, double h, int accepted);
COSROD_API int cosrod_recorder_increment(cosrod_recorder *r, const cosrod_sim *sim, double t, long iterations,
                              double residual);

/* The end reactions of rod `rod` written with the last frame (reactions.csv:
 * R = F, M of the start, F, M of the end; supported[e] 0: end e is free).
 * Evaluating them again through cosrod_sim_reactions would repeat the
 * statics residual; a caller that also keeps them takes these.
 * ERR_INVALID before the first frame or for a bad index. */
COSROD_API cosrod_status cosrod_recorder_reactions(const cosrod_recorder *r, size_t rod, double R[12], int supported[2]);

/* contacts.csv and obstacles.csv rows of one output time from a contact
 * evaluation ([manual: contact]; files open when the scenario has `contact:`, else a
 * no-op).  The contact model's rods and obstacles are the scenario's, in its
 * order (obstacles, then body shapes).  ref: (3 x nobstacles) moment
 * reference points of obstacles.csv, spatial (a body shape's: the body's
 * centre of mass), or NULL: the obstacles' pose origins.  0, or -1 after an
 * output error. */
COSROD_API int cosrod_recorder_contacts(cosrod_recorder *r, double t, const cosrod_contact_data *data,
                                        const double *ref);

/* An observer that only records (stop: polled after every step, may be NULL). */
COSROD_API cosrod_sim_observer cosrod_recorder_observer(cosrod_recorder *r, const volatile sig_atomic_t *stop);

/* Outcome of a recorded run as summary.json states it. */
typedef struct cosrod_record_end {
  cosrod_output_run run; /* ok / failed / interrupted */
  cosrod_status status;  /* the run's status after the last files (modes) were written */
  const char *message;   /* why it failed or stopped ("" when ok); valid until free */
  double t_failed;       /* NAN unless the solver failed at a time */
  int view_written;      /* 1: DIR/view.html was written (with scene.json and vtk/tubes.py) */
  const char *view_note; /* the page's note, or why it was not written, or ""; valid until free */
} cosrod_record_end;

/* After the run (run_status: what cosrod_sim_run returned; wall_time: its
 * wall seconds; interrupted_by: e.g. "SIGINT" when the user stopped it, else
 * NULL): writes modes / buckling shapes, critical points, warnings and
 * summary.json and closes every file; then scene.json, vtk/tubes.py and the
 * browser page view.html (cosrod/view.h; never a reason to fail the run).  Returns the status of closing the
 * files (COSROD_OK when every file is in place); *end says how the run ended. */
COSROD_API cosrod_status cosrod_recorder_finish(cosrod_recorder *r, const cosrod_sim *sim, cosrod_status run_status,
                                     double wall_time, const char *interrupted_by, cosrod_record_end *end);

/* ---- restart checkpoints and resume (record_resume.c) ----------------------
 * A dynamic run (CSV or HDF5 output) writes DIR/checkpoint.bin at output times
 * (output.checkpoint: `every` simulated seconds and / or `wall` seconds;
 * neither: every checkpoint_every wall seconds as the file checkpoints),
 * after publishing the files: atomically (temporary file, fsync, rename),
 * holding digests of the scenario (canonical YAML, --set overrides
 * included, output.dir and output.checkpoint left out) and of the cosrod
 * version, the scenario text and file name, the simulation's restart data
 * (cosrod_sim_restart_save), the output position (cosrod_output_position)
 * and the next checkpoint time; a new run writes one at its first frame and
 * cosrod_recorder_finish of a run that ends ok removes it.  The recorder's
 * own files (joints.csv, contacts.csv, obstacles.csv, contact_forces.csv,
 * vtk/contacts.pvd) are synced at each checkpoint and their lengths and the
 * contact summary kept in the record.  Not written (and not resumable):
 * static / modal analyses.
 *
 * checkpoint_scenario: the stored scenario of DIR's checkpoint (its YAML
 * text and the original file name, both malloc'ed; free them), e.g. to
 * build the simulation to resume.  ERR_INVALID with one line in msg: no or
 * a damaged checkpoint, another cosrod version or record layout.
 * resume: instead of cosrod_recorder_create for a new simulation `sim` of the
 * same scenario (before cosrod_sim_run): checks the checkpoint against sim's
 * scenario, loads the restart data into sim (cosrod_sim_restart_load) and
 * reopens DIR's files cut to the checkpoint's rows; cosrod_sim_run then
 * continues from the checkpoint's time and the files are appended without
 * duplicate or missing rows.  NULL with *status ERR_INVALID and one line in
 * cosrod_last_error() when refused: the scenario changed (naming the first changed key and
 * both values), the run finished (summary.json status ok), no checkpoint,
 * a scenario kind that cannot be resumed (above); ERR_IO when a file is
 * shorter than the checkpoint says. */
COSROD_API cosrod_status cosrod_recorder_checkpoint_scenario(const char *dir, char **yaml, char **file, char *msg,
                                                             size_t msglen);
COSROD_API cosrod_recorder *cosrod_recorder_resume(cosrod_sim *sim, const char *dir, double checkpoint_every,
                                                   cosrod_status *status);

/* The last output error ("" if none). */
COSROD_API const char *cosrod_recorder_error(const cosrod_recorder *r);

#ifdef __cplusplus
}
#endif
#endif
