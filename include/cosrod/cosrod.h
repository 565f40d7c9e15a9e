// SPDX-License-Identifier: Apache-2.0
/* Umbrella header: includes every public cosrod header (tests/api checks
 * that none is missing). */
#ifndef COSROD_COSROD_H
#define COSROD_COSROD_H
#include "cosrod/export.h"
#include "cosrod/version.h"
#include "cosrod/status.h"
#include "cosrod/vec3.h"
#include "cosrod/profile.h"
#include "cosrod/quat.h"
#include "cosrod/band.h"
#include "cosrod/band_spike.h"
#include "cosrod/dense.h"
#include "cosrod/sparse.h"
#include "cosrod/integrate.h"
#include "cosrod/rod.h"
#include "cosrod/body.h"
#include "cosrod/statics.h"
#include "cosrod/scenario.h"
#include "cosrod/output.h"
#include "cosrod/contact.h"
#include "cosrod/system.h"
#include "cosrod/sim.h"
#include "cosrod/record.h"
#include "cosrod/view.h"
#endif /* COSROD_COSROD_H */
