package main

import (
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/internal/sowertest"
)

// TestBenchSameEverywhere: the engine options give the same bench
// signature through the protocol (its bench command, with the options
// set by setoption) and on the command line (sower bench with the
// matching flags), both built from search.DefaultOptions: with the
// defaults, and with options that change the search (EvalType linear,
// Hash 4), which the protocol's bench honours.
func TestBenchSameEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bench four times")
	}
	nodes := regexp.MustCompile(`Nodes searched: (\d+)`)
	cliNodes := func(args ...string) string {
		stdout, stderr, st := runCLI(append([]string{"bench"}, args...)...)
		m := nodes.FindStringSubmatch(stdout)
		if st != exitOK || m == nil {
			t.Fatalf("sower bench %s: status %d\n%s\n%s", strings.Join(args, " "), st, stdout, stderr)
		}
		return m[1]
	}
	cliDef, cliSet := cliNodes(), cliNodes("--eval", "linear", "--hash", "4")

	in, feed := io.Pipe()
	var out, errOut sowertest.SyncBuffer
	done := make(chan int, 1)
	go func() { done <- run(nil, in, &out, &errOut) }()
	// protoNodes sends lines ending with bench and returns the node
	// count of the n-th bench.
	protoNodes := func(n int, lines string) string {
		io.WriteString(feed, lines)
		deadline := time.Now().Add(5 * time.Minute)
		for {
			if m := nodes.FindAllStringSubmatch(out.String(), -1); len(m) >= n {
				return m[n-1][1]
			}
			if time.Now().After(deadline) {
				t.Fatalf("no bench %d after 5 minutes:\n%s", n, out.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	protoDef := protoNodes(1, "uci\nbench\n")
	protoSet := protoNodes(2, "setoption name EvalType value linear\nsetoption name Hash value 4\nbench\n")
	feed.Close()
	<-done

	if protoDef != cliDef {
		t.Errorf("with the defaults: the protocol's bench %s nodes, the command line's %s", protoDef, cliDef)
	}
	if protoSet != cliSet {
		t.Errorf("EvalType linear, Hash 4: the protocol's bench %s nodes, the command line's (--eval linear --hash 4) %s", protoSet, cliSet)
	}
	if cliSet == cliDef {
		t.Errorf("--eval linear --hash 4 searched as many nodes as the defaults (%s): the test tells nothing", cliSet)
	}
	if !strings.Contains(out.String(), "info string Options: Hash 4 (not the signature") {
		t.Errorf("the protocol's bench with Hash 4 does not say its count is not the signature:\n%s", out.String())
	}
}
