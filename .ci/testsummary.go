//go:build ignore

// Testsummary reads the events of "go test -json" on standard input and
// prints what "go test" without -json prints (build errors, the output of
// failed tests, a line per package), then the slowest tests with their
// times. It exits with status 1 when a test or a package failed.
//
//	go test -json ./... | go run .ci/testsummary.go -slowest 15
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// event is one line of "go test -json" (go doc test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// test is one test's output and result.
type test struct {
	pkg, name string
	out       strings.Builder
	elapsed   float64
	ended     bool // passed, failed or skipped
}

func main() {
	slowest := flag.Int("slowest", 15, "how many of the slowest tests to list")
	flag.Parse()
	failed, err := summarize(os.Stdin, os.Stdout, *slowest)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

// summarize prints the summary of the events read from r to w and
// reports whether anything failed.
func summarize(r io.Reader, w io.Writer, slowest int) (bool, error) {
	tests := map[[2]string]*test{}
	var done []*test
	failed := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// Not an event (go test writes some errors as plain text).
			fmt.Fprintln(w, sc.Text())
			continue
		}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Test == "":
			// The package's own lines: ok, FAIL, panics outside tests
			// (and PASS, which go test without -v leaves out).
			if e.Action == "output" && e.Output != "PASS\n" {
				fmt.Fprint(w, e.Output)
			}
			if e.Action == "fail" {
				failed = true
			}
		default:
			k := [2]string{e.Package, e.Test}
			t := tests[k]
			if t == nil {
				t = &test{pkg: e.Package, name: e.Test}
				tests[k] = t
			}
			switch e.Action {
			case "output":
				t.out.WriteString(e.Output)
			case "fail":
				failed = true
				t.elapsed, t.ended = e.Elapsed, true
				fmt.Fprint(w, t.out.String())
				done = append(done, t)
			case "pass", "skip":
				t.elapsed, t.ended = e.Elapsed, true
				done = append(done, t)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return failed, err
	}
	// A test cut short by a panic or a timeout never ends: its output
	// says why.
	for _, t := range tests {
		if !t.ended {
			fmt.Fprint(w, t.out.String())
		}
	}
	printSlowest(w, done, slowest)
	return failed, nil
}

// printSlowest lists the n slowest top-level tests.
func printSlowest(w io.Writer, done []*test, n int) {
	var top []*test
	for _, t := range done {
		if !strings.Contains(t.name, "/") {
			top = append(top, t)
		}
	}
	slices.SortStableFunc(top, func(a, b *test) int {
		switch {
		case a.elapsed > b.elapsed:
			return -1
		case a.elapsed < b.elapsed:
			return 1
		}
		return 0
	})
	if len(top) > n {
		top = top[:n]
	}
	fmt.Fprintf(w, "== the %d slowest tests\n", len(top))
	for _, t := range top {
		fmt.Fprintf(w, "%8.2fs  %s %s\n", t.elapsed, t.pkg, t.name)
	}
}
