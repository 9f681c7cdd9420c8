// Sower's board drawing, for app.js: heaps of seeds that stay inside
// their holes, and a board sized to the window.

// seedsDrawn is the most seeds a hole draws; a bigger heap is drawn full
// with its number over it.
export const seedsDrawn = 48;

// seedLayout places n seeds in a hole, as fractions of its size: a
// sunflower spiral, so any count looks like a heap, that packs tighter
// and with smaller seeds as it grows, so that every seed stays inside
// the hole (within 0.42 of its centre; the hole's radius is 0.5).
const seedLayouts = new Map();
export function seedLayout(n) {
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

// touch is the query of a phone's screen, upright (narrow) or sideways
// (short), where every target, the holes included, is at least 44 px
// (style.css has the same query).
const touch = matchMedia('(max-width: 700px), (max-height: 500px)');

// infoWidth is the least width of the column beside the board (the
// players, the score, the controls) when the board has one.
const infoWidth = 300;

// holeFit is the hole size that fits a board of s in width × height
// pixels (room), kept between min and 76 px (size), with the board's
// proportions for that size: gap and pad (the gaps between holes and the
// board's edge, in holes), and whether a Hoyito III board's stores go
// above and below it (stacked) rather than beside it.
function holeFit(s, width, height, min) {
  const hoy = s.family === 'hoyito';
  const fit = (gap, pad, stacked) => {
    const stores = hoy && !stacked ? 2 : 0;
    const w = width / (s.cols + gap * (s.cols - 1) + 2 * pad + stores * (1.05 + gap));
    // In height: the rows, their gaps and the edge; Katro's front line
    // (8 px and a gap); stores above and below (44 px and a gap each).
    let fixed = 0, per = s.rows + gap * (s.rows - 1) + 2 * pad;
    if (!hoy) { fixed += 8; per += gap; }
    if (hoy && stacked) { fixed += 88; per += 2 * gap; }
    return Math.min(w, (height - fixed) / per);
  };
  let gap = 0.13, pad = 0.24, stacked = false;
  if (fit(gap, pad, false) < 52) { gap = 0.08; pad = 0.14; }
  // The stores go above and below when beside it they leave holes under
  // 56 px, and so the holes grow.
  if (hoy && fit(gap, pad, false) < 56 && fit(gap, pad, true) > fit(gap, pad, false)) stacked = true;
  const room = Math.floor(fit(gap, pad, stacked));
  return { size: Math.max(min, Math.min(76, room)), room, gap, pad, stacked };
}

// fitBoard sizes the board to the window, in width and in height: every
// hole, the score and Take back are in view without scrolling, with holes
// of at most 76 px (at least 44 px on a phone). The board goes beside
// its players and controls (class beside) when that gives bigger holes
// than stacking them under it, as on a desktop or a phone held sideways.
// On a narrow screen the gaps and the board's edge shrink first, and a
// Hoyito III board too narrow for its stores beside it puts them above
// and below it.
export function fitBoard(s) {
  if (!s) return;
  const panel = document.querySelector('.board-panel');
  const wrap = document.querySelector('.board-wrap');
  const bottom = (sel) => document.querySelector(sel).getBoundingClientRect().bottom;
  const min = touch.matches ? 44 : 24;
  const margin = 4;
  const apply = (f) => {
    panel.style.setProperty('--hole-size', f.size + 'px');
    panel.style.setProperty('--hole-gap', (f.gap * f.size).toFixed(1) + 'px');
    panel.style.setProperty('--board-pad', (f.pad * f.size).toFixed(1) + 'px');
    wrap.classList.toggle('stacked', f.stacked);
  };
  // mustSee is how far the bottom of what must be in view is past the
  // window's: the board, and when stacked the score and Take back under
  // it, and once the game is over its result card.
  const card = document.querySelector('#end-card');
  const overflow = (beside) => Math.max(wrap.getBoundingClientRect().bottom,
    beside ? 0 : Math.max(bottom('#eval-now'), bottom('#takeback'), card.hidden ? 0 : bottom('#end-card'))) + margin - innerHeight;
  const trial = (beside) => {
    panel.classList.toggle('beside', beside);
    const cs = getComputedStyle(panel);
    const inner = panel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const width = beside ? inner - infoWidth - parseFloat(cs.columnGap) : inner;
    // What must be in view but the board, at the board's present height.
    const board = wrap.getBoundingClientRect().height;
    const height = innerHeight - (overflow(beside) + innerHeight - board);
    return holeFit(s, width, height, min);
  };
  // Beside when the holes are no smaller so (up to 76 px: past that,
  // what is left of the room is the same).
  const beside = trial(true), stacked = trial(false);
  const best = Math.min(beside.room, 76) >= Math.min(stacked.room, 76) ? beside : stacked;
  panel.classList.toggle('beside', best === beside);
  apply(best);
  // The sizes above are a model: measured, the board may still be a few
  // pixels too tall.
  for (let k = 0; k < 3 && best.size > min; k++) {
    const over = overflow(best === beside);
    if (over <= 0.5) break;
    best.size = Math.max(min, best.size - Math.ceil(over / s.rows));
    apply(best);
  }
  // Beside the board, a finished game's result card (its review, its
  // buttons) is in the column: a smaller board widens the column, which
  // then takes fewer rows, until the card is in view.
  for (let k = 0; k < 20 && best === beside && !card.hidden && best.size > min; k++) {
    if (bottom('#end-card') + margin <= innerHeight) break;
    best.size = Math.max(min, best.size - 2);
    apply(best);
  }
}

// revealBoard scrolls the page to the board's panel when the board is
// not wholly in view (on a phone, its panels under it).
export function revealBoard() {
  const r = document.querySelector('.board-wrap').getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= innerHeight) return;
  document.querySelector('.board-panel').scrollIntoView({ block: 'start' });
}

// watchBoard fits the board (fitBoard) to the state state() returns
// whenever the window or the board's panel changes size, or what is
// under the board changes height; in the next frame, so that the refit
// does not itself count as a change of this frame.
export function watchBoard(state) {
  let size = '';
  const refit = () => {
    const panel = document.querySelector('.board-panel');
    const info = document.querySelector('.board-info');
    const now = `${innerWidth}x${innerHeight} ${panel.clientWidth} ${info.offsetHeight}`;
    if (now === size) return;
    size = now;
    requestAnimationFrame(() => {
      fitBoard(state());
      size = `${innerWidth}x${innerHeight} ${panel.clientWidth} ${info.offsetHeight}`;
    });
  };
  const ro = new ResizeObserver(refit);
  ro.observe(document.querySelector('.board-panel'));
  ro.observe(document.querySelector('.board-info'));
  addEventListener('resize', refit);
}

export function drawSeeds(el, n) {
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
