// The Micro Robots page (/play/micro, docs/PLAY-IN-BROWSER.md): a shipped face in an
// arrangement, the dice rolled, the robot moved by clicking the cells it stops on (each walk
// checked by the engine, `microCheck`: the games crate's rule, never JavaScript's), the count,
// hints, and the mission won at the target. Micro's solver is instant: the engine runs on the
// page's thread. The race against the computers is race.js.
import { load } from '../play/engine.js';
import { Race } from './race.js';
import { h } from '../play/dom.js';
import { readMicro, writeMicro, randomSeed } from './fragment.js';

const $ = (id) => document.getElementById(id);
const page = { engine: null, on: null, drawn: null, mission: null, stops: [], roll: 0, won: false, race: null };

function say(text, kind = 'error') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

/** The board asked for on the page: `{ face }` or `{ face, seed }`. */
function boardSpec() {
  const on = { face: $('face').value };
  if ($('arrangement').value === 'seed') on.seed = Number($('seed').value) || 0;
  return on;
}

function drawBoard() {
  try {
    page.on = boardSpec();
    page.drawn = page.engine.microBoard(page.on);
  } catch (e) {
    say(e.message);
    return;
  }
  $('arrangement-words').textContent = page.drawn.arrangement ?? '';
  const cells = page.drawn.rows.flat().map((cell, i) => {
    const b = h('button', { type: 'button', role: 'gridcell', 'data-cell': cell, 'aria-label': cell, 'data-row': Math.floor(i / 6), 'data-col': i % 6 }, cell);
    b.style.background = page.drawn.fills['BYGRPW'.indexOf(cell[0])];
    b.addEventListener('click', () => stop(cell));
    return b;
  });
  $('micro-board').replaceChildren(...cells);
}

/** Rolls a mission from `seed` (from the last target when `from` is given). */
function roll(seed, from) {
  try {
    page.mission = page.engine.microRoll(page.on, seed, { variant: $('variant').value, from });
  } catch (e) {
    say(e.message);
    return;
  }
  page.roll = seed;
  page.stops = [];
  page.won = false;
  $('hints').replaceChildren();
  $('next').disabled = true;
  history.replaceState(null, '', writeMicro({ face: page.on.face, seed: page.on.seed, variant: $('variant').value, roll: seed }));
  show();
}

function show() {
  const { from, via, to } = page.mission;
  const here = page.stops.at(-1) ?? from;
  for (const b of $('micro-board').children) {
    const cell = b.dataset.cell;
    b.toggleAttribute('data-robot', cell === here);
    b.toggleAttribute('data-target', cell === to);
    b.toggleAttribute('data-via', cell === via);
    const visited = page.stops.indexOf(cell);
    if (visited >= 0) b.dataset.visited = String(visited + 1);
    else delete b.dataset.visited;
  }
  const through = via ? `, stopping on ${via} on the way` : '';
  $('mission').textContent = `From ${from} to ${to}${through}.`;
  $('count').value = String(page.stops.length);
  $('count').textContent = String(page.stops.length);
  const result = $('result');
  result.dataset.solved = String(page.won);
  if (page.race) {
    // In a race the fewest moves are the computers' secret.
    result.textContent = page.won ? `At the target in ${page.stops.length} moves.` : '';
    return;
  }
  result.textContent = page.won ? `Mission won in ${page.stops.length} moves — the fewest is ${page.mission.moves}.` : '';
  if (page.won) result.dataset.fewest = String(page.mission.moves);
  else delete result.dataset.fewest;
}

/** The robot stops on `cell` if the engine says the move is legal. */
function stop(cell) {
  if (!page.mission || page.won) return;
  const stops = [...page.stops, cell];
  const checked = page.engine.microCheck(page.on, { ...page.mission, stops });
  if (!checked.legal) {
    say(checked.illegal.replace(/^move \d+: /, ''), 'info');
    return;
  }
  say('');
  page.stops = stops;
  page.won = checked.won;
  $('next').disabled = !page.won;
  show();
}

/** A race on the face chosen, its tiles laid out from the seed (as `micro play --seed`). */
function startRace() {
  if (page.race) endRace();
  $('arrangement').value = 'seed';
  $('seed-choice').hidden = false;
  if (!/^[0-9]{1,15}$/.test($('seed').value)) $('seed').value = String(randomSeed());
  drawBoard();
  const settings = { face: page.on.face, seed: page.on.seed, variant: $('variant').value, players: Number($('race-players').value), strength: Number($('race-strength').value) };
  const mission = (m) => {
    Object.assign(page, { mission: m, stops: [], won: false });
    show();
  };
  page.race = new Race({ engine: page.engine, mission, stops: () => page.stops, say }, settings);
  document.body.dataset.mode = 'game';
  $('race').hidden = false;
  page.race.step();
}

function endRace() {
  page.race.stop();
  page.race = null;
  document.body.dataset.mode = 'puzzle';
  $('race').hidden = true;
}

function wire() {
  $('open-race').addEventListener('submit', (e) => {
    e.preventDefault();
    startRace();
  });
  $('announce-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const moves = Number($('announce').value);
    if (!Number.isInteger(moves) || moves < 1 || moves > 99) {
      say('An announcement is a number of moves, 1 to 99.', 'info');
      return;
    }
    say('');
    page.race?.announce(moves);
  });
  $('race-pass').addEventListener('click', () => page.race?.pass());
  $('race-show').addEventListener('click', () => page.race?.show());
  $('race-end').addEventListener('click', () => page.race?.end());
  for (const id of ['face', 'arrangement', 'seed']) {
    $(id).addEventListener('change', () => {
      if (page.race) endRace();
      $('seed-choice').hidden = $('arrangement').value !== 'seed';
      drawBoard();
      roll(page.roll);
    });
  }
  $('another').addEventListener('click', () => {
    if (page.race) endRace();
    $('arrangement').value = 'seed';
    $('seed').value = String(randomSeed());
    $('seed-choice').hidden = false;
    drawBoard();
    roll(page.roll);
  });
  $('variant').addEventListener('change', () => {
    if (page.race) endRace();
    roll(page.roll);
  });
  $('roll').addEventListener('click', () => roll(randomSeed()));
  // The target is the next mission's start (RULES C.1).
  $('next').addEventListener('click', () => roll(randomSeed(), page.mission.to));
  $('undo').addEventListener('click', () => {
    page.stops.pop();
    page.won = false;
    show();
  });
  $('restart').addEventListener('click', () => {
    page.stops = [];
    page.won = false;
    show();
  });
  $('share').addEventListener('click', () => {
    $('share-link').value = location.href;
    $('share-box').hidden = false;
  });
  for (const b of document.querySelectorAll('[data-hint]')) {
    b.addEventListener('click', () => {
      const level = Number(b.dataset.hint);
      const answer = page.engine.microHint(page.on, page.mission, level);
      $('hints').append(h('li', { 'data-level': level }, `${level}: ${answer.line}`));
    });
  }
}

async function main() {
  try {
    page.engine = await load(new URL('robots.wasm', location.href));
  } catch (e) {
    say(`The engine could not load: ${e.message}`);
    return;
  }
  const { faces, default: first } = page.engine.microFaces();
  $('face').replaceChildren(...faces.map((f) => h('option', { value: f }, f)));
  const asked = readMicro(location.hash);
  $('face').value = asked.face ?? first;
  if (asked.seed !== undefined) {
    $('arrangement').value = 'seed';
    $('seed').value = String(asked.seed);
    $('seed-choice').hidden = false;
  }
  if (asked.variant) $('variant').value = asked.variant;
  wire();
  drawBoard();
  roll(asked.roll ?? randomSeed());
  document.body.dataset.ready = 'true';
}

main();
