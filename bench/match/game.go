package match

import (
	"context"
	"fmt"
	"strings"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// play plays game idx (0-based) from open and returns its record, or nil if the
// match stopped during the game.
func (r *runner) play(ctx context.Context, w *worker, idx int, open board.Position, lf board.LastFour) *record.GameRecord {
	gm := r.gameOf(ctx, w, idx, open, lf)
	if side, f := gm.start(); f != nil {
		return gm.forfeit(side, f)
	}
	gm.notePlayers()
	for !gm.g.Status().Over() {
		pos := gm.g.Position()
		side := pos.Side()
		if err := ctx.Err(); err != nil {
			return gm.forfeit(side, &fault{aborted, err.Error()})
		}
		rep, f := gm.move(side)
		if f != nil {
			return gm.forfeit(side, f)
		}
		if gm.g.Status().Over() {
			continue
		}
		if rec := gm.adjudicate(side, rep.Info); rec != nil {
			return rec
		}
		if f := gm.ponderOn(side, rep.Ponder); f != nil {
			return gm.forfeit(side, f)
		}
	}
	gm.endPonders()
	gm.rec.Finish(gm.g)
	return gm.rec
}

// game is a game of the match in progress on a worker: its setup, its
// record so far, the players of its sides, their clocks and ponders, and
// the score adjudication's count.
type game struct {
	r   *runner
	ctx context.Context
	w   *worker
	idx int
	su  gameSetup
	rec *record.GameRecord
	g   *board.Game
	// players are the players of the sides.
	players [2]player
	// pondering[side] is the reply the side's engine ponders on, if any.
	pondering [2]ponder
	clocks    timecontrol.Clocks
	adj       adjudicator
}

// gameOf sets up game idx (0-based) from open with LastFour lf, to be
// played by w's players.
func (r *runner) gameOf(ctx context.Context, w *worker, idx int, open board.Position, lf board.LastFour) *game {
	su := r.setup(idx, open, lf)
	return &game{r: r, ctx: ctx, w: w, idx: idx, su: su, rec: su.record(idx, r.cfg), g: board.NewGame(su.start),
		clocks: timecontrol.NewClocks(su.lims), adj: adjudicator{resign: r.cfg.Resign, draw: r.cfg.Draw}}
}

// start gets the players of both sides ready for the game, starting
// those not running; on a failure it returns the side whose player
// failed and the fault.
func (gm *game) start() (board.Side, *fault) {
	opts := record.GameOptions(gm.su.variant)
	for _, s := range []board.Side{board.South, board.North} {
		p, f := gm.r.ensure(gm.ctx, gm.w, gm.su.slotOf[s])
		if f == nil {
			f = p.newGame(gm.ctx, gm.idx, opts)
		}
		if f != nil {
			return s, f
		}
		gm.players[s] = p
	}
	return board.South, nil
}

// notePlayers names in the log the players of the game's sides: their
// processes, or the built-in players' engines.
func (gm *game) notePlayers() {
	r := gm.r
	if r.log == nil {
		return
	}
	var labels [2]string
	for s, p := range gm.players {
		labels[s] = r.cfg.Engines[gm.su.slotOf[s]].Name
		if pr, ok := p.(*process); ok {
			labels[s] = pr.label
		}
	}
	r.log.Note("game %d: %s (south) vs %s (north)", r.gameNumber(gm.idx), labels[board.South], labels[board.North])
}

// move asks side's player for its move, on its clock, charges the time
// and plays the move; it returns the player's reply, or the fault that
// forfeits the game: no answer in time, a late one or an illegal move.
func (gm *game) move(side board.Side) (client.Reply, *fault) {
	r := gm.r
	mv := gm.clocks.Move(side, r.cfg.TimeMargin, r.cfg.timeout())
	rep, f := r.answer(gm.ctx, gm.players[side], gm.g, mv.Go, gm.pondering[side])
	gm.pondering[side] = ponder{}
	if f != nil && f.term == record.TimeForfeit {
		f.detail = mv.NoAnswer()
	}
	if f != nil {
		return rep, f
	}
	if late := mv.Late(rep.Elapsed); late != "" {
		return rep, &fault{record.TimeForfeit, late}
	}
	gm.clocks.Charge(side, rep.Elapsed)
	m, err := gm.su.variant.ParseMove(rep.Move)
	if err == nil {
		err = gm.g.Play(m)
	}
	if err != nil {
		return rep, illegalMove(rep.Move, err)
	}
	gm.rec.Moves = append(gm.rec.Moves, record.NewMoveRecord(m, side, rep))
	return rep, nil
}

// illegalMove is the fault of a move an engine played that the game
// refused with err.
func illegalMove(move string, err error) *fault {
	what := fmt.Sprintf("played %q: %v", move, err)
	switch move {
	case "":
		what = "sent bestmove without a move"
	case board.NoMove.String():
		what = "answered (none) but the game is not over"
	}
	return &fault{record.IllegalMove, what}
}

// adjudicate ends the game when the engines' scores (info, side's
// latest) or the judge of proven results decide it after side's move: it
// returns the finished record, or nil when the game goes on.
func (gm *game) adjudicate(side board.Side, info client.Info) *record.GameRecord {
	res, why, ok := gm.adj.add(side, info)
	if judge := gm.r.provenOf(gm.w); !ok && judge != nil {
		res, why, ok = judge(gm.g.Position(), gm.g.History())
	}
	if !ok {
		return nil
	}
	gm.endPonders()
	return gm.end(res, record.Adjudication, why)
}

// ponderOn lets side's player, which has just moved, ponder on the reply
// it expects, unless the move gave it another turn.
func (gm *game) ponderOn(side board.Side, reply string) *fault {
	if after := gm.g.Position(); after.Side() == side { // no ponder on its own extra turn
		return nil
	}
	var f *fault
	gm.pondering[side], f = gm.r.startPonder(gm.players[side], gm.g, reply, gm.su.lims[side], gm.clocks.Move(side, 0, 0).Go)
	return f
}

// endPonders stops the ponders still running when the game ends; an
// engine that fails to stop is dropped.
func (gm *game) endPonders() {
	for s, pd := range gm.pondering {
		if pd.on() {
			if f := gm.players[s].(*process).stopPonder(gm.ctx); f != nil {
				gm.r.dropSlot(gm.w, gm.su.slotOf[s], 0)
			}
			gm.pondering[s] = ponder{}
		}
	}
}

// forfeit ends the game: side loses for f. It returns nil if the game
// was aborted.
func (gm *game) forfeit(side board.Side, f *fault) *record.GameRecord {
	r, w := gm.r, gm.w
	if f.term == aborted || gm.ctx.Err() != nil {
		r.dropSlot(w, 0, 0) // both may be searching
		r.dropSlot(w, 1, 0)
		return nil
	}
	r.dropSlot(w, gm.su.slotOf[side], 0) // its state is unknown
	gm.pondering[side] = ponder{}
	gm.endPonders()
	winner := board.SouthWins
	if side == board.South {
		winner = board.NorthWins
	}
	rec := gm.end(winner, f.term, f.detail)
	rec.Loser = strings.ToLower(side.String())
	return rec
}

// end records the game's end before its rules do: its result, how and
// why it ended, the final position and the date.
func (gm *game) end(res board.Result, term record.Termination, reason string) *record.GameRecord {
	rec := gm.rec
	rec.Result, rec.Winner = record.ResultText(res), res.String()
	rec.Termination, rec.Reason = term, reason
	p := gm.g.Position()
	rec.Final, rec.Date = p.String(), record.Today()
	return rec
}
