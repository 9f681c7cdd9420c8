package review

import (
	"context"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/review/marks"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// Config is what a review searches with.
type Config struct {
	// Engine searches the positions (its hash table and threads).
	Engine *search.Engine
	// Limits is the budget of each position: a move time, a depth or a
	// node count. A search stops early once its result is settled
	// (search.Info.Settled).
	Limits search.Limits
	// Progress, if not nil, is called after each position searched.
	Progress func(Progress)
}

// Progress reports a review under way.
type Progress struct {
	Done, Total int           // positions searched, of all the game's
	Elapsed     time.Duration // since the review started
}

// Left estimates the time left: the positions still to search at the
// mean time of those searched.
func (p Progress) Left() time.Duration {
	if p.Done == 0 {
		return 0
	}
	return time.Duration(float64(p.Elapsed) / float64(p.Done) * float64(p.Total-p.Done))
}

// Result is a game's review.
type Result struct {
	// Game is the game reviewed.
	Game *board.Game
	// Plies are the reviews of the game's plies, in order: all of them,
	// or those reviewed before the review was stopped.
	Plies []record.MoveReview
	// Thresholds are those the marks were given by.
	Thresholds Thresholds
}

// Complete reports whether every ply was reviewed.
func (r *Result) Complete() bool { return len(r.Plies) == len(r.Game.Moves()) }

// Counts returns the number of plies of each mark, by the side that
// played them (indexed by board.Side).
func (r *Result) Counts() [2]map[string]int {
	return marks.Counts(r.Game.Start(), r.Game.Moves(), r.Plies)
}

// Apply writes the review into rec, the record of the game reviewed: each
// reviewed ply's Review.
func (r *Result) Apply(rec *record.GameRecord) {
	for i := range r.Plies {
		if i < len(rec.Moves) {
			pr := r.Plies[i]
			rec.Moves[i].Review = &pr
		}
	}
}

// Review searches every position of g, from its start to its last
// position, within cfg, and marks every ply. Cancelling ctx stops it: the
// result then holds the plies reviewed so far, and the error is ctx's.
func Review(ctx context.Context, g *board.Game, cfg Config) (*Result, error) {
	start := g.Start()
	f := start.Variant().Family()
	res := &Result{Game: g, Thresholds: ThresholdsFor(f)}
	moves := g.Moves()
	replay := board.NewGame(start)
	began := time.Now()
	var prev verdict
	for i := 0; i <= len(moves); i++ {
		v, err := searchPosition(ctx, replay, cfg)
		if err != nil {
			return res, err
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Done: i + 1, Total: len(moves) + 1, Elapsed: time.Since(began)})
		}
		if i > 0 {
			res.Plies = append(res.Plies, judge(f, res.Thresholds, &prev, &v, moves[i-1]))
		}
		if i < len(moves) {
			if err := replay.Play(moves[i]); err != nil {
				return res, err // g played it: cannot happen
			}
		}
		prev = v
	}
	return res, nil
}

// verdict is the engine's view of one position.
type verdict struct {
	side   board.Side // to move
	info   search.Info
	move   board.Move   // the engine's best move
	status board.Status // the game's status there: over, or ongoing
}

// searchPosition searches g's position within cfg, stopping once the
// result is settled. A finished game is not searched: its result is its
// verdict.
func searchPosition(ctx context.Context, g *board.Game, cfg Config) (verdict, error) {
	p := g.Position()
	v := verdict{side: p.Side(), status: g.Status()}
	if v.status.Over() {
		return v, ctx.Err()
	}
	sctx, settle := context.WithCancel(ctx)
	defer settle()
	res, err := cfg.Engine.SearchWith(sctx, p, g.History(), cfg.Limits, search.Callbacks{Info: func(i search.Info) {
		if i.Settled() {
			settle()
		}
	}})
	if err == nil {
		err = ctx.Err() // a search stopped from outside is not a verdict
	}
	v.info, v.move = res.Info, res.Move
	return v, err
}

// judge reviews move m, played between the positions of verdicts before
// and after (marks.Judge).
func judge(f board.Family, t Thresholds, before, after *verdict, m board.Move) record.MoveReview {
	b, a := before.view(f), after.view(f)
	return marks.Judge(f, t, &b, &a, m.String())
}

// view is the verdict as package marks judges it.
func (v *verdict) view(f board.Family) marks.View {
	w := marks.View{Side: v.side, Value: v.value(f, v.side), Outcome: v.outcome(f, v.side), Depth: v.info.Depth}
	if !v.status.Over() {
		w.Move = v.move.String()
		for _, x := range v.info.PV {
			w.Line = append(w.Line, x.String())
		}
	}
	w.CP, w.Mate, w.Proven = v.southScore(f)
	return w
}

// value is the position's worth to side s: Katro its expected score (0 to
// 1), Hoyito III the final margin in seeds.
func (v *verdict) value(f board.Family, s board.Side) float64 {
	if v.status.Over() {
		if f == board.Hoyito {
			return float64(v.status.Seeds[s] - v.status.Seeds[s.Other()])
		}
		switch w, ok := v.status.Result.Winner(); {
		case !ok:
			return 0.5
		case w == s:
			return 1
		}
		return 0
	}
	if f == board.Hoyito {
		x := float64(cp(f, v.info.Score)) / 100
		if v.side != s {
			x = -x
		}
		return x
	}
	wdl := v.info.WDL(v.info.Model())
	e := (float64(wdl.Win) + float64(wdl.Draw)/2) / 1000
	if v.side != s {
		e = 1 - e
	}
	return e
}

// outcome is the proven result for side s, if the verdict is proven: a
// finished game, a proven score (Info.Proven), or a decisive score bound
// on its own side (a win by at least, a loss by at least), as
// search.Info.WDL reads them.
func (v *verdict) outcome(f board.Family, s board.Side) marks.Outcome {
	var o marks.Outcome
	switch {
	case v.status.Over():
		d := v.value(f, v.side) // 1, ½ or 0, or the margin
		o = marks.ProvenDraw
		if f == board.Katro {
			d -= 0.5
		}
		if d > 0 {
			o = marks.ProvenWin
		} else if d < 0 {
			o = marks.ProvenLoss
		}
	default:
		i := v.info
		sc := i.Score
		switch {
		case sc > 0 && (i.Proven || sc.Decisive() && i.Bound != search.BoundUpper):
			o = marks.ProvenWin
		case sc < 0 && (i.Proven || sc.Decisive() && i.Bound != search.BoundLower):
			o = marks.ProvenLoss
		case i.Proven:
			o = marks.ProvenDraw
		}
	}
	if s != v.side {
		o = o.Other()
	}
	return o
}

// southScore returns the verdict's score from South's view as a record
// keeps it: CP or Mate, and whether it is proven. A finished Katro game
// has neither (its result scores it).
func (v *verdict) southScore(f board.Family) (cpS, mate *int, proven bool) {
	proven = v.outcome(f, board.South) != marks.Unproven
	if v.status.Over() {
		if f == board.Hoyito {
			x := 100 * (v.status.Seeds[board.South] - v.status.Seeds[board.North])
			cpS = &x
		}
		return cpS, nil, true
	}
	sign := 1
	if v.side == board.North {
		sign = -1
	}
	sc := v.info.Score
	if f == board.Katro && sc.Decisive() {
		p := sc.MatePlies()
		n := (p + 1) / 2
		if sc < 0 {
			n = -p / 2
		}
		n *= sign
		return nil, &n, proven
	}
	x := sign * cp(f, sc)
	return &x, nil, proven
}

// cp returns a score in hundredths as the protocol shows it: a decisive
// Hoyito III score as 100 times its margin.
func cp(f board.Family, s search.Score) int {
	if f == board.Hoyito && s.Decisive() {
		return 100 * s.Margin()
	}
	return int(s)
}
