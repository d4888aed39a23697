// What the arena's and the rooms' browser tests share: the binary run in a folder,
// `robots check --format json` as the independent source of a program's diagnostics, the
// token games' positions read back from their pictures (Ricochet's for `robots ricochet
// solve`, Micro's solved here by breadth-first search), and the browser's side: Chromium, a
// user's context and pages (what they receive), forms, screenshots; and the rooms' tests'
// common steps (a server and a browser started, a room created, seats taken, the server
// restarted, the protocol's mismatches grouped).
// The server itself: web/test/server.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';

/** Runs the binary in `dir`, throwing on a failure with its output in the message. */
export function runRobots(bin, dir, args) {
  const r = spawnSync(bin, args, { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, `robots ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** What `robots check --format json` says of `source`: one object a diagnostic. */
export function checkDiagnostics(bin, dir, source) {
  const file = path.join(dir, 'check.robot');
  fs.writeFileSync(file, source);
  const r = spawnSync(bin, ['check', file, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => {
    const d = JSON.parse(l);
    return { line: d.line, column: d.column, severity: d.severity, message: d.message };
  });
}

/** Diagnostics in a fixed order, to compare lists. */
export const sortDiagnostics = (list) =>
  [...list].sort((a, b) => a.line - b.line || a.column - b.column || a.message.localeCompare(b.message));

/** `ms` milliseconds. */
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Waits until `check()` gives a value other than undefined (polled every 10 ms). */
export async function until(check, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, `waited ${ms / 1000} s for ${what}`);
    await sleep(10);
  }
}

// The colours of `robots ricochet board --svg` (crates/games/src/ricochet/draw/svg.rs, crates/games/src/text/palette.rs):
// the robots' discs, and the goal's ring (ink for the vortex: any robot).
const RICOCHET_FILLS = {
  '#d64541': 'red', '#3fa34d': 'green', '#3b6fd6': 'blue', '#e8c21c': 'yellow', '#a8a8a8': 'silver', '#222222': 'any',
};

/**
 * A Ricochet position read back from its picture, as `robots ricochet board --svg` draws it
 * (crates/games/src/ricochet/draw/svg.rs: cells of 40 units or fewer, a margin of one cell; the walls one path
 * with square ends; the centre's cells filled #555555; a robot a disc of radius 0.34 cell,
 * the goal a ring of 0.44 cell in its robot's colour). `picture` is what the page holds:
 * `{width, paths: [{d, fill, linecap}], circles: [{cx, cy, r, fill, stroke}]}`.
 * Gives a custom board file (docs/FORMATS.md, "Custom boards": the walls, the centre; no
 * target, none is needed to solve) and a position file on it, for `robots ricochet solve`.
 */
export function ricochetPositionFromPicture(picture) {
  // The cell's size, from the goal's ring (0.44 cell: the drawing scales with the board).
  const ring = picture.circles.find((k) => (k.fill || '') === 'none');
  assert.ok(ring, 'the goal\'s ring in the picture');
  const c = Number(ring.r) / 0.44;
  const n = Math.round(Number(picture.width) / c) - 2;
  assert.ok(n >= 2 && n <= 62, `a board of ${n} cells a side from a picture ${picture.width} wide`);
  const grid = (v) => Math.round((Number(v) - c) / c);
  const cellOf = (x, y) => [Math.floor((Number(x) - c) / c), Math.floor((Number(y) - c) / c)];
  const blocked = new Set();
  for (const p of picture.paths.filter((x) => (x.fill || '').toLowerCase() === '#555555')) {
    const [x, y] = p.d.slice(1).split(/[L,Z]/).map(Number);
    blocked.add(`${grid(x)},${grid(y)}`);
  }
  const wallPaths = picture.paths.filter((x) => x.linecap === 'square');
  assert.equal(wallPaths.length, 1, 'one path of walls in the picture');
  const walls = [];
  for (const m of wallPaths[0].d.matchAll(/M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)/g)) {
    const [x1, y1, x2, y2] = m.slice(1).map(grid);
    if (y1 === y2 && x2 === x1 + 1) {
      // The north side of [x1, y1] (the board's edges are walls anyway; so is the centre).
      if (y1 <= 0 || y1 >= n || blocked.has(`${x1},${y1}`) || blocked.has(`${x1},${y1 - 1}`)) continue;
      walls.push([x1, y1, 'N']);
    } else if (x1 === x2 && y2 === y1 + 1) {
      if (x1 <= 0 || x1 >= n || blocked.has(`${x1},${y1}`) || blocked.has(`${x1 - 1},${y1}`)) continue;
      walls.push([x1, y1, 'W']);
    } else {
      assert.fail(`a wall that is not one cell's side: ${m[0]}`);
    }
  }
  const robots = {};
  let goal = null;
  for (const k of picture.circles) {
    const r = Number(k.r);
    const colour = RICOCHET_FILLS[(k.fill || '').toLowerCase()];
    if (Math.abs(r - c * 0.34) < 0.01 && colour && colour !== 'any') robots[colour] = cellOf(k.cx, k.cy);
    if (Math.abs(r - c * 0.44) < 0.01 && (k.fill || '') === 'none') {
      goal = { at: cellOf(k.cx, k.cy), robot: RICOCHET_FILLS[(k.stroke || '').toLowerCase()] };
    }
  }
  assert.ok(Object.keys(robots).length >= 1, 'robots in the picture');
  assert.ok(goal && goal.robot, 'the goal\'s ring in the picture');
  const bs = [...blocked].map((x) => x.split(',').map(Number));
  const lo = (i) => Math.min(...bs.map((b) => b[i]));
  const hi = (i) => Math.max(...bs.map((b) => b[i]));
  const board = [
    'name: read from a room\'s picture',
    `size: [${n}, ${n}]`,
    ...(bs.length ? [`centre: [${lo(0)}, ${lo(1)}, ${hi(0) - lo(0) + 1}, ${hi(1) - lo(1) + 1}]`] : []),
    'walls:',
    ...walls.map(([x, y, side]) => `  - [${x}, ${y}, ${side}]`),
  ].join('\n');
  const position = (boardFile) => [
    `board: ${boardFile}`,
    `robots: {${Object.entries(robots).map(([k, [x, y]]) => `${k}: [${x}, ${y}]`).join(', ')}}`,
    `target: {at: [${goal.at[0]}, ${goal.at[1]}], robot: ${goal.robot}}`,
  ].join('\n');
  return { board: `${board}\n`, position: (file) => `${position(file)}\n`, robots, goal };
}

/**
 * A Micro Robots board read back from a room's picture (crates/games/src/micro/svg.rs, `mission`: each
 * cell a square polygon of class `cell cell-B3`). `cells` is what the page holds: `[{name,
 * x0, y0, x1, y1}]` (each polygon's name and bounds). Gives `rows[row][col]` (names, 6×6),
 * `at` (name → [row, col]) and `cellAt(x, y)` (the name of the cell under a point, or null).
 */
export function microBoardFromPicture(cells) {
  assert.equal(cells.length, 36, 'a Micro board has 36 cells');
  const names = new Set(cells.map((c) => c.name));
  assert.equal(names.size, 36, `36 names, each once: ${[...names].join(' ')}`);
  for (const name of names) assert.match(String(name), /^[BYGRPW][1-6]$/, 'a cell\'s name: a colour letter, a number');
  const key = (v) => Math.round(Number(v) * 10);
  const xs = [...new Set(cells.map((c) => key(c.x0)))].sort((a, b) => a - b);
  const ys = [...new Set(cells.map((c) => key(c.y0)))].sort((a, b) => a - b);
  assert.equal(xs.length, 6, 'six columns of cells');
  assert.equal(ys.length, 6, 'six rows of cells');
  const rows = Array.from({ length: 6 }, () => Array(6).fill(null));
  const at = {};
  for (const c of cells) {
    const [row, col] = [ys.indexOf(key(c.y0)), xs.indexOf(key(c.x0))];
    assert.equal(rows[row][col], null, `one cell at row ${row}, column ${col}`);
    rows[row][col] = c.name;
    at[c.name] = [row, col];
  }
  const cellAt = (x, y) => cells.find((c) => x >= c.x0 && x <= c.x1 && y >= c.y0 && y <= c.y1)?.name ?? null;
  return { rows, at, cellAt };
}

/** Where the robot may stop after leaving `cell` (RULES C.1): along its row or column, on a
 *  cell sharing its colour or its number. */
export function microMoves(board, cell) {
  const [row, col] = board.at[cell];
  const out = [];
  for (let i = 0; i < 6; i += 1) {
    for (const [r, c] of [[row, i], [i, col]]) {
      const other = board.rows[r][c];
      if (other === cell || out.includes(other)) continue;
      if (other[0] === cell[0] || other[1] === cell[1]) out.push(other);
    }
  }
  return out;
}

/** A shortest way from `from` to `to` by breadth-first search: the cells stopped on after
 *  `from`, in order (empty when they are the same), or null when there is none. */
export function microShortest(board, from, to) {
  const back = new Map([[from, null]]);
  let layer = [from];
  while (layer.length > 0 && !back.has(to)) {
    const next = [];
    for (const cell of layer) {
      for (const other of microMoves(board, cell)) {
        if (back.has(other)) continue;
        back.set(other, cell);
        next.push(other);
      }
    }
    layer = next;
  }
  if (!back.has(to)) return null;
  const stops = [];
  for (let cell = to; cell !== from; cell = back.get(cell)) stops.unshift(cell);
  return stops;
}

/** Fewest moves from `start` to `target`, stopping on `via` on the way if given: the stops. */
export function microSolve(board, start, via, target) {
  if (!via) return microShortest(board, start, target);
  const first = microShortest(board, start, via);
  const second = first && microShortest(board, via, target);
  return second ? [...first, ...second] : null;
}

/**
 * The diagnostics the page lists in ul#diagnostics, each checked against its text (and, with
 * `errorOrWarning`, marked either an error or a warning): `{line, column, severity, message}`.
 */
export async function pageDiagnostics(page, { errorOrWarning = false } = {}) {
  const items = await page.$$eval('ul#diagnostics li.diagnostic', (lis) => lis.map((li) => ({
    line: Number(li.dataset.line),
    column: Number(li.dataset.column),
    error: li.classList.contains('error'),
    warning: li.classList.contains('warning'),
    text: li.textContent.trim(),
  })));
  return items.map((d) => {
    if (errorOrWarning) assert.ok(d.error !== d.warning, `a diagnostic is either an error or a warning: ${JSON.stringify(d)}`);
    const prefix = `line ${d.line}, column ${d.column}: `;
    assert.ok(d.text.startsWith(prefix), `li text ${JSON.stringify(d.text)} starts with ${JSON.stringify(prefix)}`);
    return { line: d.line, column: d.column, severity: d.error ? 'error' : 'warning', message: d.text.slice(prefix.length) };
  });
}

// The browser: Debian's Chromium driven by playwright-core, one size of window.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
export const VIEWPORT = { width: 1100, height: 800 };

/** Chromium, launched with playwright-core's `chromium`. */
export const launchChromium = (chromium) => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** A browser context of its own (its own cookies), 10 s for anything. */
export async function newContext(browser, options = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT, ...options });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(10_000);
  return context;
}

/**
 * Puts the page's errors and console errors in `problems`, but for the favicon Chromium asks
 * for by itself and resources that failed to load (pages visited on purpose are checked by
 * status), and what `ignore(text)` says to pass over.
 */
export function watchProblems(page, problems, ignore = () => false) {
  page.on('pageerror', (e) => problems.push(`page error at ${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/favicon/.test(m.location()?.url || '')) return;
    if (/Failed to load resource/.test(m.text())) return;
    if (ignore(m.text())) return;
    problems.push(`console error at ${page.url()}: ${m.text()}`);
  });
}

/**
 * A page of a browser context of its own at `size` (20 s for anything), its errors and any
 * request outside the server at `base` put in `problems`: `{context, page, problems}`.
 */
export async function watchedPage(browser, base, size) {
  const context = await browser.newContext({ viewport: size });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const problems = [];
  watchProblems(page, problems);
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !/^(data|about|blob):/.test(r.url())) problems.push(`a request outside the server: ${r.url()}`);
  });
  return { context, page, problems };
}

/**
 * A user of a room: a browser context of its own and one page, recording every WebSocket
 * frame (see newRoomPage). `{name, context, page, problems, frames, sent, states, rec}`.
 * Console errors `ignoreConsole(text)` says to pass over are not problems; nor, while
 * restartServer has the server down, the pages' failed attempts to reconnect.
 */
export async function newRoomUser(browser, name, { context: options, ignoreConsole } = {}) {
  const context = await newContext(browser, options);
  const user = { name, context, problems: [], frames: [], sent: [], states: [], rec: null, ignoreConsole };
  await newRoomPage(user);
  return user;
}

/**
 * A new page for `user` (user.page), recording its WebSocket frames: every frame any page of
 * the user received in user.frames (`{text, json, url, at}`, in order) and the states in
 * user.states; user.rec, the page's own record (`{page, frames, states}`); what the pages
 * sent in user.sent (`{text, at}`).
 */
export async function newRoomPage(user) {
  const page = await user.context.newPage();
  const rec = { page, frames: [], states: [] };
  const reconnecting = (text) => Boolean(user.serverDown) && /WebSocket connection to .* failed/.test(text);
  watchProblems(page, user.problems, (text) => reconnecting(text) || Boolean(user.ignoreConsole?.(text)));
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : Buffer.from(f.payload).toString('utf8');
      let json = null;
      try {
        json = JSON.parse(text);
      } catch {
        user.problems.push(`a frame that is not JSON: ${text.slice(0, 200)}`);
      }
      const frame = { text, json, url: ws.url(), at: Date.now() };
      user.frames.push(frame);
      rec.frames.push(frame);
      if (json && json.type === 'state') {
        user.states.push(json);
        rec.states.push(json);
      }
    });
    ws.on('framesent', (f) => user.sent.push({ text: typeof f.payload === 'string' ? f.payload : '(binary)', at: Date.now() }));
  });
  user.page = page;
  user.rec = rec;
  return page;
}

/** Writes what each user's pages received and sent to `out`: frames-NAME.jsonl, sent-NAME.jsonl. */
export function writeFrames(out, users) {
  for (const user of users) {
    const t0 = user.frames[0]?.at || 0;
    fs.writeFileSync(path.join(out, `frames-${user.name}.jsonl`), user.frames.map((f) => `{"ms":${f.at - t0},"frame":${f.text}}`).join('\n'));
    fs.writeFileSync(path.join(out, `sent-${user.name}.jsonl`), user.sent.map((f) => f.text).join('\n'));
  }
}

/**
 * The end of a browser test: the browser closed, the server stopped, its log (and what the
 * `users`' pages received and sent) written to `out`, the temporary folder removed.
 */
export async function closeAll({ browser, server, dir, out, users = [] }) {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (fs.existsSync(out)) {
    if (server) fs.writeFileSync(path.join(out, 'server.log'), server.log);
    writeFrames(out, users);
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** Clicks what submits a form (a navigation) and waits for the page it leads to. */
export async function submitBy(page, selector) {
  const [response] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.click(selector),
  ]);
  return response;
}

/** `(page, name) => …`: a screenshot to `out`/name, and to `docsOut`/name if UPDATE_SCREENSHOT=1. */
export const screenshots = (out, docsOut) => async (page, name) => {
  await page.screenshot({ path: path.join(out, name), fullPage: false });
  if (process.env.UPDATE_SCREENSHOT === '1') {
    fs.mkdirSync(docsOut, { recursive: true });
    await page.screenshot({ path: path.join(docsOut, name), fullPage: false });
  }
};

/**
 * Signs up `name` with the form on the page (/signup, opened first if `base` is given): the
 * answer is no error and the nav then names the account.
 */
export async function signUp(page, name, password, { base } = {}) {
  if (base) await page.goto(`${base}/signup`);
  await page.fill('form#signup input[name=name]', name);
  await page.fill('form#signup input[name=password]', password);
  const response = await submitBy(page, 'form#signup [type=submit], form#signup button');
  assert.ok(response === null || response.status() < 400, `sign-up answered ${response?.status()}`);
  assert.ok((await page.textContent('nav #who')).includes(name), 'the nav names the account');
}

/** Sets a form's field by its name, whatever its kind (if `on` is given, there is one, on that page). */
export async function setField(page, form, name, value, { on } = {}) {
  const selector = `${form} [name="${name}"]`;
  if (on) assert.equal(await page.locator(selector).count(), 1, `${selector} on ${on}`);
  const kind = await page.$eval(selector, (e) => (e.tagName === 'SELECT' ? 'select' : e.type));
  if (kind === 'select') await page.selectOption(selector, String(value));
  else if (kind === 'checkbox') await page.setChecked(selector, Boolean(value));
  else await page.fill(selector, String(value));
}

// ---- The arena's players in its browser tests (arena-versions, arena-challenge) ----

/** The page fits its width: nothing runs off to the right. */
export async function assertFits(page, where) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide in a ${width} px window`);
}

/**
 * Players of the arena at `base` whose programs go on `hill`: `user(name, size)` signs one up
 * in a browser context of its own with an API token; `api(u, method, url, data)` calls the
 * API as them; `submitPlaced(u, name, source)` submits and waits for the placement (its id);
 * `waitPlaced(u, id)` waits for one (30 s at most).
 */
export function arenaPlayers(browser, base, hill) {
  const api = (u, method, url, data) => u.context.request.fetch(base + url, {
    method, data, headers: u.token ? { Authorization: `Bearer ${u.token}` } : {}, failOnStatusCode: false,
  });
  const waitPlaced = async (u, id) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { status } = await (await api(u, 'GET', `/api/v1/programs/${id}`)).json();
      if (status === 'placed') return;
      assert.ok(['queued', 'playing'].includes(status) && Date.now() < deadline, `program ${id}: ${status}`);
      await sleep(200);
    }
  };
  return {
    api,
    waitPlaced,
    async user(name, size) {
      const context = await browser.newContext({ viewport: size });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const problems = [];
      watchProblems(page, problems);
      await signUp(page, name, PASSWORD, { base });
      const r = await context.request.post(`${base}/api/v1/tokens`, { data: { name, password: PASSWORD } });
      assert.equal(r.status(), 201);
      return { name, context, page, problems, token: (await r.json()).token };
    },
    async submitPlaced(u, name, source) {
      const r = await api(u, 'POST', `/api/v1/hills/${hill}/programs`, { name, source });
      assert.equal(r.status(), 202, await r.text());
      const { id } = await r.json();
      await waitPlaced(u, id);
      return id;
    },
  };
}

// ---- The rooms' browser tests (web/test/rooms*.e2e.mjs) ----

/** The players' password in the rooms' tests. */
export const PASSWORD = 'correct horse 42';
const NEW_ROOM = 'form#new-room';

/**
 * The start of a browser test: `robots serve` on a fresh database in a temporary folder
 * `prefix…` (server.mjs), and Chromium (playwright-core's `chromium`). `{dir, server, base,
 * browser}`; on a failure the server is stopped and the folder removed.
 */
export async function startServerAndBrowser(out, prefix, chromium) {
  const { dir, db } = freshFolder(out, prefix);
  const server = new RobotsServer({ bin, dir, db });
  try {
    const base = await server.start();
    const browser = await launchChromium(chromium);
    return { dir, server, base, browser };
  } catch (e) {
    await closeAll({ server, dir, out });
    throw e;
  }
}

/**
 * A rooms test's set-up, for `game` ("battle", "ricochet", "micro"): node:test's before()
 * starts the server and Chromium (startServerAndBrowser) and after() closes all (closeAll,
 * with what the users' pages received). The object the test keeps: `out`, where its files
 * go (<target>/rooms-e2e/, a token game's in its own folder there); `screenshot(page,
 * name)` (to `out` and docs/rooms/); `dir`, `server`, `base`, `browser` once started; the
 * room's `code` (the test's to set) and its `users` by name.
 */
export function roomsTest(game, chromium) {
  const out = game === 'battle' ? path.join(target, 'rooms-e2e') : path.join(target, 'rooms-e2e', game);
  const prefix = game === 'battle' ? 'rooms-e2e-' : `rooms-${game}-e2e-`;
  const screenshot = screenshots(out, path.join(root, 'docs', 'rooms'));
  const env = { out, screenshot, dir: null, server: null, base: null, browser: null, code: null, users: {} };
  before(async () => Object.assign(env, await startServerAndBrowser(out, prefix, chromium)));
  after(() => closeAll({ ...env, out, users: Object.values(env.users) }));
  return env;
}

/** Signs `user` up on the server at `base` (their name, PASSWORD). */
export const signUpUser = (user, base) => signUp(user.page, user.name, PASSWORD, { base });

/** New users `names` of a room (newRoomUser with `options`), put in `users` by name, then
 *  signed up at `base`: the list of them. */
export async function signedUpUsers(browser, base, users, names, options) {
  for (const name of names) users[name] = await newRoomUser(browser, name, options);
  const list = names.map((name) => users[name]);
  await Promise.all(list.map((user) => signUpUser(user, base)));
  return list;
}

/** The last state `user`'s pages received. */
export const lastState = (user) => user.states.at(-1);

/** A state of `user` that `check` accepts (the last one received first), waited for. */
export const waitState = (user, check, what, ms = 10_000) => until(() => {
  const s = lastState(user);
  return s && check(s) ? s : undefined;
}, `${user.name}: ${what}`, ms);

/** The user's page in phase `p` (#room data-phase). */
export const waitPhase = (user, p, ms = 10_000) => user.page.waitForSelector(`#room[data-phase="${p}"]`, { timeout: ms });

/** Seat `colour` in #seats. */
export const seatSel = (colour) => `#seats li[data-colour="${colour}"]`;

/** Submits form#new-room (on /rooms): the new room's code, once its page is drawn. */
export async function submitNewRoom(page) {
  await submitBy(page, `${NEW_ROOM} [type=submit], ${NEW_ROOM} button`);
  const m = /^\/rooms\/([^/?#]+)$/.exec(new URL(page.url()).pathname);
  assert.ok(m, `creating a room leads to its page, not ${page.url()}`);
  await page.waitForSelector('#room[data-ready="true"]');
  return m[1];
}

/** Creates a room on /rooms with `fields` (form#new-room's, by name, each there): its code. */
export async function createRoom(page, base, fields) {
  assert.equal((await page.goto(`${base}/rooms`)).status(), 200, 'GET /rooms');
  for (const [name, value] of Object.entries(fields)) await setField(page, NEW_ROOM, name, value, { on: '/rooms (docs/ROOMS.md)' });
  return submitNewRoom(page);
}

/**
 * A token game's room created on `user`'s page with `fields` (createRoom; `fields.game`, the
 * page's class too): hello names the game, the players take seats ("1" and "2"), no battle
 * board. `{code, hello}`.
 */
export async function createTokenRoom(user, base, fields) {
  const { page } = user;
  const { game } = fields;
  const code = await createRoom(page, base, fields);
  const hello = user.frames.find((f) => f.json?.type === 'hello')?.json;
  assert.equal(hello?.room?.game, game, 'hello.room.game');
  assert.equal(await page.getAttribute('#room', 'data-phase'), 'writing');
  assert.equal(await page.locator(`#room.${game}`).count(), 1, `the page is the ${game} room's`);
  assert.deepEqual(await page.$$eval('#seats li', (lis) => lis.map((li) => li.dataset.colour)), ['1', '2'], 'two seats, "1" and "2"');
  assert.equal(await page.locator('svg#board').count(), 0, `no battle board on a ${game} room`);
  return { code, hello };
}

/** B opens the link A's page gives to share (`base`/rooms/`code`) and waits for the room drawn. */
export async function openSharedLink(a, b, base, code) {
  const link = await a.page.inputValue('#share-link');
  assert.equal(link, `${base}/rooms/${code}`, 'the link to share');
  assert.equal((await b.page.goto(link)).status(), 200);
  await b.page.waitForSelector('#room[data-ready="true"]');
}

/** Each of `selectors` is on the page, once. */
export async function assertOnPage(page, selectors) {
  for (const id of selectors) assert.equal(await page.locator(id).count(), 1, `${id} on the room page`);
}

/** A (the host) and B take their seats (`seats`: name → colour), each page showing the other's. */
export async function takeSeats(a, b, seats) {
  assert.equal(await a.page.isVisible('button#start'), true, 'the host has button#start');
  assert.equal(await b.page.isVisible('button#start'), false, 'B, not the host, has no button#start');
  await a.page.click(`${seatSel(seats[a.name])} button.sit`);
  await b.page.waitForSelector(`${seatSel(seats[a.name])}[data-player="${a.name}"]`);
  assert.equal(await b.page.isVisible(`${seatSel(seats[a.name])} button.sit`), false, 'a taken seat has no sit button');
  await b.page.click(`${seatSel(seats[b.name])} button.sit`);
  await a.page.waitForSelector(`${seatSel(seats[b.name])}[data-player="${b.name}"]`);
  assert.equal(await a.page.getAttribute('#room', 'data-seat'), seats[a.name]);
  assert.equal(await b.page.getAttribute('#room', 'data-seat'), seats[b.name]);
}

/** A and B say ready (no start before both are); A, the host, starts the game. */
export async function readyAndStart(a, b, seats) {
  await a.page.click('button#ready');
  await b.page.waitForSelector(`${seatSel(seats[a.name])}[data-ready="true"]`);
  assert.equal(await a.page.isDisabled('button#start'), true, 'no start before everyone is ready');
  await b.page.click('button#ready');
  await a.page.waitForSelector(`${seatSel(seats[b.name])}[data-ready="true"]`);
  await a.page.waitForSelector('button#start:not([disabled])');
  await a.page.click('button#start');
}

/**
 * B joins A's room (env.code) by its link, its page holding each of `selectors`; A and B take
 * their `seats` and say ready; A starts the game.
 */
export async function joinAndStart(env, a, b, seats, selectors) {
  await openSharedLink(a, b, env.base, env.code);
  await assertOnPage(b.page, selectors);
  await takeSeats(a, b, seats);
  await readyAndStart(a, b, seats);
}

/** #timer counts down on `user`'s page by itself between states, from `shown` seconds left. */
export async function assertCountsDown(user, shown) {
  const states = user.states.length;
  await sleep(1300);
  const later = Number(await user.page.getAttribute('#timer', 'data-left'));
  if (user.states.length === states) assert.ok(later < shown && later >= shown - 2, `${user.name}'s #timer counts down: ${shown} then ${later}`);
}

/** `user`'s page opened again and drawn (`selector`): the first state it then receives. */
export async function reopen(user, selector) {
  const before = user.states.length;
  await user.page.reload();
  await user.page.waitForSelector(selector);
  return until(() => (user.states.length > before ? user.states.at(-1) : undefined), `a state after ${user.name}'s page is opened again`);
}

/**
 * The server stopped (SIGTERM: it exits 0) and started again on the same database and
 * address: `players`' pages say they reconnect, then come back by themselves (a new hello);
 * every one of `users`' pages is connected again.
 */
export async function restartServer(server, base, players, users = players) {
  const hellos = (u) => u.frames.filter((f) => f.json?.type === 'hello').length;
  const counts = players.map(hellos);
  for (const u of users) u.serverDown = true;
  assert.deepEqual(await server.stop(), { code: 0, signal: null }, 'the server stops on SIGTERM');
  for (const u of players) {
    await u.page.waitForSelector('#room[data-connection="reconnecting"] #connection');
    assert.match(await u.page.textContent('#connection'), /reconnecting…/, `${u.name}'s page says it reconnects`);
  }
  assert.equal(await server.start(new URL(base).host), base, 'the server is back at the same address');
  await until(() => (players.every((u, i) => hellos(u) > counts[i]) ? true : undefined), 'the pages reconnected (a new hello)', 20_000);
  for (const u of users) await u.page.waitForSelector('#room[data-connection="open"]');
  for (const u of users) u.serverDown = false;
}

/** Every object inside `value` (itself included). */
export function* objectsIn(value) {
  if (value && typeof value === 'object') {
    yield value;
    for (const v of Object.values(value)) yield* objectsIn(v);
  }
}

/** `hello.you` for `user`: their name, a seat (or null), whether they host; else what is wrong. */
export function helloYouWrong(user, hello) {
  const you = hello.you || {};
  if (you.name === user.name && typeof you.host === 'boolean' && 'seat' in you) return null;
  return `${user.name}: hello.you is ${JSON.stringify(you)}, not {name, seat, host}`;
}

/** What a token game's hello to `user` has wrong but its room: a board (they have none), hello.you. */
export function tokenHelloWrong(user, hello) {
  const wrong = [];
  if (hello.board !== null) wrong.push(`${user.name}: hello.board is ${JSON.stringify(hello.board).slice(0, 120)}, not null`);
  const you = helloYouWrong(user, hello);
  if (you) wrong.push(you);
  return wrong;
}

/** The mismatches `wrong`, one line a kind (`kindOf(line)`), with how often it came. */
export function byKind(wrong, kindOf) {
  const kinds = new Map();
  for (const w of wrong) {
    const kind = kindOf(w);
    const k = kinds.get(kind);
    kinds.set(kind, k ? { ...k, n: k.n + 1 } : { first: w, n: 1 });
  }
  return [...kinds.values()].map((k) => (k.n > 1 ? `${k.first} (and ${k.n - 1} more like it)` : k.first));
}

/** A kind of mismatch in a token game's test: its user and its numbers left out. */
export const tokenKind = (w) => w.replace(/^(alice|bob): /, '').replace(/\d+(\.\d+)?/g, 'N');

/**
 * What a token game's state frame lacks or has wrong that both games share: the keys of
 * `stateKeys` and each seat's, a known phase of `phases`, `showing` and `result` in their
 * phases. One line each, for `user`.
 */
export function tokenStateWrong(user, s, { stateKeys, phases }) {
  const wrong = [];
  const missing = stateKeys.filter((k) => !(k in s));
  if (missing.length) wrong.push(`${user.name}: a state (${s.phase}) lacks ${missing.join(', ')}`);
  if (!phases.includes(s.phase)) wrong.push(`${user.name}: phase ${JSON.stringify(s.phase)}`);
  for (const seat of s.seats || []) {
    const lacks = ['colour', 'player', 'ready', 'online', 'computer', 'tokens'].filter((k) => !(k in seat));
    if (lacks.length) wrong.push(`${user.name}: a seat lacks ${lacks.join(', ')}: ${JSON.stringify(seat)}`);
  }
  if ((s.phase === 'showing') !== (s.showing != null)) wrong.push(`${user.name}: showing ${JSON.stringify(s.showing)} in phase ${s.phase}`);
  if ((s.phase === 'over') !== (s.result != null)) wrong.push(`${user.name}: result ${JSON.stringify(s.result)} in phase ${s.phase}`);
  return wrong;
}
