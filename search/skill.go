package search

import (
	"math"
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
)

// Strength levels, for people playing Sower. A level below FullSkill
// weakens the search in two ways, never by playing an illegal or absurd
// move:
//
//   - it searches fewer nodes: SkillNodes(level), from 50 at level 0 to
//     about 42,000 at level 19;
//   - it searches the best SkillLines root moves (MultiPV) and picks among
//     them the one with the highest score plus a random error, uniform
//     from 0 to SkillError(level): 250 hundredths of a seed at level 0,
//     shrinking to 7 at level 19. A move that gains seeds a weaker move
//     does not (a free capture of two seeds or more) is still chosen most
//     of the time at level 0; a move whose line is a proven loss is never
//     chosen when another is not, and a proven result at the top is
//     played as found.
//
// The two tables come from a first calibration that gave each level x
// (0 to 20) the budget 50·2^(x/2) nodes and the error 250·(20−x)/20: its
// Elo grew by steps from 20 to 160 a level. The levels below re-space that
// curve so that each should be about the same step above the one below;
// docs/strength.md has the matches that measured the result (steps of
// +76 Elo on average from level 0 to 19, +269 to level 20), and SkillElo
// the ladder UCI_Elo maps onto. FullSkill (20) is the unweakened search.

// Skill levels.
const (
	MinSkill  = 0
	FullSkill = 20
	// SkillLines is the number of root moves a weakened search ranks.
	SkillLines = 4
)

// Skill weakens a search (Limits.Skill).
type Skill struct {
	Level int    // MinSkill to FullSkill; FullSkill does not weaken
	Seed  uint64 // seeds the random error; the same seed, the same choice
}

// weak reports whether the skill weakens the search.
func (k *Skill) weak() bool { return k != nil && k.Level < FullSkill }

// level clamps a level to MinSkill..FullSkill.
func level(l int) int { return min(max(l, MinSkill), FullSkill) }

// SkillNodes returns the node budget of a level below FullSkill (and of
// FullSkill in the calibration, which has no budget of its own).
func SkillNodes(l int) uint64 {
	nodes := [FullSkill + 1]uint64{
		50, 151, 294, 497, 776, 1153, 1651, 2299, 3131, 4187,
		5513, 7164, 9203, 11705, 14754, 18448, 22902, 28244, 34624, 42212, 51200,
	}
	return nodes[level(l)]
}

// SkillError returns the largest random error of a level, in hundredths
// of a seed.
func SkillError(l int) Score {
	errs := [FullSkill + 1]Score{
		250, 210, 186, 167, 151, 137, 124, 112, 101, 90,
		80, 71, 62, 53, 45, 37, 29, 21, 14, 7, 0,
	}
	return errs[level(l)]
}

// skillLines keeps the ranked lines of a weakened search's last
// completed iteration, best first, to choose from.
type skillLines struct {
	n      int
	depth  int
	lines  [board.MaxMoves]rootMove // move, score (prev) and line
	chosen bool
}

// keepSkillLines records the ranked lines of a completed iteration.
func (s *searcher) keepSkillLines(depth int) {
	if !s.lim.Skill.weak() {
		return
	}
	k := &s.skill
	k.n, k.depth = s.multiPV, depth
	copy(k.lines[:k.n], s.rootMoves[:k.n])
}

// pickSkill chooses the move a weakened search plays among the lines of
// its last completed iteration: the highest score plus a random error.
// Proven losses are left out, and a proven result at the top (a win, or
// a loss everywhere) is played as found: the fastest win, the longest
// defence. It returns the chosen line, or nil when there is nothing to
// choose.
func (s *searcher) pickSkill() *rootMove {
	k := &s.skill
	if !s.lim.Skill.weak() || k.n < 2 {
		return nil
	}
	if k.lines[0].prev.Decisive() {
		return &k.lines[0]
	}
	rng := rand.New(rand.NewPCG(s.lim.Skill.Seed, s.root.Key()))
	maxErr := int64(SkillError(s.lim.Skill.Level))
	best, bestVal := 0, int64(math.MinInt64)
	for i := range k.n {
		sc := k.lines[i].prev
		if sc.Decisive() && sc < 0 {
			continue // a proven loss while the best line is not one
		}
		v := int64(sc)
		if maxErr > 0 {
			v += rng.Int64N(maxErr + 1)
		}
		if v > bestVal {
			best, bestVal = i, v
		}
	}
	return &k.lines[best]
}

// SkillForElo returns the level whose Elo on the calibrated ladder
// (SkillElo) is nearest elo.
func SkillForElo(elo int) int {
	best := MinSkill
	for l := MinSkill; l <= FullSkill; l++ {
		if abs64(int64(SkillElo(l)-elo)) < abs64(int64(SkillElo(best)-elo)) {
			best = l
		}
	}
	return best
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// SkillElo returns the calibrated Elo of a level in Katro, builtin:random
// at 0, measured as docs/strength.md describes.
func SkillElo(l int) int {
	// The least-squares line through the measured chain of matches
	// (830 + 78.8 per level), rounded to tens.
	ladder := [FullSkill + 1]int{
		830, 910, 990, 1070, 1150, 1220, 1300, 1380, 1460, 1540,
		1620, 1700, 1780, 1850, 1930, 2010, 2090, 2170, 2250, 2330, 2410,
	}
	return ladder[level(l)]
}
