package cert_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// withoutCount drops the "# positions" line, so that lines can be removed
// or added without the count refusing the certificate first.
func withoutCount(ls []string) []string {
	var out []string
	for _, l := range ls {
		if !strings.HasPrefix(l, "# positions ") {
			out = append(out, l)
		}
	}
	return out
}

// linePosition returns the position of a certificate line, at clock 0.
func linePosition(t *testing.T, v *board.Variant, line string) (board.Position, board.Move) {
	t.Helper()
	pos, mv, ok := strings.Cut(line, "\t")
	if !ok {
		t.Fatalf("line %q has no TAB", line)
	}
	p, err := v.ParsePosition(pos + " 0")
	if err != nil {
		t.Fatal(err)
	}
	m, err := v.ParseMove(mv)
	if err != nil {
		t.Fatal(err)
	}
	return p, m
}

// TestVerifyRefusesMissingLine removes each line of a proof in turn: the
// checker names the position of the winner that is missing.
func TestVerifyRefusesMissingLine(t *testing.T) {
	c := bigCase(t, board.NameKatro6x3, 6)
	ls := withoutCount(lines(c.cert))
	for _, i := range positionLines(ls) {
		damaged := append(append([]string(nil), ls[:i]...), ls[i+1:]...)
		pos, _, _ := strings.Cut(ls[i], "\t")
		want := "position " + pos + " (winner to move) is not in the certificate"
		if _, err := verify(c.root, join(damaged)); err == nil || err.Error() != want || isFormat(err) {
			t.Errorf("without line %d: %v, want %q", i+1, err, want)
		}
	}
}

// TestVerifyChangedMove changes each winning move to each other legal
// move and checks Verify's verdict against the tests' own slow check of
// the changed certificate (in these late positions the other moves mostly
// win too, but by other lines than the certificate lists).
func TestVerifyChangedMove(t *testing.T) {
	refused, losing := 0, 0
	for _, game := range games {
		for _, c := range provedCases(t, game, 12) {
			ls := lines(c.cert)
			for _, i := range positionLines(ls) {
				p, m := linePosition(t, c.root.Variant(), ls[i])
				for _, alt := range p.LegalMoves() {
					if alt == m {
						continue
					}
					damaged := append([]string(nil), ls...)
					damaged[i] = strings.TrimSuffix(ls[i], m.String()) + alt.String()
					_, err := verify(c.root, join(damaged))
					holds := slowHolds(t, c.root, c.winner, damaged)
					if (err == nil) != holds || isFormat(err) {
						t.Errorf("%s: %s instead of %s on line %d: %v; the slow check says holds=%v", c.root.String(), alt, m, i+1, err, holds)
					}
					if err != nil && !strings.Contains(err.Error(), "position ") {
						t.Errorf("%s: %s instead of %s: %v names no position", c.root.String(), alt, m, err)
					}
					if err != nil {
						refused++
					}
					child, _ := p.After(alt)
					if r, ok := newSlowSolver(5000).solve(child); ok && r == win {
						losing++
						if err == nil {
							t.Errorf("%s: %s, a losing move, instead of %s is accepted", c.root.String(), alt, m)
						}
					}
				}
			}
		}
	}
	if refused < 10 {
		t.Errorf("%d changed certificates refused, want at least 10", refused)
	}
	t.Logf("%d changed certificates refused, %d with a losing move", refused, losing)
}

// slowHolds is the tests' own check of a certificate, by plain recursion
// over notation strings without the no-capture limit: every line must end
// with the loser to move and no legal move, without reaching a position
// again from itself.
func slowHolds(t *testing.T, root board.Position, winner board.Side, ls []string) bool {
	moves := map[string]board.Move{}
	for _, i := range positionLines(ls) {
		p, m := linePosition(t, root.Variant(), ls[i])
		moves[noClock(&p)] = m
	}
	state := map[string]int{} // 1 on the line, 2 holds
	var holds func(p board.Position) bool
	holds = func(p board.Position) bool {
		k := noClock(&p)
		switch state[k] {
		case 1:
			return false
		case 2:
			return true
		}
		ms := p.LegalMoves()
		if p.Side() == winner {
			m, ok := moves[k]
			if !ok || !slices.Contains(ms, m) {
				return false
			}
			ms = []board.Move{m}
		}
		state[k] = 1
		for _, m := range ms {
			c, _ := p.After(m)
			if !holds(c) {
				return false
			}
		}
		state[k] = 2
		return true
	}
	return holds(root)
}

// TestVerifyRefusesGarbled damages the text of a line.
func TestVerifyRefusesGarbled(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	ls := lines(c.cert)
	i := positionLines(ls)[1]
	pos, mv, _ := strings.Cut(ls[i], "\t")
	first, rest, _ := strings.Cut(pos, ",")
	n, _ := strconv.Atoi(first)
	for _, d := range []struct{ line, want string }{
		{pos + " " + mv, "not `<rows> <side>\\t<move>`: no TAB before the move"},
		{pos + "\t" + mv + " ", `move "` + mv + ` ": want a hole such as a1`},
		{pos + "\tz9", `move "z9": not a hole of the katro-4x4 board (columns a-d, rows 1-4)`},
		{pos + "\tpass", `move "pass": want a hole such as a1`},
		{strings.Replace(pos, " ", "  ", 1) + "\t" + mv, "not `<rows> <side>\\t<move>`: want the rows, one space and the side S or N before the TAB"},
		{pos[:len(pos)-1] + "X\t" + mv, `side "X": want S or N`},
		{fmt.Sprint(n+1) + "," + rest + "\t" + mv, "seeds add up to 33, want 32"},
		{"0,0,0,0/0,0,0,0/16,16,0,0/0,0,0,0 S\ta2", "North, not to move, has no seeds: that game is already over"},
		{"1,2,3/" + pos + "\t" + mv, "board has 5 rows, want 4"},
		{"x," + rest + "\t" + mv, `a4: "x" is not a non-negative integer`},
		{"#sower proof certificate v3", `certificate version "v3": this checker reads v1 and v2`},
		{"#sower proof certificate v2", `a version 2 header line in a version 1 certificate`},
		{"# positions many", `# positions "many": want a count`},
		{"# winner Nobody", `# winner "Nobody": want South or North`},
	} {
		damaged := append([]string(nil), ls...)
		damaged[i] = d.line
		_, err := verify(c.root, join(damaged))
		want := fmt.Sprintf("line %d: %s", i+1, d.want)
		if err == nil || err.Error() != want || !isFormat(err) {
			t.Errorf("line %q: %v, want the format error %q", d.line, err, want)
		}
	}
	long := join(append(append([]string(nil), ls...), strings.Repeat("1", 70000)))
	if _, err := verify(c.root, long); err == nil || !isFormat(err) || !strings.HasSuffix(err.Error(), "longer than 65536 bytes") {
		t.Errorf("a long line: %v", err)
	}
}

// TestVerifyHeader checks what the header lines state and how lines may
// end.
func TestVerifyHeader(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	ls := lines(c.cert)
	for _, d := range []struct {
		name   string
		cert   []byte
		format string // the format error wanted, "" for none
	}{
		{"CRLF", []byte(strings.ReplaceAll(string(c.cert), "\n", "\r\n")), ""},
		{"no last newline", bytes.TrimSuffix(c.cert, []byte("\n")), ""},
		{"blank lines and unknown headers", join(append([]string{"", "# made by hand", "#"}, ls...)), ""},
		{"no header", join(withoutHeader(ls)), ""},
		{"count too high", join(append(withoutCount(ls), fmt.Sprintf("# positions %d", c.stats.Listed+1))),
			fmt.Sprintf("the header states %d positions, the certificate lists %d: it is incomplete or damaged", c.stats.Listed+1, c.stats.Listed)},
		{"another game", join(replaceHeader(ls, "game", "katro-4x6")), "the certificate is for katro-4x6, not katro-4x4"},
		{"another root", join(replaceHeader(ls, "root", "0,0,0,0/0,0,0,0/16,15,0,0/1,0,0,0 S")),
			"line 3: the certificate is for the root 0,0,0,0/0,0,0,0/16,15,0,0/1,0,0,0 S, not " + noClock(&c.root)},
	} {
		_, err := verify(c.root, d.cert)
		switch {
		case d.format == "" && err != nil:
			t.Errorf("%s: %v", d.name, err)
		case d.format != "" && (err == nil || err.Error() != d.format || !isFormat(err)):
			t.Errorf("%s: %v, want the format error %q", d.name, err, d.format)
		}
	}
	// A header that names the loser as the winner: the proof fails, and
	// the certificate is readable.
	lie := replaceHeader(ls, "winner", c.winner.Other().String())
	if _, err := verify(c.root, join(lie)); err == nil || isFormat(err) {
		t.Errorf("a header naming the loser as winner: %v", err)
	}
}

// replaceHeader returns ls with the value of the header line key replaced.
func replaceHeader(ls []string, key, value string) []string {
	out := append([]string(nil), ls...)
	for i, l := range out {
		if strings.HasPrefix(l, "# "+key+" ") {
			out[i] = "# " + key + " " + value
		}
	}
	return out
}

// TestVerifyWrongGame checks a katro-4x4 certificate against a katro-4x6
// position: the header says so, and without it the first line does.
func TestVerifyWrongGame(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	v, _ := board.New(board.NameKatro4x6)
	root := v.Start()
	if _, err := verify(root, c.cert); err == nil || !isFormat(err) || err.Error() != "the certificate is for katro-4x4, not katro-4x6" {
		t.Errorf("with the header: %v", err)
	}
	bare := join(withoutHeader(lines(c.cert)))
	if _, err := verify(root, bare); err == nil || !isFormat(err) || err.Error() != "line 1: row 4 has 4 holes, want 6" {
		t.Errorf("without the header: %v", err)
	}
}

// TestVerifyDuplicates: a line repeated exactly is allowed and counted; the
// same position with another move is refused.
func TestVerifyDuplicates(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	ls := withoutCount(lines(c.cert))
	i := positionLines(ls)[1]
	st, err := verify(c.root, join(append(append([]string(nil), ls...), ls[i])))
	if err != nil || st.Duplicates != 1 || st.Listed != c.stats.Listed+1 || st.Unused != 0 {
		t.Errorf("a line twice: %+v %v", st, err)
	}
	p, m := linePosition(t, c.root.Variant(), ls[i])
	var alt board.Move
	for _, h := range c.root.Variant().Holes() {
		if h != m && p.Count(h) > 0 {
			alt = h
		}
	}
	other := strings.TrimSuffix(ls[i], m.String()) + alt.String()
	n := len(ls) + 1
	want := fmt.Sprintf("line %d: the position of line %d is listed again with another move (%s, there %s)", n, i+1, alt, m)
	if _, err := verify(c.root, join(append(append([]string(nil), ls...), other))); err == nil || err.Error() != want || isFormat(err) {
		t.Errorf("a line twice with another move: %v, want %q", err, want)
	}
}

// TestVerifyUnused: lines the proof never reaches are allowed and counted.
func TestVerifyUnused(t *testing.T) {
	cs := provedCases(t, board.NameKatro4x4, 12)
	a, b := cs[0], cs[1]
	both := join(append(withoutCount(lines(a.cert)), withoutHeader(lines(b.cert))...))
	st, err := verify(a.root, both)
	if err != nil || st.Unused != b.stats.Listed || st.WinnerReached != a.stats.Listed {
		t.Errorf("two certificates in one: %+v %v; want %d unused", st, err, b.stats.Listed)
	}
}

// atClock returns p with its clock set to k.
func atClock(t *testing.T, p board.Position, k int) board.Position {
	t.Helper()
	q, err := p.Variant().ParsePosition(noClock(&p) + " " + strconv.Itoa(k))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestVerifyLimit checks the clock rule at its boundary: a certificate
// whose longest capture-free runs are r plies from the root and R plies
// anywhere (counted by the tests' own walk) holds from clock k under a
// limit L exactly when k + r < L and R < L, and a refusal names a position
// where the game goes on at the limit.
func TestVerifyLimit(t *testing.T) {
	tried := 0
	for _, game := range games {
		for _, c := range provedCases(t, game, 12) {
			count := slowCount(t, c)
			r, runs := count.captureFree, count.longestRun
			if r < 2 {
				continue
			}
			tried++
			for _, k := range []int{0, 1, 7} {
				edge := max(k+r, runs)
				for _, lim := range []int{edge, edge + 1} {
					root := atClock(t, withLimit(t, c.root, lim), k)
					_, err := verify(root, c.cert)
					if lim > edge {
						if err != nil {
							t.Errorf("%s, limit %d: %v", root.String(), lim, err)
						}
						continue
					}
					checkLimitError(t, root, err, lim)
				}
			}
			// The default limit of 200, with the root's clock near it.
			for _, k := range []int{board.DefaultNoCaptureLimit - r - 1, board.DefaultNoCaptureLimit - r} {
				root := atClock(t, withLimit(t, c.root, board.DefaultNoCaptureLimit), k)
				_, err := verify(root, c.cert)
				if k+r < board.DefaultNoCaptureLimit {
					if err != nil {
						t.Errorf("%s: %v", root.String(), err)
					}
					continue
				}
				checkLimitError(t, root, err, board.DefaultNoCaptureLimit)
			}
		}
	}
	if tried < 3 {
		t.Errorf("%d proofs with capture-free runs of 2 plies or more, want 3", tried)
	}
}

// checkLimitError checks a refusal for the no-capture limit lim.
func checkLimitError(t *testing.T, root board.Position, err error, lim int) {
	t.Helper()
	prefix := fmt.Sprintf("capture-free run of %d plies reaches the no-capture limit at ", lim)
	if lim == 1 {
		prefix = "capture-free run of 1 ply reaches the no-capture limit at "
	}
	suffix := fmt.Sprintf(" (the limit is %d)", lim)
	if err == nil || isFormat(err) || !strings.HasPrefix(err.Error(), prefix) || !strings.HasSuffix(err.Error(), suffix) {
		t.Errorf("%s, limit %d: %v, want %q…", root.String(), lim, err, prefix)
		return
	}
	at := strings.TrimSuffix(strings.TrimPrefix(err.Error(), prefix), suffix)
	v, _ := root.Variant().WithRules(board.Rules{})
	p, perr := v.ParsePosition(at)
	if perr != nil || p.Clock() != lim || !p.HasLegalMove() {
		t.Errorf("%s, limit %d: the position named, %s, is not one at the limit where the game goes on (%v)", root.String(), lim, at, perr)
	}
}

// TestVerifyRepetition: a position of the proof that the game's history
// holds twice would be a draw by repetition.
func TestVerifyRepetition(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	ls := lines(c.cert)
	p, _ := linePosition(t, c.root.Variant(), ls[positionLines(ls)[1]])
	k := p.Key()
	if _, err := cert.Verify(context.Background(), bytes.NewReader(c.cert), c.root, cert.Options{History: []uint64{k, 1, 2}}); err != nil {
		t.Errorf("a position once in the history: %v", err)
	}
	want := "position " + noClock(&p) + " occurs for the third time with the game's earlier positions: a draw by repetition"
	if _, err := cert.Verify(context.Background(), bytes.NewReader(c.cert), c.root, cert.Options{History: []uint64{k, 1, k}}); err == nil || err.Error() != want {
		t.Errorf("a position twice in the history: %v, want %q", err, want)
	}
}

// TestVerifyWinnerWithoutMove: a certificate that lists a position where
// its winner has no legal move is refused.
func TestVerifyWinnerWithoutMove(t *testing.T) {
	v, _ := board.NewWithRules(board.NameKatro4x4, board.Rules{})
	// Find one in the solver's results: a position with no legal move.
	for _, c := range provedCases(t, board.NameKatro4x4, 12) {
		for k, r := range c.solver.memo {
			p, err := v.ParsePosition(k + " 0")
			if err != nil || r.value != loss || p.HasLegalMove() {
				continue
			}
			ls := []string{"# winner " + p.Side().String(), k + "\ta1"}
			want := "position " + k + " (line 2): the winner, " + p.Side().String() + ", has no legal move there and loses"
			if _, err := verify(p, join(ls)); err == nil || err.Error() != want {
				t.Errorf("%v, want %q", err, want)
			}
			// Without the header the other side is the winner, and the
			// proof holds at once.
			if st, err := verify(p, nil); err != nil || st.Winner != p.Side().Other() || st.Longest != 0 || st.CaptureFree != -1 {
				t.Errorf("the empty certificate of a finished game: %+v %v", st, err)
			}
			return
		}
	}
	t.Fatal("no position without a legal move found")
}

// TestHoyitoRefused: certificates are for Katro.
func TestHoyitoRefused(t *testing.T) {
	v, _ := board.New(board.NameHoyito3)
	if _, err := verify(v.Start(), nil); err == nil || !strings.Contains(err.Error(), "for Katro") {
		t.Errorf("Verify: %v", err)
	}
	if _, err := cert.Write(context.Background(), &bytes.Buffer{}, v.Start(), board.South, nil, cert.Options{}); err == nil || !strings.Contains(err.Error(), "for Katro") {
		t.Errorf("Write: %v", err)
	}
}

// TestWriteRefuses: Write will not write a proof that would not verify, and
// WriteFile then leaves no file.
func TestWriteRefuses(t *testing.T) {
	c := bigCase(t, board.NameKatro6x3, 3)
	ls := lines(c.cert)
	p, _ := linePosition(t, c.root.Variant(), ls[positionLines(ls)[1]])
	target := noClock(&p)
	var empty board.Move
	for _, h := range p.Variant().Holes() {
		if p.Count(h) == 0 {
			empty = h
		}
	}
	dir := t.TempDir()
	for _, d := range []struct {
		name   string
		root   board.Position
		oracle cert.Oracle
		want   string
	}{
		{"no move", c.root, func(q *board.Position) (board.Move, bool) {
			if noClock(q) == target {
				return 0, false
			}
			return c.solver.oracle(q)
		}, "no winning move is known for position " + target + " (winner to move)"},
		{"illegal move", c.root, func(q *board.Position) (board.Move, bool) {
			if noClock(q) == target {
				return empty, true
			}
			return c.solver.oracle(q)
		}, "the oracle's move " + empty.String() + " is not legal in " + target + ": " + mustErr(p.CheckMove(empty))},
		{"limit", withLimit(t, c.root, c.stats.LongestRun), c.solver.oracle, fmt.Sprintf("capture-free run of %d plies reaches the no-capture limit at ", c.stats.LongestRun)},
	} {
		_, err := cert.Write(context.Background(), &bytes.Buffer{}, d.root, c.winner, d.oracle, cert.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), d.want) {
			t.Errorf("%s: %v, want %q", d.name, err, d.want)
		}
		path := filepath.Join(dir, "p.gz")
		if _, err := cert.WriteFile(context.Background(), path, d.root, c.winner, d.oracle, cert.Options{}); err == nil {
			t.Errorf("%s: WriteFile wrote", d.name)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: WriteFile left %v", d.name, left)
		}
	}
}

func mustErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestGzip writes certificates with WriteFile, gzipped or not, and reads
// them back; a damaged gzip stream is a format error.
func TestGzip(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	dir := t.TempDir()
	for _, name := range []string{"p.txt", "p.txt.gz"} {
		path := filepath.Join(dir, name)
		if _, err := cert.WriteFile(context.Background(), path, c.root, c.winner, c.solver.oracle, cert.Options{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		plain := data
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var b bytes.Buffer
			if _, err := b.ReadFrom(zr); err != nil {
				t.Fatal(err)
			}
			plain = b.Bytes()
		}
		if !bytes.Equal(plain, c.cert) {
			t.Errorf("%s holds another certificate than Write's", name)
		}
		if st, err := verify(c.root, data); err != nil || st.Listed != c.stats.Listed {
			t.Errorf("%s: %+v %v", name, st, err)
		}
		if strings.HasSuffix(name, ".gz") {
			if _, err := verify(c.root, data[:len(data)-10]); err == nil || !isFormat(err) {
				t.Errorf("a truncated gzip stream: %v", err)
			}
		}
	}
}

// TestVerifyRefusesLosingMove: in this katro-4x4 position North wins with
// b4 but loses with a4 (both found by the slow solver); the certificate
// with a4 in place of b4 is refused.
func TestVerifyRefusesLosingMove(t *testing.T) {
	v, _ := board.NewWithRules(board.NameKatro4x4, board.Rules{})
	root, err := v.ParsePosition("3,1,0,0/0,0,0,1/5,1,4,13/0,1,0,3 N 0")
	if err != nil {
		t.Fatal(err)
	}
	s := newSlowSolver(20000)
	if r, ok := s.solve(root); !ok || r != win {
		t.Fatalf("the solver: %d %v, want a win", r, ok)
	}
	a4, _ := v.ParseMove("a4")
	b4, _ := v.ParseMove("b4")
	after, _ := root.After(a4)
	if r, ok := newSlowSolver(20000).solve(after); !ok || r != win {
		t.Fatalf("after a4 the solver finds %d %v, want a win for South", r, ok)
	}
	var b bytes.Buffer
	if _, err := cert.Write(context.Background(), &b, root, board.North, s.oracle, cert.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := verify(root, b.Bytes()); err != nil {
		t.Fatalf("the solver's proof: %v", err)
	}
	ls := lines(b.Bytes())
	first := positionLines(ls)[0]
	if want := noClock(&root) + "\t" + b4.String(); ls[first] != want {
		t.Fatalf("the first line is %q, want %q", ls[first], want)
	}
	ls[first] = noClock(&root) + "\t" + a4.String()
	_, err = verify(root, join(ls))
	if err == nil || isFormat(err) || !strings.Contains(err.Error(), "position ") {
		t.Errorf("a4, a losing move, in place of b4: %v", err)
	}
}
