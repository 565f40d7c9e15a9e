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

#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"
#include "cosrod/view.h"

static PyObject *g_scenario_error; /* set by _set_errors: cosrod.ScenarioError */
static PyObject *g_cosrod_error;   /* cosrod.CosrodError */

static volatile sig_atomic_t g_sigint = 0;
static void on_sigint(int sig) {
  (void)sig;
  g_sigint = 1;
}

/* ---- Scenario ------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD cosrod_scenario *sc;
} ScenarioObject;

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
    PyErr_SetString(PyExc_OSError, "cosrod_scenario_to_yaml failed");
  }
  fclose(f);
  return out;
}

static PyMethodDef Scenario_methods[] = {
    {"info", (PyCFunction)Scenario_info, METH_NOARGS, "dict describing the scenario"},
    {"to_yaml", (PyCFunction)Scenario_to_yaml, METH_NOARGS, "the scenario as YAML text"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ScenarioType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cosrod._cosrod.Scenario",
    .tp_basicsize = sizeof(ScenarioObject),
    .tp_dealloc = (destructor)Scenario_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "validated scenario (use cosrod.load)",
    .tp_methods = Scenario_methods,
};

static PyObject *raise_scenario_error(const char *msg) {
  PyObject *cls = g_scenario_error ? g_scenario_error : PyExc_ValueError;
  PyErr_SetString(cls, msg);
  return NULL;
}

/* load(path, sets) -> Scenario; sets: sequence of "key.path=value" strings. */
static PyObject *mod_load(PyObject *m, PyObject *args) {
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
  char err[1024] = "";
  cosrod_scenario *sc = NULL;
  cosrod_status st;
  Py_BEGIN_ALLOW_THREADS st = cosrod_scenario_load(path, sets, (size_t)n, &sc, err, sizeof err);
  Py_END_ALLOW_THREADS free(sets);
  Py_DECREF(seq);
  if (st == COSROD_ERR_NOMEM) return PyErr_NoMemory();
  if (st != COSROD_OK) return raise_scenario_error(err[0] ? err : cosrod_strerror(st));
  ScenarioObject *o = PyObject_New(ScenarioObject, &ScenarioType);
  if (!o) {
    cosrod_scenario_free(sc);
    return NULL;
  }
  o->sc = sc;
  return (PyObject *)o;
}

/* parse(text, name) -> Scenario: YAML text in memory (cosrod_scenario_parse). */
static PyObject *mod_parse(PyObject *m, PyObject *args) {
  (void)m;
  const char *text, *name;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#s", &text, &len, &name)) return NULL;
  char err[1024] = "";
  cosrod_scenario *sc = NULL;
  cosrod_status st;
  Py_BEGIN_ALLOW_THREADS st = cosrod_scenario_parse(text, (size_t)len, name, NULL, 0, &sc, err, sizeof err);
  Py_END_ALLOW_THREADS if (st == COSROD_ERR_NOMEM) return PyErr_NoMemory();
  if (st != COSROD_OK) return raise_scenario_error(err[0] ? err : cosrod_strerror(st));
  ScenarioObject *o = PyObject_New(ScenarioObject, &ScenarioType);
  if (!o) {
    cosrod_scenario_free(sc);
    return NULL;
  }
  o->sc = sc;
  return (PyObject *)o;
}

/* ---- recording ------------------------------------------------------------ */

/* Per rod and frame one block of doubles: x (N+1)x3 | p Nx4 | Gamma Nx3 |
 * F Nx3 | K (N+1)x3 | M (N+1)x3. */
static size_t rod_block(size_t N) { return 9 * (N + 1) + 10 * N; }

typedef struct rec {
  size_t nrods;
  size_t *N; /* (nrods) segments */
  size_t nframes, cap;
  double *t;      /* (cap) */
  double *energy; /* (cap x 6) kinetic, elastic, gravity, external_work, dissipated, balance */
  double **rod;   /* (nrods) (cap x rod_block) */
  size_t nsteps, scap;
  double *steps; /* (scap x 3) t, h, accepted */
  size_t ninc, icap;
  double *inc; /* (icap x 3) t, iterations, residual */
  int nomem;
} rec;

static void rec_free(rec *r) {
  if (r->rod)
    for (size_t k = 0; k < r->nrods; k++) free(r->rod[k]);
  free(r->rod);
  free(r->N);
  free(r->t);
  free(r->energy);
  free(r->steps);
  free(r->inc);
  memset(r, 0, sizeof *r);
}

static int grow(double **p, size_t *cap, size_t need, size_t width) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? 2 * *cap : 64;
  while (nc < need) nc *= 2;
  double *q = realloc(*p, nc * width * sizeof *q);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

static int rec_frame_grow(rec *r) {
  if (r->nframes < r->cap) return 0;
  size_t nc = r->cap ? 2 * r->cap : 64;
  double *t = realloc(r->t, nc * sizeof *t);
  if (!t) return -1;
  r->t = t;
  double *e = realloc(r->energy, nc * 6 * sizeof *e);
  if (!e) return -1;
  r->energy = e;
  for (size_t k = 0; k < r->nrods; k++) {
    double *b = realloc(r->rod[k], nc * rod_block(r->N[k]) * sizeof *b);
    if (!b) return -1;
    r->rod[k] = b;
  }
  r->cap = nc;
  return 0;
}

static void copy_rod_frame(double *b, const cosrod_rod_data *d, size_t N) {
  size_t o = 0;
  memcpy(b + o, d->x, 3 * (N + 1) * sizeof *b), o += 3 * (N + 1);
  memcpy(b + o, d->p, 4 * N * sizeof *b), o += 4 * N;
  memcpy(b + o, d->Gamma, 3 * N * sizeof *b), o += 3 * N;
  memcpy(b + o, d->F, 3 * N * sizeof *b), o += 3 * N;
  memcpy(b + o, d->K, 3 * (N + 1) * sizeof *b), o += 3 * (N + 1);
  memcpy(b + o, d->M, 3 * (N + 1) * sizeof *b);
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
  int record;
  PyObject *observer; /* callable(t) or NULL */
  int py_failed;      /* the observer raised: the exception is saved below */
  PyObject *exc_type, *exc_value, *exc_tb;
  int progress;
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
  if (c->record) {
    rec *r = &c->r;
    if (rec_frame_grow(r) != 0) {
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
      copy_rod_frame(r->rod[k] + f * rod_block(r->N[k]), cosrod_sim_rod_data(sim, k), r->N[k]);
    r->nframes++;
  }
  return c->observer ? call_observer(c, t) : 0;
}

static void draw_progress(run_ctx *c, double t, int force) {
  double now = wall_now();
  if (!c->progress || (!force && now - c->last_draw < 0.2)) return;
  c->last_draw = now;
  fprintf(stderr, "\rcosrod: t = %.4g / %g  (%.1f s)\033[K", t, c->t_end, now - c->wall0);
  fflush(stderr);
  c->drawn = 1;
}

static int on_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  (void)sim;
  run_ctx *c = user;
  if (c->record) {
    rec *r = &c->r;
    if (grow(&r->steps, &r->scap, r->nsteps + 1, 3) != 0) {
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
  (void)sim;
  run_ctx *c = user;
  if (c->record) {
    rec *r = &c->r;
    if (grow(&r->inc, &r->icap, r->ninc + 1, 3) != 0) {
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
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!", kwlist, &ScenarioType, &scen)) return NULL;
  char err[1024] = "";
  cosrod_status st = COSROD_OK;
  cosrod_sim *sim;
  Py_BEGIN_ALLOW_THREADS sim = cosrod_sim_create(((ScenarioObject *)scen)->sc, &st, err, sizeof err);
  Py_END_ALLOW_THREADS if (!sim) {
    if (st == COSROD_ERR_NOMEM) return PyErr_NoMemory();
    return raise_scenario_error(err[0] ? err : cosrod_strerror(st));
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

static PyObject *bytes_of(const double *p, size_t n) {
  return PyByteArray_FromStringAndSize((const char *)p, (Py_ssize_t)(n * sizeof *p));
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

/* run(record, observer, progress, catch_sigint) -> dict with the recording
 * (bytearrays), status, message, stats, modes; raises KeyboardInterrupt or
 * the observer's exception. */
static PyObject *Sim_run(SimObject *self, PyObject *args) {
  int record = 1, progress = 0, catch_sigint = 0;
  PyObject *observer = Py_None;
  if (!PyArg_ParseTuple(args, "pOpp", &record, &observer, &progress, &catch_sigint)) return NULL;
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
  c.wall0 = c.last_draw = wall_now();
  const cosrod_scenario *sc = cosrod_sim_scenario(self->sim);
  c.t_end = sc->analysis.t_end;
  size_t nrods = cosrod_sim_nrods(self->sim);
  c.r.nrods = nrods;
  c.r.N = calloc(nrods ? nrods : 1, sizeof *c.r.N);
  c.r.rod = calloc(nrods ? nrods : 1, sizeof *c.r.rod);
  if (!c.r.N || !c.r.rod) {
    rec_free(&c.r);
    self->busy = 0;
    return PyErr_NoMemory();
  }
  for (size_t k = 0; k < nrods; k++) c.r.N[k] = (size_t)cosrod_rod_nseg(cosrod_sim_rod(self->sim, k));
  self->stop = 0;
  cosrod_sim_observer obs = {on_frame, on_step, &c, catch_sigint ? &g_sigint : &self->stop, on_increment};
  sig_guard g;
  sig_begin(&g, catch_sigint);
  cosrod_status st;
  Py_BEGIN_ALLOW_THREADS st = cosrod_sim_run(self->sim, &obs);
  Py_END_ALLOW_THREADS int interrupted = sig_end(&g);
  if (c.drawn) fprintf(stderr, "\r\033[K");
  self->busy = 0;
  if (restore_hook_error(self)) {
    rec_free(&c.r);
    return NULL;
  }
  if (c.py_failed) {
    rec_free(&c.r);
    PyErr_Restore(c.exc_type, c.exc_value, c.exc_tb);
    return NULL;
  }
  if (interrupted && st == COSROD_ERR_INTERRUPTED) {
    rec_free(&c.r);
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    return NULL;
  }
  if (c.r.nomem) {
    rec_free(&c.r);
    return PyErr_NoMemory();
  }
  PyObject *rods = PyList_New((Py_ssize_t)nrods);
  PyObject *out = NULL;
  if (!rods) goto done;
  for (size_t k = 0; k < nrods; k++) {
    PyObject *b = bytes_of(c.r.rod[k] ? c.r.rod[k] : (const double *)"", c.r.nframes * rod_block(c.r.N[k]));
    if (!b) goto done;
    PyList_SET_ITEM(rods, (Py_ssize_t)k, b);
  }
  int nm = cosrod_sim_nmodes(self->sim);
  PyObject *modes = Py_None;
  Py_INCREF(modes);
  if (nm > 0) {
    size_t N0 = c.r.N[0];
    double *om = malloc((size_t)nm * 2 * sizeof *om);
    const double *shape0 = NULL;
    if (!om) goto done;
    for (int i = 0; i < nm; i++) {
      const double *sh;
      cosrod_sim_mode(self->sim, i, om + i, om + nm + i, &sh);
      if (i == 0) shape0 = sh;
    }
    Py_DECREF(modes);
    modes =
        Py_BuildValue("{s:i,s:N,s:N,s:N}", "count", nm, "omega", bytes_of(om, (size_t)nm), "frequency_hz",
                      bytes_of(om + nm, (size_t)nm), "shapes", bytes_of(shape0, (size_t)nm * (N0 + 1) * 6));
    free(om);
    if (!modes) goto done;
  }
  const double *empty = (const double *)"";
  out = Py_BuildValue("{s:i,s:s,s:s,s:d,s:d,s:n,s:N,s:N,s:N,s:N,s:N,s:N,s:s,s:N}", "status", (int)st,
                      "status_name", cosrod_strerror(st), "message", cosrod_sim_message(self->sim),
                      "t_reached", cosrod_sim_t(self->sim), "t_failed", cosrod_sim_fail_time(self->sim),
                      "nframes", (Py_ssize_t)c.r.nframes, "t", bytes_of(c.r.t ? c.r.t : empty, c.r.nframes),
                      "energy", bytes_of(c.r.energy ? c.r.energy : empty, 6 * c.r.nframes), "rods", rods,
                      "steps", bytes_of(c.r.steps ? c.r.steps : empty, 3 * c.r.nsteps), "increments",
                      bytes_of(c.r.inc ? c.r.inc : empty, 3 * c.r.ninc), "stats",
                      stats_dict(cosrod_sim_stats(self->sim)), "integrator",
                      cosrod_sim_integrator_name(self->sim), "modes", modes);
  rods = NULL; /* stolen */
done:
  Py_XDECREF(rods);
  rec_free(&c.r);
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
    Py_XDECREF(h->fn);
    h->fn = old;
    if (restore_hook_error(self)) return NULL;
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
                       bytes_of(cosrod_sim_state(self->sim), (size_t)cosrod_sim_ny(self->sim)));
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
  PyObject *b = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(rod_block(N) * sizeof(double)));
  if (!b) return NULL;
  copy_rod_frame((double *)PyByteArray_AS_STRING(b), cosrod_sim_rod_data(self->sim, (size_t)k), N);
  return b;
}

static PyObject *Sim_info(SimObject *self, PyObject *unused) {
  (void)unused;
  size_t nrods = cosrod_sim_nrods(self->sim);
  PyObject *grids = PyList_New((Py_ssize_t)nrods);
  if (!grids) return NULL;
  for (size_t k = 0; k < nrods; k++) {
    const cosrod_rod *rod = cosrod_sim_rod(self->sim, k);
    PyObject *g = bytes_of(cosrod_rod_grid(rod), (size_t)cosrod_rod_nseg(rod) + 1);
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
    {"run", (PyCFunction)Sim_run, METH_VARARGS, "run(record, observer, progress, catch_sigint) -> dict"},
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
  Py_XDECREF(g_scenario_error);
  Py_XDECREF(g_cosrod_error);
  Py_INCREF(a);
  Py_INCREF(b);
  g_scenario_error = a;
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

/* section_info(scenario) -> ([{"shape", "radius" | "width", "height" | "outer_radius", "inner_radius"}], gravity) */
static PyObject *mod_section_info(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *o;
  if (!PyArg_ParseTuple(args, "O!", &ScenarioType, &o)) return NULL;
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
                  : x->shape == COSROD_SC_SECTION_CIRCLE
                      ? Py_BuildValue("{s:s,s:d}", "shape", "circle", "radius", x->radius)
                      : Py_BuildValue("{s:s,s:d}", "shape", "circle", "radius", sqrt(x->area / 3.14159265358979323846));
    if (!d) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)r, d);
  }
  return Py_BuildValue("(N(ddd))", list, sc->gravity[0], sc->gravity[1], sc->gravity[2]);
}

static PyMethodDef mod_methods[] = {
    {"view_write", mod_view_write, METH_VARARGS, "view_write(dir, html, max_bytes) -> note"},
    {"section_info", mod_section_info, METH_VARARGS, "section_info(scenario) -> (sections, gravity)"},
    {"load", mod_load, METH_VARARGS, "load(path, sets) -> Scenario"},
    {"parse", mod_parse, METH_VARARGS, "parse(text, name) -> Scenario"},
    {"_set_errors", mod_set_errors, METH_VARARGS, "register the exception classes"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_cosrod", "cosrod C extension", -1, mod_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cosrod(void) {
  if (PyType_Ready(&ScenarioType) < 0 || PyType_Ready(&SimType) < 0) return NULL;
  PyObject *m = PyModule_Create(&moddef);
  if (!m) return NULL;
  Py_INCREF(&ScenarioType);
  Py_INCREF(&SimType);
  if (PyModule_AddObject(m, "Scenario", (PyObject *)&ScenarioType) < 0 ||
      PyModule_AddObject(m, "Sim", (PyObject *)&SimType) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
