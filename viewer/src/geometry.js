// SPDX-License-Identifier: Apache-2.0
// Tube surfaces of the rods: a ring of section points around every vertex,
// spanned by the section directors d1, d2 ([manual: theory]: d^k = R(p) e_k with the
// Euler map of [LLA] eq. (1)).  Pure functions on typed arrays.

// Columns d1, d2, d3 of R(p) for a unit quaternion p = (p0, p1, p2, p3).
export function directors(p0, p1, p2, p3) {
  return [
    [p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3, 2 * (p1 * p2 + p0 * p3), 2 * (p1 * p3 - p0 * p2)],
    [2 * (p1 * p2 - p0 * p3), p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3, 2 * (p2 * p3 + p0 * p1)],
    [2 * (p1 * p3 + p0 * p2), 2 * (p2 * p3 - p0 * p1), p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3],
  ];
}

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
function unit(a) {
  const n = Math.hypot(a[0], a[1], a[2]);
  return n > 0 ? [a[0] / n, a[1] / n, a[2] / n] : [0, 0, 0];
}

// Hamilton product a ⊗ b (scalar first).
export function qmul(a, b) {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

// Unit quaternion of the rotation vector w (angle |w| about w / |w|).
export function qexp(w) {
  const a = Math.hypot(w[0], w[1], w[2]);
  if (a < 1e-12) return [1, 0.5 * w[0], 0.5 * w[1], 0.5 * w[2]];
  const s = Math.sin(0.5 * a) / a;
  return [Math.cos(0.5 * a), s * w[0], s * w[1], s * w[2]];
}

// Section frames (d1, d2) at the nv vertices: from the segment quaternions
// q (nseg x 4, may be null or NaN) averaged at inner vertices, else by
// parallel transport of a normal along the centerline x (nv x 3).
export function vertexFrames(x, q, nv, rot) {
  const nseg = nv - 1;
  const out = new Array(nv);
  const haveQ = q && nseg > 0 && !Number.isNaN(q[0]);
  if (haveQ) {
    for (let v = 0; v < nv; v++) {
      const a = Math.max(v - 1, 0), b = Math.min(v, nseg - 1);
      let p = [q[4 * a], q[4 * a + 1], q[4 * a + 2], q[4 * a + 3]];
      if (a !== b) {
        const r = [q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3]];
        const s = p[0] * r[0] + p[1] * r[1] + p[2] * r[2] + p[3] * r[3] < 0 ? -1 : 1;
        p = p.map((c, i) => c + s * r[i]);
      }
      if (rot) p = qmul(qexp([rot[3 * v], rot[3 * v + 1], rot[3 * v + 2]]), p);
      const n = Math.hypot(p[0], p[1], p[2], p[3]) || 1;
      const d = directors(p[0] / n, p[1] / n, p[2] / n, p[3] / n);
      out[v] = [d[0], d[1]];
    }
    return out;
  }
  let normal = null;
  for (let v = 0; v < nv; v++) {
    const a = Math.max(v - 1, 0), b = Math.min(v + 1, nv - 1);
    const t = unit([x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]]);
    if (!normal) normal = unit(cross(t, Math.abs(t[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]));
    const d = dot(normal, t);
    normal = unit([normal[0] - d * t[0], normal[1] - d * t[1], normal[2] - d * t[2]]);
    out[v] = [normal, cross(t, normal)];
  }
  return out;
}

// Unit section outline in (d1, d2) coordinates: m points, scaled to the
// real section (circle and tube: outer radius; rectangle: width along d1,
// height along d2).  A rectangle with m = 8 k has its four corners among the
// points: each quarter runs from an edge midpoint through the corner to the
// next edge midpoint in 2 k equal steps per edge half, starting at (w/2, 0).
export function sectionOutline(section, m) {
  const pts = [];
  if (section.shape === 'rectangle' && m % 8 === 0) {
    const hw = 0.5 * section.width, hh = 0.5 * section.height, n = m / 4;
    const mid = [[hw, 0], [0, hh], [-hw, 0], [0, -hh]], corner = [[hw, hh], [-hw, hh], [-hw, -hh], [hw, -hh]];
    for (let q = 0; q < 4; q++)
      for (let i = 0; i < n; i++) {
        const u = (2 * i) / n; // 0..1: midpoint to corner, 1..2: corner to the next midpoint
        const [a, b] = u <= 1 ? [mid[q], corner[q]] : [corner[q], mid[(q + 1) % 4]];
        const f = u <= 1 ? u : u - 1;
        pts.push([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])]);
      }
    return pts;
  }
  for (let j = 0; j < m; j++) {
    const phi = (2 * Math.PI * j) / m;
    const c = Math.cos(phi), s = Math.sin(phi);
    if (section.shape === 'rectangle') {
      const hw = 0.5 * section.width, hh = 0.5 * section.height;
      const k = Math.min(hw / Math.max(Math.abs(c), 1e-12), hh / Math.max(Math.abs(s), 1e-12));
      pts.push([k * c, k * s]);
    } else {
      const r = section.shape === 'tube' ? section.outer_radius : section.radius;
      pts.push([r * c, r * s]);
    }
  }
  return pts;
}

// Triangle indices of a tube of nv rings of m points, plus two end caps
// whose centres are the points nv*m and nv*m + 1.
export function tubeIndices(nv, m) {
  const idx = [];
  for (let v = 0; v + 1 < nv; v++)
    for (let j = 0; j < m; j++) {
      const a = v * m + j, b = v * m + ((j + 1) % m), c = a + m, d = b + m;
      idx.push(a, c, b, b, c, d);
    }
  const c0 = nv * m, c1 = nv * m + 1;
  for (let j = 0; j < m; j++) {
    idx.push(c0, (j + 1) % m, j);
    idx.push(c1, (nv - 1) * m + j, (nv - 1) * m + ((j + 1) % m));
  }
  return idx;
}

// Positions (3 (nv m + 2)) of the tube around centerline x with frames.
export function tubePositions(x, frames, outline, nv, out) {
  const m = outline.length;
  for (let v = 0; v < nv; v++) {
    const [d1, d2] = frames[v];
    for (let j = 0; j < m; j++) {
      const [a, b] = outline[j];
      const o = 3 * (v * m + j);
      for (let c = 0; c < 3; c++) out[o + c] = x[3 * v + c] + a * d1[c] + b * d2[c];
    }
  }
  out.set([x[0], x[1], x[2]], 3 * nv * m);
  out.set([x[3 * nv - 3], x[3 * nv - 2], x[3 * nv - 1]], 3 * nv * m + 3);
  return out;
}
