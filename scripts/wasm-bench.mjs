// The wasm engine's half of scripts/wasm-bench: `robots bench`'s workload played under node,
// timed here (the playing only, as `robots bench` times it): `node scripts/wasm-bench.mjs ROBOTS.wasm MATCHES` prints one JSON line.
import { readFile } from "node:fs/promises";
import { load } from "../web/play/engine.js";

const [wasm, matches] = process.argv.slice(2);
const engine = await load(await readFile(wasm));
// As `robots bench`: the workload's programs and board parsed before the clock starts, the
// matches (each setup's checking and compiling included) timed.
engine.benchPrepare();
const started = performance.now();
const report = engine.bench(Number(matches));
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ ...report, seconds, robot_turns_per_second: Math.round(report.turns / seconds) }));
