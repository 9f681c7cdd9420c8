// Sower's board drawing, for app.js: heaps of seeds that stay inside
// their holes, and holes sized to the width the board has.

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

// fitBoard sizes the holes to the width the board has (at most 76 px),
// so that no game needs sideways scrolling; on a narrow screen the gaps
// and the board's edge shrink first, and a Hoyito III board too narrow
// for its stores beside it puts them above and below it.
export function fitBoard(s) {
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
