// SPDX-License-Identifier: Apache-2.0
// A cosrod output directory as the viewer uses it: the files' texts
// ({"summary.json": "...", "centerline.csv": "...", ...}) turned into
// per-rod arrays indexed by output frame.  Required: summary.json and, for
// anything with rods, centerline.csv; every other file is optional and its
// absence only removes what it would show (noted in run.notes).
import { parseCSV, requireColumns, ViewerDataError } from './csv.js';
import { checkShape, loadContacts, loadObstacles } from './extras.js';

export { ViewerDataError };

function parseJSON(text, name) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ViewerDataError(`${name}: not valid JSON (${e.message}) — truncated?`);
  }
}

// Distinct times of a long-format table in file order, and for every row
// the index of its time in `times` (rows of one time are consecutive).
function groupTimes(tab) {
  const t = tab.cols.t;
  const times = [];
  const rowFrame = new Int32Array(tab.n);
  for (let i = 0; i < tab.n; i++) {
    if (i === 0 || t[i] !== t[i - 1]) times.push(t[i]);
    rowFrame[i] = times.length - 1;
  }
  return { times, rowFrame };
}

// Fill per-rod arrays out[rod] (nt * count * width) from the columns `names`
// of table tab, item column `itemCol`; rows at times not in tIndex are ignored.
function scatter(tab, tIndex, itemCol, names, out, count, width) {
  const t = tab.cols.t, rod = tab.cols.rod, item = tab.cols[itemCol];
  const src = names.map((c) => tab.cols[c]);
  for (let i = 0; i < tab.n; i++) {
    const f = tIndex.get(t[i]);
    const r = rod[i];
    if (f === undefined || !out[r]) continue;
    const k = item[i];
    if (k < 0 || k >= count[r]) continue;
    const o = (f * count[r] + k) * width;
    for (let c = 0; c < width; c++) out[r][o + c] = src[c][i];
  }
}

function rodArrays(nt, counts, width) {
  return counts.map((c) => new Float32Array(nt * c * width).fill(NaN));
}

// Radius of the circle around a section (rectangle: half the diagonal, tube: the outer radius).
export function sectionRadius(sec) {
  if (sec.shape === 'rectangle') return 0.5 * Math.hypot(sec.width, sec.height);
  return sec.shape === 'tube' ? sec.outer_radius : sec.radius;
}

function sectionOf(scene, k, length) {
  const s = scene && scene.rods && scene.rods[k];
  if (s && s.section) return { ...s.section, given: true };
  return { shape: 'circle', radius: Math.max(length, 1e-3) / 100, given: false };
}

// Semi-axes of the uniform solid ellipsoid with mass m and principal
// inertias I (I1 = m (b² + c²) / 5, ...), the shape the VTK body files use.
export function inertiaEllipsoid(m, I) {
  if (!(m > 0) || !I) return null;
  const sq = (v) => Math.sqrt(Math.max(v, 0) * 5 / (2 * m));
  const ax = [sq(I[1] + I[2] - I[0]), sq(I[0] + I[2] - I[1]), sq(I[0] + I[1] - I[2])];
  return ax.every((a) => Number.isFinite(a)) ? ax : null;
}

function loadRods(run, files, summary, scene) {
  const cl = parseCSV(files['centerline.csv'], 'centerline.csv');
  requireColumns(cl, ['t', 'rod', 'vertex', 's', 'x', 'y', 'z']);
  const { times } = groupTimes(cl);
  const nrods = cl.n ? Math.max(...cl.cols.rod) + 1 : 0;
  const nv = new Array(nrods).fill(0);
  for (let i = 0; i < cl.n && cl.cols.t[i] === times[0]; i++)
    nv[cl.cols.rod[i]] = Math.max(nv[cl.cols.rod[i]], cl.cols.vertex[i] + 1);
  // A frame with fewer rows than the first is incomplete (a run stopped
  // while the file was written): keep the complete frames only.
  const perFrame = nv.reduce((a, b) => a + b, 0);
  let nt = times.length;
  const rowsInLast = cl.n - (nt - 1) * perFrame;
  if (nt > 0 && rowsInLast !== perFrame) {
    run.notes.push(`centerline.csv: the last output time t = ${times[nt - 1]} is incomplete and is not shown`);
    nt -= 1;
  }
  run.times = Float64Array.from(times.slice(0, nt));
  const tIndex = new Map();
  run.times.forEach((t, i) => tIndex.set(t, i));
  const nseg = nv.map((v) => Math.max(v - 1, 0));
  const x = rodArrays(nt, nv, 3);
  scatter(cl, tIndex, 'vertex', ['x', 'y', 'z'], x, nv, 3);
  const s = nv.map((v) => new Float64Array(v));
  for (let i = 0; i < cl.n && cl.cols.t[i] === times[0]; i++) s[cl.cols.rod[i]][cl.cols.vertex[i]] = cl.cols.s[i];

  const optional = (name, itemCol, cols, counts) => {
    if (!(name in files)) {
      run.notes.push(`${name} is missing: ${name === 'frames.csv' ? 'section frames from the centerline' : 'not shown'}`);
      return null;
    }
    const tab = parseCSV(files[name], name);
    requireColumns(tab, ['t', 'rod', itemCol, ...cols]);
    const out = rodArrays(nt, counts, cols.length);
    scatter(tab, tIndex, itemCol, cols, out, counts, cols.length);
    return out;
  };
  const q = optional('frames.csv', 'segment', ['q0', 'q1', 'q2', 'q3'], nseg);
  const st = optional('strains.csv', 'segment', ['Gamma1', 'Gamma2', 'Gamma3', 'F1', 'F2', 'F3'], nseg);
  const cu = optional('curvatures.csv', 'vertex', ['K1', 'K2', 'K3', 'M1', 'M2', 'M3'], nv);
  const srods = (summary && summary.rods) || [];
  run.rods = nv.map((v, k) => {
    const length = v ? s[k][v - 1] - s[k][0] : 0;
    const sec = sectionOf(scene, k, length);
    return {
      name: (srods[k] && srods[k].name) || `rod${k}`,
      nv: v, nseg: nseg[k], s: s[k], length, section: sec,
      radius: sectionRadius(sec),
      x: x[k], q: q ? q[k] : null, strains: st ? st[k] : null, curvatures: cu ? cu[k] : null,
    };
  });
  for (const r of run.rods)
    if (r.section.derived)
      run.notes.push(`${r.name}: no section given, drawn with the display radius ${r.section.derived} = ${r.radius.toPrecision(3)} m`);
  if (run.rods.some((r) => !r.section.given))
    run.notes.push('no scene.json: rods drawn with radius = length / 100 (cosrod run writes the real sections)');
  return tIndex;
}

// A body's contact shape (coordinates in the body frame); a bad entry is
// a note, and the body keeps its inertia ellipsoid.
function bodyShape(run, shape, name) {
  try {
    return checkShape(shape, `body ${name}: shape`);
  } catch (e) {
    run.notes.push(`${e.message}: drawn as its inertia ellipsoid`);
    return null;
  }
}

function loadBodies(run, files, summary, scene, tIndex) {
  if (!('bodies.csv' in files)) return;
  const tab = parseCSV(files['bodies.csv'], 'bodies.csv');
  requireColumns(tab, ['t', 'body', 'x', 'y', 'z', 'q0', 'q1', 'q2', 'q3']);
  if (!tIndex) {
    const { times } = groupTimes(tab);
    run.times = Float64Array.from(times);
    tIndex = new Map();
    run.times.forEach((t, i) => tIndex.set(t, i));
  }
  const nb = tab.n ? Math.max(...tab.cols.body) + 1 : 0;
  const nt = run.times.length;
  const sb = (summary && summary.bodies) || [];
  const scb = (scene && scene.bodies) || [];
  run.bodies = [];
  for (let b = 0; b < nb; b++) {
    const info = scb[b] || {};
    run.bodies.push({
      name: info.name || (sb[b] && sb[b].name) || `body${b}`,
      x: new Float32Array(nt * 3).fill(NaN), q: new Float32Array(nt * 4).fill(NaN),
      axes: inertiaEllipsoid(info.mass, info.inertia),
      shape: info.shape ? bodyShape(run, info.shape, info.name || `body${b}`) : null,
    });
  }
  const c = tab.cols;
  for (let i = 0; i < tab.n; i++) {
    const f = tIndex.get(c.t[i]);
    const B = run.bodies[c.body[i]];
    if (f === undefined || !B) continue;
    B.x.set([c.x[i], c.y[i], c.z[i]], 3 * f);
    B.q.set([c.q0[i], c.q1[i], c.q2[i], c.q3[i]], 4 * f);
  }
}

function loadModes(run, files) {
  const name = 'modes.csv' in files ? 'modes.csv' : 'buckling.csv' in files ? 'buckling.csv' : null;
  if (!name) {
    if (run.analysis === 'modes' || run.analysis === 'buckling')
      run.notes.push(`${run.analysis === 'modes' ? 'modes.csv' : 'buckling.csv'} is missing: no mode shapes`);
    return;
  }
  const tab = parseCSV(files[name], name);
  requireColumns(tab, ['mode', 'rod', 'vertex', 'dx', 'dy', 'dz', 'rx', 'ry', 'rz']);
  const c = tab.cols;
  const byMode = new Map();
  for (let i = 0; i < tab.n; i++) {
    let m = byMode.get(c.mode[i]);
    if (!m) {
      m = {
        index: c.mode[i], rod: c.rod[i],
        frequency: c.frequency_hz ? c.frequency_hz[i] : null,
        omega: c.omega ? c.omega[i] : null,
        loadFactor: c.load_factor ? c.load_factor[i] : null,
        d: run.rods.map((r) => new Float32Array(3 * r.nv)),
        r: run.rods.map((r) => new Float32Array(3 * r.nv)),
      };
      byMode.set(c.mode[i], m);
    }
    const r = c.rod[i], v = c.vertex[i];
    if (!m.d[r] || v >= run.rods[r].nv) continue;
    m.d[r].set([c.dx[i], c.dy[i], c.dz[i]], 3 * v);
    m.r[r].set([c.rx[i], c.ry[i], c.rz[i]], 3 * v);
  }
  run.modes = [...byMode.values()].sort((a, b) => a.index - b.index);
  loadBodyModes(run, files, name.replace('.csv', '_bodies.csv'));
  const sm = (run.summary.modes || []);
  for (const m of run.modes) {
    const info = sm.find((x) => x.mode === m.index);
    if (info) m.type = info.type;
  }
}

// MODES_bodies.csv (mode,body,dx,dy,dz,rx,ry,rz): the rigid bodies' part
// of each mode (centre displacement, rotation vector), where the run writes
// it; without it bodies clamped to a rod end follow that end (extras.js).
function loadBodyModes(run, files, name) {
  if (!(name in files)) return;
  const tab = parseCSV(files[name], name);
  requireColumns(tab, ['mode', 'body', 'dx', 'dy', 'dz', 'rx', 'ry', 'rz']);
  const c = tab.cols;
  for (let i = 0; i < tab.n; i++) {
    const m = run.modes.find((x) => x.index === c.mode[i]);
    const b = c.body[i];
    if (!m || !(b >= 0 && b < run.bodies.length)) continue;
    if (!m.bodyShapes) m.bodyShapes = run.bodies.map(() => null);
    m.bodyShapes[b] = { d: [c.dx[i], c.dy[i], c.dz[i]], r: [c.rx[i], c.ry[i], c.rz[i]] };
  }
}

function loadEnergy(run, files) {
  if (!('energy.csv' in files)) {
    if (run.analysis === 'dynamic') run.notes.push('energy.csv is missing: no energy plot');
    return;
  }
  const tab = parseCSV(files['energy.csv'], 'energy.csv');
  requireColumns(tab, ['t', 'kinetic', 'elastic', 'gravity']);
  run.energy = tab.cols;
  run.energy.n = tab.n;
}

// files: {file name: text}; note: a message of the writer (decimation).
export function loadRun(files, note) {
  if (!files || !('summary.json' in files))
    throw new ViewerDataError('summary.json is missing: this folder is not a cosrod output directory ' +
      '(cosrod run writes summary.json first; run `cosrod view DIR` on the -o directory of a run)');
  const summary = parseJSON(files['summary.json'], 'summary.json');
  const scene = 'scene.json' in files ? parseJSON(files['scene.json'], 'scene.json') : null;
  const run = {
    summary, scene, notes: [], title: summary.title || '', analysis: summary.analysis || 'dynamic',
    status: summary.status || 'unknown', times: new Float64Array(0), rods: [], bodies: [], energy: null,
    modes: null, obstacles: [], joints: [], contacts: null, gravity: (scene && scene.gravity) || [0, 0, -9.81], increments: null,
  };
  if (note) run.notes.push(note);
  if (summary.status === 'interrupted' || summary.status === 'failed')
    run.notes.push(`the run ${summary.status} at t = ${summary.t_reached}` +
      (summary.message ? `: ${summary.message}` : '') + '; the frames written up to then are shown');
  let tIndex = null;
  if ('centerline.csv' in files) tIndex = loadRods(run, files, summary, scene);
  else if (!('bodies.csv' in files))
    throw new ViewerDataError('centerline.csv is missing (and no bodies.csv): nothing to show');
  else if (summary.rods && summary.rods.length) run.notes.push('centerline.csv is missing: rods are not shown');
  loadBodies(run, files, summary, scene, tIndex);
  loadEnergy(run, files);
  loadModes(run, files);
  run.obstacles = loadObstacles(scene, run.bodies);
  run.joints = (scene && scene.joints) || [];
  if ('increments.csv' in files) {
    const inc = parseCSV(files['increments.csv'], 'increments.csv');
    run.increments = inc.cols;
    run.increments.n = inc.n;
  }
  if (run.times.length === 0) throw new ViewerDataError('no complete output frame in the files: nothing to show');
  run.contacts = loadContacts(files, run.times);
  if (run.contacts && run.contacts.unmatched)
    run.notes.push(`contacts.csv: ${run.contacts.unmatched} row(s) at times that are not output times are not shown`);
  return run;
}

// The parameter the slider shows at frame f: time [s] for dynamic runs,
// load factor for arc-length static paths, pseudo-time otherwise.
export function frameLabel(run, f) {
  const t = run.times[f];
  if (run.analysis === 'static') {
    const inc = run.increments;
    if (inc && inc.load_factor) {
      for (let i = 0; i < inc.n; i++)
        if (Math.abs(inc.t[i] - t) <= 1e-12 * Math.max(1, Math.abs(t)))
          return `load factor ${inc.load_factor[i].toPrecision(4)}`;
    }
    return `load factor t = ${t.toPrecision(4)}`;
  }
  return `t = ${t.toFixed(3)} s`;
}
