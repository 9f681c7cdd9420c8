package tables

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRemoveLeftovers lays out the temporary files killed builds leave,
// of this set and of another, among files that only look like them:
// exactly this set's (and the unnamed change logs of older builders) are
// removed.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	o := Options{Limit: 200}
	other := Options{Limit: 100}
	gone := []string{
		o.FileName(16) + ".tmp123456",
		o.FileName(24) + ".tmp9",
		".sowtb-changes-hoyito3-" + o.String() + "-16-4242",
		".sowtb-changes-17",
	}
	kept := []string{
		o.FileName(16),
		o.FileName(16) + ".tmp",
		o.FileName(16) + ".tmp12x",
		o.FileName(16) + ".tmp12.bak",
		other.FileName(16) + ".tmp123456",
		".sowtb-changes-hoyito3-" + other.String() + "-16-4242",
		".sowtb-changes-",
		".sowtb-changes-notes",
		"notes.txt",
	}
	for _, name := range append(slices.Clone(gone), kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, o.FileName(20)+".tmp1"), 0o755); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, o.FileName(20)+".tmp1") // a directory
	got, err := RemoveLeftovers(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		if l.Size != 1 {
			t.Errorf("%s: size %d, want 1", l.Path, l.Size)
		}
		names = append(names, filepath.Base(l.Path))
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(gone))
	if !slices.Equal(names, want) {
		t.Errorf("removed %q, want %q", names, want)
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range gone {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", name, err)
		}
	}
	if got, err := RemoveLeftovers(filepath.Join(dir, "missing"), o); err != nil || len(got) != 0 {
		t.Errorf("a missing directory: %v, %v", got, err)
	}
}

// TestChangeLogName checks that the change log a build makes has a name
// RemoveLeftovers takes for its set's, and another set's does not.
func TestChangeLogName(t *testing.T) {
	dir := t.TempDir()
	o := Options{Limit: 200}
	g, err := newChangeLog(filepath.Join(dir, o.FileName(12)), 10)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	name := filepath.Base(g.f.Name())
	if !isLeftover(name, o) || isLeftover(name, Options{Limit: 100}) {
		t.Errorf("change log %q: a leftover of its set %v, of another %v", name, isLeftover(name, o), isLeftover(name, Options{Limit: 100}))
	}
}
