// The board in SVG: terrain, camps, computers, start points, the robots with their damage
// marker, and what happens to them (moves and turns animated between frames; a shot flies
// from its robot to its end, an explosion bursts over its two rings of hexes; hits,
// drownings, lightning flash). Still, with no motion, when `still` (prefers-reduced-motion).
// Uses RobotsModel; browser only.
'use strict';

const RobotsBoard = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const {
    PALETTE, geometry, facingAngle, nearestAngle, shotEnds, around, health,
  } = RobotsModel;

  function el(name, attrs = {}, parent = null) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (parent) parent.appendChild(node);
    return node;
  }

  const points = (corners) => corners.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');
  const ease = (t) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

  /** A lightning bolt drawn in a hex of radius `s` round (cx, cy). */
  function bolt(cx, cy, s) {
    const p = [
      [0.12, -0.62], [-0.3, 0.08], [-0.02, 0.08], [-0.14, 0.62], [0.3, -0.12], [0.02, -0.12],
    ];
    return points(p.map(([x, y]) => [cx + x * s, cy + y * s]));
  }

  function drawShape(layer, form, colour, cx, cy, s) {
    const fill = PALETTE.shapes[colour] || '#888888';
    const attrs = { fill, stroke: '#00000055', 'stroke-width': 1, class: `shape ${form}` };
    if (form === 'square') {
      const a = s * 0.9;
      el('rect', { ...attrs, x: cx - a / 2, y: cy - a / 2, width: a, height: a }, layer);
    } else if (form === 'triangle') {
      const r = s * 0.62;
      const tri = [[cx, cy - r], [cx + r * 0.87, cy + r * 0.5], [cx - r * 0.87, cy + r * 0.5]];
      el('polygon', { ...attrs, points: points(tri) }, layer);
    } else {
      el('circle', { ...attrs, cx, cy, r: s * 0.5 }, layer);
    }
  }

  /** Terrain, camps, computers, shapes, start points and coordinates. */
  function drawTerrain(svg, doc, g) {
    const ground = el('g', { class: 'terrain' }, svg);
    const marks = el('g', { class: 'marks' }, svg);
    for (const cell of doc.board.cells) {
      const [col, row] = cell.at;
      const [cx, cy] = g.center(col, row);
      const fill = { lake: PALETTE.lake, lightning: PALETTE.lightning }[cell.t] || PALETTE.plain;
      const hex = el('polygon', {
        points: points(g.corners(cx, cy)),
        fill,
        stroke: PALETTE.stroke,
        'stroke-width': 1,
        'data-cell': `${col},${row}`,
      }, ground);
      hex.appendChild(document.createElementNS(NS, 'title')).textContent = `[${col}, ${row}]`;
      if (cell.camp) {
        el('polygon', {
          points: points(g.corners(cx, cy, g.size - 0.5)),
          fill: PALETTE.teams[cell.camp],
          'fill-opacity': PALETTE.campOpacity,
        }, marks);
      }
      if (cell.t === 'lightning') el('polygon', { points: bolt(cx, cy, g.size), fill: PALETTE.bolt }, marks);
      if (cell.t === 'shape') drawShape(marks, cell.form, cell.colour, cx, cy, g.size);
      if (cell.t === 'computer') {
        const a = g.size * 0.95;
        el('rect', {
          x: cx - a / 2, y: cy - a / 2, width: a, height: a, rx: 2,
          fill: PALETTE.computer, stroke: PALETTE.teams[cell.colour], 'stroke-width': 3,
          class: 'computer', 'data-camp': cell.colour,
        }, marks);
      }
      if (cell.start) el('circle', { cx, cy, r: g.size * 0.13, fill: PALETTE.start }, marks);
    }
    const labels = el('g', { class: 'labels' }, svg);
    for (let col = 0; col < doc.board.w; col += 1) {
      const [x] = g.center(col, 0);
      el('text', { x, y: g.margin * 0.55, 'text-anchor': 'middle' }, labels).textContent = col;
    }
    for (let row = 0; row < doc.board.h; row += 1) {
      const [, y] = g.center(0, row);
      el('text', { x: g.margin * 0.45, y: y + 4, 'text-anchor': 'middle' }, labels).textContent = row;
    }
  }

  /** One robot: a disc in its team's colour with a nose towards its facing, its number, and
   *  under it its damage marker (`mark`). */
  function drawRobot(layer, doc, index, s) {
    const robot = doc.robots[index];
    const colour = PALETTE.teams[doc.teams[robot.team].colour];
    const group = el('g', { class: 'robot', 'data-robot': robot.name, tabindex: 0 }, layer);
    el('circle', { class: 'ring', r: s * 0.86, fill: 'none' }, group);
    const body = el('g', { class: 'body' }, group);
    el('polygon', {
      points: points([[s * 1.02, 0], [s * 0.3, -s * 0.5], [s * 0.3, s * 0.5]]),
      fill: '#222222',
    }, body);
    el('circle', { r: s * 0.56, fill: colour, stroke: '#ffffff', 'stroke-width': 2 }, body);
    const label = el('text', { class: 'number', 'text-anchor': 'middle', y: s * 0.2 }, group);
    label.textContent = robot.name.split('.')[1];
    const title = group.appendChild(document.createElementNS(NS, 'title'));
    title.textContent = robot.name;
    return { group, body, title, damage: damageMarker(group, s), cur: null, anim: null };
  }

  /** The damage marker under a robot: a bar of its steps still whole (green) and destroyed
   *  (red) when its program is known, and the count of destroyed steps once it has any. */
  function damageMarker(group, s) {
    const w = s * 1.3;
    const root = el('g', { class: 'health', transform: `translate(${(-w / 2).toFixed(2)} ${(s * 0.66).toFixed(2)})` }, group);
    const back = el('rect', { class: 'hp-back', width: w, height: 4, rx: 1.5 }, root);
    const fill = el('rect', { class: 'hp-fill', width: w, height: 4, rx: 1.5 }, root);
    const lost = el('text', { class: 'hp-lost', x: w + 1.5, y: 5, 'text-anchor': 'start' }, root);
    /** Shows `h` (RobotsModel.health). */
    function update(h) {
      root.dataset.lost = h.lost;
      root.dataset.steps = h.steps;
      const known = h.whole !== null;
      back.setAttribute('display', known ? 'inline' : 'none');
      fill.setAttribute('display', known ? 'inline' : 'none');
      if (known) fill.setAttribute('width', (w * h.whole).toFixed(2));
      lost.textContent = h.lost > 0 ? `−${h.lost}` : '';
    }
    return { root, update };
  }

  function create(svg, doc) {
    const g = geometry(24, 26);
    const [width, height] = g.extent(doc.board.w, doc.board.h);
    svg.setAttribute('viewBox', `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`);
    drawTerrain(svg, doc, g);
    const robotLayer = el('g', { class: 'robots' }, svg);
    const fx = el('g', { class: 'effects' }, svg);
    const robots = doc.robots.map((_, i) => drawRobot(robotLayer, doc, i, g.size));
    const effects = [];
    let frame = null;

    function apply(r, v) {
      r.group.setAttribute('transform', `translate(${v.x.toFixed(2)} ${v.y.toFixed(2)})`);
      r.body.setAttribute('transform', `rotate(${v.angle.toFixed(1)})`);
      r.group.setAttribute('opacity', v.opacity.toFixed(3));
      r.group.style.display = v.opacity <= 0.001 ? 'none' : '';
    }

    function tick(now) {
      frame = null;
      let busy = false;
      for (const r of robots) {
        if (!r.anim) continue;
        const t = Math.min(1, (now - r.anim.start) / r.anim.duration);
        const k = ease(t);
        const { from, to } = r.anim;
        const fade = to.opacity < from.opacity ? Math.max(0, (t - 0.5) * 2) : k;
        r.cur = {
          x: from.x + (to.x - from.x) * k,
          y: from.y + (to.y - from.y) * k,
          angle: from.angle + (to.angle - from.angle) * k,
          opacity: from.opacity + (to.opacity - from.opacity) * fade,
        };
        apply(r, r.cur);
        if (t >= 1) r.anim = null;
        else busy = true;
      }
      for (let i = effects.length - 1; i >= 0; i -= 1) {
        const e = effects[i];
        const t = (now - e.start) / e.duration;
        if (t >= 1) {
          e.node.remove();
          effects.splice(i, 1);
        } else {
          e.update(Math.max(0, t));
          busy = true;
        }
      }
      if (busy) frame = requestAnimationFrame(tick);
    }

    const wake = () => {
      if (frame === null) frame = requestAnimationFrame(tick);
    };

    /** A robot's damage marker and its tooltip, from its state `s`. */
    function mark(r, index, s) {
      const h = health(doc.robots[index], s);
      r.damage.update(h);
      const of = h.steps > 0 ? ` of ${h.steps}` : '';
      r.title.textContent = `${doc.robots[index].name}: ${h.lost}${of} steps destroyed`;
    }

    /** Puts every robot where `state` has it: gliding there over `duration` ms, or at once. */
    function place(state, duration) {
      const now = performance.now();
      state.robots.forEach((s, i) => {
        const r = robots[i];
        const [x, y] = g.center(s.col, s.row);
        const angle = r.cur ? nearestAngle(r.cur.angle, facingAngle(s.facing)) : facingAngle(s.facing);
        const to = { x, y, angle, opacity: s.alive ? 1 : 0 };
        Object.assign(r.group.dataset, {
          col: s.col, row: s.row, facing: s.facing, alive: s.alive,
        });
        mark(r, i, s);
        if (duration > 0 && r.cur) {
          r.anim = { from: { ...r.cur }, to, start: now, duration };
        } else {
          r.anim = null;
          r.cur = to;
          apply(r, to);
        }
      });
      if (duration > 0) wake();
    }

    function clearEffects() {
      for (const e of effects) e.node.remove();
      effects.length = 0;
    }

    let still = false;

    /** Adds an effect: `update(t, false)` for t from 0 to 1 over `duration` ms, then it is
     *  removed; when `still`, `update(0, true)` draws it once, unmoving, until removed. */
    function addEffect(node, duration, update) {
      const moving = still ? () => {} : update;
      effects.push({ node, start: performance.now(), duration, update: moving });
      update(0, still);
      wake();
    }

    const pulse = (t) => Math.sin(Math.PI * Math.min(1, t));
    const fix = (v) => v.toFixed(2);
    const set = (node, attrs) => {
      for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    };

    /** A ring at a hex growing (or shrinking) from radius `from` to `to` as it fades; in the
     *  second half of the turn only when `late` (a hit, once the shot is there). */
    function ring(at, colour, from, to, duration, width = 3, late = false) {
      const [cx, cy] = g.center(at[0], at[1]);
      const c = el('circle', { cx, cy, fill: 'none', stroke: colour, 'stroke-width': width }, fx);
      addEffect(c, duration, (t, fixed) => {
        const k = fixed ? 0.5 : late ? Math.max(0, t * 2 - 1) : t;
        const fade = late && !fixed && t < 0.5 ? 0 : 1 - k;
        set(c, { r: fix(from + (to - from) * k), opacity: fade.toFixed(3) });
      });
    }

    /** A shot: a flash at its robot, a tracer flying to its end in the first half of the
     *  turn with its line behind it, then a flash where it stops (none when it leaves the
     *  board at once). Still: the whole line and the flash at its end. */
    function shot(e, state, duration) {
      const ends = shotEnds(doc, state.robots[e.robot], e.facing, e.distance);
      const [x1, y1] = g.center(ends.from[0], ends.from[1]);
      let [x2, y2] = g.center(ends.to[0], ends.to[1]);
      if (ends.range === 0) [x2, y2] = [(x1 + x2) / 2, (y1 + y2) / 2];
      const root = el('g', {
        class: 'shot', 'data-robot': doc.robots[e.robot].name,
        'data-from': ends.from.join(','), 'data-to': ends.to.join(','),
      }, fx);
      if (e.target !== undefined) root.dataset.target = doc.robots[e.target].name;
      const trail = el('line', { class: 'trail', x1, y1, x2: x1, y2: y1 }, root);
      const muzzle = el('circle', { class: 'muzzle', cx: x1, cy: y1 }, root);
      const tracer = el('circle', { class: 'tracer', r: 4 }, root);
      const impact = ends.range > 0 ? el('circle', { class: 'impact', cx: x2, cy: y2 }, root) : null;
      addEffect(root, duration, (t, fixed) => {
        const fly = fixed ? 1 : ease(Math.min(1, t * 2));
        const [tx, ty] = [x1 + (x2 - x1) * fly, y1 + (y2 - y1) * fly];
        set(trail, { x2: fix(tx), y2: fix(ty), opacity: (fixed || t < 0.5 ? 0.9 : 1.8 * (1 - t)).toFixed(3) });
        set(tracer, { cx: fix(tx), cy: fix(ty), opacity: fixed || t >= 0.5 ? 0 : 1 });
        set(muzzle, { r: fix(g.size * (0.3 + t)), opacity: fixed ? 0 : Math.max(0, 1 - t * 4).toFixed(3) });
        if (!impact) return;
        const k = fixed ? 0.5 : Math.max(0, t * 2 - 1);
        set(impact, { r: fix(g.size * (0.25 + 0.7 * k)), opacity: (fixed ? 0.8 : pulse(k)).toFixed(3) });
      });
    }

    /** An explosion (R-A7): its hexes within 2 lit (distance 1 destroys, 2 takes a step), a
     *  fireball, a shock wave and sparks growing over them. Still: drawn at two thirds. */
    function burst(e, duration) {
      const [cx, cy] = g.center(e.at[0], e.at[1]);
      const reach = 2.3 * Math.sqrt(3) * g.size;
      const root = el('g', { class: 'burst', 'data-at': e.at.join(',') }, fx);
      const hexes = around(doc, e.at, 2).map(({ at, d }) => {
        const [x, y] = g.center(at[0], at[1]);
        const hex = el('polygon', { class: `blast d${d}`, points: points(g.corners(x, y)) }, root);
        Object.assign(hex.dataset, { hex: at.join(','), distance: d });
        return hex;
      });
      const fire = el('circle', { class: 'fire', cx, cy }, root);
      const wave = el('circle', { class: 'wave', cx, cy }, root);
      const sparks = Array.from({ length: 12 }, () => el('line', { class: 'spark' }, root));
      addEffect(root, duration, (t, fixed) => {
        const k = fixed ? 0.66 : 1 - (1 - t) ** 3;
        const fade = fixed ? 0.8 : 1 - t;
        for (const hex of hexes) hex.setAttribute('opacity', (fixed ? 0.55 : 0.7 * pulse(t)).toFixed(3));
        set(fire, { r: fix(reach * 0.55 * k), opacity: fade.toFixed(3) });
        set(wave, { r: fix(reach * k), opacity: fade.toFixed(3) });
        sparks.forEach((line, i) => {
          const [dx, dy] = [Math.cos((i * Math.PI) / 6), Math.sin((i * Math.PI) / 6)];
          const [r1, r2] = [reach * k * 0.6, reach * k * 0.85];
          set(line, {
            x1: fix(cx + dx * r1), y1: fix(cy + dy * r1), x2: fix(cx + dx * r2), y2: fix(cy + dy * r2),
            opacity: fade.toFixed(3),
          });
        });
      });
    }

    /** Draws a turn's effects (RobotsModel.effects) over `duration` ms, after `state`; with
     *  no motion when `fixed` (prefers-reduced-motion). */
    function show(list, state, duration, fixed = false) {
      still = fixed;
      const at = (robot) => [state.robots[robot].col, state.robots[robot].row];
      const s = g.size;
      for (const e of list) {
        if (e.kind === 'shot') shot(e, state, duration);
        else if (e.kind === 'hit') ring(at(e.robot), '#ff3b1f', s * 0.3, s * 1.1, duration, 4, true);
        else if (e.kind === 'explosion') burst(e, duration);
        else if (e.kind === 'splash') ring(e.at, '#1f5fa8', s * 0.2, s, duration, 3);
        else if (e.kind === 'fall') ring(e.at, '#555555', s, s * 0.1, duration, 3);
        else if (e.kind === 'lost') ring(at(e.robot), '#8a4fc8', s * 0.9, s * 0.6, duration, 3);
        else if (e.kind === 'signal') ring(at(e.robot), '#2f6fd0', s * 0.6, s * 1.4, duration, 2);
        else if (e.kind === 'blocked') ring(e.at, '#d23c3c', s * 0.7, s * 0.5, duration, 2);
        else if (e.kind === 'lightning') {
          const [cx, cy] = g.center(e.at[0], e.at[1]);
          const flash = el('polygon', { points: points(g.corners(cx, cy)), fill: '#fff6a0' }, fx);
          addEffect(flash, duration, (t, fixed) => flash.setAttribute('opacity', (fixed ? 0.8 : pulse(t * 2)).toFixed(3)));
        } else if (e.kind === 'computer') {
          const cell = doc.board.cells.find((c) => c.t === 'computer' && c.colour === e.camp);
          if (cell) ring(cell.at, '#ff3b1f', s * 0.4, s * 1.6, duration, 5);
        }
      }
    }

    function select(index) {
      robots.forEach((r, i) => r.group.classList.toggle('selected', i === index));
    }

    function onRobot(handler) {
      robots.forEach((r, i) => {
        r.group.addEventListener('click', () => handler(i));
        r.group.addEventListener('keydown', (ev) => {
          if (ev.key === 'Enter') handler(i);
        });
      });
    }

    return { place, show, clearEffects, select, onRobot };
  }

  return { create };
})();
