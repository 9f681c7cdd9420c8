package dfpn

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// lateGame is a position of testdata/dfpn/katro-6x6-late.txt: a game's
// position with its history.
type lateGame struct {
	name    string
	game    *board.Game
	history []uint64
}

// lateGames reads the Katro 6x6 positions of
// testdata/dfpn/katro-6x6-late.txt: 20 and 25 plies before the end of 12
// self-play games.
func lateGames(tb testing.TB) []lateGame {
	tb.Helper()
	f, err := os.Open("../../testdata/dfpn/katro-6x6-late.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	v, err := board.New("katro")
	if err != nil {
		tb.Fatal(err)
	}
	var set []lateGame
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			tb.Fatalf("%q: want name, start and moves", line)
		}
		start, err := v.ParsePosition(fields[1])
		if err != nil {
			tb.Fatal(err)
		}
		moves, err := v.ParseMoves(fields[2])
		if err != nil {
			tb.Fatal(err)
		}
		g := board.NewGame(start)
		if err := g.PlayAll(moves); err != nil {
			tb.Fatal(err)
		}
		set = append(set, lateGame{name: fields[0], game: g, history: g.History()})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return set
}

// BenchmarkSolveLate solves the Katro 6x6 positions of
// testdata/dfpn/katro-6x6-late.txt one after the other, each from an empty
// table of the prover's size (64 MiB) with a budget of 2,000,000 nodes a
// question, asking first for the side to move's win as the prover does:
// the positions where the prover in play finds its proofs. An operation is
// the whole set, tens of seconds: run it with -benchtime 1x.
func BenchmarkSolveLate(b *testing.B) {
	set := lateGames(b)
	for _, threads := range []int{1, 2} {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			s, err := New(Config{HashMiB: 64, MaxNodes: 2_000_000, Threads: threads})
			if err != nil {
				b.Fatal(err)
			}
			var nodes uint64
			solved := 0
			for b.Loop() {
				for _, lg := range set {
					b.StopTimer() // the table is emptied off the clock, as in BenchmarkSolve
					s.Clear()
					b.StartTimer()
					res, err := s.Solve(context.Background(), lg.game.Position(), lg.history, nil)
					if err != nil {
						b.Fatalf("%s: %v", lg.name, err)
					}
					nodes += res.Nodes
					if res.Outcome != Unknown {
						solved++
					}
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(solved)/float64(b.N), "solved/op")
		})
	}
}
