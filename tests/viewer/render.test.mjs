// SPDX-License-Identifier: Apache-2.0
// Unit tests of the viewer's colour maps, colouring fields and tube
// geometry (viewer/src/colormap.js, fields.js, geometry.js) against
// independent references: the anchor colours, the initial frame of [LLA] Test 1,
// closed-form motions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colormap, colorRange } from '../../viewer/src/colormap.js';
import { fieldValues, fieldExtent } from '../../viewer/src/fields.js';
import { directors, qexp, qmul, sectionOutline, tubeIndices, tubePositions, vertexFrames } from '../../viewer/src/geometry.js';

const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

test('colormap: endpoints are the anchor colours, clamped, NaN grey', () => {
  assert.deepEqual(colormap('viridis', 0), [0.267, 0.005, 0.329]);
  assert.deepEqual(colormap('viridis', 1), [0.993, 0.906, 0.144]);
  assert.deepEqual(colormap('viridis', 7), colormap('viridis', 1));
  assert.deepEqual(colormap('coolwarm', 0.5), [0.865, 0.865, 0.865]);
  assert.deepEqual(colormap('viridis', NaN), [0.5, 0.5, 0.5]);
  // viridis rises in lightness: the sum of channels grows from end to end
  let prev = -1;
  for (let u = 0; u <= 1; u += 0.1) {
    const s = colormap('viridis', u).reduce((a, b) => a + b);
    assert.ok(s > prev - 1e-12, `viridis lighter at u = ${u}`);
    prev = s;
  }
});

test('colorRange: round-off noise is not stretched, signed data is symmetric', () => {
  const noise = colorRange(1e-18, 3e-18, 1e-15);
  assert.equal(noise.constant, true);
  assert.ok(noise.hi - noise.lo >= 2e-15); // at least the floor: 1e-18 noise stays one colour
  const c = colorRange(2.0, 2.0 + 1e-12);
  assert.equal(c.constant, true);
  close(0.5 * (c.lo + c.hi), 2.0, 1e-9, 'centre');
  const s = colorRange(-0.2, 0.5);
  assert.deepEqual([s.lo, s.hi, s.map], [-0.5, 0.5, 'coolwarm']);
  assert.deepEqual(colorRange(1, 3), { lo: 1, hi: 3, map: 'viridis', constant: false });
});

// One rod of 2 segments moving with constant velocity (0.3, 0, -0.4) m/s.
function movingRod() {
  const times = Float64Array.from([0, 0.1, 0.3, 0.6]);
  const nv = 3, x = new Float32Array(times.length * nv * 3);
  times.forEach((t, f) => { for (let v = 0; v < nv; v++) x.set([v * 0.5 + 0.3 * t, 0, -0.4 * t], (f * nv + v) * 3); });
  const strains = new Float32Array(times.length * 2 * 6), curvatures = new Float32Array(times.length * 3 * 6);
  for (let f = 0; f < times.length; f++) {
    strains.set([0.03, 0.04, 0.01, 0, 0, 5], (f * 2) * 6);
    strains.set([0, 0, 0.03, 0, 0, 7], (f * 2 + 1) * 6);
    for (let v = 0; v < 3; v++) curvatures.set([3, 4, -v, 0, 0, 0], (f * 3 + v) * 6);
  }
  return { run: { times, rods: [{ nv, nseg: 2, x, strains, curvatures }] }, times };
}

test('fields: segment values averaged to vertices, |K1,K2|, twist, speed', () => {
  const { run, times } = movingRod();
  const rod = run.rods[0];
  assert.deepEqual(Array.from(fieldValues(rod, 1, 'strain', times)).map((v) => +v.toFixed(6)), [0.01, 0.02, 0.03]);
  assert.deepEqual(Array.from(fieldValues(rod, 1, 'force', times)), [5, 6, 7]);
  close(fieldValues(rod, 0, 'shear', times)[0], 0.05, 1e-7, 'shear');
  assert.deepEqual(Array.from(fieldValues(rod, 2, 'curvature', times)), [5, 5, 5]);
  assert.deepEqual(Array.from(fieldValues(rod, 2, 'twist', times)), [-0, -1, -2]);
  for (let f = 0; f < times.length; f++)
    for (const s of fieldValues(rod, f, 'speed', times)) close(s, 0.5, 1e-5, `speed at frame ${f}`);
  assert.deepEqual(fieldExtent(run, 'force'), [5, 7]);
  assert.equal(fieldValues({ ...rod, strains: null }, 0, 'strain', times), null);
});

test('directors: [manual: examples] initial frame p = (1, -1, -1, -1)/2 gives d1 = e3, d2 = e1, d3 = e2', () => {
  const d = directors(0.5, -0.5, -0.5, -0.5);
  const want = [[0, 0, 1], [1, 0, 0], [0, 1, 0]];
  d.forEach((v, k) => v.forEach((c, i) => close(c, want[k][i], 1e-15, `d${k + 1}[${i}]`)));
  // qexp / qmul: a quarter turn about e3 maps e1 to e2
  const q = qmul(qexp([0, 0, Math.PI / 2]), [1, 0, 0, 0]);
  directors(...q)[0].forEach((c, i) => close(c, [0, 1, 0][i], 1e-15, 'R e1'));
});

test('tube: ring points at the section radius around the centerline, in the d1-d2 plane', () => {
  const nv = 3, x = Float32Array.from([0, 0, 0, 0, 0.5, 0, 0, 1, 0]);
  const q = Float32Array.from([0.5, -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5]);
  const frames = vertexFrames(x, q, nv, null);
  const out = new Float32Array(3 * (nv * 8 + 2));
  tubePositions(x, frames, sectionOutline({ shape: 'circle', radius: 0.01 }, 8), nv, out);
  for (let v = 0; v < nv; v++)
    for (let j = 0; j < 8; j++) {
      const p = out.subarray(3 * (v * 8 + j), 3 * (v * 8 + j) + 3);
      close(Math.hypot(p[0] - x[3 * v], p[2] - x[3 * v + 2]), 0.01, 1e-8, 'radius');
      close(p[1], x[3 * v + 1], 1e-8, 'in the section plane (normal d3 = e2)');
    }
  // rectangle: width along d1 = e3, height along d2 = e1
  tubePositions(x, frames, sectionOutline({ shape: 'rectangle', width: 0.04, height: 0.02 }, 8), nv, out);
  close(out[2], 0.02, 1e-8, 'half width along d1');
  close(out[3 * 2 + 0], 0.01, 1e-8, 'half height along d2');
  // without frames: parallel transport keeps (n, b) orthonormal and normal to the tangent
  const pt = vertexFrames(x, null, nv, null);
  for (const [n, b] of pt) {
    close(Math.hypot(...n), 1, 1e-12, '|n|');
    close(n[1], 0, 1e-12, 'n normal to the tangent e2');
    close(b[1], 0, 1e-12, 'b normal to the tangent e2');
  }
  const idx = tubeIndices(nv, 8);
  assert.equal(idx.length, 6 * 8 * (nv - 1) + 6 * 8);
  assert.ok(Math.max(...idx) === nv * 8 + 1);
});

test('rectangle section: corners at (±w/2, ±h/2) along d1, d2; every point on the boundary', () => {
  const w = 0.04, h = 0.02, m = 16;
  const out = sectionOutline({ shape: 'rectangle', width: w, height: h }, m);
  assert.equal(out.length, m);
  for (const [a, b] of out) close(Math.max(Math.abs(a) / (w / 2), Math.abs(b) / (h / 2)), 1, 1e-12, 'on the boundary');
  for (const c of [[w / 2, h / 2], [-w / 2, h / 2], [-w / 2, -h / 2], [w / 2, -h / 2]])
    assert.ok(out.some(([a, b]) => Math.abs(a - c[0]) < 1e-15 && Math.abs(b - c[1]) < 1e-15), `corner ${c}`);
  // placed on a vertex with d1 = e3, d2 = e1 (the quaternion (1, -1, -1, -1) / 2): the corner
  // (w/2, h/2) goes to x + w/2 e3 + h/2 e1, the edge midpoint (0, -h/2) to x - h/2 e1
  const x = Float32Array.from([1, 2, 3, 1, 3, 3]);
  const q = Float32Array.from([0.5, -0.5, -0.5, -0.5]);
  const frames = vertexFrames(x, q, 2, null);
  const pos = tubePositions(x, frames, out, 2, new Float64Array(3 * (2 * m + 2)));
  const at = (j) => [pos[3 * j], pos[3 * j + 1], pos[3 * j + 2]];
  at(2).forEach((c, i) => close(c, [1 + h / 2, 2, 3 + w / 2][i], 1e-7, `corner ${i}`));
  at(12).forEach((c, i) => close(c, [1 - h / 2, 2, 3][i], 1e-7, `midpoint ${i}`));
  // perimeter: the polygon through the points is the rectangle, 2 (w + h)
  let per = 0;
  for (let j = 0; j < m; j++) per += Math.hypot(out[(j + 1) % m][0] - out[j][0], out[(j + 1) % m][1] - out[j][1]);
  close(per, 2 * (w + h), 1e-15, 'perimeter');
});
