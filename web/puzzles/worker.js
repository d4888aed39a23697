// The puzzles' engine in a Web Worker (web/play/ENGINE.md, "The puzzles"): the solver's long
// calls (a solve, hints, every optimal solution, the puzzle of the day) run here, so the
// page never freezes and its Stop button ends the worker. Messages as web/play/worker.js's:
// `{id, method, args}` answered `{id, value}` or `{id, error: {kind, message}}`.
import { load, EngineError } from '../play/engine.js';

const engine = load(new URL('robots.wasm', self.location.href));
/** Only the puzzles' methods are answered here. */
const puzzle = (method) => /^(ricochet|micro)[A-Z]\w*$/.test(method);

self.addEventListener('message', async ({ data: { id, method, args } }) => {
  const answer = (reply) => self.postMessage({ id, ...reply });
  let ready;
  try {
    ready = await engine;
  } catch (e) {
    return answer({ error: { kind: 'load', message: `the engine could not load: ${e.message}` } });
  }
  if (!puzzle(method) || typeof ready[method] !== 'function') {
    return answer({ error: { kind: 'request', message: `no method ${method}` } });
  }
  try {
    answer({ value: ready[method](...args) });
  } catch (e) {
    const known = e instanceof EngineError;
    answer({ error: { kind: known ? e.kind : 'trap', message: known ? e.message : `the engine stopped: ${e?.message ?? e}` } });
  }
});
