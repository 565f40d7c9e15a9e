// SPDX-License-Identifier: Apache-2.0
/* Scenario keys `obstacles:`, `contact:` and `bodies.N.shape` ([manual: contact]),
 * read into cosrod_sc_contact (include/cosrod/scenario.h) and validated like
 * every other key (`FILE:LINE: key.path: problem`).
 *
 * The main loader calls sc_read_contact after the bodies; cosrod_sc_contact_parse
 * reads the same keys from a text alone (other keys ignored), for tests of
 * these keys in isolation.  Mesh files are resolved relative to the
 * scenario file's directory and checked (exists, parses, is a closed
 * manifold) at parse time with the contact module's loader. */
#ifndef COSROD_SCENARIO_CONTACT_H
#define COSROD_SCENARIO_CONTACT_H

#include <stddef.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"

/* Read the keys from a scenario text; *out is a new struct (free with
 * cosrod_sc_contact_free).  Returns COSROD_OK, COSROD_ERR_PARSE (message in
 * err) or COSROD_ERR_NOMEM. */
cosrod_status cosrod_sc_contact_parse(const char *text, size_t len, const char *file, cosrod_sc_contact **out,
                                      char *err, size_t errlen);
void cosrod_sc_contact_free(cosrod_sc_contact *sc);
/* Free what sc owns (not sc itself) and zero it. */
void cosrod_sc_contact_clear(cosrod_sc_contact *sc);

#endif /* COSROD_SCENARIO_CONTACT_H */
