// Risk: the map (risk-map.js, from the board data), the phase and its choices, the player's
// cards, the dice, every seat's territories, armies and number of cards, and the turn's log.
// Moves are only ever the legal ones the server lists (`snap.legal`, Risk's text notation):
// `place alaska 3`, `trade alaska peru wild1`, `attack a b`, `blitz a b`, `occupy 3`,
// `end-attack`, `fortify a b 2`, `end-turn`, `pick alaska`; chance: `deal alaska 0`,
// `roll 1:1` (the attacker loses 1, the defender 1), `draw alaska`.
import { h, clear } from '../ui.js';
import { mapModel, drawMap, arrow, svg, titleCase } from './risk-map.js';

export const SEATS = [
  { name: 'Red', color: '#e5484d' }, { name: 'Blue', color: '#3e63dd' }, { name: 'Green', color: '#18945c' },
  { name: 'Yellow', color: '#d9a012' }, { name: 'Purple', color: '#8e4ec6' }, { name: 'Teal', color: '#0d9ab0' },
];
const NEUTRAL = { name: 'Neutral', color: '#9aa0b4' };
const KINDS = { infantry: ['♟', 'Infantry'], cavalry: ['♞', 'Cavalry'], artillery: ['✸', 'Artillery'], wild: ['★', 'Wild'] };
const PHASES = {
  deal: 'Dealing the territories', pick: 'Picking territories', setup: 'Placing starting armies', draft: 'Draft',
  attack: 'Attack', battle: 'Battle', blitz: 'Blitz', occupy: 'Moving in', fortify: 'Fortify', draw: 'Drawing a card', over: 'Game over',
};

// Territory names by slug, from the last map drawn (a record can be formatted without one).
const names = new Map();
const nameOf = (s) => names.get(s) || titleCase(s);
const cardName = (c) => (/^wild\d+$/.test(c) ? 'Wild' : nameOf(c));
const ownerOf = (o) => (o === 'neutral' ? NEUTRAL : SEATS[o] || NEUTRAL);

/** What a roll (or a battle's rolls) cost: "attacker −1, defender −1", "defender −2". */
const losses = (a, d) => [a ? `attacker −${a}` : '', d ? `defender −${d}` : ''].filter(Boolean).join(', ');

/** An action's text in words: `place alaska 3` is "+3 Alaska". */
export function describe(text) {
  const w = text.split(/\s+/);
  const n = (i) => nameOf(w[i]);
  switch (w[0]) {
    case 'deal': return w[2] === 'open' ? `${n(1)} open` : `${n(1)}: ${ownerOf(w[2] === 'neutral' ? 'neutral' : Number(w[2])).name}`;
    case 'pick': return `picks ${n(1)}`;
    case 'place': return `+${w[2]} ${n(1)}`;
    case 'trade': return `trades ${w.slice(1).map(cardName).join(', ')}`;
    case 'attack': return `${n(1)} attacks ${n(2)}`;
    case 'blitz': return `${n(1)} blitzes ${n(2)}`;
    case 'roll': {
      const [a, d] = w[1].split(':').map(Number);
      return losses(a, d);
    }
    case 'occupy': return `moves in ${w[1]}`;
    case 'end-attack': return 'ends the attack';
    case 'fortify': return `moves ${w[3]} from ${n(1)} to ${n(2)}`;
    case 'end-turn': return 'ends the turn';
    case 'draw': return `draws ${cardName(w[1])}`;
    default: return /draws a card$/.test(text) ? 'draws a card' : text;
  }
}

/** The legal moves, sorted by kind. */
function parseLegal(legal) {
  const out = { pick: new Set(), place: new Map(), trade: [], attack: new Map(), occupy: [], fortify: new Map(), endAttack: false, endTurn: false };
  const add = (map, from, to, value) => {
    if (!map.has(from)) map.set(from, new Map());
    const inner = map.get(from);
    inner.set(to, [...(inner.get(to) || []), value]);
  };
  for (const a of legal) {
    const w = a.split(' ');
    if (w[0] === 'pick') out.pick.add(w[1]);
    else if (w[0] === 'place') out.place.set(w[1], [...(out.place.get(w[1]) || []), Number(w[2])]);
    else if (w[0] === 'trade') out.trade.push(a);
    else if (w[0] === 'attack' || w[0] === 'blitz') add(out.attack, w[1], w[2], w[0]);
    else if (w[0] === 'occupy') out.occupy.push(Number(w[1]));
    else if (w[0] === 'fortify') add(out.fortify, w[1], w[2], Number(w[3]));
    else if (a === 'end-attack') out.endAttack = true;
    else if (a === 'end-turn') out.endTurn = true;
  }
  return out;
}

/** The battle a roll belongs to: the attack or blitz before it. */
function battleOf(actions, i) {
  for (let j = i - 1; j >= 0; j--) {
    const w = actions[j].action.split(' ');
    if (w[0] === 'attack' || w[0] === 'blitz') return { kind: w[0], from: w[1], to: w[2], player: actions[j].player };
  }
  return null;
}

/** A die of a roll's compared pair: the attacker's red, the defender's white; the loser's struck. */
function dieIcon(side, lost) {
  return h(`span.rk-die.${side}${lost ? '.lost' : ''}`, { title: `${side}${lost ? ' loses an army' : ' wins'}` }, lost ? '✕' : '✓');
}

export default {
  name: 'risk',
  title: 'Risk',
  seats: (n) => SEATS.slice(0, n),
  defaultAgent: 'planner',
  // The lobby shows these first; the rest (cards, fortify, neutral, map, max_rounds) fold away.
  lobbyOptions: ['players', 'rules', 'setup'],
  optionChoices: {
    players: ['2', '3', '4', '5', '6'],
    rules: ['classic', 'document'],
    setup: [['deal', 'dealt at random'], ['pick', 'picked in turn']],
    cards: ['escalating', 'fixed'],
    fortify: ['adjacent', 'connected'],
    neutral: [['false', 'no'], ['true', 'yes (two players)']],
  },
  formatAction: (record) => describe(record.action),
  thumb() {
    const dots = [[10, 14, 0], [30, 8, 1], [44, 26, 0], [22, 34, 2], [44, 44, 1]];
    return [svg('svg', { class: 'rk-thumb', viewBox: '0 0 54 54', width: 52, height: 52 },
      svg('path', { d: 'M10 14L30 8L44 26L22 34L10 14M22 34L44 44L44 26', class: 'rk-thumb-line' }),
      dots.map(([x, y, s]) => svg('circle', { cx: x, cy: y, r: 6, fill: SEATS[s].color })))];
  },

  mount(root, ctx) {
    if (!ctx.board) {
      clear(root, h('p.muted', 'This game has no map to draw.'));
      return { render() {}, destroy() {} };
    }
    const model = mapModel(ctx.board);
    for (const t of model.territories) names.set(t.slug, t.name);
    const map = drawMap(model, onTerritory);
    const info = h('div.rk-info', { dataset: { testid: 'rk-info' } });
    const prompt = h('div.rk-prompt', { dataset: { testid: 'rk-prompt' }, 'aria-live': 'polite' });
    const buttons = h('div.rk-buttons', { dataset: { testid: 'rk-actions' } });
    const dice = h('div.rk-dice', { dataset: { testid: 'rk-dice' } });
    const hand = h('div.rk-hand', { dataset: { testid: 'rk-hand' } });
    const seatsBox = h('div.rk-seats', { dataset: { testid: 'rk-seats' } });
    const log = h('div.rk-log', { dataset: { testid: 'rk-log' } });
    const wrap = h('div.rk-wrap', info, h('div.rk-map-frame', map.root),
      h('div.rk-panel', h('div.rk-act', prompt, buttons), dice),
      h('div.rk-panel', h('div.rk-side', h('h4', 'Your cards'), hand), h('div.rk-side', h('h4', 'Players'), seatsBox)),
      h('div.rk-side', h('h4', 'Latest turn'), log));
    clear(root, wrap);

    let snap = null;
    let json = null;
    let moves = parseLegal([]);
    let sel = { from: null, to: null };
    let note = '';
    let key = '';
    let rollsSeen = -1;
    let diceTimer = null;
    const cell = (s) => json.territories[model.bySlug.get(s).index];
    const mine = (s) => cell(s).owner === json.player;

    function onTerritory(s) {
      if (!snap || !snap.legal.length) return;
      note = '';
      const t = model.bySlug.get(s);
      if (moves.pick.has(s)) return void ctx.play(`pick ${s}`);
      if (json.phase === 'setup' && moves.place.has(s)) return void ctx.play(`place ${s} 1`);
      if (moves.place.size) {
        if (moves.place.has(s)) sel = { from: s, to: null };
        else note = `${t.name} is not yours: place your armies on your own territories.`;
      } else if (moves.attack.size) {
        if (sel.from && moves.attack.get(sel.from)?.has(s)) sel.to = s;
        else if (moves.attack.has(s)) sel = { from: s, to: null };
        else if (!mine(s)) note = sel.from ? `${t.name} does not border ${nameOf(sel.from)}.` : `${t.name} is not yours: attack from one of your territories with 2 armies or more.`;
        else note = `${t.name} cannot attack: it needs 2 armies or more and an enemy neighbour.`;
      } else if (moves.fortify.size) {
        if (sel.from && moves.fortify.get(sel.from)?.has(s)) sel.to = s;
        else if (moves.fortify.has(s)) sel = { from: s, to: null };
        else note = mine(s) ? `${t.name} has no armies to spare for a move there.` : `${t.name} is not yours.`;
      }
      draw();
    }

    const play = (action) => () => ctx.play(action);
    const button = (label, action, extra = {}) => h(`button.btn${extra.primary ? '.primary' : ''}${extra.small ? '.small' : ''}`, {
      dataset: { action, testid: extra.testid }, onclick: play(action), title: action,
    }, label);
    const cancel = () => h('button.btn.small', { onclick: () => { sel = { from: null, to: null }; draw(); } }, 'Cancel');

    /** Counts offered as buttons: the least, half way, all. */
    function countButtons(counts, verb, action) {
      const most = Math.max(...counts);
      return counts.map((n, i) => button(n === most && i > 0 ? `${verb} all ${n}` : `${verb} ${n}`, action(n), { primary: n === most, testid: 'rk-count' }));
    }

    function drawChoices() {
      const who = json.player !== undefined ? SEATS[json.player] : null;
      const parts = [];
      let text = '';
      if (!snap.legal.length) {
        if (json.phase === 'over') text = 'The game is over.';
        else if (snap.replay) text = 'Replay: the position after the chosen action.';
        else text = who ? `${who.name} is playing…` : '';
      } else if (moves.pick.size) {
        text = 'Pick a territory: click one that nobody holds yet.';
      } else if (json.phase === 'setup') {
        const left = 50 - 5 * json.players - json.territories.filter((c) => c.owner === json.player).reduce((a, c) => a + c.armies, 0);
        text = `Place your starting armies one at a time: click one of your territories (${left} left).`;
      } else if (json.phase === 'draft') {
        if (!moves.place.size) text = 'You hold five cards or more: trade a set first.';
        else if (sel.from) {
          text = `How many of your ${json.reserve} armies on ${nameOf(sel.from)}?`;
          parts.push(...countButtons(moves.place.get(sel.from), 'Place', (n) => `place ${sel.from} ${n}`), cancel());
        } else text = `Place ${json.reserve} armies: click one of your territories.${moves.trade.length ? ' Or trade a set of cards first.' : ''}`;
      } else if (moves.attack.size || moves.endAttack) {
        if (sel.from && sel.to) {
          const from = cell(sel.from).armies;
          const to = cell(sel.to).armies;
          text = `${nameOf(sel.from)} (${from}) attacks ${nameOf(sel.to)} (${to}): ${Math.min(3, from - 1)} dice against ${Math.min(2, to)}.`;
          const kinds = moves.attack.get(sel.from).get(sel.to);
          if (kinds.includes('attack')) parts.push(button('Roll once', `attack ${sel.from} ${sel.to}`, { primary: true, testid: 'rk-roll' }));
          if (kinds.includes('blitz')) parts.push(button('Blitz', `blitz ${sel.from} ${sel.to}`, { testid: 'rk-blitz' }));
          parts.push(cancel());
        } else if (sel.from) text = `Attack from ${nameOf(sel.from)}: click a neighbouring enemy territory.`;
        else text = moves.attack.size ? 'Attack: click one of your territories with 2 armies or more, then an enemy next to it.' : 'No attack is possible.';
        if (moves.endAttack) parts.push(button('End attack', 'end-attack', { testid: 'rk-end-attack' }));
      } else if (moves.occupy.length) {
        const [, route] = json.phase.split(':');
        const [from, to] = route.split('>');
        text = `${nameOf(to)} is taken! Move armies in from ${nameOf(from)}:`;
        parts.push(...countButtons(moves.occupy, 'Move', (n) => `occupy ${n}`));
      } else if (moves.fortify.size || moves.endTurn) {
        if (sel.from && sel.to) {
          text = `Move armies from ${nameOf(sel.from)} to ${nameOf(sel.to)}:`;
          parts.push(...countButtons(moves.fortify.get(sel.from).get(sel.to), 'Move', (n) => `fortify ${sel.from} ${sel.to} ${n}`), cancel());
        } else if (sel.from) text = `Fortify from ${nameOf(sel.from)}: click one of your territories to move armies to.`;
        else text = moves.fortify.size ? 'Fortify: move armies between your territories once, or end your turn.' : 'Nothing to fortify.';
        if (moves.endTurn) parts.push(button('End turn', 'end-turn', { testid: 'rk-end-turn' }));
      }
      prompt.textContent = text;
      if (note) prompt.append(h('div.rk-note', note));
      clear(buttons, parts);
    }

    function drawMapState() {
      const selectable = new Set();
      const targets = new Set();
      if (moves.pick.size) moves.pick.forEach((s) => selectable.add(s));
      for (const s of moves.place.keys()) selectable.add(s);
      for (const s of moves.attack.keys()) selectable.add(s);
      for (const s of moves.fortify.keys()) selectable.add(s);
      if (sel.from) {
        const inner = moves.attack.get(sel.from) || moves.fortify.get(sel.from);
        if (inner) for (const s of inner.keys()) targets.add(s);
      }
      for (const t of model.territories) {
        const c = json.territories[t.index];
        const n = map.nodes.get(t.slug);
        const owner = c.owner === null || c.owner === undefined ? null : ownerOf(c.owner);
        n.disc.style.fill = owner ? owner.color : '#ffffff';
        n.g.classList.toggle('open', !owner);
        n.count.textContent = c.armies ? String(c.armies) : '';
        n.g.classList.toggle('can', selectable.has(t.slug) && !sel.to);
        n.g.classList.toggle('selected', sel.from === t.slug || sel.to === t.slug);
        n.g.classList.toggle('target', targets.has(t.slug) && sel.to !== t.slug);
        n.title.textContent = `${t.name} · ${owner ? owner.name : 'nobody'} · ${c.armies} armies · ${t.continent.name}`;
        n.g.setAttribute('aria-label', n.title.textContent);
        n.g.dataset.owner = c.owner ?? '';
        n.g.dataset.armies = c.armies;
      }
      map.root.classList.toggle('interactive', snap.legal.length > 0);
      for (const c of model.continents) {
        const owners = new Set(c.members.map((t) => json.territories[t.index].owner));
        const [only] = owners;
        const held = owners.size === 1 && only !== null && only !== undefined;
        const label = map.continentLabels.get(c.name);
        label.holder.setAttribute('visibility', held ? 'visible' : 'hidden');
        if (held) label.holder.style.fill = ownerOf(only).color;
        label.holder.setAttribute('cx', label.text.getComputedTextLength ? label.text.getComputedTextLength() / 2 + 12 : 60);
      }
      // The last thing done, and the player's own plan, as arrows.
      const arrows = [];
      const last = [...snap.actions].reverse().find((a) => a.player !== null && a.player !== undefined);
      if (last) {
        const w = last.action.split(' ');
        const i = snap.actions.lastIndexOf(last);
        if (w[0] === 'attack' || w[0] === 'blitz') arrows.push(arrow(model, model.bySlug.get(w[1]), model.bySlug.get(w[2]), 'attack'));
        else if (w[0] === 'fortify') arrows.push(arrow(model, model.bySlug.get(w[1]), model.bySlug.get(w[2]), 'move'));
        else if (w[0] === 'occupy') {
          const b = battleOf(snap.actions, i);
          if (b) arrows.push(arrow(model, model.bySlug.get(b.from), model.bySlug.get(b.to), 'move'));
        } else if (w[0] === 'place' && model.bySlug.has(w[1])) {
          const t = model.bySlug.get(w[1]);
          arrows.push(svg('text', { class: 'rk-float', x: t.x + 16, y: t.y - 16, 'data-ply': i }, `+${w[2]}`));
        }
      }
      if (sel.from && sel.to) arrows.push(arrow(model, model.bySlug.get(sel.from), model.bySlug.get(sel.to), 'plan'));
      map.overlay.replaceChildren(...arrows);
    }

    function showRoll(i) {
      const rec = snap.actions[i];
      const [a, d] = rec.action.split(' ')[1].split(':').map(Number);
      const b = battleOf(snap.actions, i);
      // One pair of dice compared for each army lost, by one side or the other.
      const pairs = [];
      for (let k = 0; k < d; k++) pairs.push(h('span.rk-pair', dieIcon('attacker', false), dieIcon('defender', true)));
      for (let k = 0; k < a; k++) pairs.push(h('span.rk-pair', dieIcon('attacker', true), dieIcon('defender', false)));
      clear(dice,
        h('div.rk-dice-head', b ? `${nameOf(b.from)} → ${nameOf(b.to)}${b.kind === 'blitz' ? ' (blitz)' : ''}` : 'Dice'),
        h('div.rk-pairs', { dataset: { roll: `${a}:${d}` } }, pairs),
        h('div.rk-dice-text', losses(a, d)));
      dice.classList.remove('rolled');
      void dice.offsetWidth;
      dice.classList.add('rolled');
    }

    /** The dice: the newest roll; rolls that arrive together (a blitz) one after another. */
    function drawDice() {
      const rolls = [];
      snap.actions.forEach((r, i) => { if (/^roll \d:\d$/.test(r.action)) rolls.push(i); });
      clearInterval(diceTimer);
      if (!rolls.length) {
        clear(dice, h('div.rk-dice-head', 'Dice'), h('div.muted.small', 'No battle yet.'));
        rollsSeen = 0;
        return;
      }
      const fresh = !snap.replay && rollsSeen >= 0 ? rolls.slice(rollsSeen) : [];
      rollsSeen = rolls.length;
      const step = Math.min(450, Math.max(140, (snap.view?.delay_ms ?? 700) / 2));
      if (fresh.length <= 1 || !snap.view?.delay_ms) return showRoll(rolls[rolls.length - 1]);
      let k = 0;
      showRoll(fresh[k]);
      diceTimer = setInterval(() => {
        k += 1;
        if (k >= fresh.length) return clearInterval(diceTimer);
        showRoll(fresh[k]);
      }, step);
    }

    function drawHand() {
      const viewer = snap.view?.viewer ?? null;
      const cards = viewer !== null && Array.isArray(json.hands?.[viewer]) ? json.hands[viewer] : null;
      if (!cards) {
        clear(hand, h('div.muted.small', viewer === null ? 'Cards are shown to their holder only.' : 'No cards.'));
        return;
      }
      const trades = moves.trade.map((a) => button(`Trade ${a.split(' ').slice(1).map(cardName).join(' · ')} for ${json.next_set_value}`, a, { small: true, testid: 'rk-trade' }));
      clear(hand,
        h('div.rk-cards', cards.length ? cards.map((c) => {
          const t = model.bySlug.get(c);
          const kind = t ? t.card : 'wild';
          const own = t && json.territories[t.index].owner === viewer;
          return h(`div.rk-card.${kind}${own ? '.own' : ''}`, { dataset: { card: c }, title: own ? 'You hold this territory: +2 armies there when traded' : '' },
            h('span.rk-card-kind', KINDS[kind][0]), h('span.rk-card-name', cardName(c)), h('span.rk-card-sub', KINDS[kind][1]));
        }) : h('span.muted.small', 'No cards yet: conquer a territory in a turn to draw one.')),
        trades.length ? h('div.rk-trades', trades) : null);
    }

    function drawSeats() {
      const rows = [];
      for (let p = 0; p < json.players; p++) {
        const owned = json.territories.filter((c) => c.owner === p);
        const armies = owned.reduce((a, c) => a + c.armies, 0);
        const out = json.round > 0 && owned.length === 0;
        rows.push(h(`div.rk-seat${p === json.player && json.phase !== 'over' ? '.current' : ''}${out ? '.out' : ''}`, { dataset: { seat: p, cards: json.hand_sizes[p] } },
          h('span.dot', { style: { background: SEATS[p].color } }),
          h('span.rk-seat-name', SEATS[p].name),
          h('span.rk-stat', { title: 'territories' }, `${owned.length} terr.`),
          h('span.rk-stat', { title: 'armies' }, `${armies} armies`),
          h('span.rk-stat.rk-cards-count', { title: 'cards in hand' }, h('i.rk-cardback'), String(json.hand_sizes[p]))));
      }
      const neutral = json.territories.filter((c) => c.owner === 'neutral');
      if (neutral.length) {
        rows.push(h('div.rk-seat', h('span.dot', { style: { background: NEUTRAL.color } }), h('span.rk-seat-name', 'Neutral'),
          h('span.rk-stat', `${neutral.length} terr.`), h('span.rk-stat', `${neutral.reduce((a, c) => a + c.armies, 0)} armies`)));
      }
      clear(seatsBox, rows);
    }

    function drawInfo() {
      const kind = json.phase.split(':')[0];
      const rounds = /(?:^|,)max_rounds=(\d+)/.exec(snap.view?.options || '');
      const who = SEATS[json.player];
      clear(info,
        h('span.rk-chip.phase', who && kind !== 'over' ? h('span.dot', { style: { background: who.color } }) : null, PHASES[kind] || kind),
        json.round > 0 ? h('span.rk-chip', `Round ${json.round}${rounds ? ` of ${rounds[1]}` : ''}`) : h('span.rk-chip', 'Setup'),
        kind === 'draft' ? h('span.rk-chip.reserve', { dataset: { testid: 'rk-reserve' } }, `Reserve ${json.reserve}`) : null,
        json.next_set_value ? h('span.rk-chip', `Next set: ${json.next_set_value} armies`) : null,
        h('span.rk-chip.muted', `Deck ${json.deck_size}`));
    }

    /** The latest turn in words: the actions since its player took over (chance events go with
     * the turn they happen in: the rolls of its attacks, the card drawn at its end), a battle's
     * rolls summed up on its attack. */
    function drawLog() {
      const acts = snap.actions;
      let start = 0;
      let last = null;
      acts.forEach((a, i) => {
        const p = a.player ?? null;
        if ((p !== null && p !== last) || (a.action.startsWith('deal ') && last !== 'deal')) start = i;
        if (p !== null) last = p;
        else if (a.action.startsWith('deal ')) last = 'deal';
      });
      const items = [];
      for (let i = start; i < acts.length; i++) {
        const a = acts[i];
        const seat = a.player !== null && a.player !== undefined ? SEATS[a.player] : null;
        let text = describe(a.action);
        if (/^(attack|blitz) /.test(a.action)) {
          let [lostA, lostD, rolls] = [0, 0, 0];
          while (i + 1 < acts.length && /^roll \d:\d$/.test(acts[i + 1].action)) {
            const [x, y] = acts[i + 1].action.split(' ')[1].split(':').map(Number);
            [lostA, lostD, rolls] = [lostA + x, lostD + y, rolls + 1];
            i += 1;
          }
          if (rolls) text += `: ${losses(lostA, lostD)}${rolls > 1 ? ` (${rolls} rolls)` : ''}`;
        }
        items.push(h(`li${seat ? '' : '.chance'}`, seat ? h('span.dot', { style: { background: seat.color } }) : h('span.rk-chance', '⚄'), text));
      }
      clear(log, items.length ? h('ol', items.slice(-40)) : h('div.muted.small', 'Nothing yet.'));
      log.scrollTop = log.scrollHeight;
    }

    function draw() {
      drawInfo();
      drawMapState();
      drawChoices();
      drawHand();
      drawSeats();
    }

    return {
      render(next) {
        snap = next;
        json = snap.position.json;
        moves = parseLegal(snap.legal);
        const k = `${snap.actions.length}|${snap.legal.length}|${snap.view?.viewer}`;
        if (k !== key) {
          key = k;
          note = '';
          // Keep an attack's choice while the same attack is still offered (roll again).
          const keep = sel.from && sel.to && moves.attack.get(sel.from)?.has(sel.to);
          if (!keep) sel = { from: null, to: null };
        }
        wrap.dataset.phase = json.phase.split(':')[0];
        wrap.dataset.ply = snap.actions.length;
        draw();
        drawDice();
        drawLog();
      },
      destroy() { clearInterval(diceTimer); },
    };
  },
};
