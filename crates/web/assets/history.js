// Past games, automatic tests (series of AI-vs-AI games) and a test's live score table.
import { h, clear, get, post, liveSocket, showError, ago, pct, sideLabel, seriesToken } from './ui.js';
import { pageFor, titleOf } from './games/index.js';

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

export async function gamesPage(root) {
  const games = await get('/api/games?limit=100');
  const rows = games.map((g) => h('tr.link', {
    dataset: { game: g.id },
    onclick: () => { location.hash = `#/game/${g.id}`; },
  },
  h('td.num', `#${g.id}`),
  h('td', h('strong', titleOf(g.game)), g.options ? h('div.muted.small.opt', g.options) : null),
  h('td', playersText(g), g.series ? h('div.muted.small', `test #${g.series}`) : null),
  h('td', resultText(g)),
  h('td.num.hide-narrow', g.plies),
  h('td.muted.hide-narrow', ago(g.updated))));
  clear(root,
    h('div.page-head', h('div', h('h1', 'Games'), h('p', 'Every game played here, newest first. Open one to replay it or to go on playing.')),
      h('span.spacer'), h('a.btn.primary', { href: '#/' }, 'New game')),
    h('section.card', { style: { padding: '6px 8px', overflowX: 'auto' } },
      games.length
        ? h('table.table', { dataset: { testid: 'games' } },
          h('thead', h('tr', h('th', '#'), h('th', 'Game'), h('th', 'Players'), h('th', 'Result'), h('th.num.hide-narrow', 'Actions'), h('th.hide-narrow', 'When'))),
          h('tbody', rows))
        : h('div.empty', 'No games yet. ', h('a', { href: '#/' }, 'Start one.'))));
  return { destroy() {} };
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
    h('div.page-head', h('div', h('h1', 'Automatic tests'), h('p', 'Two AIs play many games, seats swapped each game; the score comes with its 95% interval.')),
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
            h('td', `${sideLabel(s.sides[0])} vs ${sideLabel(s.sides[1])}`),
            h('td.num', `${s.played} / ${s.total}`),
            h('td.num', s.played ? pct(s.score.mean) : '–'),
            h('td.num.hide-narrow', s.played ? scoreSummary(s).interval : '–'),
            h('td', h(`span.badge${s.status === 'running' ? '.live' : ''}`, s.status))))))
        : h('div.empty', 'No tests yet. Choose "Automatic test" in the lobby.')));
  return { destroy() {} };
}

export async function testPage(root, id) {
  let series = await get(`/api/series/${id}`);
  const body = h('div');
  clear(root, body);

  function draw() {
    const s = series;
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
