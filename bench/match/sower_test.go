package match

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

func sower(bin, name string, lim timecontrol.Limit, opts ...Option) EngineSpec {
	return EngineSpec{Name: name, Command: []string{bin}, Limit: lim, Options: opts}
}

// TestSowerSelfPlay plays two copies of the sower binary over pipes in
// every variant, with small node and depth limits.
func TestSowerSelfPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := fixtures.Sower(t, false)
	for _, name := range board.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{
				Variant: variant(t, name), Games: 2, Concurrency: 2, RandomPlies: 2, Seed: 11,
				TimeMargin: 100 * time.Millisecond,
				Engines: [2]EngineSpec{
					sower(bin, "depth2", timecontrol.Limit{Depth: 2}, Option{Name: "Hash", Value: "4"}),
					sower(bin, "nodes", timecontrol.Limit{Nodes: 400}, Option{Name: "Hash", Value: "2"}),
				},
			}
			sum, recs, report := run(t, cfg)
			for _, r := range recs {
				if r.Termination != record.Normal {
					t.Errorf("game %d: %s (%s)", r.Game, r.Termination, r.Reason)
				}
				for _, m := range r.Moves {
					if m.Depth == nil || (m.CP == nil && m.Mate == nil) {
						t.Errorf("game %d: move %s without depth and score", r.Game, m.Move)
						break
					}
				}
			}
			if sum.Score.Games() != 2 || !strings.Contains(report, "Score of depth2 vs nodes: ") {
				t.Errorf("report:\n%s", report)
			}
		})
	}
}

// TestSowerTraditional plays a traditional Hoyito III match between two
// copies of sower: LastFour reaches the engines game by game.
func TestSowerTraditional(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := fixtures.Sower(t, false)
	cfg := Config{
		Variant: variant(t, board.NameHoyito3), Games: 4, Traditional: true, RandomPlies: 3, Seed: 2,
		Engines: [2]EngineSpec{sower(bin, "a", timecontrol.Limit{Depth: 1}), sower(bin, "b", timecontrol.Limit{Depth: 2})},
	}
	_, recs, _ := run(t, cfg)
	for _, r := range recs {
		if r.Termination != record.Normal {
			t.Errorf("game %d: %s (%s)", r.Game, r.Termination, r.Reason)
		}
	}
}

// TestSowerClock plays sower on a clock: no game is lost on time.
func TestSowerClock(t *testing.T) {
	if testing.Short() {
		t.Skip("plays on a clock")
	}
	bin := fixtures.Sower(t, false)
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 2, Concurrency: 2, RandomPlies: 2,
		TimeMargin: 100 * time.Millisecond,
		Engines: [2]EngineSpec{
			sower(bin, "clock", timecontrol.Limit{Base: time.Second, Inc: 20 * time.Millisecond}),
			sower(bin, "movetime", timecontrol.Limit{MoveTime: 20 * time.Millisecond}),
		},
	}
	_, recs, _ := run(t, cfg)
	for _, r := range recs {
		if r.Termination != record.Normal {
			t.Errorf("game %d: %s (%s)", r.Game, r.Termination, r.Reason)
		}
	}
}

// TestSowerRejectsOption checks that an option the engine refuses stops
// the match before any game.
func TestSowerRejectsOption(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := fixtures.Sower(t, false)
	cfg := Config{
		Variant: variant(t, board.NameKatro), Games: 2,
		Engines: [2]EngineSpec{sower(bin, "a", timecontrol.Limit{Depth: 1}, Option{Name: "Hsh", Value: "4"}), builtin("random")},
	}
	err := cfg.Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "engine1 (a) rejects its options: ") {
		t.Errorf("Check: %v", err)
	}
	cfg.Engines[0].Options = []Option{{Name: "Hash", Value: "4"}, {Name: "Move Overhead", Value: "20"}}
	if err := cfg.Check(context.Background()); err != nil {
		t.Errorf("Check: %v", err)
	}
}

// TestSowerPonder plays sower pondering against sower not pondering
// (Ponder=false), on a clock and with a move time: the first gets "go
// ponder" and "ponderhit" or "stop", the second never ponders, and no
// game is lost on time or otherwise forfeited.
func TestSowerPonder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays on a clock")
	}
	bin := fixtures.Sower(t, false)
	for _, lim := range []timecontrol.Limit{{Base: time.Second, Inc: 20 * time.Millisecond}, {MoveTime: 30 * time.Millisecond}} {
		var log bytes.Buffer
		cfg := Config{
			Variant: variant(t, board.NameKatro4x4), Games: 2, RandomPlies: 2, Ponder: true,
			// A pondering engine never sleeps, and on an overloaded machine
			// the scheduler starves it most: the margin is wide, as the
			// test is about the go ponder, ponderhit and stop sequence.
			TimeMargin: 2 * time.Second, Log: &log,
			Engines: [2]EngineSpec{
				sower(bin, "ponder", lim),
				sower(bin, "still", lim, Option{Name: "Ponder", Value: "false"}),
			},
		}
		_, recs, _ := run(t, cfg)
		for _, r := range recs {
			if r.Termination != record.Normal {
				t.Errorf("%s: game %d: %s (%s)", lim, r.Game, r.Termination, r.Reason)
			}
		}
		l := log.String()
		if logged(l, "ponder", "go ponder") == 0 || logged(l, "ponder", "ponderhit") == 0 {
			t.Errorf("%s: the pondering engine got %d go ponder and %d ponderhit", lim, logged(l, "ponder", "go ponder"), logged(l, "ponder", "ponderhit"))
		}
		if n := logged(l, "still", "go ponder"); n > 0 {
			t.Errorf("%s: the engine with Ponder=false got %d go ponder", lim, n)
		}
		if logged(l, "ponder", "setoption name Ponder value true") == 0 {
			t.Errorf("%s: the Ponder option was not set", lim)
		}
	}
}

// logged counts the lines of a match's log that send a command starting
// with cmd to a process of the engine name ("ponder(3) > go ponder …").
func logged(log, name, cmd string) int {
	re := regexp.MustCompile(`(?m) ` + regexp.QuoteMeta(name) + `\([0-9]+\) > ` + regexp.QuoteMeta(cmd))
	return len(re.FindAllStringIndex(log, -1))
}
