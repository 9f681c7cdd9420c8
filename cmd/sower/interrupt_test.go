//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// TestInterrupt stops long commands of the built binary with SIGINT, once
// each has shown that it is at work, and checks the convention: the
// command says "interrupted" in one line on stderr and exits with status
// 130.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := fixtures.Sower(t, false)
	dir := t.TempDir()
	record := writeRecord(t, dir, board.NameKatro, "a1 f6 c1 d6")
	for _, c := range []struct {
		args   []string
		ready  string // a line of stdout that starts once the command is at work
		stdout string // in stdout after the interruption
		stderr string // the last line of stderr
	}{
		{[]string{"bench"}, " 1/", "", "sower: interrupted\n"},
		{[]string{"review", "--record", record, "--game-index", "2", "--movetime", "60000"}, "review of game 2 ", "(stopped: 0 of the 4 plies reviewed)", "sower: interrupted after 0 of the 4 plies: "},
		{[]string{"analyse", "--game", "katro", "--movetime", "60000"}, "info depth 3 ", "bestmove ", "sower: interrupted at depth "},
		{[]string{"solve", "--game", "katro", "--method", "ab"}, "solving ", "interrupted: proven bounds", "sower: interrupted at depth "},
		{[]string{"solve", "--game", "katro", "--hash", "64"}, "solving ", "interrupted: not solved", "sower: interrupted after "},
		{[]string{"solve", "--game", "katro", "--hash", "64", "--each", "--save", filepath.Join(dir, "each.dfpn")}, "solving ", "a1: interrupted, ", "sower: interrupted after "},
		{[]string{"solve", "--game", "katro", "--hash", "64", "--split", filepath.Join(dir, "t.split")}, "split tree ", "interrupted: 0 steps finished", "sower: interrupted after 0 steps: "},
		{[]string{"tables", "build", "--seeds", "24", "--dir", filepath.Join(dir, "tb")}, "building ", "", "sower: interrupted while building layer "},
		{[]string{"datagen", "--game", "katro", "--nodes", "1000000", "--games", "3", "--progress", "50ms", "--out", filepath.Join(dir, "d.dat")}, "", "", "sower: interrupted after 0 of the 3 games to play; run the same command to continue "},
		{[]string{"match", "--engine1", "builtin:random", "--engine2", "builtin:greedy", "--games", "1000000", "--out", filepath.Join(dir, "m.jsonl")}, "", "", "sower: interrupted after "},
	} {
		cmd := exec.Command(bin, c.args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
		var stdout strings.Builder
		r := bufio.NewReader(out)
		if c.ready == "" {
			// datagen and match print nothing on stdout till the end: wait
			// for the file they write (match's with a game in it: before
			// its first game it makes and removes the file to see that it
			// can, and before its handler of Ctrl-C is in place).
			for !written(c.args[0], c.args[len(c.args)-1]) {
				time.Sleep(10 * time.Millisecond)
			}
		}
		for c.ready != "" {
			line, err := r.ReadString('\n')
			stdout.WriteString(line)
			if err != nil {
				t.Fatalf("%v: %v before a line starting %q:\n%s\n%s", c.args, err, c.ready, stdout.String(), errb.String())
			}
			if strings.HasPrefix(line, c.ready) {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		rest, _ := io.ReadAll(r)
		stdout.Write(rest)
		err = cmd.Wait()
		timer.Stop()
		var ee *exec.ExitError
		errors.As(err, &ee)
		lines := strings.SplitAfter(strings.TrimSuffix(errb.String(), "\n"), "\n")
		last := lines[len(lines)-1]
		if ee == nil || ee.ExitCode() != exitInterrupted || !strings.HasPrefix(last+"\n", c.stderr) || !strings.Contains(stdout.String(), c.stdout) {
			t.Errorf("%v: %v, stdout\n%s\nstderr\n%s\nwant status %d, stdout with %q, last line of stderr starting %q",
				c.args, err, stdout.String(), errb.String(), exitInterrupted, c.stdout, c.stderr)
		}
	}
	// solve --each --save: the moves not searched are open, and the table
	// is saved.
	if _, err := os.Stat(filepath.Join(dir, "each.dfpn")); err != nil {
		t.Errorf("solve --each --save, interrupted: %v", err)
	}
}

// written reports whether the file command writes exists, and for match
// whether it holds a game.
func written(command, path string) bool {
	fi, err := os.Stat(path)
	return err == nil && (command != "match" || fi.Size() > 0)
}
