// The duel's panel: A against B over N seeds (both colours each) in the duel's own Web
// Worker, a chunk of seeds at a time (duel.js), with a progress bar, the running wins,
// draws and losses, a link to A's worst loss (a share link of that match: opening it plays
// it), and the Stop button, which ends the worker at once.
import {
  chunks, emptyTally, addChunk, worstGame, gameSettings, tallyWords, MAX_SEEDS,
} from './duel.js';
import { duelSettings } from './settings.js';

/** Seeds a chunk: each is two matches; small enough that progress moves and Stop is quick. */
const CHUNK = 4;

export function duelPanel(root, { worker, stopButton, settings, shareLink, running, say }) {
  const $ = (id) => root.querySelector(`#${id}`);
  let generation = 0;
  let under = false;

  function stop() {
    if (!under) return;
    generation += 1;
    under = false;
    worker.stop();
    root.dataset.state = 'stopped';
    $('duel-result').textContent += ' (stopped)';
    stopButton.hidden = true;
    running(false);
  }

  async function start() {
    const got = settings();
    if (!got) return;
    const count = Number(document.getElementById('duel-seeds').value);
    if (!Number.isInteger(count) || count < 1 || count > MAX_SEEDS) {
      say(`a duel plays 1 to ${MAX_SEEDS.toLocaleString('en')} seeds`);
      return;
    }
    if (under) stop();
    say('');
    const mine = generation + 1;
    generation = mine;
    under = true;
    const duel = duelSettings(got.form, got.programs);
    let tally = emptyTally();
    const progress = $('duel-progress');
    progress.max = count;
    progress.value = 0;
    root.dataset.state = 'running';
    root.dataset.done = '0';
    $('duel-about').textContent = `${duel.a} v ${duel.b}: ${count} seeds, both colours (${2 * count} matches) on ${duel.board}, scenario ${duel.scenario}, ${duel.robots} robots a side, at most ${duel.rounds} rounds`;
    $('duel-worst').hidden = true;
    $('duel-result').textContent = '';
    stopButton.hidden = false;
    running(true);
    let done = 0;
    try {
      for (const [first, n] of chunks(1, count, CHUNK)) {
        const answer = await worker.call('duel', duel, first, n);
        if (generation !== mine) return;
        tally = addChunk(tally, answer);
        done += n;
        progress.value = done;
        root.dataset.done = String(done);
        $('duel-result').textContent = `${tallyWords(duel.a, tally)} (${done} of ${count} seeds)`;
      }
    } catch (e) {
      if (generation === mine) say(`the duel stopped: ${e.message}`);
      return;
    } finally {
      if (generation === mine) {
        under = false;
        stopButton.hidden = true;
        running(false);
      }
    }
    root.dataset.state = 'done';
    root.dataset.wins = String(tally.wins);
    root.dataset.draws = String(tally.draws);
    root.dataset.losses = String(tally.losses);
    const worst = worstGame(tally.games);
    if (worst) {
      const s = gameSettings(duel, worst);
      const [green, violet] = s.teams.map((t) => t.program);
      const side = (name) => (got.programs.some((p) => p.name === name) ? `tab:${got.programs.findIndex((p) => p.name === name)}` : `shipped:${name}`);
      const link = await shareLink({ ...got.form, a: side(green), b: side(violet), seed: worst.seed });
      const a = $('duel-worst');
      a.href = link;
      a.textContent = worst.score === 'loss'
        ? `watch ${duel.a}'s worst loss: seed ${worst.seed_index}, ${duel.a} ${worst.a_colour}, lost after ${worst.rounds} rounds`
        : `watch ${duel.a}'s worst result (it lost none): seed ${worst.seed_index}, ${duel.a} ${worst.a_colour}, ${worst.score === 'draw' ? 'drawn' : 'won'} after ${worst.rounds} rounds`;
      a.dataset.seed = worst.seed;
      a.dataset.rounds = String(worst.rounds);
      a.dataset.score = worst.score;
      a.hidden = false;
    }
  }

  document.getElementById('duel').addEventListener('click', () => {
    document.querySelector('#views button[data-view="duel"]').click();
    start();
  });

  return { stop, running: () => under };
}
