// The Ricochet solver in WebAssembly against the native one (issue 48; a benchmark, not a
// test): H25 (7650+42+E2302B12+C9, R-B1 off, 25 moves) solved by the wasm under node, and
// the median time of boards/ricochet/bench/random-200.ids in the wasm and in `robots ricochet
// bench --ids` on one thread (RAYON_NUM_THREADS=1), alternated round by round in one run.
// The wasm's time is a whole call (the position built from its id, the JSON); native's the
// solve alone, its position built before the clock starts. So the call's own cost is timed
// too (the same id's position built and sent back, no solve), and the solve alone estimated
// as each id's call less that cost: both ratios are printed.
// Usage: scripts/puzzles-bench [ROUNDS] (it builds the binary and the wasm first).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "../web/play/engine.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const robots = process.env.ROBOTS;
const wasm = process.env.ROBOTS_WASM;
const rounds = Number(process.argv[2] ?? 3);
const engine = await load(readFileSync(wasm));
const file = path.join(root, "boards/ricochet/bench/random-200.ids");
const ids = readFileSync(file, "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

const H25 = "7650+42+E2302B12+C9";
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  const s = engine.ricochetSolve({ id: H25, mustRicochet: false });
  console.log(`H25 in wasm under node: ${s.moves} moves in ${((performance.now() - t) / 1000).toFixed(2)} s`);
}

const natives = [];
const wasms = [];
const alones = [];
for (let r = 1; r <= rounds; r++) {
  const out = execFileSync(robots, ["ricochet", "bench", "--ids", file, "--json"], {
    env: { ...process.env, RAYON_NUM_THREADS: "1" },
    maxBuffer: 1 << 26,
  });
  const native = JSON.parse(out);
  const times = [];
  const calls = [];
  const alone = [];
  for (const [i, id] of ids.entries()) {
    // The call's own cost: the position built from its id, the JSON both ways.
    let t = performance.now();
    engine.ricochetReplay({ id }, []);
    calls.push(performance.now() - t);
    t = performance.now();
    const s = engine.ricochetSolve({ id });
    times.push(performance.now() - t);
    alone.push(times[i] - calls[i]);
    if (s.moves !== native.positions[i].moves) throw new Error(`${id}: wasm ${s.moves}, native ${native.positions[i].moves}`);
  }
  const n = native.median_ms;
  const w = median(times);
  natives.push(n);
  wasms.push(w);
  const c = median(calls);
  const a = median(alone);
  alones.push(a);
  console.log(`round ${r}: random-200 median native (one thread) ${n.toFixed(3)} ms, wasm ${w.toFixed(3)} ms: ${(w / n).toFixed(2)}x; a call's own cost ${c.toFixed(3)} ms (the position from its id, the JSON); the solve alone ${a.toFixed(3)} ms: ${(a / n).toFixed(2)}x`);
}
console.log(`median of rounds: native ${median(natives).toFixed(3)} ms, wasm ${median(wasms).toFixed(3)} ms: ${(median(wasms) / median(natives)).toFixed(2)}x; the solve alone ${median(alones).toFixed(3)} ms: ${(median(alones) / median(natives)).toFixed(2)}x`);
