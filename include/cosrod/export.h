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
 * Constructor failures: every constructor returns the object or NULL and
 * reports why through an optional cosrod_status *status and the calling
 * thread's cosrod_last_error() message (see include/cosrod/status.h).
 */
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
