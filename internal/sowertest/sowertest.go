package sowertest

import (
	"context"
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
// (GoTool) or the build fails.
func Build(t testing.TB, race bool) string {
	t.Helper()
	goTool := GoTool(t)
	bin := filepath.Join(t.TempDir(), "sower")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	args = append(args, "github.com/sower-engine/sower/cmd/sower")
	if out, err := exec.Command(goTool, args...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdin = strings.NewReader("uci\nquit\n")
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "uciok") {
		t.Fatalf("the built sower does not answer uci with uciok (%v):\n%s", err, out)
	}
	return bin
}
