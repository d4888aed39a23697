// H25 (7650+42+E2302B12+C9, R-B1 off, 25 moves) solved in the puzzle page's Web Worker in
// Chromium (issue 48's goal: at most 6 s): `robots serve --play web/dist` started on a fresh
// folder, /play/ricochet opened, a fresh puzzles worker asked to solve it ROUNDS times, each
// timed on the page's clock. A benchmark, not a test. Usage (after scripts/web and a release
// build): node web/test/puzzles-page.bench.mjs [ROUNDS]
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RobotsServer, freshFolder, root, target } from './server.mjs';
import { launchChromium } from './support.mjs';

const rounds = Number(process.argv[2] ?? 3);
const out = path.join(target, 'puzzles-bench-page');
const { dir, db } = freshFolder(out, 'robots-puzzles-bench-');
const server = new RobotsServer({ dir, db, args: ['--play', path.join(root, 'web/dist'), '--workers', '0'] });
const base = await server.start();
const browser = await launchChromium(chromium);
try {
  const page = await browser.newPage();
  await page.goto(`${base}/play/ricochet#seed=1`);
  await page.waitForSelector('body[data-ready="true"]');
  for (let r = 1; r <= rounds; r++) {
    const { moves, seconds } = await page.evaluate(() => new Promise((resolve, reject) => {
      const worker = new Worker(new URL('puzzles-worker.js', location.href), { type: 'module' });
      const started = performance.now();
      worker.onmessage = ({ data }) => {
        worker.terminate();
        if (data.error) reject(new Error(data.error.message));
        else resolve({ moves: data.value.moves, seconds: (performance.now() - started) / 1000 });
      };
      worker.postMessage({ id: 1, method: 'ricochetSolve', args: [{ id: '7650+42+E2302B12+C9', mustRicochet: false }] });
    }), null, { timeout: 120_000 });
    console.log(`H25 in the page's worker (Chromium), round ${r}: ${moves} moves in ${seconds.toFixed(2)} s (the worker's start and the engine's compilation included)`);
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
