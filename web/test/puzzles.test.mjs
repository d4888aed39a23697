// Unit tests of the puzzle pages' pure parts: the share link's fragment (web/puzzles/
// fragment.js), the day's date, and the board's directions from a click or a swipe
// (web/puzzles/board.js). Run: node --test web/test/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRicochet, writeRicochet, readMicro, writeMicro, today } from '../puzzles/fragment.js';
import { towards, swipe } from '../puzzles/board.js';

test('a Ricochet position goes into the fragment and comes back', () => {
  for (const spec of [
    { id: '0765+42+2E21BD0F+93' },
    { id: '0765+42+2E21BD0F+93', mustRicochet: false, noSingleMove: true },
    { seed: 7, robots: 5 },
    { seed: 12, robots: 4, mustRicochet: false },
    { day: '2026-11-28', moves: 7 },
  ]) {
    assert.deepEqual(readRicochet(writeRicochet(spec)), spec, writeRicochet(spec));
  }
  assert.equal(writeRicochet({ id: '0765+42+2E21BD0F+93' }), '#id=0765+42+2E21BD0F+93');
});

test('a fragment of garbage names no position', () => {
  for (const hash of ['', '#', '#id=<script>', '#id=0765+42', '#seed=-1', '#seed=1e9', '#day=tomorrow&moves=7', '#day=2026-11-28&moves=40', '#%E0%A4%A', '#=&&==', `#id=${'0'.repeat(5000)}`]) {
    assert.equal(readRicochet(hash), null, hash);
  }
});

test('a Micro mission goes into the fragment and comes back; unknown values are dropped', () => {
  const m = { face: 'silver', seed: 12, variant: 'waypoint', roll: 5 };
  assert.deepEqual(readMicro(writeMicro(m)), m);
  assert.deepEqual(readMicro('#face=gold&variant=fast&roll=x&seed=1'), { seed: 1 });
});

test('the day is the UTC date, the same everywhere at the same moment', () => {
  assert.equal(today(new Date('2026-11-28T23:59:59Z')), '2026-11-28');
  assert.equal(today(new Date('2026-11-29T00:00:00+02:00')), '2026-11-28');
});

test('a click in line with the robot and a swipe give a direction', () => {
  assert.equal(towards([3, 4], [3, 0]), 'N');
  assert.equal(towards([3, 4], [3, 9]), 'S');
  assert.equal(towards([3, 4], [0, 4]), 'W');
  assert.equal(towards([3, 4], [8, 4]), 'E');
  assert.equal(towards([3, 4], [4, 5]), null);
  assert.equal(towards([3, 4], [3, 4]), null);
  assert.equal(swipe(40, 10), 'E');
  assert.equal(swipe(-5, -60), 'N');
  assert.equal(swipe(10, 10), null);
});
