// Game review: the Review card (budget, progress, cancel, each side's
// counts) and the marks on the move list, with the better move of every
// inaccuracy, mistake and blunder (docs/gui.md, Game review).

import { evalView } from './scores.js';

const $ = (sel) => document.querySelector(sel);

// As lichess writes them.
export const glyphs = { inaccuracy: '?!', mistake: '?', blunder: '??' };
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
  mk.title = r.mark + (r.loss ? `, lost ${lossText(s.family, r.loss)}` : '');
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

// lossText writes what a move lost with its unit: in Katro points of the
// mover's win chance (its expected score, draws counting half: 100 points
// is a sure win given away), in Hoyito III seeds of the final margin.
// avgLossText writes a side's average loss (the state's avgLoss, already
// in the unit) with its unit; a dash for a side with none reviewed.
export function avgLossText(family, avg) {
  if (avg === null || avg === undefined) return '\u2013';
  return family === 'hoyito' ? `${avg.toFixed(2)} seeds of margin` : `${avg.toFixed(1)} points of win chance`;
}

export function lossText(family, loss) {
  if (family === 'hoyito') return `${+loss.toFixed(2)} seed${loss === 1 ? '' : 's'} of margin`;
  return `${(100 * loss).toFixed(1)} points of win chance`;
}

// plyNote is the shown ply's review in words: its mark and loss, the
// score after it by the review and in play, the better move's line, each
// move a button; and with sideLine, a button that explores the better
// move as a side line.
function plyNote(s, send, sideLine) {
  const ply = s.view;
  const m = ply > 0 && s.moves[ply - 1];
  const r = m && m.review;
  if (!r) return null;
  const p = document.createElement('p');
  p.id = 'review-ply';
  p.className = 'review-ply';
  p.append(`Ply ${ply}, ${m.move}: ${r.mark}${glyphs[r.mark] ? ' ' + glyphs[r.mark] : ''}`);
  if (r.loss > 0) p.append(` (lost ${lossText(s.family, r.loss)})`);
  p.append('.');
  const after = evalView(m.eval, s.family);
  const play = evalView(m.play, s.family);
  if (after) {
    const sc = Object.assign(document.createElement('span'), { className: 'review-scores' });
    const by = m.source === 'tables' ? 'by the tables' : m.source === 'result' ? "by the game's result"
      : `by the review${m.depth ? ' (depth ' + m.depth + ')' : ''}`;
    sc.textContent = ` After it: ${after.main} ${by}` +
      (play ? `; ${play.main} in play (${m.by}${m.playDepth ? ', depth ' + m.playDepth : ''})` : '') + '.';
    p.append(sc);
  }
  if (!r.best) return p;
  const line = r.line && r.line.length ? r.line : [r.best];
  p.append(` Better ${r.best}, line `);
  line.forEach((_, k) => {
    const b = lineButton(s, ply, line, k, send);
    b.className = 'better-line';
    p.append(b, ' ');
  });
  if (sideLine) {
    const b = Object.assign(document.createElement('button'), { type: 'button', className: 'explore', textContent: 'Explore from here' });
    b.title = `Play ${r.best} instead of ${m.move} as a side line, the game kept`;
    b.addEventListener('click', (e) => { e.stopPropagation(); sideLine(ply - 1, line.slice(0, 1)); });
    p.append(b);
  }
  return p;
}

// range writes the least and the greatest of some depths ("9–14").
function range(ds) {
  if (!ds.length) return '';
  const lo = Math.min(...ds), hi = Math.max(...ds);
  return lo === hi ? String(lo) : `${lo}\u2013${hi}`;
}

// reviewBudget says how the review searched, against play: its engine
// and budget, its depths and the engines' in play, and that its scores
// replace play's on the move list and the graph.
function reviewBudget(s) {
  const r = s.review;
  const p = document.createElement('p');
  p.id = 'review-budget';
  p.className = 'review-note';
  const rd = s.moves.map((m) => (m.review ? m.review.depth || 0 : 0)).filter((d) => d > 0);
  const pd = s.moves.map((m) => (m.play ? m.playDepth : m.depth) || 0).filter((d) => d > 0);
  const who = r.engine ? `${r.engine}, ${r.budget || 'its budget'}` : 'read from the record';
  let text = `The review (${who}) searched every position itself${rd.length ? ' to depth ' + range(rd) : ''}`;
  if (pd.length && rd.length) {
    const deeper = Math.min(...rd) > Math.max(...pd) ? 'deeper than' : Math.max(...rd) < Math.min(...pd) ? 'shallower than' : 'not as';
    text += deeper === 'not as' ? `; the engines in play reached depth ${range(pd)}` : `, ${deeper} the engines in play (depth ${range(pd)})`;
  }
  text += '. Its scores replace play\'s on the move list and the graph, so the two may differ; a reviewed ply\'s note gives both.';
  p.textContent = text;
  return p;
}

// accuracyNote says how accuracy and losses are counted.
function accuracyNote(s) {
  const p = document.createElement('p');
  p.id = 'accuracy-note';
  p.className = 'review-note';
  const unit = s.family === 'hoyito'
    ? 'A loss is in seeds of the final margin; for accuracy a seed counts 2.5 points of win chance.'
    : 'A loss is in points of the mover\'s win chance (draws counting half): 100 points is a sure win given away.';
  p.textContent = `${unit} Accuracy is lichess's: each move 103.17 e^(\u22120.0435 d) \u2212 3.17, plus 1, within 0 and 100, for d the points it lost (the engine's own move is 100); a side's accuracy is the mean of its moves'. A side's average loss is the mean of its reviewed moves' losses, in the unit above (the engine's own move loses none).`;
  return p;
}

// drawReview draws the Review card from the state; sideLine, if given,
// explores a better move as a side line.
export function drawReview(s, send, sideLine) {
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
  const acc = table.insertRow();
  acc.className = 'review-accuracy';
  acc.append(Object.assign(document.createElement('th'), { textContent: 'accuracy' }));
  ['south', 'north'].forEach((side, i) => {
    const c = acc.insertCell();
    c.colSpan = 2;
    c.dataset.side = side;
    c.textContent = `${side === 'south' ? 'South' : 'North'} ${r.accuracy[i] === null ? '\u2013' : Math.round(r.accuracy[i]) + '%'}`;
  });
  const loss = table.insertRow();
  loss.className = 'review-loss';
  loss.append(Object.assign(document.createElement('th'), { textContent: 'average loss' }));
  ['south', 'north'].forEach((side, i) => {
    const c = loss.insertCell();
    c.colSpan = 2;
    c.dataset.side = side;
    c.textContent = `${side === 'south' ? 'South' : 'North'} ${avgLossText(s.family, r.avgLoss && r.avgLoss[i])}`;
  });
  const note = document.createElement('p');
  note.className = 'review-note';
  note.textContent = running ? `Reviewing with ${r.engine}: ${r.done} of ${r.total} positions`
    : `${r.plies} of ${s.moves.length} plies reviewed`;
  box.replaceChildren(note, reviewBudget(s), table, accuracyNote(s));
  const pn = plyNote(s, send, sideLine);
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
