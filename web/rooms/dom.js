// The DOM builders every room page shares (docs/ROOMS.md, "The pages"): `h` for HTML
// elements, `s` for SVG ones, the log's lines, a seat's item. Text is only ever set with
// textContent, never as HTML; no inline style (the arena's Content-Security-Policy): classes
// of room.css, or element.style set from here.
import { playerName } from './words.js';

const SVG = 'http://www.w3.org/2000/svg';

/** An HTML element: `props` sets properties (`text` is textContent, `data` the dataset,
 *  `attrs` attributes); `children` are appended. */
export function h(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'data') Object.assign(node.dataset, value);
    else if (key === 'attrs') for (const [k, v] of Object.entries(value)) node.setAttribute(k, String(v));
    else node[key] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** An SVG element with its attributes, appended to `parent` if given. */
export function s(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.append(node);
  return node;
}

/** The log's lines in list `box` (kept scrolled to its end if it was there); `section`,
 *  the box around it, hidden while there are none. */
export function showLines(box, section, lines) {
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.replaceChildren(...lines.map((line) => h('li', { text: line })));
  if (atEnd) box.scrollTop = box.scrollHeight;
  section.hidden = lines.length === 0;
}

/**
 * An item of ul#seats (the battle game's and the token games'): li[data-colour] with
 * data-player, data-ready, data-online, data-computer and `data`, the classes `you`,
 * `empty` and `classes`; a swatch (of colour `hue` if given), `label`, the player, the
 * flags (online or away, then `flags`), the nodes `more`, then button.sit, shown on a free
 * seat when you may `sit`.
 */
export function seatItem(seat, you, { classes = [], data = {}, hue, label, flags = [], more = [], sit, connected }) {
  const name = playerName(seat.player);
  const li = h('li', {
    className: [name === you ? 'you' : '', name ? '' : 'empty', ...classes].filter(Boolean).join(' '),
    data: {
      colour: seat.colour,
      player: name || '',
      ready: String(Boolean(seat.ready)),
      online: String(Boolean(seat.online)),
      computer: String(Boolean(seat.computer)),
      ...data,
    },
  });
  const swatch = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
  if (hue) swatch.style.backgroundColor = hue;
  li.append(swatch, h('span', { className: 'colour', text: label }));
  li.append(h('span', { className: 'player', text: name ? (name === you ? `${name} (you)` : name) : 'free seat' }));
  const all = name ? [seat.online ? 'online' : 'away', ...flags] : flags;
  li.append(h('span', { className: 'flags', text: all.join(' · ') }), ...more);
  const button = h('button', { type: 'button', className: 'sit', text: 'Sit here' });
  button.hidden = Boolean(name) || !sit;
  button.disabled = button.hidden || !connected;
  li.append(button);
  return li;
}
