package broker

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestSettle settles positions along random katro-4x4 games on two
// workers in process, with leaves small enough that the trees grow, and
// compares each answer with the local solver's (dfpn.Solver.SolveFirst,
// the same questions on one table): the same outcome and winner, and a
// proof's length within the local one's reach. Both questions are asked
// where the side asked first does not win.
func TestSettle(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for i := range 2 {
		w := &Worker{Name: []string{"w1", "w2"}[i], CacheDir: t.TempDir(), Build: testBuild}
		defer serveWorker(ctx, t, srv, w)()
	}
	local, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv)
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	positions := 4
	if testing.Short() || raceEnabled {
		positions = 3
	}
	outcomes := map[dfpn.Outcome]bool{}
	for k := range positions {
		g := board.NewGame(v.Start())
		for range k {
			p := g.Position()
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		p := g.Position()
		if !p.HasLegalMove() {
			continue
		}
		first := p.Side().Other() // the side not to move first: both questions where it loses
		local.Clear()
		want, err := local.SolveFirst(ctx, p, g.History(), first, nil)
		if err != nil {
			t.Fatal(err)
		}
		var progress sowertest.SyncBuffer
		got, err := Settle(ctx, c, g, first, SettleOptions{Dir: t.TempDir(), LeafNodes: 100, HashMiB: 4, Tasks: 3,
			AckWait: time.Second, Progress: &progress, Build: testBuild})
		if err != nil {
			t.Fatalf("%s: %v\n%s", p.String(), err, progress.String())
		}
		if got.Outcome != want.Outcome || got.Winner != want.Winner || got.Nodes == 0 {
			t.Errorf("%s: settled as %v (winner %s, %d nodes), the local solver %v (winner %s)", p.String(), got.Outcome, got.Winner, got.Nodes, want.Outcome, want.Winner)
		}
		outcomes[got.Outcome] = true
	}
	if !outcomes[dfpn.Win] || !outcomes[dfpn.Loss] {
		t.Errorf("outcomes %v: want wins and losses for the side to move, or the test checks too little", outcomes)
	}
}

// TestSettleAbandoned: a settling whose time runs out returns the
// context's error and leaves no task queued and no trees behind; the
// worker searching its root (katro-4x6's start, far beyond the test's
// time) stops that search once the run's tasks are withdrawn, and is
// free for other work.
func TestSettleAbandoned(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	game := proofGame(t, board.NameKatro4x6)
	dir := t.TempDir()
	wctx, stopWorkers := context.WithTimeout(context.Background(), time.Minute)
	defer stopWorkers()
	var workerOut sowertest.SyncBuffer
	defer serveWorker(wctx, t, srv, &Worker{Name: "w", CacheDir: t.TempDir(), Build: testBuild, Progress: &workerOut})()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := Settle(ctx, c, game, board.North, SettleOptions{Dir: dir, LeafNodes: 1 << 40, HashMiB: 4, Tasks: 3, AckWait: time.Second, Build: testBuild})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Settle returned %v, want the deadline's error", err)
	}
	if n := queued(t, c, "*"); n != 0 {
		t.Errorf("%d tasks left queued", n)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in the directory: %v", left)
	}
	for !strings.Contains(workerOut.String(), "stopped: its run's tasks were withdrawn") {
		select {
		case <-wctx.Done():
			t.Fatalf("the worker did not stop the withdrawn run's search:\n%s", workerOut.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
