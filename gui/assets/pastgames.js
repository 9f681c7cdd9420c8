// The list of past games (docs/gui.md, Past games): the finished games
// the server keeps, newest first, each a link that opens it in this tab
// (its session: the game as it ended, to replay, review or rematch).

const $ = (sel) => document.querySelector(sel);

let send = () => {};

// bindPastGames asks for the list whenever its card is opened.
export function bindPastGames(sendMsg) {
  send = sendMsg;
  const card = $('#past-card');
  card.addEventListener('toggle', () => { if (card.open) refresh(); });
}

// refresh asks the server for the list again.
function refresh() {
  $('#past-note').textContent = 'Reading the games kept…';
  send({ type: 'games' });
}

const side = (k) => (k === 'south' ? 'South' : 'North');

// onGames draws the server's list.
export function onGames(m) {
  const list = $('#past-games');
  list.replaceChildren(...m.games.map((g) => {
    const li = document.createElement('li');
    li.dataset.id = g.id;
    li.dataset.status = g.status;
    const a = document.createElement('a');
    const q = new URLSearchParams({ session: g.id });
    a.href = '?' + q.toString();
    a.className = 'past-game';
    const when = g.saved ? new Date(g.saved).toLocaleString() : '';
    a.textContent = `${g.game}: ${side('south')} ${g.players[0]} \u2013 ${side('north')} ${g.players[1]}`;
    const detail = Object.assign(document.createElement('span'), { className: 'past-detail' });
    detail.textContent = `${g.result} \u00b7 ${g.plies} ${g.plies === 1 ? "ply" : "plies"}${g.reviewed ? ' \u00b7 reviewed' : ''}${when ? ' \u00b7 ' + when : ''}`;
    a.title = 'Open this game here, as it ended: replay it, review it, or start a rematch';
    li.append(a, ' ', detail);
    return li;
  }));
  $('#past-note').textContent = m.games.length
    ? 'Finished games the server keeps (for 7 days, at most 100 games), newest first; open one to replay or review it.'
    : 'No finished game is kept yet.';
}
