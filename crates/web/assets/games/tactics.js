// Tactics: the squad battle's grid (terrain, units by kind and side, hit points), the human's
// orders by clicks — a unit, then where it goes, then an attack or none, sent as one action —
// and every unit action of the other side shown as it comes (the server paces an AI's actions by
// the game's speed, one unit each), with a cursor on the unit that acted and its attack line.
// Moves are only ever the legal ones the server lists (`snap.legal`: `b2`, `b2>n`, `b2-d4`,
// `b2-d4>e`); docs/tactics.md has the rules and the position's JSON.
import { h, clear } from '../ui.js';
import { svg } from './risk-map.js';
import {
  KINDS, DIR_NAMES, DIR_ARROWS, S, parseAction, actionText, legalMoves, boardOf, attackLine,
  centre, unitIcon, drawTerrain, arrowLine, cellMark, parseCell, pathBetween, pathArrow,
} from './tactics-grid.js';

export const SEATS = [{ name: 'Blue', color: '#3e63dd' }, { name: 'Red', color: '#e5484d' }];
const unitName = (u) => `${SEATS[u.side].name}'s ${KINDS[u.kind].name} on ${u.cell}`;

/** An action in words, without the position: "b2 → d4, attacks east". */
export function describe(text) {
  const deal = /^deal:(\d+)$/.exec(text);
  if (deal) return `map #${deal[1]}`;
  const a = parseAction(text);
  if (!a) return text;
  const move = a.to === a.from ? `${a.from} stays` : `${a.from} → ${a.to}`;
  return a.dir ? `${move}, attacks ${DIR_NAMES[a.dir]}` : move;
}

export default {
  name: 'tactics',
  title: 'Tactics',
  seats: () => SEATS,
  // The document's AI when it is there, else the document's baseline.
  defaultAgent: ['scenario', 'max_agro'],
  lobbyOptions: ['map_seed', 'handicap', 'size'],
  // The agents' parameters shown unfolded in the lobby when an agent has them.
  agentParams: ['level', 'personality', 'order'],
  optionChoices: {
    handicap: [['0', 'none'], ['1', 'Blue +1 fighter'], ['-1', 'Blue −1 unit']],
    size: ['8', '9', '10', '11', '12', '13', '14', '15', '16'],
  },
  formatAction: (record) => (/^deal:/.test(record.action) ? describe(record.action) : record.action),
  thumb() {
    const cell = (x, y, cls) => svg('rect', { x, y, width: 16, height: 16, class: cls });
    return [svg('svg', { class: 'tc-thumb', viewBox: '0 0 54 54', width: 52, height: 52 },
      [0, 18, 36].flatMap((y) => [0, 18, 36].map((x) => cell(x + 1, y + 1, x === 18 && y === 18 ? 'tc-thumb-wall' : x === 36 && y === 0 ? 'tc-thumb-water' : 'tc-thumb-earth'))),
      svg('circle', { cx: 9, cy: 45, r: 6, fill: SEATS[0].color }), svg('circle', { cx: 45, cy: 27, r: 6, fill: SEATS[1].color }),
      svg('path', { d: 'M15 45H37', class: 'tc-thumb-shot' }))];
  },

  mount(root, ctx) {
    const svgRoot = svg('svg', { class: 'tc-board', role: 'grid', 'aria-label': 'Tactics board' });
    const layers = {
      terrain: svg('g'), marks: svg('g', { class: 'tc-layer' }), units: svg('g', { class: 'tc-layer' }),
      plan: svg('g', { class: 'tc-layer' }), last: svg('g', { class: 'tc-layer' }),
    };
    svgRoot.append(layers.terrain, layers.marks, layers.last, layers.units, layers.plan);
    const info = h('div.tc-info', { dataset: { testid: 'tc-info' } });
    const prompt = h('div.tc-prompt', { dataset: { testid: 'tc-prompt' }, 'aria-live': 'polite' });
    const buttons = h('div.tc-buttons', { dataset: { testid: 'tc-actions' } });
    const lastBox = h('div.tc-last', { dataset: { testid: 'tc-last' } });
    const rosters = h('div.tc-rosters', { dataset: { testid: 'tc-rosters' } });
    const frame = h('div.tc-board-frame', svgRoot);
    const wrap = h('div.tc-wrap', info, frame, h('div.tc-panel', h('div.tc-act', prompt, buttons), lastBox), rosters);
    clear(root, wrap);

    let snap = null;
    let json = null;
    let board = null;
    let moves = new Map();
    let sel = { from: null, to: null };
    let note = '';
    let key = '';
    let terrainKey = '';
    let lastKey = '';
    let ending = false;
    let destroyed = false;
    // Positions seen, by ply: the one before an action tells whom its attack hit (a unit it
    // killed is gone from the position after).
    const seen = new Map();

    svgRoot.addEventListener('click', (e) => {
      const target = e.target.closest('[data-cell]');
      if (target) onCell(target.dataset.cell);
    });
    const onKey = (e) => {
      if (e.key === 'Escape' && sel.from) { sel = { from: null, to: null }; note = ''; draw(); }
    };
    document.addEventListener('keydown', onKey);

    const mover = () => (sel.from ? board.units.get(sel.from) : null);
    /** The attacks offered from the chosen destination: dir → its line. */
    function attacksHere() {
      const u = mover();
      if (!u || !sel.to) return new Map();
      const dirs = moves.get(sel.from)?.get(sel.to) || [];
      return new Map(dirs.filter(Boolean).map((d) => [d, attackLine(board, u.kind, sel.from, sel.to, d)]));
    }

    function send(from, to, dir) {
      const text = actionText(from, to, dir);
      // Only ever what the server listed.
      if (!snap.legal.includes(text)) return;
      sel = { from: null, to: null };
      note = '';
      draw();
      ctx.play(text);
    }

    function onCell(c) {
      if (!snap || !snap.legal.length || ending) return;
      note = '';
      if (sel.from && sel.to) {
        for (const [d, line] of attacksHere()) if (line.cells.includes(c)) return send(sel.from, sel.to, d);
      }
      if (sel.from && moves.get(sel.from).has(c)) return chooseDestination(c);
      if (moves.has(c)) {
        sel = { from: c, to: null };
        return draw();
      }
      note = whyNot(c);
      draw();
    }

    function chooseDestination(c) {
      const dirs = moves.get(sel.from).get(c);
      // Moving where no attack is possible needs no second click; staying put does (a skip).
      if (c !== sel.from && !dirs.some(Boolean)) return send(sel.from, c, null);
      sel.to = c;
      draw();
    }

    /** Why a click leads nowhere, in words. */
    function whyNot(c) {
      const u = board.units.get(c);
      const [f, r] = parseCell(c);
      const t = board.terrain(f, r);
      const m = mover();
      if (u && u.side !== json.player) return m ? `${unitName(u)} is out of reach: the ${KINDS[m.kind].name} on ${m.cell} attacks from where it stops.` : `That is ${unitName(u)}: click one of your units.`;
      if (u && u.acted) return `The ${KINDS[u.kind].name} on ${c} has already acted this turn.`;
      if (t === 'wall' || t === 'water') return `${c} is ${t === 'wall' ? 'a wall' : 'water'}: no unit stands there.`;
      if (m) return `The ${KINDS[m.kind].name} on ${m.cell} cannot get to ${c} this turn (it moves ${KINDS[m.kind].moves}, around walls, water and units).`;
      return 'Click one of your units that has not acted yet.';
    }

    /** "End turn": every unit that has not acted stays without attacking, one action each. */
    async function endTurn() {
      ending = true;
      sel = { from: null, to: null };
      draw();
      try {
        for (const c of [...moves.keys()]) {
          if (destroyed || !snap.legal.includes(c)) break;
          await ctx.play(c);
        }
      } finally {
        ending = false;
        if (!destroyed) draw();
      }
    }

    function drawTerrainOnce() {
      const k = `${json.size}|${(json.map || []).join('/')}`;
      if (k === terrainKey) return;
      terrainKey = k;
      const pad = 18;
      svgRoot.setAttribute('viewBox', `${-pad} -4 ${board.n * S + pad + 4} ${board.n * S + pad + 4}`);
      svgRoot.style.maxWidth = `${Math.max(520, board.n * 52)}px`;
      layers.terrain.replaceChildren(drawTerrain(board));
    }

    function drawUnits() {
      const own = snap.legal.length ? json.player : null;
      const attacks = attacksHere();
      const hit = new Set([...attacks.values()].flatMap((l) => l.hits.map((u) => u.cell)));
      const items = [];
      for (const u of board.units.values()) {
        const [x, y] = centre(board, u.cell);
        const cls = [
          u.side === own && moves.has(u.cell) && !sel.from ? 'can' : '',
          sel.from === u.cell ? (sel.to && sel.to !== sel.from ? 'leaving' : 'selected') : '',
          hit.has(u.cell) ? 'target' : '',
        ].filter(Boolean).join(' ');
        items.push(unitIcon(u, SEATS[u.side].color, x, y + 2, cls));
      }
      // The chosen unit where it would stand.
      const m = mover();
      if (m && sel.to && sel.to !== sel.from) {
        const [x, y] = centre(board, sel.to);
        items.push(unitIcon({ ...m, cell: sel.to }, SEATS[m.side].color, x, y + 2, 'ghost selected'));
      }
      layers.units.replaceChildren(...items);
    }

    function drawMarks() {
      const marks = [];
      const plan = [];
      if (sel.from) {
        const dests = moves.get(sel.from);
        for (const [c, dirs] of dests) {
          const cls = `tc-reach${dirs.some(Boolean) ? ' can-attack' : ''}${c === sel.to ? ' dest' : ''}`;
          marks.push(cellMark(board, c, cls));
          if (dirs.some(Boolean)) {
            const [x, y] = centre(board, c);
            marks.push(svg('circle', { cx: x + 13, cy: y - 13, r: 3.5, class: 'tc-attack-dot' }));
          }
        }
        if (sel.to && sel.to !== sel.from) plan.push(pathArrow(board, pathBetween(board, sel.from, sel.to), 'move plan'));
        for (const [d, line] of attacksHere()) {
          for (const c of line.cells) marks.push(cellMark(board, c, 'tc-line', 4));
          if (line.cells.length) plan.push(arrowLine(board, sel.to, line.cells[line.cells.length - 1], `attack plan dir-${d}`));
        }
      }
      layers.marks.replaceChildren(...marks);
      layers.plan.replaceChildren(...plan);
      // The cells' own classes, for the eye (cursor) and for tests.
      const reach = sel.from ? moves.get(sel.from) : new Map();
      const lines = new Map();
      for (const [d, line] of attacksHere()) for (const c of line.cells) lines.set(c, d);
      for (const el of layers.terrain.querySelectorAll('.tc-cell')) {
        const c = el.dataset.cell;
        el.classList.toggle('reach', reach.has(c));
        el.classList.toggle('attack-from', Boolean(reach.get(c)?.some(Boolean)));
        el.classList.toggle('line', lines.has(c));
        if (lines.has(c)) el.dataset.dir = lines.get(c); else delete el.dataset.dir;
        el.classList.toggle('selectable', !sel.from && moves.has(c));
      }
      svgRoot.classList.toggle('interactive', snap.legal.length > 0 && !ending);
    }

    /** The last unit action: a cursor on the unit that acted, its path and its attack line, and
     * what the attack did (from the position before it, when this page saw it). */
    function drawLast() {
      const acts = snap.actions;
      const i = acts.length - 1;
      const k = `${i}|${acts[i]?.action}|${snap.replay}`;
      if (k === lastKey) return;
      lastKey = k;
      const rec = acts[i];
      const a = rec ? parseAction(rec.action) : null;
      if (!a || rec.player === null || rec.player === undefined) {
        layers.last.replaceChildren();
        clear(lastBox, h('div.muted.small', rec ? `The map is drawn: ${describe(rec.action)}.` : 'Nothing played yet.'));
        return;
      }
      const before = seen.get(i);
      const prev = before ? boardOf(before) : null;
      const actor = prev?.units.get(a.from) || board.units.get(a.to);
      const items = [];
      if (a.to !== a.from) {
        // The way it went: through the position before (a unit its attack killed blocked it).
        const way = prev ? pathBetween(prev, a.from, a.to) : [a.from, a.to];
        items.push(pathArrow(board, way, 'move last'));
      }
      let hits = [];
      if (a.dir && actor) {
        const line = attackLine(prev || board, actor.kind, a.from, a.to, a.dir);
        // Without the position before, the damage done is unknown: the line only.
        hits = prev ? line.hits : [];
        for (const c of line.cells) items.push(cellMark(board, c, 'tc-shot', 5));
        if (line.cells.length) items.push(arrowLine(board, a.to, line.cells[line.cells.length - 1], 'attack last'));
      }
      items.push(cellMark(board, a.to, 'tc-cursor', 1));
      const words = [];
      for (const u of hits) {
        const now = json.sides[u.side][u.index];
        const lost = u.hp - now.hp;
        const [x, y] = centre(board, u.cell);
        items.push(svg('text', { x, y: y - 8, class: `tc-float${now.hp ? '' : ' dead'}` }, now.hp ? `−${lost}` : '✕'));
        words.push(`${unitName(u)} ${now.hp ? `−${lost}` : 'killed'}`);
      }
      layers.last.replaceChildren(...items);
      const who = SEATS[rec.player];
      clear(lastBox,
        h('h4', 'Last action'),
        h('div.tc-last-line', h('span.dot', { style: { background: who.color } }),
          `${who.name}: ${actor ? `${KINDS[actor.kind].name} ` : ''}${describe(rec.action)}`),
        words.length ? h('div.small', words.join(' · ')) : null);
    }

    function drawChoices() {
      const parts = [];
      let text = '';
      const m = mover();
      if (json.phase === 'deal') text = 'Drawing the map…';
      else if (json.phase === 'over') text = overText();
      else if (ending) text = 'Ending the turn: the units left stay where they are…';
      else if (!snap.legal.length) text = snap.replay ? 'Replay: the position after the chosen action.' : `${SEATS[json.player].name} is playing…`;
      else if (!m) {
        text = `Your turn: click one of your units (${moves.size} left to act), then where it goes.`;
        parts.push(h('button.btn.small', { dataset: { testid: 'tc-end-turn' }, onclick: endTurn, title: 'The units that have not acted stay where they are, without attacking' },
          moves.size === 1 ? 'End turn (the last unit stays)' : `End turn (the ${moves.size} units left stay)`));
      } else if (!sel.to) {
        text = `The ${KINDS[m.kind].name} on ${m.cell}: click a green cell to move there (a red dot: it can attack from there), or the unit itself to stay.`;
        parts.push(cancel());
      } else {
        const attacks = attacksHere();
        text = `The ${KINDS[m.kind].name} ${sel.to === sel.from ? `stays on ${sel.to}` : `moves to ${sel.to}`}: ${attacks.size ? 'attack — click a red line or a button — or not.' : 'no attack is possible from there.'}`;
        for (const [d, line] of attacks) {
          const hits = line.hits.map((u) => `${u.side === m.side ? 'own ' : ''}${KINDS[u.kind].name} ${u.cell}`).join(', ');
          parts.push(h('button.btn.primary.small', { dataset: { testid: 'tc-attack', dir: d }, onclick: () => send(sel.from, sel.to, d) },
            `${DIR_ARROWS[d]} Attack ${DIR_NAMES[d]}: ${hits}`));
        }
        parts.push(h('button.btn.small', { dataset: { testid: 'tc-no-attack' }, onclick: () => send(sel.from, sel.to, null) },
          sel.to === sel.from ? 'Stay, no attack' : 'No attack'));
        parts.push(cancel());
      }
      prompt.textContent = text;
      if (note) prompt.append(h('div.tc-note', { dataset: { testid: 'tc-note' } }, note));
      clear(buttons, parts);
    }

    const cancel = () => h('button.btn.small', { dataset: { testid: 'tc-cancel' }, onclick: () => { sel = { from: null, to: null }; draw(); } }, 'Cancel');

    function overText() {
      const alive = json.sides.map((t) => t.filter((u) => u.cell).length);
      const [v0, v1] = json.values || [0, 0];
      if (!alive[0] || !alive[1]) return `${SEATS[alive[0] ? 0 : 1].name} wins: the other side has no unit left.`;
      const verdict = v0 === v1 ? 'a draw' : `${SEATS[v0 > v1 ? 0 : 1].name} wins`;
      return `The turn cap is reached: ${verdict} on the units' value left (${v0.toLocaleString()} against ${v1.toLocaleString()}).`;
    }

    function drawInfo() {
      const cap = /(?:^|,)max_turns=(\d+)/.exec(snap.view?.options || '');
      const chips = [];
      if (json.phase === 'play') {
        const who = SEATS[json.player];
        chips.push(h('span.tc-chip.turn', h('span.dot', { style: { background: who.color } }), `${who.name} to move`));
      } else chips.push(h('span.tc-chip.turn', json.phase === 'over' ? 'Game over' : 'Drawing the map'));
      if (json.round > 0) chips.push(h('span.tc-chip', `Round ${Math.min(json.round, Number(cap?.[1] || json.round))}${cap ? ` of ${cap[1]}` : ''}`));
      (json.sides || []).forEach((team, side) => {
        const alive = team.filter((u) => u.cell).length;
        chips.push(h('span.tc-chip', { dataset: { side } }, h('span.dot', { style: { background: SEATS[side].color } }),
          `${alive} unit${alive === 1 ? '' : 's'} · value ${Math.round((json.values?.[side] || 0) / 1000)}k`));
      });
      clear(info, chips);
    }

    function drawRosters() {
      if (!json.sides) return clear(rosters);
      clear(rosters, json.sides.map((team, side) => h('div.tc-roster', { dataset: { side } },
        h('h4', h('span.dot', { style: { background: SEATS[side].color } }), SEATS[side].name),
        h('ol', team.map((u) => {
          const k = KINDS[u.kind];
          return h(`li${u.cell ? '' : '.dead'}${u.acted ? '.acted' : ''}`,
            h('span.tc-kind', u.kind), h('span.tc-name', k.name), h('span.tc-where', u.cell || 'dead'),
            h('span.tc-bar', h('i', { style: { width: `${(100 * u.hp) / k.hp}%` } })), h('span.tc-hpn', `${u.hp}/${k.hp}`));
        })))));
    }

    function draw() {
      drawInfo();
      if (json.map && json.sides) {
        drawTerrainOnce();
        drawMarks();
        drawUnits();
        drawLast();
      }
      drawChoices();
      drawRosters();
    }

    return {
      render(next) {
        snap = next;
        json = snap.position.json;
        seen.set(snap.actions.length, json);
        board = boardOf(json);
        moves = legalMoves(snap.legal);
        const k = `${snap.actions.length}|${snap.legal.length}`;
        if (k !== key) {
          key = k;
          note = '';
          sel = { from: null, to: null };
        }
        wrap.dataset.phase = json.phase;
        wrap.dataset.ply = snap.actions.length;
        wrap.dataset.player = json.player;
        frame.classList.toggle('hidden', !(json.map && json.sides));
        draw();
      },
      destroy() { destroyed = true; document.removeEventListener('keydown', onKey); },
    };
  },
};
