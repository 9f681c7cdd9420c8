// Side lines, for app.js (docs/gui.md, Side lines): a line explored from
// any ply instead of the game's move there, the game kept. The server
// checks every move and keeps the line beside the game (and in its
// record); the board shows the line's position, where the person plays
// on, until Back to the game.

const $ = (sel) => document.querySelector(sel);

const side = (k) => (k === 'south' ? 'South' : 'North');

let ctx = null; // { state, request, show } from app.js
let cur = null; // the line shown: the server's "line" message, with the game's view and id

// bindSideLine wires the line's bar; c.show(pos) shows a position on the
// board instead of the game's (null: the game's again).
export function bindSideLine(c) {
  ctx = c;
  $('#line-back').addEventListener('click', endLine);
  $('#line-drop').addEventListener('click', () => {
    if (!cur) return;
    ctx.request({ type: 'line', line: { index: cur.index, from: cur.from, moves: '', at: -1 } });
    endLine();
  });
}

// startLine explores moves instead of the game's move after from plies,
// as a new side line.
export function startLine(from, moves) {
  ask(-1, from, moves, -1);
}

function ask(index, from, moves, at) {
  ctx.request({ type: 'line', line: { index, from, moves: moves.join(' '), at } });
}

// onLine shows the position the server sent for a side line.
export function onLine(m) {
  const s = ctx.state();
  if (!s) return;
  cur = { ...m, view: s.view, gameId: s.gameId };
  ctx.show({ ...m, line: true });
  drawBar(s);
}

// lineShown says a side line is on the board.
export function lineShown() { return !!cur; }

// lineStays says whether the line shown stays with state s: the same
// game, the same ply shown, and the line still kept.
export function lineStays(s) {
  if (!cur) return false;
  const kept = s.lines[cur.index];
  const ok = s.gameId === cur.gameId && s.view === cur.view && kept && kept.from === cur.from;
  if (!ok) { cur = null; drawBar(s); }
  return ok;
}

// endLine goes back to the game.
export function endLine() {
  if (!cur) return;
  cur = null;
  ctx.show(null);
  drawBar(ctx.state());
}

// lineClick plays a move in the line shown (cutting the line there if an
// earlier move of it is shown), or says why the hole cannot be played.
export function lineClick(name) {
  if (!cur) return;
  if (!cur.legal.includes(name)) {
    const why = cur.result ? `The line has ended: ${cur.result}.` : (cur.hints && cur.hints[name]) || `${name} is not a move here.`;
    $('#line-note').textContent = why;
    $('#line-note').hidden = false;
    return;
  }
  ask(cur.index, cur.from, cur.moves.slice(0, cur.at).concat(name), -1);
}

// lineStatus is the status line while a side line is shown.
export function lineStatus() {
  if (!cur) return '';
  const shown = cur.moves.slice(0, cur.at).join(' ');
  const where = `Side line from ply ${cur.from}: ${shown}`;
  if (cur.result) return `${where} — ${cur.result}`;
  return `${where} — ${side(cur.side)} to move`;
}

// drawBar draws the line's bar: its moves, each a button showing the
// position after it, Back to the game and Drop.
function drawBar(s) {
  const bar = $('#side-line');
  bar.hidden = !cur;
  $('#line-note').hidden = true;
  if (!cur || !s) return;
  const instead = s.moves[cur.from] ? ` instead of ${s.moves[cur.from].move}` : '';
  const moves = $('#line-moves');
  moves.replaceChildren(`Side line from ply ${cur.from}${instead}: `, ...cur.moves.map((mv, k) => {
    const b = Object.assign(document.createElement('button'), { type: 'button', className: 'line-move', textContent: mv });
    if (k + 1 === cur.at) b.setAttribute('aria-current', 'true');
    b.title = 'Show the position after this move';
    b.addEventListener('click', () => ask(cur.index, cur.from, cur.moves, k + 1));
    return b;
  }));
}

// withLines puts the kept side lines into the move list's items, each
// after the ply it replaces: a button that shows it.
export function withLines(s, items) {
  const out = [...items];
  s.lines.map((l, i) => [l, i]).sort((a, b) => b[0].from - a[0].from).forEach(([l, i]) => {
    const li = document.createElement('li');
    li.className = 'side-line-item';
    li.dataset.line = String(i);
    li.dataset.from = String(l.from);
    li.tabIndex = 0;
    li.textContent = `\u2442 ${l.moves.join(' ')}`;
    li.title = `Side line instead of ply ${l.from + 1}: show it`;
    li.setAttribute('aria-label', `side line instead of ply ${l.from + 1}: ${l.moves.join(' ')}`);
    const open = () => ask(i, l.from, l.moves, -1);
    li.addEventListener('click', open);
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } });
    out.splice(Math.min(l.from + 1, out.length), 0, li);
  });
  return out;
}
