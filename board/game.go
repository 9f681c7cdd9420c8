package board

import "fmt"

// Game is a game in progress: the position it started from, the moves
// played, and the keys of every position since the start, which the
// repetition rule needs. It applies every rule of the rule book, including
// the engine conventions that Position alone cannot decide: when the
// no-capture limit or a third repetition ends a Hoyito III game, Play awards
// the seeds of each row to its owner, so the final position has an empty
// board.
type Game struct {
	start   Position
	pos     Position
	moves   []Move
	history []uint64 // keys of start … the position before pos
	status  Status
}

// NewGame starts a game from p.
func NewGame(p Position) *Game {
	g := &Game{start: p, pos: p}
	g.status = p.Status(nil)
	g.settle()
	return g
}

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Moves returns the moves played, in order. The slice must not be changed.
func (g *Game) Moves() []Move { return g.moves }

// History returns the keys of the positions before the current one, from
// the start on, for Position.Status and the search. The slice must not be
// changed.
func (g *Game) History() []uint64 { return g.history }

// Status returns the game's status.
func (g *Game) Status() Status { return g.status }

// Ply returns the number of plies played.
func (g *Game) Ply() int { return len(g.moves) }

// Play makes move m if it is legal and the game is not over.
func (g *Game) Play(m Move) error {
	if g.status.Over() {
		return fmt.Errorf("%s: the game is over (%s)", m, g.status.Reason)
	}
	next, err := g.pos.After(m)
	if err != nil {
		return err
	}
	g.history = append(g.history, g.pos.key)
	g.moves = append(g.moves, m)
	g.pos = next
	g.status = g.pos.Status(g.history)
	g.settle()
	return nil
}

// settle applies the end-of-game award of a Hoyito III game ended by the
// no-capture limit or repetition, which the position itself does not do.
func (g *Game) settle() {
	if g.status.Reason == ReasonLimit || g.status.Reason == ReasonRepeat {
		g.pos.AwardRows(g.status.Reason)
	}
}

// PlayAll plays moves in order. An error names the move and its 1-based
// index; the moves before it stay played.
func (g *Game) PlayAll(ms []Move) error {
	for i, m := range ms {
		if err := g.Play(m); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return nil
}
