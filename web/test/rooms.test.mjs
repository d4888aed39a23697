// Unit tests of the rooms' pure part (web/rooms/words.js): what the room pages say about a
// state, a robot's turn, the reconnection's delays, the clock, the Micro stops, the SVG
// allow-list; and that no room module holds a copy of the palette. The game modules are
// imported for their words (RICOCHET, MICRO): they touch the DOM only when a page is built.
// Run: node --test web/test/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import Model from '../js/model.js';
import Palette from '../js/palette.js';
import * as W from '../rooms/words.js';
import { RICOCHET } from '../rooms/ricochet.js';
import { MICRO } from '../rooms/micro.js';

const rooms = new URL('../rooms/', import.meta.url);

test('the reconnection waits longer each attempt, ±20 %, up to 15 s', () => {
  assert.equal(W.reconnectDelay(0, 0.5), 500);
  assert.equal(W.reconnectDelay(0, 0), 400);
  assert.equal(W.reconnectDelay(1, 0.5), 1000);
  assert.ok(Math.abs(W.reconnectDelay(2, 0.999999) - 2400) < 1e-3);
  assert.equal(W.reconnectDelay(5, 0.5), 15000);
  assert.equal(W.reconnectDelay(40, 0.5), 15000, 'the last delay repeats');
  for (let a = 1; a < 8; a += 1) assert.ok(W.reconnectDelay(a, 0.5) >= W.reconnectDelay(a - 1, 0.5));
});

test('words: players, plurals, hexes, facings', () => {
  assert.equal(W.playerName('ann'), 'ann');
  assert.equal(W.playerName({ name: 'bob' }), 'bob');
  assert.equal(W.playerName(null), null);
  assert.equal(W.playerName(''), null);
  assert.equal(W.movesWords(1), '1 move');
  assert.equal(W.movesWords(0), '0 moves');
  assert.equal(W.movesWords(12), '12 moves');
  assert.equal(W.tokensWords('1'), '1 token', 'a number sent as text counts too');
  assert.equal(W.plural(3, 'player'), '3 players');
  assert.equal(W.atKey([4, 7]), '4,7');
  assert.equal(W.points([[1, 2.005], [3.5, -4]]), '1.00,2.00 3.50,-4.00');
  assert.equal(W.facingWords(1), '1 → E');
  assert.equal(W.facingWords(5), '5 ↖ NW');
  assert.equal(W.facingWords(9), '9', 'no such facing: the number as it is');
});

test('a robot turns the short way: the angle nearest its last one that points the same way', () => {
  assert.equal(W.turnTo(null, 1), 0);
  assert.equal(W.turnTo(null, 4), 180);
  assert.equal(W.turnTo(300, 1), 360, 'from NE to E: on, not back round');
  assert.equal(W.turnTo(0, 6), -60);
  assert.equal(W.turnTo(-60, 2), 60);
  for (let last = -720; last <= 720; last += 30) {
    for (let facing = 1; facing <= 6; facing += 1) {
      const angle = W.turnTo(last, facing);
      assert.equal((((angle - (facing - 1) * 60) % 360) + 360) % 360, 0, `${last} -> ${facing}: ${angle}`);
      assert.ok(Math.abs(angle - last) <= 180, `${last} -> ${facing}: ${angle} turns the long way`);
      assert.equal(angle, Model.nearestAngle(last, Model.facingAngle(facing)), 'as the replay page turns');
    }
  }
});

test('the battle room: #room-info, #status, seats, the editor note', () => {
  assert.equal(W.battleInfo({}), 'battle');
  assert.equal(
    W.battleInfo({ game: 'battle', board: 'duel', scenario: 2, robots: 1, rounds: 100, timeout: 30, spectators: false }),
    'battle on duel · scenario 2 · 1 robot a side · 100 rounds · away 30 s: the computer plays · no spectators',
  );
  assert.equal(W.battleInfo({ board: 'melee', robots: 3, spectators: true }), 'battle on melee · 3 robots a side · spectators welcome');

  assert.equal(W.battleStatus({ phase: 'writing' }, 'green'), '');
  assert.equal(W.battleStatus({ phase: 'playing', round: 3, turn: 17, pace: 2.5 }, 'green'), 'round 3 · turn 17 · 2.5 turns a second');
  assert.equal(W.battleStatus({ phase: 'playing', round: 0, turn: null, paused: true }, 'green'), 'round 0 · paused');
  assert.equal(W.battleStatus({ phase: 'over', round: 9, turn: 40 }, null), 'round 9 · turn 40');
  assert.equal(
    W.battleStatus({ phase: 'placing', paused: true, waiting_for: 'green', round: 1 }, 'green'),
    'paused: the match will wait for the host · waiting for you',
  );
  assert.equal(W.battleStatus({ phase: 'placing', waiting_for: 'violet' }, 'green'), 'waiting for violet');

  const writing = { phase: 'writing', waiting_for: null };
  assert.deepEqual(W.battleSeatFlags({ colour: 'green', player: 'ann', ready: true }, writing), ['ready']);
  assert.deepEqual(W.battleSeatFlags({ colour: 'green', player: { name: 'ann' } }, writing), ['writing…']);
  assert.deepEqual(W.battleSeatFlags({ colour: 'green', player: null }, writing), [], 'a free seat writes nothing');
  assert.deepEqual(
    W.battleSeatFlags({ colour: 'violet', player: 'bob', computer: true }, { phase: 'placing', waiting_for: 'violet' }),
    ['played by the computer', 'to play'],
  );

  assert.equal(W.editorNote(null, 'green', false), '');
  assert.equal(W.editorNote(writing, null, false), 'Take a seat to write a program.');
  assert.equal(W.editorNote({ phase: 'playing' }, null, false), 'You watch this game.');
  assert.equal(W.editorNote(writing, 'green', true), 'Ready: waiting for the others and the host.');
  assert.match(W.editorNote(writing, 'green', false), /^Nobody sees your program until the end/);
  assert.equal(W.editorNote({ phase: 'over' }, 'green', true), 'Your program (the others see it once the game is over).');
});

test('the battle room: a robot, placing, the result', () => {
  assert.equal(W.robotWords({ name: 'green.1', at: null }, true), 'green.1: not placed yet');
  assert.equal(W.robotWords({ name: 'green.1', at: [2, 3], alive: false }, true), 'green.1: destroyed');
  const robot = { name: 'green.2', at: [4, 5], facing: 3, alive: true, shots: 7, signal: false };
  assert.equal(W.robotWords(robot, false), 'green.2: [4, 5] facing 3 ↙ SW, 7 shots');
  assert.equal(W.robotWords({ ...robot, signal: true }, true), 'green.2: [4, 5] facing 3 ↙ SW, 7 shots, a signal waits');
  assert.equal(
    W.robotWords({ ...robot, signal: true }, false),
    'green.2: [4, 5] facing 3 ↙ SW, 7 shots, a signal waits (its step is secret)',
    'another team\'s signal: its step is not told',
  );

  const placing = { phase: 'placing', place: { robot: 'green.1', free: [[1, 1]] }, waiting_for: 'green' };
  assert.equal(W.placePrompt(placing, true, null), 'Your turn: click a free start point (highlighted) for green.1.');
  assert.equal(W.placePrompt(placing, true, [1, 1]), 'green.1 at [1, 1]: choose its facing.');
  assert.equal(W.placePrompt(placing, false, null), 'green is placing green.1…');
  assert.equal(W.placePrompt({ ...placing, waiting_for: null }, false, null), 'someone is placing green.1…');
  assert.equal(W.placePrompt({ phase: 'playing', place: placing.place }, true, null), '');
  assert.equal(W.placePrompt(null, true, null), '');

  assert.equal(W.battleResult({ winner: 'green', rounds: 12 }), 'green wins after round 12');
  assert.equal(W.battleResult({ winner: null }), 'a draw');
  assert.equal(W.battleResult({ verdict: 'violet wins on robots left', rounds: 0 }), 'violet wins on robots left after round 0');
});

test('the token games: #room-info, #status, seats, the note, the result', () => {
  assert.equal(W.seatWords({ colour: '2', player: 'ann' }), 'ann (seat 2)');
  assert.equal(W.seatWords({ colour: '3', player: null }), 'seat 3');
  assert.equal(W.tokenInfo('Micro Robots', ['A face'], { players: 1, spectators: true }), 'Micro Robots · A face · 1 player · spectators welcome');
  assert.equal(W.tokenInfo('Ricochet Robots', [], {}), 'Ricochet Robots');

  const seats = [{ colour: '1', player: 'ann' }, { colour: '2', player: { name: 'bob' } }];
  assert.equal(W.tokenStatus(RICOCHET, { phase: 'writing', round: 0, seats }, '1'), '');
  assert.equal(W.tokenStatus(RICOCHET, { phase: 'bidding', round: 2, seats }, '1'), 'round 2');
  assert.equal(
    W.tokenStatus(RICOCHET, { phase: 'showing', round: 2, seats, showing: { colour: '2', bid: 5 } }, '1'),
    'round 2 · bob (seat 2) shows 5 moves…',
  );
  assert.equal(
    W.tokenStatus(MICRO, { phase: 'showing', mission: 3, seats, showing: { colour: '1', moves: 1 } }, '1', ['9 tokens in the reserve']),
    'mission 3 · your turn to show 1 move · 9 tokens in the reserve',
    'Micro reads the moves announced from showing.moves',
  );
  assert.equal(
    W.tokenStatus(MICRO, { phase: 'showing', mission: 3, seats: [], showing: { colour: '4', moves: 2 } }, null),
    'mission 3 · seat 4 shows 2 moves…',
  );

  const writing = { phase: 'writing' };
  assert.deepEqual(W.tokenSeatFlags(RICOCHET, { player: 'ann', ready: true }, writing), ['ready']);
  assert.deepEqual(W.tokenSeatFlags(MICRO, { player: 'ann', computer: true }, writing), [MICRO.computer, 'not ready']);
  assert.deepEqual(W.tokenSeatFlags(RICOCHET, { player: 'ann', ready: true }, { phase: 'bidding' }), []);

  assert.equal(W.seatNote(RICOCHET, writing, null, false), 'Take a seat to play.');
  assert.equal(W.seatNote(RICOCHET, writing, '1', false), 'Say you are ready.');
  assert.equal(W.seatNote(MICRO, writing, '1', true), 'Ready: waiting for the others and the host.');
  assert.equal(W.seatNote(MICRO, { phase: 'racing' }, null, false), 'You watch this game.');
  assert.equal(W.seatNote(RICOCHET, { phase: 'bidding' }, null, false), '');
  assert.equal(W.seatNote(MICRO, { phase: 'racing' }, '2', false), '');

  assert.deepEqual(W.resultWords({ winners: [] }), { text: 'Nobody wins', winners: [] });
  assert.deepEqual(W.resultWords({ winners: ['ann'], reason: 'most tokens' }), { text: 'ann wins: most tokens', winners: ['ann'] });
  assert.equal(W.resultWords({ winners: ['ann', 'bob'] }).text, 'ann and bob win');
});

test('the clock: when it runs out on the page\'s clock, the seconds left', () => {
  assert.equal(W.clockEnd({ runs_out: 100, now: 70 }, 5000), 35000);
  assert.equal(W.clockEnd({ runs_out: 60, now: 70 }, 5000), 5000, 'already out: now');
  assert.equal(W.clockEnd({ runs_out: 100 }, 5000), null);
  assert.equal(W.clockEnd(null, 5000), null);
  assert.equal(W.secondsLeft(35000, 5000), 30);
  assert.equal(W.secondsLeft(35000, 34000.5), 1, 'a part of a second left counts as one');
  assert.equal(W.secondsLeft(35000, 40000), 0);
  assert.equal(RICOCHET.clock.words(12), '12 s left');
  assert.equal(RICOCHET.clock.words(0), 'The sand timer has run out.');
  assert.equal(MICRO.clock.words(125), '2:05 left');
  assert.equal(MICRO.clock.words(59), '0:59 left');
  assert.equal(MICRO.clock.words(0), 'Time is up.');
});

test('the server\'s SVG keeps drawing elements and attributes only', () => {
  const SVG = 'http://www.w3.org/2000/svg';
  for (const tag of ['svg', 'g', 'rect', 'path', 'circle', 'polygon', 'text', 'title']) assert.ok(W.keepsSvgElement(SVG, tag), tag);
  for (const tag of ['script', 'foreignObject', 'a', 'image', 'use', 'style', 'animate']) assert.ok(!W.keepsSvgElement(SVG, tag), tag);
  assert.ok(!W.keepsSvgElement('http://www.w3.org/1999/xhtml', 'rect'), 'an HTML element named like an SVG one');
  for (const name of ['viewBox', 'fill', 'class', 'transform', 'xmlns', 'preserveAspectRatio']) assert.ok(W.keepsSvgAttribute(name), name);
  for (const name of ['onload', 'onclick', 'href', 'xlink:href', 'style', 'id']) assert.ok(!W.keepsSvgAttribute(name), name);
});

test('Ricochet Robots: the board, the target, bids and passes, hints', () => {
  assert.deepEqual(W.ricochetInfo({}), []);
  assert.deepEqual(W.ricochetInfo({ board: 'ricochets' }), ['on a Ricochets board']);
  assert.deepEqual(W.ricochetInfo({ board: 'classic' }), ['on the classic board']);

  assert.deepEqual(W.targetWords({ phase: 'writing', round: 0 }), { text: 'The target is shown once the host starts the game.', colour: '' });
  assert.deepEqual(
    W.targetWords({ phase: 'bidding', round: 2, target: { colour: 'red' } }),
    { text: 'Round 2: bring the red robot to the ringed target.', colour: 'red' },
  );
  assert.deepEqual(
    W.targetWords({ phase: 'showing', round: 3, target: { colour: null } }),
    { text: 'Round 3: bring any robot to the ringed target (the vortex).', colour: 'any' },
  );
  assert.deepEqual(W.targetWords({ phase: 'over', round: 5, target: { colour: 'blue' } }), { text: '', colour: 'blue' });

  const state = { phase: 'bidding', bids: [4, null, 7], passed: [false, true, true] };
  assert.deepEqual(W.ricochetSeat({}, 0, state), { flags: ['bids 4'] });
  assert.deepEqual(W.ricochetSeat({}, 1, state), { flags: [] });
  assert.deepEqual(W.ricochetSeat({}, 0, { ...state, phase: 'showing' }), { flags: [] }, 'bids shown only while bidding');
  assert.deepEqual(W.bidWords(state, 0), { bid: 4, passed: false, words: '4 moves' });
  assert.deepEqual(W.bidWords(state, 1), { bid: null, passed: true, words: 'passed' });
  assert.deepEqual(W.bidWords(state, 2), { bid: 7, passed: true, words: '7 moves · passed' });
  assert.equal(W.bidWords({ phase: 'bidding' }, 3).words, 'no bid yet');
  assert.equal(W.bidWords({ phase: 'showing', bids: [] }, 0).words, 'no bid');
  assert.equal(W.bidNote(state, -1), '');
  assert.equal(W.bidNote(state, 0), 'Your bid: 4 moves. You may lower it, or pass.');
  assert.equal(W.bidNote(state, 1), 'You passed this round: your bid, if any, stands.');
  assert.equal(W.bidNote({ phase: 'bidding' }, 0), 'How many moves does your solution take?');

  assert.equal(W.nextHintLevel([]), 1);
  assert.equal(W.nextHintLevel([1, 2]), 3);
  assert.equal(W.nextHintLevel([2]), 3, 'after the highest received');
  assert.equal(W.hintWords(2), 'Hint 2 of 3');
  assert.equal(W.hintWords(4), 'No more hints this round');
});

test('Micro Robots: cells, stops, the mission, seats, the race', () => {
  assert.equal(W.cellWords('B3'), 'blue 3 (B3)');
  assert.equal(W.cellWords('W6'), 'white 6 (W6)');
  assert.equal(W.cellWords('Q1'), 'Q1');
  assert.equal(W.cellWords(null), 'null');
  assert.deepEqual(W.parseStops('b5, r5;x9  Y1 G7'), { stops: ['B5', 'R5', 'Y1'], bad: ['X9', 'G7'] });
  assert.deepEqual(W.parseStops(''), { stops: [], bad: [] });
  assert.deepEqual(W.parseStops(undefined), { stops: [], bad: [] });
  assert.equal(W.cellOfClasses(['cell', 'cell-P4']), 'P4');
  assert.equal(W.cellOfClasses(['cell', 'cell-P7', 'robot']), null);
  assert.equal(W.cellOfClasses(undefined), null);

  assert.deepEqual(W.microInfo({ board: 'A', variant: 'waypoint' }), ['A face', 'through a waypoint']);
  assert.deepEqual(W.microInfo({ variant: 'new-one' }), ['new-one'], 'a variant this page does not know: its name');
  assert.deepEqual(W.reserveWords({ phase: 'racing', reserve: 1 }), ['1 token in the reserve']);
  assert.deepEqual(W.reserveWords({ phase: 'writing', reserve: 9 }), []);

  const showing = { phase: 'showing', oya: '2', passed: [true, false], showing: { colour: '1', moves: 4 } };
  assert.deepEqual(W.microSeat({ colour: '1' }, 0, showing), { classes: [''], data: { passed: 'true' }, flags: ['announced 4 moves'] });
  assert.deepEqual(W.microSeat({ colour: '2' }, 1, showing), { classes: ['oya'], data: { passed: 'false' }, flags: ['rolled the dice'] });
  assert.deepEqual(W.microSeat({ colour: '1' }, 0, { ...showing, phase: 'racing' }).flags, ['passed']);

  assert.equal(W.missionWords({ phase: 'writing' }, null), 'The dice are rolled once the host starts the game.');
  assert.equal(W.missionWords({ phase: 'racing', mission: 1, start: 'B1' }, null), '', 'no target yet');
  assert.equal(
    W.missionWords({ phase: 'racing', mission: 2, start: 'B1', target: 'R5', via: 'Y3', token: true }, 'ann'),
    'Mission 2, rolled by ann: from blue 1 (B1) through yellow 3 (Y3) to red 5 (R5); a token on the target.',
  );
  assert.equal(
    W.missionWords({ phase: 'done', mission: 2, start: 'B1', target: 'R5' }, null),
    'Last mission 2: from blue 1 (B1) to red 5 (R5).',
  );

  assert.equal(W.raceNote({ phase: 'showing' }, 0, false), '');
  assert.equal(W.raceNote({ phase: 'racing' }, -1, false), 'The players look for the fewest moves.');
  assert.equal(W.raceNote({ phase: 'racing' }, 0, true), 'You passed this mission: waiting for the others.');
  assert.match(W.raceNote({ phase: 'racing' }, 0, false), /^Found a way\?/);
  assert.equal(W.stopsNote([], 3), '0 of 3 moves');
  assert.equal(W.stopsNote(['B5', 'R5'], 3), '2 of 3 moves: B5 → R5');
});

test('no room module holds a copy of the palette: the page uses web/js/palette.js', () => {
  const colours = new Set();
  const walk = (value) => {
    if (typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value)) colours.add(value.toLowerCase());
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(Palette);
  assert.ok(colours.size >= 10, 'the palette has its colours');
  const files = readdirSync(rooms).filter((f) => f.endsWith('.js'));
  assert.ok(files.includes('battle.js') && files.includes('room.js'));
  for (const file of files) {
    const text = readFileSync(new URL(file, rooms), 'utf8').toLowerCase();
    for (const colour of colours) assert.ok(!text.includes(colour), `web/rooms/${file} writes the palette's ${colour}`);
    assert.ok(!/fallback_?palette/i.test(text), `web/rooms/${file} has a fallback palette`);
  }
});
