package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// runMem runs one sower command in process on a machine with availMiB MiB
// available for hash tables.
func runMem(availMiB int, args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
		availMiB: func() (int, bool) { return availMiB, true }}
	status = c.run(args)
	return out.String(), errOut.String(), status
}

// withHash returns args with --hash mib added.
func withHash(args []string, mib string) []string {
	return append(append([]string(nil), args...), "--hash", mib)
}

// TestHashMemory checks that every command with --hash refuses a table the
// machine cannot spare, with the engine's own check, before any work.
func TestHashMemory(t *testing.T) {
	data := filepath.Join(t.TempDir(), "d.dat")
	for _, args := range [][]string{
		{"solve", "--game", "katro-6x3", "--depth", "1"},
		{"analyse", "--game", "katro-4x4", "--depth", "1"},
		{"datagen", "--game", "katro-4x4", "--games", "1", "--nodes", "10", "--out", data},
	} {
		stdout, stderr, st := runMem(100, withHash(args, "512")...)
		if st != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, "--hash: hash size 512 MiB (a table of 512 MiB): more than this machine can spare now (100 MiB available") {
			t.Errorf("%v --hash 512: status %d, stdout %q, stderr %q", args, st, stdout, stderr)
		}
		if _, stderr, st := runMem(100, withHash(args, "8")...); st != exitOK {
			t.Errorf("%v --hash 8: status %d, stderr %q", args, st, stderr)
		}
	}
}
