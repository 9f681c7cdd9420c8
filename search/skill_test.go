package search

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

func TestSkillTables(t *testing.T) {
	for _, fam := range []board.Family{board.Katro, board.Hoyito} {
		for l := MinSkill; l < FullSkill; l++ {
			// Each level searches more nodes per line ranked, errs less
			// and ranks no more lines than the one below.
			per := SkillNodes(fam, l+1) / uint64(SkillLines(l+1))
			if below := SkillNodes(fam, l) / uint64(SkillLines(l)); per <= below {
				t.Errorf("%v: nodes per line of level %d (%d) not above level %d's (%d)", fam, l+1, per, l, below)
			}
			if SkillError(fam, l+1) > SkillError(fam, l) || SkillLines(l+1) > SkillLines(l) {
				t.Errorf("%v: level %d errs by %d with %d lines, more than level %d (%d, %d lines)",
					fam, l+1, SkillError(fam, l+1), SkillLines(l+1), l, SkillError(fam, l), SkillLines(l))
			}
		}
		if SkillError(fam, FullSkill) != 0 || SkillLines(FullSkill) != 1 {
			t.Errorf("%v: full strength errs by %d over %d lines", fam, SkillError(fam, FullSkill), SkillLines(FullSkill))
		}
	}
	lo, hi := SkillEloRange()
	for _, fam := range []board.Family{board.Katro, board.Hoyito} {
		for l := MinSkill; l < FullSkill; l++ {
			if SkillElo(fam, l+1) <= SkillElo(fam, l) {
				t.Errorf("%v: Elo of level %d (%d) not above level %d's (%d)", fam, l+1, SkillElo(fam, l+1), l, SkillElo(fam, l))
			}
		}
		for l := MinSkill; l <= FullSkill; l++ {
			if got := SkillForElo(fam, SkillElo(fam, l)); got != l {
				t.Errorf("%v: SkillForElo(%d) = %d, want %d", fam, SkillElo(fam, l), got, l)
			}
			if e := SkillElo(fam, l); e < lo || e > hi {
				t.Errorf("%v: level %d's Elo %d outside UCI_Elo's range %d to %d", fam, l, e, lo, hi)
			}
		}
		if SkillForElo(fam, -1000) != MinSkill || SkillForElo(fam, 100000) != FullSkill {
			t.Errorf("%v: Elo outside the ladder does not map to its ends", fam)
		}
	}
}

// freeCapture finds, in seeded random Katro games, a position where one
// move alone wins seeds (a capture) and the full search scores it two to
// eight seeds above every other move: a free capture, not an enormous one.
func freeCapture(t *testing.T) (board.Position, []uint64, board.Move) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	v, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		g := board.NewGame(v.Start())
		for g.Ply() < 20+rng.IntN(20) && !g.Status().Over() {
			p := g.Position()
			ms := p.LegalMoves()
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		p := g.Position()
		if g.Status().Over() || len(p.LegalMoves()) < 3 {
			continue
		}
		hist := append([]uint64(nil), g.History()...)
		_, byDepth := multiLines(t, p, hist, Limits{Depth: 6, MultiPV: 2})
		lines := byDepth[6]
		best := lines[0].PV[0]
		var captures []board.Move
		for _, m := range p.LegalMoves() {
			c := p
			c.Play(m)
			if c.SeedsOf(p.Side().Other()) < p.SeedsOf(p.Side().Other()) {
				captures = append(captures, m)
			}
		}
		if d := lines[0].Score - lines[1].Score; d >= 200 && d <= 800 && len(captures) == 1 && captures[0] == best {
			return p, hist, best
		}
	}
	t.Fatal("no free capture found")
	return board.Position{}, nil, 0
}

// TestSkillFreeCapture: level 0 still takes a free capture most of the
// time (statistically, over fixed seeds), plays only legal moves, and
// does not always play the same move in every position.
func TestSkillFreeCapture(t *testing.T) {
	p, hist, capture := freeCapture(t)
	const tries = 100
	took := 0
	e := newEngine(t)
	for seed := range uint64(tries) {
		e.ClearHash()
		res := runSearch(t, e, p, hist, Limits{Skill: &Skill{Level: 0, Seed: seed}})
		checkLegal(t, p, res.Move, "level 0 move")
		if res.Move == capture {
			took++
		}
		if res.Info.Nodes > SkillNodes(p.Variant().Family(), 0)+200 {
			t.Fatalf("level 0 searched %d nodes", res.Info.Nodes)
		}
	}
	t.Logf("%s: level 0 took the capture %s in %d of %d", p.String(), capture, took, tries)
	if took < tries*7/10 {
		t.Errorf("level 0 took the free capture %s in %d of %d searches, want at least 70%%", capture, took, tries)
	}
}

// TestSkillVaries: at level 0 the choice among close moves varies with
// the seed; at full strength it does not; the same seed gives the same
// move.
func TestSkillVaries(t *testing.T) {
	p := startPosition(t, board.NameKatro)
	seen := map[board.Move]bool{}
	e := newEngine(t)
	for seed := range uint64(40) {
		e.ClearHash()
		a := runSearch(t, e, p, nil, Limits{Skill: &Skill{Level: 0, Seed: seed}})
		e.ClearHash()
		b := runSearch(t, e, p, nil, Limits{Skill: &Skill{Level: 0, Seed: seed}})
		if a.Move != b.Move {
			t.Errorf("seed %d: %s then %s", seed, a.Move, b.Move)
		}
		if a.Info.PV[0] != a.Move {
			t.Errorf("seed %d: move %s, last line %s", seed, a.Move, board.FormatMoves(a.Info.PV))
		}
		seen[a.Move] = true
	}
	if len(seen) < 2 {
		t.Errorf("level 0 played %v from the start in 40 searches: no variety", seen)
	}
	full := runSearch(t, newEngine(t), p, nil, Limits{Depth: 5})
	for seed := range uint64(5) {
		got := runSearch(t, newEngine(t), p, nil, Limits{Depth: 5, Skill: &Skill{Level: FullSkill, Seed: seed}})
		if got.Move != full.Move || got.Info.Nodes != full.Info.Nodes {
			t.Errorf("full skill differs from the plain search: %s/%d vs %s/%d", got.Move, got.Info.Nodes, full.Move, full.Info.Nodes)
		}
	}
}

// TestSkillAvoidsProvenLoss: where every move but one lets the opponent
// force a win within 5 plies, a level that proves those losses never
// plays one (and where all lose, it plays the longest defence).
func TestSkillAvoidsProvenLoss(t *testing.T) {
	p := mustPosition(t, board.NameKatro, "3,4,0,1,4,1/1,3,25,2,7,2/6,2,2,1,0,2/0,1,0,0,0,1/0,0,0,0,0,0/0,0,2,1,1,0 S 0")
	only := board.HoleMove(0, 3) // d1
	e := newEngine(t)
	for _, level := range []int{8, 10, 12, 19} {
		for seed := range uint64(20) {
			e.ClearHash()
			res := runSearch(t, e, p, nil, Limits{Skill: &Skill{Level: level, Seed: seed}})
			if res.Move != only {
				t.Errorf("level %d, seed %d: played %s, which loses by force within 5 plies; %s does not", level, seed, res.Move, only)
			}
		}
	}
}

// TestSkillBudgetPerGame: a weakened search stops at its own game's node
// budget (Hoyito III spaces the middle levels differently from Katro).
func TestSkillBudgetPerGame(t *testing.T) {
	// A search always completes depth 1 (about 2,500 nodes with four
	// lines at the Hoyito III start), so the level's budgets must be
	// larger than that to be seen.
	const level = 12
	if SkillNodes(board.Hoyito, level) == SkillNodes(board.Katro, level) {
		t.Fatalf("level %d has the same budget in both games: the test cannot tell them apart", level)
	}
	for _, game := range []string{board.NameKatro, board.NameHoyito3} {
		p := startPosition(t, game)
		budget := SkillNodes(p.Variant().Family(), level)
		res := runSearch(t, newEngine(t), p, nil, Limits{Skill: &Skill{Level: level, Seed: 1}})
		checkLegal(t, p, res.Move, "level 12 move")
		if res.Info.Depth < 2 || res.Info.Nodes < budget || res.Info.Nodes > budget+200 {
			t.Errorf("%s: level %d searched %d nodes (depth %d), want its budget of %d", game, level, res.Info.Nodes, res.Info.Depth, budget)
		}
	}
}
