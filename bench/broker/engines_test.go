package broker

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/internal/sowertest"
)

// TestDamagedObjectReplaced damages the engine store's copy of a program
// in two ways, its bytes replaced under the same name and its digest
// made wrong (as damaged chunks would show): each time the coordinator's
// upload finds it, says so and stores the program again, and a worker's
// cache then fetches the right bytes. A fetch that refuses an object
// leaves no subscription open behind it.
func TestDamagedObjectReplaced(t *testing.T) {
	dir := t.TempDir()
	_, c := readyBroker(t, dir)
	ctx := context.Background()
	prog := filepath.Join(dir, "engine")
	content := []byte("#!/bin/sh\necho engine\n")
	if err := os.WriteFile(prog, content, 0o755); err != nil {
		t.Fatal(err)
	}
	hash, err := hashFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := c.JS.ObjectStore(ctx, EngineBucket)
	if err != nil {
		t.Fatal(err)
	}
	damages := []struct {
		name   string
		damage func()
		want   string
	}{
		{"other bytes under the name", func() {
			if _, err := obs.PutBytes(ctx, hash, []byte("#!/bin/sh\necho another\n")); err != nil {
				t.Fatal(err)
			}
		}, "has content of SHA-256"},
		{"a wrong digest", func() {
			info, err := obs.GetInfo(ctx, hash)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte("other bytes"))
			info.Digest = "SHA-256=" + base64.URLEncoding.EncodeToString(sum[:])
			b, err := json.Marshal(info)
			if err != nil {
				t.Fatal(err)
			}
			m := nats.NewMsg("$O." + EngineBucket + ".M." + base64.URLEncoding.EncodeToString([]byte(hash)))
			m.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupSubject)
			m.Data = b
			if _, err := c.JS.PublishMsg(ctx, m); err != nil {
				t.Fatal(err)
			}
		}, "digest does not match"},
	}
	for i, d := range damages {
		if err := upload(ctx, c.JS, prog, hash, io.Discard); err != nil {
			t.Fatalf("%s: the first upload: %v", d.name, err)
		}
		d.damage()
		cch := &cache{dir: filepath.Join(dir, "cache", string(rune('a'+i))), js: c.JS}
		subs := c.NC.NumSubscriptions()
		if _, err := cch.path(ctx, hash); !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), d.want) {
			t.Errorf("%s: the damaged object fetched: %v", d.name, err)
		}
		if n := settledSubscriptions(c.NC, subs); n != subs {
			t.Errorf("%s: %d subscriptions after the refused fetch, %d before", d.name, n, subs)
		}
		var out sowertest.SyncBuffer
		if err := upload(ctx, c.JS, prog, hash, &out); err != nil {
			t.Fatalf("%s: the upload over the damage: %v", d.name, err)
		}
		if !strings.Contains(out.String(), "is damaged") || !strings.Contains(out.String(), d.want) {
			t.Errorf("%s: the upload said %q", d.name, out.String())
		}
		p, err := cch.path(ctx, hash)
		if err != nil {
			t.Fatalf("%s: after the upload: %v", d.name, err)
		}
		if got, err := os.ReadFile(p); err != nil || string(got) != string(content) {
			t.Errorf("%s: the cache holds %q (%v)", d.name, got, err)
		}
		var again sowertest.SyncBuffer
		if err := upload(ctx, c.JS, prog, hash, &again); err != nil || again.String() != "" {
			t.Errorf("%s: a sound object uploaded again: %v, %q", d.name, err, again.String())
		}
	}
}

// settledSubscriptions returns nc's number of subscriptions once it is
// want, or after 5 s. The object store's reader sees the end of an object
// when the library closes its pipe, a moment before the library's own
// callback unsubscribes the object's consumer (nats.go's object Get), so
// right after a whole object was read the count may still be one more.
// A subscription left open stays past the wait.
func settledSubscriptions(nc *nats.Conn, want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := nc.NumSubscriptions()
		if n == want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFetchLeavesNoSubscription makes the cache's temporary file fail
// (a path over the system's limit) while the engine object is there: the
// fetch fails and leaves no subscription of the object open.
func TestFetchLeavesNoSubscription(t *testing.T) {
	dir := t.TempDir()
	_, c := readyBroker(t, dir)
	ctx := context.Background()
	prog, hash := scriptEngine(t, dir)
	if err := upload(ctx, c.JS, prog, hash, io.Discard); err != nil {
		t.Fatal(err)
	}
	// A directory that can be made, in which a file named after the hash
	// cannot: its path would pass PATH_MAX (4096 on Linux).
	const length = 4040
	deep := dir
	for len(deep)+1+200 < length {
		deep = filepath.Join(deep, strings.Repeat("d", 200))
	}
	deep = filepath.Join(deep, strings.Repeat("e", length-len(deep)-1))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Skipf("this system does not make the deep directory: %v", err)
	}
	if f, err := os.CreateTemp(deep, hash+".*.part"); err == nil {
		f.Close()
		t.Skip("this system makes files past 4096 bytes of path")
	}
	subs := c.NC.NumSubscriptions()
	cch := &cache{dir: deep, js: c.JS}
	if p, err := cch.path(ctx, hash); err == nil {
		t.Fatalf("fetched into %s", p)
	}
	if n := c.NC.NumSubscriptions(); n != subs {
		t.Errorf("%d subscriptions after the failed fetch, %d before", n, subs)
	}
}

// TestCorruptObjectRepaired damages an engine object while its match
// runs: the worker that refuses it names the object, the coordinator
// stores the program again and queues the pair once more, and the match
// ends with the pair played instead of failed.
func TestCorruptObjectRepaired(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	prog, hash := scriptEngine(t, dir)
	cfg := builtinMatch(t, 2)
	played := cfg // the games the fake worker sends, played by the built-in players
	var err error
	if cfg.Engines[0], err = match.ParseEngine(prog); err != nil {
		t.Fatal(err)
	}
	cfg.Engines[0].Limit = timecontrol.Limit{Nodes: 100}
	var progress sowertest.SyncBuffer
	cfg.Progress = &progress

	worked := make(chan error, 1)
	go func() { worked <- damagingWorker(ctx, c, hash, played, filepath.Join(dir, "cache")) }()
	sum, err := Run(ctx, c, Match{Config: cfg, ID: "repair", Build: testBuild})
	if err != nil || sum.Score.Games() != 2 {
		t.Errorf("Run: %v, %d games\n%s", err, sum.Score.Games(), progress.String())
	}
	for _, want := range []string{"replacing the object and queueing the pair again", "is damaged"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("no %q in:\n%s", want, progress.String())
		}
	}
	cancel()
	if err := <-worked; err != nil {
		t.Error(err)
	}
}

// damagingWorker takes the tasks of match "repair": at the first it
// damages the engine object hash and reports the refusal of its cache,
// at the next it fetches the object, which must be sound again, and
// sends the pair played as cfg plays it.
func damagingWorker(ctx context.Context, c *Client, hash string, cfg match.Config, cacheDir string) error {
	cons := tasksOf(ctx, c, "repair")
	cch := &cache{dir: cacheDir, js: c.JS}
	for first := true; ctx.Err() == nil; {
		msg, task, err := nextTask(cons)
		if err != nil {
			return err
		}
		if msg == nil {
			continue
		}
		r := Result{Version: Version, Match: task.Match, Pair: task.Pair, Worker: "w"}
		if first {
			first = false
			obs, err := c.JS.ObjectStore(ctx, EngineBucket)
			if err != nil {
				return err
			}
			if _, err := obs.PutBytes(ctx, hash, []byte("damaged")); err != nil {
				return err
			}
			_, err = cch.path(ctx, hash)
			if !errors.Is(err, errCorrupt) {
				return fmt.Errorf("the damaged object fetched: %v", err)
			}
			r.Failed, r.Corrupt = err.Error(), hash
		} else {
			if _, err := cch.path(ctx, hash); err != nil {
				return fmt.Errorf("the object after its repair: %w", err)
			}
			table, err := match.NewTable(cfg)
			if err != nil {
				return err
			}
			open, err := cfg.Variant.ParsePosition(task.Opening)
			if err == nil {
				r.Records, err = table.PlayPair(ctx, task.Pair, open)
			}
			table.Close()
			if err != nil {
				return err
			}
		}
		b, _ := json.Marshal(&r)
		if _, err := c.JS.Publish(ctx, resultSubject(task.Match), b); err != nil {
			return fmt.Errorf("publishing: %w", err)
		}
		_ = msg.DoubleAck(ctx)
	}
	return nil
}

// scriptEngine writes a small program into dir and returns its path and
// SHA-256.
func scriptEngine(t *testing.T, dir string) (string, string) {
	t.Helper()
	prog := filepath.Join(dir, "engine")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho engine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hash, err := hashFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	return prog, hash
}
