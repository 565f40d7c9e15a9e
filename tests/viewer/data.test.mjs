// SPDX-License-Identifier: Apache-2.0
// Unit tests of the viewer's data loading (viewer/src/data.js, csv.js):
// every output file kind, missing optional files, a run interrupted at a
// checkpoint, bad data.  The fixtures are small runs written here with
// values whose expected arrays follow from the file format ([manual: command line, output reference]).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadRun, frameLabel, inertiaEllipsoid, ViewerDataError } from '../../viewer/src/data.js';
import { parseCSV } from '../../viewer/src/csv.js';

const csv = (header, rows) => `${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`;
const TIMES = [0, 0.5, 1];

// One rod of 2 segments along x, vertex v at (v L/2 + t v / 10, 0, -t),
// one body; every file of a dynamic run.
function dynamicFiles() {
  const cl = [], fr = [], st = [], cu = [], en = [], bo = [];
  for (const t of TIMES) {
    for (let v = 0; v < 3; v++) cl.push([t, 0, v, v * 0.5, v * 0.5 + (t * v) / 10, 0, -t]);
    for (let k = 0; k < 2; k++) {
      fr.push([t, 0, k, 0.25 + 0.5 * k, 0.5, -0.5, -0.5, -0.5]);
      st.push([t, 0, k, 0.25 + 0.5 * k, 0, 0, 0.01 * (k + 1) + t, 0, 0, 2 * (k + 1)]);
    }
    for (let v = 0; v < 3; v++) cu.push([t, 0, v, v * 0.5, 3, 4, 0.1 * v, 0, 0, 0]);
    en.push([t, 1 - t, t, -2, 0, 0, -1]);
    bo.push([t, 0, 1, 0, -t, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0]);
  }
  return {
    'summary.json': JSON.stringify({ title: 'fixture', analysis: 'dynamic', status: 'ok', t_end: 1, t_reached: 1, rods: [{ name: 'hose' }], bodies: [{ name: 'box' }] }),
    'scene.json': JSON.stringify({ gravity: [0, 0, -9.81], rods: [{ name: 'hose', section: { shape: 'circle', radius: 0.004 } }],
      bodies: [{ name: 'box', mass: 2, inertia: [0.008, 0.008, 0.008] }] }),
    'centerline.csv': csv('t,rod,vertex,s,x,y,z', cl),
    'frames.csv': csv('t,rod,segment,s,q0,q1,q2,q3', fr),
    'strains.csv': csv('t,rod,segment,s,Gamma1,Gamma2,Gamma3,F1,F2,F3', st),
    'curvatures.csv': csv('t,rod,vertex,s,K1,K2,K3,M1,M2,M3', cu),
    'energy.csv': csv('t,kinetic,elastic,gravity,external_work,dissipated,balance', en),
    'bodies.csv': csv('t,body,x,y,z,q0,q1,q2,q3,Omega1,Omega2,Omega3,vx,vy,vz,kinetic,potential', bo),
    'steps.csv': csv('t,h,accepted', [[0, 0.1, 1]]),
  };
}

test('a dynamic run: every file is read into per-frame arrays', () => {
  const run = loadRun(dynamicFiles());
  assert.deepEqual(Array.from(run.times), TIMES);
  assert.equal(run.rods.length, 1);
  const r = run.rods[0];
  assert.equal(r.name, 'hose');
  assert.equal(r.nv, 3);
  assert.equal(r.nseg, 2);
  assert.equal(r.length, 1);
  assert.equal(r.radius, 0.004);
  // vertex 2 at t = 0.5: (1 + 0.1, 0, -0.5)
  const o = (1 * 3 + 2) * 3;
  assert.ok(Math.abs(r.x[o] - 1.1) < 1e-6 && r.x[o + 1] === 0 && r.x[o + 2] === -0.5);
  assert.equal(r.q[4 * (2 * 2 + 1)], 0.5); // frame 2, segment 1, q0
  assert.ok(Math.abs(r.strains[(2 * 2 + 1) * 6 + 2] - 1.02) < 1e-6); // Gamma3 = 0.02 + t
  assert.equal(r.strains[(0 * 2 + 1) * 6 + 5], 4); // F3
  assert.ok(Math.abs(r.curvatures[(1 * 3 + 2) * 6 + 2] - 0.2) < 1e-6); // K3 at vertex 2
  assert.deepEqual(Array.from(run.energy.kinetic), [1, 0.5, 0]);
  assert.equal(run.bodies.length, 1);
  assert.equal(run.bodies[0].name, 'box');
  assert.deepEqual(Array.from(run.bodies[0].x.subarray(6, 9)), [1, 0, -1]);
  // solid sphere: I = 2/5 m a^2 -> a = sqrt(5 I / (2 m)) = 0.1
  for (const a of run.bodies[0].axes) assert.ok(Math.abs(a - 0.1) < 1e-12);
  assert.deepEqual(run.gravity, [0, 0, -9.81]);
  assert.deepEqual(run.notes, []);
  assert.equal(frameLabel(run, 1), 't = 0.500 s');
});

test('missing optional files only remove what they show, with a note', () => {
  const f = dynamicFiles();
  const files = { 'summary.json': f['summary.json'], 'centerline.csv': f['centerline.csv'] };
  const run = loadRun(files);
  const r = run.rods[0];
  assert.equal(r.q, null);
  assert.equal(r.strains, null);
  assert.equal(r.curvatures, null);
  assert.equal(run.energy, null);
  assert.equal(run.bodies.length, 0);
  assert.equal(r.radius, 1 / 100); // no scene.json: length / 100
  for (const name of ['frames.csv', 'strains.csv', 'curvatures.csv', 'energy.csv', 'scene.json'])
    assert.ok(run.notes.some((n) => n.includes(name)), `a note names ${name}: ${run.notes}`);
});

test('a run interrupted at a checkpoint: the incomplete last frame is dropped', () => {
  const f = dynamicFiles();
  const s = JSON.parse(f['summary.json']);
  s.status = 'interrupted';
  s.t_reached = 1;
  s.message = 'interrupted by SIGINT';
  f['summary.json'] = JSON.stringify(s);
  // the last time has only 2 of its 3 vertices; frames.csv stops earlier
  f['centerline.csv'] = f['centerline.csv'].split('\n').slice(0, 1 + 8).join('\n') + '\n';
  f['frames.csv'] = f['frames.csv'].split('\n').slice(0, 1 + 2).join('\n') + '\n';
  const run = loadRun(f);
  assert.deepEqual(Array.from(run.times), [0, 0.5]);
  assert.ok(run.notes.some((n) => n.includes('interrupted')));
  assert.ok(run.notes.some((n) => n.includes('incomplete')));
  // frames.csv lacks t = 0.5: NaN there (the viewer falls back to transported frames)
  assert.equal(run.rods[0].q[0], 0.5);
  assert.ok(Number.isNaN(run.rods[0].q[8]));
});

test('a static run: increments.csv, labels by load factor', () => {
  const f = dynamicFiles();
  const s = JSON.parse(f['summary.json']);
  s.analysis = 'static';
  f['summary.json'] = JSON.stringify(s);
  f['increments.csv'] = csv('t,iterations,residual,load_factor,displacement,stability_index,critical',
    [[0, 0, 0, 0, 0, 0, 0], [0.5, 3, 1e-12, 0.42, 0.1, 0, 0], [1, 3, 1e-12, 1, 0.2, 0, 0]]);
  const run = loadRun(f);
  assert.equal(run.increments.n, 3);
  assert.equal(frameLabel(run, 1), 'load factor 0.4200');
});

test('modes.csv and buckling.csv give mode shapes with frequency / load factor', () => {
  const f = dynamicFiles();
  const one = (t) => f['centerline.csv'].split('\n').filter((l, i) => i === 0 || l.startsWith(`${t},`)).join('\n') + '\n';
  const base = { 'scene.json': f['scene.json'], 'centerline.csv': one(0) };
  const modes = [];
  for (const m of [1, 2]) for (let v = 0; v < 3; v++) modes.push([m, m * 1.5, m * 1.5 * 2 * Math.PI, 0, v, 0, 0, v * m, 0, 0.1 * v, 0]);
  const run = loadRun({ ...base, 'summary.json': JSON.stringify({ analysis: 'modes', status: 'ok', modes: [{ mode: 2, type: 'bending-1' }] }),
    'modes.csv': csv('mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz', modes) });
  assert.equal(run.modes.length, 2);
  assert.equal(run.modes[1].frequency, 3);
  assert.equal(run.modes[1].type, 'bending-1');
  assert.deepEqual(Array.from(run.modes[1].d[0]), [0, 0, 0, 0, 0, 2, 0, 0, 4]);
  assert.ok(Math.abs(run.modes[0].r[0][7] - 0.2) < 1e-7);
  const bk = modes.map((r) => [r[0], 10 * r[0], ...r.slice(3)]);
  const b = loadRun({ ...base, 'summary.json': JSON.stringify({ analysis: 'buckling', status: 'ok' }),
    'buckling.csv': csv('mode,load_factor,rod,vertex,dx,dy,dz,rx,ry,rz', bk) });
  assert.deepEqual(b.modes.map((m) => m.loadFactor), [10, 20]);
  assert.equal(b.times.length, 1);
});

test('bad data: a readable message, not a crash', () => {
  assert.throws(() => loadRun({ 'centerline.csv': 't,rod\n' }), (e) => e instanceof ViewerDataError && /summary\.json is missing/.test(e.message));
  const f = dynamicFiles();
  const text = f['centerline.csv'];
  f['centerline.csv'] = text.slice(0, text.length - 9); // cut inside the last row
  assert.throws(() => loadRun(f), (e) => e instanceof ViewerDataError && /centerline\.csv: line 10: .*truncated/.test(e.message));
  const g = dynamicFiles();
  g['summary.json'] = g['summary.json'].slice(0, 20);
  assert.throws(() => loadRun(g), /summary\.json: not valid JSON/);
  const h = dynamicFiles();
  h['strains.csv'] = 't,rod,segment\n0,0,0\n';
  assert.throws(() => loadRun(h), /strains\.csv: missing column\(s\) Gamma1/);
});

test('parseCSV: numbers, text columns, empty file', () => {
  const t = parseCSV('t,rod,state\n0,1,stick\n0.5,2,slip\n', 'contacts.csv');
  assert.deepEqual(Array.from(t.cols.rod), [1, 2]);
  assert.deepEqual(t.cols.state, ['stick', 'slip']);
  assert.throws(() => parseCSV('', 'energy.csv'), /energy\.csv: the file is empty/);
});

test('inertiaEllipsoid: box-like inertias give the semi-axes back', () => {
  // ellipsoid a, b, c: I1 = m (b^2 + c^2) / 5 ...
  const m = 3, [a, b, c] = [0.1, 0.2, 0.3];
  const ax = inertiaEllipsoid(m, [m * (b * b + c * c) / 5, m * (a * a + c * c) / 5, m * (a * a + b * b) / 5]);
  [a, b, c].forEach((v, i) => assert.ok(Math.abs(ax[i] - v) < 1e-12));
  assert.equal(inertiaEllipsoid(0, [1, 1, 1]), null);
});

test('a bodies-only run (no rods): bodies.csv gives the times', () => {
  const f = dynamicFiles();
  const run = loadRun({ 'summary.json': JSON.stringify({ analysis: 'dynamic', status: 'ok', bodies: [{ name: 'top' }] }),
    'bodies.csv': f['bodies.csv'], 'energy.csv': f['energy.csv'] });
  assert.deepEqual(Array.from(run.times), TIMES);
  assert.equal(run.rods.length, 0);
  assert.equal(run.bodies[0].name, 'top');
  assert.equal(run.bodies[0].axes, null); // no scene.json: no inertias
  assert.deepEqual(run.notes, []);
});

test('sections from scene.json: tube outer radius, rectangle half diagonal, derived display radius noted', () => {
  const f = dynamicFiles();
  const scene = (section) => ({ ...f, 'scene.json': JSON.stringify({ gravity: [0, 0, -9.81], rods: [{ name: 'hose', section }] }) });
  assert.equal(loadRun(scene({ shape: 'tube', outer_radius: 0.03, inner_radius: 0.02 })).rods[0].radius, 0.03);
  assert.equal(loadRun(scene({ shape: 'rectangle', width: 0.06, height: 0.08 })).rods[0].radius, 0.05);
  const run = loadRun(scene({ shape: 'circle', radius: 0.002, area: 0, derived: '2 sqrt(EI / EA)' }));
  assert.equal(run.rods[0].radius, 0.002);
  assert.ok(run.notes.some((n) => n.includes('display radius 2 sqrt(EI / EA) = 0.00200 m')), `${run.notes}`);
  assert.ok(!loadRun(f).notes.some((n) => n.includes('display radius')), 'a given section is not noted');
});

test('a mode of two coupled rods: modes.csv rows of both rods fill both shapes', () => {
  // rod 0: 3 vertices along x; rod 1: 2 vertices; mode 1 moves both (dz = 1 + vertex, rod 1: dz = -2)
  const cl = [[0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0.5, 0.5, 0, 0], [0, 0, 2, 1, 1, 0, 0], [0, 1, 0, 0, 0, 1, 0], [0, 1, 1, 1, 1, 1, 0]];
  const rows = [[1, 2, 4 * Math.PI, 0, 0, 0, 0, 1, 0, 0, 0], [1, 2, 4 * Math.PI, 0, 1, 0, 0, 2, 0, 0, 0], [1, 2, 4 * Math.PI, 0, 2, 0, 0, 3, 0, 0, 0],
    [1, 2, 4 * Math.PI, 1, 0, 0, 0, -2, 0, 0, 0], [1, 2, 4 * Math.PI, 1, 1, 0, 0, -2, 0, 0, 0.5]];
  const run = loadRun({ 'summary.json': JSON.stringify({ analysis: 'modes', status: 'ok' }),
    'centerline.csv': csv('t,rod,vertex,s,x,y,z', cl), 'modes.csv': csv('mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz', rows) });
  assert.equal(run.rods.length, 2);
  assert.equal(run.modes.length, 1);
  assert.deepEqual(Array.from(run.modes[0].d[0]), [0, 0, 1, 0, 0, 2, 0, 0, 3]);
  assert.deepEqual(Array.from(run.modes[0].d[1]), [0, 0, -2, 0, 0, -2]);
  assert.deepEqual(Array.from(run.modes[0].r[1]), [0, 0, 0, 0, 0, 0.5]);
});
