// SPDX-License-Identifier: Apache-2.0
/* The Scenario type of the extension _cosrod (module-internal): a
 * validated cosrod_scenario, loaded from a file or parsed from text. */
#ifndef COSROD_PY_SCENARIO_H
#define COSROD_PY_SCENARIO_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cosrod/scenario.h"

typedef struct {
  PyObject_HEAD cosrod_scenario *sc;
} ScenarioObject;

extern PyTypeObject cosrod_py_scenario_type;
extern PyObject *cosrod_py_g_scenario_error; /* cosrod.ScenarioError (set by _set_errors) */

/* Raise cosrod.ScenarioError(msg); returns NULL. */
PyObject *cosrod_py_scenario_error(const char *msg);
/* load(path, sets) -> Scenario; parse(text, name) -> Scenario */
PyObject *cosrod_py_load(PyObject *m, PyObject *args);
PyObject *cosrod_py_parse(PyObject *m, PyObject *args);

#endif
