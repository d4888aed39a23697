// Unit tests of the pure part of the viewer (web/js/model.js): geometry, expanding frames,
// moving in time, what the panels say. Run: node --test web/test/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Model from '../js/model.js';

const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

test('hex centres follow the odd-r layout: odd rows shifted right by half a hex', () => {
  const g = Model.geometry(10, 5);
  const w = Math.sqrt(3) * 10;
  const [x0, y0] = g.center(0, 0);
  close(x0, 5 + w / 2);
  close(y0, 15);
  const [x1, y1] = g.center(0, 1);
  close(x1 - x0, w / 2);
  close(y1 - y0, 15);
  const [x2] = g.center(3, 2);
  close(x2 - x0, 3 * w);
  // Pointy top: the first corner is up-right, one corner straight below the centre.
  const corners = g.corners(0, 0);
  assert.equal(corners.length, 6);
  close(corners[2][0], 0);
  close(corners[2][1], 10);
  const [width, height] = g.extent(13, 12);
  close(width, 10 + 13.5 * w);
  close(height, 10 + 15 * 11 + 20);
});

test('directions are numbered clockwise from east (R-A1) and neighbours match the layout', () => {
  assert.deepEqual(Model.DIRECTIONS.map((d) => d.name), ['E', 'SE', 'SW', 'W', 'NW', 'NE']);
  assert.equal(Model.facingAngle(1), 0);
  assert.equal(Model.facingAngle(2), 60);
  assert.equal(Model.facingAngle(6), 300);
  // From an even row, south-east stays in the column; from an odd row it moves right.
  assert.deepEqual(Model.stepHex(4, 2, 2), [4, 3]);
  assert.deepEqual(Model.stepHex(4, 3, 2), [5, 4]);
  assert.deepEqual(Model.stepHex(4, 3, 5), [4, 2]);
  assert.deepEqual(Model.stepHex(4, 2, 6, 2), [5, 0]);
  assert.deepEqual(Model.stepHex(0, 0, 4), [-1, 0]);
  // Every neighbour is one hex across on the screen, in the direction's angle.
  const g = Model.geometry(10, 0);
  for (const d of [1, 2, 3, 4, 5, 6]) {
    for (const [col, row] of [[3, 2], [3, 3]]) {
      const [x, y] = g.center(col, row);
      const [nx, ny] = g.center(...Model.stepHex(col, row, d));
      const angle = (Math.atan2(ny - y, nx - x) * 180) / Math.PI;
      close(((angle % 360) + 360) % 360, Model.facingAngle(d));
      close(Math.hypot(nx - x, ny - y), Math.sqrt(3) * 10);
    }
  }
});

test('a turn never spins the long way round', () => {
  assert.equal(Model.nearestAngle(300, 0), 360);
  assert.equal(Model.nearestAngle(0, 300), -60);
  assert.equal(Model.nearestAngle(720, 60), 780);
  assert.equal(Model.nearestAngle(60, 60), 60);
});

/** A tiny document: two robots, four turns over two rounds and a bit. */
function tinyDoc() {
  const robot = (r, col, row, facing, alive, pointer, next, lost = [], signal = 0) =>
    [r, col, row, facing, alive, 10, pointer, next, lost, signal];
  return {
    v: 3,
    keywords: 'plain',
    name: 'tiny',
    shapes_block: true,
    board: {
      name: 'b',
      w: 3,
      h: 2,
      cells: [
        { at: [0, 0] }, { at: [1, 0], t: 'shape', form: 'square', colour: 'red' }, { at: [2, 0] },
        { at: [0, 1] }, { at: [1, 1], t: 'computer', colour: 'green' }, { at: [2, 1] },
      ],
    },
    teams: [{ colour: 'green' }, { colour: 'violet' }],
    robots: [
      { name: 'green.1', team: 0, origin: 'hunter', steps: ['?1', 'GO 4', 'R+1', 'T'], tests: [[1, 'enemy ahead']] },
      { name: 'violet.1', team: 1, origin: 'inline', steps: ['T'], tests: [] },
    ],
    frames: [
      { r: 1, n: 0, g: [5, 5], d: [robot(0, 0, 0, 1, 1, 0, 1), robot(1, 2, 1, 4, 1, 0, 1)], e: [], l: '', a: [1] },
      { r: 1, n: 1, g: [5, 5], d: [robot(0, 0, 0, 1, 1, 4, 5)], e: [['turn', 0, 1], ['fired', 0, 4, 1, 9]], l: 'round 1: green.1\n', a: [] },
      { r: 2, n: 0, g: [5, 5], d: [robot(1, 2, 1, 4, 1, 1, 2, [], 1)], e: [], l: 'round 1: violet.1\n', a: [0] },
      { r: 2, n: 1, g: [4, 5], d: [robot(0, 1, 1, 2, 1, 4, 5, [3])], e: [], l: 'round 2: green.1\n', a: [] },
      { r: 2, n: null, g: [4, 5], d: [robot(0, 1, 1, 2, 0, 4, 5, [3])], e: [], l: 'round 2: violet.1\n', a: [] },
    ],
    end: { winner: 'violet', reason: 'last_team_standing', verdict: 'violet wins (last team standing)', rounds: 2 },
  };
}

test('frames expand into whole states that share what did not change', () => {
  const doc = tinyDoc();
  const states = Model.expand(doc);
  assert.equal(states.length, 5);
  assert.deepEqual(states.map((s) => s.round), [1, 1, 2, 2, 2]);
  assert.deepEqual(states.map((s) => s.roundStart), [0, 0, 2, 2, 2]);
  assert.equal(states[1].robots[0].pointer, 4);
  assert.equal(states[1].robots[1], states[0].robots[1], 'unchanged robots are shared');
  assert.equal(states[2].robots[1].signal, true);
  assert.deepEqual(states[3].robots[0].lost, [3]);
  assert.equal(states[4].robots[0].alive, false);
  assert.equal(states[0].robots[0].alive, true, 'earlier states stay as they were');
});

test('moving in time: one turn, one round forward and back, the ends', () => {
  const states = Model.expand(tinyDoc());
  const { moves } = Model;
  assert.equal(moves.turnForward(states, 0), 1);
  assert.equal(moves.turnForward(states, 4), 4);
  assert.equal(moves.turnBack(states, 0), 0);
  assert.equal(moves.roundForward(states, 0), 2);
  assert.equal(moves.roundForward(states, 1), 2);
  assert.equal(moves.roundForward(states, 2), 4, 'the last round runs to the end');
  assert.equal(moves.roundBack(states, 3), 2, 'to the start of this round');
  assert.equal(moves.roundBack(states, 2), 0, 'already there: to the start of the previous one');
  assert.equal(moves.roundBack(states, 0), 0);
  assert.equal(moves.end(states), 4);
  assert.equal(moves.clamp(states, 99), 4);
});

test('programs show the pointer, the next step, destroyed steps and the acting robot\'s answers', () => {
  const doc = tinyDoc();
  const states = Model.expand(doc);
  const start = Model.programRows(doc.robots[0], states[0].robots[0], true, states[0].answers);
  assert.equal(start.start, true);
  assert.deepEqual(start.steps.filter((s) => s.next).map((s) => s.n), [1]);
  assert.deepEqual(start.tests, [{ number: 1, text: 'enemy ahead', answer: 'yes' }]);
  const later = Model.programRows(doc.robots[0], states[3].robots[0], false, []);
  assert.equal(later.start, false);
  assert.deepEqual(later.steps.filter((s) => s.pointer).map((s) => s.n), [4]);
  assert.deepEqual(later.steps.filter((s) => s.lost).map((s) => s.n), [3]);
  // Past the end of the program: the empty step read next (R-A10).
  assert.deepEqual(later.steps.at(-1), { n: 5, text: '(empty)', pointer: false, next: true, lost: false });
  assert.equal(later.tests[0].answer, '', 'only the robot about to act shows answers');
});

test('a robot\'s whole state keeps a pending signal\'s step secret (R-A23)', () => {
  const doc = tinyDoc();
  const states = Model.expand(doc);
  const facts = Model.robotFacts(doc.robots[1], states[2].robots[1]);
  assert.deepEqual(facts, [
    'violet.1 (program inline)',
    'position: [2, 1]',
    'facing: 4 ← W',
    'pointer: step 1 (next: step 2)',
    'destroyed steps: none',
    'shots left: 10',
    'pending signal: yes (its step is secret until it acts)',
  ]);
  assert.deepEqual(Model.robotFacts(doc.robots[0], states[4].robots[0]), ['green.1 (program hunter)', 'destroyed']);
});

test('the status line says where the match stands, as the debugger does', () => {
  const doc = tinyDoc();
  const states = Model.expand(doc);
  assert.equal(
    Model.status(doc, states, 1),
    'turn 1: round 1, violet to play, violet.1 next (signals left: green 5, violet 5)',
  );
  assert.equal(Model.status(doc, states, 4), 'turn 4: the match is over: violet wins (last team standing) after round 2');
});

test('effects follow the events; a shot stops at the robot it hits, a shape or the edge', () => {
  const doc = tinyDoc();
  const list = Model.effects([
    ['turn', 0, 1],
    ['fired', 0, 4, 1, 9],
    ['hit', 1, 0, 1],
    ['destroyed', 1, 'shot', 0],
    ['exploded', 1, 3, [2, 1]],
    ['lightning', 0, [0, 0], 2],
  ]);
  assert.deepEqual(list.map((e) => e.kind), ['shot', 'hit', 'explosion', 'lightning']);
  assert.equal(list[0].distance, 1);
  assert.equal(list[0].target, 1, 'the robot hit');
  const at = (col, row) => ({ col, row });
  assert.equal(Model.shotRange(doc, at(0, 0), 1, 1), 1);
  assert.equal(Model.shotRange(doc, at(0, 0), 1, undefined), 1, 'the square at [1, 0] stops it');
  assert.equal(Model.shotRange({ ...doc, shapes_block: false }, at(0, 0), 1), 2);
  assert.equal(Model.shotRange(doc, at(0, 0), 4), 0, 'the edge');
  assert.equal(Model.shotRange(doc, at(0, 1), 1), 1, 'the computer at [1, 1] stops it');
});

test('a shot\'s ends: from its robot to the robot hit, else as far as it goes', () => {
  const doc = tinyDoc();
  const at = (col, row) => ({ col, row });
  assert.deepEqual(Model.shotEnds(doc, at(2, 0), 4, 1), { from: [2, 0], to: [1, 0], range: 1 }, 'a robot hit at 1');
  assert.deepEqual(Model.shotEnds(doc, at(2, 1), 4, undefined), { from: [2, 1], to: [1, 1], range: 1 }, 'the computer');
  assert.deepEqual(Model.shotEnds({ ...doc, shapes_block: false }, at(0, 0), 1), { from: [0, 0], to: [2, 0], range: 2 });
  assert.deepEqual(Model.shotEnds(doc, at(0, 0), 4), { from: [0, 0], to: [-1, 0], range: 0 }, 'the edge at once');
});

test('an explosion\'s hexes: within 2 of its centre, each with its distance', () => {
  const cells = [];
  for (let row = 0; row < 7; row += 1) for (let col = 0; col < 7; col += 1) cells.push({ at: [col, row] });
  const doc = { board: { w: 7, h: 7, cells } };
  const key = (c) => c.join(',');
  for (const centre of [[3, 3], [3, 2], [0, 0], [6, 5]]) {
    const hexes = Model.around(doc, centre, 2);
    const by = new Map(hexes.map((h) => [key(h.at), h.d]));
    assert.equal(by.get(key(centre)), 0);
    // Distance 1: exactly the neighbours on the board (stepHex), distance 2 their neighbours.
    const onBoard = ([c, r]) => c >= 0 && r >= 0 && c < 7 && r < 7;
    const ring1 = [1, 2, 3, 4, 5, 6].map((d) => Model.stepHex(...centre, d)).filter(onBoard);
    assert.deepEqual(hexes.filter((h) => h.d === 1).map((h) => key(h.at)).sort(), ring1.map(key).sort());
    const ring2 = new Set();
    for (const n of ring1) {
      for (const d of [1, 2, 3, 4, 5, 6]) {
        const m = Model.stepHex(...n, d);
        if (onBoard(m) && key(m) !== key(centre) && !ring1.some((r) => key(r) === key(m))) ring2.add(key(m));
      }
    }
    assert.deepEqual(hexes.filter((h) => h.d === 2).map((h) => key(h.at)).sort(), [...ring2].sort());
  }
  assert.equal(Model.around(doc, [3, 3], 2).length, 19, 'a whole hexagon of radius 2');
});

test('a robot\'s damage: its destroyed steps, of how many when its program is known', () => {
  const doc = tinyDoc();
  const states = Model.expand(doc);
  assert.deepEqual(Model.health(doc.robots[0], states[0].robots[0]), { lost: 0, steps: 4, whole: 1 });
  assert.deepEqual(Model.health(doc.robots[0], states[3].robots[0]), { lost: 1, steps: 4, whole: 0.75 });
  // The arena leaves out a program its viewer may not read: the count only.
  const secret = { ...doc.robots[0], steps: [], tests: [] };
  assert.deepEqual(Model.health(secret, states[3].robots[0]), { lost: 1, steps: 0, whole: null });
});

test('robots alive per team over the rounds: a point a round, the frame shown placed between', () => {
  const doc = tinyDoc();
  const states = Model.expand(doc);
  const series = Model.aliveSeries(doc, states);
  // Turns 1 and 2 are played in round 1 (frames 0 and 1 are in it), turns 3 and 4 in round 2.
  assert.equal(series.rounds, 2);
  assert.deepEqual(series.ends, [0, 2, 4]);
  assert.deepEqual(series.counts, [[1, 1, 0], [1, 1, 1]]);
  assert.equal(series.most, 1);
  assert.deepEqual([0, 1, 2, 3, 4].map(series.position), [0, 0.5, 1, 1.5, 2]);
  assert.equal(Model.aliveCount(doc, states[4], 0), 0);
  assert.equal(Model.aliveCount(doc, states[4], 1), 1);
  // A match with no turn: the start only.
  const still = { ...doc, frames: doc.frames.slice(0, 1) };
  const one = Model.aliveSeries(still, Model.expand(still));
  assert.deepEqual({ rounds: one.rounds, ends: one.ends, counts: one.counts }, { rounds: 0, ends: [0], counts: [[1], [1]] });
  assert.equal(one.position(0), 0);
});

/** A document under the TI-57 rule: memories in `m`, only for the robots that changed. */
function ti57Doc() {
  const doc = tinyDoc();
  doc.keywords = 'ti57';
  const zero = [0, 0, 0, 0, 0, 0, 0, 0];
  doc.frames[0].m = [[0, 0, 0, zero, [], 0], [1, 0, 0, zero, [], 0]];
  doc.frames[1].m = [[0, 3, -2, [3, 0, 0, 0, 0, 0, 0, 7], [8, 14], 0]];
  doc.frames[2].m = [[1, 5, 0, zero, [], 1]];
  return doc;
}

test('memories expand into whole states; a plain document has none', () => {
  const states = Model.expand(ti57Doc());
  assert.deepEqual(states[0].robots[0].memory, { x: 0, t: 0, r: [0, 0, 0, 0, 0, 0, 0, 0], returns: [], stopped: false });
  assert.deepEqual(states[1].robots[0].memory.returns, [8, 14]);
  assert.equal(states[1].robots[1], states[0].robots[1], 'unchanged robots are shared');
  // Frame 2 changes violet.1's state (`d`) and its memories (`m`): both kept.
  assert.equal(states[2].robots[1].signal, true);
  assert.equal(states[2].robots[1].memory.stopped, true);
  // Frame 3 changes green.1's state only: its memories carry over.
  assert.deepEqual(states[3].robots[0].lost, [3]);
  assert.equal(states[3].robots[0].memory, states[1].robots[0].memory);
  assert.equal(states[0].robots[0].memory.x, 0, 'earlier states stay as they were');
  for (const s of Model.expand(tinyDoc())) {
    assert.ok(s.robots.every((r) => r.memory === undefined));
  }
});

test('a robot\'s state and card show its memories as the debugger does, only under the rule', () => {
  const doc = ti57Doc();
  const states = Model.expand(doc);
  assert.deepEqual(Model.robotFacts(doc.robots[0], states[1].robots[0]).slice(-3), [
    'memories: x = 3, t = -2',
    'R0-R7: 3 0 0 0 0 0 0 7',
    'returns remembered: step 8, step 14',
  ]);
  assert.deepEqual(Model.robotFacts(doc.robots[1], states[2].robots[1]).slice(-4), [
    'pending signal: yes (its step is secret until it acts)',
    'memories: x = 5, t = 0',
    'R0-R7: 0 0 0 0 0 0 0 0',
    'returns remembered: none (stopped by R/S)',
  ]);
  assert.deepEqual(Model.memoryLines(states[1].robots[0]), [
    'x = 3  t = -2  R0-R7: 3 0 0 0 0 0 0 7',
    'returns: step 8, step 14',
  ]);
  assert.deepEqual(Model.memoryLines(states[2].robots[1]), [
    'x = 5  t = 0  R0-R7: 0 0 0 0 0 0 0 0',
    'returns: none · stopped (R/S)',
  ]);
  // A destroyed robot: no memories; a plain match: no memory line anywhere.
  assert.deepEqual(Model.memoryLines(states[4].robots[0]), []);
  assert.deepEqual(Model.robotFacts(doc.robots[0], states[4].robots[0]), ['green.1 (program hunter)', 'destroyed']);
  const plain = Model.expand(tinyDoc());
  assert.deepEqual(Model.memoryLines(plain[1].robots[0]), []);
  assert.equal(Model.robotFacts(tinyDoc().robots[0], plain[1].robots[0]).length, 7);
});
