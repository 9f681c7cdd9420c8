package broker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench"
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
	Config bench.DatagenConfig
	// ID names the run on the broker (empty: derived from the settings).
	ID string
	// Batch is the number of games per task (0: 4).
	Batch int
	// AckWait is as for a match (0: DefaultAckWait).
	AckWait time.Duration
	// Progress gets notes: failed tasks, a resumed run.
	Progress io.Writer
	// Build is the program the games are played by (ThisBuild): only
	// workers of that build play them.
	Build Build
}

// newDatagenSetup describes cfg's games.
func newDatagenSetup(cfg *bench.DatagenConfig, build Build) DatagenSetup {
	r := cfg.Variant.Rules()
	s := DatagenSetup{
		Sower: build.Version, Build: build.SHA256, Variant: cfg.Variant.Name(), CaptureSide: r.CaptureSide.String(),
		LastFour: r.LastFour.String(), Repetition: r.Repetition.String(), NoCaptureLimit: r.NoCaptureLimit,
		Games: cfg.Games, Nodes: cfg.Limits.Nodes, Depth: cfg.Limits.Depth, HashMiB: cfg.HashMiB,
		RandomPlies: cfg.RandomPlies, Seed: cfg.Seed,
	}
	for _, p := range cfg.Book {
		s.Book = append(s.Book, p.String())
	}
	return s
}

// config returns the self-play configuration of the setup.
func (s *DatagenSetup) config() (bench.DatagenConfig, error) {
	rs := Setup{Variant: s.Variant, CaptureSide: s.CaptureSide, LastFour: s.LastFour, Repetition: s.Repetition, NoCaptureLimit: s.NoCaptureLimit}
	v, err := rs.variant()
	if err != nil {
		return bench.DatagenConfig{}, err
	}
	cfg := bench.DatagenConfig{Variant: v, Games: s.Games, HashMiB: s.HashMiB, RandomPlies: s.RandomPlies, Seed: s.Seed, Concurrency: 1}
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

// batchID names a list of games in message ids.
func batchID(games []int) string {
	b, _ := json.Marshal(games)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Datagen plays the run on the broker's workers, handing every game to
// Config.Each. Run again after an interruption (with Skip naming the games
// written) it queues only the games still missing.
func Datagen(ctx context.Context, c *Client, job DatagenJob) error {
	cfg := &job.Config
	out := job.Progress
	if out == nil {
		out = io.Discard
	}
	if err := job.Build.check(); err != nil {
		return err
	}
	setup := newDatagenSetup(cfg, job.Build)
	id := job.ID
	if id == "" {
		id = "datagen-" + idOf(&setup)
	}
	if err := CheckID(id); err != nil {
		return err
	}
	if err := c.ensure(ctx); err != nil {
		return err
	}
	ackWait := job.AckWait
	if ackWait <= 0 {
		ackWait = DefaultAckWait
	}
	if _, err := c.JS.CreateOrUpdateConsumer(ctx, TaskStream, workerConsumerConfig(ackWait, defaultMaxDeliver)); err != nil {
		return fmt.Errorf("the workers' consumer: %w", err)
	}
	if err := claim(ctx, c.JS, id, &setup); err != nil {
		return err
	}
	cons, err := c.JS.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
		Durable: "sower-coordinator-" + id, FilterSubject: resultSubject(id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 5 * time.Second, MaxAckPending: 1,
		Description: "sower: the coordinator of self-play run " + id,
	})
	if err != nil {
		return fmt.Errorf("the results consumer: %w", err)
	}

	// Queue the missing games afresh: tasks of an earlier run are
	// withdrawn; their results, if they come, are taken once.
	written := map[int]bool{}
	var todo []int
	for g := range cfg.Games {
		if cfg.Skip == nil || !cfg.Skip(g) {
			todo = append(todo, g)
		}
	}
	stream, err := c.JS.Stream(ctx, TaskStream)
	if err != nil {
		return err
	}
	if err := stream.Purge(ctx, jetstream.WithPurgeSubject(taskSubjects(id))); err != nil {
		return fmt.Errorf("withdrawing earlier tasks: %w", err)
	}
	batch := job.Batch
	if batch <= 0 {
		batch = 4
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	for i, n := 0, 0; i < len(todo); i, n = i+batch, n+1 {
		games := todo[i:min(i+batch, len(todo))]
		t := Task{Version: Version, Match: id, Pair: n, Games: games, Datagen: &setup}
		b, err := json.Marshal(&t)
		if err != nil {
			return err
		}
		if err := c.publish(ctx, taskSubject(id, n), b, "task."+id+"."+batchID(games)+"."+run); err != nil {
			return fmt.Errorf("publishing a task: %w", err)
		}
	}
	pending := map[int]bool{}
	for _, g := range todo {
		pending[g] = true
	}
	exhausted, unwatch, err := watchExhausted(c)
	if err != nil {
		return err
	}
	defer unwatch()
	var failed []string
	failedGames := 0
	for len(pending) > failedGames {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(out, "run %s stays on the broker: the same command continues it\n", id)
			return err
		}
		select {
		case seq := <-exhausted:
			giveUp(ctx, c, id, seq, defaultMaxDeliver, out)
		default:
		}
		msg, err := cons.Next(jetstream.FetchMaxWait(200 * time.Millisecond))
		if errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(out, "waiting for results: %v\n", err)
				time.Sleep(time.Second)
			}
			continue
		}
		var r Result
		if err := json.Unmarshal(msg.Data(), &r); err != nil || r.Version != Version || r.Match != id {
			_ = msg.Ack()
			continue
		}
		if r.Failed != "" {
			fmt.Fprintf(out, "games %v failed on worker %s: %s\n", r.Games, r.Worker, r.Failed)
			failed = append(failed, r.Failed)
			for _, g := range r.Games {
				if pending[g] {
					failedGames++
				}
			}
		}
		for _, gd := range r.Data {
			if !pending[gd.Game] || written[gd.Game] {
				continue
			}
			d, err := gameData(cfg.Variant, &gd)
			if err != nil {
				fmt.Fprintf(out, "game %d from worker %s: %v\n", gd.Game, r.Worker, err)
				continue
			}
			if cfg.Each != nil {
				if err := cfg.Each(d); err != nil {
					return err
				}
			}
			written[gd.Game] = true
			delete(pending, gd.Game)
		}
		if err := msg.DoubleAck(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(out, "acknowledging a result: %v\n", err)
		}
	}
	_ = stream.Purge(ctx, jetstream.WithPurgeSubject(taskSubjects(id)))
	if len(failed) > 0 {
		return fmt.Errorf("%d games were not played: %s", len(pending), failed[0])
	}
	return nil
}

// gameData turns a result's game into the local form.
func gameData(v *board.Variant, gd *DatagenGame) (bench.GameData, error) {
	d := bench.GameData{Game: gd.Game, Plies: gd.Plies, Nodes: gd.Nodes, Status: board.Status{Result: gd.Result}}
	for _, r := range gd.Records {
		p, err := v.ParsePosition(r.Pos)
		if err != nil {
			return d, err
		}
		d.Records = append(d.Records, tune.Record{Game: uint32(gd.Game), Ply: r.Ply, Pos: p, Score: r.Score, Result: gd.Result})
	}
	return d, nil
}

// playDatagen plays a datagen task's games; failure says why they cannot
// be played here. When ctx ends it returns neither.
func playDatagen(ctx context.Context, t *Task, build Build) (games []DatagenGame, failure string) {
	if why := build.refuses(t.Datagen); why != "" {
		return nil, why
	}
	cfg, err := t.Datagen.config()
	if err != nil {
		return nil, fmt.Sprintf("the task's settings: %v", err)
	}
	want := map[int]bool{}
	for _, g := range t.Games {
		if g < 0 || g >= cfg.Games {
			return nil, fmt.Sprintf("game %d of a run of %d", g, cfg.Games)
		}
		want[g] = true
	}
	cfg.Skip = func(g int) bool { return !want[g] }
	cfg.Each = func(d bench.GameData) error {
		gd := DatagenGame{Game: d.Game, Plies: d.Plies, Nodes: d.Nodes, Result: d.Status.Result, Records: []DatagenRecord{}}
		for _, r := range d.Records {
			gd.Records = append(gd.Records, DatagenRecord{Ply: r.Ply, Pos: r.Pos.String(), Score: r.Score})
		}
		games = append(games, gd)
		return nil
	}
	if err := bench.Datagen(ctx, cfg); err != nil {
		if ctx.Err() != nil {
			return nil, ""
		}
		return nil, err.Error()
	}
	return games, ""
}
