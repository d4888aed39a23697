// The full game against the computers on /play/ricochet (docs/PLAY-IN-BROWSER.md, "The game"),
// as `robots ricochet play --human you` plays it. The engine (`ricochetGame`, in the
// puzzles' worker, never on the page's thread) holds no clock and no game: each request
// carries the settings and everything the player said, each bid with its seconds on the
// page's clock since the round's target was shown, and the engine plays the game again from
// its seed up to where the player has not answered yet. This file is the clock: it asks again
// at the time the engine waits until (the next computer's bid, the sand timer running out),
// at each bid, pass and demonstration, and shows the timer, the scores and the log. Test
// hooks: `#game` with `data-state` (bidding, demonstrate, over) and `data-round`.
import { Table } from './table.js';

const $ = (id) => document.getElementById(id);
/** The latest second the engine takes. */
const MAX_SECONDS = 1e6;

export class Game extends Table {
  /** `ui`: `{ worker, draw(spec), moves(), say(text, kind) }`; `settings`: `{ seed,
   * players, strength, mustRicochet }`. */
  constructor(ui, settings) {
    super();
    this.ui = ui;
    this.settings = settings;
    this.rounds = this.answers;
    this.shownAt = performance.now();
    this.drawn = 0;
    this.busy = false;
    this.again = false;
  }

  /** Seconds since the round's target was shown. */
  elapsed() {
    return Math.min(MAX_SECONDS, (performance.now() - this.shownAt) / 1000);
  }

  request() {
    return { ...this.settings, name: 'you', rounds: this.rounds, now: this.rounds.length ? this.elapsed() : 0, quit: this.quit };
  }

  /** Asks the engine where the game stands, and waits as it says. One request at a time: one
   * asked meanwhile is sent when the answer comes. */
  async step() {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    clearTimeout(this.wake);
    if (this.answer === null || this.answer.round > this.rounds.length) $('game-status').textContent = 'The computers look at the target…';
    let a;
    try {
      a = await this.ui.worker.call('ricochetGame', this.request());
    } catch (e) {
      this.busy = false;
      if (e.kind !== 'stopped') this.ui.say(e.message);
      return;
    }
    this.busy = false;
    if (this.stopped) return;
    if (a.round > this.rounds.length) {
      // A new round: its target is shown now, and its clock starts.
      while (this.rounds.length < a.round) this.rounds.push({ heard: [] });
      this.shownAt = performance.now();
    }
    this.answer = a;
    this.render(a);
    if (this.again) {
      this.again = false;
      this.step();
    } else if (a.state === 'bidding') {
      const wait = Math.max(0, a.timer.until - this.elapsed());
      this.wake = setTimeout(() => this.step(), Math.min(wait, 3600) * 1000 + 20);
    }
  }

  /** The player bids `moves` (or lowers their bid) now. */
  bid(moves) {
    if (this.answer?.state !== 'bidding') return;
    this.live().heard.push({ at: this.elapsed(), bid: moves });
    this.step();
  }

  pass() {
    if (this.answer?.state !== 'bidding') return;
    this.live().heard.push({ at: this.elapsed(), pass: true });
    this.step();
  }

  /** The moves on the board shown as the demonstration. */
  demonstration() {
    return this.ui.moves();
  }

  render(a) {
    const box = $('game');
    box.dataset.state = a.state;
    box.dataset.round = String(a.round);
    if (a.id && a.round !== this.drawn && a.state !== 'over') {
      this.drawn = a.round;
      this.ui.draw({ id: a.id, mustRicochet: a.mustRicochet });
    }
    this.showTable(a, 'scores', 'game-log');
    const bidding = a.state === 'bidding';
    for (const id of ['bid', 'bid-button', 'pass']) $(id).disabled = !bidding;
    $('show-moves').disabled = a.state !== 'demonstrate';
    $('quit-game').disabled = a.state === 'over';
    if (a.state === 'demonstrate') {
      $('game-status').textContent = `Show your ${a.bid} moves: play them on the board, then press Show my moves.`;
    } else if (a.state === 'over') {
      $('game-status').textContent = `The game is over. ${a.log[a.log.length - 1].trim()}`;
      this.stop();
    }
    this.showClock();
  }

  /** The clock since the target was shown, or the sand timer's countdown, and the bids. */
  showClock() {
    const a = this.answer;
    if (!a || a.state !== 'bidding' || this.busy) return;
    const t = a.timer;
    const now = this.elapsed();
    let clock;
    if (t.runsOut !== null) clock = `Sand timer: ${Math.max(0, Math.ceil(t.runsOut - now))} s left`;
    else {
      const whole = Math.floor(now);
      clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}, no bid yet`;
    }
    const bids = t.standing.map((b, i) => (b === null ? null : `${a.players[i].name} ${b}`)).filter(Boolean);
    $('game-status').textContent = `Round ${a.round}. ${clock}${bids.length ? ` · bids: ${bids.join(', ')}` : ''}`;
  }
}
