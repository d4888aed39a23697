// The replay page in a real browser (Debian's Chromium driven by playwright-core): pages made
// by the release binary (`robots run MATCH --html FILE`) are opened from file:// URLs and
// driven with keys, buttons and the slider; what the page shows is read from the DOM and
// compared with an independent source, the debugger (`robots debug MATCH --script FILE`).
// Run: node --test web/test/e2e.mjs (scripts/test builds the binary first). The binary is
// $ROBOTS_BIN, else $CARGO_TARGET_DIR/release/robots, else target/release/robots. Screenshots
// go to <target>/viewer-e2e/; UPDATE_SCREENSHOT=1 also writes docs/viewer.png (1280x800) and
// docs/viewer-800x600.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const target = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');
const bin = process.env.ROBOTS_BIN || path.join(target, 'release', 'robots');
const out = path.join(target, 'viewer-e2e');
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let browser;

before(async () => {
  fs.mkdirSync(out, { recursive: true });
  assert.ok(fs.existsSync(bin), `no binary at ${bin}: cargo build --release first`);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  if (browser) await browser.close();
});

function robots(args) {
  return execFileSync(bin, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 });
}

/** Writes the page of `match` (a path below the repository) and returns its file. */
function makePage(match) {
  const file = path.join(out, `${path.basename(match, '.yaml')}.html`);
  robots(['run', match, '--html', file]);
  return file;
}

/** Opens a page, failing the test on any console error, page error or network request. */
async function open(file, viewport = { width: 1400, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) problems.push(`request: ${r.url()}`);
  });
  const started = Date.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems, loadMs: Date.now() - started };
}

/** What the page shows now, read from its DOM hooks. */
function shown(page) {
  return page.evaluate(() => {
    const robots = {};
    for (const g of document.querySelectorAll('#board [data-robot]')) {
      const d = g.dataset;
      robots[d.robot] = { alive: d.alive === 'true', col: +d.col, row: +d.row, facing: +d.facing };
    }
    for (const c of document.querySelectorAll('#programs [data-robot]')) {
      const d = c.dataset;
      Object.assign(robots[d.robot], { pointer: +d.pointer, shots: +d.shots, lost: d.lost });
    }
    const slider = document.getElementById('slider');
    return {
      turn: +document.getElementById('turn').textContent,
      slider: +slider.value,
      max: +slider.max,
      status: document.getElementById('status').textContent,
      log: document.getElementById('log-now').textContent,
      robots,
    };
  });
}

// A robot line of `show board`; under the TI-57 rule its memories follow after `; `.
const ROBOT_LINE =
  /^(\w+\.\d+): (?:at \[(\d+), (\d+)\] facing (\d) \S+, pointer (?:start|step (\d+)), (\d+) shots(?:, lost steps ([\d ]+))?(?:; x=.*)?|(destroyed))$/;

/** The debugger's view of the match at each of `turns`: robots (from `show board`), the
 *  position line, and the events of the turn when it stepped there from the turn before. */
function fromDebugger(match, turns) {
  const sorted = [...new Set(turns)].sort((a, b) => a - b);
  let script = '';
  let previous = 0;
  for (const t of sorted) {
    if (t > previous) script += `step ${t - previous}\n`;
    script += 'show board\n';
    previous = t;
  }
  const file = path.join(out, `${path.basename(match, '.yaml')}.script`);
  fs.writeFileSync(file, script);
  const lines = robots(['debug', match, '--script', file]).split('\n');
  const blocks = [];
  let block = { command: null, lines: [] };
  for (const line of lines) {
    if (line.startsWith('> ')) {
      blocks.push(block);
      block = { command: line.slice(2), lines: [] };
    } else if (line !== '') block.lines.push(line);
  }
  blocks.push(block);
  const states = new Map();
  let position = blocks[0].lines.at(-1);
  let events = null;
  let index = 0;
  for (const b of blocks.slice(1)) {
    if (b.command.startsWith('step')) {
      position = b.lines.at(-1);
      events = b.command === 'step 1' ? b.lines.slice(0, -1).join('\n') : null;
      continue;
    }
    const robotsAt = {};
    for (const line of b.lines) {
      const m = ROBOT_LINE.exec(line);
      if (!m) continue;
      robotsAt[m[1]] = m[8]
        ? { alive: false }
        : {
          alive: true, col: +m[2], row: +m[3], facing: +m[4], pointer: +(m[5] || 0), shots: +m[6],
          lost: m[7] || '',
        };
    }
    states.set(sorted[index], { robots: robotsAt, position, events });
    index += 1;
  }
  assert.equal(states.size, sorted.length, 'one `show board` a turn asked');
  return states;
}

/** Every snapshot taken on the page equals the debugger's state at its turn. */
function compare(match, snapshots) {
  const expected = fromDebugger(match, snapshots.map((s) => s.turn));
  let logs = 0;
  for (const s of snapshots) {
    const e = expected.get(s.turn);
    const where = `${match} at turn ${s.turn}`;
    assert.equal(s.slider, s.turn, `${where}: the slider`);
    assert.equal(s.status, e.position, `${where}: the status line`);
    assert.deepEqual(Object.keys(s.robots).sort(), Object.keys(e.robots).sort(), where);
    for (const [name, robot] of Object.entries(e.robots)) {
      const page = s.robots[name];
      assert.equal(page.alive, robot.alive, `${where}: ${name} alive`);
      if (!robot.alive) continue;
      const { col, row, facing, pointer, shots, lost } = page;
      assert.deepEqual({ alive: true, col, row, facing, pointer, shots, lost }, robot, `${where}: ${name}`);
    }
    if (e.events !== null && s.turn > 0) {
      assert.equal(s.log.trimEnd(), e.events, `${where}: the turn's log`);
      logs += 1;
    }
  }
  return logs;
}

test('the default match: keys, buttons, slider and play show the engine\'s states', async () => {
  const match = 'matches/default.yaml';
  const { page, problems, loadMs } = await open(makePage(match));
  const snapshots = [];
  const snap = async () => snapshots.push(await shown(page));
  const key = async (k, n = 1) => {
    for (let i = 0; i < n; i += 1) {
      await page.keyboard.press(k);
      await snap();
    }
  };
  const click = async (id, n = 1) => {
    for (let i = 0; i < n; i += 1) {
      await page.click(`#${id}`);
      await snap();
    }
  };
  await snap();
  await key('ArrowRight', 6);
  await click('turn-forward', 3);
  await key('ArrowLeft', 2);
  await click('turn-back');
  await key('Shift+ArrowRight', 2);
  await key('ArrowDown');
  await key('ArrowUp');
  await key('Shift+ArrowLeft');
  await click('round-forward', 2);
  await click('round-back');
  assert.deepEqual(snapshots.slice(0, 10).map((s) => s.turn), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(snapshots.slice(10, 13).map((s) => s.turn), [8, 7, 6]);

  await page.fill('#slider', '20');
  await snap();
  assert.equal(snapshots.at(-1).turn, 20);
  await page.selectOption('#speed', '16');
  await page.click('#play');
  await page.waitForFunction(() => +document.getElementById('turn').textContent >= 24);
  await page.click('#play');
  await snap();
  assert.ok(snapshots.at(-1).turn >= 24, 'play moves forward');

  await key('End');
  const end = snapshots.at(-1);
  assert.equal(end.slider, end.max, 'the slider reaches the end');
  assert.match(end.status, /the match is over/);
  await key('Home');
  assert.equal(snapshots.at(-1).turn, 0);

  // A robot clicked shows its whole state.
  await page.selectOption('#speed', '1');
  await page.fill('#slider', '30');
  await snap();
  await page.click('#board [data-robot="green.1"]');
  const info = await page.textContent('#info-text');
  const robot = snapshots.at(-1).robots['green.1'];
  assert.ok(info.startsWith('green.1 (program hunter)'), info);
  assert.ok(info.includes(`position: [${robot.col}, ${robot.row}]`), info);
  await page.screenshot({ path: path.join(out, 'default.png') });

  const logs = compare(match, snapshots);
  assert.ok(logs >= 8, `only ${logs} turns' logs compared`);
  // A plain match: no memories anywhere.
  assert.equal(await page.locator('#programs pre.memories:not([hidden])').count(), 0);
  assert.ok(!info.includes('memories'), info);
  assert.deepEqual(problems, []);
  console.log(`default: ${snapshots.length} positions checked, loaded in ${loadMs} ms`);
  await page.close();
});

test('the melee match (four teams) loads and steps like the engine', async () => {
  const match = 'matches/melee.yaml';
  const { page, problems } = await open(makePage(match));
  assert.equal(await page.locator('#teams .team').count(), 4);
  const snapshots = [await shown(page)];
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('ArrowRight');
    snapshots.push(await shown(page));
  }
  await page.keyboard.press('End');
  snapshots.push(await shown(page));
  compare(match, snapshots);
  await page.screenshot({ path: path.join(out, 'melee.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('every shipped match opens with no error and plays to its end', async () => {
  for (const name of fs.readdirSync(path.join(root, 'matches')).filter((f) => f.endsWith('.yaml'))) {
    const { page, problems } = await open(makePage(`matches/${name}`));
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    const s = await shown(page);
    assert.equal(s.turn, s.max, name);
    assert.match(s.status, /the match is over/, name);
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test('a 200-round match of eight robots loads fast and stays responsive', async () => {
  const file = makePage('tests/viewer/long.yaml');
  const bytes = fs.statSync(file).size;
  assert.ok(bytes < 3_000_000, `${bytes} bytes`);
  const { page, problems, loadMs } = await open(file);
  assert.ok(loadMs < 5000, `loaded in ${loadMs} ms`);
  const times = await page.evaluate(() => {
    const slider = document.getElementById('slider');
    const out = [];
    for (const value of [1600, 800, 1, 1200, 400, 1599]) {
      const t0 = performance.now();
      slider.value = String(value);
      slider.dispatchEvent(new Event('input'));
      document.body.getBoundingClientRect();
      out.push(performance.now() - t0);
    }
    return out;
  });
  const worst = Math.max(...times);
  assert.ok(worst < 250, `a jump took ${worst.toFixed(1)} ms`);
  const s = await shown(page);
  assert.equal(s.max, 1600);
  assert.equal(s.turn, 1599);
  assert.deepEqual(problems, []);
  console.log(`long: ${bytes} bytes, loaded in ${loadMs} ms, slowest jump ${worst.toFixed(1)} ms`);
  await page.close();
});

/** The debugger's `show robot ROBOT` at each of `turns`, one array of trimmed lines a turn. */
function showRobot(match, robot, turns) {
  let script = '';
  let previous = 0;
  for (const t of turns) {
    if (t > previous) script += `step ${t - previous}\n`;
    script += `show robot ${robot}\n`;
    previous = t;
  }
  const file = path.join(out, `${path.basename(match, '.yaml')}-${robot}.script`);
  fs.writeFileSync(file, script);
  const answers = robots(['debug', match, '--script', file]).split('\n> ').slice(1);
  return answers
    .filter((a) => a.startsWith('show robot'))
    .map((a) => a.split('\n').slice(1).map((l) => l.trim()).filter((l) => l !== ''));
}

/** The card's two memory lines as the debugger's `show robot` words them. */
function cardFromShowRobot(lines) {
  const get = (prefix) => lines.find((l) => l.startsWith(prefix)).slice(prefix.length);
  const [x, t] = /^x = (-?\d+), t = (-?\d+)$/.exec(get('memories: ')).slice(1);
  const returns = get('returns remembered: ').replace(' (stopped by R/S)', ' · stopped (R/S)');
  return `x = ${x}  t = ${t}  R0-R7: ${get('R0-R7: ')}\nreturns: ${returns}`;
}

test('a TI-57 match: the robot panel and the cards show the memories as `robots debug` does', async () => {
  const match = 'tests/viewer/ti57.yaml';
  const { page, problems } = await open(makePage(match));
  assert.match(await page.textContent('#match-meta'), /TI-57 keywords/);
  // Turns: the start, mid-count, two returns remembered, x<>t, R/S, a signal pending (its
  // step secret), the signal obeyed, the end.
  const turns = [0, 4, 8, 10, 12, 16, 18, 24];
  const snapshots = [];
  const panels = [];
  await page.click('#programs [data-robot="green.1"] .title');
  for (const turn of turns) {
    await page.fill('#slider', String(turn));
    snapshots.push(await shown(page));
    panels.push(await page.evaluate(() => ({
      info: document.getElementById('info-text').textContent,
      cards: Object.fromEntries([...document.querySelectorAll('#programs [data-robot]')].map((c) => {
        const pre = c.querySelector('pre.memories');
        return [c.dataset.robot, pre.hidden ? null : pre.textContent];
      })),
    })));
  }
  compare(match, snapshots);
  for (const robot of ['green.1', 'violet.1']) {
    const expected = showRobot(match, robot, turns);
    assert.equal(expected.length, turns.length);
    turns.forEach((turn, i) => {
      const where = `${robot} at turn ${turn}`;
      const debug = expected[i];
      assert.equal(panels[i].cards[robot], cardFromShowRobot(debug), `${where}: its card`);
      if (robot !== 'green.1') return;
      // The panel is `show robot`, but for the pending signal's step, which it keeps secret.
      const info = panels[i].info.split('\n');
      const secret = (l) => l.startsWith('pending signal:');
      assert.deepEqual(info.filter((l) => !secret(l)), debug.filter((l) => !secret(l)), where);
      const pending = debug.find(secret);
      assert.equal(info.find(secret), pending === 'pending signal: none' ? pending : 'pending signal: yes (its step is secret until it acts)', where);
    });
  }
  assert.match(panels[2].cards['green.1'], /returns: step 8, step 14/);
  assert.match(panels[4].cards['green.1'], /stopped \(R\/S\)/);
  assert.match(panels[5].info, /pending signal: yes/);
  await page.screenshot({ path: path.join(out, 'ti57.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

/** The match's document, as the page has it. */
const documentOf = (page) => page.evaluate(() => JSON.parse(document.getElementById('match-data').textContent));

/** Every frame's robots from the document's changes (`d`), read here, not by the page's
 *  model: `{ col, row, facing, alive, lost }` a robot. */
function replayed(doc) {
  let robots = [];
  return doc.frames.map((f) => {
    robots = robots.slice();
    for (const [i, col, row, facing, alive, , , , lost] of f.d) robots[i] = { col, row, facing, alive: alive === 1, lost };
    return robots;
  });
}

/** The centre of each hex drawn, from its polygon's corners, by "col,row". */
const centres = (page) => page.evaluate(() => Object.fromEntries(
  [...document.querySelectorAll('#board .terrain polygon[data-cell]')].map((p) => {
    const pts = [...p.points];
    return [p.dataset.cell, [pts.reduce((a, q) => a + q.x, 0) / pts.length, pts.reduce((a, q) => a + q.y, 0) / pts.length]];
  }),
));

const near = (a, b, where, tolerance = 0.05) => {
  assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) < tolerance, `${where}: ${a} is not ${b}`);
};

/** Goes to frame `k` - 1 at speed `speed`, then one turn forward (animated). */
async function stepInto(page, k, speed) {
  await page.selectOption('#speed', speed);
  await page.fill('#slider', String(k - 1));
  await page.keyboard.press('ArrowRight');
}

test('the page fits 1280x800 and 800x600: the board, the controls, the robot clicked and the log in view', async () => {
  const file = makePage('matches/default.yaml');
  for (const [width, height, shot] of [[1280, 800, 'viewer.png'], [800, 600, 'viewer-800x600.png']]) {
    const { page, problems } = await open(file, { width, height });
    const where = `${width}x${height}`;
    await page.fill('#slider', '30');
    const robot = await page.$eval('#board [data-robot][data-alive="true"]', (g) => g.dataset.robot);
    await page.click(`#board [data-robot="${robot}"]`);
    assert.ok((await page.textContent('#info-text')).startsWith(`${robot} (program `), `${where}: the robot's state at once`);
    const view = await page.evaluate(() => {
      const box = (id) => {
        const b = document.getElementById(id).getBoundingClientRect();
        return { left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height };
      };
      const ids = ['board', 'controls', 'slider', 'status', 'info', 'chart', 'teams', 'log'];
      return {
        boxes: Object.fromEntries(ids.map((id) => [id, box(id)])),
        now: document.getElementById('log-now').getBoundingClientRect().top,
        scrollY: window.scrollY,
        scrollHeight: document.scrollingElement.scrollHeight,
        innerHeight: window.innerHeight,
        innerWidth: window.innerWidth,
        overflowX: document.scrollingElement.scrollWidth > window.innerWidth,
      };
    });
    assert.equal(view.scrollY, 0, `${where}: the page did not scroll`);
    assert.ok(!view.overflowX, `${where}: nothing wider than the window`);
    for (const [id, b] of Object.entries(view.boxes)) {
      assert.ok(b.width > 0 && b.height > 0, `${where}: #${id} shown`);
      assert.ok(b.left >= 0 && b.top >= 0 && b.right <= width && b.bottom <= height, `${where}: #${id} ${JSON.stringify(b)} in view`);
    }
    const { board, info, log } = view.boxes;
    assert.ok(info.left >= board.right && info.top < board.bottom, `${where}: the robot's state beside the board`);
    assert.ok(board.width >= 0.5 * width, `${where}: the board ${board.width} px wide`);
    assert.ok(log.height >= 100, `${where}: the log ${log.height} px high`);
    assert.ok(view.now >= log.top && view.now < log.bottom - 10, `${where}: the turn's log begins in view`);
    if (width >= 1280) assert.ok(view.scrollHeight <= view.innerHeight, `${where}: the page has nothing to scroll`);
    await page.screenshot({ path: path.join(out, shot) });
    if (process.env.UPDATE_SCREENSHOT) await page.screenshot({ path: path.join(root, 'docs', shot) });
    assert.deepEqual(problems, [], where);
    await page.close();
  }
});

test('a shot flies from its robot to the robot hit, an explosion bursts, at the play speed', async () => {
  const { page, problems } = await open(makePage('matches/default.yaml'), { width: 1280, height: 800 });
  const doc = await documentOf(page);
  const frames = replayed(doc);
  const centre = await centres(page);
  const codes = (k) => doc.frames[k].e.map((e) => e[0]);
  const k = doc.frames.findIndex((f, i) => i > 0 && codes(i).includes('fired') && codes(i).includes('hit'));
  assert.ok(k > 0, 'the default match has a shot that hits');
  const fired = doc.frames[k].e.find((e) => e[0] === 'fired');
  const hit = doc.frames[k].e.find((e) => e[0] === 'hit');
  const shooter = frames[k][fired[1]];
  const target = frames[k - 1][hit[1]];
  const [from, to] = [`${shooter.col},${shooter.row}`, `${target.col},${target.row}`];
  const shotNow = () => page.evaluate(() => {
    const g = document.querySelector('#board .effects .shot');
    if (!g) return null;
    const n = (sel, a) => +g.querySelector(sel).getAttribute(a);
    return {
      ...g.dataset,
      trail: [n('.trail', 'x1'), n('.trail', 'y1'), n('.trail', 'x2'), n('.trail', 'y2')],
      impact: [n('.impact', 'cx'), n('.impact', 'cy')],
      tracer: [n('.tracer', 'cx'), n('.tracer', 'cy')],
    };
  });

  // At ¼× (a turn of 3.6 s): the tracer starts at the shooter and reaches the robot hit.
  await stepInto(page, k, '0.25');
  const first = await shotNow();
  assert.ok(first, `turn ${k}: a shot drawn`);
  assert.deepEqual({ robot: first.robot, from: first.from, to: first.to, target: first.target },
    { robot: doc.robots[fired[1]].name, from, to, target: doc.robots[hit[1]].name }, `turn ${k}`);
  near(first.trail.slice(0, 2), centre[from], 'the line starts at the shooter');
  near(first.impact, centre[to], 'the flash where it hits');
  // The tracer is on its way: on the line from the shooter, not yet at the robot hit.
  const [a, b, p] = [centre[from], centre[to], first.tracer];
  const along = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2);
  near(p, [a[0] + along * (b[0] - a[0]), a[1] + along * (b[1] - a[1])], 'the tracer on the shot\'s line');
  // Sampled at the very start it may sit a rounding error behind the shooter (-0.00).
  assert.ok(along > -0.01 && along < 0.99, `the tracer ${along.toFixed(2)} of the way`);
  await page.waitForFunction(([x, y]) => {
    const t = document.querySelector('#board .effects .shot .trail');
    return t && Math.hypot(+t.getAttribute('x2') - x, +t.getAttribute('y2') - y) < 0.05;
  }, centre[to], { timeout: 3000 });

  // At 16× (a turn of 56 ms) it is over long before 400 ms; at ¼× it is still there.
  await stepInto(page, k, '16');
  await page.waitForTimeout(400);
  assert.equal(await page.locator('#board .effects .shot').count(), 0, 'at 16x the shot is over');
  await stepInto(page, k, '0.25');
  await page.waitForTimeout(400);
  assert.equal(await page.locator('#board .effects .shot').count(), 1, 'at 1/4x the shot is still flying');

  // An explosion: its centre, and its hexes at distance 1 and 2 (measured on the drawing).
  const x = doc.frames.findIndex((f) => f.e.some((e) => e[0] === 'exploded'));
  assert.ok(x > 0, 'the default match has an explosion');
  const at = doc.frames[x].e.find((e) => e[0] === 'exploded')[3].join(',');
  await stepInto(page, x, '0.25');
  const burst = await page.evaluate(() => {
    const g = document.querySelector('#board .effects .burst');
    const fire = g.querySelector('.fire');
    return {
      at: g.dataset.at,
      fire: [+fire.getAttribute('cx'), +fire.getAttribute('cy')],
      hexes: [...g.querySelectorAll('.blast')].map((h) => [h.dataset.hex, +h.dataset.distance]),
    };
  });
  assert.equal(burst.at, at);
  near(burst.fire, centre[at], 'the burst at the robot that exploded');
  const across = Math.hypot(centre['1,0'][0] - centre['0,0'][0], centre['1,0'][1] - centre['0,0'][1]);
  const expected = Object.entries(centre).flatMap(([cell, c]) => {
    const d = Math.hypot(c[0] - centre[at][0], c[1] - centre[at][1]) / across;
    if (d < 0.01) return [[cell, 0]];
    if (Math.abs(d - 1) < 0.01) return [[cell, 1]];
    return Math.abs(d - 2) < 0.01 || Math.abs(d - Math.sqrt(3)) < 0.01 ? [[cell, 2]] : [];
  });
  assert.deepEqual(burst.hexes.sort(), expected.sort(), 'the hexes within 2');

  // prefers-reduced-motion: the whole line at once, nothing moving, the robots placed at once.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await stepInto(page, k, '0.25');
  const still = await shotNow();
  near(still.trail.slice(2), centre[to], 'still: the whole line at once');
  const robotsNow = () => page.$$eval('#board .robot', (gs) => gs.map((g) => g.getAttribute('transform')));
  const [placed, effects] = [await robotsNow(), await page.innerHTML('#board .effects')];
  await page.waitForTimeout(300);
  assert.deepEqual(await robotsNow(), placed, 'still: the robots do not glide');
  assert.equal(await page.innerHTML('#board .effects'), effects, 'still: the effects do not move');
  assert.deepEqual(problems, []);
  await page.close();
});

test('each robot\'s damage marker says its destroyed steps; the chart counts the robots alive', async () => {
  for (const match of ['matches/default.yaml', 'matches/melee.yaml']) {
    const { page, problems } = await open(makePage(match), { width: 1280, height: 800 });
    const doc = await documentOf(page);
    const frames = replayed(doc);
    const last = doc.frames.length - 1;
    const damaged = frames.findIndex((rs) => rs.some((r) => r.alive && r.lost.length > 0));
    let seen = 0;
    for (const k of [0, Math.floor(last / 2), damaged, last].filter((f) => f >= 0)) {
      await page.fill('#slider', String(k));
      const marks = await page.$$eval('#board .robot', (gs) => gs.map((g) => {
        const h = g.querySelector('.health');
        const w = (c) => +h.querySelector(c).getAttribute('width');
        return { robot: g.dataset.robot, lost: +h.dataset.lost, steps: +h.dataset.steps, whole: w('.hp-fill') / w('.hp-back'), text: h.querySelector('.hp-lost').textContent };
      }));
      marks.forEach((m, i) => {
        const where = `${match} turn ${k}: ${m.robot}`;
        const lost = frames[k][i].lost.length;
        const steps = doc.robots[i].steps.length;
        assert.deepEqual([m.lost, m.steps, m.text], [lost, steps, lost ? `−${lost}` : ''], where);
        assert.ok(Math.abs(m.whole - (steps - lost) / steps) < 1e-3, `${where}: the bar ${m.whole}`);
        if (lost > 0 && frames[k][i].alive) seen += 1;
      });
    }
    if (match === 'matches/default.yaml') assert.ok(seen > 0, 'a damaged robot checked');

    // The chart: a point a round (after its last turn, a turn k played in frame k - 1's round).
    const ends = [0];
    for (let k = 1; k <= last; k += 1) ends[doc.frames[k - 1].r - doc.frames[0].r + 1] = k;
    const chart = await page.evaluate(() => {
      const svg = document.getElementById('chart');
      return {
        bottom: +svg.dataset.bottom,
        unit: +svg.dataset.unit,
        lines: [...svg.querySelectorAll('polyline.series')].map((p) => ({
          team: p.dataset.team, counts: p.dataset.counts, offset: +p.dataset.offset,
          ys: [...p.points].map((q) => q.y),
        })),
      };
    });
    assert.deepEqual(chart.lines.map((l) => l.team), doc.teams.map((t) => t.colour));
    chart.lines.forEach((line, team) => {
      const counts = ends.map((k) => doc.robots.filter((r, i) => r.team === team && frames[k][i].alive).length);
      assert.equal(line.counts, counts.join(' '), `${match}: ${line.team} alive after each round`);
      assert.deepEqual(line.ys.map((y) => Math.round((chart.bottom - line.offset - y) / chart.unit) + 0), counts, `${match}: ${line.team}'s points`);
    });
    for (const k of [0, 1, Math.floor(last / 2), last]) {
      await page.fill('#slider', String(k));
      const mark = await page.evaluate(() => ({ ...document.getElementById('chart').dataset, round: document.getElementById('round').textContent }));
      assert.equal(mark.round, String(doc.frames[k].r), `${match} turn ${k}: the round marked`);
    }
    assert.deepEqual(problems, [], match);
    await page.close();
  }
});
