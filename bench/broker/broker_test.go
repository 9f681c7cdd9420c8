package broker

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/tune"
	"github.com/sower-engine/sower/internal/sowertest"
)

// startServer starts an embedded broker on a free loopback port.
func startServer(t *testing.T, dir string, o ServerOptions) *Server {
	t.Helper()
	o.Dir = dir
	if o.Listen == "" {
		o.Listen = "127.0.0.1:0"
	}
	s, err := Serve(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// proc is a sower process with its output.
type proc struct {
	cmd *exec.Cmd
	out *sowertest.SyncBuffer
	err chan error
}

// start starts the sower binary with args in dir.
func start(t *testing.T, bin, dir string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), out: &sowertest.SyncBuffer{}, err: make(chan error, 1)}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.err:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
		}
	})
	return p
}

// wait waits for the process to exit and returns its status.
func (p *proc) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.err:
	case <-time.After(limit):
		_ = p.cmd.Process.Kill()
		t.Fatalf("%v still running after %v:\n%s", p.cmd.Args, limit, p.out.String())
	}
	p.err <- nil // for the cleanup
	return p.cmd.ProcessState.ExitCode()
}

// waitFor waits until the output has a line containing s.
func (p *proc) waitFor(t *testing.T, s string, limit time.Duration) {
	t.Helper()
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(p.out.String(), s) {
			return
		}
	}
	t.Fatalf("no %q from %v within %v:\n%s", s, p.cmd.Args, limit, p.out.String())
}

// startWorkers starts n workers of the program bin on the broker at url,
// named w1, w2, … with their caches in dir.
func startWorkers(t *testing.T, bin, url, dir string, n int) []*proc {
	t.Helper()
	var ps []*proc
	for i := range n {
		ps = append(ps, start(t, bin, dir, "worker", "--broker", url, "--name", fmt.Sprintf("w%d", i+1),
			"--cache", filepath.Join(dir, fmt.Sprintf("cache%d", i+1))))
	}
	return ps
}

// readRecords reads a JSONL file of game records, without what differs
// between two plays of a game (the times), ordered by game.
func readRecords(t *testing.T, path string) []record.GameRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []record.GameRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var r record.GameRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i := range r.Moves {
			r.Moves[i].MS = 0
		}
		recs = append(recs, r)
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Game < recs[j].Game })
	return recs
}

// startHeld starts the coordinator of match id (its arguments without
// --broker) through a proxy that lets the results through but not their
// acknowledgement, and waits until the first result has reached it.
func startHeld(t *testing.T, bin string, srv *Server, dir, id string, args []string) *proc {
	t.Helper()
	px := startProxy(t, srv.Addr(), "sower.result."+id)
	p := start(t, bin, dir, append(args, "--broker", px.URL())...)
	select {
	case <-px.held:
	case <-time.After(time.Minute):
		t.Fatalf("no result reached the coordinator:\n%s", p.out.String())
	}
	return p
}

// movesOf returns a record's moves, one string.
func movesOf(r *record.GameRecord) string {
	var b strings.Builder
	for _, m := range r.Moves {
		b.WriteString(m.Move + " ")
	}
	return b.String()
}

// checkGames checks that recs hold games 1..n once each.
func checkGames(t *testing.T, recs []record.GameRecord, n int) {
	t.Helper()
	if len(recs) != n {
		t.Errorf("%d records, want %d", len(recs), n)
	}
	for i, r := range recs {
		if r.Game != i+1 {
			t.Errorf("record %d is of game %d: games lost or doubled", i+1, r.Game)
			return
		}
	}
}

// report is the final report: the lines from "Score of".
func report(out string) string {
	if i := strings.LastIndex(out, "Score of "); i >= 0 {
		return out[i:]
	}
	return ""
}

// TestDistributed drives the real binary: a broker in the test, a
// coordinator and workers as processes.
//
// Under the race detector it is skipped: its processes are not built with
// it, and the embedded broker, slowed down by it, carries all their
// traffic; the plain run of the suite covers it.
func TestDistributed(t *testing.T) {
	if raceEnabled {
		t.Skip("the processes are not race-instrumented; run without -race")
	}
	if testing.Short() {
		t.Skip("the process harness (a build of sower and dozens of processes) runs in the full suite")
	}
	bin := sowertest.Build(t, false)
	workers := func(t *testing.T, url, dir string, n int) []*proc { return startWorkers(t, bin, url, dir, n) }
	t.Run("faults", func(t *testing.T) { testFaults(t, bin) })

	t.Run("same records as a local match", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		args := []string{"match", "--engine1", bin, "--engine2", bin, "--option1", "Hash=2", "--limit2", "depth=3",
			"--nodes", "300", "--games", "9", "--random-plies", "4", "--seed", "7"}
		local := start(t, bin, dir, append(args, "--concurrency", "2", "--out", "local.jsonl")...)
		workers(t, srv.URL(), dir, 3)
		dist := start(t, bin, dir, append(args, "--broker", srv.URL(), "--out", "dist.jsonl")...)
		if code := local.wait(t, time.Minute); code != 0 {
			t.Fatalf("local match: exit %d\n%s", code, local.out.String())
		}
		if code := dist.wait(t, time.Minute); code != 0 {
			t.Fatalf("match over the broker: exit %d\n%s", code, dist.out.String())
		}
		lr, dr := readRecords(t, filepath.Join(dir, "local.jsonl")), readRecords(t, filepath.Join(dir, "dist.jsonl"))
		checkGames(t, dr, 9)
		if !reflect.DeepEqual(lr, dr) {
			t.Errorf("the records differ from the local match's")
		}
		if a, b := report(local.out.String()), report(dist.out.String()); a == "" || a != b {
			t.Errorf("reports differ:\nlocal:\n%s\nbroker:\n%s", a, b)
		}
	})

	t.Run("worker killed mid-pair", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		victim := workers(t, srv.URL(), dir, 1)[0]
		dist := start(t, bin, dir, "match", "--broker", srv.URL(), "--engine1", bin, "--engine2", "builtin:greedy",
			"--nodes", "3000", "--games", "4", "--ack-wait", "1500", "--out", "out.jsonl")
		victim.waitFor(t, "started", 30*time.Second)
		if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		victim.wait(t, 10*time.Second)
		start(t, bin, dir, "worker", "--broker", srv.URL(), "--name", "w2", "--cache", filepath.Join(dir, "cache2"))
		if code := dist.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		checkGames(t, readRecords(t, filepath.Join(dir, "out.jsonl")), 4)
		if !strings.Contains(report(dist.out.String()), "Score of sower vs greedy: ") || !strings.Contains(dist.out.String(), "] 4\n") {
			t.Errorf("report:\n%s", dist.out.String())
		}
	})

	// A round robin and a gauntlet of four engines (sower at two
	// strengths and two built-in players), a worker killed mid-pair.
	for _, tc := range []struct {
		format, heading string
		games           int
	}{
		{"--round-robin", "Tournament (round robin of 4 engines): 24 of 24 games", 24},
		{"--gauntlet", "Tournament (gauntlet of 4 engines): 12 of 12 games", 12},
	} {
		t.Run("tournament "+tc.format+" with a worker killed mid-pair", func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
			engines := `[{"name": "n300", "cmd": "` + bin + `", "limit": "nodes=300"}, {"name": "n2000", "cmd": "` + bin + `", "limit": "nodes=2000"},
			{"name": "greedy", "cmd": "builtin:greedy"}, {"name": "random", "cmd": "builtin:random"}]`
			if err := os.WriteFile(filepath.Join(dir, "engines.json"), []byte(engines), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"match", "--engines", "engines.json", tc.format, "--game", "katro-4x4", "--games", "4",
				"--random-plies", "2", "--seed", "3", "--option", "Hash=2"}
			local := start(t, bin, dir, append(args, "--out", "local.jsonl")...)
			victim := workers(t, srv.URL(), dir, 1)[0]
			dist := start(t, bin, dir, append(args, "--broker", srv.URL(), "--ack-wait", "1500", "--out", "dist.jsonl")...)
			victim.waitFor(t, "started", 30*time.Second)
			if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			victim.wait(t, 10*time.Second)
			start(t, bin, dir, "worker", "--broker", srv.URL(), "--name", "w2", "--cache", filepath.Join(dir, "cache2"))
			if code := dist.wait(t, 2*time.Minute); code != 0 {
				t.Fatalf("tournament over the broker: exit %d\n%s", code, dist.out.String())
			}
			if code := local.wait(t, 2*time.Minute); code != 0 {
				t.Fatalf("local tournament: exit %d\n%s", code, local.out.String())
			}
			lr, dr := readRecords(t, filepath.Join(dir, "local.jsonl")), readRecords(t, filepath.Join(dir, "dist.jsonl"))
			checkGames(t, dr, tc.games)
			if !reflect.DeepEqual(lr, dr) {
				t.Errorf("the records differ from the local tournament's")
			}
			standings := func(out string) string {
				if i := strings.LastIndex(out, tc.heading); i >= 0 {
					return out[i:]
				}
				return ""
			}
			if a, b := standings(local.out.String()), standings(dist.out.String()); a == "" || a != b {
				t.Errorf("standings differ:\nlocal:\n%s\nbroker:\n%s", local.out.String(), dist.out.String())
			}
		})
	}

	t.Run("coordinator restarted", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		workers(t, srv.URL(), dir, 1)
		args := []string{"match", "--broker", srv.URL(), "--engine1", bin, "--engine2", "builtin:random",
			"--nodes", "2000", "--games", "8", "--out", "out.jsonl"}
		first := start(t, bin, dir, args...)
		first.waitFor(t, "Finished game", 30*time.Second)
		_ = first.cmd.Process.Signal(syscall.SIGKILL)
		first.wait(t, 10*time.Second)
		second := start(t, bin, dir, args...)
		if code := second.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, second.out.String())
		}
		if !strings.Contains(second.out.String(), "Resuming match") {
			t.Errorf("the second coordinator did not resume:\n%s", second.out.String())
		}
		checkGames(t, readRecords(t, filepath.Join(dir, "out.jsonl")), 8)
		if !strings.Contains(report(second.out.String()), "] 8\n") {
			t.Errorf("report:\n%s", second.out.String())
		}
	})

	t.Run("coordinator stopped at record writes", func(t *testing.T) {
		slow(t)
		t.Parallel()
		dir, srv, args, local := localMatch(t, bin, 8, 11)
		workers(t, srv.URL(), dir, 2)
		out := filepath.Join(dir, "dist.jsonl")
		lines := func() int {
			b, _ := os.ReadFile(out)
			return bytes.Count(b, []byte("\n"))
		}
		grows := func(p *proc, from int) {
			for end := time.Now().Add(time.Minute); lines() <= from; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("no record written:\n%s", p.out.String())
				}
			}
		}
		dist := append(args, "--match-id", "stopped", "--out", "dist.jsonl")

		// Killed between writing a result and acknowledging it: the
		// proxy lets the result through but not the acknowledgement.
		first := startHeld(t, bin, srv, dir, "stopped", dist)
		grows(first, 0)
		_ = first.cmd.Process.Signal(syscall.SIGKILL)
		first.wait(t, 10*time.Second)
		c := dial(t, srv)
		if info, err := c.JS.Consumer(context.Background(), ResultStream, "sower-coordinator-stopped"); err != nil || info.CachedInfo().AckFloor.Stream != 0 {
			t.Fatalf("the written result was acknowledged (%v)", err)
		}

		// Interrupted (Ctrl-C) the moment it writes a record.
		second := start(t, bin, dir, append(dist, "--broker", srv.URL())...)
		grows(second, lines())
		_ = second.cmd.Process.Signal(os.Interrupt)
		second.wait(t, 30*time.Second)

		third := start(t, bin, dir, append(dist, "--broker", srv.URL())...)
		if code := third.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, third.out.String())
		}
		sameAsLocal(t, local, dir, 8)
		if a, b := report(local.out.String()), report(third.out.String()); a == "" || a != b {
			t.Errorf("reports differ:\nlocal:\n%s\nbroker:\n%s", a, b)
		}
	})

	t.Run("coordinator stopped with PGN alone", func(t *testing.T) {
		slow(t)
		t.Parallel()
		dir, srv, args, local := localMatch(t, bin, 6, 17)
		workers(t, srv.URL(), dir, 2)
		pgn := filepath.Join(dir, "dist.pgn")
		dist := append(args, "--match-id", "pgn", "--pgn", "dist.pgn")
		// Killed between writing a result and acknowledging it; the
		// resumed run gets the result again and must not write it twice.
		first := startHeld(t, bin, srv, dir, "pgn", dist)
		for end := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
			if b, _ := os.ReadFile(pgn); bytes.Contains(b, []byte("[Event ")) {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("no game written:\n%s", first.out.String())
			}
		}
		_ = first.cmd.Process.Signal(syscall.SIGKILL)
		first.wait(t, 10*time.Second)
		second := start(t, bin, dir, append(dist, "--broker", srv.URL())...)
		if code := second.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, second.out.String())
		}
		if code := local.wait(t, time.Minute); code != 0 {
			t.Fatalf("local match: exit %d\n%s", code, local.out.String())
		}
		b, err := os.ReadFile(pgn)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("[Event ")); n != 6 {
			t.Errorf("%d games in the PGN, want 6", n)
		}
		// Game for game the local match's (the moves and results; the
		// times in the comments differ).
		dr, err := record.ReadRecords(b)
		if err != nil {
			t.Fatal(err)
		}
		sort.SliceStable(dr, func(i, j int) bool { return dr[i].Game < dr[j].Game })
		checkGames(t, dr, 6)
		lr := readRecords(t, filepath.Join(dir, "local.jsonl"))
		for i := range min(len(lr), len(dr)) {
			if a, b := movesOf(&lr[i]), movesOf(&dr[i]); a != b || lr[i].Result != dr[i].Result {
				t.Errorf("game %d: %s %s locally, %s %s in the PGN", lr[i].Game, a, lr[i].Result, b, dr[i].Result)
			}
		}
	})

	t.Run("two coordinators on one match", func(t *testing.T) {
		slow(t)
		t.Parallel()
		dir, srv, args, local := localMatch(t, bin, 6, 13)
		dist := append(args, "--broker", srv.URL(), "--match-id", "twice", "--out", "dist.jsonl")
		first := start(t, bin, dir, dist...)
		first.waitFor(t, "Match twice: 0 workers", 30*time.Second)
		second := start(t, bin, dir, dist...)
		if code := second.wait(t, 20*time.Second); code != 1 || !strings.Contains(second.out.String(), "match twice: run by another coordinator") {
			t.Errorf("the second coordinator: exit %d\n%s", code, second.out.String())
		}
		workers(t, srv.URL(), dir, 2)
		if code := first.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, first.out.String())
		}
		sameAsLocal(t, local, dir, 6)
	})

	t.Run("deliveries used up while the coordinator is down", func(t *testing.T) {
		slow(t)
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		args := []string{"match", "--broker", srv.URL(), "--match-id", "down", "--engine1", "builtin:greedy",
			"--engine2", "builtin:random", "--games", "2", "--ack-wait", "300"}
		first := start(t, bin, dir, args...)
		first.waitFor(t, "Match down: 0 workers", 30*time.Second)
		_ = first.cmd.Process.Signal(syscall.SIGKILL)
		first.wait(t, 10*time.Second)
		// Its workers take the pair and die, ten times.
		c := dial(t, srv)
		ctx := context.Background()
		cons, err := c.JS.Consumer(ctx, TaskStream, runConsumer("down"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range defaultMaxDeliver {
			if _, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second)); err != nil {
				t.Fatalf("delivery %d: %v", i+1, err)
			}
		}
		time.Sleep(time.Second)
		workers(t, srv.URL(), dir, 1) // a healthy worker, which gets nothing
		second := start(t, bin, dir, args...)
		code := second.wait(t, time.Minute)
		if out := second.out.String(); code != 1 || !strings.Contains(out, "1 of 1 pairs failed") || !strings.Contains(out, "handed out 10 times") {
			t.Errorf("the restarted coordinator: exit %d\n%s", code, out)
		}
	})

	t.Run("broker restarted", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		o := ServerOptions{Listen: addr, Dir: filepath.Join(dir, "js")}
		srv, err := Serve(o)
		if err != nil {
			t.Fatal(err)
		}
		workers(t, srv.URL(), dir, 2)
		dist := start(t, bin, dir, "match", "--broker", srv.URL(), "--engine1", bin, "--engine2", "builtin:random",
			"--nodes", "2000", "--games", "8", "--ack-wait", "2000", "--out", "out.jsonl")
		dist.waitFor(t, "Finished game", 30*time.Second)
		srv.Close()
		time.Sleep(300 * time.Millisecond)
		if srv, err = Serve(o); err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		if code := dist.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		checkGames(t, readRecords(t, filepath.Join(dir, "out.jsonl")), 8)
	})

	t.Run("worker interrupted mid-pair", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		first := workers(t, srv.URL(), dir, 1)[0]
		dist := start(t, bin, dir, "match", "--broker", srv.URL(), "--engine1", bin, "--engine2", "builtin:greedy",
			"--nodes", "3000", "--games", "2", "--ack-wait", "60000", "--out", "out.jsonl")
		first.waitFor(t, "started", 30*time.Second)
		if err := first.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		// It stops its engines and returns the pair; 30 s leaves room for
		// a loaded machine, and is still half the task's minute.
		if code := first.wait(t, 30*time.Second); code != 0 || !strings.Contains(first.out.String(), "returned to the queue") {
			t.Errorf("the interrupted worker: exit %d\n%s", code, first.out.String())
		}
		// The pair is back in the queue at once, not after the minute's deadline.
		start(t, bin, dir, "worker", "--broker", srv.URL(), "--name", "w2", "--cache", filepath.Join(dir, "cache2"))
		if code := dist.wait(t, 40*time.Second); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		checkGames(t, readRecords(t, filepath.Join(dir, "out.jsonl")), 2)
	})

	t.Run("datagen", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		workers(t, srv.URL(), dir, 3)
		args := []string{"datagen", "--game", "hoyito3", "--nodes", "300", "--seed", "3"}
		for _, c := range [][]string{
			{"--games", "5", "--out", "local.bin"},
			{"--games", "9", "--out", "local.bin"}, // resumed
			{"--games", "5", "--out", "dist.bin", "--broker", srv.URL(), "--batch", "2"},
			{"--games", "9", "--out", "dist.bin", "--broker", srv.URL(), "--batch", "2"},
		} {
			p := start(t, bin, dir, append(args, c...)...)
			if code := p.wait(t, time.Minute); code != 0 {
				t.Fatalf("%v: exit %d\n%s", c, code, p.out.String())
			}
		}
		local, dist := readData(t, filepath.Join(dir, "local.bin")), readData(t, filepath.Join(dir, "dist.bin"))
		if len(local) == 0 || !reflect.DeepEqual(local, dist) {
			t.Errorf("the data differ: %d records locally, %d over the broker", len(local), len(dist))
		}
	})

	t.Run("sprt stops the match", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		workers(t, srv.URL(), dir, 2)
		dist := start(t, bin, dir, "match", "--broker", srv.URL(), "--match-id", "sprt", "--engine1", "builtin:greedy",
			"--engine2", "builtin:random", "--games", "2000", "--sprt", "elo0=0 elo1=50", "--out", "out.jsonl")
		if code := dist.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		if !strings.Contains(dist.out.String(), "H1 was accepted") {
			t.Errorf("no decision:\n%s", report(dist.out.String()))
		}
		recs := readRecords(t, filepath.Join(dir, "out.jsonl"))
		if len(recs) == 0 || len(recs) >= 2000 {
			t.Errorf("%d games recorded", len(recs))
		}
		c, err := Dial(ClientOptions{URL: srv.URL()})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		s, err := c.JS.Stream(context.Background(), TaskStream)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(taskSubjects("sprt")))
		if err != nil {
			t.Fatal(err)
		}
		left := uint64(0)
		for _, n := range info.State.Subjects {
			left += n
		}
		if left > 2 { // at most the pairs still running on the two workers
			t.Errorf("%d tasks left on the broker after the decision", left)
		}
	})

	t.Run("engine that cannot run", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		bad := filepath.Join(dir, "not-a-program")
		if err := os.WriteFile(bad, []byte("\x7fELF this is no program"), 0o755); err != nil {
			t.Fatal(err)
		}
		workers(t, srv.URL(), dir, 1)
		dist := start(t, bin, dir, "match", "--broker", srv.URL(), "--engine1", bad, "--engine2", "builtin:random",
			"--nodes", "100", "--games", "4")
		if code := dist.wait(t, time.Minute); code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, dist.out.String())
		}
		out := dist.out.String()
		if !strings.Contains(out, "Pair 1 failed on worker w1: the engines do not run here") || !strings.Contains(out, "2 of 2 pairs failed") {
			t.Errorf("output:\n%s", out)
		}
	})

	t.Run("match id with other settings", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		workers(t, srv.URL(), dir, 1)
		args := []string{"match", "--broker", srv.URL(), "--match-id", "m1", "--engine1", "builtin:greedy", "--engine2", "builtin:random"}
		if p := start(t, bin, dir, append(args, "--games", "2")...); p.wait(t, time.Minute) != 0 {
			t.Fatalf("first match:\n%s", p.out.String())
		}
		p := start(t, bin, dir, append(args, "--games", "4")...)
		if code := p.wait(t, time.Minute); code != 2 || !strings.Contains(p.out.String(), "setup.games is 4 here, 2 on the broker") {
			t.Errorf("exit %d:\n%s", code, p.out.String())
		}
	})

	t.Run("unreachable or refusing broker", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := "nats://" + ln.Addr().String()
		ln.Close()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{Token: "s3cret"})
		for _, c := range []struct {
			args  []string
			shown string // how the message names the broker
		}{
			{[]string{"match", "--broker", closed, "--engine1", "builtin:greedy", "--engine2", "builtin:random"}, closed},
			{[]string{"worker", "--broker", closed}, closed},
			{[]string{"worker", "--broker", srv.URL()}, srv.URL()},
			{[]string{"worker", "--broker", strings.Replace(srv.URL(), "nats://", "nats://wrong@", 1)}, strings.Replace(srv.URL(), "nats://", "nats://***@", 1)},
		} {
			began := time.Now()
			p := start(t, bin, dir, c.args...)
			code := p.wait(t, 20*time.Second)
			out := strings.TrimSpace(p.out.String())
			if code != 2 || strings.Count(out, "\n") > 0 || time.Since(began) > 10*time.Second {
				t.Errorf("%v: exit %d after %v:\n%s", c.args, code, time.Since(began).Round(time.Millisecond), out)
			}
			if strings.Contains(out, "wrong") || strings.Contains(out, "s3cret") {
				t.Errorf("%v: the message shows the token: %s", c.args, out)
			}
			if !strings.Contains(out, " "+c.shown+" ") && !strings.Contains(out, " "+c.shown+":") {
				t.Errorf("%v: the message does not name the broker as %s: %s", c.args, c.shown, out)
			}
		}
	})
}

// localMatch starts a broker and a local match of sower (bin) against
// the built-in greedy player, writing local.jsonl; it returns the
// directory, the broker, the match's arguments (without --broker and
// --out) and the local match.
func localMatch(t *testing.T, bin string, games int, seed uint64) (string, *Server, []string, *proc) {
	t.Helper()
	dir := t.TempDir()
	srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
	args := []string{"match", "--engine1", bin, "--engine2", "builtin:greedy", "--nodes", "300", "--games", fmt.Sprint(games),
		"--random-plies", "4", "--seed", fmt.Sprint(seed)}
	return dir, srv, args, start(t, bin, dir, append(args, "--out", "local.jsonl")...)
}

// sameAsLocal waits for the local match and checks that dist.jsonl holds
// its games, each once.
func sameAsLocal(t *testing.T, local *proc, dir string, games int) {
	t.Helper()
	if code := local.wait(t, time.Minute); code != 0 {
		t.Fatalf("local match: exit %d\n%s", code, local.out.String())
	}
	dr := readRecords(t, filepath.Join(dir, "dist.jsonl"))
	checkGames(t, dr, games)
	if !reflect.DeepEqual(readRecords(t, filepath.Join(dir, "local.jsonl")), dr) {
		t.Errorf("the records differ from the local match's")
	}
}

// slow skips a test of the real binary that takes many seconds under
// -short.
func slow(t *testing.T) {
	if testing.Short() {
		t.Skip("many seconds of waiting for processes; run without -short")
	}
}

// readData reads a datagen file's records, ordered by game and ply.
func readData(t *testing.T, path string) []tune.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := tune.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var recs []tune.Record
	for {
		var rec tune.Record
		if err := r.Read(&rec); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		recs = append(recs, rec)
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].Game != recs[j].Game {
			return recs[i].Game < recs[j].Game
		}
		return recs[i].Ply < recs[j].Ply
	})
	return recs
}

// TestWrongHashRefused stores an engine object whose content has another
// hash than its name: the worker's cache refuses it and keeps nothing.
func TestWrongHashRefused(t *testing.T) {
	dir := t.TempDir()
	_, c := readyBroker(t, dir)
	ctx := context.Background()
	good, hash := scriptEngine(t, dir)
	if err := upload(ctx, c.JS, good, hash, io.Discard); err != nil {
		t.Fatal(err)
	}
	cch := &cache{dir: filepath.Join(dir, "cache"), js: c.JS}
	if p, err := cch.path(ctx, hash); err != nil || filepath.Base(p) != hash {
		t.Fatalf("the good engine: %q, %v", p, err)
	}

	sum := sha256.Sum256([]byte("another program"))
	other := hex.EncodeToString(sum[:])
	obs, err := c.JS.ObjectStore(ctx, EngineBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.PutBytes(ctx, other, []byte("not that program")); err != nil {
		t.Fatal(err)
	}
	p, err := cch.path(ctx, other)
	if !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), "has content of SHA-256") {
		t.Errorf("a wrong hash: %q, %v", p, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache", other)); !os.IsNotExist(err) {
		t.Errorf("the refused program was kept (%v)", err)
	}
	if _, err := cch.path(ctx, "abc"); err == nil {
		t.Error("a hash of three digits was accepted")
	}
}

// TestSettingsDiff checks that a difference is named.
func TestSettingsDiff(t *testing.T) {
	a := Settings{Version: Version, Setup: Setup{Games: 2, Seed: 1}, Openings: []string{"x"}}
	b := a
	b.Setup.Games, b.Openings = 4, []string{"x", "y"}
	js := func(s *Settings) []byte { b, _ := json.Marshal(s); return b }
	got := diff(js(&a), js(&b))
	want := []string{"openings[1] is unset here, \"y\" on the broker", "setup.games is 2 here, 4 on the broker"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff: %q, want %q", got, want)
	}
	if d := diff(js(&a), js(&a)); len(d) != 0 {
		t.Errorf("the same settings differ: %q", d)
	}
	if a.ID() == b.ID() {
		t.Error("different settings, the same id")
	}
	for _, id := range []string{"", "a.b", "a b", strings.Repeat("x", 65)} {
		if CheckID(id) == nil {
			t.Errorf("match id %q accepted", id)
		}
	}
}

// TestTaskGivenUp runs two matches at once with different ack settings,
// their tasks taken by a worker that never answers: each match keeps its
// own AckWait and MaxDeliver (neither changes the other's), and after its
// MaxDeliver deliveries its coordinator reports the pair as failed and
// stops waiting for it.
func TestTaskGivenUp(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	type run struct {
		id         string
		ackWait    time.Duration
		maxDeliver int
		progress   sowertest.SyncBuffer
		done       chan error
		delivered  int
	}
	runs := []*run{{id: "given-up-a", ackWait: 200 * time.Millisecond, maxDeliver: 2}, {id: "given-up-b", ackWait: 700 * time.Millisecond, maxDeliver: 3}}
	for _, r := range runs {
		r.done = make(chan error, 1)
		cfg := builtinMatch(t, 2)
		cfg.Progress = &r.progress
		go func() {
			_, err := Run(ctx, c, Match{Config: cfg, ID: r.id, AckWait: r.ackWait, MaxDeliver: r.maxDeliver, Build: testBuild})
			r.done <- err
		}()
	}
	conss := make([]jetstream.Consumer, len(runs))
	for i, r := range runs {
		for conss[i] == nil && ctx.Err() == nil {
			conss[i], _ = c.JS.Consumer(ctx, TaskStream, runConsumer(r.id))
			time.Sleep(20 * time.Millisecond)
		}
	}
	for i, r := range runs {
		info, err := conss[i].Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.Config.AckWait != r.ackWait || info.Config.MaxDeliver != r.maxDeliver {
			t.Errorf("%s: AckWait %v, MaxDeliver %d; want %v, %d", r.id, info.Config.AckWait, info.Config.MaxDeliver, r.ackWait, r.maxDeliver)
		}
	}
	finished := 0
	for finished < len(runs) {
		if ctx.Err() != nil {
			t.Fatal("the matches did not end")
		}
		for i, r := range runs {
			select {
			case err := <-r.done:
				finished++
				want := fmt.Sprintf("handed out %d times", r.maxDeliver)
				if err == nil || !strings.Contains(err.Error(), "1 of 1 pairs failed") || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: Run: %v\n%s", r.id, err, r.progress.String())
				}
				if r.delivered != r.maxDeliver {
					t.Errorf("%s: the task was delivered %d times, want %d", r.id, r.delivered, r.maxDeliver)
				}
				r.done = nil
			default:
			}
			if r.done == nil {
				continue
			}
			if _, err := conss[i].Next(jetstream.FetchMaxWait(50 * time.Millisecond)); err == nil {
				r.delivered++ // and never acknowledged
			}
		}
	}
}

// dial connects to srv for the rest of the test.
func dial(t *testing.T, srv *Server) *Client {
	t.Helper()
	c, err := Dial(ClientOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// readyBroker starts an embedded broker with its store in dir and a
// client whose streams and buckets are made; the client is closed when
// the test ends.
func readyBroker(t *testing.T, dir string) (*Server, *Client) {
	t.Helper()
	srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
	c := dial(t, srv)
	if err := c.ensure(context.Background()); err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// builtinMatch is a Katro match of games games between the built-in
// greedy and random players.
func builtinMatch(t *testing.T, games int) match.Config {
	t.Helper()
	v, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	cfg := match.Config{Variant: v, Games: games, RandomPlies: 2}
	for i, b := range []string{"greedy", "random"} {
		if cfg.Engines[i], err = match.ParseEngine(match.BuiltinPrefix + b); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// TestRecordsTooLarge plays a match in process on a broker whose messages
// are small: the pair's records do not fit, and the pair is reported as
// failed with the sizes instead of being retried.
func TestRecordsTooLarge(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(conf, []byte("max_payload: 1500\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{ConfigFile: conf})
	dial := func() *Client {
		c, err := Dial(ClientOptions{URL: srv.URL()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	v, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	cfg := match.Config{Variant: v, Games: 2, RandomPlies: 2}
	for i, b := range []string{"greedy", "random"} {
		if cfg.Engines[i], err = match.ParseEngine(match.BuiltinPrefix + b); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var workerOut sowertest.SyncBuffer
	w := &Worker{Name: "small", CacheDir: filepath.Join(dir, "cache"), Progress: &workerOut, Build: testBuild}
	wctx, stopWorker := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- w.Serve(wctx, dial()) }()
	_, err = Run(ctx, dial(), Match{Config: cfg, ID: "small", Build: testBuild})
	stopWorker()
	if err == nil || !strings.Contains(err.Error(), "1 of 1 pairs failed") || !strings.Contains(err.Error(), "over the broker's message limit of 1500 bytes") {
		t.Errorf("Run: %v\nworker:\n%s", err, workerOut.String())
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
