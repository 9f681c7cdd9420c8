package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
)

// fixtures holds the table sets the tests share: each set of options and
// seeds is built once per test binary (builtDir), and the directory that
// holds them is removed when the tests end, failed or not.
var fixtures sowertest.Fixtures

func TestMain(m *testing.M) { os.Exit(fixtures.Main(m)) }

// statsFile is the file of a fixture directory that keeps the reports of
// the build that made it, one BuildStats a layer.
const statsFile = "stats.json"

// builtDir returns a directory holding the tables for opts up to seeds,
// built the first time a test asks for them. A set of more than 8 seeds
// starts from the layers of the set below it, so that each layer is built
// once per test binary; its stats file still has a full report for every
// layer. Tests must not change the directory.
func builtDir(t testing.TB, opts Options, seeds int) string {
	t.Helper()
	var below string
	if seeds > 8 {
		below = builtDir(t, opts, seeds-4)
	}
	return fixtures.Dir(t, fmt.Sprintf("tables %s %d", opts, seeds), func(dir string) error {
		var stats []BuildStats
		if below != "" {
			var names []string
			for n := 8; n < seeds; n += 4 {
				names = append(names, opts.FileName(n))
			}
			if err := sowertest.LinkFiles(dir, below, names...); err != nil {
				return err
			}
			var err error
			if stats, err = readStats(below); err != nil {
				return err
			}
		}
		err := Build(context.Background(), BuildConfig{Dir: dir, Options: opts, Seeds: seeds,
			Layer: func(st BuildStats, resumed bool) {
				if !resumed {
					stats = append(stats, st)
				}
			}})
		if err != nil {
			return err
		}
		b, err := json.Marshal(stats)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, statsFile), b, 0o644)
	})
}

// readStats reads the stats file of a fixture directory.
func readStats(dir string) ([]BuildStats, error) {
	b, err := os.ReadFile(filepath.Join(dir, statsFile))
	if err != nil {
		return nil, err
	}
	var stats []BuildStats
	return stats, json.Unmarshal(b, &stats)
}

// builtStats returns the build's report of each layer of the shared set
// for opts up to seeds, 8 seeds first.
func builtStats(t testing.TB, opts Options, seeds int) []BuildStats {
	t.Helper()
	stats, err := readStats(builtDir(t, opts, seeds))
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

// buildSet opens the shared tables for r up to seeds (builtDir), closed
// when t ends, with the variant of r.
func buildSet(t testing.TB, r board.Rules, seeds int) (*Tables, *board.Variant) {
	t.Helper()
	return openSet(t, builtDir(t, OptionsFor(r), seeds), r)
}

// openSet opens the tables for r in dir, closed when t ends, and checks
// that they fit their own rules.
func openSet(t testing.TB, dir string, r board.Rules) (*Tables, *board.Variant) {
	t.Helper()
	tb, err := Open(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	v, err := board.NewWithRules(board.NameHoyito3, r)
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Fits(v) {
		t.Fatalf("tables for %s do not fit their own rules", tb.Options())
	}
	return tb, v
}
