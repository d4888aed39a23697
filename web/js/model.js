// The pure part of the replay viewer: palette, hex geometry, the match's frames expanded into
// whole states, moving in time, and what the panels say. No DOM here. In the page it is a
// classic script defining `RobotsModel`; the unit tests (web/test/) load it as CommonJS.
'use strict';

const RobotsModel = (() => {
  // The drawing palette: web/js/palette.js, written from the crate's own (crates/games/src/text/palette.rs).
  const PALETTE =
    typeof RobotsPalette === 'object' ? RobotsPalette : require('./palette.js');

  // Directions 1-6 clockwise from east (R-A1), screen coordinates (y down).
  const DIRECTIONS = [
    { number: 1, name: 'E', arrow: '→', axial: [1, 0] },
    { number: 2, name: 'SE', arrow: '↘', axial: [0, 1] },
    { number: 3, name: 'SW', arrow: '↙', axial: [-1, 1] },
    { number: 4, name: 'W', arrow: '←', axial: [-1, 0] },
    { number: 5, name: 'NW', arrow: '↖', axial: [0, -1] },
    { number: 6, name: 'NE', arrow: '↗', axial: [1, -1] },
  ];

  const SQRT3 = Math.sqrt(3);

  /** Pointy-top hexes of circumradius `size`, odd rows shifted right by half a hex. */
  function geometry(size, margin) {
    const across = SQRT3 * size;
    return {
      size,
      margin,
      /** The centre of hex [col, row]. */
      center(col, row) {
        return [
          margin + across * (col + 0.5 * (row & 1)) + across / 2,
          margin + 1.5 * size * row + size,
        ];
      },
      /** The six corners of a hex of radius `r` round (cx, cy), from the upper right. */
      corners(cx, cy, r = size) {
        const out = [];
        for (let i = 0; i < 6; i += 1) {
          const angle = (Math.PI / 180) * (60 * i - 30);
          out.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
        }
        return out;
      },
      /** The drawing's width and height for a board of `w` x `h` hexes. */
      extent(w, h) {
        const shift = h > 1 ? across / 2 : 0;
        return [2 * margin + across * w + shift, 2 * margin + 1.5 * size * (h - 1) + 2 * size];
      },
    };
  }

  /** The angle in degrees (clockwise from east) of a facing 1-6. */
  function facingAngle(facing) {
    return (facing - 1) * 60;
  }

  /** The hex `n` steps from [col, row] towards `facing`, in offset coordinates. */
  function stepHex(col, row, facing, n = 1) {
    const q = col - (row - (row & 1)) / 2;
    const [dq, dr] = DIRECTIONS[facing - 1].axial;
    const q2 = q + dq * n;
    const r2 = row + dr * n;
    return [q2 + (r2 - (r2 & 1)) / 2, r2];
  }

  /** The angle nearest to `from` that points the same way as `to` (no spin the long way). */
  function nearestAngle(from, to) {
    return from + ((((to - from) % 360) + 540) % 360) - 180;
  }

  /** Every frame as a whole state: the document keeps only what changed (docs/VIEWER.md). */
  function expand(doc) {
    const states = [];
    let robots = [];
    let roundStart = 0;
    doc.frames.forEach((f, index) => {
      robots = robots.slice();
      for (const d of f.d) {
        robots[d[0]] = {
          col: d[1],
          row: d[2],
          facing: d[3],
          alive: d[4] === 1,
          shots: d[5],
          pointer: d[6],
          next: d[7],
          lost: d[8],
          signal: d[9] === 1,
          memory: robots[d[0]] ? robots[d[0]].memory : undefined,
        };
      }
      // Under the TI-57 rule, the memories that changed (frame 0: every robot's).
      for (const m of f.m || []) {
        robots[m[0]] = {
          ...robots[m[0]],
          memory: { x: m[1], t: m[2], r: m[3], returns: m[4], stopped: m[5] === 1 },
        };
      }
      if (index > 0 && f.r !== states[index - 1].round) roundStart = index;
      states.push({
        round: f.r,
        next: f.n,
        signals: f.g,
        robots,
        answers: f.a,
        roundStart,
      });
    });
    return states;
  }

  /** Where each key and button goes from frame `at` of `states` (one robot turn, a round). */
  const moves = {
    clamp: (states, at) => Math.max(0, Math.min(states.length - 1, at)),
    turnForward: (states, at) => moves.clamp(states, at + 1),
    turnBack: (states, at) => moves.clamp(states, at - 1),
    /** The start of the next round (the frame after its last turn), or the end. */
    roundForward(states, at) {
      const round = states[at].round;
      for (let k = at + 1; k < states.length; k += 1) {
        if (states[k].round !== round) return k;
      }
      return states.length - 1;
    },
    /** The start of this round, or of the previous one if already there. */
    roundBack(states, at) {
      const start = states[at].roundStart;
      if (start < at) return start;
      return at === 0 ? 0 : states[at - 1].roundStart;
    },
    start: () => 0,
    end: (states) => states.length - 1,
  };

  const yesNo = (a) => (a === 1 ? 'yes' : 'no');

  /** A robot's program as the debugger shows it: ● the pointer (the last step read, R-A8),
   *  ▶ the step read next, ✗ a destroyed step; the tests with the answers of the robot about
   *  to act. */
  function programRows(robot, state, acting, answers) {
    const steps = robot.steps.map((text, i) => {
      const n = i + 1;
      const pointer = state.pointer === n;
      const next = !pointer && state.alive && state.next === n;
      return { n, text, pointer, next, lost: state.lost.includes(n) };
    });
    if (state.alive && state.next > robot.steps.length) {
      steps.push({ n: state.next, text: '(empty)', pointer: false, next: true, lost: false });
    }
    const tests = robot.tests.map(([number, text], i) => ({
      number,
      text,
      answer: acting && answers.length > i ? yesNo(answers[i]) : '',
    }));
    return { start: state.pointer === 0, steps, tests };
  }

  /** A robot's whole state in lines, like the debugger's `show robot`; a pending signal's
   *  step stays secret until it acts (R-A23), and the page does not have it. */
  function robotFacts(robot, state) {
    const lines = [`${robot.name} (program ${robot.origin})`];
    if (!state.alive) {
      lines.push('destroyed');
      return lines;
    }
    const d = DIRECTIONS[state.facing - 1];
    const pointer = state.pointer === 0 ? 'start box' : `step ${state.pointer}`;
    lines.push(`position: [${state.col}, ${state.row}]`);
    lines.push(`facing: ${d.number} ${d.arrow} ${d.name}`);
    lines.push(`pointer: ${pointer} (next: step ${state.next})`);
    lines.push(`destroyed steps: ${state.lost.length ? state.lost.join(', ') : 'none'}`);
    lines.push(`shots left: ${state.shots}`);
    lines.push(`pending signal: ${state.signal ? 'yes (its step is secret until it acts)' : 'none'}`);
    const m = state.memory;
    if (m) {
      lines.push(`memories: x = ${m.x}, t = ${m.t}`);
      lines.push(`R0-R7: ${m.r.join(' ')}`);
      lines.push(`returns remembered: ${returns(m)}${m.stopped ? ' (stopped by R/S)' : ''}`);
    }
    return lines;
  }

  const returns = (m) => (m.returns.length ? m.returns.map((s) => `step ${s}`).join(', ') : 'none');

  /** Under the TI-57 rule (RULES A.12), a living robot's memories and remembered returns in
   *  two lines for its program card, as the debugger's screen shows them; none otherwise. */
  function memoryLines(state) {
    const m = state.memory;
    if (!m || !state.alive) return [];
    return [
      `x = ${m.x}  t = ${m.t}  R0-R7: ${m.r.join(' ')}`,
      `returns: ${returns(m)}${m.stopped ? ' · stopped (R/S)' : ''}`,
    ];
  }

  /** Where the match stands at frame `at`, in one line. */
  function status(doc, states, at) {
    const s = states[at];
    if (s.next === null || s.next === undefined) {
      const end = doc.end ? `${doc.end.verdict} after round ${doc.end.rounds}` : 'over';
      return `turn ${at}: the match is over: ${end}`;
    }
    const next = doc.robots[s.next];
    const team = doc.teams[next.team].colour;
    const signals = doc.teams.map((t, i) => `${t.colour} ${s.signals[i]}`).join(', ');
    return `turn ${at}: round ${s.round}, ${team} to play, ${next.name} next (signals left: ${signals})`;
  }

  /** What to draw for a turn's events: shots, hits, explosions, drownings, lightning. */
  function effects(events) {
    const out = [];
    for (const e of events) {
      const [code, robot] = e;
      switch (code) {
        case 'fired':
          out.push({ kind: 'shot', robot, facing: e[3] });
          break;
        case 'hit': {
          const shot = out.findLast((x) => x.kind === 'shot' && x.robot === e[2]);
          if (shot) Object.assign(shot, { distance: e[3], target: robot });
          out.push({ kind: 'hit', robot, by: e[2], distance: e[3] });
          break;
        }
        case 'computer_hit':
          out.push({ kind: 'computer', by: e[2], camp: e[3] });
          break;
        case 'exploded':
          out.push({ kind: 'explosion', robot, at: e[3] });
          break;
        case 'drowned':
          out.push({ kind: 'splash', robot, at: e[2] });
          break;
        case 'lightning':
          out.push({ kind: 'lightning', robot, at: e[2] });
          break;
        case 'fell_off':
          out.push({ kind: 'fall', robot, at: e[2] });
          break;
        case 'blocked':
          out.push({ kind: 'blocked', robot, at: e[3] });
          break;
        case 'step_lost':
          out.push({ kind: 'lost', robot });
          break;
        case 'signal_received':
          out.push({ kind: 'signal', robot });
          break;
        default:
          break;
      }
    }
    return out;
  }

  /** How far a shot from `state` towards `facing` goes: to the robot it hits, else up to 2
   *  hexes, stopped by a computer, a shape under the advanced rule, or the board's edge. */
  function shotRange(doc, state, facing, hitDistance) {
    if (hitDistance) return hitDistance;
    let range = 0;
    for (let n = 1; n <= 2; n += 1) {
      const [col, row] = stepHex(state.col, state.row, facing, n);
      if (col < 0 || row < 0 || col >= doc.board.w || row >= doc.board.h) break;
      range = n;
      const cell = doc.board.cells[row * doc.board.w + col];
      if (cell.t === 'computer' || (cell.t === 'shape' && doc.shapes_block)) break;
    }
    return range;
  }

  /** The hexes of the board within distance `n` of [col, row], each with its distance: an
   *  explosion destroys the robots at distance 1 and takes a step of those at 2 (R-A7). */
  function around(doc, [col, row], n) {
    const axial = (c, r) => [c - (r - (r & 1)) / 2, r];
    const [q0, r0] = axial(col, row);
    const out = [];
    for (const cell of doc.board.cells) {
      const [q, r] = axial(cell.at[0], cell.at[1]);
      const d = (Math.abs(q - q0) + Math.abs(r - r0) + Math.abs(q - q0 + r - r0)) / 2;
      if (d <= n) out.push({ at: cell.at, d });
    }
    return out;
  }

  /** A shot's two hexes: the shooter's, then the robot hit, else as far as the shot goes
   *  (`shotRange`); `range` 0 when it leaves the board at once (`to` is then off it). */
  function shotEnds(doc, state, facing, hitDistance) {
    const range = shotRange(doc, state, facing, hitDistance);
    const to = stepHex(state.col, state.row, facing, Math.max(range, 1));
    return { from: [state.col, state.row], to, range };
  }

  /** A robot's damage: how many of its steps are destroyed (R-A8), and, when the page has
   *  its program (the arena may leave it out), how many it has and the share still whole. */
  function health(robot, state) {
    const steps = robot.steps.length;
    const lost = state.lost.length;
    return { lost, steps, whole: steps > 0 ? Math.max(0, steps - lost) / steps : null };
  }

  /** How many robots of `team` are alive in `state`. */
  function aliveCount(doc, state, team) {
    return doc.robots.filter((r, i) => r.team === team && state.robots[i].alive).length;
  }

  /** Robots alive per team over the rounds, for the chart. Point x = 0 is the start, x = r the
   *  state after the last turn of round r (a turn k is played in the round of frame k - 1):
   *  `ends[x]` is that point's frame, `counts[team][x]` its robots alive, `most` the largest
   *  team, `position(at)` where frame `at` falls on that axis (by turns within its round). */
  function aliveSeries(doc, states) {
    const last = states.length - 1;
    const playedIn = (k) => doc.frames[k - 1].r;
    const rounds = last > 0 ? playedIn(last) - playedIn(1) + 1 : 0;
    const base = last > 0 ? playedIn(1) - 1 : 0;
    const first = [];
    const ends = [0];
    for (let k = 1; k <= last; k += 1) {
      const x = playedIn(k) - base;
      if (first[x] === undefined) first[x] = k;
      ends[x] = k;
    }
    // A round without a turn (not known to happen) keeps the point before it.
    for (let x = 1; x <= rounds; x += 1) {
      if (ends[x] === undefined) [ends[x], first[x]] = [ends[x - 1], ends[x - 1]];
    }
    const counts = doc.teams.map((_, t) => ends.map((k) => aliveCount(doc, states[k], t)));
    const sizes = doc.teams.map((_, t) => doc.robots.filter((r) => r.team === t).length);
    function position(at) {
      if (at <= 0) return 0;
      const x = playedIn(at) - base;
      return x - 1 + (at - first[x] + 1) / (ends[x] - first[x] + 1);
    }
    return { rounds, base, ends, counts, most: Math.max(1, ...sizes), position };
  }

  return {
    PALETTE,
    DIRECTIONS,
    geometry,
    facingAngle,
    stepHex,
    nearestAngle,
    expand,
    moves,
    programRows,
    robotFacts,
    memoryLines,
    status,
    effects,
    shotRange,
    shotEnds,
    around,
    health,
    aliveCount,
    aliveSeries,
  };
})();

if (typeof module === 'object' && module.exports) module.exports = RobotsModel;
