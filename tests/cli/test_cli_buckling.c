// SPDX-License-Identifier: Apache-2.0
/* `cosrod run` of a buckling analysis (examples/buckling.yaml: a clamped–free
 * and a pinned–pinned steel column, unit forces, N = 20): buckling.csv with
 * the load factors against Euler's loads π²EI/(kL)² and the rod of each
 * mode, summary.json "buckling", vtk/modes.pvd with load_factor, the plot;
 * loads that only stretch the rods: exit 1 with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "outtest.h"

#define CLI_TEST_TAG "buckling"
#include "cli_test_util.h"

static const double PI = 3.14159265358979323846;

static long count_substr(const char *text, const char *what) {
  long n = 0;
  for (const char *p = text; p && (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

TEST(buckling_files) {
  char *dir = ot_mkdtemp("buckling");
  const char *args[] = {"run", ex("buckling"), "-o", dir, "-q", "--set", "rods.0.segments=20", "--set",
                        "rods.1.segments=20", "--set", "output.plots=false", NULL};
  char err[1024];
  int rc = cli_run_err(args, err, sizeof err);
  CHECK("exit 0", rc == 0);
  if (rc != 0) NOTE("stderr: %s", err);
  char *h = NULL;
  double *m = NULL;
  const int NV = 21;
  long nm = ot_csv_read(ot_path(dir, "buckling.csv"), &h, &m, 10);
  CHECK("buckling.csv: 4 modes x 21 vertices, 10 columns", nm == 4 * NV);
  CHECK("buckling.csv header", h && !strcmp(h, "mode,load_factor,rod,vertex,dx,dy,dz,rx,ry,rz"));
  CHECK("no modes.csv", !ot_exists(ot_path(dir, "modes.csv")));
  const double EI = 2.1e11 * PI * pow(5e-3, 4) / 4.0, Pe[4] = {PI * PI * EI / 4, PI * PI * EI / 4, PI * PI * EI,
                                                                PI * PI * EI};
  for (int k = 0; k < 4 && nm == 4 * NV; ++k) {
    const double *row = m + 10 * NV * k;
    NOTE("mode %d: rod %g, load factor %.8f, Euler %.8f", k + 1, row[2], row[1], Pe[k]);
    CHECK("rows of mode k", row[0] == k + 1 && row[10 * (NV - 1)] == k + 1);
    CHECK("rod: the flagpole's pair, then the strut's", row[2] == (k < 2 ? 0.0 : 1.0));
    /* N = 20: discretisation error 5e-4 (k = 2), 2e-3 (k = 1) */
    CHECK_CLOSE("load factor = Euler's load (3e-3)", row[1], Pe[k], 3e-3, 0.0);
  }
  char *pvd = ot_read(ot_path(ot_path(dir, "vtk"), "modes.pvd"), NULL);
  CHECK("modes.pvd: 4 datasets with load_factor", pvd && count_substr(pvd, "load_factor=\"") == 4);
  char *vtp = ot_read(ot_path(ot_path(dir, "vtk"), "mode_003.vtp"), NULL);
  CHECK("mode_003.vtp: FieldData load_factor, rod 1, 21 points",
        vtp && strstr(vtp, "Name=\"load_factor\"") && strstr(vtp, "Name=\"rod\" NumberOfTuples=\"1\" format=\"ascii\">1<") &&
            strstr(vtp, "NumberOfPoints=\"21\""));
  char *sum = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("summary.json: analysis buckling, 4 load factors, status ok",
        sum && strstr(sum, "\"analysis\": \"buckling\"") && strstr(sum, "\"buckling\": [") &&
            count_substr(sum, "\"load_factor\"") == 4 && strstr(sum, "\"status\": \"ok\""));
  free(h), free(m), free(pvd), free(vtp), free(sum);
  ot_rmtree(dir);
  free(dir);
}

/* no loads at all: no critical factor, a failed run (exit 1) that says why
 * (tension is no such case for the shearable rod: it has tensile
 * singularities at loads of the order of GA, ~1e7 N here) */
TEST(buckling_no_critical_load) {
  char *dir = ot_mkdtemp("buckling_none");
  const char *args[] = {"run", ex("buckling"), "-o", dir, "-q", "--set", "rods.0.loads=[]", "--set",
                        "rods.1.loads=[]", "--set", "output.plots=false", NULL};
  char err[1024];
  int rc = cli_run_err(args, err, sizeof err);
  NOTE("exit %d, stderr: %s", rc, err);
  CHECK("exit 1", rc == 1);
  char *sum = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("summary.json: failed, no positive critical load factor",
        sum && strstr(sum, "\"status\": \"failed\"") && strstr(sum, "no positive critical load factor"));
  free(sum);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(buckling_files), TH_CASE(buckling_no_critical_load)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
