package broker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// LeaseBucket is the key-value bucket whose key <run> names the
// coordinator running that match or self-play run. The coordinator
// renews its entry every leaseEvery; the entries live leaseTTL, so that a
// crashed coordinator's claim lapses and the run can be resumed.
const LeaseBucket = "sower_leases"

const (
	leaseEvery = time.Second
	leaseTTL   = 6 * time.Second
)

// holder is what a lease entry says of its coordinator.
type holder struct {
	Host string `json:"host"`
	// PIDs names the process namespace PID is of, where it can be read
	// (two containers may have one host name and each their own PIDs).
	PIDs  string    `json:"pids,omitempty"`
	PID   int       `json:"pid"`
	Token string    `json:"token"` // tells two coordinators of one process apart
	Since time.Time `json:"since"`
}

// lease is a coordinator's claim on its run.
type lease struct {
	kv   jetstream.KeyValue
	key  string
	val  []byte
	mu   sync.Mutex
	rev  uint64
	lost chan error // gets an error when another coordinator took the run
	stop context.CancelFunc
	done chan struct{}
}

// acquire claims run id (a kind, for messages) for this coordinator, or
// fails with ErrBusy naming the run and the coordinator that holds it. A
// claim held by a process of this machine that is gone is taken over at
// once; one of another machine lapses leaseTTL after its last renewal.
func acquire(ctx context.Context, js jetstream.JetStream, id, kind string) (*lease, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: LeaseBucket, Storage: jetstream.FileStorage, TTL: leaseTTL,
		Description: "sower: the coordinator running each match or self-play run",
	})
	if err != nil {
		return nil, fmt.Errorf("the lease bucket: %w", err)
	}
	host, _ := os.Hostname()
	token := make([]byte, 8)
	_, _ = rand.Read(token)
	me := holder{Host: host, PIDs: pidNamespace(), PID: os.Getpid(), Token: hex.EncodeToString(token), Since: time.Now().UTC()}
	l := &lease{kv: kv, key: id, lost: make(chan error, 1), done: make(chan struct{})}
	l.val, _ = json.Marshal(me)
	l.rev, err = kv.Create(ctx, id, l.val)
	if errors.Is(err, jetstream.ErrKeyExists) {
		var e jetstream.KeyValueEntry
		if e, err = kv.Get(ctx, id); errors.Is(err, jetstream.ErrKeyNotFound) {
			l.rev, err = kv.Create(ctx, id, l.val) // it lapsed meanwhile
		} else if err == nil {
			var h holder
			_ = json.Unmarshal(e.Value(), &h)
			if h.Host != me.Host || h.PIDs != me.PIDs || h.PID == me.PID || processAlive(h.PID) {
				return nil, fmt.Errorf("%s %s: %w (pid %d on %s, since %s); if that coordinator is gone, its claim lapses %v after its last renewal",
					kind, id, ErrBusy, h.PID, quoted(h.Host), h.Since.Format(time.RFC3339), leaseTTL)
			}
			l.rev, err = kv.Update(ctx, id, l.val, e.Revision())
		}
	}
	if err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return nil, fmt.Errorf("%s %s: %w (it started just now)", kind, id, ErrBusy)
		}
		return nil, fmt.Errorf("claiming %s %s: %w", kind, id, err)
	}
	rctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	l.stop = stop
	go l.renew(rctx, kind)
	return l, nil
}

// renew renews the lease until ctx ends. A lease that lapsed while the
// broker was out of reach is taken again if no one else took it; if
// someone did, lost says so.
func (l *lease) renew(ctx context.Context, kind string) {
	defer close(l.done)
	t := time.NewTicker(leaseEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.mu.Lock()
		rev, err := l.kv.Update(ctx, l.key, l.val, l.rev)
		if errors.Is(err, jetstream.ErrKeyExists) {
			rev, err = l.kv.Create(ctx, l.key, l.val)
			if errors.Is(err, jetstream.ErrKeyExists) {
				l.mu.Unlock()
				l.lost <- fmt.Errorf("%s %s: %w: another coordinator took it while this one could not reach the broker", kind, l.key, ErrBusy)
				return
			}
		}
		if err == nil {
			l.rev = rev
		}
		l.mu.Unlock()
	}
}

// release stops renewing and gives the run up, so that it can be resumed
// at once.
func (l *lease) release() {
	if l == nil || l.stop == nil {
		return
	}
	l.stop()
	<-l.done
	l.stop = nil
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.kv.Delete(ctx, l.key, jetstream.LastRevision(l.rev))
}
