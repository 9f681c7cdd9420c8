package selfplay

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/tune"
	"github.com/sower-engine/sower/search"
)

// DatagenConfig describes a run of self-play data generation.
type DatagenConfig struct {
	Variant *board.Variant
	Games   int           // games numbered 0 … Games-1
	Limits  search.Limits // the search of every move (fixed nodes or depth)
	// Engine configures every engine (search.NewEngineWith), each with a
	// table of its own: DefaultEngine with the run's settings.
	// Its Nets, at most one per family, evaluate the boards they were
	// trained for; the others play with the linear evaluation.
	Engine search.Options
	// Book holds start positions; game i starts from Book[i mod len(Book)],
	// or from the variant's start when Book is empty. Then RandomPlies
	// random legal plies are played, drawn from a generator seeded by Seed
	// and the game's number, so that every game differs.
	Book        []board.Position
	RandomPlies int
	Seed        uint64
	Concurrency int
	// Skip, if set, says which games to leave out (those already written
	// by an earlier run).
	Skip func(game int) bool
	// Each is called with every finished game, one call at a time.
	Each func(GameData) error
}

// DefaultEngine returns the engine options of a run whose engines have
// tables of hashMiB: search.DefaultOptions, the linear evaluation among
// them, with that size. A run sets its networks on them.
func DefaultEngine(hashMiB int) search.Options {
	o := search.DefaultOptions()
	o.HashMiB = hashMiB
	return o
}

// GameData is one finished self-play game.
type GameData struct {
	Game    int
	Plies   int            // plies played, the opening included
	Status  board.Status   // how the game ended
	Records []tune.Record  // its quiet, undecided positions
	Nodes   uint64         // nodes searched
	Start   board.Position // the position after the opening
	Moves   []board.Move   // the moves played from Start to the end (not sent back by a broker's workers)
}

// Datagen plays the games of cfg, Concurrency at a time, each engine with
// its own table, and passes every finished game to cfg.Each. A record is
// kept for every position after the opening whose side to move has no
// move that gains seeds (no capture is pending) and whose search score is
// not a proven result, labelled with that score and the game's result.
// It returns when every game is played, when ctx is cancelled (games in
// progress are dropped) or at the first error.
func Datagen(ctx context.Context, cfg DatagenConfig) error {
	if cfg.Variant == nil || cfg.Games < 0 {
		return errors.New("datagen: no variant or a negative number of games")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		cancel()
	}
	for range max(cfg.Concurrency, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng, err := search.NewEngineWith(cfg.Engine)
			if err != nil {
				fail(err)
				return
			}
			for i := range jobs {
				gd, err := selfPlay(ctx, eng, &cfg, i)
				if err != nil {
					if ctx.Err() == nil {
						fail(err)
					}
					continue
				}
				mu.Lock()
				if first == nil && cfg.Each != nil {
					if err := cfg.Each(gd); err != nil {
						first = err
						cancel()
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < cfg.Games; i++ {
		if cfg.Skip != nil && cfg.Skip(i) {
			continue
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// opening returns game i's start: its book position with the random plies
// played. An opening that ends the game is drawn again.
func opening(cfg *DatagenConfig, i int) *board.Game {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	start := cfg.Variant.Start()
	if len(cfg.Book) > 0 {
		start = cfg.Book[i%len(cfg.Book)]
	}
	for try := 0; ; try++ {
		g := board.NewGame(start)
		for k := 0; k < cfg.RandomPlies && !g.Status().Over(); k++ {
			p := g.Position()
			l := p.LegalMoves()
			if err := g.Play(l[rng.IntN(len(l))]); err != nil {
				panic(err) // a legal move is always playable
			}
		}
		if !g.Status().Over() || try == 100 {
			return board.NewGame(g.Position())
		}
	}
}

// selfPlay plays game i.
func selfPlay(ctx context.Context, eng *search.Engine, cfg *DatagenConfig, i int) (GameData, error) {
	eng.ClearHash()
	g := opening(cfg, i)
	gd := GameData{Game: i, Start: g.Position()}
	for !g.Status().Over() {
		p := g.Position()
		res, err := eng.Search(ctx, p, g.History(), cfg.Limits, nil)
		if err != nil {
			return gd, err
		}
		if err := ctx.Err(); err != nil {
			return gd, err
		}
		gd.Nodes += res.Info.Nodes
		if !res.Info.Score.Decisive() && Quiet(&p) {
			gd.Records = append(gd.Records, tune.Record{
				Game: uint32(i), Ply: uint16(min(cfg.RandomPlies+g.Ply(), 1<<16-1)), Pos: p,
				Score: int16(res.Info.Score),
			})
		}
		if err := g.Play(res.Move); err != nil {
			return gd, err
		}
	}
	gd.Moves = g.Moves()
	gd.Status = g.Status()
	gd.Plies = cfg.RandomPlies + g.Ply()
	for j := range gd.Records {
		gd.Records[j].Result = gd.Status.Result
	}
	return gd, nil
}

// Quiet reports whether no move of p's side to move gains seeds: no Katro
// capture and no Hoyito III capture is pending, so the static evaluation
// is a fair estimate of the position.
func Quiet(p *board.Position) bool {
	me := p.Side()
	before := p.Balance(me)
	var l board.MoveList
	p.GenerateMoves(&l)
	for _, m := range l.Slice() {
		c := *p
		if c.Play(m) && c.Balance(me) > before {
			return false
		}
	}
	return true
}
