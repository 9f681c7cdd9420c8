package sowertest

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// GoTool returns the path of the go command, failing t when there is
// none. "go test" puts its own Go's bin directory first on the PATH of the
// tests it runs, so this is the go command that runs the test.
func GoTool(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command: %v", err)
	}
	return goTool
}

// Build builds the sower command into a temporary directory of t, with the
// race detector when race is set, checks that it answers "uci" with
// "uciok", and returns its path. It fails t when there is no go command
// (GoTool) or the build fails. Fixtures.Sower builds it once for all the
// tests of a test binary.
func Build(t testing.TB, race bool) string {
	t.Helper()
	bin, err := buildInto(t.TempDir(), race)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// Sower returns the path of the sower command built once per test binary
// in f's directory, as Build builds it.
func (f *Fixtures) Sower(t testing.TB, race bool) string {
	t.Helper()
	return filepath.Join(f.Dir(t, fmt.Sprintf("sower race %v", race), func(dir string) error {
		_, err := buildInto(dir, race)
		return err
	}), exeName())
}

// exeName is the file name of the built command.
func exeName() string {
	if runtime.GOOS == "windows" {
		return "sower.exe"
	}
	return "sower"
}

// buildInto builds the sower command into dir and checks that it answers
// "uci" with "uciok"; it returns its path.
func buildInto(dir string, race bool) (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command: %v", err)
	}
	bin := filepath.Join(dir, exeName())
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	args = append(args, "github.com/sower-engine/sower/cmd/sower")
	if out, err := exec.Command(goTool, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdin = strings.NewReader("uci\nquit\n")
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "uciok") {
		return "", fmt.Errorf("the built sower does not answer uci with uciok (%v):\n%s", err, out)
	}
	return bin, nil
}
