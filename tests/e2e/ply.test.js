// End-to-end: the real `ply serve` binary on a free port with a temporary data directory,
// driven through headless Chromium by clicks, as a person would. Screenshots go to
// artifacts/ at the repository's root.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, startServer as startPly, stopServer, launchBrowser, screenshot, apiCall, sleep } from './harness.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ply-e2e-data-'));

let server = null;
let base = '';
let context = null;
let page = null;

const startServer = () => startPly(dataDir);
const shot = (name, p = page) => screenshot(p, name);

async function openLobby() {
  await page.goto(`${base}/#/`);
  await page.locator('.game-card').first().waitFor();
}

/** In the lobby: picks a game, a mode, and for each listed seat an agent and parameters. */
async function setUp(game, mode, seats = {}) {
  await openLobby();
  await page.click(`.game-card[data-game="${game}"]`);
  await page.click(`.segmented [data-mode="${mode}"]`);
  for (const [seat, { agent, params }] of Object.entries(seats)) {
    const card = page.locator(`.side-card[data-seat="${seat}"]`);
    await card.locator('select[name=agent]').selectOption(agent);
    if (params) {
      if (!(await card.locator('details').evaluate((d) => d.open))) await card.locator('summary').click();
      await card.locator('input[name=params]').fill(params);
    }
  }
}

/** In the lobby: sets a game option (a menu or a number field). */
async function setOption(name, value) {
  const field = page.locator(`[name=${name}]`).first();
  if (await field.evaluate((el) => el.tagName === 'SELECT')) await field.selectOption(value);
  else {
    await field.fill(String(value));
    await field.dispatchEvent('change');
  }
}

/** Where a Gomoku point (`h8`) is on the screen, from the board's own geometry. */
async function pointXY(name, p = page) {
  return p.evaluate((name) => {
    const svg = document.querySelector('.gm-board');
    const cell = Number(svg.dataset.cell);
    const margin = Number(svg.dataset.margin);
    const x = name.charCodeAt(0) - 97;
    const y = Number(name.slice(1)) - 1;
    const at = new DOMPoint(margin + x * cell, margin + y * cell).matrixTransform(svg.getScreenCTM());
    return { x: at.x, y: at.y };
  }, name);
}

async function clickPoint(name, p = page) {
  const { x, y } = await pointXY(name, p);
  await p.mouse.click(x, y);
}

/** The stones on the Gomoku board: {h8: 'black', ...}. */
async function stones(p = page) {
  return p.locator('.gm-stones .gm-stone').evaluateAll((els) => Object.fromEntries(
    els.map((el) => [el.dataset.point, el.classList.contains('black') ? 'black' : 'white'])));
}

async function statusText() {
  return (await page.locator('[data-testid=status]').textContent()).trim();
}

async function waitForOver(timeout = 120000) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]');
    return s && /wins|You win|Draw|stopped/.test(s.textContent);
  }, null, { timeout });
}

/** Waits until the human may act or the game is over; returns which. */
async function waitForTurn() {
  const handle = await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]');
    if (!s) return null;
    if (/wins|You win|Draw|stopped/.test(s.textContent)) return 'over';
    if (/Your move/.test(s.textContent)) return 'move';
    return null;
  }, null, { timeout: 60000, polling: 50 }).catch(async (err) => {
    await shot('failure-wait-for-turn');
    throw new Error(`${err.message}; status: ${await statusText()}`);
  });
  return handle.jsonValue();
}

/** Calls the API directly: a quick way to set games up. `token`: a seat's or the game's. */
const call = (method, p, body, token) => apiCall(base, method, p, body, token);

/** The address that opens a game created through the API with all its tokens, as its creator. */
function gameLink(created) {
  const params = new URLSearchParams({ owner: created.tokens.owner });
  created.tokens.seats.forEach((token, seat) => { if (token) params.set(`seat${seat}`, token); });
  return `${base}/#/game/${created.id}?${params}`;
}

/** Polls a game until `done(view)`. */
async function waitForGame(id, done, timeout = 60000) {
  const end = Date.now() + timeout;
  for (;;) {
    const view = await call('GET', `/api/games/${id}`);
    if (done(view)) return view;
    if (Date.now() > end) throw new Error(`game ${id} did not get there: ${view.status}, ${view.actions.length} actions`);
    await sleep(50);
  }
}

/** The record's entries as the game page shows them, without their numbers. */
async function recordTexts(p = page) {
  return p.locator('[data-testid=record] li').evaluateAll((els) => els.map((li) => li.lastChild.textContent));
}

/** Asserts that an element is entirely inside a viewport of the given size, as it is scrolled now. */
async function assertOnScreen(locator, what, width, height) {
  const box = await locator.boundingBox();
  assert.ok(box, `${what} is shown`);
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
  assert.ok(inside, `${what} is on the ${width}x${height} screen: x ${box.x.toFixed(0)}..${(box.x + box.width).toFixed(0)}, y ${box.y.toFixed(0)}..${(box.y + box.height).toFixed(0)}`);
}

before(async () => {
  assert.ok(fs.existsSync(bin), `no ply binary at ${bin}: build it first (cargo build -p ply-cli)`);
  server = await startServer();
  base = server.url;
  ({ context, page } = await launchBrowser());
});

after(async () => {
  if (context) await context.close();
  if (server) await stopServer(server);
});

test('the lobby lists the games and their options', async () => {
  await openLobby();
  const games = await page.locator('.game-card').evaluateAll((cards) => cards.map((c) => c.dataset.game));
  // The server's games are the registry's, the same as `ply games` lists (ply_games::all()).
  const catalog = await call('GET', '/api/catalog');
  const listed = spawnSync(bin, ['games'], { encoding: 'utf8' }).stdout.split('\n')
    .filter((line) => /^\S/.test(line)).map((line) => line.split(/\s+/)[0]);
  assert.ok(listed.length >= 1, 'ply games lists games');
  assert.deepEqual(catalog.map((g) => g.name), listed);
  assert.deepEqual(games.sort(), listed.sort(), 'a card for every game');
  await page.click('.game-card[data-game="einstein"]');
  await page.locator('select[name=setup]').waitFor();
  await shot('lobby');
});

test('h() shows numbers and text given as children, 0 included', async () => {
  await openLobby();
  const shown = await page.evaluate(async () => {
    const { h } = await import('/ui.js');
    return [h('td', 0), h('td', 7), h('td', 'x'), h('td', ''), h('td', 0, 1), h('td', { class: 'num' }, 0), h('td', [0, 'a'])]
      .map((el) => el.textContent);
  });
  assert.deepEqual(shown, ['0', '7', 'x', '', '01', '0', '0a']);
});

test('EinStein: a human beats or loses to the AI by clicking, arranging the cubes first', { timeout: 240000 }, async () => {
  await setUp('einstein', 'hva', { 1: { agent: 'mcts', params: 'iters=300' } });
  await page.locator('select[name=setup]').selectOption('choose');
  await page.locator('select[name=pace]').selectOption('250');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('.es-board').waitFor();
  assert.equal(await page.locator('.es-sq').count(), 25);

  // Red arranges first: swap two cubes, then confirm.
  await page.locator('[data-testid=confirm-setup]').waitFor();
  await page.click('.es-sq[data-square="0,0"]');
  await page.click('.es-sq[data-square="2,0"]');
  await shot('einstein-arrange');
  await page.click('[data-testid=confirm-setup]');

  let moves = 0;
  for (;;) {
    const turn = await waitForTurn();
    if (turn === 'over') break;
    // The die has been rolled and shown; the cubes that may move are highlighted.
    await page.locator('.es-die .es-die-face').waitFor();
    const movable = page.locator('.cube.movable');
    assert.ok(await movable.count() >= 1, 'some cube may move');
    if (moves === 2) await shot('einstein-move');
    await movable.first().click();
    const target = page.locator('.es-sq.target');
    assert.ok(await target.count() >= 1, 'the chosen cube shows its targets');
    await target.first().click();
    moves += 1;
    await page.waitForFunction(() => !/Your move/.test(document.querySelector('[data-testid=status]').textContent) || false, null, { timeout: 10000 }).catch(() => {});
  }
  assert.ok(moves >= 1, 'the human moved');
  const status = await statusText();
  assert.match(status, /You win|Blue wins/);
  const cubes = await page.locator('.es-board .cube').count();
  assert.ok(cubes >= 1 && cubes <= 12, `${cubes} cubes on the board`);
  assert.ok(await page.locator('[data-testid=record] li').count() > moves, 'the record lists moves and dice');
  await page.locator('[data-testid=replay]').waitFor();
  await page.locator('[data-testid=thinking]').waitFor();
  await shot('einstein-over');
  // The replay goes back to the start: no cubes before the arrangements.
  await page.locator('[data-testid=replay]').fill('0');
  assert.equal(await page.locator('.es-board .cube').count(), 0);
  await page.locator('[data-testid=replay]').fill('2');
  assert.equal(await page.locator('.es-board .cube').count(), 12);
  await shot('einstein-replay');
});

const DIE = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** One side's cubes on an EinStein board (the position's JSON rows), row by row from the top,
 * each row read left to right: `123/45/6`. */
function cubeRows(board, prefix) {
  return board.map((row) => row.filter((c) => c && c[0] === prefix).map((c) => c[1]).join('')).filter(Boolean).join('/');
}

test('EinStein record: a roll shows its own die face, an arrangement its cubes as they stand', { timeout: 120000 }, async () => {
  // Two humans arrange their cubes; then the die is rolled.
  const chosen = await call('POST', '/api/games', { game: 'einstein', options: 'setup=choose', sides: [{ kind: 'human' }, { kind: 'human' }] });
  await call('POST', `/api/games/${chosen.id}/move`, { action: 'setup:123456' }, chosen.tokens.seats[0]);
  await call('POST', `/api/games/${chosen.id}/move`, { action: 'setup:654321' }, chosen.tokens.seats[1]);
  const view = await waitForGame(chosen.id, (v) => v.actions.length >= 3);
  const board = view.position.json.board;
  assert.equal(cubeRows(board, 'r'), '123/45/6');
  assert.equal(cubeRows(board, 'b'), '1/23/456');
  const roll = Number(view.actions[2].action);
  await page.goto(`${base}/#/game/${chosen.id}`);
  await page.locator('[data-testid=record] li').nth(2).waitFor();
  assert.deepEqual(await recordTexts(), ['Red 123/45/6', 'Blue 1/23/456', `${DIE[roll - 1]} ${roll}`]);

  // A match of two games, arrangements drawn by chance, blue starting: each arrangement is
  // shown for the side whose cubes it placed, as they then stand on the board.
  const match = await call('POST', '/api/games', {
    game: 'einstein', options: 'setup=random,first=blue,match=2', delay_ms: 0,
    sides: [{ kind: 'ai', agent: 'random', time_ms: 100 }, { kind: 'ai', agent: 'random', time_ms: 100 }],
  });
  await waitForGame(match.id, (v) => v.status === 'over', 90000);
  const rec = await call('GET', `/api/games/${match.id}/record`);
  const count = (b, prefix) => b.flat().filter((c) => c && c[0] === prefix).length;
  // The record (docs/formats.md): actions in text form, and the position before and after each.
  const expected = rec.actions.map((a, i) => {
    if (/^[1-6]$/.test(a)) return `${DIE[a - 1]} ${a}`;
    if (!a.startsWith('setup:')) return null;
    const before = rec.positions[i].json.board;
    const after = rec.positions[i + 1].json.board;
    const prefix = count(after, 'r') > count(before, 'r') ? 'r' : 'b';
    return `${prefix === 'r' ? 'Red' : 'Blue'} ${cubeRows(after, prefix)}`;
  });
  const setups = expected.filter((e) => e && /^(Red|Blue) /.test(e));
  assert.ok(setups.length >= 4, `two games, two arrangements each: ${setups}`);
  assert.match(setups[0], /^Blue /, 'blue starts the match');
  await page.goto(`${base}/#/game/${match.id}`);
  await page.locator('[data-testid=replay]').waitFor();
  await page.locator('[data-testid=record] li').nth(rec.actions.length - 1).waitFor();
  const shown = await recordTexts();
  assert.equal(shown.length, rec.actions.length);
  expected.forEach((e, i) => { if (e !== null) assert.equal(shown[i], e, `record entry ${i + 1} (${rec.actions[i]})`); });
  await shot('einstein-record');
});

test('Connect Four: a short game against the AI by clicking columns', { timeout: 180000 }, async () => {
  await setUp('connect4', 'hva', { 1: { agent: 'random' } });
  await page.locator('select[name=pace]').selectOption('0');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  let moves = 0;
  for (;;) {
    const turn = await waitForTurn();
    if (turn === 'over') break;
    if (moves === 0) {
      // A hint names a column (the AI side's agent answers) and plays nothing; it goes once
      // the game moves on.
      await page.click('[data-testid=hint]');
      await page.waitForFunction(() => /Hint from random: col \d/.test(document.querySelector('[data-testid=hint-text]').textContent), null, { timeout: 10000 });
      assert.equal(await page.locator('.c4-disc.x, .c4-disc.o').count(), 0);
    }
    // Stack the centre column, else the first column with room.
    const centre = page.locator('.c4-col.playable[data-col="4"]');
    await (await centre.count() ? centre : page.locator('.c4-col.playable').first()).click();
    moves += 1;
    if (moves === 3) await shot('connect4-play');
    await page.waitForFunction((n) => document.querySelectorAll('.c4-disc.x').length >= n, moves, { timeout: 10000 });
    if (moves === 1) await page.waitForFunction(() => document.querySelector('[data-testid=hint-text]').textContent === '', null, { timeout: 10000 });
  }
  assert.match(await statusText(), /You win|Yellow wins|Draw/);
  assert.ok(await page.locator('.c4-disc.x').count() >= 4 || /Yellow|Draw/.test(await statusText()));
  await shot('connect4-over');
});

test('Gomoku: a human plays stones against the AI by clicking intersections, to the end', { timeout: 240000 }, async () => {
  await setUp('gomoku', 'hva', { 1: { agent: 'alphabeta', params: 'time=200' } });
  await setOption('size', 15);
  await setOption('rule', 'freestyle');
  await page.locator('select[name=pace]').selectOption('0');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('.gm-board[data-size="15"]').waitFor();
  // Coordinates along the edges: letters a-o across, numbers 1-15 down from the top.
  const coords = await page.locator('.gm-coord').allTextContents();
  for (const c of ['a', 'h', 'o', '1', '8', '15']) assert.ok(coords.includes(c), `coordinate ${c} shown`);
  assert.equal(await page.locator('.gm-star').count(), 5);

  // Black builds a row through the centre, then plays next to its own stones.
  const plan = ['h8', 'i8', 'j8', 'g8', 'k8', 'f8', 'l8', 'h9', 'h7', 'i9', 'i7', 'g9', 'g7', 'j9', 'j7'];
  let moves = 0;
  let sawLine = false;
  for (;;) {
    const turn = await waitForTurn();
    if (turn === 'over') break;
    const board = await stones();
    const whites = Object.values(board).filter((c) => c === 'white').length;
    let point = plan.find((m) => !board[m]);
    if (!point) {
      // Any empty point near the centre.
      for (let r = 1; !point && r < 8; r++) {
        for (let dx = -r; dx <= r && !point; dx++) {
          for (let dy = -r; dy <= r && !point; dy++) {
            const name = `${String.fromCharCode(97 + 7 + dx)}${8 + dy}`;
            if (!board[name]) point = name;
          }
        }
      }
    }
    if (moves === 3) {
      // The hover ghost: a translucent stone where the next one would go.
      const { x, y } = await pointXY(point);
      await page.mouse.move(x, y);
      await page.locator('.gm-ghost .gm-stone.ghost.black').waitFor();
      await shot('gomoku-play');
    }
    await clickPoint(point);
    moves += 1;
    // The stone appears where it was clicked; the AI answers (unless that stone won).
    await page.locator(`.gm-stones .gm-stone.black[data-point="${point}"]`).waitFor({ timeout: 10000 });
    await page.waitForFunction((n) => document.querySelectorAll('.gm-stones .gm-stone.white').length > n
      || /wins|You win|Draw/.test(document.querySelector('[data-testid=status]').textContent), whites, { timeout: 30000 });
    // The AI's report: its value and best line, moves as points like h8 (a search cut short
    // by its time may report no line: then the next answer is checked).
    const line = await page.locator('[data-testid=thinking] .gm-line-move').allTextContents();
    if (!sawLine && line.length) {
      sawLine = true;
      assert.ok(line.every((m) => /^[a-o]\d{1,2}$/.test(m.trim())), `best line ${line}`);
      assert.match(await page.locator('[data-testid=thinking]').textContent(), /value/);
      // The rest of the line can be drawn on the board, numbered, on the points still empty.
      const toggle = page.locator('[data-testid=line-on-board]');
      if (await toggle.count()) {
        await toggle.check();
        const now = await stones();
        const expected = line.slice(1).map((m) => m.trim()).filter((m) => !now[m]);
        assert.deepEqual(await page.locator('.gm-overlay .gm-stone.plan').evaluateAll((els) => els.map((e) => e.dataset.point)), expected);
        await toggle.uncheck();
        assert.equal(await page.locator('.gm-overlay .gm-stone.plan').count(), 0);
      }
    }
    if (moves >= 40) {
      page.once('dialog', (d) => d.accept());
      await page.click('[data-testid=resign]');
      break;
    }
  }
  await waitForOver();
  assert.ok(sawLine, 'the AI showed a best line');
  const status = await statusText();
  assert.match(status, /You win|White wins/);
  const board = await stones();
  const plies = Object.keys(board).length;
  assert.ok(plies >= 9, `${plies} stones`);
  if (!/resigned/.test(status)) {
    // The winning five is highlighted, with a stroke through it.
    assert.ok(await page.locator('.gm-stone.five').count() >= 5, 'the five is highlighted');
    assert.equal(await page.locator('.gm-five').count(), 1);
  }
  assert.equal(await page.locator('.gm-last').count(), 1, 'the last stone is marked');
  assert.equal(await page.locator('[data-testid=record] li').count(), plies);
  await page.locator('[data-testid=replay]').waitFor();
  await shot('gomoku-over');

  // The replay redraws the board from each position's moves.
  await page.locator('[data-testid=replay]').fill('0');
  assert.equal(await page.locator('.gm-stones .gm-stone').count(), 0);
  await page.locator('[data-testid=replay]').fill('3');
  const record = (await page.locator('[data-testid=record] li').allTextContents()).map((t) => /[a-o]\d+$/.exec(t.trim())[0]);
  assert.deepEqual(await stones(), { [record[0]]: 'black', [record[1]]: 'white', [record[2]]: 'black' });
  assert.equal(await page.locator('.gm-five').count(), 0, 'no five before the end');
  // Move numbers: one per stone, the third the last.
  await page.locator('[data-testid=gm-numbers]').check();
  assert.deepEqual((await page.locator('.gm-number').allTextContents()).sort(), ['1', '2', '3']);
  assert.equal(await page.locator('.gm-number.last').textContent(), '3');
  await shot('gomoku-replay');
  await page.locator('[data-testid=gm-numbers]').uncheck();
  await page.locator('[data-testid=replay]').fill(String(plies));
  assert.equal(await page.locator('.gm-stones .gm-stone').count(), plies);
});

test('Gomoku renju: black\'s forbidden points are marked and cannot be played', { timeout: 120000 }, async () => {
  await setUp('gomoku', 'hvh');
  await setOption('size', 15);
  await setOption('rule', 'renju');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('.gm-board').waitFor();
  // Black g8 h8 i9 i10, white in the corners: i8 would make two open threes for black.
  const moves = ['g8', 'a1', 'h8', 'o1', 'i9', 'a15', 'i10'];
  for (const [i, m] of moves.entries()) {
    await clickPoint(m);
    await page.locator(`.gm-stones .gm-stone.${i % 2 ? 'white' : 'black'}[data-point="${m}"]`).waitFor({ timeout: 10000 });
  }
  assert.equal(await page.locator('.gm-forbidden').count(), 0, 'nothing is forbidden to white');
  await clickPoint('o15');
  await page.locator('.gm-forbidden[data-point="i8"]').waitFor({ timeout: 10000 });
  assert.deepEqual(await page.locator('.gm-forbidden').evaluateAll((els) => els.map((e) => e.dataset.point)), ['i8']);
  assert.match(await page.locator('.gm-info').textContent(), /Renju/);
  // No ghost over the forbidden point, and a click there plays nothing.
  const { x, y } = await pointXY('i8');
  await page.mouse.move(x, y);
  assert.equal(await page.locator('.gm-ghost .gm-stone').count(), 0);
  await shot('gomoku-renju');
  await page.mouse.click(x, y);
  assert.match(await page.locator('.gm-info').textContent(), /i8 is forbidden/);
  await page.waitForTimeout(300);
  assert.equal(Object.keys(await stones()).length, 8);
  assert.match(await statusText(), /Black to move/);
  // Elsewhere black may play; then white is to move and nothing is marked.
  await clickPoint('c3');
  await page.locator('.gm-stones .gm-stone.black[data-point="c3"]').waitFor({ timeout: 10000 });
  assert.equal(await page.locator('.gm-forbidden').count(), 0);
  // The keyboard: the arrows move a cursor from the last stone, Enter plays.
  await page.locator('.gm-board').focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  await page.locator('.gm-cursor').waitFor();
  assert.equal(await page.locator('.gm-where').textContent(), 'd3');
  await page.keyboard.press('Enter');
  await page.locator('.gm-stones .gm-stone.white[data-point="d3"]').waitFor({ timeout: 10000 });
  page.once('dialog', (d) => d.accept());
  await page.click('[data-testid=resign]');
  await waitForOver();
});

test('Gomoku 20x20: AI vs AI to the end, move numbers readable', { timeout: 240000 }, async () => {
  await setUp('gomoku', 'ava', { 0: { agent: 'pattern' }, 1: { agent: 'alphabeta', params: 'time=50' } });
  await setOption('size', 20);
  await setOption('rule', 'freestyle');
  await page.locator('select[name=pace]').selectOption('0');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('.gm-board[data-size="20"]').waitFor();
  await page.locator('[data-testid=gm-numbers]').check();
  await waitForOver(200000);
  assert.match(await statusText(), /Black wins|White wins|Draw/);
  const count = await page.locator('.gm-stones .gm-stone').count();
  assert.equal(await page.locator('.gm-number').count(), count);
  assert.equal(await page.locator('.gm-coord').count(), 4 * 20);
  await shot('gomoku-20x20');
  await page.locator('[data-testid=gm-numbers]').uncheck();
});

test('AI vs AI: a watched game runs to its end, with the AI\'s thoughts shown', { timeout: 180000 }, async () => {
  await setUp('einstein', 'ava', { 0: { agent: 'mcts', params: 'iters=300' }, 1: { agent: 'expectimax', params: 'depth=2' } });
  await page.locator('select[name=setup]').selectOption('random');
  await page.locator('select[name=pace]').selectOption('250');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('[data-testid=pause]').waitFor();
  await page.locator('[data-testid=thinking]').waitFor({ timeout: 20000 });
  await shot('ai-vs-ai-live');
  await waitForOver();
  assert.match(await statusText(), /Red wins|Blue wins/);
  await shot('ai-vs-ai-over');
});

test('an automatic test plays its games and shows the score with its interval', { timeout: 180000 }, async () => {
  await setUp('connect4', 'test', { 0: { agent: 'alphabeta', params: 'depth=2' }, 1: { agent: 'random' } });
  await page.locator('input[name=games]').fill('6');
  await page.locator('input[name=games]').dispatchEvent('change');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/test\/\d+/);
  await page.waitForFunction(() => /finished/.test(document.querySelector('[data-testid=series-status]')?.textContent || ''), null, { timeout: 150000 });
  const rows = await page.locator('[data-testid=score-table] tbody tr').count();
  assert.equal(rows, 2);
  assert.match(await page.locator('[data-testid=series-score]').textContent(), /%/);
  // Wins, draws and losses show as numbers, 0 included; the score as a percentage.
  const cells = await page.locator('[data-testid=score-table] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td.num')].map((td) => td.textContent)));
  for (const row of cells) {
    assert.equal(row.length, 4);
    row.slice(0, 3).forEach((c) => assert.match(c, /^\d+$/, `wins, draws, losses: ${row}`));
    assert.match(row[3], /%$/);
  }
  const [wins, draws, losses] = cells[0].map(Number);
  assert.equal(wins + draws + losses, 6);
  await shot('automatic-test');
});

test('an automatic test of three agents at one Pig table shows each one\'s share against the fair share', { timeout: 180000 }, async () => {
  await setUp('pig', 'test', { 0: { agent: 'expectimax', params: 'depth=2' }, 1: { agent: 'oep', params: 'iters=300' }, 2: { agent: 'random' } });
  await page.locator('input[name=games]').fill('6');
  await page.locator('input[name=games]').dispatchEvent('change');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/test\/\d+/);
  await page.waitForFunction(() => /finished/.test(document.querySelector('[data-testid=series-status]')?.textContent || ''), null, { timeout: 150000 });
  const rows = await page.locator('[data-testid=score-table] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.side));
  assert.deepEqual(rows, ['A', 'B', 'C']);
  const shares = await page.locator('[data-testid=score-table] tbody tr td:nth-child(3)').allTextContents();
  const total = shares.map((t) => Number(t.replace('%', ''))).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(total - 100) < 0.5, `the shares sum to 100%: ${shares}`);
  assert.match(await page.locator('section.card .small.muted').first().textContent(), /Fair share 33\.3%/);
  await shot('automatic-test-three');
});

test('after a restart every game is still listed and can be replayed', { timeout: 60000 }, async () => {
  await stopServer(server);
  server = await startServer();
  base = server.url;
  await page.goto(`${base}/#/games`);
  await page.locator('[data-testid=games] tbody tr').first().waitFor();
  const rows = await page.locator('[data-testid=games] tbody tr').count();
  assert.ok(rows >= 3 + 6, `${rows} games listed`);
  assert.ok(await page.locator('tr:has-text("EinStein")').count() >= 2);
  await shot('games-after-restart');
  await page.locator('tr:has-text("EinStein"):has-text("Human vs mcts")').first().click();
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('[data-testid=replay]').waitFor();
  await page.locator('.es-board .cube').first().waitFor();
  assert.match(await statusText(), /You win|Red wins|Blue wins/);
});

test('pages fit a phone-sized screen', { timeout: 60000 }, async () => {
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`${base}/#/`);
  await phone.locator('.game-card').first().waitFor();
  await shot('phone-lobby', phone);
  await phone.goto(`${base}/#/games`);
  await phone.locator('[data-testid=games] tbody tr').first().waitFor();
  await phone.locator('tr:has-text("EinStein"):has-text("Human vs mcts")').first().click();
  await phone.locator('.es-board .cube').first().waitFor();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (page is ${width}px wide)`);
  await shot('phone-einstein', phone);
  await phone.close();
});

test('Gomoku on a phone: the board fits, and a tap on a dense board asks for a second tap', { timeout: 60000 }, async () => {
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`${base}/#/games`);
  await phone.locator('[data-testid=games] tbody tr').first().waitFor();
  await phone.locator('tr:has-text("Gomoku"):has-text("Human vs alphabeta")').first().click();
  await phone.locator('.gm-board .gm-stone').first().waitFor();
  let width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (page is ${width}px wide)`);
  const box = await phone.locator('.gm-board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the whole board is on the screen');
  await shot('phone-gomoku', phone);

  // 22x22 on a phone: about 15 px between lines, so a tap only shows where the stone would go.
  const created = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'gomoku', options: 'size=22,rule=renju', sides: [{ kind: 'human' }, { kind: 'human' }] }),
  }).then((r) => r.json());
  // Both seats' tokens come with the link, as when a game is handed over.
  const [black, white] = created.tokens.seats;
  await phone.goto(`${base}/#/game/${created.id}?seat0=${black}&seat1=${white}`);
  await phone.locator('.gm-board[data-size="22"]').waitFor();
  width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling on 22x22 (page is ${width}px wide)`);
  const tap = async (name) => {
    const { x, y } = await pointXY(name, phone);
    await phone.evaluate(([x, y]) => {
      const svg = document.querySelector('.gm-board');
      svg.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', clientX: x, clientY: y, bubbles: true }));
      svg.dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }));
    }, [x, y]);
  };
  await tap('k11');
  await phone.locator('.gm-ghost .gm-stone.pending[data-point="k11"]').waitFor();
  assert.match(await phone.locator('.gm-info').textContent(), /Tap k11 again/);
  assert.equal(await phone.locator('.gm-stones .gm-stone').count(), 0);
  await shot('phone-gomoku-22', phone);
  await tap('k11');
  await phone.locator('.gm-stones .gm-stone.black[data-point="k11"]').waitFor({ timeout: 10000 });
  await phone.close();
});

/** Another browser, with its own storage: a friend's, or a stranger's. */
async function otherBrowser() {
  const { context: other, page: p } = await launchBrowser(' (other browser)');
  return { other, p };
}

test('two browsers: a seat handed over by its link, and a watcher who can only watch', { timeout: 120000 }, async () => {
  await setUp('connect4', 'hvh');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  const gameUrl = page.url();
  await page.click('[data-testid=invite-1]');
  const link = await page.locator('[data-testid=invite-link]').inputValue();
  assert.match(link, /#\/game\/\d+\?seat1=[0-9a-f]{32}$/);

  const friend = await otherBrowser();
  const watcher = await otherBrowser();
  try {
    await friend.p.goto(link);
    await friend.p.locator('.c4-board').waitFor();
    assert.ok(!friend.p.url().includes('seat1='), 'the token leaves the address bar');
    await watcher.p.goto(gameUrl);
    await watcher.p.locator('.c4-board').waitFor();

    // Red (this browser) moves; the friend's page then shows Yellow's move as theirs.
    await page.locator('.c4-col.playable[data-col="4"]').click();
    await friend.p.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid=status]').textContent), null, { timeout: 10000 });
    assert.match(await statusText(), /Yellow to move/);
    assert.equal(await page.locator('.c4-col.playable').count(), 0, 'Red cannot play for Yellow');
    await friend.p.locator('.c4-col.playable[data-col="3"]').click();
    await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid=status]').textContent), null, { timeout: 10000 });

    // The watcher sees both moves, and has nothing to click but the download.
    await watcher.p.waitForFunction(() => document.querySelectorAll('.c4-disc.x, .c4-disc.o').length === 2, null, { timeout: 10000 });
    assert.equal(await watcher.p.locator('.c4-col.playable').count(), 0);
    for (const control of ['hint', 'undo', 'resign', 'pause']) {
      assert.equal(await watcher.p.locator(`[data-testid=${control}]`).count(), 0, `no ${control} for a watcher`);
    }
    // Yellow resigns from the friend's browser: the seat's own token.
    friend.p.once('dialog', (d) => d.accept());
    await friend.p.click('[data-testid=resign]');
    await page.waitForFunction(() => /Yellow resigned/.test(document.querySelector('[data-testid=status]').textContent), null, { timeout: 10000 });
    await shot('two-browsers-friend', friend.p);
  } finally {
    await friend.other.close();
    await watcher.other.close();
  }
});

test('at 1280x800 the lobby\'s Start button, the whole Gomoku board and a hint are on the screen', { timeout: 120000 }, async () => {
  const [W, H] = [1280, 800];
  const desk = await context.newPage();
  await desk.setViewportSize({ width: W, height: H });
  const top = () => desk.evaluate(() => window.scrollTo(0, 0));

  // The lobby: the Start button without scrolling, whatever the game and the mode.
  const catalog = await call('GET', '/api/catalog');
  await desk.goto(`${base}/#/`);
  await desk.locator('.game-card').first().waitFor();
  for (const { name: game, num_players: players } of catalog) {
    await desk.click(`.game-card[data-game="${game}"]`);
    // The lobby has the game's number of players (from the server) once it shows a side each.
    await desk.waitForFunction((n) => document.querySelectorAll('.side-card').length === n, players);
    const modes = await desk.locator('.segmented.modes [data-mode]').evaluateAll((els) => els.map((e) => e.dataset.mode));
    for (const mode of modes) {
      await desk.click(`.segmented.modes [data-mode="${mode}"]`);
      await top();
      await assertOnScreen(desk.locator('[data-testid=start]'), `the Start button (${game}, ${mode})`, W, H);
    }
  }
  await desk.click('.game-card[data-game="gomoku"]');
  await desk.click('.segmented.modes [data-mode="hva"]');
  await top();
  await shot('desktop-lobby', desk);

  // A 15x15 Gomoku game against the AI: the board and its four rows of coordinates.
  const game = await call('POST', '/api/games', {
    game: 'gomoku', options: 'size=15,rule=freestyle', delay_ms: 0,
    sides: [{ kind: 'human' }, { kind: 'ai', agent: 'alphabeta', time_ms: 200 }],
  });
  await desk.goto(gameLink(game));
  await desk.locator('.gm-board[data-size="15"]').waitFor();
  await clickPoint('h8', desk);
  await desk.locator('.gm-stones .gm-stone.white').waitFor({ timeout: 20000 });
  await desk.locator('[data-testid=thinking]').waitFor();
  await top();
  await assertOnScreen(desk.locator('.gm-board'), 'the Gomoku board', W, H);
  const coords = desk.locator('.gm-coord');
  assert.equal(await coords.count(), 4 * 15);
  for (let i = 0; i < 4 * 15; i++) await assertOnScreen(coords.nth(i), `coordinate ${await coords.nth(i).textContent()}`, W, H);
  await assertOnScreen(desk.locator('.gm-bar'), 'the bar under the board', W, H);

  // A hint: the button and then the hint itself on the screen, next to the button.
  await desk.locator('[data-testid=hint]:not([disabled])').waitFor();
  await top();
  await assertOnScreen(desk.locator('[data-testid=hint]'), 'the Hint button', W, H);
  await desk.click('[data-testid=hint]');
  await desk.waitForFunction(() => /Hint from alphabeta: [a-o]\d+/.test(document.querySelector('[data-testid=hint-text]').textContent), null, { timeout: 15000 });
  assert.equal(await desk.evaluate(() => window.scrollY), 0, 'nothing scrolled');
  await assertOnScreen(desk.locator('[data-testid=hint-text]'), 'the hint', W, H);
  const button = await desk.locator('[data-testid=hint]').boundingBox();
  const hint = await desk.locator('[data-testid=hint-text]').boundingBox();
  assert.ok(Math.abs(hint.y - (button.y + button.height)) < 120, `the hint is next to its button (${hint.y} vs ${button.y})`);
  await shot('desktop-gomoku-hint', desk);
  await desk.close();
});

test('the Games page pages through many games and filters them by game and status', { timeout: 180000 }, async () => {
  // Games that stay unplayed (two humans), and AI-vs-AI games that finish at once.
  const created = [];
  for (let i = 0; i < 45; i++) {
    created.push(await call('POST', '/api/games', { game: 'pig', options: '', sides: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }] }));
  }
  for (let i = 0; i < 8; i++) {
    created.push(await call('POST', '/api/games', {
      game: 'connect4', options: '', delay_ms: 0,
      sides: [{ kind: 'ai', agent: 'random', time_ms: 100 }, { kind: 'ai', agent: 'random', time_ms: 100 }],
    }));
  }
  for (const g of created.slice(45)) await waitForGame(g.id, (v) => v.status === 'over');
  const all = await call('GET', '/api/games?limit=500');
  assert.ok(all.length > 2 * 25 && all.length < 500, `${all.length} games`);
  const ids = (list) => list.map((g) => `#${g.id}`);
  const shownIds = () => page.locator('[data-testid=games] tbody tr td:first-child').allTextContents();
  const countText = () => page.locator('[data-testid=games-count]').textContent();

  await page.goto(`${base}/#/games`);
  await page.locator('[data-testid=games] tbody tr').first().waitFor();
  assert.deepEqual(await shownIds(), ids(all.slice(0, 25)));
  await page.waitForFunction((n) => document.querySelector('[data-testid=games-count]').textContent.includes(`of ${n}`), all.length);
  assert.equal(await countText(), `1–25 of ${all.length} games`);
  assert.ok(await page.locator('[data-testid=games-prev]').isDisabled());
  // An unplayed game shows its 0 actions.
  const unplayed = await page.locator(`tr[data-game="${created[44].id}"] td`).allTextContents();
  assert.equal(unplayed[4], '0');
  await shot('games-page-1');

  await page.click('[data-testid=games-next]');
  await page.waitForFunction(() => /page=2/.test(location.hash));
  await page.waitForFunction((id) => document.querySelector('[data-testid=games] tbody td')?.textContent === id, `#${all[25].id}`);
  assert.deepEqual(await shownIds(), ids(all.slice(25, 50)));
  await page.waitForFunction((text) => document.querySelector('[data-testid=games-count]').textContent === text, `26–50 of ${all.length} games`);
  // The last page, then back to the first.
  const pages = Math.ceil(all.length / 25);
  for (let p = 3; p <= pages; p++) {
    await page.click('[data-testid=games-next]');
    await page.waitForFunction((id) => document.querySelector('[data-testid=games] tbody td')?.textContent === id, `#${all[(p - 1) * 25].id}`);
  }
  assert.deepEqual(await shownIds(), ids(all.slice((pages - 1) * 25)));
  assert.ok(await page.locator('[data-testid=games-next]').isDisabled());
  await page.click('[data-testid=games-prev]');
  await page.waitForFunction((id) => document.querySelector('[data-testid=games] tbody td')?.textContent === id, `#${all[(pages - 2) * 25].id}`);
  await page.goBack();
  await page.waitForFunction((id) => document.querySelector('[data-testid=games] tbody td')?.textContent === id, `#${all[(pages - 1) * 25].id}`);

  // By game: only Pig games, counted, paged.
  await page.locator('select[name=game]').selectOption('pig');
  const pig = all.filter((g) => g.game === 'pig');
  await page.waitForFunction(() => /game=pig/.test(location.hash) && !/page=[2-9]/.test(location.hash));
  await page.waitForFunction((n) => document.querySelector('[data-testid=games-count]').textContent === `1–25 of ${n} games`, pig.length);
  assert.deepEqual(await shownIds(), ids(pig.slice(0, 25)));
  await page.click('[data-testid=games-next]');
  await page.waitForFunction((id) => document.querySelector('[data-testid=games] tbody td')?.textContent === id, `#${pig[25].id}`);
  assert.deepEqual(await shownIds(), ids(pig.slice(25, 50)));

  // By status: the finished Connect Four games.
  await page.locator('select[name=game]').selectOption('connect4');
  await page.locator('select[name=status]').selectOption('over');
  const finished = all.filter((g) => g.game === 'connect4' && g.status === 'over');
  assert.ok(finished.length >= 8);
  await page.waitForFunction((n) => document.querySelector('[data-testid=games-count]').textContent === `1–${Math.min(25, n)} of ${n} games`, finished.length);
  assert.deepEqual(await shownIds(), ids(finished.slice(0, 25)));
  // Any game that is in progress: the unplayed Pig games among them.
  await page.locator('select[name=game]').selectOption('');
  await page.locator('select[name=status]').selectOption('playing');
  const playing = all.filter((g) => g.status === 'playing');
  await page.waitForFunction((n) => document.querySelector('[data-testid=games-count]').textContent === `1–25 of ${n} games`, playing.length);
  assert.deepEqual(await shownIds(), ids(playing.slice(0, 25)));
  assert.ok(await page.locator('[data-testid=games] tbody .badge.live').count() === 25);
  await shot('games-filtered');
  // The filters are in the address: a reload keeps them.
  await page.reload();
  await page.locator('[data-testid=games] tbody tr').first().waitFor();
  assert.equal(await page.locator('select[name=status]').inputValue(), 'playing');
  assert.deepEqual(await shownIds(), ids(playing.slice(0, 25)));

  // On a phone the page fits and still pages.
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`${base}/#/games`);
  await phone.locator('[data-testid=games] tbody tr').first().waitFor();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (page is ${width}px wide)`);
  await assertOnScreen(phone.locator('[data-testid=games-next]'), 'the Next button', 390, 844);
  await shot('phone-games', phone);
  await phone.close();
});
