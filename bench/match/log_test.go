package match

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestLogNamesProcesses plays games at once with two processes of each
// engine: every line of the log names its process, and each game says
// which processes play it.
func TestLogNamesProcesses(t *testing.T) {
	bin := clienttest.BuildFake(t)
	lim := timecontrol.Limit{MoveTime: 2 * time.Second}
	var log sowertest.SyncBuffer
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 4, Concurrency: 2,
		Engines: [2]EngineSpec{fake(bin, "e", lim), fake(bin, "e-2", lim)},
		Log:     &log,
	}
	run(t, cfg)
	line := regexp.MustCompile(`^ *[0-9]+\.[0-9]{3} (e|e-2)\(([0-9]+)\) [<>] `)
	note := regexp.MustCompile(`^ *[0-9]+\.[0-9]{3} # game ([1-4]): (e|e-2)\([0-9]+\) \(south\) vs (e|e-2)\([0-9]+\) \(north\)$`)
	uci := map[string]int{} // "uci" commands by process
	games := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if m := note.FindStringSubmatch(l); m != nil {
			games[m[1]] = true
			continue
		}
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("log line %q names no process", l)
		}
		if strings.HasSuffix(l, "> uci") {
			uci[m[1]+"("+m[2]+")"]++ // by process label
		}
	}
	if len(uci) < 4 || len(games) != 4 {
		t.Errorf("%d processes, games %v in the log; want 4 processes and games 1 to 4:\n%s", len(uci), games, log.String())
	}
	for p, n := range uci {
		if n != 1 {
			t.Errorf("%q: %d processes of one name", p, n)
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestLogWriteFails stops the match, and its check, when the log cannot
// be written, as a record that cannot be written does.
func TestLogWriteFails(t *testing.T) {
	bin := clienttest.BuildFake(t)
	lim := timecontrol.Limit{MoveTime: 2 * time.Second}
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 2,
		Engines: [2]EngineSpec{fake(bin, "a", lim), fake(bin, "b", lim)},
		Log:     failWriter{},
	}
	if err := cfg.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "writing the log: no space left") {
		t.Errorf("Check: %v, want an error writing the log", err)
	}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "writing the log: no space left") {
		t.Errorf("Run: %v, want an error writing the log", err)
	}
}
