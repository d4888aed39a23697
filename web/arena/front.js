// The home page's recent match (docs/ARENA.md, "The pages"): the replay of the match named by
// `figure#recent[data-match]`, fetched from the API as this visitor may see it, played on the
// small board turn by turn with the viewer's board (RobotsModel, RobotsBoard, loaded before
// this file), then again after a pause. Without motion under prefers-reduced-motion; paused
// while the tab is hidden. A replay that cannot be had hides the board and keeps the link.
// Loaded as a file (the arena's Content-Security-Policy forbids inline script).
'use strict';

(() => {
  const figure = document.getElementById('recent');
  const svg = document.getElementById('recent-board');
  const turn = document.getElementById('recent-turn');
  if (!figure || !svg || !turn || typeof RobotsBoard === 'undefined') return;
  const TURN_MS = 300;
  const PAUSE_MS = 3000;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');

  function play(doc) {
    const states = RobotsModel.expand(doc);
    const last = states.length - 1;
    const board = RobotsBoard.create(svg, doc);
    let at = 0;

    function show(to, animate) {
      at = to;
      const still = reduced.matches || !animate;
      board.place(states[at], still ? 0 : TURN_MS * 0.8);
      if (animate) board.show(RobotsModel.effects(doc.frames[at].e), states[at], TURN_MS * 0.8, reduced.matches);
      else board.clearEffects();
      turn.textContent = `turn ${at} of ${last}, round ${states[at].round}`;
      figure.dataset.turn = String(at);
    }

    function tick() {
      if (document.hidden) {
        setTimeout(tick, PAUSE_MS);
      } else if (at < last) {
        show(at + 1, true);
        setTimeout(tick, at === last ? PAUSE_MS : TURN_MS);
      } else {
        show(0, false);
        setTimeout(tick, TURN_MS);
      }
    }

    show(0, false);
    figure.dataset.state = 'playing';
    setTimeout(tick, TURN_MS);
  }

  const id = encodeURIComponent(figure.dataset.match || '');
  fetch(`/api/v1/matches/${id}/replay`, { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
    .then(play)
    .catch(() => {
      svg.hidden = true;
      figure.dataset.state = 'unavailable';
    });
})();
