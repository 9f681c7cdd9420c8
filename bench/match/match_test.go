package match

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

func variant(t *testing.T, name string) *board.Variant {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func builtin(name string) EngineSpec {
	e, err := ParseEngine(BuiltinPrefix + name)
	if err != nil {
		panic(err)
	}
	return e
}

// fake describes the fake engine with arguments.
func fake(bin, name string, lim timecontrol.Limit, args ...string) EngineSpec {
	return EngineSpec{Name: name, Command: append([]string{bin}, args...), Limit: lim}
}

// run plays a match and returns the summary, the records and the report.
func run(t *testing.T, cfg Config) (Summary, []record.GameRecord, string) {
	t.Helper()
	var js, report, progress bytes.Buffer
	cfg.JSON, cfg.Report, cfg.Progress = &js, &report, &progress
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v\nprogress:\n%s", err, progress.String())
	}
	recs := decode(t, js.Bytes())
	if got, want := len(recs), sum.Score.Games(); got != want {
		t.Errorf("%d records for %d games", got, want)
	}
	if n := strings.Count(progress.String(), "Finished game "); n != len(recs) {
		t.Errorf("%d progress lines for %d games", n, len(recs))
	}
	for i := range recs {
		replay(t, &recs[i])
	}
	return sum, recs, report.String()
}

func decode(t *testing.T, b []byte) []record.GameRecord {
	t.Helper()
	var recs []record.GameRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var r record.GameRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

// replay plays a record's moves from its start position with the board
// package and checks the final position and, for a game ended by the
// rules, the result.
func replay(t *testing.T, r *record.GameRecord) {
	t.Helper()
	g, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	final := g.Position()
	if final.String() != r.Final {
		t.Errorf("game %d: final %q, replay gives %q", r.Game, r.Final, final.String())
	}
	st := g.Status()
	if r.Termination == record.Normal {
		if !st.Over() || st.Result.String() != r.Winner || st.Reason.String() != r.Reason {
			t.Errorf("game %d: recorded %s (%s), replay gives %s (%s)", r.Game, r.Winner, r.Reason, st.Result, st.Reason)
		}
	} else if st.Over() {
		t.Errorf("game %d: forfeit (%s) after the game was over", r.Game, r.Termination)
	}
	if (r.Engine1 == "south") != (r.Game%2 == 1) && r.Pairing == 0 { // a tournament's are numbered through its pairings
		t.Errorf("game %d: engine1 plays %s", r.Game, r.Engine1)
	}
}

func TestBuiltinMatches(t *testing.T) {
	for _, name := range board.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{
				Variant: variant(t, name), Games: 6, Concurrency: 3, Seed: 7, RandomPlies: 2,
				Engines: [2]EngineSpec{builtin("random"), builtin("greedy")},
				SPRT:    &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05},
			}
			var pgn bytes.Buffer
			cfg.PGN = &pgn
			sum, recs, report := run(t, cfg)
			if sum.Score.Games() != 6 || sum.Pairs.Pairs() != 3 {
				t.Errorf("games %d, pairs %d", sum.Score.Games(), sum.Pairs.Pairs())
			}
			if sum.AsSouth.Games() != 3 || sum.AsNorth.Games() != 3 || sum.Sides.Games() != 6 {
				t.Errorf("by side: %+v %+v %+v", sum.AsSouth, sum.AsNorth, sum.Sides)
			}
			starts := map[int]string{}
			for _, r := range recs {
				if r.Termination != record.Normal {
					t.Errorf("game %d: %s %s", r.Game, r.Termination, r.Reason)
				}
				if s, ok := starts[(r.Game-1)/2]; ok && s != r.Start {
					t.Errorf("game %d starts at %q, its pair at %q", r.Game, r.Start, s)
				}
				starts[(r.Game-1)/2] = r.Start
				if r.SouthLimit != "none" || r.NorthLimit != "none" {
					t.Errorf("built-in limits %q %q", r.SouthLimit, r.NorthLimit)
				}
			}
			for _, want := range []string{"Score of random vs greedy: ", "...      random playing South: ", "Elo difference: ", "Ptnml(0-2): ", "SPRT: llr "} {
				if !strings.Contains(report, want) {
					t.Errorf("report lacks %q:\n%s", want, report)
				}
			}
			if n := strings.Count(pgn.String(), "[Event "); n != 6 {
				t.Errorf("%d PGN games", n)
			}
			if !strings.Contains(pgn.String(), `[Variant "`+name+`"]`) {
				t.Errorf("PGN lacks the variant tag")
			}
		})
	}
}

// TestReproducible plays the same match twice: the seed fixes every move.
func TestReproducible(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 4, Concurrency: 2, Seed: 3, RandomPlies: 4,
		Engines: [2]EngineSpec{builtin("greedy"), builtin("random")},
	}
	moves := func(recs []record.GameRecord) map[int]string {
		out := map[int]string{}
		for _, r := range recs {
			var ms []string
			for _, m := range r.Moves {
				ms = append(ms, m.Move)
			}
			out[r.Game] = r.Start + " " + strings.Join(ms, " ")
		}
		return out
	}
	_, a, _ := run(t, cfg)
	_, b, _ := run(t, cfg)
	ma, mb := moves(a), moves(b)
	for g, s := range ma {
		if mb[g] != s {
			t.Errorf("game %d differs:\n%s\n%s", g, s, mb[g])
		}
	}
}

func TestReportEvery(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Variant: variant(t, board.NameKatro6x3), Games: 6, ReportEvery: 2,
		Engines: [2]EngineSpec{builtin("greedy"), builtin("random")},
	}
	_, _, report := run(t, cfg)
	// After games 2 and 4, and the final report after game 6.
	if n := strings.Count(report, "Score of greedy vs random: "); n != 3 {
		t.Errorf("%d reports, want 3:\n%s", n, report)
	}
}

// TestForfeits plays faulty engines: each loses every game with the right
// termination, is restarted for its next game, and the match finishes.
func TestForfeits(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	mt := timecontrol.Limit{MoveTime: 100 * time.Millisecond}
	slow := timecontrol.Limit{MoveTime: 2 * time.Second} // no time forfeit on a busy machine
	tests := []struct {
		name    string
		game    string
		faulty  EngineSpec
		timeout time.Duration
		term    record.Termination
		reason  string
		plies   int // plies the faulty engine plays in each game
	}{
		{"illegal", board.NameKatro, fake(bin, "illegal", slow, "-mode", "illegal", "-after", "3"), 0, record.IllegalMove, "played ", 2},
		{"garbage", board.NameHoyito3, fake(bin, "garbage", slow, "-mode", "garbage"), 0, record.IllegalMove, `played "xyz"`, 0},
		{"none", board.NameKatro4x4, fake(bin, "none", slow, "-mode", "none", "-after", "2"), 0, record.IllegalMove, "(none)", 1},
		{"crash", board.NameKatro, fake(bin, "crash", slow, "-mode", "crash", "-after", "3"), 0, record.Crash, "exited", 2},
		{"hang clock", board.NameKatro4x6, fake(bin, "hang", timecontrol.Limit{Base: 300 * time.Millisecond}, "-mode", "hang", "-after", "2"), 0, record.TimeForfeit, "no bestmove", 1},
		// The timeout also bounds the handshake: generous enough for a busy
		// machine running the race detector.
		{"hang depth", board.NameKatro6x3, fake(bin, "hang", timecontrol.Limit{Depth: 4}, "-mode", "hang", "-after", "2"), 1500 * time.Millisecond, record.NoAnswer, "no bestmove", 1},
		{"late movetime", board.NameHoyito3, fake(bin, "late", mt, "-mode", "late", "-after", "2", "-delay", "1s"), 0, record.TimeForfeit, "", 1},
		{"late clock", board.NameKatro, fake(bin, "late", timecontrol.Limit{Base: 300 * time.Millisecond, Inc: 10 * time.Millisecond}, "-mode", "late", "-after", "3", "-delay", "1s"), 0, record.TimeForfeit, "", 2},
	}
	for _, tc := range tests {
		for _, faultyFirst := range []bool{true, false} {
			name := tc.name + "/engine2"
			if faultyFirst {
				name = tc.name + "/engine1"
			} else if testing.Short() {
				continue // one seat is enough for a short run
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				// The good engine answers at once; its long move time keeps a
				// busy machine from making it lose on time.
				good := fake(bin, "good", timecontrol.Limit{MoveTime: 2 * time.Second})
				engines := [2]EngineSpec{tc.faulty, good}
				slot := 0
				if !faultyFirst {
					engines = [2]EngineSpec{good, tc.faulty}
					slot = 1
				}
				cfg := Config{
					// One game at a time: the second game needs a restarted engine.
					Variant: variant(t, tc.game), Games: 2, Concurrency: 1, Engines: engines,
					TimeMargin: 150 * time.Millisecond, Timeout: tc.timeout,
				}
				if tc.timeout == 0 {
					cfg.Timeout = 5 * time.Second
				}
				start := time.Now()
				sum, recs, report := run(t, cfg)
				if len(recs) != 2 {
					t.Fatalf("%d games", len(recs))
				}
				if got := sum.Forfeits[slot][tc.term]; got != 2 {
					t.Errorf("forfeits %v, want 2 %s", sum.Forfeits, tc.term)
				}
				wantScore := WDL{Wins: 2}
				if faultyFirst {
					wantScore = WDL{Losses: 2}
				}
				if sum.Score != wantScore {
					t.Errorf("score %+v, want %+v", sum.Score, wantScore)
				}
				for _, r := range recs {
					loser := r.South
					if r.Loser == "north" {
						loser = r.North
					}
					if r.Termination != tc.term || loser != tc.faulty.Name || !strings.Contains(r.Reason, tc.reason) {
						t.Errorf("game %d: %s lost by %s (%s), want %s by %s (reason with %q)", r.Game, r.Termination, loser, r.Reason, tc.term, tc.faulty.Name, tc.reason)
					}
					n := 0
					for _, m := range r.Moves {
						if strings.ToLower(m.Side) == r.Loser[:1] {
							n++
						}
					}
					if n != tc.plies {
						t.Errorf("game %d: the faulty engine played %d plies, want %d (restarted for each game)", r.Game, n, tc.plies)
					}
				}
				if !strings.Contains(report, "Forfeits: "+tc.faulty.Name+" 2 "+string(tc.term)) {
					t.Errorf("report:\n%s", report)
				}
				if d := time.Since(start); d > 20*time.Second { // a hang, not a slow machine
					t.Errorf("the match took %v", d)
				}
			})
		}
	}
}

// TestRecordedEval checks that each move keeps the score and depth of the
// engine's last info line before bestmove.
func TestRecordedEval(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 2,
		Engines: [2]EngineSpec{fake(bin, "a", timecontrol.Limit{Depth: 3}), builtin("random")},
	}
	_, recs, _ := run(t, cfg)
	for _, r := range recs {
		last := 0
		for _, m := range r.Moves {
			if strings.ToLower(m.Side) != r.Engine1[:1] {
				if m.CP != nil || m.Depth != nil {
					t.Errorf("game %d: the built-in player has a score", r.Game)
				}
				continue
			}
			// The fake reports depth 3 and cp 10·n at its n-th search
			// (counted over the life of its process).
			if m.Depth == nil || *m.Depth != 3 || m.CP == nil || *m.CP != last+10 && last != 0 {
				t.Errorf("game %d move %s: depth %v cp %v after cp %d", r.Game, m.Move, m.Depth, m.CP, last)
				continue
			}
			last = *m.CP
		}
		if last == 0 {
			t.Errorf("game %d: no scores", r.Game)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	katro := variant(t, board.NameKatro)
	hoyito := variant(t, board.NameHoyito3)
	good := fake(bin, "good", timecontrol.Limit{Depth: 1})
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"ok", Config{Variant: katro, Games: 2, Engines: [2]EngineSpec{good, builtin("random")}}, ""},
		{"missing binary", Config{Variant: katro, Games: 2, Engines: [2]EngineSpec{fake(filepath.Join(t.TempDir(), "nothing"), "x", timecontrol.Limit{Depth: 1}), good}}, "engine1 (x): "},
		{"no handshake", Config{Variant: katro, Games: 2, Timeout: 200 * time.Millisecond, Engines: [2]EngineSpec{good, fake(bin, "mute", timecontrol.Limit{Depth: 1}, "-mode", "nouci")}}, "engine2 (mute): no uciok"},
		{"no games", Config{Variant: katro, Engines: [2]EngineSpec{good, good}}, "games 0"},
		{"no limit", Config{Variant: katro, Games: 2, Engines: [2]EngineSpec{good, fake(bin, "free", timecontrol.Limit{})}}, "no time control"},
		{"rule option", Config{Variant: katro, Games: 2, Engines: [2]EngineSpec{good, {Name: "o", Command: []string{bin}, Limit: timecontrol.Limit{Depth: 1}, Options: []Option{{Name: "uci_variant", Value: "katro"}}}}}, "set by the match"},
		{"builtin options", Config{Variant: katro, Games: 2, Engines: [2]EngineSpec{good, {Name: "r", Builtin: "random", Options: []Option{{Name: "Hash", Value: "1"}}}}}, "takes no options"},
		{"traditional katro", Config{Variant: katro, Games: 2, Traditional: true, Engines: [2]EngineSpec{good, good}}, "hoyito3"},
		{"traditional concurrent", Config{Variant: hoyito, Games: 2, Traditional: true, Concurrency: 2, Engines: [2]EngineSpec{good, good}}, "in sequence"},
		{"bad sprt", Config{Variant: katro, Games: 2, SPRT: &SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, Engines: [2]EngineSpec{good, good}}, "elo1"},
		{"wrong opening", Config{Variant: katro, Games: 2, Openings: []board.Position{hoyito.Start()}, Engines: [2]EngineSpec{good, good}}, "not a katro position"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Check(context.Background())
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Check: %v, want an error with %q", err, tc.want)
			case err != nil && strings.Contains(err.Error(), "\n"):
				t.Errorf("error on several lines: %q", err)
			}
		})
	}
}

// TestSPRTStops plays an engine that always forfeits: the test accepts H0
// and the match stops before its games run out. (Outcomes that never vary
// are weak evidence for the exact likelihood ratio: every pair lost is
// about as likely under H0 as under H1, so it takes some 150 pairs.)
func TestSPRTStops(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	cfg := Config{
		Variant: variant(t, board.NameKatro), Games: 400, Concurrency: 2,
		Engines: [2]EngineSpec{fake(bin, "bad", timecontrol.Limit{Depth: 1}, "-mode", "none"), builtin("greedy")},
		SPRT:    &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05},
	}
	sum, _, report := run(t, cfg)
	if sum.Decision != AcceptH0 {
		t.Errorf("decision %v, want H0", sum.Decision)
	}
	if n := sum.Score.Games(); n >= cfg.Games {
		t.Errorf("%d games played", n)
	}
	if !strings.Contains(report, " - H0 was accepted") {
		t.Errorf("report:\n%s", report)
	}
}

func TestTraditionalMatch(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	trace := filepath.Join(t.TempDir(), "trace")
	cfg := Config{
		Variant: variant(t, board.NameHoyito3), Games: 10, Traditional: true, Seed: 5, RandomPlies: 3,
		Engines: [2]EngineSpec{fake(bin, "fake", timecontrol.Limit{Depth: 1}, "-trace", trace), builtin("random")},
	}
	_, recs, _ := run(t, cfg)
	// The rule: capturer in games 1 and 2; then the previous game's winner
	// gets the last four (as the side it plays now); a draw keeps the
	// previous game's setting with the same player.
	holder := "" // "" = capturer, else the engine that holds the seeds: "1" or "2"
	var sent []string
	for i, r := range recs {
		if r.Game != i+1 {
			t.Fatalf("game %d recorded as %d: not in sequence", i+1, r.Game)
		}
		want := "capturer"
		if holder != "" {
			e1south := r.Engine1 == "south"
			want = "south"
			if (holder == "1") != e1south {
				want = "north"
			}
		}
		if got := r.Options["LastFour"]; got != want {
			t.Errorf("game %d: LastFour %s, want %s", r.Game, got, want)
		}
		if len(sent) == 0 || sent[len(sent)-1] != want {
			sent = append(sent, want)
		}
		if r.Game >= 2 && r.Winner != "draw" {
			holder = "2"
			if r.Winner == r.Engine1 {
				holder = "1"
			}
		}
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "setoption name LastFour value "); ok {
			got = append(got, v)
		}
	}
	if strings.Join(got, " ") != strings.Join(sent, " ") {
		t.Errorf("LastFour sent %q, want %q", got, sent)
	}
}

func TestOpenings(t *testing.T) {
	t.Parallel()
	v := variant(t, board.NameKatro4x4)
	g := board.NewGame(v.Start())
	ms, _ := v.ParseMoves("a1 d4")
	g.PlayAll(ms)
	second := g.Position()
	text := "# two openings\n\n" + v.Start().String() + "\n  " + second.String() + "  \n"
	ops, err := ReadOpenings(strings.NewReader(text), v)
	if err != nil || len(ops) != 2 {
		t.Fatalf("ReadOpenings: %d, %v", len(ops), err)
	}
	// A byte order mark and comments after a position.
	for _, text := range []string{
		"\ufeff" + v.Start().String() + "\n" + second.String() + "\n",
		"\ufeff# two openings\n" + v.Start().String() + " # the start\n" + second.String() + "\t#after a1 d4\n",
	} {
		got, err := ReadOpenings(strings.NewReader(text), v)
		if err != nil || len(got) != 2 || got[0] != ops[0] || got[1] != ops[1] {
			t.Errorf("ReadOpenings(%q): %d positions, %v; want the same two", text, len(got), err)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"# nothing\n", "no positions"},
		{v.Start().String() + "\n1,2,3 S 0\n", "line 2: "},
		// South to move with no seeds: over (and not a valid Katro position).
		{"2,2,2,2/2,2,2,2/0,0,0,0/0,0,0,0 N 0\n", "line 1: "},
	} {
		if _, err := ReadOpenings(strings.NewReader(tc.text), v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.text, err, tc.want)
		}
	}
	cfg := Config{
		Variant: v, Games: 6, Openings: ops,
		Engines: [2]EngineSpec{builtin("greedy"), builtin("random")},
	}
	_, recs, _ := run(t, cfg)
	for _, r := range recs {
		want := ops[((r.Game-1)/2)%2].String()
		if r.Start != want {
			t.Errorf("game %d starts at %q, want %q", r.Game, r.Start, want)
		}
	}
}

// TestStop cancels a match while an engine thinks: Run returns at once with
// the games finished so far.
func TestStop(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	cfg := Config{
		Variant: variant(t, board.NameKatro), Games: 4, Timeout: time.Minute,
		Engines: [2]EngineSpec{fake(bin, "hang", timecontrol.Limit{Depth: 3}, "-mode", "hang"), builtin("random")},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	sum, err := Run(ctx, cfg)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run: %v, want the context's error", err)
	}
	if sum.Score.Games() != 0 {
		t.Errorf("%d games counted", sum.Score.Games())
	}
	if d := time.Since(start); d > 20*time.Second { // a hang, not a slow machine
		t.Errorf("stopping took %v", d)
	}
}
