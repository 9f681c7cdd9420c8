// Sower's scores: how the page reads and draws an engine's score, for
// app.js (docs/gui.md, Scores). Every score on the page is from South's
// view (the server turns the engine's, which are the side to move's):
// South's chances first, as a percentage and a bar, then the engine's
// score in its unit. The line #pov says so, once.

// squash is the scale of the logistic that turns a score without wdl into
// an estimate of South's share (win + half the draws), per game family:
// centi-units of the Katro evaluation, hundredths of a seed in Hoyito III.
export const squash = { katro: 500, hoyito: 300 };

export function sideName(k) { return k === 'south' ? 'South' : 'North'; }

// fmtScore writes the engine's score, South's view, in its unit: Katro's
// evaluation, Hoyito III's seeds of margin. A bound is written before the
// number with a no-break space, so that it never wraps alone.
export function fmtScore(e, family) {
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
export function evalView(e, family) {
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
export function wdlText(v) {
  if (v.wdl) return `South ${v.wdl[0]}% \u00b7 draw ${v.wdl[1]}% \u00b7 North ${v.wdl[2]}%`;
  return `South \u2248${Math.round(100 * v.share)}% (estimated from the score)`;
}

// evalBar draws a view as a bar: South's win, the draw, North's win.
export function evalBar(v) {
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

const svgNS = 'http://www.w3.org/2000/svg';

// The graph: South's share of the game (0 to 100 %, win + half the
// draws) after every engine move, on a fixed scale; proven results at
// the ends of the scale (a draw on the centre line), drawn larger and in
// the winner's colour.
export const graphBox = { W: 320, H: 124, left: 34, right: 8, top: 10, bottom: 20 };

export function graphX(ply, n) {
  const g = graphBox;
  return g.left + (n <= 1 ? 0.5 : (ply - 1) / (n - 1)) * (g.W - g.left - g.right);
}

export function graphY(share) {
  const g = graphBox;
  return g.top + (1 - share) * (g.H - g.top - g.bottom);
}

export function drawGraph(svg, s, pick) {
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
    c.addEventListener('click', (ev) => { ev.stopPropagation(); pick(p); });
    kids.push(c);
  }
  svg.replaceChildren(...kids);
  svg.dataset.top = String(graphY(1)); // where 100 % and 0 % are drawn
  svg.dataset.bottom = String(graphY(0));
}
