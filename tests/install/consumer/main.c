// SPDX-License-Identifier: Apache-2.0
/* Links against an installed libcosrod: prints the version and rotates e1 by
 * 90 degrees about e3 (expects e2), exit status 0 only if that is right. */
#include <math.h>
#include <stdio.h>

#include "cosrod/cosrod.h"

int main(void) {
  double p[4], v[3] = {1, 0, 0}, w[3], axis[3] = {0, 0, 1};
  cosrod_quat_from_axis_angle(p, axis, 1.5707963267948966);
  cosrod_quat_rotate(w, p, v);
  printf("cosrod %s: R e1 = (%.3f, %.3f, %.3f), %s\n", COSROD_VERSION_STRING, w[0], w[1], w[2],
         cosrod_strerror(COSROD_OK));
  return (fabs(w[0]) < 1e-12 && fabs(w[1] - 1) < 1e-12 && fabs(w[2]) < 1e-12) ? 0 : 1;
}
