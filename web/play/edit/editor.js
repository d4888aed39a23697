// The program editor: CodeMirror 6 with the language's highlighting (a StreamLanguage over
// lang.js's tokens), line numbers, the engine's `check` as underlines (@codemirror/lint,
// debounced as one types) and as the list under the editor, completion of instructions and
// test words, and a hover on `?n` showing test n. Several programs, one EditorState each,
// shown one at a time (the tabs are main.js's).
import { EditorState } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, hoverTooltip,
  drawSelection,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { StreamLanguage, syntaxHighlighting, bracketMatching } from '@codemirror/language';
import { linter, lintGutter, forceLinting } from '@codemirror/lint';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { tags, classHighlighter } from '@lezer/highlight';
import { tokenizeLine, completionsAt, testNumberAt, testDefinition } from './lang.js';

/** How long the editor waits after a key before it asks for the diagnostics (ms). */
export const LINT_DELAY = 40;

const KIND_TAGS = {
  comment: tags.lineComment,
  name: tags.string,
  stepNumber: tags.labelName,
  instruction: tags.keyword,
  test: tags.controlKeyword,
  keyword: tags.operatorKeyword,
  subject: tags.variableName,
  number: tags.number,
  operator: tags.punctuation,
  word: tags.content,
};

/** The language: each line cut by lang.js's `tokenizeLine`, one token a call. */
const robotLanguage = StreamLanguage.define({
  name: 'robot',
  startState: () => ({ tokens: [], at: 0 }),
  copyState: (s) => ({ tokens: s.tokens, at: s.at }),
  token(stream, state) {
    if (stream.sol()) {
      // A very long line is not cut (a 4 MiB program may be one line): it stays plain.
      state.tokens = stream.string.length > 10_000 ? [] : tokenizeLine(stream.string);
      state.at = 0;
    }
    while (state.at < state.tokens.length && state.tokens[state.at].to <= stream.pos) state.at += 1;
    const t = state.tokens[state.at];
    if (!t) {
      stream.skipToEnd();
      return null;
    }
    if (t.from > stream.pos) {
      stream.pos = t.from;
      return null;
    }
    stream.pos = t.to;
    state.at += 1;
    return t.kind;
  },
  tokenTable: KIND_TAGS,
  languageData: { commentTokens: { line: '#' } },
});

/** The 0-based UTF-16 offset in the document of a 1-based line and column in characters. */
export function offsetOf(doc, line, column) {
  const l = doc.line(Math.max(1, Math.min(doc.lines, line)));
  let offset = 0;
  let chars = 1;
  for (const ch of l.text) {
    if (chars >= column) break;
    offset += ch.length;
    chars += 1;
  }
  return l.from + Math.min(offset, l.length);
}

/** A diagnostic of `check` (ENGINE.md) as CodeMirror's. */
function toCodeMirror(doc, d) {
  const from = offsetOf(doc, d.line, d.column);
  let to = d.end ? offsetOf(doc, d.end.line, d.end.column) : from;
  if (to <= from) to = Math.min(doc.line(Math.max(1, Math.min(doc.lines, d.line))).to, from + 1);
  return {
    from,
    to: Math.max(to, from),
    severity: d.severity === 'error' ? 'error' : 'warning',
    source: d.id || undefined,
    message: d.message,
  };
}

function completionSource(steps) {
  return (context) => {
    const line = context.state.doc.lineAt(context.pos);
    const found = completionsAt(line.text, context.pos - line.from, steps());
    if (!found) return null;
    if (found.from === context.pos - line.from && !context.explicit && found.options[0]?.type !== 'constant') return null;
    return { from: line.from + found.from, options: found.options, validFor: /^[\w?+*-]*$/ };
  };
}

const testHover = hoverTooltip((view, pos) => {
  const line = view.state.doc.lineAt(pos);
  const n = testNumberAt(line.text, pos - line.from);
  if (n === null) return null;
  const text = testDefinition(view.state.doc.toString(), n) ?? `test ${n} is not defined in this program`;
  return {
    pos,
    above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'test-hover';
      dom.textContent = text;
      return { dom };
    },
  };
});

/**
 * The editor in `parent`. `check(text)` resolves to `check`'s diagnostics (ENGINE.md) or
 * rejects; `onDiagnostics(list, text)` hears each list; `onChange(text)` each edit.
 * `styles` is the style sheet linked in its shadow root (play.css, where the page's
 * folder is not /play/ its absolute path); `more` are extensions added to each state.
 */
export function createEditor(parent, {
  check, onDiagnostics, onChange, steps = () => 15, styles = 'play.css', more = [],
}) {
  let latest = 0;
  const source = async (view) => {
    const text = view.state.doc.toString();
    latest += 1;
    const asked = latest;
    let list;
    try {
      list = await check(text);
    } catch (e) {
      onDiagnostics(null, text, e);
      return [];
    }
    if (asked !== latest || view.state.doc.toString() !== text) return [];
    onDiagnostics(list, text, null);
    return list.map((d) => toCodeMirror(view.state.doc, d));
  };
  const extensions = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    bracketMatching(),
    robotLanguage,
    syntaxHighlighting(classHighlighter),
    linter(source, { delay: LINT_DELAY }),
    lintGutter(),
    autocompletion({ override: [completionSource(steps)] }),
    testHover,
    keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onChange(update.state.doc.toString());
    }),
    EditorView.contentAttributes.of({ 'aria-label': 'the program', spellcheck: 'false' }),
    ...more,
  ];
  // In a shadow root: CodeMirror's own styles are then a constructed style sheet adopted
  // by the shadow root, which the page's CSP (style-src 'self', no inline style) allows,
  // where in the document they would be a <style> element it refuses. The page's style
  // sheet is linked in the shadow root for the highlighting's classes.
  const shadow = parent.attachShadow({ mode: 'open' });
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = styles;
  const mount = document.createElement('div');
  mount.className = 'cm-host';
  shadow.append(sheet, mount);
  const view = new EditorView({ parent: mount, root: shadow, state: EditorState.create({ doc: '', extensions }) });
  return {
    view,
    /** A fresh state for a text (a tab's), its history its own. */
    stateFor(text) {
      return EditorState.create({ doc: text, extensions });
    },
    /** Shows `state` (a tab's) and asks for its diagnostics now. */
    show(state) {
      view.setState(state);
      forceLinting(view);
    },
    /** Puts the cursor at a 1-based line and column in characters, and focuses. */
    goTo(line, column) {
      const at = offsetOf(view.state.doc, line, column);
      view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      view.focus();
    },
  };
}
