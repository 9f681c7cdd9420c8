// Package clienttest helps the tests of engine clients: it builds the fake
// engine of protocol/client/testdata/fakeengine, a small program that
// speaks enough of the engine protocol to play the first legal move and,
// when asked, misbehaves (crashes, hangs, answers late, sends an illegal
// move or garbage, or ignores the handshake).
package clienttest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BuildFake builds the fake engine into a temporary directory of t and
// returns its path. It skips t when there is no go command.
func BuildFake(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the fake engine")
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the fake engine's source")
	}
	src := filepath.Join(filepath.Dir(file), "..", "testdata", "fakeengine")
	bin := filepath.Join(t.TempDir(), "fakeengine")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the fake engine: %v\n%s", err, out)
	}
	return bin
}
