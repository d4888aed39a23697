// The /play page in Chromium (docs/PLAY-IN-BROWSER.md), as a player uses it, served by
// `robots serve --play web/dist` (scripts/web builds the folder): a mistake typed and its
// diagnostic at `robots check`'s line and column within 200 ms, fixed and gone; a match run
// against hunter (the text `robots run` prints, the viewer playing); the debugger's
// transcript equal to `robots debug --script`'s for the same commands; a share link opened
// in a fresh page giving the same match; a 100-seed duel equal to `robots duel`'s counts,
// with progress and no long task over 200 ms on the page's thread; Stop; a 4 MiB program,
// a 2,000,000-round match and a garbage link answered with words, the page alive; the
// layout at 1280x800, 800x600 and on a phone (390x844). No request leaves the server.
// Run: node --test web/test/play.e2e.mjs (UPDATE_SCREENSHOT=1 writes docs/play*.png)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';
import { checkDiagnostics, launchChromium, screenshots, watchedPage } from './support.mjs';

const dist = path.resolve(root, process.env.PLAY_DIST || 'web/dist');
const out = path.join(target, 'play-e2e');
const shot = screenshots(out, path.join(root, 'docs'));
/** A screenshot kept with the test's output only. */
const localShot = (page, name) => page.screenshot({ path: path.join(out, name) });
const env = {};

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'robots.wasm')), `no ${dist}/robots.wasm: run scripts/web first`);
  const { dir, db } = freshFolder(out, 'robots-play-');
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

/** `robots ARGS` in the test's folder: its stdout (and its exit code checked against `status`). */
function robots(args, status = 0) {
  const r = spawnSync(bin, args, { cwd: env.dir, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, status, `robots ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/**
 * A fresh page of the play page at `size`, its long tasks recorded (`window.longTasks`),
 * its problems and any request outside the server collected; ready to use.
 */
async function openPlay(size, fragment = '') {
  const { context, page, problems } = await watchedPage(env.browser, env.base, size);
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${env.base}/play/${fragment}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page, problems };
}

/** The viewer's frame (the srcdoc iframe), once drawn. */
async function viewerFrame(page) {
  const handle = await page.waitForSelector('iframe#viewer');
  const frame = await handle.contentFrame();
  await frame.waitForSelector('body[data-ready="true"]');
  return frame;
}

/** Replaces the editor's text by typing it, as a player would. */
async function typeProgram(page, text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text, { delay: 0 });
}

/** The page's diagnostics: `{line, column, severity, id, message}` from `ul#diagnostics`. */
const listed = (page) => page.$$eval('#diagnostics li.diagnostic', (lis) => lis.map((li) => ({
  line: Number(li.dataset.line),
  column: Number(li.dataset.column),
  severity: li.classList.contains('error') ? 'error' : 'warning',
  message: li.querySelector('.text').textContent,
})));

const WRONG = 'name: mine\n1: D+1\n2: GOO 1\n3: RAZ\n';
const RIGHT = 'name: mine\n1: ?1\n2: T\n3: R+1\n4: RAZ\ntest 1: enemy ahead within 2\n';

test('a player writes, runs, steps, shares and duels; the page agrees with the binary', async () => {
  const { page, problems } = await openPlay({ width: 1280, height: 800 });
  // A mistake: its diagnostic where `robots check` puts it, within 200 ms of the last key.
  await page.evaluate(() => {
    window.lastKey = 0;
    window.addEventListener('keydown', () => { window.lastKey = performance.now(); }, true);
    window.shown = [];
    new MutationObserver(() => {
      window.shown.push({ at: performance.now(), text: document.getElementById('diagnostics').textContent });
    }).observe(document.getElementById('diagnostics'), { childList: true, subtree: true });
  });
  await typeProgram(page, WRONG);
  const expected = checkDiagnostics(bin, env.dir, WRONG).map(({ line, column, severity, message }) => ({ line, column, severity, message }));
  assert.ok(expected.length > 0 && expected[0].severity === 'error', JSON.stringify(expected));
  const same = (l) => l.length === expected.length && l.every((d, i) => d.line === expected[i].line && d.column === expected[i].column);
  let got = await listed(page);
  for (let waited = 0; !same(got) && waited < 5000; waited += 10) {
    await page.waitForTimeout(10);
    got = await listed(page);
  }
  assert.deepEqual(got, expected);
  const latency = await page.evaluate((message) => {
    const first = window.shown.find((s) => s.at > window.lastKey && s.text.includes(message));
    return first ? first.at - window.lastKey : null;
  }, expected[0].message);
  assert.ok(latency !== null && latency <= 200, `the diagnostic shown ${latency} ms after the last key`);
  fs.writeFileSync(path.join(out, 'diagnostic-latency.txt'), `${latency.toFixed(1)} ms\n`);
  assert.ok(await page.$('.cm-lintRange-error'), 'the mistake is underlined');

  // Fixed: no diagnostic.
  await typeProgram(page, RIGHT);
  await page.waitForFunction(() => document.querySelectorAll('#diagnostics li').length === 0
    && /ok \(program `mine`/.test(document.getElementById('check-summary').textContent));
  fs.writeFileSync(path.join(env.dir, 'mine.robot'), RIGHT);

  // Run against hunter: the text `robots run` prints, the viewer playing it.
  await page.selectOption('#side-a', 'tab:0');
  await page.selectOption('#side-b', 'shipped:hunter');
  await page.fill('#seed', '5');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.played === '1');
  const teams = ['--team', 'green=mine', '--team', 'violet=hunter', '--seed', '5'];
  assert.equal(await page.textContent('#run-text'), robots(['run', ...teams, '--color', 'never']));
  let frame = await viewerFrame(page);
  await frame.click('#speed');
  await frame.selectOption('#speed', '16');
  await frame.click('#play');
  await frame.waitForFunction(() => Number(document.body.dataset.turn) >= 3);
  await shot(page, 'play.png');

  // The debugger: the same transcript as `robots debug --script`, the board at its turn.
  const commands = ['break violet.1 step 11', 'continue', 'step', 'back', 'back turn', 'reverse-continue', 'show robot green.1', 'round', 'watch green.1 enemy within 4', 'continue'];
  await page.click('#debug');
  await page.waitForFunction(() => document.getElementById('debugger-view').dataset.turn === '0');
  for (const line of commands) {
    const before = await page.evaluate(() => document.getElementById('debug-transcript').textContent.length);
    await page.fill('#debug-command', line);
    await page.press('#debug-command', 'Enter');
    await page.waitForFunction((n) => document.getElementById('debug-transcript').textContent.length > n
      && document.getElementById('debugger-view').dataset.busy === 'false', before);
  }
  fs.writeFileSync(path.join(env.dir, 'commands.script'), `${commands.join('\n')}\n`);
  const native = robots(['debug', ...teams, '--script', 'commands.script']);
  assert.equal(await page.textContent('#debug-transcript'), native);
  const turn = Number(await page.getAttribute('#debugger-view', 'data-turn'));
  frame = await viewerFrame(page);
  await frame.waitForFunction((t) => Number(document.body.dataset.turn) === t, turn);
  await shot(page, 'play-debugger.png');

  // Share: the link opened in a fresh page plays the same match.
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  assert.match(link, /\/play\/#m=[A-Za-z0-9_-]+$/);
  const shared = await openPlay({ width: 1280, height: 800 }, link.slice(link.indexOf('#')));
  await shared.page.waitForFunction(() => document.body.dataset.played === '1');
  const data = async (p) => (await viewerFrame(p)).textContent('#match-data');
  assert.equal(await data(shared.page), await data(page));
  assert.equal(await shared.page.textContent('#run-text'), await page.textContent('#run-text'));
  assert.deepEqual(shared.problems, []);
  await shared.context.close();

  // A 100-seed duel in a worker: progress, the counts of `robots duel`, no long task.
  await page.evaluate(() => { window.longTasks = []; });
  await page.fill('#duel-seeds', '100');
  await page.click('#duel');
  await page.waitForFunction(() => {
    const p = document.getElementById('duel-progress');
    return p.value > 0 && p.value < p.max;
  });
  await page.waitForFunction(() => document.getElementById('duel-view').dataset.state === 'done', null, { timeout: 120_000 });
  const counts = await page.$eval('#duel-view', (v) => ({ wins: Number(v.dataset.wins), draws: Number(v.dataset.draws), losses: Number(v.dataset.losses) }));
  const duel = JSON.parse(robots(['duel', 'mine.robot', 'hunter', '--seeds', '1..100', '--format', 'json']));
  assert.deepEqual(counts, { wins: duel.wins, draws: duel.draws, losses: duel.losses });
  const longest = await page.evaluate(() => Math.max(0, ...window.longTasks));
  assert.ok(longest <= 200, `a task of ${longest} ms on the page's thread during the duel`);
  fs.writeFileSync(path.join(out, 'duel-longest-task.txt'), `${longest} ms over ${await page.evaluate(() => window.longTasks.length)} long tasks\n`);
  await localShot(page, 'play-duel.png');

  // The worst loss's link plays that match: the duel's rounds and result.
  const worst = await page.$eval('#duel-worst', (a) => ({ href: a.href, rounds: Number(a.dataset.rounds), score: a.dataset.score, hidden: a.hidden }));
  assert.equal(worst.hidden, false);
  const played = Number(await page.getAttribute('body', 'data-played'));
  await page.click('#duel-worst');
  await page.waitForFunction((n) => Number(document.body.dataset.played) === n + 1, played);
  const end = JSON.parse(await data(page)).end;
  assert.equal(end.rounds, worst.rounds);

  // Stop: the duel ends at once and moves no more.
  await page.fill('#duel-seeds', '10000');
  await page.click('#duel');
  await page.waitForFunction(() => Number(document.getElementById('duel-view').dataset.done) > 0);
  await page.click('#stop');
  await page.waitForFunction(() => document.getElementById('duel-view').dataset.state === 'stopped');
  const done = await page.getAttribute('#duel-view', 'data-done');
  await page.waitForTimeout(500);
  assert.equal(await page.getAttribute('#duel-view', 'data-done'), done);
  assert.equal(await page.isHidden('#stop'), true);
  assert.deepEqual(problems, []);
});

test('hostile input: a 4 MiB program, 2,000,000 rounds, a garbage link; the page stays alive', async () => {
  const { page, problems } = await openPlay({ width: 1280, height: 800 }, '#m=!!garbage');
  assert.match(await page.textContent('#message'), /damaged|not a shared match/);
  const alive = async () => assert.equal(await page.evaluate(() => 1 + 1), 2);

  const big = Buffer.alloc(4 * 1024 * 1024 + 1, 'x');
  await page.setInputFiles('#open-file', { name: 'big.robot', mimeType: 'text/plain', buffer: big });
  await page.waitForFunction(() => /4 MiB/.test(document.getElementById('message').textContent));
  await alive();
  const edge = Buffer.from(`1: RAZ\n${'#'.repeat(4 * 1024 * 1024 - 8)}\n`);
  assert.equal(edge.length, 4 * 1024 * 1024);
  await page.setInputFiles('#open-file', { name: 'edge.robot', mimeType: 'text/plain', buffer: edge });
  await page.waitForFunction(() => document.querySelector('#tabs [data-tab="edge"]')
    && /edge\.robot|not checked/.test(document.getElementById('check-summary').textContent), null, { timeout: 30_000 });
  await alive();

  await page.selectOption('#side-a', 'shipped:sentinel');
  await page.selectOption('#side-b', 'shipped:sentinel');
  await page.fill('#rounds', '2000000');
  await page.click('#run');
  await page.waitForFunction(() => /cannot be played/.test(document.getElementById('message').textContent)
    || document.body.dataset.played, null, { timeout: 60_000 });
  assert.match(await page.textContent('#message'), /100,000|100000|robot turns/);
  await alive();
  assert.deepEqual(problems, []);
});

test('the layout: whole at 1280x800 and 800x600, one column on a phone', async () => {
  for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 600 }, { width: 390, height: 844 }]) {
    const { context, page, problems } = await openPlay(size);
    await page.click('#run');
    await page.waitForFunction(() => document.body.dataset.played === '1');
    await viewerFrame(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${size.width}x${size.height}: ${overflow} px wider than the window`);
    for (const sel of ['#editor', '#run', '#side-b', '#viewer']) {
      const box = await page.locator(sel).boundingBox();
      assert.ok(box && box.width > 0 && box.height > 0, `${sel} shown at ${size.width}x${size.height}`);
      assert.ok(box.x >= 0 && box.x + box.width <= size.width + 1, `${sel} inside the window's width at ${size.width}x${size.height}`);
    }
    if (size.width === 800) await shot(page, 'play-800x600.png');
    if (size.width === 390) await localShot(page, 'play-phone.png');
    assert.deepEqual(problems, []);
    await context.close();
  }
});
