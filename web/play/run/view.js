// The replay viewer of `robots run --html` (web/viewer.html, web/js/*.js, docs/VIEWER.md),
// unchanged, in a frame of the page: its template filled as the arena fills it
// (crates/arena/src/views.rs: the style sheet and the scripts as files of the site, the
// meta Content-Security-Policy left out, the document inline as JSON data) and given to an
// iframe's `srcdoc`. A srcdoc frame is of the page's origin and under the page's own CSP,
// needs no request of its own but the files, and keeps the viewer's keys and styles to
// itself. The page reads and moves it through its DOM hooks (web/README.md).

/** The template with its markers filled; `template` is web/viewer.html's text. */
export function viewerPage(template, docJson, title) {
  const filled = template
    .replace('<style>\n{{STYLE}}\n</style>', '<link rel="stylesheet" href="viewer.css">')
    .replace('<script>\n{{SCRIPT}}\n</script>', '<script src="viewer.js"></script>')
    .split('\n')
    .filter((line) => !line.includes('http-equiv="Content-Security-Policy"'))
    .join('\n');
  if (filled.includes('{{STYLE}}') || filled.includes('{{SCRIPT}}')) {
    throw new Error('web/viewer.html no longer has the markers the page fills');
  }
  // One pass, so that text put in is never searched for markers (page.rs's `fill`).
  const parts = {
    '{{TITLE}}': markupText(title),
    // Inline JSON data: no `<` at all, so nothing in a name can close the element.
    '{{DATA}}': docJson.replace(/</g, '\\u003c'),
  };
  return filled.replace(/\{\{(TITLE|DATA)\}\}/g, (marker) => parts[marker]);
}

/** Text for HTML content or a double-quoted attribute (page.rs's `markup_text`). */
export function markupText(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The viewer in `frame` (an iframe): `show(docJson, title)` loads a match and resolves once
 * the viewer says it is drawn; `goTo(turn)` moves it as its slider does; `turn()` is the
 * turn shown.
 */
export function viewer(frame, template) {
  let ready = null;
  const doc = () => frame.contentDocument;
  return {
    show(docJson, title) {
      ready = new Promise((resolve) => {
        const loaded = () => {
          frame.removeEventListener('load', loaded);
          resolve();
        };
        frame.addEventListener('load', loaded);
      });
      frame.srcdoc = viewerPage(template, docJson, title);
      return ready;
    },
    async goTo(turn) {
      if (ready) await ready;
      const slider = doc()?.getElementById('slider');
      if (!slider) return;
      slider.value = String(turn);
      slider.dispatchEvent(new Event('input'));
    },
    turn() {
      return Number(doc()?.body?.dataset.turn ?? 0);
    },
  };
}
