package broker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/tune"
)

// DatagenSetup is what decides a self-play run's games: every datagen
// task carries it, and a reused id must agree with it.
type DatagenSetup struct {
	// Sower and Build are the version and executable's SHA-256 of the
	// program that plays (see Build): a worker of another build refuses
	// the task, since its games would differ.
	Sower          string   `json:"sower"`
	Build          string   `json:"build"`
	Variant        string   `json:"variant"`
	CaptureSide    string   `json:"capture_side"`
	LastFour       string   `json:"last_four"`
	Repetition     string   `json:"repetition"`
	NoCaptureLimit int      `json:"no_capture_limit"`
	Games          int      `json:"games"`
	Nodes          uint64   `json:"nodes,omitempty"`
	Depth          int      `json:"depth,omitempty"`
	HashMiB        int      `json:"hash_mib"`
	Book           []string `json:"book,omitempty"`
	RandomPlies    int      `json:"random_plies"`
	Seed           uint64   `json:"seed"`
}

// DatagenGame is one self-play game in a result.
type DatagenGame struct {
	Game    int             `json:"game"`
	Plies   int             `json:"plies"`
	Nodes   uint64          `json:"nodes"`
	Result  board.Result    `json:"result"`
	Records []DatagenRecord `json:"records"`
}

// DatagenRecord is one kept position of a game.
type DatagenRecord struct {
	Ply   uint16 `json:"ply"`
	Pos   string `json:"pos"`
	Score int16  `json:"score"`
}

// DatagenJob is a self-play run whose games are played by workers.
type DatagenJob struct {
	// Config is the run as a local one would be configured: Each gets
	// every game (one call at a time) and Skip names the games already
	// written; Concurrency is ignored.
	Config selfplay.DatagenConfig
	// ID names the run on the broker (empty: derived from the settings).
	ID string
	// Batch is the number of games per task (0: 4).
	Batch int
	// AckWait and MaxDeliver are as for a match (0: the defaults).
	AckWait    time.Duration
	MaxDeliver int
	// Progress gets notes: failed tasks, a resumed run.
	Progress io.Writer
	// Build is the program the games are played by (ThisBuild): only
	// workers of that build play them.
	Build Build
}

// newDatagenSetup describes cfg's games.
func newDatagenSetup(cfg *selfplay.DatagenConfig, build Build) DatagenSetup {
	r := cfg.Variant.Rules()
	s := DatagenSetup{
		Sower: build.Version, Build: build.SHA256, Variant: cfg.Variant.Name(), CaptureSide: r.CaptureSide.String(),
		LastFour: r.LastFour.String(), Repetition: r.Repetition.String(), NoCaptureLimit: r.NoCaptureLimit,
		Games: cfg.Games, Nodes: cfg.Limits.Nodes, Depth: cfg.Limits.Depth, HashMiB: cfg.Engine.HashMiB,
		RandomPlies: cfg.RandomPlies, Seed: cfg.Seed,
	}
	for _, p := range cfg.Book {
		s.Book = append(s.Book, p.String())
	}
	return s
}

// config returns the self-play configuration of the setup: the engine's
// default options (the linear evaluation) with the setup's table size.
func (s *DatagenSetup) config() (selfplay.DatagenConfig, error) {
	rs := Setup{Variant: s.Variant, CaptureSide: s.CaptureSide, LastFour: s.LastFour, Repetition: s.Repetition, NoCaptureLimit: s.NoCaptureLimit}
	v, err := rs.variant()
	if err != nil {
		return selfplay.DatagenConfig{}, err
	}
	cfg := selfplay.DatagenConfig{Variant: v, Games: s.Games, Engine: selfplay.DefaultEngine(s.HashMiB), RandomPlies: s.RandomPlies, Seed: s.Seed, Concurrency: 1}
	cfg.Limits.Nodes, cfg.Limits.Depth = s.Nodes, s.Depth
	for _, b := range s.Book {
		p, err := v.ParsePosition(b)
		if err != nil {
			return cfg, fmt.Errorf("book position %q: %v", b, err)
		}
		cfg.Book = append(cfg.Book, p)
	}
	return cfg, nil
}

// datagenJob is a self-play run as a coordinator's job: its tasks are
// batches of the games the output lacks; games, not tasks, are what is
// done or failed, since a result may answer a batch of an earlier run.
type datagenJob struct {
	cfg     *selfplay.DatagenConfig
	id      string
	setup   DatagenSetup
	batch   int
	pending map[int]bool   // games to write
	failed  map[int]string // games reported failed (a set: a game written later leaves it), with the reason
	batches [][]int        // the games of each task queued by this run
	out     io.Writer
}

// Datagen plays the run on the broker's workers, handing every game to
// Config.Each. Run again after an interruption (with Skip naming the games
// written) it queues only the games still missing.
func Datagen(ctx context.Context, c *Client, job DatagenJob) error {
	cfg := &job.Config
	if err := job.Build.check(); err != nil {
		return err
	}
	j := &datagenJob{cfg: cfg, setup: newDatagenSetup(cfg, job.Build), batch: job.Batch, pending: map[int]bool{},
		failed: map[int]string{}, out: job.Progress, id: job.ID}
	if j.out == nil {
		j.out = io.Discard
	}
	if j.batch <= 0 {
		j.batch = 4
	}
	if j.id == "" {
		j.id = "datagen-" + idOf(&j.setup)
	}
	for g := range cfg.Games {
		if cfg.Skip == nil || !cfg.Skip(g) {
			j.pending[g] = true
		}
	}
	co := &coordinator{c: c, id: j.id, job: j, ackWait: job.AckWait, maxDeliver: job.MaxDeliver, out: j.out, requeue: true}
	if err := co.start(ctx, &j.setup); err != nil {
		return err
	}
	return co.run(ctx)
}

func (j *datagenJob) kind() string { return "self-play run" }

// tasks batches the games still missing; tasks of an earlier run are
// withdrawn, their results, if they come, are taken once.
func (j *datagenJob) tasks() []Task {
	todo := j.sorted(j.pending)
	j.batches = nil
	var ts []Task
	for i := 0; i < len(todo); i += j.batch {
		games := todo[i:min(i+j.batch, len(todo))]
		ts = append(ts, Task{Version: Version, Match: j.id, Pair: len(j.batches), Games: games, Datagen: &j.setup})
		j.batches = append(j.batches, games)
	}
	return ts
}

// sorted returns the keys of a set, in order.
func (j *datagenJob) sorted(set map[int]bool) []int {
	var gs []int
	for g := range set {
		gs = append(gs, g)
	}
	sort.Ints(gs)
	return gs
}

// open returns this run's tasks that have a game neither written nor
// failed.
func (j *datagenJob) open() []Task {
	var ts []Task
	for n, games := range j.batches {
		for _, g := range games {
			if _, failed := j.failed[g]; j.pending[g] && !failed {
				ts = append(ts, Task{Version: Version, Match: j.id, Pair: n, Games: games})
				break
			}
		}
	}
	return ts
}

// take writes the games of a result that are still missing. A game the
// result names without holding it, or holds in a form that does not
// read, is failed; a failed game that comes later is written. A failure
// of an earlier run's task is passed over: its games are queued again.
func (j *datagenJob) take(r *Result, from origin) error {
	if from == restored {
		return nil // the output says what is written: Skip
	}
	if len(r.Records) > 0 {
		fmt.Fprintf(j.out, "refusing a result from worker %s: match records in a self-play run\n", r.Worker)
		return nil
	}
	if err := checkGameSet(r.Games, j.cfg.Games); err != nil {
		fmt.Fprintf(j.out, "refusing a result from worker %s: %v\n", r.Worker, err)
		return nil
	}
	if r.Failed != "" {
		for _, g := range r.Games {
			if from == live {
				j.fail(g, r.Worker, r.Failed)
			}
		}
		return nil
	}
	named := map[int]bool{}
	for _, g := range r.Games {
		named[g] = true
	}
	for i := range r.Data {
		gd := &r.Data[i]
		if !named[gd.Game] {
			fmt.Fprintf(j.out, "refusing game %d from worker %s: its task did not ask for it\n", gd.Game, r.Worker)
			continue
		}
		delete(named, gd.Game)
		if !j.pending[gd.Game] {
			continue // written already
		}
		d, err := gameData(j.cfg.Variant, gd)
		if err != nil {
			j.fail(gd.Game, r.Worker, err.Error())
			continue
		}
		if j.cfg.Each != nil {
			if err := j.cfg.Each(d); err != nil {
				return err
			}
		}
		delete(j.pending, gd.Game)
		delete(j.failed, gd.Game)
	}
	for _, g := range j.sorted(named) {
		if from == live {
			j.fail(g, r.Worker, "the result lacks the game")
		}
	}
	return nil
}

// fail counts game g as failed, unless it is written.
func (j *datagenJob) fail(g int, worker, reason string) {
	if !j.pending[g] {
		return
	}
	if _, seen := j.failed[g]; !seen {
		fmt.Fprintf(j.out, "game %d failed on worker %s: %s\n", g, worker, reason)
	}
	j.failed[g] = reason
}

// over reports whether every game still missing has failed.
func (j *datagenJob) over() bool { return len(j.pending) == len(j.failed) }

func (j *datagenJob) line(int, map[int]string) string { return "" }
func (j *datagenJob) resumed(uint64) string           { return "" }

// end names the games not played.
func (j *datagenJob) end() error {
	if len(j.pending) == 0 {
		return nil
	}
	g := j.sorted(j.pending)[0]
	return fmt.Errorf("%d games were not played (game %d: %s)", len(j.pending), g, j.failed[g])
}

// gameData turns a result's game into the local form.
func gameData(v *board.Variant, gd *DatagenGame) (selfplay.GameData, error) {
	d := selfplay.GameData{Game: gd.Game, Plies: gd.Plies, Nodes: gd.Nodes, Status: board.Status{Result: gd.Result}}
	if gd.Result > board.Draw || gd.Plies < 0 {
		return d, fmt.Errorf("result %d after %d plies", gd.Result, gd.Plies)
	}
	for _, r := range gd.Records {
		p, err := v.ParsePosition(r.Pos)
		if err != nil {
			return d, err
		}
		d.Records = append(d.Records, tune.Record{Game: uint32(gd.Game), Ply: r.Ply, Pos: p, Score: r.Score, Result: gd.Result})
	}
	return d, nil
}

// playDatagen plays a datagen task's games. When ctx ends it returns
// ctx's error.
func playDatagen(ctx context.Context, t *Task, build Build) ([]DatagenGame, error) {
	if why := build.refuses(Build{Version: t.Datagen.Sower, SHA256: t.Datagen.Build}, gamesWork); why != "" {
		return nil, errors.New(why)
	}
	cfg, err := t.Datagen.config()
	if err != nil {
		return nil, fmt.Errorf("the task's settings: %w", err)
	}
	if err := checkGameSet(t.Games, cfg.Games); err != nil {
		return nil, err
	}
	want := map[int]bool{}
	for _, g := range t.Games {
		want[g] = true
	}
	var games []DatagenGame
	cfg.Skip = func(g int) bool { return !want[g] }
	cfg.Each = func(d selfplay.GameData) error {
		gd := DatagenGame{Game: d.Game, Plies: d.Plies, Nodes: d.Nodes, Result: d.Status.Result, Records: []DatagenRecord{}}
		for _, r := range d.Records {
			gd.Records = append(gd.Records, DatagenRecord{Ply: r.Ply, Pos: r.Pos.String(), Score: r.Score})
		}
		games = append(games, gd)
		return nil
	}
	if err := selfplay.Datagen(ctx, cfg); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return games, nil
}

// batchID names a list of games in message ids.
func batchID(games []int) string {
	b, _ := json.Marshal(games)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}
