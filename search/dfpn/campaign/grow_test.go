package campaign

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// afterMove returns katro-4x6 after the moves named in line (from
// South's first; North wins after each first move, after f1 by a proof
// of billions of nodes) and a df-pn solver with a table of mib MiB.
func afterMove(t *testing.T, line string, mib int) (*board.Game, *dfpn.Solver) {
	t.Helper()
	v, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(v.Start())
	ms, err := v.ParseMoves(line)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	s, err := dfpn.New(dfpn.Config{HashMiB: mib})
	if err != nil {
		t.Fatal(err)
	}
	return g, s
}

// hardPiece returns a campaign asking North's win after South's f1 in
// katro-4x6 (a proof of billions of nodes: no test step settles it), cut
// into its one piece, the root (North to move), with steps of step nodes
// and no cutting.
func hardPiece(t *testing.T, step uint64) *campaign {
	t.Helper()
	g, s := afterMove(t, "f1", 16)
	cfg := Config{Dir: t.TempDir(), Winner: board.North, Step: step, SaveEvery: time.Hour, CutPlies: -1}
	c := &campaign{cfg: cfg, game: g, root: g.Position(), s: s, start: time.Now(), saved: time.Now()}
	if err := c.loadState(); err != nil {
		t.Fatal(err)
	}
	c.split()
	if len(c.pieces) != 1 || len(c.pieces[0].Moves) != 0 {
		t.Fatalf("pieces %v: want the root alone (North, the winner, to move)", c.pieces)
	}
	return c
}

// TestGrow: a piece that stays stuck and cannot be cut (CutPlies -1) has
// its position asked on its own the first time, and from the second time
// on its step doubled, up to MaxGrow doublings (two under -short), the
// table collected each time; each full step spends its budget; the
// doublings, the stuck count and the last proof number are kept in
// state.json.
func TestGrow(t *testing.T) {
	const step = 3_000
	c := hardPiece(t, step)
	enough := MaxGrow
	if testing.Short() {
		enough = 2
	}
	stucks := 0
	for round := 0; round < 12 && c.pieces[0].Grow < enough; round++ {
		grow := c.pieces[0].Grow
		before := c.ran
		if _, err := c.provePiece(context.Background(), 0, 0); err != nil {
			t.Fatal(err)
		}
		if c.pieces[0].Proven {
			t.Fatalf("round %d: the piece is proven: the test needs a harder one", round)
		}
		tr := c.track[c.pieces[0].Name()]
		spent := c.ran - before
		budget := uint64(step) << grow
		asked := tr.stuck == 1 && stucks == 0
		if !asked && (spent < budget || spent > budget+budget/2) {
			t.Errorf("round %d: the step spent %d nodes, budget %d", round, spent, budget)
		}
		if asked && spent < budget+step {
			t.Errorf("round %d: stuck the first time, %d nodes: want the step and an ask of %d more", round, spent, step)
		}
		stucks = tr.stuck
		if c.collects != stucks {
			t.Errorf("round %d: stuck %d times, the table collected %d times: want once each (after the ask, or before the grown step)", round, stucks, c.collects)
		}
		if want := min(max(stucks-1, 0), MaxGrow); c.pieces[0].Grow != want {
			t.Fatalf("round %d: stuck %d times, grown %d times; want %d", round, stucks, c.pieces[0].Grow, want)
		}
	}
	t.Logf("stuck %d times, grown %d times", stucks, c.pieces[0].Grow)
	if c.pieces[0].Grow < enough {
		t.Fatalf("stuck %d times in 12 steps, grown %d times: the test shows nothing", stucks, c.pieces[0].Grow)
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(c.cfg.Dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Pieces) != 1 || st.Pieces[0].Grow != c.pieces[0].Grow {
		t.Fatalf("state.json pieces %+v: want the root grown %d times", st.Pieces, c.pieces[0].Grow)
	}
	back := &campaign{cfg: c.cfg, game: c.game, root: c.root}
	if err := back.loadState(); err != nil {
		t.Fatal(err)
	}
	if back.pieces[0].Grow != c.pieces[0].Grow {
		t.Errorf("read back: grown %d times, saved %d", back.pieces[0].Grow, c.pieces[0].Grow)
	}
	// The stuck count and the last proof number too, so that a campaign
	// run again goes on counting.
	name := c.pieces[0].Name()
	if got, want := back.track[name], c.track[name]; got == nil || *got != *want {
		t.Errorf("read back: the piece's track %+v, saved %+v", got, want)
	}
}

// TestLongStepSaves: a step longer than Config.Step pauses to save the
// table when the time between saves has passed, then spends the rest of
// its budget on the same root; a step of Config.Step does not pause.
func TestLongStepSaves(t *testing.T) {
	const step = 5_000
	c := hardPiece(t, step)
	table := filepath.Join(c.cfg.Dir, tableFile)
	ctx := context.Background()
	c.saved = time.Now().Add(-2 * time.Hour) // a save is due
	if _, err := c.step(ctx, c.root, c.game.History(), step); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(table); err == nil {
		t.Fatalf("a step of Config.Step saved the table")
	}
	before := c.ran
	if _, err := c.step(ctx, c.root, c.game.History(), 4*step); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(table); err != nil {
		t.Fatalf("a long step with a save due: %v", err)
	}
	if time.Since(c.saved) > time.Minute {
		t.Errorf("the save time was not updated")
	}
	if spent := c.ran - before; spent < 4*step || spent > 6*step {
		t.Errorf("the long step spent %d nodes in all, budget %d", spent, 4*step)
	}
}

// TestStepLeftKept: a full step cut short by the campaign's end keeps the
// nodes it had left in the piece's track and in state.json, and the
// campaign run again spends only those before it ends the step; a long
// step paused for a save writes what it has left with the save.
func TestStepLeftKept(t *testing.T) {
	const step = 3_000
	c := hardPiece(t, step)
	c.pieces[0].Grow = 2
	budget := uint64(step) << 2
	name := c.pieces[0].Name()

	// Paused for a save at once (one is due), then run to its end.
	c.saved = time.Now().Add(-2 * time.Hour)
	if _, err := c.provePiece(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	st := readState(t, c.cfg.Dir)
	if left := st.Pieces[0].Left; left == 0 || left > budget {
		t.Errorf("saved in the pause: left %d, want 1 to %d", left, budget)
	}
	if left := c.track[name].left; left != 0 {
		t.Errorf("after the step's end: left %d, want 0", left)
	}

	// Cut short by the end of the campaign.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := c.ran
	if _, err := c.provePiece(ctx, 0, 0); err == nil {
		t.Fatal("a cancelled step: no error")
	}
	left := c.track[name].left
	if spent := c.ran - before; left != budget-spent || left == 0 {
		t.Fatalf("cut short after %d of %d nodes: left %d", spent, budget, left)
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	if got := readState(t, c.cfg.Dir).Pieces[0].Left; got != left {
		t.Errorf("state.json: left %d, want %d", got, left)
	}

	// Run again, as after a run stopped three quarters into the step:
	// the step spends what was left, not its whole budget.
	left = budget / 4
	c.track[name].left = left
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	_, s := afterMove(t, "f1", 16)
	back := &campaign{cfg: c.cfg, game: c.game, root: c.root, s: s, start: time.Now(), saved: time.Now()}
	if err := back.loadState(); err != nil {
		t.Fatal(err)
	}
	if got := back.track[name].left; got != left {
		t.Fatalf("read back: left %d, want %d", got, left)
	}
	if _, err := back.provePiece(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	// (and, if the piece is stuck, the ask of its line: step nodes)
	if spent := back.ran; spent < left || spent > left+left/8+step || spent >= budget {
		t.Errorf("the resumed step spent %d nodes, %d were left of %d", spent, left, budget)
	}
	if got := back.track[name].left; got != 0 {
		t.Errorf("after the resumed step: left %d, want 0", got)
	}
}

// readState reads dir's state.json.
func readState(t *testing.T, dir string) state {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestCheckpoint: a checkpoint (after a piece is proven, cut or dropped)
// writes the state at once and the table only when a save is due.
func TestCheckpoint(t *testing.T) {
	c := hardPiece(t, 1_000)
	table, statePath := filepath.Join(c.cfg.Dir, tableFile), filepath.Join(c.cfg.Dir, stateFile)
	readGrow := func() int {
		t.Helper()
		data, err := os.ReadFile(statePath)
		if err != nil {
			t.Fatal(err)
		}
		var st state
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatal(err)
		}
		if len(st.Pieces) != 1 {
			t.Fatalf("state.json pieces %+v: want the root", st.Pieces)
		}
		return st.Pieces[0].Grow
	}
	if _, err := c.step(context.Background(), c.root, c.game.History(), c.cfg.Step); err != nil {
		t.Fatal(err) // a table with something in it to save
	}
	saved := c.saved
	c.pieces[0].Grow = 3
	if err := c.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if got := readGrow(); got != 3 {
		t.Errorf("after a checkpoint with no save due: state.json says grown %d times, want 3", got)
	}
	if _, err := os.Stat(table); err == nil {
		t.Errorf("a checkpoint with no save due wrote the table")
	}
	if !c.saved.Equal(saved) {
		t.Errorf("a checkpoint with no save due moved the time of the last save")
	}
	c.pieces[0].Grow = 4
	c.saved = time.Now().Add(-2 * c.cfg.SaveEvery)
	if err := c.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if got := readGrow(); got != 4 {
		t.Errorf("after a checkpoint with a save due: state.json says grown %d times, want 4", got)
	}
	if _, err := os.Stat(table); err != nil {
		t.Errorf("a checkpoint with a save due: %v", err)
	}
	if time.Since(c.saved) > time.Minute {
		t.Errorf("a checkpoint that saved the table did not move the time of the last save")
	}
}
