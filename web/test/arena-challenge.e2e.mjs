// A challenge in the arena (docs/ARENA.md, "Challenges") in Chromium: bob, from his
// program's page, challenges alice's secret program over two seeds; the challenge page shows
// its state until it is played, its tally and four matches; bob watches one in the viewer and
// never sees alice's steps or tests (the page, its replay). Alice's program page lists the
// challenge as played against it, with its tally, without its matches. The standings are the
// same before and after (unranked). At a desktop (1280×800) and a phone (390×844) size the
// pages never overflow sideways.
// Run: node --test web/test/arena-challenge.e2e.mjs (the binary as for arena.e2e.mjs).
// Screenshots go to <target>/arena-challenge-e2e/; UPDATE_SCREENSHOT=1 also writes
// docs/arena/challenge*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RobotsServer, bin, freshFolder, root, target } from './server.mjs';
import {
  arenaPlayers, assertFits, closeAll, launchChromium, runRobots, screenshots, sleep, submitBy, watchProblems,
} from './support.mjs';

const out = path.join(target, 'arena-challenge-e2e');
const screenshot = screenshots(out, path.join(root, 'docs', 'arena'));
const HILL = 'duel';
const SECRET = `enemy behind-left within ${5}`;
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Alice's program: its one test is the secret the challenger must never see. */
const secretProgram = [
  '# alice, secret', 'name: hidden_one', '',
  '1: ?1', '2: GO 5', '3: T', '4: RAZ', '5: D+1', '6: RAZ', '',
  `test 1: shots > 0 and (enemy ahead 1 or ${SECRET})`, '',
].join('\n');

let dir;
let server;
let base;
let browser;

before(async () => {
  const { dir: folder, db } = freshFolder(out, 'arena-challenge-e2e-');
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

const standings = async (u) => (await (await api(u, 'GET', `/api/v1/hills/${HILL}/standings`)).json())
  .map((r) => [r.name, r.played, r.wins, r.draws, r.losses, r.rating]);

let alice;
let bob;
let challengeUrl;
let mine;

test('bob challenges alice\'s secret program from his page and watches a match', { timeout: 120_000 }, async () => {
  alice = await user('alice', SIZES.desktop);
  bob = await user('bob', SIZES.desktop);
  const hers = await submitPlaced(alice, 'hidden_one', secretProgram);
  mine = await submitPlaced(bob, 'turret_b', fs.readFileSync(path.join(root, 'programs', 'turret.robot'), 'utf8'));
  const before = await standings(bob);

  const { page } = bob;
  await page.goto(`${base}/programs/${mine}`);
  await page.selectOption('form#challenge-form select#opponent', `program:${hers}`);
  await page.fill('form#challenge-form input#seeds', '2');
  await page.locator('form#challenge-form').scrollIntoViewIfNeeded();
  await screenshot(page, 'challenge-form.png');
  await submitBy(page, 'form#challenge-form button#challenge-button');
  assert.match(new URL(page.url()).pathname, /^\/challenges\/\d+$/);
  challengeUrl = page.url();
  // Played at once on the workers: the page says so once reloaded.
  const deadline = Date.now() + 30_000;
  while ((await page.getAttribute('#challenge-state', 'data-state')) !== 'done') {
    assert.ok(Date.now() < deadline, 'the challenge is played within 30 s');
    await sleep(300);
    await page.reload();
  }
  assert.equal(await page.locator('table#challenge-matches tr[data-n]').count(), 4, 'two seeds both ways');
  assert.match(await page.textContent('#tally'), /of 4 played/);
  assert.ok(!(await page.content()).includes(SECRET), 'the challenge page holds no secret');
  await assertFits(page, 'the challenge page at 1280');
  await screenshot(page, 'challenge.png');

  // A match in the viewer: alice's steps and tests left out, bob's shown.
  await submitBy(page, 'table#challenge-matches tr[data-n] a');
  await page.waitForSelector('#board');
  assert.ok(!(await page.content()).includes(SECRET), 'the viewer holds no secret');
  const n = new URL(page.url()).pathname.split('/').at(-1);
  const id = new URL(challengeUrl).pathname.split('/').at(-1);
  const replay = await (await api(bob, 'GET', `/api/v1/challenges/${id}/matches/${n}/replay`)).json();
  const origins = Object.fromEntries(replay.robots.map((r) => [r.origin, [r.steps.length, r.tests.length]]));
  assert.deepEqual(origins.hidden_one, [0, 0], 'alice\'s robot: no steps, no tests');
  assert.ok(origins.turret_b[0] > 0, 'bob\'s robot: its steps');
  assert.ok(!JSON.stringify(replay).includes(SECRET));

  // Unranked: the standings have not moved.
  assert.deepEqual(await standings(bob), before);

  // Alice sees that it was played against her program, its tally, not its matches.
  await alice.page.goto(`${base}/programs/${hers}`);
  assert.ok((await alice.page.textContent('pre#source')).includes(SECRET), 'the secret is there, for its author');
  const row = alice.page.locator('table#challenges tr[data-challenge]');
  assert.equal(await row.count(), 1);
  assert.equal(await row.getAttribute('data-role'), 'opponent');
  const r = await alice.page.goto(challengeUrl);
  assert.equal(r.status(), 200);
  assert.equal(await alice.page.locator('table#challenge-matches').count(), 0, 'no matches for the opponent');
  const refused = await api(alice, 'GET', `/api/v1/challenges/${id}/matches/${n}/replay`);
  assert.equal(refused.status(), 403);
  assert.deepEqual([...alice.problems, ...bob.problems], []);
});

test('at a phone\'s size the program page and the challenge stay within the page', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: SIZES.phone });
  const page = await context.newPage();
  const problems = [];
  watchProblems(page, problems);
  await context.addCookies(await bob.context.cookies());
  for (const url of [`${base}/programs/${mine}`, challengeUrl, `${base}/challenges`]) {
    const r = await page.goto(url);
    assert.equal(r.status(), 200, url);
    await assertFits(page, `${url} at 390`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
