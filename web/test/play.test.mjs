// Unit tests of the /play page's pure modules (web/play/: lang.js, share.js, duel.js), no
// browser: the editor's words against the grammar, tokens, completion and hover; the share
// link round trip and hostile fragments; the duel's chunks and tally.
// Run: node --test web/test/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  INSTRUCTION_WORDS, TI57_WORDS, CONDITION_WORDS, CONDITION_KEYWORDS, tokenizeLine,
  completionsAt, testNumberAt, testDefinition,
} from '../play/edit/lang.js';
import { encode, decode, checkShared, ShareError, MAX_JSON } from '../play/run/share.js';
import { CARRIED, arenaHills, arenaName, takeCarried } from '../play/edit/hill.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const grammar = readFileSync(join(root, 'grammar/robot.pest'), 'utf8');

/** The `^"…"` words of the grammar's rule `name`. */
function ruleWords(name) {
  const start = grammar.indexOf(`\n${name} `);
  assert.ok(start >= 0, `rule ${name} in the grammar`);
  const body = grammar.slice(start + 1);
  const end = body.indexOf('}');
  return [...body.slice(0, end).matchAll(/\^"([^"]+)"/g)].map((m) => m[1]);
}

const sorted = (words) => [...new Set(words.map((w) => w.toLowerCase()))].sort();

test('the reserved words are the grammar\'s', () => {
  assert.deepEqual(sorted(CONDITION_WORDS), sorted(ruleWords('reserved')));
});

test('the instruction and TI-57 words are the grammar\'s keywords', () => {
  const steps = ['kw_forward', 'kw_back', 'kw_right', 'kw_left', 'kw_fire', 'kw_explode', 'kw_test', 'kw_raz', 'kw_go', 'kw_to', 'kw_t'];
  assert.deepEqual(sorted(INSTRUCTION_WORDS), sorted(steps.flatMap(ruleWords)));
  const keys = ['kw_inv', 'kw_lbl', 'kw_gto', 'kw_sbr', 'kw_rtn', 'kw_sto', 'kw_rcl', 'kw_sum', 'kw_prd', 'kw_exc', 'kw_dsz', 'kw_pause', 'kw_nop', 'clear_t', 'run_stop'];
  assert.deepEqual(sorted(TI57_WORDS), sorted(keys.flatMap(ruleWords)));
  for (const kw of CONDITION_KEYWORDS) assert.ok(grammar.includes(`^"${kw}"`), kw);
});

const kinds = (line) => tokenizeLine(line).map((t) => [line.slice(t.from, t.to), t.kind]);

test('a step, a test and a name are cut into their tokens', () => {
  assert.deepEqual(kinds('3: D+1  # forward'), [['3', 'stepNumber'], [':', 'operator'], ['D+1', 'instruction'], ['# forward', 'comment']]);
  assert.deepEqual(kinds('1: ?2'), [['1', 'stepNumber'], [':', 'operator'], ['?2', 'test']]);
  assert.deepEqual(kinds('4 GO 11'), [['4', 'stepNumber'], ['GO', 'instruction'], ['11', 'number']]);
  assert.deepEqual(kinds('test 1: enemy ahead within 2 and not friend'), [
    ['test', 'test'], ['1', 'number'], [':', 'operator'], ['enemy', 'subject'], ['ahead', 'keyword'],
    ['within', 'keyword'], ['2', 'number'], ['and', 'keyword'], ['not', 'keyword'], ['friend', 'subject'],
  ]);
  assert.deepEqual(kinds('name: hunter // mine'), [['name', 'keyword'], [':', 'operator'], ['hunter ', 'name'], ['// mine', 'comment']]);
});

test('every line of every shipped program is cut whole, nothing overlapping', () => {
  const files = readdirSync(join(root, 'programs')).filter((f) => f.endsWith('.robot'));
  assert.ok(files.length > 5);
  for (const file of files) {
    for (const line of readFileSync(join(root, 'programs', file), 'utf8').split('\n')) {
      let at = 0;
      for (const t of tokenizeLine(line)) {
        assert.ok(t.from >= at && t.to > t.from, `${file}: ${line}`);
        assert.equal(line.slice(at, t.from).trim(), '', `${file}: a gap at ${at} in ${line}`);
        at = t.to;
      }
      assert.equal(line.slice(at).trim(), '', `${file}: ${line} cut whole`);
    }
  }
  assert.equal(tokenizeLine('\u{1F916} ?? ::: D+').length > 0, true);
});

test('completion: instructions after a step number, words in a test, steps after GO', () => {
  const labels = (r) => r && r.options.map((o) => o.label);
  assert.deepEqual(labels(completionsAt('3: D', 4)), ['D+1', 'D+2', 'D-1', 'D-2']);
  assert.equal(completionsAt('3: D', 4).from, 3);
  assert.deepEqual(labels(completionsAt('3: ?', 4)), ['?1', '?2', '?3', '?4']);
  assert.deepEqual(labels(completionsAt('test 2: enemy wi', 16)), ['within']);
  assert.deepEqual(labels(completionsAt('test 2: fr', 10)), ['friend']);
  assert.deepEqual(labels(completionsAt('5: GO ', 6, 3)), ['1', '2', '3']);
  assert.deepEqual(labels(completionsAt('te', 2)), ['test 1: ', 'test 2: ', 'test 3: ', 'test 4: ']);
  assert.equal(completionsAt('3: T # D', 8), null);
  assert.equal(completionsAt('3: D+1 zz', 9), null);
});

test('hover: the test a ?n names, and its definition', () => {
  const text = '1: ?2\n2: GO 1\n\ntest 2: enemy ahead # close\ntest 1: true';
  assert.equal(testNumberAt('1: ?2', 3), 2);
  assert.equal(testNumberAt('1: ?2', 4), 2);
  assert.equal(testNumberAt('1: ?2', 1), null);
  assert.equal(testNumberAt('test 3: true', 2), 3);
  assert.equal(testDefinition(text, 2), 'test 2: enemy ahead');
  assert.equal(testDefinition(text, 4), null);
});

const SHARED = {
  programs: [{ name: 'mine', text: '1: T\n2: RAZ\n' }, { name: 'ünïcode ✓', text: '# \u{1F916}\n1: D+1' }],
  settings: { board: 'classic', scenario: 1, robots: 3, seed: '18446744073709551615', rounds: 200, ti57: false, a: 'tab:0', b: 'hunter' },
};

test('a share link reads back what it was made of', async () => {
  const fragment = await encode(SHARED);
  assert.match(fragment, /^m=[A-Za-z0-9_-]+$/);
  assert.deepEqual(await decode(`#${fragment}`), SHARED);
  assert.equal(await decode(''), null);
});

test('hostile fragments are refused with words, never thrown as anything else', async () => {
  const refuse = async (fragment, pattern) => {
    await assert.rejects(decode(fragment), (e) => e instanceof ShareError && pattern.test(e.message), fragment.slice(0, 60));
  };
  await refuse('#garbage', /not a shared match/);
  await refuse('#m=%%%', /characters/);
  await refuse('#m=AAAA', /does not inflate|not JSON/);
  await refuse(`#m=${'A'.repeat(300 * 1024)}`, /longer than/);
  // A small link that inflates past the bound: a zip bomb.
  const bomb = await encode({ programs: [{ name: 'x', text: ' '.repeat(MAX_JSON + 10) }], settings: {} });
  assert.ok(bomb.length < 8 * 1024, `the bomb is small: ${bomb.length}`);
  await refuse(bomb, /more than/);
  const wrong = async (doc, pattern) => {
    const f = await encode(doc);
    // encode() adds v; a wrong v is made by hand below.
    await refuse(f, pattern);
  };
  await wrong({ programs: 'x', settings: {} }, /programs/);
  await wrong({ programs: [{ name: 3, text: '' }], settings: {} }, /name/);
  await wrong({ programs: [], settings: { seed: -1 } }, /seed/);
  await wrong({ programs: [], settings: { rounds: 1.5 } }, /rounds/);
  await wrong({ programs: [], settings: { __proto__x: 1 } }, /unknown setting/);
  await wrong({ programs: [], settings: null }, /settings/);
  assert.throws(() => checkShared({ v: 2, programs: [], settings: {} }), /version 2/);
  assert.throws(() => checkShared([]), /not an object/);
});

test('a duel\'s seeds in chunks, its tally, and the match to watch chosen as robots duel chooses it', async () => {
  const { chunks, emptyTally, addChunk, worstGame, gameSettings, tallyWords } = await import('../play/run/duel.js');
  assert.deepEqual(chunks(1, 10, 4), [[1, 4], [5, 4], [9, 2]]);
  assert.deepEqual(chunks(7, 3, 4), [[7, 3]]);
  const g = (seed_index, a_colour, score, rounds) => ({ seed_index, a_colour, score, rounds, seed: String(100 + seed_index), reason: 'x' });
  const games = [g(1, 'green', 'win', 10), g(1, 'violet', 'loss', 30), g(2, 'green', 'loss', 20), g(2, 'violet', 'loss', 20), g(3, 'green', 'draw', 5)];
  const t = addChunk(addChunk(emptyTally(), { wins: 1, draws: 0, losses: 1, games: games.slice(0, 2) }), { wins: 0, draws: 1, losses: 2, games: games.slice(2) });
  assert.deepEqual([t.wins, t.draws, t.losses, t.games.length], [1, 1, 3, 5]);
  // The quickest loss; a tie goes to the lowest seed, A green first.
  assert.deepEqual(worstGame(t.games), games[2]);
  assert.deepEqual(worstGame([games[0], games[4]]), games[4], 'no loss: the worst result, a draw');
  assert.equal(worstGame([]), null);
  const s = gameSettings({ a: 'mine', b: 'hunter', robots: 3, board: 'classic', scenario: 1, keywords: 'plain', rounds: 200, files: {} }, games[1]);
  assert.deepEqual(s.teams, [{ colour: 'green', program: 'hunter' }, { colour: 'violet', program: 'mine' }]);
  assert.equal(s.seed, '101');
  assert.equal(tallyWords('mine', t), 'mine: 1 win, 1 draw, 3 losses of 5 matches');
});

test('the page\'s programs take no shipped name, and a side names a program', async () => {
  const { nameProblem, freeName, sideProgram, engineSettings, settingsProblem, DEFAULTS } = await import('../play/run/settings.js');
  assert.match(nameProblem('Hunter', ['hunter'], []), /shipped/);
  assert.match(nameProblem('a/b', [], []), /letters/);
  assert.equal(nameProblem('mine', ['hunter'], ['other']), null);
  assert.equal(freeName('hunter', ['hunter'], ['hunter-2']), 'hunter-3');
  assert.equal(freeName('my prog!', [], []), 'myprog');
  const programs = [{ name: 'mine', text: '1: T' }];
  assert.equal(sideProgram('tab:0', programs), 'mine');
  assert.equal(sideProgram('tab:3', programs), null);
  assert.equal(sideProgram('shipped:hunter', programs), 'hunter');
  assert.equal(settingsProblem(DEFAULTS, programs), null);
  assert.match(settingsProblem({ ...DEFAULTS, seed: '18446744073709551616' }, programs), /seed/);
  const e = engineSettings({ ...DEFAULTS, ti57: true, seed: '7' }, programs);
  assert.deepEqual(e.teams, [{ colour: 'green', program: 'mine' }, { colour: 'violet', program: 'hunter' }]);
  assert.equal(e.keywords, 'ti57');
  assert.deepEqual(e.files, { 'mine.robot': '1: T' });
});

test('the viewer\'s template is filled as the arena fills it: files for style and script, no < in the data', async () => {
  const { viewerPage } = await import('../play/run/view.js');
  const template = readFileSync(join(root, 'web/viewer.html'), 'utf8');
  const page = viewerPage(template, '{"name":"</script><b>"}', 'a <b> & "c"');
  assert.ok(page.includes('<link rel="stylesheet" href="viewer.css">'));
  assert.ok(page.includes('<script src="viewer.js"></script>'));
  assert.ok(!page.includes('http-equiv="Content-Security-Policy"'));
  assert.ok(page.includes('{"name":"\\u003c/script>\\u003cb>"}'));
  assert.ok(page.includes('<title>a &lt;b&gt; &amp; &quot;c&quot; · robots replay</title>'));
  assert.ok(!/\{\{[A-Z]+\}\}/.test(page));
  assert.ok(!/<script>/.test(page), 'no inline script');
});

/** A sessionStorage of a Map. */
function memoryStorage(entries = {}) {
  const map = new Map(Object.entries(entries));
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
  };
}

test('hill.js: the program carried to a hill, taken once, hostile values refused', () => {
  assert.equal(arenaName('my-hunter_2'), 'my-hunter_2');
  assert.equal(arenaName('a b<i>'), 'a_b_i_');
  assert.equal(arenaName('x'.repeat(100)).length, 64);
  assert.equal(arenaName(''), '');
  const good = memoryStorage({ [CARRIED]: JSON.stringify({ name: 'mine', text: '1: RAZ\n' }) });
  assert.deepEqual(takeCarried(good), { name: 'mine', text: '1: RAZ\n' });
  assert.equal(takeCarried(good), null, 'taken once');
  assert.equal(good.map.size, 0);
  const markup = '</textarea><script>alert(1)</script>';
  assert.deepEqual(takeCarried(memoryStorage({ [CARRIED]: JSON.stringify({ name: markup, text: markup }) })),
    { name: '__textarea__script_alert_1___script_', text: markup }, 'text stays text; the name is a name');
  for (const raw of ['', 'not json', 'null', '[]', '{"text": 3}', '{"name": "a"}', '"text"']) {
    const storage = memoryStorage({ [CARRIED]: raw });
    assert.equal(takeCarried(storage), null, raw);
    assert.equal(storage.map.size, 0, `removed: ${raw}`);
  }
  assert.deepEqual(takeCarried(memoryStorage({ [CARRIED]: '{"name": 7, "text": "t"}' })), { name: '', text: 't' });
  assert.equal(takeCarried(memoryStorage()), null);
  const throwing = { getItem() { throw new Error('denied'); }, removeItem() {} };
  assert.equal(takeCarried(throwing), null);
});

test('hill.js: an arena is known by its list of hills; static files have none', async () => {
  const answer = (status, type, body) => async () => ({
    ok: status === 200, headers: { get: () => type }, json: async () => JSON.parse(body),
  });
  assert.deepEqual(await arenaHills(answer(200, 'application/json', '[{"name":"duel"},{"name":""},{"x":1},null]')), ['duel']);
  assert.equal(await arenaHills(answer(404, 'text/html', '')), null);
  assert.equal(await arenaHills(answer(200, 'text/html; charset=utf-8', '<!doctype html>')), null);
  assert.equal(await arenaHills(answer(200, 'application/json', '{"name":"duel"}')), null);
  assert.equal(await arenaHills(async () => { throw new TypeError('offline'); }), null);
});
