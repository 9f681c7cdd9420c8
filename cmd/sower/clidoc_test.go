package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// updateCLIDoc makes TestCLIDoc rewrite the help blocks of docs/cli.md:
// go test ./cmd/sower -run TestCLIDoc -update.
var updateCLIDoc = flag.Bool("update", false, "TestCLIDoc: rewrite the --help blocks of docs/cli.md from the commands' help")

// cliDoc is the command-line reference, from this package's directory.
const cliDoc = "../../docs/cli.md"

// cliHelp is one help text the reference shows.
type cliHelp struct {
	name string   // how the reference's heading names it: "sower tables build"
	args []string // the arguments that print it
	text string   // the help, with the machine's defaults shown as placeholders
}

// TestCLIDoc checks that docs/cli.md has a section for every command that
// sower help lists (and every subcommand their help lists), headed by the
// command in code (## `sower perft`), and that the first fenced block of
// the section is exactly what the command's --help prints. With -update it
// rewrites those blocks instead; a missing section is an error either way,
// as it needs its prose.
func TestCLIDoc(t *testing.T) {
	helps := cliHelps(t)
	raw, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	known := map[string]bool{}
	changed := false
	for _, h := range helps {
		known[h.name] = true
		sec, err := findHelpBlock(lines, h.name)
		if err != nil {
			t.Errorf("docs/cli.md: %v", err)
			continue
		}
		want := strings.Split(strings.TrimSuffix(h.text, "\n"), "\n")
		got := lines[sec.start:sec.end]
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			continue
		}
		if !*updateCLIDoc {
			t.Errorf("docs/cli.md: the help block of `%s` is not what sower %s prints (go test ./cmd/sower -run TestCLIDoc -update rewrites it):\n%s",
				h.name, strings.Join(h.args, " "), lineDiff(got, want))
			continue
		}
		lines = append(lines[:sec.start], append(want, lines[sec.end:]...)...)
		changed = true
	}
	for _, name := range documentedCommands(lines) {
		if !known[name] {
			t.Errorf("docs/cli.md has a section for `%s`, which sower help does not list", name)
		}
	}
	if changed {
		if err := os.WriteFile(cliDoc, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the changed help blocks of %s", cliDoc)
	}
}

// cliHelps runs sower help, the engine protocol's --help, and every
// command's and subcommand's --help.
func cliHelps(t *testing.T) []cliHelp {
	t.Helper()
	list := helpText(t, "help")
	helps := []cliHelp{
		{"sower help", []string{"help"}, list},
		{"sower", []string{"--max-hash", "1", "--help"}, helpText(t, "--max-hash", "1", "--help")},
	}
	cmds := listedCommands(list)
	if len(cmds) == 0 {
		t.Fatalf("found no command in sower help:\n%s", list)
	}
	for _, cmd := range cmds {
		args := []string{cmd, "--help"}
		text := helpText(t, args...)
		helps = append(helps, cliHelp{"sower " + cmd, args, text})
		for _, sub := range listedCommands(text) {
			args := []string{cmd, sub, "--help"}
			helps = append(helps, cliHelp{"sower " + cmd + " " + sub, args, helpText(t, args...)})
		}
	}
	return helps
}

// listedCommand is a line of a list of commands: two spaces, the name, two
// or more spaces and what it does. A flag's line starts otherwise.
var listedCommand = regexp.MustCompile(`(?m)^  ([a-z][a-z0-9-]*)  +\S`)

// listedCommands returns the commands a help text lists.
func listedCommands(help string) []string {
	var names []string
	for _, m := range listedCommand.FindAllStringSubmatch(help, -1) {
		names = append(names, m[1])
	}
	return names
}

// cpusDefault and cacheDir stand in the reference for the defaults that
// depend on the machine.
const (
	cpusDefault = "(default: the number of CPUs)"
	cacheDir    = "<user cache dir>"
)

// helpText runs sower with args, which print a help, and returns it with
// the defaults that depend on the machine replaced by placeholders: the
// user's cache directory (and the tables' directory in it), and a default
// that follows GOMAXPROCS (found by running the command under two settings
// of it).
func helpText(t *testing.T, args ...string) string {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var outs [2]string
	for i, procs := range []int{1, 3} {
		runtime.GOMAXPROCS(procs)
		stdout, stderr, st := runCLI(args...)
		if st != exitOK || stderr != "" || stdout == "" {
			t.Fatalf("sower %s: status %d, stderr %q, stdout %q; want status 0 and the help on stdout", strings.Join(args, " "), st, stderr, stdout)
		}
		outs[i] = stdout
	}
	one, three := strings.Split(outs[0], "\n"), strings.Split(outs[1], "\n")
	if len(one) != len(three) {
		t.Fatalf("sower %s: the help's length depends on GOMAXPROCS:\n%s\n---\n%s", strings.Join(args, " "), outs[0], outs[1])
	}
	for i := range one {
		if one[i] == three[i] {
			continue
		}
		if !strings.Contains(one[i], "(default 1)") || strings.Replace(one[i], "(default 1)", "(default 3)", 1) != three[i] {
			t.Fatalf("sower %s: a help line depends on GOMAXPROCS in a way the reference cannot show:\n%s\n%s", strings.Join(args, " "), one[i], three[i])
		}
		one[i] = strings.Replace(one[i], "(default 1)", cpusDefault, 1)
	}
	text := strings.Join(one, "\n")
	// The tables' directory, also where the system names no cache
	// directory, and with the separators of any system.
	text = strings.ReplaceAll(text, fmt.Sprintf("(default %q)", defaultTableDir()), fmt.Sprintf("(default %q)", cacheDir+"/sower/tables"))
	if dir, err := os.UserCacheDir(); err == nil && dir != "" {
		text = strings.ReplaceAll(text, dir, cacheDir)
	}
	return text
}

// helpSection is where a help block's lines are in the reference:
// lines[start:end], between its fences.
type helpSection struct{ start, end int }

// docHeading is a Markdown heading that names a command in code first:
// ## `sower tables build`, ## `sower`: the engine protocol.
var docHeading = regexp.MustCompile("^#{1,6} `(sower[^`]*)`")

// docHeadings returns the line of every heading outside fenced blocks,
// each with the command it names ("" when it names none).
func docHeadings(lines []string) map[int]string {
	heads := map[int]string{}
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		name := ""
		if m := docHeading.FindStringSubmatch(l); m != nil {
			name = m[1]
		}
		heads[i] = name
	}
	return heads
}

// documentedCommands returns the commands the reference's headings name.
func documentedCommands(lines []string) []string {
	heads := docHeadings(lines)
	var names []string
	for i := range lines {
		if name, ok := heads[i]; ok && name != "" {
			names = append(names, name)
		}
	}
	return names
}

// findHelpBlock finds the help block of the command called name: the
// first fenced block after its heading, before the next heading.
func findHelpBlock(lines []string, name string) (helpSection, error) {
	heads := docHeadings(lines)
	at := -1
	for i := range lines {
		if heads[i] == name {
			if at >= 0 {
				return helpSection{}, fmt.Errorf("two sections for `%s`, lines %d and %d", name, at+1, i+1)
			}
			at = i
		}
	}
	if at < 0 {
		return helpSection{}, fmt.Errorf("no section for `%s`, which sower help lists: add a heading ## `%s`, a paragraph on what it does and an empty ```text block (-update fills it)", name, name)
	}
	for i := at + 1; i < len(lines); i++ {
		if _, ok := heads[i]; ok {
			break
		}
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], "```") {
				return helpSection{i + 1, j}, nil
			}
		}
		return helpSection{}, fmt.Errorf("the block of `%s` (line %d) is not closed", name, i+1)
	}
	return helpSection{}, fmt.Errorf("the section of `%s` (line %d) has no fenced block for its help before the next heading", name, at+1)
}

// lineDiff shows the lines of got and want that differ.
func lineDiff(got, want []string) string {
	var b strings.Builder
	for i := 0; i < max(len(got), len(want)); i++ {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w || i >= len(got) || i >= len(want) {
			fmt.Fprintf(&b, "line %d:\n  doc:  %q\n  help: %q\n", i+1, g, w)
		}
	}
	return b.String()
}
