package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The katro-4x4 proof of board/cert's example: North, not to move, wins by
// playing a4 at each of its turns.
const (
	verifyRoot  = "7,4,1,7/0,3,6,2/0,0,0,0/0,0,0,2 S 0"
	verifyLine1 = "7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N\ta4\n"
	verifyLine2 = "2,1,3,9/0,6,9,1/0,1,0,0/0,0,0,0 N\ta4\n"
	verifyCert  = "# sower proof certificate v1\n# game katro-4x4\n# root 7,4,1,7/0,3,6,2/0,0,0,0/0,0,0,2 S\n# winner North\n" +
		verifyLine1 + verifyLine2 + "# positions 2\n"
)

// TestVerify runs sower verify on certificates that hold, do not hold, and
// cannot be read, and checks its output and exit status: 0, 1 and 2.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(verifyCert))
	zw.Close()
	good := file("p.txt", verifyCert)
	zipped := file("p.gz", gz.String())
	missing := file("missing.txt", strings.Replace(strings.Replace(verifyCert, verifyLine2, "", 1), "# positions 2\n", "", 1))
	truncated := file("truncated.txt", strings.Replace(verifyCert, verifyLine2, "", 1))
	garbled := file("garbled.txt", strings.Replace(verifyCert, "N\ta4", "N a4", 1))
	bare := file("bare.txt", verifyLine1+verifyLine2)
	holds := "proof holds: North wins katro-4x4 from " + verifyRoot + "; 2 positions listed, 5 reached (2 with North to move, 3 with South), 0 unused, longest line 4 plies, longest capture-free run 1 ply, … ms\n"
	root := []string{"verify", "--game", "katro-4x4", "--fen", verifyRoot}
	with := func(more ...string) []string { return append(append([]string(nil), root...), more...) }
	for _, c := range []struct {
		args           []string
		status         int
		stdout, stderr string // "…" stands for any text within a line
	}{
		{with("--proof", good), exitOK, holds, ""},
		{with("--proof", zipped), exitOK, holds, ""},
		{with("--proof", good, "--no-capture-limit", "2"), exitOK, holds, ""},
		{with("--proof", good, "--no-capture-limit", "0"), exitOK, holds, ""},
		// South's only move (d1) played by --moves: North's first position
		// is the root; a certificate without a header proves it.
		{with("--moves", "d1", "--proof", bare), exitOK,
			"proof holds: North wins katro-4x4 from 7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N 1; 2 positions listed, 4 reached (2 with North to move, 2 with South), 0 unused, longest line 3 plies, longest capture-free run 1 ply, … ms\n", ""},
		{with("--proof", missing), exitFail,
			"proof refused: position 2,1,3,9/0,6,9,1/0,1,0,0/0,0,0,0 N (winner to move) is not in the certificate\n", "sower: the proof does not hold\n"},
		{with("--proof", truncated), exitUsage, "",
			"sower: --proof " + truncated + ": the header states 2 positions, the certificate lists 1: it is incomplete or damaged\n"},
		{with("--proof", good, "--no-capture-limit", "1"), exitFail,
			"proof refused: capture-free run of 1 ply reaches the no-capture limit at 7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N 1 (the limit is 1)\n", "sower: the proof does not hold\n"},
		{with("--proof", garbled), exitUsage, "", "sower: --proof " + garbled + ": line 5: not `<rows> <side>\\t<move>`: no TAB before the move\n"},
		{[]string{"verify", "--game", "katro-4x6", "--proof", good}, exitUsage, "", "sower: --proof " + good + ": the certificate is for katro-4x4, not katro-4x6\n"},
		{[]string{"verify", "--game", "hoyito3", "--proof", good}, exitUsage, "", "sower: --game hoyito3: proof certificates are for Katro games\n"},
	} {
		stdout, stderr, st := runCLI(c.args...)
		if st != c.status || !matches(stdout, c.stdout) || (c.stderr != "" && !matches(stderr, c.stderr)) {
			t.Errorf("%q: status %d\nstdout %q\nstderr %q\nwant status %d, stdout %q, stderr %q", c.args, st, stdout, stderr, c.status, c.stdout, c.stderr)
		}
	}
}
