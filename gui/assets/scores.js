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

// signed writes a number of hundredths in the notation every command
// shares (docs/cli.md, Scores; search.Score.Text): its sign, then two
// decimals ("+2.31", "-0.10", "+0.00").
export function signed(hundredths) {
  return (hundredths < 0 ? '-' : '+') + (Math.abs(hundredths) / 100).toFixed(2);
}

// fmtScore writes the engine's score, South's view, in its unit: Katro's
// evaluation, Hoyito III's seeds of margin. A bound is written before the
// number with a no-break space, so that it never wraps alone.
export function fmtScore(e, family) {
  if (!e || e.cp === undefined) return '';
  const num = signed(e.cp);
  const bound = e.bound === 'lower' ? '\u2265\u00a0' : e.bound === 'upper' ? '\u2264\u00a0' : '';
  return family === 'hoyito' ? `${bound}${num}\u00a0seeds` : `evaluation\u00a0${bound}${num}`;
}

// percents turns chances (any scale: per mille, shares) into percentages
// that sum to exactly 100, by largest remainder: whole per cent, or
// tenths for an estimate that would read 100 %. An estimate is never
// certain: its leading chance is then at most 99.9 % and the tenth left
// goes to the other side. digits is the number of decimals to write.
export function percents(parts, proven) {
  const sum = parts.reduce((a, b) => a + b, 0) || 1;
  const round = (unit) => {
    const raw = parts.map((x) => Math.max(0, x) * unit / sum);
    const out = raw.map(Math.floor);
    const left = unit - out.reduce((a, b) => a + b, 0);
    const order = raw.map((r, i) => [r - out[i], i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    for (let k = 0; k < left; k++) out[order[k % order.length][1]]++;
    return out;
  };
  const whole = round(100);
  if (proven || !whole.includes(100)) return { values: whole, digits: 0 };
  const tenths = round(1000);
  const top = tenths.indexOf(1000);
  if (top >= 0) { tenths[top] = 999; tenths[top === 0 ? 2 : 0] += 1; }
  return { values: tenths.map((x) => x / 10), digits: 1 };
}

// fmtPct writes a percentage of percents.
export function fmtPct(x, digits) { return x.toFixed(digits) + '%'; }

// ordinal writes 1st, 2nd, 3rd, 4th, …, 11th, 21st.
function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] || 'th';
  return n + s;
}

// winsWith says a forced Katro win in words. Its count n is the winner's
// moves to the end of the game, its winning move included, from the
// position the score is shown with (the protocol's "mate n"): "#3" is
// "South wins with its 3rd move from here", "#-1" "North wins with its
// next move".
export function winsWith(side, n) {
  return `${sideName(side)} wins with its ${n === 1 ? 'next move' : ordinal(n) + ' move from here'}`;
}

// evalView reads a score (South's view) as the page shows it: share is
// South's expected share of the game, 0 to 1 (win + half the draws);
// pct South's win, the draw and North's win in per cent (percents: they
// sum to 100) with its digits; forced the winner of a proven result
// ('south', 'north' or 'draw'), which only a mate or a score the engine
// proved (e.proven) has: every other score is an estimate, however large;
// margin South's expected final margin in seeds (Hoyito III); main the
// main figure: a proven result in the shared notation ("#3", "#-3",
// "-8.00 seeds, proven", the tables' "-8.00 seeds, exact"), an estimate
// as South's or North's chance; words a proven result in words ("South
// wins with its 3rd move from here", winsWith), for tooltips and screen
// readers; est whether the share is only squashed from the score.
export function evalView(e, family) {
  if (!e) return null;
  const v = { forced: null, est: false, wdl: false, score: fmtScore(e, family), margin: null, words: '' };
  if (e.cp !== undefined) v.margin = e.cp / 100;
  const certain = (w) => {
    v.forced = w;
    v.share = w === 'south' ? 1 : w === 'north' ? 0 : 0.5;
    v.pct = { values: w === 'south' ? [100, 0, 0] : w === 'north' ? [0, 0, 100] : [0, 100, 0], digits: 0 };
    v.wdl = true;
  };
  if (e.mate !== undefined) {
    const w = e.mate > 0 ? 'south' : 'north';
    certain(w);
    if (e.lost) {
      v.main = v.words = `${sideName(w)} has won`;
    } else {
      v.main = `#${e.mate}`;
      v.words = winsWith(w, Math.abs(e.mate));
    }
    return v;
  }
  if (e.proven) {
    const m = e.cp / 100;
    certain(m > 0 ? 'south' : m < 0 ? 'north' : 'draw');
    v.main = `${signed(e.cp)}${family === 'hoyito' ? '\u00a0seeds' : ''}, ${e.exact ? 'exact' : 'proven'}`;
    if (m === 0) v.words = 'Draw (proven)';
    else if (family === 'hoyito') v.words = `${sideName(v.forced)} wins by ${Math.abs(m)} seed${Math.abs(m) === 1 ? '' : 's'}`;
    else v.words = `${sideName(v.forced)} wins`;
    return v;
  }
  if (e.wdl) {
    const [w, d, l] = e.wdl;
    const sum = Math.max(w + d + l, 1);
    v.wdl = true;
    v.pct = percents([w, d, l], false);
    v.share = (w + d / 2) / sum;
  } else {
    v.est = true;
    v.share = 1 / (1 + Math.exp(-e.cp / squash[family]));
    v.pct = percents([v.share, 0, 1 - v.share], false);
  }
  const [pw, , pl] = v.pct.values;
  const lead = pl > pw ? `North ${v.est ? '\u2248' : ''}${fmtPct(pl, v.pct.digits)}` : `South ${v.est ? '\u2248' : ''}${fmtPct(pw, v.pct.digits)}`;
  v.main = lead;
  return v;
}

// wdlText writes the chances in full.
export function wdlText(v) {
  const [w, d, l] = v.pct.values.map((x) => fmtPct(x, v.pct.digits));
  if (v.wdl) return `South ${w} \u00b7 draw ${d} \u00b7 North ${l}`;
  return `South \u2248${w} \u00b7 North \u2248${l} (estimated from the score)`;
}

// evalBar draws a view as a bar: South's win, the draw, North's win.
export function evalBar(v) {
  const bar = document.createElement('span');
  bar.className = 'wdl-bar' + (v.est ? ' est' : '');
  bar.setAttribute('aria-hidden', 'true');
  ['w', 'd', 'l'].forEach((k, i) => {
    const seg = document.createElement('i');
    seg.className = k;
    seg.style.width = v.pct.values[i] + '%';
    bar.append(seg);
  });
  return bar;
}

const svgNS = 'http://www.w3.org/2000/svg';

// The graph, after every engine move. Katro: South's share of the game
// (0 to 100 %, win + half the draws) on a fixed scale. Hoyito III: South's
// expected final margin in seeds (the engine's score), on a scale that
// fits the game (from its lowest to its highest point, with 0, in steps
// of 4 seeds, within ±48): its win chance barely moves (the game is won
// for North from the start), its margin does. A proven result is drawn
// as a ring in the winner's colour (grey for a draw): a Katro win at the
// end of the scale, a Hoyito III margin at its value; an estimate is a
// dot, however large.
export const graphBox = { W: 320, H: 150, left: 44, right: 8, top: 12, bottom: 24 };

export function graphX(ply, n) {
  const g = graphBox;
  return g.left + (n <= 1 ? 0.5 : (ply - 1) / (n - 1)) * (g.W - g.left - g.right);
}

// graphScale is the graph's vertical scale for a game: what a point's
// value is, the values at the top and bottom, the reference line and the
// labels.
export function graphScale(family, views) {
  if (family !== 'hoyito') {
    return { kind: 'share', value: (v) => v.share, hi: 1, lo: 0, mid: 0.5,
      labels: [[1, '100%'], [0.5, '50%'], [0, '0%']], up: 'South ahead', down: 'North ahead' };
  }
  const ms = views.filter((v) => v.margin !== null).map((v) => v.margin);
  const step = 4;
  let hi = Math.min(48, Math.ceil(Math.max(0, ...ms) / step) * step);
  let lo = Math.max(-48, Math.floor(Math.min(0, ...ms) / step) * step);
  if (hi - lo < 2 * step) { hi = Math.max(hi, step); lo = Math.min(lo, -step); }
  const sign = (x) => (x > 0 ? '+' : x < 0 ? '-' : '') + Math.abs(x);
  return { kind: 'margin', value: (v) => Math.max(lo, Math.min(hi, v.margin)), hi, lo, mid: 0,
    labels: marginTicks(lo, hi).map((x) => [x, sign(x)]), up: '', down: '' };
}

// marginTicks are the labels of a margin scale from lo to hi (multiples
// of 4, 0 between them or at one end): 0 and the multiples of a round
// step, at most six, then the top and the bottom where they are at least
// half a step from those (14 px or more at the graph's height).
export function marginTicks(lo, hi) {
  const step = [4, 8, 12, 16, 24].find((k) => (hi - lo) / k <= 5) || 24;
  const ticks = [];
  for (let x = Math.ceil(lo / step) * step; x <= hi; x += step) ticks.push(x);
  for (const x of [hi, lo]) {
    if (ticks.every((t) => Math.abs(t - x) >= step / 2)) ticks.push(x);
  }
  return ticks.sort((a, b) => b - a);
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
  const pts = [];
  s.moves.forEach((m, i) => {
    const v = evalView(m.eval, s.family);
    if (v && (s.family !== 'hoyito' || v.margin !== null)) pts.push([i + 1, v, m]);
  });
  const sc = graphScale(s.family, pts.map(([, v]) => v));
  const y = (x) => g.top + (sc.hi - x) / (sc.hi - sc.lo) * (g.H - g.top - g.bottom);
  const x0 = g.left, x1 = g.W - g.right;
  const ym = y(sc.mid);
  if (ym > y(sc.hi)) kids.push(mk('rect', { x: x0, y: y(sc.hi), width: x1 - x0, height: ym - y(sc.hi), class: 'g-up' }));
  if (ym < y(sc.lo)) kids.push(mk('rect', { x: x0, y: ym, width: x1 - x0, height: y(sc.lo) - ym, class: 'g-down' }));
  kids.push(mk('line', { x1: x0, y1: ym, x2: x1, y2: ym, class: 'g-zero' }));
  for (const [q, t] of sc.labels) {
    kids.push(mk('text', { x: x0 - 4, y: y(q) + 4.5, class: 'g-label', 'text-anchor': 'end' }, t));
  }
  if (sc.up && ym - y(sc.hi) > 20) kids.push(mk('text', { x: x0 + 4, y: y(sc.hi) + 13, class: 'g-label g-side south' }, sc.up));
  if (sc.down && y(sc.lo) - ym > 20) kids.push(mk('text', { x: x0 + 4, y: y(sc.lo) - 5, class: 'g-label g-side north' }, sc.down));
  if (n > 0) {
    kids.push(mk('text', { x: graphX(1, n), y: g.H - 6, class: 'g-label', 'text-anchor': 'middle' }, '1'));
    if (n > 1) kids.push(mk('text', { x: graphX(n, n), y: g.H - 6, class: 'g-label', 'text-anchor': 'middle' }, String(n)));
    kids.push(mk('text', { x: (x0 + x1) / 2, y: g.H - 6, class: 'g-label', 'text-anchor': 'middle' }, 'ply'));
  }
  if (s.view > 0 && n > 0) kids.push(mk('line', { x1: graphX(s.view, n), y1: g.top, x2: graphX(s.view, n), y2: y(sc.lo), class: 'g-view' }));
  if (pts.length > 1) {
    kids.push(mk('polyline', { points: pts.map(([p, v]) => `${graphX(p, n)},${y(sc.value(v))}`).join(' '), class: 'g-line' }));
  }
  for (const [p, v, m] of pts) {
    const c = mk('circle', {
      cx: graphX(p, n), cy: y(sc.value(v)), r: v.forced ? 4.5 : 2.6,
      class: 'g-pt' + (v.forced ? ' g-forced ' + v.forced : '') + (v.est ? ' est' : '') + (p === s.view ? ' cur' : ''),
      'data-ply': String(p), 'data-share': v.share.toFixed(4), 'data-forced': v.forced || '',
      'data-margin': v.margin === null ? '' : String(v.margin),
    });
    c.append(mk('title', {}, `ply ${p} (${m.move}): ${v.main}${v.words && v.words !== v.main ? ' (' + v.words + ')' : ''}${v.score ? ', ' + v.score : ''}`));
    c.addEventListener('click', (ev) => { ev.stopPropagation(); pick(p); });
    kids.push(c);
  }
  svg.replaceChildren(...kids);
  svg.dataset.kind = sc.kind;
  svg.dataset.hi = String(sc.hi); // the values drawn at the top and the bottom
  svg.dataset.lo = String(sc.lo);
  svg.dataset.top = String(y(sc.hi)); // where they are drawn
  svg.dataset.bottom = String(y(sc.lo));
  svg.setAttribute('aria-label', sc.kind === 'share' ? "South's chances by ply" : "South's expected final margin in seeds by ply");
}
