// The page both token games share (docs/ROOMS.md, "Ricochet Robots in a room" and "Micro
// Robots in a room"): tokenRoom, built by room.js in place of the battle page on the first
// hello that names the game, with the game's own parts from ricochet.js or micro.js. Seats
// "1".."4" with their tokens, ready and start, #phase and #status, #timer counting down
// between states, the server's SVG in #svg (parsed as SVG and imported through importSvg's
// allow-list, never innerHTML), #log, #result. Each state is rendered wholesale; what it says
// comes from words.js; every text from players goes in with textContent.
import { h, showLines, seatItem } from './dom.js';
import {
  clockEnd, keepsSvgElement, keepsSvgAttribute, playerName, resultWords, seatNote, secondsLeft, tokenInfo,
  tokenSeatFlags, tokenStatus, tokensWords,
} from './words.js';

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
      if (!keepsSvgElement(child.namespaceURI, child.localName)) child.remove();
      else clean(child);
    }
    for (const attr of [...node.attributes]) {
      if (!keepsSvgAttribute(attr.name)) node.removeAttribute(attr.name);
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
 * and data-phase, data-seat, data-round or data-mission, data-showing, data-states,
 * data-ready. `opts` is room.js's: main, you, page (its header, #error, #room-info), send,
 * showError, connected(). `game` gives the words that differ (RICOCHET in ricochet.js, MICRO
 * in micro.js). `play(t)` adds the game's own parts: it gets this page `t` (opts, the
 * elements `t.r`, `t.el(name, node)` to add one, the last `t.hello` and `t.state`, the seat
 * helpers) and gives back `{left, centre}` (its sections
 * of the two columns) and hooks, each optional: info(room) and status(state) (more words
 * for #room-info and #status), seat(seat, i, state) (`{classes, data, flags}` a seat
 * adds), drawn(node) (the picture drawn anew: its svg, or null), render(state) (its parts
 * of a state), receive(msg) (the messages but hello, state and error).
 */
export function tokenRoom(opts, game, play) {
  const { main, you, page, showError } = opts;
  const t = { ...opts, r: {}, hello: null, state: null };
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
  t.seatByColour = (colour) => t.seatsOf().find((x) => x.colour === colour) || null;
  t.myShowing = () => Boolean(t.state && t.state.phase === 'showing' && t.state.showing
    && t.state.showing.colour === t.mySeat());

  const { own, grid } = buildTokenRoom(t, game, play);
  main.classList.add('token-game', game.kind);
  main.replaceChildren(page.header, page.error, grid);
  // The battle game's words about its board: a token game's room has none.
  page.info.textContent = '';

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
    runsOutAt = clockEnd(clock, performance.now());
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
    const left = on && runsOutAt !== null ? secondsLeft(runsOutAt, performance.now()) : null;
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
    page.info.textContent = tokenInfo(game.title, own.info ? own.info(room) : [], room);
  }

  /** #phase, and #status: the round (or mission), who shows how many moves, the game's words. */
  function renderStatus(state) {
    const phase = state.phase;
    r.phase.textContent = game.phases[phase] || phase;
    r.phase.dataset.phase = phase;
    r.status.textContent = tokenStatus(game, state, t.mySeat(), own.status ? own.status(state) : []);
  }

  /** A seat with its tokens, and what the game adds. */
  function tokenSeat(state, seat, i, me) {
    const n = Number(seat.tokens) || 0;
    const more = (own.seat && own.seat(seat, i, state)) || {};
    return seatItem(seat, you, {
      classes: [`seat-${seat.colour}`, ...(more.classes || [])],
      data: { tokens: String(n), ...more.data },
      label: `Seat ${seat.colour}`,
      flags: [...tokenSeatFlags(game, seat, state), ...(more.flags || [])],
      more: [h('span', { className: 'tokens', text: tokensWords(n), data: { tokens: String(n) } })],
      sit: !me && state.phase === 'writing',
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
    r.seatNote.textContent = seatNote(game, state, me, ready);
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
      const { text, winners } = resultWords(result);
      r.result.textContent = text;
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
