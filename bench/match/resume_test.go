package match

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// builtinMatch is a match of the built-in players, whose games a seed
// decides: played twice, it plays the same games.
func builtinMatch(t *testing.T, name string, games int) Config {
	return Config{
		Variant: variant(t, name), Games: games, Seed: 3, RandomPlies: 4,
		Engines: [2]EngineSpec{builtin("random"), builtin("greedy")},
	}
}

// sameGame reports whether two records are the same game (the date and
// the time each move took aside).
func sameGame(a, b record.GameRecord) bool {
	a.Date, b.Date = "", ""
	a.Moves, b.Moves = slices.Clone(a.Moves), slices.Clone(b.Moves)
	for _, ms := range [][]record.MoveRecord{a.Moves, b.Moves} {
		for i := range ms {
			ms[i].MS = 0
		}
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// A resumed match plays exactly the games its played records lack (the
// lone game of a pair included), writes only those, and ends with the
// summary of the match played at once.
func TestResume(t *testing.T) {
	t.Parallel()
	whole, all, _ := run(t, builtinMatch(t, board.NameKatro4x4, 9))
	byGame := map[int]record.GameRecord{}
	for _, r := range all {
		byGame[r.Game] = r
	}
	for _, played := range [][]int{{}, {1}, {1, 2, 3}, {2, 5, 6, 9}, {9, 8, 7, 6, 5, 4, 3, 2, 1}} {
		t.Run(fmt.Sprint(played), func(t *testing.T) {
			cfg := builtinMatch(t, board.NameKatro4x4, 9)
			cfg.Concurrency = 2
			for _, g := range played {
				cfg.Played = append(cfg.Played, byGame[g])
			}
			var js, progress bytes.Buffer
			cfg.JSON, cfg.Progress = &js, &progress
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			recs := decode(t, js.Bytes())
			if len(recs)+len(played) != 9 {
				t.Fatalf("%d games written after %d played before, want %d", len(recs), len(played), 9-len(played))
			}
			for _, r := range recs {
				if slices.Contains(played, r.Game) {
					t.Errorf("game %d played again", r.Game)
				}
				if !sameGame(r, byGame[r.Game]) {
					t.Errorf("game %d differs from the one the whole match played", r.Game)
				}
			}
			if sum.Score != whole.Score || sum.Pairs != whole.Pairs || sum.AsSouth != whole.AsSouth {
				t.Errorf("summary %+v %v, want %+v %v", sum.Score, sum.Pairs, whole.Score, whole.Pairs)
			}
			if len(played) > 0 && !strings.Contains(progress.String(), fmt.Sprintf("Resuming: %d of 9 games played before", len(played))) {
				t.Errorf("progress:\n%s", progress.String())
			}
		})
	}
}

// A record that is not a game of this match is refused, naming the game
// and what differs.
func TestResumeRefuses(t *testing.T) {
	t.Parallel()
	_, all, _ := run(t, builtinMatch(t, board.NameKatro4x4, 4))
	edit := func(f func(r *record.GameRecord)) []record.GameRecord {
		recs := slices.Clone(all)
		for i := range recs {
			recs[i].Options = map[string]string{}
			for k, v := range all[i].Options {
				recs[i].Options[k] = v
			}
		}
		f(&recs[1])
		return recs
	}
	for _, tc := range []struct {
		name   string
		played []record.GameRecord
		want   string
	}{
		{"twice", append(slices.Clone(all), all[2]), "game 3 is recorded twice"},
		{"beyond", edit(func(r *record.GameRecord) { r.Game = 5 }), "game 5 is recorded, but this match has 4 games (--games)"},
		{"zero", edit(func(r *record.GameRecord) { r.Game = 0 }), "game 0 is recorded"},
		{"start", edit(func(r *record.GameRecord) { r.Start = all[2].Start }), "game 2 was played in another match: start"},
		{"names", edit(func(r *record.GameRecord) { r.South, r.North = r.North, r.South }), "game 2 was played in another match: South"},
		{"side", edit(func(r *record.GameRecord) { r.Engine1 = "south" }), "engine1's side"},
		{"limit", edit(func(r *record.GameRecord) { r.SouthLimit = "depth=3" }), "South's limit \"depth=3\" recorded"},
		{"rules", edit(func(r *record.GameRecord) { r.Options["NoCaptureLimit"] = "100" }), "rule options \"NoCaptureLimit=100\" recorded"},
		{"game", edit(func(r *record.GameRecord) { r.Variant = board.NameKatro }), "--game \"katro\" recorded"},
		{"result", edit(func(r *record.GameRecord) { r.Result = "2-0" }), "game 2: result \"2-0\""},
		{"forfeit", edit(func(r *record.GameRecord) { r.Termination, r.Loser = record.TimeForfeit, "" }), "a time forfeit with loser \"\""},
		{"forfeit drawn", edit(func(r *record.GameRecord) {
			r.Termination, r.Loser, r.Result, r.Winner = record.Crash, "south", "1/2-1/2", "draw"
		}), "a crash with loser \"south\" and winner \"draw\""},
		{"termination", edit(func(r *record.GameRecord) { r.Termination = "resigned" }), "termination \"resigned\""},
	} {
		cfg := builtinMatch(t, board.NameKatro4x4, 4)
		cfg.Played = tc.played
		err := cfg.CheckPlayed()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%s: Run accepts the played games", tc.name)
		}
	}
}

// When the SPRT decided on the games played before, none is played.
func TestResumeDecided(t *testing.T) {
	t.Parallel()
	cfg := builtinMatch(t, board.NameKatro4x4, 400)
	cfg.SPRT = &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	first, recs, _ := run(t, cfg)
	if first.Decision == Continue {
		t.Fatal("the SPRT did not decide")
	}
	cfg.Played = recs
	var js, progress bytes.Buffer
	cfg.JSON, cfg.Progress = &js, &progress
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if js.Len() > 0 || sum.Decision != first.Decision || sum.Score != first.Score {
		t.Errorf("resumed: %d bytes written, decision %v, score %+v; want none, %v, %+v", js.Len(), sum.Decision, sum.Score, first.Decision, first.Score)
	}
	if !strings.Contains(progress.String(), "The SPRT decided on the games played before") {
		t.Errorf("progress:\n%s", progress.String())
	}
}

// A traditional match resumes from its first games, and the last four go
// where the games played before sent them.
func TestResumeTraditional(t *testing.T) {
	t.Parallel()
	_, all, _ := run(t, builtinMatch(t, board.NameHoyito3, 8))
	var trad []record.GameRecord
	cfg := builtinMatch(t, board.NameHoyito3, 8)
	cfg.Traditional = true
	_, trad, _ = run(t, cfg)
	if slices.EqualFunc(all, trad, sameGame) {
		t.Fatal("the traditional match plays the games of the other")
	}
	cfg.Played = trad[:5]
	var js bytes.Buffer
	cfg.JSON = &js
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	rest := decode(t, js.Bytes())
	if !slices.EqualFunc(rest, trad[5:], sameGame) {
		t.Errorf("resumed after 5 games: the games differ from the whole match's")
	}
	cfg.Played = []record.GameRecord{trad[0], trad[2]}
	if err := cfg.CheckPlayed(); err == nil || !strings.Contains(err.Error(), "game 3 is recorded, game 2 is not") {
		t.Errorf("games 1 and 3: %v", err)
	}
}

// The SPRT is judged on all the games played before at once, whatever
// their order: resuming a match played without a test, with one, counts
// every game, and its log-likelihood ratio is that of all the pairs.
func TestResumeSPRTOnAll(t *testing.T) {
	t.Parallel()
	_, recs, _ := run(t, builtinMatch(t, board.NameKatro4x4, 200))
	slices.Reverse(recs)
	cfg := builtinMatch(t, board.NameKatro4x4, 200)
	cfg.SPRT = &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	cfg.Played = recs
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Score.Games() != 200 || sum.Pairs.Pairs() != 100 {
		t.Errorf("%d games and %d pairs counted of 200 and 100", sum.Score.Games(), sum.Pairs.Pairs())
	}
	if want := cfg.SPRT.LLR(sum.Pairs); sum.LLR != want || sum.Decision != cfg.SPRT.Decide(want) {
		t.Errorf("llr %g, decision %v; want %g, %v", sum.LLR, sum.Decision, want, cfg.SPRT.Decide(want))
	}
}
