// A Micro Robots room (docs/ROOMS.md, "Micro Robots in a room") in a real browser, as two
// friends play one: Debian's Chromium driven by playwright-core against a server started
// here on a fresh database in a temporary folder (as web/test/rooms-ricochet.e2e.mjs does).
// A and B sign up in two browser contexts; A creates a room (game micro, 2 players, the
// public-silver face, the standard rules) on /rooms, B opens its link; both sit and say
// ready; A starts. In each mission the test reads the board back from the picture on the
// page (the server's SVG: each cell's polygon named by its class, the robot, the ring) and
// finds the fewest moves itself by breadth-first search (RULES C.1), checked against
// `robots micro solve` on the board read, so the players know a way without the server
// telling anything. A mission without any way is passed by both ("nobody finds").
// Mission 1: B's page is opened again mid-race (the same mission, the clock going on); A
// announces the fewest and shows them by clicking the cells: A's token. Mission 2: A
// announces one move too many and types the shortest way: the demonstration fails, A gives
// the token to B (the penalty). Then both pass: nobody finds, the target is the next start.
// Then B announces; while B shows, the server restarts (the stored answers are played
// again): the mission stands where it stood, and B's clicked stops win B's token.
// Every WebSocket frame each page receives is kept: none holds a way before it is shown,
// a key `fewest`, `best`, `path`, `stops`, `solution`, or the word "fewest", and "the best
// is" only in a failure's line after the demonstration; a drawn path is the last mission's.
// Run: scripts/e2e-rooms, or node --test web/test/rooms-micro.e2e.mjs. The binary is
// $ROBOTS_BIN, else $CARGO_TARGET_DIR/release/robots, else target/release/robots (nothing is
// built here). Screenshots, the frames each page received and the server's log go to
// <target>/rooms-e2e/micro/; UPDATE_SCREENSHOT=1 also writes docs/rooms/micro.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { bin } from './server.mjs';
import {
  assertCountsDown, byKind, createTokenRoom, joinAndStart, lastState as last, microBoardFromPicture, microSolve,
  objectsIn, reopen, restartServer, roomsTest, seatSel, signedUpUsers, sleep,
  tokenHelloWrong, tokenKind, tokenStateWrong, until, waitState,
} from './support.mjs';

const SEAT = { alice: '1', bob: '2' };
const RACE_SECONDS = 150;

// The server, the browser, the room's code (`env.code`), its users.
const env = roomsTest('micro', chromium);
const { users, out, screenshot } = env;
// The missions played: number, start, via, target, the stops found, when the stops were sent.
const missions = [];
// What happened: a mission nobody found. `shot`: the stops on the page of the screenshot
// taken (the longest way shown is kept).
const seen = { passed: false, shot: 0 };

const logHas = (user, re) => (last(user)?.log || []).find((l) => re.test(l));

/** Both pages racing in mission `n`. */
async function waitRacing(n) {
  for (const user of Object.values(users)) {
    await user.page.waitForSelector(`#room[data-phase="racing"][data-mission="${n}"]`);
  }
}

/** The picture on the page: each cell's name and bounds, and the centres of the marks. */
const pagePicture = (page) => page.$eval('#svg > svg', (svg) => {
  const bounds = (node) => {
    const b = node.getBBox();
    return { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
  };
  const nameOf = (node) => [...node.classList].map((c) => /^cell-(\w\d)$/.exec(c)).find(Boolean)?.[1] ?? null;
  const centre = (sel) => {
    const node = svg.querySelector(sel);
    if (!node) return null;
    const b = bounds(node);
    return [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
  };
  return {
    cells: [...svg.querySelectorAll('.cell')].map((p) => ({ name: nameOf(p), ...bounds(p) })),
    robot: centre('.robot'), target: centre('.target'), via: centre('.via'),
  };
});

/** `robots micro solve` on the board read from the picture: its fewest moves, or null (no way). */
function cliFewest(board, n, start, via, goal) {
  const file = path.join(env.dir, `board-${n}.yaml`);
  fs.writeFileSync(file, `rows:\n${board.rows.map((row) => `  - [${row.join(', ')}]`).join('\n')}\n`);
  fs.copyFileSync(file, path.join(out, `board-${n}.yaml`));
  const args = ['micro', 'solve', file, '--from', start, '--to', goal, ...(via ? ['--via', via] : []), '--json'];
  const r = spawnSync(bin, args, { cwd: env.dir, encoding: 'utf8', timeout: 20_000 });
  if (r.status === 1 && r.stdout.trim() === '') return null;
  assert.equal(r.status, 0, `robots ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout).moves;
}

/**
 * Mission `n` as both pages show it: the state's cells are the picture's marks; the board
 * read back and solved here. `{n, start, via, target, stops (null: no way), board}`.
 */
async function readMission(n) {
  await waitRacing(n);
  const a = users.alice;
  const s = await waitState(a, (x) => x.phase === 'racing' && x.mission === n, `mission ${n}`);
  // The page draws the state's board: the robot on the start (the last board had it elsewhere).
  let picture;
  let board;
  for (const deadline = Date.now() + 5000; ;) {
    picture = await pagePicture(a.page);
    board = microBoardFromPicture(picture.cells);
    if ((picture.robot && board.cellAt(...picture.robot) === s.start) || Date.now() > deadline) break;
    await sleep(50);
  }
  assert.equal(board.cellAt(...picture.robot), s.start, `mission ${n}: the robot stands on the start`);
  assert.equal(board.cellAt(...picture.target), s.target, `mission ${n}: the ring is on the target`);
  assert.equal(picture.via ? board.cellAt(...picture.via) : null, s.via, `mission ${n}: the waypoint`);
  for (const user of Object.values(users)) {
    const data = await user.page.$eval('#mission', (p) => ({ ...p.dataset, text: p.textContent }));
    assert.equal(data.start, s.start, `${user.name}: #mission data-start`);
    assert.equal(data.target, s.target, `${user.name}: #mission data-target`);
    assert.ok(data.text.includes(`(${s.start})`) && data.text.includes(`(${s.target})`), `#mission in words: ${data.text}`);
  }
  const stops = microSolve(board, s.start, s.via, s.target);
  assert.equal(stops ? stops.length : null, cliFewest(board, n, s.start, s.via, s.target), `mission ${n}: robots micro solve agrees`);
  const mission = { n, start: s.start, via: s.via, target: s.target, stops, board, sent: null };
  missions.push(mission);
  return mission;
}

/** Both pass mission `m`: nobody finds; the next mission starts on its target. */
async function bothPass(m) {
  const a = users.alice;
  const b = users.bob;
  await a.page.click('button#pass');
  await b.page.waitForSelector(`${seatSel(SEAT.alice)}[data-passed="true"]`);
  await a.page.waitForSelector('form#announce-form', { state: 'hidden' });
  assert.equal(await b.page.isVisible('form#announce-form'), true, 'B has not passed: B may announce');
  await b.page.click('button#pass');
  await waitRacing(m.n + 1);
  const next = await waitState(b, (s) => s.mission === m.n + 1, `mission ${m.n + 1}`);
  assert.ok(logHas(b, /nobody finds a way/), 'the log says nobody finds');
  assert.equal(next.start, m.target, 'the target is the next start');
  assert.deepEqual(next.passed, [false, false], 'a new mission: nobody passed');
  seen.passed = true;
}

/** The next mission with a way: missions without one are passed. */
async function missionWithAWay(n) {
  let m = await readMission(n);
  while (!m.stops) {
    await bothPass(m);
    m = await readMission(m.n + 1);
  }
  return m;
}

/** `user` announces `moves`: both pages show the user showing. */
async function announce(user, moves) {
  await user.page.fill('input#moves-count', String(moves));
  await user.page.click('button#announce');
  for (const u of Object.values(users)) await u.page.waitForSelector('#room[data-phase="showing"]');
  const s = await waitState(user, (x) => x.phase === 'showing', 'showing');
  assert.deepEqual(s.showing, { colour: SEAT[user.name], moves }, 'state.showing: the announcer and the count');
  assert.equal(await user.page.getAttribute('#room', 'data-showing'), 'you');
  await user.page.waitForSelector('form#show:not([hidden]) input#stops:not([disabled])');
  for (const u of Object.values(users).filter((x) => x !== user)) {
    assert.equal(await u.page.getAttribute('#room', 'data-showing'), SEAT[user.name]);
    assert.equal(await u.page.isVisible('form#show'), false, `${u.name} does not show`);
  }
}

/** Clicks the cells of `stops` on the user's board, in order; checks input#stops and the marks. */
async function clickStops(user, stops) {
  for (const cell of stops) await user.page.click(`#svg .cell-${cell}`);
  assert.equal(await user.page.inputValue('input#stops'), stops.join(' '), 'the clicked cells, in order, in input#stops');
  assert.equal(await user.page.locator('#svg .cell.stop').count(), new Set(stops).size, 'the stops highlighted');
  const numbers = await user.page.$$eval('#svg .stop-number', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(numbers, stops.map((_, i) => String(i + 1)), 'the stops numbered on the board');
}

/** The screenshot of the user's page (docs/rooms/micro.png), unless one shows a longer way already. */
async function screenshotStops(user, m) {
  if (m.stops.length <= seen.shot) return;
  seen.shot = m.stops.length;
  await screenshot(user.page, 'micro.png');
}

/** Sends the stops (button#send-stops), noting when for the secrets' check. */
async function sendStops(user, m) {
  m.sent = Date.now();
  await user.page.click('button#send-stops');
}

test('A and B sign up; A creates a Micro room (2 players, public-silver, standard) on /rooms', { timeout: 20_000 }, async () => {
  const [a] = await signedUpUsers(env.browser, env.base, users, ['alice', 'bob']);
  ({ code: env.code } = await createTokenRoom(a, env.base, { game: 'micro', micro_face: 'public-silver', micro_variant: 'standard', players: 2 }));
  assert.match(await a.page.textContent('#room-info'), /Micro Robots · public-silver face/);
});

test('B opens the link; both sit and say ready; A starts: mission 1 on both pages, the clock running', { timeout: 20_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  await joinAndStart(env, a, b, SEAT, [
    '#seats', 'button#ready', 'button#start', '#svg', '#mission', '#timer', 'form#announce-form', 'input#moves-count',
    'button#announce', 'button#pass', 'form#show', 'input#stops', 'button#clear-stops', 'button#send-stops', '#log',
    '#result', 'p#error',
  ]);
  await waitRacing(1);
  for (const user of [a, b]) {
    await user.page.waitForSelector('#svg > svg .cell');
    assert.equal(await user.page.isVisible('form#announce-form'), true, `${user.name} may announce`);
    assert.equal(await user.page.isVisible('form#show'), false, `${user.name}: no form#show while racing`);
    await user.page.waitForSelector('#timer[data-left]');
    const left = Number(await user.page.getAttribute('#timer', 'data-left'));
    assert.ok(left > RACE_SECONDS - 10 && left <= RACE_SECONDS, `${user.name}'s #timer: ${left} s left`);
  }
  // The page counts down by itself between states.
  await assertCountsDown(b, Number(await b.page.getAttribute('#timer', 'data-left')));
});

test('mission: B\'s page opened again mid-race; A announces the fewest moves and shows them by clicking: A\'s token', { timeout: 40_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  const m = await missionWithAWay(1);
  // B's page opened again: the same mission, the same board, the clock going on.
  const was = { mission: await b.page.textContent('#mission'), svg: last(b).svg, left: Number(await b.page.getAttribute('#timer', 'data-left')) };
  const reloadAt = Date.now();
  const again = await reopen(b, `#room[data-ready="true"][data-phase="racing"][data-mission="${m.n}"]`);
  assert.equal(again.svg, was.svg, 'the same board after a reload');
  assert.equal(await b.page.textContent('#mission'), was.mission, 'the same mission after a reload');
  await b.page.waitForSelector('#timer[data-left]');
  const left = Number(await b.page.getAttribute('#timer', 'data-left'));
  const gone = (Date.now() - reloadAt) / 1000;
  assert.ok(left <= was.left && left >= was.left - gone - 2, `the clock goes on: ${was.left} s left, then ${left} s ${gone.toFixed(1)} s later`);
  assert.equal(await b.page.isVisible('form#announce-form'), true, 'B may still announce');

  const fewest = m.stops.length;
  await announce(a, fewest);
  assert.ok(logHas(b, new RegExp(`alice announces ${fewest}$`)), 'the log: alice announces');
  assert.match(await a.page.textContent('#show-prompt'), new RegExp(`${fewest} move`));
  // A click on a cell by B (not showing) does nothing; A clicks, clears, clicks again.
  await b.page.click(`#svg .cell-${m.stops[0]}`, { force: true });
  assert.equal(await b.page.inputValue('input#stops'), '', 'B, not showing, picks no cell');
  await a.page.click(`#svg .cell-${m.stops[0]}`);
  await a.page.click('button#clear-stops');
  assert.equal(await a.page.inputValue('input#stops'), '', 'button#clear-stops empties input#stops');
  assert.equal(await a.page.locator('#svg .cell.stop').count(), 0, 'no stop highlighted once cleared');
  await clickStops(a, m.stops);
  await screenshotStops(a, m);
  await sendStops(a, m);
  const way = [m.start, ...m.stops].join(' → ');
  const win = await until(() => logHas(b, /alice shows /), 'the win in the log');
  assert.ok(win.includes(way), `the log gives the way shown: ${win}`);
  assert.match(win, /wins the token \(1 now\)/);
  await waitRacing(m.n + 1);
  for (const user of [a, b]) await user.page.waitForSelector(`${seatSel(SEAT.alice)}[data-tokens="1"]`);
  const next = await waitState(b, (s) => s.mission === m.n + 1, `mission ${m.n + 1}`);
  assert.deepEqual(next.seats.map((x) => x.tokens), [1, 0], 'state.seats tokens');
  assert.equal(next.reserve, 24, 'a token fewer in the reserve');
  assert.equal(next.start, m.target, 'the target is the next start');
  assert.match(next.svg, /class="path"/, 'the way won drawn on the next mission\'s board');
});

test('mission: A announces one move too many and types the shortest way: it fails, A gives a token to B', { timeout: 40_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  const m = await missionWithAWay(missions.at(-1).n + 1);
  const owed = last(a).seats.map((x) => x.tokens);
  const fewest = m.stops.length;
  await announce(a, fewest + 1);
  // Words that are no cells: refused on the page (p#error); A still shows.
  await a.page.fill('input#stops', 'moon 9');
  await a.page.click('button#send-stops');
  await a.page.waitForSelector('p#error:not([hidden])');
  assert.match(await a.page.textContent('p#error'), /Not a cell: MOON, 9/);
  // Typed, in lower case, with commas: understood, highlighted as clicked cells are.
  await a.page.fill('input#stops', m.stops.map((c) => c.toLowerCase()).join(', '));
  assert.equal(await a.page.getAttribute('input#stops', 'data-stops'), m.stops.join(' '));
  assert.equal(await a.page.locator('#svg .cell.stop').count(), new Set(m.stops).size, 'typed stops highlighted');
  await sendStops(a, m);
  const fails = await until(() => logHas(b, /alice fails/), 'the failure in the log');
  assert.match(fails, new RegExp(`alice fails \\(${fewest} moves? instead of ${fewest + 1}; the best is ${fewest}\\)`), fails);
  if (owed[0] > 0) {
    await until(() => logHas(b, /alice gives a token to bob/), 'the penalty in the log');
    for (const user of [a, b]) await user.page.waitForSelector(`${seatSel(SEAT.bob)}[data-tokens="${owed[1] + 1}"]`);
  }
  await waitRacing(m.n + 1);
  const next = await waitState(b, (s) => s.mission === m.n + 1, `mission ${m.n + 1}`);
  const expect = owed[0] > 0 ? [owed[0] - 1, owed[1] + 1] : owed;
  assert.deepEqual(next.seats.map((x) => x.tokens), expect, 'the penalty: a token from A to B');
  assert.equal(await a.page.textContent('p#error').then((t) => t.trim()), '', 'the error gone once the stops were sent');
});

test('mission: both pass: nobody finds, the token goes back', { timeout: 20_000 }, async () => {
  if (seen.passed) return;
  await bothPass(await readMission(missions.at(-1).n + 1));
});

test('mission: B announces; the server restarts while B shows: the mission stands where it stood, B wins', { timeout: 60_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  const m = await missionWithAWay(missions.at(-1).n + 1);
  await announce(b, m.stops.length);
  await clickStops(b, m.stops);
  await screenshotStops(b, m);
  const standing = last(a);
  const aStates = a.states.length;
  await restartServer(env.server, env.base, [a, b]);
  const back = await until(() => {
    const s = a.states.length > aStates ? last(a) : undefined;
    return s && s.phase === 'showing' ? s : undefined;
  }, 'the demonstration again after the restart', 20_000);
  const pick = (s) => ({
    phase: s.phase, mission: s.mission, oya: s.oya, start: s.start, via: s.via, target: s.target, token: s.token,
    showing: s.showing, reserve: s.reserve, tokens: s.seats.map((x) => x.tokens), svg: s.svg, log: s.log,
  });
  assert.deepEqual(pick(back), pick(standing), 'after a restart, the mission stands where it stood');
  await b.page.waitForSelector('form#show:not([hidden]) button#send-stops:not([disabled])');
  assert.equal(await b.page.inputValue('input#stops'), m.stops.join(' '), 'B\'s stops are still there');
  const tokens = back.seats.map((x) => x.tokens);
  await sendStops(b, m);
  const win = await until(() => logHas(a, new RegExp(`bob shows ${m.start} → `)), 'B\'s win in the log');
  assert.match(win, new RegExp(`wins the token \\(${tokens[1] + 1} now\\)`));
  await waitRacing(m.n + 1);
  const next = await waitState(a, (s) => s.mission === m.n + 1, `mission ${m.n + 1}`);
  assert.deepEqual(next.seats.map((x) => x.tokens), [tokens[0], tokens[1] + 1], 'B\'s token');
  assert.equal(await b.page.isVisible('#result'), false, 'no result while the game goes on');
});

/** The cell under the last point of the path drawn in `svg` (markup), or null without one. */
function pathEnd(svg, board) {
  const m = /<polyline\b[^>]*class="path"[^>]*points="([^"]+)"/.exec(svg) || /<polyline\b[^>]*points="([^"]+)"[^>]*class="path"/.exec(svg);
  if (!m) return null;
  const nums = m[1].trim().split(/[\s,]+/).map(Number);
  return board.cellAt(nums.at(-2), nums.at(-1));
}

test('secrets: no frame holds a way, the fewest moves or a path of this mission before it is shown', { timeout: 10_000 }, async () => {
  const shown = missions.filter((m) => m.sent);
  assert.ok(shown.length >= 3, 'three demonstrations');
  const board = missions[0].board;
  for (const user of Object.values(users)) {
    assert.ok(user.frames.length > 10, `${user.name}'s page received frames`);
    user.frames.forEach((f, i) => {
      const where = `${user.name}'s frame ${i} (${f.json?.type})`;
      for (const o of objectsIn(f.json)) {
        for (const key of ['solution', 'fewest', 'optimal', 'best', 'path', 'stops', 'hint']) {
          assert.ok(!Object.hasOwn(o, key), `${where} has a key "${key}": ${JSON.stringify(o).slice(0, 300)}`);
        }
      }
      assert.ok(!/fewest/i.test(f.text), `${where} speaks of the fewest moves: ${f.text.slice(0, 300)}`);
      const s = f.json?.type === 'state' ? f.json : null;
      // "the best is": only in a failure's line, after that demonstration was sent.
      for (const line of (s?.log || []).filter((l) => /\bbest\b/.test(l))) {
        assert.match(line, /^\s*\S+ fails \(/, `${where}: "best" outside a failure's line: ${line}`);
        const failed = missions.find((m) => m.sent && m.sent - 50 <= f.at && line.includes(`the best is ${m.stops.length}`));
        assert.ok(failed, `${where}: ${line} before a failed demonstration was sent`);
      }
      // A mission's way (start → … → target), not before it was sent (the earlier missions'
      // ways shown already taken out first: a later way may be a part of one).
      const way = (m) => [m.start, ...m.stops].join(' → ');
      for (const m of missions.filter((x) => x.stops)) {
        if (m.sent && f.at >= m.sent - 50) continue;
        const rest = missions.filter((x) => x.n < m.n && x.stops && x.sent && f.at >= x.sent - 50)
          .reduce((text, x) => text.split(way(x)).join('…'), f.text);
        assert.ok(!rest.includes(way(m)), `${where} holds mission ${m.n}'s way before it was shown`);
        if (m.stops.length > 1) assert.ok(!f.text.includes(m.stops.join(' ')), `${where} holds mission ${m.n}'s stops`);
      }
      // A path drawn before the mission's demonstration is the last mission's: it ends on the start.
      const mission = s && missions.find((m) => m.n === s.mission);
      if (mission && (s.phase === 'racing' || s.phase === 'showing') && !(mission.sent && f.at >= mission.sent - 50)) {
        const end = pathEnd(s.svg || '', board);
        if (end !== null) assert.equal(end, s.start, `${where}: the path drawn ends on the start (the last mission's)`);
      }
    });
    for (const m of shown) {
      assert.ok(user.frames.some((f) => f.at >= m.sent - 50 && (f.text.includes(' fails (') || f.text.includes([m.start, ...m.stops].join(' → ')))),
        `${user.name} receives mission ${m.n}'s demonstration once shown`);
    }
    assert.deepEqual(user.problems, [], `${user.name}'s page: console and page errors`);
  }
});

test('the protocol: hello and state carry the fields the brief gives', { timeout: 5_000 }, async () => {
  const stateKeys = ['seat', 'phase', 'seats', 'mission', 'oya', 'start', 'via', 'target', 'token', 'svg', 'timer',
    'passed', 'showing', 'reserve', 'log', 'result'];
  const phases = ['writing', 'racing', 'showing', 'over'];
  const wrong = [];
  for (const user of Object.values(users)) {
    for (const f of user.frames) {
      const s = f.json;
      if (s?.type === 'hello') {
        const room = s.room || {};
        if (room.game !== 'micro' || room.players !== 2 || room.board !== 'public-silver' || room.variant !== 'standard'
          || typeof room.hints !== 'boolean') wrong.push(`${user.name}: hello.room is ${JSON.stringify(room)}`);
        wrong.push(...tokenHelloWrong(user, s));
      }
      if (s?.type !== 'state') continue;
      wrong.push(...tokenStateWrong(user, s, { stateKeys, phases }));
      if (s.seat !== null && s.seat !== SEAT[user.name]) wrong.push(`${user.name}: state.seat ${JSON.stringify(s.seat)}`);
      if (s.phase === 'racing' && !(s.timer && s.timer.runs_out === RACE_SECONDS && typeof s.timer.now === 'number')) wrong.push(`${user.name}: timer ${JSON.stringify(s.timer)} while racing`);
      if (s.phase !== 'racing' && s.timer !== null) wrong.push(`${user.name}: timer ${JSON.stringify(s.timer)} in phase ${s.phase}`);
      if (s.phase !== 'writing') {
        if (!Array.isArray(s.passed) || s.passed.length !== 2) wrong.push(`${user.name}: passed ${JSON.stringify(s.passed)}`);
        if (!/^[BYGRPW][1-6]$/.test(s.start || '') || !/^[BYGRPW][1-6]$/.test(s.target || '')) wrong.push(`${user.name}: start ${s.start}, target ${s.target}`);
        if (s.via !== null || s.token !== true) wrong.push(`${user.name}: via ${s.via}, token ${s.token} (standard rules)`);
        if (!['1', '2'].includes(s.oya)) wrong.push(`${user.name}: oya ${JSON.stringify(s.oya)}`);
      }
    }
  }
  assert.deepEqual(byKind(wrong, tokenKind), [], 'hello and state as the protocol says');
});
