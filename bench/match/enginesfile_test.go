package match

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/timecontrol"
)

func TestReadEngines(t *testing.T) {
	dir := t.TempDir()
	data := `[
	  {"name": "new", "cmd": "./sower --quiet", "dir": "` + dir + `",
	   "options": {"Threads": 1, "Hash": "64", "Ponder": false}, "limit": "depth=3"},
	  {"name": "old", "cmd": "sower", "tc": "10+0.1"},
	  {"name": "clocked", "cmd": "sower", "limit": "nodes=500", "tc": "5"},
	  {"name": "greedy", "cmd": "builtin:greedy"}
	]`
	got, err := ReadEngines([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []EngineSpec{
		{Name: "new", Command: []string{"./sower", "--quiet"}, Dir: dir,
			Options: []Option{{Name: "Hash", Value: "64"}, {Name: "Ponder", Value: "false"}, {Name: "Threads", Value: "1"}},
			Limit:   timecontrol.Limit{Depth: 3}},
		{Name: "old", Command: []string{"sower"}, Limit: timecontrol.Limit{Base: 10 * time.Second, Inc: 100 * time.Millisecond}},
		{Name: "clocked", Command: []string{"sower"}, Limit: timecontrol.Limit{Base: 5 * time.Second, Nodes: 500}},
		{Name: "greedy", Builtin: "greedy"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadEngines:\n got %+v\nwant %+v", got, want)
	}
	if p := got[0].Program(); p != filepath.Join(dir, "sower") {
		t.Errorf("Program() = %q, want the program in dir", p)
	}
	if p := got[1].Program(); p != "sower" {
		t.Errorf("Program() = %q, want sower (looked up on the PATH)", p)
	}

	sel, err := SelectEngines(got, []string{"name=greedy", "name=new"})
	if err != nil || len(sel) != 2 || sel[0].Name != "greedy" || sel[1].Name != "new" {
		t.Errorf("SelectEngines: %v, %v", sel, err)
	}
	if all, err := SelectEngines(got, nil); err != nil || len(all) != 4 {
		t.Errorf("SelectEngines(nil): %d engines, %v", len(all), err)
	}
	for sel, want := range map[string]string{
		"greedy":      "want name=NAME",
		"name=":       "want name=NAME",
		"name=nobody": "name=nobody: no such engine in the engines file (it has new, old, clocked, greedy)",
	} {
		if _, err := SelectEngines(got, []string{sel}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("SelectEngines(%q): %v, want an error saying %q", sel, err, want)
		}
	}
	if _, err := SelectEngines(got, []string{"name=new", "name=new"}); err == nil || !strings.Contains(err.Error(), "chosen twice") {
		t.Errorf("an engine chosen twice: %v", err)
	}
}

// TestReadEnginesRefuses checks that a bad entry is refused by its place,
// its name and the field at fault.
func TestReadEnginesRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	good := `{"name": "a", "cmd": "builtin:random"}, `
	tests := []struct{ data, want string }{
		{`{}`, "not a JSON list of engines"},
		{`[]`, "no engines"},
		{`[` + good + `3]`, "entry 2: not a JSON object"},
		{`[` + good + `{"cmd": "sower"}]`, `entry 2: field "name": missing or empty`},
		{`[` + good + `{"name": 7, "cmd": "sower"}]`, `entry 2: field "name": want a string, not a JSON number`},
		{`[` + good + `{"name": " b", "cmd": "sower"}]`, `entry 2 (" b"): field "name": " b" begins or ends with a space`},
		{`[` + good + `{"name": "a", "cmd": "sower"}]`, `entry 2 ("a"): field "name": entry 1 has the same name`},
		{`[` + good + `{"name": "b"}]`, `entry 2 ("b"): field "cmd": missing or empty`},
		{`[` + good + `{"name": "b", "cmd": "builtin:perfect"}]`, `entry 2 ("b"): field "cmd": unknown built-in player`},
		{`[` + good + `{"name": "b", "cmd": "'sower"}]`, `entry 2 ("b"): field "cmd": command "'sower": unterminated single quote`},
		{`[` + good + `{"name": "b", "cmd": "sower", "command": "x"}]`, `entry 2 ("b"): unknown field "command" (want name, cmd, dir, options, limit, tc)`},
		{`[` + good + `{"name": "b", "cmd": "sower", "dir": "` + filepath.Join(dir, "none") + `"}]`, `entry 2 ("b"): field "dir": stat `},
		{`[` + good + `{"name": "b", "cmd": "sower", "dir": "` + file + `"}]`, `entry 2 ("b"): field "dir": not a directory`},
		{`[` + good + `{"name": "b", "cmd": "builtin:greedy", "dir": "` + dir + `"}]`, `entry 2 ("b"): field "dir": a built-in player runs no program`},
		{`[` + good + `{"name": "b", "cmd": "sower", "options": {"Hash": [1]}}]`, `entry 2 ("b"): field "options": "Hash": want a string, a number or a boolean, not [1]`},
		{`[` + good + `{"name": "b", "cmd": "sower", "options": {" ": 1}}]`, `entry 2 ("b"): field "options": " ": an option without a name`},
		{`[` + good + `{"name": "b", "cmd": "sower", "options": []}]`, `entry 2 ("b"): field "options": want an object, not a JSON array`},
		{`[` + good + `{"name": "b", "cmd": "builtin:greedy", "options": {"Hash": 1}}]`, `entry 2 ("b"): field "options": a built-in player takes no options`},
		{`[` + good + `{"name": "b", "cmd": "sower", "limit": "depth=x"}]`, `entry 2 ("b"): field "limit": limit "depth=x"`},
		{`[` + good + `{"name": "b", "cmd": "sower", "tc": "fast"}]`, `entry 2 ("b"): field "tc": time control "fast"`},
		{`[` + good + `{"name": "b", "cmd": "sower", "tc": "5", "limit": "tc=6"}]`, `entry 2 ("b"): field "tc": the limit has a clock already`},
	}
	for _, tc := range tests {
		_, err := ReadEngines([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadEngines(%s):\n got %v\nwant an error saying %q", tc.data, err, tc.want)
		}
	}
}
