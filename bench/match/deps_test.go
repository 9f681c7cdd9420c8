package match

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/sower-engine/sower/internal/sowertest"
)

// The arbiter and the GUI, which plays its games through it, drive engines
// only through the client: neither depends, even indirectly, on the engine
// (its search, evaluation or protocol server) or on package bench, which
// uses the search. The arbiter does not read the endgame tables either;
// the GUI does, to show their verdict on every move as a tablebase site
// does (package tables needs only board). The import graph is the go
// command's ("go list -deps"), so the test sees what the compiler sees.
func TestNoEngineDependencies(t *testing.T) {
	const mod = "github.com/sower-engine/sower/"
	engine := []string{"search", "eval", "eval/tune", "protocol", "bench"}
	for pkg, forbidden := range map[string][]string{"bench/match": append(engine, "tables"), "gui": engine} {
		out, err := exec.Command(sowertest.GoTool(t), "list", "-deps", mod+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 || deps[len(deps)-1] != mod+pkg {
			t.Fatalf("go list -deps %s printed no dependency list:\n%s", pkg, out)
		}
		found := map[string]bool{}
		for _, d := range deps {
			found[d] = true
		}
		if !found[mod+"board"] || !found[mod+"protocol/client"] {
			t.Errorf("%s: the list lacks board or protocol/client, which it uses:\n%s", pkg, out)
		}
		for _, f := range forbidden {
			if found[mod+f] {
				t.Errorf("%s depends on %s%s", pkg, mod, f)
			}
		}
	}
}

// The broker does not depend on Sower's protocol server (its version is
// passed in by the command), and imports neither the search nor the
// endgame tables itself: they reach it only through package
// bench/selfplay, whose self-play its workers run.
func TestBrokerDependencies(t *testing.T) {
	const mod = "github.com/sower-engine/sower/"
	goTool := sowertest.GoTool(t)
	list := func(args ...string) map[string]bool {
		out, err := exec.Command(goTool, append([]string{"list"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %v: %v\n%s", args, err, out)
		}
		found := map[string]bool{}
		for _, d := range strings.Fields(string(out)) {
			found[d] = true
		}
		if !found[mod+"bench/match"] || !found[mod+"board"] {
			t.Fatalf("go list %v: the list lacks bench/match or board, which the broker imports:\n%s", args, out)
		}
		return found
	}
	if list("-deps", mod+"bench/broker")[mod+"protocol"] {
		t.Errorf("the broker depends on %sprotocol", mod)
	}
	direct := list("-f", `{{join .Imports "\n"}}`, mod+"bench/broker")
	for _, f := range []string{"protocol", "search", "tables"} {
		if direct[mod+f] {
			t.Errorf("the broker imports %s%s", mod, f)
		}
	}
}
