// The page for any game without one of its own: the position as text, the legal moves as
// buttons. It also documents the interface every game page implements.
import { h, clear } from '../ui.js';

const PALETTE = ['#e5484d', '#3e63dd', '#18945c', '#c98a00', '#8e4ec6', '#0d9ab0'];

export default {
  // The server's game name; `generic` is used for every game without a page.
  name: 'generic',
  // Display name in the lobby and on the game page (the catalog's own name when absent).
  title: null,
  // Names and colours of the seats, for the player cards.
  seats(numPlayers) {
    return Array.from({ length: numPlayers }, (_, i) => ({ name: `Player ${i + 1}`, color: PALETTE[i % PALETTE.length] }));
  },
  // How a recorded action is shown in the move list.
  formatAction(record) {
    return record.action;
  },
  // Draws the game into `root`. `ctx.play(action)` sends a move (a Promise). Returns an object
  // whose render(snap) is called with every new state and every replay step:
  //   snap.position = {text, json}   the position
  //   snap.legal    = [...]          the moves the human to move may make ([] otherwise)
  //   snap.player   = n | null       who is to move
  //   snap.actions  = [...]          the record up to this position
  //   snap.replay   = bool           true when stepping through a finished game
  mount(root, ctx) {
    const text = h('pre.gen-text');
    const moves = h('div.gen-moves');
    const json = h('pre.gen-json');
    clear(root, h('div.gen-wrap',
      h('h3', 'Position'), text,
      h('h3', 'Your moves'), moves,
      h('details', h('summary', 'Position as JSON'), json)));
    return {
      render(snap) {
        text.textContent = snap.position.text;
        json.textContent = JSON.stringify(snap.position.json, null, 2);
        clear(moves, snap.legal.length
          ? snap.legal.map((a) => h('button.btn.gen-move', { dataset: { action: a }, onclick: () => ctx.play(a) }, a))
          : h('span.muted', snap.replay ? 'Replay' : 'Nothing to play right now'));
      },
      destroy() {},
    };
  },
};
