package dfpn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// line46 is the katro-4x6 self-play line of docs/dfpn.md (North wins every
// position on it from the 22nd ply).
const line46 = "e1 c4 d1 f4 a1 f4 c1 c4 e1 b4 b1 a4 b1 c4 c1 e4 f1 f4 f1 d4 a1 a4 e1 f4 " +
	"b1 d4 e1 f4 b1 b4 b1 a4 e1 c4 a1 a4 d1 e4 c1 f4 b1 c4 a1 c4 f1 d4 e1 a4 " +
	"b1 b4 d1 c4 e1 e4 b1 e4 b1 f4 d1 c4 f1 e4 b1 f4 e1 d4 f1 d4"

// parseSpec reads a configuration of the measurements: an estimate (mob,
// uniform, seeds, seedsmob, eval, evalmob), for the evaluation's estimates
// ":scale" and ":base" optionally, and "+ties" for ties broken by the
// evaluation (TiesEval; without it, TiesFirst); for
// example "evalmob:300:2+ties". It returns the configuration and the
// evaluation's base (0: the default).
func parseSpec(spec string) (Config, float64, error) {
	var cfg Config
	s, ties := strings.CutSuffix(spec, "+ties")
	cfg.Ties = TiesFirst
	if ties {
		cfg.Ties = TiesEval
	}
	parts := strings.Split(s, ":")
	inits := map[string]Init{"mob": InitMobility, "uniform": InitUniform, "seeds": InitSeeds,
		"seedsmob": InitSeedsMobility, "eval": InitEval, "evalmob": InitEvalMobility,
		"look": InitLookahead, "looksum": InitLookaheadSum}
	in, ok := inits[parts[0]]
	if !ok || len(parts) > 3 {
		return cfg, 0, fmt.Errorf("configuration %q: want estimate[:scale[:base]][+ties]", spec)
	}
	cfg.Init = in
	var base float64
	if len(parts) > 1 {
		n, err := strconv.Atoi(parts[1])
		if err != nil {
			return cfg, 0, fmt.Errorf("configuration %q: %v", spec, err)
		}
		cfg.EvalScale = n
	}
	if len(parts) > 2 {
		b, err := strconv.ParseFloat(parts[2], 64)
		if err != nil {
			return cfg, 0, fmt.Errorf("configuration %q: %v", spec, err)
		}
		base = b
	}
	return cfg, base, nil
}

// evalSet returns the positions of one measuring set by name: "starts"
// (the katro-4x4 and katro-6x3 starts), "late" (the 24 Katro 6x6
// positions of katro-6x6-late.txt), "late20" to "late40" (the positions
// of the same games that many plies before the end: the 20-ply positions
// with moves taken back, of the games recorded that far back, all twelve
// up to late37; the side to move lost the recorded game at an even number
// and won it at an odd one), "bal30" (late29 and late30: as
// many recorded wins for the side to move as losses), "line46" (the katro-4x6 line
// at plies 24 and 22), "line46-24", "line46-22" and "line46-20" (one of
// its plies) and "random46" (the 40
// katro-4x6 positions 1 to 40 plies before the end of random games of
// TestMeasureInit).
func evalSet(t *testing.T, name string) []latePosition {
	if n, ok := strings.CutPrefix(name, "late"); ok {
		if plies, err := strconv.Atoi(n); err == nil && plies >= 20 && plies <= 40 {
			return lateBack(t, plies)
		}
	}
	switch name {
	case "starts":
		var set []latePosition
		for _, b := range []string{"katro-4x4", "katro-6x3"} {
			v, err := board.New(b)
			if err != nil {
				t.Fatal(err)
			}
			set = append(set, latePosition{name: b, game: board.NewGame(v.Start())})
		}
		return set
	case "late":
		return lateSet(t)
	case "random46":
		v, err := board.New("katro-4x6")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4)) // TestMeasureInit's positions
		var set []latePosition
		for len(set) < 40 {
			if p, ok := lateSample(v, rng, 40); ok {
				set = append(set, latePosition{name: "random " + strconv.Itoa(len(set)+1), game: board.NewGame(p)})
			}
		}
		return set
	case "bal30":
		return append(evalSet(t, "late29"), evalSet(t, "late30")...)
	case "line46", "line46-24", "line46-22", "line46-20":
		plies := []int{24, 22}
		if n, ok := strings.CutPrefix(name, "line46-"); ok {
			ply, _ := strconv.Atoi(n)
			plies = []int{ply}
		}
		v, err := board.New("katro-4x6")
		if err != nil {
			t.Fatal(err)
		}
		moves, err := v.ParseMoves(line46)
		if err != nil {
			t.Fatal(err)
		}
		var set []latePosition
		for _, n := range plies {
			g := board.NewGame(v.Start())
			if err := g.PlayAll(moves[:n]); err != nil {
				t.Fatal(err)
			}
			set = append(set, latePosition{name: "katro-4x6 ply " + strconv.Itoa(n), game: g, history: g.History()})
		}
		return set
	}
	t.Fatalf("no measuring set %q", name)
	return nil
}

// lateBack returns the 20-ply positions of the late set with plies-20
// moves taken back, named "gN-plies".
func lateBack(t *testing.T, plies int) []latePosition {
	var set []latePosition
	for _, lp := range lateSet(t) {
		if !strings.HasSuffix(lp.name, "-20") {
			continue
		}
		moves := lp.game.Moves()
		if len(moves) < plies-20 {
			// The file keeps the game from after its random plies.
			t.Logf("%s: %d moves recorded, fewer than the %d to take back: left out", lp.name, len(moves), plies-20)
			continue
		}
		g := board.NewGame(lp.game.Start())
		if err := g.PlayAll(moves[:len(moves)-(plies-20)]); err != nil {
			t.Fatal(err)
		}
		set = append(set, latePosition{name: strings.TrimSuffix(lp.name, "-20") + "-" + strconv.Itoa(plies), game: g, history: g.History()})
	}
	return set
}

// favourite returns the side the static evaluation favours in p, the side
// to move when it is level (sower solve's --first eval).
func favourite(p *board.Position) board.Side {
	if eval.New(p.Variant()).Evaluate(p) < 0 {
		return p.Side().Other()
	}
	return p.Side()
}

// envInt returns the environment variable name as a number, or def.
func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// TestMeasureEval compares first estimates and tie-breaking by node counts
// on one measuring set (SOWER_DFPN_SET, see evalSet; default "starts"),
// each position from an empty table with a budget of SOWER_DFPN_NODES
// nodes for each of its two proof searches (default 2,000,000), a table
// of SOWER_DFPN_HASH MiB (default 256): the configurations
// SOWER_DFPN_CONFIGS (comma-separated, see parseSpec; default "mob" and
// a few evaluation estimates). It reports, for each configuration, the
// positions solved and the nodes on the positions every configuration
// solved, and for an unsolved position its last question's root numbers.
// SOWER_DFPN_FIRST=opponent asks first for the win of the side not to
// move, eval for the side the static evaluation favours (default mover).
// It only reports (SOWER_DFPN_MEASURE=eval).
func TestMeasureEval(t *testing.T) {
	if os.Getenv("SOWER_DFPN_MEASURE") != "eval" {
		t.Skip("set SOWER_DFPN_MEASURE=eval to measure")
	}
	setName := os.Getenv("SOWER_DFPN_SET")
	if setName == "" {
		setName = "starts"
	}
	set := evalSet(t, setName)
	budget := uint64(envInt(t, "SOWER_DFPN_NODES", 2_000_000))
	hash := envInt(t, "SOWER_DFPN_HASH", 256)
	specs := strings.Split(os.Getenv("SOWER_DFPN_CONFIGS"), ",")
	if specs[0] == "" {
		specs = []string{"mob", "eval", "evalmob", "eval+ties", "evalmob+ties"}
	}
	firstBy := os.Getenv("SOWER_DFPN_FIRST")
	switch firstBy {
	case "":
		firstBy = "mover"
	case "mover", "opponent", "eval":
	default:
		t.Fatalf("SOWER_DFPN_FIRST=%q: want mover, opponent or eval", firstBy)
	}
	// nodes[i][j]: configuration i on position j; 0 when unsolved.
	nodes := make([][]uint64, len(specs))
	took := make([]time.Duration, len(specs)) // all positions, solved or not
	searched := make([]uint64, len(specs))    // all positions, solved or not
	for i, spec := range specs {
		cfg, base, err := parseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		cfg.HashMiB, cfg.MaxNodes = hash, budget
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if base > 0 {
			s.evalBase = base
		}
		nodes[i] = make([]uint64, len(set))
		for j, lp := range set {
			s.Clear()
			var last Progress
			root := lp.game.Position()
			first := root.Side()
			switch firstBy {
			case "opponent":
				first = first.Other()
			case "eval":
				first = favourite(&root)
			}
			res, err := s.SolveFirst(context.Background(), root, lp.history, first, func(p Progress) { last = p })
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("unsolved (%s wins? root pn %d dn %d)", last.Attacker, last.PN, last.DN)
			if res.Outcome != Unknown {
				nodes[i][j] = res.Nodes
				what = fmt.Sprintf("%s in %d plies", res.Outcome, res.Plies)
				if res.Outcome == Win || res.Outcome == Loss {
					what = fmt.Sprintf("%s wins in %d plies", res.Winner, res.Plies)
				}
			}
			took[i] += res.Time
			searched[i] += res.Nodes
			t.Logf("%s\t%s\t%s\t%d nodes\t%s first\t%.1f s", spec, lp.name, what, res.Nodes, first, res.Time.Seconds())
		}
		s = nil
		runtime.GC()
	}
	common := make([]bool, len(set))
	for j := range set {
		common[j] = true
		for i := range specs {
			common[j] = common[j] && nodes[i][j] > 0
		}
	}
	for i, spec := range specs {
		solved, sum, fewer := 0, uint64(0), 0
		for j := range set {
			if nodes[i][j] > 0 {
				solved++
			}
			if common[j] {
				sum += nodes[i][j]
				if nodes[i][j] < nodes[0][j] {
					fewer++
				}
			}
		}
		t.Logf("%s: %d of %d solved; %d nodes on the %d all solved (fewer than %s on %d); all positions: %d nodes, %.1f s, %.0f nodes/s",
			spec, solved, len(set), sum, count(common), specs[0], fewer, searched[i], took[i].Seconds(), float64(searched[i])/took[i].Seconds())
	}
}

// count returns how many of bs are true.
func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
