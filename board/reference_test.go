// Code in this file is an independent, deliberately plain implementation of
// the rule book, written without reference to the package: a slice-of-slices
// board sown one seed at a time, which tests legality by sowing a move on a
// copy and sows it again to play it. The tests compare the package with it,
// and the benchmarks use it as the naive baseline for speed.

// It favours clarity over speed: the board is a slice of slices, circuits
// are lists of coordinates, seeds are sown one at a time, and positions are
// copied by allocating new slices. Every identifier starts with "ref".
package board_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// RefRules holds the rule options. CaptureOpponent is Hoyito III's
// CaptureSide=opponent option (false means CaptureSide=any). LastFour is
// Hoyito III's LastFour option: "capturer" (also ""), "south" or "north".
// Katro ignores both.
type RefRules struct {
	CaptureOpponent bool
	LastFour        string
}

// RefPos is a position of one of the games.
type RefPos struct {
	game    string
	rules   RefRules
	hoyito  bool
	nrows   int
	ncols   int
	board   [][]int // board[row][col]; row 0 is row "1" (South's edge)
	side    int     // 0 = South, 1 = North
	capS    int     // Hoyito III: seeds captured by South
	capN    int     // Hoyito III: seeds captured by North
	clock   int     // plies since the last capture
	afterPs bool    // Hoyito III: the last ply was a pass
}

const (
	refSouth     = 0
	refNorth     = 1
	refMaxLaps   = 1000
	refHoyitoTot = 48
)

// refGameShape returns rows, columns, seeds per hole and whether the game
// is Hoyito III.
func refGameShape(game string) (rows, cols, seeds int, hoyito bool, err error) {
	switch game {
	case "katro":
		return 6, 6, 2, false, nil
	case "katro-6x3":
		return 6, 3, 2, false, nil
	case "katro-4x6":
		return 4, 6, 2, false, nil
	case "katro-4x4":
		return 4, 4, 2, false, nil
	case "hoyito3":
		return 2, 6, 4, true, nil
	}
	return 0, 0, 0, false, fmt.Errorf("unknown game %q", game)
}

func refCheckRules(r RefRules) error {
	switch r.LastFour {
	case "", "capturer", "south", "north":
		return nil
	}
	return fmt.Errorf("unknown LastFour option %q", r.LastFour)
}

func refNewBoard(rows, cols int) [][]int {
	b := make([][]int, rows)
	for i := range b {
		b[i] = make([]int, cols)
	}
	return b
}

func refCopyBoard(b [][]int) [][]int {
	c := make([][]int, len(b))
	for i := range b {
		c[i] = make([]int, len(b[i]))
		copy(c[i], b[i])
	}
	return c
}

func (p *RefPos) refCopy() *RefPos {
	q := *p
	q.board = refCopyBoard(p.board)
	return &q
}

// RefStart returns the start position of the game, or nil if the game name
// or the rule options are unknown.
func RefStart(game string, r RefRules) *RefPos {
	rows, cols, seeds, hoyito, err := refGameShape(game)
	if err != nil || refCheckRules(r) != nil {
		return nil
	}
	p := &RefPos{game: game, rules: r, hoyito: hoyito, nrows: rows, ncols: cols,
		board: refNewBoard(rows, cols), side: refSouth}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			p.board[i][j] = seeds
		}
	}
	return p
}

// ---------------------------------------------------------------- notation

func refHoleName(row, col int) string {
	return string(rune('a'+col)) + strconv.Itoa(row+1)
}

// refParseHole turns "c1" into (0, 2); ok is false if it is not a hole of
// the board. Only the canonical spelling (lower-case letter, decimal row
// without sign or leading zero) is accepted.
func (p *RefPos) refParseHole(m string) (row, col int, ok bool) {
	if len(m) < 2 {
		return 0, 0, false
	}
	c := int(m[0]) - 'a'
	if c < 0 || c >= p.ncols {
		return 0, 0, false
	}
	rs := m[1:]
	if rs[0] < '1' || rs[0] > '9' {
		return 0, 0, false
	}
	r, err := strconv.Atoi(rs)
	if err != nil || r < 1 || r > p.nrows || strconv.Itoa(r) != rs {
		return 0, 0, false
	}
	return r - 1, c, true
}

// refParseCount reads a non-negative decimal integer made of digits only.
func refParseCount(s, what string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("%s is empty", what)
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			if ch == '-' {
				return 0, fmt.Errorf("%s %q is negative", what, s)
			}
			return 0, fmt.Errorf("%s %q is not a non-negative decimal integer", what, s)
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q is out of range", what, s)
	}
	return v, nil
}

// RefParse reads a position in the notation of section 3 and checks the
// validity rules. A parsed position is taken as not following a pass.
func RefParse(game string, r RefRules, fen string) (*RefPos, error) {
	rows, cols, seeds, hoyito, err := refGameShape(game)
	if err != nil {
		return nil, err
	}
	if err := refCheckRules(r); err != nil {
		return nil, err
	}
	total := rows * cols * seeds
	fields := strings.Fields(fen)
	want := 3
	if hoyito {
		want = 5
	}
	if len(fields) != want {
		return nil, fmt.Errorf("%s position needs %d fields, got %d", game, want, len(fields))
	}
	rowStrs := strings.Split(fields[0], "/")
	if len(rowStrs) != rows {
		return nil, fmt.Errorf("%s board needs %d rows, got %d", game, rows, len(rowStrs))
	}
	p := &RefPos{game: game, rules: r, hoyito: hoyito, nrows: rows, ncols: cols,
		board: refNewBoard(rows, cols)}
	sum := 0
	for i, rs := range rowStrs {
		row := rows - 1 - i // first listed row is the top one
		cells := strings.Split(rs, ",")
		if len(cells) != cols {
			return nil, fmt.Errorf("row %d needs %d holes, got %d", row+1, cols, len(cells))
		}
		for j, cs := range cells {
			v, err := refParseCount(cs, "count of "+refHoleName(row, j))
			if err != nil {
				return nil, err
			}
			if v > total {
				return nil, fmt.Errorf("count of %s is %d, more than the game's %d seeds", refHoleName(row, j), v, total)
			}
			p.board[row][j] = v
			sum += v
		}
	}
	switch fields[1] {
	case "S", "s":
		p.side = refSouth
	case "N", "n":
		p.side = refNorth
	default:
		return nil, fmt.Errorf("side to move %q is not S or N", fields[1])
	}
	if hoyito {
		cs, err := refParseCount(fields[2], "south-captured")
		if err != nil {
			return nil, err
		}
		cn, err := refParseCount(fields[3], "north-captured")
		if err != nil {
			return nil, err
		}
		if cs > total || cn > total {
			return nil, fmt.Errorf("capture totals %d and %d exceed the game's %d seeds", cs, cn, total)
		}
		p.capS, p.capN = cs, cn
		p.clock, err = refParseCount(fields[4], "clock")
		if err != nil {
			return nil, err
		}
		if sum+cs+cn != total {
			return nil, fmt.Errorf("board (%d) plus captures (%d, %d) is %d seeds, want %d", sum, cs, cn, sum+cs+cn, total)
		}
		if sum > 0 {
			if sum <= 4 {
				return nil, fmt.Errorf("board holds %d seeds; a game in progress has more than 4", sum)
			}
			if cs%4 != 0 || cn%4 != 0 {
				return nil, fmt.Errorf("capture totals %d and %d must be multiples of 4 while the board holds seeds", cs, cn)
			}
		}
	} else {
		p.clock, err = refParseCount(fields[2], "clock")
		if err != nil {
			return nil, err
		}
		if sum != total {
			return nil, fmt.Errorf("board holds %d seeds, want %d", sum, total)
		}
		if p.refKatroSeedsOf(1-p.side) == 0 {
			return nil, errors.New("the player not to move has no seeds (the game is already over)")
		}
	}
	return p, nil
}

// FEN returns the canonical notation of the position.
func (p *RefPos) FEN() string {
	var sb strings.Builder
	for row := p.nrows - 1; row >= 0; row-- {
		for col := 0; col < p.ncols; col++ {
			if col > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Itoa(p.board[row][col]))
		}
		if row > 0 {
			sb.WriteByte('/')
		}
	}
	if p.side == refSouth {
		sb.WriteString(" S")
	} else {
		sb.WriteString(" N")
	}
	if p.hoyito {
		sb.WriteString(" " + strconv.Itoa(p.capS) + " " + strconv.Itoa(p.capN))
	}
	sb.WriteString(" " + strconv.Itoa(p.clock))
	return sb.String()
}

// ---------------------------------------------------------------- circuits

// refCircuit returns the sowing circuit of the player as (row, col) pairs.
// Katro: the player's own half, serpentine, outer row west to east first
// (for South), North's being South's turned through 180 degrees.
// Hoyito III: all 12 holes, a1..f1 then f2..a2, the same for both.
func (p *RefPos) refCircuit(player int) [][2]int {
	var circ [][2]int
	if p.hoyito {
		for c := 0; c < p.ncols; c++ {
			circ = append(circ, [2]int{0, c})
		}
		for c := p.ncols - 1; c >= 0; c-- {
			circ = append(circ, [2]int{1, c})
		}
		return circ
	}
	half := p.nrows / 2
	for k := 0; k < half; k++ { // k = 0 is the outer row
		if k%2 == 0 {
			for c := 0; c < p.ncols; c++ {
				circ = append(circ, [2]int{k, c})
			}
		} else {
			for c := p.ncols - 1; c >= 0; c-- {
				circ = append(circ, [2]int{k, c})
			}
		}
	}
	if player == refNorth {
		for i := range circ {
			circ[i] = [2]int{p.nrows - 1 - circ[i][0], p.ncols - 1 - circ[i][1]}
		}
	}
	return circ
}

func refCircuitIndex(circ [][2]int, row, col int) int {
	for i, h := range circ {
		if h[0] == row && h[1] == col {
			return i
		}
	}
	return -1
}

// refSow drops n seeds one at a time in the holes that follow index i on
// the circuit and returns the index of the landing hole.
func refSow(board [][]int, circ [][2]int, i, n int) int {
	for k := 0; k < n; k++ {
		i = (i + 1) % len(circ)
		board[circ[i][0]][circ[i][1]]++
	}
	return i
}

// ---------------------------------------------------------------- katro

// refKatroRows returns the player's rows from outer to inner (0-based).
func (p *RefPos) refKatroRows(player int) []int {
	half := p.nrows / 2
	rows := make([]int, half)
	for k := 0; k < half; k++ {
		if player == refSouth {
			rows[k] = k
		} else {
			rows[k] = p.nrows - 1 - k
		}
	}
	return rows
}

func refRowSum(board [][]int, row int) int {
	s := 0
	for _, v := range board[row] {
		s += v
	}
	return s
}

func (p *RefPos) refKatroSeedsOf(player int) int {
	s := 0
	for _, r := range p.refKatroRows(player) {
		s += refRowSum(p.board, r)
	}
	return s
}

func refKatroSeedsOn(p *RefPos, board [][]int, player int) int {
	s := 0
	for _, r := range p.refKatroRows(player) {
		s += refRowSum(board, r)
	}
	return s
}

// refKatroBackRow: the player's outermost row holding a seed, or -1.
func refKatroBackRow(p *RefPos, board [][]int, player int) int {
	for _, r := range p.refKatroRows(player) {
		if refRowSum(board, r) > 0 {
			return r
		}
	}
	return -1
}

// refKatroFrontRow: the player's innermost row holding a seed, or -1.
func refKatroFrontRow(p *RefPos, board [][]int, player int) int {
	rows := p.refKatroRows(player)
	for k := len(rows) - 1; k >= 0; k-- {
		if refRowSum(board, rows[k]) > 0 {
			return rows[k]
		}
	}
	return -1
}

// refKatroSow plays the move from (row, col) on board (modified in place)
// for the side to move. It reports whether the sowing ended (false: endless)
// and whether any capture was made.
func (p *RefPos) refKatroSow(board [][]int, row, col, maxLaps int) (ok, captured bool, laps int) {
	mover := p.side
	opp := 1 - mover
	circ := p.refCircuit(mover)
	i := refCircuitIndex(circ, row, col)
	n := board[row][col]
	board[row][col] = 0
	for lap := 1; ; lap++ {
		i = refSow(board, circ, i, n)
		lr, lc := circ[i][0], circ[i][1]
		if board[lr][lc] == 1 {
			return true, captured, lap // landed in an empty hole: the move ends
		}
		myFront := refKatroFrontRow(p, board, mover)
		oppFront := refKatroFrontRow(p, board, opp)
		if lr == myFront && oppFront >= 0 && board[oppFront][lc] > 0 {
			// capture: target and landing hole go into the hand together
			n = board[oppFront][lc] + board[lr][lc]
			board[oppFront][lc] = 0
			board[lr][lc] = 0
			captured = true
			if refKatroSeedsOn(p, board, opp) == 0 {
				// the opponent is emptied: one last lap, whatever it lands on
				refSow(board, circ, i, n)
				return true, captured, lap + 1
			}
		} else {
			// relay
			n = board[lr][lc]
			board[lr][lc] = 0
		}
		if lap == maxLaps {
			return false, captured, lap // lap 1000 would start another lap
		}
	}
}

// ---------------------------------------------------------------- hoyito

func (p *RefPos) refBoardSum() int {
	s := 0
	for r := range p.board {
		s += refRowSum(p.board, r)
	}
	return s
}

// refHoyitoSow plays the move from (row, col) on board (modified in place)
// for the side to move. It reports whether the sowing ended (false:
// endless) and whether it ended with a capture of 4.
func (p *RefPos) refHoyitoSow(board [][]int, row, col, maxLaps int) (ok, captured bool, laps int) {
	mover := p.side
	circ := p.refCircuit(mover)
	i := refCircuitIndex(circ, row, col)
	n := board[row][col]
	board[row][col] = 0
	for lap := 1; ; lap++ {
		i = refSow(board, circ, i, n)
		lr, lc := circ[i][0], circ[i][1]
		v := board[lr][lc]
		if v == 4 && (!p.rules.CaptureOpponent || lr != mover) {
			board[lr][lc] = 0
			return true, true, lap
		}
		if v == 1 {
			return true, false, lap
		}
		n = v
		board[lr][lc] = 0
		if lap == maxLaps {
			return false, false, lap // lap 1000 ends with a relay
		}
	}
}

// ---------------------------------------------------------------- moves

// refSowOn sows the move from (row, col) on board (modified in place). It
// reports whether the sowing ends within the lap limit (false: endless),
// whether it captured, and how many laps it sowed. The rules fix maxLaps
// at refMaxLaps (1000); tests use smaller limits to check the boundary.
func (p *RefPos) refSowOn(board [][]int, row, col, maxLaps int) (ok, captured bool, laps int) {
	if p.hoyito {
		return p.refHoyitoSow(board, row, col, maxLaps)
	}
	return p.refKatroSow(board, row, col, maxLaps)
}

// refCandidateHoles: the non-empty holes the side to move may start from,
// before the endless test, in row then column order.
func (p *RefPos) refCandidateHoles() [][2]int {
	var rows []int
	if p.hoyito {
		if p.refBoardSum() == 0 {
			return nil // finished game
		}
		rows = []int{p.side} // South owns row 1 (index 0), North row 2 (index 1)
	} else {
		br := refKatroBackRow(p, p.board, p.side)
		if br < 0 {
			return nil
		}
		rows = []int{br}
	}
	var holes [][2]int
	for _, r := range rows {
		for c := 0; c < p.ncols; c++ {
			if p.board[r][c] > 0 {
				holes = append(holes, [2]int{r, c})
			}
		}
	}
	return holes
}

// refLegalHoles: the candidate holes whose sowing is not endless, tested by
// sowing on a copy of the board.
func (p *RefPos) refLegalHoles() [][2]int {
	var legal [][2]int
	for _, h := range p.refCandidateHoles() {
		if ok, _, _ := p.refSowOn(refCopyBoard(p.board), h[0], h[1], refMaxLaps); ok {
			legal = append(legal, h)
		}
	}
	return legal
}

// Legal returns the legal moves as hole names sorted by row then column.
// In Hoyito III it returns ["pass"] when the side to move must pass. It is
// empty when the game is over.
func (p *RefPos) Legal() []string {
	holes := p.refLegalHoles()
	if len(holes) == 0 {
		if p.hoyito && p.refBoardSum() > 0 {
			return []string{"pass"}
		}
		return nil
	}
	moves := make([]string, len(holes))
	for i, h := range holes {
		moves[i] = refHoleName(h[0], h[1])
	}
	return moves
}

// Over tells whether the game is over (ignoring the no-capture limit and
// repetition): in Katro the side to move has no legal move; in Hoyito III
// the board is empty.
func (p *RefPos) Over() bool {
	if p.hoyito {
		return p.refBoardSum() == 0
	}
	return len(p.refLegalHoles()) == 0
}

// Play returns the position after move m, or an error if m is not legal.
func (p *RefPos) Play(m string) (*RefPos, error) {
	legal := p.Legal()
	if len(legal) == 0 {
		return nil, fmt.Errorf("move %q: the game is over", m)
	}
	if m == "0000" {
		m = "pass"
	}
	found := false
	for _, l := range legal {
		if l == m {
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("move %q is not legal here (legal: %s)", m, strings.Join(legal, " "))
	}
	q := p.refCopy()
	if m == "pass" { // Hoyito III only: Katro never lists "pass"
		q.side = 1 - p.side
		q.clock = p.clock + 1
		if p.afterPs {
			// second pass in a row: each player adds their own row
			q.capS += refRowSum(q.board, 0)
			q.capN += refRowSum(q.board, 1)
			q.board = refNewBoard(q.nrows, q.ncols)
		}
		q.afterPs = true
		return q, nil
	}
	row, col, _ := q.refParseHole(m)
	ok, captured, _ := q.refSowOn(q.board, row, col, refMaxLaps)
	if !ok {
		return nil, fmt.Errorf("move %q: sowing is endless", m) // cannot happen after the Legal test
	}
	q.afterPs = false
	if captured {
		q.clock = 0
	} else {
		q.clock = p.clock + 1
	}
	if !q.hoyito {
		q.side = 1 - p.side
		return q, nil
	}
	if !captured {
		q.side = 1 - p.side
		return q, nil
	}
	// Hoyito III capture of 4: the capturer moves again
	if p.side == refSouth {
		q.capS += 4
	} else {
		q.capN += 4
	}
	if left := q.refBoardSum(); left <= 4 {
		to := p.side
		switch q.rules.LastFour {
		case "south":
			to = refSouth
		case "north":
			to = refNorth
		}
		if to == refSouth {
			q.capS += left
		} else {
			q.capN += left
		}
		q.board = refNewBoard(q.nrows, q.ncols)
	}
	return q, nil
}

// ---------------------------------------------------------------- perft

// RefPerft counts the move sequences of exactly depth plies (section 5).
func RefPerft(p *RefPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.Legal() {
		q, err := p.Play(m)
		if err != nil {
			panic(err)
		}
		n += RefPerft(q, depth-1)
	}
	return n
}

// RefDivide returns, for each legal move, the perft count of depth-1 below
// it. It is empty for depth < 1 or when the game is over.
func RefDivide(p *RefPos, depth int) map[string]uint64 {
	out := map[string]uint64{}
	if depth < 1 {
		return out
	}
	for _, m := range p.Legal() {
		q, err := p.Play(m)
		if err != nil {
			panic(err)
		}
		out[m] = RefPerft(q, depth-1)
	}
	return out
}
