// What the end-to-end tests share: the real `ply serve` binary on a free port with a temporary
// data directory, headless Chromium, screenshots in artifacts/ and direct API calls.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const bin = process.env.PLY_BIN || path.join(repo, 'target/debug/ply');
export const chrome = process.env.CHROMIUM || '/usr/bin/chromium';
export const artifacts = path.join(repo, 'artifacts');

/** Starts `ply serve` on port 0 with data in `dataDir` and reads the address it prints. */
export function startServer(dataDir) {
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

export function stopServer(s) {
  return new Promise((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.once('exit', resolve);
    s.child.kill('SIGINT');
  });
}

/** A headless Chromium with its own profile (storage): one browser, or a friend's. */
export async function launchBrowser(label = '') {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ply-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chrome,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (err) => { throw new Error(`page error${label}: ${err.message}`); });
  return { context, page };
}

/** A full-page screenshot in artifacts/<name>.png. */
export async function screenshot(p, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  // The sticky top bar would otherwise sit in the middle of a scrolled full-page shot.
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** Calls the API of the server at `base` directly; `token`: a seat's or the game's. */
export async function apiCall(base, method, p, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${data.error}`);
  return data;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the status line says once a game has ended. */
export const GAME_OVER = /wins|You win|Draw|stopped/;

/** The page's status line. */
export async function readStatus(p) {
  return (await p.locator('[data-testid=status]').textContent()).trim();
}

/** Clicks something that plays an action and waits until the board `wrap` (whose `data-ply`
 * counts the game's actions) shows the game moved on, or the game is over. */
export async function playedOn(p, wrap, click) {
  const before = Number(await p.locator(wrap).getAttribute('data-ply'));
  await click();
  await p.waitForFunction(([selector, n, over]) => {
    const s = document.querySelector('[data-testid=status]')?.textContent || '';
    return Number(document.querySelector(selector).dataset.ply) > n || new RegExp(over).test(s);
  }, [wrap, before, GAME_OVER.source], { timeout: 20000 });
}

/** Waits until this browser's human may act ('move': the status says so and `ready` is on the
 * page) or the game is over ('over'); on a timeout, a screenshot named `label` and the status. */
export async function waitForHumanTurn(p, ready, label) {
  const handle = await p.waitForFunction(([selector, over]) => {
    const s = document.querySelector('[data-testid=status]')?.textContent || '';
    if (new RegExp(over).test(s)) return 'over';
    return /Your move/.test(s) && document.querySelector(selector) ? 'move' : null;
  }, [ready, GAME_OVER.source], { timeout: 60000, polling: 50 }).catch(async (err) => {
    await screenshot(p, label);
    throw new Error(`${err.message}; status: ${await readStatus(p)}`);
  });
  return handle.jsonValue();
}
