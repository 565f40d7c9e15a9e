// SPDX-License-Identifier: Apache-2.0
// Scalar fields the rods can be coloured by, per vertex and output frame,
// from the output files ([manual: output reference]: Γ, F on segments, K on vertices, all
// material components): segment values are averaged onto vertices.

export const FIELDS = {
  none: { label: 'plain', unit: '' },
  strain: { label: 'axial strain Γ₃', unit: '–', needs: 'strains' },
  shear: { label: 'shear strain |Γ₁, Γ₂|', unit: '–', needs: 'strains' },
  curvature: { label: 'bending curvature |K₁, K₂|', unit: '1/m', needs: 'curvatures' },
  twist: { label: 'twist K₃', unit: '1/m', needs: 'curvatures' },
  force: { label: 'axial force F₃', unit: 'N', needs: 'strains' },
  speed: { label: 'speed |ẋ|', unit: 'm/s', needs: 'x' },
};

function segToVertex(seg, nseg, out) {
  const nv = nseg + 1;
  for (let v = 0; v < nv; v++) {
    const a = v > 0 ? seg[v - 1] : NaN, b = v < nseg ? seg[v] : NaN;
    out[v] = Number.isNaN(a) ? b : Number.isNaN(b) ? a : 0.5 * (a + b);
  }
  return out;
}

// Values of field `kind` on the vertices of rod at frame f (Float32Array(nv)),
// or null when the file it needs is missing.  times: the output times.
export function fieldValues(rod, f, kind, times, out) {
  const nv = rod.nv, ns = rod.nseg;
  out = out || new Float32Array(nv);
  const seg = new Float32Array(ns);
  if (kind === 'strain' || kind === 'shear' || kind === 'force') {
    if (!rod.strains) return null;
    const a = rod.strains;
    for (let k = 0; k < ns; k++) {
      const o = (f * ns + k) * 6;
      seg[k] = kind === 'strain' ? a[o + 2] : kind === 'force' ? a[o + 5] : Math.hypot(a[o], a[o + 1]);
    }
    return segToVertex(seg, ns, out);
  }
  if (kind === 'curvature' || kind === 'twist') {
    if (!rod.curvatures) return null;
    const a = rod.curvatures;
    for (let v = 0; v < nv; v++) {
      const o = (f * nv + v) * 6;
      out[v] = kind === 'twist' ? a[o + 2] : Math.hypot(a[o], a[o + 1]);
    }
    return out;
  }
  if (kind === 'speed') {
    const nt = times.length;
    if (nt < 2) return out.fill(0);
    // central differences inside, one-sided at the ends (second order in
    // the interior on uneven time grids is not needed for a colour)
    const f0 = f === 0 ? 0 : f - 1, f1 = f === nt - 1 ? nt - 1 : f + 1;
    const dt = times[f1] - times[f0];
    for (let v = 0; v < nv; v++) {
      let s2 = 0;
      for (let c = 0; c < 3; c++) {
        const d = rod.x[(f1 * nv + v) * 3 + c] - rod.x[(f0 * nv + v) * 3 + c];
        s2 += d * d;
      }
      out[v] = dt > 0 ? Math.sqrt(s2) / dt : 0;
    }
    return out;
  }
  return out.fill(0);
}

// [min, max] of field `kind` over all rods and frames (NaN skipped).
export function fieldExtent(run, kind) {
  let lo = Infinity, hi = -Infinity;
  for (const rod of run.rods) {
    const buf = new Float32Array(rod.nv);
    for (let f = 0; f < run.times.length; f++) {
      const v = fieldValues(rod, f, kind, run.times, buf);
      if (!v) return null;
      for (const x of v) if (Number.isFinite(x)) { if (x < lo) lo = x; if (x > hi) hi = x; }
    }
  }
  return [lo, hi];
}
