// Measures rooms (docs/ROOMS.md, "Measured") against a running `robots serve` at $URL, on
// loopback: 4 players and 20 spectators in one room on the melee board; the latency of a
// state from the host's message to each connection (p50, p99), 100 times; a 200-round match
// played at the fastest pace; and the server's resident memory per room in play (`--pid`).
// Run by scripts/rooms-bench, which starts the server. Node 20 with --experimental-websocket.
import fs from 'node:fs';

const url = process.env.URL;
const pid = process.env.PID;
const WS = url.replace(/^http/, 'ws');
const PLAYERS = 4, SPECTATORS = 20, ROUNDS = 200;

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cookies = (response, jar) => {
  for (const c of response.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const [k, v] = pair.split('=');
    jar[k] = v;
  }
};
const header = (jar) => Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');

async function signUp(name) {
  const jar = {};
  cookies(await fetch(`${url}signup`), jar);
  const body = new URLSearchParams({ name, password: 'bench-password', csrf: jar.robots_csrf });
  const r = await fetch(`${url}signup`, { method: 'POST', body, headers: { Cookie: header(jar) }, redirect: 'manual' });
  if (r.status !== 303) throw new Error(`sign-up ${name}: ${r.status}`);
  cookies(r, jar);
  return jar;
}

async function newRoom(jar, settings) {
  const body = new URLSearchParams({ csrf: jar.robots_csrf, ...settings });
  const r = await fetch(`${url}rooms`, { method: 'POST', body, headers: { Cookie: header(jar) }, redirect: 'manual' });
  if (r.status !== 303) throw new Error(`new room: ${r.status} ${await r.text()}`);
  return r.headers.get('location').split('/').pop();
}

/** A connection: its last state, and a log of (time, state) as they arrive. */
function connect(jar, code) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${WS}rooms/${code}/ws`, { headers: { Cookie: header(jar) } });
    const c = { ws, state: null, hello: null, waiters: [], answers: [] };
    ws.onmessage = (m) => {
      const now = performance.now();
      const v = JSON.parse(m.data);
      if (v.type === 'hello') c.hello = v;
      else if (v.type === 'state') {
        if (!c.state) resolve(c);
        c.state = v;
        c.waiters = c.waiters.filter((w) => !(w.test(v) && (w.done(now), true)));
      } else c.answers.push(v);
    };
    ws.onerror = () => reject(new Error('cannot connect'));
  });
}
const until = (c, test, ms = 30000) => new Promise((resolve, reject) => {
  if (c.state && test(c.state)) return resolve(performance.now());
  const timer = setTimeout(() => reject(new Error(`timed out waiting for ${test}: answers ${JSON.stringify(c.answers)}; state ${JSON.stringify(c.state).slice(0, 600)}`)), ms);
  c.waiters.push({ test, done: (t) => { clearTimeout(timer); resolve(t); } });
});
const send = (c, v) => c.ws.send(JSON.stringify(v));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p / 100 * s.length))]; };

const idle = rss();
const players = [];
for (let i = 0; i < PLAYERS; i++) players.push(await signUp(`player${i}`));
const watchers = [];
for (let i = 0; i < SPECTATORS; i++) watchers.push(await signUp(`watcher${i}`));
const code = await newRoom(players[0], { board: 'melee', players: String(PLAYERS), robots: '1', scenario: '1', rounds: String(ROUNDS), pace: '500', timeout: '600', spectators: 'on' });
const seats = await Promise.all(players.map((jar) => connect(jar, code)));
const specs = await Promise.all(watchers.map((jar) => connect(jar, code)));
const all = [...seats, ...specs];
const colours = seats[0].state.seats.map((s) => s.colour);
const program = fs.readFileSync(new URL('../programs/hunter.robot', import.meta.url), 'utf8');
for (let i = 0; i < PLAYERS; i++) {
  send(seats[i], { type: 'sit', colour: colours[i] });
  await until(seats[i], (s) => s.seat === colours[i]);
  send(seats[i], { type: 'program', source: program });
  await until(seats[i], (s) => s.program !== null);
  send(seats[i], { type: 'ready', ready: true });
  await until(seats[i], (s) => s.seats[i].ready);
}
// The latency of a state: the host pauses and resumes before the match starts (nothing else
// changes), each connection timed from the message to the state that shows it.
const latencies = [];
for (let k = 0; k < 100; k++) {
  const paused = k % 2 === 0;
  const t0 = performance.now();
  const arrived = all.map((c) => until(c, (s) => s.paused === paused));
  send(seats[0], { type: paused ? 'pause' : 'resume' });
  for (const t of await Promise.all(arrived)) latencies.push(t - t0);
  await sleep(30); // under the server's 40 messages a second a connection
}
// The match at the fastest pace.
send(seats[0], { type: 'start' });
await until(seats[0], (s) => s.phase === 'placing');
while (seats[0].state.phase === 'placing') {
  const s = seats[0].state;
  const i = colours.indexOf(s.waiting_for);
  if (i >= 0 && s.place) {
    const before = JSON.stringify(s.robots);
    send(seats[i], { type: 'place', at: s.place.free[0], facing: 1 });
    await until(seats[0], (t) => JSON.stringify(t.robots) !== before || t.phase !== 'placing');
  } else await sleep(2);
}
const started = performance.now();
const peakDuring = [];
const sampler = setInterval(() => peakDuring.push(rss()), 100);
await until(seats[0], (s) => s.phase === 'over', 120000);
clearInterval(sampler);
const played = performance.now() - started;
const end = seats[0].state;
const oneRoom = rss();
// Memory per room in play: 40 more rooms, each with its thread (a connection opens it).
const extra = [];
for (let i = 0; i < 40; i++) {
  const c = await newRoom(players[0], { board: 'duel', players: '2', robots: '1', scenario: '1', rounds: '100', pace: '4', timeout: '60', spectators: 'on' });
  extra.push(await connect(players[0], c));
}
await sleep(500);
const forty = rss();
for (const c of [...all, ...extra]) c.ws.close();
console.log(`== robots rooms bench (${url})`);
console.log(`connections   ${PLAYERS} players + ${SPECTATORS} spectators in one room (melee, 1 robot a side)`);
console.log(`latency ms    p50 ${pct(latencies, 50).toFixed(2)}  p99 ${pct(latencies, 99).toFixed(2)}  max ${Math.max(...latencies).toFixed(2)}  (${latencies.length} states: host's message to each connection)`);
console.log(`match         ${end.result ? end.result.verdict : '?'} after ${end.round} rounds, ${end.turn} robot turns, played live in ${(played / 1000).toFixed(2)} s at the fastest pace (500 turns/s)`);
console.log(`rss MiB       idle ${idle.toFixed(1)}; with the room of 24 ${oneRoom.toFixed(1)} (peak while playing ${Math.max(...peakDuring).toFixed(1)}); with 40 rooms more ${forty.toFixed(1)}: ${((forty - oneRoom) / 40 * 1024).toFixed(0)} KiB a room`);
process.exit(0);
