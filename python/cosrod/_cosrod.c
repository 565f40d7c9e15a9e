// SPDX-License-Identifier: Apache-2.0
/* _cosrod: the CPython extension under the `cosrod` package (python/cosrod).
 *
 * Plain CPython C API, no NumPy headers: arrays cross the boundary as
 * bytearrays of doubles (native endianness) that cosrod/__init__.py wraps
 * with numpy.frombuffer without a copy.  Two types:
 *   Scenario  owns a cosrod_scenario (cosrod_scenario_load);
 *   Sim       owns a cosrod_sim and keeps its Scenario alive.
 * Sim.run records every frame (the rods' data and the energy terms at the
 * output times, exactly what `cosrod run` writes to its CSV files) and every
 * step into buffers grown with realloc, with the GIL released; a Python
 * observer is called with the GIL re-acquired.  In the main thread SIGINT
 * sets the sim's stop flag during the run, so Ctrl-C ends the run at the next
 * step and Python raises KeyboardInterrupt. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"
#include "_cosrod_rec.h"
#include "_cosrod_scenario.h"
#include "cosrod/view.h"

PyObject *cosrod_py_g_scenario_error; /* set by _set_errors: cosrod.ScenarioError */
static PyObject *g_cosrod_error;   /* cosrod.CosrodError */

static volatile sig_atomic_t g_sigint = 0;
static void on_sigint(int sig) {
  (void)sig;
  g_sigint = 1;
}

/* ---- Sim ------------------------------------------------------------------ */

/* A Python load callback of one rod (Sim.set_load). */
typedef struct load_hook {
  PyObject *fn; /* fn(t, x, xdot, p, Omega, f, m) with memoryviews; adds into f, m */
  int failed;   /* fn raised: exception saved below, the run stops (ERR_CALLBACK) */
  PyObject *et, *ev, *tb;
} load_hook;

typedef struct {
  PyObject_HEAD cosrod_sim *sim;
  PyObject *scenario; /* ScenarioObject, outlives sim */
  load_hook *hooks;   /* (nrods) */
  int busy;           /* a run / advance is in progress (GIL released) */
  volatile sig_atomic_t stop;
} SimObject;

typedef struct run_ctx {
  SimObject *self;
  rec r;
  cosrod_recorder *files; /* Sim.run(output=DIR): the files of `cosrod run`, or NULL */
  int record;
  PyObject *observer; /* callable(t) or NULL */
  int py_failed;      /* the observer raised: the exception is saved below */
  PyObject *exc_type, *exc_value, *exc_tb;
  int progress, tty; /* tty: stderr is a terminal (redrawn line) or not (plain lines) */
  double wall0, last_draw, t_end;
  int drawn;
} run_ctx;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int call_observer(run_ctx *c, double t) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *res = PyObject_CallFunction(c->observer, "d", t);
  int rc = 0;
  if (!res) {
    PyErr_Fetch(&c->exc_type, &c->exc_value, &c->exc_tb);
    c->py_failed = 1;
    rc = -1;
  } else {
    rc = PyObject_IsTrue(res) == 1 && res != Py_None ? 1 : 0; /* a true return value stops the run */
    Py_DECREF(res);
  }
  PyGILState_Release(g);
  return rc;
}

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  run_ctx *c = user;
  if (c->files && cosrod_recorder_frame(c->files, sim, t) != 0) return -1;
  if (c->record) {
    rec *r = &c->r;
    if (cosrod_py_rec_frame_grow(r) != 0) {
      r->nomem = 1;
      return -1;
    }
    size_t f = r->nframes;
    r->t[f] = t;
    cosrod_sim_energy e = cosrod_sim_energy_now(sim);
    double *ep = r->energy + 6 * f;
    ep[0] = e.kinetic, ep[1] = e.elastic, ep[2] = e.gravity, ep[3] = e.external_work, ep[4] = e.dissipated;
    ep[5] = e.balance;
    for (size_t k = 0; k < r->nrods; k++)
      cosrod_py_copy_rod_frame(r->rod[k] + f * cosrod_py_rod_block(r->N[k]), cosrod_sim_rod_data(sim, k), r->N[k]);
    cosrod_py_record_bodies(r, sim, c->files, f);
    r->nframes++;
  }
  return c->observer ? call_observer(c, t) : 0;
}

static void draw_progress(run_ctx *c, double t, int force) {
  double now = wall_now();
  /* a terminal: one line redrawn every 0.2 s; a file or pipe: no escapes,
   * a plain line every 5 s */
  if (!c->progress || (!force && now - c->last_draw < (c->tty ? 0.2 : 5.0))) return;
  c->last_draw = now;
  if (!c->tty) {
    fprintf(stderr, "cosrod: t = %.4g / %g  (%.1f s)\n", t, c->t_end, now - c->wall0);
    fflush(stderr);
    return;
  }
  fprintf(stderr, "\rcosrod: t = %.4g / %g  (%.1f s)\033[K", t, c->t_end, now - c->wall0);
  fflush(stderr);
  c->drawn = 1;
}

static int on_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  (void)sim;
  run_ctx *c = user;
  if (c->files && cosrod_recorder_step(c->files, t, h, accepted) != 0) return -1;
  if (c->record) {
    rec *r = &c->r;
    if (cosrod_py_grow(&r->steps, &r->scap, r->nsteps + 1, 3) != 0) {
      r->nomem = 1;
      return -1;
    }
    double *s = r->steps + 3 * r->nsteps++;
    s[0] = t, s[1] = h, s[2] = accepted;
  }
  if (accepted) draw_progress(c, t + h, 0);
  return 0;
}

static int on_increment(void *user, const cosrod_sim *sim, double t, long iterations, double residual) {
  run_ctx *c = user;
  if (c->files && cosrod_recorder_increment(c->files, sim, t, iterations, residual) != 0) return -1;
  if (c->record) {
    rec *r = &c->r;
    if (cosrod_py_grow(&r->inc, &r->icap, r->ninc + 1, 3) != 0) {
      r->nomem = 1;
      return -1;
    }
    double *s = r->inc + 3 * r->ninc++;
    s[0] = t, s[1] = (double)iterations, s[2] = residual;
  }
  draw_progress(c, t, 0);
  return 0;
}

static void Sim_dealloc(SimObject *self) {
  size_t n = self->sim ? cosrod_sim_nrods(self->sim) : 0;
  cosrod_sim_free(self->sim);
  for (size_t k = 0; self->hooks && k < n; k++) {
    Py_XDECREF(self->hooks[k].fn);
    Py_XDECREF(self->hooks[k].et);
    Py_XDECREF(self->hooks[k].ev);
    Py_XDECREF(self->hooks[k].tb);
  }
  free(self->hooks);
  Py_XDECREF(self->scenario);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Sim_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  PyObject *scen;
  static char *kwlist[] = {"scenario", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!", kwlist, &cosrod_py_scenario_type, &scen)) return NULL;
  char err[1024] = "";
  cosrod_status st = COSROD_OK;
  cosrod_sim *sim;
  Py_BEGIN_ALLOW_THREADS sim = cosrod_sim_create(((ScenarioObject *)scen)->sc, &st);
  snprintf(err, sizeof err, "%s", cosrod_last_error()); /* this thread's message */
  Py_END_ALLOW_THREADS if (!sim) {
    if (st == COSROD_ERR_NOMEM) return PyErr_NoMemory();
    return cosrod_py_scenario_error(err[0] ? err : cosrod_strerror(st));
  }
  SimObject *self = (SimObject *)type->tp_alloc(type, 0);
  if (!self) {
    cosrod_sim_free(sim);
    return NULL;
  }
  self->sim = sim;
  self->hooks = calloc(cosrod_sim_nrods(sim) + 1, sizeof *self->hooks);
  if (!self->hooks) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  Py_INCREF(scen);
  self->scenario = scen;
  return (PyObject *)self;
}

static PyObject *stats_dict(const cosrod_integrate_stats *s) {
  return Py_BuildValue("{s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:d}", "nfev", s->nfev, "njev",
                       s->njev, "nsteps", s->nsteps, "naccept", s->naccept, "nreject", s->nreject,
                       "nconvfail", s->nconvfail, "ndecomp", s->ndecomp, "nsolve", s->nsolve, "nnewton",
                       s->nnewton, "nstiff", s->nstiff, "nproject", s->nproject, "nfail_rhs", s->nfail_rhs,
                       "solver_wall_time", s->wall_time);
}

static int restore_hook_error(SimObject *self);

static int begin_busy(SimObject *self) {
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "this Sim is already running in another thread");
    return -1;
  }
  self->busy = 1;
  return 0;
}

/* Common tail of run / advance: SIGINT restore, exceptions. */
typedef struct sig_guard {
  int active;
  struct sigaction old;
} sig_guard;

static void sig_begin(sig_guard *g, int catch_sigint) {
  g->active = catch_sigint;
  if (!catch_sigint) return;
  g_sigint = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g->old);
}

static int sig_end(sig_guard *g) {
  if (!g->active) return 0;
  sigaction(SIGINT, &g->old, NULL);
  return g_sigint != 0;
}

/* run(record, observer, progress, catch_sigint, output, scenario_file) ->
 * dict with the recording (bytearrays), status, message, stats, modes;
 * output (a directory or None): also write the files of `cosrod run` there
 * (cosrod_recorder); raises KeyboardInterrupt or the observer's exception. */
static PyObject *Sim_run(SimObject *self, PyObject *args) {
  int record = 1, progress = 0, catch_sigint = 0;
  PyObject *observer = Py_None;
  const char *outdir = NULL, *scfile = NULL;
  int resume = 0; /* 1: continue the run in outdir from its checkpoint (cosrod_recorder_resume) */
  if (!PyArg_ParseTuple(args, "pOppzz|p", &record, &observer, &progress, &catch_sigint, &outdir, &scfile, &resume))
    return NULL;
  if (observer != Py_None && !PyCallable_Check(observer)) {
    PyErr_SetString(PyExc_TypeError, "observer must be callable");
    return NULL;
  }
  if (begin_busy(self) != 0) return NULL;
  run_ctx c;
  memset(&c, 0, sizeof c);
  c.self = self;
  c.record = record;
  c.observer = observer == Py_None ? NULL : observer;
  c.progress = progress;
  c.tty = isatty(fileno(stderr));
  c.wall0 = c.last_draw = wall_now();
  if (!isatty(fileno(stderr))) c.last_draw -= 5.0; /* a plain line at once */
  const cosrod_scenario *sc = cosrod_sim_scenario(self->sim);
  c.t_end = sc->analysis.t_end;
  size_t nrods = cosrod_sim_nrods(self->sim);
  c.r.nrods = nrods;
  c.r.N = calloc(nrods ? nrods : 1, sizeof *c.r.N);
  c.r.rod = calloc(nrods ? nrods : 1, sizeof *c.r.rod);
  if (!c.r.N || !c.r.rod) {
    cosrod_py_rec_free(&c.r);
    self->busy = 0;
    return PyErr_NoMemory();
  }
  for (size_t k = 0; k < nrods; k++) c.r.N[k] = (size_t)cosrod_rod_nseg(cosrod_sim_rod(self->sim, k));
  c.r.nbodies = cosrod_sim_nbodies(self->sim);
  c.r.njoints = cosrod_sim_njoints(self->sim);
  { /* contact: obstacles.csv / contacts.csv in memory (res.contacts, res.obstacles) */
    const cosrod_scenario *scn = cosrod_sim_scenario(self->sim);
    c.r.contact = scn && scn->contact.enabled;
    c.r.nobs = c.r.contact ? scn->contact.nobstacles : 0;
  }
  if (outdir) {
    cosrod_status ost = COSROD_OK;
    c.files = resume ? cosrod_recorder_resume(self->sim, outdir, 0.0, &ost)
                     : cosrod_recorder_create(self->sim, outdir, scfile, 0.0, &ost);
    const char *oerr = cosrod_last_error();
    if (!c.files) {
      cosrod_py_rec_free(&c.r);
      self->busy = 0;
      if (ost == COSROD_ERR_NOMEM) return PyErr_NoMemory();
      PyErr_SetString(g_cosrod_error ? g_cosrod_error : PyExc_OSError, oerr);
      return NULL;
    }
  }
  self->stop = 0;
  cosrod_sim_observer obs = {on_frame, on_step, &c, catch_sigint ? &g_sigint : &self->stop, on_increment};
  sig_guard g;
  sig_begin(&g, catch_sigint);
  cosrod_status st;
  Py_BEGIN_ALLOW_THREADS st = cosrod_sim_run(self->sim, &obs);
  Py_END_ALLOW_THREADS int interrupted = sig_end(&g);
  if (c.drawn) fprintf(stderr, "\r\033[K");
  if (c.files) { /* the files are complete whatever happened */
    cosrod_record_end end;
    cosrod_status cst;
    const char *by = interrupted ? "SIGINT" : self->stop || c.py_failed ? "the observer" : NULL;
    Py_BEGIN_ALLOW_THREADS cst = cosrod_recorder_finish(c.files, self->sim, st, wall_now() - c.wall0, by, &end);
    Py_END_ALLOW_THREADS if (cst != COSROD_OK && !c.py_failed && !(interrupted && st == COSROD_ERR_INTERRUPTED)) {
      PyErr_Format(g_cosrod_error ? g_cosrod_error : PyExc_OSError, "writing the output failed: %s",
                   cosrod_recorder_error(c.files));
      cosrod_recorder_free(c.files);
      cosrod_py_rec_free(&c.r);
      self->busy = 0;
      return NULL;
    }
    cosrod_recorder_free(c.files);
    c.files = NULL;
  }
  self->busy = 0;
  if (restore_hook_error(self)) {
    cosrod_py_rec_free(&c.r);
    return NULL;
  }
  if (c.py_failed) {
    cosrod_py_rec_free(&c.r);
    PyErr_Restore(c.exc_type, c.exc_value, c.exc_tb);
    return NULL;
  }
  if (interrupted && st == COSROD_ERR_INTERRUPTED) {
    cosrod_py_rec_free(&c.r);
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    return NULL;
  }
  if (c.r.nomem) {
    cosrod_py_rec_free(&c.r);
    return PyErr_NoMemory();
  }
  PyObject *rods = PyList_New((Py_ssize_t)nrods);
  PyObject *out = NULL;
  if (!rods) goto done;
  for (size_t k = 0; k < nrods; k++) {
    PyObject *b = cosrod_py_bytes(c.r.rod[k] ? c.r.rod[k] : (const double *)"", c.r.nframes * cosrod_py_rod_block(c.r.N[k]));
    if (!b) goto done;
    PyList_SET_ITEM(rods, (Py_ssize_t)k, b);
  }
  PyObject *modes = cosrod_py_modes(self->sim, nrods ? c.r.N[0] : 0);
  if (!modes) goto done;
  const double *empty = (const double *)"";
  out = Py_BuildValue("{s:i,s:s,s:s,s:d,s:d,s:n,s:N,s:N,s:N,s:N,s:N,s:N,s:s,s:N}", "status", (int)st,
                      "status_name", cosrod_strerror(st), "message", cosrod_sim_message(self->sim),
                      "t_reached", cosrod_sim_t(self->sim), "t_failed", cosrod_sim_fail_time(self->sim),
                      "nframes", (Py_ssize_t)c.r.nframes, "t", cosrod_py_bytes(c.r.t ? c.r.t : empty, c.r.nframes),
                      "energy", cosrod_py_bytes(c.r.energy ? c.r.energy : empty, 6 * c.r.nframes), "rods", rods,
                      "steps", cosrod_py_bytes(c.r.steps ? c.r.steps : empty, 3 * c.r.nsteps), "increments",
                      cosrod_py_bytes(c.r.inc ? c.r.inc : empty, 3 * c.r.ninc), "stats",
                      stats_dict(cosrod_sim_stats(self->sim)), "integrator",
                      cosrod_sim_integrator_name(self->sim), "modes", modes);
  rods = NULL; /* stolen */
  if (out && cosrod_py_add_bodies(out, &c.r, cosrod_sim_scenario(self->sim)) != 0) Py_CLEAR(out);
done:
  Py_XDECREF(rods);
  cosrod_py_rec_free(&c.r);
  return out;
}

/* advance(t_next, catch_sigint) -> (status, message) */
static PyObject *Sim_advance(SimObject *self, PyObject *args) {
  double t;
  int catch_sigint = 0;
  if (!PyArg_ParseTuple(args, "dp", &t, &catch_sigint)) return NULL;
  if (begin_busy(self) != 0) return NULL;
  self->stop = 0;
  cosrod_sim_observer obs = {NULL, NULL, NULL, catch_sigint ? &g_sigint : &self->stop, NULL};
  cosrod_sim_set_observer(self->sim, &obs);
  sig_guard g;
  sig_begin(&g, catch_sigint);
  cosrod_status st;
  Py_BEGIN_ALLOW_THREADS st = cosrod_sim_advance(self->sim, t);
  Py_END_ALLOW_THREADS int interrupted = sig_end(&g);
  cosrod_sim_set_observer(self->sim, NULL);
  self->busy = 0;
  if (restore_hook_error(self)) return NULL;
  if (interrupted && st == COSROD_ERR_INTERRUPTED) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    return NULL;
  }
  return Py_BuildValue("(iss)", (int)st, cosrod_strerror(st), cosrod_sim_message(self->sim));
}

/* Load callback trampoline: the GIL for the Python call (documented cost). */
static int py_load(void *user, double t, int N, const double *x, const double *xdot, const double *p,
                   const double *Omega, double *f, double *m) {
  load_hook *h = user;
  if (h->failed) return -1;
  PyGILState_STATE g = PyGILState_Ensure();
  Py_ssize_t nv = (Py_ssize_t)(3 * (N + 1) * sizeof(double)), ns = (Py_ssize_t)(3 * N * sizeof(double));
  PyObject *res = PyObject_CallFunction(
      h->fn, "dNNNNNN", t, PyMemoryView_FromMemory((char *)x, nv, PyBUF_READ),
      PyMemoryView_FromMemory((char *)xdot, nv, PyBUF_READ),
      PyMemoryView_FromMemory((char *)p, (Py_ssize_t)(4 * N * sizeof(double)), PyBUF_READ),
      PyMemoryView_FromMemory((char *)Omega, ns, PyBUF_READ),
      PyMemoryView_FromMemory((char *)f, nv, PyBUF_WRITE),
      PyMemoryView_FromMemory((char *)m, ns, PyBUF_WRITE));
  int rc = 0;
  if (!res) {
    PyErr_Fetch(&h->et, &h->ev, &h->tb);
    h->failed = 1;
    rc = -1;
  } else {
    Py_DECREF(res);
  }
  PyGILState_Release(g);
  return rc;
}

/* An exception raised by a load callback, if any: restored, returns 1. */
static int restore_hook_error(SimObject *self) {
  size_t n = cosrod_sim_nrods(self->sim);
  for (size_t k = 0; k < n; k++) {
    load_hook *h = &self->hooks[k];
    if (h->failed) {
      PyErr_Restore(h->et, h->ev, h->tb);
      h->et = h->ev = h->tb = NULL;
      h->failed = 0;
      return 1;
    }
  }
  return 0;
}

/* set_load(rod, fn or None) -> status */
static PyObject *Sim_set_load(SimObject *self, PyObject *args) {
  Py_ssize_t k;
  PyObject *fn;
  if (!PyArg_ParseTuple(args, "nO", &k, &fn)) return NULL;
  if (k < 0 || (size_t)k >= cosrod_sim_nrods(self->sim)) {
    PyErr_SetString(PyExc_IndexError, "rod index out of range");
    return NULL;
  }
  if (fn != Py_None && !PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "the load must be callable or None");
    return NULL;
  }
  load_hook *h = &self->hooks[k];
  PyObject *old = h->fn;
  h->fn = fn == Py_None ? NULL : fn;
  Py_XINCREF(h->fn);
  cosrod_status st = cosrod_sim_set_load_fn(self->sim, (size_t)k, h->fn ? py_load : NULL, h->fn ? h : NULL);
  if (st != COSROD_OK) {
    /* the new load failed at t = 0: the previous one (or none) is set again,
     * so the Sim stays usable (the library keeps the failed callback) */
    PyObject *et = NULL, *ev = NULL, *tb = NULL;
    if (h->failed) et = h->et, ev = h->ev, tb = h->tb, h->et = h->ev = h->tb = NULL, h->failed = 0;
    Py_XDECREF(h->fn);
    h->fn = old;
    if (st == COSROD_ERR_CALLBACK)
      cosrod_sim_set_load_fn(self->sim, (size_t)k, h->fn ? py_load : NULL, h->fn ? h : NULL);
    if (et || ev) {
      PyErr_Restore(et, ev, tb);
      return NULL;
    }
    PyErr_Format(PyExc_RuntimeError, "cannot set the load (%s): before run / advance only",
                 cosrod_strerror(st));
    return NULL;
  }
  Py_XDECREF(old);
  Py_RETURN_NONE;
}

/* get_state() -> (t, bytearray y) */
static PyObject *Sim_get_state(SimObject *self, PyObject *unused) {
  (void)unused;
  return Py_BuildValue("(dN)", cosrod_sim_t(self->sim),
                       cosrod_py_bytes(cosrod_sim_state(self->sim), (size_t)cosrod_sim_ny(self->sim)));
}

/* set_state(t, buffer of ny doubles) -> status */
static PyObject *Sim_set_state(SimObject *self, PyObject *args) {
  double t;
  Py_buffer b;
  if (!PyArg_ParseTuple(args, "dy*", &t, &b)) return NULL;
  if (b.len != (Py_ssize_t)((size_t)cosrod_sim_ny(self->sim) * sizeof(double))) {
    PyBuffer_Release(&b);
    PyErr_Format(PyExc_ValueError, "state must have %d values", cosrod_sim_ny(self->sim));
    return NULL;
  }
  if (begin_busy(self) != 0) {
    PyBuffer_Release(&b);
    return NULL;
  }
  cosrod_status st = cosrod_sim_set_state(self->sim, t, (const double *)b.buf);
  self->busy = 0;
  PyBuffer_Release(&b);
  return Py_BuildValue("(is)", (int)st, cosrod_strerror(st));
}

/* frame(rod) -> bytearray of one rod block at the current (last evaluated) state */
static PyObject *Sim_frame(SimObject *self, PyObject *args) {
  Py_ssize_t k;
  if (!PyArg_ParseTuple(args, "n", &k)) return NULL;
  if (k < 0 || (size_t)k >= cosrod_sim_nrods(self->sim)) {
    PyErr_SetString(PyExc_IndexError, "rod index out of range");
    return NULL;
  }
  size_t N = (size_t)cosrod_rod_nseg(cosrod_sim_rod(self->sim, (size_t)k));
  PyObject *b = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(cosrod_py_rod_block(N) * sizeof(double)));
  if (!b) return NULL;
  cosrod_py_copy_rod_frame((double *)PyByteArray_AS_STRING(b), cosrod_sim_rod_data(self->sim, (size_t)k), N);
  return b;
}

static PyObject *Sim_info(SimObject *self, PyObject *unused) {
  (void)unused;
  size_t nrods = cosrod_sim_nrods(self->sim);
  PyObject *grids = PyList_New((Py_ssize_t)nrods);
  if (!grids) return NULL;
  for (size_t k = 0; k < nrods; k++) {
    const cosrod_rod *rod = cosrod_sim_rod(self->sim, k);
    PyObject *g = cosrod_py_bytes(cosrod_rod_grid(rod), (size_t)cosrod_rod_nseg(rod) + 1);
    if (!g) {
      Py_DECREF(grids);
      return NULL;
    }
    PyList_SET_ITEM(grids, (Py_ssize_t)k, g);
  }
  return Py_BuildValue("{s:n,s:i,s:N,s:s}", "nrods", (Py_ssize_t)nrods, "ny", cosrod_sim_ny(self->sim),
                       "grids", grids, "integrator", cosrod_sim_integrator_name(self->sim));
}

static PyObject *Sim_energy(SimObject *self, PyObject *unused) {
  (void)unused;
  cosrod_sim_energy e = cosrod_sim_energy_now(self->sim);
  return Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:d}", "kinetic", e.kinetic, "elastic", e.elastic, "gravity",
                       e.gravity, "external_work", e.external_work, "dissipated", e.dissipated, "balance",
                       e.balance);
}

static PyObject *Sim_stats(SimObject *self, PyObject *unused) {
  (void)unused;
  return stats_dict(cosrod_sim_stats(self->sim));
}

static PyObject *Sim_t(SimObject *self, PyObject *unused) {
  (void)unused;
  return PyFloat_FromDouble(cosrod_sim_t(self->sim));
}

static PyMethodDef Sim_methods[] = {
    {"run", (PyCFunction)Sim_run, METH_VARARGS,
     "run(record, observer, progress, catch_sigint, output, scenario_file[, resume]) -> dict"},
    {"advance", (PyCFunction)Sim_advance, METH_VARARGS,
     "advance(t, catch_sigint) -> (status, name, message)"},
    {"set_load", (PyCFunction)Sim_set_load, METH_VARARGS, "set_load(rod, fn or None)"},
    {"get_state", (PyCFunction)Sim_get_state, METH_NOARGS, "(t, bytearray y)"},
    {"set_state", (PyCFunction)Sim_set_state, METH_VARARGS, "set_state(t, y) -> (status, name)"},
    {"frame", (PyCFunction)Sim_frame, METH_VARARGS, "frame(rod) -> bytearray (one rod block)"},
    {"info", (PyCFunction)Sim_info, METH_NOARGS, "dict"},
    {"energy", (PyCFunction)Sim_energy, METH_NOARGS, "dict"},
    {"stats", (PyCFunction)Sim_stats, METH_NOARGS, "dict"},
    {"t", (PyCFunction)Sim_t, METH_NOARGS, "current time"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SimType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cosrod._cosrod.Sim",
    .tp_basicsize = sizeof(SimObject),
    .tp_dealloc = (destructor)Sim_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "simulation of a scenario (use cosrod.Sim)",
    .tp_methods = Sim_methods,
    .tp_new = Sim_new,
};

static PyObject *mod_set_errors(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "OO", &a, &b)) return NULL;
  Py_XDECREF(cosrod_py_g_scenario_error);
  Py_XDECREF(g_cosrod_error);
  Py_INCREF(a);
  Py_INCREF(b);
  cosrod_py_g_scenario_error = a;
  g_cosrod_error = b;
  Py_RETURN_NONE;
}

/* view_write(dir, html or None, max_bytes) -> note: cosrod_view_write (DIR/view.html). */
static PyObject *mod_view_write(PyObject *m, PyObject *args) {
  (void)m;
  const char *dir, *html = NULL;
  Py_ssize_t max_bytes = 0;
  if (!PyArg_ParseTuple(args, "sz|n", &dir, &html, &max_bytes)) return NULL;
  char msg[1024];
  cosrod_status st;
  Py_BEGIN_ALLOW_THREADS st = cosrod_view_write(dir, html, max_bytes > 0 ? (size_t)max_bytes : 0, msg, sizeof msg);
  Py_END_ALLOW_THREADS if (st != COSROD_OK) {
    PyErr_SetString(g_cosrod_error ? g_cosrod_error : PyExc_RuntimeError, msg[0] ? msg : cosrod_strerror(st));
    return NULL;
  }
  return PyUnicode_FromString(msg);
}

/* A rod without a section (stiffness values given): the display radius
 * 2 sqrt(EI / EA), EI = sqrt(EI1 EI2), of the solid circle with the rod's
 * I / A = r^2 / 4, marked "derived" (as scene.json of `cosrod run`). */
static PyObject *section_derived(const cosrod_sc_rod *R) {
  const double EI = sqrt(R->EI1 * R->EI2);
  const double r = R->EA > 0.0 && EI > 0.0 ? 2.0 * sqrt(EI / R->EA) : 0.0;
  return Py_BuildValue("{s:s,s:d,s:d,s:s}", "shape", "circle", "radius", r, "area", 0.0, "derived", "2 sqrt(EI / EA)");
}

/* section_info(scenario) -> ([{"shape", "radius" | "width", "height" | "outer_radius", "inner_radius"}], gravity,
 * [{"name", "mass", "inertia"}] of the bodies) */
static PyObject *mod_section_info(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *o;
  if (!PyArg_ParseTuple(args, "O!", &cosrod_py_scenario_type, &o)) return NULL;
  const cosrod_scenario *sc = ((ScenarioObject *)o)->sc;
  PyObject *list = PyList_New((Py_ssize_t)sc->nrods);
  if (!list) return NULL;
  for (size_t r = 0; r < sc->nrods; r++) {
    const cosrod_sc_section *x = &sc->rods[r].section;
    PyObject *d = x->shape == COSROD_SC_SECTION_RECTANGLE
                      ? Py_BuildValue("{s:s,s:d,s:d}", "shape", "rectangle", "width", x->width, "height", x->height)
                  : x->shape == COSROD_SC_SECTION_TUBE
                      ? Py_BuildValue("{s:s,s:d,s:d}", "shape", "tube", "outer_radius", x->outer_radius,
                                      "inner_radius", x->inner_radius)
                  : x->shape == COSROD_SC_SECTION_CIRCLE && x->radius == 0.0 && x->area == 0.0
                      ? section_derived(&sc->rods[r])
                  : x->shape == COSROD_SC_SECTION_CIRCLE
                      ? Py_BuildValue("{s:s,s:d}", "shape", "circle", "radius", x->radius)
                      : Py_BuildValue("{s:s,s:d}", "shape", "circle", "radius", cosrod_sc_section_radius(x));
    if (!d) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)r, d);
  }
  PyObject *bodies = PyList_New((Py_ssize_t)sc->nbodies);
  if (!bodies) {
    Py_DECREF(list);
    return NULL;
  }
  for (size_t b = 0; b < sc->nbodies; b++) {
    const cosrod_sc_body *B = &sc->bodies[b];
    PyObject *d = Py_BuildValue("{s:s,s:d,s:[ddd]}", "name", B->name, "mass", B->mass, "inertia", B->inertia[0],
                                B->inertia[1], B->inertia[2]);
    if (!d) {
      Py_DECREF(list), Py_DECREF(bodies);
      return NULL;
    }
    PyList_SET_ITEM(bodies, (Py_ssize_t)b, d);
  }
  return Py_BuildValue("(N(ddd)N)", list, sc->gravity[0], sc->gravity[1], sc->gravity[2], bodies);
}

/* checkpoint_scenario(dir) -> (yaml, file): the scenario stored in dir's
 * restart checkpoint (cosrod_recorder_checkpoint_scenario). */
static PyObject *mod_checkpoint_scenario(PyObject *mod, PyObject *args) {
  (void)mod;
  const char *dir;
  if (!PyArg_ParseTuple(args, "s", &dir)) return NULL;
  char *yaml = NULL, *file = NULL, msg[1200] = "";
  if (cosrod_recorder_checkpoint_scenario(dir, &yaml, &file, msg, sizeof msg) != COSROD_OK) {
    PyErr_SetString(g_cosrod_error ? g_cosrod_error : PyExc_OSError, msg);
    return NULL;
  }
  PyObject *r = Py_BuildValue("(ss)", yaml, file);
  free(yaml);
  free(file);
  return r;
}

static PyMethodDef mod_methods[] = {
    {"checkpoint_scenario", mod_checkpoint_scenario, METH_VARARGS, "checkpoint_scenario(dir) -> (yaml, file)"},
    {"view_write", mod_view_write, METH_VARARGS, "view_write(dir, html, max_bytes) -> note"},
    {"section_info", mod_section_info, METH_VARARGS, "section_info(scenario) -> (sections, gravity)"},
    {"load", cosrod_py_load, METH_VARARGS, "load(path, sets) -> Scenario"},
    {"parse", cosrod_py_parse, METH_VARARGS, "parse(text, name) -> Scenario"},
    {"_set_errors", mod_set_errors, METH_VARARGS, "register the exception classes"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_cosrod", "cosrod C extension", -1, mod_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cosrod(void) {
  if (PyType_Ready(&cosrod_py_scenario_type) < 0 || PyType_Ready(&SimType) < 0) return NULL;
  PyObject *m = PyModule_Create(&moddef);
  if (!m) return NULL;
  Py_INCREF(&cosrod_py_scenario_type);
  Py_INCREF(&SimType);
  if (PyModule_AddObject(m, "Scenario", (PyObject *)&cosrod_py_scenario_type) < 0 ||
      PyModule_AddObject(m, "Sim", (PyObject *)&SimType) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
