package protocol

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/internal/sowertest"
)

// startSower starts the binary, as a GUI does: with no arguments, or the
// given ones.
func startSower(t *testing.T, bin string, args ...string) (*session, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	// A pipe of our own, not StdoutPipe: Wait would close that one at
	// the exit, possibly before its last lines are read.
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	return attach(t, in, out, done), &stderr
}

// banner matches the line the binary prints first in protocol mode.
var banner = regexp.MustCompile(`^Sower \S+ by the Sower developers \(type uci or ugi\)$`)

// protocolLine matches every line the sessions below may print.
var protocolLine = regexp.MustCompile(`^(Sower \S+ by the Sower developers \(type uci or ugi\)|id (name|author) .+|option name .+|uciok|ugiok|readyok|info .+|bestmove \S+( ponder \S+)?|response \S+|[a-f][1-6] \d+|pass \d+|nodes \d+)$`)

func TestBinary(t *testing.T) {
	bin := buildSower(t)
	for _, tc := range []struct {
		name string
		talk func(t *testing.T, s *session)
	}{
		{"katro over UCI", func(t *testing.T, s *session) {
			// One banner line, as Stockfish prints, then nothing until the
			// first command.
			if l, ok := s.next(wait); !ok || !banner.MatchString(l) {
				t.Errorf("first line %q (%v), want the banner", l, ok)
			}
			if l, ok := s.next(200 * time.Millisecond); ok {
				t.Errorf("printed %q before the first command", l)
			}
			s.send("uci")
			s.expect("uciok")
			s.send("setoption name Hash value 8", "isready")
			s.expect("readyok")
			s.send("ucinewgame", "position startpos moves a1 f6", "go depth 5")
			s.bestmove()
			withinTries(t, clockAnswer, "bestmove on a 1 s clock", func() time.Duration {
				start := time.Now()
				s.send("go wtime 1000 btime 1000 winc 0 binc 0")
				s.bestmove()
				return time.Since(start)
			})
			s.send("go infinite")
			s.sync()
			s.send("stop")
			s.bestmove()
			s.send("position fen 1,2 S 0")
			if got := s.sync(); len(got) != 1 || !strings.HasPrefix(got[0], "info string error: position: ") {
				t.Errorf("bad position: %q", got)
			}
			s.send("go depth 3", "quit")
			s.bestmove()
		}},
		{"hoyito3 over UGI", func(t *testing.T, s *session) {
			s.send("ugi")
			s.expect("ugiok")
			s.send("setoption name UCI_Variant value hoyito3")
			s.expect("info string variant hoyito3 startpos 4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0")
			s.send("uginewgame", "position startpos moves a1 c2", "query p1turn")
			if got := s.expect("response")[0]; got != "response false" {
				t.Errorf("p1turn after North's capture: %q", got)
			}
			s.send("go p1time 1000 p2time 1000")
			s.bestmove()
			s.send("perft 3")
			s.expect("nodes ")
			s.send("go infinite")
			s.sync()
			// End of input: the search is stopped and prints its bestmove.
			rest, err := s.close()
			if err != nil {
				t.Errorf("exit: %v", err)
			}
			if len(rest) == 0 || !strings.HasPrefix(rest[len(rest)-1], "bestmove ") {
				t.Errorf("after the end of input: %q", rest)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, stderr := startSower(t, bin)
			tc.talk(t, s)
			_, err := s.close()
			if err != nil {
				t.Errorf("sower exited with %v", err)
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr: %q", stderr.String())
			}
			for _, l := range s.seen {
				if !protocolLine.MatchString(l) {
					t.Errorf("not a protocol line: %q", l)
				}
			}
		})
	}
}

// TestBinaryBestmoveDialect is the regression test for UGI runners that
// accept only "bestmove <move>": after "ugi" the line has exactly two
// words, after "uci" it names the expected reply too.
func TestBinaryBestmoveDialect(t *testing.T) {
	bin := buildSower(t)
	for _, tc := range []struct {
		hello, ok string
		words     int
	}{
		{"ugi", "ugiok", 2},
		{"uci", "uciok", 4},
	} {
		t.Run(tc.hello, func(t *testing.T) {
			s, _ := startSower(t, bin)
			s.send(tc.hello)
			s.expect(tc.ok)
			for _, variant := range []string{"katro", "hoyito3"} {
				s.send("setoption name UCI_Variant value "+variant, "position startpos", "go depth 6")
				got := s.expect("bestmove ")
				if f := strings.Fields(got[len(got)-1]); len(f) != tc.words {
					t.Errorf("%s after %s: %q, want %d words", variant, tc.hello, got[len(got)-1], tc.words)
				}
			}
			// A later handshake switches the dialect.
			other := map[string]string{"ugi": "uci", "uci": "ugi"}[tc.hello]
			s.send(other)
			s.expect(other + "ok")
			s.send("position startpos", "go depth 6")
			got := s.expect("bestmove ")
			if f := strings.Fields(got[len(got)-1]); len(f) != 6-tc.words {
				t.Errorf("after %s then %s: %q", tc.hello, other, got[len(got)-1])
			}
			s.send("quit")
		})
	}
}

// buildSower builds the sower command for the tests that run it over
// pipes; they are skipped with -short.
func buildSower(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the sower binary; skipped with -short")
	}
	return sowertest.Build(t, false)
}

// switchDialectDuringSearch starts an infinite search after the handshake
// hello, sends the other handshake while it runs and then stop: the
// bestmove, written after the other handshake's answer, must have that
// dialect's form (UGI: the move alone; UCI: with its ponder move).
func switchDialectDuringSearch(t *testing.T, s *session, hello string) {
	t.Helper()
	other := map[string]string{"ugi": "uci", "uci": "ugi"}[hello]
	s.send(hello)
	s.expect(hello + "ok")
	s.send("position startpos", "go infinite")
	s.expect("info depth 4 ") // deep enough to have a ponder move
	s.send(other)
	if got := s.expect(other + "ok"); slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) {
		t.Fatalf("%s stopped the search: %q", other, got)
	}
	s.send("stop")
	got := s.expect("bestmove ")
	want := map[string]int{"ugi": 2, "uci": 4}[other]
	if f := strings.Fields(got[len(got)-1]); len(f) != want {
		t.Errorf("%s, go infinite, %s, stop: %q, want %d words (the %s form)", hello, other, got[len(got)-1], want, other)
	}
}

// TestBinaryDialectSwitchDuringSearch checks over the pipe that bestmove
// follows the dialect in force when it is written, not at "go".
func TestBinaryDialectSwitchDuringSearch(t *testing.T) {
	bin := buildSower(t)
	for _, hello := range []string{"uci", "ugi"} {
		t.Run(hello, func(t *testing.T) {
			s, stderr := startSower(t, bin)
			switchDialectDuringSearch(t, s, hello)
			s.send("quit")
			if err, _ := s.close(); err != nil || stderr.Len() > 0 {
				t.Errorf("exit %v, stderr %q", err, stderr.String())
			}
		})
	}
}

// TestDialectSwitchDuringSearch is the same in process, with -short too.
func TestDialectSwitchDuringSearch(t *testing.T) {
	for _, hello := range []string{"uci", "ugi"} {
		t.Run(hello, func(t *testing.T) {
			switchDialectDuringSearch(t, newSession(t, Config{}), hello)
		})
	}
}
