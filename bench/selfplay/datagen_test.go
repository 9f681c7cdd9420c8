package selfplay

import (
	"context"
	"fmt"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/eval/tune"
	"github.com/sower-engine/sower/search"
)

// datagen runs a small data generation and returns its games by number.
func datagen(t *testing.T, cfg DatagenConfig) map[int]GameData {
	t.Helper()
	out := map[int]GameData{}
	cfg.Each = func(gd GameData) error {
		if _, dup := out[gd.Game]; dup {
			return fmt.Errorf("game %d twice", gd.Game)
		}
		out[gd.Game] = gd
		return nil
	}
	if err := Datagen(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDatagen checks the records of a small run: quiet, undecided
// positions labelled with their game's result, the same on every run
// whatever the concurrency, with the linear evaluation and with the
// family's built-in network (Engine.Nets), and skipped games left out.
func TestDatagen(t *testing.T) {
	linear := map[string]map[int]GameData{} // by game
	for _, tc := range []struct {
		name string
		net  bool
	}{{board.NameKatro, false}, {board.NameHoyito3, false}, {board.NameKatro, true}, {board.NameHoyito3, true}} {
		name := tc.name
		v, _ := board.New(name)
		cfg := DatagenConfig{Variant: v, Games: 8, Limits: search.Limits{Nodes: 300}, Engine: DefaultEngine(1), RandomPlies: 6, Seed: 3, Concurrency: 2}
		if tc.net {
			n, err := nnue.Builtin(v.Family())
			if err != nil {
				t.Fatal(err)
			}
			if n == nil {
				continue // no built-in network for the family
			}
			cfg.Engine.Nets = []*nnue.Net{n}
			name += " with the network"
		}
		a := datagen(t, cfg)
		cfg.Concurrency = 1
		cfg.Skip = func(i int) bool { return i%2 == 1 }
		b := datagen(t, cfg)
		if len(a) != 8 || len(b) != 4 {
			t.Fatalf("%s: %d and %d games, want 8 and 4", name, len(a), len(b))
		}
		records := 0
		for i, gd := range b {
			if i%2 == 1 {
				t.Fatalf("%s: skipped game %d was played", name, i)
			}
			if fmt.Sprint(gd.Records) != fmt.Sprint(a[i].Records) {
				t.Fatalf("%s game %d differs between runs", name, i)
			}
		}
		for _, gd := range a {
			if !gd.Status.Over() {
				t.Fatalf("%s game %d: not over", name, gd.Game)
			}
			for _, r := range gd.Records {
				records++
				if r.Result != gd.Status.Result || int(r.Game) != gd.Game || !Quiet(&r.Pos) || search.Score(r.Score).Decisive() {
					t.Fatalf("%s game %d: bad record %+v %s (game result %v)", name, gd.Game, r, r.Pos.String(), gd.Status.Result)
				}
			}
		}
		if records == 0 {
			t.Fatalf("%s: no records", name)
		}
		if !tc.net {
			linear[tc.name] = a
		} else if fmt.Sprint(a) == fmt.Sprint(linear[tc.name]) {
			t.Errorf("%s: the games are the linear evaluation's", name)
		}
	}
}

// TestQuiet checks Quiet on hand-made positions: a Hoyito III hole one
// sowing from a four, a Katro capture, and positions with neither.
func TestQuiet(t *testing.T) {
	for _, c := range []struct {
		game, fen string
		quiet     bool
	}{
		// South's only move, f1, ends in the empty f2.
		{board.NameHoyito3, "2,2,2,1,0,0/0,0,0,0,0,1 S 20 20 0", true},
		// e1's single seed makes f1 a four: a capture.
		{board.NameHoyito3, "1,1,1,1,2,2/0,0,0,0,1,3 S 20 16 0", false},
		// d1's seed ends in the empty d2.
		{board.NameKatro4x4, "8,8,8,7/0,0,0,0/0,0,0,0/0,0,0,1 S 0", true},
		// d1's seed lands on d2 (now 2, in the front row) facing d3: a capture.
		{board.NameKatro4x4, "8,8,8,4/0,0,0,2/0,0,0,1/0,0,0,1 S 0", false},
	} {
		v, _ := board.New(c.game)
		p, err := v.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := Quiet(&p); got != c.quiet {
			t.Errorf("%s %s: Quiet %v, want %v", c.game, c.fen, got, c.quiet)
		}
	}
}

// TestTuneOnSelfPlay tunes on a small self-play run: the training loss
// must fall epoch after epoch, and the weights kept must be no worse on
// the held-out games than the hand-made ones (a run this small may
// overfit at once, so that the hand-made weights are kept).
func TestTuneOnSelfPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 300 games")
	}
	v, _ := board.New(board.NameHoyito3)
	cfg := DatagenConfig{Variant: v, Games: 300, Limits: search.Limits{Nodes: 400}, Engine: DefaultEngine(1), RandomPlies: 6, Seed: 5, Concurrency: 2}
	d := tune.NewDataset(v)
	for _, gd := range datagen(t, cfg) {
		for _, r := range gd.Records {
			d.Add(&r, 0)
		}
	}
	tc := tune.DefaultConfig(v.Family())
	tc.Epochs, tc.Patience, tc.ValidShare, tc.Batch, tc.Rate = 8, 0, 0.2, 1024, 0.5
	var train []float64
	tc.Log = func(e tune.Epoch) { train = append(train, e.Train) }
	res, err := tune.Tune(context.Background(), d, tc)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(train); i++ {
		if !(train[i] < train[i-1]) {
			t.Errorf("training loss rose from %g to %g at epoch %d", train[i-1], train[i], i+1)
		}
	}
	if res.Loss > res.StartLoss+1e-6 {
		t.Errorf("validation loss %g with the weights kept, %g with the hand-made ones", res.Loss, res.StartLoss)
	}
	t.Logf("%d positions, K %.5f, training loss %.5f -> %.5f, validation %.5f -> %.5f", d.Len(), res.K, train[0], train[len(train)-1], res.StartLoss, res.Loss)
}
