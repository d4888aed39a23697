// A duel in the page, the pure part (no DOM, no worker): the seeds cut into chunks, each
// played by the engine's `duel` in a Web Worker (its answers summed give `robots duel`'s
// counts, web/play/ENGINE.md), the running tally, and the match a player most wants to
// watch, chosen as `robots duel --replay-worst` chooses it (src/cli/compare/tournament/
// worst.rs): A's worst loss, the quickest, ties to the lowest seed index, A green first.

/** The most seeds a page's duel plays (the engine's limit for one call, ENGINE.md). */
export const MAX_SEEDS = 10_000;

/**
 * The chunks `[first, count]` of the seed indices `first … first + count - 1`, each at most
 * `size` seeds: small chunks keep the progress moving and a stop quick.
 */
export function chunks(first, count, size) {
  const out = [];
  for (let at = 0; at < count; at += size) out.push([first + at, Math.min(size, count - at)]);
  return out;
}

/** A new tally: nothing played yet. */
export const emptyTally = () => ({ wins: 0, draws: 0, losses: 0, games: [] });

/** The tally with one chunk's answer (`{games, wins, draws, losses}`) added. */
export function addChunk(tally, answer) {
  return {
    wins: tally.wins + answer.wins,
    draws: tally.draws + answer.draws,
    losses: tally.losses + answer.losses,
    games: tally.games.concat(answer.games),
  };
}

const RANK = { loss: 0, draw: 1, win: 2 };

/** The game to watch among `games` (A's side): A's worst loss, else its worst result; null if none. */
export function worstGame(games) {
  let worst = null;
  const key = (g) => [RANK[g.score], g.rounds, g.seed_index, g.a_colour === 'green' ? 0 : 1];
  for (const g of games) {
    if (worst === null) {
      worst = g;
      continue;
    }
    const [a, b] = [key(g), key(worst)];
    const i = a.findIndex((v, k) => v !== b[k]);
    if (i >= 0 && a[i] < b[i]) worst = g;
  }
  return worst;
}

/**
 * The match of `game` for `play` (ENGINE.md's settings): A on its colour, B on the other,
 * the duel's settings, the game's own seed.
 */
export function gameSettings(duel, game) {
  const [green, violet] = game.a_colour === 'green' ? [duel.a, duel.b] : [duel.b, duel.a];
  return {
    teams: [{ colour: 'green', program: green }, { colour: 'violet', program: violet }],
    robots: duel.robots,
    board: duel.board,
    scenario: duel.scenario,
    keywords: duel.keywords,
    rounds: duel.rounds,
    seed: game.seed,
    files: duel.files,
  };
}

/** The words of a tally: `hunter: 4 wins, 0 draws, 2 losses of 6 matches`. */
export function tallyWords(a, tally) {
  const n = tally.wins + tally.draws + tally.losses;
  const plural = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  return `${a}: ${plural(tally.wins, 'win', 'wins')}, ${plural(tally.draws, 'draw', 'draws')}, `
    + `${plural(tally.losses, 'loss', 'losses')} of ${plural(n, 'match', 'matches')}`;
}
