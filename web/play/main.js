// The /play page's entry (docs/PLAY-IN-BROWSER.md): the programs in tabs with their editor,
// the match's settings, and what the buttons do: Run (the match played in a worker, shown
// by the replay viewer), Step (the debugger), Duel (many seeds in a worker of its own,
// stoppable), Share (a link holding everything in its fragment); a shared link opened plays
// its match. Every engine call runs in a Web Worker, so the page never waits on one.
import viewerTemplate from '../viewer.html';
import { createEditor } from './edit/editor.js';
import { EngineWorker } from './engines.js';
import { viewer } from './run/view.js';
import { debuggerPanel } from './run/debugger.js';
import { encode, decode } from './run/share.js';
import { tabs } from './edit/tabs.js';
import { offerHills } from './edit/hill.js';
import { duelPanel } from './run/duel-panel.js';
import { DEFAULTS, engineSettings, settingsProblem } from './run/settings.js';

const $ = (id) => document.getElementById(id);
const WORKER = 'worker.js';
const checker = new EngineWorker(WORKER);
const runner = new EngineWorker(WORKER);
const dueller = new EngineWorker(WORKER);

/** A message over the page: an error (red) or, with `info`, news; '' hides it. */
function say(text, info = false) {
  const box = $('message');
  box.textContent = text;
  box.hidden = text === '';
  box.classList.toggle('info', info);
}

const board = viewer($('viewer'), viewerTemplate);
let shipped = { programs: [], boards: [] };
let program = null;
let session = null;

function readForm() {
  return {
    a: $('side-a').value,
    b: $('side-b').value,
    board: $('board').value,
    scenario: Number($('scenario').value),
    robots: Number($('robots').value),
    seed: $('seed').value.trim(),
    rounds: Number($('rounds').value),
    ti57: $('ti57').checked,
  };
}

function writeForm(settings) {
  const s = { ...DEFAULTS, ...settings };
  program.fillSides(s.a, s.b);
  if ([...$('board').options].some((o) => o.value === s.board)) $('board').value = s.board;
  else say(`the link names the board ${s.board}, which this page does not have: classic instead`);
  $('scenario').value = String(s.scenario);
  $('robots').value = String(s.robots);
  $('seed').value = s.seed;
  $('rounds').value = String(s.rounds);
  $('ti57').checked = s.ti57;
}

/** The settings of the form, or null (and why, said) when they cannot be played. */
function settingsOrSay() {
  const form = readForm();
  const problem = settingsProblem(form, program.list());
  if (problem) {
    say(problem);
    return null;
  }
  return { form, engine: engineSettings(form, program.list()) };
}

function busy(on) {
  $('stop').hidden = !on && !duel.running();
  for (const id of ['run', 'debug']) $(id).disabled = on;
}

function showView(name) {
  $('match').dataset.view = name;
  for (const b of $('views').querySelectorAll('button')) b.setAttribute('aria-selected', String(b.dataset.view === name));
  for (const v of document.querySelectorAll('.view')) {
    v.hidden = !(v.dataset.view === name || (name === 'debugger' && v.dataset.view === 'viewer'));
  }
}

async function closeSession() {
  if (session === null) return;
  const old = session;
  session = null;
  debug.closed();
  await runner.call('debugClose', old).catch(() => {});
}

/** Plays the form's match and shows it; resolves to `play`'s answer, or null. */
async function run({ view = 'viewer' } = {}) {
  const settings = settingsOrSay();
  if (!settings) return null;
  say('');
  await closeSession();
  busy(true);
  document.body.dataset.running = 'true';
  try {
    const played = await runner.call('play', settings.engine);
    $('run-text').textContent = played.text;
    $('run-text').scrollTop = $('run-text').scrollHeight;
    showView(view);
    const [a, b] = settings.engine.teams.map((t) => t.program);
    await board.show(played.docJson, `${a} v ${b}`);
    document.body.dataset.played = String(Number(document.body.dataset.played || 0) + 1);
    return { played, settings };
  } catch (e) {
    say(e.kind === 'stopped' ? 'stopped: the match was not finished' : `the match cannot be played: ${e.message}`);
    return null;
  } finally {
    document.body.dataset.running = 'false';
    busy(false);
  }
}

const debug = debuggerPanel($('debugger-view'), {
  run: async (line) => {
    if (session === null) throw new Error('no debugger is open: press Step');
    busy(true);
    try {
      return await runner.call('debugRun', session, line);
    } catch (e) {
      if (e.kind === 'stopped') session = null;
      throw e;
    } finally {
      busy(false);
    }
  },
  moved: (state) => board.goTo(state.turn),
});

async function openDebugger() {
  const shown = await run({ view: 'debugger' });
  if (!shown) return;
  try {
    const opened = await runner.call('debugOpen', shown.settings.engine);
    session = opened.session;
    debug.open(JSON.parse(shown.played.docJson), opened);
  } catch (e) {
    say(`the debugger cannot open: ${e.message}`);
  }
}

const duel = duelPanel($('duel-view'), {
  worker: dueller,
  stopButton: $('stop'),
  settings: () => settingsOrSay() && { form: readForm(), programs: program.list() },
  shareLink: (form) => shareLink(form),
  running: (on) => busy(on && runner.busy()),
  say,
});

async function shareLink(form = readForm()) {
  const fragment = await encode({ programs: program.list(), settings: form });
  const url = new URL(window.location.href);
  url.hash = fragment;
  return url.toString();
}

/** Opens what a link's fragment holds, and plays it; a wrong fragment is said, the page kept. */
async function openFragment() {
  if (window.location.hash === '') return;
  let shared;
  try {
    shared = await decode(window.location.hash);
  } catch (e) {
    say(`${e.message}. The page starts as it is.`);
    return;
  }
  if (!shared) return;
  program.replaceAll(shared.programs);
  writeForm(shared.settings);
  say('');
  await run();
}

function wire() {
  $('settings').addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  $('debug').addEventListener('click', () => openDebugger());
  $('stop').addEventListener('click', () => {
    if (runner.busy()) {
      runner.stop();
      session = null;
      debug.closed();
    }
    duel.stop();
  });
  $('share').addEventListener('click', async () => {
    if (!settingsOrSay()) return;
    $('share-link').value = await shareLink();
    $('share-box').hidden = false;
    $('share-link').select();
  });
  $('copy-link').addEventListener('click', () => {
    $('share-link').select();
    navigator.clipboard?.writeText($('share-link').value).catch(() => {});
  });
  for (const b of $('views').querySelectorAll('button')) b.addEventListener('click', () => showView(b.dataset.view));
  $('ti57').addEventListener('change', () => program.recheck());
  window.addEventListener('hashchange', () => openFragment());
}

async function start() {
  wire();
  try {
    shipped = await checker.call('shipped');
  } catch (e) {
    say(`the engine could not start: ${e.message}. Run scripts/web to build it.`);
    return;
  }
  for (const b of shipped.boards) $('board').append(new Option(b.name, b.name));
  $('board').value = 'classic';
  const editor = createEditor($('editor'), {
    check: (text) => program.check(text),
    onDiagnostics: (list, text, error) => program.diagnostics(list, text, error),
    onChange: (text) => program.changed(text),
    steps: () => ($('ti57').checked ? 50 : 15),
  });
  program = tabs({
    editor, checker, shipped, say, ti57: () => $('ti57').checked,
  });
  program.start();
  program.fillSides(DEFAULTS.a, DEFAULTS.b);
  // On an arena, the current tab's program goes to a hill's submission page, to be submitted
  // or first challenged (hill.js).
  offerHills({
    select: $('hill'), button: $('to-hill'), challenge: $('to-challenge'), current: () => program.current(),
  }).then((shown) => {
    document.body.dataset.arena = String(shown);
  });
  await openFragment();
  document.body.dataset.ready = 'true';
}

start();
