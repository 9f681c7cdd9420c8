package match

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

func TestPairings(t *testing.T) {
	tests := []struct {
		f    Format
		n    int
		want [][2]int
	}{
		{RoundRobin, 2, [][2]int{{0, 1}}},
		{RoundRobin, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
		{Gauntlet, 2, [][2]int{{0, 1}}},
		{Gauntlet, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}}},
	}
	for _, tc := range tests {
		if got := tc.f.Pairings(tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s of %d: %v, want %v", tc.f, tc.n, got, tc.want)
		}
	}
	for n := 2; n <= 9; n++ {
		if got := len(RoundRobin.Pairings(n)); got != n*(n-1)/2 {
			t.Errorf("round robin of %d: %d pairings", n, got)
		}
		if got := len(Gauntlet.Pairings(n)); got != n-1 {
			t.Errorf("gauntlet of %d: %d pairings", n, got)
		}
	}
}

// named returns a built-in player under a name of its own.
func named(kind, name string) EngineSpec {
	e := builtin(kind)
	e.Name = name
	return e
}

// builtinTournament is a tournament of built-in players.
func builtinTournament(t *testing.T, f Format, games int) Tournament {
	return Tournament{
		Config:  Config{Variant: variant(t, board.NameKatro4x4), Games: games, Seed: 5, RandomPlies: 2, Concurrency: 3},
		Engines: []EngineSpec{named("greedy", "g1"), named("random", "r1"), named("greedy", "g2"), named("random", "r2")},
		Format:  f, Anchor: -1,
	}
}

// runTournament runs t and returns its standings, records (in the order
// written), report and progress.
func runTournament(t *testing.T, tn Tournament) (Standings, []record.GameRecord, string, string) {
	t.Helper()
	var js, report, progress bytes.Buffer
	tn.Config.JSON, tn.Config.Report, tn.Config.Progress = &js, &report, &progress
	st, err := RunTournament(context.Background(), tn)
	if err != nil {
		t.Fatalf("RunTournament: %v\n%s", err, progress.String())
	}
	recs := decode(t, js.Bytes())
	for i := range recs {
		replay(t, &recs[i])
	}
	return st, recs, report.String(), progress.String()
}

// TestTournamentPairings plays a round robin and a gauntlet and checks
// the pairings, the games of each, their numbers and colours, and the
// counts.
func TestTournamentPairings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f     Format
		games int
	}{{RoundRobin, 4}, {Gauntlet, 3}} {
		t.Run(tc.f.String(), func(t *testing.T) {
			tn := builtinTournament(t, tc.f, tc.games)
			pairings := tc.f.Pairings(4)
			st, recs, report, progress := runTournament(t, tn)
			total := len(pairings) * tc.games
			if st.Games != total || st.Total != total || len(recs) != total {
				t.Fatalf("%d games counted, %d in all, %d records; want %d", st.Games, st.Total, len(recs), total)
			}
			if n := strings.Count(progress, "Finished game "); n != total {
				t.Errorf("%d progress lines, want %d", n, total)
			}
			byNumber := map[int]record.GameRecord{}
			perPairing := make([]int, len(pairings))
			for _, r := range recs {
				if _, dup := byNumber[r.Game]; dup || r.Game < 1 || r.Game > total {
					t.Errorf("game number %d repeated or out of range", r.Game)
				}
				byNumber[r.Game] = r
				if r.Pairing < 1 || r.Pairing > len(pairings) {
					t.Fatalf("game %d: pairing %d", r.Game, r.Pairing)
				}
				perPairing[r.Pairing-1]++
				pair := pairings[r.Pairing-1]
				a, b := tn.Engines[pair[0]].Name, tn.Engines[pair[1]].Name
				first := r.South
				if r.Engine1 == "north" {
					first = r.North
				}
				if first != a || (r.South != b && r.North != b) {
					t.Errorf("game %d of pairing %d: %s vs %s, engine1 %s; want %s and %s, %s first", r.Game, r.Pairing, r.South, r.North, r.Engine1, a, b, a)
				}
			}
			for p, n := range perPairing {
				if n != tc.games || st.Results[p].Score.Games() != tc.games {
					t.Errorf("pairing %d: %d records, %d counted; want %d", p+1, n, st.Results[p].Score.Games(), tc.games)
				}
			}
			// The pairings take turns a pair of games at a time; the two
			// games of a pair start from the same opening, colours
			// swapped.
			n := len(pairings)
			for g := 1; g <= total; g++ {
				r := byNumber[g]
				turn := (g - 1) / (2 * n)
				inTurn := min(2, tc.games-2*turn)
				want := (g-1-2*n*turn)/inTurn + 1
				if r.Pairing != want {
					t.Errorf("game %d: pairing %d, want %d", g, r.Pairing, want)
				}
				if inTurn == 2 && (g-1-2*n*turn)%2 == 0 {
					next := byNumber[g+1]
					if next.Start != r.Start || next.Engine1 == r.Engine1 || next.Pairing != r.Pairing {
						t.Errorf("games %d and %d: not a pair (%s %s, %s %s)", g, g+1, r.Start, r.Engine1, next.Start, next.Engine1)
					}
				}
			}
			for _, want := range []string{
				fmt.Sprintf("Tournament (%s of 4 engines): %d of %d games", tc.f, total, total),
				"Score of g1 vs r1: ", "Rank  Name", "the mean at 0", "Crosstable",
			} {
				if !strings.Contains(report, want) {
					t.Errorf("the report lacks %q:\n%s", want, report)
				}
			}
			if tc.f == Gauntlet && strings.Contains(report, "Score of r1 vs g2") {
				t.Errorf("a gauntlet pairs only the first engine:\n%s", report)
			}
		})
	}
}

// TestTournamentResume checks that a tournament resumed from part of its
// records plays exactly the others, the same games, and ends with the
// standings of the tournament played at once.
func TestTournamentResume(t *testing.T) {
	t.Parallel()
	whole, all, wholeReport, _ := runTournament(t, builtinTournament(t, RoundRobin, 3))
	byGame := map[int]record.GameRecord{}
	for _, r := range all {
		byGame[r.Game] = r
	}
	for _, played := range [][]int{{1}, {1, 2, 3, 7}, {18, 17, 16, 2}} {
		t.Run(fmt.Sprint(played), func(t *testing.T) {
			tn := builtinTournament(t, RoundRobin, 3)
			for _, g := range played {
				tn.Config.Played = append(tn.Config.Played, byGame[g])
			}
			if err := tn.CheckPlayed(); err != nil {
				t.Fatal(err)
			}
			st, recs, report, _ := runTournament(t, tn)
			if len(recs) != len(all)-len(played) {
				t.Errorf("%d games played, want %d", len(recs), len(all)-len(played))
			}
			for _, r := range recs {
				if !sameGame(r, byGame[r.Game]) {
					t.Errorf("game %d differs from the tournament played at once", r.Game)
				}
			}
			if !reflect.DeepEqual(st.Results, whole.Results) || report != wholeReport {
				t.Errorf("standings differ:\n%s\nwant\n%s", report, wholeReport)
			}
		})
	}

	// Records of another tournament are refused by number.
	tn := builtinTournament(t, Gauntlet, 3)
	tn.Config.Played = []record.GameRecord{byGame[7]}
	if err := tn.CheckPlayed(); err == nil || !strings.Contains(err.Error(), "game 7 is recorded as pairing 4's") {
		t.Errorf("a round robin's game in a gauntlet: %v", err)
	}
	tn = builtinTournament(t, RoundRobin, 3)
	other := byGame[2]
	other.Pairing = 3
	tn.Config.Played = []record.GameRecord{other}
	if err := tn.CheckPlayed(); err == nil || !strings.Contains(err.Error(), "game 2 is recorded as pairing 3's; in this tournament it is pairing 1's (g1 vs r1)") {
		t.Errorf("a game of the wrong pairing: %v", err)
	}
	match := byGame[1]
	match.Pairing = 0
	tn.Config.Played = []record.GameRecord{match}
	if err := tn.CheckPlayed(); err == nil || !strings.Contains(err.Error(), "no pairing") {
		t.Errorf("a match's game: %v", err)
	}
	cfg := builtinMatch(t, board.NameKatro4x4, 2)
	cfg.Played = []record.GameRecord{byGame[1]}
	if err := cfg.CheckPlayed(); err == nil || !strings.Contains(err.Error(), "tournament") {
		t.Errorf("a tournament's game in a match: %v", err)
	}
}

func TestTournamentValidate(t *testing.T) {
	v := variant(t, board.NameKatro4x4)
	ok := func() Tournament {
		return Tournament{Config: Config{Variant: v, Games: 2}, Engines: []EngineSpec{named("random", "a"), named("greedy", "b")}, Anchor: -1}
	}
	if tn := ok(); tn.Validate() != nil {
		t.Fatal(tn.Validate())
	}
	for name, tc := range map[string]struct {
		edit func(*Tournament)
		want string
	}{
		"one engine":   {func(tn *Tournament) { tn.Engines = tn.Engines[:1] }, "want at least two"},
		"same names":   {func(tn *Tournament) { tn.Engines[1].Name = "a" }, `name "a" is empty or taken`},
		"sprt":         {func(tn *Tournament) { s := DefaultSPRT(); tn.Config.SPRT = &s }, "no sequential test"},
		"anchor":       {func(tn *Tournament) { tn.Anchor = 2 }, "rating anchor 2"},
		"config pair":  {func(tn *Tournament) { tn.Config.Engines[0] = named("random", "x") }, "not its Config's"},
		"no limit":     {func(tn *Tournament) { tn.Engines[1] = EngineSpec{Name: "p", Command: []string{"p"}} }, "engine p: no time control"},
		"no games":     {func(tn *Tournament) { tn.Config.Games = 0 }, "games 0"},
		"traditional":  {func(tn *Tournament) { tn.Config.Traditional = true }, "two engines"},
		"bad format":   {func(tn *Tournament) { tn.Format = 7 }, "format 7"},
		"empty name":   {func(tn *Tournament) { tn.Engines[0].Name = "" }, "is empty or taken"},
		"unknown kind": {func(tn *Tournament) { tn.Engines[0].Builtin = "perfect" }, "engine a: unknown built-in player"},
	} {
		tn := ok()
		tc.edit(&tn)
		if err := tn.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, tc.want)
		}
	}
}

// TestStandingsReport checks the report of a tournament against a
// small case: the ranks, the crosstable and an engine without games.
func TestStandingsReport(t *testing.T) {
	st := Standings{
		Names: []string{"a", "bb", "c"}, Format: RoundRobin, Pairings: RoundRobin.Pairings(3),
		Results: []Summary{{Score: WDL{Wins: 1, Losses: 2, Draws: 1}}, {}, {}}, Games: 4, Total: 12, Anchor: 1,
	}
	// a scored 1.5 of 4 against bb: −400·log10(2.5/1.5) = −88.7, and
	// ±1.96·(400/ln 10)/√(4·⅜·⅝) = ±351.6 with bb held at 0.
	var b bytes.Buffer
	st.WriteReport(&b)
	want := `Tournament (round robin of 3 engines): 4 of 12 games
Score of a vs bb: 1 - 2 - 1  [0.375] 4
Score of a vs c: 0 - 0 - 0  [0.000] 0
Score of bb vs c: 0 - 0 - 0  [0.000] 0
Rank  Name      Elo     +/-  Games   Score    Draw
   1  bb        0.0     0.0      4   62.5%   25.0%
   2  a       -88.7   351.6      4   37.5%   25.0%
   3  c           -       -      0       -       -
Elo: maximum likelihood, logistic (Bradley-Terry) model, draws half a point; bb at 0; +/- 95%
Crosstable (the row's points against the column's, of the games between them):
      a      bb     c
a     -      1.5/4  0/0
bb    2.5/4  -      0/0
c     0/0    0/0    -
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant\n%s", b.String(), want)
	}
}
