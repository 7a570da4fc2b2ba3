// Tactics' board model for the page: cells, terrain, units and attack lines, read from the
// position's JSON (docs/tactics.md: `size`, `map` rows from the top, `sides` in team order) and
// the action text (`b2`, `b2>n`, `b2-d4`, `b2-d4>e`). The page never decides what is legal —
// the server's list does — this only draws what an attack would reach.
import { svg } from './risk-map.js';

export const KINDS = {
  F: { name: 'fighter', hp: 100, damage: 50, range: 1, moves: 4 },
  A: { name: 'archer', hp: 60, damage: 25, range: 7, moves: 3 },
  W: { name: 'sorcerer', hp: 40, damage: 35, range: 5, moves: 3 },
};
export const DIRS = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] };
export const DIR_NAMES = { n: 'north', e: 'east', s: 'south', w: 'west' };
export const DIR_ARROWS = { n: '↑', e: '→', s: '↓', w: '←' };
/** Pixels of one cell in the SVG's own units (the SVG scales to its frame). */
export const S = 40;

export const cellName = (f, r) => `${String.fromCharCode(97 + f)}${r + 1}`;
export function parseCell(c) {
  const m = /^([a-p])(\d+)$/.exec(c || '');
  return m ? [m[1].charCodeAt(0) - 97, Number(m[2]) - 1] : null;
}

/** `b2-d4>e` as {from: 'b2', to: 'd4', dir: 'e'}; a unit that stays has to === from. */
export function parseAction(text) {
  const m = /^([a-p]\d+)(?:-([a-p]\d+))?(?:>([nesw]))?$/.exec(text);
  return m ? { from: m[1], to: m[2] || m[1], dir: m[3] || null } : null;
}

export const actionText = (from, to, dir) => `${from}${to && to !== from ? `-${to}` : ''}${dir ? `>${dir}` : ''}`;

/** The legal actions by unit and destination: from → to → [null (no attack), 'n', ...]. */
export function legalMoves(legal) {
  const out = new Map();
  for (const text of legal) {
    const a = parseAction(text);
    if (!a) continue;
    if (!out.has(a.from)) out.set(a.from, new Map());
    const to = out.get(a.from);
    to.set(a.to, [...(to.get(a.to) || []), a.dir]);
  }
  return out;
}

/** The board of a position: terrain lookups and living units by cell. */
export function boardOf(json) {
  const n = json.size;
  const rows = json.map || [];
  const terrain = (f, r) => (f < 0 || r < 0 || f >= n || r >= n ? null : { '.': 'earth', '#': 'wall', '~': 'water' }[rows[n - 1 - r]?.[f]] || 'earth');
  const units = new Map();
  (json.sides || []).forEach((team, side) => team.forEach((u, index) => {
    if (u.cell) units.set(u.cell, { ...u, side, index });
  }));
  return { n, terrain, units };
}

/**
 * What an attack of `kind` from `to` towards `dir` reaches, the unit having come from `from`
 * (its old cell is empty now): the cells the line crosses (an arrow's up to the unit it hits)
 * and the units hit, nearest first. Walls and the edge stop every line, water stops fire.
 */
export function attackLine(board, kind, from, to, dir) {
  const k = KINDS[kind];
  const [f0, r0] = parseCell(to);
  const [df, dr] = DIRS[dir];
  const cells = [];
  const hits = [];
  for (let step = 1; step <= k.range; step++) {
    const f = f0 + df * step;
    const r = r0 + dr * step;
    const t = board.terrain(f, r);
    if (t === null || t === 'wall' || (t === 'water' && kind === 'W')) break;
    const c = cellName(f, r);
    cells.push(c);
    const u = c === from ? null : board.units.get(c);
    if (u) {
      hits.push(u);
      if (kind !== 'W') break;
    }
  }
  return { cells, hits };
}

/** The centre of a cell in SVG units. */
export function centre(board, c) {
  const [f, r] = parseCell(c);
  return [f * S + S / 2, (board.n - 1 - r) * S + S / 2];
}

const SHAPES = {
  // A shield with a sword's cross.
  F: () => [svg('path', { d: 'M0,-9 L8,-6 L7,3 Q4,8 0,10 Q-4,8 -7,3 L-8,-6 Z', class: 'tc-glyph' }),
    svg('path', { d: 'M0,-6 V6 M-4,-2 H4', class: 'tc-glyph-cut' })],
  // A bow with its arrow.
  A: () => [svg('path', { d: 'M-3,-10 Q9,0 -3,10', class: 'tc-glyph-line' }), svg('path', { d: 'M-3,-10 V10', class: 'tc-glyph-thin' }),
    svg('path', { d: 'M-9,0 H8 M8,0 l-4,-3 M8,0 l-4,3', class: 'tc-glyph-thin' })],
  // A pointed hat with its brim.
  W: () => [svg('path', { d: 'M1,-11 L7,6 L-6,6 Z', class: 'tc-glyph' }), svg('path', { d: 'M-10,6.5 H10', class: 'tc-glyph-line' }),
    svg('circle', { cx: 1, cy: -1, r: 1.8, class: 'tc-glyph-cut-dot' })],
};

/** A unit: a disc in its side's colour with its kind's sign, and its hit points as a bar. */
export function unitIcon(u, color, x, y, extra = '') {
  const k = KINDS[u.kind];
  const share = Math.max(0, Math.min(1, u.hp / k.hp));
  const level = share > 0.6 ? 'high' : share > 0.3 ? 'mid' : 'low';
  return svg('g', {
    class: `tc-unit${u.acted ? ' acted' : ''}${extra ? ` ${extra}` : ''}`, transform: `translate(${x},${y})`,
    'data-cell': u.cell, 'data-side': u.side, 'data-kind': u.kind, 'data-hp': u.hp, 'data-acted': u.acted ? '1' : '0',
  },
  svg('title', {}, `${k.name} ${u.cell} · ${u.hp}/${k.hp} hit points${u.acted ? ' · has acted' : ''}`),
  svg('circle', { r: 14, cy: -2, class: 'tc-disc', fill: color }),
  svg('g', { transform: 'translate(0,-2)' }, SHAPES[u.kind]()),
  svg('rect', { x: -14, y: 14, width: 28, height: 4, rx: 2, class: 'tc-hp-back' }),
  svg('rect', { x: -14, y: 14, width: (28 * share).toFixed(1), height: 4, rx: 2, class: `tc-hp ${level}` }));
}

/** The terrain and the coordinates: one clickable square per cell (`.tc-cell[data-cell]`). */
export function drawTerrain(board) {
  const { n } = board;
  const cells = [];
  const marks = [];
  for (let r = 0; r < n; r++) {
    for (let f = 0; f < n; f++) {
      const t = board.terrain(f, r);
      const x = f * S;
      const y = (n - 1 - r) * S;
      cells.push(svg('rect', { x, y, width: S, height: S, class: `tc-cell ${t}${(f + r) % 2 ? ' odd' : ''}`, 'data-cell': cellName(f, r), 'data-terrain': t }));
      if (t === 'wall') marks.push(svg('path', { d: `M${x + 4},${y + 14}H${x + 36}M${x + 4},${y + 27}H${x + 36}M${x + 16},${y + 4}V${y + 14}M${x + 26},${y + 14}V${y + 27}M${x + 14},${y + 27}V${y + 36}`, class: 'tc-bricks' }));
      if (t === 'water') marks.push(svg('path', { d: `M${x + 6},${y + 16}q5,-4 9,0t9,0t9,0M${x + 6},${y + 27}q5,-4 9,0t9,0t9,0`, class: 'tc-waves' }));
    }
  }
  const labels = [];
  for (let i = 0; i < n; i++) {
    labels.push(svg('text', { x: i * S + S / 2, y: n * S + 13, class: 'tc-coord' }, String.fromCharCode(97 + i)));
    labels.push(svg('text', { x: -9, y: (n - 1 - i) * S + S / 2 + 4, class: 'tc-coord' }, String(i + 1)));
  }
  return svg('g', { class: 'tc-terrain' }, cells, svg('g', { class: 'tc-marks' }, marks), labels);
}

/** A shortest way from `from` to `to` over earth free of units (the mover's own cell aside),
 * as the cells it crosses, both ends included; the straight step if there is none. */
export function pathBetween(board, from, to) {
  const start = parseCell(from);
  const goal = parseCell(to);
  const key = ([f, r]) => f * 32 + r;
  const back = new Map([[key(start), null]]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift();
    if (at[0] === goal[0] && at[1] === goal[1]) break;
    for (const [df, dr] of Object.values(DIRS)) {
      const next = [at[0] + df, at[1] + dr];
      const c = cellName(...next);
      if (board.terrain(...next) !== 'earth' || back.has(key(next))) continue;
      if (c !== to && board.units.has(c) && c !== from) continue;
      back.set(key(next), at);
      queue.push(next);
    }
  }
  if (!back.has(key(goal))) return [from, to];
  const cells = [];
  for (let at = goal; at; at = back.get(key(at))) cells.unshift(cellName(...at));
  return cells;
}

/** An arrow along a path of cells (a move), through their centres. */
export function pathArrow(board, cells, cls) {
  if (cells.length < 2) return null;
  const pts = cells.map((c) => centre(board, c));
  const [x1, y1] = pts[pts.length - 2];
  const [x2, y2] = pts[pts.length - 1];
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [hx, hy] = [x2 - ux * 8, y2 - uy * 8];
  const line = [...pts.slice(0, -1), [hx, hy]].map(([x, y]) => `${x},${y}`).join(' ');
  return svg('g', { class: `tc-arrow ${cls}` },
    svg('polyline', { points: line }),
    svg('path', { d: `M${x2},${y2}L${hx - uy * 5},${hy + ux * 5}L${hx + uy * 5},${hy - ux * 5}Z` }));
}

/** An arrow from one cell's centre to another's. */
export function arrowLine(board, from, to, cls) {
  const [x1, y1] = centre(board, from);
  const [x2, y2] = centre(board, to);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [hx, hy] = [x2 - ux * 8, y2 - uy * 8];
  return svg('g', { class: `tc-arrow ${cls}` },
    svg('line', { x1: x1 + ux * 10, y1: y1 + uy * 10, x2: hx, y2: hy }),
    svg('path', { d: `M${x2},${y2}L${hx - uy * 5},${hy + ux * 5}L${hx + uy * 5},${hy - ux * 5}Z` }));
}

/** A square drawn over a cell, for highlights (`cls` gives its look). */
export function cellMark(board, c, cls, inset = 2) {
  const [x, y] = centre(board, c);
  return svg('rect', { x: x - S / 2 + inset, y: y - S / 2 + inset, width: S - 2 * inset, height: S - 2 * inset, rx: 5, class: cls, 'data-cell': c });
}
