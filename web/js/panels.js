// Beside the board: every program with its pointer, next step, destroyed steps and test
// answers; the event log in step with the board; the state of the robot clicked. Uses
// RobotsModel; browser only. Text from files is only ever set as text, never as HTML.
'use strict';

const RobotsPanels = (() => {
  const { PALETTE, programRows, robotFacts, memoryLines } = RobotsModel;

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
     *  the log at its end. */
    function scroll() {
      if (acting !== null && acting !== undefined) follow(cards[acting].root);
      parts.log.scrollTop = parts.log.scrollHeight;
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

    function info(index, state) {
      if (index === null) {
        parts.info.hidden = true;
        return;
      }
      parts.info.hidden = false;
      parts.info.dataset.robot = doc.robots[index].name;
      parts.infoText.textContent = robotFacts(doc.robots[index], state.robots[index]).join('\n');
    }

    return { programs, log, info, scroll };
  }

  return { create };
})();
