// The room page (docs/ROOMS.md, "The pages"): a live game over a WebSocket. The server
// renders only `<main id="room" data-code data-you>`; this script builds the page inside it
// and renders every `state` message wholesale (a state replaces the last one: rendering the
// same state twice gives the same page). The board uses the viewer's geometry and palette
// (`RobotsModel.geometry`, `RobotsPalette`: /static/model.js and /static/palette.js, loaded
// here when the page has not), with a copy of the geometry if they cannot be had.
// Every text from the server is put in with textContent, never as HTML; no inline style or
// script (the arena's Content-Security-Policy): styles are classes of room.css, positions
// are attributes or element.style set from here.
// Hooks for tests: #room gets data-phase, data-seat (yours), data-turn (`you` when the
// game waits for you), data-connection, data-states (state messages rendered) and
// data-ready once a state is drawn; robots on #board have data-col, data-row, data-facing,
// data-alive, data-signal; seats have data-player, data-ready, data-online, data-computer.
// The token games' rooms get their own page from tokenRoom, what they share: seats "1".."4"
// with their tokens, ready and start, #phase, #status, #timer, the server's SVG in #svg, #log,
// #result. A Ricochet Robots room (hello.room.game "ricochet", docs/ROOMS.md "Ricochet Robots
// in a room") adds, from makeRicochet: #bids, the bid and pass buttons, #show for the player
// showing, #target, #tokens. Its hooks: #room.ricochet gets data-phase, data-seat,
// data-round, data-showing (`you` when you show), data-states, data-ready; #timer data-left
// (seconds); #bids and #tokens items data-colour, data-bid, data-passed, data-tokens. In a
// room with hints (hello.room.hints), button#hint asks the next hint of the round (levels 1,
// 2, 3) while bidding; the answers, to this page only, in #hint-text (items data-level).
// A Micro Robots room (hello.room.game "micro") adds web/rooms/micro.js's parts
// (`RobotsMicroRoom.make`, given this script's `tokenRoom`).
'use strict';

(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const SQRT3 = Math.sqrt(3);
  // Directions 1-6 clockwise from east (R-A1).
  const DIRECTIONS = [
    [1, '→', 'E'], [2, '↘', 'SE'], [3, '↙', 'SW'], [4, '←', 'W'], [5, '↖', 'NW'], [6, '↗', 'NE'],
  ];
  const PHASES = {
    writing: 'Writing the programs',
    placing: 'Placing the robots',
    playing: 'The match',
    over: 'The game is over',
  };
  // Used only when /static/palette.js cannot be loaded.
  const FALLBACK_PALETTE = {
    plain: '#f4efe1', stroke: '#9a927d', lake: '#7fb7e6', lightning: '#ffe066', bolt: '#b8860b',
    computer: '#333333', start: '#222222', campOpacity: 0.25,
    shapes: {
      red: '#d64541', blue: '#3b6fd6', green: '#3fa34d', yellow: '#e8c21c', orange: '#f08a24', black: '#222222',
    },
    teams: {
      green: '#2e9e44', violet: '#8a4fc8', red: '#d23c3c', blue: '#2f6fd0', yellow: '#d9b400', orange: '#e67e22',
    },
  };
  const HEX = 24;
  const MARGIN = 26;
  const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

  /** An HTML element: `props` sets properties (`text` is textContent, `data` the dataset,
   *  `attrs` attributes); `children` are appended. */
  function h(tag, props = {}, children = []) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'data') Object.assign(node.dataset, value);
      else if (key === 'attrs') for (const [k, v] of Object.entries(value)) node.setAttribute(k, String(v));
      else node[key] = value;
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  /** An SVG element with its attributes. */
  function s(tag, attrs = {}, parent = null) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (parent) parent.append(node);
    return node;
  }

  /** The log's lines in list `box` (kept scrolled to its end if it was there); `section`,
   *  the box around it, hidden while there are none. */
  function showLines(box, section, lines) {
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
    box.replaceChildren(...lines.map((line) => h('li', { text: line })));
    if (atEnd) box.scrollTop = box.scrollHeight;
    section.hidden = lines.length === 0;
  }

  /**
   * An item of ul#seats (the battle game's and the token games'): li[data-colour] with
   * data-player, data-ready, data-online, data-computer and `data`, the classes `you`,
   * `empty` and `classes`; a swatch (of colour `hue` if given), `label`, the player, the
   * flags (online or away, then `flags`), the nodes `more`, then button.sit, shown on a free
   * seat when you may `sit`.
   */
  function seatItem(seat, you, { classes = [], data = {}, hue, label, flags = [], more = [], sit, connected }) {
    const name = playerName(seat.player);
    const li = h('li', {
      className: [name === you ? 'you' : '', name ? '' : 'empty', ...classes].filter(Boolean).join(' '),
      data: {
        colour: seat.colour,
        player: name || '',
        ready: String(Boolean(seat.ready)),
        online: String(Boolean(seat.online)),
        computer: String(Boolean(seat.computer)),
        ...data,
      },
    });
    const swatch = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
    if (hue) swatch.style.backgroundColor = hue;
    li.append(swatch, h('span', { className: 'colour', text: label }));
    li.append(h('span', { className: 'player', text: name ? (name === you ? `${name} (you)` : name) : 'free seat' }));
    const all = name ? [seat.online ? 'online' : 'away', ...flags] : flags;
    li.append(h('span', { className: 'flags', text: all.join(' · ') }), ...more);
    const button = h('button', { type: 'button', className: 'sit', text: 'Sit here' });
    button.hidden = Boolean(name) || !sit;
    button.disabled = button.hidden || !connected;
    li.append(button);
    return li;
  }

  const points = (corners) => corners.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');
  const atKey = (at) => `${at[0]},${at[1]}`;
  const facingWords = (f) => {
    const d = DIRECTIONS[f - 1];
    return d ? `${d[0]} ${d[1]} ${d[2]}` : String(f);
  };
  const playerName = (p) => (p && typeof p === 'object' ? p.name : p) || null;
  /** `n` and `word`, plural but for one: `1 move`, `2 moves`. */
  const plural = (n, word) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
  const movesWords = (n) => plural(n, 'move');
  const tokensWords = (n) => plural(n, 'token');

  /** The viewer's geometry when model.js is there, else the same formulas (web/README.md). */
  function makeGeometry() {
    if (typeof RobotsModel === 'object' && RobotsModel.geometry) return RobotsModel.geometry(HEX, MARGIN);
    const across = SQRT3 * HEX;
    return {
      size: HEX,
      margin: MARGIN,
      center: (col, row) => [
        MARGIN + across * (col + 0.5 * (row & 1)) + across / 2, MARGIN + 1.5 * HEX * row + HEX,
      ],
      corners(cx, cy, r = HEX) {
        const out = [];
        for (let i = 0; i < 6; i += 1) {
          const a = (Math.PI / 180) * (60 * i - 30);
          out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
        }
        return out;
      },
      extent: (w, hh) => [
        2 * MARGIN + across * w + (hh > 1 ? across / 2 : 0), 2 * MARGIN + 1.5 * HEX * (hh - 1) + 2 * HEX,
      ],
    };
  }

  function loadScript(src) {
    return new Promise((resolve) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = () => resolve(true);
      script.onerror = () => resolve(false);
      document.head.append(script);
    });
  }

  /** palette.js then model.js (model.js reads RobotsPalette), unless the page has them. */
  async function loadShared() {
    if (typeof RobotsPalette === 'undefined') await loadScript('/static/palette.js');
    if (typeof RobotsModel === 'undefined' && typeof RobotsPalette !== 'undefined') await loadScript('/static/model.js');
  }

  function start(main) {
    const code = main.dataset.code;
    const you = main.dataset.you || '';
    const PALETTE = typeof RobotsPalette === 'object' ? RobotsPalette : FALLBACK_PALETTE;
    const geo = makeGeometry();
    const teamColour = (colour) => PALETTE.teams[colour] || '#777777';

    // ---- The page's skeleton (docs/ROOMS.md's ids) ----
    const ui = {};
    const el = (name, node) => {
      ui[name] = node;
      return node;
    };
    const shareUrl = `${location.origin}/rooms/${encodeURIComponent(code)}`;

    const header = h('header', { className: 'room-head' }, [
      h('h1', {}, [document.createTextNode('Room '), el('code', h('code', { text: code }))]),
      el('info', h('p', { id: 'room-info' })),
      h('p', { className: 'share' }, [
        h('label', { htmlFor: 'share-link', text: 'Invite with this link: ' }),
        el('share', h('input', { id: 'share-link', type: 'text', readOnly: true, value: shareUrl, size: 48 })),
      ]),
      el('connection', h('p', { id: 'connection', attrs: { role: 'status', 'aria-live': 'polite' }, text: 'connecting…' })),
    ]);
    el('error', h('p', { id: 'error', hidden: true, attrs: { role: 'alert' } }));

    const phaseBox = h('section', { className: 'phase-box' }, [
      el('phase', h('p', { id: 'phase', text: '…' })),
      el('status', h('p', { id: 'status' })),
    ]);
    const seatsBox = h('section', { className: 'seats-box' }, [
      h('h2', { text: 'Seats' }),
      el('seats', h('ul', { id: 'seats' })),
    ]);

    el('source', h('textarea', {
      id: 'source', rows: 14, spellcheck: false, placeholder: 'name: my_robot\n\n1: ?1\n2: GO 1\n…',
      attrs: { 'aria-label': 'your program', autocomplete: 'off', autocapitalize: 'off' },
    }));
    el('sendProgram', h('button', { id: 'send-program', type: 'button', text: 'Send the program' }));
    el('ready', h('button', { id: 'ready', type: 'button', text: 'Ready' }));
    el('start', h('button', { id: 'start', type: 'button', text: 'Start the game', hidden: true }));
    el('diagnostics', h('ul', { id: 'diagnostics' }));
    el('editorNote', h('p', { className: 'note', id: 'editor-note' }));
    const editor = el('editor', h('section', { id: 'editor' }, [
      h('h2', { text: 'Your program' }),
      ui.editorNote,
      ui.source,
      h('div', { className: 'buttons' }, [ui.sendProgram, ui.ready, ui.start]),
      ui.diagnostics,
    ]));

    el('pace', h('input', { id: 'pace', type: 'number', min: 0.1, max: 500, step: 'any', size: 5 }));
    el('setPace', h('button', { id: 'set-pace', type: 'button', text: 'Set' }));
    el('pause', h('button', { id: 'pause', type: 'button', text: 'Pause' }));
    el('resume', h('button', { id: 'resume', type: 'button', text: 'Resume', hidden: true }));
    const hostBox = el('host', h('section', { id: 'host-controls', hidden: true }, [
      h('h2', { text: 'Host' }),
      h('label', {}, [document.createTextNode('Pace (robot turns a second) '), ui.pace, ui.setPace]),
      h('div', { className: 'buttons' }, [ui.pause, ui.resume]),
    ]));

    el('board', s('svg', { id: 'board', role: 'img', 'aria-label': 'the board' }));
    el('placePrompt', h('p', { id: 'place-prompt' }));
    el('facings', h('div', { id: 'facings', hidden: true, attrs: { role: 'group', 'aria-label': 'facing' } }, [
      h('span', { text: 'Facing: ' }),
      ...DIRECTIONS.map(([n, arrow, name]) => h('button', {
        type: 'button', text: `${n} ${arrow}`, title: `face ${n} ${arrow} ${name}`, data: { facing: String(n) },
      })),
    ]));
    const placing = el('placing', h('section', { id: 'placing', hidden: true }, [ui.placePrompt, ui.facings]));

    el('signalPrompt', h('p', { id: 'signal-prompt' }));
    el('signalRobot', h('select', { id: 'signal-robot', attrs: { 'aria-label': 'robot' } }));
    el('signalStep', h('input', {
      id: 'signal-step', type: 'number', min: 1, step: 1, size: 4, attrs: { 'aria-label': 'step', inputmode: 'numeric' },
    }));
    el('sendSignal', h('button', { id: 'send-signal', type: 'submit', text: 'Set the signal' }));
    el('skipSignal', h('button', { id: 'skip-signal', type: 'button', text: 'Clear it' }));
    el('signalArmed', h('p', { id: 'signal-armed', hidden: true }));
    const signalForm = el('signal', h('form', { id: 'signal', hidden: true, attrs: { autocomplete: 'off' } }, [
      ui.signalPrompt,
      h('label', {}, [document.createTextNode('robot '), ui.signalRobot]),
      h('label', {}, [document.createTextNode(' step '), ui.signalStep]),
      h('span', { className: 'buttons' }, [ui.sendSignal, ui.skipSignal]),
      ui.signalArmed,
    ]));
    el('mySignals', h('ul', { id: 'my-signals' }));
    const mySignalsBox = el('mySignalsBox', h('section', { className: 'my-signals-box', hidden: true }, [
      h('h2', { text: 'Your signals waiting (only you see their steps)' }),
      ui.mySignals,
    ]));
    el('robotList', h('ul', { id: 'robot-list' }));

    el('result', h('p', { id: 'result', hidden: true, attrs: { role: 'status' } }));
    el('download', h('a', {
      id: 'download-match', hidden: true, text: 'Download the match file',
      attrs: { download: `room-${code}.yaml` },
    }));
    el('revealed', h('section', { id: 'revealed', hidden: true }));
    el('log', h('ol', { id: 'log' }));

    const left = h('div', { className: 'room-side' }, [phaseBox, seatsBox, editor, hostBox]);
    const centre = h('div', { className: 'room-centre' }, [
      h('div', { className: 'result-box' }, [ui.result, ui.download]),
      h('div', { className: 'board-box' }, [ui.board]),
      placing,
      ui.robotList,
      signalForm,
      mySignalsBox,
      el('logBox', h('section', { className: 'log-box', hidden: true }, [h('h2', { text: 'Log' }), ui.log])),
      ui.revealed,
    ]);
    main.replaceChildren(header, ui.error, h('div', { className: 'room-grid' }, [left, centre]));

    // ---- What the page knows ----
    let hello = null;
    let state = null;
    let boardKey = null;
    let cells = new Map(); // "c,r" -> polygon
    let robotLayer = null;
    let ghost = null;
    const robotNodes = new Map(); // name -> { group, body, angle }
    let chosen = null; // [col, row] clicked while placing
    let dirty = false; // the textarea was edited since it last matched the server's program
    let sentSource = null;
    let signalKey = '';
    let states = 0; // state messages received by this page (data-states: a hook for tests)
    let own = null; // a token game's own page (Ricochet, Micro), once hello names the game

    const isHost = () => Boolean(hello && hello.you && hello.you.host);
    const mySeat = () => {
      const seat = state && (state.seats || []).find((x) => playerName(x.player) === you);
      if (seat) return seat.colour;
      return hello && hello.you ? hello.you.seat || null : null;
    };

    function showError(message) {
      ui.error.textContent = message;
      ui.error.hidden = !message;
    }

    // ---- The socket ----
    let socket = null;
    let attempt = 0;
    let timer = null;

    function setConnection(kind, words) {
      main.dataset.connection = kind;
      ui.connection.dataset.state = kind;
      ui.connection.textContent = words;
      ui.connection.hidden = kind === 'open';
    }

    function connect() {
      timer = null;
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      const ws = new WebSocket(`${scheme}://${location.host}/rooms/${encodeURIComponent(code)}/ws`);
      socket = ws;
      ws.addEventListener('message', (ev) => {
        if (socket !== ws) return;
        let msg;
        try {
          msg = JSON.parse(ev.data);
        } catch {
          return;
        }
        receive(msg);
      });
      ws.addEventListener('close', () => {
        if (socket !== ws) return;
        socket = null;
        later();
      });
    }

    function later() {
      if (timer !== null) return;
      const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] * (0.8 + 0.4 * Math.random());
      attempt += 1;
      setConnection('reconnecting', 'reconnecting…');
      timer = setTimeout(connect, delay);
      if (own) own.render();
      else render();
    }

    // Back on the network, or the page shown again: try at once.
    const now = () => {
      if (timer !== null) {
        clearTimeout(timer);
        connect();
      }
    };
    window.addEventListener('online', now);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') now();
    });

    function send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        showError('Not connected: reconnecting…');
        return false;
      }
      showError('');
      socket.send(JSON.stringify(message));
      return true;
    }

    function receive(msg) {
      // A Ricochet Robots or a Micro Robots room (docs/ROOMS.md): its own page.
      if (msg.type === 'hello' && msg.room && !own) own = ownRoom(msg.room.game);
      if (own) {
        if (msg.type === 'hello') {
          attempt = 0;
          setConnection('open', 'connected');
        }
        own.receive(msg);
        return;
      }
      switch (msg.type) {
        case 'hello':
          hello = msg;
          attempt = 0;
          setConnection('open', 'connected');
          drawBoard(msg.board);
          render();
          break;
        case 'state':
          state = msg;
          states += 1;
          main.dataset.states = String(states);
          render();
          break;
        case 'diagnostics':
          showDiagnostics(msg.diagnostics || []);
          break;
        case 'error':
          showError(String(msg.message || 'refused'));
          break;
        default:
          break;
      }
    }

    // ---- Actions ----
    ui.source.addEventListener('input', () => {
      dirty = true;
    });
    ui.sendProgram.addEventListener('click', () => {
      const source = ui.source.value;
      if (send({ type: 'program', source })) {
        sentSource = source;
        ui.diagnostics.replaceChildren(h('li', { className: 'pending', text: 'Checking…' }));
      }
    });
    ui.ready.addEventListener('click', () => {
      const seat = state && (state.seats || []).find((x) => x.colour === mySeat());
      send({ type: 'ready', ready: !(seat && seat.ready) });
    });
    ui.start.addEventListener('click', () => send({ type: 'start' }));
    ui.seats.addEventListener('click', (ev) => {
      const button = ev.target.closest('button.sit');
      if (!button) return;
      send({ type: 'sit', colour: button.closest('li').dataset.colour });
    });
    ui.board.addEventListener('click', (ev) => {
      const cell = ev.target.closest('[data-at]');
      if (!cell || !myPlacing()) return;
      const key = cell.dataset.at;
      if (!freeSet().has(key)) return;
      chosen = key.split(',').map(Number);
      renderPlacing();
    });
    ui.board.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      const cell = ev.target.closest('[data-at]');
      if (!cell || !myPlacing() || !freeSet().has(cell.dataset.at)) return;
      ev.preventDefault();
      chosen = cell.dataset.at.split(',').map(Number);
      renderPlacing();
      const first = ui.facings.querySelector('button');
      if (first) first.focus();
    });
    ui.facings.addEventListener('click', (ev) => {
      const button = ev.target.closest('button[data-facing]');
      if (!button || !chosen || !myPlacing()) return;
      if (send({ type: 'place', at: chosen, facing: Number(button.dataset.facing) })) {
        chosen = null;
        renderPlacing();
      }
    });
    ui.facings.addEventListener('mouseover', (ev) => {
      const button = ev.target.closest('button[data-facing]');
      if (button && chosen) drawGhost(Number(button.dataset.facing));
    });
    signalForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const step = Number(ui.signalStep.value);
      if (!Number.isInteger(step) || step < 1) {
        showError('A signal names a step: a whole number from 1.');
        return;
      }
      send({ type: 'signal', robot: ui.signalRobot.value, step });
    });
    ui.skipSignal.addEventListener('click', () => send({ type: 'skip' }));
    const setPace = () => {
      const x = Number(ui.pace.value);
      if (Number.isFinite(x) && x > 0) send({ type: 'pace', turns_per_second: x });
    };
    ui.pace.addEventListener('change', setPace);
    ui.setPace.addEventListener('click', setPace);
    ui.pause.addEventListener('click', () => send({ type: 'pause' }));
    ui.resume.addEventListener('click', () => send({ type: 'resume' }));
    ui.share.addEventListener('focus', () => ui.share.select());

    // ---- The board ----
    function drawBoard(board) {
      const key = board ? JSON.stringify(board) : '';
      if (key === boardKey) return;
      boardKey = key;
      const svg = ui.board;
      svg.replaceChildren();
      cells = new Map();
      robotNodes.clear();
      if (!board) return;
      const [width, height] = geo.extent(board.w, board.h);
      svg.setAttribute('viewBox', `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`);
      svg.dataset.board = board.name || '';
      const ground = s('g', { class: 'cells' }, svg);
      const marks = s('g', { class: 'marks' }, svg);
      for (const cell of board.cells || []) {
        const [col, row] = cell.at;
        const [cx, cy] = geo.center(col, row);
        const fill = { lake: PALETTE.lake, lightning: PALETTE.lightning }[cell.t] || PALETTE.plain;
        const hex = s('polygon', {
          points: points(geo.corners(cx, cy)), fill, stroke: PALETTE.stroke, 'stroke-width': 1,
          class: `cell ${cell.t || 'plain'}`, 'data-at': atKey(cell.at),
        }, ground);
        if (cell.start) hex.classList.add('start');
        if (cell.camp) hex.dataset.camp = cell.camp;
        s('title', {}, hex).textContent = `[${col}, ${row}]${cell.start ? ', a start point' : ''}${cell.camp ? `, ${cell.camp}'s camp` : ''}`;
        cells.set(atKey(cell.at), hex);
        if (cell.camp) {
          s('polygon', {
            points: points(geo.corners(cx, cy, geo.size - 0.5)), fill: teamColour(cell.camp),
            'fill-opacity': PALETTE.campOpacity, class: 'camp',
          }, marks);
        }
        if (cell.t === 'lightning') {
          const p = [[0.12, -0.62], [-0.3, 0.08], [-0.02, 0.08], [-0.14, 0.62], [0.3, -0.12], [0.02, -0.12]];
          s('polygon', { points: points(p.map(([x, y]) => [cx + x * geo.size, cy + y * geo.size])), fill: PALETTE.bolt }, marks);
        }
        if (cell.t === 'shape') drawShape(marks, cell, cx, cy);
        if (cell.t === 'computer') {
          const a = geo.size * 0.95;
          s('rect', {
            x: cx - a / 2, y: cy - a / 2, width: a, height: a, rx: 2, fill: PALETTE.computer,
            stroke: teamColour(cell.colour), 'stroke-width': 3, class: 'computer',
          }, marks);
        }
        if (cell.start) s('circle', { cx, cy, r: geo.size * 0.16, fill: PALETTE.start, class: 'start-mark' }, marks);
      }
      const labels = s('g', { class: 'labels' }, svg);
      for (let col = 0; col < board.w; col += 1) {
        s('text', { x: geo.center(col, 0)[0], y: geo.margin * 0.55, 'text-anchor': 'middle' }, labels).textContent = col;
      }
      for (let row = 0; row < board.h; row += 1) {
        s('text', { x: geo.margin * 0.45, y: geo.center(0, row)[1] + 4, 'text-anchor': 'middle' }, labels).textContent = row;
      }
      ghost = s('g', { class: 'ghost', visibility: 'hidden' }, svg);
      robotLayer = s('g', { class: 'robots' }, svg);
    }

    function drawShape(layer, cell, cx, cy) {
      const fill = PALETTE.shapes[cell.colour] || '#888888';
      const attrs = { fill, stroke: '#00000055', 'stroke-width': 1, class: `shape ${cell.form}` };
      const size = geo.size;
      if (cell.form === 'square') {
        const a = size * 0.9;
        s('rect', { ...attrs, x: cx - a / 2, y: cy - a / 2, width: a, height: a }, layer);
      } else if (cell.form === 'triangle') {
        const r = size * 0.62;
        s('polygon', { ...attrs, points: points([[cx, cy - r], [cx + r * 0.87, cy + r * 0.5], [cx - r * 0.87, cy + r * 0.5]]) }, layer);
      } else {
        s('circle', { ...attrs, cx, cy, r: size * 0.5 }, layer);
      }
    }

    /** A robot's picture: a disc in its team's colour, a tick towards its facing, its number. */
    function robotPicture(parent, team, label) {
      const size = geo.size;
      const body = s('g', { class: 'body' }, parent);
      s('line', { x1: 0, y1: 0, x2: size * 0.95, y2: 0, class: 'tick' }, body);
      s('circle', { r: size * 0.55, fill: teamColour(team), class: 'disc' }, body);
      s('text', { class: 'number', 'text-anchor': 'middle', y: size * 0.2 }, parent).textContent = label;
      return body;
    }

    function drawRobots(list) {
      if (!robotLayer) return;
      const seen = new Set();
      for (const robot of list) {
        if (!Array.isArray(robot.at)) continue;
        seen.add(robot.name);
        let node = robotNodes.get(robot.name);
        if (!node) {
          const group = s('g', { class: 'robot', 'data-robot': robot.name }, robotLayer);
          const body = robotPicture(group, robot.team, String(robot.name).split('.').pop());
          s('circle', { class: 'signal-mark', r: geo.size * 0.2, cx: geo.size * 0.55, cy: -geo.size * 0.55 }, group);
          const title = s('title', {}, group);
          node = { group, body, title, angle: null };
          robotNodes.set(robot.name, node);
        }
        const [x, y] = geo.center(robot.at[0], robot.at[1]);
        const target = (robot.facing - 1) * 60;
        // The nearest angle to the last one that points the same way (no spin the long way).
        const angle = node.angle === null ? target : node.angle + ((((target - node.angle) % 360) + 540) % 360) - 180;
        node.angle = angle;
        node.group.style.transform = `translate(${x.toFixed(2)}px, ${y.toFixed(2)}px)`;
        node.body.style.transform = `rotate(${angle}deg)`;
        Object.assign(node.group.dataset, {
          team: robot.team,
          col: String(robot.at[0]),
          row: String(robot.at[1]),
          facing: String(robot.facing),
          alive: String(Boolean(robot.alive)),
          signal: String(Boolean(robot.signal)),
          shots: String(robot.shots),
        });
        node.group.classList.toggle('dead', !robot.alive);
        node.group.classList.toggle('signalled', Boolean(robot.signal));
        node.title.textContent = robotWords(robot);
      }
      for (const [name, node] of robotNodes) {
        if (!seen.has(name)) {
          node.group.remove();
          robotNodes.delete(name);
        }
      }
    }

    function robotWords(robot) {
      if (!Array.isArray(robot.at)) return `${robot.name}: not placed yet`;
      if (!robot.alive) return `${robot.name}: destroyed`;
      const mine = robot.team === mySeat();
      const signal = robot.signal ? (mine ? ', a signal waits' : ', a signal waits (its step is secret)') : '';
      return `${robot.name}: [${robot.at[0]}, ${robot.at[1]}] facing ${facingWords(robot.facing)}, ${robot.shots} shots${signal}`;
    }

    // ---- Placing ----
    const freeSet = () => new Set(state && state.place ? (state.place.free || []).map(atKey) : []);
    const myPlacing = () => Boolean(state && state.phase === 'placing' && state.place
      && state.waiting_for && state.waiting_for === mySeat() && socket);

    function drawGhost(facing) {
      if (!ghost) return;
      ghost.replaceChildren();
      if (!chosen || !myPlacing()) {
        ghost.setAttribute('visibility', 'hidden');
        return;
      }
      const team = String(state.place.robot || '').split('.')[0] || mySeat();
      const body = robotPicture(ghost, team, String(state.place.robot || '').split('.').pop());
      const [x, y] = geo.center(chosen[0], chosen[1]);
      ghost.setAttribute('transform', `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
      body.setAttribute('transform', `rotate(${((facing || 1) - 1) * 60})`);
      ghost.setAttribute('visibility', 'visible');
    }

    function renderPlacing() {
      const free = freeSet();
      const mine = myPlacing();
      if (chosen && (!mine || !free.has(atKey(chosen)))) chosen = null;
      for (const [key, hex] of cells) {
        hex.classList.toggle('free', free.has(key));
        hex.classList.toggle('chosen', Boolean(chosen) && key === atKey(chosen));
        if (free.has(key) && mine) hex.setAttribute('tabindex', '0');
        else hex.removeAttribute('tabindex');
      }
      ui.board.classList.toggle('my-placing', mine);
      const placingNow = Boolean(state && state.phase === 'placing');
      ui.placing.hidden = !placingNow;
      ui.facings.hidden = !(mine && chosen);
      for (const b of ui.facings.querySelectorAll('button')) b.disabled = !(mine && chosen);
      if (placingNow && state.place) {
        const robot = state.place.robot;
        if (mine) {
          ui.placePrompt.textContent = chosen
            ? `${robot} at [${chosen[0]}, ${chosen[1]}]: choose its facing.`
            : `Your turn: click a free start point (highlighted) for ${robot}.`;
        } else {
          ui.placePrompt.textContent = `${state.waiting_for || 'someone'} is placing ${robot}…`;
        }
      } else {
        ui.placePrompt.textContent = '';
      }
      drawGhost(1);
    }

    // ---- Rendering a state ----
    function showDiagnostics(list) {
      ui.diagnostics.replaceChildren();
      if (list.length === 0) {
        ui.diagnostics.append(h('li', { className: 'ok', text: 'No errors, no warnings.' }));
      }
      for (const d of list) {
        const li = h('li', {
          className: `diagnostic ${d.severity === 'warning' ? 'warning' : 'error'}`,
          data: { line: String(d.line), column: String(d.column) },
          text: `line ${d.line}, column ${d.column}: ${d.message}`,
        });
        ui.diagnostics.append(li);
      }
    }

    function renderSeats() {
      const seats = (state && state.seats) || [];
      const me = mySeat();
      const writing = state && state.phase === 'writing';
      const items = seats.map((seat) => {
        const flags = [];
        if (seat.computer) flags.push('played by the computer');
        if (writing && playerName(seat.player)) flags.push(seat.ready ? 'ready' : 'writing…');
        if (state && state.waiting_for === seat.colour) flags.push('to play');
        return seatItem(seat, you, {
          label: seat.colour, hue: teamColour(seat.colour), flags, sit: !me && writing, connected: Boolean(socket),
        });
      });
      ui.seats.replaceChildren(...items);
    }

    function renderEditor() {
      const me = mySeat();
      const phase = state ? state.phase : null;
      const writing = phase === 'writing';
      const seat = state && (state.seats || []).find((x) => x.colour === me);
      const program = state ? state.program : null;
      if (typeof program === 'string') {
        if (program === ui.source.value) dirty = false;
        else if (!dirty) ui.source.value = program;
        if (sentSource !== null && program === sentSource) {
          sentSource = null;
          if (!ui.diagnostics.querySelector('li.diagnostic')) {
            ui.diagnostics.replaceChildren(h('li', { className: 'ok', text: 'Program received: nobody else sees it until the end.' }));
          } else {
            for (const li of ui.diagnostics.querySelectorAll('li.pending')) li.remove();
          }
        }
      }
      ui.source.readOnly = !(writing && me);
      ui.sendProgram.disabled = !(writing && me && socket);
      ui.ready.disabled = !(writing && me && typeof program === 'string' && socket);
      const ready = Boolean(seat && seat.ready);
      ui.ready.textContent = ready ? 'Not ready' : 'Ready';
      ui.ready.setAttribute('aria-pressed', String(ready));
      ui.ready.classList.toggle('on', ready);
      ui.ready.hidden = !writing;
      ui.sendProgram.hidden = !writing;
      ui.start.hidden = !(isHost() && writing);
      const seats = (state && state.seats) || [];
      const all = seats.length > 0 && seats.every((x) => playerName(x.player) && x.ready);
      ui.start.disabled = !(all && socket);
      ui.diagnostics.hidden = !writing;
      if (!state) ui.editorNote.textContent = '';
      else if (!me) ui.editorNote.textContent = writing ? 'Take a seat to write a program.' : 'You watch this game.';
      else if (writing) {
        ui.editorNote.textContent = ready
          ? 'Ready: waiting for the others and the host.'
          : 'Nobody sees your program until the end. Send it, then say you are ready.';
      } else ui.editorNote.textContent = 'Your program (the others see it once the game is over).';
      ui.editor.hidden = !me && !writing;
    }

    function renderStatus() {
      if (!state) return;
      const phase = state.phase;
      ui.phase.textContent = PHASES[phase] || phase;
      ui.phase.dataset.phase = phase;
      const parts = [];
      const me = mySeat();
      if (phase === 'playing' || phase === 'over') {
        if (state.round !== undefined && state.round !== null) parts.push(`round ${state.round}`);
        if (state.turn !== undefined && state.turn !== null) parts.push(`turn ${state.turn}`);
      }
      if (phase === 'playing') {
        parts.push(state.paused ? 'paused' : `${state.pace} turns a second`);
      } else if (phase === 'placing' && state.paused) {
        parts.push('paused: the match will wait for the host');
      }
      if (state.waiting_for && phase === 'placing') {
        parts.push(state.waiting_for === me ? 'waiting for you' : `waiting for ${state.waiting_for}`);
      }
      ui.status.textContent = parts.join(' · ');
    }

    // docs/ROOMS.md: while the match plays a player sets a signal (robot, step), sent at the
    // end of their team's next turn without holding the match up; `skip` clears it.
    function renderSignal() {
      const ask = state && state.phase !== 'over' ? state.ask_signal : null;
      if (!ask) {
        ui.signal.hidden = true;
        signalKey = '';
        ui.sendSignal.disabled = true;
        ui.skipSignal.disabled = true;
        ui.signalArmed.hidden = true;
      } else {
        const robots = ask.robots || [];
        const key = JSON.stringify(robots);
        if (key !== signalKey) {
          const keep = ui.signalRobot.value;
          ui.signalRobot.replaceChildren(...robots.map((r) => h('option', { value: r, text: r })));
          if (robots.includes(keep)) ui.signalRobot.value = keep;
          signalKey = key;
        }
        ui.signalPrompt.textContent = `A signal to one of your robots (${ask.left} left): it is sent at the end of your team's next turn. Only you see its step.`;
        const armed = ask.armed && ask.armed.robot ? ask.armed : null;
        if (armed) {
          ui.signalArmed.textContent = `Set: ${armed.robot}, step ${armed.step}, to be sent at the end of your team's next turn.`;
          Object.assign(ui.signalArmed.dataset, { robot: armed.robot, step: String(armed.step) });
        } else {
          delete ui.signalArmed.dataset.robot;
          delete ui.signalArmed.dataset.step;
        }
        ui.signalArmed.hidden = !armed;
        ui.signal.hidden = false;
        ui.sendSignal.disabled = !socket || robots.length === 0;
        ui.skipSignal.disabled = !socket || !armed;
      }
      const mine = (state && state.my_signals) || [];
      ui.mySignals.replaceChildren(...mine.map((x) => h('li', {
        data: { robot: x.robot, step: String(x.step) },
        text: `${x.robot}: step ${x.step}, at its next turn`,
      })));
      ui.mySignalsBox.hidden = mine.length === 0;
    }

    function renderRobotList() {
      const list = (state && state.robots) || [];
      ui.robotList.replaceChildren(...list.map((robot) => {
        const li = h('li', {
          className: [robot.alive ? '' : 'dead', robot.signal ? 'signalled' : ''].filter(Boolean).join(' '),
          data: { robot: robot.name, signal: String(Boolean(robot.signal)) },
        });
        const swatch = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
        swatch.style.backgroundColor = teamColour(robot.team);
        li.append(swatch, document.createTextNode(robotWords(robot)));
        return li;
      }));
      ui.robotList.hidden = list.length === 0;
    }

    function renderEnd() {
      const result = state && state.result;
      const over = Boolean(state && state.phase === 'over');
      if (result) {
        const verdict = result.verdict || (result.winner ? `${result.winner} wins` : 'a draw');
        ui.result.textContent = result.rounds !== undefined && result.rounds !== null
          ? `${verdict} after round ${result.rounds}`
          : verdict;
        ui.result.dataset.winner = result.winner || '';
        ui.result.classList.toggle('won', Boolean(result.winner) && result.winner === mySeat());
      }
      ui.result.hidden = !result;
      if (over) ui.download.href = `/rooms/${encodeURIComponent(code)}/match.yaml`;
      else ui.download.removeAttribute('href');
      ui.download.hidden = !over;
      const revealed = (state && state.revealed) || [];
      ui.revealed.replaceChildren(
        h('h2', { text: 'The programs' }),
        ...revealed.map((p) => h('div', { className: 'program', data: { colour: p.colour } }, [
          h('h3', { text: p.colour }),
          h('pre', { text: p.source }),
        ])),
      );
      ui.revealed.hidden = revealed.length === 0;
    }

    function renderHost() {
      const host = isHost();
      const phase = state ? state.phase : null;
      ui.host.hidden = !host || !(phase === 'placing' || phase === 'playing');
      if (!state) return;
      if (document.activeElement !== ui.pace && state.pace !== undefined && state.pace !== null) ui.pace.value = String(state.pace);
      // The host may pause while the robots are placed too: the match then starts paused.
      const live = phase === 'placing' || phase === 'playing';
      ui.pause.hidden = Boolean(state.paused);
      ui.resume.hidden = !state.paused;
      ui.pause.disabled = !live || !socket;
      ui.resume.disabled = !live || !socket;
      ui.pace.disabled = !socket;
      ui.setPace.disabled = !socket;
    }

    function renderInfo() {
      const room = hello && hello.room;
      if (!room) return;
      const bits = [room.board ? `${room.game || 'battle'} on ${room.board}` : room.game || 'battle'];
      if (room.scenario !== undefined) bits.push(`scenario ${room.scenario}`);
      if (room.robots !== undefined) bits.push(`${plural(room.robots, 'robot')} a side`);
      if (room.rounds !== undefined) bits.push(`${room.rounds} rounds`);
      if (room.timeout !== undefined) bits.push(`away ${room.timeout} s: the computer plays`);
      if (room.spectators !== undefined) bits.push(room.spectators ? 'spectators welcome' : 'no spectators');
      ui.info.textContent = bits.join(' · ');
    }

    function render() {
      renderInfo();
      if (!state) return;
      main.dataset.phase = state.phase;
      main.dataset.seat = mySeat() || '';
      main.dataset.turn = state.waiting_for && state.waiting_for === mySeat() ? 'you' : (state.waiting_for || '');
      renderStatus();
      renderSeats();
      renderEditor();
      drawRobots(state.robots || []);
      renderPlacing();
      renderSignal();
      renderRobotList();
      showLines(ui.log, ui.logBox, (state && state.log) || []);
      renderEnd();
      renderHost();
      main.dataset.ready = 'true';
    }

    // ---- A token game's room: Ricochet Robots or Micro Robots (docs/ROOMS.md) ----
    // Built in place of the battle game's page on the first hello that names the game: the
    // header, the share link and p#error stay; everything else is this room's (tokenRoom
    // below: what both games show alike; makeRicochet and micro.js's `RobotsMicroRoom.make`,
    // loaded before this script: what each adds). The picture is the server's own SVG
    // drawing, parsed as SVG and imported (never innerHTML); every text from players goes in
    // with textContent.
    function ownRoom(game) {
      const opts = {
        main, you, header, ui, send, showError,
        connected: () => Boolean(socket && socket.readyState === WebSocket.OPEN),
      };
      // What micro.js is given: the shared page (its `t` has this script's `h` and `s`).
      const kit = { tokenRoom: (spec, play) => tokenRoom(opts, spec, play) };
      if (game === 'ricochet') return makeRicochet(kit);
      if (game !== 'micro') return null;
      if (typeof RobotsMicroRoom === 'object' && RobotsMicroRoom.make) return RobotsMicroRoom.make(kit);
      showError('This page cannot show a Micro Robots room: /static/micro.js did not load.');
      return { receive() {}, render() {} };
    }

    setConnection('connecting', 'connecting…');
    connect();
  }

  // The SVG elements and attributes the server's drawing uses; anything else is dropped.
  const SVG_TAGS = new Set(['svg', 'g', 'rect', 'line', 'path', 'circle', 'ellipse', 'polygon', 'polyline', 'title', 'desc', 'text', 'tspan']);
  const SVG_ATTRS = new Set([
    'xmlns', 'width', 'height', 'viewbox', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points',
    'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray',
    'stroke-opacity', 'opacity', 'transform', 'text-anchor', 'font-size', 'font-family', 'font-weight', 'class',
    'dominant-baseline', 'preserveaspectratio',
  ]);

  /** The server's SVG markup as a node of this document, or null when it is not SVG. Only
   *  drawing elements and attributes are kept (no script, no link, no event handler). */
  function importSvg(markup) {
    if (typeof markup !== 'string' || markup.trim() === '') return null;
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    const root = doc.documentElement;
    if (!root || root.namespaceURI !== 'http://www.w3.org/2000/svg' || root.localName !== 'svg'
      || doc.getElementsByTagName('parsererror').length > 0) return null;
    const clean = (node) => {
      for (const child of [...node.children]) {
        if (child.namespaceURI !== 'http://www.w3.org/2000/svg' || !SVG_TAGS.has(child.localName)) child.remove();
        else clean(child);
      }
      for (const attr of [...node.attributes]) {
        if (!SVG_ATTRS.has(attr.name.toLowerCase()) && attr.name !== 'xmlns') node.removeAttribute(attr.name);
      }
    };
    clean(root);
    return document.importNode(root, true);
  }

  /**
   * A token game's page inside #room, each state rendered wholesale: what Ricochet and Micro
   * show alike. #phase and #status, the seats (`li.seat-N` with their tokens, button.sit),
   * button#ready and button#start, #timer counting down between states, the server's picture
   * in #svg, #log, #result; #room gets the classes `token-game` and `game.kind` (room.css),
   * and data-phase, data-seat,
   * data-round or data-mission, data-showing, data-states, data-ready.
   * `game` gives the words that differ (see RICOCHET). `play(t)` adds the game's own parts:
   * it gets this page `t` (opts, the elements `t.r`, `t.el(name, node)` to add one, the last
   * `t.hello` and `t.state`, the seat helpers) and gives back `{left, centre}` (its sections
   * of the two columns) and hooks, each optional: info(room) and status(state) (more words
   * for #room-info and #status), seat(seat, i, state) (`{classes, data, flags}` a seat
   * adds), drawn(node) (the picture drawn anew: its svg, or null), render(state) (its parts
   * of a state), receive(msg) (the messages but hello, state and error).
   */
  function tokenRoom(opts, game, play) {
    const { main, you, header, ui, showError } = opts;
    const t = { ...opts, h, s, r: {}, hello: null, state: null, playerName, movesWords, tokensWords };
    const r = t.r;
    let states = 0;
    let svgKey = null;
    // The clock (game.clock): when it runs out, on this page's clock (performance.now()).
    let runsOutAt = null;
    let tick = null;

    t.el = (name, node) => {
      r[name] = node;
      return node;
    };
    t.seatsOf = () => (t.state && t.state.seats) || [];
    t.myIndex = () => t.seatsOf().findIndex((x) => playerName(x.player) === you);
    t.mySeat = () => {
      const i = t.myIndex();
      if (i >= 0) return t.seatsOf()[i].colour;
      return t.hello && t.hello.you ? t.hello.you.seat || null : null;
    };
    t.isHost = () => Boolean(t.hello && t.hello.you && t.hello.you.host);
    t.seatWords = (seat) => {
      const name = playerName(seat.player);
      return name ? `${name} (seat ${seat.colour})` : `seat ${seat.colour}`;
    };
    t.seatByColour = (colour) => t.seatsOf().find((x) => x.colour === colour) || null;
    t.myShowing = () => Boolean(t.state && t.state.phase === 'showing' && t.state.showing
      && t.state.showing.colour === t.mySeat());

    const { own, grid } = buildTokenRoom(t, game, play);
    main.classList.add('token-game', game.kind);
    main.replaceChildren(header, ui.error, grid);
    // The board of the battle game: a token game's room has none.
    if (ui.info) ui.info.textContent = '';

    r.seats.addEventListener('click', (ev) => {
      const button = ev.target.closest('button.sit');
      if (button) t.send({ type: 'sit', colour: button.closest('li').dataset.colour });
    });
    r.ready.addEventListener('click', () => {
      const seat = t.seatsOf()[t.myIndex()];
      t.send({ type: 'ready', ready: !(seat && seat.ready) });
    });
    r.start.addEventListener('click', () => t.send({ type: 'start' }));

    function receive(msg) {
      switch (msg.type) {
        case 'hello':
          t.hello = msg;
          render();
          break;
        case 'state':
          t.state = msg;
          states += 1;
          main.dataset.states = String(states);
          setClock();
          render();
          break;
        case 'error':
          showError(String(msg.message || 'refused'));
          break;
        default:
          if (own.receive) own.receive(msg);
          break;
      }
    }

    // ---- The clock: seconds left, counted down here between states ----
    function setClock() {
      const clock = t.state && t.state.phase === game.clock.phase ? t.state.timer : null;
      if (clock && typeof clock.runs_out === 'number' && typeof clock.now === 'number') {
        runsOutAt = performance.now() + Math.max(0, clock.runs_out - clock.now) * 1000;
      } else {
        runsOutAt = null;
      }
      if (runsOutAt !== null && tick === null) tick = setInterval(renderClock, 200);
      if (runsOutAt === null && tick !== null) {
        clearInterval(tick);
        tick = null;
      }
    }

    /** #timer: the seconds left (data-left) while it runs in its phase; before that,
     *  game.clock.waiting if the game has words for it (data-left ""), else hidden. */
    function renderClock() {
      const { clock } = game;
      const on = Boolean(t.state && t.state.phase === clock.phase);
      const left = on && runsOutAt !== null ? Math.max(0, Math.ceil((runsOutAt - performance.now()) / 1000)) : null;
      const waiting = on && left === null ? clock.waiting || '' : '';
      r.timer.hidden = left === null && !waiting;
      r.timer.textContent = left === null ? waiting : clock.words(left);
      if (left !== null) r.timer.dataset.left = String(left);
      else if (waiting) r.timer.dataset.left = '';
      else delete r.timer.dataset.left;
      r.timer.classList.toggle('running', left !== null);
      r.timer.classList.toggle('low', left !== null && left <= clock.low);
    }

    // ---- Rendering a state ----
    function renderInfo() {
      const room = t.hello && t.hello.room;
      if (!room) return;
      const bits = [game.title, ...(own.info ? own.info(room) : [])];
      if (room.players !== undefined) bits.push(plural(room.players, 'player'));
      if (room.spectators !== undefined) bits.push(room.spectators ? 'spectators welcome' : 'no spectators');
      ui.info.textContent = bits.join(' · ');
    }

    /** #phase, and #status: the round (or mission), who shows how many moves, the game's words. */
    function renderStatus(state) {
      const phase = state.phase;
      r.phase.textContent = game.phases[phase] || phase;
      r.phase.dataset.phase = phase;
      const parts = [];
      if (phase !== 'writing' && state[game.counter]) parts.push(`${game.counter} ${state[game.counter]}`);
      const showing = state.showing;
      if (phase === 'showing' && showing) {
        const seat = t.seatByColour(showing.colour);
        const moves = movesWords(showing[game.bid]);
        parts.push(showing.colour === t.mySeat()
          ? `your turn to show ${moves}`
          : `${seat ? t.seatWords(seat) : `seat ${showing.colour}`} shows ${moves}…`);
      }
      if (own.status) parts.push(...own.status(state));
      r.status.textContent = parts.join(' · ');
    }

    /** A seat with its tokens, and what the game adds. */
    function tokenSeat(state, seat, i, me) {
      const n = Number(seat.tokens) || 0;
      const more = (own.seat && own.seat(seat, i, state)) || {};
      const writing = state.phase === 'writing';
      const flags = [];
      if (seat.computer) flags.push(game.computer);
      if (writing && playerName(seat.player)) flags.push(seat.ready ? 'ready' : 'not ready');
      return seatItem(seat, you, {
        classes: [`seat-${seat.colour}`, ...(more.classes || [])],
        data: { tokens: String(n), ...more.data },
        label: `Seat ${seat.colour}`,
        flags: [...flags, ...(more.flags || [])],
        more: [h('span', { className: 'tokens', text: tokensWords(n), data: { tokens: String(n) } })],
        sit: !me && writing,
        connected: t.connected(),
      });
    }

    /** #seats, then button#ready, button#start (the host's) and the note under them. */
    function renderSeats(state) {
      const seats = t.seatsOf();
      const me = t.mySeat();
      const seating = state.phase === 'writing';
      r.seats.replaceChildren(...seats.map((seat, i) => tokenSeat(state, seat, i, me)));
      const mine = seats[t.myIndex()];
      const ready = Boolean(mine && mine.ready);
      r.ready.textContent = ready ? 'Not ready' : 'Ready';
      r.ready.setAttribute('aria-pressed', String(ready));
      r.ready.classList.toggle('on', ready);
      r.ready.hidden = !seating || !me;
      r.ready.disabled = !t.connected();
      r.start.hidden = !(t.isHost() && seating);
      const all = seats.length > 0 && seats.every((x) => playerName(x.player) && x.ready);
      r.start.disabled = !(all && t.connected());
      if (!seating) r.seatNote.textContent = me ? '' : game.watching;
      else if (!me) r.seatNote.textContent = 'Take a seat to play.';
      else r.seatNote.textContent = ready ? 'Ready: waiting for the others and the host.' : 'Say you are ready.';
    }

    /** The server's picture (state.svg) in #svg, imported again only when it changed. */
    function renderPicture(state) {
      const markup = state.svg || '';
      if (markup === svgKey) return;
      svgKey = markup;
      const node = importSvg(markup);
      r.svg.replaceChildren(...(node ? [node] : []));
      if (markup && !node) r.svg.append(h('p', { className: 'note', text: game.svgNote }));
      if (own.drawn) own.drawn(node);
    }

    function renderEnd(state) {
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
      const { state } = t;
      if (!state) return;
      main.dataset.phase = state.phase;
      main.dataset.seat = t.mySeat() || '';
      main.dataset[game.counter] = String(state[game.counter] || 0);
      renderStatus(state);
      renderSeats(state);
      renderPicture(state);
      if (own.render) own.render(state);
      renderClock();
      const showing = state.showing;
      main.dataset.showing = t.myShowing() ? 'you' : (showing && showing.colour) || '';
      showLines(r.log, r.logBox, state.log || []);
      renderEnd(state);
      main.dataset.ready = 'true';
    }

    return { receive, render };
  }

  /** A token game's elements (docs/ROOMS.md's ids): the shared ones in `t.r`, then the
   *  game's own (`play(t)`). Gives `play`'s hooks (`own`) and the page's two columns (`grid`). */
  function buildTokenRoom(t, game, play) {
    const { r, el } = t;
    el('phase', h('p', { id: 'phase', text: '…' }));
    el('status', h('p', { id: 'status' }));
    el('seats', h('ul', { id: 'seats' }));
    el('ready', h('button', { id: 'ready', type: 'button', text: 'Ready' }));
    el('start', h('button', { id: 'start', type: 'button', text: 'Start the game', hidden: true }));
    el('seatNote', h('p', { className: 'note', id: 'seat-note' }));
    el('timer', h('p', { id: 'timer', hidden: true, attrs: { role: 'timer', 'aria-live': 'off' } }));
    el('svg', h('div', { id: 'svg', attrs: { role: 'img', 'aria-label': game.svgLabel } }));
    el('result', h('p', { id: 'result', hidden: true, attrs: { role: 'status' } }));
    el('log', h('ol', { id: 'log' }));
    el('logBox', h('section', { className: 'log-box', hidden: true }, [h('h2', { text: 'Log' }), r.log]));
    const own = play(t);
    const left = h('div', { className: 'room-side' }, [
      h('section', { className: 'phase-box' }, [r.phase, r.status]),
      h('section', { className: 'seats-box' }, [
        h('h2', { text: 'Seats' }), r.seats, r.seatNote, h('div', { className: 'buttons' }, [r.ready, r.start]),
      ]),
      ...(own.left || []),
    ]);
    const centre = h('div', { className: 'room-centre' }, [
      h('div', { className: 'result-box' }, [r.result]),
      ...(own.centre || []),
      h('div', { className: 'board-box' }, [r.svg]),
      r.logBox,
    ]);
    return { own, grid: h('div', { className: 'room-grid' }, [left, centre]) };
  }

  // A Ricochet Robots room (docs/ROOMS.md, "Ricochet Robots in a room"): its words for
  // tokenRoom (its seats "1".."4" get their hues from room.css: .seat-N).
  const RICOCHET = {
    kind: 'ricochet',
    title: 'Ricochet Robots',
    phases: {
      writing: 'Taking seats',
      bidding: 'Bidding',
      showing: 'Showing the moves',
      over: 'The game is over',
    },
    counter: 'round', // state.round: #status "round N", #room data-round
    bid: 'bid', // state.showing.bid: the moves the player showing bid
    computer: 'played by the computer',
    watching: '', // #seat-note for a spectator once the game is under way
    svgLabel: 'the position: board, robots, target',
    svgNote: 'The position cannot be drawn.',
    // The sand timer: turned by the first bid.
    clock: {
      phase: 'bidding',
      low: 10,
      waiting: 'The sand timer turns at the first bid.',
      words: (left) => (left > 0 ? `${left} s left` : 'The sand timer has run out.'),
    },
  };

  /** The Ricochet room: tokenRoom's page with the bids, the hints, the target, #show and #tokens. */
  function makeRicochet({ tokenRoom }) {
    return tokenRoom(RICOCHET, playRicochet);
  }

  /** The Ricochet room's own elements in `t.r`: its sections of the two columns. */
  function buildRicochet({ r, el }) {
    el('tokens', h('ul', { id: 'tokens' }));
    el('bids', h('ul', { id: 'bids' }));
    el('bid', h('input', {
      id: 'bid', type: 'number', min: 1, max: 99, step: 1, size: 4,
      attrs: { 'aria-label': 'your bid: a number of moves', inputmode: 'numeric' },
    }));
    el('sendBid', h('button', { id: 'send-bid', type: 'submit', text: 'Bid' }));
    el('pass', h('button', { id: 'pass', type: 'button', text: 'Pass' }));
    el('bidNote', h('p', { className: 'note', id: 'bid-note' }));
    el('hint', h('button', { id: 'hint', type: 'button', text: 'Hint', hidden: true }));
    el('hintText', h('ol', { id: 'hint-text', hidden: true, attrs: { 'aria-live': 'polite' } }));
    el('hintBox', h('div', { className: 'hint-box', hidden: true }, [r.hint, r.hintText]));
    el('bidForm', h('form', { id: 'bid-form', attrs: { autocomplete: 'off' } }, [
      h('label', {}, [document.createTextNode('Moves '), r.bid]),
      h('span', { className: 'buttons' }, [r.sendBid, r.pass]),
      r.bidNote,
    ]));
    el('showPrompt', h('p', { id: 'show-prompt' }));
    el('moves', h('input', {
      id: 'moves', type: 'text', size: 40, placeholder: 'blue N, red W, blue E', spellcheck: false,
      attrs: { 'aria-label': 'your moves', autocomplete: 'off', autocapitalize: 'off' },
    }));
    el('sendMoves', h('button', { id: 'send-moves', type: 'submit', text: 'Show' }));
    el('show', h('form', { id: 'show', hidden: true, attrs: { autocomplete: 'off' } }, [
      r.showPrompt,
      h('label', {}, [document.createTextNode('Your moves '), r.moves]),
      h('span', { className: 'buttons' }, [r.sendMoves]),
    ]));
    el('target', h('p', { id: 'target' }));
    el('bidding', h('section', { id: 'bidding', className: 'rico-bidding', hidden: true }, [
      h('h2', { text: 'Bids' }), r.timer, r.bids, r.bidForm, r.hintBox,
    ]));
    el('tokensBox', h('section', { className: 'tokens-box', hidden: true }, [h('h2', { text: 'Tokens' }), r.tokens]));
    return { left: [r.bidding, r.tokensBox], centre: [r.show, r.target] };
  }

  /** The Ricochet room's own parts (tokenRoom's `play`): bids and passes, the hints, the
   *  target, the demonstration's form, #tokens. */
  function playRicochet(t) {
    const { r, send, showError, connected, you } = t;
    const columns = buildRicochet(t);
    let roundShown = null;
    // The hints of this round: the answers received (level -> text); the next level asked.
    let hints = new Map();
    let hintRound = null;

    r.bidForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const moves = Number(r.bid.value);
      if (!Number.isInteger(moves) || moves < 1) {
        showError('A bid is a number of moves: a whole number from 1.');
        return;
      }
      send({ type: 'bid', moves });
    });
    r.pass.addEventListener('click', () => send({ type: 'pass' }));
    r.hint.addEventListener('click', () => {
      if (nextHint() <= 3) send({ type: 'hint', level: nextHint() });
    });
    r.show.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const moves = r.moves.value.trim();
      if (moves === '') {
        showError('Write your moves, such as "blue N, red W, blue E".');
        return;
      }
      send({ type: 'show', moves });
    });

    // ---- Hints (hello.room.hints): levels 1, 2, 3 a round, each answer to this page only ----
    const hintsAllowed = () => Boolean(t.hello && t.hello.room && t.hello.room.hints);
    const nextHint = () => (hints.size === 0 ? 1 : Math.max(...hints.keys()) + 1);

    function takeHint(msg) {
      const level = Number(msg.level);
      if (!Number.isInteger(level) || level < 1) return;
      hints.set(level, String(msg.text || ''));
      renderHints();
    }

    function renderHints() {
      const { state } = t;
      const round = state ? state.round : null;
      if (round !== hintRound) {
        hintRound = round;
        hints = new Map();
      }
      const seated = t.myIndex() >= 0;
      const bidding = Boolean(state && state.phase === 'bidding');
      r.hintBox.hidden = !(hintsAllowed() && seated && (bidding || hints.size > 0));
      const next = nextHint();
      r.hint.hidden = !bidding;
      r.hint.disabled = !(bidding && next <= 3 && connected());
      r.hint.textContent = next <= 3 ? `Hint ${next} of 3` : 'No more hints this round';
      const levels = [...hints.keys()].sort((x, y) => x - y);
      r.hintText.replaceChildren(...levels.map((n) => h('li', { data: { level: String(n) }, text: hints.get(n) })));
      r.hintText.hidden = levels.length === 0;
    }

    // ---- Rendering a state ----
    function info(room) {
      if (!room.board) return [];
      return [room.board === 'ricochets' ? 'on a Ricochets board' : `on the ${room.board} board`];
    }

    /** What a seat adds: its bid while the players bid. */
    function seat(x, i, state) {
      const bid = (state.bids || [])[i];
      return { flags: state.phase === 'bidding' && typeof bid === 'number' ? [`bids ${bid}`] : [] };
    }

    function renderTokens(state) {
      const seats = t.seatsOf().filter((x) => t.playerName(x.player));
      r.tokens.replaceChildren(...seats.map((x) => {
        const n = Number(x.tokens) || 0;
        return h('li', {
          className: `seat-${x.colour}`,
          data: { colour: x.colour, tokens: String(n) },
          text: `${t.seatWords(x)}: ${tokensWords(n)}`,
        });
      }));
      r.tokensBox.hidden = state.phase === 'writing' || seats.length === 0;
    }

    /** #target in words; a new round empties the fields. */
    function renderTarget(state) {
      const target = state.target;
      const playing = state.phase === 'bidding' || state.phase === 'showing';
      if (!state.round || !playing) {
        r.target.textContent = state.phase === 'writing' ? 'The target is shown once the host starts the game.' : '';
      } else if (target && target.colour) {
        r.target.textContent = `Round ${state.round}: bring the ${target.colour} robot to the ringed target.`;
      } else {
        r.target.textContent = `Round ${state.round}: bring any robot to the ringed target (the vortex).`;
      }
      r.target.dataset.colour = target && target.colour ? target.colour : (state.round ? 'any' : '');
      if (state.round !== roundShown && playing) {
        roundShown = state.round;
        r.bid.value = '';
        r.moves.value = '';
      }
    }

    /** One item of #bids: the seat, its bid, whether it passed. */
    function bidItem(state, x, i) {
      const bid = typeof (state.bids || [])[i] === 'number' ? state.bids[i] : null;
      const gone = Boolean((state.passed || [])[i]);
      const showing = state.showing;
      const words = [];
      if (bid !== null) words.push(movesWords(bid));
      if (gone) words.push('passed');
      if (bid === null && !gone) words.push(state.phase === 'bidding' ? 'no bid yet' : 'no bid');
      return h('li', {
        className: [
          `seat-${x.colour}`, t.playerName(x.player) === you ? 'you' : '', gone ? 'passed' : '',
          showing && showing.colour === x.colour ? 'showing' : '',
        ].filter(Boolean).join(' '),
        data: { colour: x.colour, bid: bid === null ? '' : String(bid), passed: String(gone) },
      }, [
        h('span', { className: 'who', text: t.seatWords(x) }),
        h('span', { className: 'what', text: words.join(' · ') }),
      ]);
    }

    function renderBids(state) {
      const bidding = state.phase === 'bidding';
      r.bidding.hidden = !(bidding || state.phase === 'showing');
      r.bids.replaceChildren(...t.seatsOf().map((x, i) => bidItem(state, x, i)));
      const bids = state.bids || [];
      const passed = state.passed || [];
      const i = t.myIndex();
      const canBid = bidding && i >= 0 && !passed[i] && connected();
      r.bidForm.hidden = !(bidding && i >= 0);
      r.bid.disabled = !canBid;
      r.sendBid.disabled = !canBid;
      r.pass.disabled = !canBid;
      if (i < 0) r.bidNote.textContent = '';
      else if (passed[i]) r.bidNote.textContent = 'You passed this round: your bid, if any, stands.';
      else if (typeof bids[i] === 'number') r.bidNote.textContent = `Your bid: ${movesWords(bids[i])}. You may lower it, or pass.`;
      else r.bidNote.textContent = 'How many moves does your solution take?';
    }

    function renderShow(state) {
      const mine = t.myShowing();
      r.show.hidden = !mine;
      r.moves.disabled = !(mine && connected());
      r.sendMoves.disabled = !(mine && connected());
      r.showPrompt.textContent = mine
        ? `Show your ${movesWords(state.showing.bid)}: each a robot and a direction, such as "blue N, red W, blue E".`
        : '';
    }

    return {
      ...columns,
      info,
      seat,
      receive: (msg) => {
        if (msg.type === 'hint') takeHint(msg);
      },
      render: (state) => {
        renderTokens(state);
        renderTarget(state);
        renderBids(state);
        renderHints();
        renderShow(state);
      },
    };
  }

  async function boot() {
    const main = document.getElementById('room');
    if (!main || !main.dataset.code) return;
    await loadShared();
    start(main);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
  else boot();
})();
