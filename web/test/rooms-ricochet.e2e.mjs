// A Ricochet Robots room (docs/ROOMS.md, "Ricochet Robots in a room") in a real browser, as
// two friends play one: Debian's Chromium driven by playwright-core against a server started
// here on a fresh database in a temporary folder (as web/test/rooms.e2e.mjs does).
// A and B sign up in two browser contexts; A creates a room (game ricochet, 2 players, the
// original board) on /rooms, B opens its link; both sit and say ready; A starts. Two rounds
// are played. In each, the test reads the position back from the picture on the page (the
// server's SVG: walls, centre, robots, the goal's ring), writes it as a custom board and a
// position file, and has `robots ricochet solve` find a shortest solution, so the players
// know one without the server telling anything. A bids more than the fewest moves, B the
// fewest; both pass, which ends the sand timer at once; B, the lower bid, shows first.
// Round 1: B first sends words that are no moves (p#error says why, B still shows), then a
// line one move short (the server checks it and refuses it: the log says so, the robots go
// back); A, the next bidder, shows the solution and wins the token. Round 2 (the robots
// where A left them): B shows a solution and wins a token; round 3 begins.
// The room gives hints: in round 1, A clicks button#hint three times and reads levels 1 to 3
// in #hint-text (level 1, "fewest moves: N", the solver's N); B's log says A asked, B's page
// shows no hint and receives no hint frame.
// Every WebSocket frame each page receives is kept: none holds a key `solution` or `fewest`,
// a list of moves, or the text of a solution before it is shown (but A's own hints); then
// hello and state are checked against the protocol (what differs is listed in one assertion
// at the end).
// Run: scripts/e2e-rooms, or node --test web/test/rooms-ricochet.e2e.mjs. The binary is
// $ROBOTS_BIN, else $CARGO_TARGET_DIR/release/robots, else target/release/robots (nothing is
// built here). Screenshots, the frames each page received and the server's log go to
// <target>/rooms-e2e/ricochet/; UPDATE_SCREENSHOT=1 also writes docs/rooms/ricochet.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { bin } from './server.mjs';
import {
  assertCountsDown, byKind, createTokenRoom, joinAndStart, lastState as last, objectsIn, reopen,
  ricochetPositionFromPicture, roomsTest, runRobots, seatSel, signedUpUsers, sleep, tokenHelloWrong, tokenKind,
  tokenStateWrong, until, waitPhase, waitState,
} from './support.mjs';

const SEAT = { alice: '1', bob: '2' };

// The server, the browser, the room's code (`env.code`), its users.
const env = roomsTest('ricochet', chromium);
const { users, out, screenshot } = env;
// What the rounds found: per round, the solution and when each line was sent.
const rounds = [];
// The hints A asked: `{level, text, at}` (when A clicked).
const hints = [];
// Where the server differs from docs/ROOMS.md (kept, reported by the last test).
const mismatches = [];

const robots = (args) => runRobots(bin, env.dir, args);

/** The picture on the user's page, as ricochetPositionFromPicture reads it. */
const pagePicture = (page) => page.$eval('#svg > svg', (svg) => ({
  width: svg.getAttribute('width'),
  paths: [...svg.querySelectorAll('path')].map((p) => ({
    d: p.getAttribute('d') || '', fill: p.getAttribute('fill'), linecap: p.getAttribute('stroke-linecap'),
  })),
  circles: [...svg.querySelectorAll('circle')].map((k) => ({
    cx: k.getAttribute('cx'), cy: k.getAttribute('cy'), r: k.getAttribute('r'),
    fill: k.getAttribute('fill'), stroke: k.getAttribute('stroke'),
  })),
}));

/** A shortest solution of the position on the page: `{moves, line}` in the checker's words. */
function solvePicture(picture, round) {
  const position = ricochetPositionFromPicture(picture);
  const boardFile = `board-${round}.yaml`;
  const positionFile = `position-${round}.yaml`;
  fs.writeFileSync(path.join(env.dir, boardFile), position.board);
  fs.writeFileSync(path.join(env.dir, positionFile), position.position(boardFile));
  fs.copyFileSync(path.join(env.dir, boardFile), path.join(out, boardFile));
  fs.copyFileSync(path.join(env.dir, positionFile), path.join(out, positionFile));
  const found = JSON.parse(robots(['ricochet', 'solve', positionFile, '--json']));
  assert.ok(found.moves >= 1 && found.solution.length === found.moves, `a solution: ${JSON.stringify(found)}`);
  const line = found.solution.map((m) => `${m.robot} ${m.dir}`).join(', ');
  // The checker agrees (the independent check of what B and A will show).
  const checked = JSON.parse(robots(['ricochet', 'check', positionFile, line, '--json']));
  assert.deepEqual(checked, { valid: true, moves: found.moves }, `robots ricochet check of ${line}`);
  return { moves: found.moves, line, solution: found.solution, goal: position.goal, robots: position.robots };
}

test('A and B sign up; A creates a Ricochet room (2 players, the original board, hints) on /rooms', { timeout: 20_000 }, async () => {
  const [a] = await signedUpUsers(env.browser, env.base, users, ['alice', 'bob']);
  const room = await createTokenRoom(a, env.base, { game: 'ricochet', rico_board: 'original', players: 2, hints: true });
  env.code = room.code;
  assert.equal(room.hello?.room?.hints, true, 'hello.room.hints');
});

test('B opens the link; both sit and say ready; A starts: a target on both pages', { timeout: 20_000 }, async () => {
  const a = users.alice;
  const b = users.bob;
  await joinAndStart(env, a, b, SEAT, [
    '#seats', 'button#ready', 'button#start', '#svg', '#timer', '#bids', 'input#bid', 'button#send-bid',
    'button#pass', '#show', 'input#moves', 'button#send-moves', '#tokens', '#log', '#result', 'p#error', 'button#hint',
    '#hint-text',
  ]);
  await Promise.all([waitPhase(a, 'bidding'), waitPhase(b, 'bidding')]);
  for (const user of [a, b]) {
    await user.page.waitForSelector('#svg > svg circle');
    assert.equal(await user.page.isVisible('#show'), false, `${user.name}: no #show while bidding`);
    assert.match(await user.page.textContent('#timer'), /first bid/, `${user.name}: the timer waits for the first bid`);
  }
});

/**
 * A asks the three hints of the round (button#hint): each answer in A's #hint-text, level 1
 * the fewest moves the solver found; B's log says A asked; B's page shows none.
 */
async function askHints(found) {
  const a = users.alice;
  const b = users.bob;
  await a.page.waitForSelector('button#hint:not([disabled])');
  assert.equal(await b.page.isVisible('button#hint'), true, 'B, seated, may ask too');
  const expect = [
    new RegExp(`^fewest moves: ${found.moves}$`),
    /^an optimal solution moves (red|green|blue|yellow|silver)((, | and )(red|green|blue|yellow|silver))*$/,
    /^first move of an optimal solution: (red|green|blue|yellow|silver) [NESW]$/,
  ];
  for (const level of [1, 2, 3]) {
    assert.match(await a.page.textContent('button#hint'), new RegExp(`Hint ${level} of 3`));
    const at = Date.now();
    await a.page.click('button#hint');
    const item = `#hint-text li[data-level="${level}"]`;
    await a.page.waitForSelector(item);
    const text = (await a.page.textContent(item)).trim();
    assert.match(text, expect[level - 1], `hint ${level}: ${text}`);
    const frame = a.frames.find((f) => f.json?.type === 'hint' && f.json.level === level);
    assert.deepEqual(frame?.json, { type: 'hint', level, text }, `A's hint frame ${level}`);
    hints.push({ level, text, at });
    await until(() => (last(b).log || []).find((l) => l === `player ${SEAT.alice} asks for a hint (level ${level})`), `B's log: A asked hint ${level}`);
  }
  assert.equal(await a.page.isDisabled('button#hint'), true, 'three hints a round, no more');
  await a.page.screenshot({ path: path.join(out, 'hints.png') });
  assert.equal(await b.page.locator('#hint-text li').count(), 0, 'B\'s page shows no hint');
}

/**
 * One round: the position read from A's page and solved; A bids `fewest + 1`, B `fewest`;
 * both pass. Then B shows: in round 1 a line one move short first (refused), and A shows the
 * solution; in round 2 B shows it. `number` is the round.
 */
async function playRound(number) {
  const a = users.alice;
  const b = users.bob;
  for (const user of [a, b]) {
    await user.page.waitForSelector(`#room[data-phase="bidding"][data-round="${number}"]`);
  }
  const start = await waitState(a, (s) => s.phase === 'bidding' && s.round === number, `round ${number} bidding`);
  // The page shows the state's picture: the same markup, imported as SVG.
  for (const user of [a, b]) {
    const svg = last(user).svg;
    assert.equal(typeof svg, 'string', 'state.svg');
    const circles = (svg.match(/<circle\b/g) || []).length;
    await user.page.waitForFunction((n) => document.querySelectorAll('#svg > svg circle').length === n, circles);
    const ns = await user.page.$eval('#svg > svg', (node) => node.namespaceURI);
    assert.equal(ns, 'http://www.w3.org/2000/svg', `${user.name}: #svg holds an SVG element`);
  }
  const picture = await pagePicture(a.page);
  const found = solvePicture(picture, number);
  const round = { number, ...found, sent: {} };
  rounds.push(round);
  // The target the state names is the ring's.
  const ring = found.goal.robot === 'any' ? null : found.goal.robot;
  if ((start.target?.colour ?? null) !== ring) mismatches.push(`round ${number}: state.target ${JSON.stringify(start.target)}, the ring on the picture is ${ring ?? 'the vortex\'s'}`);
  assert.match(await b.page.textContent('#target'), new RegExp(ring ? `\\b${ring}\\b` : 'any robot'), 'B\'s page names the target');

  if (number === 1) await askHints(found);
  const bidA = found.moves + 1;
  const bidB = found.moves;
  // A bids: the sand timer turns, on both pages.
  await a.page.fill('input#bid', String(bidA));
  await a.page.click('button#send-bid');
  for (const user of [a, b]) {
    await user.page.waitForSelector(`#bids li[data-colour="${SEAT.alice}"][data-bid="${bidA}"]`);
  }
  const turned = await waitState(b, (s) => s.timer?.runs_out != null, 'the sand timer turned');
  const left = turned.timer.runs_out - turned.timer.now;
  if (!(left > 55 && left <= 60)) mismatches.push(`round ${number}: after the first bid the timer says ${JSON.stringify(turned.timer)} (runs_out - now = ${left}, not about 60 s)`);
  await b.page.waitForSelector('#timer[data-left]:not([data-left=""])');
  const shown = Number(await b.page.getAttribute('#timer', 'data-left'));
  assert.ok(shown > 50 && shown <= 60, `B's #timer shows ${shown} s left`);
  assert.match(await b.page.textContent('#timer'), new RegExp(`^${shown} s left$`));
  // The page counts down by itself between states.
  if (number === 1) await assertCountsDown(b, shown);
  if (number === 2) {
    // B's page is opened again 2 s after the first bid: the timer comes back, counting from
    // now (timer.now: seconds since the target was shown, as the state is sent).
    const bidAt = Date.now();
    await sleep(2000);
    const again = await reopen(b, '#room[data-ready="true"][data-phase="bidding"]');
    const elapsed = (Date.now() - bidAt) / 1000;
    const claimed = again.timer.runs_out - again.timer.now;
    if (claimed > 60 - elapsed + 1) {
      mismatches.push(`round 2: a page opened ${elapsed.toFixed(1)} s after the first bid receives timer ${JSON.stringify(again.timer)}: runs_out - now = ${claimed.toFixed(1)} s left, where ${(60 - elapsed).toFixed(1)} s are (now is the time of the last bid, not the time the state is sent)`);
    }
    await b.page.waitForSelector(`#bids li[data-colour="${SEAT.alice}"][data-bid="${bidA}"]`);
  }
  // B bids lower; a raise by A is refused (p#error), A's bid stands.
  await b.page.fill('input#bid', String(bidB));
  await b.page.click('button#send-bid');
  for (const user of [a, b]) {
    await user.page.waitForSelector(`#bids li[data-colour="${SEAT.bob}"][data-bid="${bidB}"]`);
  }
  assert.deepEqual(last(a).bids, [bidA, bidB], 'state.bids by seat');
  if (number === 1) {
    await a.page.fill('input#bid', String(bidA + 3));
    await a.page.click('button#send-bid');
    // Refused: in the log (the game's words), or as an error.
    await a.page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /alice bids \d+: refused/.test(li.textContent))
      || !document.getElementById('error').hidden, null, { timeout: 5000 });
    assert.equal(await a.page.getAttribute(`#bids li[data-colour="${SEAT.alice}"]`, 'data-bid'), String(bidA), 'a raise is refused: A\'s bid stands');
  }
  // Both pass: the sand timer ends at once; B, the lower bid, shows.
  await a.page.click('button#pass');
  await b.page.waitForSelector(`#bids li[data-colour="${SEAT.alice}"][data-passed="true"]`);
  assert.match(await b.page.textContent(`#bids li[data-colour="${SEAT.alice}"]`), /passed/);
  await a.page.waitForSelector('button#send-bid[disabled]'); // A passed: no more bids
  const passedAt = Date.now();
  await b.page.click('button#pass');
  await Promise.all([waitPhase(a, 'showing'), waitPhase(b, 'showing')]);
  assert.ok(Date.now() - passedAt < 5000, 'every player passed: the bidding ends at once');
  const showingB = await waitState(b, (s) => s.phase === 'showing', 'showing');
  assert.deepEqual(showingB.showing, { colour: SEAT.bob, bid: bidB }, 'state.showing: B, the lower bid');
  await b.page.waitForSelector('form#show:not([hidden]) input#moves:not([disabled])');
  assert.equal(await a.page.isVisible('#show'), false, 'A does not show now');
  assert.equal(await a.page.getAttribute('#room', 'data-showing'), SEAT.bob);
  assert.equal(await b.page.getAttribute('#room', 'data-showing'), 'you');
  assert.match(await b.page.textContent('#show-prompt'), new RegExp(`${bidB} move`));

  if (number === 1) {
    // Words that are no moves: refused at once (p#error), B still shows.
    await b.page.fill('input#moves', 'fly to the moon');
    await b.page.click('button#send-moves');
    await b.page.waitForSelector('p#error:not([hidden])');
    assert.ok((await b.page.textContent('p#error')).trim().length > 0, 'p#error says why');
    assert.equal(last(b).phase, 'showing', 'still showing after words that are no moves');
    // A line one move short: a move that brings no robot onto the target (the solution is a
    // shortest one, so no shorter line reaches it). The server checks it and refuses it.
    const short = found.solution.slice(0, -1).map((m) => `${m.robot} ${m.dir}`).join(', ')
      || `${found.solution[0].robot} ${{ N: 'S', S: 'N', E: 'W', W: 'E' }[found.solution[0].dir]}`;
    round.wrong = short;
    round.sent.wrong = Date.now();
    await b.page.fill('input#moves', short);
    await b.page.click('button#send-moves');
    const refused = await until(() => {
      const s = last(a);
      const line = (s.log || []).find((l) => /\bbob cannot show\b/.test(l) || /\bbob needs\b/.test(l));
      return line ? { s, line } : undefined;
    }, 'the log says B\'s line is refused', 10_000);
    assert.match(refused.line, new RegExp(`bob cannot show ${bidB} moves? \\(`), `the refusal in the log: ${refused.line}`);
    await a.page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /bob cannot show/.test(li.textContent)));
    // The robots go back; A, the next bid, shows.
    const showingA = await waitState(a, (s) => s.phase === 'showing' && s.showing?.colour === SEAT.alice, 'A shows next');
    assert.deepEqual(showingA.showing, { colour: SEAT.alice, bid: bidA }, 'state.showing: A, the next bid');
    assert.equal(showingA.svg, start.svg, 'the robots went back: the same picture');
    await a.page.waitForSelector('form#show:not([hidden]) input#moves:not([disabled])');
    await b.page.waitForSelector('#show', { state: 'hidden' });
    round.sent.solution = Date.now();
    round.winner = 'alice';
    await a.page.fill('input#moves', found.line);
    await a.page.click('button#send-moves');
  } else {
    await screenshot(b.page, 'ricochet.png');
    round.sent.solution = Date.now();
    round.winner = 'bob';
    await b.page.fill('input#moves', found.line);
    await b.page.click('button#send-moves');
  }
  // The winner's token; the log tells the moves; the next round begins.
  const winLine = await until(() => (last(b).log || []).find((l) => l.includes(`${round.winner} shows ${found.moves} move`)), 'the win in the log', 10_000);
  assert.ok(winLine.includes(found.line), `the log gives the moves shown: ${winLine}`);
  assert.match(winLine, /wins the token \(1 now\)/);
  const winnerSeat = SEAT[round.winner];
  for (const user of [a, b]) {
    await user.page.waitForSelector(`#room[data-phase="bidding"][data-round="${number + 1}"]`);
    await user.page.waitForSelector(`${seatSel(winnerSeat)}[data-tokens="1"]`);
    await user.page.waitForSelector(`#tokens li[data-colour="${winnerSeat}"][data-tokens="1"]`);
  }
  const next = await waitState(a, (s) => s.round === number + 1, `round ${number + 1}`);
  const tokens = Object.fromEntries(next.seats.map((x) => [x.player, x.tokens]));
  assert.deepEqual(tokens, number === 1 ? { alice: 1, bob: 0 } : { alice: 1, bob: 1 }, 'state.seats tokens');
  assert.deepEqual(next.bids, [null, null], 'a new round: no bids');
  assert.deepEqual(next.passed, [false, false], 'a new round: nobody passed');
  assert.equal(next.showing, null);
  // The robots stand where the shown moves left them: the moving robots moved, the new
  // picture has them elsewhere (the goal may be anywhere). The server publishes the new
  // round (its number, phase bidding) a moment before its picture and target (in a room
  // with hints, after its solver has run): the new picture is waited for, 5 s at most.
  const moved = [...new Set(found.solution.map((m) => m.robot))];
  const elsewhere = (p) => moved.some((c) => JSON.stringify(p.robots[c]) !== JSON.stringify(found.robots[c]));
  let after;
  for (const deadline = Date.now() + 5000; ;) {
    after = ricochetPositionFromPicture(await pagePicture(b.page));
    if (elsewhere(after) || Date.now() > deadline) break;
    await sleep(50);
  }
  assert.ok(elsewhere(after), 'the robots stay where the moves left them');
  round.after = after;
}

test('round 1: A bids, B bids lower, both pass; B shows a line one move short (refused), A shows and wins', { timeout: 25_000 }, async () => {
  await playRound(1);
});

test('round 2: from where the robots stand, B bids lower and shows a solution: a token each, round 3', { timeout: 20_000 }, async () => {
  await playRound(2);
  const b = users.bob;
  assert.equal(await b.page.isVisible('#result'), false, 'no result while the game goes on');
  assert.equal(await b.page.textContent('p#error').then((t) => t.trim()), '', 'no error left on B\'s page');
});

test('secrets: no frame holds a solution before one is shown', { timeout: 10_000 }, async () => {
  assert.equal(rounds.length, 2, 'two rounds played');
  assert.equal(hints.length, 3, 'A asked three hints');
  for (const user of Object.values(users)) {
    assert.ok(user.frames.length > 10, `${user.name}'s page received frames`);
    user.frames.forEach((f, i) => {
      const where = `${user.name}'s frame ${i} (${f.json?.type})`;
      // A hint: only to A, who asked it, after asking; its text in no other frame.
      if (f.json?.type === 'hint') {
        assert.equal(user.name, 'alice', `${where}: a hint to ${user.name}, who asked none`);
        const asked = hints.find((x) => x.level === f.json.level);
        assert.ok(asked && f.at >= asked.at - 50, `${where}: a hint before it was asked`);
        return;
      }
      for (const hint of hints) assert.ok(!f.text.includes(hint.text), `${where} holds A's hint ${JSON.stringify(hint.text)}`);
      for (const o of objectsIn(f.json)) {
        for (const key of ['solution', 'fewest', 'optimal', 'best', 'hint']) {
          assert.ok(!Object.hasOwn(o, key), `${where} has a key "${key}": ${JSON.stringify(o).slice(0, 300)}`);
        }
        // Moves in a frame: only bids (numbers), never a list of moves.
        if (Object.hasOwn(o, 'moves')) assert.equal(typeof o.moves, 'number', `${where}: "moves" is ${JSON.stringify(o.moves).slice(0, 200)}`);
      }
      assert.ok(!/fewest/i.test(f.text), `${where} speaks of the fewest moves: ${f.text.slice(0, 300)}`);
      // A round's solution: not before it was sent (nor the line refused, before B sent it).
      // The earlier rounds' lines shown already are taken out first: a later round's
      // solution may be a part of one (the same robot, the same moves).
      for (const round of rounds) {
        const shownLines = rounds.filter((x) => x.number < round.number).flatMap((x) => [
          ...(f.at >= x.sent.solution - 50 ? [x.line] : []), ...(x.wrong && f.at >= x.sent.wrong - 50 ? [x.wrong] : []),
        ]).sort((x, y) => y.length - x.length);
        const rest = shownLines.reduce((text, line) => text.split(line).join('…'), f.text);
        if (f.at < round.sent.solution - 50) {
          assert.ok(!rest.includes(round.line), `${where} holds round ${round.number}'s solution ${JSON.stringify(round.line)} before it was shown`);
        }
        if (round.wrong && round.wrong.includes(',') && f.at < round.sent.wrong - 50) {
          assert.ok(!rest.includes(round.wrong), `${where} holds ${JSON.stringify(round.wrong)} before B sent it`);
        }
      }
    });
    // The positive control: the solutions are in the log once shown.
    for (const round of rounds) {
      assert.ok(user.frames.some((f) => f.at >= round.sent.solution - 50 && f.text.includes(round.line)), `${user.name} receives round ${round.number}'s moves once shown`);
    }
    assert.deepEqual(user.problems, [], `${user.name}'s page: console and page errors`);
  }
});

test('the protocol: hello and state carry the fields docs/ROOMS.md gives', { timeout: 5_000 }, async () => {
  const stateKeys = ['phase', 'seats', 'round', 'svg', 'target', 'timer', 'bids', 'passed', 'showing', 'log', 'result'];
  const phases = ['writing', 'bidding', 'showing', 'over'];
  const wrong = [...mismatches];
  for (const user of Object.values(users)) {
    for (const f of user.frames) {
      const s = f.json;
      if (s?.type === 'hello') {
        const room = s.room || {};
        if (room.game !== 'ricochet' || room.players !== 2 || room.board !== 'original') {
          wrong.push(`${user.name}: hello.room is ${JSON.stringify(room)}: game ricochet, players 2, board original expected`);
        }
        wrong.push(...tokenHelloWrong(user, s));
      }
      if (s?.type !== 'state') continue;
      wrong.push(...tokenStateWrong(user, s, { stateKeys, phases }));
      if (s.phase !== 'writing') {
        if (!Array.isArray(s.bids) || s.bids.length !== 2) wrong.push(`${user.name}: bids ${JSON.stringify(s.bids)} (${s.phase})`);
        if (!Array.isArray(s.passed) || s.passed.length !== 2) wrong.push(`${user.name}: passed ${JSON.stringify(s.passed)} (${s.phase})`);
        if (s.timer && !['now', 'runs_out', 'turned'].every((k) => k in s.timer)) wrong.push(`${user.name}: timer ${JSON.stringify(s.timer)}`);
        if (s.target !== null && typeof s.target?.colour !== 'string') wrong.push(`${user.name}: target ${JSON.stringify(s.target)}`);
      }
      // Here every bidder passed before anyone showed: the states of a demonstration say so.
      if (s.phase === 'showing' && JSON.stringify(s.passed) !== '[true,true]') wrong.push(`${user.name}: passed ${JSON.stringify(s.passed)} in phase showing, after both players passed (round ${s.round})`);
    }
  }
  // One line a kind of mismatch (with how often it came).
  assert.deepEqual(byKind(wrong, tokenKind), [], 'hello and state as docs/ROOMS.md says');
});
