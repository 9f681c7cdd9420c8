package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol"
)

// A match's --out file that holds games already is refused before any
// work, the file left as it was, unless --resume (the same match) or
// --append (a new match's games after the old ones) says what to do: run
// again without either, a stopped match would write its games 1, 2, … a
// second time. An empty or missing file is fine.
func TestMatchOutHeldGames(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "games.jsonl")
	m := func(more ...string) []string {
		return append([]string{"match", "--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", "katro-4x4", "--games", "2"}, more...)
	}
	if _, stderr, st := runCLI(m("--out", out)...); st != exitOK {
		t.Fatalf("first match: status %d\n%s", st, stderr)
	}
	before := mustRead(t, out)
	if n := strings.Count(before, "\n"); n != 2 {
		t.Fatalf("the first match wrote %d lines, want 2:\n%s", n, before)
	}
	for _, args := range [][]string{m("--out", out), m("--out", out, "--seed", "7")} {
		stdout, stderr, st := runCLI(args...)
		want := "sower: --out " + out + ": holds games already; add --resume to continue that match, or --append to add a new match's games to it\n"
		if st != exitUsage || stdout != "" || stderr != want {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want status 2 and %q", args, st, stdout, stderr, want)
		}
		if got := mustRead(t, out); got != before {
			t.Errorf("%v: the refused file changed:\n%s\nwas:\n%s", args, got, before)
		}
	}
	// A file whose only line is cut short holds a game too (--resume
	// plays it again).
	torn := filepath.Join(dir, "torn.jsonl")
	if err := os.WriteFile(torn, []byte(before[:30]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, st := runCLI(m("--out", torn)...); st != exitUsage || !strings.Contains(stderr, "holds games already") {
		t.Errorf("a torn first line: status %d, stderr %q", st, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{m("--append"), "sower: --append needs --out, the file to add the games to\n"},
		{m("--out", out, "--append", "--resume"), "sower: --append and --resume: give one (--resume continues the match --out holds, --append adds a new match's games to it)\n"},
	} {
		if stdout, stderr, st := runCLI(c.args...); st != exitUsage || stdout != "" || stderr != c.want {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want %q", c.args, st, stdout, stderr, c.want)
		}
	}
	if mustRead(t, out) != before {
		t.Errorf("a refused command changed the file")
	}

	// --append adds a new match's games after the old ones.
	if _, stderr, st := runCLI(m("--out", out, "--append", "--seed", "7")...); st != exitOK {
		t.Fatalf("--append: status %d\n%s", st, stderr)
	}
	after := mustRead(t, out)
	if !strings.HasPrefix(after, before) || strings.Count(after, "\n") != 4 {
		t.Errorf("after --append:\n%s\nwant the 2 games before and 2 more", after)
	}

	// Empty, blank or missing: the match is played.
	for name, text := range map[string]string{"empty.jsonl": "", "blank.jsonl": "\n \n", "missing.jsonl": "-"} {
		path := filepath.Join(dir, name)
		if text != "-" {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, stderr, st := runCLI(m("--out", path)...); st != exitOK {
			t.Errorf("%s: status %d\n%s", name, st, stderr)
		}
		if n := strings.Count(strings.TrimSpace(mustRead(t, path)), "\n") + 1; n != 2 {
			t.Errorf("%s: %d records, want 2", name, n)
		}
	}
}

// "sower help CMD" prints CMD's help, as "sower CMD --help" does, and
// "sower help" the list of commands; "analyze" is "analyse".
func TestHelpCommand(t *testing.T) {
	list, _, st := runCLI("--help")
	if st != exitOK || !strings.Contains(list, "Commands:") {
		t.Fatalf("sower --help: status %d\n%s", st, list)
	}
	if !strings.Contains(list, "Run sower help <command>") {
		t.Errorf("sower --help does not point to sower help <command>:\n%s", list)
	}
	if got, stderr, st := runCLI("help"); st != exitOK || got != list || stderr != "" {
		t.Errorf("sower help: status %d, stderr %q, stdout:\n%s\nwant:\n%s", st, stderr, got, list)
	}
	for _, c := range []struct{ help, flag []string }{
		{[]string{"help", "analyse"}, []string{"analyse", "--help"}},
		{[]string{"help", "analyze"}, []string{"analyse", "--help"}},
		{[]string{"analyze", "--help"}, []string{"analyse", "--help"}},
		{[]string{"help", "match"}, []string{"match", "--help"}},
		{[]string{"help", "tables"}, []string{"tables", "--help"}},
		{[]string{"help", "tables", "probe"}, []string{"tables", "probe", "--help"}},
		{[]string{"help", "perft"}, []string{"perft", "-h"}},
	} {
		want, _, st := runCLI(c.flag...)
		if st != exitOK || !strings.HasPrefix(want, "usage: sower ") {
			t.Fatalf("%v: status %d\n%s", c.flag, st, want)
		}
		got, stderr, st := runCLI(c.help...)
		if st != exitOK || got != want || stderr != "" {
			t.Errorf("%v: status %d, stderr %q, stdout:\n%s\nwant that of %v:\n%s", c.help, st, stderr, got, c.flag, want)
		}
	}
	if stdout, stderr, st := runCLI("help", "frob"); st != exitUsage || stdout != "" || stderr != "sower: unknown command \"frob\"; run sower help\n" {
		t.Errorf("help frob: status %d, stdout %q, stderr %q", st, stdout, stderr)
	}
	stdout, stderr, st := runCLI("analyze", "--game", "katro-4x4", "--depth", "2")
	if st != exitOK || !strings.Contains(stdout, "bestmove ") {
		t.Errorf("analyze: status %d, stdout %q, stderr %q", st, stdout, stderr)
	}
}

// Protocol mode prints one banner line first, as Stockfish does; the
// handshake follows. A bad --max-hash prints no banner.
func TestProtocolBanner(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run(nil, strings.NewReader("uci\nquit\n"), &out, &errb); st != exitOK {
		t.Fatalf("status %d, stderr %s", st, errb.String())
	}
	lines := strings.Split(out.String(), "\n")
	if want := "Sower " + protocol.Version + " by the Sower developers (type uci or ugi)"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if len(lines) < 2 || lines[1] != "id name Sower "+protocol.Version || !strings.Contains(out.String(), "\nuciok\n") {
		t.Errorf("after the banner:\n%s", out.String())
	}
	out.Reset()
	if st := run([]string{"--max-hash", "64"}, strings.NewReader("ugi\nquit\n"), &out, &errb); st != exitOK ||
		!strings.HasPrefix(out.String(), "Sower "+protocol.Version+" by ") || !strings.Contains(out.String(), "\nugiok\n") {
		t.Errorf("--max-hash 64: status %d, stdout:\n%s", st, out.String())
	}
	if stdout, _, st := runCLI("--max-hash", "0"); st != exitUsage || stdout != "" {
		t.Errorf("--max-hash 0: status %d, stdout %q", st, stdout)
	}
}

// perft takes --moves, played from the start or --fen position; the
// no-capture limit and repetition aside, as for the position itself.
func TestPerftMoves(t *testing.T) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	ms, err := v.ParseMoves("a1 a4 b1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if p, err = p.After(m); err != nil {
			t.Fatal(err)
		}
	}
	want := p.Perft(4)
	nodes := func(args ...string) string {
		t.Helper()
		stdout, stderr, st := runCLI(append([]string{"perft", "--game", "katro-4x4", "--depth", "4"}, args...)...)
		if st != exitOK {
			t.Fatalf("perft %v: status %d, stderr %s", args, st, stderr)
		}
		return stdout
	}
	if got := nodes("--moves", "a1 a4 b1"); !strings.HasSuffix(got, "nodes "+strconv.FormatUint(want, 10)+"\n") {
		t.Errorf("perft --moves: %q, want nodes %d", got, want)
	}
	if got, fen := nodes("--moves", "a1 a4 b1", "--divide"), nodes("--fen", p.String(), "--divide"); got != fen {
		t.Errorf("perft --moves --divide:\n%s\nwant that of its position:\n%s", got, fen)
	}
	if got, fen := nodes("--fen", v.Start().String(), "--moves", "a1 a4 b1"), nodes("--moves", "a1 a4 b1"); got != fen {
		t.Errorf("perft --fen start --moves: %q, want %q", got, fen)
	}
	for _, c := range []struct{ moves, want string }{
		{"a1 z9", "sower: --moves: move 2: z9 is not on the board: katro-4x4 has columns a-d and rows 1-4\n"},
		{"a1 a1", "sower: --moves: move 2: a1 is not in North's back row (row 4)\n"},
	} {
		if stdout, stderr, st := runCLI("perft", "--game", "katro-4x4", "--depth", "2", "--moves", c.moves); st != exitUsage || stdout != "" || stderr != c.want {
			t.Errorf("--moves %q: status %d, stdout %q, stderr %q; want %q", c.moves, st, stdout, stderr, c.want)
		}
	}
}

// review --out and --pgn write their files with mode 0644, as every other
// output.
func TestReviewOutMode(t *testing.T) {
	dir := t.TempDir()
	rec := writeRecord(t, dir, board.NameKatro4x4, "a1 a4")
	out, pgn := filepath.Join(dir, "reviewed.jsonl"), filepath.Join(dir, "reviewed.txt")
	if _, stderr, st := runCLI("review", "--record", rec, "--game-index", "1", "--depth", "2", "--threads", "1", "--out", out, "--pgn", pgn); st != exitOK {
		t.Fatalf("review: status %d\n%s", st, stderr)
	}
	for _, path := range []string{out, pgn} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want -rw-r--r--", filepath.Base(path), fi.Mode().Perm())
		}
	}
}

// tables build and probe take --tables DIR, the name every other command
// gives the table directory; --dir, the former name, still works and is
// not listed; errors name the flag given.
func TestTablesDirFlag(t *testing.T) {
	dir := t.TempDir()
	fen := "0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0"
	for _, c := range []struct{ flag, sub string }{{"--tables", "new"}, {"--dir", "old"}} {
		tb := filepath.Join(dir, c.sub)
		if stdout, stderr, st := runCLI("tables", "build", "--seeds", "8", c.flag, tb); st != exitOK || !strings.Contains(stdout, " in "+tb) {
			t.Fatalf("build %s: status %d, stdout %q, stderr %s", c.flag, st, stdout, stderr)
		}
		if files, _ := filepath.Glob(filepath.Join(tb, "*-08.sowtb")); len(files) != 1 {
			t.Errorf("build %s: files %v", c.flag, files)
		}
	}
	var probes []string
	for _, c := range [][]string{{"--tables", "new"}, {"--dir", "new"}, {"--tables", "old"}} {
		stdout, stderr, st := runCLI("tables", "probe", c[0], filepath.Join(dir, c[1]), "--fen", fen)
		if st != exitOK || !strings.HasPrefix(stdout, "position  "+fen) {
			t.Fatalf("probe %v: status %d, stdout %q, stderr %s", c, st, stdout, stderr)
		}
		probes = append(probes, stdout)
	}
	if probes[0] != probes[1] || probes[0] != probes[2] {
		t.Errorf("probe differs by the flag's name or the build's:\n%s", strings.Join(probes, "\n"))
	}
	missing, file := filepath.Join(dir, "missing"), filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tables", "probe", "--fen", fen, "--tables", missing}, "sower: --tables " + missing + ": no such file or directory\n"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", missing}, "sower: --dir " + missing + ": no such file or directory\n"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", missing, "--tables", missing}, "sower: --dir is the former name of --tables: give --tables only\n"},
		{[]string{"tables", "build", "--seeds", "8", "--tables", file}, "sower: --tables " + file + ": not a directory\n"},
		{[]string{"tables", "build", "--seeds", "8", "--dir", file}, "sower: --dir " + file + ": not a directory\n"},
	} {
		stdout, stderr, st := runCLI(c.args...)
		if st != exitUsage || stdout != "" || stderr != c.want {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want %q", c.args, st, stdout, stderr, c.want)
		}
	}
	for _, sub := range []string{"build", "probe"} {
		help, _, _ := runCLI("tables", sub, "--help")
		if !strings.Contains(help, "--tables string") || strings.Contains(help, "--dir") {
			t.Errorf("tables %s --help: want --tables and not --dir:\n%s", sub, help)
		}
	}
}
