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
