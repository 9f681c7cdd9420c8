package cert

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestCheckMoveShortcut: the walker's short way to accept a winner's move
// (a candidate, whose sowing run then plays) accepts exactly the moves
// board.Position.CheckMove accepts, on every hole of positions of random
// play of every Katro board, to the end of each game.
func TestCheckMoveShortcut(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	checked := 0
	for _, name := range []string{board.NameKatro, board.NameKatro6x3, board.NameKatro4x6, board.NameKatro4x4} {
		v, err := board.New(name)
		if err != nil {
			t.Fatal(err)
		}
		w := newWalker(t.Context(), v, board.South, &Options{})
		w.moveErr = func(n *node, p *board.Position, err error) error { return err }
		for range 40 {
			p := v.Start()
			for ply := 0; ply < 300; ply++ {
				for _, m := range append(v.Holes(), board.NoMove, board.Pass) {
					n := &node{move: m}
					c := p
					got := w.checkMove(n, &p) == nil && c.Play(m) // run's play of the move
					want := p.CheckMove(m) == nil
					if got != want {
						t.Fatalf("%s %s, move %s: the walker accepts it %v, CheckMove %v", name, p.String(), m, got, want)
					}
					checked++
				}
				ms := p.LegalMoves()
				if len(ms) == 0 {
					break
				}
				p.Play(ms[r.IntN(len(ms))])
			}
		}
	}
	t.Logf("%d moves checked", checked)
}
