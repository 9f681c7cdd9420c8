package frontier

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/broker"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestWalkOnBroker walks the end of a katro-4x4 line back to its start,
// two plies at a time, with each
// position settled on two workers of a broker in process (broker.Settle,
// as sower frontier --broker does): every position is proven, in the
// walk's order, with the alpha-beta solver's result, and each record
// says how it was settled.
func TestWalkOnBroker(t *testing.T) {
	srv, err := broker.Serve(broker.ServerOptions{Listen: "127.0.0.1:0", Dir: filepath.Join(t.TempDir(), "js")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	build := broker.Build{Version: "test", SHA256: strings.Repeat("0", 64)}
	dial := func() *broker.Client {
		c, err := broker.Dial(broker.ClientOptions{URL: srv.URL()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	for i := range 2 {
		w := &broker.Worker{Name: fmt.Sprint("w", i), CacheDir: t.TempDir(), Build: build}
		wctx, stop := context.WithCancel(ctx)
		served := make(chan error, 1)
		go func() { served <- w.Serve(wctx, dial()) }()
		defer func() { stop(); <-served }()
	}
	c := dial()
	settle := func(ctx context.Context, g *board.Game, first board.Side) (dfpn.Result, error) {
		return broker.Settle(ctx, c, g, first, broker.SettleOptions{Dir: t.TempDir(), LeafNodes: 200, HashMiB: 4, Tasks: 3, AckWait: time.Second, Build: build})
	}
	// A line's last eight plies, from the position before them: each
	// question is a run of its own, about half a second.
	lines := smallLinesSeed(t, board.NameKatro4x4, 3, 5)[:1]
	l := &lines[0]
	k := max(len(l.Moves)-8, 0)
	g, err := l.Game(k)
	if err != nil {
		t.Fatal(err)
	}
	l.Start, l.Moves = g.Position(), l.Moves[k:]
	byLine := walk(t, lines, Config{HashMiB: 4, Step: 2, Settle: settle, Via: "broker"})
	for i := range lines {
		l := &lines[i]
		for _, r := range byLine[l.Name] {
			checkAgainstSolve(t, l, &r)
			if r.Via != "broker" || r.Nodes == 0 {
				t.Errorf("%s ply %d: record %+v, want it settled via the broker", l.Name, r.Ply, r)
			}
		}
		if open := checkOrder(t, l, 2, byLine[l.Name]); open {
			t.Errorf("%s: the walk without limits ends short of the start", l.Name)
		}
	}
}
