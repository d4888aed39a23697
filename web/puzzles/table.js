// What the game against the computers (game.js) and the race (race.js) share: the page's
// answers so far, one entry a round or mission (`this.answers`), the end, the wake-up and the
// clock's tick, the tokens and the log shown.
import { h } from '../play/dom.js';

const $ = (id) => document.getElementById(id);

export class Table {
  constructor() {
    this.answers = [];
    this.quit = false;
    this.answer = null;
    this.wake = null;
    this.stopped = false;
    this.tick = setInterval(() => this.showClock(), 250);
  }

  /** The round or mission being answered. */
  live() {
    return this.answers[this.answers.length - 1];
  }

  /** The demonstration (the page's moves or cells) shown when the engine asks for it. */
  show() {
    if (this.answer?.state !== 'demonstrate') return;
    this.live().shown = this.demonstration();
    this.step();
  }

  /** The player ends the game: the scores so far. */
  end() {
    this.quit = true;
    this.step();
  }

  /** Leaves the game (another position or board opened). */
  stop() {
    this.stopped = true;
    clearTimeout(this.wake);
    clearInterval(this.tick);
  }

  /** The tokens in `scores` and the log in `log` (element ids). */
  showTable(a, scores, log) {
    $(scores).replaceChildren(...a.players.map((p) => h('li', { 'data-player': p.name, 'data-tokens': p.tokens }, `${p.name}${p.computer ? ' (computer)' : ''}: ${p.tokens} ${p.tokens === 1 ? 'token' : 'tokens'}`)));
    const box = $(log);
    box.textContent = a.log.join('\n');
    box.scrollTop = box.scrollHeight;
  }
}
