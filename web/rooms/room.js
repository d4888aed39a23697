// A room's page (docs/ROOMS.md, "The pages"), the entry of its ES modules: the server renders
// only `<section id="room" data-code data-you>` and loads palette.js and model.js (classic
// scripts: RobotsPalette, RobotsModel), then this module. It builds the page's frame (the
// header with the room's code, #room-info, the link to share, #connection; p#error), opens the
// room's socket (socket.js) and shows the battle game's page (battle.js) until the first hello
// names a token game: then that game's page (tokens.js's tokenRoom with ricochet.js's or
// micro.js's parts) replaces it. Each `state` message is rendered wholesale. No inline style
// or script (the arena's Content-Security-Policy): styles are classes of room.css, positions
// attributes or element.style set from the modules. Hook for tests: #room data-connection
// (`connecting`, `open`, `reconnecting`).
import { battleRoom } from './battle.js';
import { h } from './dom.js';
import { MICRO, playMicro } from './micro.js';
import { RICOCHET, playRicochet } from './ricochet.js';
import { roomSocket } from './socket.js';
import { tokenRoom } from './tokens.js';

/** The page's frame: the header and p#error, kept by every room's page; `showError` and
 *  `setConnection`. */
function frame(main, code) {
  const info = h('p', { id: 'room-info' });
  const share = h('input', {
    id: 'share-link', type: 'text', readOnly: true, value: `${location.origin}/rooms/${encodeURIComponent(code)}`, size: 48,
  });
  const connection = h('p', { id: 'connection', attrs: { role: 'status', 'aria-live': 'polite' }, text: 'connecting…' });
  const header = h('header', { className: 'room-head' }, [
    h('h1', {}, [document.createTextNode('Room '), h('code', { text: code })]),
    info,
    h('p', { className: 'share' }, [h('label', { htmlFor: 'share-link', text: 'Invite with this link: ' }), share]),
    connection,
  ]);
  const error = h('p', { id: 'error', hidden: true, attrs: { role: 'alert' } });
  share.addEventListener('focus', () => share.select());
  return {
    header,
    error,
    info,
    showError(message) {
      error.textContent = message;
      error.hidden = !message;
    },
    setConnection(kind, words) {
      main.dataset.connection = kind;
      connection.dataset.state = kind;
      connection.textContent = words;
      connection.hidden = kind === 'open';
    },
  };
}

function start(main) {
  const code = main.dataset.code;
  const you = main.dataset.you || '';
  // palette.js and model.js are classic scripts the page loads before this module: their
  // top-level constants are globals of every script, modules included.
  if (typeof RobotsPalette !== 'object' || typeof RobotsModel !== 'object') {
    throw new Error('the room page needs /static/palette.js and /static/model.js before /static/room.js');
  }
  const page = frame(main, code);
  let room = null; // the page shown: the battle game's, or a token game's once hello names it
  let own = false;
  const link = roomSocket(code, {
    receive(msg) {
      // A Ricochet Robots or a Micro Robots room (docs/ROOMS.md): its own page.
      if (msg.type === 'hello' && msg.room && !own) {
        const game = ownGame(msg.room.game);
        if (game) {
          own = true;
          room = tokenRoom({
            main, you, page, send: link.send, showError: page.showError, connected: link.connected,
          }, ...game);
        }
      }
      if (msg.type === 'hello') page.setConnection('open', 'connected');
      room.receive(msg);
    },
    closed() {
      page.setConnection('reconnecting', 'reconnecting…');
      room.render();
    },
    showError: page.showError,
  });
  room = battleRoom({ main, you, page, link, palette: RobotsPalette, model: RobotsModel });
  page.setConnection('connecting', 'connecting…');
  link.open();
}

/** A token game's words and parts for tokenRoom, or null for the battle game. */
function ownGame(game) {
  if (game === 'ricochet') return [RICOCHET, playRicochet];
  if (game === 'micro') return [MICRO, playMicro];
  return null;
}

const main = document.getElementById('room');
if (main && main.dataset.code) start(main);
