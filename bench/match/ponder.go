package match

import (
	"context"
	"strings"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// ponder is the position an engine ponders on: the game's first ply
// moves, then the reply it expects.
type ponder struct {
	move string // the expected reply; "" when the engine does not ponder
	ply  int
}

// on reports whether the engine ponders.
func (pd ponder) on() bool { return pd.move != "" }

// hit reports whether the game has reached the pondered position: the
// expected reply was the one move played since the ponder began. A Hoyito
// III capture gives an extra turn, so the last move alone does not tell:
// the opponent may have played two moves, the last with the same name as
// the expected one.
func (pd ponder) hit(g *board.Game) bool {
	ms := g.Moves()
	return pd.on() && len(ms) == pd.ply+1 && ms[pd.ply].String() == pd.move
}

// answer gets the move of player p in g's position: from its ponder pd,
// if the opponent played the expected reply ("ponderhit"), else, after
// stopping any ponder, by a new search.
func (r *runner) answer(ctx context.Context, p player, g *board.Game, req client.Go, pd ponder) (client.Reply, *fault) {
	if !pd.on() {
		return p.think(ctx, g, req)
	}
	pr := p.(*process)
	if pd.hit(g) {
		rep, f := pr.e.PonderHit(ctx, req)
		return rep, faultOf(f)
	}
	if f := pr.stopPonder(ctx); f != nil {
		return client.Reply{}, f
	}
	return p.think(ctx, g, req)
}

// startPonder lets player p, which has just moved in g, ponder on the
// reply it expects, when it ponders and the reply is legal and does not
// end the game; it returns the ponder begun, if any. The go command
// carries the clocks as they stand and the player's own limits.
func (r *runner) startPonder(p player, g *board.Game, reply string, lim timecontrol.Limit, req client.Go) (ponder, *fault) {
	pr, ok := p.(*process)
	if !ok || !pr.ponders || reply == "" || g.Status().Over() {
		return ponder{}, nil
	}
	pos := g.Position()
	m, err := pos.Variant().ParseMove(reply)
	if err != nil {
		return ponder{}, nil // not a move: nothing to ponder on
	}
	gp := board.NewGame(g.Start())
	if err := gp.PlayAll(g.Moves()); err != nil {
		panic(err) // the moves of a game replay in it
	}
	if gp.Play(m) != nil || gp.Status().Over() {
		return ponder{}, nil
	}
	req.MoveTime, req.Nodes, req.Depth = lim.MoveTime, lim.Nodes, lim.Depth
	if !lim.HasClock() {
		req.HasClock = [2]bool{}
	}
	if f := pr.e.Ponder(gp, req); f != nil {
		return ponder{}, faultOf(f)
	}
	return ponder{move: reply, ply: len(g.Moves())}, nil
}

// ponderOff reports whether the options turn pondering off (Ponder=false).
func ponderOff(opts []Option) bool {
	for _, o := range opts {
		if strings.EqualFold(o.Name, "Ponder") && strings.EqualFold(o.Value, "false") {
			return true
		}
	}
	return false
}
