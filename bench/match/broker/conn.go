package broker

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
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
}

// Client is a connection to the broker with its JetStream context.
type Client struct {
	NC  *nats.Conn
	JS  jetstream.JetStream
	url string // for messages, without secrets
}

// Redact returns the URL without the token or password it may carry.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = url.User("***")
	return u.String()
}

// Dial connects to the broker. The error is one line naming the broker
// and what went wrong: unreachable, refused credentials, a TLS failure.
// Once connected the client reconnects for as long as it takes, so that a
// restarted broker is found again.
func Dial(o ClientOptions) (*Client, error) {
	if o.URL == "" {
		return nil, errors.New("no broker URL")
	}
	opts := []nats.Option{
		nats.Name(o.Name), nats.Timeout(DialTimeout), nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
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
	safe := Redact(o.URL)
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		switch {
		case errors.Is(err, nats.ErrAuthorization), strings.Contains(strings.ToLower(err.Error()), "authorization"):
			return nil, fmt.Errorf("the broker at %s refused the connection: %v (check the token or --broker-creds)", safe, err)
		case errors.Is(err, nats.ErrNoServers):
			return nil, fmt.Errorf("cannot reach the broker at %s: %v", safe, err)
		}
		return nil, fmt.Errorf("connecting to the broker at %s: %v", safe, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &Client{NC: nc, JS: js, url: safe}, nil
}

// Close closes the connection, flushing what was published.
func (c *Client) Close() {
	_ = c.NC.Drain()
}

// URL returns the broker's address without secrets.
func (c *Client) URL() string { return c.url }

// heartbeatEvery is how often a worker renews its entry in WorkerBucket,
// whose entries live for three times as long.
const heartbeatEvery = 5 * time.Second

// ensure creates the streams, buckets and object store the matches use,
// or checks that they are there. It fails with a clear message when the
// server has no JetStream.
func (c *Client) ensure(ctx context.Context) error {
	if _, err := c.JS.AccountInfo(ctx); err != nil {
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
	return nil
}

// DefaultAckWait is how long a task may go without an acknowledgement
// (workers send progress acknowledgements every third of it) before it is
// given to another worker.
const DefaultAckWait = 30 * time.Second

// defaultMaxDeliver bounds how often a task is handed out: a pair that
// kills its workers again and again is given up (and reported) at last.
const defaultMaxDeliver = 10
