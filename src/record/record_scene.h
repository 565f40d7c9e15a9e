// SPDX-License-Identifier: Apache-2.0
/* scene.json, the ParaView state and view.html next to a run's output files
 * (module-internal part of the recorder). */
#ifndef COSROD_RECORD_SCENE_H
#define COSROD_RECORD_SCENE_H
#include <stddef.h>
#include <stdio.h>

#include "cosrod/output.h"
#include "cosrod/scenario.h"

/* f gets s as a JSON string (quotes, \" \\ and \u00XX escapes). */
void record_json_str(FILE *f, const char *s);

/* The radius a rod is drawn with [m]: its section's (cosrod_sc_section_radius);
 * without a section (stiffness values given directly) the display radius
 * 2 sqrt(EI / EA) of the solid circle with the rod's ratio I / A = r^2 / 4,
 * EI = sqrt(EI1 EI2), and *derived = 1 (else 0; derived may be NULL). */
double record_rod_radius(const cosrod_sc_rod *R, int *derived);

/* The rod's section for the VTK files (shape code, half widths along d1 and
 * d2, inner radius, radius_derived). */
void record_rod_section(const cosrod_sc_rod *R, cosrod_output_section *o);

/* DIR/scene.json: gravity, rod sections, body masses and inertias, joints
 * (what the viewer draws beyond the output files).  0 ok, -1 I/O error. */
int record_write_scene(const char *dir, const cosrod_scenario *sc);

/* record_scene_obst.c: scene.json's "obstacles" array (preceded by ",\n")
 * and a body's "shape" member (preceded by ", "; nothing without a shape);
 * the pose of an obstacle at time t (keyframes; else its given pose; velocity
 * and spatial angular velocity from the keyframes), 0 or -1 (no memory). */
void record_scene_obstacles(FILE *f, const cosrod_scenario *sc);
void record_scene_body_shape(FILE *f, const cosrod_scenario *sc, size_t b);
int record_obstacle_pose(const cosrod_sc_obstacle *o, double t, cosrod_pose *pose);

/* DIR/vtk/tubes.py: a ParaView Python state (File > Load State) showing the
 * rods of vtk/cosrod.pvd as tubes of their radius coloured by axial force.
 * 0 ok or no vtk/, -1 I/O error. */
int record_write_paraview_state(const char *dir);

/* After a run: scene.json, vtk/tubes.py, then view.html when the output is at
 * most COSROD_VIEW_AUTO_MAX_BYTES and the viewer is built.  Never fails the
 * run: *written is 1 when view.html was written; note (size n) gets a line
 * for the user: the page's own note, why it was not written, or "". */
void record_write_view(const char *dir, const cosrod_scenario *sc, int *written, char *note, size_t n);
#endif
