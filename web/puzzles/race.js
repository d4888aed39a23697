// The race against the computers on /play/micro (docs/PLAY-IN-BROWSER.md, "The race"), as
// `robots micro play --human you` plays it. The engine (`microRace`; Micro is instant, so on
// the page's thread) holds no clock and no game: each request carries every mission's answer,
// an announcement with its seconds on the page's clock since the roll, and the engine plays the
// game again from its seed. This file is the clock: it asks again when the first computer
// announces (the engine says when), at each announcement, pass and demonstration. Test hooks:
// `#race` with `data-state` (announce, demonstrate, over) and `data-mission`.
import { Table } from './table.js';

const $ = (id) => document.getElementById(id);

export class Race extends Table {
  /** `ui`: `{ engine, mission(m), stops(), say }`; `settings`: `{ face, seed, variant,
   * players, strength }`. */
  constructor(ui, settings) {
    super();
    Object.assign(this, { ui, settings, missions: this.answers, rolledAt: performance.now() });
  }

  elapsed() {
    return Math.min(1e6, (performance.now() - this.rolledAt) / 1000);
  }

  /** Asks the engine where the race stands, and waits as it says. */
  step() {
    if (this.stopped) return;
    clearTimeout(this.wake);
    let a;
    try {
      a = this.ui.engine.microRace({ ...this.settings, missions: this.missions, now: this.missions.length ? this.elapsed() : 0, quit: this.quit });
    } catch (e) {
      this.ui.say(e.message);
      return;
    }
    if (a.mission > this.missions.length) {
      // A new mission: rolled now, its clock starts.
      while (this.missions.length < a.mission) this.missions.push({});
      this.rolledAt = performance.now();
      this.ui.mission({ from: a.from, via: a.via, to: a.to, moves: null });
    }
    this.answer = a;
    this.render(a);
    if (a.state === 'announce') {
      const wait = Math.max(0, a.until - this.elapsed());
      this.wake = setTimeout(() => this.step(), Math.min(wait, 3600) * 1000 + 20);
    }
  }

  announce(moves) {
    if (this.answer?.state !== 'announce') return;
    Object.assign(this.live(), { at: this.elapsed(), moves });
    this.step();
  }

  pass() {
    if (this.answer?.state !== 'announce') return;
    this.live().pass = true;
    this.step();
  }

  /** The moves on the board shown as the demonstration. */
  demonstration() {
    return this.ui.stops();
  }

  render(a) {
    const box = $('race');
    box.dataset.state = a.state;
    box.dataset.mission = String(a.mission);
    this.showTable(a, 'race-scores', 'race-log');
    for (const id of ['announce', 'announce-button', 'race-pass']) $(id).disabled = a.state !== 'announce';
    $('race-show').disabled = a.state !== 'demonstrate';
    $('race-end').disabled = a.state === 'over';
    if (a.state === 'demonstrate') $('race-status').textContent = `Show your ${a.announced} moves: click the cells, then press Show my moves.`;
    else if (a.state === 'over') {
      $('race-status').textContent = `The race is over. ${a.log[a.log.length - 1].trim()}`;
      this.stop();
    }
    this.showClock();
  }

  showClock() {
    const a = this.answer;
    if (!a || a.state !== 'announce') return;
    const whole = Math.floor(this.elapsed());
    $('race-status').textContent = `Mission ${a.mission}: the computers are searching. ${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  }
}
