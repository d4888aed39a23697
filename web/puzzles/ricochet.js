// The Ricochet Robots puzzle page (/play/ricochet, docs/PLAY-IN-BROWSER.md): a position from
// a game id, a seed, a file or the puzzle of the day; robots moved by clicks, keys and
// swipes, each move played by the engine (`ricochetReplay`: the games crate's own slide and
// checker, never a rule in JavaScript); hints and every optimal solution from the solver in a
// worker, with Stop; and the full game against the computers (game.js).
import { load } from '../play/engine.js';
import { EngineWorker } from '../play/engines.js';
import { h } from '../play/dom.js';
import { RicochetBoard, towards, swipe } from './board.js';
import { readRicochet, writeRicochet, today, randomSeed } from './fragment.js';
import { Game } from './game.js';

const $ = (id) => document.getElementById(id);
const KEYS = { ArrowUp: 'N', ArrowDown: 'S', ArrowLeft: 'W', ArrowRight: 'E' };
const LETTERS = { r: 'red', g: 'green', b: 'blue', y: 'yellow', s: 'silver', t: 'transparent' };

const page = {
  engine: null,
  worker: new EngineWorker(new URL('puzzles-worker.js', location.href)),
  spec: null, // the engine's spec of the position: { id } | { seed, robots } | { position } | { board, target }
  shown: null, // what the fragment says ({ day, moves } for the puzzle of the day)
  drawn: null,
  board: null,
  moves: [],
  chosen: null,
  fewest: null, // a promise of the fewest moves
  busy: 0,
  game: null, // the game against the computers under way (game.js)
  gameWorker: new EngineWorker(new URL('puzzles-worker.js', location.href)),
};

function say(text, kind = 'error') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

/** Calls the worker with the Stop button shown; a stopped or failed call says why. */
async function background(label, method, ...args) {
  page.busy += 1;
  $('stop').hidden = false;
  $('working').textContent = label;
  try {
    return await page.worker.call(method, ...args);
  } finally {
    page.busy -= 1;
    if (page.busy === 0) {
      $('stop').hidden = true;
      $('working').textContent = '';
    }
  }
}

function rules() {
  return { mustRicochet: $('rb1').checked, noSingleMove: $('rb2').checked };
}

/** Draws the position `spec` on the board, no move played; false (said) when the engine
 * refuses it. */
function draw(spec) {
  let drawn;
  try {
    drawn = page.engine.ricochetPosition(spec);
  } catch (e) {
    say(e.message);
    return false;
  }
  say('');
  Object.assign(page, { spec, drawn, moves: [], chosen: null });
  page.board = new RicochetBoard($('board'), drawn);
  $('rb1').checked = drawn.position.must_ricochet;
  $('rb2').checked = drawn.noSingleMove;
  const goal = drawn.position.goal;
  const who = goal.robot === 'any' ? 'any robot' : `the ${goal.robot} robot`;
  $('goal').textContent = `Bring ${who} to the ringed cell [${goal.at}].`;
  $('about').textContent = drawn.id ? `game id ${drawn.id}` : drawn.position.board;
  if (drawn.id) $('id').value = drawn.id;
  $('hints').replaceChildren();
  $('solution-list').replaceChildren();
  $('share-box').hidden = true;
  show();
  return true;
}

/** Opens the position `spec` (rules included) as a puzzle, leaving a game under way; `shown`
 * is what the share link names. */
function open(spec, shown = spec) {
  const game = page.game;
  if (!draw(spec)) return false;
  if (game) endGame();
  page.shown = shown;
  history.replaceState(null, '', writeRicochet({ ...shown, ...rulesOf(page.drawn) }));
  // The fewest moves, found in the background for the end of the puzzle.
  page.worker.stop();
  page.fewest = background('searching for the fewest moves…', 'ricochetSolve', spec)
    .then((s) => s.moves)
    .catch((e) => {
      if (e.kind !== 'stopped') say(e.message);
      return null;
    });
  show();
  return true;
}

/** A game against the computers (game.js), on the original board its seed draws. */
function startGame() {
  if (page.game) endGame();
  page.worker.stop();
  const seedText = $('game-seed').value.trim();
  const seed = /^[0-9]{1,15}$/.test(seedText) ? Number(seedText) : randomSeed();
  $('game-seed').value = String(seed);
  const settings = { seed, players: Number($('game-players').value), strength: Number($('game-strength').value), mustRicochet: $('rb1').checked };
  page.game = new Game({ worker: page.gameWorker, draw, moves: () => page.moves, say }, settings);
  document.body.dataset.mode = 'game';
  $('game').hidden = false;
  $('game').dataset.state = 'starting';
  $('game-log').textContent = '';
  $('scores').replaceChildren();
  page.game.step();
}

function endGame() {
  page.game.stop();
  page.game = null;
  page.gameWorker.stop();
  document.body.dataset.mode = 'puzzle';
  $('game').hidden = true;
}

function rulesOf(drawn) {
  return { mustRicochet: drawn.position.must_ricochet, noSingleMove: drawn.noSingleMove };
}

/** The moves played so far, replayed by the engine: the robots' cells and the check. */
function replay(moves) {
  return page.engine.ricochetReplay(page.spec, moves);
}

function cellsAfter(steps) {
  const cells = new Map(page.drawn.position.robots.map(({ robot, at }) => [robot, at]));
  for (const step of steps) cells.set(step.robot, step.to);
  return cells;
}

/** Shows the moves played, the count and, at the goal, the result. */
function show(animate = false) {
  const played = replay(page.moves);
  page.board.placeAll(cellsAfter(played.steps), animate);
  page.board.choose(page.chosen);
  const count = played.steps.reduce((n, s) => n + s.counts, 0);
  $('count').value = String(count);
  $('count').textContent = String(count);
  $('chosen').textContent = page.chosen ? `· ${page.chosen} chosen` : '';
  $('moves-played').replaceChildren(...played.steps.map((s) => h('li', {}, `${s.robot} ${s.dir}`)));
  const result = $('result');
  result.dataset.solved = String(played.check.valid);
  if (page.game) {
    // In a game the fewest moves are the computers' secret.
    result.textContent = played.check.valid ? `Reached in ${count} moves.` : '';
    delete result.dataset.fewest;
  } else if (played.check.valid) {
    result.textContent = `Reached in ${count} moves — the fewest is …`;
    page.fewest.then((fewest) => {
      if (result.dataset.solved !== 'true' || $('count').value !== String(count)) return;
      result.dataset.fewest = String(fewest);
      const best = fewest === count ? ' You found it.' : '';
      result.textContent = `Reached in ${count} moves — the fewest is ${fewest ?? 'unknown'}.${best}`;
    });
  } else {
    const goal = page.drawn.position.goal;
    const there = played.steps.length > 0 && played.check.reason && !/not on the target/.test(played.check.reason);
    result.textContent = there && goal ? `Not yet: ${played.check.reason}` : '';
    delete result.dataset.fewest;
  }
}

/** Moves the chosen robot `dir`; a move that cannot be played is said, not played. */
function move(dir) {
  if (!page.chosen) {
    say('Choose a robot first: click it (or press its letter: r, g, b, y).', 'info');
    return;
  }
  const m = { robot: page.chosen, dir };
  try {
    replay([...page.moves, m]);
  } catch (e) {
    say(e.message, 'info');
    return;
  }
  say('');
  page.moves.push(m);
  show(true);
}

function choose(robot) {
  if (!page.board.robots.has(robot)) return;
  page.chosen = robot;
  show();
}

async function hint(level) {
  try {
    const answer = await background(`hint ${level}…`, 'ricochetHint', page.spec, level);
    const item = h('li', { 'data-level': level }, `${level}: ${answer.lines.join('; ')}`);
    $('hints').append(item);
  } catch (e) {
    say(e.kind === 'stopped' ? 'Stopped.' : e.message, 'info');
  }
}

async function solutions() {
  try {
    const all = await background('listing the optimal solutions…', 'ricochetAll', page.spec, { limit: 50 });
    const listed = all.solutions.map((s, i) => {
      const words = s.map((m) => `${m.robot} ${m.dir}`).join(', ');
      const play = h('button', { type: 'button', 'data-solution': i }, 'play');
      play.addEventListener('click', () => playSolution(s));
      const li = h('li', {}, `${words} `);
      li.append(play);
      return li;
    });
    const more = all.count > all.listed ? ` (the first ${all.listed})` : '';
    $('solution-list').replaceChildren(h('li', { class: 'note' }, `${all.count} optimal solutions of ${all.moves} moves${more}:`), ...listed);
  } catch (e) {
    say(e.kind === 'stopped' ? 'Stopped.' : e.message, 'info');
  }
}

/** Plays a solution on the board from the start, a move at a time. */
async function playSolution(solution) {
  page.moves = [];
  show(false);
  for (const m of solution) {
    await new Promise((resolve) => setTimeout(resolve, 450));
    page.moves.push({ robot: m.robot, dir: m.dir, ...(m.to ? { to: m.to } : {}) });
    page.chosen = m.robot;
    show(true);
  }
}

async function daily(moves) {
  const day = today();
  try {
    const found = await background(`drawing the puzzle of ${day}…`, 'ricochetDaily', day, moves, { mustRicochet: $('rb1').checked });
    if (open({ id: found.id, ...rules() }, { day, moves })) {
      $('about').textContent = `puzzle of ${day} in ${moves} moves: game id ${found.id}`;
    }
  } catch (e) {
    say(e.kind === 'stopped' ? 'Stopped.' : e.message);
  }
}

async function openFile(file) {
  const text = await file.text();
  const isBoard = /^size\s*:/m.test(text);
  const targets = $('target');
  if (isBoard) {
    if (!open({ board: text, target: 0 })) return;
    targets.replaceChildren(...page.drawn.targets.map((t, i) => h('option', { value: i }, `${t.colour} ${t.symbol} [${t.at}]`)));
    $('target-choice').hidden = false;
  } else {
    $('target-choice').hidden = true;
    open({ position: text });
  }
}

function wire() {
  $('open-id').addEventListener('submit', (e) => {
    e.preventDefault();
    open({ id: $('id').value.trim(), ...rules() });
  });
  $('open-seed').addEventListener('submit', (e) => {
    e.preventDefault();
    open({ seed: Number($('seed').value), robots: $('silver').checked ? 5 : 4, ...rules() });
  });
  $('open-daily').addEventListener('submit', (e) => {
    e.preventDefault();
    daily(Number($('difficulty').value));
  });
  $('open-file').addEventListener('change', (e) => e.target.files[0] && openFile(e.target.files[0]));
  $('target').addEventListener('change', () => open({ ...page.spec, target: Number($('target').value) }));
  for (const box of ['rb1', 'rb2']) {
    $(box).addEventListener('change', () => open({ ...page.spec, ...rules() }, { ...page.shown, ...rules() }));
  }
  $('undo').addEventListener('click', () => {
    page.moves.pop();
    show(true);
  });
  $('restart').addEventListener('click', () => {
    page.moves = [];
    show(true);
  });
  $('share').addEventListener('click', () => {
    $('share-link').value = location.href;
    $('share-box').hidden = false;
    $('share-link').select();
  });
  $('stop').addEventListener('click', () => page.worker.stop());
  $('open-game').addEventListener('submit', (e) => {
    e.preventDefault();
    startGame();
  });
  $('bid-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const moves = Number($('bid').value);
    if (!Number.isInteger(moves) || moves < 1 || moves > 99) {
      say('A bid is a number of moves, 1 to 99.', 'info');
      return;
    }
    say('');
    page.game?.bid(moves);
  });
  $('pass').addEventListener('click', () => page.game?.pass());
  $('show-moves').addEventListener('click', () => page.game?.show());
  $('quit-game').addEventListener('click', () => page.game?.end());
  for (const b of document.querySelectorAll('[data-hint]')) b.addEventListener('click', () => hint(Number(b.dataset.hint)));
  $('solutions').addEventListener('click', solutions);
  for (const b of document.querySelectorAll('#pad [data-dir]')) b.addEventListener('click', () => move(b.dataset.dir));
  wirePointer();
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (KEYS[e.key]) {
      e.preventDefault();
      move(KEYS[e.key]);
    } else if (LETTERS[e.key]) choose(LETTERS[e.key]);
    else if (e.key === 'u' || e.key === 'Backspace') $('undo').click();
  });
}

/** A click on a robot chooses it; on a cell in line with the chosen robot, moves it that
 * way; a swipe (touch or mouse) moves the robot it started on, or the chosen one. */
function wirePointer() {
  let start = null;
  const host = $('board');
  host.addEventListener('pointerdown', (e) => {
    start = { x: e.clientX, y: e.clientY, on: page.board.under(e) };
    // A swipe may end off the board: its end still comes here.
    host.setPointerCapture?.(e.pointerId);
  });
  host.addEventListener('pointerup', (e) => {
    if (!start) return;
    const dir = swipe(e.clientX - start.x, e.clientY - start.y);
    const on = start.on;
    start = null;
    if (dir) {
      if (on?.robot) page.chosen = on.robot;
      move(dir);
    } else if (on?.robot) choose(on.robot);
    else if (on?.cell && page.chosen) {
      const from = page.board.robots.get(page.chosen).dataset;
      const way = towards([Number(from.x), Number(from.y)], on.cell);
      if (way) move(way);
    }
  });
}

async function main() {
  for (let n = 2; n <= 12; n++) $('difficulty').append(h('option', { value: n }, String(n)));
  for (let n = 2; n <= 4; n++) $('game-players').append(h('option', { value: n }, String(n)));
  for (let n = 1; n <= 4; n++) $('game-strength').append(h('option', { value: n }, String(n)));
  $('game-players').value = '3';
  $('game-strength').value = '2';
  $('difficulty').value = '7';
  wire();
  try {
    page.engine = await load(new URL('robots.wasm', location.href));
  } catch (e) {
    say(`The engine could not load: ${e.message}`);
    return;
  }
  const asked = readRicochet(location.hash);
  if (asked?.day) {
    // A shared puzzle of the day is that day's, whatever today is.
    const found = await background(`drawing the puzzle of ${asked.day}…`, 'ricochetDaily', asked.day, asked.moves, { mustRicochet: asked.mustRicochet ?? true }).catch((e) => say(e.message));
    if (found) open({ id: found.id, mustRicochet: asked.mustRicochet, noSingleMove: asked.noSingleMove }, asked);
  } else if (!asked || !open(asked)) {
    open({ seed: 1, robots: 4 });
  }
  document.body.dataset.ready = 'true';
}

main();
