// Gomoku: an SVG board of any size from 5x5 to 22x22 (docs/gomoku.md). A point is `h8`: the
// column letter from `a` at the left, the row number from 1 at the top, as Rapfi prints moves.
// The position's JSON has `size`, `rule`, `moves` (in order), `rows` (top first, `x` black, `o`
// white), `to_move`, `winner`, `winning_line` and `forbidden` (black's forbidden points under
// renju, when black is to move). Everything is drawn from the JSON, so a replay step is drawn
// like a live position.
import { h, clear } from '../ui.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 40; // between two lines, in SVG units
const MARGIN = 44; // from the board's edge to the outer lines: room for the coordinates
const STONE = 0.47 * CELL; // a stone's radius
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const NUMBERS_KEY = 'ply.gomoku.numbers';
// On a touch screen, a tap on a board this dense (CSS pixels between lines) only shows where
// the stone would go; a second tap on the same point plays it.
const CONFIRM_BELOW = 30;

const BLACK_DOT = 'radial-gradient(circle at 35% 30%, #6a6a6a, #1b1b1b 60%, #050505)';
const WHITE_DOT = 'radial-gradient(circle at 35% 30%, #ffffff, #eceae4 55%, #bdb9b0)';

let instances = 0;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

const pos = (i) => MARGIN + i * CELL;

/** `h8` -> {x: 7, y: 7}; also the Gomocup form `7,7`. */
export function parsePoint(text) {
  let m = /^([a-z])(\d{1,2})$/.exec(text);
  if (m) return { x: LETTERS.indexOf(m[1]), y: Number(m[2]) - 1 };
  m = /^(\d{1,2}),(\d{1,2})$/.exec(text);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

export const pointName = (x, y) => `${LETTERS[x]}${y + 1}`;

/** The star points (hoshi) of an n x n board. */
function stars(n) {
  const d = n >= 13 ? 3 : n >= 9 ? 2 : -1;
  const mid = (n - 1) / 2;
  const odd = n % 2 === 1;
  const out = [];
  if (d >= 0) for (const x of [d, n - 1 - d]) for (const y of [d, n - 1 - d]) out.push([x, y]);
  if (odd && n >= 7) out.push([mid, mid]);
  if (odd && n >= 19) out.push([d, mid], [n - 1 - d, mid], [mid, d], [mid, n - 1 - d]);
  return out;
}

/** The pieces of a stone: a soft shadow and the stone, in a group at the point. */
function stone(color, x, y, extra = '') {
  return svg('g', { class: `gm-stone ${color}${extra}`, transform: `translate(${pos(x)} ${pos(y)})`, 'data-point': pointName(x, y) },
    svg('circle', { class: 'gm-shadow', cx: 1.6, cy: 2.6, r: STONE }),
    svg('circle', { class: 'gm-body', r: STONE, fill: `url(#gm-${color}-${instances})` }));
}

export default {
  name: 'gomoku',
  title: 'Gomoku',
  seats: () => [{ name: 'Black', color: BLACK_DOT }, { name: 'White', color: WHITE_DOT }],
  // The lobby's menus for options whose help text does not quote its choices.
  optionChoices: {
    rule: ['freestyle', 'standard', 'renju'],
  },
  defaultAgent: 'alphabeta',
  thumb() {
    const mini = h('span.gm-thumb');
    for (const [x, y, c] of [[1, 1, 'b'], [2, 1, 'w'], [2, 2, 'b'], [1, 2, 'w'], [3, 3, 'b']]) {
      mini.append(h(`i.${c}`, { style: { left: `${x * 25}%`, top: `${y * 25}%` } }));
    }
    return [mini];
  },
  /** The AI's best line as stones of alternating colours, the first the searching player's. */
  formatLine(pv, player) {
    return h('span.gm-line', pv.map((move, i) => h('span.gm-line-move',
      h(`i.${(player + i) % 2 === 0 ? 'b' : 'w'}`), move)));
  },

  mount(root, ctx) {
    instances += 1;
    const id = instances;
    const board = svg('svg', {
      class: 'gm-board', tabindex: 0, role: 'application',
      'aria-label': 'Gomoku board: the arrow keys move a cursor, Enter plays there',
      'data-cell': CELL, 'data-margin': MARGIN,
    });
    const layers = {};
    const numbersToggle = h('input', {
      type: 'checkbox', checked: localStorage.getItem(NUMBERS_KEY) === '1', dataset: { testid: 'gm-numbers' },
      onchange: () => { localStorage.setItem(NUMBERS_KEY, numbersToggle.checked ? '1' : '0'); draw(); },
    });
    const info = h('div.gm-info', { 'aria-live': 'polite' });
    const where = h('span.gm-where');
    const wrap = h('div.gm-wrap',
      h('div.gm-frame', board),
      h('div.gm-bar', info, h('span.spacer'), where,
        h('label.gm-toggle', numbersToggle, h('span', 'Move numbers'))));
    clear(root, wrap);

    let json = null;
    let size = 0;
    let legal = new Set();
    let hover = null; // the point under the mouse, or the keyboard cursor
    let pending = null; // a tapped point waiting for a second tap (touch, dense boards)
    let placing = null; // a stone sent to the server, drawn until its answer arrives
    let line = null; // {moves, player}: an AI's line shown on the board
    let pointer = 'mouse';
    let keyboard = false; // the cursor was moved with the arrow keys
    let lastCount = -1;
    let fresh = false;
    const stoneEls = new Map(); // point -> its stone's element, kept while it does not change

    function build(n) {
      size = n;
      const w = 2 * MARGIN + (n - 1) * CELL;
      board.setAttribute('viewBox', `0 0 ${w} ${w}`);
      board.dataset.size = n;
      wrap.style.setProperty('--gm-size', n);
      const lo = pos(0);
      const hi = pos(n - 1);
      let d = '';
      for (let i = 1; i < n - 1; i++) d += `M${lo} ${pos(i)}H${hi}M${pos(i)} ${lo}V${hi}`;
      const label = 0.7 * CELL;
      const coords = [];
      for (let i = 0; i < n; i++) {
        for (const y of [lo - label, hi + label]) coords.push(svg('text', { x: pos(i), y, class: 'gm-coord' }, LETTERS[i]));
        for (const x of [lo - label, hi + label]) coords.push(svg('text', { x, y: pos(i), class: 'gm-coord' }, String(i + 1)));
      }
      const gradient = (name, stops) => svg('radialGradient', { id: `gm-${name}-${id}`, cx: 0.38, cy: 0.34, r: 0.7, fx: 0.32, fy: 0.28 },
        stops.map(([offset, color]) => svg('stop', { offset, 'stop-color': color })));
      for (const key of ['marks', 'stones', 'win', 'overlay', 'ghost']) layers[key] = svg('g', { class: `gm-${key}` });
      stoneEls.clear();
      board.replaceChildren(
        svg('defs', {},
          gradient('black', [[0, '#707070'], [0.35, '#2c2c2c'], [1, '#050505']]),
          gradient('white', [[0, '#ffffff'], [0.55, '#f0eee8'], [1, '#c4c0b6']])),
        svg('rect', { class: 'gm-wood', x: 0, y: 0, width: w, height: w, rx: 14 }),
        svg('path', { class: 'gm-grid', d }),
        svg('rect', { class: 'gm-edge', x: lo, y: lo, width: hi - lo, height: hi - lo }),
        ...stars(n).map(([x, y]) => svg('circle', { class: 'gm-star', cx: pos(x), cy: pos(y), r: 0.1 * CELL })),
        svg('g', { class: 'gm-coords' }, coords),
        layers.marks, layers.stones, layers.win, layers.overlay, layers.ghost);
    }

    /** The point under a pointer event, or null off the grid. */
    function pointAt(event) {
      const m = board.getScreenCTM();
      if (!m) return null;
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
      const x = Math.round((p.x - MARGIN) / CELL);
      const y = Math.round((p.y - MARGIN) / CELL);
      if (x < 0 || y < 0 || x >= size || y >= size) return null;
      if (Math.hypot(p.x - pos(x), p.y - pos(y)) > 0.62 * CELL) return null;
      return pointName(x, y);
    }

    /** CSS pixels between two lines, as the board is shown now. */
    function pixelsPerCell() {
      const m = board.getScreenCTM();
      return m ? m.a * CELL : CELL;
    }

    function play(point) {
      if (!legal.has(point)) return;
      pending = null;
      placing = point;
      hover = null;
      drawGhost();
      Promise.resolve(ctx.play(point)).finally(() => {
        if (placing === point) { placing = null; drawGhost(); }
      });
    }

    board.addEventListener('pointerdown', (e) => { pointer = e.pointerType || 'mouse'; });
    board.addEventListener('pointermove', (e) => {
      if (e.pointerType !== 'mouse') return;
      const p = pointAt(e);
      if (p !== hover || keyboard) { hover = p; keyboard = false; drawGhost(); }
    });
    board.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'mouse' && hover !== null) { hover = null; drawGhost(); }
    });
    board.addEventListener('click', (e) => {
      const p = pointAt(e);
      if (!p || !legal.has(p)) {
        if (pending) { pending = null; drawGhost(); }
        if (p && legal.size && json.forbidden.includes(p)) info.textContent = `${p} is forbidden for black under renju`;
        return;
      }
      if (pointer !== 'mouse' && pixelsPerCell() < CONFIRM_BELOW && pending !== p) {
        pending = p;
        drawGhost();
        return;
      }
      play(p);
    });
    board.addEventListener('keydown', (e) => {
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      if (moves[e.key]) {
        e.preventDefault();
        const last = json && json.moves.length ? json.moves[json.moves.length - 1] : null;
        const at = parsePoint(hover || last || pointName((size - 1) >> 1, (size - 1) >> 1));
        const [dx, dy] = moves[e.key];
        const x = Math.max(0, Math.min(size - 1, at.x + (hover ? dx : 0)));
        const y = Math.max(0, Math.min(size - 1, at.y + (hover ? dy : 0)));
        hover = pointName(x, y);
        keyboard = true;
        drawGhost();
      } else if ((e.key === 'Enter' || e.key === ' ') && hover) {
        e.preventDefault();
        play(hover);
      } else if (e.key === 'Escape') {
        hover = null;
        keyboard = false;
        pending = null;
        drawGhost();
      }
    });

    /** Where the next stone would go: the ghost under the mouse, a tapped point, the cursor. */
    function drawGhost() {
      const g = layers.ghost;
      if (!g) return;
      g.replaceChildren();
      const color = json && json.to_move === 'white' ? 'white' : 'black';
      if (placing) {
        const p = parsePoint(placing);
        g.append(stone(color, p.x, p.y, ' placing'));
      }
      const shown = pending || hover;
      if (shown && !placing) {
        const p = parsePoint(shown);
        if (legal.has(shown)) {
          g.append(stone(color, p.x, p.y, pending ? ' ghost pending' : ' ghost'));
        }
        if (keyboard || pending) {
          // The row and column through the point, to check its coordinates on a dense board.
          const lo = pos(0);
          const hi = pos(size - 1);
          g.prepend(svg('path', { class: 'gm-crosshair', d: `M${lo} ${pos(p.y)}H${hi}M${pos(p.x)} ${lo}V${hi}` }));
          g.append(svg('circle', { class: 'gm-cursor', cx: pos(p.x), cy: pos(p.y), r: STONE + 3 }));
        }
      }
      where.textContent = shown || '';
      board.classList.toggle('can-play', Boolean(shown && legal.has(shown)));
      board.classList.toggle('forbidden-here', Boolean(shown && legal.size && json && json.forbidden.includes(shown)));
      if (pending) info.textContent = `Tap ${pending} again to play it`;
      else drawInfo();
    }

    function drawInfo() {
      if (!json) return;
      const stones = json.moves.length;
      if (json.winner && json.winning_line.length) {
        // The line's ends, the left one (else the upper one) first.
        const ends = [json.winning_line[0], json.winning_line[json.winning_line.length - 1]].map(parsePoint);
        ends.sort((a, b) => a.x - b.x || a.y - b.y);
        const [a, b] = ends.map((p) => pointName(p.x, p.y));
        info.textContent = `${json.winner === 'black' ? 'Black' : 'White'} made ${json.winning_line.length} in a row: ${a}–${b}`;
      } else if (json.forbidden.length && legal.size) {
        info.textContent = `Renju: black may not play the points marked ×`;
      } else if (json.forbidden.length) {
        info.textContent = `Black to play · ${json.forbidden.length} forbidden point${json.forbidden.length > 1 ? 's' : ''}`;
      } else {
        info.textContent = `${stones} stone${stones === 1 ? '' : 's'} · ${json.rule}`;
      }
    }

    function draw() {
      if (!json) return;
      const numbers = numbersToggle.checked;
      const order = new Map(json.moves.map((m, i) => [m, i + 1]));
      const last = json.moves.length ? json.moves[json.moves.length - 1] : null;
      const five = new Set(json.winning_line);
      const seen = new Set();
      const marks = [];
      const overlay = [];
      for (let y = 0; y < size; y++) {
        const row = json.rows[y];
        for (let x = 0; x < size; x++) {
          const c = row[x];
          if (c === '.') continue;
          const name = pointName(x, y);
          const color = c === 'x' ? 'black' : 'white';
          const key = `${color}${name === last ? ' last' : ''}${five.has(name) ? ' five' : ''}`;
          seen.add(name);
          const old = stoneEls.get(name);
          if (!old || old.dataset.key !== key) {
            const el = stone(color, x, y, `${key.slice(color.length)}${name === last && fresh ? ' fresh' : ''}`);
            el.dataset.key = key;
            if (old) old.replaceWith(el);
            else layers.stones.append(el);
            stoneEls.set(name, el);
          }
          const n = order.get(name);
          if (numbers && n) {
            overlay.push(svg('text', {
              class: `gm-number ${color}${name === last ? ' last' : ''}${n >= 100 ? ' small' : ''}`, x: pos(x), y: pos(y),
            }, String(n)));
          } else if (name === last) {
            overlay.push(svg('circle', { class: 'gm-last', cx: pos(x), cy: pos(y), r: 0.15 * CELL }));
          }
        }
      }
      for (const f of json.forbidden) {
        const p = parsePoint(f);
        const r = 0.17 * CELL;
        marks.push(svg('path', {
          class: 'gm-forbidden', 'data-point': f,
          d: `M${pos(p.x) - r} ${pos(p.y) - r}L${pos(p.x) + r} ${pos(p.y) + r}M${pos(p.x) + r} ${pos(p.y) - r}L${pos(p.x) - r} ${pos(p.y) + r}`,
        }, svg('title', {}, `${f}: forbidden for black`)));
      }
      if (line && !json.winner) {
        line.moves.forEach((move, i) => {
          const p = parsePoint(move);
          if (!p || p.x >= size || p.y >= size || json.rows[p.y][p.x] !== '.') return;
          const color = (line.player + i) % 2 === 0 ? 'black' : 'white';
          overlay.push(stone(color, p.x, p.y, ' plan'),
            svg('text', { class: `gm-number ${color} plan`, x: pos(p.x), y: pos(p.y) }, String(i + 1)));
        });
      }
      for (const [name, el] of stoneEls) {
        if (!seen.has(name)) { el.remove(); stoneEls.delete(name); }
      }
      layers.marks.replaceChildren(...marks);
      layers.overlay.replaceChildren(...overlay);
      const win = [];
      // A stroke through the five, unless it would cross the move numbers (then the rings do).
      if (json.winning_line.length >= 2 && !numbers) {
        const a = parsePoint(json.winning_line[0]);
        const b = parsePoint(json.winning_line[json.winning_line.length - 1]);
        win.push(svg('line', { class: 'gm-five', x1: pos(a.x), y1: pos(a.y), x2: pos(b.x), y2: pos(b.y) }));
      }
      layers.win.replaceChildren(...win);
      board.classList.toggle('interactive', legal.size > 0);
      board.classList.toggle('numbers', numbers);
      board.dataset.toMove = json.to_move;
      drawGhost();
    }

    board.addEventListener('blur', () => {
      if (keyboard) { hover = null; keyboard = false; drawGhost(); }
    });

    return {
      render(snap) {
        json = snap.position.json;
        if (json.size !== size) build(json.size);
        legal = new Set(snap.legal);
        // The newest stone is placed with a little bounce in a live game, not in replays.
        fresh = !snap.replay && lastCount >= 0 && json.moves.length === lastCount + 1;
        lastCount = json.moves.length;
        if (placing && !legal.has(placing)) placing = null;
        if (pending && !legal.has(pending)) pending = null;
        draw();
      },
      /** Shows an AI's line of play on the board (numbered, translucent), or hides it (null). */
      showLine(moves, player) {
        const next = moves && moves.length ? { moves, player } : null;
        const key = (l) => (l ? `${l.player}:${l.moves.join(' ')}` : '');
        if (key(next) === key(line)) return;
        line = next;
        draw();
      },
      destroy() {},
    };
  },
};
