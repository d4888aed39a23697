// The arena's pages (docs/ARENA.md): the editor's Check button, and the progress of a
// placement. Loaded as a file (the arena's Content-Security-Policy forbids inline script);
// every text from the server is put in with textContent, never as HTML.
'use strict';

function showDiagnostics(list, diagnostics) {
  list.replaceChildren();
  for (const d of diagnostics) {
    const li = document.createElement('li');
    li.className = `diagnostic ${d.severity === 'warning' ? 'warning' : 'error'}`;
    li.dataset.line = String(d.line);
    li.dataset.column = String(d.column);
    li.textContent = `line ${d.line}, column ${d.column}: ${d.message}`;
    list.append(li);
  }
  if (diagnostics.length === 0) {
    const li = document.createElement('li');
    li.className = 'ok';
    li.textContent = 'No errors, no warnings.';
    list.append(li);
  }
}

function setUpCheck() {
  const form = document.getElementById('submit-form');
  const button = document.getElementById('check');
  const list = document.getElementById('diagnostics');
  if (!form || !button || !list) return;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const response = await fetch('/api/v1/check', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: document.getElementById('source').value, hill: form.dataset.hill }),
      });
      const body = await response.json();
      showDiagnostics(list, response.ok ? body.diagnostics : [{ line: 0, column: 0, severity: 'error', message: body.detail }]);
    } catch (e) {
      showDiagnostics(list, [{ line: 0, column: 0, severity: 'error', message: 'the server cannot be reached' }]);
    } finally {
      button.disabled = false;
    }
  });
}

function setUpProgress() {
  const status = document.getElementById('status');
  const progress = document.getElementById('progress');
  if (!status || !progress) return;
  const waiting = (s) => s === 'queued' || s === 'playing';
  if (!waiting(status.dataset.status)) return;
  const poll = async () => {
    try {
      const response = await fetch(`/api/v1/programs/${encodeURIComponent(status.dataset.id)}`);
      if (response.ok) {
        const p = await response.json();
        progress.textContent = `played ${p.games_done} of ${p.games_total} placement matches`;
        if (p.status !== status.dataset.status) {
          window.location.reload();
          return;
        }
      }
    } catch (e) {
      // The server is away for a moment: try again.
    }
    setTimeout(poll, 700);
  };
  setTimeout(poll, 300);
}

document.addEventListener('DOMContentLoaded', () => {
  setUpCheck();
  setUpProgress();
});
