// Arrows on the board, for app.js (docs/gui.md, Arrows): in analysis and
// after a review, the engine's move in the shown position and the move
// the game played there, each an arrow from its hole to where its first
// lap ends (the hole the last of its seeds falls in).

const svgNS = 'http://www.w3.org/2000/svg';

// Colours: the engine's move green; the move played by its mark, or
// amber when it has none.
const colours = { engine: '#2f9e44', played: '#e7a13a', good: '#5b7fa3', inaccuracy: '#b08900', mistake: '#d2691e', blunder: '#c0392b' };

let shown = []; // the arrows drawn, redrawn when the board changes size

// arrowsFor lists the arrows of the shown position of s: the engine's
// move there (the analysis's first line when it is of this position, else
// the review's) and the move the game played there, if any. Nothing in
// play without analysis or review, or while a line is previewed.
export function arrowsFor(s, line, preview) {
  if (preview) return [];
  let best = '', by = '';
  if (s.analysis.on && line && line.fen === s.fen && line.pv.length) {
    best = line.pv[0];
    by = `the analysis (${line.engine})`;
  } else if (s.review && s.review.best && s.review.best[s.view]) {
    best = s.review.best[s.view];
    by = 'the review';
  }
  const next = s.view < s.moves.length ? s.moves[s.view] : null;
  const reviewed = s.review && next && next.review;
  const out = [];
  if (next && (best || reviewed)) {
    const mark = next.review ? next.review.mark : '';
    const same = next.move === best;
    out.push({ kind: 'played', move: next.move, colour: same ? colours.engine : colours[mark] || colours.played,
      title: `${next.move}: the move played here (ply ${s.view + 1})${mark ? ', ' + mark : ''}${same ? ', the engine\'s move too' : ''}` });
  }
  if (best && !(next && next.move === best)) {
    out.push({ kind: 'engine', move: best, colour: colours.engine, title: `${best}: the engine's move here, by ${by}` });
  }
  return out.filter((a) => a.move !== 'pass');
}

// drawArrows draws arrows on the board of s (its circuits and counts).
export function drawArrows(s, list) {
  shown = list.map((a) => ({ ...a, to: landing(s, a.move) }));
  paint();
}

// landing is the hole where move's first lap ends in the shown position.
function landing(s, move) {
  const i = s.holes.indexOf(move);
  if (i < 0) return move;
  const c = s.circuits[s.side === 'south' ? 0 : 1];
  const k = c.indexOf(move);
  return k < 0 ? move : c[(k + s.counts[i]) % c.length];
}

function paint() {
  const wrap = document.querySelector('.board-wrap');
  const svg = document.querySelector('#arrows');
  const box = wrap.getBoundingClientRect();
  svg.setAttribute('viewBox', `0 0 ${box.width} ${box.height}`);
  const centre = (name) => {
    const e = document.querySelector(`[data-hole="${name}"]`);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { x: r.left - box.left + r.width / 2, y: r.top - box.top + r.height / 2, r: r.width / 2 };
  };
  const mk = (tag, attrs) => {
    const e = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const defs = mk('defs', {});
  const kids = [defs];
  shown.forEach((a, n) => {
    const p = centre(a.move), q = centre(a.to);
    if (!p || !q) return;
    const g = mk('g', { class: 'arrow', 'data-kind': a.kind, 'data-move': a.move, 'data-to': a.to });
    g.append(mk('title', {}));
    g.firstChild.textContent = a.title;
    const w = Math.max(4, p.r * 0.22);
    const id = `arrow-head-${n}`;
    const head = mk('marker', { id, viewBox: '0 0 10 10', refX: '5', refY: '5', markerWidth: '3', markerHeight: '3', orient: 'auto-start-reverse' });
    head.append(mk('path', { d: 'M0,0 L10,5 L0,10 z', fill: a.colour }));
    defs.append(head);
    const dx = q.x - p.x, dy = q.y - p.y, d = Math.hypot(dx, dy);
    if (d < 1) {
      // A lap that comes back to its hole: a ring round it.
      g.append(mk('circle', { cx: p.x, cy: p.y, r: p.r * 0.8, fill: 'none', stroke: a.colour, 'stroke-width': w, opacity: 0.85 }));
    } else {
      // From the hole's edge to short of the landing hole's centre.
      const ux = dx / d, uy = dy / d;
      const sx = p.x + ux * p.r * 0.45, sy = p.y + uy * p.r * 0.45;
      const ex = q.x - ux * q.r * 0.35, ey = q.y - uy * q.r * 0.35;
      g.append(mk('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: a.colour, 'stroke-width': w, 'stroke-linecap': 'round', opacity: 0.85, 'marker-end': `url(#${id})` }));
    }
    kids.push(g);
  });
  svg.replaceChildren(...kids);
  svg.dataset.count = String(kids.length - 1);
}

// watchArrows redraws the arrows when the board changes size.
export function watchArrows() {
  new ResizeObserver(() => { if (shown.length) paint(); }).observe(document.querySelector('#board'));
}
