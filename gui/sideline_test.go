package gui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// awaitLine reads messages until the side line's position comes.
func (p *page) awaitLine(what string) lineMsg {
	p.t.Helper()
	for {
		b, err := p.read()
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", what, err)
		}
		var m lineMsg
		if json.Unmarshal(b, &m); m.Type == "line" {
			return m
		}
	}
}

// TestSideLines explores side lines beside a game: each is checked
// against the rules from its ply and kept, extended, shown part way and
// dropped; records carry them on the move they replace, in JSON and PGN,
// and open with them; a take back to before a line drops it.
func TestSideLines(t *testing.T) {
	addr, _ := startServer(t)
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": "a1 a4 b1 b4"})
	p.await("the game", func(p *page) bool { return len(p.last.Moves) == 4 })
	v, _ := board.New(board.NameKatro4x4)
	after := func(moves string) string {
		ms, _ := v.ParseMoves(moves)
		g := board.NewGame(v.Start())
		if err := g.PlayAll(ms); err != nil {
			t.Fatal(err)
		}
		q := g.Position()
		return q.String()
	}
	line := func(index, from int, moves string, at int) {
		p.send(map[string]any{"type": "line", "line": map[string]any{"index": index, "from": from, "moves": moves, "at": at}})
	}
	line(-1, 1, "c4", -1)
	m := p.awaitLine("the side line")
	if m.Index != 0 || m.Fen != after("a1 c4") || m.Side != "south" || len(m.Legal) == 0 || m.At != 1 {
		t.Fatalf("the side line a1 (c4): %+v", m)
	}
	p.await("its state", func(p *page) bool { return len(p.last.Lines) == 1 })
	line(0, 1, "c4 c1", -1)
	if m = p.awaitLine("the line extended"); m.Fen != after("a1 c4 c1") || !slices.Equal(m.Moves, []string{"c4", "c1"}) {
		t.Errorf("the line extended: %+v", m)
	}
	p.await("its state", func(p *page) bool { return len(p.last.Lines) == 1 && len(p.last.Lines[0].Text) == 2 })
	line(0, 1, "c4 c1", 1)
	if m = p.awaitLine("the line part way"); m.Fen != after("a1 c4") || m.At != 1 || len(m.Moves) != 2 {
		t.Errorf("the line shown after its first move: %+v", m)
	}
	for _, bad := range []struct {
		index, from int
		moves, want string
	}{
		{-1, 1, "a1", "a1"}, {-1, 1, "a4", "the game's own move"}, {-1, 4, "c1", "branches before"}, {3, 1, "c4", "no such line"},
	} {
		p.msg = ""
		line(bad.index, bad.from, bad.moves, -1)
		p.await("a refusal", func(p *page) bool { return p.msg != "" })
		if !strings.Contains(p.msg, bad.want) || len(p.last.Lines) != 1 {
			t.Errorf("side line %+v: message %q, %d lines", bad, p.msg, len(p.last.Lines))
		}
	}
	// A line from ply 3, another North move than b4.
	ms3, _ := v.ParseMoves("a1 a4 b1")
	g3 := board.NewGame(v.Start())
	g3.PlayAll(ms3)
	p3 := g3.Position()
	alt := ""
	for _, m := range p3.LegalMoves() {
		if m.String() != "b4" {
			alt = m.String()
		}
	}
	line(-1, 3, alt, -1)
	p.awaitLine("a second line")
	p.await("two lines", func(p *page) bool { return len(p.last.Lines) == 2 })
	// A line from within the first: after a1 c4, another move than c1.
	ms1, _ := v.ParseMoves("a1 c4")
	g1 := board.NewGame(v.Start())
	g1.PlayAll(ms1)
	p1 := g1.Position()
	inner := ""
	for _, m := range p1.LegalMoves() {
		if m.String() != "c1" {
			inner = m.String()
		}
	}
	line(-1, 1, "c4 "+inner, -1)
	p.awaitLine("a line from within the first")
	p.await("three lines", func(p *page) bool { return len(p.last.Lines) == 3 })
	for _, format := range []string{"jsonl", "pgn"} {
		text := p.export(format)
		recs, err := record.ReadRecords([]byte(text))
		if err != nil || len(recs[0].Moves) != 4 || len(recs[0].Moves[1].Lines) != 2 || !slices.Equal(recs[0].Moves[1].Lines[0], []string{"c4", "c1"}) ||
			!slices.Equal(recs[0].Moves[1].Lines[1], []string{"c4", inner}) || !slices.Equal(recs[0].Moves[3].Lines[0], []string{alt}) {
			t.Fatalf("the %s record's side lines: %v\n%s", format, err, text)
		}
		// PGN writes them as variations, the line from within the first
		// nested in it where they part.
		if want := "a4 {0.000s} (c4 c1 (" + inner + "))"; format == "pgn" && !strings.Contains(strings.ReplaceAll(text, "\n", " "), want) {
			t.Errorf("the PGN record's variations: want %q in\n%s", want, text)
		}
		p.send(map[string]any{"type": "new", "game": "hoyito3", "south": "human", "north": "human"})
		p.await("hoyito3", func(p *page) bool { return p.last.Game == "hoyito3" && len(p.last.Lines) == 0 })
		p.send(map[string]any{"type": "import", "text": text})
		p.await("the record", func(p *page) bool { return p.last.Game == "katro-4x4" })
		if l := p.last.Lines; len(l) != 3 || l[0].From != 1 || !slices.Equal(l[0].Text, []string{"c4", "c1"}) || l[1].From != 1 || !slices.Equal(l[1].Text, []string{"c4", inner}) || l[2].From != 3 {
			t.Errorf("the %s record opened: lines %+v", format, l)
		}
	}
	// A record whose side line breaks the rules is refused.
	bad := strings.Replace(p.export("jsonl"), `"lines":[["`+alt+`"]]`, `"lines":[["a1"]]`, 1)
	p.msg = ""
	p.send(map[string]any{"type": "import", "text": bad})
	p.await("a refusal", func(p *page) bool { return p.msg != "" })
	if !strings.Contains(p.msg, "ply 4's side line a1") || len(p.last.Lines) != 3 {
		t.Errorf("a bad side line: %q, %d lines", p.msg, len(p.last.Lines))
	}
	// A take back to ply 3 drops the line from ply 3, keeps the other.
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) == 3 })
	if l := p.last.Lines; len(l) != 2 || l[0].From != 1 || l[1].From != 1 {
		t.Errorf("after the take back: lines %+v", l)
	}
	line(1, 1, "", -1)
	p.awaitLine("the line dropped")
	p.await("one line", func(p *page) bool { return len(p.last.Lines) == 1 })
	line(0, 1, "", -1)
	p.awaitLine("the other dropped")
	p.await("no line", func(p *page) bool { return len(p.last.Lines) == 0 })
}
