// SPDX-License-Identifier: Apache-2.0
// MuJoCo on the undamped rubber pendulum (a child process of pendulum.py).
//
// The rod of bench/auto/scenarios/rubber-pendulum.yaml (L = 1 m, r = 5 mm,
// E = 5e6 Pa, G = E/3, rho = 1100, start pinned and free to rotate, free end,
// gravity -9.81 z, 1 s) as MuJoCo's own rod model: a composite "cable" of N
// capsules whose bending and twist come from the mujoco.elasticity.cable
// plugin (discrete elastic rod, stiffness from E, G and the capsule radius).
// The first body carries a ball joint at the origin (the pin), the others the
// ball joints of the chain.  Each capsule gets the mass rho*pi*r^2*ds of its
// cylinder (with density= the hemispherical caps would add 4r/(3 ds): 67 % at
// N = 100).  Contacts are disabled (a pendulum), joint damping 0.  MuJoCo lays
// the cable along +x; the tip is rotated by +90 deg about z into our +y frame
// (gravity is along z, so the two set-ups are the same motion).
//
// Built by bench/peers/pendulum.py only when MUJOCO_DIR is set, never by the
// project's build.  Usage:
//   mujoco_pendulum N H T_END FRAME INTEGRATOR PLUGIN_LIB
// INTEGRATOR: Euler | RK4 | implicit | implicitfast (those of the MuJoCo used).
// Prints one JSON object: status, steps, load_cpu (XML -> mjModel, plugin
// library included), cpu (process CPU of the time loop alone), tips
// {"t": [x, y, z]} every FRAME seconds (t = 0 included).
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int write_xml(const char *path, int n, double h, const char *integ)
{
    const double L = 1.0, r = 5e-3, E = 5e6, G = E / 3.0, rho = 1100.0;
    const double m_e = rho * 3.14159265358979323846 * r * r * (L / n);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "<mujoco model=\"rubber-pendulum\">\n"
            "  <extension><plugin plugin=\"mujoco.elasticity.cable\"/></extension>\n"
            "  <option timestep=\"%.17g\" gravity=\"0 0 -9.81\" integrator=\"%s\">\n"
            "    <flag contact=\"disable\"/>\n"
            "  </option>\n"
            "  <worldbody>\n"
            "    <composite type=\"cable\" curve=\"s 0 0\" count=\"%d 1 1\" size=\"%.17g\""
            " offset=\"0 0 0\" initial=\"ball\">\n"
            "      <plugin plugin=\"mujoco.elasticity.cable\">\n"
            "        <config key=\"twist\" value=\"%.17g\"/>\n"
            "        <config key=\"bend\" value=\"%.17g\"/>\n"
            "        <config key=\"vmax\" value=\"0\"/>\n"
            "      </plugin>\n"
            "      <joint kind=\"main\" damping=\"0\" armature=\"0\"/>\n"
            "      <geom type=\"capsule\" size=\"%.17g\" mass=\"%.17g\"/>\n"
            "    </composite>\n"
            "  </worldbody>\n"
            "</mujoco>\n",
            h, integ, n + 1, L, G, E, r, m_e);
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s N H T_END FRAME INTEGRATOR PLUGIN_LIB\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    double h = atof(argv[2]), t_end = atof(argv[3]), frame = atof(argv[4]);
    if (n < 2 || !(h > 0) || !(t_end > 0) || !(frame >= h)) {
        fprintf(stderr, "%s: bad N, H, T_END or FRAME\n", argv[0]);
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/mj-pendulum-%ld.xml", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    if (write_xml(path, n, h, argv[5]) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], path);
        return 1;
    }
    double c0 = cpu_now();
    mj_loadPluginLibrary(argv[6]);
    char err[1000] = "";
    mjModel *m = mj_loadXML(path, NULL, err, sizeof err);
    remove(path);
    if (!m) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 1;
    }
    mjData *d = mj_makeData(m);
    double load_cpu = cpu_now() - c0;
    int tip = mj_name2id(m, mjOBJ_SITE, "S_last");
    if (tip < 0) {
        fprintf(stderr, "%s: no tip site S_last\n", argv[0]);
        return 1;
    }
    long steps = lround(t_end / h), every = lround(frame / h);
    long nframes = steps / every + 1, k = 0;
    double *tips = malloc(sizeof(double) * 4 * (size_t)nframes);
    if (!tips)
        return 1;
    mj_forward(m, d);
    int finite = 1;
    double c1 = cpu_now();
    for (long s = 0; s <= steps; ++s) {
        if (s % every == 0 && k < nframes) {
            mj_kinematics(m, d); // site_xpos of mj_step is from the step's start
            const double *p = d->site_xpos + 3 * tip;
            tips[4 * k] = d->time;
            tips[4 * k + 1] = -p[1];
            tips[4 * k + 2] = p[0];
            tips[4 * k + 3] = p[2];
            ++k;
        }
        if (s < steps)
            mj_step(m, d);
    }
    double cpu = cpu_now() - c1;
    for (long i = 0; i < 4 * k; ++i)
        finite = finite && isfinite(tips[i]);
    // MuJoCo resets the state when it detects a bad acceleration: unstable
    int reset = d->warning[mjWARN_BADQACC].number > 0;
    printf("{\"status\": \"%s\", \"steps\": %ld, \"load_cpu\": %.6g, \"cpu\": %.6g, "
           "\"nbody\": %d, \"nv\": %d, \"tips\": {",
           reset ? "unstable" : finite ? "ok" : "non-finite", steps, load_cpu, cpu, m->nbody, m->nv);
    for (long i = 0; i < k; ++i)
        printf("%s\"%.6g\": [%.17g, %.17g, %.17g]", i ? ", " : "", tips[4 * i],
               tips[4 * i + 1], tips[4 * i + 2], tips[4 * i + 3]);
    printf("}}\n");
    free(tips);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
}
