// SPDX-License-Identifier: Apache-2.0
/* The Scenario type of the extension _cosrod (see _cosrod_scenario.h). */
#include "_cosrod_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/status.h"


static void Scenario_dealloc(ScenarioObject *self) {
  cosrod_scenario_free(self->sc);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Scenario_info(ScenarioObject *self, PyObject *unused) {
  (void)unused;
  const cosrod_scenario *sc = self->sc;
  PyObject *rods = PyList_New((Py_ssize_t)sc->nrods);
  if (!rods) return NULL;
  for (size_t r = 0; r < sc->nrods; r++) {
    PyObject *d = Py_BuildValue("{s:s,s:n,s:d,s:s}", "name", sc->rods[r].name, "segments",
                                (Py_ssize_t)sc->rods[r].segments, "length", sc->rods[r].length, "model",
                                cosrod_sc_model_name(sc->rods[r].model));
    if (!d) {
      Py_DECREF(rods);
      return NULL;
    }
    PyList_SET_ITEM(rods, (Py_ssize_t)r, d);
  }
  const char *an = sc->analysis.type == COSROD_SC_ANALYSIS_STATIC  ? "static"
                   : sc->analysis.type == COSROD_SC_ANALYSIS_MODES ? "modes"
                   : sc->analysis.type == COSROD_SC_ANALYSIS_BUCKLING ? "buckling"
                                                                   : "dynamic";
  return Py_BuildValue("{s:s,s:s,s:N,s:n,s:s,s:d,s:d,s:s,s:d,s:d,s:s}", "file", sc->file ? sc->file : "",
                       "title", sc->title ? sc->title : "", "rods", rods, "nbodies", (Py_ssize_t)sc->nbodies,
                       "analysis", an, "t_end", sc->analysis.t_end, "every", sc->output.every, "integrator",
                       cosrod_sc_integrator_name(sc->solver.integrator), "rtol", sc->solver.rtol, "atol",
                       sc->solver.atol, "output_dir", sc->output.dir ? sc->output.dir : "");
}

static PyObject *Scenario_to_yaml(ScenarioObject *self, PyObject *unused) {
  (void)unused;
  FILE *f = tmpfile();
  if (!f) return PyErr_SetFromErrno(PyExc_OSError);
  cosrod_status st = cosrod_scenario_to_yaml(self->sc, f);
  long n = ftell(f);
  PyObject *out = NULL;
  if (st == COSROD_OK && n >= 0) {
    char *buf = malloc((size_t)n + 1);
    if (buf) {
      rewind(f);
      size_t got = fread(buf, 1, (size_t)n, f);
      out = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)got, "strict");
      free(buf);
    } else {
      PyErr_NoMemory();
    }
  } else {
    PyErr_SetString(PyExc_OSError, "the scenario could not be written as YAML");
  }
  fclose(f);
  return out;
}

/* The plausibility warnings (cosrod_scenario_warning) as a list of str. */
static PyObject *Scenario_warnings(ScenarioObject *self, PyObject *unused) {
  (void)unused;
  PyObject *list = PyList_New(0);
  char w[1024];
  for (size_t i = 0; list && cosrod_scenario_warning(self->sc, i, w, sizeof w) == 0; i++) {
    PyObject *t = PyUnicode_DecodeUTF8(w, (Py_ssize_t)strlen(w), "replace");
    if (!t || PyList_Append(list, t) != 0) Py_CLEAR(list);
    Py_XDECREF(t);
  }
  return list;
}

static PyMethodDef Scenario_methods[] = {
    {"warnings", (PyCFunction)Scenario_warnings, METH_NOARGS, "plausibility warnings (list of str)"},
    {"info", (PyCFunction)Scenario_info, METH_NOARGS, "dict describing the scenario"},
    {"to_yaml", (PyCFunction)Scenario_to_yaml, METH_NOARGS, "the scenario as YAML text"},
    {NULL, NULL, 0, NULL}};

PyTypeObject cosrod_py_scenario_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cosrod._cosrod.Scenario",
    .tp_basicsize = sizeof(ScenarioObject),
    .tp_dealloc = (destructor)Scenario_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "validated scenario (use cosrod.load)",
    .tp_methods = Scenario_methods,
};

PyObject *cosrod_py_scenario_error(const char *msg) {
  PyObject *cls = cosrod_py_g_scenario_error ? cosrod_py_g_scenario_error : PyExc_ValueError;
  PyErr_SetString(cls, msg);
  return NULL;
}

/* The Scenario object of a load / parse that returned st (ScenarioError with
 * the loader's one-line message, MemoryError, or the wrapped scenario). */
static PyObject *wrap_loaded(cosrod_status st, cosrod_scenario *sc, const char *err) {
  if (st == COSROD_ERR_NOMEM) return PyErr_NoMemory();
  if (st != COSROD_OK) return cosrod_py_scenario_error(err[0] ? err : cosrod_strerror(st));
  ScenarioObject *o = PyObject_New(ScenarioObject, &cosrod_py_scenario_type);
  if (!o) {
    cosrod_scenario_free(sc);
    return NULL;
  }
  o->sc = sc;
  return (PyObject *)o;
}

/* load(path, sets) -> Scenario; sets: sequence of "key.path=value" strings. */
PyObject *cosrod_py_load(PyObject *m, PyObject *args) {
  (void)m;
  const char *path;
  PyObject *sets_obj;
  if (!PyArg_ParseTuple(args, "sO", &path, &sets_obj)) return NULL;
  PyObject *seq = PySequence_Fast(sets_obj, "sets must be a sequence of strings");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  const char **sets = calloc((size_t)n + 1, sizeof *sets);
  if (!sets) {
    Py_DECREF(seq);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    sets[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
    if (!sets[i]) {
      free(sets);
      Py_DECREF(seq);
      return NULL;
    }
  }
  char err[4096] = "";
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  Py_BEGIN_ALLOW_THREADS sc = cosrod_scenario_load(path, sets, (size_t)n, &st);
  snprintf(err, sizeof err, "%s", cosrod_last_error()); /* this thread's message */
  Py_END_ALLOW_THREADS free(sets);
  Py_DECREF(seq);
  return wrap_loaded(st, sc, err);
}

/* parse(text, name) -> Scenario: YAML text in memory (cosrod_scenario_parse). */
PyObject *cosrod_py_parse(PyObject *m, PyObject *args) {
  (void)m;
  const char *text, *name;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#s", &text, &len, &name)) return NULL;
  char err[4096] = "";
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  Py_BEGIN_ALLOW_THREADS sc = cosrod_scenario_parse(text, (size_t)len, name, NULL, 0, &st);
  snprintf(err, sizeof err, "%s", cosrod_last_error()); /* this thread's message */
  Py_END_ALLOW_THREADS return wrap_loaded(st, sc, err);
}

