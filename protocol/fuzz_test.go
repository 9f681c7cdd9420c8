package protocol

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/search"
)

// FuzzCommands feeds arbitrary input to the command reader. Whatever the
// input, the engine must not panic or hang, must end cleanly at the end of
// the input, and must still answer an isready sent after it; every line
// it prints must be a single line (no stray carriage returns).
func FuzzCommands(f *testing.F) {
	for _, seed := range []string{
		"uci\nisready\n",
		"ugi\nuginewgame\nquery p1turn\nquery gameover\nquery result\n",
		"position startpos moves a1 f6 c1 b6\nd\ngo depth 3\n",
		"setoption name UCI_Variant value hoyito3\nposition startpos moves a1 c2 a2\ngo nodes 500\nstop\n",
		"setoption name UCI_Variant value hoyito3\nposition fen 1,1,1,1,1,3/0,0,0,0,0,0 S 20 20 3 moves pass\nquery p1turn\n",
		"position fen 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0 moves a1 zz\n",
		"go infinite\nisready\nposition startpos\nstop\n",
		"go ponder wtime 100 btime 100\nponderhit\n",
		"perft 3\neval\nbench\n",
		"setoption name Hash value 2\nsetoption name Clear Hash\nsetoption name NoCaptureLimit value 3\n",
		"position\tstartpos\r\nmoves\r\n\r\n  go   depth\t2  \r\n",
		"go searchmoves a1 b1 wtime -5 btime 0\n",
		"\x00\xff\xfe garbage\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		quits, readies := 0, 1
		for _, l := range strings.Split(string(data), "\n") {
			if fs := strings.Fields(l); len(fs) > 0 && len(l) <= MaxLineBytes+1 {
				switch strings.ToLower(fs[0]) {
				case "quit":
					quits++
				case "isready":
					readies++
				}
			}
		}
		input := append(bytes.Clone(data), "\nisready\n"...)
		var out sowertest.SyncBuffer
		cfg := Config{
			MaxHashMiB: 2, // keep memory small whatever Hash the input asks for
			Bench: func(ctx context.Context, w io.Writer, _ search.Options, _ int) error {
				fmt.Fprintln(w, "bench line")
				return nil
			},
		}
		done := make(chan error, 1)
		go func() { done <- ServeWith(context.Background(), bytes.NewReader(input), &out, cfg) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("ServeWith: %v", err)
			}
		case <-time.After(wait):
			t.Fatalf("no end %v after the end of input %q", wait, data)
		}
		if quits > 0 {
			return
		}
		n := 0
		for _, l := range out.Lines() {
			if strings.ContainsRune(l, '\r') {
				t.Errorf("line with a carriage return: %q", l)
			}
			if l == "readyok" {
				n++
			}
		}
		if n != readies {
			t.Errorf("%d readyok for %d isready; input %q", n, readies, data)
		}
	})
}
