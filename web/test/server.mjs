// `robots serve` for the browser tests (web/test/arena.e2e.mjs, rooms.e2e.mjs,
// rooms-ricochet.e2e.mjs, rooms-micro.e2e.mjs): where the binary is, and a server started on
// a database in a folder, read for the URL it prints first, stopped (and started again) by
// the test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository, the build's folder ($CARGO_TARGET_DIR, else target) and the binary. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const target = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');
export const bin = path.resolve(root, process.env.ROBOTS_BIN || path.join(target, 'release', 'robots'));

/** Checks the binary is there and makes `out`; a fresh temporary folder `prefix…` and its database. */
export function freshFolder(out, prefix) {
  assert.ok(fs.existsSync(bin), `no binary at ${bin}: cargo build --release first`);
  fs.mkdirSync(out, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, db: path.join(dir, 'arena.sqlite') };
}

/**
 * `robots serve --db DB --listen ADDR --auth-per-minute 1000 ...args`, run in `dir`. What
 * it prints (stdout and stderr, every run of it) is kept in `log` (the last megabyte or two);
 * `child` and `exit` (a promise of `{code, signal}`) are the last run's.
 */
export class RobotsServer {
  constructor({ bin: binary = bin, dir, db, args = [] }) {
    Object.assign(this, { bin: binary, dir, db, args });
    this.child = null;
    this.exit = undefined;
    this.log = '';
  }

  /** Starts the server on `listen` (port 0: any); its URL, from its first line, without the final /. */
  start(listen = '127.0.0.1:0') {
    return new Promise((resolve, reject) => {
      const server = spawn(this.bin, ['serve', '--db', this.db, '--listen', listen, '--auth-per-minute', '1000', ...this.args], {
        cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'info' },
      });
      this.child = server;
      this.exit = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
      let stdout = '';
      let lines = null;
      const timer = setTimeout(() => reject(new Error(`no URL printed in 10 s; stdout ${JSON.stringify(stdout)}\n${this.log}`)), 10_000);
      const keep = (chunk) => {
        this.log += chunk;
        if (this.log.length > 2_000_000) this.log = this.log.slice(-1_000_000);
      };
      server.stderr.setEncoding('utf8');
      server.stderr.on('data', keep);
      server.stdout.setEncoding('utf8');
      server.stdout.on('data', (chunk) => {
        keep(chunk);
        if (lines) return;
        stdout += chunk;
        if (!stdout.includes('\n')) return;
        lines = stdout.split('\n');
        clearTimeout(timer);
        const m = /^robots arena: listening on (http:\/\/127\.0\.0\.1:(\d+)\/)$/.exec(lines[0]);
        const port = listen.split(':')[1];
        if (!m || m[2] === '0' || (port !== '0' && m[2] !== port)) reject(new Error(`the first line printed is ${JSON.stringify(lines[0])}`));
        else resolve(m[1].replace(/\/$/, ''));
      });
      server.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code ?? signal}) before printing its URL\n${this.log.slice(-4000)}`));
      });
      server.on('error', reject);
    });
  }

  /** SIGTERM (SIGKILL after 5 s): how the server ended (at once if it has already). */
  async stop() {
    const server = this.child;
    if (!server || server.exitCode !== null || server.signalCode !== null) return this.exit;
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
    const how = await this.exit;
    clearTimeout(timer);
    return how;
  }
}
