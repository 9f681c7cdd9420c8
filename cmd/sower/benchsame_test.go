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
// signature through the protocol (its bench command, with the protocol's
// default options) and on the command line (sower bench), both built from
// search.DefaultOptions.
func TestBenchSameEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bench twice")
	}
	nodes := regexp.MustCompile(`Nodes searched: (\d+)`)
	stdout, stderr, st := runCLI("bench")
	cli := nodes.FindStringSubmatch(stdout)
	if st != exitOK || cli == nil {
		t.Fatalf("sower bench: status %d\n%s\n%s", st, stdout, stderr)
	}
	in, feed := io.Pipe()
	var out, errOut sowertest.SyncBuffer
	done := make(chan int, 1)
	go func() { done <- run(nil, in, &out, &errOut) }()
	io.WriteString(feed, "uci\nbench\n")
	deadline := time.Now().Add(5 * time.Minute)
	for !strings.Contains(out.String(), "Nodes searched") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	feed.Close()
	<-done
	proto := nodes.FindStringSubmatch(out.String())
	if proto == nil || proto[1] != cli[1] {
		t.Errorf("the protocol's bench %v, the command line's %s nodes\n%s", proto, cli[1], out.String())
	}
}
