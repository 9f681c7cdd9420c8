// Package campaign proves a Katro position that one df-pn search does not
// settle, unattended and in pieces, and writes its certificate: the
// strategy that proved katro-4x6 by hand, as a program.
//
// A campaign asks one question, whether Winner wins the root, on one
// solver table:
//
//  1. The root as a whole, within one step's budget (Config.Step nodes):
//     a position df-pn settles at once is done there.
//  2. Else the root is cut into pieces: the position after each of the
//     loser's moves when the loser is to move at the root, or the root
//     itself. Each piece is first tried briefly (a tenth of a step), so
//     that the easy ones are proven and written first, then the open
//     pieces are worked on in rounds, one step each in turn, so that a
//     piece easy to settle does not wait behind a hard one.
//  3. A piece whose proof number did not fall over a step is stuck: its
//     number is carried down a line of the tree to a position whose own
//     search it waits on. That position (the deepest on the piece's most
//     proving line that carries the piece's proof number) is asked as a
//     root of its own, on the same table, where df-pn's thresholds no
//     longer cut its search short; then the table is collected as a saved
//     and reloaded table would be, and the piece goes on.
//  4. A piece stuck again is cut, as a person cuts a proof by hand: where
//     the loser is to move, into the positions after each of its moves;
//     where the winner is, when one move is clearly its best (the only one
//     not disproven, or one whose proof number is at most a tenth of every
//     other's, all of them searched), that move is kept as glue and the
//     loser's replies to it are the pieces. The new pieces are tried
//     briefly, then join the rounds, and are cut in their turn when they
//     are stuck, down to Config.CutPlies plies from the root. Where the
//     winner is to move and no move is clearly best, the open move other
//     than the best try that is nearest to its disproof (the rival) is
//     first asked on its own, with the piece's step, and the cut tried
//     again, when its disproof number is at most a quarter of the best
//     try's proof number (a move the table does not hold is asked
//     first, whatever its numbers): a rival disproven leaves the best try
//     clear when two moves were open, and with more the next rival is
//     asked; a rival proven proves the piece at its next step. A piece
//     still not cut whose stuck line still goes the way of the position
//     asked on its own at its last stuck step is cut down the line, to
//     that position or to where the line turns off from the way to it:
//     the winner's moves on the way are glue, the loser's other replies
//     on the way (proven already) and the loser's replies at the line's
//     cut end are the pieces. A piece
//     whose step has doubled twice and that still cannot be cut is cut
//     on its best try (the known open move with the smallest proof
//     number), clear or not. A piece
//     stuck again that cannot be cut has its step doubled (up to MaxGrow
//     times) and the table collected before it, with no stuck line
//     asked on its own: katro-4x6's stuck pieces fell, by hand, to one
//     long search on a warm table read back from its file (which a
//     collect is to a table in memory), where steps each followed by an
//     ask and a collect had stood still for hours. A long step is paused to
//     save the table every Config.SaveEvery and goes on; a step a run
//     began and did not end is ended, at the piece's next turn, with the
//     nodes it had left.
//  5. A piece disproven under a glue move shows that move wrong: the glue
//     and every piece below it are dropped, and the piece that was cut
//     there comes back whole; the disproof stays in the table, so its
//     search tries another move. Disproven with no glue above it, the
//     question is disproven.
//  6. Each proven piece's certificate is written at once (version 2, in
//     the work directory), and at the end the pieces and the glue are
//     joined into the root's certificate, which the joining walk checks
//     whole.
//
// Everything needed to go on is kept in the work directory: the state
// (state.json: the question, the pieces proven, each open piece's
// doublings, stuck count and nodes left of its step or of its rival's
// ask, the nodes and time spent),
// the pieces' certificates, and the solver's table. The state is written
// whenever a piece is proven, cut or dropped, the table every
// Config.SaveEvery, and both when the campaign is interrupted. Killed at any
// moment, the same campaign run again goes on from there and loses at most
// the work since the last save. Every file is written to a temporary file
// and renamed, so a kill never leaves a damaged one.
package campaign

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
)

// Defaults of Config.
const (
	DefaultStep      = 100_000_000
	DefaultSaveEvery = 10 * time.Minute
	DefaultCutPlies  = 16
	// MaxGrow is how many times a stuck piece's step may double: at most
	// 2^MaxGrow steps in one.
	MaxGrow = 4
)

// Config configures a campaign.
type Config struct {
	// Dir is the work directory (made if missing).
	Dir string
	// Winner is the side whose win is asked, unless ChooseWinner is set.
	Winner board.Side
	// ChooseWinner asks the campaign to choose the side whose win it
	// asks (chooseWinner: a brief try of the opponent's win after each of
	// the mover's moves), and keeps the choice in the work directory.
	ChooseWinner bool
	// Solver configures the df-pn solver (its Every sets how often Report
	// is called; Config.Progress receives it).
	Solver dfpn.Config
	// Step is the node budget of one step (0: DefaultStep).
	Step uint64
	// SaveEvery is the time between saves of the table (0:
	// DefaultSaveEvery).
	SaveEvery time.Duration
	// CutPlies is how deep below the root a piece may be cut (0:
	// DefaultCutPlies; negative: never); a stuck piece deeper has its
	// stuck line asked on its own and its step grown, but is never cut
	// and has no rival asked.
	CutPlies int
	// Progress, if set, receives reports: at every step, and as the
	// solver reports (Solver.Every).
	Progress func(Report)
	// MemoryLimit, if positive, is the Go runtime's soft memory limit
	// (runtime/debug.SetMemoryLimit) while the table is in memory; the
	// limit before is put back when the table is let go, before the join.
	// The search allocates nothing, so without a limit the runtime lets
	// the heap grow to twice the live table before it collects: the
	// memory a piece's certificate is written with would stay taken
	// until then, piece after piece.
	MemoryLimit int64
}

// Piece is one part of the root's proof: the position after Moves.
type Piece struct {
	Moves  []board.Move
	Proven bool
	Plies  int  // the proof's longest line, once proven
	Tried  bool // tried briefly
	// Grow is how many times the piece's step was doubled because it
	// stayed stuck and could not be cut (at most MaxGrow).
	Grow int
}

// Glue is a move of the winner chosen where a piece was cut: at the
// position after Moves the winner plays Move, and the loser's replies are
// pieces.
type Glue struct {
	Moves []board.Move
	Move  board.Move
}

// Name returns the piece's moves, space-separated, or "root".
func (p *Piece) Name() string {
	if len(p.Moves) == 0 {
		return "root"
	}
	return board.FormatMoves(p.Moves)
}

// Report is a campaign's progress.
type Report struct {
	Pieces  []Piece
	Glue    []Glue
	Working string        // the piece being worked on ("" between pieces)
	Step    uint64        // the node budget of the step under way (0 between steps)
	Asking  string        // the position asked as a root of its own, from the piece ("" when none)
	Search  dfpn.Progress // the solver's last report
	Nodes   uint64        // all the campaign's nodes, earlier runs included
	Elapsed time.Duration // all the campaign's time, earlier runs included
	NPS     float64       // nodes a second in this run
}

// Result is a finished campaign.
type Result struct {
	Winner  board.Side // the side whose win is proven
	Proof   cert.Stats // the certificate written
	Plies   int        // the proof's longest line from the root
	Pieces  []Piece
	Glue    []Glue
	Nodes   uint64
	Elapsed time.Duration
}

// ErrRefuted is returned when a piece is disproven: Winner does not win
// the root.
var ErrRefuted = errors.New("campaign: the question is disproven")

// state is state.json.
type state struct {
	Version   int          `json:"version"`
	Game      string       `json:"game"`
	Rules     string       `json:"rules"`
	Root      string       `json:"root"`
	Winner    string       `json:"winner"`
	Nodes     uint64       `json:"nodes"`
	ElapsedMS int64        `json:"elapsed_ms"`
	Split     bool         `json:"split"` // the root is cut into pieces
	Pieces    []statePiece `json:"pieces,omitempty"`
	Glue      []stateGlue  `json:"glue,omitempty"`
}

type statePiece struct {
	Moves  string `json:"moves"`
	Proven bool   `json:"proven"`
	Plies  int    `json:"plies,omitempty"`
	Tried  bool   `json:"tried,omitempty"`
	Grow   int    `json:"grow,omitempty"`
	// Last and Stuck are the piece's pieceTrack: its proof number after
	// its last full step (0: none yet) and how often it was stuck, so that
	// a campaign run again goes on counting (not asking the stuck line
	// and collecting the table again before the step may grow).
	Last  uint32 `json:"last,omitempty"`
	Stuck int    `json:"stuck,omitempty"`
	// Left is the nodes left of the piece's full step when the state was
	// saved in the middle of it (a long step paused for a save, or the
	// campaign interrupted): run again, the campaign ends that step
	// before it begins another.
	Left uint64 `json:"left,omitempty"`
	// Ask is, the same way, the nodes left of a rival's ask (the piece
	// stuck again at the winner's turn): run again, the campaign asks
	// the rival, chosen again from the table, with them before the
	// piece's next step.
	Ask uint64 `json:"ask,omitempty"`
	// Waits is the position (its moves from the root) that the piece's
	// stuck line led to when it was last asked on its own: run again,
	// the campaign still cuts the piece down that line (cutLine) when it
	// is stuck there again.
	Waits string `json:"waits,omitempty"`
}

type stateGlue struct {
	Moves string `json:"moves"`
	Move  string `json:"move"`
}

const stateVersion = 1

// campaign is a running campaign.
type campaign struct {
	cfg      Config
	game     *board.Game
	root     board.Position
	s        *dfpn.Solver
	st       state
	pieces   []Piece
	glue     []Glue
	start    time.Time // of this run
	nodes0   uint64    // the state's nodes at this run's start
	elapsed  time.Duration
	ran      uint64 // nodes of this run
	saved    time.Time
	working  string
	asking   string
	budget   uint64                 // the budget of the step under way
	full     *uint64                // the nodes left of the piece's full step or rival ask under way (step keeps them)
	saveTook time.Duration          // how long the last save took
	track    map[string]*pieceTrack // by piece name
	collects int                    // the table's collects in this run
	unlimit  func()                 // puts back the memory limit before Config.MemoryLimit (nil: none set)
}

// Run proves cfg.Winner's win from game's position and writes its
// certificate to proof (its format by its name, cert.WriteFile). It goes on
// from what cfg.Dir holds. On ctx's cancellation it saves the table and
// state and returns ctx's error; a disproven piece returns ErrRefuted.
// The work directory is removed once the certificate is written.
func Run(ctx context.Context, game *board.Game, proof string, cfg Config) (Result, error) {
	if cfg.Step == 0 {
		cfg.Step = DefaultStep
	}
	if cfg.SaveEvery == 0 {
		cfg.SaveEvery = DefaultSaveEvery
	}
	if cfg.CutPlies == 0 {
		cfg.CutPlies = DefaultCutPlies
	}
	c := &campaign{cfg: cfg, game: game, root: game.Position(), start: time.Now()}
	v := c.root.Variant()
	if v.Family() != board.Katro {
		return Result{}, dfpn.ErrNotKatro
	}
	if err := os.MkdirAll(filepath.Join(cfg.Dir, "pieces"), 0o755); err != nil {
		return Result{}, err
	}
	if err := c.loadState(); err != nil {
		return Result{}, err
	}
	sc := cfg.Solver
	sc.HugePages = true // a campaign fills its table
	s, err := dfpn.New(sc)
	if err != nil {
		return Result{}, err
	}
	c.s = s
	if cfg.MemoryLimit > 0 {
		before := debug.SetMemoryLimit(cfg.MemoryLimit)
		c.unlimit = sync.OnceFunc(func() { debug.SetMemoryLimit(before) })
		defer c.unlimit()
	}
	if !c.allProven() { // else only the join is left, which needs no table
		if err := c.loadTable(); err != nil {
			return Result{}, err
		}
	}
	c.saved = time.Now()
	if c.st.Winner == "" {
		if err := c.chooseWinner(ctx); err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				if serr := c.save(); serr != nil {
					return Result{}, serr
				}
			}
			return Result{}, err
		}
	}
	res, err := c.run(ctx)
	res.Winner = c.cfg.Winner
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if serr := c.save(); serr != nil {
				return res, serr
			}
		}
		return res, err
	}
	// The join needs the pieces' certificates, not the table: the table
	// goes first, so that the join's maps do not come on top of it (a
	// 16 GiB table and the join of katro-4x6's proof after e1 did not fit
	// in 24 GB together).
	c.s = nil
	if c.unlimit != nil {
		c.unlimit()
	}
	debug.FreeOSMemory()
	if res.Proof, err = c.join(ctx, proof); err != nil {
		return res, err
	}
	res.Nodes, res.Elapsed = c.totalNodes(), c.totalElapsed()
	return res, os.RemoveAll(cfg.Dir)
}

// allProven reports whether the state read back holds the root cut into
// pieces, every one of them proven.
func (c *campaign) allProven() bool {
	if !c.st.Split || len(c.pieces) == 0 {
		return false
	}
	for _, p := range c.pieces {
		if !p.Proven {
			return false
		}
	}
	return true
}

// run proves the root, whole or in pieces.
func (c *campaign) run(ctx context.Context) (Result, error) {
	if !c.st.Split {
		// The root as a whole, within one step.
		b, err := c.step(ctx, c.root, c.game.History(), c.cfg.Step)
		if err != nil {
			return Result{}, err
		}
		if b.PN == 0 {
			c.pieces = []Piece{{Proven: true, Plies: b.Plies}}
			return Result{Plies: b.Plies, Pieces: c.pieces}, c.writePiece(ctx, &c.pieces[0])
		}
		if b.DN == 0 && !b.OnPath {
			return Result{}, fmt.Errorf("%w: %s does not win %s", ErrRefuted, c.cfg.Winner, c.root.String())
		}
		c.split()
		if err := c.checkpoint(); err != nil {
			return Result{}, err
		}
	}
	// A brief try of each new piece, then rounds of one step for each open
	// piece in turn, so that a piece easy to settle does not wait behind
	// a hard one, until every piece is proven; a cut or a drop starts the
	// round again.
	for {
		for i := 0; i < len(c.pieces); i++ {
			if c.pieces[i].Proven || c.pieces[i].Tried {
				continue
			}
			changed, err := c.provePiece(ctx, i, max(c.cfg.Step/10, 1))
			if err != nil {
				return Result{}, err
			}
			if changed {
				i = -1 // the list changed: from the start again
			}
		}
		var open []string
		for _, p := range c.pieces {
			if !p.Proven {
				open = append(open, p.Name())
			}
		}
		if len(open) == 0 {
			break
		}
		for _, name := range open {
			i := slices.IndexFunc(c.pieces, func(p Piece) bool { return p.Name() == name })
			if i < 0 || c.pieces[i].Proven {
				continue
			}
			changed, err := c.provePiece(ctx, i, 0)
			if err != nil {
				return Result{}, err
			}
			if changed {
				break
			}
		}
	}
	plies := 0
	for _, p := range c.pieces {
		plies = max(plies, p.Plies+len(p.Moves))
	}
	return Result{Plies: plies, Pieces: c.pieces, Glue: c.glue}, nil
}

// chooseWinner chooses the side whose win the campaign asks
// (Config.ChooseWinner): the opponent's win is tried briefly (a tenth of a
// step) after each move of the side to move. A reply where it is
// disproven (the mover wins or draws there) makes the mover the one to
// ask about; else the opponent, whose win is what a root with the loser
// to move is cut into pieces for. A brief try cannot tell more: a reply
// proven for the opponent may be only a bad move of a mover who wins.
// The proofs found on the way stay in the table for the pieces.
func (c *campaign) chooseWinner(ctx context.Context) error {
	mover := c.root.Side()
	c.cfg.Winner = mover.Other()
	for _, m := range c.root.LegalMoves() {
		g, err := c.after([]board.Move{m})
		if err != nil {
			return err
		}
		hist := c.history(g)
		b, err := c.step(ctx, g.Position(), hist, max(c.cfg.Step/10, 1))
		if err != nil {
			return err
		}
		if b.DN == 0 && !b.OnPath {
			c.cfg.Winner = mover
			break
		}
	}
	c.st.Winner = c.cfg.Winner.String()
	return nil
}

// split cuts the root into pieces.
func (c *campaign) split() {
	c.st.Split = true
	c.pieces = nil
	if c.root.Side() == c.cfg.Winner {
		c.pieces = []Piece{{}}
	} else {
		for _, m := range c.root.LegalMoves() {
			c.pieces = append(c.pieces, Piece{Moves: []board.Move{m}})
		}
	}
}

// provePiece works on piece i for one step: a brief try of budget nodes,
// or with budget 0 a full step (Config.Step doubled Piece.Grow times, or,
// when an earlier run began the piece's step and did not end it, what
// that step had left; when an earlier run began a rival's ask and did
// not end it, no step: the turn goes on with that ask, rivalsOrGrow),
// after which a piece stuck once (its proof number did not fall since its
// last step) has the position it waits on asked on its own, and one stuck
// again is cut; where it cannot be, at the winner's turn its rivals are
// asked first (askRivals) and the cut tried again, and if it still cannot
// be cut, it is cut on its best try once its step has doubled
// lateCutGrow times, else the table is collected and the step doubled
// (rivalsOrGrow). changed
// reports that the list of pieces changed other than by the piece's proof
// (a cut, or a glue move dropped).
func (c *campaign) provePiece(ctx context.Context, i int, budget uint64) (changed bool, err error) {
	pc := &c.pieces[i]
	g, err := c.after(pc.Moves)
	if err != nil {
		return false, err
	}
	pos, hist := g.Position(), c.history(g)
	c.working = pc.Name()
	defer func() { c.working = "" }()
	step := c.cfg.Step << pc.Grow
	tr := c.trackOf(pc.Name())
	if budget == 0 && tr.ask > 0 {
		// A rival's ask that a run before this one began and did not
		// end: it goes on first, as the turn it was part of would have.
		return c.rivalsOrGrow(ctx, i, pos, hist)
	}
	if budget > 0 {
		step = budget
	} else {
		// A full step: one that a run before this one began and did not
		// end goes on with what it had left.
		if tr.left > 0 && tr.left < step {
			step = tr.left
		}
		c.full = &tr.left
	}
	b, err := c.step(ctx, pos, hist, step)
	c.full = nil
	if err != nil {
		return false, err
	}
	switch {
	case b.PN == 0:
		pc.Proven, pc.Plies, pc.Tried = true, b.Plies, true
		if err := c.writePiece(ctx, pc); err != nil {
			return false, err
		}
		return false, c.checkpoint()
	case b.DN == 0 && !b.OnPath:
		if err := c.drop(i); err != nil {
			return false, err
		}
		return true, c.checkpoint()
	case budget > 0:
		pc.Tried = true
		return false, nil
	}
	stuck := b.PN >= tr.last
	tr.last = b.PN
	if stuck {
		tr.stuck++
		switch {
		case tr.stuck >= 2 && c.cut(i, false):
			return true, c.checkpoint()
		case tr.stuck >= 2:
			return c.rivalsOrGrow(ctx, i, pos, hist)
		default:
			line, err := c.unstick(ctx, pos, hist, c.cfg.Step)
			if err != nil {
				return false, err
			}
			if len(line) > 0 {
				tr.waits = board.FormatMoves(append(slices.Clone(pc.Moves), line...))
			}
		}
	}
	return false, c.saveIfDue()
}

// rivalsOrGrow ends the turn of piece i (at pos, whose history is hist)
// stuck again and not cut: its rivals are asked (askRivals) and the cut
// tried again; if it still cannot be cut and no winner's move is proven,
// a piece whose stuck line still goes the way of the position asked at
// its last stuck step is cut down the line (cutLine), one whose step has
// doubled lateCutGrow times is cut on its best try, and any other has
// the table collected and its step doubled.
func (c *campaign) rivalsOrGrow(ctx context.Context, i int, pos board.Position, hist []uint64) (changed bool, err error) {
	cut, err := c.askRivals(ctx, i, pos, hist)
	if err != nil {
		return false, err
	}
	if cut {
		return true, c.checkpoint()
	}
	if pos.Side() == c.cfg.Winner {
		if _, proven := c.tries(&pos, hist); proven {
			// A rival proven: the piece's next step proves it, at any
			// step, with nothing collected. (At the loser's turn a reply
			// proven proves nothing: the others are still open.)
			return false, c.saveIfDue()
		}
	}
	pc := &c.pieces[i]
	if c.cutLine(i, pos, hist, c.trackOf(pc.Name()).waits) {
		return true, c.checkpoint()
	}
	if pc.Grow >= lateCutGrow && c.cut(i, true) {
		return true, c.checkpoint()
	}
	pc.Grow = min(pc.Grow+1, MaxGrow)
	c.collect()
	return false, c.saveIfDue()
}

// lateCutGrow is how many times a piece's step must have doubled for the
// piece, stuck again at the winner's turn with no move clearly best and
// left uncut by its rivals' asks, to be cut on its best try: after a step
// of four Config.Step (400 million nodes at the default step; the rule
// counts doublings, so with small steps it comes after few nodes) the
// best try rests on hundreds of millions of nodes, and a wrong one is
// dropped when a piece below it is disproven (step 5), the piece coming
// back with its step no longer doubled. In
// katro-4x6's runs from nothing, e1 c4 a1 and f1 stood still through
// steps of 400 and 800 million nodes with the moves the proof by hand
// kept (f4 and d4) as their best tries.
const lateCutGrow = 2

// bestTry returns the winner's known open move at p, its turn, with the
// smallest proof number (tries); false when there is none, or when a move
// is proven.
func (c *campaign) bestTry(p *board.Position, hist []uint64) (board.Move, bool) {
	open, proven := c.tries(p, hist)
	open = slices.DeleteFunc(open, func(t try) bool { return !t.known })
	if proven || len(open) == 0 {
		return board.NoMove, false
	}
	return bestOf(open).m, true
}

// saveIfDue saves when Config.SaveEvery has passed since the last save.
func (c *campaign) saveIfDue() error {
	if time.Since(c.saved) >= c.cfg.SaveEvery {
		return c.save()
	}
	return nil
}

// pieceTrack is what a run knows of a piece's progress: its proof number
// after its last full step, how often it was stuck, and the nodes left of
// a full step or of a rival's ask begun and not ended (paused for a save,
// or interrupted).
type pieceTrack struct {
	last      uint32
	stuck     int
	left, ask uint64
	// waits names the position (its moves from the root) that the
	// piece's stuck line led to when it was last asked on its own ("":
	// none asked).
	waits string
}

// trackOf returns the track of the piece named name, a new one if the
// campaign has none.
func (c *campaign) trackOf(name string) *pieceTrack {
	if c.track == nil {
		c.track = map[string]*pieceTrack{}
	}
	tr := c.track[name]
	if tr == nil {
		tr = &pieceTrack{last: dfpn.Infinity}
		c.track[name] = tr
	}
	return tr
}

// cut replaces piece i by the pieces below it (step 4 of the package's
// strategy) and reports whether it could: not deeper than CutPlies, and
// not where no move is left to cut at. At the winner's turn the glue is
// its clearly best move, or with onBest its best try (the known open
// move with the smallest proof number) when none is clearly best.
func (c *campaign) cut(i int, onBest bool) bool {
	pc := c.pieces[i]
	if c.cfg.CutPlies < 0 || len(pc.Moves) >= c.cfg.CutPlies {
		return false
	}
	g, err := c.after(pc.Moves)
	if err != nil {
		return false
	}
	pos := g.Position()
	base := slices.Clone(pc.Moves)
	var glue []Glue
	if pos.Side() == c.cfg.Winner {
		m, ok := c.clearBest(&pos, c.history(g))
		if !ok && onBest {
			m, ok = c.bestTry(&pos, c.history(g))
		}
		if !ok || !pos.Play(m) {
			return false
		}
		glue = []Glue{{Moves: slices.Clone(base), Move: m}}
		base = append(base, m)
	}
	kids := replies(&pos, base, nil)
	if len(kids) == 0 {
		return false
	}
	c.replace(i, glue, kids)
	return true
}

// replies appends to kids a piece for each of p's legal moves, p being
// the position after base.
func replies(p *board.Position, base []board.Move, kids []Piece) []Piece {
	for _, r := range p.LegalMoves() {
		kids = append(kids, Piece{Moves: append(slices.Clone(base), r)})
	}
	return kids
}

// replace puts kids in the place of piece i and keeps glue: the end of
// every cut.
func (c *campaign) replace(i int, glue []Glue, kids []Piece) {
	name := c.pieces[i].Name()
	c.glue = append(c.glue, glue...)
	c.pieces = slices.Replace(c.pieces, i, i+1, kids...)
	delete(c.track, name) // brought back by a drop, it starts afresh, as after a restart
}

// clearBest returns the winner's move at p, its turn, that a cut may keep
// as glue: the one move not disproven in the table, or a best try whose
// proof number is at most a tenth of every other open move's. A cut on a
// move that is merely the best so far commits the pieces below to it: if
// it wins only by a long proof, or loses only by a long disproof, they
// cost more than the whole position (measured: on a katro-4x6 position
// df-pn proves in 38,000 nodes, pieces cut on the best try at each step of
// 1,000 nodes went 16 plies deep and took millions).
func (c *campaign) clearBest(p *board.Position, hist []uint64) (board.Move, bool) {
	open, proven := c.tries(p, hist)
	if proven || len(open) == 0 {
		return board.NoMove, false
	}
	if len(open) == 1 {
		return open[0].m, true
	}
	if slices.ContainsFunc(open, func(t try) bool { return !t.known }) {
		return board.NoMove, false // never searched: nothing says another is better
	}
	best := bestOf(open)
	for _, t := range open {
		if t.m != best.m && uint64(best.pn)*clearRatio > uint64(t.pn) {
			return board.NoMove, false
		}
	}
	return best.m, true
}

// try is one of the winner's moves at a position of its turn, with the
// table's numbers of the position after it.
type try struct {
	m      board.Move
	pn, dn uint32
	known  bool // the table holds the position (else pn is Infinity and dn 0)
}

// bestOf returns the best try of open, not empty: the move with the
// smallest proof number, the first of equals.
func bestOf(open []try) try {
	return slices.MinFunc(open, func(a, b try) int { return cmp.Compare(a.pn, b.pn) })
}

// tries returns the winner's moves at p, its turn, that the table does
// not hold disproven, with their numbers, leaving out those that repeat
// a position of hist (p's history: the search counts them lost on the
// path, and never stores them); proven reports a move the table holds
// proven (the piece is then about to be), and no moves with it.
func (c *campaign) tries(p *board.Position, hist []uint64) (open []try, proven bool) {
	for _, m := range p.LegalMoves() {
		q := *p
		if !q.Play(m) || slices.Contains(hist, q.Key()) {
			continue
		}
		pn, dn, ok := c.s.Numbers(&q, c.cfg.Winner)
		switch {
		case !ok:
			pn, dn = dfpn.Infinity, 0
		case dn == 0:
			continue
		case pn == 0:
			return nil, true
		}
		open = append(open, try{m, pn, dn, ok})
	}
	return open, false
}

// askRival asks on its own, within budget nodes, the winner's move at
// the piece's position (the winner to move, a position a cut may be made
// at) that keeps it from being cut (rival), and reports whether it asked
// one, with the numbers its search returned. Where the winner has two or more open moves and none is clearly
// best, df-pn works on the best try and leaves the others' numbers
// where they stand: at katro-4x6's e1, after 3.8 billion nodes of the
// campaign, c4 stood at proof number 33,651 and e4, a loss, at 97,502
// with its disproof number 2,017. Asked on its own, the rival is
// disproven (its disproof stays in the table, so the next cut may keep the
// best try as glue) or proven (and the piece with it).
func (c *campaign) askRival(ctx context.Context, pc *Piece, pos board.Position, hist []uint64, budget uint64) (bool, dfpn.Bounds, error) {
	if pos.Side() != c.cfg.Winner || c.cfg.CutPlies < 0 || len(pc.Moves) >= c.cfg.CutPlies {
		return false, dfpn.Bounds{}, nil
	}
	m, ok := c.rival(&pos, hist)
	if !ok {
		return false, dfpn.Bounds{}, nil
	}
	return c.ask(ctx, pos, hist, []board.Move{m}, budget)
}

// askRivals asks the rivals of piece i, at pos (whose history is hist),
// one after another with the piece's step (askRival), for as long as
// each is disproven and the piece cannot be cut yet: with three open
// moves or more, the first rival's disproof leaves another in the way.
// It reports whether the piece was cut. A rival proven ends the asks: the
// piece's next step proves the piece.
func (c *campaign) askRivals(ctx context.Context, i int, pos board.Position, hist []uint64) (bool, error) {
	tr := c.trackOf(c.pieces[i].Name())
	c.full = &tr.ask
	defer func() { c.full = nil }()
	for range board.MaxMoves {
		budget := c.cfg.Step << c.pieces[i].Grow
		if tr.ask > 0 && tr.ask < budget {
			budget = tr.ask // the ask a run before this one began
		}
		asked, b, err := c.askRival(ctx, &c.pieces[i], pos, hist, budget)
		if !asked {
			tr.ask = 0
		}
		switch {
		case err != nil || !asked:
			return false, err
		case c.cut(i, false):
			return true, nil
		case b.DN != 0:
			return false, nil // proven, or still open after its step
		}
	}
	return false, nil
}

// ask searches, within budget nodes and as a root of its own, the
// position line leads to from pos (whose history is hist), naming line in
// the progress reports, and returns the numbers the search left it with
// (which the table keeps too). It reports false, having asked nothing,
// when a move of line cannot be played.
func (c *campaign) ask(ctx context.Context, pos board.Position, hist []uint64, line []board.Move, budget uint64) (bool, dfpn.Bounds, error) {
	g := board.NewGame(pos)
	if err := g.PlayAll(line); err != nil {
		return false, dfpn.Bounds{}, nil
	}
	c.asking = board.FormatMoves(line)
	defer func() { c.asking = "" }()
	b, err := c.step(ctx, g.Position(), append(slices.Clone(hist), g.History()...), budget)
	return true, b, err
}

// rival returns the winner's move at p, its turn, that stands most in
// the way of a cut on the best try (clearBest), when asking it is worth a
// step (pickRival). false when there is none, or when a move is proven
// (the piece is then about to be).
func (c *campaign) rival(p *board.Position, hist []uint64) (board.Move, bool) {
	open, proven := c.tries(p, hist)
	if proven {
		return board.NoMove, false
	}
	return pickRival(open)
}

// pickRival returns, of the open moves other than the best try (the
// smallest proof number), a move the table does not hold, else the one
// nearest to its disproof (the smallest disproof number), when that
// disproof number is at most a rivalRatio-th of the best try's proof
// number; false otherwise, or with fewer than two open moves.
func pickRival(open []try) (board.Move, bool) {
	if len(open) < 2 {
		return board.NoMove, false
	}
	best := bestOf(open)
	others := slices.DeleteFunc(slices.Clone(open), func(t try) bool { return t.m == best.m })
	r := slices.MinFunc(others, func(a, b try) int { return cmp.Compare(a.dn, b.dn) })
	if r.known && uint64(r.dn)*rivalRatio > uint64(best.pn) {
		return board.NoMove, false
	}
	return r.m, true
}

// rivalRatio is how many times smaller than the best try's proof number
// a rival's disproof number must be for the rival to be asked. Measured
// on katro-4x6's run from nothing (journal 2026-12-07-campaign-rival-ratio):
// the rivals disproven within a minute stood at 0.06 and 0.08 of the best
// try's number (e4 after e1, a4 after e1 c4 a1), the one asked three
// times for about 540 million nodes without being disproven at 1.65 (b4
// after f1).
const rivalRatio = 4

// clearRatio is how many times smaller than every other open move's proof
// number a best try's must be to be cut on.
const clearRatio = 10

// drop handles the disproof of piece i (step 5): the deepest glue move
// above it is wrong, so that glue and every piece below it go, and the
// piece cut there comes back whole. With no glue above it, the question
// is disproven.
func (c *campaign) drop(i int) error {
	pc := c.pieces[i]
	gi := -1
	for j, g := range c.glue {
		if isPrefix(append(slices.Clone(g.Moves), g.Move), pc.Moves) && (gi < 0 || len(g.Moves) > len(c.glue[gi].Moves)) {
			gi = j
		}
	}
	if gi < 0 {
		if len(pc.Moves) == 0 {
			return fmt.Errorf("%w: %s does not win %s", ErrRefuted, c.cfg.Winner, c.root.String())
		}
		return fmt.Errorf("%w: %s does not win after %s", ErrRefuted, c.cfg.Winner, pc.Name())
	}
	top := slices.Clone(c.glue[gi].Moves)
	c.glue = slices.DeleteFunc(c.glue, func(g Glue) bool { return isPrefix(top, g.Moves) })
	at := -1
	var kept []Piece
	for _, p := range c.pieces {
		if !isPrefix(top, p.Moves) {
			kept = append(kept, p)
			continue
		}
		if at < 0 {
			at = len(kept)
		}
		delete(c.track, p.Name()) // gone: a piece made again later starts afresh
		if p.Proven {
			os.Remove(c.piecePath(&p)) // its certificate is of no use now; a leftover is harmless
		}
	}
	c.pieces = slices.Insert(kept, at, Piece{Moves: top, Tried: true})
	return nil
}

// isPrefix reports whether pre is a prefix of ms.
func isPrefix(pre, ms []board.Move) bool {
	return len(pre) <= len(ms) && slices.Equal(pre, ms[:len(pre)])
}

// unstick asks the position the piece's search (at pos, whose history is
// hist) waits on as a root of its own, then collects the table as a save
// and reload would. It returns the line from pos to the position asked
// (none when the search waits on pos itself).
func (c *campaign) unstick(ctx context.Context, pos board.Position, hist []uint64, step uint64) ([]board.Move, error) {
	line := c.stuckLine(pos)
	if len(line) >= 1 {
		if _, _, err := c.ask(ctx, pos, hist, line, step); err != nil {
			return nil, err
		}
	}
	c.collect()
	return line, nil
}

// collect empties the table of what a save and a reload would drop: the
// unfinished entries with little work below them, and the disproofs that
// rest on a repetition of their own line.
func (c *campaign) collect() {
	c.s.Collect()
	c.collects++
}

// stuckLine follows from pos the line on which the search of pos waits:
// at the winner's turns the best try (the child with the smallest proof
// number the table holds), at the loser's the one reply not yet proven
// while there is only one, so that pos's proof number is carried down the
// line unchanged. It returns the line to the deepest such position: one
// of the loser with several open replies, where the work is.
func (c *campaign) stuckLine(pos board.Position) []board.Move {
	w := c.cfg.Winner
	var line []board.Move
	p := pos
	for len(line) < dfpn.MaxDepth {
		var next board.Move
		if p.Side() == w {
			m, pn, ok := c.s.BestTry(&p, w)
			if !ok || pn == 0 {
				break
			}
			next = m
		} else {
			open := 0
			for _, m := range p.LegalMoves() {
				q := p
				q.Play(m)
				if pn, _, ok := c.s.Numbers(&q, w); !ok || pn != 0 {
					open++
					next = m
				}
			}
			if open != 1 {
				break
			}
		}
		if !p.Play(next) {
			break
		}
		line = append(line, next)
	}
	return line
}

// prove runs a search of pos within budget nodes, counting its nodes.
func (c *campaign) prove(ctx context.Context, pos board.Position, hist []uint64, budget uint64) (dfpn.Bounds, error) {
	b, n, err := c.s.ProveWithin(ctx, pos, hist, c.cfg.Winner, budget, c.report)
	c.ran += n
	c.st.Nodes = c.nodes0 + c.ran
	return b, err
}

// step runs one step of budget nodes on pos (the progress reports name
// the budget), keeping the nodes it has left in c.full (keepLeft) when
// it is a piece's full step or a rival's ask. A step longer than Config.Step (a grown one) is paused to
// save the table whenever Config.SaveEvery has passed since the last
// save, and goes on from the same root on the same table, until its
// budget is spent or the position is settled; a part between saves lasts
// at least four times the last save, so that saving takes at most a
// fifth of the step's time however small SaveEvery is.
func (c *campaign) step(ctx context.Context, pos board.Position, hist []uint64, budget uint64) (dfpn.Bounds, error) {
	c.budget = budget
	defer func() { c.budget = 0 }()
	if budget <= c.cfg.Step {
		ran := c.ran
		b, err := c.prove(ctx, pos, hist, budget)
		c.keepLeft(budget, c.ran-ran, b, err)
		return b, err
	}
	for {
		due := c.saved.Add(c.cfg.SaveEvery)
		if least := time.Now().Add(4 * c.saveTook); due.Before(least) {
			due = least
		}
		part, cancel := context.WithDeadline(ctx, due)
		ran := c.ran
		b, err := c.prove(part, pos, hist, budget)
		paused := err != nil && ctx.Err() == nil && errors.Is(part.Err(), context.DeadlineExceeded)
		cancel()
		spent := c.ran - ran
		if !paused {
			c.keepLeft(budget, spent, b, err)
			return b, err // the step's end, or the campaign's
		}
		// Paused for a save.
		if b.PN == 0 || b.DN == 0 || spent >= budget {
			c.keepLeft(budget, spent, b, nil)
			return b, nil
		}
		budget -= spent
		if c.full != nil {
			*c.full = budget
		}
		if err := c.save(); err != nil {
			return b, err
		}
	}
}

// keepLeft records, in the track of the piece whose full step or rival's
// ask is under way (c.full), the nodes it has left once a part of it has
// run: the part had budget nodes and searched spent of them. When the part
// ended the step, nothing is left; when an error (the campaign's end) cut
// it short, budget - spent is.
func (c *campaign) keepLeft(budget, spent uint64, b dfpn.Bounds, err error) {
	if c.full == nil {
		return
	}
	*c.full = 0
	if err != nil && spent < budget && b.PN != 0 && b.DN != 0 {
		*c.full = budget - spent
	}
}

// report sends a report to Config.Progress.
func (c *campaign) report(pr dfpn.Progress) {
	if c.cfg.Progress == nil {
		return
	}
	el := time.Since(c.start)
	r := Report{Pieces: append([]Piece(nil), c.pieces...), Glue: append([]Glue(nil), c.glue...), Working: c.working, Step: c.budget, Asking: c.asking, Search: pr,
		Nodes: c.nodes0 + c.ran + pr.Nodes, Elapsed: c.elapsed + el}
	if s := el.Seconds(); s > 0 {
		r.NPS = float64(c.ran+pr.Nodes) / s
	}
	c.cfg.Progress(r)
}

// history returns the keys of the positions before g's, a game from the
// root: the root's own game's, then g's.
func (c *campaign) history(g *board.Game) []uint64 {
	return append(append([]uint64(nil), c.game.History()...), g.History()...)
}

// after returns the game after moves from the root.
func (c *campaign) after(moves []board.Move) (*board.Game, error) {
	g := board.NewGame(c.root)
	if err := g.PlayAll(moves); err != nil {
		return nil, err
	}
	return g, nil
}

// piecePath returns the file of a piece's certificate.
func (c *campaign) piecePath(pc *Piece) string {
	name := "root"
	if len(pc.Moves) > 0 {
		name = strings.ReplaceAll(board.FormatMoves(pc.Moves), " ", "-")
	}
	return filepath.Join(c.cfg.Dir, "pieces", name+".proof")
}

// writePiece writes a proven piece's certificate.
func (c *campaign) writePiece(ctx context.Context, pc *Piece) error {
	g, err := c.after(pc.Moves)
	if err != nil {
		return err
	}
	hist := c.history(g)
	oracle := func(p *board.Position) (board.Move, bool) {
		m, _, ok := c.s.WinningMove(ctx, p)
		return m, ok
	}
	_, err = cert.WriteFile(ctx, c.piecePath(pc), g.Position(), c.cfg.Winner, oracle, cert.Options{History: hist})
	return err
}

// join writes the root's certificate from the pieces'.
func (c *campaign) join(ctx context.Context, proof string) (cert.Stats, error) {
	pieces, err := cert.NewPieces(c.root.Variant())
	if err != nil {
		return cert.Stats{}, err
	}
	for i := range c.pieces {
		f, err := os.Open(c.piecePath(&c.pieces[i]))
		if err != nil {
			return cert.Stats{}, err
		}
		err = pieces.Read(ctx, f)
		f.Close()
		if err != nil {
			return cert.Stats{}, fmt.Errorf("piece %s: %w", c.pieces[i].Name(), err)
		}
	}
	glue := map[string]board.Move{}
	for _, gl := range c.glue {
		g, err := c.after(gl.Moves)
		if err != nil {
			return cert.Stats{}, err
		}
		p := g.Position()
		glue[noClock(&p)] = gl.Move
	}
	inPieces := pieces.Oracle()
	oracle := func(p *board.Position) (board.Move, bool) {
		if m, ok := glue[noClock(p)]; ok {
			return m, true
		}
		return inPieces(p)
	}
	return cert.WriteFile(ctx, proof, c.root, c.cfg.Winner, oracle, cert.Options{History: c.game.History()})
}

// noClock returns p's notation without its clock.
func noClock(p *board.Position) string {
	s := p.String()
	return s[:strings.LastIndexByte(s, ' ')]
}

func (c *campaign) totalNodes() uint64 { return c.nodes0 + c.ran }

func (c *campaign) totalElapsed() time.Duration { return c.elapsed + time.Since(c.start) }
