// The battle game's room (docs/ROOMS.md, "The pages"): the programs written in the editor,
// the seats, the board drawn from hello.board with the viewer's geometry and palette
// (RobotsModel.geometry and RobotsPalette, given by room.js), the robots placed by clicking
// a free start point then a facing, the signals, the host's pace and pause, the log, the
// result, the programs revealed and the match file. Each `state` message is rendered
// wholesale (rendering the same state twice gives the same page); what it says comes from
// words.js. Hooks for tests: #room gets data-phase, data-seat (yours), data-turn (`you` when
// the game waits for you), data-states (state messages rendered) and data-ready once a
// state is drawn; robots on #board have data-col, data-row, data-facing, data-alive,
// data-signal; seats have data-player, data-ready, data-online, data-computer.
import { h, s, showLines, seatItem } from './dom.js';
import {
  DIRECTIONS, PHASES, atKey, battleInfo, battleResult, battleSeatFlags, battleStatus, editorNote, placePrompt,
  playerName, points, robotWords, turnTo,
} from './words.js';

// The board's hexes: circumradius and margin (in the SVG's units).
const HEX = 24;
const MARGIN = 26;

/**
 * The battle room's page inside `main` (section#room), below room.js's frame (`page`: its
 * `header`, `error` (p#error), `info` (p#room-info) and `showError`). `link` is socket.js's
 * (`send`, `present()` while a socket exists); `palette` and `model` are palette.js's
 * RobotsPalette and model.js's RobotsModel.
 * Gives `receive(msg)` for each message and `render()`.
 */
export function battleRoom({ main, you, page, link, palette: PALETTE, model }) {
  const code = main.dataset.code;
  const geo = model.geometry(HEX, MARGIN);
  const teamColour = (colour) => PALETTE.teams[colour] || '#777777';
  const { showError } = page;
  const { send } = link;

  // ---- The page's skeleton (docs/ROOMS.md's ids) ----
  const ui = { info: page.info };
  const el = (name, node) => {
    ui[name] = node;
    return node;
  };

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
    // data-editor: /play's editor takes its place where the arena has it (/play/enhance.js).
    attrs: { 'aria-label': 'your program', autocomplete: 'off', autocapitalize: 'off', 'data-editor': 'robot' },
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
  main.replaceChildren(page.header, page.error, h('div', { className: 'room-grid' }, [left, centre]));

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

  const isHost = () => Boolean(hello && hello.you && hello.you.host);
  const mySeat = () => {
    const seat = state && (state.seats || []).find((x) => playerName(x.player) === you);
    if (seat) return seat.colour;
    return hello && hello.you ? hello.you.seat || null : null;
  };

  function receive(msg) {
    switch (msg.type) {
      case 'hello':
        hello = msg;
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
      const angle = turnTo(node.angle, robot.facing);
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
      node.title.textContent = robotTitle(robot);
    }
    for (const [name, node] of robotNodes) {
      if (!seen.has(name)) {
        node.group.remove();
        robotNodes.delete(name);
      }
    }
  }

  /** A robot in words, the step of a signal it waits for secret but to its team. */
  function robotTitle(robot) {
    return robotWords(robot, robot.team === mySeat());
  }

  // ---- Placing ----
  const freeSet = () => new Set(state && state.place ? (state.place.free || []).map(atKey) : []);
  const myPlacing = () => Boolean(state && state.phase === 'placing' && state.place
    && state.waiting_for && state.waiting_for === mySeat() && link.present());

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
    ui.placePrompt.textContent = placePrompt(state, mine, chosen);
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
    const items = seats.map((seat) => seatItem(seat, you, {
      label: seat.colour, hue: teamColour(seat.colour), flags: battleSeatFlags(seat, state), sit: !me && writing,
      connected: link.present(),
    }));
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
      else if (!dirty) {
        ui.source.value = program;
        ui.source.dispatchEvent(new Event('robots:set'));
      }
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
    ui.sendProgram.disabled = !(writing && me && link.present());
    ui.ready.disabled = !(writing && me && typeof program === 'string' && link.present());
    const ready = Boolean(seat && seat.ready);
    ui.ready.textContent = ready ? 'Not ready' : 'Ready';
    ui.ready.setAttribute('aria-pressed', String(ready));
    ui.ready.classList.toggle('on', ready);
    ui.ready.hidden = !writing;
    ui.sendProgram.hidden = !writing;
    ui.start.hidden = !(isHost() && writing);
    const seats = (state && state.seats) || [];
    const all = seats.length > 0 && seats.every((x) => playerName(x.player) && x.ready);
    ui.start.disabled = !(all && link.present());
    ui.diagnostics.hidden = !writing;
    ui.editorNote.textContent = editorNote(state, me, ready);
    ui.editor.hidden = !me && !writing;
  }

  function renderStatus() {
    if (!state) return;
    const phase = state.phase;
    ui.phase.textContent = PHASES[phase] || phase;
    ui.phase.dataset.phase = phase;
    ui.status.textContent = battleStatus(state, mySeat());
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
      ui.sendSignal.disabled = !link.present() || robots.length === 0;
      ui.skipSignal.disabled = !link.present() || !armed;
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
      li.append(swatch, document.createTextNode(robotTitle(robot)));
      return li;
    }));
    ui.robotList.hidden = list.length === 0;
  }

  function renderEnd() {
    const result = state && state.result;
    const over = Boolean(state && state.phase === 'over');
    if (result) {
      ui.result.textContent = battleResult(result);
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
    ui.pause.disabled = !live || !link.present();
    ui.resume.disabled = !live || !link.present();
    ui.pace.disabled = !link.present();
    ui.setPace.disabled = !link.present();
  }

  function renderInfo() {
    const room = hello && hello.room;
    if (!room) return;
    ui.info.textContent = battleInfo(room);
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

  return { receive, render };
}
