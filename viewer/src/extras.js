// SPDX-License-Identifier: Apache-2.0
// Data of what the viewer draws besides rods and bodies, from scene.json and
// contacts.csv: obstacles (and body shapes), their poses over time, contact
// points with forces, joints with anchor points and axes, and the motion of
// bodies clamped to a rod end in a mode shape.  Pure functions (no three.js):
// scene_extras.js turns them into meshes.
import { parseCSV, requireColumns, ViewerDataError } from './csv.js';

const SHAPES = {
  plane: ['point', 'normal'],
  sphere: ['center', 'radius'],
  cylinder: ['center', 'axis', 'radius'],
  capsule: ['a', 'b', 'radius'],
  box: ['center', 'size'],
  mesh: ['vertices', 'triangles'],
};

const isVec = (v) => Array.isArray(v) && v.length === 3 && v.every(Number.isFinite);

// One shape entry (obstacle, or a body's "shape"), checked field by field;
// `where` names it in messages.  A body's shape may name its kind "type".
export function checkShape(o, where) {
  const kind = o.shape !== undefined && typeof o.shape === 'string' ? o.shape : o.type;
  if (!(kind in SHAPES)) throw new ViewerDataError(`scene.json: ${where}: unknown shape "${kind}"`);
  for (const k of SHAPES[kind]) if (o[k] === undefined) throw new ViewerDataError(`scene.json: ${where}: ${kind} without "${k}"`);
  for (const k of ['point', 'normal', 'center', 'axis', 'a', 'b', 'size'])
    if (o[k] !== undefined && !isVec(o[k])) throw new ViewerDataError(`scene.json: ${where}: "${k}" is not 3 numbers`);
  if (o.radius !== undefined && !(o.radius > 0)) throw new ViewerDataError(`scene.json: ${where}: radius must be > 0`);
  if (kind === 'mesh') {
    const nv = o.vertices.length;
    if (!o.vertices.every(isVec)) throw new ViewerDataError(`scene.json: ${where}: mesh vertices are not [x, y, z]`);
    for (const t of o.triangles)
      if (!Array.isArray(t) || t.length !== 3 || t.some((i) => !Number.isInteger(i) || i < 0 || i >= nv))
        throw new ViewerDataError(`scene.json: ${where}: mesh triangle ${JSON.stringify(t)} is not 3 vertex indices < ${nv}`);
  }
  const q = o.orientation || [1, 0, 0, 0];
  return { ...o, kind, orientation: q };
}

// scene.json "obstacles": checked, with the index of the body they follow.
export function loadObstacles(scene, bodies) {
  const list = (scene && scene.obstacles) || [];
  return list.map((o, i) => {
    const ob = checkShape(o, `obstacle ${o.name || i}`);
    ob.name = o.name || `obstacle${i}`;
    ob.bodyIndex = -1;
    if (o.body !== null && o.body !== undefined) {
      ob.bodyIndex = bodies.findIndex((b) => b.name === o.body);
      if (ob.bodyIndex < 0) throw new ViewerDataError(`scene.json: obstacle ${ob.name}: unknown body "${o.body}"`);
    }
    const m = o.motion;
    if (m) {
      if (!Array.isArray(m.t) || !m.t.length || !Array.isArray(m.position) || m.position.length !== m.t.length ||
        !Array.isArray(m.orientation) || m.orientation.length !== m.t.length)
        throw new ViewerDataError(`scene.json: obstacle ${ob.name}: motion needs t, position and orientation of equal length`);
    }
    return ob;
  });
}

// ---- small quaternion algebra, q = [w, x, y, z]
export function qmul(a, b) {
  return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
}
export const qconj = (q) => [q[0], -q[1], -q[2], -q[3]];
export function qrot(q, v) {
  const r = qmul(qmul(q, [0, v[0], v[1], v[2]]), qconj(q));
  return [r[1], r[2], r[3]];
}
function qnorm(q) { const n = Math.hypot(...q) || 1; return q.map((v) => v / n); }
export function slerp(a, b, s) {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const bb = d < 0 ? b.map((v) => -v) : b;
  d = Math.abs(d);
  if (d > 1 - 1e-12) return qnorm(a.map((v, i) => v + s * (bb[i] - v)));
  const th = Math.acos(d), sn = Math.sin(th);
  const wa = Math.sin((1 - s) * th) / sn, wb = Math.sin(s * th) / sn;
  return a.map((v, i) => wa * v + wb * bb[i]);
}

// Keyframed pose at time t: position linear, orientation slerp between the
// keyframes, held constant before the first and after the last.
export function keyframePose(m, t) {
  const n = m.t.length;
  if (t <= m.t[0]) return { x: m.position[0], q: qnorm(m.orientation[0]) };
  if (t >= m.t[n - 1]) return { x: m.position[n - 1], q: qnorm(m.orientation[n - 1]) };
  let k = 0;
  while (m.t[k + 1] < t) k++;
  const s = (t - m.t[k]) / (m.t[k + 1] - m.t[k]);
  return { x: m.position[k].map((v, c) => v + s * (m.position[k + 1][c] - v)), q: slerp(qnorm(m.orientation[k]), qnorm(m.orientation[k + 1]), s) };
}

// Rigid motion {q, x} (p -> q p q* + x) that takes an obstacle from its
// scene.json geometry (world coordinates at t = 0) to time index f:
// keyframes T(t) T(t0)^-1, a body B(f) B(0)^-1, else the identity.
export function obstacleMotion(ob, run, f) {
  const rel = (p0, p1) => {
    const q = qmul(p1.q, qconj(p0.q));
    const r = qrot(q, p0.x);
    return { q, x: [0, 1, 2].map((c) => p1.x[c] - r[c]) };
  };
  if (ob.bodyIndex >= 0) {
    const b = run.bodies[ob.bodyIndex];
    const pose = (k) => ({ x: Array.from(b.x.subarray(3 * k, 3 * k + 3)), q: qnorm(Array.from(b.q.subarray(4 * k, 4 * k + 4))) });
    const p1 = pose(f);
    if (!Number.isFinite(p1.x[0])) return null;
    return rel(pose(0), p1);
  }
  if (ob.motion) return rel(keyframePose(ob.motion, run.times[0]), keyframePose(ob.motion, run.times[f]));
  return { q: [1, 0, 0, 0], x: [0, 0, 0] };
}

// contacts.csv: per output frame the active contact points, normals and
// forces.  Rows at times that are not output times are not shown.
export function loadContacts(files, times) {
  if (!('contacts.csv' in files)) return null;
  const tab = parseCSV(files['contacts.csv'], 'contacts.csv');
  requireColumns(tab, ['t', 'rod', 'segment', 'px', 'py', 'pz', 'nx', 'ny', 'nz', 'gap', 'Fn', 'Ftx', 'Fty', 'Ftz']);
  const c = tab.cols;
  const frames = Array.from(times, () => []);
  let f = 0, unmatched = 0;
  const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  for (let i = 0; i < tab.n; i++) {
    const t = c.t[i];
    while (f + 1 < times.length && times[f] < t && !near(t, times[f])) f++;
    let g = f;
    if (!near(t, times[g])) { g = times.findIndex((v) => near(t, v)); if (g < 0) { unmatched++; continue; } }
    const n = [c.nx[i], c.ny[i], c.nz[i]];
    const ft = [c.Ftx[i], c.Fty[i], c.Ftz[i]];
    frames[g].push({
      rod: c.rod[i], segment: c.segment[i], other: c.other ? c.other[i] : null, gap: c.gap[i], Fn: c.Fn[i],
      p: [c.px[i], c.py[i], c.pz[i]], n,
      // force on the rod: Fn along the normal (from the other towards the rod) plus the tangential part
      F: n.map((v, k) => c.Fn[i] * v + ft[k]),
      state: c.state ? c.state[i] : null,
    });
  }
  return { frames, unmatched };
}

// World anchor points and axes of joint j at frame f: each side's point
// `at` in its body frame (ground: spatial), the axis in body[0]'s frame.
export function jointGeometry(J, run, f) {
  const pose = (b) => {
    if (b < 0) return { x: [0, 0, 0], q: [1, 0, 0, 0] };
    const B = run.bodies[b];
    if (!B) return null;
    const x = Array.from(B.x.subarray(3 * f, 3 * f + 3));
    if (!Number.isFinite(x[0])) return null;
    return { x, q: qnorm(Array.from(B.q.subarray(4 * f, 4 * f + 4))) };
  };
  const P = J.bodies.map(pose);
  if (P.some((p) => !p)) return null;
  const pts = P.map((p, k) => { const r = qrot(p.q, J.at[k]); return r.map((v, c) => v + p.x[c]); });
  const axis = J.axis ? qrot(P[0].q, J.axis) : null;
  const axis2 = J.axis2 ? qrot(P[1].q, J.axis2) : null;
  return { kind: J.kind || 'joint', points: pts, axis, axis2 };
}

// A mode shape's motion of the bodies clamped to a rod end (modes.csv holds
// rod vertices only): the body turns with the end section, rotation r, and
// its centre moves by d + r × (c − x_end) (small rotation, linearised).
// Returns per body {d, r} or null where no clamped rod end carries it.
export function bodyModeShapes(run, mode) {
  const sc = run.scene;
  const out = run.bodies.map(() => null);
  if (!sc || !sc.rods) return out;
  sc.rods.forEach((sr, k) => {
    const rod = run.rods[k];
    if (!sr.ends || !rod || !mode.d[k]) return;
    sr.ends.forEach((e, side) => {
      if (e.type !== 'clamped' || !(e.body >= 0) || !run.bodies[e.body] || out[e.body]) return;
      const v = side === 0 ? 0 : rod.nv - 1;
      const d = Array.from(mode.d[k].subarray(3 * v, 3 * v + 3)), r = Array.from(mode.r[k].subarray(3 * v, 3 * v + 3));
      const B = run.bodies[e.body];
      const xe = rod.x.subarray(3 * v, 3 * v + 3), c = B.x.subarray(0, 3);
      const a = [c[0] - xe[0], c[1] - xe[1], c[2] - xe[2]];
      out[e.body] = { d: [d[0] + r[1] * a[2] - r[2] * a[1], d[1] + r[2] * a[0] - r[0] * a[2], d[2] + r[0] * a[1] - r[1] * a[0]], r };
    });
  });
  return out;
}

// Quaternion of the rotation vector r (exact exponential map).
export function qexp(r) {
  const th = Math.hypot(...r);
  if (th < 1e-12) return [1, r[0] / 2, r[1] / 2, r[2] / 2];
  const s = Math.sin(th / 2) / th;
  return [Math.cos(th / 2), s * r[0], s * r[1], s * r[2]];
}
