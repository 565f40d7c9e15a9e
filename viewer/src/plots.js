// SPDX-License-Identifier: Apache-2.0
// Small 2D line plots on a canvas (energy over time, tip trajectory) with a
// cursor at the current output time.

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#111111'];

function extent(arrs) {
  let lo = Infinity, hi = -Infinity;
  for (const a of arrs) for (const v of a) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!(hi > lo)) { const c = Number.isFinite(lo) ? lo : 0; const w = Math.max(Math.abs(c) * 0.1, 1e-9); return [c - w, c + w]; }
  const pad = 0.05 * (hi - lo);
  return [lo - pad, hi + pad];
}

function fmt(v) {
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e4) ? v.toExponential(1) : v.toPrecision(3).replace(/\.?0+$/, '');
}

// series: [{name, x, y}], opts: {title, xlabel, ylabel, equal}; returns a
// function cursor(i) that redraws with the marker at sample i.
export function linePlot(canvas, series, opts) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  const L = 48, R = 8, T = 18, B = 28;
  let [x0, x1] = extent(series.map((s) => s.x));
  let [y0, y1] = extent(series.map((s) => s.y));
  if (opts.equal) {
    const sx = (x1 - x0) / (W - L - R), sy = (y1 - y0) / (H - T - B), s = Math.max(sx, sy);
    const cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
    x0 = cx - 0.5 * s * (W - L - R); x1 = cx + 0.5 * s * (W - L - R);
    y0 = cy - 0.5 * s * (H - T - B); y1 = cy + 0.5 * s * (H - T - B);
  }
  const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const py = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  function draw(cur) {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = '#999';
    ctx.strokeRect(L, T, W - L - R, H - T - B);
    ctx.fillStyle = '#222';
    ctx.font = '11px sans-serif';
    ctx.fillText(opts.title, L, 12);
    ctx.fillText(fmt(x0), L, H - B + 12);
    ctx.textAlign = 'right';
    ctx.fillText(fmt(x1), W - R, H - B + 12);
    ctx.fillText(fmt(y1), L - 3, T + 9);
    ctx.fillText(fmt(y0), L - 3, H - B);
    ctx.textAlign = 'center';
    ctx.fillText(opts.xlabel, L + 0.5 * (W - L - R), H - 4);
    ctx.save();
    ctx.translate(10, T + 0.5 * (H - T - B));
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(opts.ylabel, 0, 0);
    ctx.restore();
    ctx.textAlign = 'left';
    series.forEach((s, k) => {
      ctx.strokeStyle = s.color || COLORS[k % COLORS.length];
      ctx.beginPath();
      let pen = false;
      for (let i = 0; i < s.x.length; i++) {
        if (!Number.isFinite(s.y[i]) || !Number.isFinite(s.x[i])) { pen = false; continue; }
        if (pen) ctx.lineTo(px(s.x[i]), py(s.y[i])); else ctx.moveTo(px(s.x[i]), py(s.y[i]));
        pen = true;
      }
      ctx.stroke();
      if (series.length > 1) {
        ctx.fillStyle = ctx.strokeStyle;
        ctx.fillText(s.name, L + 4 + 60 * k, T + 12);
      }
      if (cur !== undefined && cur < s.x.length) {
        ctx.beginPath();
        ctx.arc(px(s.x[cur]), py(s.y[cur]), 3, 0, 2 * Math.PI);
        ctx.fill();
      }
    });
    if (cur !== undefined && opts.cursorX) {
      ctx.strokeStyle = '#888';
      ctx.beginPath();
      ctx.moveTo(px(series[0].x[cur]), T);
      ctx.lineTo(px(series[0].x[cur]), H - B);
      ctx.stroke();
    }
  }
  draw();
  return draw;
}
