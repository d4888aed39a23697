// "Put it on a hill" and "Challenge first" (docs/PLAY-IN-BROWSER.md): on /play served by an
// arena, the current tab's program carried to a hill's submission page, for submitting or,
// unsaved and unranked, for a challenge (the page's challenge fields, `#challenge-fields`,
// docs/ARENA.md "Challenges"). The arena is known by its list of
// hills (`GET /api/v1/hills`, docs/ARENA.md): as plain static files there is none, and the
// button stays hidden. The text goes in this tab's sessionStorage (same origin), never in
// a URL; the submission page (enhance.js) takes it once, as text for its editor only.

/** The sessionStorage key holding `{name, text}` between /play and a submission page. */
export const CARRIED = 'robots.hill.program';

/** The arena's hills' names, or null when the page is not served by an arena. */
export async function arenaHills(fetchImpl = fetch) {
  try {
    const response = await fetchImpl('/api/v1/hills', { headers: { Accept: 'application/json' } });
    if (!response.ok || !(response.headers.get('content-type') || '').includes('application/json')) return null;
    const hills = await response.json();
    if (!Array.isArray(hills)) return null;
    return hills.map((h) => h && h.name).filter((n) => typeof n === 'string' && n !== '');
  } catch (e) {
    return null;
  }
}

/** A program's name as the arena takes it (1–64 of A-Za-z0-9_-), or ''. */
export function arenaName(name) {
  const plain = String(name).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return /^[A-Za-z0-9_-]{1,64}$/.test(plain) ? plain : '';
}

/**
 * Shows `select` (the hills) and `button` (and `challenge`, when given) once an arena
 * answers; a click puts `current()` (`{name, text}`) in sessionStorage and opens the chosen
 * hill's submission page (at its challenge fields for `challenge`).
 */
export async function offerHills({
  select, button, challenge = null, current, storage = sessionStorage, go = (url) => window.location.assign(url),
}) {
  const hills = await arenaHills();
  if (!hills || hills.length === 0) return false;
  select.replaceChildren(...hills.map((name) => new Option(name, name)));
  select.hidden = false;
  const carry = (anchor) => () => {
    const { name, text } = current();
    storage.setItem(CARRIED, JSON.stringify({ name: arenaName(name), text: String(text) }));
    go(`/hills/${encodeURIComponent(select.value)}/submit${anchor}`);
  };
  button.hidden = false;
  button.addEventListener('click', carry(''));
  if (challenge) {
    challenge.hidden = false;
    challenge.addEventListener('click', carry('#challenge-fields'));
  }
  return true;
}

/** The program carried from /play (`{name, text}`, both strings), removed from storage; or null. */
export function takeCarried(storage = sessionStorage) {
  let raw;
  try {
    raw = storage.getItem(CARRIED);
    storage.removeItem(CARRIED);
  } catch (e) {
    return null;
  }
  if (typeof raw !== 'string') return null;
  let value;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return null;
  }
  if (!value || typeof value.text !== 'string') return null;
  return { name: arenaName(typeof value.name === 'string' ? value.name : ''), text: value.text };
}
