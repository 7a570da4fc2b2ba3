// The lobby: pick a game and its options, then who plays each side, then start a game or an
// automatic test. Options and agents come from the server's catalog, so new games and agents
// appear here without changes.
import { h, clear, get, post, showError, keepGameTokens, keepSeriesToken } from './ui.js';
import { getCatalog } from './app.js';
import { pageFor, titleOf, hasPage } from './games/index.js';

const STRENGTHS = [
  [100, 'Quick · 0.1 s'], [250, 'Casual · 0.25 s'], [500, 'Fair · 0.5 s'], [1000, 'Normal · 1 s'],
  [2000, 'Strong · 2 s'], [5000, 'Deep · 5 s'], [10000, 'Deepest · 10 s'],
];
const PACES = [[1500, 'Slow'], [700, 'Relaxed'], [250, 'Brisk'], [0, 'Instant']];
const MODES = [
  ['hva', 'Human vs AI'], ['hvh', 'Human vs Human'], ['ava', 'AI vs AI'], ['test', 'Automatic test'],
];
const SAVED = 'ply.lobby';
/** Options a game without a page of its own shows before "More options". */
const GENERIC_SHOWN = 3;

function saved() {
  try { return JSON.parse(localStorage.getItem(SAVED)) || {}; } catch { return {}; }
}

/** An agent spec's parameters (`key=value,…`) as a map, and back. */
function paramsMap(text) {
  const out = new Map();
  for (const part of text.split(',')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}
const paramsText = (map) => [...map].map(([k, v]) => `${k}=${v}`).join(',');

/** A field for one of an agent's parameters, shown unfolded when the game's page names it
 * (`agentParams`): a menu of the values its help quotes, or of a range in steps (`0-140 in
 * steps of 10`), else a number or text field. The default is left out of the spec. */
function agentParamField(param, side, onChange) {
  const current = paramsMap(side.params).get(param.name) ?? String(param.default);
  let choices = [...param.help.matchAll(/'([^']+)'/g)].map((m) => m[1]);
  const range = /(-?\d+)\s*(?:-|–|\.\.)\s*(-?\d+)/.exec(param.help);
  const step = /steps? of (\d+)/.exec(param.help);
  if (choices.length < 2 && range && step) {
    choices = [];
    for (let v = Number(range[1]); v <= Number(range[2]) && choices.length < 100; v += Number(step[1])) choices.push(String(v));
  }
  const set = (v) => {
    const map = paramsMap(side.params);
    if (v === String(param.default) || v === '') map.delete(param.name); else map.set(param.name, v);
    side.params = paramsText(map);
    onChange();
  };
  let input;
  if (choices.length >= 2) {
    if (!choices.includes(current)) choices.unshift(current);
    input = h('select', { name: `param-${param.name}` }, choices.map((c) => h('option', { value: c, selected: c === current }, c)));
  } else {
    const numeric = /^-?[\d.]+$/.test(String(param.default));
    input = h('input', { name: `param-${param.name}`, value: current, type: numeric ? 'number' : 'text', min: range?.[1], max: range?.[2], step: numeric ? 'any' : undefined });
  }
  input.addEventListener('change', () => set(input.value));
  return h('label.field', h('span', param.name), input, h('span.hint', param.help));
}

/** A select or number field for a game option: a menu of the choices the game's page lists, or
 * that the help text quotes; a number field for a numeric default. */
function optionField(opt, value, onChange, pageChoices) {
  const choices = pageChoices || [...opt.help.matchAll(/'([^']+)'/g)].map((m) => m[1]);
  const range = /(\d+)\s*[-–]\s*(\d+)/.exec(opt.help);
  let input;
  if (choices.length >= 2) {
    input = h('select', { name: opt.name }, choices.map((c) => {
      const [v, label] = Array.isArray(c) ? c : [c, c];
      return h('option', { value: v, selected: v === value }, label);
    }));
  } else if (/^\d+$/.test(opt.default)) {
    input = h('input', { type: 'number', name: opt.name, value, min: range ? range[1] : 0, max: range ? range[2] : undefined });
  } else {
    input = h('input', { name: opt.name, value });
  }
  input.addEventListener('change', () => onChange(input.value));
  return h('label.field', h('span', opt.name), input, h('span.hint', opt.help));
}

export async function lobbyPage(root) {
  const catalog = await getCatalog();
  const memory = saved();
  const state = {
    game: catalog.some((g) => g.name === memory.game) ? memory.game : 'einstein',
    options: memory.options || {},
    mode: memory.mode || 'hva',
    sides: memory.sides || {},
    pace: memory.pace ?? 700,
    testGames: memory.testGames || 20,
    players: 2,
    error: '',
  };
  if (!catalog.some((g) => g.name === state.game)) state.game = catalog[0].name;

  const picker = h('div.game-picker');
  // The chosen game's description, under the cards: the cards stay small as games are added.
  const about = h('p.game-about', { dataset: { testid: 'game-about' } });
  const optionsBox = h('div.options-grid');
  const modeBox = h('div.segmented.modes', { role: 'tablist' });
  const sidesBox = h('div.sides');
  const startBar = h('section.card.start-bar');
  const optionsError = h('div.small', { style: { color: 'var(--bad)' } });

  clear(root,
    h('div.page-head', h('div', h('h1', 'New game'), h('p', 'Pick a game, choose who plays, and start. Everything is saved as you play.'))),
    h('section.card', h('h3', 'Game'), h('div', { style: { marginTop: '12px' } }, picker), about),
    // Wide screens: the options with the Start button under them on the left, who plays on
    // the right, so that Start shows without scrolling however many sides there are.
    h('div.lobby-grid',
      h('section.card.stack.lobby-options', h('h3', 'Options'), optionsBox, optionsError),
      h('section.card.stack.lobby-players', h('h3', 'Mode'), modeBox, h('h3', 'Players'), sidesBox),
      startBar));

  const entry = () => catalog.find((g) => g.name === state.game);
  const optionValue = (opt) => state.options[state.game]?.[opt.name] ?? opt.default;
  const optionsText = () => entry().options.map((o) => `${o.name}=${optionValue(o)}`).join(',');

  function sideConfig(seat) {
    const key = `${state.game}:${seat}`;
    if (!state.sides[key]) {
      const agents = entry().agents;
      // A page may name several, best first: an agent still to come, then the one there now.
      const wanted = [pageFor(state.game).defaultAgent || [], 'mcts'].flat();
      const preferred = wanted.map((w) => agents.find((a) => a.name === w)).find(Boolean) || agents[0];
      state.sides[key] = { kind: seat === 0 ? 'human' : 'ai', agent: preferred.name, time: 1000, params: '' };
    }
    return state.sides[key];
  }

  function applyMode() {
    for (let seat = 0; seat < state.players; seat++) {
      const side = sideConfig(seat);
      if (state.mode === 'hvh') side.kind = 'human';
      else if (state.mode === 'ava' || state.mode === 'test') side.kind = 'ai';
      else if (state.mode === 'hva' && !(seat === 0 || side.kind === 'ai')) side.kind = 'ai';
    }
    if (state.mode === 'hva' && [...Array(state.players).keys()].every((s) => sideConfig(s).kind === 'ai')) {
      sideConfig(0).kind = 'human';
    }
  }

  function remember() {
    const { game, options, mode, sides, pace, testGames } = state;
    localStorage.setItem(SAVED, JSON.stringify({ game, options, mode, sides, pace, testGames }));
  }

  function drawPicker() {
    clear(picker, catalog.map((g) => {
      const page = pageFor(g.name);
      const thumb = page.thumb ? page.thumb() : [h('span.badge', `${g.num_players} players`)];
      return h(`button.game-card${g.name === state.game ? '.on' : ''}`, {
        type: 'button',
        dataset: { game: g.name },
        title: g.about,
        onclick: () => { state.game = g.name; refresh(); },
      }, h('div.thumb', thumb), h('div.title', titleOf(g.name)));
    }));
    about.textContent = catalog.find((g) => g.name === state.game)?.about || '';
  }

  function drawOptions() {
    const opts = entry().options;
    const page = pageFor(state.game);
    const menus = page.optionChoices || {};
    const field = (o) => optionField(o, optionValue(o), (v) => {
      // Redrawing removes the field being edited, which then fires 'change' again as it loses
      // focus, from inside the redraw: that second, unchanged value must not redraw again.
      if (String(optionValue(o)) === v) return;
      state.options[state.game] = { ...(state.options[state.game] || {}), [o.name]: v };
      refresh();
    }, menus[o.name]);
    if (!opts.length) return clear(optionsBox, h('span.muted', 'This game has no options.'));
    // A page may name the options shown first (`lobbyOptions`); the others fold away under
    // "More options", open while one of them is not at its default. A game without a page shows
    // its first GENERIC_SHOWN, so that however many options it has the Start button stays on a
    // 1280x800 screen.
    const first = page.lobbyOptions ? opts.filter((o) => page.lobbyOptions.includes(o.name))
      : hasPage(state.game) ? opts : opts.slice(0, GENERIC_SHOWN);
    const rest = opts.filter((o) => !first.includes(o));
    const changed = rest.some((o) => String(optionValue(o)) !== String(o.default));
    clear(optionsBox, first.map(field), rest.length ? h('details.more-options', {
      open: changed || state.moreOptions === state.game,
      ontoggle: (e) => { state.moreOptions = e.target.open ? state.game : null; },
    }, h('summary', `More options: ${rest.map((o) => o.name).join(', ')}`), h('div.options-grid', rest.map(field))) : null);
  }

  function drawModes() {
    const modes = MODES;
    if (!modes.some(([m]) => m === state.mode)) state.mode = 'hva';
    clear(modeBox, modes.map(([m, label]) => h(`button${m === state.mode ? '.on' : ''}`, {
      type: 'button', dataset: { mode: m }, role: 'tab',
      onclick: () => { state.mode = m; applyMode(); draw(); },
    }, label)));
  }

  const shownParams = (agent) => agent.params.filter((p) => (pageFor(state.game).agentParams || []).includes(p.name));

  function drawSides() {
    const seats = pageFor(state.game).seats(state.players);
    const agents = entry().agents;
    const test = state.mode === 'test';
    clear(sidesBox, seats.map((seat, i) => {
      const side = sideConfig(i);
      const agent = agents.find((a) => a.name === side.agent) || agents[0];
      const title = test ? `Agent ${String.fromCharCode(65 + i)}` : seat.name;
      const kinds = test ? [] : ['human', 'ai'].map((k) => h(`button${side.kind === k ? '.on' : ''}`, {
        type: 'button', dataset: { kind: k },
        onclick: () => { side.kind = k; state.mode = inferMode(); draw(); },
      }, k === 'human' ? 'Human' : 'AI'));
      const ai = side.kind === 'ai' ? [
        h('div.grid2',
          h('label.field', 'Agent', h('select', {
            name: 'agent',
            onchange: (e) => { side.agent = e.target.value; side.params = ''; draw(); },
          }, agents.map((a) => h('option', { value: a.name, selected: a.name === agent.name }, a.name)))),
          h('label.field', 'Strength', h('select', {
            name: 'time',
            onchange: (e) => { side.time = Number(e.target.value); remember(); },
          }, STRENGTHS.map(([ms, label]) => h('option', { value: ms, selected: ms === side.time }, label))))),
        h('div.hint', agent.about),
        shownParams(agent).map((p) => agentParamField(p, side, () => { remember(); drawSides(); })),
        h('details', { open: Boolean(side.params) },
          h('summary', 'Parameters'),
          h('label.field', { style: { marginTop: '8px' } },
            h('input', {
              name: 'params', value: side.params, placeholder: 'key=value,…',
              oninput: (e) => { side.params = e.target.value; remember(); },
              // The fields above follow the text once it is done with (only the sides are
              // redrawn: this fires as a click on Start takes the focus away).
              onchange: (e) => {
                side.params = e.target.value;
                remember();
                if (shownParams(agent).length) drawSides();
              },
            }),
            h('span.hint', agent.params.filter((p) => p.name !== 'time' && p.name !== 'iters')
              .map((p) => `${p.name}=${p.default}`).join(', ') + ' · time=ms or iters=N fix the budget'))),
      ] : [h('div.hint', 'Plays by clicking or tapping the board.')];
      return h('div.side-card', { dataset: { seat: i } },
        h('div.side-head', h('span.dot', { style: { background: seat.color } }), title,
          h('span.spacer'), kinds.length ? h('div.segmented', kinds) : null),
        ai);
    }));
  }

  function inferMode() {
    const kinds = [...Array(state.players).keys()].map((s) => sideConfig(s).kind);
    if (kinds.every((k) => k === 'human')) return 'hvh';
    if (kinds.every((k) => k === 'ai')) return state.mode === 'test' ? 'test' : 'ava';
    return 'hva';
  }

  function drawStart() {
    const withAi = state.mode !== 'hvh' && state.mode !== 'test';
    clear(startBar,
      h('button.btn.primary.big', { type: 'button', dataset: { testid: 'start' }, disabled: Boolean(state.error), onclick: start },
        state.mode === 'test' ? 'Start test' : state.mode === 'ava' ? 'Start watching' : 'Start game'),
      state.mode === 'test' ? h('label.field', { style: { flexDirection: 'row', alignItems: 'center' } }, 'Games',
        h('input', {
          type: 'number', name: 'games', min: 1, max: 10000, value: state.testGames, style: { width: '100px' },
          onchange: (e) => { state.testGames = Number(e.target.value); remember(); },
        })) : null,
      withAi ? h('label.field', { style: { flexDirection: 'row', alignItems: 'center' } }, 'AI pace',
        h('select', {
          name: 'pace', style: { width: 'auto' },
          onchange: (e) => { state.pace = Number(e.target.value); remember(); },
        }, PACES.map(([ms, label]) => h('option', { value: ms, selected: ms === state.pace }, label)))) : null);
  }

  function draw() {
    drawPicker();
    drawOptions();
    drawModes();
    drawSides();
    drawStart();
    remember();
  }

  let asked = 0;
  async function refresh() {
    const ticket = ++asked;
    draw();
    try {
      const info = await get(`/api/catalog/${state.game}?options=${encodeURIComponent(optionsText())}`);
      if (ticket !== asked) return;
      state.players = info.num_players;
      state.error = '';
    } catch (err) {
      if (ticket !== asked) return;
      state.error = err.message;
    }
    optionsError.textContent = state.error;
    applyMode();
    draw();
  }

  function sidesPayload() {
    return [...Array(state.players).keys()].map((seat) => {
      const side = sideConfig(seat);
      if (side.kind !== 'ai') return { kind: 'human' };
      const params = side.params.trim().replace(/^[:,\s]+/, '');
      return { kind: 'ai', agent: params ? `${side.agent}:${params}` : side.agent, time_ms: side.time };
    });
  }

  async function start() {
    try {
      if (state.mode === 'test') {
        const series = await post('/api/series', {
          game: state.game, options: optionsText(), sides: sidesPayload(), games: state.testGames,
        });
        keepSeriesToken(series);
        location.hash = `#/test/${series.id}`;
      } else {
        const game = await post('/api/games', {
          game: state.game, options: optionsText(), sides: sidesPayload(),
          delay_ms: state.mode === 'hvh' ? 0 : state.pace,
        });
        keepGameTokens(game);
        location.hash = `#/game/${game.id}`;
      }
    } catch (err) {
      showError(err);
    }
  }

  await refresh();
  return { destroy() {} };
}
