// Builds the /play page's static folder (scripts/web runs it after the wasm is built):
// `node web/play/build.mjs OUT` bundles main.js and worker.js with esbuild (CodeMirror and
// engine.js inside, web/viewer.html as text), and enhance.js (edit/enhance.js: the same
// editor on the arena's submission page and battle room, served at /play/enhance.js), copies index.html and play.css, writes the
// replay viewer's style sheet and scripts as the arena serves them (viewer.css; viewer.js,
// web/js/*.js in the order of crates/games/src/battle/show/page.rs), then prints every
// file's size and the whole transfer gzipped. OUT must already hold robots.wasm.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..');
const out = path.resolve(process.argv[2] || path.join(web, 'dist'));

/** The viewer's scripts, in page.rs's order (web/README.md). */
const VIEWER_SCRIPTS = ['palette.js', 'model.js', 'board.js', 'panels.js', 'app.js'];
/** The budget of the page's whole transfer, gzipped (issue 47). */
const BUDGET = 1.5 * 1024 * 1024;

fs.mkdirSync(out, { recursive: true });
if (!fs.existsSync(path.join(out, 'robots.wasm'))) {
  console.error(`build.mjs: no ${path.join(out, 'robots.wasm')}: build it first (scripts/wasm-build)`);
  process.exit(2);
}

await esbuild.build({
  entryPoints: {
    main: path.join(here, 'main.js'),
    worker: path.join(here, 'worker.js'),
    enhance: path.join(here, 'edit', 'enhance.js'),
  },
  outdir: out,
  bundle: true,
  format: 'esm',
  minify: true,
  sourcemap: false,
  target: ['chrome110', 'firefox115', 'safari16.4'],
  loader: { '.html': 'text' },
  // engine.js reads a file: URL under node only; a page never takes that path.
  external: ['node:*'],
  legalComments: 'eof',
  logLevel: 'warning',
});

fs.copyFileSync(path.join(here, 'index.html'), path.join(out, 'index.html'));
fs.copyFileSync(path.join(here, 'play.css'), path.join(out, 'play.css'));
fs.copyFileSync(path.join(web, 'viewer.css'), path.join(out, 'viewer.css'));
fs.writeFileSync(
  path.join(out, 'viewer.js'),
  VIEWER_SCRIPTS.map((f) => fs.readFileSync(path.join(web, 'js', f), 'utf8')).join(''),
);

// The puzzle pages (web/puzzles/build.mjs), before the folder is counted.
await (await import('../puzzles/build.mjs')).buildPuzzles(esbuild, out);

// What a browser fetches: every file of the folder.
let raw = 0;
let gzipped = 0;
const rows = [];
for (const name of fs.readdirSync(out).sort()) {
  const bytes = fs.readFileSync(path.join(out, name));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzipped += gz;
  rows.push(`  ${name.padEnd(14)} ${String(bytes.length).padStart(9)} bytes, ${String(gz).padStart(8)} gzipped`);
}
const mib = (n) => (n / 1024 / 1024).toFixed(2);
console.log(`${out}:\n${rows.join('\n')}\n  the whole transfer: ${raw} bytes (${mib(raw)} MiB), ${gzipped} gzipped (${mib(gzipped)} MiB; budget 1.50 MiB)`);
if (gzipped > BUDGET) {
  console.error('build.mjs: the page is over its budget of 1.5 MiB gzipped');
  process.exit(1);
}
