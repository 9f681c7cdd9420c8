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
//   - it searches fewer nodes: SkillNodes(fam, level), from 50 at level 0
//     to 36,000 at level 18 and 30,000 at level 19 (a search always
//     completes depth 1, which can take more);
//   - up to level 18 it searches the best SkillLines root moves (MultiPV:
//     4 lines, then 3 at level 17 and 2 at 18) and picks among them the
//     one with the highest score plus a random error, uniform from 0 to
//     SkillError(fam, level): 250 hundredths of a seed at level 0,
//     shrinking to 14 at level 18. Level 19 searches one line, with its
//     node budget only. A move that gains seeds a weaker move does not (a
//     free capture of two seeds or more) is still chosen most of the time
//     at level 0; a move whose line is a proven loss is never chosen when
//     another is not, and a proven result at the top is played as found.
//
// The tables come from a first calibration that gave each level x (0 to
// 20) the budget 50·2^(x/2) nodes and the error 250·(20−x)/20: its Elo
// grew by steps from 20 to 160 a level. Levels 0 to 16 re-space that curve
// so that each should be about the same step above the one below; levels
// 17 to 19 fade out the lines ranked, which cost full strength a step of
// +269 Elo when every level ranked four. Hoyito III re-spaces levels 1 to
// 15 from its first ladder, measured with Katro's budgets (SkillNodes).
// docs/strength.md has the matches that measured the result in both
// games, and SkillElo the ladders UCI_Elo maps onto. FullSkill (20) is
// the unweakened search.

// Skill levels.
const (
	MinSkill  = 0
	FullSkill = 20
)

// SkillLines returns the number of root moves a weakened search ranks at a
// level: 4 up to level 16, then 3 at 17, 2 at 18 and 1 at 19, so that the
// cost of ranking several lines (MultiPV) fades out before full strength,
// which searches one.
func SkillLines(l int) int {
	lines := [FullSkill + 1]int{
		4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
		4, 4, 4, 4, 4, 4, 4, 3, 2, 1, 1,
	}
	return lines[level(l)]
}

// Skill makes a search play at a strength level (Limits.Skill): below
// FullSkill it weakens it; at every level it evaluates with the linear
// evaluation.
type Skill struct {
	Level int    // MinSkill to FullSkill; FullSkill does not weaken
	Seed  uint64 // seeds the random error; the same seed, the same choice
}

// weak reports whether the skill weakens the search.
func (k *Skill) weak() bool { return k != nil && k.Level < FullSkill }

// level clamps a level to MinSkill..FullSkill.
func level(l int) int { return min(max(l, MinSkill), FullSkill) }

// SkillNodes returns the node budget of a level below FullSkill (and of
// FullSkill in the calibration, which has no budget of its own) in the
// game family fam; the small Katro boards use Katro's.
//
// Hoyito III has its own budgets and errors for levels 1 to 15. With
// Katro's, its first ladder gained quickly at the low levels (+70 a step)
// and little in the middle (+6 to +37 from level 9 to 14): more nodes and
// a smaller error change Hoyito III play less and less. A cubic fitted to
// that ladder's Elo as a function of the Katro level (0 to 16) was
// inverted at the 15 Elo values that cut its range into 16 equal steps,
// and each level takes the budget (geometric) and error (linear)
// interpolated at the fractional Katro level found: level x of Hoyito III
// plays like Katro level 0.64, 1.29, 1.96, 2.65, 3.37, 4.12, 4.89, 5.70,
// 6.56, 7.46, 8.43, 9.49, 10.66, 12.0 and 13.64 for x = 1 to 15. Levels 0
// and 16 to 20 are Katro's.
func SkillNodes(fam board.Family, l int) uint64 {
	nodes := [...][FullSkill + 1]uint64{
		board.Katro: {
			50, 151, 294, 497, 776, 1153, 1651, 2299, 3131, 4187,
			5513, 7164, 9203, 11705, 14754, 18448, 22902, 30000, 36000, 30000, 51200,
		},
		board.Hoyito: {
			50, 101, 183, 287, 415, 587, 812, 1104, 1483, 1985,
			2652, 3552, 4791, 6555, 9212, 13571, 22902, 30000, 36000, 30000, 51200,
		},
	}
	return nodes[skillGame(fam)][level(l)]
}

// SkillError returns the largest random error of a level, in hundredths
// of a seed, in the game family fam (see SkillNodes).
func SkillError(fam board.Family, l int) Score {
	errs := [...][FullSkill + 1]Score{
		board.Katro: {
			250, 210, 186, 167, 151, 137, 124, 112, 101, 90,
			80, 71, 62, 53, 45, 37, 29, 21, 14, 0, 0,
		},
		board.Hoyito: {
			250, 225, 203, 187, 174, 161, 149, 139, 128, 117,
			107, 96, 85, 74, 62, 48, 29, 21, 14, 0, 0,
		},
	}
	return errs[skillGame(fam)][level(l)]
}

// skillGame returns the family whose skill tables serve fam: its own for
// Hoyito III, Katro's for every Katro board.
func skillGame(fam board.Family) board.Family {
	if fam == board.Hoyito {
		return board.Hoyito
	}
	return board.Katro
}

// skillLines keeps the ranked lines of a weakened search's last
// completed iteration, best first, to choose from.
type skillLines struct {
	n     int
	depth int
	lines [board.MaxMoves]rootMove // move, score (prev) and line
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
	maxErr := int64(SkillError(s.family, s.lim.Skill.Level))
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

// SkillForElo returns the level whose Elo on the calibrated ladder of the
// game family fam (SkillElo) is nearest elo.
func SkillForElo(fam board.Family, elo int) int {
	best := MinSkill
	for l := MinSkill; l <= FullSkill; l++ {
		if abs64(int64(SkillElo(fam, l)-elo)) < abs64(int64(SkillElo(fam, best)-elo)) {
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

// SkillElo returns the calibrated Elo of a level in the game family fam,
// builtin:random at 0, measured as docs/strength.md describes: the
// least-squares line through the measured chain of matches, rounded to
// tens. The small Katro boards use Katro's.
func SkillElo(fam board.Family, l int) int {
	elo := [...][FullSkill + 1]int{
		board.Katro: {
			850, 930, 1020, 1100, 1180, 1260, 1340, 1420, 1510, 1590,
			1670, 1750, 1830, 1910, 1990, 2080, 2160, 2240, 2320, 2400, 2480,
		},
		board.Hoyito: {
			930, 990, 1050, 1110, 1170, 1230, 1290, 1350, 1410, 1470,
			1530, 1590, 1660, 1720, 1780, 1840, 1900, 1960, 2020, 2080, 2140,
		},
	}
	return elo[skillGame(fam)][level(l)]
}

// SkillEloRange returns the range of UCI_Elo: from the lowest level's
// Elo to full strength's, over both games.
func SkillEloRange() (lo, hi int) {
	lo = min(SkillElo(board.Katro, MinSkill), SkillElo(board.Hoyito, MinSkill))
	hi = max(SkillElo(board.Katro, FullSkill), SkillElo(board.Hoyito, FullSkill))
	return lo, hi
}
