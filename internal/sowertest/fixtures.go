package sowertest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Fixtures makes test data that is slow to make (endgame tables) once per
// test binary, in directories under one temporary directory, and shares it
// between the tests that ask for it. Its methods are safe for concurrent
// use. Main removes the directory when the tests end, failed or not.
type Fixtures struct {
	root string
	mu   sync.Mutex
	made map[string]*fixture
}

// fixture is one directory of a Fixtures, made once.
type fixture struct {
	once sync.Once
	dir  string
	err  error
}

// Main runs the tests of m with f's directory created first and removed
// after, even when tests fail, and returns the exit code for os.Exit; a
// run that reaches its -test.timeout removes it shortly before the panic
// that ends it. It is meant for TestMain:
//
//	var fixtures sowertest.Fixtures
//
//	func TestMain(m *testing.M) { os.Exit(fixtures.Main(m)) }
func (f *Fixtures) Main(m *testing.M) int {
	root, err := os.MkdirTemp("", "sower-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "test fixtures:", err)
		return 1
	}
	f.mu.Lock()
	f.root, f.made = root, map[string]*fixture{}
	f.mu.Unlock()
	defer os.RemoveAll(root)
	// A test binary that runs out of time panics and exits without
	// running deferred calls: the directory goes shortly before.
	flag.Parse()
	if d := timeout(); d > 0 {
		early := time.AfterFunc(d-min(d/20, 5*time.Second), func() { os.RemoveAll(root) })
		defer early.Stop()
	}
	return m.Run()
}

// timeout returns the test binary's -test.timeout, or 0 for none.
func timeout() time.Duration {
	fl := flag.Lookup("test.timeout")
	if fl == nil {
		return 0
	}
	d, _ := fl.Value.(flag.Getter).Get().(time.Duration)
	return d
}

// Dir returns the directory named key, made by fill the first time any
// test asks for it: fill gets the new, empty directory and fills it. A
// failed fill fails every test that asks for key. Dir fails t when Main
// did not run. Tests must not change what they find there.
func (f *Fixtures) Dir(t testing.TB, key string, fill func(dir string) error) string {
	t.Helper()
	f.mu.Lock()
	if f.made == nil {
		f.mu.Unlock()
		t.Fatal("test fixtures: TestMain does not call Fixtures.Main")
	}
	x := f.made[key]
	if x == nil {
		x = &fixture{dir: filepath.Join(f.root, fmt.Sprintf("%d", len(f.made)))}
		f.made[key] = x
	}
	f.mu.Unlock()
	x.once.Do(func() {
		if x.err = os.Mkdir(x.dir, 0o755); x.err == nil {
			x.err = fill(x.dir)
		}
	})
	if x.err != nil {
		t.Fatalf("test fixture %s: %v", key, x.err)
	}
	return x.dir
}

// LinkFiles puts into dir the files named of directory from, as hard links
// where the file system allows, else as copies. A fixture made from
// another (a larger set of tables from a smaller one's layers) starts so.
func LinkFiles(dir, from string, names ...string) error {
	for _, name := range names {
		src, dst := filepath.Join(from, name), filepath.Join(dir, name)
		if os.Link(src, dst) == nil {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
