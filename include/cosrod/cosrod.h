/* Umbrella header: includes every public cosrod module. */
#ifndef COSROD_COSROD_H
#define COSROD_COSROD_H
#include "cosrod/version.h"
#include "cosrod/status.h"
#include "cosrod/vec3.h"
#include "cosrod/quat.h"
#include "cosrod/band.h"
#include "cosrod/dense.h"
#include "cosrod/sparse.h"
#include "cosrod/integrate.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "cosrod/output.h"
#if defined(__has_include)
#if __has_include("cosrod/statics.h")
#include "cosrod/statics.h"
#endif
#if __has_include("cosrod/sim.h")
#include "cosrod/sim.h"
#include "cosrod/record.h"
#endif
#endif
#endif /* COSROD_COSROD_H */
