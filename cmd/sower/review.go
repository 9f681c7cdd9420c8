package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/review"
	"github.com/sower-engine/sower/search"
)

// defaultReviewTime is review's budget per position when given no limit.
const defaultReviewTime = time.Second

// review is "sower review": a game of a record reviewed by the engine
// (package bench/review).
func (c *cli) review(args []string) error {
	var lf limitFlags
	var record, out, pgn string
	var index, hash, threads int
	fs := c.flags("review", "--record FILE [--game-index N] [--movetime MS | --depth N | --nodes N] [--threads N] [--hash MB] [--eval auto|linear|net [--evalfile FILE] [--evallazy N]] [--out FILE] [--pgn FILE]")
	fs.StringVar(&record, "record", "", "the game record: JSON lines or PGN, as sower match and the page write them")
	fs.IntVar(&index, "game-index", 1, "the game to review: its place in the record, from 1")
	lf.add(fs, " per position", defaultReviewTime)
	fs.IntVar(&hash, "hash", search.DefaultHashMiB, "transposition table size in MiB")
	fs.IntVar(&threads, "threads", search.DefaultThreads, "search with N threads")
	fs.StringVar(&out, "out", "", "write the record's games as JSON lines, the game reviewed with its review")
	fs.StringVar(&pgn, "pgn", "", "write the record's games as PGN, the game reviewed with its review")
	ee := addEngineEvalFlags(fs, "auto")
	if err := parse(fs, args); err != nil {
		return err
	}
	nets, lazy, err := ee.load()
	if err != nil {
		return err
	}
	lim, err := lf.limits(defaultReviewTime)
	if err != nil {
		return err
	}
	recs, err := readReviewRecord(record, index)
	if err != nil {
		return err
	}
	for _, o := range [][2]string{{"--out", out}, {"--pgn", pgn}} {
		if o[1] != "" {
			if err := checkOutput(o[0], o[1]); err != nil {
				return err
			}
		}
	}
	o := search.DefaultOptions()
	o.HashMiB, o.Threads, o.Nets, o.NetLazy = hash, threads, nets, lazy
	eng, err := c.newEngine(o)
	if err != nil {
		return err
	}
	rec := &recs[index-1]
	g, _ := rec.Replay() // checked by readReviewRecord
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(c.stdout, "review of game %d of %s: %s (South) vs %s (North), %s, %d plies, result %s\n",
		index, record, rec.South, rec.North, rec.Variant, len(g.Moves()), rec.Result)
	res, err := review.Review(ctx, g, review.Config{Engine: eng, Limits: lim, Progress: func(p review.Progress) {
		fmt.Fprintf(c.stderr, "review: position %d of %d searched, %s, about %s left\n",
			p.Done, p.Total, p.Elapsed.Round(time.Second), p.Left().Round(time.Second))
	}})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	if err := res.Write(c.stdout, rec.South, rec.North); err != nil {
		return err
	}
	res.Apply(rec)
	if err := writeRecords(out, pgn, recs); err != nil {
		return err
	}
	if interrupted {
		return interruptedf("after %d of the %d plies: the plies reviewed are shown (and written)", len(res.Plies), len(g.Moves()))
	}
	return nil
}

// readReviewRecord reads the record file of --record and checks that game
// index (--game-index, from 1) is in it and replays under its rules.
func readReviewRecord(path string, index int) ([]record.GameRecord, error) {
	if path == "" {
		return nil, usagef("--record is required: the file of the game to review")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, flagError("--record", err)
	}
	recs, err := record.ReadRecords(data)
	if err != nil {
		return nil, usagef("--record %s: %v", path, err)
	}
	if index < 1 || index > len(recs) {
		return nil, usagef("--game-index %d: want 1 to %d, the games in %s", index, len(recs), path)
	}
	if _, err := recs[index-1].Replay(); err != nil {
		return nil, usagef("--record %s: %v", path, err)
	}
	return recs, nil
}

// writeRecords writes recs as JSON lines to out and as PGN to pgn, each
// when named, through a temporary file renamed into place, so that either
// may be the record file itself.
func writeRecords(out, pgn string, recs []record.GameRecord) error {
	if out != "" {
		var b strings.Builder
		for i := range recs {
			js, err := json.Marshal(&recs[i])
			if err != nil {
				return err
			}
			b.Write(js)
			b.WriteByte('\n')
		}
		if err := replaceFile(out, b.String()); err != nil {
			return err
		}
	}
	if pgn != "" {
		var b strings.Builder
		for i := range recs {
			b.WriteString(recs[i].PGN())
		}
		return replaceFile(pgn, b.String())
	}
	return nil
}

// replaceFile writes text to path through a temporary file in its
// directory, with mode 0644 as every other output (CreateTemp makes it
// 0600).
func replaceFile(path, text string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".sower-review-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
