package search

import (
	"context"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestProverPlaysProofs searches Katro positions whose results df-pn
// proves quickly, with the prover time-sliced (one thread and two) and on
// its own thread (two, ProverThread): the search reports the proven
// result (an hour's clock ends at once on a proven win), and its move
// keeps the win or, in a lost position, still loses (checked by a
// separate df-pn solve of the position after it); nothing is reported
// proven of an open position.
func TestProverPlaysProofs(t *testing.T) {
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	check, err := dfpn.New(dfpn.Config{HashMiB: 16, MaxNodes: 50_000})
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range []string{
		"8,2,1,1,2,0/0,1,3,7,1,1/0,0,2,8,1,0/1,1,0,1,2,5 S 0",   // South loses
		"2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",   // unknown: nothing proven
		"0,0,0,1,0,0/0,0,1,0,1,1/10,1,4,2,13,3/1,2,3,4,1,0 S 4", // South wins
	} {
		root, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		want, err := check.Solve(context.Background(), root, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []struct {
			threads int
			own     bool
		}{{1, false}, {2, false}, {2, true}} {
			threads := mode.threads
			e, err := NewEngine(MinHashMiB)
			if err != nil {
				t.Fatal(err)
			}
			e.SetProver(true)
			e.SetProverThread(mode.own)
			if err := e.SetThreads(threads); err != nil {
				t.Fatal(err)
			}
			var proofs []Proof
			// A proven win ends a clock-managed search; a proven loss is
			// waited for in an infinite one; nothing is proven of the
			// start within a node limit.
			ctx, cancel := context.WithCancel(context.Background())
			lim := Limits{HasClock: [2]bool{true, true}, Clock: [2]time.Duration{time.Hour, time.Hour}}
			switch want.Outcome {
			case dfpn.Loss:
				lim = Limits{Infinite: true}
			case dfpn.Unknown:
				lim = Limits{Nodes: 20000}
			}
			res, err := e.SearchWith(ctx, root, nil, lim, Callbacks{Proven: func(p Proof) { proofs = append(proofs, p); cancel() }})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			after := root
			if !after.Play(res.Move) {
				t.Fatalf("%s: illegal move %s", fen, res.Move)
			}
			got, err := check.Solve(context.Background(), after, []uint64{root.Key()}, nil)
			if err != nil {
				t.Fatal(err)
			}
			switch want.Outcome {
			case dfpn.Win:
				if got.Outcome != dfpn.Loss || !res.Info.Proven || !res.Info.Score.Decisive() || res.Info.Score < 0 || len(proofs) == 0 {
					t.Errorf("%s, %d threads: played %s (then %s for the opponent), info %+v, %d proofs; want a kept, reported win", fen, threads, res.Move, got.Outcome, res.Info, len(proofs))
				}
			case dfpn.Loss:
				if got.Outcome != dfpn.Win || !res.Info.Proven || res.Info.Score > 0 || !res.Info.Score.Decisive() {
					t.Errorf("%s, %d threads: played %s, info %+v; want a reported loss; proofs %+v", fen, threads, res.Move, res.Info, proofs)
				}
			default:
				if len(proofs) != 0 {
					t.Errorf("%s, %d threads: proofs %+v of an unknown position", fen, threads, proofs)
				}
			}
		}
	}
}

// TestProverThread checks where the prover runs: between the main
// thread's iterations at any thread count, on a thread of its own only
// with SetProverThread and two threads or more.
func TestProverThread(t *testing.T) {
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		threads    int
		own, slice bool
	}{{1, false, true}, {1, true, true}, {2, false, true}, {2, true, false}, {3, true, false}} {
		e, err := NewEngine(MinHashMiB)
		if err != nil {
			t.Fatal(err)
		}
		e.SetProver(true)
		e.SetProverThread(tc.own)
		if err := e.SetThreads(tc.threads); err != nil {
			t.Fatal(err)
		}
		p := e.startProver(context.Background(), &searcher{family: board.Katro, root: v.Start()}, Limits{})
		if p == nil || p.sliced != tc.slice || (p.done != nil) == tc.slice {
			t.Errorf("%d threads, own thread %v: prover %+v, want sliced %v", tc.threads, tc.own, p, tc.slice)
		}
		p.stop()
	}
}
