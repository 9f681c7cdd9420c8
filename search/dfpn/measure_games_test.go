package dfpn

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// recordedGame is the part of a sower match record (a JSON line) that
// TestMeasureGames reads.
type recordedGame struct {
	Game        int               `json:"game"`
	Variant     string            `json:"variant"`
	Options     map[string]string `json:"options"`
	Start       string            `json:"start"`
	Winner      string            `json:"winner"`
	Termination string            `json:"termination"`
	Moves       []struct {
		Move string `json:"move"`
	} `json:"moves"`
}

// gameProofs is what TestMeasureGames proved of one game.
type gameProofs struct {
	game    int
	plies   int
	winner  board.Side         // the game's
	proven  map[int]board.Side // the winner of each position proven, by the plies played to it
	horizon int                // plies before the end of the earliest position of the proven run from the end
	nodes   uint64
}

// TestMeasureGames bounds what a prover in play could change in the games
// of a sower match record (SOWER_DFPN_GAMES, JSON lines, Katro): it walks
// each game back from its end, proving each position (one table for the
// game, SOWER_DFPN_HASH MiB, default 256; SOWER_DFPN_NODES nodes for each
// question, default 500,000; the evaluation's favourite asked first) until
// SOWER_DFPN_MISSES positions in a row are unproven (default 2). A
// position proven a win for the side that lost the game is a win thrown
// away later: only there can a prover change a game's result. It reports
// those, the move that threw each win away (the last position proven for
// the loser followed by one proven for the winner or unproven), and the
// horizon (plies before the end of the earliest position of the proven run
// from the end). Games that ended otherwise than by the rules (a forfeit)
// or drawn are skipped and counted; a record of other rule options than
// the default ones is refused. It only reports (SOWER_DFPN_MEASURE=games).
func TestMeasureGames(t *testing.T) {
	if os.Getenv("SOWER_DFPN_MEASURE") != "games" {
		t.Skip("set SOWER_DFPN_MEASURE=games and SOWER_DFPN_GAMES=FILE to measure")
	}
	games := readRecord(t, os.Getenv("SOWER_DFPN_GAMES"))
	budget := uint64(envInt(t, "SOWER_DFPN_NODES", 500_000))
	misses := envInt(t, "SOWER_DFPN_MISSES", 2)
	s, err := New(Config{HashMiB: envInt(t, "SOWER_DFPN_HASH", 256), MaxNodes: budget, Init: InitLookaheadSum, Ties: TiesEval})
	if err != nil {
		t.Fatal(err)
	}
	var all []gameProofs
	thrown, thrownGames, skipped, positions := 0, 0, 0, 0
	var nodes uint64
	for _, rg := range games {
		if rg.Termination != "normal" || (rg.Winner != "south" && rg.Winner != "north") {
			skipped++
			t.Logf("game %d: skipped (termination %q, winner %q)", rg.Game, rg.Termination, rg.Winner)
			continue
		}
		gp := proveGame(t, s, rg, misses)
		positions += len(gp.proven)
		nodes += gp.nodes
		all = append(all, gp)
		var lost []string
		for k := 0; k < gp.plies; k++ {
			w, ok := gp.proven[k]
			if !ok || w == gp.winner {
				continue
			}
			if next, ok := gp.proven[k+1]; !ok || next != w {
				lost = append(lost, fmt.Sprintf("ply %d (%d before the end)", k+1, gp.plies-k))
			}
		}
		if len(lost) > 0 {
			thrownGames++
			thrown += len(lost)
		}
		t.Logf("game %d: %d plies, %s won; proven back to %d plies before the end (%d positions, %d nodes); wins thrown away: %d %s",
			gp.game, gp.plies, gp.winner, gp.horizon, len(gp.proven), gp.nodes, len(lost), strings.Join(lost, ", "))
	}
	hs := make([]int, len(all))
	for i, gp := range all {
		hs[i] = gp.horizon
	}
	sort.Ints(hs)
	if len(hs) > 0 {
		t.Logf("%d games (%d skipped); %d positions proven, %d nodes; horizon median %d plies, quartiles %d and %d (%d to %d); %d wins thrown away in %d games",
			len(all), skipped, positions, nodes, hs[len(hs)/2], hs[len(hs)/4], hs[3*len(hs)/4], hs[0], hs[len(hs)-1], thrown, thrownGames)
	}
}

// readRecord reads the games of a sower match record.
func readRecord(t *testing.T, name string) []recordedGame {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []recordedGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g recordedGame
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// proveGame walks one recorded game back from its end (see
// TestMeasureGames).
func proveGame(t *testing.T, s *Solver, rg recordedGame, misses int) gameProofs {
	t.Helper()
	v, err := board.New(rg.Variant)
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range rg.Options {
		if name != "NoCaptureLimit" || value != strconv.Itoa(board.DefaultRules().NoCaptureLimit) {
			t.Fatalf("game %d: the rule option %s %s: this measurement plays the default rules", rg.Game, name, value)
		}
	}
	start, err := v.ParsePosition(rg.Start)
	if err != nil {
		t.Fatalf("game %d: %v", rg.Game, err)
	}
	var names []string
	for _, m := range rg.Moves {
		names = append(names, m.Move)
	}
	moves, err := v.ParseMoves(strings.Join(names, " "))
	if err != nil {
		t.Fatalf("game %d: %v", rg.Game, err)
	}
	gp := gameProofs{game: rg.Game, plies: len(moves), proven: map[int]board.Side{}}
	gp.winner = board.South
	if rg.Winner == "north" {
		gp.winner = board.North
	}
	s.Clear()
	run, missed := true, 0
	for k := len(moves) - 1; k >= 0 && missed < misses; k-- {
		g := board.NewGame(start)
		if err := g.PlayAll(moves[:k]); err != nil {
			t.Fatalf("game %d: %v", rg.Game, err)
		}
		root := g.Position()
		res, err := s.SolveFirst(context.Background(), root, g.History(), favourite(&root), nil)
		if err != nil {
			t.Fatal(err)
		}
		gp.nodes += res.Nodes
		if res.Outcome != Win && res.Outcome != Loss {
			run = false
			missed++
			continue
		}
		missed = 0
		gp.proven[k] = res.Winner
		if run {
			gp.horizon = len(moves) - k
		}
	}
	return gp
}
