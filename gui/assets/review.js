// Game review: the Review card (budget, progress, cancel, each side's
// counts) and the marks on the move list, with the better move of every
// inaccuracy, mistake and blunder (docs/gui.md, Game review).

const $ = (sel) => document.querySelector(sel);

// As lichess writes them.
const glyphs = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const order = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

// markPly adds ply's review to its item li of the move list: the mark,
// and for an inaccuracy, a mistake or a blunder the better move, a button
// that shows the position after it (its line is in the Review card).
export function markPly(li, s, ply, send) {
  const r = s.moves[ply - 1].review;
  if (!r) return;
  li.dataset.mark = r.mark;
  const mk = document.createElement('span');
  mk.className = 'mark mark-' + r.mark;
  mk.textContent = glyphs[r.mark] || (r.mark === 'best' ? '\u2713' : '');
  mk.title = r.mark + (r.loss ? `, lost ${r.loss}` : '');
  li.append(' ', mk);
  if (!r.best) return;
  const b = lineButton(s, ply, [r.best], 0, send);
  b.className = 'better-move';
  b.title = `${r.mark}: ${r.best} was better (line ${(r.line || []).join(' ')}); show the position after it`;
  li.append(' ', b);
}

// lineButton is a button for move k of line, played instead of ply: it
// shows the position after it (a preview from the game's start).
function lineButton(s, ply, line, k, send) {
  const before = s.moves.slice(0, ply - 1).map((m) => m.move);
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = line[k];
  b.title = 'Show the position after this move';
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    send({ type: 'preview', fen: s.start, moves: before.concat(line.slice(0, k + 1)).join(' ') });
  });
  return b;
}

// plyNote is the shown ply's review in words, with the better move's
// line, each move a button.
function plyNote(s, send) {
  const ply = s.view;
  const r = ply > 0 && s.moves[ply - 1].review;
  if (!r) return null;
  const p = document.createElement('p');
  p.id = 'review-ply';
  p.className = 'review-ply';
  p.append(`Ply ${ply}, ${s.moves[ply - 1].move}: ${r.mark}${glyphs[r.mark] ? ' ' + glyphs[r.mark] : ''}`);
  if (!r.best) return p;
  const line = r.line && r.line.length ? r.line : [r.best];
  p.append(` (lost ${r.loss}). Better ${r.best}, line `);
  line.forEach((_, k) => {
    const b = lineButton(s, ply, line, k, send);
    b.className = 'better-line';
    p.append(b, ' ');
  });
  return p;
}

// drawReview draws the Review card from the state.
export function drawReview(s, send) {
  const r = s.review;
  const running = !!(r && r.running);
  $('#review').disabled = running;
  $('#review-cancel').hidden = !running;
  const bar = $('#review-progress');
  bar.hidden = !running;
  if (running) {
    bar.max = r.total;
    bar.value = r.done;
    bar.title = `${r.done} of ${r.total} positions`;
  }
  const box = $('#review-summary');
  if (!r) {
    box.replaceChildren();
    delete box.dataset.plies;
    delete box.dataset.running;
    return;
  }
  const table = document.createElement('table');
  table.className = 'review-counts';
  const head = table.insertRow();
  head.append(document.createElement('th'));
  for (const m of order) head.append(Object.assign(document.createElement('th'), { textContent: glyphs[m] || m, title: m }));
  ['south', 'north'].forEach((side, i) => {
    const row = table.insertRow();
    row.dataset.side = side;
    row.append(Object.assign(document.createElement('th'), { textContent: side === 'south' ? 'South' : 'North' }));
    for (const m of order) {
      const c = row.insertCell();
      c.dataset.mark = m;
      c.textContent = String((r.counts[i] && r.counts[i][m]) || 0);
    }
  });
  const note = document.createElement('p');
  note.className = 'review-note';
  note.textContent = running ? `Reviewing with ${r.engine}: ${r.done} of ${r.total} positions`
    : `${r.plies} of ${s.moves.length} plies reviewed`;
  box.replaceChildren(note, table);
  const pn = plyNote(s, send);
  if (pn) box.append(pn);
  box.dataset.plies = String(r.plies);
  box.dataset.running = String(running);
}

// bindReview wires the card's buttons.
export function bindReview(request, engine) {
  $('#review').addEventListener('click', () => request({ type: 'review', on: true, engine: engine(),
    limitKind: $('#review-kind').value, limitValue: $('#review-value').value }));
  $('#review-cancel').addEventListener('click', () => request({ type: 'review', on: false }));
}
