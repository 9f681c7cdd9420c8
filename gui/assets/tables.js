// The Tables panel: what the Hoyito III endgame tables say about every
// legal move of the position shown, best first, and a mark on the board
// on the tables' best moves. The server sends a "tables" message after
// each state when it was started with --tables (docs/gui.md). In a Katro
// position a proof reaches (katro-4x6) the same panel, titled Proof,
// shows the proof book's result after every move (source "proof").

const $ = (sel) => document.querySelector(sel);

let last = null; // the last "tables" message
let shown = () => {}; // bindTables's: the position's score to draw again

// onTables shows a "tables" message; state is the state shown.
export function onTables(m, state) {
  last = m;
  markTables(state);
  shown();
}

// bindTables names what draws the shown position's score again once a
// message with its value comes (the score under the board, tablesValue).
export function bindTables(redraw) { shown = redraw; }

// tablesValue is the shown position's exact result from the tables
// (South's margin, its text and words), or null when the tables do not
// know it exactly or the last message is about another position.
export function tablesValue(state) {
  return last && state && last.fen === state.fen && last.value ? last.value : null;
}

// markTables draws the panel and the board's marks for the state shown:
// only when the last message is about its position (a state waiting for
// an animation shows none until its own message comes).
export function markTables(state) {
  const card = $('#tables-card');
  const list = $('#tables-moves');
  const note = $('#tables-note');
  const m = last && state && last.fen === state.fen ? last : null;
  const best = new Set();
  list.replaceChildren();
  if (!m || (!m.note && m.moves.length === 0)) {
    card.hidden = true;
  } else {
    card.hidden = false;
    $('#tables-title').textContent = m.source === 'proof' ? 'Proof' : 'Tables';
    card.setAttribute('aria-label', m.source === 'proof' ? 'Proof' : 'Tables');
    note.textContent = m.note || (m.source === 'proof' ? proofNote() : notePrefix(state));
    note.hidden = false;
    for (const mv of m.moves) {
      const li = document.createElement('li');
      li.dataset.move = mv.move;
      li.dataset.best = mv.best ? 'true' : 'false';
      li.dataset.exact = mv.exact ? 'true' : 'false';
      const name = document.createElement('b');
      name.textContent = mv.move;
      const text = document.createElement('span');
      text.className = 'verdict';
      text.textContent = mv.text;
      if (mv.words) {
        text.title = mv.words;
        text.setAttribute('aria-label', mv.words);
      }
      li.append(name, ' ', text);
      if (mv.best) {
        best.add(mv.move);
        li.title = m.source === 'proof' ? "the proof's move" : "the tables' best move";
      }
      list.append(li);
    }
  }
  document.querySelectorAll('[data-hole]').forEach((el) => {
    el.dataset.tableBest = best.has(el.dataset.hole) ? 'true' : 'false';
  });
  const pass = $('#pass');
  if (pass) pass.dataset.tableBest = best.has('pass') ? 'true' : 'false';
}

// notePrefix says what the list is, by the game's repetition rule.
function notePrefix(state) {
  if (state.rules.repetition === 'off') {
    return 'Every move with its exact final result (Repetition off, at this no-capture count), best first; marked on the board: the best.';
  }
  return 'Every move with its proven bounds under Repetition threefold (and the Repetition off result as an estimate), best first; marked on the board: the best.';
}

// proofNote says what the list is when it comes from the proof book.
function proofNote() {
  return "Every move with its proven result after it (#N: the winner's moves to the end, at most, along the proof; + for South, - for North); marked on the board: the proof's move.";
}
