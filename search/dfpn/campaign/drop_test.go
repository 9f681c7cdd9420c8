package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestDropWrongGlue starts a campaign from a work directory whose glue is
// a losing move of the winner (katro-4x4's start, which South, to move,
// wins): a piece below it is disproven, the glue and its pieces are
// dropped, the root comes back whole, and the campaign proves it through
// another move, with a certificate that verifies.
func TestDropWrongGlue(t *testing.T) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	root := v.Start()
	g := board.NewGame(root)
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	// A move of South after which North wins.
	var wrong board.Move = board.NoMove
	for _, m := range root.LegalMoves() {
		q := root
		q.Play(m)
		res, err := s.Solve(context.Background(), q, []uint64{root.Key()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome == dfpn.Win && res.Winner == board.North {
			wrong = m
			break
		}
	}
	if wrong == board.NoMove {
		t.Skip("every South move at katro-4x4's start wins: no wrong glue to plant")
	}
	after := root
	after.Play(wrong)
	st := state{Version: stateVersion, Game: v.Name(), Rules: fmt.Sprint(v.Rules()), Root: root.String(), Winner: board.South.String(), Split: true,
		Glue: []stateGlue{{Moves: "", Move: wrong.String()}}}
	for _, r := range after.LegalMoves() {
		st.Pieces = append(st.Pieces, statePiece{Moves: board.FormatMoves([]board.Move{wrong, r})})
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(&st)
	if err := os.WriteFile(filepath.Join(work, stateFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	proof := filepath.Join(dir, "p.proof")
	res, err := Run(context.Background(), g, proof, Config{Dir: work, Winner: board.South, Solver: dfpn.Config{HashMiB: 16}, Step: 50})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, gl := range res.Glue {
		if len(gl.Moves) == 0 && gl.Move == wrong {
			t.Errorf("the wrong glue %s stayed", wrong)
		}
	}
	for _, p := range res.Pieces {
		if len(p.Moves) > 0 && p.Moves[0] == wrong {
			t.Errorf("piece %s below the wrong glue stayed", p.Name())
		}
	}
	f, err := os.Open(proof)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if vs, err := cert.Verify(context.Background(), f, root, cert.Options{}); err != nil || vs.Winner != board.South {
		t.Fatalf("verify: %+v %v", vs, err)
	}
}
