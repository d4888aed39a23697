// The program language's words for the editor, pure (no DOM, no CodeMirror): a line cut into
// tokens for the highlighting, what to complete where the cursor is, and the test a `?n`
// names for the hover. The words are those of grammar/robot.pest (web/test/play.test.mjs
// checks each list against it); whether a program is right is never decided here: the
// diagnostics are the engine's own `check`.

/** The instructions' words (the `kw_*` rules a step's instruction names). */
export const INSTRUCTION_WORDS = [
  'forward', 'fwd', 'backward', 'back', 'right', 'left', 'fire', 'shoot', 'self-destruct',
  'explode', 'test', 'RAZ', 'reset', 'RST', 'goto', 'go', 'to', 'T',
];

/** The TI-57 keys (RULES A.12), parsed in every program, allowed under the TI-57 rule only. */
export const TI57_WORDS = [
  'INV', 'LBL', 'GTO', 'SBR', 'RTN', 'STO', 'RCL', 'SUM', 'PRD', 'EXC', 'DSZ', 'PAUSE', 'NOP',
  'C.t', 'R/S',
];

/** The condition language's reserved words (the grammar's `reserved` rule) and its other keywords. */
export const CONDITION_WORDS = [
  'ahead-right', 'ahead-left', 'behind-right', 'behind-left', 'and', 'or', 'not', 'within',
  'at', 'ahead', 'behind', 'direction', 'in', 'anywhere', 'here', 'count', 'distance',
  'shots', 'damage', 'facing', 'true', 'false', 'right', 'left',
];

/** Keywords of conditions that are not reserved words (`camp`, `destroyed steps`, `shots left`). */
export const CONDITION_KEYWORDS = ['camp', 'destroyed', 'steps'];

/** Who or what a test sees (crates/games/src/battle/lang/editor/words.rs). */
export const SUBJECT_WORDS = [
  'enemy', 'friend', 'any', 'robot', 'lake', 'lightning', 'plain', 'edge', 'shape', 'camp',
  'computer', 'own',
];

/** What each completed instruction does, in the words of docs/LANGUAGE.md. */
export const INSTRUCTIONS = [
  ['D+1', 'move 1 hex forward'], ['D+2', 'move 2 hexes forward'],
  ['D-1', 'move 1 hex backward'], ['D-2', 'move 2 hexes backward'],
  ['R+1', 'turn a sixth clockwise'], ['R+2', 'turn a third clockwise'],
  ['R-1', 'turn a sixth counter-clockwise'], ['R-2', 'turn a third counter-clockwise'],
  ['T', 'fire along the facing, range 2'], ['*', 'self-destruct'],
  ['?1', 'ask test 1: yes reads the next step, no skips it'], ['?2', 'ask test 2'],
  ['?3', 'ask test 3'], ['?4', 'ask test 4'],
  ['RAZ', 'back to step 1'], ['GO ', 'read step n at once'],
];

const lower = (words) => new Set(words.map((w) => w.toLowerCase()));
const INSTRUCTION_SET = lower([...INSTRUCTION_WORDS, ...TI57_WORDS]);
const CONDITION_SET = lower([...CONDITION_WORDS, ...CONDITION_KEYWORDS]);
const SUBJECT_SET = lower(SUBJECT_WORDS);

/**
 * A line cut into tokens `{from, to, kind}` (kinds: comment, name, stepNumber, instruction,
 * test, keyword, subject, number, operator, word), spaces left out; what it cannot name is
 * a `word`, so any line, right or wrong, is cut whole.
 */
export function tokenizeLine(text) {
  const tokens = [];
  const push = (from, to, kind) => tokens.push({ from, to, kind });
  let at = 0;
  const head = /^(\s*)(name)(\s*:)/i.exec(text);
  if (head) {
    push(head[1].length, head[1].length + 4, 'keyword');
    const rest = head[0].length;
    push(rest - 1, rest, 'operator');
    const comment = commentStart(text, rest);
    const name = rest + (text.slice(rest).length - text.slice(rest).trimStart().length);
    if (comment > name) push(name, comment, 'name');
    if (comment < text.length) push(comment, text.length, 'comment');
    return tokens.filter((t) => t.to > t.from);
  }
  const step = /^(\s*)(\d+)/.exec(text);
  let inCondition = /^\s*test\s*\d+\s*:/i.test(text);
  if (step) {
    push(step[1].length, step[0].length, 'stepNumber');
    at = step[0].length;
  }
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    if (rest.startsWith('#') || rest.startsWith('//')) {
      push(at, text.length, 'comment');
      break;
    }
    const m = /^\?\s*\d*/.exec(rest)
      || /^[RrDd]\s*[+-]\s*\d+/.exec(rest)
      || /^[A-Za-z][A-Za-z0-9_-]*(\.t\b)?/.exec(rest)
      || /^\d+/.exec(rest)
      || /^(==|>=|<=|!=|<>|R\/S)/i.exec(rest)
      || /^./u.exec(rest);
    const word = m[0];
    push(at, at + word.length, kindOf(word, inCondition));
    if (/^test$/i.test(word)) inCondition = true;
    at += word.length;
  }
  return tokens;
}

function commentStart(text, from) {
  const hash = text.indexOf('#', from);
  const slashes = text.indexOf('//', from);
  const found = [hash, slashes].filter((i) => i >= 0);
  return found.length ? Math.min(...found) : text.length;
}

function kindOf(word, inCondition) {
  const w = word.toLowerCase();
  if (/^\?/.test(w) || w === 'test') return 'test';
  if (/^[rd]\s*[+-]\s*\d+$/.test(w) || w === '*' || w === 'r/s') return 'instruction';
  if (/^\d+$/.test(w)) return 'number';
  if (/^[()=<>!:.)+-]+$/.test(w) || w === '==' || w === '<>') return 'operator';
  if (inCondition) {
    if (CONDITION_SET.has(w)) return 'keyword';
    if (SUBJECT_SET.has(w)) return 'subject';
    return 'word';
  }
  if (INSTRUCTION_SET.has(w)) return 'instruction';
  return 'word';
}

/**
 * What to offer at `column` of `line` (the text before the cursor decides): `{from, options}`
 * with options `{label, detail, type}`, or null. After a step's number, the instructions;
 * in a test's condition, its words; after `GO `, the step numbers 1..`steps`.
 */
export function completionsAt(line, column, steps = 15) {
  const before = line.slice(0, column);
  if (/(#|\/\/)/.test(before)) return null;
  const word = /[A-Za-z?+*-][A-Za-z0-9?+-]*$/.exec(before);
  const from = word ? column - word[0].length : column;
  const typed = word ? word[0].toLowerCase() : '';
  const keep = (options) => {
    const shown = options.filter((o) => o.label.toLowerCase().startsWith(typed));
    return shown.length ? { from, options: shown } : null;
  };
  if (/^\s*test\s*\d+\s*:/i.test(before)) {
    return keep([
      ...CONDITION_WORDS.map((label) => ({ label, detail: 'a word of the condition language', type: 'keyword' })),
      ...SUBJECT_WORDS.map((label) => ({ label, detail: 'who or what a test sees', type: 'variable' })),
    ]);
  }
  if (/^\s*\d+\s*[:.)]?\s*(go|goto)\s+(to\s+)?$/i.test(before)) {
    const options = [];
    for (let n = 1; n <= steps; n += 1) options.push({ label: String(n), detail: `read step ${n} at once`, type: 'constant' });
    return { from: column, options };
  }
  if (/^\s*\d+\s*[:.)]?\s*[A-Za-z?+*-]*$/.test(before)) {
    return keep(INSTRUCTIONS.map(([label, detail]) => ({ label, detail, type: 'function' })));
  }
  if (/^\s*[A-Za-z]*$/.test(before)) {
    return keep([
      { label: 'test 1: ', detail: 'define test 1', type: 'keyword' },
      { label: 'test 2: ', detail: 'define test 2', type: 'keyword' },
      { label: 'test 3: ', detail: 'define test 3', type: 'keyword' },
      { label: 'test 4: ', detail: 'define test 4', type: 'keyword' },
      { label: 'name: ', detail: 'the program\'s name', type: 'keyword' },
    ]);
  }
  return null;
}

/** The test number a `?n` or `test n` at `column` of `line` names, or null. */
export function testNumberAt(line, column) {
  const re = /\?\s*(\d+)|\btest\s+(\d+)/gi;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (column >= m.index && column <= m.index + m[0].length) return Number(m[1] || m[2]);
  }
  return null;
}

/** Test `n`'s definition in `text` (`test n: …`, its comment left out), or null. */
export function testDefinition(text, n) {
  for (const line of text.split(/\r\n|\n|\r/)) {
    const m = /^\s*test\s*(\d+)\s*:(.*)$/i.exec(line);
    if (m && Number(m[1]) === n) return `test ${n}: ${m[2].slice(0, commentStart(m[2], 0)).trim()}`;
  }
  return null;
}
