/* The `cosrod` command-line program (SPEC §8): run, check, help, --version,
 * selfcheck.  Exit status: 0 success, 1 the run failed (solver failure, I/O
 * error; the files stay valid), 2 invalid input, 128 + signal when interrupted
 * (130 SIGINT, 143 SIGTERM, 129 SIGHUP). */
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/status.h"
#include "cosrod/version.h"

int cosrod_cmd_check(int argc, char **argv); /* cmd_check.c */
int cosrod_cmd_run(int argc, char **argv);   /* cmd_run.c */
int cosrod_cmd_view(int argc, char **argv);  /* cmd_view.c */
int cosrod_cmd_sweep(int argc, char **argv); /* cmd_sweep.c */

/* Rigid bodies and joints ([L]; README "Rigid bodies and joints"). */
static void usage_bodies(FILE *f) {
  fprintf(f,
          "\n"
          "rigid bodies and joints ([L]; README \"Rigid bodies and joints\"):\n"
          "  bodies: [{name, mass, inertia: [I1, I2, I3] (principal, about the centre of mass),\n"
          "           position, orientation ({quaternion: [...]} | {euler313: [...]}),\n"
          "           velocity, angular_velocity (body frame), parametrisation, loads: [...]}]\n"
          "  parametrisation: quaternion ([L] eq. 40 / 42) | directors (eq. 23 / 25,\n"
          "           Spurrier-Klumpp projection) | euler-angles (eq. 66; gimbal lock stops the\n"
          "           run naming the body and the time)\n"
          "  joints: [{type, bodies: [a, b | ground], at: [[..], [..]], axis, axis2}]\n"
          "           spherical (3 constraints) | revolute (5) | prismatic (5) | cylindrical (4)\n"
          "           | universal (4) | planar (3) | fixed (6); bushing (spring-damper,\n"
          "           stiffness, damping, stiffness_rot, damping_rot)\n"
          "  solver.formulation: nullspace (null-space bodies and joints, velocity constraints\n"
          "           at round-off) | absolute (index-0 [L] eq. 40 / 23, joints by multipliers,\n"
          "           closed loops; stabilisation: baumgarte uses solver.baumgarte)\n"
          "  implicit integrators get the analytic Jacobian of bodies, joints and bushings\n"
          "  solver.linear_solver: auto | band | sparse  (rods attached to bodies: sparse = KLU\n"
          "           on the coupled pattern, implicit methods; auto = sparse when the coupled\n"
          "           band grows with the rods, e.g. one body on several rods; check shows it)\n"
          "  vtk/bodies_<frame>.vtp: centre, body frame axes and the inertia ellipsoid\n"
          "           (uniform solid ellipsoid of the same mass and inertias) of each body;\n"
          "           plots/bodies.png: x, y, z of every body vs t and 3D trajectories\n");
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: cosrod COMMAND [ARGS]\n"
          "\n"
          "commands:\n"
          "  run FILE [-o DIR] [--set key.path=value]... [--quiet]\n"
          "                run a scenario; results in DIR (default: output.dir of the file)\n"
          "  check FILE [--set key.path=value]... [--memory-limit SIZE]\n"
          "                validate a scenario file exactly as run does before integrating\n"
          "                and print the estimated memory and output volume\n"
          "  view DIR [--open]\n"
          "                write DIR/view.html, a self-contained 3D viewer of the run (browser;\n"
          "                runs write it by default); --open starts the browser on it\n"
          "  help          this text\n"
          "  selfcheck     check quaternion identities numerically and print their errors\n"
          "  --version     print the version\n"
          "\n"
          "options of run:\n"
          "  -o DIR        output directory (overrides output.dir)\n"
          "  --set k.p=v   override any key before validation, e.g. --set rods.0.segments=20\n"
          "  --quiet, -q   print nothing but errors (no summary, no progress bar)\n"
          "  --memory-limit SIZE  refuse (exit 2) a run whose memory estimate exceeds SIZE\n"
          "                (e.g. 4G, 512M; default: the available memory, /proc/meminfo)\n"
          "  --help, -h    the options of run\n"
          "\n"
          "A progress bar (simulated time, steps, step size, ETA) is drawn on stderr\n"
          "when it is a terminal and the run takes longer than a second.\n"
          "Ctrl-C stops a run cleanly: the files written so far stay valid and\n"
          "summary.json says \"interrupted\"; a second Ctrl-C kills the process.\n"
          "\n"
          "exit status:\n"
          "  0    success\n"
          "  1    the run failed (solver failure or output error); the files stay valid\n"
          "       and summary.json gives the reason, the time and the last state\n"
          "  2    invalid input: one line FILE:LINE: key: problem; nothing is written\n"
          "  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM (timeout, batch\n"
          "       schedulers), 129 by SIGHUP (terminal closed); files stay valid,\n"
          "       summary.json says \"interrupted\"\n"
          "\n");
  fprintf(f,
          "design studies (README \"Design studies\"; cosrod sweep --help):\n"
          "  sweep FILE --param KEY=V1,V2,... --param KEY=START:STOP:COUNT [--zip]\n"
          "        [--samples FILE.csv] [--set k.p=v]... [--jobs N] [--scheduler ADDRESS]\n"
          "        [--timeout S] [--plot] [--quiet] -o DIR\n"
          "                one `cosrod run` per parameter combination (all cores, or a Dask\n"
          "                cluster); DIR/sweep.csv: parameters, status, metrics, message,\n"
          "                run folder DIR/runs/<hash>; rerunning resumes (complete runs are\n"
          "                reused); exit 0 all ok, 1 some runs failed or invalid, 130 Ctrl-C\n"
          "\n");
  fprintf(f,
          "output files: summary.json, centerline.csv, frames.csv, strains.csv,\n"
          "curvatures.csv, energy.csv, steps.csv, reactions.csv (t,rod,end,Fx..Mz: force and\n"
          "moment each supported end exerts on the rod, spatial), vtk/cosrod.pvd (ParaView), plots/*.png\n"
          "(tip, energy, steps, centerline at up to 6 output times, reactions);\n"
          "static analyses (analysis: {type: static, increments: K, gravity: ramp|constant}):\n"
          "the pseudo-time t runs over [0, 1]; loads follow their own profiles at t,\n"
          "prescribed ends their keyframes at t, and gravity is scaled by t (ramped\n"
          "from 0 at t = 0; gravity: constant applies it fully from t = 0);\n"
          "increments.csv has every converged increment, the other\n"
          "files hold t = 0 and the output pseudo-times every, 2 every, ..., 1\n"
          "(output.every, default 1/increments; times inside an increment are landed on\n"
          "by a separate solve, the increments stay as they are);\n"
          "control: arc-length: loads and gravity times a load factor (an unknown), the\n"
          "path followed through limit points up to factor 1; t is the arc length of the\n"
          "path, increments.csv adds load_factor,displacement,stability_index,critical\n"
          "(1 limit, 2 bifurcation point in the step) and summary.json critical_points;\n"
          "switch_branch: true leaves the path at its first bifurcation point along the mode;\n"
          "path: keyframes: t is the keyframe time of the prescribed ends and of the bodies\n"
          "driven by motion keyframes (to the last keyframe), gravity and loads at full\n"
          "value, reactions.csv along the route;\n"
          "modal analyses (analysis: {type: modes, count: k}, k distinct frequencies, a\n"
          "degenerate pair counted once): summary.json lists every mode with frequency,\n"
          "type (bending-1, bending-2, torsion, axial) and group;\n"
          "modes.csv, vtk/modes.pvd + vtk/mode_<k>.vtp (displacement and\n"
          "rotation as point data, frequency as field data: Warp By Vector), plots/modes.png\n"
          "buckling analyses (analysis: {type: buckling, count: k}): the k smallest\n"
          "critical load factors of the loads at t = 1 (all loads, gravity included, scaled\n"
          "together; unit loads give the critical loads), about the unloaded equilibrium,\n"
          "refined to where K along the prebuckling path turns singular; 0 = a mechanism\n"
          "the loads destabilise; buckling.csv (mode,load_factor,rod,vertex,dx..rz),\n"
          "summary.json \"buckling\", vtk/modes.pvd + mode_<k>.vtp, plots/buckling.png;\n"
          "static (also arc-length and keyframe paths: one load factor, every rod's\n"
          "keyframes), modal and buckling analyses take several (independent) rods, each\n"
          "mode reported with its rod\n");
  fprintf(f,
          "rigid bodies (bodies:, joints: of [L]; alone or with rods attached): bodies.csv\n"
          "(t,body,x,y,z,q0..q3,Omega1..3,vx,vy,vz,kinetic,potential), joints.csv (t,joint,Fx..Mz: reaction\n"
          "on the joint's first body), energy.csv (bushings elastic / dissipated), steps.csv,\n"
          "vtk/bodies_<frame>.vtp; parametrisation quaternion | directors | euler-angles,\n"
          "solver.formulation nullspace (null-space joints) | absolute ([L] eq. 40/23, multipliers).\n"
          "rods attached to bodies: ends.start|end: {type: clamped|pinned, body: NAME, at: [x, y, z]}\n"
          "(at in the body frame; clamped: frame: [q0..q3] checks the end frame in the body);\n"
          "bodies.N.motion: {position: [[t, x, y, z], ...], orientation: [[t, q0..q3], ...],\n"
          "interpolation: linear|cubic} drives a body by keyframes (mass, inertia optional);\n"
          "a joint or bushing on it has the keyframes' pose, velocity and acceleration at t\n"
          "as its prescribed side (joints in dynamic runs: formulation absolute, g(q, t)\n"
          "with g_t and the side's acceleration; its work is external_work);\n"
          "bodies.csv next to the rod files (dynamic analyses; nullspace or absolute; all\n"
          "integrators).  static, modes, buckling, start_from_equilibrium with bodies:\n"
          "the body poses are unknowns next to the rods (force / moment balance with the rod\n"
          "end reactions, gravity and loads ramped like the rods', bushings); modes include\n"
          "the bodies' mass and inertia; path: keyframes: keyframe bodies carry their rod\n"
          "ends along the route (their keyframes are stops); control: arc-length: the free\n"
          "bodies' loads and weights times the load factor too (keyframe bodies must not\n"
          "move); joints (static, start_from_equilibrium): multipliers as unknowns,\n"
          "joints.csv their reactions; modes and buckling with joints on the constraints'\n"
          "null space (a joint's free motions are zero frequencies); a joint on a keyframe\n"
          "body follows its keyframes (bushings also in modes, buckling and\n"
          "start_from_equilibrium); Kirchhoff rods in static, modes, buckling and\n"
          "start_from_equilibrium (their multipliers as constraint rows), preloads in\n"
          "start_from_equilibrium; refused (exit 2): joints on keyframe bodies in modes,\n"
          "buckling, start_from_equilibrium and with formulation nullspace, a body\n"
          "carrying no rod end or bushing.\n");
  usage_bodies(f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
    printf("cosrod %s\n", COSROD_VERSION_STRING);
    return 0;
  }
  if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "check") == 0) return cosrod_cmd_check(argc - 2, argv + 2);
  if (strcmp(argv[1], "run") == 0) return cosrod_cmd_run(argc - 2, argv + 2);
  if (strcmp(argv[1], "view") == 0) return cosrod_cmd_view(argc - 2, argv + 2);
  if (strcmp(argv[1], "sweep") == 0) return cosrod_cmd_sweep(argc - 2, argv + 2);
  if (strcmp(argv[1], "selfcheck") == 0) return cosrod_quat_selfcheck(stdout) == 0 ? 0 : 1;
  fprintf(stderr, "cosrod: unknown command '%s' (try 'cosrod help')\n", argv[1]);
  return 2;
}
