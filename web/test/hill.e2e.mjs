// "Put it on a hill" and the arena's editor in Chromium (docs/PLAY-IN-BROWSER.md, "On an
// arena"), on `robots serve --play web/dist` (scripts/web builds the folder) with a `duel`
// hill: a player signs up, writes a program with a mistake on /play, puts it on the hill;
// the submission page (its address naming no text) shows the text in /play's editor with
// the diagnostic `robots check` gives, before anything is sent; submitted, the server
// refuses it as before; fixed in the editor, it is submitted and placed. The battle room's
// writing page: its program box is the same editor, read-only until the player sits, its
// diagnostic shown as one types, what the room's server receives is the editor's text, and
// the page opened again shows the server's program in the editor. "Challenge first" on /play
// carries the text to the same page's challenge fields, where it challenges a shipped program
// unsaved: the challenge is played and nothing is submitted.
// At 1280x800 and on a phone (390x844). No request leaves the server. The same folder served
// as plain static files, with no arena: no "Put it on a hill". (Without web/dist the arena's
// pages are the plain forms: web/test/arena.e2e.mjs and rooms.e2e.mjs use them so.)
// Run: node --test web/test/hill.e2e.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';
import {
  checkDiagnostics, closeAll, createRoom, launchChromium, runRobots, seatSel, signUp, sortDiagnostics, submitBy,
  watchedPage,
} from './support.mjs';

const dist = path.resolve(root, process.env.PLAY_DIST || 'web/dist');
const out = path.join(target, 'hill-e2e');
const HILL = 'duel';
const PASSWORD = 'correct horse 42';
const SIZES = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
const WRONG = 'name: mine\n1: D+1\n2: GOO 1\n3: RAZ\n';
const FIXED = 'name: mine\n1: D+1\n2: GO 1\n';
const env = {};

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'enhance.js')), `no ${dist}/enhance.js: run scripts/web first`);
  const { dir, db } = freshFolder(out, 'robots-hill-');
  env.dir = dir;
  runRobots(bin, dir, ['serve', 'hill', 'create', HILL, '--db', db, '--board', 'duel', '--size', '20', '--seeds', '1..2', '--robots', '1']);
  env.server = new RobotsServer({ bin, dir, db, args: ['--play', dist] });
  env.base = await env.server.start();
  env.browser = await launchChromium(chromium);
});

after(() => closeAll({ browser: env.browser, server: env.server, dir: env.dir, out }));

/** `robots check --format json` on `source`, as `{line, column, severity}` sorted. */
const cli = (source) => sortDiagnostics(checkDiagnostics(bin, env.dir, source).map(({ line, column, severity }) => ({ line, column, severity })));

/** The diagnostics a list `ul` shows, as `{line, column, severity}` sorted. */
const shown = async (page, ul) => sortDiagnostics(await page.$$eval(`${ul} li.diagnostic`, (lis) => lis.map((li) => ({
  line: Number(li.dataset.line),
  column: Number(li.dataset.column),
  severity: li.classList.contains('error') ? 'error' : 'warning',
}))));

/** Waits until the list `ul` shows `expected` (the editor checks as one types, the last word wins). */
async function waitShown(page, ul, expected, ms = 10_000) {
  const deadline = Date.now() + ms;
  let seen = await shown(page, ul);
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    seen = await shown(page, ul);
  }
  assert.deepEqual(seen, expected, `${ul} on ${page.url()}`);
}

/** A signed-up player's page at `size`: `{context, page, problems}`. */
async function player(name, size) {
  const { context, page, problems } = await watchedPage(env.browser, env.base, size);
  await signUp(page, name, PASSWORD, { base: env.base });
  return { context, page, problems };
}

/** Replaces the text of the editor in `host` by typing it, as a player would. */
async function typeProgram(page, host, text) {
  await page.click(`${host} .cm-content`);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text, { delay: 0 });
}

/** Nothing wider than the viewport; the editor whole across. */
async function assertFits(page, size, host, where) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= size.width, `${where} at ${size.width}: the page is ${wide} px wide`);
  const box = await page.locator(host).boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= size.width && box.height >= 100, `${where}: the editor's box ${JSON.stringify(box)}`);
}

/** Waits until the program page says `placed` (arena.js reloads it as its status changes). */
async function waitPlaced(page, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const status = await page.getAttribute('#status', 'data-status', { timeout: 2_000 }).catch(() => null);
    if (status === 'placed') return;
    assert.ok(status === null || ['queued', 'playing'].includes(status), `status ${status}`);
    assert.ok(Date.now() < deadline, `not placed in ${seconds} s`);
    await page.waitForTimeout(200);
  }
}

for (const size of SIZES) {
  const tag = size.width > 600 ? 'desk' : 'phone';

  test(`at ${size.width}x${size.height}: /play → "Put it on a hill" → the editor's diagnostic, refused, fixed, placed`, { timeout: 120_000 }, async () => {
    const { context, page, problems } = await player(`hill_${tag}`, size);
    await page.goto(`${env.base}/play/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('body[data-arena="true"]');
    assert.deepEqual(await page.$$eval('#hill option', (os) => os.map((o) => o.value)), [HILL], 'the arena\'s hills offered');
    await typeProgram(page, '#editor', WRONG);
    await page.waitForSelector('#diagnostics li.diagnostic.error');

    await page.selectOption('#hill', HILL);
    await Promise.all([page.waitForURL(`${env.base}/hills/${HILL}/submit`), page.click('#to-hill')]);
    const url = new URL(page.url());
    assert.equal(url.search + url.hash, '', 'the address carries no text');
    await page.waitForSelector('body[data-editor="ready"]');
    assert.equal(await page.inputValue('textarea#source'), WRONG, 'the text arrived in the form');
    assert.equal(await page.isHidden('textarea#source'), true, 'the editor in the textarea\'s place');
    assert.equal(await page.inputValue('input#name'), 'mine', 'the tab\'s name');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'taken once from sessionStorage');
    // The diagnostic in the editor, before anything is sent: robots check's.
    const expected = cli(WRONG);
    assert.equal(expected.filter((d) => d.severity === 'error').length, 1);
    await waitShown(page, '#editor-diagnostics', expected);
    await page.waitForSelector('#source-editor .cm-lintRange-error');
    assert.equal(await page.locator('ul#diagnostics li').count(), 0, 'nothing asked of the server yet');
    await assertFits(page, size, '#source-editor', 'the submission page');
    await page.screenshot({ path: path.join(out, `hill-submit-${tag}.png`) });

    // Submitted anyway: the server refuses it, as it did.
    await page.fill('input#name', `mine_${tag}`);
    const refused = await submitBy(page, 'button#submit');
    assert.equal(refused.status(), 422, 'the arena checks it again');
    assert.deepEqual(await shown(page, 'ul#diagnostics'), expected, 'the server\'s diagnostics');
    await page.waitForSelector('body[data-editor="ready"]');
    assert.equal(await page.inputValue('textarea#source'), WRONG, 'the text kept');
    await waitShown(page, '#editor-diagnostics', expected);

    // Fixed in the editor: no error left; submitted and placed.
    await typeProgram(page, '#source-editor', FIXED);
    await page.waitForFunction(() => document.getElementById('source').value === 'name: mine\n1: D+1\n2: GO 1\n');
    await waitShown(page, '#editor-diagnostics', cli(FIXED));
    await submitBy(page, 'button#submit');
    assert.match(new URL(page.url()).pathname, /^\/programs\/[^/]+$/, `placed on its page, not ${page.url()}`);
    await waitPlaced(page);
    assert.equal((await page.textContent('pre#source')).trim(), FIXED.trim(), 'the text placed is the editor\'s');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`at ${size.width}x${size.height}: /play → "Challenge first" → the unsaved text challenges a shipped program`, { timeout: 90_000 }, async () => {
    const { context, page, problems } = await player(`chal_${tag}`, size);
    await page.goto(`${env.base}/play/`);
    await page.waitForSelector('body[data-arena="true"]');
    await typeProgram(page, '#editor', FIXED);
    await page.selectOption('#hill', HILL);
    await Promise.all([page.waitForURL(`${env.base}/hills/${HILL}/submit#challenge-fields`), page.click('#to-challenge')]);
    await page.waitForSelector('body[data-editor="ready"]');
    assert.equal(await page.inputValue('textarea#source'), FIXED, 'the text arrived in the form');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'taken once from sessionStorage');
    await assertFits(page, size, '#source-editor', 'the submission page at its challenge fields');
    const fields = await page.locator('#challenge-fields').boundingBox();
    assert.ok(fields && fields.y < size.height, `the challenge fields in view: ${JSON.stringify(fields)}`);
    await page.selectOption('#challenge-fields select#opponent', 'shipped:turret');
    await page.fill('#challenge-fields input#seeds', '1');
    await submitBy(page, '#challenge-fields button#challenge-button');
    assert.match(new URL(page.url()).pathname, /^\/challenges\/\d+$/, `on the challenge's page, not ${page.url()}`);
    const deadline = Date.now() + 30_000;
    while ((await page.getAttribute('#challenge-state', 'data-state')) !== 'done') {
      assert.ok(Date.now() < deadline, 'the challenge is played within 30 s');
      await page.waitForTimeout(300);
      await page.reload();
    }
    assert.equal(await page.locator('table#challenge-matches tr[data-n]').count(), 2, 'one seed both ways');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= size.width, `the challenge page is ${wide} px wide`);
    // Unsaved and unranked: the hill has no program of this player.
    const standings = await (await page.request.get(`${env.base}/api/v1/hills/${HILL}/standings`)).json();
    assert.ok(standings.every((row) => row.author !== `chal_${tag}`), 'nothing submitted');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`at ${size.width}x${size.height}: the battle room's program box is the editor with its diagnostics`, { timeout: 60_000 }, async () => {
    const { context, page, problems } = await player(`room_${tag}`, size);
    await createRoom(page, env.base, { board: 'duel', scenario: 1, robots: 1 });
    await page.waitForSelector('body[data-editor="ready"]');
    assert.equal(await page.isHidden('textarea#source'), true, 'the editor in the textarea\'s place');
    await page.waitForSelector('#source-editor .cm-content[contenteditable="false"]', { state: 'attached' });
    await page.click(`${seatSel('green')} button.sit`);
    await page.waitForSelector('#room[data-seat="green"]');
    await page.waitForSelector('#source-editor .cm-content[contenteditable="true"]');
    await typeProgram(page, '#source-editor', WRONG);
    assert.equal(await page.inputValue('textarea#source'), WRONG, 'the textarea follows the editor');
    await waitShown(page, '#editor-diagnostics', cli(WRONG));
    await page.waitForSelector('#source-editor .cm-lintRange-error');
    await assertFits(page, size, '#source-editor', 'the room');
    await page.screenshot({ path: path.join(out, `hill-room-${tag}.png`) });
    // What the room's server checks is the editor's text.
    await page.click('button#send-program');
    await waitShown(page, 'ul#diagnostics', cli(WRONG));
    await typeProgram(page, '#source-editor', FIXED);
    assert.equal(await page.inputValue('textarea#source'), FIXED);
    await waitShown(page, '#editor-diagnostics', cli(FIXED));
    await page.click('button#send-program');
    await page.waitForSelector('ul#diagnostics li.ok');
    // Opened again, the page gets the program from the room's server: the editor shows it.
    await page.reload();
    await page.waitForSelector('body[data-editor="ready"]');
    await page.waitForFunction(() => document.getElementById('source').value === 'name: mine\n1: D+1\n2: GO 1\n');
    await page.waitForFunction(() => document.querySelector('#source-editor').shadowRoot.querySelector('.cm-content').innerText.includes('2: GO 1'));
    const lines = await page.$$eval('#source-editor .cm-line', (ls) => ls.map((l) => l.textContent));
    assert.equal(lines.join('\n'), FIXED, 'the editor shows the server\'s program');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('as plain static files, with no arena, /play has no "Put it on a hill"', { timeout: 60_000 }, async () => {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
  const files = http.createServer((req, res) => {
    const name = new URL(req.url, 'http://x').pathname.replace(/^\/play\//, '') || 'index.html';
    const file = path.join(dist, path.basename(name));
    if (!/^[\w.-]+$/.test(name) || !fs.existsSync(file)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such file');
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' }).end(fs.readFileSync(file));
  });
  await new Promise((done) => files.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${files.address().port}`;
  try {
    const { context, page, problems } = await watchedPage(env.browser, base, SIZES[0]);
    const asked = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${base}/play/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('body[data-arena="false"]');
    assert.ok(asked.includes('/api/v1/hills'), 'the page asked for an arena\'s hills');
    assert.equal(await page.isHidden('#to-hill'), true, 'no button');
    assert.equal(await page.isHidden('#to-challenge'), true, 'no challenge button');
    assert.equal(await page.isHidden('#hill'), true, 'no choice of hill');
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    files.close();
  }
});
