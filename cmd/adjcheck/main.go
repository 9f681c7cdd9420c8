// Command adjcheck checks a match's adjudications against the same match
// played out: given the JSON records (--out) of a match with adjudication
// and of the same match without it, played game for game the same (node
// or depth limits, the same seed and openings), it reports the plies
// adjudication saved and every adjudicated result that differs from the
// game played out.
//
//	go run ./cmd/adjcheck ADJUDICATED.jsonl PLAYED.jsonl
//
// It exits with status 1 when a result differs or a game diverged, 2 on
// bad input.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/sower-engine/sower/bench/record"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run checks the two files of args and writes the report to stdout.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: adjcheck ADJUDICATED.jsonl PLAYED.jsonl")
		return 2
	}
	var files [2][]record.GameRecord
	for i, path := range args {
		data, err := os.ReadFile(path)
		if err == nil {
			files[i], err = record.ReadRecords(data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "adjcheck: %s: %v\n", path, err)
			return 2
		}
	}
	r, err := compare(files[0], files[1])
	if err != nil {
		fmt.Fprintf(stderr, "adjcheck: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "games %d, adjudicated %d\n", r.Games, r.Adjudicated)
	fmt.Fprintf(stdout, "plies %d with adjudication, %d played out: %.1f%% saved\n", r.Plies, r.PlayedPlies, 100*r.Saving())
	fmt.Fprintf(stdout, "adjudicated results: %d as played out, %d differ\n", r.Agree, len(r.Differ))
	for _, d := range r.Differ {
		fmt.Fprintln(stdout, "  "+d)
	}
	if len(r.Diverged) > 0 {
		fmt.Fprintf(stdout, "games whose moves differ from the game played out (not compared): %v\n", r.Diverged)
	}
	if len(r.Differ) > 0 || len(r.Diverged) > 0 {
		return 1
	}
	return 0
}
