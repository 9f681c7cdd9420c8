package main

import (
	"os"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// testNetFile writes the built-in Hoyito III network to a new file in dir
// and returns its name.
func testNetFile(t *testing.T, dir string) string {
	t.Helper()
	n, err := nnue.Builtin(board.Hoyito)
	if err != nil || n == nil {
		t.Fatalf("no built-in Hoyito III network: %v", err)
	}
	f, err := os.CreateTemp(dir, "net-*.nnue")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := n.WriteFile(f.Name()); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}
