package gui_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/gui"
	"github.com/sower-engine/sower/internal/sowertest"
)

// tablesPanel is what the page shows of the tables.
type tablesPanel struct {
	Fen    string
	Hidden bool
	Note   string
	Moves  []struct{ Move, Text, Words, Best string }
	Marked []string // the holes starred as the tables' best
}

const tablesPanelJS = `(() => {
  const card = document.querySelector('#tables-card');
  return { fen: document.querySelector('#status').dataset.fen, hidden: card.hidden,
    note: document.querySelector('#tables-note').textContent,
    moves: [...document.querySelectorAll('#tables-moves li')].map(li => ({
      move: li.dataset.move, text: li.querySelector('.verdict').textContent, words: li.querySelector('.verdict').title, best: li.dataset.best })),
    marked: [...document.querySelectorAll('[data-hole][data-table-best="true"]')].map(h => h.dataset.hole) };
})()`

// probeChild is one move of sower tables probe --json.
type probeChild struct {
	Move        string `json:"move"`
	Lo          int    `json:"lo"`
	Hi          int    `json:"hi"`
	BoardMargin *int   `json:"board_margin"`
}

// TestBrowserTables opens Hoyito III endgames with sower gui --tables: in
// the tables, the Tables panel lists every legal move with the result
// sower tables probe gives for it, in the notation of scores with its words
// as a tooltip; outside them, it says so.
func TestBrowserTables(t *testing.T) {
	browser := newBrowser(t)
	dir := gui.TableDir(t)
	bin := sowertest.Build(t, raceEnabled)
	engineLog := filepath.Join(t.TempDir(), "engines.log")
	srv := startServer(t, bin, "--tables", dir, "--log", engineLog)
	tb := newTab(t, browser, srv)
	for _, c := range []struct{ fen, rep string }{
		{"0,1,0,2,0,1/1,0,2,0,1,0 S 20 20 0", "off"},
		{"0,1,0,2,0,1/1,0,2,0,1,0 S 20 20 0", "threefold"},
		{"2,0,0,1,0,0/0,3,0,0,1,1 N 12 28 7", "off"},
		// Moves of three values, one with open bounds under threefold.
		{"1,1,0,0,1,2/0,1,1,0,0,1 N 4 36 42", "off"},
		{"1,1,0,0,1,2/0,1,1,0,0,1 N 4 36 42", "threefold"},
		{"0,0,1,1,0,0/1,2,0,1,0,2 S 36 4 30", "off"},
		{"0,0,1,1,0,0/1,2,0,1,0,2 S 36 4 30", "threefold"},
	} {
		t.Run(c.rep+" "+c.fen, func(t *testing.T) {
			tb.t = t
			tb.open("game=hoyito3&south=human&north=human&animate=off&repetition=" + c.rep + "&fen=" + url.QueryEscape(c.fen))
			got := waitPanel(tb, c.fen, func(p tablesPanel) bool { return len(p.Moves) > 0 })
			want := probeTexts(t, bin, dir, c.fen, c.rep)
			if len(got.Moves) != len(want) {
				t.Fatalf("panel lists %d moves, tables probe %d: %+v", len(got.Moves), len(want), got.Moves)
			}
			var best []string
			for _, m := range got.Moves {
				if w, ok := want[m.Move]; !ok || m.Text != w[0] || m.Words != w[1] {
					t.Errorf("%s: panel says %q (%q), tables probe gives %q (%q)", m.Move, m.Text, m.Words, w[0], w[1])
				}
				if m.Best == "true" && m.Move != "pass" {
					best = append(best, m.Move)
				}
			}
			slices.Sort(best)
			slices.Sort(got.Marked)
			if got.Moves[0].Best != "true" || !slices.Equal(best, got.Marked) {
				t.Errorf("best moves %v in the list (first %+v), starred on the board %v", best, got.Moves[0], got.Marked)
			}
			// Under Repetition off the position's score is the tables'
			// exact result, the best move's.
			if c.rep == "off" {
				checkTablesScore(tb, strings.Replace(got.Moves[0].Text, " seeds", "\u00a0seeds", 1))
			}
			t.Logf("%s (%s): %+v", c.fen, c.rep, got.Moves)
		})
	}
	t.Run("the engine plays the tables' move", func(t *testing.T) {
		tb.t = t
		// Under Repetition off only d1 keeps South's margin, +40.
		fen := "0,0,1,1,0,0/1,2,0,1,0,2 S 36 4 30"
		tb.open("game=hoyito3&south=sower&north=human&depth=1&animate=off&repetition=off&fen=" + url.QueryEscape(fen))
		s := tb.waitFor("the engine's move", 20*time.Second, func(s pageState) bool { return len(s.Plies) > 0 })
		if s.Plies[0].Move != "d1" {
			t.Errorf("the engine played %s at depth 1, the tables' only best move is d1", s.Plies[0].Move)
		}
		b, err := os.ReadFile(engineLog)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "setoption name TablePath value "+dir) {
			t.Errorf("the engine was not given the tables; its log:\n%s", b)
		}
		// The engine's score at depth 1 is not the position's: the
		// tables' exact result is.
		checkTablesScore(tb, "+40.00\u00a0seeds")
		// The move list and the graph show the same: the tables' exact
		// result, not the engine's depth-1 estimate.
		type plyScore struct{ Text, Title, Forced, Margin string }
		got := eval[plyScore](tb, `(() => { const sc = document.querySelector('#movelist li[data-ply="1"] .sc'), pt = document.querySelector('#eval-graph circle[data-ply="1"]');
			return { text: sc ? sc.textContent : '', title: sc ? sc.title : '', forced: pt ? pt.dataset.forced : '', margin: pt ? pt.dataset.margin : '' }; })()`)
		if got.Text != "+40.00\u00a0seeds, exact" || !strings.Contains(got.Title, "by the tables") || strings.Contains(got.Title, "depth") || got.Forced != "south" || got.Margin != "40" {
			t.Errorf("ply 1 in the move list and the graph: %+v, want +40.00 seeds, exact, by the tables with no depth, a ring at 40", got)
		}
	})
	t.Run("outside the tables", func(t *testing.T) {
		tb.t = t
		fen := "0,2,0,2,0,2/2,0,2,0,2,0 S 16 20 0"
		tb.open("game=hoyito3&south=human&north=human&animate=off&fen=" + url.QueryEscape(fen))
		got := waitPanel(tb, fen, func(p tablesPanel) bool { return p.Note != "" })
		if got.Hidden || !strings.Contains(got.Note, "not in the tables") || len(got.Moves) != 0 || len(got.Marked) != 0 {
			t.Errorf("12 seeds: panel %+v, want a note that the position is not in the tables", got)
		}
	})
	t.Run("katro", func(t *testing.T) {
		tb.t = t
		tb.open("game=katro-4x4&south=human&north=human&animate=off")
		time.Sleep(300 * time.Millisecond) // a tables message, if any, follows the state
		if got := eval[tablesPanel](tb, tablesPanelJS); !got.Hidden {
			t.Errorf("Katro: the Tables panel shows %+v", got)
		}
	})
}

// checkTablesScore checks the score under the board of a position in the
// tables: the tables' exact result, marked exact and credited to them,
// with no search depth.
func checkTablesScore(tb *tab, margin string) {
	tb.t.Helper()
	type score struct{ Main, Detail, Source string }
	var got score
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got = eval[score](tb, `(() => { const b = document.querySelector('#eval-now'), m = b.querySelector('.eval-main'), d = b.querySelector('.eval-detail');
			return { main: m ? m.textContent : '', detail: d ? d.textContent : '', source: b.dataset.source || '' }; })()`)
		if got.Source == "tables" || time.Now().After(deadline) {
			break
		}
	}
	if got.Main != margin+", exact" || got.Source != "tables" || !strings.Contains(got.Detail, "by the tables") || strings.Contains(got.Detail, "depth") {
		tb.t.Errorf("the score of a position in the tables: %+v, want %q by the tables, no depth", got, margin+", exact")
	}
}

// waitPanel waits for the panel of the position fen to satisfy ok.
func waitPanel(tb *tab, fen string, ok func(tablesPanel) bool) tablesPanel {
	tb.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		p := eval[tablesPanel](tb, tablesPanelJS)
		if p.Fen == fen && !p.Hidden && ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			tb.fail("the Tables panel of %s: %+v", fen, p)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// probeTexts runs sower tables probe --json on fen and writes each move's
// result as the page should: the final margin from South's view (the
// board margin after the move plus the mover's captures minus the
// opponent's) with its words, or, under threefold with open bounds, the
// bounds with the Repetition off margin.
func probeTexts(t *testing.T, bin, dir, fen, rep string) map[string][2]string {
	t.Helper()
	out, err := exec.Command(bin, "tables", "probe", "--dir", dir, "--fen", fen, "--repetition", rep, "--json").Output()
	if err != nil {
		t.Fatalf("tables probe: %v", err)
	}
	var pr struct {
		Children []probeChild `json:"children"`
	}
	if err := json.Unmarshal(out, &pr); err != nil {
		t.Fatal(err)
	}
	v, _ := board.New(board.NameHoyito3)
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	sign, caps := 1, p.Captured(board.South)-p.Captured(board.North)
	if p.Side() == board.North {
		sign = -1
	}
	words := func(m int) string {
		switch {
		case m == 0:
			return "draw"
		case m > 0 && m != 1:
			return fmt.Sprintf("South wins by %d seeds", m)
		case m < 0 && m != -1:
			return fmt.Sprintf("North wins by %d seeds", -m)
		}
		return fmt.Sprintf("%s wins by 1 seed", map[bool]string{true: "South", false: "North"}[m > 0])
	}
	texts := map[string][2]string{}
	for _, ch := range pr.Children {
		margin := caps + sign**ch.BoardMargin
		lo, hi := caps+sign*ch.Lo, caps+sign*ch.Hi
		lo, hi = min(lo, hi), max(lo, hi)
		switch {
		case rep == "off" || lo == hi:
			texts[ch.Move] = [2]string{fmt.Sprintf("%+.2f seeds", float64(margin)), words(margin)}
		default:
			texts[ch.Move] = [2]string{fmt.Sprintf("between %+.2f and %+.2f seeds for South (exact under Repetition off: %+.2f)", float64(lo), float64(hi), float64(margin))}
		}
	}
	return texts
}

// TestBrowserProof opens katro-4x6 after South's c1, a position the
// embedded proof reaches, in sower gui: the panel, titled Proof, lists
// every legal move of North, the proof's move marked on the board and
// leading to North's win (#-N), and the score under the board is the
// proof's. The book loads in the background when the server starts, so
// the page is opened again until it is there.
func TestBrowserProof(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the katro-4x6 proof book, minutes under the race detector the first time; the full suite runs it")
	}
	browser := newBrowser(t)
	bin := sowertest.Build(t, raceEnabled)
	srv := startServer(t, bin)
	tb := newTab(t, browser, srv)
	const fen = "2,2,2,2,2,2/2,2,2,2,0,2/3,3,3,3,1,4/0,3,1,0,1,4 N 0" // after c1
	var got tablesPanel
	for deadline := time.Now().Add(3 * time.Minute); ; {
		tb.open("game=katro-4x6&south=human&north=human&animate=off&fen=" + url.QueryEscape(fen))
		time.Sleep(500 * time.Millisecond)
		got = eval[tablesPanel](tb, tablesPanelJS)
		if !got.Hidden && len(got.Moves) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Proof panel after 3 minutes: %+v", got)
		}
		time.Sleep(2 * time.Second)
	}
	v, _ := board.New(board.NameKatro4x6)
	p, _ := v.ParsePosition(fen)
	if len(got.Moves) != len(p.LegalMoves()) || !strings.Contains(got.Note, "proof") {
		t.Fatalf("panel %+v: want %d moves and a note about the proof", got, len(p.LegalMoves()))
	}
	if title := eval[string](tb, `document.querySelector('#tables-title').textContent`); title != "Proof" {
		t.Errorf("panel title %q", title)
	}
	var best []string
	for _, m := range got.Moves {
		if m.Best == "true" {
			best = append(best, m.Move)
			if !strings.HasPrefix(m.Text, "#-") || !strings.Contains(m.Words, "North wins") {
				t.Errorf("the proof's move %s: %q (%q), want North's win", m.Move, m.Text, m.Words)
			}
		}
	}
	if len(best) != 1 || !slices.Equal(got.Marked, best) {
		t.Errorf("best %v, marked on the board %v: want the proof's one move", best, got.Marked)
	}
	score := eval[[2]string](tb, `[document.querySelector('#eval-now').dataset.source, document.querySelector('#eval-now .eval-main').textContent]`)
	if score[0] != "proof" || !strings.HasPrefix(score[1], "#-") {
		t.Errorf("score under the board %q from %q, want North's proven win from the proof", score[1], score[0])
	}
}
