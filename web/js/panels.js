// Beside the board: every program with its pointer, next step, destroyed steps and test
// answers; the event log in step with the board; the state of the robot clicked; the chart
// of robots alive per team over the rounds. Uses RobotsModel; browser only. Text from files
// is only ever set as text, never as HTML.
'use strict';

const RobotsPanels = (() => {
  const { PALETTE, programRows, robotFacts, memoryLines } = RobotsModel;
  const SVG = 'http://www.w3.org/2000/svg';

  function h(tag, attrs = {}, text = null) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (text !== null) node.textContent = text;
    return node;
  }

  /** One program card, built once; `update` only changes marks and answers. */
  function card(doc, index, onSelect) {
    const robot = doc.robots[index];
    const colour = PALETTE.teams[doc.teams[robot.team].colour];
    const root = h('section', { class: 'program', 'data-robot': robot.name });
    root.style.setProperty('--team', colour);
    const title = h('button', { class: 'title', type: 'button', title: 'show this robot' });
    const name = h('span', { class: 'name' }, robot.name);
    const origin = h('span', { class: 'origin' }, robot.origin);
    const shots = h('span', { class: 'shots' });
    title.append(name, ' ', origin, shots);
    title.addEventListener('click', () => onSelect(index));
    const signal = h('div', { class: 'signal', hidden: '' }, 'signal pending: its step is secret until it acts');
    // The memories of the TI-57 rule (RULES A.12): only in a match with the rule.
    const memories = h('pre', { class: 'memories', hidden: '' });
    const list = h('ol', { class: 'steps' });
    const start = h('li', { class: 'step start' });
    start.append(h('span', { class: 'mark' }, '●'), h('span', { class: 'x' }), h('span', { class: 'n' }), h('span', { class: 'text' }, 'start'));
    list.append(start);
    const rows = robot.steps.map((text, i) => {
      const li = h('li', { class: 'step', 'data-step': i + 1 });
      li.append(h('span', { class: 'mark' }), h('span', { class: 'x' }), h('span', { class: 'n' }, i + 1), h('span', { class: 'text' }, text));
      list.append(li);
      return li;
    });
    const empty = h('li', { class: 'step empty next' });
    empty.append(h('span', { class: 'mark' }, '▶'), h('span', { class: 'x' }), h('span', { class: 'n' }), h('span', { class: 'text' }, '(empty)'));
    list.append(empty);
    // The arena leaves out a program its viewer may not read (docs/ARENA.md): events only.
    if (robot.steps.length === 0) list.append(h('li', { class: 'step secret' }, 'its program is secret: only its events are shown'));
    const tests = h('ul', { class: 'tests' });
    const answers = robot.tests.map(([number, text]) => {
      const li = h('li');
      const answer = h('span', { class: 'answer' });
      li.append(h('span', { class: 'q' }, `?${number}`), answer, h('span', { class: 'text' }, text));
      tests.append(li);
      return answer;
    });
    root.append(title, signal, memories, list, tests);

    function update(state, acting, stateAnswers) {
      const view = programRows(robot, state, acting, stateAnswers);
      root.classList.toggle('acting', acting);
      root.classList.toggle('dead', !state.alive);
      Object.assign(root.dataset, {
        pointer: state.pointer, next: state.next, shots: state.shots, alive: state.alive,
        lost: state.lost.join(' '),
      });
      shots.textContent = state.alive ? `${state.shots} shots` : 'destroyed';
      signal.hidden = !(state.alive && state.signal);
      const memory = memoryLines(state);
      memories.hidden = memory.length === 0;
      memories.textContent = memory.join('\n');
      start.hidden = !view.start;
      view.steps.forEach((s, i) => {
        const li = rows[i];
        if (!li) return;
        li.classList.toggle('pointer', s.pointer);
        li.classList.toggle('next', s.next);
        li.classList.toggle('lost', s.lost);
        li.children[0].textContent = s.pointer ? '●' : s.next ? '▶' : '';
        li.children[1].textContent = s.lost ? '✗' : '';
      });
      const extra = view.steps[robot.steps.length];
      empty.hidden = !extra;
      if (extra) empty.children[2].textContent = extra.n;
      view.tests.forEach((t, i) => {
        answers[i].textContent = t.answer;
        answers[i].className = `answer ${t.answer}`;
      });
    }

    return { root, update };
  }

  function create(doc, parts, onSelect) {
    const cards = doc.robots.map((_, i) => card(doc, i, onSelect));
    for (const c of cards) parts.programs.append(c.root);
    let shown = null;
    let acting = null;

    /** Updates the cards whose robot changed, and those of the robots acting before and now. */
    function programs(state) {
      cards.forEach((c, i) => {
        const robot = state.robots[i];
        const isActing = state.next === i;
        if (!shown || shown.robots[i] !== robot || isActing || acting === i) {
          c.update(robot, isActing, isActing ? state.answers : []);
        }
      });
      acting = state.next;
      shown = state;
    }

    /** After every change (one layout): the card of the robot about to act whole in view,
     *  the log at its end, or at the start of the turn just played if that is too long. */
    function scroll() {
      if (acting !== null && acting !== undefined) follow(cards[acting].root);
      parts.log.scrollTop = parts.logNow.offsetTop - parts.log.offsetTop - 6;
    }

    /** Scrolls the programs so that the card of the robot about to act is whole in view. */
    function follow(node) {
      const box = parts.programs;
      const top = node.offsetTop - box.offsetTop;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + node.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = top + node.offsetHeight - box.clientHeight;
      }
    }

    /** The log up to frame `at`: the turns before it, then the turn just played, marked. */
    function log(at) {
      const first = Math.max(1, at - 40);
      let before = first > 1 ? `… ${first - 1} earlier turns: go back to see them …\n` : '';
      for (let k = first; k < at; k += 1) before += doc.frames[k].l;
      parts.logBefore.textContent = before;
      parts.logNow.textContent = at > 0 ? doc.frames[at].l : '';
    }

    /** The state of robot `index` in the panel beside the board, or, with none chosen, how
     *  to choose one. */
    function info(index, state) {
      parts.infoClose.hidden = index === null;
      if (index === null) {
        delete parts.info.dataset.robot;
        parts.info.style.removeProperty('--team');
        parts.infoText.textContent = 'click a robot (or its card\'s title) for its state';
        return;
      }
      const robot = doc.robots[index];
      parts.info.dataset.robot = robot.name;
      parts.info.style.setProperty('--team', PALETTE.teams[doc.teams[robot.team].colour]);
      parts.infoText.textContent = robotFacts(robot, state.robots[index]).join('\n');
    }

    return { programs, log, info, scroll };
  }

  function svg(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    parent.appendChild(node);
    return node;
  }

  /** The chart of robots alive per team (`series`: RobotsModel.aliveSeries) in `root`, an
   *  SVG: a line a team, a point a round; `show(at, round)` marks frame `at`'s place and its
   *  round. Each line has `data-counts`; y = `data-bottom` − count × `data-unit` − its
   *  `data-offset` (lines drawn apart a little, so that equal counts stay visible). */
  function chart(root, doc, series) {
    const [w, h, left, right, top, bottom] = [260, 92, 18, 8, 6, 76];
    const unit = (bottom - top) / series.most;
    const x = (i) => left + ((w - left - right) * i) / Math.max(1, series.rounds);
    root.setAttribute('viewBox', `0 0 ${w} ${h}`);
    Object.assign(root.dataset, { bottom, unit, rounds: series.rounds });
    const band = svg('rect', { class: 'band', y: top, height: bottom - top }, root);
    for (let n = 0; n <= series.most; n += 1) {
      const y = bottom - n * unit;
      svg('line', { class: n === 0 ? 'axis' : 'grid', x1: left, x2: w - right, y1: y, y2: y }, root);
    }
    const label = (text, at, y, anchor) => {
      svg('text', { x: at, y, 'text-anchor': anchor }, root).textContent = text;
    };
    label(series.most, left - 4, top + 7, 'end');
    label(0, left - 4, bottom + 3, 'end');
    label('start', left, h - 2, 'start');
    label(`round ${series.base + series.rounds}`, w - right, h - 2, 'end');
    const n = doc.teams.length;
    series.counts.forEach((counts, team) => {
      const offset = (team - (n - 1) / 2) * 1.6;
      const points = counts.map((c, i) => `${x(i).toFixed(1)},${(bottom - c * unit - offset).toFixed(2)}`);
      svg('polyline', {
        class: 'series', points: points.join(' '), stroke: PALETTE.teams[doc.teams[team].colour],
        'data-team': doc.teams[team].colour, 'data-counts': counts.join(' '), 'data-offset': offset,
      }, root);
    });
    const now = svg('line', { class: 'now', y1: top - 2, y2: bottom + 2 }, root);
    /** Marks frame `at` on the time axis, and the band of its `round`. */
    function show(at, round) {
      const p = series.position(at);
      const r = Math.min(series.rounds, Math.max(1, round - series.base));
      now.setAttribute('x1', x(p).toFixed(2));
      now.setAttribute('x2', x(p).toFixed(2));
      Object.assign(root.dataset, { at: p.toFixed(4), round });
      band.setAttribute('x', x(r - 1).toFixed(2));
      band.setAttribute('width', series.rounds ? (x(r) - x(r - 1)).toFixed(2) : '0');
    }
    return { show };
  }

  return { create, chart };
})();
