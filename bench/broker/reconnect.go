package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Reconnection: how long a client waits between attempts to reach a lost
// broker, and how often it says that it is still trying.
const (
	// firstReconnectWait is the wait after the first failed attempt; it
	// doubles with every failure up to maxReconnectWait, so that a broker
	// back after a few seconds is found at once and a broker down for
	// hours is not called on by every worker several times a second.
	firstReconnectWait = 500 * time.Millisecond
	maxReconnectWait   = 8 * time.Second
	// repeatNoteEvery spaces the lines that repeat the same error.
	repeatNoteEvery = time.Minute
)

// reconnectDelay is the wait after the attempts-th failed attempt in a row
// to reach the broker, with a quarter of random spread so that the
// workers of a restarted broker do not all call at once.
func reconnectDelay(attempts int) time.Duration {
	d := maxReconnectWait
	if attempts >= 1 && attempts <= 5 {
		d = min(firstReconnectWait<<(attempts-1), maxReconnectWait)
	}
	return d + rand.N(d/4+1)
}

// connLog writes what happens to the connection, one line per event and
// not the same refusal more than once a minute.
type connLog struct {
	w   io.Writer
	url string

	mu     sync.Mutex
	last   string    // the last refusal written
	lastAt time.Time // when
	lostAt time.Time // when the connection was lost
}

func (l *connLog) lostConn(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last, l.lostAt = "", time.Now()
	if err == nil {
		err = errors.New("disconnected")
	}
	fmt.Fprintf(l.w, "lost the connection to the broker at %s (%v): reconnecting for as long as it takes\n", l.url, err)
}

// refused notes a failed attempt to reconnect.
func (l *connLog) refused(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.note(err, "reconnecting to the broker at %s: %v%s; still trying, every %v at most\n", l.url, err, authHint(err), maxReconnectWait)
}

// asyncError notes an error the broker sent outside any request: a
// refusal of the credentials while reconnecting comes this way.
func (l *connLog) asyncError(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.note(err, "the broker at %s: %v%s\n", l.url, err, authHint(err))
}

// note writes a line for err unless the same error was written less than
// repeatNoteEvery ago; l.mu is held.
func (l *connLog) note(err error, format string, args ...any) {
	if msg := err.Error(); msg != l.last || time.Since(l.lastAt) >= repeatNoteEvery {
		l.last, l.lastAt = msg, time.Now()
		fmt.Fprintf(l.w, format, args...)
	}
}

// authHint is what to check when err refuses the credentials.
func authHint(err error) string {
	if errors.Is(err, nats.ErrAuthorization) || isAuthError(err.Error()) {
		return " (check the token or --broker-creds)"
	}
	return ""
}

func (l *connLog) found() {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "reconnected to the broker at %s after %v\n", l.url, time.Since(l.lostAt).Round(100*time.Millisecond))
	l.last = ""
}

// publishAttempt bounds one attempt to publish and get the broker's
// acknowledgement; publishRetryWait is the wait before the next one.
const (
	publishAttempt   = 5 * time.Second
	publishRetryWait = time.Second
)

// publish publishes data on subject and waits for the broker to store it.
// While the broker does not answer (restarted, reconnecting, JetStream
// not yet ready) it tries again, for as long as ctx allows: msgID makes a
// message the broker received twice stored once. Other errors (a message
// too large, a closed connection) are returned at once.
func (c *Client) publish(ctx context.Context, subject string, data []byte, msgID string) error {
	for noted := false; ; {
		actx, cancel := context.WithTimeout(ctx, publishAttempt)
		_, err := c.JS.Publish(actx, subject, data, jetstream.WithMsgID(msgID))
		cancel()
		if err == nil || ctx.Err() != nil || !retryablePublish(err) {
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if !noted {
			fmt.Fprintf(c.log.w, "publishing to the broker at %s: %v; trying again until it answers\n", c.url, err)
			noted = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(publishRetryWait):
		}
	}
}

// retryablePublish reports whether a publication failed for want of an
// answer from the broker, rather than being refused by it.
func retryablePublish(err error) bool {
	var api *jetstream.APIError
	switch {
	case errors.As(err, &api):
		return api.Code == 503 // JetStream not (yet) available
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout),
		errors.Is(err, nats.ErrNoResponders), errors.Is(err, jetstream.ErrNoStreamResponse),
		errors.Is(err, nats.ErrConnectionReconnecting), errors.Is(err, nats.ErrReconnectBufExceeded),
		errors.Is(err, nats.ErrDisconnected):
		return true
	}
	return false
}
