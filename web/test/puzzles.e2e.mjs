// The puzzle pages in Chromium (/play/ricochet and /play/micro, docs/PLAY-IN-BROWSER.md), as a
// player uses them, served by `robots serve --play web/dist` (scripts/web builds the folder),
// at 1280x800 and on a phone (390x844): a game id opened and solved by clicks in the fewest
// moves that `robots ricochet solve` finds → "the fewest is" (a move by a swipe too, undone);
// each hint level against `ricochet hint`'s words; undo; the share link opened in a fresh page giving the same
// position; the puzzle of the day the same in two pages; a 25-move solve stopped by the button,
// the page still playing; a round of the full game against the computers (a bid lowered, the
// moves shown on the board, the token counted, the log `robots ricochet play`'s); a Micro
// Robots mission won by clicking the cells `robots micro solve` gives. No request leaves the
// server.
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

/** A fresh page of `/play/NAME#fragment` at `size`, its problems and outside requests
 * collected; `clock`: the page's clock is Playwright's, moved by the test. */
async function openPage(name, size, fragment = '', { clock = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width: size.width, height: size.height }, hasTouch: size.width < 500 });
  context.setDefaultTimeout(30_000);
  if (clock) await context.clock.install();
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

/** A board file of the silver face laid out as the Micro page shows it (its arrangement in
 * words), for `robots micro solve`: its path. */
async function microBoardFile(page, name) {
  const words = await page.textContent('#arrangement-words');
  const layout = Object.fromEntries(words.split(', ').map((w) => {
    const [, corner, tile, turns] = w.match(/^(\w\w) tile (\d) turned (\d)$/);
    return [corner, [Number(tile), Number(turns)]];
  }));
  const board = path.join(env.dir, name);
  fs.writeFileSync(board, `face: silver\nlayout: {NW: [${layout.NW}], NE: [${layout.NE}], SE: [${layout.SE}], SW: [${layout.SW}]}\n`);
  return board;
}

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

for (const size of SIZES) {
  test(`ricochet game at ${size.name}: a round against the computers, a bid lowered, the demonstration accepted, the token counted`, async () => {
    const { context, page, problems } = await openPage('ricochet', size, '', { clock: true });
    // The page's clock stands still from here: it moves only as the test moves it.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    await page.fill('#game-seed', '5');
    await page.selectOption('#game-players', '2');
    await page.selectOption('#game-strength', '1');
    await page.click('#open-game button');
    await page.waitForSelector('#game[data-state="bidding"][data-round="1"]');
    const id = await page.inputValue('#id');
    const best = solved(id);
    const words = best.solution.map((m) => `${m.robot} ${m.dir}`).join(', ');
    const logText = () => page.textContent('#game-log');
    await page.clock.runFor(1_500);
    await page.fill('#bid', String(best.moves + 2));
    await page.click('#bid-button');
    await page.waitForFunction((n) => document.querySelector('#game-log').textContent.includes(`you bids ${n}`), best.moves + 2);
    await page.clock.runFor(2_000);
    await page.fill('#bid', String(best.moves));
    await page.click('#bid-button');
    await page.waitForFunction((n) => document.querySelector('#game-log').textContent.includes(`you lowers to ${n}`), best.moves);
    assert.match(await page.textContent('#game-status'), /Sand timer: \d+ s left/);
    // The solution played on the board while the timer runs.
    for (const m of best.solution) {
      await page.click(`#board [data-robot="${m.robot}"] circle`);
      await page.click(`#pad [data-dir="${m.dir}"]`);
    }
    await page.waitForFunction((n) => document.querySelector('#count').value === String(n), best.moves);
    // The sand timer runs out a minute after the first bid: the player shows the moves.
    // (Each answer asks the page to wait again: the clock is moved until the game asks.)
    await page.clock.runFor(60_000);
    for (let i = 0; i < 100 && !(await page.$('#game[data-state="demonstrate"]')); i++) {
      await page.waitForTimeout(50);
      await page.clock.runFor(200);
    }
    await page.waitForSelector('#game[data-state="demonstrate"]');
    assert.equal(await page.textContent('#game-status'), `Show your ${best.moves} moves: play them on the board, then press Show my moves.`);
    await page.click('#show-moves');
    await page.waitForSelector('#game[data-round="2"]');
    await page.waitForSelector('#scores [data-player="you"][data-tokens="1"]');
    const log = (await logText()).split('\n');
    assert.ok(log.includes(`  you shows ${best.moves} moves: ${words}; wins the token (1 now)`), log.join('\n'));
    // The round in `robots ricochet play`'s words, the same answers at the same seconds (a
    // pass timed after the sand timer ran out lets the script's timer run out: it is not
    // heard). The command's standard output also holds its board and prompts: its notes kept.
    const script = `@1.5 ${best.moves + 2}\n@3.5 ${best.moves}\n@70 pass\n${words}\nquit\n`;
    const cli = spawnSync(bin, ['ricochet', 'play', '--seed', '5', '--players', '2', '--strength', '1', '--human', 'you'], { cwd: env.dir, encoding: 'utf8', input: script, timeout: 60_000 });
    const notes = cli.stdout.split('\n').filter((l) => /^(Ricochet Robots on |round \d+:|  (after \d|\S+ shows |\S+ cannot |\S+ needs |no bid|nobody))/.test(l));
    const upTo = log.findIndex((l) => l.startsWith('round 2:'));
    assert.ok(upTo > 0, log.join('\n'));
    assert.deepEqual(log.slice(0, upTo + 1), notes.slice(0, upTo + 1));
    assert.ok(log.slice(0, upTo).some((l) => l.startsWith('  after ') && !l.includes('you')), 'a computer bid in the round');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `ricochet-game-${size.name}.png`);
    // The game ended by the player: the scores so far.
    await page.click('#quit-game');
    await page.waitForSelector('#game[data-state="over"]');
    assert.match(await logText(), /you quit: the game ends here/);
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

test('ricochet: a hostile 64 x 64 board stops at the page\'s budget with words, the page alive', async () => {
  const { context, page, problems } = await openPage('ricochet', SIZES[0]);
  // No wall: the red robot's target in the middle, which only robots stopping one another reach.
  const big = 'name: big 64x64\nsize: [64, 64]\ntargets:\n  - [31, 33, red, circle]\nbases:\n  red: [0, 0]\n  green: [63, 0]\n  blue: [0, 63]\n  yellow: [63, 63]\n';
  const started = Date.now();
  await page.setInputFiles('#open-file', { name: 'big.yaml', mimeType: 'text/plain', buffer: Buffer.from(big) });
  await page.waitForFunction(() => /gave up after 500000 states, the most the page searches/.test(document.querySelector('#message').textContent), null, { timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;
  assert.ok(seconds < 60, `stopped after ${seconds} s`);
  // The tab is alive: a move plays.
  await page.keyboard.press('r');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#count').value === '1');
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
    const board = await microBoardFile(page, 'micro-board.yaml');
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

for (const size of SIZES) {
  test(`micro race at ${size.name}: a mission won against the computer on the page's clock, then the computer's announcement`, async () => {
    const { context, page, problems } = await openPage('micro', size, '#face=silver&seed=12&variant=standard', { clock: true });
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    await page.selectOption('#race-players', '2');
    await page.selectOption('#race-strength', '1');
    await page.click('#open-race button');
    await page.waitForSelector('#race[data-state="announce"][data-mission="1"]');
    const [, from, to] = (await page.textContent('#mission')).match(/^From (\w\d) to (\w\d)\.$/);
    const board = await microBoardFile(page, 'micro-race-board.yaml');
    const way = JSON.parse(robots(['micro', 'solve', board, '--from', from, '--to', to, '--json']));
    // Announced a second after the roll, before the computer (strength 1 takes longer).
    await page.clock.runFor(1_000);
    await page.fill('#announce', String(way.moves));
    await page.click('#announce-button');
    await page.waitForSelector('#race[data-state="demonstrate"]');
    for (const cell of way.path.slice(1)) await page.click(`#micro-board [data-cell="${cell}"]`);
    await page.click('#race-show');
    await page.waitForSelector('#race[data-mission="2"]');
    await page.waitForSelector('#race-scores [data-player="you"][data-tokens="1"]');
    const log = (await page.textContent('#race-log')).split('\n');
    assert.ok(log.includes('  after 1 s, you announces ' + way.moves), log.join('\n'));
    assert.ok(log.some((l) => l.startsWith(`  you shows ${way.path.join(' → ')}: ${way.moves} moves as announced, and wins the token (1 now)`)), log.join('\n'));
    await shot(page, `micro-race-${size.name}.png`);
    // Mission 2 unanswered: the computer announces when the page's clock reaches its time.
    for (let i = 0; i < 200 && !(await page.$('#race[data-mission="3"]')) && !(await page.$('#race[data-state="over"]')); i++) {
      await page.clock.runFor(2_000);
      await page.waitForTimeout(20);
    }
    const after = await page.textContent('#race-log');
    assert.match(after, /mission 2: [\s\S]*(Ada announces|nobody)/);
    await page.click('#race-end');
    await page.waitForSelector('#race[data-state="over"]');
    assert.match(await page.textContent('#race-log'), /you leaves the table/);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
