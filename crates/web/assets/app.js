// The single page: a hash router over the lobby, a game, the game list and the test pages.
import { clear, h, get, acceptGameLink } from './ui.js';
import { lobbyPage } from './lobby.js';
import { gamePage } from './play.js';
import { gamesPage, testsPage, testPage } from './history.js';

const main = document.getElementById('main');
let current = null; // the page showing: { destroy() }
let catalog = null;

export async function getCatalog() {
  if (!catalog) catalog = await get('/api/catalog');
  return catalog;
}

const routes = [
  [/^#?\/?$/, 'play', () => lobbyPage(main)],
  [/^#\/game\/(\d+)$/, 'games', (id) => gamePage(main, Number(id))],
  // A link that hands over a seat (or the game): its tokens are kept, then the plain address
  // replaces it, so the secret does not stay in the address bar or the history.
  [/^#\/game\/(\d+)\?(.*)$/, 'games', (id, query) => {
    acceptGameLink(Number(id), new URLSearchParams(query));
    history.replaceState(null, '', `#/game/${id}`);
    return gamePage(main, Number(id));
  }],
  [/^#\/games(?:\?(.*))?$/, 'games', (query) => gamesPage(main, query)],
  [/^#\/tests$/, 'tests', () => testsPage(main)],
  [/^#\/test\/(\d+)$/, 'tests', (id) => testPage(main, Number(id))],
];

async function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  const hash = location.hash || '#/';
  for (const [pattern, nav, page] of routes) {
    const m = pattern.exec(hash);
    if (!m) continue;
    for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', a.dataset.nav === nav);
    clear(main, h('div.empty', 'Loading…'));
    try {
      current = await page(...m.slice(1));
    } catch (err) {
      clear(main, h('div.card.empty', h('h2', 'Something went wrong'), h('p', err.message), h('a.btn', { href: '#/' }, 'Back to the lobby')));
    }
    window.scrollTo(0, 0);
    return;
  }
  clear(main, h('div.card.empty', h('h2', 'Page not found'), h('a.btn', { href: '#/' }, 'Back to the lobby')));
}

window.addEventListener('hashchange', route);
route();
