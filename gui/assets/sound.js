// Move sounds (docs/gui.md, Sounds): off by default; the choice is kept
// in the browser's local storage. Each sound is made with WebAudio, a
// short tone shaped by an envelope: nothing is fetched.

const KEY = 'sower.sound';

let on = false;
let audio = null; // the AudioContext, made on the first sound or tap

// soundOn says whether sounds are on.
export function soundOn() { return on; }

// bindSound wires the toggle (a checkbox) to the stored choice.
export function bindSound(box) {
  try { on = localStorage.getItem(KEY) === 'on'; } catch { on = false; }
  box.checked = on;
  box.addEventListener('change', () => {
    on = box.checked;
    try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* private mode: this page only */ }
    if (on) context(); // a tap lets the page make sound
  });
}

// context returns the page's AudioContext, resumed; null without WebAudio.
function context() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audio) audio = new AC();
  if (audio.state === 'suspended') audio.resume();
  return audio;
}

// tones are each sound's notes: frequency (Hz), start and length (s).
const tones = {
  move: [[660, 0, 0.07]],
  capture: [[440, 0, 0.08], [330, 0.07, 0.12]],
  end: [[523, 0, 0.14], [659, 0.13, 0.14], [784, 0.26, 0.3]],
};

// play makes sound kind, and notes it on <body> (data-sound, data-sounds:
// the last one and how many) for tests.
function play(kind) {
  const body = document.body;
  body.dataset.sound = kind;
  body.dataset.sounds = String(Number(body.dataset.sounds || 0) + 1);
  const ac = context();
  if (!ac) return;
  const t0 = ac.currentTime;
  for (const [f, at, len] of tones[kind]) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = 'triangle';
    osc.frequency.value = f;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.25, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(ac.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
}

// soundFor sounds the move that leads from state prev to s, when sounds
// are on and s is prev with one more ply, shown: the end of the game, a
// capture or a plain move. Looking back, a take back or a new game makes
// no sound.
export function soundFor(prev, s) {
  if (!on || !prev || prev.gameId !== s.gameId || s.moves.length !== prev.moves.length + 1 || s.view !== s.moves.length) return;
  const captured = (s.steps || []).some((st) => st.kind === 'capture');
  play(s.turn === 'over' ? 'end' : captured ? 'capture' : 'move');
}
