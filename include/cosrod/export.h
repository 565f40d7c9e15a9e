// SPDX-License-Identifier: Apache-2.0
/* Conventions of the public interface, included by every public header.
 *
 * Exported symbols.  libcosrod is compiled with -fvisibility=hidden: a
 * function or object is part of the shared library's interface only if its
 * declaration in a header under include/cosrod/ carries COSROD_API, and
 * every such name starts with cosrod_ (tests/api checks both on the built
 * library).  Functions shared between modules but not meant for users are
 * declared in headers under src/ (e.g. src/rod/rod_hooks.h) without
 * COSROD_API: the modules' static libraries link them, libcosrod.so does not
 * export them.
 *
 * Constructor failures.  A constructor that can fail for a reason other
 * than memory returns NULL on failure and reports through
 *     cosrod_status *status   (may be NULL): why, a cosrod_status code;
 *     char *err, size_t errlen (err may be NULL): one line naming what is
 *                             wrong (for scenario input "FILE:LINE: key:
 *                             problem"), "" on success;
 * e.g. cosrod_sim_create, cosrod_mbs_create.  A loader that hands back
 * several results returns the status and the object through an out
 * pointer with the same err / errlen (cosrod_scenario_load).  Allocators
 * of plain workspaces (cosrod_band_create, cosrod_rod_data_create, ...)
 * fail only for lack of memory or invalid sizes and return NULL then. */
#ifndef COSROD_EXPORT_H
#define COSROD_EXPORT_H

#ifndef COSROD_API
#if defined(__GNUC__) || defined(__clang__)
#define COSROD_API __attribute__((visibility("default")))
#else
#define COSROD_API
#endif
#endif

#endif /* COSROD_EXPORT_H */
