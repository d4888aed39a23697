// The page's programs, one tab each: the tab bar, a new program, one started from a shipped
// program or opened from a file (within the command line's 4 MiB), renamed or closed; each
// tab's text checked by the engine's `check` in the checking worker, its diagnostics listed
// under the editor (`ul#diagnostics`, each `li.diagnostic.error|warning` with `data-line`
// and `data-column`, clicked to go there); the sides' menus (A, B) kept in step with the tabs.
import { freeName, nameProblem } from '../run/settings.js';
import { h } from '../dom.js';

/** The command line's limit on a file's size (MAX_INPUT_BYTES, ENGINE.md). */
export const MAX_FILE = 4 * 1024 * 1024;

const $ = (id) => document.getElementById(id);

/** The diagnostics' list under the editor; `goTo(line, column)` on a click. */
function listDiagnostics(list, goTo) {
  const ul = $('diagnostics');
  ul.replaceChildren();
  for (const d of list) {
    const li = h('li', { class: `diagnostic ${d.severity}`, 'data-line': d.line, 'data-column': d.column, tabindex: 0 });
    li.append(`line ${d.line}, column ${d.column}: `);
    li.append(h('span', { class: 'id' }, d.id ? `${d.severity}[${d.id}]: ` : `${d.severity}: `));
    li.append(h('span', { class: 'text' }, d.message));
    li.addEventListener('click', () => goTo(d.line, d.column));
    ul.append(li);
  }
}

/** The tabs over `editor` (editor.js); `checker` the checking worker, `shipped` the engine's list. */
export function tabs({ editor, checker, shipped, say, ti57 }) {
  const shippedNames = shipped.programs.map((p) => p.name);
  let programs = [];
  let active = 0;

  const names = (except = -1) => programs.filter((_, i) => i !== except).map((p) => p.name);

  function add(name, text, select = true) {
    const free = freeName(name, shippedNames, names());
    programs.push({ name: free, text, state: editor.stateFor(text), errors: 0 });
    if (select) choose(programs.length - 1);
    else draw();
    return free;
  }

  function choose(index) {
    active = Math.max(0, Math.min(programs.length - 1, index));
    editor.show(programs[active].state);
    draw();
  }

  function draw() {
    const bar = $('tabs');
    bar.replaceChildren();
    programs.forEach((p, i) => {
      const b = h('button', { type: 'button', role: 'tab', 'aria-selected': String(i === active), 'data-tab': p.name }, p.name);
      if (p.errors > 0) b.append(h('span', { class: 'errors', title: 'errors' }, `✗${p.errors}`));
      b.addEventListener('click', () => {
        programs[active].state = editor.view.state;
        choose(i);
      });
      bar.append(b);
    });
    fillSides($('side-a').value, $('side-b').value);
  }

  function fillSides(a, b) {
    for (const [id, value] of [['side-a', a], ['side-b', b]]) {
      const select = $(id);
      select.replaceChildren();
      const mine = h('optgroup', { label: 'your programs' });
      programs.forEach((p, i) => mine.append(new Option(p.name, `tab:${i}`)));
      const theirs = h('optgroup', { label: 'shipped programs' });
      for (const name of shippedNames) theirs.append(new Option(name, `shipped:${name}`));
      select.append(mine, theirs);
      if ([...select.options].some((o) => o.value === value)) select.value = value;
    }
  }

  function fromShipped() {
    const select = $('start-from');
    for (const name of shippedNames) select.append(new Option(name, name));
    select.addEventListener('change', () => {
      const p = shipped.programs.find((x) => x.name === select.value);
      select.value = '';
      if (!p) return;
      programs[active].state = editor.view.state;
      add(`my-${p.name}`, p.text);
    });
  }

  function openFile() {
    const input = $('open-file');
    input.addEventListener('change', async () => {
      const file = input.files[0];
      input.value = '';
      if (!file) return;
      if (file.size > MAX_FILE) {
        say(`${file.name} is ${file.size.toLocaleString('en')} bytes: a program is read within 4 MiB (${MAX_FILE.toLocaleString('en')} bytes), as robots check reads it. Not opened.`);
        return;
      }
      const text = await file.text();
      programs[active].state = editor.view.state;
      add(file.name.replace(/\.robot$/i, ''), text);
      say('');
    });
  }

  function tools() {
    $('new-tab').addEventListener('click', () => {
      programs[active].state = editor.view.state;
      add('mine', 'name: mine\n\n1: D+1\n2: RAZ\n');
    });
    $('rename-tab').addEventListener('click', () => {
      const name = window.prompt('a new name', programs[active].name);
      if (name === null) return;
      const problem = nameProblem(name, shippedNames, names(active));
      if (problem) {
        say(`not renamed: ${problem}`);
        return;
      }
      programs[active].name = name;
      draw();
    });
    $('close-tab').addEventListener('click', () => {
      if (programs.length === 1) {
        say('the last program stays open');
        return;
      }
      programs.splice(active, 1);
      choose(active - 1);
    });
  }

  return {
    /** The first tab (sentinel's text, named mine) and the tools' buttons. */
    start() {
      fromShipped();
      openFile();
      tools();
      const first = shipped.programs.find((p) => p.name === 'sentinel') || shipped.programs[0];
      add('mine', first ? first.text.replace(/^name: .*$/m, 'name: mine') : '1: RAZ\n');
    },
    /** The programs as `{name, text}`, in tab order. */
    list: () => programs.map(({ name, text }) => ({ name, text })),
    /** The shown tab's program as `{name, text}`. */
    current: () => ({ name: programs[active].name, text: editor.view.state.doc.toString() }),
    fillSides,
    /** The tabs replaced by `list` (a shared link's), the first shown. */
    replaceAll(list) {
      programs = [];
      for (const p of list) add(p.name, p.text, false);
      if (programs.length === 0) add('mine', '1: RAZ\n', false);
      choose(0);
    },
    check(text) {
      const name = programs[active]?.name || 'program';
      return checker.call('check', text, { file: `${name}.robot`, keywords: ti57() ? 'ti57' : 'plain' })
        .then((r) => {
          $('check-summary').textContent = r.summary ?? 'the program has errors';
          return r.diagnostics;
        });
    },
    diagnostics(list, text, error) {
      if (error) {
        $('check-summary').textContent = `not checked: ${error.message}`;
        listDiagnostics([], editor.goTo);
        return;
      }
      const p = programs[active];
      if (p && p.text === text) {
        p.errors = list.filter((d) => d.severity === 'error').length;
        draw();
      }
      listDiagnostics(list, editor.goTo);
      $('diagnostics').dataset.checked = String(Number($('diagnostics').dataset.checked || 0) + 1);
    },
    changed(text) {
      if (programs[active]) programs[active].text = text;
    },
    recheck() {
      programs[active].state = editor.view.state;
      editor.show(programs[active].state);
    },
  };
}
