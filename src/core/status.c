// SPDX-License-Identifier: Apache-2.0
/* Messages and names for the status codes of include/cosrod/status.h. */
#include "cosrod/status.h"

static const char *const messages[] = {
#define MSG_(name, msg) msg,
    COSROD_STATUS_LIST(MSG_)
#undef MSG_
};

static const char *const names[] = {
#define NAME_(name, msg) #name,
    COSROD_STATUS_LIST(NAME_)
#undef NAME_
};

const char *cosrod_strerror(cosrod_status status) {
  if ((int)status < 0 || status >= COSROD_STATUS_COUNT) return "unknown status";
  return messages[status];
}

const char *cosrod_status_name(cosrod_status status) {
  if ((int)status < 0 || status >= COSROD_STATUS_COUNT) return "UNKNOWN";
  return names[status];
}
