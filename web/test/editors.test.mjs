// The editor files of editors/ (docs/EDITORS.md): the TextMate grammar, the Vim syntax file,
// the VS Code extension folder. The grammar is checked by tokenizing every sample program
// with a small line tokenizer of our own over it, the way a TextMate engine reads a file:
// every character that is not a space must get a scope. Run: node --test web/test/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path) => readFileSync(join(root, path), 'utf8');
const grammarText = read('editors/robot.tmLanguage.json');
const grammar = JSON.parse(grammarText);

// ------------------------------------------------------------------ regexes
// The grammar's only Oniguruma construct is a leading `(?i)` (case-insensitive), which
// JavaScript writes as the `i` flag. Anything else Oniguruma-only is refused here, so the
// grammar stays portable between engines (vscode-textmate, GitHub's, Shiki's JS engine).
const ONIGURUMA_ONLY = [/\(\?[imx-]+[:)]/, /\\[AGzZhHK]/, /\(\?>/, /[*+?}][+]/, /\\p\{/, /\(\?~/];
const compiled = new Map();
function compile(source) {
  if (compiled.has(source)) return compiled.get(source);
  let body = source;
  let flags = 'dg';
  if (body.startsWith('(?i)')) {
    body = body.slice(4);
    flags += 'i';
  }
  for (const only of ONIGURUMA_ONLY) {
    assert.ok(!only.test(body), `Oniguruma-only construct ${only} in ${source}`);
  }
  const re = new RegExp(body, flags);
  compiled.set(source, re);
  return re;
}

// Every rule of the grammar, wherever it sits.
function allRules() {
  const rules = [];
  const walk = (rule) => {
    if (!rule || typeof rule !== 'object') return;
    rules.push(rule);
    for (const inner of rule.patterns ?? []) walk(inner);
  };
  for (const rule of grammar.patterns) walk(rule);
  for (const rule of Object.values(grammar.repository)) walk(rule);
  return rules;
}

// ------------------------------------------------------------------ a tiny TextMate engine
// One line at a time (a program's constructs never span lines). At each position the rule
// whose match starts first wins, the earlier rule on a tie; an open begin/end rule's `end`
// wins ties over its inner patterns. Returns one list of scopes per character.
function resolve(patterns) {
  const out = [];
  for (const p of patterns) {
    if (p.include) {
      const target = p.include === '$self' ? { patterns: grammar.patterns } : grammar.repository[p.include.slice(1)];
      assert.ok(target, `include ${p.include} names no rule of the repository`);
      out.push(...(target.match || target.begin ? [target] : resolve(target.patterns ?? [])));
    } else {
      out.push(p);
    }
  }
  return out;
}

function tokenize(line) {
  const scopes = Array.from(line, () => []);
  const mark = (from, to, name) => {
    if (!name) return;
    for (let i = from; i < to && i < line.length; i++) scopes[i].push(name);
  };
  const markCaptures = (m, captures) => {
    for (const [group, { name }] of Object.entries(captures ?? {})) {
      const span = m.indices[Number(group)];
      if (span) mark(span[0], span[1], name);
    }
  };
  const stack = [{ patterns: grammar.patterns }];
  let pos = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const top = stack[stack.length - 1];
    let best = null;
    if (top.end) {
      const re = compile(top.end);
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m) best = { m, kind: 'end' };
    }
    for (const rule of resolve(top.patterns)) {
      const re = compile(rule.match ?? rule.begin);
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m && (!best || m.index < best.m.index)) best = { m, rule, kind: rule.match ? 'match' : 'begin' };
    }
    if (!best) break;
    const { m } = best;
    const to = m.index + m[0].length;
    if (best.kind === 'match') {
      mark(m.index, to, best.rule.name);
      markCaptures(m, best.rule.captures);
      pos = to > pos ? to : pos + 1;
      if (pos > line.length) break;
    } else if (best.kind === 'begin') {
      markCaptures(m, best.rule.beginCaptures ?? best.rule.captures);
      stack.push({ ...best.rule, start: m.index });
      pos = to;
    } else {
      markCaptures(m, top.endCaptures ?? top.captures);
      mark(top.start, to, top.name);
      stack.pop();
      pos = to;
    }
  }
  return scopes;
}

// What a character is, leaving out the enclosing `meta.` scopes: what a theme colours.
const own = (list) => list.filter((s) => !s.startsWith('meta.'));

function robotFiles(dir) {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((f) => f.endsWith('.robot') && !f.startsWith('err_'))
    .map((f) => join(dir, f));
}

// The sample programs, the language's test programs that load, and the program lines of
// docs/LANGUAGE.md (its `ti57` blocks whole, the step and test lines of its `text` blocks).
function samples() {
  const out = [];
  for (const dir of ['programs', 'programs/ti57', 'programs/bench', 'programs/evolved', 'tests/programs', 'tests/programs/ti57']) {
    for (const file of robotFiles(dir)) out.push({ file, lines: read(file).split(/\r\n|\n|\r/) });
  }
  const doc = read('docs/LANGUAGE.md').split('\n');
  const lines = [];
  let fence = null;
  for (const line of doc) {
    const open = /^```(\w*)/.exec(line);
    if (open) {
      fence = fence === null ? open[1] : null;
      continue;
    }
    if (fence === 'ti57' || (fence === 'text' && /^\s*(\d+\s*[:.)]|test\s*\d+\s*:|name\s*:)/i.test(line))) lines.push(line);
  }
  out.push({ file: 'docs/LANGUAGE.md', lines });
  return out;
}

// ------------------------------------------------------------------ tests
test('the grammar is valid JSON for source.robot, and every regex compiles', () => {
  assert.equal(grammar.scopeName, 'source.robot');
  assert.ok(Array.isArray(grammar.patterns) && grammar.patterns.length > 0);
  let count = 0;
  for (const rule of allRules()) {
    for (const key of ['match', 'begin', 'end']) {
      if (rule[key] === undefined) continue;
      assert.doesNotThrow(() => compile(rule[key]), `${key}: ${rule[key]}`);
      count++;
    }
    if (rule.begin) assert.ok(rule.end, `begin without end: ${rule.begin}`);
  }
  assert.ok(count > 20, `only ${count} regexes`);
  for (const rule of allRules()) resolve(rule.patterns ?? []); // every include resolves
});

test('every line of every sample program is recognised and every character scoped', () => {
  const files = samples();
  assert.ok(files.length >= 20, `only ${files.length} sample files`);
  let steps = 0;
  for (const { file, lines } of files) {
    lines.forEach((line, i) => {
      const where = `${file}:${i + 1}: ${line}`;
      const scopes = tokenize(line);
      const first = line.search(/\S/);
      if (first < 0) return;
      const head = scopes[first];
      const isComment = head.some((s) => s.startsWith('comment.'));
      const kind = head.find((s) => ['meta.step.robot', 'meta.test.robot', 'meta.name.robot'].includes(s));
      assert.ok(isComment || kind, `line not recognised as a step, test, name or comment: ${where}`);
      if (kind === 'meta.step.robot') steps++;
      for (let c = 0; c < line.length; c++) {
        if (/\s/.test(line[c])) continue;
        assert.ok(own(scopes[c]).length > 0, `column ${c + 1} (\`${line[c]}\`) left unscoped: ${where}`);
        assert.ok(!scopes[c].some((s) => s.startsWith('invalid.')), `invalid scope at column ${c + 1}: ${where}`);
      }
    });
  }
  assert.ok(steps > 300, `only ${steps} steps read`);
});

// The scope of the first character of `word` in `line` (its first occurrence after `from`).
function scopeAt(line, word, from = 0) {
  const at = line.indexOf(word, from);
  assert.ok(at >= 0, `${word} not in ${line}`);
  return own(tokenize(line)[at]);
}
const has = (line, word, scope, from) =>
  assert.ok(scopeAt(line, word, from).some((s) => s.startsWith(scope)), `${word} in \`${line}\`: ${scopeAt(line, word, from)} is not ${scope}`);

test('the scopes: steps, instructions, tests, TI-57 keywords and memories', () => {
  has('12: D + 2  # forward', 'D', 'keyword.other.action.move');
  has('12: D + 2  # forward', '12', 'entity.name.function.step');
  has('12: D + 2  # forward', ':', 'punctuation.separator.step');
  has('12: D + 2  # forward', '2', 'constant.numeric', 5);
  has('12: D + 2  # forward', '#', 'comment.line.number-sign');
  has('3) t', 't', 'keyword.other.action.fire');
  has('3 right 2', 'right', 'keyword.other.action.turn');
  has('8: self-destruct', 'self-destruct', 'keyword.other.action.explode');
  has('7: ?1', '?', 'keyword.control.question');
  has('7: ?1', '1', 'entity.name.function.test', 4);
  has('9: test 2', 'test', 'keyword.control.question');
  has('4: go to 12 // jump', 'to', 'keyword.control.go');
  has('4: go to 12 // jump', '12', 'entity.name.function.step');
  has('4: go to 12 // jump', '//', 'comment.line.double-slash');
  has('Name:  the hunter # a comment', 'Name', 'keyword.other.name');
  has('Name:  the hunter # a comment', 'hunter', 'string.unquoted.name');
  has('test 3: enemy ahead-left within 2', 'test', 'storage.type.test');
  has('test 3: enemy ahead-left within 2', '3', 'entity.name.function.test');
  has('test 3: enemy ahead-left within 2', 'enemy', 'support.type.who');
  has('test 3: enemy ahead-left within 2', 'ahead-left', 'keyword.other.place');
  has('test 1: count(red robots) >= 2 and not in own camp', 'count', 'support.function.count');
  has('test 1: count(red robots) >= 2 and not in own camp', 'red', 'support.constant.color');
  has('test 1: count(red robots) >= 2 and not in own camp', '>=', 'keyword.operator.comparison');
  has('test 1: count(red robots) >= 2 and not in own camp', 'not', 'keyword.operator.logical');
  has('test 1: count(red robots) >= 2 and not in own camp', 'own', 'support.constant.owner');
  has('test 1: x >= t and R0 != -1 and shots left > 0', 't', 'variable.language.memory', 12);
  has('test 1: x >= t and R0 != -1 and shots left > 0', 'R0', 'variable.language.memory');
  has('test 1: x >= t and R0 != -1 and shots left > 0', 'left', 'variable.language.self');
  for (const [line, word] of [['5: inv   sbr', 'inv'], ['5: inv   sbr', 'sbr'], ['1: LBL 0', 'LBL'], ['8: r/s', 'r/s'],
    ['7: c.t', 'c.t'], ['9: x <> t', 'x'], ['3: x = T', 'x'], ['3: x = T', 'T'], ['4: X >= t', 'X'], ['32: RST', 'RST'],
    ['25: DSZ', 'DSZ'], ['29: PAUSE', 'PAUSE'], ['31: NOP', 'NOP'], ['35: RTN', 'RTN'], ['11: EXC 6', 'EXC']]) {
    has(line, word, 'support.function.ti57');
  }
  has('1: LBL 0', '0', 'entity.name.function.label');
  has('5: STO 0', '0', 'variable.language.register');
  has('15: x = count(enemy within 3)', 'x', 'variable.language.memory');
  has('15: x = count(enemy within 3)', '=', 'keyword.operator.assignment');
  has('15: x = count(enemy within 3)', 'enemy', 'support.type.who');
  has('19: x = R7', 'R7', 'variable.language.memory');
  has('3: -7', '-7', 'constant.numeric');
  // An unknown word stays plain text: the grammar does not pretend to check the language.
  assert.equal(own(tokenize('7: X+1')[3]).length, 0);
});

// ------------------------------------------------------------------ the keyword sets
// The words (two letters or more) a regex names: lookarounds, classes and escapes removed.
function regexWords(source) {
  let s = source.replace(/^\(\?i\)/, '');
  for (let before = ''; before !== s;) {
    before = s;
    s = s.replace(/\(\?<?[=!](?:\[[^\]]*\]|\\.|[^()])*\)/g, '');
  }
  s = s.replace(/\[[^\]]*\]/g, ' ').replace(/\\[a-zA-Z]/g, ' ');
  return (s.match(/[A-Za-z][A-Za-z-]*[A-Za-z]/g) ?? []).map((w) => w.toLowerCase());
}
function grammarWords(...keys) {
  const words = new Set();
  for (const key of keys) {
    for (const rule of resolve(grammar.repository[key].patterns)) {
      for (const k of ['match', 'begin']) if (rule[k]) regexWords(rule[k]).forEach((w) => words.add(w));
    }
  }
  return words;
}
// The words of `syn keyword` lines of the given groups of the Vim syntax file.
const vim = read('editors/vim/syntax/robot.vim');
function vimWords(groups) {
  const words = new Set();
  for (const line of vim.split('\n')) {
    const m = /^\s*syn(?:tax)?\s+keyword\s+(\w+)\s+(.*)$/.exec(line);
    if (!m || !groups.includes(m[1])) continue;
    for (const w of m[2].split(/\s+/)) {
      if (!w || w.includes('=') || /^(contained|skipwhite|skipnl|skipempty|transparent|display|fold|extend)$/.test(w)) continue;
      if (w.length >= 2) words.add(w.toLowerCase());
    }
  }
  return words;
}
const sorted = (set) => [...set].sort();

test('the Vim syntax file names the same instruction and condition words as the grammar', () => {
  assert.match(vim, /syntax case ignore/);
  assert.deepEqual(sorted(vimWords(['robotAction', 'robotControl', 'robotTi57'])), sorted(grammarWords('instruction', 'ti57')));
  assert.deepEqual(
    sorted(vimWords(['robotLogic', 'robotFunction', 'robotSelf', 'robotBoolean', 'robotPlace', 'robotWho', 'robotTerrain', 'robotOwner', 'robotColour'])),
    sorted(grammarWords('condition')),
  );
  // The keys that are not words: both files know them.
  for (const [inGrammar, inVim] of [['C\\.t', 'c\\.t'], ['R/S', 'r/s'], ['<>', '<>'], ['>=', '>='], ['\\?', '?'], ['\\*', '\\*']]) {
    assert.ok(grammarText.includes(inGrammar.replace(/\\/g, '\\\\')), `grammar lacks ${inGrammar}`);
    assert.ok(vim.toLowerCase().includes(inVim), `vim lacks ${inVim}`);
  }
  assert.ok(existsSync(join(root, 'editors/vim/ftdetect/robot.vim')));
  assert.match(read('editors/vim/ftdetect/robot.vim'), /\*\.robot/);
});

test('the grammar knows every word of the language (the parser\'s list in crates/games/src/battle/lang/parser/syntax.rs)', () => {
  const source = read('crates/games/src/battle/lang/parser/syntax.rs');
  const list = /const WORDS: &\[&str\] = &\[([\s\S]*?)\];/.exec(source);
  assert.ok(list, 'WORDS not found in syntax.rs');
  const words = [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  assert.ok(words.length > 50);
  const known = new Set();
  for (const rule of allRules()) for (const k of ['match', 'begin']) if (rule[k]) regexWords(rule[k]).forEach((w) => known.add(w));
  const missing = words.filter((w) => w.length >= 2 && !known.has(w));
  assert.deepEqual(missing, [], `words of the language the grammar does not name: ${missing}`);
});

test('the VS Code extension points at files that exist, and carries the grammar as it is', () => {
  const dir = 'editors/vscode';
  const pkg = JSON.parse(read(`${dir}/package.json`));
  const files = [pkg.main];
  for (const l of pkg.contributes.languages) {
    assert.ok(l.extensions.includes('.robot'));
    files.push(l.configuration);
  }
  for (const g of pkg.contributes.grammars) {
    assert.equal(g.scopeName, 'source.robot');
    files.push(g.path);
  }
  assert.ok(files.length >= 3);
  for (const f of files) assert.ok(existsSync(join(root, dir, f)), `${dir}/${f} is missing`);
  assert.equal(read(`${dir}/${pkg.contributes.grammars[0].path}`), grammarText,
    'the extension\'s copy of the grammar differs: cp editors/robot.tmLanguage.json editors/vscode/syntaxes/');
  const config = JSON.parse(read(`${dir}/language-configuration.json`));
  assert.equal(config.comments.lineComment, '#');
  assert.deepEqual(config.brackets, [['(', ')']]);
  assert.match(read(`${dir}/extension.js`), /\['lsp'\]/);
});

test('the Helix snippet names the language, its file type and `robots lsp`', () => {
  const toml = read('editors/helix/languages.toml');
  assert.match(toml, /name = "robot"/);
  assert.match(toml, /file-types = \["robot"\]/);
  assert.match(toml, /command = "robots"/);
  assert.match(toml, /args = \["lsp"\]/);
});

// Where Vim is installed, the syntax file is loaded in it and every character of every
// sample program must get a syntax group (not only the step's or test's region).
const vimBinary = spawnSync('vim', ['--version'], { encoding: 'utf8' }).status === 0;
test('in Vim, the syntax file gives every character of every sample program a group', () => {
  assert.ok(vimBinary, 'vim is not installed (scripts/test installs it)');
  const dir = mkdtempSync(join(tmpdir(), 'robots-vim-'));
  try {
    const files = samples().filter((s) => s.file.endsWith('.robot'));
    const out = join(dir, 'out.txt');
    const script = [
      'set nocompatible',
      `let &rtp = ${JSON.stringify(join(root, 'editors/vim'))} . ',' . &rtp`,
      'syntax on',
      'filetype on',
      'let s:out = []',
      `for f in ${JSON.stringify(files.map((s) => join(root, s.file)))}`,
      "  execute 'silent edit ' . fnameescape(f)",
      "  if &filetype !=# 'robot' | call add(s:out, f . ': filetype ' . &filetype) | endif",
      "  for l in range(1, line('$'))",
      '    let text = getline(l)',
      '    for c in range(1, len(text))',
      "      if text[c - 1] =~ '\\s' | continue | endif",
      "      let name = synIDattr(synID(l, c, 1), 'name')",
      "      if index(['', 'robotStepBody', 'robotCondition', 'robotSense'], name) >= 0",
      "        call add(s:out, f . ':' . l . ':' . c . ': ' . text)",
      '        break',
      '      endif',
      '    endfor',
      '  endfor',
      'endfor',
      `call writefile(s:out + ['done ' . len(${JSON.stringify(files.map((s) => s.file))})], ${JSON.stringify(out)})`,
      'qa!',
    ].join('\n');
    writeFileSync(join(dir, 'check.vim'), script);
    const run = spawnSync('vim', ['-u', 'NONE', '-i', 'NONE', '-N', '-es', '-S', join(dir, 'check.vim')], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, `vim: ${run.stderr}${run.stdout}`);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines.pop(), `done ${files.length}`);
    assert.deepEqual(lines, [], 'characters without a syntax group in Vim');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
