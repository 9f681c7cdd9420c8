package split

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// grown returns a tree of katro-4x4's start for South after steps steps,
// and its file.
func grown(t testing.TB, steps int) (*Tree, string) {
	t.Helper()
	v := variant(t, "katro-4x4")
	s := solver(t)
	tr, err := New(v.Start(), nil, board.South, 50)
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		if tr.Settled() {
			break
		}
		if _, err := tr.Step(context.Background(), s, nil); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := tr.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return tr, buf.String()
}

// TestSaveLoadRoundTrip: a tree read back writes the same file, with the
// same numbers at its root.
func TestSaveLoadRoundTrip(t *testing.T) {
	tr, text := grown(t, 12)
	if tr.Size() < 5 {
		t.Fatalf("only %d positions after 12 steps: nothing expanded", tr.Size())
	}
	back, err := Load(strings.NewReader(text), tr.root.pos, nil, board.South, 0)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := back.Save(&again); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Fatalf("the file read back writes\n%s\nnot\n%s", again.String(), text)
	}
	pn, dn := back.Root()
	wpn, wdn := tr.Root()
	if pn != wpn || dn != wdn || back.Size() != tr.Size() || back.Searched() != tr.Searched() {
		t.Fatalf("read back: root %d %d, %d positions, %d nodes; want %d %d, %d, %d", pn, dn, back.Size(), back.Searched(), wpn, wdn, tr.Size(), tr.Searched())
	}
}

// TestResumeGoesOn: a tree saved, read back and stepped on to the end
// reaches the answer of one never saved, with a fresh table.
func TestResumeGoesOn(t *testing.T) {
	whole, _ := grown(t, 100000)
	if !whole.Settled() {
		t.Fatal("not settled")
	}
	_, text := grown(t, 7)
	back, err := Load(strings.NewReader(text), whole.root.pos, nil, board.South, 0)
	if err != nil {
		t.Fatal(err)
	}
	grow(t, back, solver(t), 100000)
	if (back.root.pn == 0) != (whole.root.pn == 0) {
		t.Fatalf("resumed: proven %v; in one run: proven %v", back.root.pn == 0, whole.root.pn == 0)
	}
}

// TestLoadRefuses: foreign and damaged files are refused, each with a
// message that names what is wrong.
func TestLoadRefuses(t *testing.T) {
	tr, text := grown(t, 6)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	body := lines[:len(lines)-1] // without the end line
	// sealed joins lines and ends them with a good checksum, so that the
	// error found is the one planted, not the sum's.
	sealed := func(l []string) string {
		b := strings.Join(l, "\n") + "\n"
		return b + fmt.Sprintf("end %08x\n", crc32.ChecksumIEEE([]byte(b)))
	}
	with := func(i int, line string) string {
		l := append([]string(nil), body...)
		l[i] = line
		return sealed(l)
	}
	without := func(i int) string {
		return sealed(append(append([]string(nil), body[:i]...), body[i+1:]...))
	}
	const root = 8                             // the root's line; the header is before it
	first := strings.Split(body[root+1], "\t") // the root's first child
	child := func(f ...string) string { return with(root+1, strings.Join(f, "\t")) }
	flip := []byte(text)
	flip[len(flip)/2] ^= 1
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "not a tree file"},
		{"another format", "sower-dfpn 1\n", "not a tree file"},
		{"the first version", strings.Replace(text, magic, "sower-split 1", 1), "not a tree file"},
		{"header cut", strings.Join(lines[:3], "\n") + "\n", `before its "root" line`},
		{"another game", with(1, "game katro-6x3"), "the tree is of katro-6x3, not katro-4x4"},
		{"other rules", with(2, "rules any capturer on 50"), `the tree is under the rule options "any capturer on 50"`},
		{"another root", with(3, "root 1,1,1,1/1,1,1,1/1,1,1,1/1,1,1,1 S 0"), "the tree's root is"},
		{"another history", with(4, "history 2 0000000000000001"), "the tree's root follows another game's history"},
		{"another attacker", with(5, "attacker north"), "the tree proves north's win, not south's"},
		{"bad budget", with(6, "leaf-nodes many"), `line 7: leaf-nodes "many"`},
		{"no nodes", sealed(body[:root]), "before the root's line"},
		{"fields", with(root+1, "a1\t1\t1"), "line 10: want 7 tab-separated fields"},
		{"bad number", child(first[0], "x", first[2], first[3], first[4], first[5], first[6]), `line 10: pn "x"`},
		{"both zero", child(first[0], "0", "0", "0", first[4], first[5], first[6]), "line 10: pn and dn both 0"},
		{"half settled", child(first[0], "0", "5", "3", first[4], first[5], first[6]), "a settled node has the other number inf"},
		{"plies of open", child(first[0], "3", "5", "9", first[4], first[5], first[6]), `line 10: plies "9"`},
		{"path on open", child(first[0], "3", "5", "0", first[4], first[5], "path"), `line 10: "path" marks a disproof`},
		{"bad flag", child(first[0], first[1], first[2], first[3], first[4], first[5], "x"), `line 10: "x": want path or -`},
		{"illegal move", child("z9", first[1], first[2], first[3], first[4], first[5], first[6]), "line 10: path"},
		{"root again", child("-", first[1], first[2], first[3], first[4], first[5], first[6]), "the root's line again"},
		{"parent after", with(root+1, strings.Join(append([]string{first[0] + " a4"}, first[1:]...), "\t")), "its parent's line is missing before it"},
		{"duplicate", with(root+2, body[root+1]), "line 11: path"},
		{"missing child", without(len(body) - 1), "of its"},
		{"a bit flipped", string(flip), ""},
		{"cut short", strings.Join(lines[:len(lines)-1], "\n") + "\n", "the file ends before its end line"},
		{"after the end", text + body[root+1] + "\n", "a line after the end line"},
		{"bad checksum", strings.Join(body, "\n") + "\nend 00000000\n", "the checksum \"00000000\" does not match"},
	}
	for _, c := range cases {
		_, err := Load(strings.NewReader(c.text), tr.root.pos, nil, board.South, 0)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want it to say %q", c.name, err, c.want)
		}
	}
}

// TestOnPathSurvives: a disproof that rests on the path is written and
// read back as such.
func TestOnPathSurvives(t *testing.T) {
	tr, _ := grown(t, 6)
	var leaf *Node
	for _, c := range tr.root.children {
		if c.pn != 0 && c.children == nil {
			leaf = c
		}
	}
	if leaf == nil {
		t.Fatal("no open leaf below the root")
	}
	leaf.record(dfpn.Bounds{PN: Infinity, DN: 0, OnPath: true}, 0)
	for n := leaf.parent; n != nil; n = n.parent {
		tr.update(n)
	}
	var buf bytes.Buffer
	if err := tr.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\tpath\n") {
		t.Fatalf("no node marked path:\n%s", buf.String())
	}
	back, err := Load(&buf, tr.root.pos, nil, board.South, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range back.root.children {
		if c.move == leaf.move && !c.onPath {
			t.Fatalf("%s read back without its mark", c.move)
		}
	}
}

// FuzzLoad: no file crashes Load, and whatever it accepts writes a file
// it accepts again.
func FuzzLoad(f *testing.F) {
	tr, text := grown(f, 6)
	f.Add(text)
	f.Add("")
	f.Add(magic + "\n")
	root := tr.root.pos
	f.Fuzz(func(t *testing.T, text string) {
		back, err := Load(strings.NewReader(text), root, nil, board.South, 0)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := back.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(&buf, root, nil, board.South, 0); err != nil {
			t.Fatalf("a tree it accepted writes a file it refuses: %v", err)
		}
	})
}

// ExampleTree proves katro-4x4's start by the tree, each leaf search
// limited to 100 nodes, so that the top of the proof is the tree's.
func ExampleTree() {
	v, _ := board.New("katro-4x4")
	s, _ := dfpn.New(dfpn.Config{HashMiB: 16})
	for _, attacker := range []board.Side{board.South, board.North} {
		tr, _ := New(v.Start(), nil, attacker, 100)
		e, err := tr.Run(context.Background(), s, RunConfig{})
		if err != nil {
			panic(err)
		}
		pn, _ := tr.Root()
		fmt.Printf("%s wins: %v (%d steps, %d positions in the tree)\n", attacker, pn == 0, e.Steps, tr.Size())
	}
	// Output:
	// South wins: true (5 steps, 17 positions in the tree)
	// North wins: false (5 steps, 17 positions in the tree)
}
