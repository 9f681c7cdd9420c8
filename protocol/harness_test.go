package protocol

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/internal/sowertest"
)

// wait bounds every wait of the tests for a line that should come soon;
// it is generous for slow machines and the race detector.
const wait = 10 * time.Second

// session drives ServeWith in-process over pipes, line by line.
type session struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
	done  chan error
	seen  []string // every line received, for failure messages
}

// newSession starts the protocol with cfg; it is shut down (input closed,
// ServeWith awaited) when the test ends.
func newSession(t *testing.T, cfg Config) *session {
	t.Helper()
	return newSessionCtx(t, context.Background(), cfg)
}

func newSessionCtx(t *testing.T, ctx context.Context, cfg Config) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := ServeWith(ctx, inR, outW, cfg)
		inR.Close()
		outW.Close()
		done <- err
	}()
	return attach(t, inW, outR, done)
}

// attach makes a session of an engine's input and output; done receives
// the engine's end. The session closes in and awaits done when the test
// ends.
func attach(t *testing.T, in io.WriteCloser, out io.Reader, done chan error) *session {
	s := &session{t: t, in: in, lines: make(chan string, 1<<16), done: done}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case err := <-s.done:
			s.done <- err
		case <-time.After(wait):
			t.Errorf("the engine did not end %v after its input was closed", wait)
		}
	})
	return s
}

// send writes command lines.
func (s *session) send(cmds ...string) {
	s.t.Helper()
	for _, c := range cmds {
		if _, err := io.WriteString(s.in, c+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", c, err)
		}
	}
}

// next returns the next line, failing after d.
func (s *session) next(d time.Duration) (string, bool) {
	select {
	case l, ok := <-s.lines:
		if ok {
			s.seen = append(s.seen, l)
		}
		return l, ok
	case <-time.After(d):
		return "", false
	}
}

// until returns the lines up to and including the first for which stop is
// true, failing the test if none comes within wait.
func (s *session) until(what string, stop func(string) bool) []string {
	s.t.Helper()
	var got []string
	deadline := time.Now().Add(wait)
	for {
		l, ok := s.next(time.Until(deadline))
		if !ok {
			s.t.Fatalf("no %s within %v; lines so far:\n%s", what, wait, strings.Join(s.seen, "\n"))
		}
		got = append(got, l)
		if stop(l) {
			return got
		}
	}
}

// expect returns the lines up to and including the first that starts
// with prefix.
func (s *session) expect(prefix string) []string {
	s.t.Helper()
	return s.until(`"`+prefix+`"`, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// sync sends isready and returns the lines before readyok.
func (s *session) sync() []string {
	s.t.Helper()
	s.send("isready")
	got := s.expect("readyok")
	return got[:len(got)-1]
}

// bestmove returns the move of the next bestmove line and the lines before.
func (s *session) bestmove() (string, []string) {
	s.t.Helper()
	got := s.expect("bestmove ")
	f := strings.Fields(got[len(got)-1])
	return f[1], got[:len(got)-1]
}

// quiet checks that no line arrives for d.
func (s *session) quiet(d time.Duration) {
	s.t.Helper()
	if l, ok := s.next(d); ok {
		s.t.Fatalf("unexpected line %q", l)
	}
}

// noBestmove checks that no bestmove arrives for d; info lines may.
func (s *session) noBestmove(d time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		l, ok := s.next(time.Until(deadline))
		if !ok {
			return
		}
		if strings.HasPrefix(l, "bestmove") {
			s.t.Fatalf("unexpected %q", l)
		}
	}
}

// close ends the input and returns the last lines and ServeWith's error.
func (s *session) close() ([]string, error) {
	s.t.Helper()
	s.in.Close()
	var rest []string
	for {
		l, ok := s.next(wait)
		if !ok {
			break
		}
		rest = append(rest, l)
	}
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return rest, err
	case <-time.After(wait):
		s.t.Fatalf("the protocol did not end %v after its input was closed", wait)
	}
	return nil, nil
}

// run feeds input whole to Serve and returns its output lines. Searches are
// stopped by the end of the input, so run suits commands without a search.
func run(t *testing.T, input string) []string {
	t.Helper()
	var out sowertest.SyncBuffer
	if err := Serve(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return out.Lines()
}

// errorLines returns the lines that report an error.
func errorLines(lines []string) []string {
	var e []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string error: ") {
			e = append(e, l)
		}
	}
	return e
}
