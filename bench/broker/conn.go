package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DialTimeout bounds the first connection to the broker.
const DialTimeout = 3 * time.Second

// ClientOptions say how to reach the broker and prove who we are.
type ClientOptions struct {
	// URL is the broker's address, "nats://host:4222"; a token may be
	// given in it ("nats://TOKEN@host:4222"), a user and password too.
	URL string
	// Creds is a NATS credentials file (a user JWT and its NKey seed).
	Creds string
	// CA is a PEM file of the certificate authorities that sign the
	// broker's certificate; Cert and Key a client certificate and its
	// key, for a broker that asks for one.
	CA, Cert, Key string
	// Name is the connection's name, shown by the broker's monitoring.
	Name string
	// Log, if set, gets a line when the connection is lost, when the
	// broker refuses it while reconnecting (a changed token), when it is
	// found again and when a publication waits for the broker.
	Log io.Writer
}

// Client is a connection to the broker with its JetStream context.
type Client struct {
	NC  *nats.Conn
	JS  jetstream.JetStream
	url string // for messages, without secrets
	log *connLog

	closing atomic.Bool   // Close was called
	lost    chan struct{} // closed when the connection is closed for good without Close
	lostErr error         // why, set before lost is closed
}

// ErrConnectionLost is the cause of a Client.Context that ended because
// the connection was closed for good without the client closing it.
var ErrConnectionLost = errors.New("the connection to the broker was closed for good")

// Redact returns the URL with the token, or the user and password, it may
// carry shown as "***": "nats://***@host:4222".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	// url.User would escape the stars ("%2A%2A%2A"): the URL is written
	// without its user and the stars put back in by hand.
	u.User = nil
	s := u.String()
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		return scheme + "://***@" + rest
	}
	return s
}

// Dial connects to the broker. The error is one line naming the broker
// and what went wrong: unreachable, refused credentials, a TLS failure.
// Once connected the client reconnects for as long as it takes, so that a
// restarted broker is found again: also when the broker refuses the
// credentials for a while (restarted with another token, then with the
// right one), which NATS clients otherwise give up on at the second
// refusal. The attempts are spaced by reconnectDelay.
func Dial(o ClientOptions) (*Client, error) {
	if o.URL == "" {
		return nil, errors.New("no broker URL")
	}
	safe := Redact(o.URL)
	c := &Client{url: safe, log: &connLog{w: o.Log, url: safe}, lost: make(chan struct{})}
	if c.log.w == nil {
		c.log.w = io.Discard
	}
	opts := []nats.Option{
		nats.Name(o.Name), nats.Timeout(DialTimeout), nats.MaxReconnects(-1),
		nats.CustomReconnectDelay(reconnectDelay), nats.IgnoreAuthErrorAbort(),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if !c.closing.Load() { // Close disconnects too
				c.log.lostConn(err)
			}
		}),
		nats.ReconnectErrHandler(func(_ *nats.Conn, err error) { c.log.refused(err) }),
		// A refusal of the credentials comes as an asynchronous error.
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { c.log.asyncError(err) }),
		nats.ReconnectHandler(func(*nats.Conn) { c.log.found() }),
		nats.ClosedHandler(func(nc *nats.Conn) { c.closed(nc.LastError()) }),
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.CA != "" {
		opts = append(opts, nats.RootCAs(o.CA))
	}
	if (o.Cert == "") != (o.Key == "") {
		return nil, errors.New("a client certificate needs both its certificate and its key file")
	}
	if o.Cert != "" {
		opts = append(opts, nats.ClientCert(o.Cert, o.Key))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		switch {
		case errors.Is(err, nats.ErrAuthorization), isAuthError(err.Error()):
			return nil, fmt.Errorf("the broker at %s refused the connection: %v (check the token or --broker-creds)", safe, err)
		case errors.Is(err, nats.ErrNoServers):
			return nil, fmt.Errorf("cannot reach the broker at %s: %v", safe, err)
		}
		return nil, fmt.Errorf("connecting to the broker at %s: %v", safe, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		c.closing.Store(true)
		nc.Close()
		return nil, err
	}
	c.NC, c.JS = nc, js
	return c, nil
}

// isAuthError reports whether an error's text is a refusal of the
// credentials (the server's "-ERR 'Authorization Violation'").
func isAuthError(msg string) bool {
	return strings.Contains(strings.ToLower(msg), "authorization")
}

// Close closes the connection, flushing what was published.
func (c *Client) Close() {
	c.closing.Store(true)
	_ = c.NC.Drain()
}

// closed is called when the connection is closed: by Close, or for good
// by the NATS client, which then never reconnects.
func (c *Client) closed(last error) {
	if c.closing.Load() {
		return
	}
	c.lostErr = fmt.Errorf("%w: %s: %v", ErrConnectionLost, c.url, last)
	fmt.Fprintf(c.log.w, "%v\n", c.lostErr)
	close(c.lost)
}

// Context returns a context that ends when parent ends or when the
// connection is closed for good without Close (context.Cause is then an
// error wrapping ErrConnectionLost): a worker or coordinator whose
// connection is gone stops and says so, instead of waiting for ever.
// cancel releases its resources.
func (c *Client) Context(parent context.Context) (ctx context.Context, cancel context.CancelFunc) {
	ctx, stop := context.WithCancelCause(parent)
	go func() {
		select {
		case <-c.lost:
			stop(c.lostErr)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { stop(context.Canceled) }
}

// URL returns the broker's address without secrets.
func (c *Client) URL() string { return c.url }

// heartbeatEvery is how often a worker renews its entry in WorkerBucket,
// whose entries live for three times as long.
const heartbeatEvery = 5 * time.Second

// setupTimeout bounds the setup of the streams, buckets and object store
// (ensure) when the caller's context sets no deadline. The JetStream
// client's own default, 5 s a request, was too short for a busy broker
// creating file storage: the tests failed on it on a loaded 2-core
// machine.
const setupTimeout = time.Minute

// ensure creates the streams, buckets and object stores the matches,
// self-play runs and proofs use,
// or checks that they are there. It fails with a clear message when the
// server has no JetStream.
func (c *Client) ensure(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, setupTimeout)
		defer cancel()
	}
	if err := c.accountInfo(ctx, accountTry); err != nil {
		return fmt.Errorf("the broker at %s has no JetStream for us: %v", c.url, err)
	}
	if _, err := c.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: TaskStream, Subjects: []string{"sower.task.>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Duplicates: 10 * time.Minute,
		Description: "sower: pair tasks, one work queue for every match",
	}); err != nil {
		return fmt.Errorf("the task stream: %w", err)
	}
	if _, err := c.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: ResultStream, Subjects: []string{"sower.result.>"}, Storage: jetstream.FileStorage,
		Duplicates: 10 * time.Minute, Description: "sower: the records of finished pairs and the failed ones",
	}); err != nil {
		return fmt.Errorf("the result stream: %w", err)
	}
	if _, err := c.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: MatchBucket, Storage: jetstream.FileStorage, Description: "sower: match settings and status",
	}); err != nil {
		return fmt.Errorf("the match bucket: %w", err)
	}
	if _, err := c.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: WorkerBucket, Storage: jetstream.FileStorage, TTL: 3 * heartbeatEvery,
		Description: "sower: the workers connected",
	}); err != nil {
		return fmt.Errorf("the worker bucket: %w", err)
	}
	if _, err := c.JS.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: EngineBucket, Storage: jetstream.FileStorage, Description: "sower: engine programs by SHA-256",
	}); err != nil {
		return fmt.Errorf("the engine store: %w", err)
	}
	if _, err := c.JS.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: ProofBucket, Storage: jetstream.FileStorage, Description: "sower: certificate pieces of distributed proofs by SHA-256",
	}); err != nil {
		return fmt.Errorf("the proof store: %w", err)
	}
	return nil
}

// accountTry bounds one JetStream account request in accountInfo.
const accountTry = 5 * time.Second

// accountInfo asks for the JetStream account, waiting up to each for an
// answer, until it is answered, the server says JetStream is off, or ctx
// ends. One request that a busy
// server drops is asked again instead of using up the whole setup time:
// a coordinator once waited a minute for a single lost answer.
func (c *Client) accountInfo(ctx context.Context, each time.Duration) error {
	for {
		try, cancel := context.WithTimeout(ctx, each)
		_, err := c.JS.AccountInfo(try)
		cancel()
		if err == nil || ctx.Err() != nil || !(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)) {
			return err
		}
	}
}

// DefaultAckWait is how long a task may go without an acknowledgement
// (workers send progress acknowledgements every third of it) before it is
// given to another worker.
const DefaultAckWait = 30 * time.Second

// defaultMaxDeliver bounds how often a task is handed out: a pair that
// kills its workers again and again is given up (and reported) at last.
const defaultMaxDeliver = 10
