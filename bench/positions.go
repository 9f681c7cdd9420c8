package bench

import "github.com/sower-engine/sower/board"

// Case is one bench position.
type Case struct {
	Game  string // variant name
	FEN   string // position in the rule book's notation
	Depth int    // default search depth
}

// benchDepth is the default depth per variant, chosen so that the whole
// suite takes about ten seconds or less on one core.
func benchDepth(game string) int {
	switch game {
	case board.NameKatro:
		return 17
	case board.NameKatro6x3:
		return 24
	case board.NameKatro4x6:
		return 18
	case board.NameKatro4x4:
		return 24
	}
	return 19
}

// Positions returns the bench suite: for every variant its start position
// and eight positions from seeded random games with a bias to captures,
// taken at 5% to 97% of the game's length, so that openings, middle games
// and endings are all searched.
func Positions() []Case {
	fens := map[string][]string{
		board.NameKatro: {
			"3,0,1,4,1,0/1,2,4,4,1,0/1,4,0,4,1,4/0,4,0,4,1,4/1,4,4,2,0,5/4,1,0,2,1,0 S 0",
			"1,2,1,4,0,0/3,2,2,9,3,1/7,2,0,0,3,0/6,3,1,2,2,0/1,0,2,1,0,7/3,2,0,1,0,1 N 2",
			"4,1,5,0,1,5/1,0,7,3,0,9/0,4,7,3,2,0/0,2,2,1,1,1/0,1,1,3,1,1/1,1,1,1,1,1 N 0",
			"2,0,1,5,0,1/1,0,2,9,4,0/1,2,3,3,2,1/1,0,2,6,1,0/2,0,8,0,7,0/0,0,0,0,6,2 S 6",
			"2,0,0,2,1,1/4,0,4,1,0,10/9,2,8,0,1,0/6,0,5,0,0,0/1,2,1,7,0,1/0,1,0,1,1,1 N 1",
			"0,0,5,0,0,1/3,3,0,5,0,1/0,0,0,0,0,1/5,0,5,0,3,5/1,0,4,1,6,0/1,11,0,6,1,4 N 0",
			"5,3,0,9,7,3/6,1,2,1,4,0/0,6,5,11,1,7/0,0,1,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 N 17",
			"0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,1,0/9,2,6,0,6,0/12,0,2,3,8,0/1,8,1,9,1,3 N 0",
		},
		board.NameKatro6x3: {
			"2,2,2/2,2,2/2,0,2/4,1,3/4,1,0/3,3,1 N 0",
			"1,6,1/4,1,4/1,3,1/2,2,1/4,0,2/3,0,0 N 1",
			"5,1,2/3,1,6/1,0,0/1,0,1/0,1,4/8,1,1 N 0",
			"0,1,6/0,4,10/1,1,4/1,0,1/1,2,1/1,1,1 S 1",
			"3,1,1/2,1,3/0,1,7/0,1,1/1,1,2/4,6,1 S 0",
			"0,0,0/0,8,2/0,0,1/3,2,5/1,3,5/1,2,3 N 0",
			"0,0,0/0,1,0/0,0,0/8,1,3/0,5,2/5,2,9 S 1",
			"1,0,0/0,0,0/0,0,0/3,1,6/0,7,1/14,3,0 S 3",
		},
		board.NameKatro4x6: {
			"5,1,2,1,5,0/0,1,0,0,0,0/1,8,0,3,2,0/6,0,3,0,4,6 N 0",
			"0,0,3,2,1,6/4,0,4,3,0,1/2,0,1,1,0,0/3,5,2,0,7,3 S 0",
			"3,2,1,2,1,5/1,7,2,6,4,0/1,3,1,3,2,0/0,0,2,2,0,0 N 0",
			"8,0,3,1,5,4/2,1,0,3,6,8/0,0,0,0,0,1/4,0,1,1,0,0 N 1",
			"0,7,1,2,2,2/4,1,3,6,1,1/2,0,1,5,0,0/1,3,1,2,2,1 S 0",
			"3,2,2,1,4,7/1,2,7,5,9,0/0,0,0,0,1,0/0,0,1,1,2,0 S 0",
			"1,1,4,3,2,5/3,13,6,1,7,1/0,0,0,0,0,1/0,0,0,0,0,0 N 3",
			"1,11,12,3,1,5/2,2,3,1,4,2/0,0,0,0,0,0/0,0,0,1,0,0 S 2",
		},
		board.NameKatro4x4: {
			"2,2,2,2/2,2,0,2/3,3,1,4/3,3,0,1 N 0",
			"3,1,0,0/2,2,2,1/2,1,7,3/0,5,2,1 N 3",
			"3,8,0,1/4,1,0,4/2,1,0,3/1,1,1,2 N 0",
			"8,2,2,1/5,1,1,4/0,0,0,1/2,3,2,0 S 2",
			"1,1,2,0/3,0,0,2/7,1,0,5/0,8,1,1 N 0",
			"0,3,1,1/1,0,2,1/0,1,6,3/6,5,1,1 S 1",
			"0,1,0,0/1,0,0,0/10,2,0,9/4,1,3,1 S 5",
			"0,1,1,0/0,0,0,0/1,2,5,1/3,4,7,7 N 0",
		},
		board.NameHoyito3: {
			"6,6,1,0,6,6/2,7,1,6,1,6 N 0 0 1",
			"2,6,0,2,1,0/4,4,0,2,2,1 N 16 8 0",
			"0,2,1,1,0,0/1,2,4,1,6,2 S 12 16 1",
			"1,0,2,0,0,1/0,1,1,1,0,1 S 28 12 47",
			"0,3,0,0,6,0/3,1,0,2,0,1 S 16 16 8",
			"1,1,2,0,1,0/0,1,1,0,1,0 S 12 28 13",
			"3,2,0,0,1,2/0,1,1,1,1,0 S 12 24 2",
			"1,0,3,0,0,1/0,0,0,2,0,1 N 20 20 30",
		},
	}
	var out []Case
	for _, name := range board.Names() {
		v, err := board.New(name)
		if err != nil {
			panic(err) // board.Names lists only known variants
		}
		out = append(out, Case{name, v.Start().String(), benchDepth(name)})
		for _, f := range fens[name] {
			out = append(out, Case{name, f, benchDepth(name)})
		}
	}
	return out
}
