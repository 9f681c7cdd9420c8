package sowertest

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var fixtures Fixtures

func TestMain(m *testing.M) { os.Exit(fixtures.Main(m)) }

// TestFixturesMadeOnce: tests asking at once for the same key share one
// directory, filled once; another key gets a directory of its own.
func TestFixturesMadeOnce(t *testing.T) {
	var fills atomic.Int32
	fill := func(dir string) error {
		fills.Add(1)
		return os.WriteFile(dir+"/f", []byte("x"), 0o644)
	}
	dirs := make([]string, 8)
	var wg sync.WaitGroup
	for i := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dirs[i] = fixtures.Dir(t, "a", fill)
		}()
	}
	wg.Wait()
	for _, d := range dirs[1:] {
		if d != dirs[0] {
			t.Fatalf("directories %s and %s for one key", dirs[0], d)
		}
	}
	if b := fixtures.Dir(t, "b", fill); b == dirs[0] {
		t.Fatal("two keys share a directory")
	}
	if n := fills.Load(); n != 2 {
		t.Fatalf("%d fills for two keys", n)
	}
}

// TestFixturesGoOnTimeout runs a test that outlives its -test.timeout in a
// test binary of its own (this one, run again): the fixtures' directory is
// gone after the panic that ends it.
func TestFixturesGoOnTimeout(t *testing.T) {
	if os.Getenv("SOWERTEST_HANG") != "" {
		dir := fixtures.Dir(t, "hang", func(string) error { return nil })
		os.Stdout.WriteString("dir " + dir + "\n")
		time.Sleep(time.Minute)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFixturesGoOnTimeout$", "-test.timeout=3s")
	cmd.Env = append(os.Environ(), "SOWERTEST_HANG=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the hanging test passed:\n%s", out)
	}
	var dir string
	for sc := bufio.NewScanner(strings.NewReader(string(out))); sc.Scan(); {
		if d, ok := strings.CutPrefix(sc.Text(), "dir "); ok {
			dir = d
		}
	}
	if dir == "" {
		t.Fatalf("no directory reported:\n%s", out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is left behind (%v)", dir, err)
	}
}
