package client

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

func TestParseInfo(t *testing.T) {
	tests := []struct {
		lines []string
		want  Info
	}{
		{[]string{"info depth 12 seldepth 15 score cp 34 nodes 81234 nps 2712345 time 30 hashfull 12 pv a1 f6 c1"},
			Info{Depth: 12, HasDepth: true, SelDepth: 15, CP: 34, HasScore: true, Nodes: 81234, NPS: 2712345, TimeMS: 30, PV: []string{"a1", "f6", "c1"}}},
		{[]string{"info depth 3 score cp 10", "info depth 5 score mate -2 upperbound nodes 9"},
			Info{Depth: 5, HasDepth: true, Mate: -2, IsMate: true, HasScore: true, Bound: "upperbound", Nodes: 9}},
		{[]string{"info depth 4 score cp 50 lowerbound", "info string depth 9 score cp 1"},
			Info{Depth: 4, HasDepth: true, CP: 50, HasScore: true, Bound: "lowerbound"}},
		{[]string{"info depth x score cp y", "info nodes 5"}, Info{Nodes: 5}},
		{[]string{"info depth 2 pv depth 7"}, Info{Depth: 2, HasDepth: true, PV: []string{"depth", "7"}}},
		{[]string{"info multipv 2 depth 6 score cp -7 pv b1"}, Info{MultiPV: 2, Depth: 6, HasDepth: true, CP: -7, HasScore: true, PV: []string{"b1"}}},
		{[]string{"info score", "info score cp", "info nodes -4"}, Info{}},
		{[]string{"info depth 12 score cp 35 wdl 520 300 180 nodes 7 pv a1"},
			Info{Depth: 12, HasDepth: true, CP: 35, HasScore: true, WDL: [3]int{520, 300, 180}, HasWDL: true, Nodes: 7, PV: []string{"a1"}}},
		{[]string{"info depth 9 score mate 3 lowerbound wdl 1000 0 0"},
			Info{Depth: 9, HasDepth: true, Mate: 3, IsMate: true, HasScore: true, Bound: "lowerbound", WDL: [3]int{1000, 0, 0}, HasWDL: true}},
		{[]string{"info depth 7 score cp -20 wdl 100 300 600 upperbound nodes 3"},
			Info{Depth: 7, HasDepth: true, CP: -20, HasScore: true, Bound: "upperbound", WDL: [3]int{100, 300, 600}, HasWDL: true, Nodes: 3}},
		// A later score without wdl drops the earlier one; bad or short
		// triples are skipped.
		{[]string{"info depth 1 score cp 5 wdl 400 300 300", "info depth 2 score cp 6"},
			Info{Depth: 2, HasDepth: true, CP: 6, HasScore: true}},
		{[]string{"info depth 1 score cp 5 wdl 400 x 300", "info wdl 1 2", "info wdl 2000 0 0"},
			Info{Depth: 1, HasDepth: true, CP: 5, HasScore: true}},
	}
	for _, tc := range tests {
		var e Info
		for _, l := range tc.lines {
			e.Parse(l)
		}
		if !reflect.DeepEqual(e, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.lines, e, tc.want)
		}
	}
}

func TestParseDeclared(t *testing.T) {
	tests := []struct {
		line string
		want Declared
		ok   bool
	}{
		{"option name Hash type spin default 16 min 1 max 1024", Declared{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 1024}, true},
		{"option name Clear Hash type button", Declared{Name: "Clear Hash", Type: "button"}, true},
		{"option name UCI_Variant type combo default katro var katro var hoyito3", Declared{Name: "UCI_Variant", Type: "combo", Default: "katro", Vars: []string{"katro", "hoyito3"}}, true},
		{"option name MultiPV type spin default 1 min 1 max 8", Declared{Name: "MultiPV", Type: "spin", Default: "1", Min: 1, Max: 8}, true},
		{"option name X", Declared{}, false},
		{"id name Sower", Declared{}, false},
	}
	for _, tc := range tests {
		got, ok := ParseDeclared(tc.line)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseDeclared(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestGoCommand(t *testing.T) {
	tests := []struct {
		req  Go
		want string
	}{
		{Go{Clock: [2]time.Duration{10 * time.Second, 9500 * time.Millisecond}, Inc: [2]time.Duration{100 * time.Millisecond, 100 * time.Millisecond}, HasClock: [2]bool{true, true}},
			"go wtime 10000 btime 9500 winc 100 binc 100"},
		{Go{Clock: [2]time.Duration{1: 3 * time.Second}, HasClock: [2]bool{1: true}}, "go btime 3000 binc 0"},
		{Go{MoveTime: 250 * time.Millisecond}, "go movetime 250"},
		{Go{Nodes: 5000, Depth: 3}, "go nodes 5000 depth 3"},
		{Go{Depth: 2, Clock: [2]time.Duration{0: time.Second}, HasClock: [2]bool{0: true}}, "go wtime 1000 winc 0 depth 2"},
		{Go{Infinite: true}, "go infinite"},
	}
	for _, tc := range tests {
		if got := tc.req.Command(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestOptionCommand(t *testing.T) {
	if got := (Option{Name: "Move Overhead", Value: "20"}).Command(); got != "setoption name Move Overhead value 20" {
		t.Errorf("got %q", got)
	}
	if got := (Option{Name: "Clear Hash"}).Command(); got != "setoption name Clear Hash" {
		t.Errorf("got %q", got)
	}
}

func TestPositionCommand(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(v.Start())
	if got := PositionCommand(g); got != "position startpos" {
		t.Errorf("got %q", got)
	}
	// a1 c2 a2: North's c2 captures and North moves again (rule book 6).
	ms, _ := v.ParseMoves("a1 c2 a2")
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	if got, want := PositionCommand(g), "position startpos moves a1 c2 a2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	g2 := board.NewGame(g.Position())
	if got, want := PositionCommand(g2), "position fen "+g.Position().String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEngine(t *testing.T) {
	bin := clienttest.BuildFake(t)
	ctx := context.Background()
	katro, _ := board.New(board.NameKatro)
	start := func(t *testing.T, args ...string) *Engine {
		e, f := Start(ctx, Spec{Name: "fake", Command: append([]string{bin}, args...)}, 5*time.Second, nil)
		if f != nil {
			t.Fatalf("Start: %v", f)
		}
		t.Cleanup(func() { e.Close(QuitGrace) })
		return e
	}
	t.Run("good", func(t *testing.T) {
		e := start(t)
		if e.ID() != "fake" || e.Name() != "fake" || len(e.Declared()) == 0 {
			t.Errorf("ID %q, name %q, options %v", e.ID(), e.Name(), e.Declared())
		}
		if d, ok := e.HasOption("uci_variant"); !ok || d.Type != "combo" {
			t.Errorf("UCI_Variant option: %+v %v", d, ok)
		}
		if f := e.NewGame(ctx, []Option{{Name: "UCI_Variant", Value: "katro"}}); f != nil {
			t.Fatal(f)
		}
		g := board.NewGame(katro.Start())
		var infos int
		r, f := e.Think(ctx, g, Go{Depth: 1, Wait: 5 * time.Second, Each: func(string) { infos++ }})
		if f != nil {
			t.Fatal(f)
		}
		m, err := katro.ParseMove(r.Move)
		if err != nil || g.Play(m) != nil {
			t.Errorf("bestmove %q is not legal", r.Move)
		}
		if infos == 0 || !r.Info.HasScore {
			t.Errorf("no info seen: %d lines, %+v", infos, r.Info)
		}
	})
	t.Run("wdl", func(t *testing.T) {
		// Off by default: scores without wdl; on: every score with it.
		e := start(t, "-wdl")
		if d, ok := e.HasOption("UCI_ShowWDL"); !ok || d.Type != "check" || d.Default != "false" {
			t.Fatalf("UCI_ShowWDL option: %+v %v", d, ok)
		}
		if f := e.NewGame(ctx, []Option{{Name: "UCI_Variant", Value: "katro"}}); f != nil {
			t.Fatal(f)
		}
		g := board.NewGame(katro.Start())
		r, f := e.Think(ctx, g, Go{Depth: 1, Wait: 5 * time.Second})
		if f != nil {
			t.Fatal(f)
		}
		if !r.Info.HasScore || r.Info.HasWDL {
			t.Errorf("UCI_ShowWDL off: info %+v, want a score without wdl", r.Info)
		}
		if f := e.SetOptions([]Option{{Name: "UCI_ShowWDL", Value: "true"}}); f != nil {
			t.Fatal(f)
		}
		var lines []string
		r, f = e.Think(ctx, g, Go{Depth: 1, Wait: 5 * time.Second, Each: func(l string) { lines = append(lines, l) }})
		if f != nil {
			t.Fatal(f)
		}
		w := r.Info.WDL
		if !r.Info.HasWDL || w[0]+w[1]+w[2] != 1000 {
			t.Errorf("UCI_ShowWDL on: info %+v from %q, want wdl summing to 1000", r.Info, lines)
		}
	})
	t.Run("infinite until stop", func(t *testing.T) {
		e := start(t)
		stop := make(chan struct{})
		time.AfterFunc(50*time.Millisecond, func() { close(stop) })
		g := board.NewGame(katro.Start())
		r, f := e.Think(ctx, g, Go{Infinite: true, Stop: stop})
		if f != nil {
			t.Fatal(f)
		}
		select {
		case <-stop:
		default:
			t.Errorf("answered %q after %v, before stop", r.Move, r.Elapsed)
		}
		if r.Move == "" {
			t.Error("no move after stop")
		}
	})
	faults := []struct {
		name string
		args []string
		req  Go
		kind Kind
		say  string
	}{
		{"crash", []string{"-mode", "crash"}, Go{Depth: 1, Wait: 5 * time.Second}, Crash, "exited"},
		{"hang timed", []string{"-mode", "hang"}, Go{MoveTime: 10 * time.Millisecond, Wait: 100 * time.Millisecond, Timed: true}, TimeOut, "no bestmove within 100ms"},
		{"hang untimed", []string{"-mode", "hang"}, Go{Depth: 1, Wait: 100 * time.Millisecond}, NoAnswer, "no bestmove"},
	}
	for _, tc := range faults {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, tc.args...)
			_, f := e.Think(ctx, board.NewGame(katro.Start()), tc.req)
			if f == nil || f.Kind != tc.kind || !strings.Contains(f.Error(), tc.say) {
				t.Errorf("fault %v (%v), want %v saying %q", f, kindOf(f), tc.kind, tc.say)
			}
		})
	}
	t.Run("aborted", func(t *testing.T) {
		e := start(t, "-mode", "hang")
		c, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
		defer cancel()
		if _, f := e.Think(c, board.NewGame(katro.Start()), Go{Depth: 1, Wait: 5 * time.Second}); f == nil || f.Kind != Aborted {
			t.Errorf("fault %v, want aborted", f)
		}
	})
	t.Run("no handshake", func(t *testing.T) {
		_, f := Start(ctx, Spec{Name: "x", Command: []string{bin, "-mode", "nouci"}}, 100*time.Millisecond, nil)
		if f == nil || f.Kind != NoAnswer {
			t.Errorf("fault %v, want no answer", f)
		}
	})
	t.Run("missing program", func(t *testing.T) {
		_, f := Start(ctx, Spec{Name: "x", Command: []string{filepath.Join(t.TempDir(), "none")}}, time.Second, nil)
		if f == nil || f.Kind != Crash {
			t.Errorf("fault %v, want crash", f)
		}
	})
}

func kindOf(f *Fault) Kind {
	if f == nil {
		return 0
	}
	return f.Kind
}

func TestParseBestMove(t *testing.T) {
	for _, tc := range []struct{ line, move, ponder string }{
		{"bestmove c1", "c1", ""},
		{"bestmove c1 ponder f6", "c1", "f6"},
		{"bestmove  pass   ponder   a1 ", "pass", "a1"},
		{"bestmove (none)", "(none)", ""},
		{"bestmove", "", ""},
		{"bestmove c1 ponder", "c1", ""},
		{"bestmove c1 draw f6", "c1", ""},
	} {
		if m, p := parseBestMove(tc.line); m != tc.move || p != tc.ponder {
			t.Errorf("%q: %q, %q; want %q, %q", tc.line, m, p, tc.move, tc.ponder)
		}
	}
}
