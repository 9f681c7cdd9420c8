package broker

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/record"
)

// testFaults runs, with the sower program bin as worker and coordinator,
// the faults a broker must survive with nothing lost or doubled, each
// compared game for game with a local run of the same settings. It is
// part of TestDistributed (and skipped with it under the race detector).
func testFaults(t *testing.T, bin string) {
	t.Run("broker restarted with another token", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		o := ServerOptions{Listen: freeAddr(t), Dir: filepath.Join(dir, "js"), Token: "right"}
		srv, err := Serve(o)
		if err != nil {
			t.Fatal(err)
		}
		url := "nats://right@" + srv.Addr()
		// Games of about half a second each (200,000 nodes a move), 8 for
		// each worker: the broker goes down seconds before the match can
		// end. At 2,000 nodes the 8 games of a quiet machine were all in
		// when the first was reported, and the restarts came too late to
		// be seen.
		args := []string{"match", "--engine1", bin, "--engine2", "builtin:random", "--nodes", "200000", "--games", "16"}
		local := start(t, bin, dir, append(args, "--out", "local.jsonl")...)
		ws := startWorkers(t, bin, url, dir, 2)
		dist := start(t, bin, dir, append(args, "--broker", url, "--ack-wait", "2000", "--out", "dist.jsonl")...)
		dist.waitFor(t, "Finished game", 30*time.Second)
		srv.Close()
		wrong := o
		wrong.Token = "wrong"
		if srv, err = Serve(wrong); err != nil {
			t.Fatal(err)
		}
		// Long enough for several refusals: nats.go gives up at the second.
		time.Sleep(5 * time.Second)
		srv.Close()
		if srv, err = Serve(o); err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		if code := dist.wait(t, 90*time.Second); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		if code := local.wait(t, time.Minute); code != 0 {
			t.Fatalf("local match: exit %d\n%s", code, local.out.String())
		}
		sameRecords(t, dir, 16)
		if out := dist.out.String(); !strings.Contains(out, "authorization violation (check the token") || !strings.Contains(out, "reconnected to the broker at nats://***@") {
			t.Errorf("the coordinator did not report the refusals and the reconnection:\n%s", out)
		}
		// A worker may still be waiting out its backoff (8 s at most)
		// when the others have finished the match.
		for _, w := range ws {
			w.waitFor(t, "reconnected to the broker at nats://***@", 30*time.Second)
			if !strings.Contains(w.out.String(), "authorization violation (check the token") {
				t.Errorf("the worker did not report the refusals:\n%s", w.out.String())
			}
		}
	})

	t.Run("broker restarted while publishing", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		o := ServerOptions{Listen: freeAddr(t), Dir: filepath.Join(dir, "js")}
		srv, err := Serve(o)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Dial(ClientOptions{URL: srv.URL()})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// 10000 pairs take the coordinator seconds to publish: the broker
		// is stopped as soon as the first tasks are in, for longer than
		// the five seconds a publication used to wait.
		const pairs = 10000
		dist := start(t, bin, dir, "match", "--broker", srv.URL(), "--match-id", "big", "--engine1", "builtin:greedy",
			"--engine2", "builtin:random", "--games", "20000", "--sprt", "elo0=0 elo1=50", "--out", "dist.jsonl")
		for end := time.Now().Add(30 * time.Second); queued(t, c, "big") == 0; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("no task published within 30 s:\n%s", dist.out.String())
			}
		}
		srv.Close()
		time.Sleep(7 * time.Second)
		if srv, err = Serve(o); err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		dist.waitFor(t, "Match big: ", time.Minute) // its first progress line follows the publication
		if n := queued(t, c, "big"); n != pairs {
			t.Errorf("%d tasks queued for %d pairs", n, pairs)
		}
		startWorkers(t, bin, srv.URL(), dir, 2)
		local := start(t, bin, dir, "match", "--engine1", "builtin:greedy", "--engine2", "builtin:random", "--games", "400", "--out", "local.jsonl")
		if code := dist.wait(t, 2*time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		out := dist.out.String()
		if !strings.Contains(out, "trying again until it answers") {
			t.Errorf("the broker was not restarted during the publication:\n%s", out)
		}
		if !strings.Contains(out, "H1 was accepted") {
			t.Errorf("no decision:\n%s", report(out))
		}
		if code := local.wait(t, time.Minute); code != 0 {
			t.Fatalf("local match: exit %d\n%s", code, local.out.String())
		}
		lr, dr := readRecords(t, filepath.Join(dir, "local.jsonl")), readRecords(t, filepath.Join(dir, "dist.jsonl"))
		byGame := map[int]record.GameRecord{}
		for _, r := range lr {
			byGame[r.Game] = r
		}
		compared := 0
		for i, r := range dr {
			if i > 0 && dr[i-1].Game == r.Game {
				t.Errorf("game %d recorded twice", r.Game)
			}
			if l, ok := byGame[r.Game]; ok {
				compared++
				if !reflect.DeepEqual(l, r) {
					t.Errorf("game %d differs from the local match's", r.Game)
				}
			}
		}
		if len(dr) == 0 || compared == 0 {
			t.Errorf("%d games recorded, %d compared with the local match", len(dr), compared)
		}
	})

	t.Run("damaged engine object", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv, c := readyBroker(t, dir)
		ctx := context.Background()
		hash, err := hashFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		obs, err := c.JS.ObjectStore(ctx, EngineBucket)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := obs.PutBytes(ctx, hash, []byte("\x7fELF damaged")); err != nil {
			t.Fatal(err)
		}
		args := []string{"match", "--engine1", bin, "--engine2", "builtin:random", "--nodes", "2000", "--games", "4"}
		local := start(t, bin, dir, append(args, "--out", "local.jsonl")...)
		startWorkers(t, bin, srv.URL(), dir, 1)
		dist := start(t, bin, dir, append(args, "--broker", srv.URL(), "--out", "dist.jsonl")...)
		if code := dist.wait(t, time.Minute); code != 0 {
			t.Fatalf("exit %d\n%s", code, dist.out.String())
		}
		if !strings.Contains(dist.out.String(), "is damaged (it has content of SHA-256") {
			t.Errorf("the damaged object was not reported:\n%s", dist.out.String())
		}
		if code := local.wait(t, time.Minute); code != 0 {
			t.Fatalf("local match: exit %d\n%s", code, local.out.String())
		}
		sameRecords(t, dir, 4)
	})

	t.Run("datagen refuses another build", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		srv := startServer(t, filepath.Join(dir, "js"), ServerOptions{})
		// The same program with bytes appended: it runs as before, but it
		// is another build, as one with another evaluation would be.
		prog, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(dir, "sower-other")
		if err := os.WriteFile(other, append(prog, "another build"...), 0o755); err != nil {
			t.Fatal(err)
		}
		stranger := start(t, other, dir, "worker", "--broker", srv.URL(), "--name", "other", "--cache", filepath.Join(dir, "cache-other"))
		args := []string{"datagen", "--game", "hoyito3", "--nodes", "300", "--seed", "3", "--games", "4"}
		dist := append(args, "--out", "dist.bin", "--broker", srv.URL(), "--batch", "2")
		p := start(t, bin, dir, dist...)
		if code := p.wait(t, time.Minute); code != 1 || !strings.Contains(p.out.String(), "the run's games are played by sower") {
			t.Errorf("datagen on a worker of another build: exit %d\n%s", code, p.out.String())
		}
		if !strings.Contains(stranger.out.String(), "failed: this worker is sower") {
			t.Errorf("the worker of another build:\n%s", stranger.out.String())
		}
		_ = stranger.cmd.Process.Signal(os.Interrupt)
		stranger.wait(t, 30*time.Second)
		startWorkers(t, bin, srv.URL(), dir, 1)
		for _, c := range [][]string{dist, append(args, "--out", "local.bin")} {
			p := start(t, bin, dir, c...)
			if code := p.wait(t, time.Minute); code != 0 {
				t.Fatalf("%v: exit %d\n%s", c, code, p.out.String())
			}
		}
		local, got := readData(t, filepath.Join(dir, "local.bin")), readData(t, filepath.Join(dir, "dist.bin"))
		if len(local) == 0 || !reflect.DeepEqual(local, got) {
			t.Errorf("the data differ: %d records locally, %d over the broker", len(local), len(got))
		}
	})
}

// sameRecords checks that dir's dist.jsonl holds games 1..n once each,
// the games of local.jsonl.
func sameRecords(t *testing.T, dir string, n int) {
	t.Helper()
	lr, dr := readRecords(t, filepath.Join(dir, "local.jsonl")), readRecords(t, filepath.Join(dir, "dist.jsonl"))
	checkGames(t, dr, n)
	if !reflect.DeepEqual(lr, dr) {
		t.Errorf("the records differ from the local match's")
	}
}

// queued returns the number of tasks of match id in the task stream.
func queued(t *testing.T, c *Client, id string) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.JS.Stream(ctx, TaskStream)
	if err != nil {
		return 0 // not yet created
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(taskSubjects(id)))
	if err != nil {
		t.Fatal(err)
	}
	n := uint64(0)
	for _, k := range info.State.Subjects {
		n += k
	}
	return n
}
