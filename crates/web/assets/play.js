// A game: the board (drawn by the game's page module), the players, what the AI thinks, the
// controls, the record and, once the game is over, a replay.
import { h, clear, get, post, api, liveSocket, showError, sideLabel, sideDetail, pct, gameTokens, dropSeatToken, keepGameTokens } from './ui.js';
import { pageFor, titleOf } from './games/index.js';

const SPEEDS = [[1500, 'Slow'], [700, 'Relaxed'], [250, 'Brisk'], [0, 'Instant']];

// Replay buttons: start, back, forward, end.
const ICONS = {
  start: 'M6 5h2v14H6zM19 5v14L9 12z',
  back: 'M17 5v14L6 12z',
  forward: 'M7 5v14l11-7z',
  end: 'M16 5h2v14h-2zM5 5v14l10-7z',
};

function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  p.setAttribute('d', ICONS[name]);
  p.setAttribute('fill', 'currentColor');
  svg.append(p);
  return svg;
}

/** The seats whose tokens this browser holds, in order. */
const heldSeats = (id) => Object.keys(gameTokens(id).seats).map(Number).sort((a, b) => a - b);

export async function gamePage(root, id) {
  // The seat this browser watches the game as: in a game with hidden information it sees that
  // seat's cards only. One seat held: that seat. Several (hot seat: players share the screen):
  // the one whose turn it is, once its player asks, and between two players' turns no one's
  // (a spectator's view). None: a spectator.
  const held = heldSeats(id);
  let viewerSeat = held.length === 1 ? held[0] : null;
  const tokenOf = (seat) => (seat === null ? undefined : gameTokens(id).seats[seat]);
  let view = await api('GET', `/api/games/${id}`, undefined, tokenOf(viewerSeat));
  if (!view.hidden_information && held.length) viewerSeat = held[0];
  // The game's board data (a map), sent once with the first view: it never changes.
  const boardData = view.board ?? null;
  // Hot seat: a seat whose turn it is, waiting for its player to show their cards.
  let handover = null;
  const page = pageFor(view.game);
  const seats = page.seats(view.num_players);
  // How the record shows an action; the page may look at the game's other actions and options.
  const format = (rec) => (page.formatAction ? page.formatAction(rec, { actions: view.actions, options: view.options }) : rec.action);

  const status = h('div.status-line', { dataset: { testid: 'status' } });
  const handoverBox = h('div.handover.hidden', { dataset: { testid: 'handover' } });
  const boardRoot = h('div', { style: { width: '100%', display: 'flex', justifyContent: 'center' } });
  const replayBox = h('div.replay.hidden');
  const players = h('div.players');
  const thinking = h('section.card.ai-card');
  const controls = h('div.controls');
  const hintBox = h('div.hint-box', { dataset: { testid: 'hint-text' }, 'aria-live': 'polite' });
  const inviteBox = h('div.stack.small', { dataset: { testid: 'invite' } });
  const record = h('div.record', { dataset: { testid: 'record' } });
  const recordHead = h('div.row', h('h3', 'Record'), h('span.spacer'));

  // Wide screens: the board on the left from the top of the page, the title and the panels on
  // the right, the controls (and a hint under them) high up. Narrow ones: one column.
  const boardCard = h('section.card.board-card', status, handoverBox, boardRoot, replayBox);
  clear(root,
    h('div.game-layout',
      h('div.game-head',
        h('h1', titleOf(view.game)),
        h('a.btn.small', { href: '#/' }, 'New game'),
        h('p', `Game #${view.id}${view.options ? ' · ' + view.options.replaceAll(',', ', ') : ''}`)),
      boardCard,
      h('aside.stack.game-aside',
        h('section.card.stack', h('h3', 'Players'), players),
        h('section.card.stack', h('h3', 'Controls'), controls, hintBox, inviteBox),
        thinking,
        h('section.card.stack', recordHead, record))));

  // What this browser may do: the seats whose tokens it holds, and the game's owner token
  // (pause, speed, stop). A game from before tokens existed is open to every browser.
  const keys = () => gameTokens(id);
  const seatToken = (seat) => (view.protected ? keys().seats[seat] : undefined);
  const holdsSeat = (seat) => !view.protected || Boolean(keys().seats[seat]);
  const holdsGame = () => !view.protected || Boolean(keys().owner);
  const myTurn = () => view.status === 'playing' && view.turn.kind === 'player' && view.turn.human && holdsSeat(view.turn.player);

  // The ply whose move is on its way: a second click on the same position is dropped, but the
  // socket may show the move (and the next turn) before the reply comes, and a click on that
  // next position is a new move.
  let sendingPly = null;
  const board = page.mount(boardRoot, {
    board: boardData,
    async play(action) {
      const ply = view.actions.length;
      if (sendingPly === ply) return;
      sendingPly = ply;
      try {
        accept(await post(`/api/games/${id}/move`, { action, ply }, seatToken(view.turn.player)));
      } catch (err) {
        showError(err);
      } finally {
        if (sendingPly === ply) sendingPly = null;
      }
    },
  });

  // Replay state: `fullRecord` holds every position once the game is over.
  let replayAt = null;
  let fullRecord = null;

  const humans = () => view.sides.map((s, i) => (s.kind === 'ai' ? null : i)).filter((i) => i !== null);
  const seatName = (p) => seats[p]?.name ?? `Player ${p + 1}`;

  const myHumans = () => humans().filter(holdsSeat);

  function statusText() {
    const solo = myHumans().length === 1 ? myHumans()[0] : null;
    if (view.status === 'aborted') return ['Game stopped', ''];
    if (view.status === 'over') {
      const r = view.result;
      if (!r || r.winner === null || r.winner === undefined) return ['Draw', ''];
      const resigned = r.reason === 'resign' ? `${seatName(r.resigned)} resigned · ` : '';
      if (solo !== null) return r.winner === solo ? [`${resigned}You win!`, 'win'] : [`${resigned}${seatName(r.winner)} wins`, 'loss'];
      return [`${resigned}${seatName(r.winner)} wins`, 'win'];
    }
    if (view.paused) return ['Paused', ''];
    if (view.turn.kind === 'player') {
      const p = view.turn.player;
      if (view.turn.human && !holdsSeat(p)) return [`${seatName(p)} to move`, ''];
      if (view.turn.human) return [solo !== null ? 'Your move' : `${seatName(p)} to move`, ''];
      return [`${seatName(p)} is thinking…`, ''];
    }
    return ['…', ''];
  }

  function drawStatus() {
    const [text, cls] = statusText();
    status.className = `status-line ${cls}`;
    const p = view.turn.kind === 'player' ? view.turn.player : view.result?.winner;
    clear(status,
      p !== undefined && p !== null && seats[p] ? h('span.dot', { style: { background: seats[p].color } }) : null,
      view.thinking ? h('span.spinner') : null,
      text);
  }

  function drawPlayers() {
    clear(players, view.sides.map((side, i) => {
      const toMove = view.status === 'playing' && view.turn.kind === 'player' && view.turn.player === i;
      let tag = null;
      if (view.status === 'over' && view.result) {
        if (view.result.winner === i) tag = h('span.badge.good.tag', 'Winner');
        else if (view.result.resigned === i) tag = h('span.badge.bad.tag', 'Resigned');
        else tag = h('span.badge.tag', pct(view.result.returns[i], 0));
      } else if (toMove) {
        tag = view.thinking ? h('span.spinner.tag') : h('span.badge.live.tag', 'to move');
      }
      return h(`div.player${toMove ? '.to-move' : ''}`, { dataset: { seat: i } },
        h('span.dot', { style: { background: seats[i]?.color || '#999', width: '16px', height: '16px' } }),
        h('div', h('div.who', `${seatName(i)} · ${sideLabel(side)}`), h('div.what', sideDetail(side))),
        tag);
    }));
  }

  // Whether the AI's best line is drawn on the board (for pages that can: `showLine`).
  let lineOnBoard = board.showLine ? localStorage.getItem('ply.lineOnBoard') === '1' : false;

  /** Draws the AI's line on the board when asked, if it starts from the position shown. */
  function syncLine(info, player) {
    if (!board.showLine) return;
    let moves = null;
    let first = player;
    // Who moves before each action of the line, from the server (turns of several actions,
    // chance events): never guessed here.
    let movers = info?.pv_players || [];
    if (lineOnBoard && info && info.pv && info.pv.length && view.status === 'playing') {
      if (view.thinking) moves = info.pv;
      else if (view.actions.length && view.actions[view.actions.length - 1].info === info) {
        // The report of the move just played: the rest of its line follows from here.
        moves = info.pv.slice(1);
        movers = movers.slice(1);
        first = movers[0] ?? (view.turn.kind === 'player' ? view.turn.player : player);
      }
    }
    board.showLine(moves, first, movers);
  }

  /** The AI's search: live while it thinks, else its report on its last move. */
  function drawThinking(live) {
    let info = null;
    let player = null;
    let title = '';
    if (view.thinking) {
      player = view.thinking.player;
      info = live || view.thinking.info;
      title = `${seatName(player)} · ${sideLabel(view.sides[player])} is thinking`;
    } else {
      const last = [...view.actions].reverse().find((a) => a.by === 'ai' && a.info);
      if (!last) { syncLine(null, null); return clear(thinking); }
      player = last.player;
      info = last.info;
      title = `${seatName(player)} played ${format(last)}`;
    }
    syncLine(info, player);
    const color = seats[player]?.color || 'var(--accent)';
    const parts = [h('div.head', view.thinking ? h('span.spinner') : null, title)];
    if (view.thinking && view.thinking.budget_ms) {
      const meter = h('div');
      const tick = () => {
        if (!view.thinking) return;
        const used = (Date.now() - view.thinking.started) / view.thinking.budget_ms;
        meter.style.width = `${Math.min(100, 100 * used)}%`;
      };
      tick();
      parts.push(h('div.meter', meter));
      const timer = setInterval(() => (meter.isConnected ? tick() : clearInterval(timer)), 100);
    }
    // Every seat's expected score, when the search estimates one (MCTS, a value on the
    // expected scale, a proven result); alpha-beta's heuristic margins are not chances.
    if (info && Array.isArray(info.scores) && info.scores.length === view.num_players) {
      parts.push(
        h('div.winbar', { dataset: { testid: 'winbar' } }, info.scores.map((share, seat) =>
          h('div', { title: `${seatName(seat)} ${pct(share, 0)}`, style: { width: pct(share), background: seats[seat]?.color || '#ccc' } }))),
        h('div.small', view.num_players === 2
          ? `${seatName(player)}'s estimate: ${pct(info.scores[player], 0)} to win`
          : `${seatName(player)}'s estimate: ${info.scores.map((share, seat) => `${seatName(seat)} ${pct(share, 0)}`).join(' · ')}`));
    }
    const forced = info && !info.iterations && (info.value === null || info.value === undefined) && !view.thinking;
    if (forced) parts.push(h('div.small', 'The only move, or one that needed no search.'));
    if (info && !forced) {
      const facts = [];
      if (info.proven !== null && info.proven !== undefined) {
        const plies = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;
        facts.push(['result', info.proven > 0 ? `wins in ${plies(info.proven)}` : `loses in ${plies(-info.proven)}`]);
      }
      if (info.value !== null && info.value !== undefined) facts.push(['value', info.value.toFixed(3)]);
      if (info.depth) facts.push(['depth', info.depth]);
      if (info.iterations) facts.push(['iterations', info.iterations.toLocaleString()]);
      if (info.pv && info.pv.length) {
        facts.push(['best line', page.formatLine ? page.formatLine(info.pv, player, info.pv_players || []) : info.pv.join(' ')]);
      }
      if (info.elapsed_ms !== undefined) facts.push(['time', `${info.elapsed_ms} ms`]);
      parts.push(h('dl.facts', facts.map(([k, v]) => [h('dt', k), h('dd', v instanceof Node ? v : String(v))])));
      if (board.showLine && info.pv && info.pv.length > 1 && view.status === 'playing') {
        parts.push(h('label.line-toggle', h('input', {
          type: 'checkbox', checked: lineOnBoard, dataset: { testid: 'line-on-board' },
          onchange: (e) => {
            lineOnBoard = e.target.checked;
            localStorage.setItem('ply.lineOnBoard', lineOnBoard ? '1' : '0');
            syncLine(info, player);
          },
        }), 'Show the line on the board'));
      }
    }
    clear(thinking, h('div.thinking', { dataset: { testid: 'thinking' } }, parts));
  }

  async function act(path, body, token) {
    try {
      accept(await post(`/api/games/${id}/${path}`, body, token));
    } catch (err) {
      showError(err);
    }
  }

  // A hint is shown for the ply it was asked at, and goes once the game moves on.
  let hint = null;
  let hinting = false;
  async function askHint() {
    hinting = true;
    drawControls();
    try {
      hint = await post(`/api/games/${id}/hint`, {}, seatToken(view.turn.player));
    } catch (err) {
      showError(err);
    } finally {
      hinting = false;
      drawControls();
    }
  }

  function drawHint() {
    if (!hint || hint.ply !== view.actions.length || view.status !== 'playing') {
      clear(hintBox);
      return;
    }
    const chance = hint.info && hint.info.win_probability != null ? ` · ${pct(hint.info.win_probability, 0)} to win` : '';
    clear(hintBox, `Hint from ${hint.agent}: `, h('strong', format({ action: hint.action, player: hint.player, ply: hint.ply })), chance);
  }

  async function rematch(swap) {
    try {
      const next = await post(`/api/games/${id}/rematch`, { swap });
      keepGameTokens(next);
      location.hash = `#/game/${next.id}`;
    } catch (err) {
      showError(err);
    }
  }

  /** Undo takes back the last human move: the seat that made it must be this browser's. */
  function undoButton() {
    const last = [...view.actions].reverse().find((a) => a.by === 'human');
    const seat = last ? last.player : null;
    const allowed = view.can_undo && seat !== null && holdsSeat(seat);
    return h('button.btn', { dataset: { testid: 'undo' }, disabled: !allowed, onclick: () => act('undo', {}, seatToken(seat)) }, 'Undo');
  }

  /** The seat that resigns: the one to move if it is this browser's, else its first. */
  function resigningSeat() {
    if (view.turn.kind === 'player' && view.turn.human && holdsSeat(view.turn.player)) return view.turn.player;
    return myHumans()[0] ?? null;
  }

  /** Hands a seat to someone else: a link that carries its token; this browser lets it go. */
  function invite(seat) {
    const token = keys().seats[seat];
    const link = `${location.origin}${location.pathname}#/game/${id}?seat${seat}=${token}`;
    dropSeatToken(id, seat);
    navigator.clipboard?.writeText(link).catch(() => {});
    clear(inviteBox,
      h('div', `Send this link to the player of ${seatName(seat)}. Whoever opens it plays ${seatName(seat)}; this browser no longer does.`),
      h('input', { readOnly: true, value: link, dataset: { testid: 'invite-link' }, onfocus: (e) => e.target.select() }));
    update();
  }

  function drawControls() {
    const playing = view.status === 'playing';
    const anyHuman = humans().length > 0;
    const buttons = [];
    if (playing && myHumans().length > 0) {
      buttons.push(h('button.btn', { dataset: { testid: 'hint' }, disabled: !myTurn() || hinting, onclick: askHint },
        hinting ? 'Thinking…' : 'Hint'));
      buttons.push(undoButton());
      buttons.push(h('button.btn.danger', {
        dataset: { testid: 'resign' },
        onclick: () => {
          const seat = resigningSeat();
          if (seat !== null && confirm('Resign this game?')) act('resign', { player: seat }, seatToken(seat));
        },
      }, 'Resign'));
      // Playing every human seat here (hot seat): any but the first can be handed to a friend.
      if (view.protected && myHumans().length > 1) {
        for (const seat of myHumans().slice(1)) {
          buttons.push(h('button.btn', { dataset: { testid: `invite-${seat}` }, onclick: () => invite(seat) }, `Invite a player for ${seatName(seat)}`));
        }
      }
    }
    const anyAi = view.sides.some((side) => side.kind === 'ai');
    const owner = view.protected ? keys().owner : undefined;
    const speed = () => h('select', {
      name: 'speed', style: { width: 'auto', flex: '1 1 auto' }, 'aria-label': 'Speed',
      onchange: (e) => act('control', { delay_ms: Number(e.target.value) }, owner),
    }, SPEEDS.map(([ms, label]) => h('option', { value: ms, selected: ms === view.delay_ms }, `Speed: ${label}`)),
    SPEEDS.some(([ms]) => ms === view.delay_ms) ? null : h('option', { value: view.delay_ms, selected: true }, `Pause ${view.delay_ms} ms`));
    if (playing && !anyHuman && holdsGame() && view.series === null) {
      buttons.push(h('button.btn', { dataset: { testid: 'pause' }, onclick: () => act('control', { paused: !view.paused }, owner) },
        view.paused ? 'Resume' : 'Pause'));
      buttons.push(speed());
      buttons.push(h('button.btn.danger', { onclick: () => act('abort', {}, owner) }, 'Stop'));
    } else if (playing && anyAi && holdsGame() && view.series === null) {
      // Against an AI: the pause before each of its moves (a Risk turn is many of them).
      buttons.push(speed());
    }
    if (!playing && view.series === null) {
      if (view.can_undo) buttons.push(undoButton());
      buttons.push(h('button.btn.primary', { dataset: { testid: 'rematch' }, onclick: () => rematch(false) }, 'New game, same settings'));
      if (view.num_players === 2 && anyHuman && humans().length < 2) {
        buttons.push(h('button.btn', { onclick: () => rematch(true) }, 'Swap sides'));
      }
    }
    if (view.series !== null) buttons.push(h('a.btn', { href: `#/test/${view.series}` }, `Back to test #${view.series}`));
    clear(controls, buttons);
    drawHint();
  }

  function drawRecord(at) {
    const upto = at ?? view.actions.length;
    const items = view.actions.map((rec, i) => {
      const text = format(rec);
      // A long entry (EinStein's arrangements, Risk's territories) takes two columns.
      const cls = [rec.by === 'chance' ? 'chance' : '', i === upto - 1 ? 'current' : '', text.length > 7 ? 'wide' : ''].filter(Boolean).join('.');
      const dot = rec.player !== null && rec.player !== undefined && seats[rec.player]
        ? h('span.dot', { style: { background: seats[rec.player].color, width: '9px', height: '9px' } }) : null;
      return h(`li${cls ? '.' + cls : ''}`, {
        title: `${rec.action} · ${rec.by}${rec.info && rec.info.win_probability != null ? ` · ${pct(rec.info.win_probability, 0)}` : ''}`,
        onclick: () => { if (fullRecord) showReplay(i + 1); },
      }, h('span.n', i + 1), dot, text);
    });
    const list = h('ol', items.length ? items : h('li.chance', 'No moves yet'));
    clear(record, list);
    const current = list.querySelector('.current');
    if (current && at === null) record.scrollTop = record.scrollHeight;
    else if (current) current.scrollIntoView({ block: 'nearest' });
    clear(recordHead, h('h3', 'Record'), h('span.spacer'), h('span.muted.small', `${view.actions.length} actions`),
      h('a.btn.small', { href: `/api/games/${id}/record`, download: `ply-game-${id}.json`, dataset: { testid: 'download' } }, 'Download JSON'));
  }

  function showReplay(at) {
    replayAt = Math.max(0, Math.min(at, view.actions.length));
    const slider = replayBox.querySelector('input');
    if (slider) slider.value = String(replayAt);
    const label = replayBox.querySelector('.replay-label');
    if (label) label.textContent = `Position after ${replayAt} of ${view.actions.length} actions`;
    board.render({
      position: fullRecord.positions[replayAt],
      legal: [],
      player: null,
      actions: view.actions.slice(0, replayAt),
      replay: replayAt !== view.actions.length,
      view,
    });
    drawRecord(replayAt);
  }

  async function drawReplay() {
    const over = view.status !== 'playing';
    replayBox.classList.toggle('hidden', !over);
    boardCard.classList.toggle('replaying', over);
    if (!over) { fullRecord = null; replayAt = null; return; }
    if (!fullRecord || fullRecord.positions.length !== view.actions.length + 1) {
      fullRecord = await get(`/api/games/${id}/record`);
    }
    const n = view.actions.length;
    const step = (d) => showReplay((replayAt ?? n) + d);
    clear(replayBox,
      h('div.row', h('h3', 'Replay'), h('span.spacer'), h('span.replay-label.muted.small')),
      h('div.replay-bar',
        h('button.btn.small', { onclick: () => showReplay(0), 'aria-label': 'Start' }, icon('start')),
        h('button.btn.small', { onclick: () => step(-1), 'aria-label': 'Back' }, icon('back')),
        h('input', { type: 'range', min: 0, max: n, value: replayAt ?? n, dataset: { testid: 'replay' }, 'aria-label': 'Position', oninput: (e) => showReplay(Number(e.target.value)) }),
        h('button.btn.small', { onclick: () => step(1), 'aria-label': 'Forward' }, icon('forward')),
        h('button.btn.small', { onclick: () => showReplay(n), 'aria-label': 'End' }, icon('end'))));
    replayBox.querySelector('.replay-label').textContent = `Position after ${replayAt ?? n} of ${n} actions`;
  }

  /** Shows the game as `seat` sees it (null: as a spectator): its view and its socket. */
  let switching = false;
  async function watchAs(seat) {
    viewerSeat = seat;
    handover = null;
    switching = true;
    socket.close();
    let next = null;
    try {
      next = await api('GET', `/api/games/${id}`, undefined, tokenOf(seat));
    } catch (err) {
      showError(err);
    }
    if (viewerSeat !== seat) return; // another switch came after this one
    switching = false;
    if (next) view = next;
    update();
    socket = openSocket();
  }

  /** In a hot-seat game of hidden information: whose view to show now. A human of this browser
   * to move who is not the viewer must ask to see their cards; meanwhile the page shows the
   * spectator's view, so that nobody sees the previous player's cards. Returns whether the
   * viewer is being changed (the view shown is then not the one to draw). */
  function syncViewer() {
    const mine = heldSeats(id);
    handover = null;
    if (!view.hidden_information) return false;
    let want = viewerSeat;
    if (mine.length <= 1) want = mine[0] ?? null;
    else if (view.status === 'playing') {
      const p = view.turn.kind === 'player' ? view.turn.player : null;
      if (p !== null && mine.includes(p) && p !== viewerSeat) {
        want = null;
        handover = p;
      } else if (viewerSeat !== null && !mine.includes(viewerSeat)) want = null;
    }
    if (want === viewerSeat) return switching;
    watchAs(want);
    return true;
  }

  function drawHandover() {
    handoverBox.classList.toggle('hidden', handover === null);
    if (handover === null) return clear(handoverBox);
    const seat = handover;
    clear(handoverBox,
      h('span.dot', { style: { background: seats[seat]?.color || '#999' } }),
      h('span', `${seatName(seat)} to play: pass the screen. `),
      h('button.btn.primary', { dataset: { testid: 'reveal' }, onclick: () => watchAs(seat) }, `${seatName(seat)}: show my cards`));
  }

  function update(live) {
    if (syncViewer()) return;
    drawHandover();
    if (view.status === 'playing' || replayAt === null) {
      const humanTurn = myTurn();
      board.render({
        position: view.position,
        legal: humanTurn ? view.legal : [],
        player: humanTurn ? view.turn.player : null,
        actions: view.actions,
        replay: false,
        view,
      });
      drawRecord(null);
    }
    drawStatus();
    drawPlayers();
    drawThinking(live);
    drawControls();
    drawReplay().catch(showError);
  }

  /** Shows a view unless a newer one is already showing (replies and socket news may cross). */
  function accept(next) {
    if (next.version < view.version) return;
    // Another seat's view (a reply to a move made with another token): the socket brings ours.
    if (next.hidden_information && (next.viewer ?? null) !== viewerSeat) return;
    view = next;
    update();
  }

  function openSocket() {
    const token = view.hidden_information ? tokenOf(viewerSeat) : tokenOf(held[0] ?? null);
    return liveSocket(`/api/games/${id}/ws${token ? `?token=${token}` : ''}`, (msg) => {
      if (msg.type === 'state') {
        accept(msg.game);
      } else if (msg.type === 'thinking' && view.thinking && view.thinking.player === msg.player) {
        view.thinking.info = msg.info;
        drawThinking(msg.info);
      }
    });
  }

  let socket = { close() {} };
  update();
  socket = openSocket();
  return { destroy() { socket.close(); if (board.destroy) board.destroy(); } };
}
