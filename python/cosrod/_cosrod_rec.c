// SPDX-License-Identifier: Apache-2.0
/* The recording of a Python run (see _cosrod_rec.h). */
#include "_cosrod_rec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/rod.h"

/* Per rod and frame one block of doubles: x (N+1)x3 | p Nx4 | Gamma Nx3 |
 * F Nx3 | K (N+1)x3 | M (N+1)x3. */
static void record_contacts(rec *r, const cosrod_sim *sim, double t, size_t f);

size_t cosrod_py_rod_block(size_t N) { return 9 * (N + 1) + 10 * N; }

void cosrod_py_rec_free(rec *r) {
  if (r->rod)
    for (size_t k = 0; k < r->nrods; k++) free(r->rod[k]);
  free(r->rod);
  free(r->N);
  free(r->t);
  free(r->energy);
  free(r->steps);
  free(r->inc);
  free(r->body);
  free(r->joint);
  free(r->reac);
  free(r->obs);
  free(r->cpt);
  memset(r, 0, sizeof *r);
}

int cosrod_py_grow(double **p, size_t *cap, size_t need, size_t width) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? 2 * *cap : 64;
  while (nc < need) nc *= 2;
  double *q = realloc(*p, nc * width * sizeof *q);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

int cosrod_py_rec_frame_grow(rec *r) {
  if (r->nframes < r->cap) return 0;
  size_t nc = r->cap ? 2 * r->cap : 64;
  double *t = realloc(r->t, nc * sizeof *t);
  if (!t) return -1;
  r->t = t;
  double *e = realloc(r->energy, nc * 6 * sizeof *e);
  if (!e) return -1;
  r->energy = e;
  for (size_t k = 0; k < r->nrods; k++) {
    double *b = realloc(r->rod[k], nc * cosrod_py_rod_block(r->N[k]) * sizeof *b);
    if (!b) return -1;
    r->rod[k] = b;
  }
  double *b = realloc(r->body, (nc * r->nbodies * BODY_COLS + 1) * sizeof *b);
  if (!b) return -1;
  r->body = b;
  double *j = realloc(r->joint, (nc * r->njoints * 6 + 1) * sizeof *j);
  if (!j) return -1;
  r->joint = j;
  double *q = realloc(r->reac, (nc * r->nrods * 12 + 1) * sizeof *q);
  if (!q) return -1;
  r->reac = q;
  double *ob = realloc(r->obs, (nc * r->nobs * 6 + 1) * sizeof *ob);
  if (!ob) return -1;
  r->obs = ob;
  r->cap = nc;
  return 0;
}

void cosrod_py_copy_rod_frame(double *b, const cosrod_rod_data *d, size_t N) {
  size_t o = 0;
  memcpy(b + o, d->x, 3 * (N + 1) * sizeof *b), o += 3 * (N + 1);
  memcpy(b + o, d->p, 4 * N * sizeof *b), o += 4 * N;
  memcpy(b + o, d->Gamma, 3 * N * sizeof *b), o += 3 * N;
  memcpy(b + o, d->F, 3 * N * sizeof *b), o += 3 * N;
  memcpy(b + o, d->K, 3 * (N + 1) * sizeof *b), o += 3 * (N + 1);
  memcpy(b + o, d->M, 3 * (N + 1) * sizeof *b);
}

/* Frame f's bodies, joint wrenches and rod-end reactions (the rows of
 * bodies.csv, joints.csv and reactions.csv). */
void cosrod_py_record_bodies(rec *r, const cosrod_sim *sim, const cosrod_recorder *files, size_t f) {
  const cosrod_scenario *sc = cosrod_sim_scenario(sim);
  if (r->contact) record_contacts(r, sim, r->t[f], f);
  for (size_t b = 0; b < r->nbodies; b++) {
    double *o = r->body + (f * r->nbodies + b) * BODY_COLS;
    for (int i = 0; i < BODY_COLS; i++) o[i] = NAN;
    if (cosrod_sim_body(sim, b, o, o + 3, o + 7) != COSROD_OK || cosrod_sim_body_velocity(sim, b, o + 10) != COSROD_OK)
      continue;
    cosrod_sc_body_energy(&sc->bodies[b], sc->gravity, o, o + 10, o + 7, o + 13, o + 14);
  }
  double *jo = r->joint + f * r->njoints * 6;
  if (r->njoints > 0 && cosrod_sim_joint_reactions(sim, jo) != COSROD_OK)
    for (size_t i = 0; i < 6 * r->njoints; i++) jo[i] = NAN;
  for (size_t k = 0; k < r->nrods; k++) {
    double *o = r->reac + (f * r->nrods + k) * 12;
    int sup[2] = {0, 0};
    cosrod_status st = files ? cosrod_recorder_reactions(files, k, o, sup) /* already evaluated for the files */
                             : cosrod_sim_reactions(sim, k, o, sup);
    if (st != COSROD_OK) sup[0] = sup[1] = 0;
    for (int e = 0; e < 2; e++)
      if (!sup[e])
        for (int i = 0; i < 6; i++) o[6 * e + i] = NAN;
  }
}

/* Frame f's contact points and obstacle wrenches (contacts.csv,
 * obstacles.csv; moments about each obstacle's pose position). */
static void record_contacts(rec *r, const cosrod_sim *sim, double t, size_t f) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  for (size_t k = 0; k < r->nobs; k++) {
    double *o = r->obs + (f * r->nobs + k) * 6;
    for (int i = 0; i < 6; i++) o[i] = d ? 0.0 : NAN;
    if (d) cosrod_contact_obstacle_wrench(d, (int)k, o, o + 3);
  }
  if (!d) return;
  size_t n = cosrod_contact_npoints(d);
  if (cosrod_py_grow(&r->cpt, &r->ccap, r->ncpt + n, CPT_COLS) != 0) {
    r->nomem = 1;
    return;
  }
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0; i < n; i++, p++) {
    double *o = r->cpt + (r->ncpt++) * CPT_COLS;
    o[0] = t, o[1] = p->rod, o[2] = p->segment, o[3] = p->other_kind, o[4] = p->other, o[5] = p->other_segment;
    memcpy(o + 6, p->point, 3 * sizeof *o);
    memcpy(o + 9, p->normal, 3 * sizeof *o);
    o[12] = p->gap, o[13] = p->fn;
    memcpy(o + 14, p->ft, 3 * sizeof *o);
    o[17] = p->slip;
  }
}

PyObject *cosrod_py_bytes(const double *p, size_t n) {
  return PyByteArray_FromStringAndSize((const char *)p, (Py_ssize_t)(n * sizeof *p));
}

/* Per-mode lists of a modal / buckling result: rod index, type ("bending",
 * ...), load factor (buckling; NaN otherwise). */
int cosrod_py_mode_info(PyObject *modes, const cosrod_sim *sim, const double *load) {
  int nm = cosrod_sim_nmodes(sim);
  PyObject *rod = PyList_New(nm), *type = PyList_New(nm);
  if (!rod || !type) goto fail;
  for (int i = 0; i < nm; i++) {
    const char *ty = NULL;
    int gr = 0;
    cosrod_sim_mode_info(sim, i, &ty, &gr);
    PyList_SET_ITEM(rod, i, PyLong_FromSize_t(cosrod_sim_mode_rod(sim, i)));
    PyList_SET_ITEM(type, i, PyUnicode_FromString(ty ? ty : ""));
  }
  PyObject *lf = cosrod_py_bytes(load, (size_t)nm);
  int rc = lf ? 0 : -1;
  if (rc == 0) rc = PyDict_SetItemString(modes, "rod", rod);
  if (rc == 0) rc = PyDict_SetItemString(modes, "type", type);
  if (rc == 0) rc = PyDict_SetItemString(modes, "load_factor", lf);
  Py_XDECREF(lf);
  Py_DECREF(rod);
  Py_DECREF(type);
  return rc;
fail:
  Py_XDECREF(rod);
  Py_XDECREF(type);
  return -1;
}

/* bodies (names, frames x bodies x BODY_COLS), joints (scenario indices,
 * frames x joints x 6) and reactions (frames x rods x 12) into out. */
int cosrod_py_add_bodies(PyObject *out, const rec *r, const cosrod_scenario *sc) {
  const double *empty = (const double *)"";
  PyObject *names = PyList_New((Py_ssize_t)r->nbodies), *jidx = PyList_New((Py_ssize_t)r->njoints);
  if (!names || !jidx) goto fail;
  for (size_t b = 0; b < r->nbodies; b++)
    PyList_SET_ITEM(names, (Py_ssize_t)b, PyUnicode_FromString(b < sc->nbodies && sc->bodies[b].name ? sc->bodies[b].name : ""));
  for (size_t j = 0, k = 0; j < sc->njoints && k < r->njoints; j++)
    if (sc->joints[j].type != COSROD_SC_JOINT_BUSHING) PyList_SET_ITEM(jidx, (Py_ssize_t)k++, PyLong_FromSize_t(j));
  PyObject *v = Py_BuildValue("{s:N,s:N,s:N,s:N,s:N}", "body_names", names, "bodies",
                              cosrod_py_bytes(r->body ? r->body : empty, r->nframes * r->nbodies * BODY_COLS), "joint_index",
                              jidx, "joints", cosrod_py_bytes(r->joint ? r->joint : empty, r->nframes * r->njoints * 6),
                              "reactions", cosrod_py_bytes(r->reac ? r->reac : empty, r->nframes * r->nrods * 12));
  if (!v) return -1;
  int rc = PyDict_Update(out, v);
  Py_DECREF(v);
  if (rc != 0) return rc;
  if (!r->contact) return PyDict_SetItemString(out, "contact", Py_None);
  PyObject *on = PyList_New((Py_ssize_t)r->nobs);
  if (!on) return -1;
  for (size_t k = 0; k < r->nobs; k++)
    PyList_SET_ITEM(on, (Py_ssize_t)k, PyUnicode_FromString(k < sc->contact.nobstacles ? sc->contact.obstacles[k].name : ""));
  PyObject *c = Py_BuildValue("{s:N,s:N,s:N}", "obstacle_names", on, "obstacles",
                              cosrod_py_bytes(r->obs ? r->obs : empty, r->nframes * r->nobs * 6), "points",
                              cosrod_py_bytes(r->cpt ? r->cpt : empty, r->ncpt * CPT_COLS));
  if (!c) return -1;
  rc = PyDict_SetItemString(out, "contact", c);
  Py_DECREF(c);
  return rc;
fail:
  Py_XDECREF(names);
  Py_XDECREF(jidx);
  return -1;
}


/* The modal / buckling result (None without modes): count, omega,
 * frequency_hz, rod_shapes (per rod: count x (N_r + 1) x 6, each mode's part
 * of that rod, cosrod_sim_mode_rod_shape; zeros where the rod does not move),
 * shapes (= rod_shapes[0]), bodies (count x nbodies x 6, cosrod_sim_mode_body),
 * rod, type, load_factor.  New reference or NULL with an exception set. */
PyObject *cosrod_py_modes(const cosrod_sim *sim, size_t N0) {
  int nm = cosrod_sim_nmodes(sim);
  if (nm <= 0) Py_RETURN_NONE;
  const size_t nr = cosrod_sim_nrods(sim), nb = cosrod_sim_nbodies(sim);
  size_t nmax = N0;
  for (size_t k = 0; k < nr; k++)
    if ((size_t)cosrod_rod_nseg(cosrod_sim_rod(sim, k)) > nmax) nmax = (size_t)cosrod_rod_nseg(cosrod_sim_rod(sim, k));
  double *om = malloc((size_t)nm * 2 * sizeof *om);
  double *buf = calloc((size_t)nm * ((nmax + 1) * 6 + 6 * nb) + 1, sizeof *buf);
  PyObject *rods = PyList_New((Py_ssize_t)nr);
  if (!om || !buf || !rods) {
    free(om), free(buf), Py_XDECREF(rods);
    return PyErr_NoMemory();
  }
  for (int i = 0; i < nm; i++) cosrod_sim_mode(sim, i, om + i, om + nm + i, NULL);
  for (size_t k = 0; k < nr; k++) {
    const size_t n6 = 6 * ((size_t)cosrod_rod_nseg(cosrod_sim_rod(sim, k)) + 1);
    for (int i = 0; i < nm; i++) {
      const double *sh = NULL;
      double *dst = buf + (size_t)i * n6;
      if (cosrod_sim_mode_rod_shape(sim, i, k, &sh) == COSROD_OK && sh)
        memcpy(dst, sh, n6 * sizeof *dst);
      else
        memset(dst, 0, n6 * sizeof *dst);
    }
    PyObject *b = cosrod_py_bytes(buf, (size_t)nm * n6);
    if (!b) {
      free(om), free(buf), Py_DECREF(rods);
      return NULL;
    }
    PyList_SET_ITEM(rods, (Py_ssize_t)k, b);
  }
  for (int i = 0; i < nm; i++)
    for (size_t b = 0; b < nb; b++)
      if (cosrod_sim_mode_body(sim, i, b, buf + ((size_t)i * nb + b) * 6, buf + ((size_t)i * nb + b) * 6 + 3) != COSROD_OK)
        memset(buf + ((size_t)i * nb + b) * 6, 0, 6 * sizeof *buf);
  PyObject *shapes0 = nr ? PyList_GetItem(rods, 0) : NULL;
  Py_XINCREF(shapes0);
  PyObject *modes = Py_BuildValue("{s:i,s:N,s:N,s:N,s:N,s:N}", "count", nm, "omega", cosrod_py_bytes(om, (size_t)nm),
                                  "frequency_hz", cosrod_py_bytes(om + nm, (size_t)nm), "shapes",
                                  shapes0 ? shapes0 : cosrod_py_bytes(buf, 0), "rod_shapes", rods, "bodies",
                                  cosrod_py_bytes(buf, (size_t)nm * nb * 6));
  for (int i = 0; i < nm; i++) om[i] = cosrod_sim_load_factor(sim, i);
  if (modes && cosrod_py_mode_info(modes, sim, om) != 0) Py_CLEAR(modes);
  free(om);
  free(buf);
  return modes;
}
