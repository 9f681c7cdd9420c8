// The end of a game and the controls that act on the game in play, for
// app.js (docs/gui.md, Game over): the result card (Rematch, New game,
// Review, and after a review each side's accuracy and its mistakes one
// tap away), Resign, Pause and Step only when an engine plays, the hint
// for a hole that cannot be played, and the question before a move
// played at an earlier ply cuts the game.

import { avgLossText, glyphs, lossText } from './review.js';
import { lineShown } from './sideline.js';

const $ = (sel) => document.querySelector(sel);

const side = (k) => (k === 'south' ? 'South' : 'North');

let ctx = null; // { state, request, send, goTo, sideLine } from app.js

// bindEnd wires the card and the controls; c gives the state and the
// page's ways of acting.
export function bindEnd(c) {
  ctx = c;
  $('#rematch').addEventListener('click', () => again(true));
  $('#again').addEventListener('click', () => again(false));
  $('#end-settings').addEventListener('click', () => {
    const card = $('#new-card');
    card.open = true;
    card.scrollIntoView({ block: 'start' });
    $('#game-select').focus({ preventScroll: true });
  });
  $('#end-review').addEventListener('click', () => $('#review').click());
  $('#resign').addEventListener('click', resignClicked);
}

// again starts the same game again from its start, with the same rules
// and limit: Rematch with the colours swapped (a traditional match: its
// players A and B swapped), New game with the same.
function again(swap) {
  const s = ctx.state();
  if (!s) return;
  let players = s.match ? s.match.players : s.players;
  if (swap) players = [players[1], players[0]];
  const req = {
    type: 'new', game: s.game, south: players[0], north: players[1],
    limitKind: s.limit.kind, limitValue: s.limit.value, fen: s.startIsInitial ? '' : s.start,
    noCaptureLimit: s.rules.noCaptureLimit,
  };
  if (s.family === 'hoyito') {
    Object.assign(req, { captureSide: s.rules.captureSide, lastFour: s.rules.lastFour, repetition: s.rules.repetition });
    if (s.match) { req.match = s.match.games; delete req.lastFour; }
  }
  ctx.request(req);
}

// Resign asks once more before it ends the game: a second tap within
// four seconds resigns.
let resignArmed = 0;
function resignClicked() {
  const b = $('#resign');
  if (!resignArmed) {
    b.classList.add('confirm');
    b.textContent = 'Resign? Tap again';
    resignArmed = setTimeout(disarmResign, 4000);
    return;
  }
  disarmResign();
  ctx.request({ type: 'resign' });
}

function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = 0;
  const b = $('#resign');
  b.classList.remove('confirm');
  b.textContent = 'Resign';
}

// playNote says, for the status line, that the engines are paused when
// the person is to move: after the person's move nothing will answer
// until Resume.
export function playNote(s) {
  if (!s.paused || !s.end.plays || s.view !== s.moves.length) return '';
  if (s.review && s.review.running) return ' · play is paused while the review runs';
  const engines = [...new Set(s.players.filter((p) => p !== 'human'))].join(' and ');
  return ` · ${engines} paused: press Resume to let it play`;
}

// drawEnd draws what depends on the game at its last ply: the Pause,
// Step and Resign buttons, and the result card once the game is over.
export function drawEnd(s) {
  const e = s.end;
  const pause = $('#pause');
  const paused = s.paused && e.plays;
  pause.disabled = !e.plays;
  pause.textContent = paused ? 'Resume' : 'Pause';
  pause.setAttribute('aria-pressed', paused ? 'true' : 'false');
  pause.title = !e.plays ? (e.over ? 'The game is over: no engine is to play' : 'No engine plays in this game')
    : paused ? 'Let the engines move again' : 'Stop the engines moving until Resume (analysis and your moves go on)';
  $('#step').disabled = !e.plays;
  const resign = $('#resign');
  resign.hidden = !e.resigns;
  if (!e.resigns) disarmResign();
  resign.title = e.resigns ? `${side(e.resigns)} gives the game up: ${side(e.resigns === 'south' ? 'north' : 'south')} wins` : '';
  // Play from here: an earlier ply cut, or a paused game played on.
  $('#resume').disabled = !(s.view < s.moves.length || (s.paused && e.plays));
  document.querySelector('.board-info').classList.toggle('ended', e.over);
  drawCard(s);
  if (ctx.state() === s) hideNoteOnChange(s);
}

// drawCard shows the result card when the game is over (and no game of
// a traditional match follows: Next game is the way on then).
function drawCard(s) {
  const card = $('#end-card');
  const e = s.end;
  const m = s.match;
  // While a side line is explored its bar takes the card's place.
  card.hidden = !e.over || !!(m && m.next) || lineShown();
  // The card says the result (and #result, which says it at the last
  // ply, gives way to it).
  $('#result').hidden = !card.hidden;
  if (card.hidden) return;
  card.dataset.winner = e.status;
  $('#end-text').textContent = e.result;
  const match = $('#end-match');
  match.hidden = !(m && m.over);
  match.textContent = m && m.over ? matchResult(m) : '';
  const [south, north] = m ? m.players : s.players;
  $('#rematch').title = `The same game again with the colours swapped: ${north} South, ${south} North`;
  $('#again').title = `The same game again: ${south} South, ${north} North`;
  const r = s.review;
  const rev = $('#end-review');
  rev.hidden = !!r && !r.running && r.plies === s.moves.length;
  rev.disabled = !!(r && r.running);
  rev.textContent = r && !r.running && r.plies > 0 ? 'Review again' : 'Review';
  rev.title = `Have ${s.analysis.engine} search every position of the game (${budget()}), as the Game review card does`;
  drawReviewBox(s);
}

// budget is the review's budget, from the Game review card.
function budget() {
  const kind = $('#review-kind').value;
  const v = $('#review-value').value;
  return kind === 'depth' ? `depth ${v}` : `${v} ms a position`;
}

// matchResult says a finished traditional match's result with its score.
export function matchResult(m) {
  const [a, b] = m.players;
  const names = a === b ? [a + ' (1)', b + ' (2)'] : [a, b];
  const score = (x) => (x === Math.floor(x) ? String(x) : (Math.floor(x) || '') + '\u00bd');
  const [x, y] = m.score;
  const tally = `${score(Math.max(x, y))}\u2013${score(Math.min(x, y))}`;
  if (x === y) return `The match is over: drawn ${score(x)}\u2013${score(y)} after ${m.games} games.`;
  return `The match is over: ${names[x > y ? 0 : 1]} wins it ${tally} after ${m.games} games.`;
}

// isMistake says a reviewed ply is an inaccuracy or worse.
const isMistake = (m) => m.review && ['inaccuracy', 'mistake', 'blunder'].includes(m.review.mark);

// drawReviewBox gives the review in the result card: its progress, then
// each side's accuracy and mistakes, buttons to the previous and next
// mistake, and the shown ply's review (its mark, loss and better move).
function drawReviewBox(s) {
  const box = $('#end-review-box');
  const r = s.review;
  if (!r) { box.replaceChildren(); return; }
  if (r.running) {
    const cancel = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Cancel' });
    cancel.addEventListener('click', () => ctx.request({ type: 'review', on: false }));
    box.replaceChildren(Object.assign(document.createElement('span'), {
      className: 'end-progress', textContent: `Reviewing with ${r.engine}: ${r.done} of ${r.total} positions `,
    }), cancel);
    return;
  }
  const acc = document.createElement('p');
  acc.className = 'end-accuracy';
  acc.append('Accuracy: ');
  ['south', 'north'].forEach((k, i) => {
    const n = s.moves.filter((m, j) => m.side === k[0].toUpperCase() && j < r.plies && isMistake(m)).length;
    const b = Object.assign(document.createElement('b'), { textContent: r.accuracy[i] === null ? '\u2013' : `${Math.round(r.accuracy[i])}%` });
    b.dataset.side = k;
    b.title = `${n} inaccurac${n === 1 ? 'y' : 'ies'}, mistake${n === 1 ? '' : 's'} or blunder${n === 1 ? '' : 's'}`;
    acc.append(i ? ' \u00b7 ' : '', `${side(k)} `, b);
  });
  // Each side's average loss, with its unit, beside its accuracy.
  const loss = Object.assign(document.createElement('span'), { className: 'end-loss' });
  const unit = s.family === 'hoyito' ? 'seeds of margin' : 'points of win chance';
  const num = (a) => (a === null || a === undefined ? '\u2013' : s.family === 'hoyito' ? a.toFixed(2) : a.toFixed(1));
  const al = r.avgLoss || [null, null];
  loss.append(`Average loss: South ${num(al[0])} \u00b7 North ${num(al[1])} ${unit}`);
  loss.title = `Each side's mean loss a reviewed move: South ${avgLossText(s.family, al[0])}, North ${avgLossText(s.family, al[1])}`;
  acc.append(loss);
  acc.title = 'lichess\'s accuracy: each move 103.17 e^(\u22120.0435 d) \u2212 3.17, plus 1, within 0 and 100, for d the points of win chance it lost; a side\'s accuracy is the mean of its moves\' (the Game review card says more).';
  const nav = document.createElement('div');
  nav.className = 'end-nav';
  // The mistakes before and after the shown ply, going round.
  const plies = s.moves.map((m, i) => (isMistake(m) ? i + 1 : 0)).filter((p) => p);
  const prev = plies.filter((p) => p < s.view).pop() || plies.filter((p) => p !== s.view).pop();
  const next = plies.find((p) => p > s.view) || plies.find((p) => p !== s.view);
  const go = (label, ply, id) => {
    const b = Object.assign(document.createElement('button'), { type: 'button', id, textContent: label });
    b.disabled = !ply;
    b.title = ply ? `Show ply ${ply}, ${s.moves[ply - 1].move}: ${s.moves[ply - 1].review.mark}` : 'No other inaccuracy, mistake or blunder';
    b.addEventListener('click', () => ctx.goTo(ply));
    return b;
  };
  nav.append(go('\u25c0 Mistake', prev, 'prev-mistake'), go('Mistake \u25b6', next, 'next-mistake'));
  const parts = [acc];
  // The shown ply's review, short: its mark, its loss and the better
  // move, which the person may explore as a side line (the Game review
  // card has the whole note).
  const m = s.view > 0 && s.moves[s.view - 1];
  if (m && m.review) {
    const rv = m.review;
    const note = Object.assign(document.createElement('p'), { id: 'end-ply', className: 'end-ply' });
    note.textContent = `Ply ${s.view}, ${m.move}: ${rv.mark}${glyphs[rv.mark] ? ' ' + glyphs[rv.mark] : ''}` +
      (rv.loss > 0 ? `, lost ${lossText(s.family, rv.loss)}` : '') + (rv.best ? `; ${rv.best} was better.` : '.');
    parts.push(note);
    if (rv.best && ctx.sideLine) {
      const b = Object.assign(document.createElement('button'), { type: 'button', id: 'end-explore', textContent: `Explore ${rv.best}` });
      b.title = `Play ${rv.best} instead of ${m.move} as a side line, the game kept`;
      b.addEventListener('click', () => ctx.sideLine(s.view - 1, [rv.best]));
      nav.append(b);
    }
  }
  box.replaceChildren(...parts, nav);
}

// ---- a hole tapped that cannot be played, and a move at an earlier ply ----

let noteFor = null; // {gameId, view} of the note shown

// showNote puts a hint or a question under the status line.
function showNote(s, ...parts) {
  const n = $('#board-note');
  n.replaceChildren(...parts);
  n.hidden = false;
  noteFor = { gameId: s.gameId, view: s.view, plies: s.moves.length };
}

export function hideNote() {
  $('#board-note').hidden = true;
  noteFor = null;
}

// hideNoteOnChange drops the note once the game or the shown ply change.
function hideNoteOnChange(s) {
  if (noteFor && (noteFor.gameId !== s.gameId || noteFor.view !== s.view || noteFor.plies !== s.moves.length)) hideNote();
}

// holeHint says why a hole the person tapped cannot be played now.
export function holeHint(s, name) {
  const player = s.players[s.side === 'south' ? 0 : 1];
  let text;
  if (s.turn === 'over') text = 'The game is over here: Rematch, New game or Review are by the result.';
  else if (s.turn === 'engine') text = `${side(s.side)} is to move here, and ${player} plays it: ` + (s.paused ? 'press Resume to let it play.' : 'wait for its move.');
  else text = (s.hints && s.hints[name]) || `${name} is not a move here.`;
  const p = Object.assign(document.createElement('span'), { className: 'hint', textContent: text });
  p.dataset.hole = name;
  showNote(s, p);
}

// askCut asks before a move at an earlier ply drops the plies after it:
// the person may cut the game and play on (play; null at an engine's
// turn, where only a side line is offered), try the move as a side line
// (the game kept), or keep the game.
export function askCut(s, name, play, sideLine) {
  const later = s.moves.length - s.view;
  const q = Object.assign(document.createElement('span'), {
    className: 'ask',
    textContent: play
      ? `Ply ${s.view} of ${s.moves.length} is shown. Playing ${name} here drops the ${later} pl${later === 1 ? 'y' : 'ies'} after it. `
      : `Ply ${s.view} of ${s.moves.length} is shown, and ${s.players[s.side === 'south' ? 0 : 1]} plays ${side(s.side)}: try ${name} as a side line? `,
  });
  const btn = (id, text, f) => {
    const b = Object.assign(document.createElement('button'), { type: 'button', id, textContent: text });
    b.addEventListener('click', () => { hideNote(); f(); });
    return b;
  };
  const parts = [q];
  if (play) parts.push(btn('cut-play', `Play ${name} and cut`, play));
  parts.push(btn('cut-side', play ? 'Side line instead' : `Side line ${name}`, sideLine));
  parts.push(btn('cut-keep', 'Keep the game', () => {}));
  showNote(s, ...parts);
}

