// Small helpers shared by every page: building elements, calling the API, live sockets, toasts.

/** h('div.card#id', {onclick, dataset...}, ...children): an element. The attributes may be left
 * out: a second argument that is not a plain object (text, a number, a node, an array) is a child. */
export function h(spec, attrs, ...children) {
  const [, tag = 'div', rest = ''] = spec.match(/^([a-z0-9-]*)(.*)$/i);
  const el = document.createElement(tag || 'div');
  for (const part of rest.match(/[.#][^.#]+/g) || []) {
    if (part[0] === '.') el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  // Anything but a plain object is a child, falsy values too: h('td', 0) shows 0.
  if (attrs !== undefined && attrs !== null && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key === 'html') el.innerHTML = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the API; `token` (a seat's, a game's or a series' secret) goes in Authorization. */
export async function api(method, path, body, token) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}, token) => api('POST', path, body, token);

// The tokens this browser holds, kept in local storage: a game's {owner, seats: {seat: token}}
// (from creating it, or from a link that hands over a seat) and a test series' token.
const gameKey = (id) => `ply.game.${id}`;

export function gameTokens(id) {
  try {
    const saved = JSON.parse(localStorage.getItem(gameKey(id)) || 'null');
    return { owner: saved?.owner || null, seats: saved?.seats || {} };
  } catch {
    return { owner: null, seats: {} };
  }
}

function saveGameTokens(id, tokens) {
  localStorage.setItem(gameKey(id), JSON.stringify(tokens));
}

/** Keeps the tokens of a game this browser just created (the reply's `tokens`). */
export function keepGameTokens(created) {
  if (!created.tokens) return;
  const seats = {};
  created.tokens.seats.forEach((token, seat) => { if (token) seats[seat] = token; });
  saveGameTokens(created.id, { owner: created.tokens.owner, seats });
}

/** Takes tokens from a link (`?owner=...&seat1=...`) into this browser's keys. */
export function acceptGameLink(id, params) {
  const tokens = gameTokens(id);
  for (const [key, value] of params) {
    const seat = /^seat(\d+)$/.exec(key);
    if (seat) tokens.seats[seat[1]] = value;
    else if (key === 'owner') tokens.owner = value;
  }
  saveGameTokens(id, tokens);
}

/** Gives a seat away: this browser stops playing it. */
export function dropSeatToken(id, seat) {
  const tokens = gameTokens(id);
  delete tokens.seats[seat];
  saveGameTokens(id, tokens);
}

export const seriesToken = (id) => localStorage.getItem(`ply.series.${id}`);
export const keepSeriesToken = (series) => { if (series.token) localStorage.setItem(`ply.series.${series.id}`, series.token); };

/** A WebSocket that reconnects until closed; onMessage gets parsed JSON. */
export function liveSocket(path, onMessage) {
  let socket = null;
  let closed = false;
  let delay = 500;
  function open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${proto}//${location.host}${path}`);
    socket.onmessage = (e) => {
      delay = 500;
      try { onMessage(JSON.parse(e.data)); } catch (err) { console.error(err); }
    };
    socket.onclose = () => {
      if (closed) return;
      setTimeout(() => { if (!closed) open(); }, delay);
      delay = Math.min(delay * 2, 5000);
    };
  }
  open();
  return { close() { closed = true; if (socket) socket.close(); } };
}

export function toast(message, kind = '') {
  const box = document.getElementById('toasts');
  const el = h(`div.toast${kind ? '.' + kind : ''}`, message);
  box.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3000);
}

export function showError(err) {
  toast(err instanceof Error ? err.message : String(err), 'error');
}

export function ago(ms) {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

export const pct = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;

/** "mcts · 1 s" for an AI side, "Human" otherwise. */
export function sideLabel(side) {
  if (side.name) return side.name;
  if (side.kind !== 'ai') return 'Human';
  return side.agent;
}

export function sideDetail(side) {
  if (side.kind !== 'ai') return 'plays with the mouse or touch';
  // A budget in the spec itself overrides the time per move.
  const own = /[:,](iters|time)=(\d+)/.exec(side.agent || '');
  if (own) return own[1] === 'iters' ? `AI · ${own[2]} iterations per move` : `AI · ${own[2]} ms per move`;
  const t = side.time_ms >= 1000 ? `${side.time_ms / 1000} s` : `${side.time_ms} ms`;
  return `AI · ${t} per move`;
}
