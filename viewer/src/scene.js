// SPDX-License-Identifier: Apache-2.0
// The three.js scene of a run: rods as tubes of their real section, section
// directors, rigid bodies (their shape, else the inertia ellipsoid, and frames),
// obstacles, contacts and joints (scene_extras.js), ground grid in the
// plane normal to gravity, gravity arrow, lights and an orbit camera.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { colormap, colorRange } from './colormap.js';
import { directors, sectionOutline, tubeIndices, tubePositions, vertexFrames } from './geometry.js';
import { fieldExtent, fieldValues } from './fields.js';
import { bodyModeShapes, qexp, qmul } from './extras.js';
import { bodyShapeMaterial, SceneExtras, shapeObject } from './scene_extras.js';

const RING = 16;

// Bounding box of every rod vertex and body centre over all frames.
function sceneBounds(run) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const add = (a, step) => {
    for (let i = 0; i + 2 < a.length; i += step)
      for (let c = 0; c < 3; c++) if (Number.isFinite(a[i + c])) { lo[c] = Math.min(lo[c], a[i + c]); hi[c] = Math.max(hi[c], a[i + c]); }
  };
  run.rods.forEach((r) => add(r.x, 3));
  // finite obstacles at t = 0 (planes and infinite cylinders do not widen the view)
  (run.obstacles || []).forEach((o) => {
    if (o.kind === 'mesh') o.vertices.forEach((v) => add(v, 3));
    else if (o.kind === 'capsule') [o.a, o.b].forEach((p) => add(p.map((v) => v - o.radius), 3) || add(p.map((v) => v + o.radius), 3));
    else if (o.kind === 'sphere' || o.kind === 'box' || (o.kind === 'cylinder' && o.length)) {
      const r = o.kind === 'box' ? 0.5 * Math.hypot(...o.size) : o.kind === 'sphere' ? o.radius : Math.hypot(o.radius, o.length / 2);
      add(o.center.map((v) => v - r), 3);
      add(o.center.map((v) => v + r), 3);
    }
  });
  run.bodies.forEach((b) => {
    // the body's inertia ellipsoid around its centre
    const a = b.axes ? Math.max(...b.axes) : 0;
    for (let i = 0; i + 2 < b.x.length; i += 3) {
      if (!Number.isFinite(b.x[i])) continue;
      for (let c = 0; c < 3; c++) { lo[c] = Math.min(lo[c], b.x[i + c] - a); hi[c] = Math.max(hi[c], b.x[i + c] + a); }
    }
  });
  if (run.modes) {
    // mode shapes move the rods around their base position
    run.rods.forEach((r, k) => run.modes.forEach((m) => {
      const d = m.d[k], x = new Float32Array(d.length);
      for (let i = 0; i < d.length; i++) x[i] = r.x[i] + m.scale * d[i];
      add(x, 3);
    }));
  }
  if (!Number.isFinite(lo[0])) return { lo: [-1, -1, -1], hi: [1, 1, 1] };
  return { lo, hi };
}

export class RunScene {
  constructor(canvas, run) {
    this.run = run;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xf4f5f7);
    const g = new THREE.Vector3(...run.gravity);
    this.up = g.lengthSq() > 0 ? g.clone().normalize().negate() : new THREE.Vector3(0, 0, 1);
    this.camera = new THREE.PerspectiveCamera(40, 1, 1e-3, 1e3);
    this.camera.up.copy(this.up);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.render());
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.copy(this.up.clone().multiplyScalar(3).add(new THREE.Vector3(1, 2, 0)));
    this.scene.add(sun);
    this.field = 'none';
    this.showDirectors = false;
    this.modeScale = 0;
    this.prepareModes();
    this.bounds = sceneBounds(run);
    const { lo, hi } = this.bounds;
    this.center = new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    this.size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], ...run.rods.map((r) => r.length), 1e-3);
    this.camera.near = this.size * 1e-3;
    this.camera.far = this.size * 100;
    this.buildRods();
    this.buildBodies();
    this.extras = new SceneExtras(this.scene, run, this.size, this.center);
    this.buildHelpers();
    this.view('iso');
  }

  prepareModes() {
    const run = this.run;
    if (!run.modes) return;
    const L = Math.max(...run.rods.map((r) => r.length), 1e-3);
    for (const m of run.modes) {
      let dmax = 0, rmax = 0;
      m.d.forEach((d) => d.forEach((v) => { dmax = Math.max(dmax, Math.abs(v)); }));
      m.r.forEach((r) => r.forEach((v) => { rmax = Math.max(rmax, Math.abs(v)); }));
      // drawn amplitude: 15 % of the rod length, or 0.6 rad of rotation
      m.scale = Math.min(dmax > 0 ? 0.15 * L / dmax : Infinity, rmax > 0 ? 0.6 / rmax : Infinity);
      if (!Number.isFinite(m.scale)) m.scale = 0;
    }
  }

  buildRods() {
    this.rodMeshes = this.run.rods.map((rod) => {
      const outline = sectionOutline(rod.section, RING);
      const geo = new THREE.BufferGeometry();
      const pos = new Float32Array(3 * (rod.nv * RING + 2));
      geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
      geo.setAttribute('color', new THREE.BufferAttribute(new Float32Array(pos.length).fill(0.8), 3));
      geo.setIndex(tubeIndices(rod.nv, RING));
      const mat = new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.55, metalness: 0.05, side: THREE.DoubleSide });
      const mesh = new THREE.Mesh(geo, mat);
      this.scene.add(mesh);
      const dl = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ vertexColors: true }));
      const dpos = new Float32Array(rod.nseg * 3 * 2 * 3);
      const dcol = new Float32Array(dpos.length);
      for (let k = 0; k < rod.nseg; k++)
        for (let a = 0; a < 3; a++)
          for (let e = 0; e < 2; e++) dcol.set(a === 0 ? [0.9, 0.1, 0.1] : a === 1 ? [0.1, 0.7, 0.1] : [0.1, 0.2, 0.9], ((k * 3 + a) * 2 + e) * 3);
      dl.geometry.setAttribute('position', new THREE.BufferAttribute(dpos, 3));
      dl.geometry.setAttribute('color', new THREE.BufferAttribute(dcol, 3));
      dl.visible = false;
      this.scene.add(dl);
      return { mesh, outline, pos, directors: dl, xbuf: new Float32Array(3 * rod.nv), vals: new Float32Array(rod.nv) };
    });
  }

  buildBodies() {
    this.bodyObjs = this.run.bodies.map((b) => {
      const grp = new THREE.Group();
      const ax = b.axes || [0.03 * this.size, 0.03 * this.size, 0.03 * this.size];
      if (b.shape) {
        // the contact shape, in the body frame
        grp.add(shapeObject(b.shape, this.size, new THREE.Vector3(), bodyShapeMaterial()));
      } else {
        const ell = new THREE.Mesh(new THREE.SphereGeometry(1, 32, 16),
          new THREE.MeshStandardMaterial({ color: 0xc08a3e, roughness: 0.6, transparent: true, opacity: 0.85 }));
        ell.scale.set(ax[0], ax[1], ax[2]);
        grp.add(ell);
      }
      grp.add(new THREE.AxesHelper(1.6 * Math.max(...ax)));
      this.scene.add(grp);
      return grp;
    });
  }

  buildHelpers() {
    const { lo, hi } = this.bounds;
    const up = this.up;
    // ground: below the lowest point along gravity, grid cells of a round size
    let low = Infinity;
    for (const c of [[lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]], [lo[0], hi[1], lo[2]], [hi[0], lo[1], hi[2]],
      [lo[0], lo[1], hi[2]], [hi[0], hi[1], lo[2]], [lo[0], hi[1], hi[2]], [hi[0], lo[1], lo[2]]])
      low = Math.min(low, up.dot(new THREE.Vector3(...c)));
    const cell = Math.pow(10, Math.floor(Math.log10(this.size / 2)));
    const n = Math.max(4, Math.ceil((1.6 * this.size) / cell));
    this.gridCell = cell;
    const grid = new THREE.GridHelper(n * cell, n, 0x999999, 0xcccccc);
    grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
    const c = this.center.clone();
    grid.position.copy(c.sub(up.clone().multiplyScalar(up.dot(c) - low + 0.05 * this.size)));
    this.grid = grid;
    this.scene.add(grid);
    // gravity arrow beside the bounding box, at its top, out of the rods' way
    const L = 0.2 * this.size;
    let top = -Infinity, s0 = 0, f0 = 0;
    const [side, front] = this.horizontal();
    for (let i = 0; i < 8; i++) {
      const p = new THREE.Vector3(i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]);
      top = Math.max(top, up.dot(p));
      s0 = Math.min(s0, side.dot(p.clone().sub(this.center)));
      f0 = Math.min(f0, front.dot(p.clone().sub(this.center)));
    }
    const start = this.center.clone().add(side.clone().multiplyScalar(s0 - 0.1 * this.size))
      .add(front.clone().multiplyScalar(f0 - 0.1 * this.size)).add(up.clone().multiplyScalar(top - up.dot(this.center)));
    this.gravityArrow = new THREE.ArrowHelper(up.clone().negate(), start, L, 0x3355aa, 0.25 * L, 0.12 * L);
    if (Math.hypot(...this.run.gravity) > 0) this.scene.add(this.gravityArrow);
  }

  // Draw the tubes k times thicker than the real section (thin cables).
  setRadiusScale(k) {
    this.run.rods.forEach((rod, i) => {
      this.rodMeshes[i].outline = sectionOutline(rod.section, RING).map(([a, b]) => [k * a, k * b]);
    });
    this.radiusScale = k;
  }

  setField(kind) {
    this.field = kind;
    const ext = kind === 'none' ? null : fieldExtent(this.run, kind);
    this.range = ext ? colorRange(ext[0], ext[1], 1e-15) : null;
    return this.range;
  }

  // Rod centerline of rod k at frame f, displaced by mode m at phase a.
  centerline(k, f, m, a) {
    const rod = this.run.rods[k], o = this.rodMeshes[k];
    const nv = rod.nv;
    o.xbuf.set(rod.x.subarray(3 * nv * f, 3 * nv * (f + 1)));
    if (m) for (let i = 0; i < 3 * nv; i++) o.xbuf[i] += a * m.scale * m.d[k][i];
    return o.xbuf;
  }

  update(f, m, phase) {
    const run = this.run;
    this.frame = f;
    run.rods.forEach((rod, k) => {
      const o = this.rodMeshes[k];
      const nv = rod.nv, ns = rod.nseg;
      const x = this.centerline(k, f, m, phase);
      let rot = null;
      if (m) rot = m.r[k].map((v) => phase * m.scale * v);
      const q = rod.q ? rod.q.subarray(4 * ns * f, 4 * ns * (f + 1)) : null;
      const frames = vertexFrames(x, q, nv, rot);
      tubePositions(x, frames, o.outline, nv, o.pos);
      const geo = o.mesh.geometry;
      geo.attributes.position.needsUpdate = true;
      geo.computeVertexNormals();
      geo.computeBoundingSphere();
      const col = geo.attributes.color.array;
      const vals = this.field !== 'none' ? fieldValues(rod, f, this.field, run.times, o.vals) : null;
      for (let v = 0; v < nv + 1; v++) {
        const vi = Math.min(v, nv - 1);
        const rgb = vals && this.range ? colormap(this.range.map, (vals[vi] - this.range.lo) / (this.range.hi - this.range.lo)) : [0.78, 0.36, 0.2];
        const ring = v < nv ? [v * RING, (v + 1) * RING] : null;
        if (ring) for (let j = ring[0]; j < ring[1]; j++) col.set(rgb, 3 * j);
      }
      const c0 = vals && this.range ? colormap(this.range.map, (vals[0] - this.range.lo) / (this.range.hi - this.range.lo)) : [0.78, 0.36, 0.2];
      const c1 = vals && this.range ? colormap(this.range.map, (vals[nv - 1] - this.range.lo) / (this.range.hi - this.range.lo)) : [0.78, 0.36, 0.2];
      col.set(c0, 3 * nv * RING);
      col.set(c1, 3 * nv * RING + 3);
      geo.attributes.color.needsUpdate = true;
      o.directors.visible = this.showDirectors;
      if (this.showDirectors && ns > 0) {
        const dp = o.directors.geometry.attributes.position.array;
        const len = Math.max(3 * rod.radius, 0.3 * rod.length / ns);
        for (let s = 0; s < ns; s++) {
          const mid = [0, 1, 2].map((c) => 0.5 * (x[3 * s + c] + x[3 * s + 3 + c]));
          let d;
          if (q && !Number.isNaN(q[4 * s])) d = directors(q[4 * s], q[4 * s + 1], q[4 * s + 2], q[4 * s + 3]);
          else { const fr = frames[s]; const t = [0, 1, 2].map((c) => x[3 * s + 3 + c] - x[3 * s + c]); const n = Math.hypot(...t) || 1; d = [fr[0], fr[1], t.map((v) => v / n)]; }
          for (let a = 0; a < 3; a++) {
            const o2 = ((s * 3 + a) * 2) * 3;
            dp.set(mid, o2);
            dp.set(mid.map((v, c) => v + len * d[a][c]), o2 + 3);
          }
        }
        o.directors.geometry.attributes.position.needsUpdate = true;
        o.directors.geometry.computeBoundingSphere();
      }
    });
    // mode shapes: the bodies' part of the mode where the run wrote it, else
    // bodies clamped to a rod end move with that end (extras.js)
    const bm = m ? (m.bodyShapes || m.bodies || (m.bodies = bodyModeShapes(run, m))) : null;
    run.bodies.forEach((b, i) => {
      const g = this.bodyObjs[i];
      const x = Array.from(b.x.subarray(3 * f, 3 * f + 3));
      let q = Array.from(b.q.subarray(4 * f, 4 * f + 4));
      g.visible = Number.isFinite(x[0]);
      if (!g.visible) return;
      if (bm && bm[i]) {
        const s = phase * m.scale;
        for (let c = 0; c < 3; c++) x[c] += s * bm[i].d[c];
        q = qmul(qexp(bm[i].r.map((v) => s * v)), q);
      }
      g.position.set(x[0], x[1], x[2]);
      g.quaternion.set(q[1], q[2], q[3], q[0]); // three.js: (x, y, z, w)
    });
    this.extras.update(f);
    this.render();
  }

  resize(w, h) {
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  // Standard views: iso, front (looking along +y), side (along -x), top (along -up).
  // Horizontal directions (normal to gravity): side (e1 projected) and front.
  horizontal() {
    const up = this.up;
    const e1 = new THREE.Vector3(1, 0, 0), e2 = new THREE.Vector3(0, 1, 0);
    const h1 = e1.clone().sub(up.clone().multiplyScalar(up.dot(e1)));
    const side = h1.lengthSq() > 1e-6 ? h1.normalize() : e2.clone();
    return [side, up.clone().cross(side).normalize()];
  }

  view(name) {
    const up = this.up, c = this.center;
    // the bounding sphere fills about 80 % of the view height
    const d = (0.62 * this.size) / Math.tan((this.camera.fov * Math.PI) / 360);
    let dir;
    const [side, front] = this.horizontal();
    if (name === 'front') dir = front.clone().negate();
    else if (name === 'side') dir = side.clone();
    else if (name === 'top') dir = up.clone();
    else dir = front.clone().negate().multiplyScalar(0.8).add(side.clone().multiplyScalar(0.55)).add(up.clone().multiplyScalar(0.45)).normalize();
    this.camera.up.copy(name === 'top' ? front : up);
    this.camera.position.copy(c.clone().add(dir.multiplyScalar(d)));
    this.controls.target.copy(c);
    this.controls.update();
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }

  cameraParams() {
    const cam = this.camera, el = this.renderer.domElement, r = el.getBoundingClientRect();
    return {
      position: cam.position.toArray(), target: this.controls.target.toArray(), up: cam.up.toArray(),
      fov: cam.fov, aspect: cam.aspect, near: cam.near, far: cam.far,
      left: r.left, top: r.top, width: r.width, height: r.height,
    };
  }
}
