// EinStein würfelt nicht: the 5x5 board, the die, movable cubes and their targets, and the
// arrangement chooser. Notation (docs/einstein.md): moves `3se`, die outcomes `1`-`6`,
// arrangements `setup:123456` listing cubes from the side's corner outward.
import { h, clear } from '../ui.js';

const RED = '#e5484d';
const BLUE = '#3e63dd';
const DIRS = { e: [0, 1], s: [1, 0], se: [1, 1], w: [0, -1], n: [-1, 0], nw: [-1, -1] };
const ARROWS = { e: '→', s: '↓', se: '↘', w: '←', n: '↑', nw: '↖' };
// Each side's six start squares, from its own corner outward (the order of `setup:`).
const HOME = {
  red: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0]],
  blue: [[4, 4], [4, 3], [4, 2], [3, 4], [3, 3], [2, 4]],
};
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function findCube(board, id) {
  for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) if (board[r][c] === id) return [r, c];
  return null;
}

function parseMove(action) {
  const m = /^([1-6])(se|nw|e|s|w|n)$/.exec(action);
  return m ? { cube: Number(m[1]), dir: m[2] } : null;
}

function shuffled() {
  const a = [1, 2, 3, 4, 5, 6];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// The die's faces as characters: ⚀ (U+2680) for 1 to ⚅ (U+2685) for 6.
const dieChar = (value) => String.fromCodePoint(0x2680 + value - 1);

/** An arrangement's cubes (`setup:` digits) as they stand on the board: the side's home rows
 * from the top, each read left to right, separated by `/` as in the position notation. Red's
 * `123456` is `123/45/6`, blue's `6/54/321`. */
export function arrangementRows(digits, side) {
  const rows = [];
  HOME[side].forEach(([r, c], i) => rows.push({ r, c, n: digits[i] }));
  rows.sort((a, b) => a.r - b.r || a.c - b.c);
  const out = [];
  for (const { r, n } of rows) {
    if (out.length && out[out.length - 1].r === r) out[out.length - 1].text += n;
    else out.push({ r, text: n });
  }
  return out.map((row) => row.text).join('/');
}

/** Which side an arrangement is for: its player when chosen; when drawn by chance, counted from
 * the arrangements before it (`game.actions` up to `record.ply`): the starter of each game of a
 * match arranges first, and starters alternate from the `first` option. Null if unknown. */
function arrangerOf(record, game) {
  if (record.player === 0 || record.player === 1) return record.player === 0 ? 'red' : 'blue';
  if (!game || !game.actions) return null;
  const upto = Math.min(record.ply ?? game.actions.length, game.actions.length);
  let before = 0;
  for (let i = 0; i < upto; i++) if (game.actions[i].action.startsWith('setup:')) before += 1;
  const first = /(^|,)first=blue(,|$)/.test(game.options || '') ? 1 : 0;
  const starter = first ^ (Math.floor(before / 2) % 2);
  return (before % 2 ? starter ^ 1 : starter) === 0 ? 'red' : 'blue';
}

function dieFace(value) {
  const face = h('div.es-die-face');
  for (let i = 0; i < 9; i++) face.append(h('span', { class: PIPS[value] && PIPS[value].includes(i) ? 'pip' : '' }));
  return face;
}

export default {
  name: 'einstein',
  title: 'EinStein würfelt nicht',
  seats: () => [{ name: 'Red', color: RED }, { name: 'Blue', color: BLUE }],
  // Expectimax with the value network is the strongest player (54% against mcts at 50 ms).
  defaultAgent: 'expectimax',
  formatAction(record, game) {
    const m = parseMove(record.action);
    if (m) return `${m.cube}${ARROWS[m.dir]}`;
    const setup = /^setup:([1-6]{6})$/.exec(record.action);
    if (setup) {
      const side = arrangerOf(record, game);
      if (!side) return `setup ${setup[1]}`;
      return `${side === 'red' ? 'Red' : 'Blue'} ${arrangementRows(setup[1], side)}`;
    }
    const roll = /^[1-6]$/.exec(record.action);
    return roll ? `${dieChar(Number(roll[0]))} ${roll[0]}` : record.action;
  },
  thumb() {
    return [h('span.cube.red.mini', '3'), h('span.cube.blue.mini', '5'), dieFace(6)];
  },

  mount(root, ctx) {
    const squares = [];
    const board = h('div.es-board', { role: 'grid', 'aria-label': 'EinStein board' });
    for (let r = 0; r < 5; r++) {
      for (let c = 0; c < 5; c++) {
        const sq = h('div.es-sq', { dataset: { square: `${r},${c}` }, role: 'gridcell' });
        if (r + c <= 2) sq.classList.add('home-red');
        if (r + c >= 6) sq.classList.add('home-blue');
        if (r === 4 && c === 4) sq.classList.add('goal-red');
        if (r === 0 && c === 0) sq.classList.add('goal-blue');
        sq.addEventListener('click', () => onSquare(r, c));
        sq.addEventListener('mouseenter', () => onHover(r, c));
        squares.push(sq);
        board.append(sq);
      }
    }
    board.addEventListener('mouseleave', () => { hover = null; draw(); });
    const die = h('div.es-die', { 'aria-live': 'polite' });
    const dieCaption = h('div.es-die-caption');
    const score = h('div.es-score');
    const help = h('div.es-help');
    const setupBar = h('div.es-setup.hidden');
    clear(root, h('div.es-wrap',
      h('div.es-board-frame', board),
      h('div.es-aside', h('div.es-die-box', die, dieCaption), score, help, setupBar)));

    let snap = null;
    let positionKey = '';
    let selected = null; // cube number chosen by a click
    let hover = null; // cube number under the pointer
    let arrangement = null; // the arrangement being chosen
    let swapFrom = null;
    let rolls = -1;
    let rollTimer = null;

    const sq = (r, c) => squares[r * 5 + c];
    const side = () => snap.position.json.side;
    const prefix = () => (side() === 'red' ? 'r' : 'b');

    function moves() {
      return snap.legal.map(parseMove).filter(Boolean);
    }

    function targetsOf(cube) {
      const from = findCube(snap.position.json.board, prefix() + cube);
      if (!from) return [];
      return moves().filter((m) => m.cube === cube).map((m) => ({
        move: `${m.cube}${m.dir}`,
        at: [from[0] + DIRS[m.dir][0], from[1] + DIRS[m.dir][1]],
      }));
    }

    function cubeAt(r, c) {
      const cell = snap.position.json.board[r][c];
      if (!cell) return null;
      return { color: cell[0] === 'r' ? 'red' : 'blue', n: Number(cell[1]) };
    }

    function onHover(r, c) {
      if (!snap || arrangement) return;
      const cube = cubeAt(r, c);
      let next = cube && cube.color === side() && movable().has(cube.n) ? cube.n : null;
      // Moving onto one of the hovered cube's targets keeps its targets shown.
      if (next === null && hover !== null && targetsOf(hover).some((t) => t.at[0] === r && t.at[1] === c)) next = hover;
      if (next !== hover) { hover = next; draw(); }
    }

    function movable() {
      return new Set(moves().map((m) => m.cube));
    }

    function onSquare(r, c) {
      if (!snap) return;
      if (arrangement) return swap(r, c);
      const active = selected ?? hover;
      if (active !== null) {
        const t = targetsOf(active).find((x) => x.at[0] === r && x.at[1] === c);
        if (t) { selected = null; hover = null; ctx.play(t.move); return; }
      }
      const cube = cubeAt(r, c);
      const cubes = movable();
      if (cube && cube.color === side() && cubes.has(cube.n)) selected = cube.n;
      else if (cubes.size !== 1) selected = null;
      draw();
    }

    function swap(r, c) {
      const home = HOME[side()];
      const i = home.findIndex(([hr, hc]) => hr === r && hc === c);
      if (i < 0) return;
      if (swapFrom === null) swapFrom = i;
      else {
        [arrangement[swapFrom], arrangement[i]] = [arrangement[i], arrangement[swapFrom]];
        swapFrom = null;
      }
      draw();
    }

    function showDie(value, colour, animate) {
      clearInterval(rollTimer);
      die.className = `es-die ${colour || ''}`;
      if (!value) { clear(die, h('span.es-die-q', '?')); return; }
      if (!animate) { clear(die, dieFace(value)); return; }
      die.classList.add('rolling');
      let ticks = 0;
      rollTimer = setInterval(() => {
        ticks += 1;
        if (ticks >= 8) {
          clearInterval(rollTimer);
          die.classList.remove('rolling');
          clear(die, dieFace(value));
          return;
        }
        clear(die, dieFace(1 + Math.floor(Math.random() * 6)));
      }, 75);
    }

    function lastMove() {
      for (let i = snap.actions.length - 1; i >= 0; i--) {
        const rec = snap.actions[i];
        if (rec.player === null || rec.player === undefined) continue;
        const m = parseMove(rec.action);
        if (!m) return null;
        const color = rec.player === 0 ? 'r' : 'b';
        const to = findCube(snap.position.json.board, color + m.cube);
        if (!to) return null;
        return { to, from: [to[0] - DIRS[m.dir][0], to[1] - DIRS[m.dir][1]] };
      }
      return null;
    }

    function draw() {
      const json = snap.position.json;
      const inSetup = arrangement !== null;
      const active = inSetup ? null : selected ?? hover;
      const canMove = movable();
      const targets = active !== null ? targetsOf(active) : [];
      const last = snap.replay || !inSetup ? lastMove() : null;
      for (let r = 0; r < 5; r++) {
        for (let c = 0; c < 5; c++) {
          const el = sq(r, c);
          el.classList.remove('target', 'last-from', 'last-to', 'arrange', 'swap-from');
          let cube = cubeAt(r, c);
          if (inSetup) {
            const i = HOME[side()].findIndex(([hr, hc]) => hr === r && hc === c);
            if (i >= 0) {
              cube = { color: side(), n: arrangement[i], pending: true };
              el.classList.add('arrange');
              if (swapFrom === i) el.classList.add('swap-from');
            }
          }
          if (targets.some((t) => t.at[0] === r && t.at[1] === c)) el.classList.add('target');
          if (last && last.from[0] === r && last.from[1] === c) el.classList.add('last-from');
          if (last && last.to[0] === r && last.to[1] === c) el.classList.add('last-to');
          const key = cube ? `${cube.color}${cube.n}${cube.pending ? 'p' : ''}` : '';
          if (el.dataset.cube !== key) {
            el.dataset.cube = key;
            clear(el, cube ? h(`span.cube.${cube.color}`, { dataset: { n: cube.n } }, String(cube.n)) : null);
          }
          const cubeEl = el.firstChild;
          if (cubeEl) {
            const mine = cube.color === side() && !inSetup && canMove.has(cube.n);
            cubeEl.classList.toggle('movable', mine);
            cubeEl.classList.toggle('selected', mine && active === cube.n);
            cubeEl.classList.toggle('pending', Boolean(cube.pending));
          }
        }
      }
      board.classList.toggle('interactive', canMove.size > 0 || inSetup);
      const target = json.match > 1 ? ` · first to ${json.match}` : '';
      clear(score,
        h('span.es-score-chip.red', `Red ${json.score[0]}`),
        h('span.es-score-chip.blue', `Blue ${json.score[1]}`),
        json.match > 1 ? h('span.muted.small', `match${target}`) : null);
      if (inSetup) help.textContent = 'Arrange your cubes: tap two of them to swap, then confirm.';
      else if (canMove.size) help.textContent = canMove.size > 1
        ? `Move cube ${[...canMove].join(' or ')}: pick it, then a highlighted square.`
        : `Move cube ${[...canMove][0]}: pick a highlighted square.`;
      else help.textContent = '';
    }

    function drawSetup() {
      setupBar.classList.toggle('hidden', arrangement === null);
      if (arrangement === null) return;
      clear(setupBar,
        h('button.btn.small', { onclick: () => { arrangement = shuffled(); swapFrom = null; draw(); } }, 'Shuffle'),
        h('button.btn.small.primary', {
          dataset: { testid: 'confirm-setup' },
          onclick: () => ctx.play(`setup:${arrangement.join('')}`),
        }, 'Confirm arrangement'));
    }

    return {
      render(next) {
        snap = next;
        const key = `${snap.position.text}|${snap.legal.length}`;
        if (key !== positionKey) {
          positionKey = key;
          const choosing = snap.legal.length > 0 && snap.legal[0].startsWith('setup:');
          arrangement = choosing ? arrangement || shuffled() : null;
          swapFrom = null;
          selected = null;
          const cubes = movable();
          if (cubes.size === 1) selected = [...cubes][0];
        }
        // The die: the last roll in the record, spun when a new one arrives in a live game.
        const dice = snap.actions.filter((a) => a.by === 'chance' && /^[1-6]$/.test(a.action));
        const lastRoll = dice[dice.length - 1];
        const rolled = snap.position.json.phase === 'move' || snap.position.json.phase === 'over';
        const shown = rolled && lastRoll ? Number(lastRoll.action) : null;
        const colour = snap.position.json.side;
        showDie(shown, colour, !snap.replay && rolls >= 0 && dice.length > rolls && shown !== null);
        rolls = dice.length;
        const name = colour === 'red' ? 'Red' : 'Blue';
        const phase = snap.position.json.phase;
        if (phase === 'setup') dieCaption.textContent = `${name} arranges`;
        else if (phase === 'over') dieCaption.textContent = shown ? `Last roll: ${shown}` : '';
        else dieCaption.textContent = shown ? `${name} rolled ${shown}` : `${name} to roll`;
        draw();
        drawSetup();
      },
      destroy() { clearInterval(rollTimer); },
    };
  },
};
