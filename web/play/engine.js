// The games crate in WebAssembly (crates/web): load it, call its methods with plain values.
// No dependencies; the same module on a page, in a Web Worker and under node >= 20.
// The contract is web/play/ENGINE.md.

/** A method's failure: `kind` ("request", "limit", "file", "setup", "session"), `message`,
 * and for "file" the `diagnostic` as `robots check --format json` writes it. */
export class EngineError extends Error {
  constructor({ kind, message, diagnostic }) {
    super(message);
    this.name = "EngineError";
    this.kind = kind;
    if (diagnostic) this.diagnostic = diagnostic;
  }
}

/** The most bytes of JSON a request may take (the crate's MAX_REQUEST_BYTES). */
export const MAX_REQUEST_BYTES = 32 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === "string" || source instanceof URL) source = await fetchBytes(source);
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new Error(`cannot load the engine: HTTP ${source.status}`);
    source = await source.arrayBuffer();
  }
  return WebAssembly.compile(source);
}

/** A URL's bytes: fetch, or the file under node (file: URLs). */
async function fetchBytes(url) {
  const u = new URL(url, typeof location === "undefined" ? import.meta.url : location.href);
  if (u.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(u);
  }
  const response = await fetch(u);
  if (!response.ok) throw new Error(`cannot load the engine: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The engine from a URL, a Response, bytes or a compiled WebAssembly.Module. */
export async function load(source) {
  const module = await compile(source);
  const { exports } = await WebAssembly.instantiate(module, {});
  return new Engine(exports);
}

export class Engine {
  #x;
  constructor(exports) {
    this.#x = exports;
  }

  /** Sends `request` (a value, sent as JSON) to the export `name`; the answer's value. */
  #call(name, request) {
    const x = this.#x;
    const bytes = encoder.encode(JSON.stringify(request));
    if (bytes.length > MAX_REQUEST_BYTES) {
      throw new EngineError({
        kind: "limit",
        message: `the request is larger than ${MAX_REQUEST_BYTES >> 20} MiB, the most the engine takes`,
      });
    }
    const ptr = x.robots_alloc(bytes.length);
    if (ptr === 0) throw new EngineError({ kind: "limit", message: "the engine is out of memory" });
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
    const answer = x[name](ptr, bytes.length); // frees the request
    if (answer === 0) throw new EngineError({ kind: "limit", message: "the engine is out of memory" });
    let text;
    try {
      const len = new DataView(x.memory.buffer).getUint32(answer, true);
      text = decoder.decode(new Uint8Array(x.memory.buffer, answer + 4, len));
    } finally {
      x.robots_free_answer(answer);
    }
    const parsed = JSON.parse(text);
    if ("error" in parsed) throw new EngineError(parsed.error);
    return parsed.ok;
  }

  /** `robots check` on one program: `{ summary, diagnostics }`. */
  check(text, { file, keywords } = {}) {
    return this.#call("robots_check", { text, file, keywords });
  }

  /** The shipped programs, boards and default match: `{ programs, boards, matches }`. */
  shipped() {
    return this.#call("robots_shipped", {});
  }

  /** A match played: `{ text, log, docJson, doc }` (`doc` parsed from `docJson` when read). */
  play(settings = {}) {
    const played = this.#call("robots_play", settings);
    let doc;
    Object.defineProperty(played, "doc", {
      enumerable: true,
      get: () => (doc ??= JSON.parse(played.docJson)),
    });
    return played;
  }

  /** A debugger session on a match: `{ session, text, state }`. */
  debugOpen(settings = {}) {
    return this.#call("robots_debug_open", settings);
  }

  /** One command line: `{ text, failed, quit, stopped, state }`. */
  debugRun(session, line) {
    return this.#call("robots_debug_run", { session, line });
  }

  debugClose(session) {
    this.#call("robots_debug_close", { session });
  }

  /** `robots duel` on the seeds firstSeed … firstSeed + count - 1. */
  duel(settings, firstSeed, count) {
    return this.#call("robots_duel", { ...settings, firstSeed, count });
  }

  /** `robots bench`'s workload, `matches` of it: `{ matches, decided, drawn, turns }`. */
  bench(matches) {
    return this.#call("robots_bench", { matches });
  }

  /** Parses `bench`'s workload now and keeps it, so that `bench` only plays, as `robots bench`
   * times only the playing: `{ setups }`. */
  benchPrepare() {
    return this.#call("robots_bench_prepare", {});
  }

  // Ricochet Robots and Micro Robots (ENGINE.md, "The puzzles"): `spec` names a position
  // ({ id } | { seed, robots } | { position, files } | { board, target }, with mustRicochet,
  // noSingleMove); `on` a Micro board ({ face, tiles, turns } | { face, seed } | { board }).

  /** The position to draw: `{ id, position, targets, noSingleMove }`. */
  ricochetPosition(spec) {
    return this.#call("robots_ricochet_position", spec);
  }

  /** The full game against the computers (`ricochet play`), played from its seed up to the
   * first answer not given yet: `{ state, round, id, position, timer, bid, players, log,
   * record, winners }`. `game` is `{ seed, players, strength, name, mustRicochet, rounds:
   * [{ heard: [{ at, bid } | { at, pass: true }], shown }], now, quit }`. */
  ricochetGame(game) {
    return this.#call("robots_ricochet_game", game);
  }

  /** `ricochet solve --json`: `{ moves, solution }`; kind "unsolved" past the limits. */
  ricochetSolve(spec, { maxMoves, maxStates } = {}) {
    return this.#call("robots_ricochet_solve", { spec, maxMoves, maxStates });
  }

  /** `ricochet solve --all --json`: `{ moves, count, listed, solutions }`. */
  ricochetAll(spec, { limit, maxMoves, maxStates } = {}) {
    return this.#call("robots_ricochet_all", { spec, limit, maxMoves, maxStates });
  }

  /** `ricochet hint --level N`: `{ level, lines, moves, every, some, first }`. */
  ricochetHint(spec, level, { maxMoves, maxStates } = {}) {
    return this.#call("robots_ricochet_hint", { spec, level, maxMoves, maxStates });
  }

  /** Moves played from the position: `{ steps: [{ robot, dir, from, to, counts }], check }`. */
  ricochetReplay(spec, moves) {
    return this.#call("robots_ricochet_replay", { spec, moves });
  }

  /** Game ids solved as `ricochet bench --ids` solves them: each one's fewest moves or null. */
  ricochetSolveMany(ids, { mustRicochet, maxMoves } = {}) {
    return this.#call("robots_ricochet_solve_many", { ids, mustRicochet, maxMoves });
  }

  /** The puzzle of the day: `{ id, seed, moves, draws }` for a date `YYYY-MM-DD`. */
  ricochetDaily(date, moves, { mustRicochet } = {}) {
    return this.#call("robots_ricochet_daily", { date, moves, mustRicochet });
  }

  /** The shipped Micro faces: `{ faces, default, arrangements }`. */
  microFaces() {
    return this.#call("robots_micro_faces", {});
  }

  /** A Micro board: `{ name, arrangement, tiles, turns, rows }`. */
  microBoard(on = {}) {
    return this.#call("robots_micro_board", on);
  }

  /** A mission's dice from a seed: `{ from, via, to, moves }` (`from` given: the last target). */
  microRoll(on, roll, { variant, from } = {}) {
    return this.#call("robots_micro_roll", { on, roll, variant, from });
  }

  /** `micro solve --json`: `{ moves, path }`. */
  microSolve(on, { from, to, via }) {
    return this.#call("robots_micro_solve", { on, from, to, via });
  }

  /** A walk checked: `{ legal, illegal, won, reason }`. */
  microCheck(on, { from, to, via, stops }) {
    return this.#call("robots_micro_check", { on, from, to, via, stops });
  }

  /** A hint: `{ level, line, moves }`. */
  microHint(on, { from, to, via }, level) {
    return this.#call("robots_micro_hint", { on, from, to, via, level });
  }

  /** A game of Micro Robots against the computers (`micro play`), played from its seed up to
   * the first answer not given yet: `{ state, mission, from, via, to, until, announced,
   * players, log, record, winners }`. `race` is `{ face, seed, variant, players, strength,
   * missions: [{ at, moves } | { pass: true }, with shown], now, quit }`. */
  microRace(race) {
    return this.#call("robots_micro_race", race);
  }

  /** `micro analyse --json` on a shipped face. */
  microAnalyse(face) {
    return this.#call("robots_micro_analyse", { face });
  }
}
