// The page's side of web/play/worker.js: an engine in a Web Worker whose methods answer
// promises. `stop()` ends the worker at once, whatever it is doing (the next call starts a
// fresh one); a call refused by the engine rejects with a `WorkerError` carrying its kind,
// its message and, for a wrong file, its diagnostic.

export class WorkerError extends Error {
  constructor({ kind, message, diagnostic }) {
    super(message);
    this.kind = kind;
    this.diagnostic = diagnostic ?? null;
  }
}

export class EngineWorker {
  constructor(url) {
    this.url = url;
    this.worker = null;
    this.pending = new Map();
    this.next = 1;
  }

  start() {
    if (this.worker) return this.worker;
    const worker = new Worker(this.url, { type: 'module' });
    worker.addEventListener('message', (event) => {
      const { id, value, error } = event.data;
      const call = this.pending.get(id);
      if (!call) return;
      this.pending.delete(id);
      if (error) call.reject(new WorkerError(error));
      else call.resolve(value);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.fail(new WorkerError({ kind: 'load', message: `the engine's worker failed: ${event.message || 'it could not start'}` }));
    });
    this.worker = worker;
    return worker;
  }

  /** Calls the engine's `method` with `args` in the worker. */
  call(method, ...args) {
    const worker = this.start();
    const id = this.next;
    this.next += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args });
    });
  }

  /** Whether a call is under way. */
  busy() {
    return this.pending.size > 0;
  }

  fail(error) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(error);
  }

  /** Ends the worker now; calls under way reject with kind `stopped`. */
  stop() {
    this.fail(new WorkerError({ kind: 'stopped', message: 'stopped' }));
  }
}
