package match

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

// tenOpenings returns ten distinct katro-4x4 openings.
func tenOpenings(t *testing.T) []board.Position {
	t.Helper()
	o := randomOpenings(variant(t, board.NameKatro4x4), 10, 3, 1)
	if len(o) != 10 {
		t.Fatalf("%d openings", len(o))
	}
	return o
}

// TestShuffleOpenings checks --openings-order random: the openings in
// an order the seed decides, each once.
func TestShuffleOpenings(t *testing.T) {
	open := tenOpenings(t)
	cfg := Config{Variant: variant(t, board.NameKatro4x4), Games: 20, Openings: open, ShuffleOpenings: true, Seed: 3}
	a, b := cfg.PairOpenings(), cfg.PairOpenings()
	if !slices.EqualFunc(a, b, func(x, y board.Position) bool { return x.String() == y.String() }) {
		t.Error("the same seed shuffles differently")
	}
	names := func(ps []board.Position) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.String()
		}
		return out
	}
	got, want := names(a), names(open)
	if slices.Equal(got, want) {
		t.Error("the openings are in the file's order")
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Error("the shuffled openings are not the file's")
	}
	cfg.Seed = 4
	if c := names(cfg.PairOpenings()); slices.Equal(c, names(a)) {
		t.Error("another seed shuffles alike")
	}
	if cfg.ShuffleOpenings = false; !slices.Equal(names(cfg.PairOpenings()), names(open)) {
		t.Error("sequential: not the file's order")
	}
	// The match plays them in that order, pair by pair.
	cfg.ShuffleOpenings, cfg.Seed = true, 3
	cfg.Games = 6
	cfg.Engines = [2]EngineSpec{builtin("random"), builtin("greedy")}
	_, recs, _ := run(t, cfg)
	for _, r := range recs {
		if r.Start != a[(r.Game-1)/2].String() {
			t.Errorf("game %d starts from %s, want the shuffled opening %d", r.Game, r.Start, (r.Game-1)/2+1)
		}
	}
}

// TestNoRepeat checks --repeat=false: every game from an opening of its
// own, colours still alternating, and a resumed match agreeing.
func TestNoRepeat(t *testing.T) {
	open := tenOpenings(t)
	cfg := Config{Variant: variant(t, board.NameKatro4x4), Games: 7, Openings: open, NoRepeat: true, Seed: 2,
		Engines: [2]EngineSpec{builtin("random"), builtin("greedy")}}
	sum, recs, _ := run(t, cfg)
	for _, r := range recs {
		if r.Start != open[r.Game-1].String() {
			t.Errorf("game %d does not start from opening %d", r.Game, r.Game)
		}
	}
	if sum.Pairs.Pairs() != 3 {
		t.Errorf("%d pairs counted, want 3", sum.Pairs.Pairs())
	}
	cfg.Played = recs[:3]
	if err := cfg.CheckPlayed(); err != nil {
		t.Errorf("resuming: %v", err)
	}
	cfg.NoRepeat = false
	if err := cfg.CheckPlayed(); err == nil || !strings.Contains(err.Error(), "start") {
		t.Errorf("resuming with repeated openings: %v, want the start refused", err)
	}
	// Random openings: one a game.
	rnd := Config{Variant: variant(t, board.NameKatro4x4), Games: 9, RandomPlies: 3, NoRepeat: true}
	if n := len(rnd.PairOpenings()); n != 9 {
		t.Errorf("%d random openings for 9 games without repeats", n)
	}
	rnd.NoRepeat = false
	if n := len(rnd.PairOpenings()); n != 5 {
		t.Errorf("%d random openings for 9 games in pairs", n)
	}
}

// TestSowerPeriods plays sower under a clock refilled every 3 moves: the
// engine is told the moves to go, and no game is lost on time.
func TestSowerPeriods(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := fixtures.Sower(t, false)
	lim, err := timecontrol.ParseTimeControl("3/0.3+0.01")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 2, RandomPlies: 2, Seed: 5, Log: &log,
		TimeMargin: 200 * time.Millisecond,
		Engines:    [2]EngineSpec{sower(bin, "periods", lim), builtin("greedy")},
	}
	_, recs, _ := run(t, cfg)
	for _, r := range recs {
		if r.Termination != record.Normal {
			t.Errorf("game %d: %s (%s)", r.Game, r.Termination, r.Reason)
		}
		if want := "tc=3/0.3+0.01"; r.SouthLimit != want && r.NorthLimit != want {
			t.Errorf("game %d: limits %s and %s, want %s", r.Game, r.SouthLimit, r.NorthLimit, want)
		}
	}
	// Each game's go commands count down 3, 2, 1, 3, …
	gos := regexp.MustCompile(`> go .*movestogo (\d)`).FindAllStringSubmatch(log.String(), -1)
	if len(gos) < 4 {
		t.Fatalf("%d go commands with movestogo:\n%s", len(gos), log.String())
	}
	var seq strings.Builder
	for _, g := range gos[:4] {
		seq.WriteString(g[1])
	}
	if seq.String() != "3213" {
		t.Errorf("movestogo %s, want 3213", seq.String())
	}
}
