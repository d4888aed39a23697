// The puzzles' solvers in the browser's engine agree with the native ones (issue 48): under
// node, the WebAssembly engine (web/play/engine.js) and the `robots` binary on
// - the positions of `robots ricochet random --seed 1..N --id` (N = 3,000): the same ids drawn
//   (`ricochetPosition({seed})`), and the same fewest moves with R-B1 on and off
//   (`ricochetSolveMany` against one `robots ricochet bench --ids FILE --json` per rule);
// - every shipped Micro face: `micro analyse --json` byte for byte (every pair of every
//   arrangement), and `micro solve --json` on every pair of the face's plain arrangement.
// Run by scripts/test:
//   ROBOTS=target/release/robots ROBOTS_WASM=robots.wasm node --test web/test/puzzles-agree.mjs
// PUZZLES_AGREE_SEEDS sets N.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { load } from "../play/engine.js";

const robots = process.env.ROBOTS;
const wasm = process.env.ROBOTS_WASM;
const SEEDS = Number(process.env.PUZZLES_AGREE_SEEDS ?? 3000);
if (!robots || !wasm) throw new Error("set ROBOTS (the robots binary) and ROBOTS_WASM (scripts/wasm-build's output)");
const engine = await load(await readFile(wasm));

/** `robots ARGS`: its standard output (a failure rejects). */
function run(args) {
  return new Promise((resolve, reject) => {
    execFile(robots, args, { maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`robots ${args.join(" ")}: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Each of `commands` (`robots` arguments) run in order by one shell: each one's standard
 * output (a line each here), in order. */
function runLines(commands) {
  const quote = (arg) => `'${arg.replaceAll("'", "'\\''")}'`;
  const script = commands.map((args) => `"$ROBOTS" ${args.map(quote).join(" ")} || echo FAILED`).join("\n");
  return new Promise((resolve, reject) => {
    execFile("bash", ["-c", script], { maxBuffer: 1 << 28, env: { ...process.env, ROBOTS: robots, NO_COLOR: "1" } }, (error, stdout) => {
      if (error) return reject(error);
      const lines = stdout.split("\n").filter((l) => l !== "");
      if (lines.length !== commands.length) reject(new Error(`${lines.length} lines for ${commands.length} commands`));
      else resolve(lines);
    });
  });
}

/** The commands split between two shells (two cores), their lines back in order. */
async function runLinesOnTwo(commands) {
  const half = Math.ceil(commands.length / 2);
  const [a, b] = await Promise.all([runLines(commands.slice(0, half)), runLines(commands.slice(half))]);
  return [...a, ...b];
}

test(`ricochet: the positions of seeds 1..${SEEDS}, solved with R-B1 on and off`, async () => {
  const seeds = Array.from({ length: SEEDS }, (_, i) => i + 1);
  const ids = await runLinesOnTwo(seeds.map((s) => ["ricochet", "random", "--seed", String(s), "--id"]));
  for (const [i, seed] of seeds.entries()) {
    assert.equal(engine.ricochetPosition({ seed }).id, ids[i], `seed ${seed}: the wasm draws another position`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), "puzzles-agree-"));
  try {
    const file = path.join(dir, "seeds.ids");
    await writeFile(file, `# robots ricochet random --seed 1..${SEEDS} --id\n${ids.join("\n")}\n`);
    for (const rule of ["on", "off"]) {
      const started = performance.now();
      const native = JSON.parse(await run(["ricochet", "bench", "--ids", file, "--json", "--must-ricochet", rule]));
      const nativeSeconds = (performance.now() - started) / 1000;
      assert.equal(native.positions.length, ids.length);
      const t = performance.now();
      const wasmMoves = [];
      for (let i = 0; i < ids.length; i += 500) {
        wasmMoves.push(...engine.ricochetSolveMany(ids.slice(i, i + 500), { mustRicochet: rule === "on" }));
      }
      const wasmSeconds = (performance.now() - t) / 1000;
      const differ = [];
      native.positions.forEach((p, i) => {
        assert.equal(p.id, ids[i]);
        if (p.moves !== wasmMoves[i]) differ.push(`${p.id}: native ${p.moves}, wasm ${wasmMoves[i]}`);
      });
      assert.deepEqual(differ, [], `R-B1 ${rule}: ${differ.length} positions differ`);
      const solved = wasmMoves.filter((m) => m !== null).length;
      console.log(`R-B1 ${rule}: ${ids.length} positions agree (${solved} solved); native ${nativeSeconds.toFixed(1)} s, wasm ${wasmSeconds.toFixed(1)} s`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("micro: every shipped face's analysis and every pair of its plain arrangement", async () => {
  const { faces } = engine.microFaces();
  assert.deepEqual(faces, ["public-silver", "public-copper", "silver", "copper"]);
  const commands = [];
  const asked = [];
  for (const face of faces) {
    const native = await run(["micro", "analyse", face, "--json"]);
    assert.equal(JSON.stringify(engine.microAnalyse(face)), native.trim(), `micro analyse ${face}`);
    const cells = engine.microBoard({ face }).rows.flat();
    for (let a = 0; a < cells.length; a++) {
      for (let b = a + 1; b < cells.length; b++) {
        commands.push(["micro", "solve", face, "--from", cells[a], "--to", cells[b], "--json"]);
        asked.push({ face, from: cells[a], to: cells[b] });
      }
    }
  }
  const lines = await runLinesOnTwo(commands);
  const differ = [];
  asked.forEach(({ face, from, to }, i) => {
    const native = JSON.parse(lines[i]);
    const mine = engine.microSolve({ face }, { from, to });
    if (mine.moves !== native.moves) differ.push(`${face} ${from}→${to}: native ${native.moves}, wasm ${mine.moves}`);
    // The path may differ among shortest ones; the wasm's must win the mission.
    const checked = engine.microCheck({ face }, { from, to, stops: mine.path.slice(1) });
    if (!checked.won) differ.push(`${face} ${from}→${to}: the wasm's path does not check: ${checked.reason}`);
  });
  assert.deepEqual(differ, []);
  console.log(`micro: ${faces.length} analyses and ${asked.length} pairs agree`);
});
