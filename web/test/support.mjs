// What the arena's and the rooms' browser tests share: the binary run in a folder, and
// `robots check --format json` as the independent source of a program's diagnostics.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Runs the binary in `dir`, throwing on a failure with its output in the message. */
export function runRobots(bin, dir, args) {
  const r = spawnSync(bin, args, { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, `robots ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** What `robots check --format json` says of `source`: one object a diagnostic. */
export function checkDiagnostics(bin, dir, source) {
  const file = path.join(dir, 'check.robot');
  fs.writeFileSync(file, source);
  const r = spawnSync(bin, ['check', file, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => {
    const d = JSON.parse(l);
    return { line: d.line, column: d.column, severity: d.severity, message: d.message };
  });
}

/** Diagnostics in a fixed order, to compare lists. */
export const sortDiagnostics = (list) =>
  [...list].sort((a, b) => a.line - b.line || a.column - b.column || a.message.localeCompare(b.message));
