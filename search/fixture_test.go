package search

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/tables"
)

// fixtures holds the table sets the tests share: each set of options and
// seeds is built once per test binary, and the directory that holds them
// is removed when the tests end, failed or not.
var fixtures sowertest.Fixtures

func TestMain(m *testing.M) { os.Exit(fixtures.Main(m)) }

// sharedTables opens the Hoyito III tables for r up to seeds, built the
// first time a test asks for that set (one set serves both repetition
// rules), closed when t ends, with the variant of r.
func sharedTables(t testing.TB, r board.Rules, seeds int) (*tables.Tables, *board.Variant) {
	t.Helper()
	opts := tables.OptionsFor(r)
	dir := fixtures.Dir(t, fmt.Sprintf("tables %s %d", opts, seeds), func(dir string) error {
		return tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: opts, Seeds: seeds})
	})
	return openOff(t, dir, r)
}
