// Risk's map as SVG, drawn from the board data (`GET /api/games/{id}`'s `board`: the map in its
// file format — continents with bonuses, territories with a card picture, x/y and neighbours):
// continents as tinted hulls labelled with their bonus, borders as lines (a border across the
// map's edge, Alaska–Kamchatka, as two stubs to the edges), territories as discs in their
// owner's colour with their armies. No game logic here: risk.js says what is clickable.

const NS = 'http://www.w3.org/2000/svg';
export const RADIUS = 19;
const HULL_PAD = 34;
// The overlay's arrows: an attack, a move of armies, the player's own plan.
const ARROWS = [['attack', '#d62f35'], ['move', '#17844f'], ['plan', '#e0a100']];
const TINTS = ['#f2c14e', '#ee8a5f', '#6f9fd8', '#c79a6b', '#78bf7c', '#b48ad6', '#5fc3c0', '#e07fae'];

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child);
  return el;
}

/** A territory's name in notation: lower case, words joined by '-'. */
export const slug = (name) => name.trim().split(/\s+/).map((w) => w.toLowerCase()).join('-');

/** A slug read back as words, for maps this page has not seen. */
export const titleCase = (s) => s.split('-').map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w)).join(' ');

const SHORT = [[/\bUnited States\b/, 'US'], [/^Northwest\b/, 'NW'], [/^Western\b/, 'W.'], [/^Eastern\b/, 'E.'],
  [/^Northern\b/, 'N.'], [/^Southern\b/, 'S.'], [/^Central\b/, 'C.'], [/^Great\b/, 'G.']];

/** A short label for the map: compass words and "United States" abbreviated. */
export function shortName(name) {
  let out = name;
  for (const [re, to] of SHORT) out = out.replace(re, to);
  return out;
}

/** The convex hull of points (monotone chain), counter-clockwise. */
function hull(points) {
  const ps = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (ps.length < 3) return ps;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  for (const p of ps) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (const p of ps.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** How far a point is from a hull (a polygon, a segment or a point): 0 inside. */
function hullDistance(poly, x, y) {
  const seg = ([ax, ay], [bx, by]) => {
    const [dx, dy] = [bx - ax, by - ay];
    const t = dx || dy ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy))) : 0;
    return Math.hypot(ax + t * dx - x, ay + t * dy - y);
  };
  if (poly.length === 1) return seg(poly[0], poly[0]);
  let inside = poly.length >= 3;
  let d = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    if ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) < 0) inside = false;
    d = Math.min(d, seg(a, b));
  }
  return inside ? 0 : d;
}

/** The room between two boxes {x, y, hw, hh} (centre, half sizes): negative if they overlap. */
function gap(a, b) {
  return Math.max(Math.abs(a.x - b.x) - a.hw - b.hw, Math.abs(a.y - b.y) - a.hh - b.hh);
}

/** Where a continent's label goes: on its tinted hull, clear of the territories, their names and
 * the labels already placed if it can be, and then as near its middle as can be. */
function labelSpot(continent, all, placed, width, height) {
  const members = continent.members;
  const text = `${continent.name} +${continent.bonus}`;
  const box = (x, y) => ({ x, y: y - 4, hw: text.length * 5.4 + 4, hh: 9 });
  const xs = members.map((t) => t.x);
  const ys = members.map((t) => t.y);
  const [cx, cy] = [xs.reduce((a, b) => a + b) / xs.length, ys.reduce((a, b) => a + b) / ys.length];
  let best = null;
  for (let x = Math.min(...xs) - HULL_PAD; x <= Math.max(...xs) + HULL_PAD; x += 6) {
    for (let y = Math.min(...ys) - HULL_PAD; y <= Math.max(...ys) + HULL_PAD; y += 4) {
      const b = box(x, y);
      if (b.x - b.hw < 4 || b.x + b.hw > width - 4 || b.y - b.hh < 4 || b.y + b.hh > height - 4) continue;
      if (hullDistance(continent.hull, x, y) > HULL_PAD * 0.7) continue;
      const room = Math.min(...all.map((t) => gap(b, t.box)), ...placed.map((p) => gap(b, p)));
      const score = Math.min(room, 12) * 100 - Math.hypot(x - cx, (y - cy) * 1.5);
      if (!best || score > best.score) best = { x, y, room, score, box: b };
    }
  }
  if (!best) {
    const low = members.reduce((a, c) => (c.y > a.y ? c : a));
    best = { x: low.x, y: Math.min(height - 8, low.y + RADIUS + 30) };
    best.box = box(best.x, best.y);
  }
  placed.push(best.box);
  return best;
}

/** The map's geometry, from the board data: territories by slug with their continent and
 * neighbours, continents with their hulls, the borders. */
export function mapModel(board) {
  const width = board.width || 1000;
  const height = board.height || 600;
  const continents = board.continents.map((c, i) => ({ ...c, index: i, tint: TINTS[i % TINTS.length], members: [] }));
  const byName = new Map(continents.map((c) => [c.name, c]));
  const territories = board.territories.map((t, i) => ({
    ...t, index: i, slug: slug(t.name), short: shortName(t.name), continent: byName.get(t.continent),
  }));
  const bySlug = new Map(territories.map((t) => [t.slug, t]));
  const byTerritoryName = new Map(territories.map((t) => [t.name, t]));
  for (const t of territories) {
    t.continent.members.push(t);
    t.adjacent = new Set(t.neighbours.map((n) => (byTerritoryName.get(n) || bySlug.get(slug(n))).slug));
  }
  for (const t of territories) {
    // The disc and the name under it, as a box that labels keep clear of.
    const hw = Math.max(RADIUS, t.short.length * 3.3);
    t.box = { x: t.x, y: t.y + 9, hw, hh: RADIUS + 9 };
  }
  const placed = [];
  for (const c of continents) {
    c.hull = hull(c.members.map((t) => [t.x, t.y]));
    c.label = labelSpot(c, territories, placed, width, height);
  }
  const borders = [];
  for (const a of territories) {
    for (const s of a.adjacent) {
      const b = bySlug.get(s);
      if (b.index > a.index) borders.push([a, b]);
    }
  }
  return { width, height, continents, territories, bySlug, borders, wrap: (a, b) => Math.abs(a.x - b.x) > width / 2 };
}

/** A border as line segments: one, or two stubs to the map's edges for a border that wraps. */
function borderSegments(model, a, b) {
  if (!model.wrap(a, b)) return [[a.x, a.y, b.x, b.y]];
  const [left, right] = a.x < b.x ? [a, b] : [b, a];
  const W = model.width;
  // The straight line from `left` to `right` seen one map-width further left, cut at x = 0.
  const t = left.x / (left.x + (W - right.x));
  const y = left.y + (right.y - left.y) * t;
  return [[left.x, left.y, 0, y], [right.x, right.y, W, y]];
}

/** Builds the static layers (ocean, continents, borders) and one group per territory; returns
 * the elements risk.js updates. */
export function drawMap(model, onTerritory) {
  const { width, height } = model;
  const root = svg('svg', {
    class: 'rk-map', viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': 'Risk map',
    'data-territories': model.territories.length,
  });
  const defs = svg('defs', {},
    ARROWS.map(([kind, colour]) => svg('marker', {
      id: `rk-arrow-${kind}`, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto',
    }, svg('path', { d: 'M0 0L10 5L0 10z', fill: colour }))),
    svg('linearGradient', { id: 'rk-sea', x1: 0, y1: 0, x2: 0, y2: 1 },
      svg('stop', { offset: '0', 'stop-color': '#e4eef8' }), svg('stop', { offset: '1', 'stop-color': '#d3e3f2' })));
  const sea = svg('rect', { class: 'rk-sea', x: 0, y: 0, width, height, rx: 18, fill: 'url(#rk-sea)' });
  const hulls = svg('g', { class: 'rk-continents' });
  const labels = svg('g', { class: 'rk-continent-labels' });
  const continentLabels = new Map();
  for (const c of model.continents) {
    const points = c.hull.map((p) => p.join(',')).join(' ');
    const shape = c.hull.length >= 3
      ? svg('polygon', { points })
      : c.hull.length === 2 ? svg('polyline', { points }) : svg('circle', { cx: c.hull[0][0], cy: c.hull[0][1], r: 1 });
    hulls.append(svg('g', { class: 'rk-continent', fill: c.tint, stroke: c.tint, 'stroke-width': HULL_PAD * 2, 'data-continent': c.name }, shape));
    const holder = svg('circle', { class: 'rk-holder', r: 6, cx: 0, cy: -4, visibility: 'hidden' });
    const label = svg('g', { class: 'rk-continent-label', transform: `translate(${c.label.x} ${c.label.y})` },
      svg('text', { class: 'rk-continent-name', 'text-anchor': 'middle' },
        svg('tspan', {}, c.name.toUpperCase()), svg('tspan', { class: 'rk-bonus', dx: 6 }, `+${c.bonus}`)),
      holder);
    continentLabels.set(c.name, { label, holder, text: label.firstChild });
    labels.append(label);
  }
  const lines = svg('g', { class: 'rk-borders' });
  for (const [a, b] of model.borders) {
    for (const [x1, y1, x2, y2] of borderSegments(model, a, b)) {
      lines.append(svg('line', { x1, y1, x2, y2, class: model.wrap(a, b) ? 'rk-border wrap' : 'rk-border', 'data-border': `${a.slug} ${b.slug}` }));
    }
  }
  const nodes = new Map();
  const nodeLayer = svg('g', { class: 'rk-nodes' });
  const names = svg('g', { class: 'rk-names' });
  for (const t of model.territories) {
    const title = svg('title', {}, t.name);
    const disc = svg('circle', { class: 'rk-disc', r: RADIUS });
    const count = svg('text', { class: 'rk-count', 'text-anchor': 'middle', dy: '0.35em' });
    const g = svg('g', {
      class: 'rk-node', transform: `translate(${t.x} ${t.y})`, 'data-t': t.slug, tabindex: 0, role: 'button',
    }, title, svg('circle', { class: 'rk-ring', r: RADIUS + 6 }), disc, count);
    g.addEventListener('click', () => onTerritory(t.slug));
    g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onTerritory(t.slug); } });
    nodes.set(t.slug, { g, disc, count, title });
    nodeLayer.append(g);
    names.append(svg('text', { class: 'rk-name', x: t.x, y: t.y + RADIUS + 13, 'text-anchor': 'middle' }, t.short));
  }
  const overlay = svg('g', { class: 'rk-overlay' });
  root.append(defs, sea, hulls, labels, lines, names, nodeLayer, overlay);
  return { root, nodes, overlay, continentLabels };
}

/** An arrow from one territory to another for the overlay (a stub to the edge across a wrapping
 * border), shortened to stop at the discs. */
export function arrow(model, a, b, cls) {
  const [seg] = model.wrap(a, b) ? borderSegments(model, a, b).filter((s) => s[0] === a.x && s[1] === a.y) : [[a.x, a.y, b.x, b.y]];
  const [x1, y1, x2, y2] = seg;
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const end = model.wrap(a, b) ? 0 : RADIUS + 4;
  return svg('line', {
    class: `rk-arrow ${cls}`, x1: x1 + ux * (RADIUS + 2), y1: y1 + uy * (RADIUS + 2), x2: x2 - ux * end, y2: y2 - uy * end,
    'marker-end': `url(#rk-arrow-${cls})`,
  });
}
