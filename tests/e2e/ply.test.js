// End-to-end: the real `ply serve` binary on a free port with a temporary data directory,
// driven through headless Chromium by clicks, as a person would. Screenshots go to
// artifacts/ at the repository's root.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const bin = process.env.PLY_BIN || path.join(repo, 'target/debug/ply');
const chrome = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = path.join(repo, 'artifacts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ply-e2e-data-'));

let server = null;
let base = '';
let context = null;
let page = null;

/** Starts `ply serve` on port 0 and reads the address it prints. */
function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`ply serve did not start: ${out}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/[0-9.:]+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
    child.stderr.on('data', (chunk) => process.stderr.write(`[ply serve] ${chunk}`));
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`ply serve exited (${code}): ${out}`)); });
  });
}

function stopServer(s) {
  return new Promise((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.once('exit', resolve);
    s.child.kill('SIGINT');
  });
}

async function shot(name, p = page) {
  fs.mkdirSync(artifacts, { recursive: true });
  // The sticky top bar would otherwise sit in the middle of a scrolled full-page shot.
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

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
      await card.locator('summary').click();
      await card.locator('input[name=params]').fill(params);
    }
  }
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

before(async () => {
  assert.ok(fs.existsSync(bin), `no ply binary at ${bin}: build it first (cargo build -p ply-cli)`);
  server = await startServer();
  base = server.url;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ply-e2e-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chrome,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (err) => { throw new Error(`page error: ${err.message}`); });
});

after(async () => {
  if (context) await context.close();
  if (server) await stopServer(server);
});

test('the lobby lists the games and their options', async () => {
  await openLobby();
  const games = await page.locator('.game-card').evaluateAll((cards) => cards.map((c) => c.dataset.game));
  assert.deepEqual(games.sort(), ['connect4', 'einstein', 'gomoku', 'pig']);
  await page.click('.game-card[data-game="einstein"]');
  await page.locator('select[name=setup]').waitFor();
  await shot('lobby');
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

test('Connect Four: a short game against the AI by clicking columns', { timeout: 180000 }, async () => {
  await setUp('connect4', 'hva', { 1: { agent: 'random' } });
  await page.locator('select[name=pace]').selectOption('0');
  await page.click('[data-testid=start]');
  await page.waitForURL(/#\/game\/\d+/);
  let moves = 0;
  for (;;) {
    const turn = await waitForTurn();
    if (turn === 'over') break;
    // Stack the centre column, else the first column with room.
    const centre = page.locator('.c4-col.playable[data-col="4"]');
    await (await centre.count() ? centre : page.locator('.c4-col.playable').first()).click();
    moves += 1;
    if (moves === 3) await shot('connect4-play');
    await page.waitForFunction((n) => document.querySelectorAll('.c4-disc.x').length >= n, moves, { timeout: 10000 });
  }
  assert.match(await statusText(), /You win|Yellow wins|Draw/);
  assert.ok(await page.locator('.c4-disc.x').count() >= 4 || /Yellow|Draw/.test(await statusText()));
  await shot('connect4-over');
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
  await shot('automatic-test');
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
  await page.locator('tr:has-text("EinStein"):has-text("Human")').first().click();
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('[data-testid=replay]').waitFor();
  await page.locator('.es-board .cube').first().waitFor();
  assert.match(await statusText(), /You win|Blue wins/);
});

test('pages fit a phone-sized screen', { timeout: 60000 }, async () => {
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`${base}/#/`);
  await phone.locator('.game-card').first().waitFor();
  await shot('phone-lobby', phone);
  await phone.goto(`${base}/#/games`);
  await phone.locator('[data-testid=games] tbody tr').first().waitFor();
  await phone.locator('tr:has-text("EinStein"):has-text("Human")').first().click();
  await phone.locator('.es-board .cube').first().waitFor();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (page is ${width}px wide)`);
  await shot('phone-einstein', phone);
  await phone.close();
});
