package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/sower-engine/sower/board"
)

// GameRecord is a finished game.
type GameRecord struct {
	Start  board.Position
	South  string
	North  string
	Moves  []board.Move
	Status board.Status
}

// PlayGame plays one game from start between south and north, to its end
// by the rules (including the no-capture limit and repetition).
func PlayGame(ctx context.Context, start board.Position, south, north Player) (GameRecord, error) {
	for _, p := range []Player{south, north} {
		if n, ok := p.(interface{ NewGame() }); ok {
			n.NewGame()
		}
	}
	g := board.NewGame(start)
	rec := GameRecord{Start: start, South: south.Name(), North: north.Name()}
	for !g.Status().Over() {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		pl := south
		if pos := g.Position(); pos.Side() == board.North {
			pl = north
		}
		m := pl.Move(ctx, g)
		if err := g.Play(m); err != nil {
			return rec, fmt.Errorf("%s played %s in %s: %w", pl.Name(), m, g.Position().String(), err)
		}
	}
	rec.Moves = g.Moves()
	rec.Status = g.Status()
	return rec, nil
}

// Openings returns n distinct start positions made by plies random legal
// moves from v's start, skipping games already over, from a generator
// seeded with seed. Fewer are returned if there are not n distinct ones.
func Openings(v *board.Variant, n, plies int, seed uint64) []board.Position {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	seen := map[string]bool{}
	var out []board.Position
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		g := board.NewGame(v.Start())
		for i := 0; i < plies && !g.Status().Over(); i++ {
			p := g.Position()
			l := p.LegalMoves()
			g.Play(l[rng.IntN(len(l))])
		}
		p := g.Position()
		if g.Status().Over() || seen[p.String()] {
			continue
		}
		seen[p.String()] = true
		out = append(out, p)
	}
	return out
}

// Tally counts a match's results from the first player's point of view.
type Tally struct {
	Wins, Losses, Draws int
}

// Games returns the number of games.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }

// Score returns the first player's score as a fraction, draws counting half.
func (t Tally) Score() float64 {
	if t.Games() == 0 {
		return 0
	}
	return (float64(t.Wins) + float64(t.Draws)/2) / float64(t.Games())
}

// String writes "W-L-D (score%)".
func (t Tally) String() string {
	return fmt.Sprintf("+%d -%d =%d (%.1f%%)", t.Wins, t.Losses, t.Draws, 100*t.Score())
}

// MatchConfig describes a self-play match.
type MatchConfig struct {
	Openings    []board.Position // each is played twice, colours swapped
	Concurrency int              // games at once (at least 1)
	// First and Second make fresh players for one game; i is the game's
	// index, for seeding.
	First, Second func(i int) (Player, error)
	// Each, if set, is called after every game with the record and the
	// tally so far (from one goroutine at a time).
	Each func(rec GameRecord, firstIsSouth bool, t Tally)
}

// Match plays every opening twice, the first player taking South in one
// game and North in the other, and returns the first player's tally.
func Match(ctx context.Context, cfg MatchConfig) (Tally, error) {
	type job struct {
		i            int
		start        board.Position
		firstIsSouth bool
	}
	jobs := make(chan job)
	var (
		mu    sync.Mutex
		tally Tally
		errs  []error
		wg    sync.WaitGroup
	)
	workers := max(cfg.Concurrency, 1)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				a, err := cfg.First(j.i)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					continue
				}
				b, err := cfg.Second(j.i)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					continue
				}
				south, north := a, b
				if !j.firstIsSouth {
					south, north = b, a
				}
				rec, err := PlayGame(ctx, j.start, south, north)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					first := board.South
					if !j.firstIsSouth {
						first = board.North
					}
					switch rec.Status.Result.Score(first) {
					case 1:
						tally.Wins++
					case 0:
						tally.Losses++
					default:
						tally.Draws++
					}
					if cfg.Each != nil {
						cfg.Each(rec, j.firstIsSouth, tally)
					}
				}
				mu.Unlock()
			}
		}()
	}
	i := 0
feed:
	for _, o := range cfg.Openings {
		for _, firstIsSouth := range []bool{true, false} {
			select {
			case jobs <- job{i, o, firstIsSouth}:
				i++
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	if len(errs) > 0 {
		return tally, errs[0]
	}
	return tally, ctx.Err()
}
