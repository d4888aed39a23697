// The load test's client (run by scripts/load, which starts and stops the server): Node 20,
// node:http with keep-alive, no package.
//
//   node scripts/load.mjs --url http://127.0.0.1:PORT/ --pid PID --programs programs
//        [--rss-idle KB] [--hill load] [--clients 100] [--seconds 20] [--quick]
//        [--max-requests 200000] [--wait 120]
//
// Signs up 20 accounts and submits 20 different shipped programs (one each, spread over the
// first half of the browsing window) to the hill, while --clients clients loop for --seconds
// over the standings, the hill's page, a program's matches and a match's replay. Then waits
// (at most --wait seconds) until every submission is `placed` or `off`. Every non-2xx answer
// and every network error is an error. Prints a summary; exits 1 when a request failed or a
// submission was not placed in time, 2 on a usage error.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import http from "node:http";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";

const SUBMISSIONS = 20;
const REQUEST_TIMEOUT_MS = 30_000;
const POLL_MS = 200;
const RSS_MS = 200;

function usage(message) {
  console.error(`load.mjs: ${message}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {
    url: null, pid: null, programs: "programs", rssIdle: null, hill: "load",
    clients: 100, seconds: 20, maxRequests: 200_000, wait: 120,
  };
  const numeric = { "--pid": "pid", "--rss-idle": "rssIdle", "--clients": "clients",
    "--seconds": "seconds", "--max-requests": "maxRequests", "--wait": "wait" };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--quick") { opts.seconds = 8; continue; }
    const value = argv[++i];
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag === "--url") opts.url = value.endsWith("/") ? value : `${value}/`;
    else if (flag === "--programs") opts.programs = value;
    else if (flag === "--hill") opts.hill = value;
    else if (flag in numeric) {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) usage(`${flag} takes a number, not ${value}`);
      opts[numeric[flag]] = n;
    } else usage(`unknown flag ${flag}`);
  }
  if (!opts.url) usage("--url is needed");
  const host = new URL(opts.url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]") {
    usage(`loopback only, not ${host}`);
  }
  if (opts.clients < 1) usage("--clients must be at least 1");
  return opts;
}

// The shipped programs' texts, each under its own name: programs/*.robot, then the evolved
// ones, then the benchmark's older versions (as bench-NAME); the first SUBMISSIONS distinct
// texts.
function shippedPrograms(dir) {
  const found = [];
  const seen = new Set();
  const folders = [[dir, ""], [join(dir, "evolved"), ""], [join(dir, "bench"), "bench-"]];
  for (const [folder, prefix] of folders) {
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder).filter((f) => f.endsWith(".robot")).sort()) {
      const source = readFileSync(join(folder, file), "utf8");
      if (seen.has(source)) continue;
      seen.add(source);
      found.push({ name: prefix + basename(file, ".robot"), source });
    }
  }
  if (found.length < SUBMISSIONS) {
    usage(`${dir} holds ${found.length} distinct programs, ${SUBMISSIONS} are needed`);
  }
  return found.slice(0, SUBMISSIONS);
}

const opts = parseArgs(process.argv.slice(2));
const stats = {
  total: 0, errors: 0, byKind: new Map(), errorsByKind: new Map(), errorSamples: new Set(),
  capped: false, serverGone: false,
};

function record(kind, ms) {
  if (!stats.byKind.has(kind)) stats.byKind.set(kind, []);
  stats.byKind.get(kind).push(ms);
}

// An error; the first 10 distinct messages are kept (ids replaced by N).
function noteError(kind, what) {
  stats.errors++;
  stats.errorsByKind.set(kind, (stats.errorsByKind.get(kind) ?? 0) + 1);
  if (stats.errorSamples.size < 10) stats.errorSamples.add(`${kind}: ${what.replace(/\/\d+/g, "/N")}`);
}

// One connection pool for every client (keep-alive, as browsers do): node:http rather than the
// global fetch, whose per-request cost made this client use more CPU than the server it
// measures (issue 50).
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

// One request, timed until its body is read whole. Returns {status, body} or null on an error,
// which is counted; the body is parsed (JSON) only when `parse` says so, as only the ids in
// some answers are used. `gzip` asks for a compressed answer, as a browser does, and then
// reads its bytes without unpacking them. Null too, and nothing sent, past the cap.
async function request(kind, method, path, { json, token, parse = true, gzip = false } = {}) {
  if (stats.serverGone) return null;
  if (stats.total >= opts.maxRequests) { stats.capped = true; return null; }
  stats.total++;
  const headers = {};
  const body = json === undefined ? undefined : JSON.stringify(json);
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(body);
  }
  if (token) headers.authorization = `Bearer ${token}`;
  if (gzip) headers["accept-encoding"] = "gzip";
  const start = performance.now();
  try {
    const res = await send(new URL(path, opts.url), { method, headers, agent }, body);
    record(kind, performance.now() - start);
    if (res.status < 200 || res.status > 299) {
      noteError(kind, `${method} ${path} -> ${res.status} ${res.bytes.subarray(0, 200).toString("latin1")}`);
      return null;
    }
    if (res.bytes.length === 0) {
      noteError(kind, `${method} ${path} -> ${res.status} with an empty body`);
      return null;
    }
    const type = res.type ?? "";
    return { status: res.status, body: parse && type.includes("json") ? JSON.parse(res.bytes.toString("utf8")) : res.bytes };
  } catch (err) {
    record(kind, performance.now() - start);
    noteError(kind, `${method} ${path} -> ${err.name}: ${err.message}`);
    return null;
  }
}

// Sends one request; resolves with the status, content type and whole body (bytes), or
// rejects on a network error or after REQUEST_TIMEOUT_MS.
function send(url, options, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { ...options, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({
        status: res.statusCode, type: res.headers["content-type"], bytes: Buffer.concat(chunks),
      }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`), { name: "TimeoutError" })));
    req.on("error", reject);
    req.end(body);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resident memory, from /proc/PID/status, in kB.
function readRss(field = "VmRSS") {
  if (opts.pid === null) return null;
  try {
    const text = readFileSync(`/proc/${opts.pid}/status`, "utf8");
    const m = text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

// The server's CPU time (user and system), from /proc/PID/stat, in seconds.
function serverCpu() {
  if (opts.pid === null) return null;
  try {
    const stat = readFileSync(`/proc/${opts.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const rss = { peak: 0, samples: 0 };
// Also notices the server's end: everything then stops.
function sampleRss() {
  const kb = readRss();
  if (kb !== null) { rss.samples++; rss.peak = Math.max(rss.peak, kb); }
  else if (opts.pid !== null) stats.serverGone = true;
}

// What the browsing clients have seen: program ids and match ids to pick from.
const seenPrograms = new Set();
const seenMatches = [];
const seenMatchSet = new Set();
const pick = (items) => items[Math.floor(Math.random() * items.length)];

async function browse(deadline) {
  const ceiling = opts.maxRequests * 0.9;
  const going = () => performance.now() < deadline && stats.total < ceiling && !stats.serverGone;
  const hill = encodeURIComponent(opts.hill);
  while (going()) {
    const standings = await request("standings", "GET", `api/v1/hills/${hill}/standings`);
    if (Array.isArray(standings?.body)) for (const row of standings.body) seenPrograms.add(row.id);
    if (!going()) break;
    await request("page", "GET", `hills/${hill}`, { parse: false, gzip: true });
    if (!going() || seenPrograms.size === 0) continue;
    const id = pick([...seenPrograms]);
    const matches = await request("matches", "GET", `api/v1/programs/${id}/matches`);
    if (Array.isArray(matches?.body)) {
      for (const m of matches.body) {
        if (!seenMatchSet.has(m.id)) { seenMatchSet.add(m.id); seenMatches.push(m.id); }
      }
    }
    if (!going() || seenMatches.length === 0) continue;
    await request("replay", "GET", `api/v1/matches/${pick(seenMatches)}/replay`, { parse: false, gzip: true });
  }
}

async function signUp(i) {
  const name = `loader${String(i + 1).padStart(2, "0")}`;
  const res = await request("signup", "POST", "api/v1/accounts",
    { json: { name, password: `load-test-password-${i + 1}` } });
  return res?.body?.token ?? null;
}

// Submits at `delay` ms, then polls the program until `placed` or `off`, or `giveUp()`.
async function submitAndWait(program, token, delay, giveUp) {
  const result = { name: program.name, id: null, status: "not submitted", ms: null };
  await sleep(delay);
  if (token === null) return result;
  const start = performance.now();
  const res = await request("submit", "POST", `api/v1/hills/${encodeURIComponent(opts.hill)}/programs`,
    { json: { name: program.name, source: program.source }, token });
  if (!res) return result;
  result.id = res.body.id;
  result.status = res.body.status;
  seenPrograms.add(result.id);
  while (!["placed", "off"].includes(result.status)) {
    if (["replaced", "withdrawn"].includes(result.status) || giveUp() || stats.serverGone) {
      return result;
    }
    await sleep(POLL_MS);
    const got = await request("program", "GET", `api/v1/programs/${result.id}`);
    if (got) result.status = got.body.status;
  }
  result.ms = performance.now() - start;
  return result;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmtMs = (ms) => (Number.isNaN(ms) ? "-" : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
const fmtMiB = (kb) => (kb === null || kb === undefined ? "unknown" : `${(kb / 1024).toFixed(1)} MiB`);
const line = (label, text) => console.log(`${label.padEnd(12)}${text}`);

function latencyTable() {
  const order = ["standings", "page", "matches", "replay", "program", "signup", "submit", "healthz"];
  const kinds = [...stats.byKind.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const all = [...stats.byKind.values()].flat();
  const heads = ["count", "errors", "p50", "p90", "p99", "max"];
  line("latency ms", `${"kind".padEnd(10)}${heads.map((h) => h.padStart(8)).join("")}`);
  for (const [kind, values] of [["all", all], ...kinds.map((k) => [k, stats.byKind.get(k)])]) {
    const sorted = Float64Array.from(values).sort();
    const errors = kind === "all" ? stats.errors : stats.errorsByKind.get(kind) ?? 0;
    const cells = [String(sorted.length), String(errors), ...[50, 90, 99, 100].map((p) => fmtMs(percentile(sorted, p)))];
    line("", `${kind.padEnd(10)}${cells.map((c) => c.padStart(8)).join("")}`);
  }
}

function summary(results, elapsedMs, failures, cpu) {
  const placed = results.filter((r) => r.ms !== null);
  const times = placed.map((r) => r.ms).sort((a, b) => a - b);
  const seconds = elapsedMs / 1000;
  console.log("== robots arena load test");
  line("server", `${opts.url} (pid ${opts.pid ?? "unknown"})`);
  line("clients", `${opts.clients} browsing for ${opts.seconds} s; cap ${opts.maxRequests} requests; wait ${opts.wait} s`);
  line("requests", `${stats.total} in ${seconds.toFixed(1)} s (${(stats.total / seconds).toFixed(0)}/s)${stats.capped ? ", cap reached" : ""}`);
  line("errors", String(stats.errors));
  for (const sample of stats.errorSamples) line("", sample);
  latencyTable();
  line("placement", `${placed.length} of ${results.length} placed or off; submit to placement: median ${(percentile(times, 50) / 1000).toFixed(2)} s, max ${(percentile(times, 100) / 1000).toFixed(2)} s`);
  for (const r of results.filter((x) => x.ms === null)) line("", `${r.name} (id ${r.id ?? "none"}): ${r.status}`);
  line("rss", `idle ${fmtMiB(opts.rssIdle)}, peak under load ${fmtMiB(rss.samples ? rss.peak : null)} (${rss.samples} samples every ${RSS_MS} ms), kernel high-water mark ${fmtMiB(readRss("VmHWM"))}`);
  const client = (cpu.client.user + cpu.client.system) / 1e6;
  const server = cpu.server === null ? "unknown" : `${cpu.server.toFixed(1)} s`;
  line("cpu", `server ${server}, this client ${client.toFixed(1)} s, in ${seconds.toFixed(1)} s on ${availableParallelism()} cores`);
  line("failures", failures.length ? failures.join("; ") : "none");
}

async function main() {
  const programs = shippedPrograms(opts.programs);
  const health = await request("healthz", "GET", "healthz");
  if (!health) {
    console.error(`load.mjs: ${opts.url}healthz did not answer: ${[...stats.errorSamples].join("; ")}`);
    process.exit(2);
  }
  const cpuAtStart = { server: serverCpu(), client: process.cpuUsage() };
  const rssTimer = setInterval(sampleRss, RSS_MS);
  sampleRss();
  const began = performance.now();
  const tokens = await Promise.all(programs.map((_, i) => signUp(i)));
  const windowMs = opts.seconds * 1000;
  const deadline = performance.now() + windowMs;
  const waitUntil = deadline + opts.wait * 1000;
  const giveUp = () => performance.now() > waitUntil;
  const spacing = windowMs / 2 / programs.length;
  const submissions = Promise.all(programs.map((p, i) => submitAndWait(p, tokens[i], i * spacing, giveUp)));
  await Promise.all(Array.from({ length: opts.clients }, () => browse(deadline)));
  const results = await submissions;
  const elapsed = performance.now() - began;
  sampleRss();
  clearInterval(rssTimer);

  const failures = [];
  if (stats.serverGone) failures.push("the server exited during the run");
  if (stats.errors > 0) failures.push(`${stats.errors} request errors`);
  const unplaced = results.filter((r) => r.ms === null).length;
  if (unplaced > 0) failures.push(`${unplaced} submissions not placed (bound: ${opts.wait} s after browsing)`);
  const serverEnd = serverCpu();
  const cpu = {
    server: serverEnd === null || cpuAtStart.server === null ? null : serverEnd - cpuAtStart.server,
    client: process.cpuUsage(cpuAtStart.client),
  };
  summary(results, elapsed, failures, cpu);
  process.exit(failures.length ? 1 : 0);
}

main().catch((err) => {
  console.error(`load.mjs: ${err.stack ?? err}`);
  process.exit(2);
});
