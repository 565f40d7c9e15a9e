/* Scenario keys `obstacles:` and `contact:` ([manual: contact]) read into plain
 * structs, validated like every other key (`FILE:LINE: key.path: problem`).
 *
 * Internal to the scenario module until the assembled system consumes it:
 * the main loader (cosrod_scenario_parse) does not yet accept these two keys;
 * the integration adds "obstacles" and "contact" to its top-level key list and
 * calls cosrod_sc_contact_parse on the same text.  Mesh files are resolved
 * relative to the scenario file's directory and checked (exists, parses, is a
 * closed manifold) at parse time with the contact module's loader.
 *
 * Mapping to the contact module (include/cosrod/contact.h): shape and pose as
 * cosrod_shape / cosrod_pose (local e_z = plane normal, cylinder and capsule
 * axis); stiffness/onset/damping 0 = auto, damping: none -> -1. */
#ifndef COSROD_SCENARIO_CONTACT_H
#define COSROD_SCENARIO_CONTACT_H

#include <stddef.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"

typedef struct cosrod_sc_obstacle {
  char name[COSROD_SC_NAME_MAX];
  cosrod_shape shape;            /* type and dimensions (mesh: shape.mesh NULL, see file) */
  char *file;                    /* mesh: path resolved against the scenario's directory, else NULL */
  cosrod_pose pose;              /* spatial pose, or in the body frame when body >= 0 */
  double reference[3];           /* moment reference of obstacles.csv: center / point / position */
  char body[COSROD_SC_NAME_MAX]; /* "" = not on a body */
  int has_motion;
  cosrod_sc_keyframes motion_position;    /* (n = 0: stays) */
  cosrod_sc_keyframes motion_orientation; /* unit quaternions (n = 0: keeps) */
  int motion_cubic;
  int line;
} cosrod_sc_obstacle;

typedef struct cosrod_sc_contact {
  int enabled;            /* `contact:` present */
  cosrod_contact_law law; /* 0 = auto; damping none = -1 */
  int rods, self;         /* rod-rod and self-contact (default true) */
  int quadrature;         /* Gauss points per segment (0 = default 2) */
  size_t nobstacles;
  cosrod_sc_obstacle *obstacles;
} cosrod_sc_contact;

/* Read the two keys from a scenario text (other keys are ignored: the main
 * loader validates them).  file names the text in messages and anchors
 * relative mesh paths.  Returns COSROD_OK, COSROD_ERR_PARSE (message in err)
 * or COSROD_ERR_NOMEM. */
cosrod_status cosrod_sc_contact_parse(const char *text, size_t len, const char *file, cosrod_sc_contact **out,
                                      char *err, size_t errlen);
void cosrod_sc_contact_free(cosrod_sc_contact *sc);

#endif /* COSROD_SCENARIO_CONTACT_H */
