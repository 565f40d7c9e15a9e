// SPDX-License-Identifier: Apache-2.0
/* Method registry: lookup by name and the list of methods built into this
 * library.  A method is listed when its file is compiled in (the CMake macro
 * integrate_method defines COSROD_HAVE_METHOD_<NAME>).  The table holds the
 * addresses of the exported pointers, so it is a constant initializer. */
#include <string.h>

#include "cosrod/integrate.h"

static const cosrod_step_type *const *const method_table[] = {
#ifdef COSROD_HAVE_METHOD_DOPRI5
    &cosrod_step_dopri5,
#endif
#ifdef COSROD_HAVE_METHOD_DOP853
    &cosrod_step_dop853,
#endif
#ifdef COSROD_HAVE_METHOD_RADAU5
    &cosrod_step_radau5,
#endif
#ifdef COSROD_HAVE_METHOD_RODAS
    &cosrod_step_rodas,
#endif
#ifdef COSROD_HAVE_METHOD_SEULEX
    &cosrod_step_seulex,
#endif
#ifdef COSROD_HAVE_METHOD_ODEX
    &cosrod_step_odex,
#endif
#ifdef COSROD_HAVE_METHOD_GALPHA
    &cosrod_step_galpha,
#endif
#ifdef COSROD_HAVE_METHOD_IDA
    &cosrod_step_ida,
#endif
#ifdef COSROD_HAVE_METHOD_CVODE
    &cosrod_step_cvode,
#endif
    NULL};

size_t cosrod_step_type_count(void) { return sizeof(method_table) / sizeof(method_table[0]) - 1; }

const cosrod_step_type *cosrod_step_type_at(size_t i) {
  return i < cosrod_step_type_count() ? *method_table[i] : NULL;
}

const cosrod_step_type *cosrod_step_type_by_name(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < cosrod_step_type_count(); i++)
    if (strcmp((*method_table[i])->name, name) == 0) return *method_table[i];
  return NULL;
}
