// Sower's page: draws the game the server keeps and sends the person's
// actions over one WebSocket. The server checks every move; the page only
// shows what the server says (docs/gui.md).

const $ = (sel) => document.querySelector(sel);
const body = document.body;

const speeds = { slow: 900, normal: 450, fast: 180, instant: 0 };

const ui = {
  ws: null,
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
  firstReq: null,   // the address's new game, until it is answered
  firstError: '',   // why the address's position was refused, until its retry shows
  firstErrorGame: null, // the game shown when it was refused
  lastState: 0,     // when the last state came (performance.now())
  pace: Infinity,   // the usual time between states of a game, ms
};

function send(msg) {
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) {
    ui.ws.send(JSON.stringify(msg));
  }
}

function request(msg) {
  ui.pending = true;
  updateBusy();
  send(msg);
}

// ---- URL ----

function paramsFromURL() {
  const q = new URLSearchParams(location.search);
  const r = { type: 'new', game: q.get('game') || 'katro' };
  r.south = q.get('south') || 'human';
  r.north = q.get('north') || '';
  if (q.has('depth')) { r.limitKind = 'depth'; r.limitValue = q.get('depth'); }
  else if (q.has('tc')) { r.limitKind = 'tc'; r.limitValue = q.get('tc'); }
  else { r.limitKind = 'movetime'; r.limitValue = q.get('movetime') || '1000'; }
  r.fen = q.get('fen') || '';
  r.moves = q.get('moves') || '';
  if (q.has('captureside')) r.captureSide = q.get('captureside');
  if (q.has('lastfour')) r.lastFour = q.get('lastfour');
  if (q.has('nocapturelimit')) {
    const n = parseInt(q.get('nocapturelimit'), 10);
    if (!Number.isNaN(n)) r.noCaptureLimit = n;
  }
  const anim = q.get('animate');
  if (anim === 'off') $('#animate-select').value = 'instant';
  else if (anim && speeds[anim] !== undefined) $('#animate-select').value = anim;
  return { req: r, mode: q.get('mode') || 'play', engine: q.get('engine') || '' };
}

function writeURL(s) {
  const q = new URLSearchParams();
  q.set('game', s.game);
  q.set('south', s.players[0]);
  q.set('north', s.players[1]);
  q.set(s.limit.kind, s.limit.value);
  if (!s.startIsInitial) q.set('fen', s.start);
  if (s.moves.length) q.set('moves', s.moves.map((m) => m.move).join(' '));
  if (s.family === 'hoyito') {
    if (s.rules.captureSide !== 'any') q.set('captureside', s.rules.captureSide);
    if (s.rules.lastFour !== 'capturer') q.set('lastfour', s.rules.lastFour);
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
  const ws = new WebSocket(proto + '//' + location.host + '/ws');
  ui.ws = ws;
  ws.onopen = () => {
    $('#conn').textContent = '';
    $('#conn').className = 'conn ok';
    if (!ui.started) {
      ui.started = true;
      const { req, mode, engine } = paramsFromURL();
      ui.firstReq = req;
      request(req);
      if (mode === 'analysis') send({ type: 'analyse', on: true, engine, multipv: 1 });
    } else if (ui.state) {
      // A new connection is a new game on the server: start it again.
      const s = ui.state;
      request({ type: 'new', game: s.game, south: s.players[0], north: s.players[1],
        limitKind: s.limit.kind, limitValue: s.limit.value, fen: s.startIsInitial ? '' : s.start,
        moves: s.moves.map((m) => m.move).join(' '), captureSide: s.rules.captureSide,
        lastFour: s.rules.lastFour, noCaptureLimit: s.rules.noCaptureLimit });
    }
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    switch (m.type) {
      case 'state': enqueue(m); break;
      case 'info': onInfo(m); break;
      case 'message': setMessage(m.text); break;
      case 'export': download(m.filename, m.text); break;
      case 'preview': onPreview(m); break;
    }
  };
  ws.onclose = () => {
    if (ui.leaving) return;
    $('#conn').textContent = 'disconnected — reconnecting…';
    $('#conn').className = 'conn bad';
    setTimeout(connect, 1000);
  };
}

function setMessage(text) {
  if (ui.firstReq) {
    const r = ui.firstReq;
    ui.firstReq = null;
    if (text && (r.fen || r.moves) && r.type === 'new') {
      // The address's position or moves were refused: keep its game,
      // players and rules from the start, and say why.
      ui.firstError = `${text}. The game starts from its start position.`;
      request({ ...r, fen: '', moves: '' });
      $('#message').textContent = ui.firstError;
      return;
    }
  }
  if (!text && ui.firstError) return; // the error stays until the retry's game shows
  if (ui.setupText !== null) {
    if (text) ui.keepFen = { text: ui.setupText, fen: ui.state ? ui.state.fen : '' };
    ui.setupText = null;
  }
  $('#message').textContent = text || '';
  if (!text) return;
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
  if (ui.firstError) {
    if (ui.firstErrorGame === null) ui.firstErrorGame = s.gameId;
    else if (s.gameId !== ui.firstErrorGame) ui.firstError = '';
  }
  const newGame = s.gameId !== ui.gameId;
  ui.state = s;
  ui.pending = false;
  ui.preview = null;
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
  if (!newGame && speed > 0 && s.steps && prev && prev.view + 1 === s.view) {
    anim = animate(s, prev, speed);
  } else {
    drawPosition(s.counts, s.captured);
  }
  drawMarks(s);
  drawPanel(s);
  drawMoves(s);
  drawGraph(s);
  drawClocks(s);
  if (!s.analysis.on || (prev && prev.fen !== s.fen)) clearLines(s.analysis.on);
  drawEval(s);
  writeURL(s);
  updateBusy();
  if (body.dataset.ready !== 'true') body.dataset.ready = 'true';
  return anim;
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
  $('#nocapturelimit-input').value = s.rules.noCaptureLimit;
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
  const busy = ui.pending || ui.animating > 0 || ui.queue.length > 0 || (s && s.thinking) || !s;
  body.dataset.busy = busy ? 'true' : 'false';
}

// ---- board ----

// seedsDrawn is the most seeds a hole draws; a bigger heap is drawn full
// with its number over it.
const seedsDrawn = 48;

// seedLayout places n seeds in a hole, as fractions of its size: a
// sunflower spiral, so any count looks like a heap, that packs tighter
// and with smaller seeds as it grows, so that every seed stays inside
// the hole (within 0.42 of its centre; the hole's radius is 0.5).
const seedLayouts = new Map();
function seedLayout(n) {
  const m = Math.min(n, seedsDrawn);
  if (seedLayouts.has(m)) return seedLayouts.get(m);
  // The spiral's step c and the seed's size d: d = 1.3c (a heap, seeds
  // touching), r_max + d/2 <= 0.42.
  const c = Math.min(0.13, 0.42 / (Math.sqrt(Math.max(m - 1, 0) + 0.6) + 0.65));
  const d = Math.min(0.17, 1.3 * c);
  const spots = Array.from({ length: m }, (_, i) => {
    const a = i * 2.39996, r = c * Math.sqrt(i + 0.6);
    return [0.5 + r * Math.cos(a), 0.5 + r * Math.sin(a)];
  });
  const l = { spots, size: d };
  seedLayouts.set(m, l);
  return l;
}

// fitBoard sizes the holes to the width the board has (at most 76 px),
// so that no game needs sideways scrolling; on a narrow screen the gaps
// and the board's edge shrink first, and a Hoyito III board too narrow
// for its stores beside it puts them above and below it.
function fitBoard() {
  const s = ui.state;
  if (!s) return;
  const panel = document.querySelector('.board-panel');
  const cs = getComputedStyle(panel);
  const avail = panel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  // In holes: the holes, the gaps between them (gap), the board's edge
  // (2 × pad) and each store (1.05) with its gap.
  const fit = (stores, gap, pad) => avail / (s.cols + gap * (s.cols - 1) + 2 * pad + stores * (1.05 + gap));
  const hoy = s.family === 'hoyito';
  let gap = 0.13, pad = 0.24, stacked = false;
  if (fit(hoy ? 2 : 0, gap, pad) < 52) { gap = 0.08; pad = 0.14; }
  if (hoy && fit(2, gap, pad) < 56) stacked = true;
  const size = Math.max(24, Math.min(76, Math.floor(fit(hoy && !stacked ? 2 : 0, gap, pad))));
  panel.style.setProperty('--hole-size', size + 'px');
  panel.style.setProperty('--hole-gap', (gap * size).toFixed(1) + 'px');
  panel.style.setProperty('--board-pad', (pad * size).toFixed(1) + 'px');
  document.querySelector('.board-wrap').classList.toggle('stacked', stacked);
}

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
  rows.forEach((r, k) => {
    if (s.family === 'katro' && k === s.rows / 2) {
      const line = document.createElement('div');
      line.className = 'front-line';
      line.setAttribute('aria-hidden', 'true');
      board.append(line);
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
      board.append(b);
    }
  });
  const hoy = s.family === 'hoyito';
  $('#store-north').hidden = !hoy;
  $('#store-south').hidden = !hoy;
  $('#captured-north').hidden = !hoy;
  $('#captured-south').hidden = !hoy;
  $('#pass').hidden = !hoy;
  const wrap = document.querySelector('.board-wrap');
  wrap.classList.toggle('flipped', ui.flipped);
  document.querySelector('.board-panel').classList.toggle('flipped', ui.flipped);
  fitBoard();
}

function drawSeeds(el, n) {
  const box = el.querySelector('.seeds');
  const { spots, size } = seedLayout(n);
  if (box.childElementCount !== spots.length) {
    const kids = spots.map(([x, y], i) => {
      const d = document.createElement('i');
      d.style.left = (x * 100) + '%';
      d.style.top = (y * 100) + '%';
      d.className = 's' + (i % 4);
      return d;
    });
    box.replaceChildren(...kids);
  }
  box.style.setProperty('--seed', (size * 100) + '%');
  box.classList.toggle('full', n > seedsDrawn);
  box.dataset.more = n > seedsDrawn ? String(n) : '';
  el.querySelector('.count').textContent = n;
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
  const legal = new Set(preview ? [] : s.legal);
  const humanTurn = !preview && s.turn === 'human';
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
  if (ui.preview) text = `Preview of the line ${ui.preview.moves}, not the game: Esc or a click on the board returns`;
  else if (s.turn === 'over') text = 'Game over';
  else if (s.thinking) text = `${side} to move — ${player} is thinking…`;
  else if (s.turn === 'human') text = `${side} to move` + (s.analysis.on ? ' (analysis)' : ' — your move');
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
  document.querySelector('.board-wrap').classList.toggle('previewing', !!ui.preview);
  $('#preview-badge').hidden = !ui.preview;
  $('#result').dataset.winner = s.turn === 'over' ? s.status : '';
  $('#result').textContent = s.result || '';
  $('#south-name').textContent = 'South · ' + s.players[0];
  $('#north-name').textContent = 'North · ' + s.players[1];
  document.querySelector('.player-bar.south').classList.toggle('to-move', s.side === 'south' && s.turn !== 'over');
  document.querySelector('.player-bar.north').classList.toggle('to-move', s.side === 'north' && s.turn !== 'over');
  const pause = $('#pause');
  pause.textContent = s.paused ? 'Resume' : 'Pause';
  pause.setAttribute('aria-pressed', s.paused ? 'true' : 'false');
  // With no move, only a loss on time before the first move can be taken back.
  $('#takeback').disabled = s.moves.length === 0 && !(s.turn === 'over' && s.reason === 'time forfeit');
  $('#resume').disabled = s.view === s.moves.length && !s.paused;
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
  pause.title = s.paused ? 'Let the engines move again' : 'Stop the engines moving until Resume (analysis and your moves go on)';
  const mpv = $('#multipv');
  mpv.max = String(s.analysis.maxMultipv);
  mpv.disabled = s.analysis.maxMultipv <= 1;
  if (document.activeElement !== mpv) mpv.value = String(Math.min(s.analysis.multipv, s.analysis.maxMultipv));
  $('#subtitle').textContent = ({ katro: 'Katro', 'katro-6x3': 'Katro 6×3', 'katro-4x6': 'Katro 4×6', 'katro-4x4': 'Katro 4×4', hoyito3: 'Hoyito III' })[s.game] +
    ` · ply ${s.view}${s.view < s.moves.length ? ' of ' + s.moves.length : ''} · no-capture clock ${s.clock}`;
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
      sc.textContent = v.forced ? v.main : v.wdl ? `${v.wdl[0]}%` : `≈${Math.round(100 * v.share)}%`;
      sc.title = `${wdlText(v)}${v.score ? ', ' + v.score : ''}${m.depth ? ', depth ' + m.depth : ''}`;
      sc.setAttribute('aria-label', 'South: ' + sc.title);
      li.append(' ', sc);
    }
    li.setAttribute('aria-label', `ply ${ply}: ${m.side === 'S' ? 'South' : 'North'} ${m.move}`);
    if (ply === s.view) li.setAttribute('aria-current', 'true');
    li.addEventListener('click', () => goTo(ply));
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); goTo(ply); } });
    return li;
  });
  ol.replaceChildren(...items);
  const cur = ol.querySelector('[aria-current="true"]');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

// ---- scores ----
//
// Every score on the page is from South's view (the server turns the
// engine's, which are the side to move's): South's chances first, as a
// percentage and a bar, then the engine's score in its unit. The line
// #pov says so, once.

// squash is the scale of the logistic that turns a score without wdl into
// an estimate of South's share (win + half the draws), per game family:
// centi-units of the Katro evaluation, hundredths of a seed in Hoyito III.
const squash = { katro: 500, hoyito: 300 };

function sideName(k) { return k === 'south' ? 'South' : 'North'; }

// fmtScore writes the engine's score, South's view, in its unit: Katro's
// evaluation, Hoyito III's seeds of margin. A bound is written before the
// number with a no-break space, so that it never wraps alone.
function fmtScore(e, family) {
  if (!e || e.cp === undefined) return '';
  const x = e.cp / 100;
  const num = (x > 0 ? '+' : x < 0 ? '\u2212' : '') + Math.abs(x).toFixed(family === 'hoyito' ? 1 : 2);
  const bound = e.bound === 'lower' ? '\u2265\u00a0' : e.bound === 'upper' ? '\u2264\u00a0' : '';
  return family === 'hoyito' ? `${bound}${num}\u00a0seeds` : `evaluation\u00a0${bound}${num}`;
}

// evalView reads a score (South's view) as the page shows it: share is
// South's expected share of the game, 0 to 1 (win + half the draws);
// wdl South's win, the draw and North's win in per cent (summing to 100)
// when the engine sent them; forced the winner of a proven result
// ('south', 'north' or 'draw'); main the main figure; est whether the
// share is only squashed from the score.
function evalView(e, family) {
  if (!e) return null;
  const v = { forced: null, est: false, wdl: null, score: fmtScore(e, family) };
  if (e.mate !== undefined) {
    const w = e.mate > 0 ? 'south' : 'north';
    v.forced = w;
    v.share = w === 'south' ? 1 : 0;
    v.wdl = w === 'south' ? [100, 0, 0] : [0, 0, 100];
    v.main = e.lost ? `${sideName(w)} has won` : `${sideName(w)} wins in ${Math.abs(e.mate)}`;
    return v;
  }
  if (e.wdl) {
    const [w, d, l] = e.wdl;
    const sum = Math.max(w + d + l, 1);
    const pw = Math.round(100 * w / sum), pl = Math.round(100 * l / sum);
    v.wdl = [pw, 100 - pw - pl, pl];
    v.share = (w + d / 2) / sum;
    if (w === sum) v.forced = 'south';
    else if (l === sum) v.forced = 'north';
    else if (d === sum) v.forced = 'draw';
  } else {
    v.est = true;
    v.share = 1 / (1 + Math.exp(-e.cp / squash[family]));
  }
  if (v.forced === 'draw') v.main = 'Draw';
  else if (v.forced) v.main = `${sideName(v.forced)} wins`;
  else if (v.wdl) v.main = `South ${v.wdl[0]}%`;
  else v.main = `South \u2248${Math.round(100 * v.share)}%`;
  return v;
}

// wdlText writes the chances in full.
function wdlText(v) {
  if (v.wdl) return `South ${v.wdl[0]}% \u00b7 draw ${v.wdl[1]}% \u00b7 North ${v.wdl[2]}%`;
  return `South \u2248${Math.round(100 * v.share)}% (estimated from the score)`;
}

// evalBar draws a view as a bar: South's win, the draw, North's win.
function evalBar(v) {
  const bar = document.createElement('span');
  bar.className = 'wdl-bar' + (v.est ? ' est' : '');
  bar.setAttribute('aria-hidden', 'true');
  const parts = v.wdl ? v.wdl : [100 * v.share, 0, 100 - 100 * v.share];
  ['w', 'd', 'l'].forEach((k, i) => {
    const seg = document.createElement('i');
    seg.className = k;
    seg.style.width = parts[i] + '%';
    bar.append(seg);
  });
  return bar;
}

// shownEval is the score of the shown position: the analysis's first line
// when it is of this position, else the engine's score for the move that
// led to it.
function shownEval(s) {
  if (ui.preview) return null; // a line's position: no score of its own
  const l = ui.lines.get(1);
  if (l && l.fen === s.fen && l.eval) return { e: l.eval, depth: l.depth, by: l.engine + ' (analysis)' };
  const m = s.view > 0 ? s.moves[s.view - 1] : null;
  if (m && m.eval) return { e: m.eval, depth: m.depth, by: m.by };
  return null;
}

function drawEval(s) {
  const box = $('#eval-now');
  const got = shownEval(s);
  const v = got && evalView(got.e, s.family);
  if (!v) {
    const none = ui.preview ? 'A line of the analysis: its score is the line\'s, in the analysis' : 'No engine score for this position yet';
    box.replaceChildren(Object.assign(document.createElement('span'), { className: 'eval-none', textContent: none }));
    box.dataset.forced = '';
    return;
  }
  const main = Object.assign(document.createElement('b'), { className: 'eval-main', textContent: v.main });
  const detail = Object.assign(document.createElement('span'), { className: 'eval-detail' });
  const wdl = Object.assign(document.createElement('span'), { className: 'wdl', textContent: wdlText(v) });
  detail.append(wdl);
  if (v.score) detail.append(' \u00b7 ', Object.assign(document.createElement('span'), { className: 'eval-score', textContent: v.score }));
  detail.append(` \u00b7 ${got.by}${got.depth ? ', depth ' + got.depth : ''}`);
  box.replaceChildren(main, evalBar(v), detail);
  box.dataset.forced = v.forced || '';
}

const svgNS = 'http://www.w3.org/2000/svg';

// The graph: South's share of the game (0 to 100 %, win + half the
// draws) after every engine move, on a fixed scale; proven results at
// the ends of the scale (a draw on the centre line), drawn larger and in
// the winner's colour.
const graphBox = { W: 320, H: 124, left: 34, right: 8, top: 10, bottom: 20 };

function graphX(ply, n) {
  const g = graphBox;
  return g.left + (n <= 1 ? 0.5 : (ply - 1) / (n - 1)) * (g.W - g.left - g.right);
}

function graphY(share) {
  const g = graphBox;
  return g.top + (1 - share) * (g.H - g.top - g.bottom);
}

function drawGraph(s) {
  const svg = $('#eval-graph');
  const g = graphBox;
  const n = s.moves.length;
  const kids = [];
  const mk = (tag, attrs, text) => {
    const e = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const x0 = g.left, x1 = g.W - g.right;
  kids.push(mk('rect', { x: x0, y: graphY(1), width: x1 - x0, height: graphY(0.5) - graphY(1), class: 'g-up' }));
  kids.push(mk('rect', { x: x0, y: graphY(0.5), width: x1 - x0, height: graphY(0) - graphY(0.5), class: 'g-down' }));
  for (const q of [0.25, 0.75]) kids.push(mk('line', { x1: x0, y1: graphY(q), x2: x1, y2: graphY(q), class: 'g-grid' }));
  kids.push(mk('line', { x1: x0, y1: graphY(0.5), x2: x1, y2: graphY(0.5), class: 'g-zero' }));
  for (const [q, t] of [[1, '100%'], [0.5, '50%'], [0, '0%']]) {
    kids.push(mk('text', { x: x0 - 4, y: graphY(q) + 3, class: 'g-label', 'text-anchor': 'end' }, t));
  }
  kids.push(mk('text', { x: x0 + 4, y: graphY(1) + 10, class: 'g-label g-side south' }, 'South ahead'));
  kids.push(mk('text', { x: x0 + 4, y: graphY(0) - 4, class: 'g-label g-side north' }, 'North ahead'));
  if (n > 0) {
    kids.push(mk('text', { x: graphX(1, n), y: g.H - 5, class: 'g-label', 'text-anchor': 'middle' }, '1'));
    if (n > 1) kids.push(mk('text', { x: graphX(n, n), y: g.H - 5, class: 'g-label', 'text-anchor': 'middle' }, String(n)));
    kids.push(mk('text', { x: (x0 + x1) / 2, y: g.H - 5, class: 'g-label', 'text-anchor': 'middle' }, 'ply'));
  }
  if (s.view > 0 && n > 0) kids.push(mk('line', { x1: graphX(s.view, n), y1: g.top, x2: graphX(s.view, n), y2: graphY(0), class: 'g-view' }));
  const pts = [];
  s.moves.forEach((m, i) => {
    const v = evalView(m.eval, s.family);
    if (v) pts.push([i + 1, v, m]);
  });
  if (pts.length > 1) {
    kids.push(mk('polyline', { points: pts.map(([p, v]) => `${graphX(p, n)},${graphY(v.share)}`).join(' '), class: 'g-line' }));
  }
  for (const [p, v, m] of pts) {
    const c = mk('circle', {
      cx: graphX(p, n), cy: graphY(v.share), r: v.forced ? 4.5 : 2.6,
      class: 'g-pt' + (v.forced ? ' g-forced ' + v.forced : '') + (v.est ? ' est' : '') + (p === s.view ? ' cur' : ''),
      'data-ply': String(p), 'data-share': v.share.toFixed(4), 'data-forced': v.forced || '',
    });
    c.append(mk('title', {}, `ply ${p} (${m.move}): ${v.main}${v.score ? ', ' + v.score : ''}`));
    c.addEventListener('click', (ev) => { ev.stopPropagation(); goTo(p); });
    kids.push(c);
  }
  svg.replaceChildren(...kids);
  svg.dataset.top = String(graphY(1)); // where 100 % and 0 % are drawn
  svg.dataset.bottom = String(graphY(0));
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
  goTo(Math.max(1, Math.min(n, ply)));
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
  ui.clockBase = { clocks: s.clocks, running: s.running, at: performance.now() };
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
  if (s.running) ui.clockTimer = setInterval(tick, 100);
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
  if (m.gen !== ui.infoGen) { ui.infoGen = m.gen; ui.lines.clear(); }
  ui.lines.set(m.multipv, m);
  renderLines();
  if (m.multipv === 1) drawEval(s);
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
    const score = document.createElement('span');
    score.className = 'pv-eval';
    score.textContent = v ? v.score : '';
    const meta = document.createElement('span');
    meta.className = 'pv-meta';
    meta.textContent = `depth ${m.depth}${m.seldepth ? '/' + m.seldepth : ''} · nodes ${fmtNum(m.nodes)} · nps ${fmtNum(m.nps)} · ${m.engine}`;
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
      b.addEventListener('click', () => send({ type: 'preview', fen: m.fen, moves: m.pv.slice(0, k + 1).join(' ') }));
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
  const s = ui.state;
  ui.preview = null;
  $('#pv-preview').hidden = true;
  if (!s) return;
  drawPosition(s.counts, s.captured);
  drawMarks(s);
  drawPanel(s);
  drawEval(s);
}

// ---- actions ----

function clickHole(name) {
  const s = ui.state;
  if (!s) return;
  if (ui.preview) { endPreview(); return; }
  if (s.turn !== 'human' || !s.legal.includes(name)) return;
  request({ type: 'move', move: name, ply: s.view });
}

function goTo(ply) {
  const s = ui.state;
  if (!s) return;
  request({ type: 'goto', ply: Math.max(0, Math.min(ply, s.moves.length)) });
}

function newGame() {
  const v = parseInt($('#nocapturelimit-input').value, 10);
  const req = {
    type: 'new', game: $('#game-select').value, south: $('#south-select').value, north: $('#north-select').value,
    limitKind: $('#limit-kind').value, limitValue: $('#limit-value').value,
    captureSide: $('#captureside-select').value, lastFour: $('#lastfour-select').value,
  };
  if (!Number.isNaN(v)) req.noCaptureLimit = v;
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
  // Refit the board when the panel's width changes (in the next frame, so
  // that the refit does not itself count as a resize of this frame).
  let fitWidth = -1;
  new ResizeObserver((es) => {
    const w = es[0].contentRect.width;
    if (w === fitWidth) return;
    fitWidth = w;
    requestAnimationFrame(fitBoard);
  }).observe(document.querySelector('.board-panel'));
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
    if (ui.state) { buildBoard(ui.state); drawPosition(ui.state.counts, ui.state.captured); drawMarks(ui.state); }
  });
  $('#takeback').addEventListener('click', () => request({ type: 'takeback' }));
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
connect();
