// The match's settings, pure (no DOM): what the page's form holds (the shape a share link
// keeps: share.js), turned into the engine's settings (ENGINE.md, "Match settings") with
// the page's programs as files; the names a program of the page may take.

/** The page's defaults: `robots run`'s own (classic, scenario 1, 3 robots, 200 rounds). */
export const DEFAULTS = {
  a: 'tab:0', b: 'shipped:hunter', board: 'classic', scenario: 1, robots: 3, seed: '1', rounds: 200, ti57: false,
};

/** A program's name in the page: a file name the engine takes, 1 to 64 of `A-Za-z0-9_-`. */
export const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Why `name` cannot name a program of the page (`null` when it can): the engine reads a
 * shipped program's name first (ENGINE.md), so a page's program never takes one.
 */
export function nameProblem(name, shippedNames, otherNames) {
  if (!NAME.test(name)) return 'a name is 1 to 64 letters, digits, - or _';
  const lower = name.toLowerCase();
  if (shippedNames.some((n) => n.toLowerCase() === lower)) return `${name} is a shipped program's name`;
  if (otherNames.some((n) => n.toLowerCase() === lower)) return `another program is named ${name}`;
  return null;
}

/** A free name like `base`, `base-2`, `base-3` … */
export function freeName(base, shippedNames, otherNames) {
  const clean = base.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 56) || 'mine';
  for (let k = 1; ; k += 1) {
    const name = k === 1 ? clean : `${clean}-${k}`;
    if (nameProblem(name, shippedNames, otherNames) === null) return name;
  }
}

/** The program a side names (`tab:N` or `shipped:NAME`) in `programs`: its engine name, or null. */
export function sideProgram(side, programs) {
  const tab = /^tab:(\d+)$/.exec(side);
  if (tab) return programs[Number(tab[1])]?.name ?? null;
  const shipped = /^shipped:([A-Za-z0-9_-]{1,64})$/.exec(side);
  return shipped ? shipped[1] : null;
}

/** The page's programs as the engine's files: `{"NAME.robot": text}`. */
export function files(programs) {
  const out = {};
  for (const p of programs) out[`${p.name}.robot`] = p.text;
  return out;
}

/** Why `settings` cannot be played (null when they can): what the form itself can tell. */
export function settingsProblem(settings, programs) {
  if (sideProgram(settings.a, programs) === null) return 'side A names no program';
  if (sideProgram(settings.b, programs) === null) return 'side B names no program';
  if (!/^\d{1,20}$/.test(settings.seed) || BigInt(settings.seed) >= 2n ** 64n) return 'the seed is a whole number from 0 to 18446744073709551615';
  if (!Number.isInteger(settings.rounds) || settings.rounds < 1) return 'rounds is a whole number from 1';
  if (!Number.isInteger(settings.robots) || settings.robots < 1 || settings.robots > 9) return 'robots a side: 1 to 9';
  return null;
}

/** The engine's settings for `play` and `debugOpen`: A green, B violet. */
export function engineSettings(settings, programs) {
  return {
    teams: [
      { colour: 'green', program: sideProgram(settings.a, programs) },
      { colour: 'violet', program: sideProgram(settings.b, programs) },
    ],
    robots: settings.robots,
    board: settings.board,
    scenario: settings.scenario,
    keywords: settings.ti57 ? 'ti57' : 'plain',
    seed: settings.seed,
    rounds: settings.rounds,
    files: files(programs),
  };
}

/** The engine's settings for `duel` (A against B, both colours, ENGINE.md). */
export function duelSettings(settings, programs) {
  return {
    a: sideProgram(settings.a, programs),
    b: sideProgram(settings.b, programs),
    board: settings.board,
    scenario: settings.scenario,
    robots: settings.robots,
    rounds: settings.rounds,
    keywords: settings.ti57 ? 'ti57' : 'plain',
    files: files(programs),
  };
}
