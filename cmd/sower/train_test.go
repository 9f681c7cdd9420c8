package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// TestTrainWritesNetwork plays a little Hoyito III data, trains a network
// on it in two runs (the second resumes from the checkpoint), and reads
// the network back; a bench with it signs the same twice.
func TestTrainWritesNetwork(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "h.dat")
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--nodes", "200", "--games", "40", "--out", data); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	out := filepath.Join(dir, "h.nnue")
	args := []string{"train", "--data", data, "--out", out, "--batch", "64"}
	stdout, stderr, st := runCLI(append(args, "--epochs", "1")...)
	if st != exitOK || !strings.Contains(stdout, "epoch   1") || !strings.Contains(stderr, "train: epoch 1/1 100%, time left") {
		t.Fatalf("train: status %d\n%s\n%s", st, stdout, stderr)
	}
	stdout, _, st = runCLI(append(args, "--epochs", "2")...)
	if st != exitOK || strings.Contains(stdout, "epoch   1") || !strings.Contains(stdout, "epoch   2") {
		t.Fatalf("train again: status %d, want epoch 2 only\n%s", st, stdout)
	}
	n, err := nnue.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n.Family != board.Hoyito || n.Boards != 1 || !strings.HasPrefix(n.Description, "sower train --data ") {
		t.Errorf("network of %s, description %q", n.Family, n.Description)
	}
	// Other settings do not resume the checkpoint.
	if _, stderr, st := runCLI(append(args, "--epochs", "2", "--lambda", "0.5")...); st == exitOK || !strings.Contains(stderr, "other settings") {
		t.Errorf("train with other settings: status %d\n%s", st, stderr)
	}
}
