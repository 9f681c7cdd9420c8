package broker

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// SettleOptions configures Settle: each question's proof, as ProofJob's
// fields of the same names.
type SettleOptions struct {
	// Dir keeps each question's tree file and pieces while it is asked;
	// they are removed after it.
	Dir string
	// LeafNodes is the trees' leaf budget (0: split.DefaultLeafNodes).
	LeafNodes uint64
	HashMiB   int
	Tasks     int
	AckWait   time.Duration
	Progress  io.Writer
	Build     Build
	// TrustDisproofs is ProofJob's.
	TrustDisproofs bool
}

// Settle decides the position at the end of game on the broker's workers
// as dfpn.Solver.SolveFirst decides it on one machine (dfpn.Decide):
// first's win, then, if that is disproven without resting on the game's
// history, the other side's; both disproven is a draw. Each question is a proof of its own
// (Prove, no certificate written) under a run id of its own, so that the
// workers start it from empty tables. When ctx ends, the question's
// tasks still queued are withdrawn (a settling is not resumed) and ctx's
// error is returned with the nodes and time so far. The result gives no
// Move: a root proven as a leaf has its move in a worker's table only.
func Settle(ctx context.Context, c *Client, game *board.Game, first board.Side, o SettleOptions) (dfpn.Result, error) {
	root := game.Position()
	if root.Variant() == nil || root.Variant().Family() != board.Katro {
		return dfpn.Result{}, dfpn.ErrNotKatro
	}
	question := 0
	return dfpn.Decide(root, first, func(attacker board.Side) (dfpn.Answer, error) {
		question++
		tr, err := split.New(root, game.History(), attacker, o.leafNodes())
		if err != nil {
			return dfpn.Answer{}, err
		}
		dir, err := os.MkdirTemp(o.Dir, "settle-")
		if err != nil {
			return dfpn.Answer{}, err
		}
		id := RunID(game, attacker) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
		err = Prove(ctx, c, ProofJob{Tree: tr, File: filepath.Join(dir, "tree.split"), Game: game,
			Pieces: filepath.Join(dir, "pieces"), ID: id, HashMiB: o.HashMiB, Tasks: o.Tasks,
			AckWait: o.AckWait, Progress: o.Progress, Build: o.Build, TrustDisproofs: o.TrustDisproofs, Abandon: true})
		os.RemoveAll(dir)
		pn, dn := tr.Root()
		a := dfpn.Answer{Bounds: dfpn.Bounds{PN: pn, DN: dn, Plies: tr.Plies(), OnPath: tr.OnPath()}, Nodes: tr.Searched()}
		if err == nil && pn != 0 && dn != 0 {
			err = fmt.Errorf("question %d (%s's win): the proof ended unsettled, pn %d dn %d", question, attacker, pn, dn)
		}
		return a, err
	})
}

// leafNodes is the trees' leaf budget.
func (o *SettleOptions) leafNodes() uint64 {
	if o.LeafNodes == 0 {
		return split.DefaultLeafNodes
	}
	return o.LeafNodes
}
