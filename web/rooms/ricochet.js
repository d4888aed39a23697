// A Ricochet Robots room's own parts (docs/ROOMS.md, "Ricochet Robots in a room") on
// tokens.js's tokenRoom: RICOCHET, its words, and playRicochet, its parts: #bids and the bid
// and pass buttons, the sand timer's words, #show for the player showing, #target, #tokens.
// Hooks for tests: #room.ricochet gets data-phase, data-seat, data-round, data-showing (`you`
// when you show), data-states, data-ready; #timer data-left (seconds); #bids and #tokens
// items data-colour, data-bid, data-passed, data-tokens. In a room with hints
// (hello.room.hints), button#hint asks the next hint of the round (levels 1, 2, 3) while
// bidding; the answers, to this page only, in #hint-text (items data-level).
import { h } from './dom.js';
import {
  bidNote, bidWords, hintWords, movesWords, nextHintLevel, playerName, ricochetInfo, ricochetSeat,
  sandTimerWords, seatWords, targetWords, tokensWords,
} from './words.js';

export const RICOCHET = {
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
    words: sandTimerWords,
  },
};

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
export function playRicochet(t) {
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
  const nextHint = () => nextHintLevel([...hints.keys()]);

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
    r.hint.textContent = hintWords(next);
    const levels = [...hints.keys()].sort((x, y) => x - y);
    r.hintText.replaceChildren(...levels.map((n) => h('li', { data: { level: String(n) }, text: hints.get(n) })));
    r.hintText.hidden = levels.length === 0;
  }

  // ---- Rendering a state ----
  function renderTokens(state) {
    const seats = t.seatsOf().filter((x) => playerName(x.player));
    r.tokens.replaceChildren(...seats.map((x) => {
      const n = Number(x.tokens) || 0;
      return h('li', {
        className: `seat-${x.colour}`,
        data: { colour: x.colour, tokens: String(n) },
        text: `${seatWords(x)}: ${tokensWords(n)}`,
      });
    }));
    r.tokensBox.hidden = state.phase === 'writing' || seats.length === 0;
  }

  /** #target in words; a new round empties the fields. */
  function renderTarget(state) {
    const playing = state.phase === 'bidding' || state.phase === 'showing';
    const { text, colour } = targetWords(state);
    r.target.textContent = text;
    r.target.dataset.colour = colour;
    if (state.round !== roundShown && playing) {
      roundShown = state.round;
      r.bid.value = '';
      r.moves.value = '';
    }
  }

  /** One item of #bids: the seat, its bid, whether it passed. */
  function bidItem(state, x, i) {
    const { bid, passed: gone, words } = bidWords(state, i);
    const showing = state.showing;
    return h('li', {
      className: [
        `seat-${x.colour}`, playerName(x.player) === you ? 'you' : '', gone ? 'passed' : '',
        showing && showing.colour === x.colour ? 'showing' : '',
      ].filter(Boolean).join(' '),
      data: { colour: x.colour, bid: bid === null ? '' : String(bid), passed: String(gone) },
    }, [
      h('span', { className: 'who', text: seatWords(x) }),
      h('span', { className: 'what', text: words }),
    ]);
  }

  function renderBids(state) {
    const bidding = state.phase === 'bidding';
    r.bidding.hidden = !(bidding || state.phase === 'showing');
    r.bids.replaceChildren(...t.seatsOf().map((x, i) => bidItem(state, x, i)));
    const passed = state.passed || [];
    const i = t.myIndex();
    const canBid = bidding && i >= 0 && !passed[i] && connected();
    r.bidForm.hidden = !(bidding && i >= 0);
    r.bid.disabled = !canBid;
    r.sendBid.disabled = !canBid;
    r.pass.disabled = !canBid;
    r.bidNote.textContent = bidNote(state, i);
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
    info: ricochetInfo,
    seat: ricochetSeat,
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
