// A Micro Robots room (hello.room.game "micro", docs/ROOMS.md "Micro Robots in a room"): the
// page room.js builds inside #room on the first hello that names the game, through
// `RobotsMicroRoom.make(kit)`. The kit is room.js's `tokenRoom(game, play)`, the page both
// token games share (seats with their tokens, ready and start, #phase and #status, #timer,
// the server's SVG in #svg imported through room.js's sanitiser, #log, #result; each state
// rendered wholesale; its `t` has room.js's builders `h` and `s`). This file gives the words
// that differ (MICRO) and the Micro room's own parts (`play`); every text from the server
// goes in with textContent.
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
'use strict';

(() => {
  // The colour letters of crates/games/src/micro/board.rs (COLOURS).
  const COLOURS = { B: 'blue', Y: 'yellow', G: 'green', R: 'red', P: 'pink', W: 'white' };
  const VARIANTS = {
    standard: 'a token on each target',
    waypoint: 'through a waypoint',
    'no-token': 'no token on the target',
  };
  const CELL_CLASS = /^cell-([BYGRPW][1-6])$/;

  // A Micro Robots room's words for room.js's tokenRoom.
  const MICRO = {
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
      words: (left) => (left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left` : 'Time is up.'),
    },
  };

  /** `B3` in words: `blue 3 (B3)`; anything else as it is. */
  const cellWords = (c) => (typeof c === 'string' && COLOURS[c[0]] ? `${COLOURS[c[0]]} ${c.slice(1)} (${c})` : String(c));

  /** The names in a line of stops (`B5 R5`, `b5, r5`), upper case; `bad`: the words that are none. */
  function parseStops(text) {
    const words = String(text || '').split(/[\s,;]+/).filter(Boolean).map((w) => w.toUpperCase());
    return { stops: words.filter((w) => /^[BYGRPW][1-6]$/.test(w)), bad: words.filter((w) => !/^[BYGRPW][1-6]$/.test(w)) };
  }

  /** The cell a shape of the board is (its class `cell-B3`), or null. */
  function cellOf(node) {
    for (const name of node.classList || []) {
      const m = CELL_CLASS.exec(name);
      if (m) return m[1];
    }
    return null;
  }

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

  /** Stop number `n` drawn with `s` (room.js's SVG builder) in the top right corner of a cell
   *  of bounds `b` (`k` numbers before it there). */
  function numberStop(s, layer, b, k, n) {
    const size = (b.x1 - b.x0) * 0.16;
    const x = b.x1 - size * 1.3 - k * size * 2.2;
    const y = b.y0 + size * 1.3;
    s('circle', { cx: x, cy: y, r: size, class: 'stop-mark' }, layer);
    s('text', { x, y: y + size * 0.4, 'text-anchor': 'middle', 'font-size': size * 1.15, class: 'stop-number' }, layer)
      .textContent = String(n);
  }

  /** The Micro room: room.js's token page with the mission, the race and the stops clicked. */
  function make({ tokenRoom }) {
    return tokenRoom(MICRO, play);
  }

  /** The Micro room's own parts (tokenRoom's `play`): the mission, announcing and passing,
   *  the demonstration by clicking the cells of the board. */
  function play(t) {
    const { r, send, showError, connected, h, s } = t;
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
    function info(room) {
      const bits = [];
      if (room.board) bits.push(`${room.board} face`);
      if (room.variant) bits.push(VARIANTS[room.variant] || room.variant);
      return bits;
    }

    const status = (state) => (state.phase !== 'writing' && typeof state.reserve === 'number'
      ? [`${t.tokensWords(state.reserve)} in the reserve`] : []);

    /** What a seat adds: the player who rolled the dice (oya), passed, announced. */
    function seat(x, i, state) {
      const phase = state.phase;
      const passed = Boolean((state.passed || [])[i]);
      const flags = [];
      if (phase !== 'writing' && state.oya === x.colour) flags.push('rolled the dice');
      if (phase === 'racing' && passed) flags.push('passed');
      if (phase === 'showing' && state.showing && state.showing.colour === x.colour) flags.push(`announced ${t.movesWords(state.showing.moves)}`);
      return { classes: [state.oya === x.colour ? 'oya' : ''], data: { passed: String(passed) }, flags };
    }

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
      if (state.phase === 'writing') {
        r.mission.textContent = 'The dice are rolled once the host starts the game.';
      } else if (!state.mission || !state.start || !state.target) {
        r.mission.textContent = '';
      } else {
        const oya = state.oya ? t.seatByColour(state.oya) : null;
        const via = state.via ? ` through ${cellWords(state.via)}` : '';
        const token = state.token ? '; a token on the target' : '';
        const by = oya && t.playerName(oya.player) ? `, rolled by ${t.playerName(oya.player)}` : '';
        const when = playing ? 'Mission' : 'Last mission';
        r.mission.textContent = `${when} ${state.mission}${by}: from ${cellWords(state.start)}${via} to ${cellWords(state.target)}${token}.`;
      }
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
          if (b && overlay) numberStop(s, overlay, b, k, i + 1);
        });
      }
      const showing = t.state && t.state.showing;
      if (mine && showing) {
        const k = stops.length;
        r.stopsNote.textContent = `${k} of ${t.movesWords(showing.moves)}${k > 0 ? `: ${stops.join(' → ')}` : ''}`;
      } else {
        r.stopsNote.textContent = '';
      }
    }

    function renderRace(state) {
      const racing = state.phase === 'racing';
      r.race.hidden = !racing;
      const i = t.myIndex();
      const passed = i >= 0 && Boolean((state.passed || [])[i]);
      const can = racing && i >= 0 && !passed;
      r.announceForm.hidden = !can;
      for (const node of [r.count, r.announce, r.pass]) node.disabled = !(can && connected());
      if (!racing) r.raceNote.textContent = '';
      else if (i < 0) r.raceNote.textContent = 'The players look for the fewest moves.';
      else if (passed) r.raceNote.textContent = 'You passed this mission: waiting for the others.';
      else r.raceNote.textContent = 'Found a way? Announce its number of moves: the first announcement ends the race.';
    }

    function renderShow(state) {
      const mine = t.myShowing();
      r.show.hidden = !mine;
      for (const node of [r.stops, r.clear, r.sendStops]) node.disabled = !(mine && connected());
      r.showPrompt.textContent = mine
        ? `Show your ${t.movesWords(state.showing.moves)}: click the cells the robot stops on, in order (or write them).`
        : '';
      markStops();
    }

    return {
      ...columns,
      info,
      status,
      seat,
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
  function build({ r, el, h }) {
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

  window.RobotsMicroRoom = { make };
})();
