// The arena's front door and its pages on a phone (390x844) and a desktop (1280x800), in
// Debian's Chromium driven by playwright-core against `robots serve` on a fresh database
// (a `duel` hill made by `robots serve hill create`, two programs placed through the API):
// the home page says what the game is, plays a recent match on a small board (its turns go
// by), and its links work (/play, the rooms, the tutorial, the hill, the match's viewer); the hill, a program and the account page never overflow the screen sideways
// (`scrollWidth <= innerWidth`), their tables scrolling inside their own boxes, nor do an
// event's pages (an event of the two made by `robots serve event create`, played); on the
// account page a token is made and revoked and the password changed with the forms.
// Run: node --test web/test/arena-front.e2e.mjs. Screenshots go to <target>/arena-front-e2e/;
// UPDATE_SCREENSHOT=1 also writes docs/arena/front-*.png, event-*.png and account-phone.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { bin, root, target } from './server.mjs';
import { closeAll, runRobots, screenshots, signUp, sleep, startServerAndBrowser, submitBy, watchProblems } from './support.mjs';

const out = path.join(target, 'arena-front-e2e');
const screenshot = screenshots(out, path.join(root, 'docs', 'arena'));
const PASSWORD = 'correct horse 42';
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
let env;
let programId;
let eventId;

before(async () => {
  fs.mkdirSync(out, { recursive: true });
  env = await startServerAndBrowser(out, 'arena-front-', chromium);
  const db = path.join(env.dir, 'arena.sqlite');
  runRobots(bin, env.dir, ['serve', 'hill', 'create', 'duel', '--db', db, '--board', 'duel', '--size', '20', '--seeds', '1..2', '--robots', '1']);
});

after(() => closeAll({ browser: env?.browser, server: env?.server, dir: env?.dir, out }));

/** The page does not run off the screen sideways. */
async function fits(page, where) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(scroll <= inner, `${where}: the page is ${scroll} px wide in a ${inner} px window`);
}

async function api(method, url, data, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(env.base + url, { method, headers, body: data ? JSON.stringify(data) : undefined });
  return { status: r.status, body: await r.json() };
}

test('two programs are placed on the hill through the API', { timeout: 60_000 }, async () => {
  const programs = ['hunter', 'turret'];
  for (const [i, name] of programs.entries()) {
    const account = await api('POST', '/api/v1/accounts', { name: `author${i}`, password: PASSWORD });
    assert.equal(account.status, 201, JSON.stringify(account.body));
    const source = fs.readFileSync(path.join(root, 'programs', `${name}.robot`), 'utf8');
    const sent = await api('POST', '/api/v1/hills/duel/programs', { name: `${name}_${i}`, source }, account.body.token);
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    programId ??= sent.body.id;
  }
  const deadline = Date.now() + 40_000;
  while ((await api('GET', '/api/v1/hills/duel/standings')).body.length < 2) {
    assert.ok(Date.now() < deadline, 'both programs placed within 40 s');
    await sleep(200);
  }
});

test('an event among the two is scheduled from the command line and played', { timeout: 60_000 }, async () => {
  const db = path.join(env.dir, 'arena.sqlite');
  runRobots(bin, env.dir, ['serve', 'event', 'create', 'duel', '--db', db, '--at', 'now', '--seeds', '2']);
  const deadline = Date.now() + 40_000;
  let event;
  do {
    assert.ok(Date.now() < deadline, 'the event played within 40 s');
    await sleep(200);
    event = (await api('GET', '/api/v1/hills/duel/events')).body[0];
  } while (!event || event.state !== 'done');
  eventId = event.id;
  assert.equal(event.total, 4, 'one pair, two seeds, both ways');
});

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`the front door, the hill, a program and the account page fit a ${size}`, { timeout: 60_000 }, async () => {
    const context = await env.browser.newContext({ viewport });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const problems = [];
    watchProblems(page, problems);
    const visit = async (url, status = 200) => {
      const r = await page.goto(env.base + url);
      assert.equal(r.status(), status, `GET ${url}`);
      await fits(page, `${url} on a ${size}`);
    };
    await visit('/');
    assert.match(await page.textContent('#intro'), /program/i, 'the home page says what the game is');
    assert.equal(await page.locator('#intro p.lead').count(), 2, 'in two lines');
    assert.match(await page.textContent('table#hills td.leader'), /_\d by author\d/, 'the hill with its leader');
    // A recent match plays on a small board (front.js): its turns go by, both robots drawn.
    await page.waitForSelector('figure#recent[data-state="playing"]');
    const turn = () => page.getAttribute('figure#recent', 'data-turn');
    const first = await turn();
    await page.waitForFunction((t) => document.getElementById('recent').dataset.turn !== t, first, { timeout: 8_000 });
    assert.equal(await page.locator('#recent-board g.robot').count(), 2, 'one robot a side');
    const board = await page.locator('#recent-board').boundingBox();
    assert.ok(board && board.x >= 0 && board.x + board.width <= viewport.width && board.height > 100, `the board's box ${JSON.stringify(board)}`);
    assert.match(await page.textContent('#recent-turn'), /^turn \d+ of \d+, round \d+$/);
    const watch = await page.getAttribute('a#recent-link', 'href');
    assert.match(watch, /^\/matches\/\d+$/);
    await screenshot(page, `front-${size}.png`);
    // Each door leads somewhere that answers.
    for (const [id, expected] of [['#play-link', /\/play\/?$/], ['#tutorial-link', /\/tutorial$/], ['#rooms-link', /\/(rooms|signin)$/]]) {
      await visit('/');
      const r = await submitBy(page, id);
      assert.ok(r === null || r.status() < 400, `${id} answered ${r?.status()}`);
      assert.match(page.url(), expected, `${id} leads to ${page.url()}`);
      if (!page.url().includes('/play')) await fits(page, `${page.url()} on a ${size}`);
    }
    assert.match(await (await page.goto(`${env.base}/tutorial`)).text(), /Your first program/);
    await visit(watch);
    await page.waitForSelector('#board g.robot');
    await visit('/hills/duel');
    assert.equal(await page.locator('table#standings tr[data-program]').count(), 2);
    await visit('/hills/duel/events');
    assert.equal(await page.locator('table#events tr[data-event]').count(), 1);
    await visit(`/events/${eventId}`);
    assert.equal(await page.getAttribute('#event-state', 'data-state'), 'done');
    await screenshot(page, `event-${size}.png`);
    await visit(`/programs/${programId}`);
    // Signed in: the account page and its forms.
    await signUp(page, `front_${size}`, PASSWORD, { base: env.base });
    await visit('/account');
    await submitBy(page, 'form#new-token button');
    const token = (await page.textContent('code#token')).trim();
    assert.equal((await api('GET', '/api/v1/tokens', null, token)).status, 200, 'the new token works');
    await fits(page, `/account with a new token on a ${size}`);
    assert.equal(await page.locator('table#tokens tr[data-token]').count(), 1);
    if (size === 'phone') await screenshot(page, 'account-phone.png');
    await submitBy(page, 'table#tokens form.revoke button');
    assert.equal(await page.locator('table#tokens tr[data-token]').count(), 0, 'the token is gone from the list');
    assert.equal((await api('GET', '/api/v1/tokens', null, token)).status, 401, 'a revoked token gets 401');
    await page.fill('form#password input[name=password]', PASSWORD);
    await page.fill('form#password input[name=new_password]', `${PASSWORD} again`);
    const changed = await submitBy(page, 'form#password button');
    assert.equal(changed.status(), 200);
    assert.match(await page.textContent('p#done'), /password is changed/);
    await fits(page, `/account after the password change on a ${size}`);
    await visit('/account');
    assert.deepEqual(problems, [], 'no page error');
    await context.close();
  });
}
