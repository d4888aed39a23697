// The debugger panel: `robots debug`'s commands (docs/DEBUGGER.md) run by the engine's
// debugger session in the playing worker, answered in the same words as `robots debug
// --script` (the transcript); buttons for the usual moves; after each command the board
// (the viewer, moved to the session's turn) and every program with its pointer (●), the
// step read next (▶), its destroyed steps (✗) and, for the robot about to act, each test's
// answer, from the session's own frame. Text is only ever set as text.
import RobotsModel from '../../js/model.js';
import { h } from '../dom.js';

/** The buttons: label, command, title. */
export const BUTTONS = [
  ['step', 'step', 'one robot turn'],
  ['turn', 'turn', 'to the end of the team turn'],
  ['round', 'round', 'to the end of the round'],
  ['back', 'back', 'back one robot turn'],
  ['back turn', 'back turn', 'back to the start of the team turn'],
  ['continue', 'continue', 'to the next breakpoint or watch change, or the end'],
  ['reverse-continue', 'reverse-continue', 'back to the previous breakpoint or watch change, or the start'],
];

/** The most transcript kept in the page (characters): the oldest answers go first. */
const MAX_TRANSCRIPT = 200_000;

/** The program cards of the session's frame: the viewer model's rows for each robot. */
function programs(root, doc, frame) {
  const [state] = RobotsModel.expand({ ...doc, frames: [frame] });
  root.replaceChildren();
  doc.robots.forEach((robot, index) => {
    const s = state.robots[index];
    if (!s) return;
    const acting = state.next === index;
    const rows = RobotsModel.programRows(robot, s, acting, state.answers || []);
    const card = h('section', {
      class: `dbg-program${acting ? ' acting' : ''}${s.alive ? '' : ' dead'}`,
      'data-robot': robot.name,
      'data-pointer': s.pointer,
      'data-next': s.next,
    });
    card.append(h('h4', {}, `${robot.name} ${robot.origin}${s.alive ? '' : ' (destroyed)'}`));
    const list = h('ol', { class: 'steps' });
    if (rows.start) list.append(h('li', { class: 'pointer' }, '●   start'));
    for (const row of rows.steps) {
      const mark = row.lost ? '✗' : row.pointer ? '●' : row.next ? '▶' : ' ';
      const li = h('li', { 'data-step': row.n }, `${mark} ${String(row.n).padStart(3)}  ${row.text}`);
      if (row.pointer) li.classList.add('pointer');
      if (row.next) li.classList.add('next');
      if (row.lost) li.classList.add('lost');
      list.append(li);
    }
    card.append(list);
    for (const t of rows.tests) {
      const line = h('p', { class: 'test', 'data-test': t.number });
      if (t.answer) line.append(h('b', { class: t.answer === 'yes' ? 'yes' : 'no' }, `${t.answer} `));
      line.append(`?${t.number} ${t.text}`);
      card.append(line);
    }
    root.append(card);
  });
}

/**
 * The panel in `root` (holding `#debug-buttons`, `#debug-command`, `#debug-transcript`,
 * `#debug-programs`, `#debug-status`). `run(line)` runs one command in the session and
 * resolves to `debugRun`'s answer; `moved(state)` hears where the session stands.
 */
export function debuggerPanel(root, { run, moved }) {
  const $ = (id) => root.querySelector(`#${id}`);
  const transcript = $('debug-transcript');
  const input = $('debug-command');
  let doc = null;
  let busy = false;

  function append(text, failed) {
    if (!text) return;
    const block = h('span', { class: failed ? 'refused' : '' }, text.endsWith('\n') ? text : `${text}\n`);
    transcript.append(block);
    let total = transcript.textContent.length;
    while (total > MAX_TRANSCRIPT && transcript.firstChild) {
      total -= transcript.firstChild.textContent.length;
      transcript.firstChild.remove();
    }
    transcript.scrollTop = transcript.scrollHeight;
  }

  function show(state) {
    root.dataset.turn = state.turn;
    root.dataset.round = state.round;
    root.dataset.over = state.over ? 'true' : 'false';
    $('debug-status').textContent = `turn ${state.turn}, round ${state.round}${state.over ? ', the match is over' : ''}`;
    programs($('debug-programs'), doc, state.frame);
    moved(state);
  }

  async function command(line) {
    if (busy || !doc) return;
    busy = true;
    root.dataset.busy = 'true';
    try {
      const answer = await run(line);
      append(answer.text, answer.failed);
      if (answer.state) show(answer.state);
    } catch (e) {
      append(`error: ${e.message}`, true);
    } finally {
      busy = false;
      root.dataset.busy = 'false';
    }
  }

  const buttons = $('debug-buttons');
  for (const [label, line, title] of BUTTONS) {
    const b = h('button', { type: 'button', title, 'data-command': line }, label);
    b.addEventListener('click', () => command(line));
    buttons.append(b);
  }
  $('debug-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const line = input.value.trim();
    if (line === '') return;
    input.value = '';
    command(line);
  });

  return {
    /** A new session: the played match's document (for the programs), its first answer. */
    open(viewDoc, opened) {
      doc = viewDoc;
      transcript.replaceChildren();
      append(opened.text, false);
      show(opened.state);
    },
    command,
    closed() {
      doc = null;
    },
  };
}
