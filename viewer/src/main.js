// SPDX-License-Identifier: Apache-2.0
// cosrod viewer: the page `cosrod view DIR` writes.  The run's files are
// inlined in <script id="cosrod-data" type="application/json">
// ({"files": {name: text}, "note": "..."}); this builds the 3D view, the
// controls, the summary and the plots.  window.cosrodView exposes the state
// for scripts and tests (camera parameters, setFrame, ready, error).
import { loadRun, frameLabel } from './data.js';
import { RunScene } from './scene.js';
import { FIELDS } from './fields.js';
import { colormap } from './colormap.js';
import { linePlot } from './plots.js';

const CSS = `
body{margin:0;font:13px system-ui,sans-serif;color:#222;background:#fff;overflow:hidden}
#cv-main{position:absolute;left:0;top:0;right:330px;bottom:64px}
#cv-canvas{width:100%;height:100%;display:block}
#cv-side{position:absolute;right:0;top:0;bottom:0;width:330px;overflow-y:auto;overflow-x:hidden;border-left:1px solid #ddd;padding:6px 8px;box-sizing:border-box}
#cv-bar{position:absolute;left:0;right:330px;bottom:0;height:64px;border-top:1px solid #ddd;padding:4px 8px;box-sizing:border-box}
#cv-bar input[type=range]{width:100%}
button,select{font:12px system-ui,sans-serif;margin:1px}
h1{font-size:15px;margin:2px 0 6px}
h2{font-size:13px;margin:10px 0 3px}
table{border-collapse:collapse;font-size:12px}td{padding:0 6px 0 0}
.cv-note{color:#8a5300;font-size:12px;margin:2px 0}
#cv-error{position:absolute;inset:0;background:#fff;padding:30px;font-size:15px;color:#a00;white-space:pre-wrap}
#cv-legend{position:absolute;left:8px;bottom:8px;background:rgba(255,255,255,.85);padding:4px 6px;font-size:12px;border-radius:3px}
#cv-cbar{position:absolute;right:8px;top:8px;background:rgba(255,255,255,.85);padding:4px 6px;font-size:12px;border-radius:3px}
`;

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function showError(msg) {
  const box = el('div', { id: 'cv-error' });
  box.textContent = `cosrod viewer: cannot show this run\n\n${msg}`;
  document.body.append(box);
  window.cosrodView = { ready: true, error: msg };
}

function readFiles() {
  const tag = document.getElementById('cosrod-data');
  if (!tag) throw new Error('no data in this page (script#cosrod-data is missing)');
  return JSON.parse(tag.textContent);
}

function summaryPanel(run) {
  const s = run.summary, st = s.stats || {}, e = s.energy || {};
  const rows = [
    ['analysis', run.analysis], ['status', s.status + (s.message ? `: ${s.message}` : '')],
    ['t reached', `${s.t_reached} of ${s.t_end}`], ['integrator', st.integrator || s.integrator || '–'],
  ];
  if (s.integrator_reason) rows.push(['why', s.integrator_reason]);
  if (st.nsteps !== undefined) rows.push(['steps', `${st.nsteps} (${st.nreject} rejected)`], ['evaluations', `${st.nfev} f, ${st.njev} Jacobians`]);
  if (s.wall_time !== undefined) rows.push(['wall time', `${Number(s.wall_time).toFixed(3)} s`]);
  if (e.balance_max_drift !== undefined)
    rows.push(['energy balance', `drift ${Number(e.balance_max_drift).toExponential(2)} J of ${Number(e.energy_scale).toPrecision(3)} J`]);
  rows.push(['frames', String(run.times.length)]);
  const tab = el('table', {}, ...rows.map(([k, v]) => el('tr', {}, el('td', { text: k }), el('td', { text: String(v) }))));
  const warn = (s.warnings || []).map((w) => el('div', { class: 'cv-note', text: `warning: ${w}` }));
  const notes = run.notes.map((n) => el('div', { class: 'cv-note', text: n }));
  return el('div', {}, el('h2', { text: 'Run' }), tab, ...warn, ...notes);
}

function start() {
  document.head.append(el('style', { text: CSS }));
  let run;
  try {
    const data = readFiles();
    run = loadRun(data.files, data.note);
  } catch (e) {
    showError(e.message);
    return;
  }
  document.title = `cosrod: ${run.title}`;
  const canvas = el('canvas', { id: 'cv-canvas' });
  const legend = el('div', { id: 'cv-legend' });
  const cbar = el('div', { id: 'cv-cbar' });
  cbar.style.display = 'none';
  const main = el('div', { id: 'cv-main' }, canvas, legend, cbar);
  const side = el('div', { id: 'cv-side' });
  const bar = el('div', { id: 'cv-bar' });
  document.body.append(main, side, bar);
  let sc;
  try {
    sc = new RunScene(canvas, run);
  } catch (e) {
    showError(`3D view unavailable (WebGL): ${e.message}`);
    return;
  }
  const isModes = !!(run.modes && run.modes.length && (run.analysis === 'modes' || run.analysis === 'buckling'));
  const state = { f: 0, playing: !isModes ? run.times.length > 1 : true, speed: 1, loop: true, mode: 0, phase: 0, clock: 0 };

  // --- side panel
  side.append(el('h1', { text: run.title || 'cosrod run' }));
  const fieldSel = el('select', { id: 'cv-field' }, ...Object.entries(FIELDS).map(([k, v]) => el('option', { value: k, text: v.label })));
  const dirBox = el('input', { type: 'checkbox', id: 'cv-directors' });
  const thick = el('select', { id: 'cv-radius' }, ...[1, 2, 5, 10, 20, 50].map((k) => el('option', { value: String(k), text: `${k}×` })));
  thick.addEventListener('change', () => { sc.setRadiusScale(Number(thick.value)); updateLegend(); redraw(); });
  const viewBtns = ['iso', 'front', 'side', 'top'].map((v) => el('button', { text: v, onclick: () => sc.view(v) }));
  side.append(el('h2', { text: 'View' }), el('div', {}, 'colour: ', fieldSel), el('div', {}, dirBox, ' directors d₁ (red) d₂ (green) d₃ (blue)'),
    el('div', {}, 'tube radius: ', thick, ' the real section'),
    el('div', {}, ...viewBtns, el('button', { text: 'reset', onclick: () => sc.view('iso') })));
  const pngBtn = el('button', { text: 'PNG', onclick: () => exportPNG() });
  const webmBtn = el('button', { text: 'WebM', onclick: () => recordWebM() });
  if (!(window.MediaRecorder && canvas.captureStream)) webmBtn.disabled = true;
  side.append(el('div', {}, 'export: ', pngBtn, webmBtn));
  const contactBox = el('input', { type: 'checkbox', id: 'cv-contacts' });
  if (run.contacts) {
    contactBox.checked = true;
    contactBox.addEventListener('change', () => { sc.extras.showContacts = contactBox.checked; redraw(); });
    const fs = sc.extras.fmax > 0 ? ` (arrows: force on the rod, ${sc.extras.fmax.toPrecision(3)} N = ${(0.15 * sc.size).toPrecision(3)} m)` : '';
    side.append(el('div', {}, contactBox, ` contact points${fs}`));
  }
  if (run.joints.length) {
    const names = (b) => (b < 0 ? 'ground' : (run.bodies[b] && run.bodies[b].name) || `body${b}`);
    side.append(el('h2', { text: 'Joints' }), ...run.joints.map((J) =>
      el('div', { class: 'cv-joint', text: `${J.kind || J.type}: ${names(J.bodies[0])} – ${names(J.bodies[1])}${J.axis ? ' (line: axis)' : ''}` })));
  }
  if (run.obstacles.length)
    side.append(el('h2', { text: 'Obstacles' }), ...run.obstacles.map((o) => el('div', { text: `${o.name}: ${o.kind}${o.body ? ` on ${o.body}` : ''}${o.motion ? ', moving' : ''}` })));
  let modeSel = null, modeInfo = null;
  if (isModes) {
    modeSel = el('select', { id: 'cv-mode' }, ...run.modes.map((m, i) => el('option', { value: String(i), text: modeText(m) })));
    modeInfo = el('div', {});
    modeSel.addEventListener('change', () => { state.mode = Number(modeSel.value); redraw(); });
    side.append(el('h2', { text: run.analysis === 'buckling' ? 'Buckling modes' : 'Mode shapes' }), modeSel, modeInfo);
  }
  side.append(summaryPanel(run));
  const plotBox = el('div', {});
  side.append(plotBox);
  const cursors = [];
  if (!isModes && run.times.length > 1) buildPlots();

  function modeText(m) {
    if (m.loadFactor !== null && m.loadFactor !== undefined) return `mode ${m.index}: load factor ${m.loadFactor.toPrecision(6)}`;
    return `mode ${m.index}: ${m.frequency.toPrecision(5)} Hz${m.type ? ` (${m.type})` : ''}`;
  }

  function buildPlots() {
    const t = Array.from(run.times);
    const xl = run.analysis === 'static' ? 'pseudo-time t' : 't [s]';
    if (run.energy && run.energy.n > 1) {
      const E = run.energy;
      const c = el('canvas', { width: 300, height: 170 });
      plotBox.append(el('h2', { text: 'Energy' }), c);
      const idx = Array.from(E.t).map((v) => v);
      // static paths: no kinetic energy, and no balance (the loads are ramped)
      const names = (run.analysis === 'static' ? ['elastic', 'gravity'] : ['kinetic', 'elastic', 'gravity', 'balance']).filter((k) => E[k]);
      const draw = linePlot(c, names.map((k) => ({ name: k, x: idx, y: Array.from(E[k]) })), { title: 'energy [J]', xlabel: xl, ylabel: 'J', cursorX: true });
      const tIndex = new Map(idx.map((v, i) => [v, i]));
      cursors.push((f) => draw(tIndex.get(run.times[f])));
    }
    if (run.rods.length) {
      const r = run.rods[0], nv = r.nv;
      const tip = [0, 1, 2].map((c) => t.map((_, f) => r.x[(f * nv + nv - 1) * 3 + c]));
      const span = tip.map((a) => Math.max(...a) - Math.min(...a));
      const ax = [0, 1, 2].sort((a, b) => span[b] - span[a]).slice(0, 2).sort();
      const c = el('canvas', { width: 300, height: 200 });
      plotBox.append(el('h2', { text: `Tip of ${r.name}` }), c);
      const draw = linePlot(c, [{ name: 'tip', x: tip[ax[0]], y: tip[ax[1]] }],
        { title: `tip trajectory (${'xyz'[ax[0]]}, ${'xyz'[ax[1]]})`, xlabel: `${'xyz'[ax[0]]} [m]`, ylabel: `${'xyz'[ax[1]]} [m]`, equal: true });
      cursors.push((f) => draw(f));
    }
  }

  // --- bottom bar: time slider and playback
  const slider = el('input', { type: 'range', min: '0', max: String(Math.max(run.times.length - 1, 0)), value: '0', step: '1', id: 'cv-slider' });
  const label = el('span', { id: 'cv-time' });
  const playBtn = el('button', { id: 'cv-play' });
  const speedSel = el('select', {}, ...[0.1, 0.25, 0.5, 1, 2, 4].map((v) => el('option', { value: String(v), text: `${v}×` })));
  speedSel.value = '1';
  const loopBox = el('input', { type: 'checkbox' });
  loopBox.checked = true;
  const step = (d) => { state.playing = false; setFrame(Math.min(Math.max(state.f + d, 0), run.times.length - 1)); };
  bar.append(slider, el('div', {}, playBtn, el('button', { text: '◀', title: 'previous frame', onclick: () => step(-1) }),
    el('button', { text: '▶', title: 'next frame', onclick: () => step(1) }), ' speed ', speedSel, ' ', loopBox, ' loop  ', label));
  if (isModes) slider.disabled = run.times.length < 2;
  slider.addEventListener('input', () => { state.playing = false; setFrame(Number(slider.value)); });
  playBtn.addEventListener('click', () => { state.playing = !state.playing; if (state.playing && state.f >= run.times.length - 1 && !isModes) setFrame(0); updateButtons(); });
  speedSel.addEventListener('change', () => { state.speed = Number(speedSel.value); });
  loopBox.addEventListener('change', () => { state.loop = loopBox.checked; });
  fieldSel.addEventListener('change', () => { const r = sc.setField(fieldSel.value); drawColorBar(r); redraw(); });
  dirBox.addEventListener('change', () => { sc.showDirectors = dirBox.checked; redraw(); });

  function updateButtons() { playBtn.textContent = state.playing ? '❚❚ pause' : '▶ play'; }

  function drawColorBar(r) {
    if (!r) { cbar.style.display = 'none'; return; }
    const info = FIELDS[fieldSel.value];
    const c = el('canvas', { width: 16, height: 140 });
    const g = c.getContext('2d');
    for (let y = 0; y < 140; y++) { const [R, G, B] = colormap(r.map, 1 - y / 139); g.fillStyle = `rgb(${255 * R | 0},${255 * G | 0},${255 * B | 0})`; g.fillRect(0, y, 16, 1); }
    const fmt = (v) => (Math.abs(v) < 1e-3 || Math.abs(v) >= 1e4) && v !== 0 ? v.toExponential(2) : v.toPrecision(3);
    cbar.replaceChildren(el('div', { text: `${info.label} [${info.unit}]` }),
      el('div', { style: 'display:flex;gap:4px' }, c, el('div', { style: 'display:flex;flex-direction:column;justify-content:space-between' },
        el('span', { text: fmt(r.hi) }), el('span', { text: fmt(0.5 * (r.lo + r.hi)) }), el('span', { text: fmt(r.lo) }))),
      r.constant ? el('div', { class: 'cv-note', text: 'constant up to round-off' }) : '');
    cbar.style.display = '';
  }

  function redraw() {
    const m = isModes ? run.modes[state.mode] : null;
    sc.update(state.f, m, m ? Math.sin(state.phase) : 0);
    if (isModes) {
      label.textContent = `mode ${m.index}, phase ${(state.phase % (2 * Math.PI)).toFixed(2)} rad`;
      const amp = m.scale;
      modeInfo.textContent = (m.loadFactor !== null && m.loadFactor !== undefined ? `critical load factor ${m.loadFactor.toPrecision(8)}` :
        `f = ${m.frequency.toPrecision(8)} Hz, ω = ${m.omega.toPrecision(6)} 1/s`) + `; drawn ×${amp.toPrecision(3)} (normalised shape)`;
    } else {
      label.textContent = `${frameLabel(run, state.f)}  (frame ${state.f + 1}/${run.times.length})`;
    }
    slider.value = String(state.f);
    cursors.forEach((c) => c(state.f));
  }

  function setFrame(f) { state.f = f; redraw(); }

  function updateLegend() {
    const g = Math.hypot(...run.gravity);
    const r = run.rods.length ? run.rods.map((x) => x.radius).reduce((a, b) => Math.max(a, b)) : 0;
    const thin = r > 0 && r < 2e-3 * sc.size && (sc.radiusScale || 1) === 1 ? ' · thin rods: thicken them with “tube radius”' : '';
    legend.textContent = `grid ${sc.gridCell} m · ${g > 0 ? `gravity ↓ ${g.toFixed(2)} m/s² (blue arrow)` : 'no gravity'}` +
      `${(sc.radiusScale || 1) > 1 ? ` · tubes drawn ${sc.radiusScale}× thicker` : ''}${thin} · drag: orbit, right-drag: pan, wheel: zoom`;
  }
  updateLegend();

  // the last exports (PNG data URL, WebM blob), for scripts and tests
  const exported = { png: null, webm: null };
  function exportPNG() {
    sc.render();
    const url = canvas.toDataURL('image/png');
    exported.png = url;
    const a = el('a', { href: url, download: 'cosrod-view.png' });
    document.body.append(a); a.click(); a.remove();
  }

  // WebM of the animation from its start (at least 3 s; mode shapes: 3 s); the canvas is
  // redrawn on every animation frame while recording, so that the stream
  // carries frames also where the picture does not change.
  function recordWebM() {
    const type = ['video/webm;codecs=vp8', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t)) || 'video/webm';
    const rec = new MediaRecorder(canvas.captureStream(30), { mimeType: type });
    const chunks = [];
    rec.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
    rec.onstop = () => {
      state.recording = false;
      const blob = new Blob(chunks, { type: 'video/webm' });
      exported.webm = blob;
      const a = el('a', { href: URL.createObjectURL(blob), download: 'cosrod-view.webm' });
      document.body.append(a); a.click(); a.remove();
      webmBtn.textContent = 'WebM';
      webmBtn.disabled = false;
    };
    webmBtn.textContent = 'recording…';
    webmBtn.disabled = true;
    exported.webm = null;
    if (!isModes) { setFrame(0); state.clock = run.times[0]; }
    state.playing = true; state.loop = false; state.recording = true; updateButtons();
    rec.start(250);
    const t0 = performance.now();
    // at least 3 s of video, also for short animations, and not before the
    // encoder delivered data (its first key frame may take seconds on a busy
    // machine; at most 20 s)
    const stop = () => (chunks.length || performance.now() - t0 > 20000 ? rec.stop() : setTimeout(stop, 250));
    state.onEnd = () => setTimeout(() => { stop(); state.loop = loopBox.checked; }, Math.max(0, 3000 - (performance.now() - t0)));
    if (isModes) setTimeout(() => state.onEnd && (state.onEnd(), state.onEnd = null), 3000);
  }

  // --- animation: simulated time advances at `speed` × real time
  let last = null;
  function tick(now) {
    if (last !== null && state.playing) {
      const dt = (now - last) / 1000 * state.speed;
      if (isModes) {
        state.phase += 2 * Math.PI * dt * 0.5; // one period every 2 s at 1×
        redraw();
      } else if (run.times.length > 1) {
        const tEnd = run.times[run.times.length - 1];
        const rate = run.analysis === 'static' ? tEnd / 4 : 1; // a static path in 4 s
        state.clock = (state.clock ?? run.times[state.f]) + dt * rate;
        if (state.clock > tEnd) {
          if (state.loop) state.clock = run.times[0];
          else { state.clock = tEnd; state.playing = false; updateButtons(); if (state.onEnd) { state.onEnd(); state.onEnd = null; } }
        }
        let f = state.f;
        if (run.times[f] > state.clock) f = 0;
        while (f + 1 < run.times.length && run.times[f + 1] <= state.clock) f++;
        if (f !== state.f) setFrame(f);
      }
    }
    if (!state.playing) state.clock = run.times[state.f];
    if (state.recording) sc.render();
    last = now;
    requestAnimationFrame(tick);
  }

  function resize() {
    const r = main.getBoundingClientRect();
    sc.resize(Math.max(r.width, 10), Math.max(r.height, 10));
  }
  window.addEventListener('resize', resize);
  resize();
  // URL options (#frame=60&field=curvature&view=front&directors=1&mode=2&play=0&contacts=0)
  const opt = new URLSearchParams(location.hash.slice(1));
  if (opt.has('field') && opt.get('field') in FIELDS) { fieldSel.value = opt.get('field'); drawColorBar(sc.setField(opt.get('field'))); }
  if (opt.get('contacts') === '0' && run.contacts) { contactBox.checked = false; sc.extras.showContacts = false; }
  if (opt.get('directors') === '1') { dirBox.checked = true; sc.showDirectors = true; }
  if (opt.has('view')) sc.view(opt.get('view'));
  if (opt.has('radius')) { thick.value = opt.get('radius'); sc.setRadiusScale(Number(opt.get('radius')) || 1); updateLegend(); }
  if (opt.has('mode') && modeSel && Number(opt.get('mode')) < run.modes.length) { state.mode = Number(opt.get('mode')); modeSel.value = opt.get('mode'); }
  if (opt.has('frame')) state.f = Math.min(Math.max(Number(opt.get('frame')) || 0, 0), run.times.length - 1);
  if (opt.get('play') === '0' || opt.has('frame')) state.playing = false;
  if (isModes && opt.has('frame')) state.phase = Math.PI / 2;
  updateButtons();
  redraw();
  requestAnimationFrame(tick);
  window.cosrodView = {
    ready: true, error: null, run, scene: sc,
    camera: () => sc.cameraParams(),
    frames: run.times.length,
    // Stop playback and show frame f (mode phase for mode shapes); for tests and scripts.
    setFrame: (f, phase) => { state.playing = false; updateButtons(); if (phase !== undefined) state.phase = phase; setFrame(f); },
    setField: (k) => { fieldSel.value = k; drawColorBar(sc.setField(k)); redraw(); },
    view: (v) => sc.view(v),
    exported,
    contacts: () => (sc.extras.points && sc.extras.points.visible ? sc.extras.contactCount : 0),
    setMode: (i) => { if (modeSel) { modeSel.value = String(i); state.mode = i; redraw(); } },
  };
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
