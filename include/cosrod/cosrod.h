/* Umbrella header: includes every public cosrod module. */
#ifndef COSROD_COSROD_H
#define COSROD_COSROD_H
#include "cosrod/version.h"
#include "cosrod/status.h"
#if defined(__has_include)
#if __has_include("cosrod/quat.h")
#include "cosrod/quat.h"
#endif
#if __has_include("cosrod/band.h")
#include "cosrod/band.h"
#endif
#if __has_include("cosrod/integrate.h")
#include "cosrod/integrate.h"
#endif
#if __has_include("cosrod/rod.h")
#include "cosrod/rod.h"
#endif
#endif
#endif /* COSROD_COSROD_H */
