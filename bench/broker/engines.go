package broker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// hashFile returns the SHA-256 of a file, in hex.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// program finds an engine's program as the operating system would run
// it (a path, or a name on PATH).
func program(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// upload puts the program at path into the engine store under its hash,
// unless the object stored there has those bytes. An object whose bytes
// do not have the hash it is named by (damaged in the store, or put there
// by another program) would be refused by every worker: it is replaced,
// and a line written to out says so. The check reads the object back, one
// download of each engine per coordinator start.
func upload(ctx context.Context, js jetstream.JetStream, path, hash string, out io.Writer) error {
	// Without a deadline of its own the object store allows a transfer
	// five seconds in all: too little for a large program on a busy line.
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	obs, err := js.ObjectStore(ctx, EngineBucket)
	if err != nil {
		return err
	}
	if _, err := obs.GetInfo(ctx, hash); err == nil {
		damage := storedDamage(ctx, obs, hash)
		if damage == nil {
			return nil
		}
		if !errors.Is(damage, errCorrupt) {
			return fmt.Errorf("reading the engine store's copy back: %w", damage)
		}
		fmt.Fprintf(out, "The engine store's copy of %s (%s) is damaged (%v): uploading it again\n", filepath.Base(path), hash, damage)
	} else if !errors.Is(err, jetstream.ErrObjectNotFound) {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = obs.Put(ctx, jetstream.ObjectMeta{Name: hash, Description: filepath.Base(path)}, f)
	return err
}

// storedDamage reads the object stored under hash and returns an error
// wrapping errCorrupt when its bytes do not have that hash, another
// error when it cannot be read, nil when it is sound.
func storedDamage(ctx context.Context, obs jetstream.ObjectStore, hash string) error {
	res, err := obs.Get(ctx, hash)
	if err != nil {
		return err
	}
	return readObject(ctx, res, io.Discard, hash)
}

// readObject copies an object being fetched to w, checking that its bytes
// have the SHA-256 hash, and closes it. The error wraps errCorrupt when
// they do not, ctx.Err() when ctx ends first.
func readObject(ctx context.Context, res jetstream.ObjectResult, w io.Writer, hash string) error {
	h := sha256.New()
	// A read of the object waits for its chunks without seeing ctx end
	// (Ctrl-C), and holds the lock that closing the object needs: the
	// copy runs on its own, and when ctx ends first it is left to end
	// with the connection.
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.MultiWriter(w, h), res)
		res.Close()
		copied <- err
	}()
	var err error
	select {
	case err = <-copied:
	case <-ctx.Done():
		return ctx.Err()
	}
	if errors.Is(err, jetstream.ErrDigestMismatch) {
		return fmt.Errorf("its digest does not match its content: %w", errCorrupt)
	}
	if err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != hash {
		return fmt.Errorf("it has content of SHA-256 %s: %w", got, errCorrupt)
	}
	return nil
}

// cache keeps the engine programs a worker has fetched, one file per
// SHA-256 in its directory.
type cache struct {
	dir string
	js  jetstream.JetStream
	mu  sync.Mutex // one fetch at a time
}

// errCorrupt marks an engine object that cannot be used: missing, or with
// content that does not have the hash it is stored under. Other fetch
// errors (a timeout) may pass, and the task is tried again.
var errCorrupt = errors.New("corrupt or missing engine object")

// transferTimeout bounds the upload or download of one engine program.
const transferTimeout = 10 * time.Minute

// path returns the program stored under hash, fetching it if the cache
// lacks it or holds a file of another hash. The content is checked
// against the hash before it is kept.
func (c *cache) path(ctx context.Context, hash string) (string, error) {
	if len(hash) != 64 {
		return "", fmt.Errorf("engine hash %q is not a SHA-256", hash)
	}
	if _, err := hex.DecodeString(hash); err != nil {
		return "", fmt.Errorf("engine hash %q is not a SHA-256", hash)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	dst := filepath.Join(c.dir, hash)
	if got, err := hashFile(dst); err == nil && got == hash {
		return dst, nil
	}
	// The temporary file is made before the object is opened, so that no
	// failure leaves the object's subscription open.
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(c.dir, hash+".*.part")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	obs, err := c.js.ObjectStore(ctx, EngineBucket)
	if err != nil {
		return "", err
	}
	res, err := obs.Get(ctx, hash)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return "", fmt.Errorf("engine %s is not in the engine store: %w", hash, errCorrupt)
	}
	if err != nil {
		return "", fmt.Errorf("fetching engine %s: %w", hash, err)
	}
	err = readObject(ctx, res, tmp, hash)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, errCorrupt) {
		return "", fmt.Errorf("engine object %s is corrupt: %w", hash, err)
	}
	if err != nil {
		return "", fmt.Errorf("fetching engine %s: %w", hash, err)
	}
	if err := os.Chmod(tmp.Name(), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", err
	}
	return dst, nil
}
