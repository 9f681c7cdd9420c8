package broker

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

// Version is the version of the task and result messages; a worker refuses
// a task of another version and says so. Version 3 added clocks with
// periods (timecontrol.Limit.Moves) and the adjudication rules; version 4
// the proof tasks (Task.Proof, Result.Proof); version 5 the tournaments'
// tasks (Task.Tournament, Result.Tournament, Settings.Tournament);
// version 6 a proof task's preferred worker (ProofTask.Prefer).
const Version = 6

// Names of the broker's streams, consumers and buckets, and the subjects.
const (
	TaskStream   = "SOWER_TASKS"   // work queue of tasks, subjects sower.task.<run>.<task>; a consumer sower-run-<run> per run
	ResultStream = "SOWER_RESULTS" // finished and failed tasks, subjects sower.result.<run>
	MatchBucket  = "sower_matches" // key <run>: the settings; <run>.status: the state
	WorkerBucket = "sower_workers" // key <worker name>: a heartbeat that expires
	EngineBucket = "sower_engines" // object store: engine programs named by SHA-256
	ProofBucket  = "sower_proofs"  // object store: proofs' certificate pieces named by SHA-256
)

func taskSubject(id string, pair int) string { return fmt.Sprintf("sower.task.%s.%d", id, pair) }
func taskSubjects(id string) string          { return "sower.task." + id + ".>" }
func resultSubject(id string) string         { return "sower.result." + id }

// Engine is one side of a match as a task names it.
type Engine struct {
	Name    string `json:"name"`
	Builtin string `json:"builtin,omitempty"` // "random" or "greedy"; nothing else is set then
	// SHA256 names the program in the engine object store; Program is its
	// file name on the coordinator's machine (for messages) and Args the
	// rest of its command line.
	SHA256  string            `json:"sha256,omitempty"`
	Program string            `json:"program,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Options []match.Option    `json:"options,omitempty"`
	Limit   timecontrol.Limit `json:"limit"`
}

// Setup is everything that decides how a match's games are played: what
// every task carries, and what a reused match id must agree with.
type Setup struct {
	Variant        string    `json:"variant"`
	CaptureSide    string    `json:"capture_side"`
	LastFour       string    `json:"last_four"`
	Repetition     string    `json:"repetition"`
	NoCaptureLimit int       `json:"no_capture_limit"`
	Engines        [2]Engine `json:"engines"`
	Games          int       `json:"games"`
	Seed           uint64    `json:"seed"`
	TimeMarginMS   int64     `json:"time_margin_ms"`
	TimeoutMS      int64     `json:"timeout_ms"`
	Ponder         bool      `json:"ponder,omitempty"`
	// Resign and Draw are the adjudication rules, if any.
	Resign *match.ResignRule `json:"resign,omitempty"`
	Draw   *match.DrawRule   `json:"draw,omitempty"`
	// Sower and Build are the version and executable's SHA-256 of the
	// coordinator's program when an engine is built in (see Build): a
	// worker of another build refuses the task, since its built-in
	// players may play otherwise. Both are empty when no engine is.
	Sower string `json:"sower,omitempty"`
	Build string `json:"build,omitempty"`
}

// builtin reports whether an engine of the setup is a built-in player.
func (s *Setup) builtin() bool {
	return s.Engines[0].Builtin != "" || s.Engines[1].Builtin != ""
}

// Settings are a match's setup with what only the coordinator uses: the
// openings of its pairs and its SPRT. They are stored under the match id.
// A tournament's hold its pairings instead of Setup, which is then empty.
type Settings struct {
	Version  int      `json:"v"`
	Setup    Setup    `json:"setup"`
	Openings []string `json:"openings"` // pair k (of every pairing) starts from Openings[k mod len]
	SPRT     string   `json:"sprt,omitempty"`
	// Tournament, in a tournament's settings, is its format, engines and
	// pairings.
	Tournament *TournamentSettings `json:"tournament,omitempty"`
}

// TournamentSettings are what decides a tournament's games beyond what
// its pairings share: the format, the engines and each pairing's setup,
// as its tasks carry it (the pairing's two engines, its games and its
// seed for the built-in players).
type TournamentSettings struct {
	Format   string   `json:"format"`
	Engines  []string `json:"engines"` // the names, in order
	Pairings []Setup  `json:"pairings"`
}

// TournamentTask names, in a tournament's task and its result, the pair
// of games to play: pair Pair (from 0: the pairing's games 2·Pair+1 and
// 2·Pair+2) of pairing Pairing (from 1), whose setup is the task's. The
// task's own number (Task.Pair) numbers it in the tournament.
type TournamentTask struct {
	Pairing int `json:"pairing"`
	Pair    int `json:"pair"`
}

// Task is one pair to play: games 2·Pair+1 and 2·Pair+2 (only the first
// when the games are odd and this is the last pair); or, in a self-play
// run, the games listed in Games, Pair being the task's number. Tasks
// come from the network: decodeTask checks them.
type Task struct {
	Version int    `json:"v"`
	Match   string `json:"match"`
	Pair    int    `json:"pair"`
	Opening string `json:"opening,omitempty"`
	Setup   Setup  `json:"setup"`
	// Datagen, in a task of a self-play run (sower datagen), is the run;
	// Games are the game numbers to play and Pair numbers the task.
	Datagen *DatagenSetup `json:"datagen,omitempty"`
	Games   []int         `json:"games,omitempty"`
	// Proof, in a task of a distributed proof (sower solve --broker), is
	// the leaf to search; Pair numbers the task in its round.
	Proof *ProofTask `json:"proof,omitempty"`
	// Tournament, in a task of a tournament, is the pairing and its pair
	// to play; Pair numbers the task in the tournament.
	Tournament *TournamentTask `json:"tournament,omitempty"`
}

// Result is what a worker publishes for a task: the pair's records (or a
// self-play task's games), or why it could not be played. Results come
// from the network: decodeResult and the coordinator's job check them.
type Result struct {
	Version int                  `json:"v"`
	Match   string               `json:"match"`
	Pair    int                  `json:"pair"`
	Worker  string               `json:"worker"`
	Records []*record.GameRecord `json:"records,omitempty"`
	// Games and Data are a self-play task's game numbers and games.
	Games []int         `json:"games,omitempty"`
	Data  []DatagenGame `json:"data,omitempty"`
	// Failed, when set, is why the pair cannot be played on that worker
	// (an engine that does not run there, a corrupt engine object); the
	// task is not tried again.
	Failed string `json:"failed,omitempty"`
	// Corrupt, with Failed, is the SHA-256 of the engine object the
	// worker refused as damaged or missing: the coordinator checks and
	// replaces it, and queues the pair again once.
	Corrupt string `json:"corrupt,omitempty"`
	// Proof is a proof task's answer: the leaf's numbers, or with Failed
	// the leaf that failed.
	Proof *ProofResult `json:"proof,omitempty"`
	// Tournament, in a tournament's result, is the task's pairing and
	// pair, as the task named them.
	Tournament *TournamentTask `json:"tournament,omitempty"`
}

// NewSetup describes cfg's games; hashes gives the SHA-256 of each engine
// program (empty for a built-in player).
func NewSetup(cfg *match.Config, hashes [2]string) Setup {
	r := cfg.Variant.Rules()
	s := Setup{
		Variant: cfg.Variant.Name(), CaptureSide: r.CaptureSide.String(), LastFour: r.LastFour.String(),
		Repetition: r.Repetition.String(), NoCaptureLimit: r.NoCaptureLimit,
		Games: cfg.Games, Seed: cfg.Seed, Ponder: cfg.Ponder, Resign: cfg.Resign, Draw: cfg.Draw,
		TimeMarginMS: cfg.TimeMargin.Milliseconds(), TimeoutMS: cfg.Timeout.Milliseconds(),
	}
	for i, e := range cfg.Engines {
		w := Engine{Name: e.Name, Builtin: e.Builtin, Options: e.Options, Limit: e.Limit}
		if e.Builtin == "" {
			w.SHA256, w.Program, w.Args = hashes[i], e.Command[0], e.Command[1:]
		}
		s.Engines[i] = w
	}
	return s
}

// variant returns the setup's game with its rules.
func (s *Setup) variant() (*board.Variant, error) {
	var r board.Rules
	var err error
	if r.CaptureSide, err = board.ParseCaptureSide(s.CaptureSide); err != nil {
		return nil, err
	}
	if r.LastFour, err = board.ParseLastFour(s.LastFour); err != nil {
		return nil, err
	}
	if r.Repetition, err = board.ParseRepetition(s.Repetition); err != nil {
		return nil, err
	}
	r.NoCaptureLimit = s.NoCaptureLimit
	return board.NewWithRules(s.Variant, r)
}

// config returns the match configuration a worker plays the setup with;
// programs gives the path of each engine's program on this machine.
func (s *Setup) config(programs [2]string) (match.Config, error) {
	v, err := s.variant()
	if err != nil {
		return match.Config{}, err
	}
	cfg := match.Config{
		Variant: v, Games: s.Games, Seed: s.Seed, Ponder: s.Ponder, Resign: s.Resign, Draw: s.Draw,
		TimeMargin: time.Duration(s.TimeMarginMS) * time.Millisecond,
		Timeout:    time.Duration(s.TimeoutMS) * time.Millisecond,
	}
	for i, e := range s.Engines {
		spec := match.EngineSpec{Name: e.Name, Builtin: e.Builtin, Options: e.Options, Limit: e.Limit}
		if e.Builtin == "" {
			spec.Command = append([]string{programs[i]}, e.Args...)
		}
		cfg.Engines[i] = spec
	}
	return cfg, cfg.Validate()
}

// fields flattens settings (any value that encodes as JSON) into named
// values, for naming what differs between two of them.
func fields(settings []byte) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(strings.TrimPrefix(prefix+"."+k, "."), e)
			}
		case []any:
			if len(x) == 0 {
				out[prefix] = "[]"
			}
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", prefix, i), e)
			}
		default:
			b, _ := json.Marshal(x)
			out[prefix] = string(b)
		}
	}
	var tree any
	if json.Unmarshal(settings, &tree) != nil {
		return map[string]string{"": "(unreadable)"}
	}
	walk("", tree)
	return out
}

// diff names the settings that differ between here and there (on the
// broker), both as JSON.
func diff(here, there []byte) []string {
	a, b := fields(here), fields(there)
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s is %s here, %s on the broker", k, orNone(a[k]), orNone(b[k])))
		}
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// ID derives a match id from the settings: the first 16 hex digits of the
// SHA-256 of their JSON.
func (s *Settings) ID() string { return idOf(s) }

// idOf derives an id from settings: the first 16 hex digits of the SHA-256
// of their JSON.
func idOf(settings any) string {
	b, _ := json.Marshal(settings)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// CheckID checks a match id given by the user: it becomes part of subjects
// and keys, so letters, digits, '-' and '_' only, at most 64.
func CheckID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("match id %q: want 1 to 64 letters, digits, - or _", id)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("match id %q: want letters, digits, - or _ only", id)
		}
	}
	return nil
}
