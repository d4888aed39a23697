// The program editor on the arena's pages (docs/PLAY-IN-BROWSER.md, "On an arena"): every
// `textarea[data-editor]` (the submission page's, the battle room's) gets /play's editor
// (editor.js: CodeMirror with the engine's `check` run in a worker, /play/worker.js) in its
// place. The textarea stays the form's field, hidden and kept equal to the editor's text,
// so the form posts what it posted and the page's own scripts read and write it as before
// (one that sets its value says so with the event `robots:set`; its `readonly` is
// followed). Without this script (no JavaScript, no web/dist) the textarea is the editor.
// On the submission page, a program carried from /play (hill.js) fills an empty form.
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { createEditor } from './editor.js';
import { takeCarried } from './hill.js';
import { EngineWorker } from '../engines.js';
import { h } from '../dom.js';

const WORKER = '/play/worker.js';
const STYLES = '/play/play.css';
let checker = null;

/** The diagnostics as a list of text (never HTML); a click puts the cursor there. */
function listDiagnostics(ul, list, goTo) {
  ul.replaceChildren();
  for (const d of list) {
    const li = h('li', { class: `diagnostic ${d.severity === 'warning' ? 'warning' : 'error'}`, 'data-line': d.line, 'data-column': d.column, tabindex: 0 });
    li.textContent = `line ${d.line}, column ${d.column}: ${d.message}`;
    li.addEventListener('click', () => goTo(d.line, d.column));
    ul.append(li);
  }
  ul.dataset.checked = String(Number(ul.dataset.checked || 0) + 1);
}

/** The carried program in the submission page's empty form. */
function fillFromPlay(textarea) {
  if (!textarea.form || textarea.form.id !== 'submit-form' || textarea.value !== '') return;
  const carried = takeCarried();
  if (!carried) return;
  textarea.value = carried.text;
  const name = textarea.form.elements.namedItem('name');
  if (name && name.value === '' && carried.name !== '') name.value = carried.name;
  textarea.dataset.carried = 'true';
}

function enhance(textarea) {
  if (textarea.dataset.enhanced) return;
  textarea.dataset.enhanced = 'true';
  fillFromPlay(textarea);
  checker = checker || new EngineWorker(WORKER);
  const keywords = textarea.dataset.keywords === 'ti57' ? 'ti57' : 'plain';
  const nameField = textarea.form && textarea.form.elements.namedItem('name');
  const host = h('div', { class: 'robot-editor', id: `${textarea.id || 'source'}-editor` });
  const summary = h('p', { class: 'editor-summary', id: 'editor-summary', role: 'status' });
  const ul = h('ul', { class: 'editor-diagnostics', id: 'editor-diagnostics', 'aria-label': 'diagnostics' });
  textarea.after(host, summary, ul);
  textarea.hidden = true;
  const locked = new Compartment();
  const lock = (on) => [EditorState.readOnly.of(on), EditorView.editable.of(!on)];
  let outside = false; // the textarea's value being copied in: not an edit
  const editor = createEditor(host, {
    check: (text) => {
      const file = `${(nameField && nameField.value) || 'program'}.robot`;
      return checker.call('check', text, { file, keywords }).then((r) => {
        summary.textContent = r.summary ?? 'the program has errors';
        return r.diagnostics;
      });
    },
    onDiagnostics: (list, text, error) => {
      if (error) summary.textContent = `not checked here: ${error.message}`;
      listDiagnostics(ul, error ? [] : list, (line, column) => editor.goTo(line, column));
    },
    onChange: (text) => {
      textarea.value = text;
      if (!outside) textarea.dispatchEvent(new Event('input', { bubbles: true }));
    },
    steps: () => (keywords === 'ti57' ? 50 : 15),
    styles: STYLES,
    more: [locked.of(lock(textarea.readOnly))],
  });
  editor.show(editor.stateFor(textarea.value));
  textarea.addEventListener('robots:set', () => {
    const doc = editor.view.state.doc;
    if (doc.toString() === textarea.value) return;
    outside = true;
    try {
      editor.view.dispatch({ changes: { from: 0, to: doc.length, insert: textarea.value } });
    } finally {
      outside = false;
    }
  });
  new MutationObserver(() => {
    editor.view.dispatch({ effects: locked.reconfigure(lock(textarea.readOnly)) });
  }).observe(textarea, { attributes: true, attributeFilter: ['readonly'] });
  document.body.dataset.editor = 'ready';
}

function enhanceAll(root) {
  for (const t of root.querySelectorAll('textarea[data-editor]')) enhance(t);
}

enhanceAll(document);
new MutationObserver(() => enhanceAll(document)).observe(document.body, { childList: true, subtree: true });
