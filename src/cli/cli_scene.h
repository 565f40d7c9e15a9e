/* scene.json and view.html next to a run's output files (SPEC §12). */
#ifndef COSROD_CLI_SCENE_H
#define COSROD_CLI_SCENE_H
#include "cosrod/scenario.h"

/* DIR/scene.json: gravity, rod sections, body masses and inertias, joints
 * (what the viewer draws beyond the output files).  0 ok, -1 I/O error. */
int cli_write_scene(const char *dir, const cosrod_scenario *sc);

/* Radius of the section drawn as a tube [m]: circle radius, tube outer
 * radius, rectangle half diagonal, custom: circle of the same area. */

/* DIR/vtk/tubes.py: a ParaView Python state (File > Load State) showing the
 * rods of vtk/cosrod.pvd as tubes of their radius coloured by axial force.
 * 0 ok or no vtk/, -1 I/O error. */
int cli_write_paraview_state(const char *dir);

/* After a run: scene.json, then view.html when the output is at most
 * COSROD_VIEW_AUTO_MAX_BYTES and the viewer is built; a line on stderr
 * otherwise (never fails the run).  quiet: no "view:" line on stdout. */
void cli_write_view_after_run(const char *dir, const cosrod_scenario *sc, int quiet);
#endif
