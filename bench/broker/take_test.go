package broker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// matchGames is the number of games of the match the result tests take.
const matchGames = 5

// matchResults plays the test match locally and returns its settings and
// each pair's result as a worker sends it.
func matchResults(t testing.TB) (match.Config, [][]byte) {
	t.Helper()
	v, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	cfg := match.Config{Variant: v, Games: matchGames, RandomPlies: 2, Seed: 5}
	for i, b := range []string{"greedy", "random"} {
		if cfg.Engines[i], err = match.ParseEngine(match.BuiltinPrefix + b); err != nil {
			t.Fatal(err)
		}
	}
	table, err := match.NewTable(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()
	open := cfg.PairOpenings()
	var msgs [][]byte
	for pair := range (matchGames + 1) / 2 {
		recs, err := table.PlayPair(context.Background(), pair, open[pair%len(open)])
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(&Result{Version: Version, Match: "m", Pair: pair, Worker: "w", Records: recs})
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, b)
	}
	return cfg, msgs
}

// newMatchCoordinator returns a coordinator of match "m" as Run sets it
// up, without a broker, writing its records to out.
func newMatchCoordinator(t testing.TB, cfg match.Config, out io.Writer) (*coordinator, *matchJob) {
	t.Helper()
	cfg.JSON = out
	return resumedCoordinator(t, &Match{Config: cfg, ID: "m"})
}

// resumedCoordinator returns a coordinator of match m as Run sets it up,
// without a broker: m's Config names the outputs, Written and PGNWritten
// what they hold.
func resumedCoordinator(t testing.TB, m *Match) (*coordinator, *matchJob) {
	t.Helper()
	j, err := newMatchJob(m, Settings{Version: Version, Setup: NewSetup(&m.Config, [2]string{})})
	if err != nil {
		t.Fatal(err)
	}
	j.out = io.Discard
	return &coordinator{id: m.ID, job: j, out: io.Discard, running: map[int]string{}}, j
}

// gamesWritten returns how often each game is in the JSON records.
func gamesWritten(t testing.TB, out []byte) map[int]int {
	t.Helper()
	n := map[int]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r record.GameRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("a record written does not read: %v", err)
		}
		n[r.Game]++
	}
	return n
}

// takeAll hands the coordinator msgs, then every pair's genuine result,
// and checks that no error came, the match is over and every game is
// written and counted exactly once.
func takeAll(t testing.TB, cfg match.Config, genuine, msgs [][]byte) {
	t.Helper()
	var out bytes.Buffer
	co, j := newMatchCoordinator(t, cfg, &out)
	for _, m := range append(msgs, genuine...) {
		if err := co.take(m, live); err != nil {
			t.Fatalf("take: %v", err)
		}
	}
	if !j.over() || len(j.failed) > 0 {
		t.Errorf("not over: %d pairs done, failed %v", len(j.done), j.failed)
	}
	n := gamesWritten(t, out.Bytes())
	for g := 1; g <= cfg.Games; g++ {
		if n[g] != 1 {
			t.Errorf("game %d written %d times", g, n[g])
		}
	}
	if len(n) != cfg.Games {
		t.Errorf("games written: %v", n)
	}
	if got := j.tally.Summary().Score.Games(); got != cfg.Games {
		t.Errorf("%d games counted, want %d", got, cfg.Games)
	}
}

// edit decodes a result, changes it and encodes it again.
func edit(t testing.TB, msg []byte, change func(r map[string]any)) []byte {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(msg, &r); err != nil {
		t.Fatal(err)
	}
	change(r)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTakeUntrusted hands the coordinator results no honest worker
// sends, each before the genuine ones: none crashes it, and every game
// is written exactly once.
func TestTakeUntrusted(t *testing.T) {
	cfg, genuine := matchResults(t)
	records := func(r map[string]any) []any { return r["records"].([]any) }
	for name, msgs := range map[string][][]byte{
		"null record": {edit(t, genuine[0], func(r map[string]any) { records(r)[0] = nil })},
		"only nulls":  {[]byte(`{"v":6,"match":"m","pair":1,"records":[null,null]}`)},
		"another match": {edit(t, genuine[0], func(r map[string]any) { r["match"] = "other" }),
			edit(t, genuine[1], func(r map[string]any) { r["match"] = strings.Repeat("\x00é", 100) })},
		"records of another pair": {edit(t, genuine[0], func(r map[string]any) {
			r["records"] = records(map[string]any{"records": decode(t, genuine[1])["records"]})
		})},
		"duplicate":    {genuine[0], genuine[0], genuine[1], genuine[0]},
		"a game twice": {edit(t, genuine[0], func(r map[string]any) { records(r)[1] = records(r)[0] })},
		"wrong count": {edit(t, genuine[0], func(r map[string]any) { r["records"] = records(r)[:1] }),
			edit(t, genuine[1], func(r map[string]any) { r["records"] = append(records(r), records(r)[0]) }),
			edit(t, genuine[2], func(r map[string]any) { r["records"] = []any{} })},
		"huge message":      {append(genuine[0][:len(genuine[0]):len(genuine[0])], bytes.Repeat([]byte(" "), maxMessage)...)},
		"pair out of range": {edit(t, genuine[0], func(r map[string]any) { r["pair"] = 3 }), edit(t, genuine[0], func(r map[string]any) { r["pair"] = -1 }), edit(t, genuine[0], func(r map[string]any) { r["pair"] = 1e18 })},
		"other version":     {edit(t, genuine[0], func(r map[string]any) { r["v"] = 1 })},
		"not json":          {[]byte("{"), []byte("null"), []byte(`[]`), []byte(`{"v":6,"match":"m","pair":"0"}`), nil},
		"failed then delivered": {edit(t, genuine[0], func(r map[string]any) { r["failed"] = "no reason"; r["records"] = nil }),
			edit(t, genuine[2], func(r map[string]any) { r["failed"] = strings.Repeat("x", 1<<20) })},
		"bad record content": {edit(t, genuine[0], func(r map[string]any) { records(r)[0].(map[string]any)["result"] = "2-0" }),
			edit(t, genuine[1], func(r map[string]any) { records(r)[1].(map[string]any)["variant"] = "hoyito3" }),
			edit(t, genuine[2], func(r map[string]any) { records(r)[0].(map[string]any)["engine1"] = "east" })},
		"self-play games in a match": {edit(t, genuine[0], func(r map[string]any) { r["games"] = []int{1, 2} })},
	} {
		t.Run(name, func(t *testing.T) { takeAll(t, cfg, genuine, msgs) })
	}
}

// decode decodes a result as a map.
func decode(t testing.TB, msg []byte) map[string]any {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(msg, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWrittenNotAgain resumes a match whose records file holds a game
// already: that record is counted but not written again.
func TestWrittenNotAgain(t *testing.T) {
	cfg, genuine := matchResults(t)
	var first bytes.Buffer
	co, _ := newMatchCoordinator(t, cfg, &first)
	if err := co.take(genuine[0], live); err != nil {
		t.Fatal(err)
	}
	// Another match's game 3 in the same file does not hide this one's.
	var r Result
	if err := json.Unmarshal(genuine[1], &r); err != nil {
		t.Fatal(err)
	}
	other := *r.Records[0]
	other.South, other.North = other.North, other.South
	b, _ := json.Marshal(&other)
	file := append(first.Bytes(), append(b, '\n')...)
	file = append(file, `{"game":4,"torn`...)
	written, err := Written(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	cfg.JSON = &second
	co, j := resumedCoordinator(t, &Match{Config: cfg, ID: "m", Written: written})
	for _, m := range genuine {
		if err := co.take(m, live); err != nil {
			t.Fatal(err)
		}
	}
	n := gamesWritten(t, second.Bytes())
	if n[1] != 0 || n[2] != 0 || n[3] != 1 || n[4] != 1 || n[5] != 1 {
		t.Errorf("games written on resuming: %v, want 3, 4 and 5 once", n)
	}
	if got := j.tally.Summary().Score.Games(); got != cfg.Games {
		t.Errorf("%d games counted, want %d", got, cfg.Games)
	}
}

// FuzzMatchResults hands the coordinator of a match the messages of the
// input (one a line), then the genuine results: whatever came first, it
// neither panics nor fails, and writes every game exactly once.
func FuzzMatchResults(f *testing.F) {
	cfg, genuine := matchResults(f)
	f.Add(bytes.Join(genuine, []byte("\n")))
	f.Add([]byte(`{"v":6,"match":"m","pair":0,"worker":"w","records":[null,{"game":1}]}`))
	f.Add([]byte(`{"v":6,"match":"m","pair":1,"records":[{"game":3,"variant":"katro","engine1":"south","result":"1-0","winner":"south"}]}`))
	f.Add([]byte(`{"v":6,"match":"m","pair":2,"failed":"x","games":[1,1]}` + "\n" + `{"v":6,"match":"n","pair":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		takeAll(t, cfg, genuine, bytes.Split(data, []byte("\n")))
	})
}

// selfPlay returns a small self-play run and its games as one result.
func selfPlay(t testing.TB) (selfplay.DatagenConfig, []byte) {
	t.Helper()
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := selfplay.DatagenConfig{Variant: v, Games: 4, Limits: search.Limits{Nodes: 60}, Engine: selfplay.DefaultEngine(1), RandomPlies: 2, Seed: 3, Concurrency: 1}
	setup := newDatagenSetup(&cfg, testBuild)
	task := Task{Version: Version, Match: "d", Games: []int{0, 1, 2, 3}, Datagen: &setup}
	data, err := playDatagen(context.Background(), &task, testBuild)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&Result{Version: Version, Match: "d", Worker: "w", Games: task.Games, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return cfg, b
}

// FuzzSelfPlayResults is FuzzMatchResults for a self-play run: whatever
// came first, the genuine result writes every game exactly once.
func FuzzSelfPlayResults(f *testing.F) {
	cfg, genuine := selfPlay(f)
	f.Add(genuine)
	f.Add([]byte(`{"v":6,"match":"d","pair":0,"games":[0,1],"failed":"no"}`))
	f.Add([]byte(`{"v":6,"match":"d","pair":0,"games":[0],"data":[{"game":0,"records":[{"pos":"x"}]},{"game":9}]}`))
	f.Add([]byte(`{"v":6,"match":"d","pair":0,"games":[0,0,-1],"data":[{"game":0},{"game":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		written := map[int]int{}
		cfg := cfg
		cfg.Each = func(d selfplay.GameData) error { written[d.Game]++; return nil }
		j := &datagenJob{cfg: &cfg, id: "d", setup: newDatagenSetup(&cfg, testBuild), batch: 4, pending: map[int]bool{0: true, 1: true, 2: true, 3: true},
			failed: map[int]string{}, out: io.Discard}
		j.tasks()
		co := &coordinator{id: "d", job: j, out: io.Discard, running: map[int]string{}}
		for _, m := range append(bytes.Split(data, []byte("\n")), genuine) {
			if err := co.take(m, live); err != nil {
				t.Fatalf("take: %v", err)
			}
		}
		if !j.over() || j.end() != nil || len(j.open()) > 0 {
			t.Errorf("not over: pending %v, failed %v", j.pending, j.failed)
		}
		for g := range 4 {
			if written[g] != 1 {
				t.Errorf("game %d written %d times", g, written[g])
			}
		}
	})
}

// FuzzDecodeTask checks that a task either is refused or holds what a
// worker relies on, and never panics.
func FuzzDecodeTask(f *testing.F) {
	cfg, _ := matchResults(f)
	setup := NewSetup(&cfg, [2]string{})
	for _, task := range []Task{
		{Version: Version, Match: "m", Pair: 2, Setup: setup, Opening: "x"},
		{Version: Version, Match: "d", Pair: 0, Games: []int{0, 3}, Datagen: &DatagenSetup{Games: 4}},
	} {
		b, _ := json.Marshal(&task)
		f.Add(b)
	}
	f.Add([]byte(`{"v":6,"match":"a.b","pair":-1}`))
	f.Add([]byte(`{"v":6,"match":"m","datagen":{"games":2},"games":[1,1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		task, err := decodeTask(data)
		if task == nil {
			t.Fatal("no task returned")
		}
		if err != nil {
			return
		}
		if CheckID(task.Match) != nil || task.Pair < 0 {
			t.Errorf("accepted %+v", task)
		}
		if task.Datagen != nil {
			if checkGameSet(task.Games, task.Datagen.Games) != nil || len(task.Games) == 0 {
				t.Errorf("accepted games %v of %d", task.Games, task.Datagen.Games)
			}
		} else if 2*task.Pair >= task.Setup.Games {
			t.Errorf("accepted pair %d of %d games", task.Pair, task.Setup.Games)
		}
		_ = task.what()
		_ = task.resultID("result")
	})
}

// FuzzDecodeResult checks that an accepted result has no null record and
// no game twice, and that the decoder never panics.
func FuzzDecodeResult(f *testing.F) {
	_, genuine := matchResults(f)
	f.Add(genuine[0])
	f.Add([]byte(`{"v":6,"match":"m","pair":0,"records":[null]}`))
	f.Add([]byte(`{"v":6,"match":"m","pair":0,"worker":"\u0000\u00ff","failed":"x","games":[1,2]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeResult(data, "m")
		if err != nil {
			if r != nil {
				t.Error("a refused result returned")
			}
			return
		}
		if r.Match != "m" || r.Version != Version || r.Pair < 0 {
			t.Errorf("accepted %+v", r)
		}
		seen := map[int]bool{}
		for _, rec := range r.Records {
			if rec == nil || seen[rec.Game] {
				t.Fatalf("accepted records %v", r.Records)
			}
			seen[rec.Game] = true
		}
		if printable(r.Worker) != r.Worker || len(r.Worker) > 200 {
			t.Errorf("worker name %q", r.Worker)
		}
		if printable(r.Failed) != r.Failed || len(r.Failed) > maxReason+len("…") {
			t.Errorf("failure %q", r.Failed)
		}
	})
}

// FuzzDecodeSmall fuzzes the decoders of the small messages: a worker's
// progress note, the broker's advisory and a run's status.
func FuzzDecodeSmall(f *testing.F) {
	f.Add([]byte(`{"pair":3,"worker":"w1"}`))
	f.Add([]byte(`{"stream_seq":12}`))
	f.Add([]byte(`{"published":true,"state":"running"}`))
	f.Add([]byte(`{"pair":-1,"worker":"\u0000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, ok := decodeNote(data); ok && (n.Pair < 0 || len(n.Worker) > 200) {
			t.Errorf("note %+v accepted", n)
		}
		if seq, ok := decodeAdvisory(data); ok && seq == 0 {
			t.Error("sequence 0 accepted")
		}
		_ = decodeStatus(data)
	})
}

// TestSelfPlayEarlierFailure: a failure of a task an earlier run queued
// (withdrawn since, its games queued again) does not fail those games;
// one of this run's tasks does, until the games come.
func TestSelfPlayEarlierFailure(t *testing.T) {
	cfg, genuine := selfPlay(t)
	cfg.Each = func(selfplay.GameData) error { return nil }
	j := &datagenJob{cfg: &cfg, id: "d", setup: newDatagenSetup(&cfg, testBuild), batch: 2, pending: map[int]bool{0: true, 1: true, 2: true, 3: true},
		failed: map[int]string{}, out: io.Discard}
	if n := len(j.tasks()); n != 2 {
		t.Fatalf("%d tasks, want 2", n)
	}
	failure := []byte(`{"v":6,"match":"d","pair":0,"games":[0,1,2,3],"failed":"a fault"}`)
	co := &coordinator{id: "d", job: j, out: io.Discard, running: map[int]string{}}
	if err := co.take(failure, earlier); err != nil || len(j.failed) != 0 || j.over() {
		t.Fatalf("an earlier run's failure: %v, failed %v", err, j.failed)
	}
	if err := co.take(failure, live); err != nil || len(j.failed) != 4 || !j.over() || j.end() == nil {
		t.Fatalf("this run's failure: %v, failed %v", err, j.failed)
	}
	if err := co.take(genuine, live); err != nil || len(j.failed) != 0 || len(j.pending) != 0 || j.end() != nil {
		t.Fatalf("the games delivered: %v, failed %v, pending %v", err, j.failed, j.pending)
	}
}

// TestPGNWrittenNotAgain resumes a match whose results all come again
// (written, not acknowledged) with outputs that an earlier run stopped
// at several points: each game is written to each output that lacks it,
// once, and to none that holds it.
func TestPGNWrittenNotAgain(t *testing.T) {
	cfg, genuine := matchResults(t)
	recs := map[int]*record.GameRecord{}
	for _, msg := range genuine {
		var r Result
		if err := json.Unmarshal(msg, &r); err != nil {
			t.Fatal(err)
		}
		for _, rec := range r.Records {
			recs[rec.Game] = rec
		}
	}
	jsonOf := func(games ...int) string {
		var b strings.Builder
		for _, g := range games {
			line, _ := json.Marshal(recs[g])
			b.Write(append(line, '\n'))
		}
		return b.String()
	}
	pgnOf := func(games ...int) string {
		var b strings.Builder
		for _, g := range games {
			b.WriteString(recs[g].PGN())
		}
		return b.String()
	}
	other := *recs[3]
	other.South, other.North = other.North, other.South
	game3 := recs[3].PGN()
	tests := []struct {
		name      string
		json, pgn *string // what the earlier run wrote; nil: no such output
		wantJSON  []int   // the games the resumed run writes to each
		wantPGN   []int
	}{
		{"PGN alone, the last pair written", nil, ptr(pgnOf(1, 2, 3, 4)), nil, []int{5}},
		{"stopped between a record's JSON and its PGN", ptr(jsonOf(1, 2, 3)), ptr(pgnOf(1, 2)), []int{4, 5}, []int{3, 4, 5}},
		{"stopped in the middle of a game's PGN", ptr(jsonOf(1, 2, 3)), ptr(pgnOf(1, 2) + game3[:len(game3)/2]), []int{4, 5}, []int{3, 4, 5}},
		{"another match's game 3 in the PGN", nil, ptr(pgnOf(1, 2) + other.PGN()), nil, []int{3, 4, 5}},
		{"every game written", ptr(jsonOf(1, 2, 3, 4, 5)), ptr(pgnOf(1, 2, 3, 4, 5)), nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Match{Config: cfg, ID: "m"}
			var jsonOut, pgnOut bytes.Buffer
			var err error
			if tc.json != nil {
				m.Config.JSON = &jsonOut
				if m.Written, err = Written(strings.NewReader(*tc.json)); err != nil {
					t.Fatal(err)
				}
			}
			if tc.pgn != nil {
				m.Config.PGN = &pgnOut
				if m.PGNWritten, err = WrittenPGN(strings.NewReader(*tc.pgn)); err != nil {
					t.Fatal(err)
				}
			}
			co, j := resumedCoordinator(t, m)
			for _, msg := range genuine {
				if err := co.take(msg, live); err != nil {
					t.Fatal(err)
				}
			}
			if got := j.tally.Summary().Score.Games(); got != cfg.Games {
				t.Errorf("%d games counted, want %d", got, cfg.Games)
			}
			if tc.json != nil && jsonOut.String() != jsonOf(tc.wantJSON...) {
				t.Errorf("JSON written on resuming: games %v, want %v", gamesWritten(t, jsonOut.Bytes()), tc.wantJSON)
			}
			if tc.pgn != nil && pgnOut.String() != pgnOf(tc.wantPGN...) {
				t.Errorf("PGN written on resuming:\n%s\nwant games %v", pgnOut.String(), tc.wantPGN)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestSetupCarries checks that a task's setup carries to the worker what
// decides the games beyond the engines and the rules: a clock with
// periods and the adjudication rules.
func TestSetupCarries(t *testing.T) {
	cfg, _ := matchResults(t)
	cfg.Engines[0].Limit = timecontrol.Limit{Base: time.Minute, Inc: time.Second, Moves: 40}
	cfg.Resign = &match.ResignRule{Moves: 3, Score: 600}
	cfg.Draw = &match.DrawRule{Ply: 40, Moves: 8, Score: 10}
	b, err := json.Marshal(NewSetup(&cfg, [2]string{}))
	if err != nil {
		t.Fatal(err)
	}
	var s Setup
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	got, err := s.config([2]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Engines[0].Limit != cfg.Engines[0].Limit || *got.Resign != *cfg.Resign || *got.Draw != *cfg.Draw {
		t.Errorf("the worker's match: limit %v, resign %v, draw %v; want %v, %v, %v",
			got.Engines[0].Limit, got.Resign, got.Draw, cfg.Engines[0].Limit, cfg.Resign, cfg.Draw)
	}
}
