package broker

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sower-engine/sower/bench/record"
)

// Every message from the network is untrusted: a worker of another
// build, a broken one or anyone with the broker's credentials may send
// it. The decoders below parse and check one message each and refuse
// what does not hold (a *refusal naming why); they never panic.

// maxMessage bounds a message the package decodes: NATS's own upper
// bound of max_payload.
const maxMessage = 64 << 20

// maxGames bounds the games of a match or self-play run, and so the
// numbers a message may name.
const maxGames = 1 << 30

// maxReason bounds the failure reason a result may carry; longer ones
// are cut.
const maxReason = 2000

// decodeTask parses and checks a task. The task is returned even when it
// is refused, with what could be read of it (for the failure report).
func decodeTask(b []byte) (*Task, error) {
	var t Task
	if len(b) > maxMessage {
		return &t, refuse("a task of %d bytes, over the limit of %d", len(b), maxMessage)
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return &t, refuse("the task does not parse: %v", err)
	}
	if t.Version != Version {
		return &t, refuse("task version %d; this worker speaks version %d", t.Version, Version)
	}
	if err := CheckID(t.Match); err != nil {
		return &t, refuse("the task's %v", err)
	}
	if t.Pair < 0 || t.Pair >= maxGames {
		return &t, refuse("task number %d", t.Pair)
	}
	if t.Tournament != nil && (t.Proof != nil || t.Datagen != nil) {
		return &t, refuse("a tournament's task with a proof or self-play games")
	}
	if t.Proof != nil {
		if t.Datagen != nil || len(t.Games) > 0 {
			return &t, refuse("a proof task with self-play games")
		}
		return &t, checkProofTask(t.Proof)
	}
	if t.Datagen != nil {
		d := t.Datagen
		if d.Games < 1 || d.Games > maxGames {
			return &t, refuse("a self-play run of %d games", d.Games)
		}
		if len(t.Games) == 0 {
			return &t, refuse("a self-play task without games")
		}
		return &t, checkGameSet(t.Games, d.Games)
	}
	if len(t.Games) > 0 {
		return &t, refuse("a match task with self-play game numbers")
	}
	s := &t.Setup
	if s.Games < 1 || s.Games > maxGames {
		return &t, refuse("a match of %d games", s.Games)
	}
	if pair := t.pairIn(); pair < 0 || pair >= (s.Games+1)/2 {
		return &t, refuse("pair %d of a match of %d games", pair+1, s.Games)
	}
	if tn := t.Tournament; tn != nil && (tn.Pairing < 1 || tn.Pairing > maxGames) {
		return &t, refuse("pairing %d of a tournament", tn.Pairing)
	}
	for i, e := range s.Engines {
		if e.Builtin == "" && !isSHA256(e.SHA256) {
			return &t, refuse("engine%d: %q is not a SHA-256", i+1, e.SHA256)
		}
	}
	if s.builtin() && (s.Sower == "" || !isSHA256(s.Build)) {
		return &t, refuse("a built-in player in a task that names no build (a coordinator of an older version)")
	}
	return &t, nil
}

// checkGameSet checks that games are distinct game numbers of a run of n.
func checkGameSet(games []int, n int) error {
	seen := make(map[int]bool, len(games))
	for _, g := range games {
		if g < 0 || g >= n {
			return refuse("game %d of a run of %d", g, n)
		}
		if seen[g] {
			return refuse("game %d twice", g)
		}
		seen[g] = true
	}
	return nil
}

// isSHA256 reports whether s is a SHA-256 in hex.
func isSHA256(s string) bool {
	_, err := hex.DecodeString(s)
	return len(s) == 64 && err == nil
}

// decodeResult parses a result and checks what every result must hold:
// the version, the run it belongs to, a task number, no null record, a
// game at most once. What the records must be is the job's to check.
func decodeResult(b []byte, run string) (*Result, error) {
	if len(b) > maxMessage {
		return nil, refuse("a result of %d bytes, over the limit of %d", len(b), maxMessage)
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, refuse("a result that does not parse: %v", err)
	}
	if r.Version != Version {
		return nil, refuse("a result of version %d, not %d", r.Version, Version)
	}
	if r.Match != run {
		return nil, refuse("a result of %s, not of %s", quoted(r.Match), run)
	}
	r.Worker = quoted(r.Worker)
	if r.Pair < 0 || r.Pair >= maxGames {
		return nil, refuse("a result from worker %s for task number %d", r.Worker, r.Pair)
	}
	if len(r.Failed) > maxReason {
		r.Failed = r.Failed[:maxReason] + "…"
	}
	r.Failed = printable(r.Failed)
	if r.Corrupt != "" && (r.Failed == "" || !isSHA256(r.Corrupt)) {
		r.Corrupt = "" // names no object: an ordinary result or failure
	}
	if r.Proof != nil {
		if err := checkProofResult(r.Proof, r.Failed != ""); err != nil {
			return nil, refuse("a result from worker %s: %v", r.Worker, err)
		}
	}
	if r.Failed != "" {
		r.Records, r.Data = nil, nil
		return &r, checkGameSet(r.Games, maxGames)
	}
	games := map[int]bool{}
	for i, rec := range r.Records {
		if rec == nil {
			return nil, refuse("a result from worker %s whose record %d is null", r.Worker, i+1)
		}
		if games[rec.Game] {
			return nil, refuse("a result from worker %s with game %d twice", r.Worker, rec.Game)
		}
		games[rec.Game] = true
	}
	for _, d := range r.Data {
		if games[d.Game] {
			return nil, refuse("a result from worker %s with game %d twice", r.Worker, d.Game)
		}
		games[d.Game] = true
	}
	if err := checkGameSet(r.Games, maxGames); err != nil {
		return nil, refuse("a result from worker %s: %v", r.Worker, err)
	}
	return &r, nil
}

// quoted returns a name from the network as it may be printed: as it is
// when it is a valid id, else quoted and cut to 64 bytes.
func quoted(s string) string {
	if CheckID(s) == nil || s == noWorker {
		return s
	}
	if len(s) > 64 {
		s = s[:64]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return strconv.Quote(s)
}

// printable returns a text from the network as it may be printed: every
// character that is not printable (a control character, a terminal's
// escape, invalid UTF-8) is replaced.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return '?'
		}
		return r
	}, s)
}

// noWorker is the worker a result names when the coordinator reports a
// task no worker answered.
const noWorker = "(none)"

// checkRecord checks that a record from a worker is a finished game of
// the match: its game, its variant and a result the tally can count.
func checkRecord(rec *record.GameRecord, game int, variant string) error {
	switch {
	case rec.Game != game:
		return fmt.Errorf("a record of game %d, want game %d", rec.Game, game)
	case rec.Variant != variant:
		return fmt.Errorf("game %d is of %q, not %s", rec.Game, rec.Variant, variant)
	}
	return rec.CheckResult()
}

// decodeNote parses a worker's note that it started a task.
func decodeNote(b []byte) (progressNote, bool) {
	var n progressNote
	if len(b) > 1<<10 || json.Unmarshal(b, &n) != nil || n.Pair < 0 || n.Pair >= maxGames {
		return progressNote{}, false
	}
	n.Worker = quoted(n.Worker)
	return n, true
}

// decodeAdvisory parses the broker's advisory of a task handed out too
// often and returns the task's stream sequence.
func decodeAdvisory(b []byte) (uint64, bool) {
	var a struct {
		StreamSeq uint64 `json:"stream_seq"`
	}
	if len(b) > 1<<16 || json.Unmarshal(b, &a) != nil || a.StreamSeq == 0 {
		return 0, false
	}
	return a.StreamSeq, true
}

// decodeStatus parses a run's status; anything unreadable is the status
// of a run never published.
func decodeStatus(b []byte) status {
	var st status
	if len(b) > 1<<16 || json.Unmarshal(b, &st) != nil {
		return status{}
	}
	return st
}
