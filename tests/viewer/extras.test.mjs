// SPDX-License-Identifier: Apache-2.0
// Unit tests of what the viewer draws besides rods (viewer/src/extras.js):
// obstacles of every shape from scene.json (schema of the contact guide), their
// poses (keyframes, attached to a body), contact points and forces from
// contacts.csv, joint anchor points and axes, bodies' shapes, and the
// motion of a body clamped to a rod end in a mode shape.  Runs do not write
// obstacles or contacts yet: the fixtures are written here by hand and the
// expected values follow from rigid-body kinematics done by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadRun, ViewerDataError } from '../../viewer/src/data.js';
import { bodyModeShapes, jointGeometry, keyframePose, obstacleMotion, qexp, qrot } from '../../viewer/src/extras.js';

const csv = (header, rows) => `${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`;
const close = (a, b, tol, what) => a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= tol, `${what}[${i}]: ${v} vs ${b[i]}`));
const apply = (M, p) => qrot(M.q, p).map((v, c) => v + M.x[c]);
const TIMES = [0, 0.5, 1];
const S = Math.SQRT1_2;

// One rod of 2 segments along x; body "box" at (1, 0, -t) turned by 90° t
// about z; obstacles of all six shapes, one moving by keyframes, one on the body.
function files(extra = {}) {
  const cl = [], bo = [];
  for (const t of TIMES) {
    for (let v = 0; v < 3; v++) cl.push([t, 0, v, v * 0.5, v * 0.5, 0, -t]);
    const a = (Math.PI / 4) * t; // half angle of 90° t
    bo.push([t, 0, 1, 0, -t, Math.cos(a), 0, 0, Math.sin(a)]);
  }
  const obstacles = [
    { name: 'floor', shape: 'plane', point: [0, 0, -2], normal: [0, 0, 1], body: null, motion: null },
    { name: 'post', shape: 'sphere', center: [0.5, 0, 0.2], radius: 0.05, body: null, motion: null },
    { name: 'pulley', shape: 'cylinder', center: [0, 0, 1], axis: [0, 1, 0], radius: 0.1, length: null, body: null, motion: null },
    { name: 'clip', shape: 'capsule', a: [0, -0.1, 0.5], b: [0, 0.1, 0.5], radius: 0.01, body: null,
      motion: { t: [0, 1], position: [[0, 0, 0], [1, 0, 0]], orientation: [[1, 0, 0, 0], [S, 0, 0, S]] } },
    { name: 'block', shape: 'box', center: [1, 0, 0.1], size: [0.2, 0.2, 0.2], orientation: [1, 0, 0, 0], body: 'box', motion: null },
    { name: 'part', shape: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles: [[0, 1, 2]], body: null, motion: null },
  ];
  return {
    'summary.json': JSON.stringify({ title: 'contact fixture', analysis: 'dynamic', status: 'ok', t_end: 1, t_reached: 1 }),
    'scene.json': JSON.stringify({
      gravity: [0, 0, -9.81], rods: [{ name: 'hose', section: { shape: 'circle', radius: 0.01 } }],
      bodies: [{ name: 'box', mass: 1, inertia: [0.01, 0.01, 0.01], shape: { type: 'box', center: [0, 0, 0], size: [0.1, 0.2, 0.3] } }],
      joints: [{ type: 1, kind: 'revolute', bodies: [0, -1], at: [[0, 0, 0.05], [1, 0, 0.05]], axis: [1, 0, 0] }],
      obstacles,
    }),
    'centerline.csv': csv('t,rod,vertex,s,x,y,z', cl),
    'bodies.csv': csv('t,body,x,y,z,q0,q1,q2,q3', bo),
    ...extra,
  };
}

test('obstacles of every shape are read from scene.json, bodies keep their shape', () => {
  const run = loadRun(files());
  assert.deepEqual(run.obstacles.map((o) => [o.name, o.kind]),
    [['floor', 'plane'], ['post', 'sphere'], ['pulley', 'cylinder'], ['clip', 'capsule'], ['block', 'box'], ['part', 'mesh']]);
  assert.equal(run.obstacles[4].bodyIndex, 0);
  assert.equal(run.obstacles[2].length, null); // infinite cylinder
  assert.equal(run.bodies[0].shape.kind, 'box');
  assert.deepEqual(run.bodies[0].shape.size, [0.1, 0.2, 0.3]);
  assert.equal(run.joints[0].kind, 'revolute');
  assert.equal(run.contacts, null); // no contacts.csv: nothing to draw, no error
});

test('a fixed obstacle stays, a keyframed one follows its keyframes, a body-attached one its body', () => {
  const run = loadRun(files());
  const fixed = obstacleMotion(run.obstacles[1], run, 2);
  close(apply(fixed, [0.5, 0, 0.2]), [0.5, 0, 0.2], 1e-15, 'fixed sphere');
  // keyframes: at t = 0.5 halfway, position (0.5, 0, 0), turned 45° about z (slerp)
  const P = keyframePose(run.obstacles[3].motion, 0.5);
  close(P.x, [0.5, 0, 0], 1e-15, 'keyframe position');
  close(P.q, [Math.cos(Math.PI / 8), 0, 0, Math.sin(Math.PI / 8)], 1e-12, 'keyframe slerp');
  const M = obstacleMotion(run.obstacles[3], run, 1);
  // capsule end a = (0, -0.1, 0.5) rotated 45° about z, then shifted by 0.5 in x
  close(apply(M, [0, -0.1, 0.5]), [0.5 + 0.1 * S, -0.1 * S, 0.5], 1e-12, 'moved capsule end');
  // after the last keyframe the pose holds: t = 1 → 90°, (1, 0, 0)
  close(apply(obstacleMotion(run.obstacles[3], run, 2), [0, -0.1, 0.5]), [1.1, 0, 0.5], 1e-7, 'held pose');
  // body-attached box: world centre (1, 0, 0.1) at t = 0 is 0.1 above the body centre (1, 0, 0);
  // the body moves to (1, 0, -1) and turns about z (its own vertical axis): centre (1, 0, -0.9)
  close(apply(obstacleMotion(run.obstacles[4], run, 2), [1, 0, 0.1]), [1, 0, -0.9], 1e-7, 'box on the body');
  // a corner turns with the body: (1.1, 0.1, 0.2) → relative (0.1, 0.1, 0.2) turned 90° about z
  close(apply(obstacleMotion(run.obstacles[4], run, 2), [1.1, 0.1, 0.2]), [0.9, 0.1, -0.8], 1e-7, 'box corner');
});

test('contacts.csv: points, normal and friction force per output time', () => {
  const rows = [
    [0, 0, 1, 'floor', 0.5, 0, -2, 0, 0, 1, -1e-4, 3, 0.5, 0, 0, 'stick'],
    [0.5, 0, 0, 'floor', 0.25, 0, -2, 0, 0, 1, -2e-4, 4, 0, -1, 0, 'slip'],
    [0.5, 0, 1, 'rod:0:1', 0.7, 0, -2, 0, 1, 0, -1e-5, 1, 0, 0, 0.25, 'slip'],
    [0.75, 0, 1, 'floor', 0.5, 0, -2, 0, 0, 1, -1e-4, 9, 0, 0, 0, 'stick'],
  ];
  const run = loadRun(files({ 'contacts.csv': csv('t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state', rows) }));
  const F = run.contacts.frames;
  assert.deepEqual(F.map((a) => a.length), [1, 2, 0]);
  assert.deepEqual(F[0][0].p, [0.5, 0, -2]);
  assert.deepEqual(F[0][0].F, [0.5, 0, 3]); // Fn n + Ft
  assert.deepEqual(F[1][0].F, [0, -1, 4]);
  assert.deepEqual(F[1][1].F, [0, 1, 0.25]);
  assert.equal(F[1][1].other, 'rod:0:1');
  assert.equal(F[1][0].state, 'slip');
  // the row at t = 0.75 (not an output time) is not shown, and the page says so
  assert.equal(run.contacts.unmatched, 1);
  assert.ok(run.notes.some((n) => /contacts\.csv: 1 row/.test(n)), run.notes.join('; '));
});

test('a truncated contacts.csv is a readable error', () => {
  const text = 't,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state\n0,0,1,floor,0.5,0,-2,0,0,1\n';
  assert.throws(() => loadRun(files({ 'contacts.csv': text })), (e) => e instanceof ViewerDataError && /contacts\.csv: line 2/.test(e.message));
});

test('joint anchors and axis follow the bodies', () => {
  const run = loadRun(files());
  const J = run.joints[0];
  // t = 1: body at (1, 0, -1) turned 90° about z; its point (0, 0, 0.05) → (1, 0, -0.95); axis x → y
  const G = jointGeometry(J, run, 2);
  close(G.points[0], [1, 0, -0.95], 1e-7, 'body anchor');
  close(G.points[1], [1, 0, 0.05], 0, 'ground anchor');
  close(G.axis, [0, 1, 0], 1e-7, 'axis');
  assert.equal(G.kind, 'revolute');
});

test('bad obstacle entries and a bad body shape are readable', () => {
  const bad = (o) => {
    const f = files();
    const sc = JSON.parse(f['scene.json']);
    sc.obstacles = [o];
    f['scene.json'] = JSON.stringify(sc);
    return f;
  };
  const msg = (o, re) => assert.throws(() => loadRun(bad(o)), (e) => e instanceof ViewerDataError && re.test(e.message));
  msg({ name: 'x', shape: 'torus' }, /obstacle x: unknown shape "torus"/);
  msg({ name: 'x', shape: 'sphere', center: [0, 0, 0] }, /obstacle x: sphere without "radius"/);
  msg({ name: 'x', shape: 'mesh', vertices: [[0, 0, 0]], triangles: [[0, 1, 2]] }, /obstacle x: mesh triangle \[0,1,2\]/);
  msg({ name: 'x', shape: 'sphere', center: [0, 0, 0], radius: 1, body: 'nobody' }, /unknown body "nobody"/);
  msg({ name: 'x', shape: 'plane', point: [0, 0, 0], normal: [0, 0, 1], motion: { t: [0, 1], position: [[0, 0, 0]], orientation: [] } },
    /motion needs t, position and orientation/);
  const f = files();
  const sc = JSON.parse(f['scene.json']);
  sc.bodies[0].shape = { type: 'box', center: [0, 0, 0] };
  f['scene.json'] = JSON.stringify(sc);
  const run = loadRun(f);
  assert.equal(run.bodies[0].shape, null); // drawn as its inertia ellipsoid
  assert.ok(run.notes.some((n) => /body box: shape: box without "size"/.test(n)), run.notes.join('; '));
});

test('a body clamped to a rod end moves with the end in a mode shape', () => {
  // rod along x from (0, 0, 0) to (1, 0, 0), end clamped to the body at (1, 0, -0.2)
  const cl = [0, 1, 2].map((v) => [0, 0, v, 0.5 * v, 0.5 * v, 0, 0]);
  const modes = [0, 1, 2].map((v) => [1, 2.5, 15.7, 0, v, 0, 0, 0.1 * v, 0, 0.3 * v, 0.05 * v]);
  const f = {
    'summary.json': JSON.stringify({ analysis: 'modes', status: 'ok' }),
    'scene.json': JSON.stringify({ gravity: [0, 0, -9.81], rods: [{ name: 'r', section: { shape: 'circle', radius: 0.01 },
      ends: [{ type: 'pinned', body: -1 }, { type: 'clamped', body: 0, at: [0, 0, 0.2] }] }], bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1] }] }),
    'centerline.csv': csv('t,rod,vertex,s,x,y,z', cl),
    'bodies.csv': csv('t,body,x,y,z,q0,q1,q2,q3', [[0, 0, 1, 0, -0.2, 1, 0, 0, 0]]),
    'modes.csv': csv('mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz', modes),
  };
  const run = loadRun(f);
  const [B] = bodyModeShapes(run, run.modes[0]);
  // end: d = (0, 0, 0.2), r = (0, 0.6, 0.1); lever c - x_end = (0, 0, -0.2):
  // r × a = (0.6 (-0.2) - 0.1 * 0, 0.1 * 0 - 0 * (-0.2), 0) = (-0.12, 0, 0)
  close(B.d, [-0.12, 0, 0.2], 1e-7, 'body displacement');
  close(B.r, [0, 0.6, 0.1], 1e-7, 'body rotation');
  // a pinned end leaves the body's rotation free: no shape from the rod
  const sc = JSON.parse(f['scene.json']);
  sc.rods[0].ends[1].type = 'pinned';
  const run2 = loadRun({ ...f, 'scene.json': JSON.stringify(sc) });
  assert.equal(bodyModeShapes(run2, run2.modes[0])[0], null);
  // exponential map: 90° about z
  close(qexp([0, 0, Math.PI / 2]), [S, 0, 0, S], 1e-15, 'qexp');
});

test('modes_bodies.csv gives the bodies their part of each mode (preferred over the rod end)', () => {
  const cl = [0, 1, 2].map((v) => [0, 0, v, 0.5 * v, 0.5 * v, 0, 0]);
  const modes = [1, 2].flatMap((k) => [0, 1, 2].map((v) => [k, k, 2 * Math.PI * k, 0, v, 0, 0, 0.1 * v, 0, 0, 0]));
  const run = loadRun({
    'summary.json': JSON.stringify({ analysis: 'modes', status: 'ok' }),
    'scene.json': JSON.stringify({ gravity: [0, 0, -9.81], rods: [{ name: 'r', section: { shape: 'circle', radius: 0.01 } }],
      bodies: [{ name: 'a', mass: 1, inertia: [1, 1, 1] }, { name: 'b', mass: 1, inertia: [1, 1, 1] }] }),
    'centerline.csv': csv('t,rod,vertex,s,x,y,z', cl),
    'bodies.csv': csv('t,body,x,y,z,q0,q1,q2,q3', [[0, 0, 1, 0, -0.2, 1, 0, 0, 0], [0, 1, 2, 0, 0, 1, 0, 0, 0]]),
    'modes.csv': csv('mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz', modes),
    'modes_bodies.csv': csv('mode,body,dx,dy,dz,rx,ry,rz', [[1, 0, 0.1, 0, 0, 0, 0, 0.5], [2, 1, 0, 0, -0.3, 0.2, 0, 0], [2, 7, 1, 1, 1, 1, 1, 1]]),
  });
  assert.deepEqual(run.modes[0].bodyShapes, [{ d: [0.1, 0, 0], r: [0, 0, 0.5] }, null]);
  assert.deepEqual(run.modes[1].bodyShapes, [null, { d: [0, 0, -0.3], r: [0.2, 0, 0] }]); // body 7 does not exist: ignored
});
