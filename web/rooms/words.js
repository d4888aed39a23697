// The rooms' pure part (docs/ROOMS.md, "The pages"): what the room pages say about a state,
// and the few sums behind it (a robot's turn, the reconnection's backoff, the clock, the
// Micro stops parsed, what of the server's SVG is kept). No DOM, no socket: every function
// here takes what it needs and gives text or plain values, so web/test/rooms.test.mjs tests
// it with `node --test`. Sections: shared, the battle room, the token games (tokenRoom),
// Ricochet Robots, Micro Robots.

// ---- Shared ----

/** Directions 1-6 clockwise from east (R-A1): number, arrow, name. */
export const DIRECTIONS = [
  [1, '→', 'E'], [2, '↘', 'SE'], [3, '↙', 'SW'], [4, '←', 'W'], [5, '↖', 'NW'], [6, '↗', 'NE'],
];

/** The reconnection's delays (ms), one an attempt, the last repeated. */
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

/** The delay before reconnection attempt `attempt` (0 first), ±20 % by `random` in [0, 1). */
export const reconnectDelay = (attempt, random) =>
  BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] * (0.8 + 0.4 * random);

/** A seat's player: its name (the server sends a name or `{name}`), or null for a free seat. */
export const playerName = (p) => (p && typeof p === 'object' ? p.name : p) || null;

/** `n` and `word`, plural but for one: `1 move`, `2 moves`. */
export const plural = (n, word) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
export const movesWords = (n) => plural(n, 'move');
export const tokensWords = (n) => plural(n, 'token');

/** A hex [col, row] as the key of the board's cells (`data-at`): "col,row". */
export const atKey = (at) => `${at[0]},${at[1]}`;

/** Corners as an SVG `points` attribute. */
export const points = (corners) => corners.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');

/** Facing 1-6 in words: `2 ↘ SE`. */
export const facingWords = (f) => {
  const d = DIRECTIONS[f - 1];
  return d ? `${d[0]} ${d[1]} ${d[2]}` : String(f);
};

/** A robot's angle (degrees) for `facing`: the one nearest the angle `last` it had (null for
 *  none yet) that points the same way, so it never spins the long way round. */
export function turnTo(last, facing) {
  const target = (facing - 1) * 60;
  return last === null ? target : last + ((((target - last) % 360) + 540) % 360) - 180;
}

// ---- The battle room ----

export const PHASES = {
  writing: 'Writing the programs',
  placing: 'Placing the robots',
  playing: 'The match',
  over: 'The game is over',
};

/** #room-info: the game, its board, scenario, robots, rounds, timeout, spectators. */
export function battleInfo(room) {
  const bits = [room.board ? `${room.game || 'battle'} on ${room.board}` : room.game || 'battle'];
  if (room.scenario !== undefined) bits.push(`scenario ${room.scenario}`);
  if (room.robots !== undefined) bits.push(`${plural(room.robots, 'robot')} a side`);
  if (room.rounds !== undefined) bits.push(`${room.rounds} rounds`);
  if (room.timeout !== undefined) bits.push(`away ${room.timeout} s: the computer plays`);
  if (room.spectators !== undefined) bits.push(room.spectators ? 'spectators welcome' : 'no spectators');
  return bits.join(' · ');
}

/** #status: round and turn, the pace or the pause, who places (`me`: your seat or null). */
export function battleStatus(state, me) {
  const phase = state.phase;
  const parts = [];
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
  return parts.join(' · ');
}

/** A battle seat's flags after online or away: the computer's, ready or writing, to play. */
export function battleSeatFlags(seat, state) {
  const flags = [];
  if (seat.computer) flags.push('played by the computer');
  if (state.phase === 'writing' && playerName(seat.player)) flags.push(seat.ready ? 'ready' : 'writing…');
  if (state.waiting_for === seat.colour) flags.push('to play');
  return flags;
}

/** The note over the editor: `me` your seat (or null), `ready` whether you said so. */
export function editorNote(state, me, ready) {
  if (!state) return '';
  const writing = state.phase === 'writing';
  if (!me) return writing ? 'Take a seat to write a program.' : 'You watch this game.';
  if (writing) {
    return ready
      ? 'Ready: waiting for the others and the host.'
      : 'Nobody sees your program until the end. Send it, then say you are ready.';
  }
  return 'Your program (the others see it once the game is over).';
}

/** A robot in words (its title on the board, its item in the list); `mine`: it is your team's,
 *  whose signal's step you may know. */
export function robotWords(robot, mine) {
  if (!Array.isArray(robot.at)) return `${robot.name}: not placed yet`;
  if (!robot.alive) return `${robot.name}: destroyed`;
  const signal = robot.signal ? (mine ? ', a signal waits' : ', a signal waits (its step is secret)') : '';
  return `${robot.name}: [${robot.at[0]}, ${robot.at[1]}] facing ${facingWords(robot.facing)}, ${robot.shots} shots${signal}`;
}

/** #place-prompt while the robots are placed: `mine` whether you place now, `chosen` the
 *  start point you clicked ([col, row] or null). */
export function placePrompt(state, mine, chosen) {
  if (!(state && state.phase === 'placing' && state.place)) return '';
  const robot = state.place.robot;
  if (!mine) return `${state.waiting_for || 'someone'} is placing ${robot}…`;
  return chosen
    ? `${robot} at [${chosen[0]}, ${chosen[1]}]: choose its facing.`
    : `Your turn: click a free start point (highlighted) for ${robot}.`;
}

/** #result once the battle is over: the verdict, and the round it came. */
export function battleResult(result) {
  const verdict = result.verdict || (result.winner ? `${result.winner} wins` : 'a draw');
  return result.rounds !== undefined && result.rounds !== null ? `${verdict} after round ${result.rounds}` : verdict;
}

// ---- The token games (tokenRoom): Ricochet Robots and Micro Robots ----
// `game` is the game's words (RICOCHET in ricochet.js, MICRO in micro.js): phases, counter
// (`round` or `mission`), bid (the field of state.showing holding the moves), computer,
// watching, clock.

/** A seat in words: `ann (seat 2)`, or `seat 2` while free. */
export function seatWords(seat) {
  const name = playerName(seat.player);
  return name ? `${name} (seat ${seat.colour})` : `seat ${seat.colour}`;
}

/** #room-info: the game's title, `extra` (the game's own words), players, spectators. */
export function tokenInfo(title, extra, room) {
  const bits = [title, ...extra];
  if (room.players !== undefined) bits.push(plural(room.players, 'player'));
  if (room.spectators !== undefined) bits.push(room.spectators ? 'spectators welcome' : 'no spectators');
  return bits.join(' · ');
}

/** #status: the round (or mission), who shows how many moves (`me`: your seat or null), then
 *  `extra`, the game's own words. */
export function tokenStatus(game, state, me, extra = []) {
  const phase = state.phase;
  const parts = [];
  if (phase !== 'writing' && state[game.counter]) parts.push(`${game.counter} ${state[game.counter]}`);
  const showing = state.showing;
  if (phase === 'showing' && showing) {
    const seat = (state.seats || []).find((x) => x.colour === showing.colour);
    const moves = movesWords(showing[game.bid]);
    parts.push(showing.colour === me
      ? `your turn to show ${moves}`
      : `${seat ? seatWords(seat) : `seat ${showing.colour}`} shows ${moves}…`);
  }
  parts.push(...extra);
  return parts.join(' · ');
}

/** A token seat's flags after online or away: the computer's, ready or not while seating. */
export function tokenSeatFlags(game, seat, state) {
  const flags = [];
  if (seat.computer) flags.push(game.computer);
  if (state.phase === 'writing' && playerName(seat.player)) flags.push(seat.ready ? 'ready' : 'not ready');
  return flags;
}

/** #seat-note under the seats: `me` your seat (or null), `ready` whether you said so. */
export function seatNote(game, state, me, ready) {
  if (state.phase !== 'writing') return me ? '' : game.watching;
  if (!me) return 'Take a seat to play.';
  return ready ? 'Ready: waiting for the others and the host.' : 'Say you are ready.';
}

/** #result: who wins (and why), and the winners' names. */
export function resultWords(result) {
  const winners = (result.winners || []).map(String);
  const who = winners.length === 0 ? 'Nobody wins' : `${winners.join(' and ')} win${winners.length === 1 ? 's' : ''}`;
  return { text: result.reason ? `${who}: ${result.reason}` : who, winners };
}

/** When a state's clock (`{runs_out, now}`, the server's seconds) runs out on this page's
 *  clock, whose time is `now` (ms); null without one. */
export function clockEnd(clock, now) {
  if (clock && typeof clock.runs_out === 'number' && typeof clock.now === 'number') {
    return now + Math.max(0, clock.runs_out - clock.now) * 1000;
  }
  return null;
}

/** The whole seconds left, at `now` (ms), of a clock running out at `end`. */
export const secondsLeft = (end, now) => Math.max(0, Math.ceil((end - now) / 1000));

/** The SVG elements and attributes the server's drawings use; the pages drop anything else. */
export const SVG_TAGS = new Set(['svg', 'g', 'rect', 'line', 'path', 'circle', 'ellipse', 'polygon', 'polyline', 'title', 'desc', 'text', 'tspan']);
export const SVG_ATTRS = new Set([
  'xmlns', 'width', 'height', 'viewbox', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points',
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray',
  'stroke-opacity', 'opacity', 'transform', 'text-anchor', 'font-size', 'font-family', 'font-weight', 'class',
  'dominant-baseline', 'preserveaspectratio',
]);
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Whether an element of the server's SVG is kept: an SVG drawing element. */
export const keepsSvgElement = (namespace, localName) => namespace === SVG_NS && SVG_TAGS.has(localName);

/** Whether an attribute of the server's SVG is kept (no event handler, no link, no style). */
export const keepsSvgAttribute = (name) => SVG_ATTRS.has(name.toLowerCase()) || name === 'xmlns';

// ---- Ricochet Robots ----

/** #room-info's words for the board. */
export function ricochetInfo(room) {
  if (!room.board) return [];
  return [room.board === 'ricochets' ? 'on a Ricochets board' : `on the ${room.board} board`];
}

/** The sand timer in words, `left` seconds left. */
export const sandTimerWords = (left) => (left > 0 ? `${left} s left` : 'The sand timer has run out.');

/** #target: the round's target in words, and its colour (`any` for the vortex). */
export function targetWords(state) {
  const target = state.target;
  const playing = state.phase === 'bidding' || state.phase === 'showing';
  let text;
  if (!state.round || !playing) {
    text = state.phase === 'writing' ? 'The target is shown once the host starts the game.' : '';
  } else if (target && target.colour) {
    text = `Round ${state.round}: bring the ${target.colour} robot to the ringed target.`;
  } else {
    text = `Round ${state.round}: bring any robot to the ringed target (the vortex).`;
  }
  const colour = target && target.colour ? target.colour : (state.round ? 'any' : '');
  return { text, colour };
}

/** What a Ricochet seat adds: its bid while the players bid. */
export function ricochetSeat(x, i, state) {
  const bid = (state.bids || [])[i];
  return { flags: state.phase === 'bidding' && typeof bid === 'number' ? [`bids ${bid}`] : [] };
}

/** Seat `i`'s bid (or null), whether it passed, and both in words. */
export function bidWords(state, i) {
  const bid = typeof (state.bids || [])[i] === 'number' ? state.bids[i] : null;
  const passed = Boolean((state.passed || [])[i]);
  const words = [];
  if (bid !== null) words.push(movesWords(bid));
  if (passed) words.push('passed');
  if (bid === null && !passed) words.push(state.phase === 'bidding' ? 'no bid yet' : 'no bid');
  return { bid, passed, words: words.join(' · ') };
}

/** #bid-note for seat `i` (yours; -1 for none). */
export function bidNote(state, i) {
  if (i < 0) return '';
  if ((state.passed || [])[i]) return 'You passed this round: your bid, if any, stands.';
  const bid = (state.bids || [])[i];
  if (typeof bid === 'number') return `Your bid: ${movesWords(bid)}. You may lower it, or pass.`;
  return 'How many moves does your solution take?';
}

/** The next hint level to ask, given the levels received this round. */
export const nextHintLevel = (levels) => (levels.length === 0 ? 1 : Math.max(...levels) + 1);

/** button#hint's words for the next level. */
export const hintWords = (next) => (next <= 3 ? `Hint ${next} of 3` : 'No more hints this round');

// ---- Micro Robots ----

/** The colour letters of crates/games/src/micro/board.rs (COLOURS). */
export const COLOURS = { B: 'blue', Y: 'yellow', G: 'green', R: 'red', P: 'pink', W: 'white' };
export const VARIANTS = {
  standard: 'a token on each target',
  waypoint: 'through a waypoint',
  'no-token': 'no token on the target',
};
const CELL = /^[BYGRPW][1-6]$/;
const CELL_CLASS = /^cell-([BYGRPW][1-6])$/;

/** `B3` in words: `blue 3 (B3)`; anything else as it is. */
export const cellWords = (c) => (typeof c === 'string' && COLOURS[c[0]] ? `${COLOURS[c[0]]} ${c.slice(1)} (${c})` : String(c));

/** The names in a line of stops (`B5 R5`, `b5, r5`), upper case; `bad`: the words that are none. */
export function parseStops(text) {
  const words = String(text || '').split(/[\s,;]+/).filter(Boolean).map((w) => w.toUpperCase());
  return { stops: words.filter((w) => CELL.test(w)), bad: words.filter((w) => !CELL.test(w)) };
}

/** The cell a shape of the board is, from its class names (`cell-B3`), or null. */
export function cellOfClasses(names) {
  for (const name of names || []) {
    const m = CELL_CLASS.exec(name);
    if (m) return m[1];
  }
  return null;
}

/** #room-info's words: the board's face, the variant. */
export function microInfo(room) {
  const bits = [];
  if (room.board) bits.push(`${room.board} face`);
  if (room.variant) bits.push(VARIANTS[room.variant] || room.variant);
  return bits;
}

/** The mission's clock in words: minutes and seconds, `left` seconds left. */
export const missionClockWords = (left) =>
  (left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left` : 'Time is up.');

/** #status's words: the tokens in the reserve, once the game is under way. */
export const reserveWords = (state) => (state.phase !== 'writing' && typeof state.reserve === 'number'
  ? [`${tokensWords(state.reserve)} in the reserve`] : []);

/** What a Micro seat adds: the player who rolled the dice (oya), passed, announced. */
export function microSeat(x, i, state) {
  const phase = state.phase;
  const passed = Boolean((state.passed || [])[i]);
  const flags = [];
  if (phase !== 'writing' && state.oya === x.colour) flags.push('rolled the dice');
  if (phase === 'racing' && passed) flags.push('passed');
  if (phase === 'showing' && state.showing && state.showing.colour === x.colour) flags.push(`announced ${movesWords(state.showing.moves)}`);
  return { classes: [state.oya === x.colour ? 'oya' : ''], data: { passed: String(passed) }, flags };
}

/** #mission in words; `oya` the player who rolled the dice (a name, or null). */
export function missionWords(state, oya) {
  if (state.phase === 'writing') return 'The dice are rolled once the host starts the game.';
  if (!state.mission || !state.start || !state.target) return '';
  const playing = state.phase === 'racing' || state.phase === 'showing';
  const via = state.via ? ` through ${cellWords(state.via)}` : '';
  const token = state.token ? '; a token on the target' : '';
  const by = oya ? `, rolled by ${oya}` : '';
  const when = playing ? 'Mission' : 'Last mission';
  return `${when} ${state.mission}${by}: from ${cellWords(state.start)}${via} to ${cellWords(state.target)}${token}.`;
}

/** #race-note while the players race: `i` your seat's index (-1 for none), `passed` yours. */
export function raceNote(state, i, passed) {
  if (state.phase !== 'racing') return '';
  if (i < 0) return 'The players look for the fewest moves.';
  if (passed) return 'You passed this mission: waiting for the others.';
  return 'Found a way? Announce its number of moves: the first announcement ends the race.';
}

/** #stops-note while you show: the stops so far of the moves announced. */
export function stopsNote(stops, moves) {
  const k = stops.length;
  return `${k} of ${movesWords(moves)}${k > 0 ? `: ${stops.join(' → ')}` : ''}`;
}
