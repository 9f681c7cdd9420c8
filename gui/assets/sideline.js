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

// lineClick plays a move in the line shown: at its end it extends the
// line; where an earlier move of it is shown, the line's own next move
// steps forward, and another move starts a line from within it (a new
// side line, the shown one kept, as a variation of a variation); or it
// says why the hole cannot be played.
export function lineClick(name) {
  if (!cur) return;
  if (!cur.legal.includes(name)) {
    const why = cur.result ? `The line has ended: ${cur.result}.` : (cur.hints && cur.hints[name]) || `${name} is not a move here.`;
    $('#line-note').textContent = why;
    $('#line-note').hidden = false;
    return;
  }
  if (cur.at === cur.moves.length) ask(cur.index, cur.from, cur.moves.concat(name), -1);
  else if (cur.moves[cur.at] === name) ask(cur.index, cur.from, cur.moves, cur.at + 1);
  else ask(-1, cur.from, cur.moves.slice(0, cur.at).concat(name), -1);
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

// parentLine is the index of the earlier line from the same ply that
// line i shares the most first moves with, and how many: a line
// explored from within it (-1 and 0 when none does).
export function parentLine(lines, i) {
  let best = -1, n = 0;
  const l = lines[i];
  for (let j = 0; j < i; j++) {
    const o = lines[j];
    if (o.from !== l.from) continue;
    let k = 0;
    while (k < l.moves.length && k < o.moves.length && l.moves[k] === o.moves[k]) k++;
    if (k > n && k < l.moves.length) { best = j; n = k; }
  }
  return { parent: best, shared: n };
}

// withLines puts the kept side lines into the move list's items, each
// after the ply it replaces, a line from within another right after it
// (indented, its shared moves as "…"): a button that shows it.
export function withLines(s, items) {
  const out = [...items];
  const order = [];
  const place = (i) => {
    order.push(i);
    s.lines.forEach((_, j) => { if (j > i && parentLine(s.lines, j).parent === i) place(j); });
  };
  s.lines.forEach((_, i) => { if (parentLine(s.lines, i).parent < 0) place(i); });
  // Inserted last first, so that each ply's lines keep their order.
  order.map((i, k) => [s.lines[i], i, k]).sort((a, b) => b[0].from - a[0].from || b[2] - a[2]).forEach(([l, i]) => {
    const { parent, shared } = parentLine(s.lines, i);
    const li = document.createElement('li');
    li.className = 'side-line-item' + (parent >= 0 ? ' nested' : '');
    li.dataset.line = String(i);
    li.dataset.from = String(l.from);
    if (parent >= 0) li.dataset.parent = String(parent);
    li.tabIndex = 0;
    li.textContent = parent >= 0 ? `\u2442 \u2026 ${l.moves.slice(shared).join(' ')}` : `\u2442 ${l.moves.join(' ')}`;
    li.title = parent >= 0 ? `Side line from within the line ${s.lines[parent].moves.join(' ')}, after ${l.moves.slice(0, shared).join(' ')}: show it` : `Side line instead of ply ${l.from + 1}: show it`;
    li.setAttribute('aria-label', `side line instead of ply ${l.from + 1}: ${l.moves.join(' ')}`);
    const open = () => ask(i, l.from, l.moves, -1);
    li.addEventListener('click', open);
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } });
    out.splice(Math.min(l.from + 1, out.length), 0, li);
  });
  return out;
}
