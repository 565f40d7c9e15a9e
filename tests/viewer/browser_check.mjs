// SPDX-License-Identifier: Apache-2.0
// Browser test of view.html: runs an example with the cosrod CLI, opens the
// page it wrote in headless Chromium (DevTools protocol over node's
// WebSocket, no other dependency), shows two times (or two phases of a mode
// shape), takes a screenshot of each and checks
//   - no console error or uncaught exception on the page,
//   - rod pixels where the rod's centerline projects (from the camera the
//     page exposes and the test's own perspective projection of the
//     centerline read from centerline.csv / modes.csv), and not 25 px aside,
//   - the two screenshots differ where the rod moved;
// kind mode with modes_bodies.csv: the bodies are drawn at their centre
// displaced by their part of the mode (body colour at the projected centre),
// and they move between the two phases;
// --times a,b (dynamic): the two output times nearest a and b (else 0 and
// 30 % of the run); --drawn-contacts 1 (a run with contact): the rod
// screenshots without the contact points, then at the second time the page
// shows as many contact points as contacts.csv has rows there, drawn
// (contact red) at their projected positions, and none when hidden;
// kind truncated: centerline.csv cut in a row, `cosrod view` rewrites the
// page, which must show a readable message naming the file and line; kind
// nosummary: summary.json removed, `cosrod view` exits 2 naming it and the
// page it writes shows that summary.json is missing.
// node browser_check.mjs --cosrod BIN --example FILE --work DIR --kind dynamic|mode|truncated|nosummary
//   [--set k=v]... [--times a,b] [--drawn-contacts 1] [--chromium PATH] [--keep PNG_PREFIX]
// Exit 0 pass, 1 fail, 77 skipped (no Chromium).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodePNG } from './png.mjs';

if (typeof WebSocket === 'undefined') {
  // node 20: WebSocket behind a flag; re-run with it
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const args = { set: [] };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, ''), v = process.argv[i + 1];
  if (k === 'set') args.set.push(v); else args[k] = v;
}
const fail = (msg) => { console.error(`FAIL: ${msg}`); process.exitCode = 1; };

function findChromium() {
  for (const c of [args.chromium, 'chromium', 'chromium-browser', 'google-chrome']) {
    if (!c) continue;
    const r = spawnSync('sh', ['-c', `command -v ${c}`], { encoding: 'utf8' });
    if (r.status === 0) return r.stdout.trim();
  }
  return null;
}

function readCSV(path) {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const h = lines[0].split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [h[i], Number(v)])));
}

// Perspective projection of world point p to CSS pixels (camera looking
// from position to target, vertical field of view fov in degrees).
function project(cam, p) {
  const sub = (a, b) => a.map((v, i) => v - b[i]);
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const unit = (a) => { const n = Math.hypot(...a); return a.map((v) => v / n); };
  const zc = unit(sub(cam.position, cam.target));
  const xc = unit(cross(cam.up, zc));
  const yc = cross(zc, xc);
  const v = sub(p, cam.position);
  const depth = -dot(v, zc);
  const t = Math.tan((cam.fov * Math.PI) / 360);
  const nx = dot(v, xc) / depth / (t * cam.aspect), ny = dot(v, yc) / depth / t;
  return [cam.left + ((nx + 1) / 2) * cam.width, cam.top + ((1 - ny) / 2) * cam.height];
}

// Rod colour (the page's plain tube colour (0.78, 0.36, 0.2), shaded and
// antialiased against the light grey background): red above blue; the grid
// is grey (r = g = b), the gravity arrow blue.
const isRod = (img, x, y) => {
  x = Math.round(x); y = Math.round(y);
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
  const o = (y * img.width + x) * 4, r = img.rgba[o], g = img.rgba[o + 1], b = img.rgba[o + 2];
  return r > b + 20 && r >= g && r < 250;
};
// Body colour (0xc08a3e, shaded: the ratios g/r ~ 0.72, b/r ~ 0.32 kept;
// the rod's g/r is ~ 0.46) and contact red (0xd01010).
const pixel = (img, x, y) => {
  x = Math.round(x); y = Math.round(y);
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return [255, 255, 255];
  const o = (y * img.width + x) * 4;
  return [img.rgba[o], img.rgba[o + 1], img.rgba[o + 2]];
};
const isBody = (img, x, y) => { const [r, g, b] = pixel(img, x, y); return r > 60 && g > 0.6 * r && g < 0.85 * r && b < 0.5 * r; };
const isContact = (img, x, y) => { const [r, g, b] = pixel(img, x, y); return r > 150 && g < 0.35 * r && b < 0.35 * r; };
const near = (pred, img, x, y, rad) => {
  for (let dy = -rad; dy <= rad; dy++) for (let dx = -rad; dx <= rad; dx++) if (pred(img, x + dx, y + dy)) return true;
  return false;
};
const nearRod = (img, x, y, rad) => {
  for (let dy = -rad; dy <= rad; dy++) for (let dx = -rad; dx <= rad; dx++) if (isRod(img, x + dx, y + dy)) return true;
  return false;
};

class CDP {
  constructor(url) {
    this.ws = new WebSocket(url);
    this.id = 0;
    this.pending = new Map();
    this.events = [];
    this.ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.id && this.pending.has(msg.id)) {
        const { res, rej } = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) rej(new Error(JSON.stringify(msg.error))); else res(msg.result);
      } else if (msg.method) this.events.push(msg);
    };
    this.open = new Promise((res, rej) => { this.ws.onopen = res; this.ws.onerror = () => rej(new Error('DevTools WebSocket failed')); });
  }
  send(method, params = {}) {
    const id = ++this.id;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((res, rej) => this.pending.set(id, { res, rej }));
  }
  async eval(expr) {
    const r = await this.send('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`page: ${expr}: ${r.exceptionDetails.text} ${JSON.stringify(r.exceptionDetails.exception?.description || '')}`);
    return r.result.value;
  }
}

async function launch(chromium, profile) {
  const proc = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader', '--no-first-run', '--no-default-browser-check', '--disable-extensions',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--window-size=1000,700', '--hide-scrollbars',
    'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((res, rej) => {
    let buf = '';
    const timer = setTimeout(() => rej(new Error(`Chromium did not start: ${buf.slice(-500)}`)), 30000);
    proc.stderr.on('data', (d) => {
      buf += d;
      const m = buf.match(/DevTools listening on (ws:\/\/[^\s]+)/);
      if (m) { clearTimeout(timer); res(m[1]); }
    });
    proc.on('exit', (c) => rej(new Error(`Chromium exited (${c}): ${buf.slice(-500)}`)));
  });
  return { proc, port: new URL(url).port, browserURL: url };
}

// Browser.close on the browser's own DevTools endpoint.
async function closeBrowser(url) {
  const c = new CDP(url);
  await c.open;
  await Promise.race([c.send('Browser.close'), new Promise((r) => setTimeout(r, 2000).unref())]);
  c.ws.close();
}

const clickButton = (text) => `(() => { const b = [...document.querySelectorAll('button')].find((x) => x.textContent === '${text}');
  if (!b) throw new Error('no ${text} button'); if (b.disabled) return false; b.click(); return true; })()`;

// PNG and WebM export: click the buttons; the page keeps what it offered for
// download (cosrodView.exported): a PNG of the canvas's size showing the rod,
// and a WebM (EBML header, DocType webm, at least one Cluster of frames).
async function checkExports(cdp, cam) {
  if (!(await cdp.eval(clickButton('PNG')))) return fail('the PNG button is disabled');
  const url = await cdp.eval('window.cosrodView.exported.png');
  if (!url || !url.startsWith('data:image/png;base64,')) return fail(`PNG export: no PNG data URL (${String(url).slice(0, 40)})`);
  const png = Buffer.from(url.slice(22), 'base64');
  const img = decodePNG(png);
  let rod = 0;
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) if (isRod(img, x, y)) rod++;
  console.log(`PNG export: ${png.length} bytes, ${img.width}×${img.height}, ${rod} rod pixels`);
  if (Math.abs(img.width - cam.width) > 1 || Math.abs(img.height - cam.height) > 1)
    fail(`PNG export is ${img.width}×${img.height}, the canvas ${cam.width}×${cam.height}`);
  if (rod < 100) fail(`PNG export shows no rod (${rod} rod pixels)`);
  if (!(await cdp.eval(clickButton('WebM')))) return fail('the WebM button is disabled (MediaRecorder missing in this Chromium)');
  let info = null;
  for (let i = 0; i < 300 && !info; i++) {
    await new Promise((r) => setTimeout(r, 100));
    info = await cdp.eval(`(async () => { const b = window.cosrodView.exported.webm; if (!b) return null;
      const a = new Uint8Array(await b.arrayBuffer()); let s = ''; for (const x of a) s += String.fromCharCode(x);
      return { size: a.length, type: b.type, b64: btoa(s) }; })()`);
  }
  if (!info) return fail('WebM export: no recording after 30 s');
  const w = Buffer.from(info.b64, 'base64');
  const ebml = w.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
  const doc = w.subarray(0, 64).includes(Buffer.from('webm'));
  const cluster = w.includes(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
  console.log(`WebM export: ${info.size} bytes (${info.type}), EBML header ${ebml}, DocType webm ${doc}, Cluster ${cluster}`);
  if (!ebml || !doc || !cluster || info.size < 1000) fail('WebM export is not a WebM video with frames');
}

// A page decimated by `cosrod view --max-mb`: the budget gives stride k =
// ceil(series bytes / budget); the page keeps output times 0, k, 2k, ... and
// the last, shows that many frames and says so.
async function checkDecimated(cdp, out) {
  const series = ['centerline.csv', 'frames.csv', 'strains.csv', 'curvatures.csv', 'energy.csv', 'bodies.csv', 'joints.csv',
    'reactions.csv', 'contacts.csv', 'obstacles.csv'].map((f) => (existsSync(join(out, f)) ? readFileSync(join(out, f)).length : 0))
    .reduce((a, b) => a + b, 0);
  const mb = series / 3.5 / 1048576;
  const budget = Math.floor(mb * 1048576);
  const k = Math.ceil(series / budget);
  const page = join(out, 'decimated.html');
  const v = spawnSync(args.cosrod, ['view', out, '-o', page, '--max-mb', String(mb)], { encoding: 'utf8' });
  if (v.status !== 0) return fail(`cosrod view --max-mb failed (${v.status}): ${v.stderr}`);
  const times = [...new Set(readCSV(join(out, 'centerline.csv')).map((r) => r.t))];
  const kept = times.filter((_, i) => i % k === 0 || i === times.length - 1);
  if (!(await loadPage(cdp, page))) return fail('the decimated page did not become ready in 30 s');
  const text = await cdp.eval('document.body.innerText');
  const m = text.match(/frames decimated: .*every (\d+)-th of the (\d+) output times is shown \(and the last\), (\d+) frames/);
  const frames = await cdp.eval('window.cosrodView.frames');
  const pageTimes = await cdp.eval('Array.from(window.cosrodView.run.times)');
  console.log(`decimated page (budget ${budget} B of ${series} B): note ${m ? m[0] : 'missing'}; ${frames} frames, expected ${kept.length} (every ${k}-th of ${times.length})`);
  if (!m) return fail('the decimated page does not say that frames were decimated');
  if (Number(m[1]) !== k || Number(m[2]) !== times.length || Number(m[3]) !== kept.length)
    fail(`the note says every ${m[1]}-th of ${m[2]}, ${m[3]} frames; expected every ${k}-th of ${times.length}, ${kept.length} frames`);
  if (frames !== kept.length || pageTimes.some((t, i) => Math.abs(t - kept[i]) > 1e-12 * Math.max(1, Math.abs(kept[i]))))
    fail(`the decimated page shows times ${pageTimes.slice(0, 6)}…, expected ${kept.slice(0, 6)}…`);
}

// Mode shapes with bodies: each body drawn at its centre plus its part of the
// mode (scaled as the rod's: sin(phase) × the page's mode scale; float32
// positions, 1e-5 of the scene), body colour within 4 px of that centre's
// projection in both screenshots, and the projected centre moved between them.
function checkModeBodies(shots) {
  const span = Math.max(...shots[0].pts.flat().map(Math.abs), ...shots[0].want.flat().map(Math.abs), 1e-3);
  let err = 0, moved = 0;
  shots.forEach((s, i) => s.want.forEach((w, j) => {
    err = Math.max(err, Math.hypot(...w.map((v, c) => v - s.bodies[s.ids[j]][c])));
    const [x, y] = project(s.cam, w);
    const seen = near(isBody, s.img, x, y, 4);
    console.log(`screenshot ${i + 1}: body ${s.ids[j]} at (${w.map((v) => v.toFixed(4)).join(', ')}), projected (${x.toFixed(0)}, ${y.toFixed(0)}), body colour there: ${seen}`);
    if (!seen) fail(`screenshot ${i + 1}: body ${j} is not drawn at its displaced centre`);
  }));
  shots[0].want.forEach((w, j) => {
    const p = project(shots[0].cam, w), q = project(shots[1].cam, shots[1].want[j]);
    moved = Math.max(moved, Math.hypot(p[0] - q[0], p[1] - q[1]));
  });
  console.log(`bodies: page positions within ${err.toExponential(2)} m of centre + mode part (scene ${span.toFixed(3)} m); projected centres moved up to ${moved.toFixed(1)} px`);
  if (err > 1e-5 * span) fail('the bodies are not at their centre displaced by their part of the mode');
  if (moved < 5) fail(`the bodies do not move between the two phases (${moved.toFixed(1)} px)`);
}

// A run with contact (contacts.csv): at the shot's frame (taken with the
// contact points hidden) the page counts the rows of that time, and shown
// they are drawn (contact red within 3 px of each projected point in >= 90 %,
// where the hidden shot has it at <= 10 %).
async function checkDrawnContacts(cdp, out, times, shot) {
  const rows = readCSV(join(out, 'contacts.csv')).filter((r) => Math.abs(r.t - times[shot.f]) <= 1e-12 * Math.max(1, Math.abs(r.t)));
  const nOff = await cdp.eval('window.cosrodView.contacts()');
  await cdp.eval("document.getElementById('cv-contacts').click()");
  await new Promise((r) => setTimeout(r, 150));
  const on = decodePNG(Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64'));
  const n = await cdp.eval('window.cosrodView.contacts()');
  const pts = rows.map((r) => project(shot.cam, [r.px, r.py, r.pz]));
  const red = pts.filter(([x, y]) => near(isContact, on, x, y, 3)).length;
  const redOff = pts.filter(([x, y]) => near(isContact, shot.img, x, y, 3)).length;
  console.log(`contacts at t = ${times[shot.f]}: ${rows.length} rows in contacts.csv, ${n} shown; contact red at ${red}/${pts.length} projected points (${redOff} when hidden, ${nOff} shown)`);
  if (rows.length === 0) return fail('no contact rows at the second time: choose a time when the rod touches');
  if (n !== rows.length) fail(`the page shows ${n} contact points, contacts.csv has ${rows.length}`);
  if (red < 0.9 * pts.length) fail('contact points are not drawn where they are');
  if (nOff !== 0 || redOff > 0.1 * pts.length) fail('hidden contact points are drawn');
}

async function loadPage(cdp, page) {
  await cdp.send('Page.navigate', { url: `file://${page}` });
  const name = page.split('/').pop();
  for (let i = 0; i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (await cdp.eval(`!!(window.cosrodView && window.cosrodView.ready && location.pathname.endsWith('${name}'))`).catch(() => false)) return true;
  }
  return false;
}

// Obstacles, contacts, a joint and a body shape (runs do not write them yet:
// added here by hand to the run's scene.json, with a contacts.csv): a sphere
// obstacle beside the rod's tip at t = 0 is drawn there (obstacle grey
// around its projected centre), the contact points of frame 0 are shown and
// hidden on demand, and nothing raises an error.
async function checkContactPage(cdp, out) {
  const dir = join(out, 'contact');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const f of ['summary.json', 'centerline.csv', 'frames.csv', 'energy.csv'])
    if (existsSync(join(out, f))) writeFileSync(join(dir, f), readFileSync(join(out, f)));
  const cl = readCSV(join(out, 'centerline.csv'));
  const times = [...new Set(cl.map((r) => r.t))];
  const first = cl.filter((r) => r.t === times[0]);
  const tip = first[first.length - 1], mid = first[first.length >> 1];
  const span = Math.hypot(tip.x - first[0].x, tip.y - first[0].y, tip.z - first[0].z);
  const scene = JSON.parse(readFileSync(join(out, 'scene.json'), 'utf8'));
  // beside the rod: 0.3 of its span from the tip along the coordinate axis least along the rod
  const d = [tip.x - first[0].x, tip.y - first[0].y, tip.z - first[0].z].map(Math.abs);
  const ax = d.indexOf(Math.min(...d));
  const centre = [tip.x, tip.y, tip.z].map((v, c) => (c === ax ? v + 0.3 * span : v));
  scene.obstacles = [
    { name: 'ball', shape: 'sphere', center: centre, radius: 0.08 * span, body: null, motion: null },
    { name: 'wall', shape: 'box', center: [0, 3 * span, 0], size: [0.1, 0.1, 0.1], orientation: [1, 0, 0, 0], body: null,
      motion: { t: [0, 1], position: [[0, 0, 0], [0, 0, -1]], orientation: [[1, 0, 0, 0], [1, 0, 0, 0]] } },
  ];
  writeFileSync(join(dir, 'scene.json'), JSON.stringify(scene));
  const rows = times.slice(0, 3).flatMap((t) => [[t, 0, 1, 'ball', mid.x, mid.y, mid.z, 0, 0, 1, -1e-4, 2, 0.1, 0, 0, 'stick'],
    [t, 0, 2, 'wall', tip.x, tip.y, tip.z, 0, 1, 0, -1e-4, 1, 0, 0, 0.1, 'slip']]);
  writeFileSync(join(dir, 'contacts.csv'), `t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const v = spawnSync(args.cosrod, ['view', dir], { encoding: 'utf8' });
  if (v.status !== 0) return fail(`cosrod view (contact fixture) failed (${v.status}): ${v.stderr}`);
  if (!(await loadPage(cdp, join(dir, 'view.html')))) return fail('the obstacle / contact page did not become ready in 30 s');
  const err = await cdp.eval('window.cosrodView.error');
  if (err) return fail(`the obstacle / contact page reports: ${err}`);
  await cdp.eval('window.cosrodView.setFrame(0)');
  const n0 = await cdp.eval('window.cosrodView.contacts()');
  await cdp.eval("(() => { const b = document.getElementById('cv-contacts'); b.click(); })()");
  const nOff = await cdp.eval('window.cosrodView.contacts()');
  await cdp.eval("document.getElementById('cv-contacts').click()");
  await cdp.eval(`window.cosrodView.setFrame(${times.length - 1})`);
  const nLast = await cdp.eval('window.cosrodView.contacts()');
  await cdp.eval('window.cosrodView.setFrame(0)');
  await new Promise((r) => setTimeout(r, 150));
  const cam = await cdp.eval('window.cosrodView.camera()');
  const shot = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64');
  if (args.keep) writeFileSync(`${args.keep}-contact.png`, shot);
  const img = decodePNG(shot);
  const [cx, cy] = project(cam, centre);
  // obstacle grey-blue (0x8d99a6 at 55 % over the background): b > r, neither rod-red nor background
  let grey = 0, tot = 0;
  for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
    const o = ((Math.round(cy) + dy) * img.width + Math.round(cx) + dx) * 4;
    const [r, g, b] = [img.rgba[o], img.rgba[o + 1], img.rgba[o + 2]];
    tot++;
    if (b > r + 8 && b < 235 && !isRod(img, cx + dx, cy + dy)) grey++;
  }
  const panel = await cdp.eval('document.body.innerText');
  console.log(`obstacle / contact page: ${n0} contacts at frame 0, ${nOff} when hidden, ${nLast} at the last frame; ` +
    `${grey}/${tot} obstacle pixels at the sphere's projected centre (${cx.toFixed(0)}, ${cy.toFixed(0)})`);
  if (n0 !== 2 || nOff !== 0 || nLast !== (times.length > 3 ? 0 : 2)) fail('contact points not shown / hidden as expected');
  if (grey < 0.8 * tot) fail('the sphere obstacle is not drawn at its projected centre');
  if (!/ball: sphere/.test(panel) || !/wall: box, moving/.test(panel)) fail('the obstacles are not listed in the panel');
}

async function main() {
  const t0 = Date.now();
  const lap = (what) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}`);
  const chromium = findChromium();
  if (!chromium) {
    console.log('SKIP: no Chromium found (apt-get install chromium; tools/install-deps.sh installs it)');
    process.exit(77);
  }
  const work = resolve(args.work);
  const out = join(work, 'out');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const run = spawnSync(args.cosrod, ['run', args.example, '-o', out, '-q', ...args.set.flatMap((s) => ['--set', s])], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cosrod run failed (${run.status}): ${run.stderr}`);
  if (args.kind === 'truncated') {
    // cut centerline.csv in the middle of a row, as an interrupted copy would
    const p = join(out, 'centerline.csv'), text = readFileSync(p, 'utf8');
    writeFileSync(p, text.slice(0, Math.floor(text.length / 2)));
    const v = spawnSync(args.cosrod, ['view', out], { encoding: 'utf8' });
    if (v.status !== 0) throw new Error(`cosrod view failed (${v.status}): ${v.stderr}`);
  }
  if (args.kind === 'nosummary') {
    // the run's files without summary.json: `cosrod view` says so (exit 2) and writes a page that says so
    rmSync(join(out, 'summary.json'));
    rmSync(join(out, 'view.html'));
    const v = spawnSync(args.cosrod, ['view', out], { encoding: 'utf8' });
    console.log(`cosrod view without summary.json: exit ${v.status}: ${v.stderr.trim()}`);
    if (v.status !== 2 || !/no summary\.json/.test(v.stderr)) fail('cosrod view does not report the missing summary.json (exit 2)');
  }
  lap('cosrod run done');
  const html = join(out, 'view.html');
  if (!existsSync(html)) {
    const v = spawnSync(args.cosrod, ['view', out], { encoding: 'utf8' });
    if (/not built/.test(v.stderr)) {
      console.log(`SKIP: ${v.stderr.trim()}`);
      process.exit(77);
    }
    throw new Error(`${html} was not written by cosrod run (cosrod view: ${v.stderr.trim()})`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'cosrod-chromium-'));
  const { proc, port, browserURL } = await launch(chromium, profile);
  try {
    lap('Chromium started');
    const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const page = list.find((t) => t.type === 'page');
    const cdp = new CDP(page.webSocketDebuggerUrl);
    await cdp.open;
    await cdp.send('Runtime.enable');
    await cdp.send('Log.enable');
    await cdp.send('Page.enable');
    await cdp.send('Page.navigate', { url: `file://${html}` });
    let ready = false;
    for (let i = 0; i < 300 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await cdp.eval('!!(window.cosrodView && window.cosrodView.ready)').catch(() => false);
    }
    if (!ready) throw new Error('the page did not become ready in 30 s');
    lap('page ready');
    const err = await cdp.eval('window.cosrodView.error');
    if (args.kind === 'truncated' || args.kind === 'nosummary') {
      // the page must say what is wrong, visibly, instead of a blank canvas
      const shown = await cdp.eval("(() => { const e = document.getElementById('cv-error'); return e && e.offsetHeight > 0 ? e.textContent : null; })()");
      console.log(`page message: ${shown}`);
      const want = args.kind === 'truncated' ? /centerline\.csv: line \d+: .*truncated/ : /summary\.json is missing/;
      if (!shown || !want.test(shown)) fail(`no readable message for the ${args.kind} case on the page (got ${shown})`);
      if (args.keep) writeFileSync(`${args.keep}-0.png`, Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64'));
      if (!process.exitCode) console.log(`PASS: ${args.kind === 'truncated' ? 'truncated centerline.csv' : 'missing summary.json'} is reported on the page`);
      cdp.ws.close();
      return;
    }
    if (err) fail(`the page reports: ${err}`);
    const cl = readCSV(join(out, 'centerline.csv'));
    const times = [...new Set(cl.map((r) => r.t))];
    const shots = [];
    let states;
    if (args.kind === 'mode') {
      const modes = readCSV(join(out, readFileSync(join(out, 'summary.json'), 'utf8').includes('"buckling"') ? 'buckling.csv' : 'modes.csv'));
      const ids = [...new Set(modes.map((r) => r.mode))];
      // the first mode that moves the centerline (not a pure rotation)
      const k = ids.findIndex((m) => modes.some((r) => r.mode === m && Math.hypot(r.dx, r.dy, r.dz) > 1e-6));
      await cdp.eval(`window.cosrodView.setMode(${k})`);
      const scale = await cdp.eval(`window.cosrodView.run.modes[${k}].scale`);
      const base = cl.filter((r) => r.t === times[0]);
      const bfile = join(out, readFileSync(join(out, 'summary.json'), 'utf8').includes('"buckling"') ? 'buckling_bodies.csv' : 'modes_bodies.csv');
      const bmodes = existsSync(bfile) ? readCSV(bfile).filter((r) => r.mode === ids[k]) : [];
      const b0 = existsSync(join(out, 'bodies.csv')) ? readCSV(join(out, 'bodies.csv')).filter((r) => r.t === times[0]) : [];
      states = [Math.PI / 2, -Math.PI / 2].map((ph) => ({
        js: `window.cosrodView.setFrame(0, ${ph})`,
        pts: base.map((r) => {
          const d = modes.find((m) => m.mode === ids[k] && m.rod === r.rod && m.vertex === r.vertex);
          return [r.x, r.y, r.z].map((v, c) => v + Math.sin(ph) * scale * [d.dx, d.dy, d.dz][c]);
        }),
        ids: bmodes.map((m) => m.body),
        bodies: bmodes.map((m) => { const B = b0.find((r) => r.body === m.body); return [B.x, B.y, B.z].map((v, c) => v + Math.sin(ph) * scale * [m.dx, m.dy, m.dz][c]); }),
      }));
      if (b0.length && !bmodes.length) fail(`a modal run with bodies: no rows of mode ${ids[k]} in ${bfile}`);
      console.log(`mode ${ids[k]}: ${bmodes.length} bod${bmodes.length === 1 ? 'y' : 'ies'} in ${bfile.split('/').pop()}`);
    } else {
      const nearest = (t) => times.reduce((best, u, i) => (Math.abs(u - t) < Math.abs(times[best] - t) ? i : best), 0);
      const fr = args.times ? args.times.split(',').map((t) => nearest(Number(t))) : [0, Math.round(0.3 * (times.length - 1))];
      console.log(`times ${fr.map((f) => times[f]).join(' and ')} (frames ${fr.join(', ')} of ${times.length})`);
      states = fr.map((f) => ({ f, js: `window.cosrodView.setFrame(${f})`, pts: cl.filter((r) => r.t === times[f]).map((r) => [r.x, r.y, r.z]) }));
    }
    // contact points hidden in the rod screenshots (their red is also rod colour to isRod)
    if (args['drawn-contacts']) await cdp.eval("document.getElementById('cv-contacts').click()");
    for (const st of states) {
      await cdp.eval(st.js);
      await new Promise((r) => setTimeout(r, 150));
      const cam = await cdp.eval('window.cosrodView.camera()');
      const png = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64');
      if (args.keep) writeFileSync(`${args.keep}-${shots.length}.png`, png);
      const bodies = st.bodies ? await cdp.eval('window.cosrodView.scene.bodyObjs.map((g) => g.position.toArray())') : null;
      shots.push({ img: decodePNG(png), cam, pts: st.pts, want: st.bodies, ids: st.ids, bodies, f: st.f });
    }
    lap('screenshots taken');
    for (const [i, s] of shots.entries()) {
      // sample the centerline densely: vertices and 3 points per segment
      const samples = [];
      for (let v = 0; v + 1 < s.pts.length; v++)
        for (let j = 0; j < 4; j++) samples.push(s.pts[v].map((c, k) => c + (j / 4) * (s.pts[v + 1][k] - c)));
      let hit = 0, aside = 0, n = 0;
      for (let j = 0; j < samples.length; j++) {
        const [x, y] = project(s.cam, samples[j]);
        if (x < s.cam.left || y < s.cam.top || x >= s.cam.left + s.cam.width || y >= s.cam.top + s.cam.height) continue;
        n++;
        if (nearRod(s.img, x, y, 3)) hit++;
        // 25 px off the line, perpendicular to the projected segment
        const q = project(s.cam, samples[Math.min(j + 1, samples.length - 1)]), p0 = project(s.cam, samples[Math.max(j - 1, 0)]);
        const dx = q[0] - p0[0], dy = q[1] - p0[1], len = Math.hypot(dx, dy) || 1;
        if (nearRod(s.img, x - (25 * dy) / len, y + (25 * dx) / len, 1) && nearRod(s.img, x + (25 * dy) / len, y - (25 * dx) / len, 1)) aside++;
      }
      console.log(`screenshot ${i + 1}: ${hit}/${n} centerline samples on rod pixels (within 3 px), ${aside} with rod pixels 25 px on both sides`);
      if (n < 10) fail(`screenshot ${i + 1}: only ${n} centerline samples inside the view`);
      if (hit < 0.95 * n) fail(`screenshot ${i + 1}: the rod is not drawn where its centerline projects (${hit}/${n})`);
      if (aside > 0.1 * n) fail(`screenshot ${i + 1}: rod colour also far from the centerline (${aside}/${n})`);
    }
    // the two states differ: pixels near the second centerline that are rod in shot 2 and not in shot 1
    const [a, b] = shots;
    let moved = 0, diff = 0;
    for (let i = 0; i < a.img.rgba.length; i += 4)
      if (Math.abs(a.img.rgba[i] - b.img.rgba[i]) + Math.abs(a.img.rgba[i + 1] - b.img.rgba[i + 1]) + Math.abs(a.img.rgba[i + 2] - b.img.rgba[i + 2]) > 30) diff++;
    a.pts.forEach((p, j) => {
      const pa = project(a.cam, p), pb = project(b.cam, b.pts[j]);
      moved = Math.max(moved, Math.hypot(pa[0] - pb[0], pa[1] - pb[1]));
    });
    console.log(`the two screenshots differ in ${diff} pixels; the projected centerline moved up to ${moved.toFixed(1)} px`);
    if (moved < 10) fail(`the two states are too close to tell apart (the centerline moved ${moved.toFixed(1)} px)`);
    if (diff < 100) fail(`the two screenshots are (nearly) the same (${diff} pixels differ)`);
    if (a.want && a.want.length) checkModeBodies(shots);
    if (args['drawn-contacts']) await checkDrawnContacts(cdp, out, times, b);
    const errors = cdp.events.filter((e) => (e.method === 'Runtime.consoleAPICalled' && e.params.type === 'error') ||
      e.method === 'Runtime.exceptionThrown' || (e.method === 'Log.entryAdded' && e.params.entry.level === 'error'));
    for (const e of errors) fail(`console error: ${JSON.stringify(e.params).slice(0, 400)}`);
    if (args.exports) { await checkExports(cdp, shots[1].cam); lap('exports checked'); }
    if (args.decimate) { await checkDecimated(cdp, out); lap('decimated page checked'); }
    if (args.contact) { await checkContactPage(cdp, out); lap('obstacle / contact page checked'); }
    if (!process.exitCode) console.log(`PASS: ${args.example}`);
    cdp.ws.close();
  } finally {
    // Browser.close exits at once (SIGTERM alone took ~15 s); SIGKILL if it hangs.
    // The guard timers are unref'd: a pending one must not keep node alive.
    const exited = proc.exitCode === null ? new Promise((r) => proc.on('exit', r)) : Promise.resolve();
    await closeBrowser(browserURL).catch(() => proc.kill('SIGTERM'));
    const t = await Promise.race([exited.then(() => 'exited'), new Promise((r) => setTimeout(() => r('timeout'), 5000).unref())]);
    if (t === 'timeout') { proc.kill('SIGKILL'); await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]); }
    lap(`Chromium ${t === 'timeout' ? 'killed' : 'closed'}`);
    try { rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); } catch { /* a leftover temp profile is harmless */ }
  }
}

main().catch((e) => { console.error(`FAIL: ${e.stack || e}`); process.exit(1); });
