// The puzzle pages in Chromium (/play/ricochet and /play/micro, docs/PLAY-IN-BROWSER.md), as a
// player uses them, served by `robots serve --play web/dist` (scripts/web builds the folder),
// at 1280x800 and on a phone (390x844): a game id opened and solved by clicks in the fewest
// moves that `robots ricochet solve` finds → "the fewest is" (a move by a swipe too, undone);
// each hint level against `ricochet hint`'s words; undo; the share link opened in a fresh page giving the same
// position; the puzzle of the day the same in two pages; a 25-move solve stopped by the button,
// the page still playing; a Micro Robots mission won by clicking the cells `robots micro
// solve` gives. No request leaves the server.
// Run: node --test web/test/puzzles.e2e.mjs (UPDATE_SCREENSHOT=1 writes docs/puzzles/*.png)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';
import { launchChromium, watchProblems, screenshots } from './support.mjs';

const dist = path.resolve(root, process.env.PLAY_DIST || 'web/dist');
const out = path.join(target, 'puzzles-e2e');
const shot = screenshots(out, path.join(root, 'docs', 'puzzles'));
const env = {};
const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '390x844', width: 390, height: 844 },
];
/** The hardest position of the bench: 25 moves with R-B1 off. */
const H25 = '7650+42+E2302B12+C9';

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'ricochet.html')), `no ${dist}/ricochet.html: run scripts/web first`);
  const { dir, db } = freshFolder(out, 'robots-puzzles-');
  env.dir = dir;
  env.server = new RobotsServer({ dir, db, args: ['--play', dist, '--workers', '0'] });
  env.base = await env.server.start();
  env.browser = await launchChromium(chromium);
});

after(async () => {
  if (env.browser) await env.browser.close();
  if (env.server) {
    await env.server.stop();
    fs.writeFileSync(path.join(out, 'server.log'), env.server.log);
  }
  if (env.dir) fs.rmSync(env.dir, { recursive: true, force: true });
});

/** `robots ARGS`: its stdout. */
function robots(args) {
  const r = spawnSync(bin, args, { cwd: env.dir, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `robots ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** A fresh page of `/play/NAME#fragment` at `size`, its problems and outside requests collected. */
async function openPage(name, size, fragment = '') {
  const context = await env.browser.newContext({ viewport: { width: size.width, height: size.height }, hasTouch: size.width < 500 });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const problems = [];
  watchProblems(page, problems);
  page.on('request', (r) => {
    if (!r.url().startsWith(env.base) && !/^(data|about|blob):/.test(r.url())) problems.push(`a request outside the server: ${r.url()}`);
  });
  await page.goto(`${env.base}/play/${name}${fragment}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page, problems };
}

/** Where each robot stands on the page: `{ red: "3,4", … }`. */
const robotCells = (page) =>
  page.$$eval('#board [data-robot]:not([data-goal])', (gs) => Object.fromEntries(gs.map((g) => [g.dataset.robot, `${g.dataset.x},${g.dataset.y}`])));

/** The position's id, the fewest moves and a solution, from the binary. */
function solved(id) {
  return JSON.parse(robots(['ricochet', 'solve', '--id', id, '--json']));
}

for (const size of SIZES) {
  test(`ricochet at ${size.name}: a game id solved by clicks in the fewest moves, hints, undo, share`, async () => {
    const id = robots(['ricochet', 'random', '--seed', '3', '--id']).trim();
    const best = solved(id);
    const { context, page, problems } = await openPage('ricochet', size, `#id=${id}`);
    assert.equal(await page.inputValue('#id'), id);
    const start = await robotCells(page);
    // One move, undone: the robot goes back.
    const first = best.solution[0];
    await page.click(`#board [data-robot="${first.robot}"] circle`);
    await page.click(`#pad [data-dir="${first.dir}"]`);
    await page.waitForFunction(() => document.querySelector('#count').value === '1');
    assert.notDeepEqual(await robotCells(page), start);
    await page.click('#undo');
    await page.waitForFunction(() => document.querySelector('#count').value === '0');
    assert.deepEqual(await robotCells(page), start);
    // The same move as a swipe from the robot, then undone by its key.
    const disc = await page.locator(`#board [data-robot="${first.robot}"] circle`).first().boundingBox();
    const [cx, cy] = [disc.x + disc.width / 2, disc.y + disc.height / 2];
    const [dx, dy] = { N: [0, -60], S: [0, 60], E: [60, 0], W: [-60, 0] }[first.dir];
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + dx, cy + dy, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelector('#count').value === '1');
    assert.equal(await page.textContent('#moves-played li'), `${first.robot} ${first.dir}`);
    await page.keyboard.press('u');
    await page.waitForFunction(() => document.querySelector('#count').value === '0');
    // The solution by clicks: the robot, then its direction.
    for (const m of best.solution) {
      await page.click(`#board [data-robot="${m.robot}"] circle`);
      await page.click(`#pad [data-dir="${m.dir}"]`);
    }
    await page.waitForSelector(`#result[data-fewest="${best.moves}"]`);
    const result = await page.textContent('#result');
    assert.equal(result, `Reached in ${best.moves} moves — the fewest is ${best.moves}. You found it.`);
    const end = await robotCells(page);
    const goal = await page.$eval('#board [data-goal]', (g) => `${g.dataset.x},${g.dataset.y}`);
    assert.equal(end[await page.$eval('#board [data-goal]', (g) => g.dataset.robot)], goal);
    await page.waitForTimeout(400); // the last slide's transition, for the picture
    if (size.width > 500) await shot(page, `ricochet-${size.name}.png`);
    // Each hint, in ricochet hint's words.
    const file = path.join(env.dir, 'position.yaml');
    fs.writeFileSync(file, robots(['ricochet', 'random', '--seed', '3']));
    for (const level of [1, 2, 3]) {
      await page.click(`[data-hint="${level}"]`);
      const item = await page.waitForSelector(`#hints [data-level="${level}"]`);
      const lines = robots(['ricochet', 'hint', file, '--level', String(level)]).trim().split('\n');
      const shown = await item.textContent();
      if (level === 3) assert.match(shown, /^3: first move of an optimal solution: \w+ [NESW]$/);
      else assert.equal(shown, `${level}: ${lines.join('; ')}`);
    }
    await page.click('#solutions');
    await page.waitForSelector('#solution-list [data-solution="0"]');
    if (size.width < 500) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `ricochet-${size.name}.png`);
    }
    // The share link in a fresh page: the same position.
    await page.click('#share');
    const link = await page.inputValue('#share-link');
    const fresh = await openPage('ricochet', size, new URL(link).hash);
    assert.deepEqual(await robotCells(fresh.page), start);
    assert.equal(await fresh.page.inputValue('#id'), id);
    assert.deepEqual(fresh.problems, []);
    await fresh.context.close();
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('ricochet: the puzzle of the day is the same in two pages, and a shared one too', async () => {
  const size = SIZES[0];
  const ids = [];
  for (let i = 0; i < 2; i++) {
    const { context, page, problems } = await openPage('ricochet', size);
    await page.selectOption('#difficulty', '6');
    await page.click('#open-daily button');
    await page.waitForFunction(() => /^puzzle of /.test(document.querySelector('#about').textContent));
    const about = await page.textContent('#about');
    const id = about.split('game id ')[1];
    ids.push(id);
    assert.equal(solved(id).moves, 6, about);
    assert.match(page.url(), /#day=\d{4}-\d\d-\d\d&moves=6$/);
    if (i === 1) {
      const shared = await openPage('ricochet', size, new URL(page.url()).hash);
      await shared.page.waitForFunction(() => document.querySelector('#id').value !== '');
      assert.equal(await shared.page.inputValue('#id'), id);
      await shared.context.close();
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
  assert.equal(ids[0], ids[1]);
});

test('ricochet: a 25-move solve stopped by the button, the page still playing', async () => {
  const { context, page, problems } = await openPage('ricochet', SIZES[0], `#id=${H25}&rb1=0`);
  await page.waitForSelector('#stop:not([hidden])');
  await page.click('[data-hint="1"]');
  await page.click('#stop');
  await page.waitForSelector('#stop[hidden]', { state: 'attached' });
  assert.equal(await page.$$eval('#hints li', (l) => l.length), 0);
  const before = await robotCells(page);
  await page.keyboard.press('b');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#count').value === '1');
  assert.notDeepEqual(await robotCells(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const size of SIZES) {
  test(`micro at ${size.name}: a mission won by clicking the cells`, async () => {
    const { context, page, problems } = await openPage('micro', size, '#face=silver&seed=12&variant=waypoint&roll=5');
    const mission = await page.textContent('#mission');
    const [, from, to, via] = mission.match(/^From (\w\d) to (\w\d), stopping on (\w\d) on the way\.$/);
    // The arrangement the page shows is `micro play --seed 12`'s; the way from the binary on
    // a board file laid out the same.
    const words = await page.textContent('#arrangement-words');
    const layout = Object.fromEntries(words.split(', ').map((w) => {
      const [, corner, tile, turns] = w.match(/^(\w\w) tile (\d) turned (\d)$/);
      return [corner, [Number(tile), Number(turns)]];
    }));
    const board = path.join(env.dir, 'micro-board.yaml');
    fs.writeFileSync(board, `face: silver\nlayout: {NW: [${layout.NW}], NE: [${layout.NE}], SE: [${layout.SE}], SW: [${layout.SW}]}\n`);
    const way = JSON.parse(robots(['micro', 'solve', board, '--from', from, '--to', to, '--via', via, '--json']));
    // A wrong click first: refused, nothing counted.
    const wrong = await page.$$eval('#micro-board [data-cell]', (cells, f) => {
      const here = cells.find((c) => c.dataset.cell === f);
      const bad = cells.find((c) => c.dataset.row !== here.dataset.row && c.dataset.col !== here.dataset.col);
      return bad.dataset.cell;
    }, from);
    await page.click(`#micro-board [data-cell="${wrong}"]`);
    await page.waitForSelector('#message:not([hidden])');
    assert.equal(await page.textContent('#count'), '0');
    for (const cell of way.path.slice(1)) await page.click(`#micro-board [data-cell="${cell}"]`);
    await page.waitForSelector(`#result[data-fewest="${way.moves}"]`);
    assert.equal(await page.textContent('#result'), `Mission won in ${way.moves} moves — the fewest is ${way.moves}.`);
    await page.click('[data-hint="1"]');
    assert.equal(await page.textContent('#hints [data-level="1"]'), `1: fewest moves: ${way.moves}`);
    await shot(page, `micro-${size.name}.png`);
    assert.equal(await page.isDisabled('#next'), false);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
