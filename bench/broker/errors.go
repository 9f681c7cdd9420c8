package broker

import (
	"errors"
	"fmt"
	"time"
)

// retryError marks a failure that may pass (a fetch of an engine that
// timed out): the task goes back to the queue, to be tried again after
// retryDelay, instead of being reported as failed. Find it with
// errors.As.
type retryError struct{ err error }

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

// retryable marks err as a failure that may pass.
func retryable(err error) error { return &retryError{err: err} }

// retryDelay is how long a task whose failure may pass waits before it is
// handed out again.
const retryDelay = 5 * time.Second

// corruptObject is a failure to fetch an engine object that is damaged
// or missing in the store (errCorrupt): the failure report names the
// object, so that the coordinator can replace it.
type corruptObject struct {
	hash string
	err  error
}

func (e *corruptObject) Error() string { return e.err.Error() }
func (e *corruptObject) Unwrap() error { return e.err }

// ErrBusy marks a match or run that another coordinator is running.
var ErrBusy = errors.New("run by another coordinator")

// refusal is a message from the network that is not what it claims or
// not of this run: it is logged with its reason and dropped.
type refusal struct{ reason string }

func (r *refusal) Error() string { return r.reason }

// refuse returns a refusal with the formatted reason.
func refuse(format string, args ...any) error { return &refusal{reason: fmt.Sprintf(format, args...)} }
