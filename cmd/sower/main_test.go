package main

import (
	"os"
	"testing"

	"github.com/sower-engine/sower/internal/sowertest"
)

// fixtures builds the sower command once for the tests that drive it
// (fixtures.Sower); its directory is removed when the tests end.
var fixtures sowertest.Fixtures

func TestMain(m *testing.M) { os.Exit(fixtures.Main(m)) }
