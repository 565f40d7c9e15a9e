// SPDX-License-Identifier: Apache-2.0
// three.js objects of obstacles, body shapes, contact points and forces,
// and joints (data from extras.js), updated per output frame.
import * as THREE from 'three';
import { jointGeometry, obstacleMotion } from './extras.js';

const Y = new THREE.Vector3(0, 1, 0);
const v3 = (a) => new THREE.Vector3(a[0], a[1], a[2]);
const JOINT_COLOURS = { spherical: 0x7a3db8, revolute: 0x1f8a70, prismatic: 0xc0392b, cylindrical: 0x2e86c1,
  planar: 0x8e44ad, bushing: 0x7f8c8d, universal: 0xd68910, fixed: 0x34495e };
export const JOINT_COLOUR = (kind) => JOINT_COLOURS[kind] ?? 0x555555;

// Mesh of one shape in the coordinates its fields are given in; size: the
// scene's size (extent of planes and of infinite cylinders).
export function shapeObject(s, size, center, material) {
  let geo, pos = null, quat = null;
  switch (s.kind) {
    case 'plane': {
      geo = new THREE.PlaneGeometry(2 * size, 2 * size);
      const n = v3(s.normal).normalize(), p = v3(s.point);
      quat = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      // centred at the scene centre's projection onto the plane
      pos = center.clone().sub(n.clone().multiplyScalar(n.dot(center.clone().sub(p))));
      break;
    }
    case 'sphere':
      geo = new THREE.SphereGeometry(s.radius, 32, 16);
      pos = v3(s.center);
      break;
    case 'cylinder': {
      const len = s.length === null || s.length === undefined ? 4 * size : s.length;
      geo = new THREE.CylinderGeometry(s.radius, s.radius, len, 32, 1, false);
      pos = v3(s.center);
      quat = new THREE.Quaternion().setFromUnitVectors(Y, v3(s.axis).normalize());
      break;
    }
    case 'capsule': {
      const a = v3(s.a), b = v3(s.b), d = b.clone().sub(a);
      geo = new THREE.CapsuleGeometry(s.radius, d.length(), 8, 24);
      pos = a.clone().add(b).multiplyScalar(0.5);
      if (d.lengthSq() > 0) quat = new THREE.Quaternion().setFromUnitVectors(Y, d.normalize());
      break;
    }
    case 'box': {
      geo = new THREE.BoxGeometry(s.size[0], s.size[1], s.size[2]);
      pos = v3(s.center);
      const q = s.orientation;
      quat = new THREE.Quaternion(q[1], q[2], q[3], q[0]).normalize();
      break;
    }
    default: { // mesh
      geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.BufferAttribute(Float32Array.from(s.vertices.flat()), 3));
      geo.setIndex(s.triangles.flat());
      geo.computeVertexNormals();
    }
  }
  const mesh = new THREE.Mesh(geo, material);
  if (pos) mesh.position.copy(pos);
  if (quat) mesh.quaternion.copy(quat);
  mesh.name = s.name || s.kind;
  return mesh;
}

export const obstacleMaterial = () => new THREE.MeshStandardMaterial({ color: 0x8d99a6, roughness: 0.8, transparent: true,
  opacity: 0.55, side: THREE.DoubleSide, depthWrite: false });
export const bodyShapeMaterial = () => new THREE.MeshStandardMaterial({ color: 0xc08a3e, roughness: 0.6, transparent: true, opacity: 0.9 });

export class SceneExtras {
  constructor(scene3, run, size, center) {
    this.run = run;
    this.size = size;
    this.showContacts = true;
    this.obstacles = run.obstacles.map((ob) => {
      const grp = new THREE.Group();
      grp.add(shapeObject(ob, size, center, obstacleMaterial()));
      grp.matrixAutoUpdate = true;
      scene3.add(grp);
      return grp;
    });
    // contacts: points and force arrows (lines) in buffers sized for the busiest frame
    const maxc = run.contacts ? Math.max(1, ...run.contacts.frames.map((a) => a.length)) : 0;
    this.contactScale = 0;
    if (run.contacts) {
      let fmax = 0;
      run.contacts.frames.forEach((a) => a.forEach((c) => { fmax = Math.max(fmax, Math.hypot(...c.F)); }));
      // the largest force drawn 15 % of the scene long
      this.contactScale = fmax > 0 ? (0.15 * size) / fmax : 0;
      this.fmax = fmax;
      const pg = new THREE.BufferGeometry();
      pg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * maxc), 3));
      this.points = new THREE.Points(pg, new THREE.PointsMaterial({ color: 0xd01010, size: 7, sizeAttenuation: false, depthTest: false }));
      const lg = new THREE.BufferGeometry();
      lg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * maxc), 3));
      this.arrows = new THREE.LineSegments(lg, new THREE.LineBasicMaterial({ color: 0xd01010, depthTest: false }));
      this.points.renderOrder = this.arrows.renderOrder = 10;
      scene3.add(this.points, this.arrows);
    }
    // joints: a marker at each side's anchor point, a line between them and the axes
    this.joints = run.joints.map((J) => {
      const col = JOINT_COLOUR(J.kind);
      const r = 0.012 * size;
      const grp = new THREE.Group();
      const m0 = new THREE.Mesh(J.kind === 'fixed' ? new THREE.BoxGeometry(2 * r, 2 * r, 2 * r) : new THREE.SphereGeometry(r, 16, 8),
        new THREE.MeshBasicMaterial({ color: col, depthTest: false }));
      const m1 = m0.clone();
      const lg = new THREE.BufferGeometry();
      lg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(18), 3));
      const lines = new THREE.LineSegments(lg, new THREE.LineBasicMaterial({ color: col, depthTest: false }));
      // drawn over the bodies they sit in
      m0.renderOrder = m1.renderOrder = lines.renderOrder = 11;
      grp.add(m0, m1, lines);
      scene3.add(grp);
      return { grp, m0, m1, lines, len: 0.1 * size };
    });
  }

  update(f) {
    const run = this.run;
    run.obstacles.forEach((ob, i) => {
      const M = obstacleMotion(ob, run, f), g = this.obstacles[i];
      g.visible = !!M;
      if (!M) return;
      g.quaternion.set(M.q[1], M.q[2], M.q[3], M.q[0]);
      g.position.set(M.x[0], M.x[1], M.x[2]);
    });
    if (run.contacts) {
      const list = run.contacts.frames[f] || [];
      const p = this.points.geometry.attributes.position, l = this.arrows.geometry.attributes.position;
      list.forEach((c, k) => {
        p.array.set(c.p, 3 * k);
        l.array.set(c.p, 6 * k);
        l.array.set(c.p.map((v, j) => v + this.contactScale * c.F[j]), 6 * k + 3);
      });
      this.points.geometry.setDrawRange(0, list.length);
      this.arrows.geometry.setDrawRange(0, 2 * list.length);
      p.needsUpdate = l.needsUpdate = true;
      this.points.geometry.computeBoundingSphere();
      this.arrows.geometry.computeBoundingSphere();
      this.points.visible = this.arrows.visible = this.showContacts;
      this.contactCount = list.length;
    }
    run.joints.forEach((J, i) => {
      const o = this.joints[i], G = jointGeometry(J, run, f);
      o.grp.visible = !!G;
      if (!G) return;
      o.m0.position.set(...G.points[0]);
      o.m1.position.set(...G.points[1]);
      const a = o.lines.geometry.attributes.position.array;
      a.fill(0);
      a.set(G.points[0], 0);
      a.set(G.points[1], 3);
      [G.axis, G.axis2].forEach((ax, k) => {
        if (!ax) return;
        const p = G.points[k];
        a.set(p.map((v, c) => v - o.len * ax[c]), 6 + 6 * k);
        a.set(p.map((v, c) => v + o.len * ax[c]), 9 + 6 * k);
      });
      o.lines.geometry.attributes.position.needsUpdate = true;
      o.lines.geometry.computeBoundingSphere();
    });
  }
}
