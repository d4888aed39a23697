// What the arena's and the rooms' browser tests share: the binary run in a folder, and
// `robots check --format json` as the independent source of a program's diagnostics.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

// The colours of `robots ricochet board --svg` (src/ricochet/draw/svg.rs, src/text/palette.rs):
// the robots' discs, and the goal's ring (ink for the vortex: any robot).
const RICOCHET_FILLS = {
  '#d64541': 'red', '#3fa34d': 'green', '#3b6fd6': 'blue', '#e8c21c': 'yellow', '#a8a8a8': 'silver', '#222222': 'any',
};

/**
 * A Ricochet position read back from its picture, as `robots ricochet board --svg` draws it
 * (src/ricochet/draw/svg.rs: cells of 32 units and a margin of one cell; the walls one path
 * with square ends; the centre's cells filled #555555; a robot a disc of radius 0.34 cell,
 * the goal a ring of 0.44 cell in its robot's colour). `picture` is what the page holds:
 * `{width, paths: [{d, fill, linecap}], circles: [{cx, cy, r, fill, stroke}]}`.
 * Gives a custom board file (docs/FORMATS.md, "Custom boards": the walls, the centre; no
 * target, none is needed to solve) and a position file on it, for `robots ricochet solve`.
 */
export function ricochetPositionFromPicture(picture) {
  const c = 32;
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
