// SPDX-License-Identifier: Apache-2.0
/* The browser viewer of a run ([manual: command line]: `cosrod view DIR` writes
 * DIR/view.html).  view.html is one self-contained file: the viewer's
 * JavaScript (three.js bundled by esbuild from viewer/, embedded in the
 * library at build time) and the run's output files inlined, so that it
 * opens from file:// without a server or network.
 *
 * Inlined: summary.json, scene.json and the CSV files the page draws
 * (centerline, frames, strains, curvatures, energy, bodies, joints,
 * reactions, increments, modes, buckling, contacts, obstacles); steps.csv
 * and vtk/ are not.  When the time series together exceed max_bytes, every
 * k-th output time is kept (k the smallest that fits, the last time always)
 * and the page says so.  A page this build wrote before is updated in
 * place (its data only, the viewer part kept); any other is replaced whole. */
#ifndef COSROD_VIEW_H
#define COSROD_VIEW_H

#include "cosrod/export.h"
#include <stddef.h>

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default data budget of view.html [bytes]: 64 MB of CSV text. */
#define COSROD_VIEW_MAX_BYTES ((size_t)64 << 20)

/* Runs write view.html by default when the files it inlines total at most
 * this [bytes] (100 MB: reading and decimating them stays a second or two
 * after the run, and the page holds at most COSROD_VIEW_MAX_BYTES of data,
 * which a browser loads); beyond, the run says so and `cosrod view DIR`
 * writes the page with its frames decimated to COSROD_VIEW_MAX_BYTES. */
#define COSROD_VIEW_AUTO_MAX_BYTES ((size_t)100 << 20)

/* Non-zero when the viewer was built into this library (node and npm were
 * present when it was built). */
COSROD_API int cosrod_view_available(void);

/* Write `html` (NULL: DIR/view.html) from the output directory `dir`.
 * max_bytes: data budget (0: COSROD_VIEW_MAX_BYTES).  On failure a
 * one-line message in msg (msg_size bytes; may be NULL): the viewer was not
 * built (COSROD_ERR_UNSUPPORTED), DIR has no summary.json (COSROD_ERR_IO:
 * not an output directory; where DIR holds other files of a run the page is
 * written all the same and shows that message instead of the run), or a
 * write failed.  On success msg holds a note
 * (empty, or how the frames were decimated). */
COSROD_API cosrod_status cosrod_view_write(const char *dir, const char *html, size_t max_bytes, char *msg, size_t msg_size);

/* Total size [bytes] of the files cosrod_view_write would inline from dir
 * before decimation (0 if none). */
COSROD_API size_t cosrod_view_data_bytes(const char *dir);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_VIEW_H */
