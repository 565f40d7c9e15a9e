// SPDX-License-Identifier: Apache-2.0
/* The viewer bundle (viewer/ built by esbuild), embedded at build time by
 * cmake/viewer_bundle.cmake into view_bundle.c; size 0 when the viewer
 * could not be built (no node / npm); its identity (a hash of the bundle,
 * written into the page's head so that a later write can keep the page's
 * unchanged viewer part; "" without a viewer). */
#ifndef COSROD_VIEW_INTERNAL_H
#define COSROD_VIEW_INTERNAL_H
#include <stddef.h>

extern const unsigned char cosrod_view_bundle[];
extern const size_t cosrod_view_bundle_size;
extern const char cosrod_view_bundle_id[];

#endif
