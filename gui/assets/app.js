// Sower's page: draws the game the server keeps and sends the person's
// actions over one WebSocket. The server checks every move; the page only
// shows what the server says (docs/gui.md).

import { drawSeeds, fitBoard, revealBoard, watchBoard } from './board.js';
import { drawGraph as drawGraphIn, evalBar, evalView, graphBox, wdlText } from './scores.js';
import { bindTables, markTables, onTables, tablesValue } from './tables.js';
import { bindSound, soundFor } from './sound.js';
import { bindPastGames, onGames } from './pastgames.js';
import { bindReview, drawReview, markPly } from './review.js';
import { askCut, bindEnd, drawEnd, hideNote, holeHint, playNote } from './endgame.js';
import { arrowsFor, drawArrows, watchArrows } from './arrows.js';
import { bindSideLine, endLine, lineClick, lineStatus, lineStays, onLine, startLine, withLines } from './sideline.js';

const $ = (sel) => document.querySelector(sel);
const body = document.body;

const speeds = { slow: 900, normal: 450, fast: 180, instant: 0 };

const ui = {
  ws: null,
  // The game's session on the server: its id (kept in the address, so that
  // a reload or another tab finds the game) and the connection's state:
  // connecting, ok, lost (reconnecting) or taken (another tab took the
  // game over).
  session: new URLSearchParams(location.search).get('session') || '',
  conn: 'connecting',
  state: null,      // the last state from the server
  gameId: -1,
  flipped: false,
  animating: 0,     // animations running
  pending: false,   // a request awaits its state
  preview: null,    // a PV position shown instead of the game's
  infoGen: -1,
  lines: new Map(), // multipv -> info
  clockTimer: 0,
  clockBase: null,  // {clocks, running, at}
  started: false,
  queue: [],        // states waiting for an animation to end
  draining: false,
  fenShown: '',     // what the page last put in the notation box
  setupText: null,  // the notation of a Set up awaiting its answer
  keepFen: null,    // {text, fen}: a refused Set up's text, kept while fen is shown
  addressNote: '',  // what the page refused in the address, shown until the person acts
  addressSent: false, // the address's game has been asked for
  foldedFor: -1,    // the game for which the New game card was folded
  lastState: 0,     // when the last state came (performance.now())
  pace: Infinity,   // the usual time between states of a game, ms
};

function send(msg) {
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) {
    ui.ws.send(JSON.stringify(msg));
  }
}

function request(msg) {
  if (ui.addressSent) ui.addressNote = ''; // the person acts: the address's note has been seen
  ui.pending = true;
  updateBusy();
  send(msg);
}

// ---- URL ----

// paramsFromURL reads the address: the new game, sent as written (the
// server refuses a bad field by name and keeps the rest), and the page's
// own settings, whose bad values it names in notes.
function paramsFromURL() {
  const q = new URLSearchParams(location.search);
  const r = { type: 'new', address: true, game: q.get('game') || 'katro' };
  r.south = q.get('south') || 'human';
  r.north = q.get('north') || '';
  if (q.has('depth')) { r.limitKind = 'depth'; r.limitValue = q.get('depth'); }
  else if (q.has('tc')) { r.limitKind = 'tc'; r.limitValue = q.get('tc'); }
  else { r.limitKind = 'movetime'; r.limitValue = q.get('movetime') || '1000'; }
  r.fen = q.get('fen') || '';
  r.moves = q.get('moves') || '';
  if (q.has('captureside')) r.captureSide = q.get('captureside');
  if (q.has('lastfour')) r.lastFour = q.get('lastfour');
  if (q.has('repetition')) r.repetition = q.get('repetition');
  if (q.has('nocapturelimit')) r.noCaptureLimit = q.get('nocapturelimit');
  const notes = [];
  const anim = q.get('animate');
  if (anim === 'off' || anim === 'on') $('#animate-select').value = anim === 'off' ? 'instant' : 'normal';
  else if (anim && speeds[anim] !== undefined) $('#animate-select').value = anim;
  else if (anim !== null) notes.push(`animate=${anim}: want on or off`);
  let mode = q.get('mode') || 'play';
  if (mode !== 'play' && mode !== 'analysis') { notes.push(`mode=${mode}: want play or analysis`); mode = 'play'; }
  return { req: r, mode, engine: q.get('engine') || '', notes };
}

function writeURL(s) {
  const q = new URLSearchParams();
  if (ui.session) q.set('session', ui.session);
  q.set('game', s.game);
  q.set('south', s.players[0]);
  q.set('north', s.players[1]);
  q.set(s.limit.kind, s.limit.value);
  if (!s.startIsInitial) q.set('fen', s.start);
  if (s.moves.length) q.set('moves', s.moves.map((m) => m.move).join(' '));
  if (s.family === 'hoyito') {
    if (s.rules.captureSide !== 'any') q.set('captureside', s.rules.captureSide);
    if (s.rules.lastFour !== 'capturer') q.set('lastfour', s.rules.lastFour);
    if (s.rules.repetition !== 'threefold') q.set('repetition', s.rules.repetition);
  }
  if (s.rules.noCaptureLimit !== 200) q.set('nocapturelimit', String(s.rules.noCaptureLimit));
  if ($('#animate-select').value === 'instant') q.set('animate', 'off');
  if (s.analysis.on) { q.set('mode', 'analysis'); q.set('engine', s.analysis.engine); }
  const url = location.pathname + '?' + q.toString().replace(/\+/g, '%20');
  history.replaceState(null, '', url);
}

// ---- connection ----

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(proto + '//' + location.host + '/ws' + (ui.session ? '?session=' + encodeURIComponent(ui.session) : ''));
  ui.ws = ws;
  ws.onmessage = (ev) => {
    if (ui.ws !== ws) return;
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    switch (m.type) {
      case 'session': onSession(m); break;
      case 'takenover': ui.conn = 'taken'; drawConn(); break;
      case 'state': enqueue(m); break;
      case 'info': onInfo(m); break;
      case 'message': setMessage(m.text); break;
      case 'export': download(m.filename, m.text); break;
      case 'preview': onPreview(m); break;
      case 'line': onLine(m); break;
      case 'tables': onTables(m, ui.state); break;
      case 'games': onGames(m); break;
    }
  };
  ws.onclose = () => {
    if (ui.leaving || ui.ws !== ws) return;
    if (ui.conn === 'taken') return; // the other tab has the game: Continue here takes it back
    ui.conn = 'lost';
    drawConn();
    setTimeout(connect, 1000);
  };
}

// onSession takes the first message of a connection: the game's session.
// A game the server kept comes back as it stood (its state follows);
// otherwise the page asks for its address's game, or after a lost
// connection for the game it showed.
function onSession(m) {
  const asked = ui.session;
  ui.session = m.id;
  ui.conn = 'ok';
  drawConn();
  const first = !ui.started;
  ui.started = true;
  if (m.restored) return;
  if (first) {
    const { req, mode, engine, notes } = paramsFromURL();
    const gone = asked ? sessionGone : '';
    const refused = notes.length ? addressRefused + ' ' + notes.join('; ') + '.' : '';
    ui.addressNote = [gone, refused].filter(Boolean).join(' ');
    request(req);
    ui.addressSent = true;
    if (mode === 'analysis') send({ type: 'analyse', on: true, engine, multipv: 1 });
  } else if (ui.state) {
    // The server no longer has the game (it was restarted without its
    // state): start it again from its moves.
    ui.addressNote = sessionGone;
    ui.addressSent = true;
    const s = ui.state;
    request({ type: 'new', game: s.game, south: s.players[0], north: s.players[1],
      limitKind: s.limit.kind, limitValue: s.limit.value, fen: s.startIsInitial ? '' : s.start,
      moves: s.moves.map((m) => m.move).join(' '), captureSide: s.rules.captureSide,
      lastFour: s.rules.lastFour, repetition: s.rules.repetition, noCaptureLimit: s.rules.noCaptureLimit });
  }
}

// sessionGone says that the server no longer keeps the game of the
// address.
const sessionGone = 'The server no longer had this game: it starts again from the moves in the address.';

// connText is what the header says of the connection.
const connText = { connecting: 'connecting…', ok: '', lost: 'disconnected — reconnecting…', taken: 'this game continued in another tab' };

// drawConn shows the connection's state: in the header, and where the
// person looks, the status line and the clocks; the board takes no move
// while the page is not connected.
function drawConn() {
  body.dataset.conn = ui.conn;
  $('#conn').textContent = connText[ui.conn];
  $('#conn').className = 'conn ' + (ui.conn === 'lost' || ui.conn === 'taken' ? 'bad' : 'ok');
  $('#play-here').hidden = ui.conn !== 'taken';
  const s = ui.state;
  if (!s) return;
  drawMarks(s);
  drawPanel(s);
  // Back online, the clocks wait for the state, which has them as they
  // run on the server.
  if (ui.conn !== 'ok') drawClocks(s);
  updateBusy();
}

// addressRefused begins the note on what the address had that was refused.
const addressRefused = 'Refused in the address:';

function setMessage(text) {
  text = text || '';
  // What the address had refused (the server's note, and the page's own)
  // stays until the person acts.
  let note = false;
  if (text.startsWith(addressRefused)) {
    const r = ui.addressNote.indexOf(addressRefused);
    ui.addressNote = r < 0 ? (ui.addressNote + ' ' + text).trim()
      : ui.addressNote.slice(0, r) + text + ' Also r' + ui.addressNote.slice(r + 1);
    text = ui.addressNote;
    note = true;
  } else if (!text && ui.addressNote) {
    text = ui.addressNote;
    note = true;
  }
  if (ui.setupText !== null) {
    if (text) ui.keepFen = { text: ui.setupText, fen: ui.state ? ui.state.fen : '' };
    ui.setupText = null;
  }
  $('#message').textContent = text;
  if (!text || note) return;
  ui.pending = false;
  updateBusy();
}

// ---- state ----

// States are shown in order: one that arrives during an animation waits
// for it (engines may answer faster than seeds are sown), unless it does
// not follow on (a new game, a take back), which cuts the animation short.
function enqueue(s) {
  notePace(s);
  ui.queue.push(s);
  if (!ui.draining) drain();
}

// notePace keeps the usual time between engine moves (an average of the
// latest), so that animations can be cut to keep up with them.
function notePace(s) {
  const last = ui.queue.length ? ui.queue[ui.queue.length - 1] : ui.state;
  const now = performance.now();
  const m = s.moves[s.moves.length - 1];
  if (last && last.gameId === s.gameId && s.moves.length === last.moves.length + 1 && m && m.by !== 'human') {
    const dt = now - ui.lastState;
    ui.pace = ui.pace === Infinity ? dt : 0.6 * ui.pace + 0.4 * dt;
  }
  if (last && s.moves.length !== last.moves.length) ui.lastState = now;
}

// animSpeed is the animation's speed for a move of s: the chosen one,
// cut when engines play each other so that a move's animation (about five
// times the speed) takes at most 80% of the time between their moves,
// and shorter still whenever states wait; 0 draws it at once.
function animSpeed(s) {
  let speed = speeds[$('#animate-select').value] || 0;
  if (!s.players.includes('human')) speed = Math.min(speed, 0.8 * ui.pace / 5);
  speed /= 1 + ui.queue.length;
  return speed >= 12 ? speed : 0;
}

async function drain() {
  ui.draining = true;
  try {
    while (ui.queue.length) {
      const anim = onState(ui.queue.shift());
      if (anim) await anim;
      // Every ply is shown, if only for a moment: the next state waits
      // for this one to be painted.
      else if (ui.queue.length) await sleep(30);
    }
  } finally {
    ui.draining = false;
    updateBusy();
  }
}

// cutShort reports whether a queued state ends the animation of s.
function cutShort(s) {
  return ui.state !== s || ui.queue.some((q) => q.gameId !== s.gameId || q.moves.length < s.moves.length || q.view < s.view);
}

function onState(s) {
  const prev = ui.state;
  const newGame = s.gameId !== ui.gameId;
  ui.state = s;
  ui.pending = false;
  // A side line being explored stays on the board while the game and
  // the ply shown stay (sideline.js).
  if (!lineStays(s)) ui.preview = null;
  $('#pv-preview').hidden = true;
  if (newGame) {
    ui.gameId = s.gameId;
    // A person who plays North alone sees the board from North's side.
    ui.flipped = s.players[1] === 'human' && s.players[0] !== 'human';
    $('#flip').setAttribute('aria-pressed', ui.flipped ? 'true' : 'false');
    syncForm(s);
    buildBoard(s);
  }
  const speed = animSpeed(s);
  let anim = null;
  if (ui.preview) {
    drawPosition(ui.preview.counts, ui.preview.captured);
  } else if (!newGame && speed > 0 && s.steps && prev && prev.view + 1 === s.view) {
    anim = animate(s, prev, speed);
  } else {
    drawPosition(s.counts, s.captured);
  }
  soundFor(prev, s);
  drawMarks(s);
  markTables(s);
  drawPanel(s);
  drawEnd(s);
  updateArrows();
  foldNewGame(s);
  drawMoves(s);
  drawReview(s, sendShown, startLine);
  drawGraphIn($('#eval-graph'), s, goToShown);
  const hoy = s.family === 'hoyito';
  $('#graph-what').textContent = hoy ? "South's expected final margin in seeds (the engine's score):" : "South's share of the game (win + half the draws):";
  drawClocks(s);
  if (!s.analysis.on || (prev && prev.fen !== s.fen)) clearLines(s.analysis.on);
  drawEval(s);
  writeURL(s);
  updateBusy();
  if (body.dataset.ready !== 'true') body.dataset.ready = 'true';
  return anim;
}

// foldNewGame folds the New game card once a game runs (a move played,
// not over), so that on a phone the board's panels follow the board; the
// person may open it again.
function foldNewGame(s) {
  if (ui.foldedFor === s.gameId || s.moves.length === 0 || s.turn === 'over') return;
  ui.foldedFor = s.gameId;
  $('#new-card').open = false;
}

function syncForm(s) {
  $('#game-select').value = s.game;
  for (const id of ['#south-select', '#north-select']) {
    const sel = $(id);
    const want = ['human', ...s.engines];
    if ([...sel.options].map((o) => o.value).join() !== want.join()) {
      sel.replaceChildren(...want.map((n) => new Option(n, n)));
    }
  }
  $('#south-select').value = s.players[0];
  $('#north-select').value = s.players[1];
  $('#limit-kind').value = s.limit.kind;
  $('#limit-value').value = s.limit.value;
  $('#captureside-select').value = s.rules.captureSide;
  $('#lastfour-select').value = s.rules.lastFour;
  $('#repetition-select').value = s.rules.repetition;
  $('#nocapturelimit-input').value = s.rules.noCaptureLimit;
  $('#match-select').value = String(s.match ? s.match.games : 0);
  showHoyitoOptions();
}

// syncFenInput makes the notation box follow the shown position, except
// while the person edits it (it has the focus and holds something else
// than what the page put there).
function syncFenInput(fen) {
  const e = $('#fen-input');
  // A refused Set up keeps what was typed, to be corrected, while the
  // position it was typed in is shown.
  if (ui.keepFen && ui.keepFen.fen === fen) {
    if (document.activeElement !== e) e.value = ui.keepFen.text;
    ui.fenShown = fen;
    return;
  }
  ui.keepFen = null;
  if (document.activeElement === e && e.value !== ui.fenShown) return;
  e.value = fen;
  ui.fenShown = fen;
}

function showHoyitoOptions() {
  const h = $('#game-select').value === 'hoyito3';
  document.querySelectorAll('.hoyito-only').forEach((e) => { e.hidden = !h; });
}

function updateBusy() {
  const s = ui.state;
  const busy = ui.pending || ui.animating > 0 || ui.queue.length > 0 || (s && s.thinking) || !s || ui.conn !== 'ok';
  body.dataset.busy = busy ? 'true' : 'false';
}

// ---- board ----

function buildBoard(s) {
  const board = $('#board');
  board.replaceChildren();
  board.className = 'board ' + s.family;
  board.style.setProperty('--cols', s.cols);
  const rows = [];
  for (let r = s.rows; r >= 1; r--) rows.push(r);
  const cols = [...Array(s.cols).keys()];
  if (ui.flipped) { rows.reverse(); cols.reverse(); }
  const byName = new Map(s.holes.map((h, i) => [h, i]));
  // The holes are drawn in rows from the top (CSS order) but come in the
  // document, and so in tab order, with the near side's (the player's
  // own, at the bottom) first.
  const near = ui.flipped ? 'north' : 'south';
  const items = [];
  let order = 0;
  rows.forEach((r, k) => {
    if (s.family === 'katro' && k === s.rows / 2) {
      const line = document.createElement('div');
      line.className = 'front-line';
      line.setAttribute('aria-hidden', 'true');
      line.style.order = String(order++);
      items.push(line);
    }
    for (const c of cols) {
      const name = String.fromCharCode(97 + c) + r;
      const i = byName.get(name);
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'hole ' + s.owners[i];
      b.dataset.hole = name;
      b.dataset.seeds = '0';
      b.dataset.legal = 'false';
      const seeds = document.createElement('span');
      seeds.className = 'seeds';
      seeds.setAttribute('aria-hidden', 'true');
      const count = document.createElement('span');
      count.className = 'count';
      count.setAttribute('aria-hidden', 'true');
      const label = document.createElement('span');
      label.className = 'name';
      label.textContent = name;
      label.setAttribute('aria-hidden', 'true');
      b.append(seeds, count, label);
      b.addEventListener('click', () => clickHole(name));
      b.style.order = String(order++);
      items.push(b);
    }
  });
  const own = (e) => e.classList.contains(near);
  board.append(...items.filter(own), ...items.filter((e) => !own(e)));
  const hoy = s.family === 'hoyito';
  $('#store-north').hidden = !hoy;
  $('#store-south').hidden = !hoy;
  $('#captured-north').hidden = !hoy;
  $('#captured-south').hidden = !hoy;
  $('#pass').hidden = !hoy;
  const wrap = document.querySelector('.board-wrap');
  wrap.classList.toggle('flipped', ui.flipped);
  document.querySelector('.board-panel').classList.toggle('flipped', ui.flipped);
  fitBoard(ui.state);
}

function drawPosition(counts, captured) {
  const s = ui.state;
  s.holes.forEach((h, i) => {
    const el = document.querySelector(`[data-hole="${h}"]`);
    if (!el) return;
    const n = counts[i];
    if (el.dataset.seeds !== String(n)) el.dataset.seeds = String(n);
    drawSeeds(el, n);
  });
  if (s.family === 'hoyito') {
    for (const [k, side] of [[0, 'south'], [1, 'north']]) {
      $('#captured-' + side).textContent = captured[k] + ' captured';
      const store = $('#store-' + side);
      store.querySelector('b').textContent = captured[k];
      store.dataset.seeds = String(captured[k]);
      store.setAttribute('aria-label', `${side === 'south' ? 'South' : 'North'}'s store: ${captured[k]} captured`);
    }
  }
}

function ownerName(o) { return o === 'south' ? 'South' : 'North'; }

function drawMarks(s) {
  const preview = ui.preview;
  // A side line's position is played on; an analysis line's is only shown.
  const line = preview && preview.line;
  const legal = new Set(line ? preview.legal : preview ? [] : s.legal);
  const humanTurn = ui.conn === 'ok' && (line || (!preview && s.turn === 'human'));
  s.holes.forEach((h, i) => {
    const el = document.querySelector(`[data-hole="${h}"]`);
    if (!el) return;
    const isLegal = legal.has(h);
    el.dataset.legal = isLegal ? 'true' : 'false';
    el.classList.toggle('playable', isLegal && humanTurn);
    el.classList.toggle('last', !preview && s.last === h);
    const n = preview ? preview.counts[i] : s.counts[i];
    el.setAttribute('aria-label', `${h}: ${n} seed${n === 1 ? '' : 's'}, ${ownerName(s.owners[i])}` +
      (isLegal ? (humanTurn ? ', legal move' : ', legal') : '') + (s.last === h ? ', last move' : ''));
  });
  const pass = $('#pass');
  pass.disabled = !(legal.has('pass') && humanTurn);
}

function drawPanel(s) {
  const st = $('#status');
  const fen = ui.preview ? ui.preview.fen : s.fen;
  st.dataset.fen = fen;
  syncFenInput(fen);
  st.dataset.status = s.status;
  st.dataset.turn = s.turn;
  const side = s.side === 'south' ? 'South' : 'North';
  const player = s.players[s.side === 'south' ? 0 : 1];
  let text;
  const mine = s.running && s.players[s.running === 'south' ? 0 : 1] === 'human';
  if (ui.conn === 'lost') text = 'Connection lost — reconnecting…' + (mine ? ' Your clock keeps running on the server.' : ' Play goes on when it is back.');
  else if (ui.conn === 'taken') text = 'This game continued in another tab.';
  else if (ui.preview && ui.preview.line) text = lineStatus();
  else if (ui.preview) text = `Preview of the line ${ui.preview.moves}, not the game: Esc or a click on the board returns`;
  else if (s.turn === 'over') text = 'Game over';
  else if (s.thinking) text = `${side} to move — ${player} is thinking…`;
  else if (s.turn === 'human' && s.legal.length === 1 && s.legal[0] === 'pass') text = `${side} must pass` + (s.analysis.on ? ' (analysis)' : ': press Pass');
  else if (s.turn === 'human') text = `${side} to move` + (s.analysis.on ? ' (analysis)' : ' — your move') + playNote(s);
  else if (s.paused) text = `${side} to move — ${player} is paused: press Resume`;
  else if (s.view < s.moves.length) text = `${side} to move — viewing ply ${s.view} of ${s.moves.length}`;
  else text = `${side} to move`;
  if (!ui.preview && s.family === 'hoyito' && s.view > 0 && s.turn !== 'over' && s.moves[s.view - 1].side === side[0] && s.moves[s.view - 1].move !== 'pass') {
    text += ' · extra turn after a capture';
  }
  $('#status-text').textContent = text;
  // The dot: the side to move, or once over the winner (grey for a draw).
  const dot = s.turn === 'over' ? s.status : s.side;
  st.classList.toggle('south', !ui.preview && dot === 'south');
  st.classList.toggle('north', !ui.preview && dot === 'north');
  st.classList.toggle('draw', !ui.preview && dot === 'draw');
  st.classList.toggle('preview', !!ui.preview);
  st.dataset.conn = ui.conn;
  document.querySelector('.board-wrap').classList.toggle('previewing', !!ui.preview);
  $('#preview-badge').hidden = !ui.preview;
  $('#preview-badge').textContent = ui.preview && ui.preview.line ? 'Side line' : 'Preview';
  $('#result').dataset.winner = s.turn === 'over' ? s.status : '';
  $('#result').textContent = s.result || '';
  $('#rules').textContent = rulesText(s);
  drawMatch(s);
  $('#south-name').textContent = 'South · ' + s.players[0];
  $('#north-name').textContent = 'North · ' + s.players[1];
  document.querySelector('.player-bar.south').classList.toggle('to-move', s.side === 'south' && s.turn !== 'over');
  document.querySelector('.player-bar.north').classList.toggle('to-move', s.side === 'north' && s.turn !== 'over');
  // With no move, only a loss on time or a resignation before the first
  // move can be taken back.
  $('#takeback').disabled = s.moves.length === 0 && !(s.turn === 'over' && (s.reason === 'time forfeit' || s.reason === 'resignation'));
  const an = $('#analyse');
  an.setAttribute('aria-pressed', s.analysis.on ? 'true' : 'false');
  an.textContent = s.analysis.on ? 'Stop' : 'Analyse';
  an.classList.toggle('on', s.analysis.on);
  // Against an engine, analysis does not replace it: say so.
  const engines = s.players.filter((p) => p !== 'human');
  const humans = 2 - engines.length;
  const note = $('#analysis-note');
  note.hidden = !(humans === 1);
  note.textContent = s.analysis.on
    ? `${engines[0]} stays your opponent: it moves on its turns, and the analysis runs on yours.`
    : `Analysis looks at your turns; ${engines[0] || 'the engine'} stays your opponent.`;
  const mpv = $('#multipv');
  mpv.max = String(s.analysis.maxMultipv);
  mpv.disabled = s.analysis.maxMultipv <= 1;
  if (document.activeElement !== mpv) mpv.value = String(Math.min(s.analysis.multipv, s.analysis.maxMultipv));
  $('#subtitle').textContent = ({ katro: 'Katro', 'katro-6x3': 'Katro 6×3', 'katro-4x6': 'Katro 4×6', 'katro-4x4': 'Katro 4×4', hoyito3: 'Hoyito III' })[s.game] +
    ` · ply ${s.view}${s.view < s.moves.length ? ' of ' + s.moves.length : ''} · no-capture clock ${s.clock}`;
}

// half writes a match score with ½.
function half(x) { return x === Math.floor(x) ? String(x) : (Math.floor(x) || '') + '\u00bd'; }

// drawMatch shows a traditional match: the score, each game's result and
// the LastFour setting of the game in play; Next game once a game between
// a person and an engine is over (between engines the next starts by
// itself).
function drawMatch(s) {
  const m = s.match;
  $('#match').hidden = !m;
  if (!m) return;
  const [a, b] = m.players;
  const names = a === b ? [a + ' (1)', b + ' (2)'] : [a, b];
  const lf = m.lastFour === 'capturer' ? 'LastFour capturer' : `LastFour ${m.lastFour} (the winner of the last decided game)`;
  $('#match-score').textContent = `Traditional match, game ${m.game} of ${m.games}: ${names[0]} ${half(m.score[0])} \u2013 ${half(m.score[1])} ${names[1]} \u00b7 ${lf}`;
  $('#match-games').replaceChildren(...m.results.map((g) => Object.assign(document.createElement('li'), {
    textContent: `game ${g.game}: ${g.south} (S) v ${g.north} (N) ${g.result}${g.seeds ? ', ' + g.seeds : ''}, LastFour ${g.lastFour}`,
  })));
  $('#next-game').hidden = !(m.next && s.players.includes('human'));
}

// rulesText names the game's rule options in force, as the protocol's
// options are named.
function rulesText(s) {
  const r = s.rules;
  const limit = r.noCaptureLimit > 0 ? `no-capture limit ${r.noCaptureLimit} plies` : 'no no-capture limit';
  if (s.family !== 'hoyito') return `Rules: ${limit}, threefold repetition`;
  return `Rules: CaptureSide ${r.captureSide} · LastFour ${r.lastFour} · Repetition ${r.repetition} · ${limit}`;
}

function drawMoves(s) {
  const ol = $('#movelist');
  const items = s.moves.map((m, i) => {
    const li = document.createElement('li');
    const ply = i + 1;
    li.dataset.ply = String(ply);
    li.dataset.move = m.move;
    li.className = 'ply ' + (m.side === 'S' ? 'south' : 'north');
    li.tabIndex = 0;
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = ply + '.';
    const mv = document.createElement('span');
    mv.className = 'mv';
    mv.textContent = m.move;
    li.append(num, ' ', mv);
    const v = evalView(m.eval, s.family);
    if (v) {
      const sc = document.createElement('span');
      sc.className = 'sc' + (v.forced ? ' forced ' + v.forced : '');
      // A Hoyito III estimate shows the margin, which moves; its win
      // chance hardly does (the title has both).
      sc.textContent = s.family === 'hoyito' && !v.forced && v.score ? v.score : v.main;
      sc.title = `${v.words ? v.words + ': ' : ''}${wdlText(v)}${v.score ? ', ' + v.score : ''}, by ${plyCredit(m)}${m.depth ? ', depth ' + m.depth : ''}`;
      sc.setAttribute('aria-label', 'South: ' + sc.title);
      li.append(' ', sc);
    }
    li.setAttribute('aria-label', `ply ${ply}: ${m.side === 'S' ? 'South' : 'North'} ${m.move}`);
    markPly(li, s, ply, sendShown);
    if (ply === s.view) li.setAttribute('aria-current', 'true');
    li.addEventListener('click', () => goToShown(ply));
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); goToShown(ply); } });
    return li;
  });
  ol.replaceChildren(...withLines(s, items));
  // The list scrolls itself to the shown ply, never the page (a phone
  // keeps the board in view).
  const cur = ol.querySelector('[aria-current="true"]');
  if (cur) {
    if (cur.offsetTop < ol.scrollTop) ol.scrollTop = cur.offsetTop;
    else if (cur.offsetTop + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = cur.offsetTop + cur.offsetHeight - ol.clientHeight;
  }
}

// shownEval is the score of the shown position and who gave it (by, for
// the line under the score; source, for tests): the tables' exact
// result when they know it, else the analysis's first line when it is of
// this position, else the score of the ply that led to it.
function shownEval(s) {
  if (ui.preview) return null; // a line's position: no score of its own
  const tv = tablesValue(s);
  if (tv && tv.mate !== undefined) return { e: { mate: tv.mate, proven: true }, by: 'the proof', source: 'proof' };
  if (tv) return { e: { cp: 100 * tv.margin, proven: true, exact: true }, by: 'the tables', source: 'tables' };
  const l = ui.lines.get(1);
  if (l && l.fen === s.fen && l.eval) return { e: l.eval, depth: l.depth, by: `the analysis engine (${l.engine})`, source: 'analysis' };
  // The score of the ply that led here, or else the latest before it (a
  // person's move, an extra turn: no new score yet), said so.
  for (let k = s.view; k > 0; k--) {
    const m = s.moves[k - 1];
    if (m.eval) return { e: m.eval, depth: m.depth, by: plyCredit(m) + (k < s.view ? `, after ply ${k}` : ''), ...plySource(m) };
  }
  return null;
}

// plySource says where a ply's score comes from: the endgame tables'
// exact result of the position after it (the server puts it there), the
// game's review (it scores the position after every ply), else the
// engine that played it.
function plySource(m) {
  if (m.source === 'tables' || m.source === 'result') return { source: m.source };
  const r = m.review;
  return { source: r && (r.cp !== undefined || r.mate !== undefined) ? 'review' : 'engine' };
}

// plyCredit names who produced a ply's score.
function plyCredit(m) {
  const src = plySource(m).source;
  if (src === 'tables') return 'the tables';
  if (src === 'result') return "the game's result";
  if (src === 'review') return 'the review';
  return `${m.side === 'S' ? 'South' : 'North'}'s engine (${m.by})`;
}

// saidAs gives an element that shows a view's main figure the words of
// a proven result ("#3": South wins with its 3rd move from here) as its
// tooltip and its name for screen readers.
function saidAs(el, v) {
  if (!v.words || v.words === v.main) return;
  el.title = v.words;
  el.setAttribute('aria-label', v.words);
}

// overView is the shown position's result once the game is over there:
// certain, in the winner's colour, instead of a score.
function overView(s) {
  const w = s.status;
  const pct = { values: w === 'south' ? [100, 0, 0] : w === 'north' ? [0, 0, 100] : [0, 100, 0], digits: 0 };
  const main = w === 'draw' ? 'Draw' : `${w === 'south' ? 'South' : 'North'} has won`;
  return { forced: w, est: false, wdl: true, pct, share: w === 'south' ? 1 : w === 'north' ? 0 : 0.5, score: '', main };
}

function drawEval(s) {
  const box = $('#eval-now');
  const over = !ui.preview && s.turn === 'over';
  const got = over ? { credit: "the game's result", source: 'result' } : shownEval(s);
  const v = over ? overView(s) : got && evalView(got.e, s.family);
  if (!v) {
    const none = ui.preview ? 'A line shown instead of the game: its score is the line\'s, in the analysis or the review' : 'No engine score yet';
    box.replaceChildren(Object.assign(document.createElement('span'), { className: 'eval-none', textContent: none }));
    box.dataset.forced = '';
    box.dataset.source = '';
    return;
  }
  const main = Object.assign(document.createElement('b'), { className: 'eval-main', textContent: v.main });
  saidAs(main, v);
  const detail = Object.assign(document.createElement('span'), { className: 'eval-detail' });
  const wdl = Object.assign(document.createElement('span'), { className: 'wdl', textContent: wdlText(v) });
  detail.append(wdl);
  if (v.score) detail.append(' \u00b7 ', Object.assign(document.createElement('span'), { className: 'eval-score', textContent: v.score }));
  if (v.words && v.words !== v.main && v.forced) detail.append(' \u00b7 ', Object.assign(document.createElement('span'), { className: 'eval-words', textContent: v.words }));
  const credit = got.credit || `by ${got.by}${got.depth ? ', depth ' + got.depth : ''}`;
  detail.append(' \u00b7 ', Object.assign(document.createElement('span'), { className: 'eval-by', textContent: credit }));
  box.replaceChildren(main, evalBar(v), detail);
  box.dataset.forced = v.forced || '';
  box.dataset.source = got.source;
}

// graphClick goes to the ply nearest a click on the graph, so that a
// finger need not hit a point.
function graphClick(ev) {
  const s = ui.state;
  if (!s || s.moves.length === 0) return;
  const r = $('#eval-graph').getBoundingClientRect();
  const x = (ev.clientX - r.left) * graphBox.W / r.width;
  const n = s.moves.length;
  const span = graphBox.W - graphBox.left - graphBox.right;
  const ply = n <= 1 ? 1 : Math.round(1 + (x - graphBox.left) / span * (n - 1));
  goToShown(Math.max(1, Math.min(n, ply)));
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const t = Math.floor(ms / 100);
  const m = Math.floor(t / 600), sec = Math.floor((t % 600) / 10), d = t % 10;
  return `${m}:${String(sec).padStart(2, '0')}` + (ms < 20000 ? '.' + d : '');
}

function drawClocks(s) {
  const on = !!s.clocks;
  $('#clock-south').hidden = !on;
  $('#clock-north').hidden = !on;
  clearInterval(ui.clockTimer);
  if (!on) return;
  // Away from the server the clocks show the time they had, marked so;
  // the state that comes back has them as they run there.
  const away = ui.conn !== 'ok';
  for (const side of ['south', 'north']) {
    const el = $('#clock-' + side);
    el.classList.toggle('offline', away);
    if (away) el.title = 'Not connected: the time the server last sent';
    else el.removeAttribute('title');
  }
  if (away) {
    const now = performance.now();
    const b = ui.clockBase || { clocks: s.clocks, running: '', at: now };
    ui.clockBase = { clocks: b.clocks.map((ms, k) => (b.running === ['south', 'north'][k] ? ms - (now - b.at) : ms)), running: '', at: now };
  } else {
    ui.clockBase = { clocks: s.clocks, running: s.running, at: performance.now() };
  }
  const tick = () => {
    const b = ui.clockBase;
    for (const [k, side] of [[0, 'south'], [1, 'north']]) {
      let ms = b.clocks[k];
      if (b.running === side) ms -= performance.now() - b.at;
      const el = $('#clock-' + side);
      el.textContent = fmtClock(ms);
      el.classList.toggle('running', b.running === side);
      el.classList.toggle('low', ms < 10000);
    }
  };
  tick();
  if (ui.clockBase.running) ui.clockTimer = setInterval(tick, 100);
}

// ---- animation ----

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

async function animate(s, prev, speed) {
  ui.animating++;
  updateBusy();
  const holeEl = (name) => document.querySelector(`[data-hole="${name}"]`);
  const mark = (name, cls) => {
    const el = holeEl(name);
    if (!el) return;
    el.classList.remove(cls);
    void el.offsetWidth;
    el.classList.add(cls);
  };
  const index = new Map(s.holes.map((h, i) => [h, i]));
  const seeds = s.steps.reduce((n, st) => n + (st.path ? st.path.length : 0), 0);
  const budget = speed * 4;
  const perSeed = Math.min(speed / 6, budget / Math.max(seeds, 1));
  const bySeed = perSeed >= 8;
  const live = () => !cutShort(s);
  let lifted = null;
  try {
    let cur = prev.counts.slice();
    let capt = prev.captured.slice();
    for (const st of s.steps) {
      if (!live()) return;
      switch (st.kind) {
        case 'lift':
        case 'relay':
          if (lifted) holeEl(lifted)?.classList.remove('lifted');
          lifted = st.hole;
          holeEl(st.hole)?.classList.add('lifted');
          cur = st.counts.slice();
          drawPosition(cur, capt);
          await sleep(st.kind === 'lift' ? speed * 0.35 : Math.max(perSeed * 2, 40));
          break;
        case 'lap':
          if (bySeed) {
            for (const h of st.path) {
              if (!live()) return;
              cur[index.get(h)]++;
              drawPosition(cur, capt);
              mark(h, 'pop');
              await sleep(perSeed);
            }
          }
          cur = st.counts.slice();
          drawPosition(cur, capt);
          mark(st.hole, 'landing');
          if (!bySeed) await sleep(Math.min(speed / 3, budget / s.steps.length));
          break;
        case 'capture':
          mark(st.hole, 'drain');
          cur = st.counts.slice();
          capt = st.captured.slice();
          drawPosition(cur, capt);
          await sleep(speed * 0.4);
          break;
      }
    }
  } finally {
    if (lifted) holeEl(lifted)?.classList.remove('lifted');
    if (ui.state === s) {
      drawPosition(s.counts, s.captured);
      drawMarks(s);
    }
    ui.animating--;
    updateBusy();
  }
}

// ---- analysis ----

function clearLines(keep) {
  ui.lines.clear();
  if (!keep) ui.infoGen = -1;
  renderLines();
}

function fmtNum(n) {
  if (n >= 1e9) return (n / 1e9).toFixed(1) + 'G';
  if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
  if (n >= 1e3) return (n / 1e3).toFixed(1) + 'k';
  return String(n);
}

function onInfo(m) {
  const s = ui.state;
  if (!s) return;
  // A new search clears the lines but those kept from before a reload
  // (restored) of the same position: each stays until the new search's
  // line goes as deep.
  if (m.gen !== ui.infoGen) {
    ui.infoGen = m.gen;
    for (const [k, l] of ui.lines) if (!(l.restored && l.fen === m.fen)) ui.lines.delete(k);
  }
  const old = ui.lines.get(m.multipv);
  if (old && old.restored && !m.restored && old.fen === m.fen && m.depth < old.depth) return;
  ui.lines.set(m.multipv, m);
  renderLines();
  if (m.multipv === 1) { drawEval(s); updateArrows(); }
}

// updateArrows draws the arrows of the shown position (arrows.js).
function updateArrows() {
  if (ui.state) drawArrows(ui.state, arrowsFor(ui.state, ui.lines.get(1), ui.preview));
}

function renderLines() {
  const box = $('#analysis');
  const s = ui.state;
  const lines = [...ui.lines.values()].sort((a, b) => a.multipv - b.multipv);
  box.replaceChildren(...lines.map((m) => {
    const d = document.createElement('div');
    d.className = 'pv-line';
    d.dataset.multipv = String(m.multipv);
    d.dataset.depth = String(m.depth);
    d.dataset.score = m.score;
    const head = document.createElement('div');
    head.className = 'pv-head';
    const v = evalView(m.eval, s ? s.family : 'katro');
    const sc = document.createElement('b');
    sc.className = 'pv-score' + (v && v.forced ? ' forced ' + v.forced : '');
    sc.textContent = v ? v.main : '';
    if (v) saidAs(sc, v);
    const score = document.createElement('span');
    score.className = 'pv-eval';
    score.textContent = v ? v.score : '';
    const meta = document.createElement('span');
    meta.className = 'pv-meta';
    meta.textContent = `depth ${m.depth}${m.seldepth ? '/' + m.seldepth : ''} · nodes ${fmtNum(m.nodes)} · nps ${fmtNum(m.nps)} · ${m.engine}` +
      (m.restored ? ' · kept from before the reload, until the new search goes as deep' : '');
    if (m.restored) d.dataset.restored = 'true';
    head.append(sc, ' ', score, ' ', meta, ' ');
    if (v) {
      const w = document.createElement('div');
      w.className = 'pv-wdl';
      w.append(evalBar(v), Object.assign(document.createElement('span'), { className: 'wdl', textContent: wdlText(v) }));
      d.append(head, w);
    } else {
      d.append(head);
    }
    const pv = document.createElement('div');
    pv.className = 'pv-moves';
    pv.append('pv ');
    m.pv.forEach((mv, k) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'pv-move';
      b.textContent = mv;
      b.title = 'Show the position after this move';
      b.addEventListener('click', () => sendShown({ type: 'preview', fen: m.fen, moves: m.pv.slice(0, k + 1).join(' ') }));
      pv.append(b, ' ');
    });
    d.append(pv);
    return d;
  }));
}

function onPreview(m) {
  const s = ui.state;
  if (!s || m.fen === undefined) return;
  ui.preview = m;
  drawPosition(m.counts, m.captured);
  drawMarks(s);
  drawPanel(s);
  drawEval(s);
  updateArrows();
  const p = $('#pv-preview');
  p.hidden = false;
  p.textContent = `Showing the line: ${m.moves}. `;
  const back = document.createElement('button');
  back.type = 'button';
  back.textContent = 'Back to the game';
  back.addEventListener('click', endPreview);
  p.append(back);
}

function endPreview() {
  if (ui.preview && ui.preview.line) { endLine(); return; }
  showInstead(null);
}

// showInstead shows pos (an analysis line's or a side line's position)
// on the board instead of the game's; null shows the game's again.
function showInstead(pos) {
  const s = ui.state;
  ui.preview = pos;
  $('#pv-preview').hidden = true;
  if (!s) return;
  const p = pos || s;
  drawPosition(p.counts, p.captured);
  drawMarks(s);
  drawPanel(s);
  drawEnd(s);
  drawEval(s);
  updateArrows();
}

// ---- actions ----

function clickHole(name) {
  const s = ui.state;
  if (!s || ui.conn !== 'ok') return;
  if (ui.preview && ui.preview.line) { lineClick(name); return; }
  if (ui.preview) { endPreview(); return; }
  const back = s.view < s.moves.length;
  // Looking back, the game's own next move steps forward.
  if (back && s.moves[s.view].move === name) { hideNote(); goTo(s.view + 1); return; }
  if (!s.legal.includes(name) || (s.turn !== 'human' && !back)) { holeHint(s, name); return; }
  const play = () => request({ type: 'move', move: name, ply: s.view });
  // Another move at an earlier ply would cut the game: the person is
  // asked, and may explore it as a side line instead (the only way at an
  // engine's turn).
  if (back) { askCut(s, name, s.turn === 'human' ? play : null, () => startLine(s.view, [name])); return; }
  hideNote();
  play();
}

// goToShown and sendShown are goTo and send for the panels beside or
// under the board (the moves, the graph, the review, the analysis): on a
// phone the board may be out of view, and the page scrolls to it, so
// that what the person picked is seen.
function goToShown(ply) { goTo(ply); revealBoard(); }
function sendShown(msg) { send(msg); revealBoard(); }

function goTo(ply) {
  const s = ui.state;
  if (!s) return;
  request({ type: 'goto', ply: Math.max(0, Math.min(ply, s.moves.length)) });
}

// newGame asks for the form's game. The no-capture limit goes as typed
// (the server refuses "1.5" or nothing, by name); the Hoyito III rules
// only with Hoyito III.
function newGame() {
  const req = {
    type: 'new', game: $('#game-select').value, south: $('#south-select').value, north: $('#north-select').value,
    limitKind: $('#limit-kind').value, limitValue: $('#limit-value').value,
    noCaptureLimit: $('#nocapturelimit-input').value,
  };
  if (req.game === 'hoyito3') {
    Object.assign(req, { captureSide: $('#captureside-select').value, lastFour: $('#lastfour-select').value,
      repetition: $('#repetition-select').value });
    const games = parseInt($('#match-select').value, 10);
    if (games > 0) { req.match = games; delete req.lastFour; } // the match sets LastFour game by game
  }
  request(req);
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function bind() {
  bindSound($('#sound-toggle'));
  bindPastGames(send);
  watchBoard(() => ui.state);
  watchArrows();
  $('#eval-graph').addEventListener('click', graphClick);
  $('#new-game').addEventListener('click', newGame);
  $('#game-select').addEventListener('change', showHoyitoOptions);
  $('#limit-kind').addEventListener('change', () => {
    $('#limit-value').value = ({ movetime: '1000', depth: '8', tc: '60+1' })[$('#limit-kind').value];
  });
  $('#pass').addEventListener('click', () => clickHole('pass'));
  $('#flip').addEventListener('click', () => {
    ui.flipped = !ui.flipped;
    $('#flip').setAttribute('aria-pressed', ui.flipped ? 'true' : 'false');
    if (ui.state) { buildBoard(ui.state); drawPosition(ui.state.counts, ui.state.captured); drawMarks(ui.state); updateArrows(); }
  });
  $('#takeback').addEventListener('click', () => request({ type: 'takeback' }));
  $('#play-here').addEventListener('click', () => { ui.conn = 'connecting'; drawConn(); connect(); });
  $('#next-game').addEventListener('click', () => request({ type: 'next' }));
  $('#resume').addEventListener('click', () => request({ type: 'resume' }));
  $('#pause').addEventListener('click', () => request({ type: 'pause' }));
  $('#step').addEventListener('click', () => request({ type: 'step' }));
  $('#first').addEventListener('click', () => goTo(0));
  $('#prev').addEventListener('click', () => ui.state && goTo(ui.state.view - 1));
  $('#next').addEventListener('click', () => ui.state && goTo(ui.state.view + 1));
  $('#last').addEventListener('click', () => ui.state && goTo(ui.state.moves.length));
  $('#setup').addEventListener('click', () => {
    const fen = $('#fen-input').value;
    ui.setupText = fen;
    ui.keepFen = null;
    request({ type: 'setup', fen });
    ui.fenShown = fen; // what was set up may be followed again
  });
  $('#fen-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') $('#setup').click(); });
  $('#copy-fen').addEventListener('click', async () => {
    const fen = $('#status').dataset.fen;
    try {
      await navigator.clipboard.writeText(fen);
      setMessage('');
      flash('Position copied');
    } catch {
      $('#fen-input').value = fen;
      $('#fen-input').select();
      flash('Select and copy the position from the box');
    }
  });
  $('#export-jsonl').addEventListener('click', () => send({ type: 'export', format: 'jsonl' }));
  $('#export-pgn').addEventListener('click', () => send({ type: 'export', format: 'pgn' }));
  $('#import-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    if (f.size > 400000) { setMessage(`${f.name}: too big for a game record`); return; }
    request({ type: 'import', text: await f.text() });
    e.target.value = '';
  });
  bindReview(request, () => (ui.state ? ui.state.analysis.engine : ''));
  bindEnd({ state: () => ui.state, request, send: sendShown, goTo: goToShown, sideLine: startLine });
  bindSideLine({ state: () => ui.state, request, show: (pos) => { showInstead(pos); revealBoard(); } });
  bindTables(() => ui.state && drawEval(ui.state));
  $('#analyse').addEventListener('click', () => {
    const s = ui.state;
    if (!s) return;
    request({ type: 'analyse', on: !s.analysis.on, engine: s.analysis.engine, multipv: parseInt($('#multipv').value, 10) || 1 });
  });
  $('#multipv').addEventListener('change', () => {
    const s = ui.state;
    if (s) send({ type: 'analyse', on: s.analysis.on, engine: s.analysis.engine, multipv: parseInt($('#multipv').value, 10) || 1 });
  });
  $('#animate-select').addEventListener('change', () => ui.state && writeURL(ui.state));
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const s = ui.state;
    if (!s) return;
    switch (e.key) {
      case 'ArrowLeft': goTo(s.view - 1); break;
      case 'ArrowRight': goTo(s.view + 1); break;
      case 'Home': goTo(0); break;
      case 'End': goTo(s.moves.length); break;
      case 'Escape': endPreview(); break;
      default: return;
    }
    e.preventDefault();
  });
}

let flashTimer = 0;
function flash(text) {
  const c = $('#conn');
  c.textContent = text;
  c.className = 'conn ok show';
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { c.textContent = ''; c.className = 'conn ok'; }, 1500);
}

// A fault of the page itself is shown, not hidden.
window.addEventListener('error', (e) => { $('#message').textContent = 'page error: ' + e.message; });
window.addEventListener('unhandledrejection', (e) => { $('#message').textContent = 'page error: ' + e.reason; });

// Leaving the page ends its game on the server (and its engines).
window.addEventListener('pagehide', () => { ui.leaving = true; if (ui.ws) ui.ws.close(1000); });
window.addEventListener('pageshow', (e) => { if (e.persisted) location.reload(); });

bind();
drawConn();
connect();
