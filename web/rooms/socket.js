// A room's WebSocket (docs/ROOMS.md, "The protocol"), what every room page shares: JSON
// messages both ways to /rooms/{code}/ws, reconnection with a growing delay (words.js's
// BACKOFF_MS) that starts again at each hello, at once when the network or the page comes
// back. The page renders; this only carries.
import { reconnectDelay } from './words.js';

/**
 * The socket of room `code`, not yet open (`open()`). `receive(msg)` gets each message parsed;
 * `closed()` is called when the connection is lost, the next attempt planned; `showError` shows
 * (or, with '', clears) the page's error. Gives `send(msg)` (false, and an error shown, when not
 * connected), `present()` (a socket exists, maybe still connecting) and `connected()` (open).
 */
export function roomSocket(code, { receive, closed, showError }) {
  let socket = null;
  let attempt = 0;
  let timer = null;

  function connect() {
    timer = null;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/rooms/${encodeURIComponent(code)}/ws`);
    socket = ws;
    ws.addEventListener('message', (ev) => {
      if (socket !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      // The room took us: the next loss starts the delays again.
      if (msg && msg.type === 'hello') attempt = 0;
      receive(msg);
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      later();
    });
  }

  function later() {
    if (timer !== null) return;
    const delay = reconnectDelay(attempt, Math.random());
    attempt += 1;
    timer = setTimeout(connect, delay);
    closed();
  }

  // Back on the network, or the page shown again: try at once.
  const now = () => {
    if (timer !== null) {
      clearTimeout(timer);
      connect();
    }
  };
  window.addEventListener('online', now);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') now();
  });

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError('Not connected: reconnecting…');
      return false;
    }
    showError('');
    socket.send(JSON.stringify(message));
    return true;
  }

  return {
    open: connect,
    send,
    present: () => socket !== null,
    connected: () => Boolean(socket && socket.readyState === WebSocket.OPEN),
  };
}
