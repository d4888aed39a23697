// A program's versions in the arena (docs/ARENA.md, "Versions") in Chromium: alice submits
// three versions of one name (by the API), then on the program's page sees the list of
// versions, opens the diff of v1 and v3 (line numbers, removed and added lines), and submits
// v1 again with the list's button: a fourth version, placed, with v1's text. At a desktop
// (1280×800) and a phone (390×844) size the pages never overflow sideways. Bob sees the list
// but no diff link, no button, and his request for the diff is refused without the text.
// Run: node --test web/test/arena-versions.e2e.mjs (the binary as for arena.e2e.mjs).
// Screenshots go to <target>/arena-versions-e2e/; UPDATE_SCREENSHOT=1 also writes
// docs/arena/versions.png and docs/arena/versions-diff.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';
import { arenaPlayers, assertFits, closeAll, launchChromium, runRobots, screenshots, submitBy, watchProblems } from './support.mjs';

const out = path.join(target, 'arena-versions-e2e');
const HILL = 'duel';
const MARK = `versions-secret-${process.pid}`;
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Version n's text: its first line differs in each, v2 comments its third step, v3 its fourth as well. */
const text = (n) => [
  `# ${MARK} v${n}`, 'name: climber', '',
  '1: ?1          # a shot worth firing?', '2: GO 5',
  n >= 2 ? '3: D+1        # step' : '3: D+1',
  n >= 3 ? '4: RAZ        # again' : '4: RAZ',
  '5: T', '6: RAZ', '', 'test 1: shots > 0 and enemy ahead 1', '',
].join('\n');

let dir;
let server;
let base;
let browser;
const screenshot = screenshots(out, path.join(root, 'docs', 'arena'));

before(async () => {
  const { dir: folder, db } = freshFolder(out, 'arena-versions-e2e-');
  dir = folder;
  runRobots(bin, dir, ['serve', 'hill', 'create', HILL, '--db', db, '--board', 'duel', '--size', '20', '--seeds', '1..2', '--robots', '1']);
  server = new RobotsServer({ bin, dir, db });
  base = await server.start();
  browser = await launchChromium(chromium);
  players = arenaPlayers(browser, base, HILL);
});

after(() => closeAll({ browser, server, dir, out }));

let players;
const user = (...a) => players.user(...a);
const api = (...a) => players.api(...a);
const submitPlaced = (...a) => players.submitPlaced(...a);
const waitPlaced = (...a) => players.waitPlaced(...a);

const rowsOf = (page) => page.$$eval('table#versions tr[data-version]', (rows) => rows.map((r) => Number(r.dataset.version)));

let alice;
let bob;
const ids = [];

test('alice sees her versions, a diff, and submits v1 again', { timeout: 120_000 }, async () => {
  alice = await user('alice', SIZES.desktop);
  bob = await user('bob', SIZES.desktop);
  await submitPlaced(bob, 'turret_b', fs.readFileSync(path.join(root, 'programs', 'turret.robot'), 'utf8'));
  for (const n of [1, 2, 3]) ids.push(await submitPlaced(alice, 'climber', text(n)));
  const { page } = alice;
  await page.goto(`${base}/programs/${ids[2]}`);
  assert.deepEqual(await rowsOf(page), [3, 2, 1], 'the versions, newest first');
  assert.equal(await page.locator('table#versions tr.shown').getAttribute('data-version'), '3');
  await assertFits(page, 'the program page at 1280');
  await page.locator('#versions').scrollIntoViewIfNeeded();
  await screenshot(page, 'versions.png');

  // The diff of v1 and v3, from v1's row.
  await submitBy(page, 'table#versions tr[data-version="1"] a.diff');
  assert.equal(new URL(page.url()).search, '?from=1&to=3');
  const lines = await page.$$eval('table#diff tr', (rows) => rows.map((r) => [r.className, ...[...r.cells].map((c) => c.textContent)]));
  assert.deepEqual(lines, [
    ['removed', '1', '', `-# ${MARK} v1`],
    ['added', '', '1', `+# ${MARK} v3`],
    ['context', '2', '2', ' name: climber'],
    ['context', '3', '3', ' '],
    ['context', '4', '4', ' 1: ?1          # a shot worth firing?'],
    ['context', '5', '5', ' 2: GO 5'],
    ['removed', '6', '', '-3: D+1'],
    ['removed', '7', '', '-4: RAZ'],
    ['added', '', '6', '+3: D+1        # step'],
    ['added', '', '7', '+4: RAZ        # again'],
    ['context', '8', '8', ' 5: T'],
    ['context', '9', '9', ' 6: RAZ'],
    ['context', '10', '10', ' '],
  ]);
  await assertFits(page, 'the diff at 1280');
  await screenshot(page, 'versions-diff.png');

  // Bob: the list, no diff link, no button; the diff refused without the text.
  await bob.page.goto(`${base}/programs/${ids[2]}`);
  assert.deepEqual(await rowsOf(bob.page), [3, 2, 1]);
  assert.equal(await bob.page.locator('table#versions a.diff, table#versions form').count(), 0);
  const refused = await bob.page.goto(`${base}/programs/${ids[2]}/diff?from=1&to=3`);
  assert.equal(refused.status(), 403);
  assert.ok(!(await bob.page.content()).includes(MARK), 'the diff page as bob holds no text');

  // Back to v1: the button of its row makes v4, with v1's text, placed.
  await page.goto(`${base}/programs/${ids[2]}`);
  await submitBy(page, 'table#versions tr[data-version="1"] form.resubmit button');
  const v4 = Number(new URL(page.url()).pathname.split('/').at(-1));
  assert.ok(v4 > ids[2], `a new program: ${page.url()}`);
  await waitPlaced(alice, v4);
  await page.goto(`${base}/programs/${v4}`);
  assert.deepEqual(await rowsOf(page), [4, 3, 2, 1]);
  assert.equal(await page.textContent('pre#source'), text(1));
  const shown = await (await api(alice, 'GET', `/api/v1/programs/${v4}`)).json();
  assert.equal(shown.version, 4);
  const standings = await (await api(bob, 'GET', `/api/v1/hills/${HILL}/standings`)).json();
  assert.equal(standings.find((r) => r.name === 'climber').version, 4, 'the standings say v4 is on the hill');
  assert.deepEqual([...alice.problems, ...bob.problems], []);
});

test('at a phone\'s size the list and the diff stay within the page', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: SIZES.phone });
  const page = await context.newPage();
  const problems = [];
  watchProblems(page, problems);
  // alice's session, in a phone's window.
  await context.addCookies(await alice.context.cookies());
  for (const url of [`/programs/${ids[2]}`, `/programs/${ids[2]}/diff?from=1&to=3`]) {
    const r = await page.goto(base + url);
    assert.equal(r.status(), 200, url);
    await assertFits(page, `${url} at 390`);
  }
  assert.equal(await page.locator('table#diff tr.added').count(), 3);
  await page.goto(`${base}/programs/${ids[2]}`);
  assert.deepEqual(await rowsOf(page), [4, 3, 2, 1]);
  await assertFits(page, 'the program page at 390');
  assert.deepEqual(problems, []);
  await context.close();
});
