// SPDX-License-Identifier: Apache-2.0
// Colour maps for the rod colouring: a perceptually ordered sequential map
// (the viridis anchor colours of van der Walt and Smith, matplotlib 2015)
// and a diverging blue-white-red map (Moreland, "Diverging color maps for
// scientific visualization", 2009, anchor colours), linear between anchors.

const MAPS = {
  viridis: [
    [0.267, 0.005, 0.329], [0.283, 0.141, 0.458], [0.254, 0.265, 0.530], [0.207, 0.372, 0.553],
    [0.164, 0.471, 0.558], [0.128, 0.567, 0.551], [0.135, 0.659, 0.518], [0.267, 0.749, 0.441],
    [0.478, 0.821, 0.318], [0.741, 0.873, 0.150], [0.993, 0.906, 0.144],
  ],
  coolwarm: [[0.230, 0.299, 0.754], [0.865, 0.865, 0.865], [0.706, 0.016, 0.150]],
};

export const colormapNames = Object.keys(MAPS);

// RGB in [0, 1] of map `name` at u in [0, 1] (clamped; NaN -> grey).
export function colormap(name, u) {
  const a = MAPS[name] || MAPS.viridis;
  if (!Number.isFinite(u)) return [0.5, 0.5, 0.5];
  const x = Math.min(Math.max(u, 0), 1) * (a.length - 1);
  const i = Math.min(Math.floor(x), a.length - 2);
  const w = x - i;
  return [0, 1, 2].map((c) => a[i][c] * (1 - w) + a[i + 1][c] * w);
}

// Range of the colour bar for values spanning [lo, hi]: a quantity whose
// variation is round-off (spread below 1e-9 of its magnitude, or below
// `floor` in absolute terms) gets a range around its value instead of being
// stretched onto noise; signed quantities crossing zero get a symmetric
// range with the diverging map.
export function colorRange(lo, hi, floor = 0) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { lo: 0, hi: 1, map: 'viridis', constant: true };
  const mag = Math.max(Math.abs(lo), Math.abs(hi));
  if (hi - lo <= Math.max(1e-9 * mag, floor)) {
    const c = 0.5 * (lo + hi);
    const w = Math.max(Math.abs(c), floor, 1e-30);
    return { lo: c - w, hi: c + w, map: 'viridis', constant: true };
  }
  if (lo < 0 && hi > 0) return { lo: -mag, hi: mag, map: 'coolwarm', constant: false };
  return { lo, hi, map: 'viridis', constant: false };
}
