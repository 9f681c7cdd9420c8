package gui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/protocol/client"
)

// reviewBlunder is a katro-6x3 game in which South's ninth ply, a1,
// throws away a proven win that b1 or c1 keeps (package bench/review's
// tests show it).
const reviewBlunder = "a1 a6 a1 c6 c1 b6 a1 a6 a1 a6"

// blunderRecord writes the record of the reviewBlunder game to a file and
// returns the game and the file.
func blunderRecord(t *testing.T) (*board.Game, string) {
	t.Helper()
	v, err := board.New(board.NameKatro6x3)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := v.ParseMoves(reviewBlunder)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(v.Start())
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(record.RecordGame(g, "human", "human", "none", "none", make([]client.Reply, len(ms))))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "blunder.jsonl")
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return g, file
}

// reviewView is the review as the page shows it: the card and the marks
// on the move list.
type reviewView struct {
	Running, ProgressHidden, CancelHidden bool
	Done, Total                           float64 // the progress bar's value and max
	Plies                                 string
	Counts                                map[string]map[string]string // side, mark: count
	Marks                                 []string                     // each ply's data-mark, "" if none
	Sides                                 []string                     // each ply's side class
	Better                                []string                     // each ply's better move, "" if none
	Text                                  []string                     // each ply's text
}

const reviewJS = `(() => {
  const q = (s) => document.querySelector(s);
  const counts = {};
  document.querySelectorAll('#review-summary tr[data-side]').forEach((tr) => {
    counts[tr.dataset.side] = {};
    tr.querySelectorAll('td[data-mark]').forEach((td) => { counts[tr.dataset.side][td.dataset.mark] = td.textContent; });
  });
  const lis = [...document.querySelectorAll('#movelist li[data-ply]')];
  return {
    running: q('#review-summary').dataset.running === 'true',
    progressHidden: q('#review-progress').hidden, cancelHidden: q('#review-cancel').hidden,
    done: q('#review-progress').value, total: q('#review-progress').max,
    plies: q('#review-summary').dataset.plies || '',
    counts,
    marks: lis.map((li) => li.dataset.mark || ''),
    sides: lis.map((li) => (li.classList.contains('south') ? 'south' : 'north')),
    better: lis.map((li) => { const b = li.querySelector('.better-move'); return b ? b.textContent : ''; }),
    text: lis.map((li) => li.textContent.trim()),
  };
})()`

// TestBrowserReview opens a hand-made record of a game with a known
// blunder, reviews it on the page at a small depth and checks the marks,
// the better move (and that clicking it shows its position), the counts,
// the graph, that a cancelled review leaves the game as it was, and that
// the saved record carries the review and opens with it.
func TestBrowserReview(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full run has it")
	}
	browserCtx := newBrowser(t)
	bin := sowertest.Build(t, raceEnabled)
	srv := startServer(t, bin)
	g, file := blunderRecord(t)
	ms, start := g.Moves(), g.Start()
	v := start.Variant()

	tb := newTab(t, browserCtx, srv)
	dir := allowDownloads(tb)
	tb.open("game=katro&south=human&north=human&animate=off")
	tb.do("open the record", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{file}))
	opened := tb.waitFor("the game from the record", 10*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) == len(ms) })
	before := eval[reviewView](tb, reviewJS)
	if slices.ContainsFunc(before.Marks, func(m string) bool { return m != "" }) || before.Plies != "" {
		t.Fatalf("marks before any review: %+v", before)
	}

	// A review cancelled midway leaves the game as it was: no marks.
	eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'movetime'; document.querySelector('#review-value').value = '2000'; return true; })()`)
	tb.click("#review")
	// Two positions searched: ply 1 is marked while the review runs.
	mid := waitReview(tb, "the review under way", 15*time.Second, func(r reviewView) bool {
		return r.Running && !r.ProgressHidden && !r.CancelHidden && r.Done >= 2
	})
	tb.click("#review-cancel")
	after := waitReview(tb, "the cancelled review", 10*time.Second, func(r reviewView) bool { return !r.Running && r.ProgressHidden })
	t.Logf("cancelled at %v of %v positions", mid.Done, mid.Total)
	if mid.Total != float64(len(ms)+1) || mid.Done >= mid.Total || mid.Marks[0] == "" {
		t.Errorf("the review under way: %v of %v positions, ply 1 marked %q; want fewer than all %d, ply 1 marked", mid.Done, mid.Total, mid.Marks[0], len(ms)+1)
	}
	if slices.ContainsFunc(after.Marks, func(m string) bool { return m != "" }) || after.Plies != "" || !slices.Equal(after.Text, before.Text) {
		t.Errorf("after a cancelled review the move list is\n%q (marks %q, %q plies reviewed)\nwant it as it was:\n%q", after.Text, after.Marks, after.Plies, before.Text)
	}
	if s := tb.state(); len(s.Plies) != len(ms) || s.Fen != opened.Fen {
		t.Errorf("after a cancelled review: %d plies at %s, want %d at %s", len(s.Plies), s.Fen, len(ms), opened.Fen)
	}

	// The review, at depth 24.
	eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'depth'; document.querySelector('#review-value').value = '24'; return true; })()`)
	began := time.Now()
	tb.click("#review")
	r := waitReview(tb, "the review", 25*time.Second, func(r reviewView) bool { return !r.Running && r.Plies == "10" })
	t.Logf("review of %d plies at depth 24: %v", len(ms), time.Since(began))
	checkReview(t, "after the review", r)
	tb.pageScreenshot("reviewed")
	// A point for every ply but the last, which ends the game: a Katro
	// game's end is scored by its result, not by a search.
	if !g.Status().Over() {
		t.Fatalf("the game is not over")
	}
	if s := tb.state(); len(s.Points) != len(ms)-1 || s.Fen != opened.Fen {
		t.Errorf("after the review: %d points on the graph, want %d; position %s, want %s", len(s.Points), len(ms)-1, s.Fen, opened.Fen)
	}

	// The better move shows the position after it.
	tb.click(`#movelist li[data-ply="9"] .better-move`)
	var p1 board.Position
	{
		g9 := board.NewGame(v.Start())
		g9.PlayAll(ms[:8])
		best, _ := v.ParseMove(r.Better[8])
		g9.Play(best)
		p1 = g9.Position()
	}
	tb.waitFor("the better move's position", 10*time.Second, func(s pageState) bool { return s.Fen == p1.String() })
	tb.click("#pv-preview button")
	tb.waitFor("the game again", 10*time.Second, func(s pageState) bool { return s.Fen == opened.Fen })
	// Shown at ply 9, the card gives the better move's line, each move
	// a button.
	tb.click(`#movelist li[data-ply="9"] .mv`)
	tb.waitFor("ply 9", 10*time.Second, func(s pageState) bool { return len(s.Plies) > 8 && s.Plies[8].Current })
	line := eval[[]string](tb, `[...document.querySelectorAll('#review-ply .better-line')].map((b) => b.textContent)`)
	if len(line) < 2 || line[0] != r.Better[8] {
		t.Errorf("ply 9's line in the card: %q, want a line from %s", line, r.Better[8])
	}
	checkReviewWords(tb)
	tb.pageScreenshot("ply9")
	// The person's ply 8 is scored by the review, which the score says;
	// the board has arrows for the move played next, the blunder, and
	// the engine's better one.
	tb.click(`#movelist li[data-ply="8"] .mv`)
	tb.waitFor("ply 8", 10*time.Second, func(s pageState) bool { return len(s.Plies) > 7 && s.Plies[7].Current })
	{
		g8 := board.NewGame(v.Start())
		g8.PlayAll(ms[:8])
		checkArrows(tb, g8.Position(), map[string]string{"played": "a1", "engine": r.Better[8]})
	}
	if by := eval[[2]string](tb, `[document.querySelector('#eval-now').dataset.source, document.querySelector('#eval-now .eval-by').textContent]`); by[0] != "review" || !strings.HasPrefix(by[1], "by the review, depth ") || strings.Contains(by[1], "human") {
		t.Errorf("ply 8's score credited %q (source %q), want the review with its depth", by[1], by[0])
	}
	checkPhoneReview(tb, v, ms, r)
	tb.setViewport(1280, 900)
	tb.click(`#movelist li[data-ply="10"] .mv`)
	tb.waitFor("ply 10", 10*time.Second, func(s pageState) bool { return s.Fen == opened.Fen })

	// The saved record carries the review, and opens with it.
	saved := saveRecord(tb, dir, "#export-jsonl", ".jsonl")
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadRecords(data)
	if err != nil || len(recs) != 1 || len(recs[0].Moves) != len(ms) {
		t.Fatalf("the saved record: %v\n%s", err, data)
	}
	for i, m := range recs[0].Moves {
		switch {
		case m.Review == nil:
			t.Errorf("saved ply %d has no review", i+1)
		case m.Review.Mark != r.Marks[i]:
			t.Errorf("saved ply %d marked %s, the page %s", i+1, m.Review.Mark, r.Marks[i])
		}
	}
	fresh := newTab(t, browserCtx, srv)
	fresh.open("game=katro&south=human&north=human&animate=off")
	fresh.do("open the reviewed record", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{saved}))
	back := waitReview(fresh, "the reviewed record", 10*time.Second, func(r reviewView) bool { return r.Plies == "10" })
	checkReview(t, "the reviewed record opened", back)
	if !slices.Equal(back.Marks, r.Marks) || !slices.Equal(back.Better, r.Better) {
		t.Errorf("opened again: marks %q better %q, want %q %q", back.Marks, back.Better, r.Marks, r.Better)
	}
}

// reviewPhone is what a phone shows of a review: the better move's
// button, the reviewed items that take more than one line, and where the
// board is.
type reviewPhone struct {
	Better      [2]float64 // ply 9's better move's width and height
	Wrapped     []string   // items whose parts are not on one line
	Top, Bottom float64    // the board's box
	InnerHeight float64
}

const reviewPhoneJS = `(() => {
  const b = document.querySelector('#movelist li[data-ply="9"] .better-move').getBoundingClientRect();
  const wrapped = [...document.querySelectorAll('#movelist li[data-mark]')].filter((li) => {
    const rs = [...li.children].map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
    return Math.max(...rs.map((r) => r.top)) >= Math.min(...rs.map((r) => r.bottom));
  }).map((li) => li.textContent);
  const w = document.querySelector('.board-wrap').getBoundingClientRect();
  return { better: [b.width, b.height], wrapped, top: w.top, bottom: w.bottom, innerHeight };
})()`

// checkPhoneReview looks at the review on a phone: the better move is a
// target of 44 px, every reviewed item keeps its mark on its line, and
// the board comes into view when the person picks the better move (from
// the move list, under the board) or a point of the graph.
func checkPhoneReview(tb *tab, v *board.Variant, ms []board.Move, r reviewView) {
	tb.t.Helper()
	tb.setViewport(390, 844)
	tb.measure()
	inView := func(what string) {
		tb.t.Helper()
		p := eval[reviewPhone](tb, reviewPhoneJS)
		if p.Top < 0 || p.Bottom > p.InnerHeight {
			tb.t.Errorf("phone: after %s the board is at %v to %v, out of the %v px window", what, p.Top, p.Bottom, p.InnerHeight)
		}
	}
	tb.pageScreenshot("phone-review")
	p := eval[reviewPhone](tb, reviewPhoneJS)
	if p.Better[0] < 44 || p.Better[1] < 44 || len(p.Wrapped) > 0 {
		tb.t.Errorf("phone: the better move is %vx%v px, items on more than one line: %q", p.Better[0], p.Better[1], p.Wrapped)
	}
	g := board.NewGame(v.Start())
	g.PlayAll(ms[:8])
	best, _ := v.ParseMove(r.Better[8])
	g.Play(best)
	tb.click(`#movelist li[data-ply="9"] .better-move`)
	tb.waitFor("the better move's position", 10*time.Second, func(s pageState) bool { return s.Fen == g.Position().String() })
	inView("the better move")
	tb.screenshot("phone-better-move")
	tb.click("#pv-preview button")
	tb.click(`#eval-graph circle[data-ply="3"]`)
	tb.waitFor("ply 3", 10*time.Second, func(s pageState) bool { return len(s.Plies) > 2 && s.Plies[2].Current })
	inView("a point of the graph")
}

// waitReview polls the page's review until cond holds.
func waitReview(tb *tab, what string, timeout time.Duration, cond func(reviewView) bool) reviewView {
	tb.t.Helper()
	return waitUntil(tb, what, timeout, func() reviewView { return eval[reviewView](tb, reviewJS) }, cond)
}

// checkReview checks the blunder game's review: every ply marked, ply 9
// a blunder with b1 or c1 better, a better move exactly on the plies
// marked inaccuracy or worse, and each side's counts those of the move
// list.
func checkReview(t *testing.T, when string, r reviewView) {
	t.Helper()
	if len(r.Marks) != 10 {
		t.Fatalf("%s: %d plies in the move list", when, len(r.Marks))
	}
	if r.Marks[8] != "blunder" || (r.Better[8] != "b1" && r.Better[8] != "c1") {
		t.Errorf("%s: ply 9 marked %q with better %q, want a blunder with b1 or c1", when, r.Marks[8], r.Better[8])
	}
	want := map[string]map[string]int{"south": {}, "north": {}}
	for i, m := range r.Marks {
		if m == "" {
			t.Errorf("%s: ply %d not marked", when, i+1)
		}
		worse := m == "inaccuracy" || m == "mistake" || m == "blunder"
		if worse != (r.Better[i] != "") {
			t.Errorf("%s: ply %d marked %s with better move %q", when, i+1, m, r.Better[i])
		}
		want[r.Sides[i]][m]++
	}
	for _, side := range []string{"south", "north"} {
		for _, m := range []string{"best", "good", "inaccuracy", "mistake", "blunder"} {
			if got := r.Counts[side][m]; got != strconv.Itoa(want[side][m]) {
				t.Errorf("%s: %s's %s count %q, the move list has %d", when, side, m, got, want[side][m])
			}
		}
	}
}

// reviewWords is what the review card says besides the marks.
type reviewWords struct {
	Ply, Budget, Accuracy, Method string
	Loss                          []string // each side's average loss
	Estimates                     []string // reviewed plies' scores written with ≈
}

// checkReviewWords checks, at ply 9 of the blunder game reviewed at
// depth 24, that the review says its budget and how deep it went, that
// every loss has its unit, that each side's accuracy is given and its
// formula said, and that no reviewed score is an estimate from cp (the
// engine sent its wdl).
func checkReviewWords(tb *tab) {
	tb.t.Helper()
	w := eval[reviewWords](tb, `(() => ({
		ply: document.querySelector('#review-ply').textContent,
		budget: document.querySelector('#review-budget').textContent,
		accuracy: [...document.querySelectorAll('#review-summary .review-accuracy td')].map((td) => td.textContent).join(' '),
		method: document.querySelector('#accuracy-note').textContent,
		loss: [...document.querySelectorAll('#review-summary .review-loss td')].map((td) => td.textContent),
		estimates: [...document.querySelectorAll('#movelist li[data-mark] .sc')].map((e) => e.textContent).filter((t) => t.includes('\u2248')),
	}))()`)
	if !regexp.MustCompile(`^Ply 9, a1: blunder \?\? \(lost \d+\.\d points of win chance\)\.`).MatchString(w.Ply) || !strings.Contains(w.Ply, "by the review (depth ") {
		tb.t.Errorf("ply 9's note: %q; want its loss in points of win chance and its score by the review", w.Ply)
	}
	if !strings.Contains(w.Budget, "sower, depth 24") || !strings.Contains(w.Budget, "replace play's") {
		tb.t.Errorf("the review's budget: %q", w.Budget)
	}
	if !regexp.MustCompile(`^South \d+% North \d+%$`).MatchString(w.Accuracy) || !strings.Contains(w.Method, "lichess") || !strings.Contains(w.Method, "mean") {
		tb.t.Errorf("accuracy %q, said as %q", w.Accuracy, w.Method)
	}
	if len(w.Estimates) > 0 {
		tb.t.Errorf("reviewed scores estimated from cp: %q", w.Estimates)
	}
	// Each side's average loss, in points of win chance: South's five
	// moves include ply 9's blunder, so its average is at least a fifth
	// of that loss.
	lossRE := regexp.MustCompile(`^(South|North) (\d+\.\d) points of win chance$`)
	blunder := regexp.MustCompile(`lost (\d+\.\d) points`).FindStringSubmatch(w.Ply)
	if len(w.Loss) != 2 || !lossRE.MatchString(w.Loss[0]) || !lossRE.MatchString(w.Loss[1]) || blunder == nil || !strings.Contains(w.Method, "average loss is the mean") {
		tb.t.Errorf("average losses %q, said as %q", w.Loss, w.Method)
		return
	}
	south, _ := strconv.ParseFloat(lossRE.FindStringSubmatch(w.Loss[0])[2], 64)
	lost, _ := strconv.ParseFloat(blunder[1], 64)
	if south < lost/5-0.1 {
		tb.t.Errorf("South's average loss %.1f, but ply 9 alone lost %.1f of South's five moves", south, lost)
	}
}
