// Connect Four: 7 columns, 6 rows; a move is a column `1`-`7`. The position's JSON has `rows`,
// six strings from the top, of `x`, `o` and `.` (docs/connect4.md).
import { h, clear } from '../ui.js';

const RED = '#e5484d';
const YELLOW = '#f5b80b';

/** The cells of every four in a row, to light them up at the end. */
function fours(rows) {
  const at = (r, c) => (r >= 0 && r < 6 && c >= 0 && c < 7 ? rows[r][c] : '.');
  const cells = new Set();
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 7; c++) {
      const p = at(r, c);
      if (p === '.') continue;
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        if ([1, 2, 3].every((k) => at(r + k * dr, c + k * dc) === p)) {
          for (let k = 0; k < 4; k++) cells.add(`${r + k * dr},${c + k * dc}`);
        }
      }
    }
  }
  return cells;
}

export default {
  name: 'connect4',
  title: 'Connect Four',
  seats: () => [{ name: 'Red', color: RED }, { name: 'Yellow', color: YELLOW }],
  formatAction: (record) => `col ${record.action}`,
  thumb() {
    return [h('span.c4-mini.x'), h('span.c4-mini.o'), h('span.c4-mini.x')];
  },

  mount(root, ctx) {
    const columns = [];
    const board = h('div.c4-board', { role: 'grid', 'aria-label': 'Connect Four board' });
    for (let c = 0; c < 7; c++) {
      const col = h('div.c4-col', { dataset: { col: String(c + 1) }, role: 'button', 'aria-label': `column ${c + 1}` });
      for (let r = 0; r < 6; r++) col.append(h('div.c4-cell', h('div.c4-disc')));
      col.addEventListener('click', () => {
        if (legal.includes(String(c + 1))) ctx.play(String(c + 1));
      });
      columns.push(col);
      board.append(col);
    }
    clear(root, h('div.c4-wrap', board, h('div.c4-labels', [1, 2, 3, 4, 5, 6, 7].map((n) => h('span', n)))));
    let legal = [];
    let lastCount = -1;

    return {
      render(snap) {
        const rows = snap.position.json.rows;
        legal = snap.legal;
        const toMove = snap.position.json.to_move === 0 ? 'x' : 'o';
        const win = fours(rows);
        const moves = snap.actions.filter((a) => a.player !== null && a.player !== undefined);
        const last = moves[moves.length - 1];
        const lastCol = last ? Number(last.action) - 1 : -1;
        // The newest disc drops in, in a live game (not when stepping through a replay).
        const animate = !snap.replay && lastCount >= 0 && moves.length === lastCount + 1;
        lastCount = moves.length;
        board.classList.toggle('interactive', legal.length > 0);
        board.dataset.turn = toMove;
        for (let c = 0; c < 7; c++) {
          const col = columns[c];
          col.classList.toggle('playable', legal.includes(String(c + 1)));
          let top = -1;
          for (let r = 0; r < 6; r++) if (rows[r][c] !== '.' && top < 0) top = r;
          for (let r = 0; r < 6; r++) {
            const cell = col.children[r];
            const disc = cell.firstChild;
            const p = rows[r][c];
            disc.className = `c4-disc${p === '.' ? '' : ` ${p}`}`;
            cell.classList.toggle('win', win.has(`${r},${c}`));
            cell.classList.toggle('last', c === lastCol && r === top);
            const ghostRow = top < 0 ? 5 : top - 1;
            cell.classList.toggle('ghost-slot', p === '.' && r === ghostRow);
            if (animate && c === lastCol && r === top) {
              disc.style.setProperty('--drop', `${-(r + 1) * 100}%`);
              disc.classList.add('drop');
            }
          }
        }
      },
      destroy() {},
    };
  },
};
