package protocol

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/search"
)

// protocolDoc is the protocol's reference page.
const protocolDoc = "../docs/protocol.md"

// uciOptions returns the option lines "uci" prints, and the options.
func uciOptions(t *testing.T) ([]string, []option) {
	t.Helper()
	s := newServer(context.Background(), &strings.Builder{}, Config{})
	var lines []string
	opts := s.options()
	for i := range opts {
		lines = append(lines, opts[i].line())
	}
	return lines, opts
}

// TestOptionsDocumented checks docs/protocol.md against the options: every
// block of option lines it shows (the answer to uci, the example
// sessions) is the uci answer's, whole and in order; its table of options
// gives each option's type, default and range; and the option notes that
// give a type and default ("**`EvalLazy`** (spin, default 1200, 0 to
// 10000)") give the right ones.
func TestOptionsDocumented(t *testing.T) {
	b, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	lines, opts := uciOptions(t)

	var block []string
	blocks := 0
	for _, l := range append(strings.Split(doc, "\n"), "") {
		if strings.HasPrefix(l, "option name ") {
			block = append(block, l)
			continue
		}
		if block != nil {
			blocks++
			if !slices.Equal(block, lines) {
				t.Errorf("docs: a block of option lines differs from the uci answer:\n%s\nwant\n%s", strings.Join(block, "\n"), strings.Join(lines, "\n"))
			}
			block = nil
		}
	}
	if blocks == 0 {
		t.Error("docs: no block of option lines")
	}

	// The table: | `Name` | type | default | range or values | meaning |
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| *(\\w+) *\\|([^|]*)\\|([^|]*)\\|")
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(doc, -1) {
		name, kind, def, rng := m[1], m[2], unquote(m[3]), strings.TrimSpace(m[4])
		i := slices.IndexFunc(opts, func(o option) bool { return o.name == name })
		if i < 0 {
			t.Errorf("docs: the table has %s, which is no option", name)
			continue
		}
		seen[name] = true
		o := opts[i]
		if kind != o.kind || def != o.def {
			t.Errorf("docs: %s is a %s with default %q in the table; it is a %s with default %q", name, kind, def, o.kind, o.def)
		}
		var want string
		switch o.kind {
		case typeSpin:
			want = fmt.Sprintf("%d to %d", o.min, o.max)
		case typeCombo:
			want = "`" + strings.Join(o.vars, "`, `") + "`"
		case typeCheck:
			want = "`true`, `false`"
		default:
			continue // a button's is empty, a string's says what it names
		}
		if rng != want {
			t.Errorf("docs: %s takes %s in the table; want %s", name, rng, want)
		}
	}
	for _, o := range opts {
		if !seen[o.name] {
			t.Errorf("docs: the table of options lacks %s", o.name)
		}
	}

	note := regexp.MustCompile("\\*\\*`([^`]+)`\\*\\* \\((\\w+), default ([^,)]+)(?:, (\\d+) to (\\d+))?\\)")
	notes := note.FindAllStringSubmatch(strings.Join(strings.Fields(doc), " "), -1)
	if len(notes) == 0 {
		t.Error("docs: no option note with a type and default")
	}
	for _, m := range notes {
		i := slices.IndexFunc(opts, func(o option) bool { return o.name == m[1] })
		if i < 0 {
			t.Errorf("docs: a note for %s, which is no option", m[1])
			continue
		}
		o := opts[i]
		if m[2] != o.kind || unquote(m[3]) != o.def {
			t.Errorf("docs: the note on %s says %s, default %s; it is a %s with default %q", o.name, m[2], m[3], o.kind, o.def)
		}
		if m[4] != "" && (m[4] != strconv.Itoa(o.min) || m[5] != strconv.Itoa(o.max)) {
			t.Errorf("docs: the note on %s says %s to %s; want %d to %d", o.name, m[4], m[5], o.min, o.max)
		}
	}
}

// unquote returns a table cell or note's value without its backticks.
func unquote(s string) string { return strings.Trim(strings.TrimSpace(s), "`") }

// TestOptionDefaultsAreEngineDefaults: the options that configure the
// engine default to search.DefaultOptions, the defaults of every command
// that searches.
func TestOptionDefaultsAreEngineDefaults(t *testing.T) {
	_, opts := uciOptions(t)
	def := search.DefaultOptions()
	want := map[string]string{
		hashOption:      strconv.Itoa(def.HashMiB),
		"Threads":       strconv.Itoa(def.Threads),
		"EvalLazy":      strconv.Itoa(def.NetLazy),
		"TableEstimate": strconv.FormatBool(def.TableEstimate),
		"Prover":        strconv.FormatBool(def.Prover),
		"ProverThread":  strconv.FormatBool(def.ProverThread),
	}
	for _, o := range opts {
		if w, ok := want[o.name]; ok && o.def != w {
			t.Errorf("%s defaults to %s; search.DefaultOptions has %s", o.name, o.def, w)
		}
		delete(want, o.name)
	}
	for name := range want {
		t.Errorf("no option %s", name)
	}
}
