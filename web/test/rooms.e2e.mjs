// Rooms (docs/ROOMS.md) in a real browser, as two friends play one: Debian's Chromium driven
// by playwright-core against a server started here on a fresh database in a temporary folder.
// A and B sign up in two browser contexts (their own cookies); A creates a duel room (one
// robot a side, the fastest pace) on /rooms, B opens its link; both sit and write programs
// (A's first with an error: the diagnostics compared with `robots check --format json`), say
// ready, and A starts. The host pauses, so the match will start paused; each player places
// their robot by clicking a free start point, then a facing. B sets a signal, clears it, sets
// another; A's page is closed and opened again (the state comes back); the host resumes at one
// turn a second and pauses the moment A's page shows B's signal waiting; the server is
// restarted on the same database and port (both pages reconnect by themselves); the match
// runs to its result, every program is revealed, and the match file downloads and plays
// again with `robots run` to the same result and log.
// Every WebSocket frame each page receives is kept: no frame reaching B holds A's program
// before the game is over (and the other way round), and no frame reaching A holds the step
// of B's signal, armed or pending. Then hello and state are checked against the protocol, and
// the socket's handshake (no session, another site's Origin, no such room).
// Run: scripts/e2e-rooms, or node --test web/test/rooms.e2e.mjs. The binary is $ROBOTS_BIN,
// else $CARGO_TARGET_DIR/release/robots, else target/release/robots (nothing is built here).
// Screenshots, the frames each page received and the server's log go to <target>/rooms-e2e/;
// UPDATE_SCREENSHOT=1 also writes docs/rooms/{writing,placing,playing,over}.png (1100x800).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { bin, root } from './server.mjs';
import {
  assertOnPage, byKind, checkDiagnostics, helloYouWrong, newRoomPage, objectsIn, openSharedLink, pageDiagnostics,
  readyAndStart, restartServer, roomsTest, runRobots, seatSel, setField, signedUpUsers, sortDiagnostics,
  submitNewRoom, takeSeats, until, waitPhase,
} from './support.mjs';

const ROUNDS = 60;
const SEAT = { alice: 'green', bob: 'violet' };

// The programs: each with a comment marker found nowhere else.
const stamp = `${process.pid}-${Date.now().toString(36)}`;
const MARKER_A = `secret-marker-a-${stamp}`;
const MARKER_B = `secret-marker-b-${stamp}`;
const hunter = fs.readFileSync(path.join(root, 'programs', 'hunter.robot'), 'utf8');
const turret = fs.readFileSync(path.join(root, 'programs', 'turret.robot'), 'utf8');
const GOOD_A = `# ${MARKER_A}\n${hunter}`;
const BAD_A = GOOD_A.replace('\n2: GO 11 ', '\n2: GO 99 ');
const GOOD_B = `# ${MARKER_B}\n${turret}`;
// A's text in other words than its marker: lines of hunter.robot (turret.robot has neither).
const SECRETS_A = [MARKER_A, 'fires from point-blank range', 'behind-left within 6'];
const SECRETS_B = [MARKER_B, 'patrols east and west'];
// B's signal: to its robot, this step (turret's step 7: R-1).
const SIGNAL_ROBOT = 'violet.1';
const SIGNAL_STEP = 7;

// The server, the browser, the room's code (`env.code`), its users.
const env = roomsTest('battle', chromium);
const { users, out, screenshot } = env;
const seen = { rejoined: false, pendingSeenByA: false, placed: null, paceMax: null, restart: [] };

const robots = (args) => runRobots(bin, env.dir, args);

const cliDiagnostics = (source) => checkDiagnostics(bin, env.dir, source);

/** Users of the room, signed up: each a browser context of its own (downloads accepted), a
 *  page, and every WebSocket frame received. */
const newUsers = (names) => signedUpUsers(env.browser, env.base, users, names, { context: { acceptDownloads: true } });

/** Opens the room on the user's page and waits for its first state drawn. */
async function openRoom(user) {
  const response = await user.page.goto(`${env.base}/rooms/${env.code}`);
  assert.equal(response.status(), 200, `GET /rooms/${env.code} as ${user.name}`);
  await user.page.waitForSelector('#room[data-ready="true"]');
  const data = await user.page.$eval('#room', (m) => ({ code: m.dataset.code, you: m.dataset.you }));
  assert.deepEqual(data, { code: env.code, you: user.name }, '#room data-code and data-you');
}

const phase = (user) => user.page.getAttribute('#room', 'data-phase');

/** The robots #board shows, by name. */
const boardRobots = (page) => page.$$eval('#board [data-robot]', (gs) => Object.fromEntries(gs.map((g) => [
  g.dataset.robot,
  { col: +g.dataset.col, row: +g.dataset.row, facing: +g.dataset.facing, alive: g.dataset.alive === 'true', signal: g.dataset.signal === 'true' },
])));

test('A and B sign up; A creates a duel room on /rooms', { timeout: 20_000 }, async () => {
  const [a] = await newUsers(['alice', 'bob']);
  const { page } = a;
  const r = await page.goto(`${env.base}/rooms`);
  assert.equal(r.status(), 200, 'GET /rooms');
  assert.equal(await page.locator('form#new-room').count(), 1, 'form#new-room');
  const form = 'form#new-room';
  await setField(page, form, 'board', 'duel');
  if (await page.locator(`${form} [name="players"]`).count()) await setField(page, form, 'players', 2);
  await setField(page, form, 'scenario', 1);
  await setField(page, form, 'robots', 1);
  await setField(page, form, 'rounds', ROUNDS);
  const paceMax = await page.getAttribute(`${form} [name="pace"]`, 'max');
  assert.ok(paceMax && Number(paceMax) > 0, `the pace field says its max (${paceMax})`);
  await setField(page, form, 'pace', paceMax);
  seen.paceMax = Number(paceMax);
  env.code = await submitNewRoom(page);
  assert.match(env.code, /^[0-9a-f]{32}$/, 'the code: 32 hex digits (0002_rooms.sql)');
  assert.equal(await page.getAttribute('#room', 'data-you'), 'alice');
  assert.equal(await phase(a), 'writing');
  // The room is listed on A's /rooms.
  const list = await a.context.request.get(`${env.base}/rooms`);
  assert.ok((await list.text()).includes(`/rooms/${env.code}`), 'A\'s /rooms lists the room');
  await page.goto(`${env.base}/rooms/${env.code}`);
  await page.waitForSelector('#room[data-ready="true"]');
});

test('B opens the link; both sit, write (A\'s first try has an error), say ready; A starts', { timeout: 25_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  await openSharedLink(a, b, env.base, env.code);
  assert.equal(await b.page.getAttribute('#room', 'data-you'), 'bob');
  // Every id docs/ROOMS.md names is on the page.
  await assertOnPage(b.page, [
    '#seats', '#phase', 'textarea#source', 'button#send-program', 'ul#diagnostics', 'button#ready', 'button#start',
    'svg#board', '#facings', '#signal', 'select#signal-robot', 'input#signal-step', 'button#send-signal',
    'button#skip-signal', '#my-signals', '#log', '#result', 'a#download-match',
  ]);
  assert.equal(await b.page.locator('#facings button[data-facing]').count(), 6, 'six facings');
  assert.equal(await b.page.locator('#board [data-at]').count(), 64, 'the duel board: 8 x 8 cells');
  assert.ok(await b.page.locator('#board polygon.cell.start').count() >= 4, 'start points marked');
  await takeSeats(a, b, SEAT);

  // A's program with an error: the diagnostics at its line and column, as `robots check` says.
  const badLine = BAD_A.split('\n').findIndex((l) => l.startsWith('2: GO 99')) + 1;
  const expected = cliDiagnostics(BAD_A);
  assert.deepEqual(expected.map((d) => [d.severity, d.line]), [['error', badLine]]);
  await a.page.fill('textarea#source', BAD_A);
  await a.page.click('button#send-program');
  await a.page.waitForSelector('ul#diagnostics li.diagnostic.error');
  assert.deepEqual(sortDiagnostics(await pageDiagnostics(a.page)), sortDiagnostics(expected));
  assert.equal(await a.page.locator(`ul#diagnostics li.diagnostic[data-line="${badLine}"]`).count(), 1);
  assert.equal(await a.page.isDisabled('button#ready'), true, 'no ready without an accepted program');
  await screenshot(a.page, 'writing.png');

  await a.page.fill('textarea#source', GOOD_A);
  await a.page.click('button#send-program');
  await a.page.waitForSelector('ul#diagnostics li.ok');
  assert.equal(await a.page.locator('ul#diagnostics li.diagnostic').count(), 0);
  await b.page.fill('textarea#source', GOOD_B);
  await b.page.click('button#send-program');
  await b.page.waitForSelector('ul#diagnostics li.ok');

  await readyAndStart(a, b, SEAT);
  await Promise.all([waitPhase(a, 'placing'), waitPhase(b, 'placing')]);
});

test('placement: the host pauses; each player clicks a free start point, then a facing', { timeout: 20_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  // The room's pace is the fastest: the host pauses first, so the match starts paused and
  // the players have time to set a signal (docs/ROOMS.md: paused and resumed by the host).
  await a.page.waitForSelector('#host-controls button#pause:not([disabled])');
  assert.equal(await b.page.isVisible('#host-controls'), false, 'B, not the host, has no host controls');
  await a.page.click('button#pause');
  await until(() => (b.rec.states.at(-1)?.paused === true ? true : undefined), 'B\'s state says paused');
  await a.page.waitForSelector('button#resume:not([hidden])');

  const facing = { green: 6, violet: 3 };
  const placed = {};
  let shot = false;
  for (let k = 0; k < 4; k += 1) {
    const turn = await until(() => {
      const s = a.rec.states.at(-1);
      return s && (s.phase !== 'placing' || s.waiting_for) ? s : undefined;
    }, 'the colour whose placement the game waits for');
    if (turn.phase !== 'placing') break;
    assert.ok(turn.place && Array.isArray(turn.place.free), `state.place while placing: ${JSON.stringify(turn.place)}`);
    const player = turn.waiting_for === 'green' ? a : b;
    const other = player === a ? b : a;
    const { page } = player;
    await page.waitForSelector('#room[data-turn="you"] #board.my-placing polygon.cell.free');
    assert.equal(await other.page.locator('#board.my-placing').count(), 0, `${other.name} may not place now`);
    const robot = turn.place.robot;
    assert.ok(robot.startsWith(`${turn.waiting_for}.`), `the robot to place (${robot}) is ${turn.waiting_for}'s`);
    const free = await page.$$eval('#board polygon.cell.free', (ps) => ps.map((p) => ({ at: p.dataset.at, camp: p.dataset.camp || '' })));
    const expectedFree = turn.place.free.map((x) => x.join(',')).sort();
    assert.deepEqual(free.map((f) => f.at).sort(), expectedFree, 'the free cells are state.place.free');
    const pick = free.find((f) => f.camp === turn.waiting_for) || free[0];
    assert.equal(await page.isVisible('#facings'), false, 'no facings before a point is clicked');
    await page.click(`#board polygon.cell.free[data-at="${pick.at}"]`);
    await page.waitForSelector('#facings button[data-facing="1"]:not([disabled])');
    if (!shot) {
      await page.hover(`#facings button[data-facing="${facing[turn.waiting_for]}"]`);
      await screenshot(page, 'placing.png');
      shot = true;
    }
    await page.click(`#facings button[data-facing="${facing[turn.waiting_for]}"]`);
    const [col, row] = pick.at.split(',').map(Number);
    placed[robot] = { col, row, facing: facing[turn.waiting_for] };
    // Everyone sees the robot appear (the match is paused: it stays there).
    for (const user of [a, b]) {
      await user.page.waitForSelector(`#board [data-robot="${robot}"][data-col="${col}"][data-row="${row}"][data-facing="${placed[robot].facing}"]`);
    }
  }
  assert.deepEqual(Object.keys(placed).sort(), ['green.1', 'violet.1'], 'each player placed one robot');
  seen.placed = placed;
  await Promise.all([waitPhase(a, 'playing'), waitPhase(b, 'playing')]);
  const now = a.rec.states.at(-1);
  assert.equal(now.paused, true, 'the match starts paused');
  assert.equal(now.turn, 0, 'no robot turn played while paused');
});

test('the match: B sets a secret signal, A leaves and comes back, the host resumes; to the end', { timeout: 50_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  // B sets a signal, clears it, sets another (the one kept).
  const { page } = b;
  await page.waitForSelector('form#signal:not([hidden]) button#send-signal:not([disabled])');
  assert.deepEqual(await page.$$eval('select#signal-robot option', (os) => os.map((o) => o.value)), [SIGNAL_ROBOT]);
  await page.selectOption('select#signal-robot', SIGNAL_ROBOT);
  await page.fill('input#signal-step', '13');
  await page.click('button#send-signal');
  await page.waitForSelector(`#signal-armed[data-robot="${SIGNAL_ROBOT}"][data-step="13"]`);
  await page.click('button#skip-signal');
  await page.waitForSelector('#signal-armed', { state: 'hidden' });
  await page.fill('input#signal-step', String(SIGNAL_STEP));
  await page.click('button#send-signal');
  await page.waitForSelector(`#signal-armed[data-robot="${SIGNAL_ROBOT}"][data-step="${SIGNAL_STEP}"]`);
  // A is offered its own robots only, and sees nothing of B's.
  await a.page.waitForSelector('form#signal:not([hidden])');
  assert.deepEqual(await a.page.$$eval('select#signal-robot option', (os) => os.map((o) => o.value)), ['green.1']);
  assert.equal(await a.page.isVisible('#signal-armed'), false, 'A has set no signal');

  // A spectator comes in (the room takes them): no seat, no editor, no signal form.
  const [c] = await newUsers(['carol']);
  await openRoom(c);
  assert.equal(await phase(c), 'playing');
  assert.equal(await c.page.getAttribute('#room', 'data-seat'), '', 'the spectator has no seat');
  assert.equal(await c.page.isVisible('form#signal'), false, 'no signal form for a spectator');
  assert.equal(await c.page.isVisible('#editor'), false, 'no editor for a spectator');
  assert.equal(await c.page.locator('#seats button.sit:visible').count(), 0, 'no seat to take once the game is under way');

  // A leaves while the match is paused; B sees A away; A comes back to the same game.
  const before = await boardRobots(a.page);
  assert.equal(await a.page.inputValue('textarea#source'), GOOD_A, 'A\'s page shows A\'s program');
  await a.page.close();
  await b.page.waitForSelector(`${seatSel('green')}[data-online="false"]`);
  await newRoomPage(a);
  await openRoom(a);
  assert.equal(await phase(a), 'playing', 'the game is still playing');
  assert.equal(await a.page.inputValue('textarea#source'), GOOD_A, 'A\'s program comes back');
  assert.deepEqual(await boardRobots(a.page), before, 'the robots stand where they stood');
  assert.equal(await a.page.getAttribute('#room', 'data-seat'), 'green');
  assert.equal(a.rec.states.at(-1).paused, true, 'still paused');
  await a.page.waitForSelector('button#resume:not([hidden]):not([disabled])');
  await b.page.waitForSelector(`${seatSel('green')}[data-online="true"]`);
  seen.rejoined = true;

  // The host resumes at one robot turn a second: B's signal is sent at the end of violet's
  // next turn and waits until violet.1's turn comes, a turn later. The moment A's page shows
  // it waiting, the host pauses (to look at it); then A's page says a signal waits, never
  // its step, and B's says which.
  await a.page.fill('input#pace', '1');
  await a.page.click('button#set-pace');
  await until(() => (a.rec.states.at(-1)?.pace === 1 ? true : undefined), 'the pace set to 1');
  await a.page.click('button#resume');
  const pendingSel = `#board [data-robot="${SIGNAL_ROBOT}"][data-signal="true"]`;
  await a.page.waitForFunction((sel) => document.querySelector(sel) !== null, pendingSel, { timeout: 15_000, polling: 'raf' });
  await a.page.click('button#pause');
  const paused = await until(() => {
    const s = a.rec.states.at(-1);
    return s?.paused ? s : undefined;
  }, 'the match paused');
  assert.equal(paused.robots.find((r) => r.name === SIGNAL_ROBOT)?.signal, true,
    `${SIGNAL_ROBOT}'s signal still waits once paused (the pause came a turn late at 1 turn a second)`);
  seen.pendingSeenByA = true;
  await a.page.waitForSelector(pendingSel);
  await b.page.waitForSelector(`#my-signals li[data-robot="${SIGNAL_ROBOT}"][data-step="${SIGNAL_STEP}"]`);
  await b.page.waitForSelector(`#board [data-robot="${SIGNAL_ROBOT}"][data-signal="true"]`);
  assert.equal(await a.page.locator('#my-signals li').count(), 0, 'A has no signal of its own waiting');
  assert.match(await a.page.textContent(`#robot-list li[data-robot="${SIGNAL_ROBOT}"]`), /a signal waits/);
  assert.ok(!(await a.page.textContent('#room')).includes(`${SIGNAL_ROBOT}, step ${SIGNAL_STEP}`), 'A\'s page does not name the step');
  await screenshot(a.page, 'playing.png');

  // The server restarts (SIGTERM, then the same database on the same port): both pages say
  // "reconnecting…", come back by themselves, and the game stands where it stood (docs/ROOMS.md:
  // the room is in the database; a server restart resumes it). What differs is kept and
  // reported at the end of this test, so that the game is still played to its end.
  const standing = a.rec.states.at(-1);
  const before2 = { aStates: a.rec.states.length, bStates: b.rec.states.length };
  await restartServer(env.server, env.base, [a, b], Object.values(users));
  const back = await until(() => (a.rec.states.length > before2.aStates ? a.rec.states.at(-1) : undefined), 'a state after the restart');
  const pick = (s) => ({
    phase: s.phase, turn: s.turn, round: s.round, paused: s.paused, pace: s.pace, program: s.program === GOOD_A ? 'A\'s' : s.program,
    robots: (s.robots || []).map((r) => `${r.name} at [${r.at}] facing ${r.facing}${r.alive ? '' : ' destroyed'}${r.signal ? ', a signal waits' : ''}`).join('; '),
  });
  const was = pick(standing);
  const is = pick(back);
  for (const key of Object.keys(was)) {
    if (JSON.stringify(was[key]) !== JSON.stringify(is[key])) {
      seen.restart.push(`after a restart A's state.${key} is ${JSON.stringify(is[key])}, where it was ${JSON.stringify(was[key])}`);
    }
  }
  const bBack = await until(() => (b.rec.states.length > before2.bStates ? b.rec.states.at(-1) : undefined), 'B\'s state after the restart');
  if (!(bBack.my_signals || []).some((x) => x.robot === SIGNAL_ROBOT && x.step === SIGNAL_STEP) && bBack.phase === 'playing') {
    seen.restart.push(`after a restart B's my_signals is ${JSON.stringify(bBack.my_signals)}`);
  }
  // Then at the fastest pace to the end (unless the restart has played it already).
  if (a.rec.states.at(-1).phase !== 'over') {
    await a.page.fill('input#pace', String(seen.paceMax));
    await a.page.click('button#set-pace');
    await until(() => (a.rec.states.at(-1)?.pace === seen.paceMax ? true : undefined), `the pace set to ${seen.paceMax}`);
    if (a.rec.states.at(-1).paused) await a.page.click('button#resume');
  }
  await Promise.all([waitPhase(a, 'over', 30_000), waitPhase(b, 'over', 30_000)]);
  assert.deepEqual(seen.restart, [], 'the game stands where it stood after a server restart');
});

test('the end: the result for both, every program revealed, the match file plays again', { timeout: 20_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  const last = a.rec.states.at(-1);
  assert.equal(last.phase, 'over');
  const { result } = last;
  assert.ok(result && typeof result.verdict === 'string' && result.rounds >= 1, `state.result: ${JSON.stringify(result)}`);
  for (const user of [a, b]) {
    await user.page.waitForSelector('#result:not([hidden])');
    const shown = (await user.page.textContent('#result')).trim();
    assert.ok(shown.includes(result.verdict), `${user.name}'s #result ${JSON.stringify(shown)} gives the verdict ${JSON.stringify(result.verdict)}`);
    const revealed = await user.page.textContent('#revealed');
    assert.ok(revealed.includes(MARKER_A) && revealed.includes(MARKER_B), `${user.name} sees every program at the end`);
    assert.equal(await user.page.getAttribute('a#download-match', 'href'), `/rooms/${env.code}/match.yaml`);
  }
  assert.deepEqual(b.rec.states.at(-1).result, result, 'both have the same result');
  await screenshot(b.page, 'over.png');

  const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.click('a#download-match')]);
  const file = path.join(out, 'room.yaml');
  await download.saveAs(file);
  const yaml = fs.readFileSync(file, 'utf8');
  assert.ok(yaml.includes(MARKER_A) && yaml.includes(MARKER_B), 'the match file holds both programs');
  // Its placements are the players' (one robot a side: the first `at` of each team).
  const inFile = {};
  for (const part of yaml.split(/^\s*- colour: /m).slice(1)) {
    const colour = /^(\w+)/.exec(part)[1];
    const m = /at: \[(\d+), (\d+)\], facing: (\d)/.exec(part);
    if (m) inFile[`${colour}.1`] = { col: +m[1], row: +m[2], facing: +m[3] };
  }
  assert.deepEqual(inFile, seen.placed, 'the match file\'s placements are those clicked');
  const fromB = await b.context.request.get(`${env.base}/rooms/${env.code}/match.yaml`);
  assert.equal(fromB.status(), 200, 'B downloads the match file too');
  assert.equal(await fromB.text(), yaml, 'the same file for both');
  // Played again by the CLI, the match file ends as the room's game did.
  fs.copyFileSync(file, path.join(env.dir, 'room.yaml'));
  const run = JSON.parse(robots(['run', 'room.yaml', '--json']));
  assert.deepEqual(
    { winner: run.winner ?? null, verdict: run.verdict, rounds: run.rounds },
    { winner: result.winner ?? null, verdict: result.verdict, rounds: result.rounds },
    '`robots run --json` of the match file against the room\'s result',
  );
  // And its log, the room's log: every line the room showed last is the CLI's too, the
  // signal's included (the match file keeps the players' signals).
  const cliLog = new Set(robots(['run', 'room.yaml', '--log']).split('\n').map((l) => l.trim()));
  const roomLog = last.log.map((l) => l.trim()).filter((l) => l !== '');
  assert.ok(roomLog.length > 0, 'the room has a log');
  assert.deepEqual(roomLog.filter((l) => !cliLog.has(l)), [], 'room log lines `robots run --log` of the match file does not print');
  const signalLines = (lines) => lines.filter((l) => l.includes(SIGNAL_ROBOT) && /signal/.test(l));
  const heard = signalLines(a.frames.flatMap((f) => f.json?.log || []).map((l) => l.trim()));
  assert.ok(heard.length > 0, `the room's log spoke of ${SIGNAL_ROBOT}'s signal`);
  for (const line of new Set(heard)) assert.ok(cliLog.has(line), `the match file plays the signal again: ${JSON.stringify(line)}`);
});

test('the protocol: hello and state carry the fields docs/ROOMS.md gives', { timeout: 5_000 }, async () => {
  const roomKeys = ['code', 'game', 'board', 'scenario', 'robots', 'rounds', 'pace', 'timeout', 'spectators'];
  const stateKeys = ['phase', 'seats', 'program', 'revealed', 'waiting_for', 'place', 'robots', 'ask_signal',
    'my_signals', 'round', 'turn', 'paused', 'pace', 'log', 'result'];
  const wrong = [];
  for (const user of Object.values(users)) {
    const hellos = user.frames.filter((f) => f.json?.type === 'hello').map((f) => f.json);
    assert.ok(hellos.length > 0, `${user.name} received hello`);
    for (const hello of hellos) {
      const you = helloYouWrong(user, hello);
      if (you) wrong.push(you);
      const missing = roomKeys.filter((k) => !(k in (hello.room || {})));
      if (missing.length) wrong.push(`${user.name}: hello.room ${JSON.stringify(hello.room)} lacks ${missing.join(', ')}`);
      const board = hello.board || {};
      if (board.name !== 'duel' || board.w !== 8 || board.h !== 8 || board.cells?.length !== 64) {
        wrong.push(`${user.name}: hello.board is not the duel board (${board.name}, ${board.w} x ${board.h})`);
      }
    }
    // A hello after the user sat (the rejoin) names the seat.
    const seatOf = { alice: 'green', bob: 'violet' }[user.name];
    const sat = user.frames.findIndex((f) => f.json?.type === 'state'
      && (f.json.seats || []).some((x) => x.player === user.name));
    user.frames.forEach((f, i) => {
      if (sat >= 0 && i > sat && f.json?.type === 'hello' && f.json.you?.seat !== seatOf) {
        wrong.push(`${user.name}: hello.you.seat after sitting is ${JSON.stringify(f.json.you?.seat)}, not ${seatOf}`);
      }
    });
    for (const f of user.frames) {
      if (f.json?.type !== 'state') continue;
      const s = f.json;
      const missing = stateKeys.filter((k) => !(k in s));
      if (missing.length) wrong.push(`${user.name}: a state lacks ${missing.join(', ')}`);
      // Signals do not hold the match up: while it plays the game waits for nobody.
      if (s.phase === 'playing' && s.waiting_for !== null) {
        wrong.push(`${user.name}: waiting_for is ${JSON.stringify(s.waiting_for)} while the match plays (turn ${s.turn}, paused ${s.paused})`);
      }
      if (s.ask_signal) {
        const keys = Object.keys(s.ask_signal).sort().join(',');
        if (keys !== 'armed,left,robots') wrong.push(`${user.name}: ask_signal has keys ${keys}`);
        if (s.phase !== 'playing') wrong.push(`${user.name}: ask_signal in phase ${s.phase}`);
      }
      if (s.phase !== 'placing' && s.place !== null) wrong.push(`${user.name}: place ${JSON.stringify(s.place)} in phase ${s.phase}`);
      if ((s.phase === 'over') !== (s.result !== null)) wrong.push(`${user.name}: result ${JSON.stringify(s.result)} in phase ${s.phase}`);
    }
  }
  // One line a kind of mismatch (with how often it came).
  const kindOf = (w) => w.replace(/\(turn \d+[^)]*\)/, '').replace(/"code":"[0-9a-f]+"/, '"code":…');
  assert.deepEqual(byKind(wrong, kindOf), [], 'hello and state as docs/ROOMS.md says');
});

test('secrets: B received no byte of A\'s program before the end; A never received the step of B\'s signal', { timeout: 10_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  for (const user of [a, b]) assert.ok(user.frames.length > 10, `${user.name}'s pages received frames`);
  // Programs: nothing of the other's text before the first `over` state, then all of it.
  for (const [user, secrets, own] of [[b, SECRETS_A, GOOD_B], [a, SECRETS_B, GOOD_A]]) {
    const end = user.frames.findIndex((f) => f.json?.type === 'state' && f.json.phase === 'over');
    assert.ok(end > 0, `${user.name} received the end`);
    user.frames.slice(0, end).forEach((f, i) => {
      for (const secret of secrets) {
        assert.ok(!f.text.includes(secret), `${user.name}'s frame ${i} holds ${JSON.stringify(secret)} before the end: ${f.text.slice(0, 300)}`);
      }
      if (f.json?.type === 'state') {
        assert.ok(f.json.program === null || f.json.program === own, `${user.name}'s frame ${i}: program is its own or null`);
        assert.ok(!f.json.revealed || f.json.revealed.length === 0, `${user.name}'s frame ${i}: revealed before the end`);
      }
    });
    assert.ok(user.frames.slice(end).some((f) => f.text.includes(secrets[0])), `${user.name} receives the other program at the end (the check above is not an empty one)`);
  }

  // The spectator: neither program before the end, no signal's step ever, nothing asked.
  const c = users.carol;
  const cEnd = c.frames.findIndex((f) => f.json?.type === 'state' && f.json.phase === 'over');
  assert.ok(cEnd > 0, 'the spectator received the end');
  c.frames.forEach((f, i) => {
    if (i < cEnd) {
      for (const secret of [...SECRETS_A, ...SECRETS_B]) assert.ok(!f.text.includes(secret), `the spectator's frame ${i} holds ${JSON.stringify(secret)}`);
    }
    for (const o of objectsIn(f.json)) assert.ok(!Object.hasOwn(o, 'step'), `the spectator's frame ${i} has a "step": ${JSON.stringify(o).slice(0, 200)}`);
    if (f.json?.type === 'state') {
      assert.equal(f.json.program, null, `the spectator's frame ${i}: program`);
      assert.equal(f.json.ask_signal, null, `the spectator's frame ${i}: ask_signal`);
      assert.deepEqual(f.json.my_signals, [], `the spectator's frame ${i}: my_signals`);
    }
  });
  assert.ok(c.frames.slice(cEnd).some((f) => f.text.includes(MARKER_A) && f.text.includes(MARKER_B)), 'the spectator sees every program at the end');

  // B's own frames hold its signal (the positive control)...
  const bHas = b.frames.some((f) => f.json?.type === 'state'
    && (f.json.my_signals || []).some((x) => x.robot === SIGNAL_ROBOT && x.step === SIGNAL_STEP));
  assert.ok(bHas, `B's my_signals held ${SIGNAL_ROBOT} step ${SIGNAL_STEP}`);
  const bArmed = b.frames.some((f) => f.json?.type === 'state'
    && f.json.ask_signal?.armed?.robot === SIGNAL_ROBOT && f.json.ask_signal.armed.step === SIGNAL_STEP);
  assert.ok(bArmed, `B's ask_signal.armed held ${SIGNAL_ROBOT} step ${SIGNAL_STEP}`);
  // ...A's say only that a signal waits.
  let pendingFrames = 0;
  const robotKeys = new Set(['name', 'team', 'at', 'facing', 'alive', 'shots', 'signal']);
  const told = new RegExp(`${SIGNAL_ROBOT.replace('.', '\\.')}[^\\n]*signal[^\\n]*\\bstep ${SIGNAL_STEP}\\b|signal[^\\n]*${SIGNAL_ROBOT.replace('.', '\\.')}[^\\n]*\\bstep ${SIGNAL_STEP}\\b`);
  let obeyedAt = -1;
  a.frames.forEach((f, i) => {
    const where = `A's frame ${i} (${f.json?.type})`;
    if (!f.json || f.json.type === 'diagnostics') return;
    for (const o of objectsIn(f.json)) {
      // A sent no signal: no field named `step` may reach A, wherever it is.
      assert.ok(!Object.hasOwn(o, 'step'), `${where} has a "step": ${JSON.stringify(o).slice(0, 300)}`);
      for (const x of o.my_signals || []) assert.ok(String(x.robot).startsWith('green.'), `${where}: my_signals of another team: ${JSON.stringify(x)}`);
      if (o.ask_signal) {
        assert.ok(o.ask_signal.robots.every((r) => r.startsWith('green.')), `${where}: ask_signal for another team's robots`);
        assert.equal(o.ask_signal.armed ?? null, null, `${where}: A set no signal, yet ask_signal.armed is ${JSON.stringify(o.ask_signal.armed)}`);
      }
    }
    if (f.json.type !== 'state') return;
    for (const r of f.json.robots || []) {
      if (r.team === 'green') continue;
      for (const key of Object.keys(r)) assert.ok(robotKeys.has(key), `${where}: ${r.name} has "${key}" (docs/ROOMS.md lists ${[...robotKeys]})`);
      assert.equal(typeof r.signal, 'boolean', `${where}: ${r.name}'s signal is a yes or no`);
    }
    const target = (f.json.robots || []).find((r) => r.name === SIGNAL_ROBOT);
    const log = (f.json.log || []).join('\n');
    if (target?.signal) {
      pendingFrames += 1;
      assert.ok(!told.test(log), `${where}: the log tells the step of the pending signal:\n${log.split('\n').filter((l) => l.includes('signal')).join('\n')}`);
    } else if (obeyedAt < 0 && told.test(log)) {
      obeyedAt = i;
    }
  });
  assert.ok(pendingFrames > 0, `A received states while ${SIGNAL_ROBOT}'s signal waited`);
  // Once the robot acts, the step is public (R-A14): the check above is not an empty one
  // (unless the robot was destroyed first and the signal lost).
  const lost = a.frames.some((f) => (f.json?.log || []).some((l) => l.includes(`the signal to ${SIGNAL_ROBOT} is lost`)));
  assert.ok(obeyedAt >= 0 || lost, `A's log tells, once ${SIGNAL_ROBOT} acts, the step of its signal (or that it was lost)`);
  for (const user of Object.values(users)) assert.deepEqual(user.problems, [], `${user.name}'s pages: console and page errors`);
});

/** The status a WebSocket handshake to `url` (a path) gets with these headers. */
function handshake(url, headers) {
  return new Promise((resolve, reject) => {
    const u = new URL(env.base);
    const req = http.request({
      host: u.hostname, port: u.port, path: url,
      headers: {
        Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'), ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

test('the socket: the session cookie says who, another site\'s Origin is refused', { timeout: 10_000 }, async () => {
  const cookie = (await users.alice.context.cookies(env.base)).map((c) => `${c.name}=${c.value}`).join('; ');
  assert.ok(cookie.length > 0, 'A has a session cookie');
  const ws = `/rooms/${env.code}/ws`;
  assert.equal(await handshake(ws, { Cookie: cookie, Origin: env.base }), 101, 'A, from the room\'s own site');
  assert.notEqual(await handshake(ws, { Cookie: cookie, Origin: 'http://evil.example' }), 101, 'A\'s cookie sent from another site');
  assert.notEqual(await handshake(ws, { Origin: env.base }), 101, 'no session');
  assert.notEqual(await handshake(`/rooms/${'0'.repeat(32)}/ws`, { Cookie: cookie, Origin: env.base }), 101, 'no such room');
});
