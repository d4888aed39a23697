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
}
