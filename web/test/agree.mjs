// The browser's engine agrees with the native one (ARCHITECTURE.md, invariants): random
// matches played by the WebAssembly engine (web/play/engine.js) under node and by the
// `robots` binary, compared byte for byte — `robots run`'s text, `robots run --log`'s, and the
// document `robots run --html` embeds — and `check` against `robots check` on every program of
// tests/programs/ and programs/. Run by scripts/test:
//   ROBOTS=target/release/robots ROBOTS_WASM=robots.wasm node --test web/test/agree.mjs
// AGREE_MATCHES sets the number of matches (2,000).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir, availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "../play/engine.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const robots = process.env.ROBOTS;
const wasm = process.env.ROBOTS_WASM;
const MATCHES = Number(process.env.AGREE_MATCHES ?? 2000);
if (!robots || !wasm) throw new Error("set ROBOTS (the robots binary) and ROBOTS_WASM (scripts/wasm-build's output)");
const engine = await load(await readFile(wasm));

/** `robots ARGS` in `cwd`: its standard output and exit code (no colour: not a terminal). */
function run(args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(robots, args, { cwd, maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") reject(error);
      else resolve({ stdout, stderr, code: error ? error.code : 0 });
    });
  });
}

/** Each of `commands` (`robots` arguments) run in order by one shell in `cwd`: each one's
 * standard output and exit code. Outputs are told apart by NUL bytes, which `robots` never
 * prints (text from files reaches the output escaped). */
function runMany(commands, cwd) {
  const quote = (arg) => `'${arg.replaceAll("'", "'\\''")}'`;
  const script = commands.map((args) => `"$ROBOTS" ${args.map(quote).join(" ")}; printf '\\0%d\\0' $?`).join("\n");
  return new Promise((resolve, reject) => {
    execFile("bash", ["-c", script], { cwd, maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout) => {
      if (error) return reject(error);
      const parts = stdout.split("\0");
      const outputs = [];
      for (let i = 0; i + 1 < parts.length; i += 2) outputs.push({ stdout: parts[i], code: Number(parts[i + 1]), stderr: "" });
      if (outputs.length !== commands.length) reject(new Error(`${outputs.length} outputs for ${commands.length} commands`));
      else resolve(outputs);
    });
  });
}

/** Runs `jobs` (functions returning promises) `width` at a time, in order of results. */
async function pool(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** Where two texts first differ, with the bytes around it. */
function firstDifference(native, web) {
  let i = 0;
  while (i < native.length && native[i] === web[i]) i++;
  const around = (s) => JSON.stringify(s.slice(Math.max(0, i - 40), i + 40));
  return `first difference at byte ${i} of ${native.length}/${web.length}: native ${around(native)} web ${around(web)}`;
}

// A small seeded generator (mulberry32): the same matches every run.
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  return { next, int, pick };
}

const CONDITIONS = [
  "enemy ahead within 2", "enemy ahead 1", "enemy within 1", "friend within 2", "true", "false",
  "lake ahead 1", "edge ahead 1", "shape ahead within 2", "robot ahead 1", "lightning ahead 1",
  "computer ahead 1", "enemy right or enemy behind-right", "enemy left within 6",
  "count(enemy within 2) >= 2", "shots > 0", "shots = 0", "facing 1", "facing 4",
  "in enemy camp", "enemy camp ahead", "enemy computer ahead within 2", "not enemy ahead",
  "(enemy ahead 2 and shots > 3) or not (lake ahead 1 or edge ahead 1)",
];
const PLAIN = ["D+1", "D+2", "D-1", "D-2", "R+1", "R+2", "R-1", "R-2", "T", "*", "RAZ"];

/** A plain program of 1 to 15 steps: every kind of instruction, tests and jumps. */
function plainProgram(g, name) {
  const steps = g.int(1, 15);
  const tests = g.int(1, 4);
  let text = `name: ${name}\n`;
  for (let s = 1; s <= steps; s++) {
    const r = g.next();
    const step = r < 0.55 ? g.pick(PLAIN) : r < 0.8 ? `?${g.int(1, tests)}` : `GO ${g.int(1, steps)}`;
    text += `${s}: ${step}\n`;
  }
  for (let t = 1; t <= tests; t++) text += `test ${t}: ${g.pick(CONDITIONS)}\n`;
  return text;
}

const TI57 = ["STO", "RCL", "SUM", "INV SUM", "PRD", "INV PRD", "EXC"];
const TI57_PLAIN = ["x<>t", "C.t", "INV C.t", "x=t", "INV x=t", "x>=t", "INV x>=t", "DSZ", "INV DSZ",
  "PAUSE", "R/S", "NOP", "RTN", "INV SBR", "x = shots", "x = damage", "x = facing", "x = count(enemy within 3)"];

/** A program under the TI-57 rule (RULES A.12): up to 50 steps of calculator keywords too. */
function ti57Program(g, name) {
  const steps = g.int(5, 50);
  const labels = g.int(1, 3);
  const at = new Set();
  while (at.size < labels) at.add(g.int(1, steps));
  const labelled = [...at];
  let text = `name: ${name}\n`;
  for (let s = 1; s <= steps; s++) {
    let step;
    const r = g.next();
    if (at.has(s)) step = `LBL ${labelled.indexOf(s)}`;
    else if (r < 0.3) step = g.pick(PLAIN);
    else if (r < 0.45) step = `${g.pick(TI57)} ${g.int(0, 7)}`;
    else if (r < 0.6) step = g.pick(TI57_PLAIN);
    else if (r < 0.7) step = `${g.pick(["SBR", "GTO"])} ${g.int(0, labels - 1)}`;
    else if (r < 0.8) step = `${g.pick(["", "-", "+"])}${g.int(0, 99)}`;
    else if (r < 0.9) step = "?1";
    else step = `GO ${g.int(1, steps)}`;
    text += `${s}: ${step}\n`;
  }
  text += `test 1: ${g.pick(["x >= t", "R0 != -1 and facing > 3", "t < R1 or enemy ahead", g.pick(CONDITIONS)])}\n`;
  return text;
}

const BOARDS = {
  classic: { colours: ["green", "violet"], robots: 3 },
  duel: { colours: ["green", "violet"], robots: 2 },
  melee: { colours: ["red", "violet", "green", "blue"], robots: 2 },
};

/** Match `i`: its file's text, the programs' files, and the flags and settings beside them. */
function randomMatch(g, i) {
  const board = g.pick(Object.keys(BOARDS));
  const { colours, robots: most } = BOARDS[board];
  const scenario = g.int(1, 3);
  // Scenarios 2 and 3 need every camp in play.
  const teams = scenario === 1 ? colours.slice(0, g.int(2, colours.length)) : colours;
  const ti57 = g.next() < 0.25;
  const robots = g.int(1, most);
  const files = {};
  let text = `name: match ${i}\nboard: ${board}\nscenario: ${scenario}\n`;
  text += `rules: {rounds: ${g.int(5, 300)}${ti57 ? ", keywords: ti57" : ""}${g.next() < 0.2 ? ", shapes_block: true" : ""}}\n`;
  if (g.next() < 0.5) text += `seed: ${g.int(0, 2 ** 31)}\n`;
  text += "teams:\n";
  for (const colour of teams) {
    text += `  - colour: ${colour}\n    robots:\n`;
    const same = g.next() < 0.5;
    for (let r = 1; r <= robots; r++) {
      const name = `m${i}_${colour}_${same ? 1 : r}`;
      files[`${name}.robot`] ??= (ti57 && g.next() < 0.7 ? ti57Program : plainProgram)(g, name);
      text += `      - {program: ${name}.robot${g.next() < 0.3 ? `, facing: ${g.int(1, 6)}` : ""}}\n`;
    }
  }
  const signals = g.int(0, 3);
  if (signals > 0) {
    text += "signals:\n";
    for (let s = 0; s < signals; s++) {
      const robot = `${g.pick(teams)}.${g.int(1, robots)}`;
      const when = g.next() < 0.5 ? `round: ${s * 3 + g.int(1, 3)}` : `when: "${g.pick(CONDITIONS)}"`;
      text += `  - {${when}, robot: ${robot}, step: ${g.int(1, 15)}}\n`;
    }
  }
  const flags = [];
  const settings = { match: text, matchFile: `m${i}.yaml`, files };
  if (g.next() < 0.3) {
    const seed = g.int(0, 2 ** 31) * 4096 + g.int(0, 4095);
    flags.push("--seed", String(seed));
    settings.seed = String(seed);
  }
  if (g.next() < 0.2) {
    const rounds = g.int(1, 1500);
    flags.push("--rounds", String(rounds));
    settings.rounds = rounds;
  }
  return { name: `m${i}.yaml`, text, files, flags, settings };
}

const DOC = '<script id="match-data" type="application/json">';

test(`${MATCHES} random matches: robots run, --log and --html agree with the wasm engine`, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "robots-agree-"));
  try {
    const g = generator(47);
    const matches = Array.from({ length: MATCHES }, (_, i) => randomMatch(g, i + 1));
    for (const m of matches) {
      await writeFile(path.join(dir, m.name), m.text);
      for (const [name, text] of Object.entries(m.files)) await writeFile(path.join(dir, name), text);
    }
    const seen = { played: 0, refused: 0, ti57: 0, signals: 0, scenarios: new Set(), turns: 0, reasons: {}, wasm: 0 };
    const compare = (m, n) => {
      const where = `${m.name} ${m.flags.join(" ")}\n${m.text}`;
      let web;
      try {
        const t0 = performance.now();
        web = engine.play(m.settings);
        seen.wasm += performance.now() - t0;
      } catch (e) {
        // Refused by both, then: a setup the rules forbid, or a match too long for a page.
        assert.notEqual(n.html.code, 0, `${where}\nthe wasm engine refused it (${e.message}), robots run --html did not`);
        seen.refused++;
        const reason = e.message.replace(/^[^ ]* error: /, "").split("\n")[0];
        seen.reasons[reason] = (seen.reasons[reason] ?? 0) + 1;
        return;
      }
      assert.equal(n.plain.code, 0, `${where}\n${n.plain.stderr}`);
      assert.ok(n.plain.stdout === web.text, `${where}\nrobots run: ${firstDifference(n.plain.stdout, web.text)}`);
      assert.ok(n.log.stdout === web.log, `${where}\nrobots run --log: ${firstDifference(n.log.stdout, web.log)}`);
      const start = n.html.stdout.indexOf(DOC) + DOC.length;
      const doc = n.html.stdout.slice(start, n.html.stdout.indexOf("</script>", start));
      assert.ok(start > DOC.length && doc === web.docJson, `${where}\nrobots run --html: ${firstDifference(doc, web.docJson)}`);
      seen.played++;
      seen.ti57 += m.text.includes("keywords: ti57");
      seen.signals += m.text.includes("signals:");
      seen.scenarios.add(web.doc.scenario);
      seen.turns += web.doc.frames.length - 1;
    };
    // The binary plays the matches in batches, one shell a batch (a process spawned from node
    // costs ~9 ms of this thread; from a shell, ~2); each batch compared as soon as it is
    // done, while the next one plays.
    const commands = (m) => [
      ["run", m.name, ...m.flags],
      ["run", "--log", m.name, ...m.flags],
      ["run", "--html", "-", m.name, ...m.flags],
    ];
    const BATCH = 50;
    const jobs = [];
    for (let i = 0; i < matches.length; i += BATCH) {
      const batch = matches.slice(i, i + BATCH);
      jobs.push(async () => {
        const outputs = await runMany(batch.flatMap(commands), dir);
        batch.forEach((m, k) => compare(m, { plain: outputs[3 * k], log: outputs[3 * k + 1], html: outputs[3 * k + 2] }));
      });
    }
    const started = performance.now();
    await pool(jobs, 2);
    console.log(`agree: ${seen.played} matches played alike (${seen.turns} robot turns; ${seen.ti57} under the TI-57 rule, ${seen.signals} with signals), ${seen.refused} refused by both (${JSON.stringify(seen.reasons)}), ${((performance.now() - started) / 1000).toFixed(1)} s, wasm ${(seen.wasm / 1000).toFixed(1)} s`);
    assert.ok(seen.played >= MATCHES * 0.9, `only ${seen.played} of ${MATCHES} matches were played`);
    assert.ok(seen.ti57 > 0 && seen.signals > 0 && seen.scenarios.size === 3, JSON.stringify({ ...seen, scenarios: [...seen.scenarios] }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** Every `.robot` file under `dir` (relative to the root), in name order. */
async function robotFiles(dir) {
  const found = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await robotFiles(rel)));
    else if (entry.name.endsWith(".robot")) found.push(rel);
  }
  return found.sort();
}

test("check gives robots check's diagnostics and line for every program of tests/programs/ and programs/", async () => {
  const files = [...(await robotFiles("tests/programs")), ...(await robotFiles("programs"))];
  assert.ok(files.length > 50, `${files.length} files`);
  const jobs = files.map((file) => async () => {
    const keywords = file.split(path.sep).includes("ti57") ? ["--keywords", "ti57"] : [];
    const json = await run(["check", "--format", "json", ...keywords, file], root);
    const text = await run(["check", ...keywords, file], root);
    return { file, keywords, json, text };
  });
  let diagnostics = 0;
  for (const { file, keywords, json, text } of await pool(jobs, Math.max(2, availableParallelism()))) {
    let source;
    try {
      source = new TextDecoder("utf-8", { fatal: true }).decode(await readFile(path.join(root, file)));
    } catch {
      continue; // not UTF-8: a page's editor holds text, never such bytes
    }
    const web = engine.check(source, { file, keywords: keywords[1] });
    const lines = web.diagnostics.map((d) => JSON.stringify(d) + "\n").join("");
    assert.ok(json.stdout === lines, `${file}: ${firstDifference(json.stdout, lines)}`);
    assert.equal(text.stdout, web.summary === null ? "" : web.summary + "\n", file);
    diagnostics += web.diagnostics.length;
  }
  assert.ok(diagnostics > 40, `${diagnostics} diagnostics`);
});
