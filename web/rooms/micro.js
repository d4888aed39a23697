// A Micro Robots room (hello.room.game "micro", docs/ROOMS.md "Micro Robots in a room"): the
// page room.js builds inside #room on the first hello that names the game, through
// `RobotsMicroRoom.make(opts)` (opts from room.js: main, you, header, ui, send, showError,
// connected, h, importSvg). Each state is rendered wholesale, as the Ricochet room's are.
// The board is the server's own SVG (6×6 cells, shapes of class "cell cell-B3"; the robot
// "robot", the target "target", the waypoint "via", a won mission's path "path"), imported
// through room.js's sanitiser; every text from the server goes in with textContent.
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
  const SVG = 'http://www.w3.org/2000/svg';
  const PHASES = {
    writing: 'Taking seats',
    racing: 'The race: find the fewest moves',
    showing: 'Showing the way',
    done: 'The mission is over',
    over: 'The game is over',
  };
  // The colour letters of src/micro/board.rs (COLOURS).
  const COLOURS = { B: 'blue', Y: 'yellow', G: 'green', R: 'red', P: 'pink', W: 'white' };
  const VARIANTS = {
    standard: 'a token on each target',
    waypoint: 'through a waypoint',
    'no-token': 'no token on the target',
  };
  const CELL_CLASS = /^cell-([BYGRPW][1-6])$/;

  /** `B3` in words: `blue 3 (B3)`; anything else as it is. */
  const cellWords = (c) => (typeof c === 'string' && COLOURS[c[0]] ? `${COLOURS[c[0]]} ${c.slice(1)} (${c})` : String(c));
  const movesWords = (n) => `${n} move${Number(n) === 1 ? '' : 's'}`;
  const tokensWords = (n) => `${n} token${Number(n) === 1 ? '' : 's'}`;
  const playerName = (p) => (p && typeof p === 'object' ? p.name : p) || null;

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

  /** An SVG element with its attributes, in `parent`. */
  function s(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    parent.append(node);
    return node;
  }

  /** Stop number `n` drawn in the top right corner of a cell of bounds `b` (`k` numbers before it there). */
  function numberStop(layer, b, k, n) {
    const size = (b.x1 - b.x0) * 0.16;
    const x = b.x1 - size * 1.3 - k * size * 2.2;
    const y = b.y0 + size * 1.3;
    s('circle', { cx: x, cy: y, r: size, class: 'stop-mark' }, layer);
    s('text', { x, y: y + size * 0.4, 'text-anchor': 'middle', 'font-size': size * 1.15, class: 'stop-number' }, layer)
      .textContent = String(n);
  }

  /** The Micro room: its page inside #room, each state rendered wholesale. */
  function make({ main, you, header, ui, send, showError, connected, h, importSvg }) {
    const r = build(h);
    main.classList.add('micro');
    main.replaceChildren(header, ui.error, h('div', { className: 'room-grid' }, [r.left, r.centre]));
    if (ui.info) ui.info.textContent = '';

    let hello = null;
    let state = null;
    let states = 0;
    let svgKey = null;
    let cells = new Map(); // "B3" -> the shape of the board
    let overlay = null; // the stops' numbers, drawn over the board
    let missionShown = null;
    // The mission's clock: when it runs out, on this page's clock (performance.now()).
    let runsOutAt = null;
    let tick = null;

    const seatsOf = () => (state && state.seats) || [];
    const myIndex = () => seatsOf().findIndex((x) => playerName(x.player) === you);
    const mySeat = () => {
      const i = myIndex();
      if (i >= 0) return seatsOf()[i].colour;
      return hello && hello.you ? hello.you.seat || null : null;
    };
    const isHost = () => Boolean(hello && hello.you && hello.you.host);
    const seatWords = (seat) => {
      const name = playerName(seat.player);
      return name ? `${name} (seat ${seat.colour})` : `seat ${seat.colour}`;
    };
    const seatByColour = (colour) => seatsOf().find((x) => x.colour === colour) || null;
    const myShowing = () => Boolean(state && state.phase === 'showing' && state.showing
      && state.showing.colour === mySeat());

    // ---- Actions ----
    r.seats.addEventListener('click', (ev) => {
      const button = ev.target.closest('button.sit');
      if (button) send({ type: 'sit', colour: button.closest('li').dataset.colour });
    });
    r.ready.addEventListener('click', () => {
      const seat = seatsOf()[myIndex()];
      send({ type: 'ready', ready: !(seat && seat.ready) });
    });
    r.start.addEventListener('click', () => send({ type: 'start' }));
    r.announceForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const moves = Number(r.count.value);
      if (r.count.value.trim() === '' || !Number.isInteger(moves) || moves < 1) {
        showError('An announcement is a number of moves: a whole number from 1.');
        return;
      }
      // The mission it is for: one that ended meanwhile refuses it.
      send({ type: 'announce', moves, mission: state ? state.mission : 0 });
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
      if (!cell || !myShowing() || r.stops.disabled) return;
      const { stops } = parseStops(r.stops.value);
      r.stops.value = [...stops, cell].join(' ');
      markStops();
    }

    function receive(msg) {
      switch (msg.type) {
        case 'hello':
          hello = msg;
          render();
          break;
        case 'state':
          state = msg;
          states += 1;
          main.dataset.states = String(states);
          setTimer();
          render();
          break;
        case 'error':
          showError(String(msg.message || 'refused'));
          break;
        default:
          break;
      }
    }

    // ---- The mission's clock: seconds left, counted down here between states ----
    function setTimer() {
      const t = state && state.phase === 'racing' ? state.timer : null;
      if (t && typeof t.runs_out === 'number' && typeof t.now === 'number') {
        runsOutAt = performance.now() + Math.max(0, t.runs_out - t.now) * 1000;
      } else {
        runsOutAt = null;
      }
      if (runsOutAt !== null && tick === null) tick = setInterval(renderTimer, 200);
      if (runsOutAt === null && tick !== null) {
        clearInterval(tick);
        tick = null;
      }
    }

    function renderTimer() {
      if (!state || state.phase !== 'racing' || runsOutAt === null) {
        r.timer.textContent = '';
        delete r.timer.dataset.left;
        r.timer.hidden = true;
        r.timer.classList.remove('running', 'low');
        return;
      }
      const left = Math.max(0, Math.ceil((runsOutAt - performance.now()) / 1000));
      r.timer.hidden = false;
      r.timer.dataset.left = String(left);
      r.timer.textContent = left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left` : 'Time is up.';
      r.timer.classList.add('running');
      r.timer.classList.toggle('low', left <= 20);
    }

    // ---- Rendering a state ----
    function renderInfo() {
      const room = hello && hello.room;
      if (!room) return;
      const bits = ['Micro Robots'];
      if (room.board) bits.push(`${room.board} face`);
      if (room.variant) bits.push(VARIANTS[room.variant] || room.variant);
      if (room.players !== undefined) bits.push(`${room.players} player${Number(room.players) === 1 ? '' : 's'}`);
      if (room.spectators !== undefined) bits.push(room.spectators ? 'spectators welcome' : 'no spectators');
      ui.info.textContent = bits.join(' · ');
    }

    function renderStatus() {
      const phase = state.phase;
      r.phase.textContent = PHASES[phase] || phase;
      r.phase.dataset.phase = phase;
      const parts = [];
      if (phase !== 'writing' && state.mission) parts.push(`mission ${state.mission}`);
      const showing = state.showing;
      if (phase === 'showing' && showing) {
        const seat = seatByColour(showing.colour);
        parts.push(showing.colour === mySeat()
          ? `your turn to show ${movesWords(showing.moves)}`
          : `${seat ? seatWords(seat) : `seat ${showing.colour}`} shows ${movesWords(showing.moves)}…`);
      }
      if (phase !== 'writing' && typeof state.reserve === 'number') parts.push(`${tokensWords(state.reserve)} in the reserve`);
      r.status.textContent = parts.join(' · ');
    }

    function seatItem(seat, i, me) {
      const name = playerName(seat.player);
      const phase = state.phase;
      const passed = Boolean((state.passed || [])[i]);
      const n = Number(seat.tokens) || 0;
      const li = h('li', {
        className: [name === you ? 'you' : '', name ? '' : 'empty', `seat-${seat.colour}`,
          state.oya === seat.colour ? 'oya' : ''].filter(Boolean).join(' '),
        data: {
          colour: seat.colour,
          player: name || '',
          ready: String(Boolean(seat.ready)),
          online: String(Boolean(seat.online)),
          computer: String(Boolean(seat.computer)),
          tokens: String(n),
          passed: String(passed),
        },
      });
      li.append(h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } }));
      li.append(h('span', { className: 'colour', text: `Seat ${seat.colour}` }));
      li.append(h('span', { className: 'player', text: name ? (name === you ? `${name} (you)` : name) : 'free seat' }));
      const flags = [];
      if (name) flags.push(seat.online ? 'online' : 'away');
      if (seat.computer) flags.push('away too long: the computer passes for them');
      if (phase === 'writing' && name) flags.push(seat.ready ? 'ready' : 'not ready');
      if (phase !== 'writing' && state.oya === seat.colour) flags.push('rolled the dice');
      if (phase === 'racing' && passed) flags.push('passed');
      if (phase === 'showing' && state.showing && state.showing.colour === seat.colour) flags.push(`announced ${movesWords(state.showing.moves)}`);
      li.append(h('span', { className: 'flags', text: flags.join(' · ') }));
      li.append(h('span', { className: 'tokens', text: tokensWords(n), data: { tokens: String(n) } }));
      const sit = h('button', { type: 'button', className: 'sit', text: 'Sit here' });
      sit.hidden = Boolean(name) || Boolean(me) || phase !== 'writing';
      sit.disabled = sit.hidden || !connected();
      li.append(sit);
      return li;
    }

    function renderSeats() {
      const seats = seatsOf();
      const me = mySeat();
      const seating = state.phase === 'writing';
      r.seats.replaceChildren(...seats.map((seat, i) => seatItem(seat, i, me)));
      const mine = seats[myIndex()];
      const ready = Boolean(mine && mine.ready);
      r.ready.textContent = ready ? 'Not ready' : 'Ready';
      r.ready.setAttribute('aria-pressed', String(ready));
      r.ready.classList.toggle('on', ready);
      r.ready.hidden = !seating || !me;
      r.ready.disabled = !connected();
      r.start.hidden = !(isHost() && seating);
      const all = seats.length > 0 && seats.every((x) => playerName(x.player) && x.ready);
      r.start.disabled = !(all && connected());
      if (!seating) r.seatNote.textContent = me ? '' : 'You watch this game.';
      else if (!me) r.seatNote.textContent = 'Take a seat to play.';
      else r.seatNote.textContent = ready ? 'Ready: waiting for the others and the host.' : 'Say you are ready.';
    }

    function renderMission() {
      const playing = state.phase === 'racing' || state.phase === 'showing';
      Object.assign(r.mission.dataset, { start: state.start || '', via: state.via || '', target: state.target || '' });
      if (state.phase === 'writing') {
        r.mission.textContent = 'The dice are rolled once the host starts the game.';
      } else if (!state.mission || !state.start || !state.target) {
        r.mission.textContent = '';
      } else {
        const oya = state.oya ? seatByColour(state.oya) : null;
        const via = state.via ? ` through ${cellWords(state.via)}` : '';
        const token = state.token ? '; a token on the target' : '';
        const by = oya && playerName(oya.player) ? `, rolled by ${playerName(oya.player)}` : '';
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

    function renderBoard() {
      const markup = state.svg || '';
      if (markup !== svgKey) {
        svgKey = markup;
        const node = importSvg(markup);
        r.svg.replaceChildren(...(node ? [node] : []));
        if (markup && !node) r.svg.append(h('p', { className: 'note', text: 'The board cannot be drawn.' }));
        cells = new Map();
        for (const shape of r.svg.querySelectorAll('.cell')) {
          const cell = cellOf(shape);
          if (cell) cells.set(cell, shape);
        }
        overlay = node ? s('g', { class: 'stops-overlay' }, node) : null;
      }
      const mine = myShowing() && connected();
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
      const mine = myShowing();
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
      const showing = state && state.showing;
      if (mine && showing) {
        const k = stops.length;
        r.stopsNote.textContent = `${k} of ${movesWords(showing.moves)}${k > 0 ? `: ${stops.join(' → ')}` : ''}`;
      } else {
        r.stopsNote.textContent = '';
      }
    }

    function renderRace() {
      const racing = state.phase === 'racing';
      r.race.hidden = !racing;
      const i = myIndex();
      const passed = i >= 0 && Boolean((state.passed || [])[i]);
      const can = racing && i >= 0 && !passed;
      r.announceForm.hidden = !can;
      for (const node of [r.count, r.announce, r.pass]) node.disabled = !(can && connected());
      if (!racing) r.raceNote.textContent = '';
      else if (i < 0) r.raceNote.textContent = 'The players look for the fewest moves.';
      else if (passed) r.raceNote.textContent = 'You passed this mission: waiting for the others.';
      else r.raceNote.textContent = 'Found a way? Announce its number of moves: the first announcement ends the race.';
      renderTimer();
    }

    function renderShow() {
      const showing = state.showing;
      const mine = myShowing();
      r.show.hidden = !mine;
      for (const node of [r.stops, r.clear, r.sendStops]) node.disabled = !(mine && connected());
      r.showPrompt.textContent = mine
        ? `Show your ${movesWords(showing.moves)}: click the cells the robot stops on, in order (or write them).`
        : '';
      main.dataset.showing = mine ? 'you' : (showing && showing.colour) || '';
      markStops();
    }

    function renderLog() {
      const lines = state.log || [];
      const box = r.log;
      const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
      box.replaceChildren(...lines.map((line) => h('li', { text: line })));
      if (atEnd) box.scrollTop = box.scrollHeight;
      r.logBox.hidden = lines.length === 0;
    }

    function renderEnd() {
      const result = state.result;
      if (result) {
        const winners = (result.winners || []).map(String);
        const who = winners.length === 0 ? 'Nobody wins' : `${winners.join(' and ')} win${winners.length === 1 ? 's' : ''}`;
        r.result.textContent = result.reason ? `${who}: ${result.reason}` : who;
        r.result.dataset.winners = winners.join(',');
        r.result.classList.toggle('won', winners.includes(you));
      }
      r.result.hidden = !result;
    }

    function render() {
      renderInfo();
      if (!state) return;
      main.dataset.phase = state.phase;
      main.dataset.seat = mySeat() || '';
      main.dataset.mission = String(state.mission || 0);
      renderStatus();
      renderSeats();
      renderMission();
      renderBoard();
      renderRace();
      renderShow();
      renderLog();
      renderEnd();
      main.dataset.ready = 'true';
    }

    return { receive, render };
  }

  /** The page's elements (ids of docs/ROOMS.md), `left` and `centre` its two columns. */
  function build(h) {
    const r = {};
    const el = (name, node) => {
      r[name] = node;
      return node;
    };
    el('phase', h('p', { id: 'phase', text: '…' }));
    el('status', h('p', { id: 'status' }));
    el('seats', h('ul', { id: 'seats' }));
    el('ready', h('button', { id: 'ready', type: 'button', text: 'Ready' }));
    el('start', h('button', { id: 'start', type: 'button', text: 'Start the game', hidden: true }));
    el('seatNote', h('p', { className: 'note', id: 'seat-note' }));
    el('timer', h('p', { id: 'timer', hidden: true, attrs: { role: 'timer', 'aria-live': 'off' } }));
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
    el('svg', h('div', { id: 'svg', attrs: { role: 'img', 'aria-label': 'the board: the robot, the target, the waypoint' } }));
    el('result', h('p', { id: 'result', hidden: true, attrs: { role: 'status' } }));
    el('log', h('ol', { id: 'log' }));
    el('logBox', h('section', { className: 'log-box', hidden: true }, [h('h2', { text: 'Log' }), r.log]));
    el('race', h('section', { id: 'race', className: 'micro-race', hidden: true }, [
      h('h2', { text: 'The race' }), r.timer, r.raceNote, r.announceForm,
    ]));
    r.left = h('div', { className: 'room-side' }, [
      h('section', { className: 'phase-box' }, [r.phase, r.status]),
      h('section', { className: 'seats-box' }, [
        h('h2', { text: 'Seats' }), r.seats, r.seatNote, h('div', { className: 'buttons' }, [r.ready, r.start]),
      ]),
      r.race,
    ]);
    r.centre = h('div', { className: 'room-centre' }, [
      h('div', { className: 'result-box' }, [r.result]),
      r.mission,
      r.show,
      h('div', { className: 'board-box' }, [r.svg]),
      r.logBox,
    ]);
    return r;
  }

  window.RobotsMicroRoom = { make };
})();
