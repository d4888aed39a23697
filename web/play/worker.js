// The engine (engine.js over robots.wasm, ENGINE.md) in a Web Worker, so that nothing it
// plays blocks the page: each message `{id, method, args}` is answered `{id, value}` or
// `{id, error: {kind, message, diagnostic}}`, in order. The page keeps one worker for
// checking, one for playing and debugging, one for a duel, and ends a worker to stop it.
import { load, EngineError } from './engine.js';

const engine = load(new URL('robots.wasm', self.location.href));
const METHODS = new Set(['check', 'shipped', 'play', 'debugOpen', 'debugRun', 'debugClose', 'duel']);

function failure(e) {
  if (e instanceof EngineError) {
    return { kind: e.kind, message: e.message, diagnostic: e.diagnostic ?? null };
  }
  // A trap is a bug of the engine; this worker's instance is not used again.
  return { kind: 'trap', message: `the engine stopped: ${e && e.message ? e.message : e}` };
}

self.addEventListener('message', async (event) => {
  const { id, method, args } = event.data;
  let ready;
  try {
    ready = await engine;
  } catch (e) {
    self.postMessage({ id, error: { kind: 'load', message: `the engine could not load: ${e.message}` } });
    return;
  }
  if (!METHODS.has(method)) {
    self.postMessage({ id, error: { kind: 'request', message: `no method ${method}` } });
    return;
  }
  try {
    let value = ready[method](...args);
    // `play`'s `doc` is `docJson` parsed: the page takes the text only, parsed once there.
    if (method === 'play') value = { text: value.text, log: value.log, docJson: value.docJson };
    self.postMessage({ id, value });
  } catch (e) {
    self.postMessage({ id, error: failure(e) });
  }
});
