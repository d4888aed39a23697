// A Micro Robots room's own parts (hello.room.game "micro", docs/ROOMS.md "Micro Robots in a
// room") on tokens.js's tokenRoom: MICRO, the words that differ, and playMicro, the parts:
// the mission, announcing and passing, the demonstration by clicking the cells of the board.
// What it says comes from words.js; every text from the server goes in with textContent.
// The board is the server's own SVG (6×6 cells, shapes of class "cell cell-B3"; the robot
// "robot", the target "target", the waypoint "via", a won mission's path "path").
// The race: #timer counts the mission's seconds down on this page's clock; form#announce-form
// (input#moves-count, button#announce, button#pass) for a seated player who has not passed.
// The first to announce shows: form#show, where clicking cells of #svg (or Enter on one)
// appends their names to input#stops (typing works too; button#clear-stops empties it), the
// stops highlighted and numbered on the board; button#send-stops sends them.
// Hooks for tests: #room.micro gets data-phase, data-seat (yours), data-mission,
// data-showing (`you` when you show, else the seat showing), data-states, data-ready; seats
// li[data-colour] data-player, data-ready, data-online, data-computer, data-tokens,
// data-passed; #timer data-left (seconds); #mission data-start, data-via, data-target;
// input#stops data-stops (the names understood, space-separated); #result data-winners.
import { h, s } from './dom.js';
import {
  COLOURS, cellOfClasses, cellWords, microInfo, microSeat, missionClockWords, missionWords, movesWords, parseStops,
  playerName, raceNote, reserveWords, stopsNote,
} from './words.js';

// A Micro Robots room's words for tokens.js's tokenRoom.
export const MICRO = {
  kind: 'micro',
  title: 'Micro Robots',
  phases: {
    writing: 'Taking seats',
    racing: 'The race: find the fewest moves',
    showing: 'Showing the way',
    done: 'The mission is over',
    over: 'The game is over',
  },
  counter: 'mission', // state.mission: #status "mission N", #room data-mission
  bid: 'moves', // state.showing.moves: the moves announced
  computer: 'away too long: the computer passes for them',
  watching: 'You watch this game.', // #seat-note for a spectator once the game is under way
  svgLabel: 'the board: the robot, the target, the waypoint',
  svgNote: 'The board cannot be drawn.',
  // The mission's clock: minutes and seconds, hidden but while it runs.
  clock: {
    phase: 'racing',
    low: 20,
    words: missionClockWords,
  },
};

/** The cell a shape of the board is (its class `cell-B3`), or null. */
const cellOf = (node) => cellOfClasses(node.classList);

/** The bounds of a cell's shape on the board (in the SVG's units): `{x0, y0, x1, y1}`, or null. */
function boundsOf(shape) {
  let b;
  try {
    b = shape.getBBox();
  } catch {
    return null;
  }
  return b.width > 0 && b.height > 0 ? { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height } : null;
}

/** Stop number `n` drawn in the top right corner of a cell of bounds `b` (`k` numbers
 *  before it there). */
function numberStop(layer, b, k, n) {
  const size = (b.x1 - b.x0) * 0.16;
  const x = b.x1 - size * 1.3 - k * size * 2.2;
  const y = b.y0 + size * 1.3;
  s('circle', { cx: x, cy: y, r: size, class: 'stop-mark' }, layer);
  s('text', { x, y: y + size * 0.4, 'text-anchor': 'middle', 'font-size': size * 1.15, class: 'stop-number' }, layer)
    .textContent = String(n);
}

/** The Micro room's own parts (tokenRoom's `play`): the mission, announcing and passing,
 *  the demonstration by clicking the cells of the board. */
export function playMicro(t) {
  const { r, send, showError, connected } = t;
  const columns = build(t);
  let cells = new Map(); // "B3" -> the shape of the board
  let overlay = null; // the stops' numbers, drawn over the board
  let missionShown = null;

  // ---- Actions ----
  r.announceForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const moves = Number(r.count.value);
    if (r.count.value.trim() === '' || !Number.isInteger(moves) || moves < 1) {
      showError('An announcement is a number of moves: a whole number from 1.');
      return;
    }
    // The mission it is for: one that ended meanwhile refuses it.
    send({ type: 'announce', moves, mission: t.state ? t.state.mission : 0 });
  });
  r.pass.addEventListener('click', () => send({ type: 'pass' }));
  r.stops.addEventListener('input', markStops);
  r.clear.addEventListener('click', () => {
    r.stops.value = '';
    markStops();
    r.stops.focus();
  });
  r.show.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const { stops, bad } = parseStops(r.stops.value);
    if (bad.length > 0) {
      showError(`Not a cell: ${bad.join(', ')} (a cell is a colour letter, ${Object.keys(COLOURS).join(' ')} and a number 1–6, such as B5).`);
      return;
    }
    if (stops.length === 0) {
      showError('Click the cells the robot stops on, in order (or write them, such as "B5 R5").');
      return;
    }
    send({ type: 'show', moves: stops.join(' ') });
  });
  r.svg.addEventListener('click', (ev) => {
    const shape = ev.target.closest('.cell');
    if (shape) addStop(cellOf(shape));
  });
  r.svg.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const shape = ev.target.closest('.cell');
    if (!shape) return;
    ev.preventDefault();
    addStop(cellOf(shape));
  });

  /** A cell clicked while you show: its name appended to input#stops. */
  function addStop(cell) {
    if (!cell || !t.myShowing() || r.stops.disabled) return;
    const { stops } = parseStops(r.stops.value);
    r.stops.value = [...stops, cell].join(' ');
    markStops();
  }

  // ---- Rendering a state ----
  /** The board drawn anew: its cells found, a layer for the stops' numbers over it. */
  function drawn(node) {
    cells = new Map();
    for (const shape of r.svg.querySelectorAll('.cell')) {
      const cell = cellOf(shape);
      if (cell) cells.set(cell, shape);
    }
    overlay = node ? s('g', { class: 'stops-overlay' }, node) : null;
  }

  function renderMission(state) {
    const playing = state.phase === 'racing' || state.phase === 'showing';
    Object.assign(r.mission.dataset, { start: state.start || '', via: state.via || '', target: state.target || '' });
    const oya = state.oya ? t.seatByColour(state.oya) : null;
    r.mission.textContent = missionWords(state, oya ? playerName(oya.player) : null);
    // A new mission empties the fields (missions only go up: a restarted server playing
    // the stored answers again shows the earlier ones on its way back, which changes nothing).
    if (playing && (missionShown === null || state.mission > missionShown)) {
      missionShown = state.mission;
      r.count.value = '';
      r.stops.value = '';
    }
  }

  /** The cells of the board: focusable, and named, while you show. */
  function renderCells() {
    const mine = t.myShowing() && connected();
    r.svg.classList.toggle('picking', mine);
    for (const [cell, shape] of cells) {
      if (mine) {
        shape.setAttribute('tabindex', '0');
        shape.setAttribute('aria-label', cellWords(cell));
      } else {
        shape.removeAttribute('tabindex');
      }
    }
  }

  /** The stops of input#stops highlighted on the board, each numbered in its order. */
  function markStops() {
    const { stops } = parseStops(r.stops.value);
    const mine = t.myShowing();
    r.stops.dataset.stops = stops.join(' ');
    for (const shape of cells.values()) shape.classList.remove('stop');
    if (overlay) overlay.replaceChildren();
    if (mine) {
      const before = new Map(); // a cell stopped on again: its next number further left
      stops.forEach((cell, i) => {
        const shape = cells.get(cell);
        if (!shape) return;
        shape.classList.add('stop');
        const b = boundsOf(shape);
        const k = before.get(cell) || 0;
        before.set(cell, k + 1);
        if (b && overlay) numberStop(overlay, b, k, i + 1);
      });
    }
    const showing = t.state && t.state.showing;
    r.stopsNote.textContent = mine && showing ? stopsNote(stops, showing.moves) : '';
  }

  function renderRace(state) {
    const racing = state.phase === 'racing';
    r.race.hidden = !racing;
    const i = t.myIndex();
    const passed = i >= 0 && Boolean((state.passed || [])[i]);
    const can = racing && i >= 0 && !passed;
    r.announceForm.hidden = !can;
    for (const node of [r.count, r.announce, r.pass]) node.disabled = !(can && connected());
    r.raceNote.textContent = raceNote(state, i, passed);
  }

  function renderShow(state) {
    const mine = t.myShowing();
    r.show.hidden = !mine;
    for (const node of [r.stops, r.clear, r.sendStops]) node.disabled = !(mine && connected());
    r.showPrompt.textContent = mine
      ? `Show your ${movesWords(state.showing.moves)}: click the cells the robot stops on, in order (or write them).`
      : '';
    markStops();
  }

  return {
    ...columns,
    info: microInfo,
    status: reserveWords,
    seat: microSeat,
    drawn,
    render: (state) => {
      renderMission(state);
      renderCells();
      renderRace(state);
      renderShow(state);
    },
  };
}

/** The Micro room's own elements (ids of docs/ROOMS.md) in `t.r`: its sections of the two columns. */
function build({ r, el }) {
  el('count', h('input', {
    id: 'moves-count', type: 'number', min: 1, max: 99, step: 1, size: 4,
    attrs: { 'aria-label': 'your announcement: a number of moves', inputmode: 'numeric' },
  }));
  el('announce', h('button', { id: 'announce', type: 'submit', text: 'Announce' }));
  el('pass', h('button', { id: 'pass', type: 'button', text: 'Pass' }));
  el('announceForm', h('form', { id: 'announce-form', hidden: true, attrs: { autocomplete: 'off' } }, [
    h('label', {}, [document.createTextNode('Moves '), r.count]),
    h('span', { className: 'buttons' }, [r.announce, r.pass]),
  ]));
  el('raceNote', h('p', { className: 'note', id: 'race-note' }));
  el('showPrompt', h('p', { id: 'show-prompt' }));
  el('stops', h('input', {
    id: 'stops', type: 'text', size: 32, placeholder: 'B5 R5', spellcheck: false,
    attrs: { 'aria-label': 'the cells the robot stops on, in order', autocomplete: 'off', autocapitalize: 'characters' },
  }));
  el('clear', h('button', { id: 'clear-stops', type: 'button', text: 'Clear' }));
  el('sendStops', h('button', { id: 'send-stops', type: 'submit', text: 'Show' }));
  el('stopsNote', h('span', { className: 'note', id: 'stops-note', attrs: { 'aria-live': 'polite' } }));
  el('show', h('form', { id: 'show', hidden: true, attrs: { autocomplete: 'off' } }, [
    r.showPrompt,
    h('label', {}, [document.createTextNode('Stops '), r.stops]),
    h('span', { className: 'buttons' }, [r.clear, r.sendStops]),
    h('div', {}, [r.stopsNote]),
  ]));
  el('mission', h('p', { id: 'mission' }));
  el('race', h('section', { id: 'race', className: 'micro-race', hidden: true }, [
    h('h2', { text: 'The race' }), r.timer, r.raceNote, r.announceForm,
  ]));
  return { left: [r.race], centre: [r.mission, r.show] };
}
