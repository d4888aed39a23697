// The page's controller: reads the match's document from the page, then moves in time with
// the buttons, the slider and the keys (docs/VIEWER.md), keeping the board, the programs, the
// log, the robot shown and the chart in step; one turn forward is animated at the play
// speed, without motion under prefers-reduced-motion. Uses RobotsModel, RobotsBoard,
// RobotsPanels.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const doc = JSON.parse($('match-data').textContent);
  const {
    expand, moves, status, effects, aliveCount, aliveSeries, PALETTE,
  } = RobotsModel;
  const states = expand(doc);
  const last = states.length - 1;
  const BASE_TURN_MS = 900;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');

  let at = 0;
  let selected = null;
  let timer = null;

  const slider = $('slider');
  const speed = $('speed');
  const play = $('play');
  const board = RobotsBoard.create($('board'), doc);
  const panels = RobotsPanels.create(doc, {
    programs: $('programs'),
    log: $('log'),
    logBefore: $('log-before'),
    logNow: $('log-now'),
    info: $('info'),
    infoText: $('info-text'),
    infoClose: $('info-close'),
  }, select);
  const chart = RobotsPanels.chart($('chart'), doc, aliveSeries(doc, states));

  function header() {
    $('match-name').textContent = doc.name;
    let rules = doc.shapes_block ? '' : ', shapes do not block';
    if (doc.keywords === 'ti57') rules += ', TI-57 keywords';
    $('match-meta').textContent =
      `board ${doc.board.name} (${doc.board.w} x ${doc.board.h}), scenario ${doc.scenario}, ` +
      `seed ${doc.seed}, at most ${doc.rounds} rounds${rules}; ${last} robot turns`;
    $('turns').textContent = last;
    slider.max = String(last);
    const teams = $('teams');
    doc.teams.forEach((t, i) => {
      const chip = document.createElement('span');
      chip.className = 'team';
      chip.dataset.team = t.colour;
      chip.dataset.index = i;
      chip.style.setProperty('--team', PALETTE.teams[t.colour]);
      teams.append(chip);
    });
  }

  /** How many robots each team has left at the frame shown. */
  function teams(state) {
    for (const chip of $('teams').children) {
      const alive = aliveCount(doc, state, Number(chip.dataset.index));
      chip.textContent = `${chip.dataset.team}: ${alive} left`;
    }
  }

  const turnMs = () => BASE_TURN_MS / Number(speed.value);

  /** Shows frame `to`; one turn forward is animated when `animate`, any other move is not. */
  function go(to, animate = false) {
    const target = moves.clamp(states, to);
    const stepping = animate && target === at + 1;
    at = target;
    const state = states[at];
    const duration = stepping ? turnMs() * 0.8 : 0;
    const still = reduced.matches;
    if (!stepping) board.clearEffects();
    board.place(state, still ? 0 : duration);
    if (stepping) board.show(effects(doc.frames[at].e), state, duration, still);
    panels.programs(state);
    panels.log(at);
    panels.info(selected, state);
    teams(state);
    chart.show(at, state.round);
    $('turn').textContent = at;
    $('round').textContent = state.round;
    $('status').textContent = status(doc, states, at);
    slider.value = String(at);
    document.body.dataset.turn = at;
    panels.scroll();
    if (at === last && timer !== null) pause();
  }

  function select(index) {
    selected = selected === index ? null : index;
    board.select(selected);
    panels.info(selected, states[at]);
    panels.scroll();
  }

  function pause() {
    clearTimeout(timer);
    timer = null;
    play.textContent = '▶';
    play.setAttribute('aria-label', 'play');
    play.dataset.playing = 'false';
  }

  function tick() {
    go(at + 1, true);
    if (timer !== null) timer = setTimeout(tick, turnMs());
  }

  function toggle() {
    if (timer !== null) {
      pause();
      return;
    }
    if (at === last) go(0);
    play.textContent = '❙❙';
    play.setAttribute('aria-label', 'pause');
    play.dataset.playing = 'true';
    timer = setTimeout(tick, 0);
  }

  /** What each button and key does. */
  const actions = {
    start: () => go(moves.start()),
    roundBack: () => go(moves.roundBack(states, at)),
    turnBack: () => go(moves.turnBack(states, at)),
    turnForward: () => go(moves.turnForward(states, at), true),
    roundForward: () => go(moves.roundForward(states, at)),
    end: () => go(moves.end(states)),
    toggle,
  };

  function wire() {
    const buttons = {
      'to-start': 'start',
      'round-back': 'roundBack',
      'turn-back': 'turnBack',
      play: 'toggle',
      'turn-forward': 'turnForward',
      'round-forward': 'roundForward',
      'to-end': 'end',
    };
    for (const [id, action] of Object.entries(buttons)) {
      $(id).addEventListener('click', () => actions[action]());
    }
    slider.addEventListener('input', () => go(Number(slider.value)));
    $('info-close').addEventListener('click', () => select(selected));
    board.onRobot(select);
    window.addEventListener('keydown', onKey, true);
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === 'SELECT' && event.key !== ' ') return;
    const shift = event.shiftKey;
    const action = {
      ArrowRight: shift ? 'roundForward' : 'turnForward',
      ArrowLeft: shift ? 'roundBack' : 'turnBack',
      ArrowDown: 'roundForward',
      ArrowUp: 'roundBack',
      ' ': 'toggle',
      Home: 'start',
      End: 'end',
    }[event.key];
    if (!action) return;
    event.preventDefault();
    actions[action]();
  }

  header();
  wire();
  go(0);
  document.body.dataset.ready = 'true';
})();
