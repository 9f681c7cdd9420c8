package broker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// proofGame returns a new game at the start of a Katro board.
func proofGame(t *testing.T, name string) *board.Game {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return board.NewGame(v.Start())
}

// proofJobFor opens (or reads back) the tree of attacker's win at game's
// position in dir, leaves of leafNodes nodes, and returns its job.
func proofJobFor(t *testing.T, dir string, game *board.Game, attacker board.Side, leafNodes uint64, progress *sowertest.SyncBuffer) ProofJob {
	t.Helper()
	file := filepath.Join(dir, "tree.split")
	tr, _, err := split.Open(file, game.Position(), game.History(), split.Options{Attacker: attacker, LeafNodes: leafNodes})
	if err != nil {
		t.Fatal(err)
	}
	return ProofJob{Tree: tr, File: file, Game: game, Proof: filepath.Join(dir, "proof.cert"), ID: "p", HashMiB: 4,
		Tasks: 3, AckWait: time.Second, ProgressEvery: 200 * time.Millisecond, Progress: progress, Build: testBuild}
}

// localVerdict solves the game's position with one df-pn solver and
// reports whether attacker wins.
func localVerdict(t *testing.T, game *board.Game, attacker board.Side) bool {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := s.ProveWithin(context.Background(), game.Position(), game.History(), attacker, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b.PN == 0
}

// checkProof verifies the certificate the job wrote, by the rules.
func checkProof(t *testing.T, job ProofJob, attacker board.Side) {
	t.Helper()
	f, err := os.Open(job.Proof)
	if err != nil {
		t.Fatalf("no certificate: %v", err)
	}
	defer f.Close()
	st, err := cert.Verify(context.Background(), f, job.Game.Position(), cert.Options{History: job.Game.History()})
	if err != nil {
		t.Fatalf("the joined certificate is refused: %v", err)
	}
	if st.Winner != attacker {
		t.Fatalf("the certificate proves %s's win, want %s's", st.Winner, attacker)
	}
}

// TestSolveDistributed proves both sides' questions at katro-4x4's start
// with two workers in process, leaves small enough that the tree is
// expanded: each answer is the local solver's, and the proven side's
// joined certificate verifies.
func TestSolveDistributed(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := range 2 {
		w := &Worker{Name: []string{"w1", "w2"}[i], CacheDir: t.TempDir(), Build: testBuild}
		defer serveWorker(ctx, t, srv, w)()
	}
	game := proofGame(t, board.NameKatro4x4)
	for _, attacker := range []board.Side{board.South, board.North} {
		want := localVerdict(t, game, attacker)
		var progress sowertest.SyncBuffer
		job := proofJobFor(t, t.TempDir(), game, attacker, 100, &progress)
		job.ID = "p-" + strings.ToLower(attacker.String())
		if err := Prove(ctx, dial(t, srv), job); err != nil {
			t.Fatalf("%s: %v\n%s", attacker, err, progress.String())
		}
		pn, dn := job.Tree.Root()
		if (pn == 0) != want || (pn != 0 && dn != 0) {
			t.Fatalf("%s's win: the distributed proof says pn %d dn %d, the local solver won=%v\n%s", attacker, pn, dn, want, progress.String())
		}
		t.Logf("%s's win: pn %d dn %d, %d positions, %d nodes", attacker, pn, dn, job.Tree.Size(), job.Tree.Searched())
		if job.Tree.Size() == 1 {
			t.Errorf("%s: the tree was not expanded: the test checks too little", attacker)
		}
		if pn == 0 {
			checkProof(t, job, attacker)
		} else if _, err := os.Stat(job.Proof); err == nil {
			t.Errorf("%s: a certificate written for a question disproven", attacker)
		}
	}
}
