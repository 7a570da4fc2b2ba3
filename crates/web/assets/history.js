// Past games, automatic tests (series of AI-vs-AI games) and a test's live score table.
import { h, clear, get, post, liveSocket, showError, ago, pct, sideLabel, seriesToken } from './ui.js';
import { pageFor, titleOf } from './games/index.js';
import { getCatalog } from './app.js';

function resultText(g) {
  if (g.status === 'playing') return h('span.badge.live', 'in progress');
  if (g.status === 'aborted' || !g.result) return h('span.badge', 'stopped');
  const seats = pageFor(g.game).seats(g.sides.length);
  const r = g.result;
  if (r.winner === null || r.winner === undefined) return h('span.badge', 'draw');
  const how = r.reason === 'resign' ? ' (resigned)' : '';
  return h('span.badge.good', h('span.dot', { style: { background: seats[r.winner]?.color, width: '9px', height: '9px' } }),
    `${seats[r.winner]?.name ?? 'Player ' + (r.winner + 1)} won${how}`);
}

function playersText(g) {
  return g.sides.map((s) => (s.kind === 'ai' ? s.agent : 'Human')).join(' vs ');
}

const PAGE_SIZE = 25;
const STATUSES = [['', 'Any status'], ['playing', 'In progress'], ['over', 'Finished'], ['aborted', 'Stopped']];

/** The Games page's filters and page, as the address holds them: `#/games?game=gomoku&status=over&page=2`. */
function readQuery(query) {
  const q = new URLSearchParams(query || '');
  const page = Math.floor(Number(q.get('page')));
  return { game: q.get('game') || '', status: q.get('status') || '', page: page >= 1 ? page : 1 };
}

function gamesHash({ game, status, page }) {
  const q = new URLSearchParams();
  if (game) q.set('game', game);
  if (status) q.set('status', status);
  if (page > 1) q.set('page', String(page));
  const text = q.toString();
  return `#/games${text ? '?' + text : ''}`;
}

/** A page of the list and how many games pass the filters (the API's X-Total-Count). */
async function listPage({ game, status }, limit, offset) {
  const q = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (game) q.set('game', game);
  if (status) q.set('status', status);
  const res = await fetch(`/api/games?${q}`);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return { rows: data, total: Number(res.headers.get('x-total-count')) };
}

export async function gamesPage(root, query) {
  const catalog = await getCatalog();
  let filters = readQuery(query);
  let asked = 0;

  const gameSelect = h('select', { name: 'game', 'aria-label': 'Game' },
    h('option', { value: '' }, 'All games'),
    catalog.map((g) => h('option', { value: g.name }, titleOf(g.name))));
  const statusSelect = h('select', { name: 'status', 'aria-label': 'Status' },
    STATUSES.map(([value, label]) => h('option', { value }, label)));
  const count = h('span.list-count', { dataset: { testid: 'games-count' } });
  const pager = (top) => {
    const prev = h('button.btn.small', { type: 'button', onclick: () => go({ ...filters, page: filters.page - 1 }) }, '‹ Previous');
    const next = h('button.btn.small', { type: 'button', onclick: () => go({ ...filters, page: filters.page + 1 }) }, 'Next ›');
    if (top) { prev.dataset.testid = 'games-prev'; next.dataset.testid = 'games-next'; }
    return { el: h('div.pager', prev, next), prev, next };
  };
  const topPager = pager(true);
  const bottomPager = pager(false);
  const table = h('section.card', { style: { padding: '6px 8px', overflowX: 'auto' } });
  const bottom = h('div.list-bottom', bottomPager.el);
  const refilter = (change) => go({ ...filters, ...change, page: 1 });
  gameSelect.addEventListener('change', () => refilter({ game: gameSelect.value }));
  statusSelect.addEventListener('change', () => refilter({ status: statusSelect.value }));

  clear(root,
    h('div.page-head', h('div', h('h1', 'Games'), h('p', 'Every game played here, newest first. Open one to replay it or to go on playing.')),
      h('span.spacer'), h('a.btn.primary', { href: '#/' }, 'New game')),
    h('div.list-bar', gameSelect, statusSelect, h('span.spacer'), count, topPager.el),
    table, bottom);

  /** Another page or filter: a new entry in the history (Back returns), drawn in place. */
  function go(next) {
    filters = next;
    history.pushState(null, '', gamesHash(filters));
    load().catch(showError);
  }

  function rowOf(g) {
    return h('tr.link', {
      dataset: { game: g.id },
      onclick: () => { location.hash = `#/game/${g.id}`; },
    },
    h('td.num', `#${g.id}`),
    h('td', h('strong', titleOf(g.game)), g.options ? h('div.muted.small.opt', g.options) : null),
    h('td', playersText(g), g.series ? h('div.muted.small', `test #${g.series}`) : null),
    h('td', resultText(g)),
    h('td.num.hide-narrow', g.plies),
    h('td.muted.hide-narrow', ago(g.updated)));
  }

  function draw(rows, total) {
    const from = (filters.page - 1) * PAGE_SIZE;
    const noun = (n) => `game${n === 1 ? '' : 's'}`;
    count.textContent = rows.length ? `${from + 1}–${from + rows.length} of ${total} ${noun(total)}` : `${total} ${noun(total)}`;
    const more = from + rows.length < total;
    for (const p of [topPager, bottomPager]) {
      p.prev.disabled = filters.page <= 1;
      p.next.disabled = !more;
    }
    bottom.classList.toggle('hidden', rows.length < 10);
    const filtered = filters.game || filters.status;
    clear(table, rows.length
      ? h('table.table', { dataset: { testid: 'games' } },
        h('thead', h('tr', h('th', '#'), h('th', 'Game'), h('th', 'Players'), h('th', 'Result'), h('th.num.hide-narrow', 'Actions'), h('th.hide-narrow', 'When'))),
        h('tbody', rows.map(rowOf)))
      : filters.page > 1 && total > 0
        ? h('div.empty', 'No games on this page. ', h('a', { href: gamesHash({ ...filters, page: 1 }) }, 'First page'))
        : filtered
          ? h('div.empty', 'No games match. ', h('a', { href: '#/games' }, 'Show every game'))
          : h('div.empty', 'No games yet. ', h('a', { href: '#/' }, 'Start one.')));
  }

  async function load() {
    const ticket = ++asked;
    gameSelect.value = filters.game;
    statusSelect.value = filters.status;
    const { rows, total } = await listPage(filters, PAGE_SIZE, (filters.page - 1) * PAGE_SIZE);
    if (ticket === asked) draw(rows, total);
  }

  try {
    await load();
  } catch (err) {
    showError(err);
  }
  return { destroy() { asked += 1; } };
}

function scoreSummary(s) {
  const sc = s.score;
  const elo = (x) => (x === null ? '∞' : `${x > 0 ? '+' : ''}${Math.round(x)}`);
  const eloText = sc.games ? `${elo(sc.elo)} [${sc.elo_low === null ? '−∞' : elo(sc.elo_low)}, ${sc.elo_high === null ? '+∞' : elo(sc.elo_high)}]` : '–';
  return { eloText, interval: `${pct(sc.low)} – ${pct(sc.high)}` };
}

export async function testsPage(root) {
  const list = await get('/api/series');
  clear(root,
    h('div.page-head', h('div', h('h1', 'Automatic tests'), h('p', 'AIs play many games, seats swapped (or rotated) each game; scores come with their 95% intervals.')),
      h('span.spacer'), h('a.btn.primary', { href: '#/', onclick: () => {
        const saved = JSON.parse(localStorage.getItem('ply.lobby') || '{}');
        localStorage.setItem('ply.lobby', JSON.stringify({ ...saved, mode: 'test' }));
      } }, 'New test')),
    h('section.card', { style: { padding: '6px 8px', overflowX: 'auto' } },
      list.length
        ? h('table.table',
          h('thead', h('tr', h('th', '#'), h('th', 'Game'), h('th', 'A vs B'), h('th.num', 'Games'), h('th.num', 'A scores'), h('th.num.hide-narrow', '95% interval'), h('th', 'Status'))),
          h('tbody', list.map((s) => h('tr.link', { onclick: () => { location.hash = `#/test/${s.id}`; } },
            h('td.num', `#${s.id}`),
            h('td', titleOf(s.game)),
            h('td', s.sides.map(sideLabel).join(' vs ')),
            h('td.num', `${s.played} / ${s.total}`),
            // A's score: against B, or at a table of more (next to its fair share).
            h('td.num', s.played ? pct(s.sides.length > 2 ? s.standings[0].score : s.score.mean) : '–'),
            h('td.num.hide-narrow', !s.played ? '–' : s.sides.length > 2
              ? `${pct(s.standings[0].low)} – ${pct(s.standings[0].high)}` : scoreSummary(s).interval),
            h('td', h(`span.badge${s.status === 'running' ? '.live' : ''}`, s.status))))))
        : h('div.empty', 'No tests yet. Choose "Automatic test" in the lobby.')));
  return { destroy() {} };
}

export async function testPage(root, id) {
  let series = await get(`/api/series/${id}`);
  const body = h('div');
  clear(root, body);

  /** More than two sides: each side's share of the wins against the fair share. */
  function drawTable() {
    const s = series;
    const letter = (i) => String.fromCharCode(65 + i);
    const rows = s.standings.map((st, i) => h('tr', { dataset: { side: letter(i) } },
      h('td', h('strong', `${letter(i)} `), sideLabel(s.sides[i])),
      h('td.num', st.wins),
      h('td.num', s.played ? pct(st.score) : '–'),
      h('td.num', s.played ? `${pct(st.low)} – ${pct(st.high)}` : '–')));
    const chips = s.games.map((g) => {
      const best = g.scores ? g.scores.indexOf(Math.max(...g.scores)) : -1;
      const alone = g.scores && g.scores.filter((x) => x === g.scores[best]).length === 1;
      return h(`a.chip.${g.scores ? (alone ? 'w' : 'd') : 'x'}`, { href: `#/game/${g.id}`, title: `game #${g.id}` },
        g.scores ? (alone ? letter(best) : '=') : '–');
    });
    clear(body,
      h('div.page-head',
        h('div', h('h1', `Test #${s.id}: ${s.sides.length} agents at one table`),
          h('p', `${titleOf(s.game)}${s.options ? ' · ' + s.options : ''} · seats rotated every game, the same dice for every rotation`)),
        h('span.spacer'),
        s.status === 'running'
          ? (seriesToken(id)
            ? h('button.btn.danger', { onclick: () => post(`/api/series/${id}/stop`, {}, seriesToken(id)).catch(showError) }, 'Stop test')
            : null)
          : h('a.btn.primary', { href: '#/' }, 'New test')),
      h('section.card.stack',
        h('div.row', h('h3', 'Share of the wins'), h('span.spacer'), h(`span.badge${s.status === 'running' ? '.live' : ''}`, { dataset: { testid: 'series-status' } }, s.status)),
        h('table.table', { dataset: { testid: 'score-table' } },
          h('thead', h('tr', h('th', 'Agent'), h('th.num', 'Wins'), h('th.num', 'Score'), h('th.num', '95% interval'))),
          h('tbody', rows)),
        h('div.small.muted', `Fair share ${pct(s.fair_share)} · ${s.played} of ${s.total} games${s.current_game ? ' · now playing ' : ''}`,
          s.current_game ? h('a', { href: `#/game/${s.current_game}` }, `game #${s.current_game}`) : null),
        h('div.progress', h('div', { style: { width: pct(s.played / s.total) } }))),
      h('section.card.stack', { style: { marginTop: '16px' } }, h('h3', 'Games (the winner)'), h('div.chips', chips.length ? chips : h('span.muted', 'The first game is under way…'))));
  }

  function draw() {
    const s = series;
    if (s.sides.length > 2) return drawTable();
    const sc = s.score;
    const { eloText, interval } = scoreSummary(s);
    const a = sideLabel(s.sides[0]);
    const b = sideLabel(s.sides[1]);
    const chips = s.games.map((g) => {
      const cls = g.a_score === null ? 'x' : g.a_score > 0.5 ? 'w' : g.a_score < 0.5 ? 'l' : 'd';
      return h(`a.chip.${cls}`, { href: `#/game/${g.id}`, title: `game #${g.id}: A ${g.a_score === null ? 'stopped' : pct(g.a_score, 0)}` },
        cls === 'x' ? '–' : cls.toUpperCase());
    });
    clear(body,
      h('div.page-head',
        h('div', h('h1', `Test #${s.id}: ${a} vs ${b}`),
          h('p', `${titleOf(s.game)}${s.options ? ' · ' + s.options : ''} · seats swapped every game`)),
        h('span.spacer'),
        s.status === 'running'
          ? (seriesToken(id)
            ? h('button.btn.danger', { onclick: () => post(`/api/series/${id}/stop`, {}, seriesToken(id)).catch(showError) }, 'Stop test')
            : null)
          : h('a.btn.primary', { href: '#/' }, 'New test')),
      h('div.lobby-grid', { style: { marginTop: 0 } },
        h('section.card.stack',
          h('div.row', h('h3', 'Score of A'), h('span.spacer'), h(`span.badge${s.status === 'running' ? '.live' : ''}`, { dataset: { testid: 'series-status' } }, s.status)),
          h('div.score-big', { dataset: { testid: 'series-score' } }, sc.games ? pct(sc.mean) : '–'),
          h('div.ci-bar', sc.games ? [
            h('div.range', { style: { left: pct(sc.low), width: pct(sc.high - sc.low) } }),
            h('div.half'),
            h('div.mean', { style: { left: `calc(${pct(sc.mean)} - 1px)` } }),
          ] : h('div.half')),
          h('div.row.small.muted', h('span', '0%'), h('span.spacer'), h('span', '50%'), h('span.spacer'), h('span', '100%')),
          h('div.progress', h('div', { style: { width: pct(s.played / s.total) } })),
          h('div.small.muted', `${s.played} of ${s.total} games${s.current_game ? ' · now playing ' : ''}`,
            s.current_game ? h('a', { href: `#/game/${s.current_game}` }, `game #${s.current_game}`) : null)),
        h('section.card',
          h('table.table', { dataset: { testid: 'score-table' } },
            h('thead', h('tr', h('th', 'Agent'), h('th.num', 'Wins'), h('th.num', 'Draws'), h('th.num', 'Losses'), h('th.num', 'Score'))),
            h('tbody',
              h('tr', h('td', h('strong', 'A '), a), h('td.num', sc.wins), h('td.num', sc.draws), h('td.num', sc.losses), h('td.num', sc.games ? pct(sc.mean) : '–')),
              h('tr', h('td', h('strong', 'B '), b), h('td.num', sc.losses), h('td.num', sc.draws), h('td.num', sc.wins), h('td.num', sc.games ? pct(1 - sc.mean) : '–')))),
          h('dl.facts', { style: { marginTop: '14px' } },
            h('dt', '95% interval'), h('dd', sc.games ? interval : '–'),
            h('dt', 'Elo (A − B)'), h('dd', eloText)))),
      h('section.card.stack', { style: { marginTop: '16px' } }, h('h3', 'Games (A\'s result)'), h('div.chips', chips.length ? chips : h('span.muted', 'The first game is under way…'))));
  }

  draw();
  const socket = liveSocket(`/api/series/${id}/ws`, (msg) => {
    if (msg.type === 'series') { series = msg.series; draw(); }
  });
  return { destroy() { socket.close(); } };
}
