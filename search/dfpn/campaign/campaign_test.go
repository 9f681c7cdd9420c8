package campaign_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/campaign"
)

// startGame returns katro-4x4's start, which the side to move wins in a
// few thousand nodes (winner finds which side, and plays its move).
func startGame(t *testing.T) *board.Game {
	t.Helper()
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	return board.NewGame(v.Start())
}

// verifyFile checks the certificate at path from g's position.
func verifyFile(t *testing.T, g *board.Game, path string) cert.Stats {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := cert.Verify(context.Background(), f, g.Position(), cert.Options{History: g.History()})
	if err != nil {
		t.Fatalf("verify %s: %v", path, err)
	}
	return st
}

// winner finds the winner of g's position with a plain solve; when it is
// the side to move, it plays the winning move, so that the loser is to
// move in g.
func winner(t *testing.T, g *board.Game) board.Side {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background(), g.Position(), g.History(), nil)
	if err != nil || (res.Outcome != dfpn.Win && res.Outcome != dfpn.Loss) {
		t.Fatalf("katro-4x4: %+v %v", res, err)
	}
	if res.Outcome == dfpn.Win {
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	return res.Winner
}

// TestWhole: a root settled within the first step is proven whole, its
// certificate verifies, and the work directory is removed.
func TestWhole(t *testing.T) {
	g := startGame(t)
	w := winner(t, g)
	dir := t.TempDir()
	work, proof := filepath.Join(dir, "work"), filepath.Join(dir, "p.proof")
	res, err := campaign.Run(context.Background(), g, proof, campaign.Config{Dir: work, Winner: w, Solver: dfpn.Config{HashMiB: 16}})
	if err != nil || len(res.Pieces) != 1 || res.Plies == 0 {
		t.Fatalf("Run: %+v %v", res, err)
	}
	verifyFile(t, g, proof)
	if _, err := os.Stat(work); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the work directory is still there: %v", err)
	}
}

// TestPieces: with steps too small to settle the root, the campaign cuts
// it into pieces, proves each (asking stuck positions on their own), and
// joins them into a certificate that verifies; interrupted after each
// report and run again, it goes on from its work directory to the same
// end.
func TestPieces(t *testing.T) {
	g := startGame(t)
	w := winner(t, g)
	dir := t.TempDir()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), Winner: w, Solver: dfpn.Config{HashMiB: 16}, Step: 300}
	proof := filepath.Join(dir, "p.proof")
	res, err := campaign.Run(context.Background(), g, proof, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if root := g.Position(); len(res.Pieces) != len(root.LegalMoves()) {
		t.Errorf("%d pieces, want the root cut into its %d moves", len(res.Pieces), len(root.LegalMoves()))
	}
	st := verifyFile(t, g, proof)
	if st.Winner != w || st.Longest > res.Plies {
		t.Errorf("stats %+v, result %+v", st, res)
	}

	// Interrupted at every step, with a save each time: each run makes
	// some progress, and the last one writes the certificate.
	cfg.Dir = filepath.Join(dir, "work2")
	interrupted(t, g, filepath.Join(dir, "p2.proof"), cfg, func(run int) {
		if _, err := os.Stat(filepath.Join(cfg.Dir, "state.json")); err != nil {
			t.Fatalf("run %d: no state saved: %v", run, err)
		}
	})

	// A state newer than its table, as a kill leaves it between a
	// checkpoint (the state written, the table not due) and the table's
	// next save: here the table is deleted after every interrupted run,
	// the oldest table there is. The runs go on from the state alone.
	cfg.Dir = filepath.Join(dir, "work3")
	interrupted(t, g, filepath.Join(dir, "p3.proof"), cfg, func(int) {
		if err := os.Remove(filepath.Join(cfg.Dir, "table.dfpn")); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	})
}

// interrupted runs the campaign cfg on g's position again and again, each
// run interrupted at its third report and followed by after (given the
// run's number), until a run ends; it must take more than one run and
// fewer than 200, and the certificate written at proof must verify.
func interrupted(t *testing.T, g *board.Game, proof string, cfg campaign.Config, after func(run int)) {
	t.Helper()
	runs := 0
	for ; runs < 200; runs++ {
		ctx, cancel := context.WithCancel(context.Background())
		reports := 0
		cfg.Progress = func(campaign.Report) {
			if reports++; reports == 3 {
				cancel()
			}
		}
		_, err := campaign.Run(ctx, g, proof, cfg)
		cancel()
		if err == nil {
			break
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("run %d: %v", runs, err)
		}
		after(runs)
	}
	if runs < 2 || runs == 200 {
		t.Fatalf("%d runs", runs)
	}
	verifyFile(t, g, proof)
}

// TestOtherQuestion: a work directory of another question is refused.
func TestOtherQuestion(t *testing.T) {
	g := startGame(t)
	w := winner(t, g)
	dir := t.TempDir()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), Winner: w, Solver: dfpn.Config{HashMiB: 16}, Step: 300}
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Progress = func(campaign.Report) { cancel() }
	if _, err := campaign.Run(ctx, g, filepath.Join(dir, "p.proof"), cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	cfg.Progress = nil
	cfg.Winner = w.Other()
	if _, err := campaign.Run(context.Background(), g, filepath.Join(dir, "p.proof"), cfg); err == nil {
		t.Fatalf("another winner in the same directory: accepted")
	}
}

// TestChooseWinner: asked to choose, the campaign proves the right side's
// win, with steps too small to settle the root at once, and keeps its
// choice across an interruption.
func TestChooseWinner(t *testing.T) {
	g := startGame(t)
	w := winner(t, g)
	dir := t.TempDir()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), ChooseWinner: true, Solver: dfpn.Config{HashMiB: 16}, Step: 300}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	cfg.Progress = func(campaign.Report) {
		if n++; n == 8 {
			cancel()
		}
	}
	proof := filepath.Join(dir, "p.proof")
	if _, err := campaign.Run(ctx, g, proof, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	cfg.Progress = nil
	res, err := campaign.Run(context.Background(), g, proof, cfg)
	if err != nil || res.Winner != w {
		t.Fatalf("Run: %+v %v, want %s's win", res, err, w)
	}
	verifyFile(t, g, proof)
}

// TestCancelledAtOnce: a campaign whose context is done before it starts
// says so (it is not a success), whether it chooses its winner or not.
func TestCancelledAtOnce(t *testing.T) {
	g := startGame(t)
	w := winner(t, g)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, choose := range []bool{true, false} {
		dir := t.TempDir()
		cfg := campaign.Config{Dir: filepath.Join(dir, "work"), Winner: w, ChooseWinner: choose, Solver: dfpn.Config{HashMiB: 16}, Step: 300}
		if _, err := campaign.Run(ctx, g, filepath.Join(dir, "p.proof"), cfg); !errors.Is(err, context.Canceled) {
			t.Errorf("choose %v: %v, want context.Canceled", choose, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "p.proof")); err == nil {
			t.Errorf("choose %v: a certificate was written", choose)
		}
	}
}

// TestChooseMover: where the side to move wins (katro-4x4's start, South)
// and a reply shows it within the brief try, the campaign asks about the
// side to move and proves its win.
func TestChooseMover(t *testing.T) {
	g := startGame(t)
	root := g.Position()
	mover := root.Side()
	dir := t.TempDir()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), ChooseWinner: true, Solver: dfpn.Config{HashMiB: 16}, Step: 50000}
	proof := filepath.Join(dir, "p.proof")
	res, err := campaign.Run(context.Background(), g, proof, cfg)
	if err != nil || res.Winner != mover {
		t.Fatalf("Run: %+v %v, want %s's win", res, err, mover)
	}
	verifyFile(t, g, proof)
}

// TestCut: with steps too small for any piece, stuck pieces are cut
// below the first ply, a winner's move is kept as glue, and the pieces and
// glue join into a certificate that verifies; the cuts cost no more than
// twice the nodes of one plain proof.
func TestCut(t *testing.T) {
	// A katro-4x4 position that plain df-pn proves in some 30,000 nodes.
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition("3,1,3,3/0,3,1,3/0,3,1,4/3,3,0,1 S 0")
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(p)
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := s.Solve(context.Background(), p, nil, nil)
	if err != nil || (plain.Outcome != dfpn.Win && plain.Outcome != dfpn.Loss) {
		t.Fatalf("%s: %+v %v", p.String(), plain, err)
	}
	w := plain.Winner
	dir := t.TempDir()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), Winner: w, Solver: dfpn.Config{HashMiB: 16}, Step: 50}
	proof := filepath.Join(dir, "p.proof")
	res, err := campaign.Run(context.Background(), g, proof, cfg)
	if err != nil {
		t.Fatal(err)
	}
	deepest := 0
	for _, p := range res.Pieces {
		deepest = max(deepest, len(p.Moves))
		if !p.Proven {
			t.Errorf("piece %s open", p.Name())
		}
	}
	if len(res.Glue) == 0 || deepest < 3 {
		t.Fatalf("%d pieces (deepest %d plies), glue %v: want a cut at the winner's turn", len(res.Pieces), deepest, res.Glue)
	}
	for _, gl := range res.Glue {
		pos := g.Position()
		for _, m := range gl.Moves {
			pos.Play(m)
		}
		if pos.Side() != w {
			t.Errorf("glue after %s: %s to move, not the winner", board.FormatMoves(gl.Moves), pos.Side())
		}
	}
	verifyFile(t, g, proof)
	if res.Nodes > 2*plain.Nodes {
		t.Errorf("the campaign took %d nodes, a plain proof %d", res.Nodes, plain.Nodes)
	}

	// No cutting: the pieces stay one ply deep.
	cfg.Dir, cfg.CutPlies = filepath.Join(dir, "work2"), -1
	res, err = campaign.Run(context.Background(), g, filepath.Join(dir, "p2.proof"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Pieces {
		if len(p.Moves) > 1 || len(res.Glue) > 0 {
			t.Fatalf("CutPlies -1: piece %s, glue %v", p.Name(), res.Glue)
		}
	}
	verifyFile(t, g, filepath.Join(dir, "p2.proof"))
}

// TestWrongQuestion: asked the win of the side that loses, with steps
// far too small, the campaign cuts and steps its pieces in rounds and
// finds the disproof instead of working on one piece below a forced move
// (which once took millions of nodes on this 38,000-node position).
func TestWrongQuestion(t *testing.T) {
	v, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition("1,2,0,2,0,0/0,1,0,1,1,0/1,10,1,2,9,1/1,1,10,0,0,4 N 2") // South wins
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), Winner: board.North, Solver: dfpn.Config{HashMiB: 16}, Step: 1000}
	if _, err := campaign.Run(ctx, board.NewGame(p), filepath.Join(dir, "p.proof"), cfg); !errors.Is(err, campaign.ErrRefuted) {
		t.Fatalf("Run: %v, want the question disproven", err)
	}
}

// TestJoinWithoutTable: a campaign whose pieces are all proven but whose
// certificate could not be written (here its directory is missing) is
// joined by the same command run again, without reading the table back:
// a damaged table file is not even opened.
func TestJoinWithoutTable(t *testing.T) {
	g := startGame(t)
	w := winner(t, g)
	dir := t.TempDir()
	cfg := campaign.Config{Dir: filepath.Join(dir, "work"), Winner: w, Solver: dfpn.Config{HashMiB: 16}, Step: 300}
	proof := filepath.Join(dir, "out", "p.proof")
	if _, err := campaign.Run(context.Background(), g, proof, cfg); err == nil {
		t.Fatal("the certificate was written into a missing directory")
	}
	table := filepath.Join(cfg.Dir, "table.dfpn")
	if err := os.WriteFile(table, []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := campaign.Run(context.Background(), g, proof, cfg); err != nil {
		t.Fatalf("the join alone: %v", err)
	}
	verifyFile(t, g, proof)

	// The check has teeth: a campaign with work left reads the table,
	// and refuses a damaged one.
	cfg.Dir = filepath.Join(dir, "work2")
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg.Dir, "table.dfpn"), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := campaign.Run(context.Background(), g, filepath.Join(dir, "p2.proof"), cfg); err == nil {
		t.Fatal("a campaign with work left read a damaged table without a word")
	}
}
