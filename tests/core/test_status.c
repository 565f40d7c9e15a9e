// SPDX-License-Identifier: Apache-2.0
/* Status codes: every code has a distinct message and name. */
#include <string.h>

#include "cosrod/status.h"
#include "harness.h"

TEST(status_messages_distinct) {
  int dup = 0, empty = 0;
  for (int a = 0; a < COSROD_STATUS_COUNT; a++) {
    if (strlen(cosrod_strerror((cosrod_status)a)) == 0) empty++;
    for (int b = a + 1; b < COSROD_STATUS_COUNT; b++)
      if (strcmp(cosrod_strerror((cosrod_status)a), cosrod_strerror((cosrod_status)b)) == 0) dup++;
  }
  CHECK("no two status codes share a message", dup == 0);
  CHECK("no empty message", empty == 0);
  CHECK("COSROD_OK is 0 and reads 'success'", COSROD_OK == 0 && strcmp(cosrod_strerror(COSROD_OK), "success") == 0);
  CHECK("out-of-range code gives a message, not a crash",
        strcmp(cosrod_strerror((cosrod_status)1000), "unknown status") == 0);
  CHECK("name of ERR_SINGULAR", strcmp(cosrod_status_name(COSROD_ERR_SINGULAR), "ERR_SINGULAR") == 0);
}

static const th_case cases[] = {TH_CASE(status_messages_distinct)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
