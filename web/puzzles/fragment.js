// What the puzzle pages keep in the URL's fragment (a share link: never sent to a server),
// and the day's date. Pure: no DOM, for the unit tests (web/test/puzzles.test.mjs).
//
// Ricochet: `#id=0765+42+2E21BD0F+93`, `#seed=7&robots=5`, or `#day=2026-11-28&moves=7`,
// with `&rb1=0` (R-B1 off) and `&rb2=1` (R-B2 on) when not the default.
// Micro: `#face=silver&seed=12&variant=waypoint&roll=5` (the arrangement's seed, the dice's).

const ID = /^[0-9A-Fa-f]{4}\+[0-9A-Fa-f]{2}\+[0-9A-Fa-f]{2,10}\+[0-9A-Fa-f]{2}$/;
const DIGITS = /^[0-9]{1,20}$/;
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The fragment's `key=value` pairs (a `+` stays a `+`). */
export function pairs(hash) {
  const out = new Map();
  for (const part of String(hash).replace(/^#/, '').split('&')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    let value;
    try {
      value = decodeURIComponent(part.slice(at + 1));
    } catch {
      continue;
    }
    out.set(part.slice(0, at), value);
  }
  return out;
}

/** A Ricochet position from a fragment: `{ id }`, `{ seed, robots }` or `{ day, moves }`,
 * with `mustRicochet` and `noSingleMove` when given; `null` when it names none. */
export function readRicochet(hash) {
  const p = pairs(hash);
  const rules = {};
  if (p.has('rb1')) rules.mustRicochet = p.get('rb1') !== '0';
  if (p.has('rb2')) rules.noSingleMove = p.get('rb2') === '1';
  if (ID.test(p.get('id') ?? '')) return { id: p.get('id').toUpperCase(), ...rules };
  if (DIGITS.test(p.get('seed') ?? '')) {
    const robots = p.get('robots') === '5' ? 5 : 4;
    return { seed: Number(p.get('seed')), robots, ...rules };
  }
  const moves = Number(p.get('moves'));
  if (DAY.test(p.get('day') ?? '') && Number.isInteger(moves) && moves >= 2 && moves <= 12) {
    return { day: p.get('day'), moves, ...rules };
  }
  return null;
}

/** The fragment of a Ricochet position (as `readRicochet` reads it). */
export function writeRicochet(spec) {
  const parts = [];
  if (spec.id) parts.push(`id=${spec.id}`);
  else if (spec.day) parts.push(`day=${spec.day}`, `moves=${spec.moves}`);
  else parts.push(`seed=${spec.seed}`, ...(spec.robots === 5 ? ['robots=5'] : []));
  if (spec.mustRicochet === false) parts.push('rb1=0');
  if (spec.noSingleMove === true) parts.push('rb2=1');
  return `#${parts.join('&')}`;
}

const FACES = new Set(['public-silver', 'public-copper', 'silver', 'copper']);
const VARIANTS = new Set(['standard', 'waypoint', 'no-token']);

/** A Micro mission from a fragment: `{ face, seed, variant, roll }`, each when given. */
export function readMicro(hash) {
  const p = pairs(hash);
  const out = {};
  if (FACES.has(p.get('face'))) out.face = p.get('face');
  if (DIGITS.test(p.get('seed') ?? '')) out.seed = Number(p.get('seed'));
  if (VARIANTS.has(p.get('variant'))) out.variant = p.get('variant');
  if (DIGITS.test(p.get('roll') ?? '')) out.roll = Number(p.get('roll'));
  return out;
}

/** The fragment of a Micro mission. */
export function writeMicro({ face, seed, variant, roll }) {
  const parts = [`face=${face}`];
  if (seed !== undefined && seed !== null) parts.push(`seed=${seed}`);
  parts.push(`variant=${variant}`, `roll=${roll}`);
  return `#${parts.join('&')}`;
}

/** The day's date as the puzzle of the day names it: the UTC date, `YYYY-MM-DD`, so that
 * everyone has the same puzzle at the same moment. */
export function today(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

/** A random seed for a roll or a draw (the page's own; the engine is seeded by it). */
export function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0];
}
