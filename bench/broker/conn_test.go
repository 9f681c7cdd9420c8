package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/internal/sowertest"
)

// TestRedact checks that a secret in the broker's URL is shown as "***",
// as the documentation shows it, and that a URL without one is unchanged.
func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"nats://s3cret@broker.lan:4222", "nats://***@broker.lan:4222"},
		{"nats://user:pass@broker.lan:4222", "nats://***@broker.lan:4222"},
		{"tls://s3cret@10.0.0.1:4222", "tls://***@10.0.0.1:4222"},
		{"nats://broker.lan:4222", "nats://broker.lan:4222"},
		{"nats://127.0.0.1:4222", "nats://127.0.0.1:4222"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// freeAddr returns a loopback address with a port free at the time, for a
// broker that must come back at the same address.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestReconnectThroughRefusals restarts the broker with another token for
// longer than NATS clients take to give up on refused credentials (two
// refusals), then with the right one: the client is still trying, says
// why it waits, and connects again.
func TestReconnectThroughRefusals(t *testing.T) {
	dir := t.TempDir()
	o := ServerOptions{Listen: freeAddr(t), Dir: filepath.Join(dir, "js"), Token: "right"}
	srv, err := Serve(o)
	if err != nil {
		t.Fatal(err)
	}
	var log sowertest.SyncBuffer
	c, err := Dial(ClientOptions{URL: "nats://right@" + srv.Addr(), Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := c.Context(context.Background())
	defer cancel()
	srv.Close()
	wrong := o
	wrong.Token = "wrong"
	if srv, err = Serve(wrong); err != nil {
		t.Fatal(err)
	}
	// The first refusal is reported; in the next 4 s come two more
	// (reconnectDelay spaces them 1 and 2 s), past NATS's two.
	for end := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), "authorization violation"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no refusal reported:\n%s", log.String())
		}
	}
	time.Sleep(4 * time.Second)
	if c.NC.IsClosed() || ctx.Err() != nil {
		t.Fatalf("the client gave up on refused credentials:\n%s", log.String())
	}
	srv.Close()
	if srv, err = Serve(o); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// The reconnection is written by the NATS client's callback goroutine,
	// which may run after IsConnected is already true: wait for the line.
	for end := time.Now().Add(30 * time.Second); !c.NC.IsConnected() || !strings.Contains(log.String(), "reconnected to the broker"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("not reconnected 30 s after the right token came back:\n%s", log.String())
		}
	}
	out := log.String()
	for _, want := range []string{"lost the connection to the broker at nats://***@", "authorization violation", "check the token", "reconnected to the broker"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "right") || strings.Contains(out, "wrong") {
		t.Errorf("the log shows a token:\n%s", out)
	}
}

// TestConnectionLost closes a client's connection under it, as the NATS
// client does when it gives up: its Context ends with ErrConnectionLost
// and a message naming the broker. A connection closed by Close does not
// count as lost, and writes nothing.
func TestConnectionLost(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	dial := func(log io.Writer) *Client {
		c, err := Dial(ClientOptions{URL: srv.URL(), Log: log})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	var log sowertest.SyncBuffer
	c := dial(&log)
	ctx, cancel := c.Context(context.Background())
	defer cancel()
	c.NC.Close()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the context did not end when the connection was closed for good")
	}
	if cause := context.Cause(ctx); !errors.Is(cause, ErrConnectionLost) || !strings.Contains(cause.Error(), srv.URL()) {
		t.Errorf("cause %v", cause)
	}
	if !strings.Contains(log.String(), "the connection to the broker was closed for good: "+srv.URL()) {
		t.Errorf("log: %q", log.String())
	}

	var quiet sowertest.SyncBuffer
	c = dial(&quiet)
	ctx, cancel = c.Context(context.Background())
	defer cancel()
	c.Close()
	for end := time.Now().Add(5 * time.Second); !c.NC.IsClosed() && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if ctx.Err() != nil {
		t.Errorf("Close ended the context: %v", context.Cause(ctx))
	}
	if quiet.String() != "" {
		t.Errorf("Close wrote %q", quiet.String())
	}
}

// TestReconnectDelay checks the backoff: from half a second, doubling, to
// eight seconds at most, with at most a quarter more of spread.
func TestReconnectDelay(t *testing.T) {
	for _, c := range []struct {
		attempts int
		base     time.Duration
	}{{1, 500 * time.Millisecond}, {2, time.Second}, {3, 2 * time.Second}, {4, 4 * time.Second}, {5, 8 * time.Second}, {6, 8 * time.Second}, {1000, 8 * time.Second}} {
		for range 20 {
			if d := reconnectDelay(c.attempts); d < c.base || d > c.base+c.base/4 {
				t.Errorf("attempt %d: %v, want %v to %v", c.attempts, d, c.base, c.base+c.base/4)
			}
		}
	}
}

// TestRetryablePublish checks which publication errors are tried again:
// those of a broker that does not answer, not those of a broker that
// refuses the message or of a closed connection.
func TestRetryablePublish(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{context.DeadlineExceeded, true},
		{fmt.Errorf("publishing: %w", nats.ErrTimeout), true},
		{jetstream.ErrNoStreamResponse, true},
		{nats.ErrNoResponders, true},
		{nats.ErrReconnectBufExceeded, true},
		{&jetstream.APIError{Code: 503, Description: "JetStream system temporarily unavailable"}, true},
		{&jetstream.APIError{Code: 400, Description: "bad request"}, false},
		{nats.ErrMaxPayload, false},
		{nats.ErrConnectionClosed, false},
		{errors.New("something else"), false},
	} {
		if got := retryablePublish(c.err); got != c.want {
			t.Errorf("%v: retryable %v, want %v", c.err, got, c.want)
		}
	}
}

// TestAccountInfoAsksAgain checks that a JetStream account request the
// server drops is asked again: a broker that answers only the third
// request is found, and one with no JetStream at all is reported at once.
func TestAccountInfoAsksAgain(t *testing.T) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	t.Cleanup(s.Shutdown)
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the server did not start")
	}
	c, err := Dial(ClientOptions{URL: s.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// No JetStream and nobody answering: an error at once, not a wait.
	start := time.Now()
	if err := c.accountInfo(ctx, 10*time.Second); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("no JetStream: got %v after %v, want an error at once", err, time.Since(start))
	}

	// An account service that drops the first two requests.
	var asked atomic.Int32
	sub, err := c.NC.Subscribe("$JS.API.INFO", func(m *nats.Msg) {
		if asked.Add(1) > 2 {
			_ = m.Respond([]byte(`{"type":"io.nats.jetstream.api.v1.account_info_response","memory":0,"storage":0,"streams":0,"consumers":0,"limits":{}}`))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := c.NC.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := c.accountInfo(ctx, 200*time.Millisecond); err != nil {
		t.Fatalf("asked %d times: %v", asked.Load(), err)
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("asked %d times, want 3", n)
	}
}
