package match

import (
	"context"
	"strings"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// answer gets the move of player p in g's position: from its ponder on
// the reply expected, if the opponent played it ("ponderhit"), else, after
// stopping any ponder, by a new search.
func (r *runner) answer(ctx context.Context, p player, g *board.Game, req client.Go, expected string) (client.Reply, *fault) {
	if expected == "" {
		return p.think(ctx, g, req)
	}
	pr := p.(*process)
	if ms := g.Moves(); len(ms) > 0 && ms[len(ms)-1].String() == expected {
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
// end the game; it returns the reply it ponders on, or "". The go command
// carries the clocks as they stand and the player's own limits.
func (r *runner) startPonder(p player, g *board.Game, reply string, lim Limit, req client.Go) (string, *fault) {
	pr, ok := p.(*process)
	if !ok || !pr.ponders || reply == "" || g.Status().Over() {
		return "", nil
	}
	pos := g.Position()
	m, err := pos.Variant().ParseMove(reply)
	if err != nil {
		return "", nil // not a move: nothing to ponder on
	}
	gp := board.NewGame(g.Start())
	if err := gp.PlayAll(g.Moves()); err != nil {
		panic(err) // the moves of a game replay in it
	}
	if gp.Play(m) != nil || gp.Status().Over() {
		return "", nil
	}
	req.MoveTime, req.Nodes, req.Depth = lim.MoveTime, lim.Nodes, lim.Depth
	if !lim.HasClock() {
		req.HasClock = [2]bool{}
	}
	if f := pr.e.Ponder(gp, req); f != nil {
		return "", faultOf(f)
	}
	return reply, nil
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
