package protocol

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestProvenLine: a proven result is said once in an info string line,
// and a depth-limited search goes on to its depth after the proof.
func TestProvenLine(t *testing.T) {
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value katro-4x4", "position fen 2,1,2,0/8,6,5,3/1,0,1,2/0,1,0,0 N 3", "go depth 10")
	move, lines := s.bestmove()
	if move != "a4" {
		t.Errorf("bestmove %s, want the win a4", move)
	}
	var proofs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string proven") {
			proofs = append(proofs, l)
		}
	}
	if want := []string{"info string proven: win in 3 plies"}; !slices.Equal(proofs, want) {
		t.Errorf("proof lines %q, want %q", proofs, want)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info depth 10 ") }) {
		t.Errorf("the search stopped before depth 10:\n%s", strings.Join(lines, "\n"))
	}
}

// TestMultiPVOption: with MultiPV 3 every depth reports lines 1 to 3,
// ordered by score; bad values are refused and change nothing.
func TestMultiPVOption(t *testing.T) {
	s := newSession(t, Config{})
	for _, bad := range []string{"0", "9", "two", ""} {
		s.send("setoption name MultiPV value " + bad)
		if got := errorLines(s.sync()); len(got) != 1 || !strings.Contains(got[0], "MultiPV") {
			t.Errorf("MultiPV %q: errors %q", bad, got)
		}
	}
	s.send("setoption name multipv value 3", "position startpos", "go depth 4")
	_, lines := s.bestmove()
	ranks := map[string][]string{}
	for _, l := range lines[:len(lines)-1] { // the last repeats line 1 before bestmove
		f := strings.Fields(l)
		if len(f) < 9 || f[0] != "info" || f[1] != "depth" || f[5] != "multipv" {
			continue
		}
		ranks[f[2]] = append(ranks[f[2]], f[6])
		if f[7] != "score" || f[8] != "cp" {
			t.Errorf("line %q", l)
		}
	}
	for d := 1; d <= 4; d++ {
		if got := ranks[strconv.Itoa(d)]; !slices.Equal(got, []string{"1", "2", "3"}) {
			t.Errorf("depth %d: ranks %q, want 1 2 3", d, got)
		}
	}
	// A root with fewer moves than the lines asked for still numbers its
	// one line (a Hoyito III player who must pass).
	s.send("setoption name UCI_Variant value hoyito3", "position fen 0,0,0,0,0,0/2,2,1,1,1,1 N 20 20 0", "go depth 3")
	_, lines = s.bestmove()
	for _, l := range lines {
		if strings.HasPrefix(l, "info depth") && !strings.Contains(l, " multipv 1 ") {
			t.Errorf("MultiPV 3 with one move printed %q", l)
		}
	}
	s.send("setoption name UCI_Variant value katro")
	// Back to one line: no multipv field.
	s.send("setoption name MultiPV value 1", "go depth 3")
	_, lines = s.bestmove()
	for _, l := range lines {
		if strings.Contains(l, "multipv") {
			t.Errorf("MultiPV 1 printed %q", l)
		}
	}
}

// TestHashMemory: a Hash value the machine cannot hold is refused with an
// error, the table and a running search kept.
func TestHashMemory(t *testing.T) {
	s := newSession(t, Config{AvailableMiB: func() (int, bool) { return 300, true }})
	s.send("setoption name Hash value 128", "position startpos", "go infinite")
	s.send("setoption name Hash value 256")
	if got := errorLines(s.sync()); len(got) != 1 || !strings.Contains(got[0], "more than this machine can spare") || !strings.Contains(got[0], "Hash stays 128") {
		t.Errorf("Hash 256 with 300 MiB available: errors %q", got)
	}
	s.noBestmove(50 * time.Millisecond) // the search goes on
	s.send("stop")
	s.bestmove()
	s.send("go depth 3")
	s.bestmove()
}

// TestThreadsOption: bad values are refused; Threads changed during a
// search leaves that search alone and applies to the next; searches with
// four threads answer as usual (run under the race detector).
func TestThreadsOption(t *testing.T) {
	s := newSession(t, Config{})
	for _, bad := range []string{"0", "257", "-1", "four", "1.5", ""} {
		s.send("setoption name Threads value " + bad)
		if got := errorLines(s.sync()); len(got) != 1 || !strings.Contains(got[0], "Threads") {
			t.Errorf("Threads %q: errors %q", bad, got)
		}
	}
	s.send("setoption name Threads value 4", "position startpos", "go depth 7")
	if move, _ := s.bestmove(); move == "" {
		t.Fatal("no move")
	}
	s.send("go infinite")
	s.noBestmove(30 * time.Millisecond)
	s.send("setoption name Threads value 2")
	if got := errorLines(s.sync()); len(got) != 0 {
		t.Errorf("Threads during a search: %q", got)
	}
	s.noBestmove(30 * time.Millisecond) // the search goes on
	s.send("stop")
	s.bestmove()
	s.send("position startpos moves e1", "go nodes 20000")
	s.bestmove()
	s.send("setoption name UCI_Variant value hoyito3", "setoption name Threads value 3", "position startpos", "go movetime 50")
	s.bestmove()
	if got := errorLines(s.sync()); len(got) != 0 {
		t.Errorf("errors: %q", got)
	}
	// The runtime may run every search thread and the command reader at
	// once.
	n := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(n) })
	s.send(fmt.Sprintf("setoption name Threads value %d", n+4))
	s.sync()
	if got := runtime.GOMAXPROCS(0); got < n+5 {
		t.Errorf("with %d threads GOMAXPROCS is %d, want at least %d", n+4, got, n+5)
	}
}

// TestPonderContinues: "go ponder" searches past its limits; "ponderhit"
// lets the same search go on (no new depth 1) and end under its limits;
// "stop" while pondering answers for the pondered position. The Ponder
// option takes true or false.
func TestPonderContinues(t *testing.T) {
	s := newSession(t, Config{})
	for _, bad := range []string{"yes", "1", ""} {
		s.send("setoption name Ponder value " + bad)
		if got := errorLines(s.sync()); len(got) != 1 || !strings.Contains(got[0], "Ponder") {
			t.Errorf("Ponder %q: errors %q", bad, got)
		}
	}
	s.send("setoption name Ponder value TRUE", "setoption name ponder value false", "setoption name Ponder value true")
	if got := errorLines(s.sync()); len(got) != 0 {
		t.Errorf("Ponder true/false: errors %q", got)
	}
	s.send("position startpos moves e1", "go ponder depth 3")
	s.expect("info depth 6 ") // past the limit: it ponders
	s.send("ponderhit")
	_, after := s.bestmove()
	for _, l := range after {
		if strings.HasPrefix(l, "info depth 1 ") {
			t.Errorf("the search restarted after ponderhit: %q", l)
		}
	}
	s.send("go ponder wtime 100000 btime 100000")
	s.expect("info depth 4 ")
	s.send("stop")
	move, _ := s.bestmove()
	if !slices.Contains([]string{"a6", "b6", "c6", "d6", "e6", "f6"}, move) {
		t.Errorf("bestmove %s after stop while pondering, not a move of North", move)
	}
}
