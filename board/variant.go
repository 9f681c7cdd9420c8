package board

import (
	"fmt"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// Family is a rule family: every variant is either a Katro board or Hoyito III.
type Family uint8

// The rule families.
const (
	Katro  Family = iota // six- or four-row Katro, sections 1.x of the rule book
	Hoyito               // two-row Hoyito III, sections 2.x of the rule book
)

// String returns "katro" or "hoyito3".
func (f Family) String() string {
	if f == Hoyito {
		return "hoyito3"
	}
	return "katro"
}

// Side is a player: South moves first and owns the low rows.
type Side uint8

// The two players.
const (
	South Side = 0
	North Side = 1
)

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// String returns "South" or "North".
func (s Side) String() string {
	if s == North {
		return "North"
	}
	return "South"
}

// Letter returns 'S' or 'N', the side as written in position notation.
func (s Side) Letter() byte {
	if s == North {
		return 'N'
	}
	return 'S'
}

// Variant names, as used on the command line and in the protocol.
const (
	NameKatro    = "katro"
	NameKatro6x3 = "katro-6x3"
	NameKatro4x6 = "katro-4x6"
	NameKatro4x4 = "katro-4x4"
	NameHoyito3  = "hoyito3"
)

// Names lists every variant the package knows, in a stable order.
func Names() []string {
	return []string{NameKatro, NameKatro6x3, NameKatro4x6, NameKatro4x4, NameHoyito3}
}

// Geometry limits. A circuit never has more than 18 holes (Katro 6x6), which
// fit in two words of nine 7-bit lanes.
const (
	maxLanes     = 18
	lanesPerWord = 9
	laneBits     = 7
	laneMask     = 1<<laneBits - 1
	maxRows      = 6
	maxCols      = 6
	// MaxLaps is the lap number at which a sowing that would go on is
	// endless (rule book 1.6 and 2.5).
	MaxLaps = 1000
)

// span is a pair of words with one lane set per hole of a circuit range.
type span [2]uint64

// Variant is one game with its rule options: the board geometry, the sowing
// circuits and the hash keys, all computed once by New. A Variant is
// immutable and safe for concurrent use; positions point to theirs.
type Variant struct {
	name   string
	family Family
	rows   int // board rows
	cols   int // board columns
	depth  int // rows per player (Katro), 1 for Hoyito
	circ   int // holes in a sowing circuit
	total  int // seeds in the game
	seeds  int // seeds per hole at the start
	rules  Rules
	// maxLaps is MaxLaps; tests lower it to reach the endless-sowing rule
	// with short sowings.
	maxLaps int

	// Sowing tables, indexed by circuit lane.
	fill [maxLanes][maxLanes]span // fill[s][n]: lanes s+1 … s+n (mod circ)
	ring span                     // every lane of the circuit

	// Hash keys, additive (see Position.Key). Index 0/1 is the region.
	laneKey [2][maxLanes]uint64
	fillKey [2][maxLanes][maxLanes]uint64
	ringKey [2]uint64
	sideKey uint64
	capKey  [2]uint64

	// Geometry. A region is a player's half (Katro) or the whole board
	// (Hoyito, region 0). holeAt maps (region, lane) to the hole's move.
	holeAt   [2][maxLanes]Move
	regionOf [256]int8 // by Move: region, -1 if not on the board
	laneOf   [256]int8 // by Move: lane in its region
	// Katro only, relative to a region: lanes of each row (0 = outer),
	// lanes of the rows deeper than a lane's row, absolute column of a
	// lane, and the lane at (depth, absolute column).
	rowMask [3]span // every bit of every lane of a row
	// own is every bit of every lane of a side's holes in its region:
	// the whole circuit in Katro, its row in Hoyito III.
	own    [2]span
	deeper [maxLanes]span
	colOf  [2][maxLanes]int8
	laneAt [2][3][maxCols]int8
}

// Rules are the rule options of the rule book: CaptureSide, LastFour and
// Repetition (Hoyito III) and the no-capture limit (both games).
type Rules struct {
	CaptureSide    CaptureSide
	LastFour       LastFour
	Repetition     Repetition
	NoCaptureLimit int // plies without a capture that end the game; 0 = off
}

// DefaultNoCaptureLimit is the rule book's no-capture limit in plies.
const DefaultNoCaptureLimit = 200

// DefaultRules returns the rule book's defaults: captures on any side, the
// last four to the capturer, and a 200-ply no-capture limit.
func DefaultRules() Rules {
	return Rules{CaptureSide: CaptureAny, LastFour: LastFourCapturer, NoCaptureLimit: DefaultNoCaptureLimit}
}

// CaptureSide says which fours a Hoyito III sowing captures.
type CaptureSide uint8

// CaptureSide values.
const (
	CaptureAny      CaptureSide = iota // a four on either side is captured
	CaptureOpponent                    // only a four in the opponent's row
)

// String returns the option value as written: "any" or "opponent".
func (c CaptureSide) String() string {
	if c == CaptureOpponent {
		return "opponent"
	}
	return "any"
}

// ParseCaptureSide reads "any" or "opponent" (any case).
func ParseCaptureSide(s string) (CaptureSide, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "any":
		return CaptureAny, nil
	case "opponent":
		return CaptureOpponent, nil
	}
	return 0, fmt.Errorf("CaptureSide %q: want any or opponent", s)
}

// LastFour says who receives the seeds left when a capture ends a Hoyito III
// game.
type LastFour uint8

// LastFour values.
const (
	LastFourCapturer LastFour = iota // the player who made the capture
	LastFourSouth                    // South
	LastFourNorth                    // North
)

// String returns the option value as written: "capturer", "south", "north".
func (l LastFour) String() string {
	switch l {
	case LastFourSouth:
		return "south"
	case LastFourNorth:
		return "north"
	}
	return "capturer"
}

// ParseLastFour reads "capturer", "south" or "north" (any case).
func ParseLastFour(s string) (LastFour, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "capturer":
		return LastFourCapturer, nil
	case "south":
		return LastFourSouth, nil
	case "north":
		return LastFourNorth, nil
	}
	return 0, fmt.Errorf("LastFour %q: want capturer, south or north", s)
}

// Repetition says whether a third occurrence of a position ends a Hoyito
// III game (rule book 2.6).
type Repetition uint8

// Repetition values.
const (
	RepetitionThreefold Repetition = iota // the third occurrence ends the game
	RepetitionOff                         // repetition ends nothing
)

// String returns the option value as written: "threefold" or "off".
func (r Repetition) String() string {
	if r == RepetitionOff {
		return "off"
	}
	return "threefold"
}

// ParseRepetition reads "threefold" or "off" (any case).
func ParseRepetition(s string) (Repetition, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "threefold":
		return RepetitionThreefold, nil
	case "off":
		return RepetitionOff, nil
	}
	return 0, fmt.Errorf("unknown Repetition %q: want threefold or off", s)
}

// New returns the named variant with the default rules.
func New(name string) (*Variant, error) {
	return NewWithRules(name, DefaultRules())
}

// NewWithRules returns the named variant with the given rule options.
func NewWithRules(name string, r Rules) (*Variant, error) {
	if r.NoCaptureLimit < 0 {
		return nil, fmt.Errorf("no-capture limit %d: want 0 (off) or more", r.NoCaptureLimit)
	}
	if r.CaptureSide > CaptureOpponent {
		return nil, fmt.Errorf("CaptureSide %d is not a known value", r.CaptureSide)
	}
	if r.LastFour > LastFourNorth {
		return nil, fmt.Errorf("LastFour %d is not a known value", r.LastFour)
	}
	if r.Repetition > RepetitionOff {
		return nil, fmt.Errorf("unknown Repetition value %d", r.Repetition)
	}
	if r.Repetition == RepetitionOff && r.NoCaptureLimit == 0 {
		return nil, fmt.Errorf("no-capture limit 0 (off) with Repetition off: nothing would end a game without captures; set a limit or keep Repetition threefold")
	}
	v := &Variant{name: name, rules: r}
	switch strings.ToLower(name) {
	case NameKatro:
		v.family, v.rows, v.cols = Katro, 6, 6
	case NameKatro6x3:
		v.family, v.rows, v.cols = Katro, 6, 3
	case NameKatro4x6:
		v.family, v.rows, v.cols = Katro, 4, 6
	case NameKatro4x4:
		v.family, v.rows, v.cols = Katro, 4, 4
	case NameHoyito3:
		v.family, v.rows, v.cols = Hoyito, 2, 6
	default:
		return nil, fmt.Errorf("unknown game %q: want one of %s", name, strings.Join(Names(), ", "))
	}
	v.name = strings.ToLower(name)
	v.maxLaps = MaxLaps
	v.init()
	return v, nil
}

// WithRules returns a copy of v with other rule options.
func (v *Variant) WithRules(r Rules) (*Variant, error) { return NewWithRules(v.name, r) }

// Name returns the variant's name, such as "katro-4x4".
func (v *Variant) Name() string { return v.name }

// Family returns the rule family.
func (v *Variant) Family() Family { return v.family }

// Rows returns the number of board rows.
func (v *Variant) Rows() int { return v.rows }

// Cols returns the number of board columns.
func (v *Variant) Cols() int { return v.cols }

// Total returns the number of seeds in the game.
func (v *Variant) Total() int { return v.total }

// Rules returns the variant's rule options.
func (v *Variant) Rules() Rules { return v.rules }

// OnBoard reports whether m names a hole of this board.
func (v *Variant) OnBoard(m Move) bool { return v.regionOf[m] >= 0 }

// Holes returns every hole of the board, row 1 first, west to east.
func (v *Variant) Holes() []Move {
	hs := make([]Move, 0, v.rows*v.cols)
	for r := 0; r < v.rows; r++ {
		for c := 0; c < v.cols; c++ {
			hs = append(hs, HoleMove(r, c))
		}
	}
	return hs
}

// Owner returns the player who owns hole m (a move on this board).
func (v *Variant) Owner(m Move) Side {
	if v.family == Hoyito {
		return Side(m.Row())
	}
	return Side(v.regionOf[m])
}

// init builds the geometry, sowing and hash tables.
func (v *Variant) init() {
	for i := range v.regionOf {
		v.regionOf[i], v.laneOf[i] = -1, -1
	}
	if v.family == Hoyito {
		v.depth, v.circ, v.seeds = 1, 2*v.cols, 4
		// One counter-clockwise circuit: row 1 west to east, row 2 east
		// to west.
		for c := 0; c < v.cols; c++ {
			v.setHole(0, c, HoleMove(0, c))
			v.setHole(0, 2*v.cols-1-c, HoleMove(1, c))
		}
	} else {
		v.depth, v.seeds = v.rows/2, 2
		v.circ = v.depth * v.cols
		for k := 0; k < v.circ; k++ {
			d, i := k/v.cols, k%v.cols
			col := i // serpentine: even depths west to east
			if d%2 == 1 {
				col = v.cols - 1 - i
			}
			// South's row number d (0-based from row 1); North's is the
			// same hole turned through 180 degrees.
			v.setHole(int(South), k, HoleMove(d, col))
			v.setHole(int(North), k, HoleMove(v.rows-1-d, v.cols-1-col))
			v.colOf[South][k] = int8(col)
			v.colOf[North][k] = int8(v.cols - 1 - col)
			v.laneAt[South][d][col] = int8(k)
			v.laneAt[North][d][v.cols-1-col] = int8(k)
		}
		for d := 0; d < v.depth; d++ {
			var ones span
			for i := 0; i < v.cols; i++ {
				ones.set(d*v.cols + i)
			}
			v.rowMask[d] = span{ones[0] * laneMask, ones[1] * laneMask}
		}
		for k := 0; k < v.circ; k++ {
			for d := k/v.cols + 1; d < v.depth; d++ {
				v.deeper[k][0] |= v.rowMask[d][0]
				v.deeper[k][1] |= v.rowMask[d][1]
			}
		}
	}
	for s := 0; s < 2; s++ {
		for k := 0; k < v.circ; k++ {
			if v.family == Katro || k/v.cols == s {
				v.own[s][k/lanesPerWord] |= laneMask << (laneBits * (k % lanesPerWord))
			}
		}
	}
	if v.family == Hoyito {
		// A Hoyito III side has one row; its masks by "depth 0" are its own.
		v.rowMask[0] = v.own[0]
	}
	v.total = v.rows * v.cols * v.seeds
	for k := 0; k < v.circ; k++ {
		v.ring.set(k)
	}
	for s := 0; s < v.circ; s++ {
		for n := 0; n < v.circ; n++ {
			var f span
			for j := 1; j <= n; j++ {
				f.set((s + j) % v.circ)
			}
			v.fill[s][n] = f
		}
	}
	v.initKeys()
}

func (v *Variant) setHole(region, lane int, m Move) {
	v.holeAt[region][lane] = m
	v.regionOf[m] = int8(region)
	v.laneOf[m] = int8(lane)
}

// initKeys draws the hash keys from a generator seeded with the xxhash of
// the variant's name, so keys are the same on every run and machine.
func (v *Variant) initKeys() {
	rng := splitmix{xxhash.Sum64String("sower/" + v.name)}
	for r := 0; r < 2; r++ {
		for k := 0; k < maxLanes; k++ {
			v.laneKey[r][k] = rng.next()
		}
	}
	v.sideKey = rng.next()
	v.capKey[0], v.capKey[1] = rng.next(), rng.next()
	for r := 0; r < 2; r++ {
		for k := 0; k < v.circ; k++ {
			v.ringKey[r] += v.laneKey[r][k]
		}
		for s := 0; s < v.circ; s++ {
			for n := 0; n < v.circ; n++ {
				var sum uint64
				for j := 1; j <= n; j++ {
					sum += v.laneKey[r][(s+j)%v.circ]
				}
				v.fillKey[r][s][n] = sum
			}
		}
	}
}

// splitmix is the SplitMix64 generator, used only to draw hash keys.
type splitmix struct{ s uint64 }

func (g *splitmix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// set turns on lane k (adds one seed to it when the span is added).
func (s *span) set(k int) {
	s[k/lanesPerWord] |= 1 << (laneBits * (k % lanesPerWord))
}

// Depth returns the rows each player owns: 3 or 2 in Katro, 1 in Hoyito III.
func (v *Variant) Depth() int { return v.depth }

// CircuitLen returns the holes in a sowing circuit.
func (v *Variant) CircuitLen() int { return v.circ }

// CircuitHole returns the hole at position k of s's sowing circuit (Katro)
// or of the board's circuit (Hoyito III, whatever s).
func (v *Variant) CircuitHole(s Side, k int) Move {
	if v.family == Hoyito {
		return v.holeAt[0][k]
	}
	return v.holeAt[s][k]
}
