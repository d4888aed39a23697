// The Ricochet board on the page: the engine's own picture of the board (`ricochet board
// --svg`, drawn by the games crate), the goal ringed and the robots put on it as discs in the
// picture's colours, moved with a transition. Test hooks: `#board [data-robot]` with
// `data-x`, `data-y`; `[data-goal]` with `data-x`, `data-y`, `data-robot`.

const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

export class RicochetBoard {
  /** Draws `drawn` (`ricochetPosition`'s answer) in `host`. */
  constructor(host, drawn) {
    this.host = host;
    this.drawn = drawn;
    const doc = new DOMParser().parseFromString(drawn.svg, 'image/svg+xml');
    const svg = doc.documentElement;
    if (svg.nodeName !== 'svg') throw new Error('the engine gave no picture');
    this.svg = document.importNode(svg, true);
    this.svg.removeAttribute('width');
    this.svg.removeAttribute('height');
    this.svg.setAttribute('role', 'img');
    const { width } = drawn.position;
    this.side = Number(this.svg.getAttribute('viewBox').split(' ')[2]);
    this.cell = this.side / (width + 2);
    const [gx, gy] = drawn.position.goal.at;
    const ringColour = drawn.colours[drawn.position.goal.robot] ?? '#222';
    const ring = s('rect', {
      x: this.cell * (gx + 1) + 2, y: this.cell * (gy + 1) + 2, width: this.cell - 4, height: this.cell - 4,
      fill: 'none', stroke: ringColour, 'stroke-width': this.cell / 8, class: 'goal',
      'data-goal': '', 'data-x': gx, 'data-y': gy, 'data-robot': drawn.position.goal.robot,
    });
    this.svg.append(ring);
    this.layer = s('g', { class: 'robots' });
    this.svg.append(this.layer);
    this.robots = new Map();
    for (const { robot, at } of drawn.position.robots) {
      const g = s('g', { class: 'robot', 'data-robot': robot, tabindex: '-1' });
      g.append(s('circle', { r: this.cell * 0.36, fill: drawn.colours[robot], stroke: '#222', 'stroke-width': this.cell / 14 }));
      g.append(s('circle', { class: 'chosen-ring', r: this.cell * 0.47, fill: 'none', stroke: '#222', 'stroke-width': this.cell / 16 }));
      this.layer.append(g);
      this.robots.set(robot, g);
      this.place(robot, at, false);
    }
    host.replaceChildren(this.svg);
  }

  /** Puts `robot` on cell `[x, y]`, sliding there when `animate`. */
  place(robot, [x, y], animate = true) {
    const g = this.robots.get(robot);
    g.classList.toggle('still', !animate);
    g.dataset.x = x;
    g.dataset.y = y;
    g.style.transform = `translate(${this.cell * (x + 1.5)}px, ${this.cell * (y + 1.5)}px)`;
  }

  /** Every robot where `cells` (`Map` robot → [x, y]) says. */
  placeAll(cells, animate) {
    for (const [robot, at] of cells) this.place(robot, at, animate);
  }

  choose(robot) {
    for (const [name, g] of this.robots) g.classList.toggle('chosen', name === robot);
  }

  /** The robot (a name) or the cell (`[x, y]`) under a pointer event, or null. */
  under(event) {
    const robot = event.target.closest?.('[data-robot]');
    if (robot && this.robots.has(robot.dataset.robot)) return { robot: robot.dataset.robot };
    const box = this.svg.getBoundingClientRect();
    const scale = this.side / box.width;
    const x = Math.floor(((event.clientX - box.left) * scale) / this.cell) - 1;
    const y = Math.floor(((event.clientY - box.top) * scale) / this.cell) - 1;
    const { width, height } = this.drawn.position;
    return x >= 0 && y >= 0 && x < width && y < height ? { cell: [x, y] } : null;
  }
}

/** The direction from `from` to `to` in a row or a column, or null. */
export function towards([fx, fy], [tx, ty]) {
  if (fx === tx && fy !== ty) return ty < fy ? 'N' : 'S';
  if (fy === ty && fx !== tx) return tx < fx ? 'W' : 'E';
  return null;
}

/** A swipe's direction (at least 24 pixels, along its longer axis), or null. */
export function swipe(dx, dy) {
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return null;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'E' : 'W';
  return dy > 0 ? 'S' : 'N';
}
