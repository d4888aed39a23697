// The share link: the programs and the match's settings in the URL's fragment, as JSON
// compressed with CompressionStream('deflate-raw') and written in base64url. A fragment is
// never sent to a server. Reading one is reading hostile input: its size is bounded before
// and while it is inflated, and every field is checked for its type and size; the engine
// checks the rest (the programs, the settings' ranges) as it would a file's.

/** The fragment's key: `#m=…`. */
export const KEY = 'm';
/** The version of the shared document. */
export const VERSION = 1;
/** The longest fragment read (characters), and the most its JSON may inflate to (bytes). */
export const MAX_FRAGMENT = 256 * 1024;
export const MAX_JSON = 1024 * 1024;
/** The most programs a link may hold, and the longest name. */
export const MAX_PROGRAMS = 16;
const MAX_NAME = 64;
const MAX_TEXT = 64 * 1024;

/** Why a fragment could not be read, in words for the page. */
export class ShareError extends Error {}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShareError('the link is damaged: it holds characters a share link never has');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary;
  try {
    binary = atob(padded);
  } catch {
    throw new ShareError('the link is damaged: it is not base64url');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipe(bytes, stream, limit) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    let part;
    try {
      part = await reader.read();
    } catch {
      throw new ShareError('the link is damaged: its data does not inflate');
    }
    if (part.done) break;
    total += part.value.length;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw new ShareError(`the link holds more than ${limit / 1024} KiB of data: refused`);
    }
    chunks.push(part.value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The fragment (without `#`) for `shared` = `{programs: [{name, text}], settings}`. */
export async function encode(shared) {
  const json = JSON.stringify({ v: VERSION, programs: shared.programs, settings: shared.settings });
  const bytes = new TextEncoder().encode(json);
  const packed = await pipe(bytes, new CompressionStream('deflate-raw'), Infinity);
  return `${KEY}=${toBase64Url(packed)}`;
}

const isString = (v, max) => typeof v === 'string' && v.length <= max;

/** The settings' fields a link may hold, each with its check. */
const SETTINGS = {
  board: (v) => isString(v, MAX_NAME),
  scenario: (v) => Number.isInteger(v) && v >= 1 && v <= 9,
  robots: (v) => Number.isInteger(v) && v >= 1 && v <= 99,
  seed: (v) => typeof v === 'string' && /^\d{1,20}$/.test(v),
  rounds: (v) => Number.isInteger(v) && v >= 1 && v <= 1_000_000_000,
  ti57: (v) => typeof v === 'boolean',
  a: (v) => isString(v, MAX_NAME),
  b: (v) => isString(v, MAX_NAME),
};

/** Checks a parsed document's shape: what `decode` gives back. */
export function checkShared(doc) {
  const bad = (what) => { throw new ShareError(`the link's data is not a shared match: ${what}`); };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) bad('not an object');
  if (doc.v !== VERSION) bad(`version ${JSON.stringify(doc.v)}, this page reads ${VERSION}`);
  if (!Array.isArray(doc.programs) || doc.programs.length > MAX_PROGRAMS) bad(`programs must be a list of at most ${MAX_PROGRAMS}`);
  const programs = doc.programs.map((p, i) => {
    if (typeof p !== 'object' || p === null) bad(`program ${i + 1} is not an object`);
    if (!isString(p.name, MAX_NAME)) bad(`program ${i + 1}'s name is not text of at most ${MAX_NAME} characters`);
    if (!isString(p.text, MAX_TEXT)) bad(`program ${i + 1}'s text is not text of at most 64 KiB`);
    return { name: p.name, text: p.text };
  });
  const s = doc.settings;
  if (typeof s !== 'object' || s === null || Array.isArray(s)) bad('settings is not an object');
  const settings = {};
  for (const [key, value] of Object.entries(s)) {
    if (!Object.hasOwn(SETTINGS, key)) bad(`unknown setting ${JSON.stringify(key.slice(0, 40))}`);
    if (!SETTINGS[key](value)) bad(`setting ${key} has a wrong value`);
    settings[key] = value;
  }
  return { programs, settings };
}

/**
 * The shared match in a URL's fragment (`#m=…`, with or without the `#`): `{programs,
 * settings}`, or null when the fragment holds no share; a ShareError saying what is wrong.
 */
export async function decode(fragment) {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (text === '') return null;
  if (text.length > MAX_FRAGMENT) throw new ShareError(`the link is longer than ${MAX_FRAGMENT / 1024} KiB: refused`);
  if (!text.startsWith(`${KEY}=`)) throw new ShareError('the link\'s fragment is not a shared match (it should start with #m=)');
  const bytes = fromBase64Url(text.slice(KEY.length + 1));
  const json = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_JSON);
  let doc;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    throw new ShareError('the link is damaged: its data is not JSON');
  }
  return checkShared(doc);
}
