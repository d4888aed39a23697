// The arena (`robots serve`, docs/ARENA.md) in a real browser, as people use it: Debian's
// Chromium driven by playwright-core against a server started here on a fresh database in a
// temporary folder, with a `duel` hill made by `robots serve hill create`. Two users in two
// browser contexts (their own cookies) and an anonymous one: A signs up, checks and submits a
// program with errors (the diagnostics compared with `robots check --format json`, the
// independent source), then a good one with a secret comment and waits until it is placed; B
// signs up, tries names with markup in the form and the API and submits a program whose
// comment tries a script injection; the standings show both, a match of A opens in the viewer
// and steps; neither B nor a stranger ever receives A's text, in any page or API answer.
// Run: node --test web/test/arena.e2e.mjs. The binary is $ROBOTS_BIN, else
// $CARGO_TARGET_DIR/release/robots, else target/release/robots. Screenshots go to
// <target>/arena-e2e/; UPDATE_SCREENSHOT=1 also writes docs/arena/*.png (1100x800).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';
import {
  checkDiagnostics, closeAll, launchChromium, newContext, pageDiagnostics as pageDiagnosticsOf, runRobots, screenshots,
  signUp as signUpOnPage, sortDiagnostics, submitBy, watchProblems,
} from './support.mjs';

const out = path.join(target, 'arena-e2e');
const docsOut = path.join(root, 'docs', 'arena');
const HILL = 'duel';
const PASSWORD = 'correct horse 42';

// A's secret: its comment marker and lines of its text that appear nowhere else.
const MARKER = `secret-marker-${process.pid}-${Date.now().toString(36)}`;
const SECRETS = [MARKER, 'fires from point-blank range', 'behind-left within 6'];
const hunter = fs.readFileSync(path.join(root, 'programs', 'hunter.robot'), 'utf8');
const turret = fs.readFileSync(path.join(root, 'programs', 'turret.robot'), 'utf8');
const GOOD_A = `# ${MARKER}\n${hunter}`;
const BAD_A = GOOD_A.replace('\n2: GO 11 ', '\n2: GO 99 ');
const SYNTAX_ERROR = 'name: sketch\n\n1: D+1\n2: FOO\n3: GO 1\n';
const WARNING_ONLY = '# ends without GO or RAZ\n1: D+1\n2: T\n3: R+1\n';
const XSS_COMMENT = '# </textarea></pre></script><script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const GOOD_B = `${XSS_COMMENT}\n${turret}`;

let dir;
let server;
let base;
let browser;
const users = {};
const state = {};

const robots = (args) => runRobots(bin, dir, args);

const cliDiagnostics = (source) => checkDiagnostics(bin, dir, source);

/** The diagnostics the page lists in ul#diagnostics, each either an error or a warning. */
const pageDiagnostics = (page) => pageDiagnosticsOf(page, { errorOrWarning: true });

/** A browser context of its own (its own cookies), one page, and what it saw. */
async function newUser(name) {
  const context = await newContext(browser);
  const user = { name, context, problems: [], bodies: [], xss: [] };
  // A script run by injected markup reports itself even if the page is left at once.
  await context.exposeBinding('__xssHit', (_source, value) => user.xss.push(value));
  await context.addInitScript(() => {
    let value;
    Object.defineProperty(window, '__xss', {
      configurable: false,
      get: () => value,
      set: (v) => { value = v; window.__xssHit(String(v)); },
    });
  });
  const page = await context.newPage();
  watchProblems(page, user.problems);
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith('/x')) user.xss.push(`injected img requested ${r.url()}`);
  });
  // Every body the page receives, read as it arrives (it is gone once the page moves on).
  page.on('response', (r) => {
    user.bodies.push(r.body().then((b) => ({ url: r.url(), text: b.toString('latin1') }), () => null));
  });
  user.page = page;
  users[name] = user;
  return user;
}

/** No injected script ran and no injected element is on the page. */
async function assertClean(user, where) {
  const { page } = user;
  assert.equal(await page.evaluate(() => window.__xss), undefined, `window.__xss on ${where}`);
  assert.equal(await page.$('img[src=x]'), null, `an injected img on ${where}`);
  assert.equal(await page.$('#xss-b, #xss-i, #xss-s, [onerror]'), null, `an injected element on ${where}`);
  // The server's Content-Security-Policy may stop an injected script: its element is the sign.
  const scripts = await page.$$eval('script', (all) => all.filter((e) => e.textContent.includes('__xss')).length);
  assert.equal(scripts, 0, `an injected script element on ${where}`);
  assert.deepEqual(user.xss, [], `injected markup ran for ${user.name} (${where})`);
}

/** Opens `url` (a path), expecting `status`, and checks it is clean. */
async function visit(user, url, status = 200) {
  const response = await user.page.goto(base + url);
  assert.equal(response.status(), status, `GET ${url} as ${user.name}`);
  await assertClean(user, url);
  return response;
}

/** The paths the links inside `selector` lead to (on this server). */
function links(page, selector) {
  return page.$$eval(`${selector} a[href]`, (as) => as
    .filter((a) => new URL(a.href).origin === location.origin)
    .map((a) => new URL(a.href).pathname));
}

const screenshot = screenshots(out, docsOut);

/** Signs `user` up on /signup; the nav then names the account. */
async function signUp(user) {
  await visit(user, '/signup');
  const { page } = user;
  await signUpOnPage(page, user.name, PASSWORD);
  await assertClean(user, 'after sign-up');
  assert.equal(await page.locator('nav form#signout').count(), 1, 'a sign-out form');
  // A token for the API (which never reads the cookie).
  const r = await user.context.request.post(`${base}/api/v1/tokens`, { data: { name: user.name, password: PASSWORD } });
  assert.equal(r.status(), 201, `POST /api/v1/tokens: ${await r.text()}`);
  user.token = (await r.json()).token;
  assert.ok(typeof user.token === 'string' && user.token.length >= 16, 'a token');
}

/** Reloads the program page until its status is `placed` (bounded). */
async function waitPlaced(user, id, seconds = 30) {
  const { page } = user;
  const deadline = Date.now() + seconds * 1000;
  const seen = [];
  for (;;) {
    const status = await page.getAttribute('#status', 'data-status');
    if (seen.at(-1) !== status) seen.push(status);
    if (status === 'placed') return seen;
    assert.ok(['queued', 'playing'].includes(status), `program ${id}: status ${status} (seen ${seen})`);
    assert.ok(Date.now() < deadline, `program ${id} not placed in ${seconds} s (seen ${seen})`);
    await page.waitForTimeout(300);
    await visit(user, `/programs/${id}`);
  }
}

const api = (user, method, url, options = {}) => {
  const headers = user.token && options.auth !== false ? { Authorization: `Bearer ${user.token}` } : {};
  return user.context.request.fetch(base + url, { method, headers, data: options.data, failOnStatusCode: false });
};

before(async () => {
  const { dir: folder, db } = freshFolder(out, 'arena-e2e-');
  dir = folder;
  // One robot a side, said outright: the duel board has two start points a camp.
  robots(['serve', 'hill', 'create', HILL, '--db', db, '--board', 'duel', '--size', '20', '--seeds', '1..4', '--robots', '1']);
  assert.match(robots(['serve', 'hill', 'list', '--db', db]), new RegExp(`\\b${HILL}\\b`));
  server = new RobotsServer({ bin, dir, db });
  base = await server.start();
  browser = await launchChromium(chromium);
});

after(() => closeAll({ browser, server, dir, out }));

test('the server answers: health, the hill as created, pages for a stranger', { timeout: 15_000 }, async () => {
  const anon = await newUser('anonymous');
  const health = await api(anon, 'GET', '/healthz');
  assert.equal(health.status(), 200);
  assert.equal((await health.json()).status, 'ok');
  const hill = await (await api(anon, 'GET', `/api/v1/hills/${HILL}`)).json();
  assert.equal(hill.name, HILL);
  assert.equal(hill.size, 20);
  assert.deepEqual(hill.seeds, [1, 4]);
  assert.equal(hill.board, 'duel');
  const hills = await (await api(anon, 'GET', '/api/v1/hills')).json();
  assert.deepEqual(hills.map((h) => h.name), [HILL]);
  const missing = await api(anon, 'GET', '/api/v1/hills/no-such-hill');
  assert.equal(missing.status(), 404);
  assert.equal((await missing.json()).error, 'not_found');
  const wrongMethod = await api(anon, 'GET', '/api/v1/check');
  assert.equal(wrongMethod.status(), 405, 'GET /api/v1/check');
  assert.equal((await wrongMethod.json()).error, 'method_not_allowed');
  const wrongPassword = await api(anon, 'POST', '/api/v1/tokens', { data: { name: 'nobody', password: 'not the password' } });
  assert.equal(wrongPassword.status(), 401, 'POST /api/v1/tokens for no account');
  assert.equal((await wrongPassword.json()).error, 'unauthorized');
  await visit(anon, '/programs/999999', 404);
  assert.ok((await anon.page.textContent('p#error')).trim() !== '', 'p#error on a missing program\'s page');
  await visit(anon, '/');
  assert.ok((await links(anon.page, 'body')).includes(`/hills/${HILL}`), 'the home page links the hill');
  assert.equal(await anon.page.$('nav #who'), null, 'nobody is signed in');
  const nav = await links(anon.page, 'nav');
  assert.ok(nav.includes('/signin') && nav.includes('/signup'), `links to sign in and up: ${nav}`);
  await visit(anon, `/hills/${HILL}`);
  assert.equal(await anon.page.locator('table#standings tr[data-program]').count(), 0);
  // The settings given, and the defaults of `hill create` as docs/ARENA.md gives them.
  assert.deepEqual(
    { scenario: hill.scenario, robots: hill.robots, rounds: hill.rounds, keywords: hill.keywords },
    { scenario: 1, robots: 1, rounds: 200, keywords: 'plain' },
    'the defaults of `robots serve hill create` (docs/ARENA.md)',
  );
});

test('A signs up, checks a program in place, submits one with an error, then places a good one', { timeout: 45_000 }, async () => {
  const a = await newUser('alice');
  await signUp(a);
  const { page } = a;
  await visit(a, `/hills/${HILL}`);
  await submitBy(page, 'a#submit-link');
  assert.equal(new URL(page.url()).pathname, `/hills/${HILL}/submit`);
  await assertClean(a, 'the submit page');
  assert.equal(await page.locator('form#submit-form').count(), 1);

  // Checking stays on the page: the diagnostics come without a load.
  await page.evaluate(() => { window.__samePage = true; });
  let loads = 0;
  page.on('load', () => { loads += 1; });
  await page.fill('input#name', 'sketch');
  await page.fill('textarea#source', SYNTAX_ERROR);
  await page.click('button#check');
  await page.waitForSelector('ul#diagnostics li.diagnostic.error');
  const expected = cliDiagnostics(SYNTAX_ERROR);
  assert.ok(expected.some((d) => d.severity === 'error' && d.line === 4), JSON.stringify(expected));
  assert.deepEqual(sortDiagnostics(await pageDiagnostics(page)), sortDiagnostics(expected));
  await page.fill('textarea#source', WARNING_ONLY);
  await page.click('button#check');
  await page.waitForFunction(() => !document.querySelector('ul#diagnostics li.diagnostic.error')
    && document.querySelector('ul#diagnostics li.diagnostic.warning'));
  assert.deepEqual(sortDiagnostics(await pageDiagnostics(page)), sortDiagnostics(cliDiagnostics(WARNING_ONLY)));
  assert.equal(await page.evaluate(() => window.__samePage), true, 'button#check loaded a page');
  assert.equal(loads, 0, 'button#check loaded a page');

  // The API's check says the same.
  const check = await api(a, 'POST', '/api/v1/check', { data: { source: SYNTAX_ERROR, hill: HILL }, auth: false });
  assert.equal(check.status(), 200);
  const checked = await check.json();
  assert.equal(checked.ok, false);
  assert.deepEqual(
    sortDiagnostics(checked.diagnostics.map(({ line, column, severity, message }) => ({ line, column, severity, message }))),
    sortDiagnostics(expected),
  );

  // Submitting a program with an error: the page comes back with the diagnostics.
  const badLine = BAD_A.split('\n').findIndex((l) => l.startsWith('2: GO 99')) + 1;
  const badExpected = cliDiagnostics(BAD_A);
  assert.deepEqual(badExpected.map((d) => [d.severity, d.line]), [['error', badLine]]);
  await page.fill('input#name', 'hunter');
  await page.fill('textarea#source', BAD_A);
  const refused = await submitBy(page, 'button#submit');
  assert.ok(refused.status() < 500, `a refused submission answered ${refused.status()}`);
  await assertClean(a, 'the refused submission');
  assert.deepEqual(sortDiagnostics(await pageDiagnostics(page)), sortDiagnostics(badExpected));
  assert.equal(await page.locator(`ul#diagnostics li.diagnostic.error[data-line="${badLine}"]`).count(), 1);
  await screenshot(page, 'submit-errors.png');

  // Fixed, it is accepted and placed.
  await page.fill('input#name', 'hunter');
  await page.fill('textarea#source', GOOD_A);
  await submitBy(page, 'button#submit');
  const m = /^\/programs\/([^/?#]+)$/.exec(new URL(page.url()).pathname);
  assert.ok(m, `a submission lands on its program's page, not ${page.url()}`);
  state.a = m[1];
  await assertClean(a, 'the program page');
  assert.equal(await page.locator('#progress').count(), 1, '#progress');
  const seen = await waitPlaced(a, state.a);
  assert.match((await page.textContent('#rank')).trim(), /\d/, '#rank once placed');
  const source = await page.textContent('pre#source');
  assert.ok(source.includes(MARKER) && source.includes(SECRETS[2]), 'A reads its own text');
  const own = await (await api(a, 'GET', `/api/v1/programs/${state.a}`)).json();
  assert.equal(own.status, 'placed');
  assert.equal(own.author, 'alice');
  assert.ok(own.source.includes(MARKER), 'the API gives its author the text');
  console.log(`A's program ${state.a}: ${seen.join(' -> ')}`);
});

test('B signs up; markup in names is refused and shown as text; markup in a comment stays text', { timeout: 45_000 }, async () => {
  // An account name with markup: refused, and the error is text.
  const b = await newUser('bob');
  await visit(b, '/signup');
  await b.page.evaluate(() => document.querySelectorAll('input').forEach((i) => {
    i.removeAttribute('pattern'); i.removeAttribute('maxlength');
  }));
  await b.page.fill('form#signup input[name=name]', 'x<i id="xss-i">i</i>');
  await b.page.fill('form#signup input[name=password]', PASSWORD);
  const refusedAccount = await submitBy(b.page, 'form#signup [type=submit], form#signup button');
  assert.ok(refusedAccount.status() < 500, `a sign-up with markup answered ${refusedAccount.status()}`);
  await assertClean(b, 'the refused sign-up');
  assert.ok((await b.page.textContent('p#error')).trim() !== '', 'p#error says why');
  assert.equal(await b.page.$('nav #who'), null, 'not signed in');

  await signUp(b);
  const { page } = b;
  // Names with markup through the API: refused, whatever the source.
  for (const name of ['<script>window.__xss=3</script>', '<b>x</b>', 'a b', '', 'x'.repeat(65)]) {
    const r = await api(b, 'POST', `/api/v1/hills/${HILL}/programs`, { data: { name, source: turret } });
    const what = `POST programs with name ${JSON.stringify(name)}: ${r.status()} ${await r.text()}`;
    assert.ok([400, 422].includes(r.status()), what);
    assert.equal((await r.json()).error, r.status() === 400 ? 'invalid' : 'invalid_program', what);
  }
  // The API never reads the cookie.
  const cookieOnly = await api(b, 'POST', `/api/v1/hills/${HILL}/programs`, { data: { name: 'turret', source: turret }, auth: false });
  assert.equal(cookieOnly.status(), 401, `POST programs with a cookie and no token: ${await cookieOnly.text()}`);
  assert.equal((await cookieOnly.json()).error, 'unauthorized');
  // A's name on this hill is A's.
  const taken = await api(b, 'POST', `/api/v1/hills/${HILL}/programs`, { data: { name: 'hunter', source: turret } });
  assert.equal(taken.status(), 409, `POST programs with A's name: ${await taken.text()}`);
  assert.equal((await taken.json()).error, 'conflict');

  // A name with markup through the form (its client-side checks removed): an error, as text.
  await visit(b, `/hills/${HILL}/submit`);
  await page.evaluate(() => {
    const form = document.getElementById('submit-form');
    form.noValidate = true;
    for (const i of form.querySelectorAll('input, textarea')) {
      i.removeAttribute('pattern'); i.removeAttribute('maxlength'); i.removeAttribute('required');
    }
  });
  const markupName = 'tur<b id="xss-b">ret</b><script id="xss-s">window.__xss=4</script>';
  await page.fill('input#name', markupName);
  await page.fill('textarea#source', GOOD_B);
  const refused = await submitBy(page, 'button#submit');
  assert.ok(refused.status() < 500, `a submission named with markup answered ${refused.status()}`);
  await assertClean(b, 'the submission named with markup');
  assert.ok((await page.textContent('p#error')).trim() !== '', 'p#error says why');
  assert.doesNotMatch(await page.content(), /<b id="xss-b">/, 'the name comes back escaped');

  // The program with markup in a comment: accepted, placed, its text shown as text.
  await page.fill('input#name', 'turret');
  await page.fill('textarea#source', GOOD_B);
  await submitBy(page, 'button#submit');
  const m = /^\/programs\/([^/?#]+)$/.exec(new URL(page.url()).pathname);
  assert.ok(m, `a submission lands on its program's page, not ${page.url()}`);
  state.b = m[1];
  await assertClean(b, 'B\'s program page');
  await waitPlaced(b, state.b);
  assert.ok((await page.textContent('pre#source')).includes(XSS_COMMENT), 'the comment shown as it was written');
  await assertClean(b, 'B\'s program page, placed');
});

test('the standings show both programs, with the history plot', { timeout: 20_000 }, async () => {
  const a = users.alice;
  const { page } = a;
  await visit(a, `/hills/${HILL}`);
  for (const id of [state.a, state.b]) {
    const row = page.locator(`table#standings tr[data-program="${id}"]`);
    assert.equal(await row.count(), 1, `a standings row for program ${id}`);
    assert.deepEqual(await links(page, `table#standings tr[data-program="${id}"]`), [`/programs/${id}`], 'its name links to its page');
  }
  assert.equal(await page.locator('table#standings tr[data-program]').count(), 2);
  assert.equal(await page.locator('table#head-to-head').count(), 1, 'table#head-to-head');
  await page.waitForFunction(() => document.getElementById('history')?.complete, null, { timeout: 10_000 });
  const width = await page.$eval('img#history', (img) => img.naturalWidth);
  assert.ok(width > 0, `img#history loads (naturalWidth ${width}, src ${await page.getAttribute('img#history', 'src')})`);
  const rows = await (await api(a, 'GET', `/api/v1/hills/${HILL}/standings`, { auth: false })).json();
  assert.deepEqual(rows.map((r) => r.rank), [1, 2]);
  assert.deepEqual(rows.map((r) => String(r.id)).sort(), [state.a, state.b].sort());
  assert.deepEqual(rows.map((r) => r.name).sort(), ['hunter', 'turret']);
  assert.ok(rows.every((r) => r.played > 0), 'both played');
  await screenshot(page, 'standings.png');
});

test('a match of A\'s program opens in the viewer and steps with the keys', { timeout: 20_000 }, async () => {
  const a = users.alice;
  const { page } = a;
  await visit(a, `/programs/${state.a}`);
  state.matches = await page.$$eval('table#matches tr[data-match]', (trs) => trs.map((tr) => tr.dataset.match));
  assert.ok(state.matches.length > 0, 'A\'s program lists its matches');
  for (const id of state.matches) {
    assert.deepEqual(await links(page, `table#matches tr[data-match="${id}"]`), [`/matches/${id}`], `match ${id}'s link`);
  }
  await page.waitForFunction(() => document.getElementById('history')?.complete);
  assert.ok(await page.$eval('img#history', (img) => img.naturalWidth) > 0, 'the program\'s img#history loads');
  await screenshot(page, 'program.png');
  state.match = state.matches[0];
  await submitBy(page, 'table#matches tr[data-match] a >> nth=0');
  assert.equal(new URL(page.url()).pathname, `/matches/${state.match}`);
  await page.waitForSelector('body[data-ready="true"]');
  await assertClean(a, 'the viewer');
  assert.match((await page.textContent('#match-name')).trim(), /\S/, '#match-name filled');
  const doc = await (await api(a, 'GET', `/api/v1/matches/${state.match}/replay`)).json();
  assert.equal(doc.board.w * doc.board.h, 64, 'the duel board: 8 x 8');
  assert.equal(await page.locator('#board polygon[data-cell]').count(), 64, 'hex cells on #board');
  const steps = Math.min(5, +(await page.textContent('#turns')));
  assert.ok(steps > 0, 'the match has robot turns');
  const turns = [+(await page.textContent('#turn'))];
  for (let i = 0; i < steps; i += 1) {
    await page.keyboard.press('ArrowRight');
    turns.push(+(await page.textContent('#turn')));
  }
  assert.deepEqual(turns, [...Array(steps + 1).keys()], 'ArrowRight steps one robot turn');
  // The seed the page shows is the match's (a 64-bit integer: exact digits, not a double's).
  const raw = await (await api(a, 'GET', `/api/v1/matches/${state.match}`, { auth: false })).text();
  const seed = /"seed":\s*"?(\d+)/.exec(raw)[1];
  const meta = await page.textContent('#match-meta');
  await screenshot(page, 'viewer.png');
  const wrong = [...a.problems];
  if (!meta.includes(`seed ${seed}`)) {
    wrong.push(`#match-meta ${JSON.stringify(meta)} does not show seed ${seed} (GET /api/v1/matches/${state.match})`);
  }
  assert.deepEqual(wrong, [], 'A\'s pages: console errors, and the seed shown');
});

test('A\'s text reaches neither B nor a stranger, in pages or the API', { timeout: 30_000 }, async () => {
  assert.ok(state.match, 'a match of A');
  const match = await (await api(users.alice, 'GET', `/api/v1/matches/${state.match}`, { auth: false })).json();
  const aSide = String(match.green.id) === state.a ? 'green' : 'violet';
  assert.equal(String(match[aSide].id), state.a, 'the match is A\'s');
  const bSide = aSide === 'green' ? 'violet' : 'green';
  assert.equal(String(match[bSide].id), state.b, 'against B');

  // A's own replay (with its token) has A's steps: the checks below are not empty ones.
  const ownReplay = await (await api(users.alice, 'GET', `/api/v1/matches/${state.match}/replay`)).json();
  const colour = (doc, robot) => doc.teams[robot.team].colour;
  const aRobots = ownReplay.robots.filter((r) => colour(ownReplay, r) === aSide);
  assert.ok(aRobots.length > 0 && aRobots.every((r) => r.steps?.length > 0 && r.tests?.length > 0), 'A reads its steps and tests');

  const replays = {};
  for (const user of [users.bob, users.anonymous]) {
    const { page } = user;
    const texts = [];
    const who = user.name;
    await visit(user, `/programs/${state.a}`);
    assert.equal(await page.$('pre#source'), null, `pre#source for ${who}`);
    assert.equal(await page.getAttribute('#status', 'data-status'), 'placed');
    const listed = await page.$$eval('table#matches tr[data-match]', (trs) => trs.map((tr) => tr.dataset.match));
    assert.deepEqual(listed, state.matches, `${who} sees A's matches`);
    texts.push(['page /programs/A', await page.content()]);
    await submitBy(page, 'table#matches tr[data-match] a >> nth=0');
    assert.equal(new URL(page.url()).pathname, `/matches/${state.match}`);
    await page.waitForSelector('body[data-ready="true"]');
    await assertClean(user, 'the viewer');
    await page.keyboard.press('ArrowRight');
    assert.equal(+(await page.textContent('#turn')), 1);
    texts.push([`page /matches/${state.match}`, await page.content()]);
    await visit(user, `/hills/${HILL}`);
    texts.push([`page /hills/${HILL}`, await page.content()]);
    for (const url of [
      `/api/v1/programs/${state.a}`, `/api/v1/programs/${state.a}/matches`,
      `/api/v1/matches/${state.match}`, `/api/v1/matches/${state.match}/replay`,
      `/hills/${HILL}`, `/api/v1/hills/${HILL}/standings`, `/programs/${state.a}`,
    ]) {
      const r = await api(user, 'GET', url);
      assert.equal(r.status(), 200, `GET ${url} as ${who}`);
      texts.push([`GET ${url}`, await r.text()]);
    }
    for (const got of await Promise.all(user.bodies)) if (got) texts.push([`response ${got.url}`, got.text]);
    for (const [where, text] of texts) {
      for (const secret of SECRETS) {
        assert.ok(!text.includes(secret), `${JSON.stringify(secret)} of A's text in ${where} as ${who}`);
      }
    }
    const program = await (await api(user, 'GET', `/api/v1/programs/${state.a}`)).json();
    assert.ok(!('source' in program), `the API gives ${who} no source of A's program`);
    replays[who] = await (await api(user, 'GET', `/api/v1/matches/${state.match}/replay`)).json();
    await assertClean(user, 'the end');
  }
  // The positive control: A's own page has the text.
  await visit(users.alice, `/programs/${state.a}`);
  assert.ok((await users.alice.page.textContent('pre#source')).includes(MARKER));

  // The replay's shape (docs/ARENA.md): a robot whose program the caller may not read has empty
  // `steps` and `tests`; B reads its own.
  for (const [who, replay] of Object.entries(replays)) {
    for (const robot of replay.robots) {
      const where = `GET /api/v1/matches/${state.match}/replay as ${who}: ${robot.name}`;
      if (colour(replay, robot) === bSide && who === 'bob') {
        assert.ok(robot.steps?.length > 0 && robot.tests?.length > 0, `${where} (B's own) has its steps and tests`);
      } else {
        assert.deepEqual(robot.steps, [], `${where} has "steps": ${JSON.stringify(robot.steps)}`);
        assert.deepEqual(robot.tests, [], `${where} has "tests": ${JSON.stringify(robot.tests)}`);
      }
    }
  }
  for (const user of [users.bob, users.anonymous]) assert.deepEqual(user.problems, [], `${user.name}'s pages`);
});

test('SIGTERM stops the server gracefully', { timeout: 10_000 }, async () => {
  await browser.close();
  browser = null;
  const { code, signal } = await server.stop();
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, 'exit status after SIGTERM (SIGKILL after 5 s)');
});
