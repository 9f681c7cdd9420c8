package dfpn

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// latePosition is a position of the measuring set: a game's position with
// its history.
type latePosition struct {
	name    string
	game    *board.Game
	history []uint64
}

// lateSet reads the Katro 6x6 positions of testdata/dfpn/katro-6x6-late.txt.
func lateSet(t *testing.T) []latePosition {
	t.Helper()
	f, err := os.Open("../../testdata/dfpn/katro-6x6-late.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := board.New("katro")
	if err != nil {
		t.Fatal(err)
	}
	var set []latePosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("%q: want name, start and moves", line)
		}
		start, err := v.ParsePosition(fields[1])
		if err != nil {
			t.Fatal(err)
		}
		moves, err := v.ParseMoves(fields[2])
		if err != nil {
			t.Fatal(err)
		}
		g := board.NewGame(start)
		if err := g.PlayAll(moves); err != nil {
			t.Fatal(err)
		}
		set = append(set, latePosition{name: fields[0], game: g, history: g.History()})
	}
	return set
}

// measureConfigs solves every position of the set with each configuration
// in turn (the configurations side by side, position by position), each
// within limit, and logs nodes and times.
func measureConfigs(t *testing.T, names []string, cfgs []Config, limit time.Duration) {
	set := lateSet(t)
	solvers := make([]*Solver, len(cfgs))
	for i, cfg := range cfgs {
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		solvers[i] = s
	}
	type tally struct {
		solved int
		nodes  uint64
		time   time.Duration
		cpu    time.Duration // processor time, all threads, solved or not
	}
	sums := make([]tally, len(cfgs))
	for _, lp := range set {
		line := lp.name
		for i, s := range solvers {
			s.Clear()
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			cpu := cpuTime()
			res, err := s.Solve(ctx, lp.game.Position(), lp.history, nil)
			cancel()
			sums[i].cpu += cpuTime() - cpu
			line += "\t" + names[i] + " "
			if err != nil || res.Outcome == Unknown {
				line += "unsolved"
				sums[i].time += limit
				continue
			}
			line += res.Outcome.String() + " " + itoa(res.Nodes) + " " + res.Time.Round(time.Millisecond).String() + " cpu " + (cpuTime() - cpu).Round(time.Millisecond).String()
			sums[i].solved++
			sums[i].nodes += res.Nodes
			sums[i].time += res.Time
		}
		t.Log(line)
	}
	for i := range cfgs {
		t.Logf("%s: %d of %d solved, %d nodes and %s on the solved ones (unsolved counted at the limit in the time), processor time %s in all", names[i], sums[i].solved, len(set), sums[i].nodes, sums[i].time.Round(time.Millisecond), sums[i].cpu.Round(time.Millisecond))
	}
}

func itoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// TestMeasureThreads compares one and two threads on the measuring set
// and the katro-4x4 start. It only reports (SOWER_DFPN_MEASURE=threads).
func TestMeasureThreads(t *testing.T) {
	if os.Getenv("SOWER_DFPN_MEASURE") != "threads" {
		t.Skip("set SOWER_DFPN_MEASURE=threads to measure")
	}
	cfgs := []Config{{HashMiB: 256, Threads: 1}, {HashMiB: 256, Threads: 2}}
	names := []string{"1 thread", "2 threads"}
	v, _ := board.New("katro-4x4")
	for i, cfg := range cfgs {
		s, _ := New(cfg)
		res, _ := s.Solve(context.Background(), v.Start(), nil, nil)
		t.Logf("katro-4x4 %s: %s, %d nodes, %s", names[i], res.Outcome, res.Nodes, res.Time.Round(time.Millisecond))
	}
	measureConfigs(t, names, cfgs, 20*time.Second)
}
